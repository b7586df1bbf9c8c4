//! Boards as data, and the battlefield made by joining them.
//!
//! A [`Board`] is a set of full hexes, each carrying any number of named hex types
//! (an open vocabulary: `"starting"`, `"blocked"`, `"lethal"`... the kernel gives no
//! name a meaning), plus *half hexes*: the partial hexes printed along its edges.
//! [`Battlefield::join`] places boards ([`Placement`]: a rotation about the board's
//! origin, then an offset) and applies the joining rules that every Underworlds
//! edition shares:
//!
//! - full hexes of two boards never overlap;
//! - a half hex meeting another board's half hex becomes one *completed* hex whose
//!   types are the union of both halves' types;
//! - a half hex landing on a full hex is an error; an unmatched half hex is not part
//!   of the battlefield;
//! - the boards are connected, and every pair of touching boards completes at least
//!   `min_completed` hexes (the number is the ruleset's: 3 in Shadespire, 4 in
//!   Harrowdeep's long-edge layout).
//!
//! Edge hexes are computed from the shape (fewer than six battlefield neighbours),
//! never declared.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::hex::{Direction, Hex};

/// Largest absolute axial coordinate accepted for a board hex or a placement offset.
///
/// The bound keeps every rotation and translation far from `i32` overflow.
pub const BOARD_COORD_LIMIT: i32 = 1 << 24;

/// One hex of a board: its position in the board's own coordinates, its types, and
/// an optional territory that overrides the board's.
///
/// # Examples
///
/// ```
/// use gloam_core::{BoardHex, Hex};
/// let hex = BoardHex::new(Hex::new(1, 0), ["starting"]).with_territory("north");
/// assert!(hex.types.contains("starting"));
/// assert_eq!(hex.territory.as_deref(), Some("north"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardHex {
    /// Position in the board's own coordinates (before placement).
    pub hex: Hex,
    /// Named hex types; the kernel attaches no meaning to any name.
    #[serde(default)]
    pub types: BTreeSet<String>,
    /// Territory of this hex, overriding the board's territory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub territory: Option<String>,
}

impl BoardHex {
    /// A hex with the given types and no territory override.
    pub fn new<I, S>(hex: Hex, types: I) -> BoardHex
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        BoardHex {
            hex,
            types: types.into_iter().map(Into::into).collect(),
            territory: None,
        }
    }

    /// The same hex with a territory override.
    pub fn with_territory(mut self, territory: impl Into<String>) -> BoardHex {
        self.territory = Some(territory.into());
        self
    }
}

/// One board as data: a name, full hexes, half hexes along its edges, an optional
/// territory name.
///
/// # Examples
///
/// ```
/// use gloam_core::{Board, Hex};
/// let board = Board::new("mirror well")
///     .with_territory("north")
///     .with_hex(Hex::new(0, 0), ["starting"])
///     .with_hex(Hex::new(1, 0), Vec::<String>::new())
///     .with_half_hex(Hex::new(0, 1), ["lethal"]);
/// assert_eq!(board.hexes.len(), 2);
/// assert_eq!(board.half_hexes.len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// The board's name, used in error messages.
    pub name: String,
    /// Territory of every hex of this board, unless a hex overrides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub territory: Option<String>,
    /// The full hexes.
    #[serde(default)]
    pub hexes: Vec<BoardHex>,
    /// The partial hexes along the edges; whole only when another board's half hex
    /// lands on the same position.
    #[serde(default)]
    pub half_hexes: Vec<BoardHex>,
}

impl Board {
    /// An empty board with a name and no territory.
    pub fn new(name: impl Into<String>) -> Board {
        Board {
            name: name.into(),
            territory: None,
            hexes: Vec::new(),
            half_hexes: Vec::new(),
        }
    }

    /// The same board with a territory name for all its hexes.
    pub fn with_territory(mut self, territory: impl Into<String>) -> Board {
        self.territory = Some(territory.into());
        self
    }

    /// The same board with one more full hex.
    pub fn with_hex<I, S>(mut self, hex: Hex, types: I) -> Board
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.hexes.push(BoardHex::new(hex, types));
        self
    }

    /// The same board with one more half hex.
    pub fn with_half_hex<I, S>(mut self, hex: Hex, types: I) -> Board
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.half_hexes.push(BoardHex::new(hex, types));
        self
    }
}

/// Where a board goes: rotate it `rotation` times 60° clockwise about its origin,
/// then move it by `offset`.
///
/// # Examples
///
/// ```
/// use gloam_core::{Hex, Placement};
/// let placement = Placement::new(1, Hex::new(10, 0));
/// assert_eq!(placement.apply(Hex::new(1, 0)), Some(Hex::new(10, 1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// Number of 60° clockwise steps (taken modulo 6).
    #[serde(default)]
    pub rotation: u32,
    /// Translation applied after the rotation.
    pub offset: Hex,
}

impl Default for Placement {
    fn default() -> Placement {
        Placement::IDENTITY
    }
}

impl Placement {
    /// No rotation, no offset.
    pub const IDENTITY: Placement = Placement::new(0, Hex::ORIGIN);

    /// A placement from a rotation and an offset.
    pub const fn new(rotation: u32, offset: Hex) -> Placement {
        Placement { rotation, offset }
    }

    /// Where `hex` of the board lands: [`Hex::rotate_cw`], then plus `offset`.
    ///
    /// `None` when `hex` or `offset` lies outside ±[`BOARD_COORD_LIMIT`].
    pub fn apply(self, hex: Hex) -> Option<Hex> {
        if !in_range(hex) || !in_range(self.offset) {
            return None;
        }
        Some(hex.rotate_cw(self.rotation).add(self.offset))
    }
}

fn in_range(hex: Hex) -> bool {
    hex.q.unsigned_abs() <= BOARD_COORD_LIMIT as u32
        && hex.r.unsigned_abs() <= BOARD_COORD_LIMIT as u32
        && hex.s().unsigned_abs() <= BOARD_COORD_LIMIT as u32
}

/// Where a battlefield hex comes from: one board, or two boards' half hexes.
///
/// Boards are numbered by their position in the list given to [`Battlefield::join`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum HexSource {
    /// A full hex of one board.
    Board {
        /// Index of the board.
        board: usize,
    },
    /// A hex completed by two half hexes.
    Completed {
        /// Indices of the two boards, in increasing order.
        boards: [usize; 2],
    },
}

/// One hex of a battlefield: its types, territory and origin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattlefieldHex {
    /// Named hex types (for a completed hex, the union of both halves' types).
    pub types: BTreeSet<String>,
    /// Territory name, if any.
    pub territory: Option<String>,
    /// The board or boards the hex comes from.
    pub source: HexSource,
}

/// Why boards could not be joined into a battlefield.
///
/// Hexes are in battlefield coordinates (after placement), except in
/// [`JoinError::DuplicateHex`] and [`JoinError::CoordinateOutOfRange`], which name the
/// hex as the board lists it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JoinError {
    /// The list of boards is empty.
    #[error("no boards to join")]
    NoBoards,
    /// The boards join into a battlefield without a single hex.
    #[error("the joined battlefield has no hexes")]
    Empty,
    /// A hex or an offset lies outside ±[`BOARD_COORD_LIMIT`].
    #[error("board `{board}`: hex {hex} is outside the supported coordinate range")]
    CoordinateOutOfRange {
        /// Board name.
        board: String,
        /// The offending hex or offset.
        hex: Hex,
    },
    /// A board lists the same position twice (full or half).
    #[error("board `{board}` lists hex {hex} more than once")]
    DuplicateHex {
        /// Board name.
        board: String,
        /// The repeated hex, in the board's own coordinates.
        hex: Hex,
    },
    /// Full hexes of two boards land on the same position.
    #[error("boards `{first}` and `{second}` overlap at hex {hex}")]
    Overlap {
        /// Battlefield position.
        hex: Hex,
        /// Name of the board placed first.
        first: String,
        /// Name of the board placed second.
        second: String,
    },
    /// A half hex lands on another board's full hex.
    #[error(
        "a half hex of board `{half_board}` lands on a full hex of board `{full_board}` at {hex}"
    )]
    HalfOnFull {
        /// Battlefield position.
        hex: Hex,
        /// Name of the board with the half hex.
        half_board: String,
        /// Name of the board with the full hex.
        full_board: String,
    },
    /// Three or more half hexes land on one position.
    #[error("{count} half hexes meet at {hex}; at most two can make one hex")]
    CrowdedHalfHex {
        /// Battlefield position.
        hex: Hex,
        /// How many half hexes land there.
        count: usize,
    },
    /// A board is not connected to the first board through adjacent hexes.
    #[error("board `{board}` does not touch the other boards")]
    Disconnected {
        /// Name of a board that cannot be reached from the first board.
        board: String,
    },
    /// Two touching boards complete fewer hexes than the ruleset requires.
    #[error(
        "boards `{first}` and `{second}` complete {completed} hexes where at least {required} are needed"
    )]
    TooFewCompleted {
        /// Name of the first board of the pair.
        first: String,
        /// Name of the second board of the pair.
        second: String,
        /// Completed hexes found.
        completed: u32,
        /// Completed hexes required.
        required: u32,
    },
}

/// The battlefield: one or more boards joined, with fast hex queries.
///
/// # Examples
///
/// ```
/// use gloam_core::{Battlefield, Board, Hex, Placement};
/// let mut board = Board::new("hexagon");
/// for hex in Hex::ORIGIN.range(2) {
///     board = board.with_hex(hex, Vec::<String>::new());
/// }
/// let battlefield = Battlefield::join(&[(board, Placement::IDENTITY)], 3).unwrap();
/// assert_eq!(battlefield.len(), 19);
/// assert!(battlefield.is_edge(Hex::new(2, 0)));
/// assert!(!battlefield.is_edge(Hex::new(1, 0)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Battlefield {
    boards: Vec<String>,
    cells: BTreeMap<Hex, BattlefieldHex>,
    mask: HexMask,
    /// The edge hexes ([`Battlefield::is_edge`]), found once when the battlefield is made.
    edges: HexMask,
}

impl Battlefield {
    /// Joins boards placed on one plane into a battlefield.
    ///
    /// Every pair of boards that touch (a hex of one adjacent to, or completed with, a
    /// hex of the other) must complete at least `min_completed` hexes; a single board
    /// needs none. A completed hex belongs to no board's territory unless both halves
    /// carry the same per-hex territory override.
    ///
    /// # Errors
    ///
    /// A [`JoinError`] naming the first problem found (boards in list order, hexes in
    /// sorted order).
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Battlefield, Board, Hex, Placement};
    /// // Two strips of three hexes, each with a row of half hexes facing the other.
    /// let strip = |name: &str, half_row: i32| {
    ///     let mut board = Board::new(name);
    ///     for q in 0..3 {
    ///         board = board
    ///             .with_hex(Hex::new(q, 0), Vec::<String>::new())
    ///             .with_half_hex(Hex::new(q, half_row), Vec::<String>::new());
    ///     }
    ///     board
    /// };
    /// let north = strip("north", 1);
    /// let south = strip("south", -1);
    /// let boards = [
    ///     (north, Placement::IDENTITY),
    ///     (south, Placement::new(0, Hex::new(0, 2))),
    /// ];
    /// let battlefield = Battlefield::join(&boards, 3).unwrap();
    /// assert_eq!(battlefield.len(), 9);
    /// assert_eq!(battlefield.completed_hexes().len(), 3);
    /// assert!(Battlefield::join(&boards, 4).is_err());
    /// ```
    pub fn join(
        boards: &[(Board, Placement)],
        min_completed: u32,
    ) -> Result<Battlefield, JoinError> {
        if boards.is_empty() {
            return Err(JoinError::NoBoards);
        }
        let name = |index: usize| boards[index].0.name.clone();
        let mut full: BTreeMap<Hex, (usize, &BoardHex)> = BTreeMap::new();
        let mut halves: BTreeMap<Hex, Vec<(usize, &BoardHex)>> = BTreeMap::new();
        for (index, (board, placement)) in boards.iter().enumerate() {
            if !in_range(placement.offset) {
                return Err(JoinError::CoordinateOutOfRange {
                    board: board.name.clone(),
                    hex: placement.offset,
                });
            }
            let mut seen = BTreeSet::new();
            let all = board.hexes.iter().map(|h| (h, false));
            for (board_hex, is_half) in all.chain(board.half_hexes.iter().map(|h| (h, true))) {
                if !seen.insert(board_hex.hex) {
                    return Err(JoinError::DuplicateHex {
                        board: board.name.clone(),
                        hex: board_hex.hex,
                    });
                }
                let position = placement.apply(board_hex.hex).ok_or_else(|| {
                    JoinError::CoordinateOutOfRange {
                        board: board.name.clone(),
                        hex: board_hex.hex,
                    }
                })?;
                if is_half {
                    halves.entry(position).or_default().push((index, board_hex));
                } else if let Some((other, _)) = full.insert(position, (index, board_hex)) {
                    return Err(JoinError::Overlap {
                        hex: position,
                        first: name(other),
                        second: board.name.clone(),
                    });
                }
            }
        }

        let mut cells: BTreeMap<Hex, BattlefieldHex> = full
            .iter()
            .map(|(&position, &(index, board_hex))| {
                let territory = board_hex
                    .territory
                    .clone()
                    .or_else(|| boards[index].0.territory.clone());
                let cell = BattlefieldHex {
                    types: board_hex.types.clone(),
                    territory,
                    source: HexSource::Board { board: index },
                };
                (position, cell)
            })
            .collect();
        let mut completed: BTreeMap<(usize, usize), u32> = BTreeMap::new();
        for (&position, meeting) in &halves {
            if let Some(&(full_index, _)) = full.get(&position) {
                return Err(JoinError::HalfOnFull {
                    hex: position,
                    half_board: name(meeting[0].0),
                    full_board: name(full_index),
                });
            }
            match meeting.as_slice() {
                [_] => {}
                [(a, half_a), (b, half_b)] => {
                    let pair = ((*a).min(*b), (*a).max(*b));
                    *completed.entry(pair).or_default() += 1;
                    let territory = match (&half_a.territory, &half_b.territory) {
                        (Some(x), Some(y)) if x == y => Some(x.clone()),
                        _ => None,
                    };
                    let types = half_a.types.union(&half_b.types).cloned().collect();
                    let cell = BattlefieldHex {
                        types,
                        territory,
                        source: HexSource::Completed {
                            boards: [pair.0, pair.1],
                        },
                    };
                    cells.insert(position, cell);
                }
                _ => {
                    return Err(JoinError::CrowdedHalfHex {
                        hex: position,
                        count: meeting.len(),
                    });
                }
            }
        }
        if cells.is_empty() {
            return Err(JoinError::Empty);
        }

        if boards.len() > 1 {
            let touching = touching_pairs(&cells);
            if let Some(board) = first_unreachable(boards.len(), &touching) {
                return Err(JoinError::Disconnected { board: name(board) });
            }
            for &(a, b) in &touching {
                let count = completed.get(&(a, b)).copied().unwrap_or(0);
                if count < min_completed {
                    return Err(JoinError::TooFewCompleted {
                        first: name(a),
                        second: name(b),
                        completed: count,
                        required: min_completed,
                    });
                }
            }
        }

        let board_names = boards.iter().map(|(board, _)| board.name.clone()).collect();
        Ok(Battlefield::from_cells(board_names, cells))
    }

    /// A battlefield made directly from hexes and their types (for tests and tools).
    ///
    /// It has one board, named `"battlefield"`, and no territories; a hex listed twice
    /// gets the union of its types.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Battlefield, Hex};
    /// let battlefield = Battlefield::from_hexes([
    ///     (Hex::new(0, 0), vec!["starting"]),
    ///     (Hex::new(1, 0), vec!["blocked"]),
    /// ]);
    /// assert!(battlefield.has_type(Hex::new(1, 0), "blocked"));
    /// assert_eq!(battlefield.hexes_of_type("starting"), vec![Hex::new(0, 0)]);
    /// ```
    pub fn from_hexes<I, T, S>(hexes: I) -> Battlefield
    where
        I: IntoIterator<Item = (Hex, T)>,
        T: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut cells: BTreeMap<Hex, BattlefieldHex> = BTreeMap::new();
        for (hex, types) in hexes {
            let cell = cells.entry(hex).or_insert_with(|| BattlefieldHex {
                types: BTreeSet::new(),
                territory: None,
                source: HexSource::Board { board: 0 },
            });
            cell.types.extend(types.into_iter().map(Into::into));
        }
        Battlefield::from_cells(vec!["battlefield".to_string()], cells)
    }

    fn from_cells(boards: Vec<String>, cells: BTreeMap<Hex, BattlefieldHex>) -> Battlefield {
        let mask = HexMask::new(cells.keys().copied());
        let edges = HexMask::new(
            cells
                .keys()
                .copied()
                .filter(|&hex| neighbors_checked(hex).filter(|&n| mask.contains(n)).count() < 6),
        );
        Battlefield {
            boards,
            cells,
            mask,
            edges,
        }
    }

    /// Whether `hex` is on the battlefield.
    pub fn contains(&self, hex: Hex) -> bool {
        self.mask.contains(hex)
    }

    /// Every battlefield hex, in sorted order.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        self.cells.keys().copied()
    }

    /// Everything known about one hex, or `None` off the battlefield.
    pub fn hex(&self, hex: Hex) -> Option<&BattlefieldHex> {
        self.cells.get(&hex)
    }

    /// The types of `hex`, or `None` off the battlefield.
    pub fn types(&self, hex: Hex) -> Option<&BTreeSet<String>> {
        self.cells.get(&hex).map(|cell| &cell.types)
    }

    /// Whether `hex` is on the battlefield and has the type `name`.
    pub fn has_type(&self, hex: Hex, name: &str) -> bool {
        self.cells
            .get(&hex)
            .is_some_and(|cell| cell.types.contains(name))
    }

    /// The hexes with type `name`, in sorted order.
    pub fn hexes_of_type(&self, name: &str) -> Vec<Hex> {
        self.cells
            .iter()
            .filter(|(_, cell)| cell.types.contains(name))
            .map(|(&hex, _)| hex)
            .collect()
    }

    /// The territory of `hex`, if it is on the battlefield and has one.
    pub fn territory(&self, hex: Hex) -> Option<&str> {
        self.cells
            .get(&hex)
            .and_then(|cell| cell.territory.as_deref())
    }

    /// The board (or, for a completed hex, the two boards) `hex` comes from.
    pub fn board_of(&self, hex: Hex) -> Option<HexSource> {
        self.cells.get(&hex).map(|cell| cell.source)
    }

    /// The boards' names, indexed as in [`HexSource`].
    pub fn board_names(&self) -> &[String] {
        &self.boards
    }

    /// The hexes completed by joining half hexes, in sorted order.
    pub fn completed_hexes(&self) -> Vec<Hex> {
        self.cells
            .iter()
            .filter(|(_, cell)| matches!(cell.source, HexSource::Completed { .. }))
            .map(|(&hex, _)| hex)
            .collect()
    }

    /// Whether `hex` is a battlefield hex with fewer than six battlefield neighbours.
    pub fn is_edge(&self, hex: Hex) -> bool {
        self.edges.contains(hex)
    }

    /// The edge hexes, in sorted order.
    pub fn edge_hexes(&self) -> Vec<Hex> {
        self.hexes().filter(|&hex| self.is_edge(hex)).collect()
    }

    /// Number of battlefield hexes.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the battlefield has no hex (only possible through [`Battlefield::from_hexes`]).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

/// Pairs of distinct boards `(a, b)`, `a < b`, with a hex of one adjacent to or
/// completed with a hex of the other.
fn touching_pairs(cells: &BTreeMap<Hex, BattlefieldHex>) -> BTreeSet<(usize, usize)> {
    fn owners(source: HexSource) -> ([usize; 2], usize) {
        match source {
            HexSource::Board { board } => ([board, board], 1),
            HexSource::Completed { boards } => (boards, 2),
        }
    }
    let mut pairs = BTreeSet::new();
    let mut add = |a: usize, b: usize| {
        if a != b {
            pairs.insert((a.min(b), a.max(b)));
        }
    };
    for (&hex, cell) in cells {
        let (here, n_here) = owners(cell.source);
        if n_here == 2 {
            add(here[0], here[1]);
        }
        for neighbor in neighbors_checked(hex) {
            if let Some(other) = cells.get(&neighbor) {
                let (there, n_there) = owners(other.source);
                for &a in &here[..n_here] {
                    for &b in &there[..n_there] {
                        add(a, b);
                    }
                }
            }
        }
    }
    pairs
}

/// The first board (in list order) not reachable from board 0, if any.
fn first_unreachable(n_boards: usize, pairs: &BTreeSet<(usize, usize)>) -> Option<usize> {
    let mut reached = vec![false; n_boards];
    reached[0] = true;
    let mut stack = vec![0];
    while let Some(board) = stack.pop() {
        for &(a, b) in pairs {
            let next = if a == board {
                b
            } else if b == board {
                a
            } else {
                continue;
            };
            if !reached[next] {
                reached[next] = true;
                stack.push(next);
            }
        }
    }
    reached.iter().position(|&r| !r)
}

/// The six neighbours of `hex`, skipping any whose coordinates would overflow.
pub(crate) fn neighbors_checked(hex: Hex) -> impl Iterator<Item = Hex> {
    Direction::ALL
        .into_iter()
        .filter_map(move |direction| step_checked(hex, direction))
}

/// The neighbour of `hex` in `direction`, or `None` if a coordinate would overflow.
pub(crate) fn step_checked(hex: Hex, direction: Direction) -> Option<Hex> {
    let offset = direction.offset();
    Some(Hex::new(
        hex.q.checked_add(offset.q)?,
        hex.r.checked_add(offset.r)?,
    ))
}

/// Largest bounding box (in cells) stored as a dense bitmap.
const DENSE_CELLS: i64 = 1 << 20;

/// A set of hexes with constant-time membership: a bitmap over the bounding box, or
/// a sorted set when the box is too large.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum HexMask {
    /// Bit `(r - min_r) * width + (q - min_q)` is set for each member.
    Dense {
        min_q: i64,
        min_r: i64,
        width: i64,
        height: i64,
        bits: Vec<u64>,
    },
    /// Fallback for widely scattered hexes.
    Sparse(BTreeSet<Hex>),
}

impl HexMask {
    /// The set of `hexes`.
    pub(crate) fn new(hexes: impl IntoIterator<Item = Hex>) -> HexMask {
        let set: BTreeSet<Hex> = hexes.into_iter().collect();
        let (Some(first), Some(last)) = (set.first(), set.last()) else {
            return HexMask::Sparse(set);
        };
        let min_q = i64::from(first.q);
        let max_q = i64::from(last.q);
        let min_r = set.iter().map(|h| i64::from(h.r)).min().unwrap_or(0);
        let max_r = set.iter().map(|h| i64::from(h.r)).max().unwrap_or(0);
        let width = max_q - min_q + 1;
        let height = max_r - min_r + 1;
        if width > DENSE_CELLS || height > DENSE_CELLS || width * height > DENSE_CELLS {
            return HexMask::Sparse(set);
        }
        let mut bits = vec![0u64; ((width * height + 63) / 64) as usize];
        for hex in &set {
            let index = (i64::from(hex.r) - min_r) * width + (i64::from(hex.q) - min_q);
            bits[(index / 64) as usize] |= 1 << (index % 64);
        }
        HexMask::Dense {
            min_q,
            min_r,
            width,
            height,
            bits,
        }
    }

    /// Whether `hex` is in the set.
    #[inline]
    pub(crate) fn contains(&self, hex: Hex) -> bool {
        match self {
            HexMask::Dense {
                min_q,
                min_r,
                width,
                height,
                bits,
            } => {
                let dq = i64::from(hex.q) - min_q;
                let dr = i64::from(hex.r) - min_r;
                if dq < 0 || dr < 0 || dq >= *width || dr >= *height {
                    return false;
                }
                let index = dr * width + dq;
                bits[(index / 64) as usize] >> (index % 64) & 1 == 1
            }
            HexMask::Sparse(set) => set.contains(&hex),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hexagon(name: &str, radius: u32) -> Board {
        Hex::ORIGIN
            .range(radius)
            .into_iter()
            .fold(Board::new(name), |board, hex| {
                board.with_hex(hex, Vec::<String>::new())
            })
    }

    #[test]
    fn mask_dense_and_sparse_agree_with_set() {
        let hexes = Hex::new(3, -7).range(3);
        let dense = HexMask::new(hexes.iter().copied());
        assert!(matches!(dense, HexMask::Dense { .. }));
        let far = [Hex::new(-2_000_000, 0), Hex::new(2_000_000, 5)];
        let sparse = HexMask::new(far);
        assert!(matches!(sparse, HexMask::Sparse(_)));
        for hex in Hex::new(3, -7).range(5) {
            assert_eq!(dense.contains(hex), hexes.contains(&hex));
        }
        assert!(sparse.contains(far[1]));
        assert!(!sparse.contains(Hex::ORIGIN));
    }

    #[test]
    fn join_no_boards_is_an_error() {
        assert_eq!(Battlefield::join(&[], 3), Err(JoinError::NoBoards));
    }

    #[test]
    fn join_duplicate_hex_in_one_board_is_an_error() {
        let board = hexagon("a", 1).with_half_hex(Hex::new(1, 0), Vec::<String>::new());
        let error = Battlefield::join(&[(board, Placement::IDENTITY)], 0).unwrap_err();
        assert_eq!(
            error.to_string(),
            "board `a` lists hex (1, 0) more than once"
        );
    }

    #[test]
    fn join_extreme_offset_is_an_error() {
        let placement = Placement::new(0, Hex::new(i32::MAX, 0));
        let error = Battlefield::join(&[(hexagon("a", 1), placement)], 0).unwrap_err();
        assert!(matches!(error, JoinError::CoordinateOutOfRange { .. }));
    }

    #[test]
    fn join_half_on_full_is_an_error() {
        let a = hexagon("a", 1);
        let b = Board::new("b").with_half_hex(Hex::ORIGIN, ["cover"]);
        let error = Battlefield::join(&[(a, Placement::IDENTITY), (b, Placement::IDENTITY)], 0)
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "a half hex of board `b` lands on a full hex of board `a` at (0, 0)"
        );
    }

    #[test]
    fn join_three_halves_on_one_hex_is_an_error() {
        let half = |name: &str| Board::new(name).with_half_hex(Hex::ORIGIN, Vec::<String>::new());
        let boards = [
            (half("a"), Placement::IDENTITY),
            (half("b"), Placement::IDENTITY),
            (half("c"), Placement::IDENTITY),
        ];
        let error = Battlefield::join(&boards, 0).unwrap_err();
        assert_eq!(
            error,
            JoinError::CrowdedHalfHex {
                hex: Hex::ORIGIN,
                count: 3
            }
        );
    }

    #[test]
    fn join_single_board_of_only_half_hexes_is_empty() {
        let board = Board::new("a").with_half_hex(Hex::ORIGIN, Vec::<String>::new());
        assert_eq!(
            Battlefield::join(&[(board, Placement::IDENTITY)], 0),
            Err(JoinError::Empty)
        );
    }

    #[test]
    fn completed_hex_merges_types_and_has_no_territory() {
        let a = Board::new("a")
            .with_territory("north")
            .with_hex(Hex::ORIGIN, Vec::<String>::new())
            .with_half_hex(Hex::new(0, 1), ["cover"]);
        let b = Board::new("b")
            .with_territory("south")
            .with_hex(Hex::new(0, 2), Vec::<String>::new())
            .with_half_hex(Hex::new(0, 1), ["lethal"]);
        let boards = [(a, Placement::IDENTITY), (b, Placement::IDENTITY)];
        let battlefield = Battlefield::join(&boards, 1).unwrap();
        let middle = Hex::new(0, 1);
        assert!(battlefield.has_type(middle, "cover") && battlefield.has_type(middle, "lethal"));
        assert_eq!(battlefield.territory(middle), None);
        assert_eq!(battlefield.territory(Hex::ORIGIN), Some("north"));
        assert_eq!(battlefield.territory(Hex::new(0, 2)), Some("south"));
        assert_eq!(
            battlefield.board_of(middle),
            Some(HexSource::Completed { boards: [0, 1] })
        );
        assert_eq!(
            battlefield.board_of(Hex::new(0, 2)),
            Some(HexSource::Board { board: 1 })
        );
        assert_eq!(
            battlefield.board_names(),
            ["a".to_string(), "b".to_string()]
        );
    }

    #[test]
    fn hex_territory_override_beats_board_territory() {
        let mut board = Board::new("embergard")
            .with_hex(Hex::ORIGIN, Vec::<String>::new())
            .with_territory("north");
        board
            .hexes
            .push(BoardHex::new(Hex::new(1, 0), ["stagger"]).with_territory("neutral"));
        let battlefield = Battlefield::join(&[(board, Placement::IDENTITY)], 0).unwrap();
        assert_eq!(battlefield.territory(Hex::new(1, 0)), Some("neutral"));
        assert_eq!(battlefield.territory(Hex::ORIGIN), Some("north"));
    }

    #[test]
    fn from_hexes_merges_repeated_hexes() {
        let battlefield =
            Battlefield::from_hexes([(Hex::ORIGIN, vec!["a"]), (Hex::ORIGIN, vec!["b"])]);
        assert_eq!(battlefield.len(), 1);
        assert_eq!(battlefield.types(Hex::ORIGIN).map(BTreeSet::len), Some(2));
        assert!(battlefield.is_edge(Hex::ORIGIN));
        assert!(!battlefield.is_edge(Hex::new(5, 5)));
    }
}
