//! The fighter profiles' catalog: weapons on each side, their values, symbols and keywords,
//! defence symbols, and the hexes around a fighter.

mod common;

use common::{Fixture, fixture};
use gloam_core::{Ctx, Hex, Value};
use gloam_dsl::{FighterInfo, Side, WeaponInfo};

fn strings(list: &[&str]) -> Value {
    Value::List(list.iter().map(|s| Value::Str((*s).into())).collect())
}

fn hexes(list: &[(i32, i32)]) -> Value {
    Value::List(
        list.iter()
            .map(|&(q, r)| Value::Hex(Hex::new(q, r)))
            .collect(),
    )
}

/// The fixture with the hero's profile: a Sword on both sides (`cleave`, and `grievous`
/// while inspired), an Axe while uninspired, a Great Axe while inspired; the brute's
/// profile is unknown.
fn with_profiles() -> Fixture {
    let mut f = fixture();
    f.world = f.world.clone().with_fighter(
        "hero",
        FighterInfo::new()
            .with_defence_symbol("shield")
            .with_weapon(
                WeaponInfo::new("Sword", 1, 2, 1, "swords")
                    .with_keywords(["cleave"])
                    .with_inspired_keywords(["grievous"]),
            )
            .with_weapons([
                WeaponInfo::new("Axe", 1, 3, 2, "hammer").with_side(Side::Uninspired),
                WeaponInfo::new("Great Axe", 2, 3, 3, "hammer")
                    .with_die("attack")
                    .with_side(Side::Inspired),
            ]),
    );
    f
}

#[test]
fn the_world_knows_fighter_profiles_by_kind() {
    let f = with_profiles();
    let hero = f.world.fighter("hero").expect("profile");
    assert_eq!(hero.defence_symbol.as_deref(), Some("shield"));
    let names: Vec<&str> = hero.weapons.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(names, ["Sword", "Axe", "Great Axe"]);
    assert_eq!(hero.weapons[2].die.as_deref(), Some("attack"));
    assert_eq!(hero.weapons[2].side, Some(Side::Inspired));
    assert!(f.world.fighter("brute").is_none());
}

#[test]
fn weapons_follow_the_fighters_side() {
    let mut f = with_profiles();
    assert_eq!(
        f.value("let before = weapons(this_fighter); inspire(this_fighter); [before, weapons(this_fighter)]"),
        Value::List(vec![
            strings(&["Sword", "Axe"]),
            strings(&["Sword", "Great Axe"])
        ])
    );
    // A fighter whose kind the world does not know has no weapons.
    assert_eq!(f.value("weapons(target)"), strings(&[]));
}

#[test]
fn weapon_values_and_symbols() {
    let mut f = with_profiles();
    assert_eq!(
        f.value(
            "[weapon_value(this_fighter, \"Axe\", \"range\"), \
              weapon_value(this_fighter, \"Axe\", \"dice\"), \
              weapon_value(this_fighter, \"Axe\", \"damage\"), \
              weapon_symbol(this_fighter, \"Axe\"), weapon_symbol(this_fighter, \"Sword\")]"
        ),
        Value::List(vec![
            Value::Int(1),
            Value::Int(3),
            Value::Int(2),
            Value::Str("hammer".into()),
            Value::Str("swords".into()),
        ])
    );
    assert_eq!(
        f.value("inspire(this_fighter); weapon_value(this_fighter, \"Great Axe\", \"range\")"),
        Value::Int(2)
    );
}

#[test]
fn weapon_values_add_the_modifiers_of_attack_characteristics() {
    let mut f = with_profiles();
    let hero = f.hero;
    {
        let mut ctx = Ctx::new(&mut f.state, &mut f.events);
        ctx.set_characteristic(hero, "attack_dice", 5)
            .expect("characteristic");
    }
    f.events.clear();
    // The characteristic's base does not count; only what modifiers add to it.
    assert_eq!(
        f.value("weapon_value(this_fighter, \"Axe\", \"dice\")"),
        Value::Int(3)
    );
    assert_eq!(
        f.value(
            "modify(this_fighter, \"attack_dice\", 2, \"phase_end\"); \
             modify(this_fighter, \"attack_range\", 2, \"phase_end\"); \
             [weapon_value(this_fighter, \"Axe\", \"dice\"), \
              weapon_value(this_fighter, \"Axe\", \"range\"), \
              weapon_value(this_fighter, \"Axe\", \"damage\")]"
        ),
        // No `attack_range` characteristic: its modifier changes nothing.
        Value::List(vec![Value::Int(5), Value::Int(1), Value::Int(2)])
    );
}

#[test]
fn weapon_keywords_count_inspired_keywords_only_while_inspired() {
    let mut f = with_profiles();
    let check = "[weapon_has_keyword(this_fighter, \"Sword\", \"cleave\"), \
                 weapon_has_keyword(this_fighter, \"Sword\", \"grievous\"), \
                 weapon_has_keyword(this_fighter, \"Sword\", \"knockback\")]";
    assert_eq!(
        f.value(check),
        Value::List(vec![
            Value::Bool(true),
            Value::Bool(false),
            Value::Bool(false)
        ])
    );
    assert_eq!(
        f.value(&format!("inspire(this_fighter); {check}")),
        Value::List(vec![
            Value::Bool(true),
            Value::Bool(true),
            Value::Bool(false)
        ])
    );
}

#[test]
fn unknown_weapons_and_stats_are_runtime_errors() {
    let mut f = with_profiles();
    for (text, message) in [
        (
            "weapon_value(this_fighter, \"Spoon\", \"dice\")",
            "`weapon_value`: piece0 has no weapon \"Spoon\" on its current side",
        ),
        (
            "weapon_value(this_fighter, \"Great Axe\", \"dice\")",
            "`weapon_value`: piece0 has no weapon \"Great Axe\" on its current side",
        ),
        (
            "weapon_value(this_fighter, \"Axe\", \"reach\")",
            "`weapon_value`: a weapon has no value \"reach\" (only \"range\", \"dice\", \"damage\")",
        ),
        (
            "weapon_symbol(target, \"Axe\")",
            "`weapon_symbol`: piece1 has no weapon \"Axe\" on its current side",
        ),
        (
            "inspire(this_fighter); weapon_has_keyword(this_fighter, \"Axe\", \"cleave\")",
            "`weapon_has_keyword`: piece0 has no weapon \"Axe\" on its current side",
        ),
    ] {
        let error = f.failure(text);
        assert_eq!(error.code_name(), "gloam::dsl::runtime_error", "{text}");
        assert_eq!(
            error.to_string(),
            format!("test effect failed: {message}"),
            "{text}"
        );
    }
}

#[test]
fn defence_symbol_of_the_profile_or_unit() {
    let mut f = with_profiles();
    assert_eq!(
        f.value("[defence_symbol(this_fighter), defence_symbol(target)]"),
        Value::List(vec![Value::Str("shield".into()), Value::Unit])
    );
}

#[test]
fn hexes_around_a_fighter_or_a_hex() {
    let mut f = fixture();
    assert_eq!(
        f.value("hexes_around(this_fighter)"),
        hexes(&[(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)])
    );
    // At the edge of the battlefield, only the hexes on it.
    assert_eq!(
        f.value("hexes_around(hex(3, 0))"),
        hexes(&[(2, 0), (2, 1), (3, -1)])
    );
    assert_eq!(f.value("hexes_around(hex(9, 0))"), hexes(&[]));
    assert_eq!(
        f.value("take_off(target); hexes_around(target)"),
        hexes(&[])
    );
    let error = f.failure("hexes_around(1)");
    assert!(
        error
            .to_string()
            .contains("`x` must be a fighter or a hex, not a"),
        "{error}"
    );
}
