//! The limit, measured (issue 12 item 5): one Harrowdeep Attack action run from the data
//! (the edition's own combat flow, through the script host) beside the same attack resolved
//! by a hand-written native resolver of the combat sequence (digest 3.9-3.12, seed 002
//! L2319-2596): attack roll with the Stagger re-roll, defence roll, criticals, support on
//! both sides, Guard, Cleave and Ensnare, the trapped check, damage with Grievous, out of
//! action, Stagger on a success, and the drive back. The ratio of the two is the figure
//! the compiled scripts are to bring down (goal: at most 3x). Benchmark-only: no game
//! plays the native resolver.
//!
//! Run: `cargo bench --bench attack_native`. Both sides start from the same staged game
//! (`gloam::odds::Calculator::stage`: Calthia Xandire's Broadsword against a staggered Torka
//! Tuffskul, one friendly supporter beside the target) with a new seed each iteration.

use std::path::PathBuf;

use divan::black_box;
use gloam::odds::{AttackerSpec, Calculator, Situation, Staged, StagedAttack, TargetSpec};
use gloam_core::{
    Answer, Choice, Ctx, Game, GameRng, GameState, Grid, Hex, PieceId, Pool, Position, Request,
    RuleError, Scope,
};

/// The `gloam` command's allocator, so that the figures are the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

fn staged() -> StagedAttack {
    let cards = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cards"));
    let mut calculator = Calculator::new(&[cards], "harrowdeep").expect("the shipped data loads");
    let situation = Situation {
        attacker: AttackerSpec {
            warband: "Xandire's Truthseekers".into(),
            fighter: "Calthia Xandire".into(),
            weapon: "Broadsword".into(),
            ..AttackerSpec::default()
        },
        target: TargetSpec {
            warband: "Da Kunnin' Krew".into(),
            fighter: "Torka Tuffskul".into(),
            staggered: true,
            ..TargetSpec::default()
        },
        attacker_supports: 1,
        ..Situation::default()
    };
    let mut staged = calculator.stage(&situation).expect("the situation stages");
    staged
        .game
        .set_chance_mode(false)
        .expect("nothing waits before the attack");
    staged
}

/// The staged game with its dice reseeded (and an empty log: only the attack's events are
/// kept, as the native resolver keeps only its own).
fn reseeded(staged: &StagedAttack, seed: u64) -> Game<Staged> {
    let game = &staged.game;
    let mut state = game.state().clone();
    state.rng = GameRng::from_seed(seed);
    Game::resume(
        game.rules().clone(),
        state,
        Vec::new(),
        game.record().clone(),
    )
}

/// The data's attack: the flow's own Attack action, every question answered by passing
/// where the rules allow it, else with the first legal answer.
fn data_attack(staged: &StagedAttack, seed: u64) -> usize {
    let mut game = reseeded(staged, seed);
    let before = game.events().len();
    game.push_frame(staged.attack.clone())
        .expect("the attack starts");
    while let Some(request) = game.pending().first().map(|r| (*r).clone()) {
        let answer = first_answer(&request);
        game.submit(request.player, answer).expect("a legal answer");
    }
    game.events().len() - before
}

fn first_answer(request: &Request) -> Answer {
    let answers = request.enumerate(64).unwrap_or_default();
    answers
        .iter()
        .find(|answer| matches!(answer, Answer::One(Choice::Pass)))
        .or_else(|| answers.first())
        .cloned()
        .expect("a request with an answer")
}

/// The battlefield and the pieces, for the kernel's push functions.
struct Board<'a> {
    battlefield: &'a gloam_core::Battlefield,
    state: &'a GameState,
}

impl Grid for Board<'_> {
    fn contains(&self, hex: Hex) -> bool {
        self.battlefield.contains(hex)
    }

    fn blocks_movement(&self, hex: Hex) -> bool {
        self.battlefield.has_type(hex, "blocked")
    }

    fn is_occupied(&self, hex: Hex) -> bool {
        self.state.piece_at(Position::Hex(hex)).is_some()
    }
}

/// Friendly fighters of `side` other than `except` adjacent to `hex`.
fn supporters(state: &GameState, side: gloam_core::PlayerId, except: PieceId, hex: Hex) -> usize {
    state
        .pieces
        .values()
        .filter(|piece| piece.owner == side && piece.id != except && piece.layer.is_empty())
        .filter_map(|piece| piece.position.and_then(Position::hex))
        .filter(|at| at.distance_to(hex) == 1)
        .count()
}

fn count(faces: &[&str], set: &[&str]) -> usize {
    faces.iter().filter(|face| set.contains(face)).count()
}

/// The native resolver: the same Attack action, in Rust, through the kernel's `Ctx`.
fn native_attack(staged: &StagedAttack, seed: u64) -> Result<usize, RuleError> {
    let rules = staged.game.rules().rules();
    let battlefield = rules.battlefield();
    let dice = rules.dice();
    let profile = &staged.profile;
    let mut state = staged.game.state().clone();
    state.rng = GameRng::from_seed(seed);
    let mut log = Vec::new();
    let (attacker, target) = (staged.attacker, staged.target);
    let at = |state: &GameState, piece: PieceId| {
        state
            .piece(piece)
            .and_then(|p| p.position)
            .and_then(Position::hex)
    };
    let (Some(from), Some(to)) = (at(&state, attacker), at(&state, target)) else {
        return Ok(0);
    };
    let side = state
        .piece(attacker)
        .map(|p| p.owner)
        .expect("the attacker");
    let foe = state.piece(target).map(|p| p.owner).expect("the target");
    let has = |keyword: &str| profile.keywords.iter().any(|k| k == keyword);
    let token = |state: &GameState, name: &str| {
        state
            .piece(target)
            .and_then(|p| p.tokens.get(name).copied())
            .unwrap_or(0)
            > 0
    };
    let guard = token(&state, "guard");
    let staggered = token(&state, "stagger");
    // 1. Declare: in range.
    if i64::from(from.distance_to(to)) > profile.range {
        return Ok(0);
    }
    let mut ctx = Ctx::new(&mut state, &mut log);
    // 2. The attack roll; a staggered target lets one die that is not a success be re-rolled.
    let attack_supports = supporters(ctx.state(), side, attacker, to);
    let mut hits = vec!["critical", profile.symbol.as_str()];
    if attack_supports >= 1 {
        hits.push("single_support");
    }
    if attack_supports >= 2 {
        hits.push("double_support");
    }
    let mut roll = ctx.roll(
        Some(side),
        "attack",
        dice,
        &Pool::of("attack", profile.dice.max(1) as u32),
    )?;
    if staggered
        && let Some(index) = roll
            .dice()
            .iter()
            .position(|die| !hits.contains(&die.face.as_str()))
    {
        ctx.reroll("attack", &mut roll, index)?;
    }
    let attack: Vec<String> = roll.dice().iter().map(|die| die.face.clone()).collect();
    // 3. The defence roll.
    let defence = ctx.roll(
        Some(foe),
        "defence",
        dice,
        &Pool::of("defence", profile.defence.max(1) as u32),
    )?;
    let defence: Vec<String> = defence.dice().iter().map(|die| die.face.clone()).collect();
    // 4. Success: criticals first, then the trapped check and the successes.
    let mut saves = if guard {
        vec!["block", "dodge", "critical"]
    } else {
        vec![profile.defence_symbol.as_str(), "critical"]
    };
    if has("cleave") {
        saves.retain(|face| *face != "block");
    }
    if has("ensnare") {
        saves.retain(|face| *face != "dodge");
    }
    let defence_supports = supporters(ctx.state(), foe, target, from);
    if defence_supports >= 1 {
        saves.push("single_support");
    }
    if defence_supports >= 2 {
        saves.push("double_support");
    }
    let attack: Vec<&str> = attack.iter().map(String::as_str).collect();
    let defence: Vec<&str> = defence.iter().map(String::as_str).collect();
    let (crits, saves_crits) = (
        count(&attack, &["critical"]),
        count(&defence, &["critical"]),
    );
    let board = Board {
        battlefield,
        state: ctx.state(),
    };
    let trapped = !guard && gloam_core::is_trapped(&board, to, from);
    let mut successes = count(&attack, &hits);
    let blocks = count(&defence, &saves);
    let (success, draw, critical) = if crits > saves_crits {
        (true, false, true)
    } else if saves_crits > crits {
        (false, false, false)
    } else {
        if trapped && successes >= 1 {
            successes += 1;
        }
        if successes > blocks {
            (true, false, crits >= 1)
        } else {
            (false, successes == blocks && successes >= 1, false)
        }
    };
    ctx.set_counter(
        Scope::Game,
        "attack_outcome",
        if critical {
            3
        } else if success {
            2
        } else if draw {
            1
        } else {
            0
        },
    )?;
    let mut out_of_action = false;
    if success {
        // 5. Damage; 6. out of action.
        let damage = profile.damage.max(1) + i64::from(critical && has("grievous"));
        let total = ctx.add_counter(Scope::Piece(target), "damage", damage)?;
        if total >= profile.wounds {
            ctx.place_piece(target, None, Vec::new(), "out_of_action")?;
            out_of_action = true;
        } else if has("stagger") {
            // A Stagger weapon's success staggers the target, which removes Guard (3.11).
            ctx.set_tokens(Scope::Piece(target), "stagger", 1)?;
            ctx.set_tokens(Scope::Piece(target), "guard", 0)?;
        }
    }
    // 7. Drive back, on a success or a draw, when the target is not trapped or guarded.
    if (success || draw) && !out_of_action && !trapped && !guard {
        let board = Board {
            battlefield,
            state: ctx.state(),
        };
        if let Some(&hex) = gloam_core::drive_back_hexes(&board, to, from).first() {
            ctx.place_piece(
                target,
                Some(Position::Hex(hex)),
                vec![to, hex],
                "drive_back",
            )?;
        }
    }
    Ok(ctx.events().len())
}

/// The data's attack: the edition's combat flow, from the data, through the script host.
#[divan::bench(sample_count = 20, sample_size = 20)]
fn attack_from_the_data(bencher: divan::Bencher) {
    let staged = staged();
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        black_box(data_attack(&staged, seed))
    });
}

/// The same attack by the native resolver.
#[divan::bench(sample_count = 20, sample_size = 20)]
fn attack_native(bencher: divan::Bencher) {
    let staged = staged();
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        black_box(native_attack(&staged, seed).expect("the native attack runs"))
    });
}
