//! Narration in players' words over whole games of each shipped ruleset (issue 16, item 4).
//!
//! Before this work the narration printed cards by their ids (`Bo chooses card13
//! (choose_card)`), every counter the rules keep (`Bo's Taros (#8): supported_in_attack 0 ->
//! 1`), prompt ids (`(choose_fighter)`) and roll-offs as if one player rolled every die (the
//! roll-off scripts rolled for the step's player). These tests check each line of whole games,
//! told to a viewer and to nobody in particular, for what must never leak, and that the lines
//! players need are there: who attacks whom with which weapon, the result in the edition's
//! words, damage, objectives scored with their glory, and roll-offs with each roller named.

use std::path::PathBuf;

use gloam::agent::{Agent as _, RandomAgent};
use gloam::engine::RulesetGame;
use gloam::narrate::{Narrator, TRACKED_COUNTERS, narrate};
use gloam_core::{Event, Game, PlayerId};

fn cards_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")
}

/// A whole game between random agents.
fn play(ruleset: &str, seed: u64) -> (RulesetGame, Game<RulesetGame>) {
    let rules = gloam::sim::prepare(&[cards_dir()], ruleset).expect("the ruleset loads");
    let mut game = Game::start(
        rules.clone(),
        rules.setup(seed),
        RulesetGame::first_frames(),
    )
    .expect("the game starts");
    let mut agent = RandomAgent::new(seed);
    let mut answers = 0;
    while !game.is_over() {
        let request = game.pending()[0].clone();
        let answer = agent.choose(&game.view(request.player), &request);
        game.submit(request.player, answer).expect("a legal answer");
        answers += 1;
        assert!(
            answers < 20_000,
            "{ruleset} seed {seed}: the game does not end"
        );
    }
    (rules, game)
}

/// Every line a player (seat 0) reads in `gloam play`, and every line of the whole log told
/// to no one in particular (as `replay` does).
fn narration(rules: &RulesetGame, game: &Game<RulesetGame>) -> (Vec<String>, Vec<String>) {
    let viewer = PlayerId(0);
    let seen: Vec<Event> = game.events_for(viewer);
    let told = Narrator::new(rules)
        .for_viewer(viewer)
        .lines(&seen, game.state());
    let all: Vec<String> = game
        .events()
        .iter()
        .filter_map(|event| narrate(event, game.state()))
        .collect();
    (told, all)
}

/// What no narration line may contain: ids, internal counters, step names, prompt ids.
fn check_line(ruleset: &str, line: &str, counters: &[String]) {
    let digits_after = |word: &str| {
        line.match_indices(word).any(|(at, _)| {
            line[at + word.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
    };
    assert!(!digits_after("card"), "{ruleset}: a card id in `{line}`");
    assert!(!digits_after("piece"), "{ruleset}: a piece id in `{line}`");
    assert!(
        !line.contains("(#"),
        "{ruleset}: a piece number in `{line}`"
    );
    assert!(!line.contains("->"), "{ruleset}: a raw change in `{line}`");
    assert!(
        !line.contains("step \""),
        "{ruleset}: a step name in `{line}`"
    );
    // Data names with underscores (counters, prompt kinds such as `choose_fighter`, step
    // names, faces such as `single_support`) are never shown raw.
    assert!(
        !line.contains('_'),
        "{ruleset}: an internal name in `{line}`"
    );
    // The old form of a counter line was `NAME: COUNTER FROM -> TO`; the arrow is checked
    // above. A counter players do not track never starts a sentence about its change.
    for counter in counters {
        if TRACKED_COUNTERS.contains(&counter.as_str()) {
            continue;
        }
        assert!(
            !line.contains(&format!(": {counter} ")),
            "{ruleset}: the counter {counter} in `{line}`"
        );
    }
}

fn check_game(ruleset: &str, seed: u64) -> Vec<String> {
    let (rules, game) = play(ruleset, seed);
    let (told, all) = narration(&rules, &game);
    let counters = rules.ruleset().counters.clone();
    for line in told.iter().chain(&all) {
        check_line(ruleset, line, &counters);
    }
    // The viewer is told the other player's draws as a number, never the card.
    let other = &game.state().players[1].name;
    for line in &told {
        if let Some(rest) = line.strip_prefix(&format!("{other} draws ")) {
            assert!(
                rest.starts_with(|c: char| c.is_ascii_digit()),
                "{ruleset}: the viewer sees the other player's draw: `{line}`"
            );
        }
    }
    // Each objective scored (a card moved to the zone `scored`) is told with its glory.
    let scored = game
        .events_for(PlayerId(0))
        .iter()
        .filter(|e| matches!(e, Event::CardMoved { to, .. } if to.name == "scored"))
        .count();
    let told_scored = told
        .iter()
        .filter(|l| l.contains(" scores ") && l.contains(" glory point"))
        .count();
    assert_eq!(scored, told_scored, "{ruleset} seed {seed}: {told:?}");
    told
}

/// Lines every edition's games must have, over a few seeds.
fn check_ruleset(ruleset: &str, attack_results: &[&str]) {
    let mut lines = Vec::new();
    for seed in 1..=3 {
        lines.extend(check_game(ruleset, seed));
    }
    let has = |pred: &dyn Fn(&str) -> bool| lines.iter().any(|l| pred(l));
    // Roll-offs: each player rolls their own dice, and the winner is named.
    let first_win = lines
        .iter()
        .position(|l| l.ends_with("wins the roll-off"))
        .unwrap_or_else(|| panic!("{ruleset}: no roll-off winner is named"));
    for name in ["Ann", "Bo"] {
        assert!(
            lines[..first_win]
                .iter()
                .any(|l| l.starts_with(&format!("{name} rolls"))),
            "{ruleset}: {name} does not roll in the first roll-off: {:?}",
            &lines[..first_win]
        );
    }
    // Attacks: who, whom, which weapon; the result in the edition's words; damage.
    assert!(
        has(&|l| l.contains(" attacks ") && l.contains(" with ")),
        "{ruleset}: no attack is narrated"
    );
    for result in attack_results {
        assert!(
            has(&|l| l == *result),
            "{ruleset}: no `{result}` over three games"
        );
    }
    assert!(
        has(&|l| l.contains(" takes ") && l.contains(" damage (")),
        "{ruleset}: no damage is narrated"
    );
    assert!(
        has(&|l| l.contains(" gains ") && l.contains(" glory point")),
        "{ruleset}: no glory is gained"
    );
    assert!(has(&|l| l.starts_with("game over: ")), "{ruleset}: no end");
}

#[test]
fn harrowdeep_narration_is_in_players_words() {
    check_ruleset(
        "harrowdeep",
        &["the attack is a hit", "the attack is a miss"],
    );
}

#[test]
fn shadespire_narration_is_in_players_words() {
    check_ruleset(
        "shadespire",
        &["the attack is a success", "the attack is a failure"],
    );
}

#[test]
fn embergard_narration_is_in_players_words() {
    check_ruleset("embergard", &["the attack succeeds", "the attack fails"]);
}

#[test]
fn a_weapon_named_in_an_attack_line_is_the_attackers() {
    let (rules, game) = play("harrowdeep", 2);
    let (told, _) = narration(&rules, &game);
    let weapons: Vec<String> = rules
        .library()
        .warbands()
        .iter()
        .flat_map(|w| w.fighters.iter())
        .flat_map(|f| f.weapons.iter().map(|w| w.name.clone()))
        .chain(
            rules
                .library()
                .cards()
                .iter()
                .flat_map(|c| c.weapons.iter().map(|w| w.name.clone())),
        )
        .collect();
    let attacks: Vec<&String> = told.iter().filter(|l| l.contains(" attacks ")).collect();
    assert!(!attacks.is_empty());
    for line in attacks {
        let weapon = line.rsplit(" with ").next().unwrap_or_default();
        assert!(
            weapons.iter().any(|w| w == weapon),
            "`{weapon}` in `{line}` is no weapon"
        );
    }
}

/// A model on a measured table that only turns (Umbra Turris's heroes face their enemies
/// after set-up and each move, seed 003 L292) is told as a turn, never as a move of 0 cm
/// "nowhere".
#[test]
fn a_model_that_only_turns_is_told_as_turning() {
    let (rules, game) = play("umbra_turris", 1);
    let (told, all) = narration(&rules, &game);
    for line in told.iter().chain(&all) {
        assert!(
            !line.contains("nowhere") && !line.contains(" moves 0.0 cm"),
            "a turn told as a move: `{line}`"
        );
    }
    let turns: Vec<&String> = told
        .iter()
        .filter(|l| l.contains(" turns to face "))
        .collect();
    assert!(!turns.is_empty(), "no turn is told: {told:?}");
    let directions = [
        "north",
        "south",
        "east",
        "west",
        "north-east",
        "north-west",
        "south-east",
        "south-west",
    ];
    for line in turns {
        let direction = line
            .split(" turns to face ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_default();
        assert!(
            directions.contains(&direction),
            "`{line}` names no direction"
        );
    }
}
