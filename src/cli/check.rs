//! `gloam check PATH...`: every problem in every data file and script, at once.

use std::io::IsTerminal as _;
use std::path::PathBuf;

use clap::Args;
use gloam::load::{Locator, Problem, load, read_paths};
use miette::Diagnostic;

use super::CliError;

/// Arguments of `gloam check`.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Data files, or folders searched for `.gloam` files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print the problems as a JSON array, for editors and tools.
    #[arg(long)]
    json: bool,
    /// Wrap the report at this many columns.
    #[arg(long, default_value_t = 100)]
    width: usize,
}

/// Renders one problem as text, without colour unless `colour`: see [`gloam::report`].
pub(crate) fn render(problem: &dyn Diagnostic, width: usize, colour: bool) -> String {
    gloam::report::render(problem, width, colour)
}

fn json_of(
    problem: &Problem,
    location: Option<&gloam::load::Location>,
    more: usize,
) -> serde_json::Value {
    let label = problem
        .labels()
        .and_then(|mut labels| labels.next())
        .and_then(|label| label.label().map(str::to_owned));
    serde_json::json!({
        "severity": match problem.severity().unwrap_or(miette::Severity::Error) {
            miette::Severity::Error => "error",
            miette::Severity::Warning => "warning",
            miette::Severity::Advice => "advice",
        },
        "code": problem.code().map(|c| c.to_string()),
        "message": problem.to_string(),
        "file": location.as_ref().map(|l| l.file.clone()),
        "line": location.as_ref().map(|l| l.line),
        "column": location.as_ref().map(|l| l.column),
        "offset": location.as_ref().map(|l| l.offset),
        "length": location.as_ref().map(|l| l.length),
        "label": label,
        "help": problem.help().map(|h| h.to_string()),
        "more": more,
    })
}

pub(crate) fn run(args: &CheckArgs) -> Result<bool, CliError> {
    let host = gloam_dsl::Host::new();
    let (sources, mut problems) = read_paths(&args.paths);
    let (_, load_problems) = load(&sources, &host);
    problems.extend(load_problems);
    let locator = Locator::new(&sources);
    locator.sort(&mut problems);
    let errors = problems
        .iter()
        .filter(|p| p.severity().unwrap_or(miette::Severity::Error) == miette::Severity::Error)
        .count();
    // Many identical problems (a list of 40,000 duplicates) are shown three times and
    // counted: "and 39,997 more like it".
    let locations: Vec<Option<gloam::load::Location>> =
        problems.iter().map(|p| locator.locate(p)).collect();
    let keys: Vec<(Option<&str>, Option<String>, String)> = problems
        .iter()
        .zip(&locations)
        .map(|(p, l)| {
            (
                l.as_ref().map(|l| l.file.as_str()),
                p.code().map(|c| c.to_string()),
                p.to_string(),
            )
        })
        .collect();
    let shown = gloam::report::group(&keys);
    if args.json {
        let array: Vec<serde_json::Value> = shown
            .iter()
            .map(|&(index, more)| json_of(&problems[index], locations[index].as_ref(), more))
            .collect();
        let text =
            serde_json::to_string_pretty(&array).map_err(|e| CliError::input(e.to_string()))?;
        super::emit(&format!("{text}\n"))?;
        return Ok(errors == 0);
    }
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut out = String::new();
    for &(index, more) in shown.iter().take(gloam::report::MAX_RENDERED) {
        out.push_str(&render(&problems[index], args.width, colour));
        if more > 0 {
            out.push_str(&format!("  and {more} more like it\n"));
        }
        out.push('\n');
    }
    if shown.len() > gloam::report::MAX_RENDERED {
        out.push_str(&format!(
            "{} more problems not shown (gloam check --json lists them all)\n\n",
            shown.len() - gloam::report::MAX_RENDERED
        ));
    }
    let files = sources.len();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    if problems.is_empty() {
        out.push_str(&format!("checked {}: no problems\n", plural(files, "file")));
    } else {
        out.push_str(&format!(
            "checked {}: {}\n",
            plural(files, "file"),
            plural(errors, "error")
        ));
    }
    super::emit(&out)?;
    Ok(errors == 0)
}
