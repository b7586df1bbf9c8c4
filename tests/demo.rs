//! The kernel demonstration game, played end to end through the facade.

use gloam::agent::{Agent, RandomAgent};
use gloam::core::{Answer, Choice, Event, Game, GameError, PlayerId, Record, Setup};
use gloam::demo::{AggressiveAgent, Demo};

fn play(seed: u64) -> Game<Demo> {
    let demo = Demo::builtin().expect("built-in demo data loads");
    let mut game = Game::start(demo, Setup::new(seed, &["Ann", "Bo"]), Demo::first_frames())
        .expect("the demo starts");
    let mut agents: [Box<dyn Agent>; 2] = [
        Box::new(AggressiveAgent::new(seed)),
        Box::new(RandomAgent::new(seed + 1)),
    ];
    while !game.is_over() {
        let request = game.pending()[0].clone();
        let view = game.view(request.player);
        let answer = agents[request.player.0 as usize].choose(&view, &request);
        game.submit(request.player, answer)
            .expect("agents answer legally");
        game.state()
            .check_invariants()
            .expect("kernel invariants hold");
    }
    game
}

fn log_json(game: &Game<Demo>) -> String {
    serde_json::to_string(game.events()).unwrap()
}

#[test]
fn demo_games_end_with_a_result_and_keep_invariants() {
    for seed in 0..200 {
        let game = play(seed);
        let result = game.state().result.as_ref().expect("a result");
        assert!(!result.winners.is_empty());
        for piece in game.state().pieces.values() {
            let damage = piece.counters.get("damage").copied().unwrap_or(0);
            let wounds = piece.characteristics["wounds"];
            assert!(damage <= wounds + 1, "damage stays near the wounds limit");
            assert_eq!(
                piece.position.is_none(),
                damage >= wounds,
                "out of action iff slain"
            );
        }
    }
}

#[test]
fn demo_replays_byte_for_byte_from_its_record() {
    for seed in [1, 17, 4242] {
        let game = play(seed);
        let record_text = serde_json::to_string(game.record()).unwrap();
        let record: Record = serde_json::from_str(&record_text).unwrap();
        let replayed =
            Game::replay(Demo::builtin().unwrap(), &record, Demo::first_frames()).unwrap();
        assert_eq!(log_json(&replayed), log_json(&game));
    }
}

#[test]
fn demo_same_seed_same_game_and_seeds_differ() {
    assert_eq!(log_json(&play(9)), log_json(&play(9)));
    let distinct: std::collections::BTreeSet<String> =
        (0..10).map(|s| log_json(&play(s))).collect();
    assert!(distinct.len() >= 9);
}

#[test]
fn demo_attacks_roll_dice_defined_in_the_data() {
    let game = play(3);
    let faces = [
        "critical",
        "hammer",
        "swords",
        "single_support",
        "double_support",
        "block",
        "dodge",
    ];
    let mut rolled = 0;
    for event in game.events() {
        if let Event::Rolled { dice, .. } = event {
            rolled += dice.len();
            assert!(dice.iter().all(|d| faces.contains(&d.face.as_str())));
        }
    }
    assert!(rolled > 0, "an aggressive agent attacks at least once");
}

#[test]
fn demo_refuses_a_move_to_a_blocked_hex_and_changes_nothing() {
    let demo = Demo::builtin().unwrap();
    let mut game = Game::start(demo, Setup::new(5, &["Ann", "Bo"]), Demo::first_frames()).unwrap();
    let player = game.pending()[0].player;
    let fighter = game
        .state()
        .pieces
        .values()
        .find(|p| p.owner == player)
        .unwrap()
        .id;
    game.submit(player, Answer::One(Choice::Piece(fighter)))
        .unwrap();
    let before = game.state().clone();
    let events = game.events().len();
    // (0, 0) is blocked in cards/demo/skirmish.json.
    let error = game
        .submit(
            player,
            Answer::One(Choice::Hex(gloam::core::Hex::new(0, 0))),
        )
        .unwrap_err();
    assert!(matches!(error, GameError::Decision(_)), "{error}");
    assert_eq!(game.state(), &before);
    assert_eq!(game.events().len(), events);
    // The other player cannot answer for them either.
    let other = PlayerId(1 - player.0);
    assert!(game.submit(other, Answer::One(Choice::Pass)).is_err());
}

#[test]
fn demo_data_errors_are_reported_not_panicked() {
    let broken = Demo::builtin_text().replace("\"radius\": 3", "\"radius\": \"three\"");
    let error = Demo::from_json(&broken).unwrap_err().to_string();
    assert!(error.contains("demo data"), "{error}");
    let off_board = Demo::builtin_text().replace("[-3, 1], [-3, 2]", "[-9, 1], [-3, 2]");
    let error = Demo::from_json(&off_board).unwrap_err().to_string();
    assert!(error.contains("off the board"), "{error}");
}
