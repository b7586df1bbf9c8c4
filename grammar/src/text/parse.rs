//! The parser of card text: a phrase parser over the tokens of [`super::tokenize`].
//!
//! Printed rules text is regular but not a formal language: the same meaning is written
//! many ways (`one or more`, `at least one`, `a`), and sentences mix rules with words that
//! carry none. The parser walks the tokens once; at each token it tries the phrase rules
//! below in order, and a rule that matches records a [`Clause`] with its span. Words no
//! rule claims are skipped. A sentence in which no rule matched is reported as unparsed,
//! so a text the parser does not understand is never silently accepted.
//!
//! | phrase | meaning |
//! | --- | --- |
//! | `Surge`, `Hybrid`, `Dual`, `Waypoint`, `Illusion`, `Grievous`, `Reaction:`, `Spell` | [`Keyword`] |
//! | `Score (this) in an end phase`, `... in the third end phase`, `... immediately/right after` | [`ScoreTiming`] |
//! | `after ...` (an activation, an action, an Attack action, a reaction, out of action; Embergard's `an attack`, `delves`, `moves`, `is dealt damage`) | [`Trigger::After`] |
//! | `before ...` (Embergard: `immediately before an attack`) | [`Trigger::Before`] |
//! | `at the end of the/each action phase`, `Action:`, `has this action`, `against it` | [`Trigger`] |
//! | `in/during the next activation step`, `until the end of the phase/round`, `until another Waypoint is played`, `your next activation` | [`Duration`] |
//! | `push TARGET (up to) N hex(es) (towards/closer/away)`, `deal N damage to`, `suffers N damage`, `heal N` | [`Effect`] |
//! | `+N Stat`, `-N Stat`, `roll N more/fewer dice`, `N extra damage`, `re-roll one (attack/defence) die` | [`Effect`] |
//! | `draw N (power/objective) cards`, `discard ...`, `gains a X token`, `gains one`, `give a X token to`, `stagger`, `break` | [`Effect`] |
//! | `raise TARGET`, `count as successes`, `cannot be activated again` | [`Effect`] |
//! | `N or more`, `at least N`, `exactly N`, `no ...`, `Range N (or Range M)`, `within N hexes`, `adjacent`, `next to` | [`Condition`] |
//! | `leader`, `wizard`, `minion`, `assassin`, `X token`, `cover/edge hex`, `feature token`, `successful`, `fails`, `once per round` | [`Condition`] |
//! | `in friendly/enemy territory`, `outside your territory`, `the number of the current round`, `still stands` | [`Condition`] |
//! | a fighter phrase in a condition scope (`if ...`, `after ...`, `next to ...`): whose it is, and in a moment the part it plays | [`Condition::Whose`], [`Condition::Role`] |
//! | `Restricted: NAME, NAME` | [`Item::Restriction`] |

use std::ops::Range;

use super::ast::{
    CardText, Clause, Condition, Deck, Duration, Effect, EffectKind, Event, Item, Keyword,
    PushDirection, Quantity, Role, Roll, ScoreTiming, Side, Stat, Target, Territory, Trigger,
};
use super::lexer::{Token, TokenKind, tokenize};
use super::normalize::{Normalized, normalize};

/// Parses a card text. Never fails: what is not understood is listed in
/// [`CardText::unparsed`].
///
/// # Examples
///
/// ```
/// use gloam_grammar::text::{parse_text, Item, Effect, EffectKind, PushDirection, Side};
/// let text = parse_text("Push each friendly fi ghter 1 hex towards the nearest enemy fighter.");
/// assert!(text.is_parsed());
/// let (clause, effect) = text.effects().next().unwrap();
/// assert_eq!(effect.kind, EffectKind::Push(PushDirection::Closer));
/// assert_eq!(effect.amount, Some(1));
/// assert_eq!(effect.target.side, Side::Friendly);
/// assert_eq!(&text.original[clause.span.clone()], "Push each friendly fi ghter 1 hex towards");
/// ```
pub fn parse_text(text: &str) -> CardText {
    let clean = normalize(text);
    let tokens = tokenize(&clean.text);
    let mut sentences = Vec::with_capacity(tokens.len());
    let mut sentence = 0;
    for token in &tokens {
        sentences.push(sentence);
        if matches!(
            token.kind,
            TokenKind::Period | TokenKind::Colon | TokenKind::Semicolon
        ) {
            sentence += 1;
        }
    }
    // For each token, the index of the first clause punctuation at or after it (a scope
    // ends there): one backward pass, so opening a scope costs nothing.
    let mut punctuation = vec![tokens.len(); tokens.len()];
    let mut at = tokens.len();
    for (index, token) in tokens.iter().enumerate().rev() {
        if matches!(
            token.kind,
            TokenKind::Period | TokenKind::Comma | TokenKind::Semicolon | TokenKind::Colon
        ) {
            at = index;
        }
        punctuation[index] = at;
    }
    let consumed = vec![false; tokens.len()];
    let mut parser = Parser {
        punctuation,
        tokens,
        sentences,
        clean,
        found: Vec::new(),
        chosen: None,
        subject: None,
        subject_sentence: usize::MAX,
        unknown: Vec::new(),
        consumed,
        scope_end: 0,
        moment_end: 0,
    };
    parser.run();
    parser.finish(text)
}

struct Parser {
    tokens: Vec<Token>,
    sentences: Vec<usize>,
    clean: Normalized,
    /// Items with their token ranges.
    found: Vec<(Item, Range<usize>)>,
    /// The side of the fighter the text had the player choose.
    chosen: Option<Side>,
    /// The last fighter named as a subject, and the sentence it was named in.
    subject: Option<Target>,
    /// Tokens of verbs no rule understood.
    unknown: Vec<usize>,
    subject_sentence: usize,
    /// Tokens a rule read out of order (a push's `1 hex` after its target's qualifier),
    /// not read again.
    consumed: Vec<bool>,
    /// For each token, the index of the first clause punctuation at or after it.
    punctuation: Vec<usize>,
    /// The token before which the current condition scope (`if ...`, `after ...`, `while
    /// ...`, up to the next punctuation) ends; 0 when none is open.
    scope_end: usize,
    /// The same for a scope that describes the moment (`after ...`, `when ...`), in which
    /// fighters play a part (attacker, target).
    moment_end: usize,
}

const PREPOSITIONS: &[&str] = &[
    "to", "of", "from", "at", "with", "by", "in", "on", "towards", "than", "against", "for",
];

fn number_word(word: &str) -> Option<i64> {
    Some(match word {
        "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        _ => return None,
    })
}

fn ordinal_word(word: &str) -> Option<i64> {
    Some(match word {
        "first" => 1,
        "second" => 2,
        "third" => 3,
        "fourth" => 4,
        _ => return None,
    })
}

fn fighter_kind(word: &str) -> Option<Option<&'static str>> {
    Some(match word {
        "fighter" | "fighters" => None,
        "minion" | "minions" => Some("minion"),
        "leader" | "leaders" => Some("leader"),
        "wizard" | "wizards" => Some("wizard"),
        "assassin" | "assassins" => Some("assassin"),
        "hunter" | "hunters" => Some("hunter"),
        _ => return None,
    })
}

fn stat_word(word: &str) -> Option<Stat> {
    Some(match word {
        "move" => Stat::Move,
        "dice" | "die" => Stat::Dice,
        "defence" | "defense" | "save" => Stat::Defence,
        "wounds" | "health" => Stat::Wounds,
        "damage" => Stat::Damage,
        "range" => Stat::Range,
        "bounty" => Stat::Bounty,
        _ => return None,
    })
}

fn deck_word(word: &str) -> Option<Deck> {
    match word {
        "power" => Some(Deck::Power),
        "objective" => Some(Deck::Objective),
        _ => None,
    }
}

/// Verbs of effects the grammar does not model: a clause led by one is reported unparsed.
const UNKNOWN_VERBS: &[&str] = &[
    "place", "places", "swap", "swaps", "switch", "return", "returns", "shuffle", "shuffles",
    "reveal", "reveals", "lose", "loses", "flip", "flips", "ignore", "ignores", "cancel",
    "cancels", "replace", "replaces", "teleport", "redeploy", "resolve",
];

const TOKEN_NAMES: &[&str] = &["charge", "guard", "stagger", "move"];

/// The event an `after ...` phrase (its words up to the next comma, space-padded) waits
/// for. Harrowdeep says `Attack action`, `Move action`; Embergard says `an attack`, `moves`,
/// `delves`, `is dealt damage`, `slays`.
fn event_of(phrase: &str) -> Option<Event> {
    let has = |word: &str| phrase.contains(word);
    Some(if has(" attack action") {
        Event::Attack
    } else if has(" activation ") {
        Event::Activation
    } else if has(" reaction") {
        Event::Reaction
    } else if has(" out of action") || has(" slay") || has(" slain") {
        Event::OutOfAction
    } else if has(" move action") {
        Event::Move
    } else if has(" action") {
        Event::Action
    } else if has(" attack ") || has(" attacks ") {
        Event::Attack
    } else if has(" delves ") || has(" delve ") {
        Event::Delve
    } else if has(" moves ") || has(" move ") {
        Event::Move
    } else if has(" dealt damage") || has(" suffers damage") {
        Event::Damage
    } else {
        return None;
    })
}

impl Parser {
    fn w(&self, index: usize) -> &str {
        self.tokens.get(index).map_or("", |t| t.lower.as_str())
    }

    fn kind(&self, index: usize) -> Option<TokenKind> {
        self.tokens.get(index).map(|t| t.kind)
    }

    fn seq(&self, index: usize, words: &[&str]) -> bool {
        words
            .iter()
            .enumerate()
            .all(|(k, word)| self.w(index + k) == *word)
    }

    fn sentence(&self, index: usize) -> usize {
        self.sentences.get(index).copied().unwrap_or(usize::MAX)
    }

    fn same_sentence(&self, a: usize, b: usize) -> bool {
        b < self.tokens.len() && self.sentence(a) == self.sentence(b)
    }

    fn at_sentence_start(&self, index: usize) -> bool {
        index == 0
            || matches!(
                self.kind(index - 1),
                Some(TokenKind::Period | TokenKind::Colon | TokenKind::Semicolon)
            )
    }

    /// A whole number (digits or a word) at `index`.
    fn number(&self, index: usize) -> Option<i64> {
        let token = self.tokens.get(index)?;
        match token.kind {
            TokenKind::Number => token.lower.parse().ok(),
            TokenKind::Word => number_word(&token.lower),
            _ => None,
        }
    }

    fn add(&mut self, item: Item, tokens: Range<usize>) {
        let end = tokens.end.min(self.tokens.len());
        let start = tokens.start.min(end.saturating_sub(1));
        if start < end {
            self.found.push((item, start..end));
        }
    }

    fn run(&mut self) {
        let mut index = 0;
        while index < self.tokens.len() {
            if self.consumed.get(index).copied().unwrap_or(false) {
                index += 1;
                continue;
            }
            self.open_scope(index);
            index = match self.phrase(index) {
                Some(next) => next.max(index + 1),
                None => {
                    // A verb that does something the grammar has no rule for: the clause is
                    // not understood, even in a sentence that is otherwise.
                    let negated = index > 0
                        && matches!(self.w(index - 1), "not" | "without" | "never" | "cannot");
                    if UNKNOWN_VERBS.contains(&self.w(index)) && !negated {
                        self.unknown.push(index);
                    }
                    index + 1
                }
            };
        }
    }

    /// Opens a condition scope at a word that starts one (`if`, `while`, `when`,
    /// `whenever`, `unless`, `after`, `before`): it lasts to the next punctuation.
    fn open_scope(&mut self, index: usize) {
        // Relations name fighters that are conditions too: `next to X`, `adjacent to X`,
        // `within N hexes of X`, `targets X`.
        let relation = (matches!(self.w(index), "next" | "adjacent") && self.w(index + 1) == "to")
            || (self.w(index) == "of" && matches!(self.w(index.wrapping_sub(1)), "hex" | "hexes"))
            || (matches!(self.w(index), "targets" | "target")
                && self.kind(index + 1) != Some(TokenKind::Apostrophe));
        if !relation
            && !matches!(
                self.w(index),
                "if" | "while" | "when" | "whenever" | "unless" | "after" | "before"
            )
        {
            return;
        }
        let end = self
            .punctuation
            .get(index + 1)
            .copied()
            .unwrap_or(self.tokens.len());
        self.scope_end = self.scope_end.max(end);
        if matches!(self.w(index), "after" | "when" | "whenever" | "before") {
            self.moment_end = self.moment_end.max(end);
        }
    }

    /// The part the fighter phrase at `index..next` plays in the moment, when its words say.
    fn role(&self, index: usize, next: usize) -> Option<Role> {
        if index >= self.moment_end {
            return None;
        }
        let before = self.w(index.wrapping_sub(1));
        let after = self.w(next);
        if self.kind(next) == Some(TokenKind::Apostrophe)
            && (next + 1..next + 6)
                .take_while(|&at| self.same_sentence(index, at))
                .any(|at| matches!(self.w(at), "attack" | "attacks"))
        {
            return Some(Role::Attacker);
        }
        if matches!(
            after,
            "slays" | "slay" | "takes" | "take" | "attacks" | "makes"
        ) {
            return Some(Role::Attacker);
        }
        if matches!(
            before,
            "on" | "against" | "slays" | "slay" | "takes" | "take" | "attacks" | "targets"
        ) || matches!(after, "moves" | "delves" | "suffers")
            || (after == "is" && matches!(self.w(next + 1), "dealt" | "slain" | "taken"))
        {
            return Some(Role::Target);
        }
        None
    }

    fn in_scope(&self, index: usize) -> bool {
        index < self.scope_end
    }

    fn finish(self, original: &str) -> CardText {
        let sentence_count = self.sentences.last().map_or(0, |s| s + 1);
        let mut recognised = vec![false; sentence_count];
        let mut clauses = Vec::with_capacity(self.found.len());
        for (item, range) in &self.found {
            for index in range.clone() {
                if let Some(s) = self.sentences.get(index) {
                    recognised[*s] = true;
                }
            }
            let first = &self.tokens[range.start];
            let last = &self.tokens[range.end.saturating_sub(1).max(range.start)];
            clauses.push(Clause {
                item: item.clone(),
                span: self.clean.original(first.span.start, last.span.end),
                sentence: self.sentence(range.start),
            });
        }
        let mut unparsed = Vec::new();
        for (sentence, ok) in recognised.iter().enumerate() {
            if *ok {
                continue;
            }
            let members: Vec<&Token> = self
                .tokens
                .iter()
                .zip(&self.sentences)
                .filter(|(t, s)| {
                    **s == sentence
                        && matches!(
                            t.kind,
                            TokenKind::Word | TokenKind::Number | TokenKind::Signed
                        )
                })
                .map(|(t, _)| t)
                .collect();
            // A sentence of punctuation or stray glyphs only says nothing.
            if let (Some(first), Some(last)) = (members.first(), members.last()) {
                unparsed.push(self.clean.original(first.span.start, last.span.end));
            }
        }
        for &verb in &self.unknown {
            let mut end = verb;
            while end + 1 < self.tokens.len()
                && !matches!(
                    self.tokens[end + 1].kind,
                    TokenKind::Period | TokenKind::Comma | TokenKind::Semicolon | TokenKind::Colon
                )
            {
                end += 1;
            }
            unparsed.push(
                self.clean
                    .original(self.tokens[verb].span.start, self.tokens[end].span.end),
            );
        }
        unparsed.sort_by_key(|r| (r.start, r.end));
        CardText {
            original: original.to_owned(),
            clean: self.clean.text.clone(),
            clauses,
            unparsed,
        }
    }

    /// Tries every phrase rule at `index`; returns where to go on.
    fn phrase(&mut self, index: usize) -> Option<usize> {
        if self.subject_sentence != self.sentence(index) {
            self.subject = None;
        }
        self.restriction(index)
            .or_else(|| self.illusion(index))
            .or_else(|| self.profile(index))
            .or_else(|| self.keyword(index))
            .or_else(|| self.score(index))
            .or_else(|| self.timing(index))
            .or_else(|| self.effect(index))
            .or_else(|| self.condition(index))
            .or_else(|| self.subject_phrase(index))
    }

    fn restriction(&mut self, index: usize) -> Option<usize> {
        if self.w(index) != "restricted" || self.w(index + 1) != ":" {
            return None;
        }
        let mut names = Vec::new();
        let mut current = String::new();
        let mut end = index + 2;
        while end < self.tokens.len() {
            let token = &self.tokens[end];
            match token.kind {
                TokenKind::Comma | TokenKind::Period => {
                    if !current.is_empty() {
                        names.push(std::mem::take(&mut current));
                    }
                }
                _ => {
                    if !current.is_empty() {
                        current.push(' ');
                    }
                    current.push_str(&self.clean.text[token.span.clone()]);
                }
            }
            end += 1;
        }
        if !current.is_empty() {
            names.push(current);
        }
        self.add(Item::Restriction(names), index..end);
        Some(end)
    }

    fn illusion(&mut self, index: usize) -> Option<usize> {
        if !(self.seq(index, &["costs", "no", "glory"])
            || self.seq(index, &["do", "not", "spend", "any", "glory"]))
        {
            return None;
        }
        let limit = (index + 48).min(self.tokens.len());
        let mut end = (index..limit).find(|&k| self.w(k) == "damage")?;
        if self.seq(end + 1, &[",", "break", "this", "card"]) {
            end += 4;
        }
        self.add(Item::IllusionRule, index..end + 1);
        Some(end + 1)
    }

    /// `Range 1, 1 Smash die, Damage 2`: a weapon profile.
    fn profile(&mut self, index: usize) -> Option<usize> {
        if self.w(index) == "range"
            && self.number(index + 1).is_some()
            && self.w(index + 2) == ","
            && self.number(index + 3).is_some()
            && matches!(self.w(index + 5), "die" | "dice")
            && self.w(index + 6) == ","
            && self.w(index + 7) == "damage"
            && self.number(index + 8).is_some()
        {
            self.add(Item::Profile, index..index + 9);
            return Some(index + 9);
        }
        None
    }

    fn keyword(&mut self, index: usize) -> Option<usize> {
        let word = self.w(index).to_owned();
        let header = self.at_sentence_start(index)
            || (self.w(index.wrapping_sub(1)) == ","
                && matches!(
                    self.w(index.wrapping_sub(2)),
                    "surge" | "hybrid" | "dual" | "reaction" | "waypoint" | "illusion"
                ));
        let keyword = match word.as_str() {
            "surge" if header => Keyword::Surge,
            "hybrid" if header => Keyword::Hybrid,
            "dual" if header => Keyword::Dual,
            "waypoint" if header => Keyword::Waypoint,
            "illusion" if header => Keyword::Illusion,
            "grievous" => Keyword::Grievous,
            "reaction" if header && self.w(index + 1) == ":" => Keyword::Reaction,
            "spell" if header || self.w(index.wrapping_sub(1)) == "gambit" => Keyword::Spell,
            "if" if self.w(index + 1) == "cast" => {
                self.add(Item::Keyword(Keyword::Spell), index..index + 2);
                return Some(index + 2);
            }
            "gambit" if self.w(index + 1) == "spell" => {
                self.add(Item::Keyword(Keyword::Spell), index..index + 2);
                return Some(index + 2);
            }
            "attack"
                if self.at_sentence_start(index)
                    && self.w(index + 1) == "action"
                    && (self.w(index + 2) == "upgrade"
                        || matches!(self.kind(index + 2), Some(TokenKind::Period) | None)) =>
            {
                let end = if self.w(index + 2) == "upgrade" {
                    index + 3
                } else {
                    index + 2
                };
                self.add(Item::Keyword(Keyword::AttackAction), index..end);
                return Some(end);
            }
            _ => return None,
        };
        self.add(Item::Keyword(keyword), index..index + 1);
        Some(index + 1)
    }

    fn score(&mut self, index: usize) -> Option<usize> {
        if self.w(index) != "score" {
            return None;
        }
        let mut next = index + 1;
        if self.w(next) == "this" {
            next += 1;
        }
        if self.seq(next, &["in", "an", "end", "phase"]) {
            self.add(Item::Score(ScoreTiming::EndPhase), index..next + 4);
            return Some(next + 4);
        }
        if self.seq(next, &["in", "the", "third", "end", "phase"]) {
            self.add(Item::Score(ScoreTiming::ThirdEndPhase), index..next + 5);
            return Some(next + 5);
        }
        if matches!(self.w(next), "immediately" | "right") {
            self.add(Item::Score(ScoreTiming::Immediately), index..next + 1);
            return Some(next + 1);
        }
        if self.seq(next, &["at", "once"]) {
            self.add(Item::Score(ScoreTiming::Immediately), index..next + 2);
            return Some(next + 2);
        }
        if self.w(next) == "after" {
            self.add(Item::Score(ScoreTiming::Immediately), index..next);
            return Some(next);
        }
        None
    }

    /// `(the) (your|friendly|enemy|an enemy's|your opponent's|this fighter's) next
    /// (friendly|enemy) activation` at `at` (not an activation step): whose activation, and
    /// the index after it.
    fn side_activation(&self, at: usize) -> Option<(Side, usize)> {
        let mut next = at;
        let mut side = None;
        if matches!(self.w(next), "the" | "an" | "a") {
            next += 1;
        }
        let owner = |parser: &Parser, at: usize| -> Option<(Side, usize)> {
            match parser.w(at) {
                "your" if parser.w(at + 1) == "opponent" => Some((Side::Enemy, at + 2)),
                "your" | "friendly" => Some((Side::Friendly, at + 1)),
                "enemy" | "opponent" | "opponents" => Some((Side::Enemy, at + 1)),
                "this" if matches!(parser.w(at + 1), "fighter" | "warrior") => {
                    Some((Side::This, at + 2))
                }
                "its" => Some((Side::This, at + 1)),
                _ => None,
            }
        };
        if let Some((found, after)) = owner(self, next) {
            side = Some(found);
            next = after;
            if self.kind(next) == Some(TokenKind::Apostrophe) {
                next += 1;
            }
        }
        if self.w(next) != "next" {
            return None;
        }
        next += 1;
        if side.is_none()
            && let Some((found, after)) = owner(self, next)
        {
            side = Some(found);
            next = after;
        }
        if self.w(next) != "activation" || self.w(next + 1) == "step" {
            return None;
        }
        Some((side?, next + 1))
    }

    fn timing(&mut self, index: usize) -> Option<usize> {
        let word = self.w(index).to_owned();
        match word.as_str() {
            "in" | "during" | "of" if self.side_activation(index + 1).is_some() => {
                let (side, end) = self.side_activation(index + 1)?;
                self.add(Item::Duration(Duration::Activation(side)), index..end);
                Some(end)
            }
            "until"
                if self.seq(index + 1, &["the", "end", "of"])
                    && self.side_activation(index + 4).is_some() =>
            {
                let (side, end) = self.side_activation(index + 4)?;
                self.add(Item::Duration(Duration::Activation(side)), index..end);
                Some(end)
            }
            "after" | "when" | "before"
                if word != "when"
                    || self.found.last().is_some_and(|(item, range)| {
                        *item == Item::Score(ScoreTiming::Immediately) && range.end == index
                    }) =>
            {
                let mut next = index + 1;
                if self.w(next) == ":" {
                    next += 1;
                }
                let mut end = next;
                let mut words = Vec::new();
                while end < self.tokens.len() && end < next + 25 {
                    let w = self.w(end);
                    if matches!(w, "," | "." | ";" | "(" | ":" | "if") {
                        break;
                    }
                    words.push(w.to_owned());
                    end += 1;
                }
                let event = event_of(&format!(" {} ", words.join(" ")))?;
                let trigger = if word == "before" {
                    Trigger::Before(event)
                } else {
                    Trigger::After(event)
                };
                self.add(Item::Trigger(trigger), index..end.max(index + 1));
                Some(index + 1)
            }
            "at" if self.seq(index + 1, &["the", "end", "of"])
                && matches!(self.w(index + 4), "the" | "each")
                && self.seq(index + 5, &["action", "phase"]) =>
            {
                self.add(Item::Trigger(Trigger::ActionPhaseEnd), index..index + 7);
                Some(index + 7)
            }
            "in" | "during" if self.seq(index + 1, &["the", "next", "activation", "step"]) => {
                self.add(Item::Duration(Duration::NextActivation), index..index + 5);
                Some(index + 5)
            }
            "until" if self.seq(index + 1, &["the", "end", "of", "the"]) => {
                let (duration, end) = match (self.w(index + 5), self.w(index + 6)) {
                    ("phase", _) => (Duration::EndOfPhase, index + 6),
                    ("action", "phase") => (Duration::EndOfPhase, index + 7),
                    ("round", _) => (Duration::EndOfRound, index + 6),
                    _ => return None,
                };
                self.add(Item::Duration(duration), index..end);
                Some(end)
            }
            "until" if self.seq(index + 1, &["another", "waypoint", "is", "played"]) => {
                self.add(Item::Duration(Duration::UntilWaypoint), index..index + 5);
                Some(index + 5)
            }
            "action" if self.at_sentence_start(index) && matches!(self.w(index + 1), ":" | ",") => {
                self.add(Item::Trigger(Trigger::Action), index..index + 1);
                Some(index + 1)
            }
            "has" | "have" if self.seq(index + 1, &["this", "action"]) => {
                self.add(Item::Trigger(Trigger::Action), index..index + 3);
                Some(index + 3)
            }
            "make" if self.seq(index + 1, &["the", "following", "action"]) => {
                self.add(Item::Trigger(Trigger::Action), index..index + 4);
                Some(index + 4)
            }
            "gains" | "gain" | "has" if self.seq(index + 1, &["the", "attack", "action"]) => {
                self.add(Item::Trigger(Trigger::Action), index..index + 4);
                Some(index + 4)
            }
            "against" if self.w(index + 1) == "it" => {
                self.add(Item::Trigger(Trigger::AgainstThisFighter), index..index + 2);
                Some(index + 2)
            }
            "target" | "targets" if self.seq(index + 1, &["this", "fighter"]) => {
                self.add(Item::Trigger(Trigger::AgainstThisFighter), index..index + 3);
                Some(index + 3)
            }
            _ => None,
        }
    }

    /// A fighter phrase at `index`: `each friendly fighter`, `an enemy leader`, `it`,
    /// `this fighter`, `the chosen fighter`, `friendly fighters' ...`. Returns the target
    /// and the index after it.
    fn target(&self, index: usize) -> Option<(Target, usize)> {
        let mut next = index;
        let mut quantity = None;
        let mut this = false;
        let mut chosen = false;
        let mut your = false;
        if self.seq(next, &["one", "or", "more"]) {
            quantity = Some(Quantity::Each);
            next += 3;
            if self.w(next) == "of" {
                next += 1;
            }
        }
        match self.w(next) {
            "each" | "every" | "all" => {
                quantity = Some(Quantity::Each);
                next += 1;
            }
            "a" | "an" | "one" | "another" | "the" | "second" | "any" => {
                quantity = Some(Quantity::One);
                next += 1;
                if matches!(self.w(next), "second" | "other" | "another") {
                    next += 1;
                }
            }
            "this" | "its" => {
                this = true;
                next += 1;
            }
            // `your fighter`, `your leader`: one of the player's own.
            "your" => {
                your = true;
                next += 1;
            }
            "that" | "those" => {
                chosen = true;
                next += 1;
            }
            _ => {}
        }
        if matches!(self.w(next), "chosen" | "nearest") {
            chosen = self.w(next) == "chosen";
            next += 1;
        }
        // Embergard: `a slain friendly fighter`.
        if self.w(next) == "slain" {
            next += 1;
        }
        if self.w(next) == "adjacent" {
            next += 1;
        }
        let side = match self.w(next) {
            "friendly" => {
                next += 1;
                Some(Side::Friendly)
            }
            "enemy" => {
                next += 1;
                Some(Side::Enemy)
            }
            _ => None,
        };
        if self.w(next) == "other" {
            next += 1;
        }
        let noun = self.w(next).to_owned();
        let within_at = |at: usize| -> Option<(i64, usize)> {
            if self.w(at) == "within"
                && let Some(n) = self.number(at + 1)
                && matches!(self.w(at + 2), "hex" | "hexes")
            {
                return Some((n, at + 3));
            }
            None
        };
        if let Some(kind) = fighter_kind(&noun) {
            next += 1;
            let plural = noun.ends_with('s');
            let side = side.unwrap_or(if this {
                Side::This
            } else if your {
                Side::Friendly
            } else if chosen {
                self.chosen.unwrap_or(Side::Unknown)
            } else {
                Side::Any
            });
            let quantity = quantity.unwrap_or(if plural {
                Quantity::Each
            } else {
                Quantity::One
            });
            let mut within = None;
            if let Some((n, after)) = within_at(next) {
                within = Some(n);
                next = after;
            }
            return Some((
                Target {
                    quantity,
                    side,
                    kind: kind.map(str::to_owned),
                    within,
                },
                next,
            ));
        }
        if side.is_none() && quantity.is_none() && !this && !chosen && !your {
            if matches!(
                noun.as_str(),
                "it" | "itself" | "they" | "him" | "her" | "them"
            ) {
                return Some((
                    Target {
                        quantity: Quantity::One,
                        side: self.chosen.unwrap_or(Side::This),
                        kind: None,
                        within: None,
                    },
                    next + 1,
                ));
            }
            return None;
        }
        if quantity == Some(Quantity::One) && matches!(noun.as_str(), "caster") {
            return Some((
                Target {
                    quantity: Quantity::One,
                    side: Side::This,
                    kind: None,
                    within: None,
                },
                next + 1,
            ));
        }
        if quantity == Some(Quantity::One) && matches!(noun.as_str(), "target" | "attacker") {
            return Some((Target::unknown(), next + 1));
        }
        None
    }

    /// The first fighter phrase with a noun after `index` in the same sentence.
    fn target_after(&self, index: usize) -> Option<Target> {
        let mut at = index;
        while self.same_sentence(index, at) {
            if let Some((target, _)) = self.target(at)
                && !matches!(self.w(at), "it" | "itself" | "they")
            {
                return Some(target);
            }
            at += 1;
        }
        None
    }

    fn subject_or_unknown(&self) -> Target {
        self.subject.clone().unwrap_or_else(Target::unknown)
    }

    fn set_subject(&mut self, target: Target, index: usize) {
        self.subject = Some(target);
        self.subject_sentence = self.sentence(index);
    }

    /// A fighter phrase that is not the object of a preposition becomes the subject of
    /// what follows (`friendly fighters have +2 Move`).
    fn subject_phrase(&mut self, index: usize) -> Option<usize> {
        let (target, next) = self.target(index)?;
        let previous = if index == 0 {
            String::new()
        } else {
            self.w(index - 1).to_owned()
        };
        if let Some(kind) = &target.kind {
            self.add(
                Item::Condition(Condition::Mentions(kind.clone())),
                index..next,
            );
        }
        if let Some(n) = target.within {
            self.add(Item::Condition(Condition::Within(n)), index..next);
        }
        let pronoun = matches!(
            self.w(index),
            "it" | "itself" | "they" | "him" | "her" | "them" | "its" | "that" | "those"
        );
        if self.in_scope(index)
            && !pronoun
            && matches!(target.side, Side::Friendly | Side::Enemy | Side::This)
        {
            self.add(Item::Condition(Condition::Whose(target.side)), index..next);
            if let Some(role) = self.role(index, next) {
                self.add(
                    Item::Condition(Condition::Role(role, target.side)),
                    index..next,
                );
            }
        }
        // `every adjacent friendly fighter`: the adjacency is a condition.
        if (index..next).any(|at| self.w(at) == "adjacent") {
            self.add(Item::Condition(Condition::Adjacent), index..next);
        }
        if !PREPOSITIONS.contains(&previous.as_str()) && self.w(next) != "included" {
            self.set_subject(target, index);
        }
        Some(next)
    }

    /// Where a modifier's `minimum of N` / `never fewer than N` is, before the next
    /// modifier in the sentence.
    fn minimum_after(&self, index: usize) -> Option<i64> {
        let mut at = index;
        while self.same_sentence(index, at) {
            if at > index && self.kind(at) == Some(TokenKind::Signed) {
                return None;
            }
            if self.seq(at, &["minimum", "of"]) {
                return self.number(at + 2);
            }
            if self.seq(at, &["never", "fewer", "than"]) {
                return self.number(at + 3);
            }
            at += 1;
        }
        None
    }

    fn per_after(&self, index: usize) -> Option<String> {
        (index..index + 6)
            .find(|&at| self.seq(at, &["for", "each"]))
            .map(|at| {
                let noun = self.w(at + 2);
                noun.strip_suffix('s').unwrap_or(noun).to_owned()
            })
    }

    fn effect(&mut self, index: usize) -> Option<usize> {
        let word = self.w(index).to_owned();
        let make = |kind: EffectKind, amount: Option<i64>, target: Target| Effect {
            kind,
            amount,
            target,
            per: None,
            minimum: None,
        };
        match word.as_str() {
            "push" => {
                let mut next = index + 1;
                let target = match self.target(next) {
                    Some((target, after)) => {
                        next = after;
                        target
                    }
                    None => Target::unknown(),
                };
                // The target may be qualified before the distance: `push an enemy fighter
                // adjacent to your fighter 1 hex`. The qualifier is read as the words it is
                // (conditions, fighters); the distance is read here.
                let after_target = next;
                let distance_at = (next..next + 12)
                    .take_while(|&at| {
                        self.same_sentence(index, at)
                            && !matches!(
                                self.kind(at),
                                Some(TokenKind::Comma | TokenKind::Semicolon | TokenKind::Colon)
                            )
                    })
                    .find(|&at| {
                        (self.seq(at, &["up", "to"])
                            && self.number(at + 2).is_some()
                            && matches!(self.w(at + 3), "hex" | "hexes"))
                            || (self.number(at).is_some()
                                && matches!(self.w(at + 1), "hex" | "hexes"))
                    })?;
                let qualified = distance_at > after_target;
                next = distance_at;
                if self.seq(next, &["up", "to"]) {
                    next += 2;
                }
                let amount = self.number(next)?;
                next += 2;
                let direction = match self.w(next) {
                    "towards" | "toward" | "closer" => {
                        next += 1;
                        PushDirection::Closer
                    }
                    "away" => {
                        next += 1;
                        PushDirection::Away
                    }
                    _ => PushDirection::Any,
                };
                self.add(
                    Item::Effect(make(EffectKind::Push(direction), Some(amount), target)),
                    index..next,
                );
                if qualified {
                    for at in distance_at..next {
                        if let Some(flag) = self.consumed.get_mut(at) {
                            *flag = true;
                        }
                    }
                    return Some(after_target);
                }
                Some(next)
            }
            "deal" | "deals" => {
                let amount = self.number(index + 1)?;
                if self.w(index + 2) == "extra" && self.w(index + 3) == "damage" {
                    let target = self.subject_or_unknown();
                    self.add(
                        Item::Effect(make(EffectKind::Modify(Stat::Damage), Some(amount), target)),
                        index..index + 4,
                    );
                    return Some(index + 4);
                }
                if self.w(index + 2) != "damage" {
                    return None;
                }
                let target = if self.w(index + 3) == "to" {
                    self.target(index + 4).map(|(t, _)| t)
                } else {
                    None
                }
                .unwrap_or_else(Target::unknown);
                self.add(
                    Item::Effect(make(EffectKind::Damage, Some(amount), target)),
                    index..index + 3,
                );
                Some(index + 3)
            }
            "suffer" | "suffers" if self.w(index + 2) == "damage" => {
                let amount = self.number(index + 1)?;
                let target = self.subject_or_unknown();
                self.add(
                    Item::Effect(make(EffectKind::Damage, Some(amount), target)),
                    index..index + 3,
                );
                Some(index + 3)
            }
            "heal" | "heals" => {
                let amount = self.number(index + 1);
                let target = self.subject_or_unknown();
                self.add(
                    Item::Effect(make(EffectKind::Heal, amount, target)),
                    index..index + 2,
                );
                Some(index + 2)
            }
            _ if self.kind(index) == Some(TokenKind::Signed) => {
                let amount: i64 = word.parse().ok()?;
                let stat = stat_word(self.w(index + 1))?;
                let target = if matches!(self.w(index + 2), "to" | "from") {
                    self.target(index + 3).map(|(t, _)| t)
                } else {
                    None
                }
                .unwrap_or_else(|| self.subject_or_unknown());
                let mut effect = make(EffectKind::Modify(stat), Some(amount), target);
                effect.minimum = self.minimum_after(index);
                effect.per = self.per_after(index + 2);
                self.add(Item::Effect(effect), index..index + 2);
                Some(index + 2)
            }
            "roll" | "rolls" => {
                let n = self.number(index + 1)?;
                let sign = match self.w(index + 2) {
                    "more" | "extra" => 1,
                    "fewer" | "less" => -1,
                    _ => return None,
                };
                let mut end = index + 3;
                if matches!(self.w(end), "die" | "dice") {
                    end += 1;
                }
                let mut effect = make(
                    EffectKind::Modify(Stat::Dice),
                    Some(sign * n),
                    self.subject_or_unknown(),
                );
                effect.minimum = self.minimum_after(index);
                effect.per = self.per_after(end);
                self.add(Item::Effect(effect), index..end);
                Some(end)
            }
            _ if self.number(index).is_some() && self.seq(index + 1, &["extra", "damage"]) => {
                let amount = self.number(index);
                let target = self.subject_or_unknown();
                self.add(
                    Item::Effect(make(EffectKind::Modify(Stat::Damage), amount, target)),
                    index..index + 3,
                );
                Some(index + 3)
            }
            "re-roll" | "reroll" => {
                let amount =
                    self.number(index + 1)
                        .or(if matches!(self.w(index + 1), "a" | "an") {
                            Some(1)
                        } else {
                            None
                        })?;
                let mut end = index + 2;
                let mut roll = Roll::Any;
                for at in index + 2..index + 10 {
                    if !self.same_sentence(index, at) {
                        break;
                    }
                    match self.w(at) {
                        "attack" => {
                            roll = Roll::Attack;
                            break;
                        }
                        "defence" | "defense" => {
                            roll = Roll::Defence;
                            break;
                        }
                        _ => {}
                    }
                }
                if matches!(self.w(end), "attack" | "defence") {
                    end += 1;
                }
                if matches!(self.w(end), "die" | "dice") {
                    end += 1;
                }
                let target = self
                    .target_after(end)
                    .or_else(|| self.subject.clone())
                    .unwrap_or_else(Target::unknown);
                self.add(
                    Item::Effect(make(EffectKind::Reroll(roll), Some(amount), target)),
                    index..end,
                );
                Some(end)
            }
            "draw" | "draws" => {
                let mut next = index + 1;
                let amount = if let Some(n) = self.number(next) {
                    next += 1;
                    n
                } else if matches!(self.w(next), "it" | "them") {
                    next += 1;
                    1
                } else if matches!(self.w(next), "that" | "the" | "a" | "an")
                    && self.w(next + 1) == "card"
                {
                    next += 2;
                    1
                } else {
                    return None;
                };
                let deck = deck_word(self.w(next)).unwrap_or(Deck::Any);
                if deck != Deck::Any {
                    next += 1;
                }
                if matches!(self.w(next), "card" | "cards") {
                    next += 1;
                }
                self.add(
                    Item::Effect(make(
                        EffectKind::Draw(deck),
                        Some(amount),
                        Target::unknown(),
                    )),
                    index..next,
                );
                Some(next)
            }
            "add" | "take" | "takes"
                if (index + 1..index + 6).any(|at| self.w(at) == "hand")
                    && !(index + 1..index + 4).any(|at| self.w(at) == "out") =>
            {
                let end = (index + 1..index + 6).find(|&at| self.w(at) == "hand")? + 1;
                self.add(
                    Item::Effect(make(
                        EffectKind::Draw(Deck::Any),
                        Some(1),
                        Target::unknown(),
                    )),
                    index..end,
                );
                Some(end)
            }
            "discard" | "discards" => {
                let mut next = index + 1;
                let amount = if let Some(n) = self.number(next) {
                    next += 1;
                    n
                } else if matches!(self.w(next), "a" | "an") {
                    next += 1;
                    1
                } else {
                    return None;
                };
                let deck = deck_word(self.w(next)).unwrap_or(Deck::Any);
                if deck != Deck::Any {
                    next += 1;
                }
                if matches!(self.w(next), "card" | "cards") {
                    next += 1;
                }
                self.add(
                    Item::Effect(make(
                        EffectKind::Discard(deck),
                        Some(amount),
                        Target::unknown(),
                    )),
                    index..next,
                );
                Some(next)
            }
            "gain" | "gains"
                if self.w(index + 1) == "one"
                    && !matches!(self.w(index + 2), "token" | "tokens") =>
            {
                // `..., it gains one`: one of the token the sentence named.
                let sentence = self.sentence(index);
                let token = self
                    .found
                    .iter()
                    .rev()
                    .find_map(|(item, range)| match item {
                        Item::Condition(Condition::Token(token))
                            if self.sentence(range.start) == sentence =>
                        {
                            Some(token.clone())
                        }
                        _ => None,
                    })?;
                let kind = if token == "stagger" {
                    EffectKind::Stagger
                } else {
                    EffectKind::GiveToken(token)
                };
                let target = self.subject_or_unknown();
                self.add(Item::Effect(make(kind, Some(1), target)), index..index + 2);
                Some(index + 2)
            }
            "gain" | "gains" | "give" | "gives" => {
                let mut next = index + 1;
                let amount = if let Some(n) = self.number(next) {
                    next += 1;
                    n
                } else if matches!(self.w(next), "a" | "an") {
                    next += 1;
                    1
                } else {
                    return None;
                };
                let token = self.w(next).to_owned();
                if !matches!(self.w(next + 1), "token" | "tokens") {
                    return None;
                }
                next += 2;
                let target = if word.starts_with("give") && self.w(next) == "to" {
                    self.target(next + 1).map(|(t, _)| t)
                } else {
                    self.subject.clone()
                }
                .unwrap_or_else(Target::unknown);
                // Gaining a Stagger token is being staggered.
                let kind = if token == "stagger" {
                    EffectKind::Stagger
                } else {
                    EffectKind::GiveToken(token)
                };
                self.add(Item::Effect(make(kind, Some(amount), target)), index..next);
                Some(next)
            }
            "put" if self.w(index + 2) == "on" && self.w(index + 3) == "guard" => {
                let target = self
                    .target(index + 1)
                    .map(|(t, _)| t)
                    .unwrap_or_else(Target::unknown);
                self.add(
                    Item::Effect(make(
                        EffectKind::GiveToken("guard".to_owned()),
                        Some(1),
                        target,
                    )),
                    index..index + 4,
                );
                Some(index + 4)
            }
            "remove" | "removes" => {
                // remove (a/one/all/N) (of) (its/their) X token(s) (from TARGET)
                let mut next = index + 1;
                let amount = if let Some(n) = self.number(next) {
                    next += 1;
                    Some(n)
                } else if matches!(self.w(next), "a" | "an") {
                    next += 1;
                    Some(1)
                } else {
                    if self.w(next) == "all" {
                        next += 1;
                    }
                    None
                };
                if self.w(next) == "of" {
                    next += 1;
                }
                let mut target = None;
                if matches!(self.w(next), "its" | "their") {
                    target = Some(Target {
                        quantity: Quantity::One,
                        side: self.chosen.unwrap_or(Side::This),
                        kind: None,
                        within: None,
                    });
                    next += 1;
                } else if self.seq(next, &["this", "fighter", "'s"]) {
                    target = self.target(next).map(|(t, _)| t);
                    next += 3;
                }
                let token = self.w(next).to_owned();
                if !matches!(self.w(next + 1), "token" | "tokens") {
                    return None;
                }
                next += 2;
                if self.w(next) == "from"
                    && let Some((t, after)) = self.target(next + 1)
                {
                    target = Some(t);
                    next = after;
                }
                self.add(
                    Item::Effect(make(
                        EffectKind::RemoveToken(token),
                        amount,
                        target.unwrap_or_else(Target::unknown),
                    )),
                    index..next,
                );
                Some(next)
            }
            "stagger" => {
                let (target, next) = self.target(index + 1)?;
                self.add(
                    Item::Effect(make(EffectKind::Stagger, None, target)),
                    index..next,
                );
                Some(next)
            }
            "is" | "are" if self.w(index + 1) == "staggered" => {
                let target = self.subject_or_unknown();
                self.add(
                    Item::Effect(make(EffectKind::Stagger, None, target)),
                    index..index + 2,
                );
                Some(index + 2)
            }
            "break" | "broken" => {
                self.add(
                    Item::Effect(make(EffectKind::Break, None, Target::unknown())),
                    index..index + 1,
                );
                Some(index + 1)
            }
            "look" if self.seq(index + 1, &["at", "the", "top", "card", "of"]) => {
                let mut next = index + 6;
                if matches!(self.w(next), "your" | "their" | "a") {
                    next += 1;
                }
                let deck = deck_word(self.w(next)).unwrap_or(Deck::Any);
                self.add(
                    Item::Effect(make(EffectKind::LookTop(deck), None, Target::unknown())),
                    index..next + 1,
                );
                Some(next + 1)
            }
            "bottom" => {
                self.add(
                    Item::Effect(make(EffectKind::Bottom, None, Target::unknown())),
                    index..index + 1,
                );
                Some(index + 1)
            }
            "spend" | "spends" if matches!(self.w(index + 2), "glory") => {
                let amount = self.number(index + 1)?;
                let mut end = index + 3;
                if matches!(self.w(end), "point" | "points") {
                    end += 1;
                }
                self.add(
                    Item::Effect(make(
                        EffectKind::SpendGlory,
                        Some(amount),
                        Target::unknown(),
                    )),
                    index..end,
                );
                Some(end)
            }
            "is" if self.w(index + 1) == "a"
                && fighter_kind(self.w(index + 2)).is_some_and(|k| k.is_some())
                && self.subject.as_ref().is_some_and(|s| s.side == Side::This) =>
            {
                let keyword = fighter_kind(self.w(index + 2)).flatten()?.to_owned();
                self.add(
                    Item::Effect(make(
                        EffectKind::GrantKeyword(keyword),
                        None,
                        self.subject_or_unknown(),
                    )),
                    index..index + 3,
                );
                Some(index + 3)
            }
            "make" | "makes"
                if matches!(self.w(index + 1), "a" | "an" | "another")
                    && !matches!(self.w(index.wrapping_sub(1)), "they" | "when")
                    // `When this fighter makes an Attack action`: the moment, not an effect.
                    && !(index.saturating_sub(3)..index).any(|at| self.w(at) == "when")
                    && (self.w(index + 2) == "action" || self.w(index + 3) == "action") =>
            {
                // `makes another action`, `makes an Attack action`.
                let end = if self.w(index + 2) == "action" {
                    index + 3
                } else {
                    index + 4
                };
                let target = self.subject_or_unknown();
                self.add(
                    Item::Effect(make(EffectKind::MakeAction, None, target)),
                    index..end,
                );
                Some(end)
            }
            "raise" | "raises" => {
                let (target, next) = self.target(index + 1)?;
                self.add(
                    Item::Effect(make(EffectKind::Raise, None, target)),
                    index..next,
                );
                Some(next)
            }
            "count" | "counts"
                if self.w(index + 1) == "as" && self.w(index + 2).starts_with("success") =>
            {
                let target = self.subject_or_unknown();
                self.add(
                    Item::Effect(make(EffectKind::CountAsSuccess, None, target)),
                    index..index + 3,
                );
                Some(index + 3)
            }
            "cannot" if self.seq(index + 1, &["be", "activated", "again"]) => {
                let target = self.subject_or_unknown();
                self.add(
                    Item::Effect(make(EffectKind::NoMoreActivations, None, target)),
                    index..index + 4,
                );
                Some(index + 4)
            }
            "inspire" | "inspired" => {
                let target = self.subject_or_unknown();
                self.add(
                    Item::Effect(make(EffectKind::Inspire, None, target)),
                    index..index + 1,
                );
                Some(index + 1)
            }
            "choose" | "pick" => {
                let mut next = index + 1;
                if self.w(next) == "one" && self.w(next + 1) != "of" && self.target(next).is_none()
                {
                    self.add(Item::Choose(Target::unknown()), index..next + 1);
                    return Some(next + 1);
                }
                if self.seq(next, &["one", "of"]) {
                    next += 2;
                }
                match self.target(next) {
                    Some((target, after)) => {
                        if target.side != Side::Unknown {
                            self.chosen = Some(target.side);
                        }
                        self.add(Item::Choose(target), index..after);
                        Some(after)
                    }
                    None => {
                        self.add(Item::Choose(Target::unknown()), index..next);
                        Some(next)
                    }
                }
            }
            _ => None,
        }
    }

    /// `in friendly territory`, `in your territory`, `into enemy territory`, `outside your
    /// territory`, `in an enemy's territory` at `index`: which, and the index after it.
    fn territory(&self, index: usize) -> Option<(Territory, usize)> {
        let outside = self.w(index) == "outside";
        let mut next = index + 1;
        if matches!(self.w(next), "the" | "an" | "a") {
            next += 1;
        }
        let side = match self.w(next) {
            "your" | "friendly" => Side::Friendly,
            "enemy" | "opponent" | "opponents" => Side::Enemy,
            _ => return None,
        };
        next += 1;
        if self.kind(next) == Some(TokenKind::Apostrophe) {
            next += 1;
        }
        if self.w(next) != "territory" {
            return None;
        }
        let territory = match (side, outside) {
            (Side::Friendly, false) => Territory::Friendly,
            (Side::Friendly, true) => Territory::NotFriendly,
            (_, false) => Territory::Enemy,
            (_, true) => Territory::NotEnemy,
        };
        Some((territory, next + 1))
    }

    fn condition(&mut self, index: usize) -> Option<usize> {
        let word = self.w(index).to_owned();
        let single = |parser: &mut Parser, condition: Condition, length: usize| {
            parser.add(Item::Condition(condition), index..index + length);
            Some(index + length)
        };
        if word == "range" {
            let mut values = Vec::new();
            let mut next = index + 1;
            while let Some(n) = self.number(next) {
                values.push(n);
                next += 1;
                if matches!(self.w(next), "or" | "and") {
                    if self.w(next + 1) == "range" && self.number(next + 2).is_some() {
                        next += 2;
                    } else if self.number(next + 1).is_some() {
                        next += 1;
                    }
                }
            }
            if values.is_empty() {
                return None;
            }
            return single(self, Condition::Range(values), next - index);
        }
        if let Some(n) = self.number(index) {
            if self.w(index + 1) == "or"
                && matches!(self.w(index + 2), "more" | "greater" | "higher")
            {
                return single(self, Condition::AtLeast(n), 3);
            }
            if self.kind(index) == Some(TokenKind::Number) || self.w(index + 1) == "or" {
                return single(self, Condition::Number(n), 1);
            }
            return None;
        }
        if let Some(n) = ordinal_word(&word) {
            if n >= 2 && self.w(index + 1) == "or" {
                return single(self, Condition::AtLeast(n), 2);
            }
            if n == 1 && (index + 1..index + 9).any(|at| self.seq(at, &["attack", "action"])) {
                return single(self, Condition::First, 1);
            }
            return None;
        }
        if matches!(
            word.as_str(),
            "in" | "into" | "outside" | "inside" | "within" | "of"
        ) && let Some((territory, end)) = self.territory(index)
        {
            return single(self, Condition::Territory(territory), end - index);
        }
        if self.seq(index, &["number", "of", "the", "current", "round"]) {
            return single(self, Condition::GameValue("round".to_owned()), 5);
        }
        if self.seq(index, &["number", "of", "the", "round"])
            || self.seq(index, &["current", "round", "number"])
        {
            let length = if word == "number" { 4 } else { 3 };
            return single(self, Condition::GameValue("round".to_owned()), length);
        }
        if self.seq(index, &["round", "number"])
            || (self.seq(index, &["the", "current", "round"])
                && matches!(self.w(index.wrapping_sub(1)), "than" | "as" | "to"))
        {
            let length = if word == "round" { 2 } else { 3 };
            return single(self, Condition::GameValue("round".to_owned()), length);
        }
        if self.seq(index, &["still", "stands"])
            || self.seq(index, &["still", "standing"])
            || matches!(word.as_str(), "survives" | "survive")
        {
            let length = if word == "still" { 2 } else { 1 };
            return single(self, Condition::Stands, length);
        }
        match word.as_str() {
            "at" if self.w(index + 1) == "least" => {
                let n = self.number(index + 2)?;
                single(self, Condition::AtLeast(n), 3)
            }
            "exactly" | "precisely" => {
                let n = self.number(index + 1)?;
                single(self, Condition::Exactly(n), 2)
            }
            "no" if !matches!(self.w(index + 1), "more" | "fewer" | "less") => {
                let noun = (index + 1..index + 4).find(|&at| {
                    matches!(
                        self.w(at),
                        "fighter" | "fighters" | "card" | "cards" | "other"
                    )
                })?;
                // `no enemy fighter`: whose fighters the condition speaks of.
                if self.in_scope(index) {
                    let side = (index + 1..noun).find_map(|at| match self.w(at) {
                        "friendly" | "your" => Some(Side::Friendly),
                        "enemy" => Some(Side::Enemy),
                        _ => None,
                    });
                    if let Some(side) = side {
                        self.add(Item::Condition(Condition::Whose(side)), index..noun + 1);
                    }
                }
                single(self, Condition::Exactly(0), noun - index + 1)
            }
            "within" => {
                let n = self.number(index + 1)?;
                if !matches!(self.w(index + 2), "hex" | "hexes") {
                    return None;
                }
                single(self, Condition::Within(n), 3)
            }
            "adjacent" => single(self, Condition::Adjacent, 1),
            "next" if self.w(index + 1) == "to" => single(self, Condition::Adjacent, 2),
            "successful" | "succeeds" => single(self, Condition::Successful, 1),
            "fails" | "failed" | "fail" => single(self, Condition::Failed, 1),
            // `takes its target out of action`: something takes the fighter out (a fighter
            // that merely `is out of action` is a state, not this).
            "out"
                if self.seq(index + 1, &["of", "action"])
                    && (index.saturating_sub(12)..index)
                        .rev()
                        .map(|at| self.w(at))
                        .take_while(|w| !matches!(*w, "is" | "are" | "while" | "when" | "if"))
                        .any(|w| matches!(w, "take" | "takes" | "taken" | "took")) =>
            {
                single(self, Condition::TakenOut, 3)
            }
            "once" if self.seq(index + 1, &["per", "round"]) => {
                single(self, Condition::OncePerRound, 3)
            }
            "supporting" | "supported" => single(self, Condition::Supported, 1),
            "except" => single(self, Condition::Except, 1),
            "other" if self.w(index + 1) == "than" => single(self, Condition::Except, 2),
            "not" if matches!(self.w(index + 1), "a" | "an") => single(self, Condition::Except, 2),
            "cover" | "edge" if matches!(self.w(index + 1), "hex" | "hexes") => {
                single(self, Condition::HexType(word.clone()), 2)
            }
            // Embergard's feature tokens: treasure side up, or cover side up.
            "treasure" | "cover" if matches!(self.w(index + 1), "token" | "tokens") => {
                single(self, Condition::HexType(word.clone()), 2)
            }
            "feature" if matches!(self.w(index + 1), "token" | "tokens") => {
                single(self, Condition::HexType("feature".to_owned()), 2)
            }
            "hold" | "holds" | "holding"
                if (index + 1..index + 5).any(|at| self.w(at).starts_with("objective")) =>
            {
                let end = (index + 1..index + 5).find(|&at| self.w(at).starts_with("objective"))?;
                single(
                    self,
                    Condition::HexType("objective".to_owned()),
                    end - index + 1,
                )
            }
            _ if TOKEN_NAMES.contains(&word.as_str())
                && matches!(self.w(index + 1), "token" | "tokens") =>
            {
                single(self, Condition::Token(word.clone()), 2)
            }
            "charge" if matches!(self.w(index + 1), "action" | "actions") => {
                single(self, Condition::Token("charge".to_owned()), 2)
            }
            _ if self.kind(index) == Some(TokenKind::Icon) => {
                let digits: Vec<i64> = word
                    .chars()
                    .filter_map(|c| c.to_digit(10).map(i64::from))
                    .collect();
                if digits.is_empty() {
                    return None;
                }
                for n in digits {
                    self.add(Item::Condition(Condition::Number(n)), index..index + 1);
                }
                Some(index + 1)
            }
            _ => None,
        }
    }
}
