//! Harrowdeep played end to end from the data in cards/harrowdeep (seed 002).

use std::path::PathBuf;

use gloam::agent::{Agent, RandomAgent};
use gloam::core::{Answer, Choice, Game, GameError, Options, Record};
use gloam::engine::RulesetGame;
use gloam::sim::{check_invariants, play_one, prepare};

fn rules() -> RulesetGame {
    prepare(
        &[PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")],
        "harrowdeep",
    )
    .expect("the shipped Harrowdeep data sets up a match")
}

fn play(rules: &RulesetGame, seed: u64) -> Game<RulesetGame> {
    let mut game = Game::start(
        rules.clone(),
        rules.setup(seed),
        RulesetGame::first_frames(),
    )
    .unwrap();
    let mut agents = [RandomAgent::new(seed), RandomAgent::new(seed + 1)];
    while !game.is_over() {
        let request = game.pending()[0].clone();
        let answer = agents[request.player.0 as usize].choose(&game.view(request.player), &request);
        game.submit(request.player, answer).unwrap();
        check_invariants(game.state()).unwrap();
    }
    game
}

#[test]
fn whole_games_end_with_a_result_and_keep_the_invariants() {
    let rules = rules();
    for seed in [1, 2, 3] {
        let summary = play_one(&rules, seed);
        assert_eq!(summary.error, None, "seed {seed}");
        assert!(!summary.winners.is_empty());
        assert!(
            summary.decisions > 20,
            "a real game takes decisions: {}",
            summary.decisions
        );
    }
}

#[test]
fn games_last_three_rounds() {
    // Harrowdeep, rounds: three rounds of an action phase and an end phase.
    let game = play(&rules(), 5);
    assert_eq!(game.state().counter("round"), 3);
    let rounds = game
        .events()
        .iter()
        .filter(|e| matches!(e, gloam::core::Event::Marker { name, .. } if name == "round_start"))
        .count();
    assert_eq!(rounds, 3);
}

#[test]
fn a_game_replays_byte_for_byte_from_its_record() {
    let rules = rules();
    let game = play(&rules, 8);
    let record: Record =
        serde_json::from_str(&serde_json::to_string(game.record()).unwrap()).unwrap();
    let replayed = Game::replay(rules.clone(), &record, RulesetGame::first_frames()).unwrap();
    assert_eq!(
        serde_json::to_string(replayed.events()).unwrap(),
        serde_json::to_string(game.events()).unwrap()
    );
}

#[test]
fn an_illegal_answer_changes_nothing() {
    let rules = rules();
    let mut game = Game::start(rules.clone(), rules.setup(4), RulesetGame::first_frames()).unwrap();
    let request = game.pending()[0].clone();
    let before = game.state().clone();
    let events = game.events().len();
    let illegal = match &request.options {
        Options::One { .. } => Answer::One(Choice::Option("not an option".into())),
        _ => Answer::Several(vec![]),
    };
    let error = game.submit(request.player, illegal).unwrap_err();
    assert!(matches!(error, GameError::Decision(_)), "{error}");
    assert_eq!(game.state(), &before);
    assert_eq!(game.events().len(), events);
}

#[test]
fn the_two_boards_join_long_edge_to_long_edge_with_at_least_four_completed_hexes() {
    // Harrowdeep, set-up step 2: at least four completed hexes.
    let rules = rules();
    let completed = rules.battlefield().completed_hexes().len();
    assert!(completed >= 4, "{completed} completed hexes");
    // Each board is its player's territory; the completed hexes are no one's.
    assert!(
        rules
            .battlefield()
            .hexes()
            .any(|h| rules.battlefield().territory(h) == Some("player0"))
    );
    assert!(
        rules
            .battlefield()
            .hexes()
            .any(|h| rules.battlefield().territory(h) == Some("player1"))
    );
}
