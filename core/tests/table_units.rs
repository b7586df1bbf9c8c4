//! Groups of pieces, path legality and candidate points on a measured table.
//!
//! Distances a ruleset supplies (combat range, a charge's reach, coherency) are given here as
//! data parameters, parsed from text as a ruleset's file would give them. Boundaries cite
//! the digest `/work/shared/rules/tabletop.md` (B7, B9, B10, B12) and the Spearhead seed
//! `004_5dd7fe0a0935a945.txt` lines it names.

use std::collections::BTreeMap;

use gloam_core::{
    Area, CandidateKind, Coherency, CoherencyBreak, Figure, Gap, GroupId, Lattice, Length,
    LengthUnit, PathLimits, PieceId, PlaceLimits, PlayerId, Point, Refusal, Scene, SceneError,
    Subject, TablePiece, Target, Terrain, base_contact, check_coherency, check_formation,
    check_group_paths, check_path, check_placement, controller, distance_edge_to_edge,
    formation_candidates, placement_candidates, wholly_within, within,
};
use proptest::prelude::*;

/// A length from a ruleset's text, in inches by default.
fn inches(text: &str) -> Length {
    Length::parse(text, LengthUnit::Inch).expect("a length")
}

/// Combat range, from data (digest B12: 3", not in the seed).
fn combat_range() -> Length {
    inches("3")
}

/// A charge's required end distance, from data (seed 004 L134, digest B9: ½").
fn charge_reach() -> Length {
    inches("0.5")
}

/// 25 mm round bases: radius 125 tenths of a millimetre.
const R25: i64 = 125;

fn piece(id: u16, side: u8, group: u32, x: i64, y: i64, radius: i64) -> TablePiece {
    TablePiece {
        id: PieceId(id),
        side: PlayerId(side),
        group: GroupId(group),
        figure: Figure::new(Point::new(x, y), Length::tenth_mm(radius)),
    }
}

fn scene(pieces: Vec<TablePiece>) -> Scene {
    Scene {
        pieces,
        ..Scene::default()
    }
}

fn square(x0: i64, y0: i64, x1: i64, y1: i64) -> Vec<Point> {
    vec![
        Point::new(x0, y0),
        Point::new(x1, y0),
        Point::new(x1, y1),
        Point::new(x0, y1),
    ]
}

fn leg(from: (i64, i64), to: (i64, i64)) -> Vec<Point> {
    vec![Point::new(from.0, from.1), Point::new(to.0, to.1)]
}

// ----- distances and "within" -----

#[test]
fn combat_range_three_inches_exactly_is_in_range() {
    // Digest B12 "Combat range": within 3" (inclusive), edge to edge.
    let range = combat_range().as_tenth_mm();
    let at = |x| scene(vec![piece(0, 0, 0, 0, 0, R25), piece(1, 1, 1, x, 0, R25)]);
    let me = Subject::Piece(PieceId(0));
    assert!(
        at(range + 2 * R25)
            .in_range_of_enemy(me, combat_range())
            .unwrap()
    );
    assert!(
        !at(range + 2 * R25 + 1)
            .in_range_of_enemy(me, combat_range())
            .unwrap()
    );
}

#[test]
fn group_in_range_when_any_model_is() {
    let range = combat_range().as_tenth_mm();
    let table = scene(vec![
        piece(0, 0, 0, 0, 0, R25),
        piece(1, 0, 0, 0, 2_000, R25),
        piece(2, 1, 5, range + 2 * R25, 2_000, R25),
    ]);
    assert!(
        !table
            .in_range_of_enemy(Subject::Piece(PieceId(0)), combat_range())
            .unwrap()
    );
    assert!(
        table
            .in_range_of_enemy(Subject::Group(GroupId(0)), combat_range())
            .unwrap()
    );
    assert!(
        table
            .in_range_of_enemy(Subject::Group(GroupId(5)), combat_range())
            .unwrap()
    );
}

#[test]
fn gap_compares_exactly_where_rounding_ties() {
    // Centres √(1000² + 1²) apart: 1000.0005 — rounds down to the same 1000 as 1000 exactly.
    let a = Figure::new(Point::ORIGIN, Length::tenth_mm(100));
    let b = Figure::new(Point::new(1000, 1), Length::tenth_mm(100));
    let c = Figure::new(Point::new(1000, 0), Length::tenth_mm(100));
    assert_eq!(Gap::between(&a, &b).floor(), Gap::between(&a, &c).floor());
    assert!(Gap::between(&a, &b) > Gap::between(&a, &c));
    assert_eq!(
        Gap::between(&a, &c).cmp_length(Length::tenth_mm(800)),
        std::cmp::Ordering::Equal
    );
    assert_eq!(
        Gap::between(&a, &b).cmp_length(Length::tenth_mm(800)),
        std::cmp::Ordering::Greater
    );
    assert_eq!(
        Gap::of_length(Length::tenth_mm(-5)),
        Gap::of_length(Length::ZERO)
    );
}

#[test]
fn closest_pair_and_nearest_enemy_ties_go_to_scene_order() {
    let table = scene(vec![
        piece(0, 0, 0, 0, 0, 10),
        piece(1, 1, 1, 100, 0, 10),
        piece(2, 1, 1, -100, 0, 10),
        piece(3, 1, 2, 0, 50, 10),
    ]);
    let (enemy, gap) = table.nearest_enemy(PieceId(0)).unwrap().unwrap();
    assert_eq!((enemy, gap.floor()), (PieceId(3), Length::tenth_mm(30)));
    let (mine, theirs, _) = table
        .closest(Subject::Piece(PieceId(0)), &Target::Group(GroupId(1)))
        .unwrap()
        .unwrap();
    assert_eq!((mine, theirs), (PieceId(0), PieceId(1)));
    assert_eq!(
        table.closest(Subject::Piece(PieceId(0)), &Target::Edge),
        Err(SceneError::NoOutline)
    );
    assert!(matches!(
        table.closest(Subject::Piece(PieceId(0)), &Target::Point(Point::ORIGIN)),
        Err(SceneError::Unsupported { .. })
    ));
    // A piece is never its own closest piece.
    assert_eq!(
        table
            .closest(Subject::Piece(PieceId(0)), &Target::Piece(PieceId(0)))
            .unwrap(),
        None
    );
    let lone = scene(vec![piece(0, 0, 0, 0, 0, 10)]);
    assert_eq!(lone.nearest_enemy(PieceId(0)).unwrap(), None);
}

#[test]
fn unknown_pieces_and_groups_are_errors() {
    let table = scene(vec![piece(0, 0, 0, 0, 0, 10)]);
    assert_eq!(
        table.within(Subject::Piece(PieceId(9)), &Target::Edge, Length::ZERO),
        Err(SceneError::UnknownPiece { piece: PieceId(9) })
    );
    assert_eq!(
        table.within(
            Subject::Piece(PieceId(0)),
            &Target::Group(GroupId(4)),
            Length::ZERO
        ),
        Err(SceneError::UnknownGroup { group: GroupId(4) })
    );
    assert_eq!(
        table.gap(PieceId(0), PieceId(3)),
        Err(SceneError::UnknownPiece { piece: PieceId(3) })
    );
}

#[test]
fn within_and_wholly_within_a_point_boundaries() {
    let table = |x| scene(vec![piece(0, 0, 0, x, 0, R25)]);
    let me = Subject::Piece(PieceId(0));
    let objective = Target::Point(Point::ORIGIN);
    let d = combat_range();
    // Within: centre at d + r.
    assert!(table(762 + R25).within(me, &objective, d).unwrap());
    assert!(!table(762 + R25 + 1).within(me, &objective, d).unwrap());
    // Wholly within: centre at d - r.
    assert!(table(762 - R25).wholly_within(me, &objective, d).unwrap());
    assert!(
        !table(762 - R25 + 1)
            .wholly_within(me, &objective, d)
            .unwrap()
    );
    assert!(
        !table(0)
            .within(me, &objective, Length::tenth_mm(-1))
            .unwrap()
    );
    assert!(
        !table(0)
            .wholly_within(me, &objective, Length::tenth_mm(-1))
            .unwrap()
    );
}

#[test]
fn wholly_within_a_piece_and_a_group() {
    // A small base wholly within 1" of a big one: centre distance + r_small <= 1" + r_big.
    let table = |x| {
        scene(vec![
            piece(0, 0, 0, x, 0, 100),
            piece(1, 1, 1, 0, 0, 400),
            piece(2, 1, 1, 5_000, 0, 400),
        ])
    };
    let me = Subject::Piece(PieceId(0));
    let limit = 254 + 400 - 100;
    assert!(
        table(limit)
            .wholly_within(me, &Target::Piece(PieceId(1)), inches("1"))
            .unwrap()
    );
    assert!(
        !table(limit + 1)
            .wholly_within(me, &Target::Piece(PieceId(1)), inches("1"))
            .unwrap()
    );
    assert!(
        table(limit)
            .wholly_within(me, &Target::Group(GroupId(1)), inches("1"))
            .unwrap()
    );
    assert!(
        table(limit)
            .wholly_within(me, &Target::EnemiesOf(PlayerId(0)), inches("1"))
            .unwrap()
    );
    // Near the second piece instead: still wholly within the group (of one of its bases).
    assert!(
        table(5_000 - limit)
            .wholly_within(me, &Target::Group(GroupId(1)), inches("1"))
            .unwrap()
    );
}

#[test]
fn wholly_within_an_area_by_a_tenth_either_way() {
    // Digest B3 / B10: set-up "wholly within" a territory; boundary inclusive.
    let zone = Area::Polygon(square(0, 0, 10_000, 5_000));
    let table = |x, y| {
        scene(vec![
            piece(0, 0, 0, x, y, R25),
            piece(1, 0, 0, 5_000, 2_500, R25),
        ])
    };
    let us = Subject::Group(GroupId(0));
    let target = Target::Area(zone.clone());
    assert!(
        table(R25, 2_000)
            .wholly_within(us, &target, Length::ZERO)
            .unwrap()
    );
    assert!(
        !table(R25 - 1, 2_000)
            .wholly_within(us, &target, Length::ZERO)
            .unwrap()
    );
    assert!(
        table(2_000, 5_000 - R25)
            .wholly_within(us, &target, Length::ZERO)
            .unwrap()
    );
    assert!(
        !table(2_000, 5_000 - R25 + 1)
            .wholly_within(us, &target, Length::ZERO)
            .unwrap()
    );
    // Any part within: the base's edge reaches the zone's edge from outside.
    assert!(
        table(-R25, 2_000)
            .within(us, &target, Length::ZERO)
            .unwrap()
    );
    assert!(
        !table(-R25 - 1, 2_000)
            .within(Subject::Piece(PieceId(0)), &target, Length::ZERO)
            .unwrap()
    );
    // A convex polygon grown by d is measured exactly, d below the base's radius too: the
    // base wholly inside the zone is within a tenth of it; a tenth outside, within a tenth
    // but not within nothing; two tenths outside, not within a tenth.
    let by = |x, tenths| {
        table(x, 2_000)
            .wholly_within(us, &target, Length::tenth_mm(tenths))
            .unwrap()
    };
    assert!(by(R25, 1) && by(3_000, 1));
    assert!(by(R25 - 1, 1) && !by(R25 - 1, 0));
    assert!(!by(R25 - 2, 1));
    assert!(by(R25 - 2, 2));
    // A concave polygon grown by d is not measured: the error says to draw it in data.
    let notch = Area::Polygon(vec![
        Point::new(0, 0),
        Point::new(10_000, 0),
        Point::new(10_000, 5_000),
        Point::new(5_000, 2_500),
        Point::new(0, 5_000),
    ]);
    assert!(matches!(
        table(R25, 1_000).wholly_within(us, &Target::Area(notch), Length::tenth_mm(1)),
        Err(SceneError::Unsupported { .. })
    ));
    // A circle grown by d is exact: objective of radius 20 mm, wholly within 3" of it.
    let disc = Target::Area(Area::Circle {
        centre: Point::ORIGIN,
        radius: Length::mm(20),
    });
    let one = |x| scene(vec![piece(0, 0, 0, x, 0, R25)]);
    let me = Subject::Piece(PieceId(0));
    assert!(
        one(200 + 762 - R25)
            .wholly_within(me, &disc, combat_range())
            .unwrap()
    );
    assert!(
        !one(200 + 762 - R25 + 1)
            .wholly_within(me, &disc, combat_range())
            .unwrap()
    );
}

#[test]
fn table_edge_within_and_wholly_within_six_inches() {
    // Digest B10: reinforcements "wholly within 6" of the battlefield edge". A 44" x 30"
    // table (digest B12, "Battlefield").
    let six = inches("6");
    let outline = square(0, 0, 44 * 254, 30 * 254);
    let table = |x, y| Scene {
        pieces: vec![piece(0, 0, 0, x, y, R25)],
        outline: outline.clone(),
        ..Scene::default()
    };
    let me = Subject::Piece(PieceId(0));
    let y = 15 * 254;
    assert!(
        table(6 * 254 - R25, y)
            .wholly_within(me, &Target::Edge, six)
            .unwrap()
    );
    assert!(
        !table(6 * 254 - R25 + 1, y)
            .wholly_within(me, &Target::Edge, six)
            .unwrap()
    );
    assert!(
        table(6 * 254 + R25, y)
            .within(me, &Target::Edge, six)
            .unwrap()
    );
    assert!(
        !table(6 * 254 + R25 + 1, y)
            .within(me, &Target::Edge, six)
            .unwrap()
    );
    // The top edge counts as well.
    assert!(
        table(22 * 254, 24 * 254 + R25)
            .wholly_within(me, &Target::Edge, six)
            .unwrap()
    );
    // A base wider than the distance is never wholly within it.
    assert!(
        !table(0, y)
            .wholly_within(me, &Target::Edge, Length::tenth_mm(R25 - 1))
            .unwrap()
    );
    assert_eq!(
        scene(vec![piece(0, 0, 0, 0, 0, R25)]).within(me, &Target::Edge, six),
        Err(SceneError::NoOutline)
    );
}

// ----- coherency -----

fn coherency(distance: &str, neighbours: u32) -> Coherency {
    Coherency {
        distance: inches(distance),
        neighbours,
    }
}

#[test]
fn coherency_half_inch_exactly() {
    // Digest B12 "Coherency": values are data (low confidence); here ½" and 1 neighbour.
    let rule = coherency("0.5", 1);
    let line = |gap: i64| {
        (0..3)
            .map(|i| piece(i, 0, 0, i64::from(i) * (2 * R25 + gap), 0, R25))
            .collect::<Vec<_>>()
    };
    assert_eq!(check_coherency(&line(127), &rule), Ok(()));
    assert_eq!(
        check_coherency(&line(128), &rule),
        Err(CoherencyBreak::TooFewNeighbours {
            piece: PieceId(0),
            has: 0,
            needs: 1,
            distance: inches("0.5"),
        })
    );
}

#[test]
fn coherency_needs_are_capped_by_group_size_and_group_must_connect() {
    let rule = coherency("0.5", 2);
    let pair = vec![piece(0, 0, 0, 0, 0, R25), piece(1, 0, 0, 2 * R25, 0, R25)];
    assert_eq!(check_coherency(&pair, &rule), Ok(()));
    assert_eq!(check_coherency(&pair[..1], &rule), Ok(()));
    assert_eq!(check_coherency(&[], &rule), Ok(()));
    // Two tight triangles far apart: every piece has two neighbours, but the group splits.
    let triangle = |first: u16, x: i64| {
        vec![
            piece(first, 0, 0, x, 0, R25),
            piece(first + 1, 0, 0, x + 2 * R25, 0, R25),
            piece(first + 2, 0, 0, x + R25, 2 * R25, R25),
        ]
    };
    let mut split = triangle(0, 0);
    split.extend(triangle(3, 10_000));
    let broken = check_coherency(&split, &rule).unwrap_err();
    assert_eq!(
        broken,
        CoherencyBreak::Split {
            parts: vec![
                vec![PieceId(0), PieceId(1), PieceId(2)],
                vec![PieceId(3), PieceId(4), PieceId(5)]
            ]
        }
    );
    assert_eq!(
        broken.to_string(),
        "the group has split into 2 parts: [piece0, piece1, piece2] and [piece3, piece4, piece5]"
    );
    let table = scene(split);
    assert!(table.coherency(GroupId(0), &rule).is_err());
    assert!(table.coherency(GroupId(9), &rule).is_ok());
}

// ----- objectives -----

#[test]
fn control_sums_by_side_within_three_inches_exactly() {
    // Digest B12 "Objective control": summed Control within 3"; the higher total controls.
    let objective = Area::Circle {
        centre: Point::ORIGIN,
        radius: Length::ZERO,
    };
    let reach = combat_range().as_tenth_mm() + R25;
    let table = scene(vec![
        piece(0, 0, 0, reach, 0, R25),
        piece(1, 0, 0, 0, reach, R25),
        piece(2, 1, 1, -reach, 0, R25),
        piece(3, 1, 1, 0, -reach - 1, R25),
    ]);
    let values = BTreeMap::from([
        (PieceId(0), 1),
        (PieceId(1), 1),
        (PieceId(2), 2),
        (PieceId(3), 5),
    ]);
    let totals = table.control(&objective, combat_range(), &values);
    assert_eq!(totals, BTreeMap::from([(PlayerId(0), 2), (PlayerId(1), 2)]));
    assert_eq!(controller(&totals), None);
    let totals = table.control(&objective, combat_range() + Length::tenth_mm(1), &values);
    assert_eq!(totals, BTreeMap::from([(PlayerId(0), 2), (PlayerId(1), 7)]));
    assert_eq!(controller(&totals), Some(PlayerId(1)));
    assert_eq!(controller(&BTreeMap::from([(PlayerId(0), 0)])), None);
    assert_eq!(controller(&BTreeMap::new()), None);
}

// ----- the scene -----

#[test]
fn scene_validation_reports_problems() {
    let ok = scene(vec![piece(0, 0, 0, 0, 0, 10), piece(1, 1, 1, 100, 0, 10)]);
    assert_eq!(ok.validate(), Ok(()));
    let twice = scene(vec![piece(0, 0, 0, 0, 0, 10), piece(0, 1, 1, 100, 0, 10)]);
    assert_eq!(
        twice.validate(),
        Err(SceneError::DuplicatePiece { piece: PieceId(0) })
    );
    let mixed = scene(vec![piece(0, 0, 0, 0, 0, 10), piece(1, 1, 0, 100, 0, 10)]);
    assert_eq!(
        mixed.validate(),
        Err(SceneError::MixedSides { group: GroupId(0) })
    );
    let overlap = scene(vec![piece(0, 0, 0, 0, 0, 10), piece(1, 1, 1, 19, 0, 10)]);
    assert_eq!(
        overlap.validate(),
        Err(SceneError::Overlap {
            first: PieceId(0),
            second: PieceId(1)
        })
    );
    let touching = scene(vec![piece(0, 0, 0, 0, 0, 10), piece(1, 1, 1, 20, 0, 10)]);
    assert_eq!(touching.validate(), Ok(()));
    let bad_outline = Scene {
        outline: vec![Point::ORIGIN, Point::new(1, 1)],
        ..ok.clone()
    };
    assert!(matches!(
        bad_outline.validate(),
        Err(SceneError::Geometry { .. })
    ));
    assert_eq!(ok.groups(), vec![GroupId(0), GroupId(1)]);
}

// ----- paths -----

fn limits(budget: &str) -> PathLimits {
    PathLimits::new(inches(budget), LengthUnit::Inch)
}

#[test]
fn budget_is_exact_for_one_leg_and_rounded_up_per_leg() {
    let table = scene(vec![piece(0, 0, 0, 0, 0, R25)]);
    let three = limits("3");
    assert!(check_path(&table, PieceId(0), &leg((0, 0), (762, 0)), &three).is_ok());
    let refused = check_path(&table, PieceId(0), &leg((0, 0), (762, 1)), &three).unwrap_err();
    assert!(matches!(refused.reason, Refusal::TooLong { .. }));
    assert_eq!(
        refused.to_string(),
        "piece0 cannot go there: the path is 76.3mm (about 3.00in) long, 0.1mm more than the 3in allowed"
    );
    // Whole legs add exactly: 500 + 462.
    let bent = [Point::ORIGIN, Point::new(300, 400), Point::new(762, 400)];
    let budget = |tenths| PathLimits::new(Length::tenth_mm(tenths), LengthUnit::Inch);
    assert!(check_path(&table, PieceId(0), &bent, &budget(962)).is_ok());
    assert!(check_path(&table, PieceId(0), &bent, &budget(961)).is_err());
    // Irrational legs round up (1.414… → 2 each): never under-counted, a tenth at most each.
    let zigzag = [Point::ORIGIN, Point::new(1, 1), Point::new(2, 2)];
    assert!(check_path(&table, PieceId(0), &zigzag, &budget(4)).is_ok());
    assert!(check_path(&table, PieceId(0), &zigzag, &budget(3)).is_err());
    // One leg is exact: √8 = 2.83 fits in 3.
    assert!(check_path(&table, PieceId(0), &leg((0, 0), (2, 2)), &budget(3)).is_ok());
    let zero = PathLimits::new(Length::ZERO, LengthUnit::Inch);
    assert!(check_path(&table, PieceId(0), &[Point::ORIGIN], &zero).is_ok());
}

#[test]
fn path_start_bounds_and_unknown_piece() {
    let table = scene(vec![piece(0, 0, 0, 0, 0, R25)]);
    let six = limits("6");
    assert_eq!(
        check_path(&table, PieceId(0), &[], &six)
            .unwrap_err()
            .reason,
        Refusal::NoPath
    );
    assert!(matches!(
        check_path(&table, PieceId(0), &leg((1, 0), (5, 0)), &six)
            .unwrap_err()
            .reason,
        Refusal::WrongStart { .. }
    ));
    assert!(matches!(
        check_path(&table, PieceId(0), &leg((0, 0), (2_000_000_000, 0)), &six)
            .unwrap_err()
            .reason,
        Refusal::OutOfBounds { .. }
    ));
    // The most negative i64 is out of bounds too (it once overflowed `abs`).
    assert!(matches!(
        check_path(&table, PieceId(0), &leg((0, 0), (i64::MIN, 0)), &six)
            .unwrap_err()
            .reason,
        Refusal::OutOfBounds { .. }
    ));
    assert!(Point::checked(0, i64::MIN).is_err());
    assert!(
        Figure::new(Point::ORIGIN, Length::ZERO)
            .with_facing((i64::MIN, 0))
            .validate()
            .is_err()
    );
    let unknown = check_path(&table, PieceId(4), &leg((0, 0), (5, 0)), &six).unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "piece4 cannot go there: piece4 is not on the table"
    );
}

#[test]
fn normal_move_never_within_combat_range_along_the_way() {
    // Seed 004 L84-98, digest B9: a Normal Move or Run may not move into combat at any point.
    let range = combat_range().as_tenth_mm();
    let enemy_y = range + 2 * R25; // gap exactly 3" from the line y = 0
    let table = scene(vec![
        piece(0, 0, 0, 0, 0, R25),
        piece(1, 1, 1, 1_000, enemy_y, R25),
    ]);
    let normal = limits("8").never_within(combat_range());
    // Passing straight under the enemy: closest approach exactly 3", mid-leg.
    let refused = check_path(&table, PieceId(0), &leg((0, 0), (2_000, 0)), &normal).unwrap_err();
    assert_eq!(
        refused.reason,
        Refusal::IntoRange {
            enemy: PieceId(1),
            leg: 1,
            limit: combat_range(),
            closest: combat_range(),
        }
    );
    // One tenth farther out: legal.
    let table = scene(vec![
        piece(0, 0, 0, 0, 0, R25),
        piece(1, 1, 1, 1_000, enemy_y + 1, R25),
    ]);
    assert!(check_path(&table, PieceId(0), &leg((0, 0), (2_000, 0)), &normal).is_ok());
    // Friends do not count.
    let friends = scene(vec![
        piece(0, 0, 0, 0, 0, R25),
        piece(1, 0, 1, 1_000, 300, R25),
    ]);
    assert!(check_path(&friends, PieceId(0), &leg((0, 0), (2_000, 0)), &normal).is_ok());
}

#[test]
fn retreat_may_pass_through_range_but_not_end_in_it() {
    // Seed 004 L100-110, digest B9: Retreat passes through combat ranges, ends outside all.
    let range = combat_range().as_tenth_mm();
    let table = scene(vec![
        piece(0, 0, 0, 0, 0, R25),
        piece(1, 1, 1, 2 * R25 + 100, 0, R25),
    ]);
    let retreat = limits("6").not_end_within(combat_range());
    let away = |x| leg((0, 0), (x, 0));
    // The enemy's edge sits at x = R25 + 100; ending 3" exactly from it is still in combat.
    let end_exact = R25 + 100 - range - R25;
    let refused = check_path(&table, PieceId(0), &away(end_exact), &retreat).unwrap_err();
    assert_eq!(
        refused.reason,
        Refusal::EndsInRange {
            enemy: PieceId(1),
            limit: combat_range(),
            gap: combat_range(),
        }
    );
    assert_eq!(
        refused.to_string(),
        "piece0 cannot go there: it would end within 3in of enemy piece1 (3in away)"
    );
    assert!(check_path(&table, PieceId(0), &away(end_exact - 1), &retreat).is_ok());
    // Around the enemy and out the far side: passing within range is allowed.
    let around = [
        Point::ORIGIN,
        Point::new(0, 400),
        Point::new(1_500, 400),
        Point::new(1_500, 0),
    ];
    let far = limits("12").not_end_within(combat_range());
    assert!(check_path(&table, PieceId(0), &around, &far).is_ok());
}

#[test]
fn charge_must_end_within_half_an_inch_exactly() {
    // Seed 004 L124-134, digest B9: a charge must end within ½" of an enemy unit.
    let table = scene(vec![
        piece(0, 0, 0, 0, 0, R25),
        piece(1, 1, 1, 3_000, 0, R25),
        piece(2, 1, 1, 3_000, 1_000, R25),
    ]);
    let charge = limits("12").end_within(Target::Group(GroupId(1)), charge_reach());
    let end_exact = 3_000 - 2 * R25 - charge_reach().as_tenth_mm();
    assert!(check_path(&table, PieceId(0), &leg((0, 0), (end_exact, 0)), &charge).is_ok());
    let refused = check_path(
        &table,
        PieceId(0),
        &leg((0, 0), (end_exact - 1, 0)),
        &charge,
    )
    .unwrap_err();
    assert_eq!(
        refused.reason,
        Refusal::EndsOutOfReach {
            target: "group1".to_owned(),
            limit: charge_reach(),
            closest: Some(Length::tenth_mm(128)),
        }
    );
    assert_eq!(
        refused.to_string(),
        "piece0 cannot go there: it must end within 0.5in of group1 but would end 12.8mm (about 0.50in) away"
    );
    // Any enemy will do with `EnemiesOf`.
    let any = limits("12").end_within(Target::EnemiesOf(PlayerId(0)), charge_reach());
    assert!(check_path(&table, PieceId(0), &leg((0, 0), (end_exact, 0)), &any).is_ok());
}

#[test]
fn pile_in_ends_no_farther_from_the_nearest_enemy() {
    // Digest B12 "Pile-in move": up to 3", ending no farther from the nearest enemy.
    let table = scene(vec![
        piece(0, 0, 0, 0, 0, R25),
        piece(1, 1, 1, 1_000, 0, R25),
        piece(2, 1, 1, -1_100, 0, R25),
    ]);
    let pile_in = limits("4").no_farther_from_enemy();
    // Sideways on the circle around the nearest enemy: the same gap (600, 800 from it).
    assert!(check_path(&table, PieceId(0), &leg((0, 0), (400, 800)), &pile_in).is_ok());
    // One tenth outside that circle: farther.
    let refused = check_path(&table, PieceId(0), &leg((0, 0), (400, 801)), &pile_in).unwrap_err();
    assert!(matches!(refused.reason, Refusal::FartherFromEnemy { .. }));
    // Toward the other enemy, which becomes the nearest: fine.
    assert!(check_path(&table, PieceId(0), &leg((0, 0), (-300, 0)), &pile_in).is_ok());
}

#[test]
fn bases_block_unless_allowed_and_never_end_overlapping() {
    let table = scene(vec![
        piece(0, 0, 0, 0, 0, R25),
        piece(1, 0, 1, 1_000, 2 * R25 - 10, R25),
    ]);
    let eight = limits("8");
    let across = leg((0, 0), (2_000, 0));
    let refused = check_path(&table, PieceId(0), &across, &eight).unwrap_err();
    assert_eq!(
        refused.reason,
        Refusal::ThroughPiece {
            other: PieceId(1),
            leg: 1,
            by: Length::tenth_mm(10),
        }
    );
    assert_eq!(
        refused.to_string(),
        "piece0 cannot go there: on leg 1 it would pass through the base of piece1 (overlapping it by 1mm (about 0.04in))"
    );
    let pass = limits("8").may_pass([PieceId(1)]);
    assert!(check_path(&table, PieceId(0), &across, &pass).is_ok());
    let onto = leg((0, 0), (1_000, 0));
    assert!(matches!(
        check_path(&table, PieceId(0), &onto, &pass)
            .unwrap_err()
            .reason,
        Refusal::EndsOnPiece {
            other: PieceId(1),
            ..
        }
    ));
    // Grazing the base (touching) is not passing through it.
    let table = scene(vec![
        piece(0, 0, 0, 0, 0, R25),
        piece(1, 0, 1, 1_000, 2 * R25, R25),
    ]);
    assert!(check_path(&table, PieceId(0), &across, &eight).is_ok());
}

#[test]
fn terrain_impassable_and_no_stop() {
    // Digest B7 "Unstable": may cross, may not end on; impassable terrain is not crossed.
    let wall = Terrain {
        footprint: square(1_000, -500, 1_200, 500),
        height: inches("2"),
        tags: vec![],
    };
    let table = Scene {
        pieces: vec![piece(0, 0, 0, 0, 0, R25)],
        terrain: vec![wall],
        ..Scene::default()
    };
    let across = leg((0, 0), (2_000, 0));
    assert!(check_path(&table, PieceId(0), &across, &limits("8")).is_ok());
    let blocked = limits("8").impassable([0]);
    assert_eq!(
        check_path(&table, PieceId(0), &across, &blocked)
            .unwrap_err()
            .reason,
        Refusal::ThroughTerrain { terrain: 0, leg: 1 }
    );
    // Sliding past the wall's corner, touching it: allowed.
    let past = leg((0, 500 + R25), (2_000, 500 + R25));
    let table_past = Scene {
        pieces: vec![piece(0, 0, 0, 0, 500 + R25, R25)],
        ..table.clone()
    };
    assert!(check_path(&table_past, PieceId(0), &past, &blocked).is_ok());
    let table_graze = Scene {
        pieces: vec![piece(0, 0, 0, 0, 500 + R25 - 1, R25)],
        ..table.clone()
    };
    let graze = leg((0, 500 + R25 - 1), (2_000, 500 + R25 - 1));
    assert!(check_path(&table_graze, PieceId(0), &graze, &blocked).is_err());
    let unstable = limits("8").no_stop([0]);
    assert!(check_path(&table, PieceId(0), &across, &unstable).is_ok());
    let onto = leg((0, 0), (1_100, 0));
    assert_eq!(
        check_path(&table, PieceId(0), &onto, &unstable)
            .unwrap_err()
            .reason,
        Refusal::EndsOnTerrain { terrain: 0 }
    );
    // Ending with the base's edge touching the footprint is not ending on it.
    let beside = leg((0, 0), (1_000 - R25, 0));
    assert!(check_path(&table, PieceId(0), &beside, &unstable).is_ok());
    let into = leg((0, 0), (1_000 - R25 + 1, 0));
    assert!(check_path(&table, PieceId(0), &into, &unstable).is_err());
}

#[test]
fn bases_stay_on_the_table() {
    let table = Scene {
        pieces: vec![piece(0, 0, 0, 1_000, 1_000, R25)],
        outline: square(0, 0, 10_000, 10_000),
        ..Scene::default()
    };
    let to = |x, y| leg((1_000, 1_000), (x, y));
    assert!(check_path(&table, PieceId(0), &to(R25, 1_000), &limits("6")).is_ok());
    assert_eq!(
        check_path(&table, PieceId(0), &to(R25 - 1, 1_000), &limits("6"))
            .unwrap_err()
            .reason,
        Refusal::OffTable { leg: 1 }
    );
    let mut free = limits("6");
    free.on_table = false;
    assert!(check_path(&table, PieceId(0), &to(0, 1_000), &free).is_ok());
    // A concave table (an L): cutting across the missing corner leaves it.
    let l_shape = Scene {
        pieces: vec![piece(0, 0, 0, 1_000, 4_000, R25)],
        outline: vec![
            Point::new(0, 0),
            Point::new(5_000, 0),
            Point::new(5_000, 2_000),
            Point::new(2_000, 2_000),
            Point::new(2_000, 5_000),
            Point::new(0, 5_000),
        ],
        ..Scene::default()
    };
    let cut = leg((1_000, 4_000), (4_000, 1_000));
    assert_eq!(
        check_path(&l_shape, PieceId(0), &cut, &limits("24"))
            .unwrap_err()
            .reason,
        Refusal::OffTable { leg: 1 }
    );
    let around = [
        Point::new(1_000, 4_000),
        Point::new(1_000, 1_000),
        Point::new(4_000, 1_000),
    ];
    assert!(check_path(&l_shape, PieceId(0), &around, &limits("24")).is_ok());
}

#[test]
fn formation_moves_ignore_their_own_pieces_and_charge_with_any() {
    let table = scene(vec![
        piece(0, 0, 0, 0, 0, R25),
        piece(1, 0, 0, 2 * R25, 0, R25),
        piece(2, 0, 0, 4 * R25, 0, R25),
        piece(3, 1, 1, 2_000, 0, R25),
    ]);
    let forward = Point::new(2 * R25, 0);
    assert!(check_formation(&table, GroupId(0), forward, &limits("1")).is_ok());
    // The lead piece would run into the enemy (its mates never block it).
    let far = Point::new(2_000 - 4 * R25 - 2 * R25 + 1, 0);
    let refused = check_formation(&table, GroupId(0), far, &limits("12")).unwrap_err();
    assert_eq!(refused.piece, PieceId(2));
    assert_eq!(
        refused.reason,
        Refusal::ThroughPiece {
            other: PieceId(3),
            leg: 1,
            by: Length::tenth_mm(1)
        }
    );
    assert!(check_formation(&table, GroupId(0), Point::new(far.x - 1, 0), &limits("12")).is_ok());
    // A charge: some model ends within ½".
    let charge = limits("12").end_within(Target::Group(GroupId(1)), charge_reach());
    let exact = Point::new(2_000 - 6 * R25 - 127, 0);
    assert!(check_formation(&table, GroupId(0), exact, &charge).is_ok());
    let short = Point::new(exact.x - 1, 0);
    let refused = check_formation(&table, GroupId(0), short, &charge).unwrap_err();
    assert!(matches!(refused.reason, Refusal::EndsOutOfReach { .. }));
    assert!(check_formation(&table, GroupId(7), forward, &limits("1")).is_err());
}

#[test]
fn group_paths_move_one_after_another() {
    let table = scene(vec![
        piece(0, 0, 0, 0, 0, R25),
        piece(1, 0, 0, 1_000, 0, R25),
    ]);
    let six = limits("6");
    // Piece 0 moves next to where piece 1 will go; then piece 1 cannot pass through it.
    let paths = vec![
        (PieceId(0), leg((0, 0), (500, 0))),
        (PieceId(1), leg((1_000, 0), (0, 0))),
    ];
    let refused = check_group_paths(&table, GroupId(0), &paths, &six, None).unwrap_err();
    assert_eq!(refused.piece, PieceId(1));
    assert!(matches!(
        refused.reason,
        Refusal::ThroughPiece {
            other: PieceId(0),
            ..
        }
    ));
    // The other order is fine, and the returned scene has both moved.
    let paths = vec![
        (PieceId(1), leg((1_000, 0), (1_000, 500))),
        (PieceId(0), leg((0, 0), (1_000, 0))),
    ];
    let after = check_group_paths(&table, GroupId(0), &paths, &six, None).unwrap();
    assert_eq!(
        after.piece(PieceId(0)).unwrap().figure.centre,
        Point::new(1_000, 0)
    );
    assert_eq!(
        after.piece(PieceId(1)).unwrap().figure.centre,
        Point::new(1_000, 500)
    );
    // Coherency at the end: centres 500 apart leave a 250 gap, more than ½" (127).
    let rule = coherency("0.5", 1);
    let refused = check_group_paths(&table, GroupId(0), &paths, &six, Some(&rule)).unwrap_err();
    assert!(matches!(refused.reason, Refusal::Incoherent(_)));
    // A piece twice, or of another group.
    let twice = vec![
        (PieceId(0), leg((0, 0), (1, 0))),
        (PieceId(0), leg((1, 0), (2, 0))),
    ];
    assert!(matches!(
        check_group_paths(&table, GroupId(0), &twice, &six, None)
            .unwrap_err()
            .reason,
        Refusal::NotInGroup { .. }
    ));
}

// ----- placement -----

#[test]
fn placement_in_territory_away_from_enemy_territory_and_off_objectives() {
    // Seed 004 L11-13, digest B3: wholly within friendly territory and more than 6" from
    // enemy territory.
    let ours = Area::Polygon(square(0, 0, 44 * 254, 15 * 254));
    let theirs = Area::Polygon(square(0, 20 * 254, 44 * 254, 30 * 254));
    let deploy = PlaceLimits::new(LengthUnit::Inch)
        .in_zone(ours)
        .away_from(Target::Area(theirs), inches("6"));
    let at = |id, x, y| piece(id, 0, 0, x, y, R25);
    let table = Scene {
        outline: square(0, 0, 44 * 254, 30 * 254),
        ..Scene::default()
    };
    assert!(check_placement(&table, &[at(0, 1_000, 1_000)], &deploy).is_ok());
    // 6" from their territory exactly: not "more than".
    let edge = 14 * 254 - R25;
    let refused = check_placement(&table, &[at(0, 1_000, edge)], &deploy).unwrap_err();
    assert_eq!(
        refused.reason,
        Refusal::TooClose {
            target: "the area".to_owned(),
            limit: inches("6"),
        }
    );
    assert!(check_placement(&table, &[at(0, 1_000, edge - 1)], &deploy).is_ok());
    // Two new pieces may not overlap each other, nor existing pieces.
    let both = [at(0, 1_000, 1_000), at(1, 1_000 + 2 * R25 - 1, 1_000)];
    assert!(matches!(
        check_placement(&table, &both, &deploy).unwrap_err().reason,
        Refusal::EndsOnPiece {
            other: PieceId(0),
            ..
        }
    ));
    let mut placed = table.clone();
    placed
        .apply_placement(&[at(0, 1_000, 1_000)], &deploy)
        .unwrap();
    let before = placed.clone();
    assert!(
        placed
            .apply_placement(&[at(1, 1_100, 1_000)], &deploy)
            .is_err()
    );
    assert_eq!(placed, before);
    assert!(matches!(
        check_placement(&placed, &[at(0, 3_000, 1_000)], &deploy)
            .unwrap_err()
            .reason,
        Refusal::Scene(_)
    ));
    // Off the table.
    let loose = PlaceLimits::new(LengthUnit::Inch);
    assert_eq!(
        check_placement(&table, &[at(0, R25 - 1, 1_000)], &loose)
            .unwrap_err()
            .reason,
        Refusal::OffTable { leg: 0 }
    );
}

#[test]
fn reinforcements_wholly_within_six_inches_of_the_edge() {
    // Digest B10: wholly within friendly territory and wholly within 6" of the edge.
    let mut reinforce = PlaceLimits::new(LengthUnit::Inch);
    reinforce.wholly_near.push((Target::Edge, inches("6")));
    let table = Scene {
        outline: square(0, 0, 44 * 254, 30 * 254),
        ..Scene::default()
    };
    let at = |x| piece(0, 0, 0, x, 15 * 254, R25);
    assert!(check_placement(&table, &[at(6 * 254 - R25)], &reinforce).is_ok());
    assert!(matches!(
        check_placement(&table, &[at(6 * 254 - R25 + 1)], &reinforce)
            .unwrap_err()
            .reason,
        Refusal::EndsOutOfReach { .. }
    ));
}

// ----- candidates -----

#[test]
fn candidates_cover_toward_contact_farthest_and_lattice() {
    let table = Scene {
        pieces: vec![
            piece(0, 0, 0, 0, 0, R25),
            piece(1, 0, 0, 2 * R25, 0, R25),
            piece(2, 1, 1, 3_000, 0, R25),
            piece(3, 1, 1, 0, 3_000, R25),
        ],
        outline: square(-5_000, -5_000, 5_000, 5_000),
        ..Scene::default()
    };
    let normal = limits("8").never_within(combat_range());
    let lattice = Lattice::default();
    let candidates = formation_candidates(&table, GroupId(0), &normal, &lattice).unwrap();
    assert!(!candidates.is_empty() && candidates.len() <= lattice.max);
    for candidate in &candidates {
        assert!(check_formation(&table, GroupId(0), candidate.by, &normal).is_ok());
        assert_ne!(candidate.by, Point::ORIGIN);
    }
    let kinds: Vec<CandidateKind> = candidates.iter().map(|c| c.kind).collect();
    assert!(matches!(kinds[0], CandidateKind::Toward { .. }));
    assert!(
        kinds
            .iter()
            .any(|k| matches!(k, CandidateKind::Farthest { .. }))
    );
    assert!(
        kinds
            .iter()
            .any(|k| matches!(k, CandidateKind::Step { .. }))
    );
    // The same call gives the same list.
    assert_eq!(
        formation_candidates(&table, GroupId(0), &normal, &lattice).unwrap(),
        candidates
    );
    // A charge: contact candidates are exact base contact.
    let charge = limits("12").end_within(Target::EnemiesOf(PlayerId(0)), charge_reach());
    let candidates = formation_candidates(&table, GroupId(0), &charge, &lattice).unwrap();
    let contacts: Vec<_> = candidates
        .iter()
        .filter_map(|c| match c.kind {
            CandidateKind::Contact { piece, enemy } => Some((c.by, piece, enemy)),
            _ => None,
        })
        .collect();
    // Contact with the nearest enemy is the same offset as `toward` here (straight along an
    // axis), so only the other contact is listed under its own reason.
    assert_eq!(
        contacts,
        vec![(Point::new(0, 2_750), PieceId(0), PieceId(3))]
    );
    assert_eq!(candidates[0].by, Point::new(2_500, 0));
    for (by, mine, enemy) in
        contacts
            .into_iter()
            .chain([(Point::new(2_500, 0), PieceId(1), PieceId(2))])
    {
        let mut after = table.clone();
        after.apply_formation(GroupId(0), by, &charge).unwrap();
        let a = after.piece(mine).unwrap().figure;
        let b = after.piece(enemy).unwrap().figure;
        assert!(base_contact(&a, &b), "{a:?} {b:?}");
    }
    // The farthest legal point toward the east under a normal move stops a tenth beyond 3"
    // (whole tenths along an axis: exactly 3" is within range, so refused).
    let normal_east = formation_candidates(&table, GroupId(0), &normal, &lattice).unwrap();
    let east = normal_east
        .iter()
        .find(|c| c.kind == CandidateKind::Farthest { direction: 0 })
        .expect("a farthest point east");
    let mut after = table.clone();
    after.apply_formation(GroupId(0), east.by, &normal).unwrap();
    let gap = after.gap(PieceId(1), PieceId(2)).unwrap();
    assert_eq!(gap.floor(), combat_range() + Length::tenth_mm(1));
    let capped = Lattice { max: 3, ..lattice };
    assert_eq!(
        formation_candidates(&table, GroupId(0), &normal, &capped)
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn placement_candidates_are_legal_bounded_and_ordered() {
    let zone = Area::Polygon(square(0, 0, 44 * 254, 10 * 254));
    let deploy = PlaceLimits::new(LengthUnit::Inch).in_zone(zone.clone());
    let unit = [
        piece(0, 0, 0, 0, 0, R25),
        piece(1, 0, 0, 2 * R25 + 100, 0, R25),
    ];
    let anchors = placement_candidates(&Scene::default(), &unit, &deploy, inches("1"), 40);
    assert_eq!(anchors.len(), 40);
    let mut sorted = anchors.clone();
    sorted.sort_by_key(|p| (p.y, p.x));
    assert_eq!(sorted, anchors);
    for anchor in &anchors {
        for member in &unit {
            let at = Figure {
                centre: Point::new(
                    member.figure.centre.x + anchor.x,
                    member.figure.centre.y + anchor.y,
                ),
                ..member.figure
            };
            assert!(wholly_within(&at, &zone));
        }
    }
    // Nothing to scan without a zone or an outline.
    let nowhere = PlaceLimits::new(LengthUnit::Inch);
    assert!(placement_candidates(&Scene::default(), &unit, &nowhere, inches("1"), 40).is_empty());
    // A tiny spacing is widened so the scan stays bounded.
    let fine = placement_candidates(&Scene::default(), &unit, &deploy, Length::tenth_mm(1), 10);
    assert_eq!(fine.len(), 10);
}

// ----- properties -----

/// A scene with up to six pieces on a 3 x 2 grid of cells 1500 apart (so no two bases
/// overlap), two sides, and one group per side.
fn arb_scene() -> impl Strategy<Value = Scene> {
    prop::collection::vec((0i64..=600, 0i64..=600, 50i64..=400, 0u8..=1), 2..=6).prop_map(|cells| {
        Scene {
            pieces: cells
                .into_iter()
                .enumerate()
                .map(|(i, (dx, dy, radius, side))| {
                    let i = i as i64;
                    piece(
                        i as u16,
                        side,
                        u32::from(side),
                        (i % 3) * 1_500 + dx,
                        (i / 3) * 1_500 + dy,
                        radius,
                    )
                })
                .collect(),
            terrain: vec![Terrain {
                footprint: square(3_300, -800, 3_600, 2_800),
                height: Length::cm(5),
                tags: vec![],
            }],
            outline: square(-3_000, -3_000, 8_000, 6_000),
        }
    })
}

fn arb_limits() -> impl Strategy<Value = PathLimits> {
    (
        0i64..=6_000,
        prop::option::weighted(0.25, 0i64..=800),
        prop::option::weighted(0.25, 0i64..=800),
        prop::option::weighted(0.25, 0i64..=3_000),
        prop::bool::weighted(0.25),
        prop::bool::weighted(0.25),
        prop::bool::weighted(0.25),
    )
        .prop_map(
            |(budget, never, not_end, reach, farther, impassable, no_stop)| {
                let mut limits = PathLimits::new(Length::tenth_mm(budget), LengthUnit::Mm);
                limits.never_within = never.map(Length::tenth_mm);
                limits.not_end_within = not_end.map(Length::tenth_mm);
                limits.end_within =
                    reach.map(|d| (Target::EnemiesOf(PlayerId(0)), Length::tenth_mm(d)));
                limits.no_farther_from_enemy = farther;
                if impassable {
                    limits.impassable.insert(0);
                }
                if no_stop {
                    limits.no_stop.insert(0);
                }
                limits
            },
        )
}

fn arb_waypoints() -> impl Strategy<Value = Vec<(i64, i64)>> {
    prop::collection::vec((-2_000i64..=2_000, -2_000i64..=2_000), 1..=3)
}

/// A path for the scene's first piece through relative waypoints.
fn path_for(scene: &Scene, waypoints: &[(i64, i64)]) -> Vec<Point> {
    let start = scene.pieces[0].figure.centre;
    std::iter::once(start)
        .chain(
            waypoints
                .iter()
                .map(|(dx, dy)| Point::new(start.x + dx, start.y + dy)),
        )
        .collect()
}

fn shift_points(points: &[Point], by: Point) -> Vec<Point> {
    points
        .iter()
        .map(|p| Point::new(p.x + by.x, p.y + by.y))
        .collect()
}

/// A coherent line of 2..=6 pieces of group 0, each within `gap` (<= ½") of the next.
fn arb_coherent_group() -> impl Strategy<Value = Vec<TablePiece>> {
    prop::collection::vec((0i64..=127, -60i64..=60), 1..=5).prop_map(|steps| {
        let mut pieces = vec![piece(0, 0, 0, 0, 0, R25)];
        let (mut x, mut y) = (0i64, 0i64);
        for (i, (gap, dy)) in steps.into_iter().enumerate() {
            // Centre distance between 2r + gap - 1 and 2r + gap, by rounding x down from the
            // exact sqrt((2r+gap)² - dy²); never overlapping (dx is rounded up if needed).
            let reach = 2 * R25 + gap;
            let mut dx = (reach * reach - dy * dy).isqrt();
            while dx * dx + dy * dy < (2 * R25) * (2 * R25) {
                dx += 1;
            }
            x += dx;
            y += dy;
            pieces.push(piece(i as u16 + 1, 0, 0, x, y, R25));
        }
        pieces
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Legality is unchanged when the whole table is translated (issue 13, "Show").
    #[test]
    fn path_legality_any_translation_invariant(
        table in arb_scene(),
        waypoints in arb_waypoints(),
        limits in arb_limits(),
        by in (-400_000_000i64..=400_000_000, -400_000_000i64..=400_000_000),
    ) {
        let by = Point::new(by.0, by.1);
        let path = path_for(&table, &waypoints);
        let moved = table.translated(by);
        let here = check_path(&table, PieceId(0), &path, &limits);
        let there = check_path(&moved, PieceId(0), &shift_points(&path, by), &limits);
        prop_assert_eq!(here, there);
        let offset = Point::new(waypoints[0].0, waypoints[0].1);
        prop_assert_eq!(
            check_formation(&table, GroupId(0), offset, &limits),
            check_formation(&moved, GroupId(0), offset, &limits)
        );
        // The candidates are offsets: the same on the translated table.
        let lattice = Lattice { directions: 8, steps: 2, contacts: 2, max: 64 };
        prop_assert_eq!(
            formation_candidates(&table, GroupId(0), &limits, &lattice),
            formation_candidates(&moved, GroupId(0), &limits, &lattice)
        );
    }

    /// No two bases overlap after any legal move; a refused move changes nothing.
    #[test]
    fn legal_moves_any_never_overlap_refused_change_nothing(
        table in arb_scene(),
        waypoints in arb_waypoints(),
        limits in arb_limits(),
    ) {
        prop_assert_eq!(table.validate(), Ok(()));
        let path = path_for(&table, &waypoints);
        let mut after = table.clone();
        match after.apply_path(PieceId(0), &path, &limits) {
            Ok(()) => prop_assert_eq!(after.first_overlap(), None),
            Err(_) => prop_assert_eq!(&after, &table),
        }
        let mut after = table.clone();
        let offset = Point::new(waypoints[0].0, waypoints[0].1);
        match after.apply_formation(GroupId(0), offset, &limits) {
            Ok(()) => prop_assert_eq!(after.first_overlap(), None),
            Err(_) => prop_assert_eq!(&after, &table),
        }
    }

    /// Every candidate offered is legal, not zero, not repeated, and the list is bounded and
    /// the same each time; after any of them no bases overlap.
    #[test]
    fn formation_candidates_any_all_legal(
        table in arb_scene(),
        limits in arb_limits(),
        directions in 1u8..=16,
        steps in 0u8..=4,
        max in 1usize..=64,
    ) {
        let lattice = Lattice { directions, steps, contacts: 2, max };
        let candidates = formation_candidates(&table, GroupId(0), &limits, &lattice);
        prop_assume!(candidates.is_ok());
        let candidates = candidates.unwrap();
        prop_assert!(candidates.len() <= max);
        prop_assert_eq!(
            &formation_candidates(&table, GroupId(0), &limits, &lattice).unwrap(),
            &candidates
        );
        let mut seen = std::collections::BTreeSet::new();
        for candidate in &candidates {
            prop_assert!(seen.insert(candidate.by));
            prop_assert!(candidate.by != Point::ORIGIN);
            let mut after = table.clone();
            prop_assert!(after.apply_formation(GroupId(0), candidate.by, &limits).is_ok());
            prop_assert_eq!(after.first_overlap(), None);
        }
    }

    /// Formation moves keep coherency (issue 13, "Show"): any legal offset, and every
    /// candidate.
    #[test]
    fn formation_moves_any_keep_coherency(
        group in arb_coherent_group(),
        enemy in (-3_000i64..=3_000, 2_000i64..=4_000),
        offset in (-1_500i64..=1_500, -1_500i64..=1_500),
    ) {
        let rule = Coherency { distance: Length::tenth_mm(127), neighbours: 1 };
        prop_assert_eq!(check_coherency(&group, &rule), Ok(()));
        let mut pieces = group.clone();
        pieces.push(piece(99, 1, 1, enemy.0, enemy.1, R25));
        let table = scene(pieces);
        let limits = PathLimits::new(Length::tenth_mm(1_500), LengthUnit::Mm);
        let mut after = table.clone();
        if after.apply_formation(GroupId(0), Point::new(offset.0, offset.1), &limits).is_ok() {
            prop_assert_eq!(after.coherency(GroupId(0), &rule), Ok(()));
        }
        let lattice = Lattice { directions: 8, steps: 2, contacts: 1, max: 32 };
        for candidate in formation_candidates(&table, GroupId(0), &limits, &lattice).unwrap() {
            let mut after = table.clone();
            after.apply_formation(GroupId(0), candidate.by, &limits).unwrap();
            prop_assert_eq!(after.coherency(GroupId(0), &rule), Ok(()));
        }
    }

    /// No two bases overlap after any legal placement; a refused one changes nothing; every
    /// set-up candidate is legal.
    #[test]
    fn placements_any_never_overlap(
        table in arb_scene(),
        at in (-3_000i64..=8_000, -3_000i64..=6_000),
        radius in 50i64..=400,
    ) {
        let new = piece(50, 0, 0, at.0, at.1, radius);
        let limits = PlaceLimits::new(LengthUnit::Mm).in_zone(Area::Polygon(square(-3_000, -3_000, 3_000, 3_000)));
        let mut after = table.clone();
        match after.apply_placement(std::slice::from_ref(&new), &limits) {
            Ok(()) => prop_assert_eq!(after.first_overlap(), None),
            Err(_) => prop_assert_eq!(&after, &table),
        }
        let template = piece(50, 0, 0, 0, 0, radius);
        for anchor in placement_candidates(&table, std::slice::from_ref(&template), &limits, Length::mm(30), 20) {
            let placed = piece(50, 0, 0, anchor.x, anchor.y, radius);
            let mut after = table.clone();
            prop_assert!(after.apply_placement(&[placed], &limits).is_ok());
            prop_assert_eq!(after.first_overlap(), None);
        }
    }

    /// The exact gap agrees with `within` and with the rounded distance.
    #[test]
    fn gap_any_pair_agrees_with_within(
        a in (-1_000_000i64..=1_000_000, -1_000_000i64..=1_000_000, 0i64..=5_000),
        b in (-1_000_000i64..=1_000_000, -1_000_000i64..=1_000_000, 0i64..=5_000),
        c in (-1_000_000i64..=1_000_000, -1_000_000i64..=1_000_000, 0i64..=5_000),
        d in 0i64..=2_000_000,
    ) {
        let fig = |(x, y, r): (i64, i64, i64)| Figure::new(Point::new(x, y), Length::tenth_mm(r));
        let (a, b, c) = (fig(a), fig(b), fig(c));
        let d = Length::tenth_mm(d);
        prop_assert_eq!(Gap::between(&a, &b).cmp_length(d) != std::cmp::Ordering::Greater, within(&a, &b, d));
        prop_assert_eq!(Gap::between(&a, &b).floor(), distance_edge_to_edge(&a, &b));
        prop_assert_eq!(Gap::between(&a, &b), Gap::between(&b, &a));
        // Exact order never contradicts the rounded one.
        let (ab, ac) = (Gap::between(&a, &b), Gap::between(&a, &c));
        if ab.floor() < ac.floor() {
            prop_assert!(ab < ac);
        }
        if ab < ac {
            prop_assert!(ab.floor() <= ac.floor());
        }
    }
}

/// Any `i64` at all: coordinates, radii, lengths.
fn wild() -> impl Strategy<Value = i64> {
    prop_oneof![
        any::<i64>(),
        -3_000i64..=3_000,
        Just(i64::MAX),
        Just(i64::MIN)
    ]
}

fn wild_point() -> impl Strategy<Value = Point> {
    (wild(), wild()).prop_map(|(x, y)| Point::new(x, y))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Hostile input (coordinates and radii far beyond the bounds, negative or huge lengths)
    /// never panics or overflows: every query and check answers or refuses.
    #[test]
    fn hostile_input_any_never_panics(
        centres in prop::collection::vec((wild_point(), wild(), 0u8..=1), 1..=4),
        path in prop::collection::vec(wild_point(), 0..=3),
        length in wild(),
        by in wild_point(),
        zone in prop::collection::vec(wild_point(), 3..=4),
    ) {
        let table = Scene {
            pieces: centres
                .iter()
                .enumerate()
                .map(|(i, (centre, radius, side))| TablePiece {
                    id: PieceId(i as u16),
                    side: PlayerId(*side),
                    group: GroupId(u32::from(*side)),
                    figure: Figure::new(*centre, Length::tenth_mm(*radius)),
                })
                .collect(),
            terrain: vec![Terrain { footprint: zone.clone(), height: Length::tenth_mm(length), tags: vec![] }],
            outline: zone.clone(),
        };
        let d = Length::tenth_mm(length);
        let _ = table.validate();
        let targets = [
            Target::Point(by),
            Target::Piece(PieceId(0)),
            Target::Group(GroupId(1)),
            Target::Area(Area::Polygon(zone.clone())),
            Target::Area(Area::Circle { centre: by, radius: d }),
            Target::Edge,
            Target::EnemiesOf(PlayerId(0)),
        ];
        for subject in [Subject::Piece(PieceId(0)), Subject::Group(GroupId(0))] {
            for target in &targets {
                let _ = table.within(subject, target, d);
                let _ = table.wholly_within(subject, target, d);
                if let Ok(Some((_, _, gap))) = table.closest(subject, target) {
                    let _ = (gap.floor(), gap.cmp_length(d));
                }
            }
            let _ = table.in_range_of_enemy(subject, d);
        }
        let _ = table.nearest_enemy(PieceId(0));
        let _ = table.coherency(GroupId(0), &Coherency { distance: d, neighbours: 2 });
        let _ = table.control(&Area::Circle { centre: by, radius: d }, d, &BTreeMap::from([(PieceId(0), i64::MAX), (PieceId(1), i64::MAX)]));
        let _ = table.front_first(GroupId(0), by);
        let mut limits = PathLimits::new(d, LengthUnit::Inch)
            .never_within(d)
            .not_end_within(d)
            .end_within(Target::Edge, d)
            .no_farther_from_enemy()
            .impassable([0, 7])
            .no_stop([0]);
        let start = table.pieces[0].figure.centre;
        let full: Vec<Point> = std::iter::once(start).chain(path.iter().copied()).collect();
        for limits in [limits.clone(), { limits.end_within = None; limits.never_within = None; limits }] {
            if let Err(refused) = check_path(&table, PieceId(0), &full, &limits) {
                let _ = refused.to_string();
            }
            let _ = check_path(&table, PieceId(0), &path, &limits);
            if let Err(refused) = check_formation(&table, GroupId(0), by, &limits) {
                let _ = refused.to_string();
            }
            let _ = check_group_paths(&table, GroupId(0), &[(PieceId(0), full.clone())], &limits, Some(&Coherency { distance: d, neighbours: 1 }));
            let lattice = Lattice { directions: 8, steps: 3, contacts: 2, max: 16 };
            let _ = formation_candidates(&table, GroupId(0), &limits, &lattice);
        }
        let new = TablePiece { id: PieceId(40), side: PlayerId(0), group: GroupId(0), figure: Figure::new(by, d) };
        let place = PlaceLimits::new(LengthUnit::Cm)
            .in_zone(Area::Polygon(zone.clone()))
            .away_from(Target::EnemiesOf(PlayerId(0)), d);
        if let Err(refused) = check_placement(&table, std::slice::from_ref(&new), &place) {
            let _ = refused.to_string();
        }
        let _ = placement_candidates(&table, std::slice::from_ref(&new), &place, d, 8);
    }
}
