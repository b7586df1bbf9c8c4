//! What a script asks to happen after it finishes: the rules' flow.

use crate::compiled::{Entries, Fields, Registrar, Val};
use gloam_core::{CardId, GameResult, PieceId, PlayerId, Value};
use rhai::{Array, Dynamic, ImmutableString};

use crate::functions::{Ncc, Res, effect};
use crate::runtime::{RunState, Stop, with_run};
use crate::values::type_name;

/// Something a script queued to happen once it finishes, returned in
/// [`crate::Outcome::Done`] in the order the script asked.
///
/// The host only records these: running the queued step, playing the card or ending the
/// game is the caller's (the rules driver's). A run that fails or stops at a choice queues
/// nothing.
///
/// # Examples
///
/// ```
/// use gloam_core::{Battlefield, Dice, GameState, Hex, PlayerId, Value};
/// use gloam_dsl::{Bindings, FlowRequest, Host, Outcome, ScriptContext, ScriptSource, World};
/// let host = Host::new();
/// let text = "then(\"action_step\", #{ count: 2 }); end_game([player], \"last one standing\");";
/// let script = host.compile(&ScriptSource::whole("step.gloam", text), &ScriptContext::effect("step").with_variables(["player"]))?;
/// let world = World::new(Battlefield::from_hexes([(Hex::ORIGIN, Vec::<String>::new())]), ["blocked"], false, Dice::new());
/// let mut state = GameState::new(1, &["Ann", "Bo"]);
/// let outcome = host.run(&script, &world, &mut state, &mut Vec::new(), &Bindings::new().acting(PlayerId(1)), &[]).map_err(|e| vec![e])?;
/// let Outcome::Done { flow, .. } = outcome else { panic!() };
/// assert_eq!(flow[0], FlowRequest::Then { step: "action_step".into(), vars: vec![("count".into(), Value::Int(2))] });
/// assert!(matches!(&flow[1], FlowRequest::EndGame(result) if result.winners == [PlayerId(1)]));
/// # Ok::<(), Vec<gloam_dsl::DslDiagnostic>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FlowRequest {
    /// `then(step)`, `then(step, vars)`: run the rule step `step` next, with these variables
    /// (sorted by name).
    Then {
        /// The step's name, as the script wrote it (the driver reports an unknown one).
        step: String,
        /// The variables the step receives, by name, sorted.
        vars: Vec<(String, Value)>,
    },
    /// `play_card(card, fighter)`: resolve the card's effect next.
    PlayCard {
        /// The card played.
        card: CardId,
        /// The fighter it is played on or for, if any.
        fighter: Option<PieceId>,
        /// Who plays it: the card's owner.
        player: PlayerId,
    },
    /// `end_game(winners, reason)`: the game ends with this result.
    EndGame(GameResult),
}

/// A value a flow variable may hold: a fighter, player, card, hex, int, bool, string or a
/// list of those; `None` for anything else.
pub(crate) fn flow_value(value: &Val) -> Option<Value> {
    Some(match value {
        Val::Int(n) => Value::Int(*n),
        Val::Bool(b) => Value::Bool(*b),
        Val::Str(s) => Value::Str(s.as_str().to_owned()),
        Val::Piece(piece) => Value::Piece(*piece),
        Val::Player(player) => Value::Player(*player),
        Val::Card(card) => Value::Card(*card),
        Val::Hex(hex) => Value::Hex(*hex),
        Val::List(items) => {
            // Room for every item at once: collecting options would grow the list.
            let mut list = Vec::with_capacity(items.len());
            for item in items.iter() {
                list.push(flow_value(item)?);
            }
            Value::List(list)
        }
        _ => return None,
    })
}

/// The variables of `then(step, vars)`, sorted by name; an error naming the first key whose
/// value a step cannot receive.
pub(crate) fn flow_vars(vars: &Entries) -> Result<Vec<(String, Value)>, Stop> {
    let mut read = Vec::with_capacity(vars.len());
    for (key, value) in vars.iter() {
        let Some(flowing) = flow_value(value) else {
            let what = match value {
                Val::List(items) => {
                    let bad = items.iter().find(|item| flow_value(item).is_none());
                    format!("a list holding a {}", bad.map_or("value", Val::kind))
                }
                other => format!("a {}", other.kind()),
            };
            return Err(Stop::failed(
                "then",
                format!(
                    "`{key}` is {what}; a step's variables are fighters, players, cards, hexes, ints, bools, strings or lists of those"
                ),
            ));
        };
        read.push((key.as_str().to_owned(), flowing));
    }
    Ok(read)
}

pub(crate) fn register(engine: &mut Registrar) {
    engine.register_fn("then", |ctx: Ncc, step: ImmutableString| -> Res<()> {
        with_run(&ctx, "then", |run| then(run, &step, Vec::new()))
    });
    engine.register_typed(
        "then",
        |ctx: Ncc, step: ImmutableString, vars: Fields| -> Res<()> {
            with_run(&ctx, "then", |run| {
                effect(run, "then")?;
                let vars = flow_vars(&vars.0)?;
                then(run, &step, vars)
            })
        },
    );
    engine.register_fn(
        "play_card",
        |ctx: Ncc, card: CardId, fighter: Dynamic| -> Res<()> {
            with_run(&ctx, "play_card", |run| {
                effect(run, "play_card")?;
                let player = run
                    .state()
                    .cards
                    .get(&card)
                    .ok_or_else(|| Stop::refused("play_card", format!("there is no {card}")))?
                    .owner;
                let fighter = if fighter.is_unit() {
                    None
                } else if let Some(piece) = fighter.read_lock::<PieceId>().map(|v| *v) {
                    if run.state().piece(piece).is_none() {
                        return Err(Stop::refused("play_card", format!("there is no {piece}")));
                    }
                    Some(piece)
                } else {
                    return Err(Stop::failed(
                        "play_card",
                        format!(
                            "`fighter` must be a fighter or (), not a {}",
                            type_name(&fighter)
                        ),
                    ));
                };
                run.flow.push(FlowRequest::PlayCard {
                    card,
                    fighter,
                    player,
                });
                Ok(())
            })
        },
    );
    engine.register_fn(
        "end_game",
        |ctx: Ncc, winners: Array, reason: ImmutableString| -> Res<()> {
            with_run(&ctx, "end_game", |run| {
                effect(run, "end_game")?;
                let mut players: Vec<PlayerId> = Vec::with_capacity(winners.len());
                for (index, item) in winners.iter().enumerate() {
                    let Some(player) = item.read_lock::<PlayerId>().map(|v| *v) else {
                        return Err(Stop::failed(
                            "end_game",
                            format!(
                                "`winners` must be a list of players; item {} is a {}",
                                index + 1,
                                type_name(item)
                            ),
                        ));
                    };
                    if run.state().player(player).is_none() {
                        return Err(Stop::refused("end_game", format!("there is no {player}")));
                    }
                    if !players.contains(&player) {
                        players.push(player);
                    }
                }
                run.flow.push(FlowRequest::EndGame(GameResult {
                    winners: players,
                    reason: reason.to_string(),
                }));
                Ok(())
            })
        },
    );
}

fn then(run: &mut RunState, step: &str, vars: Vec<(String, Value)>) -> Result<(), Stop> {
    effect(run, "then")?;
    if step.is_empty() {
        return Err(Stop::refused("then", "a step needs a name"));
    }
    run.flow.push(FlowRequest::Then {
        step: step.to_owned(),
        vars,
    });
    Ok(())
}
