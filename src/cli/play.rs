//! `gloam play RULESET`: a person against an agent in the terminal.

use std::fmt::Write as _;
use std::io::BufRead as _;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use gloam::agent::{Agent as _, GreedyAgent, RandomAgent};
use gloam::engine::RulesetGame;
use gloam::narrate::{Board, Narrator, piece_name};
use gloam::save::SavedGame;
use gloam::table_text::{PointQuestion, TableText};
use gloam_core::{Answer, Choice, Game, GameState, Options, PlayerId, Position, Request};

use super::CliError;
use super::data::DataArgs;
use super::screen;
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

/// What the screen shows of a game on a measured table at one decision: the drawing and,
/// for a question of table points, how to read them.
struct TableScreen {
    text: TableText,
    unit: gloam_core::LengthUnit,
    points: Option<PointQuestion>,
}

impl TableScreen {
    /// `None` for a game on hexes.
    fn of(
        rules: &RulesetGame,
        state: &GameState,
        request: Option<&Request>,
    ) -> Option<TableScreen> {
        let table = gloam::table_text::table_in(rules, state)?;
        let text = TableText::of_game(rules, state)?;
        let points = request.and_then(|r| PointQuestion::of(r, state, &table, rules.names()));
        Some(TableScreen {
            text,
            unit: table.unit,
            points,
        })
    }

    /// The refusal of an answer, in players' words on this table: the rules' reason (after
    /// "was refused: " when the error has it).
    fn readable(&self, error: &str, state: &GameState) -> String {
        let reason = error
            .split_once(" was refused: ")
            .map_or(error, |(_, reason)| reason);
        gloam::table_text::readable(reason, state, self.unit, &self.text.labels)
    }
}

fn describe(
    choice: &Choice,
    state: &GameState,
    viewer: PlayerId,
    board: &Board,
    rules: &RulesetGame,
    table: Option<&TableScreen>,
) -> String {
    if let Some(words) = table
        .and_then(|t| t.points.as_ref())
        .and_then(|points| points.describe(choice, state, &table?.text.labels))
    {
        return words;
    }
    match choice {
        Choice::Piece(id) => match state.piece(*id) {
            Some(piece) => {
                let whose = if piece.owner == viewer {
                    "your"
                } else {
                    "enemy"
                };
                let at = match (piece.position, table) {
                    (Some(Position::Table { at, .. }), Some(table)) => {
                        format!("at {}", gloam::table_text::point_words(at, table.unit))
                    }
                    (_, Some(_)) => "not on the table".to_owned(),
                    (position, None) => position
                        .and_then(|p| p.hex())
                        .map_or_else(|| "off the battlefield".to_owned(), |h| format!("at {h}")),
                };
                let label = match table {
                    Some(table) => table
                        .text
                        .labels
                        .get(id)
                        .map_or_else(String::new, char::to_string),
                    None => board.labels.get(id).cloned().unwrap_or_default(),
                };
                format!("{whose} {} ({label}) {at}", piece.kind)
            }
            None => "a fighter no longer in the game".to_owned(),
        },
        Choice::Card(id) => match state.cards.get(id) {
            Some(card) => match rules.library().card(&card.name) {
                Some(def) => match &def.text {
                    Some(text) => format!("{}: {text}", card.name),
                    None => card.name.clone(),
                },
                None => card.name.clone(),
            },
            None => "a card".to_owned(),
        },
        Choice::Hex(hex) => match state.piece_on(*hex) {
            Some(piece) => format!("hex {hex} (where {} stands)", piece_name(state, piece)),
            None => format!("hex {hex}"),
        },
        other => gloam::narrate::words(&other.to_string()),
    }
}

/// The answer to a line that is neither an option nor a command: a did-you-mean.
fn unknown_command(line: &str) -> String {
    let word = line.split_whitespace().next().unwrap_or_default();
    match gloam_grammar::closest(word, screen::COMMANDS.iter().copied()) {
        Some(best) => {
            format!("`{line}` is not a command; did you mean `{best}`? (`help` lists them)")
        }
        None => format!(
            "`{line}` is not an option or a command: type the number of an option, or `help`"
        ),
    }
}

/// `-1,7` or `(-1, 7)`: a hex by its axial coordinates.
fn parse_hex(line: &str) -> Option<gloam_core::Hex> {
    let inner = line.trim().trim_start_matches('(').trim_end_matches(')');
    let (q, r) = inner.split_once(',')?;
    Some(gloam_core::Hex::new(
        q.trim().parse().ok()?,
        r.trim().parse().ok()?,
    ))
}

fn parse_answer(
    line: &str,
    request: &Request,
    points: Option<&PointQuestion>,
) -> Result<Answer, String> {
    if let Some(answer) = points.and_then(|points| points.parse(line)) {
        return Ok(answer);
    }
    if let (Some(hex), Options::One { choices }) = (parse_hex(line), &request.options) {
        return if choices.contains(&Choice::Hex(hex)) {
            Ok(Answer::One(Choice::Hex(hex)))
        } else {
            Err(format!("hex {hex} is not one of the options"))
        };
    }
    let numbers: Result<Vec<usize>, _> = line.split_whitespace().map(str::parse::<usize>).collect();
    let numbers = numbers.map_err(|_| unknown_command(line))?;
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
        .map_err(|error| super::data::unplayable(&paths, &args.ruleset, error))
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
    let narrator = Narrator::new(&rules).for_viewer(human);
    let mut greedy = GreedyAgent::new(args.seed.wrapping_add(17));
    let mut random = RandomAgent::new(args.seed.wrapping_add(17));
    let mut shown = 0;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut quit_unsaved = false;
    let mut out = format!(
        "gloam play {}: you are {} ({}), seat {}; the other seat is a {:?} agent\n\
         type the number of an option; `help` lists the commands (`hand`, `show card NAME`, \
         `show fighter NAME`...); `save` writes {}, `quit` stops\n",
        args.ruleset,
        rules.spec().seats[args.seat as usize].name,
        rules.spec().seats[args.seat as usize].brings(),
        args.seat,
        args.opponent,
        args.save.display()
    );
    while !game.is_over() {
        let events = game.events_for(human);
        for line in narrator.lines(&events[shown..], game.state()) {
            let _ = writeln!(out, "{line}");
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
        let board = Board::of(&rules, game.state());
        let table = TableScreen::of(&rules, game.state(), Some(&request));
        out.push_str(&board_text(&rules, game.state(), &board, table.as_ref()));
        out.push('\n');
        out.push_str(&screen::hand(&rules, game.state(), human));
        out.push_str(&question(
            &request,
            game.state(),
            human,
            &board,
            &rules,
            table.as_ref(),
        ));
        super::emit(&std::mem::take(&mut out))?;
        loop {
            let Some(Ok(line)) = lines.next() else {
                let saved = save(&game, &paths, &args.save);
                super::emit(&format!("\nno more input; {}", saved.note))?;
                return Ok(saved.ok);
            };
            let line = line.trim();
            let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
            let rest = rest.trim();
            match (command, rest) {
                ("save", "") => {
                    let saved = save(&game, &paths, &args.save);
                    let goes_on = if saved.ok { "" } else { "the game goes on\n" };
                    super::emit(&format!("{}{goes_on}> ", saved.note))?;
                }
                ("quit", "") => {
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
                ("help", "") => super::emit(&format!("{}> ", screen::help()))?,
                ("hand", "") => {
                    super::emit(&format!("{}> ", screen::hand(&rules, game.state(), human)))?
                }
                ("board", "") => {
                    let board = Board::of(&rules, game.state());
                    super::emit(&format!(
                        "{}\n{}",
                        board_text(&rules, game.state(), &board, table.as_ref()),
                        question(
                            &request,
                            game.state(),
                            human,
                            &board,
                            &rules,
                            table.as_ref()
                        )
                    ))?;
                }
                ("show", rest) => {
                    let board = Board::of(&rules, game.state());
                    let (what, name) = rest.split_once(' ').unwrap_or((rest, ""));
                    let name = name.trim();
                    let text = match (what, name) {
                        ("card", name) if !name.is_empty() => screen::show_card(&rules, name),
                        ("fighter", name) if !name.is_empty() => {
                            screen::show_fighter(&rules, game.state(), &board, name)
                        }
                        (what, _) => {
                            let hint = gloam_grammar::closest(what, ["card", "fighter"])
                                .map(|best| format!("did you mean `show {best}`? "))
                                .unwrap_or_default();
                            format!(
                                "{hint}type `show card NAME` or `show fighter NAME` (a name or a board label such as `A1`)\n"
                            )
                        }
                    };
                    super::emit(&format!("{text}> "))?;
                }
                _ => match parse_answer(
                    line,
                    &request,
                    table.as_ref().and_then(|t| t.points.as_ref()),
                ) {
                    Ok(answer) => match game.submit(human, answer) {
                        Ok(_) => break,
                        Err(error) => {
                            let error = match &table {
                                Some(table) => table.readable(&error.to_string(), game.state()),
                                None => error.to_string(),
                            };
                            super::emit(&format!(
                                "refused: {error}\nnothing changed; answer again\n> "
                            ))?
                        }
                    },
                    Err(message) => super::emit(&format!("{message}\n> "))?,
                },
            }
        }
    }
    let events = game.events_for(human);
    for line in narrator.lines(&events[shown..], game.state()) {
        let _ = writeln!(out, "{line}");
    }
    let board = Board::of(&rules, game.state());
    match TableScreen::of(&rules, game.state(), None) {
        Some(table) => {
            out.push('\n');
            out.push_str(&table.text.drawing);
            out.push_str(&table.text.legend);
        }
        None => out.push_str(&screen::roster(&rules, game.state(), &board)),
    }
    let saved = save(&game, &paths, &args.save);
    out.push_str(&saved.note);
    super::emit(&out)?;
    Ok(saved.ok)
}

/// The battlefield, its legend and the fighters; or, in a game on a measured table, the
/// table drawn from above with its legend of terrain, objectives and units.
fn board_text(
    rules: &RulesetGame,
    state: &GameState,
    board: &Board,
    table: Option<&TableScreen>,
) -> String {
    if let Some(table) = table {
        return format!("{}{}", table.text.drawing, table.text.legend);
    }
    format!(
        "{}{}{}",
        board.drawing,
        board.legend(state),
        screen::roster(rules, state, board)
    )
}

/// The question put to the player and its numbered options, then the prompt.
fn question(
    request: &Request,
    state: &GameState,
    human: PlayerId,
    board: &Board,
    rules: &RulesetGame,
    table: Option<&TableScreen>,
) -> String {
    let mut out = format!("\n{}\n", request.prompt);
    let items: &[Choice] = match &request.options {
        Options::One { choices } | Options::Several { choices, .. } => choices,
        Options::Order { items } => items,
    };
    let options: Vec<String> = items
        .iter()
        .map(|choice| describe(choice, state, human, board, rules, table))
        .collect();
    out.push_str(&in_columns(&options));
    if let Some(points) = table.and_then(|t| t.points.as_ref()) {
        let unit = table.map_or("inches", |t| gloam::table_text::unit_name(t.unit));
        if points.takes_any_point() && points.offsets() {
            let _ = writeln!(
                out,
                "(a number, or a move of your own as X Y: {unit} east and north, `-` for west and south)"
            );
        } else if points.takes_any_point() {
            let _ = writeln!(
                out,
                "(a number, or a point of your own as X Y, in {unit} from the bottom-left corner)"
            );
        }
    }
    match &request.options {
        Options::Several { .. } => {
            out.push_str("(type the numbers of your choices, separated by spaces)\n")
        }
        Options::Order { .. } => out.push_str("(type every number, in the order you want)\n"),
        Options::One { choices } if choices.iter().any(|c| matches!(c, Choice::Hex(_))) => {
            out.push_str("(a number, or the hex as Q,R)\n");
        }
        Options::One { .. } => {}
    }
    out.push_str("> ");
    out
}

/// Numbered options, one a line; when there are many and they are short enough to fit 110
/// columns, in up to three columns, numbers running down each.
fn in_columns(options: &[String]) -> String {
    let mut out = String::new();
    let width = options.iter().map(|l| l.chars().count()).max().unwrap_or(0) + 9;
    let columns = if options.len() > 12 {
        (110 / width.max(1)).clamp(1, 3)
    } else {
        1
    };
    if columns == 1 {
        for (index, option) in options.iter().enumerate() {
            let _ = writeln!(out, "  {}. {option}", index + 1);
        }
        return out;
    }
    let rows = options.len().div_ceil(columns);
    for row in 0..rows {
        let mut line = String::new();
        for column in 0..columns {
            let index = column * rows + row;
            if let Some(option) = options.get(index) {
                let item = format!("{:>4}. {option}", index + 1);
                let _ = write!(line, "{item:<width$}");
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}
