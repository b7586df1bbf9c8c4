//! The kernel's decision protocol, driven by a small test ruleset.
//!
//! The ruleset (no real game): each player has a deck, a hand and a discard pile. On a
//! turn a player plays a card from hand (scoring a point and drawing) or passes. A card
//! named `dud` makes the rule fail after it has already moved the card (to prove rollback),
//! and the option `stall` makes the rule loop forever (to prove runaway detection). After
//! four turns both players bid in secret at once; the higher score plus bid wins.

use gloam_core::{
    Answer, Choice, Control, Ctx, DecisionError, Event, Frame, Game, GameError, GameResult,
    GameState, Options, PlayerId, Record, Request, RuleError, Rules, Scope, Setup, Value,
    Visibility, ZoneId,
};

#[derive(Clone, Debug)]
struct CardRules;

fn zone(player: PlayerId, name: &str) -> ZoneId {
    ZoneId::new(player, name)
}

impl Rules for CardRules {
    fn start(&self, ctx: &mut Ctx<'_>, setup: &Setup) -> Result<(), RuleError> {
        for seat in 0..setup.players.len() {
            let player = PlayerId(seat as u8);
            ctx.create_zone(zone(player, "deck"), Visibility::Nobody)?;
            ctx.create_zone(zone(player, "hand"), Visibility::Owner)?;
            ctx.create_zone(zone(player, "discard"), Visibility::Public)?;
            for name in ["ace", "two", "three", "dud", "five"] {
                ctx.create_card(name, player, &zone(player, "deck"))?;
            }
            ctx.shuffle(&zone(player, "deck"))?;
            for _ in 0..2 {
                let top = ctx.state().zone_cards(&zone(player, "deck"))[0];
                ctx.move_card(top, &zone(player, "hand"), usize::MAX)?;
            }
        }
        Ok(())
    }

    fn step(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
        match frame.step.as_str() {
            "turn" => self.turn(ctx, frame),
            "bid" => self.bid(ctx, frame),
            other => Err(RuleError::step(other, "unknown step")),
        }
    }
}

impl CardRules {
    fn turn(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
        let turn = ctx.state().counter("turn");
        let player = PlayerId((turn % 2) as u8);
        let Some(answer) = frame.answers.pop() else {
            let mut choices: Vec<Choice> = ctx
                .state()
                .zone_cards(&zone(player, "hand"))
                .iter()
                .map(|c| Choice::Card(*c))
                .collect();
            choices.push(Choice::Pass);
            choices.push(Choice::Option("stall".into()));
            return Ok(Control::Ask(Request {
                player,
                kind: "play_or_pass".into(),
                prompt: "Play a card from your hand, or pass".into(),
                options: Options::One { choices },
                secret: false,
            }));
        };
        match answer {
            Answer::One(Choice::Card(card)) => {
                ctx.move_card(card, &zone(player, "discard"), 0)?;
                if ctx.state().cards[&card].name == "dud" {
                    return Err(RuleError::step("turn", "a dud was played"));
                }
                ctx.add_counter(Scope::Player(player), "score", 1)?;
                if let Some(top) = ctx.state().zone_cards(&zone(player, "deck")).first() {
                    ctx.move_card(*top, &zone(player, "hand"), usize::MAX)?;
                }
            }
            Answer::One(Choice::Option(option)) if option == "stall" => {
                // Keep the answer and run again: a rule that never finishes.
                frame.answers.push(Answer::One(Choice::Option(option)));
                return Ok(Control::Continue);
            }
            _ => {}
        }
        ctx.marker("turn_end", Scope::Player(player), vec![])?;
        let next = ctx.add_counter(Scope::Game, "turn", 1)?;
        if next >= 4 {
            Ok(Control::Replace(vec![Frame::new("bid")]))
        } else {
            Ok(Control::Replace(vec![Frame::new("turn")]))
        }
    }

    fn bid(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
        if frame.answers.len() < 2 {
            let request = |seat: u8| Request {
                player: PlayerId(seat),
                kind: "secret_bid".into(),
                prompt: "Bid 0 to 3 in secret".into(),
                options: Options::One {
                    choices: (0..=3).map(Choice::Number).collect(),
                },
                secret: true,
            };
            return Ok(Control::AskAll(vec![request(0), request(1)]));
        }
        let total = |seat: usize| {
            let bid = match &frame.answers[seat] {
                Answer::One(Choice::Number(n)) => *n,
                _ => 0,
            };
            ctx.state().players[seat]
                .counters
                .get("score")
                .copied()
                .unwrap_or(0)
                + bid
        };
        let (a, b) = (total(0), total(1));
        let winners = match a.cmp(&b) {
            std::cmp::Ordering::Greater => vec![PlayerId(0)],
            std::cmp::Ordering::Less => vec![PlayerId(1)],
            std::cmp::Ordering::Equal => vec![PlayerId(0), PlayerId(1)],
        };
        Ok(Control::End(GameResult {
            winners,
            reason: format!("{a} to {b}"),
        }))
    }
}

fn new_game(seed: u64) -> Game<CardRules> {
    Game::start(
        CardRules,
        Setup::new(seed, &["Ann", "Bo"]),
        vec![Frame::new("turn")],
    )
    .expect("the test ruleset starts")
}

fn first_playable_card(game: &Game<CardRules>, avoid_dud: bool) -> Answer {
    let request = game.pending()[0];
    let Options::One { choices } = &request.options else {
        panic!("the test ruleset asks for one choice");
    };
    let card = choices.iter().find(|c| match c {
        Choice::Card(id) => !avoid_dud || game.state().cards[id].name != "dud",
        _ => false,
    });
    Answer::One(card.cloned().unwrap_or(Choice::Pass))
}

/// Plays a whole game with a fixed policy and returns it.
fn play_through(seed: u64) -> Game<CardRules> {
    let mut game = new_game(seed);
    while !game.is_over() {
        let request = game.pending()[0].clone();
        let answer = if request.kind == "secret_bid" {
            Answer::One(Choice::Number(2))
        } else {
            first_playable_card(&game, true)
        };
        game.submit(request.player, answer).expect("legal answer");
    }
    game
}

fn log_json(game: &Game<CardRules>) -> String {
    serde_json::to_string(game.events()).unwrap()
}

#[test]
fn illegal_answer_is_rejected_and_changes_nothing() {
    let mut game = new_game(3);
    let state_before = game.state().clone();
    let log_before = log_json(&game);
    let error = game
        .submit(PlayerId(0), Answer::One(Choice::Option("fly".into())))
        .unwrap_err();
    assert!(
        matches!(error, GameError::Decision(DecisionError::Illegal { .. })),
        "{error}"
    );
    assert!(error.to_string().contains("legal:"), "{error}");
    let wrong_player = game
        .submit(PlayerId(1), Answer::One(Choice::Pass))
        .unwrap_err();
    assert!(matches!(
        wrong_player,
        GameError::Decision(DecisionError::NotYourDecision { .. })
    ));
    let wrong_shape = game
        .submit(PlayerId(0), Answer::Several(vec![]))
        .unwrap_err();
    assert!(matches!(
        wrong_shape,
        GameError::Decision(DecisionError::WrongShape { .. })
    ));
    assert_eq!(game.state(), &state_before);
    assert_eq!(log_json(&game), log_before);
    assert!(game.record().answers.is_empty());
}

#[test]
fn failing_rule_rolls_back_the_card_it_already_moved() {
    // Find a seed where the first player holds the dud.
    let (mut game, dud) = (0..50)
        .find_map(|seed| {
            let game = new_game(seed);
            let hand = game.state().zone_cards(&zone(PlayerId(0), "hand")).to_vec();
            let dud = hand
                .into_iter()
                .find(|c| game.state().cards[c].name == "dud")?;
            Some((game, dud))
        })
        .expect("some seed deals the dud to the first hand");
    let state_before = game.state().clone();
    let events_before = game.events().len();
    let error = game
        .submit(PlayerId(0), Answer::One(Choice::Card(dud)))
        .unwrap_err();
    assert!(
        matches!(error, GameError::Rule(RuleError::Step { .. })),
        "{error}"
    );
    assert_eq!(game.state(), &state_before, "the dud is back in hand");
    assert_eq!(game.events().len(), events_before);
    game.state().check_invariants().unwrap();
    // The game goes on normally afterwards.
    game.submit(PlayerId(0), Answer::One(Choice::Pass)).unwrap();
}

#[test]
fn runaway_rule_is_stopped_and_changes_nothing() {
    let mut game = new_game(4);
    game.set_max_steps(10_000);
    let before = game.state().clone();
    let error = game
        .submit(PlayerId(0), Answer::One(Choice::Option("stall".into())))
        .unwrap_err();
    assert!(
        matches!(error, GameError::Rule(RuleError::Runaway { .. })),
        "{error}"
    );
    assert_eq!(game.state(), &before);
    assert!(
        game.record().answers.is_empty(),
        "a refused answer is not recorded"
    );
}

#[test]
fn replay_of_the_record_gives_the_same_log_byte_for_byte() {
    for seed in [1, 2, 99] {
        let game = play_through(seed);
        let record: Record =
            serde_json::from_str(&serde_json::to_string(game.record()).unwrap()).unwrap();
        let replayed = Game::replay(CardRules, &record, vec![Frame::new("turn")]).unwrap();
        assert_eq!(log_json(&replayed), log_json(&game));
        assert_eq!(replayed.state(), game.state());
    }
}

#[test]
fn different_seeds_deal_differently() {
    let logs: std::collections::BTreeSet<String> =
        (0..8).map(|seed| log_json(&new_game(seed))).collect();
    assert!(logs.len() > 1);
}

#[test]
fn state_saved_as_json_mid_game_resumes_identically() {
    let mut game = new_game(8);
    game.submit(PlayerId(0), first_playable_card(&game, true))
        .unwrap();
    let saved_state = serde_json::to_string(game.state()).unwrap();
    let saved_log = serde_json::to_string(game.events()).unwrap();
    let state: GameState = serde_json::from_str(&saved_state).unwrap();
    assert_eq!(&state, game.state());
    let log: Vec<Event> = serde_json::from_str(&saved_log).unwrap();
    let mut resumed = Game::resume(CardRules, state, log, game.record().clone());
    let answer = first_playable_card(&game, true);
    let player = game.pending()[0].player;
    game.submit(player, answer.clone()).unwrap();
    resumed.submit(player, answer).unwrap();
    assert_eq!(log_json(&resumed), log_json(&game));
}

#[test]
fn a_copy_of_the_state_keeps_its_frames_while_the_game_runs_on() {
    // The flow's frames are shared between copies of the state (`GameState::flow`): the
    // step that takes the answer changes the live game's frames only, and a step that
    // fails leaves the live game's frames as they were.
    let mut game = new_game(6);
    let copy = game.state().clone();
    let saved = serde_json::to_string(&copy).unwrap();
    let answer = first_playable_card(&game, true);
    game.submit(PlayerId(0), answer).unwrap();
    assert_eq!(serde_json::to_string(&copy).unwrap(), saved);
    assert_ne!(game.state(), &copy);
    assert_eq!(copy.flow.len(), 1);
    assert!(copy.flow[0].answers.is_empty());
    let before = serde_json::to_string(game.state()).unwrap();
    game.set_max_steps(1_000);
    let stalled = game.submit(PlayerId(1), Answer::One(Choice::Option("stall".into())));
    assert!(stalled.is_err());
    assert_eq!(serde_json::to_string(game.state()).unwrap(), before);
}

#[test]
fn a_copy_of_the_state_keeps_its_hex_types_while_the_original_changes() {
    // The hex types given in play are shared between copies of the state and copied on
    // write (`GameState::hex_types`): a change reaches the state it is made on only, and a
    // change that changes nothing records no event and copies nothing.
    let hex = gloam_core::Hex::new(1, 0);
    let mut state = GameState::new(1, &["Ann", "Bo"]);
    let mut log = Vec::new();
    Ctx::new(&mut state, &mut log).set_hex_type(hex, "marked", true);
    let copy = state.clone();
    assert!(std::sync::Arc::ptr_eq(&copy.hex_types, &state.hex_types));
    Ctx::new(&mut state, &mut log).set_hex_type(hex, "marked", true);
    assert!(std::sync::Arc::ptr_eq(&copy.hex_types, &state.hex_types));
    assert_eq!(log.len(), 1);
    Ctx::new(&mut state, &mut log).set_hex_type(hex, "marked", false);
    Ctx::new(&mut state, &mut log).set_hex_type(hex, "lit", true);
    assert_eq!(log.len(), 3);
    assert!(copy.hex_types.contains(&(hex, "marked".to_string())));
    assert!(!copy.hex_types.contains(&(hex, "lit".to_string())));
    assert!(!state.hex_types.contains(&(hex, "marked".to_string())));
    assert!(state.hex_types.contains(&(hex, "lit".to_string())));
    let json = serde_json::to_value(GameState::new(1, &["Ann", "Bo"])).unwrap();
    assert!(json.get("hex_types").is_none(), "an empty set is left out");
    let json = serde_json::to_string(&state).unwrap();
    let back: GameState = serde_json::from_str(&json).unwrap();
    assert_eq!(back, state);
}

#[test]
fn clone_is_an_independent_game() {
    let game = new_game(5);
    let mut copy = game.clone();
    copy.submit(PlayerId(0), Answer::One(Choice::Pass)).unwrap();
    assert_ne!(copy.events().len(), game.events().len());
    assert_eq!(game.pending()[0].player, PlayerId(0));
}

#[test]
fn secret_simultaneous_bids_stay_hidden_until_both_are_in() {
    let mut game = new_game(6);
    for _ in 0..4 {
        let player = game.pending()[0].player;
        game.submit(player, Answer::One(Choice::Pass)).unwrap();
    }
    assert_eq!(game.pending().len(), 2, "both players bid at once");
    game.submit(PlayerId(1), Answer::One(Choice::Number(3)))
        .unwrap();
    // Bo's bid is recorded but not visible to Ann, and Bo cannot bid again.
    assert!(
        game.events_for(PlayerId(0))
            .iter()
            .all(|e| !matches!(e, Event::Decided { kind, .. } if kind == "secret_bid"))
    );
    assert!(matches!(
        game.events().last(),
        Some(Event::DecidedHidden {
            player: PlayerId(1),
            ..
        })
    ));
    let again = game
        .submit(PlayerId(1), Answer::One(Choice::Number(0)))
        .unwrap_err();
    assert!(matches!(
        again,
        GameError::Decision(DecisionError::AlreadyAnswered { .. })
    ));
    let view = game.view(PlayerId(0));
    assert!(view.request.is_some());
    assert!(view.waiting_on.is_empty());
    game.submit(PlayerId(0), Answer::One(Choice::Number(1)))
        .unwrap();
    let revealed = game
        .events()
        .iter()
        .find_map(|e| match e {
            Event::Revealed { answers } => Some(answers.clone()),
            _ => None,
        })
        .expect("the bids are revealed together");
    assert_eq!(revealed.len(), 2);
    assert!(game.is_over());
    assert!(game.pending().is_empty());
}

#[test]
fn view_hides_other_hands_and_deck_order() {
    let game = new_game(7);
    let view = game.view(PlayerId(0));
    let own_hand = &view.zones[&zone(PlayerId(0), "hand")];
    let their_hand = &view.zones[&zone(PlayerId(1), "hand")];
    let own_deck = &view.zones[&zone(PlayerId(0), "deck")];
    assert_eq!(own_hand.cards.as_ref().map(Vec::len), Some(2));
    assert_eq!(their_hand.cards, None);
    assert_eq!(their_hand.size, 2);
    assert_eq!(own_deck.cards, None, "nobody sees a deck's order");
    assert_eq!(own_deck.size, 3);
    let hidden: Vec<_> = game.state().zone_cards(&zone(PlayerId(1), "hand")).to_vec();
    assert!(hidden.iter().all(|c| !view.cards.contains_key(c)));
    let json = serde_json::to_string(&view).unwrap();
    assert!(!json.contains("\"rng\""));
    // Events: Ann sees her own draws, not Bo's.
    let seen = game.events_for(PlayerId(0));
    let bo_draws_named = seen
        .iter()
        .any(|e| matches!(e, Event::CardMoved { to, .. } if *to == zone(PlayerId(1), "hand")));
    assert!(!bo_draws_named);
    assert!(seen.iter().any(
        |e| matches!(e, Event::HiddenCardMoved { to, .. } if *to == zone(PlayerId(1), "hand"))
    ));
}

#[test]
fn cards_are_conserved_through_a_whole_game() {
    let game = play_through(12);
    game.state().check_invariants().unwrap();
    assert_eq!(game.state().cards.len(), 10);
}

#[test]
fn markers_carry_values() {
    let mut log = Vec::new();
    let mut state = GameState::new(1, &["a"]);
    let mut ctx = Ctx::new(&mut state, &mut log);
    ctx.marker("noted", Scope::Game, vec![("n".into(), Value::Int(3))])
        .unwrap();
    assert!(matches!(&log[0], Event::Marker { data, .. } if data[0].1 == Value::Int(3)));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Any sequence of answers, legal or not: refused ones change nothing, and the
        /// record of accepted ones replays to the same log byte for byte.
        #[test]
        fn random_answers_keep_the_game_replayable(seed in 0u64..1_000, picks in proptest::collection::vec((0u8..2, 0usize..8, any::<bool>()), 1..40)) {
            let mut game = new_game(seed);
            game.set_max_steps(2_000);
            for (seat, index, legal) in picks {
                if game.is_over() {
                    break;
                }
                let player = PlayerId(seat);
                let answer = match game.pending_for(player) {
                    Some(request) if legal => match &request.options {
                        Options::One { choices } => Answer::One(choices[index % choices.len()].clone()),
                        _ => Answer::One(Choice::Pass),
                    },
                    _ => Answer::One(Choice::Number(index as i64 + 100)),
                };
                let before = game.state().clone();
                let events = game.events().len();
                if game.submit(player, answer).is_err() {
                    prop_assert_eq!(game.state(), &before);
                    prop_assert_eq!(game.events().len(), events);
                }
                game.state().check_invariants().unwrap();
            }
            let replayed = Game::replay(CardRules, game.record(), vec![Frame::new("turn")]).unwrap();
            prop_assert_eq!(log_json(&replayed), log_json(&game));
        }
    }
}

#[test]
fn table_positions_round_trip_and_refuse_a_shared_spot() {
    use gloam_core::{Length, Point, Position};
    let mut state = GameState::new(2, &["Ann", "Bo"]);
    let mut log = Vec::new();
    let mut ctx = Ctx::new(&mut state, &mut log);
    let at = Point::at(Length::inches(10), Length::inches(4));
    let spot = Position::Table { at, facing: (0, 1) };
    let first = ctx.create_piece(PlayerId(0), "model", []).unwrap();
    let second = ctx.create_piece(PlayerId(1), "model", []).unwrap();
    ctx.place_piece(first, Some(spot), vec![], "deploy")
        .unwrap();
    let refused = ctx
        .place_piece(second, Some(spot), vec![], "deploy")
        .unwrap_err();
    assert!(matches!(refused, RuleError::Occupied { .. }), "{refused}");
    let json = serde_json::to_string(&state).unwrap();
    let back: GameState = serde_json::from_str(&json).unwrap();
    assert_eq!(back, state);
    assert_eq!(
        back.pieces[&first].position.and_then(Position::point),
        Some(at)
    );
}

#[test]
fn game_tokens_and_counters_are_kept_apart() {
    let mut state = GameState::new(2, &["Ann", "Bo"]);
    let mut log = Vec::new();
    let mut ctx = Ctx::new(&mut state, &mut log);
    ctx.set_tokens(Scope::Game, "supply", 3).unwrap();
    ctx.set_counter(Scope::Game, "supply", 7).unwrap();
    ctx.set_tokens(Scope::Player(PlayerId(1)), "supply", -2)
        .unwrap();
    assert_eq!(state.tokens["supply"], 3);
    assert_eq!(state.counters["supply"], 7);
    assert!(
        !state.players[1].tokens.contains_key("supply"),
        "tokens never go below 0"
    );
}

#[test]
fn pieces_of_different_layers_share_a_hex_and_same_layer_ones_do_not() {
    use gloam_core::{Hex, Position};
    let mut state = GameState::new(2, &["Ann", "Bo"]);
    let mut log = Vec::new();
    let mut ctx = Ctx::new(&mut state, &mut log);
    let hex = Position::Hex(Hex::new(1, 1));
    let token = ctx
        .create_piece_in(PlayerId(0), "feature_token", "feature", [])
        .unwrap();
    let other_token = ctx
        .create_piece_in(PlayerId(1), "feature_token", "feature", [])
        .unwrap();
    let fighter = ctx.create_piece(PlayerId(1), "fighter", []).unwrap();
    ctx.place_piece(token, Some(hex), vec![], "place").unwrap();
    ctx.place_piece(fighter, Some(hex), vec![], "move").unwrap();
    let refused = ctx
        .place_piece(other_token, Some(hex), vec![], "place")
        .unwrap_err();
    assert!(matches!(refused, RuleError::Occupied { occupant, .. } if occupant == token));
    assert_eq!(
        state.piece_at(hex),
        Some(fighter),
        "the default layer is the fighters'"
    );
    assert_eq!(state.piece_at_in(hex, "feature"), Some(token));
    assert_eq!(state.pieces_at(hex), vec![token, fighter]);
    state.check_invariants().unwrap();
}

#[test]
fn loaded_dice_show_their_faces_in_order_then_the_rng_resumes() {
    use gloam_core::{Dice, DieDef, DieFace, Pool};
    let die = DieDef::new(
        "attack",
        vec![
            DieFace::new("critical", 1),
            DieFace::new("hammer", 2),
            DieFace::new("blank", 3),
        ],
    )
    .unwrap();
    let dice = Dice::from_defs([die]).unwrap();
    let pool = Pool::of("attack", 3);

    // The same seed without loaded dice: what the RNG would roll.
    let mut plain = GameState::new(9, &["Ann", "Bo"]);
    let mut plain_log = Vec::new();
    let plain_roll = Ctx::new(&mut plain, &mut plain_log)
        .roll(None, "attack", &dice, &pool)
        .unwrap();

    let mut state = GameState::new(9, &["Ann", "Bo"]);
    let mut log = Vec::new();
    let mut ctx = Ctx::new(&mut state, &mut log);
    ctx.fix_dice("attack", &["critical", "critical"]);
    let roll = ctx.roll(None, "attack", &dice, &pool).unwrap();
    let faces: Vec<&str> = roll.dice().iter().map(|d| d.face.as_str()).collect();
    assert_eq!(&faces[..2], ["critical", "critical"]);
    // Loaded dice draw nothing: the third die is the RNG's first draw.
    assert_eq!(faces[2], plain_roll.dice()[0].face);
    assert!(state.fixed_faces.is_empty(), "the loaded faces are used up");
    assert!(
        matches!(&log[0], Event::DiceFixed { die, faces } if die == "attack" && faces.len() == 2)
    );
    // Players see that dice were loaded, never the faces.
    let seen = log[0].redacted_for(PlayerId(0), |_| Visibility::Public);
    assert!(matches!(seen, Event::DiceFixed { faces, .. } if faces.is_empty()));
}

#[test]
fn loaded_face_the_die_lacks_is_refused_and_nothing_is_used_up() {
    use gloam_core::{Dice, DieDef, DieFace, Pool};
    let die = DieDef::new(
        "defence",
        vec![DieFace::new("block", 3), DieFace::new("dodge", 3)],
    )
    .unwrap();
    let dice = Dice::from_defs([die]).unwrap();
    let mut state = GameState::new(4, &["Ann", "Bo"]);
    let mut log = Vec::new();
    let mut ctx = Ctx::new(&mut state, &mut log);
    ctx.fix_dice("defence", &["smash"]);
    let error = ctx.roll(None, "defence", &dice, &Pool::of("defence", 1));
    assert!(error.is_err());
    assert_eq!(state.fixed_faces.len(), 1);
    let rng_before = GameState::new(4, &["Ann", "Bo"]).rng;
    assert_eq!(state.rng, rng_before, "a refused roll draws nothing");
}

#[test]
fn loaded_dice_serve_rerolls_too() {
    use gloam_core::{Dice, DieDef, DieFace, Pool};
    let die = DieDef::new("d", vec![DieFace::new("one", 1), DieFace::new("six", 5)]).unwrap();
    let dice = Dice::from_defs([die]).unwrap();
    let mut state = GameState::new(1, &["Ann", "Bo"]);
    let mut log = Vec::new();
    let mut ctx = Ctx::new(&mut state, &mut log);
    ctx.fix_dice("d", &["six", "one"]);
    let mut roll = ctx.roll(None, "test", &dice, &Pool::of("d", 1)).unwrap();
    assert_eq!(roll.dice()[0].face, "six");
    ctx.reroll("test", &mut roll, 0).unwrap();
    assert_eq!(roll.dice()[0].face, "one");
}

#[test]
fn a_refused_placement_names_the_hex_in_players_terms() {
    // Issue 17: the message printed `Hex(Hex { q: 1, r: 2 })`.
    use gloam_core::{Hex, Position};
    let mut state = GameState::new(2, &["Ann", "Bo"]);
    let mut log = Vec::new();
    let mut ctx = Ctx::new(&mut state, &mut log);
    let spot = Position::Hex(Hex::new(1, 2));
    let first = ctx.create_piece(PlayerId(0), "fighter", []).unwrap();
    let second = ctx.create_piece(PlayerId(1), "fighter", []).unwrap();
    ctx.place_piece(first, Some(spot), vec![], "deploy")
        .unwrap();
    let refused = ctx
        .place_piece(second, Some(spot), vec![], "deploy")
        .unwrap_err()
        .to_string();
    assert!(refused.contains("cannot stand at hex (1, 2):"), "{refused}");
    assert!(!refused.contains("Hex {"), "{refused}");
}

#[test]
fn a_counter_refuses_to_pass_the_largest_whole_number() {
    // Issue 17: glory and counters stopped silently at i64::MAX.
    use gloam_core::Scope;
    let mut state = GameState::new(2, &["Ann", "Bo"]);
    let mut log = Vec::new();
    let mut ctx = Ctx::new(&mut state, &mut log);
    ctx.add_counter(Scope::Game, "glory", i64::MAX - 1).unwrap();
    let refused = ctx.add_counter(Scope::Game, "glory", 2).unwrap_err();
    assert!(
        matches!(refused, RuleError::CounterOverflow { .. }),
        "{refused}"
    );
    assert_eq!(
        refused.to_string(),
        format!(
            "counter `glory` is {}: adding 2 would pass the largest whole number",
            i64::MAX - 1
        )
    );
    assert_eq!(ctx.add_counter(Scope::Game, "glory", 1).unwrap(), i64::MAX);
    assert!(ctx.add_counter(Scope::Game, "glory", i64::MIN).is_ok());
}

/// A state of two players with cards 0..4 dealt into hands, and four fighters on hexes 0 to
/// 3 of one row: what the invariant tests below break, one way each.
fn dealt_state() -> GameState {
    let mut state = GameState::new(3, &["Ann", "Bo"]);
    let mut events = Vec::new();
    let mut ctx = Ctx::new(&mut state, &mut events);
    for player in [PlayerId(0), PlayerId(1)] {
        ctx.create_zone(zone(player, "hand"), Visibility::Owner)
            .unwrap();
        for n in 0..2 {
            ctx.create_card(&format!("card {n}"), player, &zone(player, "hand"))
                .unwrap();
        }
    }
    for q in 0..4 {
        let id = ctx
            .create_piece(
                PlayerId((q % 2) as u8),
                "fighter",
                [("wounds".to_owned(), 2)],
            )
            .unwrap();
        ctx.place_piece(
            id,
            Some(gloam_core::Position::Hex(gloam_core::Hex::new(q, 0))),
            vec![],
            "deploy",
        )
        .unwrap();
    }
    state
}

/// The kernel's invariants (`GameState::check_invariants`, checked by `gloam sim` after every
/// decision): every card in exactly one zone, no two pieces of one layer in one place. Each
/// way of breaking them is reported, whether the card ids are `0..n` or not.
#[test]
fn each_broken_invariant_is_reported() {
    use gloam_core::{CardId, Hex, InvariantError, PieceId, Position};
    use std::sync::Arc;
    let state = dealt_state();
    state.check_invariants().unwrap();
    let hand = |state: &mut GameState, player: u8| -> Vec<CardId> {
        Arc::make_mut(&mut state.zones)
            .get(&zone(PlayerId(player), "hand"))
            .unwrap()
            .cards
            .clone()
    };
    let set_hand = |state: &mut GameState, player: u8, cards: Vec<CardId>| {
        Arc::make_mut(&mut state.zones)
            .get_mut(&zone(PlayerId(player), "hand"))
            .unwrap()
            .cards = cards;
    };

    // A card in two zones, and a card in none.
    let mut twice = state.clone();
    let mut cards = hand(&mut twice, 1);
    cards.push(CardId(0));
    set_hand(&mut twice, 1, cards);
    assert!(matches!(
        twice.check_invariants(),
        Err(InvariantError::CardNotConserved {
            card: CardId(0),
            count: 2
        })
    ));
    let mut lost = state.clone();
    set_hand(&mut lost, 1, vec![CardId(3)]);
    assert!(matches!(
        lost.check_invariants(),
        Err(InvariantError::CardNotConserved {
            card: CardId(2),
            count: 0
        })
    ));

    // A zone holding a card the game does not have.
    let mut unknown = state.clone();
    let mut cards = hand(&mut unknown, 0);
    cards.push(CardId(9));
    set_hand(&mut unknown, 0, cards);
    assert!(matches!(
        unknown.check_invariants(),
        Err(InvariantError::UnknownCardInZone {
            card: CardId(9),
            ..
        })
    ));

    // The same with ids that are not `0..n` (card 0 gone from the game and its hand).
    let mut sparse = state.clone();
    Arc::make_mut(&mut sparse.cards).remove(&CardId(0));
    set_hand(&mut sparse, 0, vec![CardId(1)]);
    sparse.check_invariants().unwrap();
    let mut sparse_twice = sparse.clone();
    set_hand(&mut sparse_twice, 0, vec![CardId(1), CardId(3)]);
    assert!(matches!(
        sparse_twice.check_invariants(),
        Err(InvariantError::CardNotConserved {
            card: CardId(3),
            count: 2
        })
    ));
    let mut sparse_unknown = sparse.clone();
    set_hand(&mut sparse_unknown, 0, vec![CardId(1), CardId(0)]);
    assert!(matches!(
        sparse_unknown.check_invariants(),
        Err(InvariantError::UnknownCardInZone {
            card: CardId(0),
            ..
        })
    ));

    // Pieces 0, 2 and 3 on one hex: the pair reported is the one met first in id order,
    // piece 2 being the first to stand where an earlier piece (0) does.
    let mut crowded = state.clone();
    let pieces = Arc::make_mut(&mut crowded.pieces);
    for id in [2u16, 3] {
        Arc::make_mut(pieces.get_mut(&PieceId(id)).unwrap()).position =
            Some(Position::Hex(Hex::new(0, 0)));
    }
    match crowded.check_invariants() {
        Err(InvariantError::SharedPosition {
            first,
            second,
            position,
        }) => {
            assert_eq!((first, second), (PieceId(0), PieceId(2)));
            assert_eq!(position, Position::Hex(Hex::new(0, 0)));
        }
        other => panic!("{other:?}"),
    }
    // Two pairs: 0 and 3 on hex (0, 0), 1 and 2 on hex (1, 0). Going through the pieces in
    // id order, piece 2 clashes (with 1) before piece 3 does: that pair is reported, though
    // the other's place comes first in the map's order of places.
    let mut two = state.clone();
    let pieces = Arc::make_mut(&mut two.pieces);
    Arc::make_mut(pieces.get_mut(&PieceId(3)).unwrap()).position =
        Some(Position::Hex(Hex::new(0, 0)));
    Arc::make_mut(pieces.get_mut(&PieceId(2)).unwrap()).position =
        Some(Position::Hex(Hex::new(1, 0)));
    match two.check_invariants() {
        Err(InvariantError::SharedPosition { first, second, .. }) => {
            assert_eq!((first, second), (PieceId(1), PieceId(2)));
        }
        other => panic!("{other:?}"),
    }
    // Pieces of another layer may share a fighter's place.
    let mut layered = state.clone();
    let pieces = Arc::make_mut(&mut layered.pieces);
    let token = pieces.get_mut(&PieceId(1)).unwrap();
    Arc::make_mut(token).layer = "feature".to_owned();
    Arc::make_mut(token).position = Some(Position::Hex(Hex::new(0, 0)));
    layered.check_invariants().unwrap();
}
