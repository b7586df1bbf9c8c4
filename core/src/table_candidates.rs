//! Candidate points a host can choose from on a measured table: finite, deterministic,
//! bounded lists, every entry legal by the checks of `table_path.rs`. A host may also send
//! any other point; it is accepted when the same check passes.
//!
//! - A group move ([`formation_candidates`]): the group translated as a formation toward its
//!   nearest enemy, into base contact with the nearest enemies, to the farthest legal point
//!   along each lattice direction, and along a lattice of directions and distances.
//! - A set-up ([`placement_candidates`]): anchor points of a square lattice at which the
//!   pieces, in their formation, are legally placed (wholly within the zone, and so on).
//!
//! `docs/kernel.md` describes the sets; these comments say how they are computed.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::table::{P, SPAN, isqrt_floor, length_nonneg, radius};
use crate::{
    Area, Gap, GroupId, Length, PathLimits, PieceId, PlaceLimits, Point, Refused, Scene, Subject,
    TablePiece, Target, check_formation, check_placement,
};

/// The 16 compass directions, counter-clockwise from east: every primitive integer vector
/// with components in -2..=2 and at least one of magnitude 1 or 2 on an axis or diagonal
/// (east, east-north-east as (2, 1), north-east, ...). 8 directions take every other one
/// (the axes and diagonals), 4 every fourth (the axes).
const DIRECTIONS: [(i64, i64); 16] = [
    (1, 0),
    (2, 1),
    (1, 1),
    (1, 2),
    (0, 1),
    (-1, 2),
    (-1, 1),
    (-2, 1),
    (-1, 0),
    (-2, -1),
    (-1, -1),
    (-1, -2),
    (0, -1),
    (1, -2),
    (1, -1),
    (2, -1),
];

/// The largest sum of radii for which exact base-contact points are searched (2 m): the
/// search walks every x across the contact circle.
const CONTACT_RADII_LIMIT: i64 = 20_000;

/// How many contact points, nearest first, are tried for each enemy.
const CONTACT_TRIES: usize = 8;

/// How many lattice points a set-up scan tests at most (the spacing doubles until it fits).
const PLACEMENT_SCAN_LIMIT: i64 = 10_000;

/// The shape of a candidate list for a group move.
///
/// # Examples
///
/// ```
/// use gloam_core::Lattice;
/// let lattice = Lattice { directions: 8, steps: 2, ..Lattice::default() };
/// assert_eq!(lattice.direction_count(), 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Lattice {
    /// Compass directions: 4, 8 or 16 (other values round up to the next of these, at most 16).
    pub directions: u8,
    /// Distances along each direction: the budget times `k / steps` for `k` in `1..=steps`
    /// (0 counts as 1).
    pub steps: u8,
    /// How many of the nearest enemy pieces to try base contact with.
    pub contacts: u8,
    /// The most candidates returned (the list is cut in its order).
    pub max: usize,
}

impl Default for Lattice {
    /// 16 directions, 4 distances, contact with the 3 nearest enemies, at most 128 candidates.
    fn default() -> Lattice {
        Lattice {
            directions: 16,
            steps: 4,
            contacts: 3,
            max: 128,
        }
    }
}

impl Lattice {
    /// The number of directions used: 4, 8 or 16.
    pub fn direction_count(&self) -> usize {
        match self.directions {
            0..=4 => 4,
            5..=8 => 8,
            _ => 16,
        }
    }

    fn directions(&self) -> impl Iterator<Item = (usize, (i64, i64))> {
        let stride = 16 / self.direction_count();
        DIRECTIONS
            .iter()
            .copied()
            .enumerate()
            .step_by(stride)
            .map(move |(index, direction)| (index / stride, direction))
    }
}

/// Why a candidate is on the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CandidateKind {
    /// Straight toward the nearest enemy, as far as allowed without touching it.
    Toward {
        /// The enemy piece.
        enemy: PieceId,
    },
    /// So that `piece` touches `enemy` exactly (base contact).
    Contact {
        /// The group's piece that makes contact.
        piece: PieceId,
        /// The enemy piece.
        enemy: PieceId,
    },
    /// The farthest legal distance found along a lattice direction.
    Farthest {
        /// The direction's index (0 is east, counting counter-clockwise).
        direction: u8,
    },
    /// A lattice point: a direction and a fraction of the budget.
    Step {
        /// The direction's index.
        direction: u8,
        /// `k` of `k / steps` of the budget.
        step: u8,
    },
}

/// A legal offset for a group move, and why it is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Candidate {
    /// The offset every piece moves by (a vector, in tenths of a millimetre).
    pub by: Point,
    /// Why it is offered.
    pub kind: CandidateKind,
}

/// The vector of length at most `length` along `direction`, each component rounded toward
/// zero (so it is never longer). Bounds: components up to 2 × 10^9 and a length capped at
/// 3 × 10^9 keep `a² · L²` below 3.6 × 10^37.
fn scaled(direction: (i64, i64), length: i64) -> Point {
    let (a, b) = (i128::from(direction.0), i128::from(direction.1));
    let norm2 = a * a + b * b;
    if norm2 == 0 || length <= 0 {
        return Point::ORIGIN;
    }
    let l = i128::from(length).min(SPAN);
    let component = |c: i128| {
        let magnitude = isqrt_floor(c * c * l * l / norm2);
        if c < 0 { -magnitude } else { magnitude }
    };
    Point::new(component(a), component(b))
}

/// Candidate offsets for moving `group` as a formation under `limits`, every one accepted by
/// [`check_formation`], without repeats (the first reason is kept), in this order and cut at
/// [`Lattice::max`]:
///
/// 1. **toward**: along the line from the group's piece closest to its nearest enemy to that
///    enemy's centre, the whole gap (rounded down, so never overlapping) or the budget if
///    less; when that is refused, the same fractions of it as the lattice steps, longest
///    first;
/// 2. **contact**: for each of the [`Lattice::contacts`] enemy pieces nearest the group, the
///    group's piece closest to it placed in exact base contact (a whole-number point on the
///    contact circle, the 8 nearest tried, nearest first); radii summing over 2 m are skipped;
/// 3. **farthest**: along each direction, the farthest legal distance below the first
///    refused lattice step, by bisection to the tenth of a millimetre;
/// 4. **lattice**: each direction (east first, counter-clockwise), each step (shortest first).
///
/// An offset of zero is never offered. The only error is a group with no piece on the table.
///
/// # Examples
///
/// ```
/// use gloam_core::{formation_candidates, check_formation, CandidateKind, Figure, GroupId, Lattice, Length, LengthUnit, PathLimits, PieceId, PlayerId, Point, Scene, TablePiece};
/// let piece = |id: u16, side: u8, x: i64| TablePiece {
///     id: PieceId(id),
///     side: PlayerId(side),
///     group: GroupId(u32::from(side)),
///     figure: Figure::new(Point::new(x, 0), Length::tenth_mm(125)),
/// };
/// let scene = Scene { pieces: vec![piece(0, 0, 0), piece(1, 1, 2_000)], ..Scene::default() };
/// let limits = PathLimits::new(Length::inches(8), LengthUnit::Inch);
/// let candidates = formation_candidates(&scene, GroupId(0), &limits, &Lattice::default()).unwrap();
/// assert_eq!(candidates[0].kind, CandidateKind::Toward { enemy: PieceId(1) });
/// assert_eq!(candidates[0].by, Point::new(1_750, 0)); // into contact: 2000 - 250
/// assert!(candidates.iter().all(|c| check_formation(&scene, GroupId(0), c.by, &limits).is_ok()));
/// ```
pub fn formation_candidates(
    scene: &Scene,
    group: GroupId,
    limits: &PathLimits,
    lattice: &Lattice,
) -> Result<Vec<Candidate>, Refused> {
    let members = scene
        .subject(Subject::Group(group))
        .map_err(|error| Refused {
            piece: PieceId(0),
            reason: crate::Refusal::Scene(error.to_string()),
            unit: limits.unit,
        })?;
    let side = members[0].side;
    let legal =
        |by: Point| by != Point::ORIGIN && check_formation(scene, group, by, limits).is_ok();
    let mut out = Vec::new();
    let budget = length_nonneg(limits.budget).min(SPAN);
    let budget = i64::try_from(budget).unwrap_or(0);
    let steps = i64::from(lattice.steps.max(1));
    let step_length = |k: i64| budget.saturating_mul(k) / steps;

    // 1. Toward the nearest enemy.
    if let Ok(Some((mine, enemy, gap))) =
        scene.closest(Subject::Group(group), &Target::EnemiesOf(side))
    {
        let from = scene.piece(mine).map(|p| P::of(p.figure.centre));
        let to = scene.piece(enemy).map(|p| P::of(p.figure.centre));
        if let (Some(from), Some(to)) = (from, to) {
            let line = to.sub(from);
            let direction = (
                i64::try_from(line.x).unwrap_or(0),
                i64::try_from(line.y).unwrap_or(0),
            );
            let reach = gap.floor().as_tenth_mm().min(budget);
            let tries = std::iter::once(reach).chain((1..steps).rev().map(|k| reach * k / steps));
            if let Some(by) = tries.map(|t| scaled(direction, t)).find(|by| legal(*by)) {
                out.push(Candidate {
                    by,
                    kind: CandidateKind::Toward { enemy },
                });
            }
        }
    }

    // 2. Into base contact with the nearest enemies.
    let mut enemies: Vec<(Gap, usize, &TablePiece, &TablePiece)> = Vec::new();
    for (order, enemy) in scene.pieces.iter().enumerate() {
        if enemy.side == side {
            continue;
        }
        let nearest = members
            .iter()
            .map(|m| (Gap::between(&m.figure, &enemy.figure), *m))
            .reduce(|best, next| if next.0 < best.0 { next } else { best });
        if let Some((gap, mine)) = nearest {
            enemies.push((gap, order, mine, enemy));
        }
    }
    enemies.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    for (_, _, mine, enemy) in enemies.iter().take(usize::from(lattice.contacts)) {
        let found = contact_points(mine, enemy)
            .into_iter()
            .take(CONTACT_TRIES)
            .find(|by| legal(*by));
        if let Some(by) = found {
            out.push(Candidate {
                by,
                kind: CandidateKind::Contact {
                    piece: mine.id,
                    enemy: enemy.id,
                },
            });
        }
    }

    // 3 and 4. The farthest legal point along each direction, and the lattice.
    let mut steps_found = Vec::new();
    for (index, direction) in lattice.directions() {
        let index = u8::try_from(index).unwrap_or(u8::MAX);
        let mut first_refused = None;
        let mut legal_below_refused = 0;
        for k in 1..=steps {
            let by = scaled(direction, step_length(k));
            if legal(by) {
                if first_refused.is_none() {
                    legal_below_refused = step_length(k);
                }
                steps_found.push(Candidate {
                    by,
                    kind: CandidateKind::Step {
                        direction: index,
                        step: u8::try_from(k).unwrap_or(u8::MAX),
                    },
                });
            } else if first_refused.is_none() {
                first_refused = Some(step_length(k));
            }
        }
        let Some(mut high) = first_refused else {
            continue;
        };
        // Bisect between the last legal step below the first refused one and that refused
        // one (the farthest legal step overall may lie beyond an obstacle: it is a lattice
        // candidate already).
        let mut low = legal_below_refused;
        let mut best = None;
        while high - low > 1 {
            let middle = low + (high - low) / 2;
            if legal(scaled(direction, middle)) {
                low = middle;
                best = Some(middle);
            } else {
                high = middle;
            }
        }
        if let Some(length) = best {
            out.push(Candidate {
                by: scaled(direction, length),
                kind: CandidateKind::Farthest { direction: index },
            });
        }
    }
    out.extend(steps_found);

    let mut seen = BTreeSet::new();
    out.retain(|candidate| seen.insert(candidate.by));
    out.truncate(lattice.max);
    Ok(out)
}

/// Offsets that put `mine` in exact base contact with `enemy`: whole-number points on the
/// circle of radius r1 + r2 around the enemy's centre, nearest to `mine` first (ties by the
/// point's coordinates).
fn contact_points(mine: &TablePiece, enemy: &TablePiece) -> Vec<Point> {
    let reach = radius(&mine.figure) + radius(&enemy.figure);
    if reach == 0 || reach > i128::from(CONTACT_RADII_LIMIT) {
        return Vec::new();
    }
    let reach2 = reach * reach;
    let centre = P::of(enemy.figure.centre);
    let from = P::of(mine.figure.centre);
    let mut points: Vec<(i128, i128, i128)> = Vec::new();
    for x in -reach..=reach {
        let rest = reach2 - x * x;
        let y = i128::from(isqrt_floor(rest));
        if y * y != rest {
            continue;
        }
        for y in if y == 0 { vec![0] } else { vec![-y, y] } {
            let at = P {
                x: centre.x + x,
                y: centre.y + y,
            };
            let by = at.sub(from);
            points.push((by.norm2(), by.x, by.y));
        }
    }
    points.sort_unstable();
    points
        .into_iter()
        .filter_map(|(_, x, y)| Some(Point::new(i64::try_from(x).ok()?, i64::try_from(y).ok()?)))
        .collect()
}

/// Anchor points at which `pieces` can be set up, every one accepted by [`check_placement`]:
/// each piece's centre is read as an offset from the anchor (so a formation keeps its
/// shape). The anchors scanned form a square lattice of `spacing` (at least a tenth of a
/// millimetre) over the bounding box of the zone (else of the table's outline; with neither,
/// nothing is offered), starting at its lower-left corner, in rows from the bottom, each row
/// from the left. When the box holds more than 10,000 lattice points the spacing doubles until
/// it does not. When more than `max` anchors are legal, `max` of them are kept, evenly spread
/// through that order.
///
/// # Examples
///
/// ```
/// use gloam_core::{placement_candidates, check_placement, Area, Figure, GroupId, Length, LengthUnit, PieceId, PlaceLimits, PlayerId, Point, Scene, TablePiece};
/// let zone = Area::Polygon(vec![Point::new(0, 0), Point::new(1000, 0), Point::new(1000, 400), Point::new(0, 400)]);
/// let limits = PlaceLimits::new(LengthUnit::Mm).in_zone(zone);
/// let model = TablePiece { id: PieceId(0), side: PlayerId(0), group: GroupId(0), figure: Figure::new(Point::ORIGIN, Length::tenth_mm(100)) };
/// let anchors = placement_candidates(&Scene::default(), &[model], &limits, Length::tenth_mm(100), 100);
/// assert_eq!(anchors.first(), Some(&Point::new(100, 100)));
/// assert_eq!(anchors.len(), 9 * 3);
/// ```
pub fn placement_candidates(
    scene: &Scene,
    pieces: &[TablePiece],
    limits: &PlaceLimits,
    spacing: Length,
    max: usize,
) -> Vec<Point> {
    let bounds = match (&limits.zone, scene.outline.is_empty()) {
        (Some(zone), _) => bounding_box(zone),
        (None, false) => bounding_box(&Area::Polygon(scene.outline.clone())),
        (None, true) => None,
    };
    let Some((low, high)) = bounds else {
        return Vec::new();
    };
    if pieces.is_empty() || max == 0 {
        return Vec::new();
    }
    lattice_scan(low, high, spacing, PLACEMENT_SCAN_LIMIT, max, |anchor| {
        let placed: Vec<TablePiece> = pieces
            .iter()
            .map(|piece| {
                let mut moved = piece.clone();
                moved.figure.centre = crate::table_path::shifted(piece.figure.centre, anchor);
                moved
            })
            .collect();
        check_placement(scene, &placed, limits).is_ok()
    })
}

/// The points of a square lattice of `spacing` over the box from `low` to `high`, row by
/// row from the lowest, that pass `legal`: at most `max`, evenly spread over the legal ones.
/// The spacing is doubled until at most `limit` points are tested. Deterministic.
pub(crate) fn lattice_scan(
    low: Point,
    high: Point,
    spacing: Length,
    limit: i64,
    max: usize,
    mut legal: impl FnMut(Point) -> bool,
) -> Vec<Point> {
    let (width, height) = (high.x - low.x, high.y - low.y);
    let mut spacing = spacing.as_tenth_mm().max(1);
    while (width / spacing + 1).saturating_mul(height / spacing + 1) > limit {
        spacing = spacing.saturating_mul(2);
    }
    let mut found = Vec::new();
    let mut y = low.y;
    while y <= high.y {
        let mut x = low.x;
        while x <= high.x {
            let at = Point::new(x, y);
            if legal(at) {
                found.push(at);
            }
            match x.checked_add(spacing) {
                Some(next) => x = next,
                None => break,
            }
        }
        match y.checked_add(spacing) {
            Some(next) => y = next,
            None => break,
        }
    }
    spread(found, max)
}

/// At most `max` of `points`, evenly spread (all of them when there are no more).
pub(crate) fn spread(points: Vec<Point>, max: usize) -> Vec<Point> {
    if points.len() <= max {
        return points;
    }
    let count = points.len();
    (0..max).map(|i| points[i * count / max]).collect()
}

/// The lower-left and upper-right corners of an area's bounding box (in bounds).
pub(crate) fn bounding_box(area: &Area) -> Option<(Point, Point)> {
    let clamp = |c: i64| c.clamp(-crate::COORD_LIMIT, crate::COORD_LIMIT);
    match area {
        Area::Circle { centre, radius } => {
            let r = radius.as_tenth_mm().max(0);
            Some((
                Point::new(
                    clamp(centre.x.saturating_sub(r)),
                    clamp(centre.y.saturating_sub(r)),
                ),
                Point::new(
                    clamp(centre.x.saturating_add(r)),
                    clamp(centre.y.saturating_add(r)),
                ),
            ))
        }
        Area::Polygon(vertices) => {
            let xs = vertices.iter().map(|p| clamp(p.x));
            let ys = vertices.iter().map(|p| clamp(p.y));
            Some((
                Point::new(xs.clone().min()?, ys.clone().min()?),
                Point::new(xs.max()?, ys.max()?),
            ))
        }
    }
}
