//! The vocabulary's fighters and movement: who a player has, where they can go, moving,
//! placing and taking them off.

use crate::compiled::{Listed, Registrar};
use std::collections::BTreeSet;

use gloam_core::{
    Choice, Hex, Passage, PieceId, PlayerId, Position, can_reach, path_avoiding, path_is_legal,
    reachable_avoiding, routes_to,
};
use rhai::{Array, Dynamic, ImmutableString};

use crate::functions::{Ncc, PushGrid, Res, ask, effect, refused};
use crate::runtime::{RunState, Stop, with_run};
use crate::terrain::hex_has_type;
use crate::values::{as_hex, as_string, list_of};

/// The fighters of `player` (pieces of no layer), in id order, whose hex (`None` off the
/// battlefield, as `on_battlefield` reads it) passes `keep`.
fn fighters_where(
    run: &RunState,
    function: &'static str,
    player: PlayerId,
    keep: impl Fn(Option<Hex>) -> bool,
) -> Result<Listed, Stop> {
    if run.state().player(player).is_none() {
        return Err(Stop::failed(function, format!("there is no {player}")));
    }
    Ok(Listed::of(
        run.state()
            .pieces
            .values()
            .filter(|piece| {
                piece.owner == player
                    && piece.layer.is_empty()
                    && keep(piece.position.and_then(Position::hex))
            })
            .map(|piece| piece.id),
    ))
}

pub(crate) fn register(engine: &mut Registrar) {
    engine.register_typed("fighters_of", |ctx: Ncc, player: PlayerId| -> Res<Listed> {
        with_run(&ctx, "fighters_of", |run| {
            fighters_where(run, "fighters_of", player, |_| true)
        })
    });
    engine.register_typed(
        "fighters_on_battlefield",
        |ctx: Ncc, player: PlayerId| -> Res<Listed> {
            with_run(&ctx, "fighters_on_battlefield", |run| {
                fighters_where(run, "fighters_on_battlefield", player, |hex| hex.is_some())
            })
        },
    );
    engine.register_typed(
        "fighters_off_battlefield",
        |ctx: Ncc, player: PlayerId| -> Res<Listed> {
            with_run(&ctx, "fighters_off_battlefield", |run| {
                fighters_where(run, "fighters_off_battlefield", player, |hex| hex.is_none())
            })
        },
    );
    engine.register_fn(
        "on_battlefield",
        |ctx: Ncc, fighter: PieceId| -> Res<bool> {
            with_run(&ctx, "on_battlefield", |run| {
                Ok(run.piece_hex("on_battlefield", fighter)?.is_some())
            })
        },
    );
    engine.register_fn(
        "fighter_kind",
        |ctx: Ncc, fighter: PieceId| -> Res<ImmutableString> {
            with_run(&ctx, "fighter_kind", |run| {
                run.state()
                    .piece(fighter)
                    .map(|piece| piece.kind.as_str().into())
                    .ok_or_else(|| Stop::failed("fighter_kind", format!("there is no {fighter}")))
            })
        },
    );
    engine.register_typed(
        "reachable_hexes",
        |ctx: Ncc, fighter: PieceId, budget: i64| -> Res<Listed> {
            with_run(&ctx, "reachable_hexes", |run| {
                Ok(Listed::of(reachable_hexes(
                    run,
                    "reachable_hexes",
                    fighter,
                    budget,
                )?))
            })
        },
    );
    engine.register_fn(
        "reachable_hexes",
        |ctx: Ncc, fighter: PieceId, budget: i64, through: Array| -> Res<Array> {
            const F: &str = "reachable_hexes";
            with_run(&ctx, F, |run| {
                let passage = passage_through(F, &through)?;
                Ok(reachable_hexes_passing(run, F, fighter, budget, passage)?
                    .into_iter()
                    .map(Dynamic::from)
                    .collect())
            })
        },
    );
    engine.register_fn(
        "can_reach",
        |ctx: Ncc, fighter: PieceId, budget: i64| -> Res<bool> {
            with_run(&ctx, "can_reach", |run| {
                can_reach_passing(run, "can_reach", fighter, budget, Passage::WALKING)
            })
        },
    );
    engine.register_fn(
        "can_reach",
        |ctx: Ncc, fighter: PieceId, budget: i64, through: Array| -> Res<bool> {
            const F: &str = "can_reach";
            with_run(&ctx, F, |run| {
                let passage = passage_through(F, &through)?;
                can_reach_passing(run, F, fighter, budget, passage)
            })
        },
    );
    engine.register_fn(
        "starting_hexes",
        |ctx: Ncc, player: PlayerId| -> Res<Array> {
            with_run(&ctx, "starting_hexes", |run| {
                if run.state().player(player).is_none() {
                    return Err(Stop::failed(
                        "starting_hexes",
                        format!("there is no {player}"),
                    ));
                }
                let world = &run.world;
                let territory = world.territories.get(&player);
                Ok(world
                    .battlefield
                    .hexes_of_type(&world.names.starting)
                    .into_iter()
                    .filter(|&hex| {
                        territory.is_none_or(|name| world.battlefield.territory(hex) == Some(name))
                    })
                    .filter(|&hex| run.state().piece_on(hex).is_none())
                    .map(Dynamic::from)
                    .collect())
            })
        },
    );
    engine.register_fn(
        "move_fighter",
        |ctx: Ncc, fighter: PieceId, hex: Hex| -> Res<Array> {
            with_run(&ctx, "move_fighter", |run| move_fighter(run, fighter, hex))
        },
    );
    engine.register_fn(
        "move_routes",
        |ctx: Ncc, fighter: PieceId, hex: Hex, budget: i64, types: Array| -> Res<Array> {
            with_run(&ctx, "move_routes", |run| {
                move_routes(run, fighter, hex, budget, &types)
            })
        },
    );
    engine.register_fn(
        "choose_route",
        |ctx: Ncc, routes: Array, prompt: ImmutableString| -> Res<Array> {
            with_run(&ctx, "choose_route", |run| {
                choose_route(run, &routes, &prompt)
            })
        },
    );
    engine.register_fn(
        "move_fighter_along",
        |ctx: Ncc, fighter: PieceId, route: Array| -> Res<Array> {
            with_run(&ctx, "move_fighter_along", |run| {
                move_fighter_along(run, fighter, &route)
            })
        },
    );
    engine.register_fn(
        "place_fighter",
        |ctx: Ncc, fighter: PieceId, hex: Hex| -> Res<()> {
            with_run(&ctx, "place_fighter", |run| {
                effect(run, "place_fighter")?;
                run.piece_hex("place_fighter", fighter).map_err(refused)?;
                destination(run, "place_fighter", hex)?;
                run.ctx()
                    .place_piece(fighter, Some(Position::Hex(hex)), Vec::new(), "place")
                    .map_err(|error| Stop::refused("place_fighter", error))
            })
        },
    );
    engine.register_fn("take_off", |ctx: Ncc, fighter: PieceId| -> Res<()> {
        with_run(&ctx, "take_off", |run| {
            effect(run, "take_off")?;
            let position = run
                .state()
                .piece(fighter)
                .ok_or_else(|| Stop::refused("take_off", format!("there is no {fighter}")))?
                .position;
            if position.is_none() {
                return Ok(());
            }
            run.ctx()
                .place_piece(fighter, None, Vec::new(), "take_off")
                .map_err(|error| Stop::refused("take_off", error))
        })
    });
}

/// The hexes `fighter` can walk to in at most `budget` steps, sorted; empty off the
/// battlefield.
pub(crate) fn reachable_hexes(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    budget: i64,
) -> Result<Vec<Hex>, Stop> {
    reachable_hexes_passing(run, function, fighter, budget, Passage::WALKING)
}

/// What a move may pass through, read from a list of the words `"occupied"` and
/// `"blocked"` (a word listed twice counts once; the empty list is a walk).
pub(crate) fn passage_through(function: &'static str, through: &Array) -> Result<Passage, Stop> {
    let words = list_of(function, "through", "strings", through, as_string)?;
    let mut passage = Passage::WALKING;
    for word in &words {
        match word.as_str() {
            "occupied" => passage.through_occupied = true,
            "blocked" => passage.through_blocked = true,
            other => {
                return Err(Stop::failed(
                    function,
                    format!(
                        "`through` lists what a move may pass through: \"occupied\" or \"blocked\", not {other:?}"
                    ),
                ));
            }
        }
    }
    Ok(passage)
}

/// The hexes `fighter` can move to in at most `budget` steps with `passage`, ending in an
/// empty, unblocked hex; sorted, empty off the battlefield.
pub(crate) fn reachable_hexes_passing(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    budget: i64,
    passage: Passage,
) -> Result<Vec<Hex>, Stop> {
    Ok(match move_search(run, function, fighter, budget)? {
        Some((grid, start, budget)) => {
            reachable_avoiding(&grid, start, budget, passage, |_| false).hexes()
        }
        None => Vec::new(),
    })
}

/// Whether `fighter` can move somewhere in at most `budget` steps with `passage`: whether
/// [`reachable_hexes_passing`] lists any hex, without listing them (false off the
/// battlefield).
fn can_reach_passing(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    budget: i64,
    passage: Passage,
) -> Result<bool, Stop> {
    Ok(match move_search(run, function, fighter, budget)? {
        Some((grid, start, budget)) => can_reach(&grid, start, budget, passage, |_| false),
        None => false,
    })
}

/// What a search of `fighter`'s moves starts from: its grid, its hex and the budget (no
/// walk is longer than the battlefield has hexes); `None` off the battlefield. A negative
/// budget is an error.
fn move_search<'a>(
    run: &'a RunState,
    function: &'static str,
    fighter: PieceId,
    budget: i64,
) -> Result<Option<(PushGrid<'a>, Hex, u32)>, Stop> {
    if budget < 0 {
        return Err(Stop::failed(
            function,
            format!("the budget must be 0 or more, not {budget}"),
        ));
    }
    let Some(start) = run.piece_hex(function, fighter)? else {
        return Ok(None);
    };
    let budget = u32::try_from(budget.min(run.world.battlefield.len() as i64)).unwrap_or(u32::MAX);
    Ok(Some((grid_for(run, fighter), start, budget)))
}

/// A grid over the battlefield where the pieces of `fighter`'s layer (but not `fighter`
/// itself) occupy their hexes.
pub(crate) fn grid_for(run: &RunState, fighter: PieceId) -> PushGrid<'_> {
    let state = run.state();
    let layer = state.piece(fighter).map(|piece| piece.layer.as_str());
    let occupied: BTreeSet<Hex> = state
        .pieces
        .values()
        .filter(|piece| piece.id != fighter && Some(piece.layer.as_str()) == layer)
        .filter_map(|piece| piece.position.and_then(Position::hex))
        .collect();
    PushGrid {
        world: &run.world,
        occupied,
    }
}

/// Refuses a hex a fighter cannot be put in: off the battlefield or of a blocking type.
/// (Whether another piece stands there, the kernel checks.)
fn destination(run: &RunState, function: &'static str, hex: Hex) -> Result<(), Stop> {
    if !run.world.battlefield.contains(hex) {
        return Err(Stop::refused(
            function,
            format!("{hex} is not on the battlefield"),
        ));
    }
    if run.world.blocked.contains(&hex) {
        return Err(Stop::refused(function, format!("{hex} is blocked")));
    }
    Ok(())
}

fn move_fighter(run: &mut RunState, fighter: PieceId, hex: Hex) -> Result<Array, Stop> {
    const F: &str = "move_fighter";
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
    destination(run, F, hex)?;
    place_along_path(run, F, fighter, start, hex, Passage::WALKING)
}

/// Puts `fighter` on `hex` along the kernel's shortest path from `start` with `passage` (a
/// walk, a flight); if none reaches the hex (the rules chose it anyway), the fighter goes
/// straight there. The hexes it enters, `start` left out.
pub(crate) fn place_along_path(
    run: &mut RunState,
    function: &'static str,
    fighter: PieceId,
    start: Hex,
    hex: Hex,
    passage: Passage,
) -> Result<Array, Stop> {
    let budget = u32::try_from(run.world.battlefield.len()).unwrap_or(u32::MAX);
    let path = path_avoiding(&grid_for(run, fighter), start, hex, budget, passage, |_| {
        false
    })
    .unwrap_or_else(|| vec![start, hex]);
    run.ctx()
        .place_piece(fighter, Some(Position::Hex(hex)), path.clone(), "move")
        .map_err(|error| Stop::refused(function, error))?;
    Ok(path.into_iter().skip(1).map(Dynamic::from).collect())
}

/// The distinct routes `fighter` can walk to `hex` in at most `budget` steps, told apart by
/// the hexes of the given `types` they enter (see [`routes_to`]); each a list of the hexes
/// entered, `hex` last.
fn move_routes(
    run: &RunState,
    fighter: PieceId,
    hex: Hex,
    budget: i64,
    types: &Array,
) -> Result<Array, Stop> {
    const F: &str = "move_routes";
    if budget < 0 {
        return Err(Stop::failed(
            F,
            format!("the budget must be 0 or more, not {budget}"),
        ));
    }
    let types = list_of(F, "types", "hex type names", types, as_string)?;
    let Some(start) = run.piece_hex(F, fighter)? else {
        return Ok(Array::new());
    };
    let budget = u32::try_from(budget.min(run.world.battlefield.len() as i64)).unwrap_or(u32::MAX);
    let grid = grid_for(run, fighter);
    let routes = routes_to(&grid, start, hex, budget, |h| {
        types.iter().any(|name| hex_has_type(run, h, name))
    })
    .map_err(|count| {
        Stop::failed(
            F,
            format!(
                "{count} hexes of the types {types:?} lie on the way; routes are told apart by at most {}: name fewer types",
                gloam_core::MAX_ROUTE_MARKS
            ),
        )
    })?;
    Ok(routes
        .into_iter()
        .map(|route| Dynamic::from(route.into_iter().map(Dynamic::from).collect::<Array>()))
        .collect())
}

/// How a route is named among the options: the hexes it enters, in order.
fn route_label(route: &[Hex]) -> String {
    let hexes: Vec<String> = route.iter().map(ToString::to_string).collect();
    format!("by {}", hexes.join(" "))
}

fn routes_of(function: &'static str, routes: &Array) -> Result<Vec<Vec<Hex>>, Stop> {
    routes
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let list = item.clone().try_cast::<Array>().ok_or_else(|| {
                Stop::failed(
                    function,
                    format!(
                        "expects a list of routes (lists of hexes); item {} is not a list",
                        index + 1
                    ),
                )
            })?;
            list_of(function, "route", "hexes", &list, as_hex)
        })
        .collect()
}

/// The acting player picks one of `routes` (each named by its hexes); returns it.
fn choose_route(run: &mut RunState, routes: &Array, prompt: &str) -> Result<Array, Stop> {
    const F: &str = "choose_route";
    let routes = routes_of(F, routes)?;
    if routes.is_empty() {
        return Err(Stop::failed(F, "there are no routes to choose from"));
    }
    let mut choices: Vec<Choice> = Vec::with_capacity(routes.len());
    for route in &routes {
        let choice = Choice::Option(route_label(route));
        if !choices.contains(&choice) {
            choices.push(choice);
        }
    }
    let answer = ask(run, F, choices, prompt)?;
    routes
        .into_iter()
        .find(|route| Choice::Option(route_label(route)) == answer)
        .map(|route| route.into_iter().map(Dynamic::from).collect())
        .ok_or_else(|| Stop::failed(F, "the answer is not one of the routes"))
}

/// Walks `fighter` along `route` (the hexes it enters, in order), each step into an adjacent
/// empty hex, ending in an empty hex other than its start.
fn move_fighter_along(run: &mut RunState, fighter: PieceId, route: &Array) -> Result<Array, Stop> {
    const F: &str = "move_fighter_along";
    effect(run, F)?;
    let route = list_of(F, "route", "hexes", route, as_hex)?;
    let Some(start) = run.piece_hex(F, fighter).map_err(refused)? else {
        return Err(Stop::refused(
            F,
            format!("{fighter} is not on the battlefield"),
        ));
    };
    let mut path = Vec::with_capacity(route.len() + 1);
    path.push(start);
    path.extend(route.iter().copied());
    path_is_legal(&grid_for(run, fighter), &path, u32::MAX, Passage::WALKING)
        .map_err(|error| Stop::refused(F, format!("{fighter} cannot walk that route: {error}")))?;
    let end = *path.last().unwrap_or(&start);
    run.ctx()
        .place_piece(fighter, Some(Position::Hex(end)), path, "move")
        .map_err(|error| Stop::refused(F, error))?;
    Ok(route.into_iter().map(Dynamic::from).collect())
}
