//! `gloam check PATH...`: every problem in every data file and script, at once.

use std::io::IsTerminal as _;
use std::path::PathBuf;

use clap::Args;
use gloam::load::{Problem, load, locate, read_paths, sort_problems};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

use super::CliError;
use super::data::DataArgs;

/// Arguments of `gloam check`.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Data files, or folders searched for `.gloam` files. Default: the --data paths, else
    /// GLOAM_DATA, else the built-in `cards/` folder.
    paths: Vec<PathBuf>,
    #[command(flatten)]
    data: DataArgs,
    /// Print the problems as a JSON array, for editors and tools.
    #[arg(long)]
    json: bool,
    /// Wrap the report at this many columns.
    #[arg(long, default_value_t = 100)]
    width: usize,
}

/// Renders one problem as text, without colour unless `colour`.
pub(crate) fn render(problem: &dyn Diagnostic, width: usize, colour: bool) -> String {
    let theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(width);
    let mut out = String::new();
    if handler.render_report(&mut out, problem).is_err() {
        out = format!("{problem}\n");
    }
    out
}

fn json_of(problem: &Problem) -> serde_json::Value {
    let location = locate(problem);
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
    })
}

pub(crate) fn run(args: &CheckArgs) -> Result<bool, CliError> {
    let host = gloam_dsl::Host::new();
    let paths = args.data.paths_or(&args.paths)?;
    let (sources, mut problems) = read_paths(&paths);
    let (_, load_problems) = load(&sources, &host);
    problems.extend(load_problems);
    sort_problems(&mut problems);
    let errors = problems
        .iter()
        .filter(|p| p.severity().unwrap_or(miette::Severity::Error) == miette::Severity::Error)
        .count();
    if args.json {
        let array: Vec<serde_json::Value> = problems.iter().map(json_of).collect();
        let text =
            serde_json::to_string_pretty(&array).map_err(|e| CliError::input(e.to_string()))?;
        super::emit(&format!("{text}\n"))?;
        return Ok(errors == 0);
    }
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut out = String::new();
    for problem in &problems {
        out.push_str(&render(problem, args.width, colour));
        out.push('\n');
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
