//! # gloam-grammar: the `.gloam` data-file format
//!
//! Rulesets, boards, warbands and cards are `.gloam` files. This crate reads them: a pest
//! grammar, a schema, typed definitions, `extends` resolution and cross-reference checks,
//! reporting **every** problem at once as [`GrammarDiagnostic`]s (miette diagnostics with a
//! stable code, the file, a labelled span and a help line). It also prints definitions back
//! to canonical text. It does not know Rhai: scripts are kept as raw text ([`ScriptDef`])
//! with their position in the file, for `gloam-dsl` to compile.
//!
//! ```
//! use gloam_grammar::{load, SourceFile};
//!
//! let text = r#"
//! ruleset "tiny" {
//!     title = "A tiny ruleset"
//!     rounds = 3
//!     min_players = 2
//!     max_players = 2
//!     card_kinds = [ploy]
//!     window "power_step" { about = "between activations" }
//! }
//!
//! card "Sidestep" {
//!     ruleset = "tiny"
//!     kind = ploy
//!     owner = universal
//!     window = power_step
//!     effect = { push(this_fighter, 1); }
//! }
//! "#;
//! let (library, diagnostics) = load(&[SourceFile::new("tiny.gloam", text)]);
//! assert!(diagnostics.is_empty());
//! let card = library.card("Sidestep").unwrap();
//! let effect = card.effect.as_ref().unwrap();
//! assert_eq!(&effect.file_text()[effect.text_range()], " push(this_fighter, 1); ");
//! // Printing gives canonical text (without comments) that loads to the same definitions.
//! let (again, _) = load(&[SourceFile::new("printed.gloam", library.to_string())]);
//! assert_eq!(again, library);
//! ```
//!
//! ## The format
//!
//! ```text
//! file    = item*
//! item    = NAME STRING? "{" (field | item)* "}"     card "Sidestep" { ... }
//! field   = NAME "=" value                           glory = 1
//! value   = STRING | INT | LENGTH | BOOL | NAME | list | script
//! list    = "[" (element ("," element)* ","?)? "]"   [a, b: 1, "#": blocked]
//! element = pair | value          pair = (NAME | STRING) ":" value
//! script  = "{" raw text, braces balanced "}"        effect = { push(target, 1); }
//! ```
//!
//! - `// line` and `/* block */` comments; whitespace and newlines are free.
//! - `name = { ... }` (with `=`) is a script; `kind "name" { ... }` (no `=`) a nested item.
//!   Braces inside script strings (`"..."`, `` `...` ``, `'.'`) and comments do not count;
//!   a script's strings and block comments must close inside it.
//! - STRING: `"..."`, may span lines, escapes `\"` `\\` `\n` `\t` `\u{...}`.
//! - INT: `-?[0-9][0-9_]*`. A decimal point is an error: rules are integer.
//! - LENGTH: a number and its unit with no space, `3in`, `0.5in`, `12cm`, `32mm` ([`Measure`]):
//!   the one place a decimal point is allowed. It must be a whole number of tenths of a
//!   millimetre (`0.25in` is refused); `3"` is refused with the form to write. A point is
//!   `[x, y]`, two lengths.
//! - Every node keeps its byte span ([`parse`] gives the syntax tree).
//!
//! A syntax error costs only the top-level item it is in: parsing resumes at the next line
//! that starts an item at column 0 (`kind "name" {`), so top-level items start at column 0
//! and nested items are indented.
//!
//! Top-level items are `ruleset`, `board`, `warband`, `card`, `decklist`, and for measured
//! games `army` (warscrolls and army abilities) and `table` (size, deployment maps, terrain
//! features); [`schema()`]
//! lists every item kind with its fields (types, required or not, examples). Each board,
//! warband, card and decklist names its ruleset (`ruleset = "harrowdeep"`), so a definition
//! is self-contained and can move between files.
//!
//! ## Board layouts
//!
//! `layout` is a string drawing the board, `legend` says what each character means:
//!
//! ```text
//! board "Atrium" {
//!     ruleset = "harrowdeep"
//!     layout = "
//!         . . S . h
//!          . # . L
//!         . . . . h
//!     "
//!     legend = [S: starting, "#": blocked, L: lethal, h: [half, edge]]
//! }
//! ```
//!
//! - Hexes are pointy-top. Row `r` is the `r`-th line (from 0), after dropping blank lines
//!   before the first row and after the last; a blank line between rows is an error, and so
//!   is a tab.
//! - Hexes stand one space apart. Odd rows (the 2nd, 4th...) are shifted right by half a
//!   hex, so they start one space further right: the usual "odd-r" offset layout.
//! - The first row's indentation is removed. A character at character column `x` of row `r`
//!   is at offset column `c = (x - indent - r % 2) / 2`; `x - indent - r % 2` must be even.
//! - Axial coordinates (redblobgames' odd-r to axial): `q = c - (r - r % 2) / 2`, `r = r`.
//! - `.` is a hex with no type, `_` is no hex (a visible gap); other characters come from
//!   `legend`, whose values are hex types or lists of them. The value `half` marks half
//!   hexes on the board's edge ([`BoardDef::half_hexes`]).
//!
//! ## Battlefields
//!
//! A ruleset's nested `battlefield` items say where each seat's board lies for one number of
//! players: `seat_1` to `seat_4`, each `[turn: t, q: x, r: y]`, the board turned `t` sixths
//! of a turn clockwise about its origin, then moved by the axial offset (`x`, `y`);
//! `min_completed` is the fewest hexes each pair of touching boards must complete (1 when
//! not written; 0 lets boards touch along full hexes). A host joins the boards of a match
//! from the item whose `players` is its number of seats ([`BattlefieldDef`]).
//!
//! ```text
//! battlefield "two players" {
//!     players = 2
//!     min_completed = 4
//!     seat_1 = [turn: 0, q: 0, r: 0]
//!     seat_2 = [turn: 3, q: 2, r: 10]
//! }
//! ```
//!
//! ## Decklists
//!
//! A `decklist` is what a warband takes into its ruleset's decks: one nested `deck` item per
//! deck, named as the ruleset's `deck` item that holds its rules, with the card names as
//! strings (a card taken twice is written twice). A decklist may list some of the decks only
//! (a match deals every card of the ruleset into the others). In a ruleset whose players
//! bring parties of heroes, a decklist names its party instead (`party = "..."`); it names
//! one of the two, never both.
//!
//! ```text
//! decklist "Truthseekers: Starter" {
//!     ruleset = "harrowdeep"
//!     warband = "Xandire's Truthseekers"
//!     about = "..."
//!
//!     deck "objective" {
//!         cards = ["Banish the Dark", "Strong Start", ...]
//!     }
//!
//!     deck "power" {
//!         cards = ["Blaze of Light", "Tempered Sigmarite", ...]
//!     }
//! }
//! ```
//!
//! [`load`] checks it against the library and the ruleset's deck rules ([`DeckDef`]):
//!
//! - the warband (or party), each deck and each card must exist (`unknown_name`, with a
//!   did-you-mean); they must be for the decklist's ruleset or one it extends
//!   (`deck_wrong_ruleset`); a decklist names a warband or a party (`missing_field`), not
//!   both (`bad_value`);
//! - each card's kind must be one of the deck's `kinds` (`deck_wrong_kind`);
//! - each card must be the warband's own, `universal`, or of the warband's grand alliance
//!   (`deck_wrong_owner`);
//! - the deck holds at least `min_size` and at most `max_size` cards, counting every entry
//!   (`deck_too_small`, `deck_too_large`);
//! - with `unique_names = true`, a card name may appear once across all the decklist's decks
//!   (`deck_duplicate`, reported on the deck that wants unique names);
//! - `limits = [surge: 6]`: at most 6 cards have `surge` as their kind, score timing or one
//!   of their keywords (`deck_limit`);
//! - `max_half = [ploy, spell]`: the cards whose kind, score timing or a keyword is listed
//!   are at most half the deck, rounded down (`deck_half`);
//! - `balanced = [good, evil]`: each listed keyword (or kind, or score timing) is on the
//!   same number of the deck's cards, and on one at least (`deck_balance`).
//!
//! ## `extends`
//!
//! A ruleset that `extends` another inherits all its parts: name lists (`hex_types`,
//! `keywords`...) are joined, named items (`die`, `window`, `step`...) and `zones` entries
//! of the same name are replaced in place (a zone takes the child's visibility), single
//! values and scripts are overridden when set, and
//! `remove = [window: "surge_step", hex_type: cover]` drops inherited parts first.
//! Unknown parents and cycles are errors. [`Library::ruleset`] gives the resolved ruleset,
//! [`Library::rulesets`] the rulesets as written.
//!
//! ## Diagnostics
//!
//! [`list_codes`] lists every code with its meaning. [`load`] returns diagnostics sorted by
//! file name, then offset. Render them with any miette handler (this crate never enables
//! miette's `fancy` feature; the command line does).

mod ast;
mod build;
mod defs;
mod diagnostic;
mod layout;
mod library;
mod party;
mod print;
mod resolve;
mod scan;
mod schema;
mod suggest;
mod syntax;
pub mod text;
mod xref;

pub use ast::{
    Document, Element, Entry, Field, Item, List, Measure, Pair, Script, Span, Spanned, Value,
};
pub use defs::{
    AbilityDef, ActionDef, Amount, AreaDef, ArmyDef, BattlefieldDef, BoardDef, BoardHexDef,
    CardDef, CharacteristicDef, ConstantDef, DeckCardsDef, DeckDef, DecklistDef, DieDef, FaceDef,
    FighterDef, InvariantDef, KeywordDef, LegendDef, LimitDef, MapDef, ObjectiveDef, Owner,
    PartDef, PartKind, PlacementDef, PointDef, Quantity, RemoveDef, Restriction, RulesetDef,
    ScriptDef, Side, StatDef, StepDef, SymbolDef, TableDef, TableWeaponDef, TerrainDef,
    TerritoryDef, VISIBILITIES, ValueDef, WINDOW_VARIABLES, WarbandDef, WarscrollDef,
    WeaponAbilityDef, WeaponDef, WindowDef, ZoneDef, visibility_name,
};
pub use diagnostic::{FirstDefinition, GrammarDiagnostic, list_codes};
pub use library::{
    Library, MAX_FILE_BYTES, MAX_LINE_CHARS, RollRoom, ScriptUse, SourceFile, load, load_with,
};
pub use party::{
    AlignmentDef, BattlegroundDef, ChartDef, CreatureDef, DomainDef, EquipmentDef, GuildDef,
    HeroCost, HeroDef, PARTY_CONSTANTS, PartyDef, ProfessionDef, RaceDef, ResultDef, RosterDef,
    SpellDef, SubraceDef, party_costs,
};
pub use schema::{FieldSchema, FieldType, ItemSchema, TOP_LEVEL, schema};
pub use suggest::closest;
pub use syntax::parse;
