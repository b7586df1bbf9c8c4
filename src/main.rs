//! The `gloam` command.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

/// mimalloc rather than the system allocator: a game runs many short scripts that allocate
/// small values, and it plays them about a fifth faster (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// gloam plays tabletop skirmish games from data.
#[derive(Debug, Parser)]
#[command(name = "gloam", version, about, long_about = None)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check data files and their scripts: every problem, with file, line and a suggestion.
    Check(cli::check::CheckArgs),
    /// Play a ruleset against an agent in the terminal.
    Play(cli::play::PlayArgs),
    /// Re-run a saved game and confirm its event log matches.
    Replay(cli::replay::ReplayArgs),
    /// Simulate many games of a ruleset between agents and summarise them.
    Sim(cli::sim::SimArgs),
    /// Run one card's script in a small trial game and show what it does.
    Try(cli::try_card::TryArgs),
    /// Rulesets: list them, or show what one changes against another.
    Rules(cli::rules::RulesArgs),
    /// Card text against behaviour: check texts, render canonical text.
    Text(cli::text::TextArgs),
    /// Geometry queries for board designers (JSON on stdin, JSON on stdout).
    Geom(cli::geom::GeomArgs),
    /// Serve the JSON-lines protocol on stdin/stdout (docs/protocol.md).
    Serve(cli::serve::ServeArgs),
    /// The exact odds of one attack, computed from the ruleset's own rules.
    Odds(cli::odds::OddsArgs),
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(error) => {
            let _ = error.print();
            return if error.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let outcome = match args.command {
        Command::Check(check) => cli::check::run(&check),
        Command::Geom(geom) => cli::geom::run(&geom).map(|()| true),
        Command::Odds(odds) => cli::odds::run(&odds),
        Command::Text(text) => cli::text::run(&text),
        Command::Try(trial) => cli::try_card::run(&trial),
        Command::Sim(sim) => cli::sim::run(&sim),
        Command::Play(play) => cli::play::run(&play),
        Command::Replay(replay) => cli::replay::run(&replay),
        Command::Rules(rules) => cli::rules::run(&rules),
        Command::Serve(serve) => cli::serve::run(&serve),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}
