//! Setting up a polygon on the table: a terrain feature's footprint (or any flat shape a
//! ruleset sets up in play) checked against a zone it must lie wholly within and the shapes
//! it must stay more than a distance from, and the lattice of legal places for it.
//!
//! Exact, as the rest of the table: corners are integer points, every comparison is done on
//! squared distances in `i128`. A footprint is more than `d` from a shape when no point of
//! one is within `d` of a point of the other; touching or overlapping is a gap of 0.

use crate::table::{
    P, axis_rectangle, polygon_contains, polygon_edges, segment_distance_cmp, segments_meet,
    validate_polygon,
};
use crate::table_candidates::{bounding_box, lattice_scan};
use crate::{Area, Length, LengthUnit, Point};
use std::cmp::Ordering;

/// A shape a footprint keeps away from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Shape {
    /// A point.
    Point(Point),
    /// A disc (a round base, an objective marker): its centre and radius.
    Disc(Point, Length),
    /// A closed segment (an edge of the table).
    Segment(Point, Point),
    /// A simple polygon with its inside (a territory, another footprint).
    Polygon(Vec<Point>),
}

impl Shape {
    /// An [`Area`] as a shape: a circle as a disc, a polygon as itself.
    pub fn of_area(area: &Area) -> Shape {
        match area {
            Area::Circle { centre, radius } => Shape::Disc(*centre, *radius),
            Area::Polygon(vertices) => Shape::Polygon(vertices.clone()),
        }
    }
}

/// What a footprint set up on the table must respect.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FootprintLimits {
    /// An area the footprint must lie wholly within, with its name for refusals.
    pub zone: Option<(String, Area)>,
    /// Shapes the footprint must be more than a distance from, each with its name.
    pub away: Vec<(String, Shape, Length)>,
    /// The table's outline, which the footprint must lie wholly within when set.
    pub outline: Option<Vec<Point>>,
}

/// Why a footprint may not go where asked, in players' words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FootprintRefused(pub String);

/// Whether polygon `footprint` lies wholly within polygon `outer` (boundaries may touch):
/// every corner of it inside, and no edge of it crossing an edge of `outer` properly.
fn polygon_within_polygon(footprint: &[Point], outer: &[Point]) -> bool {
    // Inside a convex outer polygon, an edge between two corners inside stays inside: for an
    // axis-aligned rectangle (a table's usual outline) the corners decide, exactly.
    if let Some((low, high)) = axis_rectangle(outer) {
        return footprint.iter().all(|&corner| {
            let c = P::of(corner);
            c.x >= low.x && c.x <= high.x && c.y >= low.y && c.y <= high.y
        });
    }
    polygon_within_polygon_exactly(footprint, outer)
}

/// The general test of [`polygon_within_polygon`].
fn polygon_within_polygon_exactly(footprint: &[Point], outer: &[Point]) -> bool {
    if !footprint
        .iter()
        .all(|&corner| polygon_contains(outer, P::of(corner)))
    {
        return false;
    }
    // Every corner is inside or on the boundary; an edge could still leave a non-convex
    // outer polygon between two corners: its midpoint (doubled, to stay integer) is then
    // outside, or it crosses an edge of `outer` properly.
    let doubled: Vec<Point> = outer.iter().map(|p| Point::new(p.x * 2, p.y * 2)).collect();
    polygon_edges(footprint).all(|(a, b)| {
        let mid = P {
            x: a.x + b.x,
            y: a.y + b.y,
        };
        let crossing = polygon_edges(outer).any(|(c, d)| proper_cross(a, b, c, d));
        !crossing && polygon_contains(&doubled, mid)
    })
}

fn orient(a: P, b: P, c: P) -> i128 {
    b.sub(a).cross(c.sub(a)).signum()
}

/// Whether open segments ab and cd cross at a single point inside both.
fn proper_cross(a: P, b: P, c: P, d: P) -> bool {
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    o1 * o2 < 0 && o3 * o4 < 0
}

/// Whether polygon `footprint` lies wholly within `area`.
pub fn footprint_wholly_within(footprint: &[Point], area: &Area) -> bool {
    match area {
        Area::Polygon(vertices) => polygon_within_polygon(footprint, vertices),
        // A disc is convex: the corners inside is enough.
        Area::Circle { .. } => footprint.iter().all(|&corner| area.contains(corner)),
    }
}

/// Compares the smallest distance between polygon `footprint` and `shape` with `distance`:
/// `Greater` when they are more than `distance` apart, `Equal` exactly `distance` apart (as
/// far as the exact comparison can tell: a touching pair at distance 0 is `Equal`), `Less`
/// closer (overlapping is closer than any positive distance).
pub fn footprint_gap_cmp(footprint: &[Point], shape: &Shape, distance: Length) -> Ordering {
    let threshold = i128::from(distance.as_tenth_mm().max(0));
    // Two shapes whose bounding boxes are more than `distance` apart are: the boxes' gap is
    // never more than the shapes'. Most shapes a footprint keeps away from are far from it.
    if let (Some(a), Some(b)) = (points_box(footprint), shape_box(shape)) {
        let dx = (b.0.0 - a.1.0).max(a.0.0 - b.1.0).max(0);
        let dy = (b.0.1 - a.1.1).max(a.0.1 - b.1.1).max(0);
        if dx.saturating_mul(dx).saturating_add(dy.saturating_mul(dy)) > threshold * threshold {
            return Ordering::Greater;
        }
    }
    exact_gap_cmp(footprint, shape, threshold)
}

/// [`footprint_gap_cmp`] without the bounding boxes' shortcut, `threshold` in tenths of a
/// millimetre.
fn exact_gap_cmp(footprint: &[Point], shape: &Shape, threshold: i128) -> Ordering {
    let corners_in = |vertices: &[Point]| {
        vertices
            .iter()
            .any(|&c| polygon_contains(footprint, P::of(c)))
    };
    // The distance from the footprint's boundary to a point, as a comparison with
    // `threshold`; inside the footprint counts as 0.
    let point_cmp = |p: P, threshold: i128| -> Ordering {
        if polygon_contains(footprint, p) {
            return 0.cmp(&threshold);
        }
        polygon_edges(footprint)
            .map(|(a, b)| segment_distance_cmp(p, a, b, threshold))
            .min()
            .unwrap_or(Ordering::Greater)
    };
    // Two closed segments: 0 if they meet, else the least of the four end-to-segment
    // distances.
    let segment_cmp = |a: P, b: P, c: P, d: P| -> Ordering {
        if segments_meet(a, b, c, d) {
            return 0.cmp(&threshold);
        }
        [
            segment_distance_cmp(a, c, d, threshold),
            segment_distance_cmp(b, c, d, threshold),
            segment_distance_cmp(c, a, b, threshold),
            segment_distance_cmp(d, a, b, threshold),
        ]
        .into_iter()
        .min()
        .unwrap_or(Ordering::Greater)
    };
    match shape {
        Shape::Point(point) => point_cmp(P::of(*point), threshold),
        Shape::Disc(centre, radius) => point_cmp(
            P::of(*centre),
            threshold + i128::from(radius.as_tenth_mm().max(0)),
        ),
        Shape::Segment(a, b) => {
            let (c, d) = (P::of(*a), P::of(*b));
            if polygon_contains(footprint, c) {
                return 0.cmp(&threshold);
            }
            polygon_edges(footprint)
                .map(|(a, b)| segment_cmp(a, b, c, d))
                .min()
                .unwrap_or(Ordering::Greater)
        }
        Shape::Polygon(vertices) => {
            if corners_in(vertices)
                || footprint
                    .iter()
                    .any(|&c| polygon_contains(vertices, P::of(c)))
            {
                return 0.cmp(&threshold);
            }
            polygon_edges(footprint)
                .flat_map(|(a, b)| polygon_edges(vertices).map(move |(c, d)| (a, b, c, d)))
                .map(|(a, b, c, d)| segment_cmp(a, b, c, d))
                .min()
                .unwrap_or(Ordering::Greater)
        }
    }
}

/// A box: its lowest and highest corners, `(x, y)` in `i128` (no sum or difference of
/// table coordinates overflows).
type BoxI = ((i128, i128), (i128, i128));

/// The box around `points`, `None` if there are none.
fn points_box(points: &[Point]) -> Option<BoxI> {
    let first = points.first()?;
    let start = (i128::from(first.x), i128::from(first.y));
    Some(points.iter().fold((start, start), |(low, high), p| {
        let (x, y) = (i128::from(p.x), i128::from(p.y));
        ((low.0.min(x), low.1.min(y)), (high.0.max(x), high.1.max(y)))
    }))
}

/// The box around a shape (a disc's reaches its radius; a negative radius counts as 0, as in
/// [`footprint_gap_cmp`]); `None` for an empty polygon.
fn shape_box(shape: &Shape) -> Option<BoxI> {
    match shape {
        Shape::Point(point) => points_box(&[*point]),
        Shape::Disc(centre, radius) => {
            let r = i128::from(radius.as_tenth_mm().max(0));
            let (x, y) = (i128::from(centre.x), i128::from(centre.y));
            Some(((x - r, y - r), (x + r, y + r)))
        }
        Shape::Segment(a, b) => points_box(&[*a, *b]),
        Shape::Polygon(vertices) => points_box(vertices),
    }
}

/// Checks a footprint (already at its place on the table) against `limits`.
///
/// # Examples
///
/// ```
/// use gloam_core::{Area, FootprintLimits, Length, LengthUnit, Point, Shape, check_footprint};
/// let square = |x: i64, y: i64, side: i64| vec![Point::new(x, y), Point::new(x + side, y), Point::new(x + side, y + side), Point::new(x, y + side)];
/// let zone = Area::Polygon(square(0, 0, 1000));
/// let limits = FootprintLimits {
///     zone: Some(("South".into(), zone)),
///     away: vec![("the wall".into(), Shape::Polygon(square(600, 0, 100)), Length::tenth_mm(50))],
///     outline: None,
/// };
/// assert!(check_footprint(&square(100, 100, 100), &limits, LengthUnit::Mm).is_ok());
/// // 40 from the wall: not more than 50.
/// assert!(check_footprint(&square(460, 0, 100), &limits, LengthUnit::Mm).is_err());
/// // Out of the zone.
/// assert!(check_footprint(&square(950, 0, 100), &limits, LengthUnit::Mm).is_err());
/// ```
pub fn check_footprint(
    footprint: &[Point],
    limits: &FootprintLimits,
    unit: LengthUnit,
) -> Result<(), FootprintRefused> {
    validate_polygon(footprint).map_err(|error| FootprintRefused(error.to_string()))?;
    check_valid_footprint(footprint, limits, unit)
}

/// [`check_footprint`] of a footprint already known to be a valid polygon.
fn check_valid_footprint(
    footprint: &[Point],
    limits: &FootprintLimits,
    unit: LengthUnit,
) -> Result<(), FootprintRefused> {
    if let Some(outline) = &limits.outline {
        if !polygon_within_polygon(footprint, outline) {
            return Err(FootprintRefused(
                "it would not lie wholly on the table".into(),
            ));
        }
    }
    if let Some((name, zone)) = &limits.zone {
        if !footprint_wholly_within(footprint, zone) {
            return Err(FootprintRefused(format!(
                "it would not lie wholly within {name}"
            )));
        }
    }
    for (name, shape, distance) in &limits.away {
        if footprint_gap_cmp(footprint, shape, *distance) != Ordering::Greater {
            let said = distance
                .format_in(unit)
                .unwrap_or_else(|| distance.to_string());
            return Err(FootprintRefused(format!(
                "it would be {said} or less from {name}; it must be more than {said} away"
            )));
        }
    }
    Ok(())
}

/// The footprint drawn around its own origin, moved so that its origin is at `at`
/// (saturating: a corner past the table's bounds is refused by the checks).
pub fn footprint_at(footprint: &[Point], at: Point) -> Vec<Point> {
    footprint
        .iter()
        .map(|p| Point::new(p.x.saturating_add(at.x), p.y.saturating_add(at.y)))
        .collect()
}

/// The most lattice points [`footprint_candidates`] tests, whatever the spacing asked: a
/// wider spacing is used past it.
const FOOTPRINT_SCAN_LIMIT: i64 = 4096;

/// Legal places for a footprint drawn around its own origin: the points of a square lattice
/// of `spacing` over the zone's bounding box (else the outline's), row by row from the
/// lowest, where [`check_footprint`] passes with the origin there; at most `max`, evenly
/// spread over the legal ones. Deterministic.
pub fn footprint_candidates(
    footprint: &[Point],
    limits: &FootprintLimits,
    spacing: Length,
    max: usize,
) -> Vec<Point> {
    let area = match (&limits.zone, &limits.outline) {
        (Some((_, zone)), _) => zone.clone(),
        (None, Some(outline)) => Area::Polygon(outline.clone()),
        (None, None) => return Vec::new(),
    };
    let Some((low, high)) = bounding_box(&area) else {
        return Vec::new();
    };
    if max == 0 || footprint.is_empty() {
        return Vec::new();
    }
    // Moving a polygon keeps it valid or not: it is validated once, and again only where a
    // corner's move saturates at the coordinates' bounds.
    let valid = validate_polygon(footprint).is_ok();
    lattice_scan(low, high, spacing, FOOTPRINT_SCAN_LIMIT, max, |at| {
        let exact = footprint
            .iter()
            .all(|p| p.x.checked_add(at.x).is_some() && p.y.checked_add(at.y).is_some());
        let placed = footprint_at(footprint, at);
        if valid && exact {
            check_valid_footprint(&placed, limits, LengthUnit::Mm).is_ok()
        } else {
            check_footprint(&placed, limits, LengthUnit::Mm).is_ok()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: i64, y: i64, side: i64) -> Vec<Point> {
        vec![
            Point::new(x, y),
            Point::new(x + side, y),
            Point::new(x + side, y + side),
            Point::new(x, y + side),
        ]
    }

    proptest::proptest! {
        #[test]
        fn a_rectangular_outline_holds_a_footprint_as_the_general_test_says(
            x0 in -500i64..500, y0 in -500i64..500, w in 1i64..800, h in 1i64..800,
            fx in -700i64..900, fy in -700i64..900, side in 1i64..300, tri: bool,
        ) {
            let outer = vec![
                Point::new(x0, y0),
                Point::new(x0 + w, y0),
                Point::new(x0 + w, y0 + h),
                Point::new(x0, y0 + h),
            ];
            let footprint = if tri {
                vec![Point::new(fx, fy), Point::new(fx + side, fy + side / 3), Point::new(fx + side / 2, fy + side)]
            } else {
                square(fx, fy, side)
            };
            proptest::prop_assert_eq!(
                polygon_within_polygon(&footprint, &outer),
                polygon_within_polygon_exactly(&footprint, &outer)
            );
        }
    }

    #[test]
    fn the_bounding_box_shortcut_never_changes_a_comparison() {
        // A footprint around many places against each kind of shape, at distances around
        // the exact gap: the shortcut answers only where the exact comparison says Greater.
        let triangle = vec![Point::new(0, 0), Point::new(90, 10), Point::new(30, 70)];
        let shapes = [
            Shape::Point(Point::new(200, 150)),
            Shape::Disc(Point::new(180, 60), Length::tenth_mm(40)),
            Shape::Segment(Point::new(150, -40), Point::new(260, 120)),
            Shape::Polygon(square(140, 90, 60)),
        ];
        let mut shortcuts = 0;
        for dx in (-100..=300).step_by(13) {
            for dy in (-100..=300).step_by(17) {
                let at = footprint_at(&triangle, Point::new(dx, dy));
                for shape in &shapes {
                    for d in [0, 5, 20, 47, 80, 150] {
                        let exact = exact_gap_cmp(&at, shape, i128::from(d));
                        let quick = footprint_gap_cmp(&at, shape, Length::tenth_mm(d));
                        assert_eq!(quick, exact, "{at:?} {shape:?} {d}");
                        if quick == Ordering::Greater {
                            shortcuts += 1;
                        }
                    }
                }
            }
        }
        assert!(shortcuts > 0);
    }

    #[test]
    fn gaps_are_exact_at_the_boundary() {
        let a = square(0, 0, 100);
        let b = Shape::Polygon(square(150, 0, 100));
        assert_eq!(
            footprint_gap_cmp(&a, &b, Length::tenth_mm(50)),
            Ordering::Equal
        );
        assert_eq!(
            footprint_gap_cmp(&a, &b, Length::tenth_mm(49)),
            Ordering::Greater
        );
        assert_eq!(
            footprint_gap_cmp(&a, &b, Length::tenth_mm(51)),
            Ordering::Less
        );
        // Overlap and containment are a gap of 0.
        let inside = Shape::Polygon(square(10, 10, 10));
        assert_eq!(
            footprint_gap_cmp(&a, &inside, Length::tenth_mm(0)),
            Ordering::Equal
        );
        assert_eq!(
            footprint_gap_cmp(&a, &inside, Length::tenth_mm(1)),
            Ordering::Less
        );
        // A diagonal gap: corner (100, 100) to corner (130, 140) is 50.
        let diagonal = Shape::Polygon(square(130, 140, 100));
        assert_eq!(
            footprint_gap_cmp(&a, &diagonal, Length::tenth_mm(50)),
            Ordering::Equal
        );
    }

    #[test]
    fn discs_segments_and_points() {
        let a = square(0, 0, 100);
        let disc = Shape::Disc(Point::new(200, 50), Length::tenth_mm(40));
        assert_eq!(
            footprint_gap_cmp(&a, &disc, Length::tenth_mm(60)),
            Ordering::Equal
        );
        let edge = Shape::Segment(Point::new(-50, -30), Point::new(500, -30));
        assert_eq!(
            footprint_gap_cmp(&a, &edge, Length::tenth_mm(30)),
            Ordering::Equal
        );
        assert_eq!(
            footprint_gap_cmp(&a, &edge, Length::tenth_mm(29)),
            Ordering::Greater
        );
        let point = Shape::Point(Point::new(50, 50));
        assert_eq!(
            footprint_gap_cmp(&a, &point, Length::tenth_mm(1)),
            Ordering::Less
        );
    }

    #[test]
    fn wholly_within_a_non_convex_zone() {
        // An L-shaped zone: the footprint's corners are all inside, but its top edge
        // leaves the zone across the notch.
        let zone = Area::Polygon(vec![
            Point::new(0, 0),
            Point::new(300, 0),
            Point::new(300, 300),
            Point::new(200, 300),
            Point::new(200, 100),
            Point::new(100, 100),
            Point::new(100, 300),
            Point::new(0, 300),
        ]);
        let across = vec![
            Point::new(50, 250),
            Point::new(250, 250),
            Point::new(250, 280),
            Point::new(50, 280),
        ];
        assert!(!footprint_wholly_within(&across, &zone));
        assert!(footprint_wholly_within(&square(0, 0, 100), &zone));
        assert!(footprint_wholly_within(&square(10, 10, 50), &zone));
    }

    #[test]
    fn candidates_are_legal_and_capped() {
        let zone = Area::Polygon(square(0, 0, 1000));
        let limits = FootprintLimits {
            zone: Some(("the zone".into(), zone)),
            away: vec![(
                "the pond".into(),
                Shape::Disc(Point::new(500, 500), Length::tenth_mm(100)),
                Length::tenth_mm(50),
            )],
            outline: None,
        };
        let footprint = square(0, 0, 200);
        let all = footprint_candidates(&footprint, &limits, Length::tenth_mm(100), 1000);
        assert!(!all.is_empty());
        for at in &all {
            check_footprint(&footprint_at(&footprint, *at), &limits, LengthUnit::Mm)
                .expect("every candidate is legal");
        }
        let few = footprint_candidates(&footprint, &limits, Length::tenth_mm(100), 5);
        assert_eq!(few.len(), 5);
        assert_eq!(few[0], all[0]);
    }
}
