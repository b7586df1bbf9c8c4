//! The failure corpus, shared by the checker tests and the diagnostics reference.

#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};

use gloam::core::{
    Battlefield, Ctx, Dice, GameState, Hex, Placement, PlayerId, Position, Value, Visibility,
    ZoneId,
};
use gloam::load::{Problem, Source, load};
use gloam_dsl::{Bindings, Host, World};
use miette::Diagnostic;

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn source(path: &Path) -> Source {
    let text = std::fs::read_to_string(path).expect("fixture is readable");
    let name = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    Source::new(name, text)
}

pub fn files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .expect("corpus folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "gloam"))
        .collect();
    files.sort();
    files
}

pub fn base() -> Vec<Source> {
    files("tests/fail/base").iter().map(|p| source(p)).collect()
}

/// Renders diagnostics without colour at 80 columns, as the snapshots hold them.
pub fn render(problem: &dyn Diagnostic) -> String {
    gloam::report::render(problem, 80, false)
}

pub fn render_all(problems: &[Problem]) -> String {
    problems.iter().map(|p| render(p) + "\n").collect()
}

/// Loads the base with one broken file.
pub fn check_broken(path: &Path, host: &Host) -> Vec<Problem> {
    let mut sources = base();
    sources.push(source(path));
    load(&sources, host).1
}

/// What running a hostile file's card effect produced.
pub struct HostileRun {
    pub rendered: String,
    pub code: String,
    pub state_unchanged: bool,
}

/// Loads the base with a hostile file (it must load clean), then runs its card's effect in
/// a small game: Ann's Captain acts, Bo's Scout is the target.
pub fn run_hostile(path: &Path, host: &Host) -> HostileRun {
    let mut sources = base();
    let hostile = source(path);
    sources.push(hostile.clone());
    let (loaded, problems) = load(&sources, host);
    assert!(
        problems.is_empty(),
        "{} must load clean:\n{}",
        path.display(),
        render_all(&problems)
    );
    let card = loaded
        .library
        .cards()
        .iter()
        .find(|c| hostile.text.contains(&format!("card \"{}\"", c.name)))
        .expect("the hostile file holds a card");
    let script = loaded
        .script("card", &card.name, "effect")
        .expect("compiled effect");
    let board = loaded
        .library
        .board("Test Slab")
        .expect("base board")
        .to_board();
    let battlefield = Battlefield::join(&[(board, Placement::IDENTITY)], 0).expect("joins");
    let world = World::new(battlefield, ["blocked"], false, Dice::new());
    let mut state = GameState::new(1, &["Ann", "Bo"]);
    let mut events = Vec::new();
    let (captain, scout) = {
        let mut ctx = Ctx::new(&mut state, &mut events);
        for seat in 0..2u8 {
            let player = PlayerId(seat);
            ctx.create_zone(ZoneId::new(player, "power_deck"), Visibility::Nobody)
                .unwrap();
            ctx.create_zone(ZoneId::new(player, "power_hand"), Visibility::Owner)
                .unwrap();
            for n in 0..3 {
                ctx.create_card(
                    &format!("filler {n}"),
                    player,
                    &ZoneId::new(player, "power_deck"),
                )
                .unwrap();
            }
        }
        let stats = || [("move".to_owned(), 3), ("wounds".to_owned(), 4)];
        let captain = ctx.create_piece(PlayerId(0), "Captain", stats()).unwrap();
        let scout = ctx.create_piece(PlayerId(1), "Scout", stats()).unwrap();
        let starting: Vec<Hex> = world_starting(&loaded);
        ctx.place_piece(captain, Some(Position::Hex(starting[0])), vec![], "deploy")
            .unwrap();
        ctx.place_piece(scout, Some(Position::Hex(starting[1])), vec![], "deploy")
            .unwrap();
        (captain, scout)
    };
    let before = state.clone();
    let events_before = events.len();
    let bindings = Bindings::new()
        .acting(PlayerId(0))
        .with("this_fighter", Value::Piece(captain))
        .with("target", Value::Piece(scout));
    let error = host
        .run(script, &world, &mut state, &mut events, &bindings, &[])
        .expect_err("a hostile script is stopped");
    HostileRun {
        rendered: render(&error),
        code: error.code().map(|c| c.to_string()).unwrap_or_default(),
        state_unchanged: state == before && events.len() == events_before,
    }
}

fn world_starting(loaded: &gloam::load::Loaded) -> Vec<Hex> {
    let board = loaded.library.board("Test Slab").expect("base board");
    board
        .to_board()
        .hexes
        .iter()
        .filter(|h| h.types.contains("starting"))
        .map(|h| h.hex)
        .collect()
}

/// The shipped data plus `text` in a file of its own, named for `name` and the test
/// process (tests run in parallel): the paths to load, the shipped data first.
pub fn with_mod(name: &str, text: &str) -> Vec<PathBuf> {
    let dir = std::env::temp_dir().join(format!("gloam-mod-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.gloam"));
    std::fs::write(&file, text).expect("write the mod");
    vec![root().join("cards"), file]
}
