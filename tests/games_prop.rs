//! Whole games with random legal and illegal answers, for every shipped ruleset (issue 17),
//! Spearhead's table points included:
//! an illegal answer is refused and changes nothing (state, view and event log compared
//! before and after), and the record of the game replays to the same event log. Kept small
//! (few cases, games cut at a number of decisions) so the suite stays fast; the soak in
//! docs/reliability.md plays whole games by the hundred thousand.

use gloam::agent::{Agent, RandomAgent};
use gloam::core::{Answer, Choice, Game, PlayerId};
use gloam::engine::RulesetGame;
use proptest::prelude::*;

const RULESETS: &[&str] = &["harrowdeep", "shadespire", "embergard", "spearhead"];

thread_local! {
    static RULES: Vec<RulesetGame> = RULESETS
        .iter()
        .map(|ruleset| {
            gloam::sim::prepare(&[concat!(env!("CARGO_MANIFEST_DIR"), "/cards").into()], ruleset)
                .expect("a shipped ruleset")
        })
        .collect();
}

/// Answers no request accepts: out-of-range numbers and dice, an unknown option, and a
/// player who was not asked.
fn illegal(kind: u8, asked: PlayerId, players: u8) -> (PlayerId, Answer) {
    match kind % 5 {
        // A table point off any table: refused by the rules where a request takes any
        // point, and as no option elsewhere.
        4 => (
            asked,
            Answer::One(Choice::Point(gloam::core::Point::new(
                -1_000_000, 1_000_000,
            ))),
        ),
        0 => (asked, Answer::One(Choice::Number(i64::MIN))),
        1 => (asked, Answer::One(Choice::Option("no such option".into()))),
        2 => (asked, Answer::Several(vec![Choice::Die(u32::MAX); 3])),
        _ => (PlayerId((asked.0 + 1) % players), Answer::One(Choice::Pass)),
    }
}

fn snapshot(game: &Game<RulesetGame>, players: u8) -> (String, Vec<String>, usize) {
    let views = (0..players)
        .map(|p| serde_json::to_string(&game.view(PlayerId(p))).unwrap())
        .collect();
    (
        serde_json::to_string(game.state()).unwrap(),
        views,
        game.events().len(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    #[test]
    fn illegal_answers_change_nothing_and_games_replay(
        seed in 0u64..1_000_000,
        ruleset in 0usize..4,
        illegal_kinds in proptest::collection::vec(any::<u8>(), 40),
    ) {
        RULES.with(|rules| {
            let rules = &rules[ruleset];
            let mut game =
                Game::start(rules.clone(), rules.setup(seed), RulesetGame::first_frames()).unwrap();
            let players = game.state().players.len() as u8;
            let mut agent = RandomAgent::new(seed);
            let mut refused = 0;
            for decision in 0..120 {
                if game.is_over() {
                    break;
                }
                let request = game.pending()[0].clone();
                if let Some(&kind) = illegal_kinds.get(decision / 3).filter(|_| decision % 3 == 0) {
                    let before = snapshot(&game, players);
                    let (player, answer) = illegal(kind, request.player, players);
                    if game.submit(player, answer.clone()).is_err() {
                        refused += 1;
                        prop_assert_eq!(&before, &snapshot(&game, players), "{:?} changed the game", answer);
                    }
                }
                let answer = agent.choose(&game.view(request.player), &request);
                game.submit(request.player, answer).unwrap();
            }
            prop_assert!(refused > 0, "no illegal answer was tried");
            let replayed =
                Game::replay(rules.clone(), game.record(), RulesetGame::first_frames()).unwrap();
            let log = |g: &Game<RulesetGame>| serde_json::to_string(g.events()).unwrap();
            prop_assert_eq!(log(&game), log(&replayed));
            Ok(())
        })?;
    }
}
