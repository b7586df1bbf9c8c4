//! `gloam text check|render`: card text against card behaviour.

use std::io::IsTerminal as _;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use gloam::load::{load, read_paths};
use gloam::text::{Sites, Status, TextCheck, check_card, render};
use gloam_grammar::CardDef;

use super::CliError;
use super::data::{DataArgs, ruleset_and_old_paths};

/// Arguments of `gloam text`.
#[derive(Debug, Args)]
pub(crate) struct TextArgs {
    #[command(subcommand)]
    command: TextCommand,
}

#[derive(Debug, Subcommand)]
enum TextCommand {
    /// Check cards' texts against what the cards do: their own `text` fields, or printed
    /// texts from a JSON or CSV file (`--texts`).
    Check(CheckArgs),
    /// Print the canonical text of every card of a ruleset, written from its data.
    Render(RenderArgs),
}

/// Arguments of `gloam text check`.
#[derive(Debug, Args)]
struct CheckArgs {
    /// The ruleset whose cards are checked (`harrowdeep`).
    ruleset: Option<String>,
    /// Deprecated: data paths as arguments (use --data PATH).
    #[arg(hide = true)]
    old_paths: Vec<String>,
    /// Deprecated spelling of the ruleset (give it as the first argument).
    #[arg(long = "ruleset", value_name = "NAME", hide = true)]
    ruleset_flag: Option<String>,
    #[command(flatten)]
    data: DataArgs,
    /// Printed texts to check instead of the cards' own: a JSON array of objects with
    /// `name` and `text`, or a CSV file with `name` and `text` columns.
    #[arg(long)]
    texts: Option<PathBuf>,
    /// Print a JSON array, one object per text: `name`, `status`, `diagnostics`.
    #[arg(long)]
    json: bool,
    /// Wrap the report at this many columns.
    #[arg(long, default_value_t = 100)]
    width: usize,
}

/// Arguments of `gloam text render`.
#[derive(Debug, Args)]
struct RenderArgs {
    /// The ruleset whose cards are rendered (`harrowdeep`).
    ruleset: Option<String>,
    /// Deprecated: data paths as arguments (use --data PATH).
    #[arg(hide = true)]
    old_paths: Vec<String>,
    /// Deprecated spelling of the ruleset (give it as the first argument).
    #[arg(long = "ruleset", value_name = "NAME", hide = true)]
    ruleset_flag: Option<String>,
    #[command(flatten)]
    data: DataArgs,
    /// Print a JSON array, one object per card: `name`, `kind`, `text`.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: &TextArgs) -> Result<bool, CliError> {
    match &args.command {
        TextCommand::Check(check) => run_check(check),
        TextCommand::Render(render_args) => run_render(render_args),
    }
}

struct Loaded {
    library: gloam_grammar::Library,
    sites: Sites,
}

/// The ruleset and the data paths of a `text` subcommand, old spellings included.
fn ruleset_and_paths(
    ruleset: Option<&String>,
    old_paths: &[String],
    flag: Option<&String>,
    data: &DataArgs,
) -> Result<(String, Vec<PathBuf>), CliError> {
    let positional: Vec<String> = ruleset.into_iter().chain(old_paths).cloned().collect();
    let (ruleset, old_paths) = ruleset_and_old_paths(&positional, flag)?;
    Ok((ruleset, data.paths_or(&old_paths)?))
}

fn load_cards(paths: &[PathBuf], ruleset: &str) -> Result<Loaded, CliError> {
    let (sources, problems) = read_paths(paths);
    if let Some(problem) = problems.first() {
        return Err(CliError::input(format!(
            "{problem} (pass --data PATH to load other data)"
        )));
    }
    let (loaded, problems) = load(&sources, &gloam_dsl::Host::new());
    if !problems.is_empty() {
        // Check what loaded: a problem in another ruleset's file need not stop this one.
        eprintln!(
            "warning: the data has {} problem{} (`gloam check {}` lists them); checking what loaded",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" },
            super::data::data_flags(paths)
        );
    }
    super::data::require_ruleset(&loaded.library, ruleset)?;
    Ok(Loaded {
        sites: Sites::new(&sources),
        library: loaded.library,
    })
}

fn cards_of<'a>(library: &'a gloam_grammar::Library, ruleset: &str) -> Vec<&'a CardDef> {
    library
        .cards()
        .iter()
        .filter(|c| c.ruleset == ruleset)
        .collect()
}

/// One `name`/`text` entry of a texts file.
struct Entry {
    name: String,
    text: String,
}

fn read_texts(path: &PathBuf) -> Result<Vec<Entry>, CliError> {
    let content = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read `{}`: {e}", path.display())))?;
    if content.trim_start().starts_with('[') {
        let values: Vec<serde_json::Value> = serde_json::from_str(&content).map_err(|e| {
            CliError::input(format!("`{}` is not a JSON array: {e}", path.display()))
        })?;
        values
            .iter()
            .enumerate()
            .map(|(index, value)| {
                let field = |key: &str| value.get(key).and_then(|v| v.as_str()).map(str::to_owned);
                match (field("name"), field("text")) {
                    (Some(name), Some(text)) => Ok(Entry { name, text }),
                    _ => Err(CliError::input(format!(
                        "entry {index} of `{}` has no string `name` and `text`",
                        path.display()
                    ))),
                }
            })
            .collect()
    } else {
        let rows = parse_csv(&content);
        let Some((header, rows)) = rows.split_first() else {
            return Ok(Vec::new());
        };
        let column = |name: &str| {
            header
                .iter()
                .position(|h| h.trim().eq_ignore_ascii_case(name))
        };
        let (Some(name_at), Some(text_at)) = (column("name"), column("text")) else {
            return Err(CliError::input(format!(
                "`{}` needs `name` and `text` columns",
                path.display()
            )));
        };
        Ok(rows
            .iter()
            .filter(|row| row.iter().any(|cell| !cell.is_empty()))
            .map(|row| Entry {
                name: row.get(name_at).cloned().unwrap_or_default(),
                text: row.get(text_at).cloned().unwrap_or_default(),
            })
            .collect())
    }
}

/// Reads CSV: commas between cells, double quotes around cells that hold commas, quotes or
/// line breaks, `""` for a quote inside them.
fn parse_csv(content: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = content.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if cell.is_empty() => quoted = true,
            (',', false) => row.push(std::mem::take(&mut cell)),
            ('\r', false) => {}
            ('\n', false) => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (c, _) => cell.push(c),
        }
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push(cell);
        rows.push(row);
    }
    rows
}

fn run_check(args: &CheckArgs) -> Result<bool, CliError> {
    let (ruleset, paths) = ruleset_and_paths(
        args.ruleset.as_ref(),
        &args.old_paths,
        args.ruleset_flag.as_ref(),
        &args.data,
    )?;
    let loaded = load_cards(&paths, &ruleset)?;
    let cards = cards_of(&loaded.library, &ruleset);
    let checks: Vec<TextCheck> = match &args.texts {
        Some(path) => {
            let label = path.display().to_string();
            read_texts(path)?
                .iter()
                .map(|entry| {
                    match cards
                        .iter()
                        .find(|c| c.name.eq_ignore_ascii_case(entry.name.trim()))
                    {
                        Some(card) => check_card(
                            card,
                            Some((&format!("{label}: {}", card.name), &entry.text)),
                            &loaded.sites,
                        ),
                        None => TextCheck::unknown(&entry.name),
                    }
                })
                .collect()
        }
        None => cards
            .iter()
            .filter(|c| c.text.is_some())
            .map(|card| check_card(card, None, &loaded.sites))
            .collect(),
    };
    let agree = checks.iter().all(|c| c.status == Status::Agrees);
    if args.json {
        let array: Vec<serde_json::Value> = checks.iter().map(TextCheck::to_json).collect();
        let text =
            serde_json::to_string_pretty(&array).map_err(|e| CliError::input(e.to_string()))?;
        super::emit(&format!("{text}\n"))?;
        return Ok(agree);
    }
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut out = String::new();
    let mut counts = [0usize; 4];
    for check in &checks {
        let slot = match check.status {
            Status::Agrees => 0,
            Status::Mismatch => 1,
            Status::Unparsed => 2,
            _ => 3,
        };
        counts[slot] += 1;
        if check.status == Status::Agrees {
            continue;
        }
        out.push_str(&format!("{}: {}\n", check.name, check.status.as_str()));
        for diagnostic in &check.diagnostics {
            out.push_str(&super::check::render(diagnostic, args.width, colour));
            out.push('\n');
        }
    }
    out.push_str(&format!(
        "checked {} texts: {} agree, {} mismatch, {} unparsed, {} unknown card\n",
        checks.len(),
        counts[0],
        counts[1],
        counts[2],
        counts[3]
    ));
    super::emit(&out)?;
    Ok(agree)
}

fn run_render(args: &RenderArgs) -> Result<bool, CliError> {
    let (ruleset, paths) = ruleset_and_paths(
        args.ruleset.as_ref(),
        &args.old_paths,
        args.ruleset_flag.as_ref(),
        &args.data,
    )?;
    let loaded = load_cards(&paths, &ruleset)?;
    let cards = cards_of(&loaded.library, &ruleset);
    if args.json {
        let array: Vec<serde_json::Value> = cards
            .iter()
            .map(|card| {
                serde_json::json!({
                    "name": card.name,
                    "kind": card.kind,
                    "text": render(card),
                })
            })
            .collect();
        let text =
            serde_json::to_string_pretty(&array).map_err(|e| CliError::input(e.to_string()))?;
        super::emit(&format!("{text}\n"))?;
        return Ok(true);
    }
    let mut out = String::new();
    for card in cards {
        out.push_str(&format!("{}\n  {}\n\n", card.name, render(card)));
    }
    super::emit(&out)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::parse_csv;

    #[test]
    fn csv_quoted_cells_keep_commas_and_quotes() {
        let rows = parse_csv("name,text\n\"Easy Come, Easy Go\",\"Say \"\"no\"\".\"\nA,b\n");
        assert_eq!(rows[1], ["Easy Come, Easy Go", "Say \"no\"."]);
        assert_eq!(rows[2], ["A", "b"]);
    }
}
