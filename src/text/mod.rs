//! Card text against behaviour: compare a card's printed (or `text`) rules with what its
//! data does, and render a canonical text from the data.
//!
//! A text is parsed by [`gloam_grammar::text::parse_text`] into its meaning; the card's
//! data is read by [`behaviour`] (its fields, and the effect calls and condition tests of
//! its scripts). [`check_card`] compares the two and returns [`TextDiagnostic`]s with stable
//! codes (`gloam::text::*`, see [`Code`]), each pointing at the clause in the text and at
//! the field or script call in the card file. [`render`] writes a card's text in the house
//! style from its data.
//!
//! ```
//! use gloam::load::Source;
//! use gloam::text::{Sites, Status, check_card};
//!
//! let file = r#"
//! card "Shove" {
//!     ruleset = "r"
//!     kind = ploy
//!     owner = universal
//!     window = power_step
//!     text = "Push this fighter 1 hex."
//!     effect = { push(this_fighter, 1); }
//! }
//! "#;
//! let sources = [Source::new("shove.gloam", file)];
//! let (library, _) = gloam_grammar::load(&sources);
//! let card = library.card("Shove").unwrap();
//! let sites = Sites::new(&sources);
//! assert_eq!(check_card(card, None, &sites).status, Status::Agrees);
//! let wrong = check_card(card, Some(("printed", "Push this fighter 2 hexes.")), &sites);
//! assert_eq!(wrong.status, Status::Mismatch);
//! assert_eq!(wrong.diagnostics[0].code.as_str(), "gloam::text::number");
//! ```

mod behaviour;
mod compare;
mod render;
mod script;

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use gloam_grammar::CardDef;
use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode};

pub use behaviour::{Behaviour, DataEffect, DataName, DataNumber, behaviour};
pub use render::render;

use crate::load::Source;

/// The stable code of a text diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Code {
    /// A sentence of the text means nothing the parser knows.
    Unparsed,
    /// The text implies another kind of card (an objective, a spell).
    Kind,
    /// The text plays the card at another moment than its `window`.
    Window,
    /// The text scores the objective at another moment than its `score`.
    ScoreTiming,
    /// A keyword is in the text and not in the data, or the other way.
    Keyword,
    /// The text restricts the card to other fighters.
    Restriction,
    /// The text's glory cost differs (Illusion: costs no glory).
    Cost,
    /// A number differs.
    Number,
    /// An effect is done to the other side (friendly, enemy, this fighter).
    TargetSide,
    /// A push goes another way.
    Direction,
    /// A range or distance differs.
    Range,
    /// An effect lasts for another time.
    Duration,
    /// The text has a condition the data does not check.
    MissingCondition,
    /// The data checks a condition the text does not say.
    DroppedCondition,
    /// The text has an effect the data does not do.
    MissingEffect,
    /// The data does something the text does not say.
    DroppedEffect,
    /// A condition or a moment speaks of another side's fighters (friendly, enemy, this
    /// fighter) than the condition tests.
    ConditionSide,
    /// A condition names another territory than the data tests.
    Territory,
    /// A count is compared with another operand: a number where the data compares with a
    /// value of the game (the round number), or the reverse.
    Operand,
}

impl Code {
    /// Every code, in order.
    pub const ALL: &'static [Code] = &[
        Code::Unparsed,
        Code::Kind,
        Code::Window,
        Code::ScoreTiming,
        Code::Keyword,
        Code::Restriction,
        Code::Cost,
        Code::Number,
        Code::TargetSide,
        Code::Direction,
        Code::Range,
        Code::Duration,
        Code::MissingCondition,
        Code::DroppedCondition,
        Code::MissingEffect,
        Code::DroppedEffect,
        Code::ConditionSide,
        Code::Territory,
        Code::Operand,
    ];

    /// The code as printed: `gloam::text::number`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Unparsed => "gloam::text::unparsed",
            Code::Kind => "gloam::text::kind",
            Code::Window => "gloam::text::window",
            Code::ScoreTiming => "gloam::text::score_timing",
            Code::Keyword => "gloam::text::keyword",
            Code::Restriction => "gloam::text::restriction",
            Code::Cost => "gloam::text::cost",
            Code::Number => "gloam::text::number",
            Code::TargetSide => "gloam::text::target_side",
            Code::Direction => "gloam::text::direction",
            Code::Range => "gloam::text::range",
            Code::Duration => "gloam::text::duration",
            Code::MissingCondition => "gloam::text::missing_condition",
            Code::DroppedCondition => "gloam::text::dropped_condition",
            Code::MissingEffect => "gloam::text::missing_effect",
            Code::DroppedEffect => "gloam::text::dropped_effect",
            Code::ConditionSide => "gloam::text::condition_side",
            Code::Territory => "gloam::text::territory",
            Code::Operand => "gloam::text::operand",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a card is written: its file and the spans of its fields.
#[derive(Clone, Debug)]
struct CardFile {
    file: String,
    file_text: Arc<str>,
    header: Range<usize>,
    fields: BTreeMap<String, Range<usize>>,
    /// The byte range of the `text` string's content, when it is written without escapes.
    text_content: Option<Range<usize>>,
}

/// The places of every card in the data files, for pointing diagnostics at fields.
#[derive(Clone, Debug, Default)]
pub struct Sites {
    cards: BTreeMap<String, CardFile>,
}

impl Sites {
    /// Finds every card's fields in `sources`.
    pub fn new(sources: &[Source]) -> Sites {
        let mut cards = BTreeMap::new();
        for source in sources {
            let (document, _) = gloam_grammar::parse(source);
            let file_text: Arc<str> = Arc::from(&*source.text);
            for item in &document.items {
                if item.kind.value != "card" {
                    continue;
                }
                let Some(name) = &item.name else { continue };
                let mut fields = BTreeMap::new();
                let mut text_content = None;
                for field in item.fields() {
                    fields.insert(field.key.value.clone(), field.span.start..field.span.end);
                    if field.key.value == "text"
                        && let gloam_grammar::Value::String(value) = &field.value
                    {
                        let span = field.value.span();
                        let inner = span.start + 1..span.end.saturating_sub(1);
                        if file_text.get(inner.clone()) == Some(value.value.as_str()) {
                            text_content = Some(inner);
                        }
                    }
                }
                let header = item.header_span();
                cards.insert(
                    name.value.clone(),
                    CardFile {
                        file: source.name.clone(),
                        file_text: Arc::clone(&file_text),
                        header: header.start..header.end,
                        fields,
                        text_content,
                    },
                );
            }
        }
        Sites { cards }
    }
}

/// A place in a card file that a diagnostic is about.
#[derive(Clone, Debug)]
pub struct CardSite {
    /// The file.
    pub file: String,
    /// What is there (`field \`window\``, `effect script`).
    pub what: String,
    /// Its byte range in the file.
    pub span: Range<usize>,
    /// Line and column, from 1.
    pub line: usize,
    /// Column, from 1, in characters.
    pub column: usize,
    file_text: Arc<str>,
}

/// The text a diagnostic's clause is in.
#[derive(Clone, Debug)]
struct TextSource {
    name: String,
    content: Arc<str>,
    offset: usize,
}

/// One disagreement between a text and a card's behaviour.
#[derive(Clone, Debug)]
pub struct TextDiagnostic {
    /// Its stable code.
    pub code: Code,
    /// What differs, in one line.
    pub message: String,
    /// The clause of the text it is about (its byte range in the text, and its words).
    pub clause: Option<(Range<usize>, String)>,
    /// The place in the card file.
    pub card: Option<CardSite>,
    source: Option<TextSource>,
    related: Vec<SiteDiagnostic>,
}

impl fmt::Display for TextDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TextDiagnostic {}

impl Diagnostic for TextDiagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code.as_str()))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let source = self.source.as_ref()?;
        let mut labels = Vec::new();
        if let Some((range, _)) = &self.clause {
            labels.push(LabeledSpan::new_with_span(
                Some("the text says this".to_owned()),
                source.offset + range.start..source.offset + range.end,
            ));
        }
        if let Some(card) = &self.card
            && card.file == source.name
        {
            labels.push(LabeledSpan::new_with_span(
                Some(format!("the card's {}", card.what)),
                card.span.clone(),
            ));
        }
        Some(Box::new(labels.into_iter()))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(self.related.iter().map(|d| d as &dyn Diagnostic)))
    }
}

/// A pointer at a card file, shown under a diagnostic whose text is elsewhere.
#[derive(Clone, Debug)]
struct SiteDiagnostic {
    message: String,
    source: NamedSource<Arc<str>>,
    span: Range<usize>,
    label: String,
}

impl fmt::Display for SiteDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SiteDiagnostic {}

impl Diagnostic for SiteDiagnostic {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Advice)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(self.label.clone()),
            self.span.clone(),
        ))))
    }
}

/// How a text compares with its card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Status {
    /// Every clause agrees with the data.
    Agrees,
    /// Something differs.
    Mismatch,
    /// A sentence could not be understood.
    Unparsed,
    /// No card of that name.
    UnknownCard,
}

impl Status {
    /// The status as the JSON output spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Agrees => "agrees",
            Status::Mismatch => "mismatch",
            Status::Unparsed => "unparsed",
            Status::UnknownCard => "unknown card",
        }
    }
}

/// The result of checking one text.
#[derive(Clone, Debug)]
pub struct TextCheck {
    /// The card's name.
    pub name: String,
    /// The verdict.
    pub status: Status,
    /// Every disagreement, in text order.
    pub diagnostics: Vec<TextDiagnostic>,
}

impl TextCheck {
    /// A check of a name that is no card of the ruleset.
    pub fn unknown(name: &str) -> TextCheck {
        TextCheck {
            name: name.to_owned(),
            status: Status::UnknownCard,
            diagnostics: Vec::new(),
        }
    }

    /// The check as JSON: `name`, `status`, `diagnostics` (each with `code`, `message`,
    /// `clause` and `card`).
    pub fn to_json(&self) -> serde_json::Value {
        let diagnostics: Vec<serde_json::Value> = self
            .diagnostics
            .iter()
            .map(|d| {
                serde_json::json!({
                    "code": d.code.as_str(),
                    "message": d.message,
                    "clause": d.clause.as_ref().map(|(range, words)| serde_json::json!({
                        "start": range.start,
                        "end": range.end,
                        "text": words,
                    })),
                    "card": d.card.as_ref().map(|c| serde_json::json!({
                        "file": c.file,
                        "line": c.line,
                        "column": c.column,
                        "what": c.what,
                    })),
                })
            })
            .collect();
        serde_json::json!({
            "name": self.name,
            "status": self.status.as_str(),
            "diagnostics": diagnostics,
        })
    }
}

/// Where a finding points in the card file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Site {
    /// A field of the card (or the card's header when the field is absent).
    Field(&'static str),
    /// A byte span in the card file (a script call or literal), in the given field.
    Span(&'static str, Range<usize>),
}

/// One finding of the comparison, before it is placed in files.
#[derive(Clone, Debug)]
pub(crate) struct Finding {
    pub(crate) code: Code,
    pub(crate) message: String,
    pub(crate) clause: Option<Range<usize>>,
    pub(crate) site: Site,
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or_default();
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Checks a text against `card`: `text` is `(name of its source, text)`, or `None` for the
/// card's own `text` field.
pub fn check_card(card: &CardDef, text: Option<(&str, &str)>, sites: &Sites) -> TextCheck {
    let file = sites.cards.get(&card.name);
    let (words, source) = match text {
        Some((name, words)) => (
            words.to_owned(),
            Some(TextSource {
                name: name.to_owned(),
                content: Arc::from(words),
                offset: 0,
            }),
        ),
        None => {
            let words = card.text.clone().unwrap_or_default();
            let source = match file {
                Some(f) => Some(match &f.text_content {
                    Some(inner) => TextSource {
                        name: f.file.clone(),
                        content: Arc::clone(&f.file_text),
                        offset: inner.start,
                    },
                    None => TextSource {
                        name: format!("{} (text of `{}`)", f.file, card.name),
                        content: Arc::from(words.as_str()),
                        offset: 0,
                    },
                }),
                None => Some(TextSource {
                    name: format!("text of `{}`", card.name),
                    content: Arc::from(words.as_str()),
                    offset: 0,
                }),
            };
            (words, source)
        }
    };
    let parsed = gloam_grammar::text::parse_text(&words);
    let data = behaviour(card);
    let (status, findings) = if parsed.is_parsed() {
        let findings = compare::compare(&parsed, &data);
        let status = if findings.is_empty() {
            Status::Agrees
        } else {
            Status::Mismatch
        };
        (status, findings)
    } else {
        let mut findings: Vec<Finding> = parsed
            .unparsed
            .iter()
            .map(|range| Finding {
                code: Code::Unparsed,
                message: format!(
                    "`{}`: this sentence means nothing the card-text grammar knows",
                    words.get(range.clone()).unwrap_or_default()
                ),
                clause: Some(range.clone()),
                site: Site::Field("text"),
            })
            .collect();
        if findings.is_empty() {
            findings.push(Finding {
                code: Code::Unparsed,
                message: "the text is empty".to_owned(),
                clause: None,
                site: Site::Field("text"),
            });
        }
        (Status::Unparsed, findings)
    };
    let diagnostics = findings
        .into_iter()
        .map(|finding| place(finding, &words, source.as_ref(), file))
        .collect();
    TextCheck {
        name: card.name.clone(),
        status,
        diagnostics,
    }
}

fn place(
    finding: Finding,
    words: &str,
    source: Option<&TextSource>,
    file: Option<&CardFile>,
) -> TextDiagnostic {
    let card = file.map(|f| {
        let (what, span) = match &finding.site {
            Site::Field(name) => match f.fields.get(*name) {
                Some(span) => (format!("field `{name}`"), span.clone()),
                None => (format!("header (it has no `{name}`)"), f.header.clone()),
            },
            Site::Span(field, span) => (format!("{field} script"), span.clone()),
        };
        let (line, column) = line_column(&f.file_text, span.start);
        CardSite {
            file: f.file.clone(),
            what,
            span,
            line,
            column,
            file_text: Arc::clone(&f.file_text),
        }
    });
    let mut related = Vec::new();
    if let (Some(card), Some(source)) = (&card, source)
        && card.file != source.name
    {
        related.push(SiteDiagnostic {
            message: format!("the card's {} is here", card.what),
            source: NamedSource::new(card.file.clone(), Arc::clone(&card.file_text)),
            span: card.span.clone(),
            label: format!("the card's {}", card.what),
        });
    }
    TextDiagnostic {
        code: finding.code,
        message: finding.message,
        clause: finding.clause.map(|range| {
            (
                range.clone(),
                words.get(range).unwrap_or_default().to_owned(),
            )
        }),
        card,
        source: source.cloned(),
        related,
    }
}

/// A source the diagnostics of a text can be rendered with: the text named `name`.
impl SourceCode for TextSource {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let contents = self
            .content
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            contents.data(),
            *contents.span(),
            contents.line(),
            contents.column(),
            contents.line_count(),
        )))
    }
}
