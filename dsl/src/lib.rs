//! # gloam-dsl: the script host
//!
//! Cards, abilities and rulesets carry small [Rhai](https://rhai.rs) scripts. This crate
//! compiles each one once, at load, checks every call against a fixed [`vocabulary`],
//! sandboxes it ([`Limits`]: no `eval`, no modules, no output, no clock, no floats) and runs
//! it against a game. Scripts never hold the game state: queries read it, effects change it
//! through the kernel's [`gloam_core::Ctx`], so every change is an event.
//!
//! ```
//! use gloam_core::{Battlefield, Ctx, Dice, GameState, Hex, PlayerId, Position, Value};
//! use gloam_dsl::{Bindings, Host, Outcome, ScriptContext, ScriptSource, World};
//!
//! // 1. Build the host once; compile each script once.
//! let host = Host::new();
//! let file = "card \"Shove\" {\n    effect = { if push(target, 1) { give_token(target, \"stagger\"); } }\n}\n";
//! let start = file.find("if push").unwrap();
//! let end = file.rfind(" }").unwrap();
//! let source = ScriptSource::new("shove.gloam", file, start, end);
//! let context = ScriptContext::effect("card \"Shove\" effect").with_variables(["this_card", "player", "target"]);
//! let script = host.compile(&source, &context).map_err(|errors| errors[0].to_string())?;
//!
//! // 2. A game, and the world it is played in.
//! let mut state = GameState::new(7, &["Ann", "Bo"]);
//! let mut events = Vec::new();
//! let target = {
//!     let mut ctx = Ctx::new(&mut state, &mut events);
//!     let piece = ctx.create_piece(PlayerId(1), "brute", []).unwrap();
//!     ctx.place_piece(piece, Some(Position::Hex(Hex::ORIGIN)), vec![], "deploy").unwrap();
//!     piece
//! };
//! let battlefield = Battlefield::from_hexes(Hex::ORIGIN.range(2).into_iter().map(|h| (h, Vec::<String>::new())));
//! let world = World::new(battlefield, ["blocked"], false, Dice::new());
//! let bindings = Bindings::new().acting(PlayerId(0)).with("target", Value::Piece(target));
//!
//! // 3. Run it. The push has six destinations, so the acting player must choose.
//! let mut answers = Vec::new();
//! let request = match host.run(&script, &world, &mut state, &mut events, &bindings, &answers) {
//!     Ok(Outcome::NeedsChoice(request)) => request,
//!     other => panic!("{other:?}"),
//! };
//! assert_eq!(state.piece(target).unwrap().position, Some(Position::Hex(Hex::ORIGIN))); // unchanged
//!
//! // 4. Record the answer and run again from the start.
//! answers.push(request.enumerate(10).unwrap()[0].clone());
//! let outcome = host.run(&script, &world, &mut state, &mut events, &bindings, &answers);
//! assert_eq!(outcome, Ok(Outcome::done(Value::Unit)));
//! assert_eq!(state.piece(target).unwrap().tokens["stagger"], 1);
//! # Ok::<(), String>(())
//! ```
//!
//! A script that queues the rules' flow (`then("attack_step")`, `play_card(c, f)`,
//! `use_ability(f, name)`, `end_game(winners, reason)`) returns it in [`Outcome::Done`] as
//! [`FlowRequest`]s, for the rules driver to run. Card queries (`card_kind`, `condition_holds`...) read the
//! [`World`]'s catalog of [`CardInfo`], which holds each card's compiled condition; fighter
//! queries (`weapons`, `reactions_of`, `inspire_condition_holds`...) read its catalog of
//! [`FighterInfo`] and [`AbilityInfo`].
//!
//! Conditions (restrictions, inspire conditions) compile with [`ScriptContext::condition`]
//! and run with [`Host::evaluate_bool`]; they may call only queries. Names written as string
//! literals (`has_token(f, "guard")`) are checked against the ruleset's [`KnownNames`],
//! given with [`ScriptContext::with_names`]. A [`TriggerIndex`]
//! tells which listeners wait for a window or event. Every problem is a [`DslDiagnostic`]
//! with a stable code ([`list_codes`]) labelled in the file that holds the script.
//!
//! Rhai stays inside: no Rhai type appears in this API.

mod abilities;
mod cards;
mod check;
mod combat;
mod compiled;
mod diagnostic;
mod fighters;
mod flow;
mod functions;
mod host;
mod known;
mod limits;
mod moves;
pub mod profile;
mod runtime;
mod source;
mod table;
mod table_setup;
mod terrain;
mod triggers;
mod values;
mod variables;
mod vocabulary;
mod world;

pub use compiled::ScriptEngine;
pub use diagnostic::{DslDiagnostic, list_codes};
pub use flow::FlowRequest;
pub use functions::SAY;
pub use host::{Host, Outcome, Script, ScriptContext, ScriptKind};
pub use known::KnownNames;
pub use limits::Limits;
pub use source::ScriptSource;
pub use table::{Feature, TERRAIN_LAYER, Table};
pub use triggers::{ListenerId, TriggerIndex};
pub use variables::{EVENT_VARIABLES, FIGHTER_CARD_KINDS, Place, STEP_VARIABLES, Window};
pub use vocabulary::{FunctionDoc, FunctionKind, NameKind, Param, docs_markdown, vocabulary};
pub use world::{
    AbilityInfo, ArmyAbility, ArmyInfo, Bindings, CardInfo, CardRestriction, FighterInfo,
    ModelWeapon, Names, PartyInfo, ProfileValue, Side, WeaponInfo, World,
};
