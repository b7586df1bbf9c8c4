//! The agents in whole Harrowdeep games (issue 4, point 3): both only ever answer with the
//! options the kernel offers (every game below ends without a refused answer or a broken
//! invariant), and the greedy agent, which prefers glory and favourable attacks, outscores
//! the random one.

use std::path::PathBuf;

use gloam::sim::{AgentKind, SimConfig, run};

fn cards_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")
}

fn config(agents: Vec<AgentKind>, games: usize, jobs: usize) -> SimConfig {
    SimConfig {
        ruleset: "harrowdeep".into(),
        players: 2,
        agents,
        games,
        seed: 11,
        jobs,
        choice: Default::default(),
        engine: gloam::sim::ScriptEngine::from_env(),
        profile: false,
        digest: true,
    }
}

#[test]
fn greedy_agent_outscores_random_agent_in_either_seat() {
    let paths = [cards_dir()];
    for (agents, greedy_seat) in [
        (vec![AgentKind::Greedy, AgentKind::Random], 0),
        (vec![AgentKind::Random, AgentKind::Greedy], 1),
    ] {
        let report = run(&paths, &config(agents, 4, 2), &|_| {}).expect("runs");
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let random_seat = 1 - greedy_seat;
        assert_eq!(report.agents[greedy_seat], "greedy");
        assert!(
            report.average_glory[greedy_seat] > report.average_glory[random_seat],
            "{report:?}"
        );
        assert!(
            report.wins[greedy_seat] > report.wins[random_seat],
            "{report:?}"
        );
    }
}

#[test]
fn agents_results_do_not_depend_on_the_job_count() {
    let paths = [cards_dir()];
    let agents = vec![AgentKind::Greedy, AgentKind::Random];
    let one = run(&paths, &config(agents.clone(), 3, 1), &|_| {}).expect("runs");
    let two = run(&paths, &config(agents, 3, 2), &|_| {}).expect("runs");
    assert_eq!(one, two);
}

#[test]
fn agent_names_parse_and_unknown_ones_are_refused() {
    assert_eq!("greedy".parse::<AgentKind>(), Ok(AgentKind::Greedy));
    assert_eq!("random".parse::<AgentKind>(), Ok(AgentKind::Random));
    let error = "clever".parse::<AgentKind>().unwrap_err();
    assert!(error.contains("random, greedy"), "{error}");
}

#[test]
fn random_agent_picks_table_point_candidates_never_the_any_point_marker() {
    use gloam::agent::random_answer;
    use gloam_core::{Answer, Choice, GameRng, PlayerId, Point, Request};
    let candidates = [Point::new(10, 0), Point::new(0, 10)];
    let request = Request::table_point(PlayerId(0), "move_unit", "Where to?", candidates);
    let mut rng = GameRng::from_seed(3);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..64 {
        let answer = random_answer(&mut rng, &request);
        assert!(request.check(&answer).is_ok(), "{answer:?}");
        let Answer::One(Choice::Point(point)) = answer else {
            panic!("a candidate point, not {answer:?}");
        };
        seen.insert(point);
    }
    assert_eq!(seen.len(), 2);
}
