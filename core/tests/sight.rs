//! Exact line of sight: rule cases, laws, and a cross-check against a slow reference.

use std::collections::BTreeSet;

use gloam_core::{Battlefield, Board, GameRng, Hex, Placement, Sight};
use proptest::prelude::*;

fn visible(sight: &Sight, from: Hex, to: Hex) -> bool {
    sight.visible(from, to).unwrap()
}

fn without(hexes: Vec<Hex>, missing: &[Hex]) -> Vec<Hex> {
    hexes.into_iter().filter(|h| !missing.contains(h)).collect()
}

// Shadespire, line of sight: "passes through or touches" a blocked hex. A line that
// runs exactly along the edge between two hexes touches both.
#[test]
fn line_along_hex_edge_is_blocked_by_either_side() {
    let (from, to) = (Hex::new(0, 0), Hex::new(1, -2));
    let battlefield = Hex::ORIGIN.range(3);
    assert!(visible(
        &Sight::new(battlefield.clone(), [], false),
        from,
        to
    ));
    for side in [Hex::new(0, -1), Hex::new(1, -1)] {
        let sight = Sight::new(battlefield.clone(), [side], false);
        assert!(!visible(&sight, from, to), "blocked by {side}");
        assert!(!visible(&sight, to, from), "blocked by {side}");
        assert_eq!(sight.blockers_on_line(from, to), vec![side]);
    }
    // The hexes beyond the edge's corners are not touched.
    for other in [
        Hex::new(1, 0),
        Hex::new(-1, -1),
        Hex::new(2, -2),
        Hex::new(0, -2),
    ] {
        assert!(
            visible(&Sight::new(battlefield.clone(), [other], false), from, to),
            "{other}"
        );
    }
}

// Shadespire, line of sight: touching a corner of a blocked hex blocks. On the lattice
// plane (0,0) -> (1,4) is (0,0) -> (6,12); it passes the corner (2,4) of hex (1,1),
// where (0,1), (1,1) and (0,2) meet, and never enters (1,1). It crosses the
// interiors of (0,1), (0,2), (1,2) and (0,3).
#[test]
fn line_through_corner_is_blocked_by_that_corner_hex() {
    let (from, to) = (Hex::new(0, 0), Hex::new(1, 4));
    let battlefield = Hex::ORIGIN.range(5);
    let sight = Sight::new(battlefield.clone(), [Hex::new(1, 1)], false);
    assert!(!visible(&sight, from, to));
    assert_eq!(sight.blockers_on_line(from, to), vec![Hex::new(1, 1)]);
    // The line also passes the corner (4,8) of hex (1,3), symmetrically.
    assert!(!visible(
        &Sight::new(battlefield.clone(), [Hex::new(1, 3)], false),
        from,
        to
    ));
    // Hexes beside the line, not reaching it, do not block.
    for beside in [
        Hex::new(-1, 2),
        Hex::new(1, 0),
        Hex::new(2, 2),
        Hex::new(-1, 3),
    ] {
        assert!(
            visible(&Sight::new(battlefield.clone(), [beside], false), from, to),
            "{beside}"
        );
    }
    // The hexes the line crosses are listed in order along the line.
    let crossed = [
        Hex::new(0, 3),
        Hex::new(0, 1),
        Hex::new(1, 1),
        Hex::new(0, 2),
    ];
    let sight = Sight::new(battlefield, crossed, false);
    assert_eq!(
        sight.blockers_on_line(from, to),
        vec![
            Hex::new(0, 1),
            Hex::new(1, 1),
            Hex::new(0, 2),
            Hex::new(0, 3)
        ]
    );
}

// Harrowdeep, line of sight: touching a corner of a missing hex does not leave the
// battlefield, because the corner belongs to battlefield hexes too.
#[test]
fn line_through_corner_of_missing_hex_stays_on_battlefield() {
    let battlefield = without(Hex::ORIGIN.range(5), &[Hex::new(1, 1)]);
    let sight = Sight::new(battlefield, [], true);
    assert!(visible(&sight, Hex::new(0, 0), Hex::new(1, 4)));
    assert!(
        sight
            .off_board_on_line(Hex::new(0, 0), Hex::new(1, 4))
            .is_empty()
    );
}

// Harrowdeep, line of sight: going off the edge of the battlefield blocks. A line
// across a notch of missing hexes leaves it; Shadespire has no such rule.
#[test]
fn line_across_notch_is_blocked_only_off_board_rule_on() {
    // Row r = 0 with (2, 0) missing, bridged by row r = -1.
    let mut battlefield = vec![
        Hex::new(0, 0),
        Hex::new(1, 0),
        Hex::new(3, 0),
        Hex::new(4, 0),
    ];
    battlefield.extend((1..5).map(|q| Hex::new(q, -1)));
    let (from, to) = (Hex::new(0, 0), Hex::new(4, 0));
    let shadespire = Sight::new(battlefield.clone(), [], false);
    let harrowdeep = Sight::new(battlefield, [], true);
    assert!(visible(&shadespire, from, to));
    assert!(!visible(&harrowdeep, from, to));
    assert_eq!(harrowdeep.off_board_on_line(from, to), vec![Hex::new(2, 0)]);
    // Around the notch, through the bridge, the line stays on.
    assert!(visible(&harrowdeep, Hex::new(1, -1), Hex::new(4, -1)));
}

// Harrowdeep, line of sight: the line may run along the edge of an incomplete hex (the
// battlefield's outer edge), but not along an edge with no battlefield on either side.
#[test]
fn line_along_outer_edge_is_not_blocked() {
    let (from, to) = (Hex::new(0, 0), Hex::new(1, -2));
    let one_side = without(Hex::ORIGIN.range(2), &[Hex::new(1, -1)]);
    assert!(visible(&Sight::new(one_side.clone(), [], true), from, to));
    let other_side = without(Hex::ORIGIN.range(2), &[Hex::new(0, -1)]);
    assert!(visible(&Sight::new(other_side, [], true), from, to));
    let neither = without(one_side, &[Hex::new(0, -1)]);
    assert!(!visible(&Sight::new(neither.clone(), [], true), from, to));
    assert!(visible(&Sight::new(neither.clone(), [], false), from, to));
    let sight = Sight::new(neither, [], true);
    assert_eq!(
        sight.off_board_on_line(from, to),
        vec![Hex::new(0, -1), Hex::new(1, -1)]
    );
}

// Harrowdeep, line of sight, on a real join: two long boards offset so only four hexes
// of the middle row are completed. A line crossing the middle row where no hex was
// completed leaves the battlefield.
#[test]
fn line_across_gap_between_offset_boards_leaves_battlefield() {
    let battlefield = Battlefield::join(&two_long_boards(3, &[]), 4).unwrap();
    let completed = battlefield.completed_hexes();
    assert_eq!(completed.len(), 4);
    let harrowdeep = Sight::from_battlefield(&battlefield, &["blocked"], true);
    let shadespire = Sight::from_battlefield(&battlefield, &["blocked"], false);
    // The north board's (0, 4) and the south board's (0, 6): the segment between them
    // crosses the centre of (0, 5), an unmatched half hex.
    let (from, to) = (Hex::new(0, 4), Hex::new(0, 6));
    assert!(battlefield.contains(from) && battlefield.contains(to));
    assert!(!battlefield.contains(Hex::new(0, 5)));
    assert!(visible(&shadespire, from, to));
    assert!(!visible(&harrowdeep, from, to));
    assert_eq!(harrowdeep.off_board_on_line(from, to), vec![Hex::new(0, 5)]);
    // Through a completed hex the line stays on the battlefield.
    let middle = completed[0];
    let (above, below) = (middle.add(Hex::new(0, -1)), middle.add(Hex::new(0, 1)));
    assert!(visible(&harrowdeep, above, below));
}

#[test]
fn from_battlefield_uses_the_named_blocking_types() {
    let battlefield = Battlefield::from_hexes(Hex::ORIGIN.range(2).into_iter().map(|hex| {
        let types = if hex == Hex::new(1, 0) {
            vec!["blocked"]
        } else {
            vec![]
        };
        (hex, types)
    }));
    let (from, to) = (Hex::new(0, 0), Hex::new(2, 0));
    assert!(!visible(
        &Sight::from_battlefield(&battlefield, &["blocked"], false),
        from,
        to
    ));
    assert!(visible(
        &Sight::from_battlefield(&battlefield, &["lethal"], false),
        from,
        to
    ));
}

#[test]
fn end_hexes_never_block_their_own_line() {
    let (from, to) = (Hex::new(0, 0), Hex::new(3, 0));
    let sight = Sight::new(Hex::ORIGIN.range(3), [from, to], true);
    assert!(visible(&sight, from, to));
    assert!(visible(&sight, from, from));
}

#[test]
fn hexagonal_battlefield_without_blockers_sees_everywhere() {
    let battlefield = Hex::new(1, -2).range(3);
    for off_board_blocks in [false, true] {
        let sight = Sight::new(battlefield.clone(), [], off_board_blocks);
        for &from in &battlefield {
            for &to in &battlefield {
                assert!(visible(&sight, from, to), "{from} -> {to}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Slow reference: exact rational points of the segment, tested against every hex.

/// The points where the segment can change hexes: where `x`, `x - y` or `x + y` is an
/// integer (every hex edge lies on such a line), plus one point strictly inside every
/// stretch between two of them. Each point is `A + (num / den) D`, as `(num, den)`.
fn sample_points(dx: i64, dy: i64) -> Vec<(i128, i128)> {
    let mut breaks: Vec<(i128, i128)> = vec![(0, 1), (1, 1)];
    for m in [dx.abs(), (dx - dy).abs(), (dx + dy).abs()] {
        for k in 0..=m {
            if m > 0 {
                breaks.push((i128::from(k), i128::from(m)));
            }
        }
    }
    breaks.sort_by(|a, b| (a.0 * b.1).cmp(&(b.0 * a.1)));
    breaks.dedup_by(|a, b| a.0 * b.1 == b.0 * a.1);
    let mut points = breaks.clone();
    for pair in breaks.windows(2) {
        let ((n1, d1), (n2, d2)) = (pair[0], pair[1]);
        points.push((n1 * d2 + n2 * d1, 2 * d1 * d2));
    }
    points
}

/// Whether the closed hex `hex` contains `A + (num / den) D`.
fn hex_contains(hex: Hex, a: (i64, i64), d: (i64, i64), (num, den): (i128, i128)) -> bool {
    let (cx, cy) = hex.lattice();
    let u = i128::from(a.0 - cx) * den + num * i128::from(d.0);
    let v = i128::from(a.1 - cy) * den + num * i128::from(d.1);
    u.abs() <= den && (u - v).abs() <= 2 * den && (u + v).abs() <= 2 * den
}

fn reference_visible(
    battlefield: &BTreeSet<Hex>,
    blocking: &BTreeSet<Hex>,
    off_board_blocks: bool,
    from: Hex,
    to: Hex,
) -> bool {
    if from == to {
        return true;
    }
    let a = from.lattice();
    let b = to.lattice();
    let d = (b.0 - a.0, b.1 - a.1);
    // Every hex whose closed hexagon could meet the segment, generously.
    let (r_low, r_high) = (from.r.min(to.r) - 1, from.r.max(to.r) + 1);
    let spread = r_high - r_low + 3;
    let (q_low, q_high) = (from.q.min(to.q) - spread, from.q.max(to.q) + spread);
    let nearby: Vec<Hex> = (r_low..=r_high)
        .flat_map(|r| (q_low..=q_high).map(move |q| Hex::new(q, r)))
        .collect();
    for point in sample_points(d.0, d.1) {
        let containing: Vec<Hex> = nearby
            .iter()
            .copied()
            .filter(|&hex| hex_contains(hex, a, d, point))
            .collect();
        assert!(!containing.is_empty(), "every point lies in some hex");
        if containing
            .iter()
            .any(|h| *h != from && *h != to && blocking.contains(h))
        {
            return false;
        }
        if off_board_blocks && !containing.iter().any(|h| battlefield.contains(h)) {
            return false;
        }
    }
    true
}

fn check_against_reference(
    battlefield: &[Hex],
    blocking: &[Hex],
    pairs: impl IntoIterator<Item = (Hex, Hex)>,
) {
    let pairs: Vec<(Hex, Hex)> = pairs.into_iter().collect();
    let set: BTreeSet<Hex> = battlefield.iter().copied().collect();
    let blocking_set: BTreeSet<Hex> = blocking.iter().copied().collect();
    for off_board_blocks in [false, true] {
        let sight = Sight::new(
            battlefield.iter().copied(),
            blocking.iter().copied(),
            off_board_blocks,
        );
        for &(from, to) in &pairs {
            let fast = visible(&sight, from, to);
            let slow = reference_visible(&set, &blocking_set, off_board_blocks, from, to);
            assert_eq!(
                fast, slow,
                "{from} -> {to}, off_board_blocks {off_board_blocks}, blocking {blocking:?}, battlefield {battlefield:?}"
            );
        }
    }
}

fn two_long_boards(shift: i32, blocked: &[(i32, i32)]) -> [(Board, Placement); 2] {
    let board = |name: &str| {
        let q_of = |row: i32, col: i32| col - row.div_euclid(2);
        let mut board = Board::new(name);
        for row in 0..5 {
            for col in 0..(8 - row % 2) {
                let types = if blocked.contains(&(row, col)) {
                    vec!["blocked"]
                } else {
                    vec![]
                };
                board = board.with_hex(Hex::new(q_of(row, col), row), types);
            }
        }
        for row in [-1, 5] {
            for col in 0..7 {
                board = board.with_half_hex(Hex::new(q_of(row, col), row), Vec::<&str>::new());
            }
        }
        board
    };
    [
        (board("north"), Placement::IDENTITY),
        (board("south"), Placement::new(3, Hex::new(2 + shift, 10))),
    ]
}

#[test]
fn two_board_battlefield_agrees_with_reference() {
    let boards = two_long_boards(2, &[(2, 3), (1, 5), (3, 1)]);
    let battlefield = Battlefield::join(&boards, 4).unwrap();
    let hexes: Vec<Hex> = battlefield.hexes().collect();
    let blocking = battlefield.hexes_of_type("blocked");
    assert_eq!(blocking.len(), 6);
    let mut rng = GameRng::from_seed(7);
    let n = hexes.len() as u32;
    let pairs: Vec<(Hex, Hex)> = (0..600)
        .map(|_| (hexes[rng.below(n) as usize], hexes[rng.below(n) as usize]))
        .collect();
    check_against_reference(&hexes, &blocking, pairs);
}

// ---------------------------------------------------------------------------------------
// Laws on random small battlefields.

/// A random battlefield: a random part of the radius-3 hexagon (at least two hexes),
/// random blocking hexes, and two battlefield hexes.
fn scene() -> impl Strategy<Value = (Vec<Hex>, Vec<Hex>, Hex, Hex)> {
    let universe = Hex::ORIGIN.range(3);
    let n = universe.len();
    (
        prop::collection::vec(prop::bool::weighted(0.8), n),
        prop::collection::vec(prop::bool::weighted(0.15), n),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
    )
        .prop_filter_map("battlefield too small", move |(keep, block, i, j)| {
            let battlefield: Vec<Hex> = universe
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(h, _)| *h)
                .collect();
            let blocking: Vec<Hex> = universe
                .iter()
                .zip(&block)
                .filter(|(_, b)| **b)
                .map(|(h, _)| *h)
                .collect();
            if battlefield.len() < 2 {
                return None;
            }
            let from = *i.get(&battlefield);
            let to = *j.get(&battlefield);
            Some((battlefield, blocking, from, to))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn visible_is_symmetric((battlefield, blocking, from, to) in scene(), off_board_blocks: bool) {
        let sight = Sight::new(battlefield, blocking, off_board_blocks);
        prop_assert_eq!(sight.visible(from, to), sight.visible(to, from));
        // The same blockers both ways (hexes level along the line may swap places).
        let there: BTreeSet<Hex> = sight.blockers_on_line(from, to).into_iter().collect();
        let back: BTreeSet<Hex> = sight.blockers_on_line(to, from).into_iter().collect();
        prop_assert_eq!(there, back);
    }

    #[test]
    fn adjacent_hexes_always_see_each_other(
        (_, blocking, from, _) in scene(),
        direction in 0usize..6,
        off_board_blocks: bool,
    ) {
        let to = from.neighbors()[direction];
        // Only the two hexes are on the battlefield; everything else blocks.
        let mut blocking = blocking;
        blocking.extend(from.range(2));
        let sight = Sight::new([from, to], blocking, off_board_blocks);
        prop_assert_eq!(sight.visible(from, to), Ok(true));
    }

    #[test]
    fn visible_agrees_with_reference((battlefield, blocking, from, to) in scene()) {
        check_against_reference(&battlefield, &blocking, [(from, to), (to, from)]);
    }

    #[test]
    fn visible_is_invariant_under_rotation(
        (battlefield, blocking, from, to) in scene(),
        turn in 1u32..6,
        off_board_blocks: bool,
    ) {
        let rotate = |hexes: &[Hex]| hexes.iter().map(|h| h.rotate_cw(turn)).collect::<Vec<_>>();
        let sight = Sight::new(battlefield.clone(), blocking.clone(), off_board_blocks);
        let turned = Sight::new(rotate(&battlefield), rotate(&blocking), off_board_blocks);
        prop_assert_eq!(
            sight.visible(from, to),
            turned.visible(from.rotate_cw(turn), to.rotate_cw(turn))
        );
    }
}

#[test]
fn small_battlefields_agree_with_reference_on_every_pair() {
    let mut rng = GameRng::from_seed(2024);
    let universe = Hex::ORIGIN.range(2);
    for _ in 0..12 {
        let battlefield: Vec<Hex> = universe
            .iter()
            .copied()
            .filter(|_| rng.below(5) != 0)
            .collect();
        let blocking: Vec<Hex> = universe
            .iter()
            .copied()
            .filter(|_| rng.below(6) == 0)
            .collect();
        let pairs: Vec<(Hex, Hex)> = battlefield
            .iter()
            .flat_map(|&a| battlefield.iter().map(move |&b| (a, b)))
            .collect();
        check_against_reference(&battlefield, &blocking, pairs);
    }
}
