//! Scenario and property tests of characteristic modifiers and their durations
//! (Harrowdeep, modifiers: digest §3.25 and H25; Embergard, persisting: digest §4.15;
//! tabletop digest C6-C7).

use gloam_core::{
    Duration, Ending, ExplainCause, ModOp, ModScope, ModTarget, ModifierId, ModifierSpec,
    Modifiers, Occurrence, PieceId, PlayerId,
};
use proptest::prelude::*;

const FIGHTER: PieceId = PieceId(1);
const OTHER: PieceId = PieceId(2);
const OWNER: PlayerId = PlayerId(0);

fn on_fighter(characteristic: &str, op: ModOp) -> ModifierSpec {
    ModifierSpec::new(ModTarget::Piece(FIGHTER), characteristic, op)
}

fn ids(ended: &[gloam_core::Modifier]) -> Vec<ModifierId> {
    ended.iter().map(|modifier| modifier.id()).collect()
}

// Digest §2.18 (Shadespire): Guard lasts until the end of the phase.
#[test]
fn until_phase_end_expires_on_first_phase_end() {
    let mut modifiers = Modifiers::new();
    let guard = modifiers
        .add(on_fighter("defence_dice", ModOp::Add(1)).lasting(Duration::until("phase_end", 1)))
        .unwrap();
    assert!(
        modifiers
            .notify(&Occurrence::new("attack_resolved"))
            .is_empty()
    );
    assert_eq!(
        ids(&modifiers.notify(&Occurrence::new("phase_end"))),
        vec![guard]
    );
    assert!(modifiers.is_empty());
}

#[test]
fn until_event_expires_after_n_occurrences() {
    let mut modifiers = Modifiers::new();
    let id = modifiers
        .add(on_fighter("move", ModOp::Add(1)).lasting(Duration::until("round_end", 2)))
        .unwrap();
    assert!(modifiers.notify(&Occurrence::new("round_end")).is_empty());
    match modifiers.get(id).unwrap().duration().endings() {
        [Ending::Event { remaining, .. }] => assert_eq!(*remaining, 1),
        other => panic!("unexpected endings {other:?}"),
    }
    assert_eq!(
        ids(&modifiers.notify(&Occurrence::new("round_end"))),
        vec![id]
    );
}

// "Until this fighter's next activation": only activations of that fighter count.
#[test]
fn scoped_duration_counts_only_matching_subject() {
    let mut modifiers = Modifiers::new();
    let id = modifiers
        .add(
            on_fighter("move", ModOp::Set(0)).lasting(Duration::until_for(
                "activation",
                FIGHTER,
                1,
            )),
        )
        .unwrap();
    let player_wide = modifiers
        .add(
            ModifierSpec::new(ModTarget::Player(OWNER), "move", ModOp::Add(1))
                .lasting(Duration::until_for("activation", OWNER, 1)),
        )
        .unwrap();
    let others = Occurrence::new("activation")
        .about(OTHER)
        .about(PlayerId(1));
    assert!(modifiers.notify(&others).is_empty());
    assert!(modifiers.notify(&Occurrence::new("activation")).is_empty());
    let ours = Occurrence::new("activation").about(FIGHTER).about(OWNER);
    assert_eq!(ids(&modifiers.notify(&ours)), vec![id, player_wide]);
}

// Embergard, persisting (digest §4.15): an effect naming several end events lasts until
// the first of them.
#[test]
fn next_attack_this_phase_ends_at_first_of_use_or_phase_end() {
    let mut modifiers = Modifiers::new();
    let next_attack = || {
        on_fighter("attack_dice", ModOp::Add(1))
            .lasting(Duration::uses(1).or(Duration::until("phase_end", 1)))
    };
    let used = modifiers.add(next_attack()).unwrap();
    assert_eq!(
        ids(&modifiers.consume_for(ModScope::piece(FIGHTER), "attack_dice")),
        vec![used]
    );
    let unused = modifiers.add(next_attack()).unwrap();
    assert_eq!(
        ids(&modifiers.notify(&Occurrence::new("phase_end"))),
        vec![unused]
    );
}

#[test]
fn consume_leaves_durations_without_uses_alone() {
    let mut modifiers = Modifiers::new();
    let permanent = modifiers.add(on_fighter("wounds", ModOp::Add(1))).unwrap();
    let phase = modifiers
        .add(on_fighter("wounds", ModOp::Add(1)).lasting(Duration::until("phase_end", 1)))
        .unwrap();
    assert_eq!(modifiers.consume(permanent), Ok(None));
    assert!(
        modifiers
            .consume_for(ModScope::piece(FIGHTER), "wounds")
            .is_empty()
    );
    assert_eq!(
        modifiers.iter().map(|m| m.id()).collect::<Vec<_>>(),
        vec![permanent, phase]
    );
}

#[test]
fn consume_for_skips_superseded_modifiers() {
    let mut modifiers = Modifiers::new();
    let old = modifiers
        .add(on_fighter("attack_dice", ModOp::Set(1)).lasting(Duration::uses(1)))
        .unwrap();
    let new = modifiers
        .add(on_fighter("attack_dice", ModOp::Set(3)).lasting(Duration::uses(1)))
        .unwrap();
    assert_eq!(
        ids(&modifiers.consume_for(ModScope::piece(FIGHTER), "attack_dice")),
        vec![new]
    );
    assert!(modifiers.get(old).is_some());
}

#[test]
fn expiry_order_is_id_order_whatever_the_targets() {
    let mut modifiers = Modifiers::new();
    let phase_end = || Duration::until("phase_end", 1);
    let targets = [
        ModTarget::Global,
        ModTarget::Piece(OTHER),
        ModTarget::Player(OWNER),
        ModTarget::Piece(FIGHTER),
    ];
    let added: Vec<ModifierId> = targets
        .iter()
        .map(|&target| {
            modifiers
                .add(ModifierSpec::new(target, "move", ModOp::Add(1)).lasting(phase_end()))
                .unwrap()
        })
        .collect();
    modifiers.add(on_fighter("move", ModOp::Add(1))).unwrap();
    assert_eq!(ids(&modifiers.notify(&Occurrence::new("phase_end"))), added);
    assert_eq!(modifiers.len(), 1);
}

#[test]
fn remove_target_takes_only_that_piece() {
    let mut modifiers = Modifiers::new();
    let a = modifiers.add(on_fighter("move", ModOp::Add(1))).unwrap();
    modifiers
        .add(ModifierSpec::new(
            ModTarget::Piece(OTHER),
            "move",
            ModOp::Add(1),
        ))
        .unwrap();
    let b = modifiers.add(on_fighter("wounds", ModOp::Add(1))).unwrap();
    assert_eq!(
        ids(&modifiers.remove_target(ModTarget::Piece(FIGHTER))),
        vec![a, b]
    );
    assert_eq!(modifiers.len(), 1);
}

#[test]
fn explain_lists_steps_in_application_order() {
    let mut modifiers = Modifiers::new();
    let add = modifiers
        .add(on_fighter("move", ModOp::Add(-9)).source("Mire"))
        .unwrap();
    let double = modifiers
        .add(ModifierSpec::new(ModTarget::Global, "move", ModOp::Multiply(2)).source("Haste"))
        .unwrap();
    let set = modifiers
        .add(on_fighter("move", ModOp::Set(4)).source("Fixed"))
        .unwrap();
    let explanation = modifiers.explain(ModScope::piece(FIGHTER), "move", 3, Some(0), None);
    let trail: Vec<(Option<ModifierId>, i64, i64)> = explanation
        .steps
        .iter()
        .map(|step| {
            let id = match &step.cause {
                ExplainCause::Modifier { id, .. } => Some(*id),
                _ => None,
            };
            (id, step.before, step.after)
        })
        .collect();
    assert_eq!(
        trail,
        vec![
            (Some(set), 3, 4),
            (Some(double), 4, 8),
            (Some(add), 8, -1),
            (None, -1, 0)
        ]
    );
    assert_eq!(explanation.value, 0);
    match &explanation.steps[1].cause {
        ExplainCause::Modifier { source, .. } => assert_eq!(source, "Haste"),
        other => panic!("unexpected cause {other:?}"),
    }
}

#[test]
fn store_survives_json_round_trip() {
    let mut modifiers = Modifiers::new();
    modifiers
        .add(
            on_fighter("move", ModOp::DivideRoundUp(2))
                .source("Slow")
                .stacking_key("slow")
                .lasting(Duration::until_for("activation", FIGHTER, 2).or(Duration::uses(3))),
        )
        .unwrap();
    let removed = modifiers
        .add(ModifierSpec::new(
            ModTarget::Player(OWNER),
            "glory",
            ModOp::Add(1),
        ))
        .unwrap();
    modifiers.remove(removed).unwrap();
    modifiers.notify(&Occurrence::new("activation").about(FIGHTER));
    let json = serde_json::to_string(&modifiers).unwrap();
    let mut back: Modifiers = serde_json::from_str(&json).unwrap();
    assert_eq!(back, modifiers);
    // The id counter survives too: the removed id is not handed out again.
    let next = back.add(on_fighter("move", ModOp::Add(1))).unwrap();
    assert!(next > removed);
}

#[test]
fn corrupt_store_fails_to_load() {
    let valid = r#"{"next_id":1,"modifiers":[{"id":0,"spec":{"target":"Global","characteristic":"move","op":{"Add":1},"source":"","stacking_key":null,"duration":{"endings":[]}}}]}"#;
    assert!(serde_json::from_str::<Modifiers>(valid).is_ok());
    let stale_counter = valid.replace(r#""next_id":1"#, r#""next_id":0"#);
    assert!(serde_json::from_str::<Modifiers>(&stale_counter).is_err());
    let zero_divisor = valid.replace(r#"{"Add":1}"#, r#"{"Divide":0}"#);
    assert!(serde_json::from_str::<Modifiers>(&zero_divisor).is_err());
}

fn arb_op() -> impl Strategy<Value = ModOp> {
    prop_oneof![
        (-20i64..20).prop_map(ModOp::Set),
        (0i64..4).prop_map(ModOp::Multiply),
        (1i64..4).prop_map(ModOp::Divide),
        (1i64..4).prop_map(ModOp::DivideRoundUp),
        (-20i64..20).prop_map(ModOp::Add),
    ]
}

fn arb_target() -> impl Strategy<Value = ModTarget> {
    prop_oneof![
        Just(ModTarget::Global),
        Just(ModTarget::Player(OWNER)),
        Just(ModTarget::Piece(FIGHTER)),
        Just(ModTarget::Piece(OTHER)),
    ]
}

fn arb_spec() -> impl Strategy<Value = ModifierSpec> {
    (arb_target(), arb_op(), proptest::option::of(0u8..3), 0u8..3).prop_map(
        |(target, op, key, ending)| {
            let mut spec = ModifierSpec::new(target, "move", op);
            if let Some(key) = key {
                spec = spec.stacking_key(format!("key{key}"));
            }
            let duration = match ending {
                0 => Duration::until("phase_end", 1),
                1 => Duration::until("round_end", 2),
                _ => Duration::uses(1).or(Duration::until("phase_end", 3)),
            };
            spec.lasting(duration)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn value_never_below_floor(
        specs in proptest::collection::vec(arb_spec(), 0..12),
        base in -50i64..50,
        floor in -5i64..5,
    ) {
        let mut modifiers = Modifiers::new();
        for spec in specs {
            modifiers.add(spec).unwrap();
        }
        let scope = ModScope::piece(FIGHTER).owned_by(OWNER);
        prop_assert!(modifiers.value(scope, "move", base, Some(floor), None) >= floor);
    }

    #[test]
    fn add_order_does_not_change_value(
        amounts in proptest::collection::vec(-30i64..30, 0..10),
        prefix in proptest::collection::vec(arb_spec(), 0..6),
        base in -50i64..50,
        rotation in 0usize..10,
    ) {
        let build = |amounts: &[i64]| {
            let mut modifiers = Modifiers::new();
            for spec in &prefix {
                modifiers.add(spec.clone()).unwrap();
            }
            for &amount in amounts {
                modifiers.add(on_fighter("move", ModOp::Add(amount))).unwrap();
            }
            modifiers.value(ModScope::piece(FIGHTER).owned_by(OWNER), "move", base, Some(0), None)
        };
        let mut shuffled = amounts.clone();
        if !shuffled.is_empty() {
            let len = shuffled.len();
            shuffled.rotate_left(rotation % len);
        }
        shuffled.reverse();
        prop_assert_eq!(build(&amounts), build(&shuffled));
    }

    #[test]
    fn expiring_everything_restores_clamped_base(
        specs in proptest::collection::vec(arb_spec(), 0..12),
        base in -50i64..50,
    ) {
        let mut modifiers = Modifiers::new();
        for spec in specs {
            modifiers.add(spec).unwrap();
        }
        let scope = ModScope::piece(FIGHTER).owned_by(OWNER);
        for _ in 0..3 {
            modifiers.notify(&Occurrence::new("phase_end"));
            modifiers.notify(&Occurrence::new("round_end"));
        }
        prop_assert!(modifiers.is_empty());
        prop_assert_eq!(modifiers.value(scope, "move", base, Some(0), Some(10)), base.clamp(0, 10));
    }

    #[test]
    fn json_round_trip_preserves_any_store(
        specs in proptest::collection::vec(arb_spec(), 0..8),
    ) {
        let mut modifiers = Modifiers::new();
        for spec in specs {
            modifiers.add(spec).unwrap();
        }
        modifiers.notify(&Occurrence::new("round_end"));
        let json = serde_json::to_string(&modifiers).unwrap();
        let back: Modifiers = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, modifiers);
    }
}
