//! Axial hex coordinates on a pointy-top lattice (redblobgames conventions).
//!
//! Every hex centre and every hex corner lies on an integer point of the
//! *lattice plane* `X = 2q + r`, `Y = 3r`: corners sit at `(X, Y ± 2)` and
//! `(X ± 1, Y ± 1)`. The map is affine, so incidence (a segment touching a
//! corner, running along an edge) is preserved and can be tested exactly with
//! integer arithmetic. See [`Hex::lattice`] and [`Hex::corners`].

use serde::{Deserialize, Serialize};

/// One hex, in axial coordinates `(q, r)`; the third cube coordinate is `s = -q - r`.
///
/// # Examples
///
/// ```
/// use gloam_core::Hex;
/// let a = Hex::new(0, 0);
/// let b = Hex::new(2, -1);
/// assert_eq!(a.distance_to(b), 2);
/// assert_eq!(a.neighbors().len(), 6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Hex {
    /// Column axis.
    pub q: i32,
    /// Row axis.
    pub r: i32,
}

/// The six directions from a hex to its neighbours, clockwise from east.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// `(+1, 0)`.
    East,
    /// `(0, +1)`.
    SouthEast,
    /// `(-1, +1)`.
    SouthWest,
    /// `(-1, 0)`.
    West,
    /// `(0, -1)`.
    NorthWest,
    /// `(+1, -1)`.
    NorthEast,
}

impl Direction {
    /// All six directions, clockwise from east.
    pub const ALL: [Direction; 6] = [
        Direction::East,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
        Direction::NorthEast,
    ];

    /// The axial offset of one step in this direction.
    pub const fn offset(self) -> Hex {
        match self {
            Direction::East => Hex::new(1, 0),
            Direction::SouthEast => Hex::new(0, 1),
            Direction::SouthWest => Hex::new(-1, 1),
            Direction::West => Hex::new(-1, 0),
            Direction::NorthWest => Hex::new(0, -1),
            Direction::NorthEast => Hex::new(1, -1),
        }
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::East => Direction::West,
            Direction::SouthEast => Direction::NorthWest,
            Direction::SouthWest => Direction::NorthEast,
            Direction::West => Direction::East,
            Direction::NorthWest => Direction::SouthEast,
            Direction::NorthEast => Direction::SouthWest,
        }
    }

    /// The direction whose offset is `offset`, if it is a unit step.
    pub fn from_offset(offset: Hex) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.offset() == offset)
    }
}

impl Hex {
    /// The origin, `(0, 0)`.
    pub const ORIGIN: Hex = Hex::new(0, 0);

    /// A hex at `(q, r)`.
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate, `-q - r`.
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// Component-wise sum.
    pub const fn add(self, other: Hex) -> Hex {
        Hex::new(self.q + other.q, self.r + other.r)
    }

    /// Component-wise difference.
    pub const fn sub(self, other: Hex) -> Hex {
        Hex::new(self.q - other.q, self.r - other.r)
    }

    /// The neighbour one step away in `direction`.
    pub const fn neighbor(self, direction: Direction) -> Hex {
        self.add(direction.offset())
    }

    /// The six neighbours, clockwise from east.
    pub fn neighbors(self) -> [Hex; 6] {
        Direction::ALL.map(|d| self.neighbor(d))
    }

    /// Number of steps between two hexes on an unobstructed lattice.
    ///
    /// Computed in `i64`, so no pair of coordinates overflows; a distance beyond `u32::MAX`
    /// (only between hexes more than four billion steps apart, far outside
    /// [`Hex::LIMIT`]) is `u32::MAX`. Hosts taking coordinates from outside check them with
    /// [`Hex::in_limit`].
    pub fn distance_to(self, other: Hex) -> u32 {
        let dq = i64::from(self.q) - i64::from(other.q);
        let dr = i64::from(self.r) - i64::from(other.r);
        let ds = -dq - dr;
        let steps = (dq.unsigned_abs() + dr.unsigned_abs() + ds.unsigned_abs()) / 2;
        u32::try_from(steps).unwrap_or(u32::MAX)
    }

    /// The largest coordinate (`q`, `r` and `s`, in absolute value) a host should accept:
    /// within it, every sum, difference, distance and lattice point of two hexes fits its
    /// type exactly.
    pub const LIMIT: i32 = 1 << 28;

    /// Whether `q`, `r` and `s` are all within [`Hex::LIMIT`] in absolute value.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::Hex;
    /// assert!(Hex::new(-3, 7).in_limit());
    /// assert!(!Hex::new(i32::MAX, 0).in_limit());
    /// ```
    pub fn in_limit(self) -> bool {
        let limit = i64::from(Hex::LIMIT);
        let (q, r) = (i64::from(self.q), i64::from(self.r));
        q.abs() <= limit && r.abs() <= limit && (q + r).abs() <= limit
    }

    /// Whether `other` is one of the six neighbours.
    pub fn is_adjacent(self, other: Hex) -> bool {
        self.distance_to(other) == 1
    }

    /// The hexes exactly `radius` steps away, clockwise; `[self]` for radius 0.
    pub fn ring(self, radius: u32) -> Vec<Hex> {
        if radius == 0 {
            return vec![self];
        }
        let mut out = Vec::with_capacity(6 * radius as usize);
        let r = radius as i32;
        // Start `radius` steps to the south-west... walk each side.
        let mut hex = self.add(Hex::new(
            Direction::West.offset().q * r,
            Direction::West.offset().r * r,
        ));
        // Walking order that keeps the ring clockwise starting from the west corner.
        for direction in [
            Direction::NorthEast,
            Direction::East,
            Direction::SouthEast,
            Direction::SouthWest,
            Direction::West,
            Direction::NorthWest,
        ] {
            for _ in 0..radius {
                out.push(hex);
                hex = hex.neighbor(direction);
            }
        }
        out
    }

    /// Every hex within `radius` steps, including `self`, in ring order.
    pub fn range(self, radius: u32) -> Vec<Hex> {
        (0..=radius).flat_map(|k| self.ring(k)).collect()
    }

    /// The centre of this hex on the integer lattice plane: `(2q + r, 3r)`.
    pub const fn lattice(self) -> (i64, i64) {
        (2 * self.q as i64 + self.r as i64, 3 * self.r as i64)
    }

    /// The six corners on the lattice plane, clockwise from the top.
    pub const fn corners(self) -> [(i64, i64); 6] {
        let (x, y) = self.lattice();
        [
            (x, y - 2),
            (x + 1, y - 1),
            (x + 1, y + 1),
            (x, y + 2),
            (x - 1, y + 1),
            (x - 1, y - 1),
        ]
    }

    /// The hex rotated 60° clockwise about the origin, `times` times.
    pub fn rotate_cw(self, times: u32) -> Hex {
        let mut hex = self;
        for _ in 0..times % 6 {
            hex = Hex::new(-hex.r, -hex.s());
        }
        hex
    }
}

impl std::fmt::Display for Hex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.q, self.r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_between_extreme_coordinates_does_not_overflow() {
        // Issue 17: computed in i32 this wrapped to 1.
        let a = Hex::new(i32::MAX, 0);
        let b = Hex::new(i32::MIN, 0);
        assert_eq!(a.distance_to(b), u32::MAX);
        assert_eq!(
            Hex::new(1 << 28, 0).distance_to(Hex::new(-(1 << 28), 0)),
            1 << 29
        );
        assert!(!a.in_limit() && !b.in_limit());
        assert!(!Hex::new(1 << 28, 1).in_limit(), "s is out of range");
    }

    #[test]
    fn ring_has_six_times_radius_distinct_hexes_at_that_distance() {
        for radius in 1..6 {
            let ring = Hex::ORIGIN.ring(radius);
            assert_eq!(ring.len(), 6 * radius as usize);
            let unique: std::collections::BTreeSet<_> = ring.iter().copied().collect();
            assert_eq!(unique.len(), ring.len());
            assert!(ring.iter().all(|h| Hex::ORIGIN.distance_to(*h) == radius));
        }
    }

    #[test]
    fn range_counts_centred_hexagonal_numbers() {
        assert_eq!(Hex::new(3, -2).range(2).len(), 19);
        assert_eq!(Hex::ORIGIN.range(0), vec![Hex::ORIGIN]);
    }

    #[test]
    fn corners_are_shared_by_neighbours() {
        let a = Hex::ORIGIN;
        let b = a.neighbor(Direction::East);
        let shared: Vec<_> = a
            .corners()
            .into_iter()
            .filter(|c| b.corners().contains(c))
            .collect();
        assert_eq!(shared, vec![(1, -1), (1, 1)]);
    }

    #[test]
    fn rotation_preserves_distance_and_cycles() {
        let h = Hex::new(2, -1);
        assert_eq!(h.rotate_cw(6), h);
        assert_eq!(h.rotate_cw(1).distance_to(Hex::ORIGIN), 2);
        assert_eq!(Hex::new(1, 0).rotate_cw(1), Hex::new(0, 1));
    }
}
