//! Building the script world of a match from a loaded library: the battlefield, the dice,
//! the cards' catalog, the fighters' profiles and sides, and each player's territory.

use gloam_core::{Battlefield, Dice, PlayerId};
use gloam_dsl::{AbilityInfo, CardInfo, CardRestriction, FighterInfo, Side, WeaponInfo, World};
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
