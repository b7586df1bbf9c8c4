//! A small lexical scanner that follows the grammar's tokens (strings, comments, braces,
//! scripts) without building anything. The parser uses it to recover from syntax errors:
//! to find where top-level items start, to name the brace or quote left open, and to refuse
//! nesting deep enough to exhaust the stack.

/// How deeply braces and brackets may nest (items, lists and script blocks together).
pub(crate) const MAX_DEPTH: usize = 64;

/// Words that start Rhai blocks (`else {`): a line starting with one of them is script text,
/// never the start of a top-level item.
const SCRIPT_BLOCK_WORDS: &[&str] = &[
    "else", "loop", "do", "try", "catch", "fn", "while", "for", "if",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Open {
    /// `{` of an item or `[` of a list.
    Data(u8),
    /// `{` of a script or of a block inside a script.
    Script,
}

/// What the scanner found.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// Openers never closed, outermost first: (offset, the byte `{` or `[`).
    pub(crate) unclosed: Vec<(usize, u8)>,
    /// The opening quote of a string never closed.
    pub(crate) unclosed_string: Option<usize>,
    /// The start of a block comment never closed.
    pub(crate) unclosed_comment: Option<usize>,
    /// The first opener nested deeper than [`MAX_DEPTH`].
    pub(crate) too_deep: Option<usize>,
    /// Offsets of line starts that fall inside block comments.
    pub(crate) comment_lines: Vec<usize>,
}

fn skip_to_line_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i] != b'\n' {
        i += 1;
    }
    i
}

/// Skips a block comment starting at `i` (at `/*`); returns the offset after `*/`, or None.
fn skip_block_comment(bytes: &[u8], i: usize, lines: &mut Vec<usize>) -> Option<usize> {
    let mut j = i + 2;
    while j < bytes.len() {
        if bytes[j] == b'*' && bytes.get(j + 1) == Some(&b'/') {
            return Some(j + 2);
        }
        if bytes[j] == b'\n' {
            lines.push(j + 1);
        }
        j += 1;
    }
    None
}

/// Skips a quoted literal starting at `i` (at `quote`), with backslash escapes when
/// `escapes`; returns the offset after the closing quote, or None.
fn skip_quoted(bytes: &[u8], i: usize, quote: u8, escapes: bool) -> Option<usize> {
    let mut j = i + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' if escapes => j += 2,
            byte if byte == quote => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// Scans `text` as the grammar would tokenize it.
pub(crate) fn scan(text: &str) -> Scan {
    let bytes = text.as_bytes();
    let mut result = Scan::default();
    let mut stack: Vec<(usize, Open)> = Vec::new();
    // The last significant byte outside scripts: `{` after `=` opens a script.
    let mut last_significant = 0u8;
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        let in_script = matches!(stack.last(), Some((_, Open::Script)));
        match byte {
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = skip_to_line_end(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                match skip_block_comment(bytes, i, &mut result.comment_lines) {
                    Some(end) => i = end,
                    None => {
                        result.unclosed_comment = Some(i);
                        break;
                    }
                }
            }
            b'"' => match skip_quoted(bytes, i, b'"', true) {
                Some(end) => {
                    i = end;
                    last_significant = b'"';
                }
                None => {
                    result.unclosed_string = Some(i);
                    break;
                }
            },
            b'`' if in_script => match skip_quoted(bytes, i, b'`', false) {
                Some(end) => i = end,
                None => {
                    result.unclosed_string = Some(i);
                    break;
                }
            },
            b'\'' if in_script => {
                // A character literal if it closes on this line; otherwise a plain byte.
                let mut j = i + 1;
                let mut end = None;
                while j < bytes.len() && bytes[j] != b'\n' {
                    if bytes[j] == b'\\' {
                        j += 2;
                        continue;
                    }
                    if bytes[j] == b'\'' {
                        end = Some(j + 1);
                        break;
                    }
                    j += 1;
                }
                i = end.unwrap_or(i + 1);
            }
            b'{' | b'[' => {
                let open = if in_script || (byte == b'{' && last_significant == b'=') {
                    Open::Script
                } else {
                    Open::Data(byte)
                };
                // A `[` inside a script is script text; only `{` nests there.
                if !(in_script && byte == b'[') {
                    stack.push((i, open));
                    if stack.len() > MAX_DEPTH && result.too_deep.is_none() {
                        result.too_deep = Some(i);
                    }
                }
                last_significant = byte;
                i += 1;
            }
            b'}' | b']' => {
                match stack.last() {
                    Some((_, Open::Script)) if byte == b'}' => {
                        stack.pop();
                    }
                    Some((_, Open::Data(open)))
                        if (*open == b'{' && byte == b'}') || (*open == b'[' && byte == b']') =>
                    {
                        stack.pop();
                    }
                    _ => {}
                }
                last_significant = byte;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            _ => {
                if !in_script {
                    last_significant = byte;
                }
                i += 1;
            }
        }
    }
    result.unclosed = stack
        .into_iter()
        .map(|(offset, open)| match open {
            Open::Data(byte) => (offset, byte),
            Open::Script => (offset, b'{'),
        })
        .collect();
    result
}

/// Whether the line starting at `start` looks like the header of a top-level item:
/// at column 0, `kind "name" {` or `kind {`, all on one line.
fn is_item_header(text: &str, start: usize) -> bool {
    let bytes = text.as_bytes();
    let mut i = start;
    if !bytes
        .get(i)
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        return false;
    }
    while bytes
        .get(i)
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
    {
        i += 1;
    }
    if SCRIPT_BLOCK_WORDS.contains(&&text[start..i]) {
        return false;
    }
    while bytes.get(i).is_some_and(|b| *b == b' ' || *b == b'\t') {
        i += 1;
    }
    if bytes.get(i) == Some(&b'"') {
        i += 1;
        loop {
            match bytes.get(i) {
                None | Some(b'\n') => return false,
                Some(b'\\') => i += 2,
                Some(b'"') => {
                    i += 1;
                    break;
                }
                Some(_) => i += 1,
            }
        }
        while bytes.get(i).is_some_and(|b| *b == b' ' || *b == b'\t') {
            i += 1;
        }
    }
    bytes.get(i) == Some(&b'{')
}

/// The offsets where top-level items start, for error recovery: lines at column 0 that
/// look like an item header and are not inside a block comment. Always starts with 0.
pub(crate) fn region_starts(text: &str, comment_lines: &[usize]) -> Vec<usize> {
    let mut starts = vec![0];
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        if line_start > 0
            && is_item_header(text, line_start)
            && comment_lines.binary_search(&line_start).is_err()
        {
            starts.push(line_start);
        }
        line_start += line.len();
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_finds_the_unclosed_brace() {
        let found = scan("card \"a\" {\n  effect = { x }\n");
        assert_eq!(found.unclosed, vec![(9, b'{')]);
    }

    #[test]
    fn scan_ignores_braces_in_script_strings() {
        let found = scan("card \"a\" { effect = { let s = \"}\"; `{`; '}' } }");
        assert!(found.unclosed.is_empty());
        assert!(found.unclosed_string.is_none());
    }

    #[test]
    fn region_starts_skip_comments_and_script_words() {
        let text = "a {\n}\n/*\nb {\n*/\nc \"x\" {\n else {\nelse {\n}";
        let found = scan(text);
        assert_eq!(region_starts(text, &found.comment_lines), vec![0, 16]);
    }
}
