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

/// A Spearhead-sized table: 44" x 30", two sides of four units of five 32 mm models in
/// loose lines, and two terrain features.
fn table_scene() -> gloam_core::Scene {
    use gloam_core::{Figure, GroupId, Length, PieceId, Point, Scene, TablePiece, Terrain};
    let inch = 254;
    let mut pieces = Vec::new();
    for side in 0..2u8 {
        for unit in 0..4u32 {
            for model in 0..5i64 {
                let id = pieces.len() as u16;
                let x = (4 + 10 * i64::from(unit)) * inch + model * 400;
                let y = if side == 0 { 6 * inch } else { 24 * inch };
                pieces.push(TablePiece {
                    id: PieceId(id),
                    side: PlayerId(side),
                    group: GroupId(u32::from(side) * 4 + unit),
                    figure: Figure::new(Point::new(x, y), Length::mm(16)),
                });
            }
        }
    }
    let block = |x: i64, y: i64| Terrain {
        footprint: vec![
            Point::new(x, y),
            Point::new(x + 6 * inch, y),
            Point::new(x + 6 * inch, y + 4 * inch),
            Point::new(x, y + 4 * inch),
        ],
        height: Length::inches(3),
        tags: vec![],
    };
    Scene {
        pieces,
        terrain: vec![block(10 * inch, 13 * inch), block(28 * inch, 13 * inch)],
        outline: vec![
            Point::new(0, 0),
            Point::new(44 * inch, 0),
            Point::new(44 * inch, 30 * inch),
            Point::new(0, 30 * inch),
        ],
    }
}

#[divan::bench]
fn table_formation_check(bencher: Bencher) {
    use gloam_core::{GroupId, Length, LengthUnit, PathLimits, Point, check_formation};
    let scene = table_scene();
    let limits = PathLimits::new(Length::inches(5), LengthUnit::Inch)
        .never_within(Length::inches(3))
        .impassable([0, 1]);
    bencher.bench(|| {
        black_box(check_formation(
            &scene,
            GroupId(1),
            Point::new(0, 5 * 254),
            &limits,
        ))
    });
}

#[divan::bench(args = [8, 16])]
fn table_formation_candidates(bencher: Bencher, directions: u8) {
    use gloam_core::{GroupId, Lattice, Length, LengthUnit, PathLimits, formation_candidates};
    let scene = table_scene();
    let limits = PathLimits::new(Length::inches(5), LengthUnit::Inch)
        .never_within(Length::inches(3))
        .impassable([0, 1]);
    let lattice = Lattice {
        directions,
        ..Lattice::default()
    };
    bencher.bench(|| black_box(formation_candidates(&scene, GroupId(1), &limits, &lattice)));
}
