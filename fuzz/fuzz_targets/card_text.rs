//! The card-text parser: any text, as a printed card text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = gloam_grammar::text::parse_text(text);
    }
});
