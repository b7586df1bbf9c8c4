//! Joining boards into a battlefield, and battlefield queries.

use gloam_core::{Battlefield, Board, BoardHex, Hex, HexSource, JoinError, Placement};
use proptest::prelude::*;

const NO_TYPES: [&str; 0] = [];

/// A Shadespire-sized board in its own coordinates: rows of 8, 7, 8, 7, 8 full hexes
/// (odd rows shifted half a hex right), half hexes in the notches of both long edges
/// (rows -1 and 5, 7 each) and at both ends of the short rows.
fn long_board(name: &str) -> Board {
    let q_of = |row: i32, col: i32| col - row.div_euclid(2);
    let mut board = Board::new(name).with_territory(name);
    for row in 0..5 {
        let n_cols = if row % 2 == 0 { 8 } else { 7 };
        for col in 0..n_cols {
            let types: Vec<&str> = if (row, col) == (2, 3) {
                vec!["blocked"]
            } else {
                vec![]
            };
            board = board.with_hex(Hex::new(q_of(row, col), row), types);
        }
    }
    for row in [-1, 5] {
        for col in 0..7 {
            board = board.with_half_hex(Hex::new(q_of(row, col), row), NO_TYPES);
        }
    }
    for row in [1, 3] {
        for col in [-1, 7] {
            board = board.with_half_hex(Hex::new(q_of(row, col), row), NO_TYPES);
        }
    }
    board
}

/// Two long boards edge to edge, the second shifted `shift` hexes east of the
/// position where all seven half hexes meet.
fn two_boards(shift: i32) -> [(Board, Placement); 2] {
    [
        (long_board("north"), Placement::IDENTITY),
        (
            long_board("south"),
            Placement::new(0, Hex::new(-3 + shift, 6)),
        ),
    ]
}

#[test]
fn join_two_boards_completing_four_hexes_is_accepted() {
    let battlefield = Battlefield::join(&two_boards(3), 4).unwrap();
    assert_eq!(battlefield.completed_hexes().len(), 4);
    assert_eq!(battlefield.len(), 38 + 38 + 4);
    for hex in battlefield.completed_hexes() {
        assert_eq!(hex.r, 5);
        assert_eq!(
            battlefield.board_of(hex),
            Some(HexSource::Completed { boards: [0, 1] })
        );
        assert_eq!(battlefield.territory(hex), None);
    }
    assert_eq!(battlefield.hexes_of_type("blocked").len(), 2);
    assert_eq!(battlefield.territory(Hex::ORIGIN), Some("north"));
}

#[test]
fn join_aligned_boards_complete_the_whole_row() {
    let battlefield = Battlefield::join(&two_boards(0), 4).unwrap();
    assert_eq!(battlefield.completed_hexes().len(), 7);
}

#[test]
fn join_completing_two_hexes_where_three_are_needed_is_rejected() {
    let error = Battlefield::join(&two_boards(5), 3).unwrap_err();
    assert_eq!(
        error,
        JoinError::TooFewCompleted {
            first: "north".into(),
            second: "south".into(),
            completed: 2,
            required: 3,
        }
    );
    assert_eq!(
        error.to_string(),
        "boards `north` and `south` complete 2 hexes where at least 3 are needed"
    );
}

#[test]
fn join_overlapping_boards_names_the_hex() {
    let boards = [
        (long_board("north"), Placement::IDENTITY),
        (long_board("south"), Placement::new(0, Hex::new(0, 4))),
    ];
    let error = Battlefield::join(&boards, 3).unwrap_err();
    assert_eq!(
        error.to_string(),
        "boards `north` and `south` overlap at hex (0, 4)"
    );
}

#[test]
fn join_disconnected_boards_is_rejected() {
    let boards = [
        (long_board("north"), Placement::IDENTITY),
        (long_board("south"), Placement::new(0, Hex::new(0, 20))),
    ];
    let error = Battlefield::join(&boards, 0).unwrap_err();
    assert_eq!(
        error,
        JoinError::Disconnected {
            board: "south".into()
        }
    );
}

#[test]
fn join_boards_touching_without_half_hexes_need_completed_hexes() {
    // Two full hexes side by side: connected, but nothing is completed.
    let boards = [
        (
            Board::new("a").with_hex(Hex::ORIGIN, NO_TYPES),
            Placement::IDENTITY,
        ),
        (
            Board::new("b").with_hex(Hex::ORIGIN, NO_TYPES),
            Placement::new(0, Hex::new(1, 0)),
        ),
    ];
    assert!(Battlefield::join(&boards, 0).is_ok());
    assert!(matches!(
        Battlefield::join(&boards, 1),
        Err(JoinError::TooFewCompleted { completed: 0, .. })
    ));
}

#[test]
fn join_single_board_needs_no_completed_hexes() {
    let battlefield = Battlefield::join(&[(long_board("solo"), Placement::IDENTITY)], 4).unwrap();
    assert_eq!(battlefield.len(), 38);
    assert!(battlefield.completed_hexes().is_empty());
}

#[test]
fn join_second_board_turned_half_way_completes_the_row() {
    // Rotated 180°, the second board's row-5 half hexes face the first board's.
    let boards = [
        (long_board("north"), Placement::IDENTITY),
        (long_board("south"), Placement::new(3, Hex::new(2, 10))),
    ];
    let battlefield = Battlefield::join(&boards, 4).unwrap();
    assert_eq!(battlefield.completed_hexes().len(), 7);
    assert_eq!(battlefield.len(), 83);
}

#[test]
fn edge_hexes_of_hexagon_board_are_its_outer_ring() {
    let board = Hex::ORIGIN
        .range(2)
        .into_iter()
        .fold(Board::new("hexagon"), |board, hex| {
            board.with_hex(hex, NO_TYPES)
        });
    let battlefield = Battlefield::join(&[(board, Placement::IDENTITY)], 3).unwrap();
    let mut ring = Hex::ORIGIN.ring(2);
    ring.sort();
    assert_eq!(battlefield.edge_hexes(), ring);
    assert!(!battlefield.is_edge(Hex::ORIGIN));
    assert!(!battlefield.is_edge(Hex::new(5, 0)));
}

#[test]
fn edge_hexes_of_two_boards_ignore_unmatched_half_hexes() {
    let battlefield = Battlefield::join(&two_boards(3), 4).unwrap();
    // A hex is an edge hex exactly when one of its six neighbours is missing; an
    // unmatched half hex counts as missing.
    for hex in battlefield.hexes() {
        let n_neighbours = hex
            .neighbors()
            .iter()
            .filter(|&&n| battlefield.contains(n))
            .count();
        assert_eq!(battlefield.is_edge(hex), n_neighbours < 6, "{hex}");
    }
    assert!(battlefield.is_edge(Hex::new(-2, 4)));
}

#[test]
fn placement_rotation_round_trips() {
    for hex in Hex::new(2, -1).range(3) {
        for rotation in 0..6 {
            let there = Placement::new(rotation, Hex::ORIGIN).apply(hex).unwrap();
            let back = Placement::new(6 - rotation, Hex::ORIGIN)
                .apply(there)
                .unwrap();
            assert_eq!(back, hex);
        }
        assert_eq!(Placement::new(6, Hex::ORIGIN).apply(hex), Some(hex));
    }
}

#[test]
fn board_serde_round_trips() {
    let mut board = long_board("north");
    board
        .hexes
        .push(BoardHex::new(Hex::new(9, 9), ["cover", "lethal"]).with_territory("neutral"));
    let text = serde_json::to_string(&board).unwrap();
    let back: Board = serde_json::from_str(&text).unwrap();
    assert_eq!(back, board);
    let minimal: Board =
        serde_json::from_str(r#"{"name": "x", "hexes": [{"hex": {"q": 1, "r": 2}}]}"#).unwrap();
    assert_eq!(minimal, Board::new("x").with_hex(Hex::new(1, 2), NO_TYPES));
}

proptest! {
    #[test]
    fn join_rotated_as_a_whole_gives_rotated_battlefield(turn in 0u32..6, shift in 0i32..4) {
        let boards = two_boards(shift);
        let turned: Vec<(Board, Placement)> = boards
            .iter()
            .map(|(board, placement)| {
                let placement = Placement::new(placement.rotation + turn, placement.offset.rotate_cw(turn));
                (board.clone(), placement)
            })
            .collect();
        let original = Battlefield::join(&boards, 4).unwrap();
        let rotated = Battlefield::join(&turned, 4).unwrap();
        prop_assert_eq!(original.len(), rotated.len());
        prop_assert_eq!(original.completed_hexes().len(), rotated.completed_hexes().len());
        for hex in original.hexes() {
            let image = hex.rotate_cw(turn);
            prop_assert_eq!(original.types(hex), rotated.types(image));
            prop_assert_eq!(original.board_of(hex), rotated.board_of(image));
            prop_assert_eq!(original.is_edge(hex), rotated.is_edge(image));
        }
    }

    /// An edge hex is a battlefield hex with fewer than six battlefield neighbours (found
    /// once, when the battlefield is made): checked against the definition on random
    /// shapes, at hexes on and off them.
    #[test]
    fn an_edge_hex_has_fewer_than_six_battlefield_neighbours(
        hexes in proptest::collection::btree_set((-4i32..=4, -4i32..=4), 0..40),
    ) {
        let battlefield =
            Battlefield::from_hexes(hexes.iter().map(|&(q, r)| (Hex::new(q, r), NO_TYPES)));
        for hex in Hex::ORIGIN.range(6) {
            let neighbours = hex.neighbors().into_iter().filter(|&n| battlefield.contains(n)).count();
            prop_assert_eq!(
                battlefield.is_edge(hex),
                battlefield.contains(hex) && neighbours < 6,
                "{}", hex
            );
        }
    }

    #[test]
    fn join_with_shift_completes_seven_minus_shift(shift in -6i32..=6) {
        let expected = 7 - shift.unsigned_abs();
        match Battlefield::join(&two_boards(shift), 0) {
            Ok(battlefield) => prop_assert_eq!(battlefield.completed_hexes().len() as u32, expected),
            Err(error) => prop_assert!(false, "{error}"),
        }
    }
}
