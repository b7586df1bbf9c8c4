//! Printed card text: tokenizer, parser and typed meaning.
//!
//! [`parse_text`] reads the rules text of an Underworlds card (as printed, or as written in
//! a card's `text` field) and returns its meaning as a [`CardText`]: keywords, when it is
//! scored or played, its effects with their numbers and targets, durations, conditions and
//! restrictions, each with its byte span in the text. Typographic noise is removed first
//! ([`normalize`]); the tokens come from a logos lexer ([`tokenize`]); the parser is a
//! phrase parser (see [`parse_text`]'s module documentation for its phrase table).
//!
//! Comparing a text with what a card does is the facade's job (`gloam::text`): this module
//! knows nothing of scripts.
//!
//! ```
//! use gloam_grammar::text::{parse_text, Item, ScoreTiming, Condition};
//! let text = parse_text("Score this in an end phase if your leader has two or more wound counters.");
//! assert!(text.is_parsed());
//! let items: Vec<&Item> = text.clauses.iter().map(|c| &c.item).collect();
//! assert!(items.contains(&&Item::Score(ScoreTiming::EndPhase)));
//! assert!(items.contains(&&Item::Condition(Condition::AtLeast(2))));
//! assert!(items.contains(&&Item::Condition(Condition::Mentions("leader".into()))));
//! ```

mod ast;
mod lexer;
mod normalize;
mod parse;

pub use ast::{
    CardText, Clause, Condition, Deck, Duration, Effect, EffectKind, Event, Item, Keyword,
    PushDirection, Quantity, Role, Roll, ScoreTiming, Side, Stat, Target, Territory, Trigger,
};
pub use lexer::{Token, TokenKind, tokenize};
pub use normalize::{Normalized, normalize};
pub use parse::parse_text;
