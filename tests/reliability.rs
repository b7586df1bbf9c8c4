//! Regression tests for hostile input (issue 17): files and folders that looped, hung or
//! loaded silently wrong; reports that exploded; every case found by hand or by the fuzz
//! targets of `fuzz/` (see docs/reliability.md).

use std::path::{Path, PathBuf};
use std::process::Command;

use gloam::load::{Problem, read_paths};

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("reliability")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn testbed() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fail/base/testbed.gloam"),
    )
    .expect("the testbed")
}

fn codes(problems: &[Problem]) -> Vec<String> {
    use miette::Diagnostic as _;
    problems
        .iter()
        .map(|p| p.code().map(|c| c.to_string()).unwrap_or_default())
        .collect()
}

fn gloam(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gloam"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("gloam runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[cfg(unix)]
#[test]
fn a_folder_linking_to_itself_ends_and_each_file_is_read_once() {
    let dir = scratch("cycle");
    std::fs::write(dir.join("testbed.gloam"), testbed()).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink("..", dir.join("sub/up")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("self")).unwrap();
    std::os::unix::fs::symlink("testbed.gloam", dir.join("again.gloam")).unwrap();
    let (sources, problems) = read_paths(&[dir.clone(), dir.join("self/self/testbed.gloam")]);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        sources.len(),
        1,
        "{:?}",
        sources.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
}

#[cfg(unix)]
#[test]
fn devices_pipes_and_system_folders_are_refused_without_reading() {
    let dir = scratch("devices");
    let fifo = dir.join("pipe.gloam");
    let made = Command::new("mkfifo").arg(&fifo).status();
    let mut paths = vec![PathBuf::from("/proc/self"), PathBuf::from("/dev/zero")];
    if made.is_ok_and(|s| s.success()) {
        paths.push(fifo);
    }
    let (sources, problems) = read_paths(&paths);
    assert!(sources.is_empty());
    let refused = codes(&problems)
        .iter()
        .filter(|c| *c == "gloam::io::not_data")
        .count();
    assert_eq!(refused, paths.len(), "{problems:?}");
    let message = problems[0].to_string();
    assert!(
        message.contains("a folder of the operating system"),
        "{message}"
    );
}

#[test]
fn a_file_with_carriage_return_line_endings_loads_as_written() {
    // Issue 17: its first `//` comment swallowed the whole file, which loaded as empty.
    let dir = scratch("cr");
    let text = testbed().replace("\r\n", "\n").replace('\n', "\r");
    std::fs::write(dir.join("testbed.gloam"), &text).unwrap();
    let (sources, problems) = read_paths(&[dir]);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(sources[0].text.len(), text.len(), "offsets are kept");
    let (loaded, problems) = gloam::load::load(&sources, &gloam_dsl::Host::new());
    assert!(problems.is_empty(), "{problems:?}");
    assert!(loaded.library.ruleset("testbed").is_some());
}

#[test]
fn invalid_utf8_is_reported_with_its_line_and_offset() {
    let dir = scratch("utf8");
    std::fs::write(
        dir.join("bad.gloam"),
        b"ruleset \"u\" {\n  title = \"caf\xe9\"\n}\n",
    )
    .unwrap();
    let (sources, problems) = read_paths(&[dir.join("bad.gloam")]);
    assert!(sources.is_empty());
    assert_eq!(codes(&problems), ["gloam::io::not_text"]);
    let message = problems[0].to_string();
    assert!(
        message.ends_with("is not UTF-8 text: byte 0xe9 at line 2, column 15 (offset 28)"),
        "{message}"
    );
}

#[test]
fn a_file_over_the_size_limit_is_refused_unread() {
    let dir = scratch("large");
    let line = "// a comment line of padding\n";
    let text = line.repeat(gloam_grammar::MAX_FILE_BYTES / line.len() + 1);
    std::fs::write(dir.join("large.gloam"), text).unwrap();
    let (sources, problems) = read_paths(&[dir]);
    assert!(sources.is_empty());
    assert_eq!(codes(&problems), ["gloam::io::not_data"]);
    assert!(
        problems[0].to_string().contains("larger than the limit"),
        "{}",
        problems[0]
    );
    // Given as text directly, the loader refuses it too.
    let source = gloam::load::Source::new("large.gloam", line.repeat(80_000));
    let (_, problems) = gloam_grammar::load(&[source]);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].code_str(), "gloam::grammar::too_large");
}

#[test]
fn forty_thousand_duplicates_are_reported_three_times_and_counted() {
    // Issue 17: 40,000 duplicate keywords printed 40,000 diagnostics (12 MB of JSON) and
    // took 27 s, locating each one by reading the file from its start.
    let dir = scratch("duplicates");
    let keywords = vec!["leader"; 40_000].join(",\n");
    let file = dir.join("dups.gloam");
    std::fs::write(
        &file,
        format!("ruleset \"d\" {{\n title = \"D\"\n rounds = 1\n min_players = 2\n max_players = 2\n keywords = [\n{keywords}\n]\n}}\n"),
    )
    .unwrap();
    let file = file.display().to_string();
    let (code, out, _) = gloam(&["check", &file]);
    assert_eq!(code, 1);
    assert_eq!(
        out.matches("appears twice in `keywords`").count(),
        3,
        "{out}"
    );
    assert!(out.contains("and 39996 more like it"), "{out}");
    assert!(out.ends_with("checked 1 file: 39999 errors\n"), "{out}");
    let (_, json, _) = gloam(&["check", "--json", &file]);
    let array: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    assert_eq!(array.len(), 3);
    assert_eq!(array[2]["more"], 39_996);
    assert_eq!(
        array[2]["line"], 10,
        "the third duplicate: lines 8, 9 and 10"
    );
}

#[test]
fn a_forty_kilobyte_layout_row_gets_one_short_diagnostic() {
    // Issue 17: one diagnostic per character, each reprinting the line: 1.6 GB of output.
    let dir = scratch("wide");
    let row = ". ".repeat(20_000);
    let file = dir.join("wide.gloam");
    std::fs::write(
        &file,
        format!("board \"b\" {{\n ruleset = \"r\"\n layout = \"\n{row}\n\"\n}}\n"),
    )
    .unwrap();
    let (code, out, _) = gloam(&["check", &file.display().to_string()]);
    assert_eq!(code, 1);
    assert!(out.len() < 1_000, "{out}");
    assert!(
        out.contains("line 4 is 40000 characters long, more than the limit of 4000"),
        "{out}"
    );
    assert!(out.contains("the line is too long to show"), "{out}");
}

#[cfg(unix)]
#[test]
fn a_save_that_fails_keeps_the_previous_one_and_the_game_goes_on() {
    // Issue 17: a save over the file size limit truncated the previous save in place and
    // ended the game. The shell ignores SIGXFSZ so the write fails with EFBIG instead.
    use std::io::Write as _;
    let dir = scratch("save");
    let save = dir.join("game.json");
    let play = |limit: Option<u32>, input: &str| {
        let command = format!(
            "trap '' XFSZ; {} exec \"$0\" play harrowdeep --opponent random --save \"$1\"",
            limit.map_or(String::new(), |blocks| format!("ulimit -f {blocks};"))
        );
        let mut child = Command::new("sh")
            .args(["-c", &command, env!("CARGO_BIN_EXE_gloam")])
            .arg(&save)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("gloam runs");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, _) = play(None, "quit\n");
    assert_eq!(code, Some(0));
    let before = std::fs::read(&save).expect("the first save");
    let (code, out) = play(Some(4), "1\nsave\nquit\nquit\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("not saved: cannot write") && out.contains("the game goes on\n"),
        "{out}"
    );
    assert!(
        out.contains("type `quit` again to leave without saving"),
        "{out}"
    );
    assert_eq!(
        std::fs::read(&save).unwrap(),
        before,
        "the previous save is intact"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file is left");
    let replayed = gloam::save::SavedGame::from_json(&String::from_utf8(before).unwrap());
    assert!(replayed.is_ok());
}

#[test]
fn check_with_width_zero_still_renders() {
    let (code, out, err) = gloam(&[
        "check",
        "--width",
        "0",
        "tests/fail/duplicate_field.gloam",
        "tests/fail/base",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("gloam::grammar::duplicate_field"), "{out}");
}

/// A short real game saved by `gloam play` (one answer, then `quit`), as JSON.
fn a_saved_game(name: &str) -> serde_json::Value {
    let dir = scratch(name);
    let save = dir.join("game.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gloam"))
        .args(["play", "harrowdeep", "--opponent", "random", "--save"])
        .arg(&save)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("gloam runs");
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1\n1\nquit\n")
        .unwrap();
    assert!(child.wait().unwrap().success());
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    value["data"] = serde_json::json!([Path::new(env!("CARGO_MANIFEST_DIR")).join("cards")]);
    value
}

fn replay(value: &serde_json::Value) -> Result<(), String> {
    let saved = gloam::save::SavedGame::from_json(&value.to_string()).map_err(|e| e.to_string())?;
    saved.replay().map(|_| ()).map_err(|e| e.to_string())
}

#[test]
fn replay_errors_say_what_differs_and_name_the_players() {
    let good = a_saved_game("replay");
    replay(&good).expect("the save replays");

    // An event changed: both events are told, in words.
    let mut changed = good.clone();
    let events = changed["events"].as_array_mut().unwrap();
    let last = events.len() - 1;
    assert_ne!(events[0], events[last]);
    events[last] = events[0].clone();
    let error = replay(&changed).unwrap_err();
    assert!(error.contains(&format!("at event {last} of")), "{error}");
    let (_, told) = error
        .split_once(": the save has ")
        .expect("the saved event told");
    let (saved, replayed) = told
        .split_once("; the replay has ")
        .expect("the replayed one");
    assert!(
        !saved.is_empty() && !replayed.is_empty() && saved != replayed,
        "{error}"
    );

    // An answer given by the wrong player: named, with whom the game waited for.
    let mut wrong = good.clone();
    let answers = wrong["record"]["answers"].as_array_mut().unwrap();
    let player = answers[0][0].as_u64().unwrap();
    answers[0][0] = serde_json::json!(1 - player);
    let error = replay(&wrong).unwrap_err();
    assert!(error.contains("answer 1 of"), "{error}");
    assert!(error.contains("(seat "), "{error}");
    assert!(error.contains("the game was waiting for "), "{error}");
    assert!(!error.contains("player0"), "{error}");

    // A renamed player, and two players of one name.
    let mut renamed = good.clone();
    renamed["record"]["setup"]["players"][1] = serde_json::json!("Mallory");
    let error = replay(&renamed).unwrap_err();
    assert!(error.contains("a player was renamed"), "{error}");
    assert!(error.contains("Mallory"), "{error}");
    let mut twins = good.clone();
    let first = twins["record"]["setup"]["players"][0].clone();
    twins["record"]["setup"]["players"][1] = first.clone();
    twins["match"]["seats"][1]["name"] = first;
    let error = replay(&twins).unwrap_err();
    assert!(error.contains("names two players"), "{error}");

    // A seat the game does not have.
    let mut stranger = good;
    stranger["record"]["answers"][0][0] = serde_json::json!(7);
    let error = replay(&stranger).unwrap_err();
    assert!(
        error.contains("an answer by seat 7, but the game has 2 players"),
        "{error}"
    );
}

#[test]
fn the_soak_invariants_catch_negative_damage() {
    // Issue 17: `add_counter` could drive damage below zero where `deal_damage` and `heal`
    // refuse negative amounts. Scripts are now refused (dsl: `damage_and_glory_counters_
    // refuse_to_go_below_zero`); the kernel gives counter names no meaning, so the soak
    // (`gloam sim`) still checks the state and reports such a game.
    use gloam::core::{Ctx, GameState, Hex, PlayerId, Position, Scope};
    let mut state = GameState::new(2, &["Ann", "Bo"]);
    let mut log = Vec::new();
    let mut ctx = Ctx::new(&mut state, &mut log);
    let piece = ctx.create_piece(PlayerId(0), "fighter", []).unwrap();
    ctx.place_piece(piece, Some(Position::Hex(Hex::ORIGIN)), vec![], "deploy")
        .unwrap();
    ctx.add_counter(Scope::Piece(piece), "damage", -1).unwrap();
    let broken = gloam::sim::check_invariants(&state).unwrap_err();
    assert!(
        broken.contains("-1 damage: damage is never negative"),
        "{broken}"
    );
}

/// The soak's Wounds check: more damage than Wounds is caught; a fighter without damage is
/// only passed over when Wounds have a floor of 0 or more (they cannot be below it), so
/// Wounds below zero without a floor are still caught.
#[test]
fn the_soak_invariants_compare_damage_with_wounds() {
    use gloam::core::{Ctx, GameState, Hex, PlayerId, Position, Scope};
    let standing = |wounds: i64, damage: i64, floor: Option<i64>| {
        let mut state = GameState::new(2, &["Ann", "Bo"]);
        let mut log = Vec::new();
        let mut ctx = Ctx::new(&mut state, &mut log);
        if let Some(floor) = floor {
            ctx.set_floor("wounds", floor).unwrap();
        }
        let piece = ctx
            .create_piece(PlayerId(0), "fighter", [("wounds".to_owned(), wounds)])
            .unwrap();
        ctx.place_piece(piece, Some(Position::Hex(Hex::ORIGIN)), vec![], "deploy")
            .unwrap();
        ctx.add_counter(Scope::Piece(piece), "damage", damage)
            .unwrap();
        gloam::sim::check_invariants(&state)
    };
    let broken = standing(2, 3, Some(1)).unwrap_err();
    assert!(broken.contains("with 3 damage and 2 wounds"), "{broken}");
    assert_eq!(standing(2, 2, Some(1)), Ok(()));
    assert_eq!(standing(2, 0, Some(1)), Ok(()));
    let broken = standing(-1, 0, None).unwrap_err();
    assert!(broken.contains("with 0 damage and -1 wounds"), "{broken}");
    // A floor below zero does not vouch for Wounds of zero or more.
    let broken = standing(-3, 0, Some(-5)).unwrap_err();
    assert!(broken.contains("with 0 damage and -3 wounds"), "{broken}");
    assert_eq!(standing(-3, 0, Some(0)), Ok(()));
}

/// Issue 17 item 6: every limit the runtime enforces on data is checked at load. A roll in a
/// script holds its faces as a list of names, so one roll of the testbed's attack or defence
/// die (longest face `double_support`, 14 characters; a list holds 4096) has at most 292
/// dice: exactly 292 loads, 293 is refused at load with the same reason the
/// runtime gives.
#[test]
fn dice_counts_in_data_are_checked_against_one_roll_at_load() {
    let warband = |defence: i64, dice: i64| {
        format!(
            r#"warband "Hoarders" {{
    ruleset = "testbed"
    alliance = order
    fighter "Counter" {{
        keywords = [leader]
        stats = [move: 3, defence: {defence}, wounds: 4]
        symbols = [defence: block]
        weapon "Avalanche" {{
            range = 1
            dice = {dice}
            symbol = hammer
            damage = 1
        }}
    }}
}}
"#
        )
    };
    let check = |defence: i64, dice: i64| {
        let sources = vec![
            gloam::load::Source::new("testbed.gloam", testbed()),
            gloam::load::Source::new("hoarders.gloam", warband(defence, dice)),
        ];
        let (_, problems) = gloam::load::load(&sources, &gloam_dsl::Host::new());
        problems
            .iter()
            .map(|problem| problem.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(check(292, 292), Vec::<String>::new());
    assert_eq!(
        check(293, 292),
        ["`defence` is 293, more dice than one roll may have"]
    );
    assert_eq!(
        check(292, 293),
        ["`dice` is 293, more dice than one roll may have"]
    );
    // A host with a larger list allows more, up to the kernel's 1000 dice a roll.
    let roomy = gloam_dsl::Host::with_limits(gloam_dsl::Limits {
        string_size: 1 << 20,
        array_size: 1 << 20,
        ..gloam_dsl::Limits::default()
    });
    let sources = vec![
        gloam::load::Source::new("testbed.gloam", testbed()),
        gloam::load::Source::new("hoarders.gloam", warband(1000, 1001)),
    ];
    let (_, problems) = gloam::load::load(&sources, &roomy);
    let messages: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        messages,
        ["`dice` is 1001, more dice than one roll may have"]
    );
    use miette::Diagnostic as _;
    let help = problems[0]
        .help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    assert!(help.contains("a roll has at most 1000 dice"), "{help}");
}

/// `dice` on a characteristic names one of the ruleset's dice, with a did-you-mean.
#[test]
fn a_characteristic_declared_as_dice_names_a_declared_die() {
    let ruleset = testbed().replace("dice = defence", "dice = defense");
    let sources = vec![gloam::load::Source::new("testbed.gloam", ruleset)];
    let (_, problems) = gloam::load::load(&sources, &gloam_dsl::Host::new());
    let messages: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(messages, ["unknown die `defense`"]);
    use miette::Diagnostic as _;
    assert_eq!(
        problems[0].help().map(|h| h.to_string()).as_deref(),
        Some("did you mean `defence`?")
    );
}
