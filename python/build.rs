//! Embeds the shipped rules (every `.gloam` file under the repository's `cards/`) in the
//! extension module, so the wheel alone plays every shipped ruleset.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.sort();
    for child in children {
        if child.is_dir() {
            collect(&child, files);
        } else if child.extension().is_some_and(|ext| ext == "gloam") {
            files.push(child);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.parent().expect("python/ sits in the repository");
    let cards = root.join("cards");
    println!("cargo:rerun-if-changed={}", cards.display());
    let mut files = Vec::new();
    collect(&cards, &mut files);
    assert!(
        !files.is_empty(),
        "no .gloam file under {}: the wheel is built from a gloam checkout",
        cards.display()
    );
    let mut out = String::from("/// The shipped data files: (name, text), sorted by name.\n");
    out.push_str("pub(crate) static SHIPPED: &[(&str, &str)] = &[\n");
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        let name = file
            .strip_prefix(root)
            .expect("under the root")
            .to_string_lossy()
            .replace('\\', "/");
        writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            file.display().to_string()
        )
        .expect("writing to a String");
    }
    out.push_str("];\n");
    let target = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("shipped.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
