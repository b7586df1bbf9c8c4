//! `gloam rules`: what the loaded rulesets are and how they differ.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use gloam::load::read_paths;
use gloam::rules_diff::diff_rulesets;
use gloam_grammar::Library;

use super::CliError;
use super::data::{DataArgs, data_flags, require_ruleset};

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
        #[command(flatten)]
        data: DataArgs,
        /// Print the list as a JSON array, one object per ruleset.
        #[arg(long)]
        json: bool,
    },
    /// What ruleset B changes against ruleset A, section by section.
    Diff {
        /// The ruleset compared against (`harrowdeep`).
        from: String,
        /// The ruleset whose changes are shown (`embergard`).
        to: String,
        #[command(flatten)]
        data: DataArgs,
        /// Show the changed lines of every overridden script.
        #[arg(long)]
        full: bool,
        /// Print the diff as one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// One ruleset's line of `rules list`.
#[derive(serde::Serialize)]
struct Row {
    name: String,
    title: String,
    extends: Option<String>,
    /// The steps of its flow, its own and inherited.
    steps: usize,
    /// The content it plays with, its own and its parents' (a mode plays its edition's
    /// boards, warbands and cards).
    boards: usize,
    warbands: usize,
    cards: usize,
    /// The measured battlefields (`table` items) of a table game.
    tables: usize,
    /// The armies of a table game.
    armies: usize,
    /// The parties of a skirmish role-playing game.
    parties: usize,
    /// Whether any of that content is inherited through `extends`.
    inherited: bool,
}

fn rows(library: &Library) -> Vec<Row> {
    library
        .rulesets()
        .iter()
        .map(|ruleset| {
            let chain = library.extends_chain(&ruleset.name);
            // (its own, its own and inherited), for items that name their ruleset.
            let count = |rulesets: Vec<&str>| {
                (
                    rulesets.iter().filter(|r| **r == ruleset.name).count(),
                    rulesets.iter().filter(|r| chain.contains(r)).count(),
                )
            };
            let boards = count(
                library
                    .boards()
                    .iter()
                    .map(|b| b.ruleset.as_str())
                    .collect(),
            );
            let warbands = count(
                library
                    .warbands()
                    .iter()
                    .map(|w| w.ruleset.as_str())
                    .collect(),
            );
            let cards = count(library.cards().iter().map(|c| c.ruleset.as_str()).collect());
            let tables = count(
                library
                    .tables()
                    .iter()
                    .map(|t| t.ruleset.as_str())
                    .collect(),
            );
            let armies = count(
                library
                    .armies()
                    .iter()
                    .map(|a| a.ruleset.as_str())
                    .collect(),
            );
            let parties = count(
                library
                    .parties()
                    .iter()
                    .map(|p| p.ruleset.as_str())
                    .collect(),
            );
            Row {
                name: ruleset.name.clone(),
                title: ruleset.title.clone(),
                extends: ruleset.extends.clone(),
                steps: library.ruleset(&ruleset.name).map_or(0, |r| r.steps.len()),
                boards: boards.1,
                warbands: warbands.1,
                cards: cards.1,
                tables: tables.1,
                armies: armies.1,
                parties: parties.1,
                inherited: boards.0 != boards.1
                    || warbands.0 != warbands.1
                    || cards.0 != cards.1
                    || tables.0 != tables.1
                    || armies.0 != armies.1
                    || parties.0 != parties.1,
            }
        })
        .collect()
}

fn table(rows: &[Row]) -> String {
    let name_width = rows
        .iter()
        .map(|r| r.name.chars().count())
        .chain([7])
        .max()
        .unwrap_or(7);
    let extends_width = rows
        .iter()
        .map(|r| r.extends.as_deref().map_or(1, |e| e.chars().count()))
        .chain([7])
        .max()
        .unwrap_or(7);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<name_width$}  {:>5}  {:>6}  {:>6}  {:>8}  {:>6}  {:>7}  {:>5}  {:<extends_width$}  title",
        "ruleset", "steps", "boards", "tables", "warbands", "armies", "parties", "cards", "extends"
    );
    for row in rows {
        let mark = if row.inherited { "*" } else { " " };
        let _ = writeln!(
            out,
            "{:<name_width$}  {:>5}  {:>5}{mark}  {:>5}{mark}  {:>7}{mark}  {:>5}{mark}  {:>6}{mark}  {:>4}{mark}  {:<extends_width$}  {}",
            row.name,
            row.steps,
            row.boards,
            row.tables,
            row.warbands,
            row.armies,
            row.parties,
            row.cards,
            row.extends.as_deref().unwrap_or("-"),
            row.title
        );
    }
    if rows.iter().any(|r| r.inherited) {
        out.push_str(
            "* counts what the ruleset plays with: its own content and what it inherits through `extends`\n",
        );
    }
    out
}

pub(crate) fn run(args: &RulesArgs) -> Result<bool, CliError> {
    match &args.command {
        RulesCommand::List { data, json } => {
            let library = library(&data.paths()?)?;
            let rows = rows(&library);
            if *json {
                let text = serde_json::to_string_pretty(&rows)
                    .map_err(|e| CliError::input(e.to_string()))?;
                super::emit(&format!("{text}\n"))?;
            } else {
                super::emit(&table(&rows))?;
            }
            Ok(true)
        }
        RulesCommand::Diff {
            from,
            to,
            data,
            full,
            json,
        } => {
            let library = library(&data.paths()?)?;
            require_ruleset(&library, from)?;
            require_ruleset(&library, to)?;
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
        return Err(CliError::input(format!(
            "{problem} (pass --data PATH to load other data)"
        )));
    }
    let (library, problems) = gloam_grammar::load(&sources);
    if !problems.is_empty() {
        return Err(CliError::input(format!(
            "the data has {} problem{}; `gloam check {}` lists them",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" },
            data_flags(paths)
        )));
    }
    Ok(library)
}
