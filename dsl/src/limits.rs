//! The sandbox's limits.

/// How much one script run may do before the host stops it.
///
/// A runaway script (an endless loop, deep recursion, a string or list that keeps growing)
/// stops with a `gloam::dsl::limit_exceeded` diagnostic and changes nothing. The defaults
/// are far above what a card needs and far below what could slow a game down.
///
/// # Examples
///
/// ```
/// use gloam_dsl::{Host, Limits};
/// let limits = Limits { operations: 10_000, ..Limits::default() };
/// let host = Host::with_limits(limits);
/// assert_eq!(host.limits().operations, 10_000);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Operations (expressions evaluated, loop turns, calls) in one run.
    pub operations: u64,
    /// Nested calls of script-defined functions.
    pub call_depth: usize,
    /// Nesting of expressions at the top level of a script (checked when compiling).
    pub expression_depth: usize,
    /// Nesting of expressions inside a script-defined function (checked when compiling).
    pub function_expression_depth: usize,
    /// Characters in one string.
    pub string_size: usize,
    /// Items in one list.
    pub array_size: usize,
    /// Entries in one map.
    pub map_size: usize,
    /// Variables alive at once.
    pub variables: usize,
    /// Functions a script may define.
    pub functions: usize,
    /// Bytes of one script's text (checked when compiling). The largest shipped script is
    /// about 7 KB; the limit keeps checking fast, since parsing a script grows faster than
    /// its length (Rhai looks each variable up among those declared before it).
    pub script_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            operations: 100_000,
            call_depth: 32,
            expression_depth: 64,
            function_expression_depth: 32,
            string_size: 4_096,
            array_size: 1_024,
            map_size: 256,
            variables: 256,
            functions: 128,
            script_bytes: 65_536,
        }
    }
}

/// The operations limit of a run, counted over everything the run does (`docs/dsl.md`,
/// "Limits"). Rhai counts a closure's turns inside a list function (`filter`, `map`...)
/// and what `contains` compares on a copy of the run's count, which it drops after each
/// turn: on its own it would let each turn of a closure go up to the limit, a thousand
/// turns a thousand times the limit. Its progress callback counts here every operation it
/// does, on a copy or not, against the run's limit; the compiled engine counts the same
/// operations itself, and here those of Rhai's functions it calls.
pub(crate) mod budget {
    use std::cell::Cell;

    use rhai::Dynamic;

    /// What a run has used of its operations.
    #[derive(Clone, Copy)]
    struct Budget {
        used: u64,
        max: u64,
        active: bool,
    }

    thread_local! {
        static BUDGET: Cell<Budget> = const {
            Cell::new(Budget { used: 0, max: 0, active: false })
        };
    }

    /// The token of the error that ends a run past its operations (`ErrorTerminated`,
    /// which `try` cannot catch).
    pub(crate) const SPENT: &str = "gloam: the run's operations are spent";

    /// Counts one operation; the token ending the run when it is one past the limit. Rhai's
    /// progress callback.
    pub(crate) fn tick() -> Option<Dynamic> {
        BUDGET.with(|cell| {
            let mut budget = cell.get();
            if !budget.active {
                return None;
            }
            budget.used += 1;
            cell.set(budget);
            (budget.used > budget.max).then(|| Dynamic::from(SPENT))
        })
    }

    /// The operations the run has used; 0 outside a counted run.
    pub(crate) fn used() -> u64 {
        BUDGET.with(|cell| {
            let budget = cell.get();
            if budget.active { budget.used } else { 0 }
        })
    }

    /// Counts `operations` at once: the closure turns of a list function's result kept
    /// from an earlier run of the same script (`runtime::Memo`), which a run that computed
    /// it would have counted. `false` when they take the run past its limit.
    pub(crate) fn spend(operations: u64) -> bool {
        BUDGET.with(|cell| {
            let mut budget = cell.get();
            if !budget.active {
                return true;
            }
            budget.used = budget.used.saturating_add(operations);
            cell.set(budget);
            budget.used <= budget.max
        })
    }

    /// Whether `token`, of an `ErrorTerminated`, says the operations are spent.
    pub(crate) fn is_spent(token: &Dynamic) -> bool {
        token
            .read_lock::<rhai::ImmutableString>()
            .is_some_and(|text| text.as_str() == SPENT)
    }

    /// Runs `body` counting against a budget of `max` operations of which `used` are used,
    /// and gives the count after it; the budget before is put back after, so runs nest.
    pub(crate) fn counting<R>(used: u64, max: u64, body: impl FnOnce() -> R) -> (R, u64) {
        struct Restore(Budget);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0;
                BUDGET.with(|cell| cell.set(previous));
            }
        }
        let previous = BUDGET.with(|cell| {
            cell.replace(Budget {
                used,
                max,
                active: true,
            })
        });
        let restore = Restore(previous);
        let result = body();
        let used = BUDGET.with(|cell| cell.get().used);
        drop(restore);
        (result, used)
    }
}
