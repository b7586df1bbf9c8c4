//! Path legality on a measured table: a move of one piece along a polyline, a formation move
//! of a group (every piece translated by the same offset), a group's pieces moved one after
//! another, and the placement of pieces at set-up.
//!
//! The kernel checks; it does not search (candidate points to offer are in
//! `table_candidates.rs`). Every limit is a parameter from the ruleset's data: the budget, the
//! pieces and terrain a move may not cross, "never within D of an enemy" (e.g. a normal move
//! and combat range), "may pass but not end within D" (a retreat), "must end within D of a
//! target" (a charge), "end no farther from the nearest enemy than it started" (a pile-in).
//! A refusal names the piece, what it would cross or break, and by how much.

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::table::{
    P, length_nonneg, polygon_contains, polygon_edges, polygon_holds_figure, radius,
    segment_distance_cmp, segments_meet,
};
use crate::{
    Area, Coherency, CoherencyBreak, Figure, Gap, GroupId, Length, LengthUnit, PieceId, Point,
    Scene, SceneError, Subject, TablePiece, Target, overlapping, path_length, wholly_within,
};

/// The limits on a move, all from the ruleset's data.
///
/// # Examples
///
/// ```
/// use gloam_core::{Length, LengthUnit, PathLimits};
/// // A normal move of 5" that may never come within 3" of an enemy.
/// let limits = PathLimits::new(Length::inches(5), LengthUnit::Inch).never_within(Length::inches(3));
/// assert_eq!(limits.never_within, Some(Length::inches(3)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathLimits {
    /// The longest the path may be. A single leg is measured exactly; a polyline sums its
    /// legs each rounded up to a tenth of a millimetre (never under-counted).
    pub budget: Length,
    /// Pieces whose bases the mover may pass through (it may still not end on them).
    #[serde(default)]
    pub may_pass: BTreeSet<PieceId>,
    /// Terrain (indices into [`Scene::terrain`]) the mover may not cross or end on.
    #[serde(default)]
    pub impassable: BTreeSet<usize>,
    /// Terrain the mover may cross but not end on.
    #[serde(default)]
    pub no_stop: BTreeSet<usize>,
    /// Never within this distance of an enemy base at any point of the path (inclusive: exactly
    /// this far is within, so refused).
    #[serde(default)]
    pub never_within: Option<Length>,
    /// May pass within, but not end within, this distance of an enemy base.
    #[serde(default)]
    pub not_end_within: Option<Length>,
    /// Must end within this distance of the target (for a group, some piece of it must).
    #[serde(default)]
    pub end_within: Option<(Target, Length)>,
    /// Each piece ends no farther from its nearest enemy than it started.
    #[serde(default)]
    pub no_farther_from_enemy: bool,
    /// Bases stay wholly on the table (inside the outline) all along; ignored without an
    /// outline.
    #[serde(default = "yes")]
    pub on_table: bool,
    /// The unit refusals speak in.
    pub unit: LengthUnit,
}

fn yes() -> bool {
    true
}

impl PathLimits {
    /// A move of up to `budget`, staying on the table, with no other limit.
    pub fn new(budget: Length, unit: LengthUnit) -> PathLimits {
        PathLimits {
            budget,
            may_pass: BTreeSet::new(),
            impassable: BTreeSet::new(),
            no_stop: BTreeSet::new(),
            never_within: None,
            not_end_within: None,
            end_within: None,
            no_farther_from_enemy: false,
            on_table: true,
            unit,
        }
    }

    /// These limits, never coming within `distance` of an enemy.
    pub fn never_within(self, distance: Length) -> PathLimits {
        PathLimits {
            never_within: Some(distance),
            ..self
        }
    }

    /// These limits, not ending within `distance` of an enemy.
    pub fn not_end_within(self, distance: Length) -> PathLimits {
        PathLimits {
            not_end_within: Some(distance),
            ..self
        }
    }

    /// These limits, ending within `distance` of `target`.
    pub fn end_within(self, target: Target, distance: Length) -> PathLimits {
        PathLimits {
            end_within: Some((target, distance)),
            ..self
        }
    }

    /// These limits, ending no farther from the nearest enemy than at the start.
    pub fn no_farther_from_enemy(self) -> PathLimits {
        PathLimits {
            no_farther_from_enemy: true,
            ..self
        }
    }

    /// These limits, letting the mover pass through these pieces' bases.
    pub fn may_pass(self, pieces: impl IntoIterator<Item = PieceId>) -> PathLimits {
        let mut may_pass = self.may_pass;
        may_pass.extend(pieces);
        PathLimits { may_pass, ..self }
    }

    /// These limits, with terrain the mover may not cross.
    pub fn impassable(self, terrain: impl IntoIterator<Item = usize>) -> PathLimits {
        let mut impassable = self.impassable;
        impassable.extend(terrain);
        PathLimits { impassable, ..self }
    }

    /// These limits, with terrain the mover may cross but not end on.
    pub fn no_stop(self, terrain: impl IntoIterator<Item = usize>) -> PathLimits {
        let mut no_stop = self.no_stop;
        no_stop.extend(terrain);
        PathLimits { no_stop, ..self }
    }
}

/// Why a move or a placement was refused: the piece, and the reason in players' words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{piece} cannot go there: {}", reason.say(*unit))]
pub struct Refused {
    /// The piece refused (for a group, the first piece that breaks a limit).
    pub piece: PieceId,
    /// What it would break.
    pub reason: Refusal,
    /// The unit the message speaks in.
    pub unit: LengthUnit,
}

/// What a move or a placement would break. Legs are numbered from 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Refusal {
    /// A piece or group the request names is not on the table.
    Scene(String),
    /// The path has no point.
    NoPath,
    /// The path does not start at the piece's centre.
    WrongStart {
        /// Where the piece stands.
        at: Point,
        /// Where the path starts.
        start: Point,
    },
    /// A point lies beyond the table geometry's bounds.
    OutOfBounds {
        /// The point.
        point: Point,
    },
    /// The path is longer than the budget.
    TooLong {
        /// Its length (each leg rounded up).
        length: Length,
        /// The budget.
        budget: Length,
    },
    /// The base would pass through another piece's base.
    ThroughPiece {
        /// The piece in the way.
        other: PieceId,
        /// The leg.
        leg: usize,
        /// How deep it would overlap (rounded down).
        by: Length,
    },
    /// The base would cross terrain it may not cross.
    ThroughTerrain {
        /// The terrain index.
        terrain: usize,
        /// The leg.
        leg: usize,
    },
    /// The base would leave the table.
    OffTable {
        /// The leg (0: where it stands or is placed).
        leg: usize,
    },
    /// The base would come within the forbidden distance of an enemy.
    IntoRange {
        /// The enemy piece.
        enemy: PieceId,
        /// The leg.
        leg: usize,
        /// The forbidden distance.
        limit: Length,
        /// The closest it would come (rounded down).
        closest: Length,
    },
    /// The base would end on another piece's base.
    EndsOnPiece {
        /// The other piece.
        other: PieceId,
        /// How deep it would overlap (rounded down).
        by: Length,
    },
    /// The base would end on terrain it may not end on.
    EndsOnTerrain {
        /// The terrain index.
        terrain: usize,
    },
    /// The base would end within the forbidden distance of an enemy.
    EndsInRange {
        /// The enemy piece.
        enemy: PieceId,
        /// The forbidden distance.
        limit: Length,
        /// Its gap (rounded down).
        gap: Length,
    },
    /// The move would not end within the required distance of its target.
    EndsOutOfReach {
        /// The target, in words.
        target: String,
        /// The required distance.
        limit: Length,
        /// The closest the mover gets, when the target is pieces (rounded down).
        closest: Option<Length>,
    },
    /// The piece would end farther from its nearest enemy than it started.
    FartherFromEnemy {
        /// The gap to the nearest enemy before (rounded down).
        before: Length,
        /// The gap to the nearest enemy after (rounded down).
        after: Length,
    },
    /// A placement not wholly within its zone.
    OutsideZone,
    /// A placement within a distance it must keep from a target.
    TooClose {
        /// The target, in words.
        target: String,
        /// The distance it must be more than.
        limit: Length,
    },
    /// The group would not be coherent.
    Incoherent(CoherencyBreak),
    /// A group move names a piece twice or a piece of another group.
    NotInGroup {
        /// The group.
        group: GroupId,
    },
}

/// A length in the players' unit: exact (`3in`) when it is a whole number of ten-thousandths
/// of the unit; otherwise in millimetres, with the unit to the hundredth when that is not 0
/// (`76.3mm (about 3.00in)`).
pub(crate) fn say_length(length: Length, unit: LengthUnit) -> String {
    if let Some(exact) = length.format_in(unit) {
        return exact;
    }
    let tenths = i128::from(length.as_tenth_mm());
    let per = i128::from(unit.tenths());
    let hundredths = (tenths * 100 + per / 2).div_euclid(per);
    if hundredths == 0 {
        return length.to_string();
    }
    let sign = if hundredths < 0 { "-" } else { "" };
    let magnitude = hundredths.unsigned_abs();
    format!(
        "{length} (about {sign}{}.{:02}{})",
        magnitude / 100,
        magnitude % 100,
        unit.suffix()
    )
}

impl Refusal {
    /// The reason in players' words, with lengths in `unit`.
    pub fn say(&self, unit: LengthUnit) -> String {
        let l = |length: &Length| say_length(*length, unit);
        match self {
            Refusal::Scene(problem) => problem.clone(),
            Refusal::NoPath => "the path has no point".to_owned(),
            Refusal::WrongStart { at, start } => format!(
                "the path starts at ({}, {}) but the piece stands at ({}, {})",
                start.x, start.y, at.x, at.y
            ),
            Refusal::OutOfBounds { point } => format!(
                "point ({}, {}) lies beyond the table geometry's bounds",
                point.x, point.y
            ),
            Refusal::TooLong { length, budget } => format!(
                "the path is {} long, {} more than the {} allowed",
                l(length),
                l(&(*length - *budget)),
                l(budget)
            ),
            Refusal::ThroughPiece { other, leg, by } => format!(
                "on leg {leg} it would pass through the base of {other} (overlapping it by {})",
                l(by)
            ),
            Refusal::ThroughTerrain { terrain, leg } => {
                format!("on leg {leg} it would cross terrain {terrain}, which it cannot cross")
            }
            Refusal::OffTable { leg: 0 } => "its base would not be wholly on the table".to_owned(),
            Refusal::OffTable { leg } => format!("on leg {leg} its base would leave the table"),
            Refusal::IntoRange {
                enemy,
                leg,
                limit,
                closest,
            } => format!(
                "on leg {leg} it would come within {} of enemy {enemy} (to {})",
                l(limit),
                l(closest)
            ),
            Refusal::EndsOnPiece { other, by } => format!(
                "it would end on the base of {other} (overlapping it by {})",
                l(by)
            ),
            Refusal::EndsOnTerrain { terrain } => {
                format!("it would end on terrain {terrain}, where it may not stop")
            }
            Refusal::EndsInRange { enemy, limit, gap } => format!(
                "it would end within {} of enemy {enemy} ({} away)",
                l(limit),
                l(gap)
            ),
            Refusal::EndsOutOfReach {
                target,
                limit,
                closest: Some(closest),
            } => format!(
                "it must end within {} of {target} but would end {} away",
                l(limit),
                l(closest)
            ),
            Refusal::EndsOutOfReach { target, limit, .. } => {
                format!("it must end within {} of {target} and would not", l(limit))
            }
            Refusal::FartherFromEnemy { before, after } => format!(
                "it would end {} from its nearest enemy, farther than the {} it started at",
                l(after),
                l(before)
            ),
            Refusal::OutsideZone => "its base would not be wholly within its zone".to_owned(),
            Refusal::TooClose { target, limit } => {
                format!("it must be more than {} from {target}", l(limit))
            }
            Refusal::Incoherent(broken) => format!("the group would lose coherency: {broken}"),
            Refusal::NotInGroup { group } => {
                format!("each piece moved must be a different piece of {group}")
            }
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.say(LengthUnit::Mm))
    }
}

/// Builds a refusal for `piece`.
fn refuse(piece: PieceId, reason: Refusal, unit: LengthUnit) -> Refused {
    Refused {
        piece,
        reason,
        unit,
    }
}

fn scene_refusal(piece: PieceId, error: &SceneError, unit: LengthUnit) -> Refused {
    refuse(piece, Refusal::Scene(error.to_string()), unit)
}

/// Checks a move of one piece along `path` (its first point is where the piece stands).
///
/// Checks, in order, reporting the first failure: the points are in bounds and the path
/// starts at the piece; the length is within the budget; then leg by leg, the base stays on
/// the table, passes through no other base (except [`PathLimits::may_pass`]), crosses no
/// impassable terrain, and comes no closer to an enemy than [`PathLimits::never_within`];
/// then at the end, it is on no base and no terrain it may not end on, not within
/// [`PathLimits::not_end_within`] of an enemy, within [`PathLimits::end_within`] of its target,
/// and no farther from its nearest enemy. Touching a base or a footprint is not crossing it.
/// A path of one point (no move) is checked at its end only.
///
/// # Examples
///
/// ```
/// use gloam_core::{check_path, Figure, GroupId, Length, LengthUnit, PathLimits, PieceId, PlayerId, Point, Refusal, Scene, TablePiece};
/// let piece = |id: u16, side: u8, x: i64| TablePiece {
///     id: PieceId(id),
///     side: PlayerId(side),
///     group: GroupId(u32::from(id)),
///     figure: Figure::new(Point::at(Length::inches(x), Length::ZERO), Length::tenth_mm(127)),
/// };
/// let scene = Scene { pieces: vec![piece(0, 0, 0), piece(1, 1, 10)], ..Scene::default() };
/// let limits = PathLimits::new(Length::inches(6), LengthUnit::Inch).never_within(Length::inches(3));
/// let to = |x| [Point::ORIGIN, Point::at(Length::inches(x), Length::ZERO)];
/// // Ending at 6": centres 4" apart, bases 1" in all, gap 3" exactly: within 3", refused.
/// let refused = check_path(&scene, PieceId(0), &to(6), &limits).unwrap_err();
/// assert!(matches!(refused.reason, Refusal::IntoRange { enemy: PieceId(1), .. }));
/// assert_eq!(refused.to_string(), "piece0 cannot go there: on leg 1 it would come within 3in of enemy piece1 (to 3in)");
/// assert!(check_path(&scene, PieceId(0), &to(5), &limits).is_ok());
/// ```
pub fn check_path(
    scene: &Scene,
    mover: PieceId,
    path: &[Point],
    limits: &PathLimits,
) -> Result<(), Refused> {
    let unit = limits.unit;
    let piece = scene
        .piece(mover)
        .ok_or_else(|| scene_refusal(mover, &SceneError::UnknownPiece { piece: mover }, unit))?;
    let together = BTreeSet::from([mover]);
    check_legs(scene, piece, path, limits, &together)?;
    let end = *path.last().unwrap_or(&piece.figure.centre);
    let moved = moved_figure(&piece.figure, end);
    check_end(scene, piece, &moved, limits, &together)?;
    if let Some((target, distance)) = &limits.end_within {
        check_reach(scene, &[(piece.id, moved)], target, *distance, unit)?;
    }
    Ok(())
}

/// Checks a formation move: every piece of `group` translated by the offset `by` (a vector,
/// in tenths of a millimetre), each along one straight leg and checked as [`check_path`]
/// does, except that the group's pieces never block each other (they move together, so they
/// keep their distances, and coherency with them). [`PathLimits::end_within`] is met when
/// some piece of the group ends within reach.
///
/// # Examples
///
/// ```
/// use gloam_core::{check_formation, Figure, GroupId, Length, LengthUnit, PathLimits, PieceId, PlayerId, Point, Scene, TablePiece};
/// let model = |id: u16, x: i64| TablePiece {
///     id: PieceId(id),
///     side: PlayerId(0),
///     group: GroupId(0),
///     figure: Figure::new(Point::new(x, 0), Length::tenth_mm(125)),
/// };
/// let scene = Scene { pieces: vec![model(0, 0), model(1, 300)], ..Scene::default() };
/// let limits = PathLimits::new(Length::inches(5), LengthUnit::Inch);
/// assert!(check_formation(&scene, GroupId(0), Point::new(300, 0), &limits).is_ok());
/// assert!(check_formation(&scene, GroupId(0), Point::new(1271, 0), &limits).is_err());
/// ```
pub fn check_formation(
    scene: &Scene,
    group: GroupId,
    by: Point,
    limits: &PathLimits,
) -> Result<(), Refused> {
    let members = group_members(scene, group, limits.unit)?;
    let together: BTreeSet<PieceId> = members.iter().map(|piece| piece.id).collect();
    let mut ends = Vec::with_capacity(members.len());
    for piece in &members {
        let start = piece.figure.centre;
        let end = shifted(start, by);
        check_legs(scene, piece, &[start, end], limits, &together)?;
        let moved = moved_figure(&piece.figure, end);
        check_end(scene, piece, &moved, limits, &together)?;
        ends.push((piece.id, moved));
    }
    if let Some((target, distance)) = &limits.end_within {
        check_reach(scene, &ends, target, *distance, limits.unit)?;
    }
    Ok(())
}

/// Checks a group's pieces moved one after another, each along its own path (as
/// [`check_path`], with the pieces already moved at their new places and the others still
/// where they stood), then [`PathLimits::end_within`] for the group (some piece), then, when
/// `coherency` is given, the group's coherency at the end. Returns the scene after the moves.
/// Each piece may be moved at most once; pieces not listed stay.
///
/// # Examples
///
/// ```
/// use gloam_core::{check_group_paths, Coherency, Figure, GroupId, Length, LengthUnit, PathLimits, PieceId, PlayerId, Point, Refusal, Scene, TablePiece};
/// let model = |id: u16, x: i64| TablePiece {
///     id: PieceId(id),
///     side: PlayerId(0),
///     group: GroupId(0),
///     figure: Figure::new(Point::new(x, 0), Length::tenth_mm(125)),
/// };
/// let scene = Scene { pieces: vec![model(0, 0), model(1, 300)], ..Scene::default() };
/// let limits = PathLimits::new(Length::inches(3), LengthUnit::Inch);
/// let rule = Coherency { distance: Length::tenth_mm(127), neighbours: 1 };
/// let walk = vec![(PieceId(1), vec![Point::new(300, 0), Point::new(300, 600)])];
/// let refused = check_group_paths(&scene, GroupId(0), &walk, &limits, Some(&rule)).unwrap_err();
/// assert!(matches!(refused.reason, Refusal::Incoherent(_)));
/// ```
pub fn check_group_paths(
    scene: &Scene,
    group: GroupId,
    paths: &[(PieceId, Vec<Point>)],
    limits: &PathLimits,
    coherency: Option<&Coherency>,
) -> Result<Scene, Refused> {
    let unit = limits.unit;
    let members = group_members(scene, group, unit)?;
    let mut seen = BTreeSet::new();
    for (piece, _) in paths {
        if !members.iter().any(|m| m.id == *piece) || !seen.insert(*piece) {
            return Err(refuse(*piece, Refusal::NotInGroup { group }, unit));
        }
    }
    let mut after = scene.clone();
    for (piece, path) in paths {
        let current = after.piece(*piece).cloned().ok_or_else(|| {
            scene_refusal(*piece, &SceneError::UnknownPiece { piece: *piece }, unit)
        })?;
        let together = BTreeSet::from([*piece]);
        check_legs(&after, &current, path, limits, &together)?;
        let end = *path.last().unwrap_or(&current.figure.centre);
        let moved = moved_figure(&current.figure, end);
        check_end(&after, &current, &moved, limits, &together)?;
        after.place(*piece, end);
    }
    if let Some((target, distance)) = &limits.end_within {
        let ends: Vec<(PieceId, Figure)> = after
            .members(group)
            .into_iter()
            .map(|piece| (piece.id, piece.figure))
            .collect();
        check_reach(&after, &ends, target, *distance, unit)?;
    }
    if let Some(rule) = coherency {
        after.coherency(group, rule).map_err(|broken| {
            let piece = match &broken {
                CoherencyBreak::TooFewNeighbours { piece, .. } => *piece,
                _ => members[0].id,
            };
            refuse(piece, Refusal::Incoherent(broken), unit)
        })?;
    }
    Ok(after)
}

impl Scene {
    /// The pieces of `group` in the order to move them by `by` one at a time without any
    /// landing exactly where a mate still stands: front first (the greatest extent along
    /// `by`), ties in scene order. For hosts that move pieces through
    /// [`crate::Ctx::place_piece`], which refuses a position another piece holds.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Figure, GroupId, Length, PieceId, PlayerId, Point, Scene, TablePiece};
    /// let model = |id: u16, x: i64| TablePiece {
    ///     id: PieceId(id),
    ///     side: PlayerId(0),
    ///     group: GroupId(0),
    ///     figure: Figure::new(Point::new(x, 0), Length::tenth_mm(125)),
    /// };
    /// let scene = Scene { pieces: vec![model(0, 0), model(1, 250), model(2, 500)], ..Scene::default() };
    /// assert_eq!(scene.front_first(GroupId(0), Point::new(250, 0)), vec![PieceId(2), PieceId(1), PieceId(0)]);
    /// ```
    pub fn front_first(&self, group: GroupId, by: Point) -> Vec<PieceId> {
        let along = |piece: &TablePiece| {
            let centre = P::of(piece.figure.centre);
            centre.x * i128::from(by.x) + centre.y * i128::from(by.y)
        };
        let mut members = self.members(group);
        members.sort_by_key(|piece| std::cmp::Reverse(along(piece)));
        members.into_iter().map(|piece| piece.id).collect()
    }

    /// Moves a piece along `path` if [`check_path`] accepts it; a refused move changes nothing.
    pub fn apply_path(
        &mut self,
        mover: PieceId,
        path: &[Point],
        limits: &PathLimits,
    ) -> Result<(), Refused> {
        check_path(self, mover, path, limits)?;
        if let Some(end) = path.last() {
            self.place(mover, *end);
        }
        Ok(())
    }

    /// Moves a group by `by` if [`check_formation`] accepts it; a refused move changes nothing.
    pub fn apply_formation(
        &mut self,
        group: GroupId,
        by: Point,
        limits: &PathLimits,
    ) -> Result<(), Refused> {
        check_formation(self, group, by, limits)?;
        for piece in self.pieces.iter_mut().filter(|piece| piece.group == group) {
            piece.figure.centre = shifted(piece.figure.centre, by);
        }
        Ok(())
    }

    /// Sets pieces up if [`check_placement`] accepts them; a refused placement changes
    /// nothing.
    pub fn apply_placement(
        &mut self,
        pieces: &[TablePiece],
        limits: &PlaceLimits,
    ) -> Result<(), Refused> {
        check_placement(self, pieces, limits)?;
        self.pieces.extend(pieces.iter().cloned());
        Ok(())
    }
}

/// The limits on setting pieces up, all from the ruleset's data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaceLimits {
    /// Every base wholly within this area (a territory, a deployment zone), if given.
    #[serde(default)]
    pub zone: Option<Area>,
    /// Every base more than this distance from the target (enemy territory, other terrain,
    /// the enemy): refused when within it (inclusive).
    #[serde(default)]
    pub away: Vec<(Target, Length)>,
    /// Every base wholly within this distance of the target (e.g. of the table edge).
    #[serde(default)]
    pub wholly_near: Vec<(Target, Length)>,
    /// Terrain the pieces may not be set up on.
    #[serde(default)]
    pub no_stop: BTreeSet<usize>,
    /// Bases wholly on the table; ignored without an outline.
    #[serde(default = "yes")]
    pub on_table: bool,
    /// The unit refusals speak in.
    pub unit: LengthUnit,
}

impl PlaceLimits {
    /// A placement anywhere on the table (wholly on it, on no other base).
    pub fn new(unit: LengthUnit) -> PlaceLimits {
        PlaceLimits {
            zone: None,
            away: Vec::new(),
            wholly_near: Vec::new(),
            no_stop: BTreeSet::new(),
            on_table: true,
            unit,
        }
    }

    /// These limits, wholly within `zone`.
    pub fn in_zone(self, zone: Area) -> PlaceLimits {
        PlaceLimits {
            zone: Some(zone),
            ..self
        }
    }

    /// These limits, more than `distance` from `target`.
    pub fn away_from(mut self, target: Target, distance: Length) -> PlaceLimits {
        self.away.push((target, distance));
        self
    }
}

/// Checks setting `pieces` up (new pieces, not yet in the scene, at their positions): each
/// in bounds, wholly on the table, wholly within the zone, within the `wholly_near` targets,
/// more than the `away` distances from their targets, on no terrain it may not stand on,
/// overlapping no base already on the table nor each other. Ids must be new.
///
/// # Examples
///
/// ```
/// use gloam_core::{check_placement, Area, Figure, GroupId, Length, LengthUnit, PieceId, PlaceLimits, PlayerId, Point, Refusal, Scene, TablePiece};
/// let zone = Area::Polygon(vec![Point::new(0, 0), Point::new(1000, 0), Point::new(1000, 500), Point::new(0, 500)]);
/// let limits = PlaceLimits::new(LengthUnit::Mm).in_zone(zone);
/// let at = |x, y| TablePiece { id: PieceId(0), side: PlayerId(0), group: GroupId(0), figure: Figure::new(Point::new(x, y), Length::tenth_mm(100)) };
/// assert!(check_placement(&Scene::default(), &[at(100, 400)], &limits).is_ok());
/// let refused = check_placement(&Scene::default(), &[at(100, 401)], &limits).unwrap_err();
/// assert_eq!(refused.reason, Refusal::OutsideZone);
/// ```
pub fn check_placement(
    scene: &Scene,
    pieces: &[TablePiece],
    limits: &PlaceLimits,
) -> Result<(), Refused> {
    let unit = limits.unit;
    let mut with_new = scene.clone();
    for piece in pieces {
        let fail = |reason| Err(refuse(piece.id, reason, unit));
        let centre = piece.figure.centre;
        if Point::checked(centre.x, centre.y).is_err() {
            return fail(Refusal::OutOfBounds { point: centre });
        }
        if with_new.piece(piece.id).is_some() {
            return fail(Refusal::Scene(
                SceneError::DuplicatePiece { piece: piece.id }.to_string(),
            ));
        }
        if limits.on_table
            && !scene.outline.is_empty()
            && !polygon_holds_figure(
                &scene.outline,
                P::of(piece.figure.centre),
                radius(&piece.figure),
            )
        {
            return fail(Refusal::OffTable { leg: 0 });
        }
        if limits
            .zone
            .as_ref()
            .is_some_and(|zone| !wholly_within(&piece.figure, zone))
        {
            return fail(Refusal::OutsideZone);
        }
        with_new.pieces.push(piece.clone());
        for (target, distance) in &limits.wholly_near {
            let near = with_new
                .wholly_within(Subject::Piece(piece.id), target, *distance)
                .map_err(|error| scene_refusal(piece.id, &error, unit))?;
            if !near {
                return fail(Refusal::EndsOutOfReach {
                    target: target.to_string(),
                    limit: *distance,
                    closest: None,
                });
            }
        }
        for (target, distance) in &limits.away {
            let close = with_new
                .within(Subject::Piece(piece.id), target, *distance)
                .map_err(|error| scene_refusal(piece.id, &error, unit))?;
            if close {
                return fail(Refusal::TooClose {
                    target: target.to_string(),
                    limit: *distance,
                });
            }
        }
        for &index in &limits.no_stop {
            if scene
                .terrain
                .get(index)
                .is_some_and(|terrain| disc_meets_polygon(&piece.figure, &terrain.footprint))
            {
                return fail(Refusal::EndsOnTerrain { terrain: index });
            }
        }
        if let Some(other) = with_new
            .pieces
            .iter()
            .find(|other| other.id != piece.id && overlapping(&piece.figure, &other.figure))
        {
            return fail(Refusal::EndsOnPiece {
                other: other.id,
                by: overlap_depth(&piece.figure, &other.figure),
            });
        }
    }
    Ok(())
}

fn group_members(
    scene: &Scene,
    group: GroupId,
    unit: LengthUnit,
) -> Result<Vec<TablePiece>, Refused> {
    let members: Vec<TablePiece> = scene.members(group).into_iter().cloned().collect();
    if members.is_empty() {
        return Err(refuse(
            PieceId(0),
            Refusal::Scene(SceneError::UnknownGroup { group }.to_string()),
            unit,
        ));
    }
    Ok(members)
}

pub(crate) fn shifted(point: Point, by: Point) -> Point {
    point.offset(Length::tenth_mm(by.x), Length::tenth_mm(by.y))
}

fn moved_figure(figure: &Figure, to: Point) -> Figure {
    Figure {
        centre: to,
        ..*figure
    }
}

fn overlap_depth(a: &Figure, b: &Figure) -> Length {
    let centres = i128::from(crate::table::isqrt_floor(crate::table::centre_distance2(
        a, b,
    )));
    let depth = (radius(a) + radius(b) - centres).max(0);
    Length::tenth_mm(i64::try_from(depth).unwrap_or(i64::MAX))
}

/// Distance from `p` to segment ab, rounded down (for messages).
fn segment_distance_floor(p: P, a: P, b: P) -> i128 {
    let d = b.sub(a);
    let w = p.sub(a);
    let along = w.dot(d);
    let length2 = d.norm2();
    let squared = if along <= 0 {
        w.norm2()
    } else if along >= length2 {
        p.sub(b).norm2()
    } else {
        let cross = d.cross(w);
        cross * cross / length2
    };
    i128::from(crate::table::isqrt_floor(squared))
}

/// A quick exact rejection: whether `p` lies farther than `reach` from segment ab along one
/// axis alone (outside the segment's bounding box grown by `reach`), so its distance is more
/// than `reach`. Saves the products of [`segment_distance_cmp`] for far pieces.
fn beyond_box(p: P, a: P, b: P, reach: i128) -> bool {
    p.x < a.x.min(b.x) - reach
        || p.x > a.x.max(b.x) + reach
        || p.y < a.y.min(b.y) - reach
        || p.y > a.y.max(b.y) + reach
}

/// Whether segments ab and cd come closer than `r` (> 0) to each other.
fn segments_closer(a: P, b: P, c: P, d: P, r: i128) -> bool {
    // Bounding boxes more than r apart on an axis: the segments are too.
    let apart = a.x.max(b.x) + r < c.x.min(d.x)
        || c.x.max(d.x) + r < a.x.min(b.x)
        || a.y.max(b.y) + r < c.y.min(d.y)
        || c.y.max(d.y) + r < a.y.min(b.y);
    r > 0 && !apart && segments_closer_exact(a, b, c, d, r)
}

/// [`segments_closer`] without the bounding-box shortcut (the reference for its test).
fn segments_closer_exact(a: P, b: P, c: P, d: P, r: i128) -> bool {
    r > 0
        && (segments_meet(a, b, c, d)
            || segment_distance_cmp(c, a, b, r) == Ordering::Less
            || segment_distance_cmp(d, a, b, r) == Ordering::Less
            || segment_distance_cmp(a, c, d, r) == Ordering::Less
            || segment_distance_cmp(b, c, d, r) == Ordering::Less)
}

/// Whether a base sliding along ab overlaps the polygon (touching is not overlapping; a base
/// of radius 0 overlaps when its path meets the polygon at all).
fn leg_meets_polygon(a: P, b: P, r: i128, vertices: &[Point]) -> bool {
    let corners = vertices.iter().map(|v| P::of(*v));
    let (Some(low_x), Some(high_x), Some(low_y), Some(high_y)) = (
        corners.clone().map(|v| v.x).min(),
        corners.clone().map(|v| v.x).max(),
        corners.clone().map(|v| v.y).min(),
        corners.map(|v| v.y).max(),
    ) else {
        return false;
    };
    // The swept base's bounding box misses the polygon's: no contact (touching is allowed).
    let misses = if r > 0 {
        a.x.max(b.x) + r <= low_x
            || a.x.min(b.x) - r >= high_x
            || a.y.max(b.y) + r <= low_y
            || a.y.min(b.y) - r >= high_y
    } else {
        a.x.max(b.x) < low_x
            || a.x.min(b.x) > high_x
            || a.y.max(b.y) < low_y
            || a.y.min(b.y) > high_y
    };
    if misses {
        return false;
    }
    leg_meets_polygon_exact(a, b, r, vertices)
}

/// [`leg_meets_polygon`] without the bounding-box shortcut (the reference for its test).
fn leg_meets_polygon_exact(a: P, b: P, r: i128, vertices: &[Point]) -> bool {
    if r == 0 {
        return polygon_contains(vertices, a)
            || polygon_edges(vertices).any(|(c, d)| segments_meet(a, b, c, d));
    }
    polygon_contains(vertices, a)
        || polygon_edges(vertices).any(|(c, d)| segments_closer(a, b, c, d, r))
}

/// Whether a base overlaps the polygon (touching is not overlapping).
fn disc_meets_polygon(figure: &Figure, vertices: &[Point]) -> bool {
    let centre = P::of(figure.centre);
    leg_meets_polygon(centre, centre, radius(figure), vertices)
}

fn is_enemy(piece: &TablePiece, other: &TablePiece) -> bool {
    other.side != piece.side
}

fn check_legs(
    scene: &Scene,
    piece: &TablePiece,
    path: &[Point],
    limits: &PathLimits,
    together: &BTreeSet<PieceId>,
) -> Result<(), Refused> {
    let unit = limits.unit;
    let fail = |reason| Err(refuse(piece.id, reason, unit));
    let Some(start) = path.first() else {
        return fail(Refusal::NoPath);
    };
    if let Some(point) = path.iter().find(|p| Point::checked(p.x, p.y).is_err()) {
        return fail(Refusal::OutOfBounds { point: *point });
    }
    if *start != piece.figure.centre {
        return fail(Refusal::WrongStart {
            at: piece.figure.centre,
            start: *start,
        });
    }
    let budget = length_nonneg(limits.budget);
    let over = match path {
        [a, b] => P::of(*b).sub(P::of(*a)).norm2() > crate::table::square(budget),
        _ => i128::from(path_length(path).as_tenth_mm()) > budget,
    };
    if over || limits.budget.as_tenth_mm() < 0 {
        return fail(Refusal::TooLong {
            length: path_length(path),
            budget: limits.budget,
        });
    }
    let r = radius(&piece.figure);
    let outline = (limits.on_table && !scene.outline.is_empty()).then_some(&scene.outline);
    if let Some(outline) = outline {
        if !polygon_holds_figure(outline, P::of(piece.figure.centre), r) {
            return fail(Refusal::OffTable { leg: 0 });
        }
        for (index, pair) in path.windows(2).enumerate() {
            let (a, b) = (P::of(pair[0]), P::of(pair[1]));
            let leaves = !polygon_holds_figure(outline, b, r)
                || polygon_edges(outline).any(|(c, d)| segments_closer(a, b, c, d, r));
            if leaves {
                return fail(Refusal::OffTable { leg: index + 1 });
            }
        }
    }
    for (index, pair) in path.windows(2).enumerate() {
        let leg = index + 1;
        let (a, b) = (P::of(pair[0]), P::of(pair[1]));
        for other in &scene.pieces {
            if together.contains(&other.id) || limits.may_pass.contains(&other.id) {
                continue;
            }
            let reach = r + radius(&other.figure);
            let centre = P::of(other.figure.centre);
            if !beyond_box(centre, a, b, reach)
                && segment_distance_cmp(centre, a, b, reach) == Ordering::Less
            {
                let by = reach - segment_distance_floor(centre, a, b);
                return fail(Refusal::ThroughPiece {
                    other: other.id,
                    leg,
                    by: Length::tenth_mm(i64::try_from(by.max(0)).unwrap_or(i64::MAX)),
                });
            }
        }
        for &terrain in &limits.impassable {
            if scene
                .terrain
                .get(terrain)
                .is_some_and(|piece| leg_meets_polygon(a, b, r, &piece.footprint))
            {
                return fail(Refusal::ThroughTerrain { terrain, leg });
            }
        }
        if let Some(limit) = limits.never_within {
            for enemy in scene.pieces.iter().filter(|other| is_enemy(piece, other)) {
                let reach = r + radius(&enemy.figure) + length_nonneg(limit);
                let centre = P::of(enemy.figure.centre);
                if limit.as_tenth_mm() >= 0
                    && !beyond_box(centre, a, b, reach)
                    && segment_distance_cmp(centre, a, b, reach) != Ordering::Greater
                {
                    let closest = segment_distance_floor(centre, a, b) - r - radius(&enemy.figure);
                    return fail(Refusal::IntoRange {
                        enemy: enemy.id,
                        leg,
                        limit,
                        closest: Length::tenth_mm(i64::try_from(closest.max(0)).unwrap_or(0)),
                    });
                }
            }
        }
    }
    Ok(())
}

fn check_end(
    scene: &Scene,
    piece: &TablePiece,
    moved: &Figure,
    limits: &PathLimits,
    together: &BTreeSet<PieceId>,
) -> Result<(), Refused> {
    let unit = limits.unit;
    let fail = |reason| Err(refuse(piece.id, reason, unit));
    for other in &scene.pieces {
        if !together.contains(&other.id) && overlapping(moved, &other.figure) {
            return fail(Refusal::EndsOnPiece {
                other: other.id,
                by: overlap_depth(moved, &other.figure),
            });
        }
    }
    for &terrain in limits.impassable.union(&limits.no_stop) {
        if scene
            .terrain
            .get(terrain)
            .is_some_and(|found| disc_meets_polygon(moved, &found.footprint))
        {
            return fail(Refusal::EndsOnTerrain { terrain });
        }
    }
    if let Some(limit) = limits.not_end_within {
        for enemy in scene.pieces.iter().filter(|other| is_enemy(piece, other)) {
            if crate::within(moved, &enemy.figure, limit) {
                return fail(Refusal::EndsInRange {
                    enemy: enemy.id,
                    limit,
                    gap: Gap::between(moved, &enemy.figure).floor(),
                });
            }
        }
    }
    if limits.no_farther_from_enemy {
        let enemies = || scene.pieces.iter().filter(|other| is_enemy(piece, other));
        let before = enemies()
            .map(|e| Gap::between(&piece.figure, &e.figure))
            .min();
        let after = enemies().map(|e| Gap::between(moved, &e.figure)).min();
        if let (Some(before), Some(after)) = (before, after) {
            if after > before {
                return fail(Refusal::FartherFromEnemy {
                    before: before.floor(),
                    after: after.floor(),
                });
            }
        }
    }
    Ok(())
}

/// Whether some of `ends` (pieces at their new places) is within `distance` of `target`
/// (other pieces measured where the scene has them).
fn check_reach(
    scene: &Scene,
    ends: &[(PieceId, Figure)],
    target: &Target,
    distance: Length,
    unit: LengthUnit,
) -> Result<(), Refused> {
    // Only the pieces move; `within` and `closest` read the terrain never and the outline only
    // for the table edge, so the copy leaves out what they do not read.
    let mut after = Scene {
        pieces: scene.pieces.clone(),
        terrain: Vec::new(),
        outline: if matches!(target, Target::Edge) {
            scene.outline.clone()
        } else {
            Vec::new()
        },
    };
    for (piece, figure) in ends {
        after.place(*piece, figure.centre);
    }
    let first = ends.first().map_or(PieceId(0), |(piece, _)| *piece);
    let mut closest: Option<Gap> = None;
    for (piece, _) in ends {
        let subject = Subject::Piece(*piece);
        if after
            .within(subject, target, distance)
            .map_err(|error| scene_refusal(*piece, &error, unit))?
        {
            return Ok(());
        }
        if let Ok(Some((_, _, gap))) = after.closest(subject, target) {
            closest = Some(closest.map_or(gap, |least| least.min(gap)));
        }
    }
    Err(refuse(
        first,
        Refusal::EndsOutOfReach {
            target: target.to_string(),
            limit: distance,
            closest: closest.map(Gap::floor),
        },
        unit,
    ))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn p((x, y): (i64, i64)) -> P {
        P::of(Point::new(x, y))
    }

    fn coordinate() -> impl Strategy<Value = (i64, i64)> {
        (-300i64..=300, -300i64..=300)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// The bounding-box shortcuts never change an answer.
        #[test]
        fn shortcuts_any_agree_with_exact(
            a in coordinate(), b in coordinate(), c in coordinate(), d in coordinate(),
            r in 0i128..=120,
            polygon in prop::collection::vec(coordinate(), 3..=5),
        ) {
            let (a, b, c, d) = (p(a), p(b), p(c), p(d));
            prop_assert_eq!(segments_closer(a, b, c, d, r), segments_closer_exact(a, b, c, d, r));
            let vertices: Vec<Point> = polygon.iter().map(|(x, y)| Point::new(*x, *y)).collect();
            prop_assert_eq!(
                leg_meets_polygon(a, b, r, &vertices),
                leg_meets_polygon_exact(a, b, r, &vertices)
            );
            if beyond_box(c, a, b, r) {
                prop_assert_eq!(segment_distance_cmp(c, a, b, r), Ordering::Greater);
            }
        }
    }
}
