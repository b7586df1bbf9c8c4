//! Dice defined by data: named dice with weighted faces, pools, re-rolls, dice
//! expressions (`2D6+1`), opposed rolls, roll-offs and exact odds.
//!
//! The kernel knows no game's dice. A ruleset describes its dice as data: the Underworlds
//! attack die is a [`DieDef`] named `attack` with the faces `critical` ×1, `hammer` ×2,
//! `swords` ×1, `single_support` ×1 and `double_support` ×1; a plain d6 is
//! [`DieDef::numeric(6)`](DieDef::numeric). Measured games use [`DiceExpr`] (`D3`, `2D6+1`).
//!
//! # How dice consume the RNG (pinned: replays depend on it)
//!
//! * One die of a [`DieDef`] draws `rng.below(total_count)` once, where `total_count` is
//!   the sum of the face counts; the drawn number walks the faces **in declaration order**,
//!   each face covering `count` consecutive numbers. With the faces `critical` ×1,
//!   `hammer` ×2, `swords` ×1, a draw of 0 is `critical`, 1 and 2 are `hammer`, 3 is
//!   `swords`.
//! * A [`Pool`] rolls its dice in pool order; re-rolls of several dice go in ascending
//!   index order.
//! * A [`DiceExpr`] rolls its dice in order, each `dN` with `rng.below(N)`, except `D3`,
//!   which is a d6 (`rng.below(6)`) halved rounding up, as in Games Workshop games.
//!   Constants draw nothing.
//! * An opposed roll rolls the attacker's expression, then the defender's, each round.
//! * A roll-off rolls each player's pool in the order the players are given; later rounds
//!   roll only the players still tied for the lead.
//!
//! # Exact odds
//!
//! Odds are exact fractions ([`Ratio`], reduced, 128-bit). Computations that would leave
//! 128 bits return [`DiceError::Overflow`] instead of rounding.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::ids::PlayerId;
use crate::rng::GameRng;

/// Everything that can go wrong when defining, rolling or measuring dice.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DiceError {
    /// A die was defined with an empty name.
    #[error("a die needs a name")]
    EmptyDieName,
    /// A die was defined without faces.
    #[error("die `{die}` has no faces; give it at least one face with a count of 1 or more")]
    NoFaces {
        /// The die.
        die: String,
    },
    /// A face was defined with an empty name.
    #[error("die `{die}` has a face without a name")]
    EmptyFaceName {
        /// The die.
        die: String,
    },
    /// A face appears on the die zero times.
    #[error(
        "face `{face}` of die `{die}` has a count of 0; remove it or give it a count of 1 or more"
    )]
    ZeroCount {
        /// The die.
        die: String,
        /// The face.
        face: String,
    },
    /// Two faces of a die share a name.
    #[error(
        "die `{die}` declares face `{face}` twice; merge them into one face with the summed count"
    )]
    DuplicateFace {
        /// The die.
        die: String,
        /// The face.
        face: String,
    },
    /// The face counts of a die add up to more than `u32::MAX`.
    #[error("the face counts of die `{die}` add up to more than {max}")]
    TooManyFaces {
        /// The die.
        die: String,
        /// The largest total allowed.
        max: u32,
    },
    /// A numbered die or a dice expression asked for an unsupported number of sides.
    #[error("a numbered die needs 1 to {max} sides, got {sides}")]
    BadSides {
        /// The sides asked for.
        sides: u64,
        /// The most sides allowed.
        max: u32,
    },
    /// A dice set already holds a die of that name.
    #[error("die `{die}` is defined twice in the dice set")]
    DuplicateDie {
        /// The die.
        die: String,
    },
    /// A pool or rule names a die the dice set does not hold.
    #[error("unknown die `{die}`; known dice: {known}")]
    UnknownDie {
        /// The die asked for.
        die: String,
        /// The dice the set holds, comma-separated.
        known: String,
    },
    /// A face name matches no face of the dice concerned.
    #[error("face `{face}` is not on {dice}")]
    UnknownFace {
        /// The face asked for.
        face: String,
        /// The dice searched, e.g. "die `attack`".
        dice: String,
    },
    /// A pool holds more dice than the kernel rolls at once.
    #[error("a pool of {dice} dice is larger than the limit of {max}")]
    PoolTooLarge {
        /// The number of dice asked for.
        dice: u64,
        /// The largest pool allowed.
        max: u32,
    },
    /// A die index is past the end of a roll.
    #[error("die index {index} is out of range for a roll of {len} dice")]
    IndexOutOfRange {
        /// The index asked for.
        index: usize,
        /// The number of dice in the roll.
        len: usize,
    },
    /// A die that was already re-rolled was asked to re-roll again.
    #[error("die {index} was already re-rolled; a die cannot be re-rolled twice")]
    AlreadyRerolled {
        /// The die's index in the roll.
        index: usize,
    },
    /// A dice expression could not be read.
    #[error("invalid dice expression `{input}` at byte {offset}: {problem}; {help}")]
    Parse {
        /// The text given.
        input: String,
        /// Byte offset of the problem in `input`.
        offset: usize,
        /// What is wrong.
        problem: String,
        /// How to fix it.
        help: String,
    },
    /// A dice expression's part is outside the supported range.
    #[error("the {what} of a dice expression must be between {min} and {max}, got {value}")]
    ExprOutOfRange {
        /// Which part: "dice count", "modifier".
        what: &'static str,
        /// The value given.
        value: i128,
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
    },
    /// An exact computation does not fit in 128 bits.
    #[error("exact odds overflow 128 bits while computing {what}; use fewer dice")]
    Overflow {
        /// What was being computed.
        what: &'static str,
    },
    /// A subtraction of odds would go below zero.
    #[error("{what} would be negative")]
    Negative {
        /// What was being computed.
        what: &'static str,
    },
    /// A chance given for a die is above 1.
    #[error("{num}/{den} is not a probability: it is above 1")]
    NotAProbability {
        /// The numerator.
        num: u128,
        /// The denominator.
        den: u128,
    },
    /// A face value is outside the supported range.
    #[error("face `{face}` of die `{die}` has value {value}, outside ±{max}")]
    FaceValueOutOfRange {
        /// The die.
        die: String,
        /// The face.
        face: String,
        /// The value given.
        value: i64,
        /// The largest magnitude allowed.
        max: i64,
    },
    /// A chance outcome does not show as many dice of a kind as the pool rolls.
    #[error("the outcome shows {shown} `{die}` dice but the pool rolls {rolled}")]
    OutcomeMismatch {
        /// The die kind.
        die: String,
        /// How many the pool rolls.
        rolled: u64,
        /// How many the outcome shows.
        shown: u64,
    },
    /// A ratio was given a denominator of zero.
    #[error("a ratio cannot have a denominator of 0")]
    ZeroDenominator,
    /// A roll-off was asked for fewer than two players.
    #[error("a roll-off needs at least two players, got {count}")]
    TooFewPlayers {
        /// The number of players given.
        count: usize,
    },
    /// A player was listed twice in a roll-off.
    #[error("{player} is listed twice in the roll-off")]
    DuplicatePlayer {
        /// The player.
        player: PlayerId,
    },
    /// A roll-off was given an empty pool.
    #[error("a roll-off needs at least one die per player")]
    EmptyRollOffPool,
    /// A tie rule or roll-off allows more re-roll rounds than the kernel runs.
    #[error("{requested} re-roll rounds is more than the limit of {max}")]
    TooManyRerolls {
        /// The rounds asked for.
        requested: u32,
        /// The most rounds allowed.
        max: u32,
    },
    /// A face appears in two tiers of a ranking.
    #[error("face `{face}` appears in two tiers of the roll-off ranking")]
    FaceRankedTwice {
        /// The face.
        face: String,
    },
    /// A roll-off by total uses a face that has no numeric value.
    #[error("face `{face}` of die `{die}` has no value, so it cannot be totalled")]
    FaceWithoutValue {
        /// The die.
        die: String,
        /// The face.
        face: String,
    },
}

// ---------------------------------------------------------------------------------------
// Ratio
// ---------------------------------------------------------------------------------------

/// An exact non-negative fraction, always stored reduced with a positive denominator.
///
/// Used for odds. Equality is value equality because the fraction is reduced.
///
/// # Examples
///
/// ```
/// use gloam_core::Ratio;
/// let half = Ratio::new(3, 6)?;
/// assert_eq!((half.num(), half.den()), (1, 2));
/// assert_eq!(half.checked_mul(half)?.to_string(), "1/4");
/// # Ok::<(), gloam_core::DiceError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RatioData", into = "RatioData")]
pub struct Ratio {
    num: u128,
    den: u128,
}

#[derive(Serialize, Deserialize)]
struct RatioData {
    num: u128,
    den: u128,
}

impl TryFrom<RatioData> for Ratio {
    type Error = DiceError;
    fn try_from(data: RatioData) -> Result<Ratio, DiceError> {
        Ratio::new(data.num, data.den)
    }
}

impl From<Ratio> for RatioData {
    fn from(ratio: Ratio) -> RatioData {
        RatioData {
            num: ratio.num,
            den: ratio.den,
        }
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn overflow(what: &'static str) -> DiceError {
    DiceError::Overflow { what }
}

impl Ratio {
    /// Zero: 0/1.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    /// One: 1/1.
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    /// The fraction `num / den`, reduced; an error when `den` is 0.
    pub fn new(num: u128, den: u128) -> Result<Ratio, DiceError> {
        if den == 0 {
            return Err(DiceError::ZeroDenominator);
        }
        let g = gcd(num, den);
        Ok(Ratio {
            num: num / g,
            den: den / g,
        })
    }

    /// The numerator (of the reduced fraction).
    pub fn num(self) -> u128 {
        self.num
    }

    /// The denominator (of the reduced fraction), never 0.
    pub fn den(self) -> u128 {
        self.den
    }

    /// `self + other`, or an overflow error.
    pub fn checked_add(self, other: Ratio) -> Result<Ratio, DiceError> {
        let what = "a sum of odds";
        let g = gcd(self.den, other.den);
        let lcm = (self.den / g)
            .checked_mul(other.den)
            .ok_or(overflow(what))?;
        let a = self.num.checked_mul(lcm / self.den).ok_or(overflow(what))?;
        let b = other
            .num
            .checked_mul(lcm / other.den)
            .ok_or(overflow(what))?;
        Ratio::new(a.checked_add(b).ok_or(overflow(what))?, lcm)
    }

    /// `self - other`; an error when it would be negative or overflow.
    pub fn checked_sub(self, other: Ratio) -> Result<Ratio, DiceError> {
        let what = "a difference of odds";
        let g = gcd(self.den, other.den);
        let lcm = (self.den / g)
            .checked_mul(other.den)
            .ok_or(overflow(what))?;
        let a = self.num.checked_mul(lcm / self.den).ok_or(overflow(what))?;
        let b = other
            .num
            .checked_mul(lcm / other.den)
            .ok_or(overflow(what))?;
        Ratio::new(a.checked_sub(b).ok_or(DiceError::Negative { what })?, lcm)
    }

    /// `self × other`, reducing crosswise first, or an overflow error.
    pub fn checked_mul(self, other: Ratio) -> Result<Ratio, DiceError> {
        let what = "a product of odds";
        let g1 = gcd(self.num, other.den);
        let g2 = gcd(other.num, self.den);
        let num = (self.num / g1)
            .checked_mul(other.num / g2)
            .ok_or(overflow(what))?;
        let den = (self.den / g2)
            .checked_mul(other.den / g1)
            .ok_or(overflow(what))?;
        Ratio::new(num, den)
    }

    /// `1 - self` for a probability; an error when `self > 1`.
    pub fn complement(self) -> Result<Ratio, DiceError> {
        if self.num > self.den {
            return Err(DiceError::NotAProbability {
                num: self.num,
                den: self.den,
            });
        }
        Ratio::new(self.den - self.num, self.den)
    }

    /// An approximate floating-point value, **for display only**: rules and odds
    /// comparisons must use the exact fraction.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl Ord for Ratio {
    /// Compares exactly without multiplying (continued-fraction steps), so it never
    /// overflows.
    fn cmp(&self, other: &Ratio) -> Ordering {
        let (mut a, mut b, mut c, mut d) = (self.num, self.den, other.num, other.den);
        let mut flipped = false;
        loop {
            let (qa, qc) = (a / b, c / d);
            if qa != qc {
                let order = qa.cmp(&qc);
                return if flipped { order.reverse() } else { order };
            }
            let (ra, rc) = (a % b, c % d);
            match (ra == 0, rc == 0) {
                (true, true) => return Ordering::Equal,
                (true, false) => {
                    let order = Ordering::Less;
                    return if flipped { order.reverse() } else { order };
                }
                (false, true) => {
                    let order = Ordering::Greater;
                    return if flipped { order.reverse() } else { order };
                }
                // ra/b vs rc/d  <=>  d/rc vs b/ra, reversed
                (false, false) => {
                    (a, b, c, d) = (b, ra, d, rc);
                    flipped = !flipped;
                }
            }
        }
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// The chance of `successes` or more in a success distribution (index = number of
/// successes), i.e. the sum of the entries from index `successes` on.
///
/// # Examples
///
/// ```
/// use gloam_core::{chance_at_least, Ratio};
/// let two_coins = [Ratio::new(1, 4)?, Ratio::new(1, 2)?, Ratio::new(1, 4)?];
/// assert_eq!(chance_at_least(&two_coins, 1)?, Ratio::new(3, 4)?);
/// # Ok::<(), gloam_core::DiceError>(())
/// ```
pub fn chance_at_least(distribution: &[Ratio], successes: usize) -> Result<Ratio, DiceError> {
    distribution
        .iter()
        .skip(successes)
        .try_fold(Ratio::ZERO, |sum, &p| sum.checked_add(p))
}

/// The exact distribution of the number of successes of independent dice, given each
/// die's chance of success (index = number of successes, length = dice + 1).
///
/// # Examples
///
/// ```
/// use gloam_core::{success_distribution_of, Ratio};
/// let half = Ratio::new(1, 2)?;
/// let dist = success_distribution_of(&[half, half])?;
/// assert_eq!(dist, vec![Ratio::new(1, 4)?, Ratio::new(1, 2)?, Ratio::new(1, 4)?]);
/// # Ok::<(), gloam_core::DiceError>(())
/// ```
pub fn success_distribution_of(chances: &[Ratio]) -> Result<Vec<Ratio>, DiceError> {
    let what = "a success distribution";
    // Integer counts over the common denominator `total` (the product of the
    // denominators): every coefficient is at most the running product, so checking the
    // product is enough, but the arithmetic stays checked anyway.
    let mut total: u128 = 1;
    let mut counts: Vec<u128> = vec![1];
    for &chance in chances {
        if chance.num > chance.den {
            return Err(DiceError::NotAProbability {
                num: chance.num,
                den: chance.den,
            });
        }
        let (hit, miss) = (chance.num, chance.den - chance.num);
        total = total.checked_mul(chance.den).ok_or(overflow(what))?;
        let mut next = vec![0u128; counts.len() + 1];
        for (k, &c) in counts.iter().enumerate() {
            next[k] = next[k]
                .checked_add(c.checked_mul(miss).ok_or(overflow(what))?)
                .ok_or(overflow(what))?;
            next[k + 1] = next[k + 1]
                .checked_add(c.checked_mul(hit).ok_or(overflow(what))?)
                .ok_or(overflow(what))?;
        }
        counts = next;
    }
    counts.into_iter().map(|c| Ratio::new(c, total)).collect()
}

// ---------------------------------------------------------------------------------------
// Die definitions
// ---------------------------------------------------------------------------------------

fn one() -> u32 {
    1
}

/// One face of a die: a name, how many sides show it, and an optional numeric value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieFace {
    /// The face's name, e.g. `hammer` or `6`.
    pub name: String,
    /// How many sides of the die show this face (1 or more); 1 when omitted in data.
    #[serde(default = "one")]
    pub count: u32,
    /// The face's numeric value, if it has one (numbered dice: the pips).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
}

impl DieFace {
    /// A face without a numeric value.
    pub fn new(name: impl Into<String>, count: u32) -> DieFace {
        DieFace {
            name: name.into(),
            count,
            value: None,
        }
    }

    /// The same face carrying a numeric value.
    pub fn with_value(self, value: i64) -> DieFace {
        DieFace {
            value: Some(value),
            ..self
        }
    }
}

/// A kind of die: a name and its faces, in declaration order.
///
/// Rolling draws `rng.below(total_count)` once and walks the faces **in declaration
/// order**, each face covering `count` consecutive numbers (pinned: replays depend on
/// it). With `critical` ×1, `hammer` ×2, `swords` ×1, a draw of 0 is `critical`, 1 and
/// 2 are `hammer`, 3 is `swords`.
///
/// Validated on construction and on deserialisation: a name, at least one face, no face
/// with count 0, no duplicate face names, counts summing to at most `u32::MAX`, values
/// within ±[`DieDef::MAX_FACE_VALUE`].
///
/// # Examples
///
/// ```
/// use gloam_core::{DieDef, DieFace, GameRng, Ratio};
/// let magic = DieDef::new("magic", vec![
///     DieFace::new("critical", 1),
///     DieFace::new("focus", 2),
///     DieFace::new("channel", 3),
/// ])?;
/// assert_eq!(magic.probability_of(&["critical", "focus"])?, Ratio::new(1, 2)?);
/// let face = magic.roll(&mut GameRng::from_seed(1));
/// assert!(["critical", "focus", "channel"].contains(&face.name.as_str()));
/// # Ok::<(), gloam_core::DiceError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "DieDefData", into = "DieDefData")]
pub struct DieDef {
    name: String,
    faces: Vec<DieFace>,
    total: u32,
}

#[derive(Serialize, Deserialize)]
struct DieDefData {
    name: String,
    faces: Vec<DieFace>,
}

impl TryFrom<DieDefData> for DieDef {
    type Error = DiceError;
    fn try_from(data: DieDefData) -> Result<DieDef, DiceError> {
        DieDef::new(data.name, data.faces)
    }
}

impl From<DieDef> for DieDefData {
    fn from(def: DieDef) -> DieDefData {
        DieDefData {
            name: def.name,
            faces: def.faces,
        }
    }
}

impl DieDef {
    /// The most sides [`DieDef::numeric`] and [`DiceExpr`] accept.
    pub const MAX_SIDES: u32 = 1000;
    /// The largest face value magnitude, so that sums of a whole pool fit in `i64`.
    pub const MAX_FACE_VALUE: i64 = 1_000_000_000;

    /// A die from its name and faces, validated.
    pub fn new(name: impl Into<String>, faces: Vec<DieFace>) -> Result<DieDef, DiceError> {
        let name = name.into();
        if name.is_empty() {
            return Err(DiceError::EmptyDieName);
        }
        if faces.is_empty() {
            return Err(DiceError::NoFaces { die: name });
        }
        let mut seen = BTreeSet::new();
        let mut total: u32 = 0;
        for face in &faces {
            if face.name.is_empty() {
                return Err(DiceError::EmptyFaceName { die: name });
            }
            if let Some(value) = face
                .value
                .filter(|v| v.unsigned_abs() > DieDef::MAX_FACE_VALUE as u64)
            {
                return Err(DiceError::FaceValueOutOfRange {
                    die: name,
                    face: face.name.clone(),
                    value,
                    max: DieDef::MAX_FACE_VALUE,
                });
            }
            if face.count == 0 {
                return Err(DiceError::ZeroCount {
                    die: name,
                    face: face.name.clone(),
                });
            }
            if !seen.insert(face.name.as_str()) {
                return Err(DiceError::DuplicateFace {
                    die: name,
                    face: face.name.clone(),
                });
            }
            total = total
                .checked_add(face.count)
                .ok_or_else(|| DiceError::TooManyFaces {
                    die: name.clone(),
                    max: u32::MAX,
                })?;
        }
        Ok(DieDef { name, faces, total })
    }

    /// A numbered die `dN` named `d{sides}`: faces `"1"` to `"{sides}"`, one each, each
    /// valued at its pips. `sides` must be 1 to [`DieDef::MAX_SIDES`].
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::DieDef;
    /// let d6 = DieDef::numeric(6)?;
    /// assert_eq!(d6.name(), "d6");
    /// assert_eq!(d6.face("6").and_then(|f| f.value), Some(6));
    /// # Ok::<(), gloam_core::DiceError>(())
    /// ```
    pub fn numeric(sides: u32) -> Result<DieDef, DiceError> {
        if sides == 0 || sides > DieDef::MAX_SIDES {
            return Err(DiceError::BadSides {
                sides: u64::from(sides),
                max: DieDef::MAX_SIDES,
            });
        }
        let faces = (1..=sides)
            .map(|pips| DieFace::new(pips.to_string(), 1).with_value(i64::from(pips)))
            .collect();
        DieDef::new(format!("d{sides}"), faces)
    }

    /// The die's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The faces, in declaration order.
    pub fn faces(&self) -> &[DieFace] {
        &self.faces
    }

    /// The number of sides: the sum of the face counts.
    pub fn total_count(&self) -> u32 {
        self.total
    }

    /// The face of that name, if the die has it.
    pub fn face(&self, name: &str) -> Option<&DieFace> {
        self.faces.iter().find(|f| f.name == name)
    }

    /// Rolls the die once: `rng.below(total_count)` walks the faces in declaration order.
    pub fn roll(&self, rng: &mut GameRng) -> &DieFace {
        self.face_at(rng.below(self.total))
    }

    /// The face covering draw number `draw` (`0..total_count`), walking faces in
    /// declaration order; the last face for draws past the end.
    fn face_at(&self, mut draw: u32) -> &DieFace {
        for face in &self.faces {
            if draw < face.count {
                return face;
            }
            draw -= face.count;
        }
        // Unreachable for draws below `total`; the constructor guarantees a face exists.
        &self.faces[self.faces.len() - 1]
    }

    /// How many sides show one of `faces` (each name counted once).
    fn count_of(&self, faces: &[&str]) -> u32 {
        self.faces
            .iter()
            .filter(|f| faces.contains(&f.name.as_str()))
            .map(|f| f.count)
            .sum()
    }

    /// The exact chance that one roll shows one of `faces`; an error names a face the
    /// die does not have (a typo would otherwise read as "never").
    pub fn probability_of(&self, faces: &[&str]) -> Result<Ratio, DiceError> {
        if let Some(missing) = faces.iter().find(|name| self.face(name).is_none()) {
            return Err(DiceError::UnknownFace {
                face: (*missing).to_string(),
                dice: format!("die `{}`", self.name),
            });
        }
        Ratio::new(u128::from(self.count_of(faces)), u128::from(self.total))
    }
}

// ---------------------------------------------------------------------------------------
// Dice sets and pools
// ---------------------------------------------------------------------------------------

/// The dice of a ruleset, by name. Serialised as a list of [`DieDef`]s.
///
/// # Examples
///
/// ```
/// use gloam_core::{Dice, DieDef, GameRng, Pool};
/// let mut dice = Dice::new();
/// dice.insert(DieDef::numeric(6)?)?;
/// let roll = dice.roll(&Pool::of("d6", 3), &mut GameRng::from_seed(7))?;
/// assert_eq!(roll.len(), 3);
/// # Ok::<(), gloam_core::DiceError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<DieDef>", into = "Vec<DieDef>")]
pub struct Dice {
    dice: BTreeMap<String, DieDef>,
}

impl TryFrom<Vec<DieDef>> for Dice {
    type Error = DiceError;
    fn try_from(defs: Vec<DieDef>) -> Result<Dice, DiceError> {
        Dice::from_defs(defs)
    }
}

impl From<Dice> for Vec<DieDef> {
    fn from(dice: Dice) -> Vec<DieDef> {
        dice.dice.into_values().collect()
    }
}

impl Dice {
    /// An empty dice set.
    pub fn new() -> Dice {
        Dice::default()
    }

    /// A dice set from definitions; an error when two share a name.
    pub fn from_defs(defs: impl IntoIterator<Item = DieDef>) -> Result<Dice, DiceError> {
        let mut dice = Dice::new();
        for def in defs {
            dice.insert(def)?;
        }
        Ok(dice)
    }

    /// Adds a die; an error (and no change) when the name is taken.
    pub fn insert(&mut self, def: DieDef) -> Result<(), DiceError> {
        if self.dice.contains_key(&def.name) {
            return Err(DiceError::DuplicateDie { die: def.name });
        }
        self.dice.insert(def.name.clone(), def);
        Ok(())
    }

    /// The die of that name.
    pub fn get(&self, name: &str) -> Option<&DieDef> {
        self.dice.get(name)
    }

    /// The dice, by name order.
    pub fn iter(&self) -> impl Iterator<Item = &DieDef> {
        self.dice.values()
    }

    /// The number of dice kinds.
    pub fn len(&self) -> usize {
        self.dice.len()
    }

    /// Whether the set holds no die.
    pub fn is_empty(&self) -> bool {
        self.dice.is_empty()
    }

    fn lookup(&self, name: &str) -> Result<&DieDef, DiceError> {
        self.dice.get(name).ok_or_else(|| DiceError::UnknownDie {
            die: name.to_string(),
            known: self.dice.keys().cloned().collect::<Vec<_>>().join(", "),
        })
    }

    /// The pool's dice one by one, checked: every die known, size within the limit.
    fn expand(&self, pool: &Pool) -> Result<Vec<&DieDef>, DiceError> {
        let size = pool.len();
        if size > u64::from(Pool::MAX_DICE) {
            return Err(DiceError::PoolTooLarge {
                dice: size,
                max: Pool::MAX_DICE,
            });
        }
        let mut out = Vec::new();
        for entry in &pool.entries {
            let def = self.lookup(&entry.die)?;
            out.extend(std::iter::repeat_n(def, entry.count as usize));
        }
        Ok(out)
    }

    /// Checks that each of `faces` is on at least one die kind of the pool.
    fn check_faces(&self, pool: &Pool, faces: &[&str]) -> Result<(), DiceError> {
        let mut kinds = Vec::new();
        for entry in &pool.entries {
            kinds.push(self.lookup(&entry.die)?);
        }
        for face in faces {
            if !kinds.iter().any(|def| def.face(face).is_some()) {
                return Err(DiceError::UnknownFace {
                    face: (*face).to_string(),
                    dice: format!("any die of the pool `{pool}`"),
                });
            }
        }
        Ok(())
    }

    /// Rolls a pool, die by die in pool order. Checks the whole pool first, so an error
    /// leaves the RNG untouched.
    pub fn roll(&self, pool: &Pool, rng: &mut GameRng) -> Result<Roll, DiceError> {
        self.roll_loaded(pool, rng, &mut Vec::new())
    }

    /// Rolls a pool like [`roll`](Self::roll), except that a die whose kind has a pair in
    /// `loaded` (`(die, face)`, first match in order) shows that face, draws nothing from
    /// the RNG, and uses the pair up. A loaded face the die does not have is an error, and
    /// then nothing is used up.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Dice, DieDef, DieFace, GameRng, Pool};
    /// let die = DieDef::new("attack", vec![DieFace::new("critical", 1), DieFace::new("hammer", 5)])?;
    /// let dice = Dice::from_defs([die])?;
    /// let mut loaded = vec![("attack".to_string(), "critical".to_string())];
    /// let roll = dice.roll_loaded(&Pool::of("attack", 2), &mut GameRng::from_seed(1), &mut loaded)?;
    /// assert_eq!(roll.dice()[0].face, "critical");
    /// assert!(loaded.is_empty());
    /// # Ok::<(), gloam_core::DiceError>(())
    /// ```
    pub fn roll_loaded(
        &self,
        pool: &Pool,
        rng: &mut GameRng,
        loaded: &mut Vec<(String, String)>,
    ) -> Result<Roll, DiceError> {
        let defs = self.expand(pool)?;
        let plan = plan_loaded(&defs, loaded)?;
        let mut kinds = BTreeMap::new();
        let dice = defs
            .iter()
            .enumerate()
            .map(|(index, def)| {
                kinds
                    .entry(def.name.clone())
                    .or_insert_with(|| (*def).clone());
                let face = match plan[index].and_then(|i| def.face(&loaded[i].1)) {
                    Some(face) => face,
                    None => def.roll(rng),
                };
                RolledDie {
                    index,
                    die: def.name.clone(),
                    face: face.name.clone(),
                    value: face.value,
                    rerolled: false,
                }
            })
            .collect();
        use_up(loaded, &plan);
        Ok(Roll {
            dice,
            kinds,
            history: Vec::new(),
        })
    }

    /// The exact distribution of the number of dice of `pool` showing one of
    /// `success_faces` (index = number of successes). A face name counts on every die
    /// that has it and must be on at least one die of the pool.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{chance_at_least, Dice, DieDef, DieFace, Pool, Ratio};
    /// let attack = DieDef::new("attack", vec![
    ///     DieFace::new("critical", 1), DieFace::new("hammer", 2), DieFace::new("swords", 1),
    ///     DieFace::new("single_support", 1), DieFace::new("double_support", 1),
    /// ])?;
    /// let dice = Dice::from_defs([attack])?;
    /// let dist = dice.success_distribution(&Pool::of("attack", 2), &["critical", "hammer"])?;
    /// assert_eq!(chance_at_least(&dist, 1)?, Ratio::new(3, 4)?);
    /// # Ok::<(), gloam_core::DiceError>(())
    /// ```
    pub fn success_distribution(
        &self,
        pool: &Pool,
        success_faces: &[&str],
    ) -> Result<Vec<Ratio>, DiceError> {
        self.check_faces(pool, success_faces)?;
        let chances = self
            .expand(pool)?
            .iter()
            .map(|def| {
                Ratio::new(
                    u128::from(def.count_of(success_faces)),
                    u128::from(def.total),
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        success_distribution_of(&chances)
    }
}

/// How many dice of one kind show one face: a line of a [`ChanceOutcome`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FaceCount {
    /// The die kind.
    pub die: String,
    /// The face.
    pub face: String,
    /// How many dice of that kind show it (1 or more).
    pub count: u32,
}

/// One outcome of rolling a pool, pooled by face: dice of one kind are interchangeable, so
/// an outcome says how many of them show each face, not which die shows which. Lines come
/// in pool order of the kinds, then in each die's face declaration order, without zero
/// counts, so equal outcomes compare equal.
///
/// Applied to a roll ([`Dice::roll_outcome`]), the faces go to the pool's dice of each
/// kind in that order: with `critical` ×1 then `hammer` ×2 for three attack dice, dice 0
/// shows `critical`, dice 1 and 2 `hammer`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ChanceOutcome {
    /// The lines, in canonical order.
    pub faces: Vec<FaceCount>,
}

impl ChanceOutcome {
    /// How many dice show `face` (of any kind).
    pub fn count(&self, face: &str) -> u32 {
        self.faces
            .iter()
            .filter(|line| line.face == face)
            .map(|line| line.count)
            .sum()
    }
}

impl fmt::Display for ChanceOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.faces.is_empty() {
            return write!(f, "no dice");
        }
        for (i, line) in self.faces.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{} {}", line.count, line.face)?;
        }
        Ok(())
    }
}

impl Dice {
    /// The kinds of a pool with their total counts, in pool order (a kind listed twice in
    /// the pool is counted once, where it first appears).
    fn kind_counts<'a>(&'a self, pool: &Pool) -> Result<Vec<(&'a DieDef, u32)>, DiceError> {
        self.expand(pool)?;
        let mut kinds: Vec<(&DieDef, u32)> = Vec::new();
        for entry in &pool.entries {
            let def = self.lookup(&entry.die)?;
            match kinds.iter_mut().find(|(d, _)| d.name == def.name) {
                Some((_, count)) => *count += entry.count,
                None => kinds.push((def, entry.count)),
            }
        }
        kinds.retain(|(_, count)| *count > 0);
        Ok(kinds)
    }

    /// Every outcome of rolling `pool`, pooled by face ([`ChanceOutcome`]), with its exact
    /// chance; the chances add up to 1. Outcomes are listed in a fixed order: for each kind
    /// in pool order, most of the first declared face first. Five six-sided dice of one kind
    /// give at most 252 outcomes instead of 7,776 sequences.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Dice, DieDef, DieFace, Pool, Ratio};
    /// let coin = DieDef::new("coin", vec![DieFace::new("heads", 1), DieFace::new("tails", 1)])?;
    /// let dice = Dice::from_defs([coin])?;
    /// let outcomes = dice.outcomes(&Pool::of("coin", 2))?;
    /// let shown: Vec<(String, Ratio)> = outcomes.iter().map(|(o, p)| (o.to_string(), *p)).collect();
    /// assert_eq!(shown, [
    ///     ("2 heads".to_string(), Ratio::new(1, 4)?),
    ///     ("1 heads, 1 tails".to_string(), Ratio::new(1, 2)?),
    ///     ("2 tails".to_string(), Ratio::new(1, 4)?),
    /// ]);
    /// # Ok::<(), gloam_core::DiceError>(())
    /// ```
    pub fn outcomes(&self, pool: &Pool) -> Result<Vec<(ChanceOutcome, Ratio)>, DiceError> {
        let what = "the outcomes of a roll";
        let mut all = vec![(ChanceOutcome::default(), Ratio::ONE)];
        for (def, n) in self.kind_counts(pool)? {
            let mut per_kind = Vec::new();
            let mut counts = vec![0u32; def.faces.len()];
            compositions(n, 0, &mut counts, &mut |counts| {
                per_kind.push(counts.to_vec());
            });
            let mut next = Vec::with_capacity(all.len() * per_kind.len());
            for (outcome, chance) in &all {
                for counts in &per_kind {
                    // n! / (k1! k2! ...) * prod(c_i^k_i) / total^n, all exact.
                    let mut num: u128 = multinomial(counts).ok_or(overflow(what))?;
                    let mut den: u128 = 1;
                    let mut faces = outcome.faces.clone();
                    for (face, &k) in def.faces.iter().zip(counts) {
                        for _ in 0..k {
                            num = num
                                .checked_mul(u128::from(face.count))
                                .ok_or(overflow(what))?;
                            den = den
                                .checked_mul(u128::from(def.total))
                                .ok_or(overflow(what))?;
                        }
                        if k > 0 {
                            faces.push(FaceCount {
                                die: def.name.clone(),
                                face: face.name.clone(),
                                count: k,
                            });
                        }
                    }
                    let p = chance.checked_mul(Ratio::new(num, den)?)?;
                    next.push((ChanceOutcome { faces }, p));
                }
            }
            all = next;
        }
        Ok(all)
    }

    /// Rolls `pool` showing exactly `outcome`: no draw from any RNG. An error when the
    /// outcome does not fit the pool (a kind it lacks, a face the die lacks, or counts that
    /// do not add up to the pool's dice of each kind).
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Dice, DieDef, DieFace, Pool};
    /// let coin = DieDef::new("coin", vec![DieFace::new("heads", 1), DieFace::new("tails", 1)])?;
    /// let dice = Dice::from_defs([coin])?;
    /// let pool = Pool::of("coin", 3);
    /// let (outcome, _) = dice.outcomes(&pool)?[1].clone();
    /// let roll = dice.roll_outcome(&pool, &outcome)?;
    /// let faces: Vec<&str> = roll.dice().iter().map(|d| d.face.as_str()).collect();
    /// assert_eq!(faces, ["heads", "heads", "tails"]);
    /// # Ok::<(), gloam_core::DiceError>(())
    /// ```
    pub fn roll_outcome(&self, pool: &Pool, outcome: &ChanceOutcome) -> Result<Roll, DiceError> {
        let kinds = self.kind_counts(pool)?;
        for line in &outcome.faces {
            let Some((def, _)) = kinds.iter().find(|(d, _)| d.name == line.die) else {
                return Err(DiceError::UnknownDie {
                    die: line.die.clone(),
                    known: kinds
                        .iter()
                        .map(|(d, _)| d.name.clone())
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            };
            if def.face(&line.face).is_none() {
                return Err(DiceError::UnknownFace {
                    face: line.face.clone(),
                    dice: format!("die `{}`", def.name),
                });
            }
        }
        for (def, n) in &kinds {
            let shown: u64 = outcome
                .faces
                .iter()
                .filter(|line| line.die == def.name)
                .map(|line| u64::from(line.count))
                .sum();
            if shown != u64::from(*n) {
                return Err(DiceError::OutcomeMismatch {
                    die: def.name.clone(),
                    rolled: u64::from(*n),
                    shown,
                });
            }
        }
        let mut loaded: Vec<(String, String)> = Vec::new();
        for line in &outcome.faces {
            for _ in 0..line.count {
                loaded.push((line.die.clone(), line.face.clone()));
            }
        }
        // Every die is loaded, so this RNG is never drawn from.
        self.roll_loaded(pool, &mut GameRng::from_seed(0), &mut loaded)
    }
}

/// Calls `each` with every way of putting `n` dice on the faces from `from` on (counts by
/// face), the earlier faces taking the most first.
fn compositions(n: u32, from: usize, counts: &mut [u32], each: &mut impl FnMut(&[u32])) {
    if from + 1 >= counts.len() {
        if let Some(last) = counts.last_mut() {
            *last = n;
        }
        each(counts);
        return;
    }
    for k in (0..=n).rev() {
        counts[from] = k;
        compositions(n - k, from + 1, counts, each);
    }
    counts[from] = 0;
}

/// `n! / (k1! k2! ...)` where `n` is the sum of the `k`, or `None` on overflow.
fn multinomial(counts: &[u32]) -> Option<u128> {
    // A product of binomials: C(k1, k1) C(k1 + k2, k2) ...
    let mut result: u128 = 1;
    let mut placed: u128 = 0;
    for &k in counts {
        for i in 1..=u128::from(k) {
            placed += 1;
            result = result.checked_mul(placed)? / i;
        }
    }
    Some(result)
}

/// One line of a pool: a die kind and how many of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolEntry {
    /// The die's name in the [`Dice`] set.
    pub die: String,
    /// How many of that die.
    pub count: u32,
}

/// The most dice one roll may have, and the limit that sets it ([`Pool::most_dice_held`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceRoom {
    /// The most dice.
    pub dice: u32,
    /// Which limit binds, in players' words ("a roll has at most 1000 dice").
    pub why: String,
}

/// Dice to roll together: die names with counts, possibly of mixed kinds, in order.
///
/// # Examples
///
/// ```
/// use gloam_core::Pool;
/// let pool = Pool::of("attack", 2).with("defence", 2);
/// assert_eq!(pool.len(), 4);
/// assert_eq!(pool.to_string(), "2 attack + 2 defence");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Pool {
    entries: Vec<PoolEntry>,
}

impl Pool {
    /// The most dice rolled or measured at once.
    pub const MAX_DICE: u32 = 1000;

    /// The most dice of kind `die` one roll may have when the faces rolled are held as a
    /// list of names (a script's roll): at most `list_items` items and `list_chars`
    /// characters in all, 0 meaning no such limit, where each face of the die is named by at
    /// most `longest_face` characters. Never more than [`Pool::MAX_DICE`]. The runtime refuses
    /// a larger roll and the loader refuses data that asks for one, both with this reason.
    ///
    /// ```
    /// use gloam_core::Pool;
    /// assert_eq!(Pool::most_dice_held("attack", 14, 1_024, 4_096).dice, 292);
    /// assert_eq!(Pool::most_dice_held("attack", 1, 0, 0).dice, Pool::MAX_DICE);
    /// ```
    pub fn most_dice_held(
        die: &str,
        longest_face: usize,
        list_items: usize,
        list_chars: usize,
    ) -> DiceRoom {
        let mut room = DiceRoom {
            dice: Pool::MAX_DICE,
            why: format!("a roll has at most {} dice", Pool::MAX_DICE),
        };
        if list_items > 0 && list_items < room.dice as usize {
            room = DiceRoom {
                dice: list_items as u32,
                why: format!(
                    "a script's roll gives at most {list_items} dice, the most a list may hold"
                ),
            };
        }
        if longest_face > 0 && list_chars > 0 && list_chars / longest_face < room.dice as usize {
            let dice = (list_chars / longest_face) as u32;
            room = DiceRoom {
                dice,
                why: format!(
                    "a script's roll gives at most {dice} `{die}` dice (the faces rolled are a \
                     list of names, which may hold {list_chars} characters in all)"
                ),
            };
        }
        room
    }

    /// An empty pool.
    pub fn new() -> Pool {
        Pool::default()
    }

    /// A pool of `count` dice of one kind.
    pub fn of(die: impl Into<String>, count: u32) -> Pool {
        Pool::new().with(die, count)
    }

    /// This pool plus `count` dice of `die`, after the dice already in it.
    pub fn with(mut self, die: impl Into<String>, count: u32) -> Pool {
        self.entries.push(PoolEntry {
            die: die.into(),
            count,
        });
        self
    }

    /// The lines of the pool, in order.
    pub fn entries(&self) -> &[PoolEntry] {
        &self.entries
    }

    /// The total number of dice.
    pub fn len(&self) -> u64 {
        self.entries.iter().map(|e| u64::from(e.count)).sum()
    }

    /// Whether the pool holds no die.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.entries.is_empty() {
            return write!(f, "no dice");
        }
        for (i, entry) in self.entries.iter().enumerate() {
            if i > 0 {
                write!(f, " + ")?;
            }
            write!(f, "{} {}", entry.count, entry.die)?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Rolls and re-rolls
// ---------------------------------------------------------------------------------------

/// One die of a [`Roll`], as it shows now (raw: no modifier applied).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RolledDie {
    /// Position of the die in the roll, from 0.
    pub index: usize,
    /// The die kind's name.
    pub die: String,
    /// The face showing.
    pub face: String,
    /// The face's numeric value, if it has one.
    pub value: Option<i64>,
    /// Whether the die has been re-rolled (then it cannot be re-rolled again).
    pub rerolled: bool,
}

/// The record of one die re-roll, for the event log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RerollRecord {
    /// Position of the die in the roll.
    pub index: usize,
    /// The face before the re-roll.
    pub from_face: String,
    /// The value before the re-roll.
    pub from_value: Option<i64>,
    /// The face after the re-roll (it stands, even if worse).
    pub to_face: String,
    /// The value after the re-roll.
    pub to_value: Option<i64>,
}

/// The result of rolling a [`Pool`]: every die's face, the die kinds used (so it can
/// re-roll on its own), and the history of re-rolls in the order they happened.
///
/// A re-rolled die keeps its new face even if worse and can never be re-rolled again.
///
/// # Examples
///
/// ```
/// use gloam_core::{Dice, DieDef, GameRng, Pool};
/// let dice = Dice::from_defs([DieDef::numeric(6)?])?;
/// let mut rng = GameRng::from_seed(3);
/// let mut roll = dice.roll(&Pool::of("d6", 4), &mut rng)?;
/// let ones = roll.reroll_faces(&["1"], &mut rng);
/// assert!(ones.iter().all(|&i| roll.dice()[i].rerolled));
/// assert_eq!(roll.history().len(), ones.len());
/// # Ok::<(), gloam_core::DiceError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    dice: Vec<RolledDie>,
    kinds: BTreeMap<String, DieDef>,
    history: Vec<RerollRecord>,
}

impl Roll {
    /// The dice, in roll order.
    pub fn dice(&self) -> &[RolledDie] {
        &self.dice
    }

    /// The number of dice.
    pub fn len(&self) -> usize {
        self.dice.len()
    }

    /// Whether the roll has no dice.
    pub fn is_empty(&self) -> bool {
        self.dice.is_empty()
    }

    /// The definition of a die kind in this roll.
    pub fn kind(&self, die: &str) -> Option<&DieDef> {
        self.kinds.get(die)
    }

    /// The re-rolls so far, oldest first.
    pub fn history(&self) -> &[RerollRecord] {
        &self.history
    }

    /// How many dice show one of `faces`.
    pub fn count(&self, faces: &[&str]) -> usize {
        self.dice
            .iter()
            .filter(|d| faces.contains(&d.face.as_str()))
            .count()
    }

    /// The sum of the dice's values; `None` when some die shows a face without a value.
    pub fn sum(&self) -> Option<i64> {
        self.dice.iter().map(|d| d.value).sum()
    }

    /// The highest value showing among dice with values.
    pub fn highest(&self) -> Option<i64> {
        self.dice.iter().filter_map(|d| d.value).max()
    }

    /// The lowest value showing among dice with values.
    pub fn lowest(&self) -> Option<i64> {
        self.dice.iter().filter_map(|d| d.value).min()
    }

    /// How many dice have a value of at least `target` (an "X+" test per die).
    pub fn count_at_least(&self, target: i64) -> usize {
        self.dice
            .iter()
            .filter(|d| d.value.is_some_and(|v| v >= target))
            .count()
    }

    /// Whether two dice of the same kind show the same face (a "double").
    pub fn has_double(&self) -> bool {
        let mut seen = BTreeSet::new();
        self.dice
            .iter()
            .any(|d| !seen.insert((d.die.as_str(), d.face.as_str())))
    }

    /// Re-rolls die `index` and marks it re-rolled; the new face stands. An error, with
    /// the roll and RNG unchanged, when the index is out of range or the die was
    /// already re-rolled.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Dice, DiceError, DieDef, GameRng, Pool};
    /// let dice = Dice::from_defs([DieDef::numeric(6)?])?;
    /// let mut rng = GameRng::from_seed(5);
    /// let mut roll = dice.roll(&Pool::of("d6", 2), &mut rng)?;
    /// roll.reroll(0, &mut rng)?;
    /// assert_eq!(roll.reroll(0, &mut rng), Err(DiceError::AlreadyRerolled { index: 0 }));
    /// # Ok::<(), gloam_core::DiceError>(())
    /// ```
    pub fn reroll(&mut self, index: usize, rng: &mut GameRng) -> Result<&RolledDie, DiceError> {
        self.reroll_loaded(index, rng, &mut Vec::new())
    }

    /// Re-rolls one die like [`reroll`](Self::reroll), taking its face from `loaded` when
    /// a pair there names its kind (see [`Dice::roll_loaded`]).
    pub fn reroll_loaded(
        &mut self,
        index: usize,
        rng: &mut GameRng,
        loaded: &mut Vec<(String, String)>,
    ) -> Result<&RolledDie, DiceError> {
        let len = self.dice.len();
        let current = self
            .dice
            .get(index)
            .ok_or(DiceError::IndexOutOfRange { index, len })?;
        if current.rerolled {
            return Err(DiceError::AlreadyRerolled { index });
        }
        let def = self
            .kinds
            .get(&current.die)
            .ok_or_else(|| DiceError::UnknownDie {
                die: current.die.clone(),
                known: self.kinds.keys().cloned().collect::<Vec<_>>().join(", "),
            })?;
        let plan = plan_loaded(&[def], loaded)?;
        let face = match plan[0].and_then(|i| def.face(&loaded[i].1)) {
            Some(face) => face,
            None => def.roll(rng),
        };
        let face = face.clone();
        use_up(loaded, &plan);
        let die = &mut self.dice[index];
        self.history.push(RerollRecord {
            index,
            from_face: std::mem::replace(&mut die.face, face.name.clone()),
            from_value: std::mem::replace(&mut die.value, face.value),
            to_face: face.name.clone(),
            to_value: face.value,
        });
        die.rerolled = true;
        Ok(die)
    }

    /// Re-rolls every die matching `predicate` that was not re-rolled yet, in ascending
    /// index order, and returns their indices. Dice already re-rolled are skipped.
    pub fn reroll_where(
        &mut self,
        predicate: impl Fn(&RolledDie) -> bool,
        rng: &mut GameRng,
    ) -> Vec<usize> {
        let chosen: Vec<usize> = self
            .dice
            .iter()
            .enumerate()
            .filter(|(_, d)| !d.rerolled && predicate(d))
            .map(|(position, _)| position)
            .collect();
        chosen
            .into_iter()
            .filter(|&i| self.reroll(i, rng).is_ok())
            .collect()
    }

    /// A whole-roll ("test") re-roll: re-rolls every die not yet re-rolled.
    pub fn reroll_all(&mut self, rng: &mut GameRng) -> Vec<usize> {
        self.reroll_where(|_| true, rng)
    }

    /// Re-rolls the dice showing one of `faces` (e.g. re-roll 1s), not yet re-rolled.
    pub fn reroll_faces(&mut self, faces: &[&str], rng: &mut GameRng) -> Vec<usize> {
        self.reroll_where(|d| faces.contains(&d.face.as_str()), rng)
    }
}

// ---------------------------------------------------------------------------------------
// Dice expressions
// ---------------------------------------------------------------------------------------

/// A dice expression of measured games: `count` dice of `sides` sides plus `modifier`,
/// written `2D6+1`, `D3`, `D6-1` or `3` (case-insensitive; spaces between parts allowed).
///
/// `D3` is a d6 halved rounding up (1-2 → 1, 3-4 → 2, 5-6 → 3), as in Games Workshop
/// games: it rolls `rng.below(6)` and keeps the d6 face as the die's raw face. A
/// constant has `count` 0 and `sides` 0. Serialised as its text (`"2D6+1"`).
///
/// # Examples
///
/// ```
/// use gloam_core::{DiceExpr, GameRng, Ratio};
/// let charge: DiceExpr = "2d6".parse()?;
/// assert_eq!((charge.count(), charge.sides(), charge.modifier()), (2, 6, 0));
/// assert_eq!(charge.distribution()?[&7], Ratio::new(1, 6)?);
/// let roll = charge.roll(&mut GameRng::from_seed(1));
/// assert!((2..=12).contains(&roll.total()));
/// # Ok::<(), gloam_core::DiceError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DiceExpr {
    count: u32,
    sides: u32,
    modifier: i64,
}

impl DiceExpr {
    /// The most dice in one expression.
    pub const MAX_COUNT: u32 = 100;
    /// The largest modifier magnitude.
    pub const MAX_MODIFIER: i64 = 1_000_000;

    /// `count` dice of `sides` sides plus `modifier`. With `count` 0 the expression is
    /// the constant `modifier` (and `sides` is ignored). Limits: `count` ≤
    /// [`DiceExpr::MAX_COUNT`], `sides` 1 to [`DieDef::MAX_SIDES`], |`modifier`| ≤
    /// [`DiceExpr::MAX_MODIFIER`].
    pub fn new(count: u32, sides: u32, modifier: i64) -> Result<DiceExpr, DiceError> {
        if count > DiceExpr::MAX_COUNT {
            return Err(DiceError::ExprOutOfRange {
                what: "dice count",
                value: i128::from(count),
                min: 0,
                max: i64::from(DiceExpr::MAX_COUNT),
            });
        }
        if count > 0 && (sides == 0 || sides > DieDef::MAX_SIDES) {
            return Err(DiceError::BadSides {
                sides: u64::from(sides),
                max: DieDef::MAX_SIDES,
            });
        }
        check_modifier(i128::from(modifier))?;
        let sides = if count == 0 { 0 } else { sides };
        Ok(DiceExpr {
            count,
            sides,
            modifier,
        })
    }

    /// The constant expression `value`.
    pub fn constant(value: i64) -> Result<DiceExpr, DiceError> {
        DiceExpr::new(0, 0, value)
    }

    /// Reads an expression such as `2D6+1`; errors say what is wrong, at which byte,
    /// and how to fix it.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{DiceError, DiceExpr};
    /// assert_eq!(DiceExpr::parse("d3+2")?, DiceExpr::new(1, 3, 2)?);
    /// let err = DiceExpr::parse("2D").unwrap_err();
    /// assert!(matches!(err, DiceError::Parse { offset: 2, .. }));
    /// # Ok::<(), gloam_core::DiceError>(())
    /// ```
    pub fn parse(input: &str) -> Result<DiceExpr, DiceError> {
        ExprParser { input, pos: 0 }.expression()
    }

    /// The number of dice.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The sides of each die (3 for `D3`; 0 for a constant).
    pub fn sides(&self) -> u32 {
        self.sides
    }

    /// The modifier added to the dice.
    pub fn modifier(&self) -> i64 {
        self.modifier
    }

    /// The same expression with `bonus` added to the modifier, e.g. `d6` plus a
    /// characteristic for an opposed test.
    pub fn plus(self, bonus: i64) -> Result<DiceExpr, DiceError> {
        let modifier = i128::from(self.modifier) + i128::from(bonus);
        check_modifier(modifier)?;
        DiceExpr::new(self.count, self.sides, self.modifier + bonus)
    }

    /// Whether every roll gives the same total (no dice, or only one-sided dice).
    pub fn is_fixed(&self) -> bool {
        self.count == 0 || self.sides == 1
    }

    /// Rolls the expression: each die in order draws `rng.below(sides)`, except `D3`,
    /// which draws `rng.below(6)` and halves rounding up. A constant draws nothing.
    pub fn roll(&self, rng: &mut GameRng) -> ExprRoll {
        let dice: Vec<ExprDie> = (0..self.count)
            .map(|_| {
                if self.sides == 3 {
                    let face = rng.below(6) + 1;
                    ExprDie {
                        face,
                        value: i64::from(face.div_ceil(2)),
                    }
                } else {
                    let face = rng.below(self.sides) + 1;
                    ExprDie {
                        face,
                        value: i64::from(face),
                    }
                }
            })
            .collect();
        let unmodified: i64 = dice.iter().map(|d| d.value).sum();
        ExprRoll {
            expr: *self,
            total: unmodified + self.modifier,
            dice,
        }
    }

    /// The exact distribution of totals (modifier included). `D3` is uniform over 1-3,
    /// exactly as a halved d6.
    pub fn distribution(&self) -> Result<BTreeMap<i64, Ratio>, DiceError> {
        let what = "a dice expression's distribution";
        let sides = self.sides as usize;
        let outcomes = u128::from(self.sides)
            .checked_pow(self.count)
            .ok_or(overflow(what))?;
        // counts[j] = number of outcomes whose dice sum to `count + j`.
        let mut counts: Vec<u128> = vec![1];
        for _ in 0..self.count {
            let mut next = vec![0u128; counts.len() + sides - 1];
            for (j, &c) in counts.iter().enumerate() {
                for slot in &mut next[j..j + sides] {
                    *slot = slot.checked_add(c).ok_or(overflow(what))?;
                }
            }
            counts = next;
        }
        let base = i64::from(self.count) + self.modifier;
        counts
            .into_iter()
            .enumerate()
            .map(|(j, c)| Ok((base + j as i64, Ratio::new(c, outcomes)?)))
            .collect()
    }

    /// The exact chance that the total is at least `target`.
    pub fn chance_at_least(&self, target: i64) -> Result<Ratio, DiceError> {
        self.distribution()?
            .range(target..)
            .try_fold(Ratio::ZERO, |sum, (_, &p)| sum.checked_add(p))
    }
}

fn check_modifier(modifier: i128) -> Result<(), DiceError> {
    if modifier.abs() > i128::from(DiceExpr::MAX_MODIFIER) {
        return Err(DiceError::ExprOutOfRange {
            what: "modifier",
            value: modifier,
            min: -DiceExpr::MAX_MODIFIER,
            max: DiceExpr::MAX_MODIFIER,
        });
    }
    Ok(())
}

impl fmt::Display for DiceExpr {
    /// The canonical text: `2D6+1`, `D3`, `D6-1`, `3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return write!(f, "{}", self.modifier);
        }
        if self.count > 1 {
            write!(f, "{}", self.count)?;
        }
        write!(f, "D{}", self.sides)?;
        match self.modifier.cmp(&0) {
            Ordering::Greater => write!(f, "+{}", self.modifier),
            Ordering::Less => write!(f, "{}", self.modifier),
            Ordering::Equal => Ok(()),
        }
    }
}

impl FromStr for DiceExpr {
    type Err = DiceError;
    fn from_str(input: &str) -> Result<DiceExpr, DiceError> {
        DiceExpr::parse(input)
    }
}

impl TryFrom<String> for DiceExpr {
    type Error = DiceError;
    fn try_from(input: String) -> Result<DiceExpr, DiceError> {
        DiceExpr::parse(&input)
    }
}

impl From<DiceExpr> for String {
    fn from(expr: DiceExpr) -> String {
        expr.to_string()
    }
}

const EXPR_EXAMPLES: &str = "write e.g. `D6`, `2D6+1`, `D3-1` or `3`";

struct ExprParser<'a> {
    input: &'a str,
    pos: usize,
}

impl ExprParser<'_> {
    fn error(
        &self,
        offset: usize,
        problem: impl Into<String>,
        help: impl Into<String>,
    ) -> DiceError {
        DiceError::Parse {
            input: self.input.to_string(),
            offset,
            problem: problem.into(),
            help: help.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.input[self.pos..].chars().next()
    }

    fn skip_spaces(&mut self) {
        while let Some(c) = self.peek().filter(|c| c.is_whitespace()) {
            self.pos += c.len_utf8();
        }
    }

    fn unexpected(&self, expected: &str) -> DiceError {
        match self.peek() {
            Some(c) => self.error(
                self.pos,
                format!("unexpected `{c}`, expected {expected}"),
                EXPR_EXAMPLES,
            ),
            None => self.error(
                self.pos,
                format!("the expression ends early, expected {expected}"),
                EXPR_EXAMPLES,
            ),
        }
    }

    /// Digits at the cursor, if any: `(value, start offset)`.
    fn number(&mut self) -> Result<Option<(u64, usize)>, DiceError> {
        let start = self.pos;
        let digits = self.input[start..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        if digits == 0 {
            return Ok(None);
        }
        self.pos += digits;
        let value = self.input[start..self.pos]
            .parse::<u64>()
            .map_err(|_| self.error(start, "the number is too large", "use a smaller number"))?;
        Ok(Some((value, start)))
    }

    fn sign(&mut self) -> Option<(i64, usize)> {
        let at = self.pos;
        match self.peek() {
            Some('+') => {
                self.pos += 1;
                Some((1, at))
            }
            Some('-') => {
                self.pos += 1;
                Some((-1, at))
            }
            _ => None,
        }
    }

    fn signed(&self, sign: i64, value: u64, at: usize) -> Result<i64, DiceError> {
        let magnitude = i64::try_from(value).unwrap_or(i64::MAX);
        if magnitude > DiceExpr::MAX_MODIFIER {
            return Err(self.error(
                at,
                format!("the modifier {value} is too large"),
                format!("keep modifiers within ±{}", DiceExpr::MAX_MODIFIER),
            ));
        }
        Ok(sign * magnitude)
    }

    fn end(&mut self) -> Result<(), DiceError> {
        self.skip_spaces();
        match self.peek() {
            None => Ok(()),
            Some('+' | '-') => Err(self.error(
                self.pos,
                "only one modifier is allowed",
                "add the modifiers up, e.g. `2D6+1` instead of `2D6+2-1`",
            )),
            Some('d' | 'D') => Err(self.error(
                self.pos,
                "only one dice term is allowed",
                "a modifier must be a whole number, e.g. `D6+1`",
            )),
            Some(c) => Err(self.error(
                self.pos,
                format!("unexpected `{c}` after the expression"),
                EXPR_EXAMPLES,
            )),
        }
    }

    fn expression(mut self) -> Result<DiceExpr, DiceError> {
        self.skip_spaces();
        if self.peek().is_none() {
            return Err(self.error(self.pos, "the expression is empty", EXPR_EXAMPLES));
        }
        // A signed constant: `-1`, `+2`.
        if let Some((sign, at)) = self.sign() {
            self.skip_spaces();
            if matches!(self.peek(), Some('d' | 'D')) {
                return Err(self.error(
                    at,
                    "a dice term cannot be signed",
                    "write the dice first and the modifier after, e.g. `D6-1`",
                ));
            }
            let Some((value, start)) = self.number()? else {
                return Err(self.unexpected("a number"));
            };
            let constant = self.signed(sign, value, start)?;
            self.end()?;
            return DiceExpr::constant(constant);
        }
        let count = self.number()?;
        self.skip_spaces();
        if !matches!(self.peek(), Some('d' | 'D')) {
            // A plain constant, or garbage.
            let Some((value, start)) = count else {
                return Err(self.unexpected("a number or `D`"));
            };
            if matches!(self.peek(), Some('+' | '-')) {
                return Err(self.error(
                    self.pos,
                    "a constant cannot take a modifier",
                    "write the sum as one number, e.g. `4` instead of `3+1`",
                ));
            }
            let constant = self.signed(1, value, start)?;
            self.end()?;
            return DiceExpr::constant(constant);
        }
        let d_at = self.pos;
        self.pos += 1;
        let count = match count {
            None => 1,
            Some((0, start)) => {
                return Err(self.error(
                    start,
                    "a dice count must be at least 1",
                    "write `0` for no dice, or `D6` for one die",
                ));
            }
            Some((n, start)) if n > u64::from(DiceExpr::MAX_COUNT) => {
                return Err(self.error(
                    start,
                    format!("{n} dice is more than the limit of {}", DiceExpr::MAX_COUNT),
                    "roll fewer dice",
                ));
            }
            Some((n, _)) => n as u32,
        };
        self.skip_spaces();
        let Some((sides, sides_at)) = self.number()? else {
            return Err(match self.peek() {
                Some(c) => self.error(
                    self.pos,
                    format!("unexpected `{c}` after `D`, expected the number of sides"),
                    "write the sides after `D`, e.g. `D6`",
                ),
                None => self.error(
                    self.pos,
                    format!("missing the number of sides after the `D` at byte {d_at}"),
                    "write the sides after `D`, e.g. `D6`",
                ),
            });
        };
        if sides == 0 || sides > u64::from(DieDef::MAX_SIDES) {
            return Err(self.error(
                sides_at,
                format!("a die needs 1 to {} sides, got {sides}", DieDef::MAX_SIDES),
                "use e.g. `D3`, `D6` or `D20`",
            ));
        }
        self.skip_spaces();
        let modifier = match self.sign() {
            None => 0,
            Some((sign, _)) => {
                self.skip_spaces();
                let Some((value, start)) = self.number()? else {
                    return Err(match self.peek() {
                        Some('d' | 'D') => self.error(
                            self.pos,
                            "only one dice term is allowed",
                            "a modifier must be a whole number, e.g. `D6+1`",
                        ),
                        _ => self.unexpected("a whole number after the sign"),
                    });
                };
                self.signed(sign, value, start)?
            }
        };
        self.end()?;
        DiceExpr::new(count, sides as u32, modifier)
    }
}

/// One die of an [`ExprRoll`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExprDie {
    /// The physical face rolled (for `D3`, the d6 face before halving).
    pub face: u32,
    /// The die's value (for `D3`, the halved face).
    pub value: i64,
}

/// The result of rolling a [`DiceExpr`]: each die, unmodified, and the total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExprRoll {
    expr: DiceExpr,
    dice: Vec<ExprDie>,
    total: i64,
}

impl ExprRoll {
    /// The expression rolled.
    pub fn expr(&self) -> DiceExpr {
        self.expr
    }

    /// The dice, unmodified, in roll order.
    pub fn dice(&self) -> &[ExprDie] {
        &self.dice
    }

    /// The sum of the dice values, without the modifier.
    pub fn unmodified(&self) -> i64 {
        self.total - self.expr.modifier
    }

    /// The total: dice plus modifier.
    pub fn total(&self) -> i64 {
        self.total
    }

    /// Whether two dice show the same value (a "double" on 2D6).
    pub fn has_double(&self) -> bool {
        let mut seen = BTreeSet::new();
        self.dice.iter().any(|d| !seen.insert(d.value))
    }
}

// ---------------------------------------------------------------------------------------
// Opposed rolls
// ---------------------------------------------------------------------------------------

/// The most re-roll rounds a tie rule or roll-off may ask for.
pub const MAX_REROLL_ROUNDS: u32 = 1000;

/// How a final tie is settled after the re-roll rounds of [`TieRule::RollAgain`] run out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalTie {
    /// The attacker wins ties.
    AttackerWins,
    /// The defender wins ties.
    DefenderWins,
    /// Nobody wins.
    Draw,
}

/// What an opposed roll does on equal totals; rule data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TieRule {
    /// Ties go to the attacker (the attacker needs ≥).
    AttackerWins,
    /// Ties go to the defender (the attacker needs strictly more).
    DefenderWins,
    /// A tie is a draw.
    Draw,
    /// Both sides roll again, up to `max_rerolls` extra rounds (at most
    /// [`MAX_REROLL_ROUNDS`]); a tie after the last round is settled by `otherwise`.
    /// When neither side has random dice, no round is rolled again.
    RollAgain {
        /// The most extra rounds.
        max_rerolls: u32,
        /// How a tie after the last round is settled.
        otherwise: FinalTie,
    },
}

/// Who won an opposed roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpposedOutcome {
    /// The attacker won.
    AttackerWins,
    /// The defender won.
    DefenderWins,
    /// Nobody won.
    Draw,
}

impl From<FinalTie> for OpposedOutcome {
    fn from(tie: FinalTie) -> OpposedOutcome {
        match tie {
            FinalTie::AttackerWins => OpposedOutcome::AttackerWins,
            FinalTie::DefenderWins => OpposedOutcome::DefenderWins,
            FinalTie::Draw => OpposedOutcome::Draw,
        }
    }
}

/// One round of an opposed roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpposedRound {
    /// The attacker's roll.
    pub attacker: ExprRoll,
    /// The defender's roll.
    pub defender: ExprRoll,
}

/// The result of [`roll_opposed`]: every round rolled and the outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpposedRoll {
    rounds: Vec<OpposedRound>,
    outcome: OpposedOutcome,
    by_tie_rule: bool,
}

impl OpposedRoll {
    /// The rounds rolled, first to last (more than one only under
    /// [`TieRule::RollAgain`]).
    pub fn rounds(&self) -> &[OpposedRound] {
        &self.rounds
    }

    /// The deciding (last) round.
    pub fn last(&self) -> &OpposedRound {
        // `roll_opposed` always rolls at least one round.
        &self.rounds[self.rounds.len() - 1]
    }

    /// Who won.
    pub fn outcome(&self) -> OpposedOutcome {
        self.outcome
    }

    /// Whether the last round was a tie, settled by the tie rule.
    pub fn decided_by_tie_rule(&self) -> bool {
        self.by_tie_rule
    }

    /// Attacker total minus defender total in the last round.
    pub fn margin(&self) -> i64 {
        let last = self.last();
        last.attacker.total() - last.defender.total()
    }
}

/// Rolls `attacker` against `defender` (attacker's dice first, each round); the higher
/// total wins and `tie` settles equal totals.
///
/// # Examples
///
/// ```
/// use gloam_core::{roll_opposed, DiceExpr, FinalTie, GameRng, TieRule};
/// let attacker = DiceExpr::parse("D6")?.plus(4)?; // d6 + WS 4
/// let defender = DiceExpr::parse("D6")?.plus(3)?;
/// let tie = TieRule::RollAgain { max_rerolls: 10, otherwise: FinalTie::Draw };
/// let result = roll_opposed(&attacker, &defender, tie, &mut GameRng::from_seed(2))?;
/// assert!(result.rounds().len() <= 11);
/// # Ok::<(), gloam_core::DiceError>(())
/// ```
pub fn roll_opposed(
    attacker: &DiceExpr,
    defender: &DiceExpr,
    tie: TieRule,
    rng: &mut GameRng,
) -> Result<OpposedRoll, DiceError> {
    let max_rerolls = match tie {
        TieRule::RollAgain { max_rerolls, .. } => {
            if max_rerolls > MAX_REROLL_ROUNDS {
                return Err(DiceError::TooManyRerolls {
                    requested: max_rerolls,
                    max: MAX_REROLL_ROUNDS,
                });
            }
            if attacker.is_fixed() && defender.is_fixed() {
                0
            } else {
                max_rerolls
            }
        }
        _ => 0,
    };
    let mut rounds = Vec::new();
    loop {
        let round = OpposedRound {
            attacker: attacker.roll(rng),
            defender: defender.roll(rng),
        };
        let order = round.attacker.total().cmp(&round.defender.total());
        rounds.push(round);
        let (outcome, by_tie_rule) = match order {
            Ordering::Greater => (OpposedOutcome::AttackerWins, false),
            Ordering::Less => (OpposedOutcome::DefenderWins, false),
            Ordering::Equal => match tie {
                TieRule::AttackerWins => (OpposedOutcome::AttackerWins, true),
                TieRule::DefenderWins => (OpposedOutcome::DefenderWins, true),
                TieRule::Draw => (OpposedOutcome::Draw, true),
                TieRule::RollAgain { otherwise, .. } => {
                    if rounds.len() as u64 <= u64::from(max_rerolls) {
                        continue;
                    }
                    (otherwise.into(), true)
                }
            },
        };
        return Ok(OpposedRoll {
            rounds,
            outcome,
            by_tie_rule,
        });
    }
}

// ---------------------------------------------------------------------------------------
// Roll-offs
// ---------------------------------------------------------------------------------------

/// How a roll-off ranks each player's roll; rule data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RollOffRank {
    /// Tiers of faces, best first; faces in one tier rank equal and faces in no tier
    /// rank below every tier. Rolls compare by the number of dice in the first tier,
    /// then the second, and so on ("most criticals, then most hammers…"). With one die
    /// each this is simply the better face.
    Tiers(Vec<Vec<String>>),
    /// The highest sum of face values wins (every face must have a value).
    Total,
}

/// A roll-off as rule data: what each player rolls, how rolls rank, and how many times
/// tied leaders roll again.
///
/// # Examples
///
/// Embergard: one attack die each; critical beats hammer = swords, which beat supports.
///
/// ```
/// use gloam_core::{Dice, DieDef, DieFace, GameRng, PlayerId, Pool, RollOffRank, RollOffRule};
/// let attack = DieDef::new("attack", vec![
///     DieFace::new("critical", 1), DieFace::new("hammer", 2), DieFace::new("swords", 1),
///     DieFace::new("single_support", 1), DieFace::new("double_support", 1),
/// ])?;
/// let dice = Dice::from_defs([attack])?;
/// let tiers = [vec!["critical"], vec!["hammer", "swords"], vec!["single_support", "double_support"]];
/// let rule = RollOffRule {
///     pool: Pool::of("attack", 1),
///     rank: RollOffRank::Tiers(tiers.iter().map(|t| t.iter().map(|f| f.to_string()).collect()).collect()),
///     max_rerolls: 20,
/// };
/// let result = rule.run(&[PlayerId(0), PlayerId(1)], &dice, &mut GameRng::from_seed(4))?;
/// assert!(result.rounds().len() <= 21);
/// # Ok::<(), gloam_core::DiceError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOffRule {
    /// The dice each player rolls.
    pub pool: Pool,
    /// How rolls rank.
    pub rank: RollOffRank,
    /// The most extra rounds among tied leaders (at most [`MAX_REROLL_ROUNDS`]).
    pub max_rerolls: u32,
}

/// One player's roll in a roll-off round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRoll {
    /// The player.
    pub player: PlayerId,
    /// What they rolled.
    pub roll: Roll,
}

/// One round of a roll-off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOffRound {
    /// The rolls of the players in this round, in the order given.
    pub rolls: Vec<PlayerRoll>,
    /// The players with the best roll this round (one: the winner).
    pub leaders: Vec<PlayerId>,
}

/// The result of a roll-off: every round and the winner, if one emerged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOff {
    rounds: Vec<RollOffRound>,
    winner: Option<PlayerId>,
}

impl RollOff {
    /// The rounds rolled, first to last.
    pub fn rounds(&self) -> &[RollOffRound] {
        &self.rounds
    }

    /// The winner; `None` when leaders were still tied after the last allowed round
    /// (the ruleset decides what then happens; [`RollOff::tied`] lists them).
    pub fn winner(&self) -> Option<PlayerId> {
        self.winner
    }

    /// The players tied for the lead in the last round (just the winner if there is one).
    pub fn tied(&self) -> &[PlayerId] {
        self.rounds.last().map_or(&[], |r| r.leaders.as_slice())
    }
}

impl RollOffRule {
    /// Checks the rule against a dice set: known dice, non-empty pool, ranked faces on
    /// the pool's dice and in one tier each, valued faces for a total, bounded rounds.
    pub fn validate(&self, dice: &Dice) -> Result<(), DiceError> {
        if self.max_rerolls > MAX_REROLL_ROUNDS {
            return Err(DiceError::TooManyRerolls {
                requested: self.max_rerolls,
                max: MAX_REROLL_ROUNDS,
            });
        }
        if dice.expand(&self.pool)?.is_empty() {
            return Err(DiceError::EmptyRollOffPool);
        }
        match &self.rank {
            RollOffRank::Tiers(tiers) => {
                let mut seen = BTreeSet::new();
                for face in tiers.iter().flatten() {
                    if !seen.insert(face.as_str()) {
                        return Err(DiceError::FaceRankedTwice { face: face.clone() });
                    }
                }
                let faces: Vec<&str> = seen.into_iter().collect();
                dice.check_faces(&self.pool, &faces)
            }
            RollOffRank::Total => {
                for entry in &self.pool.entries {
                    let def = dice.lookup(&entry.die)?;
                    if let Some(face) = def.faces.iter().find(|f| f.value.is_none()) {
                        return Err(DiceError::FaceWithoutValue {
                            die: def.name.clone(),
                            face: face.name.clone(),
                        });
                    }
                }
                Ok(())
            }
        }
    }

    /// The score of a roll: compared lexicographically, higher is better.
    fn score(&self, roll: &Roll) -> Vec<i64> {
        match &self.rank {
            RollOffRank::Tiers(tiers) => tiers
                .iter()
                .map(|tier| roll.dice.iter().filter(|d| tier.contains(&d.face)).count() as i64)
                .collect(),
            RollOffRank::Total => vec![roll.dice.iter().filter_map(|d| d.value).sum()],
        }
    }

    /// Runs the roll-off: every player rolls the pool (in the order given); the players
    /// tied for the best roll roll again, up to `max_rerolls` extra rounds. Checks
    /// everything first, so an error leaves the RNG untouched.
    pub fn run(
        &self,
        players: &[PlayerId],
        dice: &Dice,
        rng: &mut GameRng,
    ) -> Result<RollOff, DiceError> {
        if players.len() < 2 {
            return Err(DiceError::TooFewPlayers {
                count: players.len(),
            });
        }
        let mut seen = BTreeSet::new();
        if let Some(&player) = players.iter().find(|p| !seen.insert(**p)) {
            return Err(DiceError::DuplicatePlayer { player });
        }
        self.validate(dice)?;
        let mut contenders = players.to_vec();
        let mut rounds = Vec::new();
        loop {
            let mut rolls = Vec::with_capacity(contenders.len());
            for &player in &contenders {
                rolls.push(PlayerRoll {
                    player,
                    roll: dice.roll(&self.pool, rng)?,
                });
            }
            let scores: Vec<Vec<i64>> = rolls.iter().map(|r| self.score(&r.roll)).collect();
            let best = scores.iter().max().cloned().unwrap_or_default();
            let leaders: Vec<PlayerId> = rolls
                .iter()
                .zip(&scores)
                .filter(|(_, s)| **s == best)
                .map(|(r, _)| r.player)
                .collect();
            let done = leaders.len() == 1 || rounds.len() as u64 >= u64::from(self.max_rerolls);
            let winner = (leaders.len() == 1).then(|| leaders[0]);
            contenders.clone_from(&leaders);
            rounds.push(RollOffRound { rolls, leaders });
            if done {
                return Ok(RollOff { rounds, winner });
            }
        }
    }
}

/// The first loaded pair for each die, in order (`None`: the RNG rolls it); checks that
/// each loaded face is on its die.
fn plan_loaded(
    defs: &[&DieDef],
    loaded: &[(String, String)],
) -> Result<Vec<Option<usize>>, DiceError> {
    let mut taken = vec![false; loaded.len()];
    let mut plan = Vec::with_capacity(defs.len());
    for def in defs {
        let pick = loaded
            .iter()
            .enumerate()
            .find(|(i, (die, _))| !taken[*i] && *die == def.name)
            .map(|(i, _)| i);
        if let Some(i) = pick {
            if def.face(&loaded[i].1).is_none() {
                return Err(DiceError::UnknownFace {
                    face: loaded[i].1.clone(),
                    dice: format!("the loaded die `{}`", def.name),
                });
            }
            taken[i] = true;
        }
        plan.push(pick);
    }
    Ok(plan)
}

/// Removes the loaded pairs a roll used.
fn use_up(loaded: &mut Vec<(String, String)>, plan: &[Option<usize>]) {
    let mut index = 0;
    loaded.retain(|_| {
        let keep = !plan.contains(&Some(index));
        index += 1;
        keep
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(num: u128, den: u128) -> Ratio {
        Ratio::new(num, den).unwrap()
    }

    #[test]
    fn ratio_new_reduces_and_rejects_zero_denominator() {
        assert_eq!(r(6, 8), r(3, 4));
        assert_eq!(r(0, 5), Ratio::ZERO);
        assert_eq!(Ratio::new(1, 0), Err(DiceError::ZeroDenominator));
    }

    #[test]
    fn ratio_cmp_matches_cross_multiplication() {
        let values = [
            r(0, 1),
            r(1, 3),
            r(1, 2),
            r(2, 3),
            r(5, 7),
            r(1, 1),
            r(7, 3),
            r(355, 113),
        ];
        for a in values {
            for b in values {
                let expected = (a.num * b.den).cmp(&(b.num * a.den));
                assert_eq!(a.cmp(&b), expected, "{a} vs {b}");
            }
        }
        let huge = r(u128::MAX - 1, u128::MAX);
        assert!(huge < Ratio::ONE);
        assert!(r(u128::MAX - 2, u128::MAX) < huge);
    }

    #[test]
    fn ratio_arithmetic_is_exact() {
        assert_eq!(r(1, 6).checked_add(r(1, 3)).unwrap(), r(1, 2));
        assert_eq!(r(1, 2).checked_sub(r(1, 3)).unwrap(), r(1, 6));
        assert_eq!(r(2, 3).checked_mul(r(3, 4)).unwrap(), r(1, 2));
        assert_eq!(r(1, 4).complement().unwrap(), r(3, 4));
        assert_eq!(
            r(5, 4).complement(),
            Err(DiceError::NotAProbability { num: 5, den: 4 })
        );
        assert_eq!(
            success_distribution_of(&[r(3, 2)]),
            Err(DiceError::NotAProbability { num: 3, den: 2 })
        );
        assert!(matches!(
            r(1, 3).checked_sub(r(1, 2)),
            Err(DiceError::Negative { .. })
        ));
        assert!(matches!(
            r(1, u128::MAX).checked_mul(r(1, 3)),
            Err(DiceError::Overflow { .. })
        ));
    }

    #[test]
    fn die_def_new_rejects_bad_definitions() {
        assert_eq!(
            DieDef::new("", vec![DieFace::new("a", 1)]),
            Err(DiceError::EmptyDieName)
        );
        assert_eq!(
            DieDef::new("x", vec![]),
            Err(DiceError::NoFaces { die: "x".into() })
        );
        assert_eq!(
            DieDef::new("x", vec![DieFace::new("a", 0)]),
            Err(DiceError::ZeroCount {
                die: "x".into(),
                face: "a".into()
            })
        );
        assert_eq!(
            DieDef::new("x", vec![DieFace::new("a", 1), DieFace::new("a", 2)]),
            Err(DiceError::DuplicateFace {
                die: "x".into(),
                face: "a".into()
            })
        );
        assert_eq!(
            DieDef::new("x", vec![DieFace::new("", 1)]),
            Err(DiceError::EmptyFaceName { die: "x".into() })
        );
        assert!(matches!(
            DieDef::new("x", vec![DieFace::new("a", u32::MAX), DieFace::new("b", 1)]),
            Err(DiceError::TooManyFaces { .. })
        ));
        assert!(matches!(
            DieDef::new("x", vec![DieFace::new("a", 1).with_value(i64::MAX)]),
            Err(DiceError::FaceValueOutOfRange { .. })
        ));
        // The most negative value has no absolute value in i64: refused, not wrapped.
        assert!(matches!(
            DieDef::new("x", vec![DieFace::new("a", 1).with_value(i64::MIN)]),
            Err(DiceError::FaceValueOutOfRange { .. })
        ));
        assert!(matches!(
            DieDef::numeric(0),
            Err(DiceError::BadSides { .. })
        ));
        assert!(matches!(
            DieDef::numeric(1001),
            Err(DiceError::BadSides { .. })
        ));
    }

    #[test]
    fn die_def_face_at_walks_declaration_order() {
        let def = DieDef::new(
            "x",
            vec![
                DieFace::new("a", 1),
                DieFace::new("b", 2),
                DieFace::new("c", 1),
            ],
        )
        .unwrap();
        let names: Vec<&str> = (0..4).map(|i| def.face_at(i).name.as_str()).collect();
        assert_eq!(names, ["a", "b", "b", "c"]);
    }

    #[test]
    fn die_def_serde_validates_on_load() {
        let json = r#"{"name":"x","faces":[{"name":"a"},{"name":"b","count":2,"value":3}]}"#;
        let def: DieDef = serde_json::from_str(json).unwrap();
        assert_eq!(def.total_count(), 3);
        assert_eq!(def.face("b").unwrap().value, Some(3));
        let bad = r#"{"name":"x","faces":[{"name":"a","count":0}]}"#;
        assert!(serde_json::from_str::<DieDef>(bad).is_err());
    }

    #[test]
    fn dice_insert_duplicate_is_rejected() {
        let mut dice = Dice::new();
        dice.insert(DieDef::numeric(6).unwrap()).unwrap();
        assert_eq!(
            dice.insert(DieDef::numeric(6).unwrap()),
            Err(DiceError::DuplicateDie { die: "d6".into() })
        );
        assert_eq!(dice.len(), 1);
    }

    #[test]
    fn dice_roll_unknown_die_leaves_rng_untouched() {
        let dice = Dice::from_defs([DieDef::numeric(6).unwrap()]).unwrap();
        let mut rng = GameRng::from_seed(1);
        let before = rng.clone();
        let err = dice.roll(&Pool::of("d6", 1).with("d8", 1), &mut rng);
        assert!(matches!(err, Err(DiceError::UnknownDie { .. })));
        assert_eq!(rng, before);
    }

    #[test]
    fn dice_roll_too_large_pool_is_rejected() {
        let dice = Dice::from_defs([DieDef::numeric(6).unwrap()]).unwrap();
        let err = dice.roll(&Pool::of("d6", u32::MAX), &mut GameRng::from_seed(1));
        assert!(matches!(err, Err(DiceError::PoolTooLarge { .. })));
    }

    #[test]
    fn expr_display_is_canonical() {
        for (text, shown) in [
            ("d6", "D6"),
            ("2d6", "2D6"),
            ("2D6 + 1", "2D6+1"),
            ("D6-1", "D6-1"),
            ("3", "3"),
            ("-2", "-2"),
            ("1d3+0", "D3"),
        ] {
            assert_eq!(DiceExpr::parse(text).unwrap().to_string(), shown, "{text}");
        }
    }

    #[test]
    fn d3_roll_halves_a_d6_rounding_up() {
        let d3 = DiceExpr::parse("D3").unwrap();
        let mut rng = GameRng::from_seed(11);
        for _ in 0..200 {
            let roll = d3.roll(&mut rng);
            let die = roll.dice()[0];
            assert!((1..=6).contains(&die.face));
            assert_eq!(die.value, i64::from(die.face + 1) / 2);
        }
    }
}
