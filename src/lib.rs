//! gloam: plays tabletop skirmish games from data.
pub use gloam_core as core;
