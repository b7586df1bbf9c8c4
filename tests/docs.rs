//! Generated documentation stays in step with the code.
//!
//! To regenerate after changing the vocabulary or the diagnostics:
//! `GLOAM_BLESS=1 cargo test --test docs`, then review and commit the files.

use std::path::Path;

fn check_generated(path: &str, generated: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if std::env::var_os("GLOAM_BLESS").is_some() {
        std::fs::write(&path, generated).expect("write the generated file");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is out of date: run `GLOAM_BLESS=1 cargo test --test docs` and commit it",
        path.display()
    );
}

#[test]
fn dsl_reference_matches_the_registered_vocabulary() {
    check_generated("docs/dsl.md", &gloam_dsl::docs_markdown());
}
