//! `GrammarDiagnostic`: every problem the loader can find, with a stable code, the file, a
//! labelled span and a help line.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use crate::ast::Span;

/// Where a name was first defined, when a duplicate is in another file: related to a
/// [`GrammarDiagnostic::DuplicateName`].
#[derive(Debug, Error, Diagnostic)]
#[error("the first {kind} `{name}` is defined here")]
#[diagnostic(severity(Advice))]
pub struct FirstDefinition {
    /// The item kind.
    pub kind: String,
    /// The name.
    pub name: String,
    /// The file of the first definition.
    #[source_code]
    pub src: NamedSource<Arc<str>>,
    /// The first definition's name.
    #[label("first defined here")]
    pub span: SourceSpan,
}

/// A problem found while loading `.gloam` files.
///
/// Each variant has a stable code `gloam::grammar::<name>` (see [`list_codes`]), the file it
/// was found in, a labelled span and a help line. Render it with any miette report handler.
#[derive(Debug, Error, Diagnostic)]
#[non_exhaustive]
pub enum GrammarDiagnostic {
    /// The text does not follow the grammar.
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::syntax))]
    Syntax {
        /// What went wrong, in plain words.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// Where.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// How to fix it.
        #[help]
        help: String,
    },

    /// A file or a line beyond the loader's limits ([`crate::MAX_FILE_BYTES`],
    /// [`crate::MAX_LINE_CHARS`]): the file is not read further.
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::too_large))]
    TooLarge {
        /// What is too large, and the limit.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// Where: the start of the file, or the start of the first line too long.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// How to fix it.
        #[help]
        help: String,
    },

    /// An item kind that is not allowed where it was written.
    #[error("unknown item `{kind}` {context}")]
    #[diagnostic(code(gloam::grammar::unknown_item))]
    UnknownItem {
        /// The kind written.
        kind: String,
        /// Where it was written ("at the top level", "inside `card`").
        context: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The item's kind.
        #[label("not an item here")]
        span: SourceSpan,
        /// Did you mean, or the kinds allowed here.
        #[help]
        help: String,
    },

    /// A field that the item kind does not have.
    #[error("unknown field `{field}` in `{item}`")]
    #[diagnostic(code(gloam::grammar::unknown_field))]
    UnknownField {
        /// The field written.
        field: String,
        /// The item kind.
        item: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The field name.
        #[label("unknown field")]
        span: SourceSpan,
        /// Did you mean, or the fields of the kind.
        #[help]
        help: String,
    },

    /// Required fields are absent (one diagnostic lists all those of one item).
    #[error("missing {listed} in `{item}`")]
    #[diagnostic(code(gloam::grammar::missing_field))]
    MissingField {
        /// The fields that are needed.
        fields: Vec<String>,
        /// The fields in words: "field `kind`", "fields `kind` and `owner`".
        listed: String,
        /// The item kind.
        item: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The item's header.
        #[label("this {item} has no {listed}")]
        span: SourceSpan,
        /// What to write.
        #[help]
        help: String,
    },

    /// A value of the wrong type.
    #[error("`{field}` takes {expected}; found {found}")]
    #[diagnostic(code(gloam::grammar::wrong_type))]
    WrongType {
        /// The field (or `field` element) concerned.
        field: String,
        /// The type the field takes.
        expected: String,
        /// The type written.
        found: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The value.
        #[label("expected {expected}")]
        span: SourceSpan,
        /// An example of the right form.
        #[help]
        help: String,
    },

    /// The same field is set twice in one item.
    #[error("field `{field}` is set twice")]
    #[diagnostic(code(gloam::grammar::duplicate_field))]
    DuplicateField {
        /// The field.
        field: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The second setting.
        #[label("set again here")]
        span: SourceSpan,
        /// The first setting.
        #[label("first set here")]
        first: SourceSpan,
        /// How to fix it.
        #[help]
        help: String,
    },

    /// Two items of the same kind share a name in the same scope.
    #[error("duplicate {kind} name `{name}`")]
    #[diagnostic(code(gloam::grammar::duplicate_name))]
    DuplicateName {
        /// The item kind.
        kind: String,
        /// The name.
        name: String,
        /// The file of the second definition.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The second definition's name.
        #[label("defined again here")]
        span: SourceSpan,
        /// The first definition, when it is in the same file.
        #[label("first defined here")]
        first: Option<SourceSpan>,
        /// The first definition, when it is in another file: a related diagnostic with its
        /// own file and span (so tools such as `gloam check --json` can point at it).
        #[related]
        elsewhere: Vec<FirstDefinition>,
        /// Where the first one is.
        #[help]
        help: String,
    },

    /// A name that the ruleset (or the library) does not declare.
    #[error("unknown {what} `{name}`")]
    #[diagnostic(code(gloam::grammar::unknown_name))]
    UnknownName {
        /// What kind of name: "keyword", "hex type", "timing window", "warband"...
        what: String,
        /// The name written.
        name: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The name.
        #[label("no {what} of this name")]
        span: SourceSpan,
        /// Did you mean, or where names of this kind are declared.
        #[help]
        help: String,
    },

    /// `extends` names a ruleset that is not loaded.
    #[error("unknown parent ruleset `{name}`")]
    #[diagnostic(code(gloam::grammar::unknown_parent))]
    UnknownParent {
        /// The parent named.
        name: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The `extends` value.
        #[label("no ruleset of this name is loaded")]
        span: SourceSpan,
        /// Did you mean.
        #[help]
        help: String,
    },

    /// Rulesets extend each other in a cycle.
    #[error("rulesets extend each other in a cycle: {chain}")]
    #[diagnostic(code(gloam::grammar::extends_cycle))]
    ExtendsCycle {
        /// The cycle, `a -> b -> a`.
        chain: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// One `extends` of the cycle.
        #[label("this `extends` closes the cycle")]
        span: SourceSpan,
        /// How to fix it.
        #[help]
        help: String,
    },

    /// A number with a decimal point.
    #[error("decimal number `{text}`: rules are integer")]
    #[diagnostic(code(gloam::grammar::decimal_number))]
    DecimalNumber {
        /// The number as written.
        text: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The number.
        #[label("not a whole number")]
        span: SourceSpan,
        /// Which whole numbers to write instead.
        #[help]
        help: String,
    },

    /// A number too large for a 64-bit integer.
    #[error("number `{text}` is too large")]
    #[diagnostic(code(gloam::grammar::number_too_large))]
    NumberTooLarge {
        /// The number as written.
        text: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The number.
        #[label("does not fit in 64 bits")]
        span: SourceSpan,
        /// The limit.
        #[help]
        help: String,
    },

    /// A backslash escape that strings do not have.
    #[error("unknown escape `{escape}` in a string")]
    #[diagnostic(code(gloam::grammar::bad_escape))]
    BadEscape {
        /// The escape as written.
        escape: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The escape.
        #[label("unknown escape")]
        span: SourceSpan,
        /// The escapes strings have.
        #[help]
        help: String,
    },

    /// An item kind that needs a name was written without one.
    #[error("`{kind}` needs a name")]
    #[diagnostic(code(gloam::grammar::missing_name))]
    MissingName {
        /// The item kind.
        kind: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The item's kind.
        #[label("no name string after `{kind}`")]
        span: SourceSpan,
        /// What to write.
        #[help]
        help: String,
    },

    /// An item kind that takes no name was given one.
    #[error("`{kind}` takes no name")]
    #[diagnostic(code(gloam::grammar::unexpected_name))]
    UnexpectedName {
        /// The item kind.
        kind: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The name.
        #[label("remove this name")]
        span: SourceSpan,
        /// What to write.
        #[help]
        help: String,
    },

    /// A board layout that cannot be read.
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::bad_layout))]
    BadLayout {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The character or line concerned.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// The layout rules.
        #[help]
        help: String,
    },

    /// A value of the right type that is still not acceptable (out of range, wrong length,
    /// contradicting another value).
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::bad_value))]
    BadValue {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The value.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// What is accepted.
        #[help]
        help: String,
    },

    /// A party that breaks one of its ruleset's building rules (points, leader, duplicate
    /// professions, race, alignment, profession and equipment restrictions).
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::party_rule))]
    PartyRule {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// Where the party breaks the rule.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// How to fix it.
        #[help]
        help: String,
    },

    /// A length that cannot be read: an unknown unit, `"` for inches, a value finer than a
    /// tenth of a millimetre, or out of range.
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::bad_length))]
    BadLength {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The length as written.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// How to write it.
        #[help]
        help: String,
    },

    /// A deck of a decklist has fewer cards than its ruleset's `min_size`.
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::deck_too_small))]
    DeckTooSmall {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The deck's name.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// How many to add.
        #[help]
        help: String,
    },

    /// A deck of a decklist has more cards than its ruleset's `max_size`.
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::deck_too_large))]
    DeckTooLarge {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The deck's name.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// How many to take out.
        #[help]
        help: String,
    },

    /// A card of a kind the deck does not take.
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::deck_wrong_kind))]
    DeckWrongKind {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The card.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// Which deck takes it.
        #[help]
        help: String,
    },

    /// A card the decklist's warband may not take: another warband's, or another grand alliance's.
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::deck_wrong_owner))]
    DeckWrongOwner {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The card.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// Which cards the warband may take.
        #[help]
        help: String,
    },

    /// A decklist's warband or card is for another ruleset than the decklist's (or one it extends).
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::deck_wrong_ruleset))]
    DeckWrongRuleset {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The warband or card.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// Which rulesets fit.
        #[help]
        help: String,
    },

    /// A card listed twice in a player's decks when the deck's rules want unique names.
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::deck_duplicate))]
    DeckDuplicate {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The repeat.
        #[label("listed again here")]
        span: SourceSpan,
        /// The first listing.
        #[label("first listed here")]
        first: SourceSpan,
        /// How to fix it.
        #[help]
        help: String,
    },

    /// More cards with a keyword, score timing or kind than the deck's `limits` allow.
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::deck_limit))]
    DeckLimit {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The first card over the limit.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// How many to take out.
        #[help]
        help: String,
    },

    /// The cards of the deck's `max_half` kinds, keywords or timings fill more than half the deck.
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::deck_half))]
    DeckHalf {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The deck's name.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// How to rebalance.
        #[help]
        help: String,
    },

    /// The deck's `balanced` keywords are not on the same number of cards, or one is on none.
    #[error("{message}")]
    #[diagnostic(code(gloam::grammar::deck_balance))]
    DeckBalance {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<str>>,
        /// The deck's name.
        #[label("{label}")]
        span: SourceSpan,
        /// The label text.
        label: String,
        /// How to rebalance.
        #[help]
        help: String,
    },
}

/// Every diagnostic code, with a one-line meaning, in a fixed order (for docs).
const CODES: &[(&str, &str)] = &[
    (
        "gloam::grammar::syntax",
        "the text does not follow the grammar (a brace, `=`, quote or comma is missing or extra)",
    ),
    (
        "gloam::grammar::unknown_item",
        "an item kind that is not allowed where it is written",
    ),
    (
        "gloam::grammar::unknown_field",
        "a field that this kind of item does not have",
    ),
    (
        "gloam::grammar::missing_field",
        "required fields are absent",
    ),
    (
        "gloam::grammar::wrong_type",
        "a value of the wrong type (a string where a number is needed...)",
    ),
    (
        "gloam::grammar::duplicate_field",
        "the same field is set twice in one item",
    ),
    (
        "gloam::grammar::duplicate_name",
        "two items of the same kind share a name in the same scope",
    ),
    (
        "gloam::grammar::unknown_name",
        "a keyword, hex type, token, characteristic, timing window, dice face, card kind, score timing, ruleset, warband, fighter, deck or card that is not declared",
    ),
    (
        "gloam::grammar::unknown_parent",
        "`extends` names a ruleset that is not loaded",
    ),
    (
        "gloam::grammar::extends_cycle",
        "rulesets extend each other in a cycle",
    ),
    (
        "gloam::grammar::decimal_number",
        "a number with a decimal point: rules are integer",
    ),
    (
        "gloam::grammar::number_too_large",
        "a number that does not fit in a 64-bit integer",
    ),
    (
        "gloam::grammar::bad_escape",
        "a backslash escape that strings do not have",
    ),
    (
        "gloam::grammar::missing_name",
        "an item kind that needs a name string was written without one",
    ),
    (
        "gloam::grammar::unexpected_name",
        "an item kind that takes no name was given one",
    ),
    (
        "gloam::grammar::bad_layout",
        "a board layout that cannot be read as hex rows",
    ),
    (
        "gloam::grammar::bad_value",
        "a value of the right type that is still not acceptable (out of range, contradictory)",
    ),
    (
        "gloam::grammar::party_rule",
        "a party breaks a building rule of its ruleset: points, leader, duplicate professions, race, alignment or equipment restrictions",
    ),
    (
        "gloam::grammar::bad_length",
        "a length that cannot be read: an unknown unit, `\"` for inches, finer than a tenth of a millimetre, or out of range",
    ),
    (
        "gloam::grammar::deck_too_small",
        "a deck of a decklist has fewer cards than its ruleset's `min_size`",
    ),
    (
        "gloam::grammar::deck_too_large",
        "a deck of a decklist has more cards than its ruleset's `max_size`",
    ),
    (
        "gloam::grammar::deck_wrong_kind",
        "a decklist puts a card in a deck that does not take its kind",
    ),
    (
        "gloam::grammar::deck_wrong_owner",
        "a decklist's card belongs to another warband or another grand alliance",
    ),
    (
        "gloam::grammar::deck_wrong_ruleset",
        "a decklist's warband or card is for a ruleset other than the decklist's or one it extends",
    ),
    (
        "gloam::grammar::deck_duplicate",
        "a card listed twice in a decklist whose deck rules want unique names",
    ),
    (
        "gloam::grammar::deck_limit",
        "more cards with a keyword, score timing or kind than the deck's `limits` allow",
    ),
    (
        "gloam::grammar::too_large",
        "a file larger than 2 MiB, or a line longer than 4,000 characters: the file is not read",
    ),
    (
        "gloam::grammar::deck_half",
        "the deck's `max_half` cards fill more than half of it (rounded down)",
    ),
    (
        "gloam::grammar::deck_balance",
        "the deck's `balanced` keywords are not each on the same number of cards (at least one)",
    ),
];

/// Every diagnostic code `gloam-grammar` can report, with its one-line meaning.
///
/// # Examples
///
/// ```
/// let codes = gloam_grammar::list_codes();
/// assert!(codes.iter().any(|(code, _)| *code == "gloam::grammar::unknown_field"));
/// ```
pub fn list_codes() -> &'static [(&'static str, &'static str)] {
    CODES
}

impl GrammarDiagnostic {
    /// The stable code, such as `gloam::grammar::unknown_field`.
    pub fn code_str(&self) -> &'static str {
        match self {
            GrammarDiagnostic::Syntax { .. } => "gloam::grammar::syntax",
            GrammarDiagnostic::TooLarge { .. } => "gloam::grammar::too_large",
            GrammarDiagnostic::UnknownItem { .. } => "gloam::grammar::unknown_item",
            GrammarDiagnostic::UnknownField { .. } => "gloam::grammar::unknown_field",
            GrammarDiagnostic::MissingField { .. } => "gloam::grammar::missing_field",
            GrammarDiagnostic::WrongType { .. } => "gloam::grammar::wrong_type",
            GrammarDiagnostic::DuplicateField { .. } => "gloam::grammar::duplicate_field",
            GrammarDiagnostic::DuplicateName { .. } => "gloam::grammar::duplicate_name",
            GrammarDiagnostic::UnknownName { .. } => "gloam::grammar::unknown_name",
            GrammarDiagnostic::UnknownParent { .. } => "gloam::grammar::unknown_parent",
            GrammarDiagnostic::ExtendsCycle { .. } => "gloam::grammar::extends_cycle",
            GrammarDiagnostic::DecimalNumber { .. } => "gloam::grammar::decimal_number",
            GrammarDiagnostic::NumberTooLarge { .. } => "gloam::grammar::number_too_large",
            GrammarDiagnostic::BadEscape { .. } => "gloam::grammar::bad_escape",
            GrammarDiagnostic::MissingName { .. } => "gloam::grammar::missing_name",
            GrammarDiagnostic::UnexpectedName { .. } => "gloam::grammar::unexpected_name",
            GrammarDiagnostic::BadLayout { .. } => "gloam::grammar::bad_layout",
            GrammarDiagnostic::BadValue { .. } => "gloam::grammar::bad_value",
            GrammarDiagnostic::PartyRule { .. } => "gloam::grammar::party_rule",
            GrammarDiagnostic::BadLength { .. } => "gloam::grammar::bad_length",
            GrammarDiagnostic::DeckTooSmall { .. } => "gloam::grammar::deck_too_small",
            GrammarDiagnostic::DeckTooLarge { .. } => "gloam::grammar::deck_too_large",
            GrammarDiagnostic::DeckWrongKind { .. } => "gloam::grammar::deck_wrong_kind",
            GrammarDiagnostic::DeckWrongOwner { .. } => "gloam::grammar::deck_wrong_owner",
            GrammarDiagnostic::DeckWrongRuleset { .. } => "gloam::grammar::deck_wrong_ruleset",
            GrammarDiagnostic::DeckDuplicate { .. } => "gloam::grammar::deck_duplicate",
            GrammarDiagnostic::DeckLimit { .. } => "gloam::grammar::deck_limit",
            GrammarDiagnostic::DeckHalf { .. } => "gloam::grammar::deck_half",
            GrammarDiagnostic::DeckBalance { .. } => "gloam::grammar::deck_balance",
        }
    }

    fn parts(&self) -> (&NamedSource<Arc<str>>, SourceSpan) {
        match self {
            GrammarDiagnostic::Syntax { src, span, .. }
            | GrammarDiagnostic::TooLarge { src, span, .. }
            | GrammarDiagnostic::UnknownItem { src, span, .. }
            | GrammarDiagnostic::UnknownField { src, span, .. }
            | GrammarDiagnostic::MissingField { src, span, .. }
            | GrammarDiagnostic::WrongType { src, span, .. }
            | GrammarDiagnostic::DuplicateField { src, span, .. }
            | GrammarDiagnostic::DuplicateName { src, span, .. }
            | GrammarDiagnostic::UnknownName { src, span, .. }
            | GrammarDiagnostic::UnknownParent { src, span, .. }
            | GrammarDiagnostic::ExtendsCycle { src, span, .. }
            | GrammarDiagnostic::DecimalNumber { src, span, .. }
            | GrammarDiagnostic::NumberTooLarge { src, span, .. }
            | GrammarDiagnostic::BadEscape { src, span, .. }
            | GrammarDiagnostic::MissingName { src, span, .. }
            | GrammarDiagnostic::UnexpectedName { src, span, .. }
            | GrammarDiagnostic::BadLayout { src, span, .. }
            | GrammarDiagnostic::BadValue { src, span, .. }
            | GrammarDiagnostic::PartyRule { src, span, .. }
            | GrammarDiagnostic::BadLength { src, span, .. }
            | GrammarDiagnostic::DeckTooSmall { src, span, .. }
            | GrammarDiagnostic::DeckTooLarge { src, span, .. }
            | GrammarDiagnostic::DeckWrongKind { src, span, .. }
            | GrammarDiagnostic::DeckWrongOwner { src, span, .. }
            | GrammarDiagnostic::DeckWrongRuleset { src, span, .. }
            | GrammarDiagnostic::DeckDuplicate { src, span, .. }
            | GrammarDiagnostic::DeckLimit { src, span, .. }
            | GrammarDiagnostic::DeckHalf { src, span, .. }
            | GrammarDiagnostic::DeckBalance { src, span, .. } => (src, *span),
        }
    }

    /// The name of the file the problem is in.
    pub fn file(&self) -> &str {
        self.parts().0.name()
    }

    /// The primary span: where the label points, in bytes from the start of the file.
    pub fn span(&self) -> Span {
        let span = self.parts().1;
        Span::new(span.offset(), span.offset() + span.len())
    }

    /// The order diagnostics are reported in: file name, then offset, then code and message.
    pub(crate) fn sort_key(&self) -> (String, usize, usize, &'static str, String) {
        let span = self.span();
        (
            self.file().to_string(),
            span.start,
            span.end,
            self.code_str(),
            self.to_string(),
        )
    }
}

/// The file a diagnostic is about; builds the miette source for each diagnostic.
#[derive(Clone, Debug)]
pub(crate) struct FileRef {
    pub(crate) name: String,
    pub(crate) text: Arc<str>,
}

impl FileRef {
    pub(crate) fn new(name: &str, text: &Arc<str>) -> FileRef {
        FileRef {
            name: name.to_string(),
            text: Arc::clone(text),
        }
    }

    pub(crate) fn src(&self) -> NamedSource<Arc<str>> {
        NamedSource::new(&self.name, Arc::clone(&self.text))
    }

    /// A span clamped to the file and to character boundaries, so that a renderer never
    /// slices inside a character.
    pub(crate) fn span(&self, span: Span) -> SourceSpan {
        let len = self.text.len();
        let mut start = span.start.min(len);
        let mut end = span.end.clamp(start, len);
        while start > 0 && !self.text.is_char_boundary(start) {
            start -= 1;
        }
        while end < len && !self.text.is_char_boundary(end) {
            end += 1;
        }
        Span::new(start, end).into()
    }
}
