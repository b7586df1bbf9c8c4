//! The vocabulary's cards: what the catalog says of a card, moving cards between zones,
//! equipping them, and evaluating a card's condition inside a run.

use crate::compiled::{Arg, Items, Listed, Registrar, Val};
use gloam_core::{CardId, PieceId, PlayerId, Visibility, ZoneId, ZoneKey};
use rhai::{Array, Dynamic, EvalAltResult, ImmutableString};

use crate::FunctionKind;
use crate::abilities::check_event_fighters;
use crate::functions::{Ncc, Res, draw_from, effect, refused};
use crate::runtime::{MAX_CONDITION_DEPTH, RunState, Stop, stop_run, with_run, with_run_raw};
use crate::values::{
    as_piece, humanize_types, items_of, list_of, type_name, val_card, val_piece, val_string,
};
use crate::world::{CardInfo, CardRestriction, WeaponInfo};

/// A card's definition name and owner.
fn card_of<'a>(
    run: &'a RunState,
    function: &'static str,
    card: CardId,
) -> Result<(&'a str, PlayerId), Stop> {
    run.state()
        .cards
        .get(&card)
        .map(|entry| (entry.name.as_str(), entry.owner))
        .ok_or_else(|| Stop::failed(function, format!("there is no {card}")))
}

/// A card's catalog entry (looked up by the card's name in place, no copy of it).
fn info<'a>(run: &'a RunState, function: &'static str, card: CardId) -> Result<&'a CardInfo, Stop> {
    let (name, _) = card_of(run, function, card)?;
    run.world.cards.get(name).ok_or_else(|| {
        Stop::failed(
            function,
            format!("the world knows no card named {name:?} ({card})"),
        )
    })
}

fn string_or_unit(value: Option<&String>) -> Dynamic {
    value.map_or(Dynamic::UNIT, |text| {
        Dynamic::from(ImmutableString::from(text.as_str()))
    })
}

pub(crate) fn register(engine: &mut Registrar) {
    register_queries(engine);
    register_effects(engine);
}

fn register_queries(engine: &mut Registrar) {
    engine.register_fn(
        "card_kind",
        |ctx: Ncc, card: CardId| -> Res<ImmutableString> {
            with_run(&ctx, "card_kind", |run| {
                Ok(info(run, "card_kind", card)?.kind.as_str().into())
            })
        },
    );
    engine.register_typed(
        "cards_of_kind",
        |ctx: Ncc, cards: Items, kind: ImmutableString| -> Res<Listed> {
            const F: &str = "cards_of_kind";
            with_run(&ctx, F, |run| {
                let mut found = Vec::new();
                for card in items_of(F, "cards", "cards", &cards.0, val_card)? {
                    if info(run, F, card)?.kind == kind.as_str() {
                        found.push(card.into());
                    }
                }
                Ok(Listed(found))
            })
        },
    );
    engine.register_fn("card_glory", |ctx: Ncc, card: CardId| -> Res<i64> {
        with_run(&ctx, "card_glory", |run| {
            Ok(info(run, "card_glory", card)?.glory)
        })
    });
    engine.register_fn(
        "card_value",
        |ctx: Ncc, card: CardId, value: ImmutableString| -> Res<i64> {
            with_run(&ctx, "card_value", |run| {
                Ok(info(run, "card_value", card)?
                    .values
                    .get(value.as_str())
                    .copied()
                    .unwrap_or(0))
            })
        },
    );
    engine.register_fn("card_tags", |ctx: Ncc, card: CardId| -> Res<Array> {
        with_run(&ctx, "card_tags", |run| {
            Ok(info(run, "card_tags", card)?
                .tags
                .iter()
                .map(|tag| Dynamic::from(ImmutableString::from(tag.as_str())))
                .collect())
        })
    });
    engine.register_fn("card_cost", |ctx: Ncc, card: CardId| -> Res<i64> {
        with_run(&ctx, "card_cost", |run| {
            Ok(info(run, "card_cost", card)?.cost)
        })
    });
    engine.register_fn("card_window", |ctx: Ncc, card: CardId| -> Res<Dynamic> {
        with_run(&ctx, "card_window", |run| {
            Ok(string_or_unit(
                info(run, "card_window", card)?.window.as_ref(),
            ))
        })
    });
    engine.register_fn("card_score", |ctx: Ncc, card: CardId| -> Res<Dynamic> {
        with_run(&ctx, "card_score", |run| {
            Ok(string_or_unit(
                info(run, "card_score", card)?.score.as_ref(),
            ))
        })
    });
    engine.register_fn(
        "card_casting_value",
        |ctx: Ncc, card: CardId| -> Res<Array> {
            with_run(&ctx, "card_casting_value", |run| {
                Ok(info(run, "card_casting_value", card)?
                    .casting_value
                    .iter()
                    .map(|symbol| Dynamic::from(ImmutableString::from(symbol.as_str())))
                    .collect())
            })
        },
    );
    engine.register_fn(
        "card_has_keyword",
        |ctx: Ncc, card: CardId, keyword: ImmutableString| -> Res<bool> {
            with_run(&ctx, "card_has_keyword", |run| {
                Ok(info(run, "card_has_keyword", card)?
                    .keywords
                    .contains(keyword.as_str()))
            })
        },
    );
    engine.register_fn(
        "card_allows",
        |ctx: Ncc, card: CardId, fighter: PieceId| -> Res<bool> {
            with_run(&ctx, "card_allows", |run| {
                card_allows(run, "card_allows", card, fighter)
            })
        },
    );
    engine.register_fn(
        "allowed_fighters",
        |ctx: Ncc, card: CardId, fighters: Array| -> Res<Array> {
            const F: &str = "allowed_fighters";
            with_run(&ctx, F, |run| {
                let mut allowed = Array::new();
                for fighter in list_of(F, "fighters", "fighters", &fighters, as_piece)? {
                    if card_allows(run, F, card, fighter)? {
                        allowed.push(Dynamic::from(fighter));
                    }
                }
                Ok(allowed)
            })
        },
    );
    engine.register_fn("condition_holds", |ctx: Ncc, card: CardId| -> Res<bool> {
        condition_holds(&ctx, card, None, None, None)
    });
    engine.register_typed(
        "condition_holds",
        |ctx: Ncc, card: CardId, fighter: Arg, target: Arg, attacker: Arg| -> Res<bool> {
            const F: &str = "condition_holds";
            let fighter = optional_fighter(&ctx, F, &fighter.0)?;
            let (target, attacker) = check_event_fighters(&ctx, F, &target.0, &attacker.0)?;
            condition_holds(&ctx, card, fighter, target, attacker)
        },
    );
    engine.register_typed(
        "condition_holds",
        |ctx: Ncc, card: CardId, fighter: Arg| -> Res<bool> {
            let fighter = optional_fighter(&ctx, "condition_holds", &fighter.0)?;
            condition_holds(&ctx, card, fighter, None, None)
        },
    );
    engine.register_typed(
        "cards_for_window",
        |ctx: Ncc,
         cards: Items,
         keyword: ImmutableString,
         windows: Items,
         fighter: Arg,
         target: Arg,
         attacker: Arg|
         -> Res<Listed> {
            cards_for_window(
                &ctx,
                cards,
                Some(keyword),
                windows,
                fighter,
                target,
                attacker,
            )
        },
    );
    engine.register_typed(
        "cards_for_window",
        |ctx: Ncc,
         cards: Items,
         windows: Items,
         fighter: Arg,
         target: Arg,
         attacker: Arg|
         -> Res<Listed> {
            cards_for_window(&ctx, cards, None, windows, fighter, target, attacker)
        },
    );
    engine.register_typed(
        "equipped_for_window",
        |ctx: Ncc,
         fighters: Items,
         keyword: ImmutableString,
         windows: Items,
         target: Arg,
         attacker: Arg|
         -> Res<Listed> {
            equipped_for_window(&ctx, fighters, keyword, windows, target, attacker)
        },
    );
    engine.register_fn("bearer", |ctx: Ncc, card: CardId| -> Res<Dynamic> {
        with_run(&ctx, "bearer", |run| {
            card_of(run, "bearer", card)?;
            Ok(run
                .state()
                .zone_of(card)
                .and_then(|zone| zone.piece)
                .map_or(Dynamic::UNIT, Dynamic::from))
        })
    });
    engine.register_typed("equipped", |ctx: Ncc, fighter: PieceId| -> Res<Listed> {
        with_run(&ctx, "equipped", |run| {
            let cards = equipped_cards(run, "equipped", fighter)?;
            Ok(Listed::of(cards.iter().copied()))
        })
    });
}

/// The cards of `cards` whose window is one of `windows`, with `keyword` if given, and whose
/// condition holds with `fighter`, `target` and `attacker` bound, in the order given.
fn cards_for_window(
    ctx: &Ncc,
    cards: Items,
    keyword: Option<ImmutableString>,
    windows: Items,
    fighter: Arg,
    target: Arg,
    attacker: Arg,
) -> Res<Listed> {
    const F: &str = "cards_for_window";
    let fighter = optional_fighter(ctx, F, &fighter.0)?;
    let (target, attacker) = check_event_fighters(ctx, F, &target.0, &attacker.0)?;
    let candidates = with_run(ctx, F, |run| {
        let cards = items_of(F, "cards", "cards", &cards.0, val_card)?;
        let windows = items_of(F, "windows", "window names", &windows.0, val_string)?;
        in_window(
            run,
            F,
            cards.into_iter().map(|card| (card, fighter)),
            keyword.as_deref(),
            &windows,
        )
    })?;
    holding(ctx, candidates, target, attacker)
}

/// The cards equipped on `fighters` (each fighter's in the order they were equipped) whose
/// window is one of `windows`, with `keyword`, and whose condition holds with their bearer
/// as `this_fighter` and `target` and `attacker` bound: `cards_for_window(equipped(f),
/// keyword, windows, f, target, attacker)` for each fighter in turn, in one call.
fn equipped_for_window(
    ctx: &Ncc,
    fighters: Items,
    keyword: ImmutableString,
    windows: Items,
    target: Arg,
    attacker: Arg,
) -> Res<Listed> {
    const F: &str = "equipped_for_window";
    let (target, attacker) = check_event_fighters(ctx, F, &target.0, &attacker.0)?;
    let candidates = with_run(ctx, F, |run| {
        let fighters = items_of(F, "fighters", "fighters", &fighters.0, val_piece)?;
        let windows = items_of(F, "windows", "window names", &windows.0, val_string)?;
        let mut worn = Vec::new();
        for fighter in fighters {
            worn.extend(
                equipped_cards(run, F, fighter)?
                    .iter()
                    .map(|&card| (card, Some(fighter))),
            );
        }
        in_window(run, F, worn, Some(keyword.as_str()), &windows)
    })?;
    holding(ctx, candidates, target, attacker)
}

/// The cards (each with the fighter its condition sees) whose window is one of `windows`,
/// with `keyword` if given: the cheap tests, in the run, before any condition is evaluated.
fn in_window(
    run: &RunState,
    function: &'static str,
    cards: impl IntoIterator<Item = (CardId, Option<PieceId>)>,
    keyword: Option<&str>,
    windows: &[ImmutableString],
) -> Result<Vec<(CardId, Option<PieceId>)>, Stop> {
    let mut candidates = Vec::new();
    for (card, fighter) in cards {
        let info = info(run, function, card)?;
        let in_window = info
            .window
            .as_deref()
            .is_some_and(|window| windows.iter().any(|w| w.as_str() == window));
        if in_window && keyword.is_none_or(|keyword| info.keywords.contains(keyword)) {
            candidates.push((card, fighter));
        }
    }
    Ok(candidates)
}

/// The cards of `candidates` whose condition holds, evaluated one by one as
/// `condition_holds` does, in their order.
fn holding(
    ctx: &Ncc,
    candidates: Vec<(CardId, Option<PieceId>)>,
    target: Option<PieceId>,
    attacker: Option<PieceId>,
) -> Res<Listed> {
    let mut found = Vec::new();
    for (card, fighter) in candidates {
        if condition_holds(ctx, card, fighter, target, attacker)? {
            found.push(card.into());
        }
    }
    Ok(Listed(found))
}

/// Whether `card`'s restrictions allow `fighter` to take it: one restriction matches (its
/// kind, or a keyword it or a card equipped on it carries), or there are none.
fn card_allows(
    run: &RunState,
    function: &'static str,
    card: CardId,
    fighter: PieceId,
) -> Result<bool, Stop> {
    let restrictions = &info(run, function, card)?.restrictions;
    let piece = run
        .state()
        .piece(fighter)
        .ok_or_else(|| Stop::failed(function, format!("there is no {fighter}")))?;
    for restriction in restrictions {
        let allows = match restriction {
            CardRestriction::Fighter(kind) => piece.kind == *kind,
            CardRestriction::Keyword(keyword) => {
                piece.keywords.contains(keyword)
                    || equipped_keyword(run, function, fighter, keyword)?
            }
        };
        if allows {
            return Ok(true);
        }
    }
    Ok(restrictions.is_empty())
}

/// Whether a card equipped on `fighter` carries `keyword` (an upgrade's keyword is its
/// bearer's too: "this fighter is a hunter").
pub(crate) fn equipped_keyword(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    keyword: &str,
) -> Result<bool, Stop> {
    for card in equipped_cards(run, function, fighter)? {
        if info(run, function, *card)?.keywords.contains(keyword) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The weapons the cards equipped on `fighter` give it (Attack action upgrades), in the
/// order the cards were given.
pub(crate) fn equipped_weapons<'a>(
    run: &'a RunState,
    function: &'static str,
    fighter: PieceId,
) -> Result<Vec<&'a WeaponInfo>, Stop> {
    let mut weapons = Vec::new();
    for card in equipped_cards(run, function, fighter)? {
        weapons.extend(info(run, function, *card)?.weapons.iter());
    }
    Ok(weapons)
}

/// The zone holding the cards equipped on `fighter`.
fn equipped_zone(run: &RunState, function: &'static str, fighter: PieceId) -> Result<ZoneId, Stop> {
    equipped_key(run, function, fighter).map(ZoneKey::to_id)
}

/// The key of the zone holding the cards equipped on `fighter`.
fn equipped_key<'a>(
    run: &'a RunState,
    function: &'static str,
    fighter: PieceId,
) -> Result<ZoneKey<'a>, Stop> {
    let owner = run
        .state()
        .piece(fighter)
        .ok_or_else(|| Stop::failed(function, format!("there is no {fighter}")))?
        .owner;
    Ok(ZoneKey::on_piece(
        owner,
        run.world.names.equipped.as_str(),
        fighter,
    ))
}

/// The cards equipped on `fighter`, found with no zone id made.
fn equipped_cards<'a>(
    run: &'a RunState,
    function: &'static str,
    fighter: PieceId,
) -> Result<&'a [CardId], Stop> {
    let key = equipped_key(run, function, fighter)?;
    Ok(run.state().zone_cards_at(key))
}

/// A fighter argument that may be `()`.
fn optional_fighter(ctx: &Ncc, function: &'static str, fighter: &Val) -> Res<Option<PieceId>> {
    match fighter {
        Val::Unit => Ok(None),
        Val::Piece(piece) => Ok(Some(*piece)),
        other => Err(stop_run(
            ctx,
            Stop::failed(
                function,
                format!("`fighter` must be a fighter or (), not a {}", other.kind()),
            ),
        )),
    }
}

/// Evaluates `card`'s condition inside the run, against the run's current state, as the
/// card's owner, with `this_card`, `player`, `this_fighter`, `target` and `attacker` bound.
fn condition_holds(
    ctx: &Ncc,
    card: CardId,
    fighter: Option<PieceId>,
    target: Option<PieceId>,
    attacker: Option<PieceId>,
) -> Res<bool> {
    const F: &str = "condition_holds";
    let prepared = with_run(ctx, F, |run| {
        let (_, owner) = card_of(run, F, card)?;
        if let Some(fighter) = fighter {
            if run.state().piece(fighter).is_none() {
                return Err(Stop::failed(F, format!("there is no {fighter}")));
            }
        }
        let Some(script) = info(run, F, card)?.condition.clone() else {
            return Ok(None);
        };
        if run.depth >= MAX_CONDITION_DEPTH {
            return Err(Stop::failed(
                F,
                format!(
                    "conditions check conditions more than {MAX_CONDITION_DEPTH} deep \
                     ({} probably checks itself)",
                    script.label()
                ),
            ));
        }
        let outer = run.enter(owner, script.shared_label());
        Ok(Some((script, outer, owner)))
    })?;
    let Some((script, outer, owner)) = prepared else {
        return Ok(true);
    };
    let values = [
        ("this_card", Val::Card(card)),
        ("player", Val::Player(owner)),
        ("this_fighter", fighter.map_or(Val::Unit, Val::Piece)),
        ("target", target.map_or(Val::Unit, Val::Piece)),
        ("attacker", attacker.map_or(Val::Unit, Val::Piece)),
    ];
    evaluate_condition(ctx, F, &script, outer, &values)
}

/// Runs a condition `script` nested in the current run (entered with `outer`, which this
/// leaves again) with `values` bound, and reads its true or false; any other ending stops
/// the outer run with a message naming `function` and the condition.
pub(crate) fn evaluate_condition(
    ctx: &Ncc,
    function: &'static str,
    script: &crate::Script,
    outer: crate::runtime::Outer,
    values: &[(&str, Val)],
) -> Res<bool> {
    let result = crate::host::eval_nested(ctx.engine(), script, values);
    let Some(stopped) = with_run_raw(|run| run.leave(outer)) else {
        return Err(Box::new(EvalAltResult::ErrorRuntime(
            format!("`{function}` lost its game").into(),
            ctx.call_position(),
        )));
    };
    let failure = match (stopped, result) {
        (Some((stop, _)), _) => describe_stop(stop),
        (None, Ok(value)) => match value.as_bool() {
            Ok(holds) => return Ok(holds),
            Err(_) => format!(
                "it must end in true or false, and ends in a {}",
                type_name(&value)
            ),
        },
        (None, Err(error)) => {
            let mut error = *error;
            error.clear_position();
            humanize_types(&error.to_string())
        }
    };
    Err(stop_run(
        ctx,
        Stop::failed(function, format!("{} failed: {failure}", script.label())),
    ))
}

fn describe_stop(stop: Stop) -> String {
    match stop {
        Stop::Failed { function, message } | Stop::Refused { function, message } => {
            format!("`{function}`: {message}")
        }
        Stop::Impure { function, kind } => format!(
            "`{function}` {}, and a condition may not",
            if kind == FunctionKind::Choice {
                "asks a player"
            } else {
                "changes the game"
            }
        ),
        Stop::Choice(request) => format!("it asked {} a question", request.player),
        Stop::Choices(requests) => format!("it asked {} players a secret question", requests.len()),
        Stop::Chance(request) => format!("it rolled for `{}`", request.purpose),
    }
}

fn register_effects(engine: &mut Registrar) {
    engine.register_fn(
        "move_card",
        |ctx: Ncc, card: CardId, zone: ImmutableString| -> Res<()> {
            with_run(&ctx, "move_card", |run| {
                move_card(run, "move_card", card, &zone, 0)
            })
        },
    );
    engine.register_fn(
        "move_card_bottom",
        |ctx: Ncc, card: CardId, zone: ImmutableString| -> Res<()> {
            with_run(&ctx, "move_card_bottom", |run| {
                move_card(run, "move_card_bottom", card, &zone, usize::MAX)
            })
        },
    );
    engine.register_fn(
        "shuffle_zone",
        |ctx: Ncc, player: PlayerId, zone: ImmutableString| -> Res<()> {
            with_run(&ctx, "shuffle_zone", |run| {
                effect(run, "shuffle_zone")?;
                run.ctx()
                    .shuffle(&ZoneId::new(player, zone.as_str()))
                    .map_err(|error| Stop::refused("shuffle_zone", error))
            })
        },
    );
    engine.register_fn(
        "draw_cards",
        |ctx: Ncc,
         player: PlayerId,
         from: ImmutableString,
         to: ImmutableString,
         count: i64|
         -> Res<i64> {
            with_run(&ctx, "draw_cards", |run| {
                draw_from(run, "draw_cards", player, count, &from, &to)
            })
        },
    );
    engine.register_fn(
        "equip",
        |ctx: Ncc, card: CardId, fighter: PieceId| -> Res<()> {
            with_run(&ctx, "equip", |run| {
                effect(run, "equip")?;
                card_of(run, "equip", card).map_err(refused)?;
                let zone = equipped_zone(run, "equip", fighter).map_err(refused)?;
                let exists = run.state().zones.contains_key(&zone);
                let mut kernel = run.ctx();
                if !exists {
                    kernel
                        .create_zone(zone.clone(), Visibility::Public)
                        .map_err(|error| Stop::refused("equip", error))?;
                }
                kernel
                    .move_card(card, &zone, usize::MAX)
                    .map_err(|error| Stop::refused("equip", error))
            })
        },
    );
}

fn move_card(
    run: &mut RunState,
    function: &'static str,
    card: CardId,
    zone: &str,
    index: usize,
) -> Result<(), Stop> {
    effect(run, function)?;
    let (_, owner) = card_of(run, function, card).map_err(refused)?;
    run.ctx()
        .move_card(card, &ZoneId::new(owner, zone), index)
        .map_err(|error| Stop::refused(function, error))
}
