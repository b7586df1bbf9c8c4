//! Harrowdeep combat, board and magic rules played from the data in cards/harrowdeep
//! (seed 002, rules digest section 3): the combat sequence (3.9) branch by branch, support
//! (3.10), Guard, Cleave and Ensnare (3.6, 3.11), cover (3.3), drive back and knockback
//! (3.7), Scything (3.6), the Stagger re-roll and the re-rolls cards give (3.11, 3.25),
//! outmanoeuvred attacks (3.9), line of sight and range (3.8), spells and backlash (3.17),
//! feature tokens, set-up and delve (3.4, 3.14) and the territory and edge queries (3.3).
//!
//! Each scenario starts a match of the shipped data, arranges the battlefield through the
//! kernel's `Ctx`, then runs chosen steps of the flow and answers its requests. Steps that
//! take rolled faces (`attack_result`, `casting_result`) are given the faces, so each branch
//! is reached without depending on the dice.

use std::path::PathBuf;

use gloam::core::{
    Choice, Ctx, Event, Frame, Game, GameState, Hex, Options, Position, Request, Scope, Value,
};
use gloam::engine::RulesetGame;
use gloam::sim::check_invariants;

mod scenario;
use scenario::{
    KREW, SEEKERS, Scenario, TWIN_CHANNEL, answer, card_named, cards_dir, damage, frame,
    game_counter, glory, hex_choices, id, modify, option, options, pending, piece, place, scenario,
    shipped, with_fixture,
};

const DRIVE_BACK: &str = "Drive the target back?";

fn rules() -> RulesetGame {
    shipped("harrowdeep")
}

/// Test-only cards (with the shared `TWIN_CHANNEL` spell): an upgrade (so that its effect
/// reads `this_fighter`, its bearer; a ploy's may not) that reports the
/// territory and edge queries as glory.
const FIXTURES: &str = r#"
card "Test Survey" {
    ruleset = "harrowdeep"
    kind = upgrade
    owner = universal
    window = power_step
    text = "Test fixture. Gain 1 glory if the fighter stands in your territory, 2 if in an enemy's, 10 more on an edge hex."
    effect = {
        let h = hex_of(this_fighter);
        let t = territory_of(h);
        if t == player { gain_glory(player, 1); } else if t != () { gain_glory(player, 2); }
        if hex_has_type(h, "edge") { gain_glory(player, 10); }
    }
}
"#;

fn rules_with_fixtures() -> RulesetGame {
    with_fixture(
        "harrowdeep",
        "harrowdeep-combat-fixtures",
        &format!("{TWIN_CHANNEL}{FIXTURES}"),
    )
}

/// Answers every pending request with "pass" or "keep the roll" while one of those is
/// offered (reaction steps, re-rolls): the scenario's own choices are made by the test.
fn settle(game: &mut Game<Scenario>) {
    while let Some(asked) = pending(game) {
        let opts = match &asked.options {
            Options::One { choices } => choices.clone(),
            _ => return,
        };
        let passive = ["pass", "keep the roll"]
            .into_iter()
            .find(|p| opts.contains(&option(p)));
        match passive {
            Some(p) => answer(game, asked.player, option(p)),
            None => return,
        }
    }
}

fn hex_of(state: &GameState, kind: &str) -> Hex {
    state.pieces[&piece(state, kind)]
        .position
        .and_then(Position::hex)
        .expect("on the battlefield")
}

/// The two players taking part in a power step (3.24: `data` of the step).
fn both() -> Value {
    Value::List(vec![Value::Player(KREW), Value::Player(SEEKERS)])
}

fn faces(list: &[&str]) -> Value {
    Value::List(list.iter().map(|f| Value::Str((*f).into())).collect())
}

fn rolls(attack: &[&str], defence: &[&str]) -> Value {
    Value::List(vec![faces(attack), faces(defence)])
}

/// Hexes whose six neighbours are all battlefield hexes that are neither blocked nor lethal
/// nor cover, and that are themselves such hexes: open ground, sorted.
fn open_ground(rules: &RulesetGame) -> Vec<Hex> {
    let battlefield = rules.battlefield();
    let plain = |h: Hex| {
        battlefield.contains(h)
            && !battlefield.has_type(h, "blocked")
            && !battlefield.has_type(h, "lethal")
            && !battlefield.has_type(h, "cover")
    };
    let mut hexes: Vec<Hex> = battlefield
        .hexes()
        .filter(|&h| plain(h) && h.neighbors().into_iter().all(plain))
        .collect();
    hexes.sort();
    hexes
}

/// A target hex on open ground whose neighbours are open ground too, with the attacker
/// next to it: (target, attacker).
fn duel_hexes(rules: &RulesetGame) -> (Hex, Hex) {
    let ground = open_ground(rules);
    ground
        .iter()
        .find_map(|t| {
            t.neighbors()
                .into_iter()
                .find(|a| ground.contains(a))
                .map(|a| (*t, a))
        })
        .expect("two neighbouring hexes of open ground")
}

/// The attack of Torka Tuffskul (Krew; Mansnappa: Range 2, 2 Smash dice, Damage 2)
/// against Dhoraz Giant-fell (Seekers; Defence 2 Block, Wounds 5), with `rolls` given to
/// combat step 4.
fn result_frame(rules: &RulesetGame, rolled: Value) -> Frame {
    frame(
        "attack_result",
        &[
            ("player", Value::Player(KREW)),
            ("fighter", Value::Piece(id(rules, "Torka Tuffskul"))),
            ("target", Value::Piece(id(rules, "Dhoraz Giant-fell"))),
            ("weapon", Value::Str("Mansnappa".into())),
            ("rolls", rolled),
        ],
    )
}

/// Torka next to Dhoraz on open ground, everyone else off the battlefield.
fn duel(rules: &RulesetGame) -> impl Fn(&mut Ctx<'_>) + use<> {
    let (target, attacker) = duel_hexes(rules);
    move |ctx: &mut Ctx<'_>| {
        place(ctx, "Dhoraz Giant-fell", target);
        place(ctx, "Torka Tuffskul", attacker);
    }
}

/// Runs combat step 4 with the given faces after `arrange`; returns the game, stopped at
/// the first request that is not a pass (the drive back, if offered).
fn step_four(
    rules: &RulesetGame,
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
    attack: &[&str],
    defence: &[&str],
) -> Game<Scenario> {
    let mut game = scenario(
        rules,
        arrange,
        vec![result_frame(rules, rolls(attack, defence))],
    );
    settle(&mut game);
    game
}

// ---------------------------------------------------------------------------------------
// Combat step 4: determine success (3.9)
// ---------------------------------------------------------------------------------------

#[test]
fn more_attack_criticals_is_a_critical_hit_whatever_the_other_successes() {
    // Harrowdeep, combat step 4 (002 L2340-2346; digest 3.9): the attacker rolled more
    // criticals: a critical hit, even against more defence successes.
    let rules = rules();
    let game = step_four(
        &rules,
        duel(&rules),
        &["critical", "fury"],
        &["block", "block"],
    );
    // Mansnappa has Grievous: Damage 2, +1 on a critical hit (3.11).
    assert_eq!(game_counter(game.state(), "attack_outcome"), 3);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 3);
    assert_eq!(pending(&game).map(|r| r.prompt), Some(DRIVE_BACK.into()));
}

#[test]
fn more_defence_criticals_is_a_miss_with_no_drive_back() {
    // Harrowdeep, combat step 4 (002 L2347-2349; digest 3.9): the defender rolled more
    // criticals: a miss, skip to step 8 (no drive back).
    let rules = rules();
    let game = step_four(
        &rules,
        duel(&rules),
        &["smash", "smash"],
        &["critical", "dodge"],
    );
    assert_eq!(game_counter(game.state(), "attack_outcome"), 0);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 0);
    assert!(pending(&game).is_none());
}

#[test]
fn more_successes_without_a_critical_is_a_hit() {
    // Harrowdeep, combat step 4 (002 L2362-2366; digest 3.9): equal criticals (none), more
    // successes: a hit; Dhoraz's Dodge is not his symbol, so it does not count.
    let rules = rules();
    let game = step_four(
        &rules,
        duel(&rules),
        &["smash", "smash"],
        &["block", "dodge"],
    );
    assert_eq!(game_counter(game.state(), "attack_outcome"), 2);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 2);
}

#[test]
fn equal_criticals_and_more_successes_is_a_critical_hit() {
    // Harrowdeep, combat step 4 (002 L2363-2365; digest H6): one critical each, and the
    // attacker has more successes: a critical hit.
    let rules = rules();
    let game = step_four(
        &rules,
        duel(&rules),
        &["critical", "smash"],
        &["critical", "dodge"],
    );
    assert_eq!(game_counter(game.state(), "attack_outcome"), 3);
}

#[test]
fn equal_successes_is_a_draw_that_deals_no_damage_but_may_drive_back() {
    // Harrowdeep, combat step 4 (002 L2367-2371; digest 3.9): equal successes (at least
    // one): a draw; the attack fails (no damage), then step 7 (drive back).
    let rules = rules();
    let game = step_four(
        &rules,
        duel(&rules),
        &["smash", "fury"],
        &["block", "dodge"],
    );
    assert_eq!(game_counter(game.state(), "attack_outcome"), 1);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 0);
    assert_eq!(pending(&game).map(|r| r.prompt), Some(DRIVE_BACK.into()));
}

#[test]
fn no_success_on_either_side_is_a_miss() {
    // Harrowdeep, combat step 4 (002 L2372-2373; digest 3.9): no success: a miss.
    let rules = rules();
    let game = step_four(
        &rules,
        duel(&rules),
        &["fury", "double_support"],
        &["dodge", "dodge"],
    );
    assert_eq!(game_counter(game.state(), "attack_outcome"), 0);
    assert!(pending(&game).is_none());
}

/// Torka attacks Dhoraz, whose three hexes further from Torka hold his friends: trapped.
fn trapped(rules: &RulesetGame, guard: bool) -> impl Fn(&mut Ctx<'_>) + use<> {
    let (target, attacker) = duel_hexes(rules);
    let behind: Vec<Hex> = target
        .neighbors()
        .into_iter()
        .filter(|h| h.distance_to(attacker) > target.distance_to(attacker))
        .collect();
    assert_eq!(behind.len(), 3);
    move |ctx: &mut Ctx<'_>| {
        place(ctx, "Dhoraz Giant-fell", target);
        place(ctx, "Torka Tuffskul", attacker);
        for (kind, hex) in ["Calthia Xandire", "Luxa Stormrider", "Taros"]
            .iter()
            .zip(&behind)
        {
            place(ctx, kind, *hex);
        }
        if guard {
            let dhoraz = piece(ctx.state(), "Dhoraz Giant-fell");
            ctx.set_tokens(Scope::Piece(dhoraz), "guard", 1)
                .expect("guard");
        }
    }
}

#[test]
fn a_trapped_target_turns_a_draw_into_a_hit_and_is_not_driven_back() {
    // Harrowdeep, combat step 4a (002 L2350-2361; digest 3.9, H4, H5): no empty hex next to
    // the target is further from the attacker; with at least one success the attack gains
    // one; a trapped target is never driven back.
    let rules = rules();
    let game = step_four(
        &rules,
        trapped(&rules, false),
        &["smash", "fury"],
        &["block", "dodge"],
    );
    assert_eq!(game_counter(game.state(), "attack_outcome"), 2);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 2);
    assert!(
        pending(&game).is_none(),
        "no drive back for a trapped target"
    );
}

#[test]
fn a_critical_hit_on_a_fighter_with_nowhere_to_go_offers_no_drive_back() {
    // Harrowdeep, drive back (3.7; 002 L2397-2406): the target is pushed 1 hex further
    // away; with no empty hex further away there is nothing to offer (criticals first skips
    // the trapped check, 3.9 step 4).
    let rules = rules();
    let game = step_four(&rules, trapped(&rules, false), &["critical"], &["block"]);
    assert_eq!(game_counter(game.state(), "attack_outcome"), 3);
    assert!(pending(&game).is_none());
}

#[test]
fn a_trapped_target_gains_the_attacker_nothing_without_a_success() {
    // Harrowdeep, combat step 4a (002 L2356-2358): the extra success needs at least one.
    let rules = rules();
    let game = step_four(
        &rules,
        trapped(&rules, false),
        &["fury", "fury"],
        &["dodge", "dodge"],
    );
    assert_eq!(game_counter(game.state(), "attack_outcome"), 0);
}

#[test]
fn a_guarded_target_is_never_trapped_and_counts_block_and_dodge() {
    // Harrowdeep, Guard (3.6; 002 L2598-2606) and digest H3: on Guard both Block and Dodge
    // count, and a fighter that cannot be driven back cannot be trapped. Dhoraz (Great
    // Hammer: 2 Smash dice, no Cleave or Ensnare) attacks Torka (Block), whose three hexes
    // further from Dhoraz hold his friends.
    let rules = rules();
    let (target, attacker) = duel_hexes(&rules);
    let behind: Vec<Hex> = target
        .neighbors()
        .into_iter()
        .filter(|h| h.distance_to(attacker) > target.distance_to(attacker))
        .collect();
    let (dhoraz, torka) = (
        id(&rules, "Dhoraz Giant-fell"),
        id(&rules, "Torka Tuffskul"),
    );
    for (guard, outcome) in [(true, 1), (false, 2)] {
        let behind = behind.clone();
        let arrange = move |ctx: &mut Ctx<'_>| {
            place(ctx, "Torka Tuffskul", target);
            place(ctx, "Dhoraz Giant-fell", attacker);
            for (kind, hex) in ["Gikkit", "Shank", "Krookgrin"].iter().zip(&behind) {
                place(ctx, kind, *hex);
            }
            if guard {
                ctx.set_tokens(Scope::Piece(torka), "guard", 1)
                    .expect("guard");
            }
        };
        let f = frame(
            "attack_result",
            &[
                ("player", Value::Player(SEEKERS)),
                ("fighter", Value::Piece(dhoraz)),
                ("target", Value::Piece(torka)),
                ("weapon", Value::Str("Great Hammer".into())),
                ("rolls", rolls(&["smash"], &["dodge"])),
            ],
        );
        let mut game = scenario(&rules, arrange, vec![f]);
        settle(&mut game);
        // Guarded: 1 success against 1 (Dodge counts on Guard), not trapped: a draw, and no
        // drive back. Unguarded: Dodge does not count and trapped adds 1: a hit.
        assert_eq!(
            game_counter(game.state(), "attack_outcome"),
            outcome,
            "guard {guard}"
        );
        assert!(pending(&game).is_none(), "no drive back");
        if !guard {
            // The Great Hammer has Stagger: a successful attack staggers (3.11).
            assert_eq!(game.state().pieces[&torka].tokens.get("stagger"), Some(&1));
        }
    }
}

#[test]
fn ensnare_stops_dodge_counting_even_on_guard() {
    // Harrowdeep, Ensnare (3.11; 002 L2530-2541) and precedence (3.25: "cannot" beats a
    // permissive rule): Torka's Mansnappa has Ensnare, so Luxa's Dodge never counts.
    let rules = rules();
    let (target, attacker) = duel_hexes(&rules);
    let (luxa, torka) = (id(&rules, "Luxa Stormrider"), id(&rules, "Torka Tuffskul"));
    for guard in [false, true] {
        let arrange = move |ctx: &mut Ctx<'_>| {
            place(ctx, "Luxa Stormrider", target);
            place(ctx, "Torka Tuffskul", attacker);
            if guard {
                ctx.set_tokens(Scope::Piece(luxa), "guard", 1)
                    .expect("guard");
            }
        };
        let f = frame(
            "attack_result",
            &[
                ("player", Value::Player(KREW)),
                ("fighter", Value::Piece(torka)),
                ("target", Value::Piece(luxa)),
                ("weapon", Value::Str("Mansnappa".into())),
                ("rolls", rolls(&["smash"], &["dodge"])),
            ],
        );
        let mut game = scenario(&rules, arrange, vec![f]);
        settle(&mut game);
        assert_eq!(
            game_counter(game.state(), "attack_outcome"),
            2,
            "guard {guard}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Support (3.10), Cleave and Ensnare (3.11), cover (3.3)
// ---------------------------------------------------------------------------------------

/// Torka attacks Dhoraz with `attack_friends` Kruleboyz next to Dhoraz (not next to Torka)
/// and `defence_friends` Truthseekers next to Torka (not next to Dhoraz).
fn supported(
    rules: &RulesetGame,
    attack_friends: usize,
    defence_friends: usize,
) -> impl Fn(&mut Ctx<'_>) + use<> {
    let (target, attacker) = duel_hexes(rules);
    let near_target: Vec<Hex> = target
        .neighbors()
        .into_iter()
        .filter(|h| !h.is_adjacent(attacker) && *h != attacker)
        .collect();
    let near_attacker: Vec<Hex> = attacker
        .neighbors()
        .into_iter()
        .filter(|h| !h.is_adjacent(target) && *h != target && rules.battlefield().contains(*h))
        .filter(|h| {
            let b = rules.battlefield();
            !b.has_type(*h, "blocked") && !b.has_type(*h, "lethal")
        })
        .collect();
    assert!(near_target.len() >= attack_friends && near_attacker.len() >= defence_friends);
    move |ctx: &mut Ctx<'_>| {
        place(ctx, "Dhoraz Giant-fell", target);
        place(ctx, "Torka Tuffskul", attacker);
        for (kind, hex) in ["Krookgrin", "Mannok da Kunnin'"]
            .iter()
            .zip(&near_target)
            .take(attack_friends)
        {
            place(ctx, kind, *hex);
        }
        for (kind, hex) in ["Luxa Stormrider", "Taros"]
            .iter()
            .zip(&near_attacker)
            .take(defence_friends)
        {
            place(ctx, kind, *hex);
        }
    }
}

#[test]
fn one_supporter_counts_single_support_symbols_as_successes() {
    // Harrowdeep, support (3.10; 002 L2408-2430): one friendly fighter next to the target:
    // the single-support symbol is a success for the attacker, the double one is not.
    let rules = rules();
    let game = step_four(
        &rules,
        supported(&rules, 1, 0),
        &["single_support", "double_support"],
        &["dodge"],
    );
    assert_eq!(game_counter(game.state(), "attack_outcome"), 2);
    assert_eq!(game_counter(game.state(), "attack_supporters"), 1);
    let game = step_four(
        &rules,
        supported(&rules, 1, 0),
        &["double_support", "fury"],
        &["dodge"],
    );
    assert_eq!(game_counter(game.state(), "attack_outcome"), 0);
}

#[test]
fn two_supporters_count_double_support_symbols_too() {
    // Harrowdeep, support (3.10; 002 L2426-2429): two or more supporters: single and double
    // support symbols are successes.
    let rules = rules();
    let game = step_four(
        &rules,
        supported(&rules, 2, 0),
        &["double_support", "single_support"],
        &["block"],
    );
    assert_eq!(game_counter(game.state(), "attack_outcome"), 2);
    assert_eq!(game_counter(game.state(), "attack_supporters"), 2);
}

#[test]
fn the_defender_is_supported_at_the_same_time_as_the_attacker() {
    // Harrowdeep, support (3.10; 002 L2408-2432): absolute and on both sides at once: the
    // target's friends next to the attacker support the defence roll.
    let rules = rules();
    let game = step_four(
        &rules,
        supported(&rules, 1, 1),
        &["single_support", "smash"],
        &["single_support", "block"],
    );
    assert_eq!(
        game_counter(game.state(), "attack_outcome"),
        1,
        "two successes each: a draw"
    );
    let game = step_four(
        &rules,
        supported(&rules, 1, 0),
        &["single_support", "smash"],
        &["single_support", "block"],
    );
    assert_eq!(
        game_counter(game.state(), "attack_outcome"),
        2,
        "unsupported defence: a hit"
    );
}

/// Gikkit (Krule Irons: Range 1, Smash) attacks Dhoraz with `roll` against a Dodge, with
/// `friend` standing at `hex_for(target, attacker)`; returns the outcome.
fn gikkit_attack(
    rules: &RulesetGame,
    friend: &'static str,
    roll: &[&str],
    hex_for: fn(Hex, Hex, &RulesetGame) -> Hex,
) -> i64 {
    let (target, attacker) = duel_hexes(rules);
    let spot = hex_for(target, attacker, rules);
    let (gikkit, dhoraz) = (id(rules, "Gikkit"), id(rules, "Dhoraz Giant-fell"));
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Dhoraz Giant-fell", target);
        place(ctx, "Gikkit", attacker);
        place(ctx, friend, spot);
    };
    let f = frame(
        "attack_result",
        &[
            ("player", Value::Player(KREW)),
            ("fighter", Value::Piece(gikkit)),
            ("target", Value::Piece(dhoraz)),
            ("weapon", Value::Str("Krule Irons".into())),
            ("rolls", rolls(roll, &["dodge"])),
        ],
    );
    let mut game = scenario(rules, arrange, vec![f]);
    settle(&mut game);
    game_counter(game.state(), "attack_outcome")
}

/// A hex 2 from the target and not next to it or to the attacker.
fn two_away(target: Hex, attacker: Hex, rules: &RulesetGame) -> Hex {
    let b = rules.battlefield();
    b.hexes()
        .find(|h| {
            h.distance_to(target) == 2
                && h.distance_to(attacker) >= 2
                && !b.has_type(*h, "blocked")
                && !b.has_type(*h, "lethal")
        })
        .expect("a hex 2 from the target")
}

/// A hex next to the target and not next to the attacker.
fn beside(target: Hex, attacker: Hex, _: &RulesetGame) -> Hex {
    target
        .neighbors()
        .into_iter()
        .find(|h| *h != attacker && !h.is_adjacent(attacker))
        .expect("a hex next to the target")
}

#[test]
fn grapple_supports_from_two_hexes_of_the_target() {
    // Harrowdeep, support (3.10; 002 L2433-2437: card rules change who supports) and
    // Torka's Grapple (002 L772-781): within 2 hexes of the target he supports another
    // friendly fighter's Attack action. Shank 2 hexes away does not.
    let rules = rules();
    assert_eq!(
        gikkit_attack(&rules, "Torka Tuffskul", &["single_support"], two_away),
        2
    );
    assert_eq!(
        gikkit_attack(&rules, "Shank", &["single_support"], two_away),
        0
    );
}

#[test]
fn pain_in_the_knee_counts_as_two_supporters() {
    // Harrowdeep, support (3.10) and Pain in the Knee (Gikkit, Shank; 002 L464-489): one such
    // supporter counts as two, so double-support symbols count too. Krookgrin counts once.
    let rules = rules();
    assert_eq!(
        gikkit_attack(&rules, "Shank", &["double_support"], beside),
        2
    );
    assert_eq!(
        gikkit_attack(&rules, "Krookgrin", &["double_support"], beside),
        0
    );
    assert_eq!(
        gikkit_attack(&rules, "Krookgrin", &["single_support"], beside),
        2
    );
}

#[test]
fn cleave_stops_block_and_ensnare_stops_dodge_counting() {
    // Harrowdeep, Cleave and Ensnare (3.11; 002 L2530-2541): Calthia's Broadsword gains
    // Cleave while she is inspired, so Dhoraz's Block does not count against it.
    let rules = rules();
    let (target, attacker) = duel_hexes(&rules);
    let calthia = id(&rules, "Calthia Xandire");
    let torka = id(&rules, "Torka Tuffskul");
    for (inspired, outcome) in [(true, 2), (false, 1)] {
        let arrange = move |ctx: &mut Ctx<'_>| {
            place(ctx, "Torka Tuffskul", target);
            place(ctx, "Calthia Xandire", attacker);
            if inspired {
                ctx.set_keyword(calthia, "inspired", true).expect("inspire");
            }
        };
        let f = frame(
            "attack_result",
            &[
                ("player", Value::Player(SEEKERS)),
                ("fighter", Value::Piece(calthia)),
                ("target", Value::Piece(torka)),
                ("weapon", Value::Str("Broadsword".into())),
                ("rolls", rolls(&["smash"], &["block"])),
            ],
        );
        let mut game = scenario(&rules, arrange, vec![f]);
        settle(&mut game);
        assert_eq!(
            game_counter(game.state(), "attack_outcome"),
            outcome,
            "inspired {inspired}"
        );
    }
}

#[test]
fn a_target_in_cover_counts_the_single_support_symbol() {
    // Harrowdeep, cover (3.3; 002 L1684-1687, L3865-3867): a fighter in cover counts one more
    // symbol as a defence success, read as the single-support symbol (the glyph is lost). A
    // gloom hex token makes its hex a cover hex (002 L1918-1920).
    let rules = rules();
    let (target, _) = duel_hexes(&rules);
    for gloom in [false, true] {
        let duel = duel(&rules);
        let arrange = move |ctx: &mut Ctx<'_>| {
            duel(ctx);
            if gloom {
                ctx.set_hex_type(target, "feature", true);
                ctx.set_hex_type(target, "gloom", true);
            }
        };
        let game = step_four(&rules, arrange, &["smash"], &["single_support"]);
        let expected = if gloom { 1 } else { 2 };
        assert_eq!(
            game_counter(game.state(), "attack_outcome"),
            expected,
            "gloom {gloom}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Damage, Grievous, Stagger, modifiers (3.9, 3.11, 3.25)
// ---------------------------------------------------------------------------------------

#[test]
fn attack_damage_modifiers_add_to_the_damage_and_stagger_staggers() {
    // Harrowdeep, combat step 5 (002 L2374-2380) with the card modifier `attack_damage`
    // (Easy Meat, Money Bags: digest 3.25 modifiers are cumulative).
    let rules = rules();
    let duel = duel(&rules);
    let arrange = move |ctx: &mut Ctx<'_>| {
        duel(ctx);
        modify(ctx, "Torka Tuffskul", "attack_damage", 1);
    };
    let game = step_four(&rules, arrange, &["smash", "fury"], &["dodge"]);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 3);
    assert_eq!(
        game.state().pieces[&piece(game.state(), "Dhoraz Giant-fell")]
            .tokens
            .get("stagger"),
        None,
        "Mansnappa has no Stagger"
    );
}

#[test]
fn grievous_adds_one_damage_on_a_critical_hit_only() {
    // Harrowdeep, Grievous (3.11; 002 L2542): +1 Damage on a critical hit. Mannok's
    // Tri-prodda and Lash has Grievous while he is inspired (Damage 2).
    let rules = rules();
    let (target, attacker) = duel_hexes(&rules);
    let mannok = id(&rules, "Mannok da Kunnin'");
    let dhoraz = id(&rules, "Dhoraz Giant-fell");
    for (attack, expected) in [(["critical", "fury"], 3), (["fury", "fury"], 2)] {
        let arrange = move |ctx: &mut Ctx<'_>| {
            place(ctx, "Dhoraz Giant-fell", target);
            place(ctx, "Mannok da Kunnin'", attacker);
            ctx.set_keyword(mannok, "inspired", true).expect("inspire");
        };
        let f = frame(
            "attack_result",
            &[
                ("player", Value::Player(KREW)),
                ("fighter", Value::Piece(mannok)),
                ("target", Value::Piece(dhoraz)),
                ("weapon", Value::Str("Tri-prodda and Lash".into())),
                ("rolls", rolls(&attack, &["dodge"])),
            ],
        );
        let mut game = scenario(&rules, arrange, vec![f]);
        settle(&mut game);
        assert_eq!(
            damage(game.state(), "Dhoraz Giant-fell"),
            expected,
            "{attack:?}"
        );
    }
}

/// The attack roll step of Torka against Dhoraz.
fn roll_frame(rules: &RulesetGame) -> Frame {
    frame(
        "attack_roll",
        &[
            ("player", Value::Player(KREW)),
            ("fighter", Value::Piece(id(rules, "Torka Tuffskul"))),
            ("target", Value::Piece(id(rules, "Dhoraz Giant-fell"))),
            ("weapon", Value::Str("Mansnappa".into())),
        ],
    )
}

fn attack_dice_rolled(game: &Game<Scenario>) -> Vec<usize> {
    game.events()
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { dice, .. } if dice.iter().all(|d| d.die == "attack") => {
                Some(dice.len())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_staggered_target_lets_the_attacker_re_roll_one_die() {
    // Harrowdeep, Stagger (3.11; 002 L2558-2569, L4300-4305): against a staggered target the
    // attacker may re-roll one attack die; without Stagger no re-roll is offered.
    let rules = rules();
    let duel = duel(&rules);
    let staggered = move |ctx: &mut Ctx<'_>| {
        duel(ctx);
        let dhoraz = piece(ctx.state(), "Dhoraz Giant-fell");
        ctx.set_tokens(Scope::Piece(dhoraz), "stagger", 1)
            .expect("stagger");
    };
    let mut game = scenario(&rules, staggered, vec![roll_frame(&rules)]);
    let asked = pending(&game).expect("a re-roll is offered");
    assert_eq!(asked.prompt, "Re-roll an attack die?");
    let offered = options(&asked);
    assert_eq!(offered.len(), 3, "two dice and keep: {offered:?}");
    answer(&mut game, KREW, option(&offered[0]));
    // One die re-rolled: no second re-roll, on to the defence roll.
    assert!(pending(&game).is_none_or(|r| r.prompt != "Re-roll an attack die?"));
    assert_eq!(attack_dice_rolled(&game), vec![2, 1]);

    let game = scenario(&rules, self::duel(&rules), vec![roll_frame(&rules)]);
    assert!(pending(&game).is_none_or(|r| r.prompt != "Re-roll an attack die?"));
    assert_eq!(attack_dice_rolled(&game), vec![2]);
}

#[test]
fn re_rolls_from_several_rules_each_take_a_different_die() {
    // Harrowdeep, re-rolls (3.25; 002 L1878-1893; digest H27): Stagger and a card's re-roll
    // (`attack_rerolls`, Called Strike, Swampspill) each re-roll one die, never the same die.
    let rules = rules();
    let duel = duel(&rules);
    let arrange = move |ctx: &mut Ctx<'_>| {
        duel(ctx);
        let dhoraz = piece(ctx.state(), "Dhoraz Giant-fell");
        ctx.set_tokens(Scope::Piece(dhoraz), "stagger", 1)
            .expect("stagger");
        modify(ctx, "Torka Tuffskul", "attack_rerolls", 1);
    };
    let mut game = scenario(&rules, arrange, vec![roll_frame(&rules)]);
    let first = options(&pending(&game).expect("first re-roll"));
    answer(&mut game, KREW, option(&first[1]));
    let second = options(&pending(&game).expect("second re-roll"));
    assert_eq!(second.len(), 2, "one die left and keep: {second:?}");
    assert!(second[0].starts_with("re-roll die 1"));
    answer(&mut game, KREW, option(&second[0]));
    assert_eq!(attack_dice_rolled(&game), vec![2, 1, 1]);
}

#[test]
fn attack_dice_modifiers_never_leave_fewer_than_one_die() {
    // Harrowdeep, modifiers (3.25; 002 L2887-2897): Blaze of Light and Visage of
    // Destruction take dice away, never below 1.
    let rules = rules();
    let duel = duel(&rules);
    let arrange = move |ctx: &mut Ctx<'_>| {
        duel(ctx);
        modify(ctx, "Torka Tuffskul", "attack_dice", -5);
    };
    let game = scenario(&rules, arrange, vec![roll_frame(&rules)]);
    assert_eq!(attack_dice_rolled(&game), vec![1]);
    let duel = self::duel(&rules);
    let arrange = move |ctx: &mut Ctx<'_>| {
        duel(ctx);
        modify(ctx, "Torka Tuffskul", "attack_dice", 1);
    };
    let game = scenario(&rules, arrange, vec![roll_frame(&rules)]);
    assert_eq!(attack_dice_rolled(&game), vec![3]);
}

// ---------------------------------------------------------------------------------------
// Outmanoeuvred, line of sight and range (3.8, 3.9)
// ---------------------------------------------------------------------------------------

#[test]
fn a_target_out_of_range_when_a_step_begins_outmanoeuvres_the_attack() {
    // Harrowdeep, outmanoeuvred (3.9; 002 L2395-2396; digest H7): at the start of steps 2 to
    // 5, a target no longer in range (or visible) makes the attack fail: no roll, no
    // damage, straight to step 8.
    let rules = rules();
    let (target, _) = duel_hexes(&rules);
    let far = open_ground(&rules)
        .into_iter()
        .find(|h| h.distance_to(target) >= 4)
        .expect("a far hex");
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Dhoraz Giant-fell", target);
        place(ctx, "Torka Tuffskul", far);
    };
    let game = scenario(&rules, arrange, vec![roll_frame(&rules)]);
    assert!(attack_dice_rolled(&game).is_empty());
    assert!(
        game.events()
            .iter()
            .any(|e| matches!(e, Event::Marker { name, .. } if name == "after_attack"))
    );
    let game = step_four(&rules, arrange, &["critical", "critical"], &[]);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 0);
}

#[test]
fn an_attack_action_offers_only_visible_enemies_in_range() {
    // Harrowdeep, Attack action (3.6; 002 L2266-2281) and line of sight (3.8): the target
    // must be within the weapon's Range and visible. Luxa's Stormcaller Bow has Range 4.
    let rules = rules();
    let luxa = id(&rules, "Luxa Stormrider");
    let ground = open_ground(&rules);
    let from = ground[0];
    let near = *ground
        .iter()
        .find(|h| h.distance_to(from) == 3)
        .expect("a hex 3 away");
    let far = *ground
        .iter()
        .find(|h| h.distance_to(from) >= 6)
        .expect("a hex 6 away");
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Luxa Stormrider", from);
        place(ctx, "Shank", near);
        place(ctx, "Gikkit", far);
    };
    let game = scenario(
        &rules,
        arrange,
        vec![frame(
            "attack_action",
            &[
                ("player", Value::Player(SEEKERS)),
                ("fighter", Value::Piece(luxa)),
            ],
        )],
    );
    let asked = pending(&game).expect("a target is asked for");
    let shank = id(&rules, "Shank");
    match &asked.options {
        Options::One { choices } => assert_eq!(choices, &vec![Choice::Piece(shank)]),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// Drive back and knockback (3.7)
// ---------------------------------------------------------------------------------------

fn drive_frame(rules: &RulesetGame) -> Frame {
    frame(
        "drive_back",
        &[
            ("player", Value::Player(KREW)),
            ("fighter", Value::Piece(id(rules, "Torka Tuffskul"))),
            ("target", Value::Piece(id(rules, "Dhoraz Giant-fell"))),
            ("weapon", Value::Str("Mansnappa".into())),
        ],
    )
}

#[test]
fn a_drive_back_pushes_the_target_one_hex_away() {
    // Harrowdeep, driven back (3.7; 002 L2397-2406): optional; 1 hex further from the
    // attacker.
    let rules = rules();
    let (target, attacker) = duel_hexes(&rules);
    let mut game = scenario(&rules, duel(&rules), vec![drive_frame(&rules)]);
    answer(&mut game, KREW, option("drive back"));
    if let Some(asked) = pending(&game) {
        if asked.prompt.starts_with("Where is") {
            let to = hex_choices(&asked)[0];
            answer(&mut game, KREW, Choice::Hex(to));
        }
    }
    settle(&mut game);
    let now = hex_of(game.state(), "Dhoraz Giant-fell");
    assert_eq!(now.distance_to(target), 1);
    assert_eq!(now.distance_to(attacker), 2);
}

/// A target hex with the attacker next to it and two open hexes in line beyond the
/// target, away from the attacker: (target, attacker, first, second).
fn in_line(rules: &RulesetGame) -> (Hex, Hex, Hex, Hex) {
    let ground = open_ground(rules);
    let battlefield = rules.battlefield();
    let plain = |h: Hex| {
        battlefield.contains(h)
            && !battlefield.has_type(h, "blocked")
            && !battlefield.has_type(h, "lethal")
    };
    for &t in &ground {
        for a in t.neighbors() {
            if !ground.contains(&a) {
                continue;
            }
            let first = Hex::new(2 * t.q - a.q, 2 * t.r - a.r);
            let second = Hex::new(3 * t.q - 2 * a.q, 3 * t.r - 2 * a.r);
            if plain(first) && plain(second) {
                return (t, a, first, second);
            }
        }
    }
    panic!("no three hexes in line");
}

#[test]
fn knockback_pushes_further_in_the_same_direction() {
    // Harrowdeep, Knockback (3.7; 002 L2573-2589): in the drive-back step, up to X more
    // hexes in the same direction; Knockback from cards adds up (`attack_knockback`).
    let rules = rules();
    let (target, attacker, first, second) = in_line(&rules);
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Dhoraz Giant-fell", target);
        place(ctx, "Torka Tuffskul", attacker);
        modify(ctx, "Torka Tuffskul", "attack_knockback", 1);
    };
    let mut game = scenario(&rules, arrange, vec![drive_frame(&rules)]);
    answer(&mut game, KREW, option("drive back"));
    let asked = pending(&game).expect("where the drive back goes");
    assert!(hex_choices(&asked).contains(&first));
    answer(&mut game, KREW, Choice::Hex(first));
    let asked = pending(&game).expect("the knockback");
    assert_eq!(asked.prompt, "Knockback: how many hexes further?");
    assert_eq!(options(&asked), ["knock back 0 more", "knock back 1 more"]);
    answer(&mut game, KREW, option("knock back 1 more"));
    settle(&mut game);
    assert_eq!(hex_of(game.state(), "Dhoraz Giant-fell"), second);
}

#[test]
fn no_knockback_without_the_keyword_or_a_modifier() {
    // Harrowdeep, Knockback (3.7): only an attack with Knockback pushes further.
    let rules = rules();
    let (target, attacker, first, _) = in_line(&rules);
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Dhoraz Giant-fell", target);
        place(ctx, "Torka Tuffskul", attacker);
    };
    let mut game = scenario(&rules, arrange, vec![drive_frame(&rules)]);
    answer(&mut game, KREW, option("drive back"));
    answer(&mut game, KREW, Choice::Hex(first));
    settle(&mut game);
    assert!(pending(&game).is_none());
    assert_eq!(hex_of(game.state(), "Dhoraz Giant-fell"), first);
}

// ---------------------------------------------------------------------------------------
// Scything (3.6)
// ---------------------------------------------------------------------------------------

#[test]
fn a_scything_attack_strikes_each_adjacent_enemy_once_in_the_chosen_order() {
    // Harrowdeep, Scything (3.6; 002 L2542-2556): one attack against each adjacent enemy,
    // each against a different enemy, in any order, each a whole combat sequence.
    let rules = rules();
    let (target, attacker) = duel_hexes(&rules);
    let other = target
        .neighbors()
        .into_iter()
        .find(|h| h.is_adjacent(attacker))
        .expect("a second hex next to the attacker");
    let (dhoraz, luxa, torka) = (
        id(&rules, "Dhoraz Giant-fell"),
        id(&rules, "Luxa Stormrider"),
        id(&rules, "Torka Tuffskul"),
    );
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Dhoraz Giant-fell", target);
        place(ctx, "Luxa Stormrider", other);
        place(ctx, "Torka Tuffskul", attacker);
    };
    let mut game = scenario(
        &rules,
        arrange,
        vec![frame(
            "scything",
            &[
                ("player", Value::Player(KREW)),
                ("fighter", Value::Piece(torka)),
                ("weapon", Value::Str("Mansnappa".into())),
                (
                    "data",
                    Value::List(vec![Value::Piece(dhoraz), Value::Piece(luxa)]),
                ),
            ],
        )],
    );
    let asked = pending(&game).expect("the order");
    assert_eq!(
        asked.prompt,
        "Which enemy does the Scything attack strike next?"
    );
    answer(&mut game, KREW, Choice::Piece(luxa));
    // Play both attacks out, never driving back; two attacks end.
    loop {
        settle(&mut game);
        match pending(&game) {
            Some(asked) if asked.prompt == DRIVE_BACK => {
                answer(&mut game, KREW, option("do not drive back"))
            }
            _ => break,
        }
    }
    let ends = game
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Marker { name, scope: Scope::Piece(p), .. } if name == "after_attack" && *p == torka))
        .count();
    assert_eq!(ends, 2);
    assert!(game.pending().is_empty());
}

// ---------------------------------------------------------------------------------------
// Spells (3.17)
// ---------------------------------------------------------------------------------------

/// The casting result of `card` for Calthia with the given faces.
fn cast(rules: &RulesetGame, card: &str, rolled: &[&str]) -> Game<Scenario> {
    let hexes = open_ground(rules);
    let calthia = id(rules, "Calthia Xandire");
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Calthia Xandire", hexes[0]);
    };
    let setup_game = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let card = card_named(setup_game.state(), card);
    let mut game = scenario(
        rules,
        arrange,
        vec![frame(
            "casting_result",
            &[
                ("player", Value::Player(SEEKERS)),
                ("fighter", Value::Piece(calthia)),
                ("card", Value::Card(card)),
                ("rolls", Value::List(vec![faces(rolled)])),
            ],
        )],
    );
    settle(&mut game);
    game
}

fn spells_cast(state: &GameState) -> i64 {
    state.players[SEEKERS.0 as usize]
        .counters
        .get("spells_cast_this_phase")
        .copied()
        .unwrap_or(0)
}

#[test]
fn a_spell_is_cast_when_its_casting_value_is_matched_and_criticals_are_wild() {
    // Harrowdeep, magic (3.17; 002 L2657-2671; digest H13): every symbol of the casting
    // value must be matched; each critical matches any symbol.
    let rules = rules_with_fixtures();
    let game = cast(&rules, "Test Twin Channel", &["channel", "channel"]);
    assert_eq!(
        (glory(game.state(), SEEKERS), spells_cast(game.state())),
        (1, 1)
    );
    let game = cast(&rules, "Test Twin Channel", &["channel", "critical"]);
    assert_eq!(
        (glory(game.state(), SEEKERS), spells_cast(game.state())),
        (1, 1)
    );
    let game = cast(&rules, "Test Twin Channel", &["channel", "focus"]);
    assert_eq!(
        (glory(game.state(), SEEKERS), spells_cast(game.state())),
        (0, 0)
    );
}

#[test]
fn two_criticals_in_a_casting_roll_are_backlash() {
    // Harrowdeep, backlash (3.17; 002 L2657-2665; digest H13): two or more criticals deal the
    // wizard 1 damage; the spell is still cast if the wizard survives.
    let rules = rules_with_fixtures();
    let game = cast(&rules, "Test Twin Channel", &["critical", "critical"]);
    assert_eq!(damage(game.state(), "Calthia Xandire"), 1);
    assert_eq!(glory(game.state(), SEEKERS), 1);
    let game = cast(&rules, "Test Twin Channel", &["critical", "channel"]);
    assert_eq!(damage(game.state(), "Calthia Xandire"), 0);
}

#[test]
fn a_wizard_taken_out_of_action_by_backlash_fails_the_spell_and_gives_a_bounty() {
    // Harrowdeep, backlash (3.17; 002 L2662-2665; digest H13): if the backlash takes the
    // wizard out of action the spell fails; the damage is the wizard's, and in two players
    // the opponent gains the bounty (digest H1).
    let rules = rules_with_fixtures();
    let hexes = open_ground(&rules);
    let calthia = id(&rules, "Calthia Xandire");
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Calthia Xandire", hexes[0]);
        ctx.set_counter(Scope::Piece(calthia), "damage", 3)
            .expect("damage");
    };
    let setup_game = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let card = card_named(setup_game.state(), "Test Twin Channel");
    let mut game = scenario(
        &rules,
        arrange,
        vec![frame(
            "casting_result",
            &[
                ("player", Value::Player(SEEKERS)),
                ("fighter", Value::Piece(calthia)),
                ("card", Value::Card(card)),
                ("rolls", Value::List(vec![faces(&["critical", "critical"])])),
            ],
        )],
    );
    settle(&mut game);
    assert_eq!(glory(game.state(), SEEKERS), 0, "not cast");
    assert_eq!(spells_cast(game.state()), 0);
    assert!(
        game.state().pieces[&calthia].position.is_none(),
        "out of action"
    );
    assert_eq!(glory(game.state(), KREW), 1, "the bounty");
}

#[test]
fn a_spell_is_offered_in_the_power_step_only_with_a_wizard_on_the_battlefield() {
    // Harrowdeep, gambit spells (3.15, 3.17; 002 L2628-2632): playable only with a friendly
    // wizard on the battlefield; the card is then attempted by that wizard.
    let rules = rules();
    let hexes = open_ground(&rules);
    for with_wizard in [true, false] {
        let spot = hexes[0];
        let arrange = move |ctx: &mut Ctx<'_>| {
            if with_wizard {
                place(ctx, "Calthia Xandire", spot);
            } else {
                place(ctx, "Dhoraz Giant-fell", spot);
            }
            let card = card_named(ctx.state(), "Blaze of Light");
            ctx.move_card(card, &gloam::core::ZoneId::new(SEEKERS, "power_hand"), 0)
                .expect("to hand");
        };
        let mut game = scenario(
            &rules,
            arrange,
            vec![frame(
                "power_step",
                &[
                    ("player", Value::Player(SEEKERS)),
                    ("count", Value::Int(0)),
                    ("data", both()),
                ],
            )],
        );
        if !with_wizard {
            assert!(
                pending(&game).is_none_or(
                    |r| r.player != SEEKERS || !options(&r).contains(&"play a card".into())
                ),
                "no wizard, no spell"
            );
            continue;
        }
        let asked = pending(&game).expect("the power step asks");
        assert_eq!(options(&asked), ["play a card", "pass"]);
        answer(&mut game, SEEKERS, option("play a card"));
        let blaze = card_named(game.state(), "Blaze of Light");
        answer(&mut game, SEEKERS, Choice::Card(blaze));
        // The casting roll: one magic die (Calthia's wizard level is 1).
        assert!(game.events().iter().any(|e| matches!(
            e,
            Event::Rolled { dice, .. } if dice.len() == 1 && dice[0].die == "magic"
        )));
    }
}

// ---------------------------------------------------------------------------------------
// Feature tokens, set-up and delve (3.4, 3.14)
// ---------------------------------------------------------------------------------------

#[test]
fn feature_tokens_are_placed_gloom_side_up_away_from_forbidden_hexes() {
    // Harrowdeep, set-up 3 (3.4; 002 L1928-1950): five numbered tokens, 3 placed by the
    // first-board player and 2 by the other, alternating, never in a starting, blocked,
    // lethal, cover or edge hex nor within 2 hexes of another token; then one double-gloom
    // token each, which may be next to another token. All stay gloom side up (digest H18).
    let rules = rules();
    let mut game = scenario(
        &rules,
        |_: &mut Ctx<'_>| {},
        vec![frame(
            "feature_tokens",
            &[("player", Value::Player(KREW)), ("count", Value::Int(0))],
        )],
    );
    let battlefield = rules.battlefield().clone();
    let mut placers = Vec::new();
    let mut placed: Vec<Hex> = Vec::new();
    for _ in 0..5 {
        let asked = pending(&game).expect("a token to place");
        assert_eq!(asked.prompt, "Place a feature token (gloom side up)");
        let offered = hex_choices(&asked);
        for h in &offered {
            for kind in ["starting", "blocked", "lethal", "cover"] {
                assert!(!battlefield.has_type(*h, kind), "{h} is {kind}");
            }
            assert!(!battlefield.is_edge(*h), "{h} is an edge hex");
            assert!(placed.iter().all(|t| t.distance_to(*h) > 2), "{h} too near");
        }
        placers.push(asked.player);
        placed.push(offered[0]);
        answer(&mut game, asked.player, Choice::Hex(offered[0]));
    }
    assert_eq!(placers, [KREW, SEEKERS, KREW, SEEKERS, KREW]);
    // The double-gloom tokens: optional, one per player, first-board player first.
    for p in [KREW, SEEKERS] {
        let asked = pending(&game).expect("a double-gloom token");
        assert_eq!(asked.player, p);
        answer(&mut game, p, option("add a double-gloom token"));
        let asked = pending(&game).expect("where");
        let offered = hex_choices(&asked);
        assert!(
            offered
                .iter()
                .any(|h| placed.iter().any(|t| t.distance_to(*h) <= 2)),
            "a double-gloom token may go near another"
        );
        assert!(offered.iter().all(|h| !placed.contains(h)));
        placed.push(offered[0]);
        answer(&mut game, p, Choice::Hex(offered[0]));
    }
    let state = game.state();
    let has = |h: Hex, t: &str| state.hex_types.contains(&(h, t.to_string()));
    for (i, h) in placed.iter().enumerate() {
        assert!(
            has(*h, "feature") && has(*h, "gloom") && !has(*h, "objective"),
            "{h}"
        );
        assert_eq!(has(*h, "numbered"), i < 5, "{h}");
    }
    // Then set-up 4 draws the hands.
    assert!(
        state
            .zones
            .iter()
            .any(|(z, zone)| z.name == "power_hand" && !zone.cards.is_empty())
    );
}

#[test]
fn delving_flips_a_token_under_a_friendly_fighter_once_per_power_step() {
    // Harrowdeep, delve (3.14; 002 L2761-2765, L3916-3919; digest H19): in place of a power
    // card, flip a feature token a friendly fighter stands on; a numbered token turns from
    // gloom to objective (002 L1904-1909); each player delves each token once per power step.
    let rules = rules();
    let hexes = open_ground(&rules);
    let spot = hexes[0];
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Shank", spot);
        for t in ["feature", "numbered", "gloom"] {
            ctx.set_hex_type(spot, t, true);
        }
    };
    let mut game = scenario(
        &rules,
        arrange,
        vec![frame(
            "power_step",
            &[
                ("player", Value::Player(KREW)),
                ("count", Value::Int(0)),
                ("data", both()),
            ],
        )],
    );
    let asked = pending(&game).expect("the power step");
    assert_eq!(options(&asked), ["delve", "pass"]);
    answer(&mut game, KREW, option("delve"));
    answer(&mut game, KREW, Choice::Hex(spot));
    let has = |g: &Game<Scenario>, t: &str| g.state().hex_types.contains(&(spot, t.to_string()));
    assert!(
        has(&game, "objective") && !has(&game, "gloom"),
        "flipped to objective"
    );
    // The Truthseekers have nothing to play and pass; the Krew may not delve the same
    // token again in this power step, so they pass too and the step ends.
    assert!(game.pending().is_empty(), "{:?}", pending(&game));
    let flips = game
        .events()
        .iter()
        .filter(|e| matches!(e, Event::HexTypeChanged { name, present: true, .. } if name == "objective"))
        .count();
    assert_eq!(flips, 1);
}

#[test]
fn a_double_gloom_token_stays_gloom_when_delved() {
    // Harrowdeep, feature tokens (3.14; 002 L1904-1909): a double-gloom token flipped stays a
    // gloom hex token.
    let rules = rules();
    let spot = open_ground(&rules)[0];
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Shank", spot);
        ctx.set_hex_type(spot, "feature", true);
        ctx.set_hex_type(spot, "gloom", true);
    };
    let mut game = scenario(
        &rules,
        arrange,
        vec![frame(
            "power_step",
            &[
                ("player", Value::Player(KREW)),
                ("count", Value::Int(0)),
                ("data", both()),
            ],
        )],
    );
    answer(&mut game, KREW, option("delve"));
    answer(&mut game, KREW, Choice::Hex(spot));
    assert!(
        game.state()
            .hex_types
            .contains(&(spot, "gloom".to_string()))
    );
    assert!(
        !game
            .state()
            .hex_types
            .contains(&(spot, "objective".to_string()))
    );
}

// ---------------------------------------------------------------------------------------
// Territory and edge hexes (3.3)
// ---------------------------------------------------------------------------------------

#[test]
fn territory_and_edge_queries_read_the_battlefield() {
    // Harrowdeep, territory and edge hexes (3.3; 002 L1689-1694, L1722-1726): your board is
    // your territory, the others' are enemy territory; an edge hex has fewer than six
    // neighbours.
    let rules = rules_with_fixtures();
    let battlefield = rules.battlefield().clone();
    let shank = id(&rules, "Shank");
    let own = battlefield
        .hexes()
        .find(|h| {
            battlefield.territory(*h) == Some("player0")
                && !battlefield.is_edge(*h)
                && !battlefield.has_type(*h, "blocked")
        })
        .expect("an inner hex of seat 0");
    let enemy_edge = battlefield
        .hexes()
        .find(|h| {
            battlefield.territory(*h) == Some("player1")
                && battlefield.is_edge(*h)
                && !battlefield.has_type(*h, "blocked")
        })
        .expect("an edge hex of seat 1");
    for (spot, expected) in [(own, 1), (enemy_edge, 12)] {
        let arrange = move |ctx: &mut Ctx<'_>| place(ctx, "Shank", spot);
        let setup_game = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
        let card = card_named(setup_game.state(), "Test Survey");
        let mut game = scenario(
            &rules,
            arrange,
            vec![frame(
                "card",
                &[
                    ("player", Value::Player(KREW)),
                    ("card", Value::Card(card)),
                    ("fighter", Value::Piece(shank)),
                ],
            )],
        );
        settle(&mut game);
        assert_eq!(glory(game.state(), KREW), expected, "{spot}");
    }
}

// ---------------------------------------------------------------------------------------
// Whole games
// ---------------------------------------------------------------------------------------

#[test]
fn random_games_place_feature_tokens_and_keep_the_invariants() {
    // Harrowdeep, set-up 3 (3.4): every game starts with 5 numbered and up to 2 double-gloom
    // feature tokens; whole games with the combat, spell and delve steps run without error.
    use gloam::agent::{Agent, RandomAgent};
    let rules = rules();
    for seed in 1..=4u64 {
        let mut game = Game::start(
            rules.clone(),
            rules.setup(seed),
            RulesetGame::first_frames(),
        )
        .expect("start");
        let mut agents = [RandomAgent::new(seed), RandomAgent::new(seed + 100)];
        let mut steps = 0;
        while !game.is_over() && steps < 5000 {
            let asked = request_of(&game).expect("a pending request");
            let view = game.view(asked.player);
            let choice = agents[asked.player.0 as usize].choose(&view, &asked);
            game.submit(asked.player, choice).expect("legal");
            check_invariants(game.state()).expect("invariants");
            steps += 1;
        }
        assert!(game.is_over(), "seed {seed} ends");
        let numbered = game
            .state()
            .hex_types
            .iter()
            .filter(|(_, t)| t == "numbered")
            .count();
        assert_eq!(numbered, 5, "seed {seed}");
    }
}

fn request_of(game: &Game<RulesetGame>) -> Option<Request> {
    game.pending().first().map(|r| (*r).clone())
}

// ---------------------------------------------------------------------------------------
// Flying (3.2) and lethal hexes (3.3)
// ---------------------------------------------------------------------------------------

#[test]
fn a_flyer_moving_into_a_lethal_hex_takes_no_damage_but_a_walker_does() {
    // Harrowdeep, Flying (3.2; 002 L1367-1371; digest H16): while making a Move action a
    // flyer takes no lethal-hex damage; a walker entering a lethal hex is dealt 1 damage (3.3,
    // 002 L1702-1711).
    let rules = rules();
    let battlefield = rules.battlefield().clone();
    let lethal = battlefield.hexes_of_type("lethal");
    let (start, hazard) = lethal
        .iter()
        .find_map(|&l| {
            l.neighbors()
                .into_iter()
                .find(|n| {
                    battlefield.contains(*n)
                        && !battlefield.has_type(*n, "blocked")
                        && !battlefield.has_type(*n, "lethal")
                })
                .map(|n| (n, l))
        })
        .expect("a lethal hex with an open neighbour");
    for (kind, expected) in [("Taros", 0), ("Luxa Stormrider", 1)] {
        let mover = id(&rules, kind);
        let arrange = move |ctx: &mut Ctx<'_>| place(ctx, kind, start);
        let mut game = scenario(
            &rules,
            arrange,
            vec![frame(
                "move_action",
                &[
                    ("player", Value::Player(SEEKERS)),
                    ("fighter", Value::Piece(mover)),
                ],
            )],
        );
        let asked = pending(&game).expect("where");
        assert!(hex_choices(&asked).contains(&hazard), "{kind}");
        answer(&mut game, SEEKERS, Choice::Hex(hazard));
        settle(&mut game);
        assert_eq!(damage(game.state(), kind), expected, "{kind}");
    }
}

/// A start hex, a goal two hexes away and a lethal hex between them such that one shortest
/// route enters the lethal hex and another (through `clean`) does not: `(start, goal,
/// lethal, clean)`, the first in the battlefield's order.
fn two_routes_past_a_lethal_hex(rules: &RulesetGame) -> (Hex, Hex, Hex, Hex) {
    let battlefield = rules.battlefield().clone();
    let open = |h: Hex| {
        battlefield.contains(h)
            && !battlefield.has_type(h, "blocked")
            && !battlefield.has_type(h, "lethal")
    };
    let mut hexes: Vec<Hex> = battlefield.hexes().collect();
    hexes.sort();
    for &lethal in &battlefield.hexes_of_type("lethal") {
        for start in lethal.neighbors().into_iter().filter(|&h| open(h)) {
            for &goal in &hexes {
                if !open(goal) || goal.distance_to(start) != 2 || !goal.is_adjacent(lethal) {
                    continue;
                }
                let clean = start
                    .neighbors()
                    .into_iter()
                    .find(|&c| c != lethal && c.is_adjacent(goal) && open(c));
                if let Some(clean) = clean {
                    return (start, goal, lethal, clean);
                }
            }
        }
    }
    panic!("the battlefield has no lethal hex between two routes")
}

fn move_frame(mover: gloam::core::PieceId) -> Vec<Frame> {
    vec![frame(
        "move_action",
        &[
            ("player", Value::Player(SEEKERS)),
            ("fighter", Value::Piece(mover)),
        ],
    )]
}

#[test]
fn a_move_past_a_lethal_hex_offers_both_routes_and_the_clean_one_deals_no_damage() {
    // Harrowdeep, Move action (3.6; 002 L2114-2116): each step enters an adjacent empty hex,
    // in any direction, up to Move steps; lethal hexes (3.3; 002 L1702-1711): 1 damage for
    // each lethal hex moved into. Two routes of two steps reach the goal, one through a lethal
    // hex: the player is asked which (issue 18 item 5), and the clean route deals no damage;
    // the lethal one deals 1.
    let rules = rules();
    let (start, goal, lethal, clean) = two_routes_past_a_lethal_hex(&rules);
    let kind = "Luxa Stormrider";
    let mover = id(&rules, kind);
    for (through_lethal, expected) in [(false, 0), (true, 1)] {
        let arrange = move |ctx: &mut Ctx<'_>| place(ctx, kind, start);
        let mut game = scenario(&rules, arrange, move_frame(mover));
        answer(&mut game, SEEKERS, Choice::Hex(goal));
        let asked = pending(&game).expect("which way");
        assert_eq!(asked.prompt, "Which way does it move?");
        let routes = options(&asked);
        let by_clean = format!("by {clean} {goal}");
        let by_lethal = format!("by {lethal} {goal}");
        assert!(routes.contains(&by_clean), "{routes:?}");
        assert!(routes.contains(&by_lethal), "{routes:?}");
        // Lethal-free routes come first.
        assert!(!routes[0].contains(&lethal.to_string()), "{routes:?}");
        let chosen = if through_lethal { by_lethal } else { by_clean };
        answer(&mut game, SEEKERS, option(&chosen));
        settle(&mut game);
        assert_eq!(hex_of(game.state(), kind), goal);
        assert_eq!(damage(game.state(), kind), expected, "{chosen}");
        let walked = game.events().iter().rev().find_map(|e| match e {
            Event::PieceMoved { path, .. } => Some(path.clone()),
            _ => None,
        });
        let middle = if through_lethal { lethal } else { clean };
        assert_eq!(walked, Some(vec![start, middle, goal]));
    }
}

#[test]
fn a_move_whose_routes_all_cross_the_same_lethal_hexes_asks_no_route() {
    // Harrowdeep, Move action (3.6; 002 L2114-2116) and lethal hexes (3.3; 002 L1702-1711):
    // where no route to the chosen hex can enter a lethal hex, the route is not asked.
    let rules = rules();
    let battlefield = rules.battlefield().clone();
    let lethal = battlefield.hexes_of_type("lethal");
    let kind = "Luxa Stormrider";
    let far = |h: Hex| lethal.iter().all(|l| l.distance_to(h) > 2);
    let start = scenario::decks::pick(&rules, &[], |h| far(h) && scenario::decks::roomy(&rules, h));
    let goal = start.neighbors().into_iter().next().expect("a neighbour");
    let mover = id(&rules, kind);
    let arrange = move |ctx: &mut Ctx<'_>| place(ctx, kind, start);
    let mut game = scenario(&rules, arrange, move_frame(mover));
    answer(&mut game, SEEKERS, Choice::Hex(goal));
    if let Some(asked) = pending(&game) {
        assert_ne!(asked.prompt, "Which way does it move?");
    }
    settle(&mut game);
    assert_eq!(hex_of(game.state(), kind), goal);
    assert_eq!(damage(game.state(), kind), 0);
}

#[test]
fn a_flyer_passes_over_blocked_and_occupied_hexes() {
    // Harrowdeep, Flying (3.2; 002 L1367-1371): on a Move action a flyer may pass through
    // blocked and occupied hexes, ending in an empty hex. Taros (Move 5) hemmed in by enemies
    // on every side can still fly out; Luxa cannot walk out.
    let rules = rules();
    let (centre, _) = duel_hexes(&rules);
    let ring: Vec<Hex> = centre.neighbors().into_iter().collect();
    for (kind, can) in [("Taros", true), ("Luxa Stormrider", false)] {
        let mover = id(&rules, kind);
        let ring = ring.clone();
        let arrange = move |ctx: &mut Ctx<'_>| {
            place(ctx, kind, centre);
            let krew = [
                "Mannok da Kunnin'",
                "Torka Tuffskul",
                "Krookgrin",
                "Gikkit",
                "Shank",
                "Dhoraz Giant-fell",
            ];
            for (k, h) in krew.iter().zip(&ring) {
                place(ctx, k, *h);
            }
        };
        let game = scenario(
            &rules,
            arrange,
            vec![frame(
                "move_action",
                &[
                    ("player", Value::Player(SEEKERS)),
                    ("fighter", Value::Piece(mover)),
                ],
            )],
        );
        assert_eq!(pending(&game).is_some(), can, "{kind}");
    }
}

#[test]
fn with_three_players_seven_numbered_tokens_are_dealt_three_two_and_two() {
    // Harrowdeep, multiplayer feature tokens (3.24; 002 L3517-3530): numbered tokens 1-7
    // with 3 players, 3 to the first-board player and 2 to each other, placed in order of
    // play from the first-board player; each player may add one double-gloom token.
    use gloam::agent::{Agent, RandomAgent};
    let rules = gloam::sim::prepare_for(&[cards_dir()], "harrowdeep", 3).expect("3 players");
    let mut game =
        Game::start(rules.clone(), rules.setup(3), RulesetGame::first_frames()).expect("start");
    let mut agent = RandomAgent::new(3);
    let mut placers = Vec::new();
    let mut doubles = 0;
    while let Some(asked) = request_of(&game) {
        if asked.prompt == "Place a feature token (gloom side up)" {
            placers.push(asked.player.0);
        } else if asked.prompt == "Set-up: add a double-gloom feature token?" {
            doubles += 1;
        } else if !asked.prompt.starts_with("Place the double-gloom") {
            break;
        }
        let view = game.view(asked.player);
        let choice = agent.choose(&view, &asked);
        game.submit(asked.player, choice).expect("legal");
    }
    // From the first-board player (the first board roll-off's loser, step `boards`), in
    // order of play.
    let first = u8::try_from(game.state().counter("first_board_seat")).expect("a seat");
    let expected: Vec<u8> = (0..7u8).map(|k| (first + k) % 3).collect();
    assert_eq!(placers, expected);
    assert_eq!(doubles, 3);
}

// ---------------------------------------------------------------------------------------
// A test warband: a spell Attack action, a Scything and Knockback weapon
// ---------------------------------------------------------------------------------------

const COVEN: &str = r#"
warband "Test Coven" {
    ruleset = "harrowdeep"
    alliance = order
    faction = "Test"
    about = "test fixture: a wizard with a spell Attack action and a reaper with a Scything weapon"

    fighter "Test Seer" {
        keywords = [leader, wizard]
        stats = [move: 3, defence: 1, wounds: 3, bounty: 1, wizard_level: 2]
        symbols = [defence: dodge]
        text = "Test fixture."
        weapon "Test Bolt" {
            range = 3
            dice = 0
            die = magic
            symbol = channel
            damage = 1
        }
    }

    fighter "Test Reaper" {
        stats = [move: 3, defence: 1, wounds: 3, bounty: 1]
        symbols = [defence: block]
        text = "Test fixture."
        weapon "Test Scythe" {
            range = 1
            dice = 2
            symbol = smash
            damage = 1
            keywords = [scything, knockback]
        }
    }
}
"#;

fn gloam_files(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("cards dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            gloam_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "gloam") {
            out.push(path);
        }
    }
}

/// Da Kunnin' Krew (seat 0) against the test warband (seat 1).
fn coven_rules() -> RulesetGame {
    let mut paths = Vec::new();
    gloam_files(&cards_dir(), &mut paths);
    paths.sort();
    let mut sources: Vec<gloam::load::Source> = paths
        .iter()
        .map(|p| {
            gloam::load::Source::new(
                p.display().to_string(),
                std::fs::read_to_string(p).expect("read"),
            )
        })
        .collect();
    sources.push(gloam::load::Source::new("coven.gloam", COVEN));
    let host = std::rc::Rc::new(gloam_dsl::Host::new());
    let (loaded, problems) = gloam::load::load(&sources, &host);
    assert!(
        problems.is_empty(),
        "{}",
        problems
            .first()
            .map(ToString::to_string)
            .unwrap_or_default()
    );
    let mut spec = gloam::sim::default_match(&loaded, "harrowdeep").expect("a match");
    spec.seats[0].warband = "Da Kunnin' Krew".into();
    spec.seats[1].warband = "Test Coven".into();
    spec.seats[1].decklist = None;
    RulesetGame::new(std::rc::Rc::new(loaded), host, spec).expect("the match sets up")
}

#[test]
fn a_spell_attack_rolls_wizard_level_magic_dice_with_backlash_and_counts_as_cast() {
    // Harrowdeep, spell Attack actions (3.17; 002 L2206-2217, L2691-2698): magic dice, as
    // many as the wizard level when Dice is "-"; 2 or more criticals are backlash (1 damage
    // to the caster); a successful spell attack is cast (`spells_cast_this_phase`).
    let rules = coven_rules();
    let (target, attacker) = duel_hexes(&rules);
    let (seer, shank) = (id(&rules, "Test Seer"), id(&rules, "Shank"));
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Shank", target);
        place(ctx, "Test Seer", attacker);
        ctx.fix_dice("magic", &["critical", "critical"]);
        ctx.fix_dice("defence", &["dodge"]);
    };
    let mut game = scenario(
        &rules,
        arrange,
        vec![frame(
            "attack",
            &[
                ("player", Value::Player(SEEKERS)),
                ("fighter", Value::Piece(seer)),
                ("target", Value::Piece(shank)),
                ("weapon", Value::Str("Test Bolt".into())),
            ],
        )],
    );
    loop {
        settle(&mut game);
        match pending(&game) {
            Some(asked) if asked.prompt == DRIVE_BACK => {
                answer(&mut game, SEEKERS, option("do not drive back"))
            }
            _ => break,
        }
    }
    let magic: Vec<usize> = game
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { dice, .. } if dice.iter().all(|d| d.die == "magic") => Some(dice.len()),
            _ => None,
        })
        .collect();
    assert_eq!(magic, vec![2], "wizard level 2");
    assert_eq!(damage(game.state(), "Test Seer"), 1, "backlash");
    assert_eq!(game_counter(game.state(), "attack_outcome"), 3);
    assert_eq!(damage(game.state(), "Shank"), 1);
    assert_eq!(spells_cast(game.state()), 1);
}

#[test]
fn an_attack_action_with_a_scything_weapon_attacks_every_adjacent_enemy() {
    // Harrowdeep, Scything (3.6; 002 L2542-2556): X = the enemies adjacent at the start;
    // one attack against each. The weapon's Knockback keyword (3.7) is Knockback 1.
    let rules = coven_rules();
    let (target, attacker) = duel_hexes(&rules);
    let other = target
        .neighbors()
        .into_iter()
        .find(|h| h.is_adjacent(attacker))
        .expect("a second hex next to the attacker");
    let reaper = id(&rules, "Test Reaper");
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Shank", target);
        place(ctx, "Gikkit", other);
        place(ctx, "Test Reaper", attacker);
    };
    let mut game = scenario(
        &rules,
        arrange,
        vec![frame(
            "attack_action",
            &[
                ("player", Value::Player(SEEKERS)),
                ("fighter", Value::Piece(reaper)),
            ],
        )],
    );
    let asked = pending(&game).expect("the first Scything target");
    assert_eq!(
        asked.prompt,
        "Which enemy does the Scything attack strike next?"
    );
    assert_eq!(
        asked.options,
        Options::One {
            choices: vec![
                Choice::Piece(id(&rules, "Gikkit")),
                Choice::Piece(id(&rules, "Shank"))
            ]
        }
    );
    answer(&mut game, SEEKERS, Choice::Piece(id(&rules, "Shank")));
    loop {
        settle(&mut game);
        match pending(&game) {
            Some(asked) if asked.prompt == DRIVE_BACK => {
                answer(&mut game, SEEKERS, option("do not drive back"))
            }
            _ => break,
        }
    }
    let declared = game
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Marker { name, .. } if name == "attack_declared"))
        .count();
    assert_eq!(declared, 2);
    // Marked for Titan of Krulety, whose reaction follows no Scything Attack action.
    assert_eq!(game_counter(game.state(), "attack_scything"), 1);
}

/// Dhoraz (Great Hammer: Stagger) hits Torka with a critical hit, Torka on Guard or not;
/// stopped at the first request that is not a pass.
fn great_hammer_hit(rules: &RulesetGame, guard: bool) -> Game<Scenario> {
    let (target, attacker) = duel_hexes(rules);
    let torka = id(rules, "Torka Tuffskul");
    let dhoraz = id(rules, "Dhoraz Giant-fell");
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Torka Tuffskul", target);
        place(ctx, "Dhoraz Giant-fell", attacker);
        if guard {
            ctx.set_tokens(Scope::Piece(torka), "guard", 1)
                .expect("guard");
        }
    };
    let f = frame(
        "attack_result",
        &[
            ("player", Value::Player(SEEKERS)),
            ("fighter", Value::Piece(dhoraz)),
            ("target", Value::Piece(torka)),
            ("weapon", Value::Str("Great Hammer".into())),
            ("rolls", rolls(&["critical"], &["smash"])),
        ],
    );
    let mut game = scenario(rules, arrange, vec![f]);
    settle(&mut game);
    game
}

/// Harrowdeep, Stagger (3.11; 002 L2558-2563): the token is given after the Attack action,
/// if it succeeds, before its reaction step; a guarded fighter cannot be driven back (002
/// L2603-2604). So a Stagger weapon's hit on a guarded target offers no drive back, and the
/// Guard goes only when the Stagger token comes (002 L2564-2566). (The flow gave Stagger in
/// combat step 5, which stripped the Guard before the drive back step.)
#[test]
fn stagger_comes_after_the_attack_so_a_guarded_target_is_not_driven_back() {
    let rules = rules();
    let game = great_hammer_hit(&rules, true);
    let state = game.state();
    assert_eq!(game_counter(state, "attack_outcome"), 3, "a critical hit");
    assert_eq!(damage(state, "Torka Tuffskul"), 3);
    assert!(
        pending(&game).is_none(),
        "no drive back for a guarded target"
    );
    let torka = &state.pieces[&piece(state, "Torka Tuffskul")];
    assert_eq!(torka.tokens.get("stagger"), Some(&1));
    assert_eq!(
        torka.tokens.get("guard"),
        None,
        "the Stagger token takes the Guard"
    );
    // Unguarded: the drive back is offered while the target has no Stagger token yet; it
    // comes once the drive back step is over.
    let mut game = great_hammer_hit(&rules, false);
    let asked = pending(&game).expect("the drive back is offered");
    assert_eq!(asked.prompt, DRIVE_BACK);
    let state = game.state();
    assert_eq!(
        state.pieces[&piece(state, "Torka Tuffskul")]
            .tokens
            .get("stagger"),
        None
    );
    answer(&mut game, asked.player, option("do not drive back"));
    settle(&mut game);
    let state = game.state();
    assert_eq!(
        state.pieces[&piece(state, "Torka Tuffskul")]
            .tokens
            .get("stagger"),
        Some(&1)
    );
}

/// Harrowdeep, Scything in an activation (3.6, 002 L2542-2556: each attack of the
/// superaction has its own reaction steps; 3.19, 002 L3133-3135: the end of the last action
/// is the end of the activation): the first attack's end opens `after_attack` alone; the last
/// attack's end opens `after_attack`, `after_action` and `after_activation` together, and
/// nothing opens after it. (The activation's window opened after the last attack's step.)
#[test]
fn in_an_activation_the_last_scything_attack_ends_the_activation() {
    let rules = coven_rules();
    let (target, attacker) = duel_hexes(&rules);
    let other = target
        .neighbors()
        .into_iter()
        .find(|h| h.is_adjacent(attacker))
        .expect("a second hex next to the attacker");
    let reaper = id(&rules, "Test Reaper");
    let arrange = move |ctx: &mut Ctx<'_>| {
        place(ctx, "Shank", target);
        place(ctx, "Gikkit", other);
        place(ctx, "Test Reaper", attacker);
    };
    let mut game = scenario(
        &rules,
        arrange,
        vec![frame("activation", &[("player", Value::Player(SEEKERS))])],
    );
    answer(&mut game, SEEKERS, option("attack"));
    answer(&mut game, SEEKERS, Choice::Piece(reaper));
    for _ in 0..40 {
        settle(&mut game);
        let Some(asked) = pending(&game) else { break };
        let choice = match asked.prompt.as_str() {
            DRIVE_BACK => option("do not drive back"),
            "Which enemy does the Scything attack strike next?" => match &asked.options {
                Options::One { choices } => choices[0].clone(),
                other => panic!("{other:?}"),
            },
            other => panic!("unexpected request: {other}"),
        };
        answer(&mut game, asked.player, choice);
    }
    assert!(pending(&game).is_none());
    let ends: Vec<String> = game
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Marker { name, .. }
                if ["after_attack", "after_action", "after_activation"]
                    .contains(&name.as_str()) =>
            {
                Some(name.clone())
            }
            _ => None,
        })
        .collect();
    // `attack_end` marks `after_attack` for the attacker, then its window marks it again.
    assert_eq!(
        ends,
        [
            "after_attack",
            "after_attack",
            "after_attack",
            "after_attack",
            "after_action",
            "after_activation"
        ]
    );
}
