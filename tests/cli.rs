//! The `gloam` command, run as a user runs it.

use std::io::Write;
use std::process::{Command, Stdio};

fn gloam(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gloam"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gloam runs");
    // A command that stops early (a usage error) closes its stdin: that is not a failure.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A two-row strip with a notch: (1, 0) is missing from the battlefield.
const NOTCH: &str = r#"{"hexes": [[0,0],[2,0],[0,1],[1,1],[2,1],[-1,1]],
  "blocked": [], "off_board_blocks": true,
  "queries": [[[0,0],[2,0]], [[0,0],[0,1]], [[0,0],[2,1]]]}"#;

#[test]
fn geom_los_answers_each_query_with_the_edge_rule() {
    let (code, out, err) = gloam(&["geom", "los"], NOTCH);
    assert_eq!(code, 0, "{err}");
    // (0,0) to (2,0) and (0,0) to (2,1) both cross the missing hex (1,0) (the second at
    // lattice point (2, 1.2), inside it): they leave the battlefield.
    assert_eq!(out.trim(), "[false,true,false]");
    let off = NOTCH.replace("\"off_board_blocks\": true", "\"off_board_blocks\": false");
    let (_, out, _) = gloam(&["geom", "los"], &off);
    assert_eq!(out.trim(), "[true,true,true]");
}

#[test]
fn geom_distance_counts_hexes() {
    let (code, out, _) = gloam(&["geom", "distance"], NOTCH);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "[2,1,3]");
}

#[test]
fn geom_errors_go_to_stderr_with_a_nonzero_exit() {
    let (code, out, err) = gloam(
        &["geom", "los"],
        "{\"hexes\": [[0,0]], \"queries\": [[[0,0],[3,3]]]}",
    );
    assert_ne!(code, 0);
    assert!(out.is_empty());
    assert!(
        err.contains("hex (3, 3) is not on the battlefield"),
        "{err}"
    );
    let (code, _, err) = gloam(&["geom", "los"], "[1, 2");
    assert_ne!(code, 0);
    assert!(err.contains("not a valid geometry document"), "{err}");
    let (code, _, err) = gloam(&["geom", "sideways"], "{}");
    assert_eq!(code, 2, "usage errors exit 2: {err}");
}

#[test]
fn no_game_is_played_by_rules_written_in_rust() {
    // The kernel demonstration (its rules were Rust) is gone; every game gloam plays is a
    // ruleset of the data, driven by the same engine.
    let (code, _, err) = gloam(&["demo", "--seed", "1"], "");
    assert_eq!(code, 2, "`demo` is no longer a command: {err}");
    assert!(!std::path::Path::new("src/demo.rs").exists());
    assert!(!std::path::Path::new("cards/demo").exists());
}

#[test]
fn check_passes_the_shipped_data() {
    let (code, out, err) = gloam(&["check", "cards"], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("no problems"), "{out}");
}

#[test]
fn check_reports_every_problem_and_exits_1() {
    let (code, out, _) = gloam(
        &[
            "check",
            "tests/fail/base",
            "tests/fail/script_several_errors.gloam",
            "tests/fail/unknown_field_typo.gloam",
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(out.contains("gloam::dsl::wrong_arity"), "{out}");
    assert!(out.contains("gloam::dsl::undefined_variable"), "{out}");
    assert!(out.contains("did you mean `glory`?"), "{out}");
    assert!(out.contains("gloam::dsl::unknown_function"), "{out}");
    assert!(out.contains("4 errors"), "{out}");
}

#[test]
fn check_json_gives_file_line_column_code_and_help() {
    let (code, out, _) = gloam(
        &[
            "check",
            "--json",
            "tests/fail/base",
            "tests/fail/unknown_field_typo.gloam",
        ],
        "",
    );
    assert_eq!(code, 1);
    let problems: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    let first = &problems[0];
    assert_eq!(first["code"], "gloam::grammar::unknown_field");
    assert_eq!(first["file"], "tests/fail/unknown_field_typo.gloam");
    assert_eq!(first["line"], 6);
    assert_eq!(first["column"], 5);
    assert_eq!(first["severity"], "error");
    assert_eq!(first["help"], "did you mean `glory`?");
}

#[test]
fn check_unreadable_path_is_an_error_and_no_arguments_is_a_usage_error() {
    let (code, out, _) = gloam(&["check", "no/such/place"], "");
    assert_eq!(code, 1);
    assert!(out.contains("gloam::io::unreadable"), "{out}");
    let (code, _, err) = gloam(&["check"], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn play_a_whole_game_from_stdin_then_replay_its_save() {
    let save = std::env::temp_dir().join(format!("gloam-cli-save-{}.json", std::process::id()));
    let save_arg = save.display().to_string();
    let answers = "1\n".repeat(600);
    let (code, out, err) = gloam(
        &[
            "play",
            "harrowdeep",
            "--seed",
            "2",
            "--opponent",
            "random",
            "--save",
            &save_arg,
        ],
        &answers,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Choose a fighter to place"), "{out}");
    assert!(
        out.contains("game over:"),
        "the game ends: {}",
        &out[out.len().saturating_sub(2000)..]
    );
    let (code, out, err) = gloam(&["replay", &save_arg], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("replay matches:"), "{out}");
    // A tampered save does not match.
    let text = std::fs::read_to_string(&save).unwrap();
    let tampered = text.replacen("\"seed\": 2", "\"seed\": 3", 1);
    std::fs::write(&save, tampered).unwrap();
    let (code, out, _) = gloam(&["replay", &save_arg], "");
    assert_eq!(code, 1);
    assert!(out.starts_with("replay failed:"), "{out}");
    let _ = std::fs::remove_file(&save);
}

#[test]
fn sim_is_the_same_whatever_the_job_count() {
    let (code, one, err) = gloam(
        &[
            "sim",
            "harrowdeep",
            "--games",
            "6",
            "--seed",
            "4",
            "--jobs",
            "1",
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let (_, two, _) = gloam(
        &[
            "sim",
            "harrowdeep",
            "--games",
            "6",
            "--seed",
            "4",
            "--jobs",
            "2",
            "--json",
        ],
        "",
    );
    assert_eq!(one, two);
    let report: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(report["games"], 6);
    assert_eq!(report["errors"].as_array().unwrap().len(), 0);
}
