//! `gloam odds`: the exact odds of one attack, enumerated through the data's own combat
//! flow at every chance node. Run: `cargo bench --bench odds`.
//!
//! The shipped warbands have no 5-dice weapon, so the bench adds a fixture warband to the
//! Harrowdeep data: a fighter with a 5-dice weapon and one with Defence 3; the target is
//! staggered and the attacker has one card re-roll (two attack re-rolls).

use std::path::PathBuf;

use divan::black_box;
use gloam::odds::{AttackerSpec, Calculator, Situation, TargetSpec};

/// The `gloam` command's allocator, so that the figures are the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

const FIXTURE: &str = r#"
warband "Bench Brutes" {
    ruleset = "harrowdeep"
    alliance = destruction
    fighter "Big Basher" {
        stats = [move: 3, defence: 3, wounds: 6, bounty: 1]
        symbols = [defence: block]
        weapon "Huge Club" {
            range = 1
            dice = 5
            symbol = smash
            damage = 2
        }
    }
    fighter "Wall" {
        stats = [move: 3, defence: 3, wounds: 6, bounty: 1]
        symbols = [defence: block]
        weapon "Fists" {
            range = 1
            dice = 1
            symbol = smash
            damage = 1
        }
    }
}
"#;

fn calculator() -> Calculator {
    let cards = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cards"));
    let dir = std::env::temp_dir().join(format!("gloam-odds-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("bench_brutes.gloam");
    std::fs::write(&file, FIXTURE).expect("write the fixture");
    Calculator::new(&[cards, file], "harrowdeep").expect("the data and the fixture load")
}

fn situation(dice_bench: bool) -> Situation {
    let (fighter, weapon) = if dice_bench {
        ("Big Basher", "Huge Club")
    } else {
        ("Calthia Xandire", "Broadsword")
    };
    let warband = if dice_bench {
        "Bench Brutes"
    } else {
        "Xandire's Truthseekers"
    };
    Situation {
        attacker: AttackerSpec {
            warband: warband.into(),
            fighter: fighter.into(),
            weapon: weapon.into(),
            rerolls: 1,
            ..AttackerSpec::default()
        },
        target: TargetSpec {
            warband: if dice_bench {
                "Bench Brutes"
            } else {
                "Da Kunnin' Krew"
            }
            .into(),
            fighter: if dice_bench { "Wall" } else { "Torka Tuffskul" }.into(),
            staggered: true,
            ..TargetSpec::default()
        },
        ..Situation::default()
    }
}

/// 5 attack dice (two re-rolls: a card's and the Stagger token's) against 3 defence dice.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn five_dice_against_three_with_rerolls(bencher: divan::Bencher) {
    let mut calc = calculator();
    let situation = situation(true);
    bencher.bench_local(|| black_box(calc.odds(&situation).expect("odds").leaves));
}

/// 3 attack dice (two re-rolls) against 1 defence die: a shipped Harrowdeep attack.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn three_dice_against_one_with_rerolls(bencher: divan::Bencher) {
    let mut calc = calculator();
    let situation = situation(false);
    bencher.bench_local(|| black_box(calc.odds(&situation).expect("odds").leaves));
}
