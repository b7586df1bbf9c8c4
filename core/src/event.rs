//! Events: the record of every change to a game.
//!
//! The kernel appends one event for every change it makes to the state, in order. The
//! event log of a game is a function of the ruleset, the setup, the seed and the
//! decisions: replaying those gives the same log, byte for byte once serialised.

use serde::{Deserialize, Serialize};

use crate::{
    Answer, CardId, Hex, ModifierId, PieceId, PlayerId, Position, Value, Visibility, ZoneId,
};

/// What an event is about: the game, a player or a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// The game as a whole.
    Game,
    /// One player.
    Player(PlayerId),
    /// One piece.
    Piece(PieceId),
}

/// One die as rolled, for the event log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieResult {
    /// The die's definition name (`attack`, `d6`).
    pub die: String,
    /// The face rolled (`hammer`, `4`).
    pub face: String,
}

/// One change to a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Event {
    /// A named moment of the rules (`round_start`, `attack_resolved`): triggers and
    /// durations listen for these. The kernel gives the names no meaning.
    Marker {
        /// The moment's name.
        name: String,
        /// What it is about.
        scope: Scope,
        /// Values the ruleset attaches (the attacker, the target...).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        data: Vec<(String, Value)>,
    },
    /// A piece entered the game.
    PieceCreated {
        /// The new piece.
        piece: PieceId,
        /// Its owner.
        owner: PlayerId,
        /// Its definition name.
        kind: String,
        /// Its layer (empty for the default layer).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        layer: String,
    },
    /// A piece changed position (placed, moved, pushed, removed).
    PieceMoved {
        /// The piece.
        piece: PieceId,
        /// Where it was.
        from: Option<Position>,
        /// Where it is now.
        to: Option<Position>,
        /// The hexes it passed through, start and end included, when known.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        path: Vec<Hex>,
        /// How (`move`, `push`, `deploy`, `out_of_action`): the ruleset's word.
        how: String,
    },
    /// A counter changed.
    CounterChanged {
        /// Whose counter.
        scope: Scope,
        /// Its name.
        name: String,
        /// The value before.
        from: i64,
        /// The value after.
        to: i64,
    },
    /// A number of tokens changed.
    TokensChanged {
        /// Who holds them.
        scope: Scope,
        /// The token's name.
        token: String,
        /// The number before.
        from: i64,
        /// The number after.
        to: i64,
    },
    /// A hex gained or lost a type given in play ([`crate::GameState::hex_types`]).
    HexTypeChanged {
        /// The hex.
        hex: Hex,
        /// The type's name.
        name: String,
        /// Whether the hex has the type now.
        present: bool,
    },
    /// A piece's base characteristic changed (an Inspired side, a new profile).
    CharacteristicChanged {
        /// The piece.
        piece: PieceId,
        /// The characteristic.
        name: String,
        /// The base value before, if any.
        from: Option<i64>,
        /// The base value after.
        to: i64,
    },
    /// A keyword was given to or taken from a piece.
    KeywordChanged {
        /// The piece.
        piece: PieceId,
        /// The keyword.
        keyword: String,
        /// Whether the piece carries it now.
        present: bool,
    },
    /// A zone was created.
    ZoneCreated {
        /// The zone.
        zone: ZoneId,
        /// Who may see its cards.
        visibility: Visibility,
    },
    /// A card entered the game, into a zone.
    CardCreated {
        /// The card.
        card: CardId,
        /// Its definition name.
        name: String,
        /// Where it was put.
        zone: ZoneId,
    },
    /// A card moved between zones (or within one).
    CardMoved {
        /// The card.
        card: CardId,
        /// Its definition name.
        name: String,
        /// The zone it left.
        from: ZoneId,
        /// The zone it entered.
        to: ZoneId,
        /// Its index in the new zone (0 = top).
        index: usize,
    },
    /// A card moved where this viewer may not know which card it was.
    HiddenCardMoved {
        /// The zone it left.
        from: ZoneId,
        /// The zone it entered.
        to: ZoneId,
    },
    /// A zone's cards were shuffled.
    Shuffled {
        /// The zone.
        zone: ZoneId,
    },
    /// A card entered a zone this viewer may not see into.
    HiddenCardCreated {
        /// Where it was put.
        zone: ZoneId,
    },
    /// Dice were rolled.
    Rolled {
        /// Who rolled, if a player did.
        player: Option<PlayerId>,
        /// What the roll was for, in the ruleset's words.
        purpose: String,
        /// The dice, in order.
        dice: Vec<DieResult>,
    },
    /// The next dice of a kind were loaded: they will show `faces`, in order
    /// (`Ctx::fix_dice`). Players see that dice were loaded, never the faces.
    DiceFixed {
        /// The kind of die.
        die: String,
        /// The faces, in the order the dice will show them; empty when redacted.
        faces: Vec<String>,
    },
    /// One die of an earlier roll was rolled again.
    Rerolled {
        /// What the roll was for.
        purpose: String,
        /// The die's index in the roll.
        index: usize,
        /// The die as it was.
        before: DieResult,
        /// The die as it is now.
        after: DieResult,
    },
    /// A number was drawn from the RNG for a ruleset's own use (a random pick).
    Drew {
        /// What for.
        purpose: String,
        /// The bound (the number is in `0..bound`).
        bound: u32,
        /// The number.
        value: u32,
    },
    /// A modifier was applied.
    ModifierAdded {
        /// Its id.
        id: ModifierId,
        /// The modifier.
        modifier: crate::ModifierSpec,
    },
    /// A modifier ended (its duration ran out, or a rule removed it).
    ModifierRemoved {
        /// Its id.
        id: ModifierId,
    },
    /// A characteristic's floor was declared.
    FloorSet {
        /// The characteristic.
        name: String,
        /// The lowest value modifiers can bring it to.
        floor: i64,
    },
    /// A player answered a decision.
    Decided {
        /// Who.
        player: PlayerId,
        /// What was asked (the request's `kind`).
        kind: String,
        /// The answer.
        answer: Answer,
    },
    /// A player answered a hidden decision; the answer is revealed later.
    DecidedHidden {
        /// Who.
        player: PlayerId,
        /// What was asked.
        kind: String,
    },
    /// Hidden answers were revealed together.
    Revealed {
        /// Each player's answer.
        answers: Vec<(PlayerId, Answer)>,
    },
    /// The game ended.
    GameEnded {
        /// The result.
        result: crate::GameResult,
    },
}

impl Event {
    /// This event as `viewer` may see it, given the visibility of the zones involved.
    ///
    /// `zone_visibility` returns the visibility of a zone (as it was when the event
    /// happened, which zones keep for a whole game).
    pub fn redacted_for(
        &self,
        viewer: PlayerId,
        zone_visibility: impl Fn(&ZoneId) -> Visibility,
    ) -> Event {
        let sees = |zone: &ZoneId| match zone_visibility(zone) {
            Visibility::Public => true,
            Visibility::Owner => zone.owner == viewer,
            Visibility::Nobody => false,
        };
        match self {
            Event::DiceFixed { die, .. } => Event::DiceFixed {
                die: die.clone(),
                faces: Vec::new(),
            },
            Event::CardMoved { from, to, .. } if !sees(from) && !sees(to) => {
                Event::HiddenCardMoved {
                    from: from.clone(),
                    to: to.clone(),
                }
            }
            Event::CardCreated { zone, .. } if !sees(zone) => {
                Event::HiddenCardCreated { zone: zone.clone() }
            }
            _ => self.clone(),
        }
    }
}
