//! Scenario and property tests of data-defined dice.

use std::collections::BTreeMap;

use gloam_core::{
    Dice, DiceError, DiceExpr, DieDef, DieFace, FinalTie, GameRng, OpposedOutcome, PlayerId, Pool,
    Ratio, RollOffRank, RollOffRule, TieRule, chance_at_least, roll_opposed,
};
use proptest::prelude::*;

fn ratio(num: u128, den: u128) -> Ratio {
    Ratio::new(num, den).unwrap()
}

/// The Underworlds attack die, as a ruleset would define it in data.
fn attack_die() -> DieDef {
    DieDef::new(
        "attack",
        vec![
            DieFace::new("critical", 1),
            DieFace::new("hammer", 2),
            DieFace::new("swords", 1),
            DieFace::new("single_support", 1),
            DieFace::new("double_support", 1),
        ],
    )
    .unwrap()
}

fn defence_die() -> DieDef {
    DieDef::new(
        "defence",
        vec![
            DieFace::new("critical", 1),
            DieFace::new("block", 2),
            DieFace::new("dodge", 1),
            DieFace::new("single_support", 1),
            DieFace::new("double_support", 1),
        ],
    )
    .unwrap()
}

fn magic_die() -> DieDef {
    DieDef::new(
        "magic",
        vec![
            DieFace::new("critical", 1),
            DieFace::new("focus", 2),
            DieFace::new("channel", 3),
        ],
    )
    .unwrap()
}

fn underworlds_dice() -> Dice {
    Dice::from_defs([
        attack_die(),
        defence_die(),
        magic_die(),
        DieDef::numeric(6).unwrap(),
    ])
    .unwrap()
}

fn embergard_tiers() -> RollOffRank {
    RollOffRank::Tiers(vec![
        vec!["critical".into()],
        vec!["hammer".into(), "swords".into()],
        vec!["single_support".into(), "double_support".into()],
    ])
}

fn parse_err(input: &str) -> (usize, String) {
    match DiceExpr::parse(input) {
        Err(DiceError::Parse {
            offset, problem, ..
        }) => (offset, problem),
        other => panic!("expected a parse error for {input:?}, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// Faces and frequencies
// ---------------------------------------------------------------------------------------

#[test]
fn attack_die_seed_42_first_faces_are_pinned() {
    // GameRng golden for seed 42: below(6) = 3, 3, 4, 0, 2, 2; faces walk declaration order.
    let dice = underworlds_dice();
    let roll = dice
        .roll(&Pool::of("attack", 6), &mut GameRng::from_seed(42))
        .unwrap();
    let faces: Vec<&str> = roll.dice().iter().map(|d| d.face.as_str()).collect();
    assert_eq!(
        faces,
        [
            "swords",
            "swords",
            "single_support",
            "critical",
            "hammer",
            "hammer"
        ]
    );
    let d6 = dice
        .roll(&Pool::of("d6", 6), &mut GameRng::from_seed(42))
        .unwrap();
    let values: Vec<i64> = d6.dice().iter().filter_map(|d| d.value).collect();
    assert_eq!(values, [4, 4, 5, 1, 3, 3]);
}

#[test]
fn attack_die_60000_rolls_match_face_counts() {
    let die = attack_die();
    let mut rng = GameRng::from_seed(2024);
    let mut seen: BTreeMap<String, i64> = BTreeMap::new();
    let rolls: i64 = 60_000;
    for _ in 0..rolls {
        *seen.entry(die.roll(&mut rng).name.clone()).or_default() += 1;
    }
    // Chi-square in integers: sum (o - e)^2 / e with e = rolls * count / 6, scaled by
    // 20_000 (a common multiple of the expected counts 10_000 and 20_000).
    let scale: i64 = 20_000;
    let mut chi_scaled: i64 = 0;
    for face in die.faces() {
        let expected = rolls * i64::from(face.count) / 6;
        let observed = seen.get(&face.name).copied().unwrap_or(0);
        let diff = observed - expected;
        // Per-face bound: well over 4 standard deviations (at most 116 here).
        assert!(diff.abs() < 600, "{}: {observed} vs {expected}", face.name);
        chi_scaled += diff * diff * (scale / expected);
    }
    // 18.47 is the 0.1% critical value for 4 degrees of freedom.
    assert!(
        chi_scaled < 18 * scale,
        "chi-square × {scale} = {chi_scaled}"
    );
    assert_eq!(seen.len(), 5);
}

// ---------------------------------------------------------------------------------------
// Exact odds
// ---------------------------------------------------------------------------------------

#[test]
fn two_attack_dice_hammer_at_least_one_is_three_quarters() {
    let dice = underworlds_dice();
    let dist = dice
        .success_distribution(&Pool::of("attack", 2), &["hammer", "critical"])
        .unwrap();
    assert_eq!(dist, vec![ratio(1, 4), ratio(1, 2), ratio(1, 4)]);
    // 1 - (3/6)^2
    assert_eq!(chance_at_least(&dist, 1).unwrap(), ratio(3, 4));
    assert_eq!(chance_at_least(&dist, 2).unwrap(), ratio(1, 4));
    assert_eq!(chance_at_least(&dist, 3).unwrap(), Ratio::ZERO);
}

#[test]
fn die_probability_of_counts_face_weights() {
    assert_eq!(
        attack_die()
            .probability_of(&["swords", "critical"])
            .unwrap(),
        ratio(1, 3)
    );
    assert_eq!(
        magic_die().probability_of(&["channel"]).unwrap(),
        ratio(1, 2)
    );
    assert_eq!(magic_die().probability_of(&[]).unwrap(), Ratio::ZERO);
    assert_eq!(
        attack_die().probability_of(&["hammer", "hammer"]).unwrap(),
        ratio(1, 3)
    );
    assert!(matches!(
        attack_die().probability_of(&["hamer"]),
        Err(DiceError::UnknownFace { .. })
    ));
}

#[test]
fn mixed_pool_success_distribution_counts_shared_face_names() {
    // One attack and one defence die, success = critical: (1/6 each).
    let dice = underworlds_dice();
    let pool = Pool::of("attack", 1).with("defence", 1);
    let dist = dice.success_distribution(&pool, &["critical"]).unwrap();
    assert_eq!(dist, vec![ratio(25, 36), ratio(10, 36), ratio(1, 36)]);
    // `block` is only on the defence die: it still counts there.
    let dist = dice.success_distribution(&pool, &["block"]).unwrap();
    assert_eq!(dist, vec![ratio(2, 3), ratio(1, 3), Ratio::ZERO]);
    assert!(matches!(
        dice.success_distribution(&pool, &["focus"]),
        Err(DiceError::UnknownFace { .. })
    ));
}

#[test]
fn d3_distribution_is_uniform_thirds() {
    let dist = DiceExpr::parse("D3").unwrap().distribution().unwrap();
    let expected: BTreeMap<i64, Ratio> = [(1, ratio(1, 3)), (2, ratio(1, 3)), (3, ratio(1, 3))]
        .into_iter()
        .collect();
    assert_eq!(dist, expected);
}

#[test]
fn two_d6_distribution_is_triangular() {
    let dist = DiceExpr::parse("2D6").unwrap().distribution().unwrap();
    let expected: BTreeMap<i64, Ratio> = (2..=12)
        .map(|total: i64| (total, ratio((6 - (total - 7).abs()) as u128, 36)))
        .collect();
    assert_eq!(dist, expected);
    assert_eq!(dist[&2], ratio(1, 36));
    assert_eq!(dist[&7], ratio(6, 36));
}

#[test]
fn expr_with_modifier_shifts_distribution() {
    let expr = DiceExpr::parse("d6-1").unwrap();
    let dist = expr.distribution().unwrap();
    assert_eq!(dist.keys().copied().collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5]);
    assert_eq!(expr.chance_at_least(4).unwrap(), ratio(1, 3));
    let constant = DiceExpr::parse("3").unwrap();
    assert_eq!(
        constant.distribution().unwrap(),
        [(3, Ratio::ONE)].into_iter().collect()
    );
}

#[test]
fn huge_expression_distribution_overflows_cleanly() {
    let expr = DiceExpr::parse("100D1000").unwrap();
    assert!(matches!(
        expr.distribution(),
        Err(DiceError::Overflow { .. })
    ));
}

// ---------------------------------------------------------------------------------------
// Re-rolls
// ---------------------------------------------------------------------------------------

#[test]
fn reroll_twice_same_die_errors_and_leaves_roll_unchanged() {
    let dice = underworlds_dice();
    let mut rng = GameRng::from_seed(9);
    let mut roll = dice.roll(&Pool::of("attack", 3), &mut rng).unwrap();
    roll.reroll(1, &mut rng).unwrap();
    let before = roll.clone();
    let rng_before = rng.clone();
    assert_eq!(
        roll.reroll(1, &mut rng),
        Err(DiceError::AlreadyRerolled { index: 1 })
    );
    assert_eq!(roll, before);
    assert_eq!(rng, rng_before);
    assert_eq!(
        roll.reroll(3, &mut rng).map(|d| d.index),
        Err(DiceError::IndexOutOfRange { index: 3, len: 3 })
    );
    assert_eq!(roll, before);
}

#[test]
fn reroll_records_previous_face_in_history() {
    let dice = underworlds_dice();
    let mut rng = GameRng::from_seed(10);
    let mut roll = dice.roll(&Pool::of("d6", 2), &mut rng).unwrap();
    let old = roll.dice()[0].clone();
    let new = roll.reroll(0, &mut rng).unwrap().clone();
    assert!(new.rerolled);
    assert!(!roll.dice()[1].rerolled);
    let record = &roll.history()[0];
    assert_eq!(roll.history().len(), 1);
    assert_eq!(record.index, 0);
    assert_eq!(
        (record.from_face.as_str(), record.from_value),
        (old.face.as_str(), old.value)
    );
    assert_eq!(
        (record.to_face.as_str(), record.to_value),
        (new.face.as_str(), new.value)
    );
}

#[test]
fn reroll_faces_rerolls_only_matching_dice_once() {
    let dice = underworlds_dice();
    let mut rng = GameRng::from_seed(77);
    let mut roll = dice.roll(&Pool::of("d6", 30), &mut rng).unwrap();
    let ones: Vec<usize> = roll
        .dice()
        .iter()
        .filter(|d| d.face == "1")
        .map(|d| d.index)
        .collect();
    assert!(!ones.is_empty());
    let rerolled = roll.reroll_faces(&["1"], &mut rng);
    assert_eq!(rerolled, ones);
    assert_eq!(roll.history().len(), ones.len());
    // Re-rolled dice that show 1 again stay: they cannot be re-rolled twice.
    assert!(roll.reroll_faces(&["1"], &mut rng).is_empty());
    assert_eq!(roll.history().len(), ones.len());
    for die in roll.dice() {
        assert_eq!(die.rerolled, ones.contains(&die.index));
    }
}

#[test]
fn reroll_all_skips_dice_already_rerolled() {
    let dice = underworlds_dice();
    let mut rng = GameRng::from_seed(3);
    let mut roll = dice.roll(&Pool::of("attack", 4), &mut rng).unwrap();
    roll.reroll(2, &mut rng).unwrap();
    assert_eq!(roll.reroll_all(&mut rng), vec![0, 1, 3]);
    assert!(roll.dice().iter().all(|d| d.rerolled));
    assert!(roll.reroll_all(&mut rng).is_empty());
    assert_eq!(roll.history().len(), 4);
}

#[test]
fn roll_helpers_count_sum_and_extremes() {
    let dice = underworlds_dice();
    let mut rng = GameRng::from_seed(42);
    let d6 = dice.roll(&Pool::of("d6", 6), &mut rng).unwrap(); // 4 4 5 1 3 3
    assert_eq!(d6.sum(), Some(20));
    assert_eq!(d6.highest(), Some(5));
    assert_eq!(d6.lowest(), Some(1));
    assert_eq!(d6.count_at_least(4), 3);
    assert_eq!(d6.count(&["3", "4"]), 4);
    assert!(d6.has_double());
    let attack = dice.roll(&Pool::of("attack", 2), &mut rng).unwrap();
    assert_eq!(attack.sum(), None);
    assert_eq!(attack.highest(), None);
}

// ---------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------

#[test]
fn expr_parse_accepts_common_forms() {
    for (text, (count, sides, modifier)) in [
        ("D3", (1, 3, 0)),
        ("D6", (1, 6, 0)),
        ("2D6", (2, 6, 0)),
        ("2D6+1", (2, 6, 1)),
        ("D6-1", (1, 6, -1)),
        ("3", (0, 0, 3)),
        ("d3+2", (1, 3, 2)),
        (" 3d6 - 2 ", (3, 6, -2)),
        ("-1", (0, 0, -1)),
    ] {
        let expr = DiceExpr::parse(text).unwrap();
        assert_eq!(
            (expr.count(), expr.sides(), expr.modifier()),
            (count, sides, modifier),
            "{text}"
        );
    }
}

#[test]
fn expr_parse_errors_say_where_and_what() {
    assert_eq!(parse_err("").0, 0);
    assert_eq!(
        parse_err("2X6"),
        (1, "unexpected `X` after the expression".into())
    );
    assert_eq!(parse_err("2D").0, 2);
    assert_eq!(parse_err("2Dx").0, 2);
    assert_eq!(parse_err("0D6").0, 0);
    assert_eq!(parse_err("D0").0, 1);
    assert_eq!(parse_err("101D6").0, 0);
    assert_eq!(parse_err("2D6+").0, 4);
    assert_eq!(parse_err("2D6+1x").0, 5);
    assert_eq!(
        parse_err("D6+D3"),
        (3, "only one dice term is allowed".into())
    );
    assert_eq!(
        parse_err("D6+1-1"),
        (4, "only one modifier is allowed".into())
    );
    assert_eq!(parse_err("3+1").0, 1);
    assert_eq!(parse_err("-D6").0, 0);
    assert_eq!(parse_err("x").0, 0);
    assert_eq!(parse_err("99999999999999999999999").0, 0);
    assert_eq!(parse_err("D6+2000000").0, 3);
    assert_eq!(parse_err("2D6é").0, 3);
    let message = DiceExpr::parse("2D").unwrap_err().to_string();
    assert!(
        message.starts_with("invalid dice expression `2D` at byte 2: "),
        "{message}"
    );
    assert!(message.contains("e.g. `D6`"), "{message}");
}

#[test]
fn expr_serde_uses_text() {
    let expr = DiceExpr::parse("2d6+1").unwrap();
    let json = serde_json::to_string(&expr).unwrap();
    assert_eq!(json, "\"2D6+1\"");
    assert_eq!(serde_json::from_str::<DiceExpr>(&json).unwrap(), expr);
    assert!(serde_json::from_str::<DiceExpr>("\"2D\"").is_err());
}

#[test]
fn expr_roll_keeps_raw_dice_and_total() {
    let expr = DiceExpr::parse("3D6+2").unwrap();
    let roll = expr.roll(&mut GameRng::from_seed(42));
    let faces: Vec<u32> = roll.dice().iter().map(|d| d.face).collect();
    assert_eq!(faces, [4, 4, 5]);
    assert_eq!(roll.unmodified(), 13);
    assert_eq!(roll.total(), 15);
    assert!(roll.has_double());
}

// ---------------------------------------------------------------------------------------
// Opposed rolls and roll-offs
// ---------------------------------------------------------------------------------------

#[test]
fn opposed_tie_rules_settle_equal_totals() {
    let three = DiceExpr::constant(3).unwrap();
    let mut rng = GameRng::from_seed(1);
    for (tie, outcome) in [
        (TieRule::AttackerWins, OpposedOutcome::AttackerWins),
        (TieRule::DefenderWins, OpposedOutcome::DefenderWins),
        (TieRule::Draw, OpposedOutcome::Draw),
        (
            TieRule::RollAgain {
                max_rerolls: 50,
                otherwise: FinalTie::DefenderWins,
            },
            OpposedOutcome::DefenderWins,
        ),
    ] {
        let result = roll_opposed(&three, &three, tie, &mut rng).unwrap();
        assert_eq!(result.outcome(), outcome, "{tie:?}");
        assert!(result.decided_by_tie_rule());
        // Constants cannot change, so ties are never rolled again.
        assert_eq!(result.rounds().len(), 1);
        assert_eq!(result.margin(), 0);
    }
    let four = DiceExpr::constant(4).unwrap();
    let result = roll_opposed(&four, &three, TieRule::DefenderWins, &mut rng).unwrap();
    assert_eq!(result.outcome(), OpposedOutcome::AttackerWins);
    assert!(!result.decided_by_tie_rule());
    assert_eq!(result.margin(), 1);
}

#[test]
fn opposed_roll_again_rerolls_ties_within_bound() {
    let d6 = DiceExpr::parse("D6").unwrap();
    let mut saw_reroll = false;
    for seed in 0..300 {
        let tie = TieRule::RollAgain {
            max_rerolls: 2,
            otherwise: FinalTie::Draw,
        };
        let result = roll_opposed(&d6, &d6, tie, &mut GameRng::from_seed(seed)).unwrap();
        let rounds = result.rounds();
        assert!(rounds.len() <= 3);
        saw_reroll |= rounds.len() > 1;
        for round in &rounds[..rounds.len() - 1] {
            assert_eq!(round.attacker.total(), round.defender.total());
        }
        let expected = match result.margin() {
            m if m > 0 => OpposedOutcome::AttackerWins,
            m if m < 0 => OpposedOutcome::DefenderWins,
            _ => {
                assert_eq!(rounds.len(), 3);
                OpposedOutcome::Draw
            }
        };
        assert_eq!(result.outcome(), expected);
    }
    assert!(saw_reroll);
}

#[test]
fn opposed_d6_plus_stat_uses_modifier() {
    let attacker = DiceExpr::parse("D6").unwrap().plus(10).unwrap();
    let defender = DiceExpr::parse("D6").unwrap().plus(2).unwrap();
    let result = roll_opposed(
        &attacker,
        &defender,
        TieRule::Draw,
        &mut GameRng::from_seed(5),
    )
    .unwrap();
    assert_eq!(result.outcome(), OpposedOutcome::AttackerWins);
    let too_many = TieRule::RollAgain {
        max_rerolls: 5000,
        otherwise: FinalTie::Draw,
    };
    assert!(matches!(
        roll_opposed(&attacker, &defender, too_many, &mut GameRng::from_seed(5)),
        Err(DiceError::TooManyRerolls { .. })
    ));
}

fn embergard_roll_off() -> RollOffRule {
    RollOffRule {
        pool: Pool::of("attack", 1),
        rank: embergard_tiers(),
        max_rerolls: 30,
    }
}

#[test]
fn roll_off_terminates_and_is_deterministic() {
    let dice = underworlds_dice();
    let rule = embergard_roll_off();
    let players = [PlayerId(0), PlayerId(1), PlayerId(2), PlayerId(3)];
    let mut winners = std::collections::BTreeSet::new();
    for seed in 0..100 {
        let a = rule
            .run(&players, &dice, &mut GameRng::from_seed(seed))
            .unwrap();
        let b = rule
            .run(&players, &dice, &mut GameRng::from_seed(seed))
            .unwrap();
        assert_eq!(a, b);
        assert!(a.rounds().len() <= 31);
        let winner = a
            .winner()
            .expect("30 re-rolls settle a 4-player roll-off here");
        winners.insert(winner);
        assert_eq!(a.tied(), [winner]);
        // Each later round rolls exactly the previous round's leaders.
        for pair in a.rounds().windows(2) {
            let rolled: Vec<PlayerId> = pair[1].rolls.iter().map(|r| r.player).collect();
            assert_eq!(rolled, pair[0].leaders);
        }
    }
    assert_eq!(winners.len(), 4);
}

#[test]
fn roll_off_without_rerolls_may_end_tied() {
    let dice = underworlds_dice();
    let rule = RollOffRule {
        max_rerolls: 0,
        ..embergard_roll_off()
    };
    let players = [PlayerId(0), PlayerId(1)];
    let tied = (0..200)
        .map(|seed| {
            rule.run(&players, &dice, &mut GameRng::from_seed(seed))
                .unwrap()
        })
        .find(|r| r.winner().is_none())
        .expect("some seed ties");
    assert_eq!(tied.rounds().len(), 1);
    assert_eq!(tied.tied(), players);
}

#[test]
fn roll_off_four_dice_compares_tiers_in_order() {
    // Shadespire style: four attack dice each, most criticals, then hammers/swords.
    let dice = underworlds_dice();
    let rule = RollOffRule {
        pool: Pool::of("attack", 4),
        ..embergard_roll_off()
    };
    let tiers = ["critical", "hammer", "swords"];
    for seed in 0..50 {
        let result = rule
            .run(
                &[PlayerId(0), PlayerId(1)],
                &dice,
                &mut GameRng::from_seed(seed),
            )
            .unwrap();
        let first = &result.rounds()[0];
        let key = |i: usize| {
            let roll = &first.rolls[i].roll;
            (roll.count(&tiers[..1]), roll.count(&tiers[1..]))
        };
        let expected: Vec<PlayerId> = match key(0).cmp(&key(1)) {
            std::cmp::Ordering::Greater => vec![PlayerId(0)],
            std::cmp::Ordering::Less => vec![PlayerId(1)],
            std::cmp::Ordering::Equal => {
                let s = |i: usize| {
                    first.rolls[i]
                        .roll
                        .count(&["single_support", "double_support"])
                };
                match s(0).cmp(&s(1)) {
                    std::cmp::Ordering::Greater => vec![PlayerId(0)],
                    std::cmp::Ordering::Less => vec![PlayerId(1)],
                    std::cmp::Ordering::Equal => vec![PlayerId(0), PlayerId(1)],
                }
            }
        };
        assert_eq!(first.leaders, expected);
    }
}

#[test]
fn roll_off_by_total_ranks_d6_sums() {
    let dice = underworlds_dice();
    let rule = RollOffRule {
        pool: Pool::of("d6", 2),
        rank: RollOffRank::Total,
        max_rerolls: 10,
    };
    let result = rule
        .run(
            &[PlayerId(1), PlayerId(0)],
            &dice,
            &mut GameRng::from_seed(8),
        )
        .unwrap();
    let last = result.rounds().last().unwrap();
    let winner = result.winner().unwrap();
    let best = last
        .rolls
        .iter()
        .map(|r| r.roll.sum().unwrap())
        .max()
        .unwrap();
    let winner_sum = last
        .rolls
        .iter()
        .find(|r| r.player == winner)
        .and_then(|r| r.roll.sum());
    assert_eq!(winner_sum, Some(best));
}

#[test]
fn roll_off_invalid_rules_are_rejected_before_rolling() {
    let dice = underworlds_dice();
    let mut rng = GameRng::from_seed(1);
    let before = rng.clone();
    let two = [PlayerId(0), PlayerId(1)];
    let rule = embergard_roll_off();
    assert_eq!(
        rule.run(&[PlayerId(0)], &dice, &mut rng),
        Err(DiceError::TooFewPlayers { count: 1 })
    );
    assert_eq!(
        rule.run(&[PlayerId(0), PlayerId(0)], &dice, &mut rng),
        Err(DiceError::DuplicatePlayer {
            player: PlayerId(0)
        })
    );
    let typo = RollOffRule {
        rank: RollOffRank::Tiers(vec![vec!["critcal".into()]]),
        ..embergard_roll_off()
    };
    assert!(matches!(
        typo.run(&two, &dice, &mut rng),
        Err(DiceError::UnknownFace { .. })
    ));
    let twice = RollOffRule {
        rank: RollOffRank::Tiers(vec![vec!["critical".into()], vec!["critical".into()]]),
        ..embergard_roll_off()
    };
    assert!(matches!(
        twice.run(&two, &dice, &mut rng),
        Err(DiceError::FaceRankedTwice { .. })
    ));
    let no_values = RollOffRule {
        rank: RollOffRank::Total,
        ..embergard_roll_off()
    };
    assert!(matches!(
        no_values.run(&two, &dice, &mut rng),
        Err(DiceError::FaceWithoutValue { .. })
    ));
    let empty = RollOffRule {
        pool: Pool::new(),
        ..embergard_roll_off()
    };
    assert_eq!(
        empty.run(&two, &dice, &mut rng),
        Err(DiceError::EmptyRollOffPool)
    );
    let unbounded = RollOffRule {
        max_rerolls: u32::MAX,
        ..embergard_roll_off()
    };
    assert!(matches!(
        unbounded.run(&two, &dice, &mut rng),
        Err(DiceError::TooManyRerolls { .. })
    ));
    assert_eq!(rng, before);
}

#[test]
fn dice_set_round_trips_through_json() {
    let dice = underworlds_dice();
    let json = serde_json::to_string(&dice).unwrap();
    let back: Dice = serde_json::from_str(&json).unwrap();
    assert_eq!(back, dice);
    let duplicated = r#"[{"name":"x","faces":[{"name":"a"}]},{"name":"x","faces":[{"name":"b"}]}]"#;
    assert!(serde_json::from_str::<Dice>(duplicated).is_err());
    let rule = embergard_roll_off();
    let back: RollOffRule = serde_json::from_str(&serde_json::to_string(&rule).unwrap()).unwrap();
    assert_eq!(back, rule);
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

/// A die named `name` with 1-4 faces `f0..`, each with a count of 1-4.
fn arb_die(name: &'static str) -> impl Strategy<Value = DieDef> {
    prop::collection::vec(1u32..=4, 1..=4).prop_map(move |counts| {
        let faces = counts
            .iter()
            .enumerate()
            .map(|(i, &c)| DieFace::new(format!("f{i}"), c))
            .collect();
        DieDef::new(name, faces).unwrap()
    })
}

fn arb_expr() -> impl Strategy<Value = DiceExpr> {
    (
        0u32..=4,
        prop::sample::select(vec![1u32, 2, 3, 4, 6, 8, 10, 12, 20]),
        -5i64..=5,
    )
        .prop_map(|(count, sides, modifier)| DiceExpr::new(count, sides, modifier).unwrap())
}

fn sum_exact(values: impl IntoIterator<Item = Ratio>) -> Ratio {
    values
        .into_iter()
        .fold(Ratio::ZERO, |sum, p| sum.checked_add(p).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn rolled_faces_are_declared_faces(die in arb_die("x"), seed in any::<u64>(), n in 1u32..20) {
        let dice = Dice::from_defs([die.clone()]).unwrap();
        let mut rng = GameRng::from_seed(seed);
        let mut roll = dice.roll(&Pool::of("x", n), &mut rng).unwrap();
        roll.reroll_all(&mut rng);
        for rolled in roll.dice() {
            prop_assert!(die.face(&rolled.face).is_some());
            prop_assert_eq!(rolled.die.as_str(), "x");
        }
        for record in roll.history() {
            prop_assert!(die.face(&record.from_face).is_some());
        }
    }

    #[test]
    fn same_seed_gives_same_rolls(seed in any::<u64>(), expr in arb_expr()) {
        let dice = underworlds_dice();
        let pool = Pool::of("attack", 3).with("defence", 2).with("d6", 2);
        let a = dice.roll(&pool, &mut GameRng::from_seed(seed)).unwrap();
        let b = dice.roll(&pool, &mut GameRng::from_seed(seed)).unwrap();
        prop_assert_eq!(a, b);
        prop_assert_eq!(expr.roll(&mut GameRng::from_seed(seed)), expr.roll(&mut GameRng::from_seed(seed)));
    }

    #[test]
    fn expr_distribution_sums_to_one_and_covers_rolls(expr in arb_expr(), seed in any::<u64>()) {
        let dist = expr.distribution().unwrap();
        prop_assert_eq!(sum_exact(dist.values().copied()), Ratio::ONE);
        let roll = expr.roll(&mut GameRng::from_seed(seed));
        prop_assert!(dist.contains_key(&roll.total()));
        prop_assert_eq!(roll.total(), roll.unmodified() + expr.modifier());
    }

    #[test]
    fn expr_display_parses_back(expr in arb_expr()) {
        prop_assert_eq!(DiceExpr::parse(&expr.to_string()).unwrap(), expr);
    }

    #[test]
    fn pool_success_distribution_matches_brute_force(
        a in arb_die("a"),
        b in arb_die("b"),
        n_a in 0u32..=2,
        n_b in 0u32..=2,
        wanted in prop::sample::subsequence(vec!["f0", "f1", "f2", "f3"], 1..=4),
    ) {
        let dice = Dice::from_defs([a.clone(), b.clone()]).unwrap();
        let pool = Pool::of("a", n_a).with("b", n_b);
        let mut success: Vec<&str> = wanted
            .into_iter()
            .filter(|f| a.face(f).is_some() || b.face(f).is_some())
            .collect();
        if success.is_empty() {
            success.push("f0");
        }
        let dist = dice.success_distribution(&pool, &success).unwrap();
        prop_assert_eq!(dist.len(), (n_a + n_b) as usize + 1);
        prop_assert_eq!(sum_exact(dist.iter().copied()), Ratio::ONE);

        // Brute force: every tuple of sides, each equally likely.
        let mut sides: Vec<Vec<bool>> = Vec::new();
        for (def, n) in [(&a, n_a), (&b, n_b)] {
            let one: Vec<bool> = def
                .faces()
                .iter()
                .flat_map(|f| std::iter::repeat_n(success.contains(&f.name.as_str()), f.count as usize))
                .collect();
            for _ in 0..n {
                sides.push(one.clone());
            }
        }
        let mut counts = vec![0u128; sides.len() + 1];
        let mut total: u128 = 0;
        let mut cursor = vec![0usize; sides.len()];
        loop {
            let hits = cursor.iter().zip(&sides).filter(|(i, s)| s[**i]).count();
            counts[hits] += 1;
            total += 1;
            let mut k = 0;
            while k < cursor.len() {
                cursor[k] += 1;
                if cursor[k] < sides[k].len() { break; }
                cursor[k] = 0;
                k += 1;
            }
            if k == cursor.len() { break; }
        }
        let brute: Vec<Ratio> = counts.iter().map(|&c| Ratio::new(c, total).unwrap()).collect();
        prop_assert_eq!(dist, brute);
    }

    #[test]
    fn die_probabilities_of_all_faces_sum_to_one(die in arb_die("x")) {
        let total = sum_exact(die.faces().iter().map(|f| die.probability_of(&[f.name.as_str()]).unwrap()));
        prop_assert_eq!(total, Ratio::ONE);
        let names: Vec<&str> = die.faces().iter().map(|f| f.name.as_str()).collect();
        prop_assert_eq!(die.probability_of(&names).unwrap(), Ratio::ONE);
    }

    #[test]
    fn roll_off_is_bounded_and_deterministic(seed in any::<u64>(), max_rerolls in 0u32..5, n in 2u8..6) {
        let dice = underworlds_dice();
        let rule = RollOffRule { max_rerolls, ..embergard_roll_off() };
        let players: Vec<PlayerId> = (0..n).map(PlayerId).collect();
        let a = rule.run(&players, &dice, &mut GameRng::from_seed(seed)).unwrap();
        let b = rule.run(&players, &dice, &mut GameRng::from_seed(seed)).unwrap();
        prop_assert!(a.rounds().len() <= max_rerolls as usize + 1);
        prop_assert_eq!(a.winner().is_some(), a.tied().len() == 1);
        prop_assert_eq!(a, b);
    }
}
