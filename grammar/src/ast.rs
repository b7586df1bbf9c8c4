//! The generic syntax tree of a `.gloam` file: items, fields and values, each with its byte
//! span in the file. It knows nothing of what a card or a ruleset is; the schema does.

use gloam_core::{Length, LengthUnit};
use serde::{Deserialize, Serialize};

/// A byte range `start..end` in a source file.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (byte offsets).
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The number of bytes covered.
    pub const fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span covers no byte.
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The span moved `offset` bytes further into the file.
    pub(crate) const fn shifted(self, offset: usize) -> Span {
        Span::new(self.start + offset, self.end + offset)
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> miette::SourceSpan {
        miette::SourceSpan::new(span.start.into(), span.len())
    }
}

/// A value with the span it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

/// One parsed file: its top-level items in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// The file's name, as given in its [`SourceFile`](crate::SourceFile).
    pub file: String,
    /// The top-level items that could be parsed.
    pub items: Vec<Item>,
}

/// `kind "name" { entries }`, or `kind { entries }` for an unnamed item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The item kind (`card`, `ruleset`, `weapon`...).
    pub kind: Spanned<String>,
    /// The name string, decoded (`"Sidestep"` gives `Sidestep`); its span includes the quotes.
    pub name: Option<Spanned<String>>,
    /// Fields and nested items, in file order.
    pub entries: Vec<Entry>,
    /// From the kind to the closing brace.
    pub span: Span,
}

impl Item {
    /// The span of the item's header: its kind and name.
    pub fn header_span(&self) -> Span {
        match &self.name {
            Some(name) => Span::new(self.kind.span.start, name.span.end),
            None => self.kind.span,
        }
    }

    /// The fields of this item, in file order.
    pub fn fields(&self) -> impl Iterator<Item = &Field> {
        self.entries.iter().filter_map(|entry| match entry {
            Entry::Field(field) => Some(field),
            Entry::Item(_) => None,
        })
    }

    /// The nested items of this item, in file order.
    pub fn items(&self) -> impl Iterator<Item = &Item> {
        self.entries.iter().filter_map(|entry| match entry {
            Entry::Item(item) => Some(item),
            Entry::Field(_) => None,
        })
    }

    /// The first field named `key`.
    pub fn field(&self, key: &str) -> Option<&Field> {
        self.fields().find(|field| field.key.value == key)
    }
}

/// An entry of an item's block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// `key = value`.
    Field(Field),
    /// A nested item.
    Item(Item),
}

/// `key = value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field name.
    pub key: Spanned<String>,
    /// The value.
    pub value: Value,
    /// From the key to the end of the value.
    pub span: Span,
}

/// A field value or list element.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Value {
    /// A string, decoded (escapes replaced); the span includes the quotes.
    String(Spanned<String>),
    /// A whole number.
    Int(Spanned<i64>),
    /// `true` or `false`.
    Bool(Spanned<bool>),
    /// A bare name such as `lethal`.
    Ident(Spanned<String>),
    /// `[a, b: 1, ...]`.
    List(List),
    /// `{ raw script text }`, after `=`.
    Script(Script),
    /// A length with its unit: `3in`, `0.5in`, `12cm`, `32mm`.
    Length(Spanned<Measure>),
    /// A number that could not be kept: written with a decimal point (`1.5`) or too large
    /// for 64 bits. It has already been reported by [`parse`](crate::parse).
    Invalid(Spanned<String>),
}

impl Value {
    /// Where the value was written.
    pub fn span(&self) -> Span {
        match self {
            Value::String(v) | Value::Ident(v) | Value::Invalid(v) => v.span,
            Value::Int(v) => v.span,
            Value::Length(v) => v.span,
            Value::Bool(v) => v.span,
            Value::List(list) => list.span,
            Value::Script(script) => script.span,
        }
    }

    /// A short description of the value's type, for messages ("a string", "a list").
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::String(_) => "a string",
            Value::Int(_) => "a whole number",
            Value::Length(_) => "a length",
            Value::Bool(_) => "`true` or `false`",
            Value::Ident(_) => "a name",
            Value::List(_) => "a list",
            Value::Script(_) => "a script",
            Value::Invalid(_) => "an invalid number",
        }
    }
}

/// A length as written in a data file: its value and the unit it was written in, so that
/// printing gives it back in that unit (`0.5in`, not `12.7mm`).
///
/// # Examples
///
/// ```
/// use gloam_core::{Length, LengthUnit};
/// use gloam_grammar::Measure;
/// let half_inch = Measure::new(Length::tenth_mm(127), LengthUnit::Inch);
/// assert_eq!(half_inch.to_string(), "0.5in");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Measure {
    /// The length, in tenths of a millimetre.
    pub length: Length,
    /// The unit it was written in.
    pub unit: LengthUnit,
}

impl Measure {
    /// A length and the unit it is written in.
    pub const fn new(length: Length, unit: LengthUnit) -> Measure {
        Measure { length, unit }
    }
}

impl std::fmt::Display for Measure {
    /// The length in its unit (`3in`, `0.5in`, `12cm`), as a data file writes it; in
    /// millimetres when the unit cannot show it exactly (never for a length read from a file).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.length.format_in(self.unit) {
            Some(text) => f.write_str(&text),
            None => f.write_str(
                &self
                    .length
                    .format_in(LengthUnit::Mm)
                    .unwrap_or_else(|| self.length.to_string()),
            ),
        }
    }
}

/// `[element, ...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct List {
    /// The elements, in order.
    pub elements: Vec<Element>,
    /// From `[` to `]`.
    pub span: Span,
}

/// One element of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// A plain value.
    Value(Value),
    /// `key: value`.
    Pair(Pair),
}

impl Element {
    /// Where the element was written.
    pub fn span(&self) -> Span {
        match self {
            Element::Value(value) => value.span(),
            Element::Pair(pair) => pair.span,
        }
    }
}

/// `key: value` inside a list. The key is a name (`critical: 1`) or a string (`"#": blocked`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The key, decoded if it was a string.
    pub key: Spanned<String>,
    /// Whether the key was written as a string.
    pub key_is_string: bool,
    /// The value.
    pub value: Value,
    /// From the key to the end of the value.
    pub span: Span,
}

/// Raw script text, kept verbatim for the script host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    /// The text between the braces, exactly as written.
    pub text: String,
    /// The span of `text` alone (inside the braces), so positions in the script map to the file.
    pub span: Span,
}
