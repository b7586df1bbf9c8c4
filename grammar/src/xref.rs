//! Cross-reference checks: every name a board, warband, card or ruleset uses must be declared
//! by its (resolved) ruleset or exist in the library. Each unknown name gets a did-you-mean.

use crate::ast::{Element, Item, Span, Value};
use crate::build::{HALF, elements};
use crate::defs::{RulesetDef, WarbandDef};
use crate::diagnostic::{FileRef, GrammarDiagnostic};
use crate::schema::item_schema;
use crate::suggest;

pub(crate) struct Checker<'a> {
    pub(crate) file: &'a FileRef,
    pub(crate) out: &'a mut Vec<GrammarDiagnostic>,
}

/// A name written in a file and where.
struct Written<'i> {
    name: &'i str,
    span: Span,
}

/// Names in a list field: plain names and pair keys.
fn list_names<'i>(item: &'i Item, key: &str) -> Vec<Written<'i>> {
    elements(item, key)
        .iter()
        .filter_map(|element| match element {
            Element::Value(Value::Ident(name)) => Some(Written {
                name: &name.value,
                span: name.span,
            }),
            Element::Pair(pair) => Some(Written {
                name: &pair.key.value,
                span: pair.key.span,
            }),
            Element::Value(_) => None,
        })
        .collect()
}

/// Name values of pairs in a list field (`defence: block` gives `block`).
fn pair_values<'i>(item: &'i Item, key: &str) -> Vec<(&'i str, Written<'i>)> {
    elements(item, key)
        .iter()
        .filter_map(|element| match element {
            Element::Pair(pair) => match &pair.value {
                Value::Ident(name) | Value::String(name) => Some((
                    pair.key.value.as_str(),
                    Written {
                        name: &name.value,
                        span: name.span,
                    },
                )),
                _ => None,
            },
            Element::Value(_) => None,
        })
        .collect()
}

fn name_field<'i>(item: &'i Item, key: &str) -> Option<Written<'i>> {
    match item.field(key).map(|field| &field.value) {
        Some(Value::Ident(name) | Value::String(name)) => Some(Written {
            name: &name.value,
            span: name.span,
        }),
        _ => None,
    }
}

fn strs(names: &[String]) -> Vec<&str> {
    names.iter().map(String::as_str).collect()
}

fn children<'i>(item: &'i Item, kind: &'static str) -> impl Iterator<Item = &'i Item> {
    item.items().filter(move |child| child.kind.value == kind)
}

impl Checker<'_> {
    fn push(&mut self, what: &str, written: &Written<'_>, help: String) {
        self.out.push(GrammarDiagnostic::UnknownName {
            what: what.to_string(),
            name: written.name.to_string(),
            src: self.file.src(),
            span: self.file.span(written.span),
            help,
        });
    }

    /// Checks a name against a closed set (listed in the help when there is no close match).
    fn unknown(&mut self, what: &str, written: &Written<'_>, known: &[&str], fallback: String) {
        if !known.contains(&written.name) {
            let help = suggest::help(written.name, known.iter().copied(), &fallback);
            self.push(what, written, help);
        }
    }

    /// Checks a name against one of the ruleset's vocabularies: did you mean, or where to
    /// declare it.
    fn declared(
        &mut self,
        what: &str,
        written: &Written<'_>,
        known: &[&str],
        ruleset: &RulesetDef,
        list: &str,
    ) {
        if !known.contains(&written.name) {
            let help = match suggest::closest(written.name, known.iter().copied()) {
                Some(best) => format!("did you mean `{best}`?"),
                None => format!("declare it in ruleset `{}`'s {list}", ruleset.name),
            };
            self.push(what, written, help);
        }
    }

    /// `ruleset = "..."` of a board, warband or card: the ruleset must be loaded.
    pub(crate) fn ruleset_field(&mut self, item: &Item, loaded: &[&str]) {
        if let Some(written) = name_field(item, "ruleset") {
            self.unknown(
                "ruleset",
                &written,
                loaded,
                "load the file that declares it".to_string(),
            );
        }
    }

    /// A ruleset's own references (checked against its resolved form).
    pub(crate) fn ruleset(&mut self, item: &Item, resolved: &RulesetDef) {
        let kinds = strs(&resolved.card_kinds);
        let mut countable = kinds.clone();
        countable.extend(strs(&resolved.keywords));
        countable.extend(strs(&resolved.score_timings));
        for deck in children(item, "deck") {
            for written in list_names(deck, "kinds") {
                self.declared("card kind", &written, &kinds, resolved, "`card_kinds`");
            }
            for key in ["limits", "max_half"] {
                for written in list_names(deck, key) {
                    self.unknown(
                        "card kind, keyword or score timing",
                        &written,
                        &countable,
                        format!(
                            "declare it in ruleset `{}`'s `card_kinds`, `keywords` or `score_timings`",
                            resolved.name
                        ),
                    );
                }
            }
        }
    }

    pub(crate) fn board(&mut self, item: &Item, ruleset: &RulesetDef) {
        let mut hex_types = strs(&ruleset.hex_types);
        hex_types.push(HALF);
        for element in elements(item, "legend") {
            let Element::Pair(pair) = element else {
                continue;
            };
            let values: Vec<Written<'_>> = match &pair.value {
                Value::Ident(name) => vec![Written {
                    name: &name.value,
                    span: name.span,
                }],
                Value::List(list) => list
                    .elements
                    .iter()
                    .filter_map(|element| match element {
                        Element::Value(Value::Ident(name)) => Some(Written {
                            name: &name.value,
                            span: name.span,
                        }),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            for written in values {
                self.declared(
                    "hex type",
                    &written,
                    &hex_types,
                    ruleset,
                    "`hex_types` (or write `half` for a half hex)",
                );
            }
        }
    }

    pub(crate) fn warband(&mut self, item: &Item, ruleset: &RulesetDef) {
        if let Some(written) = name_field(item, "alliance") {
            self.declared(
                "alliance",
                &written,
                &strs(&ruleset.alliances),
                ruleset,
                "`alliances`",
            );
        }
        let keywords = strs(&ruleset.keywords);
        let characteristics: Vec<&str> = ruleset
            .characteristics
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        let dice: Vec<&str> = ruleset.dice.iter().map(|die| die.name.as_str()).collect();
        let all_faces = ruleset.faces();
        let windows: Vec<&str> = ruleset.windows.iter().map(|w| w.name.as_str()).collect();
        for fighter in children(item, "fighter") {
            for written in list_names(fighter, "keywords") {
                self.declared("keyword", &written, &keywords, ruleset, "`keywords`");
            }
            for key in ["stats", "inspired", "symbols", "uncertain"] {
                for written in list_names(fighter, key) {
                    self.declared(
                        "characteristic",
                        &written,
                        &characteristics,
                        ruleset,
                        "`characteristic` items",
                    );
                }
            }
            for (_, written) in pair_values(fighter, "symbols") {
                self.declared("dice face", &written, &all_faces, ruleset, "`die` items");
            }
            for weapon in children(fighter, "weapon") {
                let mut weapon_die = None;
                if let Some(die) = name_field(weapon, "die") {
                    self.declared("die", &die, &dice, ruleset, "`die` items");
                    weapon_die = ruleset.die(die.name);
                }
                if let Some(symbol) = name_field(weapon, "symbol") {
                    match weapon_die {
                        Some(die) => {
                            let faces: Vec<&str> =
                                die.faces.iter().map(|face| face.name.as_str()).collect();
                            if !faces.contains(&symbol.name) {
                                let help =
                                    match suggest::closest(symbol.name, faces.iter().copied()) {
                                        Some(best) => format!("did you mean `{best}`?"),
                                        None => {
                                            let listed: Vec<String> = faces
                                                .iter()
                                                .map(|face| format!("`{face}`"))
                                                .collect();
                                            format!(
                                                "die `{}` has the faces {}",
                                                die.name,
                                                listed.join(", ")
                                            )
                                        }
                                    };
                                self.push("dice face", &symbol, help);
                            }
                        }
                        None => {
                            self.declared("dice face", &symbol, &all_faces, ruleset, "`die` items")
                        }
                    }
                }
                for key in ["keywords", "inspired_keywords"] {
                    for written in list_names(weapon, key) {
                        self.declared("keyword", &written, &keywords, ruleset, "`keywords`");
                    }
                }
                for written in list_names(weapon, "inspired") {
                    self.unknown(
                        "weapon value",
                        &written,
                        &["range", "dice", "damage"],
                        String::new(),
                    );
                }
                self.uncertain(weapon);
            }
            for ability in children(fighter, "ability") {
                if let Some(window) = name_field(ability, "window") {
                    self.declared(
                        "timing window",
                        &window,
                        &windows,
                        ruleset,
                        "`window` items",
                    );
                }
            }
        }
    }

    /// `uncertain` of a weapon or card names the item's own fields.
    fn uncertain(&mut self, item: &Item) {
        let Some(schema) = item_schema(&item.kind.value) else {
            return;
        };
        let fields: Vec<&str> = schema.fields.iter().map(|field| field.name).collect();
        for written in list_names(item, "uncertain") {
            self.unknown(
                &format!("{} field", schema.kind),
                &written,
                &fields,
                String::new(),
            );
        }
    }

    pub(crate) fn card(&mut self, item: &Item, ruleset: &RulesetDef, warbands: &[&WarbandDef]) {
        if let Some(kind) = name_field(item, "kind") {
            self.declared(
                "card kind",
                &kind,
                &strs(&ruleset.card_kinds),
                ruleset,
                "`card_kinds`",
            );
        }
        let mut owner_warband = None;
        match item.field("owner").map(|field| &field.value) {
            Some(Value::String(owner)) => {
                let names: Vec<&str> = warbands.iter().map(|w| w.name.as_str()).collect();
                let written = Written {
                    name: &owner.value,
                    span: owner.span,
                };
                self.unknown(
                    "warband",
                    &written,
                    &names,
                    "load the file that declares it, or write `universal` or an alliance name without quotes".to_string(),
                );
                owner_warband = warbands.iter().find(|w| w.name == owner.value);
            }
            Some(Value::Ident(owner)) => {
                let mut groups = vec!["universal"];
                groups.extend(strs(&ruleset.alliances));
                let written = Written {
                    name: &owner.value,
                    span: owner.span,
                };
                self.unknown(
                    "owner",
                    &written,
                    &groups,
                    "write `universal`, an alliance, or a warband's name as a string".to_string(),
                );
            }
            _ => {}
        }
        let keywords = strs(&ruleset.keywords);
        for written in list_names(item, "keywords") {
            self.declared("keyword", &written, &keywords, ruleset, "`keywords`");
        }
        for (key, written) in pair_values(item, "restrictions") {
            match key {
                "keyword" => self.declared("keyword", &written, &keywords, ruleset, "`keywords`"),
                "fighter" => {
                    let fighters: Vec<&str> = match owner_warband {
                        Some(warband) => warband.fighters.iter().map(|f| f.name.as_str()).collect(),
                        None => warbands
                            .iter()
                            .flat_map(|w| w.fighters.iter().map(|f| f.name.as_str()))
                            .collect(),
                    };
                    let fallback = match owner_warband {
                        Some(warband) => format!("`{}` has no fighter of this name", warband.name),
                        None => "no loaded warband has a fighter of this name".to_string(),
                    };
                    self.unknown("fighter", &written, &fighters, fallback);
                }
                _ => {}
            }
        }
        if let Some(window) = name_field(item, "window") {
            let windows: Vec<&str> = ruleset.windows.iter().map(|w| w.name.as_str()).collect();
            self.declared(
                "timing window",
                &window,
                &windows,
                ruleset,
                "`window` items",
            );
        }
        if let Some(score) = name_field(item, "score") {
            self.declared(
                "score timing",
                &score,
                &strs(&ruleset.score_timings),
                ruleset,
                "`score_timings`",
            );
        }
        let faces = ruleset.faces();
        for written in list_names(item, "casting_value") {
            self.declared("dice face", &written, &faces, ruleset, "`die` items");
        }
        self.uncertain(item);
    }
}
