//! The cost of scripts. Run: `cargo bench -p gloam-dsl --bench dsl`.
//!
//! The game is small and realistic: two players, six fighters on a 37-hex battlefield, four
//! zones a player with 20 cards in each deck.

use divan::{Bencher, black_box};
use gloam_core::{
    Battlefield, Ctx, Dice, Event, GameState, Hex, PieceId, PlayerId, Position, Scope, Value,
    Visibility, ZoneId,
};
use gloam_dsl::{Bindings, Host, Script, ScriptContext, ScriptSource, World};

fn main() {
    divan::main();
}

struct Bench {
    host: Host,
    world: World,
    state: GameState,
    bindings: Bindings,
}

fn setup() -> Bench {
    let battlefield = Battlefield::from_hexes(Hex::ORIGIN.range(3).into_iter().map(|hex| {
        let types: Vec<&str> = if hex == Hex::new(-1, 1) {
            vec!["blocked"]
        } else {
            vec![]
        };
        (hex, types)
    }));
    let world = World::new(battlefield, ["blocked"], true, Dice::new());
    let mut state = GameState::new(1, &["Ann", "Bo"]);
    let mut events = Vec::new();
    let mut ids: Vec<PieceId> = Vec::new();
    {
        let mut ctx = Ctx::new(&mut state, &mut events);
        for (index, hex) in [(0, 0), (1, 0), (-2, 2), (0, 2), (2, -2), (-3, 0)]
            .into_iter()
            .enumerate()
        {
            let stats = [
                ("move".to_owned(), 3),
                ("wounds".to_owned(), 3),
                ("defence".to_owned(), 1),
            ];
            let id = ctx
                .create_piece(PlayerId((index % 2) as u8), "fighter", stats)
                .unwrap();
            ctx.place_piece(
                id,
                Some(Position::Hex(Hex::new(hex.0, hex.1))),
                vec![],
                "deploy",
            )
            .unwrap();
            ids.push(id);
        }
        ctx.set_counter(Scope::Game, "round", 1).unwrap();
        for player in [PlayerId(0), PlayerId(1)] {
            for zone in [
                "power_deck",
                "power_hand",
                "objective_deck",
                "objective_hand",
            ] {
                ctx.create_zone(ZoneId::new(player, zone), Visibility::Owner)
                    .unwrap();
            }
            for n in 0..20 {
                ctx.create_card(
                    &format!("power {n}"),
                    player,
                    &ZoneId::new(player, "power_deck"),
                )
                .unwrap();
                ctx.create_card(
                    &format!("objective {n}"),
                    player,
                    &ZoneId::new(player, "objective_deck"),
                )
                .unwrap();
            }
        }
    }
    let bindings = Bindings::new()
        .acting(PlayerId(0))
        .with("this_fighter", Value::Piece(ids[0]))
        .with("target", Value::Piece(ids[1]));
    Bench {
        host: Host::new(),
        world,
        state,
        bindings,
    }
}

const CARD: &str = "let t = choose_fighter(enemy_fighters().filter(|f| adjacent(f, this_fighter)), \"Pick\");\n\
    if push_away(t, this_fighter, 1) { give_token(t, \"stagger\"); }\n\
    deal_damage(t, 1);";

fn compile(host: &Host, text: &str, condition: bool) -> Script {
    let context = if condition {
        ScriptContext::condition("bench")
    } else {
        ScriptContext::effect("bench")
    }
    .with_variables(["this_fighter", "player", "target"]);
    host.compile(&ScriptSource::whole("bench.gloam", text), &context)
        .expect("compiles")
}

/// One run of `deal_damage(target, 1);`: the copy of the game, the call, the commit.
#[divan::bench]
fn effect_script_run(bencher: Bencher) {
    let bench = setup();
    let script = compile(&bench.host, "deal_damage(target, 1);", false);
    bencher
        .with_inputs(|| (bench.state.clone(), Vec::<Event>::new()))
        .bench_local_refs(|(state, events)| {
            bench
                .host
                .run(&script, &bench.world, state, events, &bench.bindings, &[])
                .unwrap()
        });
}

/// One run of 100 `deal_damage(target, 1);` calls: divide by 100 for one effect call.
#[divan::bench]
fn effect_calls_x100(bencher: Bencher) {
    let bench = setup();
    let script = compile(&bench.host, &"deal_damage(target, 1);\n".repeat(100), false);
    bencher
        .with_inputs(|| (bench.state.clone(), Vec::<Event>::new()))
        .bench_local_refs(|(state, events)| {
            bench
                .host
                .run(&script, &bench.world, state, events, &bench.bindings, &[])
                .unwrap()
        });
}

/// A query script through `run` (the state is lent, never copied).
#[divan::bench]
fn query_script_run(bencher: Bencher) {
    bench_run(
        bencher,
        "adjacent(this_fighter, target) && damage(target) == 0",
    );
}

/// The same query as a condition through `evaluate_bool` (which copies the state).
#[divan::bench]
fn condition_evaluate_bool(bencher: Bencher) {
    let bench = setup();
    let script = compile(
        &bench.host,
        "adjacent(this_fighter, target) && damage(target) == 0",
        true,
    );
    bencher.bench_local(|| {
        black_box(
            bench
                .host
                .evaluate_bool(&script, &bench.world, &bench.state, &bench.bindings)
                .unwrap(),
        )
    });
}

/// A run of `text` through `run` on the bench's game (lent, never copied), as an effect.
fn bench_run(bencher: Bencher, text: &str) {
    let mut bench = setup();
    let script = compile(&bench.host, text, false);
    let mut events = Vec::new();
    bencher.bench_local(|| {
        black_box(
            bench
                .host
                .run(
                    &script,
                    &bench.world,
                    &mut bench.state,
                    &mut events,
                    &bench.bindings,
                    &[],
                )
                .unwrap(),
        )
    });
}

/// A run of a script that does nothing (`0`): what every run costs before its script
/// does anything (lending the game, the run's state, the variables bound, the outcome).
#[divan::bench]
fn empty_run(bencher: Bencher) {
    bench_run(bencher, "0");
}

/// The evaluator on the script's own values only: 1,000 turns of a loop with an `if`, a
/// remainder, a comparison and an addition (about 6,000 operations; the evaluator's floor).
#[divan::bench]
fn script_loop_x1000(bencher: Bencher) {
    bench_run(
        bencher,
        "let n = 0; for i in 0..1000 { if i % 3 == 0 { n += i; } } n",
    );
}

/// 100 turns of a loop each calling two queries of the vocabulary (`damage`, `has_token`
/// with a name): the cost of a native call.
#[divan::bench]
fn query_calls_x100(bencher: Bencher) {
    bench_run(
        bencher,
        "let n = 0; for i in 0..100 { n += damage(target); if has_token(target, \"guard\") { n += 1; } } n",
    );
}

/// 100 turns of a loop each filtering the fighters with a closure that calls a query, and
/// reading the list's length: a list made by a native, and a closure's turns.
#[divan::bench]
fn list_closure_x100(bencher: Bencher) {
    bench_run(
        bencher,
        "let n = 0; for i in 0..100 { n += fighters().filter(|f| damage(f) == 0).len(); } n",
    );
}

/// For comparison: one copy of the game state.
#[divan::bench]
fn game_state_clone(bencher: Bencher) {
    let bench = setup();
    bencher.bench_local(|| black_box(bench.state.clone()));
}

/// Compiling and checking a one-line effect.
#[divan::bench]
fn compile_one_line(bencher: Bencher) {
    let host = Host::new();
    bencher.bench_local(|| black_box(compile(&host, "deal_damage(target, 1);", false)));
}

/// Compiling and checking a three-line card effect with a closure and a choice.
#[divan::bench]
fn compile_card_effect(bencher: Bencher) {
    let host = Host::new();
    bencher.bench_local(|| black_box(compile(&host, CARD, false)));
}

/// Building the host (engine, packages, vocabulary), done once per program.
#[divan::bench]
fn host_new() -> Host {
    Host::new()
}
