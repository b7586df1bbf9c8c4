//! Small serialisable values that rules keep between steps and attach to events.

use serde::{Deserialize, Serialize};

use crate::{CardId, Hex, PieceId, PlayerId};

/// A value a ruleset stores in a frame or attaches to a marker event.
///
/// Integers only: rules are integer arithmetic.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Value {
    /// Nothing.
    Unit,
    /// A whole number.
    Int(i64),
    /// A truth value.
    Bool(bool),
    /// A string (a name from the ruleset's vocabulary).
    Str(String),
    /// A player.
    Player(PlayerId),
    /// A piece.
    Piece(PieceId),
    /// A card.
    Card(CardId),
    /// A hex.
    Hex(Hex),
    /// A list of values.
    List(Vec<Value>),
}

impl Value {
    /// The integer inside, if this is an `Int`.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(*n),
            _ => None,
        }
    }

    /// The piece inside, if this is a `Piece`.
    pub fn as_piece(&self) -> Option<PieceId> {
        match self {
            Value::Piece(id) => Some(*id),
            _ => None,
        }
    }

    /// The string inside, if this is a `Str`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}
