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
fn tutorial_first_check_reports_every_mistake() {
    let dir = workspace(&[("my_cards_broken.gloam", "my_cards.gloam")]);
    assert_in_doc("broken card", &file("my_cards_broken.gloam"));
    let (code, out) = gloam(&dir, &["check", "cards/underworlds", "my_cards.gloam"]);
    assert_eq!(code, 1);
    assert_in_doc("first check output", &out);
}

#[test]
fn tutorial_fixed_card_checks_clean_and_tries() {
    let dir = workspace(&[("my_cards.gloam", "my_cards.gloam")]);
    assert_in_doc("fixed card", &file("my_cards.gloam"));
    let (code, out) = gloam(&dir, &["check", "cards/underworlds", "my_cards.gloam"]);
    assert_eq!(code, 0, "{out}");
    assert_in_doc("clean check", &out);
    let (code, out) = gloam(
        &dir,
        &[
            "try",
            "--card",
            "Heroic Shove",
            "--data",
            "cards/underworlds",
            "--data",
            "my_cards.gloam",
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
    let (code, out) = gloam(
        &dir,
        &[
            "check",
            "cards/underworlds",
            "cards/harrowdeep",
            "house.gloam",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert_in_doc("house check", &out);
    let (code, out) = gloam(
        &dir,
        &[
            "check",
            "cards/underworlds",
            "cards/harrowdeep",
            "house_wrong.gloam",
        ],
    );
    assert_eq!(code, 1);
    let report = out.split("\nchecked").next().unwrap();
    assert_in_doc("wrong-ruleset output", report.trim_end());
}

/// Plays seeded games of `ruleset` from the shipped data and the `extra` files, with random
/// agents that play a card whenever they can and pick one of `cards` whenever one is
/// offered, until each of `cards` has been played (its effect seen running in the game, in
/// a `card` frame of the flow). Returns the cards still unplayed, or the first error a
/// game met.
fn play_until_played(
    extra: &[PathBuf],
    ruleset: &str,
    cards: &[&str],
    games: u64,
    expect_failure: bool,
) -> Result<Vec<String>, String> {
    use gloam::agent::random_answer;
    use gloam::core::{Answer, Choice, Game, GameRng, Options, Value};
    use gloam::engine::RulesetGame;

    let mut paths = vec![root().join("cards")];
    paths.extend(extra.iter().cloned());
    let rules = gloam::sim::prepare(&paths, ruleset)?;
    let mut unplayed: Vec<String> = cards.iter().map(|c| (*c).to_owned()).collect();
    for seed in 1..=games {
        if unplayed.is_empty() {
            break;
        }
        let mut game = Game::start(
            rules.clone(),
            rules.setup(seed),
            RulesetGame::first_frames(),
        )
        .map_err(|e| e.to_string())?;
        let mut rng = GameRng::from_seed(seed);
        let mut decisions = 0;
        while !game.is_over() && decisions < 5000 {
            decisions += 1;
            let state = game.state();
            // A card of ours whose effect is running (stopped at one of its choices). A card
            // expected to fail is kept in the list, so that games go on until it does.
            unplayed.retain(|name| {
                expect_failure
                    || !state.flow.iter().any(|frame| {
                        frame.step == "card"
                            && matches!(frame.var("card"), Some(Value::Card(id))
                            if state.cards.get(id).is_some_and(|c| c.name == *name))
                    })
            });
            let request = game.pending()[0].clone();
            let ours = |choice: &Choice| match choice {
                Choice::Card(id) => state
                    .cards
                    .get(id)
                    .is_some_and(|c| unplayed.contains(&c.name)),
                Choice::Option(option) => option == "play a card",
                _ => false,
            };
            let answer = match &request.options {
                Options::One { choices } => match choices.iter().find(|c| ours(c)) {
                    Some(choice) => Answer::One(choice.clone()),
                    None => random_answer(&mut rng, &request),
                },
                _ => random_answer(&mut rng, &request),
            };
            game.submit(request.player, answer)
                .map_err(|e| format!("game {seed}, decision {decisions}: {e}"))?;
        }
    }
    Ok(unplayed)
}

#[test]
fn issue_0011_every_card_of_the_tutorial_plays_in_real_games() {
    let dir = root().join("docs/tutorial");
    let unplayed = play_until_played(
        &[dir.join("my_cards.gloam")],
        "harrowdeep",
        &["Heroic Shove"],
        20,
        false,
    )
    .unwrap();
    assert!(unplayed.is_empty(), "never played: {unplayed:?}");
    let unplayed = play_until_played(
        &[dir.join("my_cards.gloam"), dir.join("house.gloam")],
        "harrowdeep_house",
        &["Heroic Shove", "Rallying Cry"],
        20,
        false,
    )
    .unwrap();
    assert!(unplayed.is_empty(), "never played: {unplayed:?}");
}

/// A scratch file under the system's temporary folder.
fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gloam-located-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const MISFIRE: &str = "card \"Misfire\" {\n    ruleset = \"harrowdeep\"\n    kind = ploy\n    owner = universal\n    window = power_step\n    text = \"Nothing happens.\"\n    effect = {\n        let nobody = enemy_fighters().filter(|f| false);\n        choose_fighter(nobody, \"Whom?\");\n    }\n}\n";

#[test]
fn issue_0011_an_error_in_play_names_the_card_its_file_line_and_column() {
    let path = scratch("misfire.gloam", MISFIRE);
    let error = play_until_played(
        std::slice::from_ref(&path),
        "harrowdeep",
        &["Misfire"],
        20,
        true,
    )
    .unwrap_err();
    let file = path.display().to_string();
    assert!(error.contains("card \"Misfire\" effect failed"), "{error}");
    assert!(
        error.contains(&format!("(at {file}:9:9)")),
        "the error names the file, line and column of the failing call: {error}"
    );
}

#[test]
fn issue_0011_sim_reports_a_failing_step_with_its_file_line_and_column() {
    let path = scratch(
        "broken_step.gloam",
        "ruleset \"harrowdeep_broken\" {\n    extends = \"harrowdeep\"\n    title = \"Harrowdeep with a broken step\"\n\n    step \"draw_hands\" {\n        about = \"fails\"\n        run = { choose_fighter([], \"Nobody\"); }\n    }\n}\n",
    );
    let dir = path.parent().unwrap();
    let (code, out) = gloam(
        dir,
        &[
            "sim",
            "harrowdeep_broken",
            "--data",
            root().join("cards").to_str().unwrap(),
            "--data",
            "broken_step.gloam",
            "--games",
            "1",
        ],
    );
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("step \"draw_hands\" run failed") && out.contains("broken_step.gloam:7:17"),
        "{out}"
    );
}

#[test]
fn tutorial_careless_card_fails_in_a_game_with_the_error_the_tutorial_shows() {
    let path = root().join("docs/tutorial/my_cards_careless.gloam");
    assert_in_doc("careless card", &file("my_cards_careless.gloam"));
    let error = play_until_played(
        std::slice::from_ref(&path),
        "harrowdeep",
        &["Heroic Shove"],
        20,
        true,
    )
    .unwrap_err();
    // The tutorial shows the message from the file's own folder.
    let message = error
        .split_once(": rule step")
        .map(|(_, rest)| format!("rule step{rest}"))
        .unwrap_or_default()
        .replace(&path.display().to_string(), "my_cards.gloam");
    assert_in_doc("careless card's error", &message);
}
