//! # gloam-core: the kernel
//!
//! Exact hex and table geometry, dice defined by data, a seeded RNG with a pinned
//! algorithm, game state, events and decisions. The kernel holds no rule of any game:
//! rulesets (data under `cards/`, run by `gloam-dsl`) combine these primitives.
//!
//! ```
//! use gloam_core::{Hex, GameRng};
//! let here = Hex::new(0, 0);
//! assert_eq!(here.distance_to(Hex::new(3, -1)), 3);
//! let mut rng = GameRng::from_seed(1);
//! assert!(rng.below(6) < 6);
//! ```

mod hex;
mod ids;
mod rng;

pub use hex::{Direction, Hex};
pub use ids::{CardId, ModifierId, PieceId, PlayerId};
pub use rng::GameRng;
