//! Generated documentation stays in step with the code.
//!
//! To regenerate after changing the vocabulary or the diagnostics:
//! `GLOAM_BLESS=1 cargo test --test docs`, then review and commit the files.

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use miette::Diagnostic as _;

fn check_generated(path: &str, generated: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if std::env::var_os("GLOAM_BLESS").is_some() {
        std::fs::write(&path, generated).expect("write the generated file");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is out of date: run `GLOAM_BLESS=1 cargo test --test docs` and commit it",
        path.display()
    );
}

#[test]
fn dsl_reference_matches_the_registered_vocabulary() {
    check_generated("docs/dsl.md", &gloam_dsl::docs_markdown());
}

/// One example of a code: the file that shows it and what the checker says.
struct Example {
    file: String,
    text: String,
    rendered: String,
}

/// The first example of each code in the failure corpus (broken files, then hostile ones).
fn examples() -> BTreeMap<String, Example> {
    let host = gloam_dsl::Host::new();
    let mut examples: BTreeMap<String, Example> = BTreeMap::new();
    for path in common::files("tests/fail") {
        let source = common::source(&path);
        for problem in common::check_broken(&path, &host) {
            let code = problem.code().map(|c| c.to_string()).unwrap_or_default();
            examples.entry(code).or_insert_with(|| Example {
                file: source.name.clone(),
                text: source.text.to_string(),
                rendered: common::render(&problem),
            });
        }
    }
    for path in common::files("tests/fail/hostile") {
        let source = common::source(&path);
        let run = common::run_hostile(&path, &host);
        examples.entry(run.code).or_insert_with(|| Example {
            file: source.name.clone(),
            text: source.text.to_string(),
            rendered: run.rendered,
        });
    }
    examples
}

fn diagnostics_markdown() -> String {
    let mut codes: Vec<(&str, &str)> = Vec::new();
    codes.extend(gloam_grammar::list_codes().iter().copied());
    codes.extend(gloam_dsl::list_codes().iter().copied());
    codes.extend([
        (
            "gloam::io::unreadable",
            "a path given to `gloam check` could not be read",
        ),
        (
            "gloam::io::no_files",
            "a folder given to `gloam check` holds no .gloam file",
        ),
        (
            "gloam::io::not_text",
            "a data file that is not UTF-8 text; the first bad byte's line, column and offset are given",
        ),
        (
            "gloam::io::not_data",
            "a path that is not data: a device, pipe, socket, system folder (`/proc`), a file over 2 MiB, or a walk of more than 100,000 entries",
        ),
    ]);
    let examples = examples();
    let mut out = String::new();
    out.push_str("# Diagnostics\n\n");
    out.push_str("<!-- Generated from the failure corpus (tests/fail/) by tests/docs.rs; a test keeps it current. -->\n\n");
    out.push_str("`gloam check` reports every problem in every file at once. Each has a stable code, the file,\n");
    out.push_str(
        "a labelled span and a help line. `gloam check --json` prints the same as a JSON array\n",
    );
    out.push_str(
        "(`severity`, `code`, `message`, `file`, `line`, `column`, `offset`, `length`, `label`,\n",
    );
    out.push_str(
        "`help`). The examples below are real: each is a file of `tests/fail/`, checked together\n",
    );
    out.push_str(
        "with `tests/fail/base/`, and the message is what `gloam check` prints for it.\n\n",
    );
    out.push_str("| code | meaning |\n| --- | --- |\n");
    for (code, meaning) in &codes {
        let _ = writeln!(
            out,
            "| [`{code}`](#{}) | {meaning} |",
            code.replace("::", "")
        );
    }
    for (code, meaning) in &codes {
        let _ = writeln!(out, "\n## {code}\n\n{meaning}.\n");
        match examples.get(*code) {
            Some(example) => {
                let _ = writeln!(
                    out,
                    "The mistake (`{}`):\n\n```\n{}```\n",
                    example.file, example.text
                );
                let _ = writeln!(
                    out,
                    "What `gloam check` says:\n\n```text\n{}```",
                    example.rendered
                );
            }
            None => {
                let _ = writeln!(out, "No example in the corpus.");
            }
        }
    }
    out
}

#[test]
fn diagnostics_reference_has_a_real_example_of_every_code() {
    let text = diagnostics_markdown();
    let missing: Vec<&str> = text
        .split("\n## ")
        .filter(|section| section.contains("No example in the corpus."))
        .map(|section| section.lines().next().unwrap_or_default())
        .filter(|code| !EXEMPT.contains(code))
        .collect();
    assert!(
        missing.is_empty(),
        "add a file to tests/fail/ showing: {missing:?}"
    );
    check_generated("docs/diagnostics.md", &text);
}

/// Codes no file in the corpus can show, and why.
const EXEMPT: &[&str] = &[
    // Every item kind of the current schema takes a name; the check is there for the first
    // kind that does not.
    "gloam::grammar::unexpected_name",
    // Reading errors depend on the file system, not on a file's content.
    "gloam::io::unreadable",
    "gloam::io::no_files",
    // Found while reading files, before the corpus's loader sees any text; tests/reliability.rs
    // shows each.
    "gloam::io::not_text",
    "gloam::io::not_data",
];
