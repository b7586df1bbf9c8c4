//! A game on a measured table played through the driver end to end (issue 13): the match
//! seats each player's army (every warscroll's units of models, off the table, with their
//! unit numbers and base radii), builds the world from the ruleset's `table` item and map,
//! and plays the flow of `tests/data/skirmish/skirmish.gloam` (set up each unit wholly within
//! its territory with `choose_setup`, then each player moves a unit with `choose_move` under
//! a Normal-Move-like limit) through `Game`: candidate answers, free points accepted when
//! legal and refused with nothing changed when not, random agents, invariants, determinism,
//! saves.

use std::path::PathBuf;

use gloam::agent::{Agent, RandomAgent};
use gloam::engine::RulesetGame;
use gloam::save::SavedGame;
use gloam::sim::{MatchChoice, check_invariants, match_for, prepare_match};
use gloam_core::{
    Answer, Choice, Game, GameError, GameState, Options, PieceId, PlayerId, Point, Position,
    Request, RuleError,
};

const INCH: i64 = 254;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/skirmish")
}

fn rules_with(choice: &MatchChoice) -> RulesetGame {
    prepare_match(&[data()], "skirmish", 2, choice).expect("the skirmish match")
}

fn start(seed: u64) -> Game<RulesetGame> {
    let rules = rules_with(&MatchChoice::default());
    Game::start(
        rules.clone(),
        rules.setup(seed),
        RulesetGame::first_frames(),
    )
    .expect("started")
}

fn pending(game: &Game<RulesetGame>) -> Request {
    (*game.pending().first().expect("a pending request")).clone()
}

/// The listed candidate points of a table request (without the `AnyPoint` marker).
fn candidates(request: &Request) -> Vec<Point> {
    let Options::One { choices } = &request.options else {
        panic!("a one-choice request: {request:?}");
    };
    assert!(
        choices.contains(&Choice::AnyPoint),
        "a table request takes any point: {choices:?}"
    );
    choices
        .iter()
        .filter_map(|choice| match choice {
            Choice::Point(point) => Some(*point),
            _ => None,
        })
        .collect()
}

/// The `index`th piece of the game, in id order (Ann's models, then Bo's, as seated).
fn nth(game: &Game<RulesetGame>, index: usize) -> PieceId {
    *game.state().pieces.keys().nth(index).expect("a piece")
}

/// Where the `index`th piece's base centre is on the table.
fn point(game: &Game<RulesetGame>, index: usize) -> Option<Point> {
    match game.state().piece(nth(game, index))?.position? {
        Position::Table { at, .. } => Some(at),
        Position::Hex(_) => None,
    }
}

fn answer(game: &mut Game<RulesetGame>, request: &Request, choice: Choice) {
    game.submit(request.player, Answer::One(choice))
        .unwrap_or_else(|error| panic!("{error} (answering {request:?})"));
    check_invariants(game.state()).expect("the invariants");
    table_invariants(game.state()).expect("the table invariants");
}

/// What every state of a table game keeps beyond the driver's invariants: every model on
/// the table has its base wholly on the 20-inch table, and no two bases overlap (bases may
/// touch).
fn table_invariants(state: &GameState) -> Result<(), String> {
    let side = 20 * INCH;
    let on_table: Vec<(PieceId, Point, i64)> = state
        .pieces
        .values()
        .filter_map(|piece| match piece.position {
            Some(Position::Table { at, .. }) => Some((
                piece.id,
                at,
                state.characteristic(piece.id, "base_radius").unwrap_or(0),
            )),
            _ => None,
        })
        .collect();
    for (id, at, radius) in &on_table {
        if at.x - radius < 0 || at.y - radius < 0 || at.x + radius > side || at.y + radius > side {
            return Err(format!("{id} at {at:?} is not wholly on the table"));
        }
    }
    for (index, (a, at_a, ra)) in on_table.iter().enumerate() {
        for (b, at_b, rb) in &on_table[index + 1..] {
            let (dx, dy) = (i128::from(at_a.x - at_b.x), i128::from(at_a.y - at_b.y));
            let reach = i128::from(ra + rb);
            if dx * dx + dy * dy < reach * reach {
                return Err(format!("the bases of {a} and {b} overlap"));
            }
        }
    }
    Ok(())
}

#[test]
fn the_default_match_seats_the_armies_and_plays_on_the_first_table_and_map_until_the_flow_picks() {
    let rules = rules_with(&MatchChoice::default());
    let spec = rules.spec();
    let armies: Vec<Option<&str>> = spec.seats.iter().map(|s| s.army.as_deref()).collect();
    assert_eq!(armies, [Some("Red Band"), Some("Blue Band")]);
    assert_eq!(spec.seats[0].brings(), "Red Band");
    // Table and map are left to the flow (`table_layouts`, `lay_out_battlefield`): every map
    // of the ruleset's table is a layout, the first in play until one is chosen.
    let table = spec.table.as_ref().expect("a table match");
    assert_eq!((table.table.as_deref(), table.map.as_deref()), (None, None));
    assert_eq!(
        rules.layout_names(),
        ["Square Field / Halves", "Square Field / Strips"]
    );
    let game = start(1);
    assert_eq!(
        rules.table_and_map_in(game.state()),
        Some(("Square Field", "Halves"))
    );
}

#[test]
fn every_model_is_a_piece_off_the_table_with_its_unit_base_and_stats() {
    let game = start(1);
    let state = game.state();
    let row = |id: PieceId| {
        let piece = state.piece(id).expect("a piece");
        let stat = |name: &str| state.characteristic(piece.id, name).unwrap_or(-1);
        (
            piece.owner,
            piece.kind.clone(),
            stat("unit"),
            stat("base_radius"),
            stat("move"),
            stat("health"),
            piece.position.is_none(),
        )
    };
    // skirmish.gloam: Red Band is a Red Captain (1 model, 40mm base, Move 5in) and a unit of
    // three Red Spears (25mm, 4in); Blue Band two units of two Blue Blades (32mm, 6in).
    // Units are numbered from 1 across the match; radii are half the base, in tenths of a
    // millimetre; Move is a length in tenths of a millimetre.
    let expected = [
        (PlayerId(0), "Red Captain", 1, 200, 5 * INCH, 4),
        (PlayerId(0), "Red Spears", 2, 125, 4 * INCH, 1),
        (PlayerId(0), "Red Spears", 2, 125, 4 * INCH, 1),
        (PlayerId(0), "Red Spears", 2, 125, 4 * INCH, 1),
        (PlayerId(1), "Blue Blades", 3, 160, 6 * INCH, 2),
        (PlayerId(1), "Blue Blades", 3, 160, 6 * INCH, 2),
        (PlayerId(1), "Blue Blades", 4, 160, 6 * INCH, 2),
        (PlayerId(1), "Blue Blades", 4, 160, 6 * INCH, 2),
    ];
    // The models, then one piece (layer `terrain`) for the table's feature set up in play.
    let models = state.pieces.values().filter(|p| p.layer.is_empty()).count();
    assert_eq!(models, expected.len());
    let terrain: Vec<&str> = state
        .pieces
        .values()
        .filter(|p| p.layer == gloam_dsl::TERRAIN_LAYER)
        .map(|p| p.kind.as_str())
        .collect();
    assert_eq!(terrain, ["Crate"]);
    for (index, (owner, kind, unit, radius, moves, health)) in expected.into_iter().enumerate() {
        let id = *state.pieces.keys().nth(index).expect("a piece");
        assert_eq!(
            row(id),
            (owner, kind.to_owned(), unit, radius, moves, health, true),
            "piece {id:?}"
        );
    }
    let captain = state.pieces.values().next().expect("the captain");
    assert!(captain.keywords.contains("hero") && captain.keywords.contains("infantry"));
    // A table game has no glory: the hex games' counter is not set.
    assert!(!state.players[0].counters.contains_key("glory"));
}

#[test]
fn a_choice_picks_the_armies_table_and_map_and_bad_names_are_refused() {
    let choice = MatchChoice {
        armies: vec!["Blue Band".into()],
        map: Some("Strips".into()),
        ..MatchChoice::default()
    };
    let rules = rules_with(&choice);
    let armies: Vec<&str> = rules.spec().seats.iter().map(|s| s.brings()).collect();
    assert_eq!(armies, ["Blue Band", "Blue Band"]);
    assert_eq!(
        rules.spec().table.as_ref().expect("table").map.as_deref(),
        Some("Strips")
    );
    assert_eq!(rules.layout_names(), ["Square Field / Strips"]);
    // On the Strips map seat 0 holds West: its first set-up candidate is wholly within
    // x <= 6in.
    let mut game =
        Game::start(rules.clone(), rules.setup(2), RulesetGame::first_frames()).expect("started");
    let request = pending(&game);
    let first = candidates(&request)[0];
    assert!(first.x + 160 <= 6 * INCH, "{first:?}");
    answer(&mut game, &request, Choice::Point(first));

    let (sources, _) = gloam::load::read_paths(&[data()]);
    let (loaded, problems) = gloam::load::load(&sources, &gloam_dsl::Host::new());
    assert!(problems.is_empty(), "{problems:?}");
    let refused = |choice: MatchChoice| match_for(&loaded, "skirmish", 2, &choice).unwrap_err();
    let army = refused(MatchChoice {
        armies: vec!["Red Bnd".into()],
        ..MatchChoice::default()
    });
    assert!(army.contains("no army named `Red Bnd`"), "{army}");
    assert!(army.contains("did you mean `Red Band`"), "{army}");
    let map = refused(MatchChoice {
        map: Some("Diagonal".into()),
        ..MatchChoice::default()
    });
    assert!(map.contains("no map named `Diagonal`"), "{map}");
    let table = refused(MatchChoice {
        table: Some("Round Field".into()),
        ..MatchChoice::default()
    });
    assert!(table.contains("no table named `Round Field`"), "{table}");
    let warbands = refused(MatchChoice {
        warbands: vec!["Red Band".into()],
        ..MatchChoice::default()
    });
    assert!(warbands.contains("no warband named"), "{warbands}");
    let decklists = refused(MatchChoice {
        decklists: vec!["any".into()],
        ..MatchChoice::default()
    });
    assert!(decklists.contains("takes no decklists"), "{decklists}");
}

/// Seed 1, answered by hand: Ann sets the Red Captain up at a candidate and the Red Spears
/// at a free point (after one refused), Bo takes first candidates, then each moves a unit.
#[test]
fn candidates_and_free_points_set_up_and_move_units_and_an_illegal_point_changes_nothing() {
    let mut game = start(1);
    let request = pending(&game);
    assert_eq!(request.player, PlayerId(0));
    assert_eq!(request.prompt, "Where does the unit set up?");
    let offered = candidates(&request);
    assert!(!offered.is_empty());
    // Every candidate is legal: the captain's 40mm base wholly within South (y <= 10in).
    for at in &offered {
        assert!(at.y + 200 <= 10 * INCH && at.x >= 200, "{at:?}");
    }
    answer(&mut game, &request, Choice::Point(offered[0]));
    // The deploy step places its units when it finishes (a script that stops for a choice
    // runs again from the top with every answer): nothing is on the table yet.
    assert_eq!(point(&game, 0), None);

    // The Red Spears: a row of three 25mm bases from the anchor along x. At y = 2500 the
    // bases reach 2625 > 10in = 2540: not wholly within South, refused.
    let request = pending(&game);
    let (state, events) = (game.state().clone(), game.events().to_vec());
    let record = game.record().clone();
    let outside = Point::new(1111, 2500);
    assert!(!candidates(&request).contains(&outside));
    let error = game
        .submit(request.player, Answer::One(Choice::Point(outside)))
        .expect_err("a point the spears cannot be set up at");
    let GameError::Rule(RuleError::AnswerRefused { reason, .. }) = &error else {
        panic!("refused as AnswerRefused: {error:?}");
    };
    assert!(reason.contains("wholly within"), "{reason}");
    assert_eq!(game.state(), &state, "the state is unchanged");
    assert_eq!(game.events(), events.as_slice(), "the log is unchanged");
    assert_eq!(game.record(), &record, "the record is unchanged");
    assert_eq!(pending(&game), request, "the same request is pending");

    // A legal point that is not a candidate is accepted: the row starts there.
    let free = Point::new(1111, 1111);
    assert!(!candidates(&request).contains(&free));
    answer(&mut game, &request, Choice::Point(free));
    assert_eq!(point(&game, 0), Some(offered[0]));
    assert_eq!(point(&game, 1), Some(free));
    assert_eq!(point(&game, 2), Some(Point::new(1111 + 250, 1111)));
    assert_eq!(point(&game, 3), Some(Point::new(1111 + 500, 1111)));

    // Bo sets up both units at their first candidates, wholly within North (y >= 10in).
    for _ in 0..2 {
        let request = pending(&game);
        assert_eq!(request.player, PlayerId(1));
        let at = candidates(&request)[0];
        assert!(at.y - 160 >= 10 * INCH, "{at:?}");
        answer(&mut game, &request, Choice::Point(at));
    }
    for id in 4..8 {
        assert!(point(&game, id).is_some(), "piece {id} is set up");
    }

    // Ann moves the captain: up to 5in, never within 3in of an enemy on the way.
    let request = pending(&game);
    assert_eq!(request.prompt, "Which unit moves?");
    let piece = nth(&game, 0);
    answer(&mut game, &request, Choice::Piece(piece));
    let request = pending(&game);
    assert_eq!(request.prompt, "Where does the unit move?");
    let offsets = candidates(&request);
    assert!(!offsets.is_empty());
    let start = point(&game, 0).expect("on the table");
    // 5in and a tenth of a millimetre east: over the budget, refused, nothing changed.
    let state = game.state().clone();
    let events = game.events().len();
    let too_far = Point::new(5 * INCH + 1, 0);
    let error = game
        .submit(request.player, Answer::One(Choice::Point(too_far)))
        .expect_err("beyond the Move");
    assert!(
        matches!(error, GameError::Rule(RuleError::AnswerRefused { .. })),
        "{error:?}"
    );
    assert_eq!(game.state(), &state);
    assert_eq!(game.events().len(), events);
    // Exactly 5in east is within the budget (distances are inclusive).
    let exact = Point::new(5 * INCH, 0);
    answer(&mut game, &request, Choice::Point(exact));
    assert_eq!(
        point(&game, 0),
        Some(Point::new(start.x + 5 * INCH, start.y))
    );

    // Bo moves a unit with a candidate offset; the game then ends, a draw.
    let request = pending(&game);
    let piece = nth(&game, 4);
    answer(&mut game, &request, Choice::Piece(piece));
    let request = pending(&game);
    let offset = candidates(&request)[0];
    let before = point(&game, 4).expect("on the table");
    answer(&mut game, &request, Choice::Point(offset));
    assert_eq!(
        point(&game, 4),
        Some(Point::new(before.x + offset.x, before.y + offset.y))
    );
    assert!(game.is_over());
    let result = game.state().result.as_ref().expect("a result");
    assert!(result.winners.is_empty());
}

#[test]
fn a_move_never_comes_within_combat_range_at_the_exact_boundary() {
    // Ann's captain (40mm base) at (10in, 1500); Bo's first Blue Blades (32mm) from
    // (10in, 2700), in a row eastward: 2700 - 1500 - 200 - 160 = 840 between the bases. The
    // limit: never within 3in (762) of an enemy on the way, inclusive (docs/dsl.md, "The
    // measured table"; Normal Move, seed 004 L80-90).
    let mut game = start(4);
    let setups = [
        Point::new(10 * INCH, 1500),
        Point::new(508, 508),
        Point::new(10 * INCH, 2700),
        Point::new(508, 17 * INCH),
    ];
    for at in setups {
        let request = pending(&game);
        assert_eq!(request.prompt, "Where does the unit set up?");
        answer(&mut game, &request, Choice::Point(at));
    }
    let request = pending(&game);
    let piece = nth(&game, 0);
    answer(&mut game, &request, Choice::Piece(piece));
    let request = pending(&game);
    // 78 north ends exactly 3in from the blade: within combat range, refused.
    let state = game.state().clone();
    let error = game
        .submit(
            request.player,
            Answer::One(Choice::Point(Point::new(0, 78))),
        )
        .expect_err("into combat range");
    let GameError::Rule(RuleError::AnswerRefused { reason, .. }) = &error else {
        panic!("{error:?}");
    };
    assert!(!reason.is_empty());
    assert_eq!(game.state(), &state);
    assert_eq!(&pending(&game), &request);
    // 77 north stays a tenth of a millimetre outside it: accepted.
    answer(&mut game, &request, Choice::Point(Point::new(0, 77)));
    assert_eq!(point(&game, 0), Some(Point::new(10 * INCH, 1577)));
}

/// Plays a game with random agents, checking every invariant after every decision; the
/// event log.
fn random_game(seed: u64) -> Game<RulesetGame> {
    let mut game = start(seed);
    let mut agents = [
        RandomAgent::new(seed * 2 + 1),
        RandomAgent::new(seed * 2 + 2),
    ];
    let mut decisions = 0;
    while !game.is_over() {
        let request = pending(&game);
        let choice =
            agents[usize::from(request.player.0)].choose(&game.view(request.player), &request);
        game.submit(request.player, choice)
            .unwrap_or_else(|error| panic!("seed {seed}, decision {decisions}: {error}"));
        check_invariants(game.state()).expect("the invariants");
        table_invariants(game.state())
            .unwrap_or_else(|error| panic!("seed {seed}, decision {decisions}: {error}"));
        decisions += 1;
        assert!(decisions < 100, "seed {seed}: no end");
    }
    game
}

#[test]
fn random_agents_finish_games_keeping_the_invariants() {
    for seed in 1..=20 {
        let game = random_game(seed);
        // Four set-ups, two units picked, and a move for each unless no move is legal (a
        // unit set up within 3in of an enemy may not move: `choose_move` then asks nothing).
        let answers = game.record().answers.len();
        assert!((6..=8).contains(&answers), "seed {seed}: {answers}");
        assert!(
            game.state()
                .pieces
                .values()
                .filter(|p| p.layer.is_empty())
                .all(|p| p.position.is_some()),
            "seed {seed}: every model was set up"
        );
    }
}

#[test]
fn the_driver_simulation_plays_table_games_without_error() {
    let rules = rules_with(&MatchChoice::default());
    for seed in 1..=10 {
        let summary = gloam::sim::play_one(&rules, seed);
        assert_eq!(summary.error, None, "seed {seed}");
        assert!(summary.winners.is_empty(), "a draw");
        assert!((6..=8).contains(&summary.decisions), "seed {seed}");
    }
}

#[test]
fn the_same_seed_and_answers_give_the_same_log() {
    for seed in [3, 9] {
        let first = random_game(seed);
        let second = random_game(seed);
        assert_eq!(first.events(), second.events(), "seed {seed}");
        let rules = rules_with(&MatchChoice::default());
        let replayed = Game::replay(rules, first.record(), RulesetGame::first_frames())
            .expect("the record replays");
        assert_eq!(replayed.events(), first.events());
    }
    // Different answers, different logs: seeds 3 and 9 do not play the same game.
    assert_ne!(random_game(3).events(), random_game(9).events());
}

#[test]
fn a_table_game_saves_and_replays() {
    let game = random_game(5);
    let saved = SavedGame::of(&game, vec![data()]);
    let json = serde_json::to_string(&saved).expect("json");
    assert!(
        json.contains("\"army\":\"Red Band\""),
        "the seats' armies are saved"
    );
    assert!(
        json.contains("\"table\":{\"table\":null,\"map\":null}"),
        "the match's table and map (left to the flow) are saved: {json}"
    );
    let read = SavedGame::from_json(&json).expect("a save");
    assert_eq!(read, saved);
    let replayed = read.replay().expect("the save replays");
    assert_eq!(replayed.events(), game.events());
    assert_eq!(replayed.state(), game.state());

    // A save whose table has gone is refused with the name and a suggestion.
    let broken = json.replace(
        "\"table\":{\"table\":null",
        "\"table\":{\"table\":\"Square Feld\"",
    );
    let error = SavedGame::from_json(&broken)
        .expect("still a save")
        .replay()
        .expect_err("no such table");
    let text = error.to_string();
    assert!(text.contains("no table named `Square Feld`"), "{text}");
}

#[test]
fn a_hex_match_is_unchanged_and_serializes_without_the_table_fields() {
    let paths = [PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")];
    let rules = prepare_match(&paths, "harrowdeep", 2, &MatchChoice::default()).expect("hex");
    assert!(rules.spec().table.is_none());
    assert!(rules.spec().seats.iter().all(|s| s.army.is_none()));
    let json = serde_json::to_string(rules.spec()).expect("json");
    assert!(!json.contains("army") && !json.contains("table"), "{json}");
}

#[test]
fn sim_takes_armies_table_and_map_and_a_hex_ruleset_refuses_them() {
    let gloam = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gloam"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run gloam")
    };
    let output = gloam(&[
        "sim",
        "skirmish",
        "--data",
        "tests/data/skirmish",
        "--games",
        "4",
        "--armies",
        "Blue Band",
        "--table",
        "Square Field",
        "--map",
        "Strips",
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(
        report["warbands"],
        serde_json::json!(["Blue Band", "Blue Band"])
    );
    assert_eq!(report["failed"], 0);
    assert_eq!(report["draws"], 4);

    let output = gloam(&["sim", "harrowdeep", "--games", "1", "--map", "Halves"]);
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("played with warbands on boards: it takes no armies, table or map"),
        "{err}"
    );
}

#[test]
fn spearhead_seats_its_armies_and_leaves_the_side_and_map_to_its_flow() {
    let cards = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards/spearhead");
    let (sources, _) = gloam::load::read_paths(std::slice::from_ref(&cards));
    let (loaded, problems) = gloam::load::load(&sources, &gloam_dsl::Host::new());
    assert!(problems.is_empty(), "{problems:?}");
    let spec = match_for(&loaded, "spearhead", 2, &MatchChoice::default()).expect("a match");
    let armies: Vec<&str> = spec.seats.iter().map(|s| s.brings()).collect();
    assert_eq!(armies, ["Cinderbrood Reavers", "Thornwall Wardens"]);
    let table = spec.table.as_ref().expect("a table match");
    assert_eq!((table.table.as_deref(), table.map.as_deref()), (None, None));
    let rules = prepare_match(&[cards], "spearhead", 2, &MatchChoice::default()).expect("a match");
    // Both sides of the realm battlefield with both of their maps (004 L7-8).
    assert_eq!(rules.layout_names().len(), 4);
}

#[test]
fn both_script_engines_play_the_same_table_games() {
    let on = |engine| {
        gloam::sim::prepare_match_on(&[data()], "skirmish", 2, &MatchChoice::default(), engine)
            .expect("the match")
    };
    let (rhai, compiled) = (
        on(gloam::sim::ScriptEngine::Rhai),
        on(gloam::sim::ScriptEngine::Compiled),
    );
    for seed in 1..=5 {
        let a = gloam::sim::play_one(&rhai, seed);
        let b = gloam::sim::play_one(&compiled, seed);
        assert_eq!(a.error, None, "seed {seed}");
        assert_eq!(b.error, None, "seed {seed}");
        assert_eq!(a.log_digest, b.log_digest, "seed {seed}");
    }
}

#[test]
fn a_game_with_no_winner_is_told_as_nobody_winning() {
    // `end_game([], ...)` ends the game with no winner; the narration says so instead of
    // "game over:  wins".
    let game = random_game(4);
    let last = game
        .events()
        .iter()
        .rev()
        .find_map(|event| gloam::narrate::narrate(event, game.state()))
        .expect("the end is narrated");
    assert_eq!(last, "game over: nobody wins (the skirmish is over)");
}
