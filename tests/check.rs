//! The checker against a corpus of broken files (`tests/fail/`). Each file is loaded with
//! the valid base (`tests/fail/base/`), and every problem is rendered without colour at 80
//! columns and compared with its committed snapshot. No file may make the loader panic or
//! load clean. Hostile scripts (`tests/fail/hostile/`) load clean and are stopped when run,
//! leaving the game exactly as it was.

mod common;

use gloam::load::load;

#[test]
fn base_loads_clean() {
    let (_, problems) = load(&common::base(), &gloam_dsl::Host::new());
    assert!(problems.is_empty(), "{}", common::render_all(&problems));
}

#[test]
fn every_broken_file_is_reported() {
    let host = gloam_dsl::Host::new();
    insta::glob!("fail/*.gloam", |path| {
        let problems = common::check_broken(path, &host);
        assert!(!problems.is_empty(), "{} loaded clean", path.display());
        insta::assert_snapshot!(common::render_all(&problems));
    });
}

#[test]
fn hostile_scripts_are_stopped_and_change_nothing() {
    let host = gloam_dsl::Host::new();
    insta::glob!("fail/hostile/*.gloam", |path| {
        let run = common::run_hostile(path, &host);
        assert!(run.state_unchanged, "{} changed the game", path.display());
        insta::assert_snapshot!(run.rendered);
    });
}

#[test]
fn the_corpus_is_large_enough() {
    let broken = common::files("tests/fail").len();
    let hostile = common::files("tests/fail/hostile").len();
    assert!(
        broken + hostile >= 40,
        "{broken} broken and {hostile} hostile files"
    );
}
