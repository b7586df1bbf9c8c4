//! Simulating many games of a ruleset between agents (`gloam sim`).
//!
//! Game `i` of a run with seed `s` is seeded with `s + i`, and its agents with numbers
//! derived from that seed, so each game's result depends only on its seed: a run gives the
//! same results whatever the number of worker threads. After every decision the game is
//! checked against the invariants ([`check_game_invariants`]: the driver's and the
//! ruleset's own `invariant` items); a broken invariant, a refused answer or a failing rule
//! ends that game with an error in the report.

use std::path::PathBuf;
use std::rc::Rc;

use gloam_core::{Game, GameState, PlayerId};
use serde::Serialize;

use crate::agent::{GreedyAgent, RandomAgent};
use crate::engine::{MatchSpec, RulesetGame};
use crate::load::{Loaded, load, read_paths};
pub use gloam_dsl::ScriptEngine;

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
    /// The SHA-256 of the game's event log written as JSON lines (each event's JSON and a
    /// newline), in lowercase hex: [`log_digest`]. Empty when [`SimConfig::digest`] is off.
    pub log_digest: String,
}

/// The results of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimReport {
    /// The ruleset.
    pub ruleset: String,
    /// The warbands (in a table match, the armies), by seat.
    pub warbands: Vec<String>,
    /// The agents, by seat (`random`, `greedy`).
    pub agents: Vec<String>,
    /// The engine that ran the scripts (`rhai`, `compiled`).
    pub engine: String,
    /// The games played.
    pub games: usize,
    /// The first game's seed.
    pub seed: u64,
    /// Games played to a result (the games asked for less those that failed):
    /// `sum(wins) + shared_win_games + draws == played`.
    pub played: usize,
    /// Games that failed (an error ended them); the first of them are listed in `errors`.
    pub failed: usize,
    /// Outright wins of each seat (the seat alone among the winners).
    pub wins: Vec<usize>,
    /// Shared wins of each seat: games it won together with some, not all, of the other
    /// seats (multiplayer). A shared game counts once in `shared_win_games` and once here
    /// for each of its winners.
    pub shared_wins: Vec<usize>,
    /// Games won jointly by more than one seat but not all.
    pub shared_win_games: usize,
    /// Games drawn (every seat among the winners, or none).
    pub draws: usize,
    /// Average glory of each seat.
    pub average_glory: Vec<f64>,
    /// Average decisions per game.
    pub average_decisions: f64,
    /// Average events per game.
    pub average_events: f64,
    /// The first failed games (at most [`MAX_LISTED_ERRORS`], in game order).
    pub errors: Vec<GameSummary>,
    /// One digest of every game's event log, in game order ([`RunDigest`]), in lowercase
    /// hex: two runs with equal digests played the same games, whatever their job counts.
    /// Empty when [`SimConfig::digest`] is off.
    pub log_digest: String,
    /// With [`SimConfig::profile`]: every game's operations by script, summed over the
    /// games (failed ones too), as the compiled engine counts them (`gloam_dsl::profile`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<gloam_dsl::profile::Profile>,
}

/// The SHA-256 of an event log written as JSON lines: each event's JSON (its serde shape,
/// as saves and the protocol write it) followed by a newline.
pub fn log_digest(events: &[gloam_core::Event]) -> [u8; 32] {
    use sha2::Digest;
    use std::io::Write;
    let mut hasher = sha2::Sha256::new();
    for event in events {
        // Writing into a hasher cannot fail, and an event always serialises.
        let _ = serde_json::to_writer(&mut hasher, event);
        let _ = hasher.write_all(b"\n");
    }
    hasher.finalize().into()
}

/// The digest of a run's games, in game order, computed as games finish in any order and
/// on any thread: each game `i` (counted from 0) adds `SHA-256(i as 8 bytes little-endian,
/// its log digest in lowercase hex)`, read as a 256-bit little-endian number, to a sum modulo 2^256; the
/// run's digest is `SHA-256(game count as 8 bytes little-endian, the sum)`. A game's
/// index is part of its term, so swapping two games' logs changes the digest; the sum does
/// not depend on the order games finish in, so a run holds 32 bytes, not one per game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunDigest {
    sum: [u64; 4],
    games: u64,
}

impl RunDigest {
    /// Adds game `index` with the digest of its log ([`log_digest`], in hex).
    pub fn add(&mut self, index: u64, game: &str) {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        hasher.update(index.to_le_bytes());
        hasher.update(game.as_bytes());
        let term: [u8; 32] = hasher.finalize().into();
        let mut carry = false;
        for (limb, bytes) in self.sum.iter_mut().zip(term.chunks_exact(8)) {
            let mut word = [0u8; 8];
            word.copy_from_slice(bytes);
            let (partial, over_a) = limb.overflowing_add(u64::from_le_bytes(word));
            let (total, over_b) = partial.overflowing_add(u64::from(carry));
            *limb = total;
            carry = over_a || over_b;
        }
        self.games = self.games.wrapping_add(1);
    }

    /// Joins another worker's games (disjoint game indexes).
    pub fn merge(&mut self, other: RunDigest) {
        let mut carry = false;
        for (limb, add) in self.sum.iter_mut().zip(other.sum) {
            let (partial, over_a) = limb.overflowing_add(add);
            let (total, over_b) = partial.overflowing_add(u64::from(carry));
            *limb = total;
            carry = over_a || over_b;
        }
        self.games = self.games.wrapping_add(other.games);
    }

    /// The run's digest.
    pub fn finish(&self) -> [u8; 32] {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        hasher.update(self.games.to_le_bytes());
        for limb in self.sum {
            hasher.update(limb.to_le_bytes());
        }
        hasher.finalize().into()
    }
}

/// Lowercase hex of a digest.
pub fn hex(digest: &[u8; 32]) -> String {
    use std::fmt::Write;
    let mut text = String::with_capacity(64);
    for byte in digest {
        let _ = write!(text, "{byte:02x}");
    }
    text
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
        if damage < 0 {
            return Err(format!(
                "{} ({}) has {damage} damage: damage is never negative",
                piece.id, piece.kind
            ));
        }
        // Wounds never fall below their floor: with a floor of 0 or more, a fighter without
        // damage has no more damage than Wounds, and its Wounds need not be worked out.
        if damage == 0 && state.floors.get("wounds").is_some_and(|&floor| floor >= 0) {
            continue;
        }
        let wounds = state.characteristic(piece.id, "wounds").unwrap_or(i64::MAX);
        if damage > wounds {
            return Err(format!(
                "{} ({}) stands on the battlefield with {damage} damage and {wounds} wounds",
                piece.id, piece.kind
            ));
        }
    }
    for player in state.players.iter() {
        let glory = player.counters.get("glory").copied().unwrap_or(0);
        if glory < 0 {
            return Err(format!("{} has {glory} glory", player.name));
        }
    }
    // On a measured table no two bases overlap (models of the default layer, with the
    // base radius and unit the script host reads them by).
    if state
        .pieces
        .values()
        .any(|p| matches!(p.position, Some(gloam_core::Position::Table { .. })))
    {
        let names = gloam_dsl::Names::default();
        let scene = gloam_core::Scene::from_state(state, &names.base_radius, &names.unit);
        if let Some((a, b)) = scene.first_overlap() {
            return Err(format!("the bases of {a} and {b} overlap on the table"));
        }
    }
    Ok(())
}

/// [`check_invariants`], then the ruleset's own `invariant` items
/// ([`RulesetGame::broken_invariant`]): what `gloam sim` checks after every decision.
pub fn check_game_invariants(rules: &RulesetGame, state: &GameState) -> Result<(), String> {
    check_invariants(state)?;
    match rules.broken_invariant(state) {
        Some(broken) => Err(broken),
        None => Ok(()),
    }
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
    play_game(rules, seed, agents, true)
}

/// [`play_one_with`], with the log's digest computed only when `digest` is set (else
/// `log_digest` is empty): serialising and hashing every event is work a run that reports
/// no digest does not need. Never inlined, so a profile can count a game by it
/// (`docs/performance.md`).
#[inline(never)]
fn play_game(rules: &RulesetGame, seed: u64, agents: &[AgentKind], digest: bool) -> GameSummary {
    let mut summary = GameSummary {
        seed,
        winners: Vec::new(),
        glory: Vec::new(),
        decisions: 0,
        events: 0,
        error: None,
        log_digest: String::new(),
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
            // A random agent reads no view: none is made for it.
            Player::Random(agent) => agent.answer(&request),
            Player::Greedy(agent) => agent.choose_in(&game, &request),
        };
        if let Err(error) = game.submit(request.player, answer) {
            summary.error = Some(format!("decision {}: {error}", summary.decisions + 1));
            break;
        }
        summary.decisions += 1;
        if let Err(broken) = check_game_invariants(rules, game.state()) {
            summary.error = Some(format!("after decision {}: {broken}", summary.decisions));
            break;
        }
    }
    summary.events = game.events().len();
    if digest {
        summary.log_digest = hex(&log_digest(game.events()));
    }
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
    match_for(loaded, ruleset, players, &MatchChoice::default())
}

/// What a match may choose instead of the ruleset's defaults, by seat: each list is repeated
/// over the seats when it is shorter (`--warbands A` puts `A` in every seat); an empty list
/// keeps the default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchChoice {
    /// The warbands, by seat.
    pub warbands: Vec<String>,
    /// The boards each seat brings, by seat.
    pub boards: Vec<String>,
    /// The decklists, by seat; each must be a decklist of that seat's warband.
    pub decklists: Vec<String>,
    /// In a ruleset played on a measured table (its players bring `army` items), the
    /// armies, by seat.
    pub armies: Vec<String>,
    /// In a ruleset whose players bring parties of heroes (`party` items) to a measured
    /// table, the parties, by seat.
    pub parties: Vec<String>,
    /// The `table` item a table match is played on; `None`: the ruleset's first.
    pub table: Option<String>,
    /// The table's deployment map; `None`: its first.
    pub map: Option<String>,
}

/// "no ruleset named `x` is loaded", with the closest name or the list of rulesets.
pub fn unknown_ruleset(library: &gloam_grammar::Library, name: &str) -> String {
    let names = library.rulesets().iter().map(|r| r.name.as_str());
    unknown_name("ruleset", name, names)
}

/// "no {what} named `x`...", with the closest candidate ("did you mean") or the list of them.
fn unknown_name<'a>(
    what: &str,
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> String {
    let candidates: Vec<&str> = candidates.into_iter().collect();
    let hint = match gloam_grammar::closest(name, candidates.iter().copied()) {
        Some(close) => format!("did you mean `{close}`?"),
        None if candidates.is_empty() => format!("the data has no {what}"),
        None => format!(
            "the choices: {}",
            candidates
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    format!("no {what} named `{name}` is loaded; {hint}")
}

/// The match of a ruleset for `players` seats, with the warbands, boards and decklists of
/// `choice` where it names them and the defaults of [`default_match_for`] elsewhere. A name
/// the ruleset does not have is an error with a "did you mean".
pub fn match_for(
    loaded: &Loaded,
    ruleset: &str,
    players: usize,
    choice: &MatchChoice,
) -> Result<MatchSpec, String> {
    let library = &loaded.library;
    let resolved = library
        .ruleset(ruleset)
        .ok_or_else(|| unknown_ruleset(library, ruleset))?;
    // The warbands and boards of the ruleset or of one it extends (a mode built on an
    // edition plays the edition's warbands).
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
    let boards: Vec<&str> = library
        .boards()
        .iter()
        .filter(|b| belongs(&b.ruleset))
        .map(|b| b.name.as_str())
        .collect();
    let (fewest, most) = (
        resolved.min_players.unwrap_or(2),
        resolved.max_players.unwrap_or(2),
    );
    if i64::try_from(players).map_or(true, |n| n < fewest || n > most) {
        return Err(if fewest == most {
            format!("ruleset `{ruleset}` is played by {fewest} players only, not {players}")
        } else {
            format!("ruleset `{ruleset}` is played by {fewest} to {most} players, not {players}")
        });
    }
    for (what, asked, have) in [
        ("warbands", &choice.warbands, &warbands),
        ("boards", &choice.boards, &boards),
    ] {
        if asked.len() > players {
            return Err(format!(
                "{} {what} named for {players} seats; name at most one per seat",
                asked.len()
            ));
        }
        for name in asked {
            if !have.contains(&name.as_str()) {
                let what = what.trim_end_matches('s');
                return Err(format!(
                    "{} (in ruleset `{ruleset}`)",
                    unknown_name(what, name, have.iter().copied())
                ));
            }
        }
    }
    let armies: Vec<&str> = library
        .armies()
        .iter()
        .filter(|a| belongs(&a.ruleset))
        .map(|a| a.name.as_str())
        .collect();
    let parties: Vec<&str> = library
        .parties()
        .iter()
        .filter(|p| belongs(&p.ruleset))
        .map(|p| p.name.as_str())
        .collect();
    if warbands.is_empty() && armies.is_empty() && !parties.is_empty() {
        return measured_match_for(
            loaded,
            ruleset,
            players,
            choice,
            Brings::Parties,
            &parties,
            &belongs,
        );
    }
    if !choice.parties.is_empty() {
        return Err(format!(
            "ruleset `{ruleset}` is played with {}: it takes no parties",
            if warbands.is_empty() {
                "armies on a table"
            } else {
                "warbands on boards"
            }
        ));
    }
    if warbands.is_empty() && !armies.is_empty() {
        return measured_match_for(
            loaded,
            ruleset,
            players,
            choice,
            Brings::Armies,
            &armies,
            &belongs,
        );
    }
    if !choice.armies.is_empty() || choice.table.is_some() || choice.map.is_some() {
        return Err(format!(
            "ruleset `{ruleset}` is played with warbands on boards: it takes no armies, table or map"
        ));
    }
    if choice.decklists.len() > players {
        return Err(format!(
            "{} decklists named for {players} seats; name at most one per seat",
            choice.decklists.len()
        ));
    }
    if choice.warbands.is_empty() && warbands.len() < 2 {
        return Err(format!(
            "ruleset `{ruleset}` needs two warbands for a match; {} are loaded",
            warbands.len()
        ));
    }
    let by_seat = |list: &[String], index: usize| -> Option<String> {
        (!list.is_empty()).then(|| list[index % list.len()].clone())
    };
    let mut seats = Vec::with_capacity(players);
    for index in 0..players {
        let warband = by_seat(&choice.warbands, index)
            .unwrap_or_else(|| warbands[index % warbands.len()].to_owned());
        let decklist = seat_decklist(library, Taker::Warband(&warband), &choice.decklists, index)?;
        seats.push(crate::engine::Seat {
            name: NAMES
                .get(index)
                .map_or_else(|| format!("P{index}"), |name| (*name).to_owned()),
            warband,
            decklist,
            board: by_seat(&choice.boards, index),
            army: None,
            party: None,
        });
    }
    Ok(MatchSpec {
        ruleset: ruleset.to_owned(),
        seats,
        table: None,
    })
}

/// The seat names of a default match, in seating order.
const NAMES: [&str; 6] = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"];

/// What the seats of a match on a measured table bring.
#[derive(Clone, Copy)]
enum Brings {
    /// Armies (Spearhead): the flow picks the table and map in play unless the choice names
    /// them.
    Armies,
    /// Parties of heroes (Umbra Turris): the chosen table and map, else the ruleset's first
    /// table and that table's first map.
    Parties,
}

impl Brings {
    fn plural(self) -> &'static str {
        match self {
            Brings::Armies => "armies",
            Brings::Parties => "parties",
        }
    }

    fn one(self) -> &'static str {
        match self {
            Brings::Armies => "army",
            Brings::Parties => "party",
        }
    }
}

/// [`match_for`] for a ruleset whose players bring armies or parties to a measured table:
/// each seat's army or party (`choice.armies` or `choice.parties`, else the ruleset's in
/// turn) and the table and map ([`Brings`] says who picks them).
fn measured_match_for(
    loaded: &Loaded,
    ruleset: &str,
    players: usize,
    choice: &MatchChoice,
    brings: Brings,
    names: &[&str],
    belongs: &dyn Fn(&str) -> bool,
) -> Result<MatchSpec, String> {
    let (chosen, other) = match brings {
        Brings::Armies => (&choice.armies, ("parties", &choice.parties)),
        Brings::Parties => (&choice.parties, ("armies", &choice.armies)),
    };
    let no_decklists = Vec::new();
    let decklists_asked = match brings {
        Brings::Armies => &choice.decklists,
        // Parties bring decklists of their own (`decklist` items with `party = ...`).
        Brings::Parties => &no_decklists,
    };
    for (what, asked) in [
        ("warbands", &choice.warbands),
        ("boards", &choice.boards),
        ("decklists", decklists_asked),
        other,
    ] {
        if !asked.is_empty() {
            return Err(format!(
                "ruleset `{ruleset}` is played with {} on a table: it takes no {what}",
                brings.plural()
            ));
        }
    }
    if chosen.len() > players {
        return Err(format!(
            "{} {} named for {players} seats; name at most one per seat",
            chosen.len(),
            brings.plural()
        ));
    }
    for name in chosen {
        if !names.contains(&name.as_str()) {
            return Err(format!(
                "{} (in ruleset `{ruleset}`)",
                unknown_name(brings.one(), name, names.iter().copied())
            ));
        }
    }
    let tables: Vec<&gloam_grammar::TableDef> = loaded
        .library
        .tables()
        .iter()
        .filter(|t| belongs(&t.ruleset))
        .collect();
    if tables.is_empty() {
        return Err(format!(
            "ruleset `{ruleset}` has {} but no `table` item",
            brings.plural()
        ));
    }
    let table = match &choice.table {
        Some(name) => Some(*tables.iter().find(|t| t.name == *name).ok_or_else(|| {
            format!(
                "{} (in ruleset `{ruleset}`)",
                unknown_name("table", name, tables.iter().map(|t| t.name.as_str()))
            )
        })?),
        None => None,
    };
    if let Some(name) = &choice.map {
        let maps: Vec<&str> = tables
            .iter()
            .filter(|t| table.is_none_or(|chosen| chosen.name == t.name))
            .flat_map(|t| t.maps.iter().map(|m| m.name.as_str()))
            .collect();
        if !maps.contains(&name.as_str()) {
            return Err(format!(
                "{} (in ruleset `{ruleset}`)",
                unknown_name("map", name, maps.iter().copied())
            ));
        }
    }
    let table_choice = match brings {
        // A table or map left unchosen is the flow's to choose (`table_layouts`).
        Brings::Armies => crate::engine::TableChoice {
            table: table.map(|t| t.name.clone()),
            map: choice.map.clone(),
        },
        Brings::Parties => {
            let table = table.unwrap_or(tables[0]);
            let map = match &choice.map {
                Some(name) if table.map(name).is_some() => name.clone(),
                Some(name) => {
                    return Err(format!(
                        "{} (on table `{}`)",
                        unknown_name("map", name, table.maps.iter().map(|m| m.name.as_str())),
                        table.name
                    ));
                }
                // The first map that serves this many players.
                None => table
                    .maps
                    .iter()
                    .find(|m| m.serves(players))
                    .map(|m| m.name.clone())
                    .ok_or_else(|| {
                        format!(
                            "table `{}` has no deployment map for {players} players",
                            table.name
                        )
                    })?,
            };
            crate::engine::TableChoice {
                table: Some(table.name.clone()),
                map: Some(map),
            }
        }
    };
    if let Brings::Parties = brings
        && choice.decklists.len() > players
    {
        return Err(format!(
            "{} decklists named for {players} seats; name at most one per seat",
            choice.decklists.len()
        ));
    }
    let mut seats = Vec::with_capacity(players);
    for index in 0..players {
        let brought = if chosen.is_empty() {
            names[index % names.len()].to_owned()
        } else {
            chosen[index % chosen.len()].clone()
        };
        let (army, party, decklist) = match brings {
            Brings::Armies => (Some(brought), None, None),
            Brings::Parties => {
                let decklist = seat_decklist(
                    &loaded.library,
                    Taker::Party(&brought),
                    &choice.decklists,
                    index,
                )?;
                (None, Some(brought), decklist)
            }
        };
        seats.push(crate::engine::Seat {
            name: NAMES
                .get(index)
                .map_or_else(|| format!("P{index}"), |name| (*name).to_owned()),
            warband: String::new(),
            decklist,
            board: None,
            army,
            party,
        });
    }
    Ok(MatchSpec {
        ruleset: ruleset.to_owned(),
        seats,
        table: Some(table_choice),
    })
}

/// Who takes a decklist, in words: "warband `x`" or "party `y`".
fn decklist_owner(decklist: &gloam_grammar::DecklistDef) -> String {
    match (&decklist.warband, &decklist.party) {
        (Some(warband), _) => format!("warband `{warband}`"),
        (None, Some(party)) => format!("party `{party}`"),
        (None, None) => "no warband or party".to_owned(),
    }
}

/// Who takes a seat's decklist.
#[derive(Clone, Copy)]
enum Taker<'a> {
    Warband(&'a str),
    Party(&'a str),
}

impl Taker<'_> {
    fn takes(self, decklist: &gloam_grammar::DecklistDef) -> bool {
        match self {
            Taker::Warband(name) => decklist.warband.as_deref() == Some(name),
            Taker::Party(name) => decklist.party.as_deref() == Some(name),
        }
    }
}

impl std::fmt::Display for Taker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Taker::Warband(name) => write!(f, "warband `{name}`"),
            Taker::Party(name) => write!(f, "party `{name}`"),
        }
    }
}

/// The decklist of `taker` in seat `index`: the one `asked` names for the seat (it must be
/// the taker's), else the taker's first, else none (every card of the ruleset,
/// [`crate::engine`]'s default decks).
fn seat_decklist(
    library: &gloam_grammar::Library,
    taker: Taker<'_>,
    asked: &[String],
    index: usize,
) -> Result<Option<String>, String> {
    let own: Vec<&str> = library
        .decklists()
        .iter()
        .filter(|d| taker.takes(d))
        .map(|d| d.name.as_str())
        .collect();
    let Some(name) = (!asked.is_empty()).then(|| &asked[index % asked.len()]) else {
        return Ok(own.first().map(|name| (*name).to_owned()));
    };
    if own.contains(&name.as_str()) {
        return Ok(Some(name.clone()));
    }
    Err(match library.decklist(name) {
        Some(other) => format!(
            "decklist `{name}` is for {}, not {taker} (seat {index}); {}",
            decklist_owner(other),
            if own.is_empty() {
                format!("{taker} has no decklist")
            } else {
                format!("{taker} has {}", own.join(", "))
            }
        ),
        None if own.is_empty() => format!(
            "no decklist named `{name}` is loaded, and {taker} has none (seat {index}); leave --decklists out to bring every card"
        ),
        None => format!(
            "{} (for {taker}, seat {index})",
            unknown_name("decklist", name, own.iter().copied())
        ),
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
    prepare_match(paths, ruleset, players, &MatchChoice::default())
}

/// Loads data files already read (a host that embeds them, or builds them in memory) with a
/// new script host, and refuses a library with any problem.
pub fn load_checked(
    sources: &[crate::load::Source],
) -> Result<(Rc<Loaded>, Rc<gloam_dsl::Host>), String> {
    let host = Rc::new(gloam_dsl::Host::new());
    let (loaded, problems) = load(sources, &host);
    if let Some(first) = problems.first() {
        return Err(format!(
            "the data has {} problem{}; the first: {first} (`gloam check` lists them all)",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" },
        ));
    }
    Ok((Rc::new(loaded), host))
}

/// [`prepare`] for a match of `players` seats with the choices of `choice` ([`match_for`]).
pub fn prepare_match(
    paths: &[PathBuf],
    ruleset: &str,
    players: usize,
    choice: &MatchChoice,
) -> Result<RulesetGame, String> {
    prepare_match_on(paths, ruleset, players, choice, ScriptEngine::from_env())
}

/// [`prepare_match`] with the scripts run by `engine`.
pub fn prepare_match_on(
    paths: &[PathBuf],
    ruleset: &str,
    players: usize,
    choice: &MatchChoice,
    engine: ScriptEngine,
) -> Result<RulesetGame, String> {
    let host = Rc::new(gloam_dsl::Host::new());
    host.set_script_engine(engine);
    let (sources, problems) = read_paths(paths);
    if let Some(first) = problems.first() {
        // A path that is not there: say which, and how to name another.
        return Err(format!("{first}; pass --data PATH to load other data"));
    }
    let (loaded, problems) = crate::load::load_for(&sources, &host, ruleset);
    if let Some(first) = problems.first() {
        return Err(format!(
            "the data has {} problem{}; the first: {first} (`gloam check {}` lists them all)",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" },
            paths
                .iter()
                .map(|p| format!("--data {}", p.display()))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    let spec = match_for(&loaded, ruleset, players, choice)?;
    RulesetGame::new(Rc::new(loaded), host, spec).map_err(|e| e.to_string())
}

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
        choice: MatchChoice::default(),
        engine: ScriptEngine::from_env(),
        profile: false,
        digest: true,
    };
    run(paths, &config, progress)
}

/// The most worker threads a run may ask for.
pub const MAX_JOBS: usize = 64;

/// The most failed games a report lists one by one (it counts them all).
pub const MAX_LISTED_ERRORS: usize = 100;

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
    /// Worker threads (1 to [`MAX_JOBS`]); the results do not depend on it.
    pub jobs: usize,
    /// Warbands, boards and decklists instead of the ruleset's defaults.
    pub choice: MatchChoice,
    /// Which engine runs the scripts (the games are the same on both: `log_digest`).
    pub engine: ScriptEngine,
    /// Count the operations of every script run, by script and by line of the data, into
    /// the report's `profile` (the compiled engine only; the games are the same either way).
    pub profile: bool,
    /// Compute the digests of the games' logs (`log_digest`, in the report and in each
    /// listed game); off, they are empty and the run is cheaper (the games are the same).
    pub digest: bool,
}

/// One worker's running totals: games are counted as they finish, never stored, so a run's
/// memory does not grow with its number of games.
#[derive(Debug, Default)]
struct Tally {
    wins: Vec<usize>,
    shared_wins: Vec<usize>,
    shared_games: usize,
    draws: usize,
    played: usize,
    failed: usize,
    glory: Vec<i64>,
    decisions: usize,
    events: usize,
    /// The first failed games, by game index.
    errors: Vec<(usize, GameSummary)>,
    /// Every game's log, failed or not.
    digest: RunDigest,
    /// Operations by script, when asked for.
    profile: gloam_dsl::profile::Profile,
}

impl Tally {
    fn new(seats: usize) -> Tally {
        Tally {
            wins: vec![0; seats],
            shared_wins: vec![0; seats],
            glory: vec![0; seats],
            ..Tally::default()
        }
    }

    fn add(&mut self, index: usize, summary: GameSummary) {
        self.digest.add(index as u64, &summary.log_digest);
        if summary.error.is_some() {
            self.failed += 1;
            if self.errors.len() < MAX_LISTED_ERRORS {
                self.errors.push((index, summary));
            }
            return;
        }
        self.played += 1;
        let seats = self.wins.len();
        match summary.winners.as_slice() {
            [] => self.draws += 1,
            winners if winners.len() >= seats => self.draws += 1,
            [winner] => self.wins[*winner as usize] += 1,
            winners => {
                self.shared_games += 1;
                for winner in winners {
                    self.shared_wins[*winner as usize] += 1;
                }
            }
        }
        for (seat, value) in summary.glory.iter().enumerate() {
            self.glory[seat] = self.glory[seat].saturating_add(*value);
        }
        self.decisions = self.decisions.saturating_add(summary.decisions);
        self.events = self.events.saturating_add(summary.events);
    }

    fn merge(&mut self, other: Tally) {
        for (a, b) in self.wins.iter_mut().zip(other.wins) {
            *a += b;
        }
        for (a, b) in self.shared_wins.iter_mut().zip(other.shared_wins) {
            *a += b;
        }
        for (a, b) in self.glory.iter_mut().zip(other.glory) {
            *a = a.saturating_add(b);
        }
        self.shared_games += other.shared_games;
        self.draws += other.draws;
        self.played += other.played;
        self.failed += other.failed;
        self.decisions = self.decisions.saturating_add(other.decisions);
        self.events = self.events.saturating_add(other.events);
        self.errors.extend(other.errors);
        self.digest.merge(other.digest);
        self.profile.merge(other.profile);
    }
}

/// Why a run's settings are refused, before anything is loaded: no games, no worker, or
/// more workers than [`MAX_JOBS`].
pub fn check_config(config: &SimConfig) -> Result<(), String> {
    if config.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if config.jobs == 0 || config.jobs > MAX_JOBS {
        return Err(format!(
            "--jobs must be 1 to {MAX_JOBS}, not {} (the results are the same whatever the job count)",
            config.jobs
        ));
    }
    if config.profile && config.engine == ScriptEngine::Rhai {
        return Err(
            "--profile counts the compiled engine's operations: drop `--engine rhai` (the games are the same on both engines)"
                .into(),
        );
    }
    Ok(())
}

/// Plays the games `config` asks for and reports.
pub fn run(
    paths: &[PathBuf],
    config: &SimConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<SimReport, String> {
    check_config(config)?;
    let SimConfig {
        ruleset,
        players,
        games,
        seed,
        jobs,
        ..
    } = config;
    let (ruleset, players, games, seed, jobs) = (ruleset.as_str(), *players, *games, *seed, *jobs);
    let agents = config.agents.as_slice();
    let choice = &config.choice;
    // No more workers than games.
    let jobs = jobs.min(games);
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let (warbands, outcome) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|worker| {
                let finished = &finished;
                scope.spawn(move || -> Result<(Vec<String>, Tally), String> {
                    let rules = prepare_match_on(paths, ruleset, players, choice, config.engine)?;
                    let warbands: Vec<String> = rules
                        .spec()
                        .seats
                        .iter()
                        .map(|s| s.brings().to_owned())
                        .collect();
                    let mut tally = Tally::new(warbands.len());
                    if config.profile {
                        gloam_dsl::profile::start();
                    }
                    for index in (worker..games).step_by(jobs) {
                        let game_seed = seed.wrapping_add(index as u64);
                        tally.add(index, play_game(&rules, game_seed, agents, config.digest));
                        let count = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        progress(count);
                    }
                    if config.profile {
                        tally.profile = gloam_dsl::profile::finish();
                    }
                    Ok((warbands, tally))
                })
            })
            .collect();
        let mut warbands = Vec::new();
        let mut total: Option<Tally> = None;
        let mut outcome: Result<(), String> = Ok(());
        for worker in workers {
            match worker.join() {
                Ok(Ok((names, tally))) => {
                    warbands = names;
                    match &mut total {
                        Some(total) => total.merge(tally),
                        None => total = Some(tally),
                    }
                }
                Ok(Err(error)) => outcome = Err(error),
                Err(_) => outcome = Err("a simulation worker panicked".into()),
            }
        }
        (warbands, outcome.map(|()| total.unwrap_or_default()))
    });
    let mut tally = outcome?;
    tally.errors.sort_by_key(|(index, _)| *index);
    tally.errors.truncate(MAX_LISTED_ERRORS);
    let seats = warbands.len();
    let played = tally.played.max(1) as f64;
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
        engine: config.engine.name().to_owned(),
        games,
        seed,
        played: tally.played,
        failed: tally.failed,
        wins: tally.wins,
        shared_wins: tally.shared_wins,
        shared_win_games: tally.shared_games,
        draws: tally.draws,
        average_glory: tally.glory.iter().map(|g| *g as f64 / played).collect(),
        average_decisions: tally.decisions as f64 / played,
        average_events: tally.events as f64 / played,
        errors: tally.errors.into_iter().map(|(_, s)| s).collect(),
        log_digest: if config.digest {
            hex(&tally.digest.finish())
        } else {
            String::new()
        },
        profile: config.profile.then_some(tally.profile),
    })
}

#[cfg(test)]
mod tests {
    use super::{RunDigest, hex, log_digest};

    fn game(n: u8) -> String {
        hex(&[n; 32])
    }

    #[test]
    fn run_digest_does_not_depend_on_the_order_games_finish_in() {
        let mut in_order = RunDigest::default();
        for i in 0..5 {
            in_order.add(i, &game(i as u8));
        }
        // Two workers, games interleaved as `--jobs 2` deals them.
        let (mut even, mut odd) = (RunDigest::default(), RunDigest::default());
        for i in [4, 0, 2] {
            even.add(i, &game(i as u8));
        }
        for i in [3, 1] {
            odd.add(i, &game(i as u8));
        }
        odd.merge(even);
        assert_eq!(in_order.finish(), odd.finish());
    }

    #[test]
    fn run_digest_changes_when_two_games_swap_or_one_is_missing() {
        let mut one = RunDigest::default();
        one.add(0, &game(1));
        one.add(1, &game(2));
        let mut swapped = RunDigest::default();
        swapped.add(0, &game(2));
        swapped.add(1, &game(1));
        assert_ne!(one.finish(), swapped.finish());
        let mut fewer = RunDigest::default();
        fewer.add(0, &game(1));
        assert_ne!(one.finish(), fewer.finish());
    }

    #[test]
    fn the_digest_of_an_empty_log_is_the_sha256_of_nothing() {
        assert_eq!(
            hex(&log_digest(&[])),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
