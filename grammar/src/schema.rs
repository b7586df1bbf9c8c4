//! The schema: which items exist, where, and which fields each has (name, type, required),
//! and the checks it drives: unknown item, missing or unexpected name, unknown field
//! (did you mean), missing field, wrong type, duplicate field, duplicate sibling names.

use std::collections::BTreeMap;

use crate::ast::{Element, Item, Span, Value};
use crate::diagnostic::{FileRef, GrammarDiagnostic};
use crate::suggest;

/// The type of a field's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldType {
    /// `"text"`.
    String,
    /// A whole number: `3`.
    Int,
    /// `true` or `false`.
    Bool,
    /// A bare name: `lethal`.
    Name,
    /// A bare name or a string: `universal` or `"Da Kunnin' Krew"`.
    NameOrString,
    /// A script: `{ push(target, 1); }`.
    Script,
    /// A list of names: `[starting, blocked]`.
    Names,
    /// A list of strings: `["Sidestep", "Great Strength"]`.
    Strings,
    /// A list of `name: number` pairs: `[move: 3, wounds: 4]`.
    NumberPairs,
    /// A list of `name: name` pairs: `[defence: block]`.
    NamePairs,
    /// A list of `name: value` pairs whose values are names or strings:
    /// `[fighter: "Taros", keyword: wizard]`.
    TextPairs,
    /// A list of names and `name: number` pairs: `[cleave, knockback: 1]`.
    Tags,
    /// A length with its unit: `3in`, `0.5in`, `12cm`.
    Length,
    /// A point on a table, two lengths `[x, y]` from its corner: `[22in, 15in]`.
    Point,
    /// A list of points: `[[0in, 0in], [44in, 0in], [44in, 10in]]`.
    Points,
    /// A list of `name: number` or `name: length` pairs: `[move: 5in, health: 2]`.
    Values,
    /// A list of names and `name: name` pairs: `[crit_mortal, anti: hero]`.
    Abilities,
    /// A whole number or a dice roll written as a string: `2`, `"D3"`, `"2D6+1"`.
    Amount,
    /// A board legend: pairs of a one-character key (a name or a string) and a hex type or a
    /// list of hex types: `[S: starting, "#": blocked, x: [starting, cover]]`.
    Legend,
}

impl FieldType {
    /// How the type is described in messages: "a whole number".
    pub fn describe(self) -> &'static str {
        match self {
            FieldType::String => "a string",
            FieldType::Int => "a whole number",
            FieldType::Bool => "`true` or `false`",
            FieldType::Name => "a name",
            FieldType::NameOrString => "a name or a string",
            FieldType::Script => "a script `{ ... }`",
            FieldType::Names => "a list of names",
            FieldType::Strings => "a list of strings",
            FieldType::NumberPairs => "a list of `name: number` pairs",
            FieldType::NamePairs => "a list of `name: name` pairs",
            FieldType::TextPairs => "a list of `name: name` or `name: \"string\"` pairs",
            FieldType::Tags => "a list of names and `name: number` pairs",
            FieldType::Legend => "a list of `character: hex type` pairs",
            FieldType::Length => "a length such as `3in`",
            FieldType::Point => "a point `[x, y]` of two lengths",
            FieldType::Points => "a list of points `[[x, y], ...]`",
            FieldType::Values => "a list of `name: number` or `name: length` pairs",
            FieldType::Abilities => "a list of names and `name: name` pairs",
            FieldType::Amount => "a whole number or a dice roll such as `\"D3\"`",
        }
    }
}

/// One field of an item kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FieldSchema {
    /// The field name.
    pub name: &'static str,
    /// The value's type.
    pub ty: FieldType,
    /// Whether every item of the kind must set it. Some fields are required only in some
    /// cases (a ruleset's `rounds` unless it `extends` another; a card's `window` when it
    /// has an `effect`): those are checked separately and marked optional here.
    pub required: bool,
    /// What the field means.
    pub about: &'static str,
    /// An example, as written in a file.
    pub example: &'static str,
}

/// One item kind: its fields and the item kinds it may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItemSchema {
    /// The kind, as written: `card`.
    pub kind: &'static str,
    /// Whether the item takes a name string (`card "Sidestep" { }`); unnamed kinds are
    /// written `kind { }`.
    pub named: bool,
    /// What the item is.
    pub about: &'static str,
    /// Its fields, in the canonical order (the printer's order).
    pub fields: &'static [FieldSchema],
    /// The kinds of items it may contain. Each may appear any number of times, with names
    /// unique per kind within the item.
    pub children: &'static [&'static str],
    /// The kind of item this schema applies inside, for a kind written in more than one kind
    /// of item with different fields (`deck` in a `ruleset` holds deck-building rules, in a
    /// `decklist` a deck's cards); `None` when the kind means the same wherever it is allowed.
    pub parent: Option<&'static str>,
}

impl ItemSchema {
    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&'static FieldSchema> {
        self.fields.iter().find(|field| field.name == name)
    }
}

const fn field(
    name: &'static str,
    ty: FieldType,
    required: bool,
    about: &'static str,
    example: &'static str,
) -> FieldSchema {
    FieldSchema {
        name,
        ty,
        required,
        about,
        example,
    }
}

use FieldType as T;

const RULESET_FIELDS: &[FieldSchema] = &[
    field(
        "extends",
        T::String,
        false,
        "the ruleset this one builds on: its parts are inherited, parts of the same name are overridden",
        "extends = \"underworlds\"",
    ),
    field(
        "title",
        T::String,
        true,
        "the full title",
        "title = \"Warhammer Underworlds: Harrowdeep\"",
    ),
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "rounds",
        T::Int,
        false,
        "the number of rounds (required unless `extends` is set)",
        "rounds = 3",
    ),
    field(
        "min_players",
        T::Int,
        false,
        "the fewest players (required unless `extends` is set)",
        "min_players = 2",
    ),
    field(
        "max_players",
        T::Int,
        false,
        "the most players (required unless `extends` is set)",
        "max_players = 4",
    ),
    field(
        "off_board_blocks_sight",
        T::Bool,
        false,
        "whether a line of sight that leaves the battlefield is blocked",
        "off_board_blocks_sight = true",
    ),
    field(
        "ours",
        T::Names,
        false,
        "what the rules source does not state, chosen by the data's authors: settings of this ruleset (`max_players`) or names of its own vocabulary lists (keywords of converted warbands); `gloam rules diff` tells them from the source's rules",
        "ours = [max_players, hunter]",
    ),
    field(
        "hex_types",
        T::Names,
        false,
        "the hex types boards may use",
        "hex_types = [starting, blocked, lethal, cover]",
    ),
    field(
        "tokens",
        T::Names,
        false,
        "the tokens fighters and hexes may carry",
        "tokens = [move, charge, guard, stagger]",
    ),
    field(
        "counters",
        T::Names,
        false,
        "the counters cards may carry",
        "counters = [wound]",
    ),
    field(
        "keywords",
        T::Names,
        false,
        "the keywords fighters, weapons and cards may have",
        "keywords = [leader, wizard, cleave, knockback]",
    ),
    field(
        "card_kinds",
        T::Names,
        false,
        "the kinds of card",
        "card_kinds = [objective, ploy, spell, upgrade]",
    ),
    field(
        "score_timings",
        T::Names,
        false,
        "when objectives may be scored",
        "score_timings = [surge, end_phase, third_end_phase]",
    ),
    field(
        "alliances",
        T::Names,
        false,
        "the grand alliances warbands and cards may belong to",
        "alliances = [order, chaos, death, destruction]",
    ),
    field(
        "zones",
        T::NamePairs,
        false,
        "each player's zones of cards and who sees them (`owner`, `public` or `nobody`)",
        "zones = [power_hand: owner, power_discard: public]",
    ),
    field(
        "unit",
        T::Name,
        false,
        "for a measured game, the unit its lengths are shown in: `in`, `cm` or `mm`",
        "unit = in",
    ),
    field(
        "weapon_abilities",
        T::Names,
        false,
        "the weapon abilities weapons of a measured game may have",
        "weapon_abilities = [anti, charge, companion, crit_mortal]",
    ),
    field(
        "flags",
        T::Names,
        false,
        "states a unit takes during a turn that rules test (an `anti:` weapon ability may name one)",
        "flags = [charged, ran, retreated]",
    ),
    field(
        "terrain_kinds",
        T::Names,
        false,
        "the kinds of terrain feature tables may hold",
        "terrain_kinds = [large, small]",
    ),
    field(
        "terrain_rules",
        T::Names,
        false,
        "the rules terrain features may have",
        "terrain_rules = [cover, obscuring, unstable]",
    ),
    field(
        "frequencies",
        T::Names,
        false,
        "how often an ability may be used",
        "frequencies = [once_per_turn, once_per_battle]",
    ),
    field(
        "army_choices",
        T::NumberPairs,
        false,
        "the groups of army abilities a player picks from before the battle, with how many each picks",
        "army_choices = [regiment_ability: 1, enhancement: 1]",
    ),
    field(
        "remove",
        T::TextPairs,
        false,
        "inherited parts to drop, as `part: name`",
        "remove = [window: \"surge_step\", hex_type: cover]",
    ),
    field(
        "setup",
        T::Script,
        false,
        "the set-up sequence",
        "setup = { draw_objectives(3); }",
    ),
    field(
        "scoring",
        T::Script,
        false,
        "scoring run at the end of each round",
        "scoring = { ... }",
    ),
    field(
        "victory",
        T::Script,
        false,
        "decides the winner at the end of the game",
        "victory = { ... }",
    ),
];

const CHARACTERISTIC_FIELDS: &[FieldSchema] = &[
    field(
        "about",
        T::String,
        false,
        "what the characteristic measures",
        "about = \"hexes a fighter may move\"",
    ),
    field(
        "floor",
        T::Int,
        false,
        "the lowest value modifiers may bring it to",
        "floor = 0",
    ),
    field(
        "dice",
        T::Name,
        false,
        "the die it counts, when its value is a number of dice: fighters' values are checked against what one roll may have",
        "dice = defence",
    ),
    field(
        "length",
        T::Bool,
        false,
        "whether its values are lengths (`move: 5in`) rather than whole numbers",
        "length = true",
    ),
    field(
        "required",
        T::Bool,
        false,
        "whether every warscroll must give it",
        "required = true",
    ),
    field(
        "ours",
        T::Names,
        false,
        "the characteristic's fields the rules source does not state, chosen by the data's authors",
        "ours = [floor]",
    ),
];

const DIE_FIELDS: &[FieldSchema] = &[
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "faces",
        T::NumberPairs,
        false,
        "each face and how many sides show it (or `sides`)",
        "faces = [critical: 1, hammer: 2, swords: 1, single_support: 1, double_support: 1]",
    ),
    field(
        "sides",
        T::Int,
        false,
        "a numbered die: faces `1` to `sides`, each valued at its pips (instead of `faces`)",
        "sides = 6",
    ),
    field(
        "values",
        T::NumberPairs,
        false,
        "the number each face counts for when the die is read as a number (rolls such as `D3` or `2D6` in the data, `roll_amount` in scripts)",
        "values = [one: 1, two: 2, three: 3, four: 4, five: 5, six: 6]",
    ),
];

const WINDOW_FIELDS: &[FieldSchema] = &[
    field(
        "about",
        T::String,
        false,
        "when the window opens",
        "about = \"after a fighter is dealt damage\"",
    ),
    field(
        "gives",
        T::Names,
        false,
        "the fighters of the window's event that the scripts of cards and abilities used in it receive (`target`, `attacker`); none when absent",
        "gives = [target, attacker]",
    ),
    field(
        "optional",
        T::Names,
        false,
        "those of `gives` that may be `()` (the event has no such fighter); the others are always a fighter",
        "optional = [attacker]",
    ),
];

const STEP_FIELDS: &[FieldSchema] = &[
    field(
        "about",
        T::String,
        false,
        "what the step does",
        "about = \"...\"",
    ),
    field("run", T::Script, true, "the step's script", "run = { ... }"),
];

const INVARIANT_FIELDS: &[FieldSchema] = &[
    field(
        "about",
        T::String,
        true,
        "what always holds, said when it breaks",
        "about = \"no hero holds more than two Action Dice\"",
    ),
    field(
        "holds",
        T::Script,
        true,
        "a condition that is true after every decision of every game",
        "holds = { fighters().all(|f| tokens(f, \"action_die\") <= 2) }",
    ),
];

const ACTION_FIELDS: &[FieldSchema] = &[
    field(
        "about",
        T::String,
        false,
        "what the action does",
        "about = \"...\"",
    ),
    field(
        "condition",
        T::Script,
        false,
        "whether the action may be taken",
        "condition = { ... }",
    ),
    field(
        "run",
        T::Script,
        true,
        "the action's script",
        "run = { ... }",
    ),
];

const BATTLEFIELD_FIELDS: &[FieldSchema] = &[
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "players",
        T::Int,
        true,
        "the number of players this layout is for",
        "players = 3",
    ),
    field(
        "min_completed",
        T::Int,
        false,
        "the fewest hexes each pair of touching boards must complete",
        "min_completed = 0",
    ),
    field(
        "seat_1",
        T::NumberPairs,
        true,
        "the first seat's board: turned `turn` sixths clockwise, moved by axial `q`, `r`",
        "seat_1 = [turn: 0, q: 0, r: 0]",
    ),
    field(
        "seat_2",
        T::NumberPairs,
        false,
        "the second seat's board",
        "seat_2 = [turn: 3, q: 2, r: 10]",
    ),
    field(
        "seat_3",
        T::NumberPairs,
        false,
        "the third seat's board",
        "seat_3 = [turn: 0, q: 8, r: 0]",
    ),
    field(
        "seat_4",
        T::NumberPairs,
        false,
        "the fourth seat's board",
        "seat_4 = [turn: 3, q: 10, r: 10]",
    ),
];

const DECK_FIELDS: &[FieldSchema] = &[
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "kinds",
        T::Names,
        true,
        "the card kinds that go in this deck",
        "kinds = [ploy, spell, upgrade]",
    ),
    field(
        "min_size",
        T::Int,
        false,
        "the fewest cards",
        "min_size = 20",
    ),
    field("max_size", T::Int, false, "the most cards", "max_size = 32"),
    field(
        "limits",
        T::NumberPairs,
        false,
        "the most cards with a keyword, score timing or kind",
        "limits = [surge: 6]",
    ),
    field(
        "max_half",
        T::Names,
        false,
        "kinds, keywords or timings that together may fill at most half the deck",
        "max_half = [ploy, spell]",
    ),
    field(
        "balanced",
        T::Names,
        false,
        "keywords (kinds, timings) each on the same number of the deck's cards, at least one each",
        "balanced = [good, lawful, neutral]",
    ),
    field(
        "unique_names",
        T::Bool,
        false,
        "whether card names must be unique across the player's decks",
        "unique_names = true",
    ),
];

const DECKLIST_FIELDS: &[FieldSchema] = &[
    field(
        "ruleset",
        T::String,
        true,
        "the ruleset the decklist is for",
        "ruleset = \"harrowdeep\"",
    ),
    field(
        "warband",
        T::String,
        false,
        "the warband that takes these decks",
        "warband = \"Xandire's Truthseekers\"",
    ),
    field(
        "party",
        T::String,
        false,
        "in a ruleset whose players bring parties of heroes, the party that takes these decks",
        "party = \"The Lantern Wardens\"",
    ),
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "source",
        T::String,
        false,
        "where the list came from",
        "source = \"...\"",
    ),
];

const DECKLIST_DECK_FIELDS: &[FieldSchema] = &[field(
    "cards",
    T::Strings,
    true,
    "the card names, each as many times as it is taken",
    "cards = [\"Banish the Dark\", \"Blaze of Light\"]",
)];

const BOARD_FIELDS: &[FieldSchema] = &[
    field(
        "ruleset",
        T::String,
        true,
        "the ruleset the board is for",
        "ruleset = \"harrowdeep\"",
    ),
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "layout",
        T::String,
        true,
        "the hexes as rows of characters (see the layout rules)",
        "layout = \"\n. S .\n . # \n\"",
    ),
    field(
        "legend",
        T::Legend,
        false,
        "what each layout character means",
        "legend = [S: starting, \"#\": blocked]",
    ),
];

const WARBAND_FIELDS: &[FieldSchema] = &[
    field(
        "ruleset",
        T::String,
        true,
        "the ruleset the warband is for",
        "ruleset = \"harrowdeep\"",
    ),
    field(
        "alliance",
        T::Name,
        true,
        "its grand alliance, declared by the ruleset",
        "alliance = order",
    ),
    field(
        "faction",
        T::String,
        false,
        "its faction",
        "faction = \"Stormcast Eternals\"",
    ),
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"Harrowdeep core set\"",
    ),
];

const FIGHTER_FIELDS: &[FieldSchema] = &[
    field(
        "keywords",
        T::Names,
        false,
        "keywords and traits",
        "keywords = [leader, wizard]",
    ),
    field(
        "stats",
        T::NumberPairs,
        true,
        "characteristics on the un-inspired side",
        "stats = [move: 3, defence: 1, wounds: 4, bounty: 1]",
    ),
    field(
        "inspired",
        T::NumberPairs,
        false,
        "the characteristics that change on the inspired side",
        "inspired = [move: 4]",
    ),
    field(
        "symbols",
        T::NamePairs,
        false,
        "the dice face a characteristic succeeds on",
        "symbols = [defence: block]",
    ),
    field(
        "inspire",
        T::Script,
        false,
        "the inspire condition",
        "inspire = { ... }",
    ),
    field(
        "uninspire",
        T::Script,
        false,
        "the condition that un-inspires the fighter",
        "uninspire = { ... }",
    ),
    field(
        "text",
        T::String,
        false,
        "the card text, in our words",
        "text = \"...\"",
    ),
    field(
        "uncertain",
        T::Names,
        false,
        "characteristics whose values are not confirmed",
        "uncertain = [move, wounds]",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"...\"",
    ),
];

const WEAPON_FIELDS: &[FieldSchema] = &[
    field(
        "side",
        T::Name,
        false,
        "`inspired` or `uninspired` when the weapon is on one side only",
        "side = inspired",
    ),
    field(
        "die",
        T::Name,
        false,
        "the die rolled, when not the usual attack die",
        "die = magic",
    ),
    field("range", T::Int, true, "the range in hexes", "range = 1"),
    field("dice", T::Int, true, "how many dice are rolled", "dice = 2"),
    field(
        "symbol",
        T::Name,
        true,
        "the dice face that succeeds",
        "symbol = hammer",
    ),
    field("damage", T::Int, true, "the damage dealt", "damage = 2"),
    field(
        "keywords",
        T::Tags,
        false,
        "weapon keywords, with a value when they take one",
        "keywords = [cleave, knockback: 1]",
    ),
    field(
        "inspired",
        T::NumberPairs,
        false,
        "`range`, `dice` or `damage` values that change on the inspired side",
        "inspired = [dice: 3]",
    ),
    field(
        "inspired_keywords",
        T::Tags,
        false,
        "keywords gained on the inspired side",
        "inspired_keywords = [cleave]",
    ),
    field(
        "text",
        T::String,
        false,
        "the weapon's rules, in our words",
        "text = \"...\"",
    ),
    field(
        "uncertain",
        T::Names,
        false,
        "fields whose values are not confirmed",
        "uncertain = [dice, symbol]",
    ),
];

const ABILITY_FIELDS: &[FieldSchema] = &[
    field(
        "side",
        T::Name,
        false,
        "`inspired` or `uninspired` when the ability is on one side only",
        "side = inspired",
    ),
    field(
        "reaction",
        T::Bool,
        false,
        "whether it is a reaction",
        "reaction = true",
    ),
    field(
        "window",
        T::Name,
        false,
        "the timing window it is used in (required with `effect`)",
        "window = after_damage",
    ),
    field(
        "text",
        T::String,
        false,
        "the rules text, in our words",
        "text = \"...\"",
    ),
    field(
        "condition",
        T::Script,
        false,
        "whether it may be used",
        "condition = { ... }",
    ),
    field(
        "effect",
        T::Script,
        false,
        "what it does",
        "effect = { heal(target, 2); }",
    ),
    field(
        "keywords",
        T::Names,
        false,
        "the ability's keywords, declared by the ruleset",
        "keywords = [core, move]",
    ),
    field(
        "frequency",
        T::Name,
        false,
        "how often it may be used, declared by the ruleset's `frequencies`",
        "frequency = once_per_turn",
    ),
    field(
        "choice",
        T::Name,
        false,
        "for an army's ability, the group of the ruleset's `army_choices` it is picked from",
        "choice = enhancement",
    ),
    field(
        "source",
        T::String,
        false,
        "where it came from",
        "source = \"seed 004 L51-60\"",
    ),
];

const CARD_FIELDS: &[FieldSchema] = &[
    field(
        "ruleset",
        T::String,
        true,
        "the ruleset the card is for",
        "ruleset = \"harrowdeep\"",
    ),
    field(
        "kind",
        T::Name,
        true,
        "the card kind, declared by the ruleset",
        "kind = ploy",
    ),
    field(
        "owner",
        T::NameOrString,
        true,
        "a warband's name as a string, `universal`, or a grand alliance",
        "owner = universal",
    ),
    field(
        "number",
        T::Int,
        false,
        "the card number in its set",
        "number = 13",
    ),
    field(
        "glory",
        T::Int,
        false,
        "the glory an objective is worth",
        "glory = 1",
    ),
    field(
        "cost",
        T::Int,
        false,
        "the glory an upgrade costs",
        "cost = 1",
    ),
    field(
        "casting_value",
        T::NumberPairs,
        false,
        "the symbols a spell needs",
        "casting_value = [channel: 1]",
    ),
    field(
        "keywords",
        T::Names,
        false,
        "card keywords",
        "keywords = [reaction]",
    ),
    field(
        "restrictions",
        T::TextPairs,
        false,
        "who may use the card: `fighter: \"name\"` or `keyword: name`",
        "restrictions = [fighter: \"Calthia Xandire\"]",
    ),
    field(
        "window",
        T::Name,
        false,
        "the timing window it is played in (required with `effect`)",
        "window = power_step",
    ),
    field(
        "score",
        T::Name,
        false,
        "when an objective is scored, declared by the ruleset",
        "score = end_phase",
    ),
    field(
        "command",
        T::String,
        false,
        "the ruleset ability the card may be spent on instead (a battle tactic card's command)",
        "command = \"All-out Attack\"",
    ),
    field(
        "persist",
        T::Bool,
        false,
        "whether the card stays in play after it is resolved",
        "persist = true",
    ),
    field(
        "text",
        T::String,
        false,
        "the card text, in our words",
        "text = \"...\"",
    ),
    field(
        "condition",
        T::Script,
        false,
        "when it may be scored or played",
        "condition = { ... }",
    ),
    field(
        "effect",
        T::Script,
        false,
        "what it does",
        "effect = { ... }",
    ),
    field(
        "uncertain",
        T::Names,
        false,
        "fields whose values are not confirmed",
        "uncertain = [glory]",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"...\"",
    ),
];

const CONSTANT_FIELDS: &[FieldSchema] = &[
    field(
        "about",
        T::String,
        false,
        "what the value is",
        "about = \"how far combat range reaches\"",
    ),
    field(
        "length",
        T::Length,
        false,
        "the value, when a length (one of `length` and `number`)",
        "length = 3in",
    ),
    field(
        "number",
        T::Int,
        false,
        "the value, when a whole number (one of `length` and `number`)",
        "number = 4",
    ),
    field(
        "source",
        T::String,
        false,
        "where the value came from",
        "source = \"not in the seed: AoS 4 core rules\"",
    ),
    field(
        "confidence",
        T::Name,
        false,
        "how sure the source is, when it is not the rules source: `high`, `medium` or `low`",
        "confidence = high",
    ),
];

const ARMY_FIELDS: &[FieldSchema] = &[
    field(
        "ruleset",
        T::String,
        true,
        "the ruleset the army is for",
        "ruleset = \"spearhead\"",
    ),
    field(
        "alliance",
        T::Name,
        false,
        "its grand alliance, declared by the ruleset",
        "alliance = order",
    ),
    field(
        "faction",
        T::String,
        false,
        "its faction",
        "faction = \"...\"",
    ),
    field(
        "general",
        T::String,
        false,
        "the warscroll of its general",
        "general = \"Warden-Captain\"",
    ),
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"ours\"",
    ),
];

const WARSCROLL_FIELDS: &[FieldSchema] = &[
    field(
        "units",
        T::Int,
        false,
        "how many units of this warscroll the army fields (1 when absent)",
        "units = 2",
    ),
    field(
        "models",
        T::Int,
        true,
        "how many models a unit has",
        "models = 10",
    ),
    field(
        "base",
        T::Length,
        true,
        "the diameter of a model's round base",
        "base = 32mm",
    ),
    field(
        "stats",
        T::Values,
        true,
        "the unit's characteristics, as the ruleset declares them",
        "stats = [move: 5in, health: 1, save: 4, control: 1]",
    ),
    field(
        "keywords",
        T::Names,
        false,
        "the unit's keywords",
        "keywords = [infantry, reinforcements]",
    ),
    field(
        "text",
        T::String,
        false,
        "a description, in our words",
        "text = \"...\"",
    ),
    field(
        "uncertain",
        T::Names,
        false,
        "characteristics whose values are not confirmed",
        "uncertain = [save]",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"ours\"",
    ),
];

const TABLE_WEAPON_FIELDS: &[FieldSchema] = &[
    field(
        "range",
        T::Length,
        false,
        "the range of a ranged weapon; a melee weapon has none",
        "range = 12in",
    ),
    field(
        "attacks",
        T::Amount,
        true,
        "attacks per model: a number, or a roll of the ruleset's dice",
        "attacks = \"D6\"",
    ),
    field(
        "hit",
        T::Int,
        true,
        "the hit roll needed (4 for 4+)",
        "hit = 4",
    ),
    field(
        "wound",
        T::Int,
        true,
        "the wound roll needed (4 for 4+)",
        "wound = 4",
    ),
    field(
        "rend",
        T::Int,
        false,
        "how much it worsens the target's save (0 when absent)",
        "rend = 1",
    ),
    field(
        "damage",
        T::Amount,
        true,
        "the damage of each attack that is not saved: a number, or a roll of the ruleset's dice",
        "damage = \"D3\"",
    ),
    field(
        "abilities",
        T::Abilities,
        false,
        "weapon abilities, declared by the ruleset's `weapon_abilities`; `anti` names a keyword or a flag",
        "abilities = [crit_mortal, anti: charged]",
    ),
    field(
        "text",
        T::String,
        false,
        "notes, in our words",
        "text = \"...\"",
    ),
    field(
        "uncertain",
        T::Names,
        false,
        "fields whose values are not confirmed",
        "uncertain = [rend]",
    ),
];

const TABLE_FIELDS: &[FieldSchema] = &[
    field(
        "ruleset",
        T::String,
        true,
        "the ruleset the table is for",
        "ruleset = \"spearhead\"",
    ),
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "width",
        T::Length,
        true,
        "the size along x, from the corner at [0in, 0in]",
        "width = 44in",
    ),
    field("depth", T::Length, true, "the size along y", "depth = 30in"),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"...\"",
    ),
];

const MAP_FIELDS: &[FieldSchema] = &[
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "min_players",
        T::Int,
        false,
        "the fewest players the map serves (default 1)",
        "min_players = 3",
    ),
    field(
        "max_players",
        T::Int,
        false,
        "the most players the map serves (default: one for each territory)",
        "max_players = 4",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"ours\"",
    ),
];

const TERRITORY_FIELDS: &[FieldSchema] = &[
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "outline",
        T::Points,
        false,
        "the area as a polygon, corners in order (one of `outline` and `rect`)",
        "outline = [[0in, 0in], [20in, 0in], [0in, 14in]]",
    ),
    field(
        "rect",
        T::Points,
        false,
        "the area as a rectangle: two opposite corners (one of `outline` and `rect`)",
        "rect = [[0in, 0in], [44in, 10in]]",
    ),
];

const OBJECTIVE_FIELDS: &[FieldSchema] = &[
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "at",
        T::Point,
        true,
        "where its centre is",
        "at = [22in, 15in]",
    ),
];

const TERRAIN_FIELDS: &[FieldSchema] = &[
    field(
        "kind",
        T::Name,
        true,
        "its kind, declared by the ruleset's `terrain_kinds`",
        "kind = large",
    ),
    field(
        "rules",
        T::Names,
        false,
        "its rules, declared by the ruleset's `terrain_rules`",
        "rules = [cover, obscuring, unstable]",
    ),
    field(
        "outline",
        T::Points,
        true,
        "its footprint, a polygon around its own origin (it is placed when the table is set up)",
        "outline = [[0in, 0in], [6in, 0in], [6in, 4in], [0in, 4in]]",
    ),
    field(
        "height",
        T::Length,
        true,
        "the height of its footprint (0 for flat ground)",
        "height = 1in",
    ),
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"ours\"",
    ),
];

const PART_FIELDS: &[FieldSchema] = &[
    field(
        "outline",
        T::Points,
        true,
        "the part's footprint, inside the feature's, around the same origin",
        "outline = [[1in, 1in], [3in, 1in], [3in, 3in], [1in, 3in]]",
    ),
    field(
        "height",
        T::Length,
        true,
        "how tall the part is",
        "height = 4in",
    ),
];

// Role-playing skirmish content (`roster`) and party building (`party`): see
// `crate::party` for the checks.

const ROSTER_FIELDS: &[FieldSchema] = &[
    field(
        "ruleset",
        T::String,
        true,
        "the ruleset the content is for",
        "ruleset = \"umbra_turris\"",
    ),
    field(
        "equipment_kinds",
        T::Names,
        true,
        "the kinds of equipment the roster's `equipment` items use",
        "equipment_kinds = [one_handed, armour, item]",
    ),
    field(
        "weapon_kinds",
        T::Names,
        false,
        "the equipment kinds that are weapons (every hero carries one; extra ones cost more)",
        "weapon_kinds = [one_handed, two_handed]",
    ),
    field(
        "ranged_kinds",
        T::Names,
        false,
        "the equipment kinds that shoot or are thrown: the ruleset's `ranged_divisor` limits how many heroes carry them",
        "ranged_kinds = [ranged, firearm]",
    ),
    field(
        "item_kinds",
        T::Names,
        false,
        "the kinds of additional equipment: the ruleset's `items_per_hero` limits them",
        "item_kinds = [item]",
    ),
    field(
        "one_hero_rules",
        T::Names,
        false,
        "equipment rules only one hero of a party may carry, whichever piece has them",
        "one_hero_rules = [special]",
    ),
    field(
        "locations",
        T::Names,
        false,
        "where armour protects: the names equipment's `location` uses",
        "locations = [head, body, legs]",
    ),
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "source",
        T::String,
        false,
        "where the content came from",
        "source = \"003\"",
    ),
];

const RACE_FIELDS: &[FieldSchema] = &[
    field(
        "stats",
        T::Values,
        true,
        "the race's characteristics, as the ruleset declares them",
        "stats = [ld: 7, m: 15cm, ws: 7]",
    ),
    field(
        "cost",
        T::Int,
        true,
        "what a hero of the race costs before profession and equipment",
        "cost = 55",
    ),
    field(
        "alignments",
        T::Names,
        true,
        "the alignments (the ruleset's `alliances`) the race may join",
        "alignments = [good, lawful]",
    ),
    field(
        "keywords",
        T::Names,
        false,
        "the race's keywords",
        "keywords = [stubborn]",
    ),
    field(
        "base",
        T::Length,
        false,
        "the diameter of its heroes' round bases, when not the ruleset's `base` constant",
        "base = 40mm",
    ),
    field("text", T::String, false, "a description", "text = \"...\""),
    field(
        "uncertain",
        T::Names,
        false,
        "characteristics (or `cost`) read from a damaged source",
        "uncertain = [bs, t]",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"003 L891\"",
    ),
];

const SUBRACE_FIELDS: &[FieldSchema] = &[
    field(
        "alignments",
        T::Names,
        false,
        "the alignments the sub-race may join (narrowing its race's)",
        "alignments = [good, evil]",
    ),
    field(
        "bans",
        T::Strings,
        false,
        "professions the sub-race may not take",
        "bans = [\"Paladin\"]",
    ),
    field(
        "keywords",
        T::Names,
        false,
        "the sub-race's keywords",
        "keywords = [stubborn]",
    ),
    field("text", T::String, false, "a description", "text = \"...\""),
    field(
        "uncertain",
        T::Names,
        false,
        "fields read from a damaged source",
        "uncertain = [alignments]",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"003 L910-914\"",
    ),
];

const PROFESSION_FIELDS: &[FieldSchema] = &[
    field(
        "cost",
        T::Int,
        true,
        "what the profession adds to a hero's cost",
        "cost = 14",
    ),
    field(
        "leader",
        T::Bool,
        false,
        "whether this is the leader add-on, bought on top of a main profession",
        "leader = true",
    ),
    field(
        "mage",
        T::Bool,
        false,
        "whether the profession is a caster (the ruleset's `mages_max` limits them)",
        "mage = true",
    ),
    field(
        "domains",
        T::Int,
        false,
        "how many domains of magic the caster picks",
        "domains = 2",
    ),
    field(
        "spells",
        T::Int,
        false,
        "how many single spells the hero picks beside its domains (a hero's `spells = [...]`)",
        "spells = 1",
    ),
    field(
        "spells_from",
        T::String,
        false,
        "the profession of the party's hero whose domains those single spells come from",
        "spells_from = \"Wizard\"",
    ),
    field(
        "races",
        T::Strings,
        false,
        "the races or sub-races that may take it (any when absent)",
        "races = [\"Humans\", \"Darklings\"]",
    ),
    field(
        "alignments",
        T::Names,
        false,
        "the party alignments that may take it (any when absent)",
        "alignments = [evil]",
    ),
    field(
        "not_leader",
        T::Bool,
        false,
        "whether a leader may not take it",
        "not_leader = true",
    ),
    field(
        "per_party",
        T::Int,
        false,
        "how many heroes of a party may take it",
        "per_party = 1",
    ),
    field(
        "plain_extra_weapon",
        T::Bool,
        false,
        "whether its extra weapons cost their plain price",
        "plain_extra_weapon = true",
    ),
    field(
        "items",
        T::Int,
        false,
        "how many different additional items it may buy (the ruleset's `items_per_hero` when absent)",
        "items = 3",
    ),
    field(
        "matching_weapon_divisor",
        T::Int,
        false,
        "an extra weapon the same as its first costs the price divided by this, rounded down, instead of the raised price",
        "matching_weapon_divisor = 2",
    ),
    field(
        "keywords",
        T::Names,
        false,
        "keywords it gives",
        "keywords = [fanatic, fervor]",
    ),
    field("text", T::String, false, "a description", "text = \"...\""),
    field(
        "uncertain",
        T::Names,
        false,
        "fields read from a damaged source",
        "uncertain = [cost]",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"003 L1135-1139\"",
    ),
];

const PRICE_FIELDS: &[FieldSchema] = &[
    field(
        "cost",
        T::Int,
        true,
        "the profession's cost for heroes of the race named",
        "cost = 41",
    ),
    field(
        "source",
        T::String,
        false,
        "where the value came from",
        "source = \"003 L1190\"",
    ),
];

const GUILD_FIELDS: &[FieldSchema] = &[
    field(
        "leader",
        T::Strings,
        false,
        "the professions the leader may have",
        "leader = [\"Assassin\"]",
    ),
    field(
        "members",
        T::Strings,
        false,
        "the professions the other members come from",
        "members = [\"Assassin\", \"Cutthroat\"]",
    ),
    field(
        "members_needed",
        T::Int,
        false,
        "how many heroes besides the leader must have one of `members`",
        "members_needed = 2",
    ),
    field(
        "mage_needed",
        T::Bool,
        false,
        "whether the party must field a caster",
        "mage_needed = true",
    ),
    field(
        "ranged_round_up",
        T::Bool,
        false,
        "whether the limit on heroes with ranged weapons rounds up instead of down",
        "ranged_round_up = true",
    ),
    field(
        "extra_points_percent",
        T::Int,
        false,
        "how many percent more than its points a party of the guild may spend, rounded down",
        "extra_points_percent = 5",
    ),
    field(
        "leader_spells",
        T::Int,
        false,
        "how many single spells a leader with a caster's profession picks, from any domain open to the party",
        "leader_spells = 1",
    ),
    field(
        "forbids",
        T::Names,
        false,
        "kinds of equipment no hero of the guild's parties may carry",
        "forbids = [firearm]",
    ),
    field("text", T::String, false, "a description", "text = \"...\""),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"003 L1480\"",
    ),
];

const ALIGNMENT_FIELDS: &[FieldSchema] = &[
    field(
        "resource",
        T::String,
        false,
        "the bonus dice the alignment's parties gain and spend",
        "resource = \"Blessing Dice\"",
    ),
    field("text", T::String, false, "a description", "text = \"...\""),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"003 L1546\"",
    ),
];

const EQUIPMENT_FIELDS: &[FieldSchema] = &[
    field(
        "kind",
        T::Name,
        true,
        "its kind, one of the roster's `equipment_kinds`",
        "kind = one_handed",
    ),
    field("cost", T::Int, true, "its price", "cost = 11"),
    field(
        "strikes",
        T::NumberPairs,
        false,
        "modifiers to the strike types when attacking with it",
        "strikes = [normal: 1, power: -2]",
    ),
    field(
        "rules",
        T::Tags,
        false,
        "its special rules, from the ruleset's `weapon_abilities`",
        "rules = [counter_attack, max_damage: 2]",
    ),
    field(
        "damage",
        T::Int,
        false,
        "the damage of a shot or throw",
        "damage = 1",
    ),
    field(
        "range",
        T::Length,
        false,
        "the longest range of a shot or throw",
        "range = 60cm",
    ),
    field(
        "min_stats",
        T::NumberPairs,
        false,
        "characteristics the carrier needs at least",
        "min_stats = [s: 7, sp: 7]",
    ),
    field(
        "excludes",
        T::Names,
        false,
        "weapon rules of other equipment the carrier may not have with it",
        "excludes = [two_handed, light]",
    ),
    field(
        "races",
        T::Strings,
        false,
        "the races or sub-races that may carry it (any when absent)",
        "races = [\"Tigerians\"]",
    ),
    field(
        "professions",
        T::Strings,
        false,
        "the professions that may carry it (any when absent)",
        "professions = [\"Marksman\"]",
    ),
    field(
        "guilds",
        T::Strings,
        false,
        "the guilds whose parties may carry it (any when absent)",
        "guilds = [\"Tracker\"]",
    ),
    field(
        "not_for",
        T::Names,
        false,
        "heroes who may not carry it: `leader` (the party's leader), `mage` (a caster)",
        "not_for = [leader, mage]",
    ),
    field(
        "not_with",
        T::Strings,
        false,
        "equipment the same hero may not carry with it",
        "not_with = [\"Trophy/totem\"]",
    ),
    field(
        "heavy",
        T::Bool,
        false,
        "heavy armour or shield: only for professions above the ruleset's `heavy_armour_above`",
        "heavy = true",
    ),
    field(
        "location",
        T::Name,
        false,
        "where armour protects",
        "location = head",
    ),
    field(
        "save",
        T::Int,
        false,
        "the armour test's target",
        "save = 6",
    ),
    field(
        "one_use",
        T::Bool,
        false,
        "whether it is spent when used",
        "one_use = true",
    ),
    field(
        "per_party",
        T::Int,
        false,
        "how many a party may carry (the ruleset's `item_copies` for items when absent)",
        "per_party = 1",
    ),
    field("text", T::String, false, "a description", "text = \"...\""),
    field(
        "uncertain",
        T::Names,
        false,
        "fields read from a damaged source",
        "uncertain = [cost]",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"003 L1665\"",
    ),
];

const CREATURE_FIELDS: &[FieldSchema] = &[
    field(
        "form",
        T::Name,
        false,
        "`summoned` (a new model; the default), `caster` (the caster takes this shape) or `target` (the spell's target does)",
        "form = caster",
    ),
    field(
        "count",
        T::Int,
        false,
        "how many one casting summons (1 when absent)",
        "count = 2",
    ),
    field(
        "stats",
        T::Values,
        true,
        "its characteristics; a shape lists those it changes",
        "stats = [ld: 0, m: 15cm, ws: 6, s: 6, sp: 6, bs: 0, t: 6, w: 3]",
    ),
    field(
        "keep",
        T::Names,
        false,
        "for a shape: the characteristics the hero keeps",
        "keep = [ld, ws, w]",
    ),
    field(
        "flying",
        T::Bool,
        false,
        "whether it flies instead of moving a distance",
        "flying = true",
    ),
    field(
        "keywords",
        T::Names,
        false,
        "its keywords",
        "keywords = [fear]",
    ),
    field(
        "weapon",
        T::String,
        false,
        "its weapon",
        "weapon = \"Claws\"",
    ),
    field(
        "strikes",
        T::NumberPairs,
        false,
        "the weapon's strike modifiers",
        "strikes = [power: 1]",
    ),
    field(
        "strike_types",
        T::Names,
        false,
        "the only strikes it may make (any when absent)",
        "strike_types = [normal]",
    ),
    field(
        "text",
        T::String,
        false,
        "what else it does",
        "text = \"...\"",
    ),
    field(
        "uncertain",
        T::Names,
        false,
        "fields read from a damaged source",
        "uncertain = [stats]",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"003 L636-638\"",
    ),
];

const DOMAIN_FIELDS: &[FieldSchema] = &[
    field(
        "alignment",
        T::Name,
        false,
        "the only alignment whose casters may pick it",
        "alignment = evil",
    ),
    field("text", T::String, false, "a description", "text = \"...\""),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"003 L630\"",
    ),
];

const SPELL_FIELDS: &[FieldSchema] = &[
    field(
        "chance",
        T::Int,
        false,
        "the magic test's target, 3 for 3+ (absent when it varies)",
        "chance = 3",
    ),
    field(
        "range",
        T::Length,
        false,
        "how far it reaches (one of `range` and `reach`)",
        "range = 20cm",
    ),
    field(
        "reach",
        T::Name,
        false,
        "a reach that is not a length: `self`, `unlimited` or `varies`",
        "reach = self",
    ),
    field(
        "wounds",
        T::Int,
        false,
        "the Wounds paid to cast it (the ruleset's `casting_wounds` when absent)",
        "wounds = 2",
    ),
    field("text", T::String, true, "what it does", "text = \"...\""),
    field(
        "uncertain",
        T::Names,
        false,
        "fields read from a damaged source",
        "uncertain = [range]",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"003 L634\"",
    ),
];

const CHART_FIELDS: &[FieldSchema] = &[
    field(
        "dice",
        T::Int,
        true,
        "how many dice are rolled on it",
        "dice = 1",
    ),
    field(
        "text",
        T::String,
        false,
        "when it is rolled",
        "text = \"...\"",
    ),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"003 L2056\"",
    ),
];

const RESULT_FIELDS: &[FieldSchema] = &[
    field(
        "roll",
        T::Int,
        true,
        "the total that gives this result",
        "roll = 1",
    ),
    field("text", T::String, true, "what happens", "text = \"...\""),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"003 L2058\"",
    ),
];

const BATTLEGROUND_FIELDS: &[FieldSchema] = &[
    field("text", T::String, false, "a description", "text = \"...\""),
    field(
        "source",
        T::String,
        false,
        "where the values came from",
        "source = \"003 L2084\"",
    ),
];

const PARTY_FIELDS: &[FieldSchema] = &[
    field(
        "ruleset",
        T::String,
        true,
        "the ruleset the party is for",
        "ruleset = \"umbra_turris\"",
    ),
    field(
        "roster",
        T::String,
        true,
        "the roster its heroes are built from",
        "roster = \"Umbra Turris\"",
    ),
    field(
        "alignment",
        T::Name,
        true,
        "the party's alignment, one of the ruleset's `alliances`",
        "alignment = good",
    ),
    field(
        "points",
        T::Int,
        true,
        "the points limit the party is built to",
        "points = 1000",
    ),
    field(
        "guild",
        T::String,
        false,
        "the guild the party forms",
        "guild = \"Assassins\"",
    ),
    field(
        "about",
        T::String,
        false,
        "a description",
        "about = \"...\"",
    ),
    field(
        "source",
        T::String,
        false,
        "where the party came from",
        "source = \"ours\"",
    ),
];

const HERO_FIELDS: &[FieldSchema] = &[
    field(
        "race",
        T::String,
        true,
        "the hero's race",
        "race = \"Humans\"",
    ),
    field(
        "subrace",
        T::String,
        false,
        "the hero's sub-race, one of its race's",
        "subrace = \"Borians\"",
    ),
    field(
        "profession",
        T::String,
        true,
        "the hero's profession",
        "profession = \"Paladin\"",
    ),
    field(
        "leader",
        T::Bool,
        false,
        "whether the hero is the party's leader (buys the leader add-on)",
        "leader = true",
    ),
    field(
        "equipment",
        T::Strings,
        false,
        "what the hero carries, weapons first",
        "equipment = [\"Sword, short sword\", \"Light helmet\"]",
    ),
    field(
        "domains",
        T::Strings,
        false,
        "the domains of magic a caster picks, as many as its profession's `domains`",
        "domains = [\"Fire\"]",
    ),
    field(
        "spells",
        T::Strings,
        false,
        "single spells the hero picks beside its domains: its profession's `spells`, and a caster leader's guild's `leader_spells`",
        "spells = [\"Heal\"]",
    ),
];

const SCHEMAS: &[ItemSchema] = &[
    ItemSchema {
        kind: "ruleset",
        named: true,
        about: "an edition's rules: vocabulary, dice, flow, actions and deck rules",
        fields: RULESET_FIELDS,
        children: &[
            "characteristic",
            "die",
            "window",
            "step",
            "action",
            "deck",
            "battlefield",
            "ability",
            "constant",
            "invariant",
        ],
        parent: None,
    },
    ItemSchema {
        kind: "board",
        named: true,
        about: "a board drawn as rows of hexes",
        fields: BOARD_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "warband",
        named: true,
        about: "a warband and its fighters",
        fields: WARBAND_FIELDS,
        children: &["fighter"],
        parent: None,
    },
    ItemSchema {
        kind: "card",
        named: true,
        about: "an objective or power card",
        fields: CARD_FIELDS,
        children: &["weapon"],
        parent: None,
    },
    ItemSchema {
        kind: "decklist",
        named: true,
        about: "the cards a warband or a party takes into its ruleset's decks",
        fields: DECKLIST_FIELDS,
        children: &["deck"],
        parent: None,
    },
    ItemSchema {
        kind: "army",
        named: true,
        about: "an army of a measured game: its warscrolls and its army abilities",
        fields: ARMY_FIELDS,
        children: &["warscroll", "ability"],
        parent: None,
    },
    ItemSchema {
        kind: "table",
        named: true,
        about: "a measured battlefield: its size, deployment maps and terrain features",
        fields: TABLE_FIELDS,
        children: &["map", "terrain"],
        parent: None,
    },
    ItemSchema {
        kind: "roster",
        named: true,
        about: "the content heroes are built from: races, professions, guilds, alignments, equipment, magic, tables",
        fields: ROSTER_FIELDS,
        children: &[
            "race",
            "profession",
            "guild",
            "alignment",
            "equipment",
            "domain",
            "chart",
            "battleground",
        ],
        parent: None,
    },
    ItemSchema {
        kind: "party",
        named: true,
        about: "a party of heroes built from a roster, checked against the building rules",
        fields: PARTY_FIELDS,
        children: &["hero"],
        parent: None,
    },
    ItemSchema {
        kind: "characteristic",
        named: true,
        about: "a fighter characteristic such as move or wounds",
        fields: CHARACTERISTIC_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "die",
        named: true,
        about: "a kind of die and its faces",
        fields: DIE_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "window",
        named: true,
        about: "a timing window cards and abilities may be used in",
        fields: WINDOW_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "step",
        named: true,
        about: "a step of the game's flow",
        fields: STEP_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "invariant",
        named: true,
        about: "what holds after every decision of every game, checked by `gloam sim`",
        fields: INVARIANT_FIELDS,
        children: &[],
        parent: Some("ruleset"),
    },
    ItemSchema {
        kind: "action",
        named: true,
        about: "an action fighters or players may take",
        fields: ACTION_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "battlefield",
        named: true,
        about: "where each seat's board lies for one number of players",
        fields: BATTLEFIELD_FIELDS,
        children: &[],
        parent: Some("ruleset"),
    },
    ItemSchema {
        kind: "deck",
        named: true,
        about: "deck-building rules for one deck",
        fields: DECK_FIELDS,
        children: &[],
        parent: Some("ruleset"),
    },
    ItemSchema {
        kind: "deck",
        named: true,
        about: "the cards of one of the ruleset's decks",
        fields: DECKLIST_DECK_FIELDS,
        children: &[],
        parent: Some("decklist"),
    },
    ItemSchema {
        kind: "fighter",
        named: true,
        about: "a fighter of a warband",
        fields: FIGHTER_FIELDS,
        children: &["weapon", "ability"],
        parent: None,
    },
    ItemSchema {
        kind: "weapon",
        named: true,
        about: "an attack action on a fighter card (or on an Attack action upgrade card)",
        fields: WEAPON_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "ability",
        named: true,
        about: "an ability or reaction on a fighter card",
        fields: ABILITY_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "constant",
        named: true,
        about: "a named value of a ruleset (a length or a number) the rules use",
        fields: CONSTANT_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "warscroll",
        named: true,
        about: "a unit's profile: characteristics, models, base, keywords, weapons, abilities",
        fields: WARSCROLL_FIELDS,
        children: &["weapon", "ability"],
        parent: None,
    },
    ItemSchema {
        kind: "weapon",
        named: true,
        about: "a weapon on a warscroll",
        fields: TABLE_WEAPON_FIELDS,
        children: &[],
        parent: Some("warscroll"),
    },
    ItemSchema {
        kind: "map",
        named: true,
        about: "a deployment map: territories and objectives",
        fields: MAP_FIELDS,
        children: &["territory", "objective"],
        parent: None,
    },
    ItemSchema {
        kind: "territory",
        named: true,
        about: "a territory of a deployment map, a polygon or a rectangle",
        fields: TERRITORY_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "objective",
        named: true,
        about: "an objective marker of a deployment map",
        fields: OBJECTIVE_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "terrain",
        named: true,
        about: "a terrain feature of a table, with its kind, rules, footprint and height",
        fields: TERRAIN_FIELDS,
        children: &["part"],
        parent: None,
    },
    ItemSchema {
        kind: "part",
        named: true,
        about: "a raised part of a terrain feature, with its own height",
        fields: PART_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "race",
        named: true,
        about: "a race: characteristics, cost, alignments, sub-races",
        fields: RACE_FIELDS,
        children: &["subrace", "ability"],
        parent: None,
    },
    ItemSchema {
        kind: "subrace",
        named: true,
        about: "a sub-race of a race, with its ability",
        fields: SUBRACE_FIELDS,
        children: &["ability"],
        parent: None,
    },
    ItemSchema {
        kind: "profession",
        named: true,
        about: "a profession heroes take: cost, restrictions, keywords, ability",
        fields: PROFESSION_FIELDS,
        children: &["price", "ability"],
        parent: None,
    },
    ItemSchema {
        kind: "price",
        named: true,
        about: "a profession's cost for one race or sub-race",
        fields: PRICE_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "guild",
        named: true,
        about: "a guild a party may form, its entry conditions and benefits",
        fields: GUILD_FIELDS,
        children: &["ability"],
        parent: None,
    },
    ItemSchema {
        kind: "alignment",
        named: true,
        about: "a party alignment and its bonus dice",
        fields: ALIGNMENT_FIELDS,
        children: &["ability"],
        parent: None,
    },
    ItemSchema {
        kind: "equipment",
        named: true,
        about: "a weapon, armour piece, shield or item heroes buy",
        fields: EQUIPMENT_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "domain",
        named: true,
        about: "a domain of magic and its spells",
        fields: DOMAIN_FIELDS,
        children: &["spell"],
        parent: None,
    },
    ItemSchema {
        kind: "spell",
        named: true,
        about: "a spell: magic test, range, cost in Wounds, effect",
        fields: SPELL_FIELDS,
        children: &["creature"],
        parent: None,
    },
    ItemSchema {
        kind: "creature",
        named: true,
        about: "a profile a spell brings into play: a summoned creature, or a shape a hero takes",
        fields: CREATURE_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "chart",
        named: true,
        about: "a table rolled on (loot, spirits, potions)",
        fields: CHART_FIELDS,
        children: &["result"],
        parent: None,
    },
    ItemSchema {
        kind: "result",
        named: true,
        about: "one result of a chart",
        fields: RESULT_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "battleground",
        named: true,
        about: "a named battlefield of a roster",
        fields: BATTLEGROUND_FIELDS,
        children: &[],
        parent: None,
    },
    ItemSchema {
        kind: "hero",
        named: true,
        about: "a hero of a party",
        fields: HERO_FIELDS,
        children: &[],
        parent: None,
    },
];

/// The item kinds allowed at the top level of a file.
pub const TOP_LEVEL: &[&str] = &[
    "ruleset", "board", "warband", "card", "decklist", "army", "table", "roster", "party",
];

/// Every item kind the format knows, top-level kinds first. A kind written in more than
/// one kind of item with different fields (`deck`) has one entry per parent, told apart by
/// [`ItemSchema::parent`].
///
/// # Examples
///
/// ```
/// let card = gloam_grammar::schema().iter().find(|item| item.kind == "card").unwrap();
/// assert!(card.field("glory").is_some());
/// ```
pub fn schema() -> &'static [ItemSchema] {
    SCHEMAS
}

/// The schema of one item kind (for a kind with one schema per parent, the first).
pub(crate) fn item_schema(kind: &str) -> Option<&'static ItemSchema> {
    SCHEMAS.iter().find(|schema| schema.kind == kind)
}

/// The schema of an item of kind `kind` written inside an item of kind `parent` (`None` at
/// the top level).
pub(crate) fn item_schema_in(kind: &str, parent: Option<&str>) -> Option<&'static ItemSchema> {
    SCHEMAS
        .iter()
        .find(|schema| schema.kind == kind && schema.parent.is_some() && schema.parent == parent)
        .or_else(|| {
            SCHEMAS
                .iter()
                .find(|schema| schema.kind == kind && schema.parent.is_none())
        })
}

/// "`a`, `b` and `c`".
fn and_list(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The kinds that may contain `kind`, for "`weapon` items go inside `fighter` items" hints.
fn parents_of(kind: &str) -> Vec<&'static str> {
    SCHEMAS
        .iter()
        .filter(|schema| schema.children.contains(&kind))
        .map(|schema| schema.kind)
        .collect()
}

/// Checks a file's items against the schema, pushing every problem found.
pub(crate) fn check(items: &[Item], file: &FileRef, out: &mut Vec<GrammarDiagnostic>) {
    let mut checker = Checker { file, out };
    checker.items(items.iter(), None);
}

struct Checker<'a> {
    file: &'a FileRef,
    out: &'a mut Vec<GrammarDiagnostic>,
}

impl Checker<'_> {
    /// Checks the items written inside `parent` (`None`: the top level of a file).
    fn items<'i>(
        &mut self,
        items: impl Iterator<Item = &'i Item>,
        parent: Option<&'static ItemSchema>,
    ) {
        let allowed = parent.map_or(TOP_LEVEL, |parent| parent.children);
        let parent_kind = parent.map(|parent| parent.kind);
        let mut seen: BTreeMap<(&'i str, &'i str), Span> = BTreeMap::new();
        for item in items {
            let kind = item.kind.value.as_str();
            if !allowed.contains(&kind) {
                self.unknown_item(item, allowed, parent);
                continue;
            }
            let Some(schema) = item_schema_in(kind, parent_kind) else {
                continue;
            };
            // Top-level names are checked across the whole library, not per file.
            if let Some(parent_kind) = parent_kind
                && let Some(name) = &item.name
            {
                if let Some(first) = seen.get(&(kind, name.value.as_str())) {
                    self.out.push(GrammarDiagnostic::DuplicateName {
                        kind: kind.to_string(),
                        name: name.value.clone(),
                        src: self.file.src(),
                        span: self.file.span(name.span),
                        first: Some(self.file.span(*first)),
                        elsewhere: Vec::new(),
                        help: format!("each {kind} needs its own name within its {parent_kind}"),
                    });
                } else {
                    seen.insert((kind, name.value.as_str()), name.span);
                }
            }
            self.item(item, schema);
        }
    }

    fn unknown_item(&mut self, item: &Item, allowed: &[&str], parent: Option<&ItemSchema>) {
        let kind = item.kind.value.as_str();
        let context = match parent {
            Some(parent) => format!("inside `{}`", parent.kind),
            None => "at the top level".to_string(),
        };
        let homes: Vec<String> = parents_of(kind)
            .into_iter()
            .map(|home| format!("`{home}`"))
            .collect();
        let help = if let Some(best) = suggest::closest(kind, allowed.iter().copied()) {
            format!("did you mean `{best}`?")
        } else if !homes.is_empty() {
            format!("`{kind}` items go inside {} items", homes.join(" or "))
        } else if let Some(schema) = parent
            && schema.field(kind).is_some()
        {
            format!("`{kind}` is a field: write `{kind} = ...`")
        } else if allowed.is_empty() {
            format!(
                "`{}` holds no nested items",
                parent.map_or("this item", |parent| parent.kind)
            )
        } else {
            let listed: Vec<String> = allowed.iter().map(|k| format!("`{k}`")).collect();
            format!("items allowed here: {}", listed.join(", "))
        };
        self.out.push(GrammarDiagnostic::UnknownItem {
            kind: kind.to_string(),
            context,
            src: self.file.src(),
            span: self.file.span(item.kind.span),
            help,
        });
    }

    fn item(&mut self, item: &Item, schema: &'static ItemSchema) {
        let kind = schema.kind;
        match (&item.name, schema.named) {
            (None, true) => self.out.push(GrammarDiagnostic::MissingName {
                kind: kind.to_string(),
                src: self.file.src(),
                span: self.file.span(item.kind.span),
                help: format!("write `{kind} \"name\" {{ ... }}`"),
            }),
            (Some(name), false) => self.out.push(GrammarDiagnostic::UnexpectedName {
                kind: kind.to_string(),
                src: self.file.src(),
                span: self.file.span(name.span),
                help: format!("write `{kind} {{ ... }}`"),
            }),
            _ => {}
        }

        let mut set: BTreeMap<&str, Span> = BTreeMap::new();
        // The fields an unknown field is a likely misspelling of: when one of them is
        // missing, the misspelling is the one problem to report, not also the absence.
        let mut misspelt: Vec<&str> = Vec::new();
        for field in item.fields() {
            let key = field.key.value.as_str();
            let Some(field_schema) = schema.field(key) else {
                if let Some(meant) = suggest::closest(key, schema.fields.iter().map(|f| f.name)) {
                    misspelt.push(meant);
                }
                let help = if schema.children.contains(&key) {
                    format!("`{key}` is an item: write `{key} \"name\" {{ ... }}`")
                } else {
                    suggest::help(
                        key,
                        schema.fields.iter().map(|f| f.name),
                        &format!("`{kind}` has no field of this name"),
                    )
                };
                self.out.push(GrammarDiagnostic::UnknownField {
                    field: key.to_string(),
                    item: kind.to_string(),
                    src: self.file.src(),
                    span: self.file.span(field.key.span),
                    help,
                });
                continue;
            };
            if let Some(first) = set.get(key) {
                self.out.push(GrammarDiagnostic::DuplicateField {
                    field: key.to_string(),
                    src: self.file.src(),
                    span: self.file.span(field.key.span),
                    first: self.file.span(*first),
                    help: "keep one of them".to_string(),
                });
                continue;
            }
            set.insert(key, field.key.span);
            self.value(&field.value, field_schema);
        }
        // A field counts as present when it is there or misspelt (reported above).
        let has = |name: &str| set.contains_key(name) || misspelt.contains(&name);
        let required: Vec<&FieldSchema> = schema
            .fields
            .iter()
            .filter(|field_schema| field_schema.required && !has(field_schema.name))
            .collect();
        self.missing(item, &required, "");
        // Fields required only in some cases.
        match kind {
            "ruleset" if !has("extends") => {
                let missing: Vec<&FieldSchema> = ["rounds", "min_players", "max_players"]
                    .into_iter()
                    .filter(|name| !has(name))
                    .filter_map(|name| schema.field(name))
                    .collect();
                self.missing(
                    item,
                    &missing,
                    "a ruleset that does not extend another needs them: ",
                );
            }
            "decklist" if !has("warband") && !has("party") => {
                let missing: Vec<&FieldSchema> = schema.field("warband").into_iter().collect();
                self.missing(
                    item,
                    &missing,
                    "a decklist names who takes it: a warband, or `party = \"...\"` in a game of parties; ",
                );
            }
            "card" | "ability" if has("effect") && !has("window") => {
                let missing: Vec<&FieldSchema> = schema.field("window").into_iter().collect();
                self.missing(
                    item,
                    &missing,
                    "an effect needs a timing window (there is no default): ",
                );
            }
            _ => {}
        }

        self.items(item.items(), Some(schema));
    }

    /// One diagnostic for the fields `missing` from `item`, if any.
    fn missing(&mut self, item: &Item, missing: &[&FieldSchema], reason: &str) {
        if missing.is_empty() {
            return;
        }
        let names: Vec<String> = missing
            .iter()
            .map(|field| format!("`{}`", field.name))
            .collect();
        let examples: Vec<String> = missing
            .iter()
            .map(|field| format!("`{}`", field.example.replace('\n', " ")))
            .collect();
        let listed = match names.len() {
            1 => format!("field {}", names[0]),
            _ => format!("fields {}", and_list(&names)),
        };
        self.out.push(GrammarDiagnostic::MissingField {
            fields: missing.iter().map(|field| field.name.to_string()).collect(),
            listed,
            item: item.kind.value.clone(),
            src: self.file.src(),
            span: self.file.span(item.header_span()),
            help: format!("{reason}add {}", and_list(&examples)),
        });
    }

    fn wrong(&mut self, field_schema: &FieldSchema, found: &Value, what: &str) {
        self.out.push(GrammarDiagnostic::WrongType {
            field: field_schema.name.to_string(),
            expected: what.to_string(),
            found: found.type_name().to_string(),
            src: self.file.src(),
            span: self.file.span(found.span()),
            help: format!(
                "write it like `{}`",
                field_schema.example.replace('\n', " ")
            ),
        });
    }

    fn value(&mut self, value: &Value, field_schema: &FieldSchema) {
        if matches!(value, Value::Invalid(_)) {
            return; // already reported by the parser
        }
        let ty = field_schema.ty;
        let ok = match ty {
            T::String => matches!(value, Value::String(_)),
            T::Int => matches!(value, Value::Int(_)),
            T::Bool => matches!(value, Value::Bool(_)),
            T::Name => matches!(value, Value::Ident(_)),
            T::NameOrString => matches!(value, Value::Ident(_) | Value::String(_)),
            T::Script => matches!(value, Value::Script(_)),
            T::Length => matches!(value, Value::Length(_)),
            T::Amount => matches!(value, Value::Int(_) | Value::String(_)),
            T::Point => {
                self.point(value, field_schema);
                true
            }
            T::Points => {
                if let Value::List(list) = value {
                    for element in &list.elements {
                        match element {
                            Element::Value(point) => self.point(point, field_schema),
                            Element::Pair(pair) => {
                                self.wrong(field_schema, &pair.value, "a point `[x, y]`")
                            }
                        }
                    }
                    true
                } else {
                    false
                }
            }
            T::Names
            | T::Strings
            | T::NumberPairs
            | T::NamePairs
            | T::TextPairs
            | T::Tags
            | T::Values
            | T::Abilities
            | T::Legend => {
                if let Value::List(list) = value {
                    let mut seen: Vec<&str> = Vec::new();
                    for element in &list.elements {
                        self.element(element, field_schema);
                        let (key, span) = match element {
                            Element::Value(Value::Ident(name)) => (name.value.as_str(), name.span),
                            Element::Pair(pair) => (pair.key.value.as_str(), pair.key.span),
                            Element::Value(_) => continue,
                        };
                        if let Element::Pair(pair) = element {
                            self.not_negative(field_schema.name, Some(key), &pair.value);
                        }
                        // `remove` and `restrictions` repeat their keys by design; in a list
                        // of strings, names are wrong already (and repeats may be allowed); a
                        // ruleset's `zones` are checked when built, which says whether the two
                        // visibilities differ.
                        // An ability with a value (`anti: hero`) may be written again with
                        // another value: several `anti` abilities add up.
                        let repeatable = ty == T::Abilities && matches!(element, Element::Pair(_));
                        if !matches!(ty, T::TextPairs | T::Strings)
                            && field_schema.name != "zones"
                            && !repeatable
                        {
                            if seen.contains(&key) {
                                self.out.push(GrammarDiagnostic::BadValue {
                                    message: format!(
                                        "`{key}` appears twice in `{}`",
                                        field_schema.name
                                    ),
                                    src: self.file.src(),
                                    span: self.file.span(span),
                                    label: "repeated here".to_string(),
                                    help: "list each name once".to_string(),
                                });
                            } else {
                                seen.push(key);
                            }
                        }
                    }
                    true
                } else {
                    false
                }
            }
        };
        if !ok {
            self.wrong(field_schema, value, ty.describe());
        } else if matches!(ty, T::Int | T::Length | T::Amount) {
            self.not_negative(field_schema.name, None, value);
        }
    }

    /// A point: `[x, y]`, two lengths (a coordinate may be negative: a terrain feature's
    /// outline is drawn around its own origin).
    fn point(&mut self, value: &Value, field_schema: &FieldSchema) {
        if matches!(value, Value::Invalid(_)) {
            return;
        }
        let Value::List(list) = value else {
            self.wrong(field_schema, value, "a point `[x, y]` of two lengths");
            return;
        };
        if list.elements.len() != 2 {
            self.out.push(GrammarDiagnostic::BadValue {
                message: format!(
                    "a point in `{}` has {} {}; it needs 2",
                    field_schema.name,
                    list.elements.len(),
                    if list.elements.len() == 1 {
                        "coordinate"
                    } else {
                        "coordinates"
                    }
                ),
                src: self.file.src(),
                span: self.file.span(list.span),
                label: "not `[x, y]`".to_string(),
                help: "write a point as two lengths, `[x, y]`: `[22in, 15in]`".to_string(),
            });
        }
        for element in &list.elements {
            match element {
                Element::Value(Value::Length(_) | Value::Invalid(_)) => {}
                Element::Value(other) => {
                    self.wrong(field_schema, other, "a length such as `3in`");
                }
                Element::Pair(pair) => {
                    self.wrong(field_schema, &pair.value, "a length such as `3in`");
                }
            }
        }
    }

    /// Rules numbers are counts and distances: only a characteristic's `floor` and an
    /// equipment's `strikes` (modifiers, `precision: -2`) may be negative.
    fn not_negative(&mut self, field: &str, key: Option<&str>, value: &Value) {
        let (negative, span) = match value {
            Value::Int(number) => (number.value < 0, number.span),
            Value::Length(length) => (length.value.length < gloam_core::Length::ZERO, length.span),
            _ => (false, value.span()),
        };
        if negative && field != "floor" && field != "strikes" {
            let what = match key {
                Some(key) => format!("`{key}` in `{field}`"),
                None => format!("`{field}`"),
            };
            self.out.push(GrammarDiagnostic::BadValue {
                message: format!("{what} cannot be negative"),
                src: self.file.src(),
                span: self.file.span(span),
                label: "negative".to_string(),
                help: "write 0 or more".to_string(),
            });
        }
    }

    fn element(&mut self, element: &Element, field_schema: &FieldSchema) {
        let ty = field_schema.ty;
        let element_type = match ty {
            T::Names => "names",
            T::Strings => "strings",
            T::NumberPairs => "`name: number` pairs",
            T::NamePairs => "`name: name` pairs",
            T::TextPairs => "`name: name` or `name: \"string\"` pairs",
            T::Tags => "names or `name: number` pairs",
            T::Values => "`name: number` or `name: length` pairs",
            T::Abilities => "names or `name: name` pairs",
            _ => "`character: hex type` pairs",
        };
        let expected = format!("a list of {element_type}");
        match element {
            Element::Value(Value::Invalid(_)) => {}
            Element::Value(value) => {
                let ok = matches!(
                    (ty, value),
                    (T::Names | T::Tags | T::Abilities, Value::Ident(_))
                        | (T::Strings, Value::String(_))
                );
                if !ok {
                    self.wrong(field_schema, value, &expected);
                }
            }
            Element::Pair(pair) if matches!(ty, T::Names | T::Strings) => {
                self.out.push(GrammarDiagnostic::WrongType {
                    field: field_schema.name.to_string(),
                    expected,
                    found: "a pair".to_string(),
                    src: self.file.src(),
                    span: self.file.span(pair.span),
                    help: format!("write it like `{}`", field_schema.example),
                });
            }
            Element::Pair(pair) => {
                if pair.key_is_string && ty != T::Legend {
                    self.out.push(GrammarDiagnostic::WrongType {
                        field: field_schema.name.to_string(),
                        expected: expected.clone(),
                        found: "a string key".to_string(),
                        src: self.file.src(),
                        span: self.file.span(pair.key.span),
                        help: "write the key as a bare name, without quotes".to_string(),
                    });
                }
                let value = &pair.value;
                let ok = match (ty, value) {
                    (_, Value::Invalid(_)) => true,
                    (T::NumberPairs | T::Tags | T::Values, Value::Int(_)) => true,
                    (T::Values, Value::Length(_)) => true,
                    (T::Abilities, Value::Ident(_)) => true,
                    (T::NamePairs, Value::Ident(_)) => true,
                    (T::TextPairs, Value::Ident(_) | Value::String(_)) => true,
                    (T::Legend, Value::Ident(_)) => true,
                    (T::Legend, Value::List(list)) => {
                        for inner in &list.elements {
                            if !matches!(inner, Element::Value(Value::Ident(_))) {
                                let found = match inner {
                                    Element::Value(v) => v.type_name(),
                                    Element::Pair(_) => "a pair",
                                };
                                self.out.push(GrammarDiagnostic::WrongType {
                                    field: field_schema.name.to_string(),
                                    expected: "a hex type name".to_string(),
                                    found: found.to_string(),
                                    src: self.file.src(),
                                    span: self.file.span(inner.span()),
                                    help: format!("write it like `{}`", field_schema.example),
                                });
                            }
                        }
                        true
                    }
                    _ => false,
                };
                if !ok {
                    self.wrong(field_schema, value, &expected);
                }
            }
        }
    }
}
