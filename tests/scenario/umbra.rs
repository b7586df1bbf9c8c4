//! Helpers of the Umbra Turris scenario tests that run one step of the flow for a hero of
//! a test match (`tests/umbra_turris_*.rs`): the step's frame built from a probe game
//! of the same rules, the d6 loaded, counters set on a hero or its seat.

use gloam::core::{Ctx, Frame, Game, GameState, PlayerId, Scope, Value};
use gloam::engine::RulesetGame;

use super::{Scenario, frame, piece, scenario};

/// The hero `kind` as a script value.
pub fn id(state: &GameState, kind: &str) -> Value {
    Value::Piece(piece(state, kind))
}

/// The seat of the hero `kind`.
pub fn owner(state: &GameState, kind: &str) -> PlayerId {
    state.pieces[&piece(state, kind)].owner
}

/// Sets the seat counter `name` of the party of `kind` (its dice, its alignment).
pub fn set_seat(ctx: &mut Ctx<'_>, kind: &str, name: &str, value: i64) {
    let seat = ctx.state().pieces[&piece(ctx.state(), kind)].owner;
    ctx.set_counter(Scope::Player(seat), name, value)
        .expect("counter");
}

/// Sets the counter `name` of the hero `kind`.
pub fn set(ctx: &mut Ctx<'_>, kind: &str, name: &str, value: i64) {
    let id = piece(ctx.state(), kind);
    ctx.set_counter(Scope::Piece(id), name, value)
        .expect("counter");
}

pub fn start(rules: &RulesetGame) -> Game<RulesetGame> {
    Game::start(rules.clone(), rules.setup(7), vec![]).expect("start")
}

/// A game of `rules` arranged by `arrange`, the d6 loaded with `dice`, starting with the
/// frame `make` builds from the set-up state.
pub fn run(
    rules: &RulesetGame,
    make: impl Fn(&GameState) -> Frame,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    loaded(rules, vec![make(start(rules).state())], dice, arrange)
}

/// A game of `rules` arranged by `arrange`, the d6 loaded with `dice`, starting with
/// `frames`.
pub fn loaded(
    rules: &RulesetGame,
    frames: Vec<Frame>,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let dice: Vec<String> = dice.iter().map(|d| (*d).to_owned()).collect();
    scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            arrange(ctx);
            let faces: Vec<&str> = dice.iter().map(String::as_str).collect();
            ctx.fix_dice("d6", &faces);
        },
        frames,
    )
}

/// The frame of the step `step` for `fighter`, its owner acting.
pub fn step_of(step: &'static str, fighter: &'static str) -> impl Fn(&GameState) -> Frame {
    move |state| {
        frame(
            step,
            &[
                ("player", Value::Player(owner(state, fighter))),
                ("fighter", id(state, fighter)),
            ],
        )
    }
}
