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
