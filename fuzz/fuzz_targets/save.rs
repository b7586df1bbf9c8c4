//! Saves and replays: any bytes as a save file, replayed against the shipped data (loaded
//! once; the save's own `data` paths are not read, so the fuzzer cannot wander the disk).
#![no_main]

use std::rc::Rc;

use libfuzzer_sys::fuzz_target;

thread_local! {
    static SHIPPED: (Rc<gloam::load::Loaded>, Rc<gloam_dsl::Host>) = {
        let host = Rc::new(gloam_dsl::Host::new());
        let cards = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../cards"));
        let (sources, problems) = gloam::load::read_paths(&[cards]);
        assert!(problems.is_empty(), "the shipped data reads");
        let (loaded, problems) = gloam::load::load(&sources, &host);
        assert!(problems.is_empty(), "the shipped data loads");
        (Rc::new(loaded), host)
    };
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(saved) = gloam::save::SavedGame::from_json(text) else {
        return;
    };
    // A record longer than a real game only slows the fuzzer down.
    if saved.record.answers.len() > 2_000 {
        return;
    }
    SHIPPED.with(|(loaded, host)| {
        let _ = saved.replay_loaded(loaded.clone(), host.clone());
    });
});
