//! `gloam try`: a card's script run in a trial game (the authoring tutorial's last step).

mod common;

use gloam::core::Event;
use gloam::load::{Source, load};
use gloam::trial::{TrialError, try_card};

fn loaded_with(extra: &str) -> gloam::load::Loaded {
    let mut sources = common::base();
    sources.push(Source::new("extra.gloam", extra));
    let (loaded, problems) = load(&sources, &gloam_dsl::Host::new());
    assert!(problems.is_empty(), "{}", common::render_all(&problems));
    loaded
}

#[test]
fn a_push_card_moves_the_enemy_it_picks_and_nothing_else() {
    let loaded = loaded_with("");
    let report = try_card(&loaded, &gloam_dsl::Host::new(), "Shove", 3).unwrap();
    let pushes: Vec<&Event> = report
        .events
        .iter()
        .filter(|e| matches!(e, Event::PieceMoved { how, .. } if how == "push"))
        .collect();
    assert_eq!(pushes.len(), 1, "{:?}", report.events);
    let Event::PieceMoved {
        piece, from, to, ..
    } = pushes[0]
    else {
        unreachable!()
    };
    assert_ne!(
        report.after.pieces[piece].owner,
        gloam::core::PlayerId(0),
        "an enemy was pushed"
    );
    let (from, to) = (from.unwrap().hex().unwrap(), to.unwrap().hex().unwrap());
    assert_eq!(from.distance_to(to), 1);
    assert_eq!(report.answers.len(), 2, "whom to push, then where");
}

#[test]
fn trials_are_deterministic_for_a_seed() {
    let loaded = loaded_with("");
    let host = gloam_dsl::Host::new();
    let first = try_card(&loaded, &host, "Shove", 9).unwrap();
    let again = try_card(&loaded, &host, "Shove", 9).unwrap();
    assert_eq!(first.events, again.events);
}

#[test]
fn an_objective_condition_is_evaluated() {
    let loaded = loaded_with(
        "card \"In Contact\" {\n    ruleset = \"testbed\"\n    kind = objective\n    owner = universal\n    glory = 1\n    score = end_phase\n    condition = { friendly_fighters().some(|f| enemy_fighters().some(|e| adjacent(f, e))) }\n}\n",
    );
    let report = try_card(&loaded, &gloam_dsl::Host::new(), "In Contact", 1).unwrap();
    assert_eq!(
        report.condition,
        Some(true),
        "one enemy starts next to the first fighter"
    );
    assert!(report.events.is_empty());
}

#[test]
fn an_unknown_card_gets_a_suggestion() {
    let loaded = loaded_with("");
    let error = try_card(&loaded, &gloam_dsl::Host::new(), "Shvoe", 1).unwrap_err();
    let TrialError::UnknownCard { help, .. } = &error else {
        panic!("{error}")
    };
    assert_eq!(help, "did you mean `Shove`?");
}

#[test]
fn a_failing_effect_reports_and_changes_nothing() {
    let loaded = loaded_with(
        "card \"Overreach\" {\n    ruleset = \"testbed\"\n    kind = ploy\n    owner = universal\n    window = power_step\n    effect = {\n        draw_power(1);\n        roll(\"attack\", 5000);\n    }\n}\n",
    );
    let error = try_card(&loaded, &gloam_dsl::Host::new(), "Overreach", 1).unwrap_err();
    assert!(matches!(error, TrialError::Script(_)), "{error}");
}

fn fighter_hexes(state: &gloam::core::GameState) -> Vec<Option<gloam::core::Position>> {
    state.pieces.values().map(|piece| piece.position).collect()
}

#[test]
fn issue_0011_the_trial_board_depends_on_the_seed() {
    let loaded = loaded_with("");
    let host = gloam_dsl::Host::new();
    let first = try_card(&loaded, &host, "Shove", 1).unwrap();
    let boards: Vec<_> = (2..6)
        .map(|seed| fighter_hexes(&try_card(&loaded, &host, "Shove", seed).unwrap().before))
        .collect();
    assert!(
        boards
            .iter()
            .any(|board| *board != fighter_hexes(&first.before)),
        "the fighters stand in the same hexes for seeds 1 to 5"
    );
}

#[test]
fn issue_0011_every_change_a_card_makes_is_shown() {
    let loaded = loaded_with(
        "card \"Brace Up\" {\n    ruleset = \"testbed\"\n    kind = ploy\n    owner = universal\n    window = power_step\n    effect = {\n        for f in friendly_fighters() { modify(f, \"defence\", 1, \"round_end\"); }\n        move_card(this_card, \"power_discard\");\n    }\n}\n",
    );
    let report = try_card(&loaded, &gloam_dsl::Host::new(), "Brace Up", 1).unwrap();
    assert!(!report.events.is_empty());
    for event in &report.events {
        let line = gloam::trial::describe(event, &report.after);
        assert!(line.is_some(), "{event:?} is not shown");
    }
    let lines: Vec<String> = report
        .events
        .iter()
        .filter_map(|event| gloam::trial::describe(event, &report.after))
        .collect();
    assert!(
        lines.iter().any(|line| line.contains("defence +1")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|line| line
            .contains("card \"Brace Up\" goes from Ann's power_hand to Ann's power_discard")),
        "{lines:?}"
    );
}

#[test]
fn issue_0011_queries_about_the_tried_card_itself_answer() {
    let loaded = loaded_with(
        "card \"Know Thyself\" {\n    ruleset = \"testbed\"\n    kind = ploy\n    owner = universal\n    window = power_step\n    condition = { card_kind(this_card) == \"ploy\" }\n    effect = {\n        if condition_holds(this_card) && card_kind(this_card) == \"ploy\" { give_token(choose_fighter(friendly_fighters(), \"Who?\"), \"guard\"); }\n    }\n}\n",
    );
    let report = try_card(&loaded, &gloam_dsl::Host::new(), "Know Thyself", 1).unwrap();
    assert_eq!(report.condition, Some(true));
    assert!(
        report
            .events
            .iter()
            .any(|e| matches!(e, Event::TokensChanged { token, to: 1, .. } if token == "guard")),
        "{:?}",
        report.events
    );
}

#[test]
fn issue_0011_only_a_card_a_fighter_carries_receives_this_fighter() {
    let loaded = loaded_with(
        "card \"Shield\" {\n    ruleset = \"testbed\"\n    kind = upgrade\n    owner = universal\n    window = power_step\n    effect = { give_token(this_fighter, \"guard\"); }\n}\n",
    );
    let report = try_card(&loaded, &gloam_dsl::Host::new(), "Shield", 1).unwrap();
    let guarded: Vec<_> = report
        .events
        .iter()
        .filter_map(|e| match e {
            Event::TokensChanged {
                scope: gloam::core::Scope::Piece(piece),
                ..
            } => Some(report.after.pieces[piece].owner),
            _ => None,
        })
        .collect();
    assert_eq!(
        guarded,
        [gloam::core::PlayerId(0)],
        "the bearer is the first player's fighter"
    );
    let ploy = gloam::load::script_place(&loaded.library, "card", "Shove", "testbed");
    assert!(!ploy.has_fighter(), "a ploy is played for no fighter");
}

#[test]
fn issue_0011_a_card_in_a_window_that_gives_no_target_may_not_read_one() {
    // The testbed's `power_step` gives no fighters: a ploy played there that reads
    // `target` is refused at load, with the span of the read and what the window gives.
    let mut sources = common::base();
    sources.push(Source::new(
        "extra.gloam",
        "card \"Shove Off\" {\n    ruleset = \"testbed\"\n    kind = ploy\n    owner = universal\n    window = power_step\n    effect = { push(target, 1); }\n}\n",
    ));
    let (_, problems) = load(&sources, &gloam_dsl::Host::new());
    let rendered = common::render_all(&problems);
    assert_eq!(problems.len(), 1, "{rendered}");
    assert!(rendered.contains("unknown variable `target`"), "{rendered}");
    assert!(rendered.contains("extra.gloam:6:21"), "{rendered}");
    assert!(
        rendered.contains("window `power_step` gives no `target`"),
        "{rendered}"
    );
}

#[test]
fn issue_0011_try_binds_the_fighters_of_the_window_one_attacking_the_other_by_the_seed() {
    // The testbed's `after_attack` gives `target` and `attacker`: the trial binds both, two
    // fighters of opposite sides, and the seed decides which side attacked.
    let loaded = loaded_with(
        "card \"Riposte\" {\n    ruleset = \"testbed\"\n    kind = ploy\n    owner = universal\n    window = after_attack\n    effect = {\n        give_token(target, \"guard\");\n        give_token(attacker, \"stagger\");\n    }\n}\n",
    );
    let place = gloam::load::script_place(&loaded.library, "card", "Riposte", "testbed");
    assert_eq!(
        place.variables(),
        ["this_card", "player", "target", "attacker"]
    );
    let host = gloam_dsl::Host::new();
    let mut attacking_sides = std::collections::BTreeSet::new();
    for seed in 1..=12 {
        let report = try_card(&loaded, &host, "Riposte", seed).unwrap();
        let token_owner = |wanted: &str| {
            report.events.iter().find_map(|e| match e {
                Event::TokensChanged {
                    scope: gloam::core::Scope::Piece(piece),
                    token,
                    ..
                } if token == wanted => Some(report.after.pieces[piece].owner),
                _ => None,
            })
        };
        let target = token_owner("guard").expect("target is a fighter");
        let attacker = token_owner("stagger").expect("attacker is a fighter");
        assert_ne!(
            target, attacker,
            "seed {seed}: an attack is against an enemy"
        );
        attacking_sides.insert(attacker);
    }
    assert_eq!(
        attacking_sides.len(),
        2,
        "the seed picks which side attacked"
    );
}

#[test]
fn issue_0011_try_binds_no_event_fighter_in_a_power_step() {
    // A power-step ploy's script receives `this_card` and `player` only, as in a game; its
    // trial binds nothing else (its compiled script has no other variable to bind).
    let loaded = loaded_with("");
    let script = loaded.script("card", "Shove", "effect").unwrap();
    assert_eq!(script.variables(), ["this_card", "player"]);
    let place = gloam::load::script_place(&loaded.library, "card", "Shove", "testbed");
    assert!(place.required().is_empty());
    assert!(try_card(&loaded, &gloam_dsl::Host::new(), "Shove", 1).is_ok());
}
