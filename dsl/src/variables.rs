//! The variable checker: every variable a script reads, against the scopes that declare it.
//!
//! Rhai's strict-variables mode stops compiling at the first undefined variable. When it
//! does, the host compiles the script again without strict variables (same syntax, same
//! limits) and walks that AST here, so that every undefined variable is reported together
//! with every other problem. The scoping follows Rhai's parser:
//!
//! - a `let` or `const` is visible from the next statement to the end of its block (its own
//!   initial value still sees the outer variable of the same name);
//! - a `for` loop's variable and counter, and a `catch`'s error variable, only in their block;
//! - a function (`fn`) sees its parameters, the context's variables and nothing of the
//!   script's own variables;
//! - a closure sees its parameters and, lexically, every variable in scope where it is
//!   written (Rhai captures those);
//! - a script function's name is also a value (a function pointer).
//!
//! `this` is a keyword, not a variable: Rhai itself refuses it outside functions.

use std::collections::BTreeSet;

use rhai::{AST, ASTNode, Expr, FnPtr, ImmutableString, Position, Stmt};

use crate::check::did_you_mean;
use crate::diagnostic::{DslDiagnostic, Site};
use crate::host::{ScriptContext, ScriptKind};
use crate::vocabulary::entries;

/// Where a script is written, as far as the variables it receives go: the one table of
/// [`Place::variables`] says what each place binds, and the checker, the driver of a game
/// (`gloam::engine`), `gloam try` and `docs/dsl.md` all read it.
///
/// A card's or an ability's place is its kind and its timing window: the window's
/// declaration says which fighters of its event it gives (`gives = [target, attacker]`), so
/// a ploy played in the power step, whose window gives none, has no `target`.
///
/// # Examples
///
/// ```
/// use gloam_dsl::{Place, Window};
/// let ploy = Place::of("card", Some("ploy"), None);
/// assert!(!ploy.variables().contains(&"this_fighter"));
/// assert!(!ploy.variables().contains(&"target"));
/// let upgrade = Place::of("card", Some("upgrade"), None);
/// assert!(upgrade.variables().contains(&"this_fighter"));
/// let gives = ["target".to_owned()];
/// let after_move = Window { name: "after_move", gives: &gives, optional: &[] };
/// let reaction = Place::of("card", Some("ploy"), Some(after_move));
/// assert_eq!(reaction.variables(), ["this_card", "player", "target"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Place<'a> {
    /// A card's `effect` or `condition`; `kind` is its card kind, `window` its timing
    /// window (none for a card without one, an objective scored in the end phase).
    Card {
        /// The card's kind (`ploy`, `upgrade`...).
        kind: &'a str,
        /// The card's window, as its ruleset declares it.
        window: Option<Window<'a>>,
    },
    /// A fighter's ability (`condition`, `effect`), used in `window`.
    Ability {
        /// The ability's window, as its ruleset declares it.
        window: Option<Window<'a>>,
    },
    /// A ruleset's `action` item (`condition`, `run`).
    Action,
    /// A fighter's `inspire` or `uninspire` condition.
    Fighter,
    /// A ruleset's `step` (`run`) or its `setup`, `scoring` and `victory` scripts: a frame of
    /// the flow, whose values are its variables.
    Step,
    /// A ruleset's `invariant` (`holds`): read between decisions, with no one acting.
    Invariant,
}

/// A timing window as its ruleset declares it, as far as variables go: the fighters of its
/// event that it gives the scripts of cards and abilities used in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Window<'a> {
    /// Its name.
    pub name: &'a str,
    /// The variables it gives (names of [`EVENT_VARIABLES`]; others are ignored here, the
    /// data checks refuse them).
    pub gives: &'a [String],
    /// Those of `gives` that may be `()` when the event has no such fighter.
    pub optional: &'a [String],
}

impl Window<'_> {
    /// The variables it gives, in the order of [`EVENT_VARIABLES`].
    pub fn variables(&self) -> Vec<&'static str> {
        EVENT_VARIABLES
            .iter()
            .copied()
            .filter(|name| self.gives.iter().any(|given| given == name))
            .collect()
    }

    /// The variables it gives that are always a fighter (not `optional`): a flow that wakes
    /// a card or an ability in this window without them is refused in play.
    pub fn required(&self) -> Vec<&'static str> {
        self.variables()
            .into_iter()
            .filter(|name| !self.optional.iter().any(|optional| optional == name))
            .collect()
    }
}

/// The variables a window may give: the fighters of its event (`target` the one it is
/// about, `attacker` the one that caused it). The same names as
/// `gloam_grammar::WINDOW_VARIABLES`, which the data checks use.
pub const EVENT_VARIABLES: &[&str] = &["target", "attacker"];

/// The card kinds a fighter plays or carries, whose scripts receive that fighter as
/// `this_fighter`: an upgrade's bearer, a spell's caster (the names of the shared
/// Underworlds model, `cards/underworlds/`, and of Harrowdeep's spells). A card of any other
/// kind (a ploy, an objective) is played by a player for no fighter in particular.
pub const FIGHTER_CARD_KINDS: &[&str] = &["upgrade", "spell"];

/// The variables of a step's frame (`then("step", #{ ... })`); a value the frame does not
/// set is `()`.
pub const STEP_VARIABLES: &[&str] = &[
    "player", "fighter", "target", "card", "hex", "count", "data", "weapon", "rolls", "attacker",
];

/// What each variable holds, for the help of the checker and for `docs/dsl.md`.
const MEANINGS: &[(&str, &str)] = &[
    ("this_card", "the card itself"),
    (
        "this_fighter",
        "the fighter whose ability it is, who carries the upgrade or casts the spell",
    ),
    (
        "player",
        "the player who plays the card or uses the ability (who acts)",
    ),
    (
        "target",
        "the fighter the event that opened the window is about (the one attacked, damaged, moved...), for a window that `gives` it",
    ),
    (
        "attacker",
        "the fighter that caused the event (the attacker, the one that dealt damage), for a window that `gives` it",
    ),
];

impl<'a> Place<'a> {
    /// The place of a script held by an item of `item_kind` (`card`, `ability`, `action`,
    /// `fighter`, `step`, `ruleset`, `invariant`); `card_kind` is a card's kind, `window` the timing
    /// window of a card or an ability.
    pub fn of(
        item_kind: &str,
        card_kind: Option<&'a str>,
        window: Option<Window<'a>>,
    ) -> Place<'a> {
        match item_kind {
            "card" => Place::Card {
                kind: card_kind.unwrap_or(""),
                window,
            },
            "ability" => Place::Ability { window },
            "action" => Place::Action,
            "fighter" => Place::Fighter,
            "invariant" => Place::Invariant,
            _ => Place::Step,
        }
    }

    /// The variables a script written here receives, in binding order: the one table.
    ///
    /// | place | variables |
    /// | --- | --- |
    /// | card of a kind in [`FIGHTER_CARD_KINDS`] | `this_card`, `player`, `this_fighter`, and what its window gives |
    /// | any other card (a ploy, an objective) | `this_card`, `player`, and what its window gives |
    /// | ability | `this_fighter`, `player`, and what its window gives |
    /// | action | `this_fighter`, `player`, `target`, `attacker` |
    /// | fighter (`inspire`, `uninspire`) | `this_fighter`, `player` |
    /// | step, ruleset (`setup`, `scoring`, `victory`) | [`STEP_VARIABLES`] |
    /// | invariant (`holds`) | none |
    pub fn variables(&self) -> Vec<&'static str> {
        let event = |window: &Option<Window<'_>>| window.map(|w| w.variables()).unwrap_or_default();
        match self {
            Place::Card { kind, window } => {
                let mut names = vec!["this_card", "player"];
                if FIGHTER_CARD_KINDS.contains(kind) {
                    names.push("this_fighter");
                }
                names.extend(event(window));
                names
            }
            Place::Ability { window } => {
                let mut names = vec!["this_fighter", "player"];
                names.extend(event(window));
                names
            }
            Place::Action => vec!["this_fighter", "player", "target", "attacker"],
            Place::Fighter => vec!["this_fighter", "player"],
            Place::Step => STEP_VARIABLES.to_vec(),
            Place::Invariant => Vec::new(),
        }
    }

    /// The timing window of a card or an ability, if it has one.
    pub fn window(&self) -> Option<Window<'a>> {
        match self {
            Place::Card { window, .. } | Place::Ability { window } => *window,
            _ => None,
        }
    }

    /// The variables of the place's window that a game must bind to a fighter (see
    /// [`Window::required`]); none for a place without a window.
    pub fn required(&self) -> Vec<&'static str> {
        self.window().map(|w| w.required()).unwrap_or_default()
    }

    /// Whether the place's script is played for a fighter that it receives as
    /// `this_fighter`.
    pub fn has_fighter(&self) -> bool {
        self.variables().contains(&"this_fighter")
    }

    /// How messages name the place: "a `ploy` card in window `power_step`".
    pub fn describe(&self) -> String {
        let window = self
            .window()
            .map(|w| format!(" in window `{}`", w.name))
            .unwrap_or_default();
        match self {
            Place::Card { kind, .. } => format!("a `{kind}` card{window}"),
            Place::Ability { .. } => format!("an ability{window}"),
            Place::Action => "an action".to_owned(),
            Place::Fighter => "a fighter's `inspire` or `uninspire`".to_owned(),
            Place::Step => "a step".to_owned(),
            Place::Invariant => "an invariant".to_owned(),
        }
    }
}

/// What the variable `name` of a card, ability or fighter script holds, if it is one.
pub(crate) fn meaning(name: &str) -> Option<&'static str> {
    MEANINGS
        .iter()
        .find(|(variable, _)| *variable == name)
        .map(|(_, meaning)| *meaning)
}

/// The section of `docs/dsl.md` that lists the variables of each place, from the table.
pub(crate) fn variables_markdown() -> String {
    let mut out = String::from(
        "\n## Variables by place\n\nWhat a script receives depends on where it is written: for a card or an ability, its\nkind and its timing window. The checker refuses any other name that the script does not\ndeclare with `let`, and a game binds exactly these.\n\n| place | variables |\n| --- | --- |\n",
    );
    let fighter_kinds: Vec<String> = FIGHTER_CARD_KINDS
        .iter()
        .map(|kind| format!("`{kind}`"))
        .collect();
    let rows: [(String, Place<'_>); 6] = [
        (
            format!("a card of kind {}", fighter_kinds.join(" or ")),
            Place::Card {
                kind: FIGHTER_CARD_KINDS[0],
                window: None,
            },
        ),
        (
            "a card of any other kind (a ploy, an objective): played for no fighter".to_owned(),
            Place::Card {
                kind: "ploy",
                window: None,
            },
        ),
        ("a fighter's ability".to_owned(), Place::Ability { window: None }),
        ("a ruleset's action".to_owned(), Place::Action),
        ("a fighter's `inspire` and `uninspire`".to_owned(), Place::Fighter),
        (
            "a ruleset's `step` (`run`), `setup`, `scoring`, `victory`: the values of the step's frame".to_owned(),
            Place::Step,
        ),
    ];
    for (place, row) in rows {
        let mut names: Vec<String> = row
            .variables()
            .iter()
            .map(|name| format!("`{name}`"))
            .collect();
        if matches!(row, Place::Card { .. } | Place::Ability { .. }) {
            names.push("what its window gives".to_owned());
        }
        out.push_str(&format!("| {place} | {} |\n", names.join(", ")));
    }
    let event: Vec<String> = EVENT_VARIABLES
        .iter()
        .map(|name| format!("`{name}`"))
        .collect();
    out.push_str(&format!(
        "\nWhat a window gives is written in its ruleset: `window \"after_damage\" {{ gives = [target,\nattacker] optional = [attacker] }}`. A window may give {}, the fighters of its event;\none that gives none (a power step) gives neither, and a card or ability used in it that\nreads one is an error. A variable in `optional` is `()` when the event has no such\nfighter (damage from a lethal hex has no attacker); the others are always a fighter, and a\ngame in which a flow wakes a card or an ability without one stops with an error that names\nthe card and the window. A card has one window (`window = ...`); a card without one (an\nobjective scored in the end phase) gets none of them.\n",
        event.join(" and ")
    ));
    out.push_str("\n| variable | holds |\n| --- | --- |\n");
    for (name, holds) in MEANINGS {
        out.push_str(&format!("| `{name}` | {holds} |\n"));
    }
    out.push_str(
        "\nA card played for no fighter that acts with one chooses it: `let fighter =\nchoose_fighter(friendly_fighters(), \"Which fighter?\");` (a condition, which may not ask,\ntests them all: `friendly_fighters().some(|f| ...)`).\n",
    );
    out
}

/// Every undefined variable of `ast` (compiled without strict variables), in source order,
/// one diagnostic per use. `variables` are the context's.
pub(crate) fn check_variables(
    ast: &AST,
    site: &Site,
    context: &ScriptContext,
) -> Vec<DslDiagnostic> {
    let variables = context.variables.as_slice();
    let functions = ast
        .iter_fn_def()
        .filter(|def| !is_anonymous(&def.name))
        .map(|def| def.name.clone())
        .collect();
    let mut walker = Walker {
        ast,
        context: variables,
        functions,
        scope: Vec::new(),
        declared: Vec::new(),
        found: Vec::new(),
    };
    walker.block(ast.statements());
    let main_declared: BTreeSet<ImmutableString> = walker
        .declared
        .iter()
        .map(|(name, _)| name.clone())
        .collect();
    let mut problems = walker.finish_body(site, context, None);
    for def in ast.iter_fn_def() {
        if is_anonymous(&def.name) {
            // Closures are walked where they are written, in their enclosing scope.
            continue;
        }
        walker.scope = def.params.iter().cloned().collect();
        walker.function_body(&def.name, def.params.len());
        problems.extend(walker.finish_body(site, context, Some(&main_declared)));
    }
    problems.sort_by_key(|problem| problem.span().start);
    problems
}

/// The help for an undefined variable: `name` is a function, a likely typo of one of
/// `candidates` (the variables in scope), a variable other places receive, or the list of
/// the context's variables.
pub(crate) fn undefined_help<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    context: &ScriptContext,
) -> String {
    if entries(name).next().is_some() {
        format!("`{name}` is a function: write `{name}(...)`")
    } else if let Some(best) = did_you_mean(name, candidates) {
        format!("did you mean `{best}`?")
    } else {
        context_words(name, context)
    }
}

/// What the script receives, when nothing closer explains an undefined variable: for a
/// variable that other places receive (`this_fighter` in a ploy), what this place binds and
/// how to get such a value.
fn context_words(name: &str, context: &ScriptContext) -> String {
    let names: Vec<String> = context
        .variables
        .iter()
        .map(|name| format!("`{name}`"))
        .collect();
    let given = match names.split_last() {
        None => "no variables".to_owned(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    };
    if let (Some(place), Some(holds)) = (&context.place, meaning(name)) {
        let mut help = if name == "this_fighter" && context.place_is_card() {
            format!(
                "{place} is played for no fighter: its script receives no `this_fighter`, only {given}"
            )
        } else if EVENT_VARIABLES.contains(&name) {
            let window = match context.window() {
                Some(window) => format!("window `{window}` gives no `{name}`"),
                None => format!("without a window, there is no `{name}`"),
            };
            format!(
                "the script of {place} receives only {given}: {window} (a window whose event has that fighter declares it: `gives = [{name}]`)"
            )
        } else {
            format!("the script of {place} receives no `{name}` ({holds}), only {given}")
        };
        if matches!(name, "this_fighter" | "target" | "attacker") {
            if context.kind == ScriptKind::Condition {
                help.push_str(
                    "; a condition tests the fighters it may be about: `friendly_fighters().some(|f| ...)`",
                );
            } else {
                help.push_str(
                    "; to act with a fighter, choose one: `let fighter = choose_fighter(friendly_fighters(), \"Which fighter?\");`",
                );
            }
        }
        return help;
    }
    if names.is_empty() {
        format!("this script receives no variables; declare it first with `let {name} = ...;`")
    } else {
        format!(
            "this script receives {}; declare any other variable first with `let`",
            names.join(", ")
        )
    }
}

fn is_anonymous(name: &str) -> bool {
    name.starts_with("anon$")
}

/// One read of a variable that no scope declares.
struct Found {
    name: ImmutableString,
    position: Position,
    /// The closest variable in scope there, if close enough to be a typo.
    suggestion: Option<ImmutableString>,
    /// How many declarations the body had made when the variable was read.
    declared_before: usize,
}

struct Walker<'a> {
    ast: &'a AST,
    /// The context's variables: visible everywhere, in functions too (as Rhai's strict mode
    /// sees them).
    context: &'a [String],
    /// The script's named functions: their names are values.
    functions: BTreeSet<ImmutableString>,
    /// The variables in scope, innermost last.
    scope: Vec<ImmutableString>,
    /// Every declaration of the current body (`let`, `const`, `for`, `catch`), in order.
    declared: Vec<(ImmutableString, Position)>,
    /// The undefined reads of the current body.
    found: Vec<Found>,
}

impl Walker<'_> {
    /// The diagnostics of the body just walked; `main_declared` (for a function) names the
    /// variables the script's main body declares.
    fn finish_body(
        &mut self,
        site: &Site,
        context: &ScriptContext,
        main_declared: Option<&BTreeSet<ImmutableString>>,
    ) -> Vec<DslDiagnostic> {
        let mut found = std::mem::take(&mut self.found);
        found.sort_by_key(|found| (found.position.line(), found.position.position()));
        found.dedup_by(|a, b| a.position == b.position && a.name == b.name);
        let declared = std::mem::take(&mut self.declared);
        found
            .into_iter()
            .map(|found| {
                let name = found.name.as_str();
                let (earlier, later) = declared.split_at(found.declared_before.min(declared.len()));
                let later = later.iter().find(|(declared, _)| declared == name);
                let earlier = earlier.iter().rev().find(|(declared, _)| declared == name);
                let help = if entries(name).next().is_some() {
                    undefined_help(name, [], context)
                } else if let Some((_, position)) = later {
                    if before(*position, found.position) {
                        format!(
                            "`{name}` is being declared here, and its initial value cannot read it"
                        )
                    } else {
                        format!(
                            "`{name}` is declared only later, on line {}: declare it before using it",
                            file_line(site, *position)
                        )
                    }
                } else if let Some((_, position)) = earlier {
                    format!(
                        "the `{name}` declared on line {} is out of scope here: it lives only until the end of its block",
                        file_line(site, *position)
                    )
                } else if main_declared.is_some_and(|main| main.contains(name)) {
                    format!(
                        "a function sees only its parameters and this script's context: pass `{name}` to it as an argument"
                    )
                } else if let Some(best) = &found.suggestion {
                    format!("did you mean `{best}`?")
                } else {
                    context_words(name, context)
                };
                DslDiagnostic::UndefinedVariable {
                    name: name.to_owned(),
                    src: site.named_source(),
                    span: site.word_span(found.position.line(), found.position.position()),
                    help: Some(help),
                }
            })
            .collect()
    }

    fn is_defined(&self, name: &str) -> bool {
        self.scope.iter().any(|variable| variable == name)
            || self.context.iter().any(|variable| variable == name)
            || self.functions.contains(name)
    }

    fn declare(&mut self, name: &ImmutableString, position: Position) {
        self.scope.push(name.clone());
        self.declared.push((name.clone(), position));
    }

    fn read(&mut self, name: &ImmutableString, position: Position) {
        if self.is_defined(name) {
            return;
        }
        let candidates = self
            .scope
            .iter()
            .map(ImmutableString::as_str)
            .chain(self.context.iter().map(String::as_str));
        let suggestion = did_you_mean(name, candidates).map(ImmutableString::from);
        self.found.push(Found {
            name: name.clone(),
            position,
            suggestion,
            declared_before: self.declared.len(),
        });
    }

    /// A block: its declarations end with it.
    fn block(&mut self, statements: &[Stmt]) {
        let depth = self.scope.len();
        for statement in statements {
            self.stmt(statement);
        }
        self.scope.truncate(depth);
    }

    /// The body of the script function `name` with `arity` parameters, in the current scope.
    fn function_body(&mut self, name: &str, arity: usize) {
        // A function's body is reachable only through a walk: walk an AST that holds only it,
        // taking each top-level statement in order. (`retain_functions`, because Rhai 1.27's
        // `clone_functions_only_filtered` keeps every function when it copies into an empty
        // library.)
        let mut single = self.ast.clone_functions_only();
        single.retain_functions(|_, _, fn_name, fn_arity| fn_name == name && fn_arity == arity);
        let depth = self.scope.len();
        single.walk(&mut |path: &[ASTNode]| {
            if let [ASTNode::Stmt(statement)] = path {
                self.stmt(statement);
            }
            true
        });
        self.scope.truncate(depth);
    }

    /// A closure written here: `captured` of its parameters are the variables it captures
    /// (read where it is written, so already checked); the others are its own.
    fn closure(&mut self, pointer: &FnPtr, captured: usize) {
        let name = pointer.fn_name();
        let Some(def) = self.ast.iter_fn_def().find(|def| def.name == name) else {
            return;
        };
        let (name, arity) = (def.name.clone(), def.params.len());
        let depth = self.scope.len();
        self.scope.extend(def.params.iter().skip(captured).cloned());
        self.function_body(&name, arity);
        self.scope.truncate(depth);
    }

    fn stmt(&mut self, statement: &Stmt) {
        match statement {
            Stmt::Var(var, ..) => {
                let (ident, value, _) = &**var;
                self.expr(value);
                self.declare(&ident.name, ident.pos);
            }
            Stmt::If(flow, ..) | Stmt::While(flow, ..) | Stmt::Do(flow, ..) => {
                self.expr(&flow.expr);
                self.block(flow.body.statements());
                self.block(flow.branch.statements());
            }
            Stmt::For(for_loop, ..) => {
                let (variable, counter, flow) = &**for_loop;
                self.expr(&flow.expr);
                let depth = self.scope.len();
                if let Some(counter) = counter {
                    self.declare(&counter.name, counter.pos);
                }
                self.declare(&variable.name, variable.pos);
                self.block(flow.body.statements());
                self.scope.truncate(depth);
            }
            Stmt::TryCatch(flow, ..) => {
                self.block(flow.body.statements());
                let depth = self.scope.len();
                if let Expr::Variable(variable, _, position) = &flow.expr {
                    self.declare(&variable.1, *position);
                }
                self.block(flow.branch.statements());
                self.scope.truncate(depth);
            }
            Stmt::Switch(switch, ..) => {
                let (value, cases) = &**switch;
                self.expr(value);
                for case in &cases.expressions {
                    self.expr(&case.lhs);
                    self.expr(&case.rhs);
                }
            }
            Stmt::Assignment(assignment) => {
                self.expr(&assignment.1.rhs);
                self.expr(&assignment.1.lhs);
            }
            Stmt::FnCall(call, ..) => {
                for arg in &call.args {
                    self.expr(arg);
                }
            }
            Stmt::Block(block) => self.block(block.statements()),
            Stmt::Expr(expr) => self.expr(expr),
            Stmt::BreakLoop(value, ..) | Stmt::Return(value, ..) => {
                if let Some(value) = value {
                    self.expr(value);
                }
            }
            // `Noop`, and `Share`, which marks captured variables (read at the closure).
            _ => {}
        }
    }

    fn expr(&mut self, expr: &Expr) {
        match expr {
            Expr::Variable(variable, _, position) => self.read(&variable.1, *position),
            Expr::DynamicConstant(value, ..) => {
                if let Some(pointer) = value.read_lock::<FnPtr>() {
                    if is_anonymous(pointer.fn_name()) {
                        self.closure(&pointer, 0);
                    }
                }
            }
            Expr::Stmt(block) => {
                if let Some((pointer, captured)) = capturing_closure(block.statements()) {
                    for variable in captured {
                        self.expr(variable);
                    }
                    self.closure(&pointer, captured.len());
                } else {
                    self.block(block.statements());
                }
            }
            Expr::InterpolatedString(parts, ..) | Expr::Array(parts, ..) => {
                for part in parts {
                    self.expr(part);
                }
            }
            Expr::Map(map, ..) => {
                for (_, value) in &map.0 {
                    self.expr(value);
                }
            }
            Expr::FnCall(call, ..) | Expr::MethodCall(call, ..) => {
                for arg in &call.args {
                    self.expr(arg);
                }
            }
            Expr::Dot(binary, ..) | Expr::Index(binary, ..) => {
                self.expr(&binary.lhs);
                self.expr(&binary.rhs);
            }
            Expr::And(list, ..) | Expr::Or(list, ..) | Expr::Coalesce(list, ..) => {
                for item in list.iter() {
                    self.expr(item);
                }
            }
            Expr::Custom(custom, ..) => {
                for input in &custom.inputs {
                    self.expr(input);
                }
            }
            // Constants, `()`, `this`, properties (`.q` is a field, not a variable).
            _ => {}
        }
    }
}

/// A closure that captures variables, as Rhai's parser writes it:
/// `{ share(a, b); curry(Fn(anon$..), a, b) }`. Returns the closure and the captured
/// variables as read where it is written.
fn capturing_closure(statements: &[Stmt]) -> Option<(FnPtr, &[Expr])> {
    let [Stmt::Share(_), Stmt::Expr(expr)] = statements else {
        return None;
    };
    let Expr::FnCall(call, ..) = &**expr else {
        return None;
    };
    let [Expr::DynamicConstant(value, ..), captured @ ..] = call.args.as_slice() else {
        return None;
    };
    let pointer = value.read_lock::<FnPtr>()?.clone();
    (call.name == "curry" && is_anonymous(pointer.fn_name())).then_some((pointer, captured))
}

/// Whether `a` comes before `b` in the script.
fn before(a: Position, b: Position) -> bool {
    (a.line(), a.position()) < (b.line(), b.position())
}

/// The file's line (from 1) of a script position.
fn file_line(site: &Site, position: Position) -> usize {
    let offset = site.offset(position.line(), position.position());
    let text = &site.source.file_text;
    text.get(..offset).unwrap_or(text).matches('\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::{FIGHTER_CARD_KINDS, Place, Window};
    use crate::{Host, ScriptContext, ScriptSource};

    fn help_for(context: ScriptContext, text: &str) -> Vec<(String, String)> {
        let errors = Host::new()
            .compile(&ScriptSource::whole("c.gloam", text), &context)
            .unwrap_err();
        errors
            .iter()
            .map(|error| {
                let help = miette::Diagnostic::help(error)
                    .map(|help| help.to_string())
                    .unwrap_or_default();
                (error.code_name().to_owned(), help)
            })
            .collect()
    }

    #[test]
    fn issue_0011_a_ploy_receives_no_this_fighter_and_the_help_says_how_to_get_one() {
        let context = ScriptContext::effect("card \"Shove\" effect").at(Place::of(
            "card",
            Some("ploy"),
            None,
        ));
        let found = help_for(context, "give_token(this_fighter, \"guard\");");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "gloam::dsl::undefined_variable");
        assert!(
            found[0]
                .1
                .contains("a `ploy` card is played for no fighter"),
            "{}",
            found[0].1
        );
        assert!(
            found[0].1.contains("only `this_card` and `player`"),
            "{}",
            found[0].1
        );
        assert!(
            found[0]
                .1
                .contains("choose_fighter(friendly_fighters(), \"Which fighter?\")"),
            "{}",
            found[0].1
        );
    }

    #[test]
    fn a_condition_is_told_to_test_the_fighters_instead_of_choosing() {
        let context = ScriptContext::condition("card \"Near\" condition").at(Place::of(
            "card",
            Some("objective"),
            None,
        ));
        let found = help_for(context, "damage(this_fighter) > 0");
        assert!(
            found[0].1.contains("friendly_fighters().some(|f| ...)"),
            "{}",
            found[0].1
        );
    }

    #[test]
    fn the_fighter_card_kinds_and_abilities_receive_their_fighter() {
        for kind in FIGHTER_CARD_KINDS {
            assert!(Place::of("card", Some(kind), None).has_fighter(), "{kind}");
        }
        for place in [
            Place::of("ability", None, None),
            Place::of("action", None, None),
            Place::of("fighter", None, None),
        ] {
            assert!(place.has_fighter(), "{place:?}");
        }
        for kind in ["ploy", "objective"] {
            assert!(!Place::of("card", Some(kind), None).has_fighter(), "{kind}");
        }
        assert!(!Place::of("step", None, None).has_fighter());
    }

    fn window<'a>(name: &'a str, gives: &'a [String], optional: &'a [String]) -> Window<'a> {
        Window {
            name,
            gives,
            optional,
        }
    }

    #[test]
    fn issue_0011_a_card_in_a_window_without_a_target_may_not_read_target() {
        let context = ScriptContext::effect("card \"Shove\" effect").at(Place::of(
            "card",
            Some("ploy"),
            Some(window("power_step", &[], &[])),
        ));
        let found = help_for(context, "push(target, 1);");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "gloam::dsl::undefined_variable");
        assert!(
            found[0]
                .1
                .contains("a `ploy` card in window `power_step` receives only `this_card` and `player`: window `power_step` gives no `target`"),
            "{}",
            found[0].1
        );
        assert!(found[0].1.contains("`gives = [target]`"), "{}", found[0].1);
    }

    #[test]
    fn a_card_gets_what_its_window_gives_and_nothing_more() {
        let gives = ["attacker".to_owned(), "target".to_owned()];
        let optional = ["attacker".to_owned()];
        let after_damage = Place::of(
            "card",
            Some("upgrade"),
            Some(window("after_damage", &gives, &optional)),
        );
        assert_eq!(
            after_damage.variables(),
            ["this_card", "player", "this_fighter", "target", "attacker"]
        );
        assert_eq!(after_damage.required(), ["target"]);
        let only_target = ["target".to_owned()];
        let after_move = Place::of(
            "ability",
            None,
            Some(window("after_move", &only_target, &[])),
        );
        assert_eq!(after_move.variables(), ["this_fighter", "player", "target"]);
        let context = ScriptContext::effect("ability \"Dodge\" effect").at(after_move);
        let found = help_for(context, "push(attacker, 1);");
        assert_eq!(found.len(), 1, "{found:?}");
        let without_window = Place::of("card", Some("objective"), None);
        assert_eq!(without_window.variables(), ["this_card", "player"]);
        assert!(without_window.required().is_empty());
    }
}
