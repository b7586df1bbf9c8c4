//! The `gloam` command, run as a user runs it.

use std::io::Write;
use std::process::{Command, Stdio};

fn gloam(args: &[&str], stdin: &str) -> (i32, String, String) {
    gloam_in(None, &[], args, stdin)
}

/// `gloam` run from the folder `dir` (the project's folder when `None`) with the
/// environment variables `env` set (`GLOAM_DATA` is cleared unless given).
fn gloam_in(
    dir: Option<&std::path::Path>,
    env: &[(&str, &str)],
    args: &[&str],
    stdin: &str,
) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gloam"));
    command.env_remove("GLOAM_DATA");
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command
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
fn check_unreadable_path_is_an_error_and_no_arguments_checks_the_default_data() {
    let (code, out, _) = gloam(&["check", "no/such/place"], "");
    assert_eq!(code, 1);
    assert!(out.contains("gloam::io::unreadable"), "{out}");
    let (code, out, err) = gloam(&["check"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no problems"), "{out}");
    let (code, _, err) = gloam(&["check", "--data", "cards/underworlds"], "");
    assert_eq!(code, 0, "{err}");
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
    // The digest of every game's log: the same for both job counts (above), 64 hex digits,
    // and another seed plays other games, so another digest.
    let digest = report["log_digest"].as_str().unwrap();
    assert_eq!(digest.len(), 64, "{digest}");
    assert!(digest.bytes().all(|b| b.is_ascii_hexdigit()), "{digest}");
    let (code, other, err) = gloam(
        &[
            "sim",
            "harrowdeep",
            "--games",
            "6",
            "--seed",
            "5",
            "--jobs",
            "2",
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let other: serde_json::Value = serde_json::from_str(&other).unwrap();
    assert_ne!(other["log_digest"], report["log_digest"]);
}

/// A fresh empty folder under the system's temporary folder.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gloam-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The command of the "`gloam replay FILE` checks it" hint `gloam play` prints.
fn replay_hint(out: &str) -> String {
    let start = out.rfind("(`gloam replay ").expect("a replay hint") + 2;
    let end = start + out[start..].find('`').unwrap();
    out[start..end].to_owned()
}

#[test]
fn a_save_replays_from_any_folder_exactly_as_the_hint_says() {
    // Played from the project folder with a relative --data and a relative --save...
    let here = scratch("replay-here");
    let elsewhere = scratch("replay-elsewhere");
    let save = here.join("game.json");
    let relative_save = save.display().to_string();
    let (code, out, err) = gloam(
        &[
            "play",
            "shadespire",
            "--data",
            "cards",
            "--opponent",
            "random",
            "--save",
            &relative_save,
        ],
        "quit\n",
    );
    assert_eq!(code, 0, "{err}");
    let hint = replay_hint(&out);
    let words: Vec<&str> = hint.split_whitespace().collect();
    assert_eq!(words[..2], ["gloam", "replay"], "{hint}");
    // ... the data paths are recorded absolute ...
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    let data = saved["data"][0].as_str().unwrap();
    assert!(std::path::Path::new(data).is_absolute(), "{data}");
    // ... and the hint, run as printed from another folder, replays the game.
    let (code, out, err) = gloam_in(Some(&elsewhere), &[], &words[1..], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("replay matches:"), "{out}");
    // --json says the same.
    let (code, out, _) = gloam_in(Some(&elsewhere), &[], &[words[1], words[2], "--json"], "");
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["matches"], true);
    let _ = std::fs::remove_dir_all(&here);
    let _ = std::fs::remove_dir_all(&elsewhere);
}

#[test]
fn an_old_save_with_relative_data_replays_beside_its_file_with_data_or_by_ruleset() {
    let dir = scratch("replay-old");
    let save = dir.join("old.json");
    let save_arg = save.display().to_string();
    let (code, _, err) = gloam(
        &[
            "play",
            "shadespire",
            "--opponent",
            "random",
            "--save",
            &save_arg,
        ],
        "quit\n",
    );
    assert_eq!(code, 0, "{err}");
    // An older save recorded the path as typed: `cards`, relative to where gloam ran.
    let text = std::fs::read_to_string(&save).unwrap();
    let mut saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    saved["data"] = serde_json::json!(["cards"]);
    std::fs::write(&save, serde_json::to_string(&saved).unwrap()).unwrap();
    let elsewhere = scratch("replay-old-elsewhere");
    // Nothing named `cards` beside the save: the built-in data plays the save's ruleset, with
    // a note saying so.
    let (code, out, err) = gloam_in(Some(&elsewhere), &[], &["replay", &save_arg], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("is not found; replaying ruleset `shadespire`"),
        "{err}"
    );
    // --data says where the data is, silently.
    let cards = format!("{}/cards", env!("CARGO_MANIFEST_DIR"));
    let (code, out, err) = gloam_in(
        Some(&elsewhere),
        &[],
        &["replay", &save_arg, "--data", &cards],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.is_empty(), "{err}");
    // Wrong data given with --data: the replay fails, and says why.
    let (code, out, _) = gloam_in(
        Some(&elsewhere),
        &[],
        &[
            "replay",
            &save_arg,
            "--data",
            &format!("{cards}/underworlds"),
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(out.starts_with("replay failed:"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&elsewhere);
}

#[test]
fn multiplayer_sim_counts_outright_wins_shared_wins_and_draws_once_each() {
    let (code, out, err) = gloam(
        &[
            "sim",
            "harrowdeep",
            "--players",
            "3",
            "--games",
            "6",
            "--seed",
            "1",
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sum = |key: &str| -> u64 {
        report[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .sum()
    };
    let outright = sum("wins");
    let shared = report["shared_win_games"].as_u64().unwrap();
    let draws = report["draws"].as_u64().unwrap();
    assert_eq!(report["played"], 6);
    assert_eq!(outright + shared + draws, 6, "{report}");
    // These seeds have a game won jointly by two of the three seats (seats 0 and 2): it is
    // one shared game, counted for each of its winners in `shared_wins`, in no one's `wins`.
    assert_eq!(shared, 1, "{report}");
    assert_eq!(sum("shared_wins"), 2, "{report}");
    let (_, text, _) = gloam(
        &[
            "sim",
            "harrowdeep",
            "--players",
            "3",
            "--games",
            "6",
            "--seed",
            "1",
        ],
        "",
    );
    assert!(
        text.contains(&format!(
            "6 games played = {outright} outright wins + 1 shared win + {draws} draw"
        )),
        "{text}"
    );
}

#[test]
fn sim_names_its_seeds_and_refuses_bad_counts_clearly() {
    let (code, out, err) = gloam(&["sim", "shadespire", "--games", "3", "--seed", "5"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("3 games of shadespire (seeds 5 to 7)"),
        "{out}"
    );
    for (args, says) in [
        (vec!["--games", "0"], "--games must be at least 1"),
        (vec!["--jobs", "0"], "--jobs must be 1 to 64, not 0"),
        (
            vec!["--jobs", "100000"],
            "--jobs must be 1 to 64, not 100000",
        ),
    ] {
        let mut all = vec!["sim", "harrowdeep"];
        all.extend(args);
        let (code, out, err) = gloam(&all, "");
        assert_eq!(code, 2, "{all:?}: {out}{err}");
        assert!(err.contains(says), "{all:?}: {err}");
    }
}

#[test]
fn sim_of_a_huge_game_count_streams_instead_of_reserving_every_result() {
    // It used to panic at once ("capacity overflow"); now it plays, holding only totals.
    let mut child = Command::new(env!("CARGO_BIN_EXE_gloam"))
        .args([
            "sim",
            "shadespire",
            "--games",
            "18446744073709551615",
            "--json",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let still_running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(still_running, "it stopped early: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn sim_and_play_choose_warbands_boards_and_decklists_by_name() {
    let (code, out, err) = gloam(
        &[
            "sim",
            "embergard",
            "--games",
            "2",
            "--warbands",
            "Xandire's Truthseekers (Embergard),Da Kunnin' Krew (Embergard)",
            "--decklists",
            "Truthseekers Nemesis,Krew Nemesis",
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["warbands"][0], "Xandire's Truthseekers (Embergard)");
    assert_eq!(report["warbands"][1], "Da Kunnin' Krew (Embergard)");
    // One name fills every seat.
    let (code, out, err) = gloam(
        &[
            "sim",
            "harrowdeep",
            "--games",
            "1",
            "--warbands",
            "Xandire's Truthseekers",
            "--boards",
            "Weeping Causeway,Gloomspine Stair",
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["warbands"][1], "Xandire's Truthseekers");
    // Unknown names: did you mean.
    for (flag, name, says) in [
        (
            "--warbands",
            "Xandires Truthseekers",
            "did you mean `Xandire's Truthseekers`?",
        ),
        (
            "--boards",
            "Weeping Causway",
            "did you mean `Weeping Causeway`?",
        ),
        ("--boards", "Mirror Well", "no board named `Mirror Well`"),
    ] {
        let (code, _, err) = gloam(&["sim", "harrowdeep", "--games", "1", flag, name], "");
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(says), "{flag} {name}: {err}");
    }
    let (code, _, err) = gloam(
        &[
            "sim",
            "embergard",
            "--games",
            "1",
            "--decklists",
            "Krew Nemesis",
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("decklist `Krew Nemesis` is for warband `Da Kunnin' Krew (Embergard)`"),
        "{err}"
    );
    // play takes the same choices, and the save records them.
    let dir = scratch("play-choice");
    let save = dir.join("game.json");
    let save_arg = save.display().to_string();
    let (code, out, err) = gloam(
        &[
            "play",
            "harrowdeep",
            "--warbands",
            "Da Kunnin' Krew,Da Kunnin' Krew",
            "--boards",
            "Drowned Cloister",
            "--save",
            &save_arg,
        ],
        "quit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(Da Kunnin' Krew)"), "{out}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(saved["match"]["seats"][1]["warband"], "Da Kunnin' Krew");
    assert_eq!(saved["match"]["seats"][1]["board"], "Drowned Cloister");
    let (code, _, err) = gloam(&["play", "harrowdeep", "--warbands", "Krew"], "");
    assert_eq!(code, 1);
    assert!(err.contains("no warband named `Krew`"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_command_that_prints_results_has_json() {
    let (code, out, err) = gloam(&["rules", "list", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let rulesets: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(rulesets.as_array().unwrap().len() >= 5);
    let (code, out, err) = gloam(&["text", "render", "harrowdeep", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let cards: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(cards.as_array().unwrap().len(), 34);
    assert!(cards[0]["text"].as_str().is_some());
    let (code, out, err) = gloam(
        &["try", "--card", "Sidestep", "--data", "cards", "--json"],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    let trial: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(trial["card"], "Sidestep");
    assert!(trial["events"].is_array(), "{trial}");
    let (code, out, _) = gloam(
        &["try", "--card", "No Such Card", "--data", "cards", "--json"],
        "",
    );
    assert_eq!(code, 1);
    let trial: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(trial["problems"].is_array(), "{trial}");
}

#[test]
fn the_ruleset_is_positional_and_old_spellings_work_with_a_note() {
    let (code, new, err) = gloam(&["text", "render", "shadespire"], "");
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let (code, old, err) = gloam(&["text", "render", "--ruleset", "shadespire", "cards"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(old, new);
    assert!(err.contains("deprecated: `--ruleset NAME`"), "{err}");
    assert!(err.contains("deprecated: data paths as arguments"), "{err}");
    let (code, _, err) = gloam(&["text", "check", "--ruleset", "shadespire"], "");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("deprecated"), "{err}");
    let (code, _, err) = gloam(&["try", "cards", "--card", "Sidestep"], "");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("deprecated: data paths as arguments"), "{err}");
}

#[test]
fn every_command_suggests_the_ruleset_meant() {
    for args in [
        vec!["sim", "harowdeep", "--games", "1"],
        vec!["play", "harowdeep"],
        vec!["text", "check", "harowdeep"],
        vec!["text", "render", "harowdeep"],
        vec!["rules", "diff", "harowdeep", "embergard"],
        vec!["rules", "diff", "embergard", "harowdeep"],
    ] {
        let (code, _, err) = gloam(&args, "");
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("no ruleset named `harowdeep` is loaded; did you mean `harrowdeep`?"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn data_comes_from_gloam_data_or_the_built_in_cards_from_any_folder() {
    let elsewhere = scratch("data-anywhere");
    // No cards folder here: the built-in one is found from the binary.
    let (code, out, err) = gloam_in(Some(&elsewhere), &[], &["rules", "list"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("harrowdeep"), "{out}");
    // GLOAM_DATA names the data instead (here only the shared model).
    let model = format!("{}/cards/underworlds", env!("CARGO_MANIFEST_DIR"));
    let (code, out, err) = gloam_in(
        Some(&elsewhere),
        &[("GLOAM_DATA", &model)],
        &["rules", "list"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("harrowdeep"), "{out}");
    assert!(out.contains("underworlds"), "{out}");
    // A --data path that is not there: the hint is --data, not `gloam check`.
    let (code, _, err) = gloam_in(
        Some(&elsewhere),
        &[],
        &["sim", "harrowdeep", "--data", "cards"],
        "",
    );
    assert_eq!(code, 1);
    assert!(err.contains("cannot read `cards`"), "{err}");
    assert!(err.contains("--data"), "{err}");
    let (code, _, err) = gloam_in(
        Some(&elsewhere),
        &[],
        &["rules", "list", "--data", "cards"],
        "",
    );
    assert_eq!(code, 1);
    assert!(err.contains("pass --data PATH"), "{err}");
    let _ = std::fs::remove_dir_all(&elsewhere);
}

#[test]
fn rules_list_lines_up_and_counts_what_a_mode_inherits() {
    let (code, out, err) = gloam(&["rules", "list"], "");
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("1 boards"), "{out}");
    let header = out.lines().next().unwrap();
    let title_at = header.find("title").unwrap();
    for line in out.lines().skip(1).filter(|l| l.starts_with("shadespire")) {
        // Every row's title starts in the header's column, however long the name.
        assert_eq!(&line[title_at..title_at + 9], "Warhammer", "{out}");
    }
    let (_, json, _) = gloam(&["rules", "list", "--json"], "");
    let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
    let artefact = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "shadespire_artefact")
        .unwrap();
    // A mode plays its edition's content: not "0 boards, 0 warbands, 0 cards".
    assert_eq!(artefact["boards"], 4, "{artefact}");
    assert_eq!(artefact["warbands"], 2, "{artefact}");
    assert_eq!(artefact["inherited"], true, "{artefact}");
}

#[test]
fn check_names_the_built_in_file_that_declares_a_missing_ruleset() {
    let dir = scratch("declares");
    let card = dir.join("mine.gloam");
    std::fs::write(
        &card,
        "card \"Mine\" {\n    ruleset = \"harrowdeep\"\n    kind = ploy\n    owner = universal\n    window = power_step\n    effect = { }\n}\n",
    )
    .unwrap();
    let (code, out, _) = gloam(&["check", "--json", &card.display().to_string()], "");
    assert_eq!(code, 1);
    let problems: serde_json::Value = serde_json::from_str(&out).unwrap();
    let help = problems[0]["help"].as_str().unwrap();
    assert!(
        help.contains("cards/harrowdeep/harrowdeep.gloam`, which declares it"),
        "{help}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_json_keeps_where_a_duplicate_was_first_defined() {
    // In another file: the related location of the first definition.
    let (code, out, _) = gloam(
        &[
            "check",
            "--json",
            "tests/fail/base",
            "tests/fail/duplicate_card_name.gloam",
        ],
        "",
    );
    assert_eq!(code, 1);
    let problems: serde_json::Value = serde_json::from_str(&out).unwrap();
    let duplicate = problems
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["code"] == "gloam::grammar::duplicate_name")
        .expect("the duplicate");
    let first = &duplicate["related"][0];
    assert_eq!(
        first["file"], "tests/fail/base/testbed.gloam",
        "{duplicate}"
    );
    assert_eq!(first["line"], 118);
    assert_eq!(first["label"], "first defined here");
    // In the same file: the second label.
    let (_, out, _) = gloam(
        &[
            "check",
            "--json",
            "tests/fail/base",
            "tests/fail/duplicate_field.gloam",
        ],
        "",
    );
    let problems: serde_json::Value = serde_json::from_str(&out).unwrap();
    let related = &problems[0]["related"][0];
    assert_eq!(
        related["file"], "tests/fail/duplicate_field.gloam",
        "{problems}"
    );
    assert_eq!(related["label"], "first set here");
}

#[test]
fn sim_engine_comes_from_the_flag_then_the_environment_then_compiled() {
    let engine = |env: &[(&str, &str)], extra: &[&str]| {
        let mut args = vec!["sim", "harrowdeep", "--games", "1", "--json"];
        args.extend_from_slice(extra);
        let (code, out, err) = gloam_in(None, env, &args, "");
        assert_eq!(code, 0, "{err}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        report["engine"].as_str().unwrap().to_string()
    };
    assert_eq!(engine(&[("GLOAM_SCRIPT_ENGINE", "rhai")], &[]), "rhai");
    assert_eq!(
        engine(
            &[("GLOAM_SCRIPT_ENGINE", "rhai")],
            &["--engine", "compiled"]
        ),
        "compiled"
    );
    assert_eq!(engine(&[("GLOAM_SCRIPT_ENGINE", "")], &[]), "compiled");
    // A misspelt engine is refused, not ignored.
    let (code, _, err) = gloam_in(
        None,
        &[("GLOAM_SCRIPT_ENGINE", "rhia")],
        &["sim", "harrowdeep", "--games", "1"],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("GLOAM_SCRIPT_ENGINE: no script engine named `rhia`"),
        "{err}"
    );
}

#[test]
fn a_broken_script_of_another_ruleset_does_not_stop_a_simulation_but_check_reports_it() {
    // `gloam sim` compiles only the scripts of the ruleset it plays and of those it extends
    // (issue 12, start-up); `gloam check` still compiles every script.
    let dir = std::env::temp_dir().join(format!("gloam-cli-other-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.gloam");
    std::fs::write(
        &file,
        r#"card "Broken Tactic" {
    ruleset = "spearhead"
    kind = battle_tactic
    owner = universal
    command = "All-out Attack"
    text = "A test card whose condition calls what no vocabulary has."
    condition = { no_such_function(player) }
}
"#,
    )
    .unwrap();
    let broken = file.to_str().unwrap();
    let (code, out, err) = gloam(
        &[
            "sim",
            "harrowdeep",
            "--data",
            "cards",
            "--data",
            broken,
            "--games",
            "1",
        ],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = gloam(
        &[
            "sim",
            "spearhead",
            "--data",
            "cards",
            "--data",
            broken,
            "--games",
            "1",
        ],
        "",
    );
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains("the data has 1 problem") && err.contains("no_such_function"),
        "{err}"
    );
    let (code, out, _) = gloam(&["check", "cards", broken], "");
    assert_ne!(code, 0);
    assert!(out.contains("no_such_function"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
