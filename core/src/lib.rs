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
//!
//! A game is a [`Game`]: a [`GameState`] driven by a [`Rules`] implementation through a
//! [`Ctx`] that records every change as an [`Event`]; hosts answer the [`Request`]s it
//! raises with [`Answer`]s. See `ARCHITECTURE.md` for the whole picture.

mod board;
mod decision;
mod dice;
mod event;
mod game;
mod hex;
mod ids;
mod modifier;
mod movement;
mod push;
mod rng;
mod sight;
mod state;
mod table;
mod table_candidates;
mod table_footprint;
mod table_group;
mod table_path;
mod value;
mod view;

pub use board::{
    BOARD_COORD_LIMIT, Battlefield, BattlefieldHex, Board, BoardHex, HexSource, JoinError,
    Placement,
};
pub use decision::{Answer, Choice, DecisionError, Options, Request};
pub use dice::{
    ChanceOutcome, Dice, DiceError, DiceExpr, DiceRoom, DieDef, DieFace, ExprDie, ExprRoll,
    FaceCount, FinalTie, MAX_REROLL_ROUNDS, OpposedOutcome, OpposedRoll, OpposedRound, PlayerRoll,
    Pool, PoolEntry, Ratio, RerollRecord, Roll, RollOff, RollOffRank, RollOffRound, RollOffRule,
    RolledDie, TieRule, chance_at_least, roll_opposed, success_distribution_of,
};
pub use event::{DieResult, Event, Scope};
pub use game::{
    ChanceMode, ChanceRequest, Control, Ctx, DEFAULT_MAX_STEPS, Game, GameError, Pending, Record,
    RuleError, Rules, Setup,
};
pub use hex::{Direction, Hex};
pub use ids::{CardId, GroupId, ModifierId, PieceId, PlayerId};
pub use modifier::{
    Duration, Ending, EventMatch, EventSubject, ExplainCause, ExplainStep, Explanation, ModOp,
    ModScope, ModTarget, Modifier, ModifierError, ModifierSpec, Modifiers, Occurrence, Overridden,
};
pub use movement::{
    Grid, MAX_ROUTE_MARKS, MoveError, Passage, Reach, SimpleGrid, StepError, can_reach,
    path_avoiding, path_is_legal, reachable, reachable_avoiding, reachable_flying, routes_to,
};
pub use push::{
    MAX_PUSH_DISTANCE, PushConstraint, PushDistance, PushError, PushPath, drive_back_hexes,
    is_trapped, knockback_hexes, push_destinations, push_paths, validate_push,
};
pub use rng::GameRng;
pub use sight::{Sight, SightError};
pub use state::{
    Card, Frame, GameResult, GameState, InvariantError, Piece, Player, Position, Visibility, Zone,
    ZoneId, ZoneKey,
};
pub use table::{
    ArcSide, ArcSpec, Area, COORD_LIMIT, FACING_LIMIT, Figure, HalfAngle, Length, LengthUnit,
    Point, TableError, Terrain, arc_of, base_contact, blocking_terrain, compare_edge_distance,
    distance_edge_to_edge, line_of_sight, overlapping, path_length, segment_clear,
    validate_polygon, wholly_within, wholly_within_distance, within, within_area,
};
pub use table_candidates::{
    Candidate, CandidateKind, Lattice, formation_candidates, placement_candidates,
};
pub use table_footprint::{
    FootprintLimits, FootprintRefused, Shape, check_footprint, footprint_at, footprint_candidates,
    footprint_gap_cmp, footprint_wholly_within,
};
pub use table_group::{
    Coherency, CoherencyBreak, Gap, Scene, SceneError, Subject, TablePiece, Target,
    check_coherency, controller,
};
pub use table_path::{
    PathLimits, PlaceLimits, Refusal, Refused, check_formation, check_group_paths, check_path,
    check_placement,
};
pub use value::Value;
pub use view::{PlayerView, ZoneView};
