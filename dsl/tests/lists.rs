//! The native list queries the flows use instead of closures over every hex or card
//! (`hexes_without_types`, `hexes_farther_than`, `cards_of_kind`, `cards_for_window`,
//! `equipped_for_window`): what
//! they keep, that they answer as the closures they replace, and their errors.

mod common;

use common::{Fixture, fixture, render};
use gloam_core::Value;
use gloam_dsl::{CardInfo, CardRestriction, ScriptContext, ScriptSource};

fn condition(f: &Fixture, label: &str, text: &str) -> gloam_dsl::Script {
    let context = ScriptContext::condition(label.to_owned()).with_variables([
        "this_fighter",
        "player",
        "target",
        "attacker",
        "this_card",
    ]);
    f.host
        .compile(&ScriptSource::whole("cards.gloam", text), &context)
        .unwrap_or_else(|errors| panic!("{}", errors.iter().map(render).collect::<String>()))
}

/// Each player's deck holds Sidestep, Shove and Cut: Sidestep a reaction ploy after an
/// attack whose condition wants an attacker; Shove a reaction ploy after a move with no
/// condition; Cut an upgrade with the reaction keyword after an attack.
fn with_reactions() -> Fixture {
    let mut f = fixture();
    let wants_attacker = condition(&f, "card \"Sidestep\" condition", "attacker != ()");
    f.world = f
        .world
        .clone()
        .with_card(
            "Sidestep",
            CardInfo::new("ploy")
                .with_window("after_attack")
                .with_keywords(["reaction"])
                .with_condition(wants_attacker),
        )
        .with_card(
            "Shove",
            CardInfo::new("ploy")
                .with_window("after_move")
                .with_keywords(["reaction"]),
        )
        .with_card(
            "Cut",
            CardInfo::new("upgrade")
                .with_window("after_attack")
                .with_keywords(["reaction"]),
        );
    f
}

fn names(f: &mut Fixture, expression: &str) -> Value {
    f.value(&format!(
        "let out = []; for c in {expression} {{ out.push(card_name(c)); }} out"
    ))
}

fn strings(list: &[&str]) -> Value {
    Value::List(list.iter().map(|s| Value::Str((*s).into())).collect())
}

#[test]
fn hexes_without_types_drops_every_hex_with_one_of_the_types() {
    let mut f = fixture();
    // The fixture's battlefield: radius 3 around the origin (37 hexes), one blocked hex at
    // (-1, 1) and one lethal hex at (2, 0); the edge is the outer ring of 18 hexes.
    assert_eq!(
        f.value("hexes_without_types(battlefield_hexes(), []).len()"),
        Value::Int(37)
    );
    assert_eq!(
        f.value("hexes_without_types(battlefield_hexes(), [\"blocked\", \"lethal\"]).len()"),
        Value::Int(35)
    );
    assert_eq!(
        f.value("hexes_without_types(battlefield_hexes(), [\"edge\"]).len()"),
        Value::Int(19)
    );
    // The same as the closure it replaces, in the same order.
    assert_eq!(
        f.value(
            "hexes_without_types(battlefield_hexes(), [\"blocked\", \"edge\"]) == \
             battlefield_hexes().filter(|h| !hex_has_type(h, \"blocked\") && !hex_has_type(h, \"edge\"))"
        ),
        Value::Bool(true)
    );
    // A type given in play counts; a hex off the battlefield has no type, and stays.
    assert_eq!(
        f.value(
            "set_hex_type(hex(0, 0), \"cover\", true); set_hex_type(hex(3, 0), \"lethal\", true); \
             let hs = battlefield_hexes() + [hex(9, 9)]; \
             [hexes_without_types(hs, [\"cover\", \"lethal\", \"edge\"]) == \
              hs.filter(|h| !hex_has_type(h, \"cover\") && !hex_has_type(h, \"lethal\") && !hex_has_type(h, \"edge\")), \
              hexes_without_types(hs, [\"cover\"]).len(), \
              hexes_without_types(hs, [\"lethal\"]).len()]"
        ),
        Value::List(vec![Value::Bool(true), Value::Int(37), Value::Int(36)])
    );
}

#[test]
fn hexes_farther_than_keeps_the_hexes_beyond_the_distance_from_every_other() {
    let mut f = fixture();
    assert_eq!(
        f.value("hexes_farther_than(battlefield_hexes(), [hex(0, 0)], 2).len()"),
        Value::Int(18)
    );
    assert_eq!(
        f.value("hexes_farther_than(battlefield_hexes(), [], 2).len()"),
        Value::Int(37)
    );
    assert_eq!(
        f.value(
            "let others = [hex(0, 0), hex(3, -3)]; \
             hexes_farther_than(battlefield_hexes(), others, 1) == \
             battlefield_hexes().filter(|h| others.all(|o| distance(h, o) > 1))"
        ),
        Value::Bool(true)
    );
}

#[test]
fn hex_list_queries_with_a_wrong_item_fail_naming_the_parameter_and_item() {
    let mut f = fixture();
    for (text, message) in [
        (
            "hexes_without_types([hex(0, 0), 3], [])",
            "`hexes_without_types`: `hexes` must be a list of hexes; item 2 is a int",
        ),
        (
            "hexes_without_types([hex(0, 0)], [\"edge\", this_fighter])",
            "`hexes_without_types`: `types` must be a list of hex type names; item 2 is a fighter",
        ),
        (
            "hexes_farther_than([hex(0, 0)], [true], 1)",
            "`hexes_farther_than`: `others` must be a list of hexes; item 1 is a bool",
        ),
    ] {
        assert_eq!(
            f.failure(text).to_string(),
            format!("test effect failed: {message}"),
            "{text}"
        );
    }
}

#[test]
fn cards_of_kind_keeps_the_cards_of_that_kind_in_order() {
    let mut f = with_reactions();
    assert_eq!(
        names(
            &mut f,
            "cards_of_kind(cards_in(player, \"power_deck\"), \"ploy\")"
        ),
        strings(&["Sidestep", "Shove"])
    );
    assert_eq!(
        names(
            &mut f,
            "cards_of_kind(cards_in(player, \"power_deck\"), \"spell\")"
        ),
        strings(&[])
    );
}

#[test]
fn cards_for_window_keeps_cards_with_the_keyword_a_window_and_a_holding_condition() {
    let mut f = with_reactions();
    let deck = "cards_in(player, \"power_deck\")";
    // After an attack with an attacker: Sidestep (its condition holds) and Cut.
    assert_eq!(
        names(
            &mut f,
            &format!(
                "cards_for_window({deck}, \"reaction\", [\"after_attack\"], (), target, this_fighter)"
            )
        ),
        strings(&["Sidestep", "Cut"])
    );
    // Without an attacker, Sidestep's condition fails.
    assert_eq!(
        names(
            &mut f,
            &format!("cards_for_window({deck}, \"reaction\", [\"after_attack\"], (), target, ())")
        ),
        strings(&["Cut"])
    );
    // Two windows at once; a keyword no card has.
    assert_eq!(
        names(
            &mut f,
            &format!(
                "cards_for_window({deck}, \"reaction\", [\"after_move\", \"after_attack\"], (), (), ())"
            )
        ),
        strings(&["Shove", "Cut"])
    );
    assert_eq!(
        names(
            &mut f,
            &format!("cards_for_window({deck}, \"quick\", [\"after_move\"], (), (), ())")
        ),
        strings(&[])
    );
    // The same as the closure the reaction steps used.
    assert_eq!(
        f.value(&format!(
            "cards_for_window({deck}, \"reaction\", [\"after_attack\"], (), target, this_fighter) == \
             {deck}.filter(|c| card_has_keyword(c, \"reaction\") && [\"after_attack\"].contains(card_window(c)) \
             && condition_holds(c, (), target, this_fighter))"
        )),
        Value::Bool(true)
    );
}

#[test]
fn cards_for_window_without_a_keyword_keeps_every_card_of_the_windows() {
    let mut f = with_reactions();
    let deck = "cards_in(player, \"power_deck\")";
    assert_eq!(
        names(
            &mut f,
            &format!(
                "cards_for_window({deck}, [\"after_attack\", \"after_move\"], (), target, this_fighter)"
            )
        ),
        strings(&["Sidestep", "Shove", "Cut"])
    );
    assert_eq!(
        names(
            &mut f,
            &format!("cards_for_window({deck}, [\"after_attack\"], (), target, ())")
        ),
        strings(&["Cut"])
    );
}

/// The player's Cut on the hero and Sidestep on the brute, for the queries of cards worn.
const WORN: &str = "let deck = cards_in(player, \"power_deck\"); \
     let cut = deck.filter(|c| card_name(c) == \"Cut\")[0]; \
     let side = deck.filter(|c| card_name(c) == \"Sidestep\")[0]; \
     equip(cut, this_fighter); equip(side, target);";

/// `text` run after [`WORN`], on a fixture of its own (running it commits the cards worn).
fn worn(text: &str) -> Value {
    with_reactions().value(&format!("{WORN} {text}"))
}

#[test]
fn equipped_for_window_keeps_the_worn_cards_cards_for_window_keeps_for_each_bearer() {
    let names = |fighters: &str, attacker: &str| {
        worn(&format!(
            "let out = []; \
             for c in equipped_for_window({fighters}, \"reaction\", [\"after_attack\"], target, {attacker}) \
             {{ out.push(card_name(c)); }} out"
        ))
    };
    // Fighter by fighter, in the order given; Sidestep's condition wants an attacker.
    assert_eq!(
        names("[this_fighter, target]", "this_fighter"),
        strings(&["Cut", "Sidestep"])
    );
    assert_eq!(
        names("[target, this_fighter]", "this_fighter"),
        strings(&["Sidestep", "Cut"])
    );
    assert_eq!(names("[this_fighter, target]", "()"), strings(&["Cut"]));
    // The same as asking each fighter's cards with the fighter bound, in turn.
    for (windows, t, a) in [
        ("[\"after_attack\"]", "target", "this_fighter"),
        ("[\"after_move\", \"after_attack\"]", "()", "()"),
        ("[\"after_move\"]", "this_fighter", "target"),
    ] {
        let text = format!(
            "let fs = [target, this_fighter, target]; let each = []; \
             for f in fs {{ for c in cards_for_window(equipped(f), \"reaction\", {windows}, f, {t}, {a}) \
             {{ each.push(c); }} }} \
             equipped_for_window(fs, \"reaction\", {windows}, {t}, {a}) == each"
        );
        assert_eq!(worn(&text), Value::Bool(true), "{text}");
    }
    let mut f = with_reactions();
    assert_eq!(
        f.failure("equipped_for_window([3], \"reaction\", [], (), ())")
            .to_string(),
        "test effect failed: `equipped_for_window`: `fighters` must be a list of fighters; item 1 is a int"
    );
    assert_eq!(
        f.failure("equipped_for_window([], \"reaction\", [], (), 2)")
            .to_string(),
        "test effect failed: `equipped_for_window`: `attacker` must be a fighter or (), not a int"
    );
}

#[test]
fn bearer_is_the_fighter_a_card_is_equipped_on() {
    assert_eq!(
        worn(
            "[bearer(cut) == this_fighter, bearer(side) == target, \
             bearer(deck.filter(|c| card_name(c) == \"Shove\")[0])]"
        ),
        Value::List(vec![Value::Bool(true), Value::Bool(true), Value::Unit])
    );
}

#[test]
fn cards_for_window_with_a_bad_event_fighter_fails() {
    let mut f = with_reactions();
    assert_eq!(
        f.failure("cards_for_window([], \"reaction\", [], (), 3, ())")
            .to_string(),
        "test effect failed: `cards_for_window`: `target` must be a fighter or (), not a int"
    );
    assert_eq!(
        f.failure("cards_for_window([], \"reaction\", [], 2, (), ())")
            .to_string(),
        "test effect failed: `cards_for_window`: `fighter` must be a fighter or (), not a int"
    );
}

#[test]
fn allowed_fighters_keeps_the_fighters_a_cards_restrictions_allow() {
    let mut f = fixture();
    // Cut may go on an archer or on a leader (the hero); the brute is neither.
    f.world = f.world.clone().with_card(
        "Cut",
        CardInfo::new("upgrade")
            .with_restriction(CardRestriction::Fighter("archer".into()))
            .with_restriction(CardRestriction::Keyword("leader".into())),
    );
    let cut = "cards_in(player, \"power_deck\")[2]";
    assert_eq!(
        f.value(&format!(
            "allowed_fighters({cut}, fighters()) == [this_fighter, fighters()[2]]"
        )),
        Value::Bool(true)
    );
    assert_eq!(
        f.value(&format!(
            "allowed_fighters({cut}, fighters()) == fighters().filter(|x| card_allows({cut}, x))"
        )),
        Value::Bool(true)
    );
    assert_eq!(
        f.value(&format!("allowed_fighters({cut}, [target])")),
        Value::List(vec![])
    );
    assert_eq!(
        f.failure(&format!("allowed_fighters({cut}, [target, 4])"))
            .to_string(),
        "test effect failed: `allowed_fighters`: `fighters` must be a list of fighters; item 2 is a int"
    );
}
