//! The subcommands of `gloam`.

pub(crate) mod check;
pub(crate) mod data;
pub(crate) mod geom;
pub(crate) mod odds;
pub(crate) mod play;
pub(crate) mod replay;
pub(crate) mod rules;
pub(crate) mod serve;
pub(crate) mod sim;
pub(crate) mod text;
pub(crate) mod try_card;

/// Writes `text` to stdout. A closed pipe (`gloam rules list | head`) is not an error: the reader
/// has what it wanted.
pub(crate) fn emit(text: &str) -> Result<(), CliError> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(error) => Err(CliError::input(format!("cannot write to stdout: {error}"))),
    }
}

/// A failure of a subcommand: a message for stderr and an exit code.
#[derive(Debug)]
pub(crate) struct CliError {
    message: String,
    code: u8,
}

impl CliError {
    /// A failure of the input (exit 1).
    pub(crate) fn input(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: 1,
        }
    }

    /// A misuse of the command line (exit 2, as for clap's own usage errors).
    pub(crate) fn usage(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: 2,
        }
    }

    pub(crate) fn exit_code(&self) -> u8 {
        self.code
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}
