//! Whole games per second. Run: `cargo bench --bench games`.

use divan::black_box;
use gloam::agent::{Agent, RandomAgent};
use gloam::core::{Game, Setup};
use gloam::demo::Demo;

fn main() {
    divan::main();
}

/// One full kernel demo game between two random agents, from set-up to result.
#[divan::bench]
fn demo_game_random_agents(bencher: divan::Bencher) {
    let demo = Demo::builtin().expect("demo data");
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        let mut game = Game::start(
            demo.clone(),
            Setup::new(seed, &["Ann", "Bo"]),
            Demo::first_frames(),
        )
        .expect("starts");
        let mut agents = [RandomAgent::new(seed), RandomAgent::new(seed + 7)];
        while !game.is_over() {
            let request = game.pending()[0].clone();
            let view = game.view(request.player);
            let answer = agents[request.player.0 as usize].choose(&view, &request);
            game.submit(request.player, answer).expect("legal");
        }
        black_box(game.events().len())
    });
}
