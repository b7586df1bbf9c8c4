//! The vocabulary's combat reach queries: which enemies a weapon reaches, which weapons
//! reach an enemy, and where a charge can end.
//!
//! A flow could write each of these as nested `filter`/`some` closures over `weapons`,
//! `enemy_fighters`, `distance`, `weapon_value` and `visible`; they are the hottest loops
//! of a game (every reachable hex × weapon × enemy, each activation), so they are done
//! here in Rust, with the same answers.

use crate::compiled::{Listed, Registrar};
use gloam_core::{Hex, Passage, PieceId, Position};
use rhai::{Array, Dynamic, ImmutableString};

use crate::fighters::{usable_weapons, weapon_value};
use crate::functions::{Ncc, Res, characteristic};
use crate::moves::{passage_through, reachable_hexes, reachable_hexes_passing};
use crate::runtime::{RunState, Stop, with_run};
use crate::values::{as_hex, as_string, list_of};

/// The hexes of the fighter's enemies on the battlefield (the pieces of other owners), in
/// fighter order.
fn enemy_hexes(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
) -> Result<Vec<(PieceId, Hex)>, Stop> {
    let state = run.state();
    let owner = state
        .piece(fighter)
        .ok_or_else(|| Stop::failed(function, format!("there is no {fighter}")))?
        .owner;
    Ok(state
        .pieces
        .values()
        .filter(|piece| piece.owner != owner)
        .filter_map(|piece| match piece.position {
            Some(Position::Hex(hex)) => Some((piece.id, hex)),
            _ => None,
        })
        .collect())
}

/// Whether an enemy in `to` is within `range` of `from` and visible from it.
fn reaches(run: &RunState, from: Hex, to: Hex, range: i64) -> bool {
    i64::from(from.distance_to(to)) <= range && run.world.sight.visible(from, to).unwrap_or(false)
}

/// The enemies of `fighter` that `weapon` reaches from where the fighter stands.
fn attack_targets(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    weapon: &str,
) -> Result<Vec<PieceId>, Stop> {
    let range = weapon_value(run, function, fighter, weapon, "range")?;
    let Some(from) = run.piece_hex(function, fighter)? else {
        return Ok(Vec::new());
    };
    Ok(enemy_hexes(run, function, fighter)?
        .into_iter()
        .filter(|&(_, to)| reaches(run, from, to, range))
        .map(|(enemy, _)| enemy)
        .collect())
}

/// The weapons `fighter` can use now that reach at least one enemy, in profile order.
fn armed_weapons(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
) -> Result<Vec<ImmutableString>, Stop> {
    let Some(from) = run.piece_hex(function, fighter)? else {
        return Ok(Vec::new());
    };
    let enemies = enemy_hexes(run, function, fighter)?;
    let mut armed = Vec::new();
    for weapon in usable_weapons(run, function, fighter)? {
        let range = weapon_value(run, function, fighter, &weapon.name, "range")?;
        if enemies.iter().any(|&(_, to)| reaches(run, from, to, range)) {
            armed.push(ImmutableString::from(weapon.name.as_str()));
        }
    }
    Ok(armed)
}

/// The hexes `fighter` can walk to with its `move` characteristic from which one of its
/// usable weapons reaches an enemy, sorted.
fn charge_hexes(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
) -> Result<Vec<Hex>, Stop> {
    let budget = characteristic(run, function, fighter, "move")?;
    let hexes = reachable_hexes(run, function, fighter, budget)?;
    if hexes.is_empty() {
        return Ok(hexes);
    }
    let mut longest = None;
    for weapon in usable_weapons(run, function, fighter)? {
        let range = weapon_value(run, function, fighter, &weapon.name, "range")?;
        longest = Some(longest.map_or(range, |best: i64| best.max(range)));
    }
    charge_hexes_within(run, function, fighter, hexes, longest)
}

/// The hexes `fighter` can charge to with one of `weapons` (names of weapons it can use
/// now): [`charge_hexes`] with those weapons only. Every name is checked, whether or not
/// the fighter can move.
fn charge_hexes_with(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    weapons: &[ImmutableString],
    passage: Passage,
) -> Result<Vec<Hex>, Stop> {
    let longest = longest_range(run, function, fighter, weapons)?;
    let budget = characteristic(run, function, fighter, "move")?;
    let hexes = reachable_hexes_passing(run, function, fighter, budget, passage)?;
    charge_hexes_within(run, function, fighter, hexes, longest)
}

/// The longest range of `fighter`'s `weapons` (`None` without a weapon).
fn longest_range(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    weapons: &[ImmutableString],
) -> Result<Option<i64>, Stop> {
    let mut longest = None;
    for weapon in weapons {
        let range = weapon_value(run, function, fighter, weapon, "range")?;
        longest = Some(longest.map_or(range, |best: i64| best.max(range)));
    }
    Ok(longest)
}

/// `charge_hexes(fighter, weapons, through)` for a script: the lists read, then
/// [`charge_hexes_with`] (an empty `through` is a walk).
fn charge_hexes_listed(
    ctx: &Ncc,
    fighter: PieceId,
    weapons: &Array,
    through: &Array,
) -> Res<Array> {
    const F: &str = "charge_hexes";
    with_run(ctx, F, |run| {
        let weapons = list_of(F, "weapons", "weapon names", weapons, as_string)?;
        let passage = passage_through(F, through)?;
        Ok(charge_hexes_with(run, F, fighter, &weapons, passage)?
            .into_iter()
            .map(Dynamic::from)
            .collect())
    })
}

/// Of `hexes`, those from which a visible enemy of `fighter` lies within `longest` (the
/// longest range of the weapons tried; `None` without a weapon: no hex). Some weapon
/// reaches some enemy exactly when the longest range does (sight does not depend on the
/// weapon).
fn charge_hexes_within(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    hexes: Vec<Hex>,
    longest: Option<i64>,
) -> Result<Vec<Hex>, Stop> {
    let Some(longest) = longest else {
        return Ok(Vec::new());
    };
    if hexes.is_empty() {
        return Ok(hexes);
    }
    let enemies = enemy_hexes(run, function, fighter)?;
    Ok(hexes
        .into_iter()
        .filter(|&from| {
            enemies
                .iter()
                .any(|&(_, to)| reaches(run, from, to, longest))
        })
        .collect())
}

pub(crate) fn register(engine: &mut Registrar) {
    engine.register_fn(
        "attack_targets",
        |ctx: Ncc, fighter: PieceId, weapon: ImmutableString| -> Res<Array> {
            with_run(&ctx, "attack_targets", |run| {
                Ok(attack_targets(run, "attack_targets", fighter, &weapon)?
                    .into_iter()
                    .map(Dynamic::from)
                    .collect())
            })
        },
    );
    engine.register_fn(
        "armed_weapons",
        |ctx: Ncc, fighter: PieceId| -> Res<Array> {
            with_run(&ctx, "armed_weapons", |run| {
                Ok(armed_weapons(run, "armed_weapons", fighter)?
                    .into_iter()
                    .map(Dynamic::from)
                    .collect())
            })
        },
    );
    engine.register_fn(
        "hexes_in_reach",
        |ctx: Ncc, fighter: PieceId, hexes: Array, weapons: Array| -> Res<Array> {
            const F: &str = "hexes_in_reach";
            with_run(&ctx, F, |run| {
                let hexes = list_of(F, "hexes", "hexes", &hexes, as_hex)?;
                let weapons = list_of(F, "weapons", "weapon names", &weapons, as_string)?;
                let longest = longest_range(run, F, fighter, &weapons)?;
                Ok(charge_hexes_within(run, F, fighter, hexes, longest)?
                    .into_iter()
                    .map(Dynamic::from)
                    .collect())
            })
        },
    );
    engine.register_typed(
        "charge_hexes",
        |ctx: Ncc, fighter: PieceId| -> Res<Listed> {
            with_run(&ctx, "charge_hexes", |run| {
                Ok(Listed::of(charge_hexes(run, "charge_hexes", fighter)?))
            })
        },
    );
    engine.register_fn(
        "charge_hexes",
        |ctx: Ncc, fighter: PieceId, weapons: Array| -> Res<Array> {
            charge_hexes_listed(&ctx, fighter, &weapons, &Array::new())
        },
    );
    engine.register_fn(
        "charge_hexes",
        |ctx: Ncc, fighter: PieceId, weapons: Array, through: Array| -> Res<Array> {
            charge_hexes_listed(&ctx, fighter, &weapons, &through)
        },
    );
}
