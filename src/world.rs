//! Building the script world of a match from a loaded library: the battlefield, the dice,
//! the cards' catalog, the fighters' profiles and sides, and each player's territory.

use gloam_core::{Battlefield, Dice, PlayerId};
use gloam_dsl::{
    AbilityInfo, CardInfo, CardRestriction, Feature, FighterInfo, Side, Table, WeaponInfo, World,
};
use gloam_grammar::{Restriction, RulesetDef, Side as GrammarSide};

use crate::engine::{MatchSpec, territory_of};
use crate::load::Loaded;

/// The hex type that blocks movement and sight in every shipped ruleset.
pub const BLOCKING: &str = "blocked";

/// The world scripts of a match see.
pub(crate) fn world_for(
    loaded: &Loaded,
    ruleset: &RulesetDef,
    battlefield: Battlefield,
    dice: Dice,
    spec: &MatchSpec,
) -> World {
    let library = &loaded.library;
    let mut world = World::new(
        battlefield,
        [BLOCKING],
        ruleset.off_board_blocks_sight.unwrap_or(false),
        dice,
    );
    for (index, _) in spec.seats.iter().enumerate() {
        world = world.with_territory(PlayerId(index as u8), territory_of(index));
    }
    for (name, value) in constants_of(ruleset) {
        world = world.with_constant(name, value);
    }
    for card in library.cards() {
        let mut info = CardInfo::new(card.kind.clone())
            .with_glory(card.glory.unwrap_or(0))
            .with_cost(card.cost.unwrap_or(0))
            .with_keywords(card.keywords.iter().cloned());
        if let Some(window) = &card.window {
            info = info.with_window(window.clone());
        }
        if let Some(score) = &card.score {
            info = info.with_score(score.clone());
        }
        for face in &card.casting_value {
            let count = usize::try_from(face.count).unwrap_or(0);
            info = info.with_casting_value(std::iter::repeat_n(face.name.clone(), count));
        }
        for restriction in &card.restrictions {
            info = info.with_restriction(match restriction {
                Restriction::Fighter(name) => CardRestriction::Fighter(name.clone()),
                Restriction::Keyword(keyword) => CardRestriction::Keyword(keyword.clone()),
            });
        }
        if let Some(script) = loaded.script("card", &card.name, "condition") {
            info = info.with_condition(script.clone());
        }
        // An Attack action upgrade's weapons: one profile, used on both sides.
        for weapon in &card.weapons {
            let keywords = weapon.keywords.iter().map(|k| k.name.clone());
            let granted = WeaponInfo::new(
                weapon.name.clone(),
                weapon.range,
                weapon.dice,
                weapon.damage,
                weapon.symbol.clone(),
            )
            .with_keywords(keywords);
            info = info.with_weapon(match &weapon.die {
                Some(die) => granted.with_die(die.clone()),
                None => granted,
            });
        }
        world = world.with_card(card.name.clone(), info);
    }
    for warband in library.warbands() {
        for fighter in &warband.fighters {
            let base: Vec<(String, i64)> = fighter
                .stats
                .iter()
                .map(|s| (s.name.clone(), s.value))
                .collect();
            let mut inspired = base.clone();
            for change in &fighter.inspired {
                match inspired.iter_mut().find(|(name, _)| *name == change.name) {
                    Some(entry) => entry.1 = change.value,
                    None => inspired.push((change.name.clone(), change.value)),
                }
            }
            world = world.with_sides(fighter.name.clone(), base, inspired);
            world = with_profile(world, loaded, fighter);
        }
    }
    world
}

/// `world` with the card catalog entries of what a roster describes, as a party game puts
/// them on its heroes (`RulesetGame`'s seating, in `docs/umbra-turris.md`): each race (kind
/// `race`; value `cost`; tags: its keywords and those of a sub-race of the same name), sub-race
/// (`subrace`; tags: its keywords), profession (`profession`; values `cost`, `leader` and
/// `mage` (1 or 0), `domains`; tags: its keywords), piece of equipment (its kind; values
/// `cost`, its strike modifiers by strike, `damage`, `range` in tenths of a millimetre,
/// `save`, `heavy` and `one_use` (1 when so), and each special rule that carries a number;
/// tags: its special rules, its location, `heavy`, `one_use`) and spell (`spell`; values
/// `chance`, `range`, `wounds`; tags: its domain, its reach when not a length). Scripts read
/// them with `card_kind`, `card_value` and `card_tags`. An entry replaces a card of the same
/// name from elsewhere in the library; among the roster's own, the first of a name is kept.
pub(crate) fn with_roster(mut world: World, roster: &gloam_grammar::RosterDef) -> World {
    let mut seen: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    let mut entries: Vec<(&str, CardInfo)> = Vec::new();
    for race in &roster.races {
        let same_named = race.subraces.iter().filter(|s| s.name == race.name);
        let tags = race
            .keywords
            .iter()
            .chain(same_named.flat_map(|s| s.keywords.iter()))
            .cloned();
        entries.push((
            &race.name,
            CardInfo::new("race")
                .with_value("cost", race.cost)
                .with_tags(tags),
        ));
        for subrace in race.subraces.iter().filter(|s| s.name != race.name) {
            entries.push((
                &subrace.name,
                CardInfo::new("subrace").with_tags(subrace.keywords.iter().cloned()),
            ));
        }
    }
    for profession in &roster.professions {
        entries.push((
            &profession.name,
            CardInfo::new("profession")
                .with_value("cost", profession.cost)
                .with_value("leader", i64::from(profession.leader))
                .with_value("mage", i64::from(profession.mage))
                .with_value("domains", profession.domains)
                .with_tags(profession.keywords.iter().cloned()),
        ));
    }
    for item in &roster.equipment {
        let mut info = CardInfo::new(item.kind.clone()).with_value("cost", item.cost);
        for (strike, modifier) in &item.strikes {
            info = info.with_value(strike.clone(), *modifier);
        }
        if let Some(damage) = item.damage {
            info = info.with_value("damage", damage);
        }
        if let Some(range) = item.range {
            info = info.with_value("range", range.length.as_tenth_mm());
        }
        if let Some(save) = item.save {
            info = info.with_value("save", save);
        }
        for rule in &item.rules {
            if let Some(number) = rule.value {
                info = info.with_value(rule.name.clone(), number);
            }
        }
        info = info.with_tags(item.rules.iter().map(|rule| rule.name.clone()));
        info = info.with_tags(item.location.iter().cloned());
        if item.heavy {
            info = info.with_value("heavy", 1).with_tags(["heavy"]);
        }
        if item.one_use {
            info = info.with_value("one_use", 1).with_tags(["one_use"]);
        }
        entries.push((&item.name, info));
    }
    for (domain, spell) in roster.spells() {
        let mut info = CardInfo::new("spell").with_tags([domain.name.clone()]);
        if let Some(chance) = spell.chance {
            info = info.with_value("chance", chance);
        }
        if let Some(range) = spell.range {
            info = info.with_value("range", range.length.as_tenth_mm());
        }
        if let Some(wounds) = spell.wounds {
            info = info.with_value("wounds", wounds);
        }
        info = info.with_tags(spell.reach.iter().cloned());
        entries.push((&spell.name, info));
    }
    // A spell's creature (a summoned model or a shape): kind `creature`, its stats (lengths
    // in tenths of a millimetre), `count` and its weapon's strike modifiers as values; its
    // form, the strikes it may make (`strike_types`), `flying`, its keywords and, for a shape,
    // each characteristic the hero keeps (`keep_ld`) as tags.
    for (_, spell) in roster.spells() {
        for creature in &spell.creatures {
            let mut info = CardInfo::new("creature").with_value("count", creature.count);
            for stat in &creature.stats {
                info = info.with_value(
                    stat.name.clone(),
                    match stat.value {
                        gloam_grammar::Quantity::Number(number) => number,
                        gloam_grammar::Quantity::Length(measure) => measure.length.as_tenth_mm(),
                    },
                );
            }
            for (strike, modifier) in &creature.strikes {
                info = info.with_value(strike.clone(), *modifier);
            }
            info = info
                .with_tags([creature.form.clone()])
                .with_tags(creature.strike_types.iter().cloned())
                .with_tags(creature.keywords.iter().cloned())
                .with_tags(creature.keep.iter().map(|kept| format!("keep_{kept}")));
            if creature.flying {
                info = info.with_value("flying", 1).with_tags(["flying"]);
            }
            // The same creature as another spell's (a summoned Magic Spawn and a hero
            // turned into one): one entry, the first's values, the tags of both.
            match entries
                .iter_mut()
                .find(|(name, known)| *name == creature.name && known.kind == "creature")
            {
                Some((_, known)) => {
                    let first = std::mem::replace(known, CardInfo::new("creature"));
                    *known = first.with_tags(info.tags);
                }
                None => entries.push((&creature.name, info)),
            }
        }
    }
    for (name, info) in entries {
        if seen.insert(name) {
            world = world.with_card(name, info);
        }
    }
    world
}

fn side_of(side: &GrammarSide) -> Side {
    match side {
        GrammarSide::Inspired => Side::Inspired,
        GrammarSide::Uninspired => Side::Uninspired,
    }
}

/// Adds a fighter's weapons, defence symbol, compiled inspire condition and abilities (with
/// their compiled conditions) to the world's profile catalog. A weapon whose Inspired side
/// changes its numbers becomes two entries, one for each side.
///
/// Ability scripts are found by the ability's name (as the driver finds their effects), so
/// two abilities of one name share the first one's condition.
fn with_profile(world: World, loaded: &Loaded, fighter: &gloam_grammar::FighterDef) -> World {
    let mut profile = FighterInfo::new();
    if let Some(script) = loaded.script("fighter", &fighter.name, "inspire") {
        profile = profile.with_inspire(script.clone());
    }
    if let Some(script) = loaded.script("fighter", &fighter.name, "uninspire") {
        profile = profile.with_uninspire(script.clone());
    }
    for ability in &fighter.abilities {
        let mut info = AbilityInfo::new(ability.name.clone());
        if let Some(window) = &ability.window {
            info = info.with_window(window.clone());
        }
        if ability.reaction {
            info = info.as_reaction();
        }
        if let Some(side) = &ability.side {
            info = info.with_side(side_of(side));
        }
        if let Some(script) = loaded.script("ability", &ability.name, "condition") {
            info = info.with_condition(script.clone());
        }
        profile = profile.with_ability(info);
    }
    if let Some(symbol) = fighter
        .symbols
        .iter()
        .find(|s| s.characteristic == "defence")
    {
        profile = profile.with_defence_symbol(symbol.face.clone());
    }
    for weapon in &fighter.weapons {
        let keywords = weapon.keywords.iter().map(|k| k.name.clone());
        let inspired_keywords = weapon.inspired_keywords.iter().map(|k| k.name.clone());
        let base = WeaponInfo::new(
            weapon.name.clone(),
            weapon.range,
            weapon.dice,
            weapon.damage,
            weapon.symbol.clone(),
        )
        .with_keywords(keywords)
        .with_inspired_keywords(inspired_keywords);
        let base = match &weapon.die {
            Some(die) => base.with_die(die.clone()),
            None => base,
        };
        let side = weapon.side.as_ref().map(side_of);
        if weapon.inspired.is_empty() {
            profile = profile.with_weapon(match side {
                Some(side) => base.with_side(side),
                None => base,
            });
            continue;
        }
        let mut inspired = base.clone().with_side(Side::Inspired);
        for change in &weapon.inspired {
            match change.name.as_str() {
                "range" => inspired.range = change.value,
                "dice" => inspired.dice = change.value,
                "damage" => inspired.damage = change.value,
                _ => {}
            }
        }
        profile = profile
            .with_weapon(base.with_side(Side::Uninspired))
            .with_weapon(inspired);
    }
    world.with_fighter(fighter.name.clone(), profile)
}

/// The ruleset's `constant`s as scripts read them (`constant(name)`): a length in tenths
/// of a millimetre, a number as written; in the order declared.
///
/// # Examples
///
/// ```
/// let cards = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cards/spearhead"));
/// let (sources, _) = gloam::load::read_paths(&[cards]);
/// let (loaded, _) = gloam::load::load(&sources, &gloam_dsl::Host::new());
/// let constants = gloam::world::constants_of(loaded.library.ruleset("spearhead").unwrap());
/// assert!(constants.contains(&("combat_range".to_owned(), 762)));
/// ```
pub fn constants_of(ruleset: &RulesetDef) -> Vec<(String, i64)> {
    ruleset
        .constants
        .iter()
        .map(|constant| {
            let value = match constant.value {
                gloam_grammar::Quantity::Number(number) => number,
                gloam_grammar::Quantity::Length(measure) => measure.length.as_tenth_mm(),
            };
            (constant.name.clone(), value)
        })
        .collect()
}

/// Why a measured table could not be built from its data ([`table_of`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableSetupError {
    /// The table has no deployment map of that name.
    #[error("table `{table}` has no deployment map `{map}` (it has: {known})")]
    UnknownMap {
        /// The table.
        table: String,
        /// The map asked for.
        map: String,
        /// The maps it has.
        known: String,
    },
    /// A placement names a terrain feature the table does not have.
    #[error("table `{table}` has no terrain feature `{feature}` (it has: {known})")]
    UnknownFeature {
        /// The table.
        table: String,
        /// The feature asked for.
        feature: String,
        /// The features it has.
        known: String,
    },
    /// The table, a feature or a territory is malformed, or a feature is placed twice.
    #[error("table `{table}`: {problem}")]
    Invalid {
        /// The table.
        table: String,
        /// What is wrong.
        problem: String,
    },
}

/// The same world knowing the armies the match's seats bring ([`World::with_army`]), the
/// abilities of their warscrolls and the weapons of every warscroll
/// ([`World::with_model_weapons`]): range (a length, unset for a melee weapon),
/// attacks, hit, wound, rend, damage (a number, or a roll written as in the data, `"D3"`),
/// the names of its weapon abilities (`abilities`), and for each ability that names what it
/// applies to, that ability with the list of those names (`anti: ["hero", "charged"]`).
pub(crate) fn with_model_weapons(mut world: World, loaded: &Loaded, spec: &MatchSpec) -> World {
    use gloam_dsl::{ModelWeapon, ProfileValue};
    let amount = |amount: &gloam_grammar::Amount| match amount {
        gloam_grammar::Amount::Fixed(n) => ProfileValue::Int(*n),
        gloam_grammar::Amount::Roll { dice, die, plus } => {
            let count = if *dice == 1 {
                String::new()
            } else {
                dice.to_string()
            };
            let sides = die.strip_prefix('d').unwrap_or(die).to_uppercase();
            let plus = match plus.signum() {
                1 => format!("+{plus}"),
                -1 => plus.to_string(),
                _ => String::new(),
            };
            ProfileValue::Text(format!("{count}D{sides}{plus}"))
        }
    };
    let ability = |def: &gloam_grammar::AbilityDef| gloam_dsl::ArmyAbility {
        name: def.name.clone(),
        window: def.window.clone(),
        choice: def.choice.clone(),
        frequency: def.frequency.clone(),
        keywords: def.keywords.clone(),
        has_effect: def.effect.is_some(),
    };
    for (index, seat) in spec.seats.iter().enumerate() {
        let Some(army) = seat.army.as_deref().and_then(|a| loaded.library.army(a)) else {
            continue;
        };
        world = world.with_army(
            PlayerId(index as u8),
            gloam_dsl::ArmyInfo {
                name: army.name.clone(),
                general: army.general.clone(),
                abilities: army.abilities.iter().map(ability).collect(),
            },
        );
        for warscroll in &army.warscrolls {
            world = world.with_model_abilities(
                warscroll.name.clone(),
                warscroll.abilities.iter().map(ability).collect(),
            );
            let weapons = warscroll
                .weapons
                .iter()
                .map(|weapon| {
                    let mut profile = vec![
                        (
                            "range".to_owned(),
                            weapon.range.map_or(ProfileValue::Unset, |range| {
                                ProfileValue::Int(range.length.as_tenth_mm())
                            }),
                        ),
                        ("attacks".to_owned(), amount(&weapon.attacks)),
                        ("hit".to_owned(), ProfileValue::Int(weapon.hit)),
                        ("wound".to_owned(), ProfileValue::Int(weapon.wound)),
                        ("rend".to_owned(), ProfileValue::Int(weapon.rend)),
                        ("damage".to_owned(), amount(&weapon.damage)),
                    ];
                    let mut names: Vec<String> = Vec::new();
                    let mut applies: Vec<(String, Vec<String>)> = Vec::new();
                    for ability in &weapon.abilities {
                        if !names.contains(&ability.name) {
                            names.push(ability.name.clone());
                        }
                        if let Some(value) = &ability.value {
                            match applies.iter_mut().find(|(n, _)| *n == ability.name) {
                                Some((_, list)) => list.push(value.clone()),
                                None => applies.push((ability.name.clone(), vec![value.clone()])),
                            }
                        }
                    }
                    profile.push(("abilities".to_owned(), ProfileValue::Names(names)));
                    for (name, list) in applies {
                        profile.push((name, ProfileValue::Names(list)));
                    }
                    ModelWeapon {
                        name: weapon.name.clone(),
                        profile,
                    }
                })
                .collect();
            world = world.with_model_weapons(warscroll.name.clone(), weapons);
        }
    }
    world
}

/// The measured table scripts see for a game on `def`, with the deployment map `map` in play
/// and the terrain features of `placements` set up, each with its own origin moved to the
/// given point (features not listed are left to be set up in play: `Table::loose`). Refusal messages speak in the
/// unit the table's width is written in.
///
/// # Examples
///
/// ```
/// use gloam::core::{Length, Point};
/// let cards = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cards/spearhead"));
/// let (sources, _) = gloam::load::read_paths(&[cards]);
/// let (loaded, _) = gloam::load::load(&sources, &gloam_dsl::Host::new());
/// let def = loaded.library.table("Realm Battlefield: Aqshy").unwrap();
/// let at = Point::at(Length::inches(4), Length::inches(20));
/// let table = gloam::world::table_of(def, "Horizontal", &[("Lava Vent", at)]).unwrap();
/// assert_eq!(table.territories.len(), 2);
/// assert_eq!(table.features[0].footprints[0].footprint[0], at);
/// assert!(gloam::world::table_of(def, "Vertical", &[]).is_err());
/// ```
pub fn table_of(
    def: &gloam_grammar::TableDef,
    map: &str,
    placements: &[(&str, gloam_core::Point)],
) -> Result<Table, TableSetupError> {
    let names = |items: &mut dyn Iterator<Item = &str>| items.collect::<Vec<_>>().join(", ");
    let deployment = def.map(map).ok_or_else(|| TableSetupError::UnknownMap {
        table: def.name.clone(),
        map: map.to_owned(),
        known: names(&mut def.maps.iter().map(|m| m.name.as_str())),
    })?;
    let mut table = Table::new(def.width.length, def.depth.length, def.width.unit);
    for territory in &deployment.territories {
        table = table.with_territory(territory.name.clone(), territory.area.to_area());
    }
    for objective in &deployment.objectives {
        table = table.with_objective(objective.name.clone(), objective.at.to_point());
    }
    for (name, at) in placements {
        let terrain = def
            .terrain
            .iter()
            .find(|t| t.name == *name)
            .ok_or_else(|| TableSetupError::UnknownFeature {
                table: def.name.clone(),
                feature: (*name).to_owned(),
                known: names(&mut def.terrain.iter().map(|t| t.name.as_str())),
            })?;
        table = table.with_feature(feature_of(terrain).moved_by(*at));
    }
    // The features not placed here are set up in play (`set_up_terrain`), each drawn around
    // its own origin.
    for terrain in &def.terrain {
        if !placements.iter().any(|(name, _)| *name == terrain.name) {
            table = table.with_loose_feature(feature_of(terrain));
        }
    }
    table
        .validate()
        .map_err(|problem| TableSetupError::Invalid {
            table: def.name.clone(),
            problem,
        })?;
    Ok(table)
}

/// A `terrain` item of a table as a script world's [`Feature`], around its own origin (not
/// placed): its floor, then its raised parts. [`Feature::moved_by`] puts it on the table.
pub fn feature_of(terrain: &gloam_grammar::TerrainDef) -> Feature {
    let corners = |outline: &[gloam_grammar::PointDef]| {
        outline.iter().map(|p| p.to_point()).collect::<Vec<_>>()
    };
    let mut feature = Feature::new(
        terrain.name.clone(),
        terrain.kind.clone(),
        terrain.rules.iter().cloned(),
        corners(&terrain.outline),
        terrain.height.length,
    );
    for part in &terrain.parts {
        feature = feature.with_part(corners(&part.outline), part.height.length);
    }
    feature
}
