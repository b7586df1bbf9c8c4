//! The command-line conventions every subcommand shares: where the data comes from
//! (`--data PATH`, repeatable; else `GLOAM_DATA`; else the built-in `cards/` folder), the
//! ruleset's "did you mean", and the deprecation notes of old spellings.

use std::path::{Path, PathBuf};

use clap::Args;

use super::CliError;

/// The environment variable naming the default data paths (separated like `PATH`).
pub(crate) const DATA_ENV: &str = "GLOAM_DATA";

/// `--data PATH`, repeatable.
#[derive(Clone, Debug, Default, Args)]
pub(crate) struct DataArgs {
    /// A data file or folder to load (repeatable). Default: the paths in the environment
    /// variable GLOAM_DATA (separated by `:`), else the built-in `cards/` folder.
    #[arg(long = "data", value_name = "PATH")]
    pub(crate) data: Vec<PathBuf>,
}

impl DataArgs {
    /// The data paths: `--data`, else `extra` (an old positional spelling), else the default.
    pub(crate) fn paths_or(&self, extra: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
        if !self.data.is_empty() {
            let mut paths = self.data.clone();
            paths.extend(extra.iter().cloned());
            return Ok(paths);
        }
        if !extra.is_empty() {
            return Ok(extra.to_vec());
        }
        default_paths()
    }

    /// The data paths: `--data`, else the default.
    pub(crate) fn paths(&self) -> Result<Vec<PathBuf>, CliError> {
        self.paths_or(&[])
    }
}

/// The default data: `GLOAM_DATA` if set, else the built-in `cards/` folder: in the current
/// folder, else next to the `gloam` binary (or in a folder above it, as in a build tree),
/// else in the project the binary was built from.
pub(crate) fn default_paths() -> Result<Vec<PathBuf>, CliError> {
    if let Some(value) = std::env::var_os(DATA_ENV) {
        let paths: Vec<PathBuf> = std::env::split_paths(&value)
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
        if !paths.is_empty() {
            return Ok(paths);
        }
    }
    builtin_cards().map(|p| vec![p]).ok_or_else(|| {
        CliError::input(format!(
            "no data to load: there is no `cards` folder here or beside the gloam binary; \
             pass --data PATH (a .gloam file or a folder of them) or set {DATA_ENV}"
        ))
    })
}

/// The built-in `cards/` folder, if one can be found.
pub(crate) fn builtin_cards() -> Option<PathBuf> {
    let here = PathBuf::from("cards");
    if is_data_folder(&here) {
        return Some(here);
    }
    if let Ok(exe) = std::env::current_exe() {
        for folder in exe.ancestors().skip(1).take(4) {
            let cards = folder.join("cards");
            if is_data_folder(&cards) {
                return Some(cards);
            }
        }
    }
    let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("cards");
    is_data_folder(&project).then_some(project)
}

/// A folder that holds the shipped rulesets (its `underworlds` model at least).
fn is_data_folder(path: &Path) -> bool {
    path.join("underworlds").is_dir()
}

/// Prints the deprecation note of an old spelling on stderr (it keeps working one release).
pub(crate) fn deprecated(old: &str, new: &str) {
    eprintln!("note: deprecated: {old} (it works in this release, not the next); use {new}");
}

/// The ruleset and any data paths of an old spelling, from a command's positional words and
/// its old `--ruleset` flag: `RULESET` (the convention), `--ruleset RULESET [PATH...]` or
/// `RULESET PATH...` (old spellings: a deprecation note each, and they keep working one
/// release).
pub(crate) fn ruleset_and_old_paths(
    positional: &[String],
    flag: Option<&String>,
) -> Result<(String, Vec<PathBuf>), CliError> {
    let (ruleset, rest) = match (flag, positional.split_first()) {
        (Some(ruleset), _) => {
            deprecated("`--ruleset NAME`", "the ruleset as the first argument");
            (ruleset.clone(), positional)
        }
        (None, Some((ruleset, rest))) => (ruleset.clone(), rest),
        (None, None) => {
            return Err(CliError::usage(
                "which ruleset? give its name as the first argument (`gloam rules list` lists them)",
            ));
        }
    };
    if !rest.is_empty() {
        deprecated("data paths as arguments", "--data PATH (repeatable)");
    }
    Ok((ruleset, rest.iter().map(PathBuf::from).collect()))
}

/// Fails with "no ruleset named ..., did you mean ..." when `name` is not in `library`.
pub(crate) fn require_ruleset(
    library: &gloam_grammar::Library,
    name: &str,
) -> Result<(), CliError> {
    if library.ruleset(name).is_some() {
        Ok(())
    } else {
        Err(CliError::input(gloam::sim::unknown_ruleset(library, name)))
    }
}

/// The paths as one would type them after `--data`, for hints.
pub(crate) fn data_flags(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| format!("--data {}", p.display()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The message for a match that could not be set up: when the ruleset is loaded but has no
/// flow (no `step` items: `underworlds`, `spearhead`), that it is declared and not played;
/// otherwise `error` as it is. Loads the data again, on this failure path only.
pub(crate) fn unplayable(paths: &[PathBuf], ruleset: &str, error: String) -> String {
    let (sources, problems) = gloam::load::read_paths(paths);
    if !problems.is_empty() {
        return error;
    }
    let (loaded, problems) = gloam::load::load(&sources, &gloam_dsl::Host::new());
    if !problems.is_empty() {
        return error;
    }
    match loaded.library.ruleset(ruleset) {
        Some(resolved) if resolved.steps.is_empty() => format!(
            "ruleset `{ruleset}` has no flow yet (no `step` items): its data is declared and checked (`gloam check`), but it cannot be played"
        ),
        _ => error,
    }
}
