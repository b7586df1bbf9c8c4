//! Typed definitions built from checked items: rulesets, boards, warbands and cards.
//!
//! Definitions carry no spans (diagnostics are found before they are built), except
//! [`ScriptDef`], which keeps where its text is so the script host can point into the file.
//! Lists keep the order of the file.

use std::ops::Range;
use std::sync::Arc;

use gloam_core::{Hex, Point, Visibility};

use crate::ast::Measure;
use serde::{Deserialize, Serialize};

/// Raw script text and where it came from.
///
/// Two scripts are equal when their text is equal: where they were read from does not
/// matter (as spans do not count in `syn`'s equality), so a definition printed and read
/// back compares equal to the original.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScriptDef {
    /// The text between the braces, exactly as written.
    pub text: String,
    /// The name of the file it was read from (empty when built in code).
    pub file: String,
    /// The byte range `(start, end)` of `text` in that file.
    pub span: (usize, usize),
    #[serde(skip)]
    file_text: Option<Arc<str>>,
}

impl PartialEq for ScriptDef {
    fn eq(&self, other: &ScriptDef) -> bool {
        self.text == other.text
    }
}

impl Eq for ScriptDef {}

impl ScriptDef {
    /// A script that was not read from a file: its "file" is its own text.
    ///
    /// # Examples
    ///
    /// ```
    /// let script = gloam_grammar::ScriptDef::new(" push(target, 1); ");
    /// assert_eq!(&script.file_text()[script.text_range()], " push(target, 1); ");
    /// ```
    pub fn new(text: impl Into<String>) -> ScriptDef {
        let text = text.into();
        let len = text.len();
        ScriptDef {
            text,
            file: String::new(),
            span: (0, len),
            file_text: None,
        }
    }

    pub(crate) fn located(
        text: String,
        file: String,
        span: (usize, usize),
        file_text: Arc<str>,
    ) -> ScriptDef {
        ScriptDef {
            text,
            file,
            span,
            file_text: Some(file_text),
        }
    }

    /// The name of the file the script was read from.
    pub fn file_name(&self) -> &str {
        &self.file
    }

    /// The whole text of the file the script was read from; for a script built in code or
    /// deserialized (which has no file at hand), the script text alone.
    pub fn file_text(&self) -> Arc<str> {
        match &self.file_text {
            Some(text) => Arc::clone(text),
            None => Arc::from(self.text.as_str()),
        }
    }

    /// The byte range of the script text within [`file_text`](Self::file_text).
    pub fn text_range(&self) -> Range<usize> {
        match &self.file_text {
            Some(_) => self.span.0..self.span.1,
            None => 0..self.text.len(),
        }
    }
}

/// A ruleset: an edition's vocabulary, dice, flow, actions and deck rules.
///
/// As loaded from a file, a ruleset that `extends` another holds only its own parts;
/// [`Library::ruleset`](crate::Library::ruleset) gives the resolved one, with inherited
/// parts merged in (and `extends`, `remove` kept for reference).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetDef {
    /// Its name: `ruleset "harrowdeep" { }`.
    pub name: String,
    /// The ruleset it builds on.
    pub extends: Option<String>,
    /// The full title.
    pub title: String,
    /// A description.
    pub about: Option<String>,
    /// The number of rounds.
    pub rounds: Option<i64>,
    /// The fewest players.
    pub min_players: Option<i64>,
    /// The most players.
    pub max_players: Option<i64>,
    /// Whether a line of sight that leaves the battlefield is blocked.
    pub off_board_blocks_sight: Option<bool>,
    /// What the rules source does not state (chosen by the data's authors): names of
    /// settings (`max_players`) or of vocabulary entries; merged through `extends`, less the
    /// settings a ruleset sets again itself.
    pub ours: Vec<String>,
    /// Hex types boards may use.
    pub hex_types: Vec<String>,
    /// Tokens fighters and hexes may carry.
    pub tokens: Vec<String>,
    /// Counters cards may carry.
    pub counters: Vec<String>,
    /// Keywords of fighters, weapons and cards.
    pub keywords: Vec<String>,
    /// Kinds of card.
    pub card_kinds: Vec<String>,
    /// When objectives may be scored.
    pub score_timings: Vec<String>,
    /// Grand alliances.
    pub alliances: Vec<String>,
    /// Each player's zones of cards, with who may see them: the driver creates exactly
    /// these for every player (deck zones `{deck}_deck` are added from the `deck` items).
    #[serde(default)]
    pub zones: Vec<ZoneDef>,
    /// Inherited parts dropped.
    pub remove: Vec<RemoveDef>,
    /// The set-up sequence.
    pub setup: Option<ScriptDef>,
    /// Scoring at the end of each round.
    pub scoring: Option<ScriptDef>,
    /// Decides the winner.
    pub victory: Option<ScriptDef>,
    /// Fighter characteristics.
    pub characteristics: Vec<CharacteristicDef>,
    /// Kinds of dice.
    pub dice: Vec<DieDef>,
    /// Timing windows.
    pub windows: Vec<WindowDef>,
    /// Steps of the flow.
    pub steps: Vec<StepDef>,
    /// Actions.
    pub actions: Vec<ActionDef>,
    /// Deck-building rules.
    pub decks: Vec<DeckDef>,
    /// How the seats' boards are laid out, by number of players.
    #[serde(default)]
    pub battlefields: Vec<BattlefieldDef>,
    /// For a measured game, the unit its lengths are shown in (`in`, `cm`, `mm`).
    #[serde(default)]
    pub unit: Option<String>,
    /// The weapon abilities of a measured game's weapons.
    #[serde(default)]
    pub weapon_abilities: Vec<String>,
    /// States a unit takes during a turn that rules test (`charged`).
    #[serde(default)]
    pub flags: Vec<String>,
    /// Kinds of terrain feature.
    #[serde(default)]
    pub terrain_kinds: Vec<String>,
    /// Rules terrain features may have.
    #[serde(default)]
    pub terrain_rules: Vec<String>,
    /// How often abilities may be used.
    #[serde(default)]
    pub frequencies: Vec<String>,
    /// The groups of army abilities each player picks from, and how many each picks.
    #[serde(default)]
    pub army_choices: Vec<LimitDef>,
    /// Abilities every unit or player has (a measured game's core abilities, its commands).
    #[serde(default)]
    pub abilities: Vec<AbilityDef>,
    /// Named values the rules use.
    #[serde(default)]
    pub constants: Vec<ConstantDef>,
    /// What holds after every decision of every game (`gloam sim` checks them).
    #[serde(default)]
    pub invariants: Vec<InvariantDef>,
}

impl RulesetDef {
    /// All dice faces of all dice, in order, without repeats.
    pub fn faces(&self) -> Vec<&str> {
        let mut faces: Vec<&str> = Vec::new();
        for die in &self.dice {
            for face in &die.faces {
                if !faces.contains(&face.name.as_str()) {
                    faces.push(&face.name);
                }
            }
        }
        faces
    }

    /// The names of one kind of part, in order: `names(PartKind::Token)` gives the tokens
    /// (for a script host checking the names scripts use).
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_grammar::{load, PartKind, SourceFile};
    /// let text = r#"ruleset "r" { title = "R" rounds = 1 min_players = 2 max_players = 2
    ///     tokens = [guard, stagger] window "power_step" { } }"#;
    /// let (library, _) = load(&[SourceFile::new("r.gloam", text)]);
    /// let ruleset = library.ruleset("r").unwrap();
    /// assert_eq!(ruleset.names(PartKind::Token), ["guard", "stagger"]);
    /// assert_eq!(ruleset.names(PartKind::Window), ["power_step"]);
    /// ```
    pub fn names(&self, part: PartKind) -> Vec<&str> {
        fn list(names: &[String]) -> Vec<&str> {
            names.iter().map(String::as_str).collect()
        }
        match part {
            PartKind::Characteristic => self
                .characteristics
                .iter()
                .map(|p| p.name.as_str())
                .collect(),
            PartKind::Die => self.dice.iter().map(|p| p.name.as_str()).collect(),
            PartKind::Window => self.windows.iter().map(|p| p.name.as_str()).collect(),
            PartKind::Step => self.steps.iter().map(|p| p.name.as_str()).collect(),
            PartKind::Action => self.actions.iter().map(|p| p.name.as_str()).collect(),
            PartKind::Invariant => self.invariants.iter().map(|p| p.name.as_str()).collect(),
            PartKind::Deck => self.decks.iter().map(|p| p.name.as_str()).collect(),
            PartKind::HexType => list(&self.hex_types),
            PartKind::Token => list(&self.tokens),
            PartKind::Counter => list(&self.counters),
            PartKind::Keyword => list(&self.keywords),
            PartKind::CardKind => list(&self.card_kinds),
            PartKind::ScoreTiming => list(&self.score_timings),
            PartKind::Alliance => list(&self.alliances),
            PartKind::Zone => self.zones.iter().map(|p| p.name.as_str()).collect(),
        }
    }

    /// The die named `name`.
    pub fn die(&self, name: &str) -> Option<&DieDef> {
        self.dice.iter().find(|die| die.name == name)
    }
}

/// A part of a ruleset that `remove` can drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PartKind {
    /// A `characteristic` item.
    Characteristic,
    /// A `die` item.
    Die,
    /// A `window` item.
    Window,
    /// A `step` item.
    Step,
    /// An `action` item.
    Action,
    /// A `deck` item.
    Deck,
    /// An entry of `hex_types`.
    HexType,
    /// An entry of `tokens`.
    Token,
    /// An entry of `counters`.
    Counter,
    /// An entry of `keywords`.
    Keyword,
    /// An entry of `card_kinds`.
    CardKind,
    /// An entry of `score_timings`.
    ScoreTiming,
    /// An entry of `alliances`.
    Alliance,
    /// An entry of `zones`.
    Zone,
    /// An `invariant` item.
    Invariant,
}

impl PartKind {
    /// Every part kind.
    pub const ALL: [PartKind; 15] = [
        PartKind::Characteristic,
        PartKind::Die,
        PartKind::Window,
        PartKind::Step,
        PartKind::Action,
        PartKind::Deck,
        PartKind::HexType,
        PartKind::Token,
        PartKind::Counter,
        PartKind::Keyword,
        PartKind::CardKind,
        PartKind::ScoreTiming,
        PartKind::Alliance,
        PartKind::Zone,
        PartKind::Invariant,
    ];

    /// The name written before `:` in `remove`: `hex_type`.
    pub fn name(self) -> &'static str {
        match self {
            PartKind::Characteristic => "characteristic",
            PartKind::Die => "die",
            PartKind::Window => "window",
            PartKind::Step => "step",
            PartKind::Action => "action",
            PartKind::Deck => "deck",
            PartKind::HexType => "hex_type",
            PartKind::Token => "token",
            PartKind::Counter => "counter",
            PartKind::Keyword => "keyword",
            PartKind::CardKind => "card_kind",
            PartKind::ScoreTiming => "score_timing",
            PartKind::Alliance => "alliance",
            PartKind::Zone => "zone",
            PartKind::Invariant => "invariant",
        }
    }

    /// The part kind written `name`.
    pub fn from_name(name: &str) -> Option<PartKind> {
        PartKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Whether the part is a nested item (rather than an entry of a name list).
    pub fn is_item(self) -> bool {
        matches!(
            self,
            PartKind::Characteristic
                | PartKind::Die
                | PartKind::Window
                | PartKind::Step
                | PartKind::Action
                | PartKind::Deck
                | PartKind::Invariant
        )
    }
}

/// One of each player's zones: `zones = [power_hand: owner, power_discard: public]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneDef {
    /// Its name: `power_hand`.
    pub name: String,
    /// Who may see its cards: `owner` (a hand), `public` (a discard pile), `nobody` (a deck).
    pub visibility: Visibility,
}

impl ZoneDef {
    /// The visibility as written in a file: `owner`, `public` or `nobody`.
    pub fn visibility_name(&self) -> &'static str {
        visibility_name(self.visibility)
    }
}

/// The visibilities a zone may have, as written in a file.
pub const VISIBILITIES: [(&str, Visibility); 3] = [
    ("owner", Visibility::Owner),
    ("public", Visibility::Public),
    ("nobody", Visibility::Nobody),
];

/// A visibility as written in a file: `owner`, `public` or `nobody`.
pub fn visibility_name(visibility: Visibility) -> &'static str {
    match visibility {
        Visibility::Owner => "owner",
        Visibility::Public => "public",
        Visibility::Nobody => "nobody",
    }
}

/// One inherited part to drop: `remove = [window: "surge_step"]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoveDef {
    /// What kind of part.
    pub part: PartKind,
    /// Its name.
    pub name: String,
}

/// `characteristic "move" { floor = 0 }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacteristicDef {
    /// Its name.
    pub name: String,
    /// What it measures.
    pub about: Option<String>,
    /// The lowest value modifiers may bring it to.
    pub floor: Option<i64>,
    /// The die it counts, when its value is a number of dice (`defence`); fighters' values
    /// are checked at load against what one roll of that die may have.
    #[serde(default)]
    pub dice: Option<String>,
    /// Its fields the rules source does not state (`floor`).
    pub ours: Vec<String>,
    /// Whether its values are lengths (`move: 5in`).
    #[serde(default)]
    pub length: bool,
    /// Whether every warscroll must give it.
    #[serde(default)]
    pub required: bool,
}

/// `die "attack" { faces = [critical: 1, hammer: 2] }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieDef {
    /// Its name.
    pub name: String,
    /// A description.
    pub about: Option<String>,
    /// Its faces, each with the number of sides showing it (for a numbered die, `1` to
    /// `sides`, one side each).
    pub faces: Vec<FaceDef>,
    /// For a numbered die (`sides = 6`), its number of sides: each face is valued at its
    /// pips.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sides: Option<i64>,
    /// The number each face counts for, when the die is read as a number (the pips of a D6:
    /// `values = [one: 1, two: 2, ...]`); `count` holds the value. Empty for a die of symbols.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<FaceDef>,
}

impl DieDef {
    /// The most sides a numbered die may have.
    pub const MAX_SIDES: i64 = 1000;
}

/// A dice face and a count: a face of a die (`hammer: 2`), or a symbol a spell needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaceDef {
    /// The face.
    pub name: String,
    /// How many.
    pub count: i64,
}

/// `window "after_damage" { about = "..." gives = [target, attacker] optional = [attacker] }`:
/// a timing window, and the fighters of its event that the scripts of cards and abilities
/// used in it receive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowDef {
    /// Its name.
    pub name: String,
    /// When it opens.
    pub about: Option<String>,
    /// The variables its moment gives the scripts used in it (names of
    /// [`WINDOW_VARIABLES`]); none when empty (a power step).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gives: Vec<String>,
    /// Those of `gives` that may be `()`, when the event has no such fighter (the damage
    /// of a lethal hex has no attacker); the others are always a fighter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub optional: Vec<String>,
}

/// The variables a window may give (`gives`): the fighters of its event. `target` is the
/// fighter the event is about, `attacker` the one that caused it.
pub const WINDOW_VARIABLES: &[&str] = &["target", "attacker"];

/// `step "action_phase" { run = { ... } }`: a step of the flow.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepDef {
    /// Its name.
    pub name: String,
    /// What it does.
    pub about: Option<String>,
    /// Its script.
    pub run: ScriptDef,
}

/// `invariant "action dice" { about = "..." holds = { ... } }`: a condition true after every
/// decision of every game of the ruleset. `gloam sim` checks each one after each decision
/// and counts a game that breaks one as failed, with the invariant's name and `about`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvariantDef {
    /// Its name.
    pub name: String,
    /// What holds, in words: the message when it breaks.
    pub about: String,
    /// The condition (queries only; true when the invariant holds).
    pub holds: ScriptDef,
}

/// `action "move" { run = { ... } }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionDef {
    /// Its name.
    pub name: String,
    /// What it does.
    pub about: Option<String>,
    /// Whether it may be taken.
    pub condition: Option<ScriptDef>,
    /// Its script.
    pub run: ScriptDef,
}

/// `battlefield "three players" { players = 3, seat_1 = [turn: 0, q: 0, r: 0], ... }`: where
/// each seat's board lies when that many players play (the driver joins them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattlefieldDef {
    /// Its name.
    pub name: String,
    /// A description.
    pub about: Option<String>,
    /// The number of players it is for.
    pub players: i64,
    /// The fewest hexes each pair of touching boards must complete (0 when boards may touch
    /// along full hexes, as side by side boards do).
    pub min_completed: Option<i64>,
    /// Each seat's board placement, in seat order.
    pub seats: Vec<PlacementDef>,
}

/// Where one board lies: turned `turn` sixths of a turn clockwise about its origin, then
/// moved by the axial offset (`q`, `r`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacementDef {
    /// Sixths of a turn, clockwise.
    pub turn: i64,
    /// The axial `q` offset.
    pub q: i64,
    /// The axial `r` offset.
    pub r: i64,
}

/// `deck "objective" { kinds = [objective], min_size = 12, limits = [surge: 6] }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckDef {
    /// Its name.
    pub name: String,
    /// A description.
    pub about: Option<String>,
    /// The card kinds that go in it.
    pub kinds: Vec<String>,
    /// The fewest cards.
    pub min_size: Option<i64>,
    /// The most cards.
    pub max_size: Option<i64>,
    /// The most cards with a keyword, score timing or kind.
    pub limits: Vec<LimitDef>,
    /// Kinds, keywords or timings that together may fill at most half the deck.
    pub max_half: Vec<String>,
    /// Keywords (or kinds, or timings) each carried by the same number of the deck's cards,
    /// at least one each: `balanced = [good, evil]` wants as many good cards as evil ones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub balanced: Vec<String>,
    /// Whether card names must be unique across a player's decks.
    pub unique_names: Option<bool>,
}

/// `surge: 6` in a deck's `limits`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitDef {
    /// A keyword, score timing or card kind.
    pub name: String,
    /// The most cards that may have it.
    pub max: i64,
}

/// A board, read from its ASCII layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardDef {
    /// Its name.
    pub name: String,
    /// The ruleset it is for.
    pub ruleset: String,
    /// A description.
    pub about: Option<String>,
    /// The layout string as written (see the crate docs for the layout rules).
    pub layout: String,
    /// What each layout character means.
    pub legend: Vec<LegendDef>,
    /// The whole hexes, in layout order (row by row, left to right).
    pub hexes: Vec<BoardHexDef>,
    /// The half hexes on the edges (legend value `half`), in layout order.
    pub half_hexes: Vec<BoardHexDef>,
}

impl BoardDef {
    /// The kernel's board.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_grammar::{load, SourceFile};
    /// let text = r##"
    /// ruleset "r" { title = "R" rounds = 3 min_players = 2 max_players = 2 hex_types = [blocked] }
    /// board "b" { ruleset = "r" layout = ". #" legend = ["#": blocked] }
    /// "##;
    /// let (library, diagnostics) = load(&[SourceFile::new("a.gloam", text)]);
    /// assert!(diagnostics.is_empty());
    /// let board = library.board("b").unwrap().to_board();
    /// assert_eq!(board.hexes.len(), 2);
    /// ```
    pub fn to_board(&self) -> gloam_core::Board {
        let mut board = gloam_core::Board::new(self.name.clone());
        for hex in &self.hexes {
            board = board.with_hex(hex.hex, hex.types.iter().cloned());
        }
        for hex in &self.half_hexes {
            board = board.with_half_hex(hex.hex, hex.types.iter().cloned());
        }
        board
    }
}

/// One legend entry: `S: starting` or `x: [starting, cover]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegendDef {
    /// The layout character.
    pub symbol: char,
    /// Whether the character marks a half hex.
    pub half: bool,
    /// The hex types of hexes drawn with it.
    pub types: Vec<String>,
}

/// One hex of a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardHexDef {
    /// Its axial coordinates.
    pub hex: Hex,
    /// Its hex types (none for a plain hex).
    pub types: Vec<String>,
}

/// A warband and its fighters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarbandDef {
    /// Its name.
    pub name: String,
    /// The ruleset it is for.
    pub ruleset: String,
    /// Its grand alliance.
    pub alliance: String,
    /// Its faction.
    pub faction: Option<String>,
    /// A description.
    pub about: Option<String>,
    /// Where the values came from.
    pub source: Option<String>,
    /// Its fighters.
    pub fighters: Vec<FighterDef>,
}

impl WarbandDef {
    /// The fighter named `name`.
    pub fn fighter(&self, name: &str) -> Option<&FighterDef> {
        self.fighters.iter().find(|fighter| fighter.name == name)
    }
}

/// A fighter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FighterDef {
    /// Its name.
    pub name: String,
    /// Keywords and traits.
    pub keywords: Vec<String>,
    /// Characteristics on the un-inspired side.
    pub stats: Vec<StatDef>,
    /// Characteristics that change on the inspired side.
    pub inspired: Vec<StatDef>,
    /// The dice face each listed characteristic succeeds on (`defence: block`).
    pub symbols: Vec<SymbolDef>,
    /// The inspire condition.
    pub inspire: Option<ScriptDef>,
    /// The un-inspire condition.
    pub uninspire: Option<ScriptDef>,
    /// Card text, in our words.
    pub text: Option<String>,
    /// Characteristics whose values are not confirmed.
    pub uncertain: Vec<String>,
    /// Where the values came from.
    pub source: Option<String>,
    /// Attack actions.
    pub weapons: Vec<WeaponDef>,
    /// Abilities and reactions.
    pub abilities: Vec<AbilityDef>,
}

impl FighterDef {
    /// The un-inspired value of characteristic `name`.
    pub fn stat(&self, name: &str) -> Option<i64> {
        self.stats
            .iter()
            .find(|stat| stat.name == name)
            .map(|stat| stat.value)
    }
}

/// `move: 3`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatDef {
    /// The characteristic (or weapon value: `range`, `dice`, `damage`).
    pub name: String,
    /// Its value.
    pub value: i64,
}

/// `defence: block`: the face a characteristic's roll succeeds on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolDef {
    /// The characteristic.
    pub characteristic: String,
    /// The dice face.
    pub face: String,
}

/// The side of a fighter card something is printed on, when only one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Only while the fighter is inspired.
    Inspired,
    /// Only while it is not.
    Uninspired,
}

impl Side {
    /// The name written in files.
    pub fn name(self) -> &'static str {
        match self {
            Side::Inspired => "inspired",
            Side::Uninspired => "uninspired",
        }
    }
}

/// An attack action on a fighter card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeaponDef {
    /// Its name.
    pub name: String,
    /// The only side it is on, if not both.
    pub side: Option<Side>,
    /// The die rolled, when not the usual attack die.
    pub die: Option<String>,
    /// Range in hexes.
    pub range: i64,
    /// Dice rolled.
    pub dice: i64,
    /// The face that succeeds.
    pub symbol: String,
    /// Damage.
    pub damage: i64,
    /// Weapon keywords.
    pub keywords: Vec<KeywordDef>,
    /// `range`, `dice` or `damage` values that change on the inspired side.
    pub inspired: Vec<StatDef>,
    /// Keywords gained on the inspired side.
    pub inspired_keywords: Vec<KeywordDef>,
    /// Its rules, in our words.
    pub text: Option<String>,
    /// Fields whose values are not confirmed.
    pub uncertain: Vec<String>,
}

/// `cleave` or `knockback: 1`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeywordDef {
    /// The keyword.
    pub name: String,
    /// Its value, for keywords that take one.
    pub value: Option<i64>,
}

/// An ability or reaction on a fighter card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbilityDef {
    /// Its name.
    pub name: String,
    /// The only side it is on, if not both.
    pub side: Option<Side>,
    /// Whether it is a reaction.
    pub reaction: bool,
    /// The timing window it is used in.
    pub window: Option<String>,
    /// Its rules, in our words.
    pub text: Option<String>,
    /// Whether it may be used.
    pub condition: Option<ScriptDef>,
    /// What it does.
    pub effect: Option<ScriptDef>,
    /// Its keywords.
    #[serde(default)]
    pub keywords: Vec<String>,
    /// How often it may be used, one of the ruleset's `frequencies`.
    #[serde(default)]
    pub frequency: Option<String>,
    /// For an army's ability, the group of the ruleset's `army_choices` it is picked from.
    #[serde(default)]
    pub choice: Option<String>,
    /// Where it came from.
    #[serde(default)]
    pub source: Option<String>,
}

/// Who may take a card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Owner {
    /// One warband (`owner = "Xandire's Truthseekers"`).
    Warband(String),
    /// Any warband (`owner = universal`).
    Universal,
    /// Warbands of one grand alliance (`owner = order`).
    Alliance(String),
}

/// Who may use a card: `fighter: "Taros"` or `keyword: wizard`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Restriction {
    /// Only this fighter.
    Fighter(String),
    /// Only fighters with this keyword.
    Keyword(String),
}

/// An objective or power card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardDef {
    /// Its name.
    pub name: String,
    /// The ruleset it is for.
    pub ruleset: String,
    /// Its kind, declared by the ruleset.
    pub kind: String,
    /// Who may take it.
    pub owner: Owner,
    /// Its number in its set.
    pub number: Option<i64>,
    /// The glory an objective is worth.
    pub glory: Option<i64>,
    /// The glory an upgrade costs.
    pub cost: Option<i64>,
    /// The symbols a spell needs.
    pub casting_value: Vec<FaceDef>,
    /// Card keywords.
    pub keywords: Vec<String>,
    /// Who may use it.
    pub restrictions: Vec<Restriction>,
    /// The timing window it is played in.
    pub window: Option<String>,
    /// When an objective is scored.
    pub score: Option<String>,
    /// The ruleset ability it may be spent on instead (a battle tactic card's command).
    #[serde(default)]
    pub command: Option<String>,
    /// Whether it stays in play after it is resolved.
    pub persist: bool,
    /// Card text, in our words.
    pub text: Option<String>,
    /// When it may be scored or played.
    pub condition: Option<ScriptDef>,
    /// What it does.
    pub effect: Option<ScriptDef>,
    /// Fields whose values are not confirmed.
    pub uncertain: Vec<String>,
    /// Where the values came from.
    pub source: Option<String>,
    /// The Attack actions it gives its bearer (an Attack action upgrade), written as a
    /// fighter's weapons are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weapons: Vec<WeaponDef>,
}

impl CardDef {
    /// Every script of the card, with the field it is in.
    pub fn scripts(&self) -> Vec<(&'static str, &ScriptDef)> {
        let mut scripts = Vec::new();
        if let Some(script) = &self.condition {
            scripts.push(("condition", script));
        }
        if let Some(script) = &self.effect {
            scripts.push(("effect", script));
        }
        scripts
    }
}

/// A decklist: the cards a warband (or, in a game of parties, a party) takes into some of
/// its ruleset's decks.
///
/// ```text
/// decklist "Truthseekers: Starter" {
///     ruleset = "harrowdeep"
///     warband = "Xandire's Truthseekers"
///     deck "objective" { cards = ["Banish the Dark", ...] }
///     deck "power" { cards = ["Blaze of Light", ...] }
/// }
/// ```
///
/// [`load`](crate::load) checks each listed deck against the ruleset's [`DeckDef`] of the
/// same name (see the crate docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecklistDef {
    /// Its name.
    pub name: String,
    /// The ruleset it is for.
    pub ruleset: String,
    /// The warband that takes it (`None` in a party's decklist).
    pub warband: Option<String>,
    /// In a ruleset whose players bring parties of heroes, the party that takes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party: Option<String>,
    /// A description.
    pub about: Option<String>,
    /// Where the list came from.
    pub source: Option<String>,
    /// The cards of each deck, in the order written.
    pub decks: Vec<DeckCardsDef>,
}

impl DecklistDef {
    /// The cards listed for the deck named `name`.
    pub fn deck(&self, name: &str) -> Option<&DeckCardsDef> {
        self.decks.iter().find(|deck| deck.name == name)
    }
}

/// `deck "objective" { cards = ["Banish the Dark", ...] }` in a decklist.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckCardsDef {
    /// The deck, declared by the ruleset (`deck "objective" { ... }` there).
    pub name: String,
    /// The card names, in the order written (repeats kept).
    pub cards: Vec<String>,
}

/// A whole number or a length: the value of a warscroll characteristic or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    /// `2`.
    Number(i64),
    /// `5in`.
    Length(Measure),
}

impl std::fmt::Display for Quantity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Quantity::Number(number) => write!(f, "{number}"),
            Quantity::Length(length) => write!(f, "{length}"),
        }
    }
}

/// `constant "combat_range" { length = 3in }`: a named value of a ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConstantDef {
    /// Its name.
    pub name: String,
    /// What it is.
    pub about: Option<String>,
    /// Its value.
    pub value: Quantity,
    /// Where it came from.
    pub source: Option<String>,
    /// How sure that source is: `high`, `medium` or `low`.
    pub confidence: Option<String>,
}

/// `move: 5in` or `health: 2` on a warscroll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueDef {
    /// The characteristic.
    pub name: String,
    /// Its value.
    pub value: Quantity,
}

/// A point written `[x, y]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointDef {
    /// Along the width.
    pub x: Measure,
    /// Along the depth.
    pub y: Measure,
}

impl PointDef {
    /// The kernel's point.
    pub fn to_point(self) -> Point {
        Point::at(self.x.length, self.y.length)
    }
}

/// An army of a measured game: warscrolls and army abilities.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmyDef {
    /// Its name.
    pub name: String,
    /// The ruleset it is for.
    pub ruleset: String,
    /// Its grand alliance.
    pub alliance: Option<String>,
    /// Its faction.
    pub faction: Option<String>,
    /// The warscroll of its general.
    pub general: Option<String>,
    /// A description.
    pub about: Option<String>,
    /// Where the values came from.
    pub source: Option<String>,
    /// Its units' profiles.
    pub warscrolls: Vec<WarscrollDef>,
    /// Its army abilities (those with a `choice` are picked before the battle).
    pub abilities: Vec<AbilityDef>,
}

impl ArmyDef {
    /// The warscroll named `name`.
    pub fn warscroll(&self, name: &str) -> Option<&WarscrollDef> {
        self.warscrolls
            .iter()
            .find(|warscroll| warscroll.name == name)
    }
}

/// A unit's profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarscrollDef {
    /// Its name.
    pub name: String,
    /// How many units of it the army fields.
    pub units: i64,
    /// How many models a unit has.
    pub models: i64,
    /// The diameter of a model's round base.
    pub base: Measure,
    /// Its characteristics.
    pub stats: Vec<ValueDef>,
    /// Its keywords.
    pub keywords: Vec<String>,
    /// A description, in our words.
    pub text: Option<String>,
    /// Characteristics whose values are not confirmed.
    pub uncertain: Vec<String>,
    /// Where the values came from.
    pub source: Option<String>,
    /// Its weapons.
    pub weapons: Vec<TableWeaponDef>,
    /// Its abilities.
    pub abilities: Vec<AbilityDef>,
}

impl WarscrollDef {
    /// The value of characteristic `name`.
    pub fn stat(&self, name: &str) -> Option<Quantity> {
        self.stats
            .iter()
            .find(|stat| stat.name == name)
            .map(|stat| stat.value)
    }
}

/// A weapon on a warscroll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableWeaponDef {
    /// Its name.
    pub name: String,
    /// The range of a ranged weapon; `None` for a melee weapon.
    pub range: Option<Measure>,
    /// Attacks per model.
    pub attacks: Amount,
    /// The hit roll needed.
    pub hit: i64,
    /// The wound roll needed.
    pub wound: i64,
    /// How much it worsens the save.
    pub rend: i64,
    /// Damage per attack.
    pub damage: Amount,
    /// Its weapon abilities.
    pub abilities: Vec<WeaponAbilityDef>,
    /// Notes, in our words.
    pub text: Option<String>,
    /// Fields whose values are not confirmed.
    pub uncertain: Vec<String>,
}

/// `crit_mortal`, or `anti: hero` (an ability with what it applies to).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeaponAbilityDef {
    /// The weapon ability.
    pub name: String,
    /// The keyword or flag it names, for abilities that take one.
    pub value: Option<String>,
}

/// A measured battlefield.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableDef {
    /// Its name.
    pub name: String,
    /// The ruleset it is for.
    pub ruleset: String,
    /// A description.
    pub about: Option<String>,
    /// The size along x.
    pub width: Measure,
    /// The size along y.
    pub depth: Measure,
    /// Where the values came from.
    pub source: Option<String>,
    /// Its deployment maps.
    pub maps: Vec<MapDef>,
    /// Its terrain features (placed when the table is set up).
    pub terrain: Vec<TerrainDef>,
}

impl TableDef {
    /// The map named `name`.
    pub fn map(&self, name: &str) -> Option<&MapDef> {
        self.maps.iter().find(|map| map.name == name)
    }
}

/// A deployment map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapDef {
    /// Its name.
    pub name: String,
    /// A description.
    pub about: Option<String>,
    /// Where the values came from.
    pub source: Option<String>,
    /// The fewest players it serves (`min_players`; none: any number from one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_players: Option<i64>,
    /// The most players it serves (`max_players`; none: as many as it has territories).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_players: Option<i64>,
    /// Its territories.
    pub territories: Vec<TerritoryDef>,
    /// Its objectives.
    pub objectives: Vec<ObjectiveDef>,
}

impl MapDef {
    /// Whether a match of `players` seats may use this map: within its `min_players` and
    /// `max_players`, and with a territory for each seat.
    pub fn serves(&self, players: usize) -> bool {
        let players = players as i64;
        players >= self.min_players.unwrap_or(1)
            && players <= self.max_players.unwrap_or(i64::MAX)
            && players <= self.territories.len() as i64
    }
}

/// An area: a polygon or a rectangle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AreaDef {
    /// `outline = [[x, y], ...]`: corners in order.
    Outline(Vec<PointDef>),
    /// `rect = [[x1, y1], [x2, y2]]`: two opposite corners.
    Rect(PointDef, PointDef),
}

impl AreaDef {
    /// The kernel's area: a polygon of [`corners`](Self::corners).
    pub fn to_area(&self) -> gloam_core::Area {
        gloam_core::Area::Polygon(self.corners())
    }

    /// The corners, in order (a rectangle's four, counter-clockwise from its lowest corner).
    pub fn corners(&self) -> Vec<Point> {
        match self {
            AreaDef::Outline(points) => points.iter().map(|point| point.to_point()).collect(),
            AreaDef::Rect(a, b) => {
                let (a, b) = (a.to_point(), b.to_point());
                let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
                let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
                vec![
                    Point::new(x0, y0),
                    Point::new(x1, y0),
                    Point::new(x1, y1),
                    Point::new(x0, y1),
                ]
            }
        }
    }
}

/// A territory of a deployment map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerritoryDef {
    /// Its name.
    pub name: String,
    /// A description.
    pub about: Option<String>,
    /// Its area.
    pub area: AreaDef,
}

/// An objective of a deployment map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectiveDef {
    /// Its name.
    pub name: String,
    /// A description.
    pub about: Option<String>,
    /// Its centre.
    pub at: PointDef,
}

/// A terrain feature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrainDef {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: String,
    /// Its rules.
    pub rules: Vec<String>,
    /// Its footprint, around its own origin.
    pub outline: Vec<PointDef>,
    /// The footprint's height.
    pub height: Measure,
    /// A description.
    pub about: Option<String>,
    /// Where the values came from.
    pub source: Option<String>,
    /// Its raised parts.
    pub parts: Vec<PartDef>,
}

impl TerrainDef {
    /// The tallest height of any part of it.
    pub fn tallest(&self) -> gloam_core::Length {
        self.parts
            .iter()
            .map(|part| part.height.length)
            .chain([self.height.length])
            .max()
            .unwrap_or_default()
    }
}

/// A raised part of a terrain feature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartDef {
    /// Its name.
    pub name: String,
    /// Its footprint, around the feature's origin.
    pub outline: Vec<PointDef>,
    /// Its height.
    pub height: Measure,
}

/// A whole number or a dice roll: a weapon's Attacks or Damage (`2`, `"D3"`, `"2D6+1"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Amount {
    /// `2`.
    Fixed(i64),
    /// `"2D6+1"`: `dice` dice of the ruleset's die `die` (lower case, `d6`), plus `plus`.
    Roll {
        /// How many dice.
        dice: i64,
        /// The ruleset's die, as named there (`d3`, `d6`).
        die: String,
        /// Added to the roll.
        plus: i64,
    },
}

impl Amount {
    /// Reads a dice roll written `D3`, `2D6`, `D3+1` (case does not matter; the die is named
    /// by its lower-case name, `d3`). `None` when the text is not of that form.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_grammar::Amount;
    /// let roll = Amount::parse_roll("2D6+1").unwrap();
    /// assert_eq!(roll, Amount::Roll { dice: 2, die: "d6".into(), plus: 1 });
    /// assert_eq!(roll.to_string(), "2D6+1");
    /// assert_eq!(Amount::parse_roll("two dice"), None);
    /// ```
    pub fn parse_roll(text: &str) -> Option<Amount> {
        let lower = text.trim().to_ascii_lowercase();
        let at = lower.find('d')?;
        let (count, rest) = lower.split_at(at);
        let dice = if count.is_empty() {
            1
        } else {
            count.parse::<i64>().ok().filter(|n| *n >= 1)?
        };
        let (die, plus) = match rest.split_once('+') {
            Some((die, plus)) => (die, plus.parse::<i64>().ok().filter(|n| *n >= 1)?),
            None => (rest, 0),
        };
        let faces = &die[1..];
        if faces.is_empty() || !faces.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(Amount::Roll {
            dice,
            die: die.to_string(),
            plus,
        })
    }
}

impl std::fmt::Display for Amount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Amount::Fixed(number) => write!(f, "{number}"),
            Amount::Roll { dice, die, plus } => {
                if *dice != 1 {
                    write!(f, "{dice}")?;
                }
                write!(f, "{}", die.to_ascii_uppercase())?;
                if *plus != 0 {
                    write!(f, "+{plus}")?;
                }
                Ok(())
            }
        }
    }
}
