//! Game state: players, pieces, cards in zones, counters, tokens and the RNG.
//!
//! The state is plain data: `Clone`, `Serialize`, `Deserialize`, ordered containers only.
//! It changes only through [`crate::Ctx`], which records every change as an
//! [`crate::Event`]; hosts read it and never write it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::{CardId, GameRng, Hex, PieceId, PlayerId, Value};

/// Where a piece stands: a hex on a hex battlefield or a point on a measured table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    /// A hex of a hex battlefield.
    Hex(Hex),
    /// A point on a measured table, with the piece's facing as an integer vector
    /// (`(0, 0)` when the ruleset has no facing).
    Table {
        /// Where the centre of the base is.
        at: crate::Point,
        /// Facing direction.
        facing: (i64, i64),
    },
}

/// In players' terms: `hex (1, 2)`, or `point (x, y)` (tenths of a millimetre).
impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Position::Hex(hex) => write!(f, "hex {hex}"),
            Position::Table { at, .. } => write!(f, "point ({}, {})", at.x, at.y),
        }
    }
}

impl Position {
    /// The hex, if this is a hex position.
    pub fn hex(self) -> Option<Hex> {
        match self {
            Position::Hex(hex) => Some(hex),
            Position::Table { .. } => None,
        }
    }

    /// The table point, if this is a table position.
    pub fn point(self) -> Option<crate::Point> {
        match self {
            Position::Hex(_) => None,
            Position::Table { at, .. } => Some(at),
        }
    }
}

/// A seat at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// This player's id (its index in seating order).
    pub id: PlayerId,
    /// A display name.
    pub name: String,
    /// Named counters: scores (`glory`), resources, per-player bookkeeping.
    pub counters: BTreeMap<String, i64>,
    /// Named tokens held by the player, with their number.
    pub tokens: BTreeMap<String, i64>,
}

/// A piece in the game: an Underworlds fighter or a tabletop model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// This piece's id.
    pub id: PieceId,
    /// The controlling player.
    pub owner: PlayerId,
    /// The name of its definition in the ruleset data (a fighter or model profile).
    pub kind: String,
    /// The layer it stands in: pieces only contend for a position with pieces of the same
    /// layer. Fighters and models use the default layer `""`; feature tokens, objective
    /// markers and the like use their own (`feature`), so a fighter can stand on one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub layer: String,
    /// Where it stands; `None` when not on the battlefield (not yet deployed, out of action).
    pub position: Option<Position>,
    /// Base characteristics before modifiers (`move`, `wounds`, ...).
    pub characteristics: BTreeMap<String, i64>,
    /// Named counters (`damage`, activations used, ...).
    pub counters: BTreeMap<String, i64>,
    /// Named tokens on the piece (`move`, `charge`, `guard`, `stagger`...), with their number.
    pub tokens: BTreeMap<String, i64>,
    /// Keywords currently carried (`leader`, `wizard`, `inspired`...).
    pub keywords: BTreeSet<String>,
}

/// A named zone of cards. Zone names are the ruleset's vocabulary.
///
/// Serialised as a string, `"0:hand"` or `"1:equipped@4"` (owner, name, piece), so that
/// maps keyed by zone are plain JSON objects.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ZoneId {
    /// The player the zone belongs to.
    pub owner: PlayerId,
    /// The zone's name (`objective_deck`, `power_hand`, `equipped`...).
    pub name: String,
    /// The piece the zone is attached to, for cards attached to a piece (upgrades).
    pub piece: Option<PieceId>,
}

impl ZoneId {
    fn key(&self) -> String {
        match self.piece {
            Some(piece) => format!("{}:{}@{}", self.owner.0, self.name, piece.0),
            None => format!("{}:{}", self.owner.0, self.name),
        }
    }

    fn from_key(key: &str) -> Option<ZoneId> {
        let (owner, rest) = key.split_once(':')?;
        let owner = PlayerId(owner.parse().ok()?);
        let (name, piece) = match rest.split_once('@') {
            Some((name, piece)) => (name, Some(PieceId(piece.parse().ok()?))),
            None => (rest, None),
        };
        Some(ZoneId {
            owner,
            name: name.to_owned(),
            piece,
        })
    }
}

/// A zone named without owning its name: what a lookup needs, so that finding a zone's
/// cards makes no [`ZoneId`] (and no copy of the name).
///
/// # Examples
///
/// ```
/// use gloam_core::{GameState, PlayerId, ZoneId, ZoneKey};
/// let state = GameState::new(1, &["Ann"]);
/// assert!(state.zone_cards_at(ZoneKey::new(PlayerId(0), "hand")).is_empty());
/// let id = ZoneId::new(PlayerId(0), "hand");
/// assert_eq!(ZoneKey::of(&id), ZoneKey::new(PlayerId(0), "hand"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ZoneKey<'a> {
    /// The player the zone belongs to.
    pub owner: PlayerId,
    /// The zone's name.
    pub name: &'a str,
    /// The piece the zone is attached to, if any.
    pub piece: Option<PieceId>,
}

impl<'a> ZoneKey<'a> {
    /// A player's zone `name`.
    pub fn new(owner: PlayerId, name: &'a str) -> ZoneKey<'a> {
        ZoneKey {
            owner,
            name,
            piece: None,
        }
    }

    /// The zone `name` of `owner` attached to `piece` (an upgrade's bearer).
    pub fn on_piece(owner: PlayerId, name: &'a str, piece: PieceId) -> ZoneKey<'a> {
        ZoneKey {
            owner,
            name,
            piece: Some(piece),
        }
    }

    /// The key of a zone id.
    pub fn of(zone: &'a ZoneId) -> ZoneKey<'a> {
        ZoneKey {
            owner: zone.owner,
            name: &zone.name,
            piece: zone.piece,
        }
    }

    /// The zone id this key names (its name copied).
    pub fn to_id(self) -> ZoneId {
        ZoneId {
            owner: self.owner,
            name: self.name.to_owned(),
            piece: self.piece,
        }
    }
}

/// A zone id or a borrowed key, compared as the zone map orders its ids (owner, name,
/// piece), so the map can be searched with a key.
trait ZoneParts {
    fn parts(&self) -> ZoneKey<'_>;
}

impl ZoneParts for ZoneId {
    fn parts(&self) -> ZoneKey<'_> {
        ZoneKey::of(self)
    }
}

impl ZoneParts for ZoneKey<'_> {
    fn parts(&self) -> ZoneKey<'_> {
        *self
    }
}

impl<'a> std::borrow::Borrow<dyn ZoneParts + 'a> for ZoneId {
    fn borrow(&self) -> &(dyn ZoneParts + 'a) {
        self
    }
}

impl PartialEq for dyn ZoneParts + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for dyn ZoneParts + '_ {}

impl PartialOrd for dyn ZoneParts + '_ {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for dyn ZoneParts + '_ {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.parts().cmp(&other.parts())
    }
}

impl Serialize for ZoneId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.key())
    }
}

impl<'de> Deserialize<'de> for ZoneId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<ZoneId, D::Error> {
        let key = String::deserialize(deserializer)?;
        ZoneId::from_key(&key).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{key}` is not a zone: expected `owner:name` or `owner:name@piece`"
            ))
        })
    }
}

impl ZoneId {
    /// A player's zone.
    pub fn new(owner: PlayerId, name: impl Into<String>) -> ZoneId {
        ZoneId {
            owner,
            name: name.into(),
            piece: None,
        }
    }

    /// A zone attached to a piece.
    pub fn on_piece(owner: PlayerId, name: impl Into<String>, piece: PieceId) -> ZoneId {
        ZoneId {
            owner,
            name: name.into(),
            piece: Some(piece),
        }
    }
}

impl std::fmt::Display for ZoneId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.piece {
            Some(piece) => write!(f, "{}:{}@{}", self.owner, self.name, piece),
            None => write!(f, "{}:{}", self.owner, self.name),
        }
    }
}

/// Who may see the cards of a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Everyone sees the cards (discard piles, scored objectives, upgrades in play).
    Public,
    /// Only the owner sees the cards (a hand).
    Owner,
    /// Nobody sees the cards or their order (a deck); the count is public.
    Nobody,
}

/// A zone: an ordered list of cards (index 0 is the top of a deck).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zone {
    /// Who may see it.
    pub visibility: Visibility,
    /// The cards, top first.
    pub cards: Vec<CardId>,
}

/// Whether a state has no hex types given in play (then its JSON leaves them out).
fn no_hex_types(types: &Arc<BTreeSet<(Hex, String)>>) -> bool {
    types.is_empty()
}

/// One physical card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    /// This card's id.
    pub id: CardId,
    /// The name of its definition in the ruleset data.
    pub name: String,
    /// The player who owns it.
    pub owner: PlayerId,
}

/// The whole state of one game.
///
/// `GameState::default()` is an empty game with no players and seed 0: a cheap placeholder
/// for hosts that need to swap a state out for a moment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// The seed the game was started with.
    pub seed: u64,
    /// The random number generator, advanced by every roll and shuffle.
    pub rng: GameRng,
    /// The players, in seating order (`players[i].id == PlayerId(i)`). Shared between
    /// copies of the state, and copied on write, as the zones are.
    pub players: Arc<Vec<Player>>,
    /// Every piece, by id. Shared between copies of the state (a copy is made per decision
    /// and per script run), and copied on write: `Arc::make_mut`.
    pub pieces: Arc<BTreeMap<PieceId, Arc<Piece>>>,
    /// Every card, by id. Cards never change once created, so copies of the state share
    /// the map (a new card goes in with `Arc::make_mut`).
    pub cards: Arc<BTreeMap<CardId, Card>>,
    /// The zones; every card is in exactly one zone. Shared between copies of the state
    /// (a copy is made per decision and per script run), and copied on write
    /// (`Arc::make_mut`): most runs move no card.
    pub zones: Arc<BTreeMap<ZoneId, Zone>>,
    /// Game-wide named counters (`round`, ...). Shared between copies of the state, and
    /// copied on write.
    pub counters: Arc<BTreeMap<String, i64>>,
    /// Game-wide named tokens (a shared supply), with their number. Shared between copies
    /// of the state, and copied on write.
    #[serde(default)]
    pub tokens: Arc<BTreeMap<String, i64>>,
    /// Hex types given in play, on top of the battlefield's own (a marker laid on a hex, a
    /// side turned up): each `(hex, type)` pair. The kernel gives the names no meaning.
    /// Shared between copies of the state, and copied on write: most runs change none.
    #[serde(default, skip_serializing_if = "no_hex_types")]
    pub hex_types: Arc<BTreeSet<(Hex, String)>>,
    /// Loaded dice: `(die, face)` pairs, in order. The next die of that kind rolled or
    /// re-rolled shows that face instead of drawing from the RNG, and the pair is used up.
    /// Set by hosts through `Ctx::fix_dice` (scenario tests, tutorials, puzzles), recorded
    /// as an event like every change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixed_faces: Vec<(String, String)>,
    /// Chance mode, when a host turned it on (`Game::set_chance_mode`): the outcomes chosen
    /// for the rolls of the step being run, and the roll waiting for one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance: Option<crate::ChanceMode>,
    /// Characteristic modifiers and their durations.
    pub modifiers: crate::Modifiers,
    /// The lowest value each characteristic can be modified to (`move` 0, others 1...).
    /// Shared between copies of the state: set once, when the game starts.
    pub floors: Arc<BTreeMap<String, i64>>,
    /// The rules' flow: a stack of frames, top last. Empty when the game is over. Shared
    /// between copies of the state (a script's run never changes it), and copied on write,
    /// the stack and each frame apart: a decision's snapshot shares every frame, and a
    /// step copies only the frame it runs.
    pub flow: Arc<Vec<Arc<Frame>>>,
    /// The decisions the game waits on, if any.
    pub pending: Option<crate::Pending>,
    /// The result, once the game has ended.
    pub result: Option<GameResult>,
}

/// One step of the rules' flow, with the values the ruleset keeps while it runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame {
    /// The name of the rule step this frame runs.
    pub step: String,
    /// Where in the step the rule is (starts at 0).
    pub stage: u32,
    /// Named values the step keeps.
    pub vars: BTreeMap<String, Value>,
    /// The answers to the decisions this frame asked, oldest first.
    pub answers: Vec<crate::Answer>,
}

impl Frame {
    /// A fresh frame for `step`.
    pub fn new(step: impl Into<String>) -> Frame {
        Frame {
            step: step.into(),
            stage: 0,
            vars: BTreeMap::new(),
            answers: Vec::new(),
        }
    }

    /// The same frame with a value set.
    pub fn with(mut self, name: impl Into<String>, value: Value) -> Frame {
        self.vars.insert(name.into(), value);
        self
    }

    /// A value, if set.
    pub fn var(&self, name: &str) -> Option<&Value> {
        self.vars.get(name)
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winners (several for a shared win; all players for a draw).
    pub winners: Vec<PlayerId>,
    /// The ruleset's explanation (`most glory`, `tie broken by ...`).
    pub reason: String,
}

/// A broken invariant of the state, found by [`GameState::check_invariants`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvariantError {
    /// A card sits in no zone or in several.
    #[error("{card} is in {count} zones; every card must be in exactly one")]
    CardNotConserved {
        /// The card.
        card: CardId,
        /// How many zones hold it.
        count: usize,
    },
    /// A zone names a card that does not exist.
    #[error("zone {zone} holds unknown {card}")]
    UnknownCardInZone {
        /// The zone.
        zone: String,
        /// The card.
        card: CardId,
    },
    /// Two pieces of the same layer share a position.
    #[error("{first} and {second} both stand at {position} in the same layer")]
    SharedPosition {
        /// One piece.
        first: PieceId,
        /// The other.
        second: PieceId,
        /// Where.
        position: Position,
    },
}

impl Default for GameState {
    /// An empty game with no players, seeded with 0: `GameState::new(0, &[])`. Hosts swap
    /// it in for a state they lend out, once per script run, so it is a copy of one kept
    /// per thread (its shared maps are counted, not allocated again).
    fn default() -> GameState {
        thread_local! {
            static EMPTY: GameState = GameState::new(0, &[]);
        }
        // While the thread's locals are being destroyed there is no kept copy: make one.
        EMPTY
            .try_with(GameState::clone)
            .unwrap_or_else(|_| GameState::new(0, &[]))
    }
}

impl GameState {
    /// An empty game for the named players, seeded with `seed`.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::GameState;
    /// let state = GameState::new(7, &["Ann", "Bo"]);
    /// assert_eq!(state.players.len(), 2);
    /// ```
    pub fn new(seed: u64, player_names: &[&str]) -> GameState {
        let players = player_names
            .iter()
            .enumerate()
            .map(|(index, name)| Player {
                id: PlayerId(index as u8),
                name: (*name).to_owned(),
                counters: BTreeMap::new(),
                tokens: BTreeMap::new(),
            })
            .collect::<Vec<_>>();
        GameState {
            seed,
            rng: GameRng::from_seed(seed),
            players: Arc::new(players),
            pieces: Arc::default(),
            cards: Arc::default(),
            zones: Arc::default(),
            counters: Arc::default(),
            tokens: Arc::default(),
            hex_types: Arc::default(),
            fixed_faces: Vec::new(),
            chance: None,
            modifiers: crate::Modifiers::default(),
            floors: Arc::default(),
            flow: Arc::default(),
            pending: None,
            result: None,
        }
    }

    /// A player, if the id is seated.
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.get(id.0 as usize)
    }

    /// A piece, if it exists.
    pub fn piece(&self, id: PieceId) -> Option<&Piece> {
        self.pieces.get(&id).map(|piece| &**piece)
    }

    /// The piece of the default layer (a fighter, a model) standing at `position`, if any.
    pub fn piece_at(&self, position: Position) -> Option<PieceId> {
        self.piece_at_in(position, "")
    }

    /// The piece of `layer` at `position`, if any.
    pub fn piece_at_in(&self, position: Position, layer: &str) -> Option<PieceId> {
        self.pieces
            .values()
            .find(|piece| piece.position == Some(position) && piece.layer == layer)
            .map(|piece| piece.id)
    }

    /// Every piece at `position`, of every layer, by id.
    pub fn pieces_at(&self, position: Position) -> Vec<PieceId> {
        self.pieces
            .values()
            .filter(|piece| piece.position == Some(position))
            .map(|piece| piece.id)
            .collect()
    }

    /// The piece standing on `hex`, if any.
    pub fn piece_on(&self, hex: Hex) -> Option<PieceId> {
        self.piece_at(Position::Hex(hex))
    }

    /// A piece's characteristic after modifiers and the characteristic's floor.
    ///
    /// `None` if the piece or its base characteristic does not exist.
    pub fn characteristic(&self, id: PieceId, name: &str) -> Option<i64> {
        let piece = self.pieces.get(&id)?;
        let base = *piece.characteristics.get(name)?;
        let floor = self.floors.get(name).copied();
        let scope = crate::ModScope::piece(id).owned_by(piece.owner);
        Some(self.modifiers.value(scope, name, base, floor, None))
    }

    /// A game counter, 0 when unset.
    pub fn counter(&self, name: &str) -> i64 {
        self.counters.get(name).copied().unwrap_or(0)
    }

    /// The zone holding `card`, if any.
    pub fn zone_of(&self, card: CardId) -> Option<&ZoneId> {
        self.zones
            .iter()
            .find(|(_, zone)| zone.cards.contains(&card))
            .map(|(id, _)| id)
    }

    /// The cards of a zone, top first (empty if the zone does not exist).
    pub fn zone_cards(&self, zone: &ZoneId) -> &[CardId] {
        self.zone_cards_at(ZoneKey::of(zone))
    }

    /// The cards of the zone `key` names, top first (empty if the zone does not exist): as
    /// [`GameState::zone_cards`], with no zone id made.
    pub fn zone_cards_at(&self, key: ZoneKey<'_>) -> &[CardId] {
        self.zones
            .get(&key as &dyn ZoneParts)
            .map_or(&[], |z| z.cards.as_slice())
    }

    /// Checks the kernel's invariants: every card in exactly one zone, no two pieces on one
    /// position.
    pub fn check_invariants(&self) -> Result<(), InvariantError> {
        self.check_cards()?;
        self.check_positions()
    }

    /// Every card in exactly one zone. Checked after every decision by simulators: when the
    /// card ids are `0..n` (as a game deals them), each count is kept at the card's own
    /// index; otherwise the cards in id order (the map's order) and a binary search each.
    fn check_cards(&self) -> Result<(), InvariantError> {
        let len = self.cards.len();
        // Distinct ids in order, the first 0 and the last `len - 1`: they are `0..len`.
        let dense = self.cards.keys().next().is_none_or(|first| first.0 == 0)
            && self
                .cards
                .keys()
                .next_back()
                .is_none_or(|last| last.0 as usize + 1 == len);
        let ids: Vec<CardId> = if dense {
            Vec::new()
        } else {
            self.cards.keys().copied().collect()
        };
        let index_of = |card: &CardId| {
            if dense {
                Some(card.0 as usize).filter(|&index| index < len)
            } else {
                ids.binary_search(card).ok()
            }
        };
        let mut seen = vec![0usize; len];
        for (zone_id, zone) in self.zones.iter() {
            for card in &zone.cards {
                match index_of(card) {
                    Some(index) => seen[index] += 1,
                    None => {
                        return Err(InvariantError::UnknownCardInZone {
                            zone: zone_id.to_string(),
                            card: *card,
                        });
                    }
                }
            }
        }
        if let Some((index, &count)) = seen.iter().enumerate().find(|(_, count)| **count != 1) {
            let card = if dense {
                CardId(index as u32)
            } else {
                ids[index]
            };
            return Err(InvariantError::CardNotConserved { card, count });
        }
        Ok(())
    }

    /// No two pieces of one layer on one position. Of several such pairs, the one reported
    /// is the one met first going through the pieces in id order: the piece with the lowest
    /// id that stands where an earlier one does, and that earlier piece.
    fn check_positions(&self) -> Result<(), InvariantError> {
        let mut placed: Vec<(&str, Position, PieceId)> = self
            .pieces
            .values()
            .filter_map(|piece| Some((piece.layer.as_str(), piece.position?, piece.id)))
            .collect();
        placed.sort_unstable();
        // In each group sharing a place, in id order, the first two pieces.
        let clash = placed
            .windows(2)
            .enumerate()
            .filter(|(at, pair)| {
                let same = |a: &(&str, Position, PieceId), b: &(&str, Position, PieceId)| {
                    a.0 == b.0 && a.1 == b.1
                };
                same(&pair[0], &pair[1]) && (*at == 0 || !same(&placed[at - 1], &pair[0]))
            })
            .map(|(_, pair)| (pair[0].2, pair[1].2, pair[1].1))
            .min_by_key(|&(_, second, _)| second);
        match clash {
            Some((first, second, position)) => Err(InvariantError::SharedPosition {
                first,
                second,
                position,
            }),
            None => Ok(()),
        }
    }
}
