//! What one ruleset changes against another, section by section, read from the data.
//!
//! `gloam rules diff A B` compares the *resolved* rulesets (each with what it inherits
//! through `extends`), so the answer is what a player of B meets that a player of A does
//! not: vocabulary added or removed, dice faces changed, windows, steps of the flow and
//! deck rules added, removed or overridden, and the content (boards, warbands, cards)
//! each plays: its own and what the rulesets it extends hold.
//!
//! ```
//! use gloam_grammar::{load, SourceFile};
//! use gloam::rules_diff::{diff_rulesets, ChangeKind};
//!
//! let text = r#"
//! ruleset "base" {
//!     title = "Base" rounds = 3 min_players = 2 max_players = 2
//!     tokens = [guard] window "power_step" { }
//! }
//! ruleset "house" { extends = "base" title = "House" rounds = 4 tokens = [stagger] }
//! "#;
//! let (library, problems) = load(&[SourceFile::new("r.gloam", text)]);
//! assert!(problems.is_empty());
//! let diff = diff_rulesets(&library, "base", "house").unwrap();
//! let tokens = diff.section("tokens").unwrap();
//! assert_eq!(tokens.changes[0].kind, ChangeKind::Added);
//! assert_eq!(tokens.changes[0].name, "stagger");
//! let settings = diff.section("settings").unwrap();
//! assert!(settings.changes.iter().any(|c| c.name == "rounds" && c.after.as_deref() == Some("4")));
//! ```

use std::fmt::Write as _;

use gloam_grammar::{
    AbilityDef, ArmyDef, BoardDef, CardDef, CharacteristicDef, ConstantDef, DeckDef, DieDef,
    Library, PartyDef, RosterDef, RulesetDef, ScriptDef, StepDef, TableDef, WarbandDef, WindowDef,
};
use serde::Serialize;

/// Why two rulesets cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiffError {
    /// A ruleset name is not in the library.
    #[error("no ruleset named `{name}` is loaded (loaded: {known})")]
    UnknownRuleset {
        /// The name asked for.
        name: String,
        /// The rulesets that are loaded, comma-separated.
        known: String,
    },
}

/// What happened to one part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// In B, not in A.
    Added,
    /// In A, not in B.
    Removed,
    /// In both, different in B.
    Overridden,
}

impl ChangeKind {
    fn mark(self) -> char {
        match self {
            ChangeKind::Added => '+',
            ChangeKind::Removed => '-',
            ChangeKind::Overridden => '~',
        }
    }
}

/// Where a changed value comes from, so that a rule change of the source is told from
/// content and from the data authors' own choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Provenance {
    /// A rule of the rules source (the seed the ruleset is written from).
    Seed,
    /// A value the rules source does not state, chosen by the data's authors: marked `ours`
    /// in the ruleset on either side (a setting, a vocabulary name, a characteristic's field).
    Ours,
    /// Content the ruleset plays (boards, warbands, cards), not a rule.
    Content,
}

/// One change: a part added, removed or overridden.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// Whether it is a rule of the source, one of ours, or content.
    pub provenance: Provenance,
    /// Added, removed or overridden.
    pub kind: ChangeKind,
    /// The part's name (`rounds`, `stagger`, `attack`...).
    pub name: String,
    /// A short account of the part in A (`None` when added).
    pub before: Option<String>,
    /// A short account of the part in B (`None` when removed).
    pub after: Option<String>,
    /// For a changed script: its line diff, `-`/`+`/` ` prefixed, context trimmed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
}

/// The changes of one section (`settings`, `tokens`, `dice`, `steps`, `cards`...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Section {
    /// The section's name.
    pub section: String,
    /// Its changes, in B's order, then the removed ones in A's order.
    pub changes: Vec<Change>,
    /// How many parts of the section are the same in both.
    pub unchanged: usize,
}

/// What ruleset B changes against ruleset A.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RulesDiff {
    /// Ruleset A's name.
    pub from: String,
    /// Ruleset B's name.
    pub to: String,
    /// B's `extends` chain, nearest parent first.
    pub to_extends: Vec<String>,
    /// A's `extends` chain, nearest parent first.
    pub from_extends: Vec<String>,
    /// Every section, in a fixed order, including those without changes.
    pub sections: Vec<Section>,
}

impl RulesDiff {
    /// The section of that name.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.section == name)
    }

    /// Whether nothing differs.
    pub fn is_empty(&self) -> bool {
        self.sections.iter().all(|s| s.changes.is_empty())
    }

    /// The diff for a person: one block per section with changes, then a line of counts of
    /// the unchanged parts. With `full`, changed scripts show their line diff.
    pub fn render(&self, full: bool) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "ruleset `{}` against `{}`", self.to, self.from);
        for (name, chain) in [
            (&self.to, &self.to_extends),
            (&self.from, &self.from_extends),
        ] {
            if !chain.is_empty() {
                let _ = writeln!(out, "  `{name}` extends {}", quoted(chain));
            }
        }
        if self.is_empty() {
            out.push_str("\nno differences\n");
        }
        for section in self.sections.iter().filter(|s| !s.changes.is_empty()) {
            let content = section
                .changes
                .iter()
                .all(|c| c.provenance == Provenance::Content);
            let _ = writeln!(
                out,
                "\n{}{}",
                section.section,
                if content { " (content)" } else { "" }
            );
            // Plain names (tokens, keywords...) read best as one line per kind of change.
            let plain = |c: &&Change| c.before.is_none() && c.after.is_none();
            for kind in [ChangeKind::Added, ChangeKind::Removed] {
                let names: Vec<String> = section
                    .changes
                    .iter()
                    .filter(plain)
                    .filter(|c| c.kind == kind)
                    .map(|c| match c.provenance {
                        Provenance::Ours => format!("{} (ours)", c.name),
                        _ => c.name.clone(),
                    })
                    .collect();
                if !names.is_empty() {
                    let _ = writeln!(out, "  {} {}", kind.mark(), names.join(", "));
                }
            }
            for change in section.changes.iter().filter(|c| !plain(c)) {
                let _ = write!(out, "  {} {}", change.kind.mark(), change.name);
                if change.provenance == Provenance::Ours {
                    out.push_str(" (ours)");
                }
                match (&change.before, &change.after) {
                    (Some(before), Some(after)) if !change.lines.is_empty() || before == after => {
                        let _ = write!(out, ": {}", clip(after));
                    }
                    (Some(before), Some(after)) => {
                        let _ = write!(out, ": {} -> {}", clip(before), clip(after));
                    }
                    (None, Some(text)) | (Some(text), None) => {
                        let _ = write!(out, ": {}", clip(text));
                    }
                    (None, None) => {}
                }
                out.push('\n');
                if full {
                    for line in &change.lines {
                        let _ = writeln!(out, "      {line}");
                    }
                }
            }
        }
        let same: Vec<String> = self
            .sections
            .iter()
            .filter(|s| s.unchanged > 0)
            .map(|s| format!("{} {}", s.unchanged, s.section))
            .collect();
        if !same.is_empty() {
            let _ = writeln!(out, "\nunchanged: {}", same.join(", "));
        }
        if self
            .sections
            .iter()
            .any(|s| s.changes.iter().any(|c| c.provenance == Provenance::Ours))
        {
            out.push_str("(ours): a value the rules source does not state, chosen by the data (`ours` in the ruleset)\n");
        }
        if !full
            && self
                .sections
                .iter()
                .any(|s| s.changes.iter().any(|c| !c.lines.is_empty()))
        {
            out.push_str("(--full shows the line changes of each overridden script)\n");
        }
        out
    }
}

/// A summary cut to a screen line's worth (`--json` keeps it whole).
fn clip(text: &str) -> String {
    const MAX: usize = 72;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(" -> ")
}

/// Compares ruleset `to` against ruleset `from`, both resolved (with what they inherit).
///
/// # Errors
///
/// [`DiffError::UnknownRuleset`] when either name is not loaded.
pub fn diff_rulesets(library: &Library, from: &str, to: &str) -> Result<RulesDiff, DiffError> {
    let a = resolved(library, from)?;
    let b = resolved(library, to)?;
    let mut sections = vec![settings(a, b)];
    for (name, before, after) in [
        ("hex types", &a.hex_types, &b.hex_types),
        ("tokens", &a.tokens, &b.tokens),
        ("counters", &a.counters, &b.counters),
        ("keywords", &a.keywords, &b.keywords),
        ("card kinds", &a.card_kinds, &b.card_kinds),
        ("score timings", &a.score_timings, &b.score_timings),
        ("alliances", &a.alliances, &b.alliances),
        ("weapon abilities", &a.weapon_abilities, &b.weapon_abilities),
        ("flags", &a.flags, &b.flags),
        ("terrain kinds", &a.terrain_kinds, &b.terrain_kinds),
        ("terrain rules", &a.terrain_rules, &b.terrain_rules),
        ("frequencies", &a.frequencies, &b.frequencies),
    ] {
        sections.push(names_section(name, before, after));
    }
    sections.push(named_section("zones", &a.zones, &b.zones, |zone| Part {
        name: zone.name.clone(),
        summary: zone.visibility_name().to_string(),
        script: None,
    }));
    sections.push(named_section(
        "characteristics",
        &a.characteristics,
        &b.characteristics,
        characteristic_part,
    ));
    sections.push(named_section("dice", &a.dice, &b.dice, die_part));
    sections.push(named_section(
        "windows",
        &a.windows,
        &b.windows,
        window_part,
    ));
    sections.push(named_section("steps", &a.steps, &b.steps, step_part));
    sections.push(named_section("actions", &a.actions, &b.actions, |action| {
        Part {
            name: action.name.clone(),
            summary: about_or(action.about.as_deref(), "an action"),
            script: Some(script_with_condition(
                action.condition.as_ref(),
                &action.run,
            )),
        }
    }));
    sections.push(named_section(
        "invariants",
        &a.invariants,
        &b.invariants,
        |invariant| Part {
            name: invariant.name.clone(),
            summary: invariant.about.clone(),
            script: Some(invariant.holds.text.clone()),
        },
    ));
    sections.push(named_section("decks", &a.decks, &b.decks, deck_part));
    sections.push(named_section(
        "abilities",
        &a.abilities,
        &b.abilities,
        ability_part,
    ));
    sections.push(named_section(
        "constants",
        &a.constants,
        &b.constants,
        constant_part,
    ));
    sections.push(scripts_section(a, b));
    let boards = |name: &str| -> Vec<&BoardDef> {
        let lineage = lineage(library, name);
        library
            .boards()
            .iter()
            .filter(|x| lineage.contains(&x.ruleset))
            .collect()
    };
    sections.push(named_section(
        "boards",
        &boards(from),
        &boards(to),
        |board| Part {
            name: board.name.clone(),
            summary: format!("{} hexes", board.hexes.len()),
            script: None,
        },
    ));
    let warbands = |name: &str| -> Vec<&WarbandDef> {
        let lineage = lineage(library, name);
        library
            .warbands()
            .iter()
            .filter(|x| lineage.contains(&x.ruleset))
            .collect()
    };
    sections.push(named_section(
        "warbands",
        &warbands(from),
        &warbands(to),
        |warband| Part {
            name: warband.name.clone(),
            summary: format!(
                "{} fighters: {}",
                warband.fighters.len(),
                warband
                    .fighters
                    .iter()
                    .map(|f| f.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            script: None,
        },
    ));
    let tables = |name: &str| -> Vec<&TableDef> {
        let lineage = lineage(library, name);
        library
            .tables()
            .iter()
            .filter(|x| lineage.contains(&x.ruleset))
            .collect()
    };
    sections.push(named_section(
        "tables",
        &tables(from),
        &tables(to),
        |table| Part {
            name: table.name.clone(),
            summary: format!(
                "{} x {}, {} maps, {} terrain features",
                table.width,
                table.depth,
                table.maps.len(),
                table.terrain.len()
            ),
            script: Some(table.to_string()),
        },
    ));
    let armies = |name: &str| -> Vec<&ArmyDef> {
        let lineage = lineage(library, name);
        library
            .armies()
            .iter()
            .filter(|x| lineage.contains(&x.ruleset))
            .collect()
    };
    sections.push(named_section(
        "armies",
        &armies(from),
        &armies(to),
        |army| Part {
            name: army.name.clone(),
            summary: format!(
                "{} warscrolls: {}",
                army.warscrolls.len(),
                army.warscrolls
                    .iter()
                    .map(|w| w.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            script: Some(army.to_string()),
        },
    ));
    let rosters = |name: &str| -> Vec<&RosterDef> {
        let lineage = lineage(library, name);
        library
            .rosters()
            .iter()
            .filter(|x| lineage.contains(&x.ruleset))
            .collect()
    };
    sections.push(named_section(
        "rosters",
        &rosters(from),
        &rosters(to),
        |roster| Part {
            name: roster.name.clone(),
            summary: format!(
                "{} races, {} professions, {} pieces of equipment, {} domains",
                roster.races.len(),
                roster.professions.len(),
                roster.equipment.len(),
                roster.domains.len()
            ),
            script: Some(roster.to_string()),
        },
    ));
    let parties = |name: &str| -> Vec<&PartyDef> {
        let lineage = lineage(library, name);
        library
            .parties()
            .iter()
            .filter(|x| lineage.contains(&x.ruleset))
            .collect()
    };
    sections.push(named_section(
        "parties",
        &parties(from),
        &parties(to),
        |party| Part {
            name: party.name.clone(),
            summary: format!("{} heroes, {} points", party.heroes.len(), party.points),
            script: Some(party.to_string()),
        },
    ));
    let cards = |name: &str| -> Vec<&CardDef> {
        let lineage = lineage(library, name);
        library
            .cards()
            .iter()
            .filter(|x| lineage.contains(&x.ruleset))
            .collect()
    };
    sections.push(named_section("cards", &cards(from), &cards(to), |c| {
        card_part(c)
    }));
    mark_provenance(&mut sections, a, b);
    Ok(RulesDiff {
        from: from.to_string(),
        to: to.to_string(),
        to_extends: chain(library, to),
        from_extends: chain(library, from),
        sections,
    })
}

/// Tags each change: content sections are content; a setting, a vocabulary name or a
/// characteristic marked `ours` on the side it comes from (either side for an override) is
/// ours; the rest is the rules source's.
fn mark_provenance(sections: &mut [Section], a: &RulesetDef, b: &RulesetDef) {
    let ours_characteristic = |r: &RulesetDef, name: &str| {
        r.characteristics
            .iter()
            .any(|c| c.name == name && !c.ours.is_empty())
    };
    for section in sections {
        let content = matches!(
            section.section.as_str(),
            "boards" | "warbands" | "cards" | "tables" | "armies" | "rosters" | "parties"
        );
        for change in &mut section.changes {
            let ours = |r: &RulesetDef| {
                if section.section == "characteristics" {
                    ours_characteristic(r, &change.name)
                } else if section.section == "constants" {
                    // A value the source does not print says so in its `source`.
                    r.constants.iter().any(|c| {
                        c.name == change.name
                            && c.source.as_deref().is_some_and(|s| {
                                s.starts_with("not in the seed") || s.starts_with("ours")
                            })
                    })
                } else {
                    r.ours.contains(&change.name)
                }
            };
            let marked = match change.kind {
                ChangeKind::Added => ours(b),
                ChangeKind::Removed => ours(a),
                ChangeKind::Overridden => ours(a) || ours(b),
            };
            change.provenance = if content {
                Provenance::Content
            } else if marked {
                Provenance::Ours
            } else {
                Provenance::Seed
            };
        }
    }
}

fn resolved<'a>(library: &'a Library, name: &str) -> Result<&'a RulesetDef, DiffError> {
    library
        .ruleset(name)
        .ok_or_else(|| DiffError::UnknownRuleset {
            name: name.to_string(),
            known: library
                .rulesets()
                .iter()
                .map(|r| r.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The ruleset and every ruleset it extends: whose content (boards, warbands, cards) a
/// game of it plays, as the driver does.
fn lineage(library: &Library, name: &str) -> Vec<String> {
    let mut names = vec![name.to_string()];
    names.extend(chain(library, name));
    names
}

/// The `extends` chain of a ruleset as written, nearest first; stops at a repeat.
fn chain(library: &Library, name: &str) -> Vec<String> {
    library
        .extends_chain(name)
        .into_iter()
        .skip(1)
        .map(str::to_owned)
        .collect()
}

fn settings(a: &RulesetDef, b: &RulesetDef) -> Section {
    fn show<T: std::fmt::Display>(value: Option<T>) -> String {
        value.map_or_else(|| "(not set)".to_string(), |v| v.to_string())
    }
    let pairs: [(&str, String, String); 6] = [
        ("title", format!("{:?}", a.title), format!("{:?}", b.title)),
        ("rounds", show(a.rounds), show(b.rounds)),
        ("min_players", show(a.min_players), show(b.min_players)),
        ("max_players", show(a.max_players), show(b.max_players)),
        (
            "off_board_blocks_sight",
            show(a.off_board_blocks_sight),
            show(b.off_board_blocks_sight),
        ),
        (
            "about",
            show(a.about.as_ref().map(|s| format!("{s:?}"))),
            show(b.about.as_ref().map(|s| format!("{s:?}"))),
        ),
    ];
    let mut section = Section {
        section: "settings".to_string(),
        changes: Vec::new(),
        unchanged: 0,
    };
    for (name, before, after) in pairs {
        if before == after {
            section.unchanged += 1;
        } else {
            section.changes.push(Change {
                provenance: Provenance::Seed,
                kind: ChangeKind::Overridden,
                name: name.to_string(),
                before: Some(before),
                after: Some(after),
                lines: Vec::new(),
            });
        }
    }
    section
}

fn names_section(section: &str, before: &[String], after: &[String]) -> Section {
    let mut changes: Vec<Change> = after
        .iter()
        .filter(|n| !before.contains(n))
        .map(|n| Change {
            provenance: Provenance::Seed,
            kind: ChangeKind::Added,
            name: n.clone(),
            before: None,
            after: None,
            lines: Vec::new(),
        })
        .collect();
    changes.extend(
        before
            .iter()
            .filter(|n| !after.contains(n))
            .map(|n| Change {
                provenance: Provenance::Seed,
                kind: ChangeKind::Removed,
                name: n.clone(),
                before: None,
                after: None,
                lines: Vec::new(),
            }),
    );
    Section {
        section: section.to_string(),
        changes,
        unchanged: after.iter().filter(|n| before.contains(n)).count(),
    }
}

/// A named part reduced to what the diff compares: a one-line summary and, for parts that
/// are scripts, the script text (compared and line-diffed on its own).
struct Part {
    name: String,
    summary: String,
    script: Option<String>,
}

fn named_section<T>(
    section: &str,
    before: &[T],
    after: &[T],
    part: impl Fn(&T) -> Part,
) -> Section {
    let old: Vec<Part> = before.iter().map(&part).collect();
    let new: Vec<Part> = after.iter().map(&part).collect();
    let mut changes = Vec::new();
    let mut unchanged = 0;
    for b in &new {
        match old.iter().find(|a| a.name == b.name) {
            None => changes.push(Change {
                provenance: Provenance::Seed,
                kind: ChangeKind::Added,
                name: b.name.clone(),
                before: None,
                after: Some(b.summary.clone()),
                lines: Vec::new(),
            }),
            Some(a) if a.summary == b.summary && a.script == b.script => unchanged += 1,
            Some(a) => {
                let lines = match (&a.script, &b.script) {
                    (Some(x), Some(y)) if x != y => line_diff(x, y),
                    _ => Vec::new(),
                };
                let after = if lines.is_empty() {
                    b.summary.clone()
                } else {
                    let (minus, plus) = counts(&lines);
                    if a.summary == b.summary {
                        format!("script changed ({minus} lines out, {plus} in)")
                    } else {
                        format!(
                            "{} -> {}; script changed ({minus} lines out, {plus} in)",
                            a.summary, b.summary
                        )
                    }
                };
                changes.push(Change {
                    provenance: Provenance::Seed,
                    kind: ChangeKind::Overridden,
                    name: b.name.clone(),
                    before: Some(a.summary.clone()),
                    after: Some(after),
                    lines,
                });
            }
        }
    }
    for a in old.iter().filter(|a| !new.iter().any(|b| b.name == a.name)) {
        changes.push(Change {
            provenance: Provenance::Seed,
            kind: ChangeKind::Removed,
            name: a.name.clone(),
            before: Some(a.summary.clone()),
            after: None,
            lines: Vec::new(),
        });
    }
    Section {
        section: section.to_string(),
        changes,
        unchanged,
    }
}

fn scripts_section(a: &RulesetDef, b: &RulesetDef) -> Section {
    let pick = |r: &RulesetDef| -> Vec<(String, String)> {
        [
            ("setup", &r.setup),
            ("scoring", &r.scoring),
            ("victory", &r.victory),
        ]
        .into_iter()
        .filter_map(|(name, script)| script.as_ref().map(|s| (name.to_string(), s.text.clone())))
        .collect()
    };
    named_section("scripts", &pick(a), &pick(b), |(name, text)| Part {
        name: name.clone(),
        summary: format!("{} lines", text.trim().lines().count()),
        script: Some(text.clone()),
    })
}

fn about_or(about: Option<&str>, fallback: &str) -> String {
    about.map_or_else(|| fallback.to_string(), |a| format!("{a:?}"))
}

fn characteristic_part(c: &CharacteristicDef) -> Part {
    Part {
        name: c.name.clone(),
        summary: match c.floor {
            Some(floor) => format!("floor {floor}"),
            None => "no floor".to_string(),
        },
        script: None,
    }
}

fn die_part(d: &DieDef) -> Part {
    Part {
        name: d.name.clone(),
        summary: d
            .faces
            .iter()
            .map(|f| format!("{} x{}", f.name, f.count))
            .collect::<Vec<_>>()
            .join(", "),
        script: None,
    }
}

fn window_part(w: &WindowDef) -> Part {
    Part {
        name: w.name.clone(),
        summary: about_or(w.about.as_deref(), "a window"),
        script: None,
    }
}

fn step_part(s: &StepDef) -> Part {
    Part {
        name: s.name.clone(),
        summary: about_or(s.about.as_deref(), "a step"),
        script: Some(s.run.text.clone()),
    }
}

fn script_with_condition(condition: Option<&ScriptDef>, run: &ScriptDef) -> String {
    match condition {
        Some(c) => format!("// condition\n{}\n// run\n{}", c.text, run.text),
        None => run.text.clone(),
    }
}

fn deck_part(d: &DeckDef) -> Part {
    let mut rules = vec![format!("kinds {}", d.kinds.join("/"))];
    if let Some(min) = d.min_size {
        rules.push(format!("at least {min}"));
    }
    if let Some(max) = d.max_size {
        rules.push(format!("at most {max}"));
    }
    for limit in &d.limits {
        rules.push(format!("at most {} {}", limit.max, limit.name));
    }
    if !d.max_half.is_empty() {
        rules.push(format!("at most half {}", d.max_half.join("/")));
    }
    if d.unique_names == Some(true) {
        rules.push("unique names".to_string());
    }
    Part {
        name: d.name.clone(),
        summary: rules.join(", "),
        script: None,
    }
}

fn ability_part(a: &AbilityDef) -> Part {
    let mut summary = a
        .window
        .as_deref()
        .map_or_else(|| "an ability".to_string(), |w| format!("in `{w}`"));
    if let Some(frequency) = &a.frequency {
        let _ = write!(summary, ", {frequency}");
    }
    let script = match (&a.condition, &a.effect) {
        (condition, Some(effect)) => Some(script_with_condition(condition.as_ref(), effect)),
        (Some(condition), None) => Some(condition.text.clone()),
        (None, None) => a.text.clone(),
    };
    Part {
        name: a.name.clone(),
        summary,
        script,
    }
}

fn constant_part(c: &ConstantDef) -> Part {
    let mut summary = c.value.to_string();
    if let Some(confidence) = &c.confidence {
        let _ = write!(summary, " ({confidence} confidence)");
    }
    Part {
        name: c.name.clone(),
        summary,
        script: None,
    }
}

fn card_part(c: &CardDef) -> Part {
    let mut summary = c.kind.clone();
    if let Some(window) = &c.window {
        let _ = write!(summary, ", window {window}");
    }
    if let Some(glory) = c.glory {
        let _ = write!(summary, ", {glory} glory");
    }
    let mut script = String::new();
    for s in [&c.condition, &c.effect].into_iter().flatten() {
        script.push_str(&s.text);
        script.push('\n');
    }
    Part {
        name: c.name.clone(),
        summary,
        script: Some(script),
    }
}

/// Line diff of two scripts: changed lines with up to one line of context around each
/// run of changes; blank lines and indentation differences do not count.
fn line_diff(before: &str, after: &str) -> Vec<String> {
    let old: Vec<&str> = before
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let new: Vec<&str> = after
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Patience)
        .diff_slices(&old, &new);
    let mut lines = Vec::new();
    for group in diff.grouped_ops(1) {
        if !lines.is_empty() {
            lines.push("...".to_string());
        }
        for op in group {
            for change in diff.iter_changes(&op) {
                let mark = match change.tag() {
                    similar::ChangeTag::Delete => '-',
                    similar::ChangeTag::Insert => '+',
                    similar::ChangeTag::Equal => ' ',
                };
                lines.push(format!("{mark} {}", change.value()));
            }
        }
    }
    lines
}

fn counts(lines: &[String]) -> (usize, usize) {
    let minus = lines.iter().filter(|l| l.starts_with('-')).count();
    let plus = lines.iter().filter(|l| l.starts_with('+')).count();
    (minus, plus)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gloam_grammar::{SourceFile, load};

    fn library(text: &str) -> Library {
        let (library, problems) = load(&[SourceFile::new("r.gloam", text)]);
        assert!(problems.is_empty(), "{problems:?}");
        library
    }

    const BASE: &str = r#"
ruleset "base" {
    title = "Base"
    rounds = 3
    min_players = 2
    max_players = 2
    tokens = [guard, move]
    die "attack" { faces = [critical: 1, hammer: 3, swords: 2] }
    window "power_step" { about = "after an activation" }
    step "turn" { run = {
        let a = 1;
        then("turn");
    } }
    step "old" { run = { } }
}
"#;

    #[test]
    fn diff_zones_reports_added_removed_and_changed_visibility() {
        let text = r#"
ruleset "base" {
    title = "Base"
    rounds = 3
    min_players = 2
    max_players = 2
    zones = [hand: owner, discard: public, scored: public]
}
ruleset "house" {
    extends = "base"
    title = "House"
    zones = [discard: nobody, banished: public]
    remove = [zone: scored]
}
"#;
        let library = library(text);
        let diff = diff_rulesets(&library, "base", "house").unwrap();
        let zones = diff.section("zones").unwrap();
        let changes: Vec<(ChangeKind, &str, Option<&str>, Option<&str>)> = zones
            .changes
            .iter()
            .map(|c| {
                (
                    c.kind,
                    c.name.as_str(),
                    c.before.as_deref(),
                    c.after.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            changes,
            [
                (
                    ChangeKind::Overridden,
                    "discard",
                    Some("public"),
                    Some("nobody")
                ),
                (ChangeKind::Added, "banished", None, Some("public")),
                (ChangeKind::Removed, "scored", Some("public"), None),
            ]
        );
        assert_eq!(zones.unchanged, 1);
        let rendered = diff.render(false);
        assert!(
            rendered.contains("~ discard: public -> nobody"),
            "{rendered}"
        );
        assert!(
            rendered.contains("unchanged: ") && rendered.contains("1 zones"),
            "{rendered}"
        );
    }

    #[test]
    fn diff_same_ruleset_is_empty() {
        let library = library(BASE);
        let diff = diff_rulesets(&library, "base", "base").unwrap();
        assert!(diff.is_empty());
        assert!(diff.render(false).contains("no differences"));
    }

    #[test]
    fn diff_extending_ruleset_reports_added_removed_and_overridden() {
        let text = format!(
            "{BASE}{}",
            r#"
ruleset "house" {
    extends = "base"
    title = "House"
    rounds = 4
    tokens = [stagger]
    remove = [step: "old", token: move]
    die "attack" { faces = [critical: 1, hammer: 2, swords: 3] }
    step "turn" { run = {
        let a = 2;
        then("turn");
    } }
    step "new" { run = { } }
}
"#
        );
        let library = library(&text);
        let diff = diff_rulesets(&library, "base", "house").unwrap();
        assert_eq!(diff.to_extends, ["base"]);
        let tokens = diff.section("tokens").unwrap();
        let kinds: Vec<(ChangeKind, &str)> = tokens
            .changes
            .iter()
            .map(|c| (c.kind, c.name.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [
                (ChangeKind::Added, "stagger"),
                (ChangeKind::Removed, "move")
            ]
        );
        assert_eq!(tokens.unchanged, 1);
        let dice = diff.section("dice").unwrap();
        assert_eq!(dice.changes[0].kind, ChangeKind::Overridden);
        assert_eq!(
            dice.changes[0].after.as_deref(),
            Some("critical x1, hammer x2, swords x3")
        );
        let steps = diff.section("steps").unwrap();
        let turn = steps.changes.iter().find(|c| c.name == "turn").unwrap();
        assert_eq!(turn.kind, ChangeKind::Overridden);
        assert!(turn.lines.contains(&"- let a = 1;".to_string()));
        assert!(turn.lines.contains(&"+ let a = 2;".to_string()));
        assert!(
            steps
                .changes
                .iter()
                .any(|c| c.kind == ChangeKind::Added && c.name == "new")
        );
        assert!(
            steps
                .changes
                .iter()
                .any(|c| c.kind == ChangeKind::Removed && c.name == "old")
        );
        let text = diff.render(true);
        assert!(text.contains("~ rounds: 3 -> 4"), "{text}");
        assert!(text.contains("+ let a = 2;"), "{text}");
    }

    #[test]
    fn diff_unknown_ruleset_names_the_loaded_ones() {
        let library = library(BASE);
        let error = diff_rulesets(&library, "base", "nope").unwrap_err();
        assert_eq!(
            error.to_string(),
            "no ruleset named `nope` is loaded (loaded: base)"
        );
    }

    #[test]
    fn line_diff_ignores_indentation_and_blank_lines() {
        assert!(line_diff("  a;\n\n  b;", "a;\nb;\n").is_empty());
        assert_eq!(line_diff("a;\nb;", "a;\nc;"), ["  a;", "- b;", "+ c;"]);
    }
}
