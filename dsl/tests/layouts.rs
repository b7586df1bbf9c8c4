//! Battlefield layouts: the names a world knows (`battlefield_layouts`), the one in play
//! (`battlefield_layout`) and choosing one (`lay_out_battlefield`), which is refused once
//! anything stands on the battlefield.

mod common;

use common::fixture;
use gloam_core::Value;

fn strings(list: &[&str]) -> Value {
    Value::List(list.iter().map(|s| Value::Str((*s).into())).collect())
}

#[test]
fn a_world_without_layouts_has_one_way_and_no_names() {
    let mut f = fixture();
    assert_eq!(f.value("battlefield_layouts()"), strings(&[]));
    assert_eq!(f.value("battlefield_layout()"), Value::Unit);
    let error = f.failure("lay_out_battlefield(\"wide\")");
    assert_eq!(
        error.to_string(),
        "test effect: `lay_out_battlefield` was refused: there is no battlefield layout \"wide\": \
         this battlefield has one layout and no names for it"
    );
}

#[test]
fn lay_out_battlefield_sets_the_layout_counter_before_anything_is_placed() {
    let mut f = fixture();
    f.world = f.world.clone().with_layouts(["narrow", "wide"]);
    assert_eq!(
        f.value("battlefield_layouts()"),
        strings(&["narrow", "wide"])
    );
    assert_eq!(f.value("battlefield_layout()"), Value::Str("narrow".into()));
    // The fixture's three fighters stand on the battlefield: taken off first, the layout
    // can be chosen, and the counter says which.
    assert_eq!(
        f.value(
            "for x in fighters() { take_off(x); } \
             lay_out_battlefield(\"wide\"); \
             [battlefield_layout(), counter(\"battlefield_layout\")]"
        ),
        Value::List(vec![Value::Str("wide".into()), Value::Int(1)])
    );
}

#[test]
fn lay_out_battlefield_once_a_fighter_stands_there_is_refused_and_changes_nothing() {
    let mut f = fixture();
    f.world = f.world.clone().with_layouts(["narrow", "wide"]);
    let before = f.state.clone();
    let error = f.failure("lay_out_battlefield(\"wide\")");
    assert_eq!(
        error.to_string(),
        "test effect: `lay_out_battlefield` was refused: the battlefield is laid out before \
         anything is placed on it (a piece stands on it or a hex was given a type in play)"
    );
    assert_eq!(f.state, before);
    let error = f.failure("lay_out_battlefield(\"nowhere\")");
    assert!(
        error
            .to_string()
            .contains("the layouts are \"narrow\", \"wide\""),
        "{error}"
    );
}
