//! `gloam geom los` and `gloam geom distance`: one JSON document in, one JSON array out.

use std::collections::BTreeSet;
use std::io::Read;

use clap::{Args, ValueEnum};
use gloam_core::{Hex, Sight};
use serde::Deserialize;

use super::CliError;

/// Arguments of `gloam geom`.
#[derive(Debug, Args)]
pub(crate) struct GeomArgs {
    /// Which answer to give for each query.
    query: GeomQuery,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum GeomQuery {
    /// Whether each pair of hexes can see each other (booleans).
    Los,
    /// The distance in hexes between each pair (integers).
    Distance,
}

/// The input document: pointy-top axial coordinates, `hexes` being the whole battlefield.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    hexes: Vec<[i32; 2]>,
    #[serde(default)]
    blocked: Vec<[i32; 2]>,
    #[serde(default)]
    off_board_blocks: bool,
    queries: Vec<[[i32; 2]; 2]>,
}

pub(crate) fn run(args: &GeomArgs) -> Result<(), CliError> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| CliError::input(format!("cannot read stdin: {e}")))?;
    let output = answer(args.query, &text)?;
    super::emit(&format!("{output}\n"))
}

fn hex([q, r]: [i32; 2]) -> Hex {
    Hex::new(q, r)
}

fn answer(query: GeomQuery, text: &str) -> Result<String, CliError> {
    let input: Input = serde_json::from_str(text).map_err(|e| {
        CliError::input(format!(
            "stdin is not a valid geometry document: {e}\n  expected {{\"hexes\": [[q,r],...], \"blocked\": [[q,r],...], \"off_board_blocks\": false, \"queries\": [[[q1,r1],[q2,r2]], ...]}}"
        ))
    })?;
    let battlefield: BTreeSet<Hex> = input.hexes.iter().copied().map(hex).collect();
    if let Some(stray) = input
        .blocked
        .iter()
        .copied()
        .map(hex)
        .find(|h| !battlefield.contains(h))
    {
        return Err(CliError::input(format!(
            "blocked hex {stray} is not on the battlefield; add it to \"hexes\" or remove it from \"blocked\""
        )));
    }
    let sight = Sight::new(
        battlefield.iter().copied(),
        input.blocked.iter().copied().map(hex),
        input.off_board_blocks,
    );
    let mut answers = Vec::with_capacity(input.queries.len());
    for (index, [a, b]) in input.queries.iter().enumerate() {
        let (a, b) = (hex(*a), hex(*b));
        for end in [a, b] {
            if !battlefield.contains(&end) {
                return Err(CliError::input(format!(
                    "query {index}: hex {end} is not on the battlefield; every query hex must be listed in \"hexes\""
                )));
            }
        }
        let value = match query {
            GeomQuery::Los => serde_json::Value::Bool(
                sight
                    .visible(a, b)
                    .map_err(|e| CliError::input(format!("query {index}: {e}")))?,
            ),
            GeomQuery::Distance => serde_json::Value::from(a.distance_to(b)),
        };
        answers.push(value);
    }
    serde_json::to_string(&answers).map_err(|e| CliError::input(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"hexes": [[0,0],[1,0],[2,0],[0,1]], "blocked": [[1,0]], "queries": [[[0,0],[2,0]], [[0,0],[0,1]]]}"#;

    #[test]
    fn los_answers_one_boolean_per_query() {
        assert_eq!(answer(GeomQuery::Los, LINE).unwrap(), "[false,true]");
    }

    #[test]
    fn distance_answers_one_integer_per_query() {
        assert_eq!(answer(GeomQuery::Distance, LINE).unwrap(), "[2,1]");
    }

    #[test]
    fn hex_off_the_battlefield_is_a_clear_error() {
        let text = r#"{"hexes": [[0,0]], "queries": [[[0,0],[5,5]]]}"#;
        let error = answer(GeomQuery::Los, text).unwrap_err().to_string();
        assert!(
            error.contains("query 0: hex (5, 5) is not on the battlefield"),
            "{error}"
        );
    }

    #[test]
    fn bad_json_names_the_expected_shape() {
        let error = answer(GeomQuery::Distance, "{nope")
            .unwrap_err()
            .to_string();
        assert!(error.contains("not a valid geometry document"), "{error}");
    }
}
