//! The state of one script run, lent to the registered functions.
//!
//! Rhai's registered functions must be `'static`, so they cannot borrow the caller's game.
//! For the length of one run, [`crate::Host`] moves the game state into a [`RunState`]
//! kept in a thread-local slot ([`RUN`]); the functions reach it there and the host takes
//! it back out when the script ends, however it ends (a drop guard restores it even if a
//! function panicked). Scripts therefore never hold the state: queries read it, effects
//! change a copy of it through [`gloam_core::Ctx`].
//!
//! The copy is made on the first effect (copy on write): a script that only reads never
//! clones the game. Its changes and events are kept only if the script finishes; an error,
//! a limit or a pending choice drops them, so the caller's game is exactly as it was.
//!
//! On Rhai, a script that asks a question runs again from the top once it is answered, and
//! everything it computed before the question is computed again (the compiled engine resumes
//! it instead: [`RunState::asked`], `crate::compiled::Suspension`). The results of the list
//! functions that take a closure (`filter`, `some`, `all`, `map`) are therefore kept in a
//! [`Memo`]: when the same script runs again against an equal state, a call with the same
//! closure, captured values and list returns the kept result instead of calling the closure
//! again (see [`crate::Host::run`] and `functions::register_lists`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use gloam_core::{Answer, Ctx, Event, GameState, Hex, PieceId, PlayerId, Position, Request};
use rhai::{
    Array, Dynamic, EvalAltResult, FnPtr, ImmutableString, NativeCallContext,
    Position as RhaiPosition,
};

use crate::world::WorldData;
use crate::{FlowRequest, FunctionKind};

/// How many conditions deep `condition_holds` may nest (a condition that checks another
/// card's condition, which checks another...): past this, the run fails rather than
/// overflowing the stack on a condition that checks itself.
pub(crate) const MAX_CONDITION_DEPTH: u32 = 8;

/// Why a registered function stopped the script.
#[derive(Debug)]
pub(crate) enum Stop {
    /// A choice has no recorded answer yet.
    Choice(Request),
    /// A simultaneous secret choice has no recorded answers yet: every request is asked at
    /// once, and the answers come back together, in the order of the requests.
    Choices(Vec<Request>),
    /// In chance mode, a roll has no outcome yet (see `gloam_core::Game::set_chance_mode`).
    Chance(Box<gloam_core::ChanceRequest>),
    /// A query or a bad argument failed.
    Failed {
        function: &'static str,
        message: String,
    },
    /// The kernel (or the effect's own check) refused an effect.
    Refused {
        function: &'static str,
        message: String,
    },
    /// An effect or choice was called from a condition.
    Impure {
        function: &'static str,
        kind: FunctionKind,
    },
}

impl Stop {
    pub(crate) fn failed(function: &'static str, message: impl Into<String>) -> Stop {
        Stop::Failed {
            function,
            message: message.into(),
        }
    }

    pub(crate) fn refused(function: &'static str, message: impl std::fmt::Display) -> Stop {
        Stop::Refused {
            function,
            message: message.to_string(),
        }
    }
}

/// Everything one run needs, owned, so the registered functions can reach it.
pub(crate) struct RunState {
    /// The game as it was before the run (moved in from the caller, or cloned).
    pub(crate) base: GameState,
    /// The game as the script's effects left it; `None` until the first effect.
    pub(crate) working: Option<GameState>,
    /// The events the effects recorded.
    pub(crate) events: Vec<Event>,
    pub(crate) world: Rc<WorldData>,
    pub(crate) acting: Option<PlayerId>,
    pub(crate) answers: Vec<Answer>,
    pub(crate) next_answer: usize,
    /// A condition: effects and choices are refused.
    pub(crate) pure: bool,
    /// The script's label, used as the source of modifiers and the purpose of rolls.
    pub(crate) label: Arc<str>,
    /// The first stop, with where it happened; sticky, so a script that catches the error
    /// cannot carry on.
    pub(crate) stop: Option<(Stop, RhaiPosition)>,
    /// What the script queued to happen after it (`then`, `play_card`, `end_game`), in order;
    /// returned only if it finishes.
    pub(crate) flow: Vec<FlowRequest>,
    /// How many card conditions are being evaluated inside this run (`condition_holds`).
    pub(crate) depth: u32,
    /// The results of list functions with a closure, kept from earlier runs of the same
    /// script against an equal state, and from this run.
    pub(crate) memo: Memo,
    /// How many memoized list functions are running (only the outermost is memoized).
    pub(crate) list_depth: u32,
    /// What the compiled engine needs to evaluate a card's condition inside this run, when
    /// the run is on the compiled engine.
    pub(crate) compiled: Option<Rc<Compiled>>,
    /// When the run stopped at a choice and the call that asked changed nothing before it
    /// asked (no event, nothing queued): the answer that call began reading at. Made again
    /// from there, the call asks the same question; the compiled engine resumes a run there
    /// ([`crate::compiled::Finish::Suspended`]).
    pub(crate) asked: Option<usize>,
    /// The terrain pieces set up in play, as `table_of` found them in this run's game, while
    /// nothing has changed it since ([`RunState::ctx`] forgets them): scripts ask for the table
    /// many times between two effects.
    pub(crate) placed: std::cell::RefCell<Option<crate::table::Placed>>,
    /// The table's scene (pieces standing, terrain, outline), as `scene_of` built it from
    /// this run's game, while nothing has changed it since ([`RunState::ctx`] forgets it).
    pub(crate) scene: std::cell::RefCell<Option<Rc<gloam_core::Scene>>>,
}

/// The compiled engine's table and limits, lent to a run.
pub(crate) struct Compiled {
    pub(crate) natives: Rc<crate::compiled::Natives>,
    pub(crate) limits: crate::Limits,
}

/// The compiled engine of the run in progress, if it runs on it.
pub(crate) fn compiled() -> Option<Rc<Compiled>> {
    with_run_raw(|run| run.compiled.clone()).flatten()
}

/// Results of the list functions that take a closure, by what they depend on: the script
/// (its label's address), whether the run is pure, the acting player, how many conditions
/// deep it is, the function, the closure (its name, a hash of its parameters and body, and
/// its captured values) and the list. They also depend on the state, which is why a memo is
/// only carried from one run to the next when the state is equal ([`crate::Host::run`]),
/// and why a result is only kept when computing it changed nothing (no effect, no choice,
/// no queued flow, no captured value or list item changed) and stopped nothing.
///
/// A result taken from the memo costs none of the operations that computing it cost, so
/// the run after an answer counts fewer operations against [`crate::Limits`] than the run
/// before it did up to the same point.
#[derive(Default)]
pub(crate) struct Memo {
    /// Each kept result, with the operations computing it counted (its closure's turns).
    entries: BTreeMap<String, (Dynamic, u64)>,
    /// The labels named (by address) in the keys, kept alive so that no other script's
    /// label can take an address a key names.
    labels: Vec<Arc<str>>,
}

impl Memo {
    /// Whether nothing is kept.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// What a memoized list function finds before it runs.
pub(crate) enum Lookup {
    /// Not memoized: no run is lent, a list function is already running, the run has
    /// changed the game or stopped, or a value cannot be part of a key.
    Skip,
    /// The kept result, and the operations computing it counted.
    Hit(Dynamic, u64),
    /// Not kept yet: compute it, then [`memo_store`] it.
    Miss(Pending),
}

/// A result being computed, and what the run looked like before.
pub(crate) struct Pending {
    key: String,
    events: usize,
    next_answer: usize,
    flow: usize,
    /// The run's operations before (`limits::budget`).
    operations: u64,
}

/// Writes `value` into a memo key; `false` if it is of a type a key cannot hold.
fn write_key(value: &Dynamic, out: &mut String) -> bool {
    use std::fmt::Write;
    if value.is_unit() {
        out.push('u');
    } else if let Some(flag) = value.read_lock::<bool>() {
        out.push(if *flag { 'T' } else { 'F' });
    } else if let Some(number) = value.read_lock::<i64>() {
        let _ = write!(out, "i{};", *number);
    } else if let Some(text) = value.read_lock::<ImmutableString>() {
        let _ = write!(out, "s{}:{}", text.len(), text.as_str());
    } else if let Some(character) = value.read_lock::<char>() {
        let _ = write!(out, "c{};", u32::from(*character));
    } else if let Some(piece) = value.read_lock::<PieceId>() {
        let _ = write!(out, "f{};", piece.0);
    } else if let Some(hex) = value.read_lock::<Hex>() {
        let _ = write!(out, "h{},{};", hex.q, hex.r);
    } else if let Some(player) = value.read_lock::<PlayerId>() {
        let _ = write!(out, "p{};", player.0);
    } else if let Some(card) = value.read_lock::<gloam_core::CardId>() {
        let _ = write!(out, "k{};", card.0);
    } else if let Some(list) = value.read_lock::<Array>() {
        let _ = write!(out, "a{}[", list.len());
        for item in list.iter() {
            if !write_key(item, out) {
                return false;
            }
        }
        out.push(']');
    } else if let Some(map) = value.read_lock::<rhai::Map>() {
        let _ = write!(out, "m{}{{", map.len());
        for (name, item) in map.iter() {
            let _ = write!(out, "{}:{}", name.len(), name.as_str());
            if !write_key(item, out) {
                return false;
            }
        }
        out.push('}');
    } else {
        return false;
    }
    true
}

/// Whether `value` is or holds a shared value (a captured variable), which a kept result
/// must not: the script could change it through another name.
fn holds_shared(value: &Dynamic) -> bool {
    if value.is_shared() {
        return true;
    }
    if let Some(list) = value.read_lock::<Array>() {
        return list.iter().any(holds_shared);
    }
    if let Some(map) = value.read_lock::<rhai::Map>() {
        return map.values().any(holds_shared);
    }
    false
}

/// The key of a list function's call, with `prefix` naming the run's script, purity and
/// acting player; `None` if a value cannot be part of a key.
fn call_key(prefix: &str, function: &str, closure: &FnPtr, list: &Array) -> Option<String> {
    let mut key = String::with_capacity(prefix.len() + 64);
    key.push_str(prefix);
    key.push_str(function);
    key.push('|');
    key.push_str(closure.fn_name());
    key.push('|');
    for value in closure.curry() {
        if !write_key(value, &mut key) {
            return None;
        }
    }
    key.push('|');
    for item in list {
        if !write_key(item, &mut key) {
            return None;
        }
    }
    Some(key)
}

impl RunState {
    fn key_prefix(&self) -> String {
        format!(
            "{:p}|{}|{:?}|{}|",
            Arc::as_ptr(&self.label).cast::<u8>(),
            self.pure,
            self.acting.map(|player| player.0),
            self.depth
        )
    }
}

/// Looks a list function's call up in the run's memo (see [`Lookup`]).
pub(crate) fn memo_lookup(function: &str, closure: &FnPtr, list: &Array) -> Lookup {
    with_run_raw(|run| {
        if run.list_depth > 0 || run.working.is_some() || run.stop.is_some() {
            return Lookup::Skip;
        }
        let Some(key) = call_key(&run.key_prefix(), function, closure, list) else {
            return Lookup::Skip;
        };
        if let Some((value, operations)) = run.memo.entries.get(&key) {
            return Lookup::Hit(value.clone(), *operations);
        }
        run.list_depth += 1;
        Lookup::Miss(Pending {
            key,
            events: run.events.len(),
            next_answer: run.next_answer,
            flow: run.flow.len(),
            operations: crate::limits::budget::used(),
        })
    })
    .unwrap_or(Lookup::Skip)
}

/// Ends a call that [`memo_lookup`] missed: keeps its result if computing it changed
/// nothing and its closure and list are as they were.
pub(crate) fn memo_store(
    pending: Pending,
    function: &str,
    closure: &FnPtr,
    list: &Array,
    result: Option<&Dynamic>,
) {
    with_run_raw(|run| {
        run.list_depth = run.list_depth.saturating_sub(1);
        let Some(result) = result else {
            return;
        };
        let unchanged = run.working.is_none()
            && run.stop.is_none()
            && run.events.len() == pending.events
            && run.next_answer == pending.next_answer
            && run.flow.len() == pending.flow;
        if !unchanged
            || holds_shared(result)
            || call_key(&run.key_prefix(), function, closure, list).as_ref() != Some(&pending.key)
        {
            return;
        }
        if !run
            .memo
            .labels
            .iter()
            .any(|label| Arc::ptr_eq(label, &run.label))
        {
            let label = run.label.clone();
            run.memo.labels.push(label);
        }
        let operations = crate::limits::budget::used().saturating_sub(pending.operations);
        run.memo
            .entries
            .insert(pending.key, (result.clone(), operations));
    });
}

/// What a run was doing before a card's condition was evaluated inside it; given back to
/// [`RunState::leave`].
pub(crate) struct Outer {
    pure: bool,
    acting: Option<PlayerId>,
    answers: Vec<Answer>,
    next_answer: usize,
    label: Arc<str>,
}

impl RunState {
    /// The game as the script sees it now.
    pub(crate) fn state(&self) -> &GameState {
        self.working.as_ref().unwrap_or(&self.base)
    }

    /// Refuses effects and choices in a condition.
    pub(crate) fn check_effect(
        &self,
        function: &'static str,
        kind: FunctionKind,
    ) -> Result<(), Stop> {
        if self.pure {
            Err(Stop::Impure { function, kind })
        } else {
            Ok(())
        }
    }

    /// A kernel context over the working copy (made now if this is the first effect).
    pub(crate) fn ctx(&mut self) -> Ctx<'_> {
        self.placed.get_mut().take();
        self.scene.get_mut().take();
        let base = &self.base;
        let working = self.working.get_or_insert_with(|| base.clone());
        Ctx::new(working, &mut self.events)
    }

    /// The acting player.
    pub(crate) fn acting(&self, function: &'static str) -> Result<PlayerId, Stop> {
        self.acting.ok_or_else(|| {
            Stop::failed(
                function,
                "no player is acting for this script (the caller gave no acting player)",
            )
        })
    }

    /// The next recorded answer to `request`, or a stop asking for it.
    pub(crate) fn choose(
        &mut self,
        function: &'static str,
        request: Request,
    ) -> Result<Answer, Stop> {
        self.check_effect(function, FunctionKind::Choice)?;
        let Some(answer) = self.answers.get(self.next_answer) else {
            return Err(Stop::Choice(request));
        };
        request.check(answer).map_err(|error| {
            Stop::failed(
                function,
                format!(
                    "recorded answer {} does not fit this choice: {error}",
                    self.next_answer + 1
                ),
            )
        })?;
        self.next_answer += 1;
        Ok(answer.clone())
    }

    /// The next recorded answers to `requests`, asked all at once (their answers are
    /// recorded together, in the order of the requests), or a stop asking for them.
    pub(crate) fn choose_all(
        &mut self,
        function: &'static str,
        requests: Vec<Request>,
    ) -> Result<Vec<Answer>, Stop> {
        self.check_effect(function, FunctionKind::Choice)?;
        let remaining = self.answers.len().saturating_sub(self.next_answer);
        if remaining == 0 {
            return Err(Stop::Choices(requests));
        }
        if remaining < requests.len() {
            return Err(Stop::failed(
                function,
                format!(
                    "{} answers are asked together but only {remaining} are recorded",
                    requests.len()
                ),
            ));
        }
        let mut answers = Vec::with_capacity(requests.len());
        for request in &requests {
            let answer = &self.answers[self.next_answer];
            request.check(answer).map_err(|error| {
                Stop::failed(
                    function,
                    format!(
                        "recorded answer {} does not fit this choice: {error}",
                        self.next_answer + 1
                    ),
                )
            })?;
            answers.push(answer.clone());
            self.next_answer += 1;
        }
        Ok(answers)
    }

    /// Turns this run into the evaluation of a condition (pure, acting for `acting`, no
    /// answers, named `label`) against the same state; [`RunState::leave`] turns it back.
    /// Nothing moves: the condition reads the state where the run keeps it.
    pub(crate) fn enter(&mut self, acting: PlayerId, label: Arc<str>) -> Outer {
        self.depth += 1;
        Outer {
            pure: std::mem::replace(&mut self.pure, true),
            acting: self.acting.replace(acting),
            answers: std::mem::take(&mut self.answers),
            next_answer: std::mem::take(&mut self.next_answer),
            label: std::mem::replace(&mut self.label, label),
        }
    }

    /// Ends the condition [`RunState::enter`] began; returns how it stopped, if it did.
    pub(crate) fn leave(&mut self, outer: Outer) -> Option<(Stop, RhaiPosition)> {
        self.depth = self.depth.saturating_sub(1);
        self.pure = outer.pure;
        self.acting = outer.acting;
        self.answers = outer.answers;
        self.next_answer = outer.next_answer;
        self.label = outer.label;
        self.stop.take()
    }

    /// The hex a piece stands in; `None` off the battlefield; an error if there is no such
    /// piece.
    pub(crate) fn piece_hex(
        &self,
        function: &'static str,
        piece: PieceId,
    ) -> Result<Option<Hex>, Stop> {
        let entry = self
            .state()
            .piece(piece)
            .ok_or_else(|| Stop::failed(function, format!("there is no {piece}")))?;
        Ok(entry.position.and_then(Position::hex))
    }
}

thread_local! {
    /// The run in progress on this thread, if any.
    /// Boxed: a run moves in and out of this slot once per run, and a `RunState` (two
    /// game states) is large to copy.
    static RUN: RefCell<Option<Box<RunState>>> = const { RefCell::new(None) };
}

/// Lends `run` to the registered functions; gives it back if a run is already in progress
/// on this thread (scripts never run inside scripts).
pub(crate) fn install(run: Box<RunState>) -> Result<(), Box<RunState>> {
    RUN.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) if slot.is_none() => {
            *slot = Some(run);
            Ok(())
        }
        _ => Err(run),
    })
}

/// Takes the run back.
pub(crate) fn take() -> Option<Box<RunState>> {
    RUN.with(|cell| cell.try_borrow_mut().ok().and_then(|mut slot| slot.take()))
}

/// The error a registered function returns to stop the script. `ErrorTerminated` is one
/// that `try`/`catch` cannot catch; where Rhai wraps it anyway (inside a closure given to
/// `filter`), the sticky [`RunState::stop`] still wins.
fn terminated(position: RhaiPosition) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorTerminated(Dynamic::UNIT, position))
}

/// Runs `body` with the run in progress; a [`Stop`] is recorded and stops the script.
pub(crate) fn with_run<T>(
    ctx: &NativeCallContext,
    function: &'static str,
    body: impl FnOnce(&mut RunState) -> Result<T, Stop>,
) -> Result<T, Box<EvalAltResult>> {
    let position = ctx.call_position();
    RUN.with(|cell| {
        let Ok(mut slot) = cell.try_borrow_mut() else {
            return Err(terminated(position));
        };
        let Some(run) = slot.as_mut() else {
            return Err(Box::new(EvalAltResult::ErrorRuntime(
                format!("`{function}` needs a game, and none is lent to this script").into(),
                position,
            )));
        };
        if run.stop.is_some() {
            return Err(terminated(position));
        }
        let (events, flow, next_answer) = (run.events.len(), run.flow.len(), run.next_answer);
        body(run).map_err(|stop| {
            if matches!(stop, Stop::Choice(_))
                && run.events.len() == events
                && run.flow.len() == flow
            {
                run.asked = Some(next_answer);
            }
            run.stop = Some((stop, position));
            terminated(position)
        })
    })
}

/// Whether the run in progress stopped at a choice that the call which asked can ask again
/// ([`RunState::asked`]).
pub(crate) fn stopped_to_ask() -> bool {
    with_run_raw(|run| run.asked.is_some() && matches!(run.stop, Some((Stop::Choice(_), _))))
        .unwrap_or(false)
}

/// Runs `body` with the run in progress even if it has stopped (to end a nested condition
/// whose stop must be read); `None` if no run is lent.
pub(crate) fn with_run_raw<T>(body: impl FnOnce(&mut RunState) -> T) -> Option<T> {
    RUN.with(|cell| cell.try_borrow_mut().ok()?.as_deref_mut().map(body))
}

/// Puts the run in progress back as it was before its script began (no effect, no event,
/// no answer taken, nothing queued, no stop), for the interpreter to run the script again
/// after the compiled evaluator gave up on it.
pub(crate) fn restart() {
    with_run_raw(|run| {
        run.working = None;
        run.placed.get_mut().take();
        run.scene.get_mut().take();
        run.events.clear();
        run.next_answer = 0;
        run.flow.clear();
        run.stop = None;
        run.list_depth = 0;
        run.asked = None;
    });
}

/// Records `stop` as the run's stop at the call's position, and the error that ends the
/// script.
pub(crate) fn stop_run(ctx: &NativeCallContext, stop: Stop) -> Box<EvalAltResult> {
    let position = ctx.call_position();
    with_run_raw(|run| {
        if run.stop.is_none() {
            run.stop = Some((stop, position));
        }
    });
    terminated(position)
}

/// Takes the run back out of the thread-local slot when dropped, and puts the caller's
/// state back if it was moved in: this covers a panic inside a registered function or in
/// Rhai. On the normal path [`RestoreGuard::finish`] hands both over first.
pub(crate) struct RestoreGuard<'a> {
    /// The caller's state, when it was moved into the run (rather than cloned).
    caller: Option<&'a mut GameState>,
}

impl<'a> RestoreGuard<'a> {
    pub(crate) fn new(caller: Option<&'a mut GameState>) -> RestoreGuard<'a> {
        RestoreGuard { caller }
    }

    /// The run, taken back, and the caller's state to write the result into.
    pub(crate) fn finish(mut self) -> (Option<Box<RunState>>, Option<&'a mut GameState>) {
        (take(), self.caller.take())
    }
}

impl Drop for RestoreGuard<'_> {
    fn drop(&mut self) {
        if let Some(run) = take() {
            if let Some(caller) = self.caller.take() {
                *caller = run.base;
            }
        }
    }
}
