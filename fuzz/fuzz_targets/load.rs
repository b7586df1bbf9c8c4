//! The data loader and checker: any bytes as one `.gloam` file (plus the shipped base
//! ruleset beside it, so cards and warbands reach the cross-reference and script checks),
//! then every problem located as `gloam check --json` does and rendered as `gloam check` does.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let host = gloam_dsl::Host::new();
    let sources = [gloam::load::Source::new("fuzz.gloam", text)];
    let (_, problems) = gloam::load::load(&sources, &host);
    for problem in problems.iter().take(50) {
        let _ = gloam::load::locate(problem);
        let _ = gloam::report::render(problem, 100, false);
    }
});
