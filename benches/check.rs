//! Loading and checking data files. Run: `cargo bench --bench check`.
//! The goal (issue 3): a 1,000-card library parsed and checked in under 100 ms on one core.

use divan::{Bencher, black_box};
use gloam::load::{Source, load};

fn main() {
    divan::main();
}

const RULESET: &str = include_str!("../cards/underworlds/underworlds.gloam");

/// A library of `n` cards in files of 50, a third each objectives with a condition, ploys
/// with a choice and an effect, and upgrades with an effect.
fn library(n: usize) -> Vec<Source> {
    let mut files = vec![Source::new("underworlds.gloam", RULESET)];
    let mut text = String::new();
    for i in 0..n {
        let card = match i % 3 {
            0 => format!(
                "card \"Objective {i}\" {{\n    ruleset = \"underworlds\"\n    kind = objective\n    owner = universal\n    glory = 1\n    score = end_phase\n    text = \"Score this if two friendly fighters are adjacent to enemies.\"\n    condition = {{\n        friendly_fighters().filter(|f| enemy_fighters().some(|e| adjacent(f, e))).len() >= 2\n    }}\n}}\n\n"
            ),
            1 => format!(
                "card \"Ploy {i}\" {{\n    ruleset = \"underworlds\"\n    kind = ploy\n    owner = universal\n    window = power_step\n    text = \"Deal 1 damage to an enemy fighter adjacent to a friendly fighter.\"\n    effect = {{\n        let options = enemy_fighters().filter(|e| friendly_fighters().some(|f| adjacent(f, e)));\n        if options.len() > 0 {{\n            let victim = choose_fighter(options, \"who?\");\n            deal_damage(victim, 1);\n        }}\n    }}\n}}\n\n"
            ),
            _ => format!(
                "card \"Upgrade {i}\" {{\n    ruleset = \"underworlds\"\n    kind = upgrade\n    owner = universal\n    cost = 1\n    window = after_attack\n    text = \"After this fighter attacks, it gains a guard token.\"\n    effect = {{ give_token(this_fighter, \"guard\"); }}\n}}\n\n"
            ),
        };
        text.push_str(&card);
        if (i + 1) % 50 == 0 || i + 1 == n {
            files.push(Source::new(
                format!("cards_{}.gloam", i / 50),
                std::mem::take(&mut text),
            ));
        }
    }
    files
}

/// Parse and check the data files only (gloam-grammar).
#[divan::bench(args = [100, 1000])]
fn parse_and_check_files(bencher: Bencher, cards: usize) {
    let files = library(cards);
    bencher.bench(|| {
        let (library, problems) = gloam_grammar::load(black_box(&files));
        assert!(problems.is_empty());
        black_box(library.cards().len())
    });
}

/// Everything `gloam check` does: parse, check, compile and check every script.
#[divan::bench(args = [100, 1000])]
fn load_and_compile_everything(bencher: Bencher, cards: usize) {
    let files = library(cards);
    let host = gloam_dsl::Host::new();
    bencher.bench_local(|| {
        let (loaded, problems) = load(black_box(&files), &host);
        assert!(problems.is_empty(), "{problems:?}");
        black_box(loaded.scripts.len())
    });
}
