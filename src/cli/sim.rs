//! `gloam sim RULESET`: many games between agents, with a summary.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use gloam::sim::{AgentKind, SimConfig};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::CliError;

/// Arguments of `gloam sim`.
#[derive(Debug, Args)]
pub(crate) struct SimArgs {
    /// The ruleset to play (`harrowdeep`).
    ruleset: String,
    /// Data files or folders to load.
    #[arg(long = "data", default_value = "cards")]
    paths: Vec<PathBuf>,
    /// How many games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// The first game's seed; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many players (seats); warbands repeat when the ruleset has fewer.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// Who plays each seat, comma-separated, repeated over the seats: `random` (uniformly
    /// random legal answers) or `greedy` (tries each answer a few decisions ahead; much
    /// slower). `greedy,random` puts the greedy agent in seat 0.
    #[arg(long, value_delimiter = ',', default_value = "random")]
    agents: Vec<AgentKind>,
    /// Worker threads. The results do not depend on it.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Print the results as one JSON object.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: &SimArgs) -> Result<bool, CliError> {
    let bar = ProgressBar::with_draw_target(Some(args.games as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games ({per_sec}, {eta} left)")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let config = SimConfig {
        ruleset: args.ruleset.clone(),
        players: args.players,
        agents: args.agents.clone(),
        games: args.games,
        seed: args.seed,
        jobs: args.jobs,
    };
    let report = gloam::sim::run(&args.paths, &config, &|done| {
        bar.set_position(done as u64);
    })
    .map_err(CliError::input)?;
    bar.finish_and_clear();
    if args.json {
        let text =
            serde_json::to_string_pretty(&report).map_err(|e| CliError::input(e.to_string()))?;
        super::emit(&format!("{text}\n"))?;
        return Ok(report.errors.is_empty());
    }
    let mut out = String::new();
    let played = report.games - report.errors.len();
    let _ = writeln!(
        out,
        "{} games of {} (seeds {}..{})",
        report.games,
        report.ruleset,
        report.seed,
        report.seed + report.games as u64
    );
    for (seat, warband) in report.warbands.iter().enumerate() {
        let rate = 100.0 * report.wins[seat] as f64 / played.max(1) as f64;
        let agent = report.agents.get(seat).map_or("random", String::as_str);
        let _ = writeln!(
            out,
            "  seat {seat} {warband:<28} {agent:<6} wins {:>5} ({rate:5.1}%)  average glory {:.2}",
            report.wins[seat], report.average_glory[seat]
        );
    }
    let _ = writeln!(
        out,
        "  draws {} ({:.1}%)",
        report.draws,
        100.0 * report.draws as f64 / played.max(1) as f64
    );
    let _ = writeln!(
        out,
        "  average length: {:.1} decisions, {:.1} events",
        report.average_decisions, report.average_events
    );
    if report.errors.is_empty() {
        let _ = writeln!(out, "  errors: none");
    } else {
        let _ = writeln!(out, "  errors: {} games failed", report.errors.len());
        for failed in report.errors.iter().take(5) {
            let _ = writeln!(
                out,
                "    seed {}: {}",
                failed.seed,
                failed.error.as_deref().unwrap_or("")
            );
        }
    }
    super::emit(&out)?;
    Ok(report.errors.is_empty())
}
