//! Exact continuous table geometry for measured games (Spearhead in inches, Umbra Turris in cm).
//!
//! Everything is integer: a [`Length`] and the coordinates of a [`Point`] count tenths of a
//! millimetre (1 inch = 254 exactly), so a replay gives the same answers on every host.
//! Predicates ([`within`], [`base_contact`], [`wholly_within`], [`arc_of`], [`line_of_sight`],
//! [`segment_clear`]) never take a square root: they compare squared quantities, or rationals
//! cross-multiplied, in `i128`/`u128`. Only the functions that *return* a length
//! ([`distance_edge_to_edge`], [`path_length`], [`Point::distance_to`]) round, with
//! `u128::isqrt`, and each says which way.
//!
//! # Bounds
//!
//! Coordinates must lie within ±[`COORD_LIMIT`] (10^9 tenths of a millimetre, i.e. 100 m) and
//! facing components within ±[`FACING_LIMIT`]. Within those bounds no product overflows. Values
//! outside are clamped to the limit before any computation (so nothing panics), which changes
//! the geometry: loaders reject them first with [`Point::checked`], [`Figure::validate`] and
//! [`validate_polygon`]. A negative radius counts as 0. Lengths used as thresholds may be any
//! `i64`: a threshold longer than any distance on a 100 m table is capped harmlessly.
//!
//! # Known gaps
//!
//! Bases are circles only: oval (AoS cavalry) and rectangular bases need a closest-point
//! distance and are not modelled yet. Line of sight is 2.5D (see [`line_of_sight`]).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Largest coordinate magnitude, in tenths of a millimetre (10^9, i.e. 100 m).
pub const COORD_LIMIT: i64 = 1_000_000_000;

/// Largest facing-vector component magnitude (twice [`COORD_LIMIT`], the widest offset).
pub const FACING_LIMIT: i64 = 2 * COORD_LIMIT;

/// A threshold no distance between in-bound points reaches (the diagonal is about 2.83 × 10^9).
pub(crate) const SPAN: i128 = 3_000_000_000;

/// Tenths of a millimetre in one inch.
const TENTHS_PER_INCH: i64 = 254;

/// Why a length, point, figure or polygon was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// The text is not a decimal number with an optional unit.
    #[error("`{text}` is not a length (expected digits, optionally `.` and digits, then a unit)")]
    InvalidLength {
        /// The text as given.
        text: String,
    },
    /// The unit suffix is not one of `mm`, `cm`, `in`, `inch`, `inches`, `"`.
    #[error("unknown length unit `{unit}` in `{text}`")]
    UnknownUnit {
        /// The text as given.
        text: String,
        /// The unrecognised suffix.
        unit: String,
    },
    /// A length given without a unit where one is required.
    #[error("length `{text}` has no unit (add mm, cm or in)")]
    MissingUnit {
        /// The text as given.
        text: String,
    },
    /// The value is not a whole number of tenths of a millimetre (e.g. `0.1in`).
    #[error("length `{text}` is not a whole number of tenths of a millimetre")]
    TooPrecise {
        /// The text as given.
        text: String,
    },
    /// The value does not fit in an `i64` of tenths of a millimetre.
    #[error("length `{text}` is out of range")]
    LengthOutOfRange {
        /// The text as given.
        text: String,
    },
    /// A point lies outside ±[`COORD_LIMIT`].
    #[error("point ({x}, {y}) lies outside ±{COORD_LIMIT} tenths of a millimetre")]
    CoordinateOutOfRange {
        /// The x coordinate.
        x: i64,
        /// The y coordinate.
        y: i64,
    },
    /// A facing component lies outside ±[`FACING_LIMIT`].
    #[error("facing ({dx}, {dy}) has a component outside ±{FACING_LIMIT}")]
    FacingOutOfRange {
        /// The x component.
        dx: i64,
        /// The y component.
        dy: i64,
    },
    /// A radius or height is negative.
    #[error("{what} is negative ({value} tenths of a millimetre)")]
    NegativeLength {
        /// Which length (`radius`, `height`).
        what: &'static str,
        /// The value.
        value: i64,
    },
    /// A polygon has fewer than three vertices.
    #[error("polygon has {count} vertices; at least 3 are needed")]
    TooFewVertices {
        /// How many vertices it has.
        count: usize,
    },
    /// Two consecutive vertices are equal.
    #[error("polygon edge {edge} has zero length")]
    ZeroLengthEdge {
        /// Index of the edge (from vertex `edge` to the next).
        edge: usize,
    },
    /// Two edges touch other than at a shared corner, or the polygon has no area.
    #[error("polygon edges {first} and {second} intersect")]
    SelfIntersecting {
        /// Index of the first edge.
        first: usize,
        /// Index of the second edge.
        second: usize,
    },
}

/// A unit in which rulesets write lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum LengthUnit {
    /// Millimetre (10 tenths).
    Mm,
    /// Centimetre (100 tenths), Umbra Turris' unit.
    Cm,
    /// Inch (254 tenths exactly), Spearhead's unit.
    Inch,
}

impl LengthUnit {
    /// Tenths of a millimetre in one of this unit.
    pub const fn tenths(self) -> i64 {
        match self {
            LengthUnit::Mm => 10,
            LengthUnit::Cm => 100,
            LengthUnit::Inch => TENTHS_PER_INCH,
        }
    }

    /// The suffix used when formatting (`mm`, `cm`, `in`).
    pub const fn suffix(self) -> &'static str {
        match self {
            LengthUnit::Mm => "mm",
            LengthUnit::Cm => "cm",
            LengthUnit::Inch => "in",
        }
    }

    /// Reads a unit suffix: `mm`, `cm`, `in`, `inch`, `inches` or `"`.
    pub fn from_suffix(suffix: &str) -> Option<LengthUnit> {
        match suffix {
            "mm" => Some(LengthUnit::Mm),
            "cm" => Some(LengthUnit::Cm),
            "in" | "inch" | "inches" | "\"" => Some(LengthUnit::Inch),
            _ => None,
        }
    }
}

/// A signed length in tenths of a millimetre. Arithmetic saturates instead of overflowing.
///
/// # Examples
///
/// ```
/// use gloam_core::{Length, LengthUnit};
/// assert_eq!(Length::inches(1), Length::tenth_mm(254));
/// assert_eq!(Length::parse("2.5", LengthUnit::Inch), Ok(Length::tenth_mm(635)));
/// assert_eq!("1.5cm".parse::<Length>(), Ok(Length::mm(15)));
/// assert!(Length::parse("0.1", LengthUnit::Inch).is_err()); // 2.54 mm: too precise
/// assert_eq!(Length::inches(1).to_string(), "25.4mm");
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Length(i64);

impl Length {
    /// No length.
    pub const ZERO: Length = Length(0);

    /// A length in tenths of a millimetre.
    pub const fn tenth_mm(tenths: i64) -> Length {
        Length(tenths)
    }

    /// A length in millimetres (saturating).
    pub const fn mm(mm: i64) -> Length {
        Length(mm.saturating_mul(10))
    }

    /// A length in centimetres (saturating).
    pub const fn cm(cm: i64) -> Length {
        Length(cm.saturating_mul(100))
    }

    /// A length in inches, 1 inch = 25.4 mm exactly (saturating).
    pub const fn inches(inches: i64) -> Length {
        Length(inches.saturating_mul(TENTHS_PER_INCH))
    }

    /// A whole number of `unit`s (saturating).
    pub const fn of(amount: i64, unit: LengthUnit) -> Length {
        Length(amount.saturating_mul(unit.tenths()))
    }

    /// The length in tenths of a millimetre.
    pub const fn as_tenth_mm(self) -> i64 {
        self.0
    }

    /// Parses a decimal length such as `2.5`, `1.5cm`, `3"` or `-0.5 in`, with integer arithmetic.
    ///
    /// A number without a suffix is in `default_unit`. The value must be a whole number of
    /// tenths of a millimetre: `0.5in` (12.7 mm) is accepted, `0.25in` (6.35 mm) and `0.1in`
    /// are refused with [`TableError::TooPrecise`]. Trailing fractional zeros are ignored.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Length, LengthUnit, TableError};
    /// assert_eq!(Length::parse("0.5", LengthUnit::Inch), Ok(Length::tenth_mm(127)));
    /// assert_eq!(Length::parse("12mm", LengthUnit::Inch), Ok(Length::mm(12)));
    /// assert!(matches!(Length::parse("1.2.3", LengthUnit::Cm), Err(TableError::InvalidLength { .. })));
    /// ```
    pub fn parse(text: &str, default_unit: LengthUnit) -> Result<Length, TableError> {
        parse_length(text, Some(default_unit))
    }

    /// Formats the length exactly in `unit` (e.g. `2.5in`), or `None` if that needs more than
    /// four decimals (25 mm is 0.98425…in).
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Length, LengthUnit};
    /// assert_eq!(Length::tenth_mm(635).format_in(LengthUnit::Inch).as_deref(), Some("2.5in"));
    /// assert_eq!(Length::cm(3).format_in(LengthUnit::Inch), None);
    /// ```
    pub fn format_in(self, unit: LengthUnit) -> Option<String> {
        let scale = i128::from(unit.tenths());
        let value = i128::from(self.0);
        (0..=4u32).find_map(|decimals| {
            let scaled = value * 10i128.pow(decimals);
            (scaled % scale == 0)
                .then(|| format!("{}{}", decimal(scaled / scale, decimals), unit.suffix()))
        })
    }
}

/// Writes `value / 10^decimals` as a decimal.
fn decimal(value: i128, decimals: u32) -> String {
    let sign = if value < 0 { "-" } else { "" };
    let magnitude = value.unsigned_abs();
    if decimals == 0 {
        return format!("{sign}{magnitude}");
    }
    let denominator = 10u128.pow(decimals);
    let width = decimals as usize;
    format!(
        "{sign}{}.{:0width$}",
        magnitude / denominator,
        magnitude % denominator
    )
}

fn parse_length(text: &str, default_unit: Option<LengthUnit>) -> Result<Length, TableError> {
    let fail = |make: fn(String) -> TableError| make(text.to_owned());
    let out_of_range = || fail(|text| TableError::LengthOutOfRange { text });
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(trimmed.len());
    let (number, suffix) = trimmed.split_at(split);
    let suffix = suffix.trim();
    let unit = match (suffix.is_empty(), default_unit) {
        (true, Some(unit)) => unit,
        (true, None) => return Err(fail(|text| TableError::MissingUnit { text })),
        (false, _) => LengthUnit::from_suffix(suffix).ok_or_else(|| TableError::UnknownUnit {
            text: text.to_owned(),
            unit: suffix.to_owned(),
        })?,
    };
    let (negative, unsigned) = match number.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, number.strip_prefix('+').unwrap_or(number)),
    };
    let (whole, raw_fraction) = match unsigned.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (unsigned, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(whole) || raw_fraction.is_some_and(|f| !all_digits(f)) {
        return Err(fail(|text| TableError::InvalidLength { text }));
    }
    let fraction = raw_fraction.unwrap_or("").trim_end_matches('0');
    // The last fractional digit is not 0 and a unit has at most two factors of 2 or 5, so
    // more than 38 decimals can never make whole tenths (and 10^38 fits in an i128).
    let decimals = u32::try_from(fraction.len()).unwrap_or(u32::MAX);
    if decimals > 38 {
        return Err(fail(|text| TableError::TooPrecise { text }));
    }
    let mut mantissa: i128 = 0;
    for digit in whole.bytes().chain(fraction.bytes()) {
        mantissa = mantissa
            .checked_mul(10)
            .and_then(|m| m.checked_add(i128::from(digit - b'0')))
            .ok_or_else(out_of_range)?;
    }
    let denominator = 10i128.pow(decimals);
    let scaled = mantissa
        .checked_mul(i128::from(unit.tenths()))
        .ok_or_else(out_of_range)?;
    if scaled % denominator != 0 {
        return Err(fail(|text| TableError::TooPrecise { text }));
    }
    let magnitude = scaled / denominator;
    let value = if negative { -magnitude } else { magnitude };
    i64::try_from(value).map(Length).map_err(|_| out_of_range())
}

impl FromStr for Length {
    type Err = TableError;

    /// Parses a length that carries its unit (`1.5cm`, `3"`); see [`Length::parse`].
    fn from_str(text: &str) -> Result<Length, TableError> {
        parse_length(text, None)
    }
}

impl fmt::Display for Length {
    /// Millimetres with one decimal when needed: `25.4mm`, `10mm`, `-0.5mm`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = i128::from(self.0);
        let text = if value % 10 == 0 {
            decimal(value / 10, 0)
        } else {
            decimal(value, 1)
        };
        write!(f, "{text}mm")
    }
}

impl std::ops::Add for Length {
    type Output = Length;
    fn add(self, other: Length) -> Length {
        Length(self.0.saturating_add(other.0))
    }
}

impl std::ops::Sub for Length {
    type Output = Length;
    fn sub(self, other: Length) -> Length {
        Length(self.0.saturating_sub(other.0))
    }
}

impl std::ops::Neg for Length {
    type Output = Length;
    fn neg(self) -> Length {
        Length(self.0.saturating_neg())
    }
}

/// A point on the table, coordinates in tenths of a millimetre (see the module bounds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Point {
    /// East-west coordinate.
    pub x: i64,
    /// North-south coordinate.
    pub y: i64,
}

impl Point {
    /// The origin.
    pub const ORIGIN: Point = Point { x: 0, y: 0 };

    /// A point from raw tenths of a millimetre.
    pub const fn new(x: i64, y: i64) -> Point {
        Point { x, y }
    }

    /// A point from two lengths.
    pub const fn at(x: Length, y: Length) -> Point {
        Point { x: x.0, y: y.0 }
    }

    /// A point, refused if a coordinate lies outside ±[`COORD_LIMIT`].
    pub fn checked(x: i64, y: i64) -> Result<Point, TableError> {
        if x.unsigned_abs() > COORD_LIMIT.unsigned_abs()
            || y.unsigned_abs() > COORD_LIMIT.unsigned_abs()
        {
            return Err(TableError::CoordinateOutOfRange { x, y });
        }
        Ok(Point { x, y })
    }

    /// This point moved by `(dx, dy)` (saturating).
    pub const fn offset(self, dx: Length, dy: Length) -> Point {
        Point {
            x: self.x.saturating_add(dx.0),
            y: self.y.saturating_add(dy.0),
        }
    }

    /// Straight-line distance to `other`, rounded down to a tenth of a millimetre.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Length, Point};
    /// assert_eq!(Point::new(0, 0).distance_to(Point::new(30, 40)), Length::tenth_mm(50));
    /// ```
    pub fn distance_to(self, other: Point) -> Length {
        let squared = P::of(other).sub(P::of(self)).norm2();
        Length(isqrt_floor(squared))
    }
}

/// A model on the table: a round base, a height for line of sight, and a facing.
///
/// `facing` is an integer direction vector; `(0, 0)` means the figure has no facing (it sees
/// all around, and every target is in its front arc). Oval bases are a known gap.
///
/// # Examples
///
/// ```
/// use gloam_core::{Figure, Length, Point};
/// let hero = Figure::new(Point::ORIGIN, Length::mm(16)).with_facing((1, 0));
/// assert!(hero.validate().is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Figure {
    /// Centre of the base.
    pub centre: Point,
    /// Radius of the base.
    pub radius: Length,
    /// Height of the model plus base, for line of sight.
    pub height: Length,
    /// Direction the model faces, `(0, 0)` for none.
    pub facing: (i64, i64),
}

impl Figure {
    /// A figure with no height and no facing.
    pub const fn new(centre: Point, radius: Length) -> Figure {
        Figure {
            centre,
            radius,
            height: Length::ZERO,
            facing: (0, 0),
        }
    }

    /// This figure with a height.
    pub const fn with_height(self, height: Length) -> Figure {
        Figure { height, ..self }
    }

    /// This figure with a facing vector.
    pub const fn with_facing(self, facing: (i64, i64)) -> Figure {
        Figure { facing, ..self }
    }

    /// This figure turned to face `target` (the facing is reduced by the gcd; unchanged if the
    /// target is the centre), as a charger is placed facing its target.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Figure, Length, Point};
    /// let hero = Figure::new(Point::new(10, 10), Length::mm(16));
    /// assert_eq!(hero.facing_towards(Point::new(40, 70)).facing, (1, 2));
    /// ```
    pub fn facing_towards(self, target: Point) -> Figure {
        let v = P::of(target).sub(P::of(self.centre));
        let divisor = i128::try_from(gcd(v.x.unsigned_abs(), v.y.unsigned_abs())).unwrap_or(0);
        if divisor == 0 {
            return self;
        }
        let component = |c: i128| i64::try_from(c / divisor).unwrap_or(0);
        self.with_facing((component(v.x), component(v.y)))
    }

    /// Checks the bounds: centre within ±[`COORD_LIMIT`], facing within ±[`FACING_LIMIT`],
    /// radius and height not negative.
    pub fn validate(&self) -> Result<(), TableError> {
        Point::checked(self.centre.x, self.centre.y)?;
        let (dx, dy) = self.facing;
        if dx.unsigned_abs() > FACING_LIMIT.unsigned_abs()
            || dy.unsigned_abs() > FACING_LIMIT.unsigned_abs()
        {
            return Err(TableError::FacingOutOfRange { dx, dy });
        }
        not_negative("radius", self.radius)?;
        not_negative("height", self.height)
    }
}

/// A region of the table: deployment zones, objectives, auras, terrain footprints.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Area {
    /// A disc (its circle counts as inside).
    Circle {
        /// Centre of the disc.
        centre: Point,
        /// Radius of the disc.
        radius: Length,
    },
    /// A simple polygon, convex or not, either orientation (its boundary counts as inside).
    Polygon(Vec<Point>),
}

impl Area {
    /// Whether `point` lies in the area, boundary included.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Area, Point};
    /// let square = Area::Polygon(vec![Point::new(0, 0), Point::new(10, 0), Point::new(10, 10), Point::new(0, 10)]);
    /// assert!(square.contains(Point::new(10, 5)));
    /// assert!(!square.contains(Point::new(11, 5)));
    /// ```
    pub fn contains(&self, point: Point) -> bool {
        match self {
            Area::Circle { centre, radius } => {
                P::of(point).sub(P::of(*centre)).norm2() <= square(length_nonneg(*radius))
            }
            Area::Polygon(vertices) => polygon_contains(vertices, P::of(point)),
        }
    }

    /// Checks the bounds, a non-negative radius, and that a polygon is simple.
    pub fn validate(&self) -> Result<(), TableError> {
        match self {
            Area::Circle { centre, radius } => {
                Point::checked(centre.x, centre.y)?;
                not_negative("radius", *radius)
            }
            Area::Polygon(vertices) => validate_polygon(vertices),
        }
    }
}

fn not_negative(what: &'static str, length: Length) -> Result<(), TableError> {
    match length.0 {
        value if value < 0 => Err(TableError::NegativeLength { what, value }),
        _ => Ok(()),
    }
}

/// Checks that `vertices` form a simple polygon within bounds: at least three vertices, no
/// zero-length edge, no two edges touching except consecutive edges at their shared corner.
///
/// # Examples
///
/// ```
/// use gloam_core::{validate_polygon, Point, TableError};
/// let bow_tie = [Point::new(0, 0), Point::new(10, 10), Point::new(10, 0), Point::new(0, 10)];
/// assert!(matches!(validate_polygon(&bow_tie), Err(TableError::SelfIntersecting { .. })));
/// ```
pub fn validate_polygon(vertices: &[Point]) -> Result<(), TableError> {
    let count = vertices.len();
    if count < 3 {
        return Err(TableError::TooFewVertices { count });
    }
    for vertex in vertices {
        Point::checked(vertex.x, vertex.y)?;
    }
    let edge = |i: usize| (P::of(vertices[i]), P::of(vertices[(i + 1) % count]));
    for i in 0..count {
        let (a, b) = edge(i);
        if a == b {
            return Err(TableError::ZeroLengthEdge { edge: i });
        }
    }
    for first in 0..count {
        for second in first + 1..count {
            let (a, b) = edge(first);
            let (c, d) = edge(second);
            let touches = if second == first + 1 {
                // Shared corner b == c: the edges must not fold back onto each other.
                orient(a, b, d) == 0 && a.sub(b).dot(d.sub(b)) > 0
            } else if first == 0 && second == count - 1 {
                // Shared corner a == d.
                orient(c, a, b) == 0 && c.sub(a).dot(b.sub(a)) > 0
            } else {
                segments_meet(a, b, c, d)
            };
            if touches {
                return Err(TableError::SelfIntersecting { first, second });
            }
        }
    }
    Ok(())
}

/// Edge-to-edge distance between two bases, `max(0, centre distance - r1 - r2)`, rounded down
/// to a tenth of a millimetre (floor of the exact value, via `u128::isqrt`).
///
/// Use [`within`] or [`compare_edge_distance`] for decisions: they are exact.
///
/// # Examples
///
/// ```
/// use gloam_core::{distance_edge_to_edge, Figure, Length, Point};
/// let a = Figure::new(Point::ORIGIN, Length::mm(16));
/// let b = Figure::new(Point::at(Length::inches(6), Length::ZERO), Length::mm(16));
/// assert_eq!(distance_edge_to_edge(&a, &b), Length::tenth_mm(1204)); // 152.4 mm - 32 mm
/// ```
pub fn distance_edge_to_edge(a: &Figure, b: &Figure) -> Length {
    let centres = i128::from(isqrt_floor(centre_distance2(a, b)));
    let edge = (centres - radius(a) - radius(b)).max(0);
    Length(i64::try_from(edge).unwrap_or(i64::MAX))
}

/// Compares the exact edge-to-edge distance between two bases with `distance`.
///
/// # Examples
///
/// ```
/// use gloam_core::{compare_edge_distance, Figure, Length, Point};
/// use std::cmp::Ordering;
/// let a = Figure::new(Point::ORIGIN, Length::cm(1));
/// let b = Figure::new(Point::at(Length::cm(5), Length::ZERO), Length::cm(1));
/// assert_eq!(compare_edge_distance(&a, &b, Length::cm(3)), Ordering::Equal);
/// assert_eq!(compare_edge_distance(&a, &b, Length::cm(2)), Ordering::Greater);
/// ```
pub fn compare_edge_distance(a: &Figure, b: &Figure, distance: Length) -> Ordering {
    let d = i128::from(distance.0);
    if d < 0 {
        return Ordering::Greater;
    }
    let centres2 = centre_distance2(a, b);
    let radii = radius(a) + radius(b);
    if d == 0 {
        // The edge distance is max(0, ...): it equals 0 whenever the bases touch or overlap.
        return if centres2 <= square(radii) {
            Ordering::Equal
        } else {
            Ordering::Greater
        };
    }
    centres2.cmp(&square(d + radii))
}

/// Whether some part of `b`'s base lies within `distance` of `a`'s base, measured edge to
/// edge, boundary inclusive: centre distance <= distance + r1 + r2. False for a negative
/// distance.
///
/// # Examples
///
/// ```
/// use gloam_core::{within, Figure, Length, Point};
/// let a = Figure::new(Point::ORIGIN, Length::inches(1));
/// let b = Figure::new(Point::at(Length::inches(5), Length::ZERO), Length::inches(1));
/// assert!(within(&a, &b, Length::inches(3)));
/// assert!(!within(&a, &b, Length::tenth_mm(3 * 254 - 1)));
/// ```
pub fn within(a: &Figure, b: &Figure, distance: Length) -> bool {
    compare_edge_distance(a, b, distance) != Ordering::Greater
}

/// Whether two bases touch exactly: centre distance == r1 + r2.
///
/// # Examples
///
/// ```
/// use gloam_core::{base_contact, Figure, Length, Point};
/// let a = Figure::new(Point::ORIGIN, Length::tenth_mm(20));
/// let b = Figure::new(Point::new(30, 40), Length::tenth_mm(30));
/// assert!(base_contact(&a, &b));
/// ```
pub fn base_contact(a: &Figure, b: &Figure) -> bool {
    centre_distance2(a, b) == square(radius(a) + radius(b))
}

/// Whether two bases overlap: centre distance < r1 + r2 (touching is not overlapping).
///
/// # Examples
///
/// ```
/// use gloam_core::{overlapping, Figure, Length, Point};
/// let a = Figure::new(Point::ORIGIN, Length::tenth_mm(20));
/// let b = Figure::new(Point::new(30, 39), Length::tenth_mm(30));
/// assert!(overlapping(&a, &b));
/// ```
pub fn overlapping(a: &Figure, b: &Figure) -> bool {
    centre_distance2(a, b) < square(radius(a) + radius(b))
}

/// Whether every point of the figure's base lies in the area (boundary inclusive).
///
/// Circle in circle: centre distance + r <= R. Circle in polygon: centre inside and the
/// distance from the centre to every edge at least r (compared as rationals, exactly).
///
/// # Examples
///
/// ```
/// use gloam_core::{wholly_within, Area, Figure, Length, Point};
/// let zone = Area::Polygon(vec![Point::new(0, 0), Point::new(100, 0), Point::new(100, 100), Point::new(0, 100)]);
/// assert!(wholly_within(&Figure::new(Point::new(20, 50), Length::tenth_mm(20)), &zone));
/// assert!(!wholly_within(&Figure::new(Point::new(19, 50), Length::tenth_mm(20)), &zone));
/// ```
pub fn wholly_within(figure: &Figure, area: &Area) -> bool {
    let centre = P::of(figure.centre);
    let r = radius(figure);
    match area {
        Area::Circle {
            centre: area_centre,
            radius: area_radius,
        } => {
            let slack = length_nonneg(*area_radius) - r;
            slack >= 0 && centre.sub(P::of(*area_centre)).norm2() <= square(slack)
        }
        Area::Polygon(vertices) => polygon_holds_figure(vertices, centre, r),
    }
}

/// Whether the round base of radius `r` centred at `centre` lies wholly inside the polygon
/// (exact). An axis-aligned rectangle (a table's usual outline) is answered from its sides:
/// for a centre inside it, the nearest edge's closest point is the foot of the perpendicular,
/// so the base is inside exactly when each side is at least `r` from the centre
/// (`wholly_within_agrees_on_rectangles` checks it against the general test).
pub(crate) fn polygon_holds_figure(vertices: &[Point], centre: P, r: i128) -> bool {
    if let Some((low, high)) = axis_rectangle(vertices) {
        return centre.x - r >= low.x
            && centre.x + r <= high.x
            && centre.y - r >= low.y
            && centre.y + r <= high.y;
    }
    polygon_holds_figure_exactly(vertices, centre, r)
}

/// The general test: the centre inside, and every edge at least `r` from it.
fn polygon_holds_figure_exactly(vertices: &[Point], centre: P, r: i128) -> bool {
    polygon_contains(vertices, centre)
        && polygon_edges(vertices)
            .all(|(a, b)| segment_distance_cmp(centre, a, b, r) != Ordering::Less)
}

/// The lowest and highest corners of a polygon that is a rectangle with sides along the axes
/// (four vertices, each side horizontal or vertical in turn, none of zero length).
pub(crate) fn axis_rectangle(vertices: &[Point]) -> Option<(P, P)> {
    let [a, b, c, d] = vertices else {
        return None;
    };
    let turns_x_first = a.x == b.x && b.y == c.y && c.x == d.x && d.y == a.y;
    let turns_y_first = a.y == b.y && b.x == c.x && c.y == d.y && d.x == a.x;
    if !(turns_x_first || turns_y_first) {
        return None;
    }
    let low = P::of(Point::new(a.x.min(c.x), a.y.min(c.y)));
    let high = P::of(Point::new(a.x.max(c.x), a.y.max(c.y)));
    (low.x < high.x && low.y < high.y).then_some((low, high))
}

/// Whether some part of the figure's base lies within `distance` of the area: the distance
/// from the centre to the area is at most r + distance (exact). False for a negative distance.
///
/// # Examples
///
/// ```
/// use gloam_core::{within_area, Area, Figure, Length, Point};
/// let objective = Area::Circle { centre: Point::ORIGIN, radius: Length::ZERO };
/// let model = Figure::new(Point::at(Length::inches(4), Length::ZERO), Length::inches(1));
/// assert!(within_area(&model, &objective, Length::inches(3)));
/// ```
pub fn within_area(figure: &Figure, area: &Area, distance: Length) -> bool {
    if distance.0 < 0 {
        return false;
    }
    let centre = P::of(figure.centre);
    let reach = radius(figure) + i128::from(distance.0);
    match area {
        Area::Circle {
            centre: area_centre,
            radius: area_radius,
        } => centre.sub(P::of(*area_centre)).norm2() <= square(reach + length_nonneg(*area_radius)),
        Area::Polygon(vertices) => {
            polygon_contains(vertices, centre)
                || polygon_edges(vertices)
                    .any(|(a, b)| segment_distance_cmp(centre, a, b, reach) != Ordering::Greater)
        }
    }
}

/// Whether every point of the figure's base lies within `distance` of `point`: centre
/// distance + r <= distance (exact).
///
/// # Examples
///
/// ```
/// use gloam_core::{wholly_within_distance, Figure, Length, Point};
/// let model = Figure::new(Point::at(Length::cm(4), Length::ZERO), Length::cm(1));
/// assert!(wholly_within_distance(&model, Point::ORIGIN, Length::cm(5)));
/// assert!(!wholly_within_distance(&model, Point::ORIGIN, Length::mm(49)));
/// ```
pub fn wholly_within_distance(figure: &Figure, point: Point, distance: Length) -> bool {
    wholly_within(
        figure,
        &Area::Circle {
            centre: point,
            radius: distance,
        },
    )
}

/// An exact arc half-angle, measured from the facing vector to either side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum HalfAngle {
    /// 30° either side (a 60° arc).
    Deg30,
    /// 45° either side (a 90° arc).
    Deg45,
    /// 60° either side (a 120° arc).
    Deg60,
    /// 90° either side (a 180° arc: the whole front half).
    Deg90,
    /// 120° either side (a 240° arc).
    Deg120,
    /// 135° either side (a 270° arc).
    Deg135,
    /// 150° either side (a 300° arc).
    Deg150,
    /// 180° either side: every direction.
    Deg180,
}

impl HalfAngle {
    /// Whether the angle between `axis` and `direction` is at most this half-angle (boundary
    /// inclusive). A zero `axis` or zero `direction` is inside every arc.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::HalfAngle;
    /// assert!(HalfAngle::Deg45.includes((1, 0), (1, 1)));
    /// assert!(!HalfAngle::Deg45.includes((1, 0), (1, 2)));
    /// assert!(HalfAngle::Deg90.includes((1, 0), (0, 1)));
    /// ```
    pub fn includes(self, axis: (i64, i64), direction: (i64, i64)) -> bool {
        let f = P::facing(axis);
        let v = P::facing(direction);
        arc_contains(self, f, v)
    }
}

/// Whether angle(f, v) <= half-angle. Bounds: |f|, |v| components <= 2 × 10^9, so |f|²|v|²
/// <= 6.4 × 10^37 and 4·dot² <= 2.56 × 10^38 fit in `u128`.
fn arc_contains(half: HalfAngle, f: P, v: P) -> bool {
    if f.is_zero() || v.is_zero() {
        return true;
    }
    let dot = f.dot(v);
    let dot2 = dot.unsigned_abs() * dot.unsigned_abs();
    let norms = f.norm2().unsigned_abs() * v.norm2().unsigned_abs();
    // cos(angle) = dot / (|f||v|); compare with cos(θ) = sqrt(k/m) or -sqrt(k/m).
    let narrow = |k: u128, m: u128| dot >= 0 && m * dot2 >= k * norms;
    let wide = |k: u128, m: u128| dot >= 0 || m * dot2 <= k * norms;
    match half {
        HalfAngle::Deg30 => narrow(3, 4),
        HalfAngle::Deg45 => narrow(1, 2),
        HalfAngle::Deg60 => narrow(1, 4),
        HalfAngle::Deg90 => dot >= 0,
        HalfAngle::Deg120 => wide(1, 4),
        HalfAngle::Deg135 => wide(1, 2),
        HalfAngle::Deg150 => wide(3, 4),
        HalfAngle::Deg180 => true,
    }
}

/// Which arc of an observer a target lies in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ArcSide {
    /// Within the front half-angle of the facing.
    Front,
    /// Neither front nor rear.
    Side,
    /// Within the rear half-angle of the reversed facing.
    Rear,
}

/// A figure's arcs, as ruleset data: the front arc around the facing and the rear arc around
/// its reverse. Umbra Turris' angles were lost from its rulebook; each ruleset chooses. Where
/// the two arcs overlap, front wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ArcSpec {
    /// Half-angle of the front arc.
    pub front: HalfAngle,
    /// Half-angle of the rear arc.
    pub rear: HalfAngle,
}

/// The arc of `observer` in which `target` lies, exactly (boundary directions belong to the
/// front arc first, then the rear arc). A figure without facing, or a target at the centre,
/// gives [`ArcSide::Front`].
///
/// # Examples
///
/// ```
/// use gloam_core::{arc_of, ArcSide, ArcSpec, Figure, HalfAngle, Length, Point};
/// let arcs = ArcSpec { front: HalfAngle::Deg45, rear: HalfAngle::Deg45 };
/// let guard = Figure::new(Point::ORIGIN, Length::mm(12)).with_facing((0, 1));
/// assert_eq!(arc_of(&guard, Point::new(5, 5), &arcs), ArcSide::Front);
/// assert_eq!(arc_of(&guard, Point::new(5, 0), &arcs), ArcSide::Side);
/// assert_eq!(arc_of(&guard, Point::new(-5, -5), &arcs), ArcSide::Rear);
/// ```
pub fn arc_of(observer: &Figure, target: Point, arcs: &ArcSpec) -> ArcSide {
    let f = P::facing(observer.facing);
    let v = P::of(target).sub(P::of(observer.centre));
    if arc_contains(arcs.front, f, v) {
        ArcSide::Front
    } else if arc_contains(arcs.rear, P { x: -f.x, y: -f.y }, v) {
        ArcSide::Rear
    } else {
        ArcSide::Side
    }
}

/// A terrain piece: a polygonal footprint, a height and the ruleset's tags (`obscuring`, …).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Terrain {
    /// The footprint, a simple polygon.
    pub footprint: Vec<Point>,
    /// Height of the whole piece (2.5D: one height per footprint).
    pub height: Length,
    /// Free-form tags the ruleset interprets.
    pub tags: Vec<String>,
}

impl Terrain {
    /// Whether the piece carries `tag`.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }
}

/// Whether `a` sees `b`: no terrain in `terrain` blocks the centre-to-centre segment.
///
/// 2.5D simplification: a piece blocks when the segment meets its footprint (touching an edge
/// or a corner counts) and the piece is taller than the **target** `b` (so the relation is
/// not symmetric when heights differ). The observer's height, the exact line of a model's
/// silhouette, and figures themselves are not considered; a figure standing in a tall
/// footprint neither sees nor is seen across it, so callers pass only the pieces that should
/// block (e.g. leave out the one the observer stands in, or keep only `obscuring` ones).
///
/// # Examples
///
/// ```
/// use gloam_core::{line_of_sight, Figure, Length, Point, Terrain};
/// let wall = Terrain {
///     footprint: vec![Point::new(40, -10), Point::new(60, -10), Point::new(60, 10), Point::new(40, 10)],
///     height: Length::cm(5),
///     tags: vec!["obscuring".into()],
/// };
/// let a = Figure::new(Point::ORIGIN, Length::mm(1));
/// let b = Figure::new(Point::new(100, 0), Length::mm(1)).with_height(Length::cm(3));
/// assert!(!line_of_sight(&a, &b, &[wall.clone()]));
/// assert!(line_of_sight(&a, &b.with_height(Length::cm(6)), &[wall]));
/// ```
pub fn line_of_sight(a: &Figure, b: &Figure, terrain: &[Terrain]) -> bool {
    blocking_terrain(a, b, terrain).is_empty()
}

/// Indices (into `terrain`, ascending) of the pieces that block `a`'s line of sight to `b`,
/// by the rule of [`line_of_sight`].
///
/// # Examples
///
/// ```
/// use gloam_core::{blocking_terrain, Figure, Length, Point, Terrain};
/// let rock = |x| Terrain {
///     footprint: vec![Point::new(x, -5), Point::new(x + 5, 0), Point::new(x, 5)],
///     height: Length::cm(1),
///     tags: vec![],
/// };
/// let a = Figure::new(Point::ORIGIN, Length::mm(1));
/// let b = Figure::new(Point::new(100, 0), Length::mm(1));
/// assert_eq!(blocking_terrain(&a, &b, &[rock(20), rock(200), rock(50)]), vec![0, 2]);
/// ```
pub fn blocking_terrain(a: &Figure, b: &Figure, terrain: &[Terrain]) -> Vec<usize> {
    let from = P::of(a.centre);
    let to = P::of(b.centre);
    terrain
        .iter()
        .enumerate()
        .filter(|(_, piece)| piece.height > b.height)
        .filter(|(_, piece)| segment_meets_polygon(from, to, &piece.footprint))
        .map(|(index, _)| index)
        .collect()
}

/// Length of a path through `points`: the sum of its segments, each rounded **up** to a tenth
/// of a millimetre, so a move is never under-counted (the total exceeds the exact length by
/// less than one tenth per segment). Saturates at `i64::MAX`.
///
/// # Examples
///
/// ```
/// use gloam_core::{path_length, Length, Point};
/// let path = [Point::new(0, 0), Point::new(30, 40), Point::new(31, 41)];
/// assert_eq!(path_length(&path), Length::tenth_mm(52)); // 50 + ceil(1.414…)
/// ```
pub fn path_length(points: &[Point]) -> Length {
    let total: i128 = points
        .windows(2)
        .map(|pair| {
            let squared = P::of(pair[1]).sub(P::of(pair[0])).norm2();
            let floor = i128::from(isqrt_floor(squared));
            if floor * floor == squared {
                floor
            } else {
                floor + 1
            }
        })
        .sum();
    Length(i64::try_from(total).unwrap_or(i64::MAX))
}

/// Whether a base of `radius` sliding from `from` to `to` never overlaps any of `obstacles`
/// (touching is allowed): for each obstacle, the distance from its centre to the segment is
/// at least the sum of radii, compared exactly as rationals in `i128`. Do not pass the moving
/// figure itself among the obstacles.
///
/// # Examples
///
/// ```
/// use gloam_core::{segment_clear, Figure, Length, Point};
/// let rock = Figure::new(Point::new(50, 20), Length::tenth_mm(10));
/// assert!(segment_clear(Point::new(0, 0), Point::new(100, 0), Length::tenth_mm(10), &[rock]));
/// assert!(!segment_clear(Point::new(0, 0), Point::new(100, 0), Length::tenth_mm(11), &[rock]));
/// ```
pub fn segment_clear(from: Point, to: Point, radius: Length, obstacles: &[Figure]) -> bool {
    let (a, b) = (P::of(from), P::of(to));
    let mover = length_nonneg(radius);
    obstacles.iter().all(|obstacle| {
        let reach = mover + length_nonneg(obstacle.radius);
        segment_distance_cmp(P::of(obstacle.centre), a, b, reach) != Ordering::Less
    })
}

// ----- exact integer helpers -----

/// An in-bound point or vector, widened to `i128`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct P {
    pub(crate) x: i128,
    pub(crate) y: i128,
}

impl P {
    pub(crate) fn of(point: Point) -> P {
        let clamp = |c: i64| i128::from(c.clamp(-COORD_LIMIT, COORD_LIMIT));
        P {
            x: clamp(point.x),
            y: clamp(point.y),
        }
    }

    fn facing(vector: (i64, i64)) -> P {
        let clamp = |c: i64| i128::from(c.clamp(-FACING_LIMIT, FACING_LIMIT));
        P {
            x: clamp(vector.0),
            y: clamp(vector.1),
        }
    }

    pub(crate) fn sub(self, other: P) -> P {
        P {
            x: self.x - other.x,
            y: self.y - other.y,
        }
    }

    pub(crate) fn dot(self, other: P) -> i128 {
        self.x * other.x + self.y * other.y
    }

    pub(crate) fn cross(self, other: P) -> i128 {
        self.x * other.y - self.y * other.x
    }

    pub(crate) fn norm2(self) -> i128 {
        self.dot(self)
    }

    fn is_zero(self) -> bool {
        self.x == 0 && self.y == 0
    }
}

/// A length as a non-negative `i128` (negative counts as 0).
pub(crate) fn length_nonneg(length: Length) -> i128 {
    i128::from(length.0.max(0))
}

pub(crate) fn radius(figure: &Figure) -> i128 {
    length_nonneg(figure.radius)
}

/// Square of a non-negative threshold, capped at [`SPAN`] (beyond any in-bound distance), so
/// that products with squared lengths (<= 8 × 10^18) stay below 7.2 × 10^37.
pub(crate) fn square(threshold: i128) -> i128 {
    let capped = threshold.clamp(0, SPAN);
    capped * capped
}

pub(crate) fn centre_distance2(a: &Figure, b: &Figure) -> i128 {
    P::of(a.centre).sub(P::of(b.centre)).norm2()
}

/// Floor square root of a non-negative in-bound squared distance (<= 8 × 10^18).
pub(crate) fn isqrt_floor(squared: i128) -> i64 {
    let root = squared.max(0).unsigned_abs().isqrt();
    i64::try_from(root).unwrap_or(i64::MAX)
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Sign of the turn a → b → c: positive counter-clockwise, 0 collinear.
fn orient(a: P, b: P, c: P) -> i128 {
    b.sub(a).cross(c.sub(a)).signum()
}

/// Whether `p`, known to be collinear with a and b, lies on the closed segment ab.
fn in_box(a: P, b: P, p: P) -> bool {
    a.x.min(b.x) <= p.x && p.x <= a.x.max(b.x) && a.y.min(b.y) <= p.y && p.y <= a.y.max(b.y)
}

/// Whether closed segments p1q1 and p2q2 share a point (degenerate segments allowed).
pub(crate) fn segments_meet(p1: P, q1: P, p2: P, q2: P) -> bool {
    let o1 = orient(p1, q1, p2);
    let o2 = orient(p1, q1, q2);
    let o3 = orient(p2, q2, p1);
    let o4 = orient(p2, q2, q1);
    (o1 * o2 < 0 && o3 * o4 < 0)
        || (o1 == 0 && in_box(p1, q1, p2))
        || (o2 == 0 && in_box(p1, q1, q2))
        || (o3 == 0 && in_box(p2, q2, p1))
        || (o4 == 0 && in_box(p2, q2, q1))
}

pub(crate) fn polygon_edges(vertices: &[Point]) -> impl Iterator<Item = (P, P)> + '_ {
    let count = vertices.len();
    (0..count).map(move |i| (P::of(vertices[i]), P::of(vertices[(i + 1) % count])))
}

/// Point in polygon, boundary inclusive, by winding number (Sunday) with exact orientation.
/// With fewer than three vertices only the boundary counts.
pub(crate) fn polygon_contains(vertices: &[Point], p: P) -> bool {
    let mut winding: i64 = 0;
    for (a, b) in polygon_edges(vertices) {
        // An edge wholly above or below the point can neither hold it nor be crossed by its
        // ray: skipped before the cross product (the result is the same).
        if (p.y < a.y && p.y < b.y) || (p.y > a.y && p.y > b.y) {
            continue;
        }
        let side = orient(a, b, p);
        if side == 0 && in_box(a, b, p) {
            return true;
        }
        if a.y <= p.y {
            if b.y > p.y && side > 0 {
                winding += 1;
            }
        } else if b.y <= p.y && side < 0 {
            winding -= 1;
        }
    }
    winding != 0
}

/// Whether closed segment ab meets the polygon (its boundary or its interior).
fn segment_meets_polygon(a: P, b: P, vertices: &[Point]) -> bool {
    polygon_edges(vertices).any(|(c, d)| segments_meet(a, b, c, d)) || polygon_contains(vertices, a)
}

/// Compares the distance from `p` to closed segment ab with `threshold` (>= 0), exactly.
///
/// With w = p - a, d = b - a: before a (w·d <= 0) or past b (w·d >= |d|²) the nearest point
/// is an end; otherwise distance² = cross(d, w)² / |d|², compared as cross² vs t²·|d|²
/// (each <= 7.2 × 10^37 within bounds).
pub(crate) fn segment_distance_cmp(p: P, a: P, b: P, threshold: i128) -> Ordering {
    let t2 = square(threshold);
    let d = b.sub(a);
    let w = p.sub(a);
    let along = w.dot(d);
    let length2 = d.norm2();
    if along <= 0 {
        return w.norm2().cmp(&t2);
    }
    if along >= length2 {
        return p.sub(b).norm2().cmp(&t2);
    }
    let cross = d.cross(w);
    (cross * cross).cmp(&(t2 * length2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i128, y: i128) -> P {
        P { x, y }
    }

    #[test]
    fn segments_meet_degenerate_and_collinear_cases() {
        assert!(segments_meet(p(0, 0), p(0, 0), p(-1, -1), p(1, 1)));
        assert!(!segments_meet(p(0, 1), p(0, 1), p(-1, -1), p(1, 1)));
        assert!(segments_meet(p(0, 0), p(2, 0), p(2, 0), p(3, 0)));
        assert!(!segments_meet(p(0, 0), p(2, 0), p(3, 0), p(4, 0)));
        assert!(segments_meet(p(0, 0), p(2, 2), p(0, 2), p(2, 0)));
        assert!(!segments_meet(p(0, 0), p(1, 1), p(0, 2), p(2, 2)));
    }

    #[test]
    fn polygon_contains_short_polygons_only_boundary() {
        let segment = [Point::new(0, 0), Point::new(10, 0)];
        assert!(polygon_contains(&segment, p(5, 0)));
        assert!(!polygon_contains(&segment, p(5, 1)));
        assert!(polygon_contains(&segment[..1], p(0, 0)));
        assert!(!polygon_contains(&[], p(0, 0)));
        // Clockwise orientation works as well as counter-clockwise.
        let clockwise = [
            Point::new(0, 0),
            Point::new(0, 10),
            Point::new(10, 10),
            Point::new(10, 0),
        ];
        assert!(polygon_contains(&clockwise, p(5, 5)));
        assert!(!polygon_contains(&clockwise, p(15, 5)));
    }

    proptest::proptest! {
        #[test]
        fn wholly_within_agrees_on_rectangles(
            x0 in -2000i64..2000, y0 in -2000i64..2000, w in 1i64..3000, h in 1i64..3000,
            cx in -5000i64..5000, cy in -5000i64..5000, r in 0i64..800, y_first: bool,
        ) {
            let (x1, y1) = (x0 + w, y0 + h);
            let vertices = if y_first {
                vec![Point::new(x0, y0), Point::new(x1, y0), Point::new(x1, y1), Point::new(x0, y1)]
            } else {
                vec![Point::new(x0, y0), Point::new(x0, y1), Point::new(x1, y1), Point::new(x1, y0)]
            };
            let centre = p(i128::from(cx), i128::from(cy));
            proptest::prop_assert!(axis_rectangle(&vertices).is_some());
            proptest::prop_assert_eq!(
                polygon_holds_figure(&vertices, centre, i128::from(r)),
                polygon_holds_figure_exactly(&vertices, centre, i128::from(r))
            );
        }
    }

    /// `polygon_contains` as it was before edges above or below the point were skipped.
    fn polygon_contains_reference(vertices: &[Point], p: P) -> bool {
        let mut winding: i64 = 0;
        for (a, b) in polygon_edges(vertices) {
            let side = orient(a, b, p);
            if side == 0 && in_box(a, b, p) {
                return true;
            }
            if a.y <= p.y {
                if b.y > p.y && side > 0 {
                    winding += 1;
                }
            } else if b.y <= p.y && side < 0 {
                winding -= 1;
            }
        }
        winding != 0
    }

    proptest::proptest! {
        #[test]
        fn skipping_edges_above_or_below_never_changes_containment(
            corners in proptest::collection::vec((-50i64..50, -50i64..50), 3..8),
            px in -60i64..60, py in -60i64..60,
        ) {
            let vertices: Vec<Point> = corners.iter().map(|&(x, y)| Point::new(x, y)).collect();
            let point = p(i128::from(px), i128::from(py));
            proptest::prop_assert_eq!(
                polygon_contains(&vertices, point),
                polygon_contains_reference(&vertices, point)
            );
        }
    }

    #[test]
    fn a_polygon_that_is_no_axis_rectangle_takes_the_general_test() {
        let diamond = [
            Point::new(0, -10),
            Point::new(10, 0),
            Point::new(0, 10),
            Point::new(-10, 0),
        ];
        assert!(axis_rectangle(&diamond).is_none());
        let flat = [
            Point::new(0, 0),
            Point::new(0, 0),
            Point::new(5, 0),
            Point::new(5, 0),
        ];
        assert!(axis_rectangle(&flat).is_none());
        assert!(axis_rectangle(&diamond[..3]).is_none());
    }

    #[test]
    fn segment_distance_cmp_regions_exact() {
        let (a, b) = (p(0, 0), p(10, 0));
        assert_eq!(segment_distance_cmp(p(5, 3), a, b, 3), Ordering::Equal);
        assert_eq!(segment_distance_cmp(p(-3, 4), a, b, 5), Ordering::Equal);
        assert_eq!(segment_distance_cmp(p(13, 4), a, b, 4), Ordering::Greater);
        assert_eq!(segment_distance_cmp(p(1, 1), a, a, 1), Ordering::Greater);
        // Threshold beyond any in-bound distance is capped, never overflows.
        let far = p(i128::from(COORD_LIMIT), i128::from(COORD_LIMIT));
        assert_eq!(segment_distance_cmp(far, a, b, i128::MAX), Ordering::Less);
    }

    #[test]
    fn arc_contains_zero_vectors_inside() {
        assert!(arc_contains(HalfAngle::Deg30, p(0, 0), p(-1, 0)));
        assert!(arc_contains(HalfAngle::Deg30, p(1, 0), p(0, 0)));
        let big = i128::from(FACING_LIMIT);
        assert!(!arc_contains(
            HalfAngle::Deg150,
            p(big, big),
            p(-big, -big + 1)
        ));
        assert!(arc_contains(
            HalfAngle::Deg30,
            p(big, -big),
            p(big, -big + 1)
        ));
    }
}
