//! Moves across a hex battlefield: scenarios from the Underworlds digest and property tests
//! against a brute-force search on small random battlefields.

use std::collections::BTreeMap;

use gloam_core::{
    Grid, Hex, MoveError, Passage, Reach, SimpleGrid, StepError, can_reach, path_avoiding,
    path_is_legal, reachable, reachable_avoiding, reachable_flying,
};
use proptest::prelude::*;

fn h(q: i32, r: i32) -> Hex {
    Hex::new(q, r)
}

/// A random battlefield of radius 3 around the origin: some hexes missing (incomplete),
/// blocked or occupied, entry costs 0..=3, some hexes avoided; the mover's start is on the
/// battlefield, not blocked, and occupied by the mover itself.
#[derive(Clone, Debug)]
struct Board {
    grid: SimpleGrid,
    start: Hex,
    avoided: Vec<Hex>,
}

fn board(max_cost: u32) -> impl Strategy<Value = Board> {
    let n = Hex::ORIGIN.range(3).len();
    (
        prop::collection::vec(0u8..10, n),
        prop::collection::vec(0u32..=max_cost, n),
        prop::collection::vec(prop::bool::weighted(0.1), n),
        0..n,
    )
        .prop_map(|(kinds, costs, avoided, start)| {
            let hexes = Hex::ORIGIN.range(3);
            let start = hexes[start];
            let mut grid = SimpleGrid::new(
                hexes
                    .iter()
                    .zip(&kinds)
                    .filter(|(hex, kind)| **kind != 0 || **hex == start)
                    .map(|(hex, _)| *hex),
            );
            for ((hex, kind), cost) in hexes.iter().zip(&kinds).zip(&costs) {
                grid.set_cost(*hex, *cost);
                if *hex == start {
                    continue;
                }
                grid.set_blocked(*hex, *kind == 1);
                grid.set_occupied(*hex, *kind == 2);
            }
            grid.set_occupied(start, true);
            let avoided = hexes
                .iter()
                .zip(&avoided)
                .filter(|(hex, avoid)| **avoid && **hex != start)
                .map(|(hex, _)| *hex)
                .collect();
            Board {
                grid,
                start,
                avoided,
            }
        })
}

fn passage() -> impl Strategy<Value = Passage> {
    prop_oneof![
        Just(Passage::WALKING),
        Just(Passage::FLYING),
        Just(Passage::THROUGH_OCCUPIED),
    ]
}

fn passable(board: &Board, passage: Passage, hex: Hex) -> bool {
    let grid = &board.grid;
    hex == board.start
        || (grid.contains(hex)
            && !board.avoided.contains(&hex)
            && (passage.through_blocked || !grid.blocks_movement(hex))
            && (passage.through_occupied || !grid.is_occupied(hex)))
}

/// Least cost to every hex the passage can cross, by relaxing until nothing changes.
fn brute_costs(board: &Board, passage: Passage) -> BTreeMap<Hex, u32> {
    let mut costs = BTreeMap::from([(board.start, 0)]);
    loop {
        let mut changed = false;
        for (hex, cost) in costs.clone() {
            for next in hex.neighbors() {
                if !passable(board, passage, next) {
                    continue;
                }
                let next_cost = cost + board.grid.entry_cost(next).max(1);
                if costs.get(&next).is_none_or(|&known| next_cost < known) {
                    costs.insert(next, next_cost);
                    changed = true;
                }
            }
        }
        if !changed {
            return costs;
        }
    }
}

fn search(board: &Board, budget: u32, passage: Passage) -> Reach {
    reachable_avoiding(&board.grid, board.start, budget, passage, |hex| {
        board.avoided.contains(&hex)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn reachable_random_grid_matches_brute_force(
        board in board(3),
        budget in 0u32..8,
        passage in passage(),
    ) {
        let reach = search(&board, budget, passage);
        let costs = brute_costs(&board, passage);
        let expected: Vec<Hex> = costs
            .iter()
            .filter(|(hex, cost)| {
                **hex != board.start && **cost <= budget && board.grid.is_empty_hex(**hex)
            })
            .map(|(hex, _)| *hex)
            .collect();
        prop_assert_eq!(reach.hexes(), expected.clone());
        prop_assert_eq!(reach.len(), expected.len());
        for hex in expected {
            prop_assert_eq!(reach.cost(hex), costs.get(&hex).copied());
        }
    }

    #[test]
    fn can_reach_random_grid_is_whether_any_hex_is_reachable(
        board in board(3),
        budget in 0u32..8,
        passage in passage(),
    ) {
        let reach = search(&board, budget, passage);
        let can = can_reach(&board.grid, board.start, budget, passage, |hex| {
            board.avoided.contains(&hex)
        });
        prop_assert_eq!(can, !reach.hexes().is_empty());
    }

    #[test]
    fn path_avoiding_random_grid_is_the_full_search_path(
        board in board(3),
        budget in 0u32..8,
        passage in passage(),
    ) {
        // Stopped at its target, the search gives the full search's path, tie-breaks and
        // all, and none where the full search has none (every hex of the grid and beyond).
        let reach = search(&board, budget, passage);
        for to in board.start.range(4) {
            let path = path_avoiding(&board.grid, board.start, to, budget, passage, |hex| {
                board.avoided.contains(&hex)
            });
            prop_assert_eq!(path, reach.path_to(to), "to {}", to);
        }
    }

    #[test]
    fn reachable_paths_random_grid_are_legal_and_cost_consistent(
        board in board(3),
        budget in 0u32..8,
        passage in passage(),
    ) {
        let reach = search(&board, budget, passage);
        for hex in reach.hexes() {
            let path = reach.path_to(hex).unwrap_or_default();
            prop_assert_eq!(path.first(), Some(&board.start));
            prop_assert_eq!(path.last(), Some(&hex));
            prop_assert!(path.iter().all(|step| !board.avoided.contains(step)));
            let cost: u32 = path[1..].iter().map(|step| board.grid.entry_cost(*step).max(1)).sum();
            prop_assert_eq!(reach.cost(hex), Some(cost));
            prop_assert_eq!(path_is_legal(&board.grid, &path, budget, passage), Ok(cost));
        }
    }

    #[test]
    fn reachable_paths_random_grid_keep_smallest_previous_hex(
        board in board(3),
        budget in 0u32..8,
        passage in passage(),
    ) {
        // The documented tie-break: the hex before each hex is the smallest neighbour from
        // which a cheapest path continues.
        let reach = search(&board, budget, passage);
        let costs = brute_costs(&board, passage);
        for hex in reach.hexes() {
            let path = reach.path_to(hex).unwrap_or_default();
            for pair in path.windows(2) {
                let (previous, current) = (pair[0], pair[1]);
                let entry = board.grid.entry_cost(current).max(1);
                let smallest = current
                    .neighbors()
                    .into_iter()
                    .filter(|neighbor| {
                        passable(&board, passage, *neighbor)
                            && costs.get(neighbor).map(|cost| cost + entry) == costs.get(&current).copied()
                    })
                    .min();
                prop_assert_eq!(Some(previous), smallest);
            }
        }
    }

    #[test]
    fn reachable_flying_random_grid_ends_empty(board in board(1), budget in 1u32..6) {
        let reach = reachable_flying(&board.grid, board.start, budget);
        let walking = reachable(&board.grid, board.start, budget);
        for hex in reach.hexes() {
            prop_assert!(board.grid.is_empty_hex(hex));
            prop_assert_ne!(hex, board.start);
        }
        // Flying never reaches less than walking, and never costs more.
        for hex in walking.hexes() {
            prop_assert!(reach.cost(hex) <= walking.cost(hex));
            prop_assert!(reach.contains(hex));
        }
    }

    #[test]
    fn reachable_random_corridor_matches_brute_force(
        kinds in prop::collection::vec(0u8..8, 48),
        budget in 0u32..40,
    ) {
        // A long corridor makes the search widen its window past the first radius.
        let hexes: Vec<Hex> = (0..24).flat_map(|q| [h(q, 0), h(q, 1)]).collect();
        let mut grid = SimpleGrid::new(hexes.iter().copied());
        for (hex, kind) in hexes.iter().zip(&kinds).skip(1) {
            grid.set_blocked(*hex, *kind == 0);
            grid.set_occupied(*hex, *kind == 1);
        }
        let board = Board { grid, start: h(0, 0), avoided: Vec::new() };
        let reach = search(&board, budget, Passage::WALKING);
        let costs = brute_costs(&board, Passage::WALKING);
        let expected: Vec<(Hex, u32)> = costs
            .into_iter()
            .filter(|(hex, cost)| *hex != board.start && *cost <= budget && board.grid.is_empty_hex(*hex))
            .collect();
        let found: Vec<(Hex, u32)> = reach
            .hexes()
            .into_iter()
            .map(|hex| (hex, reach.cost(hex).unwrap_or(u32::MAX)))
            .collect();
        prop_assert_eq!(found, expected);
    }

    #[test]
    fn reachable_random_grid_is_deterministic(board in board(3), budget in 0u32..8) {
        let first = reachable(&board.grid, board.start, budget);
        let second = reachable(&board.grid.clone(), board.start, budget);
        prop_assert_eq!(first, second);
    }

    #[test]
    fn path_is_legal_random_walk_agrees_with_reach(
        board in board(1),
        directions in prop::collection::vec(0usize..6, 1..5),
        passage in passage(),
    ) {
        // Any walk the checker accepts ends in a hex the search reaches at no greater cost.
        let mut path = vec![board.start];
        for direction in directions {
            let last = path[path.len() - 1];
            path.push(last.neighbor(gloam_core::Direction::ALL[direction]));
        }
        let budget = 4;
        if let Ok(cost) = path_is_legal(&board.grid, &path, budget, passage) {
            let end = path[path.len() - 1];
            let reach = reachable_avoiding(&board.grid, board.start, budget, passage, |_| false);
            prop_assert!(reach.cost(end).is_some_and(|least| least <= cost));
        }
    }
}

#[test]
fn reachable_walking_cannot_pass_between_blocked_hexes() {
    // Shadespire 2.5: occupied and blocked hexes can neither be entered nor passed through.
    let wall = [h(1, -2), h(1, -1), h(1, 0), h(1, 1), h(0, 2)];
    let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2).with_blocked(wall);
    let reach = reachable(&grid, Hex::ORIGIN, 4);
    assert!(!reach.contains(h(2, 0)));
    assert!(reach.hexes().iter().all(|hex| hex.q <= 0));
}

#[test]
fn reachable_flying_passes_blocked_and_occupied_hexes() {
    // Harrowdeep 3.2: Flying, on a Move action, passes blocked and occupied hexes and must end
    // in an empty hex.
    let grid = SimpleGrid::new((0..5).map(|q| h(q, 0)))
        .with_blocked([h(1, 0)])
        .with_occupied([h(0, 0), h(2, 0)]);
    let reach = reachable_flying(&grid, h(0, 0), 4);
    assert_eq!(reach.hexes(), vec![h(3, 0), h(4, 0)]);
    assert_eq!(
        reach.path_to(h(3, 0)),
        Some(vec![h(0, 0), h(1, 0), h(2, 0), h(3, 0)])
    );
    assert!(reachable(&grid, h(0, 0), 4).is_empty());
}

#[test]
fn reachable_through_occupied_stops_at_blocked_hexes() {
    // Embergard 4.14: the Flying runemark passes occupied hexes, not blocked ones.
    let grid = SimpleGrid::new((0..5).map(|q| h(q, 0)))
        .with_occupied([h(1, 0)])
        .with_blocked([h(3, 0)]);
    let reach = reachable_avoiding(&grid, h(0, 0), 4, Passage::THROUGH_OCCUPIED, |_| false);
    assert_eq!(reach.hexes(), vec![h(2, 0)]);
}

#[test]
fn reachable_avoiding_lethal_hexes_takes_longer_way() {
    // Harrowdeep 3.3: a fighter that moves into a lethal hex is dealt 1 damage; a ruleset may
    // offer only moves that avoid them.
    let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3);
    let lethal = [h(1, 0), h(1, -1)];
    let reach = reachable_avoiding(&grid, Hex::ORIGIN, 4, Passage::WALKING, |hex| {
        lethal.contains(&hex)
    });
    assert_eq!(reach.cost(h(2, -1)), Some(4));
    let path = reach.path_to(h(2, -1)).unwrap_or_default();
    assert!(path.iter().all(|hex| !lethal.contains(hex)));
    assert_eq!(reachable(&grid, Hex::ORIGIN, 3).cost(h(2, -1)), Some(2));
}

#[test]
fn path_is_legal_flying_may_not_end_blocked() {
    // Harrowdeep 3.2: a flyer must end in an empty hex.
    let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2).with_blocked([h(1, 0)]);
    assert_eq!(
        path_is_legal(&grid, &[Hex::ORIGIN, h(1, 0)], 2, Passage::FLYING),
        Err(MoveError::EndsNotEmpty { hex: h(1, 0) })
    );
    assert_eq!(
        path_is_legal(&grid, &[Hex::ORIGIN, h(1, 0)], 2, Passage::THROUGH_OCCUPIED),
        Err(MoveError::Step(StepError::Blocked {
            step: 1,
            hex: h(1, 0)
        }))
    );
}

#[test]
fn reachable_large_board_lists_every_hex_in_order() {
    let grid = SimpleGrid::hexagon(Hex::ORIGIN, 20);
    let reach = reachable(&grid, h(-20, 0), 40);
    assert_eq!(reach.len(), grid.hexes().count() - 1);
    let expected: Vec<Hex> = grid.hexes().filter(|hex| *hex != h(-20, 0)).collect();
    assert_eq!(reach.hexes(), expected);
    assert_eq!(reach.cost(h(20, 0)), Some(40));
}
