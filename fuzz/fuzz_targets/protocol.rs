//! The JSON-lines protocol (`gloam serve --stdio`, the C library, Python): any bytes as a
//! session's input, one request per line, handled by a fresh `gloam::protocol::Session` over
//! the shipped data (loaded once). Every reply must be one line of JSON: an object with an
//! `error` or with the request's result.
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
    SHIPPED.with(|(loaded, host)| {
        let mut session = gloam::protocol::Session::with_loaded(loaded.clone(), host.clone());
        // A session longer than a real game's only slows the fuzzer down.
        for line in text.lines().take(400) {
            let reply = session.handle_line(line);
            assert!(!reply.contains('\n'), "a reply is one line");
            let reply: serde_json::Value = serde_json::from_str(&reply).expect("a reply is JSON");
            assert!(reply.is_object(), "a reply is an object");
        }
    });
});
