//! `gloam sim RULESET`: many games between agents, with a summary.

use std::fmt::Write as _;

use clap::Args;
use gloam::sim::{AgentKind, MatchChoice, SimConfig, SimReport};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::CliError;
use super::data::DataArgs;

/// Arguments of `gloam sim`.
#[derive(Debug, Args)]
pub(crate) struct SimArgs {
    /// The ruleset to play (`harrowdeep`).
    ruleset: String,
    #[command(flatten)]
    data: DataArgs,
    /// How many games (at least 1).
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
    #[command(flatten)]
    choice: ChoiceArgs,
    /// Which engine runs the scripts: `compiled` (gloam's evaluator of the compiled form;
    /// docs/compiler.md) or `rhai` (Rhai's interpreter, the reference). The games are the
    /// same on both (compare `log_digest` in `--json`). Default: the environment variable
    /// `GLOAM_SCRIPT_ENGINE`, else `compiled`.
    #[arg(long, value_name = "ENGINE")]
    engine: Option<gloam::sim::ScriptEngine>,
    /// Worker threads (1 to 64). The results do not depend on it.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Print the results as one JSON object.
    #[arg(long)]
    json: bool,
    /// Count the operations of every script the games run (the compiled engine's count,
    /// the one the `operations` limit reads) and report them by script and by line of the
    /// data files, most first: where a ruleset's time goes. In `--json`, the object
    /// `profile`.
    #[arg(long)]
    profile: bool,
}

/// `--warbands`, `--boards`, `--decklists` (`--armies` or `--parties`, `--table`, `--map` on
/// a measured table): a match's choices, by seat (shared by `sim` and `play`).
#[derive(Clone, Debug, Default, Args)]
pub(crate) struct ChoiceArgs {
    /// The warbands, by seat, comma-separated (repeated over the seats when shorter).
    /// Default: the ruleset's warbands in turn.
    #[arg(long, value_delimiter = ',', value_name = "A,B")]
    warbands: Vec<String>,
    /// The board each seat brings, comma-separated (repeated over the seats when shorter).
    /// Default: the ruleset's boards in order.
    #[arg(long, value_delimiter = ',', value_name = "A,B")]
    boards: Vec<String>,
    /// The decklist of each seat, comma-separated (each of that seat's warband, or in a
    /// ruleset of parties of that seat's party). Default: each warband's or party's first
    /// decklist, if it has one.
    #[arg(long, value_delimiter = ',', value_name = "A,B")]
    decklists: Vec<String>,
    /// In a ruleset played with armies on a measured table (Spearhead): the armies, by seat,
    /// comma-separated (repeated over the seats when shorter). Default: the ruleset's armies
    /// in turn.
    #[arg(long, value_delimiter = ',', value_name = "A,B")]
    armies: Vec<String>,
    /// In a ruleset whose players bring parties of heroes to a measured table (Umbra
    /// Turris): the parties, by seat, comma-separated (repeated over the seats when shorter).
    /// Default: the ruleset's parties in turn.
    #[arg(long, value_delimiter = ',', value_name = "A,B")]
    parties: Vec<String>,
    /// The `table` item a table match is played on. Default: the ruleset's first.
    #[arg(long, value_name = "NAME")]
    table: Option<String>,
    /// The table's deployment map (seat i holds its territory i). Default: its first that serves the number of players (`min_players`, `max_players`).
    #[arg(long, value_name = "NAME")]
    map: Option<String>,
}

impl ChoiceArgs {
    pub(crate) fn choice(&self) -> MatchChoice {
        let clean =
            |list: &[String]| -> Vec<String> { list.iter().map(|s| s.trim().to_owned()).collect() };
        MatchChoice {
            warbands: clean(&self.warbands),
            boards: clean(&self.boards),
            decklists: clean(&self.decklists),
            armies: clean(&self.armies),
            parties: clean(&self.parties),
            table: self.table.as_ref().map(|s| s.trim().to_owned()),
            map: self.map.as_ref().map(|s| s.trim().to_owned()),
        }
    }
}

/// The progress bar's rate: games per second to three significant digits, not the
/// stopwatch's noise ("12.3 games/s", not "12.345678/s").
fn format_rate(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec <= 0.0 {
        "- games/s".to_owned()
    } else if per_sec >= 100.0 {
        format!("{per_sec:.0} games/s")
    } else if per_sec >= 10.0 {
        format!("{per_sec:.1} games/s")
    } else {
        format!("{per_sec:.2} games/s")
    }
}

fn rate(state: &ProgressState, out: &mut dyn std::fmt::Write) {
    let _ = out.write_str(&format_rate(state.per_sec()));
}

pub(crate) fn run(args: &SimArgs) -> Result<bool, CliError> {
    let config = SimConfig {
        ruleset: args.ruleset.clone(),
        players: args.players,
        agents: args.agents.clone(),
        games: args.games,
        seed: args.seed,
        jobs: args.jobs,
        choice: args.choice.choice(),
        engine: match args.engine {
            Some(engine) => engine,
            None => engine_from_env()?,
        },
        profile: args.profile,
        // Only `--json` prints the digests.
        digest: args.json,
    };
    gloam::sim::check_config(&config).map_err(CliError::usage)?;
    let paths = args.data.paths()?;
    let bar = ProgressBar::with_draw_target(Some(args.games as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games ({rate}, {eta} left)")
            .map(|style| style.with_key("rate", rate))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let report = gloam::sim::run(&paths, &config, &|done| {
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let report = report
        .map_err(|error| super::data::unplayable(&paths, &args.ruleset, error))
        .map_err(CliError::input)?;
    if args.json {
        let text =
            serde_json::to_string_pretty(&report).map_err(|e| CliError::input(e.to_string()))?;
        super::emit(&format!("{text}\n"))?;
        return Ok(report.failed == 0);
    }
    super::emit(&summary(&report))?;
    Ok(report.failed == 0)
}

/// `1 draw`, `2 draws`.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The report as text.
fn summary(report: &SimReport) -> String {
    let mut out = String::new();
    let percent = |n: usize| 100.0 * n as f64 / report.played.max(1) as f64;
    let last = report
        .seed
        .wrapping_add(report.games as u64)
        .wrapping_sub(1);
    let _ = writeln!(
        out,
        "{} {} of {} (seed{} {})",
        report.games,
        if report.games == 1 { "game" } else { "games" },
        report.ruleset,
        if report.games == 1 { "" } else { "s" },
        if report.games == 1 {
            report.seed.to_string()
        } else {
            format!("{} to {last}", report.seed)
        }
    );
    let multiplayer = report.warbands.len() > 2 || report.shared_win_games > 0;
    for (seat, warband) in report.warbands.iter().enumerate() {
        let agent = report.agents.get(seat).map_or("random", String::as_str);
        let wins = report.wins[seat];
        let _ = write!(
            out,
            "  seat {seat} {warband:<28} {agent:<6} wins {wins:>5} ({:5.1}%)",
            percent(wins)
        );
        if multiplayer {
            let _ = write!(out, "  shared {:>5}", report.shared_wins[seat]);
        }
        let _ = writeln!(out, "  average glory {:.2}", report.average_glory[seat]);
    }
    if multiplayer {
        let _ = writeln!(
            out,
            "  shared wins {} ({:.1}%): games won by more than one seat, not all",
            report.shared_win_games,
            percent(report.shared_win_games)
        );
    }
    let _ = writeln!(
        out,
        "  draws {} ({:.1}%)",
        report.draws,
        percent(report.draws)
    );
    let outright: usize = report.wins.iter().sum();
    let _ = writeln!(
        out,
        "  {} = {} + {} + {}",
        plural(report.played, "game played", "games played"),
        plural(outright, "outright win", "outright wins"),
        plural(report.shared_win_games, "shared win", "shared wins"),
        plural(report.draws, "draw", "draws"),
    );
    let _ = writeln!(
        out,
        "  average length: {:.1} decisions, {:.1} events",
        report.average_decisions, report.average_events
    );
    if let Some(profile) = &report.profile {
        profile_lines(&mut out, profile, report.games);
    }
    if report.failed == 0 {
        let _ = writeln!(out, "  errors: none");
    } else {
        let _ = writeln!(
            out,
            "  errors: {} failed",
            plural(report.failed, "game", "games")
        );
        for failed in report.errors.iter().take(5) {
            let _ = writeln!(
                out,
                "    seed {}: {}",
                failed.seed,
                failed.error.as_deref().unwrap_or("")
            );
        }
    }
    out
}

/// The most scripts `--profile` lists in the text summary (the JSON lists them all).
const PROFILE_LINES: usize = 15;

/// `--profile` in the text summary: operations a game, the scripts that count most first.
fn profile_lines(out: &mut String, profile: &gloam_dsl::profile::Profile, games: usize) {
    let games = games.max(1) as f64;
    let total = profile.operations();
    let _ = writeln!(
        out,
        "  operations: {:.0} a game, by script (runs a game, operations a game, share):",
        total as f64 / games
    );
    let listed = profile.by_cost();
    for (label, cost) in listed.iter().take(PROFILE_LINES) {
        let _ = writeln!(
            out,
            "    {:>10.1} {:>12.0} {:>5.1}%  {label}",
            cost.runs as f64 / games,
            cost.operations as f64 / games,
            100.0 * cost.operations as f64 / total.max(1) as f64
        );
    }
    if listed.len() > PROFILE_LINES {
        let _ = writeln!(
            out,
            "    and {} more scripts (`--json` lists them all)",
            listed.len() - PROFILE_LINES
        );
    }
    let lines = profile.by_line();
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "  operations by line of the data (operations a game, share, file:line, text):"
    );
    for (file, line, cost) in lines.iter().take(PROFILE_LINES) {
        let _ = writeln!(
            out,
            "    {:>12.0} {:>5.1}%  {file}:{line}  {}",
            cost.operations as f64 / games,
            100.0 * cost.operations as f64 / total.max(1) as f64,
            shortened(&cost.text)
        );
    }
    if lines.len() > PROFILE_LINES {
        let _ = writeln!(
            out,
            "    and {} more lines (`--json` lists them all)",
            lines.len() - PROFILE_LINES
        );
    }
}

/// A line of data as the profile shows it: at most 70 characters.
fn shortened(text: &str) -> String {
    const MAX: usize = 70;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        let mut short: String = text.chars().take(MAX - 3).collect();
        short.push_str("...");
        short
    }
}

/// The engine `GLOAM_SCRIPT_ENGINE` names (`compiled` when it is unset or empty); a name
/// that is neither engine is refused rather than ignored.
fn engine_from_env() -> Result<gloam::sim::ScriptEngine, CliError> {
    match std::env::var("GLOAM_SCRIPT_ENGINE") {
        Ok(name) if !name.is_empty() => name
            .parse()
            .map_err(|e: String| CliError::usage(format!("GLOAM_SCRIPT_ENGINE: {e}"))),
        _ => Ok(gloam::sim::ScriptEngine::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::format_rate;

    #[test]
    fn the_rate_shows_whole_games_or_a_few_decimals_not_noise() {
        assert_eq!(format_rate(1234.5678), "1235 games/s");
        assert_eq!(format_rate(38.123456), "38.1 games/s");
        assert_eq!(format_rate(4.56789), "4.57 games/s");
        assert_eq!(format_rate(0.0), "- games/s");
        assert_eq!(format_rate(f64::INFINITY), "- games/s");
    }
}
