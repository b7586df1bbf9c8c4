//! A light reader of card scripts: tokens, calls, bindings, loops and comparisons.
//!
//! Card scripts are small and written in a few idioms (`for f in friendly_fighters()`,
//! `let victim = choose_fighter(targets, ...)`, `modify(f, "move", 2, "after_activation")`).
//! This reader finds those idioms in the script's source, keeping every token's byte offset
//! in the card file so that a mismatch points at the script line. It does not evaluate
//! anything; it is not a Rhai parser (the scripts were already compiled and checked).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

/// What a script token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Int,
    Str,
    Op,
}

/// A script token: its kind, its text (a string's content without quotes), and its byte
/// range in the card file.
#[derive(Clone, Debug)]
pub(crate) struct Tok {
    pub(crate) kind: Kind,
    pub(crate) text: String,
    pub(crate) span: Range<usize>,
}

/// A call `name(args)`.
#[derive(Clone, Debug)]
pub(crate) struct Call {
    /// The token index of the name.
    pub(crate) at: usize,
    /// Whether it is a method (`.len()`).
    pub(crate) method: bool,
    /// Token ranges of the arguments.
    pub(crate) args: Vec<Range<usize>>,
}

/// A comparison `left OP right` where one side is an integer literal.
#[derive(Clone, Debug)]
pub(crate) struct Comparison {
    /// The operand that is not the literal (token range).
    pub(crate) operand: Range<usize>,
    /// The operator, turned so that the operand is on the left.
    pub(crate) op: String,
    /// The literal.
    pub(crate) value: i64,
    /// The token index of the literal.
    pub(crate) at: usize,
}

/// A read script.
#[derive(Clone, Debug)]
pub(crate) struct ScriptScan {
    pub(crate) toks: Vec<Tok>,
    /// Names bound by `let`, assignments, `for` and `fn`, to the token ranges of what they
    /// are bound to.
    bindings: BTreeMap<String, Vec<Range<usize>>>,
    /// `for _ in 0..N { body }`: body token ranges and N.
    loops: Vec<(Range<usize>, i64)>,
}

fn tokenize(text: &str, base: usize) -> Vec<Tok> {
    let bytes = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            toks.push(Tok {
                kind: Kind::Ident,
                text: text[start..i].to_owned(),
                span: base + start..base + i,
            });
        } else if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'_') {
                i += 1;
            }
            toks.push(Tok {
                kind: Kind::Int,
                text: text[start..i].replace('_', ""),
                span: base + start..base + i,
            });
        } else if c == b'"' || c == b'`' {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            let end = i.min(bytes.len());
            toks.push(Tok {
                kind: Kind::Str,
                text: text.get(start + 1..end).unwrap_or_default().to_owned(),
                span: base + start..base + (end + 1).min(bytes.len()),
            });
            i = end + 1;
        } else {
            let two = text.get(i..i + 2).unwrap_or_default();
            let len = if matches!(
                two,
                ">=" | "<=" | "==" | "!=" | "&&" | "||" | ".." | "+=" | "-="
            ) {
                2
            } else {
                // One byte, or one whole character outside ASCII.
                text[i..].chars().next().map_or(1, char::len_utf8)
            };
            toks.push(Tok {
                kind: Kind::Op,
                text: text[i..i + len].to_owned(),
                span: base + i..base + i + len,
            });
            i += len;
        }
    }
    toks
}

impl ScriptScan {
    /// Reads `text`, which starts at byte `base` of its file.
    pub(crate) fn new(text: &str, base: usize) -> ScriptScan {
        let toks = tokenize(text, base);
        let mut scan = ScriptScan {
            toks,
            bindings: BTreeMap::new(),
            loops: Vec::new(),
        };
        scan.find_bindings();
        scan
    }

    fn t(&self, index: usize) -> &str {
        self.toks.get(index).map_or("", |t| t.text.as_str())
    }

    fn is_op(&self, index: usize, op: &str) -> bool {
        self.toks
            .get(index)
            .is_some_and(|t| t.kind == Kind::Op && t.text == op)
    }

    /// The index of the bracket that closes the one at `open`.
    fn matching(&self, open: usize) -> usize {
        let (o, c) = match self.t(open) {
            "(" => ("(", ")"),
            "[" => ("[", "]"),
            _ => ("{", "}"),
        };
        let mut depth = 0usize;
        for index in open..self.toks.len() {
            if self.is_op(index, o) {
                depth += 1;
            } else if self.is_op(index, c) {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return index;
                }
            }
        }
        self.toks.len()
    }

    /// The end of the statement that starts at `start`: the `;` at depth 0, or the close of
    /// the enclosing block.
    fn statement_end(&self, start: usize) -> usize {
        let mut index = start;
        while index < self.toks.len() {
            if self.is_op(index, "(") || self.is_op(index, "[") || self.is_op(index, "{") {
                index = self.matching(index) + 1;
                continue;
            }
            if self.is_op(index, ";") || self.is_op(index, "}") || self.is_op(index, ")") {
                return index;
            }
            index += 1;
        }
        index
    }

    fn find_bindings(&mut self) {
        let mut index = 0;
        let mut bindings: BTreeMap<String, Vec<Range<usize>>> = BTreeMap::new();
        let mut loops = Vec::new();
        while index < self.toks.len() {
            let word = self.t(index).to_owned();
            if word == "let" && self.is_op(index + 2, "=") {
                let end = self.statement_end(index + 3);
                bindings
                    .entry(self.t(index + 1).to_owned())
                    .or_default()
                    .push(index + 3..end);
            } else if self.toks[index].kind == Kind::Ident
                && (self.is_op(index + 1, "=") || self.is_op(index + 1, "+="))
                && !self.is_op(index.wrapping_sub(1), ".")
                && self.t(index.wrapping_sub(1)) != "let"
            {
                let end = self.statement_end(index + 2);
                bindings
                    .entry(word.clone())
                    .or_default()
                    .push(index + 2..end);
            } else if word == "for" && self.t(index + 2) == "in" {
                let start = index + 3;
                let mut open = start;
                while open < self.toks.len() && !self.is_op(open, "{") {
                    if self.is_op(open, "(") {
                        open = self.matching(open);
                    }
                    open += 1;
                }
                bindings
                    .entry(self.t(index + 1).to_owned())
                    .or_default()
                    .push(start..open);
                let close = self.matching(open);
                if open == start + 3
                    && self.t(start) == "0"
                    && self.is_op(start + 1, "..")
                    && let Ok(n) = self.t(start + 2).parse::<i64>()
                {
                    loops.push((open..close, n));
                }
            } else if word == "fn" && self.is_op(index + 2, "(") {
                let close = self.matching(index + 2);
                let body_close = self.matching(close + 1);
                bindings
                    .entry(self.t(index + 1).to_owned())
                    .or_default()
                    .push(close + 1..body_close);
            }
            index += 1;
        }
        self.bindings = bindings;
        self.loops = loops;
    }

    /// Every call, in order.
    pub(crate) fn calls(&self) -> Vec<Call> {
        let mut calls = Vec::new();
        for index in 0..self.toks.len() {
            if self.toks[index].kind != Kind::Ident || !self.is_op(index + 1, "(") {
                continue;
            }
            if matches!(
                self.t(index),
                "if" | "while" | "for" | "fn" | "in" | "return"
            ) {
                continue;
            }
            let close = self.matching(index + 1);
            let mut args = Vec::new();
            let mut start = index + 2;
            let mut at = start;
            while at < close {
                if self.is_op(at, "(") || self.is_op(at, "[") || self.is_op(at, "{") {
                    at = self.matching(at) + 1;
                    continue;
                }
                if self.is_op(at, "|") {
                    // A closure's parameters: |a, b|.
                    at += 1;
                    while at < close && !self.is_op(at, "|") {
                        at += 1;
                    }
                    at += 1;
                    continue;
                }
                if self.is_op(at, ",") {
                    args.push(start..at);
                    start = at + 1;
                }
                at += 1;
            }
            if start < close {
                args.push(start..close);
            }
            calls.push(Call {
                at: index,
                method: self.is_op(index.wrapping_sub(1), "."),
                args,
            });
        }
        calls
    }

    /// The name of a call.
    pub(crate) fn name(&self, call: &Call) -> &str {
        self.t(call.at)
    }

    /// The string literal an argument is, if it is one.
    pub(crate) fn string(&self, range: &Range<usize>) -> Option<&str> {
        let tok = self.toks.get(range.start)?;
        (range.len() == 1 && tok.kind == Kind::Str).then_some(tok.text.as_str())
    }

    /// The integer literal an argument is (`2`, `-1`), if it is one.
    pub(crate) fn int(&self, range: &Range<usize>) -> Option<i64> {
        match range.len() {
            1 if self.toks.get(range.start)?.kind == Kind::Int => self.t(range.start).parse().ok(),
            2 if self.is_op(range.start, "-")
                && self.toks.get(range.start + 1)?.kind == Kind::Int =>
            {
                self.t(range.start + 1).parse::<i64>().ok().map(|n| -n)
            }
            _ => None,
        }
    }

    /// The byte span in the file of a token range.
    pub(crate) fn span(&self, range: &Range<usize>) -> Range<usize> {
        let start = self.toks.get(range.start).map_or(0, |t| t.span.start);
        let end = self
            .toks
            .get(range.end.saturating_sub(1).max(range.start))
            .map_or(start, |t| t.span.end);
        start..end
    }

    /// The byte span of a call, name to closing parenthesis.
    pub(crate) fn call_span(&self, call: &Call) -> Range<usize> {
        let close = self.matching(call.at + 1);
        self.span(&(call.at..close + 1))
    }

    /// The count of the `for _ in 0..N` loop around token `index`, or 1.
    pub(crate) fn repeat(&self, index: usize) -> i64 {
        self.loops
            .iter()
            .filter(|(body, _)| body.contains(&index))
            .map(|(_, n)| *n)
            .product()
    }

    /// The tokens of `range` and, depth first, of what each name in it is bound to: the
    /// expression an effect's argument comes from.
    pub(crate) fn chain(&self, range: &Range<usize>) -> Vec<usize> {
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        self.chain_into(range, &mut out, &mut seen, 0);
        out
    }

    fn chain_into(
        &self,
        range: &Range<usize>,
        out: &mut Vec<usize>,
        seen: &mut BTreeSet<String>,
        depth: usize,
    ) {
        for index in range.clone() {
            out.push(index);
            let tok = &self.toks[index];
            if depth < 8
                && tok.kind == Kind::Ident
                && !self.is_op(index.wrapping_sub(1), ".")
                && let Some(bound) = self.bindings.get(&tok.text)
                && seen.insert(tok.text.clone())
            {
                // The binding in force here: the nearest one before the use (a name bound
                // by two loops is two variables); a name bound only later (a function
                // defined below its use) by all of them.
                let nearest = bound
                    .iter()
                    .filter(|b| b.start <= index)
                    .max_by_key(|b| b.start);
                match nearest {
                    Some(binding) => self.chain_into(binding, out, seen, depth + 1),
                    None => {
                        for binding in bound {
                            self.chain_into(binding, out, seen, depth + 1);
                        }
                    }
                }
                seen.remove(&tok.text);
            }
        }
    }

    /// The text of token `index`.
    pub(crate) fn text(&self, index: usize) -> &str {
        self.t(index)
    }

    /// Whether token `index` is an identifier followed by `(` (a call).
    pub(crate) fn is_call(&self, index: usize) -> bool {
        self.toks.get(index).is_some_and(|t| t.kind == Kind::Ident) && self.is_op(index + 1, "(")
    }

    /// Every comparison with an integer literal on one side.
    pub(crate) fn comparisons(&self) -> Vec<Comparison> {
        let mut out = Vec::new();
        for index in 0..self.toks.len() {
            let tok = &self.toks[index];
            if tok.kind != Kind::Op
                || !matches!(tok.text.as_str(), ">=" | "<=" | "==" | "!=" | "<" | ">")
            {
                continue;
            }
            let op = tok.text.clone();
            let left = self.operand_before(index);
            let right = self.operand_after(index);
            if let Some(value) = self.int(&right) {
                out.push(Comparison {
                    operand: left,
                    op,
                    value,
                    at: right.start,
                });
            } else if let Some(value) = self.int(&left) {
                let flipped = match op.as_str() {
                    ">=" => "<=",
                    "<=" => ">=",
                    ">" => "<",
                    "<" => ">",
                    other => other,
                }
                .to_owned();
                out.push(Comparison {
                    operand: right,
                    op: flipped,
                    value,
                    at: left.start,
                });
            }
        }
        out
    }

    fn stops(&self, index: usize) -> bool {
        let tok = &self.toks[index];
        match tok.kind {
            Kind::Op => matches!(
                tok.text.as_str(),
                "," | "&&"
                    | "||"
                    | "{"
                    | "}"
                    | ";"
                    | "="
                    | "|"
                    | ">="
                    | "<="
                    | "=="
                    | "!="
                    | "<"
                    | ">"
                    | "("
                    | "["
            ),
            Kind::Ident => matches!(tok.text.as_str(), "let" | "if" | "return" | "while" | "in"),
            _ => false,
        }
    }

    pub(crate) fn operand_before(&self, op: usize) -> Range<usize> {
        let mut start = op;
        while start > 0 {
            let previous = start - 1;
            if self.is_op(previous, ")") || self.is_op(previous, "]") {
                // Jump back to the matching opener.
                let (o, c) = if self.is_op(previous, ")") {
                    ("(", ")")
                } else {
                    ("[", "]")
                };
                let mut depth = 0usize;
                let mut at = previous;
                loop {
                    if self.is_op(at, c) {
                        depth += 1;
                    } else if self.is_op(at, o) {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    if at == 0 {
                        break;
                    }
                    at -= 1;
                }
                start = at;
                continue;
            }
            if self.stops(previous) {
                break;
            }
            start = previous;
        }
        start..op
    }

    pub(crate) fn operand_after(&self, op: usize) -> Range<usize> {
        let mut end = op + 1;
        if self.is_op(end, "-") {
            end += 1;
        }
        while end < self.toks.len() {
            if self.is_op(end, "(") || self.is_op(end, "[") {
                end = self.matching(end) + 1;
                continue;
            }
            if self.stops(end) || self.is_op(end, ")") || self.is_op(end, "]") {
                break;
            }
            end += 1;
        }
        op + 1..end
    }

    /// Whether any token of `range` has the text `word`.
    pub(crate) fn mentions(&self, range: &Range<usize>, word: &str) -> bool {
        range.clone().any(|index| self.t(index) == word)
    }

    /// Whether token `index` is inside the body of a `for` or `while` loop.
    pub(crate) fn in_loop(&self, index: usize) -> bool {
        (0..index).any(|start| {
            if !matches!(self.t(start), "for" | "while") || self.toks[start].kind != Kind::Ident {
                return false;
            }
            let mut open = start + 1;
            while open < index && !self.is_op(open, "{") {
                if self.is_op(open, "(") {
                    open = self.matching(open);
                }
                open += 1;
            }
            open < index && self.matching(open) > index
        })
    }

    /// Every integer literal in the script.
    pub(crate) fn literals(&self) -> Vec<(i64, usize)> {
        self.toks
            .iter()
            .enumerate()
            .filter(|(_, t)| t.kind == Kind::Int)
            .filter_map(|(index, t)| t.text.parse().ok().map(|n| (n, index)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::ScriptScan;

    #[test]
    fn scan_comparison_literal_and_operand_found() {
        let scan = ScriptScan::new(
            "friendly_fighters().filter(|f| damage(f) >= 2).len() > 0",
            0,
        );
        let comparisons = scan.comparisons();
        assert_eq!(comparisons.len(), 2);
        assert_eq!(comparisons[0].value, 2);
        assert_eq!(comparisons[0].op, ">=");
        assert!(scan.mentions(&comparisons[0].operand, "damage"));
        assert_eq!(comparisons[1].value, 0);
    }

    #[test]
    fn scan_chain_follows_bindings() {
        let scan = ScriptScan::new(
            "let targets = enemy_fighters(); let victim = choose_fighter(targets, \"x\"); push(victim, 1);",
            0,
        );
        let calls = scan.calls();
        let push = calls.iter().find(|c| scan.name(c) == "push").unwrap();
        let chain = scan.chain(&push.args[0]);
        assert!(chain.iter().any(|&i| scan.text(i) == "enemy_fighters"));
        assert_eq!(scan.int(&push.args[1]), Some(1));
    }

    #[test]
    fn scan_loop_count_read() {
        let scan = ScriptScan::new("for i in 0..2 { move_card(x, \"power_discard\"); }", 0);
        let calls = scan.calls();
        let call = calls.iter().find(|c| scan.name(c) == "move_card").unwrap();
        assert_eq!(scan.repeat(call.at), 2);
    }
}
