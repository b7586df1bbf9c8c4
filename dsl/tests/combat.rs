//! The combat reach queries (`attack_targets`, `armed_weapons`, `charge_hexes`,
//! `hexes_in_reach`): what they
//! return, and that they answer exactly as the nested closures they replace in the flows.

mod common;

use common::{Fixture, fixture, render};
use gloam_core::{Ctx, Hex, PlayerId, Position, Value};
use gloam_dsl::{Bindings, FighterInfo, Side, WeaponInfo};

/// The fixture with the hero's profile: a Sword (range 1) on both sides, a Bow (range 3)
/// while uninspired, a Spear (range 2) while inspired. The brute and the archer have no
/// profile, so no weapons.
fn armed() -> Fixture {
    let mut f = fixture();
    f.world = f.world.clone().with_fighter(
        "hero",
        FighterInfo::new()
            .with_weapon(WeaponInfo::new("Sword", 1, 2, 1, "swords"))
            .with_weapons([
                WeaponInfo::new("Bow", 3, 1, 1, "hammer").with_side(Side::Uninspired),
                WeaponInfo::new("Spear", 2, 2, 2, "hammer").with_side(Side::Inspired),
            ]),
    );
    f
}

fn pieces(list: &[gloam_core::PieceId]) -> Value {
    Value::List(list.iter().map(|&p| Value::Piece(p)).collect())
}

fn strings(list: &[&str]) -> Value {
    Value::List(list.iter().map(|s| Value::Str((*s).into())).collect())
}

/// The queries written as the closures the Harrowdeep flow used before they were native,
/// compared with the native ones for `this_fighter`, acting for its owner.
const AGREE: &str = r#"
    fn targets(f, weapon) {
        enemy_fighters().filter(|e| distance(f, e) <= weapon_value(f, weapon, "range") && visible(f, e))
    }
    fn slow_charge_hexes(f) {
        reachable_hexes(f, characteristic(f, "move")).filter(|h| weapons(f).some(|w|
            enemy_fighters().some(|e| distance(h, e) <= weapon_value(f, w, "range") && visible(h, e))))
    }
    fn slow_charge_hexes_with(f, list) {
        reachable_hexes(f, characteristic(f, "move")).filter(|h| list.some(|w|
            enemy_fighters().some(|e| distance(h, e) <= weapon_value(f, w, "range") && visible(h, e))))
    }
    fn slow_in_reach(f, hexes, list) {
        hexes.filter(|h| list.some(|w|
            enemy_fighters().some(|e| distance(h, e) <= weapon_value(f, w, "range") && visible(h, e))))
    }
    fn slow_charge_hexes_through(f, through) {
        reachable_hexes(f, characteristic(f, "move"), through).filter(|h| weapons(f).some(|w|
            enemy_fighters().some(|e| distance(h, e) <= weapon_value(f, w, "range") && visible(h, e))))
    }
    let f = this_fighter;
    weapons(f).all(|w| attack_targets(f, w) == targets(f, w))
        && armed_weapons(f) == weapons(f).filter(|w| targets(f, w).len() > 0)
        && charge_hexes(f) == slow_charge_hexes(f)
        && charge_hexes(f, weapons(f)) == charge_hexes(f)
        && weapons(f).all(|w| charge_hexes(f, [w]) == slow_charge_hexes_with(f, [w]))
        && charge_hexes(f, []).is_empty()
        && charge_hexes(f, weapons(f), []) == charge_hexes(f)
        && [["occupied"], ["blocked"], ["blocked", "occupied"]].all(|through|
            charge_hexes(f, weapons(f), through) == slow_charge_hexes_through(f, through))
        && [1, 2, 4].all(|budget| [reachable_hexes(f, budget), flying_hexes(f, budget), battlefield_hexes()]
            .all(|hexes| hexes_in_reach(f, hexes, weapons(f)) == slow_in_reach(f, hexes, weapons(f))
                && weapons(f).all(|w| hexes_in_reach(f, hexes, [w]) == slow_in_reach(f, hexes, [w]))))
        && hexes_in_reach(f, reachable_hexes(f, characteristic(f, "move")), weapons(f)) == charge_hexes(f)
        && hexes_in_reach(f, battlefield_hexes(), []).is_empty()
"#;

#[test]
fn attack_targets_lists_the_enemies_in_range_and_in_sight() {
    let mut f = armed();
    // The brute stands next to the hero; the archer is 2 hexes away, behind a blocked hex.
    assert_eq!(
        f.value("attack_targets(this_fighter, \"Sword\")"),
        pieces(&[f.brute])
    );
    assert_eq!(
        f.value("attack_targets(this_fighter, \"Bow\")"),
        pieces(&[f.brute])
    );
    // Moved to (-1, 2), the hero is next to the archer and 2 hexes from the brute.
    f.value("move_fighter(this_fighter, hex(-1, 2))");
    assert_eq!(
        f.value("attack_targets(this_fighter, \"Sword\")"),
        pieces(&[f.archer])
    );
    assert_eq!(
        f.value("attack_targets(this_fighter, \"Bow\")"),
        pieces(&[f.brute, f.archer])
    );
}

#[test]
fn armed_weapons_keeps_the_weapons_that_reach_an_enemy_in_profile_order() {
    let mut f = armed();
    f.value("move_fighter(this_fighter, hex(0, -1))");
    // Two hexes from the brute: the Bow reaches, the Sword does not; inspired, the Spear
    // takes the Bow's place.
    assert_eq!(f.value("armed_weapons(this_fighter)"), strings(&["Bow"]));
    f.value("inspire(this_fighter)");
    assert_eq!(f.value("armed_weapons(this_fighter)"), strings(&["Spear"]));
    // A fighter with no profile has no weapons.
    assert_eq!(f.value("armed_weapons(target)"), strings(&[]));
}

#[test]
fn charge_hexes_are_reachable_hexes_from_which_a_weapon_reaches_an_enemy() {
    let mut f = armed();
    let hexes = f.value("charge_hexes(this_fighter)");
    let Value::List(hexes) = hexes else {
        panic!("a list: {hexes:?}");
    };
    assert!(!hexes.is_empty());
    assert_eq!(f.value("charge_hexes(target)"), Value::List(vec![]));
    // Off the battlefield, none.
    f.value("take_off(this_fighter)");
    assert_eq!(f.value("charge_hexes(this_fighter)"), Value::List(vec![]));
    assert_eq!(f.value("armed_weapons(this_fighter)"), strings(&[]));
}

#[test]
fn charge_hexes_with_weapons_the_fighter_cannot_use_fails() {
    let mut f = armed();
    // The Spear is the inspired side's: named while uninspired, the call fails, even where
    // the hero could not move.
    let error = f.failure(r#"charge_hexes(this_fighter, ["Sword", "Spear"])"#);
    assert!(
        error
            .to_string()
            .contains("no weapon \"Spear\" on its current side"),
        "{error}"
    );
    let error = f.failure("charge_hexes(this_fighter, [1])");
    assert!(error.to_string().contains("item 1 is a int"), "{error}");
    let error = f.failure(r#"hexes_in_reach(this_fighter, [hex(0, 0), 2], ["Sword"])"#);
    assert_eq!(
        error.to_string(),
        "test effect failed: `hexes_in_reach`: `hexes` must be a list of hexes; item 2 is a int"
    );
    let error = f.failure(r#"hexes_in_reach(this_fighter, [hex(0, 0)], ["Spear"])"#);
    assert!(
        error
            .to_string()
            .contains("no weapon \"Spear\" on its current side"),
        "{error}"
    );
    f.value("take_off(this_fighter)");
    assert_eq!(
        f.value(r#"charge_hexes(this_fighter, ["Sword"])"#),
        Value::List(vec![])
    );
}

#[test]
fn attack_targets_with_a_weapon_the_fighter_cannot_use_fails() {
    let mut f = armed();
    let error = f.failure("attack_targets(this_fighter, \"Spear\")");
    assert!(
        error
            .to_string()
            .contains("no weapon \"Spear\" on its current side"),
        "{error}"
    );
}

#[test]
fn combat_queries_agree_with_their_closure_formulation_on_every_hex_and_side() {
    let f = armed();
    let script = f.condition(AGREE);
    let open: Vec<Hex> = Hex::ORIGIN
        .range(3)
        .into_iter()
        .filter(|&hex| hex != Hex::new(-1, 1) && hex != Hex::new(1, 0) && hex != Hex::new(-2, 2))
        .collect();
    let mut checked = 0;
    for inspired in [false, true] {
        for &hex in &open {
            let mut state = f.state.clone();
            let mut events = Vec::new();
            {
                let mut ctx = Ctx::new(&mut state, &mut events);
                ctx.place_piece(f.hero, Some(Position::Hex(hex)), vec![], "test")
                    .expect("place");
                ctx.set_keyword(f.hero, "inspired", inspired)
                    .expect("keyword");
            }
            let bindings = Bindings::new()
                .acting(PlayerId(0))
                .with("this_fighter", Value::Piece(f.hero));
            let holds = f
                .host
                .evaluate_bool(&script, &f.world, &state, &bindings)
                .unwrap_or_else(|error| panic!("{}", render(&error)));
            assert!(
                holds,
                "the queries disagree with the hero at {hex}, inspired: {inspired}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * open.len());
}
