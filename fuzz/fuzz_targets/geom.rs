//! `gloam geom`: any bytes as its JSON input document, answered for both queries; where
//! both answer, adjacent hexes (distance 1) are always in sight of each other.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let distance = gloam::geom::answer(gloam::geom::Query::Distance, text).map(|a| a.json);
    let los = gloam::geom::answer(gloam::geom::Query::Los, text).map(|a| a.json);
    if let (Ok(distance), Ok(los)) = (distance, los) {
        let distance: Vec<u64> = serde_json::from_str(&distance).expect("integers");
        let los: Vec<bool> = serde_json::from_str(&los).expect("booleans");
        assert_eq!(distance.len(), los.len());
        for (d, seen) in distance.iter().zip(&los) {
            if *d <= 1 {
                assert!(*seen, "adjacent hexes out of sight");
            }
        }
    }
});
