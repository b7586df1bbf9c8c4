//! Saved games: the data a game was played with, its match, its record (seed and answers)
//! and its event log. `gloam replay` re-runs the record and confirms the log matches.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use gloam_core::{Event, Game, Record};
use serde::{Deserialize, Serialize};

use crate::engine::{MatchSpec, RulesetGame};

/// The format tag written into every save file.
pub const FORMAT: &str = "gloam-save/1";

/// A saved game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Always [`FORMAT`].
    pub format: String,
    /// The data files or folders the game was loaded from, absolute when the save was
    /// written (older saves may hold paths relative to where `gloam` ran:
    /// [`SavedGame::resolve_data`] looks for those beside the save file too).
    pub data: Vec<PathBuf>,
    /// The match.
    #[serde(rename = "match")]
    pub spec: MatchSpec,
    /// The setup and every answer, in order.
    pub record: Record,
    /// The event log at the time of saving.
    pub events: Vec<Event>,
}

/// Why a replay failed or did not match.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The file is not a save file.
    #[error("not a gloam save file: {0}")]
    Format(String),
    /// The data or the match could not be set up again.
    #[error("cannot set the game up again: {0}")]
    Setup(String),
    /// The record could not be replayed (an answer was refused, a rule failed).
    #[error("the record does not replay: {0}")]
    Replay(String),
    /// The replay gave a different log.
    #[error(
        "the replay differs from the saved log at event {index} of {saved} (the replay has {replayed}): the save has {saved_event}; the replay has {replayed_event}"
    )]
    Differs {
        /// The saved event there, in words (or as JSON when there are none).
        saved_event: String,
        /// The replayed event there, in words (or as JSON).
        replayed_event: String,
        /// The first differing event.
        index: usize,
        /// The saved log's length.
        saved: usize,
        /// The replayed log's length.
        replayed: usize,
    },
}

impl SavedGame {
    /// A save of `game`, played with `data` and `spec`. The data paths are recorded absolute,
    /// so the save replays from any folder.
    pub fn of(game: &Game<RulesetGame>, data: Vec<PathBuf>) -> SavedGame {
        SavedGame {
            format: FORMAT.to_owned(),
            data: data.iter().map(|path| absolute(path)).collect(),
            spec: game.rules().spec().clone(),
            record: game.record().clone(),
            events: game.events().to_vec(),
        }
    }

    /// Writes the save as JSON to `path` without ever leaving a half-written file there: the
    /// text goes to a temporary file beside it, which is flushed to disk and then renamed
    /// over `path`. When anything fails (a full disk, a file size limit, a folder that cannot
    /// be written), the temporary file is removed and whatever was at `path` is unchanged.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        use std::io::Write as _;
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        let name = path
            .file_name()
            .ok_or_else(|| format!("`{}` names no file", path.display()))?;
        let mut temporary_name = std::ffi::OsString::from(".");
        temporary_name.push(name);
        temporary_name.push(format!(".{}.tmp", std::process::id()));
        let temporary = path.with_file_name(temporary_name);
        let written = std::fs::File::create(&temporary).and_then(|mut file| {
            file.write_all(text.as_bytes())?;
            file.write_all(b"\n")?;
            file.sync_all()
        });
        let renamed = written.and_then(|()| std::fs::rename(&temporary, path));
        renamed.map_err(|error| {
            let _ = std::fs::remove_file(&temporary);
            format!("cannot write `{}`: {error}", path.display())
        })
    }

    /// Reads a save from JSON.
    pub fn from_json(text: &str) -> Result<SavedGame, ReplayError> {
        let saved: SavedGame =
            serde_json::from_str(text).map_err(|e| ReplayError::Format(e.to_string()))?;
        if saved.format != FORMAT {
            return Err(ReplayError::Format(format!(
                "format `{}`, expected `{FORMAT}`",
                saved.format
            )));
        }
        Ok(saved)
    }

    /// The recorded data paths as they can be found now: each as recorded if it exists, else
    /// (a relative path) beside the save file `file`. Fails with the first path found
    /// nowhere.
    pub fn resolve_data(&self, file: Option<&Path>) -> Result<Vec<PathBuf>, PathBuf> {
        let beside = file.and_then(Path::parent);
        self.data
            .iter()
            .map(|path| {
                if path.exists() {
                    return Ok(path.clone());
                }
                match beside {
                    Some(folder) if path.is_relative() && folder.join(path).exists() => {
                        Ok(folder.join(path))
                    }
                    _ => Err(path.clone()),
                }
            })
            .collect()
    }

    /// Loads the data again, replays the record, and compares the event logs byte for byte
    /// (as JSON). Returns the replayed game when they match.
    pub fn replay(&self) -> Result<Game<RulesetGame>, ReplayError> {
        self.replay_with(&self.data)
    }

    /// [`SavedGame::replay`] with the data loaded from `data` instead of the recorded paths
    /// (`gloam replay --data`, or the recorded paths resolved by
    /// [`SavedGame::resolve_data`]).
    pub fn replay_with(&self, data: &[PathBuf]) -> Result<Game<RulesetGame>, ReplayError> {
        let host = Rc::new(gloam_dsl::Host::new());
        let (sources, mut problems) = crate::load::read_paths(data);
        let (loaded, load_problems) = crate::load::load(&sources, &host);
        problems.extend(load_problems);
        if let Some(first) = problems.first() {
            return Err(ReplayError::Setup(format!(
                "the data has problems: {first}"
            )));
        }
        self.replay_loaded(Rc::new(loaded), host)
    }

    /// Replays the record against data already loaded (the save's `data` paths are not
    /// read) and compares the event logs as [`replay`](Self::replay) does.
    pub fn replay_loaded(
        &self,
        loaded: Rc<crate::load::Loaded>,
        host: Rc<gloam_dsl::Host>,
    ) -> Result<Game<RulesetGame>, ReplayError> {
        let rules = RulesetGame::new(loaded, host, self.spec.clone())
            .map_err(|e| ReplayError::Setup(e.to_string()))?;
        let names = &self.record.setup.players;
        for (index, player) in names.iter().enumerate() {
            if names[..index].contains(player) {
                return Err(ReplayError::Format(format!(
                    "the record names two players `{player}`; each seat needs its own name"
                )));
            }
        }
        let seats: Vec<&str> = self
            .spec
            .seats
            .iter()
            .map(|seat| seat.name.as_str())
            .collect();
        if seats != names.iter().map(String::as_str).collect::<Vec<_>>() {
            return Err(ReplayError::Format(format!(
                "the match seats {} but the record plays {}: a player was renamed, added or removed",
                seats.join(", "),
                names.join(", ")
            )));
        }
        let name = |player: gloam_core::PlayerId| {
            names.get(usize::from(player.0)).map_or_else(
                || format!("seat {}", player.0),
                |name| format!("{name} (seat {})", player.0),
            )
        };
        if let Some((player, _)) = self
            .record
            .answers
            .iter()
            .find(|(player, _)| usize::from(player.0) >= names.len())
        {
            return Err(ReplayError::Replay(format!(
                "the record has an answer by {}, but the game has {} players",
                name(*player),
                names.len()
            )));
        }
        let mut game = Game::start(
            rules,
            self.record.setup.clone(),
            RulesetGame::first_frames(),
        )
        .map_err(|e| ReplayError::Replay(format!("the game does not start: {e}")))?;
        let total = self.record.answers.len();
        for (index, (player, answer)) in self.record.answers.iter().enumerate() {
            if let Err(e) = game.submit(*player, answer.clone()) {
                let waiting: Vec<String> = game
                    .pending()
                    .iter()
                    .map(|request| format!("{} to {}", name(request.player), request.prompt))
                    .collect();
                let waiting = if waiting.is_empty() {
                    "the game was over".to_owned()
                } else {
                    format!("the game was waiting for {}", waiting.join(", "))
                };
                let asked = game
                    .pending()
                    .iter()
                    .any(|request| request.player == *player);
                let why = if asked {
                    format!("{e}")
                } else {
                    "no question was put to them".to_owned()
                };
                return Err(ReplayError::Replay(format!(
                    "answer {} of {total}, by {}, is refused: {why} ({waiting})",
                    index + 1,
                    name(*player)
                )));
            }
        }
        let json = |event: &Event| serde_json::to_string(event).unwrap_or_default();
        let replayed = game.events();
        let first_difference = self
            .events
            .iter()
            .zip(replayed)
            .position(|(a, b)| json(a) != json(b))
            .or_else(|| {
                (self.events.len() != replayed.len()).then(|| self.events.len().min(replayed.len()))
            });
        match first_difference {
            None => Ok(game),
            Some(index) => {
                let describe = |event: Option<&Event>| match event {
                    None => "nothing (the log ends before it)".to_owned(),
                    Some(event) => {
                        crate::narrate::narrate(event, game.state()).unwrap_or_else(|| json(event))
                    }
                };
                Err(ReplayError::Differs {
                    index,
                    saved: self.events.len(),
                    replayed: replayed.len(),
                    saved_event: describe(self.events.get(index)),
                    replayed_event: describe(replayed.get(index)),
                })
            }
        }
    }
}

/// `path` made absolute against the current folder (lexically, without resolving links, so
/// a save records the path the user gave); unchanged if it is absolute already or the
/// current folder is unknown.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}
