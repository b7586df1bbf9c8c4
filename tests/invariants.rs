//! A ruleset's own `invariant` items: conditions `gloam sim` checks after every decision of
//! every game (issue 17's soak checks what the data says must hold, beside the driver's
//! own invariants). They are checked at load like any condition, inherited and removed
//! through `extends` like steps, and a broken one fails the game with its name and words.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use common::with_mod;

use gloam::agent::Agent as _;
use gloam::core::{Game, GameState, Position};
use gloam::engine::RulesetGame;
use gloam::sim::{check_game_invariants, play_one, prepare, prepare_for};

fn cards() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")
}

/// Harrowdeep with two invariants of a house rule: glory is never negative (true in every
/// game) and nobody ever scores (false as soon as anyone does).
const STRICT: &str = r#"
ruleset "harrowdeep_strict" {
    extends = "harrowdeep"
    title = "Harrowdeep with invariants"
    invariant "glory never negative" {
        about = "no player has less than 0 glory"
        holds = { players().all(|p| glory(p) >= 0) }
    }
    invariant "nobody scores" {
        about = "every player has 0 glory"
        holds = { players().all(|p| glory(p) == 0) }
    }
}

ruleset "harrowdeep_relaxed" {
    extends = "harrowdeep_strict"
    title = "Harrowdeep with one invariant dropped"
    remove = [invariant: "nobody scores"]
}
"#;

#[test]
fn a_broken_invariant_fails_the_game_with_its_name_and_words() {
    let paths = with_mod("strict", STRICT);
    let rules = prepare_for(&paths, "harrowdeep_strict", 2).expect("the mod loads");
    // Some player scores in the first few random games.
    let failed = (1..=5)
        .map(|seed| play_one(&rules, seed))
        .find(|summary| summary.error.is_some())
        .expect("a game where someone scores");
    let error = failed.error.expect("an error");
    assert!(
        error.contains("invariant `nobody scores` broken: every player has 0 glory"),
        "{error}"
    );
    assert!(error.starts_with("after decision "), "{error}");
}

#[test]
fn an_inherited_invariant_holds_and_a_removed_one_is_not_checked() {
    let paths = with_mod("relaxed", STRICT);
    let rules = prepare_for(&paths, "harrowdeep_relaxed", 2).expect("the mod loads");
    let names: Vec<&str> = rules
        .ruleset()
        .invariants
        .iter()
        .map(|i| i.name.as_str())
        .collect();
    assert_eq!(names, ["glory never negative"]);
    for seed in 1..=3 {
        let summary = play_one(&rules, seed);
        assert_eq!(summary.error, None, "seed {seed}");
    }
}

#[test]
fn an_invariant_that_changes_the_game_or_says_nothing_is_refused_at_load() {
    let effect = r#"
ruleset "harrowdeep_bad" {
    extends = "harrowdeep"
    title = "Harrowdeep with a bad invariant"
    invariant "scores" {
        about = "gives glory"
        holds = { gain_glory(players()[0], 1); true }
    }
    invariant "silent" {
        holds = { true }
    }
}
"#;
    let paths = with_mod("bad", effect);
    let (sources, unread) = gloam::load::read_paths(&paths);
    assert!(unread.is_empty());
    let (_, problems) = gloam::load::load(&sources, &gloam_dsl::Host::new());
    let said: Vec<String> = problems
        .iter()
        .map(|p| {
            use miette::Diagnostic as _;
            let code = p.code().map(|c| c.to_string()).unwrap_or_default();
            format!("{code}: {p}")
        })
        .collect();
    assert_eq!(said.len(), 2, "{said:#?}");
    assert!(
        said.iter()
            .any(|s| s.contains("effect_in_condition") && s.contains("gain_glory")),
        "{said:#?}"
    );
    assert!(
        said.iter()
            .any(|s| s.contains("missing") && s.contains("`about`")),
        "{said:#?}"
    );
}

/// A game of Umbra Turris played at random until a hero on the table holds an Action Die.
fn umbra_game_with_a_die(rules: &RulesetGame) -> Game<RulesetGame> {
    let mut game =
        Game::start(rules.clone(), rules.setup(7), RulesetGame::first_frames()).expect("started");
    let mut agent = gloam::agent::RandomAgent::new(7);
    for _ in 0..2_000 {
        if holder(game.state()).is_some() {
            return game;
        }
        let request = game.pending().first().map(|r| (*r).clone()).expect("asked");
        let answer = agent.choose(&game.view(request.player), &request);
        game.submit(request.player, answer).expect("a legal answer");
        check_game_invariants(rules, game.state()).expect("the shipped invariants hold");
    }
    panic!("no hero held an Action Die");
}

fn holder(state: &GameState) -> Option<gloam::core::PieceId> {
    state
        .pieces
        .values()
        .find(|p| {
            p.tokens.get("action_die").copied().unwrap_or(0) > 0
                && matches!(p.position, Some(Position::Table { .. }))
        })
        .map(|p| p.id)
}

/// Umbra Turris's own invariants (`cards/umbra_turris/umbra_turris.gloam`) catch a hero
/// with three Action Dice, a die on a hero with a Death Counter (003 L232, L476) and a hero
/// at 0 W on the table without one (L472); the state they read is left as it was.
#[test]
fn umbra_turris_invariants_catch_what_the_rules_forbid() {
    let rules = prepare(&[cards()], "umbra_turris").expect("the shipped data");
    let game = umbra_game_with_a_die(&rules);
    let state = game.state();
    let hero = holder(state).expect("a holder");
    assert_eq!(rules.broken_invariant(state), None);

    let broken = |change: &dyn Fn(&mut gloam::core::Piece)| {
        let mut changed = state.clone();
        change(Arc::make_mut(
            std::sync::Arc::make_mut(&mut changed.pieces)
                .get_mut(&hero)
                .expect("the hero"),
        ));
        let before = changed.clone();
        let message = rules.broken_invariant(&changed);
        assert_eq!(changed, before, "reading the invariants changed the state");
        message.unwrap_or_default()
    };
    let three = broken(&|hero| {
        hero.tokens.insert("action_die".into(), 3);
    });
    assert!(three.contains("invariant `action dice` broken"), "{three}");
    let dying = broken(&|hero| {
        hero.tokens.insert("death_counter".into(), 1);
    });
    assert!(dying.contains("invariant `action dice` broken"), "{dying}");
    let wounds = state
        .characteristic(hero, "wounds")
        .expect("a hero has Wounds");
    let fallen = broken(&|hero| {
        hero.counters.insert("damage".into(), wounds);
        hero.tokens.remove("action_die");
    });
    assert!(
        fallen.contains("invariant `mortally wounded` broken"),
        "{fallen}"
    );
}
