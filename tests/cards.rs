//! Every data file shipped under `cards/` loads with no problem, and survives printing and
//! loading again unchanged.

use std::path::PathBuf;

use gloam::load::{load, read_paths};

fn shipped() -> Vec<gloam::load::Source> {
    let (sources, problems) =
        read_paths(&[PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")]);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(!sources.is_empty(), "cards/ holds data files");
    sources
}

#[test]
fn every_shipped_file_loads_with_no_problem() {
    let (loaded, problems) = load(&shipped(), &gloam_dsl::Host::new());
    let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(messages.is_empty(), "{messages:#?}");
    assert!(loaded.library.ruleset("underworlds").is_some());
}

#[test]
fn shipped_library_round_trips_through_the_printer() {
    let (loaded, _) = load(&shipped(), &gloam_dsl::Host::new());
    let printed = loaded.library.to_string();
    let (again, problems) = load(
        &[gloam::load::Source::new("printed.gloam", printed.clone())],
        &gloam_dsl::Host::new(),
    );
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(again.library, loaded.library);
    assert_eq!(again.library.to_string(), printed);
}
