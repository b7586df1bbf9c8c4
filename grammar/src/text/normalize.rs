//! Typographic clean-up of printed card text, keeping a map back to the original bytes.
//!
//! Scanned and copied card text carries noise that is not meaning: curly quotes, ligatures
//! split by a space (`fi ghter`, `aft er`, `Th en`), a lost ligature (`� e`), words hyphenated
//! at a line break, line breaks and runs of spaces. [`normalize`] removes it and remembers,
//! for every byte of the clean text, the byte of the original it came from, so a clause
//! found in the clean text is reported at its place in the original.

/// Clean text and, for each of its bytes (and one past the end), the original byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Normalized {
    /// The clean text: straight quotes, joined ligatures, single spaces.
    pub text: String,
    /// `map[i]` is the offset in the original of byte `i` of `text`; `map[text.len()]` is
    /// the original's length.
    pub map: Vec<usize>,
    /// `ends[i]` is the end in the original of the character byte `i` of `text` came from.
    ends: Vec<usize>,
}

impl Normalized {
    /// The original byte range of the clean range `start..end`: from the original
    /// character the first clean byte came from to the end of the one the last came from,
    /// so it always falls on character boundaries.
    pub fn original(&self, start: usize, end: usize) -> std::ops::Range<usize> {
        let last = self.map.len().saturating_sub(1);
        let from = self.map.get(start.min(last)).copied().unwrap_or(0);
        if end <= start {
            return from..from;
        }
        let to = self
            .ends
            .get((end - 1).min(self.ends.len().saturating_sub(1)))
            .copied()
            .unwrap_or(from);
        from..to.max(from)
    }
}

/// Real English words that end the way a split ligature does (`ff`, `fi`, `fl`, `ft`): a
/// space after one of these is a real space.
const REAL_WORDS: &[&str] = &[
    "off", "left", "lift", "gift", "soft", "swift", "craft", "shift", "drift", "draft", "theft",
    "loft", "raft", "cliff", "staff", "stuff", "buff", "cuff", "puff", "scoff", "bluff", "chaff",
    "sniff", "stiff", "daft", "deft", "heft", "oft", "tuft", "waft", "cleft", "graft", "shaft",
    "rift", "sift", "thrift", "aloft", "hi-fi", "sci-fi",
];

/// One character of the clean text and the original offset it came from.
type Mapped = (char, usize);

/// Cleans `raw`: see the module documentation.
///
/// # Examples
///
/// ```
/// let clean = gloam_grammar::text::normalize("Push a friendly fi ghter 1 hex aft er\nthe \u{2018}push\u{2019}.");
/// assert_eq!(clean.text, "Push a friendly fighter 1 hex after the 'push'.");
/// ```
pub fn normalize(raw: &str) -> Normalized {
    // 1. Character replacements.
    let mut chars: Vec<Mapped> = Vec::with_capacity(raw.len());
    for (offset, c) in raw.char_indices() {
        match c {
            '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{2032}' | '`' => chars.push(('\'', offset)),
            '\u{201C}' | '\u{201D}' | '\u{201F}' | '\u{2033}' => chars.push(('"', offset)),
            '\u{2013}' | '\u{2014}' | '\u{2212}' => chars.push(('-', offset)),
            '\u{2026}' => {
                for _ in 0..3 {
                    chars.push(('.', offset));
                }
            }
            '\u{FB01}' => {
                chars.push(('f', offset));
                chars.push(('i', offset));
            }
            '\u{FB02}' => {
                chars.push(('f', offset));
                chars.push(('l', offset));
            }
            '\u{FB00}' => {
                chars.push(('f', offset));
                chars.push(('f', offset));
            }
            '\u{00A0}' | '\t' | '\r' | '\n' | '\u{2028}' => chars.push((
                if c == '\n' || c == '\u{2028}' {
                    '\n'
                } else {
                    ' '
                },
                offset,
            )),
            _ => chars.push((c, offset)),
        }
    }
    // 2. Words hyphenated at a line break: `fight-\ner` -> `fighter`.
    let mut joined: Vec<Mapped> = Vec::with_capacity(chars.len());
    let mut index = 0;
    while index < chars.len() {
        let (c, offset) = chars[index];
        if c == '-'
            && index > 0
            && chars[index - 1].0.is_alphabetic()
            && chars.get(index + 1).is_some_and(|n| n.0 == '\n')
            && chars.get(index + 2).is_some_and(|n| n.0.is_lowercase())
        {
            index += 2;
            continue;
        }
        joined.push((c, offset));
        index += 1;
    }
    // 3. Whitespace runs become one space; no space at either end.
    let mut spaced: Vec<Mapped> = Vec::with_capacity(joined.len());
    for (c, offset) in joined {
        if c.is_whitespace() {
            if spaced.last().is_some_and(|last| last.0 != ' ') {
                spaced.push((' ', offset));
            }
        } else {
            spaced.push((c, offset));
        }
    }
    while spaced.last().is_some_and(|last| last.0 == ' ') {
        spaced.pop();
    }
    // 4. Lost and split ligatures.
    let fixed = join_ligatures(&spaced);
    let mut text = String::with_capacity(fixed.len());
    let mut map = Vec::with_capacity(fixed.len() + 1);
    for (c, offset) in fixed {
        let before = text.len();
        text.push(c);
        for _ in before..text.len() {
            map.push(offset);
        }
    }
    map.push(raw.len());
    let ends = map[..map.len() - 1]
        .iter()
        .map(|&offset| {
            offset
                + raw
                    .get(offset..)
                    .and_then(|rest| rest.chars().next())
                    .map_or(0, char::len_utf8)
        })
        .collect();
    Normalized { text, map, ends }
}

/// The letters of the word that ends just before `end` (exclusive).
fn word_before(chars: &[Mapped], end: usize) -> String {
    let mut start = end;
    while start > 0 && (chars[start - 1].0.is_alphabetic() || chars[start - 1].0 == '-') {
        start -= 1;
    }
    chars[start..end].iter().map(|c| c.0).collect()
}

fn join_ligatures(chars: &[Mapped]) -> Vec<Mapped> {
    let mut out: Vec<Mapped> = Vec::with_capacity(chars.len());
    let mut index = 0;
    while index < chars.len() {
        let (c, offset) = chars[index];
        if c == '\u{FFFD}' {
            // A ligature the scan lost. At a word's start before `ghter`/`rst`/`xed`/`rmly`/
            // `esh`/`ght` it was `fi`/`fl`; elsewhere at a word's start, `Th`; inside a word,
            // `ff`/`ft`.
            let at_start = out.last().is_none_or(|p| !p.0.is_alphabetic());
            let mut next = index + 1;
            if chars.get(next).is_some_and(|n| n.0 == ' ')
                && chars.get(next + 1).is_some_and(|n| n.0.is_lowercase())
            {
                next += 1;
            }
            let rest: String = chars[next..].iter().take(5).map(|c| c.0).collect();
            let replacement = if at_start {
                if ["ghter", "rst", "xed", "rmly", "ght"]
                    .iter()
                    .any(|s| rest.starts_with(s))
                {
                    "fi"
                } else if rest.starts_with("esh") {
                    "fl"
                } else {
                    "Th"
                }
            } else if rest.starts_with("ly") {
                "ft"
            } else {
                "ff"
            };
            for r in replacement.chars() {
                out.push((r, offset));
            }
            index = next;
            continue;
        }
        if c == ' ' && chars.get(index + 1).is_some_and(|n| n.0.is_lowercase()) && !out.is_empty() {
            let word = word_before(&out, out.len());
            let lower = word.to_lowercase();
            let split = word == "Th"
                || word == "Wh"
                || ((lower.ends_with("fi")
                    || lower.ends_with("fl")
                    || lower.ends_with("ff")
                    || lower.ends_with("ft"))
                    && !REAL_WORDS.contains(&lower.as_str()));
            if split {
                index += 1;
                continue;
            }
        }
        out.push((c, offset));
        index += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn normalize_split_ligatures_joined() {
        let clean = normalize("Th en, fi rst aft er the eff ect; Th ree fi ghters");
        assert_eq!(clean.text, "Then, first after the effect; Three fighters");
    }

    #[test]
    fn normalize_real_words_kept_apart() {
        let clean = normalize("the left hex, off the board");
        assert_eq!(clean.text, "the left hex, off the board");
    }

    #[test]
    fn normalize_lost_ligature_restored() {
        let clean = normalize("\u{FFFD} is one\u{2019}s mine \u{2013} \u{FFFD} ghter");
        assert_eq!(clean.text, "This one's mine - fighter");
    }

    #[test]
    fn normalize_line_break_hyphen_joined_and_mapped() {
        let raw = "push the fight-\ner  1 hex";
        let clean = normalize(raw);
        assert_eq!(clean.text, "push the fighter 1 hex");
        let span = clean.original(9, 16);
        assert_eq!(&raw[span], "fight-\ner");
    }

    #[test]
    fn normalize_span_inside_ligature_ends_on_char_boundary() {
        let raw = "a \u{FB01}ghter";
        let clean = normalize(raw);
        assert_eq!(clean.text, "a fighter");
        // Just the `f` of the expanded ligature: the whole ligature character.
        let span = clean.original(2, 3);
        assert_eq!(raw.get(span), Some("\u{FB01}"));
    }
}
