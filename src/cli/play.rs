//! `gloam play RULESET`: a person against an agent in the terminal.

use std::fmt::Write as _;
use std::io::BufRead as _;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use gloam::agent::{Agent as _, GreedyAgent, RandomAgent};
use gloam::engine::RulesetGame;
use gloam::narrate::{draw_hexes, narrate};
use gloam::save::SavedGame;
use gloam_core::{Answer, Choice, Game, GameState, Options, PlayerId, Request};

use super::CliError;
use super::data::DataArgs;
use super::sim::ChoiceArgs;

/// Arguments of `gloam play`.
#[derive(Debug, Args)]
pub(crate) struct PlayArgs {
    /// The ruleset to play (`harrowdeep`).
    ruleset: String,
    #[command(flatten)]
    data: DataArgs,
    #[command(flatten)]
    choice: ChoiceArgs,
    /// Your seat: 0 plays first in set-up, 1 second.
    #[arg(long, default_value_t = 0)]
    seat: u8,
    /// The game's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Who plays the other seat.
    #[arg(long, value_enum, default_value_t = Opponent::Greedy)]
    opponent: Opponent,
    /// Where `save` writes the game (and where it is saved at the end).
    #[arg(long, default_value = "gloam-save.json")]
    save: PathBuf,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Opponent {
    /// Looks a little ahead for glory and damage.
    Greedy,
    /// Picks any legal option.
    Random,
}

fn describe(choice: &Choice, state: &GameState, viewer: PlayerId) -> String {
    match choice {
        Choice::Piece(id) => match state.piece(*id) {
            Some(piece) => {
                let whose = if piece.owner == viewer {
                    "your"
                } else {
                    "enemy"
                };
                let at = piece
                    .position
                    .and_then(|p| p.hex())
                    .map_or_else(|| "off the battlefield".to_owned(), |h| format!("at {h}"));
                format!("{whose} {} (#{}) {at}", piece.kind, id.0)
            }
            None => id.to_string(),
        },
        Choice::Card(id) => state
            .cards
            .get(id)
            .map_or_else(|| id.to_string(), |card| format!("card \"{}\"", card.name)),
        Choice::Hex(hex) => match state.piece_on(*hex) {
            Some(piece) => format!("hex {hex} (where #{} stands)", piece.0),
            None => format!("hex {hex}"),
        },
        other => other.to_string(),
    }
}

fn roster(state: &GameState) -> String {
    let mut out = String::new();
    for piece in state.pieces.values().filter(|p| p.layer.is_empty()) {
        let owner = state.player(piece.owner).map_or("?", |p| p.name.as_str());
        let damage = piece.counters.get("damage").copied().unwrap_or(0);
        let wounds = state.characteristic(piece.id, "wounds").unwrap_or(0);
        let tokens: Vec<String> = piece.tokens.keys().cloned().collect();
        let where_ = piece
            .position
            .and_then(|p| p.hex())
            .map_or_else(|| "off".to_owned(), |h| h.to_string());
        let _ = writeln!(
            out,
            "  #{:<2} {:<6} {:<24} {:>8}  damage {damage}/{wounds}  {}",
            piece.id.0,
            owner,
            piece.kind,
            where_,
            tokens.join(" ")
        );
    }
    for player in &state.players {
        let _ = writeln!(
            out,
            "  {}: glory {}",
            player.name,
            player.counters.get("glory").copied().unwrap_or(0)
        );
    }
    out
}

fn parse_answer(line: &str, request: &Request) -> Result<Answer, String> {
    let numbers: Result<Vec<usize>, _> = line.split_whitespace().map(str::parse::<usize>).collect();
    let numbers =
        numbers.map_err(|_| "type the number of an option (or `save`, `quit`)".to_owned())?;
    let pick = |items: &[Choice], n: usize| {
        items
            .get(n.wrapping_sub(1))
            .cloned()
            .ok_or_else(|| format!("there is no option {n}"))
    };
    match &request.options {
        Options::One { choices } => match numbers.as_slice() {
            [n] => Ok(Answer::One(pick(choices, *n)?)),
            _ => Err("type one number".into()),
        },
        Options::Several { choices, .. } => Ok(Answer::Several(
            numbers
                .iter()
                .map(|n| pick(choices, *n))
                .collect::<Result<_, _>>()?,
        )),
        Options::Order { items } => Ok(Answer::Order(
            numbers
                .iter()
                .map(|n| pick(items, *n))
                .collect::<Result<_, _>>()?,
        )),
    }
}

/// Saves the game; a save that fails leaves the previous one as it was and says so (the
/// game goes on).
fn save(game: &Game<RulesetGame>, paths: &[PathBuf], to: &Path) -> Saved {
    match SavedGame::of(game, paths.to_vec()).write(to) {
        Ok(()) => Saved {
            ok: true,
            // The hint names the save by its absolute path, so it works as printed from any
            // folder (the save records its data paths absolute too).
            note: format!(
                "saved to {} (`gloam replay {}` checks it)\n",
                to.display(),
                quote(
                    &std::path::absolute(to)
                        .unwrap_or_else(|_| to.to_path_buf())
                        .display()
                        .to_string()
                )
            ),
        },
        Err(error) => Saved {
            ok: false,
            note: format!("not saved: {error}; any earlier save there is unchanged\n"),
        },
    }
}

/// What a save did, for the player.
struct Saved {
    ok: bool,
    note: String,
}

/// A path as a shell reads it: quoted when it holds anything but plain characters.
fn quote(path: &str) -> String {
    if !path.is_empty()
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c))
    {
        path.to_owned()
    } else {
        format!("'{}'", path.replace('\'', "'\\''"))
    }
}

pub(crate) fn run(args: &PlayArgs) -> Result<bool, CliError> {
    let paths = args.data.paths()?;
    let rules = gloam::sim::prepare_match(&paths, &args.ruleset, 2, &args.choice.choice())
        .map_err(CliError::input)?;
    let seats = rules.spec().seats.len();
    if usize::from(args.seat) >= seats {
        return Err(CliError::input(format!("--seat must be below {seats}")));
    }
    let human = PlayerId(args.seat);
    let mut game = Game::start(
        rules.clone(),
        rules.setup(args.seed),
        RulesetGame::first_frames(),
    )
    .map_err(|e| CliError::input(e.to_string()))?;
    let mut greedy = GreedyAgent::new(args.seed.wrapping_add(17));
    let mut random = RandomAgent::new(args.seed.wrapping_add(17));
    let mut shown = 0;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut quit_unsaved = false;
    let mut out = format!(
        "gloam play {}: you are {} ({}), seat {}; the other seat is a {:?} agent\n\
         type the number of an option; `save` writes {}, `quit` stops\n",
        args.ruleset,
        rules.spec().seats[args.seat as usize].name,
        rules.spec().seats[args.seat as usize].warband,
        args.seat,
        args.opponent,
        args.save.display()
    );
    while !game.is_over() {
        let events = game.events_for(human);
        for event in &events[shown..] {
            if let Some(line) = narrate(event, game.state()) {
                let _ = writeln!(out, "{line}");
            }
        }
        shown = events.len();
        let Some(request) = game.pending().first().map(|r| (*r).clone()) else {
            return Err(CliError::input("the game stopped with no decision pending"));
        };
        if request.player != human {
            let answer = match args.opponent {
                Opponent::Greedy => greedy.choose_in(&game, &request),
                Opponent::Random => random.choose(&game.view(request.player), &request),
            };
            game.submit(request.player, answer)
                .map_err(|e| CliError::input(format!("the agent's answer was refused: {e}")))?;
            continue;
        }
        out.push('\n');
        // The layout the set-up chose (the boards are laid out before anything is drawn on
        // them).
        let battlefield = rules.battlefield_in(game.state());
        let hexes: std::collections::BTreeSet<_> = battlefield.hexes().collect();
        let blocked: std::collections::BTreeSet<_> =
            battlefield.hexes_of_type("blocked").into_iter().collect();
        out.push_str(&draw_hexes(&hexes, &blocked, game.state()));
        out.push_str(&roster(game.state()));
        let _ = writeln!(out, "\n{}", request.prompt);
        let items: &[Choice] = match &request.options {
            Options::One { choices } | Options::Several { choices, .. } => choices,
            Options::Order { items } => items,
        };
        for (index, choice) in items.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {}. {}",
                index + 1,
                describe(choice, game.state(), human)
            );
        }
        out.push_str("> ");
        super::emit(&std::mem::take(&mut out))?;
        loop {
            let Some(Ok(line)) = lines.next() else {
                let saved = save(&game, &paths, &args.save);
                super::emit(&format!("\nno more input; {}", saved.note))?;
                return Ok(saved.ok);
            };
            let line = line.trim();
            match line {
                "save" => {
                    let saved = save(&game, &paths, &args.save);
                    let goes_on = if saved.ok { "" } else { "the game goes on\n" };
                    super::emit(&format!("{}{goes_on}> ", saved.note))?;
                }
                "quit" => {
                    let saved = save(&game, &paths, &args.save);
                    if saved.ok || quit_unsaved {
                        super::emit(&saved.note)?;
                        return Ok(saved.ok);
                    }
                    quit_unsaved = true;
                    super::emit(&format!(
                        "{}the game goes on; type `quit` again to leave without saving\n> ",
                        saved.note
                    ))?;
                }
                _ => match parse_answer(line, &request) {
                    Ok(answer) => match game.submit(human, answer) {
                        Ok(_) => break,
                        Err(error) => super::emit(&format!("refused: {error}\n> "))?,
                    },
                    Err(message) => super::emit(&format!("{message}\n> "))?,
                },
            }
        }
    }
    let events = game.events_for(human);
    for event in &events[shown..] {
        if let Some(line) = narrate(event, game.state()) {
            let _ = writeln!(out, "{line}");
        }
    }
    out.push_str(&roster(game.state()));
    let saved = save(&game, &paths, &args.save);
    out.push_str(&saved.note);
    super::emit(&out)?;
    Ok(saved.ok)
}
