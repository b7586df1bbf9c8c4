//! Moves across a hex battlefield: the hexes a piece can reach and the check of a given path.
//!
//! The kernel knows no board of any game: a ruleset (or host) describes its terrain through
//! the [`Grid`] trait, and [`SimpleGrid`] is a ready-made implementation. A move steps from hex
//! to adjacent hex; each hex entered costs [`Grid::entry_cost`] (1 unless a ruleset says
//! otherwise), and the steps' total must stay within the move's budget (a fighter's Move).
//!
//! Which hexes may be passed through is a [`Passage`]: walking pieces enter only empty hexes
//! (on the battlefield, not blocked, not occupied); flying pieces may also pass blocked and/or
//! occupied hexes, but every move still ends in an empty hex other than the start.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use serde::{Deserialize, Serialize};

use crate::hex::{Direction, Hex};

/// The terrain that moves and pushes cross, as a ruleset's battlefield describes it.
///
/// The piece that moves stands in its own start hex, which the grid may report as occupied:
/// the functions of this module never count the mover as blocking itself.
///
/// # Examples
///
/// ```
/// use gloam_core::{Grid, Hex, SimpleGrid};
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2).with_blocked([Hex::new(1, 0)]);
/// assert!(grid.contains(Hex::new(1, 0)));
/// assert!(grid.blocks_movement(Hex::new(1, 0)));
/// assert!(!grid.is_empty_hex(Hex::new(1, 0)));
/// assert!(grid.is_empty_hex(Hex::new(0, 1)));
/// ```
pub trait Grid {
    /// Whether `hex` is a hex of the battlefield (incomplete hexes are not).
    fn contains(&self, hex: Hex) -> bool;

    /// Whether `hex` can be neither entered nor passed through by a walking piece (a blocked hex).
    fn blocks_movement(&self, hex: Hex) -> bool;

    /// Whether a piece stands in `hex`.
    fn is_occupied(&self, hex: Hex) -> bool;

    /// The cost of entering `hex`; 1 unless a ruleset says otherwise. A cost of 0 counts as 1:
    /// every step costs at least one.
    fn entry_cost(&self, _hex: Hex) -> u32 {
        1
    }

    /// Whether `hex` is empty: on the battlefield, not blocked and not occupied.
    fn is_empty_hex(&self, hex: Hex) -> bool {
        self.contains(hex) && !self.blocks_movement(hex) && !self.is_occupied(hex)
    }
}

impl<G: Grid + ?Sized> Grid for &G {
    fn contains(&self, hex: Hex) -> bool {
        (**self).contains(hex)
    }

    fn blocks_movement(&self, hex: Hex) -> bool {
        (**self).blocks_movement(hex)
    }

    fn is_occupied(&self, hex: Hex) -> bool {
        (**self).is_occupied(hex)
    }

    fn entry_cost(&self, hex: Hex) -> u32 {
        (**self).entry_cost(hex)
    }

    fn is_empty_hex(&self, hex: Hex) -> bool {
        (**self).is_empty_hex(hex)
    }
}

/// A [`Grid`] held in ordered sets: the battlefield's hexes, the blocked and the occupied ones,
/// and optional per-hex entry costs (every other hex costs 1).
///
/// # Examples
///
/// ```
/// use gloam_core::{Grid, Hex, SimpleGrid};
/// let mut grid = SimpleGrid::new([Hex::new(0, 0), Hex::new(1, 0)]).with_cost(Hex::new(1, 0), 2);
/// grid.set_occupied(Hex::new(0, 0), true);
/// assert!(grid.is_occupied(Hex::new(0, 0)));
/// assert_eq!(grid.entry_cost(Hex::new(1, 0)), 2);
/// assert!(!grid.contains(Hex::new(2, 0)));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimpleGrid {
    hexes: BTreeSet<Hex>,
    blocked: BTreeSet<Hex>,
    occupied: BTreeSet<Hex>,
    costs: BTreeMap<Hex, u32>,
}

impl SimpleGrid {
    /// A battlefield of the given hexes, none blocked or occupied, every entry costing 1.
    pub fn new(hexes: impl IntoIterator<Item = Hex>) -> SimpleGrid {
        SimpleGrid {
            hexes: hexes.into_iter().collect(),
            ..SimpleGrid::default()
        }
    }

    /// A hexagonal battlefield: every hex within `radius` of `center`.
    pub fn hexagon(center: Hex, radius: u32) -> SimpleGrid {
        SimpleGrid::new(center.range(radius))
    }

    /// This grid with `hexes` blocked as well.
    pub fn with_blocked(mut self, hexes: impl IntoIterator<Item = Hex>) -> SimpleGrid {
        self.blocked.extend(hexes);
        self
    }

    /// This grid with `hexes` occupied as well.
    pub fn with_occupied(mut self, hexes: impl IntoIterator<Item = Hex>) -> SimpleGrid {
        self.occupied.extend(hexes);
        self
    }

    /// This grid with entering `hex` costing `cost`.
    pub fn with_cost(mut self, hex: Hex, cost: u32) -> SimpleGrid {
        self.set_cost(hex, cost);
        self
    }

    /// Marks `hex` blocked or not.
    pub fn set_blocked(&mut self, hex: Hex, blocked: bool) {
        if blocked {
            self.blocked.insert(hex);
        } else {
            self.blocked.remove(&hex);
        }
    }

    /// Marks `hex` occupied or not.
    pub fn set_occupied(&mut self, hex: Hex, occupied: bool) {
        if occupied {
            self.occupied.insert(hex);
        } else {
            self.occupied.remove(&hex);
        }
    }

    /// Sets the cost of entering `hex` (1 is the default and is not stored).
    pub fn set_cost(&mut self, hex: Hex, cost: u32) {
        if cost == 1 {
            self.costs.remove(&hex);
        } else {
            self.costs.insert(hex, cost);
        }
    }

    /// The battlefield's hexes, sorted.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        self.hexes.iter().copied()
    }
}

impl Grid for SimpleGrid {
    fn contains(&self, hex: Hex) -> bool {
        self.hexes.contains(&hex)
    }

    fn blocks_movement(&self, hex: Hex) -> bool {
        self.blocked.contains(&hex)
    }

    fn is_occupied(&self, hex: Hex) -> bool {
        self.occupied.contains(&hex)
    }

    fn entry_cost(&self, hex: Hex) -> u32 {
        self.costs.get(&hex).copied().unwrap_or(1)
    }
}

/// Which hexes a move may pass through (it always *ends* in an empty hex).
///
/// Walking pieces pass only empty hexes. Harrowdeep's Flying trait, on a Move action, passes
/// blocked and occupied hexes ([`Passage::FLYING`]); Embergard's Flying runemark passes occupied
/// hexes only ([`Passage::THROUGH_OCCUPIED`]). No passage leaves the battlefield.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Passage {
    /// The move may pass through blocked hexes.
    pub through_blocked: bool,
    /// The move may pass through occupied hexes.
    pub through_occupied: bool,
}

impl Passage {
    /// Only empty hexes may be entered.
    pub const WALKING: Passage = Passage {
        through_blocked: false,
        through_occupied: false,
    };

    /// Blocked and occupied hexes may be passed through.
    pub const FLYING: Passage = Passage {
        through_blocked: true,
        through_occupied: true,
    };

    /// Occupied (but not blocked) hexes may be passed through.
    pub const THROUGH_OCCUPIED: Passage = Passage {
        through_blocked: false,
        through_occupied: true,
    };
}

/// Why one step of a host-given path (a move or a push) is illegal; `step` counts from 1
/// (step `k` enters `path[k]`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StepError {
    /// The start hex is not on the battlefield.
    #[error("it starts in {hex}, which is not on the battlefield")]
    StartOffBattlefield {
        /// The start hex.
        hex: Hex,
    },
    /// A step does not go to an adjacent hex.
    #[error("step {step} goes from {from} to {to}, which is not adjacent")]
    NotAdjacent {
        /// The step number, from 1.
        step: usize,
        /// The hex left.
        from: Hex,
        /// The hex entered.
        to: Hex,
    },
    /// A step leaves the battlefield.
    #[error("step {step} enters {hex}, which is not on the battlefield")]
    OffBattlefield {
        /// The step number, from 1.
        step: usize,
        /// The hex entered.
        hex: Hex,
    },
    /// A step enters a blocked hex it may not cross.
    #[error("step {step} enters blocked hex {hex}")]
    Blocked {
        /// The step number, from 1.
        step: usize,
        /// The hex entered.
        hex: Hex,
    },
    /// A step enters an occupied hex it may not cross.
    #[error("step {step} enters occupied hex {hex}")]
    Occupied {
        /// The step number, from 1.
        step: usize,
        /// The hex entered.
        hex: Hex,
    },
}

/// Checks step `step` of a path that started at `start`, from `from` to `to`. The start
/// hex never blocks (the mover stands there).
pub(crate) fn check_step<G: Grid + ?Sized>(
    grid: &G,
    start: Hex,
    step: usize,
    from: Hex,
    to: Hex,
    passage: Passage,
) -> Result<(), StepError> {
    if !from.is_adjacent(to) {
        return Err(StepError::NotAdjacent { step, from, to });
    }
    if !grid.contains(to) {
        return Err(StepError::OffBattlefield { step, hex: to });
    }
    if to != start {
        if !passage.through_blocked && grid.blocks_movement(to) {
            return Err(StepError::Blocked { step, hex: to });
        }
        if !passage.through_occupied && grid.is_occupied(to) {
            return Err(StepError::Occupied { step, hex: to });
        }
    }
    Ok(())
}

/// Why a host-given move path is illegal; `step` counts from 1 (step `k` enters `path[k]`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveError {
    /// The path has no step.
    #[error("move path has {len} hexes; a move needs its start hex and at least one step")]
    TooShort {
        /// Number of hexes in the path.
        len: usize,
    },
    /// A step of the path is illegal.
    #[error("illegal move: {0}")]
    Step(#[from] StepError),
    /// The move ends where it started.
    #[error("move ends where it started, in {hex}")]
    EndsWhereStarted {
        /// The start hex.
        hex: Hex,
    },
    /// The move ends in a blocked or occupied hex (possible only when passing through them).
    #[error("move ends in {hex}, which is not empty")]
    EndsNotEmpty {
        /// The end hex.
        hex: Hex,
    },
    /// The steps cost more than the budget.
    #[error("move costs {cost}, more than its budget of {budget}")]
    OverBudget {
        /// Total cost of the path (saturating).
        cost: u32,
        /// The budget allowed.
        budget: u32,
    },
}

/// Every hex a move can end in, each with its least cost and one shortest path.
///
/// The start hex is never a destination (a move may not end where it started), and neither is
/// a blocked or occupied hex that a flying move only passes through. Among equally cheap paths
/// the one kept is fixed: the hex before each hex on the path is the smallest (by `Hex`'s
/// ordering, `q` then `r`) of its neighbours from which a cheapest path continues.
///
/// # Examples
///
/// ```
/// use gloam_core::{reachable, Hex, SimpleGrid};
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3).with_blocked([Hex::new(1, 0)]);
/// let reach = reachable(&grid, Hex::ORIGIN, 3);
/// // (2, 0) lies straight behind the blocked hex: the move goes around it.
/// assert_eq!(reach.cost(Hex::new(2, 0)), Some(3));
/// assert_eq!(reach.path_to(Hex::new(2, 0)).map(|path| path.len()), Some(4));
/// assert!(!reach.contains(Hex::ORIGIN));
/// assert!(!reach.contains(Hex::new(1, 0)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    window: Window,
    destinations: usize,
}

impl Reach {
    /// The hex the move starts from.
    pub fn start(&self) -> Hex {
        self.window.origin
    }

    /// Whether the move can end in `hex`.
    pub fn contains(&self, hex: Hex) -> bool {
        self.destination_cell(hex).is_some()
    }

    /// The least cost of a move ending in `hex`, if it can end there.
    pub fn cost(&self, hex: Hex) -> Option<u32> {
        self.destination_cell(hex).map(|cell| cell.cost)
    }

    /// The kept shortest path to `hex`, from the start hex (first) to `hex` (last), if the move
    /// can end there. Every hex entered on the way is listed, so a ruleset can see which
    /// lethal or stagger hexes the move crosses.
    pub fn path_to(&self, hex: Hex) -> Option<Vec<Hex>> {
        self.destination_cell(hex)?;
        let start = self.start();
        let mut path = vec![hex];
        let mut current = hex;
        // Each step back lowers the cost by at least one, so the walk is at most `cost` long;
        // the bound only guards against a corrupted window.
        while current != start && path.len() <= self.window.cells.len() {
            let cell = self.window.cell(current)?;
            let back = Direction::ALL.get(usize::from(cell.back))?;
            current = current.neighbor(*back);
            path.push(current);
        }
        path.reverse();
        Some(path)
    }

    /// Every hex the move can end in, sorted.
    pub fn hexes(&self) -> Vec<Hex> {
        let mut out = Vec::with_capacity(self.destinations);
        out.extend(
            self.window
                .cells
                .iter()
                .enumerate()
                .filter(|(_, cell)| cell.is_destination())
                .map(|(index, _)| self.window.hex_at(index)),
        );
        out
    }

    /// Number of hexes the move can end in.
    pub fn len(&self) -> usize {
        self.destinations
    }

    /// Whether the move can end nowhere.
    pub fn is_empty(&self) -> bool {
        self.destinations == 0
    }

    fn destination_cell(&self, hex: Hex) -> Option<&Cell> {
        self.window.cell(hex).filter(|cell| cell.is_destination())
    }
}

/// Every hex a walking move of total cost at most `budget` can end in, passing only empty hexes.
///
/// An empty result if `from` is not on the battlefield. See [`Reach`] for the paths kept.
///
/// # Examples
///
/// ```
/// use gloam_core::{reachable, Hex, SimpleGrid};
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3).with_occupied([Hex::new(1, 0)]);
/// let reach = reachable(&grid, Hex::ORIGIN, 1);
/// assert_eq!(reach.len(), 5);
/// assert!(!reach.contains(Hex::new(1, 0)));
/// ```
pub fn reachable<G: Grid + ?Sized>(grid: &G, from: Hex, budget: u32) -> Reach {
    reachable_avoiding(grid, from, budget, Passage::WALKING, |_| false)
}

/// Every hex a flying move of total cost at most `budget` can end in: it may pass blocked and
/// occupied hexes of the battlefield but ends in an empty one ([`Passage::FLYING`]).
///
/// # Examples
///
/// ```
/// use gloam_core::{reachable_flying, Hex, SimpleGrid};
/// let wall = [Hex::new(1, -1), Hex::new(1, 0), Hex::new(0, 1)];
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3).with_blocked(wall);
/// let reach = reachable_flying(&grid, Hex::ORIGIN, 2);
/// assert!(reach.contains(Hex::new(2, 0)));
/// assert!(!reach.contains(Hex::new(1, 0)));
/// ```
pub fn reachable_flying<G: Grid + ?Sized>(grid: &G, from: Hex, budget: u32) -> Reach {
    reachable_avoiding(grid, from, budget, Passage::FLYING, |_| false)
}

/// Every hex a move can end in, with the given [`Passage`], never entering a hex for which
/// `avoid` is true (say, the lethal hexes a fighter will not cross). The start hex is never
/// tested against `avoid`.
///
/// Entry costs come from [`Grid::entry_cost`] (0 counts as 1); the search is Dijkstra's, which
/// with uniform costs visits hexes as a breadth-first search would. The result does not depend
/// on the order in which the grid is queried.
///
/// # Examples
///
/// ```
/// use gloam_core::{reachable_avoiding, Hex, Passage, SimpleGrid};
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3);
/// let lethal = Hex::new(1, 0);
/// let reach = reachable_avoiding(&grid, Hex::ORIGIN, 2, Passage::WALKING, |hex| hex == lethal);
/// assert!(!reach.contains(lethal));
/// assert!(!reach.contains(Hex::new(2, 0)));
/// assert_eq!(reach.cost(Hex::new(2, -1)), Some(2));
/// ```
pub fn reachable_avoiding<G, F>(
    grid: &G,
    from: Hex,
    budget: u32,
    passage: Passage,
    avoid: F,
) -> Reach
where
    G: Grid + ?Sized,
    F: Fn(Hex) -> bool,
{
    search(grid, from, budget, passage, avoid, Until::All)
}

/// The path [`reachable_avoiding`] gives to `to` ([`Reach::path_to`]), found by a search
/// that stops once `to` is settled: every hex before it on a cheapest path costs less, so
/// is settled first, and the path (with its tie-breaks) is the same. `None` when no move
/// within `budget` ends in `to`.
///
/// # Examples
///
/// ```
/// use gloam_core::{path_avoiding, reachable, Hex, Passage, SimpleGrid};
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3).with_blocked([Hex::new(1, 0)]);
/// let to = Hex::new(2, 0);
/// let path = path_avoiding(&grid, Hex::ORIGIN, to, 6, Passage::WALKING, |_| false);
/// assert_eq!(path, reachable(&grid, Hex::ORIGIN, 6).path_to(to));
/// assert_eq!(path.map(|path| path.len()), Some(4));
/// ```
pub fn path_avoiding<G, F>(
    grid: &G,
    from: Hex,
    to: Hex,
    budget: u32,
    passage: Passage,
    avoid: F,
) -> Option<Vec<Hex>>
where
    G: Grid + ?Sized,
    F: Fn(Hex) -> bool,
{
    search(grid, from, budget, passage, avoid, Until::Settled(to)).path_to(to)
}

/// Whether a move with the given [`Passage`] and total cost at most `budget` can end in
/// some hex: whether [`reachable_avoiding`] would find any, answered without finding them
/// all (the search stops at the first hex it settles that a move can end in).
///
/// # Examples
///
/// ```
/// use gloam_core::{can_reach, Hex, Passage, SimpleGrid};
/// let ring = Hex::ORIGIN.neighbors();
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3).with_occupied(ring);
/// assert!(!can_reach(&grid, Hex::ORIGIN, 4, Passage::WALKING, |_| false));
/// assert!(can_reach(&grid, Hex::ORIGIN, 2, Passage::THROUGH_OCCUPIED, |_| false));
/// assert!(!can_reach(&grid, Hex::ORIGIN, 1, Passage::THROUGH_OCCUPIED, |_| false));
/// ```
pub fn can_reach<G, F>(grid: &G, from: Hex, budget: u32, passage: Passage, avoid: F) -> bool
where
    G: Grid + ?Sized,
    F: Fn(Hex) -> bool,
{
    !search(grid, from, budget, passage, avoid, Until::First).is_empty()
}

/// How far [`search`] goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Until {
    /// Every hex within the budget.
    All,
    /// The first hex settled that a move can end in.
    First,
    /// The given hex, settled.
    Settled(Hex),
}

/// The search of [`reachable_avoiding`], stopped early as `until` says (the reach then
/// holds the hexes settled so far).
fn search<G, F>(grid: &G, from: Hex, budget: u32, passage: Passage, avoid: F, until: Until) -> Reach
where
    G: Grid + ?Sized,
    F: Fn(Hex) -> bool,
{
    let mut window = Window::new(from, budget.min(INITIAL_RADIUS));
    let mut destinations = 0;
    if !grid.contains(from) {
        return Reach {
            window,
            destinations,
        };
    }
    let origin = window.origin_index();
    window.cells[origin] = Cell {
        cost: 0,
        entry: 0,
        back: NO_BACK,
        flags: CHECKED | PASSABLE,
    };
    let mut frontier = BinaryHeap::new();
    frontier.push(Reverse((0u32, from)));
    while let Some(Reverse((cost, hex))) = frontier.pop() {
        let Some(index) = window.index(hex) else {
            continue;
        };
        let cell = &mut window.cells[index];
        if cell.flags & SETTLED != 0 || cost > cell.cost {
            continue;
        }
        cell.flags |= SETTLED;
        if cell.is_destination() {
            destinations += 1;
            if until == Until::First {
                break;
            }
        }
        if until == Until::Settled(hex) {
            break;
        }
        // Every entry costs at least one.
        if cost >= budget {
            continue;
        }
        for (direction_index, direction) in Direction::ALL.into_iter().enumerate() {
            let next = hex.neighbor(direction);
            let next_index = match window.index(next) {
                Some(next_index) => next_index,
                None => {
                    // `next` is within `cost + 1 <= budget` of the start.
                    window.grow(next, budget);
                    match window.index(next) {
                        Some(next_index) => next_index,
                        None => continue,
                    }
                }
            };
            let cell = &mut window.cells[next_index];
            if cell.flags & CHECKED == 0 {
                cell.classify(grid, next, passage, &avoid);
            }
            if cell.flags & PASSABLE == 0 || cell.flags & SETTLED != 0 {
                continue;
            }
            let next_cost = cost.saturating_add(cell.entry);
            if next_cost > budget {
                continue;
            }
            let back = OPPOSITE[direction_index];
            if next_cost < cell.cost {
                cell.cost = next_cost;
                cell.back = back;
                frontier.push(Reverse((next_cost, next)));
            } else if next_cost == cell.cost {
                let kept = next.neighbor(Direction::ALL[usize::from(cell.back)]);
                if hex < kept {
                    cell.back = back;
                }
            }
        }
    }
    Reach {
        window,
        destinations,
    }
}

/// Checks a host-given move path (start hex first) step by step and returns its cost.
///
/// Every step must enter an adjacent hex of the battlefield that the [`Passage`] allows (the
/// mover's own start hex is always allowed); the move must end in an empty hex other than its
/// start, and the entry costs (0 counts as 1) must total at most `budget`. Step errors come
/// first, in path order, then the end hex, then the budget.
///
/// # Examples
///
/// ```
/// use gloam_core::{path_is_legal, Hex, MoveError, Passage, SimpleGrid, StepError};
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3).with_blocked([Hex::new(1, 0)]);
/// let around = [Hex::ORIGIN, Hex::new(1, -1), Hex::new(2, -1)];
/// assert_eq!(path_is_legal(&grid, &around, 3, Passage::WALKING), Ok(2));
/// let through = [Hex::ORIGIN, Hex::new(1, 0), Hex::new(2, 0)];
/// assert_eq!(
///     path_is_legal(&grid, &through, 3, Passage::WALKING),
///     Err(MoveError::Step(StepError::Blocked { step: 1, hex: Hex::new(1, 0) }))
/// );
/// assert_eq!(path_is_legal(&grid, &through, 3, Passage::FLYING), Ok(2));
/// ```
pub fn path_is_legal<G: Grid + ?Sized>(
    grid: &G,
    path: &[Hex],
    budget: u32,
    passage: Passage,
) -> Result<u32, MoveError> {
    let (&start, steps) = match path.split_first() {
        Some((start, steps)) if !steps.is_empty() => (start, steps),
        _ => return Err(MoveError::TooShort { len: path.len() }),
    };
    if !grid.contains(start) {
        return Err(StepError::StartOffBattlefield { hex: start }.into());
    }
    let mut cost = 0u32;
    let mut from = start;
    for (offset, &to) in steps.iter().enumerate() {
        check_step(grid, start, offset + 1, from, to, passage)?;
        cost = cost.saturating_add(grid.entry_cost(to).max(1));
        from = to;
    }
    if from == start {
        return Err(MoveError::EndsWhereStarted { hex: start });
    }
    if grid.blocks_movement(from) || grid.is_occupied(from) {
        return Err(MoveError::EndsNotEmpty { hex: from });
    }
    if cost > budget {
        return Err(MoveError::OverBudget { cost, budget });
    }
    Ok(cost)
}

/// The most marked hexes [`routes_to`] tells apart: each distinct set of them is a route.
pub const MAX_ROUTE_MARKS: usize = 12;

/// The distinct routes of a walking move from `from` to `to` costing at most `budget`, told
/// apart by the set of *marked* hexes they enter (`marked`: say, the lethal hexes a rule
/// reads on the way). One route is kept for each set: the cheapest, and among equally cheap
/// ones the first found by a search that tries hexes in `Hex` order. Each route lists the
/// hexes entered, `to` last (the start is not listed). Routes that enter a hex twice are left
/// out: taking the loop out gives a cheaper route entering no more marked hexes.
///
/// Routes come sorted by the number of marked hexes entered, then cost, then their hexes.
/// Empty when `to` is not an empty hex the move can end in within `budget`. Only the marked
/// hexes that some route within `budget` could enter count (at most [`MAX_ROUTE_MARKS`];
/// more is an error naming how many).
///
/// # Examples
///
/// ```
/// use gloam_core::{routes_to, Hex, SimpleGrid};
/// let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3);
/// let lethal = Hex::new(1, 0);
/// let routes = routes_to(&grid, Hex::ORIGIN, Hex::new(2, -1), 2, |hex| hex == lethal).unwrap();
/// // Around the lethal hex, or through it.
/// assert_eq!(routes, vec![
///     vec![Hex::new(1, -1), Hex::new(2, -1)],
///     vec![Hex::new(1, 0), Hex::new(2, -1)],
/// ]);
/// ```
pub fn routes_to<G, F>(
    grid: &G,
    from: Hex,
    to: Hex,
    budget: u32,
    marked: F,
) -> Result<Vec<Vec<Hex>>, usize>
where
    G: Grid + ?Sized,
    F: Fn(Hex) -> bool,
{
    if from == to || !grid.contains(from) || !grid.is_empty_hex(to) {
        return Ok(Vec::new());
    }
    let budget_distance = |hex: Hex| from.distance_to(hex).saturating_add(hex.distance_to(to));
    // The marked hexes some route could enter: within budget on the way from `from` to `to`.
    let reach = reachable(grid, from, budget);
    if !reach.contains(to) {
        return Ok(Vec::new());
    }
    let marks: Vec<Hex> = reach
        .hexes()
        .into_iter()
        .filter(|&hex| marked(hex) && budget_distance(hex) <= budget)
        .collect();
    if marks.len() > MAX_ROUTE_MARKS {
        return Err(marks.len());
    }
    let bit = |hex: Hex| {
        marks
            .binary_search(&hex)
            .map_or(0u32, |index| 1u32 << index)
    };
    // Dijkstra's search over (hex, marks entered so far), with the state before each.
    type State = (Hex, u32);
    let mut best: BTreeMap<State, (u32, Option<State>)> = BTreeMap::new();
    let mut frontier = BinaryHeap::new();
    best.insert((from, 0), (0, None));
    frontier.push(Reverse((0u32, from, 0u32)));
    while let Some(Reverse((cost, hex, mask))) = frontier.pop() {
        if best
            .get(&(hex, mask))
            .is_some_and(|&(known, _)| cost > known)
        {
            continue;
        }
        if hex == to {
            continue;
        }
        let mut neighbours = hex.neighbors();
        neighbours.sort();
        for next in neighbours {
            if next == from || !grid.is_empty_hex(next) {
                continue;
            }
            let next_cost = cost.saturating_add(grid.entry_cost(next).max(1));
            if next_cost.saturating_add(next.distance_to(to)) > budget {
                continue;
            }
            let state = (next, mask | bit(next));
            if best.get(&state).is_none_or(|&(known, _)| next_cost < known) {
                best.insert(state, (next_cost, Some((hex, mask))));
                frontier.push(Reverse((next_cost, next, state.1)));
            }
        }
    }
    let mut routes: Vec<(u32, u32, Vec<Hex>)> = Vec::new();
    for (&(hex, mask), &(cost, _)) in best.range((to, 0)..=(to, u32::MAX)) {
        debug_assert_eq!(hex, to);
        let mut route = Vec::new();
        let mut state = Some((hex, mask));
        while let Some(current) = state {
            if current.0 == from {
                break;
            }
            route.push(current.0);
            state = best.get(&current).and_then(|&(_, back)| back);
        }
        route.reverse();
        let distinct: BTreeSet<Hex> = route.iter().copied().collect();
        if distinct.len() == route.len() {
            routes.push((mask.count_ones(), cost, route));
        }
    }
    routes.sort();
    Ok(routes.into_iter().map(|(_, _, route)| route).collect())
}

/// Radius of the first window; it grows (up to the budget) only if the search reaches farther.
const INITIAL_RADIUS: u32 = 8;

const CHECKED: u8 = 1;
const PASSABLE: u8 = 2;
const DESTINATION: u8 = 4;
const SETTLED: u8 = 8;
const NO_BACK: u8 = 6;

/// Index in [`Direction::ALL`] of the opposite of each direction.
const OPPOSITE: [u8; 6] = [3, 4, 5, 0, 1, 2];

/// What the search knows of one hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    /// Least cost found so far (`u32::MAX` while unreached).
    cost: u32,
    /// Cost of entering the hex, at least 1.
    entry: u32,
    /// Index in [`Direction::ALL`] of the step back to the previous hex on the kept path.
    back: u8,
    /// `CHECKED`, `PASSABLE`, `DESTINATION`, `SETTLED` bits.
    flags: u8,
}

impl Cell {
    const UNSEEN: Cell = Cell {
        cost: u32::MAX,
        entry: 1,
        back: NO_BACK,
        flags: 0,
    };

    fn is_destination(&self) -> bool {
        self.flags & (DESTINATION | SETTLED) == DESTINATION | SETTLED
    }

    fn classify<G, F>(&mut self, grid: &G, hex: Hex, passage: Passage, avoid: &F)
    where
        G: Grid + ?Sized,
        F: Fn(Hex) -> bool,
    {
        self.flags |= CHECKED;
        if !grid.contains(hex) || avoid(hex) {
            return;
        }
        let blocked = grid.blocks_movement(hex);
        let occupied = grid.is_occupied(hex);
        if (!blocked || passage.through_blocked) && (!occupied || passage.through_occupied) {
            self.flags |= PASSABLE;
            self.entry = grid.entry_cost(hex).max(1);
            if !blocked && !occupied {
                self.flags |= DESTINATION;
            }
        }
    }
}

/// A square window of axial coordinates around the start, stored row-major by `q` then `r`,
/// so that walking the cells in order visits hexes in `Hex` order.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Window {
    origin: Hex,
    radius: i64,
    cells: Vec<Cell>,
}

impl Window {
    fn new(origin: Hex, radius: u32) -> Window {
        let radius = i64::from(radius);
        let side = Window::side_for(radius);
        Window {
            origin,
            radius,
            cells: vec![Cell::UNSEEN; side * side],
        }
    }

    fn side_for(radius: i64) -> usize {
        usize::try_from(2 * radius + 1).unwrap_or(usize::MAX)
    }

    fn side(&self) -> usize {
        Window::side_for(self.radius)
    }

    fn origin_index(&self) -> usize {
        let side = self.side();
        side * side / 2
    }

    fn index(&self, hex: Hex) -> Option<usize> {
        let dq = i64::from(hex.q) - i64::from(self.origin.q);
        let dr = i64::from(hex.r) - i64::from(self.origin.r);
        if dq.abs() > self.radius || dr.abs() > self.radius {
            return None;
        }
        let row = usize::try_from(dq + self.radius).ok()?;
        let column = usize::try_from(dr + self.radius).ok()?;
        Some(row * self.side() + column)
    }

    fn hex_at(&self, index: usize) -> Hex {
        let side = self.side();
        // Both quotients are at most `2 * radius`, and radius fits an i32 budget window.
        let dq = i64::try_from(index / side).unwrap_or(0) - self.radius;
        let dr = i64::try_from(index % side).unwrap_or(0) - self.radius;
        Hex::new(
            i32::try_from(i64::from(self.origin.q) + dq).unwrap_or(self.origin.q),
            i32::try_from(i64::from(self.origin.r) + dr).unwrap_or(self.origin.r),
        )
    }

    fn cell(&self, hex: Hex) -> Option<&Cell> {
        self.index(hex).map(|index| &self.cells[index])
    }

    /// Widens the window to hold `hex`, doubling its radius but never past `limit`.
    fn grow(&mut self, hex: Hex, limit: u32) {
        let needed = (i64::from(hex.q) - i64::from(self.origin.q))
            .abs()
            .max((i64::from(hex.r) - i64::from(self.origin.r)).abs());
        let radius = (self.radius * 2).max(needed).min(i64::from(limit));
        if radius <= self.radius {
            return;
        }
        let mut grown = Window {
            origin: self.origin,
            radius,
            cells: vec![Cell::UNSEEN; Window::side_for(radius).pow(2)],
        };
        for (index, cell) in self.cells.iter().enumerate() {
            if *cell != Cell::UNSEEN
                && let Some(new_index) = grown.index(self.hex_at(index))
            {
                grown.cells[new_index] = *cell;
            }
        }
        *self = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(q: i32, r: i32) -> Hex {
        Hex::new(q, r)
    }

    #[test]
    fn reachable_open_hexagon_matches_range() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 4);
        let reach = reachable(&grid, Hex::ORIGIN, 2);
        let mut expected: Vec<Hex> = Hex::ORIGIN.range(2).into_iter().skip(1).collect();
        expected.sort();
        assert_eq!(reach.hexes(), expected);
        assert_eq!(reach.len(), 18);
        for hex in expected {
            assert_eq!(reach.cost(hex), Some(Hex::ORIGIN.distance_to(hex)));
        }
    }

    #[test]
    fn reachable_zero_budget_is_empty() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2);
        let reach = reachable(&grid, Hex::ORIGIN, 0);
        assert!(reach.is_empty());
        assert_eq!(reach.path_to(Hex::ORIGIN), None);
    }

    #[test]
    fn reachable_start_off_battlefield_is_empty() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2);
        assert!(reachable(&grid, h(9, 9), 3).is_empty());
    }

    #[test]
    fn reachable_occupied_start_does_not_block_mover() {
        // Shadespire 2.5 / Harrowdeep 3.6: the mover stands in its own start hex.
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2).with_occupied([Hex::ORIGIN]);
        let reach = reachable(&grid, Hex::ORIGIN, 1);
        assert_eq!(reach.len(), 6);
        assert!(!reach.contains(Hex::ORIGIN));
    }

    #[test]
    fn reachable_tie_keeps_smallest_previous_hex() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3);
        let reach = reachable(&grid, Hex::ORIGIN, 2);
        // (1, 1) is reached through (0, 1) or (1, 0); (0, 1) is the smaller hex.
        assert_eq!(
            reach.path_to(h(1, 1)),
            Some(vec![Hex::ORIGIN, h(0, 1), h(1, 1)])
        );
    }

    #[test]
    fn reachable_large_budget_grows_window() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 12);
        let reach = reachable(&grid, Hex::ORIGIN, 30);
        assert_eq!(reach.len(), Hex::ORIGIN.range(12).len() - 1);
        assert_eq!(reach.cost(h(12, 0)), Some(12));
        let path = reach.path_to(h(-12, 12)).unwrap_or_default();
        assert_eq!(path.len(), 13);
        let mut hexes = reach.hexes();
        let sorted = hexes.clone();
        hexes.sort();
        assert_eq!(hexes, sorted);
    }

    #[test]
    fn reachable_entry_costs_take_cheaper_detour() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3).with_cost(h(1, 0), 5);
        let reach = reachable(&grid, Hex::ORIGIN, 3);
        assert!(!reach.contains(h(1, 0)));
        assert_eq!(reach.cost(h(2, 0)), Some(3));
        let grid = grid.with_cost(h(1, 0), 0);
        assert_eq!(reachable(&grid, Hex::ORIGIN, 3).cost(h(1, 0)), Some(1));
    }

    #[test]
    fn reachable_through_occupied_cannot_cross_blocked() {
        // Embergard 4.14: Flying passes occupied hexes only.
        let grid = SimpleGrid::new([h(0, 0), h(1, 0), h(2, 0), h(3, 0)])
            .with_occupied([h(1, 0)])
            .with_blocked([h(2, 0)]);
        let reach = reachable_avoiding(&grid, h(0, 0), 3, Passage::THROUGH_OCCUPIED, |_| false);
        assert!(reach.is_empty());
        let flying = reachable_flying(&grid, h(0, 0), 3);
        assert_eq!(flying.hexes(), vec![h(3, 0)]);
        assert_eq!(
            flying.path_to(h(3, 0)),
            Some(vec![h(0, 0), h(1, 0), h(2, 0), h(3, 0)])
        );
    }

    #[test]
    fn path_is_legal_reports_each_failure() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 2)
            .with_blocked([h(1, 0)])
            .with_occupied([h(0, 1), Hex::ORIGIN]);
        let walk = Passage::WALKING;
        assert_eq!(
            path_is_legal(&grid, &[Hex::ORIGIN], 3, walk),
            Err(MoveError::TooShort { len: 1 })
        );
        assert_eq!(
            path_is_legal(&grid, &[h(5, 5), h(5, 6)], 3, walk),
            Err(MoveError::Step(StepError::StartOffBattlefield {
                hex: h(5, 5)
            }))
        );
        assert_eq!(
            path_is_legal(&grid, &[Hex::ORIGIN, h(2, 0)], 3, walk),
            Err(MoveError::Step(StepError::NotAdjacent {
                step: 1,
                from: Hex::ORIGIN,
                to: h(2, 0)
            }))
        );
        assert_eq!(
            path_is_legal(&grid, &[Hex::ORIGIN, h(1, -1), h(2, -1), h(3, -1)], 5, walk),
            Err(MoveError::Step(StepError::OffBattlefield {
                step: 3,
                hex: h(3, -1)
            }))
        );
        assert_eq!(
            path_is_legal(&grid, &[Hex::ORIGIN, h(0, 1)], 3, walk),
            Err(MoveError::Step(StepError::Occupied {
                step: 1,
                hex: h(0, 1)
            }))
        );
        assert_eq!(
            path_is_legal(&grid, &[Hex::ORIGIN, h(0, 1)], 3, Passage::FLYING),
            Err(MoveError::EndsNotEmpty { hex: h(0, 1) })
        );
        assert_eq!(
            path_is_legal(&grid, &[Hex::ORIGIN, h(-1, 0), Hex::ORIGIN], 3, walk),
            Err(MoveError::EndsWhereStarted { hex: Hex::ORIGIN })
        );
        assert_eq!(
            path_is_legal(&grid, &[Hex::ORIGIN, h(-1, 0), h(-2, 0)], 1, walk),
            Err(MoveError::OverBudget { cost: 2, budget: 1 })
        );
        // Passing back through the mover's own start hex is fine.
        assert_eq!(
            path_is_legal(
                &grid,
                &[Hex::ORIGIN, h(-1, 0), Hex::ORIGIN, h(0, -1)],
                3,
                walk
            ),
            Ok(3)
        );
    }

    #[test]
    fn move_error_messages_are_lowercase_without_period() {
        let message = MoveError::OverBudget { cost: 4, budget: 3 }.to_string();
        assert_eq!(message, "move costs 4, more than its budget of 3");
    }
    #[test]
    fn routes_to_tells_routes_apart_by_the_marked_hexes_they_enter() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 3);
        let lethal = h(1, 0);
        // Two steps to (2, -1): around the lethal hex by (1, -1), or through it.
        let routes = routes_to(&grid, Hex::ORIGIN, h(2, -1), 2, |hex| hex == lethal).unwrap();
        assert_eq!(
            routes,
            vec![vec![h(1, -1), h(2, -1)], vec![h(1, 0), h(2, -1)]]
        );
        // Nothing marked: one route.
        let routes = routes_to(&grid, Hex::ORIGIN, h(2, -1), 2, |_| false).unwrap();
        assert_eq!(routes, vec![vec![h(1, -1), h(2, -1)]]);
        // (2, 0) lies straight behind the lethal hex: in 2 steps only through it, in 3 also around.
        let routes = routes_to(&grid, Hex::ORIGIN, h(2, 0), 2, |hex| hex == lethal).unwrap();
        assert_eq!(routes, vec![vec![h(1, 0), h(2, 0)]]);
        let routes = routes_to(&grid, Hex::ORIGIN, h(2, 0), 3, |hex| hex == lethal).unwrap();
        assert_eq!(routes.len(), 2);
        assert!(!routes[0].contains(&lethal));
        assert_eq!(routes[1], vec![h(1, 0), h(2, 0)]);
        // Out of reach, the start itself, an occupied end: no route.
        assert!(
            routes_to(&grid, Hex::ORIGIN, h(3, 0), 2, |_| false)
                .unwrap()
                .is_empty()
        );
        assert!(
            routes_to(&grid, Hex::ORIGIN, Hex::ORIGIN, 2, |_| false)
                .unwrap()
                .is_empty()
        );
        let grid = grid.with_occupied([h(2, -1)]);
        assert!(
            routes_to(&grid, Hex::ORIGIN, h(2, -1), 2, |_| false)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn routes_to_refuses_too_many_marked_hexes() {
        let grid = SimpleGrid::hexagon(Hex::ORIGIN, 4);
        let too_many = routes_to(&grid, Hex::ORIGIN, h(2, 0), 8, |hex| hex != h(2, 0));
        assert!(too_many.is_err_and(|count| count > MAX_ROUTE_MARKS));
    }
}
