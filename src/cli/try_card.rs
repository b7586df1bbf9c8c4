//! `gloam try PATH... --card NAME`: run one card's script in a small trial game.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use gloam::load::{load, read_paths};
use gloam::narrate::draw_hexes;
use gloam::trial::{describe, try_card};

use super::CliError;
use super::check::render;

/// Arguments of `gloam try`.
#[derive(Debug, Args)]
pub(crate) struct TryArgs {
    /// Data files, or folders searched for `.gloam` files (include `cards` for the shipped
    /// rulesets).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The card to try.
    #[arg(long)]
    card: String,
    /// The seed of the trial game and of the agent answering the card's choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub(crate) fn run(args: &TryArgs) -> Result<bool, CliError> {
    let host = gloam_dsl::Host::new();
    let (sources, mut problems) = read_paths(&args.paths);
    let (loaded, load_problems) = load(&sources, &host);
    problems.extend(load_problems);
    let mut out = String::new();
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
        Err(error) => {
            out.push_str(&render(&error, 100, false));
            super::emit(&out)?;
            return Ok(false);
        }
    };
    let _ = writeln!(out, "trying `{}` (seed {})\n", args.card, args.seed);
    out.push_str(&draw_hexes(&report.hexes, &report.blocked, &report.before));
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
    out.push_str(&draw_hexes(&report.hexes, &report.blocked, &report.after));
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
