//! Simulating many games of a ruleset between agents (`gloam sim`).
//!
//! Game `i` of a run with seed `s` is seeded with `s + i`, and its agents with numbers
//! derived from that seed, so each game's result depends only on its seed: a run gives the
//! same results whatever the number of worker threads. After every decision the game is
//! checked against the invariants ([`check_invariants`]); a broken invariant, a refused
//! answer or a failing rule ends that game with an error in the report.

use std::path::PathBuf;
use std::rc::Rc;

use gloam_core::{Game, GameState, PlayerId};
use serde::Serialize;

use crate::agent::{Agent, GreedyAgent, RandomAgent};
use crate::engine::{MatchSpec, RulesetGame};
use crate::load::{Loaded, load, read_paths};

/// The most decisions one game may take before it is stopped as runaway.
pub const MAX_DECISIONS: usize = 20_000;

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    /// The game's seed.
    pub seed: u64,
    /// The winners' seats (all seats for a draw); empty if the game failed.
    pub winners: Vec<u8>,
    /// Each seat's glory, spent and unspent (the `glory` counter counts both).
    pub glory: Vec<i64>,
    /// How many decisions were taken.
    pub decisions: usize,
    /// How many events were recorded.
    pub events: usize,
    /// Why the game failed, if it did.
    pub error: Option<String>,
}

/// The results of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimReport {
    /// The ruleset.
    pub ruleset: String,
    /// The warbands, by seat.
    pub warbands: Vec<String>,
    /// The agents, by seat (`random`, `greedy`).
    pub agents: Vec<String>,
    /// The games played.
    pub games: usize,
    /// The first game's seed.
    pub seed: u64,
    /// Wins of each seat (a shared win counts for each winner; draws are not wins).
    pub wins: Vec<usize>,
    /// Games drawn (every seat among the winners).
    pub draws: usize,
    /// Average glory of each seat.
    pub average_glory: Vec<f64>,
    /// Average decisions per game.
    pub average_decisions: f64,
    /// Average events per game.
    pub average_events: f64,
    /// Games that failed.
    pub errors: Vec<GameSummary>,
}

/// The invariants every state of a game keeps, beyond the kernel's own (every card in
/// exactly one zone, no two pieces of a layer in one place): damage never negative nor
/// above Wounds for a fighter on the battlefield, glory never negative.
pub fn check_invariants(state: &GameState) -> Result<(), String> {
    state.check_invariants().map_err(|e| e.to_string())?;
    for piece in state.pieces.values() {
        if piece.position.is_none() {
            continue;
        }
        let damage = piece.counters.get("damage").copied().unwrap_or(0);
        let wounds = state.characteristic(piece.id, "wounds").unwrap_or(i64::MAX);
        if damage < 0 {
            return Err(format!(
                "{} ({}) has {damage} damage: damage is never negative",
                piece.id, piece.kind
            ));
        }
        if damage > wounds {
            return Err(format!(
                "{} ({}) stands on the battlefield with {damage} damage and {wounds} wounds",
                piece.id, piece.kind
            ));
        }
    }
    for player in &state.players {
        let glory = player.counters.get("glory").copied().unwrap_or(0);
        if glory < 0 {
            return Err(format!("{} has {glory} glory", player.name));
        }
    }
    Ok(())
}

/// Which agent plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentKind {
    /// [`RandomAgent`]: a uniformly random legal answer.
    Random,
    /// [`GreedyAgent`]: tries each legal answer a few decisions ahead and keeps the best.
    Greedy,
}

impl AgentKind {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::Greedy => "greedy",
        }
    }
}

impl std::str::FromStr for AgentKind {
    type Err = String;

    fn from_str(text: &str) -> Result<AgentKind, String> {
        match text {
            "random" => Ok(AgentKind::Random),
            "greedy" => Ok(AgentKind::Greedy),
            other => Err(format!("no agent named `{other}` (agents: random, greedy)")),
        }
    }
}

/// One seat's agent in a game.
enum Player {
    Random(RandomAgent),
    Greedy(GreedyAgent),
}

/// Plays one game with random agents and summarises it.
pub fn play_one(rules: &RulesetGame, seed: u64) -> GameSummary {
    play_one_with(rules, seed, &[AgentKind::Random])
}

/// Plays one game, seat `s` played by `agents[s % agents.len()]` (random if `agents` is
/// empty), and summarises it. Each agent is seeded from the game's seed and its seat.
pub fn play_one_with(rules: &RulesetGame, seed: u64, agents: &[AgentKind]) -> GameSummary {
    let mut summary = GameSummary {
        seed,
        winners: Vec::new(),
        glory: Vec::new(),
        decisions: 0,
        events: 0,
        error: None,
    };
    let seats = rules.spec().seats.len();
    let mut players: Vec<Player> = (0..seats)
        .map(|s| {
            let agent_seed = seed.wrapping_mul(31).wrapping_add(s as u64 + 1);
            match agents.get(s % agents.len().max(1)) {
                Some(AgentKind::Greedy) => Player::Greedy(GreedyAgent::new(agent_seed)),
                _ => Player::Random(RandomAgent::new(agent_seed)),
            }
        })
        .collect();
    let mut game = match Game::start(
        rules.clone(),
        rules.setup(seed),
        RulesetGame::first_frames(),
    ) {
        Ok(game) => game,
        Err(error) => {
            summary.error = Some(format!("the game did not start: {error}"));
            return summary;
        }
    };
    while !game.is_over() {
        if summary.decisions >= MAX_DECISIONS {
            summary.error = Some(format!("no result after {MAX_DECISIONS} decisions"));
            break;
        }
        let Some(request) = game.pending().first().map(|r| (*r).clone()) else {
            summary.error = Some("the game stopped with no decision pending and no result".into());
            break;
        };
        let seat = request.player.0 as usize;
        let answer = match &mut players[seat % seats] {
            Player::Random(agent) => agent.choose(&game.view(request.player), &request),
            Player::Greedy(agent) => agent.choose_in(&game, &request),
        };
        if let Err(error) = game.submit(request.player, answer) {
            summary.error = Some(format!("decision {}: {error}", summary.decisions + 1));
            break;
        }
        summary.decisions += 1;
        if let Err(broken) = check_invariants(game.state()) {
            summary.error = Some(format!("after decision {}: {broken}", summary.decisions));
            break;
        }
    }
    summary.events = game.events().len();
    let state = game.state();
    summary.glory = (0..seats)
        .map(|s| state.players[s].counters.get("glory").copied().unwrap_or(0))
        .collect();
    if summary.error.is_none() {
        if let Some(result) = &state.result {
            summary.winners = result.winners.iter().map(|p: &PlayerId| p.0).collect();
        }
    }
    summary
}

/// The default match of a ruleset: its first two warbands, each with its first decklist if
/// it has one, and the ruleset's boards in order.
pub fn default_match(loaded: &Loaded, ruleset: &str) -> Result<MatchSpec, String> {
    default_match_for(loaded, ruleset, 2)
}

/// The default match of a ruleset for `players` seats: its warbands in turn (a warband plays
/// several seats when there are fewer warbands than seats), each with its first decklist if
/// it has one, and the ruleset's boards in order.
pub fn default_match_for(
    loaded: &Loaded,
    ruleset: &str,
    players: usize,
) -> Result<MatchSpec, String> {
    let library = &loaded.library;
    let resolved = library
        .ruleset(ruleset)
        .ok_or_else(|| format!("no ruleset named `{ruleset}` is loaded"))?;
    // The warbands of the ruleset or of one it extends (a mode built on an edition plays the
    // edition's warbands).
    let chain = loaded.ruleset_chain(&resolved.name);
    let belongs = |name: &str| {
        library
            .ruleset(name)
            .is_some_and(|r| r.name == resolved.name)
            || chain.contains(&name)
    };
    let warbands: Vec<&str> = library
        .warbands()
        .iter()
        .filter(|w| belongs(&w.ruleset))
        .map(|w| w.name.as_str())
        .collect();
    if warbands.len() < 2 {
        return Err(format!(
            "ruleset `{ruleset}` needs two warbands for a match; {} are loaded",
            warbands.len()
        ));
    }
    let (fewest, most) = (
        resolved.min_players.unwrap_or(2),
        resolved.max_players.unwrap_or(2),
    );
    if i64::try_from(players).map_or(true, |n| n < fewest || n > most) {
        return Err(format!(
            "ruleset `{ruleset}` is played by {fewest} to {most} players, not {players}"
        ));
    }
    const NAMES: [&str; 6] = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"];
    let seats = (0..players)
        .map(|index| warbands[index % warbands.len()])
        .enumerate()
        .map(|(index, warband)| crate::engine::Seat {
            name: NAMES
                .get(index)
                .map_or_else(|| format!("P{index}"), |name| (*name).to_owned()),
            warband: warband.to_owned(),
            decklist: library
                .decklists()
                .iter()
                .find(|d| d.warband == *warband)
                .map(|d| d.name.clone()),
            board: None,
        })
        .collect();
    Ok(MatchSpec {
        ruleset: ruleset.to_owned(),
        seats,
    })
}

/// Loads `paths` and sets up the default match of `ruleset` (each worker thread does this
/// for itself: a loaded library is not shared across threads).
pub fn prepare(paths: &[PathBuf], ruleset: &str) -> Result<RulesetGame, String> {
    prepare_for(paths, ruleset, 2)
}

/// [`prepare`] for a match of `players` seats ([`default_match_for`]).
pub fn prepare_for(
    paths: &[PathBuf],
    ruleset: &str,
    players: usize,
) -> Result<RulesetGame, String> {
    let host = Rc::new(gloam_dsl::Host::new());
    let (sources, mut problems) = read_paths(paths);
    let (loaded, load_problems) = load(&sources, &host);
    problems.extend(load_problems);
    if let Some(first) = problems.first() {
        return Err(format!(
            "the data has {} problem(s); the first: {first} (run gloam check)",
            problems.len()
        ));
    }
    let spec = default_match_for(&loaded, ruleset, players)?;
    RulesetGame::new(Rc::new(loaded), host, spec).map_err(|e| e.to_string())
}

/// What one worker thread returns: the warbands of the match, and its games by index.
type WorkerResult = (Vec<String>, Vec<(usize, GameSummary)>);

/// Plays `games` games on `jobs` threads and reports. `progress` is called after each game
/// with the number finished so far.
pub fn simulate(
    paths: &[PathBuf],
    ruleset: &str,
    games: usize,
    seed: u64,
    jobs: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<SimReport, String> {
    simulate_for(paths, ruleset, 2, games, seed, jobs, progress)
}

/// [`simulate`] with `players` seats.
pub fn simulate_for(
    paths: &[PathBuf],
    ruleset: &str,
    players: usize,
    games: usize,
    seed: u64,
    jobs: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<SimReport, String> {
    let config = SimConfig {
        ruleset: ruleset.to_owned(),
        players,
        agents: vec![AgentKind::Random],
        games,
        seed,
        jobs,
    };
    run(paths, &config, progress)
}

/// What to simulate: a ruleset, its number of seats, who plays them, how many games from
/// which seed, on how many threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimConfig {
    /// The ruleset.
    pub ruleset: String,
    /// How many seats.
    pub players: usize,
    /// The agents, by seat (repeated when shorter than the seats; empty means random).
    pub agents: Vec<AgentKind>,
    /// How many games.
    pub games: usize,
    /// The first game's seed; game `i` uses `seed + i`.
    pub seed: u64,
    /// Worker threads; the results do not depend on it.
    pub jobs: usize,
}

/// Plays the games `config` asks for and reports.
pub fn run(
    paths: &[PathBuf],
    config: &SimConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<SimReport, String> {
    let SimConfig {
        ruleset,
        players,
        games,
        seed,
        ..
    } = config;
    let (ruleset, players, games, seed) = (ruleset.as_str(), *players, *games, *seed);
    let agents = config.agents.as_slice();
    let jobs = config.jobs.clamp(1, 64);
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let mut summaries: Vec<Option<GameSummary>> = vec![None; games];
    let (warbands, outcome) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|worker| {
                let finished = &finished;
                scope.spawn(move || -> Result<WorkerResult, String> {
                    let rules = prepare_for(paths, ruleset, players)?;
                    let warbands = rules
                        .spec()
                        .seats
                        .iter()
                        .map(|s| s.warband.clone())
                        .collect();
                    let mut done = Vec::new();
                    for index in (worker..games).step_by(jobs) {
                        let game_seed = seed.wrapping_add(index as u64);
                        done.push((index, play_one_with(&rules, game_seed, agents)));
                        let count = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        progress(count);
                    }
                    Ok((warbands, done))
                })
            })
            .collect();
        let mut warbands = Vec::new();
        let mut outcome: Result<(), String> = Ok(());
        for worker in workers {
            match worker.join() {
                Ok(Ok((names, done))) => {
                    warbands = names;
                    for (index, summary) in done {
                        summaries[index] = Some(summary);
                    }
                }
                Ok(Err(error)) => outcome = Err(error),
                Err(_) => outcome = Err("a simulation worker panicked".into()),
            }
        }
        (warbands, outcome)
    });
    outcome?;
    let summaries: Vec<GameSummary> = summaries.into_iter().flatten().collect();
    let seats = warbands.len();
    let mut wins = vec![0; seats];
    let mut draws = 0;
    let mut glory = vec![0i64; seats];
    let (mut decisions, mut events) = (0usize, 0usize);
    let mut errors = Vec::new();
    for summary in &summaries {
        if summary.error.is_some() {
            errors.push(summary.clone());
            continue;
        }
        if summary.winners.len() == seats {
            draws += 1;
        } else {
            for winner in &summary.winners {
                wins[*winner as usize] += 1;
            }
        }
        for (seat, value) in summary.glory.iter().enumerate() {
            glory[seat] += value;
        }
        decisions += summary.decisions;
        events += summary.events;
    }
    let played = (summaries.len() - errors.len()).max(1) as f64;
    let agents = (0..seats)
        .map(|s| {
            agents
                .get(s % agents.len().max(1))
                .map_or("random", |a| a.name())
                .to_owned()
        })
        .collect();
    Ok(SimReport {
        ruleset: ruleset.to_owned(),
        warbands,
        agents,
        games,
        seed,
        wins,
        draws,
        average_glory: glory.iter().map(|g| *g as f64 / played).collect(),
        average_decisions: decisions as f64 / played,
        average_events: events as f64 / played,
        errors,
    })
}
