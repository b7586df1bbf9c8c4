//! One scenario harness for the rules tests: a match of the shipped data with an arrangement
//! run right after its set-up, and the helpers that read and answer it. Each test binary
//! includes this module with `mod scenario;` and uses a subset of it.
#![allow(dead_code, unreachable_pub)]

pub mod decks;
pub mod umbra;

use std::path::PathBuf;

use gloam::core::{
    Answer, CardId, Choice, Control, Ctx, Event, Frame, Game, GameState, Hex, ModOp, ModTarget,
    ModifierSpec, Options, PieceId, PlayerId, Point, Position, Request, RuleError, Rules, Scope,
    Setup, Value, ZoneId,
};
use gloam::engine::RulesetGame;
use gloam::sim::{check_invariants, prepare, prepare_for};

/// Seat 0 of the default Harrowdeep match.
pub const KREW: PlayerId = PlayerId(0);
/// Seat 1 of the default Harrowdeep match.
pub const SEEKERS: PlayerId = PlayerId(1);

/// The shipped data folder.
pub fn cards_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")
}

/// The shipped data set up as `ruleset`, for two players.
pub fn shipped(ruleset: &str) -> RulesetGame {
    prepare(&[cards_dir()], ruleset).expect("the shipped data sets up a match")
}

/// The shipped data plus the test-only `.gloam` text `text`, set up as `ruleset`.
pub fn with_fixture(ruleset: &str, name: &str, text: &str) -> RulesetGame {
    with_fixture_for(ruleset, name, text, 2)
}

/// [`with_fixture`] for a match of `players` seats.
///
/// One file per call: tests run in parallel, and a file another test is rewriting could be
/// read half-written.
pub fn with_fixture_for(ruleset: &str, name: &str, text: &str, players: usize) -> RulesetGame {
    let file = fixture_file(name, text);
    prepare_for(&[cards_dir(), file], ruleset, players).expect("the data and the fixture load")
}

/// A match of Umbra Turris on the shipped data plus the test-only `.gloam` text `parties`
/// (party items), the party `a` in seat 0 against `b` in seat 1.
pub fn party_duel(parties: &str, a: &str, b: &str) -> RulesetGame {
    let file = fixture_file("parties", parties);
    let choice = gloam::sim::MatchChoice {
        parties: vec![a.to_owned(), b.to_owned()],
        ..gloam::sim::MatchChoice::default()
    };
    gloam::sim::prepare_match(&[cards_dir(), file], "umbra_turris", 2, &choice).expect("the match")
}

/// Writes the test-only `.gloam` text `text` to a file of its own (tests run in parallel)
/// and returns its path.
pub fn fixture_file(name: &str, text: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let unique = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("gloam-{name}-{}-{unique}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.gloam"));
    std::fs::write(&file, text).expect("write the fixture");
    file
}

/// Stands the piece `kind` (the first of that name) on a measured table at (`x`, `y`)
/// tenths of a millimetre, facing `facing`.
pub fn stand(ctx: &mut Ctx<'_>, kind: &str, x: i64, y: i64, facing: (i64, i64)) {
    let id = piece(ctx.state(), kind);
    ctx.place_piece(
        id,
        Some(gloam::core::Position::Table {
            at: gloam::core::Point::new(x, y),
            facing,
        }),
        vec![],
        "deploy",
    )
    .expect("placed");
}

/// A test-only Harrowdeep spell whose casting value is two channel symbols; cast, it gives
/// its player 1 glory.
pub const TWIN_CHANNEL: &str = r#"
card "Test Twin Channel" {
    ruleset = "harrowdeep"
    kind = spell
    owner = universal
    casting_value = [channel: 2]
    window = power_step
    text = "Test fixture. Spell. If cast, gain 1 glory."
    effect = { gain_glory(player, 1); }
}
"#;

/// An arrangement run right after the set-up.
pub type Arrange = Box<dyn Fn(&mut Ctx<'_>)>;

/// The match's rules with an arrangement run right after the set-up: a scenario.
pub struct Scenario {
    /// The match's rules.
    pub rules: RulesetGame,
    /// Run once the rules' own set-up is done.
    pub arrange: Arrange,
}

impl Rules for Scenario {
    fn start(&self, ctx: &mut Ctx<'_>, setup: &Setup) -> Result<(), RuleError> {
        self.rules.start(ctx, setup)?;
        (self.arrange)(ctx);
        Ok(())
    }

    fn step(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
        self.rules.step(ctx, frame)
    }
}

/// The fighter of kind `kind`.
pub fn piece(state: &GameState, kind: &str) -> PieceId {
    state
        .pieces
        .values()
        .find(|p| p.kind == kind)
        .unwrap_or_else(|| panic!("no fighter {kind}"))
        .id
}

/// The id of a fighter of the match (the set-up creates them in the same order every time).
pub fn id(rules: &RulesetGame, kind: &str) -> PieceId {
    let game = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    piece(game.state(), kind)
}

/// Places the fighter `kind` on `hex`.
pub fn place(ctx: &mut Ctx<'_>, kind: &str, hex: Hex) {
    let id = piece(ctx.state(), kind);
    ctx.place_piece(id, Some(Position::Hex(hex)), vec![], "deploy")
        .expect("place");
}

/// A frame of the step `step` with the variables `vars`.
pub fn frame(step: &str, vars: &[(&str, Value)]) -> Frame {
    vars.iter().fold(Frame::new(step), |frame, (name, value)| {
        frame.with(*name, value.clone())
    })
}

/// The first pending request.
pub fn request<R: Rules>(game: &Game<R>) -> Request {
    game.pending()
        .first()
        .map(|r| (*r).clone())
        .expect("a request is pending")
}

/// The choices of a single-choice request, as text.
pub fn options(request: &Request) -> Vec<String> {
    match &request.options {
        Options::One { choices } => choices.iter().map(ToString::to_string).collect(),
        other => panic!("not a single choice: {other:?}"),
    }
}

/// `player` answers `choice`; the invariants still hold.
pub fn answer<R: Rules>(game: &mut Game<R>, player: PlayerId, choice: Choice) {
    game.submit(player, Answer::One(choice))
        .unwrap_or_else(|error| panic!("{error}"));
    check_invariants(game.state()).expect("invariants");
}

/// The named option `text`.
pub fn option(text: &str) -> Choice {
    Choice::Option(text.into())
}

/// Whether the fighter `kind` is Inspired.
pub fn inspired(state: &GameState, kind: &str) -> bool {
    state.pieces[&piece(state, kind)]
        .keywords
        .contains("inspired")
}

/// The damage on the fighter `kind`.
pub fn damage(state: &GameState, kind: &str) -> i64 {
    state.pieces[&piece(state, kind)]
        .counters
        .get("damage")
        .copied()
        .unwrap_or(0)
}

/// A game counter, 0 when unset.
pub fn game_counter(state: &GameState, name: &str) -> i64 {
    state.counters.get(name).copied().unwrap_or(0)
}

/// The glory of `player`, 0 when unset.
pub fn glory(state: &GameState, player: PlayerId) -> i64 {
    state.players[player.0 as usize]
        .counters
        .get("glory")
        .copied()
        .unwrap_or(0)
}

/// The match right after its set-up, before any step of the flow.
pub fn bare(rules: &RulesetGame) -> Game<RulesetGame> {
    Game::start(rules.clone(), rules.setup(7), vec![]).expect("start")
}

/// The card `name` of `player`.
pub fn card_id(state: &GameState, player: PlayerId, name: &str) -> CardId {
    state
        .cards
        .values()
        .find(|c| c.name == name && c.owner == player)
        .unwrap_or_else(|| panic!("no card {name}"))
        .id
}

/// The first card named `name`.
pub fn card_named(state: &GameState, name: &str) -> CardId {
    *state
        .cards
        .iter()
        .find(|(_, c)| c.name == name)
        .unwrap_or_else(|| panic!("no card {name}"))
        .0
}

/// The hexes offered by a single-choice request.
pub fn hex_choices(request: &Request) -> Vec<Hex> {
    match &request.options {
        Options::One { choices } => choices
            .iter()
            .filter_map(|c| match c {
                Choice::Hex(h) => Some(*h),
                _ => None,
            })
            .collect(),
        other => panic!("not a single choice: {other:?}"),
    }
}

/// A counter of `player`, 0 when unset.
pub fn player_counter(state: &GameState, player: PlayerId, name: &str) -> i64 {
    state.players[player.0 as usize]
        .counters
        .get(name)
        .copied()
        .unwrap_or(0)
}

/// The tokens `token` on the fighter `kind`, 0 when unset.
pub fn tokens(state: &GameState, kind: &str, token: &str) -> i64 {
    state.pieces[&piece(state, kind)]
        .tokens
        .get(token)
        .copied()
        .unwrap_or(0)
}

/// The counter `name` of the piece of kind `kind` (0 when it has none).
pub fn piece_counter(state: &GameState, kind: &str, name: &str) -> i64 {
    state.pieces[&piece(state, kind)]
        .counters
        .get(name)
        .copied()
        .unwrap_or(0)
}

/// Gives the piece of kind `kind` one `token`.
pub fn give(ctx: &mut Ctx<'_>, kind: &str, token: &str) {
    let id = piece(ctx.state(), kind);
    ctx.set_tokens(Scope::Piece(id), token, 1).expect("token");
}

/// Every line the scripts said (`say`), in order.
pub fn said<R: Rules>(game: &Game<R>) -> Vec<String> {
    game.events()
        .iter()
        .filter_map(|event| match event {
            Event::Marker { name, data, .. } if name == "say" => data
                .iter()
                .find(|(key, _)| key == "text")
                .and_then(|(_, value)| value.as_str())
                .map(str::to_owned),
            _ => None,
        })
        .collect()
}

/// Whether a line the scripts said contains `text`.
pub fn has_said<R: Rules>(game: &Game<R>, text: &str) -> bool {
    said(game).iter().any(|line| line.contains(text))
}

/// Hexes to stand on: neither blocked nor lethal, in a fixed order.
pub fn open_hexes(rules: &RulesetGame) -> Vec<Hex> {
    let battlefield = rules.battlefield();
    let mut hexes: Vec<Hex> = battlefield
        .hexes()
        .filter(|&h| !battlefield.has_type(h, "blocked") && !battlefield.has_type(h, "lethal"))
        .collect();
    hexes.sort();
    hexes
}

/// A permanent modifier adding `amount` to a fighter's characteristic, as cards give them.
pub fn modify(ctx: &mut Ctx<'_>, kind: &str, characteristic: &str, amount: i64) {
    let fighter = piece(ctx.state(), kind);
    ctx.add_modifier(ModifierSpec::new(
        ModTarget::Piece(fighter),
        characteristic,
        ModOp::Add(amount),
    ))
    .expect("modifier");
}

/// A scenario game of `rules` (seed 7) whose set-up is followed by `arrange`, starting with
/// `frames`.
pub fn scenario(
    rules: &RulesetGame,
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
    frames: Vec<Frame>,
) -> Game<Scenario> {
    let setup = rules.setup(7);
    let scenario = Scenario {
        rules: rules.clone(),
        arrange: Box::new(arrange),
    };
    Game::start(scenario, setup, frames).expect("the scenario starts")
}

/// The first pending request, if the game waits on one.
pub fn pending<R: Rules>(game: &Game<R>) -> Option<Request> {
    game.pending().first().map(|r| (*r).clone())
}

/// The names of the cards on a hero.
pub fn carried(state: &GameState, kind: &str) -> Vec<String> {
    let id = piece(state, kind);
    let zone = ZoneId::on_piece(state.pieces[&id].owner, "equipped", id);
    state
        .zone_cards(&zone)
        .iter()
        .map(|card| state.cards[card].name.clone())
        .collect()
}

/// The names of the choices of the first pending request.
pub fn offered(game: &Game<Scenario>) -> Vec<String> {
    let request = pending(game).expect("a request");
    let state = game.state();
    match &request.options {
        Options::One { choices } => choices
            .iter()
            .map(|choice| match choice {
                Choice::Card(id) => state.cards[id].name.clone(),
                Choice::Piece(id) => state.pieces[id].kind.clone(),
                Choice::Option(text) => text.clone(),
                other => other.to_string(),
            })
            .collect(),
        other => panic!("not a single choice: {other:?}"),
    }
}

/// Answers the first pending request with its choice named `name`.
pub fn choose(game: &mut Game<Scenario>, name: &str) {
    let request = pending(game).expect("a request");
    let state = game.state();
    let Options::One { choices } = &request.options else {
        panic!("not a single choice")
    };
    let choice = choices
        .iter()
        .find(|choice| match choice {
            Choice::Card(id) => state.cards[id].name == name,
            Choice::Piece(id) => state.pieces[id].kind == name,
            Choice::Option(text) => text == name,
            _ => false,
        })
        .unwrap_or_else(|| panic!("{name} is not offered: {:?}", offered(game)))
        .clone();
    game.submit(request.player, gloam::core::Answer::One(choice))
        .unwrap_or_else(|error| panic!("{error}"));
    check_invariants(game.state()).expect("invariants");
}

/// Puts a new card of the roster named `name` among the equipped cards of the hero `kind`
/// (the weapon, spell or profession a scenario checks).
pub fn teach(ctx: &mut Ctx<'_>, kind: &str, name: &str) {
    let id = piece(ctx.state(), kind);
    let owner = ctx.state().pieces[&id].owner;
    let zone = ZoneId::on_piece(owner, "equipped", id);
    ctx.create_card(name, owner, &zone).expect("the card");
}

/// Whether the first pending request's prompt starts with `text`.
pub fn asked<R: Rules>(game: &Game<R>, text: &str) -> bool {
    pending(game).is_some_and(|r| r.prompt.starts_with(text))
}

/// Sends the point `offset` to the first pending request; true when it is taken (the game
/// then asks something else, or nothing).
pub fn send_point<R: Rules>(game: &mut Game<R>, offset: Point) -> bool {
    let Some(before) = pending(game) else {
        return false;
    };
    game.submit(before.player, Answer::One(Choice::Point(offset)))
        .is_ok()
        && pending(game).is_none_or(|r| r != before)
}

/// Answers the facing asked after a Move (Umbra Turris, 003 L292) with "as it stands", if it
/// is asked: a step's changes reach the game's state when its script ends.
pub fn face_as_it_stands(game: &mut Game<Scenario>) {
    if asked(game, "Which way does") {
        choose(game, "as it stands");
    }
}

/// The centre of the base of `kind` on the table.
pub fn at(state: &GameState, kind: &str) -> Point {
    state.pieces[&piece(state, kind)]
        .position
        .and_then(|p| p.point())
        .expect("on the table")
}
