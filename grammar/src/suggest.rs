//! "Did you mean" by edit distance.

/// Edit distance between two strings, by characters, ignoring ASCII case: insertions,
/// deletions, substitutions and swaps of two neighbours each count one (optimal string
/// alignment distance), so `glroy` is one edit from `glory`.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    let width = b.len() + 1;
    let mut table = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        table[i * width] = i;
    }
    for (j, cell) in table.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (table[(i - 1) * width + j] + 1)
                .min(table[i * width + j - 1] + 1)
                .min(table[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(table[(i - 2) * width + j - 2] + 1);
            }
            table[i * width + j] = best;
        }
    }
    table[a.len() * width + b.len()]
}

/// The candidate closest to `word`, if it is close enough to be a likely typo (used for
/// every "did you mean" of gloam): at most a
/// third of the word's length in edits (and at least one edit allowed). Ties go to the
/// candidate listed first, so the answer is deterministic.
pub fn closest<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let limit = (word.chars().count() / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        let d = distance(word, candidate);
        if d <= limit && best.is_none_or(|(best_d, _)| d < best_d) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// A help line: "did you mean `x`?" when a close candidate exists, otherwise the list of
/// candidates (or `fallback` when there are none or too many to list).
pub(crate) fn help<'a, I>(word: &str, candidates: I, fallback: &str) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    let candidates: Vec<&str> = candidates.into_iter().collect();
    if let Some(best) = closest(word, candidates.iter().copied()) {
        return format!("did you mean `{best}`?");
    }
    if candidates.is_empty() || candidates.len() > 24 {
        return fallback.to_string();
    }
    let listed: Vec<String> = candidates.iter().map(|c| format!("`{c}`")).collect();
    format!("expected one of {}", listed.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits() {
        assert_eq!(distance("glory", "glroy"), 1);
        assert_eq!(distance("glory", "glor"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("Lethal", "lethal"), 0);
    }

    #[test]
    fn closest_prefers_first_of_equal_candidates() {
        assert_eq!(closest("glor", ["glory", "gloom"]), Some("glory"));
        assert_eq!(closest("xyz", ["glory"]), None);
    }
}
