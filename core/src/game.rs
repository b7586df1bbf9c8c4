//! The game loop: a deterministic state machine driven by a ruleset and a host.
//!
//! A [`Rules`] implementation (a ruleset compiled by `gloam-dsl`, or a test's) runs the
//! frames of [`GameState::flow`] one at a time through a [`Ctx`], which is the only way to
//! change the state and records every change as an [`Event`]. When a rule needs a player's
//! answer it returns [`Control::Ask`]; the game stops and the host reads
//! [`Game::pending`], then calls [`Game::submit`]. An answer that is illegal, or a rule
//! that fails while running after it, leaves the game exactly as it was.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::{
    Answer, Card, CardId, DecisionError, DieResult, Event, Frame, GameResult, GameState, Hex,
    InvariantError, ModifierId, ModifierSpec, Piece, PieceId, PlayerId, Position, Request, Scope,
    Value, Visibility, Zone, ZoneId,
};

/// Named whole numbers: counters or tokens.
type Named = BTreeMap<String, i64>;

/// One past the highest id in use (ids are never reused within a game), 0 for none.
fn next_id(mut ids: impl DoubleEndedIterator<Item = u32>) -> u32 {
    ids.next_back().map_or(0, |last| last.saturating_add(1))
}

/// Sets `name` to `value` in `map` (0 is stored as absent) and returns the old value, or
/// `None` when nothing changed.
fn set_named(map: &mut Named, name: &str, value: i64) -> Option<i64> {
    let from = map.get(name).copied().unwrap_or(0);
    if from == value {
        return None;
    }
    if value == 0 {
        map.remove(name);
    } else {
        map.insert(name.to_owned(), value);
    }
    Some(from)
}

/// What a rule step tells the loop to do next.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Control {
    /// Run this frame again (its stage or vars changed).
    Continue,
    /// This frame is finished: pop it.
    Done,
    /// Keep this frame, and run these first, in the order given.
    Push(Vec<Frame>),
    /// Finish this frame and run these in its place, in the order given.
    Replace(Vec<Frame>),
    /// Ask one player; the answer is appended to this frame's `answers`.
    Ask(Request),
    /// Ask several players at once (simultaneous choices); the answers are appended to
    /// this frame's `answers` in the order of the requests once all have answered.
    AskAll(Vec<Request>),
    /// The game is over.
    End(GameResult),
}

/// The decisions the game waits on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// The requests, in order.
    pub requests: Vec<Request>,
    /// Answers given so far (by index into `requests`), kept hidden until all are in.
    pub answers: Vec<Option<Answer>>,
}

/// A roll waiting for its outcome in chance mode: a chance node. The host reads the exact
/// distribution of its outcomes ([`ChanceRequest::outcomes`], [`Game::chance_outcomes`])
/// and applies one ([`Game::apply_chance`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChanceRequest {
    /// The player rolling, if the rules named one.
    pub player: Option<PlayerId>,
    /// What the roll is for, in the ruleset's words (the `purpose` of the roll event).
    pub purpose: String,
    /// The dice rolled (a re-roll is a pool of one die).
    pub pool: crate::Pool,
    /// The definitions of the pool's dice.
    pub dice: crate::Dice,
}

impl ChanceRequest {
    /// Every outcome of the roll, pooled by face, with its exact chance (see
    /// [`crate::Dice::outcomes`]).
    pub fn outcomes(&self) -> Result<Vec<(crate::ChanceOutcome, crate::Ratio)>, RuleError> {
        Ok(self.dice.outcomes(&self.pool)?)
    }
}

/// Chance mode, opt-in ([`Game::set_chance_mode`]): rolls take their faces from outcomes
/// the host chose instead of the RNG. Kept in the state so that a script host running on
/// a copy of the state sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChanceMode {
    /// Outcomes chosen for the rolls of the step being run, in roll order. A step that
    /// stops (for a choice or another chance) is run again from its start, so its rolls
    /// take these again; a step that finishes uses them up.
    pub queued: Vec<crate::ChanceOutcome>,
    /// The roll waiting for an outcome, if any.
    pub pending: Option<ChanceRequest>,
}

/// A failure inside the rules: a broken ruleset or an impossible effect.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuleError {
    /// The ruleset reported a problem.
    #[error("rule step `{step}` failed: {message}")]
    Step {
        /// The frame's step name.
        step: String,
        /// What went wrong.
        message: String,
    },
    /// The flow ran too many steps without asking anyone anything.
    #[error("the rules ran {steps} steps without a decision; a rule is probably looping")]
    Runaway {
        /// How many steps ran.
        steps: u64,
    },
    /// A piece id that does not exist.
    #[error("there is no {piece}")]
    UnknownPiece {
        /// The id.
        piece: PieceId,
    },
    /// A player id that is not seated.
    #[error("there is no {player}")]
    UnknownPlayer {
        /// The id.
        player: PlayerId,
    },
    /// A card id that does not exist.
    #[error("there is no {card}")]
    UnknownCard {
        /// The id.
        card: CardId,
    },
    /// A zone that was never created.
    #[error("there is no zone {zone}")]
    UnknownZone {
        /// The zone.
        zone: String,
    },
    /// A zone created twice.
    #[error("zone {zone} already exists")]
    DuplicateZone {
        /// The zone.
        zone: String,
    },
    /// A piece was moved onto another piece of its layer.
    #[error("{piece} cannot stand at {position}: {occupant} is there")]
    Occupied {
        /// The piece moved.
        piece: PieceId,
        /// Where.
        position: Position,
        /// Who stands there.
        occupant: PieceId,
    },
    /// A dice problem.
    #[error(transparent)]
    Dice(#[from] crate::DiceError),
    /// A modifier problem.
    #[error(transparent)]
    Modifier(#[from] crate::ModifierError),
    /// The state broke an invariant.
    #[error(transparent)]
    Invariant(#[from] InvariantError),
    /// In chance mode, a roll has no outcome yet: the run stops here and the game waits
    /// for the host to choose one ([`Game::apply_chance`]). [`Game`] catches this; a rules
    /// step only passes it on (with `?`), like any error.
    #[error("the roll `{}` waits for a chance outcome", .0.purpose)]
    ChanceNeeded(Box<ChanceRequest>),
    /// A counter would pass the largest or smallest whole number.
    #[error("counter `{name}` is {value}: adding {delta} would pass the largest whole number")]
    CounterOverflow {
        /// The counter.
        name: String,
        /// Its value.
        value: i64,
        /// What was added.
        delta: i64,
    },
    /// The rules checked an answer the request let through (a free table point: see
    /// [`crate::Choice::AnyPoint`]) and refused it; the game is left as it was.
    #[error("`{kind}`: {answer} was refused: {reason}")]
    AnswerRefused {
        /// What was asked.
        kind: String,
        /// The answer, in words.
        answer: String,
        /// Why, in players' words.
        reason: String,
    },
    /// The rules asked a question with no legal answer.
    #[error("request `{kind}` for {player} offers no legal answer")]
    EmptyRequest {
        /// What was asked.
        kind: String,
        /// Of whom.
        player: PlayerId,
    },
}

impl RuleError {
    /// A refusal of `answer` to the request `kind`, for `reason` (players' words).
    pub fn refused(
        kind: impl Into<String>,
        answer: &crate::Choice,
        reason: impl fmt::Display,
    ) -> RuleError {
        RuleError::AnswerRefused {
            kind: kind.into(),
            answer: answer.to_string(),
            reason: reason.to_string(),
        }
    }

    /// A ruleset's own failure in `step`.
    pub fn step(step: impl Into<String>, message: impl Into<String>) -> RuleError {
        RuleError::Step {
            step: step.into(),
            message: message.into(),
        }
    }
}

/// Why a call on a [`Game`] failed. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// The answer was refused.
    #[error(transparent)]
    Decision(#[from] DecisionError),
    /// The rules failed while running.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// A frame was pushed while a decision or a chance outcome is awaited.
    #[error("the game waits for a decision or a chance outcome; give it before pushing a frame")]
    Waiting,
    /// [`Game::apply_chance`] was called while no roll waits for an outcome.
    #[error(
        "no roll waits for a chance outcome; call apply_chance only when chance_pending() is some"
    )]
    NoChancePending,
    /// A replay produced a different event log from the recorded one.
    #[error("replay diverged from the record at event {index}")]
    Diverged {
        /// The first differing event.
        index: usize,
    },
}

/// A ruleset: the program that runs a game's flow.
pub trait Rules {
    /// Sets a new game up: zones, cards, pieces, and the first frames of the flow.
    fn start(&self, ctx: &mut Ctx<'_>, setup: &Setup) -> Result<(), RuleError>;

    /// Runs one frame, the top of the flow (popped while it runs).
    fn step(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError>;
}

/// How a game starts: the seed, the players and the ruleset's own options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The RNG seed.
    pub seed: u64,
    /// The players' names, in seating order.
    pub players: Vec<String>,
    /// The ruleset's options (`warband`, `board`...), in the ruleset's words.
    #[serde(default)]
    pub options: Vec<(String, Value)>,
}

impl Setup {
    /// A setup with no options.
    pub fn new(seed: u64, players: &[&str]) -> Setup {
        Setup {
            seed,
            players: players.iter().map(|p| (*p).to_owned()).collect(),
            options: Vec::new(),
        }
    }

    /// An option's value, if given.
    pub fn option(&self, name: &str) -> Option<&Value> {
        self.options.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// Everything needed to replay a game: its setup and every answer, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The setup.
    pub setup: Setup,
    /// The answers, in the order they were accepted.
    pub answers: Vec<(PlayerId, Answer)>,
}

/// The one way rules change a game: each method checks its input, changes the state and
/// records the change as an event.
pub struct Ctx<'a> {
    state: &'a mut GameState,
    log: &'a mut Vec<Event>,
}

impl<'a> Ctx<'a> {
    /// A context over a state and its log (for hosts building states by hand, and tests).
    pub fn new(state: &'a mut GameState, log: &'a mut Vec<Event>) -> Ctx<'a> {
        Ctx { state, log }
    }

    /// The state, read-only.
    pub fn state(&self) -> &GameState {
        self.state
    }

    /// The events recorded so far.
    pub fn events(&self) -> &[Event] {
        self.log
    }

    /// The state and the log themselves, for a script host (gloam-dsl) that runs a script
    /// against a copy through a `Ctx` of its own and then commits the copy and its events.
    /// Such a host must change the state only through a `Ctx`, so every change is still an
    /// event; rules code has no reason to call this.
    pub fn parts(&mut self) -> (&mut GameState, &mut Vec<Event>) {
        (self.state, self.log)
    }

    fn record(&mut self, event: Event) {
        self.log.push(event);
    }

    fn piece_mut(&mut self, piece: PieceId) -> Result<&mut Piece, RuleError> {
        Arc::make_mut(&mut self.state.pieces)
            .get_mut(&piece)
            .map(Arc::make_mut)
            .ok_or(RuleError::UnknownPiece { piece })
    }

    /// Records a named moment of the rules and ends the modifiers waiting for it.
    pub fn marker(
        &mut self,
        name: &str,
        scope: Scope,
        data: Vec<(String, Value)>,
    ) -> Result<(), RuleError> {
        self.record(Event::Marker {
            name: name.to_owned(),
            scope,
            data,
        });
        let mut occurrence = crate::Occurrence::new(name);
        match scope {
            Scope::Game => {}
            Scope::Player(player) => occurrence = occurrence.about(player),
            Scope::Piece(piece) => occurrence = occurrence.about(piece),
        }
        for modifier in self.state.modifiers.notify(&occurrence) {
            self.record(Event::ModifierRemoved { id: modifier.id() });
        }
        Ok(())
    }

    /// Creates a piece of the default layer (a fighter, a model), off the battlefield.
    pub fn create_piece(
        &mut self,
        owner: PlayerId,
        kind: &str,
        characteristics: impl IntoIterator<Item = (String, i64)>,
    ) -> Result<PieceId, RuleError> {
        self.create_piece_in(owner, kind, "", characteristics)
    }

    /// Creates a piece in `layer` (see [`Piece::layer`]), off the battlefield.
    pub fn create_piece_in(
        &mut self,
        owner: PlayerId,
        kind: &str,
        layer: &str,
        characteristics: impl IntoIterator<Item = (String, i64)>,
    ) -> Result<PieceId, RuleError> {
        if self.state.player(owner).is_none() {
            return Err(RuleError::UnknownPlayer { player: owner });
        }
        let id = PieceId(next_id(self.state.pieces.keys().map(|id| u32::from(id.0))) as u16);
        Arc::make_mut(&mut self.state.pieces).insert(
            id,
            Arc::new(Piece {
                id,
                owner,
                kind: kind.to_owned(),
                layer: layer.to_owned(),
                position: None,
                characteristics: Default::default(),
                counters: Default::default(),
                tokens: Default::default(),
                keywords: Default::default(),
            }),
        );
        self.record(Event::PieceCreated {
            piece: id,
            owner,
            kind: kind.to_owned(),
            layer: layer.to_owned(),
        });
        for (name, value) in characteristics {
            self.set_characteristic(id, &name, value)?;
        }
        Ok(id)
    }

    /// Puts a piece at a position (or takes it off the battlefield with `None`).
    pub fn place_piece(
        &mut self,
        piece: PieceId,
        to: Option<Position>,
        path: Vec<crate::Hex>,
        how: &str,
    ) -> Result<(), RuleError> {
        let layer = self.piece_mut(piece)?.layer.clone();
        if let Some(position) = to {
            if let Some(occupant) = self.state.piece_at_in(position, &layer) {
                if occupant != piece {
                    return Err(RuleError::Occupied {
                        piece,
                        position,
                        occupant,
                    });
                }
            }
        }
        let entry = self.piece_mut(piece)?;
        let from = entry.position;
        entry.position = to;
        self.record(Event::PieceMoved {
            piece,
            from,
            to,
            path,
            how: how.to_owned(),
        });
        Ok(())
    }

    /// The counters and the tokens of a scope.
    fn scope_maps(&mut self, scope: Scope) -> Result<(&mut Named, &mut Named), RuleError> {
        Ok(match scope {
            Scope::Game => (
                Arc::make_mut(&mut self.state.counters),
                Arc::make_mut(&mut self.state.tokens),
            ),
            Scope::Player(player) => {
                let entry = Arc::make_mut(&mut self.state.players)
                    .get_mut(player.0 as usize)
                    .ok_or(RuleError::UnknownPlayer { player })?;
                (&mut entry.counters, &mut entry.tokens)
            }
            Scope::Piece(piece) => {
                let entry = self.piece_mut(piece)?;
                (&mut entry.counters, &mut entry.tokens)
            }
        })
    }

    /// Sets a counter; records nothing if the value is unchanged.
    pub fn set_counter(&mut self, scope: Scope, name: &str, value: i64) -> Result<(), RuleError> {
        let (counters, _) = self.scope_maps(scope)?;
        let Some(from) = set_named(counters, name, value) else {
            return Ok(());
        };
        self.record(Event::CounterChanged {
            scope,
            name: name.to_owned(),
            from,
            to: value,
        });
        Ok(())
    }

    /// Adds `delta` to a counter and returns the new value; refuses (changing nothing) a
    /// sum beyond `i64`, which used to stop silently at the largest value.
    pub fn add_counter(&mut self, scope: Scope, name: &str, delta: i64) -> Result<i64, RuleError> {
        let current = self.scope_maps(scope)?.0.get(name).copied().unwrap_or(0);
        let value = current
            .checked_add(delta)
            .ok_or_else(|| RuleError::CounterOverflow {
                name: name.to_owned(),
                value: current,
                delta,
            })?;
        self.set_counter(scope, name, value)?;
        Ok(value)
    }

    /// Sets how many of a token a piece, player or the game holds (never below 0).
    pub fn set_tokens(&mut self, scope: Scope, token: &str, count: i64) -> Result<(), RuleError> {
        let count = count.max(0);
        let (_, tokens) = self.scope_maps(scope)?;
        let Some(from) = set_named(tokens, token, count) else {
            return Ok(());
        };
        self.record(Event::TokensChanged {
            scope,
            token: token.to_owned(),
            from,
            to: count,
        });
        Ok(())
    }

    /// Gives `hex` the type `name` in play (`present`) or takes a type given in play away;
    /// records nothing if that changes nothing. The battlefield's own types are not touched:
    /// a host reads a hex's types as the battlefield's plus [`GameState::hex_types`].
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Ctx, GameState, Hex};
    /// let mut state = GameState::new(1, &["Ann", "Bo"]);
    /// let mut log = Vec::new();
    /// let mut ctx = Ctx::new(&mut state, &mut log);
    /// ctx.set_hex_type(Hex::new(1, 0), "marked", true);
    /// ctx.set_hex_type(Hex::new(1, 0), "marked", true);
    /// assert!(state.hex_types.contains(&(Hex::new(1, 0), "marked".to_string())));
    /// assert_eq!(log.len(), 1);
    /// ```
    pub fn set_hex_type(&mut self, hex: Hex, name: &str, present: bool) {
        let key = (hex, name.to_owned());
        // The set is shared with copies of the state: copied only when it changes.
        let changed = self.state.hex_types.contains(&key) != present;
        if changed {
            let types = Arc::make_mut(&mut self.state.hex_types);
            if present {
                types.insert(key);
            } else {
                types.remove(&key);
            }
        }
        if changed {
            self.record(Event::HexTypeChanged {
                hex,
                name: name.to_owned(),
                present,
            });
        }
    }

    /// Sets a piece's base characteristic.
    pub fn set_characteristic(
        &mut self,
        piece: PieceId,
        name: &str,
        value: i64,
    ) -> Result<(), RuleError> {
        let entry = self.piece_mut(piece)?;
        let from = entry.characteristics.insert(name.to_owned(), value);
        if from == Some(value) {
            return Ok(());
        }
        self.record(Event::CharacteristicChanged {
            piece,
            name: name.to_owned(),
            from,
            to: value,
        });
        Ok(())
    }

    /// Gives a piece a keyword, or takes it away.
    pub fn set_keyword(
        &mut self,
        piece: PieceId,
        keyword: &str,
        present: bool,
    ) -> Result<(), RuleError> {
        let entry = self.piece_mut(piece)?;
        let changed = if present {
            entry.keywords.insert(keyword.to_owned())
        } else {
            entry.keywords.remove(keyword)
        };
        if changed {
            self.record(Event::KeywordChanged {
                piece,
                keyword: keyword.to_owned(),
                present,
            });
        }
        Ok(())
    }

    /// Declares the lowest value modifiers can bring a characteristic to.
    pub fn set_floor(&mut self, name: &str, floor: i64) -> Result<(), RuleError> {
        Arc::make_mut(&mut self.state.floors).insert(name.to_owned(), floor);
        self.record(Event::FloorSet {
            name: name.to_owned(),
            floor,
        });
        Ok(())
    }

    /// Creates an empty zone.
    pub fn create_zone(&mut self, zone: ZoneId, visibility: Visibility) -> Result<(), RuleError> {
        if self.state.player(zone.owner).is_none() {
            return Err(RuleError::UnknownPlayer { player: zone.owner });
        }
        if zone.name.is_empty() || zone.name.contains([':', '@']) {
            return Err(RuleError::step(
                "create_zone",
                format!(
                    "zone name `{}` must be non-empty and contain neither `:` nor `@`",
                    zone.name
                ),
            ));
        }
        if self.state.zones.contains_key(&zone) {
            return Err(RuleError::DuplicateZone {
                zone: zone.to_string(),
            });
        }
        Arc::make_mut(&mut self.state.zones).insert(
            zone.clone(),
            Zone {
                visibility,
                cards: Vec::new(),
            },
        );
        self.record(Event::ZoneCreated { zone, visibility });
        Ok(())
    }

    /// Creates a card at the bottom of a zone.
    pub fn create_card(
        &mut self,
        name: &str,
        owner: PlayerId,
        zone: &ZoneId,
    ) -> Result<CardId, RuleError> {
        if self.state.player(owner).is_none() {
            return Err(RuleError::UnknownPlayer { player: owner });
        }
        let id = CardId(next_id(self.state.cards.keys().map(|id| id.0)));
        let target = Arc::make_mut(&mut self.state.zones)
            .get_mut(zone)
            .ok_or_else(|| RuleError::UnknownZone {
                zone: zone.to_string(),
            })?;
        target.cards.push(id);
        Arc::make_mut(&mut self.state.cards).insert(
            id,
            Card {
                id,
                name: name.to_owned(),
                owner,
            },
        );
        self.record(Event::CardCreated {
            card: id,
            name: name.to_owned(),
            zone: zone.clone(),
        });
        Ok(id)
    }

    /// Moves a card to a zone, at `index` (clamped to the zone's length; 0 = top, `usize::MAX`
    /// = bottom).
    pub fn move_card(&mut self, card: CardId, to: &ZoneId, index: usize) -> Result<(), RuleError> {
        let name = self
            .state
            .cards
            .get(&card)
            .ok_or(RuleError::UnknownCard { card })?
            .name
            .clone();
        if !self.state.zones.contains_key(to) {
            return Err(RuleError::UnknownZone {
                zone: to.to_string(),
            });
        }
        let from = self
            .state
            .zone_of(card)
            .cloned()
            .ok_or(RuleError::UnknownCard { card })?;
        let zones = Arc::make_mut(&mut self.state.zones);
        if let Some(source) = zones.get_mut(&from) {
            source.cards.retain(|c| *c != card);
        }
        let target = zones.get_mut(to).ok_or_else(|| RuleError::UnknownZone {
            zone: to.to_string(),
        })?;
        let index = index.min(target.cards.len());
        target.cards.insert(index, card);
        self.record(Event::CardMoved {
            card,
            name,
            from,
            to: to.clone(),
            index,
        });
        Ok(())
    }

    /// Shuffles a zone with the game's RNG.
    pub fn shuffle(&mut self, zone: &ZoneId) -> Result<(), RuleError> {
        let state = &mut *self.state;
        let target = Arc::make_mut(&mut state.zones)
            .get_mut(zone)
            .ok_or_else(|| RuleError::UnknownZone {
                zone: zone.to_string(),
            })?;
        state.rng.shuffle(&mut target.cards);
        self.record(Event::Shuffled { zone: zone.clone() });
        Ok(())
    }

    /// Draws a number in `0..bound` from the game's RNG for a ruleset's own random pick.
    pub fn draw_number(&mut self, purpose: &str, bound: u32) -> Result<u32, RuleError> {
        let value = self.state.rng.below(bound);
        self.record(Event::Drew {
            purpose: purpose.to_owned(),
            bound,
            value,
        });
        Ok(value)
    }

    /// Applies a modifier and returns its id.
    pub fn add_modifier(&mut self, modifier: ModifierSpec) -> Result<ModifierId, RuleError> {
        let id = self.state.modifiers.add(modifier.clone())?;
        self.record(Event::ModifierAdded { id, modifier });
        Ok(id)
    }

    /// Removes a modifier before its duration ends.
    pub fn remove_modifier(&mut self, id: ModifierId) -> Result<(), RuleError> {
        self.state.modifiers.remove(id)?;
        self.record(Event::ModifierRemoved { id });
        Ok(())
    }

    /// Ends the game.
    pub fn end_game(&mut self, result: GameResult) -> Result<(), RuleError> {
        self.state.result = Some(result.clone());
        Arc::make_mut(&mut self.state.flow).clear();
        self.state.pending = None;
        self.record(Event::GameEnded { result });
        Ok(())
    }

    /// Loads the next dice of kind `die`: the next ones rolled or re-rolled show `faces`, in
    /// order, instead of drawing from the RNG (after any faces loaded before). For scenario
    /// tests, tutorials and puzzles; a face the die lacks is an error when the die is rolled.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Dice, DieDef, DieFace, GameState, Pool};
    /// # use gloam_core::*;
    /// # fn demo(ctx: &mut Ctx<'_>, dice: &Dice) -> Result<(), RuleError> {
    /// ctx.fix_dice("attack", &["critical", "hammer"]);
    /// let roll = ctx.roll(None, "attack", dice, &Pool::of("attack", 3))?;
    /// assert_eq!(roll.dice()[0].face, "critical");
    /// assert_eq!(roll.dice()[1].face, "hammer");
    /// # Ok(()) }
    /// ```
    pub fn fix_dice(&mut self, die: &str, faces: &[&str]) {
        for face in faces {
            self.state
                .fixed_faces
                .push((die.to_owned(), (*face).to_owned()));
        }
        self.record(Event::DiceFixed {
            die: die.to_owned(),
            faces: faces.iter().map(|f| (*f).to_owned()).collect(),
        });
    }

    /// Rolls a pool of dice with the game's RNG and records the roll.
    pub fn roll(
        &mut self,
        player: Option<PlayerId>,
        purpose: &str,
        dice: &crate::Dice,
        pool: &crate::Pool,
    ) -> Result<crate::Roll, RuleError> {
        let roll = match self.next_outcome(player, purpose, dice, pool)? {
            Some(outcome) => dice.roll_outcome(pool, &outcome)?,
            None => dice.roll_loaded(pool, &mut self.state.rng, &mut self.state.fixed_faces)?,
        };
        self.record(Event::Rolled {
            player,
            purpose: purpose.to_owned(),
            dice: roll
                .dice()
                .iter()
                .map(|d| DieResult {
                    die: d.die.clone(),
                    face: d.face.clone(),
                })
                .collect(),
        });
        Ok(roll)
    }

    /// Re-rolls one die of `roll` and records it; a die already re-rolled is refused and
    /// nothing changes.
    pub fn reroll(
        &mut self,
        purpose: &str,
        roll: &mut crate::Roll,
        index: usize,
    ) -> Result<(), RuleError> {
        let before = roll.dice().get(index).map(|d| DieResult {
            die: d.die.clone(),
            face: d.face.clone(),
        });
        let chance = match (&self.state.chance, roll.dice().get(index)) {
            (Some(_), Some(die)) => {
                let def =
                    roll.kind(&die.die)
                        .cloned()
                        .ok_or_else(|| crate::DiceError::UnknownDie {
                            die: die.die.clone(),
                            known: String::new(),
                        })?;
                let pool = crate::Pool::of(def.name(), 1);
                let dice = crate::Dice::from_defs([def])?;
                self.next_outcome(None, purpose, &dice, &pool)?
                    .map(|outcome| (outcome, dice, pool))
            }
            _ => None,
        };
        let after = match chance {
            Some((outcome, dice, pool)) => {
                let face = dice.roll_outcome(&pool, &outcome)?.dice()[0].face.clone();
                let mut loaded = vec![(pool.entries()[0].die.clone(), face)];
                roll.reroll_loaded(index, &mut self.state.rng, &mut loaded)?
            }
            None => roll.reroll_loaded(index, &mut self.state.rng, &mut self.state.fixed_faces)?,
        };
        let after = DieResult {
            die: after.die.clone(),
            face: after.face.clone(),
        };
        if let Some(before) = before {
            self.record(Event::Rerolled {
                purpose: purpose.to_owned(),
                index,
                before,
                after,
            });
        }
        Ok(())
    }

    /// In chance mode, the next queued outcome for this roll (checked against the pool),
    /// or [`RuleError::ChanceNeeded`] when none is queued; `None` outside chance mode.
    fn next_outcome(
        &mut self,
        player: Option<PlayerId>,
        purpose: &str,
        dice: &crate::Dice,
        pool: &crate::Pool,
    ) -> Result<Option<crate::ChanceOutcome>, RuleError> {
        let Some(chance) = self.state.chance.as_mut() else {
            return Ok(None);
        };
        if chance.queued.is_empty() {
            let used = crate::Dice::from_defs(
                pool.entries()
                    .iter()
                    .filter_map(|entry| dice.get(&entry.die))
                    .fold(Vec::<crate::DieDef>::new(), |mut defs, def| {
                        if !defs.iter().any(|d| d.name() == def.name()) {
                            defs.push(def.clone());
                        }
                        defs
                    }),
            )?;
            // Checks the pool (known dice, size) before anyone is asked about it.
            used.outcomes(pool)?;
            return Err(RuleError::ChanceNeeded(Box::new(ChanceRequest {
                player,
                purpose: purpose.to_owned(),
                pool: pool.clone(),
                dice: used,
            })));
        }
        Ok(Some(chance.queued.remove(0)))
    }

    /// Rolls a dice expression (`2D6+1`) and records each die.
    pub fn roll_expr(
        &mut self,
        player: Option<PlayerId>,
        purpose: &str,
        expr: &crate::DiceExpr,
    ) -> Result<crate::ExprRoll, RuleError> {
        if self.state.chance.is_some() && !expr.is_fixed() {
            return Err(RuleError::step(
                purpose,
                format!(
                    "the dice expression `{expr}` cannot be rolled in chance mode yet: only pools of named dice are chance nodes"
                ),
            ));
        }
        let roll = expr.roll(&mut self.state.rng);
        self.record(Event::Rolled {
            player,
            purpose: purpose.to_owned(),
            dice: roll
                .dice()
                .iter()
                .map(|d| DieResult {
                    die: expr.to_string(),
                    face: d.value.to_string(),
                })
                .collect(),
        });
        Ok(roll)
    }
}

/// A game in progress: the state, its event log, its record, and the rules that drive it.
///
/// # Examples
///
/// ```
/// use gloam_core::{Control, Ctx, Frame, Game, GameResult, PlayerId, RuleError, Rules, Setup};
///
/// /// A one-step game: the first player says who wins.
/// struct Kingmaker;
/// impl Rules for Kingmaker {
///     fn start(&self, ctx: &mut Ctx<'_>, _setup: &Setup) -> Result<(), RuleError> {
///         Ok(())
///     }
///     fn step(&self, _ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
///         use gloam_core::{Answer, Choice, Options, Request};
///         match frame.answers.first() {
///             None => Ok(Control::Ask(Request {
///                 player: PlayerId(0),
///                 kind: "crown".into(),
///                 prompt: "Who wins?".into(),
///                 options: Options::One { choices: vec![Choice::Number(0), Choice::Number(1)] },
///                 secret: false,
///             })),
///             Some(Answer::One(Choice::Number(n))) => Ok(Control::End(GameResult {
///                 winners: vec![PlayerId(*n as u8)],
///                 reason: "crowned".into(),
///             })),
///             Some(_) => Err(RuleError::step("crown", "unexpected answer")),
///         }
///     }
/// }
///
/// let mut game = Game::start(Kingmaker, Setup::new(1, &["Ann", "Bo"]), vec![Frame::new("crown")])?;
/// use gloam_core::{Answer, Choice};
/// assert!(game.submit(PlayerId(0), Answer::One(Choice::Number(5))).is_err());
/// game.submit(PlayerId(0), Answer::One(Choice::Number(1)))?;
/// assert_eq!(game.state().result.as_ref().unwrap().winners, vec![PlayerId(1)]);
/// # Ok::<(), gloam_core::GameError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game<R> {
    rules: R,
    state: GameState,
    log: Vec<Event>,
    record: Record,
    max_steps: u64,
}

/// The default number of rule steps allowed between two decisions.
pub const DEFAULT_MAX_STEPS: u64 = 1_000_000;

impl<R: Rules> Game<R> {
    /// Starts a game: runs the ruleset's set-up, then the flow until the first decision.
    pub fn start(rules: R, setup: Setup, first: Vec<Frame>) -> Result<Game<R>, GameError> {
        let names: Vec<&str> = setup.players.iter().map(String::as_str).collect();
        let state = GameState::new(setup.seed, &names);
        let mut game = Game {
            rules,
            state,
            log: Vec::new(),
            record: Record {
                setup: setup.clone(),
                answers: Vec::new(),
            },
            max_steps: DEFAULT_MAX_STEPS,
        };
        {
            let mut ctx = Ctx::new(&mut game.state, &mut game.log);
            game.rules.start(&mut ctx, &setup)?;
        }
        Arc::make_mut(&mut game.state.flow).extend(first.into_iter().rev().map(Arc::new));
        game.run()?;
        Ok(game)
    }

    /// Resumes a saved game (a state and log written by [`Game::state`] and
    /// [`Game::events`], with its record).
    pub fn resume(rules: R, state: GameState, log: Vec<Event>, record: Record) -> Game<R> {
        Game {
            rules,
            state,
            log,
            record,
            max_steps: DEFAULT_MAX_STEPS,
        }
    }

    /// Replays a record from its setup and answers, returning the game it leads to.
    pub fn replay(rules: R, record: &Record, first: Vec<Frame>) -> Result<Game<R>, GameError> {
        let mut game = Game::start(rules, record.setup.clone(), first)?;
        for (player, answer) in &record.answers {
            game.submit(*player, answer.clone())?;
        }
        Ok(game)
    }

    /// Sets how many rule steps may run between two decisions before the game reports a
    /// runaway rule.
    pub fn set_max_steps(&mut self, max_steps: u64) {
        self.max_steps = max_steps;
    }

    /// The state.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The rules.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The whole event log.
    pub fn events(&self) -> &[Event] {
        &self.log
    }

    /// The setup and answers so far.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.state.result.is_some()
    }

    /// The requests still waiting for an answer (empty once the game is over).
    pub fn pending(&self) -> Vec<&Request> {
        match &self.state.pending {
            Some(pending) => pending
                .requests
                .iter()
                .zip(&pending.answers)
                .filter(|(_, answer)| answer.is_none())
                .map(|(request, _)| request)
                .collect(),
            None => Vec::new(),
        }
    }

    /// The request waiting on `player`, if any.
    pub fn pending_for(&self, player: PlayerId) -> Option<&Request> {
        self.pending().into_iter().find(|r| r.player == player)
    }

    /// Turns chance mode on or off. In chance mode every roll of a pool (and every re-roll)
    /// is a chance node: the run stops before the roll, [`Game::chance_pending`] names it,
    /// [`Game::chance_outcomes`] gives the exact distribution of its outcomes, and
    /// [`Game::apply_chance`] continues the game with the outcome a host or a search chose
    /// (typically on a clone per outcome). Off (the default), dice are rolled with the
    /// seeded RNG and nothing changes. The record does not hold chance outcomes, so a game
    /// played in chance mode is not replayed from its record.
    ///
    /// Turning it off while a roll waits rolls it with the RNG.
    pub fn set_chance_mode(&mut self, on: bool) -> Result<(), GameError> {
        if on {
            if self.state.chance.is_none() {
                self.state.chance = Some(ChanceMode::default());
            }
            return Ok(());
        }
        if self.state.chance.take().is_some() {
            let before_len = self.log.len();
            let snapshot = self.state.clone();
            if let Err(error) = self.run() {
                self.state = snapshot;
                self.log.truncate(before_len);
                return Err(error.into());
            }
        }
        Ok(())
    }

    /// Whether chance mode is on.
    pub fn chance_mode(&self) -> bool {
        self.state.chance.is_some()
    }

    /// The roll waiting for a chance outcome, if any (only in chance mode). While one
    /// waits, no player decision is pending.
    pub fn chance_pending(&self) -> Option<&ChanceRequest> {
        self.state.chance.as_ref()?.pending.as_ref()
    }

    /// The exact distribution of the outcomes of the roll waiting: each outcome pooled by
    /// face, with its chance; empty when no roll waits.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::*;
    ///
    /// /// A game that flips two coins and ends with the number of heads as the winner's seat.
    /// #[derive(Clone)]
    /// struct Flip(Dice);
    /// impl Rules for Flip {
    ///     fn start(&self, _ctx: &mut Ctx<'_>, _setup: &Setup) -> Result<(), RuleError> { Ok(()) }
    ///     fn step(&self, ctx: &mut Ctx<'_>, _frame: &mut Frame) -> Result<Control, RuleError> {
    ///         let roll = ctx.roll(None, "flip", &self.0, &Pool::of("coin", 2))?;
    ///         let heads = roll.count(&["heads"]) as u8;
    ///         Ok(Control::End(GameResult { winners: vec![PlayerId(heads)], reason: "flip".into() }))
    ///     }
    /// }
    /// let coin = DieDef::new("coin", vec![DieFace::new("heads", 1), DieFace::new("tails", 1)])?;
    /// let rules = Flip(Dice::from_defs([coin])?);
    /// let mut game = Game::start(rules, Setup::new(1, &["A", "B", "C"]), vec![])?;
    /// game.set_chance_mode(true)?;
    /// game.push_frame(Frame::new("flip"))?;
    /// let outcomes = game.chance_outcomes()?;
    /// assert_eq!(outcomes.len(), 3);
    /// assert_eq!(outcomes[0].1, Ratio::new(1, 4)?);
    /// let mut branch = game.clone();
    /// branch.apply_chance(&outcomes[0].0)?; // two heads
    /// assert_eq!(branch.state().result.as_ref().unwrap().winners, vec![PlayerId(2)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn chance_outcomes(&self) -> Result<Vec<(crate::ChanceOutcome, crate::Ratio)>, GameError> {
        match self.chance_pending() {
            Some(request) => Ok(request.outcomes()?),
            None => Ok(Vec::new()),
        }
    }

    /// Gives the roll waiting the outcome `outcome` and runs the game on to the next
    /// decision or chance node. Returns the events that followed. An outcome that does not
    /// fit the roll (see [`crate::Dice::roll_outcome`]), or no roll waiting, is an error,
    /// and then the game is exactly as it was.
    pub fn apply_chance(&mut self, outcome: &crate::ChanceOutcome) -> Result<&[Event], GameError> {
        let request = self.chance_pending().ok_or(GameError::NoChancePending)?;
        request
            .dice
            .roll_outcome(&request.pool, outcome)
            .map_err(RuleError::from)?;
        let before_len = self.log.len();
        let snapshot = self.state.clone();
        if let Some(chance) = self.state.chance.as_mut() {
            chance.pending = None;
            chance.queued.push(outcome.clone());
        }
        match self.run() {
            Ok(()) => Ok(&self.log[before_len..]),
            Err(error) => {
                self.state = snapshot;
                self.log.truncate(before_len);
                Err(error.into())
            }
        }
    }

    /// Puts `frame` on top of the flow and runs the game on to the next decision or chance
    /// node: for hosts that stage a situation (an attack, a puzzle) in a game between
    /// decisions. Refused while a decision or a chance is pending; on an error the game is
    /// exactly as it was.
    pub fn push_frame(&mut self, frame: Frame) -> Result<&[Event], GameError> {
        if self.state.pending.is_some() || self.chance_pending().is_some() {
            return Err(GameError::Waiting);
        }
        let before_len = self.log.len();
        let snapshot = self.state.clone();
        Arc::make_mut(&mut self.state.flow).push(Arc::new(frame));
        match self.run() {
            Ok(()) => Ok(&self.log[before_len..]),
            Err(error) => {
                self.state = snapshot;
                self.log.truncate(before_len);
                Err(error.into())
            }
        }
    }

    /// Answers the pending request of `player`. Returns the events that followed. On any
    /// error the game is exactly as it was before the call.
    pub fn submit(&mut self, player: PlayerId, answer: Answer) -> Result<&[Event], GameError> {
        let before_len = self.log.len();
        let answers_len = self.record.answers.len();
        let snapshot = self.state.clone();
        match self.submit_inner(player, answer) {
            Ok(()) => Ok(&self.log[before_len..]),
            Err(error) => {
                self.state = snapshot;
                self.log.truncate(before_len);
                self.record.answers.truncate(answers_len);
                Err(error)
            }
        }
    }

    fn submit_inner(&mut self, player: PlayerId, answer: Answer) -> Result<(), GameError> {
        let pending = self
            .state
            .pending
            .as_mut()
            .ok_or(DecisionError::NothingPending)?;
        let waiting: Vec<usize> = (0..pending.requests.len())
            .filter(|&i| pending.answers[i].is_none())
            .collect();
        let Some(&index) = waiting
            .iter()
            .find(|&&i| pending.requests[i].player == player)
        else {
            if pending
                .requests
                .iter()
                .any(|request| request.player == player)
            {
                return Err(DecisionError::AlreadyAnswered { player }.into());
            }
            let waiting_on = waiting
                .iter()
                .map(|&i| pending.requests[i].player.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            return Err(DecisionError::NotYourDecision { player, waiting_on }.into());
        };
        let request = &pending.requests[index];
        request.check(&answer)?;
        let kind = request.kind.clone();
        let secret = request.secret;
        pending.answers[index] = Some(answer.clone());
        let complete = pending.answers.iter().all(Option::is_some);
        self.record.answers.push((player, answer.clone()));
        if secret {
            self.log.push(Event::DecidedHidden { player, kind });
        } else {
            self.log.push(Event::Decided {
                player,
                kind,
                answer,
            });
        }
        if complete {
            let pending = self.state.pending.take().unwrap_or_default();
            let any_secret = pending.requests.iter().any(|r| r.secret);
            let answers: Vec<(PlayerId, Answer)> = pending
                .requests
                .iter()
                .zip(pending.answers)
                .filter_map(|(request, answer)| answer.map(|a| (request.player, a)))
                .collect();
            if any_secret {
                self.log.push(Event::Revealed {
                    answers: answers.clone(),
                });
            }
            let frame = Arc::make_mut(&mut self.state.flow)
                .last_mut()
                .ok_or(DecisionError::NothingPending)?;
            Arc::make_mut(frame)
                .answers
                .extend(answers.into_iter().map(|(_, a)| a));
            self.run()?;
        }
        Ok(())
    }

    /// Runs the flow until a decision is needed or the game ends.
    fn run(&mut self) -> Result<(), RuleError> {
        let mut steps: u64 = 0;
        while self.state.pending.is_none()
            && self.state.result.is_none()
            && self.chance_pending().is_none()
        {
            let Some(mut frame) = Arc::make_mut(&mut self.state.flow).pop() else {
                break;
            };
            steps += 1;
            if steps > self.max_steps {
                return Err(RuleError::Runaway { steps });
            }
            // In chance mode a step that reaches a roll without an outcome is undone and
            // kept, to run again once the host has chosen one.
            let before = self
                .state
                .chance
                .is_some()
                .then(|| (self.state.clone(), frame.clone(), self.log.len()));
            let control = {
                let mut ctx = Ctx::new(&mut self.state, &mut self.log);
                self.rules.step(&mut ctx, Arc::make_mut(&mut frame))
            };
            let control = match (control, before) {
                (Err(RuleError::ChanceNeeded(request)), Some((state, frame, log_len))) => {
                    self.state = state;
                    self.log.truncate(log_len);
                    Arc::make_mut(&mut self.state.flow).push(frame);
                    if let Some(chance) = self.state.chance.as_mut() {
                        chance.pending = Some(*request);
                    }
                    break;
                }
                (control, _) => control?,
            };
            match control {
                Control::Continue => Arc::make_mut(&mut self.state.flow).push(frame),
                Control::Done => {}
                Control::Push(frames) => {
                    Arc::make_mut(&mut self.state.flow).push(frame);
                    Arc::make_mut(&mut self.state.flow)
                        .extend(frames.into_iter().rev().map(Arc::new));
                }
                Control::Replace(frames) => Arc::make_mut(&mut self.state.flow)
                    .extend(frames.into_iter().rev().map(Arc::new)),
                Control::Ask(request) => {
                    Arc::make_mut(&mut self.state.flow).push(frame);
                    self.ask(vec![request])?;
                }
                Control::AskAll(requests) => {
                    Arc::make_mut(&mut self.state.flow).push(frame);
                    self.ask(requests)?;
                }
                Control::End(result) => {
                    let mut ctx = Ctx::new(&mut self.state, &mut self.log);
                    ctx.end_game(result)?;
                }
            }
        }
        Ok(())
    }

    fn ask(&mut self, requests: Vec<Request>) -> Result<(), RuleError> {
        for request in &requests {
            if self.state.player(request.player).is_none() {
                return Err(RuleError::UnknownPlayer {
                    player: request.player,
                });
            }
            let empty = match &request.options {
                // The `AnyPoint` marker alone lists no answer an agent could pick.
                crate::Options::One { choices } => choices
                    .iter()
                    .all(|choice| *choice == crate::Choice::AnyPoint),
                crate::Options::Several { choices, min, max } => {
                    min > max || (*min as usize) > choices.len()
                }
                crate::Options::Order { .. } => false,
            };
            if empty {
                return Err(RuleError::EmptyRequest {
                    kind: request.kind.clone(),
                    player: request.player,
                });
            }
        }
        if requests.is_empty() {
            return Ok(());
        }
        self.state.pending = Some(Pending {
            answers: vec![None; requests.len()],
            requests,
        });
        Ok(())
    }

    /// The events as `viewer` may see them.
    pub fn events_for(&self, viewer: PlayerId) -> Vec<Event> {
        let visibility = |zone: &ZoneId| {
            self.state
                .zones
                .get(zone)
                .map_or(Visibility::Nobody, |z| z.visibility)
        };
        self.log
            .iter()
            .map(|event| event.redacted_for(viewer, visibility))
            .collect()
    }

    /// What `viewer` may see of the game now.
    pub fn view(&self, viewer: PlayerId) -> crate::PlayerView {
        crate::PlayerView::new(&self.state, viewer)
    }
}
