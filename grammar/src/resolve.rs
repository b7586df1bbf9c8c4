//! `extends`: a ruleset inherits every named part of its parent, overrides the parts it
//! redefines, and drops those its `remove` names.
//!
//! Merging, part by part:
//! - name lists (`hex_types`, `keywords`...): the parent's entries, then the child's new ones;
//! - named items (`die`, `window`, `step`...) and `zones` entries: a child's part replaces the
//!   parent's part of the same name in place (a zone keeps its place and takes the child's
//!   visibility); new ones are appended;
//! - single values and scripts (`rounds`, `setup`...): the child's value when it sets one;
//! - `remove = [part: name]` drops inherited parts before the child's own are merged, so a
//!   ruleset can remove a part and define a new one of the same name.

use std::collections::BTreeMap;

use crate::ast::{Element, Item, Span, Value};
use crate::build::elements;
use crate::defs::{PartKind, RemoveDef, RulesetDef};
use crate::diagnostic::{FileRef, GrammarDiagnostic};
use crate::suggest;

/// A ruleset as declared, with where it was written.
pub(crate) struct Declared<'a> {
    pub(crate) def: RulesetDef,
    pub(crate) file: &'a FileRef,
    pub(crate) item: &'a Item,
}

fn extends_span(item: &Item) -> Span {
    item.field("extends")
        .map_or(item.header_span(), |field| field.value.span())
}

/// Resolves every ruleset whose chain of parents is complete and acyclic.
pub(crate) fn resolve(
    declared: &[Declared<'_>],
    out: &mut Vec<GrammarDiagnostic>,
) -> BTreeMap<String, RulesetDef> {
    let index: BTreeMap<&str, usize> = declared
        .iter()
        .enumerate()
        .map(|(position, ruleset)| (ruleset.def.name.as_str(), position))
        .rev() // the first of duplicate names wins
        .collect();
    let mut resolved: BTreeMap<String, RulesetDef> = BTreeMap::new();
    // Rulesets that cannot be resolved (unknown parent, cycle, or a broken ancestor).
    let mut broken: Vec<usize> = Vec::new();

    for start in 0..declared.len() {
        if index.get(declared[start].def.name.as_str()) != Some(&start) {
            continue; // a duplicate, already reported
        }
        // Walk up to a resolved ancestor, a root, a missing parent or a cycle.
        let mut chain: Vec<usize> = vec![start];
        let mut failed = false;
        loop {
            let current = chain[chain.len() - 1];
            if resolved.contains_key(&declared[current].def.name) || broken.contains(&current) {
                failed = broken.contains(&current);
                chain.pop();
                break;
            }
            let Some(parent_name) = declared[current].def.extends.as_deref() else {
                break;
            };
            let Some(&parent) = index.get(parent_name) else {
                let ruleset = &declared[current];
                out.push(GrammarDiagnostic::UnknownParent {
                    name: parent_name.to_string(),
                    src: ruleset.file.src(),
                    span: ruleset.file.span(extends_span(ruleset.item)),
                    help: suggest::help(
                        parent_name,
                        index
                            .keys()
                            .copied()
                            .filter(|name| *name != ruleset.def.name),
                        "load the file that declares it",
                    ),
                });
                failed = true;
                break;
            };
            if let Some(position) = chain.iter().position(|&member| member == parent) {
                let mut names: Vec<&str> = chain[position..]
                    .iter()
                    .map(|&member| declared[member].def.name.as_str())
                    .collect();
                names.push(parent_name);
                let ruleset = &declared[current];
                out.push(GrammarDiagnostic::ExtendsCycle {
                    chain: names.join(" -> "),
                    src: ruleset.file.src(),
                    span: ruleset.file.span(extends_span(ruleset.item)),
                    help: "a ruleset cannot be its own ancestor: remove one `extends`".to_string(),
                });
                failed = true;
                break;
            }
            chain.push(parent);
        }
        if failed {
            broken.extend(chain);
            continue;
        }
        // Resolve from the top of the chain down.
        for &member in chain.iter().rev() {
            let ruleset = &declared[member];
            let merged = match ruleset.def.extends.as_deref() {
                None => ruleset.def.clone(),
                Some(parent_name) => match resolved.get(parent_name) {
                    Some(parent) => merge(parent, ruleset, out),
                    None => {
                        broken.push(member);
                        continue;
                    }
                },
            };
            resolved.insert(ruleset.def.name.clone(), merged);
        }
    }
    resolved
}

fn merge_names(inherited: &mut Vec<String>, own: &[String]) {
    for name in own {
        if !inherited.contains(name) {
            inherited.push(name.clone());
        }
    }
}

/// Parts with a name, merged by name.
trait Named: Clone {
    fn part_name(&self) -> &str;
}

macro_rules! named {
    ($($type:ty),*) => {
        $(impl Named for $type {
            fn part_name(&self) -> &str {
                &self.name
            }
        })*
    };
}

named!(
    crate::defs::BattlefieldDef,
    crate::defs::AbilityDef,
    crate::defs::ConstantDef,
    crate::defs::LimitDef,
    crate::defs::CharacteristicDef,
    crate::defs::DieDef,
    crate::defs::WindowDef,
    crate::defs::StepDef,
    crate::defs::ActionDef,
    crate::defs::DeckDef,
    crate::defs::ZoneDef,
    crate::defs::InvariantDef
);

fn merge_items<T: Named>(inherited: &mut Vec<T>, own: &[T]) {
    for part in own {
        match inherited
            .iter_mut()
            .find(|existing| existing.part_name() == part.part_name())
        {
            Some(existing) => *existing = part.clone(),
            None => inherited.push(part.clone()),
        }
    }
}

/// Removes the part `name` from `parts`; whether it was there.
fn remove_item<T: Named>(parts: &mut Vec<T>, name: &str) -> bool {
    let before = parts.len();
    parts.retain(|part| part.part_name() != name);
    parts.len() != before
}

fn remove_name(names: &mut Vec<String>, name: &str) -> bool {
    let before = names.len();
    names.retain(|existing| existing != name);
    names.len() != before
}

fn apply_remove(ruleset: &mut RulesetDef, removal: &RemoveDef) -> bool {
    let name = removal.name.as_str();
    match removal.part {
        PartKind::Characteristic => remove_item(&mut ruleset.characteristics, name),
        PartKind::Die => remove_item(&mut ruleset.dice, name),
        PartKind::Window => remove_item(&mut ruleset.windows, name),
        PartKind::Step => remove_item(&mut ruleset.steps, name),
        PartKind::Action => remove_item(&mut ruleset.actions, name),
        PartKind::Deck => remove_item(&mut ruleset.decks, name),
        PartKind::HexType => remove_name(&mut ruleset.hex_types, name),
        PartKind::Token => remove_name(&mut ruleset.tokens, name),
        PartKind::Counter => remove_name(&mut ruleset.counters, name),
        PartKind::Keyword => remove_name(&mut ruleset.keywords, name),
        PartKind::CardKind => remove_name(&mut ruleset.card_kinds, name),
        PartKind::ScoreTiming => remove_name(&mut ruleset.score_timings, name),
        PartKind::Alliance => remove_name(&mut ruleset.alliances, name),
        PartKind::Zone => remove_item(&mut ruleset.zones, name),
        PartKind::Invariant => remove_item(&mut ruleset.invariants, name),
    }
}

/// The span of the name in the `remove` entry `part: name`.
fn remove_span(item: &Item, part: PartKind, name: &str) -> Span {
    for element in elements(item, "remove") {
        if let Element::Pair(pair) = element
            && pair.key.value == part.name()
            && let Value::Ident(value) | Value::String(value) = &pair.value
            && value.value == name
        {
            return value.span;
        }
    }
    item.header_span()
}

fn merge(
    parent: &RulesetDef,
    child: &Declared<'_>,
    out: &mut Vec<GrammarDiagnostic>,
) -> RulesetDef {
    let own = &child.def;
    let mut merged = parent.clone();
    for removal in &own.remove {
        if !apply_remove(&mut merged, removal) {
            let known = parent.names(removal.part);
            let what = format!("inherited {}", removal.part.name().replace('_', " "));
            out.push(GrammarDiagnostic::UnknownName {
                what: what.clone(),
                name: removal.name.clone(),
                src: child.file.src(),
                span: child
                    .file
                    .span(remove_span(child.item, removal.part, &removal.name)),
                help: suggest::help(
                    &removal.name,
                    known,
                    &format!("`{}` has no such part to remove", parent.name),
                ),
            });
        }
    }
    merged.name = own.name.clone();
    merged.extends = own.extends.clone();
    merged.remove = own.remove.clone();
    merged.title = own.title.clone();
    merged.about = own.about.clone().or(merged.about);
    merged.rounds = own.rounds.or(merged.rounds);
    merged.min_players = own.min_players.or(merged.min_players);
    merged.max_players = own.max_players.or(merged.max_players);
    merged.off_board_blocks_sight = own.off_board_blocks_sight.or(merged.off_board_blocks_sight);
    // A setting the ruleset sets again is its own, ours only if it says so.
    let restated = |name: &str| match name {
        "rounds" => own.rounds.is_some(),
        "min_players" => own.min_players.is_some(),
        "max_players" => own.max_players.is_some(),
        "off_board_blocks_sight" => own.off_board_blocks_sight.is_some(),
        _ => false,
    };
    merged.ours.retain(|name| !restated(name));
    merge_names(&mut merged.ours, &own.ours);
    merge_names(&mut merged.hex_types, &own.hex_types);
    merge_names(&mut merged.tokens, &own.tokens);
    merge_names(&mut merged.counters, &own.counters);
    merge_names(&mut merged.keywords, &own.keywords);
    merge_names(&mut merged.card_kinds, &own.card_kinds);
    merge_names(&mut merged.score_timings, &own.score_timings);
    merge_names(&mut merged.alliances, &own.alliances);
    merge_items(&mut merged.zones, &own.zones);
    merged.setup = own.setup.clone().or(merged.setup);
    merged.scoring = own.scoring.clone().or(merged.scoring);
    merged.victory = own.victory.clone().or(merged.victory);
    merge_items(&mut merged.characteristics, &own.characteristics);
    merge_items(&mut merged.dice, &own.dice);
    merge_items(&mut merged.windows, &own.windows);
    merge_items(&mut merged.steps, &own.steps);
    merge_items(&mut merged.actions, &own.actions);
    merge_items(&mut merged.invariants, &own.invariants);
    merge_items(&mut merged.decks, &own.decks);
    merge_items(&mut merged.battlefields, &own.battlefields);
    merged.unit = own.unit.clone().or(merged.unit);
    merge_names(&mut merged.weapon_abilities, &own.weapon_abilities);
    merge_names(&mut merged.flags, &own.flags);
    merge_names(&mut merged.terrain_kinds, &own.terrain_kinds);
    merge_names(&mut merged.terrain_rules, &own.terrain_rules);
    merge_names(&mut merged.frequencies, &own.frequencies);
    merge_items(&mut merged.army_choices, &own.army_choices);
    merge_items(&mut merged.abilities, &own.abilities);
    merge_items(&mut merged.constants, &own.constants);
    merged
}
