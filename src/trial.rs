//! Trying one card: its script run in a small game, so an author can see it work before a
//! full ruleset plays it (`gloam try`).
//!
//! The trial game uses the card's ruleset: its dice, the first board written for it (or a
//! hexagon of radius 3), and the first two warbands written for it (or two stand-in
//! fighters a side: Move 3, Defence 1, Wounds 4). Fighters stand on starting hexes when the
//! board has them, each side from one end, except that the second player's first fighter
//! stands next to the first player's first fighter, so that there is something to act on. Each player has power and objective decks of filler cards; the tried card
//! is in the first player's hand. The script runs for the first player, with the first
//! player's first fighter as `this_fighter` and the nearest enemy as `target`; a seeded
//! random agent answers its choices.

use std::collections::BTreeSet;

use gloam_core::{
    Answer, Battlefield, CardId, Ctx, Dice, Event, GameRng, GameState, Hex, PieceId, Placement,
    PlayerId, Position, Value, ZoneId,
};
use gloam_dsl::{Bindings, Host, Outcome, World};
use gloam_grammar::{CardDef, RulesetDef};

use crate::load::Loaded;

/// What went wrong setting up or running a trial.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[non_exhaustive]
pub enum TrialError {
    /// No card of that name is loaded.
    #[error("no card named `{name}` is loaded")]
    #[diagnostic(code(gloam::trial::unknown_card), help("{help}"))]
    UnknownCard {
        /// The name asked for.
        name: String,
        /// A suggestion.
        help: String,
    },
    /// The card has no script to try.
    #[error("card `{name}` has neither an effect nor a condition to try")]
    #[diagnostic(code(gloam::trial::nothing_to_run))]
    NothingToRun {
        /// The card.
        name: String,
    },
    /// The trial game could not be set up.
    #[error("cannot set up a trial game: {message}")]
    #[diagnostic(code(gloam::trial::setup))]
    Setup {
        /// Why.
        message: String,
    },
    /// The script failed.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Script(#[from] gloam_dsl::DslDiagnostic),
}

/// What a trial did.
#[derive(Debug)]
pub struct TrialReport {
    /// The trial game before the script ran.
    pub before: GameState,
    /// The game after.
    pub after: GameState,
    /// The events of the script's run.
    pub events: Vec<Event>,
    /// The answers the agent gave, in order.
    pub answers: Vec<Answer>,
    /// For a condition: whether it held.
    pub condition: Option<bool>,
    /// The battlefield's hexes, and those of a blocking type, for drawing.
    pub hexes: BTreeSet<Hex>,
    /// The blocked hexes.
    pub blocked: BTreeSet<Hex>,
}

const BLOCKING: &str = "blocked";

fn setup_error(message: impl std::fmt::Display) -> TrialError {
    TrialError::Setup {
        message: message.to_string(),
    }
}

fn dice_of(ruleset: &RulesetDef) -> Result<Dice, TrialError> {
    crate::engine::dice_of(ruleset).map_err(setup_error)
}

fn battlefield_of(loaded: &Loaded, ruleset: &str) -> Result<Battlefield, TrialError> {
    let board = loaded
        .library
        .boards()
        .iter()
        .find(|b| b.ruleset == ruleset)
        .map(|b| b.to_board());
    match board {
        Some(board) => Battlefield::join(&[(board, Placement::IDENTITY)], 0).map_err(setup_error),
        None => Ok(Battlefield::from_hexes(
            Hex::ORIGIN
                .range(3)
                .into_iter()
                .map(|h| (h, Vec::<String>::new())),
        )),
    }
}

/// Fighter profiles for one side: a warband's fighters, or two stand-ins.
fn profiles(loaded: &Loaded, ruleset: &str, seat: usize) -> Vec<(String, Vec<(String, i64)>)> {
    let warbands: Vec<_> = loaded
        .library
        .warbands()
        .iter()
        .filter(|w| w.ruleset == ruleset)
        .collect();
    match warbands.get(seat).or(warbands.first()) {
        Some(warband) => warband
            .fighters
            .iter()
            .map(|f| {
                let stats = f.stats.iter().map(|s| (s.name.clone(), s.value)).collect();
                (f.name.clone(), stats)
            })
            .collect(),
        None => (1..=2)
            .map(|n| {
                let stats = [("move", 3), ("defence", 1), ("wounds", 4)]
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect();
                (format!("Stand-in {n}"), stats)
            })
            .collect(),
    }
}

/// Runs `card_name`'s effect (or evaluates its condition) in a trial game.
pub fn try_card(
    loaded: &Loaded,
    host: &Host,
    card_name: &str,
    seed: u64,
) -> Result<TrialReport, TrialError> {
    let card: &CardDef = loaded.library.card(card_name).ok_or_else(|| {
        let names: Vec<&str> = loaded
            .library
            .cards()
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        TrialError::UnknownCard {
            name: card_name.to_owned(),
            help: match gloam_grammar::closest(card_name, names.iter().copied()) {
                Some(close) => format!("did you mean `{close}`?"),
                None if names.is_empty() => {
                    "no card is loaded: give the file or folder that holds it".to_owned()
                }
                None => format!(
                    "{} cards are loaded; `gloam check` lists none by this name",
                    names.len()
                ),
            },
        }
    })?;
    let ruleset = loaded
        .library
        .ruleset(&card.ruleset)
        .ok_or_else(|| setup_error(format!("ruleset `{}` is not loaded", card.ruleset)))?;
    let (field, script) = match (
        loaded.script("card", &card.name, "effect"),
        loaded.script("card", &card.name, "condition"),
    ) {
        (Some(script), _) => ("effect", script),
        (None, Some(script)) => ("condition", script),
        (None, None) => {
            return Err(TrialError::NothingToRun {
                name: card.name.clone(),
            });
        }
    };
    let battlefield = battlefield_of(loaded, &card.ruleset)?;
    let hexes: BTreeSet<Hex> = battlefield.hexes().collect();
    let blocked: BTreeSet<Hex> = battlefield.hexes_of_type(BLOCKING).into_iter().collect();
    let mut free: Vec<Hex> = battlefield
        .hexes_of_type("starting")
        .into_iter()
        .filter(|h| !blocked.contains(h))
        .collect();
    if free.len() < 4 {
        free = hexes
            .iter()
            .copied()
            .filter(|h| !blocked.contains(h))
            .collect();
    }
    let world = World::new(battlefield, [BLOCKING], false, dice_of(ruleset)?);

    let mut state = GameState::new(seed, &["Ann", "Bo"]);
    let mut setup_log = Vec::new();
    let (this_card, fighters) = {
        let mut ctx = Ctx::new(&mut state, &mut setup_log);
        for characteristic in &ruleset.characteristics {
            ctx.set_floor(&characteristic.name, characteristic.floor.unwrap_or(1))
                .map_err(setup_error)?;
        }
        for seat in 0..2u8 {
            let player = PlayerId(seat);
            for zone in &ruleset.zones {
                ctx.create_zone(ZoneId::new(player, zone.name.as_str()), zone.visibility)
                    .map_err(setup_error)?;
            }
            for n in 1..=5 {
                for deck in ["power_deck", "objective_deck"] {
                    ctx.create_card(&format!("filler {n}"), player, &ZoneId::new(player, deck))
                        .map_err(setup_error)?;
                }
            }
        }
        let hand = if card.kind == "objective" {
            "objective_hand"
        } else {
            "power_hand"
        };
        let this_card: CardId = ctx
            .create_card(&card.name, PlayerId(0), &ZoneId::new(PlayerId(0), hand))
            .map_err(setup_error)?;
        // The first player's fighters take free hexes from one end; the second player's
        // first fighter stands next to the first player's first fighter (so that cards
        // about adjacent enemies have something to act on), the rest from the other end.
        let mut fighters: Vec<PieceId> = Vec::new();
        let mut taken: BTreeSet<Hex> = BTreeSet::new();
        let mut front = free.iter().copied();
        let mut back = free.iter().rev().copied();
        for seat in 0..2u8 {
            for (index, (kind, stats)) in profiles(loaded, &card.ruleset, seat as usize)
                .into_iter()
                .enumerate()
            {
                let beside_first = (seat == 1 && index == 0)
                    .then(|| fighters.first())
                    .flatten()
                    .and_then(|first| ctx.state().pieces[first].position)
                    .and_then(Position::hex)
                    .and_then(|hex| {
                        hex.neighbors().into_iter().find(|n| {
                            hexes.contains(n) && !blocked.contains(n) && !taken.contains(n)
                        })
                    });
                let hex = beside_first.or_else(|| {
                    if seat == 0 {
                        front.find(|h| !taken.contains(h))
                    } else {
                        back.find(|h| !taken.contains(h))
                    }
                });
                let Some(hex) = hex else {
                    break;
                };
                taken.insert(hex);
                let piece = ctx
                    .create_piece(PlayerId(seat), &kind, stats)
                    .map_err(setup_error)?;
                ctx.place_piece(piece, Some(Position::Hex(hex)), vec![], "deploy")
                    .map_err(setup_error)?;
                fighters.push(piece);
            }
        }
        (this_card, fighters)
    };
    let actor = fighters
        .iter()
        .copied()
        .find(|p| state.pieces[p].owner == PlayerId(0))
        .ok_or_else(|| setup_error("the first player has no fighter on the battlefield"))?;
    let actor_hex = state.pieces[&actor].position.and_then(Position::hex);
    let target = fighters
        .iter()
        .copied()
        .filter(|p| state.pieces[p].owner != PlayerId(0))
        .min_by_key(|p| {
            let hex = state.pieces[p].position.and_then(Position::hex);
            (hex.zip(actor_hex).map(|(a, b)| a.distance_to(b)), *p)
        });
    let mut bindings = Bindings::new()
        .acting(PlayerId(0))
        .with("this_card", Value::Card(this_card))
        .with("this_fighter", Value::Piece(actor));
    if let Some(target) = target {
        bindings = bindings.with("target", Value::Piece(target));
    }

    let before = state.clone();
    if field == "condition" {
        let held = host.evaluate_bool(script, &world, &state, &bindings)?;
        return Ok(TrialReport {
            after: state,
            before,
            events: Vec::new(),
            answers: Vec::new(),
            condition: Some(held),
            hexes,
            blocked,
        });
    }
    let mut agent_rng = GameRng::from_seed(seed ^ 0x7417);
    let mut answers: Vec<Answer> = Vec::new();
    let mut events = Vec::new();
    for _ in 0..64 {
        match host.run(script, &world, &mut state, &mut events, &bindings, &answers)? {
            Outcome::Done { .. } => {
                return Ok(TrialReport {
                    before,
                    after: state,
                    events,
                    answers,
                    condition: None,
                    hexes,
                    blocked,
                });
            }
            Outcome::NeedsChoice(request) => {
                answers.push(crate::agent::random_answer(&mut agent_rng, &request));
            }
            _ => return Err(setup_error("the script ended in an unexpected way")),
        }
    }
    Err(setup_error("the script asked for more than 64 choices"))
}
