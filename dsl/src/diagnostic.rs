//! Diagnostics: every problem with a script, found at compile time or while it runs.

use std::sync::Arc;

use miette::{NamedSource, SourceSpan};

use crate::source::{LineMap, ScriptSource, word_len};
use crate::vocabulary::NameKind;

/// A problem with a script, labelled in the file that holds it.
///
/// Compile-time problems (syntax, unknown function, wrong number of arguments, unknown
/// variable, decimal number, effect in a condition, unknown name, expression too deep) come from
/// [`crate::Host::compile`], all of them at once; run-time problems (a limit reached, a bad
/// argument, an effect the kernel refused) from [`crate::Host::run`] and
/// [`crate::Host::evaluate_bool`], which name the script.
///
/// Each kind has a stable code, `gloam::dsl::<name>`, listed by [`list_codes`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[non_exhaustive]
pub enum DslDiagnostic {
    /// The script is not valid Rhai.
    #[error("{message}")]
    #[diagnostic(code(gloam::dsl::syntax))]
    Syntax {
        /// What is wrong, in plain words.
        message: String,
        /// The file.
        #[source_code]
        src: Arc<NamedSource<Arc<str>>>,
        /// Where.
        #[label("here")]
        span: SourceSpan,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// A call to a function the vocabulary does not have.
    #[error("unknown function `{name}`")]
    #[diagnostic(code(gloam::dsl::unknown_function))]
    UnknownFunction {
        /// The name called.
        name: String,
        /// The file.
        #[source_code]
        src: Arc<NamedSource<Arc<str>>>,
        /// Where.
        #[label("not a gloam function")]
        span: SourceSpan,
        /// A suggestion.
        #[help]
        help: Option<String>,
    },
    /// A call with the wrong number of arguments.
    #[error("`{name}` takes {expected}; this call gives {found}")]
    #[diagnostic(code(gloam::dsl::wrong_arity))]
    WrongArity {
        /// The function.
        name: String,
        /// The numbers of arguments it takes, in words.
        expected: String,
        /// How many the call gives.
        found: usize,
        /// The file.
        #[source_code]
        src: Arc<NamedSource<Arc<str>>>,
        /// Where.
        #[label("called here")]
        span: SourceSpan,
        /// The function's signature(s).
        #[help]
        help: Option<String>,
    },
    /// A variable that is neither declared by the script nor given by its context.
    #[error("unknown variable `{name}`")]
    #[diagnostic(code(gloam::dsl::undefined_variable))]
    UndefinedVariable {
        /// The name.
        name: String,
        /// The file.
        #[source_code]
        src: Arc<NamedSource<Arc<str>>>,
        /// Where.
        #[label("not defined here")]
        span: SourceSpan,
        /// The variables this script may use, or a suggestion.
        #[help]
        help: Option<String>,
    },
    /// A number with a decimal point.
    #[error("`{text}` is not a whole number")]
    #[diagnostic(code(gloam::dsl::decimal_number))]
    DecimalNumber {
        /// The number as written.
        text: String,
        /// The file.
        #[source_code]
        src: Arc<NamedSource<Arc<str>>>,
        /// Where.
        #[label("decimal number")]
        span: SourceSpan,
        /// What to write instead.
        #[help]
        help: Option<String>,
    },
    /// A condition that would change the game or ask a player.
    #[error("`{name}` {what}, and a condition may only look at the game")]
    #[diagnostic(code(gloam::dsl::effect_in_condition))]
    EffectInCondition {
        /// The function.
        name: String,
        /// What it does (`changes the game`, `asks a player`).
        what: String,
        /// The file.
        #[source_code]
        src: Arc<NamedSource<Arc<str>>>,
        /// Where.
        #[label("not allowed in a condition")]
        span: SourceSpan,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// A name written as a string literal where the vocabulary expects a token, keyword,
    /// characteristic, counter, hex type, timing window or event, zone or die, that the
    /// ruleset does not declare.
    #[error("unknown {kind} `{name}`")]
    #[diagnostic(code(gloam::dsl::unknown_name))]
    UnknownName {
        /// The name written.
        name: String,
        /// What kind of name was expected (shown in words: `token`, `hex type`).
        kind: NameKind,
        /// The function given it.
        function: String,
        /// The file.
        #[source_code]
        src: Arc<NamedSource<Arc<str>>>,
        /// Where: the text inside the quotes.
        #[label("`{function}` expects a {kind} the ruleset declares")]
        span: SourceSpan,
        /// The closest declared name, or a few of them.
        #[help]
        help: Option<String>,
    },
    /// A sandbox limit was reached: operations, call depth, expression depth, string, array
    /// or map size.
    #[error("{script} went past the limit on {limit} ({max})")]
    #[diagnostic(code(gloam::dsl::limit_exceeded))]
    LimitExceeded {
        /// The script (`card "Sidestep" effect`).
        script: String,
        /// Which limit (`operations`, `call depth`, `expression depth`, `string size`,
        /// `array size`, `map size`, `variables`, `functions`).
        limit: String,
        /// The limit's value.
        max: u64,
        /// The file.
        #[source_code]
        src: Arc<NamedSource<Arc<str>>>,
        /// Where.
        #[label("stopped here")]
        span: SourceSpan,
        /// Why the limit exists.
        #[help]
        help: Option<String>,
    },
    /// The script failed while running: a bad argument, a failed query, a `throw`.
    #[error("{script} failed: {message}")]
    #[diagnostic(code(gloam::dsl::runtime_error))]
    RuntimeError {
        /// The script.
        script: String,
        /// What went wrong.
        message: String,
        /// The file.
        #[source_code]
        src: Arc<NamedSource<Arc<str>>>,
        /// Where.
        #[label("failed here")]
        span: SourceSpan,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// The kernel refused an effect (an unknown fighter, a negative amount, a missing zone).
    #[error("{script}: `{function}` was refused: {message}")]
    #[diagnostic(code(gloam::dsl::refused_effect))]
    RefusedEffect {
        /// The script.
        script: String,
        /// The effect function.
        function: String,
        /// Why the kernel refused it.
        message: String,
        /// The file.
        #[source_code]
        src: Arc<NamedSource<Arc<str>>>,
        /// Where.
        #[label("refused here")]
        span: SourceSpan,
        /// What happens to the game.
        #[help]
        help: Option<String>,
    },
}

/// Every diagnostic code with a one-line meaning, in a stable order.
///
/// # Examples
///
/// ```
/// let codes = gloam_dsl::list_codes();
/// assert!(codes.iter().any(|(code, _)| *code == "gloam::dsl::unknown_function"));
/// ```
pub fn list_codes() -> &'static [(&'static str, &'static str)] {
    &[
        ("gloam::dsl::syntax", "the script is not valid Rhai"),
        (
            "gloam::dsl::unknown_function",
            "a call to a function that is not in the vocabulary",
        ),
        (
            "gloam::dsl::wrong_arity",
            "a call with the wrong number of arguments",
        ),
        (
            "gloam::dsl::undefined_variable",
            "a variable the script neither declares nor receives from its context",
        ),
        (
            "gloam::dsl::decimal_number",
            "a number with a decimal point: rules are integer",
        ),
        (
            "gloam::dsl::effect_in_condition",
            "a condition that calls an effect or a choice",
        ),
        (
            "gloam::dsl::unknown_name",
            "a token, keyword, characteristic, counter, hex type, window or event, zone or die written in a script that the ruleset does not declare",
        ),
        (
            "gloam::dsl::limit_exceeded",
            "a sandbox limit was reached (operations, call depth, expression depth, string, array or map size, script size)",
        ),
        (
            "gloam::dsl::runtime_error",
            "the script failed while running (bad argument, failed query, throw)",
        ),
        (
            "gloam::dsl::refused_effect",
            "the kernel refused an effect; the game is unchanged",
        ),
    ]
}

impl DslDiagnostic {
    /// The stable code, `gloam::dsl::<name>`.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_dsl::{Host, ScriptContext, ScriptSource};
    /// let host = Host::new();
    /// let errors = host
    ///     .compile(&ScriptSource::whole("x", "fightrs()"), &ScriptContext::effect("x"))
    ///     .unwrap_err();
    /// assert_eq!(errors[0].code_name(), "gloam::dsl::unknown_function");
    /// ```
    pub fn code_name(&self) -> &'static str {
        match self {
            DslDiagnostic::Syntax { .. } => "gloam::dsl::syntax",
            DslDiagnostic::UnknownFunction { .. } => "gloam::dsl::unknown_function",
            DslDiagnostic::WrongArity { .. } => "gloam::dsl::wrong_arity",
            DslDiagnostic::UndefinedVariable { .. } => "gloam::dsl::undefined_variable",
            DslDiagnostic::DecimalNumber { .. } => "gloam::dsl::decimal_number",
            DslDiagnostic::EffectInCondition { .. } => "gloam::dsl::effect_in_condition",
            DslDiagnostic::UnknownName { .. } => "gloam::dsl::unknown_name",
            DslDiagnostic::LimitExceeded { .. } => "gloam::dsl::limit_exceeded",
            DslDiagnostic::RuntimeError { .. } => "gloam::dsl::runtime_error",
            DslDiagnostic::RefusedEffect { .. } => "gloam::dsl::refused_effect",
        }
    }

    /// For a free table point a choice checked and refused (`choose_move`, `choose_setup`):
    /// the request's kind, the answer in words and the reason, which a rules driver reports
    /// as the kernel's `RuleError::AnswerRefused` (the request stays pending).
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_dsl::{Host, ScriptContext, ScriptSource};
    /// let host = Host::new();
    /// let errors = host
    ///     .compile(&ScriptSource::whole("x", "fightrs()"), &ScriptContext::effect("x"))
    ///     .unwrap_err();
    /// assert_eq!(errors[0].refused_answer(), None);
    /// ```
    pub fn refused_answer(&self) -> Option<(&str, &str, &str)> {
        let DslDiagnostic::RefusedEffect {
            function, message, ..
        } = self
        else {
            return None;
        };
        if !crate::table::POINT_CHOICES.contains(&function.as_str()) {
            return None;
        }
        let (answer, reason) = message.split_once(crate::table::WAS_REFUSED)?;
        answer
            .starts_with("point (")
            .then_some((function.as_str(), answer, reason))
    }

    /// The labelled byte range in the file.
    pub fn span(&self) -> std::ops::Range<usize> {
        let span = match self {
            DslDiagnostic::Syntax { span, .. }
            | DslDiagnostic::UnknownFunction { span, .. }
            | DslDiagnostic::WrongArity { span, .. }
            | DslDiagnostic::UndefinedVariable { span, .. }
            | DslDiagnostic::DecimalNumber { span, .. }
            | DslDiagnostic::EffectInCondition { span, .. }
            | DslDiagnostic::UnknownName { span, .. }
            | DslDiagnostic::LimitExceeded { span, .. }
            | DslDiagnostic::RuntimeError { span, .. }
            | DslDiagnostic::RefusedEffect { span, .. } => span,
        };
        span.offset()..span.offset() + span.len()
    }

    /// The help line, if any.
    pub fn help_text(&self) -> Option<&str> {
        match self {
            DslDiagnostic::Syntax { help, .. }
            | DslDiagnostic::UnknownFunction { help, .. }
            | DslDiagnostic::WrongArity { help, .. }
            | DslDiagnostic::UndefinedVariable { help, .. }
            | DslDiagnostic::DecimalNumber { help, .. }
            | DslDiagnostic::EffectInCondition { help, .. }
            | DslDiagnostic::UnknownName { help, .. }
            | DslDiagnostic::LimitExceeded { help, .. }
            | DslDiagnostic::RuntimeError { help, .. }
            | DslDiagnostic::RefusedEffect { help, .. } => help.as_deref(),
        }
    }
}

/// What every diagnostic about one script needs: its file and the position map.
#[derive(Clone, Debug)]
pub(crate) struct Site {
    pub(crate) source: ScriptSource,
    pub(crate) lines: LineMap,
    /// The file as diagnostics show it, shared by every diagnostic about this script.
    named: Arc<NamedSource<Arc<str>>>,
}

impl Site {
    pub(crate) fn new(source: &ScriptSource) -> Site {
        Site {
            source: source.clone(),
            lines: LineMap::new(source),
            named: Arc::new(NamedSource::new(
                &source.file_name,
                source.file_text.clone(),
            )),
        }
    }

    pub(crate) fn named_source(&self) -> Arc<NamedSource<Arc<str>>> {
        self.named.clone()
    }

    /// The file offset of a script position (line and column from 1).
    ///
    /// A position at or past the end of the script (an unclosed call) is moved back to just
    /// after its last visible character, so the label sits where the text stops.
    pub(crate) fn offset(&self, line: Option<usize>, column: Option<usize>) -> usize {
        let offset = self.lines.offset(&self.source.file_text, line, column);
        let end = self.source.start + self.source.text().len();
        if offset >= end {
            self.source.start + self.source.text().trim_end().len()
        } else {
            offset
        }
    }

    /// A span covering the word at a script position.
    pub(crate) fn word_span(&self, line: Option<usize>, column: Option<usize>) -> SourceSpan {
        let offset = self.offset(line, column);
        let end = self.source.start + self.source.text().len();
        let len = word_len(&self.source.file_text, offset, end);
        SourceSpan::new(offset.into(), len)
    }

    /// A span of `len` bytes at a file offset.
    pub(crate) fn span_at(&self, offset: usize, len: usize) -> SourceSpan {
        SourceSpan::new(offset.into(), len)
    }
}
