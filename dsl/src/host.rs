//! The host: the sandboxed engine, compiling scripts, running them.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::Arc;

use gloam_core::{Answer, Event, GameState, Request, Value};
use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicIteratorPackage, BasicMapPackage,
    BasicStringPackage, LogicPackage, Package,
};
use rhai::{
    AST, Dynamic, Engine, EvalAltResult, LexError, OptimizationLevel, ParseErrorType,
    Position as RhaiPosition, Scope,
};

use crate::check::{Library, check_calls};
use crate::compiled::{Finish, Lowered, Natives, Registrar, ScriptEngine, Suspension, Val};
use crate::diagnostic::{DslDiagnostic, Site};
use crate::runtime::{Memo, RestoreGuard, RunState, Stop, install};
use crate::values::{from_dynamic, humanize_types, to_dynamic};
use crate::variables::{Place, check_variables, undefined_help};
use crate::vocabulary::{FunctionKind, entries};
use crate::world::WorldData;
use crate::{Bindings, FlowRequest, KnownNames, Limits, ScriptSource, World};

/// Where a script sits in the rules, which decides what it may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ScriptKind {
    /// An effect (a card's or an ability's, a ruleset step): may query, change the game
    /// and ask players.
    Effect,
    /// A condition (a restriction, an inspire condition, an objective's condition): must end
    /// in `true` or `false` and may only query.
    Condition,
}

/// What the compiler needs to know about a script's place: a label for messages, its kind,
/// the variables its place gives it, and the names its ruleset declares.
///
/// # Examples
///
/// ```
/// use gloam_dsl::{ScriptContext, ScriptKind};
/// let context = ScriptContext::effect("card \"Sidestep\" effect")
///     .with_variables(["this_card", "player", "target"]);
/// assert_eq!(context.kind, ScriptKind::Effect);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptContext {
    /// How messages name the script (`card "Sidestep" effect`).
    pub label: String,
    /// Effect or condition.
    pub kind: ScriptKind,
    /// The variables the script receives (`this_card`, `target`...), in binding order.
    pub variables: Vec<String>,
    /// The names the ruleset declares, against which the script's string literals are
    /// checked ([`KnownNames`]); shared, since every script of a ruleset has the same.
    /// Permissive (nothing checked) unless given with [`ScriptContext::with_names`].
    pub names: Arc<KnownNames>,
    /// How messages name the script's place ("a `ploy` card"), when it was given
    /// with [`ScriptContext::at`]: the help of an undefined variable says what it binds.
    pub place: Option<String>,
    /// Whether that place is a card's.
    card_place: bool,
    /// The timing window of that place, for a card or an ability that has one.
    window: Option<String>,
}

impl ScriptContext {
    /// An effect script with no variables.
    pub fn effect(label: impl Into<String>) -> ScriptContext {
        ScriptContext {
            label: label.into(),
            kind: ScriptKind::Effect,
            variables: Vec::new(),
            names: Arc::default(),
            place: None,
            card_place: false,
            window: None,
        }
    }

    /// A condition script with no variables.
    pub fn condition(label: impl Into<String>) -> ScriptContext {
        ScriptContext {
            label: label.into(),
            kind: ScriptKind::Condition,
            variables: Vec::new(),
            names: Arc::default(),
            place: None,
            card_place: false,
            window: None,
        }
    }

    /// The same context at `place`: with the variables the place receives
    /// ([`Place::variables`]), and the place named in the help of an undefined variable.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_dsl::{Place, ScriptContext};
    /// let context = ScriptContext::effect("card \"Shove\" effect").at(Place::of("card", Some("ploy"), None));
    /// assert_eq!(context.variables, ["this_card", "player"]);
    /// ```
    pub fn at(mut self, place: Place<'_>) -> ScriptContext {
        self.place = Some(place.describe());
        self.card_place = matches!(place, Place::Card { .. });
        self.window = place.window().map(|window| window.name.to_owned());
        self.with_variables(place.variables())
    }

    /// Whether the place is a card's.
    pub(crate) fn place_is_card(&self) -> bool {
        self.card_place
    }

    /// The timing window of the place, for a card or an ability that has one.
    pub(crate) fn window(&self) -> Option<&str> {
        self.window.as_deref()
    }

    /// The same context with more variables.
    pub fn with_variables<I, S>(mut self, names: I) -> ScriptContext
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        for name in names {
            let name = name.into();
            if !self.variables.contains(&name) {
                self.variables.push(name);
            }
        }
        self
    }

    /// The same context, checking the script's names against `names`: a string literal
    /// where the vocabulary expects a token, keyword, characteristic, counter, hex type,
    /// timing window or event, zone or die must be one the ruleset declares
    /// (`gloam::dsl::unknown_name`). Pass an `Arc<KnownNames>` to share one set between
    /// all the scripts of a ruleset.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use gloam_dsl::{KnownNames, NameKind, ScriptContext};
    /// let names = Arc::new(KnownNames::permissive().with(NameKind::Token, ["guard"]));
    /// let context = ScriptContext::effect("card \"Brace\" effect").with_names(names.clone());
    /// assert!(Arc::ptr_eq(&context.names, &names));
    /// ```
    pub fn with_names(mut self, names: impl Into<Arc<KnownNames>>) -> ScriptContext {
        self.names = names.into();
        self
    }
}

/// A compiled, checked script, ready to run any number of times.
///
/// Not `Send`: a script belongs to the thread of the [`Host`] that compiled it.
#[derive(Clone, Debug)]
pub struct Script {
    ast: AST,
    site: Site,
    label: Arc<str>,
    kind: ScriptKind,
    variables: Vec<String>,
    uses: Vec<&'static str>,
    lowered: Lowered,
}

impl Script {
    /// How messages name the script.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Effect or condition.
    pub fn kind(&self) -> ScriptKind {
        self.kind
    }

    /// Where the script's text is.
    pub fn source(&self) -> &ScriptSource {
        &self.site.source
    }

    /// A run's operations by line, with where the lines are, for the profile.
    fn line_counts<'a>(
        &'a self,
        lines: &'a Option<Box<crate::compiled::Lines>>,
    ) -> Option<(&'a ScriptSource, &'a crate::source::LineMap, &'a [u64])> {
        lines
            .as_ref()
            .map(|lines| (&self.site.source, &self.site.lines, lines.counts.as_slice()))
    }

    /// The variables the script receives.
    pub fn variables(&self) -> &[String] {
        &self.variables
    }

    /// The vocabulary functions the script calls, sorted (a loader can tell, say, which
    /// cards may ask a player).
    pub fn uses(&self) -> &[&'static str] {
        &self.uses
    }

    /// Why the compiled engine runs this script on Rhai ([`ScriptEngine::Compiled`] falls
    /// back per script), or `None` when the script has a compiled form.
    pub fn fallback(&self) -> Option<&str> {
        match &self.lowered {
            Lowered::Program(_) => None,
            Lowered::Refused(why) => Some(why),
        }
    }

    /// The label, shared.
    pub(crate) fn shared_label(&self) -> Arc<str> {
        self.label.clone()
    }
}

/// Evaluates `script` on `engine` with its variables bound from `values` (the others `()`):
/// the evaluation of a card's condition inside a run (`condition_holds`), which reads the
/// run's state through the thread-local slot like any script.
pub(crate) fn eval_nested(
    engine: &Engine,
    script: &Script,
    values: &[(&str, Val)],
) -> Result<Dynamic, Box<EvalAltResult>> {
    let bound = |name: &String| {
        values
            .iter()
            .find(|(bound, _)| bound == name)
            .map_or(Val::Unit, |(_, value)| value.clone())
    };
    if let Lowered::Program(program) = &script.lowered {
        if let Some(compiled) = crate::runtime::compiled() {
            let variables = script.variables.iter().map(bound);
            match crate::compiled::run(
                program,
                engine,
                &compiled.natives,
                &compiled.limits,
                variables,
            ) {
                Finish::Done(result, operations, lines) => {
                    crate::profile::record(&script.label, operations, script.line_counts(&lines));
                    return result;
                }
                // A condition asks nothing; were it to, the run's stop says so.
                Finish::Suspended(_) => return Err(terminated()),
                // A condition changes nothing: Rhai evaluates it again below.
                Finish::Bail(_) => {}
            }
        }
    }
    let mut scope = Scope::new();
    for name in &script.variables {
        let value = values
            .iter()
            .find(|(bound, _)| bound == name)
            .map_or(Dynamic::UNIT, |(_, value)| value.to_dynamic());
        scope.push_dynamic(name.as_str(), value);
    }
    let max = engine.max_operations().max(1);
    crate::limits::budget::counting(0, max, || {
        engine.eval_ast_with_scope::<Dynamic>(&mut scope, &script.ast)
    })
    .0
}

/// How a run ended, when it did not fail.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// The script finished: its changes and events were committed.
    Done {
        /// The script's last value (`Unit` for most effects).
        value: Value,
        /// What it queued to happen next (`then`, `play_card`, `end_game`), in the order
        /// it asked; empty for most scripts.
        flow: Vec<FlowRequest>,
    },
    /// The script reached a choice with no recorded answer. Nothing was committed: ask the
    /// request's player, append the answer to the answers, and run the script again.
    NeedsChoice(Request),
    /// The script reached a simultaneous secret choice (`choose_secretly`) with no recorded
    /// answers. Nothing was committed: ask every request at once (the kernel's
    /// `Control::AskAll`), append the answers in the order of the requests, and run the
    /// script again.
    NeedsChoices(Vec<Request>),
    /// In chance mode (`gloam_core::Game::set_chance_mode`), the script reached a roll with
    /// no outcome chosen. Nothing was committed: the caller passes it on as
    /// `RuleError::ChanceNeeded`, and the game runs the script again once the host has
    /// chosen the outcome.
    NeedsChance(Box<gloam_core::ChanceRequest>),
}

impl Outcome {
    /// A finished run with this value that queued nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::Value;
    /// use gloam_dsl::Outcome;
    /// assert_eq!(Outcome::done(Value::Unit), Outcome::Done { value: Value::Unit, flow: vec![] });
    /// ```
    pub fn done(value: Value) -> Outcome {
        Outcome::Done {
            value,
            flow: Vec::new(),
        }
    }
}

/// The script host: one sandboxed Rhai engine with the vocabulary registered, built once.
///
/// It compiles scripts ([`Host::compile`]) and runs them against a game ([`Host::run`],
/// [`Host::evaluate_bool`]). The sandbox: no `eval`, no modules, no output, no clock, no
/// floating point, strict variables, and the [`Limits`].
///
/// # Examples
///
/// ```
/// use gloam_core::{Battlefield, Dice, Event, GameState, Hex, PlayerId, Value};
/// use gloam_dsl::{Bindings, Host, Outcome, ScriptContext, ScriptSource, World};
///
/// let host = Host::new();
/// let context = ScriptContext::effect("card \"Cut\" effect").with_variables(["target"]);
/// let script = host.compile(&ScriptSource::whole("cut.gloam", "deal_damage(target, 2);"), &context)?;
///
/// let mut state = GameState::new(1, &["Ann", "Bo"]);
/// let mut events = Vec::new();
/// let piece = gloam_core::Ctx::new(&mut state, &mut events).create_piece(PlayerId(1), "brute", []).unwrap();
/// let world = World::new(Battlefield::from_hexes([(Hex::ORIGIN, Vec::<String>::new())]), ["blocked"], false, Dice::new());
/// let bindings = Bindings::new().acting(PlayerId(0)).with("target", Value::Piece(piece));
///
/// let outcome = host.run(&script, &world, &mut state, &mut events, &bindings, &[]).map_err(|e| vec![e])?;
/// assert_eq!(outcome, Outcome::done(Value::Unit));
/// assert_eq!(state.pieces[&piece].counters["damage"], 2);
/// assert!(matches!(events.last(), Some(Event::CounterChanged { to: 2, .. })));
/// # Ok::<(), Vec<gloam_dsl::DslDiagnostic>>(())
/// ```
pub struct Host {
    engine: Engine,
    /// The same sandbox without strict variables, and without functions: it only parses.
    /// A script that strict mode stops at its first undefined variable is parsed again with
    /// it, so that all its undefined variables and every other problem are found at once.
    lenient: Engine,
    limits: Limits,
    library: Library,
    /// The memo of the last run, if it stopped at a choice: the next run of the same
    /// script in the same world against an equal state (the run after the answer) starts
    /// from it.
    carried: RefCell<Option<Carried>>,
    /// The compiled run that last stopped at a choice, kept to resume where it stopped
    /// when the same script runs again with that choice answered (see [`Suspended`]).
    suspended: RefCell<Option<Suspended>>,
    /// Every registered function, for the compiled form's calls.
    natives: Rc<Natives>,
    /// The table and the limits, as a compiled run lends them to the card conditions it
    /// evaluates: made once, shared by every run.
    compiled: Rc<crate::runtime::Compiled>,
    /// Which engine runs scripts.
    script_engine: Cell<ScriptEngine>,
    /// The runs the compiled evaluator gave back to Rhai, by reason.
    bails: RefCell<BTreeMap<String, u64>>,
    /// How many compiled runs carried on where they stopped at a choice.
    resumes: Cell<u64>,
}

/// A memo carried from a run that stopped at a choice to the next run.
struct Carried {
    /// The script (kept alive, so that no other script can take its label's address).
    label: Arc<str>,
    world: Rc<WorldData>,
    /// The state the memo's results were computed against.
    state: GameState,
    memo: Memo,
}

/// A compiled run stopped at a choice, with everything it had done: the run after the
/// answer carries on from here instead of running the script again from its top, when it
/// is the same script, in the same world, with the same variables, against an equal state,
/// with the same answers and more. Anything else runs the script from its top, as the
/// reference does, to the same end: a clone or a save of the game needs none of this.
struct Suspended {
    /// The script (kept alive, so that no other script can take its label's address).
    label: Arc<str>,
    world: Rc<WorldData>,
    bindings: Bindings,
    /// The state the run started from.
    state: GameState,
    /// The answers it had.
    answers: Vec<Answer>,
    /// The answer the call that asked began reading at.
    next_answer: usize,
    /// What the run had changed, recorded and queued before it asked.
    working: Option<GameState>,
    events: Vec<Event>,
    flow: Vec<FlowRequest>,
    machine: Box<Suspension>,
}

/// The effects that may ask a player (which push destination, when several are equally
/// good): besides the choices, the only functions whose calls keep their arguments, so that
/// a run suspended at their question resumes. An effect that asks and is not listed still
/// asks; the run after the answer runs the script from its top, as the reference does.
const ASKING_EFFECTS: &[&str] = &["push", "push_away"];

/// The error that ends a script stopped by a registered function (the run's stop says why).
fn terminated() -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorTerminated(
        Dynamic::UNIT,
        RhaiPosition::NONE,
    ))
}

impl Default for Host {
    fn default() -> Host {
        Host::new()
    }
}

impl std::fmt::Debug for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Host")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Host {
    /// A host with the default [`Limits`].
    pub fn new() -> Host {
        Host::with_limits(Limits::default())
    }

    /// A host with the given limits (a limit of 0 is raised to 1: Rhai reads 0 as "none").
    pub fn with_limits(limits: Limits) -> Host {
        let mut engine = sandbox(&limits);
        engine.register_global_module(standard_library());
        engine.set_strict_variables(true);
        let mut natives = Natives::default();
        crate::functions::register(&mut Registrar::new(&mut engine, &mut natives));
        natives.mark_askers(|name| {
            ASKING_EFFECTS.contains(&name)
                || entries(name).any(|doc| doc.kind == FunctionKind::Choice)
        });
        natives.settle();
        let library = library_of(&engine);
        let mut lenient = sandbox(&limits);
        lenient.set_strict_variables(false);
        let natives = Rc::new(natives);
        let compiled = Rc::new(crate::runtime::Compiled {
            natives: Rc::clone(&natives),
            limits: limits.clone(),
        });
        Host {
            engine,
            lenient,
            limits,
            library,
            carried: RefCell::new(None),
            suspended: RefCell::new(None),
            natives,
            compiled,
            script_engine: Cell::new(ScriptEngine::from_env()),
            bails: RefCell::new(BTreeMap::new()),
            resumes: Cell::new(0),
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Chooses the engine that runs scripts from now on: gloam's evaluator of the compiled
    /// form (the default; `docs/compiler.md`) or Rhai's interpreter (the reference).
    /// Both give the same results, events and errors; a script the compiled form does not
    /// cover runs on Rhai ([`Script::fallback`]).
    pub fn set_script_engine(&self, engine: ScriptEngine) {
        self.script_engine.set(engine);
    }

    /// The engine that runs scripts.
    pub fn script_engine(&self) -> ScriptEngine {
        self.script_engine.get()
    }

    /// How many runs of the compiled engine carried on from where they stopped at a choice
    /// (the run after the answer) instead of running the script again from its top.
    ///
    /// # Examples
    ///
    /// ```
    /// let host = gloam_dsl::Host::new();
    /// assert_eq!(host.compiled_resumes(), 0);
    /// ```
    pub fn compiled_resumes(&self) -> u64 {
        self.resumes.get()
    }

    /// The runs the compiled evaluator began and gave back to Rhai, which ran them again
    /// from the start, counted by reason (a value the evaluator does not cover yet, such
    /// as iterating a string); empty when it covered every run.
    pub fn compiled_bails(&self) -> BTreeMap<String, u64> {
        self.bails.borrow().clone()
    }

    /// Compiles and checks a script: syntax, every call against the vocabulary and its
    /// number of arguments, variables against the context, decimal numbers, (for a
    /// condition) that it calls no effect or choice, and the names written as string
    /// literals against the context's [`KnownNames`]. Returns every problem found, in
    /// source order: every undefined variable with every bad call (Rhai's strict mode stops
    /// at the first undefined variable, so the script is then parsed again without it and
    /// its scopes walked here). A syntax error stops the script and is reported alone.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_dsl::{Host, ScriptContext, ScriptSource};
    /// let host = Host::new();
    /// let context = ScriptContext::condition("restriction").with_variables(["this_fighter"]);
    /// let source = ScriptSource::whole("r.gloam", "enemy_fighters().len() > 0 && deal_damage(this_fighter, 1)");
    /// let errors = host.compile(&source, &context).unwrap_err();
    /// assert_eq!(errors[0].code_name(), "gloam::dsl::effect_in_condition");
    /// ```
    pub fn compile(
        &self,
        source: &ScriptSource,
        context: &ScriptContext,
    ) -> Result<Script, Vec<DslDiagnostic>> {
        let site = Site::new(source);
        if !source.is_valid() {
            return Err(vec![DslDiagnostic::Syntax {
                message: format!(
                    "script range {}..{} is not a range of {} ({} bytes)",
                    source.start,
                    source.end,
                    source.file_name,
                    source.file_text.len()
                ),
                src: site.named_source(),
                span: site.span_at(0, 0),
                help: Some("the loader gave a wrong byte range for this script".to_owned()),
            }]);
        }
        let length = source.end - source.start;
        if length > self.limits.script_bytes {
            return Err(vec![DslDiagnostic::LimitExceeded {
                script: context.label.clone(),
                limit: "script size in bytes".to_owned(),
                max: self.limits.script_bytes as u64,
                src: site.named_source(),
                span: site.span_at(source.start, 0),
                help: Some(format!(
                    "this script is {length} bytes long: split it into steps the flow queues \
                     with `then`, or into several cards or abilities"
                )),
            }]);
        }
        let mut scope = Scope::new();
        for name in &context.variables {
            scope.push_dynamic(name.as_str(), Dynamic::UNIT);
        }
        let ast = match self.engine.compile_with_scope(&scope, source.text()) {
            Ok(ast) => ast,
            Err(error) if matches!(*error.0, ParseErrorType::VariableUndefined(_)) => {
                let first = self.parse_diagnostic(&site, context, &error.0, error.1);
                return Err(self.every_problem(&site, context, &scope, first));
            }
            Err(error) => {
                let first = self.parse_diagnostic(&site, context, &error.0, error.1);
                // Rhai stops at its first error; a bad number there (a decimal, a literal too
                // large) must not hide the script's other bad numbers, which a lexical scan
                // finds all at once.
                if matches!(first, DslDiagnostic::DecimalNumber { .. }) || is_too_large(&first) {
                    let mut problems = number_problems(&site);
                    if !problems.iter().any(|p| p.span() == first.span()) {
                        problems.push(first);
                    }
                    problems.sort_by_key(|problem| problem.span().start);
                    return Err(problems);
                }
                return Err(vec![first]);
            }
        };
        let condition = context.kind == ScriptKind::Condition;
        let (mut problems, uses) =
            check_calls(&ast, &site, &self.library, condition, &context.names);
        if !problems.is_empty() {
            problems.sort_by_key(|problem| problem.span().start);
            return Err(problems);
        }
        let ast = self
            .engine
            .optimize_ast(&scope, ast, OptimizationLevel::Simple);
        let lowered = crate::compiled::lower(&ast, &context.variables, &self.natives);
        Ok(Script {
            ast,
            site,
            label: context.label.as_str().into(),
            kind: context.kind,
            lowered,
            variables: context.variables.clone(),
            uses: uses.into_iter().collect(),
        })
    }

    /// Every problem of a script that strict variables stopped at its first undefined
    /// variable (`first`): parsed again without strict variables, its undefined variables and
    /// its calls are all checked, in source order. A syntax error found then is reported
    /// alone, as any syntax error is.
    fn every_problem(
        &self,
        site: &Site,
        context: &ScriptContext,
        scope: &Scope,
        first: DslDiagnostic,
    ) -> Vec<DslDiagnostic> {
        let ast = match self.lenient.compile_with_scope(scope, site.source.text()) {
            Ok(ast) => ast,
            Err(error) => return vec![self.parse_diagnostic(site, context, &error.0, error.1)],
        };
        let mut problems = check_variables(&ast, site, context);
        if !problems
            .iter()
            .any(|problem| problem.span() == first.span())
        {
            problems.push(first);
        }
        let condition = context.kind == ScriptKind::Condition;
        problems.extend(check_calls(&ast, site, &self.library, condition, &context.names).0);
        problems.sort_by_key(|problem| problem.span().start);
        problems
    }

    /// Runs a script against a game.
    ///
    /// The script works on a copy of `state` (made at its first effect); each effect goes
    /// through [`gloam_core::Ctx`] and records events. Choices take `answers` in order. If
    /// the script finishes, the copy replaces `state` and its events are appended to
    /// `events`: [`Outcome::Done`], with the flow the script queued ([`crate::FlowRequest`]).
    /// If it reaches a choice with no answer ([`Outcome::NeedsChoice`]) or fails (a
    /// diagnostic naming the script and the line in its file), `state` and `events` are
    /// exactly as they were, and the flow it queued is dropped.
    ///
    /// A condition script runs here too, with effects and choices refused.
    ///
    /// For the length of the run the state is moved into a thread-local slot that the
    /// registered functions reach (Rhai's functions are `'static` and cannot borrow it);
    /// it is moved back however the run ends, a panic included. So a script cannot run
    /// while another runs on the same thread: that is refused with a runtime error. (A
    /// card's condition checked with `condition_holds` is not another run: it is evaluated
    /// inside this one, against the same state.)
    pub fn run(
        &self,
        script: &Script,
        world: &World,
        state: &mut GameState,
        events: &mut Vec<Event>,
        bindings: &Bindings,
        answers: &[Answer],
    ) -> Result<Outcome, DslDiagnostic> {
        let base = std::mem::take(state);
        let resumed = self.resumable(script, world, &base, bindings, answers);
        let mut run = self.run_state(script, world, base, bindings, answers);
        run.memo = self.carried_memo(script, world, &run.base);
        let machine = resumed.map(|kept| {
            self.resumes.set(self.resumes.get() + 1);
            run.working = kept.working;
            run.events = kept.events;
            run.flow = kept.flow;
            run.next_answer = kept.next_answer;
            kept.machine
        });
        if let Err(run) = install(run) {
            *state = run.base;
            return Err(self.nested_run(script));
        }
        let guard = RestoreGuard::new(Some(state));
        let (result, suspension) = self.eval(script, bindings, machine);
        let (run, caller) = guard.finish();
        let (Some(mut run), Some(caller)) = (run, caller) else {
            return Err(self.nested_run(script));
        };
        let mut outcome = self.conclude(script, &run, result);
        if let (Ok(Outcome::NeedsChoice(_)), Some(machine), Some(next_answer)) =
            (&outcome, suspension, run.asked)
        {
            *self.suspended.borrow_mut() = Some(Suspended {
                label: script.label.clone(),
                world: world.data.clone(),
                bindings: bindings.clone(),
                state: run.base.clone(),
                answers: answers.to_vec(),
                next_answer,
                working: run.working.take(),
                events: std::mem::take(&mut run.events),
                flow: std::mem::take(&mut run.flow),
                machine,
            });
        }
        // A secret choice of several players (`NeedsChoices`) is never suspended: the script
        // runs again from the top with all the answers, as the reference interpreter does.
        if matches!(
            outcome,
            Ok(Outcome::NeedsChoice(_) | Outcome::NeedsChoices(_))
        ) && !run.memo.is_empty()
        {
            *self.carried.borrow_mut() = Some(Carried {
                label: script.label.clone(),
                world: world.data.clone(),
                state: run.base.clone(),
                memo: std::mem::take(&mut run.memo),
            });
        }
        if let Ok(Outcome::Done { flow, .. }) = &mut outcome {
            *flow = run.flow;
            *caller = run.working.unwrap_or(run.base);
            events.extend(run.events);
        } else {
            *caller = run.base;
        }
        outcome
    }

    /// Evaluates a condition: the script must end in `true` or `false` and may call only
    /// queries (an effect or a choice is a `gloam::dsl::effect_in_condition` error). The
    /// game is read through a copy and never changed.
    ///
    /// The copy costs more than the script (about 2 µs for a small game). A caller that
    /// holds the state mutably can instead [`Host::run`] a condition script, which lends
    /// the state without copying it and ends in `Outcome::Done { value: Value::Bool(_), .. }`.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Battlefield, Dice, GameState, Hex};
    /// use gloam_dsl::{Bindings, Host, ScriptContext, ScriptSource, World};
    /// let host = Host::new();
    /// let script = host.compile(&ScriptSource::whole("c", "round() >= 2"), &ScriptContext::condition("c")).unwrap();
    /// let world = World::new(Battlefield::from_hexes([(Hex::ORIGIN, Vec::<String>::new())]), ["blocked"], false, Dice::new());
    /// let state = GameState::new(1, &["Ann", "Bo"]);
    /// assert_eq!(host.evaluate_bool(&script, &world, &state, &Bindings::new()), Ok(false));
    /// ```
    pub fn evaluate_bool(
        &self,
        script: &Script,
        world: &World,
        state: &GameState,
        bindings: &Bindings,
    ) -> Result<bool, DslDiagnostic> {
        let mut run = self.run_state(script, world, state.clone(), bindings, &[]);
        run.pure = true;
        if install(run).is_err() {
            return Err(self.nested_run(script));
        }
        let guard = RestoreGuard::new(None);
        let (result, _) = self.eval(script, bindings, None);
        let (run, _) = guard.finish();
        let Some(run) = run else {
            return Err(self.nested_run(script));
        };
        match self.conclude(script, &run, result)? {
            Outcome::Done {
                value: Value::Bool(value),
                ..
            } => Ok(value),
            Outcome::Done { value: other, .. } => Err(DslDiagnostic::RuntimeError {
                script: script.label.to_string(),
                message: format!(
                    "a condition must end in true or false, and this one ends in {}",
                    describe(&other)
                ),
                src: script.site.named_source(),
                span: script.site.span_at(script.site.source.end, 0),
                help: Some(
                    "end the script with a comparison such as `damage(target) > 0`".to_owned(),
                ),
            }),
            Outcome::NeedsChoice(_) | Outcome::NeedsChoices(_) | Outcome::NeedsChance(_) => {
                Err(self.nested_run(script))
            }
        }
    }

    /// The memo carried from the last run, if it was of the same script in the same world
    /// against a state equal to `base`; else an empty one.
    fn carried_memo(&self, script: &Script, world: &World, base: &GameState) -> Memo {
        match self.carried.borrow_mut().take() {
            Some(carried)
                if Arc::ptr_eq(&carried.label, &script.label)
                    && Rc::ptr_eq(&carried.world, &world.data)
                    && carried.state == *base =>
            {
                carried.memo
            }
            _ => Memo::default(),
        }
    }

    /// The suspended run to carry on for this run of `script`, if it is the one that stopped
    /// at the choice whose answer is now the last of `answers` (see [`Suspended`]).
    fn resumable(
        &self,
        script: &Script,
        world: &World,
        base: &GameState,
        bindings: &Bindings,
        answers: &[Answer],
    ) -> Option<Suspended> {
        let kept = self
            .suspended
            .borrow_mut()
            .take_if(|kept| Arc::ptr_eq(&kept.label, &script.label))?;
        (self.script_engine.get() == ScriptEngine::Compiled
            && Rc::ptr_eq(&kept.world, &world.data)
            && answers.len() > kept.answers.len()
            && answers.starts_with(&kept.answers)
            && kept.bindings == *bindings
            && kept.state == *base)
            .then_some(kept)
    }

    fn run_state(
        &self,
        script: &Script,
        world: &World,
        base: GameState,
        bindings: &Bindings,
        answers: &[Answer],
    ) -> Box<RunState> {
        Box::new(RunState {
            base,
            working: None,
            events: Vec::new(),
            world: world.data.clone(),
            acting: bindings.acting,
            answers: answers.to_vec(),
            next_answer: 0,
            pure: script.kind == ScriptKind::Condition,
            label: script.label.clone(),
            stop: None,
            flow: Vec::new(),
            depth: 0,
            memo: Memo::default(),
            list_depth: 0,
            compiled: (self.script_engine.get() == ScriptEngine::Compiled)
                .then(|| Rc::clone(&self.compiled)),
            asked: None,
            placed: std::cell::RefCell::new(None),
            scene: std::cell::RefCell::new(None),
        })
    }

    /// Runs `script` (or carries on its suspended compiled run): its result, and the
    /// compiled run's suspension if it stopped at a choice it can resume at.
    fn eval(
        &self,
        script: &Script,
        bindings: &Bindings,
        resumed: Option<Box<Suspension>>,
    ) -> (Result<Dynamic, Box<EvalAltResult>>, Option<Box<Suspension>>) {
        if let (ScriptEngine::Compiled, Lowered::Program(program)) =
            (self.script_engine.get(), &script.lowered)
        {
            let finish = match resumed {
                Some(suspension) => crate::compiled::resume(
                    program,
                    &self.engine,
                    &self.natives,
                    &self.limits,
                    *suspension,
                ),
                None => {
                    let variables = script
                        .variables
                        .iter()
                        .map(|name| bindings.get(name).map_or(Val::Unit, Val::from_value));
                    crate::compiled::run(
                        program,
                        &self.engine,
                        &self.natives,
                        &self.limits,
                        variables,
                    )
                }
            };
            match finish {
                Finish::Done(result, operations, lines) => {
                    crate::profile::record(&script.label, operations, script.line_counts(&lines));
                    return (result, None);
                }
                Finish::Suspended(suspension) => return (Err(terminated()), Some(suspension)),
                Finish::Bail(why) => {
                    // Nothing of the compiled run is kept: Rhai runs the script from the top.
                    *self.bails.borrow_mut().entry(why).or_insert(0) += 1;
                    crate::runtime::restart();
                }
            }
        }
        let mut scope = Scope::new();
        for name in &script.variables {
            let value = bindings.get(name).map_or(Dynamic::UNIT, to_dynamic);
            scope.push_dynamic(name.as_str(), value);
        }
        let (result, _) = crate::limits::budget::counting(0, self.limits.operations.max(1), || {
            self.engine
                .eval_ast_with_scope::<Dynamic>(&mut scope, &script.ast)
        });
        (result, None)
    }

    /// Turns the end of a run into its outcome; the run's stop wins over Rhai's result.
    fn conclude(
        &self,
        script: &Script,
        run: &RunState,
        result: Result<Dynamic, Box<EvalAltResult>>,
    ) -> Result<Outcome, DslDiagnostic> {
        let site = &script.site;
        // Made only for an error: most runs end without one.
        let label = || String::from(&*script.label);
        if let Some((stop, position)) = &run.stop {
            let span = site.word_span(position.line(), position.position());
            return match stop {
                Stop::Choice(request) => Ok(Outcome::NeedsChoice(request.clone())),
                Stop::Choices(requests) => Ok(Outcome::NeedsChoices(requests.clone())),
                Stop::Chance(request) => Ok(Outcome::NeedsChance(request.clone())),
                Stop::Failed { function, message } => Err(DslDiagnostic::RuntimeError {
                    script: label(),
                    message: format!("`{function}`: {message}"),
                    src: site.named_source(),
                    span,
                    help: None,
                }),
                Stop::Refused { function, message } => Err(DslDiagnostic::RefusedEffect {
                    script: label(),
                    function: (*function).to_owned(),
                    message: message.clone(),
                    src: site.named_source(),
                    span,
                    help: Some(
                        "the whole script was undone: the game is as it was before it ran"
                            .to_owned(),
                    ),
                }),
                Stop::Impure { function, kind } => Err(DslDiagnostic::EffectInCondition {
                    name: (*function).to_owned(),
                    what: if *kind == FunctionKind::Choice {
                        "asks a player".to_owned()
                    } else {
                        "changes the game".to_owned()
                    },
                    src: site.named_source(),
                    span,
                    help: Some(format!("{} is evaluated as a condition", script.label)),
                }),
            };
        }
        match result {
            Ok(value) => {
                let unused = run.answers.len() - run.next_answer.min(run.answers.len());
                if unused > 0 {
                    return Err(DslDiagnostic::RuntimeError {
                        script: label(),
                        message: format!(
                            "{unused} recorded answer{} not used: the script asked fewer questions than were answered",
                            if unused == 1 { " was" } else { "s were" }
                        ),
                        src: site.named_source(),
                        span: site.span_at(site.source.end, 0),
                        help: Some(
                            "answers must come from this script's own requests, in order"
                                .to_owned(),
                        ),
                    });
                }
                Ok(Outcome::done(from_dynamic(&value)))
            }
            Err(error) => Err(self.runtime_diagnostic(script, *error)),
        }
    }

    fn runtime_diagnostic(&self, script: &Script, error: EvalAltResult) -> DslDiagnostic {
        let site = &script.site;
        let label = script.label.to_string();
        let mut error = error;
        let mut position = error.position();
        while let EvalAltResult::ErrorInFunctionCall(_, _, inner, _) = error {
            error = *inner;
            if !error.position().is_none() {
                position = error.position();
            }
        }
        let span = site.word_span(position.line(), position.position());
        let limit = |limit: &str, max: u64, help: &str| DslDiagnostic::LimitExceeded {
            script: label.clone(),
            limit: limit.to_owned(),
            max,
            src: site.named_source(),
            span,
            help: Some(help.to_owned()),
        };
        let limits = &self.limits;
        match &error {
            EvalAltResult::ErrorTerminated(token, _) if crate::limits::budget::is_spent(token) => {
                limit(
                    "operations",
                    limits.operations,
                    "a script that runs this long is probably looping forever",
                )
            }
            EvalAltResult::ErrorTooManyOperations(_) => limit(
                "operations",
                limits.operations,
                "a script that runs this long is probably looping forever",
            ),
            EvalAltResult::ErrorStackOverflow(_) => limit(
                "call depth",
                limits.call_depth as u64,
                "a function probably calls itself without end",
            ),
            EvalAltResult::ErrorTooManyVariables(_) => limit(
                "variables",
                limits.variables as u64,
                "a script this large should be split into smaller ones",
            ),
            EvalAltResult::ErrorDataTooLarge(what, _) => {
                let (name, max) = data_limit(what, limits);
                limit(
                    name,
                    max,
                    "a value that grows without end: scripts keep their data small",
                )
            }
            EvalAltResult::ErrorFunctionNotFound(signature, _) => {
                let name = signature.split(" (").next().unwrap_or(signature).trim();
                let help = {
                    let signatures: Vec<String> = entries(name)
                        .map(|doc| format!("`{}`", doc.signature()))
                        .collect();
                    (!signatures.is_empty())
                        .then(|| format!("it takes {}", signatures.join(" or ")))
                };
                DslDiagnostic::RuntimeError {
                    script: label,
                    message: format!("no function matches {}", humanize_types(signature)),
                    src: site.named_source(),
                    span,
                    help,
                }
            }
            EvalAltResult::ErrorRuntime(value, _) => DslDiagnostic::RuntimeError {
                script: label,
                message: format!("the script threw {}", describe_thrown(value)),
                src: site.named_source(),
                span,
                help: None,
            },
            _ => {
                let mut error = error;
                error.clear_position();
                DslDiagnostic::RuntimeError {
                    script: label,
                    message: lowercase_first(&humanize_types(&error.to_string())),
                    src: site.named_source(),
                    span,
                    help: None,
                }
            }
        }
    }

    fn nested_run(&self, script: &Script) -> DslDiagnostic {
        DslDiagnostic::RuntimeError {
            script: script.label.to_string(),
            message: "a script cannot run while another script is running on this thread"
                .to_owned(),
            src: script.site.named_source(),
            span: script.site.span_at(script.site.source.start, 0),
            help: None,
        }
    }

    fn parse_diagnostic(
        &self,
        site: &Site,
        context: &ScriptContext,
        kind: &ParseErrorType,
        position: RhaiPosition,
    ) -> DslDiagnostic {
        let offset = site.offset(position.line(), position.position());
        let span = site.word_span(position.line(), position.position());
        if matches!(
            kind,
            ParseErrorType::PropertyExpected | ParseErrorType::BadInput(_)
        ) {
            if let Some(problem) = decimal_at(site, offset) {
                return problem;
            }
        }
        let limit = |limit: &str, max: u64, help: &str| DslDiagnostic::LimitExceeded {
            script: context.label.clone(),
            limit: limit.to_owned(),
            max,
            src: site.named_source(),
            span,
            help: Some(help.to_owned()),
        };
        let syntax = |message: String, help: Option<&str>| DslDiagnostic::Syntax {
            message,
            src: site.named_source(),
            span,
            help: help.map(str::to_owned),
        };
        match kind {
            ParseErrorType::VariableUndefined(name) => {
                let candidates = context.variables.iter().map(String::as_str);
                let help = undefined_help(name, candidates, context);
                DslDiagnostic::UndefinedVariable {
                    name: name.clone(),
                    src: site.named_source(),
                    span,
                    help: Some(help),
                }
            }
            ParseErrorType::ExprTooDeep => limit(
                "expression depth",
                self.limits.expression_depth as u64,
                "an expression nested this deep is unreadable: split it with `let`",
            ),
            ParseErrorType::TooManyFunctions => limit(
                "functions",
                self.limits.functions as u64,
                "a script this large should be split into smaller ones",
            ),
            ParseErrorType::LiteralTooLarge(what, max) => limit(
                data_limit(what, &self.limits).0,
                *max as u64,
                "scripts keep their data small",
            ),
            ParseErrorType::Reserved(word)
            | ParseErrorType::BadInput(LexError::ImproperSymbol(word, _))
                if word == "eval" =>
            {
                syntax(
                    "`eval` is not available in gloam scripts".to_owned(),
                    Some(
                        "every script is checked when the data loads, so scripts cannot build scripts",
                    ),
                )
            }
            ParseErrorType::UnexpectedEOF => syntax(
                "the script ends too early".to_owned(),
                Some("something opened with `(`, `[`, `{` or a quote is not closed"),
            ),
            ParseErrorType::MissingToken(token, what) => {
                syntax(format!("expected `{token}` {what}"), None)
            }
            ParseErrorType::BadInput(LexError::MalformedNumber(written))
                if written.chars().all(|c| c.is_ascii_digit() || c == '_') =>
            {
                syntax(
                    format!("`{written}` {TOO_LARGE}"),
                    Some("rules numbers are whole numbers that fit in 64 bits"),
                )
            }
            other => syntax(lowercase_first(&other.to_string()), None),
        }
    }
}

/// Rhai's packages the scripts may use, merged into one module.
///
/// Rhai looks a function up in each global module in turn, and again for each way of
/// reading its arguments as `Dynamic` when no exact match is found; inside a closure (which
/// `filter` and `some` call once per element) it starts with an empty cache every time. One
/// module instead of six makes each of those lookups one probe instead of six. Where two
/// packages define the same function, the one registered last wins, as it did when each was
/// a global module of its own (a later global module is searched first).
fn standard_library() -> rhai::Shared<rhai::Module> {
    // Most precedence first: each next package only fills in what is not there yet.
    let mut merged = (*BasicStringPackage::new().as_shared_module()).clone();
    for package in [
        BasicMapPackage::new().as_shared_module(),
        BasicArrayPackage::new().as_shared_module(),
        BasicIteratorPackage::new().as_shared_module(),
        LogicPackage::new().as_shared_module(),
        ArithmeticPackage::new().as_shared_module(),
    ] {
        merged.fill_with(&package);
    }
    merged.build_index();
    merged.into()
}

/// An engine with the sandbox's settings and limits, and nothing registered: every setting
/// that changes how a script parses is here, so the host's two engines parse alike.
fn sandbox(limits: &Limits) -> Engine {
    let mut engine = Engine::new_raw();
    engine.disable_symbol("eval");
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    engine.set_fail_on_invalid_map_property(true);
    // Scripts are checked unoptimised (so dead code is checked too), then optimised.
    engine.set_optimization_level(OptimizationLevel::None);
    engine.set_max_operations(limits.operations.max(1));
    // Every operation, a closure's turn inside a list function's included, counts against
    // the run's limit (`limits::budget`).
    engine.on_progress(|_| crate::limits::budget::tick());
    engine.set_max_call_levels(limits.call_depth.max(1));
    engine.set_max_expr_depths(
        limits.expression_depth.max(1),
        limits.function_expression_depth.max(1),
    );
    engine.set_max_string_size(limits.string_size.max(1));
    engine.set_max_array_size(limits.array_size.max(1));
    engine.set_max_map_size(limits.map_size.max(1));
    engine.set_max_variables(limits.variables.max(1));
    engine.set_max_functions(limits.functions.max(1));
    engine
}

/// Which limit a Rhai "data too large" message names, and its value.
fn data_limit(what: &str, limits: &Limits) -> (&'static str, u64) {
    let what = what.to_ascii_lowercase();
    if what.contains("string") {
        ("string size", limits.string_size as u64)
    } else if what.contains("array") {
        ("array size", limits.array_size as u64)
    } else if what.contains("map") {
        ("map size", limits.map_size as u64)
    } else {
        ("data size", 0)
    }
}

/// Whether a diagnostic is the one [`number_problems`] gives for a too-large literal.
fn is_too_large(problem: &DslDiagnostic) -> bool {
    matches!(problem, DslDiagnostic::Syntax { message, .. } if message.ends_with(TOO_LARGE))
}

const TOO_LARGE: &str = "is larger than the largest whole number (9223372036854775807)";

/// Every number literal of a script that cannot be a rules number: decimals, and whole
/// numbers past `i64::MAX`. A lexical scan, outside strings and comments.
fn number_problems(site: &Site) -> Vec<DslDiagnostic> {
    let text = &*site.source.file_text;
    let (start, end) = (site.source.start, site.source.end);
    let Some(script) = text.get(start..end) else {
        return Vec::new();
    };
    let bytes = script.as_bytes();
    let mut problems = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
            }
            b'"' | b'`' | b'\'' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                // A name (digits inside it are not numbers), or a 0x/0b/0o literal's tail.
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
            }
            b if b.is_ascii_digit() => {
                let from = i;
                while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'_') {
                    i += 1;
                }
                if i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                    // 0x1F and the like: not a decimal literal.
                    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')
                    {
                        i += 1;
                    }
                    continue;
                }
                if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                    if let Some(problem) = decimal_at(site, start + i + 1) {
                        problems.push(problem);
                    }
                    i += 1;
                    while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'_') {
                        i += 1;
                    }
                    continue;
                }
                let digits: String = script[from..i]
                    .chars()
                    .filter(char::is_ascii_digit)
                    .collect();
                if digits.parse::<i64>().is_err() {
                    problems.push(DslDiagnostic::Syntax {
                        message: format!("`{}` {TOO_LARGE}", &script[from..i]),
                        src: site.named_source(),
                        span: site.span_at(start + from, i - from),
                        help: Some(
                            "rules numbers are whole numbers that fit in 64 bits".to_owned(),
                        ),
                    });
                }
            }
            _ => i += 1,
        }
    }
    problems
}

/// A decimal number whose `.` sits just before `offset`, as a diagnostic.
fn decimal_at(site: &Site, offset: usize) -> Option<DslDiagnostic> {
    let text = &site.source.file_text;
    let before = text.get(site.source.start..offset)?;
    let integer_part = before.strip_suffix('.')?;
    let digits_before: usize = integer_part
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit() || *c == '_')
        .map(char::len_utf8)
        .sum();
    if digits_before == 0 {
        return None;
    }
    let start = offset - 1 - digits_before;
    let after = text.get(offset..site.source.end)?;
    let digits_after: usize = after
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '_')
        .map(char::len_utf8)
        .sum();
    let end = offset + digits_after;
    let written = text.get(start..end)?.to_owned();
    let whole: String = integer_part[integer_part.len() - digits_before..]
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let fraction_is_zero = after[..digits_after].chars().all(|c| c == '0' || c == '_');
    let help = match whole.parse::<i64>() {
        Ok(n) if fraction_is_zero => format!("rules are integer: write {n}"),
        Ok(n) => format!("rules are integer: write {n} or {}", n.saturating_add(1)),
        Err(_) => "rules are integer: write a whole number".to_owned(),
    };
    Some(DslDiagnostic::DecimalNumber {
        text: written,
        src: site.named_source(),
        span: site.span_at(start, end - start),
        help: Some(help),
    })
}

fn describe(value: &Value) -> String {
    match value {
        Value::Unit => "nothing".to_owned(),
        Value::Int(n) => format!("the number {n}"),
        Value::Str(s) => format!("the string {s:?}"),
        other => format!("{other:?}"),
    }
}

/// What a script threw, in words: a value the game knows by its kind, anything else (a map,
/// a function pointer) as the script would print it.
fn describe_thrown(value: &rhai::Dynamic) -> String {
    match from_dynamic(value) {
        Value::Unit if !value.is_unit() => {
            let kind = if value.is_map() {
                "the map"
            } else {
                "the value"
            };
            format!("{kind} {value}")
        }
        known => describe(&known),
    }
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The functions the engine registered besides the vocabulary, by name and arity.
fn library_of(engine: &Engine) -> Library {
    let mut library = Library::default();
    let Ok(json) = engine.gen_fn_metadata_to_json(true) else {
        return library;
    };
    let Ok(metadata) = serde_json::from_str::<serde_json::Value>(&json) else {
        return library;
    };
    let functions = metadata
        .get("functions")
        .and_then(serde_json::Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for function in functions {
        let name = function.get("name").and_then(serde_json::Value::as_str);
        let arity = function
            .get("numParams")
            .and_then(serde_json::Value::as_u64);
        if let (Some(name), Some(arity)) = (name, arity) {
            if entries(name).next().is_none() && !name.contains('$') {
                library
                    .arities
                    .entry(name.to_owned())
                    .or_insert_with(BTreeSet::new)
                    .insert(arity as usize);
            }
        }
    }
    library
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::type_name;

    #[test]
    fn library_has_list_functions_but_no_vocabulary() {
        let host = Host::new();
        assert!(host.library.arities.contains_key("len"));
        assert!(host.library.arities.contains_key("filter"));
        assert!(!host.library.arities.contains_key("deal_damage"));
        assert!(!host.library.arities.contains_key("sleep"));
    }

    #[test]
    fn registered_functions_match_the_vocabulary() {
        let host = Host::new();
        let json = host.engine.gen_fn_metadata_to_json(false).unwrap();
        let metadata: serde_json::Value = serde_json::from_str(&json).unwrap();
        let registered: BTreeSet<(String, usize)> = metadata["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["name"].as_str().unwrap().to_owned(),
                    f["numParams"].as_u64().unwrap() as usize,
                )
            })
            .filter(|(name, _)| name.chars().next().is_some_and(char::is_alphabetic))
            .filter(|(name, _)| !name.contains('$') && name != "to_string" && name != "to_debug")
            .filter(|(name, _)| !crate::functions::LIST_FUNCTIONS.contains(&name.as_str()))
            .collect();
        let documented: BTreeSet<(String, usize)> = crate::vocabulary()
            .iter()
            .map(|doc| (doc.name.to_owned(), doc.params.len()))
            .collect();
        assert_eq!(registered, documented);
    }

    /// Each documented parameter type (`docs/dsl.md`, from `vocabulary.rs`) admits the
    /// Rust type every registered overload of that name and arity takes there: a card
    /// author reads the same signature the engine checks arguments against.
    #[test]
    fn documented_parameter_types_match_the_registered_ones() {
        use std::any::TypeId;
        let host = Host::new();
        let word_of = |t: TypeId| -> &'static str {
            let words: [(TypeId, &'static str); 13] = [
                (TypeId::of::<gloam_core::PieceId>(), "fighter"),
                (TypeId::of::<gloam_core::Hex>(), "hex"),
                (TypeId::of::<gloam_core::PlayerId>(), "player"),
                (TypeId::of::<gloam_core::CardId>(), "card"),
                (TypeId::of::<gloam_core::Point>(), "point"),
                (TypeId::of::<gloam_core::GroupId>(), "unit"),
                (TypeId::of::<crate::table::Edge>(), "table edge"),
                (TypeId::of::<rhai::INT>(), "int"),
                (TypeId::of::<bool>(), "bool"),
                (TypeId::of::<rhai::ImmutableString>(), "string"),
                (TypeId::of::<rhai::Array>(), "list"),
                (TypeId::of::<rhai::Map>(), "map"),
                (TypeId::of::<Dynamic>(), "any value"),
            ];
            words
                .iter()
                .find(|(id, _)| *id == t)
                .map_or("an unknown type", |(_, word)| word)
        };
        // The types a documented type names: `fighter or hex` names two, `list of cards` a
        // list, `map (move limits)` a map.
        let admits = |doc: &str, word: &str| -> bool {
            if doc.starts_with("list") || doc.starts_with("map") {
                return doc.starts_with(word) || word == "any value";
            }
            let alternatives: Vec<&str> = doc
                .split(" or ")
                .flat_map(|part| part.split(", "))
                .map(|part| part.split(" (").next().unwrap_or(part).trim())
                .collect();
            if word == "any value" {
                return alternatives.len() > 1;
            }
            alternatives.contains(&word)
        };
        // Parameters that take any value to word their own error for a wrong one.
        const WORDED: &[(&str, &str)] = &[("roll_for", "player")];
        let mut wrong = Vec::new();
        for doc in crate::vocabulary() {
            let Some(overloads) = host.natives.overloads(doc.name, doc.params.len()) else {
                continue;
            };
            for &index in overloads {
                let native = &host.natives.list[index];
                for (param, t) in doc.params.iter().zip(&native.params) {
                    let word = word_of(*t);
                    let worded = word == "any value" && WORDED.contains(&(doc.name, param.name));
                    if !worded && !admits(param.ty, word) {
                        wrong.push(format!(
                            "{}: `{}` is documented as {}, registered as {word}",
                            doc.name, param.name, param.ty
                        ));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    fn small_world() -> World {
        let battlefield =
            gloam_core::Battlefield::from_hexes([(gloam_core::Hex::ORIGIN, Vec::<String>::new())]);
        World::new(battlefield, ["blocked"], false, gloam_core::Dice::new())
    }

    #[test]
    fn list_functions_take_every_closure_shape() {
        let host = Host::new();
        let source = ScriptSource::whole(
            "c",
            "let a = [1, 2, 3];
             a.filter(|x| x > 1) == [2, 3] && a.filter(|x, i| i == 0) == [1]
                 && a.filter(|| this > 2) == [3] && a.map(|x| x * 2) == [2, 4, 6]
                 && a.some(|x| x == 3) && !a.some(|x| x > 3) && a.all(|x| x > 0)
                 && [].all(|x| false) && [].filter(|x| true) == []",
        );
        let script = host
            .compile(&source, &ScriptContext::condition("c"))
            .unwrap();
        let state = GameState::new(1, &["Ann"]);
        let holds = host.evaluate_bool(&script, &small_world(), &state, &Bindings::new());
        assert_eq!(holds, Ok(true));
    }

    #[test]
    fn the_run_after_an_answer_keeps_list_results_but_not_their_side_effects() {
        use gloam_core::{Choice, PlayerId};
        let host = Host::new();
        let source = ScriptSource::whole(
            "s",
            "let calls = 0;
             let counted = [1, 2, 3].filter(|x| { calls += 1; x > 1 });
             let kept = [1, 2, 3, 4].filter(|x| x > 2);
             let pick = choose_option([\"a\", \"b\"], \"?\");
             set_counter(\"calls\", calls);
             set_counter(\"kept\", kept.len() + counted.len());",
        );
        let script = host.compile(&source, &ScriptContext::effect("s")).unwrap();
        let world = small_world();
        let mut state = GameState::new(1, &["Ann"]);
        let bindings = Bindings::new().acting(PlayerId(0));
        let mut events = Vec::new();
        let first = host.run(&script, &world, &mut state, &mut events, &bindings, &[]);
        assert!(matches!(first, Ok(Outcome::NeedsChoice(_))));
        let answers = [Answer::One(Choice::Option("b".into()))];
        let second = host.run(
            &script,
            &world,
            &mut state,
            &mut events,
            &bindings,
            &answers,
        );
        assert!(matches!(second, Ok(Outcome::Done { .. })), "{second:?}");
        let counter = |name: &str| state.counter(name);
        // The closure that changes a captured variable ran again; the other was kept.
        assert_eq!(counter("calls"), 3);
        assert_eq!(counter("kept"), 4);
    }

    #[test]
    fn a_dropped_guard_puts_the_callers_state_back() {
        let host = Host::new();
        let script = host
            .compile(&ScriptSource::whole("s", "1"), &ScriptContext::effect("s"))
            .unwrap();
        let mut state = GameState::new(3, &["Ann"]);
        let original = state.clone();
        let base = std::mem::replace(&mut state, GameState::new(0, &[]));
        let run = host.run_state(&script, &small_world(), base, &Bindings::new(), &[]);
        assert!(install(run).is_ok());
        // As if a registered function had panicked: the guard is dropped, not finished.
        drop(RestoreGuard::new(Some(&mut state)));
        assert_eq!(state, original);
        assert!(crate::runtime::take().is_none());
    }

    #[test]
    fn scripts_do_not_run_inside_scripts() {
        let host = Host::new();
        let script = host
            .compile(
                &ScriptSource::whole("s", "set_counter(\"x\", 1)"),
                &ScriptContext::effect("s"),
            )
            .unwrap();
        let world = small_world();
        let outer = host.run_state(
            &script,
            &world,
            GameState::new(1, &["Ann"]),
            &Bindings::new(),
            &[],
        );
        assert!(install(outer).is_ok());
        let mut state = GameState::new(3, &["Ann"]);
        let original = state.clone();
        let mut events = Vec::new();
        let error = host
            .run(
                &script,
                &world,
                &mut state,
                &mut events,
                &Bindings::new(),
                &[],
            )
            .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("while another script is running"),
            "{error}"
        );
        assert_eq!(state, original);
        assert!(events.is_empty());
        assert!(crate::runtime::take().is_some());
    }

    /// Scripts that exercise every scope: the variable checker must agree with Rhai's strict
    /// mode on each (nothing where Rhai finds nothing, first what Rhai finds where it finds one), and
    /// the lenient engine must parse exactly as the strict one.
    const SCOPES: &[&str] = &[
        "deal_damage(target, 1);",
        "let x = 1; { let x = x + 1; x; } let y = x; y",
        "let x = 1; let x = x + 1; x",
        "if true { let inner = 1; inner } else { 0 }",
        "if true { let inner = 1; } inner",
        "for (f, i) in fighters() { deal_damage(f, i); }",
        "for f in fighters() { } f",
        "try { throw 1; } catch (err) { err + 1; } err",
        "try { throw 1; } catch { 0 }",
        "let n = 0; while n < 3 { n += 1; } do { n -= 1; } while n > 0; loop { break n; }",
        "const MAX = 3; switch MAX { 3 => MAX, 2 if MAX > 1 => 0, _ => nobody }",
        "let n = 2; fighters().filter(|f| distance(f, target) <= n).len()",
        "let n = 2; fighters().filter(|f| fighters().filter(|g| distance(f, g) <= n).len() > 1)",
        "fighters().filter(|f| distance(f, nobdy) <= 1 && nobdy != f)",
        "fighters().filter(|f| fighters().filter(|g| g == h).len() > 0)",
        "let add = |a, b| a + b; add.call(1, 2)",
        "let k = 1; let f = || { let j = k; j + 1 }; f.call()",
        "let f = |x| { let y = x; y }; x",
        "let f = || late; let late = 1;",
        "let c = curry(|a, b| a + b, 1); c.call(2)",
        "fn near(f) { fighters().filter(|g| distance(f, g) <= 1) } near(target)",
        "fn hit(f, n) { deal_damage(f, n); this; target } hit(target, 1)",
        "fn twice(n) { n * 2 } let f = twice; f.call(1)",
        "let bonus = 1; fn more(x) { x + bonus } more(1)",
        "fn a() { b() } fn b() { 1 } a()",
        "deal_damage(t, 1); let t = target;",
        "let m = #{ a: 1, b: target }; m.a + m[\"b\"].len() + `${m.a} ${nobody}`.len()",
        "hex_of(target).q + hex(1, -1).r",
        "let a = [1, 2]; a[0] = a[1]; a.len() + targt",
        "let x = 1; x ?? y",
        "fighters.len()",
        "nobody; let = 3;",
        "is_def_var(\"x\") && type_of(target) == \"fighter\"",
    ];

    #[test]
    fn the_variable_checker_agrees_with_strict_mode() {
        let host = Host::new();
        let context =
            ScriptContext::effect("t").with_variables(["this_fighter", "player", "target"]);
        let mut scope = Scope::new();
        for name in &context.variables {
            scope.push_dynamic(name.as_str(), Dynamic::UNIT);
        }
        let brief = |problems: &[DslDiagnostic]| -> Vec<(&'static str, std::ops::Range<usize>)> {
            problems.iter().map(|p| (p.code_name(), p.span())).collect()
        };
        for text in SCOPES {
            let site = Site::new(&ScriptSource::whole("t", *text));
            let strict = host.engine.compile_with_scope(&scope, text);
            let lenient = match host.lenient.compile_with_scope(&scope, text) {
                Ok(ast) => ast,
                Err(error) => {
                    assert!(
                        strict.is_err(),
                        "`{text}`: only the lenient engine refuses it: {error}"
                    );
                    continue;
                }
            };
            let found = crate::variables::check_variables(&lenient, &site, &context);
            let calls =
                |ast: &AST| brief(&check_calls(ast, &site, &host.library, false, &context.names).0);
            match strict {
                Ok(ast) => {
                    assert!(found.is_empty(), "`{text}`: {found:?}");
                    assert_eq!(calls(&ast), calls(&lenient), "`{text}`");
                }
                Err(error) => {
                    let ParseErrorType::VariableUndefined(name) = &*error.0 else {
                        panic!("`{text}`: {error}");
                    };
                    let first = site.word_span(error.1.line(), error.1.position());
                    let first = first.offset()..first.offset() + first.len();
                    assert!(
                        found
                            .first()
                            .is_some_and(|p| p.span() == first && text[first.clone()] == **name),
                        "`{text}`: Rhai finds `{name}` at {first:?}, the checker {:?}",
                        brief(&found)
                    );
                }
            }
        }
    }

    #[test]
    fn type_names_read_as_the_docs() {
        assert_eq!(type_name(&Dynamic::from(gloam_core::PieceId(1))), "fighter");
        assert_eq!(type_name(&Dynamic::from_int(1)), "int");
    }
}
