//! Loading many files at once: parse, check, build, resolve `extends`, cross-reference, and
//! report every problem found, in a deterministic order.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::ast::{Item, Value};
use crate::build::Builder;
use crate::defs::{
    AbilityDef, ArmyDef, BoardDef, CardDef, DecklistDef, RulesetDef, ScriptDef, TableDef,
    WarbandDef,
};
use crate::diagnostic::{FileRef, GrammarDiagnostic};
use crate::party::{PartyChecker, PartyDef, RosterDef};
use crate::resolve::{self, Declared};
use crate::{print, schema, syntax, xref};

/// One source file: a name (used in diagnostics) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The name diagnostics show, usually the path.
    pub name: String,
    /// The whole text.
    pub text: Arc<str>,
}

impl SourceFile {
    /// A source file from a name and a text.
    ///
    /// # Examples
    ///
    /// ```
    /// let file = gloam_grammar::SourceFile::new("cards/a.gloam", "card \"A\" { }");
    /// assert_eq!(file.name, "cards/a.gloam");
    /// ```
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
        }
    }
}

/// Every definition loaded from a set of files.
///
/// Rulesets are kept as written ([`rulesets`](Self::rulesets)) and resolved
/// ([`ruleset`](Self::ruleset)). Definitions keep the order of the files given and, within a
/// file, the order of the text. When [`load`] reported diagnostics, the library holds only
/// what could be built and must not be played with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Library {
    rulesets: Vec<RulesetDef>,
    resolved: BTreeMap<String, RulesetDef>,
    boards: Vec<BoardDef>,
    warbands: Vec<WarbandDef>,
    cards: Vec<CardDef>,
    decklists: Vec<DecklistDef>,
    armies: Vec<ArmyDef>,
    tables: Vec<TableDef>,
    rosters: Vec<RosterDef>,
    parties: Vec<PartyDef>,
}

/// Where a script is used, for the script host to compile each one in its context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ScriptUse<'a> {
    /// The kind of item holding it: `ruleset`, `step`, `action`, `fighter`, `ability`, `card`.
    pub item_kind: &'static str,
    /// The item's name.
    pub item_name: &'a str,
    /// The field: `setup`, `run`, `effect`, `inspire`...
    pub field: &'static str,
    /// The ruleset whose names the script uses: the ruleset itself, or the `ruleset` field
    /// of the warband or card holding it.
    pub ruleset: &'a str,
    /// The script.
    pub script: &'a ScriptDef,
}

impl Library {
    /// The rulesets as written (an extending ruleset holds only its own parts).
    pub fn rulesets(&self) -> &[RulesetDef] {
        &self.rulesets
    }

    /// The resolved ruleset named `name`: its parents' parts merged in.
    pub fn ruleset(&self, name: &str) -> Option<&RulesetDef> {
        self.resolved.get(name)
    }

    /// The ruleset named `name`, as written.
    pub fn declared_ruleset(&self, name: &str) -> Option<&RulesetDef> {
        self.rulesets.iter().find(|ruleset| ruleset.name == name)
    }

    /// `name` and the rulesets it extends, nearest first, as their `extends` fields say
    /// (`["shadespire_artefact", "shadespire", "underworlds"]`). A parent the library lacks,
    /// or one already in the chain (a cycle, which loading reports), ends it.
    pub fn extends_chain<'a>(&'a self, name: &'a str) -> Vec<&'a str> {
        let mut chain = Vec::new();
        let mut current = Some(name);
        while let Some(here) = current {
            if chain.contains(&here) {
                break;
            }
            chain.push(here);
            current = self
                .declared_ruleset(here)
                .and_then(|ruleset| ruleset.extends.as_deref());
        }
        chain
    }

    /// The boards.
    pub fn boards(&self) -> &[BoardDef] {
        &self.boards
    }

    /// The board named `name`.
    pub fn board(&self, name: &str) -> Option<&BoardDef> {
        self.boards.iter().find(|board| board.name == name)
    }

    /// The warbands.
    pub fn warbands(&self) -> &[WarbandDef] {
        &self.warbands
    }

    /// The warband named `name`.
    pub fn warband(&self, name: &str) -> Option<&WarbandDef> {
        self.warbands.iter().find(|warband| warband.name == name)
    }

    /// The cards.
    pub fn cards(&self) -> &[CardDef] {
        &self.cards
    }

    /// The card named `name`.
    pub fn card(&self, name: &str) -> Option<&CardDef> {
        self.cards.iter().find(|card| card.name == name)
    }

    /// The decklists.
    pub fn decklists(&self) -> &[DecklistDef] {
        &self.decklists
    }

    /// The decklist named `name`.
    pub fn decklist(&self, name: &str) -> Option<&DecklistDef> {
        self.decklists.iter().find(|decklist| decklist.name == name)
    }

    /// The armies of measured games.
    pub fn armies(&self) -> &[ArmyDef] {
        &self.armies
    }

    /// The army named `name`.
    pub fn army(&self, name: &str) -> Option<&ArmyDef> {
        self.armies.iter().find(|army| army.name == name)
    }

    /// The tables (measured battlefields).
    pub fn tables(&self) -> &[TableDef] {
        &self.tables
    }

    /// The table named `name`.
    pub fn table(&self, name: &str) -> Option<&TableDef> {
        self.tables.iter().find(|table| table.name == name)
    }

    /// The rosters (content heroes are built from).
    pub fn rosters(&self) -> &[RosterDef] {
        &self.rosters
    }

    /// The roster named `name`.
    pub fn roster(&self, name: &str) -> Option<&RosterDef> {
        self.rosters.iter().find(|roster| roster.name == name)
    }

    /// The parties.
    pub fn parties(&self) -> &[PartyDef] {
        &self.parties
    }

    /// The party named `name`.
    pub fn party(&self, name: &str) -> Option<&PartyDef> {
        self.parties.iter().find(|party| party.name == name)
    }

    /// Every script of every definition (rulesets as written), in library order.
    pub fn scripts(&self) -> Vec<ScriptUse<'_>> {
        let mut out: Vec<ScriptUse<'_>> = Vec::new();
        for ruleset in &self.rulesets {
            for (field, script) in [
                ("setup", &ruleset.setup),
                ("scoring", &ruleset.scoring),
                ("victory", &ruleset.victory),
            ] {
                if let Some(script) = script {
                    out.push(ScriptUse {
                        item_kind: "ruleset",
                        item_name: &ruleset.name,
                        ruleset: &ruleset.name,
                        field,
                        script,
                    });
                }
            }
            for step in &ruleset.steps {
                out.push(ScriptUse {
                    item_kind: "step",
                    item_name: &step.name,
                    ruleset: &ruleset.name,
                    field: "run",
                    script: &step.run,
                });
            }
            for action in &ruleset.actions {
                if let Some(script) = &action.condition {
                    out.push(ScriptUse {
                        item_kind: "action",
                        item_name: &action.name,
                        ruleset: &ruleset.name,
                        field: "condition",
                        script,
                    });
                }
                out.push(ScriptUse {
                    item_kind: "action",
                    item_name: &action.name,
                    ruleset: &ruleset.name,
                    field: "run",
                    script: &action.run,
                });
            }
            for invariant in &ruleset.invariants {
                out.push(ScriptUse {
                    item_kind: "invariant",
                    item_name: &invariant.name,
                    ruleset: &ruleset.name,
                    field: "holds",
                    script: &invariant.holds,
                });
            }
        }
        for ruleset in &self.rulesets {
            ability_scripts(&mut out, &ruleset.abilities, &ruleset.name);
        }
        for army in &self.armies {
            ability_scripts(&mut out, &army.abilities, &army.ruleset);
            for warscroll in &army.warscrolls {
                ability_scripts(&mut out, &warscroll.abilities, &army.ruleset);
            }
        }
        for warband in &self.warbands {
            for fighter in &warband.fighters {
                for (field, script) in [
                    ("inspire", &fighter.inspire),
                    ("uninspire", &fighter.uninspire),
                ] {
                    if let Some(script) = script {
                        out.push(ScriptUse {
                            item_kind: "fighter",
                            item_name: &fighter.name,
                            ruleset: &warband.ruleset,
                            field,
                            script,
                        });
                    }
                }
                for ability in &fighter.abilities {
                    for (field, script) in [
                        ("condition", &ability.condition),
                        ("effect", &ability.effect),
                    ] {
                        if let Some(script) = script {
                            out.push(ScriptUse {
                                item_kind: "ability",
                                item_name: &ability.name,
                                ruleset: &warband.ruleset,
                                field,
                                script,
                            });
                        }
                    }
                }
            }
        }
        for card in &self.cards {
            for (field, script) in card.scripts() {
                out.push(ScriptUse {
                    item_kind: "card",
                    item_name: &card.name,
                    ruleset: &card.ruleset,
                    field,
                    script,
                });
            }
        }
        out
    }
}

/// The scripts of `abilities`, for a ruleset's names.
fn ability_scripts<'a>(
    out: &mut Vec<ScriptUse<'a>>,
    abilities: &'a [AbilityDef],
    ruleset: &'a str,
) {
    for ability in abilities {
        for (field, script) in [
            ("condition", &ability.condition),
            ("effect", &ability.effect),
        ] {
            if let Some(script) = script {
                out.push(ScriptUse {
                    item_kind: "ability",
                    item_name: &ability.name,
                    ruleset,
                    field,
                    script,
                });
            }
        }
    }
}

/// Prints every definition (rulesets as written) as one canonical `.gloam` text.
impl fmt::Display for Library {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = print::print_all(
            self.rulesets.iter(),
            self.boards.iter(),
            self.warbands.iter(),
            self.cards.iter(),
            self.decklists.iter(),
            self.armies.iter(),
            self.tables.iter(),
        );
        f.write_str(&print::print_rosters(
            text,
            self.rosters.iter(),
            self.parties.iter(),
        ))
    }
}

/// The largest data file the loader reads, in bytes: 2 MiB, sixteen times the largest
/// shipped file. Larger ones get one `gloam::grammar::too_large` diagnostic.
pub const MAX_FILE_BYTES: usize = 2 << 20;

/// The longest line the loader reads, in characters: 4,000, six times the longest shipped
/// line. A file with a longer line (a board layout row gone wrong, a minified file) gets one
/// `gloam::grammar::too_large` diagnostic instead of one per character of the line.
pub const MAX_LINE_CHARS: usize = 4_000;

/// The diagnostic for a file beyond [`MAX_FILE_BYTES`] or with a line beyond
/// [`MAX_LINE_CHARS`], if it is.
fn too_large(source: &SourceFile) -> Option<GrammarDiagnostic> {
    let file = FileRef::new(&source.name, &source.text);
    let text = &source.text;
    if text.len() > MAX_FILE_BYTES {
        return Some(GrammarDiagnostic::TooLarge {
            message: format!(
                "`{}` is {} bytes long, more than the limit of {MAX_FILE_BYTES}",
                source.name,
                text.len()
            ),
            src: file.src(),
            span: file.span(crate::Span::new(0, 0)),
            label: "the file starts here".to_owned(),
            help: "split it into several files: a folder of files loads as one library".to_owned(),
        });
    }
    let mut long = Vec::new();
    let mut start = 0;
    for (number, line) in text.split('\n').enumerate() {
        // Bytes bound characters from above: count characters only on long lines.
        if line.len() > MAX_LINE_CHARS && line.chars().count() > MAX_LINE_CHARS {
            long.push((number + 1, start, line.chars().count()));
        }
        start += line.len() + 1;
    }
    let &(number, offset, chars) = long.first()?;
    let others = match long.len() - 1 {
        0 => String::new(),
        1 => " (and 1 more line)".to_owned(),
        more => format!(" (and {more} more lines)"),
    };
    Some(GrammarDiagnostic::TooLarge {
        message: format!(
            "line {number} is {chars} characters long, more than the limit of {MAX_LINE_CHARS}{others}"
        ),
        src: file.src(),
        span: file.span(crate::Span::new(offset, offset)),
        label: "this line".to_owned(),
        help: "break it into shorter lines; a board layout row has one character per hex"
            .to_owned(),
    })
}

/// A built top-level definition and where it was written.
struct Placed<'a, T> {
    def: T,
    file: &'a FileRef,
    item: &'a Item,
}

/// Keeps the first definition of each name; reports the others.
fn dedupe<'a, T>(
    placed: Vec<Placed<'a, T>>,
    kind: &str,
    name_of: impl Fn(&T) -> &str,
    out: &mut Vec<GrammarDiagnostic>,
) -> Vec<Placed<'a, T>> {
    let mut kept: Vec<Placed<'a, T>> = Vec::new();
    for entry in placed {
        let first = kept
            .iter()
            .find(|kept| name_of(&kept.def) == name_of(&entry.def));
        match first {
            Some(first) => {
                let span = entry
                    .item
                    .name
                    .as_ref()
                    .map_or(entry.item.kind.span, |name| name.span);
                let same_file = first.file.name == entry.file.name
                    && Arc::ptr_eq(&first.file.text, &entry.file.text);
                let first_span = first
                    .item
                    .name
                    .as_ref()
                    .map_or(first.item.kind.span, |name| name.span);
                out.push(GrammarDiagnostic::DuplicateName {
                    kind: kind.to_string(),
                    name: name_of(&entry.def).to_string(),
                    src: entry.file.src(),
                    span: entry.file.span(span),
                    first: same_file.then(|| first.file.span(first_span)),
                    elsewhere: if same_file {
                        Vec::new()
                    } else {
                        vec![crate::diagnostic::FirstDefinition {
                            kind: kind.to_string(),
                            name: name_of(&entry.def).to_string(),
                            src: first.file.src(),
                            span: first.file.span(first_span),
                        }]
                    },
                    help: if same_file {
                        format!("rename one of them: {kind} names are unique in a library")
                    } else {
                        format!(
                            "the first is in `{}`; {kind} names are unique in a library",
                            first.file.name
                        )
                    },
                });
            }
            None => kept.push(entry),
        }
    }
    kept
}

/// Loads many files at once and returns every definition that could be built, plus every
/// problem found, sorted by file name, then offset.
///
/// Steps: parse each file (recovering at top-level items); check items against the
/// schema; build typed definitions (board layouts included); reject duplicate names across
/// the library; resolve `extends`; check every name against the resolved ruleset and the
/// library, and decklists against the ruleset's deck rules. Nothing stops at the first
/// problem.
///
/// # Examples
///
/// ```
/// use gloam_grammar::{load, SourceFile};
/// let ruleset = SourceFile::new("rules.gloam", r#"
/// ruleset "base" {
///     title = "Base"
///     rounds = 3
///     min_players = 2
///     max_players = 2
///     keywords = [leader]
///     card_kinds = [ploy]
///     window "power_step" { }
/// }
/// "#);
/// let cards = SourceFile::new("cards.gloam", r#"
/// card "Sidestep" {
///     ruleset = "base"
///     kind = ploy
///     owner = universal
///     keywords = [leadr]
///     window = power_step
///     effect = { push(this_fighter(), 1); }
/// }
/// "#);
/// let (library, diagnostics) = load(&[ruleset, cards]);
/// assert_eq!(library.cards().len(), 1);
/// assert_eq!(diagnostics.len(), 1);
/// assert_eq!(diagnostics[0].code_str(), "gloam::grammar::unknown_name");
/// assert_eq!(diagnostics[0].to_string(), "unknown keyword `leadr`");
/// ```
pub fn load(files: &[SourceFile]) -> (Library, Vec<GrammarDiagnostic>) {
    load_with(files, &RollRoom::KERNEL)
}

/// The room a script has to hold the faces of one roll: limits the game enforces when it
/// plays, which the loader checks data against (a weapon's Dice, a characteristic that
/// counts dice), so that data no game can play is refused at load and not in every game.
/// A host passes its script limits ([`load_with`]); [`load`] checks the kernel's limit only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollRoom {
    /// The most items in a script's list (0: no limit).
    pub list_items: usize,
    /// The most characters in a script's list of names (0: no limit).
    pub list_chars: usize,
}

impl RollRoom {
    /// The kernel's limit only ([`gloam_core::Pool::MAX_DICE`]).
    pub const KERNEL: RollRoom = RollRoom {
        list_items: 0,
        list_chars: 0,
    };

    /// The most dice of `die` one roll may have, and why.
    pub fn most_dice(&self, die: &crate::defs::DieDef) -> gloam_core::DiceRoom {
        let longest = die.faces.iter().map(|face| face.name.len()).max();
        gloam_core::Pool::most_dice_held(
            &die.name,
            longest.unwrap_or(0),
            self.list_items,
            self.list_chars,
        )
    }
}

/// [`load`], checking dice counts in the data against `room` as well.
pub fn load_with(files: &[SourceFile], room: &RollRoom) -> (Library, Vec<GrammarDiagnostic>) {
    let mut out: Vec<GrammarDiagnostic> = Vec::new();
    let mut documents = Vec::with_capacity(files.len());
    for source in files {
        if let Some(problem) = too_large(source) {
            out.push(problem);
            continue;
        }
        let (document, diagnostics) = syntax::parse(source);
        out.extend(diagnostics);
        let file = FileRef::new(&source.name, &source.text);
        schema::check(&document.items, &file, &mut out);
        documents.push((file, document));
    }

    let mut rulesets = Vec::new();
    let mut boards = Vec::new();
    let mut warbands = Vec::new();
    let mut cards = Vec::new();
    let mut decklists = Vec::new();
    let mut armies = Vec::new();
    let mut tables = Vec::new();
    let mut rosters = Vec::new();
    let mut parties = Vec::new();
    for (file, document) in &documents {
        let mut builder = Builder {
            file,
            out: &mut out,
        };
        for item in &document.items {
            match item.kind.value.as_str() {
                "ruleset" => {
                    if let Some(def) = builder.ruleset(item) {
                        rulesets.push(Placed { def, file, item });
                    }
                }
                "board" => {
                    if let Some(def) = builder.board(item) {
                        boards.push(Placed { def, file, item });
                    }
                }
                "warband" => {
                    if let Some(def) = builder.warband(item) {
                        warbands.push(Placed { def, file, item });
                    }
                }
                "card" => {
                    if let Some(def) = builder.card(item) {
                        cards.push(Placed { def, file, item });
                    }
                }
                "decklist" => {
                    if let Some(def) = builder.decklist(item) {
                        decklists.push(Placed { def, file, item });
                    }
                }
                "army" => {
                    if let Some(def) = builder.army(item) {
                        armies.push(Placed { def, file, item });
                    }
                }
                "table" => {
                    if let Some(def) = builder.table(item) {
                        tables.push(Placed { def, file, item });
                    }
                }
                "roster" => {
                    if let Some(def) = builder.roster(item) {
                        rosters.push(Placed { def, file, item });
                    }
                }
                "party" => {
                    if let Some(def) = builder.party(item) {
                        parties.push(Placed { def, file, item });
                    }
                }
                _ => {}
            }
        }
    }
    let rulesets = dedupe(rulesets, "ruleset", |def| &def.name, &mut out);
    let boards = dedupe(boards, "board", |def| &def.name, &mut out);
    let warbands = dedupe(warbands, "warband", |def| &def.name, &mut out);
    let cards = dedupe(cards, "card", |def| &def.name, &mut out);
    let decklists = dedupe(decklists, "decklist", |def| &def.name, &mut out);
    let armies = dedupe(armies, "army", |def| &def.name, &mut out);
    let tables = dedupe(tables, "table", |def| &def.name, &mut out);
    let rosters = dedupe(rosters, "roster", |def| &def.name, &mut out);
    let parties = dedupe(parties, "party", |def| &def.name, &mut out);
    let roster_defs: Vec<RosterDef> = rosters.iter().map(|placed| placed.def.clone()).collect();

    let declared: Vec<Declared<'_>> = rulesets
        .iter()
        .map(|placed| Declared {
            def: placed.def.clone(),
            file: placed.file,
            item: placed.item,
        })
        .collect();
    let resolved = resolve::resolve(&declared, &mut out);

    let loaded: Vec<&str> = rulesets
        .iter()
        .map(|placed| placed.def.name.as_str())
        .collect();
    let warband_defs: Vec<&WarbandDef> = warbands.iter().map(|placed| &placed.def).collect();
    let card_defs: Vec<&CardDef> = cards.iter().map(|placed| &placed.def).collect();
    let party_defs: Vec<&PartyDef> = parties.iter().map(|placed| &placed.def).collect();
    for placed in &rulesets {
        if let Some(ruleset) = resolved.get(&placed.def.name) {
            let mut checker = xref::Checker {
                file: placed.file,
                out: &mut out,
                room,
            };
            checker.ruleset(placed.item, ruleset);
        }
    }
    // Boards, warbands, cards and decklists, built or not: the ruleset must be loaded, and
    // names are checked against it when it could be resolved (an unresolved one was reported
    // already). Decklists are checked against the ruleset's deck rules too.
    for (file, document) in &documents {
        for item in &document.items {
            let kind = item.kind.value.as_str();
            if !matches!(
                kind,
                "board" | "warband" | "card" | "decklist" | "army" | "table" | "roster" | "party"
            ) {
                continue;
            }
            let mut checker = xref::Checker {
                file,
                out: &mut out,
                room,
            };
            checker.ruleset_field(item, &loaded);
            let ruleset = match item.field("ruleset").map(|field| &field.value) {
                Some(Value::String(name)) => resolved.get(&name.value),
                _ => None,
            };
            let Some(ruleset) = ruleset else {
                continue;
            };
            match kind {
                "roster" | "party" => {
                    let mut party_checker = PartyChecker {
                        file,
                        out: checker.out,
                    };
                    if kind == "party" {
                        party_checker.party(item, &roster_defs, ruleset);
                    } else if let Some(roster) = rosters
                        .iter()
                        .find(|placed| std::ptr::eq(placed.item, item))
                    {
                        party_checker.roster(item, &roster.def, ruleset);
                    }
                }
                "board" => checker.board(item, ruleset),
                "warband" => checker.warband(item, ruleset),
                "card" => checker.card(item, ruleset, &warband_defs),
                "army" => checker.army(item, ruleset),
                "table" => checker.table(item, ruleset),
                _ => checker.decklist(
                    item,
                    ruleset,
                    &xref::Known {
                        resolved: &resolved,
                        warbands: &warband_defs,
                        cards: &card_defs,
                        parties: &party_defs,
                    },
                ),
            }
        }
    }

    out.sort_by_cached_key(GrammarDiagnostic::sort_key);
    out.dedup_by(|a, b| a.sort_key() == b.sort_key());

    let library = Library {
        rulesets: rulesets.into_iter().map(|placed| placed.def).collect(),
        resolved,
        boards: boards.into_iter().map(|placed| placed.def).collect(),
        warbands: warbands.into_iter().map(|placed| placed.def).collect(),
        cards: cards.into_iter().map(|placed| placed.def).collect(),
        decklists: decklists.into_iter().map(|placed| placed.def).collect(),
        armies: armies.into_iter().map(|placed| placed.def).collect(),
        tables: tables.into_iter().map(|placed| placed.def).collect(),
        rosters: roster_defs,
        parties: parties.into_iter().map(|placed| placed.def).collect(),
    };
    (library, out)
}
