//! `gloam replay FILE`: re-run a saved game from its seed and answers, and check the log.

use std::path::{Path, PathBuf};

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
    /// Also write one self-contained HTML page that steps through the game (the board at
    /// each decision, the narration, each decision and its answer; docs/render.md). With
    /// `--json`, the outcome is `matches`, `html`, `steps` and `bytes`.
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
}

/// The data a save plays with: `--data` when given, else the paths the save records (found
/// as recorded or beside the save), else the built-in data with a note on stderr.
pub(crate) fn save_data(
    saved: &SavedGame,
    file: &Path,
    data: &DataArgs,
) -> Result<Vec<PathBuf>, CliError> {
    if !data.data.is_empty() {
        return Ok(data.data.clone());
    }
    match saved.resolve_data(Some(file)) {
        Ok(paths) => Ok(paths),
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
            Ok(fallback)
        }
    }
}

/// `gloam replay FILE --html OUT`: replays the save step by step and writes the page.
fn write_html(
    args: &ReplayArgs,
    saved: &SavedGame,
    data: &[PathBuf],
    html: &Path,
) -> Result<bool, CliError> {
    let (loaded, host) = super::render::load(data)?;
    let (rules, steps) = gloam::render::steps_of(saved, loaded, host)
        .map_err(|e| CliError::input(format!("{}: {e}", args.file.display())))?;
    let title = format!(
        "gloam replay: {} ({})",
        rules.ruleset().title,
        args.file.file_name().map_or_else(
            || args.file.display().to_string(),
            |f| f.to_string_lossy().into_owned()
        )
    );
    let page =
        gloam::render::html(&title, &rules, &steps).map_err(|e| CliError::input(e.to_string()))?;
    std::fs::write(html, &page)
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", html.display())))?;
    if args.json {
        let document = serde_json::json!({
            "matches": true,
            "html": html,
            "steps": steps.len(),
            "bytes": page.len(),
        });
        let text =
            serde_json::to_string_pretty(&document).map_err(|e| CliError::input(e.to_string()))?;
        super::emit(&format!("{text}\n"))?;
    } else {
        super::emit(&format!(
            "replay matches; wrote {} ({} steps, {} KiB)\n",
            html.display(),
            steps.len(),
            page.len().div_ceil(1024)
        ))?;
    }
    Ok(true)
}

pub(crate) fn run(args: &ReplayArgs) -> Result<bool, CliError> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", args.file.display())))?;
    let saved = SavedGame::from_json(&text).map_err(|e| CliError::input(e.to_string()))?;
    let data = save_data(&saved, &args.file, &args.data)?;
    if let Some(html) = &args.html {
        return write_html(args, &saved, &data, html);
    }
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
