//! Checked items → typed definitions, with the checks on values that need more than a type:
//! ranges, `side`, `remove` and restriction keys, legends and board layouts.
//!
//! The schema has already reported wrong types and missing fields; here a value of the wrong
//! type is skipped and an item without a required field yields no definition.

use crate::ast::{Element, Item, Measure, Span, Value};
use crate::defs::{
    AbilityDef, ActionDef, Amount, AreaDef, ArmyDef, BattlefieldDef, BoardDef, BoardHexDef,
    CardDef, CharacteristicDef, ConstantDef, DeckCardsDef, DeckDef, DecklistDef, DieDef, FaceDef,
    FighterDef, InvariantDef, KeywordDef, LegendDef, LimitDef, MapDef, ObjectiveDef, Owner,
    PartDef, PartKind, PlacementDef, PointDef, Quantity, RemoveDef, Restriction, RulesetDef,
    ScriptDef, Side, StatDef, StepDef, SymbolDef, TableDef, TableWeaponDef, TerrainDef,
    TerritoryDef, VISIBILITIES, ValueDef, WarbandDef, WarscrollDef, WeaponAbilityDef, WeaponDef,
    WindowDef, ZoneDef,
};
use crate::diagnostic::{FileRef, GrammarDiagnostic};
use crate::layout::{self, LAYOUT_HELP};
use crate::suggest;

/// The reserved legend value marking half hexes.
pub(crate) const HALF: &str = "half";

/// Where definitions are built: the file (for spans) and the diagnostics sink.
pub(crate) struct Builder<'a> {
    pub(crate) file: &'a FileRef,
    pub(crate) out: &'a mut Vec<GrammarDiagnostic>,
}

pub(crate) fn value<'i>(item: &'i Item, key: &str) -> Option<&'i Value> {
    item.field(key).map(|field| &field.value)
}

pub(crate) fn string(item: &Item, key: &str) -> Option<String> {
    match value(item, key) {
        Some(Value::String(text)) => Some(text.value.clone()),
        _ => None,
    }
}

pub(crate) fn int(item: &Item, key: &str) -> Option<i64> {
    match value(item, key) {
        Some(Value::Int(number)) => Some(number.value),
        _ => None,
    }
}

fn boolean(item: &Item, key: &str) -> Option<bool> {
    match value(item, key) {
        Some(Value::Bool(flag)) => Some(flag.value),
        _ => None,
    }
}

pub(crate) fn ident(item: &Item, key: &str) -> Option<String> {
    match value(item, key) {
        Some(Value::Ident(name)) => Some(name.value.clone()),
        _ => None,
    }
}

pub(crate) fn elements<'i>(item: &'i Item, key: &str) -> &'i [Element] {
    match value(item, key) {
        Some(Value::List(list)) => &list.elements,
        _ => &[],
    }
}

pub(crate) fn names(item: &Item, key: &str) -> Vec<String> {
    elements(item, key)
        .iter()
        .filter_map(|element| match element {
            Element::Value(Value::Ident(name)) => Some(name.value.clone()),
            _ => None,
        })
        .collect()
}

/// The strings of a list field (other elements were reported by the schema).
pub(crate) fn strings(item: &Item, key: &str) -> Vec<String> {
    elements(item, key)
        .iter()
        .filter_map(|element| match element {
            Element::Value(Value::String(text)) => Some(text.value.clone()),
            _ => None,
        })
        .collect()
}

fn number_pairs(item: &Item, key: &str) -> Vec<(String, i64)> {
    elements(item, key)
        .iter()
        .filter_map(|element| match element {
            Element::Pair(pair) if !pair.key_is_string => match &pair.value {
                Value::Int(number) => Some((pair.key.value.clone(), number.value)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn stats(item: &Item, key: &str) -> Vec<StatDef> {
    number_pairs(item, key)
        .into_iter()
        .map(|(name, value)| StatDef { name, value })
        .collect()
}

fn faces(item: &Item, key: &str) -> Vec<FaceDef> {
    number_pairs(item, key)
        .into_iter()
        .map(|(name, count)| FaceDef { name, count })
        .collect()
}

/// A die's `values`: each face with the number it counts for (in `count`).
fn faces_values(item: &Item) -> Vec<FaceDef> {
    faces(item, "values")
}

fn tags(item: &Item, key: &str) -> Vec<KeywordDef> {
    elements(item, key)
        .iter()
        .filter_map(|element| match element {
            Element::Value(Value::Ident(name)) => Some(KeywordDef {
                name: name.value.clone(),
                value: None,
            }),
            Element::Pair(pair) if !pair.key_is_string => match &pair.value {
                Value::Int(number) => Some(KeywordDef {
                    name: pair.key.value.clone(),
                    value: Some(number.value),
                }),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

pub(crate) fn measure(item: &Item, key: &str) -> Option<Measure> {
    match value(item, key) {
        Some(Value::Length(length)) => Some(length.value),
        _ => None,
    }
}

/// `[x, y]` as two lengths (other shapes were reported by the schema).
fn point_of(value: &Value) -> Option<PointDef> {
    let Value::List(list) = value else {
        return None;
    };
    match list.elements.as_slice() {
        [
            Element::Value(Value::Length(x)),
            Element::Value(Value::Length(y)),
        ] => Some(PointDef {
            x: x.value,
            y: y.value,
        }),
        _ => None,
    }
}

/// The points of a list of points; `None` if one of them could not be read.
fn points(item: &Item, key: &str) -> Option<Vec<PointDef>> {
    elements(item, key)
        .iter()
        .map(|element| match element {
            Element::Value(value) => point_of(value),
            Element::Pair(_) => None,
        })
        .collect()
}

/// The names of the unit values `in`, `cm`, `mm` (as a ruleset's `unit` writes them).
pub(crate) const UNITS: [&str; 3] = ["in", "cm", "mm"];

/// The confidences a `constant` may state.
pub(crate) const CONFIDENCES: [&str; 3] = ["high", "medium", "low"];

/// The name of a named item (absent names were reported by the schema).
/// The numbers and lengths of a list field, by key (`stats = [move: 5in, health: 2]`).
pub(crate) fn quantities(item: &Item, key: &str) -> Vec<ValueDef> {
    elements(item, key)
        .iter()
        .filter_map(|element| match element {
            Element::Pair(pair) => {
                let value = match &pair.value {
                    Value::Int(number) => Quantity::Number(number.value),
                    Value::Length(length) => Quantity::Length(length.value),
                    _ => return None,
                };
                Some(ValueDef {
                    name: pair.key.value.clone(),
                    value,
                })
            }
            Element::Value(_) => None,
        })
        .collect()
}

pub(crate) fn name(item: &Item) -> Option<String> {
    item.name.as_ref().map(|name| name.value.clone())
}

pub(crate) fn children<'i>(item: &'i Item, kind: &'static str) -> impl Iterator<Item = &'i Item> {
    item.items().filter(move |child| child.kind.value == kind)
}

impl Builder<'_> {
    fn script(&self, item: &Item, key: &str) -> Option<ScriptDef> {
        match value(item, key) {
            Some(Value::Script(script)) => Some(ScriptDef::located(
                script.text.clone(),
                self.file.name.clone(),
                (script.span.start, script.span.end),
                self.file.text.clone(),
            )),
            _ => None,
        }
    }

    fn bad_value(&mut self, span: Span, message: String, label: &str, help: String) {
        self.out.push(GrammarDiagnostic::BadValue {
            message,
            src: self.file.src(),
            span: self.file.span(span),
            label: label.to_string(),
            help,
        });
    }

    /// Reports `key` if its number is below `min`.
    fn at_least(&mut self, item: &Item, key: &str, min: i64) {
        if let Some(Value::Int(number)) = value(item, key)
            && number.value < min
        {
            self.bad_value(
                number.span,
                format!("`{key}` must be at least {min}"),
                "too small",
                format!("write a whole number of {min} or more"),
            );
        }
    }

    /// Checks an item's `min_players` and `max_players` (a ruleset's, a map's): each at least
    /// 1, the most no fewer than the fewest.
    fn player_range(&mut self, item: &Item) {
        self.at_least(item, "min_players", 1);
        self.at_least(item, "max_players", 1);
        if let (Some(min), Some(Value::Int(max))) =
            (int(item, "min_players"), value(item, "max_players"))
            && max.value < min
        {
            self.bad_value(
                max.span,
                "`max_players` is below `min_players`".to_string(),
                "fewer than min_players",
                format!("write {min} or more"),
            );
        }
    }

    fn side(&mut self, item: &Item) -> Option<Side> {
        let Some(Value::Ident(side)) = value(item, "side") else {
            return None;
        };
        match side.value.as_str() {
            "inspired" => Some(Side::Inspired),
            "uninspired" => Some(Side::Uninspired),
            other => {
                let help = match suggest::closest(other, ["inspired", "uninspired"]) {
                    Some(best) => format!(
                        "did you mean `{best}`? (leave `side` out when it is on both sides)"
                    ),
                    None => "write `inspired` or `uninspired`, or leave `side` out when it is on both sides".to_string(),
                };
                self.bad_value(
                    side.span,
                    format!("unknown side `{other}`"),
                    "not a side",
                    help,
                );
                None
            }
        }
    }

    /// The `zones` of a ruleset: `[power_hand: owner, ...]`. An unknown visibility is
    /// reported with the closest one; a zone written twice is reported (saying so when the
    /// two visibilities differ) and the first is kept.
    fn zones(&mut self, item: &Item) -> Vec<ZoneDef> {
        let mut zones: Vec<ZoneDef> = Vec::new();
        for element in elements(item, "zones") {
            let Element::Pair(pair) = element else {
                continue;
            };
            let Value::Ident(written) = &pair.value else {
                continue;
            };
            let Some(&(_, visibility)) =
                VISIBILITIES.iter().find(|(name, _)| *name == written.value)
            else {
                self.out.push(GrammarDiagnostic::UnknownName {
                    what: "zone visibility".to_string(),
                    name: written.value.clone(),
                    src: self.file.src(),
                    span: self.file.span(written.span),
                    help: suggest::help(
                        &written.value,
                        VISIBILITIES.iter().map(|(name, _)| *name),
                        "a zone is seen by its `owner` (a hand), by everyone (`public`) or by `nobody` (a deck)",
                    ),
                });
                continue;
            };
            let name = pair.key.value.clone();
            match zones.iter().find(|zone| zone.name == name) {
                Some(first) if first.visibility != visibility => {
                    let first_name = first.visibility_name();
                    self.bad_value(
                        written.span,
                        format!("zone `{name}` is declared twice with different visibilities"),
                        "a second visibility",
                        format!(
                            "a zone has one visibility: keep `{name}: {first_name}` or `{name}: {}`, not both",
                            written.value
                        ),
                    );
                }
                Some(_) => self.bad_value(
                    pair.key.span,
                    format!("`{name}` appears twice in `zones`"),
                    "repeated here",
                    "list each name once".to_string(),
                ),
                None => zones.push(ZoneDef { name, visibility }),
            }
        }
        zones
    }

    pub(crate) fn ruleset(&mut self, item: &Item) -> Option<RulesetDef> {
        self.at_least(item, "rounds", 1);
        self.player_range(item);
        let mut remove = Vec::new();
        for element in elements(item, "remove") {
            let Element::Pair(pair) = element else {
                continue;
            };
            let Some(part) = PartKind::from_name(&pair.key.value) else {
                self.out.push(GrammarDiagnostic::UnknownName {
                    what: "part kind".to_string(),
                    name: pair.key.value.clone(),
                    src: self.file.src(),
                    span: self.file.span(pair.key.span),
                    help: suggest::help(
                        &pair.key.value,
                        PartKind::ALL.iter().map(|kind| kind.name()),
                        "",
                    ),
                });
                continue;
            };
            let name = match &pair.value {
                Value::Ident(name) | Value::String(name) => name.value.clone(),
                _ => continue,
            };
            remove.push(RemoveDef { part, name });
        }
        let zones = self.zones(item);
        let mut dice = Vec::new();
        for die in children(item, "die") {
            let faces = faces(die, "faces");
            for element in elements(die, "faces") {
                if let Element::Pair(pair) = element
                    && let Value::Int(count) = &pair.value
                    && count.value < 1
                {
                    self.bad_value(
                        count.span,
                        format!("face `{}` must be on at least 1 side", pair.key.value),
                        "too few",
                        "leave out faces no side shows".to_string(),
                    );
                }
            }
            if let Some(Value::List(list)) = value(die, "faces")
                && list.elements.is_empty()
            {
                self.bad_value(
                    list.span,
                    "a die needs at least one face".to_string(),
                    "no faces",
                    "write it like `faces = [critical: 1, hammer: 2]`".to_string(),
                );
            }
            // A numbered die (`sides = 6`): faces `1` to `6`, each valued at its pips.
            let sides = int(die, "sides");
            let faces = match (sides, value(die, "faces")) {
                (Some(_), Some(faces)) => {
                    self.bad_value(
                        faces.span(),
                        "a die has either `faces` or `sides`, not both".to_string(),
                        "one too many",
                        "keep `sides = 6` for a numbered die, or list the faces".to_string(),
                    );
                    continue;
                }
                (Some(n), None) if !(1..=DieDef::MAX_SIDES).contains(&n) => {
                    if let Some(found) = value(die, "sides") {
                        self.bad_value(
                            found.span(),
                            format!("a die has 1 to {} sides, not {n}", DieDef::MAX_SIDES),
                            "out of range",
                            "write `sides = 6` for a six-sided die".to_string(),
                        );
                    }
                    continue;
                }
                (Some(n), None) => (1..=n)
                    .map(|pips| FaceDef {
                        name: pips.to_string(),
                        count: 1,
                    })
                    .collect(),
                (None, Some(_)) => faces,
                (None, None) => {
                    self.out.push(GrammarDiagnostic::MissingField {
                        fields: vec!["faces".to_string(), "sides".to_string()],
                        listed: "field `faces` or `sides`".to_string(),
                        item: "die".to_string(),
                        src: self.file.src(),
                        span: self.file.span(die.header_span()),
                        help: "a die needs its faces: add `faces = [critical: 1, hammer: 2]`, or `sides = 6` for a numbered die".to_string(),
                    });
                    continue;
                }
            };
            let Some(die_name) = name(die) else {
                continue;
            };
            let values = faces_values(die);
            for value in &values {
                if !faces.iter().any(|face| face.name == value.name) {
                    if let Some(span) =
                        elements(die, "values")
                            .iter()
                            .find_map(|element| match element {
                                Element::Pair(pair) if pair.key.value == value.name => {
                                    Some(pair.key.span)
                                }
                                _ => None,
                            })
                    {
                        self.bad_value(
                            span,
                            format!("`{}` is not a face of die `{die_name}`", value.name),
                            "no such face",
                            format!(
                                "give values to the die's faces: {}",
                                faces
                                    .iter()
                                    .map(|f| f.name.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        );
                    }
                }
            }
            // A numbered die's faces count for their pips unless `values` says otherwise.
            let values = match sides {
                Some(_) if values.is_empty() => faces
                    .iter()
                    .map(|face| FaceDef {
                        name: face.name.clone(),
                        count: face.name.parse().unwrap_or(0),
                    })
                    .collect(),
                _ => values,
            };
            dice.push(DieDef {
                name: die_name,
                about: string(die, "about"),
                faces,
                sides,
                values,
            });
        }
        let mut steps = Vec::new();
        for step in children(item, "step") {
            if let (Some(step_name), Some(run)) = (name(step), self.script(step, "run")) {
                steps.push(StepDef {
                    name: step_name,
                    about: string(step, "about"),
                    run,
                });
            }
        }
        let mut invariants = Vec::new();
        for invariant in children(item, "invariant") {
            if let (Some(invariant_name), Some(about), Some(holds)) = (
                name(invariant),
                string(invariant, "about"),
                self.script(invariant, "holds"),
            ) {
                invariants.push(InvariantDef {
                    name: invariant_name,
                    about,
                    holds,
                });
            }
        }
        let mut actions = Vec::new();
        for action in children(item, "action") {
            if let (Some(action_name), Some(run)) = (name(action), self.script(action, "run")) {
                actions.push(ActionDef {
                    name: action_name,
                    about: string(action, "about"),
                    condition: self.script(action, "condition"),
                    run,
                });
            }
        }
        let mut decks = Vec::new();
        for deck in children(item, "deck") {
            if let (Some(min), Some(Value::Int(max))) =
                (int(deck, "min_size"), value(deck, "max_size"))
                && max.value < min
            {
                self.bad_value(
                    max.span,
                    "`max_size` is below `min_size`".to_string(),
                    "smaller than min_size",
                    format!("write {min} or more"),
                );
            }
            let Some(deck_name) = name(deck) else {
                continue;
            };
            if value(deck, "kinds").is_none() {
                continue;
            }
            decks.push(DeckDef {
                name: deck_name,
                about: string(deck, "about"),
                kinds: names(deck, "kinds"),
                min_size: int(deck, "min_size"),
                max_size: int(deck, "max_size"),
                limits: number_pairs(deck, "limits")
                    .into_iter()
                    .map(|(name, max)| LimitDef { name, max })
                    .collect(),
                max_half: names(deck, "max_half"),
                balanced: names(deck, "balanced"),
                unique_names: boolean(deck, "unique_names"),
            });
        }
        if let Some(Value::Ident(unit)) = value(item, "unit")
            && !UNITS.contains(&unit.value.as_str())
        {
            self.out.push(GrammarDiagnostic::UnknownName {
                what: "length unit".to_string(),
                name: unit.value.clone(),
                src: self.file.src(),
                span: self.file.span(unit.span),
                help: match crate::syntax::unit_meant(&unit.value) {
                    Some(meant) => format!("did you mean `{meant}`?"),
                    None => "a unit is `in`, `cm` or `mm`".to_string(),
                },
            });
        }
        let abilities: Vec<AbilityDef> = children(item, "ability")
            .filter_map(|ability| self.ability(ability))
            .collect();
        let constants: Vec<ConstantDef> = children(item, "constant")
            .filter_map(|constant| self.constant(constant))
            .collect();
        Some(RulesetDef {
            unit: ident(item, "unit"),
            weapon_abilities: names(item, "weapon_abilities"),
            flags: names(item, "flags"),
            terrain_kinds: names(item, "terrain_kinds"),
            terrain_rules: names(item, "terrain_rules"),
            frequencies: names(item, "frequencies"),
            army_choices: number_pairs(item, "army_choices")
                .into_iter()
                .map(|(name, max)| LimitDef { name, max })
                .collect(),
            abilities,
            constants,
            invariants,
            name: name(item)?,
            extends: string(item, "extends"),
            title: string(item, "title")?,
            about: string(item, "about"),
            rounds: int(item, "rounds"),
            min_players: int(item, "min_players"),
            max_players: int(item, "max_players"),
            off_board_blocks_sight: boolean(item, "off_board_blocks_sight"),
            ours: names(item, "ours"),
            hex_types: names(item, "hex_types"),
            tokens: names(item, "tokens"),
            counters: names(item, "counters"),
            keywords: names(item, "keywords"),
            card_kinds: names(item, "card_kinds"),
            score_timings: names(item, "score_timings"),
            alliances: names(item, "alliances"),
            zones,
            remove,
            setup: self.script(item, "setup"),
            scoring: self.script(item, "scoring"),
            victory: self.script(item, "victory"),
            characteristics: children(item, "characteristic")
                .filter_map(|child| {
                    Some(CharacteristicDef {
                        name: name(child)?,
                        about: string(child, "about"),
                        floor: int(child, "floor"),
                        dice: ident(child, "dice"),
                        ours: names(child, "ours"),
                        length: boolean(child, "length").unwrap_or(false),
                        required: boolean(child, "required").unwrap_or(false),
                    })
                })
                .collect(),
            dice,
            windows: children(item, "window")
                .filter_map(|child| {
                    Some(WindowDef {
                        name: name(child)?,
                        about: string(child, "about"),
                        gives: names(child, "gives"),
                        optional: names(child, "optional"),
                    })
                })
                .collect(),
            steps,
            actions,
            decks,
            battlefields: children(item, "battlefield")
                .filter_map(|child| {
                    let seats = ["seat_1", "seat_2", "seat_3", "seat_4"]
                        .iter()
                        .map(|key| number_pairs(child, key))
                        .take_while(|pairs| !pairs.is_empty())
                        .map(|pairs| {
                            let get = |name: &str| {
                                pairs
                                    .iter()
                                    .find(|(key, _)| key == name)
                                    .map_or(0, |(_, value)| *value)
                            };
                            PlacementDef {
                                turn: get("turn"),
                                q: get("q"),
                                r: get("r"),
                            }
                        })
                        .collect();
                    Some(BattlefieldDef {
                        name: name(child)?,
                        about: string(child, "about"),
                        players: int(child, "players")?,
                        min_completed: int(child, "min_completed"),
                        seats,
                    })
                })
                .collect(),
        })
    }

    pub(crate) fn board(&mut self, item: &Item) -> Option<BoardDef> {
        let mut legend: Vec<LegendDef> = Vec::new();
        for element in elements(item, "legend") {
            let Element::Pair(pair) = element else {
                continue;
            };
            let key = &pair.key.value;
            let mut chars = key.chars();
            let symbol = match (chars.next(), chars.next()) {
                (Some(symbol), None) if !matches!(symbol, '.' | '_' | ' ' | '\t' | '\n' | '\r') => {
                    symbol
                }
                (Some('.' | '_'), None) => {
                    self.bad_value(
                        pair.key.span,
                        format!("`{key}` cannot be redefined in a legend"),
                        "reserved",
                        "`.` is a plain hex and `_` no hex; pick another character".to_string(),
                    );
                    continue;
                }
                _ => {
                    self.bad_value(
                        pair.key.span,
                        "a legend key must be one visible character".to_string(),
                        "not one character",
                        "write it like `S: starting` or `\"#\": blocked`".to_string(),
                    );
                    continue;
                }
            };
            if legend.iter().any(|entry| entry.symbol == symbol) {
                continue; // reported as a repeated key by the schema
            }
            let values: Vec<String> = match &pair.value {
                Value::Ident(name) => vec![name.value.clone()],
                Value::List(list) => list
                    .elements
                    .iter()
                    .filter_map(|element| match element {
                        Element::Value(Value::Ident(name)) => Some(name.value.clone()),
                        _ => None,
                    })
                    .collect(),
                _ => continue,
            };
            let half = values.iter().any(|value| value == HALF);
            let types = values.into_iter().filter(|value| value != HALF).collect();
            legend.push(LegendDef {
                symbol,
                half,
                types,
            });
        }

        let layout_value = match value(item, "layout") {
            Some(Value::String(text)) => text.clone(),
            _ => return None,
        };
        let offsets = string_char_offsets(&self.file.text, layout_value.span);
        let locate = |index: usize, len: usize| -> Span {
            match (offsets.get(index), offsets.get(index + len.max(1) - 1)) {
                (Some(&start), Some(&last)) => {
                    let last_len = self.file.text[last..]
                        .chars()
                        .next()
                        .map_or(1, char::len_utf8);
                    Span::new(start, last + last_len)
                }
                _ => layout_value.span,
            }
        };
        let mut hexes = Vec::new();
        let mut half_hexes = Vec::new();
        let mut problems = Vec::new();
        match layout::read(&layout_value.value) {
            Err(errors) => {
                problems = errors
                    .into_iter()
                    .map(|error| {
                        let span = locate(error.index, error.len);
                        (error.message, error.label, span, LAYOUT_HELP.to_string())
                    })
                    .collect();
            }
            Ok(cells) => {
                for cell in cells {
                    match cell.symbol {
                        '.' => hexes.push(BoardHexDef {
                            hex: cell.hex,
                            types: Vec::new(),
                        }),
                        '_' => {}
                        symbol => match legend.iter().find(|entry| entry.symbol == symbol) {
                            Some(entry) => {
                                let hex = BoardHexDef {
                                    hex: cell.hex,
                                    types: entry.types.clone(),
                                };
                                if entry.half {
                                    half_hexes.push(hex);
                                } else {
                                    hexes.push(hex);
                                }
                            }
                            None => problems.push((
                                format!("`{symbol}` is not in the legend"),
                                "unknown character".to_string(),
                                locate(cell.index, 1),
                                format!(
                                    "add it to `legend` (like `{}: blocked`), or write `.` for a plain hex and `_` for no hex",
                                    crate::print::quote_key(symbol)
                                ),
                            )),
                        },
                    }
                }
            }
        }
        let failed = !problems.is_empty();
        for (message, label, span, help) in problems {
            self.out.push(GrammarDiagnostic::BadLayout {
                message,
                src: self.file.src(),
                span: self.file.span(span),
                label,
                help,
            });
        }
        if failed {
            return None;
        }
        Some(BoardDef {
            name: name(item)?,
            ruleset: string(item, "ruleset")?,
            about: string(item, "about"),
            layout: layout_value.value,
            legend,
            hexes,
            half_hexes,
        })
    }

    pub(crate) fn warband(&mut self, item: &Item) -> Option<WarbandDef> {
        let mut fighters = Vec::new();
        for fighter in children(item, "fighter") {
            if let Some(fighter) = self.fighter(fighter) {
                fighters.push(fighter);
            }
        }
        Some(WarbandDef {
            name: name(item)?,
            ruleset: string(item, "ruleset")?,
            alliance: ident(item, "alliance")?,
            faction: string(item, "faction"),
            about: string(item, "about"),
            source: string(item, "source"),
            fighters,
        })
    }

    /// The `weapon` items inside `item` (a fighter, or an upgrade that gives an Attack action).
    fn weapons(&mut self, item: &Item) -> Vec<WeaponDef> {
        let mut weapons = Vec::new();
        for weapon in children(item, "weapon") {
            let side = self.side(weapon);
            let (Some(weapon_name), Some(range), Some(dice), Some(symbol), Some(damage)) = (
                name(weapon),
                int(weapon, "range"),
                int(weapon, "dice"),
                ident(weapon, "symbol"),
                int(weapon, "damage"),
            ) else {
                continue;
            };
            weapons.push(WeaponDef {
                name: weapon_name,
                side,
                die: ident(weapon, "die"),
                range,
                dice,
                symbol,
                damage,
                keywords: tags(weapon, "keywords"),
                inspired: stats(weapon, "inspired"),
                inspired_keywords: tags(weapon, "inspired_keywords"),
                text: string(weapon, "text"),
                uncertain: names(weapon, "uncertain"),
            });
        }
        weapons
    }

    fn fighter(&mut self, item: &Item) -> Option<FighterDef> {
        let weapons = self.weapons(item);
        let abilities: Vec<AbilityDef> = children(item, "ability")
            .filter_map(|ability| self.ability(ability))
            .collect();
        // A fighter needs `stats` (its absence was reported by the schema).
        value(item, "stats")?;
        Some(FighterDef {
            name: name(item)?,
            keywords: names(item, "keywords"),
            stats: stats(item, "stats"),
            inspired: stats(item, "inspired"),
            symbols: elements(item, "symbols")
                .iter()
                .filter_map(|element| match element {
                    Element::Pair(pair) => match &pair.value {
                        Value::Ident(face) => Some(SymbolDef {
                            characteristic: pair.key.value.clone(),
                            face: face.value.clone(),
                        }),
                        _ => None,
                    },
                    Element::Value(_) => None,
                })
                .collect(),
            inspire: self.script(item, "inspire"),
            uninspire: self.script(item, "uninspire"),
            text: string(item, "text"),
            uncertain: names(item, "uncertain"),
            source: string(item, "source"),
            weapons,
            abilities,
        })
    }

    /// An `ability` item, wherever it is (a fighter, a warscroll, an army, a ruleset).
    pub(crate) fn ability(&mut self, ability: &Item) -> Option<AbilityDef> {
        let side = self.side(ability);
        Some(AbilityDef {
            name: name(ability)?,
            side,
            reaction: boolean(ability, "reaction").unwrap_or(false),
            window: ident(ability, "window"),
            text: string(ability, "text"),
            condition: self.script(ability, "condition"),
            effect: self.script(ability, "effect"),
            keywords: names(ability, "keywords"),
            frequency: ident(ability, "frequency"),
            choice: ident(ability, "choice"),
            source: string(ability, "source"),
        })
    }

    /// `constant "name" { length = 3in }` or `{ number = 4 }`: exactly one of the two.
    fn constant(&mut self, item: &Item) -> Option<ConstantDef> {
        if let Some(Value::Ident(confidence)) = value(item, "confidence")
            && !CONFIDENCES.contains(&confidence.value.as_str())
        {
            self.out.push(GrammarDiagnostic::UnknownName {
                what: "confidence".to_string(),
                name: confidence.value.clone(),
                src: self.file.src(),
                span: self.file.span(confidence.span),
                help: suggest::help(
                    &confidence.value,
                    CONFIDENCES,
                    "a confidence is `high`, `medium` or `low`",
                ),
            });
        }
        let quantity = match (measure(item, "length"), int(item, "number")) {
            (Some(length), None) => Quantity::Length(length),
            (None, Some(number)) => Quantity::Number(number),
            (Some(_), Some(_)) => {
                let span = item.field("number").map_or(item.header_span(), |f| f.span);
                self.bad_value(
                    span,
                    "a constant has one value: `length` or `number`, not both".to_string(),
                    "a second value",
                    "keep `length = ...` for a length, `number = ...` for a whole number"
                        .to_string(),
                );
                return None;
            }
            (None, None) => {
                if value(item, "length").is_none() && value(item, "number").is_none() {
                    self.out.push(GrammarDiagnostic::MissingField {
                        fields: vec!["length".to_string(), "number".to_string()],
                        listed: "field `length` or `number`".to_string(),
                        item: "constant".to_string(),
                        src: self.file.src(),
                        span: self.file.span(item.header_span()),
                        help: "a constant needs its value: add `length = 3in` or `number = 4`"
                            .to_string(),
                    });
                }
                return None;
            }
        };
        Some(ConstantDef {
            name: name(item)?,
            about: string(item, "about"),
            value: quantity,
            source: string(item, "source"),
            confidence: ident(item, "confidence"),
        })
    }

    /// A whole number of at least 1, or a dice roll written as a string (`"D3"`).
    fn amount(&mut self, item: &Item, key: &str) -> Option<Amount> {
        match value(item, key) {
            Some(Value::Int(_)) => {
                self.at_least(item, key, 1);
                int(item, key).filter(|n| *n >= 1).map(Amount::Fixed)
            }
            Some(Value::String(text)) => match Amount::parse_roll(&text.value) {
                Some(roll) => Some(roll),
                None => {
                    self.bad_value(
                        text.span,
                        format!("`{}` is not a dice roll", text.value),
                        "not a roll",
                        format!(
                            "write a whole number (`{key} = 2`) or a roll of the ruleset's dice: `\"D3\"`, `\"2D6\"`, `\"D3+1\"`"
                        ),
                    );
                    None
                }
            },
            _ => None,
        }
    }

    /// Reports `key` if its number is above `max`.
    fn at_most(&mut self, item: &Item, key: &str, max: i64) {
        if let Some(Value::Int(number)) = value(item, key)
            && number.value > max
        {
            self.bad_value(
                number.span,
                format!("`{key}` must be at most {max}"),
                "too large",
                format!("write a whole number of {max} or less"),
            );
        }
    }

    /// Reports a length field that is zero (negative ones were reported by the schema).
    pub(crate) fn positive_length(&mut self, item: &Item, key: &str) {
        if let Some(Value::Length(length)) = value(item, key)
            && length.value.length == gloam_core::Length::ZERO
        {
            self.bad_value(
                length.span,
                format!("`{key}` must be longer than 0"),
                "no length",
                format!("write a length above 0, like `{}`", example_length(key)),
            );
        }
    }

    pub(crate) fn army(&mut self, item: &Item) -> Option<ArmyDef> {
        let warscrolls = children(item, "warscroll")
            .filter_map(|warscroll| self.warscroll(warscroll))
            .collect();
        let abilities = children(item, "ability")
            .filter_map(|ability| self.ability(ability))
            .collect();
        Some(ArmyDef {
            name: name(item)?,
            ruleset: string(item, "ruleset")?,
            alliance: ident(item, "alliance"),
            faction: string(item, "faction"),
            general: string(item, "general"),
            about: string(item, "about"),
            source: string(item, "source"),
            warscrolls,
            abilities,
        })
    }

    fn warscroll(&mut self, item: &Item) -> Option<WarscrollDef> {
        self.at_least(item, "units", 1);
        self.at_least(item, "models", 1);
        self.positive_length(item, "base");
        let mut weapons = Vec::new();
        for weapon in children(item, "weapon") {
            let attacks = self.amount(weapon, "attacks");
            let damage = self.amount(weapon, "damage");
            for key in ["hit", "wound"] {
                self.at_least(weapon, key, 1);
                self.at_most(weapon, key, 6);
            }
            self.positive_length(weapon, "range");
            let (Some(weapon_name), Some(attacks), Some(hit), Some(wound), Some(damage)) = (
                name(weapon),
                attacks,
                int(weapon, "hit"),
                int(weapon, "wound"),
                damage,
            ) else {
                continue;
            };
            let abilities = elements(weapon, "abilities")
                .iter()
                .filter_map(|element| match element {
                    Element::Value(Value::Ident(name)) => Some(WeaponAbilityDef {
                        name: name.value.clone(),
                        value: None,
                    }),
                    Element::Pair(pair) => match &pair.value {
                        Value::Ident(target) => Some(WeaponAbilityDef {
                            name: pair.key.value.clone(),
                            value: Some(target.value.clone()),
                        }),
                        _ => None,
                    },
                    Element::Value(_) => None,
                })
                .collect();
            weapons.push(TableWeaponDef {
                name: weapon_name,
                range: measure(weapon, "range"),
                attacks,
                hit,
                wound,
                rend: int(weapon, "rend").unwrap_or(0),
                damage,
                abilities,
                text: string(weapon, "text"),
                uncertain: names(weapon, "uncertain"),
            });
        }
        let abilities = children(item, "ability")
            .filter_map(|ability| self.ability(ability))
            .collect();
        let stats = quantities(item, "stats");
        Some(WarscrollDef {
            name: name(item)?,
            units: int(item, "units").unwrap_or(1),
            models: int(item, "models")?,
            base: measure(item, "base")?,
            stats,
            keywords: names(item, "keywords"),
            text: string(item, "text"),
            uncertain: names(item, "uncertain"),
            source: string(item, "source"),
            weapons,
            abilities,
        })
    }

    /// A polygon field: at least three corners, no zero edge, no crossing.
    fn polygon(&mut self, item: &Item, key: &str) -> Option<Vec<PointDef>> {
        let corners = points(item, key)?;
        let kernel: Vec<gloam_core::Point> = corners.iter().map(|p| p.to_point()).collect();
        if let Err(problem) = gloam_core::validate_polygon(&kernel) {
            let span = value(item, key).map_or(item.header_span(), Value::span);
            self.bad_value(
                span,
                format!("`{key}` is not a simple polygon: {problem}"),
                "not a polygon",
                "list at least 3 corners in order around the area, each once, with no edges crossing"
                    .to_string(),
            );
            return None;
        }
        Some(corners)
    }

    pub(crate) fn table(&mut self, item: &Item) -> Option<TableDef> {
        self.positive_length(item, "width");
        self.positive_length(item, "depth");
        let size = match (measure(item, "width"), measure(item, "depth")) {
            (Some(width), Some(depth)) => Some((width, depth)),
            _ => None,
        };
        let mut maps = Vec::new();
        for map in children(item, "map") {
            let mut territories = Vec::new();
            for territory in children(map, "territory") {
                let area = match (value(territory, "outline"), value(territory, "rect")) {
                    (Some(_), Some(rect)) => {
                        self.bad_value(
                            rect.span(),
                            "a territory has one shape: `outline` or `rect`, not both".to_string(),
                            "a second shape",
                            "keep `outline` for a polygon, `rect` for a rectangle".to_string(),
                        );
                        continue;
                    }
                    (Some(_), None) => match self.polygon(territory, "outline") {
                        Some(corners) => AreaDef::Outline(corners),
                        None => continue,
                    },
                    (None, Some(rect)) => {
                        let corners = points(territory, "rect");
                        match corners.as_deref() {
                            Some([a, b])
                                if a.x.length != b.x.length && a.y.length != b.y.length =>
                            {
                                AreaDef::Rect(*a, *b)
                            }
                            Some(_) => {
                                self.bad_value(
                                    rect.span(),
                                    "`rect` takes two opposite corners of a rectangle with an area"
                                        .to_string(),
                                    "not two opposite corners",
                                    "write it like `rect = [[0in, 0in], [44in, 10in]]`".to_string(),
                                );
                                continue;
                            }
                            None => continue,
                        }
                    }
                    (None, None) => {
                        self.out.push(GrammarDiagnostic::MissingField {
                            fields: vec!["outline".to_string(), "rect".to_string()],
                            listed: "field `outline` or `rect`".to_string(),
                            item: "territory".to_string(),
                            src: self.file.src(),
                            span: self.file.span(territory.header_span()),
                            help: "a territory needs its shape: add `rect = [[0in, 0in], [44in, 10in]]` or an `outline` polygon".to_string(),
                        });
                        continue;
                    }
                };
                if let Some(size) = size {
                    let key = match area {
                        AreaDef::Outline(_) => "outline",
                        AreaDef::Rect(..) => "rect",
                    };
                    self.on_table(territory, key, &area.corners(), size);
                }
                if let Some(territory_name) = name(territory) {
                    territories.push(TerritoryDef {
                        name: territory_name,
                        about: string(territory, "about"),
                        area,
                    });
                }
            }
            let mut objectives = Vec::new();
            for objective in children(map, "objective") {
                let Some(at) = value(objective, "at").and_then(point_of) else {
                    continue;
                };
                if let Some(size) = size {
                    self.on_table(objective, "at", &[at.to_point()], size);
                }
                if let Some(objective_name) = name(objective) {
                    objectives.push(ObjectiveDef {
                        name: objective_name,
                        about: string(objective, "about"),
                        at,
                    });
                }
            }
            self.player_range(map);
            if let Some(Value::Int(max)) = value(map, "max_players")
                && max.value > territories.len() as i64
            {
                self.bad_value(
                    max.span,
                    format!(
                        "the map serves up to {} players but has {} territories",
                        max.value,
                        territories.len()
                    ),
                    "more players than territories",
                    "give every seat a territory, or lower `max_players`".to_string(),
                );
            }
            if let Some(map_name) = name(map) {
                maps.push(MapDef {
                    name: map_name,
                    about: string(map, "about"),
                    source: string(map, "source"),
                    min_players: int(map, "min_players"),
                    max_players: int(map, "max_players"),
                    territories,
                    objectives,
                });
            }
        }
        let mut terrain = Vec::new();
        for feature in children(item, "terrain") {
            let outline = self.polygon(feature, "outline");
            let mut parts = Vec::new();
            for part in children(feature, "part") {
                let (Some(part_name), Some(part_outline), Some(height)) = (
                    name(part),
                    self.polygon(part, "outline"),
                    measure(part, "height"),
                ) else {
                    continue;
                };
                if let Some(footprint) = &outline {
                    let area = gloam_core::Area::Polygon(
                        footprint.iter().map(|point| point.to_point()).collect(),
                    );
                    if !part_outline
                        .iter()
                        .all(|corner| area.contains(corner.to_point()))
                    {
                        let span = value(part, "outline").map_or(part.header_span(), Value::span);
                        self.bad_value(
                            span,
                            format!("part `{part_name}` reaches outside its feature's outline"),
                            "outside the footprint",
                            "a part's corners lie within the feature's `outline` (both are drawn around the feature's origin)".to_string(),
                        );
                    }
                }
                parts.push(PartDef {
                    name: part_name,
                    outline: part_outline,
                    height,
                });
            }
            let (Some(feature_name), Some(kind), Some(outline), Some(height)) = (
                name(feature),
                ident(feature, "kind"),
                outline,
                measure(feature, "height"),
            ) else {
                continue;
            };
            terrain.push(TerrainDef {
                name: feature_name,
                kind,
                rules: names(feature, "rules"),
                outline,
                height,
                about: string(feature, "about"),
                source: string(feature, "source"),
                parts,
            });
        }
        Some(TableDef {
            name: name(item)?,
            ruleset: string(item, "ruleset")?,
            about: string(item, "about"),
            width: measure(item, "width")?,
            depth: measure(item, "depth")?,
            source: string(item, "source"),
            maps,
            terrain,
        })
    }

    /// Reports the first of `points` off a table of `size` (width, depth), from its corner.
    fn on_table(
        &mut self,
        item: &Item,
        key: &str,
        points: &[gloam_core::Point],
        size: (Measure, Measure),
    ) {
        let (width, depth) = (size.0.length.as_tenth_mm(), size.1.length.as_tenth_mm());
        let off = points
            .iter()
            .any(|point| point.x < 0 || point.y < 0 || point.x > width || point.y > depth);
        if off {
            let span = value(item, key).map_or(item.header_span(), Value::span);
            self.bad_value(
                span,
                format!("`{key}` lies off the table"),
                "off the table",
                format!(
                    "points run from [0in, 0in] to the table's [width, depth], here [{}, {}]",
                    size.0, size.1
                ),
            );
        }
    }

    pub(crate) fn card(&mut self, item: &Item) -> Option<CardDef> {
        for element in elements(item, "casting_value") {
            if let Element::Pair(pair) = element
                && let Value::Int(count) = &pair.value
                && count.value < 1
            {
                self.bad_value(
                    count.span,
                    format!("`{}` must be needed at least once", pair.key.value),
                    "too few",
                    "leave out symbols the spell does not need".to_string(),
                );
            }
        }
        let mut restrictions = Vec::new();
        for element in elements(item, "restrictions") {
            let Element::Pair(pair) = element else {
                continue;
            };
            let target = match &pair.value {
                Value::Ident(target) | Value::String(target) => target.value.clone(),
                _ => continue,
            };
            match pair.key.value.as_str() {
                "fighter" => restrictions.push(Restriction::Fighter(target)),
                "keyword" => restrictions.push(Restriction::Keyword(target)),
                other => self.out.push(GrammarDiagnostic::UnknownName {
                    what: "restriction".to_string(),
                    name: other.to_string(),
                    src: self.file.src(),
                    span: self.file.span(pair.key.span),
                    help: suggest::help(other, ["fighter", "keyword"], ""),
                }),
            }
        }
        let owner = match value(item, "owner") {
            Some(Value::String(warband)) => Owner::Warband(warband.value.clone()),
            Some(Value::Ident(group)) if group.value == "universal" => Owner::Universal,
            Some(Value::Ident(group)) => Owner::Alliance(group.value.clone()),
            _ => return None,
        };
        Some(CardDef {
            name: name(item)?,
            ruleset: string(item, "ruleset")?,
            kind: ident(item, "kind")?,
            owner,
            number: int(item, "number"),
            glory: int(item, "glory"),
            cost: int(item, "cost"),
            casting_value: faces(item, "casting_value"),
            keywords: names(item, "keywords"),
            restrictions,
            window: ident(item, "window"),
            score: ident(item, "score"),
            command: string(item, "command"),
            persist: boolean(item, "persist").unwrap_or(false),
            text: string(item, "text"),
            condition: self.script(item, "condition"),
            effect: self.script(item, "effect"),
            uncertain: names(item, "uncertain"),
            source: string(item, "source"),
            weapons: self.weapons(item),
        })
    }

    pub(crate) fn decklist(&self, item: &Item) -> Option<DecklistDef> {
        let decks = children(item, "deck")
            .filter_map(|deck| {
                // A deck needs `cards` (its absence was reported by the schema).
                value(deck, "cards")?;
                Some(DeckCardsDef {
                    name: name(deck)?,
                    cards: strings(deck, "cards"),
                })
            })
            .collect();
        Some(DecklistDef {
            name: name(item)?,
            ruleset: string(item, "ruleset")?,
            warband: string(item, "warband"),
            party: string(item, "party"),
            about: string(item, "about"),
            source: string(item, "source"),
            decks,
        })
    }
}

/// For each character of a decoded string, the offset in the file where it was written.
/// `span` is the string's span, quotes included. Mirrors the parser's escape decoding.
fn string_char_offsets(file_text: &str, span: Span) -> Vec<usize> {
    let start = (span.start + 1).min(file_text.len());
    let end = span.end.saturating_sub(1).clamp(start, file_text.len());
    let Some(raw) = file_text.get(start..end) else {
        return Vec::new();
    };
    let mut offsets = Vec::with_capacity(raw.len());
    let mut chars = raw.char_indices().peekable();
    while let Some((index, c)) = chars.next() {
        offsets.push(start + index);
        if c != '\\' {
            continue;
        }
        let Some((escape_index, escape)) = chars.next() else {
            break;
        };
        match escape {
            '"' | '\\' | 'n' | 't' => {}
            'u' => {
                let rest = &raw[index + 2..];
                let valid = rest.strip_prefix('{').and_then(|inner| {
                    let close = inner.find('}')?;
                    let digits = &inner[..close];
                    if digits.is_empty() || digits.len() > 6 {
                        return None;
                    }
                    char::from_u32(u32::from_str_radix(digits, 16).ok()?)?;
                    Some(close + 2)
                });
                match valid {
                    Some(used) => {
                        for _ in 0..used {
                            chars.next();
                        }
                    }
                    None => offsets.push(start + escape_index),
                }
            }
            _ => offsets.push(start + escape_index),
        }
    }
    offsets
}

/// An example length for a field's help.
fn example_length(key: &str) -> &'static str {
    match key {
        "base" => "32mm",
        "range" => "12in",
        "width" => "44in",
        "depth" => "30in",
        _ => "1in",
    }
}
