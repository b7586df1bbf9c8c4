//! docs/rules-coverage.md: every rule section of each edition's digest with the tests that
//! cover it, generated from the tests' own citations, so it cannot drift.
//!
//! A test covers a section when its doc comment, or the comment lines that open its body,
//! cite the section's number (`digest 3.11`, `(3.11;`, `3.11 Attack keywords`) or a seed
//! line inside one of the seed-line ranges the digest gives for that section (`002 L2558`,
//! `seed 002 L2558-2563`). Sections no test cites are listed as such.
//!
//! To regenerate after adding or changing tests: `GLOAM_BLESS=1 cargo test --test coverage`,
//! then review and commit docs/rules-coverage.md.
//!
//! The table of sections below is the digest's list of headings (their numbers, short
//! titles and the seed-line ranges the digest gives for them). A new edition (Spearhead, Umbra
//! Turris: digest tabletop.md) is one more `Edition` with its sections and seed number.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// One section of an edition's digest chapter.
struct Section {
    /// Its number in the digest (`3.11`).
    number: &'static str,
    /// Its heading, shortened.
    title: &'static str,
    /// The seed-line ranges the digest gives for it (its heading; for 3.6, its bullets), inclusive.
    lines: &'static [(u32, u32)],
}

/// One edition: its digest chapter and the seed the chapter is written from.
struct Edition {
    name: &'static str,
    /// The digest chapter's number (`3` for Harrowdeep).
    chapter: &'static str,
    /// The seed's number as tests cite it (`002`).
    seed: &'static str,
    sections: &'static [Section],
}

const fn s(number: &'static str, title: &'static str, lines: &'static [(u32, u32)]) -> Section {
    Section {
        number,
        title,
        lines,
    }
}

const EDITIONS: &[Edition] = &[
    Edition {
        name: "Shadespire",
        chapter: "2",
        seed: "000",
        sections: &[
            s("2.1", "Components and dice", &[]),
            s("2.2", "Fighter characteristics", &[]),
            s("2.3", "Set-up sequence", &[(121, 139), (871, 871)]),
            s("2.4", "Round, phase and activation structure", &[]),
            s("2.5", "Actions", &[]),
            s("2.6", "Push, driven back, knockback, placement", &[]),
            s("2.7", "Line of sight, distance, adjacency", &[]),
            s("2.8", "Combat sequence", &[(509, 519), (873, 877)]),
            s("2.9", "Damage, out of action, glory", &[]),
            s("2.10", "Inspire", &[(45, 45), (83, 83), (863, 863)]),
            s("2.11", "Power step, ploys and upgrades", &[(575, 605)]),
            s("2.12", "Reactions and priority", &[(631, 633), (701, 701)]),
            s("2.13", "Objectives", &[(269, 269), (707, 707)]),
            s("2.14", "End phase", &[(703, 703), (711, 711), (877, 877)]),
            s("2.15", "Victory", &[(713, 713), (717, 717)]),
            s("2.16", "Deck building", &[(43, 43), (107, 113)]),
            s("2.17", "Alternative modes", &[]),
            s(
                "2.18",
                "Precedence, sequencing, modifiers, re-rolls, roll-offs",
                &[],
            ),
        ],
    },
    Edition {
        name: "Harrowdeep",
        chapter: "3",
        seed: "002",
        sections: &[
            s("3.1", "Components and dice", &[]),
            s(
                "3.2",
                "Fighters, traits, keywords",
                &[(1245, 1379), (2189, 2217)],
            ),
            s("3.3", "Battlefield and hex types", &[(1636, 1749)]),
            s("3.4", "Set-up", &[(1772, 2006)]),
            s(
                "3.5",
                "Rounds, turns, minor steps",
                &[(2012, 2080), (4413, 4421)],
            ),
            s(
                "3.6",
                "Actions",
                &[(2114, 2146), (2598, 2620), (2700, 2710)],
            ),
            s("3.7", "Push, driven back, knockback", &[]),
            s("3.8", "Line of sight", &[(2284, 2317), (4149, 4155)]),
            s("3.9", "Combat sequence", &[(2319, 2396), (4426, 4501)]),
            s("3.10", "Support", &[(2408, 2458)]),
            s("3.11", "Attack keywords", &[(2530, 2596)]),
            s(
                "3.12",
                "Damage, out of action, bounty, vulnerable, heal",
                &[(2459, 2529)],
            ),
            s("3.13", "Inspire", &[(1330, 1353), (4115, 4128)]),
            s("3.14", "Power step and delve", &[(2726, 2785)]),
            s(
                "3.15",
                "Gambits: ploys and spells",
                &[(1574, 1633), (2796, 2858)],
            ),
            s(
                "3.16",
                "Upgrades",
                &[(1492, 1540), (2860, 2886), (2008, 2011)],
            ),
            s("3.17", "Magic", &[(2624, 2698), (3814, 3828), (4157, 4159)]),
            s("3.18", "Scatter", &[(2986, 3071)]),
            s("3.19", "Reactions", &[(3073, 3310)]),
            s(
                "3.20",
                "Objectives",
                &[(1392, 1393), (1465, 1518), (3356, 3399)],
            ),
            s("3.21", "End phase", &[(3311, 3354), (4519, 4526)]),
            s("3.22", "Victory", &[(3411, 3432)]),
            s(
                "3.23",
                "Deck building",
                &[(1380, 1431), (4186, 4188), (4231, 4233)],
            ),
            s("3.24", "Multiplayer", &[(3433, 3729)]),
            s(
                "3.25",
                "Precedence, sequencing, modifiers, re-rolls, vocabulary",
                &[],
            ),
        ],
    },
    Edition {
        name: "Embergard",
        chapter: "4",
        seed: "001",
        sections: &[
            s("4.1", "Components and dice", &[(59, 67), (87, 97)]),
            s("4.2", "Fighter characteristics", &[]),
            s("4.3", "Set-up", &[(59, 85)]),
            s("4.4", "Rounds and turns", &[(109, 121)]),
            s("4.5", "Action step: core abilities", &[(123, 153)]),
            s(
                "4.6",
                "Visibility, distance, adjacency, directions",
                &[(155, 157), (441, 453)],
            ),
            s("4.7", "Power step, playing cards, delve", &[(159, 186)]),
            s("4.8", "Combat sequence", &[(233, 283)]),
            s("4.9", "Damage, slain, bounty, heal, raise", &[(325, 351)]),
            s("4.10", "Inspire / uninspire", &[(103, 105), (329, 329)]),
            s(
                "4.11",
                "Surges and priority",
                &[(176, 176), (216, 218), (413, 431)],
            ),
            s("4.12", "End phase", &[(188, 214)]),
            s("4.13", "Victory", &[(224, 231)]),
            s("4.14", "Hex types and feature tokens", &[(389, 411)]),
            s(
                "4.15",
                "Precedence, persistence, modifiers, re-rolls",
                &[(421, 475)],
            ),
            s("4.16", "Deck building", &[(61, 61), (477, 485)]),
        ],
    },
    Edition {
        name: "Spearhead",
        chapter: "B",
        seed: "004",
        sections: &[
            s("B2", "Pre-battle sequence", &[(3, 9)]),
            s("B3", "Deployment", &[(11, 13)]),
            s(
                "B4",
                "Battle round start, priority and underdog",
                &[(15, 17), (33, 39)],
            ),
            s("B5", "Cards", &[(19, 22)]),
            s("B6", "Victory points", &[(24, 31)]),
            s("B7", "Terrain", &[(41, 49)]),
            s("B8", "Phases", &[(66, 76)]),
            s("B9", "Universal core abilities", &[(78, 150)]),
            s("B10", "Call for Reinforcements", &[(51, 64)]),
            s("B11", "Universal weapon abilities", &[(152, 166)]),
            s("B12", "Referenced by the sheet, absent from it", &[]),
        ],
    },
];

/// A test and the text of its citations (doc comment and opening comment lines).
struct Cited {
    file: String,
    name: String,
    text: String,
}

/// Every `#[test]` function of the integration tests and the scenario harness, with its
/// citations.
fn cited_tests() -> Vec<Cited> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .expect("tests folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    let mut tests = Vec::new();
    for path in files {
        let file = path
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let source = std::fs::read_to_string(&path).expect("readable");
        let lines: Vec<&str> = source.lines().collect();
        for (at, line) in lines.iter().enumerate() {
            if line.trim() != "#[test]" {
                continue;
            }
            // The doc comment above the attribute.
            let mut above = Vec::new();
            let mut up = at;
            while up > 0 {
                up -= 1;
                let text = lines[up].trim();
                if let Some(doc) = text.strip_prefix("///") {
                    above.push(doc.trim().to_string());
                } else if !text.starts_with("#[") {
                    break;
                }
            }
            above.reverse();
            // The function's name and the comment lines that open its body.
            let Some((offset, signature)) = lines[at + 1..]
                .iter()
                .enumerate()
                .find(|(_, l)| l.trim_start().starts_with("fn "))
            else {
                continue;
            };
            let name = signature
                .trim_start()
                .trim_start_matches("fn ")
                .split(['(', '<'])
                .next()
                .unwrap_or_default()
                .to_string();
            let mut body = at + 1 + offset + 1;
            while body < lines.len() && !lines[body - 1].contains('{') {
                body += 1;
            }
            let mut opening = Vec::new();
            while body < lines.len() {
                let text = lines[body].trim();
                match text.strip_prefix("//") {
                    Some(comment) => opening.push(comment.trim().to_string()),
                    None => break,
                }
                body += 1;
            }
            above.extend(opening);
            tests.push(Cited {
                file: file.clone(),
                name,
                text: above.join(" "),
            });
        }
    }
    tests
}

/// The section numbers `text` cites (`3.11`), as written: a digit chapter, a dot and one or
/// two digits, not part of a longer number.
fn section_numbers(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'.' || i == 0 {
            continue;
        }
        let chapter = bytes[i - 1];
        // Not part of a longer number, nor of a lettered one (`D2.9`: the digest's part D).
        if !chapter.is_ascii_digit()
            || (i >= 2
                && (bytes[i - 2].is_ascii_digit()
                    || bytes[i - 2] == b'.'
                    || bytes[i - 2].is_ascii_alphabetic()))
        {
            continue;
        }
        let minor: String = bytes[i + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .map(|&c| c as char)
            .collect();
        let next = bytes.get(i + 1 + minor.len()).copied();
        let after = bytes.get(i + 2 + minor.len()).copied();
        if minor.is_empty()
            || minor.len() > 2
            || (next == Some(b'.') && after.is_some_and(|c| c.is_ascii_digit()))
        {
            continue;
        }
        if next.is_some_and(|c| c.is_ascii_digit()) {
            continue;
        }
        found.push(format!("{}.{minor}", chapter as char));
    }
    found
}

/// The lettered sections `text` cites (`B12`, `B9` of the tabletop digest): a capital
/// letter and one or two digits, standing alone (not inside a word or a longer number, and
/// not followed by a dot and a digit, as `D2.9` is).
fn lettered_sections(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        if !b.is_ascii_uppercase() || (i > 0 && bytes[i - 1].is_ascii_alphanumeric()) {
            continue;
        }
        let digits: String = bytes[i + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .map(|&c| c as char)
            .collect();
        let next = bytes.get(i + 1 + digits.len()).copied();
        if digits.is_empty()
            || digits.len() > 2
            || next.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'.')
        {
            continue;
        }
        found.push(format!("{}{digits}", b as char));
    }
    found
}

/// The seed lines `text` cites for seed `seed` (`002 L2558-2563, L2599` gives 2558..=2563
/// and 2599): each `L` number after the seed's number, until another seed is named.
fn seed_lines(text: &str, seed: &str) -> Vec<(u32, u32)> {
    let mut lines = Vec::new();
    let mut current: Option<&str> = None;
    for word in text.split(|c: char| {
        c.is_whitespace() || c == '(' || c == ')' || c == ',' || c == ';' || c == ':'
    }) {
        if word.len() == 3 && word.chars().all(|c| c.is_ascii_digit()) {
            current = Some(if word == seed { seed } else { "" });
            continue;
        }
        if current != Some(seed) {
            continue;
        }
        let Some(range) = word.strip_prefix('L') else {
            continue;
        };
        let mut ends = range.splitn(2, ['-', '\u{2013}']);
        let from = ends.next().and_then(|n| n.parse::<u32>().ok());
        let to = ends
            .next()
            .and_then(|n| n.trim_end_matches('.').parse::<u32>().ok());
        if let Some(from) = from {
            lines.push((from, to.unwrap_or(from).max(from)));
        }
    }
    lines
}

fn generate() -> String {
    let tests = cited_tests();
    let mut out = String::new();
    out.push_str(
        "# Rules coverage\n\n\
         GENERATED by `tests/coverage.rs` from the tests' own citations: do not edit by hand.\n\
         Regenerate with `GLOAM_BLESS=1 cargo test --test coverage` after adding or changing\n\
         tests, and commit the result.\n\n\
         Each rule section of an edition's chapter of the rules digest\n\
         (`/work/shared/rules/underworlds.md`) with the tests that cite it: a test cites a\n\
         section by its number in its doc comment or the comments that open it (`digest 3.11`,\n\
         `(3.11; ...)`), or by a seed line inside a seed-line range the digest's heading gives\n\
         for the section (`002 L2558-2563`). A section without a test says so. Spearhead's\n\
         sections are those of part B of the tabletop digest (`tabletop.md`), cited as `B9`\n\
         or by the reference sheet's lines (`004 L128-138`). Umbra Turris gets a chapter here\n\
         when its ruleset lands: one more entry in the table of `tests/coverage.rs`.\n",
    );
    for edition in EDITIONS {
        let _ = writeln!(
            out,
            "\n## {} (digest chapter {}, seed {})\n",
            edition.name, edition.chapter, edition.seed
        );
        let mut covering: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for test in &tests {
            let mut numbers = section_numbers(&test.text);
            numbers.extend(lettered_sections(&test.text));
            let lines = seed_lines(&test.text, edition.seed);
            for section in edition.sections {
                let by_number = numbers.iter().any(|n| n == section.number);
                let by_line = lines.iter().any(|&(from, to)| {
                    section
                        .lines
                        .iter()
                        .any(|&(start, end)| from <= end && to >= start)
                });
                if by_number || by_line {
                    covering.entry(section.number).or_default().push(format!(
                        "`{}::{}`",
                        test.file.trim_end_matches(".rs"),
                        test.name
                    ));
                }
            }
        }
        let covered = edition
            .sections
            .iter()
            .filter(|s| covering.contains_key(s.number))
            .count();
        let _ = writeln!(
            out,
            "{covered} of {} sections cited by at least one test.\n",
            edition.sections.len()
        );
        out.push_str("| Section | Tests |\n|---|---|\n");
        for section in edition.sections {
            let tests = covering
                .get(section.number)
                .map_or_else(|| "**no test**".to_string(), |list| list.join(", "));
            let _ = writeln!(out, "| {} {} | {tests} |", section.number, section.title);
        }
    }
    out
}

#[test]
fn rules_coverage_is_generated_from_the_tests_citations() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules-coverage.md");
    let generated = generate();
    if std::env::var_os("GLOAM_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write docs/rules-coverage.md");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/rules-coverage.md is out of date: run `GLOAM_BLESS=1 cargo test --test coverage` and commit it"
    );
}

#[test]
fn citations_are_read_as_sections_and_seed_lines() {
    assert_eq!(
        section_numbers("Harrowdeep, Stagger (3.11; 002 L2558-2563), digest 3.6 and 2.10."),
        ["3.11", "3.6", "2.10"]
    );
    // Not a section: part of a longer number, or of a lettered one.
    assert!(section_numbers("version 1.85.0 and 10.5").is_empty());
    assert!(section_numbers("the digest's D2.9 and A8.1").is_empty());
    assert_eq!(
        lettered_sections("(digest B12, medium) and B9; not D2.9 nor AB12 or B123"),
        ["B12", "B9"]
    );
    assert_eq!(
        seed_lines("(002 L2558-2563, L2599; 001 L141)", "002"),
        [(2558, 2563), (2599, 2599)]
    );
    assert_eq!(seed_lines("seed 001 L141-145", "001"), [(141, 145)]);
}
