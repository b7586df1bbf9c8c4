//! The table of native functions: every function the host registers on the Rhai engine is
//! kept here too, by name, with its parameter types and its callable, so the compiled form
//! resolves a call once, at compile time, to an index into this table (see
//! `docs/compiler.md`).
//!
//! Registration goes through [`Registrar`], which registers each function on the engine
//! (the reference interpreter) and keeps the same function in the table: one definition
//! serves both engines.

use std::any::TypeId;
use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::value::{Entries, Val};
use rhai::{
    Array, Dynamic, Engine, EvalAltResult, Identifier, Map, NativeCallContext, RhaiFunc,
    RhaiNativeFunc, Variant,
};

/// A registered function called with its arguments borrowed (`docs/compiler.md`, "Calls
/// resolved once"): it reads each argument in place (a game id is copied out, a string's
/// count raised) instead of taking a copy the caller made, and runs the very closure the
/// Rhai registration runs.
pub(crate) type Borrowed =
    Box<dyn Fn(NativeCallContext<'_>, &[&Val]) -> Result<Val, Box<EvalAltResult>>>;

/// One registered function.
pub(crate) struct Native {
    /// Its name (`deal_damage`, `==`).
    pub(crate) name: Identifier,
    /// The type of each parameter, as Rhai matches them (`&str` and `String` read as
    /// Rhai's string; `Dynamic` takes any value).
    pub(crate) params: Vec<TypeId>,
    /// The function.
    pub(crate) func: RhaiFunc,
    /// The same function called with borrowed arguments, where its parameters allow it
    /// (none of them `&str` or `String`; not a method, but a property's getter, which
    /// reads a copy of its value).
    pub(crate) borrowed: Option<Borrowed>,
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
    pub(crate) fn accepts_at(&self, index: usize, arg: &Val) -> bool {
        self.params
            .get(index)
            .is_some_and(|param| *param == TypeId::of::<Dynamic>() || *param == arg.type_id())
    }

    /// Whether this function takes these arguments (values or references to them).
    pub(crate) fn accepts<D: Borrow<Val>>(&self, args: &[D]) -> bool {
        self.params.len() == args.len()
            && self.params.iter().zip(args).all(|(param, arg)| {
                *param == TypeId::of::<Dynamic>() || *param == arg.borrow().type_id()
            })
    }
}

/// Every function the host registered, by name.
#[derive(Default)]
pub(crate) struct Natives {
    pub(crate) list: Vec<Native>,
    /// Indexes into `list` by name and number of parameters, fewest `Dynamic` parameters
    /// first (an exact match is preferred, as Rhai prefers it).
    pub(crate) by_name: BTreeMap<(Identifier, usize), Vec<usize>>,
    /// See [`Natives::shows_integers_itself`].
    integers_shown_by_rhai: bool,
}

impl Natives {
    /// The overloads of `name` with `arity` parameters.
    pub(crate) fn overloads(&self, name: &str, arity: usize) -> Option<&[usize]> {
        self.by_name
            .get(&(Identifier::from(name), arity))
            .map(Vec::as_slice)
    }

    /// The first of `overloads` that takes these arguments (`receiver`: the value a method
    /// is called on, its first argument).
    pub(crate) fn choose<D: Borrow<Val>>(
        &self,
        overloads: &[usize],
        receiver: Option<&Val>,
        args: &[D],
    ) -> Option<usize> {
        overloads.iter().copied().find(|&index| {
            let native = &self.list[index];
            match receiver {
                Some(first) => {
                    native.params.len() == args.len() + 1
                        && native.accepts_at(0, first)
                        && args
                            .iter()
                            .enumerate()
                            .all(|(i, arg)| native.accepts_at(i + 1, arg.borrow()))
                }
                None => native.accepts(args),
            }
        })
    }

    /// Whether Rhai shows an integer in an interpolated string with its own `to_string`
    /// (found once, when the table is complete: [`Natives::settle`]).
    pub(crate) fn shows_integers_itself(&self) -> bool {
        self.integers_shown_by_rhai
    }

    /// Notes what the complete table implies for the evaluator: whether no registered
    /// `to_string` takes an integer (or any value), so Rhai's own shows integers.
    pub(crate) fn settle(&mut self) {
        self.integers_shown_by_rhai = self.overloads("to_string", 1).is_none_or(|overloads| {
            overloads.iter().all(|&index| {
                let param = self.list[index].params[0];
                param != TypeId::of::<rhai::INT>() && param != TypeId::of::<Dynamic>()
            })
        });
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
        FUNC: RhaiNativeFunc<A, N, X, R, F> + Borrowing<A, N, X, R, F> + Clone + 'static,
    {
        let borrowed = func.clone().borrowing();
        self.keep(name, func, borrowed)
    }

    /// Registers `func` as `name`, a function whose parameters and result are typed for
    /// the evaluator ([`Typed`]: lists of its values), on the engine and in the table.
    pub(crate) fn register_typed<A, R>(&mut self, name: &str, func: impl Typed<A, R>) -> &mut Self {
        func.keep_typed(self, name);
        self
    }

    /// Registers a method (its first parameter `&mut`, the value it is called on) on the
    /// engine and in the table; it is called as Rhai calls it, never with borrowed arguments.
    pub(crate) fn register_method<
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
        self.keep(name, func, None)
    }

    /// Puts `func` on the engine and in the table, with its borrowing form if it has one.
    fn keep<A: 'static, const N: usize, const X: bool, R: Variant + Clone, const F: bool, FUNC>(
        &mut self,
        name: &str,
        func: FUNC,
        borrowed: Option<Borrowed>,
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
            borrowed,
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
        // A getter reads its value: the borrowing form reads a copy of it.
        let borrowed: Borrowed = Box::new(move |_, args: &[&Val]| {
            let mut value = read::<T>(args.first().copied().unwrap_or(&Val::Unit))?;
            Ok(Val::from_native(get(&mut value)))
        });
        self.natives.add(Native {
            name: format!("get${name}").into(),
            params: vec![TypeId::of::<T>()],
            func: get.into_rhai_function(true, false),
            borrowed: Some(borrowed),
            asks: false,
        });
        self
    }
}

/// A registered closure that can be called with borrowed arguments: implemented for the
/// closures Rhai registers by value (with or without a `NativeCallContext` first, returning a
/// value or a result), up to eight parameters; the marker types are Rhai's, so one
/// registration names both.
pub(crate) trait Borrowing<A, const N: usize, const X: bool, R, const F: bool> {
    /// The closure behind a [`Borrowed`] call, or `None` where a parameter is `&str` or
    /// `String` (read only by Rhai's own casts).
    fn borrowing(self) -> Option<Borrowed>;
}

/// Whether every parameter can be read in place.
fn readable(params: &[TypeId]) -> bool {
    params
        .iter()
        .all(|t| *t != TypeId::of::<&str>() && *t != TypeId::of::<String>())
}

/// One argument read in place as `T`: a copy of a game id, integer or flag, a string with
/// its count raised, a list made as Rhai holds it ([`Val::read`]). The overload was chosen
/// by these very types, so a mismatch is never expected; it is an error, not a panic.
#[inline]
fn read<T: Variant + Clone>(arg: &Val) -> Result<T, Box<EvalAltResult>> {
    match arg.read::<T>() {
        Some(value) => Ok(value),
        None => Err(mismatch(std::any::type_name::<T>(), arg)),
    }
}

macro_rules! borrowing {
    ($n:expr; $($par:ident),*) => {
        #[allow(non_snake_case, unused_mut, unused_variables)]
        impl<FUNC, $($par: Variant + Clone,)* RET: Variant + Clone>
            Borrowing<($($par,)*), $n, false, RET, false> for FUNC
        where
            FUNC: Fn($($par),*) -> RET + 'static,
        {
            fn borrowing(self) -> Option<Borrowed> {
                if !readable(&[$(TypeId::of::<$par>()),*]) {
                    return None;
                }
                Some(Box::new(move |_, args: &[&Val]| {
                    let mut args = args.iter();
                    $(let $par = read::<$par>(args.next().copied().unwrap_or(&Val::Unit))?;)*
                    Ok(Val::from_native(self($($par),*)))
                }))
            }
        }

        #[allow(non_snake_case, unused_mut, unused_variables)]
        impl<FUNC, $($par: Variant + Clone,)* RET: Variant + Clone>
            Borrowing<($($par,)*), $n, true, RET, false> for FUNC
        where
            FUNC: for<'a> Fn(NativeCallContext<'a>, $($par),*) -> RET + 'static,
        {
            fn borrowing(self) -> Option<Borrowed> {
                if !readable(&[$(TypeId::of::<$par>()),*]) {
                    return None;
                }
                Some(Box::new(move |ctx, args: &[&Val]| {
                    let mut args = args.iter();
                    $(let $par = read::<$par>(args.next().copied().unwrap_or(&Val::Unit))?;)*
                    Ok(Val::from_native(self(ctx, $($par),*)))
                }))
            }
        }

        #[allow(non_snake_case, unused_mut, unused_variables)]
        impl<FUNC, $($par: Variant + Clone,)* RET: Variant + Clone>
            Borrowing<($($par,)*), $n, false, RET, true> for FUNC
        where
            FUNC: Fn($($par),*) -> Result<RET, Box<EvalAltResult>> + 'static,
        {
            fn borrowing(self) -> Option<Borrowed> {
                if !readable(&[$(TypeId::of::<$par>()),*]) {
                    return None;
                }
                Some(Box::new(move |_, args: &[&Val]| {
                    let mut args = args.iter();
                    $(let $par = read::<$par>(args.next().copied().unwrap_or(&Val::Unit))?;)*
                    self($($par),*).map(Val::from_native)
                }))
            }
        }

        #[allow(non_snake_case, unused_mut, unused_variables)]
        impl<FUNC, $($par: Variant + Clone,)* RET: Variant + Clone>
            Borrowing<($($par,)*), $n, true, RET, true> for FUNC
        where
            FUNC: for<'a> Fn(NativeCallContext<'a>, $($par),*) -> Result<RET, Box<EvalAltResult>>
                + 'static,
        {
            fn borrowing(self) -> Option<Borrowed> {
                if !readable(&[$(TypeId::of::<$par>()),*]) {
                    return None;
                }
                Some(Box::new(move |ctx, args: &[&Val]| {
                    let mut args = args.iter();
                    $(let $par = read::<$par>(args.next().copied().unwrap_or(&Val::Unit))?;)*
                    self(ctx, $($par),*).map(Val::from_native)
                }))
            }
        }
    };
}

borrowing!(0;);
borrowing!(1; P1);
borrowing!(2; P1, P2);
borrowing!(3; P1, P2, P3);
borrowing!(4; P1, P2, P3, P4);
borrowing!(5; P1, P2, P3, P4, P5);
borrowing!(6; P1, P2, P3, P4, P5, P6);
borrowing!(7; P1, P2, P3, P4, P5, P6, P7);
borrowing!(8; P1, P2, P3, P4, P5, P6, P7, P8);

/// A native's parameter of a type the evaluator reads itself ([`Registrar::register_typed`]):
/// how Rhai passes it (`Rhai`, the type its overload is chosen by) and how it is read from
/// either engine's value. Every Rhai type is one, read as itself.
pub(crate) trait Param: Sized + 'static {
    type Rhai: Variant + Clone;
    fn from_rhai(value: Self::Rhai) -> Self;
    fn from_val(value: &Val) -> Option<Self>;
}

impl<T: Variant + Clone> Param for T {
    type Rhai = T;

    fn from_rhai(value: T) -> T {
        value
    }

    fn from_val(value: &Val) -> Option<T> {
        value.read::<T>()
    }
}

/// A list parameter read as the evaluator's values: the compiled engine shares its list,
/// Rhai's is taken over (Rhai passes a list).
pub(crate) struct Items(pub(crate) Rc<Vec<Val>>);

impl Param for Items {
    type Rhai = Array;

    fn from_rhai(value: Array) -> Items {
        Items(Val::items_of(value))
    }

    fn from_val(value: &Val) -> Option<Items> {
        match value {
            Val::List(items) => Some(Items(Rc::clone(items))),
            _ => None,
        }
    }
}

/// A map parameter read as the evaluator's map (Rhai passes a map).
pub(crate) struct Fields(pub(crate) Rc<Entries>);

impl Param for Fields {
    type Rhai = Map;

    fn from_rhai(value: Map) -> Fields {
        Fields(Rc::new(
            value
                .into_iter()
                .map(|(key, value)| (key, Val::from_dynamic(value)))
                .collect(),
        ))
    }

    fn from_val(value: &Val) -> Option<Fields> {
        match value {
            Val::Map(entries) => Some(Fields(Rc::clone(entries))),
            _ => None,
        }
    }
}

/// A parameter that takes any value (Rhai passes a `Dynamic`), read as the evaluator's:
/// a fighter in it is not boxed as Rhai boxes one.
pub(crate) struct Arg(pub(crate) Val);

impl Param for Arg {
    type Rhai = Dynamic;

    fn from_rhai(value: Dynamic) -> Arg {
        Arg(Val::from_dynamic(value))
    }

    fn from_val(value: &Val) -> Option<Arg> {
        Some(Arg(value.clone()))
    }
}

/// A native's result of a type the evaluator takes as it is ([`Registrar::register_typed`]):
/// Rhai gets it as `Rhai`.
pub(crate) trait Returned: Sized + 'static {
    type Rhai: Variant + Clone;
    fn into_rhai(self) -> Self::Rhai;
    fn into_val(self) -> Val;
}

impl<T: Variant + Clone> Returned for T {
    type Rhai = T;

    fn into_rhai(self) -> T {
        self
    }

    fn into_val(self) -> Val {
        Val::from_native(self)
    }
}

/// A list made of the evaluator's values (Rhai gets a list).
pub(crate) struct Listed(pub(crate) Vec<Val>);

impl Listed {
    /// A list of game ids (or any values the evaluator holds as themselves).
    pub(crate) fn of<T: Into<Val>>(items: impl IntoIterator<Item = T>) -> Listed {
        // Room for as many items as the source may give (a filter's upper bound), made
        // once, rather than grown from nothing.
        let items = items.into_iter();
        let (least, most) = items.size_hint();
        let mut list = Vec::with_capacity(most.unwrap_or(least));
        list.extend(items.map(Into::into));
        Listed(list)
    }
}

impl Returned for Listed {
    type Rhai = Array;

    fn into_rhai(self) -> Array {
        self.0.into_iter().map(Val::into_dynamic).collect()
    }

    fn into_val(self) -> Val {
        Val::List(Rc::new(self.0))
    }
}

/// A registered closure whose parameters are [`Param`]s and whose result is a [`Returned`]
/// (a `NativeCallContext` first, a result returned): registered on Rhai with its parameters
/// and result as Rhai holds them, and kept in the table with a form that reads the
/// evaluator's values itself.
pub(crate) trait Typed<A, R> {
    fn keep_typed(self, registrar: &mut Registrar<'_>, name: &str);
}

/// One argument read as parameter type `P` (see [`read`]).
#[inline]
fn take<P: Param>(arg: &Val) -> Result<P, Box<EvalAltResult>> {
    match P::from_val(arg) {
        Some(value) => Ok(value),
        None => Err(mismatch(std::any::type_name::<P::Rhai>(), arg)),
    }
}

/// The error of an argument that is not of its parameter's type `expected` (never made
/// for a native chosen by its arguments' types).
#[cold]
fn mismatch(expected: &str, arg: &Val) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorMismatchDataType(
        expected.into(),
        arg.type_name().into(),
        rhai::Position::NONE,
    ))
}

macro_rules! typed {
    ($($par:ident),*) => {
        #[allow(non_snake_case, unused_mut, unused_variables)]
        impl<FUNC, $($par: Param,)* RET: Returned> Typed<($($par,)*), RET> for FUNC
        where
            FUNC: for<'a> Fn(NativeCallContext<'a>, $($par),*) -> Result<RET, Box<EvalAltResult>>
                + Clone
                + 'static,
        {
            fn keep_typed(self, registrar: &mut Registrar<'_>, name: &str) {
                let inner = self.clone();
                let on_rhai = move |ctx: NativeCallContext,
                                    $($par: <$par as Param>::Rhai),*|
                      -> Result<<RET as Returned>::Rhai, Box<EvalAltResult>> {
                    inner(ctx, $(<$par as Param>::from_rhai($par)),*).map(RET::into_rhai)
                };
                registrar.engine.register_fn(name, on_rhai.clone());
                let borrowed: Borrowed = Box::new(move |ctx, args: &[&Val]| {
                    let mut args = args.iter();
                    $(let $par = take::<$par>(args.next().copied().unwrap_or(&Val::Unit))?;)*
                    self(ctx, $($par),*).map(RET::into_val)
                });
                registrar.natives.add(Native {
                    name: name.into(),
                    params: vec![$(TypeId::of::<<$par as Param>::Rhai>()),*],
                    func: on_rhai.into_rhai_function(true, false),
                    borrowed: Some(borrowed),
                    asks: false,
                });
            }
        }
    };
}

typed!();
typed!(P1);
typed!(P1, P2);
typed!(P1, P2, P3);
typed!(P1, P2, P3, P4);
typed!(P1, P2, P3, P4, P5);
typed!(P1, P2, P3, P4, P5, P6);
