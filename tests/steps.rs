//! The driver's errors for a step the flow names but cannot run: a step the ruleset does not
//! have, and a step it declares without a `run` script. The flow's data may name a step by
//! a value made at run time, which the loader's checks cannot see.

mod common;

use common::with_mod;
use gloam::sim::{play_one, prepare_for};

/// A ruleset whose setup queues the step named `step`, spelt at run time.
fn probe(name: &str, step: &str) -> String {
    let (head, tail) = step.split_at(step.len() / 2);
    format!(
        r#"
ruleset "{name}" {{
    extends = "harrowdeep"
    title = "Harrowdeep going to a step it cannot run"
    setup = {{ let parts = ["{head}", "{tail}"]; then(parts[0] + parts[1]); }}
}}
"#
    )
}

#[test]
fn a_step_the_ruleset_has_not_fails_the_game_naming_it() {
    let paths = with_mod("unknown", &probe("harrowdeep_unknown_step", "no_such_step"));
    let rules = prepare_for(&paths, "harrowdeep_unknown_step", 2).expect("the mod loads");
    let error = play_one(&rules, 1).error.expect("the game fails");
    assert!(error.contains("no_such_step"), "{error}");
    assert!(
        error.contains("the ruleset has no step of this name"),
        "{error}"
    );
}

/// A step declared without a `run` script is refused when the data loads, so the driver's
/// own error for one (kept for a host that builds a ruleset in code) is never met from data.
#[test]
fn a_step_without_a_run_script_is_refused_at_load() {
    let text = r#"
ruleset "harrowdeep_idle_step" {
    extends = "harrowdeep"
    title = "Harrowdeep with a step that does nothing"
    step "idle" {
        about = "a step declared with no script to run"
    }
}
"#;
    let paths = with_mod("idle", text);
    let Err(error) = prepare_for(&paths, "harrowdeep_idle_step", 2) else {
        panic!("the mod is refused");
    };
    assert!(error.contains("missing field `run` in `step`"), "{error}");
}
