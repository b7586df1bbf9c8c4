//! A measured table drawn top-down in text: what `gloam play` shows of a table game.
//!
//! The drawing is a grid of characters at a [`Scale`] (columns per length of the table's
//! unit across; a row is two columns' width tall, so the picture keeps the table's shape in
//! a terminal whose characters are about twice as tall as wide). It shows the table's
//! outline, the territories of the deployment map (lightly shaded, a glyph each), terrain
//! features (a glyph per feature for its floor, another for its raised parts), objectives
//! (numbered), every model standing on the table (a glyph per unit: the first seat's units
//! in upper case, the second's in lower case), coordinates along the edges and a scale bar;
//! then a legend of everything drawn, with each unit's army, warscroll, models and damage.
//!
//! Everything is read from a [`Table`] (the world of the match: outline, territories,
//! objectives, features placed at match creation) and from the game state (the models, and
//! terrain features set up in play as pieces of the layer [`TERRAIN_LAYER`]). No game's name
//! is in this code. [`table_in`] builds the table of a match in play, [`TableText::of_game`]
//! draws it, [`draw`] draws any table.
//!
//! The y axis grows up the screen (the table's origin is its bottom-left corner). A model
//! whose centre lies exactly on the line between two cells is drawn in the cell above it or
//! to its right (each cell holds its lower and left edges), and a point on the table's far
//! edge in the last cell.
//!
//! # Examples
//!
//! ```
//! use gloam::core::{Length, LengthUnit, Point};
//! use gloam::table_text::{Scale, draw};
//! use gloam_dsl::Table;
//!
//! let table = Table::new(Length::inches(12), Length::inches(6), LengthUnit::Inch)
//!     .with_objective("Well", Point::at(Length::inches(6), Length::inches(3)));
//! let state = gloam::core::GameState::new(1, &["Ann", "Bo"]);
//! let text = draw(&table, &state, Scale::new(1, 1), &gloam_dsl::Names::default(), &[]);
//! assert!(text.drawing.contains("|      1     |"));
//! assert!(text.legend.contains("1  Well at (6.0 in, 3.0 in)"));
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use gloam_core::{
    Answer, Area, Choice, GameState, GroupId, Length, LengthUnit, PathLimits, PieceId, PlayerId,
    Point, Position, Request, Scene, Subject, Target, check_formation,
};
use gloam_dsl::{Feature, Names, Table};

use crate::engine::RulesetGame;

/// The layer of pieces that stand for terrain features set up in play: a piece of this layer
/// whose `kind` is a feature's name, at a table point, puts that feature's footprints there
/// (the point is where the feature's own origin goes).
pub const TERRAIN_LAYER: &str = "terrain";

/// The glyphs of territories, by their order on the map (light shading).
const TERRITORY_GLYPHS: [char; 5] = ['.', ',', '\'', '`', '-'];
/// The glyphs of terrain features' floors, by their order on the table.
const FLOOR_GLYPHS: [char; 6] = ['%', '~', '=', '&', '+', ';'];
/// The glyphs of terrain features' raised parts, paired with [`FLOOR_GLYPHS`].
const RAISED_GLYPHS: [char; 6] = ['#', '@', '$', '*', '^', '!'];
/// The glyphs of objectives, by their order on the map.
const OBJECTIVE_GLYPHS: [char; 9] = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
/// A cell inside the drawing's frame but outside a table that is not a rectangle.
const OFF_TABLE: char = '/';

/// How big a cell is: `columns` columns for every `lengths` of the table's unit across, and
/// a row two columns' width tall.
///
/// # Examples
///
/// ```
/// use gloam::core::{Length, LengthUnit};
/// use gloam::table_text::Scale;
/// use gloam_dsl::Table;
/// let table = Table::new(Length::inches(44), Length::inches(30), LengthUnit::Inch);
/// // Two columns an inch (88 columns), one row an inch (30 rows).
/// assert_eq!(Scale::fit(&table, 100, 32), Scale::new(2, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale {
    columns: i64,
    lengths: i64,
}

impl Scale {
    /// `columns` columns for every `lengths` of the table's unit (each at least 1).
    pub fn new(columns: i64, lengths: i64) -> Scale {
        Scale {
            columns: columns.max(1),
            lengths: lengths.max(1),
        }
    }

    /// The finest of 4, 2 or 1 columns a unit, or one column for 2, 4, 8... units, whose
    /// grid (without coordinates) is at most `max_columns` wide and `max_rows` tall.
    pub fn fit(table: &Table, max_columns: usize, max_rows: usize) -> Scale {
        let (width, depth) = extent(table);
        let candidates = [(4, 1), (2, 1), (1, 1)]
            .into_iter()
            .chain((1..=20).map(|power| (1, 1i64 << power)));
        let mut last = Scale::new(1, 1);
        for (columns, lengths) in candidates {
            last = Scale::new(columns, lengths);
            let grid = Grid::size(width, depth, table.unit, last);
            if grid.0 <= max_columns && grid.1 <= max_rows {
                return last;
            }
        }
        last
    }

    /// How long one column is across, in `unit`, in words (`0.5 in`).
    fn column_words(self, unit: LengthUnit) -> String {
        fraction_words(self.lengths, self.columns, unit)
    }

    /// How tall one row is, in `unit`, in words (`1 in`).
    fn row_words(self, unit: LengthUnit) -> String {
        fraction_words(2 * self.lengths, self.columns, unit)
    }
}

/// `numerator / denominator` of `unit` in words, with the decimals it needs (at most two).
fn fraction_words(numerator: i64, denominator: i64, unit: LengthUnit) -> String {
    let hundredths = numerator * 100 / denominator;
    let text = if hundredths % 100 == 0 {
        format!("{}", hundredths / 100)
    } else if hundredths % 10 == 0 {
        format!("{}.{}", hundredths / 100, (hundredths % 100) / 10)
    } else {
        format!("{}.{:02}", hundredths / 100, hundredths % 100)
    };
    format!("{text} {}", unit.suffix())
}

/// A length in players' words, in `unit` with one decimal (`5.0 in`, `12.7 cm`), rounded to
/// the nearest tenth of the unit.
///
/// # Examples
///
/// ```
/// use gloam::core::{Length, LengthUnit};
/// assert_eq!(gloam::table_text::length_words(Length::tenth_mm(635), LengthUnit::Inch), "2.5 in");
/// assert_eq!(gloam::table_text::length_words(Length::mm(-30), LengthUnit::Inch), "-1.2 in");
/// ```
pub fn length_words(length: Length, unit: LengthUnit) -> String {
    let tenths = i128::from(length.as_tenth_mm()) * 10;
    let per = i128::from(unit.tenths());
    // Rounded half away from zero.
    let rounded = (tenths.abs() * 2 + per) / (2 * per);
    let sign = if tenths < 0 && rounded != 0 { "-" } else { "" };
    format!("{sign}{}.{} {}", rounded / 10, rounded % 10, unit.suffix())
}

/// The unit's name in words, plural: `inches`, `centimetres`, `millimetres`.
pub fn unit_name(unit: LengthUnit) -> &'static str {
    match unit {
        LengthUnit::Inch => "inches",
        LengthUnit::Cm => "centimetres",
        _ => "millimetres",
    }
}

/// A table point in players' words: `(12.0 in, 6.5 in)`.
pub fn point_words(point: Point, unit: LengthUnit) -> String {
    format!(
        "({}, {})",
        length_words(Length::tenth_mm(point.x), unit),
        length_words(Length::tenth_mm(point.y), unit)
    )
}

/// The direction of `offset` in the eight compass words, north being up the drawing (growing
/// y): `north`, `north-east`...; `nowhere` for no offset.
pub fn direction_words(offset: Point) -> &'static str {
    let (x, y) = (i128::from(offset.x), i128::from(offset.y));
    if x == 0 && y == 0 {
        return "nowhere";
    }
    // tan(22.5°) is about 0.41421: within that of an axis is along the axis.
    let along_x = y.abs() * 100_000 <= x.abs() * 41_421;
    let along_y = x.abs() * 100_000 <= y.abs() * 41_421;
    match (along_x, along_y, x > 0, y > 0) {
        (true, _, true, _) => "east",
        (true, _, false, _) => "west",
        (_, true, _, true) => "north",
        (_, true, _, false) => "south",
        (_, _, true, true) => "north-east",
        (_, _, false, true) => "north-west",
        (_, _, true, false) => "south-east",
        (_, _, false, false) => "south-west",
    }
}

/// Reads a table point typed by a player: two numbers in `unit` (`12 6.5`, `12, 6.5`,
/// `(12, 6.5)`), each optionally with its own unit (`30cm`), rounded to the nearest tenth of
/// a millimetre (a player's `6.3` inches is 160.02 mm). `None` for text that is not two
/// numbers.
///
/// # Examples
///
/// ```
/// use gloam::core::{LengthUnit, Point};
/// use gloam::table_text::parse_point;
/// assert_eq!(parse_point("12 6.5", LengthUnit::Inch), Some(Point::new(3048, 1651)));
/// assert_eq!(parse_point("(-1, 20mm)", LengthUnit::Inch), Some(Point::new(-254, 200)));
/// assert_eq!(parse_point("6.3 0", LengthUnit::Inch), Some(Point::new(1600, 0)));
/// assert_eq!(parse_point("3", LengthUnit::Inch), None);
/// ```
pub fn parse_point(text: &str, unit: LengthUnit) -> Option<Point> {
    let inner = text.trim();
    let inner = inner
        .strip_prefix('(')
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or(inner);
    let parts: Vec<&str> = inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|part| !part.is_empty())
        .collect();
    let [x, y] = parts.as_slice() else {
        return None;
    };
    Some(Point::new(tenths_of(x, unit)?, tenths_of(y, unit)?))
}

/// A decimal length (`6.3`, `-2`, `30cm`) in tenths of a millimetre, rounded to the nearest.
fn tenths_of(text: &str, default_unit: LengthUnit) -> Option<i64> {
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(text.len());
    let (number, suffix) = text.split_at(split);
    let unit = if suffix.is_empty() {
        default_unit
    } else {
        LengthUnit::from_suffix(suffix)?
    };
    let (negative, digits) = match number.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, number.strip_prefix('+').unwrap_or(number)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty()
        || !all_digits(whole)
        || !all_digits(fraction)
        || whole.len() + fraction.len() > 15
    {
        return None;
    }
    let mantissa: i128 = format!("{whole}{fraction}").parse().unwrap_or(0);
    let denominator = 10i128.pow(u32::try_from(fraction.len()).ok()?);
    let scaled = mantissa * i128::from(unit.tenths());
    let rounded = (2 * scaled + denominator) / (2 * denominator);
    let value = i64::try_from(rounded).ok()?;
    Some(if negative { -value } else { value })
}

/// The table a match of `rules` is played on in `state`, as its rules see it: the table and
/// deployment map of the layout in play (its territories and objectives; `None` for a game
/// on hexes), with each terrain feature set up in play (a piece of [`TERRAIN_LAYER`]) put
/// where its piece stands.
pub fn table_in(rules: &RulesetGame, state: &GameState) -> Option<Table> {
    let table = rules.world_in(state).table()?.clone();
    let catalog = table.loose.clone();
    Some(with_terrain_pieces(table, state, &catalog))
}

/// `table` with the terrain features set up in play: for each piece of [`TERRAIN_LAYER`]
/// standing at a table point, the feature of `catalog` named as the piece's `kind` (its
/// footprints around its own origin) moved to that point, in the place of any feature of the
/// same name already on the table. A piece naming no feature of `catalog` is left out.
pub fn with_terrain_pieces(mut table: Table, state: &GameState, catalog: &[Feature]) -> Table {
    for piece in state.pieces.values() {
        let (TERRAIN_LAYER, Some(Position::Table { at, .. })) =
            (piece.layer.as_str(), piece.position)
        else {
            continue;
        };
        let Some(feature) = catalog.iter().find(|f| f.name == piece.kind) else {
            continue;
        };
        let placed = feature.clone().moved_by(at);
        match table.features.iter_mut().find(|f| f.name == placed.name) {
            Some(slot) => *slot = placed,
            None => table.features.push(placed),
        }
    }
    table
}

/// A table drawn in text: the drawing (coordinates, the grid in its frame, the scale bar)
/// and its legend.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TableText {
    /// The drawing: the far edge's coordinate, one line per row (its coordinate when it
    /// has one), the near edge with ticks, the x coordinates, the scale bar.
    pub drawing: String,
    /// The legend: terrain, territories, objectives and units, one entry a line.
    pub legend: String,
    /// The glyph of each model's unit, for every model of the default layer.
    pub labels: BTreeMap<PieceId, char>,
    /// The scale drawn at.
    pub scale: Scale,
}

impl TableText {
    /// The table of a game of `rules` in `state` ([`table_in`]) drawn to fit 100 columns and
    /// 32 rows, with each seat's army in the legend; `None` for a game on hexes.
    pub fn of_game(rules: &RulesetGame, state: &GameState) -> Option<TableText> {
        let table = table_in(rules, state)?;
        let armies: Vec<&str> = rules.spec().seats.iter().map(|s| s.brings()).collect();
        let scale = Scale::fit(&table, 88, 32);
        Some(draw(&table, state, scale, rules.names(), &armies))
    }
}

/// The table's width and depth: its outline's bounding box.
fn extent(table: &Table) -> (i64, i64) {
    let (low, high) = bounds(table);
    (high.x - low.x, high.y - low.y)
}

/// The outline's bounding box, lowest corner first.
fn bounds(table: &Table) -> (Point, Point) {
    let xs = table.outline.iter().map(|p| p.x);
    let ys = table.outline.iter().map(|p| p.y);
    (
        Point::new(xs.clone().min().unwrap_or(0), ys.clone().min().unwrap_or(0)),
        Point::new(xs.max().unwrap_or(0), ys.max().unwrap_or(0)),
    )
}

/// The cells of a drawing, row 0 at the bottom. Positions are measured in *scaled units*:
/// a length in tenths of a millimetre times `2 * columns`, from the outline's lowest corner,
/// so every cell's centre is a whole number: column `i`'s centre is at `(2i + 1) * per`,
/// row `j`'s at `(2j + 1) * 2 * per`, where `per` is the unit's tenths times `lengths`.
struct Grid {
    origin: Point,
    scale: Scale,
    per: i128,
    columns: usize,
    rows: usize,
    cells: Vec<Vec<char>>,
}

impl Grid {
    /// Columns and rows of a `width` × `depth` table (tenths of a millimetre) at `scale`.
    fn size(width: i64, depth: i64, unit: LengthUnit, scale: Scale) -> (usize, usize) {
        let per = i128::from(unit.tenths()) * i128::from(scale.lengths);
        let columns = i128::from(width.max(1)) * i128::from(scale.columns);
        let rows = i128::from(depth.max(1)) * i128::from(scale.columns);
        let ceil = |a: i128, b: i128| usize::try_from((a + b - 1) / b).unwrap_or(usize::MAX);
        (ceil(columns, per).max(1), ceil(rows, 2 * per).max(1))
    }

    fn new(table: &Table, scale: Scale) -> Grid {
        let (low, high) = bounds(table);
        let (columns, rows) = Grid::size(high.x - low.x, high.y - low.y, table.unit, scale);
        Grid {
            origin: low,
            scale,
            per: i128::from(table.unit.tenths()) * i128::from(scale.lengths),
            columns,
            rows,
            cells: vec![vec![' '; columns]; rows],
        }
    }

    /// A table point in scaled units.
    fn scaled(&self, point: Point) -> (i128, i128) {
        let k = 2 * i128::from(self.scale.columns);
        (
            (i128::from(point.x) - i128::from(self.origin.x)) * k,
            (i128::from(point.y) - i128::from(self.origin.y)) * k,
        )
    }

    /// The centre of cell (`column`, `row`) in scaled units.
    fn centre(&self, column: usize, row: usize) -> (i128, i128) {
        let (i, j) = (column as i128, row as i128);
        ((2 * i + 1) * self.per, (2 * j + 1) * 2 * self.per)
    }

    /// The cell a table point falls in, clamped to the grid: each cell holds its lower and
    /// left edges.
    fn cell_of(&self, point: Point) -> (usize, usize) {
        let (x, y) = self.scaled(point);
        let clamp = |value: i128, cells: usize| {
            usize::try_from(value.max(0))
                .unwrap_or(usize::MAX)
                .min(cells - 1)
        };
        (
            clamp(x.div_euclid(2 * self.per), self.columns),
            clamp(y.div_euclid(4 * self.per), self.rows),
        )
    }

    /// `area` in scaled units (a polygon's corners or a disc's centre and radius).
    fn scaled_area(&self, area: &Area) -> ScaledArea {
        match area {
            Area::Circle { centre, radius } => ScaledArea::Disc {
                centre: self.scaled(*centre),
                radius: i128::from(radius.as_tenth_mm()) * 2 * i128::from(self.scale.columns),
            },
            Area::Polygon(corners) => {
                ScaledArea::Polygon(corners.iter().map(|p| self.scaled(*p)).collect())
            }
            // An area of a kind this drawing does not know covers no cell.
            _ => ScaledArea::Polygon(Vec::new()),
        }
    }

    /// Every cell whose centre lies in `area` (boundary included).
    fn cells_in(&self, area: &ScaledArea) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for row in 0..self.rows {
            for column in 0..self.columns {
                if area.contains(self.centre(column, row)) {
                    out.push((column, row));
                }
            }
        }
        out
    }

    fn set(&mut self, (column, row): (usize, usize), glyph: char) {
        if let Some(cell) = self.cells.get_mut(row).and_then(|r| r.get_mut(column)) {
            *cell = glyph;
        }
    }
}

/// An area in a grid's scaled units.
enum ScaledArea {
    Disc { centre: (i128, i128), radius: i128 },
    Polygon(Vec<(i128, i128)>),
}

impl ScaledArea {
    fn contains(&self, (x, y): (i128, i128)) -> bool {
        match self {
            ScaledArea::Disc { centre, radius } => {
                let (dx, dy) = (x - centre.0, y - centre.1);
                dx * dx + dy * dy <= radius * radius
            }
            ScaledArea::Polygon(corners) => polygon_contains(corners, (x, y)),
        }
    }

    /// A point of the area to mark when no cell's centre is in it (an area smaller than a
    /// cell): a polygon's average corner, a disc's centre.
    fn anchor(&self) -> (i128, i128) {
        match self {
            ScaledArea::Disc { centre, .. } => *centre,
            ScaledArea::Polygon(corners) => {
                let n = corners.len().max(1) as i128;
                let (sx, sy) = corners
                    .iter()
                    .fold((0, 0), |(sx, sy), (x, y)| (sx + x, sy + y));
                (sx / n, sy / n)
            }
        }
    }
}

/// Whether `point` is inside the simple polygon `corners` or on its boundary (crossing
/// number, exact in integers).
fn polygon_contains(corners: &[(i128, i128)], (px, py): (i128, i128)) -> bool {
    let n = corners.len();
    if n < 3 {
        return false;
    }
    let mut inside = false;
    for i in 0..n {
        let (ax, ay) = corners[i];
        let (bx, by) = corners[(i + 1) % n];
        // On the edge: collinear and within its box.
        let cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
        if cross == 0
            && px >= ax.min(bx)
            && px <= ax.max(bx)
            && py >= ay.min(by)
            && py <= ay.max(by)
        {
            return true;
        }
        if (ay > py) != (by > py) {
            // x of the edge at height py, compared without division.
            let lhs = (px - ax) * (by - ay);
            let rhs = (bx - ax) * (py - ay);
            let right_of = if by > ay { lhs < rhs } else { lhs > rhs };
            if right_of {
                inside = !inside;
            }
        }
    }
    inside
}

/// What a model's unit is: the value of the unit characteristic, or the model alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum UnitKey {
    Unit(i64),
    Alone(PieceId),
}

/// One unit of the legend.
struct UnitEntry {
    owner: PlayerId,
    warscroll: String,
    glyph: char,
    models: usize,
    on_table: usize,
    damage: i64,
}

/// The glyph of a seat's `index`th unit: upper case for even seats (the first), lower case
/// for odd ones, `?` past the alphabet.
fn unit_glyph(owner: PlayerId, index: usize) -> char {
    let base = if owner.0 % 2 == 0 { b'A' } else { b'a' };
    u8::try_from(index)
        .ok()
        .filter(|i| *i < 26)
        .map_or('?', |i| char::from(base + i))
}

/// Draws `table` with the models of `state` on it at `scale`: `names` says which
/// characteristics hold a model's base radius and unit and which counter its damage;
/// `armies` names the army each seat brings (by seat; missing seats get none).
pub fn draw(
    table: &Table,
    state: &GameState,
    scale: Scale,
    names: &Names,
    armies: &[&str],
) -> TableText {
    let mut grid = Grid::new(table, scale);
    let rectangle = {
        let (low, high) = bounds(table);
        let corners = [
            low,
            Point::new(high.x, low.y),
            high,
            Point::new(low.x, high.y),
        ];
        table.outline.len() == 4 && corners.iter().all(|c| table.outline.contains(c))
    };
    if !rectangle {
        let outline = grid.scaled_area(&Area::Polygon(table.outline.clone()));
        for row in 0..grid.rows {
            for column in 0..grid.columns {
                if !outline.contains(grid.centre(column, row)) {
                    grid.set((column, row), OFF_TABLE);
                }
            }
        }
    }
    let mut legend = String::new();
    // Territories, first listed on top where they overlap.
    if !table.territories.is_empty() {
        legend.push_str("territories:");
        for (index, (_, area)) in table.territories.iter().enumerate().rev() {
            let glyph = TERRITORY_GLYPHS[index % TERRITORY_GLYPHS.len()];
            let scaled = grid.scaled_area(area);
            // Every other column, so the shading stays light.
            for cell in grid.cells_in(&scaled) {
                grid.set(cell, if cell.0 % 2 == 0 { glyph } else { ' ' });
            }
        }
        for (index, (name, _)) in table.territories.iter().enumerate() {
            let glyph = TERRITORY_GLYPHS[index % TERRITORY_GLYPHS.len()];
            let _ = write!(legend, "   {glyph}  {name}");
        }
        legend.push('\n');
    }
    // Terrain: each feature's floor, then its raised parts over it.
    for (index, feature) in table.features.iter().enumerate() {
        let floor = FLOOR_GLYPHS[index % FLOOR_GLYPHS.len()];
        let raised = RAISED_GLYPHS[index % RAISED_GLYPHS.len()];
        for (part, terrain) in feature.footprints.iter().enumerate() {
            let glyph = if part == 0 { floor } else { raised };
            let area = grid.scaled_area(&Area::Polygon(terrain.footprint.clone()));
            let cells = grid.cells_in(&area);
            if cells.is_empty() {
                let (x, y) = area.anchor();
                let column = usize::try_from((x / (2 * grid.per)).max(0)).unwrap_or(0);
                let row = usize::try_from((y / (4 * grid.per)).max(0)).unwrap_or(0);
                grid.set(
                    (column.min(grid.columns - 1), row.min(grid.rows - 1)),
                    glyph,
                );
            }
            for cell in cells {
                grid.set(cell, glyph);
            }
        }
        let mut line = format!("terrain:  {floor}  {}", feature.name);
        let mut about = vec![feature.kind.clone()];
        about.extend(feature.rules.iter().cloned());
        about.retain(|word| !word.is_empty());
        if !about.is_empty() {
            let _ = write!(line, " ({})", about.join(", "));
        }
        if let Some(first) = feature.footprints.first() {
            let _ = write!(line, ", {} high", length_words(first.height, table.unit));
        }
        let parts: Vec<String> = feature
            .footprints
            .iter()
            .skip(1)
            .map(|part| length_words(part.height, table.unit))
            .collect();
        if !parts.is_empty() {
            let _ = write!(
                line,
                "; {raised}  raised part{} {} high",
                if parts.len() == 1 { "" } else { "s" },
                parts.join(", ")
            );
        }
        let _ = writeln!(legend, "{line}");
    }
    // Objectives.
    for (index, (name, at)) in table.objectives.iter().enumerate() {
        let glyph = OBJECTIVE_GLYPHS.get(index).copied().unwrap_or('0');
        grid.set(grid.cell_of(*at), glyph);
        let _ = writeln!(
            legend,
            "objective:  {glyph}  {name} at {}",
            point_words(*at, table.unit)
        );
    }
    // Units: a glyph per unit, in the order their first models entered the game.
    let mut units: Vec<(PlayerId, UnitKey)> = Vec::new();
    let mut entries: Vec<UnitEntry> = Vec::new();
    let mut labels = BTreeMap::new();
    let mut per_seat: BTreeMap<u8, usize> = BTreeMap::new();
    let mut standing: Vec<(PieceId, Point, i64, char)> = Vec::new();
    for piece in state.pieces.values().filter(|p| p.layer.is_empty()) {
        let key = match piece.characteristics.get(&names.unit) {
            Some(unit) => UnitKey::Unit(*unit),
            None => UnitKey::Alone(piece.id),
        };
        let index = match units.iter().position(|u| *u == (piece.owner, key)) {
            Some(index) => index,
            None => {
                // Seats of the same case share the alphabet.
                let counter = per_seat.entry(piece.owner.0 % 2).or_default();
                let glyph = unit_glyph(piece.owner, *counter);
                *counter += 1;
                units.push((piece.owner, key));
                entries.push(UnitEntry {
                    owner: piece.owner,
                    warscroll: piece.kind.clone(),
                    glyph,
                    models: 0,
                    on_table: 0,
                    damage: 0,
                });
                units.len() - 1
            }
        };
        let entry = &mut entries[index];
        entry.models += 1;
        labels.insert(piece.id, entry.glyph);
        if let Some(Position::Table { at, .. }) = piece.position {
            entry.on_table += 1;
            entry.damage += piece.counters.get(&names.damage).copied().unwrap_or(0);
            let radius = piece
                .characteristics
                .get(&names.base_radius)
                .copied()
                .unwrap_or(0);
            standing.push((piece.id, at, radius, entry.glyph));
        }
    }
    // Bases first, then every model's centre over them, so no model hides another's centre.
    for (_, at, radius, glyph) in &standing {
        let disc = grid.scaled_area(&Area::Circle {
            centre: *at,
            radius: Length::tenth_mm((*radius).max(0)),
        });
        for cell in grid.cells_in(&disc) {
            grid.set(cell, *glyph);
        }
    }
    for (_, at, _, glyph) in &standing {
        grid.set(grid.cell_of(*at), *glyph);
    }
    if !entries.is_empty() {
        legend.push_str("units:\n");
        let player = |owner: PlayerId| {
            state
                .player(owner)
                .map_or_else(|| format!("player {}", owner.0 + 1), |p| p.name.clone())
        };
        let rows: Vec<[String; 5]> = entries
            .iter()
            .map(|entry| {
                let army = armies
                    .get(usize::from(entry.owner.0))
                    .copied()
                    .unwrap_or_default();
                let models = if entry.on_table == 0 {
                    format!(
                        "not on the table ({} model{})",
                        entry.models,
                        if entry.models == 1 { "" } else { "s" }
                    )
                } else {
                    format!(
                        "{} of {} model{} on the table",
                        entry.on_table,
                        entry.models,
                        if entry.models == 1 { "" } else { "s" }
                    )
                };
                [
                    entry.glyph.to_string(),
                    player(entry.owner),
                    army.to_owned(),
                    entry.warscroll.clone(),
                    models,
                ]
            })
            .collect();
        let width = |column: usize| {
            rows.iter()
                .map(|row| row[column].chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths = [width(1), width(2), width(3), width(4)];
        for (row, entry) in rows.iter().zip(&entries) {
            let line = format!(
                "  {}  {:<w1$}  {:<w2$}  {:<w3$}  {:<w4$}  damage {}",
                row[0],
                row[1],
                row[2],
                row[3],
                row[4],
                entry.damage,
                w1 = widths[0],
                w2 = widths[1],
                w3 = widths[2],
                w4 = widths[3],
            );
            let _ = writeln!(legend, "{}", line.trim_end());
        }
    }
    TableText {
        drawing: frame(&grid, table),
        legend,
        labels,
        scale,
    }
}

/// The steps coordinates may be labelled at, in the table's unit.
fn label_steps(unit: LengthUnit) -> &'static [i64] {
    match unit {
        LengthUnit::Inch => &[1, 2, 3, 6, 12, 24, 48, 96, 192],
        _ => &[1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
    }
}

/// A whole number of units `value` as a label, `-` allowed.
fn label(value: i64) -> String {
    value.to_string()
}

/// The grid in its frame, with coordinates and the scale bar.
fn frame(grid: &Grid, table: &Table) -> String {
    let scale = grid.scale;
    let unit = table.unit;
    // A label every `step` units, where that is at least 6 columns and 3 rows apart and
    // falls on whole cells.
    let step = label_steps(unit)
        .iter()
        .copied()
        .find(|step| {
            let columns = step * scale.columns;
            columns % scale.lengths == 0
                && columns / scale.lengths >= 6
                && columns % (2 * scale.lengths) == 0
                && columns / (2 * scale.lengths) >= 3
        })
        .unwrap_or(0);
    let (low, high) = bounds(table);
    let unit_tenths = unit.tenths();
    // The origin's coordinate in whole units, when it is whole (a table from the origin).
    let whole = |tenths: i64| (tenths % unit_tenths == 0).then_some(tenths / unit_tenths);
    let (origin_x, origin_y) = (whole(low.x), whole(low.y));
    // Labels of rows (from the bottom) and columns: the coordinate of their lower/left edge.
    let mut row_labels: BTreeMap<usize, String> = BTreeMap::new();
    let mut column_labels: BTreeMap<usize, String> = BTreeMap::new();
    if step > 0 {
        if let Some(origin) = origin_y {
            let rows_per_step =
                usize::try_from(step * scale.columns / (2 * scale.lengths)).unwrap_or(usize::MAX);
            for (k, row) in (0..grid.rows).step_by(rows_per_step.max(1)).enumerate() {
                row_labels.insert(row, label(origin + step * k as i64));
            }
        }
        if let Some(origin) = origin_x {
            let columns_per_step =
                usize::try_from(step * scale.columns / scale.lengths).unwrap_or(usize::MAX);
            for (k, column) in (0..=grid.columns)
                .step_by(columns_per_step.max(1))
                .enumerate()
            {
                column_labels.insert(column, label(origin + step * k as i64));
            }
        }
    }
    let far_y = whole(high.y).map_or_else(
        || length_words(Length::tenth_mm(high.y), unit),
        |v| v.to_string(),
    );
    let far_x = whole(high.x).map(|v| v.to_string());
    let margin = row_labels
        .values()
        .map(String::len)
        .chain([far_y.len(), unit.suffix().len()])
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    let border = "-".repeat(grid.columns);
    let _ = writeln!(out, "{far_y:>margin$} +{border}+");
    for row in (0..grid.rows).rev() {
        let cells: String = grid.cells[row].iter().collect();
        let label = row_labels.get(&row).map_or("", String::as_str);
        let _ = writeln!(out, "{label:>margin$} |{cells}|");
    }
    // The near edge, a tick under each labelled column, then the labels.
    let mut ticks: Vec<char> = std::iter::once('+')
        .chain(border.chars())
        .chain(['+'])
        .collect();
    let mut labels_line: Vec<char> = vec![' '; grid.columns + 2];
    let mut column_labels: Vec<(usize, String)> = column_labels.into_iter().collect();
    if let Some(far) = far_x {
        if column_labels.last().map(|(c, _)| *c) != Some(grid.columns) {
            column_labels.push((grid.columns, far));
        }
    }
    let mut free_from = 0;
    for (column, text) in column_labels {
        // A label starts at its column's left edge (the tick); the table's far edge is
        // the frame's right side. A label that would touch the previous one is left out.
        let at = column + 1;
        let at = if column == grid.columns {
            grid.columns + 1
        } else {
            at
        };
        if at < free_from {
            continue;
        }
        if let Some(tick) = ticks.get_mut(at) {
            if at != 1 && at != grid.columns + 1 {
                *tick = '+';
            }
        }
        for (offset, c) in text.chars().enumerate() {
            if labels_line.len() <= at + offset {
                labels_line.resize(at + offset + 1, ' ');
            }
            labels_line[at + offset] = c;
        }
        free_from = at + text.len() + 1;
    }
    let ticks: String = ticks.into_iter().collect();
    let _ = writeln!(out, "{:>margin$} {ticks}", unit.suffix());
    let labels_line: String = labels_line.into_iter().collect();
    let _ = writeln!(out, "{:margin$} {}", "", labels_line.trim_end());
    // The scale bar: the shortest whole length of at least 8 columns.
    let bar = label_steps(unit)
        .iter()
        .copied()
        .find(|length| {
            let columns = length * scale.columns;
            columns % scale.lengths == 0 && columns / scale.lengths >= 8
        })
        .unwrap_or(1);
    let bar_columns = usize::try_from(bar * scale.columns / scale.lengths).unwrap_or(1);
    let _ = writeln!(
        out,
        "scale |{}| {bar} {}   (a column is {} across, a row {} tall; north is up)",
        "-".repeat(bar_columns.saturating_sub(1)),
        unit.suffix(),
        scale.column_words(unit),
        scale.row_words(unit)
    );
    out
}

/// The request kind of the script function that asks where a unit moves: its points are
/// offsets (how far the whole unit goes across and up), not places (`docs/dsl.md`).
pub const MOVE_REQUEST: &str = "choose_move";

/// A request whose options are table points, read for a player: each candidate in words
/// (`move 5.0 in north-east, ending 3.2 in from b (Bo's Blue Blades)`, `set up at (12.0 in,
/// 6.5 in)`), and a point the player types.
///
/// For a move, the unit that moves is not in the request: it is taken to be the unit of a
/// model the same step's answers or values name (the common "pick a unit, then where it
/// goes"), or else the only unit of the player that every candidate could move, and only
/// when every candidate offset keeps it on the table without crossing a base. When none
/// fits, a move is told by its length and direction alone.
#[derive(Clone, Debug)]
pub struct PointQuestion {
    unit: LengthUnit,
    offsets: bool,
    any: bool,
    scene: Scene,
    mover: Option<GroupId>,
}

impl PointQuestion {
    /// The reading of `request` in a game on `table`; `None` when it offers no table point.
    pub fn of(
        request: &Request,
        state: &GameState,
        table: &Table,
        names: &Names,
    ) -> Option<PointQuestion> {
        let gloam_core::Options::One { choices } = &request.options else {
            return None;
        };
        let points: Vec<Point> = choices
            .iter()
            .filter_map(|choice| match choice {
                Choice::Point(point) => Some(*point),
                _ => None,
            })
            .collect();
        let any = choices.contains(&Choice::AnyPoint);
        if points.is_empty() && !any {
            return None;
        }
        let mut scene = Scene::from_state(state, &names.base_radius, &names.unit);
        scene.outline = table.outline.clone();
        let offsets = request.kind == MOVE_REQUEST;
        let mover = if offsets && !points.is_empty() {
            moving_unit(request, state, &scene, &points, table.unit)
        } else {
            None
        };
        Some(PointQuestion {
            unit: table.unit,
            offsets,
            any,
            scene,
            mover,
        })
    }

    /// Whether the points are offsets (a move) rather than places.
    pub fn offsets(&self) -> bool {
        self.offsets
    }

    /// Whether the request takes a point typed by the player ([`Choice::AnyPoint`]).
    pub fn takes_any_point(&self) -> bool {
        self.any
    }

    /// The unit that moves, when it could be told ([`PointQuestion`]).
    pub fn mover(&self) -> Option<GroupId> {
        self.mover
    }

    /// `choice` in words; `None` for a choice that is not a table point.
    pub fn describe(
        &self,
        choice: &Choice,
        state: &GameState,
        labels: &BTreeMap<PieceId, char>,
    ) -> Option<String> {
        let suffix = self.unit.suffix();
        match choice {
            Choice::AnyPoint if self.offsets => Some(format!(
                "a move of your own: type how far east and north, `X Y` in {} (`3 -1.5`: 3 \
                 {suffix} east and 1.5 {suffix} south)",
                unit_name(self.unit)
            )),
            Choice::AnyPoint => Some(format!(
                "a point of your own: type `X Y` in {} from the bottom-left corner (`12 6.5`)",
                unit_name(self.unit)
            )),
            Choice::Point(point) if self.offsets => {
                let mut text = format!(
                    "move {} {}",
                    length_words(offset_length(*point), self.unit),
                    direction_words(*point)
                );
                if let Some(end) = self.after_move(*point, state, labels) {
                    let _ = write!(text, ", {end}");
                }
                Some(text)
            }
            Choice::Point(point) => Some(format!("set up at {}", point_words(*point, self.unit))),
            _ => None,
        }
    }

    /// Where the moving unit would end, next to its nearest enemy.
    fn after_move(
        &self,
        offset: Point,
        state: &GameState,
        labels: &BTreeMap<PieceId, char>,
    ) -> Option<String> {
        let group = self.mover?;
        let mut moved = self.scene.clone();
        for piece in moved.pieces.iter_mut().filter(|p| p.group == group) {
            piece.figure.centre = shifted(piece.figure.centre, offset);
        }
        let side = moved.side_of(Subject::Group(group)).ok()?;
        let (_, enemy, gap) = moved
            .closest(Subject::Group(group), &Target::EnemiesOf(side))
            .ok()??;
        let name = piece_words(state, enemy, labels);
        Some(if gap.is_zero() {
            format!("into base contact with {name}")
        } else {
            format!(
                "ending {} from {name}",
                length_words(gap.floor(), self.unit)
            )
        })
    }

    /// A point the player typed, as an answer (`None` for text that is not a point, or when
    /// the request takes no typed point).
    pub fn parse(&self, text: &str) -> Option<Answer> {
        if !self.any {
            return None;
        }
        parse_point(text, self.unit).map(|point| Answer::One(Choice::Point(point)))
    }
}

/// A model in players' words with its unit's glyph: `b (Bo's Blue Blades)`.
fn piece_words(state: &GameState, piece: PieceId, labels: &BTreeMap<PieceId, char>) -> String {
    let name = crate::narrate::piece_name(state, piece);
    match labels.get(&piece) {
        Some(glyph) => format!("{glyph} ({name})"),
        None => name,
    }
}

/// `point` moved by `by` (saturating).
fn shifted(point: Point, by: Point) -> Point {
    Point::new(point.x.saturating_add(by.x), point.y.saturating_add(by.y))
}

/// The length of an offset, rounded down to a tenth of a millimetre.
pub(crate) fn offset_length(offset: Point) -> Length {
    let (x, y) = (i128::from(offset.x), i128::from(offset.y));
    let squared = u128::try_from(x * x + y * y).unwrap_or(0);
    Length::tenth_mm(i64::try_from(squared.isqrt()).unwrap_or(i64::MAX))
}

/// The unit a move request moves, as [`PointQuestion`] says.
fn moving_unit(
    request: &Request,
    state: &GameState,
    scene: &Scene,
    offsets: &[Point],
    unit: LengthUnit,
) -> Option<GroupId> {
    let longest = offsets.iter().map(|p| offset_length(*p)).max()?;
    let limits = PathLimits::new(longest + Length::tenth_mm(1), unit);
    let fits = |group: GroupId| {
        scene.side_of(Subject::Group(group)).ok() == Some(request.player)
            && offsets
                .iter()
                .all(|offset| check_formation(scene, group, *offset, &limits).is_ok())
    };
    let group_of = |piece: PieceId| scene.piece(piece).map(|p| p.group);
    // The models the step in play names: its answers, latest first, then its values.
    let mut named: Vec<PieceId> = Vec::new();
    if let Some(frame) = state.flow.last() {
        for answer in frame.answers.iter().rev() {
            for choice in answer.items() {
                if let Choice::Piece(piece) = choice {
                    named.push(*piece);
                }
            }
        }
        for value in frame.vars.values() {
            if let gloam_core::Value::Piece(piece) = value {
                named.push(*piece);
            }
        }
    }
    if let Some(group) = named.into_iter().filter_map(group_of).find(|g| fits(*g)) {
        return Some(group);
    }
    let mut fitting = scene.groups().into_iter().filter(|g| fits(*g));
    match (fitting.next(), fitting.next()) {
        (Some(group), None) => Some(group),
        _ => None,
    }
}

/// `text` (a refusal the rules wrote) in players' words on a table: each `pieceN` named with
/// its owner, kind and unit glyph, each `point (x, y)` in the table's unit.
///
/// # Examples
///
/// ```
/// use gloam::core::{Ctx, GameState, LengthUnit, PlayerId};
/// let mut state = GameState::new(1, &["Ann", "Bo"]);
/// let mut log = Vec::new();
/// Ctx::new(&mut state, &mut log).create_piece(PlayerId(1), "Scout", Vec::new()).unwrap();
/// let text = gloam::table_text::readable(
///     "point (254, -127) was refused: near piece0",
///     &state,
///     LengthUnit::Inch,
///     &Default::default(),
/// );
/// assert_eq!(text, "point (1.0 in, -0.5 in) was refused: near Bo's Scout");
/// ```
pub fn readable(
    text: &str,
    state: &GameState,
    unit: LengthUnit,
    labels: &BTreeMap<PieceId, char>,
) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let starts_word = out
            .chars()
            .last()
            .is_none_or(|c| !c.is_ascii_alphanumeric());
        if starts_word {
            if let Some(after) = rest.strip_prefix("piece") {
                let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
                let ends_word =
                    !after[digits.len()..].starts_with(|c: char| c.is_ascii_alphanumeric());
                if let (Ok(id), true) = (digits.parse::<u16>(), ends_word) {
                    if state.piece(PieceId(id)).is_some() {
                        out.push_str(&piece_words(state, PieceId(id), labels));
                        rest = &after[digits.len()..];
                        continue;
                    }
                }
            }
            if let Some(after) = rest.strip_prefix("point (") {
                if let Some((inside, tail)) = after.split_once(')') {
                    let numbers: Vec<Option<i64>> = inside
                        .split(',')
                        .map(|n| n.trim().parse::<i64>().ok())
                        .collect();
                    if let [Some(x), Some(y)] = numbers.as_slice() {
                        let _ = write!(out, "point {}", point_words(Point::new(*x, *y), unit));
                        rest = tail;
                        continue;
                    }
                }
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}
