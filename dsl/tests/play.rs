//! The vocabulary a ruleset's flow runs on: queuing steps, cards and the end of the game;
//! fighters and movement; dice; the cards' catalog and conditions.

mod common;

use std::sync::Arc;

use common::{Fixture, fixture, render};
use gloam_core::{
    Answer, Battlefield, Board, CardId, Choice, Ctx, Dice, Event, GameResult, GameState, Hex,
    PieceId, Placement, PlayerId, Position, Value, Visibility, ZoneId,
};
use gloam_dsl::{
    Bindings, CardInfo, CardRestriction, FlowRequest, Host, KnownNames, NameKind, Outcome,
    ScriptContext, ScriptSource, World,
};

const ANN: PlayerId = PlayerId(0);
const BO: PlayerId = PlayerId(1);

fn hexes(list: &[(i32, i32)]) -> Value {
    Value::List(
        list.iter()
            .map(|&(q, r)| Value::Hex(Hex::new(q, r)))
            .collect(),
    )
}

/// The fixture's cards: Ann has cards 0-2 (Sidestep, Shove, Cut) in her power deck, Bo
/// cards 3-5.
fn card(f: &Fixture, player: PlayerId, name: &str) -> CardId {
    *f.state
        .cards
        .values()
        .find(|card| card.owner == player && card.name == name)
        .map(|card| &card.id)
        .expect("card")
}

/// A card condition, compiled as the loader compiles one.
fn condition(host: &Host, name: &str, text: &str) -> gloam_dsl::Script {
    let context = ScriptContext::condition(format!("card {name:?} condition")).with_variables([
        "this_card",
        "player",
        "this_fighter",
        "target",
    ]);
    host.compile(&ScriptSource::whole("cards.gloam", text), &context)
        .unwrap_or_else(|errors| panic!("{}", errors.iter().map(render).collect::<String>()))
}

/// The fixture with a catalog: Sidestep a ploy, Shove an objective whose condition needs a
/// fighter next to `this_fighter`, Cut an upgrade for heroes only.
fn with_catalog(mut f: Fixture) -> Fixture {
    let shove = condition(
        &f.host,
        "Shove",
        "this_fighter != () && fighters_within(this_fighter, 1).len() > 0",
    );
    f.world = f
        .world
        .clone()
        .with_card(
            "Sidestep",
            CardInfo::new("ploy")
                .with_window("power_step")
                .with_keywords(["quick"]),
        )
        .with_card(
            "Shove",
            CardInfo::new("objective")
                .with_glory(2)
                .with_score("end_phase")
                .with_condition(shove),
        )
        .with_card(
            "Cut",
            CardInfo::new("upgrade")
                .with_cost(1)
                .with_restriction(CardRestriction::Fighter("hero".into())),
        );
    f
}

fn bindings_with(f: &Fixture, name: &str, value: Value) -> Bindings {
    f.bindings().with(name, value)
}

fn run_bound(f: &mut Fixture, text: &str, bindings: &Bindings) -> Result<Outcome, String> {
    let context = ScriptContext::effect("test effect").with_variables([
        "this_fighter",
        "player",
        "target",
        "card",
    ]);
    let script = f
        .host
        .compile(&ScriptSource::whole("test.gloam", text), &context)
        .map_err(|errors| errors.iter().map(render).collect::<String>())?;
    f.host
        .run(
            &script,
            &f.world,
            &mut f.state,
            &mut f.events,
            bindings,
            &[],
        )
        .map_err(|error| render(&error))
}

// Flow.

#[test]
fn flow_requests_come_back_in_order_and_change_nothing() {
    let mut f = fixture();
    let (hero, brute) = (f.hero, f.brute);
    let ann_card = card(&f, ANN, "Sidestep");
    let bo_card = card(&f, BO, "Cut");
    let state_before = f.state.clone();
    let flow = f.flow(
        "let mine = cards_in(player, \"power_deck\")[0]; \
         let theirs = cards_in(owner(target), \"power_deck\")[2]; \
         then(\"power_step\"); \
         play_card(mine, this_fighter); \
         then(\"attack\", #{ fighter: this_fighter, target: target, who: player, at: hex(0, 1), \
                             dice: 2, ok: true, how: \"fast\", card: mine, \
                             list: [1, hex(1, -1), [target]] }); \
         play_card(theirs, ()); \
         end_game([players()[1], players()[1], player], \"most glory\");",
    );
    assert_eq!(
        flow,
        [
            FlowRequest::Then {
                step: "power_step".into(),
                vars: vec![]
            },
            FlowRequest::PlayCard {
                card: ann_card,
                fighter: Some(hero),
                player: ANN
            },
            FlowRequest::Then {
                step: "attack".into(),
                vars: vec![
                    ("at".into(), Value::Hex(Hex::new(0, 1))),
                    ("card".into(), Value::Card(ann_card)),
                    ("dice".into(), Value::Int(2)),
                    ("fighter".into(), Value::Piece(hero)),
                    ("how".into(), Value::Str("fast".into())),
                    (
                        "list".into(),
                        Value::List(vec![
                            Value::Int(1),
                            Value::Hex(Hex::new(1, -1)),
                            Value::List(vec![Value::Piece(brute)])
                        ])
                    ),
                    ("ok".into(), Value::Bool(true)),
                    ("target".into(), Value::Piece(brute)),
                    ("who".into(), Value::Player(ANN)),
                ]
            },
            // The card's owner plays it, whoever queued it.
            FlowRequest::PlayCard {
                card: bo_card,
                fighter: None,
                player: BO
            },
            FlowRequest::EndGame(GameResult {
                winners: vec![BO, ANN],
                reason: "most glory".into()
            }),
        ]
    );
    assert_eq!(f.state, state_before);
    assert!(f.events.is_empty());
    // A script that queues nothing finishes with an empty flow.
    assert_eq!(f.run("1"), Ok(Outcome::done(Value::Int(1))));
}

#[test]
fn queued_flow_is_dropped_with_a_choice_or_an_error() {
    let mut f = fixture();
    let script = f.effect(
        "then(\"first\"); let t = choose_fighter(enemy_fighters(), \"?\"); then(\"second\", #{ t: t });",
    );
    assert!(matches!(
        f.run_with(&script, &[]),
        Ok(Outcome::NeedsChoice(_))
    ));
    let answers = [Answer::One(Choice::Piece(f.archer))];
    let Ok(Outcome::Done { flow, .. }) = f.run_with(&script, &answers) else {
        panic!("not done")
    };
    assert_eq!(
        flow,
        [
            FlowRequest::Then {
                step: "first".into(),
                vars: vec![]
            },
            FlowRequest::Then {
                step: "second".into(),
                vars: vec![("t".into(), Value::Piece(f.archer))]
            },
        ]
    );
    let error = f.failure("then(\"first\"); end_game([], \"x\"); deal_damage(target, -1);");
    assert_eq!(error.code_name(), "gloam::dsl::refused_effect");
}

#[test]
fn a_step_variable_of_the_wrong_kind_is_a_runtime_error_naming_it() {
    let mut f = fixture();
    for (text, expected) in [
        ("then(\"s\", #{ nothing: () })", "`nothing` is a ()"),
        ("then(\"s\", #{ nested: #{ a: 1 } })", "`nested` is a map"),
        (
            "then(\"s\", #{ a: 1, bad: [1, ()] })",
            "`bad` is a list holding a ()",
        ),
        (
            "then(\"s\", #{ f: |x| x })",
            "`f` is a value; a step's variables are fighters",
        ),
        (
            "play_card(cards_in(player, \"power_deck\")[0], 3)",
            "not a int",
        ),
        ("end_game([player, 2], \"x\")", "item 2 is a int"),
    ] {
        let error = f.failure(text);
        assert_eq!(error.code_name(), "gloam::dsl::runtime_error", "`{text}`");
        assert!(error.to_string().contains(expected), "`{text}`: {error}");
    }
    let error = f.failure("then(\"\")");
    assert_eq!(error.code_name(), "gloam::dsl::refused_effect");
}

#[test]
fn flow_functions_are_effects_and_steps_are_checked_names() {
    let host = Host::new();
    let condition = ScriptContext::condition("c");
    let errors = host
        .compile(&ScriptSource::whole("c", "then(\"x\"); true"), &condition)
        .unwrap_err();
    assert_eq!(errors[0].code_name(), "gloam::dsl::effect_in_condition");

    let names =
        Arc::new(KnownNames::permissive().with(NameKind::Step, ["action_step", "card", "ability"]));
    let context = ScriptContext::effect("step").with_names(names);
    let compile = |text: &str| host.compile(&ScriptSource::whole("s", text), &context);
    assert!(compile("then(\"action_step\"); then(\"card\", #{ card: 1 })").is_ok());
    let errors = compile("then(\"acton_step\")").unwrap_err();
    assert_eq!(errors[0].code_name(), "gloam::dsl::unknown_name");
    assert_eq!(errors[0].help_text(), Some("did you mean `action_step`?"));
    assert!(errors[0].to_string().contains("step"), "{}", errors[0]);
    // A name made at run time is the driver's to check.
    assert!(compile("let s = \"any\" + \"thing\"; then(s)").is_ok());
}

// Fighters and movement.

#[test]
fn fighters_of_a_player_on_the_battlefield_or_not() {
    let mut f = fixture();
    let (hero, brute, archer) = (f.hero, f.brute, f.archer);
    assert_eq!(
        f.value("fighters_of(player)"),
        Value::List(vec![Value::Piece(hero)])
    );
    assert_eq!(
        f.value("take_off(target); [fighters_of(owner(target)), on_battlefield(target), on_battlefield(this_fighter)]"),
        Value::List(vec![
            Value::List(vec![Value::Piece(brute), Value::Piece(archer)]),
            Value::Bool(false),
            Value::Bool(true),
        ])
    );
    // The same split in one call each, in id order.
    assert_eq!(
        f.value(
            "take_off(target); let o = owner(target); \
             [fighters_on_battlefield(o), fighters_off_battlefield(o), fighters_off_battlefield(player), \
              fighters_on_battlefield(o) == fighters_of(o).filter(|f| on_battlefield(f)), \
              fighters_off_battlefield(o) == fighters_of(o).filter(|f| !on_battlefield(f))]"
        ),
        Value::List(vec![
            Value::List(vec![Value::Piece(archer)]),
            Value::List(vec![Value::Piece(brute)]),
            Value::List(vec![]),
            Value::Bool(true),
            Value::Bool(true),
        ])
    );
    assert_eq!(
        f.failure("fighters_off_battlefield(7)").to_string(),
        "test effect failed: no function matches fighters_off_battlefield (int)"
    );
    assert_eq!(f.value("fighter_kind(target)"), Value::Str("brute".into()));
    assert_eq!(f.value("player_after(player)"), Value::Player(BO));
    assert_eq!(f.value("player_after(owner(target))"), Value::Player(ANN));
}

#[test]
fn reachable_hexes_walk_around_fighters_and_blocked_hexes() {
    let mut f = fixture();
    // Around the hero at (0, 0): the brute stands in (1, 0), (-1, 1) is blocked.
    assert_eq!(
        f.value("reachable_hexes(this_fighter, 1)"),
        hexes(&[(-1, 0), (0, -1), (0, 1), (1, -1)])
    );
    assert_eq!(f.value("reachable_hexes(this_fighter, 0)"), hexes(&[]));
    // (2, 0) lies behind the brute: three steps around it, not two.
    let reach = |f: &mut Fixture, budget: i64| -> Vec<Value> {
        match f.value(&format!("reachable_hexes(this_fighter, {budget})")) {
            Value::List(items) => items,
            other => panic!("{other:?}"),
        }
    };
    let two = reach(&mut f, 2);
    assert!(two.contains(&Value::Hex(Hex::new(2, -1))));
    assert!(!two.contains(&Value::Hex(Hex::new(2, 0))));
    let three = reach(&mut f, 3);
    assert!(three.contains(&Value::Hex(Hex::new(2, 0))));
    assert!(!three.contains(&Value::Hex(Hex::new(1, 0))));
    assert!(!three.contains(&Value::Hex(Hex::new(-1, 1))));
    assert_eq!(reach(&mut f, 1_000_000).len(), 37 - 1 - 3);
    assert_eq!(
        f.value("take_off(this_fighter); reachable_hexes(this_fighter, 3)"),
        hexes(&[])
    );
    let error = f.failure("reachable_hexes(this_fighter, -1)");
    assert_eq!(error.code_name(), "gloam::dsl::runtime_error");
}

#[test]
fn reachable_hexes_through_occupied_or_blocked_hexes_end_in_an_empty_one() {
    let mut f = fixture();
    // The brute stands in (1, 0), (-1, 1) is blocked, the archer stands in (-2, 2).
    let reach = |f: &mut Fixture, text: &str| -> Vec<Value> {
        match f.value(text) {
            Value::List(items) => items,
            other => panic!("`{text}`: {other:?}"),
        }
    };
    // Nothing to pass through is a walk.
    for budget in 0..5 {
        assert_eq!(
            f.value(&format!("reachable_hexes(this_fighter, {budget}, [])")),
            f.value(&format!("reachable_hexes(this_fighter, {budget})")),
        );
    }
    // Through the brute: (2, 0) in two steps, not three; the brute's hex is never an end.
    let two = reach(&mut f, r#"reachable_hexes(this_fighter, 2, ["occupied"])"#);
    assert!(two.contains(&Value::Hex(Hex::new(2, 0))));
    assert!(!two.contains(&Value::Hex(Hex::new(1, 0))));
    // Never through the blocked hex: (-2, 1) lies two steps away around it either way, but
    // (-2, 2) holds the archer and (-1, 1) is blocked, so neither is an end.
    let wide = reach(&mut f, r#"reachable_hexes(this_fighter, 6, ["occupied"])"#);
    assert!(!wide.contains(&Value::Hex(Hex::new(-1, 1))));
    assert!(!wide.contains(&Value::Hex(Hex::new(-2, 2))));
    assert_eq!(wide.len(), 37 - 1 - 3);
    // Both is a flight; the order of the words does not matter.
    for budget in 0..5 {
        let flight = f.value(&format!("flying_hexes(this_fighter, {budget})"));
        assert_eq!(
            f.value(&format!(
                r#"reachable_hexes(this_fighter, {budget}, ["blocked", "occupied"])"#
            )),
            flight
        );
        assert_eq!(
            f.value(&format!(
                r#"reachable_hexes(this_fighter, {budget}, ["occupied", "blocked"])"#
            )),
            flight
        );
    }
    // Through blocked hexes only: not through the brute, and the blocked hex is no end.
    let over = reach(&mut f, r#"reachable_hexes(this_fighter, 2, ["blocked"])"#);
    assert!(!over.contains(&Value::Hex(Hex::new(2, 0))));
    assert!(!over.contains(&Value::Hex(Hex::new(-1, 1))));
    // `can_reach` answers whether the list would hold any hex.
    for through in [
        "[]",
        r#"["occupied"]"#,
        r#"["blocked"]"#,
        r#"["blocked", "occupied"]"#,
    ] {
        for budget in 0..4 {
            let listed = !reach(
                &mut f,
                &format!("reachable_hexes(this_fighter, {budget}, {through})"),
            )
            .is_empty();
            assert_eq!(
                f.value(&format!("can_reach(this_fighter, {budget}, {through})")),
                Value::Bool(listed),
                "budget {budget}, through {through}"
            );
        }
    }
    assert_eq!(f.value("can_reach(this_fighter, 0)"), Value::Bool(false));
    assert_eq!(f.value("can_reach(this_fighter, 1)"), Value::Bool(true));
    let error = f.failure("can_reach(this_fighter, -1)");
    assert_eq!(error.code_name(), "gloam::dsl::runtime_error");
    let error = f.failure(r#"reachable_hexes(this_fighter, 2, ["walls"])"#);
    assert!(error.to_string().contains(r#"not "walls""#), "{error}");
    let error = f.failure("reachable_hexes(this_fighter, 2, [1])");
    assert!(error.to_string().contains("item 1 is a int"), "{error}");
    let error = f.failure(r#"reachable_hexes(this_fighter, -1, ["occupied"])"#);
    assert_eq!(error.code_name(), "gloam::dsl::runtime_error");
    // Off the battlefield, nowhere (the hemmed-in case is the kernel's property test,
    // `can_reach_random_grid_is_whether_any_hex_is_reachable`).
    f.value("take_off(this_fighter)");
    assert_eq!(f.value("can_reach(this_fighter, 3)"), Value::Bool(false));
    assert_eq!(
        f.value(r#"can_reach(this_fighter, 3, ["blocked", "occupied"])"#),
        Value::Bool(false)
    );
}

#[test]
fn move_fighter_walks_a_shortest_path_and_returns_the_hexes_entered() {
    let mut f = fixture();
    let hero = f.hero;
    // (2, 0), lethal, lies behind the brute: three steps around it.
    let entered = f.value("move_fighter(this_fighter, hex(2, 0))");
    let Value::List(entered) = entered else {
        panic!()
    };
    let entered: Vec<Hex> = entered
        .iter()
        .map(|value| match value {
            Value::Hex(hex) => *hex,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(entered.len(), 3);
    assert_eq!(entered.last(), Some(&Hex::new(2, 0)));
    let mut walk = vec![Hex::ORIGIN];
    walk.extend(&entered);
    assert!(walk.windows(2).all(|pair| pair[0].is_adjacent(pair[1])));
    assert!(!walk.contains(&Hex::new(1, 0)));
    assert_eq!(
        f.events,
        [Event::PieceMoved {
            piece: hero,
            from: Some(Position::Hex(Hex::ORIGIN)),
            to: Some(Position::Hex(Hex::new(2, 0))),
            path: walk,
            how: "move".into(),
        }]
    );
    // The rules read the hexes entered, to deal lethal-hex damage.
    assert_eq!(
        f.value(
            "move_fighter(this_fighter, hex(0, 0)).filter(|h| hex_has_type(h, \"lethal\")).len()"
        ),
        Value::Int(0)
    );
    assert_eq!(
        f.value(
            "move_fighter(this_fighter, hex(2, 0)).filter(|h| hex_has_type(h, \"lethal\")).len()"
        ),
        Value::Int(1)
    );
    // Staying put moves nothing.
    f.events.clear();
    assert_eq!(f.value("move_fighter(this_fighter, hex(2, 0))"), hexes(&[]));
    assert!(f.events.is_empty());
}

#[test]
fn move_fighter_into_a_walled_off_hex_goes_straight_there() {
    let mut f = fixture();
    let hero = f.hero;
    // Wall the hero in: every neighbour but the brute's is taken or blocked.
    {
        let mut ctx = Ctx::new(&mut f.state, &mut f.events);
        for hex in [(-1, 0), (0, -1), (0, 1), (1, -1)] {
            let wall = ctx.create_piece(PlayerId(1), "wall", []).unwrap();
            ctx.place_piece(
                wall,
                Some(Position::Hex(Hex::new(hex.0, hex.1))),
                vec![],
                "deploy",
            )
            .unwrap();
        }
    }
    f.events.clear();
    assert_eq!(
        f.value("move_fighter(this_fighter, hex(3, -3))"),
        hexes(&[(3, -3)])
    );
    assert!(matches!(
        &f.events[..],
        [Event::PieceMoved { piece, path, .. }] if *piece == hero && path == &[Hex::ORIGIN, Hex::new(3, -3)]
    ));
}

#[test]
fn refused_moves_and_placements_change_nothing() {
    let mut f = fixture();
    for (text, message) in [
        ("move_fighter(this_fighter, hex_of(target))", "stand"),
        ("move_fighter(this_fighter, hex(-1, 1))", "blocked"),
        (
            "move_fighter(this_fighter, hex(9, 0))",
            "not on the battlefield",
        ),
        (
            "take_off(this_fighter); move_fighter(this_fighter, hex(0, 1))",
            "not on the battlefield",
        ),
        ("place_fighter(this_fighter, hex_of(target))", "stand"),
        ("place_fighter(this_fighter, hex(-1, 1))", "blocked"),
        (
            "place_fighter(this_fighter, hex(5, 0))",
            "not on the battlefield",
        ),
    ] {
        let error = f.failure(text);
        assert_eq!(error.code_name(), "gloam::dsl::refused_effect", "`{text}`");
        assert!(
            error.to_string().contains(message) || render(&error).contains(message),
            "`{text}`: {error}"
        );
    }
}

#[test]
fn place_fighter_and_take_off() {
    let mut f = fixture();
    let brute = f.brute;
    assert_eq!(
        f.value(
            "take_off(target); take_off(target); place_fighter(target, hex(0, 2)); hex_of(target)"
        ),
        Value::Hex(Hex::new(0, 2))
    );
    // The second take_off found it already off, and recorded nothing.
    assert_eq!(
        f.events,
        [
            Event::PieceMoved {
                piece: brute,
                from: Some(Position::Hex(Hex::new(1, 0))),
                to: None,
                path: vec![],
                how: "take_off".into(),
            },
            Event::PieceMoved {
                piece: brute,
                from: None,
                to: Some(Position::Hex(Hex::new(0, 2))),
                path: vec![],
                how: "place".into(),
            },
        ]
    );
}

/// Two boards: `north` (territory of Ann) has starting hexes (0, 0) and (1, 0); `south`
/// (Bo's) has (0, 1). (2, 0) and (1, 1) are plain.
fn territories() -> (Host, World, GameState, PieceId) {
    let north = Board::new("north")
        .with_territory("north")
        .with_hex(Hex::new(0, 0), ["starting"])
        .with_hex(Hex::new(1, 0), ["starting"])
        .with_hex(Hex::new(2, 0), Vec::<String>::new());
    let south = Board::new("south")
        .with_territory("south")
        .with_hex(Hex::new(0, 1), ["starting"])
        .with_hex(Hex::new(1, 1), Vec::<String>::new());
    let battlefield = Battlefield::join(
        &[(north, Placement::IDENTITY), (south, Placement::IDENTITY)],
        0,
    )
    .expect("join");
    let world = World::new(battlefield, ["blocked"], false, Dice::new());
    let mut state = GameState::new(1, &["Ann", "Bo"]);
    let mut events = Vec::new();
    let piece = {
        let mut ctx = Ctx::new(&mut state, &mut events);
        let piece = ctx.create_piece(ANN, "hero", []).unwrap();
        ctx.place_piece(piece, Some(Position::Hex(Hex::new(1, 0))), vec![], "deploy")
            .unwrap();
        piece
    };
    (Host::new(), world, state, piece)
}

#[test]
fn starting_hexes_are_the_empty_ones_of_the_players_territory() {
    let (host, world, mut state, _) = territories();
    let script = host
        .compile(
            &ScriptSource::whole(
                "s",
                "[starting_hexes(players()[0]), starting_hexes(players()[1])]",
            ),
            &ScriptContext::effect("s"),
        )
        .unwrap();
    let mut run = |world: &World| match host.run(
        &script,
        world,
        &mut state,
        &mut Vec::new(),
        &Bindings::new(),
        &[],
    ) {
        Ok(Outcome::Done { value, .. }) => value,
        other => panic!("{other:?}"),
    };
    // No territories given: every empty starting hex, for everyone.
    let all = hexes(&[(0, 0), (0, 1)]);
    assert_eq!(run(&world), Value::List(vec![all.clone(), all]));
    let world = world
        .with_territory(ANN, "north")
        .with_territory(BO, "south");
    assert_eq!(world.territory(BO), Some("south"));
    assert_eq!(
        run(&world),
        Value::List(vec![hexes(&[(0, 0)]), hexes(&[(0, 1)])])
    );
}

// Dice.

#[test]
fn count_faces_counts_the_wanted_faces() {
    let mut f = fixture();
    assert_eq!(
        f.value("count_faces([\"hammer\", \"swords\", \"critical\", \"hammer\"], [\"hammer\", \"critical\"])"),
        Value::Int(3)
    );
    assert_eq!(
        f.value("count_faces([], [\"hammer\"]) + count_faces([\"hammer\"], [])"),
        Value::Int(0)
    );
    let error = f.failure("count_faces([\"hammer\", 2], [\"hammer\"])");
    assert!(error.to_string().contains("item 2 is a int"), "{error}");
}

// Cards.

#[test]
fn card_queries_read_the_catalog() {
    let mut f = with_catalog(fixture());
    let deck = "let d = cards_in(player, \"power_deck\"); let sidestep = d[0]; let shove = d[1]; let cut = d[2];";
    let value = |f: &mut Fixture, text: &str| f.value(&format!("{deck} {text}"));
    assert_eq!(
        value(
            &mut f,
            "[card_kind(sidestep), card_kind(shove), card_kind(cut)]"
        ),
        Value::List(vec![
            Value::Str("ploy".into()),
            Value::Str("objective".into()),
            Value::Str("upgrade".into())
        ])
    );
    assert_eq!(
        value(
            &mut f,
            "[card_glory(shove), card_glory(cut), card_cost(cut), card_cost(shove)]"
        ),
        Value::List(vec![
            Value::Int(2),
            Value::Int(0),
            Value::Int(1),
            Value::Int(0)
        ])
    );
    assert_eq!(
        value(
            &mut f,
            "[card_window(sidestep), card_window(shove), card_score(shove), card_score(sidestep)]"
        ),
        Value::List(vec![
            Value::Str("power_step".into()),
            Value::Unit,
            Value::Str("end_phase".into()),
            Value::Unit
        ])
    );
    assert_eq!(
        value(
            &mut f,
            "[card_has_keyword(sidestep, \"quick\"), card_has_keyword(cut, \"quick\")]"
        ),
        Value::List(vec![Value::Bool(true), Value::Bool(false)])
    );
    assert_eq!(
        value(
            &mut f,
            "[card_allows(cut, this_fighter), card_allows(cut, target), card_allows(sidestep, target)]"
        ),
        Value::List(vec![
            Value::Bool(true),
            Value::Bool(false),
            Value::Bool(true)
        ])
    );
    f.world = f.world.clone().with_card(
        "Cut",
        CardInfo::new("upgrade")
            .with_restriction(CardRestriction::Fighter("archer".into()))
            .with_restriction(CardRestriction::Keyword("leader".into())),
    );
    assert_eq!(
        value(
            &mut f,
            "[card_allows(cut, this_fighter), card_allows(cut, target), card_allows(cut, fighters()[2])]"
        ),
        Value::List(vec![
            Value::Bool(true),
            Value::Bool(false),
            Value::Bool(true)
        ])
    );
    // A card the catalog does not know is an error, not a guess.
    f.world = fixture().world;
    let error = f.failure(&format!("{deck} card_kind(sidestep)"));
    assert_eq!(error.code_name(), "gloam::dsl::runtime_error");
    assert!(
        error.to_string().contains("no card named \"Sidestep\""),
        "{error}"
    );
}

#[test]
fn condition_holds_evaluates_the_cards_condition() {
    let mut f = with_catalog(fixture());
    let deck = "let d = cards_in(player, \"power_deck\"); let sidestep = d[0]; let shove = d[1];";
    // Shove needs a fighter next to `this_fighter`: the hero has the brute; the archer has
    // nobody; without a fighter it does not hold.
    assert_eq!(
        f.value(&format!(
            "{deck} [condition_holds(shove, this_fighter), condition_holds(shove, fighters()[2]), \
             condition_holds(shove), condition_holds(shove, ()), condition_holds(sidestep), \
             condition_holds(sidestep, target)]"
        )),
        Value::List(vec![
            Value::Bool(true),
            Value::Bool(false),
            Value::Bool(false),
            Value::Bool(false),
            Value::Bool(true),
            Value::Bool(true),
        ])
    );
    // It reads the run's current state: after the archer moves next to the hero, it holds.
    assert_eq!(
        f.value(&format!(
            "{deck} move_fighter(fighters()[2], hex(-1, 0)); condition_holds(shove, fighters()[2])"
        )),
        Value::Bool(true)
    );
    assert!(
        f.events
            .iter()
            .any(|e| matches!(e, Event::PieceMoved { .. })),
        "the move was kept"
    );
    // It is a query: conditions may call it.
    let holds = f.condition("condition_holds(cards_in(player, \"power_deck\")[1], this_fighter)");
    let bindings = f.bindings();
    assert_eq!(
        f.host.evaluate_bool(&holds, &f.world, &f.state, &bindings),
        Ok(true)
    );
}

#[test]
fn a_condition_runs_for_the_cards_owner_and_the_run_carries_on() {
    let mut f = fixture();
    let bo_first = condition(
        &f.host,
        "Cut",
        "player == players()[1] && current_player() == player && this_fighter == ()",
    );
    f.world = f
        .world
        .clone()
        .with_card("Cut", CardInfo::new("upgrade").with_condition(bo_first));
    // Bo's Cut, checked from Ann's script; then Ann still acts and answers her choice.
    let script = f.effect(
        "let cut = cards_in(players()[1], \"power_deck\")[2]; \
         let holds = condition_holds(cut); \
         let t = choose_fighter(enemy_fighters(), \"?\"); \
         [holds, current_player(), t]",
    );
    let answers = [Answer::One(Choice::Piece(f.brute))];
    assert_eq!(
        f.run_with(&script, &answers),
        Ok(Outcome::done(Value::List(vec![
            Value::Bool(true),
            Value::Player(ANN),
            Value::Piece(f.brute)
        ])))
    );
}

#[test]
fn a_failing_or_endless_condition_is_a_runtime_error() {
    let mut f = fixture();
    let host = &f.host;
    let broken = condition(
        host,
        "Sidestep",
        "characteristic(this_fighter, \"nope\") > 0",
    );
    let number = condition(
        host,
        "Shove",
        "let n = 1; n == 1 && false || this_card == this_card",
    );
    let endless = condition(host, "Cut", "condition_holds(this_card)");
    f.world = f
        .world
        .clone()
        .with_card("Sidestep", CardInfo::new("ploy").with_condition(broken))
        .with_card("Shove", CardInfo::new("ploy").with_condition(number))
        .with_card("Cut", CardInfo::new("ploy").with_condition(endless));
    let deck = "deal_damage(target, 1); let d = cards_in(player, \"power_deck\");";
    let error = f.failure(&format!("{deck} condition_holds(d[0], this_fighter)"));
    assert_eq!(error.code_name(), "gloam::dsl::runtime_error");
    assert_eq!(
        error.to_string(),
        "test effect failed: `condition_holds`: card \"Sidestep\" condition failed: `characteristic`: piece0 has no characteristic `nope`"
    );
    assert_eq!(
        f.value(&format!("{deck} condition_holds(d[1])")),
        Value::Bool(true)
    );
    let error = f.failure(&format!("{deck} condition_holds(d[2])"));
    assert!(error.to_string().contains("more than 8 deep"), "{error}");
    // A condition that ends in something else than a bool.
    let host = Host::new();
    let loose = host
        .compile(
            &ScriptSource::whole("c", "1"),
            &ScriptContext::effect("card \"Cut\" condition"),
        )
        .unwrap();
    f.host = host;
    f.world = f
        .world
        .clone()
        .with_card("Cut", CardInfo::new("ploy").with_condition(loose));
    let error = f.failure(&format!("{deck} condition_holds(d[2])"));
    assert!(
        error.to_string().contains("must end in true or false"),
        "{error}"
    );
    // Reached through a pointer, an effect inside a condition is refused.
    let sneaky = f
        .host
        .compile(
            &ScriptSource::whole(
                "c",
                "Fn(\"deal_\" + \"damage\").call(this_fighter, 1); true",
            ),
            &ScriptContext::condition("card \"Cut\" condition").with_variables(["this_fighter"]),
        )
        .unwrap();
    f.world = f
        .world
        .clone()
        .with_card("Cut", CardInfo::new("ploy").with_condition(sneaky));
    let error = f.failure(&format!("{deck} condition_holds(d[2], target)"));
    assert!(
        error.to_string().contains("`deal_damage` changes the game"),
        "{error}"
    );
}

#[test]
fn cards_move_between_zones() {
    let mut f = fixture();
    let (sidestep, shove, cut) = (
        card(&f, ANN, "Sidestep"),
        card(&f, ANN, "Shove"),
        card(&f, ANN, "Cut"),
    );
    let cards = |ids: &[CardId]| Value::List(ids.iter().copied().map(Value::Card).collect());
    let deck = ZoneId::new(ANN, "power_deck");
    let hand = ZoneId::new(ANN, "power_hand");
    assert_eq!(
        f.value(
            "let d = cards_in(player, \"power_deck\"); move_card(d[2], \"power_hand\"); \
             move_card(d[0], \"power_hand\"); move_card_bottom(d[1], \"power_hand\"); \
             cards_in(player, \"power_hand\")"
        ),
        cards(&[sidestep, cut, shove])
    );
    assert_eq!(f.events.len(), 3);
    assert!(matches!(
        &f.events[0],
        Event::CardMoved { card, from, to, index: 0, .. } if *card == cut && *from == deck && *to == hand
    ));
    assert!(matches!(&f.events[2], Event::CardMoved { index: 2, .. }));
    f.events.clear();
    assert_eq!(
        f.value(
            "let n = draw_cards(player, \"power_hand\", \"power_deck\", 5); \
             shuffle_zone(player, \"power_deck\"); [n, zone_size(player, \"power_deck\")]"
        ),
        Value::List(vec![Value::Int(3), Value::Int(3)])
    );
    assert_eq!(f.events.len(), 4);
    assert_eq!(f.events[3], Event::Shuffled { zone: deck.clone() });
    assert_eq!(
        f.value("draw_cards(owner(target), \"power_deck\", \"power_hand\", 2)"),
        Value::Int(2)
    );
    assert_eq!(f.state.zone_cards(&ZoneId::new(BO, "power_hand")).len(), 2);
    for text in [
        "move_card(cards_in(player, \"power_deck\")[0], \"graveyard\")",
        "shuffle_zone(player, \"graveyard\")",
        "draw_cards(player, \"power_deck\", \"graveyard\", 1)",
        "draw_cards(player, \"power_deck\", \"power_hand\", -1)",
    ] {
        let error = f.failure(text);
        assert_eq!(error.code_name(), "gloam::dsl::refused_effect", "`{text}`");
    }
}

#[test]
fn equip_puts_cards_on_a_fighter() {
    let mut f = fixture();
    let (hero, cut, shove) = (f.hero, card(&f, ANN, "Cut"), card(&f, ANN, "Shove"));
    assert_eq!(
        f.value(
            "let d = cards_in(player, \"power_deck\"); equip(d[2], this_fighter); \
             equip(d[1], this_fighter); [equipped(this_fighter), equipped(target)]"
        ),
        Value::List(vec![
            Value::List(vec![Value::Card(cut), Value::Card(shove)]),
            Value::List(vec![]),
        ])
    );
    let zone = ZoneId::on_piece(ANN, "equipped", hero);
    assert_eq!(
        f.events[0],
        Event::ZoneCreated {
            zone: zone.clone(),
            visibility: Visibility::Public
        }
    );
    assert!(matches!(&f.events[1], Event::CardMoved { to, .. } if *to == zone));
    assert_eq!(f.events.len(), 3, "the zone is made once: {:?}", f.events);
}

#[test]
fn new_effects_on_a_missing_fighter_are_refused() {
    let mut f = fixture();
    let bindings = bindings_with(&f, "target", Value::Piece(PieceId(99)));
    for text in [
        "move_fighter(target, hex(0, 1))",
        "place_fighter(target, hex(0, 1))",
        "take_off(target)",
        "equip(cards_in(player, \"power_deck\")[0], target)",
        "play_card(cards_in(player, \"power_deck\")[0], target)",
    ] {
        let state_before = f.state.clone();
        let error = run_bound(&mut f, text, &bindings).unwrap_err();
        assert!(error.contains("refused_effect"), "`{text}`: {error}");
        assert!(error.contains("there is no piece99"), "`{text}`: {error}");
        assert_eq!(f.state, state_before);
    }
    for text in [
        "fighters_of(player).len() + fighter_kind(target).len()",
        "on_battlefield(target)",
        "reachable_hexes(target, 1)",
        "equipped(target)",
    ] {
        let error = run_bound(&mut f, text, &bindings).unwrap_err();
        assert!(error.contains("runtime_error"), "`{text}`: {error}");
    }
}

#[test]
fn hex_types_given_in_play_are_read_hex_by_hex_and_name_by_name() {
    // A type given in play (`set_hex_type`, GameState::hex_types) is read for its own hex
    // and name only: not for a neighbour holding other types, not for a name that sorts
    // before or after one the hex has.
    let mut f = fixture();
    f.value(
        "set_hex_type(hex(1, 0), \"gloom\", true); set_hex_type(hex(1, 0), \"objective\", true); \
         set_hex_type(hex(0, 1), \"feature\", true); set_hex_type(hex(0, 1), \"lethal\", true)",
    );
    let cases = [
        ((1, 0), "gloom", true),
        ((1, 0), "objective", true),
        ((1, 0), "feature", false),
        ((1, 0), "glo", false),
        ((1, 0), "gloomy", false),
        ((1, 0), "z", false),
        ((0, 1), "feature", true),
        ((0, 1), "lethal", true),
        ((0, 1), "gloom", false),
        ((0, 0), "gloom", false),
        ((2, 0), "objective", false),
    ];
    for ((q, r), name, expected) in cases {
        assert_eq!(
            f.value(&format!("hex_has_type(hex({q}, {r}), \"{name}\")")),
            Value::Bool(expected),
            "hex ({q}, {r}), type {name}"
        );
    }
    // Taken away again, the type is gone and the other stays.
    f.value("set_hex_type(hex(1, 0), \"gloom\", false)");
    assert_eq!(
        f.value("hex_has_type(hex(1, 0), \"gloom\")"),
        Value::Bool(false)
    );
    assert_eq!(
        f.value("hex_has_type(hex(1, 0), \"objective\")"),
        Value::Bool(true)
    );
}
