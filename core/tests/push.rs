//! Pushes, drive back, knockback and trapped: scenarios from the Underworlds digest and
//! property tests against brute-force enumeration on small random battlefields.

use std::collections::BTreeSet;

use gloam_core::{
    Direction, Grid, Hex, PushConstraint, PushDistance, PushError, PushPath, SimpleGrid,
    drive_back_hexes, is_trapped, knockback_hexes, push_destinations, push_paths, validate_push,
};
use proptest::prelude::*;

fn h(q: i32, r: i32) -> Hex {
    Hex::new(q, r)
}

/// Far more than any push of at most 3 hexes can have (6 * 6 * 6).
const LIMIT: usize = 1000;

/// A random battlefield of radius 3: some hexes missing, blocked or occupied; the pushed
/// piece stands (occupying) on a hex of it.
#[derive(Clone, Debug)]
struct Board {
    grid: SimpleGrid,
    piece: Hex,
}

fn board() -> impl Strategy<Value = Board> {
    let n = Hex::ORIGIN.range(3).len();
    (prop::collection::vec(0u8..10, n), 0..n).prop_map(|(kinds, piece)| {
        let hexes = Hex::ORIGIN.range(3);
        let piece = hexes[piece];
        let mut grid = SimpleGrid::new(
            hexes
                .iter()
                .zip(&kinds)
                .filter(|(hex, kind)| **kind != 0 || **hex == piece)
                .map(|(hex, _)| *hex),
        );
        for (hex, kind) in hexes.iter().zip(&kinds) {
            grid.set_blocked(*hex, *kind == 1 && *hex != piece);
            grid.set_occupied(*hex, *kind == 2 || *hex == piece);
        }
        Board { grid, piece }
    })
}

fn source() -> impl Strategy<Value = Hex> {
    (-4i32..=4, -4i32..=4).prop_map(|(q, r)| h(q, r))
}

fn distance() -> impl Strategy<Value = PushDistance> {
    prop_oneof![
        (0u32..=3).prop_map(PushDistance::Exactly),
        (0u32..=3).prop_map(PushDistance::UpTo),
    ]
}

fn constraints() -> impl Strategy<Value = Vec<PushConstraint>> {
    let one = prop_oneof![
        source().prop_map(PushConstraint::Away),
        source().prop_map(PushConstraint::Closer),
        (0usize..6).prop_map(|index| PushConstraint::SameDirection(Direction::ALL[index])),
        Just(PushConstraint::Straight),
    ];
    prop::collection::vec(one, 0..3)
}

fn directions(path: &PushPath) -> Vec<Direction> {
    path.hexes()
        .windows(2)
        .filter_map(|pair| Direction::from_offset(pair[1].sub(pair[0])))
        .collect()
}

/// Every sequence of 1 to 3 directions from `start`, as hex paths.
fn every_walk(start: Hex) -> Vec<Vec<Hex>> {
    let mut walks = vec![vec![start]];
    let mut out = Vec::new();
    for _ in 0..3 {
        let mut longer = Vec::new();
        for walk in &walks {
            for direction in Direction::ALL {
                let mut next = walk.clone();
                next.push(walk[walk.len() - 1].neighbor(direction));
                longer.push(next);
            }
        }
        out.extend(longer.iter().cloned());
        walks = longer;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn push_away_random_grid_strictly_increases_distance(
        board in board(),
        from in source(),
        distance in distance(),
    ) {
        // Harrowdeep 3.7: each hex entered must be farther than the hex just left.
        let away = [PushConstraint::Away(from)];
        let paths = push_paths(&board.grid, board.piece, distance, &away, LIMIT)?;
        for path in &paths {
            for pair in path.hexes().windows(2) {
                prop_assert!(from.distance_to(pair[1]) > from.distance_to(pair[0]));
            }
            prop_assert!(from.distance_to(path.destination()) > from.distance_to(board.piece));
        }
    }

    #[test]
    fn push_closer_random_grid_strictly_decreases_distance(
        board in board(),
        to in source(),
        distance in distance(),
    ) {
        // Embergard 4.6: "closer to" means every hex entered is closer.
        let closer = [PushConstraint::Closer(to)];
        let paths = push_paths(&board.grid, board.piece, distance, &closer, LIMIT)?;
        for path in &paths {
            for pair in path.hexes().windows(2) {
                prop_assert!(to.distance_to(pair[1]) < to.distance_to(pair[0]));
            }
        }
    }

    #[test]
    fn push_random_grid_never_enters_occupied_blocked_or_off_battlefield(
        board in board(),
        distance in distance(),
        constraints in constraints(),
    ) {
        // Shadespire 2.6: never into or through blocked or occupied hexes.
        let paths = push_paths(&board.grid, board.piece, distance, &constraints, LIMIT)?;
        for path in &paths {
            prop_assert_eq!(path.start(), board.piece);
            prop_assert_ne!(path.destination(), board.piece);
            prop_assert!(distance.allows(path.steps()));
            for hex in path.entered() {
                prop_assert!(*hex == board.piece || board.grid.is_empty_hex(*hex));
            }
        }
    }

    #[test]
    fn push_paths_random_grid_match_brute_force_validation(
        board in board(),
        distance in distance(),
        constraints in constraints(),
    ) {
        // Every walk of up to 3 steps is a listed push exactly when the checker accepts it.
        let paths = push_paths(&board.grid, board.piece, distance, &constraints, LIMIT)?;
        let listed: BTreeSet<Vec<Hex>> = paths.iter().map(|path| path.hexes().to_vec()).collect();
        prop_assert_eq!(listed.len(), paths.len());
        for walk in every_walk(board.piece) {
            let legal = validate_push(&board.grid, &walk, distance, &constraints).is_ok();
            prop_assert_eq!(legal, listed.contains(&walk), "walk {:?}", walk);
        }
        // Listed in direction order.
        let orders: Vec<Vec<Direction>> = paths.iter().map(directions).collect();
        let mut sorted = orders.clone();
        sorted.sort();
        prop_assert_eq!(orders, sorted);
    }

    #[test]
    fn push_destinations_random_grid_keep_shortest_first_path(
        board in board(),
        distance in distance(),
        constraints in constraints(),
    ) {
        let kept = push_destinations(&board.grid, board.piece, distance, &constraints)?;
        let paths = push_paths(&board.grid, board.piece, distance, &constraints, LIMIT)?;
        let ends: BTreeSet<Hex> = paths.iter().map(PushPath::destination).collect();
        let kept_ends: Vec<Hex> = kept.iter().map(PushPath::destination).collect();
        prop_assert_eq!(kept_ends, ends.into_iter().collect::<Vec<_>>());
        for push in &kept {
            let best = paths
                .iter()
                .filter(|path| path.destination() == push.destination())
                .min_by_key(|path| (path.steps(), directions(path)));
            prop_assert_eq!(Some(push), best);
        }
    }

    #[test]
    fn drive_back_random_grid_is_one_hex_push_away(board in board(), attacker in source()) {
        // Harrowdeep 3.7 and H4: driven back = a push of 1 hex away; trapped = none exists.
        let hexes = drive_back_hexes(&board.grid, board.piece, attacker);
        let pushes = push_destinations(
            &board.grid,
            board.piece,
            PushDistance::Exactly(1),
            &[PushConstraint::Away(attacker)],
        )?;
        let as_set: BTreeSet<Hex> = hexes.iter().copied().collect();
        let pushed: BTreeSet<Hex> = pushes.iter().map(PushPath::destination).collect();
        prop_assert_eq!(&as_set, &pushed);
        prop_assert_eq!(is_trapped(&board.grid, board.piece, attacker), hexes.is_empty());
        // In direction order.
        let order: Vec<Hex> = board
            .piece
            .neighbors()
            .into_iter()
            .filter(|hex| as_set.contains(hex))
            .collect();
        prop_assert_eq!(hexes, order);
    }

    #[test]
    fn knockback_random_grid_follows_direction_away_from_attacker(
        board in board(),
        attacker in source(),
        extra in 0u32..4,
    ) {
        // Shadespire 2.6 / Harrowdeep 3.7: knockback continues in the drive back's direction
        // and stops when it cannot continue.
        let mut ends = BTreeSet::new();
        for first in drive_back_hexes(&board.grid, board.piece, attacker) {
            ends.insert(first);
            let Some(direction) = Direction::from_offset(first.sub(board.piece)) else {
                prop_assert!(false, "drive back to a non-adjacent hex");
                continue;
            };
            let hexes = knockback_hexes(&board.grid, first, direction, extra);
            prop_assert!(hexes.len() <= extra as usize);
            let mut previous = first;
            for hex in &hexes {
                prop_assert_eq!(*hex, previous.neighbor(direction));
                prop_assert!(board.grid.is_empty_hex(*hex));
                prop_assert!(attacker.distance_to(*hex) > attacker.distance_to(previous));
                previous = *hex;
            }
            if hexes.len() < extra as usize {
                prop_assert!(!board.grid.is_empty_hex(previous.neighbor(direction)));
            }
            ends.extend(hexes);
        }
        // The same pushes as "up to 1 + X, away and straight".
        let pushes = push_destinations(
            &board.grid,
            board.piece,
            PushDistance::UpTo(1 + extra),
            &[PushConstraint::Away(attacker), PushConstraint::Straight],
        )?;
        let pushed: BTreeSet<Hex> = pushes.iter().map(PushPath::destination).collect();
        prop_assert_eq!(ends, pushed);
    }
}

#[test]
fn is_trapped_surrounded_by_blocked_occupied_and_edge_is_true() {
    // Harrowdeep H4: blocked, occupied and off-battlefield hexes farther from the attacker do
    // not save the defender.
    let attacker = h(-1, 0);
    let defender = Hex::ORIGIN;
    let mut hexes = Hex::ORIGIN.range(2);
    hexes.retain(|hex| *hex != h(1, -1));
    let grid = SimpleGrid::new(hexes)
        .with_blocked([h(1, 0)])
        .with_occupied([h(0, 1), attacker, defender]);
    assert!(is_trapped(&grid, defender, attacker));
    // Sideways hexes are as far from the attacker, not farther: still trapped.
    assert!(grid.is_empty_hex(h(0, -1)) && grid.is_empty_hex(h(-1, 1)));
}

#[test]
fn is_trapped_with_one_empty_hex_behind_is_false() {
    // Harrowdeep H4: a lethal hex is empty, so it prevents trapping (the grid knows no lethal).
    let attacker = h(-1, 0);
    let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2)
        .with_blocked([h(1, 0)])
        .with_occupied([h(0, 1), attacker, Hex::ORIGIN]);
    assert!(!is_trapped(&grid, Hex::ORIGIN, attacker));
    assert_eq!(
        drive_back_hexes(&grid, Hex::ORIGIN, attacker),
        vec![h(1, -1)]
    );
}

#[test]
fn knockback_stops_before_occupied_hex() {
    // Harrowdeep 3.7: knockback stops if it cannot continue.
    let grid = SimpleGrid::hexagon(Hex::ORIGIN, 4).with_occupied([h(0, 3)]);
    let hexes = knockback_hexes(&grid, h(0, 1), Direction::SouthEast, 3);
    assert_eq!(hexes, vec![h(0, 2)]);
    assert_eq!(
        knockback_hexes(&grid, h(0, 1), Direction::SouthEast, 0),
        vec![]
    );
}

#[test]
fn knockback_stops_at_battlefield_edge() {
    let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2);
    let hexes = knockback_hexes(&grid, Hex::ORIGIN, Direction::West, 5);
    assert_eq!(hexes, vec![h(-1, 0), h(-2, 0)]);
}

#[test]
fn push_destinations_grapple_is_one_hex_any_direction() {
    // Embergard 4.8: Grapple pushes the target 1 hex in any direction instead of driving back.
    let attacker = h(-1, 0);
    let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2).with_occupied([attacker, Hex::ORIGIN]);
    let pushes =
        push_destinations(&grid, Hex::ORIGIN, PushDistance::Exactly(1), &[]).unwrap_or_default();
    assert_eq!(pushes.len(), 5);
    assert!(pushes.iter().all(|push| push.destination() != attacker));
}

#[test]
fn push_destinations_knockback_two_follows_first_step() {
    // Shadespire 2.6: after the first driven-back hex, up to X more in the same direction.
    let attacker = h(-1, 0);
    let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3);
    let pushes = push_destinations(
        &grid,
        Hex::ORIGIN,
        PushDistance::UpTo(3),
        &[PushConstraint::Away(attacker), PushConstraint::Straight],
    )
    .unwrap_or_default();
    for push in &pushes {
        let steps: BTreeSet<Direction> = push
            .hexes()
            .windows(2)
            .filter_map(|pair| Direction::from_offset(pair[1].sub(pair[0])))
            .collect();
        assert_eq!(steps.len(), 1);
    }
    // Three directions lead away from the attacker, each for up to three hexes.
    assert_eq!(pushes.len(), 9);
    let east = pushes.iter().find(|push| push.destination() == h(3, 0));
    assert_eq!(east.map(PushPath::steps), Some(3));
    assert_eq!(
        east.and_then(PushPath::last_direction),
        Some(Direction::East)
    );
}

#[test]
fn push_paths_limit_is_an_error_not_a_truncation() {
    let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3);
    assert_eq!(
        push_paths(&grid, Hex::ORIGIN, PushDistance::Exactly(3), &[], 5),
        Err(PushError::TooManyPaths { limit: 5 })
    );
    assert_eq!(
        push_paths(&grid, Hex::ORIGIN, PushDistance::Exactly(65), &[], 5),
        Err(PushError::TooFar {
            distance: 65,
            max: 64
        })
    );
}

#[test]
fn push_paths_long_push_on_tight_board_stays_fast() {
    // Dead ends are remembered: an away push on a strip ends after a few hexes even when the
    // distance allows 64.
    let grid = SimpleGrid::new((0..5).flat_map(|q| [h(q, 0), h(q, 1)]));
    let paths = push_paths(
        &grid,
        h(0, 0),
        PushDistance::UpTo(64),
        &[PushConstraint::Away(h(-1, 0))],
        LIMIT,
    );
    assert!(paths.is_ok_and(|paths| paths.iter().all(|path| path.steps() <= 5)));
    let exact = push_paths(
        &grid,
        h(0, 0),
        PushDistance::Exactly(64),
        &[PushConstraint::Away(h(-1, 0))],
        LIMIT,
    );
    assert_eq!(exact, Ok(Vec::new()));
}

#[test]
fn push_error_messages_are_lowercase_without_period() {
    let error = PushError::WrongLength {
        steps: 3,
        expected: PushDistance::UpTo(2),
    };
    assert_eq!(
        error.to_string(),
        "push moves 3 hexes, expected up to 2 hexes"
    );
    let error = PushError::Constraint {
        step: 1,
        from: Hex::ORIGIN,
        to: h(0, -1),
        constraint: PushConstraint::SameDirection(Direction::SouthEast),
    };
    assert_eq!(
        error.to_string(),
        "step 1 from (0, 0) to (0, -1) is not towards the south-east"
    );
}
