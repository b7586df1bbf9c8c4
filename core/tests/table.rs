//! Property tests and scenarios for the continuous table geometry.

use std::cmp::Ordering;

use gloam_core::{
    ArcSide, ArcSpec, Area, Figure, HalfAngle, Length, LengthUnit, Point, Terrain, arc_of,
    base_contact, blocking_terrain, compare_edge_distance, distance_edge_to_edge, line_of_sight,
    overlapping, path_length, segment_clear, wholly_within, wholly_within_distance, within,
    within_area,
};
use proptest::prelude::*;

/// Coordinates small enough that translating by [`shift`] stays in bounds.
const RANGE: i64 = 400_000_000;

fn coord() -> impl Strategy<Value = i64> {
    prop_oneof![-RANGE..=RANGE, -2_000i64..=2_000]
}

fn point() -> impl Strategy<Value = Point> {
    (coord(), coord()).prop_map(|(x, y)| Point::new(x, y))
}

fn figure() -> impl Strategy<Value = Figure> {
    (
        point(),
        prop_oneof![0i64..=500, 0i64..=100_000_000],
        0i64..=1_000,
        (-50i64..=50, -50i64..=50),
    )
        .prop_map(|(centre, radius, height, facing)| {
            Figure::new(centre, Length::tenth_mm(radius))
                .with_height(Length::tenth_mm(height))
                .with_facing(facing)
        })
}

fn length() -> impl Strategy<Value = Length> {
    prop_oneof![0i64..=3_000, 0i64..=2_000_000_000].prop_map(Length::tenth_mm)
}

fn shift() -> impl Strategy<Value = (i64, i64)> {
    (-RANGE..=RANGE, -RANGE..=RANGE)
}

fn moved(point: Point, (dx, dy): (i64, i64)) -> Point {
    Point::new(point.x + dx, point.y + dy)
}

fn moved_figure(figure: &Figure, by: (i64, i64)) -> Figure {
    Figure {
        centre: moved(figure.centre, by),
        ..*figure
    }
}

/// A convex or concave (star-shaped) polygon around a centre.
fn polygon() -> impl Strategy<Value = Vec<Point>> {
    (point(), prop::collection::vec(1i64..=1_000, 3..=8)).prop_map(|(centre, radii)| {
        // Directions around the compass, one per vertex, in counter-clockwise order.
        let directions = [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ];
        let step = directions.len() / radii.len();
        radii
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let (dx, dy) = directions[i * step];
                Point::new(centre.x + dx * r, centre.y + dy * r)
            })
            .collect()
    })
}

fn area() -> impl Strategy<Value = Area> {
    prop_oneof![
        (point(), length()).prop_map(|(centre, radius)| Area::Circle { centre, radius }),
        polygon().prop_map(Area::Polygon),
    ]
}

fn moved_area(area: &Area, by: (i64, i64)) -> Area {
    match area {
        Area::Circle { centre, radius } => Area::Circle {
            centre: moved(*centre, by),
            radius: *radius,
        },
        Area::Polygon(vertices) => Area::Polygon(vertices.iter().map(|v| moved(*v, by)).collect()),
        other => other.clone(),
    }
}

fn half_angle() -> impl Strategy<Value = HalfAngle> {
    prop::sample::select(vec![
        HalfAngle::Deg30,
        HalfAngle::Deg45,
        HalfAngle::Deg60,
        HalfAngle::Deg90,
        HalfAngle::Deg120,
        HalfAngle::Deg135,
        HalfAngle::Deg150,
        HalfAngle::Deg180,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn edge_distance_any_pair_symmetric(a in figure(), b in figure(), d in length()) {
        prop_assert_eq!(distance_edge_to_edge(&a, &b), distance_edge_to_edge(&b, &a));
        prop_assert_eq!(within(&a, &b, d), within(&b, &a, d));
        prop_assert_eq!(base_contact(&a, &b), base_contact(&b, &a));
        prop_assert_eq!(overlapping(&a, &b), overlapping(&b, &a));
    }

    #[test]
    fn within_any_pair_agrees_with_rounded_distance(a in figure(), b in figure(), d in length()) {
        // The rounded-down distance is the floor of the exact one: a strict compare decides,
        // equality needs the exact test.
        let rounded = distance_edge_to_edge(&a, &b);
        match rounded.cmp(&d) {
            Ordering::Less => prop_assert!(within(&a, &b, d)),
            Ordering::Greater => prop_assert!(!within(&a, &b, d)),
            Ordering::Equal => {
                prop_assert!(within(&a, &b, d + Length::tenth_mm(1)));
                let exact = compare_edge_distance(&a, &b, d) == Ordering::Equal;
                prop_assert_eq!(within(&a, &b, d), exact);
            }
        }
        prop_assert!(within(&a, &b, rounded + Length::tenth_mm(1)));
    }

    #[test]
    fn within_at_own_distance_when_exact(a in figure(), dx in -5_000i64..=5_000, dy in -5_000i64..=5_000) {
        let b = Figure::new(moved(a.centre, (dx, dy)), Length::tenth_mm(7));
        let distance = distance_edge_to_edge(&a, &b);
        let squared = dx * dx + dy * dy;
        let root = squared.isqrt();
        if root * root == squared {
            prop_assert!(within(&a, &b, distance));
        }
        prop_assert_eq!(overlapping(&a, &b) || base_contact(&a, &b), within(&a, &b, Length::ZERO));
    }

    #[test]
    fn wholly_within_circle_grows_with_radius(f in figure(), centre in point(), r in length(), extra in length()) {
        let small = Area::Circle { centre, radius: r };
        let large = Area::Circle { centre, radius: r + extra };
        if wholly_within(&f, &small) {
            prop_assert!(wholly_within(&f, &large));
            prop_assert!(within_area(&f, &small, Length::ZERO));
        }
        prop_assert_eq!(wholly_within(&f, &small), wholly_within_distance(&f, centre, r));
    }

    #[test]
    fn wholly_within_polygon_implies_centre_inside(f in figure(), vertices in polygon()) {
        let area = Area::Polygon(vertices);
        if wholly_within(&f, &area) {
            prop_assert!(area.contains(f.centre));
            prop_assert!(within_area(&f, &area, Length::ZERO));
        }
        if area.contains(f.centre) {
            prop_assert!(within_area(&f, &area, Length::ZERO));
        }
    }

    #[test]
    fn predicates_any_translation_invariant(
        a in figure(), b in figure(), area in area(), d in length(), by in shift(),
        front in half_angle(), rear in half_angle(),
    ) {
        let (ma, mb, marea) = (moved_figure(&a, by), moved_figure(&b, by), moved_area(&area, by));
        prop_assert_eq!(distance_edge_to_edge(&a, &b), distance_edge_to_edge(&ma, &mb));
        prop_assert_eq!(compare_edge_distance(&a, &b, d), compare_edge_distance(&ma, &mb, d));
        prop_assert_eq!(base_contact(&a, &b), base_contact(&ma, &mb));
        prop_assert_eq!(overlapping(&a, &b), overlapping(&ma, &mb));
        prop_assert_eq!(wholly_within(&a, &area), wholly_within(&ma, &marea));
        prop_assert_eq!(within_area(&a, &area, d), within_area(&ma, &marea, d));
        prop_assert_eq!(area.contains(b.centre), marea.contains(mb.centre));
        let arcs = ArcSpec { front, rear };
        prop_assert_eq!(arc_of(&a, b.centre, &arcs), arc_of(&ma, mb.centre, &arcs));
        prop_assert_eq!(
            segment_clear(a.centre, b.centre, a.radius, &[b]),
            segment_clear(ma.centre, mb.centre, ma.radius, &[mb])
        );
        prop_assert_eq!(path_length(&[a.centre, b.centre]), path_length(&[ma.centre, mb.centre]));
    }

    #[test]
    fn line_of_sight_any_translation_invariant(a in figure(), b in figure(), vertices in polygon(), by in shift()) {
        let terrain = [Terrain { footprint: vertices, height: Length::tenth_mm(500), tags: vec![] }];
        let moved_terrain = [Terrain {
            footprint: terrain[0].footprint.iter().map(|v| moved(*v, by)).collect(),
            ..terrain[0].clone()
        }];
        prop_assert_eq!(
            blocking_terrain(&a, &b, &terrain),
            blocking_terrain(&moved_figure(&a, by), &moved_figure(&b, by), &moved_terrain)
        );
    }

    #[test]
    fn arcs_any_nesting_consistent(
        observer in figure(), target in point(), first in half_angle(), second in half_angle(),
    ) {
        // A wider front arc never turns a front target into a non-front one.
        let (narrower, wider) = (first.min(second), first.max(second));
        let narrow = ArcSpec { front: narrower, rear: HalfAngle::Deg30 };
        let wide = ArcSpec { front: wider, rear: HalfAngle::Deg30 };
        if arc_of(&observer, target, &narrow) == ArcSide::Front {
            prop_assert_eq!(arc_of(&observer, target, &wide), ArcSide::Front);
        }
        prop_assert!(HalfAngle::Deg180.includes(observer.facing, (target.x, target.y)));
        // With 90°/90° every target is front or rear, never side.
        let halves = ArcSpec { front: HalfAngle::Deg90, rear: HalfAngle::Deg90 };
        prop_assert_ne!(arc_of(&observer, target, &halves), ArcSide::Side);
    }

    #[test]
    fn segment_clear_any_path_checks_endpoints(from in point(), to in point(), r in 0i64..=1_000, obstacle in figure()) {
        let radius = Length::tenth_mm(r);
        if segment_clear(from, to, radius, &[obstacle]) {
            prop_assert!(!overlapping(&Figure::new(from, radius), &obstacle));
            prop_assert!(!overlapping(&Figure::new(to, radius), &obstacle));
        }
    }

    #[test]
    fn path_length_any_path_not_shorter_than_straight(a in point(), b in point(), c in point()) {
        prop_assert!(path_length(&[a, b, c]) >= path_length(&[a, c]));
        prop_assert!(path_length(&[a, b]) >= a.distance_to(b));
    }

    #[test]
    fn parse_any_text_never_panics(text in "[-+0-9. a-z\"]{0,24}", tenths in any::<i64>()) {
        let _ = Length::parse(&text, LengthUnit::Inch);
        let _ = text.parse::<Length>();
        for unit in [LengthUnit::Mm, LengthUnit::Cm] {
            let formatted = Length::tenth_mm(tenths).format_in(unit).unwrap_or_default();
            prop_assert_eq!(formatted.parse::<Length>(), Ok(Length::tenth_mm(tenths)));
        }
    }

    #[test]
    fn parse_any_whole_units_round_trips(n in -1_000_000i64..=1_000_000) {
        for unit in [LengthUnit::Mm, LengthUnit::Cm, LengthUnit::Inch] {
            prop_assert_eq!(Length::parse(&n.to_string(), unit), Ok(Length::of(n, unit)));
            let text = Length::of(n, unit).format_in(unit).unwrap_or_default();
            prop_assert_eq!(text.parse::<Length>(), Ok(Length::of(n, unit)));
        }
    }
}

#[test]
fn spearhead_charge_ends_within_half_inch() {
    // Two 32 mm bases; a charger must end within 1/2" of its target.
    let half_inch = Length::parse("0.5", LengthUnit::Inch).unwrap_or_default();
    let target = Figure::new(Point::ORIGIN, Length::mm(16));
    let at = |x| Figure::new(Point::new(x, 0), Length::mm(16));
    assert!(within(&target, &at(320 + 127), half_inch));
    assert!(!within(&target, &at(320 + 128), half_inch));
    assert!(base_contact(&target, &at(320)));
    assert!(overlapping(&target, &at(319)));
}

#[test]
fn umbra_turris_disengage_exactly_one_cm() {
    // A disengaging model must end exactly 1 cm away, edge to edge.
    let enemy = Figure::new(Point::ORIGIN, Length::cm(1));
    let placed = Figure::new(Point::at(Length::cm(3), Length::cm(4)), Length::cm(3));
    assert_eq!(distance_edge_to_edge(&enemy, &placed), Length::cm(1));
    assert_eq!(
        compare_edge_distance(&enemy, &placed, Length::cm(1)),
        Ordering::Equal
    );
}

#[test]
fn deployment_wholly_within_strip() {
    // A 44" x 8" deployment strip; a 25 mm base sits flush against the back edge.
    let strip = Area::Polygon(vec![
        Point::ORIGIN,
        Point::at(Length::inches(44), Length::ZERO),
        Point::at(Length::inches(44), Length::inches(8)),
        Point::at(Length::ZERO, Length::inches(8)),
    ]);
    let radius = Length::tenth_mm(125);
    let flush = Figure::new(Point::at(Length::inches(10), radius), radius);
    assert!(wholly_within(&flush, &strip));
    let over = Figure::new(
        Point::at(Length::inches(10), radius - Length::tenth_mm(1)),
        radius,
    );
    assert!(!wholly_within(&over, &strip));
    assert!(within_area(&over, &strip, Length::ZERO));
}

#[test]
fn rear_attack_uses_reversed_facing() {
    let arcs = ArcSpec {
        front: HalfAngle::Deg60,
        rear: HalfAngle::Deg45,
    };
    let defender = Figure::new(Point::ORIGIN, Length::cm(1)).with_facing((0, 1));
    let attacker = Figure::new(Point::new(0, 50), Length::cm(1));
    let turned = defender.facing_towards(attacker.centre);
    assert_eq!(arc_of(&defender, Point::new(0, -50), &arcs), ArcSide::Rear);
    assert_eq!(arc_of(&defender, Point::new(50, -50), &arcs), ArcSide::Rear);
    assert_eq!(arc_of(&defender, Point::new(50, -49), &arcs), ArcSide::Side);
    assert_eq!(arc_of(&turned, attacker.centre, &arcs), ArcSide::Front);
}

#[test]
fn line_of_sight_low_wall_does_not_block_tall_target() {
    let wall = Terrain {
        footprint: vec![
            Point::new(50, -100),
            Point::new(60, -100),
            Point::new(60, 100),
            Point::new(50, 100),
        ],
        height: Length::cm(2),
        tags: vec!["obstacle".to_owned()],
    };
    let a = Figure::new(Point::ORIGIN, Length::cm(1)).with_height(Length::cm(3));
    let short = Figure::new(Point::new(200, 0), Length::cm(1)).with_height(Length::cm(1));
    let tall = Figure::new(Point::new(200, 0), Length::cm(1)).with_height(Length::cm(3));
    assert!(!line_of_sight(&a, &short, std::slice::from_ref(&wall)));
    assert!(line_of_sight(&a, &tall, std::slice::from_ref(&wall)));
}

/// Worked examples at exact boundaries (public API only).
mod examples {
    use gloam_core::*;

    fn figure(x: i64, y: i64, r: i64) -> Figure {
        Figure::new(Point::new(x, y), Length::tenth_mm(r))
    }

    fn square_area(side: i64) -> Area {
        Area::Polygon(vec![
            Point::new(0, 0),
            Point::new(side, 0),
            Point::new(side, side),
            Point::new(0, side),
        ])
    }

    #[test]
    fn length_inch_is_25_4_mm() {
        assert_eq!(Length::inches(1).as_tenth_mm(), 254);
        assert_eq!(Length::inches(5), Length::mm(127));
        assert_eq!(Length::cm(7), Length::mm(70));
        assert_eq!(Length::of(3, LengthUnit::Inch), Length::inches(3));
    }

    #[test]
    fn length_parse_accepts_units_and_decimals() {
        let inch = LengthUnit::Inch;
        assert_eq!(Length::parse("2.5", inch), Ok(Length::tenth_mm(635)));
        assert_eq!(Length::parse("2.50", inch), Ok(Length::tenth_mm(635)));
        assert_eq!(
            Length::parse(" 3\" ", LengthUnit::Cm),
            Ok(Length::inches(3))
        );
        assert_eq!(Length::parse("1.5 cm", inch), Ok(Length::mm(15)));
        assert_eq!(
            Length::parse("-0.5in", LengthUnit::Cm),
            Ok(Length::tenth_mm(-127))
        );
        assert_eq!(Length::parse("+12", LengthUnit::Mm), Ok(Length::mm(12)));
        assert_eq!("0.3mm".parse::<Length>(), Ok(Length::tenth_mm(3)));
        assert_eq!("6 inches".parse::<Length>(), Ok(Length::inches(6)));
    }

    #[test]
    fn length_parse_refuses_bad_text() {
        let cm = LengthUnit::Cm;
        let invalid =
            |t: &str| matches!(Length::parse(t, cm), Err(TableError::InvalidLength { .. }));
        for text in ["", "cm", "1.", ".5", "1.2.3", "--1", "1-2", "1e3"] {
            assert!(
                invalid(text)
                    || matches!(Length::parse(text, cm), Err(TableError::UnknownUnit { .. })),
                "{text}"
            );
        }
        assert!(matches!(
            Length::parse("1ft", cm),
            Err(TableError::UnknownUnit { .. })
        ));
        assert!(matches!(
            Length::parse("0.1", LengthUnit::Inch),
            Err(TableError::TooPrecise { .. })
        ));
        assert!(matches!(
            Length::parse("0.25in", cm),
            Err(TableError::TooPrecise { .. })
        ));
        assert!(matches!(
            Length::parse("0.05mm", cm),
            Err(TableError::TooPrecise { .. })
        ));
        assert!(matches!(
            "12".parse::<Length>(),
            Err(TableError::MissingUnit { .. })
        ));
        assert!(matches!(
            Length::parse("99999999999999999999", cm),
            Err(TableError::LengthOutOfRange { .. })
        ));
        let long = format!("1.{}1", "0".repeat(60));
        assert!(matches!(
            Length::parse(&long, cm),
            Err(TableError::TooPrecise { .. })
        ));
    }

    #[test]
    fn length_display_and_format_in_are_exact() {
        assert_eq!(Length::inches(1).to_string(), "25.4mm");
        assert_eq!(Length::cm(2).to_string(), "20mm");
        assert_eq!(Length::tenth_mm(-5).to_string(), "-0.5mm");
        assert_eq!(
            Length::tenth_mm(127).format_in(LengthUnit::Inch).as_deref(),
            Some("0.5in")
        );
        assert_eq!(
            Length::mm(15).format_in(LengthUnit::Cm).as_deref(),
            Some("1.5cm")
        );
        assert_eq!(
            Length::tenth_mm(-3).format_in(LengthUnit::Cm).as_deref(),
            Some("-0.03cm")
        );
        assert_eq!(Length::mm(1).format_in(LengthUnit::Inch), None);
    }

    #[test]
    fn length_arithmetic_saturates() {
        assert_eq!(
            Length::tenth_mm(i64::MAX) + Length::tenth_mm(1),
            Length::tenth_mm(i64::MAX)
        );
        assert_eq!(-Length::tenth_mm(i64::MIN), Length::tenth_mm(i64::MAX));
        assert_eq!(Length::inches(i64::MAX), Length::tenth_mm(i64::MAX));
        assert_eq!(Length::cm(3) - Length::mm(5), Length::mm(25));
    }

    #[test]
    fn edge_distance_in_inches_and_cm() {
        // Spearhead: 32 mm bases 6" apart centre to centre.
        let a = Figure::new(Point::ORIGIN, Length::mm(16));
        let b = Figure::new(Point::at(Length::inches(6), Length::ZERO), Length::mm(16));
        assert_eq!(distance_edge_to_edge(&a, &b), Length::tenth_mm(1524 - 320));
        // Umbra Turris: 2 cm and 3 cm radii, centres (30 cm, 40 cm) apart: 50 - 5 = 45 cm.
        let c = Figure::new(Point::ORIGIN, Length::cm(2));
        let d = Figure::new(Point::at(Length::cm(30), Length::cm(40)), Length::cm(3));
        assert_eq!(distance_edge_to_edge(&c, &d), Length::cm(45));
        assert!(within(&c, &d, Length::cm(45)));
        assert!(!within(&c, &d, Length::cm(45) - Length::tenth_mm(1)));
    }

    #[test]
    fn edge_distance_overlapping_bases_is_zero() {
        let a = figure(0, 0, 50);
        let b = figure(60, 0, 50);
        assert_eq!(distance_edge_to_edge(&a, &b), Length::ZERO);
        assert!(overlapping(&a, &b));
        assert!(within(&a, &b, Length::ZERO));
        assert!(!within(&a, &b, Length::tenth_mm(-1)));
    }

    #[test]
    fn edge_distance_irrational_rounds_down_but_within_is_exact() {
        let a = figure(0, 0, 0);
        let b = figure(1, 1, 0);
        assert_eq!(distance_edge_to_edge(&a, &b), Length::tenth_mm(1));
        assert!(!within(&a, &b, Length::tenth_mm(1)));
        assert!(within(&a, &b, Length::tenth_mm(2)));
    }

    #[test]
    fn base_contact_exact_only() {
        let a = figure(0, 0, 20);
        assert!(base_contact(&a, &figure(30, 40, 30)));
        assert!(!base_contact(&a, &figure(30, 41, 30)));
        assert!(!overlapping(&a, &figure(30, 40, 30)));
        assert!(!base_contact(&a, &figure(30, 39, 30)));
    }

    #[test]
    fn wholly_within_circle_boundary_inclusive() {
        let zone = Area::Circle {
            centre: Point::ORIGIN,
            radius: Length::tenth_mm(100),
        };
        assert!(wholly_within(&figure(60, 0, 40), &zone));
        assert!(!wholly_within(&figure(61, 0, 40), &zone));
        assert!(wholly_within(&figure(36, 48, 40), &zone)); // 60 + 40 = 100
        assert!(!wholly_within(&figure(0, 0, 101), &zone));
    }

    #[test]
    fn wholly_within_polygon_boundary_and_concave() {
        assert!(wholly_within(&figure(10, 10, 10), &square_area(20)));
        assert!(!wholly_within(&figure(10, 10, 11), &square_area(20)));
        // An L-shape: the base fits the corridor but not across the notch corner (20, 20).
        let l_shape = Area::Polygon(vec![
            Point::new(0, 0),
            Point::new(40, 0),
            Point::new(40, 20),
            Point::new(20, 20),
            Point::new(20, 40),
            Point::new(0, 40),
        ]);
        assert!(wholly_within(&figure(10, 30, 10), &l_shape));
        // Centre (16, 16) is sqrt(32) ≈ 5.66 from the reflex corner (20, 20).
        assert!(wholly_within(&figure(16, 16, 5), &l_shape));
        assert!(!wholly_within(&figure(16, 16, 6), &l_shape));
        // Touching three edges at once is still inside.
        assert!(wholly_within(&figure(28, 10, 10), &l_shape));
        assert!(!wholly_within(&figure(30, 30, 1), &l_shape));
    }

    #[test]
    fn within_area_measures_to_nearest_edge() {
        let zone = square_area(100);
        assert!(within_area(
            &figure(130, 50, 10),
            &zone,
            Length::tenth_mm(20)
        ));
        assert!(!within_area(
            &figure(130, 50, 10),
            &zone,
            Length::tenth_mm(19)
        ));
        // Diagonal from the corner (100, 100): distance 50 to (130, 140).
        assert!(within_area(
            &figure(130, 140, 20),
            &zone,
            Length::tenth_mm(30)
        ));
        assert!(!within_area(
            &figure(130, 140, 20),
            &zone,
            Length::tenth_mm(29)
        ));
        assert!(within_area(&figure(50, 50, 0), &zone, Length::ZERO));
        assert!(!within_area(
            &figure(50, 50, 0),
            &zone,
            Length::tenth_mm(-1)
        ));
    }

    #[test]
    fn wholly_within_distance_of_point() {
        assert!(wholly_within_distance(
            &figure(30, 40, 10),
            Point::ORIGIN,
            Length::tenth_mm(60)
        ));
        assert!(!wholly_within_distance(
            &figure(30, 40, 10),
            Point::ORIGIN,
            Length::tenth_mm(59)
        ));
    }

    #[test]
    fn arc_boundaries_are_exact() {
        let arcs = |front, rear| ArcSpec { front, rear };
        let north = figure(0, 0, 10).with_facing((0, 1));
        let half = arcs(HalfAngle::Deg90, HalfAngle::Deg90);
        assert_eq!(arc_of(&north, Point::new(7, 0), &half), ArcSide::Front);
        assert_eq!(arc_of(&north, Point::new(7, -1), &half), ArcSide::Rear);
        let narrow = arcs(HalfAngle::Deg45, HalfAngle::Deg45);
        assert_eq!(arc_of(&north, Point::new(3, 3), &narrow), ArcSide::Front);
        assert_eq!(arc_of(&north, Point::new(4, 3), &narrow), ArcSide::Side);
        assert_eq!(arc_of(&north, Point::new(-3, -3), &narrow), ArcSide::Rear);
        assert_eq!(arc_of(&north, Point::new(-3, -2), &narrow), ArcSide::Side);
        // 60°: (4, 6) is at 56.3° (inside), (3, 6) at 63.4° (outside).
        let sixty = arcs(HalfAngle::Deg60, HalfAngle::Deg60);
        let east = figure(0, 0, 10).with_facing((1, 0));
        assert_eq!(arc_of(&east, Point::new(1, 2), &sixty), ArcSide::Side);
        assert_eq!(arc_of(&east, Point::new(4, 6), &sixty), ArcSide::Front);
        assert_eq!(arc_of(&east, Point::new(3, 6), &sixty), ArcSide::Side);
        assert_eq!(arc_of(&east, Point::new(-4, 6), &sixty), ArcSide::Rear);
        // 120° front (wide) and 135°: the exact 135° direction (-1, 1) is inside.
        assert!(HalfAngle::Deg135.includes((1, 0), (-1, 1)));
        assert!(!HalfAngle::Deg135.includes((1, 0), (-4, 3)));
        assert!(HalfAngle::Deg120.includes((1, 0), (-4, 7)));
        assert!(!HalfAngle::Deg120.includes((1, 0), (-4, 6)));
        assert!(HalfAngle::Deg180.includes((1, 0), (-1, 0)));
        assert!(HalfAngle::Deg30.includes((1, 0), (7, 4)));
        assert!(!HalfAngle::Deg30.includes((1, 0), (6, 4)));
        assert!(HalfAngle::Deg150.includes((1, 0), (-6, 4)));
        assert!(!HalfAngle::Deg150.includes((1, 0), (-7, 4)));
    }

    #[test]
    fn arc_without_facing_is_front() {
        let arcs = ArcSpec {
            front: HalfAngle::Deg45,
            rear: HalfAngle::Deg45,
        };
        assert_eq!(
            arc_of(&figure(0, 0, 1), Point::new(-5, 0), &arcs),
            ArcSide::Front
        );
        let faced = figure(0, 0, 1).with_facing((1, 0));
        assert_eq!(arc_of(&faced, Point::ORIGIN, &arcs), ArcSide::Front);
    }

    #[test]
    fn facing_towards_reduces_and_keeps_direction() {
        let hero = figure(100, 100, 10);
        assert_eq!(hero.facing_towards(Point::new(100, 50)).facing, (0, -1));
        assert_eq!(hero.facing_towards(Point::new(100, 100)), hero);
        assert_eq!(hero.facing_towards(Point::new(-200, 400)).facing, (-1, 1));
    }

    #[test]
    fn line_of_sight_blocked_by_tall_terrain_and_corners() {
        let block = |height| Terrain {
            footprint: vec![
                Point::new(40, 10),
                Point::new(60, 10),
                Point::new(60, 30),
                Point::new(40, 30),
            ],
            height: Length::tenth_mm(height),
            tags: vec!["obscuring".to_owned()],
        };
        let a = figure(0, 0, 5);
        let b = figure(100, 0, 5).with_height(Length::tenth_mm(50));
        // The segment y = 0 passes below the block.
        assert!(line_of_sight(&a, &b, &[block(100)]));
        // The segment to (100, 20) crosses the block's lower right part: blocked only when
        // the block is taller than the target.
        let c = figure(100, 20, 5).with_height(Length::tenth_mm(50));
        assert!(!line_of_sight(&a, &c, &[block(100)]));
        assert!(line_of_sight(&a, &c, &[block(50)]));
        // From (0, 20) to (80, 0) the segment only touches the corner (40, 10): blocked.
        let from = figure(0, 20, 5);
        assert_eq!(
            blocking_terrain(&from, &figure(80, 0, 5), &[block(1)]),
            vec![0]
        );
        // To (80, -1) it passes at y = 9.5 under the corner: clear.
        assert!(line_of_sight(&from, &figure(80, -1, 5), &[block(1)]));
        assert!(block(1).has_tag("obscuring"));
    }

    #[test]
    fn line_of_sight_blocked_when_inside_footprint() {
        let wood = Terrain {
            footprint: vec![Point::new(-10, -10), Point::new(10, -10), Point::new(0, 10)],
            height: Length::cm(1),
            tags: vec![],
        };
        assert!(!line_of_sight(
            &figure(0, 0, 1),
            &figure(1, 0, 1),
            std::slice::from_ref(&wood)
        ));
    }

    #[test]
    fn path_length_rounds_each_segment_up() {
        assert_eq!(path_length(&[]), Length::ZERO);
        assert_eq!(path_length(&[Point::ORIGIN]), Length::ZERO);
        let path = [Point::new(0, 0), Point::new(1, 1), Point::new(2, 2)];
        assert_eq!(path_length(&path), Length::tenth_mm(4));
    }

    #[test]
    fn segment_clear_touching_allowed_and_ends_checked() {
        let rock = figure(50, 20, 10);
        let (from, to) = (Point::new(0, 0), Point::new(100, 0));
        assert!(segment_clear(from, to, Length::tenth_mm(10), &[rock]));
        assert!(!segment_clear(from, to, Length::tenth_mm(11), &[rock]));
        // The obstacle beyond the end: distance to (100, 0) from (130, 40) is 50.
        let far = figure(130, 40, 20);
        assert!(segment_clear(from, to, Length::tenth_mm(30), &[far]));
        assert!(!segment_clear(from, to, Length::tenth_mm(31), &[far]));
        assert!(segment_clear(from, from, Length::tenth_mm(30), &[far]));
    }

    #[test]
    fn polygon_validation_catches_bad_shapes() {
        let p = Point::new;
        assert!(validate_polygon(&[p(0, 0), p(10, 0), p(0, 10)]).is_ok());
        assert_eq!(
            validate_polygon(&[p(0, 0), p(1, 0)]),
            Err(TableError::TooFewVertices { count: 2 })
        );
        assert_eq!(
            validate_polygon(&[p(0, 0), p(0, 0), p(0, 10)]),
            Err(TableError::ZeroLengthEdge { edge: 0 })
        );
        assert!(validate_polygon(&[p(0, 0), p(10, 0), p(20, 0)]).is_err());
        assert!(validate_polygon(&[p(0, 0), p(10, 0), p(5, 0), p(5, 5)]).is_err());
        assert!(matches!(
            validate_polygon(&[p(0, 0), p(COORD_LIMIT + 1, 0), p(0, 10)]),
            Err(TableError::CoordinateOutOfRange { .. })
        ));
        assert!(square_area(20).validate().is_ok());
    }

    #[test]
    fn figure_validation_checks_bounds() {
        assert!(figure(0, 0, 1).validate().is_ok());
        assert!(figure(0, 0, -1).validate().is_err());
        assert!(figure(0, COORD_LIMIT + 1, 1).validate().is_err());
        assert!(
            figure(0, 0, 1)
                .with_facing((FACING_LIMIT + 1, 0))
                .validate()
                .is_err()
        );
    }

    #[test]
    fn extreme_inputs_do_not_panic() {
        let far = Figure::new(Point::new(i64::MIN, i64::MAX), Length::tenth_mm(i64::MAX))
            .with_facing((i64::MIN, i64::MAX));
        let near = figure(i64::MAX, i64::MIN, i64::MIN);
        let big = Length::tenth_mm(i64::MAX);
        let _ = distance_edge_to_edge(&far, &near);
        assert!(within(&far, &near, big));
        assert!(overlapping(&far, &near));
        let _ = arc_of(
            &far,
            Point::new(i64::MAX, 0),
            &ArcSpec {
                front: HalfAngle::Deg30,
                rear: HalfAngle::Deg150,
            },
        );
        let _ = path_length(&[far.centre, near.centre, far.centre]);
        assert!(!segment_clear(far.centre, near.centre, big, &[near]));
        assert!(wholly_within(
            &near,
            &Area::Circle {
                centre: Point::ORIGIN,
                radius: big
            }
        ));
        assert!(within_area(&far, &square_area(i64::MAX), big));
    }

    #[test]
    fn serde_round_trips() {
        let terrain = Terrain {
            footprint: vec![Point::new(1, 2)],
            height: Length::cm(1),
            tags: vec!["x".to_owned()],
        };
        let text = serde_json::to_string(&terrain).unwrap_or_default();
        assert_eq!(serde_json::from_str::<Terrain>(&text).ok(), Some(terrain));
        let f = figure(1, 2, 3).with_facing((0, 1));
        let text = serde_json::to_string(&f).unwrap_or_default();
        assert_eq!(serde_json::from_str::<Figure>(&text).ok(), Some(f));
        assert_eq!(
            serde_json::to_string(&Length::inches(1)).ok().as_deref(),
            Some("254")
        );
    }
}
