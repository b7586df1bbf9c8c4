//! The vocabulary's terrain: hex types given in play (on top of the battlefield's own), the
//! computed edge type, and whose territory a hex is.

use gloam_core::{Hex, PlayerId};
use rhai::{Array, Dynamic, Engine, ImmutableString};

use crate::functions::{Ncc, Res, effect};
use crate::runtime::{RunState, Stop, with_run};

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

pub(crate) fn register(engine: &mut Engine) {
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
    engine.register_fn("battlefield_hexes", |ctx: Ncc| -> Res<Array> {
        with_run(&ctx, "battlefield_hexes", |run| {
            Ok(run.world.battlefield.hexes().map(Dynamic::from).collect())
        })
    });
}
