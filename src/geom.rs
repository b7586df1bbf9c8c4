//! Geometry answers for board designers (`gloam geom los|distance`): one JSON document in,
//! one JSON array out, with warnings for input that is legal but probably not meant.
//!
//! ```
//! use gloam::geom::{Query, answer};
//! let input = r#"{"hexes": [[0,0],[1,0],[2,0]], "blocked": [[1,0]], "queries": [[[0,0],[2,0]]]}"#;
//! let answered = answer(Query::Los, input).unwrap();
//! assert_eq!(answered.json, "[false]");
//! assert!(answered.warnings.is_empty());
//! ```

use std::collections::BTreeSet;

use gloam_core::{Hex, Sight};
use serde::Deserialize;

/// Which answer to give for each query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Query {
    /// Whether each pair of hexes can see each other (booleans).
    Los,
    /// The distance in hexes between each pair (integers).
    Distance,
}

/// The answers, as a JSON array, and what looked wrong in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answered {
    /// One answer per query, as a JSON array.
    pub json: String,
    /// Input that was accepted but is probably a mistake (a hex listed twice, no `blocked`).
    pub warnings: Vec<String>,
}

/// The input document: pointy-top axial coordinates, `hexes` being the whole battlefield.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    hexes: Vec<[i32; 2]>,
    blocked: Option<Vec<[i32; 2]>>,
    #[serde(default)]
    off_board_blocks: bool,
    queries: Vec<[[i32; 2]; 2]>,
}

/// The shape of the input, for error messages.
const SHAPE: &str = "expected {\"hexes\": [[q,r],...], \"blocked\": [[q,r],...], \"off_board_blocks\": false, \"queries\": [[[q1,r1],[q2,r2]], ...]}";

fn hex([q, r]: [i32; 2]) -> Hex {
    Hex::new(q, r)
}

/// Refuses a hex whose coordinates are beyond [`Hex::LIMIT`].
fn in_limit(hex: Hex, what: &str) -> Result<Hex, String> {
    if hex.in_limit() {
        Ok(hex)
    } else {
        Err(format!(
            "{what}: hex {hex} is out of range; q, r and -q-r must each be between -{limit} and {limit}",
            limit = Hex::LIMIT
        ))
    }
}

/// Answers `query` for every query of the JSON document `text` (a UTF-8 byte order mark
/// before it is ignored). Errors name what is wrong and where: bad JSON, a hex off the
/// battlefield, coordinates out of range.
pub fn answer(query: Query, text: &str) -> Result<Answered, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let input: Input = serde_json::from_str(text)
        .map_err(|e| format!("stdin is not a valid geometry document: {e}\n  {SHAPE}"))?;
    let mut warnings = Vec::new();
    let mut battlefield: BTreeSet<Hex> = BTreeSet::new();
    for (index, &coordinates) in input.hexes.iter().enumerate() {
        let hex = in_limit(hex(coordinates), &format!("hexes[{index}]"))?;
        if !battlefield.insert(hex) {
            warnings.push(format!(
                "hexes[{index}]: hex {hex} is listed twice; the second is ignored"
            ));
        }
    }
    let blocked = match input.blocked {
        Some(blocked) => blocked,
        None => {
            warnings.push(
                "no \"blocked\" list: no hex blocks sight (write \"blocked\": [] to say so)"
                    .to_owned(),
            );
            Vec::new()
        }
    };
    let mut blockers = BTreeSet::new();
    for (index, &coordinates) in blocked.iter().enumerate() {
        let hex = in_limit(hex(coordinates), &format!("blocked[{index}]"))?;
        if !battlefield.contains(&hex) {
            return Err(format!(
                "blocked hex {hex} is not on the battlefield; add it to \"hexes\" or remove it from \"blocked\""
            ));
        }
        if !blockers.insert(hex) {
            warnings.push(format!(
                "blocked[{index}]: hex {hex} is listed twice; the second is ignored"
            ));
        }
    }
    let sight = Sight::new(
        battlefield.iter().copied(),
        blockers.iter().copied(),
        input.off_board_blocks,
    );
    let mut answers = Vec::with_capacity(input.queries.len());
    for (index, [a, b]) in input.queries.iter().enumerate() {
        let (a, b) = (hex(*a), hex(*b));
        for end in [a, b] {
            if !battlefield.contains(&end) {
                return Err(format!(
                    "query {index}: hex {end} is not on the battlefield; every query hex must be listed in \"hexes\""
                ));
            }
        }
        let value = match query {
            Query::Los => serde_json::Value::Bool(
                sight
                    .visible(a, b)
                    .map_err(|e| format!("query {index}: {e}"))?,
            ),
            Query::Distance => serde_json::Value::from(a.distance_to(b)),
        };
        answers.push(value);
    }
    let json = serde_json::to_string(&answers).map_err(|e| e.to_string())?;
    Ok(Answered { json, warnings })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"hexes": [[0,0],[1,0],[2,0],[0,1]], "blocked": [[1,0]], "queries": [[[0,0],[2,0]], [[0,0],[0,1]]]}"#;

    fn json(query: Query, text: &str) -> String {
        answer(query, text).unwrap().json
    }

    #[test]
    fn los_answers_one_boolean_per_query() {
        assert_eq!(json(Query::Los, LINE), "[false,true]");
    }

    #[test]
    fn distance_answers_one_integer_per_query() {
        assert_eq!(json(Query::Distance, LINE), "[2,1]");
    }

    #[test]
    fn hex_off_the_battlefield_is_a_clear_error() {
        let text = r#"{"hexes": [[0,0]], "blocked": [], "queries": [[[0,0],[5,5]]]}"#;
        let error = answer(Query::Los, text).unwrap_err();
        assert!(
            error.contains("query 0: hex (5, 5) is not on the battlefield"),
            "{error}"
        );
    }

    #[test]
    fn bad_json_names_the_expected_shape() {
        let error = answer(Query::Distance, "{nope").unwrap_err();
        assert!(error.contains("not a valid geometry document"), "{error}");
    }

    #[test]
    fn extreme_coordinates_are_refused_not_wrapped() {
        // Issue 17: the distance was computed in i32 and came out as 1, while `los` said
        // the two hexes were not in sight.
        let text = r#"{"hexes": [[2147483647,0],[-2147483648,0]], "blocked": [], "queries": [[[2147483647,0],[-2147483648,0]]]}"#;
        for query in [Query::Distance, Query::Los] {
            let error = answer(query, text).unwrap_err();
            assert!(
                error.contains("hexes[0]: hex (2147483647, 0) is out of range"),
                "{error}"
            );
        }
        let blocked = r#"{"hexes": [[0,0]], "blocked": [[0,268435457]], "queries": []}"#;
        let error = answer(Query::Los, blocked).unwrap_err();
        assert!(error.contains("blocked[0]"), "{error}");
    }

    #[test]
    fn distance_and_los_agree_that_neighbours_are_adjacent() {
        let limit = Hex::LIMIT;
        for centre in [Hex::ORIGIN, Hex::new(limit - 1, 0), Hex::new(-limit + 1, 0)] {
            let mut hexes = vec![[centre.q, centre.r]];
            hexes.extend(centre.neighbors().iter().map(|h| [h.q, h.r]));
            let queries: Vec<[[i32; 2]; 2]> = hexes[1..].iter().map(|&h| [hexes[0], h]).collect();
            let text = serde_json::json!({
                "hexes": hexes, "blocked": [], "off_board_blocks": true, "queries": queries
            })
            .to_string();
            let Ok(distance) = answer(Query::Distance, &text) else {
                continue; // a neighbour past the limit is refused by both
            };
            assert_eq!(distance.json, "[1,1,1,1,1,1]", "{centre}");
            assert_eq!(json(Query::Los, &text), "[true,true,true,true,true,true]");
        }
    }

    #[test]
    fn a_byte_order_mark_is_accepted() {
        let text = format!("\u{feff}{LINE}");
        assert_eq!(json(Query::Distance, &text), "[2,1]");
    }

    #[test]
    fn duplicate_hexes_and_a_missing_blocked_list_are_warned() {
        let text = r#"{"hexes": [[0,0],[1,0],[0,0]], "queries": [[[0,0],[1,0]]]}"#;
        let answered = answer(Query::Los, text).unwrap();
        assert_eq!(answered.json, "[true]");
        assert_eq!(
            answered.warnings,
            [
                "hexes[2]: hex (0, 0) is listed twice; the second is ignored",
                "no \"blocked\" list: no hex blocks sight (write \"blocked\": [] to say so)"
            ]
        );
    }
}
