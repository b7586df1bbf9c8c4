//! Random Harrowdeep games per second: the ruleset's flow runs as data (Rhai step scripts),
//! driven by the kernel. Run: `cargo bench --bench harrowdeep`.

use std::path::PathBuf;

use divan::black_box;
use gloam::sim::{play_one, prepare};

/// The `gloam` command's allocator, so that the figures are the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

/// One full random Harrowdeep game (the `gloam sim harrowdeep` match: two random agents,
/// set-up to result, the invariants checked after every decision), a new seed each time.
#[divan::bench(sample_count = 30, sample_size = 1)]
fn harrowdeep_game_random_agents(bencher: divan::Bencher) {
    let cards = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cards"));
    let rules = prepare(&[cards], "harrowdeep").expect("the shipped data loads");
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        let summary = play_one(&rules, seed);
        assert!(summary.error.is_none(), "game {seed}: {:?}", summary.error);
        black_box(summary.events)
    });
}
