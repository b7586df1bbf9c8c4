//! `examples/play.c` compiles against the committed header and the static library with the
//! system C compiler (`cc`, or `$CC`), and plays a whole game to its end.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The static library cargo built for this test run (in the target directory's profile
/// folder or its `deps`).
fn static_library() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let deps = exe.parent().expect("deps folder");
    let profile = deps.parent().expect("profile folder");
    let is_library = |path: &PathBuf| {
        path.file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.starts_with("libgloam_capi") && name.ends_with(".a"))
    };
    let newest = [profile, deps]
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(is_library)
        .filter_map(|path| Some((std::fs::metadata(&path).ok()?.modified().ok()?, path)))
        .max();
    match newest {
        Some((_, path)) => path,
        None => panic!(
            "no libgloam_capi.a next to the test in {}; cargo builds it with the crate",
            profile.display()
        ),
    }
}

#[test]
fn c_example_plays_a_game_to_the_end() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gloam-play");
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_owned());
    let built = Command::new(&compiler)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O1", "-I"])
        .arg(crate_dir.join("include"))
        .arg(crate_dir.join("examples/play.c"))
        .arg(static_library())
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&out)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{compiler}`: {e}"));
    assert!(
        built.status.success(),
        "the C example does not compile:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let cards = crate_dir.join("../cards");
    for (ruleset, seed) in [("harrowdeep", "7"), ("embergard", "3")] {
        let run = Command::new(&out)
            .arg(&cards)
            .args([ruleset, seed])
            .output()
            .expect("the C example runs");
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success(),
            "the C example failed on {ruleset}:\n{stdout}\n{}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(stdout.starts_with("game over after "), "{stdout}");
        assert!(stdout.contains("\"winners\":["), "{stdout}");
        assert!(stdout.contains("record: "), "{stdout}");
    }
}
