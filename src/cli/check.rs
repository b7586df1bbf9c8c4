//! `gloam check PATH...`: every problem in every data file and script, at once.

use std::io::IsTerminal as _;
use std::path::PathBuf;

use clap::Args;
use gloam::load::{Locator, Problem, load, read_paths};
use gloam_grammar::GrammarDiagnostic;
use miette::Diagnostic;

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

/// Renders one problem as text, without colour unless `colour`: see [`gloam::report`].
pub(crate) fn render(problem: &dyn Diagnostic, width: usize, colour: bool) -> String {
    gloam::report::render(problem, width, colour)
}

/// A located label as JSON: where it points and what it says.
fn label_json(
    source: &dyn miette::SourceCode,
    label: &miette::LabeledSpan,
    message: Option<String>,
) -> Option<serde_json::Value> {
    let contents = source.read_span(label.inner(), 0, 0).ok()?;
    Some(serde_json::json!({
        "file": contents.name().unwrap_or_default(),
        "line": contents.line() + 1,
        "column": contents.column() + 1,
        "offset": label.offset(),
        "length": label.len(),
        "label": label.label(),
        "message": message,
    }))
}

/// The places a problem points at besides its main one: its other labels (where a
/// duplicate was first set, in the same file) and its related diagnostics (where a duplicate
/// was first defined, in another file).
fn related_json(problem: &dyn Diagnostic) -> Vec<serde_json::Value> {
    let mut related = Vec::new();
    if let (Some(labels), Some(source)) = (problem.labels(), problem.source_code()) {
        related.extend(
            labels
                .skip(1)
                .filter_map(|label| label_json(source, &label, None)),
        );
    }
    if let Some(others) = problem.related() {
        for other in others {
            let source = other.source_code().or(problem.source_code());
            let first = other.labels().and_then(|mut labels| labels.next());
            if let (Some(source), Some(label)) = (source, first) {
                related.extend(label_json(source, &label, Some(other.to_string())));
            }
        }
    }
    related
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
        "related": related_json(problem),
        "more": more,
    })
}

/// "load the file that declares it" becomes "load `cards/harrowdeep/harrowdeep.gloam`,
/// which declares it" when the built-in data declares the name and that file was not loaded.
fn name_declaring_files(problems: &mut [Problem], loaded: &[gloam::load::Source]) {
    const VAGUE: &str = "load the file that declares it";
    let wanted = |problem: &Problem| match problem {
        Problem::Grammar(GrammarDiagnostic::UnknownName { help, .. })
        | Problem::Grammar(GrammarDiagnostic::UnknownParent { help, .. }) => help.contains(VAGUE),
        _ => false,
    };
    if !problems.iter().any(wanted) {
        return;
    }
    let Some(cards) = super::data::builtin_cards() else {
        return;
    };
    let (builtin, _) = read_paths(&[cards]);
    let declaring = |kind: &str, name: &str| -> Option<String> {
        let header = format!("{kind} \"{name}\"");
        builtin
            .iter()
            .find(|source| {
                source
                    .text
                    .lines()
                    .any(|line| line.trim_start().starts_with(&header))
            })
            .map(|source| source.name.clone())
            .filter(|file| !loaded.iter().any(|l| same_file(&l.name, file)))
    };
    for problem in problems.iter_mut() {
        let (kind, name, help) = match problem {
            Problem::Grammar(GrammarDiagnostic::UnknownName {
                what, name, help, ..
            }) => (what.as_str(), name.as_str(), help),
            Problem::Grammar(GrammarDiagnostic::UnknownParent { name, help, .. }) => {
                ("ruleset", name.as_str(), help)
            }
            _ => continue,
        };
        if !help.contains(VAGUE) {
            continue;
        }
        if let Some(file) = declaring(kind, name) {
            *help = help.replacen(
                VAGUE,
                &format!("load `{file}`, which declares it (add it to the paths checked)"),
                1,
            );
        }
    }
}

/// Whether two file names are the same file.
fn same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

pub(crate) fn run(args: &CheckArgs) -> Result<bool, CliError> {
    let host = gloam_dsl::Host::new();
    let paths = args.data.paths_or(&args.paths)?;
    let (sources, mut problems) = read_paths(&paths);
    let (_, load_problems) = load(&sources, &host);
    problems.extend(load_problems);
    name_declaring_files(&mut problems, &sources);
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
