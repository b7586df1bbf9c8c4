//! `gloam serve --stdio`: the JSON-lines protocol (`docs/protocol.md`) on stdin and stdout.

use std::io::{BufRead as _, Write as _};
use std::path::PathBuf;

use clap::Args;
use gloam::protocol::Session;

use super::CliError;

/// Arguments of `gloam serve`.
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// Speak the protocol on stdin and stdout: one JSON request per line in, one JSON reply
    /// per line out (the only transport today).
    #[arg(long, required = true)]
    stdio: bool,
    /// Data files or folders to load (default: env `GLOAM_DATA`, else `cards`).
    #[arg(long = "data")]
    paths: Vec<PathBuf>,
}

pub(crate) fn run(args: &ServeArgs) -> Result<bool, CliError> {
    debug_assert!(args.stdio);
    let paths = if args.paths.is_empty() {
        vec![std::env::var_os("GLOAM_DATA").map_or_else(|| PathBuf::from("cards"), PathBuf::from)]
    } else {
        args.paths.clone()
    };
    let mut session = Session::new(&paths).map_err(CliError::input)?;
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = line.map_err(|e| CliError::input(format!("cannot read stdin: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = session.handle_line(&line);
        let written = stdout
            .write_all(reply.as_bytes())
            .and_then(|()| stdout.write_all(b"\n"))
            .and_then(|()| stdout.flush());
        match written {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => return Ok(true),
            Err(error) => return Err(CliError::input(format!("cannot write to stdout: {error}"))),
        }
    }
    Ok(true)
}
