//! The compiled form of scripts (issue 12): which shipped scripts it covers, and the same
//! games, results and errors on both engines.

use std::path::PathBuf;

use gloam::load::{load, read_paths};
use gloam::sim::{AgentKind, MatchChoice, ScriptEngine, SimConfig, SimReport};
use gloam_dsl::Host;

/// Every shipped script that the compiled engine runs on Rhai, with why, sorted.
fn shipped_fallbacks() -> (usize, Vec<String>) {
    let host = Host::new();
    let (sources, problems) =
        read_paths(&[PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")]);
    assert!(problems.is_empty(), "{problems:?}");
    let (loaded, problems) = load(&sources, &host);
    assert!(problems.is_empty(), "{} problems", problems.len());
    let mut fallbacks: Vec<String> = loaded
        .scripts
        .iter()
        .filter_map(|compiled| {
            compiled.script.fallback().map(|why| {
                format!(
                    "{} {:?} {}: {why}",
                    compiled.item_kind, compiled.item_name, compiled.field
                )
            })
        })
        .collect();
    fallbacks.sort();
    fallbacks.dedup();
    (loaded.scripts.len(), fallbacks)
}

#[test]
fn shipped_scripts_that_fall_back_to_rhai_are_listed_with_the_reason() {
    let (total, fallbacks) = shipped_fallbacks();
    println!(
        "{} of {total} shipped scripts fall back to Rhai:",
        fallbacks.len()
    );
    for line in &fallbacks {
        println!("  {line}");
    }
    assert!(total > 100, "only {total} scripts loaded");
    // None is left to Rhai: Shadespire's `objective_tokens` step, which keeps a closure in
    // a variable and calls it with `.call`, was the last (docs/compiler.md).
    assert_eq!(fallbacks, Vec::<String>::new());
}

/// The report of `games` games of `ruleset` from seed 1 on `engine`.
fn sim(ruleset: &str, games: usize, engine: ScriptEngine) -> SimReport {
    let config = SimConfig {
        ruleset: ruleset.to_owned(),
        players: 2,
        agents: vec![AgentKind::Random],
        games,
        seed: 1,
        jobs: 2,
        choice: MatchChoice::default(),
        engine,
        profile: false,
        digest: true,
    };
    let paths = [PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")];
    gloam::sim::run(&paths, &config, &|_| {}).unwrap_or_else(|e| panic!("{ruleset}: {e}"))
}

/// Issue 12: every shipped ruleset plays the same games, event for event, on both engines.
/// (The release command in docs/compiler.md plays 200 games of each.)
#[test]
fn every_shipped_ruleset_plays_the_same_games_on_both_engines() {
    for ruleset in [
        "harrowdeep",
        "shadespire",
        "shadespire_artefact",
        "shadespire_matched",
        "embergard",
    ] {
        let rhai = sim(ruleset, 3, ScriptEngine::Rhai);
        let compiled = sim(ruleset, 3, ScriptEngine::Compiled);
        assert_eq!(rhai.failed, 0, "{ruleset}: {:?}", rhai.errors);
        assert_eq!(rhai.log_digest, compiled.log_digest, "{ruleset}");
        assert_eq!(compiled.engine, "compiled");
        let same = SimReport {
            engine: rhai.engine.clone(),
            ..compiled
        };
        assert_eq!(rhai, same, "{ruleset}");
    }
}

/// `SimConfig::digest` off (`gloam sim` without `--json`): the same games, no digests.
#[test]
fn a_run_without_digests_plays_the_same_games_and_reports_none() {
    let paths = [PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")];
    let run = |digest: bool| {
        let config = SimConfig {
            ruleset: "shadespire".to_owned(),
            players: 2,
            agents: vec![AgentKind::Random],
            games: 3,
            seed: 5,
            jobs: 2,
            choice: MatchChoice::default(),
            engine: ScriptEngine::Compiled,
            profile: false,
            digest,
        };
        gloam::sim::run(&paths, &config, &|_| {}).expect("the sim runs")
    };
    let with = run(true);
    let without = run(false);
    assert_eq!(with.log_digest.len(), 64);
    assert_eq!(without.log_digest, "");
    assert!(without.errors.iter().all(|game| game.log_digest.is_empty()));
    let blanked = SimReport {
        log_digest: String::new(),
        errors: with
            .errors
            .iter()
            .map(|game| gloam::sim::GameSummary {
                log_digest: String::new(),
                ..game.clone()
            })
            .collect(),
        ..with.clone()
    };
    assert_eq!(without, blanked);
}

/// `gloam sim --profile` (`SimConfig::profile`): the operations of every script, by script.
/// Counting changes no game, and the counts are the games' whatever the job count.
#[test]
fn a_profile_of_the_games_changes_no_game_and_not_with_the_job_count() {
    let paths = [PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")];
    let run = |jobs: usize, profile: bool, engine: ScriptEngine| {
        let config = SimConfig {
            ruleset: "harrowdeep".to_owned(),
            players: 2,
            agents: vec![AgentKind::Random],
            games: 4,
            seed: 11,
            jobs,
            choice: MatchChoice::default(),
            engine,
            profile,
            digest: true,
        };
        gloam::sim::run(&paths, &config, &|_| {})
    };
    let plain = run(1, false, ScriptEngine::Compiled).expect("the sim runs");
    assert_eq!(plain.profile, None);
    let one = run(1, true, ScriptEngine::Compiled).expect("the sim runs");
    let two = run(2, true, ScriptEngine::Compiled).expect("the sim runs");
    assert_eq!(one.log_digest, plain.log_digest);
    assert_eq!(two.log_digest, plain.log_digest);
    let profile = one.profile.expect("a profile");
    assert_eq!(Some(&profile), two.profile.as_ref());
    // The flow's steps are scripts of the data, each counted by its label; the reaction
    // step (a window's reactions, every fighter's upgrades and abilities) runs in every game.
    let reaction = profile.scripts["step \"reaction_step\" run"];
    assert!(reaction.runs >= 4 && reaction.operations > reaction.runs);
    assert!(profile.operations() > reaction.operations);
    assert!(
        profile
            .by_cost()
            .windows(2)
            .all(|w| w[0].1.operations >= w[1].1.operations)
    );
    // By line of the data files: every operation counts on one line, and the reaction
    // step's lines are the reaction step's text in the Harrowdeep rules file.
    let by_line = profile.by_line();
    let counted: u64 = by_line.iter().map(|(_, _, cost)| cost.operations).sum();
    assert_eq!(counted, profile.operations());
    let (_, rules) = profile
        .lines
        .iter()
        .find(|(file, _)| file.ends_with("cards/harrowdeep/harrowdeep.gloam"))
        .expect("the Harrowdeep rules file");
    assert!(rules.values().any(
        |line| line.text.contains("reactions_in(f, g[0], g[1], g[2])") && line.operations > 0
    ));
    assert!(
        by_line
            .windows(2)
            .all(|w| w[0].2.operations >= w[1].2.operations)
    );
    // The profile is the compiled engine's count: asked of Rhai's interpreter, refused.
    let refused = run(1, true, ScriptEngine::Rhai).expect_err("refused");
    assert!(refused.contains("--profile"), "{refused}");
}
