//! The measured table in scripts: the table a [`crate::World`] may hold ([`Table`]: its
//! outline, terrain features, territories and objectives) and the vocabulary that reads and
//! changes the pieces on it through the kernel's table geometry (`gloam_core::Scene`).
//!
//! Lengths in scripts are whole tenths of a millimetre (`inches(3)` is 762). A unit is the
//! kernel's group: the pieces sharing the value of the characteristic [`Names::unit`]
//! (`crate::Names`), each with a round base of the radius in [`Names::base_radius`]. No game's
//! term is here: combat range, coherency and control distances are what scripts pass.
//!
//! [`Names::unit`]: crate::Names::unit
//! [`Names::base_radius`]: crate::Names::base_radius

use std::collections::BTreeMap;
use std::rc::Rc;

use gloam_core::{
    Area, Choice, Coherency, Figure, GroupId, Lattice, Length, LengthUnit, PathLimits, PieceId,
    PlaceLimits, PlayerId, Point, Position, Request, Scene, Subject, TablePiece, Target, Terrain,
    check_formation, check_path, check_placement, controller, formation_candidates, line_of_sight,
    placement_candidates,
};
use rhai::{Array, Dynamic, ImmutableString, Map};

use crate::FunctionKind::Choice as ChoiceKind;
use crate::compiled::Registrar;
use crate::functions::{Ncc, Res, effect, refused};
use crate::runtime::{RunState, Stop, with_run};
use crate::values::type_name;

/// A terrain feature placed on a [`Table`]: its name, its kind and rules as the data names
/// them (`large`; `cover`, `obscuring`), and its footprints, each with one height (the
/// feature's floor first, then its raised parts).
///
/// # Examples
///
/// ```
/// use gloam_core::{Length, Point};
/// use gloam_dsl::Feature;
/// let square = vec![Point::new(0, 0), Point::new(100, 0), Point::new(100, 100), Point::new(0, 100)];
/// let wall = Feature::new("Wall", "small", ["obscuring"], square.clone(), Length::mm(5))
///     .with_part(square, Length::cm(8))
///     .moved_by(Point::new(1000, 0));
/// assert_eq!(wall.footprints[1].footprint[0], Point::new(1000, 0));
/// assert!(wall.has_rule("obscuring"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Feature {
    /// Its name, unique on the table.
    pub name: String,
    /// Its kind (`large`, `small`).
    pub kind: String,
    /// Its rules (`cover`, `obscuring`, `unstable`), as the data names them.
    pub rules: Vec<String>,
    /// Its footprints on the table (floor first, then raised parts), each a simple polygon
    /// with one height; each carries the feature's rules as tags.
    pub footprints: Vec<Terrain>,
}

impl Feature {
    /// A feature with one footprint (its floor) of `height`.
    pub fn new<I, S>(
        name: impl Into<String>,
        kind: impl Into<String>,
        rules: I,
        footprint: Vec<Point>,
        height: Length,
    ) -> Feature
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let rules: Vec<String> = rules.into_iter().map(Into::into).collect();
        Feature {
            name: name.into(),
            kind: kind.into(),
            footprints: vec![Terrain {
                footprint,
                height,
                tags: rules.clone(),
            }],
            rules,
        }
    }

    /// The same feature with one more raised part.
    pub fn with_part(mut self, footprint: Vec<Point>, height: Length) -> Feature {
        self.footprints.push(Terrain {
            footprint,
            height,
            tags: self.rules.clone(),
        });
        self
    }

    /// The same feature moved by `by` (every corner of every footprint; saturating).
    pub fn moved_by(mut self, by: Point) -> Feature {
        for terrain in &mut self.footprints {
            for corner in &mut terrain.footprint {
                *corner = Point::new(corner.x.saturating_add(by.x), corner.y.saturating_add(by.y));
            }
        }
        self
    }

    /// Whether the feature has the rule `rule`.
    pub fn has_rule(&self, rule: &str) -> bool {
        self.rules.iter().any(|r| r == rule)
    }
}

/// A measured table for a [`crate::World`]: its outline, its terrain features, the named areas
/// of the deployment map in play (territories) and its objectives (named points), and the
/// unit refusals speak in.
///
/// # Examples
///
/// ```
/// use gloam_core::{Area, Length, LengthUnit, Point};
/// use gloam_dsl::Table;
/// let table = Table::new(Length::inches(44), Length::inches(30), LengthUnit::Inch)
///     .with_objective("centre", Point::at(Length::inches(22), Length::inches(15)));
/// assert_eq!(table.outline[2], Point::at(Length::inches(44), Length::inches(30)));
/// assert!(table.validate().is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Table {
    /// The outline, a simple polygon (a `width` × `depth` rectangle from the origin).
    pub outline: Vec<Point>,
    /// The terrain features placed on it, in order.
    pub features: Vec<Feature>,
    /// The terrain features set up in play (`set_up_terrain`), each drawn around its own
    /// origin: a feature stands on the table where the piece of layer [`TERRAIN_LAYER`] whose
    /// kind is its name stands (off the table until then). Shared, so that the table as it
    /// stands in a game (every script call builds it) copies none of them.
    pub loose: std::sync::Arc<Vec<Feature>>,
    /// The territories of the deployment map in play, by name, in order.
    pub territories: Vec<(String, Area)>,
    /// The objectives, by name, each a point (its centre), in order.
    pub objectives: Vec<(String, Point)>,
    /// The unit refusals and messages speak in.
    pub unit: LengthUnit,
}

impl Table {
    /// A bare `width` × `depth` table with a corner at the origin.
    pub fn new(width: Length, depth: Length, unit: LengthUnit) -> Table {
        let (w, d) = (width.as_tenth_mm(), depth.as_tenth_mm());
        Table {
            outline: vec![
                Point::new(0, 0),
                Point::new(w, 0),
                Point::new(w, d),
                Point::new(0, d),
            ],
            features: Vec::new(),
            loose: std::sync::Arc::new(Vec::new()),
            territories: Vec::new(),
            objectives: Vec::new(),
            unit,
        }
    }

    /// The same table with one more terrain feature.
    pub fn with_feature(mut self, feature: Feature) -> Table {
        self.features.push(feature);
        self
    }

    /// The same table with one more feature to be set up in play, drawn around its own
    /// origin (see [`Table::loose`]).
    pub fn with_loose_feature(mut self, feature: Feature) -> Table {
        std::sync::Arc::make_mut(&mut self.loose).push(feature);
        self
    }

    /// The same table with one more territory.
    pub fn with_territory(mut self, name: impl Into<String>, area: Area) -> Table {
        self.territories.push((name.into(), area));
        self
    }

    /// The same table with one more objective.
    pub fn with_objective(mut self, name: impl Into<String>, at: Point) -> Table {
        self.objectives.push((name.into(), at));
        self
    }

    /// Checks the table: the outline and every footprint and territory well formed, names
    /// unique (territories and objectives share one set of names).
    pub fn validate(&self) -> Result<(), String> {
        gloam_core::validate_polygon(&self.outline)
            .map_err(|error| format!("the table's outline: {error}"))?;
        let mut names = std::collections::BTreeSet::new();
        for feature in self.features.iter().chain(self.loose.iter()) {
            if !names.insert(("feature", feature.name.as_str())) {
                return Err(format!("two terrain features are named `{}`", feature.name));
            }
            for terrain in &feature.footprints {
                gloam_core::validate_polygon(&terrain.footprint)
                    .map_err(|error| format!("terrain feature `{}`: {error}", feature.name))?;
            }
        }
        let areas = self.territories.iter().map(|(name, _)| name);
        for name in areas.chain(self.objectives.iter().map(|(name, _)| name)) {
            if !names.insert(("place", name.as_str())) {
                return Err(format!(
                    "two territories or objectives are named `{name}`: names must be unique"
                ));
            }
        }
        for (name, area) in &self.territories {
            area.validate()
                .map_err(|error| format!("territory `{name}`: {error}"))?;
        }
        Ok(())
    }

    /// Every footprint of every feature, in order, as the kernel's terrain list.
    pub(crate) fn terrain(&self) -> Vec<Terrain> {
        self.features
            .iter()
            .flat_map(|feature| feature.footprints.iter().cloned())
            .collect()
    }

    /// The indices into [`Table::terrain`] of the features named `name` or having the rule
    /// `name` (none when no feature on the table matches: a rule no placed feature has).
    fn terrain_named(&self, name: &str) -> Vec<usize> {
        let mut indices = Vec::new();
        let mut index = 0;
        for feature in &self.features {
            let hit = feature.name == name || feature.has_rule(name);
            for _ in &feature.footprints {
                if hit {
                    indices.push(index);
                }
                index += 1;
            }
        }
        indices
    }

    fn place_named(&self, name: &str) -> Option<Target> {
        if let Some((_, area)) = self.territories.iter().find(|(n, _)| n == name) {
            return Some(Target::Area(area.clone()));
        }
        self.objectives
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, at)| Target::Point(*at))
    }
}

/// The layer of the pieces that stand for terrain features set up in play: a piece of this
/// layer whose kind names one of the table's [`Table::loose`] features puts that feature on
/// the table at the piece's position.
pub const TERRAIN_LAYER: &str = "terrain";

/// The table edge, as a target (`table_edge()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Edge;

const NO_TABLE: &str = "this game has no table (it is played on hexes): the table vocabulary \
                        needs a world built with a table";

/// The table as it stands in the game: the world's table with the features set up in play
/// so far (pieces of [`TERRAIN_LAYER`] on the table, in piece order) among its features.
///
/// The table with its placed features is built once for each arrangement of the terrain
/// pieces and kept in the world (`WorldData::placed_table`): scripts ask for the table many
/// times a decision, and terrain pieces rarely move.
pub(crate) fn table_of<'a>(
    run: &'a RunState,
    function: &'static str,
) -> Result<TableRef<'a>, Stop> {
    let table = run
        .world
        .table
        .as_ref()
        .ok_or_else(|| Stop::failed(function, NO_TABLE))?;
    if table.loose.is_empty() {
        return Ok(TableRef::Plain(table));
    }
    // The pieces set up in play, found again only after the run's game changed.
    let known = run.placed.borrow().clone();
    let placed: Placed = match known {
        Some(placed) => placed,
        None => {
            let found: Placed = run
                .state()
                .pieces
                .values()
                .filter(|piece| piece.layer == TERRAIN_LAYER)
                .filter_map(|piece| {
                    let at = piece.position?.point()?;
                    let feature = table.loose.iter().position(|f| f.name == piece.kind)?;
                    Some((feature, at))
                })
                .collect();
            *run.placed.borrow_mut() = Some(found.clone());
            found
        }
    };
    if placed.is_empty() {
        return Ok(TableRef::Plain(table));
    }
    let cache = &run.world.placed_table;
    if let Some((key, built)) = cache.0.borrow().as_ref() {
        if **key == *placed {
            return Ok(TableRef::Placed(built.clone()));
        }
    }
    let mut built = table.clone();
    built.features.extend(
        placed
            .iter()
            .map(|&(feature, at)| table.loose[feature].clone().moved_by(at)),
    );
    let built = Rc::new(built);
    *cache.0.borrow_mut() = Some((placed, built.clone()));
    Ok(TableRef::Placed(built))
}

/// The table a script reads ([`table_of`]): the world's own, or the one with the features
/// set up in play.
pub(crate) enum TableRef<'a> {
    /// No feature set up in play: the world's table.
    Plain(&'a Table),
    /// The world's table with the features set up in play.
    Placed(Rc<Table>),
}

impl std::ops::Deref for TableRef<'_> {
    type Target = Table;
    fn deref(&self) -> &Table {
        match self {
            TableRef::Plain(table) => table,
            TableRef::Placed(table) => table,
        }
    }
}

/// The last table built with features set up in play, by the arrangement it was built for
/// (each feature as its index among the table's loose features, and where it stands). A
/// copy of the world starts with none: the copy may have another table.
#[derive(Debug, Default)]
pub(crate) struct PlacedTable(std::cell::RefCell<Option<PlacedKey>>);

/// The terrain pieces set up in play: each loose feature's index and where it stands.
pub(crate) type Placed = Rc<[(usize, Point)]>;

type PlacedKey = (Placed, Rc<Table>);

impl Clone for PlacedTable {
    fn clone(&self) -> PlacedTable {
        PlacedTable::default()
    }
}

/// The scene of the game now: the pieces standing on the table (base radius, unit and
/// height from the world's characteristic names), the terrain and the outline. Built once
/// until the run's game changes ([`RunState::scene`]).
pub(crate) fn scene_of(run: &RunState, function: &'static str) -> Result<Rc<Scene>, Stop> {
    if let Some(scene) = run.scene.borrow().as_ref() {
        return Ok(Rc::clone(scene));
    }
    let scene = Rc::new(build_scene(run, function)?);
    *run.scene.borrow_mut() = Some(Rc::clone(&scene));
    Ok(scene)
}

fn build_scene(run: &RunState, function: &'static str) -> Result<Scene, Stop> {
    let table = table_of(run, function)?;
    let names = &run.world.names;
    let state = run.state();
    let mut scene = Scene::from_state(state, &names.base_radius, &names.unit);
    for piece in &mut scene.pieces {
        let height = state
            .piece(piece.id)
            .and_then(|p| p.characteristics.get(&names.height).copied())
            .unwrap_or(0);
        piece.figure.height = Length::tenth_mm(height);
    }
    scene.terrain = table.terrain();
    scene.outline = table.outline.clone();
    Ok(scene)
}

/// The unit (group) of a piece, as [`Scene::from_state`] reads it.
pub(crate) fn unit_of(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
) -> Result<GroupId, Stop> {
    let piece = run
        .state()
        .piece(fighter)
        .ok_or_else(|| Stop::failed(function, format!("there is no {fighter}")))?;
    Ok(GroupId(
        piece
            .characteristics
            .get(&run.world.names.unit)
            .and_then(|g| u32::try_from(*g).ok())
            .unwrap_or(u32::from(fighter.0)),
    ))
}

fn subject_of(function: &'static str, param: &str, value: &Dynamic) -> Result<Subject, Stop> {
    if let Some(piece) = value.read_lock::<PieceId>().map(|p| *p) {
        return Ok(Subject::Piece(piece));
    }
    if let Some(group) = value.read_lock::<GroupId>().map(|g| *g) {
        return Ok(Subject::Group(group));
    }
    Err(Stop::failed(
        function,
        format!(
            "`{param}` must be a fighter or a unit, not a {}",
            table_type_name(value)
        ),
    ))
}

pub(crate) fn table_type_name(value: &Dynamic) -> &'static str {
    if value.is::<Point>() {
        "point"
    } else if value.is::<GroupId>() {
        "unit"
    } else if value.is::<Edge>() {
        "table edge"
    } else {
        type_name(value)
    }
}

pub(crate) fn target_of(
    table: &Table,
    function: &'static str,
    param: &str,
    value: &Dynamic,
) -> Result<Target, Stop> {
    if let Some(point) = value.read_lock::<Point>().map(|p| *p) {
        return Ok(Target::Point(point));
    }
    if let Some(piece) = value.read_lock::<PieceId>().map(|p| *p) {
        return Ok(Target::Piece(piece));
    }
    if let Some(group) = value.read_lock::<GroupId>().map(|g| *g) {
        return Ok(Target::Group(group));
    }
    if value.is::<Edge>() {
        return Ok(Target::Edge);
    }
    if value.is_string() {
        let name = value.to_string();
        return table.place_named(&name).ok_or_else(|| {
            let known: Vec<&str> = table
                .territories
                .iter()
                .map(|(n, _)| n.as_str())
                .chain(table.objectives.iter().map(|(n, _)| n.as_str()))
                .collect();
            Stop::failed(
                function,
                format!(
                    "the table has no territory or objective named `{name}` (it has: {})",
                    if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    }
                ),
            )
        });
    }
    Err(Stop::failed(
        function,
        format!(
            "`{param}` must be a point, a fighter, a unit, the name of a territory or objective, \
             or `table_edge()`, not a {}",
            table_type_name(value)
        ),
    ))
}

pub(crate) fn length(function: &'static str, what: &str, value: i64) -> Result<Length, Stop> {
    if value < 0 {
        return Err(Stop::failed(
            function,
            format!("{what} must be 0 or more (tenths of a millimetre), not {value}"),
        ));
    }
    Ok(Length::tenth_mm(value))
}

fn scaled(function: &'static str, n: i64, per: i64) -> Result<i64, Stop> {
    n.checked_mul(per)
        .filter(|tenths| tenths.unsigned_abs() <= gloam_core::COORD_LIMIT.unsigned_abs())
        .ok_or_else(|| {
            Stop::failed(
                function,
                format!("{n} is too long for the table (at most 100 km)"),
            )
        })
}

pub(crate) fn get_int(function: &'static str, map: &Map, key: &str) -> Result<Option<i64>, Stop> {
    match map.get(key) {
        None => Ok(None),
        Some(value) => value.as_int().map(Some).map_err(|_| {
            Stop::failed(
                function,
                format!(
                    "limit `{key}` must be an int (tenths of a millimetre), not a {}",
                    table_type_name(value)
                ),
            )
        }),
    }
}

pub(crate) fn get_list(
    function: &'static str,
    map: &Map,
    key: &str,
) -> Result<Option<Array>, Stop> {
    match map.get(key) {
        None => Ok(None),
        Some(value) => value.clone().into_array().map(Some).map_err(|_| {
            Stop::failed(
                function,
                format!(
                    "limit `{key}` must be a list, not a {}",
                    table_type_name(value)
                ),
            )
        }),
    }
}

fn terrain_list(
    table: &Table,
    function: &'static str,
    key: &str,
    items: &Array,
) -> Result<Vec<usize>, Stop> {
    let mut indices = Vec::new();
    let terrain = table.terrain();
    for item in items {
        // A name, or `[name, height]`: only the parts of those features taller than `height`.
        let (name, above) = match item.clone().into_array() {
            Ok(pair) => match pair.as_slice() {
                [name, height] => (
                    name.read_lock::<ImmutableString>().map(|s| s.to_string()),
                    height.as_int().ok(),
                ),
                _ => (None, None),
            },
            Err(_) => (
                item.read_lock::<ImmutableString>().map(|s| s.to_string()),
                None,
            ),
        };
        let Some(name) = name else {
            return Err(Stop::failed(
                function,
                format!(
                    "limit `{key}` lists terrain by feature name or rule, or `[name, height]` for \
                     the parts taller than `height`; an item is a {}",
                    table_type_name(item)
                ),
            ));
        };
        let found = table.terrain_named(&name).into_iter().filter(|&index| {
            above.is_none_or(|height| {
                terrain
                    .get(index)
                    .is_some_and(|t| t.height.as_tenth_mm() > height)
            })
        });
        indices.extend(found);
    }
    Ok(indices)
}

/// A `[target, distance]` pair of a limits map.
fn target_pair(
    table: &Table,
    function: &'static str,
    key: &str,
    value: &Dynamic,
) -> Result<(Target, Length), Stop> {
    let bad = || {
        Stop::failed(
            function,
            format!("limit `{key}` must be a pair `[target, distance]`"),
        )
    };
    let pair = value.clone().into_array().map_err(|_| bad())?;
    let [target, distance] = pair.as_slice() else {
        return Err(bad());
    };
    let distance = distance.as_int().map_err(|_| bad())?;
    Ok((
        target_of(table, function, key, target)?,
        length(function, &format!("limit `{key}`"), distance)?,
    ))
}

const PATH_KEYS: &[&str] = &[
    "budget",
    "never_within",
    "not_end_within",
    "end_within",
    "no_farther_from_enemy",
    "may_pass",
    "impassable",
    "no_stop",
    "on_table",
];

const PLACE_KEYS: &[&str] = &["zone", "away", "wholly_near", "no_stop", "on_table"];

pub(crate) fn known_keys(function: &'static str, map: &Map, keys: &[&str]) -> Result<(), Stop> {
    if let Some(key) = map.keys().find(|key| !keys.contains(&key.as_str())) {
        return Err(Stop::failed(
            function,
            format!("unknown limit `{key}`; the limits are: {}", keys.join(", ")),
        ));
    }
    Ok(())
}

pub(crate) fn get_bool(function: &'static str, map: &Map, key: &str) -> Result<Option<bool>, Stop> {
    match map.get(key) {
        None => Ok(None),
        Some(value) => value.as_bool().map(Some).map_err(|_| {
            Stop::failed(
                function,
                format!(
                    "limit `{key}` must be true or false, not a {}",
                    table_type_name(value)
                ),
            )
        }),
    }
}

/// A limits map read as the kernel's path limits.
fn path_limits(table: &Table, function: &'static str, map: &Map) -> Result<PathLimits, Stop> {
    known_keys(function, map, PATH_KEYS)?;
    let budget = get_int(function, map, "budget")?.ok_or_else(|| {
        Stop::failed(
            function,
            "the limits need a `budget` (the longest move, in tenths of a millimetre)",
        )
    })?;
    let mut limits = PathLimits::new(length(function, "limit `budget`", budget)?, table.unit);
    if let Some(d) = get_int(function, map, "never_within")? {
        limits = limits.never_within(length(function, "limit `never_within`", d)?);
    }
    if let Some(d) = get_int(function, map, "not_end_within")? {
        limits = limits.not_end_within(length(function, "limit `not_end_within`", d)?);
    }
    if let Some(pair) = map.get("end_within") {
        let (target, distance) = target_pair(table, function, "end_within", pair)?;
        limits = limits.end_within(target, distance);
    }
    if get_bool(function, map, "no_farther_from_enemy")? == Some(true) {
        limits = limits.no_farther_from_enemy();
    }
    if let Some(on_table) = get_bool(function, map, "on_table")? {
        limits.on_table = on_table;
    }
    if let Some(items) = get_list(function, map, "may_pass")? {
        let mut pieces = Vec::new();
        for item in &items {
            pieces.push(item.read_lock::<PieceId>().map(|p| *p).ok_or_else(|| {
                Stop::failed(
                    function,
                    format!(
                        "limit `may_pass` must be a list of fighters; an item is a {}",
                        table_type_name(item)
                    ),
                )
            })?);
        }
        limits = limits.may_pass(pieces);
    }
    if let Some(items) = get_list(function, map, "impassable")? {
        limits = limits.impassable(terrain_list(table, function, "impassable", &items)?);
    }
    if let Some(items) = get_list(function, map, "no_stop")? {
        limits = limits.no_stop(terrain_list(table, function, "no_stop", &items)?);
    }
    Ok(limits)
}

/// The territory a limit's `zone` names, with its name.
pub(crate) fn zone_named<'t>(
    table: &'t Table,
    function: &'static str,
    zone: &Dynamic,
) -> Result<&'t (String, Area), Stop> {
    let name = zone.read_lock::<ImmutableString>().map(|s| s.to_string());
    name.as_deref()
        .and_then(|name| table.territories.iter().find(|(n, _)| n == name))
        .ok_or_else(|| {
            Stop::failed(
                function,
                format!(
                    "limit `zone` must name a territory of the table (it has: {})",
                    table
                        .territories
                        .iter()
                        .map(|(n, _)| n.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
}

/// A limits map read as the kernel's set-up limits.
fn place_limits(table: &Table, function: &'static str, map: &Map) -> Result<PlaceLimits, Stop> {
    known_keys(function, map, PLACE_KEYS)?;
    let mut limits = PlaceLimits::new(table.unit);
    if let Some(zone) = map.get("zone") {
        limits = limits.in_zone(zone_named(table, function, zone)?.1.clone());
    }
    for (key, list) in [("away", true), ("wholly_near", false)] {
        if let Some(items) = get_list(function, map, key)? {
            for item in &items {
                let pair = target_pair(table, function, key, item)?;
                if list {
                    limits.away.push(pair);
                } else {
                    limits.wholly_near.push(pair);
                }
            }
        }
    }
    if let Some(items) = get_list(function, map, "no_stop")? {
        limits.no_stop = terrain_list(table, function, "no_stop", &items)?
            .into_iter()
            .collect();
    }
    if let Some(on_table) = get_bool(function, map, "on_table")? {
        limits.on_table = on_table;
    }
    Ok(limits)
}

/// The pieces of `unit` on the table, in scene order; refused when it has none there.
fn members(scene: &Scene, function: &'static str, unit: GroupId) -> Result<Vec<PieceId>, Stop> {
    let members: Vec<PieceId> = scene.members(unit).iter().map(|p| p.id).collect();
    if members.is_empty() {
        return Err(Stop::failed(
            function,
            format!("{unit} has no model on the table"),
        ));
    }
    Ok(members)
}

/// The set-up formation of a unit not on the table: its models (every piece of the default
/// layer whose unit characteristic is `unit` and which stands nowhere), in id order, in a row
/// along the x axis, bases touching, the first centred on `anchor`.
fn setup_formation(
    run: &RunState,
    function: &'static str,
    unit: GroupId,
    anchor: Point,
) -> Result<Vec<TablePiece>, Stop> {
    let names = &run.world.names;
    let mut pieces = Vec::new();
    let mut x = anchor.x;
    let mut previous: Option<i64> = None;
    for piece in run.state().pieces.values() {
        if !piece.layer.is_empty() || piece.position.is_some() {
            continue;
        }
        let group = piece
            .characteristics
            .get(&names.unit)
            .and_then(|g| u32::try_from(*g).ok())
            .unwrap_or(u32::from(piece.id.0));
        if group != unit.0 {
            continue;
        }
        let radius = piece
            .characteristics
            .get(&names.base_radius)
            .copied()
            .unwrap_or(0);
        if let Some(last) = previous {
            x = x.saturating_add(last).saturating_add(radius);
        }
        previous = Some(radius);
        pieces.push(TablePiece {
            id: piece.id,
            side: piece.owner,
            group: unit,
            figure: Figure::new(Point::new(x, anchor.y), Length::tenth_mm(radius)),
        });
    }
    if pieces.is_empty() {
        return Err(Stop::failed(
            function,
            format!(
                "{unit} has no model waiting to be set up (every model is on the table or there is none)"
            ),
        ));
    }
    Ok(pieces)
}

fn refusal_text(refused: &gloam_core::Refused) -> Dynamic {
    Dynamic::from(ImmutableString::from(refused.to_string()))
}

fn shifted(point: Point, by: Point) -> Point {
    Point::new(point.x.saturating_add(by.x), point.y.saturating_add(by.y))
}

/// Moves `unit` by `by` through the kernel, front first, after `check` passed.
fn apply_move(
    run: &mut RunState,
    function: &'static str,
    scene: &Scene,
    unit: GroupId,
    by: Point,
) -> Result<(), Stop> {
    for piece in scene.front_first(unit, by) {
        let Some(found) = scene.piece(piece) else {
            continue;
        };
        let to = Position::Table {
            at: shifted(found.figure.centre, by),
            facing: found.figure.facing,
        };
        run.ctx()
            .place_piece(piece, Some(to), Vec::new(), "move")
            .map_err(|error| Stop::refused(function, error))?;
    }
    Ok(())
}

fn apply_setup(
    run: &mut RunState,
    function: &'static str,
    pieces: &[TablePiece],
) -> Result<(), Stop> {
    for piece in pieces {
        let to = Position::Table {
            at: piece.figure.centre,
            facing: piece.figure.facing,
        };
        run.ctx()
            .place_piece(piece.id, Some(to), Vec::new(), "set_up")
            .map_err(|error| Stop::refused(function, error))?;
    }
    Ok(())
}

/// Asks the acting player for a table point among `candidates` (any other point allowed);
/// `None` without asking when there is no candidate.
pub(crate) fn ask_point(
    run: &mut RunState,
    function: &'static str,
    candidates: Vec<Point>,
    prompt: &str,
) -> Result<Option<Point>, Stop> {
    run.check_effect(function, ChoiceKind)?;
    if candidates.is_empty() {
        return Ok(None);
    }
    let player = run.acting(function)?;
    let request = Request::table_point(player, function, prompt, candidates);
    match run.choose(function, request)? {
        gloam_core::Answer::One(Choice::Point(point)) => Ok(Some(point)),
        _ => Err(Stop::failed(
            function,
            "the recorded answer is not a table point",
        )),
    }
}

fn or_unit<T: Into<Dynamic>>(value: Option<T>) -> Dynamic {
    value.map_or(Dynamic::UNIT, Into::into)
}

pub(crate) fn register(engine: &mut Registrar) {
    engine
        .register_type_with_name::<Point>("point")
        .register_fn("==", |a: Point, b: Point| a == b)
        .register_fn("!=", |a: Point, b: Point| a != b)
        .register_method("to_string", |p: &mut Point| format!("({}, {})", p.x, p.y))
        .register_method("to_debug", |p: &mut Point| format!("({}, {})", p.x, p.y))
        .register_get("x", |p: &mut Point| p.x)
        .register_get("y", |p: &mut Point| p.y);
    engine
        .register_type_with_name::<GroupId>("unit")
        .register_fn("==", |a: GroupId, b: GroupId| a == b)
        .register_fn("!=", |a: GroupId, b: GroupId| a != b)
        .register_method("to_string", |g: &mut GroupId| g.to_string())
        .register_method("to_debug", |g: &mut GroupId| g.to_string());
    engine
        .register_type_with_name::<Edge>("table edge")
        .register_method("to_string", |_: &mut Edge| "the table edge".to_owned())
        .register_method("to_debug", |_: &mut Edge| "the table edge".to_owned());
    register_lengths(engine);
    register_queries(engine);
    register_terrain_queries(engine);
    register_moves(engine);
    register_facing(engine);
}

/// Where a fighter stands on the table and the way it faces, or why not.
fn stance(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
) -> Result<(Point, (i64, i64)), Stop> {
    let piece = run
        .state()
        .piece(fighter)
        .ok_or_else(|| Stop::failed(function, format!("there is no {fighter}")))?;
    match piece.position {
        Some(Position::Table { at, facing }) => Ok((at, facing)),
        _ => Err(Stop::failed(
            function,
            format!("{fighter} is not on the table"),
        )),
    }
}

/// The point a facing target names: a point, or the centre of a fighter on the table.
fn aim_point(run: &RunState, function: &'static str, target: &Dynamic) -> Result<Point, Stop> {
    if let Some(point) = target.read_lock::<Point>().map(|v| *v) {
        return Ok(point);
    }
    if let Some(fighter) = target.read_lock::<PieceId>().map(|v| *v) {
        return Ok(stance(run, function, fighter)?.0);
    }
    Err(Stop::failed(
        function,
        format!("expected a fighter or a point, not a {}", type_name(target)),
    ))
}

/// An arc's half-angle in whole degrees, as the kernel measures arcs exactly.
fn half_angle(function: &'static str, degrees: i64) -> Result<gloam_core::HalfAngle, Stop> {
    use gloam_core::HalfAngle as H;
    Ok(match degrees {
        30 => H::Deg30,
        45 => H::Deg45,
        60 => H::Deg60,
        90 => H::Deg90,
        120 => H::Deg120,
        135 => H::Deg135,
        150 => H::Deg150,
        180 => H::Deg180,
        _ => {
            return Err(Stop::failed(
                function,
                format!(
                    "an arc's half-angle is 30, 45, 60, 90, 120, 135, 150 or 180 degrees, not {degrees}"
                ),
            ));
        }
    })
}

fn register_facing(engine: &mut Registrar) {
    engine.register_fn(
        "arc_of",
        |ctx: Ncc,
         observer: PieceId,
         target: Dynamic,
         front: i64,
         rear: i64|
         -> Res<ImmutableString> {
            const F: &str = "arc_of";
            with_run(&ctx, F, |run| {
                table_of(run, F)?;
                let arcs = gloam_core::ArcSpec {
                    front: half_angle(F, front)?,
                    rear: half_angle(F, rear)?,
                };
                let (at, facing) = stance(run, F, observer)?;
                let point = aim_point(run, F, &target)?;
                let figure = Figure::new(at, Length::ZERO).with_facing(facing);
                Ok(match gloam_core::arc_of(&figure, point, &arcs) {
                    gloam_core::ArcSide::Front => "front",
                    gloam_core::ArcSide::Side => "side",
                    gloam_core::ArcSide::Rear => "rear",
                }
                .into())
            })
        },
    );
    engine.register_fn(
        "face",
        |ctx: Ncc, fighter: PieceId, target: Dynamic| -> Res<()> {
            const F: &str = "face";
            with_run(&ctx, F, |run| {
                effect(run, F)?;
                table_of(run, F)?;
                let (at, facing) = stance(run, F, fighter)?;
                let point = aim_point(run, F, &target)?;
                let turned = Figure::new(at, Length::ZERO)
                    .with_facing(facing)
                    .facing_towards(point)
                    .facing;
                if turned == facing {
                    return Ok(());
                }
                run.ctx()
                    .place_piece(
                        fighter,
                        Some(Position::Table { at, facing: turned }),
                        Vec::new(),
                        "turn",
                    )
                    .map_err(|error| Stop::refused(F, error))
            })
        },
    );
}

fn register_lengths(engine: &mut Registrar) {
    for (name, per) in [("inches", 254_i64), ("cm", 100), ("mm", 10)] {
        let function: &'static str = name;
        engine.register_fn(name, move |ctx: Ncc, n: i64| -> Res<i64> {
            with_run(&ctx, function, |_| scaled(function, n, per))
        });
    }
    engine.register_fn("constant", |ctx: Ncc, name: ImmutableString| -> Res<i64> {
        with_run(&ctx, "constant", |run| {
            run.world
                .constants
                .get(name.as_str())
                .copied()
                .ok_or_else(|| {
                    let known: Vec<&str> = run.world.constants.keys().map(String::as_str).collect();
                    Stop::failed(
                        "constant",
                        format!(
                            "the ruleset has no constant `{name}` (it has: {})",
                            if known.is_empty() {
                                "none".to_owned()
                            } else {
                                known.join(", ")
                            }
                        ),
                    )
                })
        })
    });
    engine.register_fn("point", |ctx: Ncc, x: i64, y: i64| -> Res<Point> {
        with_run(&ctx, "point", |_| {
            Point::checked(x, y).map_err(|error| Stop::failed("point", error.to_string()))
        })
    });
    engine.register_fn("table_edge", |ctx: Ncc| -> Res<Dynamic> {
        with_run(&ctx, "table_edge", |run| {
            table_of(run, "table_edge")?;
            Ok(Dynamic::from(Edge))
        })
    });
}

fn register_queries(engine: &mut Registrar) {
    engine.register_fn("position", |ctx: Ncc, fighter: PieceId| -> Res<Dynamic> {
        with_run(&ctx, "position", |run| {
            table_of(run, "position")?;
            let piece = run
                .state()
                .piece(fighter)
                .ok_or_else(|| Stop::failed("position", format!("there is no {fighter}")))?;
            Ok(or_unit(
                piece.position.and_then(Position::point).map(Dynamic::from),
            ))
        })
    });
    engine.register_fn("unit_of", |ctx: Ncc, fighter: PieceId| -> Res<GroupId> {
        with_run(&ctx, "unit_of", |run| {
            table_of(run, "unit_of")?;
            unit_of(run, "unit_of", fighter)
        })
    });
    engine.register_fn("models_of", |ctx: Ncc, unit: GroupId| -> Res<Array> {
        with_run(&ctx, "models_of", |run| {
            let scene = scene_of(run, "models_of")?;
            Ok(scene
                .members(unit)
                .iter()
                .map(|piece| Dynamic::from(piece.id))
                .collect())
        })
    });
    engine.register_fn("units_of", |ctx: Ncc, player: PlayerId| -> Res<Array> {
        with_run(&ctx, "units_of", |run| {
            let scene = scene_of(run, "units_of")?;
            if run.state().player(player).is_none() {
                return Err(Stop::failed("units_of", format!("there is no {player}")));
            }
            let mut units: Vec<GroupId> = scene
                .pieces
                .iter()
                .filter(|piece| piece.side == player)
                .map(|piece| piece.group)
                .collect();
            units.sort();
            units.dedup();
            Ok(units.into_iter().map(Dynamic::from).collect())
        })
    });
    engine.register_fn("gap", |ctx: Ncc, a: PieceId, b: PieceId| -> Res<i64> {
        with_run(&ctx, "gap", |run| {
            let scene = scene_of(run, "gap")?;
            let gap = scene
                .gap(a, b)
                .map_err(|error| Stop::failed("gap", error.to_string()))?;
            Ok(gap.floor().as_tenth_mm())
        })
    });
    engine.register_fn(
        "base_contact",
        |ctx: Ncc, a: PieceId, b: PieceId| -> Res<bool> {
            const F: &str = "base_contact";
            with_run(&ctx, F, |run| {
                let scene = scene_of(run, F)?;
                let figure = |piece: PieceId| {
                    scene
                        .piece(piece)
                        .map(|p| p.figure)
                        .ok_or_else(|| Stop::failed(F, format!("{piece} is not on the table")))
                };
                Ok(a != b && gloam_core::base_contact(&figure(a)?, &figure(b)?))
            })
        },
    );
    engine.register_fn(
        "nearest_enemy",
        |ctx: Ncc, fighter: PieceId| -> Res<Dynamic> {
            with_run(&ctx, "nearest_enemy", |run| {
                let scene = scene_of(run, "nearest_enemy")?;
                let nearest = scene
                    .nearest_enemy(fighter)
                    .map_err(|error| Stop::failed("nearest_enemy", error.to_string()))?;
                Ok(or_unit(nearest.map(|(enemy, _)| Dynamic::from(enemy))))
            })
        },
    );
    for (name, wholly) in [("within", false), ("wholly_within", true)] {
        let function: &'static str = name;
        engine.register_fn(
            name,
            move |ctx: Ncc, subject: Dynamic, target: Dynamic, distance: i64| -> Res<bool> {
                with_run(&ctx, function, |run| {
                    let scene = scene_of(run, function)?;
                    let table = table_of(run, function)?;
                    let subject = subject_of(function, "subject", &subject)?;
                    let target = target_of(&table, function, "target", &target)?;
                    let distance = length(function, "the distance", distance)?;
                    let answer = if wholly {
                        scene.wholly_within(subject, &target, distance)
                    } else {
                        scene.within(subject, &target, distance)
                    };
                    answer.map_err(|error| Stop::failed(function, error.to_string()))
                })
            },
        );
    }
    engine.register_fn(
        "in_range_of_enemy",
        |ctx: Ncc, subject: Dynamic, distance: i64| -> Res<bool> {
            const F: &str = "in_range_of_enemy";
            with_run(&ctx, F, |run| {
                let scene = scene_of(run, F)?;
                let subject = subject_of(F, "subject", &subject)?;
                let distance = length(F, "the distance", distance)?;
                scene
                    .in_range_of_enemy(subject, distance)
                    .map_err(|error| Stop::failed(F, error.to_string()))
            })
        },
    );
    for (name, say) in [("coherent", false), ("coherency_break", true)] {
        let function: &'static str = name;
        engine.register_fn(
            name,
            move |ctx: Ncc, unit: GroupId, distance: i64, neighbours: i64| -> Res<Dynamic> {
                with_run(&ctx, function, |run| {
                    let scene = scene_of(run, function)?;
                    members(&scene, function, unit)?;
                    let distance = length(function, "the distance", distance)?;
                    let neighbours = u32::try_from(neighbours).map_err(|_| {
                        Stop::failed(
                            function,
                            format!("the number of neighbours must be 0 or more, not {neighbours}"),
                        )
                    })?;
                    let rule = Coherency {
                        distance,
                        neighbours,
                    };
                    let result = scene.coherency(unit, &rule);
                    Ok(if say {
                        or_unit(
                            result
                                .err()
                                .map(|b| Dynamic::from(ImmutableString::from(b.to_string()))),
                        )
                    } else {
                        Dynamic::from_bool(result.is_ok())
                    })
                })
            },
        );
    }
    engine.register_fn(
        "controller",
        |ctx: Ncc,
         objective: ImmutableString,
         distance: i64,
         characteristic: ImmutableString|
         -> Res<Dynamic> {
            const F: &str = "controller";
            with_run(&ctx, F, |run| {
                let scene = scene_of(run, F)?;
                let table = table_of(run, F)?;
                let area = match table.place_named(&objective) {
                    Some(Target::Point(centre)) => Area::Circle {
                        centre,
                        radius: Length::ZERO,
                    },
                    Some(Target::Area(area)) => area,
                    _ => {
                        return Err(Stop::failed(
                            F,
                            format!("the table has no objective or territory named `{objective}`"),
                        ));
                    }
                };
                let distance = length(F, "the distance", distance)?;
                let values: BTreeMap<PieceId, i64> = scene
                    .pieces
                    .iter()
                    .map(|piece| {
                        let value = run
                            .state()
                            .piece(piece.id)
                            .and_then(|p| p.characteristics.get(characteristic.as_str()).copied())
                            .unwrap_or(0);
                        (piece.id, value)
                    })
                    .collect();
                let totals = scene.control(&area, distance, &values);
                Ok(or_unit(controller(&totals).map(Dynamic::from)))
            })
        },
    );
    engine.register_fn(
        "line_of_sight",
        |ctx: Ncc, a: PieceId, b: PieceId| -> Res<bool> {
            with_run(&ctx, "line_of_sight", |run| {
                sight(run, "line_of_sight", a, b, None)
            })
        },
    );
    engine.register_fn(
        "line_of_sight",
        |ctx: Ncc, a: PieceId, b: PieceId, rule: ImmutableString| -> Res<bool> {
            with_run(&ctx, "line_of_sight", |run| {
                sight(run, "line_of_sight", a, b, Some(&rule))
            })
        },
    );
    engine.register_fn("territories", |ctx: Ncc| -> Res<Array> {
        with_run(&ctx, "territories", |run| {
            Ok(table_of(run, "territories")?
                .territories
                .iter()
                .map(|(name, _)| Dynamic::from(ImmutableString::from(name.as_str())))
                .collect())
        })
    });
    engine.register_fn("objectives", |ctx: Ncc| -> Res<Array> {
        with_run(&ctx, "objectives", |run| {
            Ok(table_of(run, "objectives")?
                .objectives
                .iter()
                .map(|(name, _)| Dynamic::from(ImmutableString::from(name.as_str())))
                .collect())
        })
    });
    engine.register_fn(
        "objective_point",
        |ctx: Ncc, name: ImmutableString| -> Res<Point> {
            with_run(&ctx, "objective_point", |run| {
                let table = table_of(run, "objective_point")?;
                table
                    .objectives
                    .iter()
                    .find(|(n, _)| *n == name.as_str())
                    .map(|(_, at)| *at)
                    .ok_or_else(|| {
                        Stop::failed(
                            "objective_point",
                            format!("the table has no objective named `{name}`"),
                        )
                    })
            })
        },
    );
    engine.register_fn("terrain_features", |ctx: Ncc| -> Res<Array> {
        with_run(&ctx, "terrain_features", |run| {
            Ok(table_of(run, "terrain_features")?
                .features
                .iter()
                .map(|f| Dynamic::from(ImmutableString::from(f.name.as_str())))
                .collect())
        })
    });
    engine.register_fn(
        "terrain_rules",
        |ctx: Ncc, feature: ImmutableString| -> Res<Array> {
            with_run(&ctx, "terrain_rules", |run| {
                let table = table_of(run, "terrain_rules")?;
                let found = table
                    .features
                    .iter()
                    .find(|f| f.name == feature.as_str())
                    .ok_or_else(|| {
                        Stop::failed(
                            "terrain_rules",
                            format!("the table has no terrain feature named `{feature}`"),
                        )
                    })?;
                Ok(found
                    .rules
                    .iter()
                    .map(|r| Dynamic::from(ImmutableString::from(r.as_str())))
                    .collect())
            })
        },
    );
}

/// The floors (first footprints) of the features named `name` or having the rule `name`;
/// none when no feature on the table matches (a rule no placed feature has).
fn floors<'a>(table: &'a Table, name: &str) -> Vec<&'a Terrain> {
    table
        .features
        .iter()
        .filter(|feature| feature.name == name || feature.has_rule(name))
        .filter_map(|feature| feature.footprints.first())
        .collect()
}

fn register_terrain_queries(engine: &mut Registrar) {
    engine.register_fn(
        "terrain_height",
        |ctx: Ncc, feature: ImmutableString| -> Res<i64> {
            const F: &str = "terrain_height";
            with_run(&ctx, F, |run| {
                let table = table_of(run, F)?;
                let found = table
                    .features
                    .iter()
                    .find(|f| f.name == feature.as_str())
                    .ok_or_else(|| {
                        Stop::failed(
                            F,
                            format!("no terrain feature named `{feature}` is on the table"),
                        )
                    })?;
                Ok(found
                    .footprints
                    .iter()
                    .map(|terrain| terrain.height.as_tenth_mm())
                    .max()
                    .unwrap_or(0))
            })
        },
    );
    engine.register_fn("terrain_at", |ctx: Ncc, at: Point| -> Res<Array> {
        const F: &str = "terrain_at";
        with_run(&ctx, F, |run| {
            let table = table_of(run, F)?;
            Ok(table
                .features
                .iter()
                .filter(|feature| {
                    feature
                        .footprints
                        .first()
                        .is_some_and(|floor| Area::Polygon(floor.footprint.clone()).contains(at))
                })
                .map(|feature| Dynamic::from(ImmutableString::from(feature.name.as_str())))
                .collect())
        })
    });
    engine.register_fn(
        "near_terrain",
        |ctx: Ncc, fighter: PieceId, feature: ImmutableString, distance: i64| -> Res<bool> {
            const F: &str = "near_terrain";
            with_run(&ctx, F, |run| {
                let scene = scene_of(run, F)?;
                let table = table_of(run, F)?;
                let distance = length(F, "distance", distance)?;
                let piece = scene
                    .piece(fighter)
                    .ok_or_else(|| Stop::failed(F, format!("{fighter} is not on the table")))?;
                Ok(floors(&table, &feature).into_iter().any(|floor| {
                    gloam_core::within_area(
                        &piece.figure,
                        &Area::Polygon(floor.footprint.clone()),
                        distance,
                    )
                }))
            })
        },
    );
    engine.register_fn(
        "wholly_on_terrain",
        |ctx: Ncc, subject: Dynamic, feature: ImmutableString| -> Res<bool> {
            const F: &str = "wholly_on_terrain";
            with_run(&ctx, F, |run| {
                let scene = scene_of(run, F)?;
                let table = table_of(run, F)?;
                let subject = subject_of(F, "subject", &subject)?;
                let pieces = scene
                    .subject(subject)
                    .map_err(|error| Stop::failed(F, error.to_string()))?;
                Ok(floors(&table, &feature).into_iter().any(|floor| {
                    let area = Area::Polygon(floor.footprint.clone());
                    pieces
                        .iter()
                        .all(|piece| gloam_core::wholly_within(&piece.figure, &area))
                }))
            })
        },
    );
    engine.register_fn(
        "crosses_terrain",
        |ctx: Ncc, a: PieceId, b: PieceId, feature: ImmutableString| -> Res<bool> {
            const F: &str = "crosses_terrain";
            with_run(&ctx, F, |run| {
                let scene = scene_of(run, F)?;
                let table = table_of(run, F)?;
                let figure = |piece: PieceId| {
                    scene
                        .piece(piece)
                        .map(|p| Figure::new(p.figure.centre, p.figure.radius))
                        .ok_or_else(|| Stop::failed(F, format!("{piece} is not on the table")))
                };
                let (from, to) = (figure(a)?, figure(b)?);
                // Every floor counts, whatever its height: the target is given no height.
                let crossed: Vec<Terrain> = floors(&table, &feature)
                    .into_iter()
                    .map(|floor| Terrain {
                        height: Length::tenth_mm(1),
                        ..floor.clone()
                    })
                    .collect();
                Ok(!gloam_core::blocking_terrain(&from, &to, &crossed).is_empty())
            })
        },
    );
}

/// Line of sight between two models on the table: blocked by terrain (every feature, or
/// only those with `rule`) taller than the target, as `gloam_core::line_of_sight` reads it.
fn sight(
    run: &RunState,
    function: &'static str,
    a: PieceId,
    b: PieceId,
    rule: Option<&str>,
) -> Result<bool, Stop> {
    let scene = scene_of(run, function)?;
    let figure = |piece: PieceId| {
        scene
            .piece(piece)
            .map(|p| p.figure)
            .ok_or_else(|| Stop::failed(function, format!("{piece} is not on the table")))
    };
    let (from, to) = (figure(a)?, figure(b)?);
    let Some(rule) = rule else {
        return Ok(line_of_sight(&from, &to, &scene.terrain));
    };
    let terrain: Vec<_> = scene
        .terrain
        .iter()
        .filter(|terrain| terrain.has_tag(rule))
        .cloned()
        .collect();
    Ok(line_of_sight(&from, &to, &terrain))
}

fn path_of(function: &'static str, items: &Array) -> Result<Vec<Point>, Stop> {
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            item.read_lock::<Point>().map(|p| *p).ok_or_else(|| {
                Stop::failed(
                    function,
                    format!(
                        "`path` must be a list of points; item {} is a {}",
                        index + 1,
                        table_type_name(item)
                    ),
                )
            })
        })
        .collect()
}

fn register_moves(engine: &mut Registrar) {
    engine.register_fn(
        "check_move",
        |ctx: Ncc, fighter: PieceId, path: Array, limits: Map| -> Res<Dynamic> {
            const F: &str = "check_move";
            with_run(&ctx, F, |run| {
                let scene = scene_of(run, F)?;
                let limits = path_limits(&*table_of(run, F)?, F, &limits)?;
                let path = path_of(F, &path)?;
                Ok(or_unit(
                    check_path(&scene, fighter, &path, &limits)
                        .err()
                        .map(|r| refusal_text(&r)),
                ))
            })
        },
    );
    engine.register_fn(
        "check_formation",
        |ctx: Ncc, unit: GroupId, offset: Point, limits: Map| -> Res<Dynamic> {
            const F: &str = "check_formation";
            with_run(&ctx, F, |run| {
                let scene = scene_of(run, F)?;
                let limits = path_limits(&*table_of(run, F)?, F, &limits)?;
                members(&scene, F, unit)?;
                Ok(or_unit(
                    check_formation(&scene, unit, offset, &limits)
                        .err()
                        .map(|r| refusal_text(&r)),
                ))
            })
        },
    );
    engine.register_fn(
        "check_setup",
        |ctx: Ncc, unit: GroupId, anchor: Point, limits: Map| -> Res<Dynamic> {
            const F: &str = "check_setup";
            with_run(&ctx, F, |run| {
                let scene = scene_of(run, F)?;
                let limits = place_limits(&*table_of(run, F)?, F, &limits)?;
                let pieces = setup_formation(run, F, unit, anchor)?;
                Ok(or_unit(
                    check_placement(&scene, &pieces, &limits)
                        .err()
                        .map(|r| refusal_text(&r)),
                ))
            })
        },
    );
    engine.register_fn(
        "move_candidates",
        |ctx: Ncc, unit: GroupId, limits: Map| -> Res<Array> {
            const F: &str = "move_candidates";
            with_run(&ctx, F, |run| {
                let scene = scene_of(run, F)?;
                let limits = path_limits(&*table_of(run, F)?, F, &limits)?;
                members(&scene, F, unit)?;
                Ok(move_candidates(&scene, unit, &limits)?
                    .into_iter()
                    .map(Dynamic::from)
                    .collect())
            })
        },
    );
    engine.register_fn(
        "setup_candidates",
        |ctx: Ncc, unit: GroupId, limits: Map, spacing: i64, max: i64| -> Res<Array> {
            const F: &str = "setup_candidates";
            with_run(&ctx, F, |run| {
                Ok(setup_candidates(run, F, unit, &limits, spacing, max)?
                    .into_iter()
                    .map(Dynamic::from)
                    .collect())
            })
        },
    );
    engine.register_fn(
        "choose_move",
        |ctx: Ncc, unit: GroupId, limits: Map, prompt: ImmutableString| -> Res<Dynamic> {
            const F: &str = "choose_move";
            with_run(&ctx, F, |run| {
                let scene = scene_of(run, F)?;
                let limits = path_limits(&*table_of(run, F)?, F, &limits)?;
                members(&scene, F, unit)?;
                let candidates = move_candidates(&scene, unit, &limits)?;
                let Some(point) = ask_point(run, F, candidates.clone(), &prompt)? else {
                    return Ok(Dynamic::UNIT);
                };
                if !candidates.contains(&point) {
                    if let Err(refusal) = check_formation(&scene, unit, point, &limits) {
                        return Err(refused_point(F, point, &refusal));
                    }
                }
                Ok(Dynamic::from(point))
            })
        },
    );
    engine.register_fn(
        "choose_setup",
        |ctx: Ncc,
         unit: GroupId,
         limits: Map,
         spacing: i64,
         max: i64,
         prompt: ImmutableString|
         -> Res<Dynamic> {
            const F: &str = "choose_setup";
            with_run(&ctx, F, |run| {
                let candidates = setup_candidates(run, F, unit, &limits, spacing, max)?;
                let Some(point) = ask_point(run, F, candidates.clone(), &prompt)? else {
                    return Ok(Dynamic::UNIT);
                };
                if !candidates.contains(&point) {
                    let scene = scene_of(run, F)?;
                    let limits = place_limits(&*table_of(run, F)?, F, &limits)?;
                    let pieces = setup_formation(run, F, unit, point)?;
                    if let Err(refusal) = check_placement(&scene, &pieces, &limits) {
                        return Err(refused_point(F, point, &refusal));
                    }
                }
                Ok(Dynamic::from(point))
            })
        },
    );
    engine.register_fn(
        "move_unit",
        |ctx: Ncc, unit: GroupId, offset: Point, limits: Map| -> Res<()> {
            const F: &str = "move_unit";
            with_run(&ctx, F, |run| {
                effect(run, F)?;
                let scene = scene_of(run, F)?;
                let limits = path_limits(&*table_of(run, F)?, F, &limits)?;
                members(&scene, F, unit).map_err(refused)?;
                check_formation(&scene, unit, offset, &limits)
                    .map_err(|refusal| Stop::refused(F, refusal))?;
                apply_move(run, F, &scene, unit, offset)
            })
        },
    );
    engine.register_fn(
        "move_model",
        |ctx: Ncc, fighter: PieceId, path: Array, limits: Map| -> Res<()> {
            const F: &str = "move_model";
            with_run(&ctx, F, |run| {
                effect(run, F)?;
                let scene = scene_of(run, F)?;
                let limits = path_limits(&*table_of(run, F)?, F, &limits)?;
                let path = path_of(F, &path)?;
                check_path(&scene, fighter, &path, &limits)
                    .map_err(|refusal| Stop::refused(F, refusal))?;
                let Some(end) = path.last() else {
                    return Ok(());
                };
                let facing = scene.piece(fighter).map_or((0, 0), |p| p.figure.facing);
                run.ctx()
                    .place_piece(
                        fighter,
                        Some(Position::Table { at: *end, facing }),
                        Vec::new(),
                        "move",
                    )
                    .map_err(|error| Stop::refused(F, error))
            })
        },
    );
    engine.register_fn(
        "set_up_unit",
        |ctx: Ncc, unit: GroupId, anchor: Point, limits: Map| -> Res<()> {
            const F: &str = "set_up_unit";
            with_run(&ctx, F, |run| {
                effect(run, F)?;
                let scene = scene_of(run, F)?;
                let limits = place_limits(&*table_of(run, F)?, F, &limits)?;
                let pieces = setup_formation(run, F, unit, anchor).map_err(refused)?;
                check_placement(&scene, &pieces, &limits)
                    .map_err(|refusal| Stop::refused(F, refusal))?;
                apply_setup(run, F, &pieces)
            })
        },
    );
    engine.register_fn(
        "place_model",
        |ctx: Ncc, fighter: PieceId, at: Point, limits: Map| -> Res<()> {
            const F: &str = "place_model";
            with_run(&ctx, F, |run| {
                effect(run, F)?;
                let placed = model_placement(run, F, fighter, at, &limits)?
                    .map_err(|refusal| Stop::refused(F, refusal))?;
                apply_setup(run, F, &[placed])
            })
        },
    );
    engine.register_fn(
        "check_place_model",
        |ctx: Ncc, fighter: PieceId, at: Point, limits: Map| -> Res<Dynamic> {
            const F: &str = "check_place_model";
            with_run(&ctx, F, |run| {
                Ok(match model_placement(run, F, fighter, at, &limits)? {
                    Ok(_) => Dynamic::UNIT,
                    Err(refusal) => refusal_text(&refusal),
                })
            })
        },
    );
}

/// One model put with its base centre at `at` (from anywhere): the piece as it would
/// stand, or why `limits` refuse it.
fn model_placement(
    run: &RunState,
    function: &'static str,
    fighter: PieceId,
    at: Point,
    limits: &Map,
) -> Result<Result<TablePiece, gloam_core::Refused>, Stop> {
    let mut scene = Scene::clone(&*scene_of(run, function)?);
    let limits = place_limits(&*table_of(run, function)?, function, limits)?;
    let names = &run.world.names;
    let piece = run
        .state()
        .piece(fighter)
        .ok_or_else(|| Stop::refused(function, format!("there is no {fighter}")))?;
    let radius = piece
        .characteristics
        .get(&names.base_radius)
        .copied()
        .unwrap_or(0);
    let side = piece.owner;
    let facing = match piece.position {
        Some(Position::Table { facing, .. }) => facing,
        _ => (0, 0),
    };
    let group = unit_of(run, function, fighter)?;
    scene.pieces.retain(|p| p.id != fighter);
    let placed = TablePiece {
        id: fighter,
        side,
        group,
        figure: Figure::new(at, Length::tenth_mm(radius)).with_facing(facing),
    };
    Ok(check_placement(&scene, std::slice::from_ref(&placed), &limits).map(|()| placed))
}

/// A free point the rules checked and refused: the script stops, nothing changes, and the
/// request stays pending (the host's undo).
pub(crate) fn refused_point(
    function: &'static str,
    point: Point,
    refusal: &gloam_core::Refused,
) -> Stop {
    Stop::refused(
        function,
        format!("{}{WAS_REFUSED}{refusal}", Choice::Point(point)),
    )
}

/// The choices that take a free table point and refuse an illegal one (see
/// [`crate::DslDiagnostic::refused_answer`]).
pub(crate) const POINT_CHOICES: &[&str] = &["choose_move", "choose_setup", "choose_terrain_setup"];

/// Between the refused answer and the reason in a refused point's message.
pub(crate) const WAS_REFUSED: &str = " was refused: ";

/// The kernel's formation candidates, each offset once (the first time it comes) and none
/// that leaves the unit where it is: a request offers only moves that move.
fn move_candidates(scene: &Scene, unit: GroupId, limits: &PathLimits) -> Result<Vec<Point>, Stop> {
    let candidates = formation_candidates(scene, unit, limits, &Lattice::default())
        .map_err(|refusal| Stop::failed("move_candidates", refusal.to_string()))?;
    let mut offsets: Vec<Point> = Vec::with_capacity(candidates.len());
    for candidate in candidates {
        if candidate.by != Point::ORIGIN && !offsets.contains(&candidate.by) {
            offsets.push(candidate.by);
        }
    }
    Ok(offsets)
}

/// The most set-up candidates a script may ask for: lists stay under the sandbox's default
/// array size (1,024).
const MAX_SETUP_CANDIDATES: usize = 1000;

fn setup_candidates(
    run: &RunState,
    function: &'static str,
    unit: GroupId,
    limits: &Map,
    spacing: i64,
    max: i64,
) -> Result<Vec<Point>, Stop> {
    let scene = scene_of(run, function)?;
    let limits = place_limits(&*table_of(run, function)?, function, limits)?;
    if spacing <= 0 {
        return Err(Stop::failed(
            function,
            format!("the spacing must be more than 0, not {spacing}"),
        ));
    }
    let max = usize::try_from(max)
        .ok()
        .filter(|max| (1..=MAX_SETUP_CANDIDATES).contains(max))
        .ok_or_else(|| {
            Stop::failed(
                function,
                format!("the most candidates must be 1 to {MAX_SETUP_CANDIDATES}, not {max}"),
            )
        })?;
    let pieces = setup_formation(run, function, unit, Point::ORIGIN)?;
    Ok(placement_candidates(
        &scene,
        &pieces,
        &limits,
        Length::tenth_mm(spacing),
        max,
    ))
}
