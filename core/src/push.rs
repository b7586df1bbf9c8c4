//! Pushes: a piece moved a number of hexes, one hex at a time, into empty hexes.
//!
//! A push is not a move: it has no budget of entry costs, only a number of hexes, and each
//! hex entered must be empty (on the battlefield, not blocked, not occupied); the pushed
//! piece's own start hex counts as empty once it has left. A push of one or more hexes may not
//! end where it started. Rulesets narrow the steps with [`PushConstraint`]s ("away from",
//! "closer to", a fixed direction, a straight line) and pick which push to make; drive back,
//! knockback and trapped are built from the same step rule.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::hex::{Direction, Hex};
use crate::movement::{Grid, Passage, StepError, check_step};

/// The longest push the search functions accept, in hexes.
pub const MAX_PUSH_DISTANCE: u32 = 64;

/// A condition every step of a push must meet; several combine (all must hold).
///
/// Distances are plain [`Hex::distance_to`], counted straight through blocked hexes, as
/// Harrowdeep [002 L2126-2132] and Embergard [001 L447] define them.
///
/// # Examples
///
/// ```
/// use gloam_core::{Direction, Hex, PushConstraint};
/// let attacker = Hex::new(-1, 0);
/// let away = PushConstraint::Away(attacker);
/// assert!(away.allows(Hex::ORIGIN, Hex::new(1, 0), None));
/// assert!(!away.allows(Hex::ORIGIN, Hex::new(0, -1), None)); // as far, not farther
/// assert!(!PushConstraint::Straight.allows(Hex::ORIGIN, Hex::new(0, 1), Some(Direction::East)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum PushConstraint {
    /// Each hex entered is farther from this hex than the hex just left.
    Away(Hex),
    /// Each hex entered is closer to this hex than the hex just left.
    Closer(Hex),
    /// Every step goes in this direction.
    SameDirection(Direction),
    /// Every step goes in the direction of the first step (knockback continues a drive back).
    Straight,
}

impl PushConstraint {
    /// Whether the step from `from` to `to` meets this constraint, `previous` being the
    /// direction of the step before it (`None` for a first step). A step between hexes that
    /// are not adjacent meets no constraint.
    pub fn allows(self, from: Hex, to: Hex, previous: Option<Direction>) -> bool {
        let Some(direction) = Direction::from_offset(to.sub(from)) else {
            return false;
        };
        self.allows_step(from, to, direction, previous)
    }

    fn allows_step(
        self,
        from: Hex,
        to: Hex,
        direction: Direction,
        previous: Option<Direction>,
    ) -> bool {
        match self {
            PushConstraint::Away(source) => source.distance_to(to) > source.distance_to(from),
            PushConstraint::Closer(target) => target.distance_to(to) < target.distance_to(from),
            PushConstraint::SameDirection(required) => direction == required,
            PushConstraint::Straight => previous.is_none_or(|previous| previous == direction),
        }
    }
}

impl fmt::Display for PushConstraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushConstraint::Away(source) => write!(f, "away from {source}"),
            PushConstraint::Closer(target) => write!(f, "closer to {target}"),
            PushConstraint::SameDirection(direction) => {
                write!(f, "towards the {}", direction_name(*direction))
            }
            PushConstraint::Straight => f.write_str("in the direction of the first step"),
        }
    }
}

fn direction_name(direction: Direction) -> &'static str {
    match direction {
        Direction::East => "east",
        Direction::SouthEast => "south-east",
        Direction::SouthWest => "south-west",
        Direction::West => "west",
        Direction::NorthWest => "north-west",
        Direction::NorthEast => "north-east",
    }
}

/// How many hexes a push moves the piece.
///
/// # Examples
///
/// ```
/// use gloam_core::PushDistance;
/// assert!(PushDistance::UpTo(2).allows(1));
/// assert!(!PushDistance::Exactly(2).allows(1));
/// assert!(!PushDistance::UpTo(2).allows(0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PushDistance {
    /// Exactly this many hexes.
    Exactly(u32),
    /// At least one hex and at most this many.
    UpTo(u32),
}

impl PushDistance {
    /// The most hexes the push may move the piece.
    pub fn max(self) -> u32 {
        match self {
            PushDistance::Exactly(hexes) | PushDistance::UpTo(hexes) => hexes,
        }
    }

    /// Whether a push of `steps` hexes fits.
    pub fn allows(self, steps: u32) -> bool {
        match self {
            PushDistance::Exactly(hexes) => steps == hexes,
            PushDistance::UpTo(hexes) => (1..=hexes).contains(&steps),
        }
    }
}

impl fmt::Display for PushDistance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushDistance::Exactly(hexes) => write!(f, "exactly {hexes} hexes"),
            PushDistance::UpTo(hexes) => write!(f, "up to {hexes} hexes"),
        }
    }
}

/// One legal push: the hexes the piece stands in, from its start to its destination.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PushPath {
    hexes: Vec<Hex>,
}

impl PushPath {
    /// The hexes from start (first) to destination (last); at least two.
    pub fn hexes(&self) -> &[Hex] {
        &self.hexes
    }

    /// The hex the piece is pushed from.
    pub fn start(&self) -> Hex {
        self.hexes.first().copied().unwrap_or(Hex::ORIGIN)
    }

    /// The hex the piece ends in.
    pub fn destination(&self) -> Hex {
        self.hexes.last().copied().unwrap_or(Hex::ORIGIN)
    }

    /// The hexes entered, in order (a ruleset applies lethal or stagger hexes to each).
    pub fn entered(&self) -> &[Hex] {
        self.hexes.get(1..).unwrap_or(&[])
    }

    /// Number of hexes the piece moves.
    pub fn steps(&self) -> u32 {
        u32::try_from(self.hexes.len().saturating_sub(1)).unwrap_or(u32::MAX)
    }

    /// The direction of the last step (a knockback continues in it).
    pub fn last_direction(&self) -> Option<Direction> {
        match self.hexes.as_slice() {
            [.., from, to] => Direction::from_offset(to.sub(*from)),
            _ => None,
        }
    }
}

/// Why a push cannot be searched or a host-given push path is illegal; `step` counts from 1
/// (step `k` enters `path[k]`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PushError {
    /// The push is longer than [`MAX_PUSH_DISTANCE`].
    #[error("push of {distance} hexes is longer than the maximum of {max}")]
    TooFar {
        /// The requested distance.
        distance: u32,
        /// [`MAX_PUSH_DISTANCE`].
        max: u32,
    },
    /// More pushes exist than the caller's limit.
    #[error("more than {limit} push paths exist")]
    TooManyPaths {
        /// The caller's limit.
        limit: usize,
    },
    /// The path has no step.
    #[error("push path has {len} hexes; a push needs its start hex and at least one step")]
    TooShort {
        /// Number of hexes in the path.
        len: usize,
    },
    /// The path's number of steps does not fit the push distance.
    #[error("push moves {steps} hexes, expected {expected}")]
    WrongLength {
        /// Number of steps in the path.
        steps: usize,
        /// The distance required.
        expected: PushDistance,
    },
    /// A step of the path is illegal.
    #[error("illegal push: {0}")]
    Step(#[from] StepError),
    /// A step breaks a constraint.
    #[error("step {step} from {from} to {to} is not {constraint}")]
    Constraint {
        /// The step number, from 1.
        step: usize,
        /// The hex left.
        from: Hex,
        /// The hex entered.
        to: Hex,
        /// The constraint broken (the first in the caller's list).
        constraint: PushConstraint,
    },
    /// The push ends where it started.
    #[error("push ends where it started, in {hex}")]
    EndsWhereStarted {
        /// The start hex.
        hex: Hex,
    },
}

/// Every hex a push can end in, each with one path to it, sorted by destination.
///
/// Among the paths to a destination the one kept is the shortest (for [`PushDistance::UpTo`]),
/// then the first in direction order (each step compared in [`Direction::ALL`] order, east
/// first). [`push_paths`] lists them all. Empty if the piece is not on the battlefield or the
/// distance is 0.
///
/// # Errors
///
/// [`PushError::TooFar`] if the distance exceeds [`MAX_PUSH_DISTANCE`].
///
/// # Examples
///
/// ```
/// use gloam_core::{push_destinations, Hex, PushConstraint, PushDistance, SimpleGrid};
/// // Harrowdeep 3.7: push 2 hexes away from the attacker.
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3);
/// let attacker = Hex::new(-1, 0);
/// let pushes = push_destinations(
///     &grid,
///     Hex::ORIGIN,
///     PushDistance::Exactly(2),
///     &[PushConstraint::Away(attacker)],
/// )?;
/// assert!(pushes.iter().all(|push| attacker.distance_to(push.destination()) == 3));
/// assert_eq!(pushes.len(), 5);
/// # Ok::<(), gloam_core::PushError>(())
/// ```
pub fn push_destinations<G: Grid + ?Sized>(
    grid: &G,
    piece_at: Hex,
    distance: PushDistance,
    constraints: &[PushConstraint],
) -> Result<Vec<PushPath>, PushError> {
    let search = PushSearch::new(grid, piece_at, distance, constraints)?;
    if !grid.contains(piece_at) {
        return Ok(Vec::new());
    }
    // Layer `k` holds the states reached in `k` steps, in the order of their first path in
    // direction order; a state is a hex (and the last direction, when `Straight` needs it).
    let mut layers: Vec<Vec<PushNode>> = vec![vec![PushNode {
        hex: piece_at,
        last: None,
        parent: 0,
    }]];
    let mut kept: BTreeMap<Hex, (usize, usize)> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for steps in 1..=distance.max() {
        let Some(previous) = layers.last() else {
            break;
        };
        seen.clear();
        let mut layer = Vec::new();
        for (parent, node) in previous.iter().enumerate() {
            for direction in Direction::ALL {
                let Some(next) = search.step(node.hex, node.last, direction) else {
                    continue;
                };
                if seen.insert(search.key(next, direction)) {
                    layer.push(PushNode {
                        hex: next,
                        last: Some(direction),
                        parent,
                    });
                }
            }
        }
        if layer.is_empty() {
            break;
        }
        if distance.allows(steps) {
            let depth = layers.len();
            for (index, node) in layer.iter().enumerate() {
                if node.hex != piece_at {
                    kept.entry(node.hex).or_insert((depth, index));
                }
            }
        }
        layers.push(layer);
    }
    Ok(kept
        .into_values()
        .map(|(depth, index)| {
            let mut hexes = Vec::with_capacity(depth + 1);
            let mut index = index;
            for layer in layers[..=depth].iter().rev() {
                let node = &layer[index];
                hexes.push(node.hex);
                index = node.parent;
            }
            hexes.reverse();
            PushPath { hexes }
        })
        .collect())
}

/// Every legal push path, in direction order (each step compared in [`Direction::ALL`]
/// order; a path comes before its longer continuations).
///
/// The number of paths grows exponentially with the distance when no constraint narrows
/// the steps, hence the `limit`. A push of two or more hexes may pass back through hexes,
/// including its start (Harrowdeep, ambiguity H15).
///
/// # Errors
///
/// [`PushError::TooFar`] if the distance exceeds [`MAX_PUSH_DISTANCE`];
/// [`PushError::TooManyPaths`] if more than `limit` paths exist.
///
/// # Examples
///
/// ```
/// use gloam_core::{push_paths, Hex, PushDistance, SimpleGrid};
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3);
/// // 6 first steps, then 6 second steps each, less the 6 that come back to the start.
/// let paths = push_paths(&grid, Hex::ORIGIN, PushDistance::Exactly(2), &[], 100)?;
/// assert_eq!(paths.len(), 30);
/// assert!(push_paths(&grid, Hex::ORIGIN, PushDistance::Exactly(2), &[], 10).is_err());
/// # Ok::<(), gloam_core::PushError>(())
/// ```
pub fn push_paths<G: Grid + ?Sized>(
    grid: &G,
    piece_at: Hex,
    distance: PushDistance,
    constraints: &[PushConstraint],
    limit: usize,
) -> Result<Vec<PushPath>, PushError> {
    let search = PushSearch::new(grid, piece_at, distance, constraints)?;
    let mut out = Vec::new();
    if grid.contains(piece_at) {
        let mut walk = PathWalk {
            search: &search,
            limit,
            out: &mut out,
            dead: BTreeSet::new(),
        };
        walk.extend(&mut vec![piece_at], None)?;
    }
    Ok(out)
}

/// Checks a host-given push path (start hex first) step by step.
///
/// # Errors
///
/// The first problem found: the path's length and distance, then each step in order
/// (adjacency, battlefield, blocked, occupied, then the constraints in the given order), then
/// the end hex.
///
/// # Examples
///
/// ```
/// use gloam_core::{validate_push, Hex, PushConstraint, PushDistance, PushError, SimpleGrid};
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3);
/// let away = [PushConstraint::Away(Hex::new(-1, 0))];
/// let path = [Hex::ORIGIN, Hex::new(1, 0)];
/// assert_eq!(validate_push(&grid, &path, PushDistance::Exactly(1), &away), Ok(()));
/// let sideways = [Hex::ORIGIN, Hex::new(0, -1)];
/// assert!(matches!(
///     validate_push(&grid, &sideways, PushDistance::Exactly(1), &away),
///     Err(PushError::Constraint { step: 1, .. })
/// ));
/// ```
pub fn validate_push<G: Grid + ?Sized>(
    grid: &G,
    path: &[Hex],
    distance: PushDistance,
    constraints: &[PushConstraint],
) -> Result<(), PushError> {
    let (&start, steps) = match path.split_first() {
        Some((start, steps)) if !steps.is_empty() => (start, steps),
        _ => return Err(PushError::TooShort { len: path.len() }),
    };
    let fits = u32::try_from(steps.len()).is_ok_and(|count| distance.allows(count));
    if !fits {
        return Err(PushError::WrongLength {
            steps: steps.len(),
            expected: distance,
        });
    }
    if !grid.contains(start) {
        return Err(StepError::StartOffBattlefield { hex: start }.into());
    }
    let mut from = start;
    let mut previous = None;
    for (offset, &to) in steps.iter().enumerate() {
        let step = offset + 1;
        check_step(grid, start, step, from, to, Passage::WALKING)?;
        let Some(direction) = Direction::from_offset(to.sub(from)) else {
            return Err(StepError::NotAdjacent { step, from, to }.into());
        };
        if let Some(&constraint) = constraints
            .iter()
            .find(|constraint| !constraint.allows_step(from, to, direction, previous))
        {
            return Err(PushError::Constraint {
                step,
                from,
                to,
                constraint,
            });
        }
        previous = Some(direction);
        from = to;
    }
    if from == start {
        return Err(PushError::EndsWhereStarted { hex: start });
    }
    Ok(())
}

/// The hexes a piece in `defender` can be driven back into: adjacent empty hexes farther from
/// `away_from` (normally the attacker) than `defender`, in [`Direction::ALL`] order.
///
/// This is a push of exactly 1 hex with [`PushConstraint::Away`], the drive back of all three
/// editions (Shadespire 2.6, Harrowdeep 3.7, Embergard 4.8). Whether the defender may be
/// driven back at all (Guard, stand fast, a failed attack) is the ruleset's business, as is a
/// grapple (Embergard), which is a 1-hex push with no constraint.
///
/// # Examples
///
/// ```
/// use gloam_core::{drive_back_hexes, Hex, SimpleGrid};
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3).with_blocked([Hex::new(1, 0)]);
/// let attacker = Hex::new(-1, 0);
/// assert_eq!(drive_back_hexes(&grid, Hex::ORIGIN, attacker), vec![Hex::new(0, 1), Hex::new(1, -1)]);
/// ```
pub fn drive_back_hexes<G: Grid + ?Sized>(grid: &G, defender: Hex, away_from: Hex) -> Vec<Hex> {
    if !grid.contains(defender) {
        return Vec::new();
    }
    let before = away_from.distance_to(defender);
    defender
        .neighbors()
        .into_iter()
        .filter(|&next| grid.is_empty_hex(next) && away_from.distance_to(next) > before)
        .collect()
}

/// Whether a piece in `defender` has no hex to be driven back into, away from `attacker`.
///
/// This is the geometry of Harrowdeep's trapped test (ambiguity H4: no adjacent empty hex
/// farther from the attacker; blocked, occupied and off-battlefield hexes do not help, lethal
/// hexes do since they are empty) and of Shadespire's. A defender that cannot be driven back
/// at all (on Guard in Harrowdeep) is never trapped: the ruleset checks that first.
/// Embergard has no trapped rule, and knockback ignores it.
///
/// # Examples
///
/// ```
/// use gloam_core::{is_trapped, Hex, SimpleGrid};
/// let attacker = Hex::new(-1, 0);
/// let behind = [Hex::new(1, 0), Hex::new(0, 1), Hex::new(1, -1)];
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3).with_occupied(behind);
/// assert!(is_trapped(&grid, Hex::ORIGIN, attacker));
/// ```
pub fn is_trapped<G: Grid + ?Sized>(grid: &G, defender: Hex, attacker: Hex) -> bool {
    drive_back_hexes(grid, defender, attacker).is_empty()
}

/// The hexes a knockback can carry a piece on from `from`, one after the other, continuing
/// in `direction` (the direction of the drive back) for at most `extra` hexes and stopping
/// before the first hex that is not empty. The ruleset picks how many to use (knockback is
/// "up to X").
///
/// The result is at most [`MAX_PUSH_DISTANCE`] long. A drive back followed by knockback X is
/// the same set of pushes as [`push_destinations`] with `PushDistance::UpTo(1 + X)` and
/// `[PushConstraint::Away(attacker), PushConstraint::Straight]`: on a straight line every
/// step after one step away is again away.
///
/// # Examples
///
/// ```
/// use gloam_core::{knockback_hexes, Direction, Hex, SimpleGrid};
/// // Shadespire 2.6: knockback stops where a blocked hex prevents further movement.
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 4).with_blocked([Hex::new(3, 0)]);
/// let hexes = knockback_hexes(&grid, Hex::new(1, 0), Direction::East, 3);
/// assert_eq!(hexes, vec![Hex::new(2, 0)]);
/// ```
pub fn knockback_hexes<G: Grid + ?Sized>(
    grid: &G,
    from: Hex,
    direction: Direction,
    extra: u32,
) -> Vec<Hex> {
    let mut hexes = Vec::new();
    let mut current = from;
    for _ in 0..extra.min(MAX_PUSH_DISTANCE) {
        let next = current.neighbor(direction);
        if !grid.is_empty_hex(next) {
            break;
        }
        hexes.push(next);
        current = next;
    }
    hexes
}

/// A state of the layered push search.
struct PushNode {
    hex: Hex,
    last: Option<Direction>,
    parent: usize,
}

/// A search state: the hex and, when [`PushConstraint::Straight`] is in force, the last
/// direction (the only history any constraint reads).
type PushKey = (Hex, Option<Direction>);

/// The step rule of one push.
struct PushSearch<'a, G: ?Sized> {
    grid: &'a G,
    start: Hex,
    distance: PushDistance,
    constraints: &'a [PushConstraint],
    tracks_direction: bool,
}

impl<'a, G: Grid + ?Sized> PushSearch<'a, G> {
    fn new(
        grid: &'a G,
        start: Hex,
        distance: PushDistance,
        constraints: &'a [PushConstraint],
    ) -> Result<Self, PushError> {
        if distance.max() > MAX_PUSH_DISTANCE {
            return Err(PushError::TooFar {
                distance: distance.max(),
                max: MAX_PUSH_DISTANCE,
            });
        }
        Ok(PushSearch {
            grid,
            start,
            distance,
            constraints,
            tracks_direction: constraints.contains(&PushConstraint::Straight),
        })
    }

    /// The hex entered by a legal step from `from` in `direction`.
    fn step(&self, from: Hex, last: Option<Direction>, direction: Direction) -> Option<Hex> {
        let next = from.neighbor(direction);
        let enterable = next == self.start || self.grid.is_empty_hex(next);
        let allowed = enterable
            && self
                .constraints
                .iter()
                .all(|constraint| constraint.allows_step(from, next, direction, last));
        allowed.then_some(next)
    }

    fn key(&self, hex: Hex, direction: Direction) -> PushKey {
        (hex, self.tracks_direction.then_some(direction))
    }
}

/// The depth-first listing of every push path; subtrees that list nothing are remembered
/// (by step count and state) so that dead ends are explored once.
struct PathWalk<'s, 'a, G: ?Sized> {
    search: &'s PushSearch<'a, G>,
    limit: usize,
    out: &'s mut Vec<PushPath>,
    dead: BTreeSet<(usize, PushKey)>,
}

impl<G: Grid + ?Sized> PathWalk<'_, '_, G> {
    /// Lists the continuations of `path`; whether any was listed.
    fn extend(&mut self, path: &mut Vec<Hex>, last: Option<Direction>) -> Result<bool, PushError> {
        let steps = path.len();
        let within = u32::try_from(steps).is_ok_and(|steps| steps <= self.search.distance.max());
        let Some(&from) = path.last() else {
            return Ok(false);
        };
        if !within {
            return Ok(false);
        }
        let mut listed = false;
        for direction in Direction::ALL {
            let Some(next) = self.search.step(from, last, direction) else {
                continue;
            };
            let state = (steps, self.search.key(next, direction));
            if self.dead.contains(&state) {
                continue;
            }
            path.push(next);
            let mut alive = false;
            let counts = u32::try_from(steps).is_ok_and(|steps| self.search.distance.allows(steps));
            if next != self.search.start && counts {
                if self.out.len() >= self.limit {
                    return Err(PushError::TooManyPaths { limit: self.limit });
                }
                self.out.push(PushPath {
                    hexes: path.clone(),
                });
                alive = true;
            }
            alive |= self.extend(path, Some(direction))?;
            path.pop();
            if !alive {
                self.dead.insert(state);
            }
            listed |= alive;
        }
        Ok(listed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::SimpleGrid;

    fn h(q: i32, r: i32) -> Hex {
        Hex::new(q, r)
    }

    fn destinations(paths: &[PushPath]) -> Vec<Hex> {
        paths.iter().map(PushPath::destination).collect()
    }

    #[test]
    fn push_destinations_free_one_hex_lists_empty_neighbours() {
        // Shadespire 2.6: a push goes in any direction unless the rule says otherwise.
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2).with_occupied([h(1, 0)]);
        let pushes = push_destinations(&grid, Hex::ORIGIN, PushDistance::Exactly(1), &[])
            .unwrap_or_default();
        assert_eq!(
            destinations(&pushes),
            vec![h(-1, 0), h(-1, 1), h(0, -1), h(0, 1), h(1, -1)]
        );
    }

    #[test]
    fn push_destinations_exactly_two_may_not_end_at_start() {
        // Harrowdeep H15: a push may revisit hexes but not end where it started.
        let grid = SimpleGrid::new([h(0, 0), h(1, 0)]);
        let exact = push_destinations(&grid, h(0, 0), PushDistance::Exactly(2), &[]);
        assert_eq!(exact, Ok(Vec::new()));
        let three =
            push_destinations(&grid, h(0, 0), PushDistance::Exactly(3), &[]).unwrap_or_default();
        assert_eq!(destinations(&three), vec![h(1, 0)]);
        assert_eq!(three[0].hexes(), &[h(0, 0), h(1, 0), h(0, 0), h(1, 0)]);
    }

    #[test]
    fn push_destinations_up_to_keeps_shortest_path() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3);
        let pushes =
            push_destinations(&grid, Hex::ORIGIN, PushDistance::UpTo(3), &[]).unwrap_or_default();
        assert_eq!(pushes.len(), 36);
        assert!(
            pushes
                .iter()
                .all(|push| push.steps() == Hex::ORIGIN.distance_to(push.destination()).max(1))
        );
    }

    #[test]
    fn push_destinations_same_direction_goes_straight() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3);
        let constraint = [PushConstraint::SameDirection(Direction::NorthEast)];
        let pushes = push_destinations(&grid, Hex::ORIGIN, PushDistance::UpTo(5), &constraint)
            .unwrap_or_default();
        assert_eq!(destinations(&pushes), vec![h(1, -1), h(2, -2), h(3, -3)]);
    }

    #[test]
    fn push_destinations_too_far_is_an_error() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 1);
        assert_eq!(
            push_destinations(&grid, Hex::ORIGIN, PushDistance::UpTo(65), &[]),
            Err(PushError::TooFar {
                distance: 65,
                max: MAX_PUSH_DISTANCE
            })
        );
    }

    #[test]
    fn push_destinations_zero_or_off_battlefield_is_empty() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 1);
        assert_eq!(
            push_destinations(&grid, Hex::ORIGIN, PushDistance::Exactly(0), &[]),
            Ok(Vec::new())
        );
        assert_eq!(
            push_destinations(&grid, h(5, 5), PushDistance::Exactly(1), &[]),
            Ok(Vec::new())
        );
    }

    #[test]
    fn push_paths_dead_ends_are_not_listed() {
        // Away pushes on a strip die out once the strip ends.
        let grid = SimpleGrid::new((0..4).map(|q| h(q, 0)));
        let away = [PushConstraint::Away(h(-1, 0))];
        assert_eq!(
            push_paths(&grid, h(0, 0), PushDistance::Exactly(5), &away, 10),
            Ok(Vec::new())
        );
        let paths =
            push_paths(&grid, h(0, 0), PushDistance::UpTo(5), &away, 10).unwrap_or_default();
        assert_eq!(destinations(&paths), vec![h(1, 0), h(2, 0), h(3, 0)]);
    }

    #[test]
    fn validate_push_reports_each_failure() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2)
            .with_blocked([h(1, 0)])
            .with_occupied([h(0, 1), Hex::ORIGIN]);
        let one = PushDistance::Exactly(1);
        assert_eq!(
            validate_push(&grid, &[Hex::ORIGIN], one, &[]),
            Err(PushError::TooShort { len: 1 })
        );
        assert_eq!(
            validate_push(&grid, &[Hex::ORIGIN, h(-1, 0), h(-2, 0)], one, &[]),
            Err(PushError::WrongLength {
                steps: 2,
                expected: one
            })
        );
        assert_eq!(
            validate_push(&grid, &[h(9, 9), h(9, 8)], one, &[]),
            Err(PushError::Step(StepError::StartOffBattlefield {
                hex: h(9, 9)
            }))
        );
        assert_eq!(
            validate_push(&grid, &[Hex::ORIGIN, h(2, 0)], one, &[]),
            Err(PushError::Step(StepError::NotAdjacent {
                step: 1,
                from: Hex::ORIGIN,
                to: h(2, 0)
            }))
        );
        assert_eq!(
            validate_push(&grid, &[Hex::ORIGIN, h(1, 0)], one, &[]),
            Err(PushError::Step(StepError::Blocked {
                step: 1,
                hex: h(1, 0)
            }))
        );
        assert_eq!(
            validate_push(&grid, &[Hex::ORIGIN, h(0, 1)], one, &[]),
            Err(PushError::Step(StepError::Occupied {
                step: 1,
                hex: h(0, 1)
            }))
        );
        assert_eq!(
            validate_push(&grid, &[h(-2, 0), h(-3, 0)], one, &[]),
            Err(PushError::Step(StepError::OffBattlefield {
                step: 1,
                hex: h(-3, 0)
            }))
        );
        assert_eq!(
            validate_push(
                &grid,
                &[Hex::ORIGIN, h(-1, 0), Hex::ORIGIN],
                PushDistance::UpTo(2),
                &[]
            ),
            Err(PushError::EndsWhereStarted { hex: Hex::ORIGIN })
        );
        let straight = [PushConstraint::Straight];
        let error = validate_push(
            &grid,
            &[Hex::ORIGIN, h(-1, 0), h(-1, -1)],
            PushDistance::UpTo(2),
            &straight,
        );
        assert_eq!(
            error.map_err(|error| error.to_string()),
            Err("step 2 from (-1, 0) to (-1, -1) is not in the direction of the first step".into())
        );
    }

    #[test]
    fn drive_back_hexes_off_battlefield_defender_has_none() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 1);
        assert!(drive_back_hexes(&grid, h(4, 0), Hex::ORIGIN).is_empty());
    }

    #[test]
    fn is_trapped_at_battlefield_edge_with_attacker_inside() {
        // Harrowdeep H4: off-battlefield hexes do not help the defender.
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2);
        assert!(is_trapped(&grid, h(2, 0), h(1, 0)));
        assert!(!is_trapped(&grid, h(1, 0), Hex::ORIGIN));
    }

    #[test]
    fn push_path_accessors_describe_the_push() {
        let path = PushPath {
            hexes: vec![h(0, 0), h(1, 0), h(1, 1)],
        };
        assert_eq!(path.start(), h(0, 0));
        assert_eq!(path.destination(), h(1, 1));
        assert_eq!(path.entered(), &[h(1, 0), h(1, 1)]);
        assert_eq!(path.steps(), 2);
        assert_eq!(path.last_direction(), Some(Direction::SouthEast));
    }
}
