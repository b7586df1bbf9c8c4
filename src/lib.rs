//! # gloam
//!
//! Plays tabletop skirmish games from data. This facade re-exports the kernel
//! ([`core`], the `gloam-core` package) and adds what hosts share: agents that play from
//! the legal options, narration of events, the ruleset driver that plays a game from data,
//! saves, simulations and card-text checks.
//!
//! ```
//! use gloam::agent::{Agent, RandomAgent};
//! use gloam::core::Game;
//! use gloam::engine::RulesetGame;
//!
//! let cards = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cards"));
//! let rules = gloam::sim::prepare(&[cards], "shadespire").unwrap();
//! let mut game = Game::start(rules.clone(), rules.setup(7), RulesetGame::first_frames()).unwrap();
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
pub mod engine;
pub mod exact;
pub mod geom;
pub mod load;
pub mod narrate;
pub mod odds;
pub mod odds_table;
pub mod protocol;
pub mod render;
#[cfg(feature = "cli")]
pub mod report;
pub mod rules_diff;
pub mod save;
pub mod sim;
pub mod table_text;
pub mod text;
pub mod trial;
pub mod world;
