//! Laws of hex distance and the lattice (all three Underworlds editions count distance in
//! hexes, straight through blocked hexes: Harrowdeep, range and distance).

use gloam_core::{Direction, Hex};
use proptest::prelude::*;

fn hex() -> impl Strategy<Value = Hex> {
    (-500i32..500, -500i32..500).prop_map(|(q, r)| Hex::new(q, r))
}

proptest! {
    #[test]
    fn distance_is_symmetric(a in hex(), b in hex()) {
        prop_assert_eq!(a.distance_to(b), b.distance_to(a));
    }

    #[test]
    fn distance_obeys_the_triangle_inequality(a in hex(), b in hex(), c in hex()) {
        prop_assert!(a.distance_to(c) <= a.distance_to(b) + b.distance_to(c));
    }

    #[test]
    fn distance_is_zero_only_to_itself(a in hex(), b in hex()) {
        prop_assert_eq!(a.distance_to(b) == 0, a == b);
    }

    #[test]
    fn a_step_changes_distance_by_at_most_one(a in hex(), b in hex(), d in 0usize..6) {
        let stepped = a.neighbor(Direction::ALL[d]);
        let (before, after) = (a.distance_to(b) as i64, stepped.distance_to(b) as i64);
        prop_assert!((before - after).abs() <= 1);
    }

    #[test]
    fn distance_is_preserved_by_rotation_and_translation(a in hex(), b in hex(), t in hex(), k in 0u32..6) {
        let d = a.distance_to(b);
        prop_assert_eq!(a.rotate_cw(k).distance_to(b.rotate_cw(k)), d);
        prop_assert_eq!(a.add(t).distance_to(b.add(t)), d);
    }

    #[test]
    fn range_holds_exactly_the_hexes_within_the_radius(centre in hex(), radius in 0u32..6, probe in hex()) {
        let range = centre.range(radius);
        let probe = Hex::new(centre.q + probe.q % 8, centre.r + probe.r % 8);
        prop_assert_eq!(range.contains(&probe), centre.distance_to(probe) <= radius);
        prop_assert_eq!(range.len() as u32, 3 * radius * (radius + 1) + 1);
    }

    #[test]
    fn neighbours_share_exactly_two_corners(a in hex(), d in 0usize..6) {
        let b = a.neighbor(Direction::ALL[d]);
        let shared = a.corners().iter().filter(|c| b.corners().contains(c)).count();
        prop_assert_eq!(shared, 2);
        prop_assert_eq!(Direction::from_offset(b.sub(a)), Some(Direction::ALL[d]));
        prop_assert_eq!(b.neighbor(Direction::ALL[d].opposite()), a);
    }
}
