//! The vocabulary's fighter abilities and inspire conditions: which abilities a fighter has
//! on its current side, their windows, evaluating their conditions (and the profile's
//! inspire condition) inside a run, and queueing an ability's effect.

use crate::compiled::{Arg, Items, Listed, Registrar, Val};
use std::rc::Rc;

use gloam_core::{PieceId, PlayerId, Value};
use rhai::{Array, Dynamic, ImmutableString};

use crate::fighters::{inspired, profile, usable};
use crate::functions::{Ncc, Res, effect, refused};
use crate::runtime::{MAX_CONDITION_DEPTH, RunState, Stop, stop_run, with_run};
use crate::values::{as_string, items_of, list_of, val_piece, val_string};
use crate::world::AbilityInfo;
use crate::{FlowRequest, Script};

/// The driver's built-in step that runs an ability's `effect` (values `fighter`, `name`,
/// `player`, and `target`, `attacker` when set), which `use_ability` queues.
pub(crate) const ABILITY_STEP: &str = "ability";

fn owner_of(run: &RunState, function: &'static str, fighter: PieceId) -> Result<PlayerId, Stop> {
    run.state()
        .piece(fighter)
        .map(|piece| piece.owner)
        .ok_or_else(|| Stop::failed(function, format!("there is no {fighter}")))
}

/// The abilities of `fighter`'s profile on its current side, in the profile's order (none
/// if the world knows no profile of its kind).
fn current_abilities<'a>(
    run: &'a RunState,
    function: &'static str,
    fighter: PieceId,
) -> Result<impl Iterator<Item = &'a AbilityInfo>, Stop> {
    let inspired = inspired(run, function, fighter)?;
    Ok(profile(run, function, fighter)?
        .map_or(&[][..], |info| info.abilities.as_slice())
        .iter()
        .filter(move |ability| usable(ability.side, inspired)))
}

/// A reaction's name and its condition, if it has one.
type Reaction = (String, Option<Rc<Script>>);

/// `fighter`'s reactions (abilities with `reaction = true` on its current side) used in one
/// of `windows`, in the order of its abilities.
fn reactions_in_windows<'a>(
    run: &'a RunState,
    function: &'static str,
    fighter: PieceId,
    windows: &'a [ImmutableString],
) -> Result<impl Iterator<Item = &'a AbilityInfo>, Stop> {
    Ok(
        current_abilities(run, function, fighter)?.filter(|ability| {
            ability.reaction
                && ability
                    .window
                    .as_deref()
                    .is_some_and(|window| windows.iter().any(|w| w.as_str() == window))
        }),
    )
}

/// [`reactions_in_windows`], each with its name and condition.
fn reactions_for(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    windows: &[ImmutableString],
) -> Result<Vec<Reaction>, Stop> {
    Ok(reactions_in_windows(run, function, fighter, windows)?
        .map(|ability| (ability.name.clone(), ability.condition.clone()))
        .collect())
}

/// The ability named `name` that `fighter` has on its current side.
fn ability<'a>(
    run: &'a RunState,
    function: &'static str,
    fighter: PieceId,
    name: &str,
) -> Result<&'a AbilityInfo, Stop> {
    current_abilities(run, function, fighter)?
        .find(|ability| ability.name == name)
        .ok_or_else(|| {
            Stop::failed(
                function,
                format!("{fighter} has no ability {name:?} on its current side"),
            )
        })
}

/// A fighter argument that may be `()`.
fn optional_fighter(
    ctx: &Ncc,
    function: &'static str,
    param: &str,
    value: &Val,
) -> Res<Option<PieceId>> {
    match value {
        Val::Unit => Ok(None),
        Val::Piece(piece) => Ok(Some(*piece)),
        other => Err(stop_run(
            ctx,
            Stop::failed(
                function,
                format!("`{param}` must be a fighter or (), not a {}", other.kind()),
            ),
        )),
    }
}

/// Checks that `target` and `attacker` are fighters or `()`.
pub(crate) fn check_event_fighters(
    ctx: &Ncc,
    function: &'static str,
    target: &Val,
    attacker: &Val,
) -> Res<(Option<PieceId>, Option<PieceId>)> {
    Ok((
        optional_fighter(ctx, function, "target", target)?,
        optional_fighter(ctx, function, "attacker", attacker)?,
    ))
}

/// Evaluates `script` inside the run, against the run's current state, as a condition of
/// `fighter`: for its owner, with `this_fighter`, `player`, `target` and `attacker` bound.
fn evaluate(
    ctx: &Ncc,
    function: &'static str,
    fighter: PieceId,
    script: &Rc<Script>,
    target: Option<PieceId>,
    attacker: Option<PieceId>,
) -> Res<bool> {
    let (outer, owner) = with_run(ctx, function, |run| {
        let owner = owner_of(run, function, fighter)?;
        if run.depth >= MAX_CONDITION_DEPTH {
            return Err(Stop::failed(
                function,
                format!(
                    "conditions check conditions more than {MAX_CONDITION_DEPTH} deep \
                     ({} probably checks itself)",
                    script.label()
                ),
            ));
        }
        Ok((run.enter(owner, script.shared_label()), owner))
    })?;
    let values = [
        ("this_fighter", Val::Piece(fighter)),
        ("player", Val::Player(owner)),
        ("target", target.map_or(Val::Unit, Val::Piece)),
        ("attacker", attacker.map_or(Val::Unit, Val::Piece)),
    ];
    crate::cards::evaluate_condition(ctx, function, script, outer, &values)
}

/// Whether the ability `name` of `fighter` may be used now (true when it has no condition).
fn ability_holds(
    ctx: &Ncc,
    function: &'static str,
    fighter: PieceId,
    name: &str,
    target: Option<PieceId>,
    attacker: Option<PieceId>,
) -> Res<bool> {
    let condition = with_run(ctx, function, |run| {
        Ok(ability(run, function, fighter, name)?.condition.clone())
    })?;
    condition_holds(ctx, function, fighter, condition.as_ref(), target, attacker)
}

/// Whether an ability's `condition` holds for `fighter` (true without one).
fn condition_holds(
    ctx: &Ncc,
    function: &'static str,
    fighter: PieceId,
    condition: Option<&Rc<Script>>,
    target: Option<PieceId>,
    attacker: Option<PieceId>,
) -> Res<bool> {
    match condition {
        Some(script) => evaluate(ctx, function, fighter, script, target, attacker),
        None => Ok(true),
    }
}

/// The names of `fighter`'s reactions used in one of `windows` whose condition holds, in
/// the order of its abilities (`reactions_of`, `reactions_in`).
fn holding_reactions(
    ctx: &Ncc,
    function: &'static str,
    fighter: PieceId,
    windows: &[ImmutableString],
    target: Option<PieceId>,
    attacker: Option<PieceId>,
) -> Res<Array> {
    let candidates = with_run(ctx, function, |run| {
        reactions_for(run, function, fighter, windows)
    })?;
    let mut reactions = Array::new();
    for (name, condition) in candidates {
        if condition_holds(ctx, function, fighter, condition.as_ref(), target, attacker)? {
            reactions.push(string(&name));
        }
    }
    Ok(reactions)
}

fn string(text: &str) -> Dynamic {
    Dynamic::from(ImmutableString::from(text))
}

pub(crate) fn register(engine: &mut Registrar) {
    engine.register_fn(
        "inspire_condition_holds",
        |ctx: Ncc, fighter: PieceId| -> Res<bool> {
            const F: &str = "inspire_condition_holds";
            let condition = with_run(&ctx, F, |run| {
                Ok(profile(run, F, fighter)?.and_then(|info| info.inspire.clone()))
            })?;
            match condition {
                Some(script) => evaluate(&ctx, F, fighter, &script, None, None),
                None => Ok(false),
            }
        },
    );
    engine.register_fn(
        "uninspire_condition_holds",
        |ctx: Ncc, fighter: PieceId| -> Res<bool> {
            const F: &str = "uninspire_condition_holds";
            let condition = with_run(&ctx, F, |run| {
                Ok(profile(run, F, fighter)?.and_then(|info| info.uninspire.clone()))
            })?;
            match condition {
                Some(script) => evaluate(&ctx, F, fighter, &script, None, None),
                None => Ok(false),
            }
        },
    );
    engine.register_fn("abilities", |ctx: Ncc, fighter: PieceId| -> Res<Array> {
        with_run(&ctx, "abilities", |run| {
            Ok(current_abilities(run, "abilities", fighter)?
                .map(|ability| string(&ability.name))
                .collect())
        })
    });
    engine.register_fn(
        "ability_window",
        |ctx: Ncc, fighter: PieceId, name: ImmutableString| -> Res<Dynamic> {
            with_run(&ctx, "ability_window", |run| {
                Ok(ability(run, "ability_window", fighter, &name)?
                    .window
                    .as_deref()
                    .map_or(Dynamic::UNIT, string))
            })
        },
    );
    engine.register_fn(
        "ability_is_reaction",
        |ctx: Ncc, fighter: PieceId, name: ImmutableString| -> Res<bool> {
            with_run(&ctx, "ability_is_reaction", |run| {
                Ok(ability(run, "ability_is_reaction", fighter, &name)?.reaction)
            })
        },
    );
    engine.register_fn(
        "ability_condition_holds",
        |ctx: Ncc, fighter: PieceId, name: ImmutableString| -> Res<bool> {
            const F: &str = "ability_condition_holds";
            ability_holds(&ctx, F, fighter, &name, None, None)
        },
    );
    engine.register_typed(
        "ability_condition_holds",
        |ctx: Ncc,
         fighter: PieceId,
         name: ImmutableString,
         target: Arg,
         attacker: Arg|
         -> Res<bool> {
            const F: &str = "ability_condition_holds";
            let (target, attacker) = check_event_fighters(&ctx, F, &target.0, &attacker.0)?;
            ability_holds(&ctx, F, fighter, &name, target, attacker)
        },
    );
    engine.register_typed(
        "reactions_of",
        |ctx: Ncc,
         fighter: PieceId,
         window: ImmutableString,
         target: Arg,
         attacker: Arg|
         -> Res<Array> {
            const F: &str = "reactions_of";
            let (target, attacker) = check_event_fighters(&ctx, F, &target.0, &attacker.0)?;
            holding_reactions(&ctx, F, fighter, &[window], target, attacker)
        },
    );
    engine.register_typed(
        "reactions_in",
        |ctx: Ncc, fighter: PieceId, windows: Array, target: Arg, attacker: Arg| -> Res<Array> {
            const F: &str = "reactions_in";
            let (target, attacker) = check_event_fighters(&ctx, F, &target.0, &attacker.0)?;
            let windows = with_run(&ctx, F, |_| {
                list_of(F, "windows", "window names", &windows, as_string)
            })?;
            holding_reactions(&ctx, F, fighter, &windows, target, attacker)
        },
    );
    engine.register_typed(
        "fighters_with_reactions",
        |ctx: Ncc, fighters: Items, windows: Items, target: Arg, attacker: Arg| -> Res<Listed> {
            const F: &str = "fighters_with_reactions";
            let (target, attacker) = check_event_fighters(&ctx, F, &target.0, &attacker.0)?;
            let candidates = with_run(&ctx, F, |run| {
                let fighters = items_of(F, "fighters", "fighters", &fighters.0, val_piece)?;
                let windows = items_of(F, "windows", "window names", &windows.0, val_string)?;
                fighters
                    .into_iter()
                    .map(|fighter| {
                        let conditions = reactions_in_windows(run, F, fighter, &windows)?
                            .map(|ability| ability.condition.clone())
                            .collect::<Vec<_>>();
                        Ok((fighter, conditions))
                    })
                    .collect::<Result<Vec<_>, Stop>>()
            })?;
            let mut found = Vec::new();
            for (fighter, reactions) in candidates {
                for condition in reactions {
                    if condition_holds(&ctx, F, fighter, condition.as_ref(), target, attacker)? {
                        found.push(fighter.into());
                        break;
                    }
                }
            }
            Ok(Listed(found))
        },
    );
    engine.register_fn(
        "use_ability",
        |ctx: Ncc, fighter: PieceId, name: ImmutableString| -> Res<()> {
            with_run(&ctx, "use_ability", |run| {
                use_ability(run, fighter, &name, None, None)
            })
        },
    );
    engine.register_typed(
        "use_ability",
        |ctx: Ncc,
         fighter: PieceId,
         name: ImmutableString,
         target: Arg,
         attacker: Arg|
         -> Res<()> {
            let (target, attacker) =
                check_event_fighters(&ctx, "use_ability", &target.0, &attacker.0)?;
            with_run(&ctx, "use_ability", |run| {
                use_ability(run, fighter, &name, target, attacker)
            })
        },
    );
}

/// Queues the ability's effect (the driver's `ability` step) for `fighter`'s owner.
fn use_ability(
    run: &mut RunState,
    fighter: PieceId,
    name: &str,
    target: Option<PieceId>,
    attacker: Option<PieceId>,
) -> Result<(), Stop> {
    const F: &str = "use_ability";
    effect(run, F)?;
    let owner = owner_of(run, F, fighter).map_err(refused)?;
    ability(run, F, fighter, name).map_err(refused)?;
    for piece in [target, attacker].into_iter().flatten() {
        owner_of(run, F, piece).map_err(refused)?;
    }
    let mut vars = vec![
        ("fighter".to_owned(), Value::Piece(fighter)),
        ("name".to_owned(), Value::Str(name.to_owned())),
        ("player".to_owned(), Value::Player(owner)),
    ];
    if let Some(target) = target {
        vars.push(("target".to_owned(), Value::Piece(target)));
    }
    if let Some(attacker) = attacker {
        vars.push(("attacker".to_owned(), Value::Piece(attacker)));
    }
    vars.sort_by(|a, b| a.0.cmp(&b.0));
    run.flow.push(FlowRequest::Then {
        step: ABILITY_STEP.to_owned(),
        vars,
    });
    Ok(())
}
