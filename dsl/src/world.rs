//! What scripts need beyond the game state: the battlefield, sight, dice and names.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use gloam_core::{Battlefield, Dice, Hex, PlayerId, Sight, Value};

/// The names the vocabulary's convenience functions read and write.
///
/// The kernel gives no name a meaning; `damage(f)` reads the counter named by `damage`,
/// `draw_power(n)` moves cards between the zones named by `power_deck` and `power_hand`.
/// A ruleset that calls them otherwise changes these.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Names {
    /// The piece counter holding damage (`damage`).
    pub damage: String,
    /// The characteristic of wounds (`wounds`).
    pub wounds: String,
    /// The player counter of glory (`glory`).
    pub glory: String,
    /// The game counter of the round (`round`).
    pub round: String,
    /// The keyword an inspired fighter carries (`inspired`).
    pub inspired: String,
    /// Each player's power deck zone (`power_deck`).
    pub power_deck: String,
    /// Each player's power hand zone (`power_hand`).
    pub power_hand: String,
    /// Each player's objective deck zone (`objective_deck`).
    pub objective_deck: String,
    /// Each player's objective hand zone (`objective_hand`).
    pub objective_hand: String,
}

impl Default for Names {
    fn default() -> Names {
        Names {
            damage: "damage".into(),
            wounds: "wounds".into(),
            glory: "glory".into(),
            round: "round".into(),
            inspired: "inspired".into(),
            power_deck: "power_deck".into(),
            power_hand: "power_hand".into(),
            objective_deck: "objective_deck".into(),
            objective_hand: "objective_hand".into(),
        }
    }
}

/// A fighter profile's two sides, for `inspire` and `uninspire`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Sides {
    base: BTreeMap<String, i64>,
    inspired: BTreeMap<String, i64>,
}

#[derive(Clone, Debug)]
pub(crate) struct WorldData {
    pub(crate) battlefield: Battlefield,
    pub(crate) blocked: BTreeSet<Hex>,
    pub(crate) sight: Sight,
    pub(crate) dice: Dice,
    pub(crate) names: Names,
    sides: BTreeMap<String, Sides>,
}

/// The fixed context of a game that scripts read: the battlefield (with which hex types
/// block movement and sight), line of sight, the dice definitions, the names the
/// vocabulary uses and the fighters' inspired sides.
///
/// Built once per game and shared: cloning a `World` is cheap (a reference count).
///
/// # Examples
///
/// ```
/// use gloam_core::{Battlefield, Dice, Hex};
/// use gloam_dsl::World;
/// let battlefield = Battlefield::from_hexes(Hex::ORIGIN.range(3).into_iter().map(|h| (h, Vec::<String>::new())));
/// let world = World::new(battlefield, ["blocked"], true, Dice::new());
/// assert!(world.battlefield().contains(Hex::new(1, 0)));
/// ```
#[derive(Clone, Debug)]
pub struct World {
    pub(crate) data: Arc<WorldData>,
}

impl World {
    /// A world over `battlefield`, where hexes of any of `blocking_types` block movement
    /// and sight, and (with `off_board_blocks`) a line leaving the battlefield is blocked.
    pub fn new<I, S>(
        battlefield: Battlefield,
        blocking_types: I,
        off_board_blocks: bool,
        dice: Dice,
    ) -> World
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let types: Vec<String> = blocking_types
            .into_iter()
            .map(|name| name.as_ref().to_owned())
            .collect();
        let blocked: BTreeSet<Hex> = battlefield
            .hexes()
            .filter(|&hex| types.iter().any(|name| battlefield.has_type(hex, name)))
            .collect();
        let sight = Sight::new(
            battlefield.hexes(),
            blocked.iter().copied(),
            off_board_blocks,
        );
        World {
            data: Arc::new(WorldData {
                battlefield,
                blocked,
                sight,
                dice,
                names: Names::default(),
                sides: BTreeMap::new(),
            }),
        }
    }

    /// The same world with other names for the vocabulary's counters, zones and keyword.
    pub fn with_names(mut self, names: Names) -> World {
        Arc::make_mut(&mut self.data).names = names;
        self
    }

    /// The same world, knowing a fighter profile's characteristics on each side: `inspire`
    /// sets a piece of that kind to `inspired`, `uninspire` back to `base`.
    pub fn with_sides<B, J>(mut self, kind: impl Into<String>, base: B, inspired: J) -> World
    where
        B: IntoIterator<Item = (String, i64)>,
        J: IntoIterator<Item = (String, i64)>,
    {
        Arc::make_mut(&mut self.data).sides.insert(
            kind.into(),
            Sides {
                base: base.into_iter().collect(),
                inspired: inspired.into_iter().collect(),
            },
        );
        self
    }

    /// The battlefield.
    pub fn battlefield(&self) -> &Battlefield {
        &self.data.battlefield
    }

    /// Line of sight over the battlefield.
    pub fn sight(&self) -> &Sight {
        &self.data.sight
    }

    /// The dice definitions.
    pub fn dice(&self) -> &Dice {
        &self.data.dice
    }

    /// The vocabulary's names.
    pub fn names(&self) -> &Names {
        &self.data.names
    }
}

impl WorldData {
    /// The characteristics of one side of a profile, if known.
    pub(crate) fn side(&self, kind: &str, inspired: bool) -> Option<&BTreeMap<String, i64>> {
        self.sides.get(kind).map(|sides| {
            if inspired {
                &sides.inspired
            } else {
                &sides.base
            }
        })
    }
}

/// The values a script receives for one run: the acting player and the context's variables
/// (`this_card`, `target`...).
///
/// A variable the script's context declares but the bindings leave out is `()` in the
/// script; a binding the context does not declare is ignored.
///
/// # Examples
///
/// ```
/// use gloam_core::{PieceId, PlayerId, Value};
/// use gloam_dsl::Bindings;
/// let bindings = Bindings::new()
///     .acting(PlayerId(0))
///     .with("target", Value::Piece(PieceId(3)));
/// assert_eq!(bindings.get("player"), Some(&Value::Player(PlayerId(0))));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    pub(crate) acting: Option<PlayerId>,
    pub(crate) values: Vec<(String, Value)>,
}

impl Bindings {
    /// No acting player, no variables.
    pub fn new() -> Bindings {
        Bindings::default()
    }

    /// The player the script acts for: `current_player()`, who answers its choices, whose
    /// fighters are friendly. Also binds the variable `player`.
    pub fn acting(mut self, player: PlayerId) -> Bindings {
        self.acting = Some(player);
        self.with("player", Value::Player(player))
    }

    /// Binds a variable (replacing an earlier binding of the same name).
    pub fn with(mut self, name: impl Into<String>, value: Value) -> Bindings {
        let name = name.into();
        match self.values.iter_mut().find(|(bound, _)| *bound == name) {
            Some(entry) => entry.1 = value,
            None => self.values.push((name, value)),
        }
        self
    }

    /// A bound variable's value.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values
            .iter()
            .find(|(bound, _)| bound == name)
            .map(|(_, value)| value)
    }

    /// The acting player, if any.
    pub fn acting_player(&self) -> Option<PlayerId> {
        self.acting
    }
}
