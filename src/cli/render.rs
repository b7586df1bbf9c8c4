//! `gloam render`: an SVG picture of a game state (docs/render.md).

use std::path::{Path, PathBuf};
use std::rc::Rc;

use clap::Args;
use gloam::engine::RulesetGame;
use gloam::render::{Overlays, RenderError, Stop};
use gloam::save::SavedGame;
use gloam_core::{GameState, PieceId};

use super::CliError;
use super::data::{DataArgs, require_ruleset};
use super::sim::ChoiceArgs;

/// Arguments of `gloam render`.
#[derive(Debug, Args)]
pub(crate) struct RenderArgs {
    /// The ruleset of a new game to draw (`harrowdeep`); or give `--save FILE`.
    ruleset: Option<String>,
    #[command(flatten)]
    data: DataArgs,
    #[command(flatten)]
    choice: ChoiceArgs,
    /// A saved game (from `gloam play`) to draw instead of a new game.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// The decision to draw: the state after this many answers (0: the first decision).
    /// Default: a saved game's last state; a new game's first decision with every fighter
    /// on the battlefield.
    #[arg(long, value_name = "N")]
    step: Option<usize>,
    /// The number of players of a new game, where the edition has multiplayer (default 2).
    #[arg(long)]
    players: Option<usize>,
    /// The seed of a new game (its seats are random agents seeded with it; default 1).
    #[arg(long)]
    seed: Option<u64>,
    /// Shade what this fighter can see (name, unique start of a name, or number `#N`).
    #[arg(long, value_name = "FIGHTER")]
    los: Option<String>,
    /// Ring the hexes within N hexes of this fighter (`FIGHTER:N`).
    #[arg(long, value_name = "FIGHTER:N")]
    range: Option<String>,
    /// Write the SVG here instead of to stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print a JSON summary (the step, the picture's size, where each fighter is; the SVG
    /// itself when there is no `--out`).
    #[arg(long)]
    json: bool,
}

/// Loads `paths` and checks the data, with the same messages as the other commands.
pub(crate) fn load(
    paths: &[PathBuf],
) -> Result<(Rc<gloam::load::Loaded>, Rc<gloam_dsl::Host>), CliError> {
    let (sources, problems) = gloam::load::read_paths(paths);
    if let Some(first) = problems.first() {
        return Err(CliError::input(format!(
            "{first}; pass --data PATH to load other data"
        )));
    }
    gloam::sim::load_checked(&sources).map_err(CliError::input)
}

/// Reads a save and loads its data (`--data`, else the paths it records, else the built-in
/// data with a note), as `gloam replay` does.
pub(crate) fn read_save(
    file: &Path,
    data: &DataArgs,
) -> Result<(SavedGame, Rc<gloam::load::Loaded>, Rc<gloam_dsl::Host>), CliError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", file.display())))?;
    let saved = SavedGame::from_json(&text)
        .map_err(|e| CliError::input(format!("{}: {e}", file.display())))?;
    let paths = super::replay::save_data(&saved, file, data)?;
    let (loaded, host) = load(&paths)?;
    Ok((saved, loaded, host))
}

fn parse_range(text: &str) -> Result<(String, u32), CliError> {
    let (fighter, reach) = text.rsplit_once(':').ok_or_else(|| {
        CliError::usage(format!(
            "--range `{text}`: write FIGHTER:N, e.g. `--range Ironskull:3`"
        ))
    })?;
    let reach = reach.trim().parse::<u32>().map_err(|_| {
        CliError::usage(format!(
            "--range `{text}`: `{reach}` is not a number of hexes"
        ))
    })?;
    Ok((fighter.to_owned(), reach))
}

fn input(error: RenderError) -> CliError {
    CliError::input(error.to_string())
}

pub(crate) fn run(args: &RenderArgs) -> Result<bool, CliError> {
    let range = args.range.as_deref().map(parse_range).transpose()?;
    let (rules, state, step, steps): (RulesetGame, GameState, usize, Option<usize>) = match (
        &args.save,
        &args.ruleset,
    ) {
        (Some(_), Some(ruleset)) => {
            return Err(CliError::usage(format!(
                "give a ruleset (`{ruleset}`) or --save FILE, not both: a save names its ruleset"
            )));
        }
        (None, None) => {
            return Err(CliError::usage(
                "what to draw? give a ruleset (`gloam render harrowdeep`) or --save FILE",
            ));
        }
        (Some(file), None) => {
            let choice = args.choice.choice();
            let new_game_flags = [
                (args.seed.is_some(), "--seed"),
                (args.players.is_some(), "--players"),
                (!choice.warbands.is_empty(), "--warbands"),
                (!choice.boards.is_empty(), "--boards"),
                (!choice.decklists.is_empty(), "--decklists"),
            ];
            if let Some((_, flag)) = new_game_flags.iter().find(|(given, _)| *given) {
                return Err(CliError::usage(format!(
                    "{flag} sets up a new game; a save (--save) plays the match and seed it records"
                )));
            }
            let (saved, loaded, host) = read_save(file, &args.data)?;
            let (rules, mut all) = gloam::render::steps_of(&saved, loaded, host)
                .map_err(|e| CliError::input(format!("{}: {e}", file.display())))?;
            let last = all.len() - 1;
            let step = args.step.unwrap_or(last);
            if step > last {
                return Err(input(RenderError::StepPastEnd {
                    step,
                    what: format!(
                        "{} records {last} decisions, so --step takes 0 to {last}",
                        file.display()
                    ),
                }));
            }
            let state = all.swap_remove(step).state;
            (rules, state, step, Some(last))
        }
        (None, Some(ruleset)) => {
            let paths = args.data.paths()?;
            let (loaded, host) = load(&paths)?;
            require_ruleset(&loaded.library, ruleset)?;
            let spec = gloam::sim::match_for(
                &loaded,
                ruleset,
                args.players.unwrap_or(2),
                &args.choice.choice(),
            )
            .map_err(CliError::input)?;
            let rules =
                RulesetGame::new(loaded, host, spec).map_err(|e| CliError::input(e.to_string()))?;
            let stop = args.step.map_or(Stop::Deployed, Stop::Step);
            let (game, step) =
                gloam::render::play_to(&rules, args.seed.unwrap_or(1), stop).map_err(input)?;
            (rules, game.state().clone(), step, None)
        }
    };
    let fighter = |name: &str| gloam::render::find_fighter(&state, name).map_err(input);
    let overlays = Overlays {
        sight_from: args.los.as_deref().map(fighter).transpose()?,
        range: range
            .map(|(name, reach)| Ok::<(PieceId, u32), CliError>((fighter(&name)?, reach)))
            .transpose()?,
    };
    let layers = gloam::render::layers(&rules, &state, &overlays).map_err(input)?;
    let svg = layers.to_svg();
    if let Some(out) = &args.out {
        std::fs::write(out, &svg)
            .map_err(|e| CliError::input(format!("cannot write {}: {e}", out.display())))?;
    }
    if args.json {
        let fighters: Vec<serde_json::Value> = state
            .pieces
            .values()
            .filter(|p| p.layer.is_empty())
            .map(|piece| {
                let names = rules.names();
                serde_json::json!({
                    "id": piece.id.0,
                    "owner": piece.owner.0,
                    "fighter": piece.kind,
                    "hex": piece.position.and_then(|p| p.hex()).map(|h| [h.q, h.r]),
                    "damage": piece.counters.get(&names.damage).copied().unwrap_or(0),
                    "wounds": state.characteristic(piece.id, &names.wounds),
                    "tokens": piece.tokens,
                })
            })
            .collect();
        let document = serde_json::json!({
            "ruleset": rules.spec().ruleset,
            "step": step,
            "steps": steps,
            "width": layers.size.0,
            "height": layers.size.1,
            "out": args.out,
            "fighters": fighters,
            "svg": if args.out.is_none() { Some(&svg) } else { None },
        });
        let text =
            serde_json::to_string_pretty(&document).map_err(|e| CliError::input(e.to_string()))?;
        super::emit(&format!("{text}\n"))?;
    } else if args.out.is_none() {
        super::emit(&svg)?;
    } else if let Some(out) = &args.out {
        eprintln!("wrote {} (step {step})", out.display());
    }
    Ok(true)
}
