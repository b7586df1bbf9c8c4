//! The vocabulary's fighter profiles: the weapons a fighter can use on its current side,
//! their values and keywords, its defence symbol, and the hexes around it. Its abilities and
//! inspire condition are in `abilities.rs`.

use crate::compiled::{Arg, Registrar};
use gloam_core::{Hex, PieceId};
use rhai::{Array, Dynamic, ImmutableString};

use crate::functions::{Ncc, Res, has_keyword, place};
use crate::runtime::{RunState, Stop, with_run};
use crate::world::{FighterInfo, Side, WeaponInfo};

/// The fighter's profile in the catalog, if the world knows its kind.
pub(crate) fn profile<'a>(
    run: &'a RunState,
    function: &'static str,
    fighter: PieceId,
) -> Result<Option<&'a FighterInfo>, Stop> {
    let piece = run
        .state()
        .piece(fighter)
        .ok_or_else(|| Stop::failed(function, format!("there is no {fighter}")))?;
    Ok(run.world.fighters.get(&piece.kind))
}

pub(crate) fn inspired(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
) -> Result<bool, Stop> {
    has_keyword(run, function, fighter, &run.world.names.inspired)
}

/// Whether a weapon (or an ability) of `side` can be used by a fighter that is (or is not) inspired.
pub(crate) fn usable(side: Option<Side>, inspired: bool) -> bool {
    match side {
        None => true,
        Some(Side::Inspired) => inspired,
        Some(Side::Uninspired) => !inspired,
    }
}

/// The weapons the fighter can use now, in the profile's order, then those of the Attack
/// action upgrades equipped on it, in the order they were given.
pub(crate) fn usable_weapons<'a>(
    run: &'a RunState,
    function: &'static str,
    fighter: PieceId,
) -> Result<Vec<&'a WeaponInfo>, Stop> {
    let inspired = inspired(run, function, fighter)?;
    let mut weapons: Vec<&'a WeaponInfo> = profile(run, function, fighter)?
        .map(|info| {
            info.weapons
                .iter()
                .filter(|weapon| usable(weapon.side, inspired))
                .collect()
        })
        .unwrap_or_default();
    weapons.extend(crate::cards::equipped_weapons(run, function, fighter)?);
    Ok(weapons)
}

/// The weapon named `name` the fighter can use now (the first, if the profile lists several).
fn weapon<'a>(
    run: &'a RunState,
    function: &'static str,
    fighter: PieceId,
    name: &str,
) -> Result<&'a WeaponInfo, Stop> {
    usable_weapons(run, function, fighter)?
        .into_iter()
        .find(|weapon| weapon.name == name)
        .ok_or_else(|| {
            Stop::failed(
                function,
                format!("{fighter} has no weapon {name:?} on its current side"),
            )
        })
}

/// A weapon's `range`, `dice` or `damage`, plus what modifiers add to the fighter's
/// characteristic `attack_<stat>`, if it has one.
pub(crate) fn weapon_value(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    name: &str,
    stat: &str,
) -> Result<i64, Stop> {
    let weapon = weapon(run, function, fighter, name)?;
    let (value, characteristic) = match stat {
        "range" => (weapon.range, "attack_range"),
        "dice" => (weapon.dice, "attack_dice"),
        "damage" => (weapon.damage, "attack_damage"),
        _ => {
            return Err(Stop::failed(
                function,
                format!("a weapon has no value {stat:?} (only \"range\", \"dice\", \"damage\")"),
            ));
        }
    };
    let state = run.state();
    let base = state
        .piece(fighter)
        .and_then(|piece| piece.characteristics.get(characteristic).copied());
    let modified = state.characteristic(fighter, characteristic);
    Ok(match (base, modified) {
        (Some(base), Some(modified)) => value.saturating_add(modified.saturating_sub(base)),
        _ => value,
    })
}

pub(crate) fn register(engine: &mut Registrar) {
    crate::abilities::register(engine);
    engine.register_fn("weapons", |ctx: Ncc, fighter: PieceId| -> Res<Array> {
        with_run(&ctx, "weapons", |run| {
            Ok(usable_weapons(run, "weapons", fighter)?
                .into_iter()
                .map(|weapon| Dynamic::from(ImmutableString::from(weapon.name.as_str())))
                .collect())
        })
    });
    engine.register_fn(
        "weapon_value",
        |ctx: Ncc, fighter: PieceId, weapon: ImmutableString, stat: ImmutableString| -> Res<i64> {
            with_run(&ctx, "weapon_value", |run| {
                weapon_value(run, "weapon_value", fighter, &weapon, &stat)
            })
        },
    );
    engine.register_fn(
        "weapon_symbol",
        |ctx: Ncc, fighter: PieceId, name: ImmutableString| -> Res<ImmutableString> {
            with_run(&ctx, "weapon_symbol", |run| {
                Ok(weapon(run, "weapon_symbol", fighter, &name)?
                    .symbol
                    .as_str()
                    .into())
            })
        },
    );
    engine.register_fn(
        "weapon_die",
        |ctx: Ncc, fighter: PieceId, name: ImmutableString| -> Res<Dynamic> {
            with_run(&ctx, "weapon_die", |run| {
                Ok(weapon(run, "weapon_die", fighter, &name)?
                    .die
                    .as_deref()
                    .map_or(Dynamic::UNIT, |die| {
                        Dynamic::from(ImmutableString::from(die))
                    }))
            })
        },
    );
    engine.register_fn(
        "weapon_has_keyword",
        |ctx: Ncc,
         fighter: PieceId,
         name: ImmutableString,
         keyword: ImmutableString|
         -> Res<bool> {
            with_run(&ctx, "weapon_has_keyword", |run| {
                const F: &str = "weapon_has_keyword";
                let weapon = weapon(run, F, fighter, &name)?;
                Ok(weapon.keywords.contains(keyword.as_str())
                    || (weapon.inspired_keywords.contains(keyword.as_str())
                        && inspired(run, F, fighter)?))
            })
        },
    );
    engine.register_fn(
        "defence_symbol",
        |ctx: Ncc, fighter: PieceId| -> Res<Dynamic> {
            with_run(&ctx, "defence_symbol", |run| {
                Ok(profile(run, "defence_symbol", fighter)?
                    .and_then(|info| info.defence_symbol.as_deref())
                    .map_or(Dynamic::UNIT, |symbol| {
                        Dynamic::from(ImmutableString::from(symbol))
                    }))
            })
        },
    );
    engine.register_typed("hexes_around", |ctx: Ncc, x: Arg| -> Res<Array> {
        with_run(&ctx, "hexes_around", |run| {
            let Some(center) = place(run, "hexes_around", "x", &x.0)? else {
                return Ok(Array::new());
            };
            let mut around: Vec<Hex> = center
                .neighbors()
                .into_iter()
                .filter(|&hex| run.world.battlefield.contains(hex))
                .collect();
            around.sort();
            Ok(around.into_iter().map(Dynamic::from).collect())
        })
    });
}
