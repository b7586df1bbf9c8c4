//! Running scripts: queries, effects as kernel events, choices, the sandbox, atomicity.

mod common;

use common::{fixture, render};
use gloam_core::{
    Answer, Choice, Event, Hex, ModOp, PieceId, PlayerId, Position, Scope, Value, ZoneId,
};
use gloam_dsl::{Bindings, Host, Limits, Outcome, ScriptContext, ScriptEngine, ScriptSource};

fn int(n: i64) -> Value {
    Value::Int(n)
}

fn pieces(ids: &[PieceId]) -> Value {
    Value::List(ids.iter().copied().map(Value::Piece).collect())
}

#[test]
fn queries_read_the_game() {
    let mut f = fixture();
    let (hero, brute, archer) = (f.hero, f.brute, f.archer);
    assert_eq!(f.value("fighters()"), pieces(&[hero, brute, archer]));
    assert_eq!(f.value("friendly_fighters()"), pieces(&[hero]));
    assert_eq!(f.value("enemy_fighters()"), pieces(&[brute, archer]));
    assert_eq!(
        f.value("fighters_within(this_fighter, 1)"),
        pieces(&[brute])
    );
    assert_eq!(f.value("fighter_at(hex(1, 0))"), Value::Piece(brute));
    assert_eq!(f.value("fighter_at(hex(3, 0))"), Value::Unit);
    assert_eq!(f.value("current_player()"), Value::Player(PlayerId(0)));
    assert_eq!(f.value("owner(target) == player"), Value::Bool(false));
    assert_eq!(f.value("players().len()"), int(2));
    assert_eq!(f.value("hex_of(target)"), Value::Hex(Hex::new(1, 0)));
    assert_eq!(f.value("hex_of(target).q"), int(1));
    assert_eq!(f.value("adjacent(this_fighter, target)"), Value::Bool(true));
    assert_eq!(
        f.value("adjacent(this_fighter, hex(2, 0))"),
        Value::Bool(false)
    );
    assert_eq!(f.value("distance(this_fighter, hex(3, -3))"), int(3));
    assert_eq!(f.value("visible(this_fighter, target)"), Value::Bool(true));
    // The line from the archer at (-2, 2) to the hero crosses the blocked hex (-1, 1).
    assert_eq!(
        f.value("visible(this_fighter, fighters()[2])"),
        Value::Bool(false)
    );
    assert_eq!(
        f.value("hexes_of_type(\"lethal\")"),
        Value::List(vec![Value::Hex(Hex::new(2, 0))])
    );
    assert_eq!(
        f.value("hex_has_type(hex(-1, 1), \"blocked\")"),
        Value::Bool(true)
    );
    assert_eq!(f.value("characteristic(target, \"move\")"), int(3));
    assert_eq!(f.value("wounds(target)"), int(3));
    assert_eq!(f.value("damage(target)"), int(0));
    assert_eq!(
        f.value("has_keyword(this_fighter, \"leader\")"),
        Value::Bool(true)
    );
    assert_eq!(f.value("is_inspired(this_fighter)"), Value::Bool(false));
    assert_eq!(f.value("round()"), int(1));
    assert_eq!(f.value("glory(player)"), int(0));
    assert_eq!(f.value("hand_size(player)"), int(0));
    assert_eq!(f.value("zone_size(player, \"power_deck\")"), int(3));
    assert_eq!(
        f.value("card_name(cards_in(player, \"power_deck\")[1])"),
        Value::Str("Shove".into())
    );
    assert_eq!(
        f.value("counter(\"round\") + counter(target, \"damage\")"),
        int(1)
    );
    assert!(
        f.events.is_empty(),
        "queries recorded events: {:?}",
        f.events
    );
}

#[test]
fn effects_become_kernel_events() {
    let mut f = fixture();
    let (hero, brute) = (f.hero, f.brute);
    let effects = "deal_damage(target, 2); heal(target, 1); give_token(target, \"stagger\"); \
         give_token(target, \"stagger\"); remove_token(target, \"stagger\"); \
         gain_glory(player, 1); draw_power(2); set_counter(\"tide\", 3); \
         add_counter(target, \"charges\", 2); mark(\"power_step\"); \
         modify(target, \"move\", -1, \"phase_end\"); inspire(this_fighter);";
    assert_eq!(f.value(effects), Value::Unit);
    let p0 = PlayerId(0);
    let expected_prefix = [
        Event::CounterChanged {
            scope: Scope::Piece(brute),
            name: "damage".into(),
            from: 0,
            to: 2,
        },
        Event::CounterChanged {
            scope: Scope::Piece(brute),
            name: "damage".into(),
            from: 2,
            to: 1,
        },
        Event::TokensChanged {
            scope: Scope::Piece(brute),
            token: "stagger".into(),
            from: 0,
            to: 1,
        },
        Event::TokensChanged {
            scope: Scope::Piece(brute),
            token: "stagger".into(),
            from: 1,
            to: 2,
        },
        Event::TokensChanged {
            scope: Scope::Piece(brute),
            token: "stagger".into(),
            from: 2,
            to: 1,
        },
        Event::CounterChanged {
            scope: Scope::Player(p0),
            name: "glory".into(),
            from: 0,
            to: 1,
        },
    ];
    assert_eq!(f.events[..6], expected_prefix[..]);
    let moved: Vec<_> = f.events[6..8]
        .iter()
        .map(|event| match event {
            Event::CardMoved { name, from, to, .. } => {
                (name.clone(), from.name.clone(), to.name.clone())
            }
            other => panic!("expected a card move, got {other:?}"),
        })
        .collect();
    assert_eq!(
        moved,
        [
            (
                "Sidestep".to_owned(),
                "power_deck".to_owned(),
                "power_hand".to_owned()
            ),
            (
                "Shove".to_owned(),
                "power_deck".to_owned(),
                "power_hand".to_owned()
            ),
        ]
    );
    assert_eq!(
        f.events[8..11],
        [
            Event::CounterChanged {
                scope: Scope::Game,
                name: "tide".into(),
                from: 0,
                to: 3
            },
            Event::CounterChanged {
                scope: Scope::Piece(brute),
                name: "charges".into(),
                from: 0,
                to: 2
            },
            Event::Marker {
                name: "power_step".into(),
                scope: Scope::Game,
                data: vec![]
            },
        ]
    );
    match &f.events[11] {
        Event::ModifierAdded { modifier, .. } => {
            assert_eq!(modifier.op, ModOp::Add(-1));
            assert_eq!(modifier.source, "test effect");
        }
        other => panic!("expected a modifier, got {other:?}"),
    }
    assert_eq!(
        f.events[12..],
        [
            Event::KeywordChanged {
                piece: hero,
                keyword: "inspired".into(),
                present: true
            },
            Event::CharacteristicChanged {
                piece: hero,
                name: "move".into(),
                from: Some(3),
                to: 4
            },
        ]
    );
    assert_eq!(f.state.characteristic(brute, "move"), Some(2));
    assert_eq!(f.state.zone_cards(&ZoneId::new(p0, "power_hand")).len(), 2);
    // A query after an effect sees the effect.
    assert_eq!(f.value("deal_damage(target, 1); damage(target)"), int(2));
    assert_eq!(
        f.value("mark(\"phase_end\"); characteristic(target, \"move\")"),
        int(3)
    );
}

#[test]
fn rolls_use_the_game_rng_and_are_recorded() {
    let mut f = fixture();
    let Value::List(faces) = f.value("roll(\"attack\", 3)") else {
        panic!("not a list")
    };
    assert_eq!(faces.len(), 3);
    assert!(
        matches!(&f.events[..], [Event::Rolled { dice, player: Some(PlayerId(0)), .. }] if dice.len() == 3)
    );
    let mut again = fixture();
    assert_eq!(again.value("roll(\"attack\", 3)"), Value::List(faces));
}

#[test]
fn a_push_with_one_destination_needs_no_choice() {
    let mut f = fixture();
    // The brute at (1, 0) pushed away from the hero at (0, 0): (2, 0), (2, -1) and (1, 1)
    // are farther; fill two of them.
    let brute = f.brute;
    {
        let mut ctx = gloam_core::Ctx::new(&mut f.state, &mut f.events);
        let a = ctx.create_piece(PlayerId(1), "wall", []).unwrap();
        ctx.place_piece(a, Some(Position::Hex(Hex::new(2, -1))), vec![], "deploy")
            .unwrap();
        let b = ctx.create_piece(PlayerId(1), "wall", []).unwrap();
        ctx.place_piece(b, Some(Position::Hex(Hex::new(1, 1))), vec![], "deploy")
            .unwrap();
    }
    f.events.clear();
    assert_eq!(
        f.value("push_away(target, this_fighter, 1)"),
        Value::Bool(true)
    );
    assert_eq!(
        f.events,
        [Event::PieceMoved {
            piece: brute,
            from: Some(Position::Hex(Hex::new(1, 0))),
            to: Some(Position::Hex(Hex::new(2, 0))),
            path: vec![Hex::new(1, 0), Hex::new(2, 0)],
            how: "push".into(),
        }]
    );
}

#[test]
fn choices_stop_the_script_and_rerun_with_answers() {
    let mut f = fixture();
    let script = f.effect(
        "give_token(this_fighter, \"charge\"); \
         let t = choose_fighter(enemy_fighters(), \"Who takes the hit?\"); \
         deal_damage(t, 1); \
         let how = choose_option([\"push\", \"stay\"], \"Push it?\"); \
         if how == \"push\" { push(t, 1); } \
         t",
    );
    let state_before = f.state.clone();

    // First run: the token was given on the copy, but nothing is kept.
    let Ok(Outcome::NeedsChoice(first)) = f.run_with(&script, &[]) else {
        panic!("no choice")
    };
    assert_eq!(first.player, PlayerId(0));
    assert_eq!(first.kind, "choose_fighter");
    assert_eq!(first.prompt, "Who takes the hit?");
    assert_eq!(f.state, state_before);
    assert!(f.events.is_empty());

    let mut answers = vec![Answer::One(Choice::Piece(f.archer))];
    let Ok(Outcome::NeedsChoice(second)) = f.run_with(&script, &answers) else {
        panic!("no second choice")
    };
    assert_eq!(second.kind, "choose_option");
    assert_eq!(f.state, state_before);

    answers.push(Answer::One(Choice::Option("push".into())));
    let Ok(Outcome::NeedsChoice(third)) = f.run_with(&script, &answers) else {
        panic!("no push choice")
    };
    assert_eq!(third.kind, "push");
    let gloam_core::Options::One { choices } = &third.options else {
        panic!("shape")
    };
    assert!(
        choices
            .iter()
            .all(|choice| matches!(choice, Choice::Hex(_)))
    );

    answers.push(Answer::One(choices[0].clone()));
    let outcome = f.run_with(&script, &answers);
    assert_eq!(outcome, Ok(Outcome::done(Value::Piece(f.archer))));
    assert_eq!(f.state.piece(f.archer).unwrap().counters["damage"], 1);
    assert_eq!(f.state.piece(f.hero).unwrap().tokens["charge"], 1);
    assert_eq!(f.events.len(), 3, "{:?}", f.events);
}

#[test]
fn a_wrong_answer_is_a_runtime_error_and_changes_nothing() {
    let mut f = fixture();
    let script = f.effect("let t = choose_fighter(enemy_fighters(), \"?\"); deal_damage(t, 1);");
    let state_before = f.state.clone();
    let error = f
        .run_with(&script, &[Answer::One(Choice::Piece(f.hero))])
        .unwrap_err();
    assert_eq!(error.code_name(), "gloam::dsl::runtime_error");
    assert!(
        error.to_string().contains("does not fit this choice"),
        "{error}"
    );
    assert_eq!(f.state, state_before);
}

#[test]
fn unused_answers_are_an_error() {
    let mut f = fixture();
    let script = f.effect("deal_damage(target, 1);");
    let error = f
        .run_with(&script, &[Answer::One(Choice::Pass)])
        .unwrap_err();
    assert!(
        error.to_string().contains("1 recorded answer was not used"),
        "{error}"
    );
    assert!(f.events.is_empty());
}

#[test]
fn choosing_from_nothing_is_an_error() {
    let mut f = fixture();
    let error = f.failure("choose_fighter([], \"?\")");
    assert!(
        error.to_string().contains("no fighters to choose from"),
        "{error}"
    );
}

#[test]
fn refused_effects_undo_the_whole_script() {
    let mut f = fixture();
    let error = f
        .failure("deal_damage(target, 1); give_token(target, \"guard\"); deal_damage(target, -1);");
    assert_eq!(error.code_name(), "gloam::dsl::refused_effect");
    assert!(
        error
            .to_string()
            .contains("damage must be 0 or more, not -1"),
        "{error}"
    );
    let error = f.failure("deal_damage(target, 1); draw_power(1); mark(\"\");");
    assert_eq!(error.code_name(), "gloam::dsl::refused_effect");
    let error = f.failure("roll(\"dragon\", 2)");
    assert_eq!(error.code_name(), "gloam::dsl::refused_effect");
}

#[test]
fn runtime_errors_name_the_script() {
    let mut f = fixture();
    let error = f.failure("characteristic(target, \"mvoe\")");
    assert_eq!(
        error.to_string(),
        "test effect failed: `characteristic`: piece1 has no characteristic `mvoe`"
    );
    let error = f.failure("deal_damage(\"brute\", 1)");
    assert_eq!(error.code_name(), "gloam::dsl::runtime_error");
    assert!(
        error.to_string().contains("deal_damage (string, int)"),
        "{error}"
    );
    assert_eq!(
        error.help_text(),
        Some("it takes `deal_damage(fighter: fighter, amount: int) -> nothing`")
    );
    let error = f.failure("throw \"no\";");
    assert_eq!(
        error.to_string(),
        "test effect failed: the script threw the string \"no\""
    );
    // Issue 17: a map was reported as "threw nothing".
    let error = f.failure("throw #{a: 1};");
    assert_eq!(
        error.to_string(),
        "test effect failed: the script threw the map #{\"a\": 1}"
    );
    let error = f.failure("let a = [1]; a[5]");
    assert_eq!(error.code_name(), "gloam::dsl::runtime_error");
}

#[test]
fn try_catch_cannot_swallow_a_stop() {
    let mut f = fixture();
    let error = f.failure("try { deal_damage(target, -1); } catch { } deal_damage(target, 1);");
    assert_eq!(error.code_name(), "gloam::dsl::refused_effect");
    // Rhai wraps errors raised inside closures; the stop still wins.
    let error = f
        .failure("try { [1].map(|x| deal_damage(target, -x)); } catch { } deal_damage(target, 1);");
    assert_eq!(error.code_name(), "gloam::dsl::refused_effect");
    let script = f.effect("try { [1].map(|x| choose_fighter(fighters(), \"?\")); } catch { } 1");
    assert!(matches!(
        f.run_with(&script, &[]),
        Ok(Outcome::NeedsChoice(_))
    ));
}

#[test]
fn eval_through_a_function_pointer_is_refused_at_run_time() {
    let mut f = fixture();
    let error = f.failure("let name = \"ev\" + \"al\"; Fn(name).call(\"deal_damage(target, 1)\")");
    assert_eq!(error.code_name(), "gloam::dsl::runtime_error");
}

#[test]
fn hostile_scripts_stop_with_a_limit_and_change_nothing() {
    let mut f = fixture();
    for (text, limit) in [
        ("deal_damage(target, 1); loop { }", "operations"),
        (
            "deal_damage(target, 1); while true { give_token(target, \"x\"); }",
            "operations",
        ),
        (
            "deal_damage(target, 1); fn dig(n) { dig(n + 1) } dig(0)",
            "call depth",
        ),
        (
            "deal_damage(target, 1); let s = \"ab\"; loop { s += s; }",
            "string size",
        ),
        (
            "deal_damage(target, 1); let a = []; loop { a.push(1); }",
            "array size",
        ),
        (
            "deal_damage(target, 1); let m = #{}; let i = 0; while i < 300 { m[`k${i}`] = i; i += 1; } m.len()",
            "map size",
        ),
        (
            "try { loop { } } catch { } deal_damage(target, 1);",
            "operations",
        ),
    ] {
        let error = f.failure(text);
        assert_eq!(
            error.code_name(),
            "gloam::dsl::limit_exceeded",
            "`{text}`: {error}"
        );
        assert!(error.to_string().contains(limit), "`{text}`: {error}");
    }
}

#[test]
fn limits_are_configurable() {
    let mut f = fixture();
    f.host = Host::with_limits(Limits {
        operations: 50,
        ..Limits::default()
    });
    let error = f.failure("let n = 0; for i in 0..100 { n += i; } n");
    assert_eq!(
        error.to_string(),
        "test effect went past the limit on operations (50)"
    );
    assert_eq!(f.value("let n = 0; for i in 0..10 { n += i; } n"), int(45));
}

#[test]
fn conditions_are_pure() {
    let mut f = fixture();
    let bindings = f.bindings();
    let adjacent = f.condition("adjacent(this_fighter, target) && damage(target) == 0");
    assert_eq!(
        f.host
            .evaluate_bool(&adjacent, &f.world, &f.state, &bindings),
        Ok(true)
    );

    // Reached through a function pointer, an effect is still refused, at run time.
    let sneaky = f.condition("let f = Fn(\"deal\" + \"_damage\"); f.call(target, 1); true");
    let error = f
        .host
        .evaluate_bool(&sneaky, &f.world, &f.state, &bindings)
        .unwrap_err();
    assert_eq!(error.code_name(), "gloam::dsl::effect_in_condition");

    // An effect script evaluated as a condition is refused the same way.
    let effect = f.effect("deal_damage(target, 1); true");
    let error = f
        .host
        .evaluate_bool(&effect, &f.world, &f.state, &bindings)
        .unwrap_err();
    assert_eq!(error.code_name(), "gloam::dsl::effect_in_condition");

    let number = f.condition("damage(target) + 1");
    let error = f
        .host
        .evaluate_bool(&number, &f.world, &f.state, &bindings)
        .unwrap_err();
    assert!(
        error.to_string().contains("must end in true or false"),
        "{error}"
    );

    // A condition run through `run` is pure too.
    let state_before = f.state.clone();
    let error = f.run_with(&sneaky, &[]).unwrap_err();
    assert_eq!(error.code_name(), "gloam::dsl::effect_in_condition");
    assert_eq!(f.state, state_before);
}

#[test]
fn unbound_context_variables_are_unit() {
    let f = fixture();
    let script = f.condition("target == ()");
    let bindings = Bindings::new().acting(PlayerId(0));
    assert_eq!(
        f.host.evaluate_bool(&script, &f.world, &f.state, &bindings),
        Ok(true)
    );
}

#[test]
fn friendly_fighters_need_an_acting_player() {
    let f = fixture();
    let script = f.condition("friendly_fighters().len() > 0");
    let error = f
        .host
        .evaluate_bool(&script, &f.world, &f.state, &Bindings::new())
        .unwrap_err();
    assert!(error.to_string().contains("no player is acting"), "{error}");
}

#[test]
fn scripts_outlive_many_runs() {
    let mut f = fixture();
    let script = f.effect("deal_damage(target, 1);");
    for _ in 0..100 {
        f.run_with(&script, &[]).unwrap();
    }
    assert_eq!(f.state.piece(f.brute).unwrap().counters["damage"], 100);
}

/// A card file whose script starts on line 10.
fn card_source(script: &str) -> ScriptSource {
    let mut file = String::new();
    for line in 1..=9 {
        file.push_str(&format!("// line {line}\n"));
    }
    file.push_str("card \"Lunge\" {\n    effect = {");
    let start = file.len();
    file.push_str(script);
    let end = file.len();
    file.push_str("}\n}\n");
    ScriptSource::new("cards/lunge.gloam", file, start, end)
}

#[test]
fn rendered_runtime_diagnostics() {
    let mut f = fixture();
    let context =
        ScriptContext::effect("card \"Lunge\" effect").with_variables(common::EFFECT_VARIABLES);
    let mut render_run = |script: &str| {
        let script = f
            .host
            .compile(&card_source(script), &context)
            .expect("compiles");
        render(&f.run_with(&script, &[]).unwrap_err())
    };
    insta::assert_snapshot!(
        "limit_exceeded",
        render_run("\n        deal_damage(target, 1);\n        loop { }\n    ")
    );
    insta::assert_snapshot!(
        "refused_effect",
        render_run("\n        deal_damage(target, 1);\n        heal(target, -2);\n    ")
    );
    insta::assert_snapshot!(
        "runtime_error",
        render_run("\n        let n = characteristic(target, \"mvoe\");\n    ")
    );
}

#[test]
fn effects_on_a_missing_fighter_are_refused() {
    let mut f = fixture();
    let bindings = Bindings::new()
        .acting(PlayerId(0))
        .with("target", Value::Piece(PieceId(99)));
    for text in [
        "heal(target, 1)",
        "give_token(target, \"x\")",
        "push(target, 1)",
        "modify(target, \"move\", 1, \"x\")",
        "deal_damage(target, 1)",
    ] {
        let script = f.effect(text);
        let error = f
            .host
            .run(
                &script,
                &f.world,
                &mut f.state,
                &mut f.events,
                &bindings,
                &[],
            )
            .unwrap_err();
        assert_eq!(
            error.code_name(),
            "gloam::dsl::refused_effect",
            "`{text}`: {error}"
        );
        assert!(
            error.to_string().contains("there is no piece99"),
            "`{text}`: {error}"
        );
    }
}

/// Issue 17, item 7: a roll whose faces cannot fit in the script's limits is refused before
/// anything is rolled, with the number of dice the script may roll (not Rhai's "length of
/// string" once the list is made).
#[test]
fn a_roll_too_large_for_a_script_names_the_dice_limit() {
    let mut f = fixture();
    let error = f.failure("roll(\"attack\", 1000)");
    assert_eq!(error.code_name(), "gloam::dsl::refused_effect");
    let text = error.to_string();
    // The longest `attack` face is `critical`: 4,096 characters hold 512 of them.
    assert!(
        text.contains("1000 dice are too many for one roll")
            && text.contains("at most 512 `attack` dice"),
        "{text}"
    );
    assert!(!text.contains("Length of string"), "{text}");
    // Beyond the kernel's pool limit, the kernel's limit is named.
    let error = f.failure("roll(\"attack\", 5000)");
    assert!(
        error.to_string().contains("5000 dice are too many"),
        "{error}"
    );
    // The limit it names is the real one: 512 dice roll.
    let Value::List(faces) = f.value("roll(\"attack\", 512)") else {
        panic!("not a list")
    };
    assert_eq!(faces.len(), 512);
}

/// Issue 17, item 6: a fighter's damage and a player's glory never go below 0 through
/// `add_counter` or `set_counter` (as `deal_damage`, `heal` and `gain_glory` already
/// ensure); the script is refused and the game is unchanged. Other counters may.
#[test]
fn damage_and_glory_counters_refuse_to_go_below_zero() {
    let mut f = fixture();
    let error = f.failure("add_counter(target, \"damage\", -1)");
    assert_eq!(error.code_name(), "gloam::dsl::refused_effect");
    assert!(
        error
            .to_string()
            .contains("would be -1: damage is never below 0; take damage away with `heal`"),
        "{error}"
    );
    f.failure("deal_damage(target, 2); add_counter(target, \"damage\", -3)");
    f.failure("set_counter(target, \"damage\", -1)");
    let error = f.failure("add_counter(player, \"glory\", -1)");
    assert!(
        error
            .to_string()
            .contains("would be -1: glory is never below 0"),
        "{error}"
    );
    f.failure("set_counter(player, \"glory\", -2)");
    // Within 0 and up, both still work, and other counters take any whole number.
    assert_eq!(
        f.value("deal_damage(target, 2); add_counter(target, \"damage\", -2)"),
        int(0)
    );
    assert_eq!(f.value("add_counter(player, \"glory\", 3)"), int(3));
    assert_eq!(f.value("add_counter(player, \"tally\", -2)"), int(-2));
    assert_eq!(f.value("add_counter(target, \"charges\", -1)"), int(-1));
    assert_eq!(f.value("add_counter(\"damage\", -1)"), int(-1));
}

#[test]
fn a_profile_counts_each_run_with_the_operations_the_limit_reads() {
    // `gloam_dsl::profile`: a run's operations are the count the `operations` limit reads,
    // so the script passes with exactly that limit and fails with one fewer.
    let text = "let n = 0; for i in 0..10 { n += i; } if n > 40 { n } else { 0 }";
    let mut f = fixture();
    // A profile counts the compiled engine's runs, whatever `GLOAM_SCRIPT_ENGINE` says.
    f.host.set_script_engine(ScriptEngine::Compiled);
    gloam_dsl::profile::start();
    assert_eq!(f.value(text), int(45));
    assert_eq!(f.value(text), int(45));
    let profile = gloam_dsl::profile::finish();
    let cost = profile.scripts["test effect"];
    assert_eq!(cost.runs, 2);
    assert_eq!(cost.operations % 2, 0);
    let once = cost.operations / 2;
    assert!(once > 10, "{once}");
    assert_eq!(profile.operations(), cost.operations);
    for (limit, passes) in [(once, true), (once - 1, false)] {
        f.host = Host::with_limits(Limits {
            operations: limit,
            ..Limits::default()
        });
        assert_eq!(f.run(text).is_ok(), passes, "limit {limit}");
    }
    // Nothing is counted once the profile is taken.
    assert_eq!(f.value("1 + 1"), int(2));
    assert!(gloam_dsl::profile::finish().scripts.is_empty());
}

/// `gloam_dsl::profile` by line: each operation counts on the line of the data file it runs
/// on (a script's first line is the file's line it starts on), the lines add up to the
/// runs' operations, and a run stopped at a choice and carried on counts each line as one
/// run from the top does.
#[test]
fn a_profile_counts_each_operation_on_its_line_of_the_data_file() {
    let file = "card \"Counting\" {\n    effect = {\n        let n = 0;\n        for i in 0..10 {\n            n += i;\n        }\n        let pick = choose_option([\"a\", \"b\"], \"Which?\");\n        n\n    }\n}\n";
    let start = file.find("let n").expect("the script");
    let end = file.rfind("n\n    }").expect("its end") + 1;
    let mut f = fixture();
    // A profile counts the compiled engine's runs, whatever `GLOAM_SCRIPT_ENGINE` says.
    f.host.set_script_engine(ScriptEngine::Compiled);
    let context = ScriptContext::effect("counting").with_variables(common::EFFECT_VARIABLES);
    let script = f
        .host
        .compile(
            &ScriptSource::new("counting.gloam", file, start, end),
            &context,
        )
        .unwrap_or_else(|errors| panic!("{}", errors.iter().map(render).collect::<String>()));
    let answer = [Answer::One(Choice::Option("b".into()))];
    let profile_of = |f: &mut common::Fixture, stops: bool| {
        gloam_dsl::profile::start();
        if stops {
            assert!(matches!(
                f.run_with(&script, &[]),
                Ok(Outcome::NeedsChoice(_))
            ));
        }
        assert!(matches!(
            f.run_with(&script, &answer),
            Ok(Outcome::Done { .. })
        ));
        gloam_dsl::profile::finish()
    };
    let resumed = profile_of(&mut f, true);
    let lines = &resumed.lines["counting.gloam"];
    let total: u64 = lines.values().map(|line| line.operations).sum();
    assert_eq!(total, resumed.scripts["counting"].operations);
    assert_eq!(resumed.operations(), total);
    // The file's lines 3 to 8 hold the script; the loop's body (line 5) runs ten times.
    assert!(lines.keys().all(|line| (3..=8).contains(line)), "{lines:?}");
    assert_eq!(lines[&5].text, "n += i;");
    assert!(lines[&5].operations >= 10 && lines[&5].operations % 10 == 0);
    assert!(lines[&5].operations > lines[&3].operations);
    assert_eq!(
        lines[&7].text,
        "let pick = choose_option([\"a\", \"b\"], \"Which?\");"
    );
    // Answered from the start, the same run counts the same on every line.
    let mut fresh = fixture();
    fresh.host.set_script_engine(ScriptEngine::Compiled);
    let direct = profile_of(&mut fresh, false);
    assert_eq!(direct.lines, resumed.lines);
    // Two profiles merge line by line.
    let mut both = resumed.clone();
    both.merge(direct);
    assert_eq!(
        both.lines["counting.gloam"][&5].operations,
        2 * lines[&5].operations
    );
    assert_eq!(both.by_line()[0].0, "counting.gloam");
}
