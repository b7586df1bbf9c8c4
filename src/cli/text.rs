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
    parse_texts(&content).map_err(|e| CliError::input(format!("`{}` {e}", path.display())))
}

/// The longest card text `text check` reads, in characters: the longest printed card
/// text is a few hundred; comparing grows faster than the text.
const MAX_TEXT_CHARS: usize = 10_000;

/// Refuses an entry whose text is longer than [`MAX_TEXT_CHARS`].
fn within_limit(entries: Vec<Entry>) -> Result<Vec<Entry>, String> {
    for (index, entry) in entries.iter().enumerate() {
        let chars = entry.text.chars().count();
        if chars > MAX_TEXT_CHARS {
            return Err(format!(
                "has a text of {chars} characters for `{}` (entry {index}), more than the limit of {MAX_TEXT_CHARS}",
                entry.name
            ));
        }
    }
    Ok(entries)
}

/// Reads a texts file: a JSON array of `{"name", "text"}` objects, or CSV with `name` and
/// `text` columns. A UTF-8 byte order mark is skipped; CSV lines may end in `\n`, `\r\n`
/// or `\r`. The error completes "`FILE` ...".
fn parse_texts(content: &str) -> Result<Vec<Entry>, String> {
    let content = content.strip_prefix('\u{feff}').unwrap_or(content);
    let start = content.trim_start();
    if start.is_empty() {
        return Err("is empty: give a JSON array of {\"name\", \"text\"} objects, or CSV with `name` and `text` columns".to_owned());
    }
    let json_scalar = || serde_json::from_str::<serde_json::Value>(content).is_ok();
    if start.starts_with(['[', '{']) || json_scalar() {
        let value: serde_json::Value =
            serde_json::from_str(content).map_err(|e| format!("is not valid JSON: {e}"))?;
        let Some(values) = value.as_array() else {
            let found = match value {
                serde_json::Value::Null => "null",
                serde_json::Value::Object(_) => "an object",
                serde_json::Value::String(_) => "a string",
                serde_json::Value::Number(_) => "a number",
                _ => "a boolean",
            };
            return Err(format!(
                "holds {found}; a texts file in JSON is an array of {{\"name\", \"text\"}} objects"
            ));
        };
        if values.is_empty() {
            return Err("is an empty array: there is no text to check".to_owned());
        }
        let entries: Result<Vec<Entry>, String> = values
            .iter()
            .enumerate()
            .map(|(index, value)| {
                let field = |key: &str| value.get(key).and_then(|v| v.as_str()).map(str::to_owned);
                match (field("name"), field("text")) {
                    (Some(name), Some(text)) => Ok(Entry { name, text }),
                    _ => Err(format!("has no string `name` and `text` in entry {index}")),
                }
            })
            .collect();
        return within_limit(entries?);
    }
    let rows = parse_csv(content)?;
    let Some((header, rows)) = rows.split_first() else {
        return Err("is empty".to_owned());
    };
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
    };
    let (Some(name_at), Some(text_at)) = (column("name"), column("text")) else {
        return Err(format!(
            "needs `name` and `text` columns; its first line has {}",
            header
                .iter()
                .map(|h| format!("`{h}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    };
    let entries: Vec<Entry> = rows
        .iter()
        .filter(|row| row.iter().any(|cell| !cell.is_empty()))
        .map(|row| Entry {
            name: row.get(name_at).cloned().unwrap_or_default(),
            text: row.get(text_at).cloned().unwrap_or_default(),
        })
        .collect();
    if entries.is_empty() {
        return Err("has a header but no rows: there is no text to check".to_owned());
    }
    within_limit(entries)
}

/// Reads CSV: commas between cells, double quotes around cells that hold commas, quotes or
/// line breaks, `""` for a quote inside them; lines end in `\n`, `\r\n` or `\r`. A quote
/// left open is an error (it would swallow the rest of the file).
fn parse_csv(content: &str) -> Result<Vec<Vec<String>>, String> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut line = 1;
    let mut opened_at = 0;
    let mut chars = content.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' || (c == '\r' && chars.peek() != Some(&'\n')) {
            line += 1;
        }
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if cell.is_empty() => {
                quoted = true;
                opened_at = line;
            }
            (',', false) => row.push(std::mem::take(&mut cell)),
            ('\r', false) if chars.peek() == Some(&'\n') => {}
            ('\n' | '\r', false) => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (c, _) => cell.push(c),
        }
    }
    if quoted {
        return Err(format!(
            "has a quote opened on line {opened_at} and never closed; close it with `\"`"
        ));
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push(cell);
        rows.push(row);
    }
    Ok(rows)
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
    use super::{parse_csv, parse_texts};

    #[test]
    fn csv_quoted_cells_keep_commas_and_quotes() {
        let rows =
            parse_csv("name,text\n\"Easy Come, Easy Go\",\"Say \"\"no\"\".\"\nA,b\n").unwrap();
        assert_eq!(rows[1], ["Easy Come, Easy Go", "Say \"no\"."]);
        assert_eq!(rows[2], ["A", "b"]);
    }

    fn error(content: &str) -> String {
        match parse_texts(content) {
            Ok(entries) => panic!("{} entries read", entries.len()),
            Err(error) => error,
        }
    }

    #[test]
    fn a_byte_order_mark_and_carriage_returns_are_read() {
        // Issue 17: both gave "needs name and text columns".
        for content in [
            "\u{feff}name,text\nA,b\n",
            "name,text\rA,b\rC,d\r",
            "\u{feff}[{\"name\": \"A\", \"text\": \"b\"}]",
        ] {
            let entries = parse_texts(content).unwrap();
            assert_eq!(
                (entries[0].name.as_str(), entries[0].text.as_str()),
                ("A", "b")
            );
        }
        assert_eq!(parse_texts("name,text\rA,b\rC,d\r").unwrap().len(), 2);
    }

    #[test]
    fn json_that_is_not_an_array_is_named() {
        assert!(error("null").starts_with("holds null;"));
        assert!(error("{\"name\": \"A\"}").starts_with("holds an object;"));
        assert!(error("[]").contains("empty array"));
    }

    #[test]
    fn an_unclosed_quote_and_empty_files_are_errors() {
        // Issue 17: the open quote merged every later field into one cell, silently.
        assert_eq!(
            error("name,text\nA,\"b\nC,d\n"),
            "has a quote opened on line 2 and never closed; close it with `\"`"
        );
        assert!(error("").starts_with("is empty"));
        assert!(error("\u{feff}\n").starts_with("is empty"));
        assert!(error("name,text\n").contains("no rows"));
        assert!(error("title,body\nA,b\n").contains("its first line has `title`, `body`"));
    }

    #[test]
    fn a_megabyte_of_card_text_is_refused() {
        // Issue 17: a 1 MB card text ran for minutes, then aborted.
        let text = "Push this fighter 1 hex. ".repeat(40_000);
        let json = serde_json::json!([{"name": "A", "text": text}]).to_string();
        assert!(error(&json).contains("a text of 1000000 characters for `A` (entry 0)"));
        assert!(error(&format!("name,text\nA,{text}\n")).contains("more than the limit of 10000"));
    }
}
