//! The table of native functions: every function the host registers on the Rhai engine is
//! kept here too, by name, with its parameter types and its callable, so the compiled form
//! resolves a call once, at compile time, to an index into this table (see
//! `docs/compiler.md`).
//!
//! Registration goes through [`Registrar`], which registers each function on the engine
//! (the reference interpreter) and keeps the same function in the table: one definition
//! serves both engines.

use std::any::TypeId;
use std::collections::BTreeMap;

use rhai::{Dynamic, Engine, Identifier, RhaiFunc, RhaiNativeFunc, Variant};

/// One registered function.
pub(crate) struct Native {
    /// Its name (`deal_damage`, `==`).
    pub(crate) name: Identifier,
    /// The type of each parameter, as Rhai matches them (`&str` and `String` read as
    /// Rhai's string; `Dynamic` takes any value).
    pub(crate) params: Vec<TypeId>,
    /// The function.
    pub(crate) func: RhaiFunc,
    /// It may ask a player (a choice, or an effect that asks): a call of it keeps its
    /// arguments, to be made again when a run suspended at its question resumes.
    pub(crate) asks: bool,
}

impl Native {
    /// How many parameters accept any value.
    fn dynamic_params(&self) -> usize {
        self.params
            .iter()
            .filter(|t| **t == TypeId::of::<Dynamic>())
            .count()
    }

    /// Whether parameter `index` takes `arg`.
    pub(crate) fn accepts_at(&self, index: usize, arg: &Dynamic) -> bool {
        self.params
            .get(index)
            .is_some_and(|param| *param == TypeId::of::<Dynamic>() || *param == arg.type_id())
    }

    /// Whether this function takes these arguments.
    pub(crate) fn accepts(&self, args: &[Dynamic]) -> bool {
        self.params.len() == args.len()
            && self
                .params
                .iter()
                .zip(args)
                .all(|(param, arg)| *param == TypeId::of::<Dynamic>() || *param == arg.type_id())
    }
}

/// Every function the host registered, by name.
#[derive(Default)]
pub(crate) struct Natives {
    pub(crate) list: Vec<Native>,
    /// Indexes into `list` by name and number of parameters, fewest `Dynamic` parameters
    /// first (an exact match is preferred, as Rhai prefers it).
    pub(crate) by_name: BTreeMap<(Identifier, usize), Vec<usize>>,
}

impl Natives {
    /// The overloads of `name` with `arity` parameters.
    pub(crate) fn overloads(&self, name: &str, arity: usize) -> Option<&[usize]> {
        self.by_name
            .get(&(Identifier::from(name), arity))
            .map(Vec::as_slice)
    }

    /// Marks the functions that may ask a player (`asks` says which names).
    pub(crate) fn mark_askers(&mut self, asks: impl Fn(&str) -> bool) {
        for native in &mut self.list {
            native.asks = asks(native.name.as_str());
        }
    }

    fn add(&mut self, native: Native) {
        let key = (native.name.clone(), native.params.len());
        let index = self.list.len();
        self.list.push(native);
        let list = &self.list;
        let entry = self.by_name.entry(key).or_default();
        // A later registration of the same signature replaces the earlier one in Rhai.
        entry.retain(|&other| list[other].params != list[index].params);
        entry.push(index);
        entry.sort_by_key(|&i| list[i].dynamic_params());
    }
}

/// Registers functions on the engine and keeps them in the table.
pub(crate) struct Registrar<'a> {
    engine: &'a mut Engine,
    natives: &'a mut Natives,
}

impl<'a> Registrar<'a> {
    pub(crate) fn new(engine: &'a mut Engine, natives: &'a mut Natives) -> Registrar<'a> {
        Registrar { engine, natives }
    }

    /// The engine, for registrations the table does not keep (the list functions that take
    /// a closure, which the compiled form lowers to loops).
    pub(crate) fn engine(&mut self) -> &mut Engine {
        self.engine
    }

    /// Registers `func` as `name` on the engine and in the table.
    pub(crate) fn register_fn<
        A: 'static,
        const N: usize,
        const X: bool,
        R: Variant + Clone,
        const F: bool,
        FUNC,
    >(
        &mut self,
        name: &str,
        func: FUNC,
    ) -> &mut Self
    where
        FUNC: RhaiNativeFunc<A, N, X, R, F> + Clone + 'static,
    {
        self.engine.register_fn(name, func.clone());
        let func = func.into_rhai_function(true, false);
        let method = func.is_method();
        let params = FUNC::param_types()
            .iter()
            .enumerate()
            .map(|(i, t)| {
                if method && i == 0 {
                    *t
                } else if *t == TypeId::of::<&str>() || *t == TypeId::of::<String>() {
                    TypeId::of::<rhai::ImmutableString>()
                } else {
                    *t
                }
            })
            .collect();
        self.natives.add(Native {
            name: name.into(),
            params,
            func,
            asks: false,
        });
        self
    }

    /// Registers a type's name on the engine.
    pub(crate) fn register_type_with_name<T: Variant + Clone>(&mut self, name: &str) -> &mut Self {
        self.engine.register_type_with_name::<T>(name);
        self
    }

    /// Registers a property getter on the engine and in the table (as `get$name`, the name
    /// Rhai gives it).
    pub(crate) fn register_get<T: Variant + Clone, R: Variant + Clone>(
        &mut self,
        name: &str,
        get: fn(&mut T) -> R,
    ) -> &mut Self {
        self.engine.register_get(name, get);
        self.natives.add(Native {
            name: format!("get${name}").into(),
            params: vec![TypeId::of::<T>()],
            func: get.into_rhai_function(true, false),
            asks: false,
        });
        self
    }
}
