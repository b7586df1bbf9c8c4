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
