//! Groups of pieces on a measured table: a [`Scene`] of pieces (each with a side, a group and
//! a round base), terrain and the table's outline, and the questions rules ask of it.
//!
//! A group is a unit of several models, or a lone hero (a group of one). Every query is exact
//! integer arithmetic on the geometry of [`crate::table`]: an edge-to-edge distance is a
//! [`Gap`], compared exactly without a square root; only [`Gap::floor`] rounds (down).
//!
//! The kernel names no game: combat range, coherency distances, control values and the like
//! are parameters the ruleset's data supplies.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::table::{
    P, SPAN, centre_distance2, isqrt_floor, length_nonneg, polygon_contains, polygon_edges, radius,
    segment_distance_cmp, square,
};
use crate::{
    Area, Figure, GroupId, Length, PieceId, PlayerId, Point, TableError, Terrain, validate_polygon,
    wholly_within, within, within_area,
};

/// The exact edge-to-edge distance between two bases, or between a base and a point:
/// `max(0, √centre² − radii)`. Gaps compare exactly (no rounding), with each other and with
/// lengths ([`Gap::cmp_length`]).
///
/// # Examples
///
/// ```
/// use gloam_core::{Figure, Gap, Length, Point};
/// let a = Figure::new(Point::ORIGIN, Length::mm(1));
/// let b = Figure::new(Point::new(100, 100), Length::mm(1)); // centres 141.42… apart
/// let c = Figure::new(Point::new(142, 0), Length::mm(1));
/// assert!(Gap::between(&a, &b) < Gap::between(&a, &c));
/// assert_eq!(Gap::between(&a, &b).floor(), Length::tenth_mm(121));
/// assert_eq!(Gap::between(&a, &b).cmp_length(Length::tenth_mm(121)), std::cmp::Ordering::Greater);
/// let touching = Figure::new(Point::new(20, 0), Length::mm(1));
/// assert!(Gap::between(&a, &touching).is_zero());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Gap {
    /// Squared centre distance, at most 8 × 10^18 for in-bound points (9 × 10^18 from
    /// [`Gap::of_length`]).
    centre2: i128,
    /// Sum of the radii, capped at [`SPAN`] (a larger sum covers the whole table anyway).
    radii: i128,
}

impl Gap {
    /// The gap between two bases, edge to edge.
    pub fn between(a: &Figure, b: &Figure) -> Gap {
        Gap {
            centre2: centre_distance2(a, b),
            radii: (radius(a) + radius(b)).min(SPAN),
        }
    }

    /// The gap between a base and a point.
    pub fn to_point(figure: &Figure, point: Point) -> Gap {
        Gap {
            centre2: P::of(figure.centre).sub(P::of(point)).norm2(),
            radii: radius(figure).min(SPAN),
        }
    }

    /// A gap equal to `length` (a negative length counts as 0; longer than any table is capped).
    pub fn of_length(length: Length) -> Gap {
        Gap {
            centre2: square(length_nonneg(length)),
            radii: 0,
        }
    }

    /// Whether the bases touch or overlap.
    pub fn is_zero(self) -> bool {
        self.centre2 <= self.radii * self.radii
    }

    /// The gap rounded down to a tenth of a millimetre.
    pub fn floor(self) -> Length {
        if self.is_zero() {
            return Length::ZERO;
        }
        Length::tenth_mm(isqrt_floor(self.centre2) - i64::try_from(self.radii).unwrap_or(0))
    }

    /// Compares the gap with a length, exactly (a negative length is less than every gap).
    pub fn cmp_length(self, length: Length) -> Ordering {
        if length.as_tenth_mm() < 0 {
            return Ordering::Greater;
        }
        self.cmp(&Gap::of_length(length))
    }
}

impl Ord for Gap {
    fn cmp(&self, other: &Gap) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (false, false) => cmp_root_minus(self.centre2, self.radii, other.centre2, other.radii),
        }
    }
}

impl PartialOrd for Gap {
    fn partial_cmp(&self, other: &Gap) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Gap {
    fn eq(&self, other: &Gap) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Gap {}

/// Compares `√a2 − a` with `√b2 − b` exactly, for `0 <= a < √a2` and `0 <= b < √b2`, with
/// `a2, b2 <= 9 × 10^18` (so `a, b < 3 × 10^9`).
///
/// With `k = a − b >= 0` (else swap and reverse): `√a2` against `√b2 + k`, both sides
/// non-negative, squared: `m = a2 − b2 − k²` against `2k√b2`. A negative `m` is less;
/// otherwise `m² <= 8.1 × 10^37` against `4k²·b2 <= 3.24 × 10^38`, both below `u128::MAX`
/// (3.4 × 10^38).
fn cmp_root_minus(a2: i128, a: i128, b2: i128, b: i128) -> Ordering {
    let k = a - b;
    if k < 0 {
        return cmp_root_minus(b2, b, a2, a).reverse();
    }
    let m = a2 - b2 - k * k;
    if m < 0 {
        return Ordering::Less;
    }
    let m = m.unsigned_abs();
    let k = k.unsigned_abs();
    (m * m).cmp(&(4 * k * k * b2.unsigned_abs()))
}

/// A piece as the table geometry sees it: its id, its side, its group and its base.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TablePiece {
    /// The piece.
    pub id: PieceId,
    /// The side it fights for; every other side is an enemy.
    pub side: PlayerId,
    /// Its group (unit).
    pub group: GroupId,
    /// Its base, position, height and facing.
    pub figure: Figure,
}

/// Pieces on a measured table, with the terrain and the table's outline.
///
/// Pieces are kept in a fixed order (the order given); every query that reports "the first"
/// of something uses it, so answers are deterministic.
///
/// # Examples
///
/// ```
/// use gloam_core::{Figure, GroupId, Length, PieceId, PlayerId, Point, Scene, Subject, TablePiece, Target};
/// let piece = |id: u16, side: u8, x: i64| TablePiece {
///     id: PieceId(id),
///     side: PlayerId(side),
///     group: GroupId(u32::from(id)),
///     figure: Figure::new(Point::at(Length::inches(x), Length::ZERO), Length::mm(16)),
/// };
/// let scene = Scene { pieces: vec![piece(0, 0, 0), piece(1, 1, 4)], ..Scene::default() };
/// // Centres 4" apart, bases 32 mm wide: the gap is 101.6 - 32 = 69.6 mm, within 3" (76.2 mm).
/// assert!(scene.in_range_of_enemy(Subject::Piece(PieceId(0)), Length::inches(3)).unwrap());
/// assert!(!scene.within(Subject::Piece(PieceId(0)), &Target::Piece(PieceId(1)), Length::inches(2)).unwrap());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scene {
    /// The pieces on the table, in a fixed order.
    pub pieces: Vec<TablePiece>,
    /// Terrain pieces; rules name them by index.
    #[serde(default)]
    pub terrain: Vec<Terrain>,
    /// The table's outline, a simple polygon; empty for a table without edges.
    #[serde(default)]
    pub outline: Vec<Point>,
}

/// What a query is about: one piece, or every piece of a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    /// One piece.
    Piece(PieceId),
    /// Every piece of a group.
    Group(GroupId),
}

/// What a distance is measured to.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Target {
    /// A point (an objective marker's centre).
    Point(Point),
    /// A piece's base.
    Piece(PieceId),
    /// The bases of a group's pieces.
    Group(GroupId),
    /// A region (territory, zone, objective of some size).
    Area(Area),
    /// The table's edge (its outline).
    Edge,
    /// The bases of every piece not on this side.
    EnemiesOf(PlayerId),
}

impl fmt::Display for Target {
    /// In players' words: `piece 3`, `group 2`, `the table edge`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Point(point) => write!(f, "point ({}, {})", point.x, point.y),
            Target::Piece(piece) => write!(f, "{piece}"),
            Target::Group(group) => write!(f, "{group}"),
            Target::Area(_) => write!(f, "the area"),
            Target::Edge => write!(f, "the table edge"),
            Target::EnemiesOf(side) => write!(f, "an enemy of {side}"),
        }
    }
}

/// Why a scene or a query about it was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SceneError {
    /// No piece has this id.
    #[error("{piece} is not on the table")]
    UnknownPiece {
        /// The id asked for.
        piece: PieceId,
    },
    /// No piece belongs to this group.
    #[error("{group} has no piece on the table")]
    UnknownGroup {
        /// The group asked for.
        group: GroupId,
    },
    /// Two pieces share an id.
    #[error("{piece} appears twice on the table")]
    DuplicatePiece {
        /// The repeated id.
        piece: PieceId,
    },
    /// A group's pieces are not all on one side.
    #[error("{group} has pieces on more than one side")]
    MixedSides {
        /// The group.
        group: GroupId,
    },
    /// Two bases overlap.
    #[error("the bases of {first} and {second} overlap")]
    Overlap {
        /// The earlier piece.
        first: PieceId,
        /// The later piece.
        second: PieceId,
    },
    /// A query about the table edge on a table without an outline.
    #[error("the table has no outline, so it has no edge to measure to")]
    NoOutline,
    /// A figure, the outline or a terrain footprint is malformed.
    #[error("{what}: {source}")]
    Geometry {
        /// Which part (`piece 3`, `terrain 1`, `the outline`).
        what: String,
        /// The problem.
        source: TableError,
    },
    /// A query the kernel does not answer (see the message for what to do instead).
    #[error("{what}")]
    Unsupported {
        /// What was asked, and what to do instead.
        what: &'static str,
    },
}

/// A target's bases and shapes, looked up once.
enum Resolved<'a> {
    Point(Point),
    Figures(Vec<(PieceId, &'a Figure)>),
    Area(&'a Area),
    Edge(&'a [Point]),
}

impl Scene {
    /// Checks the scene: every figure in bounds, ids unique, each group on one side, the
    /// outline and every terrain footprint simple polygons, no two bases overlapping.
    pub fn validate(&self) -> Result<(), SceneError> {
        let mut seen = BTreeSet::new();
        let mut sides: BTreeMap<GroupId, PlayerId> = BTreeMap::new();
        for piece in &self.pieces {
            piece
                .figure
                .validate()
                .map_err(|source| SceneError::Geometry {
                    what: piece.id.to_string(),
                    source,
                })?;
            if !seen.insert(piece.id) {
                return Err(SceneError::DuplicatePiece { piece: piece.id });
            }
            if *sides.entry(piece.group).or_insert(piece.side) != piece.side {
                return Err(SceneError::MixedSides { group: piece.group });
            }
        }
        if !self.outline.is_empty() {
            validate_polygon(&self.outline).map_err(|source| SceneError::Geometry {
                what: "the outline".to_owned(),
                source,
            })?;
        }
        for (index, terrain) in self.terrain.iter().enumerate() {
            validate_polygon(&terrain.footprint).map_err(|source| SceneError::Geometry {
                what: format!("terrain {index}"),
                source,
            })?;
        }
        match self.first_overlap() {
            Some((first, second)) => Err(SceneError::Overlap { first, second }),
            None => Ok(()),
        }
    }

    /// The first pair of pieces (in scene order) whose bases overlap, if any.
    pub fn first_overlap(&self) -> Option<(PieceId, PieceId)> {
        self.pieces.iter().enumerate().find_map(|(i, a)| {
            self.pieces[i + 1..]
                .iter()
                .find(|b| crate::overlapping(&a.figure, &b.figure))
                .map(|b| (a.id, b.id))
        })
    }

    /// The piece with this id.
    pub fn piece(&self, id: PieceId) -> Option<&TablePiece> {
        self.pieces.iter().find(|piece| piece.id == id)
    }

    /// The pieces of a group, in scene order.
    pub fn members(&self, group: GroupId) -> Vec<&TablePiece> {
        self.pieces
            .iter()
            .filter(|piece| piece.group == group)
            .collect()
    }

    /// The groups on the table, in order of their first piece.
    pub fn groups(&self) -> Vec<GroupId> {
        let mut seen = BTreeSet::new();
        self.pieces
            .iter()
            .filter(|piece| seen.insert(piece.group))
            .map(|piece| piece.group)
            .collect()
    }

    /// The pieces a subject names (never empty).
    pub fn subject(&self, subject: Subject) -> Result<Vec<&TablePiece>, SceneError> {
        match subject {
            Subject::Piece(id) => self
                .piece(id)
                .map(|piece| vec![piece])
                .ok_or(SceneError::UnknownPiece { piece: id }),
            Subject::Group(group) => {
                let members = self.members(group);
                if members.is_empty() {
                    Err(SceneError::UnknownGroup { group })
                } else {
                    Ok(members)
                }
            }
        }
    }

    /// The side a subject fights for (its first piece's).
    pub fn side_of(&self, subject: Subject) -> Result<PlayerId, SceneError> {
        Ok(self.subject(subject)?[0].side)
    }

    fn resolve<'a>(&'a self, target: &'a Target) -> Result<Resolved<'a>, SceneError> {
        let figures = |pieces: Vec<&'a TablePiece>| {
            Resolved::Figures(pieces.into_iter().map(|p| (p.id, &p.figure)).collect())
        };
        Ok(match target {
            Target::Point(point) => Resolved::Point(*point),
            Target::Piece(id) => figures(self.subject(Subject::Piece(*id))?),
            Target::Group(group) => figures(self.subject(Subject::Group(*group))?),
            Target::Area(area) => Resolved::Area(area),
            Target::Edge => {
                if self.outline.is_empty() {
                    return Err(SceneError::NoOutline);
                }
                Resolved::Edge(&self.outline)
            }
            Target::EnemiesOf(side) => figures(
                self.pieces
                    .iter()
                    .filter(|piece| piece.side != *side)
                    .collect(),
            ),
        })
    }

    /// Whether some part of some base of `subject` lies within `distance` of `target`
    /// (edge to edge, boundary inclusive: exactly `distance` away is within). A piece is
    /// never measured to itself. False for a negative distance.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Area, Figure, GroupId, Length, PieceId, PlayerId, Point, Scene, Subject, TablePiece, Target};
    /// let model = TablePiece {
    ///     id: PieceId(0),
    ///     side: PlayerId(0),
    ///     group: GroupId(0),
    ///     figure: Figure::new(Point::at(Length::inches(4), Length::ZERO), Length::inches(1)),
    /// };
    /// let scene = Scene { pieces: vec![model], ..Scene::default() };
    /// let objective = Target::Point(Point::ORIGIN);
    /// assert!(scene.within(Subject::Group(GroupId(0)), &objective, Length::inches(3)).unwrap());
    /// assert!(!scene.within(Subject::Group(GroupId(0)), &objective, Length::tenth_mm(761)).unwrap());
    /// ```
    pub fn within(
        &self,
        subject: Subject,
        target: &Target,
        distance: Length,
    ) -> Result<bool, SceneError> {
        let pieces = self.subject(subject)?;
        let target = self.resolve(target)?;
        Ok(pieces
            .iter()
            .any(|piece| figure_within(piece.id, &piece.figure, &target, distance)))
    }

    /// Whether every point of every base of `subject` lies within `distance` of `target`.
    ///
    /// Readings (exact for round bases): of a point, centre distance + r <= d; of a piece,
    /// every point of the base within d of some point of the other base; of a group or of the
    /// enemies, each base wholly within d of **one** of their bases (a base straddling two
    /// is not counted: the stricter reading); of an area, inside it (d = 0) or, for a circle,
    /// inside the circle grown by d, or, for a convex polygon (a rectangular territory), its
    /// centre within d - r of the polygon (for d under r: inside it, at least r - d from every
    /// edge); of the table edge, within d of **one** side of the
    /// outline. A concave polygon area with d > 0 is [`SceneError::Unsupported`]: draw the
    /// grown area in data. False for a negative distance.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Figure, GroupId, Length, PieceId, PlayerId, Point, Scene, Subject, TablePiece, Target};
    /// let at = |x: i64| TablePiece {
    ///     id: PieceId(0),
    ///     side: PlayerId(0),
    ///     group: GroupId(0),
    ///     figure: Figure::new(Point::new(x, 500), Length::tenth_mm(100)),
    /// };
    /// let square = vec![Point::new(0, 0), Point::new(1000, 0), Point::new(1000, 1000), Point::new(0, 1000)];
    /// let scene = |x| Scene { pieces: vec![at(x)], outline: square.clone(), ..Scene::default() };
    /// let me = Subject::Piece(PieceId(0));
    /// // Wholly within 20 mm of the west edge: centre at most 200 - 100 tenths from it.
    /// assert!(scene(100).wholly_within(me, &Target::Edge, Length::mm(20)).unwrap());
    /// assert!(!scene(101).wholly_within(me, &Target::Edge, Length::mm(20)).unwrap());
    /// ```
    pub fn wholly_within(
        &self,
        subject: Subject,
        target: &Target,
        distance: Length,
    ) -> Result<bool, SceneError> {
        let pieces = self.subject(subject)?;
        let target = self.resolve(target)?;
        for piece in pieces {
            if !figure_wholly_within(piece.id, &piece.figure, &target, distance)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The gap between two pieces.
    pub fn gap(&self, a: PieceId, b: PieceId) -> Result<Gap, SceneError> {
        let first = self.piece(a).ok_or(SceneError::UnknownPiece { piece: a })?;
        let second = self.piece(b).ok_or(SceneError::UnknownPiece { piece: b })?;
        Ok(Gap::between(&first.figure, &second.figure))
    }

    /// The closest pair between `subject` and the bases of `target` (a piece, a group or the
    /// enemies of a side), as `(subject's piece, target's piece, gap)`: the least gap, ties
    /// to the first pair in scene order. `None` when the target has no piece other than the
    /// subject's own. Points, areas and the edge are [`SceneError::Unsupported`] (use
    /// [`Scene::within`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Figure, GroupId, Length, PieceId, PlayerId, Point, Scene, Subject, TablePiece, Target};
    /// let piece = |id: u16, side: u8, x: i64| TablePiece {
    ///     id: PieceId(id),
    ///     side: PlayerId(side),
    ///     group: GroupId(u32::from(side)),
    ///     figure: Figure::new(Point::new(x, 0), Length::tenth_mm(10)),
    /// };
    /// let scene = Scene { pieces: vec![piece(0, 0, 0), piece(1, 0, 50), piece(2, 1, 200), piece(3, 1, 90)], ..Scene::default() };
    /// let (mine, theirs, gap) = scene.closest(Subject::Group(GroupId(0)), &Target::Group(GroupId(1))).unwrap().unwrap();
    /// assert_eq!((mine, theirs, gap.floor()), (PieceId(1), PieceId(3), Length::tenth_mm(20)));
    /// ```
    pub fn closest(
        &self,
        subject: Subject,
        target: &Target,
    ) -> Result<Option<(PieceId, PieceId, Gap)>, SceneError> {
        let pieces = self.subject(subject)?;
        let Resolved::Figures(others) = self.resolve(target)? else {
            return Err(SceneError::Unsupported {
                what: "the closest pair is measured between pieces; use `within` for points, areas and the table edge",
            });
        };
        let mut best: Option<(PieceId, PieceId, Gap)> = None;
        for piece in pieces {
            for (other, figure) in &others {
                if *other == piece.id {
                    continue;
                }
                let gap = Gap::between(&piece.figure, figure);
                if best.is_none_or(|(_, _, least)| gap < least) {
                    best = Some((piece.id, *other, gap));
                }
            }
        }
        Ok(best)
    }

    /// The enemy piece nearest to `piece` (ties to the first in scene order), with its gap.
    pub fn nearest_enemy(&self, piece: PieceId) -> Result<Option<(PieceId, Gap)>, SceneError> {
        let side = self.side_of(Subject::Piece(piece))?;
        Ok(self
            .closest(Subject::Piece(piece), &Target::EnemiesOf(side))?
            .map(|(_, enemy, gap)| (enemy, gap)))
    }

    /// Whether some base of `subject` lies within `distance` of some enemy base: "in range"
    /// (e.g. in combat, when `distance` is the ruleset's combat range).
    pub fn in_range_of_enemy(
        &self,
        subject: Subject,
        distance: Length,
    ) -> Result<bool, SceneError> {
        let side = self.side_of(subject)?;
        self.within(subject, &Target::EnemiesOf(side), distance)
    }

    /// Whether a group keeps its coherency under `rule` (see [`check_coherency`]). A group
    /// with no piece on the table is refused as unknown.
    pub fn coherency(&self, group: GroupId, rule: &Coherency) -> Result<(), CoherencyBreak> {
        let members: Vec<TablePiece> = self.members(group).into_iter().cloned().collect();
        check_coherency(&members, rule)
    }

    /// Control of an objective, summed by side: for every piece with some part of its base
    /// within `distance` of `objective` (an [`Area`]; a point is a circle of radius 0), its
    /// value from `values` (0 when absent; the ruleset's Control characteristic) is added to
    /// its side's total (saturating). Sides with no piece within are absent. See
    /// [`controller`] for who controls it.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use gloam_core::{controller, Area, Figure, GroupId, Length, PieceId, PlayerId, Point, Scene, TablePiece};
    /// let piece = |id: u16, side: u8, x: i64| TablePiece {
    ///     id: PieceId(id),
    ///     side: PlayerId(side),
    ///     group: GroupId(u32::from(id)),
    ///     figure: Figure::new(Point::at(Length::inches(x), Length::ZERO), Length::inches(1)),
    /// };
    /// let scene = Scene { pieces: vec![piece(0, 0, 4), piece(1, 1, -4), piece(2, 1, 5)], ..Scene::default() };
    /// let values = BTreeMap::from([(PieceId(0), 2), (PieceId(1), 1), (PieceId(2), 5)]);
    /// let objective = Area::Circle { centre: Point::ORIGIN, radius: Length::ZERO };
    /// let totals = scene.control(&objective, Length::inches(3), &values);
    /// // Piece 2's base is 4" away: not within 3".
    /// assert_eq!(totals, BTreeMap::from([(PlayerId(0), 2), (PlayerId(1), 1)]));
    /// assert_eq!(controller(&totals), Some(PlayerId(0)));
    /// ```
    pub fn control(
        &self,
        objective: &Area,
        distance: Length,
        values: &BTreeMap<PieceId, i64>,
    ) -> BTreeMap<PlayerId, i64> {
        let mut totals: BTreeMap<PlayerId, i64> = BTreeMap::new();
        for piece in &self.pieces {
            if within_area(&piece.figure, objective, distance) {
                let value = values.get(&piece.id).copied().unwrap_or(0);
                let total = totals.entry(piece.side).or_insert(0);
                *total = total.saturating_add(value);
            }
        }
        totals
    }

    /// This scene with every piece, terrain footprint and outline vertex moved by `by`
    /// (saturating); for tests of translation invariance.
    pub fn translated(&self, by: Point) -> Scene {
        let shift = |point: Point| point.offset(Length::tenth_mm(by.x), Length::tenth_mm(by.y));
        Scene {
            pieces: self
                .pieces
                .iter()
                .map(|piece| TablePiece {
                    figure: Figure {
                        centre: shift(piece.figure.centre),
                        ..piece.figure
                    },
                    ..piece.clone()
                })
                .collect(),
            terrain: self
                .terrain
                .iter()
                .map(|terrain| Terrain {
                    footprint: terrain.footprint.iter().copied().map(shift).collect(),
                    ..terrain.clone()
                })
                .collect(),
            outline: self.outline.iter().copied().map(shift).collect(),
        }
    }

    /// The pieces of a game standing on a measured table, in id order: each piece of the
    /// default layer (models, not markers) with a [`crate::Position::Table`], its owner as its
    /// side, its base radius (tenths of a millimetre) from the characteristic `radius`, its
    /// group from the characteristic `group` (the piece's own id when it has none), its
    /// facing from its position. Base characteristics are read, before modifiers. Terrain
    /// and the outline are the ruleset's to add.
    pub fn from_state(state: &crate::GameState, radius: &str, group: &str) -> Scene {
        let pieces = state
            .pieces
            .values()
            .filter(|piece| piece.layer.is_empty())
            .filter_map(|piece| match piece.position {
                Some(crate::Position::Table { at, facing }) => Some(TablePiece {
                    id: piece.id,
                    side: piece.owner,
                    group: GroupId(
                        piece
                            .characteristics
                            .get(group)
                            .and_then(|g| u32::try_from(*g).ok())
                            .unwrap_or(u32::from(piece.id.0)),
                    ),
                    figure: Figure::new(
                        at,
                        Length::tenth_mm(piece.characteristics.get(radius).copied().unwrap_or(0)),
                    )
                    .with_facing(facing),
                }),
                _ => None,
            })
            .collect();
        Scene {
            pieces,
            ..Scene::default()
        }
    }

    /// Moves a piece's centre (no check: see `check_path` for legality).
    pub(crate) fn place(&mut self, piece: PieceId, at: Point) {
        if let Some(found) = self.pieces.iter_mut().find(|p| p.id == piece) {
            found.figure.centre = at;
        }
    }
}

/// Who controls an objective from [`Scene::control`]'s totals: the side with the strictly
/// highest positive total; nobody on a tie or when every total is 0 or less. (Whether control
/// persists once nobody is near is the ruleset's.)
pub fn controller(totals: &BTreeMap<PlayerId, i64>) -> Option<PlayerId> {
    let best = totals.values().copied().max()?;
    let mut leaders = totals.iter().filter(|(_, total)| **total == best);
    let (side, _) = leaders.next()?;
    (best > 0 && leaders.next().is_none()).then_some(*side)
}

fn figure_within(id: PieceId, figure: &Figure, target: &Resolved<'_>, distance: Length) -> bool {
    if distance.as_tenth_mm() < 0 {
        return false;
    }
    let centre = P::of(figure.centre);
    let reach = radius(figure) + length_nonneg(distance);
    match target {
        Resolved::Point(point) => centre.sub(P::of(*point)).norm2() <= square(reach),
        Resolved::Figures(others) => others
            .iter()
            .any(|(other, base)| *other != id && within(figure, base, distance)),
        Resolved::Area(area) => within_area(figure, area, distance),
        Resolved::Edge(outline) => polygon_edges(outline)
            .any(|(a, b)| segment_distance_cmp(centre, a, b, reach) != Ordering::Greater),
    }
}

fn figure_wholly_within(
    id: PieceId,
    figure: &Figure,
    target: &Resolved<'_>,
    distance: Length,
) -> Result<bool, SceneError> {
    if distance.as_tenth_mm() < 0 {
        return Ok(false);
    }
    let centre = P::of(figure.centre);
    let r = radius(figure);
    let d = length_nonneg(distance);
    // Every point of a disc lies within d of a convex set iff its centre lies within d - r
    // (the farthest point is straight away from the nearest point of the set).
    let centre_within =
        |other: P, slack: i128| slack >= 0 && centre.sub(other).norm2() <= square(slack);
    Ok(match target {
        Resolved::Point(point) => centre_within(P::of(*point), d - r),
        Resolved::Figures(others) => others.iter().any(|(other, base)| {
            *other != id && centre_within(P::of(base.centre), d + radius(base) - r)
        }),
        Resolved::Area(area) => match area {
            Area::Circle {
                centre: area_centre,
                radius: area_radius,
            } => centre_within(P::of(*area_centre), length_nonneg(*area_radius) + d - r),
            Area::Polygon(_) if d == 0 => wholly_within(figure, area),
            // A convex polygon (a rectangular territory): the base lies within d of it when
            // its centre does within d - r (inside it, or near an edge); when d is less than
            // r, when its centre is inside it at least r - d from every edge (the polygon
            // grown by d, then shrunk by r, is the polygon shrunk by r - d).
            Area::Polygon(vertices) if convex(vertices) => {
                let slack = d - r;
                if slack >= 0 {
                    polygon_contains(vertices, centre)
                        || polygon_edges(vertices).any(|(a, b)| {
                            segment_distance_cmp(centre, a, b, slack) != Ordering::Greater
                        })
                } else {
                    polygon_contains(vertices, centre)
                        && polygon_edges(vertices).all(|(a, b)| {
                            segment_distance_cmp(centre, a, b, -slack) != Ordering::Less
                        })
                }
            }
            Area::Polygon(_) => {
                return Err(SceneError::Unsupported {
                    what: "wholly within a distance of a concave polygon area is not measured; draw the grown area in data",
                });
            }
        },
        Resolved::Edge(outline) => {
            let slack = d - r;
            slack >= 0
                && polygon_edges(outline)
                    .any(|(a, b)| segment_distance_cmp(centre, a, b, slack) != Ordering::Greater)
        }
    })
}

/// Whether the polygon is convex: every turn along its outline goes the same way (collinear
/// vertices allowed). Fewer than three vertices are not.
fn convex(vertices: &[Point]) -> bool {
    let count = vertices.len();
    if count < 3 {
        return false;
    }
    let mut sign = 0i128;
    for i in 0..count {
        let a = P::of(vertices[i]);
        let b = P::of(vertices[(i + 1) % count]);
        let c = P::of(vertices[(i + 2) % count]);
        let turn = b.sub(a).cross(c.sub(b)).signum();
        if turn != 0 {
            if sign != 0 && turn != sign {
                return false;
            }
            sign = turn;
        }
    }
    sign != 0
}

/// A coherency rule, from the ruleset's data: each piece of a group must be within
/// `distance` of at least `neighbours` other pieces of its group, and the group must be
/// connected (any piece reachable from any other through pieces within `distance`).
///
/// Chosen reading (digest `tabletop.md` B12, row "Coherency": the values are low-confidence
/// and not in the seed, so they are data): distances are edge to edge, inclusive; a group of
/// `n` pieces needs only `min(neighbours, n − 1)` each (a unit of two needs its one partner
/// even when the data says 2); a group of one is always coherent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Coherency {
    /// How close a neighbour must be, edge to edge (inclusive).
    pub distance: Length,
    /// How many neighbours each piece needs.
    pub neighbours: u32,
}

/// Why a group is not coherent, in players' words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CoherencyBreak {
    /// A piece has too few group-mates close enough.
    #[error("{piece} has {has} of its group within {distance}; it needs {needs}")]
    TooFewNeighbours {
        /// The first such piece, in scene order.
        piece: PieceId,
        /// How many it has.
        has: u32,
        /// How many it needs.
        needs: u32,
        /// The coherency distance.
        distance: Length,
    },
    /// The group has split into parts that are not within reach of each other.
    #[error("the group has split into {} parts: {}", parts.len(), describe_parts(parts))]
    Split {
        /// The parts, each in scene order, ordered by their first piece.
        parts: Vec<Vec<PieceId>>,
    },
}

fn describe_parts(parts: &[Vec<PieceId>]) -> String {
    parts
        .iter()
        .map(|part| {
            let names: Vec<String> = part.iter().map(ToString::to_string).collect();
            format!("[{}]", names.join(", "))
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// Checks a group's coherency (see [`Coherency`] for the reading): first each piece's count
/// of neighbours, in order, then connectedness.
///
/// # Examples
///
/// ```
/// use gloam_core::{check_coherency, Coherency, CoherencyBreak, Figure, GroupId, Length, PieceId, PlayerId, Point, TablePiece};
/// let model = |id: u16, x: i64| TablePiece {
///     id: PieceId(id),
///     side: PlayerId(0),
///     group: GroupId(0),
///     figure: Figure::new(Point::new(x, 0), Length::tenth_mm(125)),
/// };
/// let rule = Coherency { distance: Length::tenth_mm(127), neighbours: 1 };
/// // Bases 250 tenths wide: centres 377 apart leave exactly a 127-tenth (½") gap.
/// assert!(check_coherency(&[model(0, 0), model(1, 377)], &rule).is_ok());
/// assert!(matches!(
///     check_coherency(&[model(0, 0), model(1, 378)], &rule),
///     Err(CoherencyBreak::TooFewNeighbours { piece: PieceId(0), .. })
/// ));
/// ```
pub fn check_coherency(members: &[TablePiece], rule: &Coherency) -> Result<(), CoherencyBreak> {
    let count = members.len();
    if count <= 1 {
        return Ok(());
    }
    let needs = rule
        .neighbours
        .min(u32::try_from(count - 1).unwrap_or(u32::MAX));
    let near: Vec<Vec<usize>> = (0..count)
        .map(|i| {
            (0..count)
                .filter(|&j| {
                    j != i && within(&members[i].figure, &members[j].figure, rule.distance)
                })
                .collect()
        })
        .collect();
    for (i, neighbours) in near.iter().enumerate() {
        let has = u32::try_from(neighbours.len()).unwrap_or(u32::MAX);
        if has < needs {
            return Err(CoherencyBreak::TooFewNeighbours {
                piece: members[i].id,
                has,
                needs,
                distance: rule.distance,
            });
        }
    }
    let mut part_of = vec![usize::MAX; count];
    let mut parts: Vec<Vec<PieceId>> = Vec::new();
    for start in 0..count {
        if part_of[start] != usize::MAX {
            continue;
        }
        let label = parts.len();
        let mut stack = vec![start];
        part_of[start] = label;
        let mut part = Vec::new();
        while let Some(i) = stack.pop() {
            part.push(i);
            for &j in &near[i] {
                if part_of[j] == usize::MAX {
                    part_of[j] = label;
                    stack.push(j);
                }
            }
        }
        part.sort_unstable();
        parts.push(part.into_iter().map(|i| members[i].id).collect());
    }
    if parts.len() > 1 {
        return Err(CoherencyBreak::Split { parts });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// On perfect squares the comparison is plain integer arithmetic; one more than a
        /// perfect square is a hair larger, and the exact comparison sees it.
        #[test]
        fn cmp_root_minus_any_matches_integer_roots(
            s in 1i128..=2_828_427_124,
            t in 1i128..=2_828_427_124,
            a_part in 0u32..=1_000_000,
            b_part in 0u32..=1_000_000,
        ) {
            let a = s * i128::from(a_part) / 1_000_001;
            let b = t * i128::from(b_part) / 1_000_001;
            prop_assert_eq!(cmp_root_minus(s * s, a, t * t, b), (s - a).cmp(&(t - b)));
            // √(s² + 1) − a is just above s − a.
            let above = cmp_root_minus(s * s + 1, a, t * t, b);
            match (s - a).cmp(&(t - b)) {
                Ordering::Less => prop_assert_eq!(above, Ordering::Less),
                _ => prop_assert_eq!(above, Ordering::Greater),
            }
        }
    }

    #[test]
    fn wholly_within_a_distance_of_a_convex_polygon_is_measured() {
        // A 10 by 70 strip; a base of radius 1 cm wholly within 20 cm of it has its centre at
        // most 19 cm beyond the strip's edge; a concave polygon is still refused.
        let strip = Area::Polygon(vec![
            Point::new(0, 0),
            Point::new(7000, 0),
            Point::new(7000, 1000),
            Point::new(0, 1000),
        ]);
        let at = |y: i64| TablePiece {
            id: PieceId(0),
            side: PlayerId(0),
            group: GroupId(0),
            figure: Figure::new(Point::new(3500, y), Length::tenth_mm(100)),
        };
        let scene = |y| Scene {
            pieces: vec![at(y)],
            ..Scene::default()
        };
        let me = Subject::Piece(PieceId(0));
        let near = |y| {
            scene(y)
                .wholly_within(me, &Target::Area(strip.clone()), Length::cm(20))
                .unwrap()
        };
        assert!(near(500));
        assert!(near(2900));
        assert!(!near(2901));
        let notch = Area::Polygon(vec![
            Point::new(0, 0),
            Point::new(2000, 0),
            Point::new(1000, 500),
            Point::new(2000, 1000),
            Point::new(0, 1000),
        ]);
        assert!(
            scene(500)
                .wholly_within(me, &Target::Area(notch), Length::cm(20))
                .is_err()
        );
    }

    #[test]
    fn cmp_root_minus_exact_near_ties() {
        // √2 − 1 (0.414…) against √1 − 0.5 is not expressible; use integers: √8 − 2 vs √1 − 0.
        // 2.828 − 2 = 0.828 < 1.
        assert_eq!(cmp_root_minus(8, 2, 1, 0), Ordering::Less);
        // √16 − 1 = 3 = √9 − 0.
        assert_eq!(cmp_root_minus(16, 1, 9, 0), Ordering::Equal);
        // √10 − 3 (0.162) vs √2 − 1 (0.414).
        assert_eq!(cmp_root_minus(10, 3, 2, 1), Ordering::Less);
        assert_eq!(cmp_root_minus(2, 1, 10, 3), Ordering::Greater);
        // Extremes within bounds do not overflow.
        let far = 8_000_000_000_000_000_000;
        assert_eq!(
            cmp_root_minus(far, 2_828_427_123, 9_000_000_000_000_000_000, 0),
            Ordering::Less
        );
        assert_eq!(
            cmp_root_minus(9_000_000_000_000_000_000, 0, far, 2_828_427_123),
            Ordering::Greater
        );
    }
}
