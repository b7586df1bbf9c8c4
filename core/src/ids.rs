//! Identifier newtypes. Ids are small, ordered and stable for the life of a game.

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident($inner:ty), $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub $inner);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

id_type!(
    /// A player (seat), numbered from 0 in seating order.
    PlayerId(u8),
    "player"
);
id_type!(
    /// A piece on the battlefield: an Underworlds fighter, a tabletop model.
    PieceId(u16),
    "piece"
);
id_type!(
    /// One physical card in a game (two copies of the same card have two ids).
    CardId(u32),
    "card"
);
id_type!(
    /// A modifier applied during a game.
    ModifierId(u32),
    "modifier"
);
id_type!(
    /// A group of pieces on a measured table: a unit of several models, or a lone hero (a
    /// group of one).
    GroupId(u32),
    "group"
);
