//! Rendering diagnostics as text for people (`gloam check`, `gloam text check`), with
//! miette's graphical handler, safe on any input: a label on a line too long to show (a
//! minified file, a 40 KB layout row) is reported with its file, line and column but
//! without the line itself, so a report never reprints huge lines nor reaches the
//! formatter's column limit (miette panics past column 65535).

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};

/// The longest source excerpt (the lines a label touches, in bytes) a report shows.
pub const MAX_SHOWN: usize = 2_000;

/// Renders one diagnostic as text, wrapped at `width` columns (at least 20), without
/// colour unless `colour`.
///
/// # Examples
///
/// ```
/// let problem = gloam::load::Problem::NoFiles { path: "empty/".into() };
/// let text = gloam::report::render(&problem, 80, false);
/// assert!(text.contains("`empty/` holds no .gloam file"), "{text}");
/// ```
pub fn render(problem: &dyn Diagnostic, width: usize, colour: bool) -> String {
    let theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(width.max(20));
    let mut out = String::new();
    let shown = Shown::of(problem);
    let result = match &shown {
        Shown::Whole => handler.render_report(&mut out, problem),
        Shown::Located(located) => handler.render_report(&mut out, located),
    };
    if result.is_err() {
        out = format!("{problem}\n");
    }
    if let Shown::Located(_) = shown {
        for related in problem.related().into_iter().flatten() {
            out.push_str(&render(related, width, colour));
        }
    }
    out
}

/// Whether a diagnostic's source excerpts are small enough to show.
enum Shown<'a> {
    Whole,
    Located(Located<'a>),
}

impl<'a> Shown<'a> {
    fn of(problem: &'a dyn Diagnostic) -> Shown<'a> {
        let too_long = |diagnostic: &dyn Diagnostic| {
            let (Some(source), Some(labels)) = (diagnostic.source_code(), diagnostic.labels())
            else {
                return false;
            };
            labels
                .into_iter()
                .any(|label| excerpt_len(source, &label) > MAX_SHOWN)
        };
        let related_too_long = problem.related().into_iter().flatten().any(&too_long);
        if too_long(problem) || related_too_long {
            Shown::Located(Located {
                inner: problem,
                at: crate::load::locate(problem)
                    .map(|l| format!("{}:{}:{}", l.file, l.line, l.column)),
            })
        } else {
            Shown::Whole
        }
    }
}

/// The length in bytes of the excerpt the renderer would show for a label: the lines it
/// touches and one line of context either side (`usize::MAX` when unreadable).
fn excerpt_len(source: &dyn SourceCode, label: &LabeledSpan) -> usize {
    source
        .read_span(label.inner(), 1, 1)
        .map_or(usize::MAX, |contents| contents.data().len())
}

/// A diagnostic shown by its location only: its message, code, help and severity, and
/// where it is, without the source.
#[derive(Debug)]
struct Located<'a> {
    inner: &'a dyn Diagnostic,
    at: Option<String>,
}

impl std::fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.at {
            Some(at) => write!(f, "{} (at {at}; the line is too long to show)", self.inner),
            None => write!(f, "{}", self.inner),
        }
    }
}

impl std::error::Error for Located<'_> {}

impl Diagnostic for Located<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }
    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.help()
    }
    fn url<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.url()
    }
}

/// How many diagnostics with the same file, code and message a report shows before it
/// says "and N more like it".
pub const SHOWN_REPEATS: usize = 3;

/// The most diagnostics a text report renders; the rest are counted (`--json` lists them).
pub const MAX_RENDERED: usize = 500;

/// Which of a list of diagnostics to show, given a key for each (file, code, message):
/// the first [`SHOWN_REPEATS`] of each key, in order, each with the number of diagnostics
/// of its key left out after it (non-zero only on the last shown of a key).
///
/// # Examples
///
/// ```
/// let keys = ["a", "b", "a", "a", "a", "a"];
/// assert_eq!(gloam::report::group(&keys), [(0, 0), (1, 0), (2, 0), (3, 2)]);
/// ```
pub fn group<K: Ord>(keys: &[K]) -> Vec<(usize, usize)> {
    let mut totals: std::collections::BTreeMap<&K, usize> = std::collections::BTreeMap::new();
    for key in keys {
        *totals.entry(key).or_default() += 1;
    }
    let mut seen: std::collections::BTreeMap<&K, usize> = std::collections::BTreeMap::new();
    let mut shown = Vec::new();
    for (index, key) in keys.iter().enumerate() {
        let count = seen.entry(key).or_default();
        *count += 1;
        if *count < SHOWN_REPEATS {
            shown.push((index, 0));
        } else if *count == SHOWN_REPEATS {
            shown.push((index, totals[key] - SHOWN_REPEATS));
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A diagnostic labelled at `offset` of `text`.
    #[derive(Debug, thiserror::Error, miette::Diagnostic)]
    #[error("something at the far end")]
    #[diagnostic(code(test::far), help("a help line"))]
    struct Far {
        #[source_code]
        src: miette::NamedSource<String>,
        #[label("here")]
        span: miette::SourceSpan,
    }

    #[test]
    fn a_label_past_column_65535_renders_without_the_line() {
        // Issue 17: miette's renderer panicked ("Formatting argument out of range").
        let text = format!("{}x\n", " ".repeat(70_000));
        let far = Far {
            src: miette::NamedSource::new("wide.gloam", text),
            span: (70_000, 1).into(),
        };
        let out = render(&far, 200, false);
        assert!(
            out.contains(
                "something at the far end (at wide.gloam:1:70001; the line is too long to show)"
            ),
            "{out}"
        );
        assert!(out.contains("a help line"), "{out}");
        assert!(out.len() < 1_000, "{out}");
    }

    /// The hazard `render` avoids; when miette stops panicking, this test says so.
    #[test]
    #[should_panic(expected = "Formatting argument out of range")]
    fn miette_alone_panics_there() {
        let text = format!("{}x\n", " ".repeat(70_000));
        let far = Far {
            src: miette::NamedSource::new("wide.gloam", text),
            span: (70_000, 1).into(),
        };
        let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor());
        let mut out = String::new();
        let _ = handler.render_report(&mut out, &far);
    }

    #[test]
    fn a_short_line_is_shown() {
        let far = Far {
            src: miette::NamedSource::new("short.gloam", "abc x\n".to_owned()),
            span: (4, 1).into(),
        };
        let out = render(&far, 80, false);
        assert!(out.contains("1 │ abc x"), "{out}");
    }

    #[test]
    fn repeats_beyond_three_are_counted_on_the_third() {
        let keys = vec![7; 40_000];
        assert_eq!(group(&keys), [(0, 0), (1, 0), (2, 39_997)]);
    }
}
