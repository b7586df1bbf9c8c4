//! Role-playing skirmish content and party building: the `roster` item (races and sub-races,
//! professions, guilds, alignments, equipment, domains and spells, charts, battlegrounds)
//! and the `party` item (heroes built from a roster), checked at load against the building
//! rules. Every number the rules use comes from the ruleset's `constant` items; nothing of
//! a particular game is named here.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ast::Measure;
use crate::ast::{Element, Item, Span, Value};
use crate::build::{
    Builder, children, elements, ident, int, measure, name, names, quantities, string, strings,
    value,
};
use crate::defs::{AbilityDef, KeywordDef, Quantity, RulesetDef, ValueDef};
use crate::diagnostic::{FileRef, GrammarDiagnostic};
use crate::suggest;

/// The content heroes are built from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RosterDef {
    /// Its name.
    pub name: String,
    /// The ruleset it is for.
    pub ruleset: String,
    /// The kinds of equipment.
    pub equipment_kinds: Vec<String>,
    /// The kinds of equipment that are weapons.
    pub weapon_kinds: Vec<String>,
    /// The kinds of equipment that shoot or are thrown (limited to a share of the party).
    pub ranged_kinds: Vec<String>,
    /// The kinds of additional equipment (limited per hero).
    pub item_kinds: Vec<String>,
    /// Equipment rules only one hero of a party may carry.
    pub one_hero_rules: Vec<String>,
    /// Where armour protects.
    pub locations: Vec<String>,
    /// A description.
    pub about: Option<String>,
    /// Where it came from.
    pub source: Option<String>,
    /// The races.
    pub races: Vec<RaceDef>,
    /// The professions (the leader add-on among them, with `leader`).
    pub professions: Vec<ProfessionDef>,
    /// The guilds.
    pub guilds: Vec<GuildDef>,
    /// The alignments.
    pub alignments: Vec<AlignmentDef>,
    /// The equipment.
    pub equipment: Vec<EquipmentDef>,
    /// The domains of magic.
    pub domains: Vec<DomainDef>,
    /// The charts rolled on.
    pub charts: Vec<ChartDef>,
    /// The named battlefields.
    pub battlegrounds: Vec<BattlegroundDef>,
}

impl RosterDef {
    /// The race named `name`.
    pub fn race(&self, name: &str) -> Option<&RaceDef> {
        self.races.iter().find(|race| race.name == name)
    }

    /// The profession named `name`.
    pub fn profession(&self, name: &str) -> Option<&ProfessionDef> {
        self.professions.iter().find(|p| p.name == name)
    }

    /// The equipment named `name`.
    pub fn item(&self, name: &str) -> Option<&EquipmentDef> {
        self.equipment.iter().find(|e| e.name == name)
    }

    /// The leader add-on: the profession with `leader = true`.
    pub fn leader(&self) -> Option<&ProfessionDef> {
        self.professions.iter().find(|p| p.leader)
    }

    /// Every spell, with its domain.
    pub fn spells(&self) -> impl Iterator<Item = (&DomainDef, &SpellDef)> {
        self.domains
            .iter()
            .flat_map(|domain| domain.spells.iter().map(move |spell| (domain, spell)))
    }
}

/// A race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceDef {
    /// Its name.
    pub name: String,
    /// Its characteristics.
    pub stats: Vec<ValueDef>,
    /// Its base cost.
    pub cost: i64,
    /// The alignments it may join.
    pub alignments: Vec<String>,
    /// Its keywords.
    pub keywords: Vec<String>,
    /// The diameter of its heroes' round bases, when not the ruleset's `base` constant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<Measure>,
    /// Its sub-races.
    pub subraces: Vec<SubraceDef>,
    /// Its abilities (for races without sub-races).
    pub abilities: Vec<AbilityDef>,
    /// A description.
    pub text: Option<String>,
    /// Values read from a damaged source.
    pub uncertain: Vec<String>,
    /// Where the values came from.
    pub source: Option<String>,
}

impl RaceDef {
    /// The whole-number characteristic `name`.
    pub fn stat(&self, name: &str) -> Option<i64> {
        self.stats.iter().find_map(|v| match v.value {
            Quantity::Number(n) if v.name == name => Some(n),
            _ => None,
        })
    }

    /// The sub-race named `name`.
    pub fn subrace(&self, name: &str) -> Option<&SubraceDef> {
        self.subraces.iter().find(|s| s.name == name)
    }
}

/// A sub-race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubraceDef {
    /// Its name.
    pub name: String,
    /// The alignments it may join (its race's when empty).
    pub alignments: Vec<String>,
    /// Professions it may not take.
    pub bans: Vec<String>,
    /// Its keywords.
    pub keywords: Vec<String>,
    /// Its abilities.
    pub abilities: Vec<AbilityDef>,
    /// A description.
    pub text: Option<String>,
    /// Values read from a damaged source.
    pub uncertain: Vec<String>,
    /// Where the values came from.
    pub source: Option<String>,
}

/// A profession.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfessionDef {
    /// Its name.
    pub name: String,
    /// Its cost.
    pub cost: i64,
    /// Its cost for particular races or sub-races.
    pub prices: Vec<(String, i64)>,
    /// Whether it is the leader add-on.
    pub leader: bool,
    /// Whether it is a caster.
    pub mage: bool,
    /// How many domains it picks.
    pub domains: i64,
    /// How many single spells it picks, beside its domains.
    pub spells: i64,
    /// The profession of the party's hero whose domains those spells come from (any
    /// domain open to the party when absent).
    pub spells_from: Option<String>,
    /// The races or sub-races that may take it (any when empty).
    pub races: Vec<String>,
    /// The party alignments that may take it (any when empty).
    pub alignments: Vec<String>,
    /// Whether a leader may not take it.
    pub not_leader: bool,
    /// How many heroes of a party may take it.
    pub per_party: Option<i64>,
    /// Whether its extra weapons cost their plain price.
    pub plain_extra_weapon: bool,
    /// How many different additional items it may buy, when not the ruleset's number.
    pub items: Option<i64>,
    /// The divisor of an extra weapon's price when it is the same as the first weapon.
    pub matching_weapon_divisor: Option<i64>,
    /// Keywords it gives.
    pub keywords: Vec<String>,
    /// Its abilities.
    pub abilities: Vec<AbilityDef>,
    /// A description.
    pub text: Option<String>,
    /// Values read from a damaged source.
    pub uncertain: Vec<String>,
    /// Where the values came from.
    pub source: Option<String>,
}

impl ProfessionDef {
    /// Its cost for a hero of `race` (and `subrace`): a sub-race's price first, then the
    /// race's, then the plain cost.
    pub fn cost_for(&self, race: &str, subrace: Option<&str>) -> i64 {
        let find = |name: &str| self.prices.iter().find(|(n, _)| n == name).map(|(_, c)| *c);
        subrace
            .and_then(find)
            .or_else(|| find(race))
            .unwrap_or(self.cost)
    }
}

/// A guild.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuildDef {
    /// Its name.
    pub name: String,
    /// The professions its leader may have.
    pub leader: Vec<String>,
    /// The professions its other members come from.
    pub members: Vec<String>,
    /// How many members it needs besides the leader.
    pub members_needed: i64,
    /// Whether the party must field a caster.
    pub mage_needed: bool,
    /// Whether the limit on heroes with ranged weapons rounds up.
    pub ranged_round_up: bool,
    /// How many percent more than its points a party of the guild may spend (rounded down).
    pub extra_points_percent: i64,
    /// How many single spells a leader with a caster's profession picks, from any domain.
    pub leader_spells: i64,
    /// Kinds of equipment its parties may not carry.
    pub forbids: Vec<String>,
    /// Its benefits.
    pub abilities: Vec<AbilityDef>,
    /// A description.
    pub text: Option<String>,
    /// Where the values came from.
    pub source: Option<String>,
}

/// A party alignment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlignmentDef {
    /// Its name, one of the ruleset's `alliances`.
    pub name: String,
    /// Its bonus dice.
    pub resource: Option<String>,
    /// How they are gained and spent.
    pub abilities: Vec<AbilityDef>,
    /// A description.
    pub text: Option<String>,
    /// Where the values came from.
    pub source: Option<String>,
}

/// A weapon, armour piece, shield or item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EquipmentDef {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: String,
    /// Its price.
    pub cost: i64,
    /// Strike modifiers.
    pub strikes: Vec<(String, i64)>,
    /// Special rules.
    pub rules: Vec<KeywordDef>,
    /// Damage of a shot.
    pub damage: Option<i64>,
    /// Longest range.
    pub range: Option<Measure>,
    /// Characteristics the carrier needs.
    pub min_stats: Vec<(String, i64)>,
    /// Weapon rules of other equipment the carrier may not have with it.
    pub excludes: Vec<String>,
    /// Races or sub-races that may carry it.
    pub races: Vec<String>,
    /// Professions that may carry it.
    pub professions: Vec<String>,
    /// Guilds whose parties may carry it.
    pub guilds: Vec<String>,
    /// Heroes who may not carry it (`leader`, `mage`).
    pub not_for: Vec<String>,
    /// Equipment the same hero may not carry with it.
    pub not_with: Vec<String>,
    /// Heavy armour or shield.
    pub heavy: bool,
    /// Where armour protects.
    pub location: Option<String>,
    /// The armour test's target.
    pub save: Option<i64>,
    /// Spent when used.
    pub one_use: bool,
    /// How many a party may carry.
    pub per_party: Option<i64>,
    /// A description.
    pub text: Option<String>,
    /// Values read from a damaged source.
    pub uncertain: Vec<String>,
    /// Where the values came from.
    pub source: Option<String>,
}

/// A domain of magic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DomainDef {
    /// Its name.
    pub name: String,
    /// The only alignment that may pick it.
    pub alignment: Option<String>,
    /// Its spells.
    pub spells: Vec<SpellDef>,
    /// A description.
    pub text: Option<String>,
    /// Where the values came from.
    pub source: Option<String>,
}

/// A spell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellDef {
    /// Its name.
    pub name: String,
    /// The magic test's target.
    pub chance: Option<i64>,
    /// How far it reaches.
    pub range: Option<Measure>,
    /// A reach that is not a length.
    pub reach: Option<String>,
    /// Wounds paid to cast it.
    pub wounds: Option<i64>,
    /// What it does.
    pub text: String,
    /// The creatures it summons, or the shapes it gives.
    pub creatures: Vec<CreatureDef>,
    /// Values read from a damaged source.
    pub uncertain: Vec<String>,
    /// Where the values came from.
    pub source: Option<String>,
}

/// A profile a spell brings into play: a summoned creature, or the shape a hero takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatureDef {
    /// Its name.
    pub name: String,
    /// `summoned` (a new model), `caster` (the caster takes the shape) or `target` (the
    /// spell's target takes it).
    pub form: String,
    /// How many one casting summons.
    pub count: i64,
    /// Its characteristics.
    pub stats: Vec<ValueDef>,
    /// The characteristics a hero who takes the shape keeps.
    pub keep: Vec<String>,
    /// Whether it flies instead of moving a distance.
    pub flying: bool,
    /// Its keywords.
    pub keywords: Vec<String>,
    /// Its weapon.
    pub weapon: Option<String>,
    /// The weapon's strike modifiers.
    pub strikes: Vec<(String, i64)>,
    /// The only strikes it may make (any when empty).
    pub strike_types: Vec<String>,
    /// What else it does.
    pub text: Option<String>,
    /// Values read from a damaged source.
    pub uncertain: Vec<String>,
    /// Where the values came from.
    pub source: Option<String>,
}

/// A chart rolled on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChartDef {
    /// Its name.
    pub name: String,
    /// How many dice are rolled.
    pub dice: i64,
    /// Its results: a named result per roll.
    pub results: Vec<ResultDef>,
    /// When it is rolled.
    pub text: Option<String>,
    /// Where the values came from.
    pub source: Option<String>,
}

/// A result of a chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultDef {
    /// Its name.
    pub name: String,
    /// The roll giving it.
    pub roll: i64,
    /// What happens.
    pub text: String,
    /// Where the values came from.
    pub source: Option<String>,
}

/// A named battlefield.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattlegroundDef {
    /// Its name.
    pub name: String,
    /// A description.
    pub text: Option<String>,
    /// Where the values came from.
    pub source: Option<String>,
}

/// A party of heroes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartyDef {
    /// Its name.
    pub name: String,
    /// The ruleset it is for.
    pub ruleset: String,
    /// The roster its heroes come from.
    pub roster: String,
    /// Its alignment.
    pub alignment: String,
    /// Its points limit.
    pub points: i64,
    /// Its guild.
    pub guild: Option<String>,
    /// A description.
    pub about: Option<String>,
    /// Where it came from.
    pub source: Option<String>,
    /// Its heroes.
    pub heroes: Vec<HeroDef>,
}

/// A hero of a party.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeroDef {
    /// Its name.
    pub name: String,
    /// Its race.
    pub race: String,
    /// Its sub-race.
    pub subrace: Option<String>,
    /// Its profession.
    pub profession: String,
    /// Whether it is the leader.
    pub leader: bool,
    /// What it carries.
    pub equipment: Vec<String>,
    /// The domains of magic it picks.
    pub domains: Vec<String>,
    /// Single spells it picks beside its domains.
    pub spells: Vec<String>,
}

fn flag(item: &Item, key: &str) -> bool {
    matches!(value(item, key), Some(Value::Bool(b)) if b.value)
}

fn number_pairs(item: &Item, key: &str) -> Vec<(String, i64)> {
    elements(item, key)
        .iter()
        .filter_map(|element| match element {
            Element::Pair(pair) => match &pair.value {
                Value::Int(number) => Some((pair.key.value.clone(), number.value)),
                _ => None,
            },
            Element::Value(_) => None,
        })
        .collect()
}

fn tags(item: &Item, key: &str) -> Vec<KeywordDef> {
    elements(item, key)
        .iter()
        .filter_map(|element| match element {
            Element::Value(Value::Ident(name)) => Some(KeywordDef {
                name: name.value.clone(),
                value: None,
            }),
            Element::Pair(pair) => match &pair.value {
                Value::Int(number) => Some(KeywordDef {
                    name: pair.key.value.clone(),
                    value: Some(number.value),
                }),
                _ => None,
            },
            Element::Value(_) => None,
        })
        .collect()
}

impl Builder<'_> {
    fn abilities(&mut self, item: &Item) -> Vec<AbilityDef> {
        children(item, "ability")
            .filter_map(|ability| self.ability(ability))
            .collect()
    }

    /// A `roster` item.
    pub(crate) fn roster(&mut self, item: &Item) -> Option<RosterDef> {
        let mut races = Vec::new();
        for race in children(item, "race") {
            let stats = quantities(race, "stats");
            let mut subraces = Vec::new();
            for sub in children(race, "subrace") {
                let Some(sub_name) = name(sub) else { continue };
                subraces.push(SubraceDef {
                    name: sub_name,
                    alignments: names(sub, "alignments"),
                    bans: strings(sub, "bans"),
                    keywords: names(sub, "keywords"),
                    abilities: self.abilities(sub),
                    text: string(sub, "text"),
                    uncertain: names(sub, "uncertain"),
                    source: string(sub, "source"),
                });
            }
            let (Some(race_name), Some(cost)) = (name(race), int(race, "cost")) else {
                continue;
            };
            self.positive_length(race, "base");
            races.push(RaceDef {
                name: race_name,
                stats,
                cost,
                alignments: names(race, "alignments"),
                keywords: names(race, "keywords"),
                base: measure(race, "base"),
                subraces,
                abilities: self.abilities(race),
                text: string(race, "text"),
                uncertain: names(race, "uncertain"),
                source: string(race, "source"),
            });
        }
        let mut professions = Vec::new();
        for p in children(item, "profession") {
            let (Some(p_name), Some(cost)) = (name(p), int(p, "cost")) else {
                continue;
            };
            professions.push(ProfessionDef {
                name: p_name,
                cost,
                prices: children(p, "price")
                    .filter_map(|price| Some((name(price)?, int(price, "cost")?)))
                    .collect(),
                leader: flag(p, "leader"),
                mage: flag(p, "mage"),
                domains: int(p, "domains").unwrap_or(0),
                spells: int(p, "spells").unwrap_or(0),
                spells_from: string(p, "spells_from"),
                races: strings(p, "races"),
                alignments: names(p, "alignments"),
                not_leader: flag(p, "not_leader"),
                per_party: int(p, "per_party"),
                plain_extra_weapon: flag(p, "plain_extra_weapon"),
                items: int(p, "items"),
                matching_weapon_divisor: int(p, "matching_weapon_divisor"),
                keywords: names(p, "keywords"),
                abilities: self.abilities(p),
                text: string(p, "text"),
                uncertain: names(p, "uncertain"),
                source: string(p, "source"),
            });
        }
        let guilds = children(item, "guild")
            .filter_map(|g| {
                Some(GuildDef {
                    name: name(g)?,
                    leader: strings(g, "leader"),
                    members: strings(g, "members"),
                    members_needed: int(g, "members_needed").unwrap_or(0),
                    mage_needed: flag(g, "mage_needed"),
                    ranged_round_up: flag(g, "ranged_round_up"),
                    extra_points_percent: int(g, "extra_points_percent").unwrap_or(0),
                    leader_spells: int(g, "leader_spells").unwrap_or(0),
                    forbids: names(g, "forbids"),
                    abilities: self.abilities(g),
                    text: string(g, "text"),
                    source: string(g, "source"),
                })
            })
            .collect();
        let alignments = children(item, "alignment")
            .filter_map(|a| {
                Some(AlignmentDef {
                    name: name(a)?,
                    resource: string(a, "resource"),
                    abilities: self.abilities(a),
                    text: string(a, "text"),
                    source: string(a, "source"),
                })
            })
            .collect();
        let equipment = children(item, "equipment")
            .filter_map(|e| {
                Some(EquipmentDef {
                    name: name(e)?,
                    kind: ident(e, "kind")?,
                    cost: int(e, "cost")?,
                    strikes: number_pairs(e, "strikes"),
                    rules: tags(e, "rules"),
                    damage: int(e, "damage"),
                    range: measure(e, "range"),
                    min_stats: number_pairs(e, "min_stats"),
                    excludes: names(e, "excludes"),
                    races: strings(e, "races"),
                    professions: strings(e, "professions"),
                    guilds: strings(e, "guilds"),
                    not_for: names(e, "not_for"),
                    not_with: strings(e, "not_with"),
                    heavy: flag(e, "heavy"),
                    location: ident(e, "location"),
                    save: int(e, "save"),
                    one_use: flag(e, "one_use"),
                    per_party: int(e, "per_party"),
                    text: string(e, "text"),
                    uncertain: names(e, "uncertain"),
                    source: string(e, "source"),
                })
            })
            .collect();
        let domains = children(item, "domain")
            .filter_map(|d| {
                Some(DomainDef {
                    name: name(d)?,
                    alignment: ident(d, "alignment"),
                    spells: children(d, "spell")
                        .filter_map(|s| {
                            Some(SpellDef {
                                name: name(s)?,
                                chance: int(s, "chance"),
                                range: measure(s, "range"),
                                reach: ident(s, "reach"),
                                wounds: int(s, "wounds"),
                                text: string(s, "text")?,
                                creatures: children(s, "creature")
                                    .filter_map(|c| {
                                        Some(CreatureDef {
                                            name: name(c)?,
                                            form: ident(c, "form")
                                                .unwrap_or_else(|| "summoned".to_string()),
                                            count: int(c, "count").unwrap_or(1),
                                            stats: quantities(c, "stats"),
                                            keep: names(c, "keep"),
                                            flying: flag(c, "flying"),
                                            keywords: names(c, "keywords"),
                                            weapon: string(c, "weapon"),
                                            strikes: number_pairs(c, "strikes"),
                                            strike_types: names(c, "strike_types"),
                                            text: string(c, "text"),
                                            uncertain: names(c, "uncertain"),
                                            source: string(c, "source"),
                                        })
                                    })
                                    .collect(),
                                uncertain: names(s, "uncertain"),
                                source: string(s, "source"),
                            })
                        })
                        .collect(),
                    text: string(d, "text"),
                    source: string(d, "source"),
                })
            })
            .collect();
        let charts = children(item, "chart")
            .filter_map(|c| {
                Some(ChartDef {
                    name: name(c)?,
                    dice: int(c, "dice")?,
                    results: children(c, "result")
                        .filter_map(|r| {
                            Some(ResultDef {
                                name: name(r)?,
                                roll: int(r, "roll")?,
                                text: string(r, "text")?,
                                source: string(r, "source"),
                            })
                        })
                        .collect(),
                    text: string(c, "text"),
                    source: string(c, "source"),
                })
            })
            .collect();
        let battlegrounds = children(item, "battleground")
            .filter_map(|b| {
                Some(BattlegroundDef {
                    name: name(b)?,
                    text: string(b, "text"),
                    source: string(b, "source"),
                })
            })
            .collect();
        Some(RosterDef {
            name: name(item)?,
            ruleset: string(item, "ruleset")?,
            equipment_kinds: names(item, "equipment_kinds"),
            weapon_kinds: names(item, "weapon_kinds"),
            ranged_kinds: names(item, "ranged_kinds"),
            item_kinds: names(item, "item_kinds"),
            one_hero_rules: names(item, "one_hero_rules"),
            locations: names(item, "locations"),
            about: string(item, "about"),
            source: string(item, "source"),
            races,
            professions,
            guilds,
            alignments,
            equipment,
            domains,
            charts,
            battlegrounds,
        })
    }

    /// A `party` item.
    pub(crate) fn party(&mut self, item: &Item) -> Option<PartyDef> {
        let heroes = children(item, "hero")
            .filter_map(|hero| {
                Some(HeroDef {
                    name: name(hero)?,
                    race: string(hero, "race")?,
                    subrace: string(hero, "subrace"),
                    profession: string(hero, "profession")?,
                    leader: flag(hero, "leader"),
                    equipment: strings(hero, "equipment"),
                    domains: strings(hero, "domains"),
                    spells: strings(hero, "spells"),
                })
            })
            .collect();
        Some(PartyDef {
            name: name(item)?,
            ruleset: string(item, "ruleset")?,
            roster: string(item, "roster")?,
            alignment: ident(item, "alignment")?,
            points: int(item, "points")?,
            guild: string(item, "guild"),
            about: string(item, "about"),
            source: string(item, "source"),
            heroes,
        })
    }
}

/// What one hero of a party costs, part by part.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeroCost {
    /// The hero's name.
    pub hero: String,
    /// The race's base cost.
    pub race: i64,
    /// The profession's cost (for the hero's race).
    pub profession: i64,
    /// The surcharge for a profession another hero took before.
    pub duplicate: i64,
    /// The leader add-on.
    pub leader: i64,
    /// The equipment, extra weapons at their raised price.
    pub equipment: i64,
}

impl HeroCost {
    /// The hero's whole cost.
    pub fn total(&self) -> i64 {
        self.race + self.profession + self.duplicate + self.leader + self.equipment
    }
}

/// The ruleset's numbers the building rules use, by constant name.
pub const PARTY_CONSTANTS: &[(&str, &str)] = &[
    ("party_min_heroes", "the fewest heroes a party may field"),
    ("party_max_heroes", "the most heroes a party may field"),
    ("leader_cost", "the leader add-on's price"),
    (
        "leader_cost_reduced",
        "the leader add-on's price for a dear main profession",
    ),
    (
        "leader_reduced_above",
        "the main profession cost above which the leader costs less",
    ),
    (
        "duplicate_below",
        "a profession may be taken twice only when it costs less than this",
    ),
    (
        "duplicate_step",
        "what each further copy of a profession costs more than the one before",
    ),
    (
        "extra_weapon_factor",
        "what a weapon beyond the first costs, times its price",
    ),
    (
        "heavy_armour_above",
        "heavy armour needs a profession costing more than this",
    ),
    ("mages_max", "the most casters a party may field"),
];

fn constant(ruleset: &RulesetDef, key: &str) -> Option<i64> {
    ruleset.constants.iter().find_map(|c| match c.value {
        Quantity::Number(n) if c.name == key => Some(n),
        _ => None,
    })
}

/// The cost of each hero of `party`, as the ruleset's constants price it. Names the roster
/// lacks cost nothing (loading reports them). `None` when a constant is missing.
pub fn party_costs(
    party: &PartyDef,
    roster: &RosterDef,
    ruleset: &RulesetDef,
) -> Option<Vec<HeroCost>> {
    let leader_cost = constant(ruleset, "leader_cost")?;
    let leader_reduced = constant(ruleset, "leader_cost_reduced")?;
    let reduced_above = constant(ruleset, "leader_reduced_above")?;
    let step = constant(ruleset, "duplicate_step")?;
    let factor = constant(ruleset, "extra_weapon_factor")?;
    let mut taken: BTreeMap<&str, i64> = BTreeMap::new();
    let mut out = Vec::new();
    for hero in &party.heroes {
        let mut cost = HeroCost {
            hero: hero.name.clone(),
            ..HeroCost::default()
        };
        let profession = roster.profession(&hero.profession);
        if let Some(race) = roster.race(&hero.race) {
            cost.race = race.cost;
        }
        if let Some(profession) = profession {
            cost.profession = profession.cost_for(&hero.race, hero.subrace.as_deref());
            let copies = taken.entry(profession.name.as_str()).or_insert(0);
            cost.duplicate = step.saturating_mul(*copies);
            *copies += 1;
            if hero.leader {
                cost.leader = if cost.profession > reduced_above {
                    leader_reduced
                } else {
                    leader_cost
                };
            }
        }
        let plain = hero.leader || profession.is_some_and(|p| p.plain_extra_weapon);
        // A profession may pay less for a second weapon the same as its first (003 L1466).
        let matching = profession
            .and_then(|p| p.matching_weapon_divisor)
            .filter(|d| *d > 0);
        let mut first_weapon: Option<&str> = None;
        for carried in &hero.equipment {
            let Some(item) = roster.item(carried) else {
                continue;
            };
            let is_weapon = roster.weapon_kinds.contains(&item.kind);
            let price = match (is_weapon, first_weapon) {
                (true, Some(first)) if !plain => match matching {
                    Some(divisor) if first == item.name => item.cost / divisor,
                    _ => item.cost.saturating_mul(factor),
                },
                _ => item.cost,
            };
            if is_weapon && first_weapon.is_none() {
                first_weapon = Some(&item.name);
            }
            cost.equipment = cost.equipment.saturating_add(price);
        }
        out.push(cost);
    }
    Some(out)
}

/// Where checks report: the file and the sink.
pub(crate) struct PartyChecker<'a> {
    pub(crate) file: &'a FileRef,
    pub(crate) out: &'a mut Vec<GrammarDiagnostic>,
}

/// A string or name field's value and its span.
fn written<'i>(item: &'i Item, key: &str) -> Option<(&'i str, Span)> {
    match value(item, key) {
        Some(Value::String(text) | Value::Ident(text)) => Some((text.value.as_str(), text.span)),
        _ => None,
    }
}

/// The strings of a list field with their spans.
fn written_list<'i>(item: &'i Item, key: &str) -> Vec<(&'i str, Span)> {
    elements(item, key)
        .iter()
        .filter_map(|element| match element {
            Element::Value(Value::String(text) | Value::Ident(text)) => {
                Some((text.value.as_str(), text.span))
            }
            Element::Pair(pair) => Some((pair.key.value.as_str(), pair.key.span)),
            Element::Value(_) => None,
        })
        .collect()
}

fn race_span_of(hero: &Item) -> Span {
    written(hero, "race").map_or_else(|| item_span(hero), |(_, span)| span)
}

fn item_span(item: &Item) -> Span {
    item.name.as_ref().map_or(item.kind.span, |name| name.span)
}

impl PartyChecker<'_> {
    fn rule(&mut self, span: Span, message: String, label: &str, help: String) {
        self.out.push(GrammarDiagnostic::PartyRule {
            message,
            src: self.file.src(),
            span: self.file.span(span),
            label: label.to_string(),
            help,
        });
    }

    fn unknown(&mut self, what: &str, name: &str, span: Span, known: &[&str], fallback: &str) {
        if known.contains(&name) {
            return;
        }
        self.out.push(GrammarDiagnostic::UnknownName {
            what: what.to_string(),
            name: name.to_string(),
            src: self.file.src(),
            span: self.file.span(span),
            help: suggest::help(name, known.iter().copied(), fallback),
        });
    }

    /// A roster's references: alignments, keywords and characteristics the ruleset
    /// declares, equipment kinds and rules, and the races, professions and guilds its items
    /// name.
    pub(crate) fn roster(&mut self, item: &Item, roster: &RosterDef, ruleset: &RulesetDef) {
        let alliances: Vec<&str> = ruleset.alliances.iter().map(String::as_str).collect();
        let keywords: Vec<&str> = ruleset.keywords.iter().map(String::as_str).collect();
        let characteristics: Vec<&str> = ruleset
            .characteristics
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        let rules: Vec<&str> = ruleset
            .weapon_abilities
            .iter()
            .map(String::as_str)
            .collect();
        let kinds: Vec<&str> = roster.equipment_kinds.iter().map(String::as_str).collect();
        let locations: Vec<&str> = roster.locations.iter().map(String::as_str).collect();
        let mut peoples: Vec<&str> = Vec::new();
        for race in &roster.races {
            peoples.push(&race.name);
            peoples.extend(race.subraces.iter().map(|s| s.name.as_str()));
        }
        let professions: Vec<&str> = roster.professions.iter().map(|p| p.name.as_str()).collect();
        let guilds: Vec<&str> = roster.guilds.iter().map(|g| g.name.as_str()).collect();
        let gear: Vec<&str> = roster.equipment.iter().map(|e| e.name.as_str()).collect();
        let declare = format!("declare it in ruleset `{}`", ruleset.name);
        let mut kind_lists = written_list(item, "weapon_kinds");
        kind_lists.extend(written_list(item, "ranged_kinds"));
        kind_lists.extend(written_list(item, "item_kinds"));
        for (name, span) in kind_lists {
            self.unknown(
                "equipment kind",
                name,
                span,
                &kinds,
                "list it in `equipment_kinds`",
            );
        }
        let mut alignment_fields: Vec<(&str, Span)> = Vec::new();
        let mut keyword_fields: Vec<(&str, Span)> = Vec::new();
        for race in children(item, "race") {
            alignment_fields.extend(written_list(race, "alignments"));
            keyword_fields.extend(written_list(race, "keywords"));
            for (name, span) in written_list(race, "stats") {
                self.unknown("characteristic", name, span, &characteristics, &declare);
            }
            let mut race_fields = characteristics.clone();
            race_fields.extend(["cost", "alignments", "keywords"]);
            for (name, span) in written_list(race, "uncertain") {
                self.unknown("race field", name, span, &race_fields, "");
            }
            for sub in children(race, "subrace") {
                alignment_fields.extend(written_list(sub, "alignments"));
                keyword_fields.extend(written_list(sub, "keywords"));
                for (name, span) in written_list(sub, "bans") {
                    self.unknown(
                        "profession",
                        name,
                        span,
                        &professions,
                        "add a `profession` item",
                    );
                }
            }
        }
        for p in children(item, "profession") {
            alignment_fields.extend(written_list(p, "alignments"));
            keyword_fields.extend(written_list(p, "keywords"));
            for (name, span) in written_list(p, "races") {
                self.unknown(
                    "race or sub-race",
                    name,
                    span,
                    &peoples,
                    "add a `race` item",
                );
            }
            for price in children(p, "price") {
                if let Some(name) = &price.name {
                    self.unknown(
                        "race or sub-race",
                        &name.value,
                        name.span,
                        &peoples,
                        "add a `race` item",
                    );
                }
            }
        }
        for (name, span) in written_list(item, "one_hero_rules") {
            self.unknown(
                "weapon rule",
                name,
                span,
                &rules,
                "list it in the ruleset's `weapon_abilities`",
            );
        }
        for g in children(item, "guild") {
            for (name, span) in written_list(g, "forbids") {
                self.unknown(
                    "equipment kind",
                    name,
                    span,
                    &kinds,
                    "list it in the roster's `equipment_kinds`",
                );
            }
            for key in ["leader", "members"] {
                for (name, span) in written_list(g, key) {
                    self.unknown(
                        "profession",
                        name,
                        span,
                        &professions,
                        "add a `profession` item",
                    );
                }
            }
        }
        for a in children(item, "alignment") {
            if let Some(name) = &a.name {
                self.unknown("alignment", &name.value, name.span, &alliances, &declare);
            }
        }
        for d in children(item, "domain") {
            if let Some(pair) = written(d, "alignment") {
                alignment_fields.push(pair);
            }
            for spell in children(d, "spell") {
                if spell.field("range").is_some() && spell.field("reach").is_some() {
                    self.out.push(GrammarDiagnostic::BadValue {
                        message: "a spell has one reach: `range` or `reach`, not both".to_string(),
                        src: self.file.src(),
                        span: self.file.span(item_span(spell)),
                        label: "both given".to_string(),
                        help: "keep `range = 20cm` for a measured reach, `reach = self` otherwise"
                            .to_string(),
                    });
                }
                if let Some((name, span)) = written(spell, "reach") {
                    self.unknown("reach", name, span, &["self", "unlimited", "varies"], "");
                }
                for creature in children(spell, "creature") {
                    if let Some((name, span)) = written(creature, "form") {
                        self.unknown("form", name, span, &["summoned", "caster", "target"], "");
                    }
                    let mut stats = written_list(creature, "stats");
                    stats.extend(written_list(creature, "keep"));
                    for (name, span) in stats {
                        self.unknown("characteristic", name, span, &characteristics, &declare);
                    }
                    keyword_fields.extend(written_list(creature, "keywords"));
                }
            }
        }
        for e in children(item, "equipment") {
            if let Some((name, span)) = written(e, "kind") {
                self.unknown(
                    "equipment kind",
                    name,
                    span,
                    &kinds,
                    "list it in the roster's `equipment_kinds`",
                );
            }
            let mut rule_lists = written_list(e, "rules");
            rule_lists.extend(written_list(e, "excludes"));
            for (name, span) in rule_lists {
                self.unknown(
                    "weapon rule",
                    name,
                    span,
                    &rules,
                    "list it in the ruleset's `weapon_abilities`",
                );
            }
            for (name, span) in written_list(e, "min_stats") {
                self.unknown("characteristic", name, span, &characteristics, &declare);
            }
            for (name, span) in written_list(e, "races") {
                self.unknown(
                    "race or sub-race",
                    name,
                    span,
                    &peoples,
                    "add a `race` item",
                );
            }
            for (name, span) in written_list(e, "professions") {
                self.unknown(
                    "profession",
                    name,
                    span,
                    &professions,
                    "add a `profession` item",
                );
            }
            for (name, span) in written_list(e, "guilds") {
                self.unknown("guild", name, span, &guilds, "add a `guild` item");
            }
            for (name, span) in written_list(e, "not_for") {
                self.unknown("kind of hero", name, span, &["leader", "mage"], "");
            }
            for (name, span) in written_list(e, "not_with") {
                self.unknown("equipment", name, span, &gear, "add an `equipment` item");
            }
            if let Some((name, span)) = written(e, "location") {
                self.unknown(
                    "location",
                    name,
                    span,
                    &locations,
                    "list it in the roster's `locations`",
                );
            }
        }
        // `uncertain` names fields of the item it is in.
        let field_names = |kind: &str| -> Vec<&'static str> {
            crate::schema::item_schema(kind)
                .map(|schema| schema.fields.iter().map(|f| f.name).collect())
                .unwrap_or_default()
        };
        let mut marked: Vec<(&str, Vec<(&str, Span)>)> = Vec::new();
        for race in children(item, "race") {
            for sub in children(race, "subrace") {
                marked.push(("subrace", written_list(sub, "uncertain")));
            }
        }
        for (kind, key) in [("profession", "profession"), ("equipment", "equipment")] {
            for child in children(item, key) {
                marked.push((kind, written_list(child, "uncertain")));
            }
        }
        for d in children(item, "domain") {
            for spell in children(d, "spell") {
                marked.push(("spell", written_list(spell, "uncertain")));
            }
        }
        for (kind, names) in marked {
            let known = field_names(kind);
            for (name, span) in names {
                self.unknown(&format!("{kind} field"), name, span, &known, "");
            }
        }
        for (name, span) in alignment_fields {
            self.unknown(
                "alignment",
                name,
                span,
                &alliances,
                "list it in the ruleset's `alliances`",
            );
        }
        for (name, span) in keyword_fields {
            self.unknown(
                "keyword",
                name,
                span,
                &keywords,
                "list it in the ruleset's `keywords`",
            );
        }
        if roster.professions.iter().filter(|p| p.leader).count() > 1 {
            self.out.push(GrammarDiagnostic::BadValue {
                message: "a roster has one leader add-on".to_string(),
                src: self.file.src(),
                span: self.file.span(item_span(item)),
                label: "more than one `leader = true` profession".to_string(),
                help: "keep `leader = true` on one profession".to_string(),
            });
        }
    }

    /// A party against its roster and the building rules.
    pub(crate) fn party(&mut self, item: &Item, rosters: &[RosterDef], ruleset: &RulesetDef) {
        let alliances: Vec<&str> = ruleset.alliances.iter().map(String::as_str).collect();
        if let Some((name, span)) = written(item, "alignment") {
            self.unknown(
                "alignment",
                name,
                span,
                &alliances,
                "list it in the ruleset's `alliances`",
            );
        }
        let Some((roster_name, roster_span)) = written(item, "roster") else {
            return;
        };
        let Some(roster) = rosters
            .iter()
            .find(|r| r.name == roster_name && r.ruleset == ruleset.name)
        else {
            let known: Vec<&str> = rosters
                .iter()
                .filter(|r| r.ruleset == ruleset.name)
                .map(|r| r.name.as_str())
                .collect();
            self.unknown(
                "roster",
                roster_name,
                roster_span,
                &known,
                "load the file that declares it",
            );
            return;
        };
        let missing: Vec<&str> = PARTY_CONSTANTS
            .iter()
            .map(|(name, _)| *name)
            .filter(|name| constant(ruleset, name).is_none())
            .collect();
        if !missing.is_empty() {
            let listed: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
            self.rule(
                item_span(item),
                format!(
                    "ruleset `{}` lacks the numbers parties are built with",
                    ruleset.name
                ),
                "cannot be checked",
                format!(
                    "add `constant` items with a `number` to the ruleset: {}",
                    listed.join(", ")
                ),
            );
            return;
        }
        let c = |key: &str| constant(ruleset, key).unwrap_or(0);
        let alignment = written(item, "alignment")
            .map(|(name, _)| name)
            .unwrap_or("");
        let guild = written(item, "guild");
        if let Some((name, span)) = guild {
            let known: Vec<&str> = roster.guilds.iter().map(|g| g.name.as_str()).collect();
            self.unknown(
                "guild",
                name,
                span,
                &known,
                "add a `guild` item to the roster",
            );
        }
        let races: Vec<&str> = roster.races.iter().map(|r| r.name.as_str()).collect();
        let mains: Vec<&str> = roster
            .professions
            .iter()
            .filter(|p| !p.leader)
            .map(|p| p.name.as_str())
            .collect();
        let gear: Vec<&str> = roster.equipment.iter().map(|e| e.name.as_str()).collect();
        let heroes: Vec<&Item> = children(item, "hero").collect();
        let guild_def = guild.and_then(|(name, _)| roster.guilds.iter().find(|g| g.name == name));
        let domain_names: Vec<&str> = roster.domains.iter().map(|d| d.name.as_str()).collect();
        // The heroes carrying equipment with a rule only one hero may have (003 L1755).
        let mut one_hero: Vec<(Span, &str, &str, &str)> = Vec::new();
        let mut shooters: Vec<Span> = Vec::new();
        // Each hero's profession, whether it leads, and where the profession is written.
        let mut members: Vec<(&ProfessionDef, bool, Span)> = Vec::new();
        let mut leaders = Vec::new();
        let mut mages = Vec::new();
        let mut by_profession: BTreeMap<&str, Vec<Span>> = BTreeMap::new();
        let mut carried: BTreeMap<&str, Vec<Span>> = BTreeMap::new();
        for hero in &heroes {
            let hero_name = hero.name.as_ref().map_or("", |n| n.value.as_str());
            if flag(hero, "leader") {
                leaders.push(item_span(hero));
            }
            let race = written(hero, "race").and_then(|(name, span)| {
                self.unknown(
                    "race",
                    name,
                    span,
                    &races,
                    "add a `race` item to the roster",
                );
                roster.race(name).map(|race| (race, span))
            });
            let subrace = match (race, written(hero, "subrace")) {
                (Some((race, _)), Some((name, span))) => {
                    let known: Vec<&str> = race.subraces.iter().map(|s| s.name.as_str()).collect();
                    self.unknown(
                        &format!("sub-race of {}", race.name),
                        name,
                        span,
                        &known,
                        &format!("{} has no sub-races: remove `subrace`", race.name),
                    );
                    race.subrace(name).map(|sub| (sub, span))
                }
                // A race with one sub-race needs not name it.
                (Some((race, _)), None) if race.subraces.len() == 1 => {
                    race.subraces.first().map(|sub| (sub, race_span_of(hero)))
                }
                (Some((race, span)), None) if !race.subraces.is_empty() => {
                    let listed: Vec<String> = race
                        .subraces
                        .iter()
                        .map(|s| format!("`\"{}\"`", s.name))
                        .collect();
                    self.rule(
                        span,
                        format!("hero `{hero_name}` needs a sub-race of {}", race.name),
                        "no sub-race",
                        format!("add `subrace = ...`, one of {}", listed.join(", ")),
                    );
                    None
                }
                _ => None,
            };
            // Alignment: the sub-race's letters when it gives them, else the race's.
            if let Some((race, race_span)) = race {
                let (allowed, who, span) = match subrace {
                    Some((sub, span)) if !sub.alignments.is_empty() => {
                        (&sub.alignments, sub.name.as_str(), span)
                    }
                    _ => (&race.alignments, race.name.as_str(), race_span),
                };
                if !alignment.is_empty() && !allowed.iter().any(|a| a == alignment) {
                    self.rule(
                        span,
                        format!("{who} may not join a party of alignment `{alignment}`"),
                        "alignment not allowed",
                        format!(
                            "{who} may join {}: pick another race or change the party's alignment",
                            allowed.join(", ")
                        ),
                    );
                }
            }
            let profession = written(hero, "profession").and_then(|(name, span)| {
                self.unknown(
                    "profession",
                    name,
                    span,
                    &mains,
                    "add a `profession` item to the roster",
                );
                roster
                    .profession(name)
                    .filter(|p| !p.leader)
                    .map(|p| (p, span))
            });
            if let Some((profession, span)) = profession {
                members.push((profession, flag(hero, "leader"), span));
                by_profession
                    .entry(profession.name.as_str())
                    .or_default()
                    .push(span);
                if profession.mage {
                    mages.push(span);
                }
                if let Some((race, _)) = race {
                    let people_ok = profession.races.is_empty()
                        || profession.races.iter().any(|r| {
                            *r == race.name || subrace.is_some_and(|(sub, _)| *r == sub.name)
                        });
                    if !people_ok {
                        self.rule(
                            span,
                            format!("{} is not open to {}", profession.name, race.name),
                            "race not allowed",
                            format!("only {} may take it", profession.races.join(", ")),
                        );
                    }
                }
                if let Some((sub, _)) = subrace
                    && sub.bans.contains(&profession.name)
                {
                    self.rule(
                        span,
                        format!(
                            "{} may not take the profession {}",
                            sub.name, profession.name
                        ),
                        "barred by the sub-race",
                        format!(
                            "{} bars {}: pick another profession",
                            sub.name,
                            sub.bans.join(", ")
                        ),
                    );
                }
                if !alignment.is_empty()
                    && !profession.alignments.is_empty()
                    && !profession.alignments.iter().any(|a| a == alignment)
                {
                    self.rule(
                        span,
                        format!(
                            "{} is not open to a party of alignment `{alignment}`",
                            profession.name
                        ),
                        "alignment not allowed",
                        format!(
                            "only {} parties may take it",
                            profession.alignments.join(", ")
                        ),
                    );
                }
                if profession.not_leader && flag(hero, "leader") {
                    self.rule(
                        span,
                        format!("{} may not lead", profession.name),
                        "not a leader",
                        "give `leader = true` to another hero".to_string(),
                    );
                }
            }
            // Equipment: known, allowed, and at least one weapon.
            let mut weapons = 0;
            let mut unknown_gear = false;
            for (name, span) in written_list(hero, "equipment") {
                self.unknown(
                    "equipment",
                    name,
                    span,
                    &gear,
                    "add an `equipment` item to the roster",
                );
                let Some(e) = roster.item(name) else {
                    unknown_gear = true;
                    continue;
                };
                carried.entry(e.name.as_str()).or_default().push(span);
                if roster.weapon_kinds.contains(&e.kind) {
                    weapons += 1;
                }
                if let Some((race, _)) = race
                    && !e.races.is_empty()
                    && !e
                        .races
                        .iter()
                        .any(|r| *r == race.name || subrace.is_some_and(|(sub, _)| *r == sub.name))
                {
                    self.rule(
                        span,
                        format!("{} is not for {}", e.name, race.name),
                        "race not allowed",
                        format!("only {} may carry it", e.races.join(", ")),
                    );
                }
                if let Some(g) = guild_def
                    && g.forbids.contains(&e.kind)
                {
                    self.rule(
                        span,
                        format!(
                            "the {} Guild's heroes may not carry {} ({})",
                            g.name, e.name, e.kind
                        ),
                        "forbidden to the guild",
                        format!(
                            "the guild forbids {}: pick other equipment, or drop the party's `guild`",
                            g.forbids.join(", ")
                        ),
                    );
                }
                let leads = flag(hero, "leader");
                let casts = profession.is_some_and(|(p, _)| p.mage);
                for who in &e.not_for {
                    let (barred, noun) = match who.as_str() {
                        "leader" => (leads, "the party's leader"),
                        "mage" => (casts, "a caster"),
                        _ => (false, ""),
                    };
                    if barred {
                        self.rule(
                            span,
                            format!("{} may not be carried by {noun}", e.name),
                            "not for this hero",
                            format!(
                                "give it to a hero who is not {}",
                                e.not_for
                                    .iter()
                                    .map(|w| if w == "leader" {
                                        "the leader"
                                    } else {
                                        "a caster"
                                    })
                                    .collect::<Vec<_>>()
                                    .join(" nor ")
                            ),
                        );
                    }
                }
                if let Some(rule) = e
                    .rules
                    .iter()
                    .find(|r| roster.one_hero_rules.contains(&r.name))
                {
                    one_hero.push((span, hero_name, e.name.as_str(), rule.name.as_str()));
                }
                if let Some((p, _)) = profession
                    && !e.professions.is_empty()
                    && !e.professions.contains(&p.name)
                {
                    self.rule(
                        span,
                        format!("{} is not for a {}", e.name, p.name),
                        "profession not allowed",
                        format!("only {} may carry it", e.professions.join(", ")),
                    );
                }
                if !e.guilds.is_empty()
                    && !guild.is_some_and(|(g, _)| e.guilds.iter().any(|x| x == g))
                {
                    self.rule(
                        span,
                        format!("{} is for {} parties only", e.name, e.guilds.join(", ")),
                        "guild equipment",
                        "set the party's `guild`, or pick other equipment".to_string(),
                    );
                }
                if e.heavy
                    && let Some((p, _)) = profession
                    && p.cost <= c("heavy_armour_above")
                {
                    self.rule(
                        span,
                        format!(
                            "{} is heavy: a {} ({} DC) may not wear it",
                            e.name, p.name, p.cost
                        ),
                        "heavy armour",
                        format!(
                            "heavy pieces need a profession costing more than {}; take a light piece",
                            c("heavy_armour_above")
                        ),
                    );
                }
                if let Some((race, _)) = race {
                    for (stat, need) in &e.min_stats {
                        if race.stat(stat).is_some_and(|have| have < *need) {
                            self.rule(
                                span,
                                format!(
                                    "{} needs {stat} {need}; {} have {}",
                                    e.name,
                                    race.name,
                                    race.stat(stat).unwrap_or(0)
                                ),
                                "too weak",
                                "pick a weapon the hero can wield".to_string(),
                            );
                        }
                    }
                }
            }
            // Equipment that rules out other equipment's rules (a shield and a two-handed
            // weapon), and the additional items a hero may buy.
            let gear_of: Vec<(&EquipmentDef, Span)> = written_list(hero, "equipment")
                .into_iter()
                .filter_map(|(name, span)| roster.item(name).map(|e| (e, span)))
                .collect();
            for (e, span) in &gear_of {
                if let Some(other) = gear_of
                    .iter()
                    .map(|(o, _)| *o)
                    .find(|o| e.not_with.contains(&o.name))
                {
                    self.rule(
                        *span,
                        format!("{} cannot go with {}", e.name, other.name),
                        "excluded",
                        format!(
                            "drop one of the two; {} is not carried with {}",
                            e.name,
                            e.not_with.join(", ")
                        ),
                    );
                }
                for other in gear_of.iter().map(|(o, _)| *o) {
                    if let Some(rule) = e
                        .excludes
                        .iter()
                        .find(|x| other.rules.iter().any(|r| &r.name == *x))
                    {
                        self.rule(
                            *span,
                            format!("{} cannot go with {} ({rule})", e.name, other.name),
                            "excluded",
                            format!(
                                "drop one of the two; {} excludes {}",
                                e.name,
                                e.excludes.join(", ")
                            ),
                        );
                    }
                }
            }
            if !roster.item_kinds.is_empty() {
                // A profession may buy more items than the ruleset's number (003 L1302).
                let limit = profession
                    .and_then(|(p, _)| p.items)
                    .or_else(|| constant(ruleset, "items_per_hero"));
                let mut seen: Vec<&str> = Vec::new();
                let mut items: Vec<Span> = Vec::new();
                for (e, span) in gear_of
                    .iter()
                    .filter(|(e, _)| roster.item_kinds.contains(&e.kind))
                {
                    if seen.contains(&e.name.as_str()) {
                        self.rule(
                            *span,
                            format!("hero `{hero_name}` buys {} twice", e.name),
                            "the same item again",
                            "additional items are different from each other: drop this one"
                                .to_string(),
                        );
                        continue;
                    }
                    seen.push(&e.name);
                    items.push(*span);
                }
                match limit {
                    None => self.rule(
                        item_span(item),
                        format!("ruleset `{}` lacks `items_per_hero`", ruleset.name),
                        "cannot be checked",
                        "add `constant \"items_per_hero\" { number = 1 }` to the ruleset, or drop the roster's `item_kinds`".to_string(),
                    ),
                    Some(limit) => {
                        for span in items.iter().skip(usize::try_from(limit).unwrap_or(0)) {
                            self.rule(
                                *span,
                                format!(
                                    "a {} buys at most {limit} additional item{}",
                                    profession.filter(|(p, _)| p.items.is_some()).map_or("hero", |(p, _)| p.name.as_str()),
                                    if limit == 1 { "" } else { "s" }
                                ),
                                "one item too many",
                                "give the item to another hero".to_string(),
                            );
                        }
                    }
                }
            }
            self.domains(
                hero,
                hero_name,
                profession.map(|(p, _)| p),
                alignment,
                roster,
                &domain_names,
            );
            self.single_spells(
                hero,
                hero_name,
                profession.map(|(p, _)| p),
                guild_def,
                alignment,
                roster,
                &heroes,
            );
            if gear_of
                .iter()
                .any(|(e, _)| roster.ranged_kinds.contains(&e.kind))
            {
                shooters.push(item_span(hero));
            }
            if weapons == 0 && !unknown_gear && !roster.weapon_kinds.is_empty() {
                self.rule(
                    item_span(hero),
                    format!("hero `{hero_name}` carries no weapon"),
                    "unarmed",
                    "add a weapon to `equipment`".to_string(),
                );
            }
        }
        // The guild's entry conditions (003 L1478-1538).
        if let Some((guild_name, guild_span)) = guild
            && let Some(g) = roster.guilds.iter().find(|g| g.name == guild_name)
        {
            self.guild(g, guild_span, &members, ruleset);
        }
        // Party-wide rules.
        let count = i64::try_from(heroes.len()).unwrap_or(i64::MAX);
        if !roster.ranged_kinds.is_empty() {
            match constant(ruleset, "ranged_divisor").filter(|d| *d > 0) {
                None => self.rule(
                    item_span(item),
                    format!("ruleset `{}` lacks `ranged_divisor`", ruleset.name),
                    "cannot be checked",
                    "add `constant \"ranged_divisor\" { number = 2 }` to the ruleset, or drop the roster's `ranged_kinds`".to_string(),
                ),
                Some(divisor) => {
                    // A guild may round the share up (003 L1520).
                    let up = guild_def.is_some_and(|g| g.ranged_round_up);
                    let limit = if up {
                        count / divisor + i64::from(count % divisor != 0)
                    } else {
                        count / divisor
                    };
                    let rounded = if up { "up" } else { "down" };
                    for span in shooters.iter().skip(usize::try_from(limit).unwrap_or(0)) {
                        self.rule(
                            *span,
                            format!("at most {limit} of the party's {count} heroes may carry ranged weapons"),
                            "one shooter too many",
                            format!("ranged weapons go to 1 hero in {divisor}, rounded {rounded}; arm this hero for close combat"),
                        );
                    }
                }
            }
        }
        if let Some(&(_, first_hero, first, rule)) = one_hero.first() {
            for (span, hero, name, own) in &one_hero {
                let rule = if *own == rule { rule } else { own };
                if *hero != first_hero {
                    self.rule(
                        *span,
                        format!("only one hero of a party may carry `{rule}` equipment: `{first_hero}` already carries {first}"),
                        "a second bearer",
                        format!("give {name} to `{first_hero}`, or pick other equipment"),
                    );
                }
            }
        }
        if count < c("party_min_heroes") || count > c("party_max_heroes") {
            self.rule(
                item_span(item),
                format!(
                    "the party fields {count} {}; it needs {} to {}",
                    if count == 1 { "hero" } else { "heroes" },
                    c("party_min_heroes"),
                    c("party_max_heroes")
                ),
                "wrong size",
                "add or remove `hero` items".to_string(),
            );
        }
        match leaders.as_slice() {
            [_] => {}
            [] => self.rule(
                item_span(item),
                "the party has no leader".to_string(),
                "no leader",
                "give one hero `leader = true`".to_string(),
            ),
            [_, rest @ ..] => {
                for span in rest {
                    self.rule(
                        *span,
                        "the party has more than one leader".to_string(),
                        "second leader",
                        "keep `leader = true` on one hero".to_string(),
                    );
                }
            }
        }
        if i64::try_from(mages.len()).unwrap_or(i64::MAX) > c("mages_max") {
            for span in mages
                .iter()
                .skip(usize::try_from(c("mages_max")).unwrap_or(0))
            {
                self.rule(
                    *span,
                    format!(
                        "a party fields at most {} {}",
                        c("mages_max"),
                        if c("mages_max") == 1 {
                            "caster"
                        } else {
                            "casters"
                        }
                    ),
                    "one caster too many",
                    "pick a profession that is not a caster".to_string(),
                );
            }
        }
        for (name, spans) in &by_profession {
            let Some(p) = roster.profession(name) else {
                continue;
            };
            let limit = p.per_party.unwrap_or(i64::MAX);
            for (index, span) in spans.iter().enumerate().skip(1) {
                let index = i64::try_from(index).unwrap_or(i64::MAX);
                if p.cost >= c("duplicate_below") {
                    self.rule(
                        *span,
                        format!("{name} ({} DC) is taken twice", p.cost),
                        "duplicate",
                        format!(
                            "only professions under {} DC may repeat; pick another profession",
                            c("duplicate_below")
                        ),
                    );
                } else if index >= limit {
                    self.rule(
                        *span,
                        format!("a party fields at most {limit} {name}"),
                        "one too many",
                        "pick another profession".to_string(),
                    );
                }
            }
        }
        for (name, spans) in &carried {
            let Some(e) = roster.item(name) else { continue };
            if let Some(limit) = e.per_party {
                for span in spans.iter().skip(usize::try_from(limit).unwrap_or(0)) {
                    self.rule(
                        *span,
                        format!("a party carries at most {limit} {name}"),
                        "one too many",
                        "give this hero other equipment".to_string(),
                    );
                }
            }
        }
        // The points limit.
        let Some(built) = self.built_party(item) else {
            return;
        };
        if let Some(costs) = party_costs(&built, roster, ruleset) {
            let total: i64 = costs.iter().map(HeroCost::total).sum();
            // A guild may let its parties spend a share more, rounded down (003 L1498).
            let extra = guild_def.map_or(0, |g| built.points * g.extra_points_percent / 100);
            let limit = built.points + extra;
            if total > limit {
                let span = item
                    .field("points")
                    .map_or(item_span(item), |f| f.value.span());
                let each: Vec<String> = costs
                    .iter()
                    .map(|cost| format!("{} {}", cost.hero, cost.total()))
                    .collect();
                self.rule(
                    span,
                    format!("the party costs {total} points, over its limit of {limit}"),
                    "over the limit",
                    format!("drop {} points: {}", total - limit, each.join(", ")),
                );
            }
        }
    }

    /// A guild's entry conditions: the leader's profession, enough members of its
    /// professions, a caster when it needs one, and no dear profession but a caster's.
    fn guild(
        &mut self,
        g: &GuildDef,
        span: Span,
        members: &[(&ProfessionDef, bool, Span)],
        ruleset: &RulesetDef,
    ) {
        let leader = members.iter().find(|(_, leads, _)| *leads);
        if !g.leader.is_empty()
            && let Some((p, _, at)) = leader
            && !g.leader.contains(&p.name)
        {
            self.rule(
                *at,
                format!(
                    "the {} Guild's Leader is a {}, not a {}",
                    g.name,
                    g.leader.join(" or "),
                    p.name
                ),
                "not a guild leader",
                "change the Leader's profession, or drop the party's `guild`".to_string(),
            );
        }
        let found = members
            .iter()
            .filter(|(p, leads, _)| !leads && g.members.contains(&p.name))
            .count();
        let found = i64::try_from(found).unwrap_or(i64::MAX);
        if found < g.members_needed {
            self.rule(
                span,
                format!(
                    "the {} Guild needs {} heroes besides the Leader among {}; the party has {found}",
                    g.name,
                    g.members_needed,
                    g.members.join(", ")
                ),
                "too few members",
                "give more heroes one of those professions, or drop the party's `guild`".to_string(),
            );
        }
        if g.mage_needed && !members.iter().any(|(p, _, _)| p.mage) {
            self.rule(
                span,
                format!("the {} Guild needs a caster in the party", g.name),
                "no caster",
                "give a hero a caster's profession, or drop the party's `guild`".to_string(),
            );
        }
        match constant(ruleset, "guild_profession_max") {
            None => self.rule(
                span,
                format!("ruleset `{}` lacks `guild_profession_max`", ruleset.name),
                "cannot be checked",
                "add `constant \"guild_profession_max\" { number = 40 }` to the ruleset"
                    .to_string(),
            ),
            Some(max) => {
                for (p, _, at) in members {
                    if !p.mage && p.cost > max {
                        self.rule(
                            *at,
                            format!("a guild party's heroes, casters aside, cost at most {max} DC: {} costs {}", p.name, p.cost),
                            "too dear for a guild",
                            "pick a cheaper profession, or drop the party's `guild`".to_string(),
                        );
                    }
                }
            }
        }
    }

    /// A hero's domains of magic: known ones, no more than its profession picks, none
    /// twice, and none locked to another alignment (003 L628).
    fn domains(
        &mut self,
        hero: &Item,
        hero_name: &str,
        profession: Option<&ProfessionDef>,
        alignment: &str,
        roster: &RosterDef,
        known: &[&str],
    ) {
        let picked = written_list(hero, "domains");
        let allowed = profession.map_or(i64::MAX, |p| p.domains);
        let mut seen: Vec<&str> = Vec::new();
        for (index, (name, span)) in picked.iter().enumerate() {
            self.unknown(
                "domain of magic",
                name,
                *span,
                known,
                "add a `domain` item to the roster",
            );
            if seen.contains(name) {
                self.rule(
                    *span,
                    format!("hero `{hero_name}` picks the domain {name} twice"),
                    "picked again",
                    "drop this one".to_string(),
                );
                continue;
            }
            seen.push(name);
            if i64::try_from(index).unwrap_or(i64::MAX) >= allowed
                && let Some(p) = profession
            {
                self.rule(
                    *span,
                    if p.domains == 0 {
                        format!("a {} picks no domain of magic", p.name)
                    } else {
                        format!(
                            "a {} picks {} domain{} of magic; hero `{hero_name}` picks more",
                            p.name,
                            p.domains,
                            if p.domains == 1 { "" } else { "s" }
                        )
                    },
                    "one domain too many",
                    "drop this domain".to_string(),
                );
            }
            if let Some(domain) = roster.domains.iter().find(|d| d.name == *name)
                && let Some(locked) = &domain.alignment
                && !alignment.is_empty()
                && locked != alignment
            {
                self.rule(
                    *span,
                    format!(
                        "the domain of {name} is only for parties of alignment `{locked}`; this one is `{alignment}`"
                    ),
                    "alignment not allowed",
                    "pick another domain".to_string(),
                );
            }
        }
        if let Some(p) = profession
            && i64::try_from(seen.len()).unwrap_or(i64::MAX) < p.domains
        {
            let open: Vec<String> = roster
                .domains
                .iter()
                .filter(|d| {
                    alignment.is_empty() || d.alignment.as_deref().is_none_or(|a| a == alignment)
                })
                .map(|d| format!("`\"{}\"`", d.name))
                .collect();
            self.rule(
                written(hero, "profession").map_or_else(|| item_span(hero), |(_, span)| span),
                format!(
                    "a {} picks {} domain{} of magic; hero `{hero_name}` picks {}",
                    p.name,
                    p.domains,
                    if p.domains == 1 { "" } else { "s" },
                    seen.len()
                ),
                "domains missing",
                format!("add `domains = [...]` from {}", open.join(", ")),
            );
        }
    }

    /// A hero's single spells (`spells = [...]`): known ones, none twice, as many as its
    /// profession's `spells` (from the domains of the party's hero of `spells_from`), and
    /// for a leader with a caster's profession its guild's `leader_spells` from any domain
    /// open to the party.
    #[allow(clippy::too_many_arguments)]
    fn single_spells(
        &mut self,
        hero: &Item,
        hero_name: &str,
        profession: Option<&ProfessionDef>,
        guild: Option<&GuildDef>,
        alignment: &str,
        roster: &RosterDef,
        heroes: &[&Item],
    ) {
        let picked = written_list(hero, "spells");
        let own = profession.map_or(0, |p| p.spells);
        let leads = flag(hero, "leader") && profession.is_some_and(|p| p.mage);
        let extra = if leads {
            guild.map_or(0, |g| g.leader_spells)
        } else {
            0
        };
        // The spells its profession's picks come from: the domains of the party's heroes of
        // `spells_from`, or every domain when it names none.
        let source = profession.and_then(|p| p.spells_from.as_deref());
        let sourced: Option<Vec<&str>> = source.map(|from| {
            heroes
                .iter()
                .filter(|h| string(h, "profession").as_deref() == Some(from))
                .flat_map(|h| strings(h, "domains"))
                .filter_map(|d| roster.domains.iter().find(|x| x.name == d))
                .flat_map(|d| d.spells.iter().map(|s| s.name.as_str()))
                .collect()
        });
        let known: Vec<&str> = roster.spells().map(|(_, s)| s.name.as_str()).collect();
        let mut seen: Vec<&str> = Vec::new();
        let mut own_used = 0;
        let mut extra_used = 0;
        for (name, span) in &picked {
            self.unknown(
                "spell",
                name,
                *span,
                &known,
                "add a `spell` to a domain of the roster",
            );
            let Some((domain, _)) = roster.spells().find(|(_, s)| s.name == *name) else {
                continue;
            };
            if seen.contains(name) {
                self.rule(
                    *span,
                    format!("hero `{hero_name}` picks the spell {name} twice"),
                    "picked again",
                    "drop this one".to_string(),
                );
                continue;
            }
            seen.push(name);
            let open =
                alignment.is_empty() || domain.alignment.as_deref().is_none_or(|a| a == alignment);
            let from_source = sourced.as_ref().is_none_or(|list| list.contains(name));
            if own_used < own && from_source && open {
                own_used += 1;
            } else if extra_used < extra && open {
                extra_used += 1;
            } else if !open {
                self.rule(
                    *span,
                    format!(
                        "the spell {name} is of the domain of {}, only for parties of alignment `{}`; this one is `{alignment}`",
                        domain.name,
                        domain.alignment.as_deref().unwrap_or_default()
                    ),
                    "alignment not allowed",
                    "pick another spell".to_string(),
                );
            } else if own_used < own {
                self.rule(
                    *span,
                    format!(
                        "a {} picks spells of the party's {}; {name} is not one of them",
                        profession.map_or("hero", |p| p.name.as_str()),
                        source.unwrap_or_default()
                    ),
                    "not among them",
                    match sourced.as_ref().filter(|list| !list.is_empty()) {
                        Some(list) => format!("pick one of {}", list.join(", ")),
                        None => format!(
                            "the party has no {} with a domain: drop this spell",
                            source.unwrap_or_default()
                        ),
                    },
                );
            } else {
                let most = own + extra;
                self.rule(
                    *span,
                    if most == 0 {
                        format!(
                            "a {} picks no single spell",
                            profession.map_or("hero", |p| p.name.as_str())
                        )
                    } else {
                        format!(
                            "hero `{hero_name}` picks {most} single spell{} at most",
                            if most == 1 { "" } else { "s" }
                        )
                    },
                    "one spell too many",
                    "drop this spell".to_string(),
                );
            }
        }
        // A profession's picks are owed when the party holds their source.
        if i64::try_from(picked.len()).unwrap_or(i64::MAX) < own
            && let Some(p) = profession
            && sourced.as_ref().is_none_or(|list| !list.is_empty())
        {
            self.rule(
                written(hero, "profession").map_or_else(|| item_span(hero), |(_, span)| span),
                format!(
                    "a {} picks {own} spell{}{}; hero `{hero_name}` picks {own_used}",
                    p.name,
                    if own == 1 { "" } else { "s" },
                    source.map_or_else(String::new, |from| format!(" of the party's {from}"))
                ),
                "spells missing",
                "add `spells = [...]`".to_string(),
            );
        }
    }

    fn built_party(&mut self, item: &Item) -> Option<PartyDef> {
        let mut sink = Vec::new();
        let mut builder = Builder {
            file: self.file,
            out: &mut sink,
        };
        builder.party(item)
    }
}
