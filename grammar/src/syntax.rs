//! Parsing: pest grammar → generic AST, with recovery at top-level items.
//!
//! The whole file is parsed first. If that fails, the file is cut into regions at the lines
//! that start a top-level item (a line at column 0 reading `kind "name" {` or `kind {`), and
//! each region is parsed alone: one broken item costs only itself, and the errors of later
//! items are still found.

use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};

use crate::SourceFile;
use gloam_core::{Length, LengthUnit, TableError};

use crate::ast::{
    Document, Element, Entry, Field, Item, List, Measure, Pair, Script, Span, Spanned, Value,
};
use crate::diagnostic::{FileRef, GrammarDiagnostic};
use crate::scan::{self, MAX_DEPTH, Scan};

mod generated {
    #![allow(missing_docs, unreachable_pub)]
    //! The pest parser generated from `gloam.pest`.

    #[derive(pest_derive::Parser)]
    #[grammar = "gloam.pest"]
    pub(crate) struct GloamParser;
}

use generated::{GloamParser, Rule};

type PestPair<'i> = pest::iterators::Pair<'i, Rule>;

/// Parses one file into its generic syntax tree, reporting every syntax error found.
///
/// A syntax error costs only the top-level item it is in: parsing resumes at the next line
/// that starts an item at column 0. Numbers with a decimal point, numbers too large for 64
/// bits and unknown string escapes are reported here too.
///
/// # Examples
///
/// ```
/// use gloam_grammar::{parse, SourceFile};
/// let file = SourceFile::new("a.gloam", "card \"Sidestep\" { glory = 1 }");
/// let (document, diagnostics) = parse(&file);
/// assert!(diagnostics.is_empty());
/// assert_eq!(document.items[0].kind.value, "card");
/// ```
pub fn parse(source: &SourceFile) -> (Document, Vec<GrammarDiagnostic>) {
    let file = FileRef::new(&source.name, &source.text);
    let text: &str = &source.text;
    let mut builder = Builder {
        file,
        diagnostics: Vec::new(),
    };
    let whole = scan::scan(text);
    let mut items = Vec::new();
    let mut parsed = false;
    if whole.too_deep.is_none()
        && let Ok(mut pairs) = GloamParser::parse(Rule::file, text)
        && let Some(file_pair) = pairs.next()
    {
        for pair in file_pair.into_inner() {
            if pair.as_rule() == Rule::item
                && let Some(item) = builder.item(pair, 0, 1)
            {
                items.push(item);
            }
        }
        parsed = true;
    }
    if !parsed {
        items = builder.recover(text, &whole);
    }
    let document = Document {
        file: source.name.clone(),
        items,
    };
    (document, builder.diagnostics)
}

struct Builder {
    file: FileRef,
    diagnostics: Vec<GrammarDiagnostic>,
}

impl Builder {
    fn recover(&mut self, text: &str, whole: &Scan) -> Vec<Item> {
        let starts = scan::region_starts(text, &whole.comment_lines);
        let before = self.diagnostics.len();
        let mut items = Vec::new();
        for (index, &start) in starts.iter().enumerate() {
            let end = starts.get(index + 1).copied().unwrap_or(text.len());
            let slice = &text[start..end];
            let region = scan::scan(slice);
            if let Some(deep) = region.too_deep {
                self.too_deep(start + deep);
                continue;
            }
            match GloamParser::parse(Rule::file, slice) {
                Ok(mut pairs) => {
                    if let Some(file_pair) = pairs.next() {
                        for pair in file_pair.into_inner() {
                            if pair.as_rule() == Rule::item
                                && let Some(item) = self.item(pair, start, 1)
                            {
                                items.push(item);
                            }
                        }
                    }
                }
                Err(error) => self.syntax_error(&error, text, start, end, &region),
            }
        }
        if self.diagnostics.len() == before {
            // Every region parsed alone although the whole file did not: report the
            // whole-file error so that the failure is never silent.
            match GloamParser::parse(Rule::file, text) {
                Err(error) => self.syntax_error(&error, text, 0, text.len(), whole),
                Ok(_) => self.too_deep(whole.too_deep.unwrap_or(0)),
            }
        }
        items
    }

    fn too_deep(&mut self, at: usize) {
        self.diagnostics.push(GrammarDiagnostic::Syntax {
            message: format!("nesting deeper than {MAX_DEPTH} levels"),
            src: self.file.src(),
            span: self.file.span(Span::new(at, at + 1)),
            label: "too deep".to_string(),
            help: "items, lists and script blocks may nest at most 64 deep; is a closing brace missing?"
                .to_string(),
        });
    }

    fn span(pair: &PestPair<'_>, offset: usize) -> Span {
        let span = pair.as_span();
        Span::new(span.start(), span.end()).shifted(offset)
    }

    fn item(&mut self, pair: PestPair<'_>, offset: usize, depth: usize) -> Option<Item> {
        if depth > MAX_DEPTH {
            return None;
        }
        let span = Self::span(&pair, offset);
        let mut kind = None;
        let mut name = None;
        let mut entries = Vec::new();
        for child in pair.into_inner() {
            match child.as_rule() {
                Rule::ident => {
                    kind = Some(Spanned {
                        value: child.as_str().to_string(),
                        span: Self::span(&child, offset),
                    });
                }
                Rule::string => name = Some(self.string(child, offset)),
                Rule::field => {
                    if let Some(field) = self.field(child, offset, depth) {
                        entries.push(Entry::Field(field));
                    }
                }
                Rule::item => {
                    if let Some(item) = self.item(child, offset, depth + 1) {
                        entries.push(Entry::Item(item));
                    }
                }
                _ => {}
            }
        }
        Some(Item {
            kind: kind?,
            name,
            entries,
            span,
        })
    }

    fn field(&mut self, pair: PestPair<'_>, offset: usize, depth: usize) -> Option<Field> {
        let span = Self::span(&pair, offset);
        let mut key = None;
        let mut value = None;
        for child in pair.into_inner() {
            match child.as_rule() {
                Rule::ident if key.is_none() => {
                    key = Some(Spanned {
                        value: child.as_str().to_string(),
                        span: Self::span(&child, offset),
                    });
                }
                Rule::equals => {}
                _ => value = self.value(child, offset, depth + 1),
            }
        }
        Some(Field {
            key: key?,
            value: value?,
            span,
        })
    }

    fn value(&mut self, pair: PestPair<'_>, offset: usize, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        let span = Self::span(&pair, offset);
        match pair.as_rule() {
            Rule::string => Some(Value::String(self.string(pair, offset))),
            Rule::ident => Some(Value::Ident(Spanned {
                value: pair.as_str().to_string(),
                span,
            })),
            Rule::boolean => Some(Value::Bool(Spanned {
                value: pair.as_str() == "true",
                span,
            })),
            Rule::number => Some(self.number(pair.as_str(), span)),
            Rule::length => Some(self.length(pair.as_str(), span)),
            Rule::script => {
                let text = pair
                    .into_inner()
                    .find(|child| child.as_rule() == Rule::script_text)?;
                Some(Value::Script(Script {
                    text: text.as_str().to_string(),
                    span: Self::span(&text, offset),
                }))
            }
            Rule::list => {
                let mut elements = Vec::new();
                for child in pair.into_inner() {
                    match child.as_rule() {
                        Rule::open_bracket | Rule::close_bracket | Rule::comma => {}
                        Rule::pair => {
                            if let Some(pair) = self.pair(child, offset, depth) {
                                elements.push(Element::Pair(pair));
                            }
                        }
                        _ => {
                            if let Some(value) = self.value(child, offset, depth + 1) {
                                elements.push(Element::Value(value));
                            }
                        }
                    }
                }
                Some(Value::List(List { elements, span }))
            }
            _ => None,
        }
    }

    fn pair(&mut self, pair: PestPair<'_>, offset: usize, depth: usize) -> Option<Pair> {
        let span = Self::span(&pair, offset);
        let mut key = None;
        let mut key_is_string = false;
        let mut value = None;
        for child in pair.into_inner() {
            match child.as_rule() {
                Rule::colon => {}
                Rule::ident if key.is_none() => {
                    key = Some(Spanned {
                        value: child.as_str().to_string(),
                        span: Self::span(&child, offset),
                    });
                }
                Rule::string if key.is_none() => {
                    key = Some(self.string(child, offset));
                    key_is_string = true;
                }
                _ => value = self.value(child, offset, depth + 1),
            }
        }
        Some(Pair {
            key: key?,
            key_is_string,
            value: value?,
            span,
        })
    }

    fn string(&mut self, pair: PestPair<'_>, offset: usize) -> Spanned<String> {
        let span = Self::span(&pair, offset);
        let (raw, raw_start) = match pair
            .into_inner()
            .find(|child| child.as_rule() == Rule::string_text)
        {
            Some(text) => (text.as_str(), text.as_span().start() + offset),
            None => ("", span.start + 1),
        };
        let value = self.decode(raw, raw_start);
        Spanned { value, span }
    }

    /// Replaces escapes; reports unknown ones (keeping their text as written).
    fn decode(&mut self, raw: &str, raw_start: usize) -> String {
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.char_indices().peekable();
        while let Some((index, c)) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some((_, escape)) = chars.next() else {
                out.push('\\');
                break;
            };
            match escape {
                '"' => out.push('"'),
                '\\' => out.push('\\'),
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'u' => {
                    // \u{XXXX}: 1 to 6 hex digits naming a Unicode scalar value.
                    let rest = &raw[index + 2..];
                    let decoded = rest.strip_prefix('{').and_then(|inner| {
                        let close = inner.find('}')?;
                        let digits = &inner[..close];
                        if digits.is_empty() || digits.len() > 6 {
                            return None;
                        }
                        let code = u32::from_str_radix(digits, 16).ok()?;
                        Some((char::from_u32(code)?, close + 2))
                    });
                    match decoded {
                        Some((decoded, used)) => {
                            out.push(decoded);
                            // Skip `{digits}`: all ASCII, one char per byte.
                            for _ in 0..used {
                                chars.next();
                            }
                        }
                        None => {
                            let end = rest.find('}').map_or(index + 2, |close| index + 3 + close);
                            let end = end.min(raw.len());
                            self.bad_escape(&raw[index..end], raw_start + index);
                            out.push_str("\\u");
                        }
                    }
                }
                other => {
                    let end = index + 1 + other.len_utf8();
                    self.bad_escape(&raw[index..end], raw_start + index);
                    out.push('\\');
                    out.push(other);
                }
            }
        }
        out
    }

    fn bad_escape(&mut self, escape: &str, at: usize) {
        self.diagnostics.push(GrammarDiagnostic::BadEscape {
            escape: escape.to_string(),
            src: self.file.src(),
            span: self.file.span(Span::new(at, at + escape.len())),
            help: "strings know `\\\"`, `\\\\`, `\\n`, `\\t` and `\\u{...}` (1 to 6 hex digits)"
                .to_string(),
        });
    }

    /// A length token: digits, an optional fraction, and a unit (`in`, `cm` or `mm`) with no
    /// space. Anything else after the digits is reported with the form to write.
    fn length(&mut self, text: &str, span: Span) -> Value {
        let digits: String = text.chars().filter(|c| *c != '_').collect();
        let split = digits
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .unwrap_or(digits.len());
        let (number, unit) = digits.split_at(split);
        let mut fail = |message: String, label: &str, help: String| {
            self.diagnostics.push(GrammarDiagnostic::BadLength {
                message,
                src: self.file.src(),
                span: self.file.span(span),
                label: label.to_string(),
                help,
            });
            Value::Invalid(Spanned {
                value: text.to_string(),
                span,
            })
        };
        let unit = match unit {
            "in" => LengthUnit::Inch,
            "cm" => LengthUnit::Cm,
            "mm" => LengthUnit::Mm,
            "\"" => {
                return fail(
                    format!("`{text}`: write inches as `{number}in`"),
                    "`\"` opens a string",
                    format!("a length is a number and its unit, `in`, `cm` or `mm`: `{number}in`"),
                );
            }
            other => {
                let help = match unit_meant(other) {
                    Some(best) => format!("did you mean `{number}{best}`? lengths are in `in`, `cm` or `mm`"),
                    None if other.starts_with('d') => "dice are not lengths; a length is a number and its unit, `in`, `cm` or `mm` (`3in`)".to_string(),
                    None => "a length is a number and its unit, `in`, `cm` or `mm` (`3in`)".to_string(),
                };
                return fail(
                    format!("unknown length unit `{other}` in `{text}`"),
                    "not a unit",
                    help,
                );
            }
        };
        match Length::parse(number, unit) {
            Ok(length) => Value::Length(Spanned {
                value: Measure::new(length, unit),
                span,
            }),
            Err(TableError::TooPrecise { .. }) => fail(
                format!("`{text}` is not a whole number of tenths of a millimetre"),
                "too precise",
                format!(
                    "lengths are exact to a tenth of a millimetre; one {} is {} tenths: write fewer decimals (`0.5in` is exact, `0.1in` is not)",
                    unit.suffix(),
                    unit.tenths()
                ),
            ),
            Err(TableError::LengthOutOfRange { .. }) => fail(
                format!("length `{text}` is out of range"),
                "too long",
                "a table is at most 100 m across: write a shorter length".to_string(),
            ),
            Err(_) => fail(
                format!("`{text}` is not a length"),
                "not a length",
                "write digits, optionally `.` and digits, then `in`, `cm` or `mm`: `3in`, `0.5in`, `12cm`".to_string(),
            ),
        }
    }

    fn number(&mut self, text: &str, span: Span) -> Value {
        let digits: String = text.chars().filter(|c| *c != '_').collect();
        if let Some((whole, fraction)) = digits.split_once('.') {
            self.diagnostics.push(GrammarDiagnostic::DecimalNumber {
                text: text.to_string(),
                src: self.file.src(),
                span: self.file.span(span),
                help: decimal_help(whole, fraction),
            });
            return Value::Invalid(Spanned {
                value: text.to_string(),
                span,
            });
        }
        match digits.parse::<i64>() {
            Ok(value) => Value::Int(Spanned { value, span }),
            Err(_) => {
                self.diagnostics.push(GrammarDiagnostic::NumberTooLarge {
                    text: text.to_string(),
                    src: self.file.src(),
                    span: self.file.span(span),
                    help: format!("numbers run from {} to {}", i64::MIN, i64::MAX),
                });
                Value::Invalid(Spanned {
                    value: text.to_string(),
                    span,
                })
            }
        }
    }

    /// Turns a pest error in the region `start..end` of `text` into a diagnostic.
    fn syntax_error(
        &mut self,
        error: &pest::error::Error<Rule>,
        text: &str,
        start: usize,
        end: usize,
        region: &Scan,
    ) {
        let slice = &text[start..end];
        let local = match error.location {
            InputLocation::Pos(pos) => pos,
            InputLocation::Span((pos, _)) => pos,
        }
        .min(slice.len());
        let at = start + local;
        let positives: Vec<Rule> = match &error.variant {
            ErrorVariant::ParsingError { positives, .. } => positives.clone(),
            ErrorVariant::CustomError { .. } => {
                // pest's own call or stack limit.
                self.too_deep(at);
                return;
            }
        };
        let at_end = only_trivia(&slice[local..]);

        if let Some(quote) = region.unclosed_string
            && local >= quote
        {
            self.syntax(
                "unterminated string",
                Span::new(start + quote, start + quote + 1),
                "this string is never closed",
                "close the string with `\"`; inside a string write `\\\"` for a quote",
            );
            return;
        }
        if let Some(comment) = region.unclosed_comment
            && local >= comment
        {
            self.syntax(
                "unterminated block comment",
                Span::new(start + comment, start + comment + 2),
                "this comment is never closed",
                "close the comment with `*/`",
            );
            return;
        }
        if at_end && let Some(&(open, byte)) = region.unclosed.last() {
            let (message, label, help) = if byte == b'[' {
                (
                    "unclosed `[`",
                    "this `[` has no matching `]`",
                    "close the list with `]`",
                )
            } else {
                (
                    "unclosed `{`",
                    "this `{` has no matching `}`",
                    "every `{` needs a matching `}` before the next top-level item",
                )
            };
            self.syntax(
                message,
                Span::new(start + open, start + open + 1),
                label,
                help,
            );
            return;
        }

        let expected = describe_expected(&positives);
        let (found, found_span) = describe_found(text, at);
        let message = format!("expected {expected}, found {found}");
        let help = if found == "`:`" && positives.contains(&Rule::equals) {
            "fields are written `name = value`; `:` is for `key: value` pairs inside lists"
                .to_string()
        } else {
            help_for(&positives)
        };
        self.syntax(&message, found_span, &format!("expected {expected}"), &help);
    }

    fn syntax(&mut self, message: &str, span: Span, label: &str, help: &str) {
        self.diagnostics.push(GrammarDiagnostic::Syntax {
            message: message.to_string(),
            src: self.file.src(),
            span: self.file.span(span),
            label: label.to_string(),
            help: help.to_string(),
        });
    }
}

/// The unit `in`, `cm` or `mm` that a misspelt or spelt-out unit means (`inch`, `inches`,
/// `cms`, `millimetres`, `nm`), if one is close.
pub(crate) fn unit_meant(written: &str) -> Option<&'static str> {
    ["in", "cm", "mm"]
        .into_iter()
        .find(|unit| {
            written.starts_with(unit)
                || (written.starts_with("centi") && *unit == "cm")
                || (written.starts_with("milli") && *unit == "mm")
        })
        .or_else(|| crate::suggest::closest(written, ["in", "cm", "mm"]))
}

/// "rules are integer: write 1 or 2" for `1.5`.
fn decimal_help(whole: &str, fraction: &str) -> String {
    let negative = whole.starts_with('-');
    let Ok(truncated) = whole.parse::<i64>() else {
        return "rules are integer: write a whole number".to_string();
    };
    if fraction.chars().all(|c| c == '0') {
        return format!("rules are integer: write {truncated}");
    }
    let (low, high) = if negative {
        (truncated.checked_sub(1), Some(truncated))
    } else {
        (Some(truncated), truncated.checked_add(1))
    };
    match (low, high) {
        (Some(low), Some(high)) => format!("rules are integer: write {low} or {high}"),
        _ => "rules are integer: write a whole number".to_string(),
    }
}

/// Whether `text` holds only whitespace and comments.
fn only_trivia(text: &str) -> bool {
    let mut rest = text.trim_start();
    loop {
        if rest.is_empty() {
            return true;
        }
        if let Some(after) = rest.strip_prefix("//") {
            rest = after
                .split_once('\n')
                .map_or("", |(_, tail)| tail)
                .trim_start();
        } else if let Some(after) = rest.strip_prefix("/*") {
            match after.split_once("*/") {
                Some((_, tail)) => rest = tail.trim_start(),
                None => return true,
            }
        } else {
            return false;
        }
    }
}

fn rule_words(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::item | Rule::file => "an item",
        Rule::field => "a field",
        Rule::ident => "a name",
        Rule::string => "a string",
        Rule::number => "a number",
        Rule::length => "a length",
        Rule::boolean => "`true` or `false`",
        Rule::list => "a list",
        Rule::script => "a script",
        Rule::pair => "a `key: value` pair",
        Rule::open_brace => "`{`",
        Rule::close_brace | Rule::script_end => "`}`",
        Rule::open_bracket => "`[`",
        Rule::close_bracket => "`]`",
        Rule::equals => "`=`",
        Rule::comma => "`,`",
        Rule::colon => "`:`",
        Rule::string_end => "`\"`",
        Rule::EOI => "the end of the file",
        _ => return None,
    })
}

/// The rules a value can start with; reported together as "a value".
const VALUE_RULES: [Rule; 9] = [
    Rule::script,
    Rule::list,
    Rule::string,
    Rule::length,
    Rule::number,
    Rule::boolean,
    Rule::ident,
    Rule::open_brace,
    Rule::open_bracket,
];

fn is_value_set(positives: &[Rule]) -> bool {
    [Rule::string, Rule::number, Rule::boolean, Rule::ident]
        .iter()
        .all(|rule| positives.contains(rule))
}

/// "`=`, `{` or a string".
fn describe_expected(positives: &[Rule]) -> String {
    let mut words: Vec<&str> = Vec::new();
    if positives.contains(&Rule::EOI) {
        return "an item or the end of the file".to_string();
    }
    if positives.contains(&Rule::close_brace) && positives.contains(&Rule::ident) {
        return "a field, a nested item or `}`".to_string();
    }
    let value_set = is_value_set(positives);
    if value_set {
        words.push("a value");
    }
    for rule in positives {
        if value_set && VALUE_RULES.contains(rule) {
            continue;
        }
        if let Some(word) = rule_words(*rule)
            && !words.contains(&word)
        {
            words.push(word);
        }
    }
    match words.as_slice() {
        [] => "something else".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The token found at `at`, in words, and its span.
fn describe_found(text: &str, at: usize) -> (String, Span) {
    let rest = &text[at.min(text.len())..];
    let Some(first) = rest.chars().next() else {
        return (
            "the end of the file".to_string(),
            Span::new(text.len(), text.len()),
        );
    };
    if first.is_ascii_alphanumeric() || first == '_' {
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        return (format!("`{}`", &rest[..len]), Span::new(at, at + len));
    }
    let described = match first {
        '"' => "a string".to_string(),
        '\n' | '\r' => "the end of the line".to_string(),
        c if c.is_whitespace() => "a space".to_string(),
        c if c.is_control() => format!("the control character U+{:04X}", u32::from(c)),
        c => format!("`{c}`"),
    };
    (described, Span::new(at, at + first.len_utf8()))
}

fn help_for(positives: &[Rule]) -> String {
    if positives.contains(&Rule::string_end) {
        return "close the string with `\"`".to_string();
    }
    if positives.contains(&Rule::equals) || positives.contains(&Rule::open_brace) {
        return "write a field as `name = value` and a nested item as `kind \"name\" { ... }`"
            .to_string();
    }
    if positives.contains(&Rule::comma) || positives.contains(&Rule::close_bracket) {
        return "separate list elements with `,` and end the list with `]`".to_string();
    }
    if is_value_set(positives) {
        return "a value is a string \"...\", a whole number, `true` or `false`, a name, a list `[...]` or a script `{ ... }`"
            .to_string();
    }
    if positives.contains(&Rule::EOI) || positives.contains(&Rule::file) {
        return "a file is a sequence of items such as `card \"Sidestep\" { ... }`".to_string();
    }
    if positives.contains(&Rule::close_brace) {
        return "an item holds fields (`name = value`) and nested items, then a closing brace"
            .to_string();
    }
    "see the format reference for what may be written here".to_string()
}
