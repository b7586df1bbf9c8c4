//! The vocabulary's functions, registered on the engine.
//!
//! Each function reaches the run in progress through [`with_run`]; queries read
//! [`RunState::state`], effects change the working copy through [`gloam_core::Ctx`], choices
//! take the next recorded answer or stop the script with a request.

use crate::compiled::{Arg, Items, Listed, Registrar, Val};
use gloam_core::{
    Answer, CardId, Choice, Duration, Hex, MAX_PUSH_DISTANCE, ModOp, ModTarget, ModifierSpec,
    Options, PieceId, PlayerId, Pool, Position, PushConstraint, PushDistance, Request, RuleError,
    Scope, Value, ZoneId, ZoneKey, push_destinations,
};
use rhai::{
    Array, Dynamic, EvalAltResult, FnPtr, FuncRegistration, ImmutableString, NativeCallContext,
};
use std::rc::Rc;

use crate::FunctionKind::{Choice as ChoiceKind, Effect};
use crate::runtime::{Lookup, RunState, Stop, memo_lookup, memo_store, with_run};
use crate::values::{items_of, type_name, val_card, val_hex, val_piece, val_string};

pub(crate) type Res<T> = Result<T, Box<EvalAltResult>>;
pub(crate) type Ncc<'a> = NativeCallContext<'a>;

/// Registers the game value types and every vocabulary function.
pub(crate) fn register(engine: &mut Registrar) {
    register_types(engine);
    register_queries(engine);
    register_effects(engine);
    register_choices(engine);
    crate::moves::register(engine);
    crate::cards::register(engine);
    crate::fighters::register(engine);
    crate::flow::register(engine);
    crate::terrain::register(engine);
    crate::table::register(engine);
    crate::table_setup::register(engine);
    crate::combat::register(engine);
    register_lists(engine);
}

/// Calls a predicate or mapping closure on one element of a list, the way Rhai's own list
/// functions do, but without their first, failing attempt.
///
/// Rhai's `filter`, `some`, `all` and `map` first call the closure as a method of the
/// element (`this`, no arguments), which fails for the usual `|x| ...` closure after Rhai
/// has searched every module and formatted an error message; then they call it with the
/// element; then with the element and its index. The first success wins, and a closure
/// takes exactly one of these shapes, so the order of the attempts changes no result: this
/// tries the element first (the common shape), then the other two.
fn call_on_item(
    ctx: &Ncc,
    caller: &str,
    function: &FnPtr,
    item: &mut Dynamic,
    index: usize,
) -> Res<Dynamic> {
    let not_found = |error: &EvalAltResult| {
        matches!(error, EvalAltResult::ErrorFunctionNotFound(signature, ..)
            if signature.starts_with(function.fn_name()))
    };
    let result = function
        .call_raw(ctx, None, [item.clone()])
        .or_else(|error| {
            if not_found(&error) {
                function.call_raw(ctx, Some(&mut *item), [])
            } else {
                Err(error)
            }
        })
        .or_else(|error| {
            if not_found(&error) {
                let index = i64::try_from(index).unwrap_or(i64::MAX);
                function.call_raw(ctx, None, [item.clone(), Dynamic::from(index)])
            } else {
                Err(error)
            }
        });
    result.map_err(|error| {
        // A limit met inside the closure ends the run: wrapped as an error of this call,
        // `try` could catch it.
        if error.is_system_exception() {
            return error;
        }
        Box::new(EvalAltResult::ErrorInFunctionCall(
            caller.to_owned(),
            ctx.call_source().unwrap_or("").to_owned(),
            error,
            rhai::Position::NONE,
        ))
    })
}

/// Rhai's list functions that take a closure, registered again here (not vocabulary).
#[cfg(test)]
pub(crate) const LIST_FUNCTIONS: &[&str] = &["filter", "some", "all", "map"];

/// A list function with a closure, memoized (see [`crate::runtime::Memo`]): `compute`
/// runs only if no equal call was kept.
fn memoized(
    ctx: &Ncc,
    function: &'static str,
    list: &mut Array,
    closure: &FnPtr,
    compute: impl FnOnce(&mut Array) -> Res<Dynamic>,
) -> Res<Dynamic> {
    match memo_lookup(function, closure, list) {
        // The kept result counts the operations computing it counted, as a run that
        // computed it again would (`limits::budget`).
        Lookup::Hit(value, operations) => {
            if crate::limits::budget::spend(operations) {
                Ok(value)
            } else {
                Err(Box::new(EvalAltResult::ErrorTerminated(
                    Dynamic::from(crate::limits::budget::SPENT),
                    ctx.call_position(),
                )))
            }
        }
        Lookup::Skip => compute(list),
        Lookup::Miss(pending) => {
            let result = compute(list);
            memo_store(pending, function, closure, list, result.as_ref().ok());
            result
        }
    }
}

/// `filter`, `some`, `all` and `map` on a list with a closure: the same results as Rhai's
/// own (registered here, they are found before the packages'), at about half the cost per
/// element (see [`call_on_item`]), and memoized across the runs of a script that asks
/// questions (see [`crate::runtime::Memo`]).
fn register_lists(engine: &mut Registrar) {
    FuncRegistration::new("filter")
        .with_purity(true)
        .register_into_engine(
            engine.engine(),
            |ctx: Ncc, list: &mut Array, function: FnPtr| -> Res<Array> {
                let kept = memoized(&ctx, "filter", list, &function, |list| {
                    let mut kept = Array::new();
                    for (index, item) in list.iter_mut().enumerate() {
                        let keep = call_on_item(&ctx, "filter", &function, item, index)?;
                        if keep.as_bool().unwrap_or(false) {
                            kept.push(item.clone());
                        }
                    }
                    Ok(Dynamic::from_array(kept))
                })?;
                Ok(kept.into_array().unwrap_or_default())
            },
        );
    FuncRegistration::new("some")
        .with_purity(true)
        .register_into_engine(
            engine.engine(),
            |ctx: Ncc, list: &mut Array, function: FnPtr| -> Res<bool> {
                let hit = memoized(&ctx, "some", list, &function, |list| {
                    for (index, item) in list.iter_mut().enumerate() {
                        let hit = call_on_item(&ctx, "some", &function, item, index)?;
                        if hit.as_bool().unwrap_or(false) {
                            return Ok(Dynamic::TRUE);
                        }
                    }
                    Ok(Dynamic::FALSE)
                })?;
                Ok(hit.as_bool().unwrap_or(false))
            },
        );
    FuncRegistration::new("all")
        .with_purity(true)
        .register_into_engine(
            engine.engine(),
            |ctx: Ncc, list: &mut Array, function: FnPtr| -> Res<bool> {
                let all = memoized(&ctx, "all", list, &function, |list| {
                    for (index, item) in list.iter_mut().enumerate() {
                        let hit = call_on_item(&ctx, "all", &function, item, index)?;
                        if !hit.as_bool().unwrap_or(false) {
                            return Ok(Dynamic::FALSE);
                        }
                    }
                    Ok(Dynamic::TRUE)
                })?;
                Ok(all.as_bool().unwrap_or(false))
            },
        );
    FuncRegistration::new("map")
        .with_purity(true)
        .register_into_engine(
            engine.engine(),
            |ctx: Ncc, list: &mut Array, function: FnPtr| -> Res<Array> {
                let mapped = memoized(&ctx, "map", list, &function, |list| {
                    let mut mapped = Array::with_capacity(list.len());
                    for (index, item) in list.iter_mut().enumerate() {
                        mapped.push(call_on_item(&ctx, "map", &function, item, index)?);
                    }
                    Ok(Dynamic::from_array(mapped))
                })?;
                Ok(mapped.into_array().unwrap_or_default())
            },
        );
}

fn register_types(engine: &mut Registrar) {
    macro_rules! game_type {
        ($ty:ty, $name:literal) => {
            engine
                .register_type_with_name::<$ty>($name)
                .register_fn("==", |a: $ty, b: $ty| a == b)
                .register_fn("!=", |a: $ty, b: $ty| a != b)
                .register_method("to_string", |a: &mut $ty| a.to_string())
                .register_method("to_debug", |a: &mut $ty| a.to_string());
        };
    }
    game_type!(PieceId, "fighter");
    game_type!(Hex, "hex");
    game_type!(PlayerId, "player");
    game_type!(CardId, "card");
    engine
        .register_get("q", |hex: &mut Hex| i64::from(hex.q))
        .register_get("r", |hex: &mut Hex| i64::from(hex.r));
}

/// The hex of a "fighter or hex" argument; `None` when off the battlefield.
pub(crate) fn place(
    run: &RunState,
    function: &'static str,
    param: &str,
    value: &Val,
) -> Result<Option<Hex>, Stop> {
    match value {
        Val::Piece(piece) => run.piece_hex(function, *piece),
        Val::Hex(hex) => Ok(run.world.battlefield.contains(*hex).then_some(*hex)),
        other => Err(Stop::failed(
            function,
            format!(
                "`{param}` must be a fighter or a hex, not a {}",
                other.kind()
            ),
        )),
    }
}

/// The scope of a "fighter or player" argument.
fn subject(function: &'static str, value: &Val) -> Result<Scope, Stop> {
    match value {
        Val::Piece(piece) => Ok(Scope::Piece(*piece)),
        Val::Player(player) => Ok(Scope::Player(*player)),
        other => Err(Stop::failed(
            function,
            format!("expected a fighter or a player, not a {}", other.kind()),
        )),
    }
}

fn counter_of(
    run: &RunState,
    function: &'static str,
    scope: Scope,
    name: &str,
) -> Result<i64, Stop> {
    let state = run.state();
    let counters = match scope {
        Scope::Game => &state.counters,
        Scope::Player(player) => {
            &state
                .player(player)
                .ok_or_else(|| Stop::failed(function, format!("there is no {player}")))?
                .counters
        }
        Scope::Piece(piece) => {
            &state
                .piece(piece)
                .ok_or_else(|| Stop::failed(function, format!("there is no {piece}")))?
                .counters
        }
    };
    Ok(counters.get(name).copied().unwrap_or(0))
}

fn piece_tokens(
    run: &RunState,
    function: &'static str,
    piece: PieceId,
    token: &str,
) -> Result<i64, Stop> {
    let entry = run
        .state()
        .piece(piece)
        .ok_or_else(|| Stop::failed(function, format!("there is no {piece}")))?;
    Ok(entry.tokens.get(token).copied().unwrap_or(0))
}

fn on_battlefield(run: &RunState, keep: impl Fn(PlayerId) -> bool) -> Listed {
    Listed::of(
        run.state()
            .pieces
            .values()
            .filter(|piece| matches!(piece.position, Some(Position::Hex(_))) && keep(piece.owner))
            .map(|piece| piece.id),
    )
}

fn zone_len(run: &RunState, player: PlayerId, zone: &str) -> i64 {
    run.state().zone_cards_at(ZoneKey::new(player, zone)).len() as i64
}

fn register_queries(engine: &mut Registrar) {
    engine.register_typed("fighters", |ctx: Ncc| -> Res<Listed> {
        with_run(&ctx, "fighters", |run| Ok(on_battlefield(run, |_| true)))
    });
    engine.register_typed("friendly_fighters", |ctx: Ncc| -> Res<Listed> {
        with_run(&ctx, "friendly_fighters", |run| {
            let acting = run.acting("friendly_fighters")?;
            Ok(on_battlefield(run, |owner| owner == acting))
        })
    });
    engine.register_typed("enemy_fighters", |ctx: Ncc| -> Res<Listed> {
        with_run(&ctx, "enemy_fighters", |run| {
            let acting = run.acting("enemy_fighters")?;
            Ok(on_battlefield(run, |owner| owner != acting))
        })
    });
    engine.register_typed(
        "fighters_within",
        |ctx: Ncc, fighter: PieceId, distance: i64| -> Res<Listed> {
            with_run(&ctx, "fighters_within", |run| {
                let Some(center) = run.piece_hex("fighters_within", fighter)? else {
                    return Ok(Listed(Vec::new()));
                };
                Ok(Listed::of(
                    run.state()
                        .pieces
                        .values()
                        .filter(|piece| piece.id != fighter)
                        .filter(|piece| {
                            piece
                                .position
                                .and_then(Position::hex)
                                .is_some_and(|hex| i64::from(center.distance_to(hex)) <= distance)
                        })
                        .map(|piece| piece.id),
                ))
            })
        },
    );
    engine.register_fn("fighter_at", |ctx: Ncc, hex: Hex| -> Res<Dynamic> {
        with_run(&ctx, "fighter_at", |run| {
            Ok(run
                .state()
                .piece_on(hex)
                .map_or(Dynamic::UNIT, Dynamic::from))
        })
    });
    engine.register_typed("players", |ctx: Ncc| -> Res<Listed> {
        with_run(&ctx, "players", |run| {
            Ok(Listed::of(
                run.state().players.iter().map(|player| player.id),
            ))
        })
    });
    engine.register_fn(
        "player_after",
        |ctx: Ncc, player: PlayerId| -> Res<PlayerId> {
            with_run(&ctx, "player_after", |run| {
                let players = &run.state().players;
                let index = players
                    .iter()
                    .position(|entry| entry.id == player)
                    .ok_or_else(|| Stop::failed("player_after", format!("there is no {player}")))?;
                Ok(players[(index + 1) % players.len()].id)
            })
        },
    );
    engine.register_typed(
        "count_faces",
        |ctx: Ncc, faces: Items, wanted: Items| -> Res<i64> {
            const F: &str = "count_faces";
            with_run(&ctx, F, |_| {
                let what = "strings";
                let faces = items_of(F, "faces", what, &faces.0, val_string)?;
                let wanted = items_of(F, "wanted", what, &wanted.0, val_string)?;
                Ok(faces.iter().filter(|face| wanted.contains(face)).count() as i64)
            })
        },
    );
    engine.register_fn("current_player", |ctx: Ncc| -> Res<PlayerId> {
        with_run(&ctx, "current_player", |run| run.acting("current_player"))
    });
    engine.register_fn("owner", |ctx: Ncc, fighter: PieceId| -> Res<PlayerId> {
        with_run(&ctx, "owner", |run| {
            run.state()
                .piece(fighter)
                .map(|piece| piece.owner)
                .ok_or_else(|| Stop::failed("owner", format!("there is no {fighter}")))
        })
    });
    engine.register_fn("hex", |ctx: Ncc, q: i64, r: i64| -> Res<Hex> {
        with_run(&ctx, "hex", |_| {
            let limit = i64::from(gloam_core::BOARD_COORD_LIMIT);
            if q.abs() > limit || r.abs() > limit {
                return Err(Stop::failed(
                    "hex",
                    format!("({q}, {r}) is too far from any battlefield"),
                ));
            }
            Ok(Hex::new(q as i32, r as i32))
        })
    });
    engine.register_fn("hex_of", |ctx: Ncc, fighter: PieceId| -> Res<Dynamic> {
        with_run(&ctx, "hex_of", |run| {
            Ok(run
                .piece_hex("hex_of", fighter)?
                .map_or(Dynamic::UNIT, Dynamic::from))
        })
    });
    engine.register_typed("adjacent", |ctx: Ncc, a: Arg, b: Arg| -> Res<bool> {
        with_run(&ctx, "adjacent", |run| {
            let a = place(run, "adjacent", "a", &a.0)?;
            let b = place(run, "adjacent", "b", &b.0)?;
            Ok(matches!((a, b), (Some(a), Some(b)) if a.is_adjacent(b)))
        })
    });
    engine.register_typed("distance", |ctx: Ncc, a: Arg, b: Arg| -> Res<i64> {
        with_run(&ctx, "distance", |run| {
            let (Some(from), Some(to)) = (
                place(run, "distance", "a", &a.0)?,
                place(run, "distance", "b", &b.0)?,
            ) else {
                return Err(Stop::failed(
                    "distance",
                    "one end is not on the battlefield",
                ));
            };
            Ok(i64::from(from.distance_to(to)))
        })
    });
    engine.register_typed("visible", |ctx: Ncc, a: Arg, b: Arg| -> Res<bool> {
        with_run(&ctx, "visible", |run| {
            let a = place(run, "visible", "a", &a.0)?;
            let b = place(run, "visible", "b", &b.0)?;
            Ok(match (a, b) {
                (Some(a), Some(b)) => run.world.sight.visible(a, b).unwrap_or(false),
                _ => false,
            })
        })
    });
    engine.register_typed(
        "hexes_of_type",
        |ctx: Ncc, name: ImmutableString| -> Res<Listed> {
            with_run(&ctx, "hexes_of_type", |run| {
                Ok(Listed::of(crate::terrain::hexes_of_type(run, &name)))
            })
        },
    );
    engine.register_fn(
        "hex_has_type",
        |ctx: Ncc, hex: Hex, name: ImmutableString| -> Res<bool> {
            with_run(&ctx, "hex_has_type", |run| {
                Ok(crate::terrain::hex_has_type(run, hex, &name))
            })
        },
    );
    engine.register_fn(
        "characteristic",
        |ctx: Ncc, fighter: PieceId, name: ImmutableString| -> Res<i64> {
            with_run(&ctx, "characteristic", |run| {
                characteristic(run, "characteristic", fighter, &name)
            })
        },
    );
    engine.register_fn("damage", |ctx: Ncc, fighter: PieceId| -> Res<i64> {
        with_run(&ctx, "damage", |run| {
            counter_of(
                run,
                "damage",
                Scope::Piece(fighter),
                &run.world.names.damage,
            )
        })
    });
    engine.register_fn("wounds", |ctx: Ncc, fighter: PieceId| -> Res<i64> {
        with_run(&ctx, "wounds", |run| {
            characteristic(run, "wounds", fighter, &run.world.names.wounds)
        })
    });
    engine.register_fn(
        "has_token",
        |ctx: Ncc, fighter: PieceId, token: ImmutableString| -> Res<bool> {
            with_run(&ctx, "has_token", |run| {
                Ok(piece_tokens(run, "has_token", fighter, &token)? > 0)
            })
        },
    );
    engine.register_fn(
        "tokens",
        |ctx: Ncc, fighter: PieceId, token: ImmutableString| -> Res<i64> {
            with_run(&ctx, "tokens", |run| {
                piece_tokens(run, "tokens", fighter, &token)
            })
        },
    );
    engine.register_fn(
        "has_keyword",
        |ctx: Ncc, fighter: PieceId, keyword: ImmutableString| -> Res<bool> {
            with_run(&ctx, "has_keyword", |run| {
                Ok(has_keyword(run, "has_keyword", fighter, &keyword)?
                    || crate::cards::equipped_keyword(run, "has_keyword", fighter, &keyword)?)
            })
        },
    );
    engine.register_fn("is_inspired", |ctx: Ncc, fighter: PieceId| -> Res<bool> {
        with_run(&ctx, "is_inspired", |run| {
            has_keyword(run, "is_inspired", fighter, &run.world.names.inspired)
        })
    });
    engine.register_fn("round", |ctx: Ncc| -> Res<i64> {
        with_run(&ctx, "round", |run| {
            Ok(run.state().counter(&run.world.names.round))
        })
    });
    engine.register_fn("glory", |ctx: Ncc, player: PlayerId| -> Res<i64> {
        with_run(&ctx, "glory", |run| {
            counter_of(run, "glory", Scope::Player(player), &run.world.names.glory)
        })
    });
    engine.register_fn("counter", |ctx: Ncc, name: ImmutableString| -> Res<i64> {
        with_run(&ctx, "counter", |run| Ok(run.state().counter(&name)))
    });
    engine.register_typed(
        "counter",
        |ctx: Ncc, who: Arg, name: ImmutableString| -> Res<i64> {
            with_run(&ctx, "counter", |run| {
                let scope = subject("counter", &who.0)?;
                counter_of(run, "counter", scope, &name)
            })
        },
    );
    engine.register_fn("hand_size", |ctx: Ncc, player: PlayerId| -> Res<i64> {
        with_run(&ctx, "hand_size", |run| {
            Ok(zone_len(run, player, &run.world.names.power_hand))
        })
    });
    engine.register_fn(
        "zone_size",
        |ctx: Ncc, player: PlayerId, zone: ImmutableString| -> Res<i64> {
            with_run(&ctx, "zone_size", |run| Ok(zone_len(run, player, &zone)))
        },
    );
    engine.register_typed(
        "cards_in",
        |ctx: Ncc, player: PlayerId, zone: ImmutableString| -> Res<Listed> {
            with_run(&ctx, "cards_in", |run| {
                let key = ZoneKey::new(player, zone.as_str());
                Ok(Listed::of(run.state().zone_cards_at(key).iter().copied()))
            })
        },
    );
    engine.register_fn(
        "card_name",
        |ctx: Ncc, card: CardId| -> Res<ImmutableString> {
            with_run(&ctx, "card_name", |run| {
                run.state()
                    .cards
                    .get(&card)
                    .map(|entry| entry.name.as_str().into())
                    .ok_or_else(|| Stop::failed("card_name", format!("there is no {card}")))
            })
        },
    );
}

pub(crate) fn characteristic(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    name: &str,
) -> Result<i64, Stop> {
    let state = run.state();
    if state.piece(fighter).is_none() {
        return Err(Stop::failed(function, format!("there is no {fighter}")));
    }
    state.characteristic(fighter, name).ok_or_else(|| {
        Stop::failed(
            function,
            format!("{fighter} has no characteristic `{name}`"),
        )
    })
}

pub(crate) fn has_keyword(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    keyword: &str,
) -> Result<bool, Stop> {
    run.state()
        .piece(fighter)
        .map(|piece| piece.keywords.contains(keyword))
        .ok_or_else(|| Stop::failed(function, format!("there is no {fighter}")))
}

pub(crate) fn not_negative(function: &'static str, what: &str, amount: i64) -> Result<(), Stop> {
    if amount < 0 {
        Err(Stop::refused(
            function,
            format!("{what} must be 0 or more, not {amount}"),
        ))
    } else {
        Ok(())
    }
}

/// Refuses to leave a counter the vocabulary gives a meaning below 0: a fighter's damage
/// (`deal_damage` adds it, `heal` takes it away) and a player's glory. Every other counter
/// may hold any whole number (a ruleset's tallies count down, and may go below 0).
fn not_below_zero(
    run: &RunState,
    function: &'static str,
    scope: Scope,
    name: &str,
    value: i64,
) -> Result<(), Stop> {
    let names = &run.world.names;
    let (what, how) = match scope {
        Scope::Piece(piece) if name == names.damage => (
            format!("the damage of {piece}"),
            "damage is never below 0; take damage away with `heal`",
        ),
        Scope::Player(player) if name == names.glory => {
            (format!("the glory of {player}"), "glory is never below 0")
        }
        _ => return Ok(()),
    };
    if value < 0 {
        Err(Stop::refused(
            function,
            format!("{what} would be {value}: {how}"),
        ))
    } else {
        Ok(())
    }
}

pub(crate) fn effect(run: &RunState, function: &'static str) -> Result<(), Stop> {
    run.check_effect(function, Effect)
}

/// Inside an effect, a failed lookup (no such fighter) is the effect being refused.
pub(crate) fn refused(stop: Stop) -> Stop {
    match stop {
        Stop::Failed { function, message } => Stop::Refused { function, message },
        other => other,
    }
}

fn register_effects(engine: &mut Registrar) {
    engine.register_fn(
        "deal_damage",
        |ctx: Ncc, fighter: PieceId, amount: i64| -> Res<()> {
            with_run(&ctx, "deal_damage", |run| {
                effect(run, "deal_damage")?;
                not_negative("deal_damage", "damage", amount)?;
                // The world is shared: the name is read from a handle to it, not copied.
                let world = Rc::clone(&run.world);
                run.ctx()
                    .add_counter(Scope::Piece(fighter), &world.names.damage, amount)
                    .map(|_| ())
                    .map_err(|error| Stop::refused("deal_damage", error))
            })
        },
    );
    engine.register_fn(
        "heal",
        |ctx: Ncc, fighter: PieceId, amount: i64| -> Res<()> {
            with_run(&ctx, "heal", |run| {
                effect(run, "heal")?;
                not_negative("heal", "healing", amount)?;
                let world = Rc::clone(&run.world);
                let name = &world.names.damage;
                let current =
                    counter_of(run, "heal", Scope::Piece(fighter), name).map_err(refused)?;
                run.ctx()
                    .set_counter(
                        Scope::Piece(fighter),
                        name,
                        current.saturating_sub(amount).max(0),
                    )
                    .map_err(|error| Stop::refused("heal", error))
            })
        },
    );
    engine.register_fn(
        "push",
        |ctx: Ncc, fighter: PieceId, hexes: i64| -> Res<bool> {
            with_run(&ctx, "push", |run| push(run, "push", fighter, hexes, None))
        },
    );
    engine.register_typed(
        "push_away",
        |ctx: Ncc, fighter: PieceId, from: Arg, hexes: i64| -> Res<bool> {
            with_run(&ctx, "push_away", |run| {
                effect(run, "push_away")?;
                let Some(from) = place(run, "push_away", "from", &from.0).map_err(refused)? else {
                    return Err(Stop::refused(
                        "push_away",
                        "the hex to push away from is not on the battlefield",
                    ));
                };
                push(
                    run,
                    "push_away",
                    fighter,
                    hexes,
                    Some(PushConstraint::Away(from)),
                )
            })
        },
    );
    engine.register_fn(
        "give_token",
        |ctx: Ncc, fighter: PieceId, token: ImmutableString| -> Res<()> {
            with_run(&ctx, "give_token", |run| {
                effect(run, "give_token")?;
                let count = piece_tokens(run, "give_token", fighter, &token).map_err(refused)?;
                run.ctx()
                    .set_tokens(Scope::Piece(fighter), &token, count.saturating_add(1))
                    .map_err(|error| Stop::refused("give_token", error))
            })
        },
    );
    engine.register_fn(
        "remove_token",
        |ctx: Ncc, fighter: PieceId, token: ImmutableString| -> Res<()> {
            with_run(&ctx, "remove_token", |run| {
                effect(run, "remove_token")?;
                let count = piece_tokens(run, "remove_token", fighter, &token).map_err(refused)?;
                if count == 0 {
                    return Ok(());
                }
                run.ctx()
                    .set_tokens(Scope::Piece(fighter), &token, count - 1)
                    .map_err(|error| Stop::refused("remove_token", error))
            })
        },
    );
    engine.register_fn("inspire", |ctx: Ncc, fighter: PieceId| -> Res<()> {
        with_run(&ctx, "inspire", |run| {
            set_inspired(run, "inspire", fighter, true)
        })
    });
    engine.register_fn("uninspire", |ctx: Ncc, fighter: PieceId| -> Res<()> {
        with_run(&ctx, "uninspire", |run| {
            set_inspired(run, "uninspire", fighter, false)
        })
    });
    engine.register_fn(
        "modify",
        |ctx: Ncc,
         fighter: PieceId,
         name: ImmutableString,
         amount: i64,
         until: ImmutableString|
         -> Res<()> {
            with_run(&ctx, "modify", |run| {
                effect(run, "modify")?;
                if run.state().piece(fighter).is_none() {
                    return Err(Stop::refused("modify", format!("there is no {fighter}")));
                }
                let spec =
                    ModifierSpec::new(ModTarget::Piece(fighter), name.as_str(), ModOp::Add(amount))
                        .source(&*run.label)
                        .lasting(Duration::until(until.as_str(), 1));
                run.ctx()
                    .add_modifier(spec)
                    .map(|_| ())
                    .map_err(|error| Stop::refused("modify", error))
            })
        },
    );
    engine.register_fn("draw_power", |ctx: Ncc, count: i64| -> Res<i64> {
        with_run(&ctx, "draw_power", |run| {
            let world = Rc::clone(&run.world);
            draw(
                run,
                "draw_power",
                count,
                &world.names.power_deck,
                &world.names.power_hand,
            )
        })
    });
    engine.register_fn("draw_objectives", |ctx: Ncc, count: i64| -> Res<i64> {
        with_run(&ctx, "draw_objectives", |run| {
            let world = Rc::clone(&run.world);
            draw(
                run,
                "draw_objectives",
                count,
                &world.names.objective_deck,
                &world.names.objective_hand,
            )
        })
    });
    engine.register_fn(
        "gain_glory",
        |ctx: Ncc, player: PlayerId, amount: i64| -> Res<()> {
            with_run(&ctx, "gain_glory", |run| {
                effect(run, "gain_glory")?;
                not_negative("gain_glory", "glory gained", amount)?;
                let world = Rc::clone(&run.world);
                run.ctx()
                    .add_counter(Scope::Player(player), &world.names.glory, amount)
                    .map(|_| ())
                    .map_err(|error| Stop::refused("gain_glory", error))
            })
        },
    );
    engine.register_fn(
        "set_counter",
        |ctx: Ncc, name: ImmutableString, value: i64| -> Res<()> {
            with_run(&ctx, "set_counter", |run| {
                effect(run, "set_counter")?;
                run.ctx()
                    .set_counter(Scope::Game, &name, value)
                    .map_err(|error| Stop::refused("set_counter", error))
            })
        },
    );
    engine.register_typed(
        "set_counter",
        |ctx: Ncc, who: Arg, name: ImmutableString, value: i64| -> Res<()> {
            with_run(&ctx, "set_counter", |run| {
                effect(run, "set_counter")?;
                let scope = subject("set_counter", &who.0)?;
                not_below_zero(run, "set_counter", scope, &name, value)?;
                run.ctx()
                    .set_counter(scope, &name, value)
                    .map_err(|error| Stop::refused("set_counter", error))
            })
        },
    );
    engine.register_fn(
        "add_counter",
        |ctx: Ncc, name: ImmutableString, amount: i64| -> Res<i64> {
            with_run(&ctx, "add_counter", |run| {
                effect(run, "add_counter")?;
                run.ctx()
                    .add_counter(Scope::Game, &name, amount)
                    .map_err(|error| Stop::refused("add_counter", error))
            })
        },
    );
    engine.register_typed(
        "add_counter",
        |ctx: Ncc, who: Arg, name: ImmutableString, amount: i64| -> Res<i64> {
            with_run(&ctx, "add_counter", |run| {
                effect(run, "add_counter")?;
                let scope = subject("add_counter", &who.0)?;
                let current = counter_of(run, "add_counter", scope, &name).map_err(refused)?;
                if let Some(value) = current.checked_add(amount) {
                    not_below_zero(run, "add_counter", scope, &name, value)?;
                }
                run.ctx()
                    .add_counter(scope, &name, amount)
                    .map_err(|error| Stop::refused("add_counter", error))
            })
        },
    );
    engine.register_fn("mark", |ctx: Ncc, event: ImmutableString| -> Res<()> {
        with_run(&ctx, "mark", |run| mark(run, &event, Scope::Game))
    });
    engine.register_typed(
        "mark",
        |ctx: Ncc, event: ImmutableString, who: Arg| -> Res<()> {
            with_run(&ctx, "mark", |run| {
                let scope = subject("mark", &who.0)?;
                mark(run, &event, scope)
            })
        },
    );
    engine.register_fn(
        "roll",
        |ctx: Ncc, die: ImmutableString, count: i64| -> Res<Array> {
            with_run(&ctx, "roll", |run| {
                let acting = run.acting;
                roll_dice(run, "roll", acting, &die, count, &ctx)
            })
        },
    );
    engine.register_fn(
        "roll_for",
        |ctx: Ncc, who: Dynamic, die: ImmutableString, count: i64| -> Res<Array> {
            with_run(&ctx, "roll_for", |run| {
                let player = who.read_lock::<PlayerId>().map(|player| *player);
                let Some(player) = player else {
                    return Err(Stop::failed(
                        "roll_for",
                        format!("expected a player, not a {}", type_name(&who)),
                    ));
                };
                roll_dice(run, "roll_for", Some(player), &die, count, &ctx)
            })
        },
    );
    engine.register_fn("say", |ctx: Ncc, text: ImmutableString| -> Res<()> {
        with_run(&ctx, "say", |run| say(run, &text, Scope::Game))
    });
    engine.register_typed(
        "say",
        |ctx: Ncc, text: ImmutableString, who: Arg| -> Res<()> {
            with_run(&ctx, "say", |run| {
                let scope = subject("say", &who.0)?;
                say(run, &text, scope)
            })
        },
    );
}

/// Records the marker `say`: `text` for the players, about `scope` (narration puts the
/// fighter's or the player's name first).
fn say(run: &mut RunState, text: &str, scope: Scope) -> Result<(), Stop> {
    effect(run, "say")?;
    run.ctx()
        .marker(
            SAY,
            scope,
            vec![("text".to_owned(), Value::Str(text.to_owned()))],
        )
        .map_err(|error| Stop::refused("say", error))
}

/// The name of the marker `say` records: narration the rules write for the players.
pub const SAY: &str = "say";

/// Rolls `count` dice of kind `die` for `player` (the event names them as the roller).
fn roll_dice(
    run: &mut RunState,
    function: &'static str,
    player: Option<PlayerId>,
    die: &str,
    count: i64,
    ctx: &Ncc,
) -> Result<Array, Stop> {
    let roll = roll_pool(run, function, player, die, count, ctx)?;
    Ok(roll
        .dice()
        .iter()
        .map(|rolled| Dynamic::from(ImmutableString::from(rolled.face.as_str())))
        .collect())
}

/// Rolls `count` dice of `die` for `player` (or the acting player) through the kernel, as
/// `roll` does: the same limits, events, loaded dice and chance nodes.
pub(crate) fn roll_pool(
    run: &mut RunState,
    function: &'static str,
    player: Option<PlayerId>,
    die: &str,
    count: i64,
    ctx: &Ncc,
) -> Result<gloam_core::Roll, Stop> {
    effect(run, function)?;
    not_negative(function, "the number of dice", count)?;
    let world = run.world.clone();
    let most = dice_a_script_may_roll(&world, die, ctx);
    if count > i64::from(most.dice) {
        return Err(Stop::refused(
            function,
            format!(
                "{count} dice are too many for one roll: {}; roll fewer",
                most.why
            ),
        ));
    }
    let count = u32::try_from(count)
        .map_err(|_| Stop::refused(function, format!("{count} dice are too many")))?;
    let purpose = std::sync::Arc::clone(&run.label);
    run.ctx()
        .roll(player, &purpose, &world.dice, &Pool::of(die, count))
        .map_err(|error| match error {
            RuleError::ChanceNeeded(request) => Stop::Chance(request),
            error => Stop::refused(function, error),
        })
}

/// The kernel's pool limit, lowered to what the script can hold as the list of faces
/// rolled: the script's list size limit, and its string size limit over the longest face
/// name (Rhai counts the strings inside a list against it). The loader checks data against
/// the same room (`gloam_grammar::RollRoom`).
fn dice_a_script_may_roll(
    world: &crate::world::WorldData,
    die: &str,
    ctx: &Ncc,
) -> gloam_core::DiceRoom {
    let engine = ctx.engine();
    let longest = world
        .dice
        .get(die)
        .and_then(|def| def.faces().iter().map(|face| face.name.len()).max())
        .unwrap_or(0);
    Pool::most_dice_held(
        die,
        longest,
        engine.max_array_size(),
        engine.max_string_size(),
    )
}

fn mark(run: &mut RunState, event: &str, scope: Scope) -> Result<(), Stop> {
    effect(run, "mark")?;
    if event.is_empty() {
        return Err(Stop::refused("mark", "an event needs a name"));
    }
    run.ctx()
        .marker(event, scope, Vec::new())
        .map_err(|error| Stop::refused("mark", error))
}

fn set_inspired(
    run: &mut RunState,
    function: &'static str,
    fighter: PieceId,
    inspired: bool,
) -> Result<(), Stop> {
    effect(run, function)?;
    let kind = run
        .state()
        .piece(fighter)
        .ok_or_else(|| Stop::refused(function, format!("there is no {fighter}")))?
        .kind
        .clone();
    let world = run.world.clone();
    let mut ctx = run.ctx();
    ctx.set_keyword(fighter, &world.names.inspired, inspired)
        .map_err(|error| Stop::refused(function, error))?;
    if let Some(side) = world.side(&kind, inspired) {
        for (name, value) in side {
            ctx.set_characteristic(fighter, name, *value)
                .map_err(|error| Stop::refused(function, error))?;
        }
    }
    Ok(())
}

fn draw(
    run: &mut RunState,
    function: &'static str,
    count: i64,
    deck: &str,
    hand: &str,
) -> Result<i64, Stop> {
    effect(run, function)?;
    let player = run.acting(function)?;
    draw_from(run, function, player, count, deck, hand)
}

/// Moves up to `count` cards from the top of `player`'s `deck` to `hand`.
pub(crate) fn draw_from(
    run: &mut RunState,
    function: &'static str,
    player: PlayerId,
    count: i64,
    deck: &str,
    hand: &str,
) -> Result<i64, Stop> {
    effect(run, function)?;
    not_negative(function, "the number of cards", count)?;
    let (deck, hand) = (ZoneId::new(player, deck), ZoneId::new(player, hand));
    for zone in [&deck, &hand] {
        if !run.state().zones.contains_key(zone) {
            return Err(Stop::refused(function, format!("there is no zone {zone}")));
        }
    }
    let mut drawn = 0;
    let mut ctx = run.ctx();
    while drawn < count {
        let Some(top) = ctx.state().zone_cards(&deck).first().copied() else {
            break;
        };
        ctx.move_card(top, &hand, usize::MAX)
            .map_err(|error| Stop::refused(function, error))?;
        drawn += 1;
    }
    Ok(drawn)
}

/// A grid over the world's battlefield with the pieces of the current state.
pub(crate) struct PushGrid<'a> {
    pub(crate) world: &'a crate::world::WorldData,
    pub(crate) occupied: std::collections::BTreeSet<Hex>,
}

impl gloam_core::Grid for PushGrid<'_> {
    fn contains(&self, hex: Hex) -> bool {
        self.world.battlefield.contains(hex)
    }

    fn blocks_movement(&self, hex: Hex) -> bool {
        self.world.blocked.contains(&hex)
    }

    fn is_occupied(&self, hex: Hex) -> bool {
        self.occupied.contains(&hex)
    }
}

fn push(
    run: &mut RunState,
    function: &'static str,
    fighter: PieceId,
    hexes: i64,
    constraint: Option<PushConstraint>,
) -> Result<bool, Stop> {
    effect(run, function)?;
    not_negative(function, "a push", hexes)?;
    if hexes > i64::from(MAX_PUSH_DISTANCE) {
        return Err(Stop::refused(
            function,
            format!("a push of {hexes} hexes is longer than the maximum of {MAX_PUSH_DISTANCE}"),
        ));
    }
    let Some(start) = run.piece_hex(function, fighter).map_err(refused)? else {
        return Ok(false);
    };
    if hexes == 0 {
        return Ok(false);
    }
    let world = run.world.clone();
    let grid = PushGrid {
        world: &world,
        occupied: run
            .state()
            .pieces
            .values()
            .filter_map(|piece| piece.position.and_then(Position::hex))
            .collect(),
    };
    let constraints: Vec<PushConstraint> = constraint.into_iter().collect();
    let paths = push_destinations(
        &grid,
        start,
        PushDistance::Exactly(hexes as u32),
        &constraints,
    )
    .map_err(|error| Stop::refused(function, error))?;
    let path = match paths.as_slice() {
        [] => return Ok(false),
        [only] => only.clone(),
        _ => {
            let player = run.acting(function)?;
            let request = Request {
                player,
                kind: function.to_owned(),
                prompt: format!("Where is {fighter} pushed?"),
                options: Options::One {
                    choices: paths
                        .iter()
                        .map(|path| Choice::Hex(path.destination()))
                        .collect(),
                },
                secret: false,
            };
            let answer = run.choose(function, request)?;
            let Some(Choice::Hex(destination)) = answer.choice().cloned() else {
                return Err(Stop::failed(function, "the answer is not a hex"));
            };
            paths
                .iter()
                .find(|path| path.destination() == destination)
                .cloned()
                .ok_or_else(|| {
                    Stop::failed(function, "the answer is not a destination of this push")
                })?
        }
    };
    run.ctx()
        .place_piece(
            fighter,
            Some(Position::Hex(path.destination())),
            path.hexes().to_vec(),
            "push",
        )
        .map_err(|error| Stop::refused(function, error))?;
    Ok(true)
}

/// The items of a choice's list, each turned into a kernel choice.
fn choices_of(
    function: &'static str,
    items: &[Val],
    what: &str,
    convert: impl Fn(&Val) -> Option<Choice>,
) -> Result<Vec<Choice>, Stop> {
    let mut choices: Vec<Choice> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let choice = convert(item).ok_or_else(|| {
            Stop::failed(
                function,
                format!(
                    "expects a list of {what}; item {} is a {}",
                    index + 1,
                    item.kind()
                ),
            )
        })?;
        if !choices.contains(&choice) {
            choices.push(choice);
        }
    }
    if choices.is_empty() {
        return Err(Stop::failed(
            function,
            format!("there are no {what} to choose from"),
        ));
    }
    Ok(choices)
}

pub(crate) fn ask(
    run: &mut RunState,
    function: &'static str,
    choices: Vec<Choice>,
    prompt: &str,
) -> Result<Choice, Stop> {
    run.check_effect(function, ChoiceKind)?;
    let player = run.acting(function)?;
    let request = Request {
        player,
        kind: function.to_owned(),
        prompt: prompt.to_owned(),
        options: Options::One { choices },
        secret: false,
    };
    match run.choose(function, request)? {
        Answer::One(choice) => Ok(choice),
        _ => Err(Stop::failed(
            function,
            "the recorded answer is not a single choice",
        )),
    }
}

/// The answers of a simultaneous secret choice: one request for each of `players` (their
/// options are `options`, or `options[i]` for the `i`th player when `options` is a list of
/// lists), asked all at once with `secret` set, so the kernel records each answer hidden and
/// reveals them together once all are in. The answers, in the order of `players`.
fn choose_secretly(
    run: &mut RunState,
    players: &[Val],
    options: &[Val],
    prompt: &str,
) -> Result<Listed, Stop> {
    const NAME: &str = "choose_secretly";
    run.check_effect(NAME, ChoiceKind)?;
    let mut asked: Vec<PlayerId> = Vec::with_capacity(players.len());
    for (index, item) in players.iter().enumerate() {
        let Val::Player(player) = *item else {
            return Err(Stop::failed(
                NAME,
                format!(
                    "expects a list of players; item {} is a {}",
                    index + 1,
                    item.kind()
                ),
            ));
        };
        if asked.contains(&player) {
            return Err(Stop::failed(
                NAME,
                format!("{player} is listed twice: each player answers once"),
            ));
        }
        if run.state().player(player).is_none() {
            return Err(Stop::failed(NAME, format!("{player} is not in this game")));
        }
        asked.push(player);
    }
    if asked.is_empty() {
        return Ok(Listed(Vec::new()));
    }
    let per_player = !options.is_empty() && options.iter().all(|item| matches!(item, Val::List(_)));
    if per_player && options.len() != asked.len() {
        return Err(Stop::failed(
            NAME,
            format!(
                "{} lists of options for {} players: give one list for each player, or one list for all",
                options.len(),
                asked.len()
            ),
        ));
    }
    let as_option = |item: &Val| {
        item.as_str()
            .map(|text| Choice::Option(text.as_str().to_owned()))
    };
    let mut requests = Vec::with_capacity(asked.len());
    for (index, player) in asked.iter().enumerate() {
        let choices = if per_player {
            let list: &[Val] = match &options[index] {
                Val::List(items) => items,
                _ => &[],
            };
            choices_of(NAME, list, "options (strings)", as_option)?
        } else {
            choices_of(NAME, options, "options (strings)", as_option)?
        };
        requests.push(Request {
            player: *player,
            kind: NAME.to_owned(),
            prompt: prompt.to_owned(),
            options: Options::One { choices },
            secret: true,
        });
    }
    let answers = run.choose_all(NAME, requests)?;
    answers
        .into_iter()
        .map(|answer| match answer {
            Answer::One(Choice::Option(option)) => Ok(Val::Str(option.into())),
            _ => Err(Stop::failed(NAME, "the recorded answer is not an option")),
        })
        .collect::<Result<_, _>>()
        .map(Listed)
}

fn register_choices(engine: &mut Registrar) {
    engine.register_typed(
        "choose_secretly",
        |ctx: Ncc, players: Items, options: Items, prompt: ImmutableString| -> Res<Listed> {
            with_run(&ctx, "choose_secretly", |run| {
                choose_secretly(run, &players.0, &options.0, &prompt)
            })
        },
    );
    engine.register_typed(
        "choose_fighter",
        |ctx: Ncc, fighters: Items, prompt: ImmutableString| -> Res<PieceId> {
            with_run(&ctx, "choose_fighter", |run| {
                let choices = choices_of("choose_fighter", &fighters.0, "fighters", |item| {
                    val_piece(item).map(Choice::Piece)
                })?;
                match ask(run, "choose_fighter", choices, &prompt)? {
                    Choice::Piece(piece) => Ok(piece),
                    _ => Err(Stop::failed(
                        "choose_fighter",
                        "the answer is not a fighter",
                    )),
                }
            })
        },
    );
    engine.register_typed(
        "choose_hex",
        |ctx: Ncc, hexes: Items, prompt: ImmutableString| -> Res<Hex> {
            with_run(&ctx, "choose_hex", |run| {
                let choices = choices_of("choose_hex", &hexes.0, "hexes", |item| {
                    val_hex(item).map(Choice::Hex)
                })?;
                match ask(run, "choose_hex", choices, &prompt)? {
                    Choice::Hex(hex) => Ok(hex),
                    _ => Err(Stop::failed("choose_hex", "the answer is not a hex")),
                }
            })
        },
    );
    engine.register_typed(
        "choose_option",
        |ctx: Ncc, options: Items, prompt: ImmutableString| -> Res<ImmutableString> {
            with_run(&ctx, "choose_option", |run| {
                let choices =
                    choices_of("choose_option", &options.0, "options (strings)", |item| {
                        item.as_str()
                            .map(|text| Choice::Option(text.as_str().to_owned()))
                    })?;
                match ask(run, "choose_option", choices, &prompt)? {
                    Choice::Option(option) => Ok(option.into()),
                    _ => Err(Stop::failed("choose_option", "the answer is not an option")),
                }
            })
        },
    );
    engine.register_typed(
        "choose_card",
        |ctx: Ncc, cards: Items, prompt: ImmutableString| -> Res<CardId> {
            with_run(&ctx, "choose_card", |run| {
                let choices = choices_of("choose_card", &cards.0, "cards", |item| {
                    val_card(item).map(Choice::Card)
                })?;
                match ask(run, "choose_card", choices, &prompt)? {
                    Choice::Card(card) => Ok(card),
                    _ => Err(Stop::failed("choose_card", "the answer is not a card")),
                }
            })
        },
    );
}
