//! Playing a ruleset from data: the driver that runs a ruleset's steps, cards and abilities
//! as the kernel's frames.
//!
//! A [`RulesetGame`] implements [`gloam_core::Rules`]. A frame's `step` names what runs:
//!
//! - `setup`: the ruleset's `setup` script (the first frame of every game);
//! - `card`: a card's `effect` (frame values `card`, `player`, `fighter`, `target`);
//! - `ability`: a fighter ability's `effect` (values `fighter`, `name`, `player`, `target`);
//! - any other name: the ruleset's `step` item of that name, its `run` script.
//!
//! Each frame value becomes a script variable of the same name. A script that needs a choice
//! stops; the kernel asks the player; the script runs again from the top with every answer
//! so far (scripts are deterministic). When a script finishes, the steps it queued with
//! `then`, `play_card` and `end_game` replace its frame, in order.

use std::collections::BTreeMap;
use std::rc::Rc;

use gloam_core::{
    Battlefield, Board, Control, Ctx, Dice, Frame, GameResult, Hex, Placement, PlayerId, RuleError,
    Rules, Scope, Setup, Value, Visibility, ZoneId,
};
use gloam_dsl::{Bindings, FlowRequest, Host, Outcome, Script, World};
use gloam_grammar::{BoardDef, RulesetDef};

use crate::load::Loaded;

/// The pseudo-step of a game's first frame: the ruleset's `setup` script.
pub const SETUP: &str = "setup";
/// The pseudo-step that resolves a card's effect.
pub const CARD: &str = "card";
/// The pseudo-step that resolves a fighter ability's effect.
pub const ABILITY: &str = "ability";

/// One seat of a match: who plays, with which warband, decklist and board, or, in a
/// match on a measured table, with which army.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Seat {
    /// The player's name.
    pub name: String,
    /// The warband's name (empty for a seat that brings an army).
    pub warband: String,
    /// The army the player brings to a match on a measured table ([`MatchSpec::table`]);
    /// `None` in a hex match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<String>,
    /// The party the player brings to a match on a measured table, in a game whose players
    /// build heroes (a `party` item); `None` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party: Option<String>,
    /// The decklist's name; `None` builds decks from every card the warband may take.
    pub decklist: Option<String>,
    /// The board the player brings; `None` takes the ruleset's boards in order.
    pub board: Option<String>,
}

impl Seat {
    /// What the player brings: the party's or the army's name in a table match, else the
    /// warband's.
    pub fn brings(&self) -> &str {
        self.party
            .as_deref()
            .or(self.army.as_deref())
            .unwrap_or(&self.warband)
    }
}

/// What a match is: a ruleset and its seats.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MatchSpec {
    /// The ruleset's name.
    pub ruleset: String,
    /// The seats, in seating order.
    pub seats: Vec<Seat>,
    /// For a match on a measured table: the table and its deployment map. `None`: a hex
    /// match on the seats' boards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<TableChoice>,
}

/// The measured table a match is played on: a `table` item and one of its deployment maps.
/// Seat `i` holds the map's territory `i`; no terrain feature is placed (the data gives
/// features outlines but no positions: placing them is the pre-battle sequence's business).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TableChoice {
    /// The `table` item's name, or `None` to let the flow choose among the ruleset's tables
    /// (`table_layouts`, `lay_out_battlefield`).
    pub table: Option<String>,
    /// The deployment map's name, or `None` to let the flow choose among the chosen
    /// table's maps.
    pub map: Option<String>,
}

/// Why a match could not be set up.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[non_exhaustive]
pub enum EngineError {
    /// A name in the match does not exist in the library.
    #[error("no {what} named `{name}` is loaded")]
    #[diagnostic(code(gloam::engine::unknown), help("{help}"))]
    Unknown {
        /// What kind of thing.
        what: &'static str,
        /// The name.
        name: String,
        /// A suggestion.
        help: String,
    },
    /// The match cannot be built as asked.
    #[error("cannot set up the match: {message}")]
    #[diagnostic(code(gloam::engine::setup))]
    Setup {
        /// Why.
        message: String,
    },
}

fn setup_error(message: impl std::fmt::Display) -> EngineError {
    EngineError::Setup {
        message: message.to_string(),
    }
}

fn unknown<'a>(
    what: &'static str,
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> EngineError {
    let help = match gloam_grammar::closest(name, candidates) {
        Some(close) => format!("did you mean `{close}`?"),
        None => format!("`gloam check` lists the loaded data; no {what} has this name"),
    };
    EngineError::Unknown {
        what,
        name: name.to_owned(),
        help,
    }
}

struct Inner {
    loaded: Rc<Loaded>,
    host: Rc<Host>,
    /// The battlefield and the scripts' world for each way the boards may be laid out, the
    /// first by default; the game counter `battlefield_layout` says which one is in play.
    layouts: Vec<(Battlefield, World)>,
    ruleset: RulesetDef,
    spec: MatchSpec,
    /// Each step of the ruleset and where its `run` script is in `loaded.scripts`, looked
    /// up once along the `extends` chain.
    steps: BTreeMap<String, usize>,
    /// Each invariant's place in `ruleset.invariants` and where its `holds` script is in
    /// `loaded.scripts`, in the ruleset's order.
    invariants: Vec<(usize, usize)>,
}

/// A ruleset from a loaded library, set up for one match, playable by the kernel's
/// [`gloam_core::Game`].
#[derive(Clone)]
pub struct RulesetGame {
    inner: Rc<Inner>,
}

impl RulesetGame {
    /// A match from its parts, each step's `run` script looked up once along the `extends`
    /// chain (hex and table matches alike).
    fn assemble(
        loaded: Rc<Loaded>,
        host: Rc<Host>,
        layouts: Vec<(Battlefield, World)>,
        ruleset: RulesetDef,
        spec: MatchSpec,
    ) -> RulesetGame {
        let steps = ruleset
            .steps
            .iter()
            .filter_map(|step| {
                let index = loaded.step_script_index(&ruleset.name, &step.name)?;
                Some((step.name.clone(), index))
            })
            .collect();
        let invariants = loaded.invariant_script_indexes(&ruleset);
        RulesetGame {
            inner: Rc::new(Inner {
                loaded,
                host,
                layouts,
                ruleset,
                spec,
                steps,
                invariants,
            }),
        }
    }
}

impl std::fmt::Debug for RulesetGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RulesetGame")
            .field("ruleset", &self.inner.ruleset.name)
            .field("spec", &self.inner.spec)
            .finish()
    }
}

impl RulesetGame {
    /// Sets a match up from a loaded library; `host` must be the host that compiled it.
    pub fn new(
        loaded: Rc<Loaded>,
        host: Rc<Host>,
        spec: MatchSpec,
    ) -> Result<RulesetGame, EngineError> {
        let library = &loaded.library;
        let ruleset = library
            .ruleset(&spec.ruleset)
            .ok_or_else(|| {
                unknown(
                    "ruleset",
                    &spec.ruleset,
                    library.rulesets().iter().map(|r| r.name.as_str()),
                )
            })?
            .clone();
        for decklist in spec
            .seats
            .iter()
            .filter_map(|seat| seat.decklist.as_deref())
        {
            if library.decklist(decklist).is_none() {
                return Err(unknown(
                    "decklist",
                    decklist,
                    library.decklists().iter().map(|d| d.name.as_str()),
                ));
            }
        }
        if let Some(choice) = spec.table.clone() {
            if spec.seats.iter().any(|seat| seat.party.is_some()) {
                return party_match(loaded, host, ruleset, spec, &choice);
            }
            return table_match(loaded, host, ruleset, spec, &choice);
        }
        for seat in &spec.seats {
            if library.warband(&seat.warband).is_none() {
                return Err(unknown(
                    "warband",
                    &seat.warband,
                    library.warbands().iter().map(|w| w.name.as_str()),
                ));
            }
        }
        let mut battlefields = battlefields_for(&loaded, &ruleset, &spec)?.into_iter();
        let (first_name, first) = battlefields
            .next()
            .ok_or_else(|| setup_error("a match needs a battlefield"))?;
        let rest: Vec<(Option<String>, Battlefield)> = battlefields.collect();
        let dice = dice_of(&ruleset)?;
        let mut world = crate::world::world_for(&loaded, &ruleset, first.clone(), dice, &spec);
        if !rest.is_empty() {
            let names = std::iter::once(first_name)
                .chain(rest.iter().map(|(name, _)| name.clone()))
                .map(Option::unwrap_or_default);
            world = world.with_layouts(names);
        }
        let mut layouts = vec![(first, world.clone())];
        for (_, battlefield) in rest {
            layouts.push((
                battlefield.clone(),
                world.clone().with_battlefield(battlefield),
            ));
        }
        Ok(RulesetGame::assemble(loaded, host, layouts, ruleset, spec))
    }

    /// The frames a game of this ruleset starts with.
    pub fn first_frames() -> Vec<Frame> {
        vec![Frame::new(SETUP)]
    }

    /// The kernel setup for this match with `seed`.
    pub fn setup(&self, seed: u64) -> Setup {
        let names: Vec<&str> = self
            .inner
            .spec
            .seats
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        Setup::new(seed, &names)
    }

    /// The battlefield of the match as it is laid out before any choice: the first of the
    /// ruleset's layouts for this number of players.
    pub fn battlefield(&self) -> &Battlefield {
        &self.inner.layouts[0].0
    }

    /// The ruleset's kinds of dice, as its scripts roll them.
    pub fn dice(&self) -> &gloam_core::Dice {
        self.inner.layouts[0].1.dice()
    }

    /// The battlefield a game of this match plays on in `state`: the layout its flow chose
    /// (`lay_out_battlefield`), else the first.
    pub fn battlefield_in(&self, state: &gloam_core::GameState) -> &Battlefield {
        &self.layout_in(state).0
    }

    /// The hex types of every hex of the battlefield in play: those its boards print, the
    /// ruleset's edge type where the battlefield's shape makes an edge, and those given in
    /// play (`state.hex_types`). What pictures, the text board and `show fighter` draw.
    pub fn hex_types_in(
        &self,
        state: &gloam_core::GameState,
    ) -> BTreeMap<Hex, std::collections::BTreeSet<String>> {
        let battlefield = self.battlefield_in(state);
        let edge = &self.names().edge;
        let mut types: BTreeMap<Hex, std::collections::BTreeSet<String>> = battlefield
            .hexes()
            .map(|hex| {
                let mut set = battlefield.types(hex).cloned().unwrap_or_default();
                if battlefield.is_edge(hex) {
                    set.insert(edge.clone());
                }
                (hex, set)
            })
            .collect();
        for (hex, name) in state.hex_types.iter() {
            types.entry(*hex).or_default().insert(name.clone());
        }
        types
    }

    /// The hex types of `types` (as [`hex_types_in`](Self::hex_types_in) gives them) in the
    /// order a legend lists them: the ruleset's declared order, then any other, as first met.
    pub fn hex_type_order(
        &self,
        types: &BTreeMap<Hex, std::collections::BTreeSet<String>>,
    ) -> Vec<String> {
        let mut order: Vec<String> = self.ruleset().hex_types.clone();
        for name in types.values().flatten() {
            if !order.contains(name) {
                order.push(name.clone());
            }
        }
        order
    }

    /// The ruleset of the match and those it extends, nearest first.
    pub fn ruleset_chain(&self) -> Vec<&str> {
        self.inner.loaded.ruleset_chain(&self.inner.ruleset.name)
    }

    /// The names of the table and deployment map a table game plays on in `state` (the
    /// layout its flow chose, else the first); `None` for a game on hexes.
    pub fn table_and_map_in(&self, state: &gloam_core::GameState) -> Option<(&str, &str)> {
        let world = &self.inner.layouts[0].1;
        let index = usize::try_from(state.counter(&world.names().layout)).unwrap_or(0);
        let layouts = world.table_layouts();
        layouts
            .get(index)
            .or_else(|| layouts.first())
            .map(|(table, map)| (table.as_str(), map.as_str()))
    }

    /// The script world a game of this match plays in in `state`: the layout its flow chose
    /// (`lay_out_battlefield`: for a table game, the table and map in play), else the first.
    pub fn world_in(&self, state: &gloam_core::GameState) -> &World {
        &self.layout_in(state).1
    }

    /// The first of the ruleset's `invariant`s that does not hold in `state`, as a message
    /// naming it and saying what should hold (or why its script could not tell); `None`
    /// when all hold. The state is read through a copy, never changed.
    pub fn broken_invariant(&self, state: &gloam_core::GameState) -> Option<String> {
        let world = self.world_in(state);
        let bindings = gloam_dsl::Bindings::new();
        self.inner.invariants.iter().find_map(|&(place, index)| {
            let invariant = &self.inner.ruleset.invariants[place];
            let script = &self.inner.loaded.scripts[index].script;
            match self
                .inner
                .host
                .evaluate_bool(script, world, state, &bindings)
            {
                Ok(true) => None,
                Ok(false) => Some(format!(
                    "invariant `{}` broken: {}",
                    invariant.name, invariant.about
                )),
                Err(error) => Some(format!(
                    "invariant `{}` could not be checked: {error}",
                    invariant.name
                )),
            }
        })
    }

    /// The names of the ways the boards may be laid out, in order (empty: one way).
    pub fn layout_names(&self) -> &[String] {
        self.inner.layouts[0].1.layouts()
    }

    fn layout_in(&self, state: &gloam_core::GameState) -> &(Battlefield, World) {
        let counter = &self.inner.layouts[0].1.names().layout;
        usize::try_from(state.counter(counter))
            .ok()
            .and_then(|index| self.inner.layouts.get(index))
            .unwrap_or(&self.inner.layouts[0])
    }

    /// The names the ruleset gives the counters, characteristics and keywords a host reads
    /// (`damage`, `wounds`, `glory`, `round`, `inspired`...).
    pub fn names(&self) -> &gloam_dsl::Names {
        self.inner.layouts[0].1.names()
    }

    /// The resolved ruleset.
    pub fn ruleset(&self) -> &RulesetDef {
        &self.inner.ruleset
    }

    /// The loaded definitions the match plays (cards, warbands, boards), for hosts that
    /// show them (`gloam play`'s `show card`).
    pub fn library(&self) -> &gloam_grammar::Library {
        &self.inner.loaded.library
    }

    /// The match.
    pub fn spec(&self) -> &MatchSpec {
        &self.inner.spec
    }

    /// Creates an army's models, off the table: for each warscroll, `units` units of
    /// `models` models, each a piece of the warscroll's name owned by `player`, with the
    /// warscroll's `stats` as characteristics (lengths in tenths of a millimetre; 0 for a
    /// characteristic the ruleset declares with `floor = 0` that it does not list), its
    /// keywords, the unit's number (`next_unit`, then counted on) and half its `base` as the
    /// base radius, under the names the world reads them by ([`gloam_dsl::Names`]).
    fn seat_army(
        &self,
        ctx: &mut Ctx<'_>,
        player: PlayerId,
        army: &gloam_grammar::ArmyDef,
        next_unit: &mut i64,
    ) -> Result<(), RuleError> {
        let names = self.names();
        for warscroll in &army.warscrolls {
            let mut stats: Vec<(String, i64)> = warscroll
                .stats
                .iter()
                .map(|stat| (stat.name.clone(), quantity_value(stat.value)))
                .collect();
            // As for fighters: 0 for each characteristic the ruleset declares with a floor
            // of 0 that the warscroll does not list (a Ward a unit does not have).
            for characteristic in &self.inner.ruleset.characteristics {
                if characteristic.floor == Some(0)
                    && !stats.iter().any(|(name, _)| *name == characteristic.name)
                {
                    stats.push((characteristic.name.clone(), 0));
                }
            }
            stats.push((
                names.base_radius.clone(),
                warscroll.base.length.as_tenth_mm() / 2,
            ));
            for _ in 0..warscroll.units {
                let unit = *next_unit;
                *next_unit += 1;
                for _ in 0..warscroll.models {
                    let characteristics = stats
                        .iter()
                        .cloned()
                        .chain(std::iter::once((names.unit.clone(), unit)));
                    let piece = ctx.create_piece(player, &warscroll.name, characteristics)?;
                    for keyword in &warscroll.keywords {
                        ctx.set_keyword(piece, keyword, true)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Creates a party's heroes, off the table: each a piece named after the hero, owned by
    /// `player`, a unit of one (`next_unit`, then counted on), with its race's `stats` as
    /// characteristics (lengths in tenths of a millimetre), half its race's `base` (else the
    /// ruleset's `base` constant) as the base radius, and what the party-building rules say
    /// it is worth ([`gloam_grammar::party_costs`]) as [`gloam_dsl::Names::cost`]. What the
    /// hero is and carries becomes cards in its `equipped` zone (public), in this order: its
    /// race (kind `race`; with the keywords of a sub-race of the same name), its sub-race
    /// (`subrace`), its profession and the leader add-on (`profession`), its equipment (the
    /// equipment's kind) and the spells of its domains (`spell`), each described in the
    /// world's card catalog ([`crate::world::with_roster`]). The piece carries the keywords of
    /// its race, sub-race and professions. What the rules make of all this (Heroism's +1 W, a
    /// weapon's bonus) is the ruleset's scripts' business.
    fn seat_party(
        &self,
        ctx: &mut Ctx<'_>,
        player: PlayerId,
        party: &gloam_grammar::PartyDef,
        next_unit: &mut i64,
    ) -> Result<(), RuleError> {
        let library = &self.inner.loaded.library;
        let names = self.names().clone();
        let roster = library
            .roster(&party.roster)
            .ok_or_else(|| RuleError::step(SETUP, format!("no roster `{}`", party.roster)))?;
        let costs =
            gloam_grammar::party_costs(party, roster, &self.inner.ruleset).unwrap_or_default();
        let default_base = self
            .inner
            .ruleset
            .constants
            .iter()
            .find(|c| c.name == BASE_CONSTANT)
            .map(|c| quantity_value(c.value));
        for (index, hero) in party.heroes.iter().enumerate() {
            let race = roster.race(&hero.race).ok_or_else(|| {
                RuleError::step(
                    SETUP,
                    format!("no race `{}` in roster `{}`", hero.race, roster.name),
                )
            })?;
            let subrace = hero.subrace.as_deref().and_then(|name| race.subrace(name));
            let diameter = race
                .base
                .map(|base| base.length.as_tenth_mm())
                .or(default_base)
                .ok_or_else(|| {
                    RuleError::step(
                        SETUP,
                        format!(
                            "race `{}` has no `base` and the ruleset no `{BASE_CONSTANT}` constant: a hero needs a base",
                            race.name
                        ),
                    )
                })?;
            let unit = *next_unit;
            *next_unit += 1;
            let worth = costs.get(index).map_or(0, gloam_grammar::HeroCost::total);
            let characteristics: Vec<(String, i64)> = race
                .stats
                .iter()
                .map(|stat| (stat.name.clone(), quantity_value(stat.value)))
                .chain([
                    (names.base_radius.clone(), diameter / 2),
                    (names.unit.clone(), unit),
                    (names.cost.clone(), worth),
                ])
                .collect();
            let piece = ctx.create_piece(player, &hero.name, characteristics)?;
            let profession = roster.profession(&hero.profession);
            let leader = hero.leader.then(|| roster.leader()).flatten();
            let keywords = race
                .keywords
                .iter()
                .chain(subrace.iter().flat_map(|s| s.keywords.iter()))
                .chain(profession.iter().flat_map(|p| p.keywords.iter()))
                .chain(leader.iter().flat_map(|p| p.keywords.iter()));
            for keyword in keywords {
                ctx.set_keyword(piece, keyword, true)?;
            }
            let zone = gloam_core::ZoneId::on_piece(player, names.equipped.clone(), piece);
            ctx.create_zone(zone.clone(), Visibility::Public)?;
            let mut carried: Vec<&str> = vec![race.name.as_str()];
            if let Some(subrace) = subrace.filter(|s| s.name != race.name) {
                carried.push(&subrace.name);
            }
            carried.extend(profession.map(|p| p.name.as_str()));
            carried.extend(leader.map(|p| p.name.as_str()));
            carried.extend(hero.equipment.iter().map(String::as_str));
            let known: Vec<&gloam_grammar::SpellDef> = hero
                .domains
                .iter()
                .filter_map(|domain| roster.domains.iter().find(|d| d.name == *domain))
                .flat_map(|domain| domain.spells.iter())
                // Its single spells, beside its domains (a profession's `spells`).
                .chain(hero.spells.iter().filter_map(|name| {
                    roster
                        .spells()
                        .find(|(_, spell)| spell.name == *name)
                        .map(|(_, spell)| spell)
                }))
                .collect();
            carried.extend(known.iter().map(|spell| spell.name.as_str()));
            // The creatures of its spells, after them: what a summoned model or a shape is
            // (a creature named as a spell, the Shade, has the spell's card and none of its
            // own).
            carried.extend(
                known
                    .iter()
                    .flat_map(|spell| spell.creatures.iter().map(|c| c.name.as_str()))
                    .filter(|name| !roster.spells().any(|(_, spell)| spell.name == *name)),
            );
            for name in carried {
                ctx.create_card(name, player, &zone)?;
            }
            for creature in known
                .iter()
                .flat_map(|spell| spell.creatures.iter())
                .filter(|c| c.form == SUMMONED)
            {
                let card = !roster
                    .spells()
                    .any(|(_, spell)| spell.name == creature.name);
                self.seat_summoned(ctx, player, creature, card, default_base, next_unit)?;
            }
        }
        // Every spell of the roster, one card each, in the seat's `grimoire` zone when the
        // ruleset declares one: what a rule that casts a spell its caster does not know
        // reads the spell's values from.
        if self
            .inner
            .ruleset
            .zones
            .iter()
            .any(|z| z.name == GRIMOIRE_ZONE)
        {
            let zone = ZoneId::new(player, GRIMOIRE_ZONE);
            for (_, spell) in roster.spells() {
                ctx.create_card(&spell.name, player, &zone)?;
            }
        }
        Ok(())
    }

    /// Creates, off the table, the models a hero's summoning spell may bring into play: the
    /// creature's `count` times the ruleset's `summoned_copies` constant (1 without one),
    /// each a piece named after the creature, owned by `player`, a unit of one, with the
    /// creature's `stats` (0 for a characteristic of the ruleset it does not list: a flyer
    /// has no M), the ruleset's `base`, a `cost` of 0 (a summoned model is worth nothing in
    /// Dragon Coins), the keyword `summoned` and the creature's keywords, and the creature's
    /// card (kind `creature`) in its `equipped` zone when it has one (`card`: not when a spell
    /// has its name). The flow sets them up and takes them off again.
    fn seat_summoned(
        &self,
        ctx: &mut Ctx<'_>,
        player: PlayerId,
        creature: &gloam_grammar::CreatureDef,
        card: bool,
        default_base: Option<i64>,
        next_unit: &mut i64,
    ) -> Result<(), RuleError> {
        let names = self.names().clone();
        let ruleset = &self.inner.ruleset;
        let copies = ruleset
            .constants
            .iter()
            .find(|c| c.name == SUMMONED_COPIES_CONSTANT)
            .map_or(1, |c| quantity_value(c.value));
        let diameter = default_base.ok_or_else(|| {
            RuleError::step(
                SETUP,
                format!(
                    "creature `{}` needs a base and the ruleset has no `{BASE_CONSTANT}` constant",
                    creature.name
                ),
            )
        })?;
        let mut stats: Vec<(String, i64)> = creature
            .stats
            .iter()
            .map(|stat| (stat.name.clone(), quantity_value(stat.value)))
            .collect();
        let set_here = [&names.cost, &names.base_radius, &names.unit];
        for characteristic in &ruleset.characteristics {
            if !set_here.contains(&&characteristic.name)
                && !stats.iter().any(|(name, _)| *name == characteristic.name)
            {
                stats.push((characteristic.name.clone(), 0));
            }
        }
        stats.retain(|(name, _)| !set_here.contains(&name));
        stats.push((names.cost.clone(), 0));
        stats.push((names.base_radius.clone(), diameter / 2));
        for _ in 0..creature.count.max(0) * copies.max(0) {
            let unit = *next_unit;
            *next_unit += 1;
            let characteristics = stats
                .iter()
                .cloned()
                .chain(std::iter::once((names.unit.clone(), unit)));
            let piece = ctx.create_piece(player, &creature.name, characteristics)?;
            ctx.set_keyword(piece, SUMMONED, true)?;
            for keyword in &creature.keywords {
                ctx.set_keyword(piece, keyword, true)?;
            }
            let zone = gloam_core::ZoneId::on_piece(player, names.equipped.clone(), piece);
            ctx.create_zone(zone.clone(), Visibility::Public)?;
            if card {
                ctx.create_card(&creature.name, player, &zone)?;
            }
        }
        Ok(())
    }

    /// Creates one piece off the table for each terrain feature the match's tables leave to
    /// be set up in play ([`gloam_dsl::Table::loose`], by name, across every layout), in
    /// layer [`gloam_dsl::TERRAIN_LAYER`], owned by the first seat: `set_up_terrain` puts
    /// it, and so the feature, on the table.
    fn terrain_pieces(&self, ctx: &mut Ctx<'_>) -> Result<(), RuleError> {
        let mut names: Vec<&str> = Vec::new();
        for (_, world) in &self.inner.layouts {
            for feature in world.table().map_or(&[][..], |t| t.loose.as_slice()) {
                if !names.contains(&feature.name.as_str()) {
                    names.push(&feature.name);
                }
            }
        }
        for name in names {
            ctx.create_piece_in(PlayerId(0), name, gloam_dsl::TERRAIN_LAYER, [])?;
        }
        Ok(())
    }

    fn script(&self, kind: &str, name: &str, field: &str) -> Result<&Script, RuleError> {
        self.inner.loaded.script(kind, name, field).ok_or_else(|| {
            RuleError::step(name, format!("the {kind} `{name}` has no `{field}` script"))
        })
    }

    /// A card's or an ability's effect receives what its window gives
    /// ([`gloam_dsl::Place`]): each variable the window gives that is not `optional` must be
    /// a fighter in the frame the flow queued; otherwise the flow broke the window's promise,
    /// and the game stops with an error that names the card, its window and where it is.
    fn check_window_values(
        &self,
        frame: &Frame,
        item_kind: &str,
        name: &str,
        script: &Script,
    ) -> Result<(), RuleError> {
        let place = crate::load::script_place(
            &self.inner.loaded.library,
            item_kind,
            name,
            &self.inner.ruleset.name,
        );
        let Some(window) = place.window() else {
            return Ok(());
        };
        for variable in window.required() {
            if matches!(frame.var(variable), Some(Value::Piece(_))) {
                continue;
            }
            let source = script.source();
            let line = source
                .file_text
                .get(..source.start)
                .map_or(1, |before| before.matches('\n').count() + 1);
            return Err(RuleError::step(
                frame.step.clone(),
                format!(
                    "{item_kind} `{name}` is used in window `{}`, which gives `{variable}`, but the step that woke it set no fighter `{variable}` (at {}:{line}); help: the flow must pass `{variable}` when it plays the {item_kind}, or the window must list it in `optional`",
                    window.name, source.file_name
                ),
            ));
        }
        Ok(())
    }

    fn run(
        &self,
        ctx: &mut Ctx<'_>,
        frame: &Frame,
        script: &Script,
        extra: &[(&str, Value)],
    ) -> Result<Control, RuleError> {
        // The acting player: the frame's `player`, else the owner of its `fighter` (a step
        // queued by an ability names only the fighter), else the first seat.
        let acting = match (frame.var("player"), frame.var("fighter")) {
            (Some(Value::Player(player)), _) => *player,
            (_, Some(Value::Piece(piece))) => {
                ctx.state().piece(*piece).map_or(PlayerId(0), |p| p.owner)
            }
            _ => PlayerId(0),
        };
        // `acting` binds `player` too.
        let mut bindings = Bindings::new().acting(acting);
        for (name, value) in &frame.vars {
            bindings = bindings.with(name.clone(), value.clone());
        }
        for (name, value) in extra {
            bindings = bindings.with(*name, value.clone());
        }
        let world = &self.layout_in(ctx.state()).1;
        let (state, log) = ctx.parts();
        let outcome = self
            .inner
            .host
            .run(script, world, state, log, &bindings, &frame.answers)
            .map_err(|error| match error.refused_answer() {
                // A free table point the rules checked and refused (`docs/kernel.md`).
                Some((kind, answer, reason)) => RuleError::AnswerRefused {
                    kind: kind.to_owned(),
                    answer: answer.to_owned(),
                    reason: reason.to_owned(),
                },
                None => RuleError::step(frame.step.clone(), located(&error)),
            })?;
        match outcome {
            Outcome::NeedsChoice(request) => Ok(Control::Ask(request)),
            // A simultaneous secret choice: every player is asked at once; the kernel keeps
            // each answer hidden until all are in, then reveals them together.
            Outcome::NeedsChoices(requests) => Ok(Control::AskAll(requests)),
            Outcome::NeedsChance(request) => Err(RuleError::ChanceNeeded(request)),
            Outcome::Done { flow, .. } => {
                let mut frames = Vec::new();
                for request in flow {
                    match request {
                        FlowRequest::Then { step, vars } => {
                            let mut next = Frame::new(step);
                            next.vars.extend(vars);
                            frames.push(next);
                        }
                        FlowRequest::PlayCard {
                            card,
                            fighter,
                            player,
                        } => {
                            let mut next = Frame::new(CARD)
                                .with("card", Value::Card(card))
                                .with("player", Value::Player(player));
                            if let Some(fighter) = fighter {
                                next = next.with("fighter", Value::Piece(fighter));
                            }
                            frames.push(next);
                        }
                        FlowRequest::EndGame(result) => return Ok(Control::End(result)),
                        _ => {
                            return Err(RuleError::step(
                                frame.step.clone(),
                                "the script asked for a flow change this driver does not know",
                            ));
                        }
                    }
                }
                Ok(Control::Replace(frames))
            }
            _ => Err(RuleError::step(
                frame.step.clone(),
                "the script ended in a way this driver does not know",
            )),
        }
    }
}

impl Rules for RulesetGame {
    fn start(&self, ctx: &mut Ctx<'_>, setup: &Setup) -> Result<(), RuleError> {
        let inner = &self.inner;
        let library = &inner.loaded.library;
        if setup.players.len() != inner.spec.seats.len() {
            return Err(RuleError::step(
                SETUP,
                format!(
                    "the match has {} seats but the setup names {} players",
                    inner.spec.seats.len(),
                    setup.players.len()
                ),
            ));
        }
        for characteristic in &inner.ruleset.characteristics {
            ctx.set_floor(&characteristic.name, characteristic.floor.unwrap_or(1))?;
        }
        // Units are numbered from 1 across the whole match, in seat order.
        let mut next_unit = 1;
        for (index, seat) in inner.spec.seats.iter().enumerate() {
            let player = PlayerId(index as u8);
            // The ruleset's zones, as it declares them (`zones = [...]`), in its order.
            for zone in &inner.ruleset.zones {
                ctx.create_zone(ZoneId::new(player, zone.name.as_str()), zone.visibility)?;
            }
            for (deck, cards) in decks_for(&inner.loaded, &inner.ruleset, seat) {
                let zone = ZoneId::new(player, format!("{deck}_deck"));
                if !ctx.state().zones.contains_key(&zone) {
                    ctx.create_zone(zone.clone(), Visibility::Nobody)?;
                }
                for card in cards {
                    ctx.create_card(&card, player, &zone)?;
                }
                ctx.shuffle(&zone)?;
            }
            if let Some(party) = &seat.party {
                let party = library
                    .party(party)
                    .ok_or_else(|| RuleError::step(SETUP, format!("no party `{party}`")))?;
                self.seat_party(ctx, player, party, &mut next_unit)?;
                continue;
            }
            if let Some(army) = &seat.army {
                let army = library
                    .army(army)
                    .ok_or_else(|| RuleError::step(SETUP, format!("no army `{army}`")))?;
                self.seat_army(ctx, player, army, &mut next_unit)?;
                continue;
            }
            let warband = library
                .warband(&seat.warband)
                .ok_or_else(|| RuleError::step(SETUP, format!("no warband `{}`", seat.warband)))?;
            for fighter in &warband.fighters {
                // The fighter's characteristics, plus 0 for each one the ruleset declares
                // that the fighter does not list and whose floor allows 0 (modifier-only
                // characteristics such as `attack_dice`); a characteristic with a floor
                // above 0 that the fighter lacks (`wizard_level`) stays absent.
                let stats = inner.ruleset.characteristics.iter().filter_map(|c| {
                    match fighter.stat(&c.name) {
                        Some(value) => Some((c.name.clone(), value)),
                        None if c.floor.unwrap_or(1) <= 0 => Some((c.name.clone(), 0)),
                        None => None,
                    }
                });
                let piece = ctx.create_piece(player, &fighter.name, stats)?;
                for keyword in &fighter.keywords {
                    ctx.set_keyword(piece, keyword, true)?;
                }
            }
            ctx.set_counter(Scope::Player(player), "glory", 0)?;
        }
        // On a measured table, the features set up in play, after every seat's pieces.
        self.terrain_pieces(ctx)?;
        Ok(())
    }

    fn step(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
        match frame.step.as_str() {
            SETUP => match self
                .inner
                .loaded
                .script("ruleset", &self.inner.ruleset.name, "setup")
            {
                Some(script) => self.run(ctx, frame, script, &[]),
                None => {
                    let first = self.inner.ruleset.steps.first().ok_or_else(|| {
                        RuleError::step(SETUP, "the ruleset has neither a setup script nor a step")
                    })?;
                    Ok(Control::Replace(vec![Frame::new(first.name.clone())]))
                }
            },
            CARD => {
                let card = match frame.var("card") {
                    Some(Value::Card(card)) => *card,
                    _ => return Err(RuleError::step(CARD, "a card frame needs a `card` value")),
                };
                let name = ctx
                    .state()
                    .cards
                    .get(&card)
                    .ok_or(RuleError::UnknownCard { card })?
                    .name
                    .clone();
                match self.inner.loaded.script("card", &name, "effect") {
                    Some(script) => {
                        self.check_window_values(frame, "card", &name, script)?;
                        let mut extra = vec![("this_card", Value::Card(card))];
                        if let Some(fighter) = frame.var("fighter").cloned() {
                            extra.push(("this_fighter", fighter));
                        }
                        self.run(ctx, frame, script, &extra)
                    }
                    None => Ok(Control::Done),
                }
            }
            ABILITY => {
                let name = frame
                    .var("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| RuleError::step(ABILITY, "an ability frame needs a `name`"))?
                    .to_owned();
                let script = self.script("ability", &name, "effect")?;
                self.check_window_values(frame, "ability", &name, script)?;
                let mut extra = Vec::new();
                if let Some(fighter) = frame.var("fighter").cloned() {
                    extra.push(("this_fighter", fighter));
                }
                self.run(ctx, frame, script, &extra)
            }
            step => {
                // The steps with a `run` script, by name; the ruleset's list of steps is
                // searched only to say why a step is missing from them.
                let Some(&index) = self.inner.steps.get(step) else {
                    if !self.inner.ruleset.steps.iter().any(|s| s.name == step) {
                        return Err(RuleError::step(
                            step,
                            "the ruleset has no step of this name",
                        ));
                    }
                    return Err(RuleError::step(
                        step,
                        format!("the step `{step}` has no `run` script"),
                    ));
                };
                self.run(ctx, frame, &self.inner.loaded.scripts[index].script, &[])
            }
        }
    }
}

/// A characteristic as scripts read it: a length in tenths of a millimetre, a number as
/// written (as [`crate::world::constants_of`] reads constants).
fn quantity_value(quantity: gloam_grammar::Quantity) -> i64 {
    match quantity {
        gloam_grammar::Quantity::Number(number) => number,
        gloam_grammar::Quantity::Length(measure) => measure.length.as_tenth_mm(),
    }
}

/// The layouts of a match on a measured table: one for each table and deployment map the
/// match leaves open (`choice`: the named ones, or all of the ruleset's), each world the
/// match's (`extend` adds what the seats bring) with that table, the map's territories held
/// by the seats in order, and the features not placed by the match set up in play.
fn table_worlds(
    loaded: &Loaded,
    ruleset: &RulesetDef,
    spec: &MatchSpec,
    choice: &TableChoice,
    extend: impl FnOnce(World) -> World,
) -> Result<Vec<(Battlefield, World)>, EngineError> {
    let library = &loaded.library;
    let chain = loaded.ruleset_chain(&ruleset.name);
    let tables: Vec<&gloam_grammar::TableDef> = match &choice.table {
        Some(name) => vec![library.table(name).ok_or_else(|| {
            unknown(
                "table",
                name,
                library.tables().iter().map(|t| t.name.as_str()),
            )
        })?],
        None => library
            .tables()
            .iter()
            .filter(|t| chain.contains(&t.ruleset.as_str()))
            .collect(),
    };
    // A map the match names is used whatever it serves (its territories are checked
    // below); otherwise each map serving the number of seats.
    let mut layouts: Vec<(&gloam_grammar::TableDef, String)> = Vec::new();
    for def in &tables {
        for map in &def.maps {
            let wanted = match &choice.map {
                Some(chosen) => *chosen == map.name,
                None => map.serves(spec.seats.len()),
            };
            if wanted {
                layouts.push((def, map.name.clone()));
            }
        }
    }
    if layouts.is_empty() && choice.map.is_none() {
        let maps: Vec<String> = tables
            .iter()
            .flat_map(|def| def.maps.iter().map(|map| format!("`{}`", map.name)))
            .collect();
        if !maps.is_empty() {
            return Err(setup_error(format!(
                "no deployment map of ruleset `{}` serves {} players (maps: {})",
                ruleset.name,
                spec.seats.len(),
                maps.join(", ")
            )));
        }
    }
    if layouts.is_empty() {
        return Err(setup_error(match (&choice.table, &choice.map) {
            (_, Some(map)) => format!("no table of the match has a deployment map `{map}`"),
            _ => format!(
                "ruleset `{}` has no table with a deployment map",
                ruleset.name
            ),
        }));
    }
    let battlefield = Battlefield::from_hexes([(Hex::ORIGIN, Vec::<String>::new())]);
    let dice = dice_of(ruleset)?;
    let base = extend(crate::world::world_for(
        loaded,
        ruleset,
        battlefield.clone(),
        dice,
        spec,
    ))
    .with_table_layouts(
        layouts
            .iter()
            .map(|(def, map)| (def.name.clone(), map.clone())),
    );
    let mut worlds = Vec::new();
    for (def, map) in &layouts {
        let table = crate::world::table_of(def, map, &[]).map_err(setup_error)?;
        if table.territories.len() < spec.seats.len() {
            return Err(setup_error(format!(
                "map `{map}` of table `{}` has {} territories for {} seats",
                def.name,
                table.territories.len(),
                spec.seats.len()
            )));
        }
        let territories: Vec<String> = table.territories.iter().map(|(n, _)| n.clone()).collect();
        let mut world = base.clone().with_table(table);
        for (index, territory) in territories.into_iter().take(spec.seats.len()).enumerate() {
            world = world.with_territory(PlayerId(index as u8), territory);
        }
        worlds.push((battlefield.clone(), world));
    }
    Ok(worlds)
}

/// A table ruleset with no flow yet (neither a `setup` script nor a step) is refused when
/// its match is set up, where hosts report a match that cannot be, rather than when its game
/// starts.
fn require_flow(loaded: &Loaded, ruleset: &RulesetDef) -> Result<(), EngineError> {
    if ruleset.steps.is_empty() && loaded.script("ruleset", &ruleset.name, "setup").is_none() {
        return Err(setup_error(format!(
            "ruleset `{}` has neither a setup script nor a step: it cannot be played",
            ruleset.name
        )));
    }
    Ok(())
}

/// [`RulesetGame::new`] for a match on a measured table: every seat brings an army; the
/// world is the table's chosen map ([`crate::world::table_of`], no terrain placed), each
/// seat's territory the map's territory of its index. The kernel still needs a hex
/// battlefield: a single hex, which no table rule reads.
fn table_match(
    loaded: Rc<Loaded>,
    host: Rc<Host>,
    ruleset: RulesetDef,
    spec: MatchSpec,
    choice: &TableChoice,
) -> Result<RulesetGame, EngineError> {
    let library = &loaded.library;
    require_flow(&loaded, &ruleset)?;
    for (index, seat) in spec.seats.iter().enumerate() {
        let army = seat.army.as_deref().ok_or_else(|| {
            setup_error(format!(
                "seat {index} (`{}`) brings no army, and a match on a table needs one per seat",
                seat.name
            ))
        })?;
        if library.army(army).is_none() {
            return Err(unknown(
                "army",
                army,
                library.armies().iter().map(|a| a.name.as_str()),
            ));
        }
    }
    let worlds = table_worlds(&loaded, &ruleset, &spec, choice, |world| {
        crate::world::with_model_weapons(world, &loaded, &spec)
    })?;
    Ok(RulesetGame::assemble(loaded, host, worlds, ruleset, spec))
}

/// The ruleset constant giving a hero's base diameter when its race gives none.
pub const BASE_CONSTANT: &str = "base";

/// The form of a creature that comes into play as a model of its own (a roster's `creature
/// { form = summoned }`), and the keyword its models carry.
pub const SUMMONED: &str = "summoned";

/// The ruleset constant saying how many times a creature's `count` of models a caster brings
/// off the table for its summoning spells (1 when the ruleset has none).
pub const SUMMONED_COPIES_CONSTANT: &str = "summoned_copies";

/// The player zone a party match fills with one card of each spell of the roster, when the
/// ruleset declares it.
pub const GRIMOIRE_ZONE: &str = "grimoire";

/// [`RulesetGame::new`] for a match on a measured table whose seats bring parties (`party`
/// items of a role-playing skirmish game): every seat brings one; the world is the table's
/// chosen map as in [`table_match`] (no terrain placed), each seat's territory the map's
/// territory of its index, and the card catalog holds what the parties' rosters describe
/// ([`crate::world::with_roster`]).
fn party_match(
    loaded: Rc<Loaded>,
    host: Rc<Host>,
    ruleset: RulesetDef,
    spec: MatchSpec,
    choice: &TableChoice,
) -> Result<RulesetGame, EngineError> {
    let library = &loaded.library;
    require_flow(&loaded, &ruleset)?;
    let mut rosters: Vec<&gloam_grammar::RosterDef> = Vec::new();
    for (index, seat) in spec.seats.iter().enumerate() {
        let name = seat.party.as_deref().ok_or_else(|| {
            setup_error(format!(
                "seat {index} (`{}`) brings no party, and this match needs one per seat",
                seat.name
            ))
        })?;
        let party = library.party(name).ok_or_else(|| {
            unknown(
                "party",
                name,
                library.parties().iter().map(|p| p.name.as_str()),
            )
        })?;
        let roster = library.roster(&party.roster).ok_or_else(|| {
            unknown(
                "roster",
                &party.roster,
                library.rosters().iter().map(|r| r.name.as_str()),
            )
        })?;
        if !rosters.iter().any(|r| r.name == roster.name) {
            rosters.push(roster);
        }
    }
    let parties: Vec<gloam_dsl::PartyInfo> = spec
        .seats
        .iter()
        .filter_map(|seat| seat.party.as_deref().and_then(|name| library.party(name)))
        .map(|party| {
            gloam_dsl::PartyInfo::new(
                party.name.clone(),
                party.alignment.clone(),
                party.guild.clone(),
                party.points,
            )
        })
        .collect();
    let worlds = table_worlds(&loaded, &ruleset, &spec, choice, |mut world| {
        for roster in rosters {
            world = crate::world::with_roster(world, roster);
        }
        for (index, party) in parties.into_iter().enumerate() {
            world = world.with_party(PlayerId(index as u8), party);
        }
        world
    })?;
    Ok(RulesetGame::assemble(loaded, host, worlds, ruleset, spec))
}

/// A script's error as one line that says where it is, as `gloam check` does: the script
/// (`card "Heroic Shove" effect`), what failed, then the file, line and column of the call
/// that failed in the data file, and the help when there is one.
fn located(error: &gloam_dsl::DslDiagnostic) -> String {
    use miette::Diagnostic as _;
    let mut message = error.to_string();
    if let Some(at) = crate::load::locate(error) {
        message.push_str(&format!(" (at {}:{}:{})", at.file, at.line, at.column));
    }
    if let Some(help) = error.help() {
        message.push_str(&format!("; help: {help}"));
    }
    message
}

/// The dice a ruleset declares, as the kernel's definitions.
pub(crate) fn dice_of(ruleset: &RulesetDef) -> Result<Dice, EngineError> {
    let defs = ruleset
        .dice
        .iter()
        .map(|die| {
            let faces = die
                .faces
                .iter()
                .map(|f| {
                    let face = gloam_core::DieFace::new(f.name.clone(), f.count.max(0) as u32);
                    // A face's value is the die's `values` entry, else, for a numbered
                    // die (`sides = 6`), its pips.
                    let pips = die.sides.and(f.name.parse::<i64>().ok());
                    match die.values.iter().find(|v| v.name == f.name) {
                        Some(value) => face.with_value(value.count),
                        None => match pips {
                            Some(pips) => face.with_value(pips),
                            None => face,
                        },
                    }
                })
                .collect();
            gloam_core::DieDef::new(die.name.clone(), faces)
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(setup_error)?;
    Dice::from_defs(defs).map_err(setup_error)
}

/// The decks of a seat: those its decklist lists, in its order, then every other deck of
/// the ruleset with every card of the ruleset (or a ruleset it extends) its warband may
/// take, sorted by name.
fn decks_for(loaded: &Loaded, ruleset: &RulesetDef, seat: &Seat) -> Vec<(String, Vec<String>)> {
    let library = &loaded.library;
    let mut decks: Vec<(String, Vec<String>)> = Vec::new();
    if let Some(decklist) = seat.decklist.as_deref().and_then(|d| library.decklist(d)) {
        decks.extend(
            decklist
                .decks
                .iter()
                .map(|deck| (deck.name.clone(), deck.cards.clone())),
        );
    }
    let alliance = match &seat.army {
        Some(army) => library
            .army(army)
            .and_then(|a| a.alliance.clone())
            .unwrap_or_default(),
        None => library
            .warband(&seat.warband)
            .map(|w| w.alliance.clone())
            .unwrap_or_default(),
    };
    // Cards written for this ruleset or one it extends; a sibling edition's are not dealt.
    let chain = loaded.ruleset_chain(&ruleset.name);
    let listed: Vec<String> = decks.iter().map(|(name, _)| name.clone()).collect();
    decks.extend(
        ruleset
            .decks
            .iter()
            .filter(|deck| !listed.contains(&deck.name))
            .map(|deck| {
                let mut cards: Vec<String> = library
                    .cards()
                    .iter()
                    .filter(|card| chain.contains(&card.ruleset.as_str()))
                    .filter(|card| deck.kinds.contains(&card.kind))
                    .filter(|card| match &card.owner {
                        gloam_grammar::Owner::Warband(name) => *name == seat.warband,
                        gloam_grammar::Owner::Universal => true,
                        gloam_grammar::Owner::Alliance(name) => *name == alliance,
                    })
                    .map(|card| card.name.clone())
                    .collect();
                cards.sort();
                (deck.name.clone(), cards)
            }),
    );
    decks
}

/// The territory name of seat `index`.
pub fn territory_of(index: usize) -> String {
    format!("player{index}")
}

/// The ways the battlefield may be laid out, each with its name, in order: each seat's board
/// where each of the ruleset's `battlefield` items for this number of players puts it (all
/// of them, for the flow to choose from with `lay_out_battlefield`); without such an item,
/// the second board turned half a turn and laid against the first so that their half hexes
/// meet (the offset completing the most hexes wins; ties go to the smallest offset), with no
/// name. Each board is its player's territory. A first seat's board with no half hexes
/// cannot be joined: it is the whole battlefield, shared by every seat (the rules tell its
/// territories apart by hex types).
fn battlefields_for(
    loaded: &Loaded,
    ruleset: &RulesetDef,
    spec: &MatchSpec,
) -> Result<Vec<(Option<String>, Battlefield)>, EngineError> {
    let library = &loaded.library;
    // The boards of the ruleset or of one it extends (a mode built on an edition plays on
    // the edition's boards).
    let chain = loaded.ruleset_chain(&ruleset.name);
    let mut available = library.boards().iter().filter(|b| {
        chain.contains(&b.ruleset.as_str())
            || library
                .ruleset(&b.ruleset)
                .is_some_and(|r| r.name == ruleset.name)
    });
    let mut boards: Vec<Board> = Vec::new();
    for (index, seat) in spec.seats.iter().enumerate() {
        let def: &BoardDef = match &seat.board {
            Some(name) => library.board(name).ok_or_else(|| {
                unknown(
                    "board",
                    name,
                    library.boards().iter().map(|b| b.name.as_str()),
                )
            })?,
            None => available.next().ok_or_else(|| {
                setup_error(format!(
                    "ruleset `{}` has no board for seat {index}",
                    ruleset.name
                ))
            })?,
        };
        // A board with no half hexes has no edge to join another by: it is a whole
        // battlefield, shared by every seat, and its territories are the hexes' own.
        if index == 0 && def.half_hexes.is_empty() {
            return Battlefield::join(&[(def.to_board(), Placement::IDENTITY)], 0)
                .map(|battlefield| vec![(None, battlefield)])
                .map_err(setup_error);
        }
        boards.push(def.to_board().with_territory(territory_of(index)));
    }
    // The ruleset's layouts for this number of players, if it writes any (its `battlefield`
    // items): each seat's board turned and moved as written.
    let written: Vec<_> = ruleset
        .battlefields
        .iter()
        .filter(|b| usize::try_from(b.players).ok() == Some(boards.len()))
        .collect();
    if !written.is_empty() {
        return written
            .into_iter()
            .map(|layout| {
                join_as_written(layout, boards.clone())
                    .map(|battlefield| (Some(layout.name.clone()), battlefield))
            })
            .collect();
    }
    let single = match boards.len() {
        0 => Err(setup_error("a match needs at least one seat")),
        1 => Battlefield::join(&[(boards.remove(0), Placement::IDENTITY)], 0).map_err(setup_error),
        2 => {
            let first = boards.remove(0);
            let second = boards.remove(0);
            let placement = best_facing_placement(&first, &second)
                .ok_or_else(|| setup_error("the two boards have no half hexes that can meet"))?;
            Battlefield::join(&[(first, Placement::IDENTITY), (second, placement)], 1)
                .map_err(setup_error)
        }
        n => Err(setup_error(format!(
            "ruleset `{}` lays out no battlefield for {n} players (a `battlefield` item with `players = {n}`)",
            ruleset.name
        ))),
    };
    single.map(|battlefield| vec![(None, battlefield)])
}

/// Joins the seats' boards where a ruleset's `battlefield` item puts them.
fn join_as_written(
    layout: &gloam_grammar::BattlefieldDef,
    boards: Vec<Board>,
) -> Result<Battlefield, EngineError> {
    if layout.seats.len() != boards.len() {
        return Err(setup_error(format!(
            "battlefield `{}` places {} boards for {} seats",
            layout.name,
            layout.seats.len(),
            boards.len()
        )));
    }
    let coordinate = |value: i64, what: &str| {
        i32::try_from(value).map_err(|_| {
            setup_error(format!(
                "battlefield `{}`: {what} {value} is out of range",
                layout.name
            ))
        })
    };
    let mut placed = Vec::with_capacity(boards.len());
    for (board, seat) in boards.into_iter().zip(&layout.seats) {
        let offset = Hex::new(coordinate(seat.q, "q")?, coordinate(seat.r, "r")?);
        let rotation = u32::try_from(seat.turn.rem_euclid(6)).unwrap_or(0);
        placed.push((board, Placement::new(rotation, offset)));
    }
    let min_completed = u32::try_from(layout.min_completed.unwrap_or(1).max(0)).unwrap_or(0);
    Battlefield::join(&placed, min_completed).map_err(setup_error)
}

/// The placement of `second`, turned half a turn, that completes the most half hexes of
/// `first` without overlapping its full hexes.
fn best_facing_placement(first: &Board, second: &Board) -> Option<Placement> {
    let rotation = 3;
    let full: std::collections::BTreeSet<Hex> = first.hexes.iter().map(|h| h.hex).collect();
    let halves: std::collections::BTreeSet<Hex> = first.half_hexes.iter().map(|h| h.hex).collect();
    let turned_full: Vec<Hex> = second
        .hexes
        .iter()
        .map(|h| h.hex.rotate_cw(rotation))
        .collect();
    let turned_halves: Vec<Hex> = second
        .half_hexes
        .iter()
        .map(|h| h.hex.rotate_cw(rotation))
        .collect();
    let mut best: Option<(usize, Hex)> = None;
    let mut offsets: BTreeMap<Hex, ()> = BTreeMap::new();
    for a in &halves {
        for b in &turned_halves {
            offsets.insert(a.sub(*b), ());
        }
    }
    for offset in offsets.keys() {
        let overlap = turned_full
            .iter()
            .any(|h| full.contains(&h.add(*offset)) || halves.contains(&h.add(*offset)));
        if overlap {
            continue;
        }
        let completed = turned_halves
            .iter()
            .filter(|h| halves.contains(&h.add(*offset)))
            .count();
        if best.is_none_or(|(count, _)| completed > count) {
            best = Some((completed, *offset));
        }
    }
    best.map(|(_, offset)| Placement::new(rotation, offset))
}

/// The result when a script ends the game without winners: a draw between everyone.
pub fn draw(players: usize, reason: &str) -> GameResult {
    GameResult {
        winners: (0..players).map(|p| PlayerId(p as u8)).collect(),
        reason: reason.to_owned(),
    }
}
