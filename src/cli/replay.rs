//! `gloam replay FILE`: re-run a saved game from its seed and answers, and check the log.

use std::path::PathBuf;

use clap::Args;
use gloam::save::SavedGame;

use super::CliError;
use super::data::{DataArgs, data_flags, default_paths};

/// Arguments of `gloam replay`.
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// A save file written by `gloam play`.
    file: PathBuf,
    /// Load the data from here instead of the paths the save records (repeatable).
    #[command(flatten)]
    data: DataArgs,
    /// Print the outcome as one JSON object: `matches`, `events`, `seed`, `answers`,
    /// `over`, `data` and `error`.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: &ReplayArgs) -> Result<bool, CliError> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", args.file.display())))?;
    let saved = SavedGame::from_json(&text).map_err(|e| CliError::input(e.to_string()))?;
    let data = if args.data.data.is_empty() {
        match saved.resolve_data(Some(&args.file)) {
            Ok(paths) => paths,
            Err(missing) => {
                // The save's data moved (or the save came from another machine): the
                // built-in data, if it has the save's ruleset, is the likeliest match.
                let fallback = default_paths().map_err(|_| {
                    CliError::input(format!(
                        "the save's data `{}` is not found; pass --data PATH to say where it is",
                        missing.display()
                    ))
                })?;
                eprintln!(
                    "note: the save's data `{}` is not found; replaying ruleset `{}` with {} \
                     (pass --data PATH to choose)",
                    missing.display(),
                    saved.spec.ruleset,
                    data_flags(&fallback)
                );
                fallback
            }
        }
    } else {
        args.data.data.clone()
    };
    let outcome = saved.replay_with(&data);
    if args.json {
        let document = match &outcome {
            Ok(game) => serde_json::json!({
                "matches": true,
                "events": game.events().len(),
                "seed": saved.record.setup.seed,
                "answers": saved.record.answers.len(),
                "over": game.is_over(),
                "data": data,
                "error": null,
            }),
            Err(error) => serde_json::json!({
                "matches": false,
                "events": saved.events.len(),
                "seed": saved.record.setup.seed,
                "answers": saved.record.answers.len(),
                "over": null,
                "data": data,
                "error": error.to_string(),
            }),
        };
        let text =
            serde_json::to_string_pretty(&document).map_err(|e| CliError::input(e.to_string()))?;
        super::emit(&format!("{text}\n"))?;
        return Ok(outcome.is_ok());
    }
    match outcome {
        Ok(game) => {
            super::emit(&format!(
                "replay matches: {} events from seed {} and {} answers{}\n",
                game.events().len(),
                saved.record.setup.seed,
                saved.record.answers.len(),
                if game.is_over() {
                    " (the game is over)"
                } else {
                    " (the game was saved mid-way)"
                }
            ))?;
            Ok(true)
        }
        Err(error) => {
            super::emit(&format!("replay failed: {error}\n"))?;
            Ok(false)
        }
    }
}
