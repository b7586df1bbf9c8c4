//! `gloam odds RULESET`: the exact outcome distribution of one attack, from the rules.

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::PathBuf;

use clap::Args;
use gloam::exact::Exact;
use gloam::odds::{Calculator, Odds, Situation};
use gloam::odds_table::{TableCalculator, TableOdds, TableSituation};

use super::CliError;

/// Arguments of `gloam odds`.
#[derive(Debug, Args)]
pub(crate) struct OddsArgs {
    /// The ruleset (`harrowdeep`, `shadespire`, `embergard`).
    ruleset: String,
    /// Data files or folders to load (default: env `GLOAM_DATA`, else the built-in cards/).
    #[arg(long = "data")]
    paths: Vec<PathBuf>,
    /// List what can attack and be attacked instead of reading a situation.
    #[arg(long)]
    list: bool,
    /// Print JSON (exact fractions) instead of a table.
    #[arg(long)]
    json: bool,
}

/// The data paths: those given, else `GLOAM_DATA`, else the shipped cards/.
pub(crate) fn data_paths(given: &[PathBuf]) -> Vec<PathBuf> {
    if !given.is_empty() {
        return given.to_vec();
    }
    if let Some(env) = std::env::var_os("GLOAM_DATA") {
        return std::env::split_paths(&env).collect();
    }
    let local = PathBuf::from("cards");
    if local.is_dir() {
        return vec![local];
    }
    vec![PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cards"))]
}

pub(crate) fn run(args: &OddsArgs) -> Result<bool, CliError> {
    // A ruleset played by armies on a table (Spearhead) has its own situations.
    if let Ok(calculator) = TableCalculator::new(&data_paths(&args.paths), &args.ruleset) {
        return run_table(args, calculator);
    }
    let mut calculator = Calculator::new(&data_paths(&args.paths), &args.ruleset)
        .map_err(|e| CliError::input(e.to_string()))?;
    if args.list {
        let listed = calculator.list();
        let text = if args.json {
            let value = serde_json::json!({ "fighters": listed });
            format!(
                "{}\n",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            )
        } else {
            let mut out = String::new();
            for fighter in &listed {
                let _ = writeln!(out, "{} / {}", fighter.warband, fighter.fighter);
                for w in &fighter.weapons {
                    let _ = writeln!(
                        out,
                        "    {}{}: range {}, {} {}, damage {}",
                        w.name,
                        w.side
                            .as_ref()
                            .map(|s| format!(" ({s})"))
                            .unwrap_or_default(),
                        w.range,
                        w.dice,
                        w.symbol,
                        w.damage
                    );
                }
            }
            out
        };
        super::emit(&text)?;
        return Ok(true);
    }
    let input = situation_text()?;
    let situation: Situation = serde_json::from_str(&input).map_err(|e| {
        CliError::input(format!(
            "the situation on stdin is not valid: {e}; expected {{\"attacker\": {{\"warband\", \"fighter\", \"weapon\"}}, \"target\": {{\"warband\", \"fighter\"}}}} (see docs/odds.md)"
        ))
    })?;
    let odds = calculator
        .odds(&situation)
        .map_err(|e| CliError::input(e.to_string()))?;
    answer(args.json, || odds.to_json(), || table(&situation, &odds))
}

/// The situation's JSON, read from stdin.
fn situation_text() -> Result<String, CliError> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| CliError::input(format!("cannot read the situation from stdin: {e}")))?;
    Ok(input)
}

/// Prints `text` as the command's answer: pretty JSON of `value` with `--json`.
fn answer(
    json: bool,
    value: impl FnOnce() -> serde_json::Value,
    text: impl FnOnce() -> String,
) -> Result<bool, CliError> {
    let out = if json {
        format!(
            "{}\n",
            serde_json::to_string_pretty(&value()).unwrap_or_default()
        )
    } else {
        text()
    };
    super::emit(&out)?;
    Ok(true)
}

/// One line of a distribution: the label, the chance in per cent, a bar of 40 columns for
/// certainty, then the exact fraction (last, as it may be long: dozens of digits for an
/// attack of many dice).
fn line(out: &mut String, label: &str, p: &Exact) {
    let percent = p.to_f64() * 100.0;
    // A chance too small to show in hundredths of a per cent is not shown as none.
    let shown = if !p.is_zero() && percent < 0.005 {
        "<0.01%".to_owned()
    } else {
        format!("{percent:.2}%")
    };
    let width = (p.to_f64() * 40.0).round() as usize;
    let _ = writeln!(out, "{label:<9} {shown:>8}  {:<40}  {p}", "#".repeat(width));
}

fn table(situation: &Situation, odds: &Odds) -> String {
    let profile = &odds.profile;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}) attacks {} ({}) with {}",
        situation.attacker.fighter,
        situation.attacker.warband,
        situation.target.fighter,
        situation.target.warband,
        situation.attacker.weapon
    );
    let _ = writeln!(
        out,
        "  {} {} dice, damage {}{}; defence {} {}, wounds {}",
        profile.dice,
        profile.symbol,
        profile.damage,
        if profile.keywords.is_empty() {
            String::new()
        } else {
            format!(" ({})", profile.keywords.join(", "))
        },
        profile.defence,
        profile.defence_symbol,
        profile.wounds
    );
    let _ = writeln!(out, "\nresult       chance{:42}exact", "");
    for key in ["crit_hit", "hit", "draw", "miss"] {
        line(
            &mut out,
            key,
            &odds.outcomes.get(key).cloned().unwrap_or_default(),
        );
    }
    let _ = writeln!(out, "\ndamage       chance{:42}exact", "");
    for (amount, p) in &odds.damage {
        line(&mut out, &amount.to_string(), p);
    }
    let _ = writeln!(
        out,
        "\nexpected damage {:.3} ({})",
        odds.expected_damage.to_f64(),
        odds.expected_damage
    );
    if !odds.side_changed.is_zero() {
        let _ = writeln!(
            out,
            "note: in {:.2}% of the attacks the attacker or the target turned to its other side while it ran (an Inspire condition held); the odds include it",
            odds.side_changed.to_f64() * 100.0
        );
    }
    out
}

/// `gloam odds` for a ruleset played on a table: units and weapons, damage points.
fn run_table(args: &OddsArgs, mut calculator: TableCalculator) -> Result<bool, CliError> {
    if args.list {
        let listed = calculator.list();
        let text = if args.json {
            let value = serde_json::json!({ "units": listed });
            format!(
                "{}\n",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            )
        } else {
            let mut out = String::new();
            for unit in &listed {
                let _ = writeln!(
                    out,
                    "{} / {} [{}]",
                    unit.army,
                    unit.unit,
                    unit.keywords.join(", ")
                );
                for w in &unit.weapons {
                    let _ = writeln!(out, "    {}", w.name);
                }
            }
            out
        };
        super::emit(&text)?;
        return Ok(true);
    }
    let input = situation_text()?;
    let situation: TableSituation = serde_json::from_str(&input).map_err(|e| {
        CliError::input(format!(
            "the situation on stdin is not valid: {e}; expected {{\"attacker\": {{\"army\", \"unit\", \"weapon\", \"charged\"}}, \"target\": {{\"army\", \"unit\", \"cover\"}}}} (see docs/odds.md)"
        ))
    })?;
    let odds = calculator
        .odds(&situation)
        .map_err(|e| CliError::input(e.to_string()))?;
    answer(
        args.json,
        || odds.to_json(),
        || table_text(&situation, &odds),
    )
}

fn table_text(situation: &TableSituation, odds: &TableOdds) -> String {
    let p = &odds.profile;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}) attack {} ({}) with {}{}",
        situation.attacker.unit,
        situation.attacker.army,
        situation.target.unit,
        situation.target.army,
        situation.attacker.weapon,
        if situation.attacker.charged {
            ", having charged"
        } else {
            ""
        }
    );
    let _ = writeln!(
        out,
        "  {} models x {} attacks, hit {}+ ({:+}), wound {}+ ({:+}), rend {}, damage {}{}; save {}+ ({:+}){}",
        p.models,
        p.attacks,
        p.hit,
        p.hit_modifier,
        p.wound,
        p.wound_modifier,
        p.rend,
        p.damage,
        p.crit
            .as_ref()
            .map(|c| format!(", crit: {c}"))
            .unwrap_or_default(),
        p.save,
        p.save_modifier,
        p.ward.map(|w| format!(", ward {w}+")).unwrap_or_default()
    );
    let _ = writeln!(out, "\ndamage       chance{:42}exact", "");
    for (amount, chance) in &odds.damage {
        line(&mut out, &amount.to_string(), chance);
    }
    let _ = writeln!(
        out,
        "\nexpected damage {:.3} ({})",
        odds.expected_damage.to_f64(),
        odds.expected_damage
    );
    out
}
