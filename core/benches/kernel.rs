//! Kernel benchmarks. Run: `cargo bench -p gloam-core --bench kernel`.
//! Figures and the machine they were taken on are in docs/performance.md.

use std::collections::BTreeMap;

use divan::{Bencher, black_box};
use gloam_core::{
    Battlefield, Board, Ctx, Dice, DieDef, DieFace, GameRng, GameState, Grid, Hex, Placement,
    PlayerId, Pool, Position, Sight, Visibility, ZoneId, reachable,
};

fn main() {
    divan::main();
}

/// Two boards of five rows of eight hexes, joined long edge to long edge through a row of
/// four completed hexes (a Harrowdeep-sized battlefield, 84 hexes), with six blocked hexes.
fn two_boards() -> Battlefield {
    let board = |rows: std::ops::Range<i32>, half_row: i32| {
        let mut board = Board::new(format!("rows {rows:?}"));
        for r in rows {
            for col in 0..8 {
                let q = col - r.div_euclid(2);
                let blocked = (r == 2 && col == 3) || (r == 8 && col == 5) || (r == 3 && col == 6);
                let types: Vec<&str> = if blocked { vec!["blocked"] } else { vec![] };
                board = board.with_hex(Hex::new(q, r), types);
            }
        }
        for col in [1, 3, 5, 7] {
            board = board.with_half_hex(
                Hex::new(col - half_row.div_euclid(2), half_row),
                Vec::<&str>::new(),
            );
        }
        board
    };
    Battlefield::join(
        &[
            (board(0..5, 5), Placement::IDENTITY),
            (board(6..11, 5), Placement::IDENTITY),
        ],
        4,
    )
    .expect("the benchmark battlefield joins")
}

#[divan::bench(args = [false, true])]
fn line_of_sight_all_pairs(bencher: Bencher, off_board_blocks: bool) {
    let battlefield = two_boards();
    let sight = Sight::from_battlefield(&battlefield, &["blocked"], off_board_blocks);
    let hexes: Vec<Hex> = battlefield.hexes().collect();
    bencher
        .counter(divan::counter::ItemsCount::new(hexes.len() * hexes.len()))
        .bench(|| {
            let mut seen = 0u32;
            for a in &hexes {
                for b in &hexes {
                    seen += u32::from(sight.visible(*a, *b).unwrap_or(false));
                }
            }
            black_box(seen)
        });
}

struct BenchGrid<'a> {
    battlefield: &'a Battlefield,
    occupied: Vec<Hex>,
}

impl Grid for BenchGrid<'_> {
    fn contains(&self, hex: Hex) -> bool {
        self.battlefield.contains(hex)
    }
    fn blocks_movement(&self, hex: Hex) -> bool {
        self.battlefield.has_type(hex, "blocked")
    }
    fn is_occupied(&self, hex: Hex) -> bool {
        self.occupied.contains(&hex)
    }
}

#[divan::bench(args = [2, 4, 8])]
fn reachable_set(bencher: Bencher, budget: u32) {
    let battlefield = two_boards();
    let grid = BenchGrid {
        battlefield: &battlefield,
        occupied: vec![
            Hex::new(2, 4),
            Hex::new(0, 6),
            Hex::new(3, 3),
            Hex::new(-1, 7),
        ],
    };
    bencher.bench(|| black_box(reachable(&grid, black_box(Hex::new(1, 5)), budget).len()));
}

fn attack_dice() -> Dice {
    let faces = [
        ("critical", 1),
        ("hammer", 2),
        ("swords", 1),
        ("single_support", 1),
        ("double_support", 1),
    ];
    let def = DieDef::new(
        "attack",
        faces.iter().map(|(n, c)| DieFace::new(*n, *c)).collect(),
    )
    .expect("a valid die");
    Dice::from_defs([def]).expect("a valid dice set")
}

#[divan::bench(args = [2, 4, 8])]
fn roll_attack_pool(bencher: Bencher, n_dice: u32) {
    let dice = attack_dice();
    let pool = Pool::of("attack", n_dice);
    let mut rng = GameRng::from_seed(1);
    bencher.bench_local(|| {
        let roll = dice.roll(&pool, &mut rng).expect("rolls");
        black_box(roll.count(&["hammer", "critical"]))
    });
}

#[divan::bench]
fn exact_odds_of_a_five_dice_pool(bencher: Bencher) {
    let dice = attack_dice();
    let pool = Pool::of("attack", 5);
    bencher.bench(|| {
        black_box(
            dice.success_distribution(&pool, &["hammer", "critical"])
                .expect("odds"),
        )
    });
}

/// A mid-game state: two players, ten pieces with characteristics and counters, three
/// zones of cards each (32 cards a player), a few modifiers.
fn mid_game_state() -> GameState {
    let mut state = GameState::new(3, &["Ann", "Bo"]);
    let mut log = Vec::new();
    let mut ctx = Ctx::new(&mut state, &mut log);
    for seat in 0..2u8 {
        let player = PlayerId(seat);
        for zone in ["objective_deck", "power_deck", "hand"] {
            ctx.create_zone(ZoneId::new(player, zone), Visibility::Nobody)
                .expect("zone");
        }
        for card in 0..32 {
            let zone = if card < 12 {
                "objective_deck"
            } else {
                "power_deck"
            };
            ctx.create_card(&format!("card {card}"), player, &ZoneId::new(player, zone))
                .expect("card");
        }
        for fighter in 0..5 {
            let characteristics: BTreeMap<String, i64> =
                [("move", 3), ("wounds", 4), ("defence", 1)]
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect();
            let piece = ctx
                .create_piece(player, "fighter", characteristics)
                .expect("piece");
            ctx.place_piece(
                piece,
                Some(Position::Hex(Hex::new(fighter, i32::from(seat) * 6))),
                vec![],
                "deploy",
            )
            .expect("place");
            ctx.add_counter(gloam_core::Scope::Piece(piece), "damage", 1)
                .expect("counter");
        }
    }
    state
}

#[divan::bench]
fn state_clone(bencher: Bencher) {
    let state = mid_game_state();
    bencher.bench(|| black_box(state.clone()));
}
