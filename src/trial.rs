//! Trying one card: its script run in a small game, so an author can see it work before a
//! full ruleset plays it (`gloam try`).
//!
//! The trial game uses the card's ruleset: its dice, the first board written for it (or a
//! hexagon of radius 3), and the first two warbands written for it (or two stand-in
//! fighters a side: Move 3, Defence 1, Wounds 4). Fighters stand on starting hexes when the
//! board has them, each side from one end, except that the second player's first fighter
//! stands next to the first player's first fighter, so that there is something to act on.
//! Which free hexes the fighters take depends on the seed. Each player has power and
//! objective decks of filler cards; the tried card is in the first player's hand. The
//! script runs for the first player in the script world a game of the ruleset has (its
//! cards' catalog included), with the variables a game binds at the card's place
//! ([`gloam_dsl::Place`]): `this_card` and `player`; `this_fighter`, the first player's
//! first fighter, only for a card a fighter carries or casts (never for a ploy or an
//! objective); and only the fighters the card's window gives (`gives` in its ruleset),
//! picked by the seed as a game could have them: for a window giving both, that first
//! fighter and the enemy beside it, one the `attacker`, the other the `target`. A card in a
//! power step gets neither, as in a game. A card with both a condition and an effect has its
//! condition evaluated first (reported), then its effect run; a seeded random agent answers
//! its choices.

use std::collections::BTreeSet;

use gloam_core::{
    Answer, Battlefield, CardId, Ctx, Dice, Event, GameRng, GameState, Hex, PieceId, Placement,
    PlayerId, Position, Value, ZoneId,
};
use gloam_dsl::{Bindings, Host, Outcome};
use gloam_grammar::{CardDef, RulesetDef};

use crate::engine::{MatchSpec, Seat};
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
    /// The script that ran: `effect`, or `condition` for a card with no effect.
    pub field: &'static str,
    /// For a card with a condition: whether it held before the effect ran (for a card with
    /// an effect too: a game would not offer the card while it does not hold).
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
    // Seeded: the fighters' hexes depend on `seed`, as the game and the answers do.
    let mut placement_rng = GameRng::from_seed(seed ^ 0x706c_6163);
    for index in (1..free.len()).rev() {
        let other = placement_rng.below(index as u32 + 1) as usize;
        free.swap(index, other);
    }
    // The script world a game of the ruleset has (its cards' catalog, fighter profiles,
    // territories), so that queries about cards (`card_kind(this_card)`,
    // `condition_holds(this_card)`) answer as in play.
    let spec = MatchSpec {
        ruleset: card.ruleset.clone(),
        seats: (0..2)
            .map(|seat| Seat {
                name: ["Ann", "Bo"][seat].to_owned(),
                warband: String::new(),
                decklist: None,
                board: None,
                army: None,
                party: None,
            })
            .collect(),
        table: None,
    };
    let world = crate::world::world_for(loaded, ruleset, battlefield, dice_of(ruleset)?, &spec);

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
    let enemy = fighters
        .iter()
        .copied()
        .filter(|p| state.pieces[p].owner != PlayerId(0))
        .min_by_key(|p| {
            let hex = state.pieces[p].position.and_then(Position::hex);
            (hex.zip(actor_hex).map(|(a, b)| a.distance_to(b)), *p)
        });
    // What a game binds at the card's place (`gloam_dsl::Place`, the table the checker
    // uses): a card played for no fighter (a ploy, an objective) gets no `this_fighter`, and
    // a card gets only the fighters its window gives (none in a power step).
    let place = crate::load::script_place(&loaded.library, "card", &card.name, &card.ruleset);
    let mut bindings = Bindings::new()
        .acting(PlayerId(0))
        .with("this_card", Value::Card(this_card))
        .with("player", Value::Player(PlayerId(0)));
    if place.has_fighter() {
        bindings = bindings.with("this_fighter", Value::Piece(actor));
    }
    for (name, fighter) in event_fighters(&place, actor, enemy, &fighters, seed) {
        bindings = bindings.with(name, Value::Piece(fighter));
    }

    let before = state.clone();
    let condition = match loaded.script("card", &card.name, "condition") {
        Some(condition) => Some(host.evaluate_bool(condition, &world, &state, &bindings)?),
        None => None,
    };
    if field == "condition" {
        return Ok(TrialReport {
            after: state,
            before,
            events: Vec::new(),
            answers: Vec::new(),
            field,
            condition,
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
                    field,
                    condition,
                    hexes,
                    blocked,
                });
            }
            Outcome::NeedsChoice(request) => {
                answers.push(crate::agent::random_answer(&mut agent_rng, &request));
            }
            Outcome::NeedsChoices(requests) => {
                for request in &requests {
                    answers.push(crate::agent::random_answer(&mut agent_rng, request));
                }
            }
            _ => return Err(setup_error("the script ended in an unexpected way")),
        }
    }
    Err(setup_error("the script asked for more than 64 choices"))
}

/// The fighters of the event of the card's window, as a game would bind them, picked by the
/// seed: for a window that gives both `target` and `attacker`, the first player's first
/// fighter and the enemy beside it, one attacking the other (which one, by the seed); for a
/// window that gives one of them, any fighter on the battlefield. A variable the window
/// marks `optional` gets a fighter too (the event that has one). A window that gives none
/// (a power step) gets none, and so does a card without a window.
fn event_fighters(
    place: &gloam_dsl::Place<'_>,
    actor: PieceId,
    enemy: Option<PieceId>,
    fighters: &[PieceId],
    seed: u64,
) -> Vec<(&'static str, PieceId)> {
    let Some(window) = place.window() else {
        return Vec::new();
    };
    let given = window.variables();
    let mut rng = GameRng::from_seed(seed ^ 0x6576_656e);
    match (given.as_slice(), enemy) {
        (["target", "attacker"], Some(enemy)) => {
            let (target, attacker) = if rng.below(2) == 0 {
                (enemy, actor)
            } else {
                (actor, enemy)
            };
            vec![("target", target), ("attacker", attacker)]
        }
        _ => given
            .into_iter()
            .map(|name| {
                let pick = rng.below(fighters.len().max(1) as u32) as usize;
                (name, fighters.get(pick).copied().unwrap_or(actor))
            })
            .collect(),
    }
}

/// A line for each event a trial shows: the narration `gloam play` prints, and for the
/// changes it leaves out (modifiers, cards moving between zones, hex types given in play,
/// keywords, characteristics, random draws) a plain line, so that everything a card did is
/// shown. Only markers (the names of moments) are left out.
pub fn describe(event: &Event, state: &GameState) -> Option<String> {
    // A card checker wants the exact zones and hex types a card changed: those keep the
    // trial's own lines below rather than the players' narration.
    let exact = matches!(
        event,
        Event::CardMoved { .. } | Event::HiddenCardMoved { .. } | Event::HexTypeChanged { .. }
    );
    if !exact {
        if let Some(line) = crate::narrate::narrate(event, state) {
            return Some(line);
        }
    }
    let piece = |piece: &PieceId| {
        state.piece(*piece).map_or_else(
            || piece.to_string(),
            |p| {
                let owner = state
                    .player(p.owner)
                    .map_or_else(|| p.owner.to_string(), |player| player.name.clone());
                format!("{owner}'s {} (#{})", p.kind, piece.0)
            },
        )
    };
    let zone = |zone: &ZoneId| match zone.piece {
        Some(id) => format!("{} of {}", zone.name, piece(&id)),
        None => {
            let owner = state
                .player(zone.owner)
                .map_or_else(|| zone.owner.to_string(), |p| p.name.clone());
            format!("{owner}'s {}", zone.name)
        }
    };
    Some(match event {
        Event::Marker { .. } => return None,
        Event::ModifierAdded { modifier, .. } => {
            let whom = match modifier.target {
                gloam_core::ModTarget::Piece(id) => piece(&id),
                gloam_core::ModTarget::Player(player) => state
                    .player(player)
                    .map_or_else(|| player.to_string(), |p| format!("{}'s fighters", p.name)),
                _ => "every fighter".to_owned(),
            };
            format!(
                "{whom}: {} {} (modifier)",
                modifier.characteristic, modifier.op
            )
        }
        Event::ModifierRemoved { id } => format!("modifier {id:?} ends"),
        Event::CardMoved { name, from, to, .. } => {
            format!("card \"{name}\" goes from {} to {}", zone(from), zone(to))
        }
        Event::HiddenCardMoved { from, to } => {
            format!("a hidden card goes from {} to {}", zone(from), zone(to))
        }
        Event::CardCreated {
            name, zone: into, ..
        } => {
            format!("card \"{name}\" is put in {}", zone(into))
        }
        Event::HexTypeChanged { hex, name, present } => format!(
            "hex {hex} {} type `{name}`",
            if *present { "gains" } else { "loses" }
        ),
        Event::CharacteristicChanged {
            piece: id,
            name,
            from,
            to,
        } => match from {
            Some(from) => format!("{}: {name} {from} -> {to}", piece(id)),
            None => format!("{}: {name} {to}", piece(id)),
        },
        Event::KeywordChanged {
            piece: id,
            keyword,
            present,
        } => format!(
            "{} {} keyword `{keyword}`",
            piece(id),
            if *present { "gains" } else { "loses" }
        ),
        Event::Drew {
            purpose,
            bound,
            value,
        } => format!("random pick for {purpose}: {} of {bound}", value + 1),
        Event::Shuffled { zone: shuffled } => format!("{} is shuffled", zone(shuffled)),
        other => format!("{other:?}"),
    })
}
