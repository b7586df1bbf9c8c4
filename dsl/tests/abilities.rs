//! Fighter abilities and inspire conditions in the profiles' catalog: which abilities a
//! fighter has on its current side, their windows and reaction flags, their conditions and
//! the profile's inspire condition evaluated inside a run, and `use_ability`.

mod common;

use common::{Fixture, fixture, render};
use gloam_core::{PlayerId, Value};
use gloam_dsl::{AbilityInfo, FighterInfo, FlowRequest, ScriptContext, ScriptSource, Side};

fn condition(f: &Fixture, label: &str, text: &str) -> gloam_dsl::Script {
    let context = ScriptContext::condition(label.to_owned()).with_variables([
        "this_fighter",
        "player",
        "target",
        "attacker",
    ]);
    f.host
        .compile(&ScriptSource::whole("fighters.gloam", text), &context)
        .unwrap_or_else(|errors| panic!("{}", errors.iter().map(render).collect::<String>()))
}

fn strings(list: &[&str]) -> Value {
    Value::List(list.iter().map(|s| Value::Str((*s).into())).collect())
}

/// The hero's profile: inspired once damaged; "Parry" a reaction after an attack on the
/// hero; "Riposte" a reaction after an attack, on the inspired side only; "Rally" an action
/// with no condition; "Bad Omen" a reaction whose condition fails.
fn with_abilities() -> Fixture {
    let mut f = fixture();
    let inspire = condition(&f, "fighter \"hero\" inspire", "damage(this_fighter) > 0");
    let parry = condition(
        &f,
        "ability \"Parry\" condition",
        "target == this_fighter && attacker != () && adjacent(attacker, this_fighter)",
    );
    let omen = condition(
        &f,
        "ability \"Bad Omen\" condition",
        "characteristic(this_fighter, \"nope\") > 0",
    );
    let friendly = condition(
        &f,
        "ability \"Rally\" condition",
        "friendly_fighters().len() > 0 && player == owner(this_fighter)",
    );
    f.world = f.world.clone().with_fighter(
        "hero",
        FighterInfo::new()
            .with_inspire(inspire)
            .with_ability(
                AbilityInfo::new("Parry")
                    .with_window("after_attack")
                    .as_reaction()
                    .with_condition(parry),
            )
            .with_ability(
                AbilityInfo::new("Riposte")
                    .with_window("after_attack")
                    .as_reaction()
                    .with_side(Side::Inspired),
            )
            .with_ability(
                AbilityInfo::new("Rally")
                    .with_window("fighter_action")
                    .with_condition(friendly),
            )
            .with_ability(
                AbilityInfo::new("Bad Omen")
                    .with_window("after_move")
                    .as_reaction()
                    .with_condition(omen),
            ),
    );
    f
}

#[test]
fn the_world_knows_a_profiles_abilities_and_inspire_condition() {
    let f = with_abilities();
    let hero = f.world.fighter("hero").expect("profile");
    assert!(hero.inspire.is_some());
    let names: Vec<&str> = hero.abilities.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["Parry", "Riposte", "Rally", "Bad Omen"]);
    assert!(hero.abilities[0].reaction);
    assert!(!hero.abilities[2].reaction);
    assert_eq!(hero.abilities[1].side, Some(Side::Inspired));
}

#[test]
fn inspire_condition_holds_runs_the_profiles_condition() {
    let mut f = with_abilities();
    assert_eq!(
        f.value(
            "let before = inspire_condition_holds(this_fighter); deal_damage(this_fighter, 1); \
             [before, inspire_condition_holds(this_fighter), inspire_condition_holds(target)]"
        ),
        // The brute's kind has no profile: no condition, never inspired by it.
        Value::List(vec![
            Value::Bool(false),
            Value::Bool(true),
            Value::Bool(false)
        ])
    );
    // A query: conditions may call it (the hero kept its damage from the run above).
    let holds = f.condition("inspire_condition_holds(this_fighter)");
    let bindings = f.bindings();
    let outcome = f
        .host
        .evaluate_bool(&holds, &f.world, &f.state, &bindings)
        .expect("evaluates");
    assert!(outcome);
}

#[test]
fn abilities_follow_the_fighters_side() {
    let mut f = with_abilities();
    assert_eq!(
        f.value("let before = abilities(this_fighter); inspire(this_fighter); [before, abilities(this_fighter)]"),
        Value::List(vec![
            strings(&["Parry", "Rally", "Bad Omen"]),
            strings(&["Parry", "Riposte", "Rally", "Bad Omen"]),
        ])
    );
    assert_eq!(f.value("abilities(target)"), strings(&[]));
    assert_eq!(
        f.value(
            "[ability_window(this_fighter, \"Rally\"), ability_is_reaction(this_fighter, \"Rally\"), \
              ability_is_reaction(this_fighter, \"Parry\")]"
        ),
        Value::List(vec![
            Value::Str("fighter_action".into()),
            Value::Bool(false),
            Value::Bool(true)
        ])
    );
}

#[test]
fn ability_conditions_see_the_events_fighters() {
    let mut f = with_abilities();
    // The brute (target in the fixture's bindings) stands next to the hero.
    assert_eq!(
        f.value(
            "[ability_condition_holds(this_fighter, \"Parry\", this_fighter, target), \
              ability_condition_holds(this_fighter, \"Parry\", target, this_fighter), \
              ability_condition_holds(this_fighter, \"Parry\"), \
              ability_condition_holds(this_fighter, \"Rally\")]"
        ),
        Value::List(vec![
            Value::Bool(true),
            Value::Bool(false),
            Value::Bool(false),
            Value::Bool(true)
        ])
    );
}

#[test]
fn reactions_of_lists_the_reactions_of_a_window_whose_condition_holds() {
    let mut f = with_abilities();
    assert_eq!(
        f.value(
            "[reactions_of(this_fighter, \"after_attack\", this_fighter, target), \
              reactions_of(this_fighter, \"after_attack\", target, this_fighter), \
              reactions_of(this_fighter, \"fighter_action\", (), ()), \
              reactions_of(target, \"after_attack\", target, this_fighter)]"
        ),
        // Rally is no reaction; the brute has no profile.
        Value::List(vec![
            strings(&["Parry"]),
            strings(&[]),
            strings(&[]),
            strings(&[])
        ])
    );
    assert_eq!(
        f.value("inspire(this_fighter); reactions_of(this_fighter, \"after_attack\", this_fighter, target)"),
        strings(&["Parry", "Riposte"])
    );
}

#[test]
fn reactions_in_lists_the_reactions_of_any_of_the_windows_once_each() {
    let mut f = with_abilities();
    assert_eq!(
        f.value("reactions_in(this_fighter, [\"fighter_action\", \"after_attack\"], this_fighter, target)"),
        strings(&["Parry"])
    );
    assert_eq!(
        f.value("reactions_in(this_fighter, [\"fighter_action\"], this_fighter, target)"),
        strings(&[])
    );
    // Inspired, Riposte joins; the answer is the one `reactions_of` gives for the window.
    assert_eq!(
        f.value(
            "inspire(this_fighter); \
             [reactions_in(this_fighter, [\"after_attack\"], this_fighter, target), \
              reactions_of(this_fighter, \"after_attack\", this_fighter, target)]"
        ),
        Value::List(vec![
            strings(&["Parry", "Riposte"]),
            strings(&["Parry", "Riposte"])
        ])
    );
    assert_eq!(
        f.failure("reactions_in(this_fighter, [\"after_attack\", 2], (), ())")
            .to_string(),
        "test effect failed: `reactions_in`: `windows` must be a list of window names; item 2 is a int"
    );
}

#[test]
fn fighters_with_reactions_lists_the_fighters_reactions_in_names_a_reaction_of() {
    let mut f = with_abilities();
    let hero = Value::Piece(f.hero);
    assert_eq!(
        f.value(
            "[fighters_with_reactions([target, this_fighter], [\"fighter_action\", \"after_attack\"], this_fighter, target), \
              fighters_with_reactions([this_fighter, target], [\"after_attack\"], target, this_fighter), \
              fighters_with_reactions([], [\"after_attack\"], (), ())]"
        ),
        Value::List(vec![Value::List(vec![hero]), Value::List(vec![]), Value::List(vec![])])
    );
    // The same fighters, in the same order, as asking `reactions_in` of each; inspired
    // or not, whatever the fighters of the event.
    for prelude in ["", "inspire(this_fighter);"] {
        for (t, a) in [
            ("this_fighter", "target"),
            ("target", "this_fighter"),
            ("()", "()"),
        ] {
            let text = format!(
                "{prelude} let ws = [\"after_attack\", \"fighter_action\"]; \
                 fighters_with_reactions(fighters(), ws, {t}, {a}) == \
                 fighters().filter(|f| reactions_in(f, ws, {t}, {a}).len() > 0)"
            );
            assert_eq!(f.value(&text), Value::Bool(true), "{text}");
        }
    }
    assert_eq!(
        f.failure("fighters_with_reactions([this_fighter, 3], [\"after_attack\"], (), ())")
            .to_string(),
        "test effect failed: `fighters_with_reactions`: `fighters` must be a list of fighters; item 2 is a int"
    );
}

#[test]
fn a_failing_ability_condition_is_a_runtime_error_and_changes_nothing() {
    let mut f = with_abilities();
    let error =
        f.failure("deal_damage(target, 1); reactions_of(this_fighter, \"after_move\", (), ())");
    assert_eq!(error.code_name(), "gloam::dsl::runtime_error");
    assert_eq!(
        error.to_string(),
        "test effect failed: `reactions_of`: ability \"Bad Omen\" condition failed: \
         `characteristic`: piece0 has no characteristic `nope`"
    );
    for (text, message) in [
        (
            "ability_window(this_fighter, \"Riposte\")",
            "`ability_window`: piece0 has no ability \"Riposte\" on its current side",
        ),
        (
            "reactions_of(this_fighter, \"after_attack\", 3, ())",
            "`reactions_of`: `target` must be a fighter or (), not a int",
        ),
    ] {
        let error = f.failure(text);
        assert_eq!(
            error.to_string(),
            format!("test effect failed: {message}"),
            "{text}"
        );
    }
}

#[test]
fn use_ability_queues_the_drivers_ability_step() {
    let mut f = with_abilities();
    let (hero, brute) = (f.hero, f.brute);
    assert_eq!(
        f.flow("use_ability(this_fighter, \"Parry\", this_fighter, target); use_ability(this_fighter, \"Rally\");"),
        vec![
            FlowRequest::Then {
                step: "ability".into(),
                vars: vec![
                    ("attacker".into(), Value::Piece(brute)),
                    ("fighter".into(), Value::Piece(hero)),
                    ("name".into(), Value::Str("Parry".into())),
                    ("player".into(), Value::Player(PlayerId(0))),
                    ("target".into(), Value::Piece(hero)),
                ],
            },
            FlowRequest::Then {
                step: "ability".into(),
                vars: vec![
                    ("fighter".into(), Value::Piece(hero)),
                    ("name".into(), Value::Str("Rally".into())),
                    ("player".into(), Value::Player(PlayerId(0))),
                ],
            },
        ]
    );
    let error = f.failure("use_ability(this_fighter, \"Riposte\")");
    assert_eq!(error.code_name(), "gloam::dsl::refused_effect");
}
