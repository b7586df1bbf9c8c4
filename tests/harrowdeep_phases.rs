//! Harrowdeep phase structure played from the data in cards/harrowdeep (seed 002): set-up and
//! its do-over (rules digest 3.4), the roll-off bonus (3.5), reactions and their priority,
//! reacting to a reaction and damage from cards (3.19), surge scoring (3.20), Illusions and
//! Waypoints (3.15, 3.16), the end phase (3.21), victory (3.22) and multiplayer (3.24).
//!
//! Each scenario starts a match of the shipped data, arranges it through the kernel's `Ctx`,
//! then runs chosen steps of the flow and answers their requests.

use std::path::PathBuf;

use gloam::core::{
    CardId, Choice, Ctx, Event, Frame, Game, GameState, Hex, Options, PieceId, PlayerId, Position,
    Request, Scope, Value, Visibility, ZoneId,
};
use gloam::engine::RulesetGame;
use gloam::sim::{play_one, prepare_for};

mod scenario;
use scenario::{
    KREW, SEEKERS, Scenario, answer, bare, frame, glory, hex_choices, id, open_hexes, option,
    options, piece, place, request, with_fixture_for,
};

fn data() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards");
    vec![root.join("underworlds"), root.join("harrowdeep")]
}

fn rules_for(players: usize) -> RulesetGame {
    prepare_for(&data(), "harrowdeep", players).expect("the shipped Harrowdeep data sets up")
}

fn rules() -> RulesetGame {
    rules_for(2)
}

/// Test-only cards: reactions for both players and a ploy that deals damage.
const FIXTURES: &str = r#"
card "Test Feint" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = after_move
    text = "Test fixture. Reaction: after any Move action; nothing happens."
    effect = { mark("feint"); }
}

card "Test Echo" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = after_reaction
    text = "Test fixture. Reaction: after a reaction; nothing happens."
    effect = { mark("echo"); }
}

card "Test Sprint" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = after_move
    text = "Test fixture. Reaction: after a friendly fighter's Move action, remove its Move token; it makes another."
    condition = { target != () && owner(target) == player }
    effect = {
        // A fighter with a Move token cannot make a Move action (3.6): the fixture takes
        // the token away first.
        remove_token(target, "move");
        then("move_action", #{ player: player, fighter: target });
    }
}

card "Test Rush" {
    ruleset = "harrowdeep"
    kind = objective
    owner = universal
    glory = 1
    score = surge
    text = "Test fixture. Surge: score this in a surge step."
    condition = { true }
}

card "Test Zap" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    window = power_step
    text = "Test fixture. Deal 1 damage to an enemy fighter."
    condition = { enemy_fighters().len() > 0 }
    effect = { deal_damage(choose_fighter(enemy_fighters(), "Which enemy?"), 1); }
}
"#;

fn rules_with_fixtures() -> RulesetGame {
    rules_with_fixtures_for(2)
}

fn rules_with_fixtures_for(players: usize) -> RulesetGame {
    with_fixture_for(
        "harrowdeep",
        "harrowdeep-phases-fixtures",
        FIXTURES,
        players,
    )
}

fn scenario_seeded(
    rules: RulesetGame,
    seed: u64,
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
    frames: Vec<Frame>,
) -> Game<Scenario> {
    let setup = rules.setup(seed);
    let scenario = Scenario {
        rules,
        arrange: Box::new(arrange),
    };
    Game::start(scenario, setup, frames).expect("the scenario starts")
}

fn scenario(
    rules: RulesetGame,
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
    frames: Vec<Frame>,
) -> Game<Scenario> {
    scenario_seeded(rules, 7, arrange, frames)
}

/// The id the next card created in a scenario's arrangement gets.
fn next_card(rules: &RulesetGame) -> CardId {
    let state = bare(rules).state().clone();
    CardId(state.cards.keys().map(|c| c.0).max().map_or(0, |m| m + 1))
}

/// `n` open hexes, each at least `apart` from the others.
fn spread(rules: &RulesetGame, n: usize, apart: u32) -> Vec<Hex> {
    let mut picked: Vec<Hex> = Vec::new();
    for hex in open_hexes(rules) {
        if picked.iter().all(|other| hex.distance_to(*other) >= apart) {
            picked.push(hex);
        }
        if picked.len() == n {
            return picked;
        }
    }
    panic!("the battlefield has no {n} hexes {apart} apart");
}

const KINDS: [&str; 9] = [
    "Calthia Xandire",
    "Dhoraz Giant-fell",
    "Luxa Stormrider",
    "Taros",
    "Mannok da Kunnin'",
    "Torka Tuffskul",
    "Krookgrin",
    "Gikkit",
    "Shank",
];

/// Every fighter on the battlefield, no two within 2 hexes of each other.
fn deploy_all(rules: &RulesetGame) -> impl Fn(&mut Ctx<'_>) + use<> {
    let hexes = spread(rules, 9, 3);
    move |ctx: &mut Ctx<'_>| {
        for (kind, hex) in KINDS.iter().zip(&hexes) {
            place(ctx, kind, *hex);
        }
    }
}

fn first_choice(request: &Request) -> Choice {
    match &request.options {
        Options::One { choices } => choices[0].clone(),
        other => panic!("not a single choice: {other:?}"),
    }
}

fn zone(state: &GameState, player: PlayerId, name: &str) -> Vec<CardId> {
    state.zone_cards(&ZoneId::new(player, name)).to_vec()
}

fn marked(game: &Game<Scenario>, name: &str) -> usize {
    game.events()
        .iter()
        .filter(|e| matches!(e, Event::Marker { name: n, .. } if n == name))
        .count()
}

const REACT_OR_PASS: &str = "Reaction step: react or pass?";
const DO_OVER: &str = "Set-up: use your do-over?";

// ---------------------------------------------------------------------------------------
// Set-up (3.4) and the roll-off (3.5)
// ---------------------------------------------------------------------------------------

#[test]
fn do_over_redraws_the_chosen_hand_once_per_player_and_shuffles_the_old_cards_back() {
    // Harrowdeep, set-up step 4 (002 L1951-1968; digest 3.4): one do-over each, the
    // first-board player (seat 0 here: `first_board_seat` is unset) first; replacements are
    // drawn, then the discards are shuffled back into their deck.
    let rules = rules();
    let mut game = scenario(rules, |_| {}, vec![frame("draw_hands", &[])]);
    let asked = request(&game);
    assert_eq!((asked.player, asked.prompt.as_str()), (KREW, DO_OVER));
    assert_eq!(
        options(&asked),
        [
            "keep both hands",
            "redraw power cards",
            "redraw objectives",
            "redraw both"
        ]
    );
    let before = game.state().clone();
    let old_power = zone(&before, KREW, "power_hand");
    let old_objectives = zone(&before, KREW, "objective_hand");
    let deck = zone(&before, KREW, "power_deck").len();
    answer(&mut game, KREW, option("redraw power cards"));
    let state = game.state();
    let new_power = zone(state, KREW, "power_hand");
    assert_eq!(new_power.len(), 5);
    assert!(new_power.iter().all(|c| !old_power.contains(c)));
    assert_eq!(zone(state, KREW, "objective_hand"), old_objectives);
    assert_eq!(zone(state, KREW, "power_deck").len(), deck);
    assert!(
        old_power
            .iter()
            .all(|c| zone(state, KREW, "power_deck").contains(c))
    );
    assert!(zone(state, KREW, "power_discard").is_empty());
    // Then the next player, once; then the placement roll-off, no second do-over.
    let asked = request(&game);
    assert_eq!((asked.player, asked.prompt.as_str()), (SEEKERS, DO_OVER));
    answer(&mut game, SEEKERS, option("keep both hands"));
    let asked = request(&game);
    assert_eq!(
        asked.prompt,
        "You won the roll-off: who places a fighter first?"
    );
}

/// The prompt of step `place_boards`.
const LAY_OUT: &str = "Lay the two boards out: which way?";

/// Plays the set-up from its start (after `arrange`) up to the placement roll-off: the
/// feature tokens go on the first hex offered, double-gloom tokens are declined, hands are
/// kept; `board` answers the 2-player board roll-off and the boards are laid out the first
/// way offered. Returns the game and the seats asked, in order, to place a numbered token,
/// to add a double-gloom token, to use a do-over and who chooses the first board.
fn set_up_until_placement(
    rules: RulesetGame,
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
    board: &str,
) -> (Game<Scenario>, [Vec<u8>; 4]) {
    let mut game = scenario(rules, arrange, RulesetGame::first_frames());
    let mut asked_seats: [Vec<u8>; 4] = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
    while let Some(asked) = game.pending().first().map(|r| (*r).clone()) {
        let choice = match asked.prompt.as_str() {
            "You won the roll-off: who chooses the first board?" => {
                asked_seats[3].push(asked.player.0);
                option(board)
            }
            LAY_OUT => first_choice(&asked),
            "Place a feature token (gloom side up)" => {
                asked_seats[0].push(asked.player.0);
                first_choice(&asked)
            }
            "Set-up: add a double-gloom feature token?" => {
                asked_seats[1].push(asked.player.0);
                option("do not add one")
            }
            DO_OVER => {
                asked_seats[2].push(asked.player.0);
                option("keep both hands")
            }
            _ => break,
        };
        answer(&mut game, asked.player, choice);
    }
    (game, asked_seats)
}

/// The place of each seat in the order of board picking (player counter `board_order`).
fn board_order(state: &GameState) -> Vec<i64> {
    state
        .players
        .iter()
        .map(|p| p.counters.get("board_order").copied().unwrap_or(0))
        .collect()
}

#[test]
fn in_three_players_roll_off_losers_are_ordered_and_the_first_loser_is_the_first_board_player() {
    // Harrowdeep, multiplayer roll-offs and boards (002 L3449-3466, L3468-3494; digest
    // 3.24): the loser is the player with the fewest criticals (seat 2, though it rolled the
    // most smashes), then the players left roll off again; tied on criticals, the fewer other
    // successes loses; still tied, the tied players roll again (seats 0 and 1: seat 1 loses
    // the re-roll). Seat 2 is the first-board player: it is dealt 3 feature tokens and places
    // first, then order of play (002 L3517-3530), and it takes the first do-over (L3545-3550).
    let support = "single_support";
    let rolls: Vec<[&'static str; 4]> = vec![
        // First roll-off, seats 0, 1, 2: 1 critical, 1 critical + 1 smash, 4 smashes.
        ["critical", support, support, support],
        ["critical", "smash", support, support],
        ["smash", "smash", "smash", "smash"],
        // Seats 0 and 1: no critical, one other success each (a tie)...
        ["smash", support, support, support],
        ["fury", support, support, support],
        // ... rolled again: seat 1 has nothing.
        ["critical", support, support, support],
        [support, support, support, support],
    ];
    let (game, [tokens, doubles, do_overs, board_askers]) = set_up_until_placement(
        rules_for(3),
        move |ctx: &mut Ctx<'_>| {
            for faces in &rolls {
                ctx.fix_dice("attack", faces);
            }
        },
        "",
    );
    let state = game.state();
    assert!(board_askers.is_empty(), "no one chooses: the loser picks");
    assert_eq!(board_order(state), [3, 2, 1]);
    assert_eq!(state.counter("first_board_seat"), 2);
    assert_eq!(tokens, [2, 0, 1, 2, 0, 1, 2]);
    assert_eq!(doubles, [2, 0, 1]);
    assert_eq!(do_overs, [2, 0, 1]);
    assert_eq!(
        request(&game).prompt,
        "You won the roll-off: who places a fighter first?"
    );
}

#[test]
fn in_two_players_the_board_roll_off_winner_picks_the_first_board_player() {
    // Harrowdeep, set-up 2 (002 L1804-1823; digest 3.4): the roll-off winner (seat 1, one
    // critical against none) picks which player chooses the first board; that player deals
    // and places the feature tokens first (3 of 5, 002 L1928-1950) and decides first on
    // the do-over (002 L1951-1968).
    for (answer_given, first) in [
        ("choose the first board", 1u8),
        ("the other player chooses the first board", 0),
    ] {
        let (game, [tokens, doubles, do_overs, board_askers]) = set_up_until_placement(
            rules(),
            |ctx: &mut Ctx<'_>| {
                ctx.fix_dice("attack", &["smash", "fury", "smash", "fury"]);
                ctx.fix_dice(
                    "attack",
                    &[
                        "critical",
                        "single_support",
                        "single_support",
                        "single_support",
                    ],
                );
            },
            answer_given,
        );
        assert_eq!(board_askers, [SEEKERS.0], "the winner is asked");
        let other = 1 - first;
        let state = game.state();
        assert_eq!(state.counter("first_board_seat"), i64::from(first));
        assert_eq!(board_order(state)[usize::from(first)], 1);
        assert_eq!(
            tokens,
            [first, other, first, other, first],
            "{answer_given}"
        );
        assert_eq!(doubles, [first, other]);
        assert_eq!(do_overs, [first, other]);
    }
}

#[test]
fn the_player_who_did_not_choose_the_first_board_lays_both_boards_out() {
    // Harrowdeep, set-up 2 (002 L1804-1823; digest 3.4): the player who did not choose the
    // first board places both, long edge to long edge with at least 4 hexes completed. The
    // ruleset writes seven such layouts (the second board slid up to 3 hexes either way);
    // the game then plays on the chosen one: its feature tokens go on its hexes.
    let rules = rules();
    let mut game = scenario(
        rules.clone(),
        |ctx: &mut Ctx<'_>| {
            // Seat 1 wins the board roll-off (a critical against none).
            ctx.fix_dice("attack", &["smash", "fury", "smash", "fury"]);
            ctx.fix_dice(
                "attack",
                &[
                    "critical",
                    "single_support",
                    "single_support",
                    "single_support",
                ],
            );
        },
        RulesetGame::first_frames(),
    );
    let asked = request(&game);
    assert_eq!(asked.player, SEEKERS);
    answer(&mut game, SEEKERS, option("choose the first board"));
    // Seat 1 chose the first board: seat 0 lays the boards out.
    let asked = request(&game);
    assert_eq!(asked.prompt, LAY_OUT);
    assert_eq!(asked.player, KREW);
    let layouts = options(&asked);
    assert_eq!(layouts.len(), 7, "{layouts:?}");
    assert_eq!(layouts[0], "two players");
    assert_eq!(layouts, rules.layout_names());
    answer(&mut game, KREW, option("two players, slid 3 hexes right"));
    let state = game.state();
    assert_eq!(state.counter("battlefield_layout"), 6);
    let chosen = rules.battlefield_in(state);
    assert_eq!(rules.battlefield().completed_hexes().len(), 7);
    assert_eq!(chosen.completed_hexes().len(), 4);
    // Every hex offered for the first feature token is a hex of the chosen layout, and some
    // are not hexes of the default one.
    let asked = request(&game);
    assert_eq!(asked.prompt, "Place a feature token (gloom side up)");
    let hexes = hex_choices(&asked);
    assert!(hexes.iter().all(|&hex| chosen.contains(hex)));
    assert!(hexes.iter().any(|&hex| !rules.battlefield().contains(hex)));
}

#[test]
fn fighters_are_placed_in_turn_on_own_starting_hexes_and_the_first_to_finish_is_recorded() {
    // Harrowdeep, set-up step 5 (002 L1999-2002; digest 3.4): players alternate placing one
    // fighter in an empty starting hex of their own territory; a player with none left is
    // skipped. The player who finished first gets the round-1 roll-off bonus (3.5): the
    // Truthseekers (4 fighters) finish before the Kruleboyz (5).
    let rules = rules();
    let battlefield = rules.battlefield().clone();
    let mut game = scenario(
        rules,
        |_| {},
        vec![frame(
            "deploy",
            &[("player", Value::Player(KREW)), ("count", Value::Int(0))],
        )],
    );
    let mut order = Vec::new();
    while let Some(asked) = game.pending().first().map(|r| (*r).clone()) {
        if asked.prompt != "Choose a fighter to place"
            && asked.prompt != "Choose an empty starting hex in your territory"
        {
            break;
        }
        if asked.prompt == "Choose a fighter to place" {
            order.push(asked.player);
        }
        if let Options::One { choices } = &asked.options {
            for choice in choices {
                if let Choice::Hex(hex) = choice {
                    assert!(battlefield.has_type(*hex, "starting"));
                    assert_eq!(
                        battlefield.territory(*hex),
                        Some(format!("player{}", asked.player.0).as_str())
                    );
                }
            }
        }
        answer(&mut game, asked.player, first_choice(&asked));
    }
    assert_eq!(
        order,
        [
            KREW, SEEKERS, KREW, SEEKERS, KREW, SEEKERS, KREW, SEEKERS, KREW
        ]
    );
    let state = game.state();
    assert!(state.pieces.values().all(|p| p.position.is_some()));
    assert_eq!(state.counter("deployed_first"), 2);
    // The next request is the first round's roll-off winner's choice.
    assert_eq!(request(&game).prompt, "You won the roll-off");
}

#[test]
fn the_player_who_finished_deploying_first_wins_more_round_one_roll_offs() {
    // Harrowdeep, start of the action phase (002 L2059-2061; digest 3.5): in round 1 the
    // player who finished placing fighters first adds one critical to the roll-off. Over
    // the same 40 seeds, the bonus makes its holder win most roll-offs, whichever seat.
    let rules = rules();
    let mut wins = [0usize; 2];
    for (index, seat) in [KREW, SEEKERS].into_iter().enumerate() {
        for seed in 1..=40 {
            let game = scenario_seeded(
                rules.clone(),
                seed,
                move |ctx: &mut Ctx<'_>| {
                    ctx.set_counter(Scope::Game, "deployed_first", i64::from(seat.0) + 1)
                        .expect("counter");
                },
                vec![frame("round", &[])],
            );
            let asked = request(&game);
            assert_eq!(asked.prompt, "You won the roll-off");
            if asked.player == seat {
                wins[index] += 1;
            }
        }
    }
    assert!(wins[0] >= 28 && wins[1] >= 28, "{wins:?} of 40");
    // In round 2 the bonus no longer applies: the same seeds split far more evenly.
    let mut round_two = 0;
    for seed in 1..=40 {
        let game = scenario_seeded(
            rules.clone(),
            seed,
            |ctx: &mut Ctx<'_>| {
                ctx.set_counter(Scope::Game, "deployed_first", 1)
                    .expect("counter");
                ctx.set_counter(Scope::Game, "round", 1).expect("round");
            },
            vec![frame("round", &[])],
        );
        if request(&game).player == KREW {
            round_two += 1;
        }
    }
    assert!(round_two < 28, "{round_two} of 40 without the bonus");
}

// ---------------------------------------------------------------------------------------
// Reactions (3.19)
// ---------------------------------------------------------------------------------------

/// Every fighter deployed apart; the game counter `turn_seat` says whose turn it is; each
/// player's power hand holds the named fixtures.
fn with_hands(
    rules: &RulesetGame,
    turn: PlayerId,
    krew: &'static [&'static str],
    seekers: &'static [&'static str],
) -> impl Fn(&mut Ctx<'_>) + use<> {
    let deploy = deploy_all(rules);
    move |ctx: &mut Ctx<'_>| {
        deploy(ctx);
        for (player, cards) in [(KREW, krew), (SEEKERS, seekers)] {
            for card in cards {
                ctx.create_card(card, player, &ZoneId::new(player, "power_hand"))
                    .expect("card");
            }
        }
        ctx.set_counter(Scope::Game, "turn_seat", i64::from(turn.0))
            .expect("turn");
    }
}

fn move_shank(game: &mut Game<Scenario>) {
    let asked = request(game);
    assert_eq!(asked.prompt, "Where does it move?");
    answer(game, KREW, first_choice(&asked));
}

fn play_first_card(game: &mut Game<Scenario>, player: PlayerId) {
    answer(game, player, option("play a reaction card"));
    let asked = request(game);
    answer(game, player, first_choice(&asked));
}

#[test]
fn a_reaction_can_be_answered_by_a_reaction_with_priority_to_the_other_player() {
    // Harrowdeep, reacting to a reaction (002 L3279-3293; digest 3.19): a reaction step
    // follows a reaction, and precedence goes to the opponent of the last player to react.
    // The Kruleboyz have the turn, so the Truthseekers react first to Shank's Move; then
    // the Kruleboyz, not the Truthseekers, decide first after that reaction.
    let rules = rules_with_fixtures();
    let shank = id(&rules, "Shank");
    let mut game = scenario(
        rules.clone(),
        with_hands(&rules, KREW, &["Test Echo"], &["Test Feint", "Test Echo"]),
        vec![frame(
            "move_action",
            &[
                ("player", Value::Player(KREW)),
                ("fighter", Value::Piece(shank)),
            ],
        )],
    );
    move_shank(&mut game);
    let asked = request(&game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (SEEKERS, REACT_OR_PASS)
    );
    play_first_card(&mut game, SEEKERS);
    assert_eq!(marked(&game, "feint"), 1);
    // After the reaction: the Kruleboyz have precedence and react with Test Echo.
    let asked = request(&game);
    assert_eq!((asked.player, asked.prompt.as_str()), (KREW, REACT_OR_PASS));
    play_first_card(&mut game, KREW);
    assert_eq!(marked(&game, "echo"), 1);
    // After the Kruleboyz' reaction, the Truthseekers have precedence again.
    let asked = request(&game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (SEEKERS, REACT_OR_PASS)
    );
    answer(&mut game, SEEKERS, option("pass"));
    assert!(game.pending().is_empty(), "{:?}", game.pending());
    assert_eq!(game.state().counter("reactions_this_phase"), 2);
    // Priority is back to the player whose turn is next once the chain is over.
    assert_eq!(game.state().counter("reactor_seat"), 0);
    assert_eq!(game.state().counter("reacting"), 0);
}

#[test]
fn windows_opened_while_a_reaction_resolves_open_reaction_steps_led_by_the_other_player() {
    // Harrowdeep, reacting to a reaction (002 L3279-3293): a reaction grants a Move action;
    // after that Move, the player who did not play the first reaction has precedence. It
    // is the Truthseekers' turn, so the Kruleboyz lead the first step; after their Test
    // Sprint, the Truthseekers lead the step of the Move it grants.
    let rules = rules_with_fixtures();
    let shank = id(&rules, "Shank");
    let mut game = scenario(
        rules.clone(),
        with_hands(&rules, SEEKERS, &["Test Sprint"], &["Test Feint"]),
        vec![frame(
            "move_action",
            &[
                ("player", Value::Player(KREW)),
                ("fighter", Value::Piece(shank)),
            ],
        )],
    );
    move_shank(&mut game);
    let asked = request(&game);
    assert_eq!((asked.player, asked.prompt.as_str()), (KREW, REACT_OR_PASS));
    play_first_card(&mut game, KREW);
    // The granted Move.
    move_shank(&mut game);
    let asked = request(&game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (SEEKERS, REACT_OR_PASS)
    );
    play_first_card(&mut game, SEEKERS);
    assert!(game.pending().is_empty(), "{:?}", game.pending());
    assert_eq!(marked(&game, "feint"), 1);
    assert_eq!(game.state().counter("reactions_this_phase"), 2);
}

#[test]
fn damage_dealt_by_a_card_opens_the_damage_reaction_step_before_the_out_of_action_check() {
    // Harrowdeep, reactions (002 L3108-3111; digest 3.19, H11, H12): each damage event opens
    // a reaction step, before any other and before the card counts as resolved. Calthia,
    // one wound from out of action, is dealt 1 damage by a ploy: her reaction ("dealt damage
    // that will take her out of action") is offered while she still stands.
    let rules = rules_with_fixtures();
    let calthia = id(&rules, "Calthia Xandire");
    let wounds = bare(&rules)
        .state()
        .characteristic(calthia, "wounds")
        .expect("wounds");
    let hands = with_hands(&rules, KREW, &["Test Zap"], &[]);
    let mut game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            hands(ctx);
            ctx.set_counter(Scope::Piece(calthia), "damage", wounds - 1)
                .expect("damage");
        },
        vec![frame(
            "power_step",
            &[
                ("player", Value::Player(KREW)),
                ("count", Value::Int(0)),
                (
                    "data",
                    Value::List(vec![Value::Player(KREW), Value::Player(SEEKERS)]),
                ),
            ],
        )],
    );
    answer(&mut game, KREW, option("play a card"));
    let asked = request(&game);
    answer(&mut game, KREW, first_choice(&asked));
    answer(&mut game, KREW, Choice::Piece(calthia));
    let asked = request(&game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (SEEKERS, REACT_OR_PASS)
    );
    assert_eq!(options(&asked), ["use a fighter's reaction", "pass"]);
    let state = game.state();
    assert!(state.pieces[&calthia].position.is_some());
    assert_eq!(state.counter("damage_amount"), 1);
    assert_eq!(state.counter("damage_seat"), 1);
    answer(&mut game, SEEKERS, option("pass"));
    // The out-of-action check follows, and the bounty goes to the Kruleboyz.
    let state = game.state();
    assert_eq!(state.pieces[&calthia].position, None);
    assert_eq!(glory(state, KREW), 1);
    assert!(marked(&game, "card_resolved") >= 1);
}

// ---------------------------------------------------------------------------------------
// Surge objectives (3.20)
// ---------------------------------------------------------------------------------------

#[test]
fn a_surge_objective_is_revealed_when_its_window_opens_and_scored_at_the_next_surge_step() {
    // Harrowdeep, surge objectives (002 L3356-3399; digest 3.20): when the condition is met
    // the card is revealed; it is scored in the next surge step, and a replacement is drawn
    // right after. Blaze of Glory: after a reaction, the second of the phase.
    let rules = rules();
    let blaze = next_card(&rules);
    let arrange = move |ctx: &mut Ctx<'_>| {
        let hand = ZoneId::new(SEEKERS, "objective_hand");
        ctx.create_card("Blaze of Glory", SEEKERS, &hand)
            .expect("card");
        ctx.set_counter(Scope::Game, "reactions_this_phase", 2)
            .expect("counter");
    };
    let window = frame(
        "window",
        &[
            ("player", Value::Player(SEEKERS)),
            ("data", Value::Str("after_reaction".into())),
        ],
    );
    let game = scenario(rules.clone(), arrange, vec![window.clone()]);
    let state = game.state();
    assert_eq!(zone(state, SEEKERS, "revealed"), [blaze]);
    assert_eq!(glory(state, SEEKERS), 0);

    let surge = frame("surge_step", &[("player", Value::Player(KREW))]);
    let game = scenario(rules, arrange, vec![window, surge]);
    let state = game.state();
    assert!(zone(state, SEEKERS, "scored").contains(&blaze));
    assert!(zone(state, SEEKERS, "revealed").is_empty());
    assert_eq!(glory(state, SEEKERS), 1);
    // The replacement draw.
    assert_eq!(zone(state, SEEKERS, "objective_hand").len(), 1);
}

#[test]
fn a_surge_objective_drawn_as_a_replacement_waits_for_the_following_surge_step() {
    // Harrowdeep, surge objectives (002 L3384-3399; digest 3.20): right after scoring, a
    // replacement is drawn; a surge card drawn that way cannot be scored before the following
    // surge step. Test Rush (a surge objective whose condition always holds) lies on top of
    // the objective deck when Blaze of Glory, revealed, is scored.
    let rules = rules_with_fixtures();
    let blaze = next_card(&rules);
    let rush = CardId(blaze.0 + 1);
    let arrange = move |ctx: &mut Ctx<'_>| {
        ctx.create_card("Blaze of Glory", SEEKERS, &ZoneId::new(SEEKERS, "revealed"))
            .expect("card");
        let deck = ZoneId::new(SEEKERS, "objective_deck");
        let card = ctx.create_card("Test Rush", SEEKERS, &deck).expect("card");
        ctx.move_card(card, &deck, 0).expect("on top");
    };
    let surge = || frame("surge_step", &[("player", Value::Player(SEEKERS))]);
    let game = scenario(rules.clone(), arrange, vec![surge()]);
    let state = game.state();
    assert_eq!(zone(state, SEEKERS, "scored"), [blaze]);
    assert_eq!(zone(state, SEEKERS, "objective_hand"), [rush]);
    assert_eq!(glory(state, SEEKERS), 1);
    let game = scenario(rules, arrange, vec![surge(), surge()]);
    let state = game.state();
    assert!(zone(state, SEEKERS, "scored").contains(&rush));
    assert_eq!(glory(state, SEEKERS), 2);
}

// ---------------------------------------------------------------------------------------
// Illusions, Waypoints, 'next activation' gambits (3.15, 3.16)
// ---------------------------------------------------------------------------------------

fn equip(ctx: &mut Ctx<'_>, player: PlayerId, kind: &str, card: &str) {
    let fighter = piece(ctx.state(), kind);
    let zone = ZoneId::on_piece(player, "equipped", fighter);
    ctx.create_zone(zone.clone(), Visibility::Public)
        .expect("zone");
    ctx.create_card(card, player, &zone).expect("card");
}

#[test]
fn an_illusion_upgrade_breaks_when_its_fighter_is_dealt_damage() {
    // Harrowdeep, upgrades (002 L2860-2886; digest 3.16): an Illusion breaks when its fighter
    // is dealt damage; a broken upgrade goes to its owner's power discard pile.
    let rules = rules();
    let shank = id(&rules, "Shank");
    let deploy = deploy_all(&rules);
    let game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            deploy(ctx);
            equip(ctx, KREW, "Shank", "Titan of Krulety");
            ctx.set_counter(Scope::Piece(shank), "damage", 1)
                .expect("damage");
        },
        vec![frame(
            "window",
            &[
                ("player", Value::Player(SEEKERS)),
                ("data", Value::Str("after_damage".into())),
                ("target", Value::Piece(shank)),
            ],
        )],
    );
    let state = game.state();
    assert!(
        state
            .zone_cards(&ZoneId::on_piece(KREW, "equipped", shank))
            .is_empty()
    );
    assert_eq!(zone(state, KREW, "power_discard").len(), 1);
}

#[test]
fn at_the_end_of_the_action_phase_illusions_break_and_a_waypoint_resolves_and_stays() {
    // Harrowdeep, upgrades (digest 3.16): Illusions break at the end of the action phase.
    // Gambits (002 L2820-2831; digest 3.15): a persisting card stays face up; Penumbral Falls
    // (a Waypoint) deals 1 damage to every fighter in an edge hex at the end of each action
    // phase. 'Next activation' effects end then too (digest H22).
    let rules = rules();
    let battlefield = rules.battlefield().clone();
    let edge = open_hexes(&rules)
        .into_iter()
        .find(|&h| battlefield.is_edge(h) && !battlefield.has_type(h, "starting"))
        .expect("an edge hex");
    let inner = open_hexes(&rules)
        .into_iter()
        .find(|&h| !battlefield.is_edge(h) && h.distance_to(edge) >= 2)
        .expect("an inner hex");
    let (gikkit, torka) = (id(&rules, "Gikkit"), id(&rules, "Torka Tuffskul"));
    let falls = next_card(&rules);
    let game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Gikkit", edge);
            place(ctx, "Torka Tuffskul", inner);
            ctx.create_card(
                "Penumbral Falls",
                SEEKERS,
                &ZoneId::new(SEEKERS, "persisting"),
            )
            .expect("card");
            equip(ctx, KREW, "Torka Tuffskul", "Titan of Krulety");
        },
        vec![frame(
            "action_phase_end",
            &[("player", Value::Player(KREW))],
        )],
    );
    // The end phase (empty hands: nothing to discard or play; then the draws) is over:
    // the next round's roll-off.
    assert_eq!(request(&game).prompt, "You won the roll-off");
    let state = game.state();
    assert_eq!(state.pieces[&gikkit].counters.get("damage"), Some(&1));
    assert_eq!(
        state.pieces[&torka]
            .counters
            .get("damage")
            .copied()
            .unwrap_or(0),
        0
    );
    assert_eq!(zone(state, SEEKERS, "persisting"), [falls]);
    assert!(
        state
            .zone_cards(&ZoneId::on_piece(KREW, "equipped", torka))
            .is_empty()
    );
    assert!(marked(&game, "after_activation") >= 1);
    assert!(marked(&game, "action_phase_end") >= 1);
}

// ---------------------------------------------------------------------------------------
// The end phase (3.21) and victory (3.22)
// ---------------------------------------------------------------------------------------

#[test]
fn the_end_phase_runs_each_players_whole_sequence_in_turn_with_optional_discards_and_upgrades() {
    // Harrowdeep, end phase (002 L3311-3354; digest 3.21): the player who took the first
    // turn runs steps 1-6 first (score, discard objectives, play upgrades, discard power
    // cards, draw to 3 and 5), then the other; then Move, Charge, Guard and Stagger tokens
    // are cleared.
    let rules = rules();
    let deploy = deploy_all(&rules);
    let torka = id(&rules, "Torka Tuffskul");
    let mut game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            deploy(ctx);
            ctx.set_counter(Scope::Game, "round", 1).expect("round");
            ctx.set_counter(Scope::Game, "first_seat", 1)
                .expect("first");
            ctx.set_counter(Scope::Player(KREW), "glory", 1)
                .expect("glory");
            ctx.create_card("Dark Insight", KREW, &ZoneId::new(KREW, "power_hand"))
                .expect("card");
            let torka = piece(ctx.state(), "Torka Tuffskul");
            ctx.set_tokens(Scope::Piece(torka), "guard", 1)
                .expect("token");
            for player in [KREW, SEEKERS] {
                let deck = ZoneId::new(player, "objective_deck");
                let hand = ZoneId::new(player, "objective_hand");
                let top: Vec<CardId> = ctx
                    .state()
                    .zone_cards(&deck)
                    .iter()
                    .take(2)
                    .copied()
                    .collect();
                for card in top {
                    ctx.move_card(card, &hand, 0).expect("draw");
                }
            }
        },
        vec![frame("end_phase", &[])],
    );
    // The Truthseekers took the first turn: their whole sequence first.
    let mut prompts = Vec::new();
    let mut discarded = false;
    loop {
        let asked = request(&game);
        prompts.push((asked.player, asked.prompt.clone()));
        let choice = match asked.prompt.as_str() {
            "End phase: discard objective cards?" if asked.player == SEEKERS && !discarded => {
                discarded = true;
                option("discard an objective")
            }
            "End phase: play an upgrade?" => option("play an upgrade"),
            "You won the roll-off" => break,
            _ => first_choice(&asked),
        };
        answer(&mut game, asked.player, choice);
    }
    let seekers_done = prompts
        .iter()
        .rposition(|(p, _)| *p == SEEKERS)
        .expect("the Truthseekers were asked");
    let krew_first = prompts
        .iter()
        .position(|(p, _)| *p == KREW)
        .expect("the Kruleboyz were asked");
    assert!(seekers_done < krew_first, "{prompts:?}");
    assert!(prompts.contains(&(KREW, "End phase: play an upgrade?".to_owned())));
    let state = game.state();
    // The upgrade was played for its glory; hands are drawn back up.
    assert_eq!(
        state.players[0].counters.get("glory_spent").copied(),
        Some(1)
    );
    let equipped: usize = state
        .pieces
        .keys()
        .map(|p| {
            state
                .zone_cards(&ZoneId::on_piece(KREW, "equipped", *p))
                .len()
        })
        .sum();
    assert_eq!(equipped, 1);
    assert_eq!(zone(state, SEEKERS, "objective_discard").len(), 1);
    for player in [KREW, SEEKERS] {
        assert_eq!(zone(state, player, "objective_hand").len(), 3);
        assert_eq!(zone(state, player, "power_hand").len(), 5);
    }
    assert_eq!(
        state.pieces[&torka]
            .tokens
            .get("guard")
            .copied()
            .unwrap_or(0),
        0
    );
}

#[test]
fn the_third_end_phase_only_scores_then_the_game_ends() {
    // Harrowdeep, end phase of round 3 (002 L3402-3409; digest 3.21): step 1 only, then the
    // game ends (victory, 3.22).
    let rules = rules();
    let deploy = deploy_all(&rules);
    let game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            deploy(ctx);
            ctx.set_counter(Scope::Game, "round", 3).expect("round");
            ctx.set_counter(Scope::Player(SEEKERS), "glory", 2)
                .expect("glory");
        },
        vec![frame("end_phase", &[])],
    );
    assert!(game.pending().is_empty());
    let result = game.state().result.clone().expect("the game is over");
    assert_eq!(result.winners, [SEEKERS]);
    assert_eq!(result.reason, "most glory");
}

fn victory(arrange: impl Fn(&mut Ctx<'_>) + 'static) -> gloam::core::GameResult {
    let game = scenario(rules(), arrange, vec![frame("victory", &[])]);
    game.state().result.clone().expect("the game is over")
}

#[test]
fn victory_counts_spent_and_unspent_glory() {
    // Harrowdeep, victory (002 L3411-3432; digest 3.22) and upgrades (3.16): glory spent on
    // upgrades still counts. The Kruleboyz spent 2 of their 3 glory; the Truthseekers hold 2.
    let result = victory(|ctx: &mut Ctx<'_>| {
        ctx.set_counter(Scope::Player(KREW), "glory", 3)
            .expect("glory");
        ctx.set_counter(Scope::Player(KREW), "glory_spent", 2)
            .expect("spent");
        ctx.set_counter(Scope::Player(SEEKERS), "glory", 2)
            .expect("glory");
    });
    assert_eq!(result.winners, [KREW]);
    assert_eq!(result.reason, "most glory");
}

#[test]
fn tied_on_glory_the_only_player_with_fighters_left_wins() {
    // Harrowdeep, victory (002 L3411-3432; digest 3.22): tied, the player with surviving
    // fighters wins.
    let result = victory(|ctx: &mut Ctx<'_>| {
        place(ctx, "Shank", Hex::new(1, 1));
        for player in [KREW, SEEKERS] {
            ctx.set_counter(Scope::Player(player), "glory", 3)
                .expect("glory");
        }
    });
    assert_eq!(result.winners, [KREW]);
    assert_eq!(
        result.reason,
        "tied on glory; the only one with fighters left"
    );
}

#[test]
fn tied_on_glory_with_fighters_on_both_sides_and_no_objective_held_is_a_draw() {
    // Harrowdeep, victory (digest 3.22): both have survivors, neither holds more objectives
    // (no feature token shows its objective side): a draw.
    let rules = rules();
    let deploy = deploy_all(&rules);
    let game = scenario(rules, deploy, vec![frame("victory", &[])]);
    let result = game.state().result.clone().expect("over");
    assert_eq!(result.winners, [KREW, SEEKERS]);
    assert_eq!(result.reason, "tied on glory and on objectives held");
}

#[test]
fn tied_on_glory_with_fighters_on_both_sides_the_player_holding_more_objectives_wins() {
    // Harrowdeep, victory (002 L3411-3432; digest 3.22): both have survivors; the player
    // holding more objectives (a fighter on a feature token with its objective side up,
    // digest H17) wins.
    let rules = rules();
    let deploy = deploy_all(&rules);
    let hexes = spread(&rules, 9, 3);
    let game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            deploy(ctx);
            // Shank (the Kruleboyz) stands on the ninth hex.
            ctx.set_hex_type(hexes[8], "feature", true);
            ctx.set_hex_type(hexes[8], "objective", true);
        },
        vec![frame("victory", &[])],
    );
    let result = game.state().result.clone().expect("over");
    assert_eq!(result.winners, [KREW]);
    assert_eq!(result.reason, "tied on glory; holds the most objectives");
}

// ---------------------------------------------------------------------------------------
// Multiplayer (3.24)
// ---------------------------------------------------------------------------------------

#[test]
fn three_and_four_player_battlefields_join_one_board_per_seat_as_the_ruleset_lays_them_out() {
    // Harrowdeep, multiplayer boards (002 L3468-3494; digest 3.24): one board per player,
    // each its territory, placed where the ruleset's `battlefield` items say.
    for players in [2usize, 3, 4] {
        let rules = rules_for(players);
        let battlefield = rules.battlefield();
        assert_eq!(battlefield.board_names().len(), players);
        for seat in 0..players {
            let territory = format!("player{seat}");
            let own = battlefield
                .hexes()
                .filter(|h| battlefield.territory(*h) == Some(territory.as_str()))
                .count();
            assert_eq!(own, 38, "{players} players, seat {seat}");
        }
    }
}

#[test]
fn in_three_players_turns_go_to_the_left_three_each_and_only_two_players_take_a_power_step() {
    // Harrowdeep, multiplayer order of play and turns (002 L3590-3608; digest 3.24): the
    // next player is the one to the left (the next seat), each player takes 3 turns a round,
    // and a power step involves only the active player and the next one.
    let rules = rules_with_fixtures_for(3);
    let deploy = deploy_all(&rules);
    let mut game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            deploy(ctx);
            for seat in 0..3u8 {
                let player = PlayerId(seat);
                ctx.create_card("Test Zap", player, &ZoneId::new(player, "power_hand"))
                    .expect("card");
            }
        },
        vec![frame(
            "turn",
            &[
                ("player", Value::Player(PlayerId(2))),
                ("count", Value::Int(0)),
            ],
        )],
    );
    let mut activations = Vec::new();
    let mut power = Vec::new();
    while let Some(asked) = game.pending().first().map(|r| (*r).clone()) {
        if asked.prompt.starts_with("End phase") || asked.prompt == "You won the roll-off" {
            break;
        }
        if asked.prompt == "Choose an action" {
            activations.push(asked.player.0);
            answer(&mut game, asked.player, option("pass"));
            continue;
        }
        if asked.prompt == "Power step" {
            power.push((activations.len(), asked.player.0));
        }
        let choice = if options(&asked).iter().any(|o| o == "pass") {
            option("pass")
        } else {
            first_choice(&asked)
        };
        answer(&mut game, asked.player, choice);
    }
    assert_eq!(activations, [2, 0, 1, 2, 0, 1, 2, 0, 1]);
    // Every power step asked its two players, the next player first.
    assert_eq!(power.len(), 2 * activations.len());
    assert_eq!(power[0], (1, 0));
    // After seat 2's activation only seats 0 (first) and 2 may play power cards.
    for (turn, seat) in power {
        let active = activations[turn - 1];
        assert!(
            seat == active || seat == (active + 1) % 3,
            "turn {turn}: seat {seat}"
        );
    }
}

#[test]
fn in_four_players_round_two_is_skipped() {
    // Harrowdeep, multiplayer round 2 (002 L3704-3709; digest 3.24, H30): with 4 players the
    // second round is skipped; rounds are numbered 1 and 3. With 3 players it is played.
    for (players, expected) in [(4usize, 3), (3, 2)] {
        let game = scenario(
            rules_for(players),
            |ctx: &mut Ctx<'_>| {
                ctx.set_counter(Scope::Game, "round", 1).expect("round");
            },
            vec![frame("round", &[])],
        );
        assert_eq!(game.state().counter("round"), expected, "{players} players");
    }
}

#[test]
fn in_multiplayer_only_the_warband_that_dealt_the_damage_gains_the_bounty() {
    // Harrowdeep, multiplayer bounty (002 L3636-3642; digest 3.24): only the player whose
    // warband took the fighter out of action gains the bounty; none for a lethal hex.
    for (seat, gainer) in [(3i64, Some(2usize)), (0, None)] {
        let rules = rules_for(3);
        let deploy = deploy_all(&rules);
        let game = scenario(
            rules,
            move |ctx: &mut Ctx<'_>| {
                deploy(ctx);
                let shank = piece(ctx.state(), "Shank");
                ctx.set_counter(Scope::Piece(shank), "damage", 2)
                    .expect("damage");
                ctx.set_counter(Scope::Game, "damage_seat", seat)
                    .expect("seat");
            },
            vec![frame(
                "out_of_action",
                &[("player", Value::Player(PlayerId(2)))],
            )],
        );
        let state = game.state();
        let shank = piece(state, "Shank");
        assert_eq!(state.pieces[&shank].position, None);
        for player in 0..3 {
            let expected = if Some(player) == gainer { 1 } else { 0 };
            assert_eq!(
                glory(state, PlayerId(player as u8)),
                expected,
                "seat {player}"
            );
        }
    }
}

#[test]
fn in_three_players_reaction_priority_goes_round_from_the_next_player_and_after_a_reaction_from_the_one_after_the_reactor()
 {
    // Harrowdeep, multiplayer reactions (002 L3666-3697; digest 3.24): the player whose
    // turn is next decides first, then the others in order of play; after a reaction, the
    // next player in order of play from the last reactor. Seat 0 has the turn: seat 1 leads.
    let rules = rules_with_fixtures_for(3);
    let shank = id(&rules, "Shank");
    let deploy = deploy_all(&rules);
    let mut game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            deploy(ctx);
            for seat in 0..3u8 {
                let player = PlayerId(seat);
                let hand = ZoneId::new(player, "power_hand");
                ctx.create_card("Test Feint", player, &hand).expect("card");
                ctx.create_card("Test Echo", player, &hand).expect("card");
            }
            ctx.set_counter(Scope::Game, "turn_seat", 0).expect("turn");
        },
        vec![frame(
            "move_action",
            &[
                ("player", Value::Player(KREW)),
                ("fighter", Value::Piece(shank)),
            ],
        )],
    );
    move_shank(&mut game);
    let asked = request(&game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (PlayerId(1), REACT_OR_PASS)
    );
    answer(&mut game, PlayerId(1), option("pass"));
    let asked = request(&game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (PlayerId(2), REACT_OR_PASS)
    );
    play_first_card(&mut game, PlayerId(2));
    // After seat 2's reaction, seat 0 (the next from seat 2) leads.
    let asked = request(&game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (PlayerId(0), REACT_OR_PASS)
    );
    for seat in [0u8, 1, 2] {
        let asked = request(&game);
        assert_eq!(asked.player, PlayerId(seat));
        answer(&mut game, PlayerId(seat), option("pass"));
    }
    assert!(game.pending().is_empty(), "{:?}", game.pending());
}

#[test]
fn in_three_players_a_tie_between_two_leaders_with_fighters_is_a_draw_between_them_and_the_third_loses()
 {
    // Harrowdeep, multiplayer victory (002 L3720-3729; digest 3.24): tied players with
    // survivors and no objectives held draw; the other players lose.
    let rules = rules_for(3);
    let deploy = deploy_all(&rules);
    let game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            deploy(ctx);
            for (seat, glory) in [(0u8, 4), (1, 4), (2, 1)] {
                ctx.set_counter(Scope::Player(PlayerId(seat)), "glory", glory)
                    .expect("glory");
            }
        },
        vec![frame("victory", &[])],
    );
    let result = game.state().result.clone().expect("over");
    assert_eq!(result.winners, [PlayerId(0), PlayerId(1)]);
}

#[test]
fn three_and_four_player_games_end_without_errors_and_keep_the_invariants() {
    // Harrowdeep, multiplayer (digest 3.24): whole games between random agents, the
    // invariants checked after every decision (`play_one`).
    for players in [3usize, 4] {
        let rules = rules_for(players);
        for seed in 1..=20 {
            let summary = play_one(&rules, seed);
            assert_eq!(summary.error, None, "{players} players, seed {seed}");
            assert!(!summary.winners.is_empty());
            assert_eq!(summary.glory.len(), players);
        }
    }
}

/// Seat 0 holds two objectives (two of its fighters on objective-side feature tokens) while
/// `out` enemy fighters are out of action, with Path of Order in hand; the end phase's
/// scoring runs. Whether seat 0 scored it.
fn path_of_order_scores(players: usize, out: usize) -> bool {
    let rules = rules_for(players);
    let count = bare(&rules).state().pieces.len();
    let hexes = spread(&rules, count, 2);
    let game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            let pieces: Vec<(PlayerId, PieceId)> = ctx
                .state()
                .pieces
                .values()
                .map(|p| (p.owner, p.id))
                .collect();
            let mut held = 0;
            let mut left_out = 0;
            for ((owner, id), hex) in pieces.into_iter().zip(&hexes) {
                if owner != PlayerId(0) && left_out < out {
                    left_out += 1;
                    continue;
                }
                ctx.place_piece(id, Some(Position::Hex(*hex)), vec![], "deploy")
                    .expect("place");
                if owner == PlayerId(0) && held < 2 {
                    held += 1;
                    ctx.set_hex_type(*hex, "feature", true);
                    ctx.set_hex_type(*hex, "objective", true);
                }
            }
            assert_eq!(left_out, out, "enough enemy fighters");
            let hand = ZoneId::new(PlayerId(0), "objective_hand");
            ctx.create_card("Path of Order", PlayerId(0), &hand)
                .expect("card");
            ctx.set_counter(Scope::Game, "first_seat", 0)
                .expect("first");
        },
        vec![frame("end_phase", &[])],
    );
    let scored = glory(game.state(), PlayerId(0)) == 2;
    assert_eq!(
        zone(game.state(), PlayerId(0), "scored").len() == 1,
        scored,
        "{players} players, {out} out"
    );
    scored
}

#[test]
fn path_of_order_needs_four_enemies_out_with_three_or_four_players() {
    // Harrowdeep, multiplayer variant objectives (002 L3496-3514, L3568-3588; digest 3.20,
    // 3.24): Path of Order's icons for 3 and 4 players replace "two or more" enemy fighters
    // out of action with "four or more"; with 2 players the icons are ignored.
    for (players, out, scores) in [
        (2usize, 2usize, true),
        (2, 1, false),
        (3, 2, false),
        (3, 3, false),
        (3, 4, true),
        (4, 3, false),
        (4, 4, true),
    ] {
        assert_eq!(
            path_of_order_scores(players, out),
            scores,
            "{players} players, {out} enemies out"
        );
    }
}

/// Harrowdeep, out of action (3.12; 002 L2469-2475): the fighter taken out of action is
/// taken off the battlefield and its tokens and counters are cleared (wound counters too;
/// they are not "removed", so it is not healed). Before, they stayed on it.
#[test]
fn a_fighter_taken_out_of_action_loses_its_tokens_and_counters() {
    let rules = rules();
    let deploy = deploy_all(&rules);
    let game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            deploy(ctx);
            let shank = piece(ctx.state(), "Shank");
            let wounds = ctx.state().characteristic(shank, "wounds").expect("wounds");
            ctx.set_counter(Scope::Piece(shank), "damage", wounds)
                .expect("damage");
            ctx.set_counter(Scope::Piece(shank), "supported_in_attack", 1)
                .expect("counter");
            for token in ["guard", "stagger", "move"] {
                ctx.set_tokens(Scope::Piece(shank), token, 1)
                    .expect("token");
            }
        },
        vec![frame(
            "out_of_action",
            &[("player", Value::Player(SEEKERS))],
        )],
    );
    let state = game.state();
    let shank = &state.pieces[&piece(state, "Shank")];
    assert_eq!(shank.position, None, "out of action");
    assert!(
        shank.tokens.values().all(|n| *n == 0),
        "tokens: {:?}",
        shank.tokens
    );
    assert!(
        shank.counters.values().all(|n| *n == 0),
        "counters: {:?}",
        shank.counters
    );
    assert_eq!(glory(state, SEEKERS), 1, "the bounty is still gained");
}

/// Harrowdeep, multiplayer bounty (3.24; 002 L3636-3642): a fighter taken out of action by
/// a lethal hex gives no one a bounty, even when it was pushed there in another warband's
/// Attack action (the flow's `lethal_hexes` step, with the attacker's seat still recorded).
#[test]
fn in_multiplayer_a_lethal_hex_kill_gives_no_bounty() {
    let rules = rules_for(3);
    let deploy = deploy_all(&rules);
    let shank = id(&rules, "Shank");
    let hex = spread(&rules, 9, 3)[KINDS.iter().position(|k| *k == "Shank").expect("Shank")];
    let game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            deploy(ctx);
            let wounds = ctx.state().characteristic(shank, "wounds").expect("wounds");
            ctx.set_counter(Scope::Piece(shank), "damage", wounds - 1)
                .expect("damage");
            // The Attack action that drove Shank back was seat 2's (1 + seat).
            ctx.set_counter(Scope::Game, "damage_seat", 3)
                .expect("seat");
            ctx.set_hex_type(hex, "lethal", true);
        },
        vec![frame(
            "lethal_hexes",
            &[
                ("player", Value::Player(PlayerId(2))),
                ("fighter", Value::Piece(shank)),
                ("data", Value::List(vec![Value::Hex(hex)])),
            ],
        )],
    );
    let state = game.state();
    assert_eq!(state.pieces[&shank].position, None, "out of action");
    for seat in 0..3u8 {
        assert_eq!(glory(state, PlayerId(seat)), 0, "seat {seat}");
    }
}

/// Test-only cards: a reaction to a revealed power card, an upgrade and a spell.
const REVEAL_FIXTURES: &str = r#"
card "Test Glance" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = card_revealed
    text = "Test fixture. Reaction: after a power card is revealed; nothing happens."
    effect = { mark("glance"); }
}

card "Test Boon" {
    ruleset = "harrowdeep"
    kind = upgrade
    owner = universal
    cost = 1
    text = "Test fixture. An upgrade that does nothing."
}

card "Test Twin Channel" {
    ruleset = "harrowdeep"
    kind = spell
    owner = universal
    casting_value = [channel: 2]
    window = power_step
    text = "Test fixture. Spell. If cast, gain 1 glory."
    effect = { gain_glory(player, 1); }
}
"#;

/// Harrowdeep, playing an upgrade (3.16; 002 L2865-2870) and a gambit spell (3.15; 002
/// L2803-2807): the card is revealed with a reaction step before the upgrade is given (the
/// glory spent, the fighter declared) and before the spell's casting roll; a placed upgrade
/// has its reaction step too (`card_resolved`). Before, an upgrade was given and a spell
/// rolled with no reaction step.
#[test]
fn a_revealed_upgrade_or_gambit_spell_opens_a_reaction_step_first() {
    let rules = with_fixture_for("harrowdeep", "reveal-fixtures", REVEAL_FIXTURES, 2);
    for card in ["Test Boon", "Test Twin Channel"] {
        let hands: &'static [&'static str] = if card == "Test Boon" {
            &["Test Boon"]
        } else {
            &["Test Twin Channel"]
        };
        let deal = with_hands(&rules, KREW, &["Test Glance"], hands);
        let mut game = scenario(
            rules.clone(),
            move |ctx: &mut Ctx<'_>| {
                deal(ctx);
                ctx.set_counter(Scope::Player(SEEKERS), "glory", 1)
                    .expect("glory");
            },
            vec![frame(
                "power_step",
                &[
                    ("player", Value::Player(SEEKERS)),
                    ("count", Value::Int(0)),
                    (
                        "data",
                        Value::List(vec![Value::Player(SEEKERS), Value::Player(KREW)]),
                    ),
                ],
            )],
        );
        answer(&mut game, SEEKERS, option("play a card"));
        let asked = request(&game);
        answer(&mut game, SEEKERS, first_choice(&asked));
        // A spell: the wizard, if asked.
        let asked = request(&game);
        if asked.prompt == "Which wizard attempts the cast?" {
            answer(&mut game, SEEKERS, first_choice(&asked));
        }
        let asked = request(&game);
        assert_eq!(
            (asked.player, asked.prompt.as_str()),
            (KREW, REACT_OR_PASS),
            "{card}: the reveal's reaction step comes first"
        );
        assert_eq!(marked(&game, "card_revealed"), 1, "{card}");
        let rolled_before = game
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Rolled { .. }))
            .count();
        assert_eq!(rolled_before, 0, "{card}: nothing rolled yet");
        assert_eq!(
            game.state().players[SEEKERS.0 as usize]
                .counters
                .get("glory_spent")
                .copied()
                .unwrap_or(0),
            0,
            "{card}: no glory spent yet"
        );
        play_first_card(&mut game, KREW);
        assert_eq!(marked(&game, "glance"), 1, "{card}");
        if card == "Test Boon" {
            let asked = request(&game);
            assert_eq!(asked.prompt, "Which fighter takes the upgrade?");
            answer(&mut game, SEEKERS, first_choice(&asked));
            assert_eq!(marked(&game, "card_resolved"), 1, "the upgrade is placed");
        }
    }
}

/// Test-only cards: a reaction after any Move action, and one after any activation.
const SHARED_STEP_FIXTURES: &str = r#"
card "Test Step Feint" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = after_move
    text = "Test fixture. Reaction: after any Move action; nothing happens."
    effect = { mark("step_feint"); }
}

card "Test Step Nod" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = after_activation
    text = "Test fixture. Reaction: after any activation; nothing happens."
    effect = { mark("step_nod"); }
}
"#;

/// Harrowdeep, reactions after an action and after an activation (3.19; 002 L3133-3135,
/// L3275-3277; digest H10): the end of a Move activation's Move and the end of the
/// activation share one reaction step, so a player picks an "after a Move action" reaction
/// or an "after an activation" one, and once one is used there is no second step. (The flow
/// opened `after_move`, then `after_activation` in a second reaction step.)
#[test]
fn a_move_activation_ends_with_one_reaction_step_for_the_move_and_the_activation() {
    let rules = with_fixture_for("harrowdeep", "shared-step", SHARED_STEP_FIXTURES, 2);
    let deal = with_hands(
        &rules,
        KREW,
        &["Test Step Nod"],
        &["Test Step Feint", "Test Step Nod"],
    );
    let mut game = scenario(
        rules,
        deal,
        vec![frame("activation", &[("player", Value::Player(KREW))])],
    );
    answer(&mut game, KREW, option("move"));
    let asked = request(&game);
    assert_eq!(asked.prompt, "Which fighter moves?");
    let shank = piece(game.state(), "Shank");
    answer(&mut game, KREW, Choice::Piece(shank));
    move_shank(&mut game);
    // One step: the Truthseekers (whose turn is next) are offered both reactions in it.
    let asked = request(&game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (SEEKERS, REACT_OR_PASS)
    );
    answer(&mut game, SEEKERS, option("play a reaction card"));
    let asked = request(&game);
    let offered: Vec<String> = match &asked.options {
        Options::One { choices } => choices
            .iter()
            .filter_map(|c| match c {
                Choice::Card(id) => Some(game.state().cards[id].name.clone()),
                _ => None,
            })
            .collect(),
        other => panic!("{other:?}"),
    };
    assert_eq!(offered.len(), 2, "{offered:?}");
    let feint = match &asked.options {
        Options::One { choices } => choices
            .iter()
            .find(|c| matches!(c, Choice::Card(id) if game.state().cards[id].name == "Test Step Feint"))
            .cloned()
            .expect("Test Step Feint offered"),
        other => panic!("{other:?}"),
    };
    answer(&mut game, SEEKERS, feint);
    // The reaction is used: no second step offers the "after an activation" ones.
    for _ in 0..10 {
        let Some(asked) = game.pending().first().map(|r| (*r).clone()) else {
            break;
        };
        assert_ne!(asked.prompt, REACT_OR_PASS, "a second reaction step");
        answer(&mut game, asked.player, first_choice(&asked));
    }
    assert_eq!(marked(&game, "step_feint"), 1);
    assert_eq!(marked(&game, "step_nod"), 0);
    assert_eq!(game.state().counter("reactions_this_phase"), 1);
}
