//! Conversions between the kernel's [`Value`] and Rhai's dynamic values.

use gloam_core::{CardId, Hex, PieceId, PlayerId, Value};
use rhai::{Array, Dynamic, ImmutableString};

use crate::compiled::Val;

/// A kernel value as a script value (the compiled engine's [`Val::from_value`], as Rhai
/// holds it).
pub(crate) fn to_dynamic(value: &Value) -> Dynamic {
    Val::from_value(value).into_dynamic()
}

/// The integer `value` holds, if it holds one. Rhai's `as_int` names the type it found
/// when it fails, which costs a lookup of the name: asked first, `is_int` does not.
pub(crate) fn int_of(value: &Dynamic) -> Option<i64> {
    if value.is_int() {
        value.as_int().ok()
    } else {
        None
    }
}

/// The flag `value` holds, if it holds one (see [`int_of`]).
pub(crate) fn bool_of(value: &Dynamic) -> Option<bool> {
    if value.is_bool() {
        value.as_bool().ok()
    } else {
        None
    }
}

/// A script value as a kernel value; values the kernel has no word for (maps, function
/// pointers) become `Unit`.
pub(crate) fn from_dynamic(value: &Dynamic) -> Value {
    if value.is_unit() {
        Value::Unit
    } else if let Some(n) = int_of(value) {
        Value::Int(n)
    } else if let Some(b) = bool_of(value) {
        Value::Bool(b)
    } else if value.is_string() {
        Value::Str(
            value
                .as_immutable_string_ref()
                .map(|text| text.as_str().to_owned())
                .unwrap_or_default(),
        )
    } else if let Some(piece) = value.read_lock::<PieceId>().map(|id| *id) {
        Value::Piece(piece)
    } else if let Some(hex) = value.read_lock::<Hex>().map(|id| *id) {
        Value::Hex(hex)
    } else if let Some(player) = value.read_lock::<PlayerId>().map(|id| *id) {
        Value::Player(player)
    } else if let Some(card) = value.read_lock::<CardId>().map(|id| *id) {
        Value::Card(card)
    } else if let Some(items) = value.read_lock::<Array>() {
        Value::List(items.iter().map(from_dynamic).collect())
    } else {
        Value::Unit
    }
}

/// The type of a script value in the documentation's words.
pub(crate) fn type_name(value: &Dynamic) -> &'static str {
    if value.is_unit() {
        "()"
    } else if value.is_int() {
        "int"
    } else if value.is_bool() {
        "bool"
    } else if value.is_string() {
        "string"
    } else if value.is::<PieceId>() {
        "fighter"
    } else if value.is::<Hex>() {
        "hex"
    } else if value.is::<PlayerId>() {
        "player"
    } else if value.is::<CardId>() {
        "card"
    } else if value.is_array() {
        "list"
    } else if value.is_map() {
        "map"
    } else {
        "value"
    }
}

/// Rhai's type names in an error message, in the documentation's words.
pub(crate) fn humanize_types(text: &str) -> String {
    text.replace("&str | ImmutableString | String", "string")
        .replace("ImmutableString", "string")
        .replace("i64", "int")
        .replace("array", "list")
}

/// The items of a script list read as one type (`cast` says how), for a native query that
/// takes a list: a wrong item is a failed run naming the function, the parameter and the
/// item's place.
pub(crate) fn list_of<T>(
    function: &'static str,
    param: &str,
    what: &str,
    items: &Array,
    cast: impl Fn(&Dynamic) -> Option<T>,
) -> Result<Vec<T>, crate::runtime::Stop> {
    read_items(function, param, what, items, type_name, cast)
}

/// The items of `items` read with `cast`; an item it refuses is an error naming its place
/// and its type (`kind`).
fn read_items<I, T>(
    function: &'static str,
    param: &str,
    what: &str,
    items: &[I],
    kind: impl Fn(&I) -> &'static str,
    cast: impl Fn(&I) -> Option<T>,
) -> Result<Vec<T>, crate::runtime::Stop> {
    // Room for every item, made once: collecting results would grow the list as it went.
    let mut read = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        match cast(item) {
            Some(value) => read.push(value),
            None => {
                return Err(crate::runtime::Stop::failed(
                    function,
                    format!(
                        "`{param}` must be a list of {what}; item {} is a {}",
                        index + 1,
                        kind(item)
                    ),
                ));
            }
        }
    }
    Ok(read)
}

/// The items of a list parameter read as one type ([`list_of`] for the evaluator's values).
pub(crate) fn items_of<T>(
    function: &'static str,
    param: &str,
    what: &str,
    items: &[Val],
    cast: impl Fn(&Val) -> Option<T>,
) -> Result<Vec<T>, crate::runtime::Stop> {
    read_items(function, param, what, items, Val::kind, cast)
}

/// An item of a list parameter read as a fighter.
pub(crate) fn val_piece(item: &Val) -> Option<PieceId> {
    match item {
        Val::Piece(id) => Some(*id),
        _ => None,
    }
}

/// An item of a list parameter read as a card.
pub(crate) fn val_card(item: &Val) -> Option<CardId> {
    match item {
        Val::Card(id) => Some(*id),
        _ => None,
    }
}

/// An item of a list parameter read as a hex.
pub(crate) fn val_hex(item: &Val) -> Option<Hex> {
    match item {
        Val::Hex(id) => Some(*id),
        _ => None,
    }
}

/// An item of a list parameter read as a string.
pub(crate) fn val_string(item: &Val) -> Option<ImmutableString> {
    item.as_str().cloned()
}

/// A list item read as a hex, in place.
pub(crate) fn as_hex(item: &Dynamic) -> Option<Hex> {
    item.read_lock::<Hex>().map(|hex| *hex)
}

/// A list item read as a string.
pub(crate) fn as_string(item: &Dynamic) -> Option<ImmutableString> {
    item.read_lock::<ImmutableString>().map(|s| s.clone())
}

/// A list item read as a fighter, in place.
pub(crate) fn as_piece(item: &Dynamic) -> Option<PieceId> {
    item.read_lock::<PieceId>().map(|piece| *piece)
}
