//! `Library::extends_chain`: a ruleset and its parents, nearest first.

use gloam_grammar::{SourceFile, load};

fn library(text: &str) -> gloam_grammar::Library {
    let (library, _problems) = load(&[SourceFile::new("rules.gloam", text)]);
    library
}

#[test]
fn extends_chain_lists_the_ruleset_then_its_parents_nearest_first() {
    let library = library(
        r#"
ruleset "base" { title = "Base" rounds = 3 }
ruleset "edition" { title = "Edition" extends = "base" }
ruleset "mode" { title = "Mode" extends = "edition" }
"#,
    );
    assert_eq!(library.extends_chain("mode"), ["mode", "edition", "base"]);
    assert_eq!(library.extends_chain("base"), ["base"]);
    // An unknown name is its own chain: nothing to follow.
    assert_eq!(library.extends_chain("nowhere"), ["nowhere"]);
}

#[test]
fn extends_chain_stops_at_a_cycle_and_at_a_missing_parent() {
    let library = library(
        r#"
ruleset "a" { title = "A" extends = "b" }
ruleset "b" { title = "B" extends = "a" }
ruleset "orphan" { title = "Orphan" extends = "lost" }
"#,
    );
    assert_eq!(library.extends_chain("a"), ["a", "b"]);
    assert_eq!(library.extends_chain("orphan"), ["orphan", "lost"]);
}
