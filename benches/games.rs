//! Whole games per second for every shipped edition, each played from its data by the same
//! driver (`gloam sim`'s match: two random agents, set-up to result, the invariants checked
//! after every decision). Run: `cargo bench --bench games`.

use std::path::PathBuf;

use divan::black_box;
use gloam::sim::{play_one, prepare};

/// The `gloam` command's allocator, so that the figures are the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

/// One full random game of `ruleset`, a new seed each time.
#[divan::bench(args = ["shadespire", "embergard"], sample_count = 20, sample_size = 1)]
fn game_random_agents(bencher: divan::Bencher, ruleset: &str) {
    let cards = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cards"));
    let rules = prepare(&[cards], ruleset).expect("the shipped data loads");
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        let summary = play_one(&rules, seed);
        assert!(summary.error.is_none(), "game {seed}: {:?}", summary.error);
        black_box(summary.events)
    });
}
