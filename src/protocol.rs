//! The JSON-lines protocol that hosts in any language use to drive games: one request
//! object per line in, one reply object per line out (`docs/protocol.md` is the normative
//! specification, `docs/protocol/*.schema.json` its JSON Schemas).
//!
//! A [`Session`] loads a library of data once and holds any number of games, each named by
//! a number the session hands out in order (1, 2, ...), so the same request lines always
//! give the same reply lines, byte for byte: a session's input log is a replay.
//! `gloam serve --stdio`, the C library (`capi/`) and the Python package all drive a game
//! through this one type.
//!
//! ```
//! use gloam::protocol::Session;
//!
//! let cards = concat!(env!("CARGO_MANIFEST_DIR"), "/cards");
//! let mut session = Session::new(&[cards.into()]).unwrap();
//! let reply = session.handle_line(r#"{"id": 1, "cmd": "new_game", "ruleset": "harrowdeep", "seed": 7}"#);
//! let reply: serde_json::Value = serde_json::from_str(&reply).unwrap();
//! assert_eq!(reply["game"], 1);
//! let first = &reply["pending"][0];
//! let answer = format!(
//!     r#"{{"id": 2, "cmd": "answer", "game": 1, "player": {}, "answer": {{"option": 0}}}}"#,
//!     first["player"]
//! );
//! # if first["kind"] == "one" {
//! let reply: serde_json::Value = serde_json::from_str(&session.handle_line(&answer)).unwrap();
//! assert!(reply.get("error").is_none());
//! # }
//! // An illegal answer is refused and changes nothing.
//! let reply = session.handle_line(r#"{"id": 3, "cmd": "answer", "game": 1, "player": 0, "answer": {"option": 999}}"#);
//! assert!(reply.contains(r#""error""#));
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;

use gloam_core::{
    Answer, Choice, DecisionError, Event, Game, GameError, GameResult, GameState, Options,
    PlayerId, PlayerView, Record, Request, Setup, Visibility, ZoneId,
};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::engine::{MatchSpec, RulesetGame, Seat};
use crate::load::Loaded;

/// The format tag of the records that `record` returns and `load` reads.
pub const RECORD_FORMAT: &str = "gloam-record/1";

/// The version of the protocol this module speaks (`docs/protocol.md`).
pub const PROTOCOL_VERSION: u32 = 1;

/// A game id within a session: 1 for the first game made, then 2, 3, ...; never reused.
pub type GameId = u64;

/// A request from the host (the line's `cmd` selects the variant).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Command {
    /// Starts a game.
    NewGame {
        /// The request's id, echoed in the reply.
        #[serde(default)]
        id: Option<Json>,
        /// The ruleset's name.
        ruleset: String,
        /// The RNG seed.
        #[serde(default)]
        seed: u64,
        /// How many seats (default 2) for the ruleset's default match.
        #[serde(default)]
        players: Option<usize>,
        /// The seats in full (name, warband, decklist, board), instead of the default match.
        #[serde(default)]
        seats: Option<Vec<Seat>>,
        /// Whose eyes the reply's events are seen through (every event when absent).
        #[serde(default)]
        viewer: Option<u8>,
    },
    /// Answers a pending request.
    Answer {
        /// The request's id.
        #[serde(default)]
        id: Option<Json>,
        /// The game.
        game: GameId,
        /// The answering player.
        player: u8,
        /// The answer.
        answer: HostAnswer,
        /// Whose eyes the reply's events are seen through.
        #[serde(default)]
        viewer: Option<u8>,
    },
    /// What one player may see now.
    View {
        /// The request's id.
        #[serde(default)]
        id: Option<Json>,
        /// The game.
        game: GameId,
        /// The viewer.
        player: u8,
    },
    /// The event log from an index, as a player sees it or whole.
    Events {
        /// The request's id.
        #[serde(default)]
        id: Option<Json>,
        /// The game.
        game: GameId,
        /// The viewer (every event unredacted when absent).
        #[serde(default)]
        player: Option<u8>,
        /// The first event to return (default 0).
        #[serde(default)]
        from: usize,
    },
    /// The game's record: its match, setup and every answer.
    Record {
        /// The request's id.
        #[serde(default)]
        id: Option<Json>,
        /// The game.
        game: GameId,
    },
    /// Replays a record into a new game.
    Load {
        /// The request's id.
        #[serde(default)]
        id: Option<Json>,
        /// A record returned by `record`.
        record: GameRecord,
        /// Whose eyes the reply's events are seen through.
        #[serde(default)]
        viewer: Option<u8>,
    },
    /// Copies a game into a new, independent game.
    Clone {
        /// The request's id.
        #[serde(default)]
        id: Option<Json>,
        /// The game to copy.
        game: GameId,
    },
    /// Forgets a game.
    Close {
        /// The request's id.
        #[serde(default)]
        id: Option<Json>,
        /// The game.
        game: GameId,
    },
    /// Turns chance mode on or off: on, the game stops before each roll and the game
    /// replies describe it (`chance`), for a host to pick the outcome (`apply_chance`).
    ChanceMode {
        /// The request's id.
        #[serde(default)]
        id: Option<Json>,
        /// The game.
        game: GameId,
        /// On or off.
        on: bool,
    },
    /// Continues a game waiting on a roll with one of the roll's outcomes.
    ApplyChance {
        /// The request's id.
        #[serde(default)]
        id: Option<Json>,
        /// The game.
        game: GameId,
        /// The outcome, by its index in the reply's `chance.outcomes`.
        outcome: i64,
        /// Whose eyes the reply's events are seen through.
        #[serde(default)]
        viewer: Option<u8>,
    },
}

/// The commands the protocol knows, as written in `cmd`.
pub const COMMANDS: [&str; 10] = [
    "new_game",
    "answer",
    "view",
    "events",
    "record",
    "load",
    "clone",
    "close",
    "chance_mode",
    "apply_chance",
];

/// An answer as a host writes it: indices into the pending request's `options`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum HostAnswer {
    /// One option, for a request of kind `one`.
    Option(i64),
    /// Several distinct options, for a request of kind `several`.
    Options(Vec<i64>),
    /// Every option once, in the chosen order, for a request of kind `order`.
    Order(Vec<i64>),
    /// A free position on a table, in tenths of a millimetre, for a request of kind
    /// `point`.
    Point([i64; 2]),
}

/// A record: everything needed to play a game again in any session with the same data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// Always [`RECORD_FORMAT`].
    pub format: String,
    /// The match: ruleset and seats.
    #[serde(rename = "match")]
    pub spec: MatchSpec,
    /// The setup: seed, players' names and the ruleset's options.
    pub setup: Setup,
    /// Every accepted answer, in order, with who gave it.
    pub answers: Vec<(PlayerId, Answer)>,
}

impl GameRecord {
    /// The kernel's record (setup and answers).
    pub fn record(&self) -> Record {
        Record {
            setup: self.setup.clone(),
            answers: self.answers.clone(),
        }
    }
}

/// A pending request as the protocol shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PendingRequest {
    /// Who must answer.
    pub player: PlayerId,
    /// The shape of the answer: `one`, `several`, `order` (or `point`, reserved for
    /// table games).
    pub kind: &'static str,
    /// What is asked, in the ruleset's words (`choose_action`).
    pub name: String,
    /// A sentence for a person.
    pub prompt: String,
    /// The options, each a choice (`type`, `value`) with a `label` for a person; answers
    /// give indices into this list.
    pub options: Vec<Json>,
    /// For `several`: the fewest options to pick.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    /// For `several`: the most options to pick.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
    /// Whether the answer stays hidden from the other players until the rules reveal it.
    pub secret: bool,
}

/// An error reply's body: a stable code and a sentence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProtocolError {
    /// A stable code (`unknown_game`, `wrong_player`, `out_of_range`... see
    /// `docs/protocol.md`).
    pub code: String,
    /// What went wrong and how to fix it.
    pub message: String,
}

impl ProtocolError {
    /// An error with `code` and `message`.
    pub fn new(code: &str, message: impl Into<String>) -> ProtocolError {
        ProtocolError {
            code: code.to_owned(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ProtocolError {}

#[derive(Serialize)]
struct GameReply<'a> {
    id: &'a Json,
    game: GameId,
    events: Vec<Event>,
    pending: Vec<PendingRequest>,
    over: Option<GameResult>,
    /// In chance mode, the roll the game waits on (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    chance: Option<ChanceNode>,
}

/// A roll waiting for its outcome, in chance mode: who rolls, what for, the dice, and every
/// outcome (dice of a kind pooled by face) with its exact chance, `"p/q"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChanceNode {
    /// The player rolling, if the rules named one.
    pub player: Option<u8>,
    /// What the roll is for, in the ruleset's words.
    pub purpose: String,
    /// The dice rolled.
    pub pool: gloam_core::Pool,
    /// Every outcome with its chance; the chances sum to 1.
    pub outcomes: Vec<ChanceChoice>,
}

/// One outcome of a roll and its exact chance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChanceChoice {
    /// The faces, `[{"die", "face", "count"}]`.
    pub outcome: gloam_core::ChanceOutcome,
    /// Its chance as an exact fraction `"p/q"` (`"1"` when certain).
    pub p: String,
}

/// The roll `game` waits on, in chance mode.
pub fn chance_of<R: gloam_core::Rules>(game: &Game<R>) -> Option<ChanceNode> {
    let request = game.chance_pending()?;
    let outcomes = game.chance_outcomes().ok()?;
    Some(ChanceNode {
        player: request.player.map(|player| player.0),
        purpose: request.purpose.clone(),
        pool: request.pool.clone(),
        outcomes: outcomes
            .into_iter()
            .map(|(outcome, p)| ChanceChoice {
                outcome,
                p: crate::odds::fraction(p),
            })
            .collect(),
    })
}

#[derive(Serialize)]
struct ViewReply<'a> {
    id: &'a Json,
    game: GameId,
    view: PlayerView,
}

#[derive(Serialize)]
struct EventsReply<'a> {
    id: &'a Json,
    game: GameId,
    from: usize,
    events: Vec<Event>,
}

#[derive(Serialize)]
struct RecordReply<'a> {
    id: &'a Json,
    game: GameId,
    record: GameRecord,
}

#[derive(Serialize)]
struct CloseReply<'a> {
    id: &'a Json,
    game: GameId,
    closed: bool,
}

#[derive(Serialize)]
struct ErrorReply<'a> {
    id: &'a Json,
    error: &'a ProtocolError,
}

/// A set of games played from one loaded library.
pub struct Session {
    loaded: Rc<Loaded>,
    host: Rc<gloam_dsl::Host>,
    games: BTreeMap<GameId, Game<RulesetGame>>,
    next_game: GameId,
    /// Games that took a roll's outcome from the host: their records would not replay them.
    chance_taken: std::collections::BTreeSet<GameId>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("games", &self.games.keys().collect::<Vec<_>>())
            .field("next_game", &self.next_game)
            .finish()
    }
}

impl Session {
    /// Loads the data files and folders `paths` and checks them; every problem found is
    /// reported in the error, one per line.
    pub fn new(paths: &[PathBuf]) -> Result<Session, String> {
        let host = Rc::new(gloam_dsl::Host::new());
        let (sources, mut problems) = crate::load::read_paths(paths);
        let (loaded, load_problems) = crate::load::load(&sources, &host);
        problems.extend(load_problems);
        if !problems.is_empty() {
            let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
            return Err(format!(
                "the data has {} problem(s) (run gloam check for details):\n{}",
                problems.len(),
                lines.join("\n")
            ));
        }
        Ok(Session::with_loaded(Rc::new(loaded), host))
    }

    /// A session over data already loaded and checked (with the host that compiled its
    /// scripts): no files are read. Several sessions can share one library this way.
    pub fn with_loaded(loaded: Rc<Loaded>, host: Rc<gloam_dsl::Host>) -> Session {
        Session {
            loaded,
            host,
            games: BTreeMap::new(),
            next_game: 1,
            chance_taken: std::collections::BTreeSet::new(),
        }
    }

    /// Handles one request line and returns one reply line (no newline). Never panics on
    /// input; an error reply changes nothing.
    pub fn handle_line(&mut self, line: &str) -> String {
        let parsed: Json = match serde_json::from_str(line) {
            Ok(value) => value,
            Err(error) => {
                return error_line(
                    &Json::Null,
                    &ProtocolError::new(
                        "malformed",
                        format!("the line is not JSON ({error}); send one JSON object per line"),
                    ),
                );
            }
        };
        self.handle_value(parsed)
    }

    /// Handles one request already parsed as JSON; returns one reply line.
    pub fn handle_value(&mut self, request: Json) -> String {
        let Some(object) = request.as_object() else {
            return error_line(
                &Json::Null,
                &ProtocolError::new("malformed", "a request is a JSON object"),
            );
        };
        let id = match object.get("id") {
            None => Json::Null,
            Some(id @ (Json::Number(_) | Json::String(_) | Json::Null)) => id.clone(),
            Some(_) => {
                return error_line(
                    &Json::Null,
                    &ProtocolError::new("malformed", "`id` must be a number, a string or null"),
                );
            }
        };
        match object.get("cmd") {
            Some(Json::String(cmd)) if COMMANDS.contains(&cmd.as_str()) => {}
            Some(Json::String(cmd)) => {
                let hint = gloam_grammar::closest(cmd, COMMANDS)
                    .map(|close| format!(" (did you mean `{close}`?)"))
                    .unwrap_or_default();
                return error_line(
                    &id,
                    &ProtocolError::new(
                        "unknown_command",
                        format!(
                            "no command `{cmd}`{hint}; the commands are {}",
                            COMMANDS.join(", ")
                        ),
                    ),
                );
            }
            _ => {
                return error_line(
                    &id,
                    &ProtocolError::new("malformed", "a request needs a `cmd` string"),
                );
            }
        }
        let command: Command = match serde_json::from_value(request) {
            Ok(command) => command,
            Err(error) => {
                return error_line(
                    &id,
                    &ProtocolError::new("malformed", format!("bad request: {error}")),
                );
            }
        };
        match self.run(command) {
            Ok(line) => line,
            Err(error) => error_line(&id, &error),
        }
    }

    /// The games open now, by id.
    pub fn games(&self) -> impl Iterator<Item = (GameId, &Game<RulesetGame>)> {
        self.games.iter().map(|(id, game)| (*id, game))
    }

    /// One open game.
    pub fn game(&self, game: GameId) -> Option<&Game<RulesetGame>> {
        self.games.get(&game)
    }

    fn game_ref(&self, game: GameId) -> Result<&Game<RulesetGame>, ProtocolError> {
        self.games.get(&game).ok_or_else(|| unknown_game(game))
    }

    fn run(&mut self, command: Command) -> Result<String, ProtocolError> {
        match command {
            Command::NewGame {
                id,
                ruleset,
                seed,
                players,
                seats,
                viewer,
            } => {
                let spec = match seats {
                    Some(seats) => {
                        if players.is_some_and(|n| n != seats.len()) {
                            return Err(ProtocolError::new(
                                "bad_setup",
                                "`players` and `seats` disagree; give one of them",
                            ));
                        }
                        MatchSpec {
                            ruleset,
                            seats,
                            table: None,
                        }
                    }
                    None => {
                        crate::sim::default_match_for(&self.loaded, &ruleset, players.unwrap_or(2))
                            .map_err(|message| ProtocolError::new("bad_setup", message))?
                    }
                };
                let rules = RulesetGame::new(self.loaded.clone(), self.host.clone(), spec)
                    .map_err(|error| ProtocolError::new("bad_setup", error.to_string()))?;
                let setup: Setup = rules.setup(seed);
                let game = Game::start(rules, setup, RulesetGame::first_frames())
                    .map_err(|error| ProtocolError::new("rule_failed", error.to_string()))?;
                check_viewer(&game, viewer)?;
                let line = game_line(&id.unwrap_or(Json::Null), self.next_game, &game, 0, viewer);
                self.insert(game);
                Ok(line)
            }
            Command::Answer {
                id,
                game: game_id,
                player,
                answer,
                viewer,
            } => {
                let game = self
                    .games
                    .get_mut(&game_id)
                    .ok_or_else(|| unknown_game(game_id))?;
                check_viewer(game, viewer)?;
                let player = PlayerId(player);
                let answer = translate(game, player, &answer)?;
                let before = game.events().len();
                game.submit(player, answer).map_err(refusal)?;
                Ok(game_line(
                    &id.unwrap_or(Json::Null),
                    game_id,
                    game,
                    before,
                    viewer,
                ))
            }
            Command::View { id, game, player } => {
                let found = self.game_ref(game)?;
                check_viewer(found, Some(player))?;
                Ok(to_line(&ViewReply {
                    id: &id.unwrap_or(Json::Null),
                    game,
                    view: found.view(PlayerId(player)),
                }))
            }
            Command::Events {
                id,
                game,
                player,
                from,
            } => {
                let found = self.game_ref(game)?;
                check_viewer(found, player)?;
                Ok(to_line(&EventsReply {
                    id: &id.unwrap_or(Json::Null),
                    game,
                    from,
                    events: events_from(found, from, player),
                }))
            }
            Command::Record { id, game } => {
                let found = self.game_ref(game)?;
                if self.chance_taken.contains(&game) {
                    return Err(ProtocolError::new(
                        "no_record",
                        format!(
                            "game {game} took roll outcomes from the host (apply_chance): a record \
                             holds answers, not outcomes, so it would not replay this game; copy it \
                             with clone"
                        ),
                    ));
                }
                Ok(to_line(&RecordReply {
                    id: &id.unwrap_or(Json::Null),
                    game,
                    record: record_of(found),
                }))
            }
            Command::Load { id, record, viewer } => {
                let game = self.replay(&record)?;
                check_viewer(&game, viewer)?;
                let line = game_line(&id.unwrap_or(Json::Null), self.next_game, &game, 0, viewer);
                self.insert(game);
                Ok(line)
            }
            Command::Clone { id, game } => {
                let copy = self.game_ref(game)?.clone();
                let end = copy.events().len();
                let line = game_line(&id.unwrap_or(Json::Null), self.next_game, &copy, end, None);
                if self.chance_taken.contains(&game) {
                    self.chance_taken.insert(self.next_game);
                }
                self.insert(copy);
                Ok(line)
            }
            Command::ChanceMode { id, game, on } => {
                let found = self
                    .games
                    .get_mut(&game)
                    .ok_or_else(|| unknown_game(game))?;
                // Turned off at a roll, the game rolls it from its seed and goes on: the reply
                // gives the events that followed.
                let before = found.events().len();
                found.set_chance_mode(on).map_err(|error| {
                    ProtocolError::new(
                        "rule_failed",
                        format!("chance mode stays as it was: {error}"),
                    )
                })?;
                Ok(game_line(
                    &id.unwrap_or(Json::Null),
                    game,
                    found,
                    before,
                    None,
                ))
            }
            Command::ApplyChance {
                id,
                game: game_id,
                outcome,
                viewer,
            } => {
                let game = self
                    .games
                    .get_mut(&game_id)
                    .ok_or_else(|| unknown_game(game_id))?;
                check_viewer(game, viewer)?;
                if game.chance_pending().is_none() {
                    return Err(ProtocolError::new(
                        "illegal",
                        if game.chance_mode() {
                            "no roll waits for an outcome now: answer the pending request"
                        } else {
                            "no roll waits for an outcome: turn chance mode on first (chance_mode)"
                        },
                    ));
                }
                let outcomes = game
                    .chance_outcomes()
                    .map_err(|error| ProtocolError::new("rule_failed", error.to_string()))?;
                let chosen = usize::try_from(outcome)
                    .ok()
                    .and_then(|index| outcomes.get(index))
                    .ok_or_else(|| {
                        ProtocolError::new(
                            "out_of_range",
                            format!(
                                "outcome {outcome} does not exist: this roll has outcomes 0 to {}",
                                outcomes.len().saturating_sub(1)
                            ),
                        )
                    })?
                    .0
                    .clone();
                let before = game.events().len();
                game.apply_chance(&chosen).map_err(refusal)?;
                self.chance_taken.insert(game_id);
                Ok(game_line(
                    &id.unwrap_or(Json::Null),
                    game_id,
                    game,
                    before,
                    viewer,
                ))
            }
            Command::Close { id, game } => {
                self.games.remove(&game).ok_or_else(|| unknown_game(game))?;
                self.chance_taken.remove(&game);
                Ok(to_line(&CloseReply {
                    id: &id.unwrap_or(Json::Null),
                    game,
                    closed: true,
                }))
            }
        }
    }

    fn insert(&mut self, game: Game<RulesetGame>) {
        self.games.insert(self.next_game, game);
        self.next_game += 1;
    }

    /// Plays `record` again from its setup and answers with this session's data.
    pub fn replay(&self, record: &GameRecord) -> Result<Game<RulesetGame>, ProtocolError> {
        if record.format != RECORD_FORMAT {
            return Err(ProtocolError::new(
                "bad_record",
                format!(
                    "record format `{}`; this session reads `{RECORD_FORMAT}`",
                    record.format
                ),
            ));
        }
        let rules = RulesetGame::new(self.loaded.clone(), self.host.clone(), record.spec.clone())
            .map_err(|error| {
            ProtocolError::new(
                "bad_record",
                format!("the record's match cannot be set up: {error}"),
            )
        })?;
        Game::replay(rules, &record.record(), RulesetGame::first_frames()).map_err(|error| {
            ProtocolError::new("bad_record", format!("the record does not replay: {error}"))
        })
    }
}

fn unknown_game(game: GameId) -> ProtocolError {
    ProtocolError::new(
        "unknown_game",
        format!("no open game {game}; new_game, load and clone reply with a game's id"),
    )
}

fn check_viewer(game: &Game<RulesetGame>, viewer: Option<u8>) -> Result<(), ProtocolError> {
    match viewer {
        Some(player) if usize::from(player) >= game.state().players.len() => {
            Err(ProtocolError::new(
                "unknown_player",
                format!(
                    "no player {player}: this game seats players 0 to {}",
                    game.state().players.len().saturating_sub(1)
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// The record of `game`, as `record` returns it.
pub fn record_of(game: &Game<RulesetGame>) -> GameRecord {
    GameRecord {
        format: RECORD_FORMAT.to_owned(),
        spec: game.rules().spec().clone(),
        setup: game.record().setup.clone(),
        answers: game.record().answers.clone(),
    }
}

/// The events of `game` from index `from`, as `viewer` may see them (all of them, unredacted,
/// for `None`).
pub fn events_from(game: &Game<RulesetGame>, from: usize, viewer: Option<u8>) -> Vec<Event> {
    let events = game.events().get(from..).unwrap_or_default();
    match viewer {
        None => events.to_vec(),
        Some(viewer) => {
            let state = game.state();
            let visibility = |zone: &ZoneId| {
                state
                    .zones
                    .get(zone)
                    .map_or(Visibility::Nobody, |z| z.visibility)
            };
            events
                .iter()
                .map(|event| event.redacted_for(PlayerId(viewer), visibility))
                .collect()
        }
    }
}

/// The pending requests of `game` as the protocol shows them (empty once it is over).
pub fn pending_of(game: &Game<RulesetGame>) -> Vec<PendingRequest> {
    game.pending()
        .into_iter()
        .map(|request| pending_request(request, game.state()))
        .collect()
}

/// One kernel request as the protocol shows it, with labels read from `state`.
pub fn pending_request(request: &Request, state: &GameState) -> PendingRequest {
    let (kind, choices, min, max) = match &request.options {
        Options::One { choices } => ("one", choices, None, None),
        Options::Several { choices, min, max } => ("several", choices, Some(*min), Some(*max)),
        Options::Order { items } => ("order", items, None, None),
    };
    PendingRequest {
        player: request.player,
        kind,
        name: request.kind.clone(),
        prompt: request.prompt.clone(),
        options: choices
            .iter()
            .map(|choice| option_json(choice, state))
            .collect(),
        min,
        max,
        secret: request.secret,
    }
}

fn option_json(choice: &Choice, state: &GameState) -> Json {
    let mut value = serde_json::to_value(choice).unwrap_or(Json::Null);
    if let Json::Object(map) = &mut value {
        map.insert("label".to_owned(), Json::String(label(choice, state)));
    }
    value
}

/// A short name for a person: a fighter's kind and owner, a card's name, a hex and who
/// stands on it.
pub fn label(choice: &Choice, state: &GameState) -> String {
    match choice {
        Choice::Piece(id) => match state.piece(*id) {
            Some(piece) => {
                let owner = state
                    .player(piece.owner)
                    .map_or_else(|| piece.owner.to_string(), |p| p.name.clone());
                format!("{owner}'s {} (#{})", piece.kind, id.0)
            }
            None => id.to_string(),
        },
        Choice::Card(id) => state
            .cards
            .get(id)
            .map_or_else(|| id.to_string(), |card| card.name.clone()),
        Choice::Hex(hex) => match state.piece_on(*hex) {
            Some(piece) => format!("hex {hex} (#{} is there)", piece.0),
            None => format!("hex {hex}"),
        },
        other => other.to_string(),
    }
}

/// Turns a host's answer (indices into the pending request's options) into a kernel answer,
/// checking the player, the shape and the ranges; the kernel checks the rest on submit.
pub fn translate<R: gloam_core::Rules>(
    game: &Game<R>,
    player: PlayerId,
    answer: &HostAnswer,
) -> Result<Answer, ProtocolError> {
    if game.is_over() {
        return Err(ProtocolError::new(
            "game_over",
            "the game is over; nothing is pending",
        ));
    }
    if usize::from(player.0) >= game.state().players.len() {
        return Err(ProtocolError::new(
            "wrong_player",
            format!(
                "no {player}: this game seats players 0 to {}",
                game.state().players.len().saturating_sub(1)
            ),
        ));
    }
    let Some(request) = game.pending_for(player) else {
        let waiting: Vec<String> = game
            .pending()
            .iter()
            .map(|r| r.player.0.to_string())
            .collect();
        return Err(ProtocolError::new(
            "wrong_player",
            format!(
                "player {} has nothing to answer now; waiting on player {}",
                player.0,
                waiting.join(", ")
            ),
        ));
    };
    let pick = |choices: &[Choice], index: i64| -> Result<Choice, ProtocolError> {
        usize::try_from(index)
            .ok()
            .and_then(|i| choices.get(i))
            .cloned()
            .ok_or_else(|| {
                ProtocolError::new(
                    "out_of_range",
                    format!(
                        "option {index} does not exist: `{}` has options 0 to {}",
                        request.kind,
                        choices.len().saturating_sub(1)
                    ),
                )
            })
    };
    let wrong_shape = |wanted: &str| {
        ProtocolError::new("wrong_shape", format!("`{}` wants {wanted}", request.kind))
    };
    match (&request.options, answer) {
        (Options::One { choices }, HostAnswer::Option(index)) => {
            Ok(Answer::One(pick(choices, *index)?))
        }
        (Options::Several { choices, .. }, HostAnswer::Options(indices)) => Ok(Answer::Several(
            indices
                .iter()
                .map(|&i| pick(choices, i))
                .collect::<Result<_, _>>()?,
        )),
        (Options::Order { items }, HostAnswer::Order(indices)) => Ok(Answer::Order(
            indices
                .iter()
                .map(|&i| pick(items, i))
                .collect::<Result<_, _>>()?,
        )),
        (Options::One { .. }, HostAnswer::Point([x, y])) if request.accepts_any_point() => {
            Ok(Answer::One(Choice::Point(gloam_core::Point::new(*x, *y))))
        }
        (_, HostAnswer::Point(_)) => Err(ProtocolError::new(
            "wrong_shape",
            format!(
                "`{}` takes no free point: {{\"point\": [x, y]}} answers only a request whose options end with `any_point` (a position on a table), and this one wants {}",
                request.kind,
                shape_wanted(&request.options)
            ),
        )),
        (options, _) => Err(wrong_shape(shape_wanted(options))),
    }
}

fn shape_wanted(options: &Options) -> &'static str {
    match options {
        Options::One { .. } => "one option: {\"option\": i}",
        Options::Several { .. } => "several options: {\"options\": [i, j, ...]}",
        Options::Order { .. } => "every option in order: {\"order\": [i, j, ...]}",
    }
}

fn refusal(error: GameError) -> ProtocolError {
    match error {
        GameError::Decision(DecisionError::NothingPending) => {
            ProtocolError::new("game_over", error.to_string())
        }
        GameError::Decision(
            DecisionError::NotYourDecision { .. } | DecisionError::AlreadyAnswered { .. },
        ) => ProtocolError::new("wrong_player", error.to_string()),
        GameError::Decision(DecisionError::WrongShape { .. }) => {
            ProtocolError::new("wrong_shape", error.to_string())
        }
        GameError::Decision(_) => ProtocolError::new("illegal", error.to_string()),
        other => ProtocolError::new(
            "rule_failed",
            format!("the rules failed after this answer; the game is as it was: {other}"),
        ),
    }
}

fn game_line(
    id: &Json,
    game_id: GameId,
    game: &Game<RulesetGame>,
    from: usize,
    viewer: Option<u8>,
) -> String {
    to_line(&GameReply {
        id,
        game: game_id,
        events: events_from(game, from, viewer),
        pending: pending_of(game),
        over: game.state().result.clone(),
        chance: chance_of(game),
    })
}

fn error_line(id: &Json, error: &ProtocolError) -> String {
    to_line(&ErrorReply { id, error })
}

fn to_line(reply: &impl Serialize) -> String {
    serde_json::to_string(reply).unwrap_or_else(|error| {
        format!(
            r#"{{"id":null,"error":{{"code":"internal","message":"a reply could not be written: {}"}}}}"#,
            error.to_string().replace(['"', '\\'], "'")
        )
    })
}

#[cfg(test)]
mod tests {
    use gloam_core::{Control, Ctx, Frame, RuleError, Rules};

    use super::*;

    /// A ruleset of two questions, a set then an ordering, that no data ruleset can ask yet
    /// (the script vocabulary offers single choices only).
    struct TwoQuestions;

    impl Rules for TwoQuestions {
        fn start(&self, _: &mut Ctx<'_>, _: &Setup) -> Result<(), RuleError> {
            Ok(())
        }

        fn step(&self, _: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
            let numbers = (1..=3).map(Choice::Number).collect();
            Ok(match frame.answers.len() {
                0 => Control::Ask(Request {
                    player: PlayerId(1),
                    kind: "pick".into(),
                    prompt: "Pick one or two".into(),
                    options: Options::Several {
                        choices: numbers,
                        min: 1,
                        max: 2,
                    },
                    secret: false,
                }),
                1 => Control::Ask(Request {
                    player: PlayerId(1),
                    kind: "arrange".into(),
                    prompt: "Order them".into(),
                    options: Options::Order { items: numbers },
                    secret: false,
                }),
                _ => Control::End(GameResult {
                    winners: vec![PlayerId(1)],
                    reason: "answered".into(),
                }),
            })
        }
    }

    fn game() -> Game<TwoQuestions> {
        Game::start(
            TwoQuestions,
            Setup::new(1, &["A", "B"]),
            vec![Frame::new("ask")],
        )
        .unwrap()
    }

    fn code<T: std::fmt::Debug>(result: Result<T, ProtocolError>) -> String {
        result.unwrap_err().code
    }

    /// A ruleset asking one table point, as Spearhead's moves will: candidates, then any.
    #[derive(Clone)]
    struct OnePoint;

    impl Rules for OnePoint {
        fn start(&self, _: &mut Ctx<'_>, _: &Setup) -> Result<(), RuleError> {
            Ok(())
        }

        fn step(&self, _: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
            Ok(match frame.answers.len() {
                0 => Control::Ask(Request::table_point(
                    PlayerId(0),
                    "move_unit",
                    "Where to?",
                    [gloam_core::Point::new(254, 0)],
                )),
                _ => Control::End(GameResult {
                    winners: vec![PlayerId(0)],
                    reason: "moved".into(),
                }),
            })
        }
    }

    /// `{"point": [x, y]}` answers a request that accepts any point (its options end with
    /// `any_point`); a listed candidate is still answered by index; the `any_point` marker
    /// itself is no answer; a request of options takes no free point.
    #[test]
    fn a_free_point_answers_a_request_that_accepts_any_point() {
        let game = Game::start(
            OnePoint,
            Setup::new(1, &["A", "B"]),
            vec![Frame::new("ask")],
        )
        .unwrap();
        let player = PlayerId(0);
        assert_eq!(
            translate(&game, player, &HostAnswer::Point([1_000, -2_540])).unwrap(),
            Answer::One(Choice::Point(gloam_core::Point::new(1_000, -2_540)))
        );
        assert_eq!(
            translate(&game, player, &HostAnswer::Option(0)).unwrap(),
            Answer::One(Choice::Point(gloam_core::Point::new(254, 0)))
        );
        let marker = translate(&game, player, &HostAnswer::Option(1)).unwrap();
        let mut copy = game.clone();
        assert_eq!(
            code(copy.submit(player, marker).map_err(refusal)),
            "illegal"
        );
        let far = translate(&game, player, &HostAnswer::Point([i64::MAX, 0])).unwrap();
        assert_eq!(code(copy.submit(player, far).map_err(refusal)), "illegal");
        assert_eq!(copy.events().len(), game.events().len());
        let two = super::tests::game();
        assert_eq!(
            code(translate(&two, PlayerId(1), &HostAnswer::Point([0, 0]))),
            "wrong_shape"
        );
    }

    #[test]
    fn several_and_order_answers_become_the_chosen_items_in_the_given_order() {
        let mut game = game();
        let player = PlayerId(1);
        assert_eq!(
            translate(&game, player, &HostAnswer::Options(vec![2, 0])).unwrap(),
            Answer::Several(vec![Choice::Number(3), Choice::Number(1)])
        );
        assert_eq!(
            code(translate(&game, player, &HostAnswer::Option(0))),
            "wrong_shape"
        );
        assert_eq!(
            code(translate(&game, player, &HostAnswer::Options(vec![3]))),
            "out_of_range"
        );
        assert_eq!(
            code(translate(&game, player, &HostAnswer::Point([0, 0]))),
            "wrong_shape"
        );
        assert_eq!(
            code(translate(&game, PlayerId(0), &HostAnswer::Options(vec![0]))),
            "wrong_player"
        );
        // Too many, and a repeat, are the kernel's to refuse, as `illegal`.
        let too_many = translate(&game, player, &HostAnswer::Options(vec![0, 1, 2])).unwrap();
        assert_eq!(
            refusal(game.submit(player, too_many).unwrap_err()).code,
            "illegal"
        );
        let answer = translate(&game, player, &HostAnswer::Options(vec![1])).unwrap();
        game.submit(player, answer).unwrap();
        assert_eq!(
            translate(&game, player, &HostAnswer::Order(vec![2, 0, 1])).unwrap(),
            Answer::Order(vec![
                Choice::Number(3),
                Choice::Number(1),
                Choice::Number(2)
            ])
        );
        let repeated = translate(&game, player, &HostAnswer::Order(vec![0, 0, 1])).unwrap();
        assert_eq!(
            refusal(game.submit(player, repeated).unwrap_err()).code,
            "illegal"
        );
        let answer = translate(&game, player, &HostAnswer::Order(vec![2, 1, 0])).unwrap();
        game.submit(player, answer).unwrap();
        assert!(game.is_over());
        assert_eq!(
            code(translate(&game, player, &HostAnswer::Option(0))),
            "game_over"
        );
    }

    #[test]
    fn pending_requests_show_the_shape_bounds_and_labels() {
        let game = game();
        let shown = pending_request(game.pending()[0], game.state());
        assert_eq!(
            (shown.kind, shown.min, shown.max),
            ("several", Some(1), Some(2))
        );
        assert_eq!(shown.name, "pick");
        assert_eq!(
            serde_json::to_string(&shown.options[0]).unwrap(),
            r#"{"label":"1","type":"number","value":1}"#
        );
    }
}
