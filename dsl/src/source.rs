//! Where a script's text comes from, and how positions inside it map to the file.

use std::sync::Arc;

/// A script's text as a byte range of the file that holds it.
///
/// Data files keep scripts inside larger files (`effect = { ... }` in a card file); the host
/// compiles only `file_text[start..end]` but reports every problem against the whole file, so
/// a diagnostic points at the card file's own line and column.
///
/// # Examples
///
/// ```
/// use gloam_dsl::ScriptSource;
/// let file = "card \"Sidestep\" {\n    effect = { push(target, 1); }\n}\n";
/// let start = file.find("push").unwrap();
/// let end = file.find(" }").unwrap();
/// let source = ScriptSource::new("sidestep.gloam", file, start, end);
/// assert_eq!(source.text(), "push(target, 1);");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptSource {
    /// The file's name as diagnostics show it (`cards/harrowdeep/ploys.gloam`).
    pub file_name: String,
    /// The whole file's text.
    pub file_text: Arc<str>,
    /// Byte offset of the script's first character in the file.
    pub start: usize,
    /// Byte offset just past the script's last character.
    pub end: usize,
}

impl ScriptSource {
    /// A script at `start..end` of a file.
    pub fn new(
        file_name: impl Into<String>,
        file_text: impl Into<Arc<str>>,
        start: usize,
        end: usize,
    ) -> ScriptSource {
        ScriptSource {
            file_name: file_name.into(),
            file_text: file_text.into(),
            start,
            end,
        }
    }

    /// A script that is a whole file (tests, tools, the command line).
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_dsl::ScriptSource;
    /// let source = ScriptSource::whole("check.rhai", "round() == 1");
    /// assert_eq!(source.text(), "round() == 1");
    /// ```
    pub fn whole(file_name: impl Into<String>, text: impl Into<Arc<str>>) -> ScriptSource {
        let file_text: Arc<str> = text.into();
        let end = file_text.len();
        ScriptSource {
            file_name: file_name.into(),
            file_text,
            start: 0,
            end,
        }
    }

    /// The script's text, or `""` if the range is not a valid range of the file.
    pub fn text(&self) -> &str {
        self.file_text.get(self.start..self.end).unwrap_or("")
    }

    /// Whether `start..end` is a range of the file on character boundaries.
    pub(crate) fn is_valid(&self) -> bool {
        self.start <= self.end && self.file_text.get(self.start..self.end).is_some()
    }
}

/// Maps Rhai's positions (line and column within the script, both from 1, columns counted in
/// characters) to byte offsets in the file.
#[derive(Clone, Debug)]
pub(crate) struct LineMap {
    /// File byte offset of the first character of each script line.
    line_starts: Vec<usize>,
    /// File byte offset where the script ends.
    end: usize,
}

impl LineMap {
    pub(crate) fn new(source: &ScriptSource) -> LineMap {
        let mut line_starts = vec![source.start];
        line_starts.extend(
            source
                .text()
                .match_indices('\n')
                .map(|(index, _)| source.start + index + 1),
        );
        LineMap {
            line_starts,
            end: source.start + source.text().len(),
        }
    }

    /// The file byte offset where script line `line` (from 1) starts; the end of the
    /// script past its last line.
    pub(crate) fn line_start(&self, line: usize) -> usize {
        line.checked_sub(1)
            .and_then(|index| self.line_starts.get(index))
            .copied()
            .unwrap_or(self.end)
    }

    /// The file byte offset of a script position; the end of the script when the position
    /// is unknown or past the end.
    pub(crate) fn offset(
        &self,
        file_text: &str,
        line: Option<usize>,
        column: Option<usize>,
    ) -> usize {
        let Some(line) = line.filter(|line| *line >= 1) else {
            return self.end;
        };
        let Some(&line_start) = self.line_starts.get(line - 1) else {
            return self.end;
        };
        let line_end = self
            .line_starts
            .get(line)
            .map_or(self.end, |next| next.saturating_sub(1));
        let column = column.unwrap_or(1).max(1);
        let line_text = file_text.get(line_start..line_end).unwrap_or("");
        match line_text.char_indices().nth(column - 1) {
            Some((index, _)) => line_start + index,
            None => line_end,
        }
    }
}

/// The byte length of the word (identifier or number) starting at `offset`, at least one
/// character when there is one, so a label underlines a whole name.
pub(crate) fn word_len(file_text: &str, offset: usize, end: usize) -> usize {
    let Some(rest) = file_text.get(offset..end) else {
        return 0;
    };
    let word: usize = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .map(char::len_utf8)
        .sum();
    if word > 0 {
        word
    } else {
        rest.chars().next().map_or(0, char::len_utf8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_maps_first_line_from_script_start() {
        let file = "abc { x + y\n  zz }";
        let source = ScriptSource::new("f", file, 6, 17);
        let map = LineMap::new(&source);
        assert_eq!(map.offset(file, Some(1), Some(1)), 6);
        assert_eq!(map.offset(file, Some(1), Some(5)), 10);
        assert_eq!(map.offset(file, Some(2), Some(3)), 14);
        assert_eq!(map.offset(file, None, None), 17);
    }

    #[test]
    fn offset_counts_characters_not_bytes() {
        let file = "é é x";
        let source = ScriptSource::whole("f", file);
        let map = LineMap::new(&source);
        assert_eq!(&file[map.offset(file, Some(1), Some(5))..], "x");
    }
}
