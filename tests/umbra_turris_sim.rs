//! Whole games of Umbra Turris between random agents (issue 14, item 4): they end, on both
//! script engines with the same event logs, with the same report whatever the job count, and
//! after every decision the wounds, the Action Dice and the items (cards) are as the rules
//! keep them.

use std::path::PathBuf;

use gloam::agent::Agent as _;
use gloam::core::{Game, GameState};
use gloam::engine::RulesetGame;
use gloam::sim::{
    AgentKind, MatchChoice, ScriptEngine, SimConfig, SimReport, check_game_invariants,
};

fn cards() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")
}

fn sim(games: usize, jobs: usize, engine: ScriptEngine) -> SimReport {
    let config = SimConfig {
        ruleset: "umbra_turris".to_owned(),
        players: 2,
        agents: vec![AgentKind::Random],
        games,
        seed: 1,
        jobs,
        choice: MatchChoice::default(),
        engine,
        profile: false,
        digest: true,
    };
    gloam::sim::run(&[cards()], &config, &|_| {}).expect("the sim runs")
}

#[test]
fn games_end_the_same_on_both_engines_and_with_one_or_two_jobs() {
    let rhai = sim(3, 2, ScriptEngine::Rhai);
    let compiled = sim(3, 1, ScriptEngine::Compiled);
    assert_eq!(rhai.failed, 0, "{:?}", rhai.errors);
    assert_eq!(rhai.played, 3);
    assert_eq!(rhai.log_digest, compiled.log_digest);
    let same = SimReport {
        engine: rhai.engine.clone(),
        ..compiled.clone()
    };
    assert_eq!(rhai, same);
    assert_eq!(sim(3, 2, ScriptEngine::Compiled), compiled);
}

/// What must hold after every decision of a game of Umbra Turris: the kernel's invariants
/// (every card in exactly one zone), the driver's (damage never negative nor above Wounds on
/// the table) and the ruleset's own `invariant` items (`cards/umbra_turris/umbra_turris.gloam`:
/// at most two Action Dice, none on a hero with a Death Counter or off the table, 003 L232,
/// L476; a hero at 0 W on the table has a Death Counter, L472); and the cards (race,
/// profession, equipment, spells) are the ones the match began with (items change zones,
/// never disappear).
fn umbra_invariants(
    rules: &RulesetGame,
    state: &GameState,
    cards_at_start: usize,
) -> Result<(), String> {
    check_game_invariants(rules, state)?;
    if state.cards.len() != cards_at_start {
        return Err(format!(
            "{} cards, {cards_at_start} at the start",
            state.cards.len()
        ));
    }
    Ok(())
}

#[test]
fn random_games_keep_wounds_action_dice_and_items_after_every_decision() {
    let rules: RulesetGame = gloam::sim::prepare(&[cards()], "umbra_turris").expect("prepared");
    for seed in 1..=4 {
        let mut game = Game::start(
            rules.clone(),
            rules.setup(seed),
            RulesetGame::first_frames(),
        )
        .expect("started");
        let cards_at_start = game.state().cards.len();
        assert!(cards_at_start > 50, "{cards_at_start} cards");
        let mut agents: Vec<gloam::agent::RandomAgent> = (0..2)
            .map(|s| gloam::agent::RandomAgent::new(seed * 31 + s))
            .collect();
        let mut decisions = 0;
        while !game.is_over() {
            let request = game.pending().first().map(|r| (*r).clone()).expect("asked");
            let seat = request.player.0 as usize;
            let answer = agents[seat].choose(&game.view(request.player), &request);
            game.submit(request.player, answer)
                .unwrap_or_else(|e| panic!("seed {seed}, decision {decisions}: {e}"));
            decisions += 1;
            umbra_invariants(&rules, game.state(), cards_at_start)
                .unwrap_or_else(|e| panic!("seed {seed}, after decision {decisions}: {e}"));
            assert!(
                decisions < gloam::sim::MAX_DECISIONS,
                "seed {seed} never ends"
            );
        }
        let result = game.state().result.clone().expect("a result");
        assert!(!result.reason.is_empty());
    }
}

#[test]
fn the_anarchist_party_plays_and_rolls_its_rage_dice() {
    // The Cinder Choir (parties.gloam): an Anarchist party, legal by the race table's
    // letters (003 L1613-1617, digest D1.25), with a False Prophet leading (L1204-1208).
    // Its games end keeping every invariant, and its seat gains Rage Dice (the Anarchists'
    // bonus dice, L1542-1603: counter `rage`) in play.
    let choice = MatchChoice {
        parties: vec!["The Cinder Choir".into(), "The Ashen Court".into()],
        ..MatchChoice::default()
    };
    let rules = gloam::sim::prepare_match(&[cards()], "umbra_turris", 2, &choice).expect("match");
    let mut raged = false;
    for seed in 1..=3 {
        let mut game = Game::start(
            rules.clone(),
            rules.setup(seed),
            RulesetGame::first_frames(),
        )
        .expect("started");
        let cards_at_start = game.state().cards.len();
        let mut agents: Vec<gloam::agent::RandomAgent> = (0..2)
            .map(|s| gloam::agent::RandomAgent::new(seed * 17 + s))
            .collect();
        let mut decisions = 0;
        while !game.is_over() {
            let request = game.pending().first().map(|r| (*r).clone()).expect("asked");
            let seat = request.player.0 as usize;
            let answer = agents[seat].choose(&game.view(request.player), &request);
            game.submit(request.player, answer)
                .unwrap_or_else(|e| panic!("seed {seed}, decision {decisions}: {e}"));
            decisions += 1;
            umbra_invariants(&rules, game.state(), cards_at_start)
                .unwrap_or_else(|e| panic!("seed {seed}, after decision {decisions}: {e}"));
            let choir = &game.state().players[0];
            raged |= choir.counters.get("rage").copied().unwrap_or(0) > 0;
            assert!(decisions < gloam::sim::MAX_DECISIONS, "seed {seed}");
        }
    }
    assert!(raged, "the Cinder Choir never held a Rage Dice");
}
