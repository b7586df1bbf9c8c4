//! The evaluator of the typed form: locals in a frame of slots, calls through the native
//! table, list closures as loops, the sandbox's limits counted here.
//!
//! It gives the results and errors Rhai gives (the same `EvalAltResult`s at the same
//! positions), so the host turns both into the same diagnostics. What it meets at run time
//! and does not cover (iterating a value that is neither a list nor a range, indexing a
//! string) is a [`Flow::Bail`]: the host then runs the script again on Rhai from the start,
//! with nothing of the compiled run kept.

use std::rc::Rc;

use rhai::{Dynamic, Engine, EvalAltResult, GlobalRuntimeState, NativeCallContext, Position};

use super::ir::{
    Arm, Builtin, Call, Chain, Expr, ForLoop, Function, Inline, Link, ListKind, ListLoop, OpAssign,
    Place, Program, Property, Root, Stmt, Switch,
};
use super::natives::Natives;
use super::value::{Entries, Val};
use crate::Limits;
use smallvec::SmallVec;

/// How evaluation left a statement other than by finishing it.
pub(crate) enum Flow {
    /// An error, as Rhai reports it.
    Error(Box<EvalAltResult>),
    /// `break` (true) or `continue` (false), with `break`'s value.
    Break(bool, Val),
    /// `return`.
    Return(Val),
    /// Something the evaluator does not cover yet: run the script on Rhai instead.
    Bail(String),
    /// A vocabulary call stopped the run at a choice with no answer yet: the marks of the
    /// constructs between it and the top, innermost first, each pushed as the evaluator
    /// leaves it. A construct that cannot be resumed turns this into an error
    /// ([`abandon`]); the run's stop still says a choice is needed.
    Suspend(Vec<Mark>),
}

/// Where a suspended run was, in one construct on the way from the top to the choice. A
/// resumed run takes them from the end (outermost first) as it goes down the same way, and
/// each construct starts where its mark says, counting no operation twice.
pub(crate) enum Mark {
    /// The statement of a block that was running.
    Block(usize),
    /// `if`: `None` while its condition ran, else the branch.
    If(Option<bool>),
    /// `while`, `loop`, `do`: whether the body (rather than the condition) was running.
    Loop(bool),
    /// `for`: the items after the one whose turn was running, and that turn's index.
    For(ForItems, usize),
    /// A call: its arguments so far, the next one running; all of them when the function
    /// itself (a vocabulary function, called again with them) stopped. `None`: the
    /// script's own function was running.
    Call(Option<Args>),
    /// The frame of the script's own function that was running.
    Function(Vec<Val>, Vec<bool>),
    /// `&&` or `||`: the item that was running.
    Item(usize),
    /// `switch`: `None` while its value ran, else the arm.
    Switch(Option<usize>),
    /// `try`: whether the catch (rather than the body) was running.
    Try(bool),
}

/// What a `for` loop iterates over, kept as data so a suspended loop resumes.
pub(crate) enum ForItems {
    List(std::vec::IntoIter<Val>),
    Range(std::ops::Range<i64>),
    Inclusive(std::ops::RangeInclusive<i64>),
}

impl Iterator for ForItems {
    type Item = Val;

    fn next(&mut self) -> Option<Val> {
        match self {
            ForItems::List(items) => items.next(),
            ForItems::Range(range) => range.next().map(Val::Int),
            ForItems::Inclusive(range) => range.next().map(Val::Int),
        }
    }
}

/// A run stopped at a choice, kept as data: the way down to the call that asked, the
/// frame of slots, the operations counted so far. [`resume`] carries it on once the
/// choice is answered, from the call that asked, as if it had never stopped.
pub(crate) struct Suspension {
    marks: Vec<Mark>,
    slots: Vec<Val>,
    shared: Vec<bool>,
    operations: u64,
    lines: Option<Box<Lines>>,
    global: GlobalRuntimeState,
}

/// The operations a run counted on each line of its script, while a profile is taken
/// (`crate::profile`): an operation counts on the line of its position, one without a
/// position (a map's entry, a part of a chain) on the line counted last.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lines {
    /// By script line, from 1 (index 0: operations before any line).
    pub(crate) counts: Vec<u64>,
    line: usize,
}

impl Lines {
    fn add(&mut self, pos: Position, operations: u64) {
        if let Some(line) = pos.line() {
            self.line = line;
        }
        if self.counts.len() <= self.line {
            self.counts.resize(self.line + 1, 0);
        }
        self.counts[self.line] = self.counts[self.line].saturating_add(operations);
    }
}

/// Turns a suspension met by a construct that cannot be resumed into the error the stop
/// gave: the run ends asking as before, and the next run starts from the top.
fn abandon(flow: Flow) -> Flow {
    match flow {
        Flow::Suspend(_) => error(EvalAltResult::ErrorTerminated(
            Dynamic::UNIT,
            Position::NONE,
        )),
        other => other,
    }
}

/// Adds `mark` to a suspension leaving a construct.
fn marked(flow: Flow, mark: impl FnOnce() -> Mark) -> Flow {
    match flow {
        Flow::Suspend(mut marks) => {
            marks.push(mark());
            Flow::Suspend(marks)
        }
        other => other,
    }
}

impl From<Box<EvalAltResult>> for Flow {
    fn from(error: Box<EvalAltResult>) -> Flow {
        Flow::Error(error)
    }
}

type Eval<T> = Result<T, Flow>;

/// A call's arguments, by reference, as Rhai's functions take them.
type Refs<'a> = SmallVec<[&'a mut Dynamic; 6]>;

/// A call's arguments as Rhai holds them.
type Dynamics = SmallVec<[Dynamic; 4]>;

/// A call's argument values.
type Args = SmallVec<[Val; 4]>;

/// A call's arguments read in place.
type View<'a> = SmallVec<[&'a Val; 6]>;

// Short lists of arguments are built one push at a time: `SmallVec`'s `collect` and
// `extend` reserve first, and cost several pushes on lists this short.

/// The arguments, borrowed.
fn view_of(args: &[Val]) -> View<'_> {
    let mut view = View::new();
    for arg in args {
        view.push(arg);
    }
    view
}

/// Calls `call` with the arguments as Rhai holds them (the receiver first, if any), and
/// takes the receiver back after it when `write_back` (the function may have changed it).
fn as_dynamics<R>(
    receiver: Option<&mut Val>,
    args: &[Val],
    write_back: bool,
    call: impl FnOnce(&mut [&mut Dynamic]) -> R,
) -> R {
    let mut first = receiver.as_ref().map(|value| value.to_dynamic());
    let mut rest: Dynamics = args.iter().map(Val::to_dynamic).collect();
    let mut refs = Refs::new();
    if let Some(first) = &mut first {
        refs.push(first);
    }
    for arg in &mut rest {
        refs.push(arg);
    }
    let result = call(&mut refs);
    drop(refs);
    if let (Some(target), Some(first), true) = (receiver, first, write_back) {
        *target = Val::from_dynamic(first);
    }
    result
}

/// Drops `value`, calling `Val`'s drop only for a value that holds something.
#[inline]
fn discard(value: Val) {
    if value.holds_nothing() {
        std::mem::forget(value);
    } else {
        drop(value);
    }
}

/// Empties a frame that is done with: its values that hold nothing are let go without a
/// call of `Val`'s drop each.
fn let_go(frame: &mut Vec<Val>) {
    for value in frame.drain(..) {
        discard(value);
    }
}

/// Copies of the arguments.
fn copies_of<'a>(args: impl Iterator<Item = &'a Val>) -> Args {
    let mut copies = Args::new();
    for arg in args {
        copies.push(arg.clone());
    }
    copies
}

/// How a compiled run ended.
pub(crate) enum Finish {
    /// The script's value, or its error, the operations the run counted, and by line
    /// while a profile is taken.
    Done(Result<Dynamic, Box<EvalAltResult>>, u64, Option<Box<Lines>>),
    /// The evaluator met something it does not cover: run the script on Rhai.
    Bail(String),
    /// The script stopped at a choice, resumable: the run's stop says which.
    Suspended(Box<Suspension>),
}

/// Runs `program` with its first slots bound to `variables`.
pub(crate) fn run(
    program: &Program,
    engine: &Engine,
    natives: &Natives,
    limits: &Limits,
    variables: impl ExactSizeIterator<Item = Val>,
) -> Finish {
    // The slots made once, at their full size: the variables, then `()` for the rest.
    let size = program.slots.max(variables.len());
    let mut slots = Vec::with_capacity(size);
    slots.extend(variables);
    slots.resize_with(size, Val::default);
    let suspension = Suspension {
        marks: Vec::new(),
        shared: vec![false; slots.len()],
        slots,
        operations: 0,
        lines: crate::profile::active().then(Box::default),
        global: engine.new_global_runtime_state(),
    };
    resume(program, engine, natives, limits, suspension)
}

/// Carries on a run that stopped at a choice ([`Finish::Suspended`]), or starts one.
pub(crate) fn resume(
    program: &Program,
    engine: &Engine,
    natives: &Natives,
    limits: &Limits,
    suspension: Suspension,
) -> Finish {
    // A run that counts by line (a profile) is run by the evaluator built to count them;
    // every other run, by the one built without, which pays nothing for it.
    if suspension.lines.is_some() {
        resume_with::<true>(program, engine, natives, limits, suspension)
    } else {
        resume_with::<false>(program, engine, natives, limits, suspension)
    }
}

fn resume_with<const LINES: bool>(
    program: &Program,
    engine: &Engine,
    natives: &Natives,
    limits: &Limits,
    suspension: Suspension,
) -> Finish {
    let Suspension {
        marks,
        slots,
        shared,
        operations,
        lines,
        global,
    } = suspension;
    let machine = Machine::<LINES> {
        functions: &program.functions,
        env: Env {
            engine,
            global,
            natives,
            max_operations: limits.operations.max(1),
            max_variables: limits.variables.max(1),
            max_depth: limits.call_depth.max(1),
            depth: 0,
            operations,
            lines,
        },
        shared,
        slots,
        resume: marks,
    };
    machine.finish(program)
}

impl<const LINES: bool> Machine<'_, LINES> {
    /// Runs the program's body to its end or to a stop.
    fn finish(mut self, program: &Program) -> Finish {
        let finish = self.block(&program.body);
        let operations = self.env.operations;
        if !matches!(finish, Err(Flow::Suspend(_))) {
            let_go(&mut self.slots);
        }
        match finish {
            Ok(value) | Err(Flow::Return(value)) | Err(Flow::Break(_, value)) => {
                Finish::Done(Ok(value.into_dynamic()), operations, self.env.lines)
            }
            Err(Flow::Error(error)) => Finish::Done(Err(error), operations, self.env.lines),
            Err(Flow::Bail(why)) => Finish::Bail(why),
            Err(Flow::Suspend(marks)) => Finish::Suspended(Box::new(Suspension {
                marks,
                slots: self.slots,
                shared: self.shared,
                operations,
                lines: self.env.lines,
                global: self.env.global,
            })),
        }
    }
}

/// Everything but the frame, so a chain can hold a slot mutably while calling functions.
/// `LINES`: the run counts its operations by line too (`lines` is set).
struct Env<'a, const LINES: bool> {
    engine: &'a Engine,
    global: GlobalRuntimeState,
    natives: &'a Natives,
    max_operations: u64,
    max_variables: usize,
    /// Rhai's call levels: a call of the script's own function is one deeper.
    max_depth: usize,
    depth: usize,
    operations: u64,
    /// By line, while a profile is taken.
    lines: Option<Box<Lines>>,
}

struct Machine<'a, const LINES: bool> {
    functions: &'a [Function],
    env: Env<'a, LINES>,
    slots: Vec<Val>,
    /// Which slots hold a variable a closure has captured (Rhai has made it shared).
    shared: Vec<bool>,
    /// The marks of a suspended run still to take on the way down to the call that asked
    /// (outermost last); empty when the run is not resuming.
    resume: Vec<Mark>,
}

fn error(error: EvalAltResult) -> Flow {
    Flow::Error(Box::new(error))
}

/// Sets an error's position where it has none, as Rhai does for a native function's error.
fn fill(mut error: Box<EvalAltResult>, pos: Position) -> Box<EvalAltResult> {
    if error.position().is_none() {
        error.set_position(pos);
    }
    error
}

fn mismatch(engine: &Engine, expected: &str, actual: &str, pos: Position) -> Flow {
    error(EvalAltResult::ErrorMismatchDataType(
        engine.map_type_name(expected).into(),
        actual.into(),
        pos,
    ))
}

/// Rhai's index into a list of `len`: negative counts from the end.
fn calc_index(len: usize, index: i64) -> Option<usize> {
    if index < 0 {
        let back = usize::try_from(index.unsigned_abs()).ok()?;
        len.checked_sub(back)
    } else {
        usize::try_from(index).ok().filter(|i| *i < len)
    }
}

fn too_large(what: &str, pos: Position) -> Flow {
    error(EvalAltResult::ErrorDataTooLarge(what.to_owned(), pos))
}

impl<const LINES: bool> Env<'_, LINES> {
    /// Counts `operations` on the line of `pos` when the run counts by line (nothing is
    /// compiled for it in the evaluator built without).
    #[inline]
    fn count_line(&mut self, pos: Position, operations: u64) {
        if LINES {
            if let Some(lines) = &mut self.lines {
                lines.add(pos, operations);
            }
        }
    }

    #[inline]
    fn track(&mut self, pos: Position) -> Eval<()> {
        self.operations += 1;
        self.count_line(pos, 1);
        if self.operations > self.max_operations {
            return Err(error(EvalAltResult::ErrorTooManyOperations(pos)));
        }
        Ok(())
    }

    /// A plain call answered with its arguments where they are (`Machine::call_plain`): an
    /// operator the evaluator does itself, or a native's borrowing form; `None` when
    /// neither takes them, and the call is to be made with copies.
    fn answer_plain(&mut self, call: &Call, refs: &[&Val]) -> Eval<Option<Val>> {
        if call.operator {
            return self.answer_operator(call, refs);
        } else {
            let natives = self.natives;
            let chosen = call
                .natives
                .iter()
                .map(|&index| &natives.list[index])
                .find(|native| native.accepts(refs));
            if let Some(native) = chosen {
                if let (Some(borrowed), false) = (&native.borrowed, native.asks) {
                    return self.call_borrowed(call, borrowed, refs).map(Some);
                }
            }
        }
        Ok(None)
    }

    /// `call` made with its native's borrowing form on arguments read where they are: the
    /// call counted, then made at its position, its result's size checked. (Inlined: as
    /// a call of its own it cost a Harrowdeep game about 0.5 M instructions.)
    #[inline(always)]
    fn call_borrowed(
        &mut self,
        call: &Call,
        borrowed: &super::natives::Borrowed,
        refs: &[&Val],
    ) -> Eval<Val> {
        let pos = call.pos;
        self.track(pos)?;
        let context = NativeCallContext::from((self.engine, &*call.name, None, &self.global, pos));
        let result = borrowed(context, refs).map_err(|e| Flow::Error(fill(e, pos)))?;
        self.check_size(&result, pos)?;
        Ok(result)
    }

    /// An operator the evaluator answers itself, counted as Rhai counts it: one on Rhai's
    /// own values (`fast_operator`), `==`/`!=` of two game ids of one type (counted as the
    /// registered operator's call), a comparison of two types (`cross_type_comparison`);
    /// `None` for any other.
    fn answer_operator(&mut self, call: &Call, args: &[&Val]) -> Eval<Option<Val>> {
        let game_value = args.iter().any(|arg| arg.is_variant());
        if !game_value {
            if let Some(value) = Self::fast_operator(call.builtin, args) {
                return Ok(Some(value));
            }
        } else if let Some(equal) = Self::id_equality(call.builtin, args) {
            self.track(call.pos)?;
            return Ok(Some(Val::Bool(equal)));
        }
        if let Some(holds) = Self::cross_type_comparison(call.builtin, args) {
            if game_value {
                // With a game value, Rhai looks for a registered function first: the call
                // is counted, then answered by the built-in.
                self.track(call.pos)?;
            }
            return Ok(Some(Val::Bool(holds)));
        }
        Ok(None)
    }

    /// What reading a plain part of a local counts after the chain itself
    /// (`Machine::call_plain`): its links' nodes and index keys (`Machine::ready`), its
    /// variable, then each part it reads.
    fn track_part(&mut self, chain: &Chain) -> Eval<()> {
        for (link, node) in chain.links.iter().zip(&chain.nodes) {
            if let Some(pos) = node {
                self.track(*pos)?;
                if let Link::Index(key, _) = link {
                    self.track(key.position())?;
                }
            }
        }
        if let Root::Local(_, pos) = chain.root {
            self.track(pos)?;
        }
        for _ in &chain.links {
            self.track(Position::NONE)?;
        }
        Ok(())
    }

    /// The limits on sizes, checked on a value as Rhai checks a function's result.
    #[inline(always)]
    fn check_size(&self, value: &Val, pos: Position) -> Eval<()> {
        if matches!(
            value,
            Val::List(_) | Val::Map(_) | Val::Str(_) | Val::Other(_)
        ) {
            self.check_totals(value.sizes(), pos)?;
        }
        Ok(())
    }

    /// Rhai's limits on sizes (`Engine::throw_on_size`), its errors at `pos`.
    fn check_totals(&self, (lists, maps, text): (usize, usize, usize), pos: Position) -> Eval<()> {
        let engine = self.engine;
        if engine.max_string_size() > 0 && text > engine.max_string_size() {
            return Err(too_large("Length of string", pos));
        }
        if engine.max_array_size() > 0 && lists > engine.max_array_size() {
            return Err(too_large("Size of array/BLOB", pos));
        }
        if engine.max_map_size() > 0 && maps > engine.max_map_size() {
            return Err(too_large("Size of object map", pos));
        }
        Ok(())
    }

    /// A call resolved at run time by Rhai (the standard library, operators on values the
    /// fast paths do not cover): the same resolution, results and errors as the interpreter.
    fn call_rhai(
        &mut self,
        name: &str,
        is_ref_mut: bool,
        args: &mut [&mut Dynamic],
        pos: Position,
    ) -> Eval<Dynamic> {
        self.track(pos)?;
        self.call_rhai_counted(name, is_ref_mut, args, pos)
    }

    /// [`Env::call_rhai`] on the evaluator's values: they are handed to Rhai as Rhai holds
    /// them, and the receiver (the first argument of a call by reference) is taken back,
    /// as the function may have changed it. `counted`: the call was counted already.
    fn call_rhai_with(
        &mut self,
        name: &str,
        receiver: Option<&mut Val>,
        args: &[Val],
        pos: Position,
        counted: bool,
    ) -> Eval<Val> {
        let is_ref_mut = receiver.is_some();
        as_dynamics(receiver, args, true, |refs| {
            if counted {
                self.call_rhai_counted(name, is_ref_mut, refs, pos)
            } else {
                self.call_rhai(name, is_ref_mut, refs, pos)
            }
        })
        .map(Val::from_dynamic)
    }

    /// An operator on Rhai's own types that the evaluator does not do itself (a string's
    /// `+`, a string's `<`, an integer's overflow): Rhai's interpreter does it with a
    /// built-in, which it does not count as a call. Rhai's error for an integer's overflow
    /// or division by zero; else Rhai's built-in, its call not counted.
    fn builtin_operator(&mut self, call: &Call, args: &[Val]) -> Eval<Val> {
        if let ([Val::Str(left), Val::Str(right)], Builtin::Plus) = (args, call.builtin) {
            // Rhai's built-in joins two strings after checking the joined length; its call
            // is not counted.
            self.check_totals((0, 0, left.len() + right.len()), call.pos)?;
            return Ok(Val::Str(left + right));
        }
        let view = view_of(args);
        if let Some(message) = Self::int_failure(call.builtin, &view) {
            return Err(error(EvalAltResult::ErrorArithmetic(message, call.pos)));
        }
        let counted = builtin_exists(&call.name, &view);
        drop(view);
        self.call_rhai_with(&call.name, None, args, call.pos, counted)
    }

    /// Calls one of Rhai's functions, its call counted by Rhai's own count of it.
    fn call_rhai_counted(
        &mut self,
        name: &str,
        is_ref_mut: bool,
        args: &mut [&mut Dynamic],
        pos: Position,
    ) -> Eval<Dynamic> {
        let engine = self.engine;
        self.through_rhai(|global| {
            let context = NativeCallContext::from((engine, name, None, global, pos));
            context.call_native_fn_raw(name, is_ref_mut, args)
        })
        .map_err(|e| Flow::Error(fill(e, pos)))
    }

    /// Calls one of Rhai's functions through a call context, its call counted already.
    /// Rhai counts the call again, on a copy of the run's count that starts one operation
    /// back, and counts what the function does (`==` for `index_of`, a closure for `sort`)
    /// on copies too: the run's budget counts all of it (`limits::budget`), as it does
    /// when the interpreter calls the function, and the run goes on from that count.
    fn through_rhai<R>(&mut self, call: impl FnOnce(&GlobalRuntimeState) -> R) -> R {
        let before = self.operations.saturating_sub(1);
        self.global.num_operations = before;
        let global = &self.global;
        let (result, used) =
            crate::limits::budget::counting(before, self.max_operations, || call(global));
        self.count_line(Position::NONE, used.saturating_sub(self.operations));
        self.operations = used.max(self.operations);
        result
    }

    /// Calls `call` with `args` (the receiver first for a method, `by_ref`): the first
    /// native overload that takes them, else Rhai's own resolution. `resumed`: the call
    /// that stopped a suspended run, made again (its operation was counted then).
    fn call_with(
        &mut self,
        call: &Call,
        receiver: Option<&mut Val>,
        args: &mut [Val],
        resumed: bool,
    ) -> Eval<Val> {
        let pos = call.pos;
        let chosen = self
            .natives
            .choose(&call.natives, receiver.as_deref(), args);
        let Some(index) = chosen else {
            let only = match (&receiver, args.len()) {
                (Some(first), 0) => Some(&**first),
                (None, 1) => args.first(),
                _ => None,
            };
            if let Some(size) = only.and_then(|value| Self::size_of(call.builtin, value)) {
                self.track(pos)?;
                return Ok(size);
            }
            if let (Some(value), Builtin::TypeOf) = (only, call.builtin) {
                // Rhai answers `type_of` itself, with the name the engine shows for the
                // value's type, before it would count a call: no operation.
                let name = self.engine.map_type_name(value.type_name());
                return Ok(Val::Str(name.into()));
            }
            let pair = match (&receiver, &*args) {
                (Some(first), [value]) => Some((&**first, value)),
                (None, [first, value]) => Some((first, value)),
                _ => None,
            };
            if let Some((found, compared)) =
                pair.and_then(|(list, value)| Self::find_in(call.builtin, list, value))
            {
                // Rhai's `contains` and `index_of` call `==` on the items up to the first
                // equal one, each call counted where the function was called
                // (`limits::budget`).
                self.track(pos)?;
                for _ in 0..compared {
                    self.track(pos)?;
                }
                let index = |index: usize| i64::try_from(index).unwrap_or(i64::MAX);
                return Ok(match call.builtin {
                    Builtin::IndexOf => Val::Int(found.map_or(-1, index)),
                    _ => Val::Bool(found.is_some()),
                });
            }
            // `list.push(item)` on a list in a variable, as Rhai's call of the standard
            // library's `push` does it: the item moved in, then the list's size checked.
            return match receiver {
                Some(list)
                    if matches!(list, Val::List(_))
                        && call.builtin == Builtin::Push
                        && args.len() == 1 =>
                {
                    self.track(pos)?;
                    if let Val::List(items) = list {
                        Rc::make_mut(items).push(std::mem::take(&mut args[0]));
                    }
                    self.check_size(list, pos).map(|()| Val::Unit)
                }
                receiver => self.call_rhai_with(&call.name, receiver, args, pos, false),
            };
        };
        self.call_native(call, index, receiver, args, resumed)
    }

    /// Calls the native `index` of `call`'s overloads, chosen for these arguments.
    fn call_native(
        &mut self,
        call: &Call,
        index: usize,
        receiver: Option<&mut Val>,
        args: &mut [Val],
        resumed: bool,
    ) -> Eval<Val> {
        let pos = call.pos;
        if !resumed {
            self.track(pos)?;
        }
        let native = &self.natives.list[index];
        // A function that may ask keeps its arguments: if it stops at a choice, the run is
        // suspended and the call made again with them once the choice is answered.
        let kept: Option<Args> =
            (native.asks && receiver.is_none()).then(|| copies_of(args.iter()));
        let context = NativeCallContext::from((self.engine, &*call.name, None, &self.global, pos));
        let result = if let Some(borrowed) = &native.borrowed {
            // Its arguments read where they are; a receiver is read, not changed.
            let mut view = View::new();
            if let Some(first) = &receiver {
                view.push(&**first);
            }
            for arg in args.iter() {
                view.push(arg);
            }
            borrowed(context, &view)
        } else {
            let Some(func) = native.func.get_native_fn() else {
                return Err(Flow::Bail(format!(
                    "`{}` is not a native function",
                    call.name
                )));
            };
            // A method changes the value it was called on; a function that takes its first
            // argument by value must not consume the variable it was called on.
            let method = native.func.is_method();
            as_dynamics(receiver, args, method, |refs| func(Some(context), refs))
                .map(Val::from_dynamic)
        };
        let result = match result {
            Ok(result) => result,
            Err(e) => {
                if let Some(kept) = kept {
                    if crate::runtime::stopped_to_ask() {
                        return Err(Flow::Suspend(vec![Mark::Call(Some(kept))]));
                    }
                }
                return Err(Flow::Error(fill(e, pos)));
            }
        };
        self.check_size(&result, pos)?;
        Ok(result)
    }

    /// A call of an operator or a native (not the script's own function) with its
    /// arguments evaluated: an operator the evaluator does itself, else the native or
    /// Rhai's resolution.
    fn call_ready(&mut self, call: &Call, args: &mut Args) -> Eval<Val> {
        if call.operator {
            let view = view_of(args);
            if let Some(value) = self.answer_operator(call, &view)? {
                return Ok(value);
            }
            drop(view);
            if !args.iter().any(Val::is_variant) {
                return self.builtin_operator(call, args);
            }
        }
        self.call_with(call, None, args, false)
    }

    /// `len` and `is_empty` of a list or a map, as Rhai's standard library gives them;
    /// `None` for anything else. (A string's are left to Rhai's resolution: the sandbox's
    /// standard library has no `len` of a string, and the call is an error there.)
    fn size_of(builtin: Builtin, value: &Val) -> Option<Val> {
        if builtin != Builtin::Len && builtin != Builtin::IsEmpty {
            return None;
        }
        let len = match value {
            Val::List(items) => items.len(),
            Val::Map(entries) => entries.len(),
            _ => return None,
        };
        match builtin {
            Builtin::Len => Some(Val::Int(i64::try_from(len).unwrap_or(i64::MAX))),
            _ => Some(Val::Bool(len == 0)),
        }
    }

    /// `list.contains(value)` or `list.index_of(value)` where every item is of the value's
    /// type and that type's `==` is plain equality (numbers, booleans, strings, fighters,
    /// hexes, players, cards): the index of the first item equal to the value, which Rhai's
    /// `contains` and `index_of` find by calling `==` on each item up to it, and how many
    /// items they compare; `None` for anything else, which Rhai's own functions answer.
    fn find_in(builtin: Builtin, list: &Val, value: &Val) -> Option<(Option<usize>, usize)> {
        if builtin != Builtin::Contains && builtin != Builtin::IndexOf {
            return None;
        }
        let Val::List(items) = list else {
            return None;
        };
        if !matches!(
            value,
            Val::Int(_)
                | Val::Bool(_)
                | Val::Str(_)
                | Val::Piece(_)
                | Val::Hex(_)
                | Val::Player(_)
                | Val::Card(_)
        ) {
            return None;
        }
        let kind = std::mem::discriminant(value);
        let mut first = None;
        for (index, item) in items.iter().enumerate() {
            if std::mem::discriminant(item) != kind {
                return None;
            }
            if first.is_none() && item == value {
                first = Some(index);
            }
        }
        Some(first.map_or((None, items.len()), |index| (Some(index), index + 1)))
    }

    /// A comparison of values of two types: Rhai's built-in answers it (`!=` is true, `==`,
    /// `<`, `<=`, `>`, `>=` false), without counting a call, unless a game value is one of
    /// them (then Rhai counts the call as it looks for a registered function first); `None`
    /// for anything else.
    fn cross_type_comparison(builtin: Builtin, args: &[&Val]) -> Option<bool> {
        if !builtin.compares() {
            return None;
        }
        let [left, right] = args else {
            return None;
        };
        if left.type_id() == right.type_id() {
            return None;
        }
        Some(builtin == Builtin::NotEqual)
    }

    /// `a == b` or `a != b` between two game ids of one type (fighters, hexes, players,
    /// cards, points, groups), answered as their registered operators answer it; `None`
    /// for any other call.
    fn id_equality(builtin: Builtin, args: &[&Val]) -> Option<bool> {
        let negate = match builtin {
            Builtin::Equal => false,
            Builtin::NotEqual => true,
            _ => return None,
        };
        let [left, right] = args else {
            return None;
        };
        Self::ids_equal(left, right).map(|equal| equal != negate)
    }

    /// Whether two game ids of the same type are equal; `None` unless both are ids of one
    /// type.
    fn ids_equal(left: &Val, right: &Val) -> Option<bool> {
        fn same<T: PartialEq + Clone + 'static>(left: &Dynamic, right: &Dynamic) -> Option<bool> {
            let left = left.read_lock::<T>()?;
            let right = right.read_lock::<T>()?;
            Some(*left == *right)
        }
        match (left, right) {
            (Val::Piece(a), Val::Piece(b)) => Some(a == b),
            (Val::Hex(a), Val::Hex(b)) => Some(a == b),
            (Val::Player(a), Val::Player(b)) => Some(a == b),
            (Val::Card(a), Val::Card(b)) => Some(a == b),
            (Val::Other(left), Val::Other(right)) if left.is_variant() && right.is_variant() => {
                same::<gloam_core::Point>(left, right)
                    .or_else(|| same::<gloam_core::GroupId>(left, right))
            }
            _ => None,
        }
    }

    /// Rhai's error for an integer operator that fails (overflow, division by zero), with
    /// Rhai's words; `None` if the operator does not fail.
    fn int_failure(builtin: Builtin, args: &[&Val]) -> Option<String> {
        match args {
            [value] => {
                let x = value.as_int()?;
                // Rhai's interpreter negates an integer itself, with its own message.
                (builtin == Builtin::Minus && x.checked_neg().is_none())
                    .then(|| "integer overflow".to_owned())
            }
            [left, right] => {
                let (x, y) = (left.as_int()?, right.as_int()?);
                match builtin {
                    Builtin::Plus if x.checked_add(y).is_none() => {
                        Some(format!("Addition overflow: {x} + {y}"))
                    }
                    Builtin::Minus if x.checked_sub(y).is_none() => {
                        Some(format!("Subtraction overflow: {x} - {y}"))
                    }
                    Builtin::Times if x.checked_mul(y).is_none() => {
                        Some(format!("Multiplication overflow: {x} * {y}"))
                    }
                    Builtin::Divide if y == 0 => Some(format!("Division by zero: {x} / {y}")),
                    Builtin::Divide if x.checked_div(y).is_none() => {
                        Some(format!("Division overflow: {x} / {y}"))
                    }
                    Builtin::Modulo if x.checked_rem(y).is_none() => {
                        Some(format!("Modulo division by zero or overflow: {x} % {y}"))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// An operator on values Rhai's built-ins cover, done here; `None` to call it.
    fn fast_operator(builtin: Builtin, args: &[&Val]) -> Option<Val> {
        use Builtin as B;
        match args {
            [value] => match (builtin, value) {
                (B::Not, Val::Bool(b)) => Some(Val::Bool(!b)),
                (B::Minus, Val::Int(n)) => n.checked_neg().map(Val::Int),
                _ => None,
            },
            [Val::Unit, Val::Unit] => match builtin {
                B::Equal => Some(Val::Bool(true)),
                B::NotEqual => Some(Val::Bool(false)),
                _ => None,
            },
            [Val::Int(a), Val::Int(b)] => int_operator(builtin, *a, *b),
            [Val::Bool(a), Val::Bool(b)] => match builtin {
                B::Equal => Some(Val::Bool(a == b)),
                B::NotEqual => Some(Val::Bool(a != b)),
                _ => None,
            },
            [Val::Str(a), Val::Str(b)] => match builtin {
                B::Equal => Some(Val::Bool(a == b)),
                B::NotEqual => Some(Val::Bool(a != b)),
                _ => None,
            },
            _ => None,
        }
    }

    /// `target op= value`, as Rhai does it: the built-in, else the op-assignment function,
    /// else `target = target op value`.
    fn op_assign(
        &mut self,
        target: &mut Val,
        op: &OpAssign,
        value: Val,
        pos: Position,
    ) -> Eval<()> {
        if let (Val::Int(a), Val::Int(b)) = (&*target, &value) {
            let (a, b) = (*a, *b);
            let done = match op.op {
                "+" => a.checked_add(b),
                "-" => a.checked_sub(b),
                "*" => a.checked_mul(b),
                "/" => a.checked_div(b),
                "%" => a.checked_rem(b),
                _ => None,
            };
            if let Some(done) = done {
                *target = Val::Int(done);
                return Ok(());
            }
        }
        let mut left = target.to_dynamic();
        let mut right = value.into_dynamic();
        let attempt = {
            let mut refs = [&mut left, &mut right];
            self.call_rhai(op.op_assign, true, &mut refs, pos)
        };
        match attempt {
            Ok(_) => *target = Val::from_dynamic(left),
            Err(Flow::Error(e))
                if matches!(&*e, EvalAltResult::ErrorFunctionNotFound(signature, _)
                    if signature.starts_with(op.op_assign)) =>
            {
                let result = {
                    let mut refs = [&mut left, &mut right];
                    self.call_rhai(op.op, true, &mut refs, pos)?
                };
                *target = Val::from_dynamic(result);
            }
            Err(other) => return Err(other),
        }
        self.check_size(target, pos)
    }

    /// Reads property `name` of `target`: a map's entry (an error if it has none), else the
    /// property's getter.
    fn property(&mut self, target: &mut Val, property: &Property) -> Eval<Val> {
        if let Val::Map(entries) = target {
            return match entries.get(property.name.as_str()) {
                Some(value) => Ok(value.clone()),
                None => Err(error(EvalAltResult::ErrorPropertyNotFound(
                    property.name.to_string(),
                    property.pos,
                ))),
            };
        }
        if property.getter.natives.is_empty() {
            return Err(Flow::Bail(format!(
                "property `{}` of a {}",
                property.name,
                target.type_name()
            )));
        }
        self.call_with(&property.getter, Some(target), &mut [], false)
    }
}

/// A list or a map a plain argument of a call is read in, held while the call reads it
/// (`Machine::call_plain`).
enum Held<'a> {
    List(&'a [Val]),
    Map(&'a Entries),
}

impl<'a> Held<'a> {
    /// `value` held, if it is a list or a map.
    fn of(value: &'a Val) -> Option<Held<'a>> {
        match value {
            Val::List(items) => Some(Held::List(items)),
            Val::Map(entries) => Some(Held::Map(entries)),
            _ => None,
        }
    }

    /// The part `link` reads (an index's key is `key`), as the chain's evaluation reads it
    /// (`with_part`); `None` where it would not simply read it: a property of a list (a
    /// getter), an index out of range or of the wrong type, a property a map has not.
    fn part(&self, link: &Link, key: Option<&Val>) -> Option<&'a Val> {
        match (self, link) {
            (Held::List(list), Link::Index(..)) => {
                let number = key?.as_int()?;
                list.get(calc_index(list.len(), number)?)
            }
            (Held::Map(map), Link::Index(..)) => map.get(key?.as_str()?.as_str()),
            (Held::Map(map), Link::Prop(property)) => map.get(property.name.as_str()),
            _ => None,
        }
    }
}

/// A link's value computed before the chain's root, as Rhai computes them.
enum Ready {
    Prop,
    Index(Val),
    Method(Args),
}

impl<const LINES: bool> Machine<'_, LINES> {
    /// The next mark of a resumed run, if it is resuming.
    fn mark(&mut self) -> Option<Mark> {
        self.resume.pop()
    }

    /// Whether the run is on its way down to the call it stopped at.
    fn resuming(&self) -> bool {
        !self.resume.is_empty()
    }

    /// A resumed run met a construct other than the one its mark was left by: it gives up
    /// and Rhai runs the script from the top (never expected).
    fn lost() -> Flow {
        Flow::Bail("a resumed run did not find its way back".into())
    }

    fn block(&mut self, statements: &[Stmt]) -> Eval<Val> {
        let start = match self.mark() {
            None => 0,
            Some(Mark::Block(index)) => index,
            Some(_) => return Err(Self::lost()),
        };
        let mut value = Val::Unit;
        for (index, statement) in statements.iter().enumerate().skip(start) {
            let next = self
                .stmt(statement)
                .map_err(|flow| marked(flow, || Mark::Block(index)))?;
            // The value replaced is most often `()`: only a value that holds something
            // goes through `Val`'s drop.
            discard(std::mem::replace(&mut value, next));
        }
        Ok(value)
    }

    /// A loop body: `continue` goes on, `break` ends the loop with its value.
    fn body(&mut self, statements: &[Stmt]) -> Eval<Option<Val>> {
        match self.block(statements) {
            Ok(_) | Err(Flow::Break(false, _)) => Ok(None),
            Err(Flow::Break(true, value)) => Ok(Some(value)),
            Err(other) => Err(other),
        }
    }

    fn stmt(&mut self, stmt: &Stmt) -> Eval<Val> {
        if !self.resuming() {
            self.env.track(stmt.position())?;
        }
        match stmt {
            Stmt::Noop(_) => Ok(Val::Unit),
            Stmt::Expr { value, call, .. } => {
                if *call {
                    self.expr_uncounted(value)
                } else {
                    self.expr(value)
                }
            }
            Stmt::Block(statements, _) => self.block(statements),
            Stmt::Let {
                slot,
                value,
                live,
                share,
                pos,
            } => {
                if *live >= self.env.max_variables {
                    return Err(error(EvalAltResult::ErrorTooManyVariables(*pos)));
                }
                // A suspension inside the value passes through: `let` keeps nothing.
                let value = self.expr(value)?;
                self.slots[*slot as usize] = value;
                self.shared[*slot as usize] = false;
                for captured in share {
                    self.shared[*captured as usize] = true;
                }
                Ok(Val::Unit)
            }
            Stmt::Assign {
                target,
                op,
                value,
                pos,
            } => {
                let value = self.expr(value)?;
                self.assign(target, op.as_ref(), value, *pos)
                    .map_err(abandon)?;
                Ok(Val::Unit)
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                let branch = match self.mark() {
                    None | Some(Mark::If(None)) => self
                        .cond(cond)
                        .map_err(|flow| marked(flow, || Mark::If(None)))?,
                    Some(Mark::If(Some(branch))) => branch,
                    Some(_) => return Err(Self::lost()),
                };
                let statements = if branch { then } else { otherwise };
                self.block(statements)
                    .map_err(|flow| marked(flow, || Mark::If(Some(branch))))
            }
            Stmt::While {
                cond,
                body,
                body_pos,
                ..
            } => {
                // A resumed loop starts in the part that was running.
                let mut in_body = match self.mark() {
                    None => false,
                    Some(Mark::Loop(in_body)) => in_body,
                    Some(_) => return Err(Self::lost()),
                };
                loop {
                    if !std::mem::take(&mut in_body) {
                        if let Some(cond) = cond {
                            let holds = self
                                .cond(cond)
                                .map_err(|flow| marked(flow, || Mark::Loop(false)))?;
                            if !holds {
                                break Ok(Val::Unit);
                            }
                        } else if body.is_empty() {
                            self.env.track(*body_pos)?;
                        }
                    }
                    let ended = self
                        .body(body)
                        .map_err(|flow| marked(flow, || Mark::Loop(true)))?;
                    if let Some(value) = ended {
                        break Ok(value);
                    }
                }
            }
            Stmt::Do {
                body,
                cond,
                is_while,
                ..
            } => {
                let mut in_cond = match self.mark() {
                    None => false,
                    Some(Mark::Loop(in_body)) => !in_body,
                    Some(_) => return Err(Self::lost()),
                };
                loop {
                    if !std::mem::take(&mut in_cond) {
                        let ended = self
                            .body(body)
                            .map_err(|flow| marked(flow, || Mark::Loop(true)))?;
                        if let Some(value) = ended {
                            break Ok(value);
                        }
                    }
                    let holds = self
                        .cond(cond)
                        .map_err(|flow| marked(flow, || Mark::Loop(false)))?;
                    if holds ^ is_while {
                        break Ok(Val::Unit);
                    }
                }
            }
            Stmt::For(for_loop) => self.for_loop(for_loop),
            Stmt::Break {
                value, is_break, ..
            } => {
                let value = match value {
                    Some(value) => self.expr(value)?,
                    None => Val::Unit,
                };
                Err(Flow::Break(*is_break, value))
            }
            Stmt::Return { value, .. } => {
                let value = match value {
                    Some(value) => self.expr(value)?,
                    None => Val::Unit,
                };
                Err(Flow::Return(value))
            }
            Stmt::Switch(switch) => self.switch(switch),
            Stmt::TryCatch {
                body,
                var,
                live,
                catch,
                ..
            } => {
                let in_catch = match self.mark() {
                    None => false,
                    Some(Mark::Try(in_catch)) => in_catch,
                    Some(_) => return Err(Self::lost()),
                };
                if !in_catch {
                    match self.block(body) {
                        Err(Flow::Error(err)) if err.is_catchable() => {
                            if let Some((slot, var_pos)) = var {
                                let value = caught(*err)?;
                                if *live >= self.env.max_variables {
                                    return Err(error(EvalAltResult::ErrorTooManyVariables(
                                        *var_pos,
                                    )));
                                }
                                self.slots[*slot as usize] = value;
                            }
                        }
                        other => return other.map_err(|flow| marked(flow, || Mark::Try(false))),
                    }
                }
                // A caught error's `try` is worth `()`, whatever its catch block ends with.
                self.block(catch)
                    .map(|_| Val::Unit)
                    .map_err(|flow| marked(flow, || Mark::Try(true)))
            }
            Stmt::Throw { value, pos } => {
                let value = match value {
                    Some(value) => self.expr(value)?,
                    None => Val::Unit,
                };
                Err(error(EvalAltResult::ErrorRuntime(
                    value.into_dynamic(),
                    *pos,
                )))
            }
        }
    }

    /// `for var in iter { body }`: a resumed loop carries on with the turn that was running
    /// and the items after it.
    fn for_loop(&mut self, for_loop: &ForLoop) -> Eval<Val> {
        let (mut items, mut index, mut resumed) = match self.mark() {
            Some(Mark::For(items, index)) => (items, index, true),
            Some(_) => return Err(Self::lost()),
            None => {
                let extra = usize::from(for_loop.counter.is_some());
                if for_loop.live + extra >= self.env.max_variables {
                    return Err(error(EvalAltResult::ErrorTooManyVariables(
                        for_loop.var_pos,
                    )));
                }
                // A choice in the expression iterated over is not resumed.
                let iterated = self.expr(&for_loop.iter).map_err(abandon)?;
                let items = match iterated {
                    Val::List(items) => {
                        let items = Rc::try_unwrap(items).unwrap_or_else(|items| (*items).clone());
                        ForItems::List(items.into_iter())
                    }
                    Val::Other(value) => {
                        if let Some(range) = value.read_lock::<std::ops::Range<i64>>() {
                            ForItems::Range(range.clone())
                        } else if let Some(range) =
                            value.read_lock::<std::ops::RangeInclusive<i64>>()
                        {
                            ForItems::Inclusive(range.clone())
                        } else {
                            return Err(Flow::Bail(format!(
                                "`for` over a {}",
                                Dynamic::type_name(&value)
                            )));
                        }
                    }
                    other => {
                        return Err(Flow::Bail(format!("`for` over a {}", other.type_name())));
                    }
                };
                (items, 0, false)
            }
        };
        loop {
            if !std::mem::take(&mut resumed) {
                let Some(item) = items.next() else {
                    return Ok(Val::Unit);
                };
                if let Some(counter) = for_loop.counter {
                    self.slots[counter as usize] = Val::Int(index as i64);
                }
                self.slots[for_loop.var as usize] = item;
                if for_loop.body.is_empty() {
                    self.env.track(for_loop.body_pos)?;
                    index += 1;
                    continue;
                }
            }
            match self.body(&for_loop.body) {
                Ok(None) => index += 1,
                Ok(Some(value)) => return Ok(value),
                Err(Flow::Suspend(mut marks)) => {
                    marks.push(Mark::For(items, index));
                    return Err(Flow::Suspend(marks));
                }
                Err(other) => return Err(other),
            }
        }
    }

    /// A `switch`, as Rhai runs it: the value's hash picks the value cases, tried in
    /// order with their conditions; then the integer ranges; then the default arm.
    fn switch(&mut self, switch: &Switch) -> Eval<Val> {
        let arm = match self.mark() {
            None | Some(Mark::Switch(None)) => self
                .switch_arm(switch)
                .map_err(|flow| marked(flow, || Mark::Switch(None)))?,
            Some(Mark::Switch(Some(arm))) => Some(arm),
            Some(_) => return Err(Self::lost()),
        };
        match arm {
            Some(arm) => self
                .expr(&switch.arms[arm].value)
                .map_err(|flow| marked(flow, || Mark::Switch(Some(arm)))),
            None => Ok(Val::Unit),
        }
    }

    /// The arm a `switch` takes, if any (its value evaluated, then the arms' conditions).
    fn switch_arm(&mut self, switch: &Switch) -> Eval<Option<usize>> {
        let value = self.expr(&switch.value)?;
        let mut chosen = None;
        if hashable(&value) {
            let value = value.into_dynamic();
            if let Some(arms) = switch.cases.get(&switch_hash(&value)) {
                for &arm in arms {
                    if self.arm_holds(&switch.arms[arm])? {
                        chosen = Some(arm);
                        break;
                    }
                }
            }
            if chosen.is_none() {
                for range in switch.ranges.iter().filter(|r| r.contains(&value)) {
                    if self.arm_holds(&switch.arms[range.index()])? {
                        chosen = Some(range.index());
                        break;
                    }
                }
            }
        }
        Ok(chosen.or(switch.default))
    }

    /// An arm's condition (a choice inside one is not resumed).
    fn arm_holds(&mut self, arm: &Arm) -> Eval<bool> {
        match &arm.cond {
            Err(constant) => Ok(*constant),
            Ok(cond) => self.cond(cond).map_err(abandon),
        }
    }

    /// A condition's value. Rhai names a variable a closure shares, when it is not a
    /// `bool`, by the type of its shared cell.
    fn cond(&mut self, cond: &Expr) -> Eval<bool> {
        let value = self.expr(cond)?;
        match value.as_bool() {
            Some(b) => {
                // A flag holds nothing: no call of `Val`'s drop.
                discard(value);
                Ok(b)
            }
            None => {
                let actual = match cond {
                    Expr::Local(slot, _) if self.shared[*slot as usize] => {
                        std::any::type_name::<std::rc::Rc<std::cell::RefCell<Dynamic>>>()
                    }
                    _ => value.type_name(),
                };
                Err(mismatch(self.env.engine, "bool", actual, cond.position()))
            }
        }
    }

    fn exprs(&mut self, exprs: &[Expr]) -> Eval<Args> {
        let mut args = Args::new();
        for expr in exprs {
            args.push(self.expr(expr)?);
        }
        Ok(args)
    }

    /// A call's arguments, pushed onto `args`, which holds a resumed call's kept ones: then
    /// the one that was running, then the others; a suspension inside one is marked with
    /// those before it.
    fn args(&mut self, args: &mut Args, exprs: &[Expr]) -> Eval<()> {
        while args.len() < exprs.len() {
            match self.expr(&exprs[args.len()]) {
                Ok(value) => args.push(value),
                Err(Flow::Suspend(mut marks)) => {
                    marks.push(Mark::Call(Some(std::mem::take(args))));
                    return Err(Flow::Suspend(marks));
                }
                Err(other) => return Err(other),
            }
        }
        Ok(())
    }

    fn expr(&mut self, expr: &Expr) -> Eval<Val> {
        if !self.resuming() {
            self.env.track(expr.position())?;
        }
        // A constant or a variable is read here, without the walk's larger frame.
        match expr {
            Expr::Const(value, _) => Ok(value.clone()),
            Expr::Local(slot, _) => Ok(self.slots[*slot as usize].clone()),
            _ => self.expr_uncounted(expr),
        }
    }

    /// A call of its one native with constants and locals ([`Call::direct`]), read where
    /// they are: counted and made as `call_plain` makes it, with none of its tests of
    /// what the call is. `None` when the arguments are not of the native's types: nothing
    /// was counted, and the call is made as any other, which finds the overload Rhai
    /// would, or its error.
    fn call_direct(&mut self, call: &Call, index: u32) -> Eval<Option<Val>> {
        // The arguments in a list on the stack: a growing list (`View`) here cost a
        // Harrowdeep game about 0.7 M instructions.
        const SHORT: usize = 6;
        let Machine { env, slots, .. } = self;
        let native = &env.natives.list[index as usize];
        let count = call.args.len();
        if count > SHORT {
            return Ok(None);
        }
        let filler = std::mem::ManuallyDrop::new(Val::Unit);
        let mut refs: [&Val; SHORT] = [&*filler; SHORT];
        for (place, arg) in refs.iter_mut().zip(&call.args) {
            *place = match arg {
                Expr::Const(value, _) => value,
                Expr::Local(slot, _) => &slots[*slot as usize],
                _ => return Ok(None),
            };
        }
        let refs = &refs[..count];
        let (Some(borrowed), true) = (&native.borrowed, native.accepts(refs)) else {
            return Ok(None);
        };
        for arg in &call.args {
            env.track(arg.position())?;
        }
        env.call_borrowed(call, borrowed, refs).map(Some)
    }

    /// An expression's value, the operation of evaluating it not counted (Rhai does not
    /// count a function-call statement's call as an expression).
    fn expr_uncounted(&mut self, expr: &Expr) -> Eval<Val> {
        match expr {
            Expr::Const(value, _) => Ok(value.clone()),
            Expr::Local(slot, _) => Ok(self.slots[*slot as usize].clone()),
            Expr::Interpolated(parts, _) => {
                let mut text = String::new();
                for part in parts {
                    let value = self.expr(part).map_err(abandon)?;
                    if let Val::Str(s) = &value {
                        text.push_str(s.as_str());
                    } else if let Val::Int(n) = value
                        && self.env.natives.shows_integers_itself()
                    {
                        // Rhai's `to_string` of an integer is its decimal digits, and the
                        // call does no work Rhai counts: counted here, not looked up by name.
                        use std::fmt::Write;
                        self.env.operations += 1;
                        self.env.count_line(part.position(), 1);
                        let _ = write!(text, "{n}");
                    } else {
                        // Rhai counts the call of `to_string`, and a limit it meets there
                        // only shows the value as Rust shows it: the next count stops the run.
                        let pos = part.position();
                        self.env.operations += 1;
                        self.env.count_line(pos, 1);
                        let engine = self.env.engine;
                        let mut value = value.into_dynamic();
                        let shown = self.env.through_rhai(|global| {
                            let mut refs = [&mut value];
                            let context =
                                NativeCallContext::from((engine, "to_string", None, global, pos));
                            context.call_native_fn_raw("to_string", true, &mut refs)
                        });
                        match shown.ok().and_then(|s| s.into_immutable_string().ok()) {
                            Some(shown) => text.push_str(shown.as_str()),
                            None => text.push_str(&value.to_string()),
                        }
                    }
                    if self.env.engine.max_string_size() > 0
                        && text.len() > self.env.engine.max_string_size()
                    {
                        return Err(too_large("Length of string", part.position()));
                    }
                }
                Ok(Val::Str(rhai::ImmutableString::from(text)))
            }
            Expr::Array(items, _) => {
                let mut list = Vec::with_capacity(items.len());
                let mut total = (0, 0, 0);
                for item in items {
                    let value = self.expr(item).map_err(abandon)?;
                    let inner = value.sizes();
                    total = (total.0 + inner.0 + 1, total.1 + inner.1, total.2 + inner.2);
                    self.env.check_totals(total, item.position())?;
                    list.push(value);
                }
                Ok(Val::List(Rc::new(list)))
            }
            Expr::Map(entries, template, _) => {
                let mut map = (**template).clone();
                let mut total = (0, 0, 0);
                for (key, value_expr) in entries {
                    let value = self.expr(value_expr).map_err(abandon)?;
                    let inner = value.sizes();
                    total = (total.0 + inner.0, total.1 + inner.1 + 1, total.2 + inner.2);
                    self.env.check_totals(total, value_expr.position())?;
                    map.insert(key.clone(), value);
                }
                Ok(Val::Map(Rc::new(map)))
            }
            Expr::And(items, _) | Expr::Or(items, _) => {
                let is_and = matches!(expr, Expr::And(..));
                let start = match self.mark() {
                    None => 0,
                    Some(Mark::Item(index)) => index,
                    Some(_) => return Err(Self::lost()),
                };
                for (index, item) in items.iter().enumerate().skip(start) {
                    let holds = self
                        .cond(item)
                        .map_err(|flow| marked(flow, || Mark::Item(index)))?;
                    if holds != is_and {
                        return Ok(Val::Bool(holds));
                    }
                }
                Ok(Val::Bool(is_and))
            }
            Expr::Coalesce(items, _) => {
                let mut value = Val::Unit;
                for item in items {
                    value = self.expr(item).map_err(abandon)?;
                    if !value.is_unit() {
                        break;
                    }
                }
                Ok(value)
            }
            Expr::Call(call) => {
                if let (Some(index), false) = (call.direct, self.resuming()) {
                    if let Some(value) = self.call_direct(call, index)? {
                        return Ok(value);
                    }
                }
                if call.operator
                    && !call.plain_args
                    && (1..=2).contains(&call.args.len())
                    && call.script.is_none()
                    && !self.resuming()
                {
                    return self.operator(call);
                }
                let kept = match self.mark() {
                    None => None,
                    Some(Mark::Call(Some(args))) if args.len() == call.args.len() => {
                        // The call that stopped the run, made again with its arguments.
                        let mut args = args;
                        return self.env.call_with(call, None, &mut args, true);
                    }
                    Some(Mark::Call(Some(args))) => Some(args),
                    Some(Mark::Call(None)) => match call.script {
                        Some(index) => {
                            return self
                                .call_script(index, Args::new(), call.pos)
                                .map_err(|flow| marked(flow, || Mark::Call(None)));
                        }
                        None => return Err(Self::lost()),
                    },
                    Some(_) => return Err(Self::lost()),
                };
                if kept.is_none() && call.plain_args && call.script.is_none() {
                    if !call.plain_parts {
                        return self.call_plain(call);
                    }
                    if let Some(value) = self.call_plain_parts(call)? {
                        return Ok(value);
                    }
                }
                // `f(x, ...)` on a variable `x`: counted first, read after the other
                // arguments (as Rhai does); a resumed run's kept arguments are the others.
                let on_local = match (call.first_by_ref, call.args.first()) {
                    (true, Some(Expr::Local(slot, pos))) => {
                        if kept.is_none() {
                            self.env.track(*pos)?;
                        }
                        Some(*slot as usize)
                    }
                    _ => None,
                };
                let mut args = kept.unwrap_or_default();
                self.args(&mut args, &call.args[usize::from(on_local.is_some())..])?;
                if let Some(slot) = on_local {
                    return self.call_on_local(call, slot, args);
                }
                if let Some(index) = call.script {
                    return self
                        .call_script(index, args, call.pos)
                        .map_err(|flow| marked(flow, || Mark::Call(None)));
                }
                self.env.call_ready(call, &mut args)
            }
            Expr::Chain(chain) => self.chain(chain).map_err(abandon),
            Expr::Block(statements, _) => self.block(statements),
            Expr::ListLoop(list_loop) => self.list_loop(list_loop, false).map_err(abandon),
            Expr::Closure(counts) => {
                for pos in counts.iter().skip(1) {
                    self.env.track(*pos)?;
                }
                Ok(Val::Unit)
            }
            Expr::Inline(inline) => {
                // `call(f, ...)`: Rhai evaluates `f` first.
                if let Some(pos) = inline.variable {
                    self.env.track(pos)?;
                }
                let args = self.exprs(&inline.args).map_err(abandon)?;
                self.inline(inline, args).map_err(abandon)
            }
        }
    }

    /// A call whose arguments are all constants and locals (not the script's own
    /// function): the operator or the chosen native reads them where they are, with no copy
    /// made, when it can: an operator the evaluator does itself, or a native with a
    /// [`super::natives::Borrowed`] form that does not ask (a function that may ask keeps
    /// copies of its arguments) given no captured, shared variable. Otherwise the arguments
    /// are copied and the call goes on as any other: the same overload, result, error and
    /// count either way.
    fn call_plain(&mut self, call: &Call) -> Eval<Val> {
        let Machine { env, slots, .. } = self;
        for arg in &call.args {
            env.track(arg.position())?;
        }
        // Two integers: answered at once.
        if let (true, [left, right]) = (call.operator, call.args.as_slice()) {
            let plain = |expr: &Expr| match expr {
                Expr::Const(Val::Int(n), _) => Some(*n),
                Expr::Local(slot, _) => slots[*slot as usize].as_int(),
                _ => None,
            };
            if let (Some(a), Some(b)) = (plain(left), plain(right)) {
                if let Some(value) = int_operator(call.builtin, a, b) {
                    return Ok(value);
                }
            }
        }
        let mut refs: View<'_> = SmallVec::new();
        for arg in &call.args {
            match arg {
                Expr::Const(value, _) => refs.push(value),
                Expr::Local(slot, _) => refs.push(&slots[*slot as usize]),
                _ => return Err(Flow::Bail("a plain argument that is not plain".into())),
            }
        }
        if let Some(value) = env.answer_plain(call, &refs)? {
            return Ok(value);
        }
        let args = Self::copies(call, &refs);
        drop(refs);
        self.call_copies(call, args)
    }

    /// An operator with one operand or two, not all plain (those are read in place,
    /// [`Machine::call_plain`]), not resumed: each operand evaluated as any argument is,
    /// then the operator answered here when the operands are the script's own values (no
    /// list of arguments made), else called as any other call is. A stop at a choice inside
    /// an operand is marked as the arguments of any call are, so the run resumes through
    /// [`Machine::args`].
    fn operator(&mut self, call: &Call) -> Eval<Val> {
        let suspended = |mut marks: Vec<Mark>, kept: Option<Val>| {
            marks.push(Mark::Call(Some(kept.into_iter().collect())));
            Flow::Suspend(marks)
        };
        let left = match self.expr(&call.args[0]) {
            Err(Flow::Suspend(marks)) => return Err(suspended(marks, None)),
            other => other?,
        };
        let right = match call.args.get(1).map(|operand| self.expr(operand)) {
            Some(Err(Flow::Suspend(marks))) => return Err(suspended(marks, Some(left))),
            Some(other) => Some(other?),
            None => None,
        };
        let answered = match (&left, &right) {
            (Val::Int(a), Some(Val::Int(b))) => int_operator(call.builtin, *a, *b),
            (value, None) if !value.is_variant() => {
                Env::<LINES>::fast_operator(call.builtin, &[value])
            }
            (left, Some(right)) if !left.is_variant() && !right.is_variant() => {
                Env::<LINES>::fast_operator(call.builtin, &[left, right])
            }
            _ => None,
        };
        if let Some(value) = answered {
            discard(left);
            if let Some(right) = right {
                discard(right);
            }
            return Ok(value);
        }
        let mut operands: Args = std::iter::once(left).chain(right).collect();
        self.env.call_ready(call, &mut operands)
    }

    /// [`Machine::call_plain`] with an argument that is a part of a local (all plain,
    /// [`Expr::is_plain`]), found first where it is, in the list or map that holds it.
    ///
    /// `None`: a part cannot be read in place (a property getter, an index out of range, a
    /// shared variable); nothing was counted, and the call is to be evaluated as any other,
    /// which reads the part, or reports why it cannot.
    fn call_plain_parts(&mut self, call: &Call) -> Eval<Option<Val>> {
        let Machine { env, slots, .. } = self;
        let slots: &[Val] = slots;
        fn index_key<'k>(slots: &'k [Val], link: &'k Link) -> Option<&'k Val> {
            match link {
                Link::Index(Expr::Const(value, _), _) => Some(value),
                Link::Index(Expr::Local(slot, _), _) => Some(&slots[*slot as usize]),
                _ => None,
            }
        }
        let key = |link| index_key(slots, link);
        // The lists and maps the parts are read in: the variables, then the parts of them
        // a second link reads in.
        let chains = || {
            call.args.iter().filter_map(|arg| match arg {
                Expr::Chain(chain) => Some(chain),
                _ => None,
            })
        };
        let mut outer: SmallVec<[Held<'_>; 4]> = SmallVec::new();
        for chain in chains() {
            let Root::Local(slot, _) = chain.root else {
                return Ok(None);
            };
            let Some(held) = Held::of(&slots[slot as usize]) else {
                return Ok(None);
            };
            outer.push(held);
        }
        let mut inner: SmallVec<[Held<'_>; 2]> = SmallVec::new();
        for (held, chain) in outer.iter().zip(chains()) {
            if let [first, _] = chain.links.as_slice() {
                let Some(part) = held.part(first, key(first)).and_then(Held::of) else {
                    return Ok(None);
                };
                inner.push(part);
            }
        }
        let mut refs: View<'_> = SmallVec::new();
        let (mut outer_at, mut inner_at) = (0, 0);
        for arg in &call.args {
            let value = match arg {
                Expr::Const(value, _) => value,
                Expr::Local(slot, _) => &slots[*slot as usize],
                Expr::Chain(chain) => {
                    let part = match chain.links.as_slice() {
                        [only] => outer[outer_at].part(only, key(only)),
                        [_, second] => {
                            inner_at += 1;
                            inner[inner_at - 1].part(second, key(second))
                        }
                        _ => None,
                    };
                    outer_at += 1;
                    match part {
                        Some(part) => part,
                        None => return Ok(None),
                    }
                }
                _ => return Err(Flow::Bail("a plain argument that is not plain".into())),
            };
            refs.push(value);
        }
        // Counted as evaluating each argument counts: a chain counts itself, its links'
        // nodes and index keys (`Machine::ready`), its variable, then each part it reads.
        for arg in &call.args {
            env.track(arg.position())?;
            if let Expr::Chain(chain) = arg {
                env.track_part(chain)?;
            }
        }
        if let Some(value) = env.answer_plain(call, &refs)? {
            return Ok(Some(value));
        }
        let args = Self::copies(call, &refs);
        drop(refs);
        drop(inner);
        drop(outer);
        self.call_copies(call, args).map(Some)
    }

    /// The arguments of a plain call copied, the variable a call on a variable is made on
    /// left out ([`Machine::call_copies`]).
    fn copies(call: &Call, refs: &[&Val]) -> Args {
        let skip = usize::from(matches!(
            (call.first_by_ref, call.args.first()),
            (true, Some(Expr::Local(..)))
        ));
        copies_of(refs[skip..].iter().copied())
    }

    /// A plain call no operator or borrowing native answered, with copies of its arguments:
    /// made as any other call.
    fn call_copies(&mut self, call: &Call, mut args: Args) -> Eval<Val> {
        match (call.first_by_ref, call.args.first()) {
            (true, Some(Expr::Local(slot, _))) => self.call_on_local(call, *slot as usize, args),
            _ => self.env.call_ready(call, &mut args),
        }
    }

    /// `f(x, ...)` with a variable `x` first (not the script's own function, not an
    /// operator), its other arguments `rest` evaluated: as Rhai does it, the variable itself
    /// is the receiver of a function that takes its first parameter by reference (`push`,
    /// `clear`, a method of the vocabulary) or of Rhai's own resolution, so the call changes
    /// it; a function that takes it by value, or a variable a closure captured, or a
    /// constant, gets a copy.
    fn call_on_local(&mut self, call: &Call, slot: usize, mut rest: Args) -> Eval<Val> {
        let target = &self.slots[slot];
        let natives = self.env.natives;
        let chosen = natives.choose(&call.natives, Some(target), &rest);
        // A variable a closure has captured is shared in Rhai (`shared` says which).
        let shared = self.shared.get(slot).copied().unwrap_or(false);
        let by_ref = !shared && chosen.is_none_or(|index| natives.list[index].func.is_method());
        if by_ref {
            let target = &mut self.slots[slot];
            return match chosen {
                Some(index) => self
                    .env
                    .call_native(call, index, Some(target), &mut rest, false),
                None => self.env.call_with(call, Some(target), &mut rest, false),
            };
        }
        rest.insert(0, target.clone());
        match chosen {
            Some(index) => self.env.call_native(call, index, None, &mut rest, false),
            None => self.env.call_with(call, None, &mut rest, false),
        }
    }

    /// A closure kept in a variable, called: as Rhai calls a script function through its
    /// pointer, one level deeper, its errors wrapped as having happened in it (a system
    /// error, such as a limit, passes through at the call's position).
    fn inline(&mut self, inline: &Inline, args: Args) -> Eval<Val> {
        let pos = inline.pos;
        self.env.track(pos)?;
        if self.env.depth + 1 > self.env.max_depth {
            return Err(error(EvalAltResult::ErrorStackOverflow(pos)));
        }
        if inline.variables > self.env.max_variables {
            return Err(error(EvalAltResult::ErrorTooManyVariables(pos)));
        }
        if inline.body.is_empty() {
            return Ok(Val::Unit);
        }
        for (slot, value) in inline.params.iter().zip(args) {
            self.slots[*slot as usize] = value;
        }
        self.env.depth += 1;
        let result = self.block(&inline.body);
        self.env.depth -= 1;
        match result {
            Ok(value) | Err(Flow::Return(value)) => Ok(value),
            Err(Flow::Error(inner)) => Err(in_closure(inner, &inline.name, pos)),
            Err(Flow::Break(..)) => Err(Flow::Bail("`break` outside a loop".into())),
            Err(bail) => Err(bail),
        }
    }

    /// Calls the script's own function `index`, as Rhai does: one level deeper, in a frame
    /// of its own, an error inside it wrapped as having happened in it.
    fn call_script(&mut self, index: usize, args: Args, pos: Position) -> Eval<Val> {
        let function = &self.functions[index];
        let (frame, shared) = match self.mark() {
            Some(Mark::Function(frame, shared)) => (frame, shared),
            Some(_) => return Err(Self::lost()),
            None => {
                self.env.track(pos)?;
                if self.env.depth + 1 > self.env.max_depth {
                    return Err(error(EvalAltResult::ErrorStackOverflow(pos)));
                }
                let mut frame = args.into_vec();
                frame.resize_with(function.slots.max(function.params), Val::default);
                let shared = vec![false; frame.len()];
                (frame, shared)
            }
        };
        let outer = std::mem::replace(&mut self.slots, frame);
        let outer_shared = std::mem::replace(&mut self.shared, shared);
        self.env.depth += 1;
        let result = self.block(&function.body);
        self.env.depth -= 1;
        let mut frame = std::mem::replace(&mut self.slots, outer);
        let shared = std::mem::replace(&mut self.shared, outer_shared);
        if !matches!(result, Err(Flow::Suspend(_))) {
            let_go(&mut frame);
        }
        match result {
            Ok(value) | Err(Flow::Return(value)) => Ok(value),
            Err(Flow::Error(inner)) => Err(in_closure(inner, &function.name, pos)),
            Err(Flow::Break(..)) => Err(Flow::Bail("`break` outside a loop".into())),
            Err(Flow::Suspend(mut marks)) => {
                marks.push(Mark::Function(frame, shared));
                Err(Flow::Suspend(marks))
            }
            Err(bail) => Err(bail),
        }
    }

    /// The values of a chain's links, left to right, before its root (Rhai's order).
    /// Rhai's pass over a chain's links before its root: each link's node counted where
    /// `nodes` says, then its index or arguments evaluated (a lone literal index is not).
    /// The values are pushed onto `ready`, which the caller holds: a list of them is too
    /// large to return by value cheaply.
    fn ready(
        &mut self,
        ready: &mut SmallVec<[Ready; 2]>,
        links: &[Link],
        nodes: &[Option<Position>],
    ) -> Eval<()> {
        for (link, node) in links.iter().zip(nodes) {
            if let Some(pos) = node {
                self.env.track(*pos)?;
            }
            ready.push(match link {
                Link::Prop(..) => Ready::Prop,
                Link::Index(index, _) if node.is_none() => {
                    Ready::Index(self.expr_uncounted(index)?)
                }
                Link::Index(index, _) => Ready::Index(self.expr(index)?),
                Link::Method(call) => Ready::Method(self.exprs(&call.args)?),
                Link::NullCheck => Ready::Prop,
                Link::Inline(inline) => Ready::Method(self.exprs(&inline.args)?),
            });
        }
        Ok(())
    }

    fn chain(&mut self, chain: &Chain) -> Eval<Val> {
        if let Root::Value(Expr::ListLoop(list_loop)) = &chain.root {
            // The list functions the chain starts from are its first links for Rhai.
            self.list_arguments(list_loop)?;
        }
        let mut ready = SmallVec::new();
        self.ready(&mut ready, &chain.links, &chain.nodes)?;
        if let (Some(Link::Inline(inline)), Some(Ready::Method(args))) =
            (chain.links.first(), ready.first_mut())
        {
            let args = std::mem::take(args);
            if let Root::Value(root) = &chain.root {
                self.env.track(root.position())?;
            }
            let mut value = self.inline(inline, args)?;
            return apply(
                &mut self.env,
                &mut value,
                &chain.links[1..],
                &mut ready[1..],
                true,
            );
        }
        match &chain.root {
            Root::Local(slot, pos) => {
                self.env.track(*pos)?;
                let target = &mut self.slots[*slot as usize];
                apply(&mut self.env, target, &chain.links, &mut ready, false)
            }
            Root::Value(expr) => {
                let mut value = self.value_of_root(expr)?;
                apply(&mut self.env, &mut value, &chain.links, &mut ready, true)
            }
        }
    }

    fn assign(
        &mut self,
        place: &Place,
        op: Option<&OpAssign>,
        value: Val,
        pos: Position,
    ) -> Eval<()> {
        let mut ready = SmallVec::new();
        self.ready(&mut ready, &place.links, &place.nodes)?;
        self.env.track(place.slot_pos)?;
        let root = &mut self.slots[place.slot as usize];
        assign_at(
            &mut self.env,
            root,
            &place.links,
            &mut ready,
            op,
            value,
            pos,
        )?;
        let root = &self.slots[place.slot as usize];
        self.env.check_size(root, pos)
    }

    /// A list function with its closure, as a loop. `arguments_counted`: called as a
    /// method, its part of the chain's pass over the arguments was counted already
    /// ([`Machine::list_arguments`]).
    fn list_loop(&mut self, list_loop: &ListLoop, arguments_counted: bool) -> Eval<Val> {
        if !arguments_counted {
            self.list_arguments(list_loop)?;
        }
        match &list_loop.list {
            Root::Local(slot, pos) => {
                self.env.track(*pos)?;
                if list_loop.method.is_none() {
                    self.list_closure(list_loop)?;
                }
                // The closure never reads or changes the list's variable (the lowering
                // refuses one that does through another closure, and one that captures it
                // is Rhai's data race, below): the loop shares the list, not a copy, as
                // Rhai passes it by reference.
                match &self.slots[*slot as usize] {
                    Val::List(items) => {
                        let items = Rc::clone(items);
                        self.list_prelude(list_loop, true)?;
                        self.list_turns(list_loop, &items)
                    }
                    _ => self.list_prelude(list_loop, false).map(|()| Val::Unit),
                }
            }
            Root::Value(expr) => {
                let list = self.value_of_root(expr)?;
                if list_loop.method.is_none() {
                    self.list_closure(list_loop)?;
                }
                let Val::List(items) = list else {
                    return self.list_prelude(list_loop, false).map(|()| Val::Unit);
                };
                self.list_prelude(list_loop, true)?;
                self.list_turns(list_loop, &items)
            }
        }
    }

    /// A list function called as a method is a link of a chain, whose arguments Rhai
    /// evaluates before the chain's root, in the chain's order: the list functions it
    /// starts from first (`l.filter(f).map(g)`), then the call's node and its closure.
    /// Called as a function, its closure is counted in argument order, after the list.
    fn list_arguments(&mut self, list_loop: &ListLoop) -> Eval<()> {
        let Some(node) = list_loop.method else {
            return Ok(());
        };
        if let Root::Value(Expr::ListLoop(inner)) = &list_loop.list {
            self.list_arguments(inner)?;
        }
        if let Some(pos) = node {
            self.env.track(pos)?;
        }
        self.list_closure(list_loop)
    }

    /// The value a chain or a list function starts from. A list function called as a
    /// method is a link of the chain Rhai evaluates as one expression (`l.filter(f).len()`),
    /// not an expression of its own: it is not counted as one, and its arguments were
    /// counted with the chain's ([`Machine::list_arguments`]).
    fn value_of_root(&mut self, expr: &Expr) -> Eval<Val> {
        match expr {
            Expr::ListLoop(list_loop) if list_loop.method.is_some() => {
                self.list_loop(list_loop, true)
            }
            _ => self.expr(expr),
        }
    }

    /// The closure, as Rhai evaluates the argument: counted, and the variables it captures
    /// shared from here on.
    fn list_closure(&mut self, list_loop: &ListLoop) -> Eval<()> {
        for pos in &list_loop.closure_counts {
            self.env.track(*pos)?;
        }
        for captured in &list_loop.shared {
            self.shared[*captured as usize] = true;
        }
        Ok(())
    }

    /// What Rhai does between evaluating a list function's arguments and calling its
    /// closure on the first item: the call, its checks.
    fn list_prelude(&mut self, list_loop: &ListLoop, is_list: bool) -> Eval<()> {
        if !is_list {
            return Err(Flow::Bail(format!(
                "`{}` on a value that is not a list",
                list_loop.kind.name()
            )));
        }
        // The call of the list function itself.
        self.env.track(list_loop.call_pos)?;
        if list_loop.race {
            return Err(error(EvalAltResult::ErrorDataRace(
                format!("argument #1 of function '{}'", list_loop.kind.name()),
                // Rhai's check gives no position, and nothing fills one in.
                Position::NONE,
            )));
        }
        if list_loop.live + 1 + usize::from(list_loop.index.is_some()) > self.env.max_variables {
            return Err(error(EvalAltResult::ErrorTooManyVariables(list_loop.pos)));
        }
        Ok(())
    }

    /// The closure's turns on the list's items, and the list function's result.
    fn list_turns(&mut self, list_loop: &ListLoop, items: &[Val]) -> Eval<Val> {
        // Every turn counts against the run's limit (`limits::budget`). A filter or a map
        // keeps at most an item a turn: room for them is made once.
        let mut kept = match list_loop.kind {
            ListKind::Filter | ListKind::Map => Vec::with_capacity(items.len()),
            ListKind::Some | ListKind::All => Vec::new(),
        };
        for (index, item) in items.iter().enumerate() {
            // The closure's call, counted where the list function was called. A closure
            // taking the item and its index is found at the third try (`functions.rs`,
            // `call_on_item`): each try that fails is a call counted too.
            if list_loop.index.is_some() {
                self.env.track(list_loop.call_pos)?;
                self.env.track(list_loop.call_pos)?;
            }
            self.env.track(list_loop.call_pos)?;
            if let Some(slot) = list_loop.index {
                self.slots[slot as usize] = Val::Int(index as i64);
            }
            // The closure gets a copy of the item: a filter keeps the item itself, whatever
            // the closure does with its parameter.
            self.slots[list_loop.item as usize] = item.clone();
            let result = match self.block(&list_loop.body) {
                Ok(value) | Err(Flow::Return(value)) => value,
                Err(Flow::Break(..)) => {
                    return Err(Flow::Bail("`break` inside a closure".into()));
                }
                Err(Flow::Error(inner)) => {
                    return Err(in_closure(inner, &list_loop.name, list_loop.call_pos));
                }
                Err(other) => return Err(other),
            };
            let holds = result.as_bool().unwrap_or(false);
            match list_loop.kind {
                ListKind::Filter => {
                    if holds {
                        kept.push(item.clone());
                    }
                }
                ListKind::Some => {
                    if holds {
                        return Ok(Val::Bool(true));
                    }
                }
                ListKind::All => {
                    if !holds {
                        return Ok(Val::Bool(false));
                    }
                }
                ListKind::Map => kept.push(result),
            }
        }
        Ok(match list_loop.kind {
            ListKind::Filter | ListKind::Map => Val::List(Rc::new(kept)),
            ListKind::Some => Val::Bool(false),
            ListKind::All => Val::Bool(true),
        })
    }
}

/// Where a part of `target` is: a list's item (its index checked) or a map's entry (its
/// key, which the map may not have).
enum PartAt {
    Item(usize),
    Entry(rhai::ImmutableString),
}

/// The place of the part `key` names in `target`, or Rhai's error for the key.
fn locate(engine: &Engine, target: &Val, key: &Val, pos: Position) -> Eval<PartAt> {
    match target {
        Val::List(items) => {
            let Some(number) = key.as_int() else {
                return Err(mismatch(engine, "i64", key.type_name(), pos));
            };
            let len = items.len();
            match calc_index(len, number) {
                Some(at) => Ok(PartAt::Item(at)),
                None => Err(error(EvalAltResult::ErrorArrayBounds(len, number, pos))),
            }
        }
        Val::Map(_) => match key.as_str() {
            Some(name) => Ok(PartAt::Entry(name.clone())),
            None => Err(mismatch(engine, "string", key.type_name(), pos)),
        },
        other => Err(Flow::Bail(format!("indexing a {}", other.type_name()))),
    }
}

fn missing(name: &str, pos: Position) -> Flow {
    error(EvalAltResult::ErrorPropertyNotFound(name.to_owned(), pos))
}

/// The part of `target` that `key` names, read where it is (a map's missing entry is an
/// error).
fn part_of<'t>(engine: &Engine, target: &'t Val, key: &Val, pos: Position) -> Eval<&'t Val> {
    match (locate(engine, target, key, pos)?, target) {
        (PartAt::Item(at), Val::List(items)) => Ok(&items[at]),
        (PartAt::Entry(name), Val::Map(entries)) => entries
            .get(name.as_str())
            .ok_or_else(|| missing(&name, pos)),
        _ => Err(Flow::Bail("a part of neither a list nor a map".into())),
    }
}

/// Runs `body` on one part of `target` in place: a list's item (by index) or a map's entry
/// (by key, added as `()` when `add` and missing). The part is taken out for the length of
/// `body` and put back after, whatever `body` returns; a list or map shared with another
/// holder is copied first (`Rc::make_mut`), as the part may change.
fn with_part<R>(
    engine: &Engine,
    target: &mut Val,
    key: &Val,
    pos: Position,
    add: bool,
    body: impl FnOnce(&mut Val) -> Eval<R>,
) -> Eval<R> {
    match (locate(engine, target, key, pos)?, target) {
        (PartAt::Item(at), Val::List(items)) => {
            let items = Rc::make_mut(items);
            let mut part = std::mem::take(&mut items[at]);
            let result = body(&mut part);
            items[at] = part;
            result
        }
        (PartAt::Entry(name), Val::Map(entries)) => {
            let entries = Rc::make_mut(entries);
            let mut part = match entries.get_mut(name.as_str()) {
                Some(value) => std::mem::take(value),
                None if add => Val::Unit,
                None => return Err(missing(&name, pos)),
            };
            let result = body(&mut part);
            entries.insert(name.as_str().into(), part);
            result
        }
        _ => Err(Flow::Bail("a part of neither a list nor a map".into())),
    }
}

/// Assigns `value` (or op-assigns it) to the part of `target` that `links` name.
fn assign_at<const LINES: bool>(
    env: &mut Env<'_, LINES>,
    target: &mut Val,
    links: &[Link],
    ready: &mut [Ready],
    op: Option<&OpAssign>,
    value: Val,
    pos: Position,
) -> Eval<()> {
    let (Some(link), Some((first, rest))) = (links.first(), ready.split_first_mut()) else {
        match op {
            None => *target = value,
            Some(op) => env.op_assign(target, op, value, pos)?,
        }
        return Ok(());
    };
    let engine = env.engine;
    match (link, first) {
        (Link::Prop(property), Ready::Prop) if matches!(target, Val::Map(_)) => {
            // Counted as Rhai counts reaching a map's entry.
            env.track(Position::NONE)?;
            let key = Val::Str(property.name.as_str().into());
            with_part(engine, target, &key, property.pos, true, |part| {
                assign_at(env, part, &links[1..], rest, op, value, pos)
            })
        }
        (Link::Index(_, index_pos), Ready::Index(key)) => {
            env.track(Position::NONE)?;
            with_part(engine, target, key, *index_pos, true, |part| {
                assign_at(env, part, &links[1..], rest, op, value, pos)
            })
        }
        _ => Err(Flow::Bail("an assignment through a property setter".into())),
    }
}

/// Applies a chain's links to `target` and returns the value it ends in. `owned`: the target
/// is a value of the chain's own (not a variable, nor a part of one), so the value it ends
/// in is taken out of it, not copied.
fn apply<const LINES: bool>(
    env: &mut Env<'_, LINES>,
    target: &mut Val,
    links: &[Link],
    ready: &mut [Ready],
    owned: bool,
) -> Eval<Val> {
    let (Some(link), Some((first, rest))) = (links.first(), ready.split_first_mut()) else {
        return Ok(if owned {
            std::mem::take(target)
        } else {
            target.clone()
        });
    };
    match (link, first) {
        (Link::NullCheck, _) => {
            if target.is_unit() {
                return Ok(Val::Unit);
            }
            apply(env, target, &links[1..], rest, owned)
        }
        (Link::Prop(property), Ready::Prop) => {
            if matches!(target, Val::Map(_)) {
                // Counted as Rhai counts reading a map's entry.
                env.track(Position::NONE)?;
                let key = Val::Str(property.name.as_str().into());
                return apply_to_part(env, target, &key, property.pos, links, rest, owned);
            }
            env.track(property.pos)?;
            let mut value = env.property(target, property)?;
            if rest.is_empty() {
                // The chain's value itself: no further step, no copy.
                return Ok(value);
            }
            apply(env, &mut value, &links[1..], rest, true)
        }
        (Link::Index(_, pos), Ready::Index(key)) => {
            env.track(Position::NONE)?;
            apply_to_part(env, target, key, *pos, links, rest, owned)
        }
        (Link::Method(call), Ready::Method(args)) => {
            let mut value = env.call_with(call, Some(target), args, false)?;
            if rest.is_empty() {
                return Ok(value);
            }
            apply(env, &mut value, &links[1..], rest, true)
        }
        _ => Err(Flow::Bail("a chain whose links do not match".into())),
    }
}

/// Applies the links after the first to the part of `target` that `key` names. A chain
/// that only reads on (no method call, which may change the part) reads a copy of the
/// part (a list in it is shared, not copied), so a list shared with another holder is not
/// copied to be read; otherwise the part is reached in place ([`with_part`]).
fn apply_to_part<const LINES: bool>(
    env: &mut Env<'_, LINES>,
    target: &mut Val,
    key: &Val,
    pos: Position,
    links: &[Link],
    rest: &mut [Ready],
    owned: bool,
) -> Eval<Val> {
    let engine = env.engine;
    let reads_only = links[1..]
        .iter()
        .all(|link| !matches!(link, Link::Method(_) | Link::Inline(_)));
    if reads_only {
        let mut part = part_of(engine, target, key, pos)?.clone();
        return apply(env, &mut part, &links[1..], rest, true);
    }
    with_part(engine, target, key, pos, false, |part| {
        apply(env, part, &links[1..], rest, owned)
    })
}

/// Whether Rhai's interpreter answers operator `name` on these arguments (of Rhai's own
/// types, none a game value) with a built-in, which it does not count as a call: its
/// table of built-ins (`rhai::func::builtin`) for the sandbox's types (no floats). A unary
/// operator's built-ins (`!` of a flag, `-` of an integer) are the evaluator's own.
fn builtin_exists(name: &str, args: &[&Val]) -> bool {
    const COMPARE: &[&str] = &["==", "!=", ">", ">=", "<", "<="];
    let [left, right] = args else {
        return false;
    };
    let compare = COMPARE.contains(&name);
    let string = |v: &Val| matches!(v, Val::Str(_));
    let ch = |v: &Val| matches!(v, Val::Other(value) if value.is_char());
    let unit = |v: &Val| v.is_unit();
    if matches!((left, right), (Val::Int(_), Val::Int(_))) {
        return compare
            || matches!(
                name,
                "+" | "-" | "*" | "/" | "%" | "**" | "<<" | ">>" | "&" | "|" | "^" | ".." | "..="
            );
    }
    if matches!((left, right), (Val::Bool(_), Val::Bool(_))) {
        return compare || matches!(name, "&" | "|" | "^");
    }
    if string(left) && string(right) {
        return compare || matches!(name, "+" | "-");
    }
    if ch(left) && ch(right) {
        return compare || name == "+";
    }
    if (string(left) && ch(right)) || (ch(left) && string(right)) {
        return compare || name == "+" || (string(left) && name == "-");
    }
    if unit(left) && unit(right) {
        return compare;
    }
    if (unit(left) && string(right)) || (string(left) && unit(right)) {
        return compare || name == "+";
    }
    // Values of two types, not both numbers: a comparison is a built-in.
    left.type_id() != right.type_id() && compare
}

/// `a op b` on two integers, as Rhai's built-in operators do it; `None` where it fails
/// (an overflow, a division by zero: Rhai's error is made elsewhere) or for an operator
/// integers do not have here.
#[inline]
fn int_operator(builtin: Builtin, a: i64, b: i64) -> Option<Val> {
    use Builtin as B;
    match builtin {
        B::Plus => a.checked_add(b).map(Val::Int),
        B::Minus => a.checked_sub(b).map(Val::Int),
        B::Times => a.checked_mul(b).map(Val::Int),
        B::Divide => a.checked_div(b).map(Val::Int),
        B::Modulo => a.checked_rem(b).map(Val::Int),
        B::Equal => Some(Val::Bool(a == b)),
        B::NotEqual => Some(Val::Bool(a != b)),
        B::Less => Some(Val::Bool(a < b)),
        B::LessOrEqual => Some(Val::Bool(a <= b)),
        B::Greater => Some(Val::Bool(a > b)),
        B::GreaterOrEqual => Some(Val::Bool(a >= b)),
        B::BitAnd => Some(Val::Int(a & b)),
        B::BitOr => Some(Val::Int(a | b)),
        B::BitXor => Some(Val::Int(a ^ b)),
        B::ShiftLeft => Some(Val::Int(shift_left(a, b))),
        B::ShiftRight => Some(Val::Int(shift_right(a, b))),
        // Ranges, as Rhai's built-in operators make them (`for i in 0..n`).
        B::Range => Some(Val::Other(Box::new(Dynamic::from(a..b)))),
        B::RangeInclusive => Some(Val::Other(Box::new(Dynamic::from(a..=b)))),
        _ => None,
    }
}

/// Rhai's hash of a `switch` value (its parser keys value cases by it): the value's own
/// `Hash` through the default hasher of the `ahash` Rhai uses.
fn switch_hash(value: &Dynamic) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = ahash::AHasher::default();
    value.hash(&mut hasher);
    hasher.finish()
}

/// Whether [`switch_hash`] is the hash Rhai's parser gives value cases (it is unless Rhai
/// was given a hashing seed of its own): checked once, on a parsed `switch`.
pub(crate) fn switch_hash_agrees() -> bool {
    static AGREES: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AGREES.get_or_init(|| {
        let Ok(ast) = Engine::new_raw().compile("switch 0 { 7 => 1, \"x\" => 2 }") else {
            return false;
        };
        let expected = [
            switch_hash(&Dynamic::from_int(7)),
            switch_hash(&Dynamic::from("x")),
        ];
        ast.statements().iter().any(|stmt| match stmt {
            rhai::Stmt::Switch(switch, _) => {
                let cases = &switch.1.cases;
                cases.len() == 2 && expected.iter().all(|hash| cases.contains_key(hash))
            }
            _ => false,
        })
    })
}

/// The value a `catch (e)` gets, as Rhai makes it: a thrown value as it was thrown; any
/// other error as a map of its message, place and fields. An error whose fields are not
/// reproduced here makes the run give up (Rhai runs the script).
fn caught(mut err: EvalAltResult) -> Eval<Val> {
    if let EvalAltResult::ErrorRuntime(value, _) = err.unwrap_inner() {
        return Ok(Val::from_dynamic(value.clone()));
    }
    let mut map = rhai::Map::new();
    let pos = err.take_position();
    map.insert("message".into(), err.to_string().into());
    if !pos.is_none() {
        map.insert("line".into(), (pos.line().unwrap_or(0) as i64).into());
        map.insert(
            "position".into(),
            (pos.position().unwrap_or(0) as i64).into(),
        );
    }
    let kind = format!("{err:?}");
    let kind = kind.split('(').next().unwrap_or_default().to_owned();
    map.insert("error".into(), kind.clone().into());
    let text = |s: &str| Dynamic::from(s.to_owned());
    match &err {
        EvalAltResult::ErrorArithmetic(..) | EvalAltResult::ErrorFor(..) => {}
        EvalAltResult::ErrorFunctionNotFound(f, _) => {
            map.insert("function".into(), text(f));
        }
        EvalAltResult::ErrorInFunctionCall(f, source, ..) => {
            map.insert("function".into(), text(f));
            map.insert("source".into(), text(source));
        }
        EvalAltResult::ErrorMismatchDataType(r, a, _)
        | EvalAltResult::ErrorMismatchOutputType(r, a, _) => {
            map.insert("requested".into(), text(r));
            map.insert("actual".into(), text(a));
        }
        EvalAltResult::ErrorArrayBounds(n, i, _) | EvalAltResult::ErrorStringBounds(n, i, _) => {
            map.insert("length".into(), (*n as i64).into());
            map.insert("index".into(), (*i).into());
        }
        EvalAltResult::ErrorVariableNotFound(v, _)
        | EvalAltResult::ErrorPropertyNotFound(v, _)
        | EvalAltResult::ErrorDataRace(v, _) => {
            map.insert("variable".into(), text(v));
        }
        EvalAltResult::ErrorIndexNotFound(v, _) => {
            map.insert("index".into(), v.clone());
        }
        EvalAltResult::ErrorDotExpr(p, _) => {
            map.insert("property".into(), text(p));
        }
        EvalAltResult::ErrorIndexingType(t, _) => {
            map.insert("type".into(), text(t));
        }
        _ => return Err(Flow::Bail(format!("`catch` of a {kind}"))),
    }
    Ok(Val::from_dynamic(Dynamic::from_map(map)))
}

/// Whether Rhai's `switch` looks a value up among its cases (Rhai's `is_hashable`, for
/// the values a script of this engine can hold: no floats, one integer type).
fn hashable(value: &Val) -> bool {
    match value {
        Val::Unit | Val::Bool(_) | Val::Int(_) | Val::Str(_) => true,
        Val::List(items) => items.iter().all(hashable),
        Val::Map(entries) => entries.values().all(hashable),
        Val::Other(value) => {
            value.is_char()
                || value.is::<std::ops::Range<i64>>()
                || value.is::<std::ops::RangeInclusive<i64>>()
        }
        Val::Piece(_) | Val::Hex(_) | Val::Player(_) | Val::Card(_) => false,
    }
}

/// An error inside a script function or closure called at `pos`, as Rhai's call of a
/// script function gives it:
/// a system error (a limit) moved to the call, any other wrapped as having happened in the
/// closure's function.
fn in_closure(mut inner: Box<EvalAltResult>, name: &str, pos: Position) -> Flow {
    if inner.is_system_exception() {
        inner.set_position(pos);
        return Flow::Error(inner);
    }
    error(EvalAltResult::ErrorInFunctionCall(
        name.to_owned(),
        String::new(),
        inner,
        pos,
    ))
}

/// `x << y` on integers as Rhai's built-in does it (checked arithmetic): a shift past the
/// width gives 0, a negative one shifts the other way.
fn shift_left(x: i64, y: i64) -> i64 {
    if y > i64::from(u32::MAX) {
        0
    } else if y < 0 {
        shift_right(x, y.checked_abs().unwrap_or(i64::MAX))
    } else {
        u32::try_from(y)
            .ok()
            .and_then(|y| x.checked_shl(y))
            .unwrap_or(0)
    }
}

/// `x >> y` on integers as Rhai's built-in does it: a shift past the width keeps the sign
/// only, a negative one shifts the other way.
fn shift_right(x: i64, y: i64) -> i64 {
    if y > i64::from(u32::MAX) {
        x.wrapping_shr(u32::MAX)
    } else if y < 0 {
        shift_left(x, y.checked_abs().unwrap_or(i64::MAX))
    } else {
        u32::try_from(y)
            .ok()
            .and_then(|y| x.checked_shr(y))
            .unwrap_or_else(|| x.wrapping_shr(u32::MAX))
    }
}
