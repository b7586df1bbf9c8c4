//! `gloam rules`: what the loaded rulesets are and how they differ.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use gloam::load::read_paths;
use gloam::rules_diff::diff_rulesets;
use gloam_grammar::Library;

use super::CliError;

/// Arguments of `gloam rules`.
#[derive(Debug, Args)]
pub(crate) struct RulesArgs {
    #[command(subcommand)]
    command: RulesCommand,
}

#[derive(Debug, Subcommand)]
enum RulesCommand {
    /// List the loaded rulesets, what each extends, and its content.
    List {
        /// Data files or folders to load.
        #[arg(long = "data", default_value = "cards")]
        paths: Vec<PathBuf>,
    },
    /// What ruleset B changes against ruleset A, section by section.
    Diff {
        /// The ruleset compared against (`harrowdeep`).
        from: String,
        /// The ruleset whose changes are shown (`embergard`).
        to: String,
        /// Data files or folders to load.
        #[arg(long = "data", default_value = "cards")]
        paths: Vec<PathBuf>,
        /// Show the changed lines of every overridden script.
        #[arg(long)]
        full: bool,
        /// Print the diff as one JSON object.
        #[arg(long)]
        json: bool,
    },
}

pub(crate) fn run(args: &RulesArgs) -> Result<bool, CliError> {
    match &args.command {
        RulesCommand::List { paths } => {
            let library = library(paths)?;
            let mut out = String::new();
            for ruleset in library.rulesets() {
                let _ = write!(out, "{:<12} {}", ruleset.name, ruleset.title);
                if let Some(parent) = &ruleset.extends {
                    let _ = write!(out, " (extends `{parent}`)");
                }
                let count = |n: usize, what: &str| format!("{n} {what}");
                let _ = writeln!(
                    out,
                    "\n             {}, {}, {}, {}",
                    count(
                        library.ruleset(&ruleset.name).map_or(0, |r| r.steps.len()),
                        "steps"
                    ),
                    count(
                        library
                            .boards()
                            .iter()
                            .filter(|b| b.ruleset == ruleset.name)
                            .count(),
                        "boards"
                    ),
                    count(
                        library
                            .warbands()
                            .iter()
                            .filter(|w| w.ruleset == ruleset.name)
                            .count(),
                        "warbands"
                    ),
                    count(
                        library
                            .cards()
                            .iter()
                            .filter(|c| c.ruleset == ruleset.name)
                            .count(),
                        "cards"
                    ),
                );
            }
            super::emit(&out)?;
            Ok(true)
        }
        RulesCommand::Diff {
            from,
            to,
            paths,
            full,
            json,
        } => {
            let library = library(paths)?;
            let diff =
                diff_rulesets(&library, from, to).map_err(|e| CliError::input(e.to_string()))?;
            if *json {
                let text = serde_json::to_string_pretty(&diff)
                    .map_err(|e| CliError::input(e.to_string()))?;
                super::emit(&format!("{text}\n"))?;
            } else {
                super::emit(&diff.render(*full))?;
            }
            Ok(true)
        }
    }
}

/// Loads the data's definitions; a data file with problems stops here, pointing at
/// `gloam check`.
fn library(paths: &[PathBuf]) -> Result<Library, CliError> {
    let (sources, read_problems) = read_paths(paths);
    if let Some(problem) = read_problems.first() {
        return Err(CliError::input(problem.to_string()));
    }
    let (library, problems) = gloam_grammar::load(&sources);
    if !problems.is_empty() {
        return Err(CliError::input(format!(
            "the data has {} problem(s); `gloam check {}` lists them",
            problems.len(),
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        )));
    }
    Ok(library)
}
