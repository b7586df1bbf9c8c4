//! Cross-reference checks: every name a board, warband, card, decklist or ruleset uses must be
//! declared by its (resolved) ruleset or exist in the library. Each unknown name gets a
//! did-you-mean. Decklists are also checked against their ruleset's deck-building rules.

use std::collections::BTreeMap;

use crate::ast::{Element, Item, Span, Spanned, Value};
use crate::build::{HALF, elements};
use crate::defs::{CardDef, DeckDef, DieDef, Owner, RulesetDef, WarbandDef};
use crate::diagnostic::{FileRef, GrammarDiagnostic};
use crate::party::PartyDef;
use crate::schema::item_schema;
use crate::suggest;

pub(crate) struct Checker<'a> {
    pub(crate) file: &'a FileRef,
    pub(crate) out: &'a mut Vec<GrammarDiagnostic>,
    /// What one roll may hold when the game plays: dice counts in the data are checked
    /// against it.
    pub(crate) room: &'a crate::RollRoom,
}

/// Whole numbers in a list field, by key (`stats = [defence: 2]`).
fn pair_numbers<'i>(item: &'i Item, key: &str) -> Vec<(&'i str, &'i Spanned<i64>)> {
    elements(item, key)
        .iter()
        .filter_map(|element| match element {
            Element::Pair(pair) => match &pair.value {
                Value::Int(number) => Some((pair.key.value.as_str(), number)),
                _ => None,
            },
            Element::Value(_) => None,
        })
        .collect()
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

    /// A number of dice written in the data fits in one roll of `die` when the game plays;
    /// with no die named (a weapon rolling its ruleset's usual die), in one roll of any of
    /// the ruleset's dice.
    fn dice_fit(
        &mut self,
        key: &str,
        number: &Spanned<i64>,
        die: Option<&DieDef>,
        ruleset: &RulesetDef,
    ) {
        let dice: Vec<&DieDef> = match die {
            Some(die) => vec![die],
            None => ruleset.dice.iter().collect(),
        };
        let Some(room) = dice
            .into_iter()
            .map(|die| self.room.most_dice(die))
            .min_by_key(|room| room.dice)
        else {
            return;
        };
        if number.value > i64::from(room.dice) {
            self.out.push(GrammarDiagnostic::BadValue {
                message: format!(
                    "`{key}` is {}, more dice than one roll may have",
                    number.value
                ),
                src: self.file.src(),
                span: self.file.span(number.span),
                label: "too many dice".to_owned(),
                help: format!(
                    "write a whole number of {} or less: {}; no game could roll these dice",
                    room.dice, room.why
                ),
            });
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
        let dice: Vec<&str> = resolved.dice.iter().map(|die| die.name.as_str()).collect();
        for characteristic in children(item, "characteristic") {
            if let Some(die) = name_field(characteristic, "dice") {
                self.declared("die", &die, &dice, resolved, "`die` items");
            }
        }
        for window in children(item, "window") {
            let gives = list_names(window, "gives");
            for written in &gives {
                self.unknown(
                    "window variable",
                    written,
                    crate::defs::WINDOW_VARIABLES,
                    "a window gives the fighters of its event: `target`, `attacker`".to_owned(),
                );
            }
            let given: Vec<&str> = gives.iter().map(|written| written.name).collect();
            for written in list_names(window, "optional") {
                self.unknown(
                    "window variable",
                    &written,
                    &given,
                    "`optional` names variables the window `gives`: add it to `gives` first"
                        .to_owned(),
                );
            }
        }
        // `ours` names settings or entries of the resolved vocabulary lists; a
        // characteristic's `ours` names its own fields.
        let mut ours_known = vec![
            "rounds",
            "min_players",
            "max_players",
            "off_board_blocks_sight",
        ];
        for list in [
            &resolved.hex_types,
            &resolved.tokens,
            &resolved.counters,
            &resolved.keywords,
            &resolved.card_kinds,
            &resolved.score_timings,
            &resolved.alliances,
            &resolved.weapon_abilities,
            &resolved.flags,
            &resolved.terrain_kinds,
            &resolved.terrain_rules,
            &resolved.frequencies,
        ] {
            ours_known.extend(strs(list));
        }
        ours_known.push("unit");
        for written in list_names(item, "ours") {
            self.unknown(
                "setting or vocabulary name",
                &written,
                &ours_known,
                "`ours` names a setting (`max_players`) or a name of the ruleset's vocabulary lists".to_string(),
            );
        }
        for characteristic in children(item, "characteristic") {
            for written in list_names(characteristic, "ours") {
                self.unknown(
                    "characteristic field",
                    &written,
                    &["about", "floor", "dice", "length", "required"],
                    String::new(),
                );
            }
        }
        for ability in children(item, "ability") {
            self.ability(ability, resolved);
        }
        let kinds = strs(&resolved.card_kinds);
        let mut countable = kinds.clone();
        countable.extend(strs(&resolved.keywords));
        countable.extend(strs(&resolved.score_timings));
        for deck in children(item, "deck") {
            for written in list_names(deck, "kinds") {
                self.declared("card kind", &written, &kinds, resolved, "`card_kinds`");
            }
            for key in ["limits", "max_half", "balanced"] {
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
            for (key, number) in pair_numbers(fighter, "stats")
                .into_iter()
                .chain(pair_numbers(fighter, "inspired"))
            {
                let counted = ruleset
                    .characteristics
                    .iter()
                    .find(|characteristic| characteristic.name == key)
                    .and_then(|characteristic| characteristic.dice.as_deref())
                    .and_then(|die| ruleset.die(die));
                if let Some(die) = counted {
                    self.dice_fit(key, number, Some(die), ruleset);
                }
            }
            for weapon in children(fighter, "weapon") {
                let mut weapon_die = None;
                if let Some(die) = name_field(weapon, "die") {
                    self.declared("die", &die, &dice, ruleset, "`die` items");
                    weapon_die = ruleset.die(die.name);
                }
                if let Some(Value::Int(number)) = weapon.field("dice").map(|field| &field.value) {
                    self.dice_fit("dice", number, weapon_die, ruleset);
                }
                for (key, number) in pair_numbers(weapon, "inspired") {
                    if key == "dice" {
                        self.dice_fit("dice", number, weapon_die, ruleset);
                    }
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
                self.ability(ability, ruleset);
            }
        }
    }

    /// An `ability` item's names: its window, keywords, frequency and choice.
    fn ability(&mut self, ability: &Item, ruleset: &RulesetDef) {
        if let Some(window) = name_field(ability, "window") {
            let windows: Vec<&str> = ruleset.windows.iter().map(|w| w.name.as_str()).collect();
            self.declared(
                "timing window",
                &window,
                &windows,
                ruleset,
                "`window` items",
            );
        }
        let keywords = strs(&ruleset.keywords);
        for written in list_names(ability, "keywords") {
            self.declared("keyword", &written, &keywords, ruleset, "`keywords`");
        }
        if let Some(frequency) = name_field(ability, "frequency") {
            self.declared(
                "frequency",
                &frequency,
                &strs(&ruleset.frequencies),
                ruleset,
                "`frequencies`",
            );
        }
        if let Some(choice) = name_field(ability, "choice") {
            let choices: Vec<&str> = ruleset
                .army_choices
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            self.declared("army choice", &choice, &choices, ruleset, "`army_choices`");
        }
    }

    /// An army: its alliance, general, warscrolls (characteristics, keywords, weapons) and
    /// army abilities, and enough abilities of each `army_choices` group to pick from.
    pub(crate) fn army(&mut self, item: &Item, ruleset: &RulesetDef) {
        if let Some(written) = name_field(item, "alliance") {
            self.declared(
                "alliance",
                &written,
                &strs(&ruleset.alliances),
                ruleset,
                "`alliances`",
            );
        }
        let warscrolls: Vec<&str> = children(item, "warscroll")
            .filter_map(|w| w.name.as_ref().map(|name| name.value.as_str()))
            .collect();
        if let Some(general) = name_field(item, "general") {
            self.unknown(
                "warscroll",
                &general,
                &warscrolls,
                "the general is one of the army's own warscrolls".to_string(),
            );
        }
        let keywords = strs(&ruleset.keywords);
        let characteristics: Vec<&str> = ruleset
            .characteristics
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        let mut anti_targets = keywords.clone();
        anti_targets.extend(strs(&ruleset.flags));
        for warscroll in children(item, "warscroll") {
            for written in list_names(warscroll, "keywords") {
                self.declared("keyword", &written, &keywords, ruleset, "`keywords`");
            }
            for key in ["stats", "uncertain"] {
                for written in list_names(warscroll, key) {
                    self.declared(
                        "characteristic",
                        &written,
                        &characteristics,
                        ruleset,
                        "`characteristic` items",
                    );
                }
            }
            self.stat_kinds(warscroll, ruleset);
            for weapon in children(warscroll, "weapon") {
                for element in elements(weapon, "abilities") {
                    let (written, target) = match element {
                        Element::Value(Value::Ident(name)) => (
                            Written {
                                name: &name.value,
                                span: name.span,
                            },
                            None,
                        ),
                        Element::Pair(pair) => (
                            Written {
                                name: &pair.key.value,
                                span: pair.key.span,
                            },
                            match &pair.value {
                                Value::Ident(target) => Some(Written {
                                    name: &target.value,
                                    span: target.span,
                                }),
                                _ => None,
                            },
                        ),
                        Element::Value(_) => continue,
                    };
                    self.declared(
                        "weapon ability",
                        &written,
                        &strs(&ruleset.weapon_abilities),
                        ruleset,
                        "`weapon_abilities`",
                    );
                    if let Some(target) = target {
                        self.declared(
                            "keyword or flag",
                            &target,
                            &anti_targets,
                            ruleset,
                            "`keywords` or `flags`",
                        );
                    }
                }
                for key in ["attacks", "damage"] {
                    if let Some(Value::String(text)) = weapon.field(key).map(|f| &f.value)
                        && let Some(crate::defs::Amount::Roll { die, .. }) =
                            crate::defs::Amount::parse_roll(&text.value)
                        && ruleset.die(&die).is_none()
                    {
                        let dice: Vec<&str> =
                            ruleset.dice.iter().map(|d| d.name.as_str()).collect();
                        self.out.push(GrammarDiagnostic::UnknownName {
                            what: "die".to_string(),
                            name: die.clone(),
                            src: self.file.src(),
                            span: self.file.span(text.span),
                            help: suggest::help(
                                &die,
                                dice.iter().copied(),
                                &format!("declare it in ruleset `{}`'s `die` items", ruleset.name),
                            ),
                        });
                    } else if let Some(Value::String(text)) = weapon.field(key).map(|f| &f.value)
                        && let Some(crate::defs::Amount::Roll { die, .. }) =
                            crate::defs::Amount::parse_roll(&text.value)
                        && let Some(def) = ruleset.die(&die)
                        && def
                            .faces
                            .iter()
                            .any(|face| !def.values.iter().any(|v| v.name == face.name))
                    {
                        self.out.push(GrammarDiagnostic::BadValue {
                            message: format!(
                                "`{key}` rolls die `{die}`, which has no number on every face"
                            ),
                            src: self.file.src(),
                            span: self.file.span(text.span),
                            label: "not a numbered die".to_string(),
                            help: format!(
                                "give die `{die}` of ruleset `{}` a `values` list, one number per face (`values = [one: 1, two: 2]`)",
                                ruleset.name
                            ),
                        });
                    }
                }
                for written in list_names(weapon, "uncertain") {
                    self.unknown(
                        "weapon field",
                        &written,
                        &[
                            "range",
                            "attacks",
                            "hit",
                            "wound",
                            "rend",
                            "damage",
                            "abilities",
                        ],
                        String::new(),
                    );
                }
            }
            for ability in children(warscroll, "ability") {
                self.ability(ability, ruleset);
            }
        }
        for ability in children(item, "ability") {
            self.ability(ability, ruleset);
        }
        for choice in &ruleset.army_choices {
            let offered = children(item, "ability")
                .filter(|ability| {
                    name_field(ability, "choice").is_some_and(|written| written.name == choice.name)
                })
                .count();
            let offered = i64::try_from(offered).unwrap_or(i64::MAX);
            if offered < choice.max {
                let span = item.name.as_ref().map_or(item.kind.span, |name| name.span);
                self.out.push(GrammarDiagnostic::BadValue {
                    message: format!(
                        "the army offers {offered} `{}` abilities; a player picks {}",
                        choice.name, choice.max
                    ),
                    src: self.file.src(),
                    span: self.file.span(span),
                    label: "too few to pick from".to_string(),
                    help: format!(
                        "add `ability` items with `choice = {}` until there are at least {}",
                        choice.name, choice.max
                    ),
                });
            }
        }
    }

    /// A warscroll's `stats`: lengths for length characteristics, whole numbers for the
    /// others, and every `required` characteristic given.
    fn stat_kinds(&mut self, warscroll: &Item, ruleset: &RulesetDef) {
        for element in elements(warscroll, "stats") {
            let Element::Pair(pair) = element else {
                continue;
            };
            let Some(characteristic) = ruleset
                .characteristics
                .iter()
                .find(|c| c.name == pair.key.value)
            else {
                continue;
            };
            let (wrong, help) = match (&pair.value, characteristic.length) {
                (Value::Int(number), true) => (
                    true,
                    format!(
                        "`{}` is a length: write it with its unit, like `{}: {}in`",
                        pair.key.value, pair.key.value, number.value
                    ),
                ),
                (Value::Length(_), false) => (
                    true,
                    format!(
                        "`{}` is a whole number, not a length: write it without a unit",
                        pair.key.value
                    ),
                ),
                _ => (false, String::new()),
            };
            if wrong {
                self.out.push(GrammarDiagnostic::WrongType {
                    field: "stats".to_string(),
                    expected: if characteristic.length {
                        "a length".to_string()
                    } else {
                        "a whole number".to_string()
                    },
                    found: pair.value.type_name().to_string(),
                    src: self.file.src(),
                    span: self.file.span(pair.value.span()),
                    help,
                });
            }
        }
        if warscroll.field("stats").is_none() {
            return;
        }
        let given = list_names(warscroll, "stats");
        let missing: Vec<String> = ruleset
            .characteristics
            .iter()
            .filter(|c| c.required && !given.iter().any(|written| written.name == c.name))
            .map(|c| format!("`{}`", c.name))
            .collect();
        if !missing.is_empty() {
            let span = warscroll
                .field("stats")
                .map_or(warscroll.header_span(), |f| f.value.span());
            self.out.push(GrammarDiagnostic::BadValue {
                message: format!("the warscroll's `stats` lack {}", missing.join(", ")),
                src: self.file.src(),
                span: self.file.span(span),
                label: "characteristics missing".to_string(),
                help: format!(
                    "ruleset `{}` wants every warscroll to give {}",
                    ruleset.name,
                    missing.join(", ")
                ),
            });
        }
    }

    /// A table: its terrain kinds and rules.
    pub(crate) fn table(&mut self, item: &Item, ruleset: &RulesetDef) {
        for terrain in children(item, "terrain") {
            if let Some(kind) = name_field(terrain, "kind") {
                self.declared(
                    "terrain kind",
                    &kind,
                    &strs(&ruleset.terrain_kinds),
                    ruleset,
                    "`terrain_kinds`",
                );
            }
            for written in list_names(terrain, "rules") {
                self.declared(
                    "terrain rule",
                    &written,
                    &strs(&ruleset.terrain_rules),
                    ruleset,
                    "`terrain_rules`",
                );
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
        if let Some(command) = name_field(item, "command") {
            let abilities: Vec<&str> = ruleset.abilities.iter().map(|a| a.name.as_str()).collect();
            self.declared("ability", &command, &abilities, ruleset, "`ability` items");
        }
        let faces = ruleset.faces();
        for written in list_names(item, "casting_value") {
            self.declared("dice face", &written, &faces, ruleset, "`die` items");
        }
        self.uncertain(item);
    }

    /// A decklist: its warband, decks and cards exist, and each deck keeps its ruleset's rules.
    pub(crate) fn decklist(&mut self, item: &Item, ruleset: &RulesetDef, known: &Known<'_>) {
        let lineage = known.lineage(ruleset);
        let fits = |name: &str| lineage.iter().any(|fit| fit == name);
        let fitting = || {
            let listed: Vec<String> = lineage.iter().map(|name| format!("`{name}`")).collect();
            match listed.as_slice() {
                [init @ .., last] if !init.is_empty() => format!("{} or {last}", init.join(", ")),
                _ => listed.concat(),
            }
        };
        let file = self.file;
        // A warband or card of a decklist written for a ruleset outside the lineage.
        let wrong_ruleset =
            |what: &str, name: &str, its: &str, span| GrammarDiagnostic::DeckWrongRuleset {
                message: format!(
                    "{what} `{name}` is for ruleset `{its}`, not `{}`",
                    ruleset.name
                ),
                src: file.src(),
                span: file.span(span),
                label: "for another ruleset".to_string(),
                help: format!(
                    "a decklist for `{}` takes warbands and cards for {}",
                    ruleset.name,
                    fitting()
                ),
            };
        if let (Some(_), Some(party)) = (name_field(item, "warband"), name_field(item, "party")) {
            self.out.push(GrammarDiagnostic::BadValue {
                message: format!(
                    "decklist `{}` names both a warband and a party",
                    item.name.as_ref().map_or("", |name| name.value.as_str())
                ),
                src: file.src(),
                span: file.span(party.span),
                label: "a second owner".to_string(),
                help:
                    "a decklist is taken by one warband or by one party: keep one of the two fields"
                        .to_string(),
            });
        }
        if let Some(written) = name_field(item, "party") {
            match known.parties.iter().find(|p| p.name == written.name) {
                Some(found) if !fits(&found.ruleset) => {
                    let diagnostic =
                        wrong_ruleset("party", &found.name, &found.ruleset, written.span);
                    self.out.push(diagnostic);
                }
                Some(_) => {}
                None => {
                    let names: Vec<&str> = known.parties.iter().map(|p| p.name.as_str()).collect();
                    self.unknown(
                        "party",
                        &written,
                        &names,
                        "load the file that declares it".to_string(),
                    );
                }
            }
        }
        let mut warband = None;
        if let Some(written) = name_field(item, "warband") {
            match known.warbands.iter().find(|w| w.name == written.name) {
                Some(found) => {
                    if !fits(&found.ruleset) {
                        let diagnostic =
                            wrong_ruleset("warband", &found.name, &found.ruleset, written.span);
                        self.out.push(diagnostic);
                    }
                    warband = Some(*found);
                }
                None => {
                    let names: Vec<&str> = known.warbands.iter().map(|w| w.name.as_str()).collect();
                    self.unknown(
                        "warband",
                        &written,
                        &names,
                        "load the file that declares it".to_string(),
                    );
                }
            }
        }
        let deck_names: Vec<&str> = ruleset.decks.iter().map(|d| d.name.as_str()).collect();
        let card_names: Vec<&str> = known.cards.iter().map(|c| c.name.as_str()).collect();
        // Every card listed so far in the decklist, for `unique_names` across decks.
        let mut seen: Vec<Written<'_>> = Vec::new();
        for deck in children(item, "deck") {
            let Some(deck_name) = &deck.name else {
                continue;
            };
            let deck_written = Written {
                name: &deck_name.value,
                span: deck_name.span,
            };
            let rules = ruleset.decks.iter().find(|d| d.name == deck_name.value);
            if rules.is_none() {
                self.declared("deck", &deck_written, &deck_names, ruleset, "`deck` items");
            }
            let listed: Vec<Written<'_>> = elements(deck, "cards")
                .iter()
                .filter_map(|element| match element {
                    Element::Value(Value::String(name)) => Some(Written {
                        name: &name.value,
                        span: name.span,
                    }),
                    _ => None,
                })
                .collect();
            let mut found: Vec<(&Written<'_>, &CardDef)> = Vec::new();
            for written in &listed {
                match known.cards.iter().find(|card| card.name == written.name) {
                    Some(card) => found.push((written, card)),
                    None => self.unknown(
                        "card",
                        written,
                        &card_names,
                        "load the file that declares it".to_string(),
                    ),
                }
            }
            let unique = rules.and_then(|rules| rules.unique_names) == Some(true);
            for written in &listed {
                match seen.iter().find(|first| first.name == written.name) {
                    Some(first) if unique => {
                        self.out.push(GrammarDiagnostic::DeckDuplicate {
                            message: format!("`{}` is listed twice", written.name),
                            src: self.file.src(),
                            span: self.file.span(written.span),
                            first: self.file.span(first.span),
                            help: format!(
                                "ruleset `{}` wants card names unique across a player's decks: take one out",
                                ruleset.name
                            ),
                        });
                    }
                    Some(_) => {}
                    None => seen.push(Written {
                        name: written.name,
                        span: written.span,
                    }),
                }
            }
            let Some(rules) = rules else {
                continue;
            };
            for &(written, card) in &found {
                if !fits(&card.ruleset) {
                    let diagnostic = wrong_ruleset("card", &card.name, &card.ruleset, written.span);
                    self.out.push(diagnostic);
                }
                self.deck_kind(written, card, rules, ruleset);
                if let Some(warband) = warband {
                    self.deck_owner(written, card, warband);
                }
            }
            self.deck_counts(&deck_written, &listed, &found, rules, ruleset);
        }
    }

    /// A card of a kind the deck does not take.
    fn deck_kind(
        &mut self,
        written: &Written<'_>,
        card: &CardDef,
        rules: &DeckDef,
        ruleset: &RulesetDef,
    ) {
        if rules.kinds.contains(&card.kind) {
            return;
        }
        let kinds: Vec<String> = rules.kinds.iter().map(|kind| format!("`{kind}`")).collect();
        let help = match ruleset.decks.iter().find(|d| d.kinds.contains(&card.kind)) {
            Some(other) => format!("{} cards go in the `{}` deck", card.kind, other.name),
            None => format!("the `{}` deck takes {} cards", rules.name, kinds.join(", ")),
        };
        self.out.push(GrammarDiagnostic::DeckWrongKind {
            message: format!(
                "`{}` is a {} card; the `{}` deck does not take {} cards",
                card.name, card.kind, rules.name, card.kind
            ),
            src: self.file.src(),
            span: self.file.span(written.span),
            label: format!("a {} card", card.kind),
            help,
        });
    }

    /// A card owned by another warband or another grand alliance.
    fn deck_owner(&mut self, written: &Written<'_>, card: &CardDef, warband: &WarbandDef) {
        let (message, label) = match &card.owner {
            Owner::Warband(owner) if *owner != warband.name => (
                format!("`{}` is a card of `{owner}`", card.name),
                "another warband's card",
            ),
            Owner::Alliance(alliance) if *alliance != warband.alliance => (
                format!(
                    "`{}` is a {alliance} card; `{}` is {}",
                    card.name, warband.name, warband.alliance
                ),
                "another grand alliance's card",
            ),
            _ => return,
        };
        self.out.push(GrammarDiagnostic::DeckWrongOwner {
            message,
            src: self.file.src(),
            span: self.file.span(written.span),
            label: label.to_string(),
            help: format!(
                "`{}` takes its own cards, universal cards and {} cards",
                warband.name, warband.alliance
            ),
        });
    }

    /// `min_size`, `max_size`, `limits` and `max_half` of one deck.
    fn deck_counts(
        &mut self,
        deck: &Written<'_>,
        listed: &[Written<'_>],
        found: &[(&Written<'_>, &CardDef)],
        rules: &DeckDef,
        ruleset: &RulesetDef,
    ) {
        let size = i64::try_from(listed.len()).unwrap_or(i64::MAX);
        let cards = |count: i64| match count {
            1 => "1 card".to_string(),
            _ => format!("{count} cards"),
        };
        if let Some(min) = rules.min_size
            && size < min
        {
            self.out.push(GrammarDiagnostic::DeckTooSmall {
                message: format!(
                    "the `{}` deck has {}; ruleset `{}` needs at least {min}",
                    rules.name,
                    cards(size),
                    ruleset.name
                ),
                src: self.file.src(),
                span: self.file.span(deck.span),
                label: format!("{} listed", cards(size)),
                help: format!("add {}", cards(min - size)),
            });
        }
        if let Some(max) = rules.max_size
            && size > max
        {
            self.out.push(GrammarDiagnostic::DeckTooLarge {
                message: format!(
                    "the `{}` deck has {}; ruleset `{}` allows at most {max}",
                    rules.name,
                    cards(size),
                    ruleset.name
                ),
                src: self.file.src(),
                span: self.file.span(deck.span),
                label: format!("{} listed", cards(size)),
                help: format!("take out {}", cards(size - max)),
            });
        }
        for limit in &rules.limits {
            let matching: Vec<&Written<'_>> = found
                .iter()
                .filter(|(_, card)| has(card, &limit.name))
                .map(|(written, _)| *written)
                .collect();
            let count = i64::try_from(matching.len()).unwrap_or(i64::MAX);
            if count <= limit.max {
                continue;
            }
            let first_over = usize::try_from(limit.max)
                .ok()
                .and_then(|index| matching.get(index))
                .map_or(deck.span, |written| written.span);
            self.out.push(GrammarDiagnostic::DeckLimit {
                message: format!(
                    "the `{}` deck has {} {} cards; it may hold at most {}",
                    rules.name, count, limit.name, limit.max
                ),
                src: self.file.src(),
                span: self.file.span(first_over),
                label: format!("over the limit of {} {}", limit.max, limit.name),
                help: match count - limit.max {
                    1 => format!(
                        "take out 1 {name} card, or swap it for a card that is not {name}",
                        name = limit.name
                    ),
                    over => format!(
                        "take out {over} {name} cards, or swap them for cards that are not {name}",
                        name = limit.name
                    ),
                },
            });
        }
        if !rules.balanced.is_empty() {
            self.deck_balance(deck, found, rules);
        }
        if !rules.max_half.is_empty() {
            let count = found
                .iter()
                .filter(|(_, card)| rules.max_half.iter().any(|name| has(card, name)))
                .count();
            let count = i64::try_from(count).unwrap_or(i64::MAX);
            let half = size / 2;
            if count > half {
                let names = rules.max_half.join(" or ");
                self.out.push(GrammarDiagnostic::DeckHalf {
                    message: format!(
                        "the `{}` deck has {count} {names} cards out of {size}; at most half ({half}) may be",
                        rules.name
                    ),
                    src: self.file.src(),
                    span: self.file.span(deck.span),
                    label: format!("{count} of {size} are {names} cards"),
                    help: format!(
                        "take out {names} cards or add other cards, until they are at most half the deck (rounded down)"
                    ),
                });
            }
        }
    }
}

impl Checker<'_> {
    /// `balanced`: each listed keyword on as many of the deck's cards as every other, and on
    /// at least one.
    fn deck_balance(
        &mut self,
        deck: &Written<'_>,
        found: &[(&Written<'_>, &CardDef)],
        rules: &DeckDef,
    ) {
        let counts: Vec<(&str, usize)> = rules
            .balanced
            .iter()
            .map(|name| {
                let count = found.iter().filter(|(_, card)| has(card, name)).count();
                (name.as_str(), count)
            })
            .collect();
        let most = counts
            .iter()
            .map(|(_, count)| *count)
            .max()
            .unwrap_or(0)
            .max(1);
        let short: Vec<String> = counts
            .iter()
            .filter(|(_, count)| *count < most)
            .map(|(name, count)| format!("{} more {name}", most - count))
            .collect();
        if short.is_empty() {
            return;
        }
        let shown: Vec<String> = counts
            .iter()
            .map(|(name, count)| format!("{count} {name}"))
            .collect();
        self.out.push(GrammarDiagnostic::DeckBalance {
            message: format!(
                "the `{}` deck holds {}; its rules want each on the same number of cards, at least one",
                rules.name,
                shown.join(", ")
            ),
            src: self.file.src(),
            span: self.file.span(deck.span),
            label: "unbalanced".to_string(),
            help: format!(
                "bring each to {most}: add {} (or take cards of the others out)",
                short.join(", ")
            ),
        });
    }
}

/// Whether a card has a name of a deck's `limits` or `max_half`: its kind, its score timing
/// or one of its keywords.
fn has(card: &CardDef, name: &str) -> bool {
    card.kind == name
        || card.score.as_deref() == Some(name)
        || card.keywords.iter().any(|keyword| keyword == name)
}

/// What decklists are checked against besides their ruleset.
pub(crate) struct Known<'a> {
    pub(crate) resolved: &'a BTreeMap<String, RulesetDef>,
    pub(crate) warbands: &'a [&'a WarbandDef],
    pub(crate) cards: &'a [&'a CardDef],
    pub(crate) parties: &'a [&'a PartyDef],
}

impl Known<'_> {
    /// The rulesets whose warbands and cards fit a decklist for `ruleset`: it and the
    /// rulesets it extends, nearest first.
    fn lineage(&self, ruleset: &RulesetDef) -> Vec<String> {
        let mut lineage = vec![ruleset.name.clone()];
        let mut parent = ruleset.extends.clone();
        while let Some(name) = parent {
            if lineage.contains(&name) {
                break;
            }
            parent = self.resolved.get(&name).and_then(|def| def.extends.clone());
            lineage.push(name);
        }
        lineage
    }
}
