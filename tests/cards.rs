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

#[test]
fn listeners_are_indexed_by_window_at_load() {
    let mut sources = vec![];
    sources.extend(shipped());
    sources.push(gloam::load::Source::new(
        "listeners.gloam",
        "card \"Early\" {\n    ruleset = \"underworlds\"\n    kind = ploy\n    owner = universal\n    window = power_step\n    effect = { draw_power(1); }\n}\n\ncard \"Late\" {\n    ruleset = \"underworlds\"\n    kind = objective\n    owner = universal\n    glory = 1\n    score = end_phase\n    condition = { true }\n}\n",
    ));
    let (loaded, problems) = load(&sources, &gloam_dsl::Host::new());
    assert!(problems.is_empty(), "{problems:?}");
    let named = |window: &str| -> Vec<String> {
        loaded
            .triggers
            .listeners(window)
            .iter()
            .map(|id| loaded.listeners[id.0 as usize].name.clone())
            .collect()
    };
    assert!(named("power_step").contains(&"Early".to_owned()));
    assert!(!named("power_step").contains(&"Late".to_owned()));
    assert!(named("end_phase").contains(&"Late".to_owned()));
    assert!(
        named("no_such_window").is_empty(),
        "nothing listens there: nothing is evaluated"
    );
}
