//! `gloam try PATH... --card NAME`: run one card's script in a small trial game.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use gloam::load::{load, read_paths};
use gloam::narrate::Board;
use gloam::trial::{describe, try_card};

use super::CliError;
use super::check::render;
use super::data::{DataArgs, deprecated};

/// Arguments of `gloam try`.
#[derive(Debug, Args)]
pub(crate) struct TryArgs {
    /// Deprecated: data paths as arguments (use --data PATH).
    #[arg(hide = true)]
    paths: Vec<PathBuf>,
    /// A data file or folder to load (repeatable): your card's file, and `cards` for the
    /// shipped rulesets. Default: GLOAM_DATA, else the built-in `cards/` folder.
    #[command(flatten)]
    data: DataArgs,
    /// The card to try.
    #[arg(long)]
    card: String,
    /// The seed of the trial game and of the agent answering the card's choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the trial as one JSON object: `card`, `seed`, `condition`, `events`,
    /// `narration`, `answers`, or `problems` when the data or the card fails.
    #[arg(long)]
    json: bool,
}

fn emit_json(value: &serde_json::Value) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(value).map_err(|e| CliError::input(e.to_string()))?;
    super::emit(&format!("{text}\n"))
}

pub(crate) fn run(args: &TryArgs) -> Result<bool, CliError> {
    if !args.paths.is_empty() {
        deprecated("data paths as arguments", "--data PATH (repeatable)");
    }
    let paths = args.data.paths_or(&args.paths)?;
    let host = gloam_dsl::Host::new();
    let (sources, mut problems) = read_paths(&paths);
    let (loaded, load_problems) = load(&sources, &host);
    problems.extend(load_problems);
    let mut out = String::new();
    if !problems.is_empty() && args.json {
        let listed: Vec<String> = problems.iter().map(|p| render(p, 100, false)).collect();
        emit_json(&serde_json::json!({ "card": args.card, "problems": listed }))?;
        return Ok(false);
    }
    if !problems.is_empty() {
        for problem in &problems {
            out.push_str(&render(problem, 100, false));
            out.push('\n');
        }
        out.push_str("fix these first (gloam check shows them too)\n");
        super::emit(&out)?;
        return Ok(false);
    }
    let report = match try_card(&loaded, &host, &args.card, args.seed) {
        Ok(report) => report,
        Err(error) if args.json => {
            emit_json(&serde_json::json!({
                "card": args.card,
                "problems": [render(&error, 100, false)],
            }))?;
            return Ok(false);
        }
        Err(error) => {
            out.push_str(&render(&error, 100, false));
            super::emit(&out)?;
            return Ok(false);
        }
    };
    if args.json {
        let narration: Vec<String> = report
            .events
            .iter()
            .filter_map(|event| describe(event, &report.after))
            .collect();
        emit_json(&serde_json::json!({
            "card": args.card,
            "seed": args.seed,
            "condition": report.condition,
            "events": report.events,
            "narration": narration,
            "answers": report.answers,
        }))?;
        return Ok(true);
    }
    let _ = writeln!(out, "trying `{}` (seed {})\n", args.card, args.seed);
    let board = Board::of_hexes(&report.hexes, &report.blocked, &report.before);
    out.push_str(&board.drawing);
    out.push_str(&board.legend(&report.before));
    out.push('\n');
    if let Some(held) = report.condition {
        let _ = writeln!(
            out,
            "condition: {}",
            if held { "holds" } else { "does not hold" }
        );
        if report.field == "condition" {
            super::emit(&out)?;
            return Ok(true);
        }
        if !held {
            out.push_str("(a game would not offer the card now; its effect runs anyway)\n");
        }
        out.push('\n');
    }
    for event in &report.events {
        if let Some(line) = describe(event, &report.after) {
            let _ = writeln!(out, "{line}");
        }
    }
    if report.events.is_empty() {
        out.push_str("the effect changed nothing\n");
    }
    out.push('\n');
    let board = Board::of_hexes(&report.hexes, &report.blocked, &report.after);
    out.push_str(&board.drawing);
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let _ = writeln!(
        out,
        "\n{}, {} answered by a random agent",
        plural(report.events.len(), "event"),
        plural(report.answers.len(), "choice")
    );
    super::emit(&out)?;
    Ok(true)
}
