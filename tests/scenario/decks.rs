//! The scenario harness of the Harrowdeep card tests: the shuffled decks are set aside at
//! the start (the scenarios build hands and decks themselves), a request is answered by the
//! player it asks, and the helpers that arrange fighters, tokens and cards.

use gloam::core::{
    Answer, CardId, Choice, Control, Ctx, Event, Frame, Game, GameState, Hex, Options, PlayerId,
    Position, Request, RuleError, Rules, Scope, Setup, Value, Visibility, ZoneId,
};
use gloam::engine::RulesetGame;
use gloam::sim::check_invariants;

use super::{Arrange, KREW, SEEKERS, frame, piece};

/// The match's rules with an arrangement run right after the set-up.
pub struct Scenario {
    /// The match's rules.
    pub rules: RulesetGame,
    /// Run once the rules' own set-up and the setting aside of the decks are done.
    pub arrange: Arrange,
}

impl Rules for Scenario {
    fn start(&self, ctx: &mut Ctx<'_>, setup: &Setup) -> Result<(), RuleError> {
        self.rules.start(ctx, setup)?;
        // The decks hold every card the warband may take; the scenarios build hands and
        // decks themselves, so the shuffled decks are set aside in a zone no step reads
        // (the discard piles stay empty, so a card found there was discarded in the test).
        for seat in [KREW, SEEKERS] {
            let to = ZoneId::new(seat, "set_aside");
            ctx.create_zone(to.clone(), Visibility::Nobody)?;
            for deck in ["objective", "power"] {
                let from = ZoneId::new(seat, format!("{deck}_deck"));
                for card in ctx.state().zone_cards(&from).to_vec() {
                    let end = ctx.state().zone_cards(&to).len();
                    ctx.move_card(card, &to, end)?;
                }
            }
        }
        (self.arrange)(ctx);
        Ok(())
    }

    fn step(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
        self.rules.step(ctx, frame)
    }
}

/// Starts `frames` of the flow after `arrange`.
pub fn scenario(
    rules: &RulesetGame,
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
    frames: Vec<Frame>,
) -> Game<Scenario> {
    let scenario = Scenario {
        rules: rules.clone(),
        arrange: Box::new(arrange),
    };
    let mut game = Game::start(scenario, rules.setup(7), frames).expect("the scenario starts");
    game.set_max_steps(10_000);
    check_invariants(game.state()).expect("invariants");
    game
}

/// Hexes to stand on: neither blocked nor lethal nor cover, in a fixed order.
pub fn open_hexes(rules: &RulesetGame) -> Vec<Hex> {
    let battlefield = rules.battlefield();
    let mut hexes: Vec<Hex> = battlefield
        .hexes()
        .filter(|&h| {
            !["blocked", "lethal", "cover"]
                .iter()
                .any(|t| battlefield.has_type(h, t))
        })
        .collect();
    hexes.sort();
    hexes
}

/// The first open hex, not in `taken`, for which `fits` holds.
pub fn pick(rules: &RulesetGame, taken: &[Hex], fits: impl Fn(Hex) -> bool) -> Hex {
    open_hexes(rules)
        .into_iter()
        .find(|h| !taken.contains(h) && fits(*h))
        .expect("the battlefield has such a hex")
}

/// Whether every hex next to `hex` is open (pushes and moves around it are free).
pub fn roomy(rules: &RulesetGame, hex: Hex) -> bool {
    let open = open_hexes(rules);
    hex.range(1).iter().all(|h| open.contains(h))
}

/// An open hex at least `apart` from every hex of `taken`.
pub fn away(rules: &RulesetGame, taken: &[Hex], apart: u32) -> Hex {
    pick(rules, taken, |h| {
        taken.iter().all(|t| h.distance_to(*t) >= apart)
    })
}

/// Places fighters: `(kind, hex)`.
pub fn place_all(ctx: &mut Ctx<'_>, placed: &[(&str, Hex)]) {
    for (kind, hex) in placed {
        let id = piece(ctx.state(), kind);
        ctx.place_piece(id, Some(Position::Hex(*hex)), vec![], "deploy")
            .expect("place");
    }
}

/// Sets a counter.
pub fn set(ctx: &mut Ctx<'_>, scope: Scope, counter: &str, value: i64) {
    ctx.set_counter(scope, counter, value).expect("counter");
}

/// Gives the fighter `kind` one `token`.
pub fn token(ctx: &mut Ctx<'_>, kind: &str, token: &str) {
    let id = piece(ctx.state(), kind);
    ctx.set_tokens(Scope::Piece(id), token, 1).expect("token");
}

/// Creates the card `name` of `player` in their zone `zone`.
pub fn card(ctx: &mut Ctx<'_>, name: &str, player: PlayerId, zone: &str) -> CardId {
    ctx.create_card(name, player, &ZoneId::new(player, zone))
        .expect("card")
}

/// Puts the upgrade `name` on the fighter `kind` (as `equip` does).
pub fn upgrade(ctx: &mut Ctx<'_>, name: &str, kind: &str) -> CardId {
    let bearer = piece(ctx.state(), kind);
    let owner = ctx.state().pieces[&bearer].owner;
    let zone = ZoneId::on_piece(owner, "equipped", bearer);
    if !ctx.state().zones.contains_key(&zone) {
        ctx.create_zone(zone.clone(), Visibility::Public)
            .expect("zone");
    }
    ctx.create_card(name, owner, &zone).expect("card")
}

/// The first pending request.
pub fn request<R: Rules>(game: &Game<R>) -> Request {
    game.pending()
        .first()
        .map(|r| (*r).clone())
        .unwrap_or_else(|| panic!("a request is pending"))
}

/// The choices of a single-choice request.
pub fn choices(request: &Request) -> Vec<Choice> {
    match &request.options {
        Options::One { choices } => choices.clone(),
        other => panic!("not a single choice: {other:?}"),
    }
}

/// The player asked answers `choice`; the invariants still hold.
pub fn answer<R: Rules>(game: &mut Game<R>, choice: Choice) {
    let player = request(game).player;
    game.submit(player, Answer::One(choice))
        .unwrap_or_else(|error| panic!("{error}"));
    check_invariants(game.state()).expect("invariants");
}

/// Answers the pending request, checking who is asked and what.
pub fn expect<R: Rules>(game: &mut Game<R>, player: PlayerId, prompt: &str, choice: Choice) {
    let asked = request(game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (player, prompt),
        "{:?}",
        asked.options
    );
    assert!(
        choices(&asked).contains(&choice),
        "{choice:?} is not offered: {:?}",
        asked.options
    );
    answer(game, choice);
}

/// The names of the cards in `player`'s zone `zone`.
pub fn names_in(state: &GameState, player: PlayerId, zone: &str) -> Vec<String> {
    state
        .zone_cards(&ZoneId::new(player, zone))
        .iter()
        .map(|c| state.cards[c].name.clone())
        .collect()
}

/// The spent glory of `player`.
pub fn glory_spent(state: &GameState, player: PlayerId) -> i64 {
    state.players[player.0 as usize]
        .counters
        .get("glory_spent")
        .copied()
        .unwrap_or(0)
}

/// The number of dice of each attack roll of the game so far.
pub fn attack_rolls<R: Rules>(game: &Game<R>) -> Vec<usize> {
    game.events()
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { purpose, dice, .. } if purpose.contains("attack_roll") => {
                Some(dice.len())
            }
            _ => None,
        })
        .collect()
}

/// The prompt of the pending request, if any.
pub fn prompt<R: Rules>(game: &Game<R>) -> Option<String> {
    game.pending().first().map(|r| r.prompt.clone())
}

/// A power step opened by `player`, with both players taking part (as the flow's `turn`
/// step queues it, 3.14).
pub fn power_step(player: PlayerId) -> Frame {
    let other = PlayerId(1 - player.0);
    frame(
        "power_step",
        &[
            ("player", Value::Player(player)),
            ("count", Value::Int(0)),
            (
                "data",
                Value::List(vec![Value::Player(player), Value::Player(other)]),
            ),
        ],
    )
}
