//! docs/authoring.md shows real files and real output: this test runs every command of the
//! tutorial on the files in docs/tutorial/ and requires the document to hold both verbatim.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch folder holding `cards` (a link to the shipped data) and the tutorial's files
/// under the names the tutorial uses.
fn workspace(files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "gloam-tutorial-{}-{}",
        std::process::id(),
        files[0].0
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(root().join("cards"), dir.join("cards")).unwrap();
    for (source, name) in files {
        std::fs::copy(root().join("docs/tutorial").join(source), dir.join(name)).unwrap();
    }
    dir
}

fn gloam(dir: &Path, args: &[&str]) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_gloam"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
    )
}

fn doc() -> String {
    std::fs::read_to_string(root().join("docs/authoring.md")).unwrap()
}

fn file(name: &str) -> String {
    std::fs::read_to_string(root().join("docs/tutorial").join(name)).unwrap()
}

fn assert_in_doc(what: &str, text: &str) {
    assert!(
        doc().contains(text),
        "docs/authoring.md does not show the real {what}:\n{text}"
    );
}

#[test]
fn tutorial_first_check_reports_the_three_mistakes() {
    let dir = workspace(&[("my_cards_broken.gloam", "my_cards.gloam")]);
    assert_in_doc("broken card", &file("my_cards_broken.gloam"));
    let (code, out) = gloam(&dir, &["check", "cards/underworlds", "my_cards.gloam"]);
    assert_eq!(code, 1);
    assert_in_doc("first check output", &out);
}

#[test]
fn tutorial_fixed_card_checks_clean_and_tries() {
    let dir = workspace(&[("my_cards.gloam", "my_cards.gloam")]);
    let (code, out) = gloam(&dir, &["check", "cards/underworlds", "my_cards.gloam"]);
    assert_eq!(code, 0, "{out}");
    assert_in_doc("clean check", &out);
    let (code, out) = gloam(
        &dir,
        &[
            "try",
            "cards/underworlds",
            "my_cards.gloam",
            "--card",
            "Heroic Shove",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert_in_doc("try output", &out);
}

#[test]
fn tutorial_house_rule_checks_and_the_wrong_ruleset_is_caught() {
    assert_in_doc("house file", &file("house.gloam"));
    let dir = workspace(&[
        ("house.gloam", "house.gloam"),
        ("house_wrong.gloam", "house_wrong.gloam"),
    ]);
    let (code, out) = gloam(&dir, &["check", "cards/underworlds", "house.gloam"]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = gloam(&dir, &["check", "cards/underworlds", "house_wrong.gloam"]);
    assert_eq!(code, 1);
    let report = out.split("\nchecked").next().unwrap();
    assert_in_doc("wrong-ruleset output", report.trim_end());
}
