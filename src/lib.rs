//! # gloam
//!
//! Plays tabletop skirmish games from data. This facade re-exports the kernel
//! ([`core`], the `gloam-core` package) and adds what hosts share: agents that play from
//! the legal options, narration of events, and the kernel demonstration game.
//!
//! ```
//! use gloam::agent::{Agent, RandomAgent};
//! use gloam::core::{Game, Setup};
//! use gloam::demo::Demo;
//!
//! let demo = Demo::builtin().unwrap();
//! let mut game = Game::start(demo, Setup::new(7, &["Ann", "Bo"]), Demo::first_frames()).unwrap();
//! let mut agent = RandomAgent::new(7);
//! while !game.is_over() {
//!     let request = game.pending()[0].clone();
//!     let answer = agent.choose(&game.view(request.player), &request);
//!     game.submit(request.player, answer).unwrap();
//! }
//! assert!(game.state().result.is_some());
//! ```

pub use gloam_core as core;

pub mod agent;
pub mod demo;
pub mod engine;
pub mod geom;
pub mod load;
pub mod narrate;
#[cfg(feature = "cli")]
pub mod report;
pub mod rules_diff;
pub mod save;
pub mod sim;
pub mod text;
pub mod trial;
pub mod world;
