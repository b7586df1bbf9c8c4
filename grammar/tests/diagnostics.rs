//! Broken files under `tests/fail/` and their rendered diagnostics, as insta snapshots.
//!
//! Each broken file is loaded together with the sound data set of `tests/data/`, so that
//! cross-references have a ruleset, a warband and cards to resolve against. Diagnostics are
//! rendered by miette's graphical handler without colour at width 80.

use gloam_grammar::{GrammarDiagnostic, SourceFile, load};
use miette::{GraphicalReportHandler, GraphicalTheme};

const DATA: [&str; 7] = [
    "underworlds",
    "harrowdeep",
    "board",
    "truthseekers",
    "cards",
    "deck_cards",
    "decklist",
];

fn source(path: &str) -> SourceFile {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|error| panic!("{full}: {error}"));
    SourceFile::new(path, text)
}

fn render(diagnostic: &GrammarDiagnostic) -> String {
    let mut out = String::new();
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(80);
    if let Err(error) = handler.render_report(&mut out, diagnostic) {
        out = format!("(render failed: {error})");
    }
    out
}

/// Loads `tests/fail/<name>.gloam` with the data set and snapshots every diagnostic.
fn check(name: &str) {
    let mut files: Vec<SourceFile> = DATA
        .iter()
        .map(|data| source(&format!("tests/data/{data}.gloam")))
        .collect();
    files.push(source(&format!("tests/fail/{name}.gloam")));
    let (_, diagnostics) = load(&files);
    let rendered: Vec<String> = diagnostics.iter().map(render).collect();
    let text = format!(
        "{} diagnostics\n\n{}",
        diagnostics.len(),
        rendered.join("\n")
    );
    insta::assert_snapshot!(name, text);
}

#[test]
fn syntax_errors_recover_at_the_next_item() {
    check("syntax_recovery");
}

#[test]
fn schema_fields_unknown_missing_wrong_duplicate() {
    check("fields");
}

#[test]
fn cross_references_suggest_names() {
    check("cross_refs");
}

#[test]
fn extends_unknown_parent_cycle_and_removal() {
    check("extends");
}

#[test]
fn board_layout_errors() {
    check("board");
}

#[test]
fn warband_errors() {
    check("warband");
}

#[test]
fn duplicate_names_across_files() {
    check("duplicates");
}

#[test]
fn decklist_unknown_names_and_misfit_cards() {
    check("decklist_refs");
}

#[test]
fn decklist_deck_building_rules() {
    check("decklist_rules");
}
