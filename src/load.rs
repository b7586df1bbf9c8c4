//! Loading a library of data files: read, parse and check every file (gloam-grammar), then
//! compile and check every script (gloam-dsl), collecting every problem at once.
//!
//! ```
//! use gloam::load::{load, Source};
//! let text = "ruleset \"tiny\" {\n    title = \"Tiny\"\n    rounds = 1\n    min_players = 2\n    max_players = 2\n}\n";
//! let (loaded, problems) = load(&[Source::new("tiny.gloam", text)], &gloam_dsl::Host::new());
//! assert!(problems.is_empty(), "{problems:?}");
//! assert!(loaded.library.ruleset("tiny").is_some());
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use gloam_dsl::{Host, KnownNames, NameKind, Script, ScriptContext, ScriptSource};
use gloam_grammar::{GrammarDiagnostic, Library, PartKind, RulesetDef};

/// A data file's name and text.
pub type Source = gloam_grammar::SourceFile;

/// One problem found while loading: a file that could not be read, a problem in a data
/// file, or a problem in one of its scripts.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[non_exhaustive]
pub enum Problem {
    /// A path could not be read.
    #[error("cannot read `{path}`: {message}")]
    #[diagnostic(
        code(gloam::io::unreadable),
        help(
            "check that the path exists and is readable; directories are searched for .gloam files"
        )
    )]
    Unreadable {
        /// The path.
        path: String,
        /// What the system said.
        message: String,
    },
    /// A file is not UTF-8 text.
    #[error(
        "`{path}` is not UTF-8 text: byte {byte} at line {line}, column {column} (offset {offset})"
    )]
    #[diagnostic(
        code(gloam::io::not_text),
        help("save the file as UTF-8 (most editors offer it under \"encoding\")")
    )]
    NotText {
        /// The path.
        path: String,
        /// The first byte that is not UTF-8, as `0xNN`.
        byte: String,
        /// Its line, from 1.
        line: usize,
        /// Its column in characters, from 1.
        column: usize,
        /// Its offset in bytes from the start of the file.
        offset: usize,
    },
    /// A path is not a data file or folder: a device, a pipe, a system folder, a file too
    /// large, a folder tree too large.
    #[error("`{path}` is not data: {reason}")]
    #[diagnostic(
        code(gloam::io::not_data),
        help("give regular .gloam files, or folders holding them")
    )]
    NotData {
        /// The path.
        path: String,
        /// Why not.
        reason: String,
    },
    /// A path holds no data file.
    #[error("`{path}` holds no .gloam file")]
    #[diagnostic(
        code(gloam::io::no_files),
        help("gloam check reads files ending in .gloam, and folders containing them")
    )]
    NoFiles {
        /// The path.
        path: String,
    },
    /// A problem in a data file.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Grammar(#[from] GrammarDiagnostic),
    /// A problem in a script.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Script(#[from] gloam_dsl::DslDiagnostic),
}

/// A compiled script and where it lives.
#[derive(Debug)]
pub struct CompiledScript {
    /// The kind of item that holds it (`card`, `ability`, `step`...).
    pub item_kind: &'static str,
    /// The item's name.
    pub item_name: String,
    /// The field (`effect`, `condition`, `run`...).
    pub field: &'static str,
    /// The ruleset whose names the script uses: for a step, the ruleset that writes it.
    pub ruleset: String,
    /// The compiled script.
    pub script: Script,
}

/// Something that listens to a timing window or a scoring moment: a card or a fighter's
/// ability. Its [`gloam_dsl::ListenerId`] is its index in [`Loaded::listeners`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listener {
    /// `card` or `ability`.
    pub item_kind: &'static str,
    /// The card's or the ability's name.
    pub name: String,
    /// For an ability, the fighter that has it.
    pub fighter: Option<String>,
    /// The window (`power_step`) or scoring moment (`surge`, `end_phase`) it waits for.
    pub on: String,
}

/// A loaded library: every definition, and every script compiled.
#[derive(Debug)]
pub struct Loaded {
    /// The definitions.
    pub library: Library,
    /// The compiled scripts, in library order.
    pub scripts: Vec<CompiledScript>,
    /// Every card and ability with a window or a scoring moment, in library order.
    pub listeners: Vec<Listener>,
    /// Window and scoring-moment names to the listeners waiting for them, so that a rule
    /// reaching a window evaluates only those.
    pub triggers: gloam_dsl::TriggerIndex,
}

/// The listeners of a library: cards by their window and by their scoring moment, fighters'
/// abilities by their window.
fn listeners_of(library: &Library) -> Vec<Listener> {
    let mut listeners = Vec::new();
    for card in library.cards() {
        for on in [&card.window, &card.score].into_iter().flatten() {
            listeners.push(Listener {
                item_kind: "card",
                name: card.name.clone(),
                fighter: None,
                on: on.clone(),
            });
        }
    }
    for warband in library.warbands() {
        for fighter in &warband.fighters {
            for ability in &fighter.abilities {
                if let Some(window) = &ability.window {
                    listeners.push(Listener {
                        item_kind: "ability",
                        name: ability.name.clone(),
                        fighter: Some(fighter.name.clone()),
                        on: window.clone(),
                    });
                }
            }
        }
    }
    listeners
}

impl Loaded {
    /// The compiled script of `field` of the item `item_kind` named `item_name`.
    pub fn script(&self, item_kind: &str, item_name: &str, field: &str) -> Option<&Script> {
        self.scripts
            .iter()
            .find(|s| s.item_kind == item_kind && s.item_name == item_name && s.field == field)
            .map(|s| &s.script)
    }

    /// The ruleset `ruleset` and the rulesets it extends, nearest first (as written; a chain
    /// stops at an unknown name or at a ruleset already in it): `Library::extends_chain`.
    pub fn ruleset_chain<'a>(&'a self, ruleset: &'a str) -> Vec<&'a str> {
        self.library.extends_chain(ruleset)
    }

    /// The compiled `run` script of the step `name` as the ruleset `ruleset` plays it: the
    /// ruleset's own step of that name, else its nearest parent's. Sibling rulesets (two
    /// editions extending one base) may each write a step of the same name.
    pub fn step_script(&self, ruleset: &str, name: &str) -> Option<&Script> {
        self.step_script_index(ruleset, name)
            .map(|index| &self.scripts[index].script)
    }

    /// Where in [`Loaded::scripts`] the compiled `holds` script of each invariant of the
    /// resolved `ruleset` is (its own and those it inherits and does not remove; the nearest
    /// definition along the `extends` chain), in the ruleset's order, each beside the
    /// invariant's place in `ruleset.invariants`.
    pub fn invariant_script_indexes(&self, ruleset: &RulesetDef) -> Vec<(usize, usize)> {
        let chain = self.ruleset_chain(&ruleset.name);
        ruleset
            .invariants
            .iter()
            .enumerate()
            .filter_map(|(place, invariant)| {
                let index = chain.iter().find_map(|here| {
                    self.scripts.iter().position(|s| {
                        s.item_kind == "invariant"
                            && s.item_name == invariant.name
                            && s.field == "holds"
                            && s.ruleset == *here
                    })
                })?;
                Some((place, index))
            })
            .collect()
    }

    /// Where [`step_script`](Self::step_script) finds its script in [`Loaded::scripts`], so a
    /// driver can look every step up once instead of at each run.
    pub fn step_script_index(&self, ruleset: &str, name: &str) -> Option<usize> {
        self.ruleset_chain(ruleset).into_iter().find_map(|here| {
            self.scripts.iter().position(|s| {
                s.item_kind == "step"
                    && s.item_name == name
                    && s.field == "run"
                    && s.ruleset == here
            })
        })
    }
}

/// Whether a script field holds a condition (pure, ends in true or false) or an effect.
fn is_condition(field: &str) -> bool {
    matches!(field, "condition" | "inspire" | "uninspire" | "holds")
}

pub use gloam_dsl::STEP_VARIABLES;

/// The place of a script held by an item of `item_kind` named `item_name` in `library`
/// (for a card, its kind; for a card or an ability, its timing window as its ruleset
/// declares it): what it receives is [`gloam_dsl::Place::variables`], the one table the
/// checker, the driver and `gloam try` share.
pub fn script_place<'a>(
    library: &'a Library,
    item_kind: &str,
    item_name: &str,
    ruleset: &str,
) -> gloam_dsl::Place<'a> {
    let card = (item_kind == "card")
        .then(|| {
            let mut cards = library
                .cards()
                .iter()
                .filter(|card| card.name == item_name)
                .peekable();
            let first = cards.peek().copied();
            cards.find(|card| card.ruleset == ruleset).or(first)
        })
        .flatten();
    let window_name = match item_kind {
        "card" => card.and_then(|card| card.window.as_deref()),
        "ability" => library
            .warbands()
            .iter()
            .filter(|warband| warband.ruleset == ruleset)
            .flat_map(|warband| &warband.fighters)
            .flat_map(|fighter| &fighter.abilities)
            .find(|ability| ability.name == item_name)
            .and_then(|ability| ability.window.as_deref()),
        _ => None,
    };
    let rules = card.map_or(ruleset, |card| card.ruleset.as_str());
    let window = window_name.map(|name| {
        let declared = library
            .ruleset(rules)
            .and_then(|rules| rules.windows.iter().find(|window| window.name == name));
        gloam_dsl::Window {
            name,
            gives: declared.map_or(&[][..], |window| &window.gives),
            optional: declared.map_or(&[][..], |window| &window.optional),
        }
    });
    gloam_dsl::Place::of(item_kind, card.map(|card| card.kind.as_str()), window)
}

/// Counters every ruleset has, whether or not it lists them: the round, each player's
/// glory and the battlefield layout in play (the names `gloam_dsl::Names` uses by default).
pub const BUILT_IN_COUNTERS: &[&str] = &["round", "glory", "battlefield_layout"];

/// The names a ruleset declares, by kind, for checking the string literals of scripts.
///
/// Checked: tokens, keywords, characteristics, counters (plus [`BUILT_IN_COUNTERS`]), hex
/// types, dice and zones (the ruleset's `zones`, a `{deck}_deck` for each of its `deck`
/// items, and the zone on a fighter that holds its upgrades, `equipped`). Not checked,
/// because rulesets do not declare them: event names (used by `mark` and by durations).
pub fn known_names(ruleset: &RulesetDef) -> KnownNames {
    let names = |part: PartKind| -> Vec<String> {
        ruleset.names(part).into_iter().map(str::to_owned).collect()
    };
    let mut counters = names(PartKind::Counter);
    counters.extend(BUILT_IN_COUNTERS.iter().map(|c| (*c).to_owned()));
    let mut steps = names(PartKind::Step);
    steps.extend(["card".to_owned(), "ability".to_owned()]);
    let mut zones = names(PartKind::Zone);
    for deck in ruleset.names(PartKind::Deck) {
        zones.push(format!("{deck}_deck"));
    }
    zones.push(gloam_dsl::Names::default().equipped);
    KnownNames::permissive()
        .with(NameKind::Step, steps)
        .with(NameKind::Token, names(PartKind::Token))
        .with(NameKind::Keyword, names(PartKind::Keyword))
        .with(NameKind::Characteristic, names(PartKind::Characteristic))
        .with(NameKind::Counter, counters)
        .with(NameKind::HexType, names(PartKind::HexType))
        .with(NameKind::Die, names(PartKind::Die))
        .with(NameKind::Zone, zones)
}

/// The most files and folders a walk of the paths given visits before giving up (a path
/// naming the root of a disk, say).
pub const MAX_WALK: usize = 100_000;

/// Reads the `.gloam` files at `paths` (files, or folders searched recursively), sorted by
/// path so the result never depends on the file system's order.
///
/// Symbolic links are followed, and every file and folder is known by its canonical path,
/// so a link cycle ends and a file reached through several links is read once. Only
/// regular files are read: devices, pipes, sockets and the kernel's folders (`/proc`,
/// `/sys`, `/dev`) are refused, as are files over [`gloam_grammar::MAX_FILE_BYTES`] and
/// walks over [`MAX_WALK`] entries. A file that is not UTF-8 is reported with the line,
/// column and offset of its first bad byte. Line endings of a lone carriage return (old Mac
/// files) are read as line feeds.
pub fn read_paths(paths: &[PathBuf]) -> (Vec<Source>, Vec<Problem>) {
    let mut walk = Walk::default();
    let mut problems = Vec::new();
    for path in paths {
        let before = walk.files.len();
        walk.visit(path, &mut problems);
        if walk.files.len() == before && path.is_dir() {
            problems.push(Problem::NoFiles {
                path: path.display().to_string(),
            });
        }
    }
    let mut sources = Vec::new();
    // In path order (component by component, as before the walk knew canonical paths), so
    // the library's order, and the default match it gives, never changes.
    let mut files: Vec<PathBuf> = walk.files.into_values().collect();
    files.sort();
    for shown in files {
        match read_text(&shown) {
            Ok(text) => sources.push(Source::new(shown.display().to_string(), text)),
            Err(problem) => problems.push(*problem),
        }
    }
    (sources, problems)
}

/// The files found, by canonical path (so each is read once), with the path to show.
#[derive(Default)]
struct Walk {
    files: BTreeMap<PathBuf, PathBuf>,
    folders: std::collections::BTreeSet<PathBuf>,
    visited: usize,
}

impl Walk {
    fn visit(&mut self, path: &Path, problems: &mut Vec<Problem>) {
        let shown = path.display().to_string();
        let unreadable = |error: std::io::Error| Problem::Unreadable {
            path: shown.clone(),
            message: error.to_string(),
        };
        self.visited += 1;
        if self.visited == MAX_WALK {
            problems.push(Problem::NotData {
                path: shown.clone(),
                reason: format!(
                    "the folders given hold more than {MAX_WALK} entries; name the data folders themselves"
                ),
            });
        }
        if self.visited >= MAX_WALK {
            return;
        }
        let canonical = match std::fs::canonicalize(path) {
            Ok(canonical) => canonical,
            Err(error) => return problems.push(unreadable(error)),
        };
        if ["/proc", "/sys", "/dev"]
            .iter()
            .any(|system| canonical.starts_with(system))
        {
            return problems.push(Problem::NotData {
                path: shown,
                reason: format!(
                    "it is `{}`, a folder of the operating system",
                    canonical.display()
                ),
            });
        }
        let metadata = match std::fs::metadata(&canonical) {
            Ok(metadata) => metadata,
            Err(error) => return problems.push(unreadable(error)),
        };
        if metadata.is_file() {
            self.files
                .entry(canonical)
                .or_insert_with(|| path.to_path_buf());
            return;
        }
        if !metadata.is_dir() {
            return problems.push(Problem::NotData {
                path: shown,
                reason: "it is neither a regular file nor a folder (a device, pipe or socket)"
                    .to_owned(),
            });
        }
        if !self.folders.insert(canonical) {
            return; // reached again through a link: a cycle, or a second way in
        }
        let entries = match std::fs::read_dir(path) {
            Ok(entries) => entries,
            Err(error) => return problems.push(unreadable(error)),
        };
        let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        children.sort();
        for child in children {
            if child.is_dir() || child.extension().is_some_and(|ext| ext == "gloam") {
                self.visit(&child, problems);
            }
        }
    }
}

/// Reads a data file as text: at most [`gloam_grammar::MAX_FILE_BYTES`] (one byte more
/// tells it is too large), UTF-8 checked with the place of the first bad byte, lone
/// carriage returns read as line feeds.
fn read_text(path: &Path) -> Result<String, Box<Problem>> {
    use std::io::Read as _;
    let shown = path.display().to_string();
    let limit = gloam_grammar::MAX_FILE_BYTES;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(limit as u64 + 1).read_to_end(&mut bytes))
        .map_err(|error| {
            Box::new(Problem::Unreadable {
                path: shown.clone(),
                message: error.to_string(),
            })
        })?;
    if bytes.len() > limit {
        return Err(Box::new(Problem::NotData {
            path: shown,
            reason: format!("it is larger than the limit of {limit} bytes for a data file"),
        }));
    }
    let text = String::from_utf8(bytes).map_err(|error| {
        let bytes = error.as_bytes();
        let offset = error.utf8_error().valid_up_to();
        let before = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
        let line_start = before.rfind(['\n', '\r']).map_or(0, |at| at + 1);
        Box::new(Problem::NotText {
            path: shown.clone(),
            byte: format!("0x{:02x}", bytes[offset]),
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
            offset,
        })
    })?;
    Ok(lone_carriage_returns_as_line_feeds(text))
}

/// Turns each carriage return not followed by a line feed into a line feed (same length,
/// so every offset stays where it was).
fn lone_carriage_returns_as_line_feeds(text: String) -> String {
    if !text.contains('\r') {
        return text;
    }
    let mut bytes = text.into_bytes();
    for at in 0..bytes.len() {
        if bytes[at] == b'\r' && bytes.get(at + 1) != Some(&b'\n') {
            bytes[at] = b'\n';
        }
    }
    String::from_utf8(bytes).unwrap_or_default()
}

/// Loads `sources`: parses and checks every file, then compiles and checks every script.
/// Every problem is returned, in file order; the library holds whatever loaded.
pub fn load(sources: &[Source], host: &Host) -> (Loaded, Vec<Problem>) {
    load_scripts_of(sources, host, None)
}

/// [`load`] for playing `ruleset`: every file is parsed and checked, but only the scripts
/// of `ruleset` and of the rulesets it extends are compiled (a match of it runs no other),
/// so a problem in another ruleset's scripts is not found. `gloam check` uses [`load`].
pub fn load_for(sources: &[Source], host: &Host, ruleset: &str) -> (Loaded, Vec<Problem>) {
    load_scripts_of(sources, host, Some(ruleset))
}

fn load_scripts_of(sources: &[Source], host: &Host, only: Option<&str>) -> (Loaded, Vec<Problem>) {
    // Dice counts in the data must fit one roll of the scripts this host runs.
    let room = gloam_grammar::RollRoom {
        list_items: host.limits().array_size,
        list_chars: host.limits().string_size,
    };
    let (library, grammar_problems) = gloam_grammar::load_with(sources, &room);
    let mut problems: Vec<Problem> = grammar_problems.into_iter().map(Problem::from).collect();
    let mut scripts = Vec::new();
    let mut names_by_ruleset: BTreeMap<String, Arc<KnownNames>> = BTreeMap::new();
    let played: Option<Vec<&str>> = only.map(|ruleset| library.extends_chain(ruleset));
    for script_use in library.scripts() {
        if played
            .as_ref()
            .is_some_and(|chain| !chain.contains(&script_use.ruleset))
        {
            continue;
        }
        let names = names_by_ruleset
            .entry(script_use.ruleset.to_owned())
            .or_insert_with(|| {
                // An unknown ruleset is already reported; check nothing against it.
                Arc::new(
                    library
                        .ruleset(script_use.ruleset)
                        .map_or_else(KnownNames::permissive, known_names),
                )
            })
            .clone();
        let definition = script_use.script;
        let range = definition.text_range();
        let source = ScriptSource::new(
            definition.file_name(),
            definition.file_text(),
            range.start,
            range.end,
        );
        let label = format!(
            "{} \"{}\" {}",
            script_use.item_kind, script_use.item_name, script_use.field
        );
        let context = if is_condition(script_use.field) {
            ScriptContext::condition(label)
        } else {
            ScriptContext::effect(label)
        }
        .at(script_place(
            &library,
            script_use.item_kind,
            script_use.item_name,
            script_use.ruleset,
        ))
        .with_names(names);
        match host.compile(&source, &context) {
            Ok(script) => scripts.push(CompiledScript {
                item_kind: script_use.item_kind,
                item_name: script_use.item_name.to_owned(),
                field: script_use.field,
                ruleset: script_use.ruleset.to_owned(),
                script,
            }),
            Err(errors) => problems.extend(errors.into_iter().map(Problem::from)),
        }
    }
    Locator::new(sources).sort(&mut problems);
    let listeners = listeners_of(&library);
    let triggers = gloam_dsl::TriggerIndex::build(
        listeners
            .iter()
            .enumerate()
            .map(|(index, l)| (l.on.clone(), gloam_dsl::ListenerId(index as u32))),
    );
    (
        Loaded {
            library,
            scripts,
            listeners,
            triggers,
        },
        problems,
    )
}

/// Where a diagnostic points: the file, the 1-based line and column, and the byte span of
/// its first label.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Location {
    /// The file's name.
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, in characters.
    pub column: usize,
    /// Byte offset of the label's start.
    pub offset: usize,
    /// Length of the label in bytes.
    pub length: usize,
}

/// The location of a diagnostic's first label, when it has a source and a label.
///
/// This reads the source from its start up to the label (miette's way): for many
/// diagnostics in one large file, use a [`Locator`], which indexes each file's lines once.
pub fn locate(diagnostic: &dyn miette::Diagnostic) -> Option<Location> {
    let label = diagnostic.labels()?.next()?;
    let source = diagnostic.source_code()?;
    let contents = source.read_span(label.inner(), 0, 0).ok()?;
    Some(Location {
        file: contents.name().unwrap_or_default().to_owned(),
        line: contents.line() + 1,
        column: contents.column() + 1,
        offset: label.offset(),
        length: label.len(),
    })
}

/// Locates diagnostics in known files in time proportional to the line, not the file: the
/// line starts of each file are indexed once. Gives what [`locate`] gives (lines end at
/// `\n`, `\r\n` or `\r`; columns count bytes from the line's start, as miette does).
#[derive(Debug, Default)]
pub struct Locator {
    files: BTreeMap<String, Vec<usize>>,
}

impl Locator {
    /// Indexes the lines of `sources`.
    pub fn new(sources: &[Source]) -> Locator {
        let mut files = BTreeMap::new();
        for source in sources {
            let bytes = source.text.as_bytes();
            let mut starts = vec![0];
            for (at, &byte) in bytes.iter().enumerate() {
                let ends = byte == b'\n' || (byte == b'\r' && bytes.get(at + 1) != Some(&b'\n'));
                if ends {
                    starts.push(at + 1);
                }
            }
            files.insert(source.name.clone(), starts);
        }
        Locator { files }
    }

    /// Where `diagnostic`'s first label points.
    pub fn locate(&self, diagnostic: &dyn miette::Diagnostic) -> Option<Location> {
        let label = diagnostic.labels()?.next()?;
        let source = diagnostic.source_code()?;
        // A span at the start of the file reads nothing but the file's name.
        let head = source
            .read_span(&miette::SourceSpan::from((0, 0)), 0, 0)
            .ok()?;
        let file = head.name().unwrap_or_default();
        let Some(starts) = self.files.get(file) else {
            return locate(diagnostic);
        };
        let line = starts
            .partition_point(|&start| start <= label.offset())
            .max(1);
        Some(Location {
            file: file.to_owned(),
            line,
            column: label.offset() - starts[line - 1] + 1,
            offset: label.offset(),
            length: label.len(),
        })
    }

    /// Sorts problems by file, then position; problems with no location come first.
    pub fn sort(&self, problems: &mut [Problem]) {
        problems.sort_by_cached_key(|problem| {
            self.locate(problem).map(|l| (l.file, l.offset, l.length))
        });
    }
}

/// Sorts problems by file, then position; problems with no location come first. Slow for
/// many problems in a large file: see [`Locator::sort`].
pub fn sort_problems(problems: &mut [Problem]) {
    problems.sort_by_cached_key(|problem| locate(problem).map(|l| (l.file, l.offset, l.length)));
}

#[cfg(test)]
mod tests {
    use gloam_dsl::{NameKind, Names};
    use gloam_grammar::{SourceFile, load};

    use super::known_names;

    #[test]
    fn known_counters_include_the_built_in_ones_the_vocabulary_writes() {
        let (library, problems) = load(&[SourceFile::new(
            "r.gloam",
            "ruleset \"r\" { title = \"R\" rounds = 3 min_players = 2 max_players = 2 counters = [damage] }",
        )]);
        assert!(problems.is_empty(), "{problems:?}");
        let ruleset = library.ruleset("r").expect("the ruleset");
        let counters = known_names(ruleset).get(NameKind::Counter).clone();
        let names = Names::default();
        for name in ["damage", &names.round, &names.glory, &names.layout] {
            assert!(counters.contains(name), "{name} in {counters:?}");
        }
    }
}
