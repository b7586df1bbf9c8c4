//! Decisions per second: the same Harrowdeep game played through the Rust API and through
//! the JSON protocol (`gloam::protocol::Session`, what `gloam serve --stdio` and the C
//! library run). Run: `cargo bench --bench protocol`; divan reports items (decisions) per
//! second. The figures are in docs/performance.md.

use std::path::PathBuf;

use divan::black_box;
use divan::counter::ItemsCount;
use gloam::core::{Answer, Game, Options};
use gloam::engine::RulesetGame;
use gloam::protocol::Session;

fn main() {
    divan::main();
}

const SEED: u64 = 5;

fn cards() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cards"))
}

/// The game both benches play: the kernel answers, and the same answers as request lines.
fn scripted_game() -> (
    RulesetGame,
    Vec<(gloam::core::PlayerId, Answer)>,
    Vec<String>,
) {
    let rules = gloam::sim::prepare(&[cards()], "harrowdeep").expect("harrowdeep loads");
    let mut game = Game::start(
        rules.clone(),
        rules.setup(SEED),
        RulesetGame::first_frames(),
    )
    .expect("starts");
    let mut answers = Vec::new();
    let mut lines = vec![format!(
        r#"{{"id":0,"cmd":"new_game","ruleset":"harrowdeep","seed":{SEED}}}"#
    )];
    let mut turn = 0usize;
    while !game.is_over() {
        let request = game.pending()[0].clone();
        turn += 1;
        let (answer, host) = match &request.options {
            Options::One { choices } => {
                let i = turn * 7 % choices.len();
                (
                    Answer::One(choices[i].clone()),
                    format!(r#"{{"option":{i}}}"#),
                )
            }
            Options::Several { choices, min, .. } => {
                let picked: Vec<usize> = (0..*min as usize).collect();
                (
                    Answer::Several(picked.iter().map(|&i| choices[i].clone()).collect()),
                    format!(r#"{{"options":{picked:?}}}"#),
                )
            }
            Options::Order { items } => {
                let order: Vec<usize> = (0..items.len()).collect();
                (
                    Answer::Order(items.clone()),
                    format!(r#"{{"order":{order:?}}}"#),
                )
            }
        };
        lines.push(format!(
            r#"{{"id":{turn},"cmd":"answer","game":1,"player":{},"answer":{host}}}"#,
            request.player.0
        ));
        game.submit(request.player, answer.clone()).expect("legal");
        answers.push((request.player, answer));
    }
    (rules, answers, lines)
}

/// The game through `Game::start` and `Game::submit`.
#[divan::bench(sample_count = 10)]
fn rust_api(bencher: divan::Bencher) {
    let (rules, answers, _) = scripted_game();
    bencher
        .counter(ItemsCount::new(answers.len()))
        .bench_local(|| {
            let mut game = Game::start(
                rules.clone(),
                rules.setup(SEED),
                RulesetGame::first_frames(),
            )
            .expect("starts");
            for (player, answer) in &answers {
                game.submit(*player, answer.clone()).expect("legal");
            }
            black_box(game.is_over())
        });
}

/// The same game as request lines into a protocol session, each reply written out.
#[divan::bench(sample_count = 10)]
fn protocol_session(bencher: divan::Bencher) {
    let (_, answers, lines) = scripted_game();
    let mut session = Session::new(&[cards()]).expect("loads");
    let close = r#"{"id":"c","cmd":"close","game":"#;
    let mut game_id = 0u64;
    bencher
        .counter(ItemsCount::new(answers.len()))
        .bench_local(|| {
            // Each run makes a new game (ids count up), so the lines name it.
            game_id += 1;
            let mut bytes = 0;
            for (index, line) in lines.iter().enumerate() {
                let line = if index == 0 {
                    line.clone()
                } else {
                    line.replacen(r#""game":1"#, &format!(r#""game":{game_id}"#), 1)
                };
                let reply = session.handle_line(&line);
                assert!(!reply.contains(r#""error":{"code""#), "refused: {reply}");
                bytes += reply.len();
            }
            session.handle_line(&format!("{close}{game_id}}}"));
            black_box(bytes)
        });
}
