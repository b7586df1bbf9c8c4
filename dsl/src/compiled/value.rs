//! The evaluator's own values (`docs/compiler.md`, "The evaluator's own values"): a game
//! id is held as itself, not boxed twice inside a Rhai `Dynamic`, and a list or a map is
//! shared until it is changed, so copying a value never allocates.
//!
//! A value meets Rhai's `Dynamic` only where the evaluator hands it to Rhai (its standard
//! library, a native called as Rhai calls it, the script's result) or takes one from it.
//! Both ways keep the value as it was: a script sees the same values, types and errors on
//! either engine. Rhai's tags are not kept: the sandbox registers no way for a script to
//! read or set one, so every value's tag is 0.

use std::any::{Any, TypeId};
use std::collections::BTreeMap;
use std::rc::Rc;

use gloam_core::{CardId, Hex, PieceId, PlayerId, Value};
use rhai::{Array, Dynamic, INT, Identifier, ImmutableString, Map, Variant};

/// A map's entries, in Rhai's order (by key).
pub(crate) type Entries = BTreeMap<Identifier, Val>;

/// A value of a compiled run.
#[derive(Clone, Debug, Default)]
pub(crate) enum Val {
    #[default]
    Unit,
    Bool(bool),
    Int(INT),
    Str(ImmutableString),
    Piece(PieceId),
    Hex(Hex),
    Player(PlayerId),
    Card(CardId),
    /// A list, shared until one of its holders changes it (`Rc::make_mut`).
    List(Rc<Vec<Val>>),
    /// A map, shared as a list is.
    Map(Rc<Entries>),
    /// Any other value (a range, a character, a point of the table, a function pointer),
    /// as Rhai holds it.
    Other(Box<Dynamic>),
}

impl Val {
    /// A value of Rhai's, taken over (a variable a closure shares is read).
    pub(crate) fn from_dynamic(value: Dynamic) -> Val {
        let value = if value.is_shared() {
            value.flatten_clone()
        } else {
            value
        };
        if value.is_unit() {
            return Val::Unit;
        }
        if value.is_int() {
            return value.as_int().map_or(Val::Unit, Val::Int);
        }
        if value.is_bool() {
            return value.as_bool().map_or(Val::Unit, Val::Bool);
        }
        if value.is_string() {
            return value.into_immutable_string().map_or(Val::Unit, Val::Str);
        }
        if value.is_array() {
            return Val::from_array(value.into_array().unwrap_or_default());
        }
        if value.is_map() {
            let map = value.try_cast::<Map>().unwrap_or_default();
            return Val::Map(Rc::new(
                map.into_iter()
                    .map(|(key, value)| (key, Val::from_dynamic(value)))
                    .collect(),
            ));
        }
        if value.is_variant() {
            if let Some(piece) = value.read_lock::<PieceId>().map(|id| *id) {
                return Val::Piece(piece);
            }
            if let Some(hex) = value.read_lock::<Hex>().map(|id| *id) {
                return Val::Hex(hex);
            }
            if let Some(player) = value.read_lock::<PlayerId>().map(|id| *id) {
                return Val::Player(player);
            }
            if let Some(card) = value.read_lock::<CardId>().map(|id| *id) {
                return Val::Card(card);
            }
        }
        Val::Other(Box::new(value))
    }

    /// A list of Rhai's, taken over item by item.
    pub(crate) fn from_array(items: Array) -> Val {
        Val::List(Val::items_of(items))
    }

    /// The items of a list of Rhai's, as the evaluator's list holds them.
    pub(crate) fn items_of(items: Array) -> Rc<Vec<Val>> {
        Rc::new(items.into_iter().map(Val::from_dynamic).collect())
    }

    /// A kernel value as a script value (`crate::values::to_dynamic` makes Rhai's from it).
    pub(crate) fn from_value(value: &Value) -> Val {
        match value {
            Value::Int(n) => Val::Int(*n),
            Value::Bool(b) => Val::Bool(*b),
            Value::Str(s) => Val::Str(s.as_str().into()),
            Value::Player(player) => Val::Player(*player),
            Value::Piece(piece) => Val::Piece(*piece),
            Value::Card(card) => Val::Card(*card),
            Value::Hex(hex) => Val::Hex(*hex),
            Value::List(items) => Val::List(Rc::new(items.iter().map(Val::from_value).collect())),
            _ => Val::Unit,
        }
    }

    /// This value as Rhai holds it.
    pub(crate) fn to_dynamic(&self) -> Dynamic {
        match self {
            Val::Unit => Dynamic::UNIT,
            Val::Bool(b) => Dynamic::from_bool(*b),
            Val::Int(n) => Dynamic::from_int(*n),
            Val::Str(s) => Dynamic::from(s.clone()),
            Val::Piece(id) => Dynamic::from(*id),
            Val::Hex(id) => Dynamic::from(*id),
            Val::Player(id) => Dynamic::from(*id),
            Val::Card(id) => Dynamic::from(*id),
            Val::List(items) => Dynamic::from_array(items.iter().map(Val::to_dynamic).collect()),
            Val::Map(entries) => Dynamic::from_map(
                entries
                    .iter()
                    .map(|(key, value)| (key.clone(), value.to_dynamic()))
                    .collect(),
            ),
            Val::Other(value) => (**value).clone(),
        }
    }

    /// This value as Rhai holds it, taken over.
    pub(crate) fn into_dynamic(self) -> Dynamic {
        match self {
            Val::Other(value) => *value,
            Val::List(items) => Dynamic::from_array(
                Rc::try_unwrap(items)
                    .map(|items| items.into_iter().map(Val::into_dynamic).collect())
                    .unwrap_or_else(|items| items.iter().map(Val::to_dynamic).collect()),
            ),
            other => other.to_dynamic(),
        }
    }

    /// The type Rhai gives this value (`Dynamic::type_id`), which picks a function's
    /// overload.
    pub(crate) fn type_id(&self) -> TypeId {
        match self {
            Val::Unit => TypeId::of::<()>(),
            Val::Bool(_) => TypeId::of::<bool>(),
            Val::Int(_) => TypeId::of::<INT>(),
            Val::Str(_) => TypeId::of::<ImmutableString>(),
            Val::Piece(_) => TypeId::of::<PieceId>(),
            Val::Hex(_) => TypeId::of::<Hex>(),
            Val::Player(_) => TypeId::of::<PlayerId>(),
            Val::Card(_) => TypeId::of::<CardId>(),
            Val::List(_) => TypeId::of::<Array>(),
            Val::Map(_) => TypeId::of::<Map>(),
            Val::Other(value) => Dynamic::type_id(value),
        }
    }

    /// The name Rhai gives this value's type (`Dynamic::type_name`), for errors.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Val::Unit => "()",
            Val::Bool(_) => "bool",
            Val::Int(_) => std::any::type_name::<INT>(),
            Val::Str(_) => "string",
            Val::Piece(_) => std::any::type_name::<PieceId>(),
            Val::Hex(_) => std::any::type_name::<Hex>(),
            Val::Player(_) => std::any::type_name::<PlayerId>(),
            Val::Card(_) => std::any::type_name::<CardId>(),
            Val::List(_) => "array",
            Val::Map(_) => "map",
            Val::Other(value) => Dynamic::type_name(value),
        }
    }

    /// The type of this value in the documentation's words (`crate::values::type_name`).
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Val::Unit => "()",
            Val::Bool(_) => "bool",
            Val::Int(_) => "int",
            Val::Str(_) => "string",
            Val::Piece(_) => "fighter",
            Val::Hex(_) => "hex",
            Val::Player(_) => "player",
            Val::Card(_) => "card",
            Val::List(_) => "list",
            Val::Map(_) => "map",
            Val::Other(value) => crate::values::type_name(value),
        }
    }

    /// Whether dropping this value frees nothing (no string, list, map or Rhai value in it).
    #[inline]
    pub(crate) fn holds_nothing(&self) -> bool {
        !matches!(
            self,
            Val::Str(_) | Val::List(_) | Val::Map(_) | Val::Other(_)
        )
    }

    pub(crate) fn is_unit(&self) -> bool {
        matches!(self, Val::Unit)
    }

    /// Whether this is a value of the game's (an id, a point of the table...): Rhai holds
    /// it as a `Variant`, and looks a registered function up for an operator on it.
    pub(crate) fn is_variant(&self) -> bool {
        match self {
            Val::Piece(_) | Val::Hex(_) | Val::Player(_) | Val::Card(_) => true,
            Val::Other(value) => value.is_variant(),
            _ => false,
        }
    }

    pub(crate) fn as_int(&self) -> Option<INT> {
        match self {
            Val::Int(n) => Some(*n),
            _ => None,
        }
    }

    pub(crate) fn as_bool(&self) -> Option<bool> {
        match self {
            Val::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&ImmutableString> {
        match self {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A value of Rust type `T` read from this one, as a native's parameter of that type
    /// reads its argument: in place where the value holds a `T` itself, else through
    /// Rhai's value (a list for `Array`, any value for `Dynamic`).
    pub(crate) fn read<T: Variant + Clone>(&self) -> Option<T> {
        // Each arm's types are known where it is compiled: the test of `T` is made then,
        // not at run time through `Any`'s table.
        let found = match self {
            Val::Unit => same::<(), T>(&()),
            Val::Bool(b) => same::<bool, T>(b),
            Val::Int(n) => same::<INT, T>(n),
            Val::Str(s) => same::<ImmutableString, T>(s),
            Val::Piece(id) => same::<PieceId, T>(id),
            Val::Hex(id) => same::<Hex, T>(id),
            Val::Player(id) => same::<PlayerId, T>(id),
            Val::Card(id) => same::<CardId, T>(id),
            Val::Other(value) => return value.read_lock::<T>().map(|v| v.clone()),
            Val::List(_) | Val::Map(_) => None,
        };
        match found {
            Some(value) => Some(value.clone()),
            None => self.to_dynamic().try_cast::<T>(),
        }
    }

    /// A native's result as a value: an id, a number, a flag or a string as itself, a
    /// `Dynamic` or a list taken over, any other value as Rhai holds it.
    pub(crate) fn from_native<R: Variant + Clone>(result: R) -> Val {
        // `R` is known where this is compiled: each test of it is made then.
        macro_rules! as_itself {
            ($($t:ty => $make:expr),* $(,)?) => {
                $(if TypeId::of::<R>() == TypeId::of::<$t>() {
                    let mut slot = Some(result);
                    if let Some(value) = (&mut slot as &mut dyn Any)
                        .downcast_mut::<Option<$t>>()
                        .and_then(Option::take)
                    {
                        return $make(value);
                    }
                    return Val::Unit;
                })*
            };
        }
        as_itself!(
            INT => Val::Int,
            bool => Val::Bool,
            PieceId => Val::Piece,
            Hex => Val::Hex,
            PlayerId => Val::Player,
            CardId => Val::Card,
            ImmutableString => Val::Str,
            String => |text: String| Val::Str(text.into()),
            () => |()| Val::Unit,
            Dynamic => Val::from_dynamic,
            Array => Val::from_array,
        );
        Val::from_dynamic(Dynamic::from(result))
    }

    /// The sizes Rhai counts against the limits: list items, map entries, string bytes,
    /// nested (Rhai's `calc_data_sizes`).
    pub(crate) fn sizes(&self) -> (usize, usize, usize) {
        let mut total = (0, 0, 0);
        match self {
            Val::List(items) => {
                total.0 = items.len();
                for item in items.iter() {
                    // An id, a number or a flag adds nothing: no call for them.
                    match item {
                        Val::Str(text) => total.2 += text.len(),
                        Val::List(_) | Val::Map(_) | Val::Other(_) => {
                            item.add_inner_sizes(&mut total);
                        }
                        _ => {}
                    }
                }
            }
            Val::Map(entries) => {
                total.1 = entries.len();
                for item in entries.values() {
                    item.add_inner_sizes(&mut total);
                }
            }
            Val::Str(text) => total.2 = text.len(),
            // A list, a map or a string is never held as Rhai holds it (`from_dynamic`).
            _ => {}
        }
        total
    }

    /// Adds the sizes of this value, inside a list or a map, to `total` (a game id, a
    /// number or a flag adds nothing; a blob counts its bytes as items).
    #[inline]
    fn add_inner_sizes(&self, total: &mut (usize, usize, usize)) {
        let inner = match self {
            Val::Str(text) => (0, 0, text.len()),
            Val::List(_) | Val::Map(_) => self.sizes(),
            Val::Other(value) if value.is_blob() => {
                (1 + value.as_blob_ref().map_or(0, |blob| blob.len()), 0, 0)
            }
            Val::Other(_) => self.sizes(),
            _ => return,
        };
        *total = (total.0 + inner.0, total.1 + inner.1, total.2 + inner.2);
    }
}

macro_rules! from_id {
    ($($t:ty => $variant:ident),*) => {
        $(impl From<$t> for Val {
            fn from(id: $t) -> Val {
                Val::$variant(id)
            }
        })*
    };
}

from_id!(PieceId => Piece, Hex => Hex, PlayerId => Player, CardId => Card);

/// `value` as a `B`, when `A` is `B` (decided where it is compiled, both types known).
#[inline]
fn same<A: 'static, B: 'static>(value: &A) -> Option<&B> {
    if TypeId::of::<A>() == TypeId::of::<B>() {
        (value as &dyn Any).downcast_ref::<B>()
    } else {
        None
    }
}

/// Whether two values are the same value of the same type, as the evaluator compares a
/// game id with `==` (only used on ids, numbers, flags and strings).
impl PartialEq for Val {
    fn eq(&self, other: &Val) -> bool {
        match (self, other) {
            (Val::Unit, Val::Unit) => true,
            (Val::Bool(a), Val::Bool(b)) => a == b,
            (Val::Int(a), Val::Int(b)) => a == b,
            (Val::Str(a), Val::Str(b)) => a == b,
            (Val::Piece(a), Val::Piece(b)) => a == b,
            (Val::Hex(a), Val::Hex(b)) => a == b,
            (Val::Player(a), Val::Player(b)) => a == b,
            (Val::Card(a), Val::Card(b)) => a == b,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(value: Dynamic) -> Dynamic {
        Val::from_dynamic(value).into_dynamic()
    }

    #[test]
    fn a_value_comes_back_from_the_evaluator_as_it_went_in() {
        let list: Array = vec![
            Dynamic::from(PieceId(3)),
            Dynamic::from_int(7),
            Dynamic::from(Hex::new(1, -2)),
        ];
        let back = round_trip(Dynamic::from_array(list));
        let items = back.into_array().expect("a list");
        assert_eq!(items.len(), 3);
        assert_eq!(
            *items[0].read_lock::<PieceId>().expect("a fighter"),
            PieceId(3)
        );
        assert_eq!(items[1].as_int(), Ok(7));
        assert_eq!(
            *items[2].read_lock::<Hex>().expect("a hex"),
            Hex::new(1, -2)
        );
        let range = round_trip(Dynamic::from(0_i64..4));
        assert!(range.is::<std::ops::Range<i64>>());
    }

    #[test]
    fn a_value_has_the_type_rhai_gives_it() {
        for value in [
            Dynamic::UNIT,
            Dynamic::from_int(1),
            Dynamic::from_bool(true),
            Dynamic::from("text"),
            Dynamic::from(PieceId(1)),
            Dynamic::from(CardId(2)),
            Dynamic::from(PlayerId(0)),
            Dynamic::from(Hex::new(0, 0)),
            Dynamic::from_array(vec![Dynamic::UNIT]),
            Dynamic::from_map(Map::new()),
            Dynamic::from('c'),
        ] {
            let val = Val::from_dynamic(value.clone());
            assert_eq!(val.type_id(), value.type_id(), "{}", value.type_name());
            assert_eq!(val.type_name(), value.type_name());
            assert_eq!(
                val.is_variant(),
                value.is_variant(),
                "{}",
                value.type_name()
            );
        }
    }

    #[test]
    fn a_native_parameter_reads_its_argument_as_its_own_type() {
        assert_eq!(Val::Piece(PieceId(4)).read::<PieceId>(), Some(PieceId(4)));
        assert_eq!(Val::Int(4).read::<PieceId>(), None);
        let list = Val::List(Rc::new(vec![Val::Card(CardId(1))]));
        let array = list.read::<Array>().expect("a list");
        assert_eq!(*array[0].read_lock::<CardId>().expect("a card"), CardId(1));
        let any = Val::Hex(Hex::new(2, 2))
            .read::<Dynamic>()
            .expect("any value");
        assert!(any.is::<Hex>());
    }

    #[test]
    fn a_native_result_is_held_as_itself() {
        assert!(matches!(
            Val::from_native(PieceId(9)),
            Val::Piece(PieceId(9))
        ));
        assert!(matches!(Val::from_native(5_i64), Val::Int(5)));
        assert!(matches!(Val::from_native(String::from("x")), Val::Str(s) if s == "x"));
        let list = Val::from_native(vec![Dynamic::from(PlayerId(1))] as Array);
        assert!(matches!(&list, Val::List(items) if items[0] == Val::Player(PlayerId(1))));
        assert!(matches!(Val::from_native(()), Val::Unit));
    }

    #[test]
    fn sizes_are_counted_as_rhai_counts_them() {
        let value = Dynamic::from_array(vec![
            Dynamic::from("abc"),
            Dynamic::from_array(vec![Dynamic::from_int(1), Dynamic::from_int(2)]),
            Dynamic::from_map(Map::from_iter([("k".into(), Dynamic::from("xy"))])),
        ]);
        assert_eq!(Val::from_dynamic(value).sizes(), (5, 1, 5));
    }
}
