//! Umbra Turris's weapons' special rules (seed 003, L1665-1879; digest A20.1, A20.2, A10
//! "Weapon faults and extras"), played from the data: each scenario arranges heroes of the
//! test parties below on the table through the kernel's `Ctx`, gives a hero the weapon it
//! checks (a new card of the roster's), loads the dice with `fix_dice`, runs one step of the
//! flow (`strike`, `fight`, `shoot`, `shot_wound`) and answers its requests. Each test cites
//! the seed lines it checks and compares the weapon with one without the rule, on the same
//! dice.
//!
//! | Rule | Test |
//! |---|---|
//! | Re-roll of a Normal Strike: Bastard sword, Longsword (L1695, L1697, L1753) | `a_bastard_sword_or_longsword_re_rolls_a_failed_normal_strike` |
//! | Re-roll of a Power Strike: Flail, Asmund's Hammer (L1709, L1737, L1753) | `a_flail_or_asmunds_hammer_re_rolls_a_failed_power_strike` |
//! | Mace's re-roll of the stun roll (L1677) | `a_mace_re_rolls_a_failed_stun_roll` |
//! | Asmund's Hammer stuns on any location, helmet or not (L1739) | `asmunds_hammer_stuns_on_any_location_through_a_helmet` |
//! | +1 S on a double: Great Axe, Axe of Grom; the Axeman's +3 (L1701, L1733, L1404) | `a_great_axe_adds_1_s_on_a_double_and_3_for_an_axeman` |
//! | Ussarous: Perfect Strike with two dice (L1743) | `the_ussarous_rolls_two_dice_for_a_perfect_strike_and_keeps_the_better` |
//! | Ussarous: Backstab on 4+ from every side (L1743, L1081) | `the_ussarous_backstabs_on_4_from_the_front_and_the_side` |
//! | Knife: no Perfect Strike (L1715) | `a_knife_makes_no_perfect_strike` |
//! | Sword Master with any sword (L1280) | `a_sword_master_uses_the_other_swords_modifiers_and_re_roll` |
//! | Explosion (L1865) | `an_explosion_deals_the_damage_to_every_model_within_8_cm_of_the_target` |
//! | Faulty with Explosion (L1863) | `a_faulty_bomb_explodes_around_its_thrower` |
//! | Ricochet (L1873) | `a_ricochet_hits_the_models_on_the_line_10_cm_behind_the_target` |
//! | Small cannon's BS re-roll (L1821) | `a_small_cannon_re_rolls_a_failed_wound_roll` |
//! | Repeating crossbow (L1783) | `a_repeating_crossbow_re_rolls_a_first_1_or_2_to_hit` |
//! | Incendiary (L1879) | `incendiary_ammunition_burns_on_a_6_and_5` |
//! | A shield against a shot; the Musket ignores it (L1909, L1803) | `a_shield_stops_a_shot_on_its_save_but_not_a_musket_ball` |
//! | Asari Tiheri: +2 to Knockdown (L1731, L1069) | `the_asari_tiheri_adds_2_to_the_knockdown_test` |
//! | King of Thieves' sling: movement = Sp (L1855) | `the_king_of_thieves_sling_lets_its_shooter_move_sp` |
//! | Bomb: no aiming (L1841) | `a_bomb_cannot_aim` |
//! | A thrown item that is not a Thrown weapon is lost (L540, L1861) | `a_thrown_sword_is_lost_hit_or_miss_a_throwing_knife_is_not`, `any_hero_with_a_weapon_may_throw_it` |

use gloam::core::{Ctx, Game, GameState, PlayerId, Value, ZoneId};
use gloam::engine::RulesetGame;
use std::cell::OnceCell;

mod scenario;
use scenario::teach;
use scenario::{
    Scenario, frame, give, has_said, pending, piece, piece_counter as counter, said, tokens,
};
use scenario::{carried, choose, offered};
use scenario::{party_duel, stand};

/// Test parties, legal under the building rules (`gloam check`): Borian Humans (ld, ws, s,
/// sp, bs, t 7, W 7: no race ability of theirs acts here) and a Vorak. Each scenario gives
/// the weapon it checks to a hero.
const PARTIES: &str = r#"
party "Test Armoury" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 5000
    source = "ours"
    hero "Arm Chief" { race = "Humans" subrace = "Borians" profession = "Scoundrel" leader = true equipment = ["Sword, short sword"] }
    hero "Arm Blade" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Arm Master" { race = "Humans" subrace = "Borians" profession = "Sword Master" equipment = ["Sword, short sword"] }
    hero "Arm Axeman" { race = "Humans" subrace = "Borians" profession = "Axeman" equipment = ["Great Axe"] }
    hero "Arm Vorak" { race = "Vorak" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Arm Shot" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Bow"] }
}

party "Test Targets" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = good
    points = 5000
    source = "ours"
    hero "Tgt Chief" { race = "Humans" subrace = "Borians" profession = "Scoundrel" leader = true equipment = ["Sword, short sword"] }
    hero "Tgt 1" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Tgt 2" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Tgt 3" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Tgt 4" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Tgt 5" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Tgt Tigerian" { race = "Tigerians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
}
"#;

thread_local! {
    static RULES: OnceCell<RulesetGame> = const { OnceCell::new() };
}

/// The shipped data plus the test parties, the Armoury (seat 0) against the Targets; loaded
/// once a test (each runs on a thread of its own).
fn rules() -> RulesetGame {
    RULES.with(|rules| {
        rules
            .get_or_init(|| party_duel(PARTIES, "Test Armoury", "Test Targets"))
            .clone()
    })
}

fn id(state: &GameState, kind: &str) -> Value {
    Value::Piece(piece(state, kind))
}

fn owner(state: &GameState, kind: &str) -> PlayerId {
    state.pieces[&piece(state, kind)].owner
}

fn stat(state: &GameState, kind: &str, name: &str) -> i64 {
    state
        .characteristic(piece(state, kind), name)
        .unwrap_or_else(|| panic!("{kind} has no {name}"))
}

/// A game of the test rules arranged by `arrange`, the d6 loaded with `dice`, starting with
/// the frame of `step` for `fighter` with `more` variables.
fn run(
    step: &str,
    fighter: &str,
    more: Vec<(&'static str, Value)>,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let mut vars = vec![
        ("player", Value::Player(owner(state, fighter))),
        ("fighter", id(state, fighter)),
    ];
    vars.extend(more);
    scenario::umbra::loaded(&rules, vec![frame(step, &vars)], dice, arrange)
}

/// The piece `kind` of a fresh game of the test rules.
fn who(kind: &str) -> Value {
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    id(start.state(), kind)
}

/// `attacker` (given `weapon` unless it carries it) strikes `defender` at `location` with a
/// strike of `kind` (the blow got through: step `strike`), in base contact, the d6 loaded with
/// `dice`, after `arrange`.
fn strike(
    attacker: &'static str,
    defender: &'static str,
    weapon: &'static str,
    location: &str,
    kind: &str,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let data = Value::List(vec![
        Value::Str(location.into()),
        Value::Str(String::new()),
        Value::Str(kind.into()),
    ]);
    let more = vec![
        ("target", who(defender)),
        ("weapon", Value::Str(weapon.into())),
        ("data", data),
    ];
    run("strike", attacker, more, dice, move |ctx| {
        stand(ctx, attacker, 3500, 3000, (0, 1));
        stand(ctx, defender, 3500, 3250, (0, -1));
        if !carried(ctx.state(), attacker).contains(&weapon.to_owned()) {
            teach(ctx, attacker, weapon);
        }
        arrange(ctx);
    })
}

/// Answers a shot's questions: the target `target` when asked whom, no aiming, and the first
/// choice of anything else.
fn answer_shot(game: &mut Game<Scenario>, target: &str) {
    while pending(game).is_some() {
        let choices = offered(game);
        let pick = if choices.contains(&target.to_owned()) {
            target.to_owned()
        } else if choices.contains(&"no aiming".to_owned()) {
            "no aiming".to_owned()
        } else {
            choices[0].clone()
        };
        choose(game, &pick);
    }
}

/// `shooter` at (3500, 2000) facing north shoots (`data`: `throw` for an item thrown) with
/// `weapon` (given it) at `target` at (3500, 3500): 12.5 cm between the bases, Difficulty 2+,
/// +1 BS and +1 damage under 20 cm (L511); the d6 loaded with `dice`, after `arrange`.
fn shoot(
    shooter: &'static str,
    target: &'static str,
    weapon: &'static str,
    data: &str,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let more = if data.is_empty() {
        vec![]
    } else {
        vec![("data", Value::Str(data.into()))]
    };
    let mut game = run("shoot", shooter, more, dice, move |ctx| {
        stand(ctx, shooter, 3500, 2000, (0, 1));
        stand(ctx, target, 3500, 3500, (0, -1));
        if !carried(ctx.state(), shooter).contains(&weapon.to_owned()) {
            teach(ctx, shooter, weapon);
        }
        arrange(ctx);
    });
    answer_shot(&mut game, target);
    game
}

/// The wound roll of a shot of `weapon` (given it) by Arm Blade that hit `target` (step
/// `shot_wound`, no aiming, `count` 0), the d6 loaded with `dice`, after `arrange`.
fn wound_roll(
    target: &'static str,
    weapon: &'static str,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let more = vec![
        ("target", who(target)),
        ("weapon", Value::Str(weapon.into())),
        ("count", Value::Int(0)),
        ("data", Value::Str("aimed".into())),
    ];
    let mut game = run("shot_wound", "Arm Blade", more, dice, move |ctx| {
        stand(ctx, "Arm Blade", 3500, 2000, (0, 1));
        stand(ctx, target, 3500, 4000, (0, -1));
        teach(ctx, "Arm Blade", weapon);
        arrange(ctx);
    });
    answer_shot(&mut game, target);
    game
}

const SWORD: &str = "Sword, short sword";

// ------------------------------------------------------------------------------------
// Close combat (digest A20.1)
// ------------------------------------------------------------------------------------

#[test]
fn a_bastard_sword_or_longsword_re_rolls_a_failed_normal_strike() {
    // 003 L1695, L1697: "Normal Strike (re-roll)"; L1753: the re-roll is of all the dice of
    // the attack (ours: the attacker's, when the strike fails; the defender's die stands).
    // Bastard sword (Normal +0): 1 + WS 7 = 8 against 3 + 7 = 10 fails; the die again, 5:
    // 12 against 10, 2 damage.
    let bastard = strike(
        "Arm Blade",
        "Tgt 1",
        "Bastard sword",
        "body",
        "normal",
        &["1", "3", "5"],
        |_| {},
    );
    assert!(
        has_said(&bastard, "re-rolls the strike's die (Bastard sword)"),
        "{:?}",
        said(&bastard)
    );
    assert_eq!(counter(bastard.state(), "Tgt 1", "damage"), 2);
    // Longsword (Normal -1, re-roll): 11 against 10, 1 damage.
    let long = strike(
        "Arm Blade",
        "Tgt 1",
        "Longsword",
        "body",
        "normal",
        &["1", "3", "5"],
        |_| {},
    );
    assert_eq!(
        counter(long.state(), "Tgt 1", "damage"),
        1,
        "{:?}",
        said(&long)
    );
    // The Sword (+1, no re-roll): 9 against 10 fails and stays failed.
    let sword = strike(
        "Arm Blade",
        "Tgt 1",
        SWORD,
        "body",
        "normal",
        &["1", "3", "5"],
        |_| {},
    );
    assert!(!has_said(&sword, "re-rolls"));
    assert_eq!(counter(sword.state(), "Tgt 1", "damage"), 0);
    // A strike that wounds is not re-rolled.
    let won = strike(
        "Arm Blade",
        "Tgt 1",
        "Bastard sword",
        "body",
        "normal",
        &["5", "3", "1"],
        |_| {},
    );
    assert!(!has_said(&won, "re-rolls"));
    assert_eq!(counter(won.state(), "Tgt 1", "damage"), 2);
}

#[test]
fn a_flail_or_asmunds_hammer_re_rolls_a_failed_power_strike() {
    // 003 L1709: Flail "Power Strike (re-roll)"; L1737: Asmund's Hammer "+2 Power Strike
    // (re-roll)"; L1753. Flail: 1 + 2 + S 7 = 10 against 3 + 3 + T 7 = 13 fails; again 5 + 6:
    // 18, 5 damage.
    let flail = strike(
        "Arm Blade",
        "Tgt 1",
        "Flail",
        "body",
        "power",
        &["1", "2", "3", "3", "5", "6"],
        |_| {},
    );
    assert!(
        has_said(&flail, "re-rolls the strike's dice (Flail)"),
        "{:?}",
        said(&flail)
    );
    assert_eq!(counter(flail.state(), "Tgt 1", "damage"), 5);
    // Asmund's Hammer: 12 against 13 fails; again, 20: 7 damage (the 7 W of a Borian), and
    // its stun on any location (the last die, 1: not stunned).
    let hammer = strike(
        "Arm Blade",
        "Tgt 1",
        "Asmund's Hammer",
        "body",
        "power",
        &["1", "2", "3", "3", "5", "6", "1"],
        |_| {},
    );
    assert!(
        has_said(&hammer, "re-rolls the strike's dice (Asmund's Hammer)"),
        "{:?}",
        said(&hammer)
    );
    assert_eq!(counter(hammer.state(), "Tgt 1", "damage"), 7);
    // The Axe (+1 Power, no re-roll): 11 against 13, no damage.
    let axe = strike(
        "Arm Blade",
        "Tgt 1",
        "Axe, Scimitar",
        "body",
        "power",
        &["1", "2", "3", "3", "5", "6"],
        |_| {},
    );
    assert!(!has_said(&axe, "re-rolls"));
    assert_eq!(counter(axe.state(), "Tgt 1", "damage"), 0);
    // The Flail's re-roll is of Power Strikes only: a Normal Strike that fails stays failed.
    let normal = strike(
        "Arm Blade",
        "Tgt 1",
        "Flail",
        "body",
        "normal",
        &["1", "5", "6"],
        |_| {},
    );
    assert!(!has_said(&normal, "re-rolls"));
    assert_eq!(counter(normal.state(), "Tgt 1", "damage"), 0);
}

#[test]
fn a_mace_re_rolls_a_failed_stun_roll() {
    // 003 L1677: Mace, Club "(Stun re-roll)"; a head hit stuns on 5+ (L450). 5 + WS 7 against
    // 1 + 7: 4 damage at the head; the stun roll 4 fails, again 5: stunned.
    let mace = strike(
        "Arm Blade",
        "Tgt 1",
        "Mace, Club",
        "head",
        "normal",
        &["5", "1", "4", "5"],
        |ctx| {
            give(ctx, "Tgt 1", "action_die");
        },
    );
    assert!(
        has_said(&mace, "re-rolls the stun roll (Mace, Club)"),
        "{:?}",
        said(&mace)
    );
    assert_eq!(tokens(mace.state(), "Tgt 1", "stunned"), 1);
    assert_eq!(tokens(mace.state(), "Tgt 1", "action_die"), 0);
    // The Sword on the same dice: the 4 stands, no stun.
    let sword = strike(
        "Arm Blade",
        "Tgt 1",
        SWORD,
        "head",
        "normal",
        &["5", "1", "4", "5"],
        |ctx| {
            give(ctx, "Tgt 1", "action_die");
        },
    );
    assert_eq!(tokens(sword.state(), "Tgt 1", "stunned"), 0);
    assert_eq!(tokens(sword.state(), "Tgt 1", "action_die"), 1);
}

#[test]
fn asmunds_hammer_stuns_on_any_location_through_a_helmet() {
    // 003 L1739: Asmund's Hammer "(Stun on every location)", which a helmet does not stop
    // (L1875, against L1899). Body hit: 3 + 4 + S 7 + 2 = 16 against 1 + 2 + 7 = 10; the stun
    // roll 5: stunned, although a helmet is worn.
    let helmet = |ctx: &mut Ctx<'_>| {
        teach(ctx, "Tgt 1", "Light helmet");
        give(ctx, "Tgt 1", "action_die");
    };
    let hammer = strike(
        "Arm Blade",
        "Tgt 1",
        "Asmund's Hammer",
        "body",
        "power",
        &["3", "4", "1", "2", "5"],
        helmet,
    );
    assert_eq!(
        tokens(hammer.state(), "Tgt 1", "stunned"),
        1,
        "{:?}",
        said(&hammer)
    );
    assert_eq!(counter(hammer.state(), "Tgt 1", "damage"), 6);
    // The Great Hammer (+2 Power, no such rule): the body is no place for a stun roll.
    let great = strike(
        "Arm Blade",
        "Tgt 1",
        "Great Hammer, Battle Staff",
        "body",
        "power",
        &["3", "4", "1", "2", "5"],
        helmet,
    );
    assert_eq!(tokens(great.state(), "Tgt 1", "stunned"), 0);
    assert_eq!(counter(great.state(), "Tgt 1", "damage"), 6);
}

#[test]
fn a_great_axe_adds_1_s_on_a_double_and_3_for_an_axeman() {
    // 003 L1701: Great Axe "+2 Power Strike ... (+1 to S if double)"; L1404: a Great Axe
    // grants the Axeman +3 instead of +1 on doubles. 3 + 3 + S 7 + 2 + 1 = 16 against
    // 4 + 4 + T 7 = 15: 1 damage.
    let dice = ["3", "3", "4", "4"];
    let axe = strike(
        "Arm Blade",
        "Tgt 1",
        "Great Axe",
        "body",
        "power",
        &dice,
        |_| {},
    );
    assert!(
        has_said(&axe, "rolls a double: +1 S (Great Axe)"),
        "{:?}",
        said(&axe)
    );
    assert_eq!(counter(axe.state(), "Tgt 1", "damage"), 1);
    // The Great Hammer (+2 Power, no such rule): 15 against 15, a tie fails.
    let hammer = strike(
        "Arm Blade",
        "Tgt 1",
        "Great Hammer, Battle Staff",
        "body",
        "power",
        &dice,
        |_| {},
    );
    assert_eq!(counter(hammer.state(), "Tgt 1", "damage"), 0);
    // The Axeman's Great Axe: +3, 18 against 15.
    let axeman = strike(
        "Arm Axeman",
        "Tgt 1",
        "Great Axe",
        "body",
        "power",
        &dice,
        |_| {},
    );
    assert!(
        has_said(&axeman, "rolls a double: +3 S (Great Axe)"),
        "{:?}",
        said(&axeman)
    );
    let s = stat(axeman.state(), "Arm Axeman", "s");
    assert_eq!(
        counter(axeman.state(), "Tgt 1", "damage"),
        6 + s + 2 + 3 - 15
    );
    // The Axe of Grom (L1733) has the rule too; no double, no bonus.
    let grom = strike(
        "Arm Blade",
        "Tgt 1",
        "Axe of Grom",
        "body",
        "power",
        &dice,
        |_| {},
    );
    assert!(has_said(&grom, "rolls a double: +1 S (Axe of Grom)"));
    let plain = strike(
        "Arm Blade",
        "Tgt 1",
        "Great Axe",
        "body",
        "power",
        &["3", "4", "4", "4"],
        |_| {},
    );
    assert!(!has_said(&plain, "rolls a double"));
}

#[test]
fn the_ussarous_rolls_two_dice_for_a_perfect_strike_and_keeps_the_better() {
    // 003 L1743: "Perfect Strike made with two d6 and the player may choose better result";
    // a natural 6 makes a Perfect Strike (L406). The Ussarous (+2 Normal): 6, then 2 and 5,
    // the 5 kept; the defender 1 + WS 7.
    let ussarous = strike(
        "Arm Vorak",
        "Tgt 1",
        "Ussarous",
        "body",
        "normal",
        &["6", "2", "5", "1"],
        |_| {},
    );
    assert!(
        has_said(&ussarous, "keeps the better"),
        "{:?}",
        said(&ussarous)
    );
    let ws = stat(ussarous.state(), "Arm Vorak", "ws");
    assert_eq!(
        counter(ussarous.state(), "Tgt 1", "damage").min(7),
        (6 + 5 + ws + 2 - 8).min(7)
    );
    assert!(has_said(
        &ussarous,
        &format!("normal strike: {} against 8", 6 + 5 + ws + 2)
    ));
    // The Sword (+1): one die for the Perfect Strike, the 2; the 5 is the defender's.
    let sword = strike(
        "Arm Vorak",
        "Tgt 1",
        SWORD,
        "body",
        "normal",
        &["6", "2", "5", "1"],
        |_| {},
    );
    assert!(!has_said(&sword, "keeps the better"));
    assert!(
        has_said(
            &sword,
            &format!("normal strike: {} against 12", 6 + 2 + ws + 1)
        ),
        "{:?}",
        said(&sword)
    );
}

/// Whether the fight waits on the secret guess (both players asked) rather than the
/// attacker's open choice.
fn parried(game: &Game<Scenario>) -> bool {
    game.pending().len() == 2
}

/// Arm Vorak (given the Ussarous when `ussarous`) charges Tgt 1, who faces `facing`, the d6
/// loaded with `dice`.
fn vorak_charges(ussarous: bool, facing: (i64, i64), dice: &[&str]) -> Game<Scenario> {
    let more = vec![
        ("target", who("Tgt 1")),
        ("data", Value::Str("charge".into())),
    ];
    run("fight", "Arm Vorak", more, dice, move |ctx| {
        stand(ctx, "Arm Vorak", 3500, 3000, (0, 1));
        stand(ctx, "Tgt 1", 3500, 3250, facing);
        if ussarous {
            teach(ctx, "Arm Vorak", "Ussarous");
        }
    })
}

#[test]
fn the_ussarous_backstabs_on_4_from_the_front_and_the_side() {
    // 003 L1743: with the Ussarous "Backstab works on 4+ from every side"; the Vorak's own
    // Backstab on a charge is 6+ from the front, 5+ from the side (L1081).
    let south = (0, -1);
    assert!(!parried(&vorak_charges(true, south, &["4"])));
    assert!(parried(&vorak_charges(true, south, &["3"])));
    assert!(parried(&vorak_charges(false, south, &["4"])));
    let side = (1, 0);
    assert!(!parried(&vorak_charges(true, side, &["4"])));
    assert!(parried(&vorak_charges(false, side, &["4"])));
}

#[test]
fn a_knife_makes_no_perfect_strike() {
    // 003 L1715: the Knife "cannot deal Critical Strike or Perfect Strike". A natural 6:
    // 6 + WS 7 = 13 against 1 + 7, 5 damage; the Dagger's 6 adds a d6 (the 1): 6 damage.
    let knife = strike(
        "Arm Blade",
        "Tgt 1",
        "Knife",
        "body",
        "normal",
        &["6", "1", "1"],
        |_| {},
    );
    assert!(!has_said(&knife, "Perfect Strike"), "{:?}", said(&knife));
    assert_eq!(counter(knife.state(), "Tgt 1", "damage"), 5);
    let dagger = strike(
        "Arm Blade",
        "Tgt 1",
        "Dagger, Hunting knife",
        "body",
        "normal",
        &["6", "1", "1"],
        |_| {},
    );
    assert!(has_said(&dagger, "makes a Perfect Strike"));
    assert_eq!(counter(dagger.state(), "Tgt 1", "damage"), 6);
}

#[test]
fn a_sword_master_uses_the_other_swords_modifiers_and_re_roll() {
    // 003 L1280: a Sword Master with any sword may use the rules and modifiers of the other
    // swords (ours: the best modifier of the Sword, Bastard sword and Longsword for the
    // strike, L1665, L1695, L1697, and the Normal Strike's re-roll). With his Sword, a Power
    // Strike at the Longsword's +2: 2 + 3 + S + 2 against 3 + 3 + T 7.
    let master = strike(
        "Arm Master",
        "Tgt 1",
        SWORD,
        "body",
        "power",
        &["2", "3", "3", "3"],
        |_| {},
    );
    assert!(
        has_said(&master, "uses another sword's modifier: 2 (Sword Master)"),
        "{:?}",
        said(&master)
    );
    let s = stat(master.state(), "Arm Master", "s");
    assert!(has_said(
        &master,
        &format!("power strike: {} against 13", 5 + s + 2)
    ));
    // A Scoundrel's Sword has no Power modifier.
    let blade = strike(
        "Arm Blade",
        "Tgt 1",
        SWORD,
        "body",
        "power",
        &["2", "3", "3", "3"],
        |_| {},
    );
    assert!(
        has_said(&blade, "power strike: 12 against 13"),
        "{:?}",
        said(&blade)
    );
    // A failed Normal Strike re-rolled as with a Bastard sword: 1 + WS + 1 against 6 + 7
    // fails; the die again, 5 (a Perfect Strike on 4+ for him, L1282: the 6).
    let again = strike(
        "Arm Master",
        "Tgt 1",
        SWORD,
        "body",
        "normal",
        &["1", "6", "5", "6"],
        |_| {},
    );
    assert!(
        has_said(&again, "re-rolls the strike's die (Sword, short sword)"),
        "{:?}",
        said(&again)
    );
    let ws = stat(again.state(), "Arm Master", "ws");
    assert!(has_said(
        &again,
        &format!("normal strike: {} against 13", 5 + 6 + ws + 1)
    ));
    let plain = strike(
        "Arm Blade",
        "Tgt 1",
        SWORD,
        "body",
        "normal",
        &["1", "6", "5", "6"],
        |_| {},
    );
    assert!(!has_said(&plain, "re-rolls"));
    assert_eq!(counter(plain.state(), "Tgt 1", "damage"), 0);
}

// ------------------------------------------------------------------------------------
// Shooting and throwing (digest A20.2, A10)
// ------------------------------------------------------------------------------------

#[test]
fn an_explosion_deals_the_damage_to_every_model_within_8_cm_of_the_target() {
    // 003 L1865: the damage dealt to the model hit is dealt to all heroes within the radius,
    // measured from its base edge; the Blunderbuss's is 8 cm (L1811). Hit on 4; BS=7 (L1871)
    // 6 + 5 + 7 + 1 (under 20 cm) - 1 (no Action Dice) against 1 + 1 + T 7: Damage 1 + 1,
    // at most 2 (L1811); the Stun roll (L1875) 1. Tgt 2 stands 5 cm from the target's base,
    // a friend of the shooter 5 cm from it on the other side; Tgt 3, 10 cm away.
    let dice = ["4", "6", "5", "1", "1", "1"];
    let near = |ctx: &mut Ctx<'_>| {
        stand(ctx, "Tgt 2", 4250, 3500, (0, -1));
        stand(ctx, "Arm Chief", 2750, 3500, (0, 1));
        stand(ctx, "Tgt 3", 3500, 4750, (0, -1));
    };
    let boom = shoot("Arm Blade", "Tgt 1", "Blunderbuss", "", &dice, near);
    let state = boom.state();
    assert_eq!(counter(state, "Tgt 1", "damage"), 2, "{:?}", said(&boom));
    assert_eq!(counter(state, "Tgt 2", "damage"), 2);
    assert_eq!(counter(state, "Arm Chief", "damage"), 2);
    assert_eq!(counter(state, "Tgt 3", "damage"), 0);
    assert!(has_said(&boom, "is caught in the explosion"));
    // A Pistol (max damage 2, no explosion) on the same dice: only the target.
    let pistol = shoot("Arm Blade", "Tgt 1", "Pistol", "", &dice, near);
    assert_eq!(
        counter(pistol.state(), "Tgt 1", "damage"),
        2,
        "{:?}",
        said(&pistol)
    );
    assert_eq!(counter(pistol.state(), "Tgt 2", "damage"), 0);
    assert_eq!(counter(pistol.state(), "Arm Chief", "damage"), 0);
}

#[test]
fn a_faulty_bomb_explodes_around_its_thrower() {
    // 003 L1863: Faulty, a natural 1 to hit misses and on a d6 4+ the user loses the weapon's
    // Damage; "If the weapon has Explosion, it applies as well" (the Bomb's 8 cm, L1841).
    // Arm Chief stands 3 cm from the thrower, Arm Shot 15 cm.
    let dice = ["1", "4"];
    let near = |ctx: &mut Ctx<'_>| {
        stand(ctx, "Arm Chief", 3050, 2000, (0, 1));
        stand(ctx, "Arm Shot", 2000, 2000, (0, 1));
    };
    let bomb = shoot("Arm Blade", "Tgt 1", "Bomb", "", &dice, near);
    let state = bomb.state();
    assert!(
        has_said(&bomb, "is hurt by the faulty weapon"),
        "{:?}",
        said(&bomb)
    );
    assert_eq!(counter(state, "Arm Blade", "damage"), 1);
    assert_eq!(counter(state, "Arm Chief", "damage"), 1);
    assert_eq!(counter(state, "Arm Shot", "damage"), 0);
    assert_eq!(counter(state, "Tgt 1", "damage"), 0);
    // The Arquebus is Faulty without Explosion (L1805): only its user loses its Damage 2.
    let gun = shoot("Arm Blade", "Tgt 1", "Arquebus, Big Gun", "", &dice, near);
    assert_eq!(
        counter(gun.state(), "Arm Blade", "damage"),
        2,
        "{:?}",
        said(&gun)
    );
    assert_eq!(counter(gun.state(), "Arm Chief", "damage"), 0);
}

#[test]
fn a_ricochet_hits_the_models_on_the_line_10_cm_behind_the_target() {
    // 003 L1873: the line from the gun's centre through the target's, up to 10 cm behind it;
    // each model on it is hit (ours: the line, digest D1.24; each hit rolls to wound). Tgt 2
    // stands 4.5 cm behind the target on the line, Tgt 3 beside the line, Tgt 4 14.5 cm
    // behind. Hit on 4; each wound roll 6 + 6 + BS 7 against 1 + 1 + T 7: Damage 1 + 1.
    let dice = ["4", "6", "6", "1", "1", "6", "6", "1", "1"];
    let lined = |ctx: &mut Ctx<'_>| {
        stand(ctx, "Tgt 2", 3500, 4200, (0, -1));
        stand(ctx, "Tgt 3", 4500, 4200, (0, -1));
        stand(ctx, "Tgt 4", 3500, 5200, (0, -1));
    };
    let cannon = shoot("Arm Blade", "Tgt 1", "Small cannon", "", &dice, lined);
    let state = cannon.state();
    assert!(
        has_said(&cannon, "is hit by the ricochet"),
        "{:?}",
        said(&cannon)
    );
    assert_eq!(counter(state, "Tgt 1", "damage"), 2);
    assert_eq!(counter(state, "Tgt 2", "damage"), 2);
    assert_eq!(counter(state, "Tgt 3", "damage"), 0);
    assert_eq!(counter(state, "Tgt 4", "damage"), 0);
    // A Bow on the same dice: only the target.
    let bow = shoot("Arm Blade", "Tgt 1", "Bow", "", &dice, lined);
    assert_eq!(
        counter(bow.state(), "Tgt 1", "damage"),
        2,
        "{:?}",
        said(&bow)
    );
    assert_eq!(counter(bow.state(), "Tgt 2", "damage"), 0);
}

#[test]
fn a_small_cannon_re_rolls_a_failed_wound_roll() {
    // 003 L1821: the Small cannon's "(BS re-roll)" (ours: a failed wound roll's two dice
    // rolled again, once). 1 + 1 + BS 7 - 1 (no Action Dice) = 8 against 3 + 3 + T 7 fails;
    // again 6 + 6: 18, Damage 1 (armour does not work).
    let dice = ["1", "1", "3", "3", "6", "6"];
    let cannon = wound_roll("Tgt 1", "Small cannon", &dice, |_| {});
    assert!(
        has_said(&cannon, "re-rolls the wound roll (Small cannon)"),
        "{:?}",
        said(&cannon)
    );
    assert_eq!(counter(cannon.state(), "Tgt 1", "damage"), 1);
    let pistol = wound_roll("Tgt 1", "Pistol", &dice, |_| {});
    assert!(!has_said(&pistol, "re-rolls"));
    assert_eq!(counter(pistol.state(), "Tgt 1", "damage"), 0);
}

#[test]
fn a_repeating_crossbow_re_rolls_a_first_1_or_2_to_hit() {
    // 003 L1783: "first result of 1 or 2 on Hitting can be re-rolled" (ours: once a shot,
    // when it misses). A 1, again 4: the bolt hits (2+ under 30 cm) and wounds 6 + 6 + 7
    // against 1 + 1 + 7: Damage 1 + 1.
    let dice = ["1", "4", "6", "6", "1", "1"];
    let repeating = shoot(
        "Arm Blade",
        "Tgt 1",
        "Repeating crossbow",
        "",
        &dice,
        |_| {},
    );
    assert!(
        has_said(&repeating, "re-rolls the hit roll's 1 (Repeating crossbow)"),
        "{:?}",
        said(&repeating)
    );
    assert_eq!(counter(repeating.state(), "Tgt 1", "damage"), 2);
    let crossbow = shoot("Arm Blade", "Tgt 1", "Crossbow", "", &dice, |_| {});
    assert!(has_said(&crossbow, "misses (1"), "{:?}", said(&crossbow));
    assert_eq!(counter(crossbow.state(), "Tgt 1", "damage"), 0);
}

#[test]
fn incendiary_ammunition_burns_on_a_6_and_5() {
    // 003 L1879: any 6 on the wound roll, the enemy rolls a d6: on 5+ it loses its Action
    // Dice and 1 more W. The Corrupted Blunderbuss (BS=8, L1857): 6 + 1 + 8 + 1 (the target
    // has its Action Dice) against 1 + 1 + T 7; the fire 5; the Stun roll 1. Damage 1, +1.
    let dice = ["6", "1", "1", "1", "5", "1"];
    let with_die = |ctx: &mut Ctx<'_>| give(ctx, "Tgt 1", "action_die");
    let fire = wound_roll("Tgt 1", "Corrupted Blunderbuss", &dice, with_die);
    assert!(has_said(&fire, "catches fire"), "{:?}", said(&fire));
    assert_eq!(counter(fire.state(), "Tgt 1", "damage"), 2);
    assert_eq!(tokens(fire.state(), "Tgt 1", "action_die"), 0);
    // The Blunderbuss (BS=7, no Incendiary): 6 + 1 + 7 + 1 against 9, its Stun roll 1;
    // Damage 1, and the target keeps its Action Dice.
    let plain = wound_roll("Tgt 1", "Blunderbuss", &["6", "1", "1", "1", "1"], with_die);
    assert!(!has_said(&plain, "catches fire"));
    assert_eq!(counter(plain.state(), "Tgt 1", "damage"), 1);
    assert_eq!(tokens(plain.state(), "Tgt 1", "action_die"), 1);
    // Ours: the fire catches whether or not the shot wounds (6 + 1 + 9 against 6 + 6 + 7).
    let failed = wound_roll(
        "Tgt 1",
        "Corrupted Blunderbuss",
        &["6", "1", "6", "6", "6"],
        with_die,
    );
    assert!(
        has_said(&failed, "the shot fails to wound"),
        "{:?}",
        said(&failed)
    );
    assert_eq!(counter(failed.state(), "Tgt 1", "damage"), 1);
    assert_eq!(tokens(failed.state(), "Tgt 1", "action_die"), 0);
}

#[test]
fn a_thrown_sword_is_lost_hit_or_miss_a_throwing_knife_is_not() {
    // 003 L540: any weapon or shield may be thrown; the hero loses the item he threw, except
    // weapons described as thrown (L1861). Range 20 cm, S against T, Damage 1 (+1 under
    // 20 cm, L511, L548). Hit on 4; 6 + 6 + S 7 against 1 + 1 + T 7.
    let dice = ["4", "6", "6", "1", "1"];
    let sword = shoot("Arm Blade", "Tgt 1", SWORD, "throw", &dice, |_| {});
    let state = sword.state();
    assert!(
        !carried(state, "Arm Blade").contains(&SWORD.to_owned()),
        "{:?}",
        said(&sword)
    );
    let lost = state.zone_cards(&ZoneId::new(owner(state, "Arm Blade"), "lost"));
    assert_eq!(lost.len(), 1);
    assert_eq!(counter(state, "Tgt 1", "damage"), 2);
    // A miss loses it too.
    let missed = shoot("Arm Blade", "Tgt 1", SWORD, "throw", &["1"], |_| {});
    assert!(!carried(missed.state(), "Arm Blade").contains(&SWORD.to_owned()));
    // Throwing knives are a Thrown weapon (L1831): kept.
    let knives = shoot("Arm Blade", "Tgt 1", "Throwing knives", "", &dice, |_| {});
    assert!(carried(knives.state(), "Arm Blade").contains(&"Throwing knives".to_owned()));
    assert_eq!(
        counter(knives.state(), "Tgt 1", "damage"),
        2,
        "{:?}",
        said(&knives)
    );
}

#[test]
fn any_hero_with_a_weapon_may_throw_it() {
    // 003 L540: throwing is offered to a hero with any weapon and a visible enemy, as a
    // shot (a Basic Action: not offered again this turn).
    let more = vec![];
    let mut game = run(
        "activation",
        "Arm Blade",
        more,
        &["4", "6", "6", "1", "1"],
        |ctx| {
            stand(ctx, "Arm Blade", 3500, 2000, (0, 1));
            stand(ctx, "Tgt 1", 3500, 3500, (0, -1));
            give(ctx, "Arm Blade", "action_die");
        },
    );
    assert!(
        offered(&game).contains(&"throw".to_owned()),
        "{:?}",
        offered(&game)
    );
    assert!(!offered(&game).contains(&"shoot".to_owned()));
    choose(&mut game, "throw");
    answer_shot_until_activation(&mut game);
    assert_eq!(
        counter(game.state(), "Tgt 1", "damage"),
        2,
        "{:?}",
        said(&game)
    );
    assert!(!carried(game.state(), "Arm Blade").contains(&SWORD.to_owned()));
}

/// Answers the shot's questions (Tgt 1, no aiming) until the hero's activation asks again.
fn answer_shot_until_activation(game: &mut Game<Scenario>) {
    while pending(game).is_some() {
        let choices = offered(game);
        if choices.contains(&"end the turn".to_owned()) {
            assert!(!choices.contains(&"throw".to_owned()), "{choices:?}");
            return;
        }
        let pick = if choices.contains(&"Tgt 1".to_owned()) {
            "Tgt 1".to_owned()
        } else if choices.contains(&"no aiming".to_owned()) {
            "no aiming".to_owned()
        } else {
            choices[0].clone()
        };
        choose(game, &pick);
    }
}

#[test]
fn a_shield_stops_a_shot_on_its_save_but_not_a_musket_ball() {
    // 003 L1909: a shield gives a chance "to hide from enemy shooting", used only without an
    // Action Dice (1d6 against its save, steel 5+, L1894, L1907; ours: once the shot hits,
    // before the wound roll, the whole shot stopped). L1803: the Musket's "Shields does not
    // work". Pistol: the shield's 5 stops it.
    let shield = |ctx: &mut Ctx<'_>| teach(ctx, "Tgt 1", "Steel shield");
    let dice = ["5", "6", "1", "1"];
    let pistol = wound_roll("Tgt 1", "Pistol", &dice, shield);
    assert!(
        has_said(&pistol, "hides behind the shield (5)"),
        "{:?}",
        said(&pistol)
    );
    assert_eq!(counter(pistol.state(), "Tgt 1", "damage"), 0);
    // The Musket: no shield roll; 5 + 6 + BS 7 - 1 against 1 + 1 + T 7, Damage 1.
    let musket = wound_roll("Tgt 1", "Musket", &dice, shield);
    assert!(!has_said(&musket, "shield"), "{:?}", said(&musket));
    assert_eq!(counter(musket.state(), "Tgt 1", "damage"), 1);
    // A 4 fails the steel shield's 5+: the Pistol's shot goes on and wounds.
    let failed = wound_roll("Tgt 1", "Pistol", &["4", "6", "6", "1", "1"], shield);
    assert!(has_said(&failed, "fails to hide behind the shield (4)"));
    assert_eq!(counter(failed.state(), "Tgt 1", "damage"), 1);
    // A hero still holding its Action Dice is asked whether to give it up (L1909).
    let more = vec![
        ("target", who("Tgt 1")),
        ("weapon", Value::Str("Pistol".into())),
        ("count", Value::Int(0)),
        ("data", Value::Str("aimed".into())),
    ];
    let mut holding = run("shot_wound", "Arm Blade", more, &dice, |ctx| {
        stand(ctx, "Arm Blade", 3500, 2000, (0, 1));
        stand(ctx, "Tgt 1", 3500, 4000, (0, -1));
        teach(ctx, "Arm Blade", "Pistol");
        teach(ctx, "Tgt 1", "Steel shield");
        give(ctx, "Tgt 1", "action_die");
    });
    let asked = pending(&holding).expect("the shield is offered");
    assert_eq!(asked.player, owner(holding.state(), "Tgt 1"));
    choose(&mut holding, "give it up to use the shield");
    assert_eq!(tokens(holding.state(), "Tgt 1", "action_die"), 0);
    assert_eq!(counter(holding.state(), "Tgt 1", "damage"), 0);
}

#[test]
fn the_asari_tiheri_adds_2_to_the_knockdown_test() {
    // 003 L1731: the Asari Tiheri "+2 to Knockdown test"; the Tigerians' Knockdown after a
    // charge: d6 5+ and the enemy loses its Action Dice (L1067-1069). A 3 + 2.
    let charge = |asari: bool| {
        let more = vec![
            ("target", who("Arm Blade")),
            ("count", Value::Int(0)),
            ("weapon", Value::Str(String::new())),
            ("data", Value::Str("charge".into())),
        ];
        run("land", "Tgt Tigerian", more, &["3"], move |ctx| {
            stand(ctx, "Tgt Tigerian", 3500, 3000, (0, 1));
            stand(ctx, "Arm Blade", 3500, 3250, (0, -1));
            give(ctx, "Arm Blade", "action_die");
            if asari {
                teach(ctx, "Tgt Tigerian", "Asari Tiheri");
            }
        })
    };
    let knocked = charge(true);
    assert!(
        has_said(&knocked, "knocks Arm Blade down (3)"),
        "{:?}",
        said(&knocked)
    );
    assert_eq!(tokens(knocked.state(), "Arm Blade", "action_die"), 0);
    let stood = charge(false);
    assert_eq!(tokens(stood.state(), "Arm Blade", "action_die"), 1);
}

#[test]
fn the_king_of_thieves_sling_lets_its_shooter_move_sp() {
    // 003 L1855: the King of Thieves' sling, "movement=Sp" (ours: as a Marksman, L1362, a
    // move of up to Sp besides the shot). A plain Sling gives none.
    let kings = shoot(
        "Arm Blade",
        "Tgt 1",
        "King of Thieves' sling",
        "",
        &["1"],
        |_| {},
    );
    assert_eq!(
        counter(kings.state(), "Arm Blade", "sp_move"),
        1,
        "{:?}",
        said(&kings)
    );
    let sling = shoot("Arm Blade", "Tgt 1", "Sling", "", &["1"], |_| {});
    assert_eq!(counter(sling.state(), "Arm Blade", "sp_move"), 0);
}

#[test]
fn a_bomb_cannot_aim() {
    // 003 L1841: the Bomb, "no Aiming"; aiming is offered with other throws (L540, L556).
    let aims = |weapon: &'static str| {
        let mut game = run("shoot", "Arm Blade", vec![], &["1", "1"], move |ctx| {
            stand(ctx, "Arm Blade", 3500, 2000, (0, 1));
            stand(ctx, "Tgt 1", 3500, 3500, (0, -1));
            teach(ctx, "Arm Blade", weapon);
        });
        let mut asked = false;
        while pending(&game).is_some() {
            let choices = offered(&game);
            asked |= choices.contains(&"no aiming".to_owned());
            let pick = if choices.contains(&"Tgt 1".to_owned()) {
                "Tgt 1".to_owned()
            } else {
                choices[0].clone()
            };
            choose(&mut game, &pick);
        }
        asked
    };
    assert!(!aims("Bomb"));
    assert!(aims("Throwing knives"));
}
