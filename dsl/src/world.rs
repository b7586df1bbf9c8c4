//! What scripts need beyond the game state: the battlefield, sight, dice, names, the cards'
//! catalog and the players' territories.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use gloam_core::{Battlefield, Dice, Hex, PlayerId, Sight, Value};

use crate::Script;

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
    /// The hex type of starting hexes, which `starting_hexes` lists (`starting`).
    pub starting: String,
    /// The hex type every edge hex has, computed from the battlefield's shape (`edge`).
    pub edge: String,
    /// The zone on a fighter that holds the cards `equip` puts on it (`equipped`).
    pub equipped: String,
    /// The game counter holding which of the world's battlefield layouts is in play, by
    /// its place in [`World::layouts`] (`battlefield_layout`; unset is the first).
    pub layout: String,
    /// On a measured table, the characteristic holding a model's base radius in tenths of
    /// a millimetre (`base_radius`).
    pub base_radius: String,
    /// On a measured table, the characteristic holding the number of a model's unit; models
    /// with the same number form one unit (`unit`; a model without it is a unit of one).
    pub unit: String,
    /// On a measured table, the characteristic holding a model's height in tenths of a
    /// millimetre, for line of sight (`height`; 0 when absent).
    pub height: String,
    /// In a game of parties, the characteristic holding what a hero is worth in the
    /// party's points, as the party-building rules price it (`cost`).
    pub cost: String,
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
            starting: "starting".into(),
            edge: "edge".into(),
            equipped: "equipped".into(),
            layout: "battlefield_layout".into(),
            base_radius: "base_radius".into(),
            unit: "unit".into(),
            height: "height".into(),
            cost: "cost".into(),
        }
    }
}

/// A fighter profile's two sides, for `inspire` and `uninspire`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Sides {
    base: BTreeMap<String, i64>,
    inspired: BTreeMap<String, i64>,
}

/// Who may use a card (a card's `restrictions`): `card_allows` checks them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum CardRestriction {
    /// Only fighters of this profile (the piece's kind, `fighter_kind`).
    Fighter(String),
    /// Only fighters with this keyword.
    Keyword(String),
}

/// What scripts may ask about a card definition (`card_kind`, `card_glory`,
/// `condition_holds`...), in a [`World`]'s catalog, by card name.
///
/// Built by the loader from the library and the scripts it compiled: the condition is the
/// compiled `condition` script, shared.
///
/// # Examples
///
/// ```
/// use gloam_dsl::{CardInfo, CardRestriction};
/// let info = CardInfo::new("objective")
///     .with_glory(2)
///     .with_score("end_phase")
///     .with_keywords(["surge"])
///     .with_restriction(CardRestriction::Keyword("wizard".into()));
/// assert_eq!(info.glory, 2);
/// assert!(info.keywords.contains("surge"));
/// assert!(info.condition.is_none());
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct CardInfo {
    /// Its kind, as the ruleset names it (`objective`, `ploy`, `upgrade`, `spell`).
    pub kind: String,
    /// The glory an objective is worth (0 if none).
    pub glory: i64,
    /// The glory an upgrade costs (0 if none).
    pub cost: i64,
    /// The timing window it is played in, if any.
    pub window: Option<String>,
    /// When it is scored (`surge`, `end_phase`), if it is scored.
    pub score: Option<String>,
    /// The card's keywords.
    pub keywords: BTreeSet<String>,
    /// Who may use it; none: anyone.
    pub restrictions: Vec<CardRestriction>,
    /// Its compiled `condition` script, if any (`condition_holds` runs it).
    pub condition: Option<Rc<Script>>,
    /// The symbols a casting roll must match to cast it (a spell's casting value), one entry
    /// per symbol (`["channel", "channel"]`); empty if it has none.
    pub casting_value: Vec<String>,
    /// The Attack actions it gives the fighter it is equipped on (an Attack action upgrade),
    /// usable on both sides of the fighter's card.
    pub weapons: Vec<WeaponInfo>,
    /// Named numbers its data gives (a weapon's strike modifiers, damage and range, an
    /// armour's save, a spell's chance), as `card_value` reads them.
    pub values: BTreeMap<String, i64>,
    /// Names its data tags it with beyond its keywords (a weapon's special rules, where an
    /// armour protects), as `card_tags` reads them, in order.
    pub tags: Vec<String>,
}

impl CardInfo {
    /// A card of `kind` with no glory, cost, window, score, keywords, restrictions or
    /// condition.
    pub fn new(kind: impl Into<String>) -> CardInfo {
        CardInfo {
            kind: kind.into(),
            ..CardInfo::default()
        }
    }

    /// The same card giving one more Attack action (after the others) to its bearer.
    pub fn with_weapon(mut self, weapon: WeaponInfo) -> CardInfo {
        self.weapons.push(weapon);
        self
    }

    /// The same card worth `glory`.
    pub fn with_glory(mut self, glory: i64) -> CardInfo {
        self.glory = glory;
        self
    }

    /// The same card costing `cost`.
    pub fn with_cost(mut self, cost: i64) -> CardInfo {
        self.cost = cost;
        self
    }

    /// The same card played in `window`.
    pub fn with_window(mut self, window: impl Into<String>) -> CardInfo {
        self.window = Some(window.into());
        self
    }

    /// The same card scored at `score`.
    pub fn with_score(mut self, score: impl Into<String>) -> CardInfo {
        self.score = Some(score.into());
        self
    }

    /// The same card with more keywords.
    pub fn with_keywords<I, S>(mut self, keywords: I) -> CardInfo
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.keywords.extend(keywords.into_iter().map(Into::into));
        self
    }

    /// The same card with one more restriction.
    pub fn with_restriction(mut self, restriction: CardRestriction) -> CardInfo {
        self.restrictions.push(restriction);
        self
    }

    /// The same card with a casting value (one entry per symbol).
    pub fn with_casting_value<I, S>(mut self, symbols: I) -> CardInfo
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.casting_value
            .extend(symbols.into_iter().map(Into::into));
        self
    }

    /// The same card with a named number (`card_value(card, name)`); a later value of the
    /// same name replaces the earlier.
    pub fn with_value(mut self, name: impl Into<String>, value: i64) -> CardInfo {
        self.values.insert(name.into(), value);
        self
    }

    /// The same card with more tags (`card_tags`), each kept once, in order.
    pub fn with_tags<I, S>(mut self, tags: I) -> CardInfo
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        for tag in tags {
            let tag = tag.into();
            if !self.tags.contains(&tag) {
                self.tags.push(tag);
            }
        }
        self
    }

    /// The same card with its compiled condition (a `Script` or a shared `Rc<Script>`).
    pub fn with_condition(mut self, condition: impl Into<Rc<Script>>) -> CardInfo {
        self.condition = Some(condition.into());
        self
    }
}

/// Which side of a fighter's profile a weapon belongs to ([`WeaponInfo::side`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Side {
    /// Only while the fighter is inspired.
    Inspired,
    /// Only while the fighter is not inspired.
    Uninspired,
}

/// One weapon of a fighter profile, as `weapons`, `weapon_value`, `weapon_symbol` and
/// `weapon_has_keyword` read it.
///
/// # Examples
///
/// ```
/// use gloam_dsl::{Side, WeaponInfo};
/// let axe = WeaponInfo::new("Axe", 1, 3, 2, "hammer")
///     .with_keywords(["cleave"])
///     .with_inspired_keywords(["grievous"])
///     .with_side(Side::Inspired);
/// assert_eq!(axe.dice, 3);
/// assert!(axe.inspired_keywords.contains("grievous"));
/// assert!(axe.die.is_none());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WeaponInfo {
    /// Its name, unique within the profile.
    pub name: String,
    /// Its range in hexes.
    pub range: i64,
    /// How many attack dice it rolls.
    pub dice: i64,
    /// The damage it deals.
    pub damage: i64,
    /// The attack symbol it succeeds on (`hammer`, `swords`).
    pub symbol: String,
    /// The kind of die it rolls, when not the ruleset's usual one.
    pub die: Option<String>,
    /// Its keywords (`cleave`).
    pub keywords: BTreeSet<String>,
    /// Keywords it has only while the fighter is inspired.
    pub inspired_keywords: BTreeSet<String>,
    /// The side it belongs to; none: both.
    pub side: Option<Side>,
}

impl WeaponInfo {
    /// A weapon usable on both sides, with no die of its own and no keywords.
    pub fn new(
        name: impl Into<String>,
        range: i64,
        dice: i64,
        damage: i64,
        symbol: impl Into<String>,
    ) -> WeaponInfo {
        WeaponInfo {
            name: name.into(),
            range,
            dice,
            damage,
            symbol: symbol.into(),
            ..WeaponInfo::default()
        }
    }

    /// The same weapon rolling dice of kind `die`.
    pub fn with_die(mut self, die: impl Into<String>) -> WeaponInfo {
        self.die = Some(die.into());
        self
    }

    /// The same weapon with more keywords.
    pub fn with_keywords<I, S>(mut self, keywords: I) -> WeaponInfo
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.keywords.extend(keywords.into_iter().map(Into::into));
        self
    }

    /// The same weapon with more keywords it has only while the fighter is inspired.
    pub fn with_inspired_keywords<I, S>(mut self, keywords: I) -> WeaponInfo
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.inspired_keywords
            .extend(keywords.into_iter().map(Into::into));
        self
    }

    /// The same weapon, usable only on `side`.
    pub fn with_side(mut self, side: Side) -> WeaponInfo {
        self.side = Some(side);
        self
    }
}

/// One ability of a fighter profile, as `abilities`, `ability_window`,
/// `ability_is_reaction`, `ability_condition_holds` and `reactions_of` read it.
///
/// # Examples
///
/// ```
/// use gloam_dsl::{AbilityInfo, Side};
/// let parry = AbilityInfo::new("Parry")
///     .with_window("after_attack")
///     .as_reaction()
///     .with_side(Side::Inspired);
/// assert!(parry.reaction);
/// assert_eq!(parry.window.as_deref(), Some("after_attack"));
/// assert!(parry.condition.is_none());
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct AbilityInfo {
    /// Its name (the driver finds its `effect` by this name).
    pub name: String,
    /// The timing window it is used in, if any.
    pub window: Option<String>,
    /// Whether it is a reaction (used in a reaction step when its window opens).
    pub reaction: bool,
    /// The side it belongs to; none: both.
    pub side: Option<Side>,
    /// Its compiled `condition` script, if any (`ability_condition_holds` runs it).
    pub condition: Option<Rc<Script>>,
}

impl AbilityInfo {
    /// An ability on both sides, with no window, not a reaction, with no condition.
    pub fn new(name: impl Into<String>) -> AbilityInfo {
        AbilityInfo {
            name: name.into(),
            ..AbilityInfo::default()
        }
    }

    /// The same ability, used in `window`.
    pub fn with_window(mut self, window: impl Into<String>) -> AbilityInfo {
        self.window = Some(window.into());
        self
    }

    /// The same ability, a reaction.
    pub fn as_reaction(mut self) -> AbilityInfo {
        self.reaction = true;
        self
    }

    /// The same ability, only on `side`.
    pub fn with_side(mut self, side: Side) -> AbilityInfo {
        self.side = Some(side);
        self
    }

    /// The same ability with its compiled condition (a `Script` or a shared `Rc<Script>`).
    pub fn with_condition(mut self, condition: impl Into<Rc<Script>>) -> AbilityInfo {
        self.condition = Some(condition.into());
        self
    }
}

/// What scripts may ask about a fighter profile (`weapons`, `defence_symbol`,
/// `inspire_condition_holds`, `abilities`...), in a [`World`]'s catalog, by the profile's
/// name (a piece's `kind`).
///
/// # Examples
///
/// ```
/// use gloam_dsl::{AbilityInfo, FighterInfo, WeaponInfo};
/// let info = FighterInfo::new()
///     .with_defence_symbol("shield")
///     .with_weapon(WeaponInfo::new("Sword", 1, 2, 1, "swords"))
///     .with_ability(AbilityInfo::new("Parry").with_window("after_attack").as_reaction());
/// assert_eq!(info.defence_symbol.as_deref(), Some("shield"));
/// assert_eq!(info.weapons[0].name, "Sword");
/// assert_eq!(info.abilities[0].name, "Parry");
/// assert!(info.inspire.is_none());
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct FighterInfo {
    /// The defence symbol (`shield`, `dodge`), if any.
    pub defence_symbol: Option<String>,
    /// Its weapons, in the profile's order.
    pub weapons: Vec<WeaponInfo>,
    /// Its compiled `inspire` condition, if any (`inspire_condition_holds` runs it).
    pub inspire: Option<Rc<Script>>,
    /// Its compiled `uninspire` condition, if any (`uninspire_condition_holds` runs it).
    pub uninspire: Option<Rc<Script>>,
    /// Its abilities, in the profile's order.
    pub abilities: Vec<AbilityInfo>,
}

impl FighterInfo {
    /// A profile with no defence symbol, weapons, inspire condition or abilities.
    pub fn new() -> FighterInfo {
        FighterInfo::default()
    }

    /// The same profile defending with `symbol`.
    pub fn with_defence_symbol(mut self, symbol: impl Into<String>) -> FighterInfo {
        self.defence_symbol = Some(symbol.into());
        self
    }

    /// The same profile with one more weapon, after the others.
    pub fn with_weapon(mut self, weapon: WeaponInfo) -> FighterInfo {
        self.weapons.push(weapon);
        self
    }

    /// The same profile with more weapons, after the others.
    pub fn with_weapons(mut self, weapons: impl IntoIterator<Item = WeaponInfo>) -> FighterInfo {
        self.weapons.extend(weapons);
        self
    }

    /// The same profile with its compiled inspire condition (a `Script` or an `Rc<Script>`).
    pub fn with_inspire(mut self, condition: impl Into<Rc<Script>>) -> FighterInfo {
        self.inspire = Some(condition.into());
        self
    }

    /// The same profile with its compiled uninspire condition.
    pub fn with_uninspire(mut self, condition: impl Into<Rc<Script>>) -> FighterInfo {
        self.uninspire = Some(condition.into());
        self
    }

    /// The same profile with one more ability, after the others.
    pub fn with_ability(mut self, ability: AbilityInfo) -> FighterInfo {
        self.abilities.push(ability);
        self
    }
}

/// The hexes of `battlefield` that block (one of `types`) and the sight over it.
fn sight_of(
    battlefield: &Battlefield,
    types: &[String],
    off_board_blocks: bool,
) -> (BTreeSet<Hex>, Sight) {
    let blocked: BTreeSet<Hex> = battlefield
        .hexes()
        .filter(|&hex| types.iter().any(|name| battlefield.has_type(hex, name)))
        .collect();
    let sight = Sight::new(
        battlefield.hexes(),
        blocked.iter().copied(),
        off_board_blocks,
    );
    (blocked, sight)
}

/// An ability of an army or of a model's profile in a measured game, as `army_of` and
/// `model_abilities` give it to scripts: its name, its timing window, the group of army
/// choices it is picked from (`regiment_ability`, `enhancement`), its frequency and keywords.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArmyAbility {
    /// Its name (its `effect` runs as the driver's `ability` step of that name).
    pub name: String,
    /// When it is used.
    pub window: Option<String>,
    /// The group of army choices it is picked from.
    pub choice: Option<String>,
    /// How often it may be used.
    pub frequency: Option<String>,
    /// Its keywords.
    pub keywords: Vec<String>,
    /// Whether it has an `effect` script.
    pub has_effect: bool,
}

/// What a player brings to a measured game, as `army_of` gives it to scripts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArmyInfo {
    /// The army's name.
    pub name: String,
    /// The profile (warscroll) of its general, if it names one.
    pub general: Option<String>,
    /// Its abilities, in the data's order.
    pub abilities: Vec<ArmyAbility>,
}

/// The party a player brings to a role-playing skirmish game, as `party_of` gives it to
/// scripts.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PartyInfo {
    /// The party's name.
    pub name: String,
    /// Its alignment, as the party declares it (`good`, `evil`...).
    pub alignment: String,
    /// The guild it forms, if it declares one.
    pub guild: Option<String>,
    /// The points it was built to.
    pub points: i64,
}

impl PartyInfo {
    /// A party's name, alignment, guild and points.
    pub fn new(
        name: impl Into<String>,
        alignment: impl Into<String>,
        guild: Option<String>,
        points: i64,
    ) -> PartyInfo {
        PartyInfo {
            name: name.into(),
            alignment: alignment.into(),
            guild,
            points,
        }
    }
}

/// One value of a [`ModelWeapon`]'s profile, as scripts read it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProfileValue {
    /// A number (a length in tenths of a millimetre).
    Int(i64),
    /// A text: a roll such as `"D3"` or `"2D6+1"` (`roll_amount` rolls it).
    Text(String),
    /// Names (weapon abilities, what an ability applies to).
    Names(Vec<String>),
    /// No value (a melee weapon's range): `()` in scripts.
    Unset,
}

/// A weapon of a measured game's model: its name and its profile, a list of named values in
/// the data's order (`range`, `attacks`, `hit`, `wound`, `rend`, `damage`, `abilities`...),
/// which `model_weapon` gives scripts as a map. The names are the data's, not the script
/// host's: no game's terms are here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelWeapon {
    /// Its name.
    pub name: String,
    /// Its profile.
    pub profile: Vec<(String, ProfileValue)>,
}

/// Entries of the world by name (cards, fighter profiles, their sides), for lookups only
/// (a table is never listed): sorted by a hash of the name, then by the name, so a lookup
/// compares numbers and then one name, where a map by name compares names all the way down
/// (the vocabulary's queries ask on nearly every call).
#[derive(Clone, Debug)]
pub(crate) struct NameTable<T> {
    entries: Vec<(u64, String, T)>,
}

/// The world's cards by name.
pub(crate) type CardTable = NameTable<CardInfo>;

impl<T> Default for NameTable<T> {
    fn default() -> NameTable<T> {
        NameTable {
            entries: Vec::new(),
        }
    }
}

impl<T> NameTable<T> {
    /// FNV-1a: fixed, so the order (which only lookups see) is the same on every host.
    fn hash(name: &str) -> u64 {
        name.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        })
    }

    fn find(&self, hash: u64, name: &str) -> Result<usize, usize> {
        self.entries
            .binary_search_by(|(h, n, _)| h.cmp(&hash).then_with(|| n.as_str().cmp(name)))
    }

    /// The entry named `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&T> {
        let index = self.find(Self::hash(name), name).ok()?;
        self.entries.get(index).map(|(_, _, info)| info)
    }

    /// Adds `name`, or replaces its entry.
    pub(crate) fn insert(&mut self, name: String, info: T) {
        let hash = Self::hash(&name);
        match self.find(hash, &name) {
            Ok(index) => self.entries[index].2 = info,
            Err(index) => self.entries.insert(index, (hash, name, info)),
        }
    }

    /// Adds many at once (a later entry of a name replaces an earlier one), sorting once.
    pub(crate) fn extend(&mut self, cards: impl IntoIterator<Item = (String, T)>) {
        let start = self.entries.len();
        self.entries.extend(
            cards
                .into_iter()
                .map(|(name, info)| (Self::hash(&name), name, info)),
        );
        if self.entries.len() == start {
            return;
        }
        // Stable: of two entries of one name, the later stays last, and is the one kept.
        self.entries
            .sort_by(|(ha, na, _), (hb, nb, _)| ha.cmp(hb).then_with(|| na.cmp(nb)));
        let mut kept: Vec<(u64, String, T)> = Vec::with_capacity(self.entries.len());
        for entry in self.entries.drain(..) {
            match kept.last_mut() {
                Some(last) if last.0 == entry.0 && last.1 == entry.1 => *last = entry,
                _ => kept.push(entry),
            }
        }
        self.entries = kept;
    }
}

#[derive(Clone, Debug)]
pub(crate) struct WorldData {
    pub(crate) battlefield: Battlefield,
    pub(crate) blocked: BTreeSet<Hex>,
    pub(crate) sight: Sight,
    pub(crate) dice: Dice,
    pub(crate) names: Names,
    sides: NameTable<Sides>,
    pub(crate) cards: CardTable,
    pub(crate) fighters: NameTable<FighterInfo>,
    pub(crate) territories: BTreeMap<PlayerId, String>,
    /// The names of the ways the battlefield may be laid out, in order (empty: one way).
    pub(crate) layouts: Vec<String>,
    blocking_types: Vec<String>,
    off_board_blocks: bool,
    /// The measured table, for a game played on one.
    pub(crate) table: Option<crate::Table>,
    /// For a game on a table whose layouts are tables and maps: the table and the map of
    /// each layout of [`WorldData::layouts`], in the same order.
    pub(crate) table_layouts: Vec<(String, String)>,
    /// The weapons of the models of a measured game, by model kind (a warscroll's name).
    pub(crate) model_weapons: BTreeMap<String, Vec<ModelWeapon>>,
    /// What each player's army is, for a measured game: its name, its general's profile and
    /// its abilities (`army_of`).
    pub(crate) armies: BTreeMap<PlayerId, ArmyInfo>,
    /// What each player's party is, for a role-playing skirmish game (`party_of`).
    pub(crate) parties: BTreeMap<PlayerId, PartyInfo>,
    /// The abilities of the models of a measured game, by model kind.
    pub(crate) model_abilities: BTreeMap<String, Vec<ArmyAbility>>,
    /// The ruleset's named numbers (`constant(name)`), lengths in tenths of a millimetre.
    pub(crate) constants: BTreeMap<String, i64>,
    /// The table with the features set up in play, as last built (`table_of`).
    pub(crate) placed_table: crate::table::PlacedTable,
}

/// The fixed context of a game that scripts read: the battlefield (with which hex types
/// block movement and sight), line of sight, the dice definitions, the names the
/// vocabulary uses, the fighters' inspired sides, the cards' catalog ([`CardInfo`]), the
/// fighter profiles' catalog ([`FighterInfo`], with their [`AbilityInfo`]) and
/// which territory each player deploys in.
///
/// Built once per game and shared: cloning a `World` is cheap (a reference count). Not
/// `Send`, since the catalog holds compiled scripts.
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
    pub(crate) data: Rc<WorldData>,
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
        let (blocked, sight) = sight_of(&battlefield, &types, off_board_blocks);
        World {
            data: Rc::new(WorldData {
                battlefield,
                blocked,
                sight,
                dice,
                names: Names::default(),
                sides: NameTable::default(),
                cards: CardTable::default(),
                fighters: NameTable::default(),
                territories: BTreeMap::new(),
                layouts: Vec::new(),
                blocking_types: types,
                off_board_blocks,
                table: None,
                table_layouts: Vec::new(),
                model_weapons: BTreeMap::new(),
                armies: BTreeMap::new(),
                parties: BTreeMap::new(),
                model_abilities: BTreeMap::new(),
                constants: BTreeMap::new(),
                placed_table: crate::table::PlacedTable::default(),
            }),
        }
    }

    /// The same world over another battlefield (another layout of the boards), with the
    /// same blocking hex types, sight rule, catalogs and names.
    pub fn with_battlefield(mut self, battlefield: Battlefield) -> World {
        let data = Rc::make_mut(&mut self.data);
        let (blocked, sight) = sight_of(&battlefield, &data.blocking_types, data.off_board_blocks);
        data.battlefield = battlefield;
        data.blocked = blocked;
        data.sight = sight;
        self
    }

    /// The same world knowing the names of the ways its battlefield may be laid out, in
    /// order: `battlefield_layouts` lists them and `lay_out_battlefield` picks one by name
    /// (the host then plays on that layout's world from the next step on).
    pub fn with_layouts<I, S>(mut self, names: I) -> World
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Rc::make_mut(&mut self.data).layouts = names.into_iter().map(Into::into).collect();
        self
    }

    /// The names of the ways the battlefield may be laid out, in order (empty: one way).
    pub fn layouts(&self) -> &[String] {
        &self.data.layouts
    }

    /// The same world with other names for the vocabulary's counters, zones and keyword.
    pub fn with_names(mut self, names: Names) -> World {
        Rc::make_mut(&mut self.data).names = names;
        self
    }

    /// The same world, knowing a fighter profile's characteristics on each side: `inspire`
    /// sets a piece of that kind to `inspired`, `uninspire` back to `base`.
    pub fn with_sides<B, J>(mut self, kind: impl Into<String>, base: B, inspired: J) -> World
    where
        B: IntoIterator<Item = (String, i64)>,
        J: IntoIterator<Item = (String, i64)>,
    {
        Rc::make_mut(&mut self.data).sides.insert(
            kind.into(),
            Sides {
                base: base.into_iter().collect(),
                inspired: inspired.into_iter().collect(),
            },
        );
        self
    }

    /// The same world knowing the card definition `name` (replacing an earlier one of that
    /// name). Card queries (`card_kind`, `condition_holds`...) read a card's entry by the
    /// name of its definition; a card whose name the catalog lacks is a runtime error there.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Battlefield, Dice, Hex};
    /// use gloam_dsl::{CardInfo, World};
    /// let world = World::new(Battlefield::from_hexes([(Hex::ORIGIN, Vec::<String>::new())]), ["blocked"], false, Dice::new())
    ///     .with_card("Sidestep", CardInfo::new("ploy").with_window("power_step"));
    /// assert_eq!(world.card("Sidestep").unwrap().kind, "ploy");
    /// ```
    pub fn with_card(mut self, name: impl Into<String>, info: CardInfo) -> World {
        Rc::make_mut(&mut self.data).cards.insert(name.into(), info);
        self
    }

    /// The same world knowing every card of `cards`, as [`World::with_card`].
    pub fn with_cards<I, S>(mut self, cards: I) -> World
    where
        I: IntoIterator<Item = (S, CardInfo)>,
        S: Into<String>,
    {
        Rc::make_mut(&mut self.data)
            .cards
            .extend(cards.into_iter().map(|(name, info)| (name.into(), info)));
        self
    }

    /// The same world knowing the fighter profile `kind` (a piece's kind; replacing an
    /// earlier one of that name). Weapon queries (`weapons`, `weapon_value`...) read a
    /// fighter's entry by its kind; a fighter whose kind the catalog lacks has no weapons and
    /// no defence symbol.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Battlefield, Dice, Hex};
    /// use gloam_dsl::{FighterInfo, WeaponInfo, World};
    /// let world = World::new(Battlefield::from_hexes([(Hex::ORIGIN, Vec::<String>::new())]), ["blocked"], false, Dice::new())
    ///     .with_fighter("hero", FighterInfo::new().with_weapon(WeaponInfo::new("Sword", 1, 2, 1, "swords")));
    /// assert_eq!(world.fighter("hero").unwrap().weapons.len(), 1);
    /// ```
    pub fn with_fighter(mut self, kind: impl Into<String>, info: FighterInfo) -> World {
        Rc::make_mut(&mut self.data)
            .fighters
            .insert(kind.into(), info);
        self
    }

    /// The same world where `player`'s territory is the battlefield territory `territory`
    /// (the board the player placed, [`Battlefield::territory`]): `starting_hexes(player)`
    /// lists only the starting hexes there. A player without one gets every starting hex.
    pub fn with_territory(mut self, player: PlayerId, territory: impl Into<String>) -> World {
        Rc::make_mut(&mut self.data)
            .territories
            .insert(player, territory.into());
        self
    }

    /// The same world played on a measured table: the table vocabulary (`within`,
    /// `move_unit`, `choose_move`...) reads it; without one, those functions fail with
    /// "this game has no table".
    pub fn with_table(mut self, table: crate::Table) -> World {
        Rc::make_mut(&mut self.data).table = Some(table);
        self
    }

    /// The measured table, if the game is played on one.
    pub fn table(&self) -> Option<&crate::Table> {
        self.data.table.as_ref()
    }

    /// The same world whose layouts are the measured tables and deployment maps `layouts`
    /// (table name, map name), in order: the layout names are `"table / map"`, which
    /// `lay_out_battlefield` picks and `table_layouts` lists with their parts.
    pub fn with_table_layouts<I>(mut self, layouts: I) -> World
    where
        I: IntoIterator<Item = (String, String)>,
    {
        let data = Rc::make_mut(&mut self.data);
        data.table_layouts = layouts.into_iter().collect();
        data.layouts = data
            .table_layouts
            .iter()
            .map(|(table, map)| format!("{table} / {map}"))
            .collect();
        self
    }

    /// The table and map of each layout (empty unless [`World::with_table_layouts`]).
    pub fn table_layouts(&self) -> &[(String, String)] {
        &self.data.table_layouts
    }

    /// The same world knowing the weapons of the models of kind `kind` (a measured game's
    /// profile: a warscroll), which `model_weapons` and `model_weapon` read.
    pub fn with_model_weapons(
        mut self,
        kind: impl Into<String>,
        weapons: Vec<ModelWeapon>,
    ) -> World {
        Rc::make_mut(&mut self.data)
            .model_weapons
            .insert(kind.into(), weapons);
        self
    }

    /// The same world knowing `player`'s army (`army_of`).
    pub fn with_army(mut self, player: PlayerId, army: ArmyInfo) -> World {
        Rc::make_mut(&mut self.data).armies.insert(player, army);
        self
    }

    /// The same world knowing `player`'s party (`party_of`).
    pub fn with_party(mut self, player: PlayerId, party: PartyInfo) -> World {
        Rc::make_mut(&mut self.data).parties.insert(player, party);
        self
    }

    /// The same world knowing the abilities of the models of kind `kind` (`model_abilities`).
    pub fn with_model_abilities(
        mut self,
        kind: impl Into<String>,
        abilities: Vec<ArmyAbility>,
    ) -> World {
        Rc::make_mut(&mut self.data)
            .model_abilities
            .insert(kind.into(), abilities);
        self
    }

    /// The weapons of the models of kind `kind`, in order.
    pub fn model_weapons(&self, kind: &str) -> &[ModelWeapon] {
        self.data.model_weapons.get(kind).map_or(&[], Vec::as_slice)
    }

    /// The same world knowing the ruleset's named number `name` (a length in tenths of a
    /// millimetre, or a plain number), which scripts read with `constant(name)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Battlefield, Dice, Hex};
    /// use gloam_dsl::World;
    /// let world = World::new(Battlefield::from_hexes([(Hex::ORIGIN, Vec::<String>::new())]), ["blocked"], false, Dice::new())
    ///     .with_constant("combat_range", 762);
    /// assert_eq!(world.constant("combat_range"), Some(762));
    /// ```
    pub fn with_constant(mut self, name: impl Into<String>, value: i64) -> World {
        Rc::make_mut(&mut self.data)
            .constants
            .insert(name.into(), value);
        self
    }

    /// The ruleset's named number `name`, if it has one.
    pub fn constant(&self, name: &str) -> Option<i64> {
        self.data.constants.get(name).copied()
    }

    /// The catalog entry of the card definition `name`.
    pub fn card(&self, name: &str) -> Option<&CardInfo> {
        self.data.cards.get(name)
    }

    /// The catalog entry of the fighter profile `kind`.
    pub fn fighter(&self, kind: &str) -> Option<&FighterInfo> {
        self.data.fighters.get(kind)
    }

    /// The territory of `player`, if it has one.
    pub fn territory(&self, player: PlayerId) -> Option<&str> {
        self.data.territories.get(&player).map(String::as_str)
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

#[cfg(test)]
mod tests {
    use super::{CardInfo, CardTable};

    fn kind(table: &CardTable, name: &str) -> Option<String> {
        table.get(name).map(|info| info.kind.clone())
    }

    #[test]
    fn the_card_table_finds_each_name_and_keeps_the_last_entry_of_one() {
        let mut table = CardTable::default();
        table.extend((0..300).map(|n| (format!("card {n}"), CardInfo::new(format!("kind {n}")))));
        for n in 0..300 {
            assert_eq!(
                kind(&table, &format!("card {n}")),
                Some(format!("kind {n}"))
            );
        }
        assert_eq!(kind(&table, "card 300"), None);
        assert_eq!(kind(&table, ""), None);
        // A later entry of a name replaces the earlier, in bulk or one at a time.
        table.extend([
            ("card 7".to_owned(), CardInfo::new("first")),
            ("card 7".to_owned(), CardInfo::new("second")),
        ]);
        assert_eq!(kind(&table, "card 7"), Some("second".to_owned()));
        table.insert("card 7".to_owned(), CardInfo::new("third"));
        table.insert("new".to_owned(), CardInfo::new("ploy"));
        assert_eq!(kind(&table, "card 7"), Some("third".to_owned()));
        assert_eq!(kind(&table, "new"), Some("ploy".to_owned()));
        assert_eq!(table.entries.len(), 301);
    }
}
