//! Umbra Turris's rarer rolls the Torment Dice reaches, and the Cleric's prayer on a blow's
//! stun roll (seed 003; digest A7, A14, A16, A17): the scenarios `umbra_turris_rolls.rs`
//! leaves to this file. Each arranges heroes of the test parties below on the table through
//! the kernel's `Ctx`, loads the dice with `fix_dice` so that the first roll fails and the
//! re-roll succeeds, runs one step of the flow and answers its requests; each compares the
//! re-roll taken with the same scene and dice where the offer is declined, and cites the seed
//! lines it checks.
//!
//! | Rule | Test |
//! |---|---|
//! | Torment, the Cherub's sacrifice | `a_torment_dice_re_rolls_the_cherubs_sacrifice` |
//! | Torment, Destiny | `a_torment_dice_re_rolls_a_hobgoblins_destiny_on_a_shot_and_a_spell` |
//! | Torment, the Thief | `a_torment_dice_re_rolls_the_thiefs_theft` |
//! | Torment, Sneak and Backstab | `a_torment_dice_re_rolls_a_sneak_and_a_backstab_test` |
//! | Torment, Knockdown | `a_torment_dice_re_rolls_a_tigerians_knockdown` |
//! | Torment, Cursing | `a_torment_dice_re_rolls_a_darklings_cursing` |
//! | Torment, Innate power | `a_torment_dice_re_rolls_a_gnomes_innate_power_in_a_strike_and_a_shot`, `a_torment_dice_re_rolls_a_gnomes_innate_power_against_a_spell` |
//! | Torment, the Guardsman's Assault | `a_torment_dice_re_rolls_a_guardsmans_assault` |
//! | Torment, entering the water | `a_torment_dice_re_rolls_a_swimming_test_entering_the_water` |
//! | Torment, a fall's damage | `a_torment_dice_re_rolls_the_damage_of_a_fall` |
//! | Torment, the enemy's disengage dice | `a_torment_dice_re_rolls_a_die_of_the_enemy_holding_a_hero` |
//! | Cleric, a blow's stun roll | `a_clerics_prayer_re_rolls_a_blows_stun_roll` |

use gloam::core::{Ctx, Frame, Game, GameState, PlayerId, Point, Value};
use gloam::engine::RulesetGame;

mod scenario;
use scenario::give;
use scenario::umbra::{id, owner, run, set, set_seat, step_of};
use scenario::{
    Scenario, carried, choose, damage, frame, has_said, offered, party_duel, pending,
    player_counter, said, stand, tokens,
};
use scenario::{asked, face_as_it_stands, send_point, teach};

const CM: i64 = 100;

/// Test parties: Mortenian Humans (all 7s, 7 W; their Defensive instinct acts only when
/// charged by a Normal or Power Strike, never here) beside one hero of each race whose own d6
/// is tested, and a Wizard of Light, whose Summon Cherub brings a Cherub. The Wardens are
/// Good (Gnomes, Tigerians, Elves, Halflings and Humans may be), the Raiders Anarchists
/// (Hobgoblins and Vorak may be): legal under the building rules but for their points.
/// Professions a scenario needs are taught (`teach`).
const PARTIES: &str = r#"
party "Test Wardens" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = good
    points = 5000
    source = "ours"
    hero "Captain" { race = "Humans" subrace = "Mortenians" profession = "Soldier" leader = true equipment = ["Sword, short sword"] }
    hero "Walker" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Bowman" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Bow"] }
    hero "Gnome" { race = "Gnomes" profession = "Scoundrel" equipment = ["Sword, short sword", "Bow"] }
    hero "Tiger" { race = "Tigerians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Elf" { race = "Elves" subrace = "Wood elves" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Darkling" { race = "Halflings" subrace = "Darklings" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Mage" { race = "Humans" subrace = "Mortenians" profession = "Wizard" equipment = ["Staff, Ritual weapon"] domains = ["Light", "Fire"] }
}

party "Test Raiders" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = anarchists
    points = 5000
    source = "ours"
    hero "Raid Chief" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" leader = true equipment = ["Sword, short sword"] }
    hero "Brute" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Hob" { race = "Hobgoblins" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Vorak" { race = "Vorak" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Lookout" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Rear" { race = "Humans" subrace = "Mortenians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
}
"#;

fn duel() -> RulesetGame {
    party_duel(PARTIES, "Test Wardens", "Test Raiders")
}

/// The frame of a blow of `fighter` with its sword that got through to `target`'s `location`
/// (step `strike`).
fn blow_at(
    fighter: &'static str,
    target: &'static str,
    location: &'static str,
) -> impl Fn(&GameState) -> Frame {
    move |state| {
        frame(
            "strike",
            &[
                ("player", Value::Player(owner(state, fighter))),
                ("fighter", id(state, fighter)),
                ("target", id(state, target)),
                ("weapon", Value::Str(SWORD.into())),
                (
                    "data",
                    Value::List(vec![Value::Str(location.into()), Value::Str(String::new())]),
                ),
            ],
        )
    }
}

/// The frame of `fighter`'s charge landing on `target` from the ground (step `land`).
fn charge_of(fighter: &'static str, target: &'static str) -> impl Fn(&GameState) -> Frame {
    move |state| {
        frame(
            "land",
            &[
                ("player", Value::Player(owner(state, fighter))),
                ("fighter", id(state, fighter)),
                ("target", id(state, target)),
                ("count", Value::Int(0)),
                ("weapon", Value::Str(String::new())),
                ("data", Value::Str("charge".into())),
            ],
        )
    }
}

/// The frame of `target` losing `count` W to `data` (step `wound`), `attacker` its enemy.
fn wound_of(
    target: &'static str,
    attacker: &'static str,
    count: i64,
    data: &'static str,
) -> impl Fn(&GameState) -> Frame {
    move |state| {
        frame(
            "wound",
            &[
                ("player", Value::Player(owner(state, attacker))),
                ("target", id(state, target)),
                ("attacker", id(state, attacker)),
                ("count", Value::Int(count)),
                ("data", Value::Str(data.into())),
            ],
        )
    }
}

/// Whether a Torment Dice is offered on the pending request.
fn torment_offered(game: &Game<Scenario>) -> bool {
    pending(game).is_some_and(|r| r.prompt.ends_with("spend a Torment Dice?"))
}

/// Answers the Torment Dice offered with the re-roll of its (first) die.
fn spend_torment(game: &mut Game<Scenario>) {
    assert!(torment_offered(game), "{:?}", pending(game));
    let reroll = offered(game)
        .into_iter()
        .find(|o| o.ends_with("with a Torment Dice"))
        .expect("a re-roll offered");
    choose(game, &reroll);
}

/// Declines every Torment Dice offered until another request (or none) is pending; returns
/// how many offers were declined.
fn decline_torment(game: &mut Game<Scenario>) -> usize {
    let mut declined = 0;
    while torment_offered(game) {
        let keep = offered(game)
            .into_iter()
            .find(|o| o.starts_with("keep"))
            .expect("a keep offered");
        choose(game, &keep);
        declined += 1;
    }
    declined
}

/// Answers a shot's requests: its target `target`, then no aiming.
fn shoot_at(game: &mut Game<Scenario>, target: &str) {
    while let Some(request) = pending(game) {
        if request.prompt.starts_with("Whom") {
            choose(game, target);
        } else if request.prompt.starts_with("Aim") {
            choose(game, "no aiming");
        } else {
            break;
        }
    }
}

const SWORD: &str = "Sword, short sword";

// ------------------------------------------------------------------------------------
// Torment on the rarer rolls (003 L1601)
// ------------------------------------------------------------------------------------

/// 003 L1601 ("re-roll any dice") with L716 (the Cherub sacrificed, d6 5+ and the fallen
/// hero lives with 1 W). Walker falls to Brute with the Mage's Cherub on the table; the
/// sacrifice's 4 leaves him down, re-rolled the 5 saves him (ours: offered although Summon
/// Cherub is a Light spell and Torment an Evil party's, L706).
#[test]
fn a_torment_dice_re_rolls_the_cherubs_sacrifice() {
    let rules = duel();
    let sacrifice = || {
        let mut game = run(
            &rules,
            wound_of("Walker", "Brute", 20, "combat"),
            &["4", "5", "1", "1"],
            |ctx| {
                stand(ctx, "Walker", 35 * CM, 35 * CM, (0, 1));
                stand(ctx, "Brute", 35 * CM, 35 * CM + 250, (0, -1));
                stand(ctx, "Cherub", 30 * CM, 35 * CM, (0, 1));
                set_seat(ctx, "Walker", "torment", 1);
            },
        );
        choose(&mut game, "sacrifice the Cherub");
        assert!(
            asked(&game, "Walker rolled 4 (Cherub's sacrifice)"),
            "{:?}",
            pending(&game)
        );
        game
    };
    let mut tormented = sacrifice();
    spend_torment(&mut tormented);
    assert!(
        has_said(&tormented, "lives on with 1 W (5)"),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(tokens(tormented.state(), "Walker", "death_counter"), 0);
    assert_eq!(player_counter(tormented.state(), PlayerId(0), "torment"), 0);
    let mut declined = sacrifice();
    assert_eq!(decline_torment(&mut declined), 1);
    assert!(
        has_said(&declined, "is not saved (4)"),
        "{:?}",
        said(&declined)
    );
    assert_eq!(tokens(declined.state(), "Walker", "death_counter"), 1);
}

/// Bowman, 15 cm from Hob, shoots at Brute (hit die 4, needing 2+) or casts Daze at him
/// (Magic Test 3, chance 3, L642); the Raiders hold a Torment Dice.
fn near_hob(rules: &RulesetGame, spell: bool) -> Game<Scenario> {
    let dice: &[&str] = if spell {
        &["3", "4", "5", "1", "1"]
    } else {
        &["4", "4", "5", "1", "1", "1", "1"]
    };
    let mut game = run(
        rules,
        step_of(if spell { "cast" } else { "shoot" }, "Bowman"),
        dice,
        move |ctx| {
            if spell {
                teach(ctx, "Bowman", "Daze");
            }
            stand(ctx, "Bowman", 35 * CM, 20 * CM, (0, 1));
            stand(ctx, "Brute", 35 * CM, 40 * CM, (0, -1));
            stand(ctx, "Hob", 50 * CM, 20 * CM, (0, 1));
            set_seat(ctx, "Hob", "torment", 1);
        },
    );
    if spell {
        choose(&mut game, "Daze");
        choose(&mut game, "Brute");
    } else {
        shoot_at(&mut game, "Brute");
    }
    // The Hobgoblin's d6 is offered to the Raiders, its player (ours).
    let roll = if spell {
        "Hob rolled 4:"
    } else {
        "Hob rolled 4 (Destiny)"
    };
    assert!(asked(&game, roll), "{:?}", pending(&game));
    assert_eq!(pending(&game).map(|r| r.player), Some(PlayerId(1)));
    game
}

/// 003 L1601 with L1091 (Destiny: a successful spell or shot by an enemy within 20 cm of a
/// Hobgoblin is cancelled on a d6 of 5+). The Hobgoblin's 4 lets Bowman's shot through and
/// his Daze daze Brute; the Raiders' Torment Dice re-rolls it, 5: both are foiled.
#[test]
fn a_torment_dice_re_rolls_a_hobgoblins_destiny_on_a_shot_and_a_spell() {
    let rules = duel();
    let mut shot = near_hob(&rules, false);
    spend_torment(&mut shot);
    assert!(
        has_said(&shot, "is foiled by a Hobgoblin's destiny (5)"),
        "{:?}",
        said(&shot)
    );
    assert_eq!(player_counter(shot.state(), PlayerId(1), "torment"), 0);
    let mut declined = near_hob(&rules, false);
    decline_torment(&mut declined);
    assert!(has_said(&declined, "hits Brute"), "{:?}", said(&declined));
    assert!(!has_said(&declined, "destiny"), "{:?}", said(&declined));
    let mut spell = near_hob(&rules, true);
    spend_torment(&mut spell);
    assert!(
        has_said(&spell, "is foiled by a Hobgoblin's destiny (5)"),
        "{:?}",
        said(&spell)
    );
    assert_eq!(tokens(spell.state(), "Brute", "dazed"), 0);
    let mut declined = near_hob(&rules, true);
    decline_torment(&mut declined);
    assert_eq!(
        tokens(declined.state(), "Brute", "dazed"),
        1,
        "{:?}",
        said(&declined)
    );
}

/// 003 L1601 with L1460 (the Thief: at least 3 damage in combat, d6 3+ steals an item of the
/// enemy's). Walker, taught the Thief, strikes Brute, who carries Poison: 3 + WS 7 + the
/// sword's 1 against 1 + 7, 3 damage; the theft's 2 fails, re-rolled the 4 steals it. The
/// strike's own die is offered first and kept.
#[test]
fn a_torment_dice_re_rolls_the_thiefs_theft() {
    let rules = duel();
    let blow = || {
        let mut game = run(
            &rules,
            blow_at("Walker", "Brute", "body"),
            &["3", "1", "2", "4"],
            |ctx| {
                teach(ctx, "Walker", "Thief");
                teach(ctx, "Brute", "Poison");
                stand(ctx, "Walker", 35 * CM, 35 * CM, (0, 1));
                stand(ctx, "Brute", 35 * CM, 35 * CM + 250, (0, -1));
                set_seat(ctx, "Walker", "torment", 1);
            },
        );
        choose(&mut game, "normal");
        choose(&mut game, "keep the roll");
        assert_eq!(
            offered(&game),
            ["keep the roll", "re-roll die 1 (2) with a Torment Dice"]
        );
        game
    };
    let mut tormented = blow();
    spend_torment(&mut tormented);
    if asked(&tormented, "Thief: which item") {
        choose(&mut tormented, "Poison");
    }
    assert!(
        has_said(&tormented, "steals the Poison"),
        "{:?}",
        said(&tormented)
    );
    assert!(carried(tormented.state(), "Walker").contains(&"Poison".to_owned()));
    let mut declined = blow();
    decline_torment(&mut declined);
    assert_eq!(
        damage(declined.state(), "Brute"),
        3,
        "{:?}",
        said(&declined)
    );
    assert!(carried(declined.state(), "Brute").contains(&"Poison".to_owned()));
}

/// `fighter` charges `target` (step `fight`, `data` = `charge`), bases touching, face to
/// face; `arrange` adds the rest.
fn charging(
    rules: &RulesetGame,
    fighter: &'static str,
    target: &'static str,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    run(
        rules,
        move |state| {
            frame(
                "fight",
                &[
                    ("player", Value::Player(owner(state, fighter))),
                    ("fighter", id(state, fighter)),
                    ("target", id(state, target)),
                    ("data", Value::Str("charge".into())),
                ],
            )
        },
        dice,
        move |ctx| {
            stand(ctx, fighter, 35 * CM, 35 * CM, (0, 1));
            stand(ctx, target, 35 * CM, 35 * CM + 250, (0, -1));
            arrange(ctx);
        },
    )
}

/// 003 L1601 with L953 (Sneak: a Wood Elf Hidden at the start of its turn and charging, d6
/// 4+ and the enemy cannot parry) and L1081 (Backstab: a Vorak charging from the front, 6+).
/// The Elf's 3 and the Vorak's 5 leave the parry to the secret guess; re-rolled, 4 and 6
/// take it away: the attacker chooses openly.
#[test]
fn a_torment_dice_re_rolls_a_sneak_and_a_backstab_test() {
    let rules = duel();
    let sneak = || {
        let game = charging(&rules, "Elf", "Brute", &["3", "4"], |ctx| {
            set(ctx, "Elf", "sneak_start", 1);
            set_seat(ctx, "Elf", "torment", 1);
        });
        assert!(
            asked(&game, "Elf rolled 3 (Sneak test)"),
            "{:?}",
            pending(&game)
        );
        game
    };
    let mut tormented = sneak();
    spend_torment(&mut tormented);
    assert!(
        asked(&tormented, "Brute cannot parry"),
        "{:?}",
        pending(&tormented)
    );
    // The step's lines are told once it ends: after the open choice.
    choose(&mut tormented, "Sword, short sword / body");
    assert!(
        has_said(&tormented, "strikes from hiding (4): no parry"),
        "{:?}",
        said(&tormented)
    );
    let mut declined = sneak();
    decline_torment(&mut declined);
    assert!(
        asked(&declined, "Close combat:"),
        "{:?}",
        pending(&declined)
    );
    let backstab = || {
        let game = charging(&rules, "Vorak", "Walker", &["5", "6"], |ctx| {
            set_seat(ctx, "Vorak", "torment", 1);
        });
        assert!(
            asked(&game, "Vorak rolled 5 (Backstab test)"),
            "{:?}",
            pending(&game)
        );
        game
    };
    let mut tormented = backstab();
    spend_torment(&mut tormented);
    assert!(
        asked(&tormented, "Walker cannot parry"),
        "{:?}",
        pending(&tormented)
    );
    // The step's lines are told once it ends: after the open choice.
    choose(&mut tormented, "Sword, short sword / body");
    assert!(
        has_said(&tormented, "stabs from behind (6): no parry"),
        "{:?}",
        said(&tormented)
    );
    let mut declined = backstab();
    decline_torment(&mut declined);
    assert!(
        asked(&declined, "Close combat:"),
        "{:?}",
        pending(&declined)
    );
}

/// 003 L1601 with L1069 (Knockdown: after a Tigerian's successful charge, d6 5+ and the
/// enemy loses its Action Dice). Tiger's charge reaches Brute, who holds an Action Dice; the
/// 2 leaves it to him, re-rolled the 5 knocks him down.
#[test]
fn a_torment_dice_re_rolls_a_tigerians_knockdown() {
    let rules = duel();
    let knockdown = || {
        let game = run(&rules, charge_of("Tiger", "Brute"), &["2", "5"], |ctx| {
            stand(ctx, "Tiger", 35 * CM, 35 * CM, (0, 1));
            stand(ctx, "Brute", 35 * CM, 35 * CM + 250, (0, -1));
            give(ctx, "Brute", "action_die");
            set_seat(ctx, "Tiger", "torment", 1);
        });
        assert!(
            asked(&game, "Tiger rolled 2 (Knockdown test)"),
            "{:?}",
            pending(&game)
        );
        game
    };
    let mut tormented = knockdown();
    spend_torment(&mut tormented);
    assert!(
        has_said(&tormented, "knocks Brute down (5): its Action Dice is lost"),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(tokens(tormented.state(), "Brute", "action_die"), 0);
    let mut declined = knockdown();
    decline_torment(&mut declined);
    assert_eq!(
        tokens(declined.state(), "Brute", "action_die"),
        1,
        "{:?}",
        said(&declined)
    );
}

/// 003 L1601 with L1039 (Cursing: a Darkling losing Wounds to hostile combat, d6 3+ and a
/// hero within 20 cm loses 1 W). The Darkling, Brute 10 cm off the only hero near; its 2 is
/// in vain, re-rolled the 3 curses Brute.
#[test]
fn a_torment_dice_re_rolls_a_darklings_cursing() {
    let rules = duel();
    let cursing = || {
        let game = run(&rules, step_of("cursing", "Darkling"), &["2", "3"], |ctx| {
            stand(ctx, "Darkling", 35 * CM, 35 * CM, (0, 1));
            stand(ctx, "Brute", 35 * CM, 45 * CM, (0, -1));
            set_seat(ctx, "Darkling", "torment", 1);
        });
        assert!(
            asked(&game, "Darkling rolled 2 (Cursing)"),
            "{:?}",
            pending(&game)
        );
        game
    };
    let mut tormented = cursing();
    spend_torment(&mut tormented);
    assert!(
        has_said(&tormented, "curses Brute (3)"),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(damage(tormented.state(), "Brute"), 1);
    let mut declined = cursing();
    decline_torment(&mut declined);
    assert!(has_said(&declined, "curses in vain (2)"));
    assert_eq!(damage(declined.state(), "Brute"), 0);
}

/// 003 L1601 with L1099 (Innate power: a Gnome in any attack, d6 5+, changes one die by 1;
/// ours: +1 to its own). The Gnome's Normal Strike at Brute: the power's 4 does nothing,
/// re-rolled the 5 adds 1 to 3 + WS + the sword's 1 against 1 + 7, one damage more. Its
/// shot at Brute 45 cm off (4+, L510-518): the power's 4 leaves the hit die's 3 a miss,
/// re-rolled the 5 makes it a 4 and a hit. Declined, the Torment Dice is offered again on
/// the strike's and the hit roll's die, and kept.
#[test]
fn a_torment_dice_re_rolls_a_gnomes_innate_power_in_a_strike_and_a_shot() {
    let rules = duel();
    let strike = |dice: &[&str]| {
        let mut game = run(&rules, blow_at("Gnome", "Brute", "body"), dice, |ctx| {
            stand(ctx, "Gnome", 35 * CM, 35 * CM, (0, 1));
            stand(ctx, "Brute", 35 * CM, 35 * CM + 250, (0, -1));
            set_seat(ctx, "Gnome", "torment", 1);
        });
        choose(&mut game, "normal");
        assert_eq!(
            offered(&game),
            ["keep the roll", "re-roll die 1 (4) with a Torment Dice"]
        );
        game
    };
    let mut tormented = strike(&["4", "5", "3", "1"]);
    spend_torment(&mut tormented);
    assert!(
        has_said(
            &tormented,
            "calls on its innate power (5): +1 to the strike"
        ),
        "{:?}",
        said(&tormented)
    );
    let mut declined = strike(&["4", "3", "1"]);
    assert_eq!(decline_torment(&mut declined), 2);
    assert!(!has_said(&declined, "innate power"));
    assert_eq!(
        damage(tormented.state(), "Brute"),
        damage(declined.state(), "Brute") + 1,
        "{:?} / {:?}",
        said(&tormented),
        said(&declined)
    );
    let shot = |dice: &[&str]| {
        let mut game = run(&rules, step_of("shoot", "Gnome"), dice, |ctx| {
            stand(ctx, "Gnome", 35 * CM, 10 * CM, (0, 1));
            stand(ctx, "Brute", 35 * CM, 55 * CM, (0, -1));
            set_seat(ctx, "Gnome", "torment", 1);
        });
        shoot_at(&mut game, "Brute");
        assert!(
            asked(&game, "Gnome rolled 4 (innate power)"),
            "{:?}",
            pending(&game)
        );
        game
    };
    let mut tormented = shot(&["4", "5", "3", "1", "1", "1", "1"]);
    spend_torment(&mut tormented);
    assert!(
        has_said(&tormented, "hits Brute (4, needing 4+)"),
        "{:?}",
        said(&tormented)
    );
    let mut declined = shot(&["4", "3", "1", "1", "1", "1"]);
    assert_eq!(decline_torment(&mut declined), 2);
    assert!(
        has_said(&declined, "misses (3, needing 4+)"),
        "{:?}",
        said(&declined)
    );
}

/// 003 L1601 with L1101 (Innate power: a Gnome to lose Wounds to a spell, d6 5+ loses none;
/// re-rolled with another Gnome in the party, and ours has none). Two W of magic: the 4 lets
/// them through, re-rolled with the Torment Dice the 5 wards them off.
#[test]
fn a_torment_dice_re_rolls_a_gnomes_innate_power_against_a_spell() {
    let rules = duel();
    let spell = || {
        let game = run(
            &rules,
            wound_of("Gnome", "Brute", 2, "magic"),
            &["4", "5", "1", "1"],
            |ctx| {
                stand(ctx, "Gnome", 35 * CM, 35 * CM, (0, 1));
                stand(ctx, "Brute", 35 * CM, 55 * CM, (0, -1));
                set_seat(ctx, "Gnome", "torment", 1);
            },
        );
        assert!(
            asked(&game, "Gnome rolled 4 (innate power)"),
            "{:?}",
            pending(&game)
        );
        game
    };
    let mut tormented = spell();
    spend_torment(&mut tormented);
    assert!(
        has_said(
            &tormented,
            "wards off the spell's harm with its innate power (5)"
        ),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(damage(tormented.state(), "Gnome"), 0);
    let mut declined = spell();
    decline_torment(&mut declined);
    assert_eq!(
        damage(declined.state(), "Gnome"),
        2,
        "{:?}",
        said(&declined)
    );
}

/// 003 L1601 with L1224 (Assault: a Guardsman charged while holding no Action Dice, d6 4+,
/// makes a free attack against the charger). Brute's charge reaches Walker, taught the
/// Guardsman; the 3 gives him nothing, re-rolled the 4 meets the charge.
#[test]
fn a_torment_dice_re_rolls_a_guardsmans_assault() {
    let rules = duel();
    let assault = || {
        let game = run(&rules, charge_of("Brute", "Walker"), &["3", "4"], |ctx| {
            teach(ctx, "Walker", "Guardsman");
            stand(ctx, "Brute", 35 * CM, 35 * CM, (0, 1));
            stand(ctx, "Walker", 35 * CM, 35 * CM + 250, (0, -1));
            set_seat(ctx, "Walker", "torment", 1);
        });
        assert!(
            asked(&game, "Walker rolled 3 (Assault)"),
            "{:?}",
            pending(&game)
        );
        game
    };
    let mut tormented = assault();
    spend_torment(&mut tormented);
    assert!(
        has_said(&tormented, "meets the charge with a free attack (4)"),
        "{:?}",
        said(&tormented)
    );
    let mut declined = assault();
    decline_torment(&mut declined);
    assert!(
        !has_said(&declined, "meets the charge"),
        "{:?}",
        said(&declined)
    );
}

// ------------------------------------------------------------------------------------
// Torment on the movement tests and the fall's dice (003 L1601 with L316-350, L436)
// ------------------------------------------------------------------------------------

/// 003 L1601 with L346-348 (a swimming test immediately after entering the water, 3+; lower,
/// 1 W lost and no further move). Walker at the Pond's edge with 7 cm of her Move left
/// enters it (step `wade`): the 2 stops her, re-rolled the 4 lets her swim on.
#[test]
fn a_torment_dice_re_rolls_a_swimming_test_entering_the_water() {
    let rules = duel();
    let wade = || {
        let game = run(
            &rules,
            |state| {
                frame(
                    "wade",
                    &[
                        ("player", Value::Player(owner(state, "Walker"))),
                        ("fighter", id(state, "Walker")),
                        ("count", Value::Int(7 * CM)),
                        ("data", Value::Str("enter".into())),
                    ],
                )
            },
            &["2", "4"],
            |ctx| {
                // The Pond's south edge is at y 29 cm.
                stand(ctx, "Pond", 35 * CM, 35 * CM, (0, 1));
                stand(ctx, "Walker", 35 * CM, 29 * CM - 175, (0, 1));
                set_seat(ctx, "Walker", "torment", 1);
            },
        );
        assert!(
            asked(&game, "Walker rolled 2 (swimming test)"),
            "{:?}",
            pending(&game)
        );
        game
    };
    let mut tormented = wade();
    spend_torment(&mut tormented);
    // The step's lines are told once it ends: after the swim.
    assert!(asked(&tormented, "Where does Walker swim?"));
    assert!(send_point(&mut tormented, Point::new(0, 3 * CM)));
    face_as_it_stands(&mut tormented);
    assert!(has_said(&tormented, "swims (4)"), "{:?}", said(&tormented));
    assert_eq!(damage(tormented.state(), "Walker"), 0);
    let mut declined = wade();
    decline_torment(&mut declined);
    face_as_it_stands(&mut declined);
    assert!(
        has_said(
            &declined,
            "struggles in the water (2) and cannot move further"
        ),
        "{:?}",
        said(&declined)
    );
    assert_eq!(damage(declined.state(), "Walker"), 1);
}

/// 003 L1601 with L320 (a climber without firm footing falls on 3 or less) and L332 (a fall
/// under 10 cm costs d6 W; ours: the faller's dice). Walker climbs the Broken Stair (6 cm,
/// loose stones) and the 3 fails; the Torment Dice offered on the climbing test is kept, the
/// fall's 5 is re-rolled, 1: one W lost instead of five.
#[test]
fn a_torment_dice_re_rolls_the_damage_of_a_fall() {
    let rules = duel();
    let climb = || {
        let mut game = run(
            &rules,
            step_of("climb", "Walker"),
            &["3", "5", "1"],
            |ctx| {
                stand(ctx, "Broken Stair", 35 * CM, 35 * CM, (0, 1));
                stand(ctx, "Walker", 35 * CM, 29 * CM - 175, (0, 1));
                set_seat(ctx, "Walker", "torment", 1);
            },
        );
        assert!(asked(&game, "Walker rolled 3 (climbing test)"));
        choose(&mut game, "keep it");
        assert!(
            asked(&game, "Walker rolled 5 (fall)"),
            "{:?}",
            pending(&game)
        );
        game
    };
    let mut tormented = climb();
    spend_torment(&mut tormented);
    assert!(has_said(
        &tormented,
        "cannot stand firm on the Broken Stair (3) and falls 6 cm"
    ));
    assert_eq!(
        damage(tormented.state(), "Walker"),
        1,
        "{:?}",
        said(&tormented)
    );
    let mut declined = climb();
    decline_torment(&mut declined);
    assert_eq!(
        damage(declined.state(), "Walker"),
        5,
        "{:?}",
        said(&declined)
    );
}

/// 003 L1601 with L438 (disengaging: 2d6 + Sp against the enemy's 2d6 + S, a better result
/// gets away; ours: each side's dice its own player's). Walker's 3 + 3 + Sp 7 = 13 beats
/// Brute's 1 + 1 + S 7 = 9; the Raiders' Torment Dice re-rolls Brute's first 1, 6: 14
/// holds her.
#[test]
fn a_torment_dice_re_rolls_a_die_of_the_enemy_holding_a_hero() {
    let rules = duel();
    let disengage = || {
        let game = run(
            &rules,
            step_of("disengage", "Walker"),
            &["3", "3", "1", "1", "6"],
            |ctx| {
                stand(ctx, "Walker", 35 * CM, 35 * CM, (0, 1));
                stand(ctx, "Brute", 35 * CM, 35 * CM + 250, (0, -1));
                set_seat(ctx, "Brute", "torment", 1);
            },
        );
        assert!(
            asked(&game, "Brute rolled 1 (disengage test)"),
            "{:?}",
            pending(&game)
        );
        game
    };
    let mut tormented = disengage();
    spend_torment(&mut tormented);
    assert!(
        has_said(&tormented, "fails to disengage (13 against 14)"),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(player_counter(tormented.state(), PlayerId(1), "torment"), 0);
    let mut declined = disengage();
    assert_eq!(decline_torment(&mut declined), 2);
    assert!(
        has_said(&declined, "disengages (13 against 9)"),
        "{:?}",
        said(&declined)
    );
}

// ------------------------------------------------------------------------------------
// Cleric, Prayer (003 L1240)
// ------------------------------------------------------------------------------------

/// 003 L1242 ("may re-roll any one dice") with L450 (a head hit by a Normal or Power Strike
/// stuns on the attacker's d6 of 5+). Walker, prayed for (token `blessed`), strikes Brute's
/// head: 3 + 7 + 1 against 1 + 7; the stun roll's 2 fails, the prayer's re-roll 6 stuns him
/// and the prayer is spent. Kept, the 2 stands.
#[test]
fn a_clerics_prayer_re_rolls_a_blows_stun_roll() {
    let rules = duel();
    let blow = || {
        let mut game = run(
            &rules,
            blow_at("Walker", "Brute", "head"),
            &["3", "1", "2", "6", "1"],
            |ctx| {
                stand(ctx, "Walker", 35 * CM, 35 * CM, (0, 1));
                stand(ctx, "Brute", 35 * CM, 35 * CM + 250, (0, -1));
                give(ctx, "Walker", "blessed");
            },
        );
        choose(&mut game, "normal");
        assert!(
            asked(&game, "The stun roll fails: use the prayer's re-roll?"),
            "{:?}",
            pending(&game)
        );
        game
    };
    let mut blessed = blow();
    choose(&mut blessed, "re-roll the stun roll");
    assert!(
        has_said(&blessed, "re-rolls the stun roll (the Cleric's prayer): 6"),
        "{:?}",
        said(&blessed)
    );
    assert_eq!(tokens(blessed.state(), "Brute", "stunned"), 1);
    assert_eq!(tokens(blessed.state(), "Walker", "blessed"), 0);
    let mut kept = blow();
    choose(&mut kept, "keep the result");
    assert_eq!(
        tokens(kept.state(), "Brute", "stunned"),
        0,
        "{:?}",
        said(&kept)
    );
    assert_eq!(tokens(kept.state(), "Walker", "blessed"), 1);
}
