//! Characteristic modifiers with durations.
//!
//! A [`Modifier`] changes one characteristic (an open name chosen by the ruleset:
//! `"move"`, `"wounds"`, `"defence_dice"`) of one [`ModTarget`] by one [`ModOp`], and
//! lasts for a [`Duration`]. The [`Modifiers`] store keeps them, answers characteristic
//! queries and ends durations when the ruleset reports events, so a ruleset keeps no
//! bookkeeping of its own.
//!
//! A query ([`Modifiers::value`]) applies the rulebooks' order (Harrowdeep, modifiers;
//! Embergard, modifiers; digest §3.25, §4.15, H25):
//!
//! 1. the modifiers that reach the query are those of the [`ModScope`] (global, the owning
//!    player's, the piece's) for that characteristic;
//! 2. among modifiers sharing a stacking key only the most recent applies;
//! 3. set modifiers first: the most recent set wins, the base value otherwise;
//! 4. multiply and divide, in creation order;
//! 5. add and subtract, in creation order;
//! 6. the floor, then the cap, both given by the caller (the ruleset declares them).
//!
//! Modifier ids are allocated by the store in strictly increasing order and never
//! reused, so an id is also the modifier's creation sequence number: "most recent" means
//! "highest id". The kernel attaches no meaning to characteristic or event names.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::ids::{ModifierId, PieceId, PlayerId};

/// Why a modifier could not be added, found or loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ModifierError {
    /// No modifier with this id is in the store.
    #[error("no modifier with id {id}")]
    UnknownModifier {
        /// The id asked for.
        id: ModifierId,
    },
    /// A division by zero or by a negative number.
    #[error("cannot divide by {divisor}: a divisor must be at least 1")]
    InvalidDivisor {
        /// The divisor given.
        divisor: i64,
    },
    /// A multiplication by a negative number.
    #[error("cannot multiply by {factor}: a factor must not be negative")]
    NegativeFactor {
        /// The factor given.
        factor: i64,
    },
    /// The characteristic name is empty.
    #[error("a modifier needs a characteristic name")]
    EmptyCharacteristic,
    /// A duration ending that counts zero occurrences or uses.
    #[error("duration ending {index} counts zero occurrences or uses")]
    ZeroEnding {
        /// Position of the ending in the duration.
        index: usize,
    },
    /// A duration ending that waits for an event without a name.
    #[error("duration ending {index} waits for an event with no name")]
    EmptyEventName {
        /// Position of the ending in the duration.
        index: usize,
    },
    /// Every modifier id has been used.
    #[error("no modifier ids left")]
    IdsExhausted,
    /// Two stored modifiers with the same id.
    #[error("modifier id {id} appears twice")]
    DuplicateId {
        /// The repeated id.
        id: ModifierId,
    },
    /// A stored modifier whose id is not below the store's next id.
    #[error("modifier id {id} is not below the next id {next_id}")]
    IdAheadOfCounter {
        /// The stored id.
        id: ModifierId,
        /// The store's next id.
        next_id: u32,
    },
}

/// What a modifier applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ModTarget {
    /// One piece.
    Piece(PieceId),
    /// Every piece of a player, and the player's own characteristics.
    Player(PlayerId),
    /// Everything.
    Global,
}

/// A subject of a game event: the piece or player the event is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum EventSubject {
    /// A piece.
    Piece(PieceId),
    /// A player.
    Player(PlayerId),
}

impl From<PieceId> for EventSubject {
    fn from(piece_id: PieceId) -> EventSubject {
        EventSubject::Piece(piece_id)
    }
}

impl From<PlayerId> for EventSubject {
    fn from(player_id: PlayerId) -> EventSubject {
        EventSubject::Player(player_id)
    }
}

/// The operation of a modifier.
///
/// Factors are never negative and divisors are at least 1 ([`Modifiers::add`] refuses
/// others): characteristics are counts, the rules halve and double them, and a negative
/// factor would flip a value past its floor. Arithmetic saturates at the bounds of `i64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ModOp {
    /// Replace the value (applied first; the most recent set wins).
    Set(i64),
    /// Multiply by a factor of 0 or more.
    Multiply(i64),
    /// Divide by a divisor of 1 or more, rounding down.
    Divide(i64),
    /// Divide by a divisor of 1 or more, rounding up.
    DivideRoundUp(i64),
    /// Add (a negative amount subtracts).
    Add(i64),
}

impl ModOp {
    /// Checks the factor or divisor.
    fn validate(self) -> Result<(), ModifierError> {
        match self {
            ModOp::Multiply(factor) if factor < 0 => Err(ModifierError::NegativeFactor { factor }),
            ModOp::Divide(divisor) | ModOp::DivideRoundUp(divisor) if divisor < 1 => {
                Err(ModifierError::InvalidDivisor { divisor })
            }
            _ => Ok(()),
        }
    }

    /// The operation applied to `value`; a set ignores it.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::ModOp;
    /// assert_eq!(ModOp::Divide(2).apply(5), 2);
    /// assert_eq!(ModOp::DivideRoundUp(2).apply(5), 3);
    /// assert_eq!(ModOp::Add(-2).apply(5), 3);
    /// ```
    pub fn apply(self, value: i64) -> i64 {
        match self {
            ModOp::Set(new_value) => new_value,
            ModOp::Multiply(factor) => value.saturating_mul(factor),
            ModOp::Divide(divisor) if divisor >= 1 => value.div_euclid(divisor),
            ModOp::DivideRoundUp(divisor) if divisor >= 1 => {
                value.div_euclid(divisor) + i64::from(value.rem_euclid(divisor) != 0)
            }
            // Refused by `validate`; left unchanged rather than panicking.
            ModOp::Divide(_) | ModOp::DivideRoundUp(_) => value,
            ModOp::Add(amount) => value.saturating_add(amount),
        }
    }
}

impl fmt::Display for ModOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModOp::Set(value) => write!(f, "={value}"),
            ModOp::Multiply(factor) => write!(f, "x{factor}"),
            ModOp::Divide(divisor) => write!(f, "/{divisor}"),
            ModOp::DivideRoundUp(divisor) => write!(f, "/{divisor} rounding up"),
            ModOp::Add(amount) if *amount < 0 => write!(f, "{amount}"),
            ModOp::Add(amount) => write!(f, "+{amount}"),
        }
    }
}

/// An event that happened, as the ruleset reports it to [`Modifiers::notify`].
///
/// # Examples
///
/// ```
/// use gloam_core::{Occurrence, PieceId, PlayerId};
/// let activation = Occurrence::new("activation")
///     .about(PieceId(3))
///     .about(PlayerId(1));
/// assert_eq!(activation.subjects.len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Occurrence {
    /// The event's name, chosen by the ruleset (`"phase_end"`, `"attack_resolved"`).
    pub name: String,
    /// What the event is about: a piece's activation is about the piece and its owner.
    pub subjects: Vec<EventSubject>,
}

impl Occurrence {
    /// An event about nothing in particular.
    pub fn new(name: impl Into<String>) -> Occurrence {
        Occurrence {
            name: name.into(),
            subjects: Vec::new(),
        }
    }

    /// The same event, also about `subject`.
    pub fn about(mut self, subject: impl Into<EventSubject>) -> Occurrence {
        self.subjects.push(subject.into());
        self
    }
}

/// Which events a duration waits for: a name, and optionally a subject.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventMatch {
    /// The event's name.
    pub name: String,
    /// When set, only events about this subject count.
    pub subject: Option<EventSubject>,
}

impl EventMatch {
    /// Every event with this name.
    pub fn named(name: impl Into<String>) -> EventMatch {
        EventMatch {
            name: name.into(),
            subject: None,
        }
    }

    /// Events with this name about `subject`.
    pub fn about(name: impl Into<String>, subject: impl Into<EventSubject>) -> EventMatch {
        EventMatch {
            name: name.into(),
            subject: Some(subject.into()),
        }
    }

    /// Whether `occurrence` is one of the events this waits for.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{EventMatch, Occurrence, PieceId};
    /// let next_activation = EventMatch::about("activation", PieceId(3));
    /// assert!(next_activation.matches(&Occurrence::new("activation").about(PieceId(3))));
    /// assert!(!next_activation.matches(&Occurrence::new("activation").about(PieceId(4))));
    /// ```
    pub fn matches(&self, occurrence: &Occurrence) -> bool {
        self.name == occurrence.name
            && self
                .subject
                .is_none_or(|subject| occurrence.subjects.contains(&subject))
    }
}

/// One way a duration can end; see [`Duration`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Ending {
    /// Ends when the matching event has happened `remaining` more times.
    Event {
        /// The events counted.
        event: EventMatch,
        /// Occurrences still to come.
        remaining: u32,
    },
    /// Ends after `remaining` more uses, each reported by [`Modifiers::consume`].
    Uses {
        /// Uses left.
        remaining: u32,
    },
}

impl Ending {
    fn remaining(&self) -> u32 {
        match self {
            Ending::Event { remaining, .. } | Ending::Uses { remaining } => *remaining,
        }
    }
}

/// How long a modifier lasts: permanent, or until the first of its endings is reached.
///
/// Several endings model effects that name several end events, which last until the
/// first of them (Embergard, persisting; digest §4.15): "the next attack this phase" is
/// `Duration::uses(1).or(Duration::until("phase_end", 1))`.
///
/// # Examples
///
/// ```
/// use gloam_core::{Duration, PieceId};
/// let guard = Duration::until("phase_end", 1);
/// let until_next_activation = Duration::until_for("activation", PieceId(2), 1);
/// let next_attack_this_round = Duration::uses(1).or(Duration::until("round_end", 1));
/// assert!(Duration::permanent().is_permanent());
/// assert_eq!(next_attack_this_round.endings().len(), 2);
/// # let _ = (guard, until_next_activation);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duration {
    endings: Vec<Ending>,
}

impl Duration {
    /// Lasts until removed.
    pub fn permanent() -> Duration {
        Duration::default()
    }

    /// Ends when the event `name` has happened `occurrences` times.
    pub fn until(name: impl Into<String>, occurrences: u32) -> Duration {
        Duration::until_match(EventMatch::named(name), occurrences)
    }

    /// Ends when the event `name` about `subject` has happened `occurrences` times.
    pub fn until_for(
        name: impl Into<String>,
        subject: impl Into<EventSubject>,
        occurrences: u32,
    ) -> Duration {
        Duration::until_match(EventMatch::about(name, subject), occurrences)
    }

    /// Ends when an event matching `event` has happened `occurrences` times.
    pub fn until_match(event: EventMatch, occurrences: u32) -> Duration {
        Duration {
            endings: vec![Ending::Event {
                event,
                remaining: occurrences,
            }],
        }
    }

    /// Ends after `uses` uses reported by [`Modifiers::consume`].
    pub fn uses(uses: u32) -> Duration {
        Duration {
            endings: vec![Ending::Uses { remaining: uses }],
        }
    }

    /// Ends at whichever comes first of `self` and `other`.
    pub fn or(mut self, other: Duration) -> Duration {
        self.endings.extend(other.endings);
        self
    }

    /// Whether it never ends on its own.
    pub fn is_permanent(&self) -> bool {
        self.endings.is_empty()
    }

    /// The endings, with what remains of their counts.
    pub fn endings(&self) -> &[Ending] {
        &self.endings
    }

    fn validate(&self) -> Result<(), ModifierError> {
        for (index, ending) in self.endings.iter().enumerate() {
            if ending.remaining() == 0 {
                return Err(ModifierError::ZeroEnding { index });
            }
            if matches!(ending, Ending::Event { event, .. } if event.name.is_empty()) {
                return Err(ModifierError::EmptyEventName { index });
            }
        }
        Ok(())
    }

    fn is_over(&self) -> bool {
        self.endings.iter().any(|ending| ending.remaining() == 0)
    }

    /// Counts one occurrence; returns whether it mattered.
    fn notify(&mut self, occurrence: &Occurrence) -> bool {
        let mut counted = false;
        for ending in &mut self.endings {
            if let Ending::Event { event, remaining } = ending {
                if event.matches(occurrence) {
                    *remaining = remaining.saturating_sub(1);
                    counted = true;
                }
            }
        }
        counted
    }

    /// Counts one use; returns whether the duration counts uses.
    /// Whether `occurrence` counts against one of its endings ([`Duration::notify`] would
    /// change it).
    fn waits_for(&self, occurrence: &Occurrence) -> bool {
        self.endings.iter().any(
            |ending| matches!(ending, Ending::Event { event, .. } if event.matches(occurrence)),
        )
    }

    /// Whether it counts uses ([`Duration::consume`] would change it).
    fn counts_uses(&self) -> bool {
        self.endings
            .iter()
            .any(|ending| matches!(ending, Ending::Uses { .. }))
    }

    fn consume(&mut self) -> bool {
        let mut counted = false;
        for ending in &mut self.endings {
            if let Ending::Uses { remaining } = ending {
                *remaining = remaining.saturating_sub(1);
                counted = true;
            }
        }
        counted
    }
}

/// A modifier to be added: everything but the id, which the store allocates.
///
/// # Examples
///
/// ```
/// use gloam_core::{Duration, ModOp, ModTarget, ModifierSpec, PieceId};
/// let spec = ModifierSpec::new(ModTarget::Piece(PieceId(1)), "move", ModOp::Add(1))
///     .source("Sprint")
///     .stacking_key("sprint")
///     .lasting(Duration::until("phase_end", 1));
/// assert_eq!(spec.characteristic, "move");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModifierSpec {
    /// What it applies to.
    pub target: ModTarget,
    /// The characteristic's name, compared exactly.
    pub characteristic: String,
    /// The operation.
    pub op: ModOp,
    /// The card or ability it comes from, for explanations.
    pub source: String,
    /// Modifiers sharing a non-empty key do not stack: only the most recent applies.
    pub stacking_key: Option<String>,
    /// How long it lasts.
    pub duration: Duration,
}

impl ModifierSpec {
    /// A permanent modifier with no source label and no stacking key.
    pub fn new(target: ModTarget, characteristic: impl Into<String>, op: ModOp) -> ModifierSpec {
        ModifierSpec {
            target,
            characteristic: characteristic.into(),
            op,
            source: String::new(),
            stacking_key: None,
            duration: Duration::permanent(),
        }
    }

    /// Sets the source label (a card or ability name).
    pub fn source(mut self, source: impl Into<String>) -> ModifierSpec {
        self.source = source.into();
        self
    }

    /// Sets the stacking key; an empty key means the modifier stacks.
    pub fn stacking_key(mut self, key: impl Into<String>) -> ModifierSpec {
        let key = key.into();
        self.stacking_key = (!key.is_empty()).then_some(key);
        self
    }

    /// Sets the duration.
    pub fn lasting(mut self, duration: Duration) -> ModifierSpec {
        self.duration = duration;
        self
    }

    fn validate(&self) -> Result<(), ModifierError> {
        if self.characteristic.is_empty() {
            return Err(ModifierError::EmptyCharacteristic);
        }
        self.op.validate()?;
        self.duration.validate()
    }
}

/// A modifier in the store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    id: ModifierId,
    spec: ModifierSpec,
}

impl Modifier {
    /// Its id, which is also its creation sequence number.
    pub fn id(&self) -> ModifierId {
        self.id
    }

    /// What it applies to.
    pub fn target(&self) -> ModTarget {
        self.spec.target
    }

    /// The characteristic it changes.
    pub fn characteristic(&self) -> &str {
        &self.spec.characteristic
    }

    /// Its operation.
    pub fn op(&self) -> ModOp {
        self.spec.op
    }

    /// Whether it reaches a query of `characteristic` in `scope` (superseded or not).
    fn reaches(&self, scope: ModScope, characteristic: &str) -> bool {
        scope.covers(self.target()) && self.characteristic() == characteristic
    }

    /// The card or ability it comes from.
    pub fn source(&self) -> &str {
        &self.spec.source
    }

    /// Its stacking key, if it does not stack with others sharing the key.
    pub fn stacking_key(&self) -> Option<&str> {
        self.spec.stacking_key.as_deref()
    }

    /// Its duration, with what remains of the counts.
    pub fn duration(&self) -> &Duration {
        &self.spec.duration
    }

    fn validate(&self) -> Result<(), ModifierError> {
        self.spec.validate()
    }
}

/// The targets a characteristic query considers: always [`ModTarget::Global`], plus a
/// player and a piece when given.
///
/// A query about a piece owned by player P considers the global modifiers, P's and the
/// piece's, all ordered together by creation within each class of operation.
///
/// # Examples
///
/// ```
/// use gloam_core::{ModTarget, PieceId, PlayerId, ModScope};
/// let scope = ModScope::piece(PieceId(4)).owned_by(PlayerId(1));
/// assert!(scope.covers(ModTarget::Global));
/// assert!(scope.covers(ModTarget::Player(PlayerId(1))));
/// assert!(!scope.covers(ModTarget::Piece(PieceId(5))));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ModScope {
    piece: Option<PieceId>,
    player: Option<PlayerId>,
}

impl ModScope {
    /// Global modifiers only.
    pub fn global() -> ModScope {
        ModScope::default()
    }

    /// Global modifiers and those of `player_id`.
    pub fn player(player_id: PlayerId) -> ModScope {
        ModScope {
            piece: None,
            player: Some(player_id),
        }
    }

    /// Global modifiers and those of `piece_id` (add its owner with [`ModScope::owned_by`]).
    pub fn piece(piece_id: PieceId) -> ModScope {
        ModScope {
            piece: Some(piece_id),
            player: None,
        }
    }

    /// The same scope, also covering the modifiers of `player_id`.
    pub fn owned_by(mut self, player_id: PlayerId) -> ModScope {
        self.player = Some(player_id);
        self
    }

    /// Whether modifiers on `target` reach queries in this scope.
    pub fn covers(&self, target: ModTarget) -> bool {
        match target {
            ModTarget::Global => true,
            ModTarget::Player(player_id) => self.player == Some(player_id),
            ModTarget::Piece(piece_id) => self.piece == Some(piece_id),
        }
    }
}

/// What changed the value at one step of an [`Explanation`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ExplainCause {
    /// A modifier.
    Modifier {
        /// Its id.
        id: ModifierId,
        /// Its source label.
        source: String,
        /// Its operation.
        op: ModOp,
    },
    /// The floor raised the value.
    Floor {
        /// The floor.
        floor: i64,
    },
    /// The cap lowered the value.
    Cap {
        /// The cap.
        cap: i64,
    },
}

/// One step of an [`Explanation`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExplainStep {
    /// What acted.
    pub cause: ExplainCause,
    /// The value before.
    pub before: i64,
    /// The value after.
    pub after: i64,
}

/// A modifier that reached a query but did not apply, and the one that superseded it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overridden {
    /// The modifier that did not apply.
    pub id: ModifierId,
    /// The more recent modifier (a later set, or a later one with the same stacking
    /// key) that took its place.
    pub by: ModifierId,
}

/// How a characteristic's value was reached, for a UI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explanation {
    /// The base value.
    pub base: i64,
    /// The steps in order: the set, multiplications and divisions, additions, then the
    /// floor and the cap when they changed the value.
    pub steps: Vec<ExplainStep>,
    /// Modifiers that reached the query but were superseded, by id.
    pub overridden: Vec<Overridden>,
    /// The final value.
    pub value: i64,
}

/// The serialised form of [`Modifiers`], checked when loaded.
#[derive(Serialize, Deserialize)]
struct ModifiersRepr {
    next_id: u32,
    modifiers: Vec<Modifier>,
}

/// The game's modifiers, by id.
///
/// # Examples
///
/// ```
/// use gloam_core::{Duration, ModOp, ModTarget, ModifierSpec, Modifiers, Occurrence, PieceId, ModScope};
/// let mut modifiers = Modifiers::new();
/// let fighter = PieceId(1);
/// modifiers.add(
///     ModifierSpec::new(ModTarget::Piece(fighter), "move", ModOp::Add(1))
///         .source("Sprint")
///         .lasting(Duration::until("phase_end", 1)),
/// )?;
/// assert_eq!(modifiers.value(ModScope::piece(fighter), "move", 3, Some(0), None), 4);
/// let ended = modifiers.notify(&Occurrence::new("phase_end"));
/// assert_eq!(ended.len(), 1);
/// assert_eq!(modifiers.value(ModScope::piece(fighter), "move", 3, Some(0), None), 3);
/// # Ok::<(), gloam_core::ModifierError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ModifiersRepr", into = "ModifiersRepr")]
pub struct Modifiers {
    /// Shared between copies of the state (a copy is made per decision and per script
    /// run), and copied on write: most runs add, count or remove no modifier.
    by_id: Arc<BTreeMap<ModifierId, Modifier>>,
    next_id: u32,
}

impl TryFrom<ModifiersRepr> for Modifiers {
    type Error = ModifierError;

    fn try_from(repr: ModifiersRepr) -> Result<Modifiers, ModifierError> {
        let mut by_id = BTreeMap::new();
        for modifier in repr.modifiers {
            modifier.validate()?;
            let id = modifier.id;
            if id.0 >= repr.next_id {
                return Err(ModifierError::IdAheadOfCounter {
                    id,
                    next_id: repr.next_id,
                });
            }
            if by_id.insert(id, modifier).is_some() {
                return Err(ModifierError::DuplicateId { id });
            }
        }
        Ok(Modifiers {
            by_id: Arc::new(by_id),
            next_id: repr.next_id,
        })
    }
}

impl From<Modifiers> for ModifiersRepr {
    fn from(modifiers: Modifiers) -> ModifiersRepr {
        ModifiersRepr {
            next_id: modifiers.next_id,
            modifiers: Arc::unwrap_or_clone(modifiers.by_id)
                .into_values()
                .collect(),
        }
    }
}

impl Modifiers {
    /// An empty store.
    pub fn new() -> Modifiers {
        Modifiers::default()
    }

    /// Adds a modifier and returns its id, the next in sequence.
    ///
    /// Refuses an empty characteristic name, a negative factor, a divisor below 1, and a
    /// duration ending that counts zero or waits for an unnamed event; the store is then
    /// unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{ModOp, ModTarget, ModifierError, ModifierSpec, Modifiers};
    /// let mut modifiers = Modifiers::new();
    /// let first = modifiers.add(ModifierSpec::new(ModTarget::Global, "wounds", ModOp::Add(1)))?;
    /// let second = modifiers.add(ModifierSpec::new(ModTarget::Global, "wounds", ModOp::Add(1)))?;
    /// assert!(first < second);
    /// let refused = modifiers.add(ModifierSpec::new(ModTarget::Global, "wounds", ModOp::Divide(0)));
    /// assert_eq!(refused, Err(ModifierError::InvalidDivisor { divisor: 0 }));
    /// # Ok::<(), ModifierError>(())
    /// ```
    pub fn add(&mut self, spec: ModifierSpec) -> Result<ModifierId, ModifierError> {
        spec.validate()?;
        let id = ModifierId(self.next_id);
        let next_id = self
            .next_id
            .checked_add(1)
            .ok_or(ModifierError::IdsExhausted)?;
        Arc::make_mut(&mut self.by_id).insert(id, Modifier { id, spec });
        self.next_id = next_id;
        Ok(id)
    }

    /// Removes a modifier and returns it.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{ModOp, ModTarget, ModifierError, ModifierSpec, Modifiers};
    /// let mut modifiers = Modifiers::new();
    /// let id = modifiers.add(ModifierSpec::new(ModTarget::Global, "wounds", ModOp::Add(1)))?;
    /// assert_eq!(modifiers.remove(id)?.id(), id);
    /// assert_eq!(modifiers.remove(id), Err(ModifierError::UnknownModifier { id }));
    /// # Ok::<(), ModifierError>(())
    /// ```
    pub fn remove(&mut self, id: ModifierId) -> Result<Modifier, ModifierError> {
        if !self.by_id.contains_key(&id) {
            return Err(ModifierError::UnknownModifier { id });
        }
        Arc::make_mut(&mut self.by_id)
            .remove(&id)
            .ok_or(ModifierError::UnknownModifier { id })
    }

    /// Removes every modifier on `target` (a piece leaving play) and returns them in id
    /// order.
    pub fn remove_target(&mut self, target: ModTarget) -> Vec<Modifier> {
        self.remove_where(|modifier| modifier.target() == target)
    }

    /// Removes every modifier for which `predicate` holds and returns them in id order.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{ModOp, ModTarget, ModifierSpec, Modifiers};
    /// let mut modifiers = Modifiers::new();
    /// modifiers.add(ModifierSpec::new(ModTarget::Global, "wounds", ModOp::Add(1)).source("Banner"))?;
    /// let removed = modifiers.remove_where(|modifier| modifier.source() == "Banner");
    /// assert_eq!(removed.len(), 1);
    /// assert!(modifiers.is_empty());
    /// # Ok::<(), gloam_core::ModifierError>(())
    /// ```
    pub fn remove_where(&mut self, mut predicate: impl FnMut(&Modifier) -> bool) -> Vec<Modifier> {
        let ids: Vec<ModifierId> = self
            .by_id
            .values()
            .filter(|modifier| predicate(modifier))
            .map(Modifier::id)
            .collect();
        self.take_all(&ids)
    }

    /// Reports an event: counts it against every duration waiting for it, then removes
    /// and returns, in id order, the modifiers whose duration has ended.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Duration, ModOp, ModTarget, ModifierSpec, Modifiers, Occurrence, PieceId};
    /// let mut modifiers = Modifiers::new();
    /// let fighter = PieceId(2);
    /// let id = modifiers.add(
    ///     ModifierSpec::new(ModTarget::Piece(fighter), "defence_dice", ModOp::Add(1))
    ///         .lasting(Duration::until_for("activation", fighter, 1)),
    /// )?;
    /// assert!(modifiers.notify(&Occurrence::new("activation").about(PieceId(9))).is_empty());
    /// let ended = modifiers.notify(&Occurrence::new("activation").about(fighter));
    /// assert_eq!(ended[0].id(), id);
    /// # Ok::<(), gloam_core::ModifierError>(())
    /// ```
    pub fn notify(&mut self, occurrence: &Occurrence) -> Vec<Modifier> {
        let mut ended = Vec::new();
        // Most events end or count no duration: the shared store is then left as it is.
        if !self
            .by_id
            .values()
            .any(|modifier| modifier.spec.duration.waits_for(occurrence))
        {
            return Vec::new();
        }
        for modifier in Arc::make_mut(&mut self.by_id).values_mut() {
            if modifier.spec.duration.notify(occurrence) && modifier.spec.duration.is_over() {
                ended.push(modifier.id);
            }
        }
        self.take_all(&ended)
    }

    /// Counts one use of a modifier; removes and returns it when that was its last use.
    ///
    /// A modifier whose duration counts no uses is unchanged (`Ok(None)`).
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Duration, ModOp, ModTarget, ModifierSpec, Modifiers};
    /// let mut modifiers = Modifiers::new();
    /// let id = modifiers.add(
    ///     ModifierSpec::new(ModTarget::Global, "attack_dice", ModOp::Add(1))
    ///         .lasting(Duration::uses(2)),
    /// )?;
    /// assert!(modifiers.consume(id)?.is_none());
    /// assert_eq!(modifiers.consume(id)?.map(|m| m.id()), Some(id));
    /// # Ok::<(), gloam_core::ModifierError>(())
    /// ```
    pub fn consume(&mut self, id: ModifierId) -> Result<Option<Modifier>, ModifierError> {
        let modifier = self
            .by_id
            .get(&id)
            .ok_or(ModifierError::UnknownModifier { id })?;
        if !modifier.spec.duration.counts_uses() {
            return Ok(None);
        }
        let by_id = Arc::make_mut(&mut self.by_id);
        let modifier = by_id
            .get_mut(&id)
            .ok_or(ModifierError::UnknownModifier { id })?;
        if modifier.spec.duration.consume() && modifier.spec.duration.is_over() {
            return Ok(by_id.remove(&id));
        }
        Ok(None)
    }

    /// Counts one use of every modifier that applies to this query (see
    /// [`Modifiers::active_for`]); removes and returns, in id order, those used up.
    ///
    /// Superseded modifiers did not apply, so they are not used.
    pub fn consume_for(&mut self, scope: ModScope, characteristic: &str) -> Vec<Modifier> {
        let ids: Vec<ModifierId> = self
            .active_for(scope, characteristic)
            .iter()
            .filter(|modifier| modifier.spec.duration.counts_uses())
            .map(|modifier| modifier.id)
            .collect();
        if ids.is_empty() {
            return Vec::new();
        }
        let mut ended = Vec::new();
        let by_id = Arc::make_mut(&mut self.by_id);
        for id in ids {
            if let Some(modifier) = by_id.get_mut(&id) {
                if modifier.spec.duration.consume() && modifier.spec.duration.is_over() {
                    ended.push(id);
                }
            }
        }
        self.take_all(&ended)
    }

    /// A modifier by id.
    pub fn get(&self, id: ModifierId) -> Option<&Modifier> {
        self.by_id.get(&id)
    }

    /// Every modifier, in id (creation) order.
    pub fn iter(&self) -> impl Iterator<Item = &Modifier> {
        self.by_id.values()
    }

    /// How many modifiers there are.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The modifiers that apply to a query (reach it and are not superseded), in id
    /// order.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{ModOp, ModTarget, ModifierSpec, Modifiers, PieceId, ModScope};
    /// let mut modifiers = Modifiers::new();
    /// let fighter = PieceId(1);
    /// let old = modifiers.add(ModifierSpec::new(ModTarget::Piece(fighter), "move", ModOp::Set(2)))?;
    /// let new = modifiers.add(ModifierSpec::new(ModTarget::Piece(fighter), "move", ModOp::Set(5)))?;
    /// let active: Vec<_> = modifiers.active_for(ModScope::piece(fighter), "move").iter().map(|m| m.id()).collect();
    /// assert_eq!(active, vec![new]);
    /// # let _ = old;
    /// # Ok::<(), gloam_core::ModifierError>(())
    /// ```
    pub fn active_for(&self, scope: ModScope, characteristic: &str) -> Vec<&Modifier> {
        self.select(scope, characteristic).0
    }

    /// The value of a characteristic: `base` changed by the modifiers in `scope`, then
    /// raised to `floor` and lowered to `cap` when given (the cap wins if below the floor).
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{ModOp, ModTarget, ModifierSpec, Modifiers, PieceId, PlayerId, ModScope};
    /// let mut modifiers = Modifiers::new();
    /// let (fighter, owner) = (PieceId(1), PlayerId(0));
    /// modifiers.add(ModifierSpec::new(ModTarget::Piece(fighter), "move", ModOp::Add(-1)))?;
    /// modifiers.add(ModifierSpec::new(ModTarget::Player(owner), "move", ModOp::Multiply(2)))?;
    /// // (3 x 2) - 1: multiply before add, whatever the order of play.
    /// let scope = ModScope::piece(fighter).owned_by(owner);
    /// assert_eq!(modifiers.value(scope, "move", 3, Some(0), None), 5);
    /// # Ok::<(), gloam_core::ModifierError>(())
    /// ```
    pub fn value(
        &self,
        scope: ModScope,
        characteristic: &str,
        base: i64,
        floor: Option<i64>,
        cap: Option<i64>,
    ) -> i64 {
        // What `explain` computes, without its steps: read for every characteristic a
        // script asks for, and most reach no modifier.
        let mut value = base;
        if self
            .by_id
            .values()
            .any(|modifier| modifier.reaches(scope, characteristic))
        {
            let (active, _) = self.select(scope, characteristic);
            for modifier in in_application_order(&active) {
                value = modifier.op().apply(value);
            }
        }
        if let Some(floor) = floor.filter(|&floor| value < floor) {
            value = floor;
        }
        if let Some(cap) = cap.filter(|&cap| value > cap) {
            value = cap;
        }
        value
    }

    /// How [`Modifiers::value`] reaches its result, step by step.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{ModOp, ModTarget, ModifierSpec, Modifiers, PieceId, ModScope, ExplainCause};
    /// let mut modifiers = Modifiers::new();
    /// let fighter = PieceId(1);
    /// modifiers.add(ModifierSpec::new(ModTarget::Piece(fighter), "wounds", ModOp::Add(-5)).source("Curse"))?;
    /// let explanation = modifiers.explain(ModScope::piece(fighter), "wounds", 3, Some(1), None);
    /// assert_eq!(explanation.steps.len(), 2);
    /// assert_eq!((explanation.steps[0].before, explanation.steps[0].after), (3, -2));
    /// assert_eq!(explanation.steps[1].cause, ExplainCause::Floor { floor: 1 });
    /// assert_eq!(explanation.value, 1);
    /// # Ok::<(), gloam_core::ModifierError>(())
    /// ```
    pub fn explain(
        &self,
        scope: ModScope,
        characteristic: &str,
        base: i64,
        floor: Option<i64>,
        cap: Option<i64>,
    ) -> Explanation {
        let (active, overridden) = self.select(scope, characteristic);
        let mut steps = Vec::new();
        let mut value = base;
        let mut push = |cause: ExplainCause, after: i64, value: &mut i64| {
            steps.push(ExplainStep {
                cause,
                before: *value,
                after,
            });
            *value = after;
        };
        for modifier in in_application_order(&active) {
            let after = modifier.op().apply(value);
            let cause = ExplainCause::Modifier {
                id: modifier.id,
                source: modifier.spec.source.clone(),
                op: modifier.op(),
            };
            push(cause, after, &mut value);
        }
        if let Some(floor) = floor.filter(|&floor| value < floor) {
            push(ExplainCause::Floor { floor }, floor, &mut value);
        }
        if let Some(cap) = cap.filter(|&cap| value > cap) {
            push(ExplainCause::Cap { cap }, cap, &mut value);
        }
        Explanation {
            base,
            steps,
            overridden,
            value,
        }
    }

    /// The modifiers that apply to a query in id order, and those superseded.
    fn select(&self, scope: ModScope, characteristic: &str) -> (Vec<&Modifier>, Vec<Overridden>) {
        let reaching: Vec<&Modifier> = self
            .by_id
            .values()
            .filter(|modifier| modifier.reaches(scope, characteristic))
            .collect();
        let mut latest_by_key: BTreeMap<&str, ModifierId> = BTreeMap::new();
        for modifier in &reaching {
            if let Some(key) = modifier.stacking_key() {
                latest_by_key.insert(key, modifier.id);
            }
        }
        let latest_set = reaching
            .iter()
            .filter(|modifier| {
                matches!(modifier.op(), ModOp::Set(_))
                    && modifier
                        .stacking_key()
                        .is_none_or(|key| latest_by_key.get(key) == Some(&modifier.id))
            })
            .map(|modifier| modifier.id)
            .next_back();
        let mut active = Vec::new();
        let mut overridden = Vec::new();
        for modifier in reaching {
            let superseded_by = match modifier.stacking_key() {
                Some(key) if latest_by_key.get(key) != Some(&modifier.id) => latest_by_key.get(key),
                _ if matches!(modifier.op(), ModOp::Set(_)) && latest_set != Some(modifier.id) => {
                    latest_set.as_ref()
                }
                _ => None,
            };
            match superseded_by {
                Some(&by) => overridden.push(Overridden {
                    id: modifier.id,
                    by,
                }),
                None => active.push(modifier),
            }
        }
        (active, overridden)
    }

    /// Removes the listed modifiers (ids in increasing order) and returns them.
    fn take_all(&mut self, ids: &[ModifierId]) -> Vec<Modifier> {
        if ids.is_empty() {
            return Vec::new();
        }
        let by_id = Arc::make_mut(&mut self.by_id);
        ids.iter().filter_map(|id| by_id.remove(id)).collect()
    }
}

/// The modifiers that apply, in the order they change a value: sets, then multiplications
/// and divisions, then additions, each in id order.
fn in_application_order<'a>(active: &'a [&'a Modifier]) -> impl Iterator<Item = &'a Modifier> {
    let stage = |op: ModOp| match op {
        ModOp::Set(_) => 0,
        ModOp::Multiply(_) | ModOp::Divide(_) | ModOp::DivideRoundUp(_) => 1,
        ModOp::Add(_) => 2,
    };
    (0..3).flat_map(move |at| {
        active
            .iter()
            .copied()
            .filter(move |modifier| stage(modifier.op()) == at)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIGHTER: PieceId = PieceId(1);

    fn piece_mod(characteristic: &str, op: ModOp) -> ModifierSpec {
        ModifierSpec::new(ModTarget::Piece(FIGHTER), characteristic, op)
    }

    fn fighter_value(modifiers: &Modifiers, characteristic: &str, base: i64) -> i64 {
        modifiers.value(ModScope::piece(FIGHTER), characteristic, base, None, None)
    }

    // Harrowdeep, modifiers (digest §3.25): set modifiers apply first, whatever the order
    // in which the cards were played.
    #[test]
    fn set_after_add_set_still_applies_first() {
        let mut modifiers = Modifiers::new();
        modifiers.add(piece_mod("move", ModOp::Add(1))).unwrap();
        modifiers.add(piece_mod("move", ModOp::Set(2))).unwrap();
        assert_eq!(fighter_value(&modifiers, "move", 4), 3);
    }

    // Harrowdeep, modifiers; digest H25: the most recent set wins; when it ends the
    // earlier one returns.
    #[test]
    fn two_sets_most_recent_wins_and_earlier_returns() {
        let mut modifiers = Modifiers::new();
        let older = modifiers.add(piece_mod("move", ModOp::Set(1))).unwrap();
        let newer = modifiers.add(piece_mod("move", ModOp::Set(5))).unwrap();
        let explanation = modifiers.explain(ModScope::piece(FIGHTER), "move", 3, None, None);
        assert_eq!(explanation.value, 5);
        assert_eq!(
            explanation.overridden,
            vec![Overridden {
                id: older,
                by: newer
            }]
        );
        modifiers.remove(newer).unwrap();
        assert_eq!(fighter_value(&modifiers, "move", 3), 1);
    }

    // Harrowdeep, modifiers: multiply and divide before add and subtract.
    #[test]
    fn add_then_multiply_multiplies_first() {
        let mut modifiers = Modifiers::new();
        modifiers.add(piece_mod("wounds", ModOp::Add(1))).unwrap();
        modifiers
            .add(piece_mod("wounds", ModOp::Multiply(2)))
            .unwrap();
        assert_eq!(fighter_value(&modifiers, "wounds", 3), 7);
    }

    #[test]
    fn divisions_round_as_their_op_says() {
        assert_eq!(ModOp::Divide(2).apply(5), 2);
        assert_eq!(ModOp::DivideRoundUp(2).apply(5), 3);
        assert_eq!(ModOp::DivideRoundUp(2).apply(4), 2);
        assert_eq!(ModOp::Divide(2).apply(-3), -2);
        assert_eq!(ModOp::DivideRoundUp(2).apply(-3), -1);
        assert_eq!(ModOp::DivideRoundUp(3).apply(i64::MIN), i64::MIN / 3);
    }

    #[test]
    fn scales_apply_in_creation_order() {
        let mut modifiers = Modifiers::new();
        modifiers.add(piece_mod("move", ModOp::Divide(2))).unwrap();
        modifiers
            .add(piece_mod("move", ModOp::Multiply(3)))
            .unwrap();
        // (5 / 2) x 3 = 6, not (5 x 3) / 2 = 7.
        assert_eq!(fighter_value(&modifiers, "move", 5), 6);
    }

    // Harrowdeep, modifiers: floors are applied last (Move 0, other characteristics 1).
    #[test]
    fn floor_applied_after_every_modifier() {
        let mut modifiers = Modifiers::new();
        modifiers.add(piece_mod("move", ModOp::Add(-5))).unwrap();
        modifiers.add(piece_mod("move", ModOp::Add(3))).unwrap();
        modifiers.add(piece_mod("wounds", ModOp::Add(-9))).unwrap();
        let scope = ModScope::piece(FIGHTER);
        // 3 - 5 + 3 = 1: a floor applied per step would give 3.
        assert_eq!(modifiers.value(scope, "move", 3, Some(0), None), 1);
        modifiers.add(piece_mod("move", ModOp::Add(-4))).unwrap();
        assert_eq!(modifiers.value(scope, "move", 3, Some(0), None), 0);
        assert_eq!(modifiers.value(scope, "wounds", 4, Some(1), None), 1);
    }

    #[test]
    fn cap_lowers_after_floor() {
        let mut modifiers = Modifiers::new();
        modifiers.add(piece_mod("damage", ModOp::Add(4))).unwrap();
        let explanation =
            modifiers.explain(ModScope::piece(FIGHTER), "damage", 1, Some(1), Some(3));
        assert_eq!(explanation.value, 3);
        assert_eq!(
            explanation.steps.last().unwrap().cause,
            ExplainCause::Cap { cap: 3 }
        );
    }

    #[test]
    fn stacking_key_keeps_only_most_recent() {
        let mut modifiers = Modifiers::new();
        let first = modifiers
            .add(piece_mod("move", ModOp::Add(2)).stacking_key("sprint"))
            .unwrap();
        let second = modifiers
            .add(piece_mod("move", ModOp::Add(1)).stacking_key("sprint"))
            .unwrap();
        modifiers.add(piece_mod("move", ModOp::Add(1))).unwrap();
        let explanation = modifiers.explain(ModScope::piece(FIGHTER), "move", 3, None, None);
        assert_eq!(explanation.value, 5);
        assert_eq!(
            explanation.overridden,
            vec![Overridden {
                id: first,
                by: second
            }]
        );
    }

    #[test]
    fn empty_stacking_key_stacks() {
        let mut modifiers = Modifiers::new();
        modifiers
            .add(piece_mod("move", ModOp::Add(1)).stacking_key(""))
            .unwrap();
        modifiers
            .add(piece_mod("move", ModOp::Add(1)).stacking_key(""))
            .unwrap();
        assert_eq!(fighter_value(&modifiers, "move", 3), 5);
    }

    #[test]
    fn overridden_set_under_stacking_key_lets_earlier_set_apply() {
        let mut modifiers = Modifiers::new();
        modifiers.add(piece_mod("move", ModOp::Set(1))).unwrap();
        modifiers
            .add(piece_mod("move", ModOp::Set(6)).stacking_key("k"))
            .unwrap();
        modifiers
            .add(piece_mod("move", ModOp::Add(1)).stacking_key("k"))
            .unwrap();
        // The keyed set is superseded by the keyed add, so the plain set applies.
        assert_eq!(fighter_value(&modifiers, "move", 3), 2);
    }

    #[test]
    fn scope_combines_global_player_and_piece_in_creation_order() {
        let mut modifiers = Modifiers::new();
        let owner = PlayerId(0);
        modifiers
            .add(ModifierSpec::new(
                ModTarget::Piece(FIGHTER),
                "move",
                ModOp::Set(2),
            ))
            .unwrap();
        modifiers
            .add(ModifierSpec::new(ModTarget::Global, "move", ModOp::Set(4)))
            .unwrap();
        modifiers
            .add(ModifierSpec::new(
                ModTarget::Player(owner),
                "move",
                ModOp::Add(1),
            ))
            .unwrap();
        modifiers
            .add(ModifierSpec::new(
                ModTarget::Player(PlayerId(1)),
                "move",
                ModOp::Add(10),
            ))
            .unwrap();
        modifiers
            .add(ModifierSpec::new(
                ModTarget::Piece(PieceId(7)),
                "move",
                ModOp::Add(10),
            ))
            .unwrap();
        let scope = ModScope::piece(FIGHTER).owned_by(owner);
        assert_eq!(modifiers.value(scope, "move", 3, None, None), 5);
        assert_eq!(
            modifiers.value(ModScope::piece(FIGHTER), "move", 3, None, None),
            4
        );
        assert_eq!(
            modifiers.value(ModScope::global(), "move", 3, None, None),
            4
        );
    }

    #[test]
    fn other_characteristic_is_untouched() {
        let mut modifiers = Modifiers::new();
        modifiers.add(piece_mod("move", ModOp::Add(1))).unwrap();
        assert_eq!(fighter_value(&modifiers, "Move", 3), 3);
        assert_eq!(fighter_value(&modifiers, "wounds", 3), 3);
    }

    #[test]
    fn invalid_specs_are_refused_and_store_unchanged() {
        let mut modifiers = Modifiers::new();
        let cases = [
            (
                piece_mod("move", ModOp::Divide(0)),
                ModifierError::InvalidDivisor { divisor: 0 },
            ),
            (
                piece_mod("move", ModOp::DivideRoundUp(-2)),
                ModifierError::InvalidDivisor { divisor: -2 },
            ),
            (
                piece_mod("move", ModOp::Multiply(-1)),
                ModifierError::NegativeFactor { factor: -1 },
            ),
            (
                piece_mod("", ModOp::Add(1)),
                ModifierError::EmptyCharacteristic,
            ),
            (
                piece_mod("move", ModOp::Add(1))
                    .lasting(Duration::uses(1).or(Duration::until("x", 0))),
                ModifierError::ZeroEnding { index: 1 },
            ),
            (
                piece_mod("move", ModOp::Add(1)).lasting(Duration::until("", 1)),
                ModifierError::EmptyEventName { index: 0 },
            ),
        ];
        for (spec, expected) in cases {
            assert_eq!(modifiers.add(spec), Err(expected));
        }
        assert!(modifiers.is_empty());
        assert_eq!(
            modifiers.add(piece_mod("move", ModOp::Multiply(0))),
            Ok(ModifierId(0))
        );
    }

    #[test]
    fn unknown_id_is_an_error() {
        let mut modifiers = Modifiers::new();
        let id = ModifierId(3);
        assert_eq!(
            modifiers.remove(id),
            Err(ModifierError::UnknownModifier { id })
        );
        assert_eq!(
            modifiers.consume(id),
            Err(ModifierError::UnknownModifier { id })
        );
    }

    #[test]
    fn ids_are_never_reused() {
        let mut modifiers = Modifiers::new();
        let first = modifiers.add(piece_mod("move", ModOp::Add(1))).unwrap();
        modifiers.remove(first).unwrap();
        let second = modifiers.add(piece_mod("move", ModOp::Add(1))).unwrap();
        assert!(second > first);
    }

    #[test]
    fn exhausted_ids_are_an_error() {
        let mut modifiers = Modifiers {
            by_id: Arc::default(),
            next_id: u32::MAX,
        };
        assert_eq!(
            modifiers.add(piece_mod("move", ModOp::Add(1))),
            Err(ModifierError::IdsExhausted)
        );
        assert!(modifiers.is_empty());
    }

    #[test]
    fn op_display_reads_as_arithmetic() {
        let shown: Vec<String> = [
            ModOp::Set(2),
            ModOp::Multiply(2),
            ModOp::Divide(2),
            ModOp::DivideRoundUp(2),
            ModOp::Add(1),
            ModOp::Add(-1),
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(shown, ["=2", "x2", "/2", "/2 rounding up", "+1", "-1"]);
    }

    /// One modifier drawn for the properties below: its target, characteristic, operation,
    /// stacking key and duration.
    fn drawn_spec() -> impl proptest::strategy::Strategy<Value = ModifierSpec> {
        use proptest::prelude::*;
        let target = prop_oneof![
            Just(ModTarget::Global),
            Just(ModTarget::Piece(FIGHTER)),
            Just(ModTarget::Piece(PieceId(2))),
            Just(ModTarget::Player(PlayerId(0))),
            Just(ModTarget::Player(PlayerId(1))),
        ];
        let op = prop_oneof![
            (-3i64..6).prop_map(ModOp::Set),
            (0i64..3).prop_map(ModOp::Multiply),
            (1i64..3).prop_map(ModOp::Divide),
            (1i64..3).prop_map(ModOp::DivideRoundUp),
            (-4i64..4).prop_map(ModOp::Add),
        ];
        let key = prop_oneof![Just(None), Just(Some("aura")), Just(Some("banner"))];
        let duration = prop_oneof![
            Just(Duration::permanent()),
            (1u32..3).prop_map(Duration::uses),
            (1u32..3).prop_map(|n| Duration::until("activation", n)),
            (1u32..3).prop_map(|n| Duration::until_for("activation", FIGHTER, n)),
        ];
        (
            target,
            prop_oneof![Just("move"), Just("wounds")],
            op,
            key,
            duration,
        )
            .prop_map(|(target, characteristic, op, key, duration)| {
                let spec = ModifierSpec::new(target, characteristic, op).lasting(duration);
                match key {
                    Some(key) => spec.stacking_key(key),
                    None => spec,
                }
            })
    }

    proptest::proptest! {
        /// `value` (computed without the steps) is the value `explain` reaches, for every
        /// store, scope, base, floor and cap.
        #[test]
        fn value_is_the_explained_value(
            specs in proptest::collection::vec(drawn_spec(), 0..8),
            base in -3i64..8,
            floor in proptest::option::of(-1i64..3),
            cap in proptest::option::of(0i64..9),
        ) {
            let mut modifiers = Modifiers::new();
            for spec in specs {
                modifiers.add(spec).unwrap();
            }
            for scope in [
                ModScope::piece(FIGHTER).owned_by(PlayerId(0)),
                ModScope::piece(PieceId(2)).owned_by(PlayerId(1)),
                ModScope::piece(PieceId(3)),
            ] {
                for characteristic in ["move", "wounds", "range"] {
                    proptest::prop_assert_eq!(
                        modifiers.value(scope, characteristic, base, floor, cap),
                        modifiers.explain(scope, characteristic, base, floor, cap).value
                    );
                }
            }
        }

        /// A copy of the store shares its modifiers until one of the two changes: counting
        /// an event or a use, or removing, in the original leaves the copy as it was.
        #[test]
        fn a_copy_is_untouched_by_changes_to_the_original(
            specs in proptest::collection::vec(drawn_spec(), 1..8),
        ) {
            let mut modifiers = Modifiers::new();
            for spec in specs {
                modifiers.add(spec).unwrap();
            }
            let copy = modifiers.clone();
            let json = serde_json::to_string(&copy).unwrap();
            modifiers.notify(&Occurrence::new("activation").about(FIGHTER));
            modifiers.consume_for(ModScope::piece(FIGHTER).owned_by(PlayerId(0)), "move");
            if let Some(first) = copy.iter().next().map(Modifier::id) {
                let _ = modifiers.consume(first);
                let _ = modifiers.remove(first);
            }
            proptest::prop_assert_eq!(serde_json::to_string(&copy).unwrap(), json);
        }
    }
}
