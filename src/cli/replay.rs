//! `gloam replay FILE`: re-run a saved game from its seed and answers, and check the log.

use std::path::PathBuf;

use clap::Args;
use gloam::save::SavedGame;

use super::CliError;

/// Arguments of `gloam replay`.
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// A save file written by `gloam play`.
    file: PathBuf,
}

pub(crate) fn run(args: &ReplayArgs) -> Result<bool, CliError> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", args.file.display())))?;
    let saved = SavedGame::from_json(&text).map_err(|e| CliError::input(e.to_string()))?;
    match saved.replay() {
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
