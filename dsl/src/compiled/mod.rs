//! The compiled form of scripts: checked Rhai scripts lowered to gloam's own typed form and
//! run by gloam's own evaluator (see `docs/compiler.md`).
//!
//! Rhai stays the language and the reference: it parses, the checker checks, and its
//! interpreter runs every script the lowering does not cover ([`Lowered::Refused`]) and
//! every run the evaluator gives up on ([`eval::Finish::Bail`]).

mod eval;
mod ir;
mod lower;
mod natives;
mod value;

use std::rc::Rc;

use rhai::{AST, Engine};

pub(crate) use eval::{Finish, Lines, Suspension};
pub(crate) use natives::{Arg, Fields, Items, Listed, Natives, Registrar};
pub(crate) use value::{Entries, Val};

use crate::Limits;

/// Which engine runs scripts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ScriptEngine {
    /// Rhai's interpreter (the reference every game is compared against).
    Rhai,
    /// gloam's evaluator of the compiled form (the default), falling back to Rhai per
    /// script where the compiled form does not cover it ([`crate::Script::fallback`]).
    #[default]
    Compiled,
}

impl ScriptEngine {
    /// The engine a new [`crate::Host`] starts with: the one the environment variable
    /// `GLOAM_SCRIPT_ENGINE` names (`rhai` or `compiled`), else the compiled engine. It lets
    /// a whole test suite or a host run on Rhai, the reference, without a change of code.
    pub fn from_env() -> ScriptEngine {
        std::env::var("GLOAM_SCRIPT_ENGINE")
            .ok()
            .and_then(|name| name.parse().ok())
            .unwrap_or_default()
    }

    /// The name used on the command line (`rhai`, `compiled`).
    pub fn name(self) -> &'static str {
        match self {
            ScriptEngine::Rhai => "rhai",
            ScriptEngine::Compiled => "compiled",
        }
    }
}

impl std::str::FromStr for ScriptEngine {
    type Err = String;

    fn from_str(text: &str) -> Result<ScriptEngine, String> {
        match text {
            "rhai" => Ok(ScriptEngine::Rhai),
            "compiled" => Ok(ScriptEngine::Compiled),
            other => Err(format!(
                "no script engine named `{other}` (engines: rhai, compiled)"
            )),
        }
    }
}

/// A script's compiled form, or why it has none.
#[derive(Clone, Debug)]
pub(crate) enum Lowered {
    Program(Rc<ir::Program>),
    Refused(Rc<str>),
}

/// Lowers a checked, optimised script whose variables are `variables`.
pub(crate) fn lower(ast: &AST, variables: &[String], natives: &Natives) -> Lowered {
    match lower::lower(ast, variables, natives) {
        Ok(program) => Lowered::Program(Rc::new(program)),
        Err(why) => Lowered::Refused(why.into()),
    }
}

/// Runs a compiled script.
pub(crate) fn run(
    program: &ir::Program,
    engine: &Engine,
    natives: &Natives,
    limits: &Limits,
    variables: impl ExactSizeIterator<Item = Val>,
) -> Finish {
    eval::run(program, engine, natives, limits, variables)
}

/// Carries on a compiled run that stopped at a choice, from the call that asked.
pub(crate) fn resume(
    program: &ir::Program,
    engine: &Engine,
    natives: &Natives,
    limits: &Limits,
    suspension: Suspension,
) -> Finish {
    eval::resume(program, engine, natives, limits, suspension)
}

#[cfg(test)]
mod tests {
    use crate::{Host, ScriptContext, ScriptSource};

    fn fallback(text: &str, variables: &[&str]) -> Option<String> {
        let host = Host::new();
        let context = ScriptContext::effect("test").with_variables(variables.iter().copied());
        let script = host
            .compile(&ScriptSource::whole("test.gloam", text), &context)
            .unwrap_or_else(|e| panic!("{e:?}"));
        script.fallback().map(str::to_owned)
    }

    #[test]
    fn a_closure_capturing_a_local_is_lowered() {
        assert_eq!(
            fallback(
                "let v = 2; let left = [1, 2, 3]; left.filter(|e| e != v)",
                &[]
            ),
            None
        );
    }
}
