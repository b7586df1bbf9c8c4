//! Umbra Turris's gear and dice leftovers (seed 003; digest A17, A20.4, A23), played from the
//! data: the Arrowheads and boltheads, the Mask of Assassins, the Fortune teller with three
//! players. Each scenario arranges heroes of the test parties below on the table through the
//! kernel's `Ctx`, loads the dice with `fix_dice`, runs one step of the flow and answers its
//! requests; each compares the rule with the same scene and dice without it, and cites the
//! seed lines it checks.
//!
//! | Rule | Test |
//! |---|---|
//! | Armour-piercing heads | `armour_piercing_heads_test_armour_with_1d6_against_a_bow_shot` |
//! | Incendiary heads | `incendiary_heads_set_the_target_alight_on_a_6_and_a_5` |
//! | Hunting heads | `hunting_heads_add_2_bs_to_bow_shots_only` |
//! | Heads found on a Loot test | `arrowheads_found_on_a_loot_test_act_on_the_bow` |
//! | Mask of Assassins, armour | `the_mask_is_heavy_armour_on_the_head_to_the_front_only`, `the_mask_halves_a_shot_at_the_head_from_the_front` |
//! | Mask of Assassins, always tested | `the_mask_is_tested_against_a_gladiator_who_ignores_a_helmet` |
//! | Mask of Assassins, Fear | `the_mask_gives_its_wearer_fear_on_the_charge` |
//! | Fortune teller, three players | `a_fortune_teller_re_rolls_the_initiative_with_three_players` |
//! | False Prophet, other rolls | `a_false_prophet_may_curse_an_enemys_armour_tests`, `a_false_prophet_may_curse_an_enemys_hit_rolls` |
//! | False Prophet, Spot and shield tests | `a_false_prophet_may_curse_an_enemys_spot_and_shield_tests` |
//! | Cleric, other dice | `a_clerics_prayer_re_rolls_a_failed_armour_test`, `a_clerics_prayer_re_rolls_a_shield_or_spot_test_or_a_loot_test` |
//! | Witch Hunter, other rolls | `a_witch_hunter_with_a_soldier_near_adds_2_to_his_hit_roll`, `a_witch_hunter_with_a_soldier_near_adds_2_to_his_armour_test`, `a_witch_hunter_takes_2_from_a_magic_test_cast_at_him` |
//! | Blessing on a shot, a stun roll | `a_blessing_dice_re_rolls_a_1_on_a_shots_hit_roll`, `a_blessing_dice_re_rolls_a_stun_roll_of_1` |
//! | Torment on other dice | `a_torment_dice_re_rolls_the_armour_test_against_a_shot`, `a_torment_dice_re_rolls_a_loot_test_and_a_spot_test`, `a_torment_dice_re_rolls_the_spirit_table`, `a_torment_dice_re_rolls_an_initiative_die_and_an_order_test`, `a_torment_dice_re_rolls_the_herbs_the_talisman_and_a_stubborn_test` |

use gloam::core::{Choice, Ctx, Game, GameState, PlayerId, Scope, Value};
use gloam::engine::RulesetGame;

mod scenario;
use scenario::teach;
use scenario::{
    Scenario, cards_dir, damage, fixture_file, frame, has_said, party_duel, pending, piece,
    player_counter, said, stand, tokens,
};
use scenario::{choose, offered};

/// Test parties of Borian Humans (no race ability of theirs acts in these scenarios), legal
/// under the building rules but for their points: a Tracker Guild party, whose heroes may buy
/// the heads (003 L1963), and an Assassins Guild party, whose heroes may buy the Mask (L1967).
const PARTIES: &str = r#"
party "Test Hunters" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    guild = "Tracker"
    points = 5000
    source = "ours"
    hero "Warden" { race = "Humans" subrace = "Borians" profession = "Tracker" leader = true equipment = ["Sword, short sword"] }
    hero "Mark" { race = "Humans" subrace = "Borians" profession = "Marksman" equipment = ["Sword, short sword"] }
    hero "Scout" { race = "Humans" subrace = "Borians" profession = "Scout" equipment = ["Sword, short sword"] }
    hero "Pierce" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Bow", "Armour-piercing heads"] }
    hero "Fire" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Bow", "Incendiary heads"] }
    hero "Hunter" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Bow", "Sling", "Hunting heads"] }
    hero "Archer" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Bow"] }
    hero "Brute" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Glad" { race = "Humans" subrace = "Borians" profession = "Gladiator" equipment = ["Sword, short sword"] }
    hero "Fort" { race = "Humans" subrace = "Borians" profession = "Fortune teller" equipment = ["Sword, short sword"] }
}

party "Test Blades" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    guild = "Assassins"
    points = 5000
    source = "ours"
    hero "Blade" { race = "Humans" subrace = "Borians" profession = "Assassin" leader = true equipment = ["Dagger, Hunting knife"] }
    hero "Cut" { race = "Humans" subrace = "Borians" profession = "Cutthroat" equipment = ["Dagger, Hunting knife"] }
    hero "Exec" { race = "Humans" subrace = "Borians" profession = "Executioner" equipment = ["Dagger, Hunting knife"] }
    hero "Masked" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword", "Mask of Assassins"] }
    hero "Bare" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Helm" { race = "Humans" subrace = "Borians" profession = "Soldier" equipment = ["Sword, short sword", "Heavy helmet"] }
    hero "Mailed" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword", "Chain shirt"] }
    hero "Guard" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword", "Wooden shield"] }
}

party "Test Rivals" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 5000
    source = "ours"
    hero "Rival Chief" { race = "Humans" subrace = "Borians" profession = "Scoundrel" leader = true equipment = ["Sword, short sword"] }
    hero "Rival 1" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Rival 2" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Rival 3" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Rival 4" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Rival 5" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
}
"#;

fn duel() -> RulesetGame {
    party_duel(PARTIES, "Test Hunters", "Test Blades")
}

fn id(state: &GameState, kind: &str) -> Value {
    Value::Piece(piece(state, kind))
}

fn owner(state: &GameState, kind: &str) -> PlayerId {
    state.pieces[&piece(state, kind)].owner
}

fn counter(state: &GameState, kind: &str, name: &str) -> i64 {
    state.pieces[&piece(state, kind)]
        .counters
        .get(name)
        .copied()
        .unwrap_or(0)
}

/// Sets the seat counter `name` of the party of `kind` (its dice, its alignment).
fn set_seat(ctx: &mut Ctx<'_>, kind: &str, name: &str, value: i64) {
    let seat = ctx.state().pieces[&piece(ctx.state(), kind)].owner;
    ctx.set_counter(Scope::Player(seat), name, value)
        .expect("counter");
}

/// Curses `kind`'s rolls of kind `roll` (as step `accursed_visions` does) by 2.
fn cursed(ctx: &mut Ctx<'_>, kind: &str, roll: i64) {
    let id = piece(ctx.state(), kind);
    ctx.set_tokens(Scope::Piece(id), "cursed", 1)
        .expect("cursed");
    set(ctx, kind, "cursed_roll", roll);
    set(ctx, kind, "curse_amount", 2);
}

fn set(ctx: &mut Ctx<'_>, kind: &str, name: &str, value: i64) {
    let id = piece(ctx.state(), kind);
    ctx.set_counter(Scope::Piece(id), name, value)
        .expect("counter");
}

fn start(rules: &RulesetGame) -> Game<RulesetGame> {
    Game::start(rules.clone(), rules.setup(7), vec![]).expect("start")
}

/// A game of `rules` arranged by `arrange`, the d6 loaded with `dice`, starting with the
/// frames `frames`.
fn run(
    rules: &RulesetGame,
    frames: Vec<gloam::core::Frame>,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    scenario::umbra::loaded(rules, frames, dice, arrange)
}

/// The frame of `shooter`'s wound roll against `target` with `weapon`, `aim` added to its
/// roll and damage (step `shot_wound`).
fn shot_frame(
    rules: &RulesetGame,
    shooter: &str,
    target: &str,
    weapon: &str,
    aim: i64,
) -> gloam::core::Frame {
    let begun = start(rules);
    let state = begun.state();
    frame(
        "shot_wound",
        &[
            ("player", Value::Player(owner(state, shooter))),
            ("fighter", id(state, shooter)),
            ("target", id(state, target)),
            ("weapon", Value::Str(weapon.to_owned())),
            ("count", Value::Int(aim)),
            ("data", Value::Str("aimed".into())),
        ],
    )
}

/// `shooter` has hit `target` 20 cm in front of it with `weapon`: the wound roll.
fn shot(
    rules: &RulesetGame,
    shooter: &'static str,
    target: &'static str,
    weapon: &str,
    aim: i64,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let frames = vec![shot_frame(rules, shooter, target, weapon, aim)];
    run(rules, frames, dice, move |ctx| {
        stand(ctx, shooter, 3500, 2000, (0, 1));
        stand(ctx, target, 3500, 4000, (0, -1));
        arrange(ctx);
    })
}

/// `attacker` attacks `defender` (step `fight`, `how` = `charge` or empty), their bases
/// touching; the defender faces the attacker, or away from it when `from_behind`.
fn fight(
    rules: &RulesetGame,
    attacker: &'static str,
    defender: &'static str,
    how: &str,
    from_behind: bool,
    dice: &[&str],
) -> Game<Scenario> {
    let begun = start(rules);
    let state = begun.state();
    let frames = vec![frame(
        "fight",
        &[
            ("player", Value::Player(owner(state, attacker))),
            ("fighter", id(state, attacker)),
            ("target", id(state, defender)),
            ("data", Value::Str(how.to_owned())),
        ],
    )];
    run(rules, frames, dice, move |ctx| {
        stand(ctx, attacker, 3500, 3000, (0, 1));
        let facing = if from_behind { (0, 1) } else { (0, -1) };
        stand(ctx, defender, 3500, 3250, facing);
    })
}

/// The blow of `weapon` lands on the head: by the secret guess (the defender parries the
/// legs) or openly when the defender cannot parry; a Power Strike.
fn at_the_head(game: &mut Game<Scenario>, weapon: &str) {
    let asked: Vec<PlayerId> = game.pending().iter().map(|r| r.player).collect();
    if asked.len() == 2 {
        for (who, text) in [
            (asked[0], format!("{weapon} / head")),
            (asked[1], "legs".into()),
        ] {
            game.submit(who, gloam::core::Answer::One(Choice::Option(text)))
                .unwrap_or_else(|error| panic!("{error}"));
        }
    } else {
        choose(game, &format!("{weapon} / head"));
    }
    choose(game, "power");
}

const SWORD: &str = "Sword, short sword";

// ------------------------------------------------------------------------------------
// Arrowheads and boltheads (003 L1963-1965)
// ------------------------------------------------------------------------------------

#[test]
fn armour_piercing_heads_test_armour_with_1d6_against_a_bow_shot() {
    // 003 L1965: armour-piercing heads, armour tests on 1d6 instead of 3d6 (L1899-1905: any
    // die at the save halves the damage). Mailed wears a Chain shirt (body, 6+, L1888). The
    // shot wounds (6 + 6 against 1 + 1), aimed +3: 4 damage; the location 3 is the body. The
    // armour dice 4, 6, 2: with the heads only the 4 counts and the 4 damage stand; with a
    // plain Bow the 6 halves them to 2.
    let rules = duel();
    let dice = ["6", "6", "1", "1", "3", "4", "6", "2"];
    let heads = shot(&rules, "Pierce", "Mailed", "Bow", 3, &dice, |_| {});
    assert!(has_said(&heads, "the shot wounds"), "{:?}", said(&heads));
    assert!(!has_said(&heads, "armour halves the damage"));
    assert_eq!(damage(heads.state(), "Mailed"), 4);
    let plain = shot(&rules, "Archer", "Mailed", "Bow", 3, &dice, |_| {});
    assert!(
        has_said(&plain, "armour halves the damage"),
        "{:?}",
        said(&plain)
    );
    assert_eq!(damage(plain.state(), "Mailed"), 2);
}

#[test]
fn incendiary_heads_set_the_target_alight_on_a_6_and_a_5() {
    // 003 L1965 (as L1879): any 6 rolled to wound, the target rolls a d6; on 5+ it loses its
    // Action Dice and 1 W more. The wound roll 6 + 2 against 1 + 1, then the 5.
    let rules = duel();
    let dice = ["6", "2", "1", "1", "5"];
    let with_die = |ctx: &mut Ctx<'_>| {
        let id = piece(ctx.state(), "Bare");
        ctx.set_tokens(Scope::Piece(id), "action_die", 1)
            .expect("die");
    };
    let heads = shot(&rules, "Fire", "Bare", "Bow", 0, &dice, with_die);
    assert!(has_said(&heads, "catches fire (5)"), "{:?}", said(&heads));
    assert_eq!(tokens(heads.state(), "Bare", "action_die"), 0);
    assert_eq!(damage(heads.state(), "Bare"), 2);
    let plain = shot(&rules, "Archer", "Bare", "Bow", 0, &dice, with_die);
    assert!(!has_said(&plain, "catches fire"), "{:?}", said(&plain));
    assert_eq!(tokens(plain.state(), "Bare", "action_die"), 1);
    assert_eq!(damage(plain.state(), "Bare"), 1);
}

#[test]
fn hunting_heads_add_2_bs_to_bow_shots_only() {
    // 003 L1965: hunting heads, +2 BS (L532: 2d6 + BS against 2d6 + T). 3 + 3 + BS 7 - 1 (the
    // target has no Action Dice, L584) = 12 against 3 + 3 + T 7 = 13: a plain Bow fails to
    // wound; with the heads, 14 wounds. Ours: the heads are for arrows and bolts, so the same
    // hero's Sling gains nothing.
    let rules = duel();
    let dice = ["3", "3", "3", "3"];
    let heads = shot(&rules, "Hunter", "Bare", "Bow", 0, &dice, |_| {});
    assert!(
        has_said(&heads, "the shot wounds (14 against 13)"),
        "{:?}",
        said(&heads)
    );
    let plain = shot(&rules, "Archer", "Bare", "Bow", 0, &dice, |_| {});
    assert!(
        has_said(&plain, "the shot fails to wound (12 against 13)"),
        "{:?}",
        said(&plain)
    );
    let sling = shot(&rules, "Hunter", "Bare", "Sling", 0, &dice, |_| {});
    assert!(
        has_said(&sling, "the shot fails to wound (12 against 13)"),
        "{:?}",
        said(&sling)
    );
}

#[test]
fn arrowheads_found_on_a_loot_test_act_on_the_bow() {
    // 003 L2066-2068: a Loot test's 4, then 2d6 on the numbered equipment: 6 + 6 is 12, the
    // Arrowheads and boltheads (L1963), whose kind the player picks (ours). Hunting: the
    // Archer's next wound roll (the dice of the test above) wounds at 14 against 13.
    let rules = duel();
    let begun = start(&rules);
    let loot = frame(
        "loot",
        &[
            ("player", Value::Player(owner(begun.state(), "Archer"))),
            ("fighter", id(begun.state(), "Archer")),
        ],
    );
    let frames = vec![loot, shot_frame(&rules, "Archer", "Bare", "Bow", 0)];
    let mut game = run(
        &rules,
        frames,
        &["4", "6", "6", "3", "3", "3", "3"],
        |ctx| {
            stand(ctx, "Archer", 3500, 2000, (0, 1));
            stand(ctx, "Loot 1", 3500, 2000, (0, 1));
            stand(ctx, "Bare", 3500, 4000, (0, -1));
        },
    );
    assert_eq!(
        offered(&game),
        [
            "Armour-piercing arrowheads",
            "Incendiary arrowheads",
            "Hunting arrowheads"
        ]
    );
    choose(&mut game, "Hunting arrowheads");
    assert_eq!(
        counter(game.state(), "Archer", "loot_gear"),
        (1 << 12) | (1 << 18)
    );
    assert!(
        has_said(&game, "the shot wounds (14 against 13)"),
        "{:?}",
        said(&game)
    );
}

// ------------------------------------------------------------------------------------
// The Mask of Assassins (003 L1967-1969)
// ------------------------------------------------------------------------------------

#[test]
fn the_mask_is_heavy_armour_on_the_head_to_the_front_only() {
    // 003 L1969: heavy armour (save 5+, L1890) on the head, working only to the front. A
    // Power Strike at the head: 4 + 4 + S 7 against 3 + 2 + T 7, 3 damage. Masked, struck
    // from the front: the armour dice 5, 2, 3 halve it to 2, and the Mask, a helmet there
    // (ours), stops the stun roll (L448-450, L1899). Bare, with the same dice: 3 damage and
    // stunned by the 5. Masked struck from behind: no armour, 3 damage, stunned.
    let rules = duel();
    let dice = ["4", "4", "3", "2", "5", "2", "3"];
    let mut front = fight(&rules, "Brute", "Masked", "", false, &dice);
    at_the_head(&mut front, SWORD);
    assert!(
        has_said(&front, "armour halves the damage"),
        "{:?}",
        said(&front)
    );
    assert_eq!(damage(front.state(), "Masked"), 2);
    assert!(!has_said(&front, "is stunned"));
    let mut bare = fight(&rules, "Brute", "Bare", "", false, &dice);
    at_the_head(&mut bare, SWORD);
    assert_eq!(damage(bare.state(), "Bare"), 3);
    assert!(has_said(&bare, "is stunned"), "{:?}", said(&bare));
    let mut behind = fight(&rules, "Brute", "Masked", "", true, &dice);
    at_the_head(&mut behind, SWORD);
    assert!(!has_said(&behind, "armour halves the damage"));
    assert_eq!(damage(behind.state(), "Masked"), 3);
    assert!(has_said(&behind, "is stunned"), "{:?}", said(&behind));
}

#[test]
fn the_mask_is_tested_against_a_gladiator_who_ignores_a_helmet() {
    // 003 L1969: the Mask's test is made whatever the weapon, attack or ability; the
    // Gladiator's Weak Spot (L1218) takes away every other armour's. The same Power Strike
    // (3 damage): Helm's Heavy helmet is not tested, the Mask is, and halves it.
    let rules = duel();
    let dice = ["4", "4", "3", "2", "5", "2", "3"];
    let mut helm = fight(&rules, "Glad", "Helm", "", false, &dice);
    at_the_head(&mut helm, SWORD);
    assert!(
        !has_said(&helm, "armour halves the damage"),
        "{:?}",
        said(&helm)
    );
    assert_eq!(damage(helm.state(), "Helm"), 3);
    let mut masked = fight(&rules, "Glad", "Masked", "", false, &dice);
    at_the_head(&mut masked, SWORD);
    assert!(
        has_said(&masked, "armour halves the damage"),
        "{:?}",
        said(&masked)
    );
    assert_eq!(damage(masked.state(), "Masked"), 2);
}

#[test]
fn the_mask_halves_a_shot_at_the_head_from_the_front() {
    // 003 L1969 with L552 (a hit location is rolled against armour): the Masked hero has no
    // other armour, yet a shot from the front rolls a location, 5 the head, and the armour
    // dice 5, 2, 3 halve the 4 damage (aimed +3) to 2. The Bare hero and the Masked hero
    // shot from behind take the 4.
    let rules = duel();
    let dice = ["6", "6", "1", "1", "5", "5", "2", "3"];
    let front = shot(&rules, "Archer", "Masked", "Bow", 3, &dice, |_| {});
    assert!(
        has_said(&front, "armour halves the damage"),
        "{:?}",
        said(&front)
    );
    assert_eq!(damage(front.state(), "Masked"), 2);
    let bare = shot(&rules, "Archer", "Bare", "Bow", 3, &dice, |_| {});
    assert_eq!(damage(bare.state(), "Bare"), 4);
    let behind = shot(&rules, "Archer", "Masked", "Bow", 3, &dice, |ctx| {
        stand(ctx, "Masked", 3500, 4000, (0, 1));
    });
    assert!(!has_said(&behind, "armour halves the damage"));
    assert_eq!(damage(behind.state(), "Masked"), 4);
}

#[test]
fn the_mask_gives_its_wearer_fear_on_the_charge() {
    // 003 L1969: the wearer gains Fear; charged by a model with Fear, a hero cannot parry
    // (L802): its attacker chooses the location openly. Bare's charge asks both players for
    // the secret guess (L392); Masked's asks only the attacker.
    let rules = duel();
    let masked = fight(&rules, "Masked", "Brute", "charge", false, &[]);
    assert_eq!(masked.pending().len(), 1, "{:?}", said(&masked));
    assert_eq!(
        pending(&masked).expect("a request").player,
        owner(masked.state(), "Masked")
    );
    assert!(offered(&masked).contains(&format!("{SWORD} / head")));
    let bare = fight(&rules, "Bare", "Brute", "charge", false, &[]);
    assert_eq!(bare.pending().len(), 2, "{:?}", said(&bare));
}

// ------------------------------------------------------------------------------------
// The Fortune teller with three players (003 L1436, L2162)
// ------------------------------------------------------------------------------------

/// The three test parties at one table: the Hunters (with the Fortune teller), the Blades
/// and the Rivals, in seats 0, 1 and 2.
fn three_parties() -> RulesetGame {
    let file = fixture_file("gear-three", PARTIES);
    let choice = gloam::sim::MatchChoice {
        parties: vec![
            "Test Hunters".to_owned(),
            "Test Blades".to_owned(),
            "Test Rivals".to_owned(),
        ],
        ..gloam::sim::MatchChoice::default()
    };
    gloam::sim::prepare_match(&[cards_dir(), file], "umbra_turris", 3, &choice).expect("the match")
}

#[test]
fn a_fortune_teller_re_rolls_the_initiative_with_three_players() {
    // 003 L2162: every player rolls for the initiative (L236: d6 + the Leader's LD, 7 each);
    // L1436: the Fortune teller of a Good or Neutral party lets its Leader re-roll with +1 or
    // -1. The Hunters roll 2, the Blades 5, the Rivals 4: the Hunters re-roll, 6 + 1, and
    // activate first (14 against 12 and 11). Evil, their Fortune teller gives no re-roll and
    // the Blades activate first, the Hunters last.
    let rules = three_parties();
    let arrange = |alignment: i64| {
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, "Warden", 1000, 1000, (1, 1));
            stand(ctx, "Fort", 2000, 1000, (1, 1));
            stand(ctx, "Blade", 6000, 1000, (-1, 1));
            stand(ctx, "Rival Chief", 6000, 6000, (-1, -1));
            let seat = ctx.state().pieces[&piece(ctx.state(), "Warden")].owner;
            ctx.set_counter(Scope::Player(seat), "alignment", alignment)
                .expect("alignment");
        }
    };
    let hunters = owner(start(&rules).state(), "Warden");
    let blades = owner(start(&rules).state(), "Blade");
    let mut neutral = run(
        &rules,
        vec![frame("placement", &[])],
        &["2", "5", "4", "6"],
        arrange(3),
    );
    assert_eq!(pending(&neutral).expect("asked").player, hunters);
    assert_eq!(
        offered(&neutral),
        ["re-roll the initiative (Fortune teller)", "keep the roll"]
    );
    choose(&mut neutral, "re-roll the initiative (Fortune teller)");
    choose(&mut neutral, "+1");
    assert!(
        has_said(&neutral, "re-rolls the initiative (Fortune teller): 6 +1"),
        "{:?}",
        said(&neutral)
    );
    assert_eq!(player_counter(neutral.state(), hunters, "turn_order"), 1);
    assert_eq!(player_counter(neutral.state(), blades, "turn_order"), 2);
    assert_eq!(pending(&neutral).expect("the turn").player, hunters);
    let evil = run(
        &rules,
        vec![frame("placement", &[])],
        &["2", "5", "4", "6"],
        arrange(5),
    );
    assert!(!has_said(&evil, "Fortune teller"), "{:?}", said(&evil));
    assert_eq!(player_counter(evil.state(), blades, "turn_order"), 1);
    assert_eq!(player_counter(evil.state(), hunters, "turn_order"), 3);
}

// ------------------------------------------------------------------------------------
// Blessing and Torment outside close combat (003 L1554, L1601)
// ------------------------------------------------------------------------------------

/// `shooter` shoots `target`, 20 cm in front of it (step `shoot`), without aiming.
fn shooting(
    rules: &RulesetGame,
    shooter: &'static str,
    target: &'static str,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let begun = start(rules);
    let state = begun.state();
    let frames = vec![frame(
        "shoot",
        &[
            ("player", Value::Player(owner(state, shooter))),
            ("fighter", id(state, shooter)),
            ("data", Value::Str(String::new())),
        ],
    )];
    let mut game = run(rules, frames, dice, move |ctx| {
        stand(ctx, shooter, 3500, 2000, (0, 1));
        stand(ctx, target, 3500, 4000, (0, -1));
        arrange(ctx);
    });
    choose(&mut game, target);
    choose(&mut game, "no aiming");
    game
}

#[test]
fn a_blessing_dice_re_rolls_a_1_on_a_shots_hit_roll() {
    // 003 L1554: a 1 rolled in combat may be re-rolled with a Blessing Dice, and a 5+ gives
    // the die back (ours: shooting is combat too). The hit roll's 1 misses (L518); with a
    // Blessing Dice the re-roll, 5, hits and the die comes back.
    let rules = duel();
    let dice = ["1", "5", "3", "3", "3", "3"];
    let mut blessed = shooting(&rules, "Archer", "Bare", &dice, |ctx| {
        set_seat(ctx, "Archer", "blessing", 1);
    });
    assert_eq!(offered(&blessed), ["re-roll it (Blessing Dice)", "keep it"]);
    choose(&mut blessed, "re-roll it (Blessing Dice)");
    assert!(
        has_said(&blessed, "re-rolls the hit roll with a Blessing Dice: 5"),
        "{:?}",
        said(&blessed)
    );
    assert!(has_said(&blessed, "hits Bare (5, needing 2+)"));
    let seat = owner(blessed.state(), "Archer");
    assert_eq!(player_counter(blessed.state(), seat, "blessing"), 1);
    let plain = shooting(&rules, "Archer", "Bare", &dice, |_| {});
    assert!(
        has_said(&plain, "misses (1, needing 2+)"),
        "{:?}",
        said(&plain)
    );
}

#[test]
fn a_torment_dice_re_rolls_the_armour_test_against_a_shot() {
    // 003 L1601: a Torment Dice re-rolls any die, the second result standing. The shot
    // wounds (6 + 6 against 1 + 1), aimed +3, 4 damage at the body (3), where Mailed's Chain
    // shirt saves on 6 (L1888): the armour dice 2, 3, 4 fail; with a Torment Dice the Blades
    // keep their wound roll and re-roll the first armour die, 6, which halves the damage.
    let rules = duel();
    let dice = ["6", "6", "1", "1", "3", "2", "3", "4", "6"];
    let mut torment = shot(&rules, "Archer", "Mailed", "Bow", 3, &dice, |ctx| {
        set_seat(ctx, "Mailed", "torment", 1);
    });
    choose(&mut torment, "keep the roll");
    assert_eq!(
        offered(&torment),
        [
            "keep the roll",
            "re-roll die 1 (2) with a Torment Dice",
            "re-roll die 2 (3) with a Torment Dice",
            "re-roll die 3 (4) with a Torment Dice"
        ]
    );
    choose(&mut torment, "re-roll die 1 (2) with a Torment Dice");
    assert!(
        has_said(&torment, "armour halves the damage"),
        "{:?}",
        said(&torment)
    );
    assert_eq!(damage(torment.state(), "Mailed"), 2);
    let plain = shot(&rules, "Archer", "Mailed", "Bow", 3, &dice, |_| {});
    assert_eq!(damage(plain.state(), "Mailed"), 4);
}

#[test]
fn a_torment_dice_re_rolls_a_loot_test_and_a_spot_test() {
    // 003 L1601 ("re-roll any dice"): the Loot test's 1 costs a Wound (L2058); re-rolled with
    // a Torment Dice, the 3 gives 2 W back instead (L2064). The Spot test's 2 fails (L364:
    // 4+); re-rolled, the 5 spots the hidden Bare.
    let rules = duel();
    let begun = start(&rules);
    let loot = |torment: i64| {
        let vars = [
            ("player", Value::Player(owner(begun.state(), "Archer"))),
            ("fighter", id(begun.state(), "Archer")),
        ];
        run(
            &rules,
            vec![frame("loot", &vars)],
            &["1", "3"],
            move |ctx| {
                stand(ctx, "Archer", 3500, 2000, (0, 1));
                stand(ctx, "Loot 1", 3500, 2000, (0, 1));
                set(ctx, "Archer", "damage", 3);
                set_seat(ctx, "Archer", "torment", torment);
            },
        )
    };
    let mut tormented = loot(1);
    choose(&mut tormented, "re-roll it with a Torment Dice");
    assert!(
        has_said(&tormented, "searches the loot and rolls 3"),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(damage(tormented.state(), "Archer"), 1);
    let plain = loot(0);
    assert!(has_said(&plain, "searches the loot and rolls 1"));
    assert_eq!(damage(plain.state(), "Archer"), 4);
    let spot = |torment: i64| {
        let vars = [
            ("player", Value::Player(owner(begun.state(), "Archer"))),
            ("fighter", id(begun.state(), "Archer")),
        ];
        let mut game = run(
            &rules,
            vec![frame("spot", &vars)],
            &["2", "5"],
            move |ctx| {
                stand(ctx, "Archer", 3500, 2000, (0, 1));
                stand(ctx, "Bare", 3500, 4000, (0, -1));
                let bare = piece(ctx.state(), "Bare");
                ctx.set_tokens(Scope::Piece(bare), "hidden", 1)
                    .expect("hidden");
                set_seat(ctx, "Archer", "torment", torment);
            },
        );
        choose(&mut game, "Bare");
        game
    };
    let mut tormented = spot(1);
    choose(&mut tormented, "re-roll it with a Torment Dice");
    assert!(has_said(&tormented, "spots Bare"), "{:?}", said(&tormented));
    assert_eq!(tokens(tormented.state(), "Bare", "hidden"), 0);
    let plain = spot(0);
    assert!(has_said(&plain, "fails to spot Bare"), "{:?}", said(&plain));
    assert_eq!(tokens(plain.state(), "Bare", "hidden"), 1);
}

#[test]
fn a_torment_dice_re_rolls_the_spirit_table() {
    // 003 L1601 with L1370-1380: the Shaman's Ritual rolls on the Spirit Table; 1 costs him a
    // Wound more. Re-rolled with a Torment Dice, the 6 gives the Ritual's Wound back.
    let rules = duel();
    let begun = start(&rules);
    let ritual = |torment: i64| {
        let vars = [
            ("player", Value::Player(owner(begun.state(), "Archer"))),
            ("fighter", id(begun.state(), "Archer")),
        ];
        run(
            &rules,
            vec![frame("spirits", &vars)],
            &["1", "6"],
            move |ctx| {
                stand(ctx, "Archer", 3500, 2000, (0, 1));
                set_seat(ctx, "Archer", "torment", torment);
            },
        )
    };
    let mut tormented = ritual(1);
    choose(&mut tormented, "re-roll it with a Torment Dice");
    assert!(
        has_said(&tormented, "consults the spirits (6)"),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(damage(tormented.state(), "Archer"), 0);
    let plain = ritual(0);
    assert!(
        has_said(&plain, "consults the spirits (1)"),
        "{:?}",
        said(&plain)
    );
    assert!(damage(plain.state(), "Archer") >= 1);
}

// ------------------------------------------------------------------------------------
// The professions' other rolls: False Prophet (003 L1206), Cleric (L1240), Witch Hunter
// (L1254)
// ------------------------------------------------------------------------------------

#[test]
fn a_false_prophet_may_curse_an_enemys_armour_tests() {
    // 003 L1206: -2 to any roll of the enemy's, chosen by the Prophet's player (ours: one
    // kind of his rolls, now his hit rolls, armour tests, Spot tests and shield tests too).
    // No legal party holds a False Prophet (docs/umbra-turris.md): his card is given to Brute.
    let rules = duel();
    let begun = start(&rules);
    let vars = [
        ("player", Value::Player(owner(begun.state(), "Brute"))),
        ("fighter", id(begun.state(), "Brute")),
    ];
    let mut vision = run(
        &rules,
        vec![frame("accursed_visions", &vars)],
        &["3"],
        |ctx| {
            teach(ctx, "Brute", "False Prophet");
            stand(ctx, "Brute", 3500, 2000, (0, 1));
            stand(ctx, "Helm", 3500, 4000, (0, -1));
        },
    );
    choose(&mut vision, "Helm");
    for roll in [
        "his hit rolls",
        "his armour tests",
        "his Spot tests",
        "his shield tests",
    ] {
        assert!(offered(&vision).contains(&roll.to_owned()), "{roll}");
    }
    choose(&mut vision, "his armour tests");
    assert_eq!(counter(vision.state(), "Helm", "cursed_roll"), 5);
    assert_eq!(tokens(vision.state(), "Helm", "cursed"), 1);
    // Brute's Power Strike at the head, 3 damage; Helm's Heavy helmet saves on 5+ (L1890),
    // a Soldier's +1 (L1448): the armour die 5 holds (6), halving it to 2; cursed, 4 fails.
    let dice = ["4", "4", "3", "2", "5", "2", "3"];
    let fight_helm = |curse: bool| {
        let begun = start(&rules);
        let state = begun.state();
        let frames = vec![frame(
            "fight",
            &[
                ("player", Value::Player(owner(state, "Brute"))),
                ("fighter", id(state, "Brute")),
                ("target", id(state, "Helm")),
                ("data", Value::Str(String::new())),
            ],
        )];
        let mut game = run(&rules, frames, &dice, move |ctx| {
            stand(ctx, "Brute", 3500, 3000, (0, 1));
            stand(ctx, "Helm", 3500, 3250, (0, -1));
            if curse {
                cursed(ctx, "Helm", 5);
            }
        });
        at_the_head(&mut game, SWORD);
        game
    };
    let plain = fight_helm(false);
    assert!(
        has_said(&plain, "armour halves the damage"),
        "{:?}",
        said(&plain)
    );
    assert_eq!(damage(plain.state(), "Helm"), 2);
    let curse = fight_helm(true);
    assert!(
        !has_said(&curse, "armour halves the damage"),
        "{:?}",
        said(&curse)
    );
    assert_eq!(damage(curse.state(), "Helm"), 3);
}

#[test]
fn a_false_prophet_may_curse_an_enemys_hit_rolls() {
    // 003 L1206 with L510-518: Bare 17.5 cm away, the Difficulty Level 2+; the hit die 2 hits,
    // and misses at -2.
    let rules = duel();
    let dice = ["2", "3", "3", "3", "3"];
    let plain = shooting(&rules, "Archer", "Bare", &dice, |_| {});
    assert!(
        has_said(&plain, "hits Bare (2, needing 2+)"),
        "{:?}",
        said(&plain)
    );
    let curse = shooting(&rules, "Archer", "Bare", &dice, |ctx| {
        cursed(ctx, "Archer", 4)
    });
    assert!(
        has_said(&curse, "misses (2, needing 2+)"),
        "{:?}",
        said(&curse)
    );
}

#[test]
fn a_clerics_prayer_re_rolls_a_failed_armour_test() {
    // 003 L1240: the prayer lets a friend re-roll any one dice (ours: a failed armour test's
    // lowest die). Brute's Power Strike at the head, 3 damage; Helm's armour dice 1, 2, 3 fail
    // (5+, +1 for a Soldier); blessed, the 1 is rolled again, 6, and the damage is halved.
    let rules = duel();
    let dice = ["4", "4", "3", "2", "1", "2", "3", "6"];
    let fight_helm = |blessed: bool| {
        let begun = start(&rules);
        let state = begun.state();
        let frames = vec![frame(
            "fight",
            &[
                ("player", Value::Player(owner(state, "Brute"))),
                ("fighter", id(state, "Brute")),
                ("target", id(state, "Helm")),
                ("data", Value::Str(String::new())),
            ],
        )];
        let mut game = run(&rules, frames, &dice, move |ctx| {
            stand(ctx, "Brute", 3500, 3000, (0, 1));
            stand(ctx, "Helm", 3500, 3250, (0, -1));
            if blessed {
                let helm = piece(ctx.state(), "Helm");
                ctx.set_tokens(Scope::Piece(helm), "blessed", 1)
                    .expect("blessed");
            }
        });
        at_the_head(&mut game, SWORD);
        game
    };
    let mut blessed = fight_helm(true);
    assert_eq!(
        offered(&blessed),
        ["re-roll the lowest armour die", "keep the result"]
    );
    choose(&mut blessed, "re-roll the lowest armour die");
    assert!(
        has_said(&blessed, "re-rolls an armour die (the Cleric's prayer): 6"),
        "{:?}",
        said(&blessed)
    );
    assert_eq!(damage(blessed.state(), "Helm"), 2);
    assert_eq!(tokens(blessed.state(), "Helm", "blessed"), 0);
    let plain = fight_helm(false);
    assert!(
        !has_said(&plain, "armour halves the damage"),
        "{:?}",
        said(&plain)
    );
    assert_eq!(damage(plain.state(), "Helm"), 3);
}

#[test]
fn a_witch_hunter_with_a_soldier_near_adds_2_to_his_hit_roll() {
    // 003 L1254: once per turn for each Acolyte or Soldier within 20 cm, +2 or -2 to a dice
    // roll (ours: a shot's hit roll too). Bare 32.5 cm away: the Difficulty Level 3+ (L510);
    // the hit die 2 misses, +2 hits. The Witch Hunter's and the Soldier's cards are given to
    // Archer and Brute.
    let rules = duel();
    let dice = ["2", "3", "3", "3", "3"];
    let hunter = |soldier: bool| {
        shooting(&rules, "Archer", "Bare", &dice, move |ctx| {
            teach(ctx, "Archer", "Witch Hunter");
            stand(ctx, "Bare", 3500, 5500, (0, -1));
            if soldier {
                teach(ctx, "Brute", "Soldier");
                stand(ctx, "Brute", 4500, 2000, (0, 1));
            }
        })
    };
    let mut near = hunter(true);
    assert_eq!(offered(&near), ["+2 to my hit roll", "no"]);
    choose(&mut near, "+2 to my hit roll");
    assert!(
        has_said(&near, "hits Bare (2, needing 3+)"),
        "{:?}",
        said(&near)
    );
    let alone = hunter(false);
    assert!(
        has_said(&alone, "misses (2, needing 3+)"),
        "{:?}",
        said(&alone)
    );
}

/// Brute strikes at Guard's head (step `fight`), face to face: Guard, with no Action Dice,
/// tests his Wooden shield (6+, L1892) before the strike; `arrange` after the stands.
fn at_the_shield(
    rules: &RulesetGame,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let begun = start(rules);
    let state = begun.state();
    let frames = vec![frame(
        "fight",
        &[
            ("player", Value::Player(owner(state, "Brute"))),
            ("fighter", id(state, "Brute")),
            ("target", id(state, "Guard")),
            ("data", Value::Str(String::new())),
        ],
    )];
    let mut game = run(rules, frames, dice, move |ctx| {
        stand(ctx, "Brute", 3500, 3000, (0, 1));
        stand(ctx, "Guard", 3500, 3250, (0, -1));
        arrange(ctx);
    });
    let asked: Vec<PlayerId> = game.pending().iter().map(|r| r.player).collect();
    for (who, text) in [
        (asked[0], format!("{SWORD} / head")),
        (asked[1], "legs".into()),
    ] {
        game.submit(who, gloam::core::Answer::One(Choice::Option(text)))
            .unwrap_or_else(|error| panic!("{error}"));
    }
    game
}

/// Archer tries to spot the hidden Bare 20 cm away (step `spot`).
fn spotting(
    rules: &RulesetGame,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let begun = start(rules);
    let vars = [
        ("player", Value::Player(owner(begun.state(), "Archer"))),
        ("fighter", id(begun.state(), "Archer")),
    ];
    let mut game = run(rules, vec![frame("spot", &vars)], dice, move |ctx| {
        stand(ctx, "Archer", 3500, 2000, (0, 1));
        stand(ctx, "Bare", 3500, 4000, (0, -1));
        let bare = piece(ctx.state(), "Bare");
        ctx.set_tokens(Scope::Piece(bare), "hidden", 1)
            .expect("hidden");
        arrange(ctx);
    });
    choose(&mut game, "Bare");
    game
}

#[test]
fn a_false_prophet_may_curse_an_enemys_spot_and_shield_tests() {
    // 003 L1206: -2 to the cursed hero's Spot tests (L364: 4+) and shield tests (L1907: the
    // Wooden shield on 6+). The Spot die 4 finds Bare, cursed it does not; the shield die 6
    // takes the blow, cursed (4) it fails.
    let rules = duel();
    let plain = spotting(&rules, &["4"], |_| {});
    assert!(has_said(&plain, "spots Bare"), "{:?}", said(&plain));
    let curse = spotting(&rules, &["4"], |ctx| cursed(ctx, "Archer", 6));
    assert!(has_said(&curse, "fails to spot Bare"), "{:?}", said(&curse));
    let plain = at_the_shield(&rules, &["6"], |_| {});
    assert!(
        has_said(&plain, "takes the blow on the shield (6)"),
        "{:?}",
        said(&plain)
    );
    let curse = at_the_shield(&rules, &["6"], |ctx| cursed(ctx, "Guard", 7));
    assert!(
        has_said(&curse, "fails to block with the shield (4)"),
        "{:?}",
        said(&curse)
    );
}

#[test]
fn a_clerics_prayer_re_rolls_a_shield_or_spot_test_or_a_loot_test() {
    // 003 L1240 ("re-roll any one dice"; ours: a failed shield or Spot test, a Loot test
    // whatever it shows). The shield die 3 fails, the prayer's 6 takes the blow; the Spot die
    // 2 fails, the prayer's 5 finds Bare; the Loot test's 1 rolled again, 3.
    let rules = duel();
    let bless = |kind: &'static str| {
        move |ctx: &mut Ctx<'_>| {
            let id = piece(ctx.state(), kind);
            ctx.set_tokens(Scope::Piece(id), "blessed", 1)
                .expect("blessed");
        }
    };
    let mut shield = at_the_shield(&rules, &["3", "6"], bless("Guard"));
    choose(&mut shield, "re-roll the shield test");
    assert!(
        has_said(&shield, "takes the blow on the shield (6)"),
        "{:?}",
        said(&shield)
    );
    let plain = at_the_shield(&rules, &["3", "6"], |_| {});
    assert!(has_said(&plain, "fails to block with the shield (3)"));
    let mut spot = spotting(&rules, &["2", "5"], bless("Archer"));
    choose(&mut spot, "re-roll the Spot test (the Cleric's prayer)");
    assert!(has_said(&spot, "spots Bare"), "{:?}", said(&spot));
    let plain = spotting(&rules, &["2", "5"], |_| {});
    assert!(has_said(&plain, "fails to spot Bare"));
    let begun = start(&rules);
    let vars = [
        ("player", Value::Player(owner(begun.state(), "Archer"))),
        ("fighter", id(begun.state(), "Archer")),
    ];
    let blessed = bless("Archer");
    let mut loot = run(
        &rules,
        vec![frame("loot", &vars)],
        &["1", "3"],
        move |ctx| {
            stand(ctx, "Archer", 3500, 2000, (0, 1));
            stand(ctx, "Loot 1", 3500, 2000, (0, 1));
            blessed(ctx);
        },
    );
    choose(&mut loot, "re-roll the Loot test (the Cleric's prayer)");
    assert!(
        has_said(&loot, "searches the loot and rolls 3"),
        "{:?}",
        said(&loot)
    );
}

#[test]
fn a_witch_hunter_with_a_soldier_near_adds_2_to_his_armour_test() {
    // 003 L1254 (ours: an armour test too). Brute's Power Strike at Helm's head, 3 damage; the
    // armour dice 1, 2, 3 fail (5+, a Soldier's +1). Helm, given the Witch Hunter's card, with
    // Bare (given the Soldier's) 10 cm away: +2, the 3 holds and the damage is halved.
    let rules = duel();
    let dice = ["4", "4", "3", "2", "1", "2", "3"];
    let fight_helm = |soldier: bool| {
        let begun = start(&rules);
        let state = begun.state();
        let frames = vec![frame(
            "fight",
            &[
                ("player", Value::Player(owner(state, "Brute"))),
                ("fighter", id(state, "Brute")),
                ("target", id(state, "Helm")),
                ("data", Value::Str(String::new())),
            ],
        )];
        let mut game = run(&rules, frames, &dice, move |ctx| {
            stand(ctx, "Brute", 3500, 3000, (0, 1));
            stand(ctx, "Helm", 3500, 3250, (0, -1));
            teach(ctx, "Helm", "Witch Hunter");
            if soldier {
                teach(ctx, "Bare", "Soldier");
                stand(ctx, "Bare", 4500, 3250, (0, -1));
            }
        });
        at_the_head(&mut game, SWORD);
        game
    };
    let mut near = fight_helm(true);
    // Asked first for the Strike (L1254's use as built before), declined.
    assert_eq!(offered(&near), ["-2 to the enemy's strike", "no"]);
    choose(&mut near, "no");
    choose(&mut near, "+2 to my armour test");
    assert!(
        has_said(&near, "armour halves the damage"),
        "{:?}",
        said(&near)
    );
    assert_eq!(damage(near.state(), "Helm"), 2);
    let alone = fight_helm(false);
    assert!(
        !has_said(&alone, "armour halves the damage"),
        "{:?}",
        said(&alone)
    );
    assert_eq!(damage(alone.state(), "Helm"), 3);
}

#[test]
fn a_blessing_dice_re_rolls_a_stun_roll_of_1() {
    // 003 L1554 with L448-450: a head hit stuns on 5+; the attacker's stun roll is a roll in
    // combat, so a 1 may be re-rolled with a Blessing Dice (ours). Brute's Power Strike (4 + 4
    // against 3 + 2) lands on Bare's bare head; the stun roll 1, re-rolled 5, stuns.
    let rules = duel();
    let dice = ["4", "4", "3", "2", "1", "5"];
    let blessed = |blessing: i64| {
        let begun = start(&rules);
        let state = begun.state();
        let frames = vec![frame(
            "fight",
            &[
                ("player", Value::Player(owner(state, "Brute"))),
                ("fighter", id(state, "Brute")),
                ("target", id(state, "Bare")),
                ("data", Value::Str(String::new())),
            ],
        )];
        let mut game = run(&rules, frames, &dice, move |ctx| {
            stand(ctx, "Brute", 3500, 3000, (0, 1));
            stand(ctx, "Bare", 3500, 3250, (0, -1));
            set_seat(ctx, "Brute", "blessing", blessing);
        });
        at_the_head(&mut game, SWORD);
        game
    };
    let mut game = blessed(1);
    choose(&mut game, "re-roll it (Blessing Dice)");
    assert!(has_said(&game, "is stunned"), "{:?}", said(&game));
    assert_eq!(tokens(game.state(), "Bare", "stunned"), 1);
    let plain = blessed(0);
    assert!(!has_said(&plain, "is stunned"), "{:?}", said(&plain));
}

#[test]
fn a_torment_dice_re_rolls_an_initiative_die_and_an_order_test() {
    // 003 L1601 ("re-roll any dice"; ours: the initiative die, L236, and an order test, L774).
    // The Hunters roll 5, the Blades 2 (each + LD 7): the Blades' Torment Dice re-rolls the 2,
    // 6, and they win the initiative.
    let rules = duel();
    let blades = owner(start(&rules).state(), "Blade");
    let hunters = owner(start(&rules).state(), "Warden");
    let initiative = |torment: i64| {
        run(
            &rules,
            vec![frame("placement", &[])],
            &["5", "2", "6"],
            move |ctx| {
                stand(ctx, "Warden", 3500, 1000, (0, 1));
                stand(ctx, "Blade", 3500, 6000, (0, -1));
                set_seat(ctx, "Blade", "torment", torment);
            },
        )
    };
    let mut tormented = initiative(1);
    choose(&mut tormented, "re-roll it with a Torment Dice");
    assert!(
        has_said(
            &tormented,
            "re-rolls the initiative die with a Torment Dice: 6"
        ),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(pending(&tormented).expect("the turn").player, blades);
    let plain = initiative(0);
    assert_eq!(pending(&plain).expect("the turn").player, hunters);
    // The Warden orders Mark, 15 cm away (L774: 4+). The order die 2 fails and Faith (a
    // Borian, L920) rolls it again, 3: no Action Dice. With a Torment Dice the 2 is re-rolled
    // first (3), then Faith's re-roll, 5, gives the die.
    let begun = start(&rules);
    let vars = [
        ("player", Value::Player(hunters)),
        ("fighter", id(begun.state(), "Warden")),
    ];
    let order = |torment: i64| {
        let mut game = run(
            &rules,
            vec![frame("order", &vars)],
            &["2", "3", "5"],
            move |ctx| {
                stand(ctx, "Warden", 3500, 1000, (0, 1));
                stand(ctx, "Mark", 5250, 1000, (0, 1));
                set_seat(ctx, "Warden", "torment", torment);
            },
        );
        choose(&mut game, "Mark");
        game
    };
    let mut tormented = order(1);
    choose(&mut tormented, "re-roll it with a Torment Dice");
    assert!(
        has_said(&tormented, "re-rolls the order test with a Torment Dice: 3"),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(tokens(tormented.state(), "Mark", "action_die"), 1);
    let plain = order(0);
    assert_eq!(
        tokens(plain.state(), "Mark", "action_die"),
        0,
        "{:?}",
        said(&plain)
    );
}

#[test]
fn a_witch_hunter_takes_2_from_a_magic_test_cast_at_him() {
    // 003 L1254 (ours: the Magic Test of a spell cast at him, L610). Archer, taught Daze
    // (chance 3, L642), casts it at Bare, who holds the Witch Hunter's card with Helm, a
    // Soldier, 10 cm away: the 3 passes, -2 fails. Without Helm on the table it passes.
    let rules = duel();
    let begun = start(&rules);
    let vars = [
        ("player", Value::Player(owner(begun.state(), "Archer"))),
        ("fighter", id(begun.state(), "Archer")),
    ];
    let daze = |soldier: bool| {
        let mut game = run(&rules, vec![frame("cast", &vars)], &["3"], move |ctx| {
            teach(ctx, "Archer", "Daze");
            teach(ctx, "Bare", "Witch Hunter");
            stand(ctx, "Archer", 3500, 2000, (0, 1));
            stand(ctx, "Bare", 3500, 4000, (0, -1));
            if soldier {
                stand(ctx, "Helm", 4500, 4000, (0, -1));
            }
        });
        choose(&mut game, "Daze");
        choose(&mut game, "Bare");
        game
    };
    let mut near = daze(true);
    assert_eq!(offered(&near), ["-2 to the enemy's Magic Test", "no"]);
    choose(&mut near, "-2 to the enemy's Magic Test");
    assert_eq!(
        tokens(near.state(), "Bare", "dazed"),
        0,
        "{:?}",
        said(&near)
    );
    let alone = daze(false);
    assert_eq!(
        tokens(alone.state(), "Bare", "dazed"),
        1,
        "{:?}",
        said(&alone)
    );
}

#[test]
fn a_torment_dice_re_rolls_the_herbs_the_talisman_and_a_stubborn_test() {
    // 003 L1601 ("re-roll any dice"; ours: the Herbs' d6, L1933, the Talisman of Destiny's,
    // L1937, and a Stubborn test's 2d6, L842-844). Archer found the Herbs and the Talisman on
    // Loot tests (`loot_gear` bits 6 and 7).
    let rules = duel();
    let begun = start(&rules);
    let archer = owner(begun.state(), "Archer");
    let gear = |ctx: &mut Ctx<'_>, torment: i64| {
        stand(ctx, "Archer", 3500, 3000, (0, 1));
        stand(ctx, "Bare", 3500, 3250, (0, -1));
        set(ctx, "Archer", "loot_gear", (1 << 6) | (1 << 7));
        set_seat(ctx, "Archer", "torment", torment);
    };
    // The Herbs: 2 fails (4+); re-rolled, 5 gives 2 W back.
    let herbs = |torment: i64| {
        let vars = [
            ("player", Value::Player(archer)),
            ("fighter", id(begun.state(), "Archer")),
            ("data", Value::Str("use the Herbs".into())),
        ];
        run(
            &rules,
            vec![frame("use_item", &vars)],
            &["2", "5"],
            move |ctx| {
                gear(ctx, torment);
                set(ctx, "Archer", "damage", 3);
            },
        )
    };
    let mut tormented = herbs(1);
    choose(&mut tormented, "re-roll it with a Torment Dice");
    assert_eq!(
        damage(tormented.state(), "Archer"),
        1,
        "{:?}",
        said(&tormented)
    );
    let plain = herbs(0);
    assert_eq!(damage(plain.state(), "Archer"), 3, "{:?}", said(&plain));
    // The Talisman, Archer losing 5 W in combat: 2 is in vain (4+); re-rolled, 4 spares 4.
    let talisman = |torment: i64| {
        let vars = [
            ("player", Value::Player(owner(begun.state(), "Bare"))),
            ("target", id(begun.state(), "Archer")),
            ("attacker", id(begun.state(), "Bare")),
            ("count", Value::Int(5)),
            ("data", Value::Str("combat".into())),
        ];
        let mut game = run(
            &rules,
            vec![frame("wound", &vars)],
            &["2", "4"],
            move |ctx| gear(ctx, torment),
        );
        choose(&mut game, "use the Talisman of Destiny");
        game
    };
    let mut tormented = talisman(1);
    choose(&mut tormented, "re-roll it with a Torment Dice");
    assert!(
        has_said(
            &tormented,
            "is spared by the Talisman of Destiny: 4 fewer W"
        ),
        "{:?}",
        said(&tormented)
    );
    assert_eq!(damage(tormented.state(), "Archer"), 1);
    let plain = talisman(0);
    assert_eq!(damage(plain.state(), "Archer"), 5, "{:?}", said(&plain));
    // Stubborn (L842-844): Archer, given the keyword, without an Action Dice, shot by Bare
    // for 1 W; 2 + 4 is below Sp 7; with a Torment Dice the 2 is re-rolled, 4, and the
    // second die is 3: 7, the Action Dice comes back.
    let stubborn = |torment: i64| {
        let vars = [
            ("player", Value::Player(owner(begun.state(), "Bare"))),
            ("target", id(begun.state(), "Archer")),
            ("attacker", id(begun.state(), "Bare")),
            ("count", Value::Int(1)),
            ("data", Value::Str("shot".into())),
        ];
        run(
            &rules,
            vec![frame("wound", &vars)],
            &["2", "4", "3"],
            move |ctx| {
                gear(ctx, torment);
                set(ctx, "Archer", "loot_gear", 0);
                let id = piece(ctx.state(), "Archer");
                ctx.set_keyword(id, "stubborn", true).expect("keyword");
            },
        )
    };
    let mut tormented = stubborn(1);
    choose(&mut tormented, "re-roll it with a Torment Dice");
    assert_eq!(
        tokens(tormented.state(), "Archer", "action_die"),
        1,
        "{:?}",
        said(&tormented)
    );
    let plain = stubborn(0);
    assert_eq!(
        tokens(plain.state(), "Archer", "action_die"),
        0,
        "{:?}",
        said(&plain)
    );
}
