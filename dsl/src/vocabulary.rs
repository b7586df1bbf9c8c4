//! The vocabulary: every function a script may call, with its documentation.
//!
//! The same table checks calls when a script is compiled, is compared with the functions
//! the engine registered (a test keeps them equal), and generates `docs/dsl.md`.

use crate::Limits;

/// What a function does to the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum FunctionKind {
    /// Reads the game; allowed everywhere, conditions included.
    Query,
    /// Changes the game through the kernel; each change becomes an event.
    Effect,
    /// Asks a player; the script stops until the answer is given, then runs again.
    Choice,
}

impl FunctionKind {
    /// The kind's name in the documentation (`query`, `effect`, `choice`).
    pub fn name(self) -> &'static str {
        match self {
            FunctionKind::Query => "query",
            FunctionKind::Effect => "effect",
            FunctionKind::Choice => "choice",
        }
    }
}

/// The kind of name a string parameter holds (`has_token(f, "guard")` takes a token).
///
/// When a script passes a string literal in such a place, [`crate::Host::compile`] checks it
/// against the names its ruleset declares ([`crate::KnownNames`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum NameKind {
    /// A token fighters carry (`guard`, `stagger`).
    Token,
    /// A keyword of fighters (`leader`).
    Keyword,
    /// A characteristic of fighters (`move`, `defence`).
    Characteristic,
    /// A counter of the game, a fighter or a player (`round`).
    Counter,
    /// A type of battlefield hex (`lethal`, `starting`).
    HexType,
    /// A timing window or a named event, which durations wait for and `mark` announces
    /// (`phase_end`).
    Event,
    /// A player's zone of cards (`power_hand`).
    Zone,
    /// A kind of die (`attack`).
    Die,
    /// A step of the ruleset's flow, which `then` queues (`action_step`; also the built-in
    /// `card` and `ability`).
    Step,
}

impl NameKind {
    /// Every kind, in the order of the documentation.
    pub const ALL: [NameKind; 9] = [
        NameKind::Token,
        NameKind::Keyword,
        NameKind::Characteristic,
        NameKind::Counter,
        NameKind::HexType,
        NameKind::Event,
        NameKind::Zone,
        NameKind::Die,
        NameKind::Step,
    ];

    /// The kind's name in code and documentation: `token`, `hex_type`, `event`.
    pub fn name(self) -> &'static str {
        match self {
            NameKind::Token => "token",
            NameKind::Keyword => "keyword",
            NameKind::Characteristic => "characteristic",
            NameKind::Counter => "counter",
            NameKind::HexType => "hex_type",
            NameKind::Event => "event",
            NameKind::Zone => "zone",
            NameKind::Die => "die",
            NameKind::Step => "step",
        }
    }

    /// The kind in a sentence: `token`, `hex type`, `timing window or event`.
    pub fn noun(self) -> &'static str {
        match self {
            NameKind::HexType => "hex type",
            NameKind::Event => "timing window or event",
            other => other.name(),
        }
    }
}

/// The kind in words, as [`NameKind::noun`].
impl std::fmt::Display for NameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.noun())
    }
}

/// One parameter of a script function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Param {
    /// Its name in the documentation.
    pub name: &'static str,
    /// Its type, in the words of the documentation (`fighter`, `int`, `fighter or hex`).
    pub ty: &'static str,
    /// For a string that names something the ruleset declares, what kind of name; a string
    /// literal given here is checked when the script is compiled.
    pub names: Option<NameKind>,
}

impl Param {
    /// The parameter's type with its kind of name: `string (a token name)`, `int`.
    ///
    /// # Examples
    ///
    /// ```
    /// let doc = gloam_dsl::vocabulary().iter().find(|d| d.name == "has_token").unwrap();
    /// assert_eq!(doc.params[1].describe(), "string (a token name)");
    /// assert_eq!(doc.params[0].describe(), "fighter");
    /// ```
    pub fn describe(&self) -> String {
        match self.names {
            Some(kind) => format!("{} (a {} name)", self.ty, kind.noun()),
            None => self.ty.to_owned(),
        }
    }
}

/// The documentation of one script function (one entry per number of arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FunctionDoc {
    /// The name scripts call.
    pub name: &'static str,
    /// The parameters, in order.
    pub params: &'static [Param],
    /// What it returns (`int`, `list of fighters`, `nothing`).
    pub returns: &'static str,
    /// Query, effect or choice.
    pub kind: FunctionKind,
    /// One line for a card author.
    pub summary: &'static str,
}

impl FunctionDoc {
    /// `name(a: type, b: type) -> type`.
    ///
    /// # Examples
    ///
    /// ```
    /// let doc = gloam_dsl::vocabulary().iter().find(|d| d.name == "deal_damage").unwrap();
    /// assert_eq!(doc.signature(), "deal_damage(fighter: fighter, amount: int) -> nothing");
    /// ```
    pub fn signature(&self) -> String {
        let params = self
            .params
            .iter()
            .map(|param| format!("{}: {}", param.name, param.describe()))
            .collect::<Vec<_>>()
            .join(", ");
        format!("{}({params}) -> {}", self.name, self.returns)
    }
}

const fn p(name: &'static str, ty: &'static str) -> Param {
    Param {
        name,
        ty,
        names: None,
    }
}

/// A string parameter holding a name of `kind`.
const fn n(name: &'static str, kind: NameKind) -> Param {
    Param {
        name,
        ty: "string",
        names: Some(kind),
    }
}

const fn doc(
    kind: FunctionKind,
    name: &'static str,
    params: &'static [Param],
    returns: &'static str,
    summary: &'static str,
) -> FunctionDoc {
    FunctionDoc {
        name,
        params,
        returns,
        kind,
        summary,
    }
}

use FunctionKind::{Choice, Effect, Query};

const FIGHTER: Param = p("fighter", "fighter");
const PLAYER: Param = p("player", "player");
const A: Param = p("a", "fighter or hex");
const B: Param = p("b", "fighter or hex");
const SUBJECT: Param = p("subject", "fighter or player");
const UNIT: Param = p("unit", "unit");
const DISTANCE: Param = p("distance", "int");
const TABLE_SUBJECT: Param = p("subject", "fighter or unit");
const TABLE_TARGET: Param = p(
    "target",
    "point, fighter, unit, table edge or string (a territory or objective)",
);
const PATH_LIMITS: Param = p("limits", "map (move limits)");
const SETUP_LIMITS: Param = p("limits", "map (set-up limits)");
const TERRAIN_LIMITS: Param = p("limits", "map (terrain limits)");

static VOCABULARY: &[FunctionDoc] = &[
    // Queries: fighters and players.
    doc(
        Query,
        "fighters",
        &[],
        "list of fighters",
        "every fighter on the battlefield, in id order",
    ),
    doc(
        Query,
        "friendly_fighters",
        &[],
        "list of fighters",
        "the acting player's fighters on the battlefield",
    ),
    doc(
        Query,
        "enemy_fighters",
        &[],
        "list of fighters",
        "the other players' fighters on the battlefield",
    ),
    doc(
        Query,
        "fighters_within",
        &[FIGHTER, p("distance", "int")],
        "list of fighters",
        "the other fighters on the battlefield at most `distance` hexes away",
    ),
    doc(
        Query,
        "fighter_at",
        &[p("hex", "hex")],
        "fighter or ()",
        "the fighter standing in `hex`, or `()`",
    ),
    doc(
        Query,
        "players",
        &[],
        "list of players",
        "every player, in seating order",
    ),
    doc(
        Query,
        "current_player",
        &[],
        "player",
        "the player the script acts for",
    ),
    doc(
        Query,
        "owner",
        &[FIGHTER],
        "player",
        "the player who controls `fighter`",
    ),
    doc(
        Query,
        "fighters_of",
        &[PLAYER],
        "list of fighters",
        "every fighter of `player`, on the battlefield or not, in id order",
    ),
    doc(
        Query,
        "fighters_on_battlefield",
        &[PLAYER],
        "list of fighters",
        "the fighters of `player` on the battlefield, in id order: `fighters_of(player).filter(|f| on_battlefield(f))` in one call",
    ),
    doc(
        Query,
        "fighters_off_battlefield",
        &[PLAYER],
        "list of fighters",
        "the fighters of `player` not on the battlefield (out of action, or not yet placed), in id order: `fighters_of(player).filter(|f| !on_battlefield(f))` in one call",
    ),
    doc(
        Query,
        "on_battlefield",
        &[FIGHTER],
        "bool",
        "whether `fighter` stands on the battlefield",
    ),
    doc(
        Query,
        "fighter_kind",
        &[FIGHTER],
        "string",
        "the name of `fighter`'s profile",
    ),
    doc(
        Query,
        "player_after",
        &[PLAYER],
        "player",
        "the next player in seating order after `player` (the last is followed by the first)",
    ),
    // Queries: geometry.
    doc(
        Query,
        "hex",
        &[p("q", "int"), p("r", "int")],
        "hex",
        "the hex at axial coordinates (q, r)",
    ),
    doc(
        Query,
        "hex_of",
        &[FIGHTER],
        "hex or ()",
        "where `fighter` stands, or `()` when it is not on the battlefield",
    ),
    doc(
        Query,
        "adjacent",
        &[A, B],
        "bool",
        "whether `a` and `b` are neighbouring hexes (false if either is off the battlefield)",
    ),
    doc(
        Query,
        "distance",
        &[A, B],
        "int",
        "the number of hexes from `a` to `b`, counted straight through blocked hexes",
    ),
    doc(
        Query,
        "visible",
        &[A, B],
        "bool",
        "whether there is line of sight from `a` to `b` (false if either is off the battlefield)",
    ),
    doc(
        Query,
        "hexes_of_type",
        &[n("type", NameKind::HexType)],
        "list of hexes",
        "the battlefield hexes of a type (`lethal`, `starting`...), as `hex_has_type` reads types, in sorted order",
    ),
    doc(
        Query,
        "hex_has_type",
        &[p("hex", "hex"), n("type", NameKind::HexType)],
        "bool",
        "whether `hex` is on the battlefield and has the type: printed on its board, given in play (`set_hex_type`), or `edge` for a hex with fewer than six neighbours",
    ),
    doc(
        Query,
        "hexes_without_types",
        &[p("hexes", "list of hexes"), p("types", "list of strings")],
        "list of hexes",
        "the hexes of `hexes` that have none of the hex `types` (as `hex_has_type` reads types), in the order given",
    ),
    doc(
        Query,
        "hexes_farther_than",
        &[
            p("hexes", "list of hexes"),
            p("others", "list of hexes"),
            p("distance", "int"),
        ],
        "list of hexes",
        "the hexes of `hexes` more than `distance` hexes away from every hex of `others`, in the order given",
    ),
    doc(
        Query,
        "battlefield_layouts",
        &[],
        "list of strings",
        "the names of the ways the boards may be laid out (the ruleset's `battlefield` items for this number of players), in order; empty when there is one way",
    ),
    doc(
        Query,
        "battlefield_layout",
        &[],
        "string or ()",
        "the name of the layout in play (the first until one is chosen), or `()` when the battlefield has one way",
    ),
    doc(
        Query,
        "battlefield_hexes",
        &[],
        "list of hexes",
        "every hex of the battlefield, in sorted order",
    ),
    doc(
        Query,
        "territory_of",
        &[p("hex", "hex")],
        "player or ()",
        "the player whose territory `hex` is, or `()` (no one's, or off the battlefield)",
    ),
    doc(
        Query,
        "hexes_around",
        &[p("x", "fighter or hex")],
        "list of hexes",
        "the battlefield hexes next to `x`, sorted (empty for a fighter off the battlefield)",
    ),
    doc(
        Query,
        "reachable_hexes",
        &[FIGHTER, p("budget", "int")],
        "list of hexes",
        "the hexes `fighter` can walk to in at most `budget` steps through empty, unblocked hexes, sorted (empty off the battlefield)",
    ),
    doc(
        Query,
        "can_reach",
        &[FIGHTER, p("budget", "int")],
        "bool",
        "whether `reachable_hexes(fighter, budget)` lists any hex, found without listing them (the search stops at the first hex a move can end in): false off the battlefield",
    ),
    doc(
        Query,
        "can_reach",
        &[FIGHTER, p("budget", "int"), p("through", "list of strings")],
        "bool",
        "whether `reachable_hexes(fighter, budget, through)` lists any hex, found without listing them",
    ),
    doc(
        Query,
        "reachable_hexes",
        &[FIGHTER, p("budget", "int"), p("through", "list of strings")],
        "list of hexes",
        "the hexes `fighter` can move to in at most `budget` steps, passing through the hexes `through` names (`\"occupied\"`, `\"blocked\"`, both or neither) and ending in an empty, unblocked one; sorted (empty off the battlefield). `[]` is `reachable_hexes(fighter, budget)`; `[\"blocked\", \"occupied\"]` is `flying_hexes(fighter, budget)`",
    ),
    doc(
        Query,
        "move_routes",
        &[
            FIGHTER,
            p("hex", "hex"),
            p("budget", "int"),
            p("types", "list of strings"),
        ],
        "list of routes (lists of hexes)",
        "the routes `fighter` can walk to `hex` in at most `budget` steps, one for each distinct set of hexes of the hex `types` they enter (the cheapest): each the hexes entered, `hex` last; sorted by typed hexes entered, length, then hexes; empty if `hex` is out of reach",
    ),
    doc(
        Query,
        "flying_hexes",
        &[FIGHTER, p("budget", "int")],
        "list of hexes",
        "the hexes `fighter` can fly to in at most `budget` steps: passing over blocked and occupied hexes, ending in an empty one; sorted (empty off the battlefield)",
    ),
    doc(
        Query,
        "starting_hexes",
        &[PLAYER],
        "list of hexes",
        "the empty starting hexes in `player`'s territory (every empty starting hex if the world gives it none), sorted",
    ),
    // Queries: fighters' values.
    doc(
        Query,
        "characteristic",
        &[FIGHTER, n("name", NameKind::Characteristic)],
        "int",
        "a characteristic after modifiers (`move`, `defence`...); an error if the fighter has none of that name",
    ),
    doc(
        Query,
        "damage",
        &[FIGHTER],
        "int",
        "the damage on `fighter`",
    ),
    doc(
        Query,
        "wounds",
        &[FIGHTER],
        "int",
        "the wounds characteristic of `fighter` after modifiers",
    ),
    doc(
        Query,
        "has_token",
        &[FIGHTER, n("token", NameKind::Token)],
        "bool",
        "whether `fighter` has at least one token of this kind",
    ),
    doc(
        Query,
        "tokens",
        &[FIGHTER, n("token", NameKind::Token)],
        "int",
        "how many tokens of this kind `fighter` has",
    ),
    doc(
        Query,
        "has_keyword",
        &[FIGHTER, n("keyword", NameKind::Keyword)],
        "bool",
        "whether `fighter` carries the keyword, or a card equipped on it does (an upgrade that makes its fighter a hunter)",
    ),
    doc(
        Query,
        "is_inspired",
        &[FIGHTER],
        "bool",
        "whether `fighter` is inspired",
    ),
    // Queries: fighter profiles.
    doc(
        Query,
        "weapons",
        &[FIGHTER],
        "list of strings",
        "the names of the weapons `fighter` can use on its current side (inspired or not), in its profile's order, then those its Attack action upgrades give it (a card's `weapon` items), in the order the upgrades were given (empty if the world knows no profile of its kind and it has no such upgrade)",
    ),
    doc(
        Query,
        "weapon_value",
        &[FIGHTER, p("weapon", "string"), p("stat", "string")],
        "int",
        "a weapon's `range`, `dice` or `damage` (`stat`), plus what modifiers add to `fighter`'s characteristic `attack_range`, `attack_dice` or `attack_damage` if it has one; an error for another stat or a weapon it cannot use now",
    ),
    doc(
        Query,
        "attack_targets",
        &[FIGHTER, p("weapon", "string")],
        "list of fighters",
        "the enemies of `fighter` (fighters of other players on the battlefield) within `weapon`'s range (`weapon_value(fighter, weapon, \"range\")`) and visible from `fighter`'s hex, in fighter order (empty off the battlefield)",
    ),
    doc(
        Query,
        "armed_weapons",
        &[FIGHTER],
        "list of strings",
        "the weapons of `weapons(fighter)` that reach at least one of `attack_targets(fighter, weapon)`, in its profile's order",
    ),
    doc(
        Query,
        "charge_hexes",
        &[FIGHTER],
        "list of hexes",
        "the hexes of `reachable_hexes(fighter, characteristic(fighter, \"move\"))` from which one of `fighter`'s usable weapons reaches an enemy in range and in sight, sorted",
    ),
    doc(
        Query,
        "charge_hexes",
        &[FIGHTER, p("weapons", "list of strings")],
        "list of hexes",
        "`charge_hexes(fighter)` with only the named `weapons` (each one `fighter` can use now; an edition that keeps some weapons out of a charge lists the others): the reachable hexes from which one of them reaches an enemy in range and in sight, sorted; empty for `[]`",
    ),
    doc(
        Query,
        "charge_hexes",
        &[
            FIGHTER,
            p("weapons", "list of strings"),
            p("through", "list of strings"),
        ],
        "list of hexes",
        "`charge_hexes(fighter, weapons)` over the hexes of `reachable_hexes(fighter, characteristic(fighter, \"move\"), through)`: a charge that passes through occupied or blocked hexes (a flyer's)",
    ),
    doc(
        Query,
        "hexes_in_reach",
        &[
            FIGHTER,
            p("hexes", "list of hexes"),
            p("weapons", "list of strings"),
        ],
        "list of hexes",
        "the hexes of `hexes`, in their order, from which one of `fighter`'s `weapons` would reach an enemy of it in range and in sight, were it standing there: the test `charge_hexes` applies, to any hexes (a charge whose Move differs from the fighter's)",
    ),
    doc(
        Query,
        "weapon_symbol",
        &[FIGHTER, p("weapon", "string")],
        "string",
        "the attack symbol of one of `fighter`'s weapons (`hammer`, `swords`...)",
    ),
    doc(
        Query,
        "weapon_die",
        &[FIGHTER, p("weapon", "string")],
        "string or ()",
        "the kind of die one of `fighter`'s weapons rolls when it is not the usual one (`magic` for a spell), or `()`",
    ),
    doc(
        Query,
        "weapon_has_keyword",
        &[
            FIGHTER,
            p("weapon", "string"),
            n("keyword", NameKind::Keyword),
        ],
        "bool",
        "whether one of `fighter`'s weapons has the keyword (counting its inspired keywords while `fighter` is inspired)",
    ),
    doc(
        Query,
        "defence_symbol",
        &[FIGHTER],
        "string or ()",
        "the defence symbol of `fighter`'s profile, or `()`",
    ),
    doc(
        Query,
        "inspire_condition_holds",
        &[FIGHTER],
        "bool",
        "whether the inspire condition of `fighter`'s profile holds now, for its owner (false when it has none)",
    ),
    doc(
        Query,
        "uninspire_condition_holds",
        &[FIGHTER],
        "bool",
        "whether the uninspire condition of `fighter`'s profile holds now, for its owner (false when it has none)",
    ),
    doc(
        Query,
        "abilities",
        &[FIGHTER],
        "list of strings",
        "the names of the abilities `fighter` has on its current side (inspired or not), in its profile's order",
    ),
    doc(
        Query,
        "ability_window",
        &[FIGHTER, p("ability", "string")],
        "string or ()",
        "the timing window of one of `fighter`'s abilities, or `()`",
    ),
    doc(
        Query,
        "ability_is_reaction",
        &[FIGHTER, p("ability", "string")],
        "bool",
        "whether one of `fighter`'s abilities is a reaction",
    ),
    doc(
        Query,
        "ability_condition_holds",
        &[FIGHTER, p("ability", "string")],
        "bool",
        "whether the condition of one of `fighter`'s abilities holds now, for its owner, with `this_fighter` = `fighter` (true when it has none)",
    ),
    doc(
        Query,
        "ability_condition_holds",
        &[
            FIGHTER,
            p("ability", "string"),
            p("target", "fighter or ()"),
            p("attacker", "fighter or ()"),
        ],
        "bool",
        "the same, with the event's `target` and `attacker` bound too",
    ),
    doc(
        Query,
        "reactions_of",
        &[
            FIGHTER,
            n("window", NameKind::Event),
            p("target", "fighter or ()"),
            p("attacker", "fighter or ()"),
        ],
        "list of strings",
        "the names of `fighter`'s reactions (abilities with `reaction = true` on its current side) used in `window` whose condition holds, with the event's `target` and `attacker` bound",
    ),
    doc(
        Query,
        "reactions_in",
        &[
            FIGHTER,
            p("windows", "list of strings"),
            p("target", "fighter or ()"),
            p("attacker", "fighter or ()"),
        ],
        "list of strings",
        "the names of `fighter`'s reactions used in any of `windows` whose condition holds, as `reactions_of` for each window, each name once, in the order of its abilities",
    ),
    doc(
        Query,
        "fighters_with_reactions",
        &[
            p("fighters", "list of fighters"),
            p("windows", "list of strings"),
            p("target", "fighter or ()"),
            p("attacker", "fighter or ()"),
        ],
        "list of fighters",
        "the fighters of `fighters`, in their order, with a reaction `reactions_in(fighter, windows, target, attacker)` would list: one call for a whole warband rather than one per fighter",
    ),
    // Queries: the game.
    doc(
        Query,
        "round",
        &[],
        "int",
        "the current round (the game counter `round`)",
    ),
    doc(Query, "glory", &[PLAYER], "int", "the glory `player` has"),
    doc(
        Query,
        "counter",
        &[n("name", NameKind::Counter)],
        "int",
        "a game counter (0 when unset)",
    ),
    doc(
        Query,
        "counter",
        &[SUBJECT, n("name", NameKind::Counter)],
        "int",
        "a counter of a fighter or a player (0 when unset)",
    ),
    doc(
        Query,
        "hand_size",
        &[PLAYER],
        "int",
        "how many cards are in `player`'s power hand",
    ),
    doc(
        Query,
        "zone_size",
        &[PLAYER, n("zone", NameKind::Zone)],
        "int",
        "how many cards are in one of `player`'s zones (0 if it has none of that name)",
    ),
    doc(
        Query,
        "cards_in",
        &[PLAYER, n("zone", NameKind::Zone)],
        "list of cards",
        "the cards in one of `player`'s zones, top first",
    ),
    doc(
        Query,
        "card_name",
        &[p("card", "card")],
        "string",
        "the name of a card",
    ),
    doc(
        Query,
        "cards_of_kind",
        &[p("cards", "list of cards"), p("kind", "string")],
        "list of cards",
        "the cards of `cards` of a kind (`objective`, `ploy`, `upgrade`...), in the order given",
    ),
    doc(
        Query,
        "card_kind",
        &[p("card", "card")],
        "string",
        "the kind of a card (`objective`, `ploy`, `upgrade`...)",
    ),
    doc(
        Query,
        "card_glory",
        &[p("card", "card")],
        "int",
        "the glory an objective card is worth (0 if none)",
    ),
    doc(
        Query,
        "arc_of",
        &[
            p("observer", "fighter"),
            p("target", "fighter or point"),
            p("front", "int"),
            p("rear", "int"),
        ],
        "string",
        "where `target` lies as `observer` faces: `front` (within `front` degrees either side of its facing), `rear` (within `rear` degrees either side of its back) or `side`; half-angles of 30, 45, 60, 90, 120, 135, 150 or 180 degrees, exact; a fighter facing no way sees everything in front",
    ),
    doc(
        Query,
        "card_value",
        &[p("card", "card"), p("value", "string")],
        "int",
        "a named number the card's data gives it (0 if none): for a hero's equipment and spells in a party game, a weapon's `normal`, `power` and `precision` strike modifiers, `damage`, `range` (a length), `cost`, an armour's `save`, a spell's `chance` and `wounds`, a weapon rule's number (`max_damage`)",
    ),
    doc(
        Query,
        "card_tags",
        &[p("card", "card")],
        "list of strings",
        "the names the card's data tags it with beyond its keywords, in order: for a hero's equipment, its special rules (`counter_attack`, `two_handed`), where an armour protects (`head`), `heavy`; for a spell, its domain; for a race or profession card, its keywords",
    ),
    doc(
        Query,
        "card_cost",
        &[p("card", "card")],
        "int",
        "the glory an upgrade card costs (0 if none)",
    ),
    doc(
        Query,
        "card_window",
        &[p("card", "card")],
        "string or ()",
        "the timing window a card is played in, or `()`",
    ),
    doc(
        Query,
        "card_score",
        &[p("card", "card")],
        "string or ()",
        "when an objective card is scored (`surge`, `end_phase`...), or `()`",
    ),
    doc(
        Query,
        "card_casting_value",
        &[p("card", "card")],
        "list of strings",
        "the symbols a casting roll must match to cast a spell card, one entry per symbol (`[\"channel\", \"channel\"]`); empty if it has none",
    ),
    doc(
        Query,
        "card_has_keyword",
        &[p("card", "card"), n("keyword", NameKind::Keyword)],
        "bool",
        "whether a card carries the keyword",
    ),
    doc(
        Query,
        "card_allows",
        &[p("card", "card"), FIGHTER],
        "bool",
        "whether a card's restrictions let `fighter` use it (true when it has none)",
    ),
    doc(
        Query,
        "allowed_fighters",
        &[p("card", "card"), p("fighters", "list of fighters")],
        "list of fighters",
        "the fighters of `fighters` that `card_allows` lets take the card, in the order given",
    ),
    doc(
        Query,
        "condition_holds",
        &[p("card", "card")],
        "bool",
        "whether a card's condition holds now, for its owner (true when it has none)",
    ),
    doc(
        Query,
        "condition_holds",
        &[p("card", "card"), p("fighter", "fighter or ()")],
        "bool",
        "whether a card's condition holds now, for its owner, with `this_fighter` = `fighter`",
    ),
    doc(
        Query,
        "condition_holds",
        &[
            p("card", "card"),
            p("fighter", "fighter or ()"),
            p("target", "fighter or ()"),
            p("attacker", "fighter or ()"),
        ],
        "bool",
        "the same, with the event's `target` and `attacker` bound too (a surge objective checked when its window opens)",
    ),
    doc(
        Query,
        "equipped",
        &[FIGHTER],
        "list of cards",
        "the cards equipped on `fighter`, in the order they were equipped",
    ),
    doc(
        Query,
        "bearer",
        &[p("card", "card")],
        "fighter or ()",
        "the fighter `card` is equipped on (held in a zone of that fighter's), or `()`",
    ),
    // Queries: dice.
    doc(
        Query,
        "cards_for_window",
        &[
            p("cards", "list of cards"),
            n("keyword", NameKind::Keyword),
            p("windows", "list of strings"),
            p("fighter", "fighter or ()"),
            p("target", "fighter or ()"),
            p("attacker", "fighter or ()"),
        ],
        "list of cards",
        "the cards of `cards` with `keyword` whose window is one of `windows` and whose condition holds, as `condition_holds(card, fighter, target, attacker)` says, in the order given (the reactions a reaction step offers)",
    ),
    doc(
        Query,
        "cards_for_window",
        &[
            p("cards", "list of cards"),
            p("windows", "list of strings"),
            p("fighter", "fighter or ()"),
            p("target", "fighter or ()"),
            p("attacker", "fighter or ()"),
        ],
        "list of cards",
        "the same, whatever the cards' keywords (the persisting cards and surge objectives a window wakes)",
    ),
    doc(
        Query,
        "equipped_for_window",
        &[
            p("fighters", "list of fighters"),
            n("keyword", NameKind::Keyword),
            p("windows", "list of strings"),
            p("target", "fighter or ()"),
            p("attacker", "fighter or ()"),
        ],
        "list of cards",
        "the cards equipped on `fighters`, fighter by fighter, that `cards_for_window(equipped(f), keyword, windows, f, target, attacker)` gives for each fighter `f`: their bearer is the condition's `this_fighter`",
    ),
    doc(
        Query,
        "count_faces",
        &[
            p("faces", "list of strings"),
            p("wanted", "list of strings"),
        ],
        "int",
        "how many of the rolled `faces` are among the `wanted` faces",
    ),
    // Queries: the measured table (lengths are tenths of a millimetre).
    doc(
        Query,
        "inches",
        &[p("n", "int")],
        "int",
        "`n` inches as a length in tenths of a millimetre (`inches(3)` is 762; half an inch is `inches(1) / 2`, 127)",
    ),
    doc(
        Query,
        "cm",
        &[p("n", "int")],
        "int",
        "`n` centimetres as a length in tenths of a millimetre",
    ),
    doc(
        Query,
        "mm",
        &[p("n", "int")],
        "int",
        "`n` millimetres as a length in tenths of a millimetre",
    ),
    doc(
        Query,
        "constant",
        &[p("constant", "string")],
        "int",
        "the ruleset's `constant` of that name: a length in tenths of a millimetre (`constant(\"combat_range\")` is 762 for `3in`) or a number",
    ),
    doc(
        Query,
        "point",
        &[p("x", "int"), p("y", "int")],
        "point",
        "the table point `(x, y)` in tenths of a millimetre (also an offset for `move_unit`); read back with `.x` and `.y`",
    ),
    doc(
        Query,
        "table_edge",
        &[],
        "table edge",
        "the table's edge, as a target of `within` and `wholly_within` and in limits",
    ),
    doc(
        Query,
        "position",
        &[FIGHTER],
        "point or ()",
        "the centre of the fighter's base on the table, or `()` when it is not on the table",
    ),
    doc(
        Query,
        "unit_of",
        &[FIGHTER],
        "unit",
        "the fighter's unit (the models sharing its `unit` characteristic; alone, a unit of one)",
    ),
    doc(
        Query,
        "models_of",
        &[UNIT],
        "list of fighters",
        "the unit's models standing on the table, in id order",
    ),
    doc(
        Query,
        "units_of",
        &[PLAYER],
        "list of units",
        "the player's units with a model on the table, in order",
    ),
    doc(
        Query,
        "gap",
        &[p("a", "fighter"), p("b", "fighter")],
        "int",
        "the distance between two models' bases, edge to edge, rounded down to a tenth of a millimetre",
    ),
    doc(
        Query,
        "base_contact",
        &[p("a", "fighter"), p("b", "fighter")],
        "bool",
        "whether two models' bases touch exactly (neither apart by any amount nor overlapping)",
    ),
    doc(
        Query,
        "nearest_enemy",
        &[FIGHTER],
        "fighter or ()",
        "the enemy model whose base is closest to the fighter's (ties: the lower id), or `()`",
    ),
    doc(
        Query,
        "within",
        &[TABLE_SUBJECT, TABLE_TARGET, DISTANCE],
        "bool",
        "whether some part of some base of the subject is at most `distance` from the target (exactly `distance` is within)",
    ),
    doc(
        Query,
        "wholly_within",
        &[TABLE_SUBJECT, TABLE_TARGET, DISTANCE],
        "bool",
        "whether every base of the subject lies entirely within `distance` of the target (a territory with distance 0: inside it)",
    ),
    doc(
        Query,
        "in_range_of_enemy",
        &[TABLE_SUBJECT, DISTANCE],
        "bool",
        "whether some base of the subject is within `distance` of an enemy base (with the combat range: in combat)",
    ),
    doc(
        Query,
        "coherent",
        &[UNIT, DISTANCE, p("neighbours", "int")],
        "bool",
        "whether each model of the unit is within `distance` of `neighbours` others of it (fewer in a small unit) and the unit is in one piece",
    ),
    doc(
        Query,
        "coherency_break",
        &[UNIT, DISTANCE, p("neighbours", "int")],
        "string or ()",
        "why the unit is not coherent, in players' words, or `()` when it is",
    ),
    doc(
        Query,
        "controller",
        &[
            p("objective", "string"),
            DISTANCE,
            n("characteristic", NameKind::Characteristic),
        ],
        "player or ()",
        "who controls the named objective: the player whose models within `distance` of it have the strictly highest positive sum of `characteristic`, or `()`",
    ),
    doc(
        Query,
        "line_of_sight",
        &[p("a", "fighter"), p("b", "fighter")],
        "bool",
        "whether `a` sees `b`: no terrain footprint taller than `b` touches the line between their centres",
    ),
    doc(
        Query,
        "line_of_sight",
        &[p("a", "fighter"), p("b", "fighter"), p("rule", "string")],
        "bool",
        "as `line_of_sight(a, b)`, with only terrain features that have the rule `rule` (`obscuring`) blocking",
    ),
    doc(
        Query,
        "crosses_terrain",
        &[p("a", "fighter"), p("b", "fighter"), p("feature", "string")],
        "bool",
        "whether the line between the two models' centres meets the footprint of a terrain feature named `feature` or with that rule (`cover`), whatever its height (what \"behind\" terrain is judged by)",
    ),
    doc(
        Query,
        "wholly_on_terrain",
        &[TABLE_SUBJECT, p("feature", "string")],
        "bool",
        "whether every base of the subject lies inside the footprint of one terrain feature named `feature` or with that rule",
    ),
    doc(
        Query,
        "territories",
        &[],
        "list of strings",
        "the names of the deployment map's territories, in order",
    ),
    doc(
        Query,
        "objectives",
        &[],
        "list of strings",
        "the names of the table's objectives, in order",
    ),
    doc(
        Query,
        "objective_point",
        &[p("objective", "string")],
        "point",
        "the centre of the named objective",
    ),
    doc(
        Query,
        "terrain_features",
        &[],
        "list of strings",
        "the names of the terrain features on the table, in order",
    ),
    doc(
        Query,
        "terrain_rules",
        &[p("feature", "string")],
        "list of strings",
        "the rules of the named terrain feature (`cover`, `obscuring`...), as the data names them",
    ),
    doc(
        Query,
        "terrain_height",
        &[p("feature", "string")],
        "int",
        "the height of the named terrain feature on the table: its tallest footprint (floor or raised part), in tenths of a millimetre",
    ),
    doc(
        Query,
        "terrain_at",
        &[p("at", "point")],
        "list of strings",
        "the names of the terrain features on the table whose floor holds the point (its boundary counts), in order",
    ),
    doc(
        Query,
        "near_terrain",
        &[FIGHTER, p("feature", "string"), p("distance", "int")],
        "bool",
        "whether some part of the fighter's base is within `distance` of the floor of a terrain feature named `feature` or with that rule (0: touching or on it); false when no feature on the table matches",
    ),
    doc(
        Query,
        "check_move",
        &[FIGHTER, p("path", "list of points"), PATH_LIMITS],
        "string or ()",
        "why the fighter may not move along `path` (its first point where it stands) under `limits`, or `()` when it may",
    ),
    doc(
        Query,
        "check_formation",
        &[UNIT, p("offset", "point"), PATH_LIMITS],
        "string or ()",
        "why the unit may not move as a formation by `offset` under `limits`, or `()` when it may",
    ),
    doc(
        Query,
        "check_setup",
        &[UNIT, p("anchor", "point"), SETUP_LIMITS],
        "string or ()",
        "why the unit's models waiting off the table may not be set up in a row from `anchor` under `limits`, or `()` when they may",
    ),
    doc(
        Query,
        "move_candidates",
        &[UNIT, PATH_LIMITS],
        "list of points",
        "legal offsets for moving the unit as a formation: toward the nearest enemy, into base contact, farthest along each direction, then a lattice; each offset once, none that leaves the unit where it is",
    ),
    doc(
        Query,
        "check_place_model",
        &[FIGHTER, p("at", "point"), SETUP_LIMITS],
        "string or ()",
        "why one model may not be put with its base centre at `at` (from anywhere) under `limits`, or `()` when it may (as `place_model` checks)",
    ),
    doc(
        Query,
        "setup_candidates",
        &[UNIT, SETUP_LIMITS, p("spacing", "int"), p("max", "int")],
        "list of points",
        "legal anchors for setting the unit up, on a square lattice of `spacing` over the zone, at most `max` (1 to 1000), evenly spread",
    ),
    doc(
        Query,
        "table_layouts",
        &[],
        "list of maps",
        "the tables and deployment maps the game may be laid out on, each `#{ layout, table, map }` (pick one with `lay_out_battlefield(layout)`); empty when the match fixed them",
    ),
    doc(
        Query,
        "territories_at",
        &[p("at", "point")],
        "list of strings",
        "the names of the deployment map's territories that hold the point (its boundary counts), in order",
    ),
    doc(
        Query,
        "table_edges",
        &[],
        "list of edges (`[point, point]`)",
        "the table's edges, each the two corners it joins, in the outline's order (a target of terrain limits)",
    ),
    doc(
        Query,
        "terrain_to_set_up",
        &[],
        "list of strings",
        "the names of the table's terrain features that are set up in play and are not on the table yet, in the data's order",
    ),
    doc(
        Query,
        "terrain_kind",
        &[p("feature", "string")],
        "string",
        "the kind of the named terrain feature (`large`, `small`...), as the data names it",
    ),
    doc(
        Query,
        "terrain_setup_candidates",
        &[
            p("feature", "string"),
            TERRAIN_LIMITS,
            p("spacing", "int"),
            p("max", "int"),
        ],
        "list of points",
        "legal places for the named feature's origin (its outline is drawn around it), on a square lattice of `spacing` over the zone, at most `max` (1 to 1000), evenly spread",
    ),
    doc(
        Query,
        "check_terrain_setup",
        &[p("feature", "string"), p("at", "point"), TERRAIN_LIMITS],
        "string or ()",
        "why the named feature may not be set up with its origin at `at` under `limits`, or `()` when it may",
    ),
    doc(
        Query,
        "unit_models",
        &[UNIT],
        "list of fighters",
        "every model of the unit, on the table or not (slain, waiting to be set up), in id order",
    ),
    doc(
        Query,
        "all_units_of",
        &[PLAYER],
        "list of units",
        "every unit of the player, on the table or not, in order",
    ),
    doc(
        Query,
        "army_of",
        &[PLAYER],
        "map or ()",
        "the army the player brings to a measured game: `#{ name, general, abilities }`, `general` the profile (warscroll) name of its general or `()`, `abilities` each `#{ name, window, choice, frequency, keywords, effect }` (`effect`: whether it has an effect script, run with `then(\"ability\", #{ name, player, fighter })`); `()` when the player brings none",
    ),
    doc(
        Query,
        "party_of",
        &[PLAYER],
        "map or ()",
        "the party the player brings to a role-playing skirmish game: `#{ name, alignment, guild, points }`, `alignment` as the party declares it (`\"good\"`...), `guild` its guild's name or `()`; `()` when the player brings none",
    ),
    doc(
        Query,
        "model_abilities",
        &[FIGHTER],
        "list of maps",
        "the abilities of the fighter's profile in a measured game (its warscroll), each as `army_of` gives them",
    ),
    doc(
        Query,
        "model_weapons",
        &[FIGHTER],
        "list of strings",
        "the names of the weapons of the fighter's profile in a measured game (its warscroll), in the data's order",
    ),
    doc(
        Query,
        "model_weapon",
        &[FIGHTER, p("weapon", "string")],
        "map",
        "one weapon of the fighter's profile as a map: `name`, then the data's fields (`range`: a length, or `()` for a melee weapon; `attacks` and `damage`: an int or a roll such as `\"D3\"`; `hit`, `wound`, `rend`; `abilities`: the names of its weapon abilities; for an ability that names what it applies to, that ability's name with the list of them, `anti: [\"hero\"]`)",
    ),
    // Effects.
    doc(
        Effect,
        "deal_damage",
        &[FIGHTER, p("amount", "int")],
        "nothing",
        "adds `amount` damage to `fighter`; a negative amount is refused (use `heal`)",
    ),
    doc(
        Effect,
        "heal",
        &[FIGHTER, p("amount", "int")],
        "nothing",
        "removes up to `amount` damage from `fighter` (never below 0); a negative amount is refused",
    ),
    doc(
        Effect,
        "push",
        &[FIGHTER, p("hexes", "int")],
        "bool",
        "pushes `fighter` exactly `hexes` hexes; the acting player picks where when there is a choice; false if it cannot move",
    ),
    doc(
        Effect,
        "push_away",
        &[FIGHTER, p("from", "fighter or hex"), p("hexes", "int")],
        "bool",
        "pushes `fighter` exactly `hexes` hexes, each step farther from `from`; false if it cannot move",
    ),
    doc(
        Effect,
        "give_token",
        &[FIGHTER, n("token", NameKind::Token)],
        "nothing",
        "gives `fighter` one token of this kind",
    ),
    doc(
        Effect,
        "remove_token",
        &[FIGHTER, n("token", NameKind::Token)],
        "nothing",
        "takes one token of this kind from `fighter`, if it has one",
    ),
    doc(
        Effect,
        "inspire",
        &[FIGHTER],
        "nothing",
        "makes `fighter` inspired (its inspired side's characteristics, if the world knows them)",
    ),
    doc(
        Effect,
        "uninspire",
        &[FIGHTER],
        "nothing",
        "makes `fighter` uninspired again",
    ),
    doc(
        Effect,
        "modify",
        &[
            FIGHTER,
            n("characteristic", NameKind::Characteristic),
            p("amount", "int"),
            n("until", NameKind::Event),
        ],
        "nothing",
        "adds `amount` to a characteristic until the named event next happens (`phase_end`)",
    ),
    doc(
        Effect,
        "draw_power",
        &[p("count", "int")],
        "int",
        "the acting player draws up to `count` power cards; returns how many were drawn",
    ),
    doc(
        Effect,
        "draw_objectives",
        &[p("count", "int")],
        "int",
        "the acting player draws up to `count` objective cards; returns how many were drawn",
    ),
    doc(
        Effect,
        "gain_glory",
        &[PLAYER, p("amount", "int")],
        "nothing",
        "gives `player` `amount` glory; a negative amount is refused",
    ),
    doc(
        Effect,
        "set_counter",
        &[n("name", NameKind::Counter), p("value", "int")],
        "nothing",
        "sets a game counter",
    ),
    doc(
        Effect,
        "set_counter",
        &[SUBJECT, n("name", NameKind::Counter), p("value", "int")],
        "nothing",
        "sets a counter of a fighter or a player; refused if it would leave a fighter's damage or a player's glory below 0",
    ),
    doc(
        Effect,
        "lay_out_battlefield",
        &[p("layout", "string")],
        "nothing",
        "chooses how the boards are laid out, by the name of one of `battlefield_layouts()` (kept in the game counter `battlefield_layout`); the game plays on that layout from the next step on. Refused once a piece stands on the battlefield or a hex was given a type in play",
    ),
    doc(
        Effect,
        "set_hex_type",
        &[
            p("hex", "hex"),
            n("type", NameKind::HexType),
            p("present", "bool"),
        ],
        "nothing",
        "gives `hex` a type in play (`present` true) or takes a type given in play away (a token laid there, a side turned up); the board's printed types stay, and movement and sight do not change",
    ),
    doc(
        Effect,
        "add_counter",
        &[n("name", NameKind::Counter), p("amount", "int")],
        "int",
        "adds to a game counter (a negative amount takes away; game counters may go below 0); returns the new value",
    ),
    doc(
        Effect,
        "add_counter",
        &[SUBJECT, n("name", NameKind::Counter), p("amount", "int")],
        "int",
        "adds to a counter of a fighter or a player (a negative amount takes away); returns the new value; refused if it would leave a fighter's damage or a player's glory below 0",
    ),
    doc(
        Effect,
        "mark",
        &[n("event", NameKind::Event)],
        "nothing",
        "announces a named moment of the rules (triggers and durations listen for it)",
    ),
    doc(
        Effect,
        "mark",
        &[n("event", NameKind::Event), SUBJECT],
        "nothing",
        "announces a named moment about a fighter or a player",
    ),
    doc(
        Effect,
        "roll",
        &[n("die", NameKind::Die), p("count", "int")],
        "list of strings",
        "rolls `count` dice of a kind the ruleset defines; returns the faces rolled; refused past 1000 dice, or fewer when the faces' names would not fit in the script's list and string limits (the message says how many)",
    ),
    doc(
        Effect,
        "face",
        &[p("fighter", "fighter"), p("target", "fighter or point")],
        "nothing",
        "turns `fighter`, standing on the table, to face `target` (its centre); nothing changes if it faces it already",
    ),
    doc(
        Effect,
        "roll_for",
        &[PLAYER, n("die", NameKind::Die), p("count", "int")],
        "list of strings",
        "rolls `count` dice for `player` (a roll-off: each player rolls their own); returns the faces rolled; limited as `roll`",
    ),
    doc(
        Effect,
        "say",
        &[p("text", "string")],
        "nothing",
        "tells the players what happened, in their words (`gloam play` prints it, `gloam::narrate` tells it); changes nothing",
    ),
    doc(
        Effect,
        "say",
        &[p("text", "string"), SUBJECT],
        "nothing",
        "tells the players what a fighter or a player did: narration prints its name, then `text` (`say(\"wins the roll-off\", p)`)",
    ),
    doc(
        Effect,
        "move_fighter",
        &[FIGHTER, p("hex", "hex")],
        "list of hexes",
        "walks `fighter` to an empty `hex` along a shortest path; returns the hexes entered, in order",
    ),
    doc(
        Effect,
        "move_fighter_along",
        &[FIGHTER, p("route", "list of hexes")],
        "list of hexes",
        "walks `fighter` along `route` (the hexes it enters, in order: each adjacent to the last, empty, the last one not its start); returns the hexes entered",
    ),
    doc(
        Effect,
        "fly_fighter",
        &[FIGHTER, p("hex", "hex")],
        "list of hexes",
        "flies `fighter` to an empty `hex` along a shortest path over blocked and occupied hexes; returns the hexes passed and entered, in order",
    ),
    doc(
        Effect,
        "place_fighter",
        &[FIGHTER, p("hex", "hex")],
        "nothing",
        "puts `fighter` in an empty, unblocked `hex` (deploying, placing)",
    ),
    doc(
        Effect,
        "take_off",
        &[FIGHTER],
        "nothing",
        "takes `fighter` off the battlefield (its tokens and counters stay)",
    ),
    doc(
        Effect,
        "move_card",
        &[p("card", "card"), n("zone", NameKind::Zone)],
        "nothing",
        "puts a card on top of its owner's zone of that name",
    ),
    doc(
        Effect,
        "move_card_bottom",
        &[p("card", "card"), n("zone", NameKind::Zone)],
        "nothing",
        "puts a card at the bottom of its owner's zone of that name",
    ),
    doc(
        Effect,
        "shuffle_zone",
        &[PLAYER, n("zone", NameKind::Zone)],
        "nothing",
        "shuffles one of `player`'s zones",
    ),
    doc(
        Effect,
        "draw_cards",
        &[
            PLAYER,
            n("from", NameKind::Zone),
            n("to", NameKind::Zone),
            p("count", "int"),
        ],
        "int",
        "moves up to `count` cards from the top of `player`'s `from` zone to `to`; returns how many moved",
    ),
    doc(
        Effect,
        "equip",
        &[p("card", "card"), FIGHTER],
        "nothing",
        "puts a card on `fighter` (its zone `equipped`, made if needed)",
    ),
    // Effects: the measured table.
    doc(
        Effect,
        "move_unit",
        &[UNIT, p("offset", "point"), PATH_LIMITS],
        "nothing",
        "moves every model of the unit by `offset` if the formation move is legal under `limits`; refused otherwise",
    ),
    doc(
        Effect,
        "move_model",
        &[FIGHTER, p("path", "list of points"), PATH_LIMITS],
        "nothing",
        "moves one model along `path` if it is legal under `limits`; refused otherwise",
    ),
    doc(
        Effect,
        "set_up_unit",
        &[UNIT, p("anchor", "point"), SETUP_LIMITS],
        "nothing",
        "sets the unit's models waiting off the table up in a row from `anchor`, bases touching, if legal under `limits`; refused otherwise",
    ),
    doc(
        Effect,
        "place_model",
        &[FIGHTER, p("at", "point"), SETUP_LIMITS],
        "nothing",
        "puts one model's base centre at `at` (from anywhere) if legal under `limits`; refused otherwise",
    ),
    doc(
        Effect,
        "set_up_terrain",
        &[p("feature", "string"), p("at", "point"), TERRAIN_LIMITS],
        "nothing",
        "sets the named terrain feature up with its origin at `at`, if legal under `limits`; refused otherwise (and when it is already set up)",
    ),
    doc(
        Effect,
        "roll_amount",
        &[p("amount", "int or string")],
        "int",
        "an amount as a number: an int as it is, a roll such as `\"D3\"`, `\"2D6+1\"` rolled with the ruleset's die of that name (`d3`, `d6`) and its faces' `values` added up",
    ),
    doc(
        Effect,
        "roll_values",
        &[n("die", NameKind::Die), p("count", "int")],
        "list of ints",
        "rolls `count` dice as `roll` does and returns each die's number (its face's value in the ruleset's `values`)",
    ),
    // Effects: the flow, run once the script has finished.
    doc(
        Effect,
        "then",
        &[n("step", NameKind::Step)],
        "nothing",
        "once this script finishes, runs the rule step `step` (several run in the order queued)",
    ),
    doc(
        Effect,
        "then",
        &[n("step", NameKind::Step), p("vars", "map")],
        "nothing",
        "the same, the step receiving the map's entries as variables (fighters, players, cards, hexes, ints, bools, strings, lists)",
    ),
    doc(
        Effect,
        "play_card",
        &[p("card", "card"), p("fighter", "fighter or ()")],
        "nothing",
        "once this script finishes, resolves the card's effect for its owner, with `this_fighter` = `fighter`",
    ),
    doc(
        Effect,
        "use_ability",
        &[FIGHTER, p("ability", "string")],
        "nothing",
        "once this script finishes, resolves the effect of one of `fighter`'s abilities (the driver's `ability` step) for its owner, with `this_fighter` = `fighter`",
    ),
    doc(
        Effect,
        "use_ability",
        &[
            FIGHTER,
            p("ability", "string"),
            p("target", "fighter or ()"),
            p("attacker", "fighter or ()"),
        ],
        "nothing",
        "the same, with the event's `target` and `attacker` bound in the effect",
    ),
    doc(
        Effect,
        "end_game",
        &[p("winners", "list of players"), p("reason", "string")],
        "nothing",
        "once this script finishes, the game ends with these winners",
    ),
    // Choices.
    doc(
        Choice,
        "choose_fighter",
        &[p("fighters", "list of fighters"), p("prompt", "string")],
        "fighter",
        "the acting player picks one of the fighters",
    ),
    doc(
        Choice,
        "choose_hex",
        &[p("hexes", "list of hexes"), p("prompt", "string")],
        "hex",
        "the acting player picks one of the hexes",
    ),
    doc(
        Choice,
        "choose_option",
        &[p("options", "list of strings"), p("prompt", "string")],
        "string",
        "the acting player picks one of the named options",
    ),
    doc(
        Choice,
        "choose_secretly",
        &[
            p("players", "list of players"),
            p(
                "options",
                "list of strings, or one list of strings for each player",
            ),
            p("prompt", "string"),
        ],
        "list of strings",
        "each of `players` picks one of the named options (its own list when `options` holds one list per player), all at once and in secret: an answer is hidden from the other players until every one is in, then all are revealed together; returns the answers in the order of `players` (an empty list, without asking, for no players)",
    ),
    doc(
        Choice,
        "choose_route",
        &[p("routes", "list of routes"), p("prompt", "string")],
        "list of hexes",
        "the acting player picks one of `routes` (as `move_routes` gives them; each offered as the option `by (q, r) (q, r)...`, its hexes in order)",
    ),
    doc(
        Choice,
        "choose_card",
        &[p("cards", "list of cards"), p("prompt", "string")],
        "card",
        "the acting player picks one of the cards",
    ),
    doc(
        Choice,
        "choose_move",
        &[UNIT, PATH_LIMITS, p("prompt", "string")],
        "point or ()",
        "the acting player picks an offset for the unit among `move_candidates` or sends any point, which is checked (an illegal one is refused and nothing changes); `()` without asking when no candidate is legal",
    ),
    doc(
        Choice,
        "choose_setup",
        &[
            UNIT,
            SETUP_LIMITS,
            p("spacing", "int"),
            p("max", "int"),
            p("prompt", "string"),
        ],
        "point or ()",
        "the acting player picks an anchor for the unit among `setup_candidates` or sends any point, which is checked; `()` without asking when no candidate is legal",
    ),
    doc(
        Choice,
        "choose_terrain_setup",
        &[
            p("feature", "string"),
            TERRAIN_LIMITS,
            p("spacing", "int"),
            p("max", "int"),
            p("prompt", "string"),
        ],
        "point or ()",
        "the acting player picks where the named feature's origin goes among `terrain_setup_candidates` or sends any point, which is checked; `()` without asking when no place is legal",
    ),
];

/// Every function scripts may call, queries first, then effects, then choices.
///
/// # Examples
///
/// ```
/// use gloam_dsl::{vocabulary, FunctionKind};
/// let push = vocabulary().iter().find(|doc| doc.name == "push").unwrap();
/// assert_eq!(push.kind, FunctionKind::Effect);
/// assert_eq!(push.params.len(), 2);
/// ```
pub fn vocabulary() -> &'static [FunctionDoc] {
    VOCABULARY
}

/// The entries for `name` (several when it takes different numbers of arguments).
pub(crate) fn entries(name: &str) -> impl Iterator<Item = &'static FunctionDoc> + '_ {
    VOCABULARY.iter().filter(move |doc| doc.name == name)
}

/// The section of `docs/dsl.md` on the measured table's values and limits maps.
const TABLE: &str = "
## The measured table

A game played on a measured table (a world built with a `Table`: its outline, terrain
features, the deployment map's territories and the objectives) reads it with the table
functions above; in a hex game every one of them but `inches`, `cm`, `mm` and `point` fails
with \"this game has no table\".

- **Lengths** are whole tenths of a millimetre (`int`): `inches(3)` is 762, `inches(1) / 2`
  is 127, `cm(1)` is 100; a ruleset's `constant \"combat_range\" { length = 3in }` reads as
  `constant(\"combat_range\")`, 762. Every distance is inclusive: exactly `d` away is
  within `d`.
- **Points** (`point(x, y)`, `position(f)`, `.x`, `.y`) are table coordinates or, for
  `move_unit`, offsets.
- **Units** are the models sharing the characteristic `unit` (a model without one is a unit
  of one); a model's base radius is its characteristic `base_radius`, its height (for line
  of sight) `height`, all in tenths of a millimetre.
- **Targets** of `within`, `wholly_within` and the limits: a point, a fighter, a unit,
  `table_edge()`, or a string naming a territory or an objective (an objective is its centre
  point). Readings of each (a base straddling two targets, a corner of the table) are in
  `docs/kernel.md`, \"Groups, paths and candidate points on the table\".
- **Move limits** (a map; `budget` required): `budget` (the longest path), `never_within`
  (never that close to an enemy on the way), `not_end_within`, `end_within: [target, d]`,
  `no_farther_from_enemy: true`, `may_pass: [fighters]`, `impassable: [names]`,
  `no_stop: [names]` (terrain features by name or by rule, `\"unstable\"`, or
  `[name, height]` for only their parts taller than `height`; a name or rule no feature on
  the table has matches nothing), `on_table` (default true).
- **Set-up limits** (a map, every key optional): `zone` (a territory name, wholly within
  it), `away: [[target, d], ...]` (more than `d` from each), `wholly_near: [[target, d],
  ...]` (wholly within `d` of each; a territory must be convex when `d` is above 0),
  `no_stop`, `on_table`. A unit is set up from its models not on the table, in id
  order, in a row along x, bases touching, the first centred on the anchor.
- **Tables and maps chosen in play**: a match that leaves them open has one layout for each
  table and deployment map of its ruleset; `table_layouts()` lists them and
  `lay_out_battlefield(layout)` picks one before anything is on the table.
- **Terrain set up in play**: a table's features not placed by the match are drawn around
  their own origin and stand on the table once `set_up_terrain` puts them
  (`terrain_to_set_up`, `choose_terrain_setup`). **Terrain limits** (a map, every key
  optional): `zone` (a territory the footprint lies wholly within), `away: [[target, d],
  ...]` (more than `d` from each: a point, a fighter, `table_edge()`, an edge as
  `table_edges()` gives it, or a territory, objective or terrain feature by name),
  `terrain_gap: d` (more than `d` from every feature on the table), `on_table` (default
  true).
- **Profiles** of a measured game's models: `model_weapons`, `model_weapon` (a map of the
  weapon's values as the data writes them) and `model_abilities`; `army_of(player)` tells
  the army a player brings, its general and its abilities, whose effects run as the
  driver's `ability` step (`then(\"ability\", #{ name, player, fighter })`).
- **Numbered dice**: a die whose faces carry `values` in the ruleset is read as numbers
  by `roll_values(die, n)`, and a roll written as in the data (`\"D3\"`, `\"2D6+1\"`) by
  `roll_amount`.
- **Refusals** are in players' words, in the table's unit: a check returns the reason as a
  string (`()` when legal); an effect given an illegal move is refused and the whole script
  undone; `choose_move` and `choose_setup` offer the candidates and accept any other point
  the host sends, which is checked and, if illegal, refused with the reason, nothing changed
  (the rules driver reports it as the kernel's `AnswerRefused`; the request stays pending).
";

/// The text of `docs/dsl.md`: the script reference, generated from the vocabulary, the
/// default limits and the diagnostic codes, so the document cannot drift from the code.
///
/// # Examples
///
/// ```
/// let text = gloam_dsl::docs_markdown();
/// assert!(text.starts_with("# The gloam script language"));
/// assert!(text.contains("`deal_damage(fighter: fighter, amount: int) -> nothing`"));
/// ```
pub fn docs_markdown() -> String {
    let mut out = String::new();
    out.push_str(INTRO);
    out.push_str(&crate::variables::variables_markdown());
    for (kind, title, about) in [
        (
            FunctionKind::Query,
            "Queries",
            "Queries read the game and change nothing. Conditions may call only these.",
        ),
        (
            FunctionKind::Effect,
            "Effects",
            "Effects change the game through the kernel; every change becomes an event. A \
             condition that calls one is refused when it is compiled. `then`, `play_card`, \
             `use_ability` and `end_game` change nothing at once: they queue what happens \
             after the script finishes (returned to the host with its outcome), and a script \
             that fails or stops at a choice queues nothing.",
        ),
        (
            FunctionKind::Choice,
            "Choices",
            "A choice asks the acting player. The first run stops at the first unanswered \
             choice and the host asks the player; once answered, the script runs again from \
             the start with the answers so far, each choice taking the next answer in order.              `choose_secretly` asks several players at once instead (sealed bids, a hidden              guess): the kernel records each answer as hidden (`DecidedHidden`), shows no              player another's answer (`PlayerView`, `Game::events_for`) and reveals them all              in one `Revealed` event when the last is in; only then does the script run on.",
        ),
    ] {
        out.push_str(&format!(
            "\n## {title}\n\n{about}\n\n| function | what it does |\n| --- | --- |\n"
        ));
        for entry in VOCABULARY.iter().filter(|entry| entry.kind == kind) {
            out.push_str(&format!(
                "| `{}` | {} |\n",
                entry.signature(),
                entry.summary
            ));
        }
    }
    out.push_str(TABLE);
    out.push_str(NAMES);
    for kind in NameKind::ALL {
        let mut takers: Vec<String> = Vec::new();
        for entry in VOCABULARY {
            for param in entry
                .params
                .iter()
                .filter(|param| param.names == Some(kind))
            {
                let taker = format!("`{}({})`", entry.name, param.name);
                if !takers.contains(&taker) {
                    takers.push(taker);
                }
            }
        }
        out.push_str(&format!("| `{}` | {} |\n", kind.name(), takers.join(", ")));
    }
    let limits = Limits::default();
    out.push_str("\n## Limits\n\nA run that goes past a limit stops with `gloam::dsl::limit_exceeded` and changes nothing; `try` does not catch it. The operations limit counts everything the run does: every statement, expression and call, each turn of a closure given to `filter`, `some`, `all` or `map`, and each item `contains` compares. The defaults:\n\n| limit | default |\n| --- | --- |\n");
    for (name, value) in [
        ("operations in one run", limits.operations),
        ("call depth", limits.call_depth as u64),
        ("expression depth", limits.expression_depth as u64),
        (
            "expression depth inside a function",
            limits.function_expression_depth as u64,
        ),
        ("characters in a string", limits.string_size as u64),
        ("items in a list", limits.array_size as u64),
        ("entries in a map", limits.map_size as u64),
        ("variables alive at once", limits.variables as u64),
        (
            "functions a script defines (closures count too)",
            limits.functions as u64,
        ),
        (
            "bytes of one script (checked at load)",
            limits.script_bytes as u64,
        ),
    ] {
        out.push_str(&format!("| {name} | {value} |\n"));
    }
    out.push_str("\n## Diagnostics\n\n| code | meaning |\n| --- | --- |\n");
    for (code, meaning) in crate::list_codes() {
        out.push_str(&format!("| `{code}` | {meaning} |\n"));
    }
    out
}

const INTRO: &str = "# The gloam script language

<!-- Generated by `gloam_dsl::docs_markdown()`; a test keeps this file equal to it. -->

Cards, abilities and rulesets hold small scripts: `effect = { deal_damage(target, 1); }`.
Scripts are [Rhai](https://rhai.rs) with the sandbox below; they are compiled once, when
the data is loaded, and every call is checked then against this page.

- **Values.** Whole numbers (`1`, `-2`; rules are integer, so `1.5` is refused), `true` and
  `false`, strings (`\"guard\"`), lists (`[a, b]`), and four game values: a *fighter*, a
  *hex*, a *player* and a *card*. Game values compare with `==` and read in strings as
  `piece3`, `(1, -2)`, `player0`, `card12`; a hex has `q` and `r` (`hex_of(f).q`).
- **Variables from the context.** A script receives the variables of its place (a card's
  `this_card` and `player`; `this_fighter` only where a fighter plays or carries it: see
  *Variables by place* below). Any other name must be declared with `let` first.
- **Language.** `let`, `if`/`else`, `for x in list`, `while`, `fn` helpers, closures
  (`fighters().filter(|f| adjacent(f, this_fighter))`) and Rhai's list, map and string
  methods. No `eval`, no modules, no output, no clock, no floating point.
- **Names.** `damage`, `wounds`, `glory`, `round`, `is_inspired` and the `draw_*` effects
  read and write the counters, characteristic, keyword and zones of those names
  (`power_deck`, `power_hand`, `objective_deck`, `objective_hand`); a ruleset that names
  them otherwise says so to the host (`gloam_dsl::Names`).
- **Conditions** (restrictions, inspire conditions, objective conditions) end in `true` or
  `false` and may only call queries.
- **Cards.** `card_kind`, `card_glory`, `card_window` and the other card queries read the
  card's definition in the loaded data. `condition_holds(card, fighter)` runs the card's
  `condition` inside the current script, against the game as the script has left it, with
  `this_card`, `player` (the card's owner, who also acts) and `this_fighter` bound;
  conditions may check other cards' conditions at most 8 deep.
- **Abilities.** `abilities`, `reactions_of` and the other ability queries read the fighter
  profile's abilities on the fighter's current side; `ability_condition_holds`,
  `inspire_condition_holds` and `uninspire_condition_holds` run the ability's `condition`
  or the profile's `inspire` or `uninspire` condition inside the current script, as
  `condition_holds` does for cards, with
  `this_fighter` and `player` (the fighter's owner) bound.
- **Flow.** A rule step's script says what happens next with `then(\"step\", #{ ... })`,
  `play_card`, `use_ability` and `end_game`; they take effect, in order, once the script has
  finished.
- **Atomic runs.** A script runs against a copy of the game; its changes are kept only if it
  finishes. An error, a limit reached or a pending choice leaves the game exactly as it was.
";

const NAMES: &str = "
## Names

A string given where a function expects a name (a parameter marked `(a token name)`, `(a hex
type name)`...) names something the ruleset declares. Written as a literal,
`has_token(f, \"guard\")`, it is checked when the data loads against the ruleset's names of
that kind (its `tokens`, `keywords`, `counters` and `hex_types`; its `characteristic`, `die`
and `window` items; for events, its windows and any events it declares; for steps, its `step`
items and the built-in `card` and `ability`). A name it does not
declare is `gloam::dsl::unknown_name`, with the closest declared name. A name made while the
script runs (`let t = \"guard\"; has_token(f, t)`, `\"gu\" + \"ard\"`) is not checked, and
neither is a kind the ruleset declares no names of.

| kind | parameters |
| --- | --- |
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocabulary_entries_are_unique_by_name_and_arity() {
        let mut seen = std::collections::BTreeSet::new();
        for entry in VOCABULARY {
            assert!(
                seen.insert((entry.name, entry.params.len())),
                "{} with {} parameters appears twice",
                entry.name,
                entry.params.len()
            );
        }
    }

    #[test]
    fn vocabulary_is_grouped_by_kind() {
        let kinds: Vec<FunctionKind> = VOCABULARY.iter().map(|entry| entry.kind).collect();
        let mut sorted = kinds.clone();
        sorted.sort();
        assert_eq!(kinds, sorted);
    }
}
