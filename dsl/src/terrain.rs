//! The vocabulary's terrain: hex types given in play (on top of the battlefield's own), the
//! computed edge type, and whose territory a hex is.

use crate::compiled::{Items, Listed, Registrar};
use gloam_core::{Hex, Passage, PieceId, PlayerId, reachable_flying};
use rhai::{Array, Dynamic, ImmutableString};

use crate::functions::{Ncc, Res, effect, refused};
use crate::moves::{grid_for, place_along_path};
use crate::runtime::{RunState, Stop, with_run};
use crate::values::{as_hex, items_of, list_of, val_hex, val_string};

/// Whether `hex` is on the battlefield and has the type `name`: printed on its board, given
/// in play (`set_hex_type`), or the world's edge type for a hex with fewer than six
/// neighbours.
pub(crate) fn hex_has_type(run: &RunState, hex: Hex, name: &str) -> bool {
    let battlefield = &run.world.battlefield;
    if !battlefield.contains(hex) {
        return false;
    }
    battlefield.has_type(hex, name)
        || run.state().hex_types.contains(&(hex, name.to_owned()))
        || (name == run.world.names.edge && battlefield.is_edge(hex))
}

/// The hexes of `hexes` that have none of the types `names` as [`hex_has_type`] reads
/// them, in their order: each hex's printed types are found once, and the hexes given a
/// type in play once for all of them.
fn without_types<'a>(
    run: &'a RunState,
    hexes: Vec<Hex>,
    names: &'a [ImmutableString],
) -> impl Iterator<Item = Hex> + 'a {
    let battlefield = &run.world.battlefield;
    let given: std::collections::BTreeSet<Hex> = run
        .state()
        .hex_types
        .iter()
        .filter(|(_, kind)| names.iter().any(|name| name.as_str() == kind.as_str()))
        .map(|(hex, _)| *hex)
        .collect();
    let edge = names
        .iter()
        .any(|name| name.as_str() == run.world.names.edge);
    hexes.into_iter().filter(move |&hex| {
        let Some(cell) = battlefield.hex(hex) else {
            // Off the battlefield a hex has no type.
            return true;
        };
        !(names.iter().any(|name| cell.types.contains(name.as_str()))
            || given.contains(&hex)
            || (edge && battlefield.is_edge(hex)))
    })
}

/// The battlefield hexes of type `name`, as [`hex_has_type`] reads types, sorted.
pub(crate) fn hexes_of_type(run: &RunState, name: &str) -> Vec<Hex> {
    let battlefield = &run.world.battlefield;
    let mut hexes = battlefield.hexes_of_type(name);
    hexes.extend(
        run.state()
            .hex_types
            .iter()
            .filter(|(hex, kind)| kind == name && battlefield.contains(*hex))
            .map(|(hex, _)| *hex),
    );
    if name == run.world.names.edge {
        hexes.extend(battlefield.edge_hexes());
    }
    hexes.sort();
    hexes.dedup();
    hexes
}

pub(crate) fn register(engine: &mut Registrar) {
    engine.register_fn(
        "set_hex_type",
        |ctx: Ncc, hex: Hex, name: ImmutableString, present: bool| -> Res<()> {
            with_run(&ctx, "set_hex_type", |run| {
                effect(run, "set_hex_type")?;
                if !run.world.battlefield.contains(hex) {
                    return Err(Stop::refused(
                        "set_hex_type",
                        format!("{hex} is not on the battlefield"),
                    ));
                }
                run.ctx().set_hex_type(hex, &name, present);
                Ok(())
            })
        },
    );
    engine.register_fn("territory_of", |ctx: Ncc, hex: Hex| -> Res<Dynamic> {
        with_run(&ctx, "territory_of", |run| {
            let world = &run.world;
            let Some(name) = world.battlefield.territory(hex) else {
                return Ok(Dynamic::UNIT);
            };
            let owner: Option<PlayerId> = world
                .territories
                .iter()
                .find(|(_, territory)| territory.as_str() == name)
                .map(|(player, _)| *player);
            Ok(owner.map_or(Dynamic::UNIT, Dynamic::from))
        })
    });
    engine.register_typed(
        "hexes_without_types",
        |ctx: Ncc, hexes: Items, types: Items| -> Res<Listed> {
            const F: &str = "hexes_without_types";
            with_run(&ctx, F, |run| {
                let hexes = items_of(F, "hexes", "hexes", &hexes.0, val_hex)?;
                let types = items_of(F, "types", "hex type names", &types.0, val_string)?;
                Ok(Listed::of(without_types(run, hexes, &types)))
            })
        },
    );
    engine.register_fn(
        "hexes_farther_than",
        |ctx: Ncc, hexes: Array, others: Array, distance: i64| -> Res<Array> {
            const F: &str = "hexes_farther_than";
            with_run(&ctx, F, |_| {
                let hexes = list_of(F, "hexes", "hexes", &hexes, as_hex)?;
                let others = list_of(F, "others", "hexes", &others, as_hex)?;
                Ok(hexes
                    .into_iter()
                    .filter(|&hex| {
                        others
                            .iter()
                            .all(|&other| i64::from(hex.distance_to(other)) > distance)
                    })
                    .map(Dynamic::from)
                    .collect())
            })
        },
    );
    engine.register_fn("battlefield_layouts", |ctx: Ncc| -> Res<Array> {
        with_run(&ctx, "battlefield_layouts", |run| {
            Ok(run
                .world
                .layouts
                .iter()
                .map(|name| Dynamic::from(ImmutableString::from(name.as_str())))
                .collect())
        })
    });
    engine.register_fn("battlefield_layout", |ctx: Ncc| -> Res<Dynamic> {
        with_run(&ctx, "battlefield_layout", |run| {
            let index = run.state().counter(&run.world.names.layout);
            Ok(usize::try_from(index)
                .ok()
                .and_then(|index| run.world.layouts.get(index))
                .map_or(Dynamic::UNIT, |name| {
                    Dynamic::from(ImmutableString::from(name.as_str()))
                }))
        })
    });
    engine.register_fn(
        "lay_out_battlefield",
        |ctx: Ncc, name: ImmutableString| -> Res<()> {
            const F: &str = "lay_out_battlefield";
            with_run(&ctx, F, |run| {
                effect(run, F)?;
                let layouts = &run.world.layouts;
                let Some(index) = layouts.iter().position(|layout| layout == name.as_str()) else {
                    let known = if layouts.is_empty() {
                        "this battlefield has one layout and no names for it".to_owned()
                    } else {
                        format!(
                            "the layouts are {}",
                            layouts
                                .iter()
                                .map(|layout| format!("{layout:?}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    };
                    return Err(Stop::refused(
                        F,
                        format!("there is no battlefield layout {name:?}: {known}"),
                    ));
                };
                // The boards are laid out before anything is placed on them.
                let state = run.state();
                let placed = state.pieces.values().any(|piece| piece.position.is_some());
                if placed || !state.hex_types.is_empty() {
                    return Err(Stop::refused(
                        F,
                        "the battlefield is laid out before anything is placed on it \
                         (a piece stands on it or a hex was given a type in play)",
                    ));
                }
                let counter = run.world.names.layout.clone();
                run.ctx()
                    .set_counter(gloam_core::Scope::Game, &counter, index as i64)
                    .map_err(|error| Stop::refused(F, error))
            })
        },
    );
    engine.register_typed("battlefield_hexes", |ctx: Ncc| -> Res<Listed> {
        with_run(&ctx, "battlefield_hexes", |run| {
            Ok(Listed::of(run.world.battlefield.hexes()))
        })
    });
    engine.register_fn(
        "flying_hexes",
        |ctx: Ncc, fighter: PieceId, budget: i64| -> Res<Array> {
            with_run(&ctx, "flying_hexes", |run| {
                if budget < 0 {
                    return Err(Stop::failed(
                        "flying_hexes",
                        format!("the budget must be 0 or more, not {budget}"),
                    ));
                }
                let Some(start) = run.piece_hex("flying_hexes", fighter)? else {
                    return Ok(Array::new());
                };
                let budget = u32::try_from(budget.min(run.world.battlefield.len() as i64))
                    .unwrap_or(u32::MAX);
                Ok(reachable_flying(&grid_for(run, fighter), start, budget)
                    .hexes()
                    .into_iter()
                    .map(Dynamic::from)
                    .collect())
            })
        },
    );
    engine.register_fn(
        "fly_fighter",
        |ctx: Ncc, fighter: PieceId, hex: Hex| -> Res<Array> {
            with_run(&ctx, "fly_fighter", |run| {
                const F: &str = "fly_fighter";
                effect(run, F)?;
                let Some(start) = run.piece_hex(F, fighter).map_err(refused)? else {
                    return Err(Stop::refused(
                        F,
                        format!("{fighter} is not on the battlefield"),
                    ));
                };
                if start == hex {
                    return Ok(Array::new());
                }
                if !run.world.battlefield.contains(hex) || run.world.blocked.contains(&hex) {
                    return Err(Stop::refused(
                        F,
                        format!("{hex} is not an open battlefield hex"),
                    ));
                }
                place_along_path(run, F, fighter, start, hex, Passage::FLYING)
            })
        },
    );
}
