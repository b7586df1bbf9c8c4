//! Umbra Turris's rolls the Torment Dice and three professions reach (seed 003; digest A7,
//! A14, A16, A17): Torment on the movement tests and the rarer rolls, the False Prophet's
//! curse, the Cleric's prayer and the Witch Hunter's +2 or -2 on the rolls left over. Each
//! scenario arranges heroes of the test parties below on the table through the kernel's
//! `Ctx`, loads the dice with `fix_dice`, runs one step of the flow and answers its requests;
//! each compares the rule with the same scene and dice without it, and cites the seed lines
//! it checks.
//!
//! | Rule | Test |
//! |---|---|
//! | Torment, swimming | `a_torment_dice_re_rolls_a_swimming_test` |
//! | Torment, climbing, jumping down | `a_torment_dice_re_rolls_a_climbing_test_and_a_jump_down` |
//! | Torment, disengaging | `a_torment_dice_re_rolls_a_die_of_a_disengage_test` |
//! | Torment, rarer rolls | `a_torment_dice_re_rolls_battle_frenzy_the_rage_roll_and_the_knights_blow`, `a_torment_dice_re_rolls_a_city_goblins_vitality` |
//! | Torment, not on the offering | `no_torment_dice_re_rolls_an_offering` |
//! | False Prophet | `a_false_prophet_may_curse_orders_disengaging_and_movement_tests` |
//! | Cleric | `a_clerics_prayer_re_rolls_a_movement_test`, `a_clerics_prayer_re_rolls_a_hit_location_and_a_stun_roll` |
//! | Witch Hunter | `a_witch_hunter_modifies_a_precision_strike_and_a_spot_test`, `a_witch_hunter_takes_2_from_a_magic_test_not_cast_at_him` |

use gloam::core::{Ctx, Game, GameState, PlayerId, Point, Scope, Value};
use gloam::engine::RulesetGame;

mod scenario;
use scenario::give;
use scenario::umbra::{id, owner, run, set, set_seat, step_of};
use scenario::{
    Scenario, choose, damage, frame, has_said, offered, party_duel, pending, piece, player_counter,
    said, stand, tokens,
};
use scenario::{asked, at, face_as_it_stands, send_point, teach};

const CM: i64 = 100;

/// Test parties of Mortenian Humans (all 7s, 7 W; no race ability of theirs acts here, and
/// orders to them are not re-rolled as to Borians, L920) and a City Goblin: legal under the building rules but for their points. Professions a scenario
/// needs are taught (`teach`).
const PARTIES: &str = r#"
party "Test Wardens" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 5000
    source = "ours"
    hero "Captain" { race = "Humans" subrace = "Mortenians" profession = "Soldier" leader = true equipment = ["Sword, short sword"] }
    hero "Walker" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Hunter" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Helper" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Sword, short sword"] }
    hero "Bowman" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Bow"] }
    hero "Rider" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
}

party "Test Raiders" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 5000
    source = "ours"
    hero "Raid Chief" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" leader = true equipment = ["Sword, short sword"] }
    hero "Brute" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Mailed" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Sword, short sword", "Chain shirt"] }
    hero "Caster" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Gob" { race = "Goblins" subrace = "City Goblins" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Lookout" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
}
"#;

fn duel() -> RulesetGame {
    party_duel(PARTIES, "Test Wardens", "Test Raiders")
}

fn counter(state: &GameState, kind: &str, name: &str) -> i64 {
    state.pieces[&piece(state, kind)]
        .counters
        .get(name)
        .copied()
        .unwrap_or(0)
}

/// Curses `kind`'s rolls of kind `roll` (as step `accursed_visions` does) by 2.
fn cursed(ctx: &mut Ctx<'_>, kind: &str, roll: i64) {
    give(ctx, kind, "cursed");
    set(ctx, kind, "cursed_roll", roll);
    set(ctx, kind, "curse_amount", 2);
}

const TORMENT: &str = "re-roll it with a Torment Dice";
const SWORD: &str = "Sword, short sword";

/// Walker's swimming test at the start of her turn (step `swim`, 003 L346-348), arranged
/// further by `arrange`.
fn swimming(dice: &[&str], arrange: impl Fn(&mut Ctx<'_>) + 'static) -> Game<Scenario> {
    run(&duel(), step_of("swim", "Walker"), dice, move |ctx| {
        stand(ctx, "Walker", 35 * CM, 35 * CM, (0, 1));
        arrange(ctx);
    })
}

// ------------------------------------------------------------------------------------
// Torment on the movement tests (003 L1601 with L316-350, L436-444)
// ------------------------------------------------------------------------------------

/// 003 L1601 ("re-roll any dice") with L346-348: a swimming test of 2 costs 1 W and the
/// hero cannot move; re-rolled with a Torment Dice, the 4 lets it swim. No Blessing Dice is
/// offered on it (L1554: only "during combat").
#[test]
fn a_torment_dice_re_rolls_a_swimming_test() {
    let mut tormented = swimming(&["2", "4"], |ctx| {
        set_seat(ctx, "Walker", "torment", 1);
        set_seat(ctx, "Walker", "blessing", 1);
    });
    assert_eq!(offered(&tormented), [TORMENT, "keep it"]);
    choose(&mut tormented, TORMENT);
    assert!(has_said(&tormented, "swims (4)"), "{:?}", said(&tormented));
    assert_eq!(damage(tormented.state(), "Walker"), 0);
    assert_eq!(player_counter(tormented.state(), PlayerId(0), "torment"), 0);
    let plain = swimming(&["2", "4"], |ctx| set_seat(ctx, "Walker", "blessing", 1));
    assert!(pending(&plain).is_none(), "{:?}", pending(&plain));
    assert!(has_said(&plain, "struggles in the water (2)"));
    assert_eq!(damage(plain.state(), "Walker"), 1);
}

/// 003 L1601 with L320 (a climber without firm footing falls on 3 or less) and L336 (a jump
/// down of more than 5 cm needs a 4). The Broken Stair (6 cm, loose stones): climbing it,
/// the 3 would fall, d6 W (the 4 loaded); re-rolled, the 4 holds on. Jumping down from it,
/// the 1 would cost a Wound and end the turn; re-rolled, the 4 lands safely.
#[test]
fn a_torment_dice_re_rolls_a_climbing_test_and_a_jump_down() {
    let rules = duel();
    let climb = |torment: i64| {
        run(
            &rules,
            step_of("climb", "Walker"),
            &["3", "4"],
            move |ctx| {
                stand(ctx, "Broken Stair", 35 * CM, 35 * CM, (0, 1));
                stand(ctx, "Walker", 35 * CM, 29 * CM - 175, (0, 1));
                set_seat(ctx, "Walker", "torment", torment);
            },
        )
    };
    let mut tormented = climb(1);
    choose(&mut tormented, TORMENT);
    assert!(
        has_said(&tormented, "holds on to the Broken Stair (4)"),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(damage(tormented.state(), "Walker"), 0);
    let plain = climb(0);
    assert!(has_said(
        &plain,
        "cannot stand firm on the Broken Stair (3) and falls 6 cm"
    ));
    assert_eq!(damage(plain.state(), "Walker"), 4);
    let jump = |torment: i64| {
        let mut game = run(&rules, step_of("move", "Walker"), &["1", "4"], move |ctx| {
            stand(ctx, "Broken Stair", 35 * CM, 35 * CM, (0, 1));
            stand(ctx, "Walker", 35 * CM, 35 * CM, (0, 1));
            set_seat(ctx, "Walker", "torment", torment);
        });
        assert!(send_point(&mut game, Point::new(0, -12 * CM)));
        face_as_it_stands(&mut game);
        game
    };
    let mut tormented = jump(1);
    choose(&mut tormented, TORMENT);
    face_as_it_stands(&mut tormented);
    assert!(
        has_said(&tormented, "jumps down 6 cm safely (4)"),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(damage(tormented.state(), "Walker"), 0);
    let plain = jump(0);
    assert!(has_said(&plain, "lands badly jumping down 6 cm (1)"));
    assert_eq!(damage(plain.state(), "Walker"), 1);
}

/// Walker disengages from Brute, bases touching (step `disengage`, 003 L436: 2d6 + Sp
/// against 2d6 + S, a tie fails), arranged further by `arrange`.
fn disengaging(dice: &[&str], arrange: impl Fn(&mut Ctx<'_>) + 'static) -> Game<Scenario> {
    run(&duel(), step_of("disengage", "Walker"), dice, move |ctx| {
        stand(ctx, "Walker", 35 * CM, 35 * CM, (0, 1));
        stand(ctx, "Brute", 35 * CM, 35 * CM + 250, (0, -1));
        arrange(ctx);
    })
}

/// 003 L1601 with L436: Walker's 1 and 1 + Sp 7 = 9 cannot beat Brute's 6 + 2 + S 7 = 15.
/// With a Torment Dice her first 1 is re-rolled (each die is offered as it is rolled,
/// ours): 2 + 1 + 7 = 10 against 1 + 1 + 7 = 9 for Brute, who rolls the next two dice.
#[test]
fn a_torment_dice_re_rolls_a_die_of_a_disengage_test() {
    let mut tormented = disengaging(&["1", "1", "2", "1", "1"], |ctx| {
        set_seat(ctx, "Walker", "torment", 1)
    });
    choose(&mut tormented, TORMENT);
    assert!(
        has_said(&tormented, "disengages (10 against 9)"),
        "{:?}",
        said(&tormented)
    );
    let plain = disengaging(&["1", "1", "6", "2"], |_| {});
    assert!(
        has_said(&plain, "fails to disengage (9 against 15)"),
        "{:?}",
        said(&plain)
    );
    assert_eq!(at(plain.state(), "Walker"), Point::new(35 * CM, 35 * CM));
}

// ------------------------------------------------------------------------------------
// Torment on the rarer rolls (003 L1601)
// ------------------------------------------------------------------------------------

/// 003 L1601 with L1179-1181 (Battle frenzy: a Berserker with 2 W lost and no Action Dice,
/// 3+ takes it back), L1586 (the Rage roll, 4+ a Rage Dice; ours: no party holds both
/// stocks, so a seat is given both) and L1330 (the Knight's blow: more than 1 damage to an
/// enemy holding an Action Dice, 2+ and it is lost). Each 1 or 2 fails; re-rolled, it holds.
#[test]
fn a_torment_dice_re_rolls_battle_frenzy_the_rage_roll_and_the_knights_blow() {
    let rules = duel();
    let frenzy = |torment: i64| {
        run(
            &rules,
            step_of("battle_frenzy", "Walker"),
            &["2", "5"],
            move |ctx| {
                teach(ctx, "Walker", "Berserker");
                // The first Cycle (once a Cycle, ours).
                ctx.set_counter(Scope::Game, "cycle", 1).expect("cycle");
                stand(ctx, "Walker", 35 * CM, 35 * CM, (0, 1));
                set(ctx, "Walker", "damage", 2);
                set_seat(ctx, "Walker", "torment", torment);
            },
        )
    };
    let mut tormented = frenzy(1);
    choose(&mut tormented, TORMENT);
    assert_eq!(tokens(tormented.state(), "Walker", "action_die"), 1);
    let plain = frenzy(0);
    assert!(has_said(&plain, "rolls 2 for his battle frenzy"));
    assert_eq!(tokens(plain.state(), "Walker", "action_die"), 0);
    let rage = |torment: i64| {
        run(&rules, step_of("rage", "Walker"), &["2", "5"], move |ctx| {
            stand(ctx, "Walker", 35 * CM, 35 * CM, (0, 1));
            set_seat(ctx, "Walker", "alignment", 4);
            set_seat(ctx, "Walker", "torment", torment);
        })
    };
    let mut tormented = rage(1);
    choose(&mut tormented, TORMENT);
    assert_eq!(player_counter(tormented.state(), PlayerId(0), "rage"), 1);
    let plain = rage(0);
    assert_eq!(player_counter(plain.state(), PlayerId(0), "rage"), 0);
    // The Knight's Normal Strike: 3 + WS 7 + the sword's 1 against 1 + 7: 3 damage; then
    // his d6 for Brute's Action Dice, 1, re-rolled 2.
    let blow = |torment: i64| {
        let mut game = run(
            &rules,
            |state| {
                frame(
                    "strike",
                    &[
                        ("player", Value::Player(owner(state, "Walker"))),
                        ("fighter", id(state, "Walker")),
                        ("target", id(state, "Brute")),
                        ("weapon", Value::Str(SWORD.into())),
                        (
                            "data",
                            Value::List(vec![Value::Str("body".into()), Value::Str(String::new())]),
                        ),
                    ],
                )
            },
            &["3", "1", "1", "2"],
            move |ctx| {
                teach(ctx, "Walker", "Knight of the Order");
                stand(ctx, "Walker", 35 * CM, 35 * CM, (0, 1));
                stand(ctx, "Brute", 35 * CM, 35 * CM + 250, (0, -1));
                give(ctx, "Brute", "action_die");
                set_seat(ctx, "Walker", "torment", torment);
            },
        );
        choose(&mut game, "normal");
        game
    };
    let mut tormented = blow(1);
    // The strike's own die is offered first (as before), kept; then the Knight's.
    choose(&mut tormented, "keep the roll");
    assert_eq!(
        offered(&tormented),
        ["keep the roll", "re-roll die 1 (1) with a Torment Dice"]
    );
    choose(&mut tormented, "re-roll die 1 (1) with a Torment Dice");
    assert!(
        has_said(&tormented, "loses its Action Dice to the Knight's blow"),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(tokens(tormented.state(), "Brute", "action_die"), 0);
    let plain = blow(0);
    assert_eq!(damage(plain.state(), "Brute"), 3, "{:?}", said(&plain));
    assert_eq!(tokens(plain.state(), "Brute", "action_die"), 1);
}

/// 003 L1601 with L1011-1017 (Vitality: a City Goblin at 0 W lives on with 1 W on a 6): a
/// race ability's own d6. Gob takes his 7 W; the 3 lets him fall, re-rolled the 6 saves him.
#[test]
fn a_torment_dice_re_rolls_a_city_goblins_vitality() {
    let rules = duel();
    let wounded = |torment: i64| {
        run(
            &rules,
            |state| {
                frame(
                    "wound",
                    &[
                        ("player", Value::Player(owner(state, "Walker"))),
                        ("target", id(state, "Gob")),
                        ("attacker", id(state, "Walker")),
                        ("count", Value::Int(20)),
                        ("data", Value::Str("combat".into())),
                    ],
                )
            },
            &["3", "6", "1", "1", "1"],
            move |ctx| {
                stand(ctx, "Walker", 35 * CM, 35 * CM, (0, 1));
                stand(ctx, "Gob", 35 * CM, 35 * CM + 250, (0, -1));
                set_seat(ctx, "Gob", "torment", torment);
            },
        )
    };
    let mut tormented = wounded(1);
    choose(&mut tormented, TORMENT);
    assert!(
        has_said(&tormented, "clings to life (6): 1 W left"),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(tokens(tormented.state(), "Gob", "death_counter"), 0);
    let plain = wounded(0);
    assert_eq!(
        tokens(plain.state(), "Gob", "death_counter"),
        1,
        "{:?}",
        said(&plain)
    );
}

/// 003 L1601: "Each model which does that loses one Wound and must roll a d6. On a 3+ that
/// hero ... provides one Torment Dice ... which can be spent at any point in the game".
/// Ours: the offering is made before the game, and a Torment Dice spent to win at best one
/// back gains nothing: the first offering's 3 brings a die, the second's 1 is not offered a
/// re-roll with it; the next hero is asked to offer instead.
#[test]
fn no_torment_dice_re_rolls_an_offering() {
    let rules = duel();
    let mut game = run(
        &rules,
        |state| {
            frame(
                "alignment_setup",
                &[("player", Value::Player(owner(state, "Captain")))],
            )
        },
        &["3", "1", "6"],
        |ctx| {
            for (n, hero) in ["Captain", "Walker", "Hunter", "Helper", "Bowman", "Rider"]
                .into_iter()
                .enumerate()
            {
                stand(ctx, hero, (10 + 5 * n as i64) * CM, 5 * CM, (0, 1));
            }
            set_seat(ctx, "Captain", "alignment", 5);
        },
    );
    let mut offerings = 0;
    while let Some(request) = pending(&game) {
        assert!(
            request.prompt.starts_with("Before the battle"),
            "{:?}",
            request.prompt
        );
        let first = offered(&game)[0].clone();
        if offerings < 2 {
            choose(&mut game, &first);
            offerings += 1;
        } else {
            choose(&mut game, "keep it");
        }
    }
    assert!(has_said(
        &game,
        "offers its soul (1 W) and brings a Torment Dice (3)"
    ));
    assert!(has_said(&game, "offers its soul (1 W) in vain (1)"));
    assert_eq!(player_counter(game.state(), PlayerId(0), "torment"), 1);
}

// ------------------------------------------------------------------------------------
// False Prophet, Accursed visions (003 L1206)
// ------------------------------------------------------------------------------------

/// 003 L1206: "-2 modifier to any roll or characteristic other than W chosen by the
/// controller of False Prophet". The curse is offered on the enemy's order tests,
/// disengage tests and movement tests (kinds 8 to 10, ours). Cursed on his order tests, the
/// Captain's 5 (4+ needed beyond 10 cm, L774) is a 3: Rider takes no Action Dice. Cursed on
/// her disengage tests, Walker's 6 + 2 + 7 = 15 is 13 against Brute's 13: she fails.
/// Cursed on her movement tests, her swimming test's 4 is a 2.
#[test]
fn a_false_prophet_may_curse_orders_disengaging_and_movement_tests() {
    let rules = duel();
    let mut visions = run(
        &rules,
        step_of("accursed_visions", "Raid Chief"),
        &["3"],
        |ctx| {
            teach(ctx, "Raid Chief", "False Prophet");
            stand(ctx, "Raid Chief", 35 * CM, 55 * CM, (0, -1));
            stand(ctx, "Walker", 35 * CM, 35 * CM, (0, 1));
        },
    );
    choose(&mut visions, "Walker");
    let kinds = offered(&visions);
    for kind in [
        "his order tests",
        "his disengage tests",
        "his movement tests",
    ] {
        assert!(kinds.contains(&kind.to_owned()), "{kinds:?}");
    }
    choose(&mut visions, "his movement tests");
    assert_eq!(counter(visions.state(), "Walker", "cursed_roll"), 10);
    let order = |curse: bool| {
        let mut game = run(&rules, step_of("order", "Captain"), &["5"], move |ctx| {
            stand(ctx, "Captain", 35 * CM, 10 * CM, (0, 1));
            stand(ctx, "Rider", 35 * CM + 1500, 10 * CM, (0, 1));
            if curse {
                cursed(ctx, "Captain", 8);
            }
        });
        choose(&mut game, "Rider");
        game
    };
    let cursed_order = order(true);
    assert_eq!(
        tokens(cursed_order.state(), "Rider", "action_die"),
        0,
        "{:?}",
        said(&cursed_order)
    );
    assert_eq!(tokens(order(false).state(), "Rider", "action_die"), 1);
    let cursed_disengage = disengaging(&["6", "2", "5", "1"], |ctx| cursed(ctx, "Walker", 9));
    assert!(
        has_said(&cursed_disengage, "fails to disengage (13 against 13)"),
        "{:?}",
        said(&cursed_disengage)
    );
    let free = disengaging(&["6", "2", "5", "1"], |_| {});
    assert!(
        has_said(&free, "disengages (15 against 13)"),
        "{:?}",
        said(&free)
    );
    let cursed_swim = swimming(&["4"], |ctx| cursed(ctx, "Walker", 10));
    assert!(has_said(&cursed_swim, "struggles in the water (2)"));
    assert_eq!(damage(cursed_swim.state(), "Walker"), 1);
    let free = swimming(&["4"], |_| {});
    assert!(has_said(&free, "swims (4)"));
    // A curse on another kind leaves the swimming test alone.
    let other = swimming(&["4"], |ctx| cursed(ctx, "Walker", 9));
    assert!(has_said(&other, "swims (4)"));
}

// ------------------------------------------------------------------------------------
// Cleric, Prayer (003 L1240)
// ------------------------------------------------------------------------------------

/// 003 L1240: "Target model ... may re-roll any one dice". Walker, prayed for (token
/// `blessed`), fails her swimming test on a 2 and re-rolls it, 3: she swims, and the
/// prayer is spent. Without it the 2 stands.
#[test]
fn a_clerics_prayer_re_rolls_a_movement_test() {
    let mut blessed = swimming(&["2", "3"], |ctx| give(ctx, "Walker", "blessed"));
    assert!(asked(
        &blessed,
        "The swimming test fails: use the prayer's re-roll?"
    ));
    choose(&mut blessed, "re-roll the swimming test");
    assert!(has_said(&blessed, "swims (3)"), "{:?}", said(&blessed));
    assert_eq!(tokens(blessed.state(), "Walker", "blessed"), 0);
    assert_eq!(damage(blessed.state(), "Walker"), 0);
    let plain = swimming(&["2", "3"], |_| {});
    assert!(has_said(&plain, "struggles in the water (2)"));
}

/// Bowman's shot at Mailed (a Chain shirt on the body) has hit; the wound roll 5 + 5 + BS 7
/// against 1 + 1 + T 7 wounds (step `shot_wound`, L520-536); the hit location is rolled
/// against armour (L552), a head hit without a helmet stuns on 5+ (L448).
fn shot_at_mailed(dice: &[&str], blessed: bool) -> Game<Scenario> {
    run(
        &duel(),
        |state| {
            frame(
                "shot_wound",
                &[
                    ("player", Value::Player(owner(state, "Bowman"))),
                    ("fighter", id(state, "Bowman")),
                    ("target", id(state, "Mailed")),
                    ("weapon", Value::Str("Bow".into())),
                    ("count", Value::Int(0)),
                    ("data", Value::Str("aimed".into())),
                ],
            )
        },
        dice,
        move |ctx| {
            stand(ctx, "Bowman", 35 * CM, 20 * CM, (0, 1));
            stand(ctx, "Mailed", 35 * CM, 40 * CM, (0, -1));
            if blessed {
                give(ctx, "Bowman", "blessed");
            }
        },
    )
}

/// 003 L1240 (ours: the shooter's hit location, whatever it shows, and his failed stun
/// roll). The location die 1 hits the legs; re-rolled, 5, the head, and the stun roll 5
/// stuns Mailed. Then a head hit's stun roll of 2 fails; re-rolled, 6 stuns.
#[test]
fn a_clerics_prayer_re_rolls_a_hit_location_and_a_stun_roll() {
    let mut location = shot_at_mailed(&["5", "5", "1", "1", "1", "5", "5"], true);
    assert_eq!(
        offered(&location),
        ["re-roll the hit location (legs)", "keep the result"]
    );
    choose(&mut location, "re-roll the hit location (legs)");
    assert!(
        has_said(
            &location,
            "re-rolls the hit location (the Cleric's prayer): head"
        ),
        "{:?}",
        said(&location)
    );
    assert_eq!(tokens(location.state(), "Mailed", "stunned"), 1);
    let plain = shot_at_mailed(&["5", "5", "1", "1", "1", "5", "5"], false);
    assert_eq!(
        tokens(plain.state(), "Mailed", "stunned"),
        0,
        "{:?}",
        said(&plain)
    );
    let mut stun = shot_at_mailed(&["5", "5", "1", "1", "5", "2", "6"], true);
    choose(&mut stun, "keep the result");
    assert!(asked(
        &stun,
        "The stun roll fails: use the prayer's re-roll?"
    ));
    choose(&mut stun, "re-roll the stun roll");
    assert_eq!(
        tokens(stun.state(), "Mailed", "stunned"),
        1,
        "{:?}",
        said(&stun)
    );
    let plain = shot_at_mailed(&["5", "5", "1", "1", "5", "2", "6"], false);
    assert_eq!(tokens(plain.state(), "Mailed", "stunned"), 0);
}

// ------------------------------------------------------------------------------------
// Witch Hunter, The Hunt (003 L1254)
// ------------------------------------------------------------------------------------

/// 003 L1254: "Once per turn, for each friendly Acolyte or Soldier within 20 cm, the Witch
/// Hunter may modify one dice roll by +2 or -2." Hunter (taught the profession) with Helper,
/// a Soldier, 10 cm away. His Precision Strike, 3 + 3 + Sp 7 against 4 + 3 + 7, fails by 1;
/// +2 and it hits for 2 (L418). Without Helper on the table it fails. His Spot test of 2
/// (4+, L364) against the hidden Brute: +2 finds him; alone he does not.
#[test]
fn a_witch_hunter_modifies_a_precision_strike_and_a_spot_test() {
    let rules = duel();
    let precision = |helper: bool| {
        let mut game = run(
            &rules,
            |state| {
                frame(
                    "strike",
                    &[
                        ("player", Value::Player(owner(state, "Hunter"))),
                        ("fighter", id(state, "Hunter")),
                        ("target", id(state, "Brute")),
                        ("weapon", Value::Str(SWORD.into())),
                        (
                            "data",
                            Value::List(vec![Value::Str("body".into()), Value::Str(String::new())]),
                        ),
                    ],
                )
            },
            &["3", "3", "4", "3"],
            move |ctx| {
                teach(ctx, "Hunter", "Witch Hunter");
                stand(ctx, "Hunter", 35 * CM, 35 * CM, (0, 1));
                stand(ctx, "Brute", 35 * CM, 35 * CM + 250, (0, -1));
                if helper {
                    stand(ctx, "Helper", 25 * CM, 35 * CM, (0, 1));
                }
            },
        );
        choose(&mut game, "precision");
        game
    };
    let mut helped = precision(true);
    assert_eq!(offered(&helped), ["+2 to my Precision Strike", "no"]);
    choose(&mut helped, "+2 to my Precision Strike");
    assert_eq!(damage(helped.state(), "Brute"), 2, "{:?}", said(&helped));
    let alone = precision(false);
    assert!(pending(&alone).is_none());
    assert_eq!(damage(alone.state(), "Brute"), 0, "{:?}", said(&alone));
    let spot = |helper: bool| {
        let mut game = run(&rules, step_of("spot", "Hunter"), &["2"], move |ctx| {
            teach(ctx, "Hunter", "Witch Hunter");
            stand(ctx, "Hunter", 35 * CM, 20 * CM, (0, 1));
            stand(ctx, "Brute", 35 * CM, 40 * CM, (0, -1));
            give(ctx, "Brute", "hidden");
            if helper {
                stand(ctx, "Helper", 25 * CM, 20 * CM, (0, 1));
            }
        });
        choose(&mut game, "Brute");
        game
    };
    let mut helped = spot(true);
    choose(&mut helped, "+2 to my Spot test");
    assert!(has_said(&helped, "spots Brute"), "{:?}", said(&helped));
    assert_eq!(tokens(helped.state(), "Brute", "hidden"), 0);
    let alone = spot(false);
    assert!(
        has_said(&alone, "fails to spot Brute"),
        "{:?}",
        said(&alone)
    );
}

/// 003 L1254 ("modify one dice roll"; ours: an enemy's Magic Test whatever its target,
/// -2 when it would pass). Caster, taught Daze (chance 3, L642), casts it at Walker; the
/// Witch Hunter is Hunter, 20 cm off, with Helper, a Soldier, near him: the 3 passes, -2
/// fails. Without Helper it passes.
#[test]
fn a_witch_hunter_takes_2_from_a_magic_test_not_cast_at_him() {
    let rules = duel();
    let daze = |helper: bool| {
        let mut game = run(&rules, step_of("cast", "Caster"), &["3"], move |ctx| {
            teach(ctx, "Caster", "Daze");
            teach(ctx, "Hunter", "Witch Hunter");
            stand(ctx, "Caster", 35 * CM, 60 * CM, (0, -1));
            stand(ctx, "Walker", 35 * CM, 40 * CM, (0, 1));
            stand(ctx, "Hunter", 55 * CM, 40 * CM, (0, 1));
            if helper {
                stand(ctx, "Helper", 55 * CM, 30 * CM, (0, 1));
            }
        });
        choose(&mut game, "Daze");
        choose(&mut game, "Walker");
        game
    };
    let mut hunted = daze(true);
    assert_eq!(offered(&hunted), ["-2 to the enemy's Magic Test", "no"]);
    choose(&mut hunted, "-2 to the enemy's Magic Test");
    assert_eq!(
        tokens(hunted.state(), "Walker", "dazed"),
        0,
        "{:?}",
        said(&hunted)
    );
    let alone = daze(false);
    assert_eq!(
        tokens(alone.state(), "Walker", "dazed"),
        1,
        "{:?}",
        said(&alone)
    );
}
