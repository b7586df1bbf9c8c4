//! Exact probabilities of any size, for `gloam odds`.
//!
//! One roll's chances fit the kernel's 128-bit [`Ratio`]: a pool of up to 49 six-sided dice
//! has a denominator under 2^128. An attack chains rolls (hits, then wounds, then saves, each
//! of many dice), and the chance of one path through it is the product of its rolls'
//! chances: a unit of ten models with two attacks each passes 128 bits. The enumerations of
//! `gloam odds` therefore sum and multiply in [`Exact`], a fraction of unbounded integers;
//! the kernel keeps its `Ratio` for what one roll offers.

use std::fmt;
use std::ops::{Add, AddAssign, Mul};

use gloam_core::Ratio;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

type Fraction = num_rational::Ratio<BigUint>;

/// A probability (or an expected amount) as an exact fraction of unbounded integers, always
/// reduced.
///
/// # Examples
///
/// ```
/// use gloam::exact::Exact;
/// use gloam::core::Ratio;
/// let sixth = Exact::from(Ratio::new(1, 6)?);
/// let mut p = Exact::one();
/// for _ in 0..60 {
///     p = &p * &sixth;
/// }
/// // 6^60 does not fit 128 bits; the fraction stays exact.
/// assert_eq!(p.to_string().len(), "1/".len() + 47);
/// assert_eq!((&p + &p).to_string().split('/').nth(1).map(str::len), Some(47));
/// # Ok::<(), gloam::core::DiceError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Exact(Fraction);

impl Exact {
    /// 0.
    pub fn zero() -> Exact {
        Exact(Fraction::zero())
    }

    /// 1.
    pub fn one() -> Exact {
        Exact(Fraction::one())
    }

    /// A whole number.
    pub fn whole(n: u64) -> Exact {
        Exact(Fraction::from_integer(BigUint::from(n)))
    }

    /// Whether it is 0.
    pub fn is_zero(&self) -> bool {
        self.0.is_zero()
    }

    /// The numerator and denominator of the reduced fraction, in decimal digits.
    pub fn parts(&self) -> (String, String) {
        (self.0.numer().to_string(), self.0.denom().to_string())
    }

    /// `1 - self`, for a probability; `None` when `self` is more than 1.
    pub fn complement(&self) -> Option<Exact> {
        (self.0 <= Fraction::one()).then(|| Exact(Fraction::one() - &self.0))
    }

    /// The kernel's 128-bit fraction, when both parts fit.
    pub fn to_ratio(&self) -> Option<Ratio> {
        let num = self.0.numer().to_u128()?;
        let den = self.0.denom().to_u128()?;
        Ratio::new(num, den).ok()
    }

    /// An approximate floating-point value, **for display only**: comparisons of odds use
    /// the exact fraction. Correct to about 1 part in 2^60 at any size of the parts.
    pub fn to_f64(&self) -> f64 {
        let (num, den) = (self.0.numer(), self.0.denom());
        if num.is_zero() {
            return 0.0;
        }
        // Scale both parts down to at most 64 significant bits of the larger, keeping the
        // quotient; a part that shrinks to nothing is far below f64's resolution there.
        let bits = num.bits().max(den.bits());
        let shift = bits.saturating_sub(64);
        let n = (num >> shift).to_f64().unwrap_or(f64::MAX);
        let d = (den >> shift).to_f64().unwrap_or(f64::MAX);
        if d == 0.0 {
            return f64::INFINITY;
        }
        n / d
    }
}

impl Default for Exact {
    fn default() -> Exact {
        Exact::zero()
    }
}

impl From<Ratio> for Exact {
    fn from(ratio: Ratio) -> Exact {
        Exact(Fraction::new(
            BigUint::from(ratio.num()),
            BigUint::from(ratio.den()),
        ))
    }
}

impl Add<&Exact> for &Exact {
    type Output = Exact;
    fn add(self, other: &Exact) -> Exact {
        Exact(&self.0 + &other.0)
    }
}

impl Mul<&Exact> for &Exact {
    type Output = Exact;
    fn mul(self, other: &Exact) -> Exact {
        Exact(&self.0 * &other.0)
    }
}

impl AddAssign<&Exact> for Exact {
    fn add_assign(&mut self, other: &Exact) {
        self.0 = &self.0 + &other.0;
    }
}

impl fmt::Display for Exact {
    /// `p/q`, or `p` for a whole number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.denom().is_one() {
            write!(f, "{}", self.0.numer())
        } else {
            write!(f, "{}/{}", self.0.numer(), self.0.denom())
        }
    }
}
