//! `gloam geom los` and `gloam geom distance`: one JSON document in, one JSON array out.

use std::io::Read;

use clap::{Args, ValueEnum};
use gloam::geom::{Query, answer};

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

pub(crate) fn run(args: &GeomArgs) -> Result<(), CliError> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| CliError::input(format!("cannot read stdin: {e}")))?;
    let query = match args.query {
        GeomQuery::Los => Query::Los,
        GeomQuery::Distance => Query::Distance,
    };
    let answered = answer(query, &text).map_err(CliError::input)?;
    for warning in &answered.warnings {
        eprintln!("warning: {warning}");
    }
    super::emit(&format!("{}\n", answered.json))
}
