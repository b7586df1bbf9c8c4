//! Exact line of sight between hexes.
//!
//! # The rule
//!
//! A line of sight is the segment from the centre of one hex to the centre of
//! another. It is blocked when it passes through **or touches** a blocking hex: a
//! corner counts, and so does running along an edge (Shadespire, Harrowdeep and
//! Embergard, "line of sight"). The two end hexes never block their own line. When
//! `off_board_blocks` is on (Harrowdeep), the line is also blocked when any point of
//! it lies in no closed battlefield hex, that is when it enters the interior of a hex
//! that is not on the battlefield, or runs along an edge whose two hexes are both off
//! the battlefield. Running along the battlefield's outer edge, or touching a corner
//! that belongs to a battlefield hex, does not leave the battlefield.
//!
//! # The geometry
//!
//! Everything happens on the integer lattice plane of [`Hex::lattice`]: a hex
//! centred at `(X, Y)` is the closed hexagon
//! `|u| <= 1, |u - v| <= 2, |u + v| <= 2` with `u = x - X`, `v = y - Y`, whose
//! corners are `(X, Y ± 2)` and `(X ± 1, Y ± 1)`. The map from the true plane is
//! affine, so touching, crossing and running along are all preserved, and every test
//! below is exact integer arithmetic (cross products in `i128`), with no floats.
//!
//! For a segment from `A` to `B`, `D = B - A`, and a hex centred at `C`:
//!
//! - the line through `A` and `B` meets the closed hexagon iff
//!   `|D × (C - A)| <= R`, where `R = max(2|Dx|, |Dx| + |Dy|)` is the hexagon's
//!   support in the direction normal to `D` (the largest `|D × k|` over the corner
//!   offsets `k`); it passes through the interior iff `|D × (C - A)| < R`, which is
//!   to say the hex has corners strictly on both sides of the line;
//! - the segment, not just its line, meets the hexagon iff in addition no axis of
//!   the hexagon (`u`, `u - v`, `u + v`) has both `A` and `B` strictly beyond the
//!   same side (the separating axis theorem for two convex sets; the line's normal
//!   is the fourth axis, tested above);
//! - when the line meets a hexagon with `|D × (C - A)| = R` it only touches it:
//!   at one corner, or, when `D` is parallel to an edge direction (`Dx = 0`,
//!   `Dx = Dy` or `Dx = -Dy` on the lattice), along a whole edge. Centres never lie
//!   on a hex's boundary, so a segment that touches an edge line covers the whole
//!   edge.
//!
//! A segment that enters a hexagon's interior, with both ends outside it, crosses a
//! chord of positive length; so "enters the interior" needs no more than the two
//! tests above. If the segment leaves the battlefield, the first point where it does
//! so lies on the boundary of a battlefield hex, so the off-board hexes it enters (or
//! whose shared edge it follows) are neighbours of battlefield hexes: only that rim
//! is tested. Both the blocking hexes and the rim are kept sorted by lattice `y`, and
//! a query looks only at those within the segment's bounding box.

use crate::board::{Battlefield, HexMask, neighbors_checked, step_checked};
use crate::hex::{Direction, Hex};

/// Why a line-of-sight question could not be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SightError {
    /// One end of the line is not a battlefield hex.
    #[error("hex {hex} is not on the battlefield")]
    NotOnBattlefield {
        /// The hex that is off the battlefield.
        hex: Hex,
    },
}

/// A hex with its lattice centre, sorted by `y` then `x` for range queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Cell {
    y: i64,
    x: i64,
    hex: Hex,
}

impl Cell {
    fn new(hex: Hex) -> Cell {
        let (x, y) = hex.lattice();
        Cell { y, x, hex }
    }
}

/// Precomputed line-of-sight answers for one battlefield and one set of blocking
/// hexes.
///
/// # Examples
///
/// ```
/// use gloam_core::{Hex, Sight};
/// let battlefield = Hex::ORIGIN.range(3);
/// let sight = Sight::new(battlefield, [Hex::new(1, 0)], false);
/// assert_eq!(sight.visible(Hex::new(0, 0), Hex::new(2, 0)), Ok(false));
/// assert_eq!(sight.visible(Hex::new(0, 0), Hex::new(0, 2)), Ok(true));
/// ```
#[derive(Clone, Debug)]
pub struct Sight {
    on_board: HexMask,
    blockers: Vec<Cell>,
    rim: Vec<Cell>,
    off_board_blocks: bool,
}

/// How a segment meets a closed hexagon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Contact {
    /// No common point.
    None,
    /// Exactly one common point: a corner.
    Corner,
    /// A whole edge, the segment running along it; the neighbour across that edge
    /// lies in the given direction.
    Edge(Direction),
    /// The segment crosses the interior.
    Interior,
}

/// Which edge direction a segment is parallel to, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EdgeAxis {
    /// `Dx = 0`: vertical edges (east/west neighbours).
    Vertical,
    /// `Dx = Dy`: edges along `u - v = ±2` (north-east/south-west neighbours).
    Rising,
    /// `Dx = -Dy`: edges along `u + v = ±2` (south-east/north-west neighbours).
    Falling,
}

/// A centre-to-centre segment on the lattice plane.
struct Segment {
    ax: i64,
    ay: i64,
    bx: i64,
    by: i64,
    dx: i64,
    dy: i64,
    reach: i128,
    parallel: Option<EdgeAxis>,
}

impl Segment {
    fn new(from: Hex, to: Hex) -> Segment {
        let (ax, ay) = from.lattice();
        let (bx, by) = to.lattice();
        let (dx, dy) = (bx - ax, by - ay);
        let reach = i128::from((2 * dx.abs()).max(dx.abs() + dy.abs()));
        let parallel = if dx == 0 {
            Some(EdgeAxis::Vertical)
        } else if dx == dy {
            Some(EdgeAxis::Rising)
        } else if dx == -dy {
            Some(EdgeAxis::Falling)
        } else {
            None
        };
        Segment {
            ax,
            ay,
            bx,
            by,
            dx,
            dy,
            reach,
            parallel,
        }
    }

    /// The lattice `y` range a touched hex centre can lie in.
    fn y_range(&self) -> (i64, i64) {
        (self.ay.min(self.by) - 2, self.ay.max(self.by) + 2)
    }

    /// Whether a hex centred at `x` could touch the segment (bounding-box prefilter).
    #[inline]
    fn x_near(&self, x: i64) -> bool {
        x >= self.ax.min(self.bx) - 1 && x <= self.ax.max(self.bx) + 1
    }

    /// How the segment meets the closed hexagon centred at `(cx, cy)`; the segment's
    /// ends must lie outside it (they are centres of other hexes).
    #[inline]
    fn contact(&self, cx: i64, cy: i64) -> Contact {
        let side = i128::from(self.dx) * i128::from(cy - self.ay)
            - i128::from(self.dy) * i128::from(cx - self.ax);
        let side = side.abs();
        if side > self.reach {
            return Contact::None;
        }
        let (ua, va) = (self.ax - cx, self.ay - cy);
        let (ub, vb) = (self.bx - cx, self.by - cy);
        if beyond(ua, ub, 1) || beyond(ua - va, ub - vb, 2) || beyond(ua + va, ub + vb, 2) {
            return Contact::None;
        }
        if side < self.reach {
            return Contact::Interior;
        }
        // The line only touches the hexagon: along an edge when parallel to one.
        match self.parallel {
            None => Contact::Corner,
            Some(EdgeAxis::Vertical) if ua > 0 => Contact::Edge(Direction::East),
            Some(EdgeAxis::Vertical) => Contact::Edge(Direction::West),
            Some(EdgeAxis::Rising) if ua - va > 0 => Contact::Edge(Direction::NorthEast),
            Some(EdgeAxis::Rising) => Contact::Edge(Direction::SouthWest),
            Some(EdgeAxis::Falling) if ua + va > 0 => Contact::Edge(Direction::SouthEast),
            Some(EdgeAxis::Falling) => Contact::Edge(Direction::NorthWest),
        }
    }

    /// Projection of `(x, y) - A` on `D`, to order hexes along the line.
    fn along(&self, x: i64, y: i64) -> i128 {
        i128::from(self.dx) * i128::from(x - self.ax)
            + i128::from(self.dy) * i128::from(y - self.ay)
    }
}

/// Both values strictly beyond the same side of `[-bound, bound]`.
#[inline]
fn beyond(a: i64, b: i64, bound: i64) -> bool {
    (a > bound && b > bound) || (a < -bound && b < -bound)
}

/// The cells whose `y` lies in `range` (`cells` sorted by `y`).
fn cells_in(cells: &[Cell], (low, high): (i64, i64)) -> &[Cell] {
    let start = cells.partition_point(|cell| cell.y < low);
    let end = cells.partition_point(|cell| cell.y <= high);
    &cells[start..end.max(start)]
}

impl Sight {
    /// Line of sight over the battlefield `battlefield_hexes`, blocked by `blocking`
    /// (blocking hexes need not be on the battlefield), and, if `off_board_blocks`, by
    /// leaving the battlefield.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Hex, Sight};
    /// // A row of five hexes with the middle one missing, bridged by the row above.
    /// let mut hexes = vec![Hex::new(0, 0), Hex::new(1, 0), Hex::new(3, 0), Hex::new(4, 0)];
    /// hexes.extend((1..5).map(|q| Hex::new(q, -1)));
    /// let shadespire = Sight::new(hexes.clone(), [], false);
    /// let harrowdeep = Sight::new(hexes, [], true);
    /// assert_eq!(shadespire.visible(Hex::new(0, 0), Hex::new(4, 0)), Ok(true));
    /// assert_eq!(harrowdeep.visible(Hex::new(0, 0), Hex::new(4, 0)), Ok(false));
    /// ```
    pub fn new(
        battlefield_hexes: impl IntoIterator<Item = Hex>,
        blocking: impl IntoIterator<Item = Hex>,
        off_board_blocks: bool,
    ) -> Sight {
        let hexes: Vec<Hex> = battlefield_hexes.into_iter().collect();
        let on_board = HexMask::new(hexes.iter().copied());
        let mut blockers: Vec<Cell> = blocking.into_iter().map(Cell::new).collect();
        blockers.sort_unstable();
        blockers.dedup();
        let mut rim: Vec<Cell> = hexes
            .iter()
            .flat_map(|&hex| neighbors_checked(hex))
            .filter(|&hex| !on_board.contains(hex))
            .map(Cell::new)
            .collect();
        rim.sort_unstable();
        rim.dedup();
        Sight {
            on_board,
            blockers,
            rim,
            off_board_blocks,
        }
    }

    /// Line of sight over a [`Battlefield`], blocked by its hexes that have any of
    /// `blocking_types`.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Battlefield, Hex, Sight};
    /// let battlefield = Battlefield::from_hexes([
    ///     (Hex::new(0, 0), vec![]),
    ///     (Hex::new(1, 0), vec!["blocked"]),
    ///     (Hex::new(2, 0), vec![]),
    /// ]);
    /// let sight = Sight::from_battlefield(&battlefield, &["blocked"], false);
    /// assert_eq!(sight.visible(Hex::new(0, 0), Hex::new(2, 0)), Ok(false));
    /// ```
    pub fn from_battlefield(
        battlefield: &Battlefield,
        blocking_types: &[&str],
        off_board_blocks: bool,
    ) -> Sight {
        let blocking = battlefield.hexes().filter(|&hex| {
            blocking_types
                .iter()
                .any(|name| battlefield.has_type(hex, name))
        });
        Sight::new(battlefield.hexes(), blocking, off_board_blocks)
    }

    /// Whether `hex` is on the battlefield.
    pub fn is_on_battlefield(&self, hex: Hex) -> bool {
        self.on_board.contains(hex)
    }

    /// Whether whoever stands in `from` can see `to` (symmetric; a hex sees itself).
    ///
    /// # Errors
    ///
    /// [`SightError::NotOnBattlefield`] if either hex is off the battlefield.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Hex, Sight};
    /// // The line from (0, 0) to (1, -2) runs along the edge between (0, -1) and (1, -1).
    /// let sight = Sight::new(Hex::ORIGIN.range(2), [Hex::new(1, -1)], false);
    /// assert_eq!(sight.visible(Hex::new(0, 0), Hex::new(1, -2)), Ok(false));
    /// ```
    pub fn visible(&self, from: Hex, to: Hex) -> Result<bool, SightError> {
        for hex in [from, to] {
            if !self.on_board.contains(hex) {
                return Err(SightError::NotOnBattlefield { hex });
            }
        }
        if from == to {
            return Ok(true);
        }
        let segment = Segment::new(from, to);
        let y_range = segment.y_range();
        for cell in cells_in(&self.blockers, y_range) {
            if segment.x_near(cell.x)
                && cell.hex != from
                && cell.hex != to
                && segment.contact(cell.x, cell.y) != Contact::None
            {
                return Ok(false);
            }
        }
        if self.off_board_blocks {
            for cell in cells_in(&self.rim, y_range) {
                if segment.x_near(cell.x) && self.leaves_through(&segment, cell) {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Whether the segment leaves the battlefield through the off-board hex `cell`.
    #[inline]
    fn leaves_through(&self, segment: &Segment, cell: &Cell) -> bool {
        match segment.contact(cell.x, cell.y) {
            Contact::Interior => true,
            Contact::Edge(direction) => {
                step_checked(cell.hex, direction).is_none_or(|other| !self.on_board.contains(other))
            }
            Contact::None | Contact::Corner => false,
        }
    }

    /// The blocking hexes the segment from `from` to `to` passes through or touches
    /// (the end hexes excluded), in order along the line.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Hex, Sight};
    /// let blocking = [Hex::new(0, -1), Hex::new(1, -1), Hex::new(1, 0)];
    /// let sight = Sight::new(Hex::ORIGIN.range(2), blocking, false);
    /// assert_eq!(
    ///     sight.blockers_on_line(Hex::new(0, 0), Hex::new(1, -2)),
    ///     vec![Hex::new(0, -1), Hex::new(1, -1)]
    /// );
    /// ```
    pub fn blockers_on_line(&self, from: Hex, to: Hex) -> Vec<Hex> {
        if from == to {
            return Vec::new();
        }
        let segment = Segment::new(from, to);
        let found = cells_in(&self.blockers, segment.y_range())
            .iter()
            .filter(|cell| segment.x_near(cell.x) && cell.hex != from && cell.hex != to)
            .filter(|cell| segment.contact(cell.x, cell.y) != Contact::None);
        ordered_along(&segment, found)
    }

    /// The off-battlefield hexes through which the segment from `from` to `to`
    /// leaves the battlefield (entering the hex, or running along its edge with
    /// another off-battlefield hex), in order along the line; whether or not
    /// `off_board_blocks` is on.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Hex, Sight};
    /// let hexes = [Hex::new(0, 0), Hex::new(2, 0), Hex::new(1, -1)];
    /// let sight = Sight::new(hexes, [], true);
    /// assert_eq!(sight.off_board_on_line(Hex::new(0, 0), Hex::new(2, 0)), vec![Hex::new(1, 0)]);
    /// ```
    pub fn off_board_on_line(&self, from: Hex, to: Hex) -> Vec<Hex> {
        if from == to {
            return Vec::new();
        }
        let segment = Segment::new(from, to);
        let found = cells_in(&self.rim, segment.y_range())
            .iter()
            .filter(|cell| segment.x_near(cell.x) && self.leaves_through(&segment, cell));
        ordered_along(&segment, found)
    }
}

/// The hexes of `cells`, sorted by their centre's position along the segment.
fn ordered_along<'a>(segment: &Segment, cells: impl Iterator<Item = &'a Cell>) -> Vec<Hex> {
    let mut keyed: Vec<(i128, Hex)> = cells
        .map(|cell| (segment.along(cell.x, cell.y), cell.hex))
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, hex)| hex).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contact(from: Hex, to: Hex, hex: Hex) -> Contact {
        let (x, y) = hex.lattice();
        Segment::new(from, to).contact(x, y)
    }

    #[test]
    fn contact_edge_run_names_the_neighbour_across() {
        // (0,0) -> (1,-2) runs along the edge shared by (0,-1) and (1,-1).
        let (from, to) = (Hex::new(0, 0), Hex::new(1, -2));
        assert_eq!(
            contact(from, to, Hex::new(0, -1)),
            Contact::Edge(Direction::East)
        );
        assert_eq!(
            contact(from, to, Hex::new(1, -1)),
            Contact::Edge(Direction::West)
        );
        // (0,0) -> (1,1) runs along the edge shared by (1,0) and (0,1).
        let to = Hex::new(1, 1);
        assert_eq!(
            contact(from, to, Hex::new(1, 0)),
            Contact::Edge(Direction::SouthWest)
        );
        assert_eq!(
            contact(from, to, Hex::new(0, 1)),
            Contact::Edge(Direction::NorthEast)
        );
        // (0,0) -> (2,-1) runs along the edge shared by (1,0) and (1,-1).
        let to = Hex::new(2, -1);
        assert_eq!(
            contact(from, to, Hex::new(1, 0)),
            Contact::Edge(Direction::NorthWest)
        );
        assert_eq!(
            contact(from, to, Hex::new(1, -1)),
            Contact::Edge(Direction::SouthEast)
        );
    }

    #[test]
    fn contact_corner_and_interior_are_told_apart() {
        // (0,0) -> (1,4) on the lattice is (0,0) -> (6,12): it passes the corner (2,4)
        // of hex (1,1) and crosses the interiors of (0,1) and (0,2).
        let (from, to) = (Hex::new(0, 0), Hex::new(1, 4));
        assert_eq!(contact(from, to, Hex::new(1, 1)), Contact::Corner);
        assert_eq!(contact(from, to, Hex::new(0, 1)), Contact::Interior);
        assert_eq!(contact(from, to, Hex::new(0, 2)), Contact::Interior);
        assert_eq!(contact(from, to, Hex::new(1, 0)), Contact::None);
        // A hex on the line but beyond the end is not touched.
        assert_eq!(
            contact(Hex::new(0, 0), Hex::new(1, 0), Hex::new(2, 0)),
            Contact::None
        );
    }

    #[test]
    fn contact_far_coordinates_do_not_overflow() {
        let from = Hex::new(i32::MIN, 0);
        let to = Hex::new(i32::MAX, 0);
        let blocked = Sight::new([from, to], [Hex::ORIGIN], false);
        assert_eq!(blocked.visible(from, to), Ok(false));
        let open = Sight::new([from, to], [Hex::new(0, 1)], false);
        assert_eq!(open.visible(to, from), Ok(true));
        let harrowdeep = Sight::new([from, to], [], true);
        assert_eq!(harrowdeep.visible(from, to), Ok(false));
        assert_eq!(harrowdeep.visible(from, from), Ok(true));
    }

    #[test]
    fn visible_off_the_battlefield_is_an_error() {
        let sight = Sight::new([Hex::ORIGIN], [], false);
        let error = sight.visible(Hex::ORIGIN, Hex::new(3, 3)).unwrap_err();
        assert_eq!(error.to_string(), "hex (3, 3) is not on the battlefield");
    }
}
