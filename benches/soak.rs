//! The soak (issue 17): many random games of every playable shipped ruleset, the state's
//! invariants checked after every decision (`gloam::sim::check_game_invariants`: every card
//! in one zone, no two pieces in one place, damage between 0 and Wounds, glory never
//! negative, no two bases overlapping on a table, and the ruleset's own `invariant` items).
//! A benchmark, not a test: at full size it runs for hours.
//!
//! ```sh
//! cargo bench --bench soak                          # 100,000 games a ruleset, from seed 1
//! GLOAM_SOAK_GAMES=2000 cargo bench --bench soak    # a shorter run
//! GLOAM_SOAK_RULESETS=harrowdeep,embergard GLOAM_SOAK_JOBS=2 cargo bench --bench soak
//! GLOAM_SCRIPT_ENGINE=compiled cargo bench --bench soak  # the compiled engine
//! ```
//!
//! The games are played in chunks of `GLOAM_SOAK_CHUNK` (5,000) with consecutive seeds, so a
//! soak of N games from seed S plays exactly the games of `gloam sim R --games N --seed S`.
//! Each chunk prints one line; the end prints one JSON object per ruleset, and the process
//! fails if any game failed.

use std::path::PathBuf;
use std::time::Instant;

use gloam::sim::{MatchChoice, SimConfig};

/// The `gloam` command's allocator, so that the figures are the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn setting(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a whole number, not {text:?}")),
        Err(_) => default,
    }
}

/// The rulesets a game can be played with: those with a flow, warbands and boards.
fn playable(cards: &PathBuf) -> Vec<String> {
    let (sources, problems) = gloam::load::read_paths(std::slice::from_ref(cards));
    assert!(problems.is_empty(), "the shipped data reads: {problems:?}");
    let (loaded, _) = gloam::sim::load_checked(&sources).expect("the shipped data loads");
    loaded
        .library
        .rulesets()
        .iter()
        .filter(|ruleset| {
            gloam::sim::default_match(&loaded, &ruleset.name).is_ok()
                && loaded
                    .library
                    .ruleset(&ruleset.name)
                    .is_some_and(|resolved| !resolved.steps.is_empty())
        })
        .map(|ruleset| ruleset.name.clone())
        .collect()
}

fn main() {
    let cards = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cards"));
    let games = setting("GLOAM_SOAK_GAMES", 100_000) as usize;
    let seed = setting("GLOAM_SOAK_SEED", 1);
    let chunk = setting("GLOAM_SOAK_CHUNK", 5_000).max(1) as usize;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = setting("GLOAM_SOAK_JOBS", cores as u64) as usize;
    // The script engine: `GLOAM_SCRIPT_ENGINE` (`compiled`, the default, or `rhai`).
    let engine = gloam_dsl::ScriptEngine::from_env();
    let rulesets: Vec<String> = match std::env::var("GLOAM_SOAK_RULESETS") {
        Ok(list) => list.split(',').map(|name| name.trim().to_owned()).collect(),
        Err(_) => playable(&cards),
    };
    eprintln!(
        "soak: {games} games of each of {} from seed {seed}, {jobs} jobs, chunks of {chunk}, {} engine",
        rulesets.join(", "),
        engine.name()
    );
    let mut failed_any = false;
    let mut summaries = Vec::new();
    for ruleset in &rulesets {
        // A benchmark's wall clock, printed only: no game reads it.
        #[allow(clippy::disallowed_methods)]
        let started = Instant::now();
        let (mut played, mut failed, mut decisions) = (0usize, 0usize, 0f64);
        let mut errors = Vec::new();
        // Each chunk's digest of its games' event logs, in order: two soaks compare exactly.
        let mut digests = Vec::new();
        let mut done = 0;
        while done < games {
            let count = chunk.min(games - done);
            let config = SimConfig {
                ruleset: ruleset.clone(),
                players: 2,
                agents: Vec::new(),
                games: count,
                seed: seed + done as u64,
                jobs,
                choice: MatchChoice::default(),
                engine,
                profile: false,
                digest: true,
            };
            let report = gloam::sim::run(std::slice::from_ref(&cards), &config, &|_| {})
                .unwrap_or_else(|error| panic!("{ruleset}: {error}"));
            digests.push(report.log_digest.clone());
            played += report.played;
            failed += report.failed;
            decisions += report.average_decisions * count as f64;
            for error in report.errors {
                if errors.len() < 20 {
                    errors.push(format!("{error:?}"));
                }
            }
            done += count;
            eprintln!(
                "  {ruleset}: {done}/{games} games, {failed} failed, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
        failed_any |= failed > 0;
        summaries.push(serde_json::json!({
            "ruleset": ruleset,
            "games": games,
            "seed": seed,
            "played": played,
            "failed": failed,
            "average_decisions": decisions / games.max(1) as f64,
            "engine": engine.name(),
            "log_digests": digests,
            "wall_seconds": started.elapsed().as_secs(),
            "errors": errors,
        }));
    }
    for summary in &summaries {
        println!("{summary}");
    }
    assert!(!failed_any, "some soak games failed: see the errors above");
}
