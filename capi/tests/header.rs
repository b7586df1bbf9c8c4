//! `include/gloam.h` is what cbindgen makes of `src/lib.rs` today.

use std::path::Path;

#[test]
fn header_is_up_to_date() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen reads src/lib.rs")
        .write(&mut generated);
    let generated = String::from_utf8(generated).expect("the header is UTF-8");
    let path = crate_dir.join("include/gloam.h");
    if std::env::var_os("GLOAM_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write include/gloam.h");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/gloam.h is out of date with src/lib.rs; regenerate it with \
         GLOAM_BLESS=1 cargo test -p gloam-capi --test header, and commit it"
    );
}
