//! Harrowdeep rules played from the data in cards/harrowdeep (seed 002): the Inspire steps
//! (rules digest 3.13) and the reaction steps (3.19) of the flow.
//!
//! Each scenario starts a match of the shipped data, arranges the battlefield through the
//! kernel's `Ctx` (who stands where, damage, counters, cards in hand), then runs chosen
//! steps of the flow and answers its requests.

use gloam::agent::{Agent, RandomAgent};
use gloam::core::{
    Choice, Ctx, Event, Frame, Game, GameState, Hex, Options, PlayerId, Position, Scope, Value,
    Visibility, ZoneId,
};
use gloam::engine::RulesetGame;
use gloam::sim::check_invariants;

mod scenario;
use scenario::{
    KREW, SEEKERS, Scenario, answer, bare, frame, hex_choices, id, inspired, open_hexes, option,
    options, piece, place, request, shipped, with_fixture,
};

fn rules() -> RulesetGame {
    shipped("harrowdeep")
}

/// A test-only reaction ploy, for scenarios where both players need a reaction in one
/// window: no shipped card gives both warbands one.
const FEINT: &str = r#"
card "Test Feint" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = after_move
    text = "Test fixture. Reaction: after any Move action; nothing happens."
    effect = { mark("feint"); }
}
"#;

/// The shipped data plus the test ploy.
fn rules_with_feint() -> RulesetGame {
    with_fixture("harrowdeep", "harrowdeep-rules-feint", FEINT)
}

/// Starts `frames` of the flow after `arrange`.
fn scenario(
    rules: RulesetGame,
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
    frames: Vec<Frame>,
) -> Game<Scenario> {
    let setup = rules.setup(7);
    let scenario = Scenario {
        rules,
        arrange: Box::new(arrange),
    };
    Game::start(scenario, setup, frames).expect("the scenario starts")
}

/// `n` open hexes, each at least `apart` from the others and from `avoid`.
fn spread(rules: &RulesetGame, n: usize, apart: u32, avoid: &[Hex]) -> Vec<Hex> {
    let mut picked: Vec<Hex> = Vec::new();
    for hex in open_hexes(rules) {
        if picked
            .iter()
            .chain(avoid)
            .all(|other| hex.distance_to(*other) >= apart)
        {
            picked.push(hex);
        }
        if picked.len() == n {
            return picked;
        }
    }
    panic!("the battlefield has no {n} hexes {apart} apart");
}

const REACT_OR_PASS: &str = "Reaction step: react or pass?";

/// Seat 1 fields every Truthseeker but `missing`, seat 0 every Kruleboy, no two fighters
/// next to each other, so no one supports anyone and no reaction's condition holds by
/// accident.
fn deploy_all_but(
    rules: &RulesetGame,
    missing: &'static [&'static str],
) -> impl Fn(&mut Ctx<'_>) + use<> {
    let hexes = spread(rules, 9, 2, &[]);
    move |ctx: &mut Ctx<'_>| {
        let kinds = [
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
        for (kind, hex) in kinds.iter().zip(&hexes) {
            if !missing.contains(kind) {
                place(ctx, kind, *hex);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Inspire (3.13)
// ---------------------------------------------------------------------------------------

#[test]
fn a_fighter_whose_condition_holds_is_inspired_at_the_next_inspire_step_and_not_before() {
    // Harrowdeep, Inspire (3.13; 002 L1330-1353): a fighter whose condition is met becomes
    // Inspired at the next Inspire step, which follows each activation step. Dhoraz was
    // never deployed: out of action, so the other Truthseekers' condition holds (and he,
    // off the battlefield, cannot be inspired).
    let rules = rules();
    let arrange = deploy_all_but(&rules, &["Dhoraz Giant-fell"]);
    let mut game = scenario(
        rules,
        arrange,
        vec![
            frame("activation", &[("player", Value::Player(SEEKERS))]),
            frame("inspire_step", &[("player", Value::Player(SEEKERS))]),
        ],
    );
    // The activation step asks first; the condition holds, but no Inspire step has run.
    let asked = request(&game);
    assert_eq!(asked.player, SEEKERS);
    assert_eq!(asked.prompt, "Choose an action");
    for kind in ["Calthia Xandire", "Luxa Stormrider", "Taros"] {
        assert!(
            !inspired(game.state(), kind),
            "{kind} inspired before the step"
        );
    }
    answer(&mut game, SEEKERS, option("pass"));
    // The Inspire step after the activation step.
    assert!(game.pending().is_empty());
    assert!(inspired(game.state(), "Calthia Xandire"));
    assert!(inspired(game.state(), "Luxa Stormrider"));
    // Digest H8: Taros's condition reads "a friendly Stormrider is Inspired"; the step
    // repeats until no one new is inspired, so he follows Luxa in the same step.
    assert!(inspired(game.state(), "Taros"));
    assert!(!inspired(game.state(), "Dhoraz Giant-fell"));
    // The Kruleboyz' condition does not hold: one enemy out, no support.
    for kind in ["Mannok da Kunnin'", "Torka Tuffskul", "Shank"] {
        assert!(!inspired(game.state(), kind), "{kind}");
    }
    // The inspirations follow the step's marker.
    let marker = game
        .events()
        .iter()
        .position(|e| matches!(e, Event::Marker { name, .. } if name == "inspire_step"))
        .expect("the inspire step is marked");
    let first_inspired = game
        .events()
        .iter()
        .position(|e| matches!(e, Event::KeywordChanged { keyword, present: true, .. } if keyword == "inspired"))
        .expect("someone was inspired");
    assert!(marker < first_inspired);
}

#[test]
fn a_fighter_whose_condition_does_not_hold_stays_uninspired() {
    // Harrowdeep, Inspire (3.13): only fighters whose condition has been met are inspired.
    let rules = rules();
    let arrange = deploy_all_but(&rules, &[]);
    let game = scenario(
        rules,
        arrange,
        vec![frame("inspire_step", &[("player", Value::Player(KREW))])],
    );
    assert!(game.pending().is_empty());
    assert!(
        !game
            .state()
            .pieces
            .values()
            .any(|p| p.keywords.contains("inspired"))
    );
}

#[test]
fn the_player_who_last_took_an_activation_inspires_first_and_event_conditions_are_latched_until_the_step()
 {
    // Harrowdeep, Inspire (3.13; 002 L1334-1338): "starting with the player who last took
    // an activation". Digest H9: the Kruleboyz' "after an Attack action in which this
    // fighter supports or is supported" is latched in the counter `supported_in_attack`
    // until the next Inspire step.
    for (first, expected) in [(KREW, "Torka Tuffskul"), (SEEKERS, "Calthia Xandire")] {
        let rules = rules();
        let deploy = deploy_all_but(&rules, &["Dhoraz Giant-fell"]);
        let game = scenario(
            rules,
            move |ctx: &mut Ctx<'_>| {
                deploy(ctx);
                let torka = piece(ctx.state(), "Torka Tuffskul");
                ctx.set_counter(Scope::Piece(torka), "supported_in_attack", 1)
                    .expect("counter");
            },
            vec![frame("inspire_step", &[("player", Value::Player(first))])],
        );
        assert!(game.pending().is_empty());
        let state = game.state();
        let order: Vec<&str> = game
            .events()
            .iter()
            .filter_map(|e| match e {
                Event::KeywordChanged {
                    piece,
                    keyword,
                    present: true,
                } if keyword == "inspired" => Some(state.pieces[piece].kind.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(order.first().copied(), Some(expected), "{order:?}");
        assert!(inspired(state, "Torka Tuffskul"));
        assert!(!inspired(state, "Shank"));
        // The latch is cleared by the step.
        let torka = piece(state, "Torka Tuffskul");
        assert_eq!(
            state.pieces[&torka]
                .counters
                .get("supported_in_attack")
                .copied()
                .unwrap_or(0),
            0
        );
    }
}

#[test]
fn in_whole_games_fighters_are_inspired_only_in_inspire_steps() {
    // Harrowdeep, Inspire (3.13): fighters become Inspired at Inspire steps, never in the
    // middle of an activation (002 L1330-1333); no card of the seed inspires directly.
    let rules = rules();
    let mut inspirations = 0;
    for seed in 1..=6 {
        let mut game = Game::start(
            rules.clone(),
            rules.setup(seed),
            RulesetGame::first_frames(),
        )
        .expect("start");
        let mut agents = [RandomAgent::new(seed), RandomAgent::new(seed + 100)];
        while !game.is_over() {
            let request = game.pending()[0].clone();
            let answer =
                agents[request.player.0 as usize].choose(&game.view(request.player), &request);
            game.submit(request.player, answer)
                .unwrap_or_else(|error| panic!("seed {seed}: {error}"));
        }
        let events = game.events();
        for (index, event) in events.iter().enumerate() {
            if !matches!(event, Event::KeywordChanged { keyword, present: true, .. } if keyword == "inspired")
            {
                continue;
            }
            inspirations += 1;
            // Back to the step's marker, only other inspirations (and their new sides).
            let marker = events[..index]
                .iter()
                .rev()
                .find(|e| {
                    !matches!(
                        e,
                        Event::KeywordChanged { .. } | Event::CharacteristicChanged { .. }
                    )
                })
                .expect("an earlier event");
            assert!(
                matches!(marker, Event::Marker { name, .. } if name == "inspire_step"),
                "seed {seed}: event {index} inspires after {marker:?}"
            );
        }
    }
    assert!(inspirations > 0, "random games inspire someone");
}

// ---------------------------------------------------------------------------------------
// Reactions (3.19)
// ---------------------------------------------------------------------------------------

/// Luxa with Taros 3 hexes away, Shank far from every other Kruleboy (Mannok's Kunnin'
/// Kommand needs a friend next to him), Calthia far from everyone.
fn companions(rules: &RulesetGame) -> (impl Fn(&mut Ctx<'_>) + use<>, Hex, Hex) {
    let open = open_hexes(rules);
    let (luxa, taros) = open
        .iter()
        .find_map(|&a| {
            open.iter()
                .find(|&&b| a.distance_to(b) == 3)
                .map(|&b| (a, b))
        })
        .expect("two hexes 3 apart");
    let others = spread(rules, 4, 3, &[luxa, taros]);
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Luxa Stormrider", luxa);
        place(ctx, "Taros", taros);
        place(ctx, "Shank", others[0]);
        place(ctx, "Mannok da Kunnin'", others[1]);
        place(ctx, "Calthia Xandire", others[2]);
        place(ctx, "Torka Tuffskul", others[3]);
    };
    (arrange, luxa, taros)
}

#[test]
fn taross_reaction_is_offered_after_luxas_move_when_its_condition_holds() {
    // Harrowdeep, Reactions (3.19; 002 L3073-3310): a reaction is used in the reaction step
    // of its window. Taros's reaction (seed 002 L545-579): after a friendly Stormrider's
    // Move action, push him up to 3 hexes to end within 2 hexes of her.
    let rules = rules();
    let (luxa, taros) = (id(&rules, "Luxa Stormrider"), id(&rules, "Taros"));
    let (arrange, _, taros_hex) = companions(&rules);
    let mut game = scenario(
        rules,
        arrange,
        vec![frame(
            "move_action",
            &[
                ("player", Value::Player(SEEKERS)),
                ("fighter", Value::Piece(luxa)),
            ],
        )],
    );
    // The Move action asks where she goes: no reaction step yet.
    let asked = request(&game);
    assert_eq!(asked.prompt, "Where does it move?");
    let near = hex_choices(&asked)
        .into_iter()
        .find(|h| h.distance_to(taros_hex) <= 2)
        .expect("a destination near Taros");
    answer(&mut game, SEEKERS, Choice::Hex(near));
    // The window `after_move` opens; the Truthseekers (whose turn is next: the Kruleboyz
    // have the turn) have priority.
    let asked = request(&game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (SEEKERS, REACT_OR_PASS)
    );
    assert_eq!(options(&asked), ["use a fighter's reaction", "pass"]);
    answer(&mut game, SEEKERS, option("use a fighter's reaction"));
    let asked = request(&game);
    assert_eq!(
        asked.options,
        Options::One {
            choices: vec![Choice::Piece(taros)]
        }
    );
    answer(&mut game, SEEKERS, Choice::Piece(taros));
    let asked = request(&game);
    assert_eq!(asked.prompt, "Where does Taros end his push?");
    let end = hex_choices(&asked)[0];
    answer(&mut game, SEEKERS, Choice::Hex(end));
    // One reaction in the step: nobody else is asked.
    assert!(game.pending().is_empty());
    let state = game.state();
    assert_eq!(state.pieces[&taros].position, Some(Position::Hex(end)));
    assert!(end.distance_to(near) <= 2);
    assert_eq!(state.counter("reactions_this_phase"), 1);
    assert!(
        game.events()
            .iter()
            .any(|e| matches!(e, Event::Marker { name, .. } if name == "after_reaction"))
    );
}

#[test]
fn no_reaction_is_offered_when_no_condition_holds() {
    // Harrowdeep, Reactions (3.19): Taros's reaction needs a friendly Stormrider's Move;
    // Shank's Move opens the same window, but no reaction's condition holds, so no one is
    // asked.
    let rules = rules();
    let shank = id(&rules, "Shank");
    let (arrange, _, _) = companions(&rules);
    let mut game = scenario(
        rules,
        arrange,
        vec![frame(
            "move_action",
            &[
                ("player", Value::Player(KREW)),
                ("fighter", Value::Piece(shank)),
            ],
        )],
    );
    let asked = request(&game);
    assert_eq!(asked.prompt, "Where does it move?");
    let mannok = game.state().pieces[&piece(game.state(), "Mannok da Kunnin'")]
        .position
        .and_then(Position::hex)
        .expect("Mannok stands");
    // A destination away from Mannok, so Kunnin' Kommand does not apply either.
    let to = hex_choices(&asked)
        .into_iter()
        .find(|h| h.distance_to(mannok) >= 2)
        .expect("a destination away from Mannok");
    answer(&mut game, KREW, Choice::Hex(to));
    assert!(game.pending().is_empty(), "{:?}", game.pending());
    assert!(
        game.events()
            .iter()
            .any(|e| matches!(e, Event::Marker { name, .. } if name == "after_move"))
    );
    assert_eq!(game.state().counter("reactions_this_phase"), 0);
}

#[test]
fn a_damage_reaction_comes_before_the_out_of_action_check() {
    // Harrowdeep, Reactions (3.19; 002 L3108-3111) and digest H11/H12: "dealt damage that
    // will take her out of action" reactions are used in the damage reaction step, while
    // the fighter still stands. Luxa, one wound from out of action, enters a lethal hex.
    let rules = rules();
    let lethal = rules
        .battlefield()
        .hexes()
        .find(|&h| rules.battlefield().has_type(h, "lethal"))
        .expect("a lethal hex");
    let luxa = id(&rules, "Luxa Stormrider");
    let wounds = bare(&rules)
        .state()
        .characteristic(luxa, "wounds")
        .expect("wounds");
    for (damage, offered) in [(wounds - 1, true), (0, false)] {
        let (arrange, _, _) = companions(&rules);
        let mut game = scenario(
            rules.clone(),
            move |ctx: &mut Ctx<'_>| {
                arrange(ctx);
                ctx.set_counter(Scope::Piece(luxa), "damage", damage)
                    .expect("damage");
            },
            vec![frame(
                "lethal_hexes",
                &[
                    ("fighter", Value::Piece(luxa)),
                    ("data", Value::List(vec![Value::Hex(lethal)])),
                ],
            )],
        );
        if !offered {
            // Not enough damage to take her out: her reaction's condition does not hold.
            assert!(game.pending().is_empty());
            assert_eq!(game.state().pieces[&luxa].counters["damage"], 1);
            continue;
        }
        let asked = request(&game);
        assert_eq!(
            (asked.player, asked.prompt.as_str()),
            (SEEKERS, REACT_OR_PASS)
        );
        // She still stands, with damage equal to her Wounds.
        assert!(game.state().pieces[&luxa].position.is_some());
        assert_eq!(game.state().pieces[&luxa].counters["damage"], wounds);
        answer(&mut game, SEEKERS, option("pass"));
        // The Kruleboyz have no reaction; the out-of-action check follows.
        assert!(game.pending().is_empty());
        let state = game.state();
        assert_eq!(state.pieces[&luxa].position, None);
        // The bounty (3.12) goes to her enemy.
        assert_eq!(state.players[0].counters.get("glory").copied(), Some(1));
    }
}

#[test]
fn an_upgrades_reaction_is_offered_after_its_fighters_activation() {
    // Harrowdeep, Reactions (3.19; 002 L3188-3203, "Unfaltering Stride"): reactions on
    // upgrades given to a surviving fighter; the reaction step after an activation step
    // (digest H10: shared by "after an action" and "after an activation").
    let rules = rules();
    let calthia = id(&rules, "Calthia Xandire");
    let deploy = deploy_all_but(&rules, &[]);
    let mut game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            deploy(ctx);
            let zone = ZoneId::on_piece(SEEKERS, "equipped", calthia);
            ctx.create_zone(zone.clone(), Visibility::Public)
                .expect("zone");
            ctx.create_card("Unfaltering Stride", SEEKERS, &zone)
                .expect("card");
            ctx.set_counter(Scope::Game, "turn_seat", 1).expect("turn");
        },
        vec![frame("activation", &[("player", Value::Player(SEEKERS))])],
    );
    answer(&mut game, SEEKERS, option("guard"));
    answer(&mut game, SEEKERS, Choice::Piece(calthia));
    // The Kruleboyz (next turn) have priority but no reaction: they are not asked.
    let asked = request(&game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (SEEKERS, REACT_OR_PASS)
    );
    assert_eq!(options(&asked), ["use an upgrade's reaction", "pass"]);
    answer(&mut game, SEEKERS, option("use an upgrade's reaction"));
    let stride = match &request(&game).options {
        Options::One { choices } => choices[0].clone(),
        other => panic!("{other:?}"),
    };
    answer(&mut game, SEEKERS, stride);
    let asked = request(&game);
    assert_eq!(asked.prompt, "Where is it pushed?");
    let to = hex_choices(&asked)[0];
    answer(&mut game, SEEKERS, Choice::Hex(to));
    assert!(game.pending().is_empty());
    let state = game.state();
    assert_eq!(state.pieces[&calthia].position, Some(Position::Hex(to)));
    // The upgrade stays on her.
    assert_eq!(
        state
            .zone_cards(&ZoneId::on_piece(SEEKERS, "equipped", calthia))
            .len(),
        1
    );
    assert_eq!(state.counter("reactions_this_phase"), 1);
}

/// The two hands each hold the test ploy; Shank stands alone.
fn feint_hands(rules: &RulesetGame, turn: PlayerId) -> impl Fn(&mut Ctx<'_>) + use<> {
    let (arrange, _, _) = companions(rules);
    move |ctx: &mut Ctx<'_>| {
        arrange(ctx);
        for player in [KREW, SEEKERS] {
            ctx.create_card("Test Feint", player, &ZoneId::new(player, "power_hand"))
                .expect("card");
        }
        ctx.set_counter(Scope::Game, "turn_seat", i64::from(turn.0))
            .expect("turn");
    }
}

fn hand(state: &GameState, player: PlayerId) -> usize {
    state.zone_cards(&ZoneId::new(player, "power_hand")).len()
}

/// Shank moves away from Mannok: the window `after_move` opens with both players holding
/// a reaction for it.
fn shank_moves(rules: &RulesetGame, turn: PlayerId) -> Game<Scenario> {
    let shank = id(rules, "Shank");
    let mut game = scenario(
        rules.clone(),
        feint_hands(rules, turn),
        vec![frame(
            "move_action",
            &[
                ("player", Value::Player(KREW)),
                ("fighter", Value::Piece(shank)),
            ],
        )],
    );
    let mannok = game.state().pieces[&piece(game.state(), "Mannok da Kunnin'")]
        .position
        .and_then(Position::hex)
        .expect("Mannok stands");
    let to = hex_choices(&request(&game))
        .into_iter()
        .find(|h| h.distance_to(mannok) >= 2)
        .expect("a destination away from Mannok");
    answer(&mut game, KREW, Choice::Hex(to));
    game
}

#[test]
fn at_most_one_reaction_is_used_in_a_reaction_step() {
    // Harrowdeep, Reactions (3.19; 002 L3238-3259): "only one reaction can be played in
    // each reaction step"; the player whose turn is next takes precedence.
    let rules = rules_with_feint();
    let mut game = shank_moves(&rules, KREW);
    let asked = request(&game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (SEEKERS, REACT_OR_PASS)
    );
    assert_eq!(options(&asked), ["play a reaction card", "pass"]);
    answer(&mut game, SEEKERS, option("play a reaction card"));
    let card = match &request(&game).options {
        Options::One { choices } => choices[0].clone(),
        other => panic!("{other:?}"),
    };
    answer(&mut game, SEEKERS, card);
    // The Kruleboyz could react too, but the step has had its reaction.
    assert!(game.pending().is_empty(), "{:?}", game.pending());
    let state = game.state();
    assert_eq!(hand(state, SEEKERS), 0);
    assert_eq!(hand(state, KREW), 1);
    assert_eq!(
        state
            .zone_cards(&ZoneId::new(SEEKERS, "power_discard"))
            .len(),
        1
    );
    assert_eq!(state.counter("reactions_this_phase"), 1);
    assert!(
        game.events()
            .iter()
            .any(|e| matches!(e, Event::Marker { name, .. } if name == "feint"))
    );
}

#[test]
fn when_the_player_with_priority_passes_the_other_may_react() {
    // Harrowdeep, Reactions (3.19; 002 L3238-3247): "If the player whose turn is next does
    // not wish to play a reaction, they say 'pass', and the other player can play a
    // reaction."
    let rules = rules_with_feint();
    let mut game = shank_moves(&rules, KREW);
    answer(&mut game, SEEKERS, option("pass"));
    let asked = request(&game);
    assert_eq!((asked.player, asked.prompt.as_str()), (KREW, REACT_OR_PASS));
    answer(&mut game, KREW, option("play a reaction card"));
    let card = match &request(&game).options {
        Options::One { choices } => choices[0].clone(),
        other => panic!("{other:?}"),
    };
    answer(&mut game, KREW, card);
    assert!(game.pending().is_empty());
    assert_eq!(hand(game.state(), SEEKERS), 1);
    assert_eq!(hand(game.state(), KREW), 0);

    // Both pass: the step ends with no reaction.
    let mut game = shank_moves(&rules, KREW);
    answer(&mut game, SEEKERS, option("pass"));
    answer(&mut game, KREW, option("pass"));
    assert!(game.pending().is_empty());
    assert_eq!(game.state().counter("reactions_this_phase"), 0);
}

#[test]
fn priority_goes_to_the_player_whose_turn_is_next() {
    // Harrowdeep, Reactions (3.19; 002 L3238-3241): during the Truthseekers' turn the
    // Kruleboyz, whose turn is next, decide first.
    let rules = rules_with_feint();
    let game = shank_moves(&rules, SEEKERS);
    let asked = request(&game);
    assert_eq!((asked.player, asked.prompt.as_str()), (KREW, REACT_OR_PASS));
}

#[test]
fn random_games_with_reactions_keep_the_invariants() {
    // Harrowdeep, Reactions (3.19): whole games with the reaction steps end with a result.
    let rules = rules();
    let mut reactions = 0;
    for seed in 1..=6 {
        let mut game = Game::start(
            rules.clone(),
            rules.setup(seed),
            RulesetGame::first_frames(),
        )
        .expect("start");
        let mut agents = [RandomAgent::new(seed), RandomAgent::new(seed + 100)];
        while !game.is_over() {
            let request = game.pending()[0].clone();
            let answer =
                agents[request.player.0 as usize].choose(&game.view(request.player), &request);
            game.submit(request.player, answer)
                .unwrap_or_else(|error| panic!("seed {seed}: {error}"));
            check_invariants(game.state()).unwrap_or_else(|error| panic!("seed {seed}: {error}"));
        }
        reactions += game
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Marker { name, .. } if name == "after_reaction"))
            .count();
    }
    assert!(reactions > 0, "random games use reactions");
}
