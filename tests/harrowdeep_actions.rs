//! Printed fighter actions in the Harrowdeep activation step (issue 4; Harrowdeep 3.6,
//! seed 002 L2406-2420, digest /work/shared/rules/underworlds.md 3.6): a fighter's action may
//! be one printed on its fighter card or on an upgrade it has (window `fighter_action`). The
//! `activation` step offers "use a fighter's action" when one of the active player's fighters
//! that may be activated (no Charge token, 3.6/3.7) has such an action whose condition holds,
//! resolves it, then opens `after_activation` (digest H10).

use std::path::PathBuf;

use gloam::core::{
    Answer, CardId, Choice, Control, Ctx, Event, Frame, Game, GameState, Hex, Options, PieceId,
    PlayerId, Position, Request, RuleError, Rules, Scope, Setup, Value, Visibility, ZoneId,
};
use gloam::engine::RulesetGame;
use gloam::sim::{check_invariants, prepare};

/// Seat 0 of the default match.
const KREW: PlayerId = PlayerId(0);
/// Seat 1 of the default match.
const SEEKERS: PlayerId = PlayerId(1);

fn cards_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")
}

/// The shipped data.
fn rules() -> RulesetGame {
    prepare(&[cards_dir()], "harrowdeep").expect("the data loads")
}

type Arrange = Box<dyn Fn(&mut Ctx<'_>)>;

/// The match's rules with an arrangement run right after the set-up.
struct Scenario {
    rules: RulesetGame,
    arrange: Arrange,
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
fn scenario(
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

fn frame(step: &str, vars: &[(&str, Value)]) -> Frame {
    vars.iter().fold(Frame::new(step), |frame, (name, value)| {
        frame.with(*name, value.clone())
    })
}

fn piece(state: &GameState, kind: &str) -> PieceId {
    state
        .pieces
        .values()
        .find(|p| p.kind == kind)
        .unwrap_or_else(|| panic!("no fighter {kind}"))
        .id
}

/// Hexes to stand on: neither blocked nor lethal nor cover, in a fixed order.
fn open_hexes(rules: &RulesetGame) -> Vec<Hex> {
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
fn pick(rules: &RulesetGame, taken: &[Hex], fits: impl Fn(Hex) -> bool) -> Hex {
    open_hexes(rules)
        .into_iter()
        .find(|h| !taken.contains(h) && fits(*h))
        .expect("the battlefield has such a hex")
}

/// Whether every hex next to `hex` is open (pushes and moves around it are free).
fn roomy(rules: &RulesetGame, hex: Hex) -> bool {
    let open = open_hexes(rules);
    hex.range(1).iter().all(|h| open.contains(h))
}

/// An open hex at least `apart` from every hex of `taken`.
fn away(rules: &RulesetGame, taken: &[Hex], apart: u32) -> Hex {
    pick(rules, taken, |h| {
        taken.iter().all(|t| h.distance_to(*t) >= apart)
    })
}

/// Places fighters: `(kind, hex)`.
fn place_all(ctx: &mut Ctx<'_>, placed: &[(&str, Hex)]) {
    for (kind, hex) in placed {
        let id = piece(ctx.state(), kind);
        ctx.place_piece(id, Some(Position::Hex(*hex)), vec![], "deploy")
            .expect("place");
    }
}

fn set(ctx: &mut Ctx<'_>, scope: Scope, counter: &str, value: i64) {
    ctx.set_counter(scope, counter, value).expect("counter");
}

fn token(ctx: &mut Ctx<'_>, kind: &str, token: &str) {
    let id = piece(ctx.state(), kind);
    ctx.set_tokens(Scope::Piece(id), token, 1).expect("token");
}

fn card(ctx: &mut Ctx<'_>, name: &str, player: PlayerId, zone: &str) -> CardId {
    ctx.create_card(name, player, &ZoneId::new(player, zone))
        .expect("card")
}

/// Puts the upgrade `name` on the fighter `kind` (as `equip` does).
fn upgrade(ctx: &mut Ctx<'_>, name: &str, kind: &str) -> CardId {
    let bearer = piece(ctx.state(), kind);
    let owner = ctx.state().pieces[&bearer].owner;
    let zone = ZoneId::on_piece(owner, "equipped", bearer);
    if !ctx.state().zones.contains_key(&zone) {
        ctx.create_zone(zone.clone(), Visibility::Public)
            .expect("zone");
    }
    ctx.create_card(name, owner, &zone).expect("card")
}

fn request(game: &Game<Scenario>) -> Request {
    game.pending()
        .first()
        .map(|r| (*r).clone())
        .unwrap_or_else(|| panic!("a request is pending"))
}

fn choices(request: &Request) -> Vec<Choice> {
    match &request.options {
        Options::One { choices } => choices.clone(),
        other => panic!("not a single choice: {other:?}"),
    }
}

fn answer(game: &mut Game<Scenario>, choice: Choice) {
    let player = request(game).player;
    game.submit(player, Answer::One(choice))
        .unwrap_or_else(|error| panic!("{error}"));
    check_invariants(game.state()).expect("invariants");
}

/// Answers the pending request, checking who is asked and what.
fn expect(game: &mut Game<Scenario>, player: PlayerId, prompt: &str, choice: Choice) {
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

fn option(text: &str) -> Choice {
    Choice::Option(text.into())
}

fn names_in(state: &GameState, player: PlayerId, zone: &str) -> Vec<String> {
    state
        .zone_cards(&ZoneId::new(player, zone))
        .iter()
        .map(|c| state.cards[c].name.clone())
        .collect()
}

fn glory_spent(state: &GameState, player: PlayerId) -> i64 {
    state.players[player.0 as usize]
        .counters
        .get("glory_spent")
        .copied()
        .unwrap_or(0)
}

/// The number of dice of each attack roll of the game so far.
fn attack_rolls(game: &Game<Scenario>) -> Vec<usize> {
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

/// The names of the markers (windows and other moments) of the game so far, in order.
fn markers(game: &Game<Scenario>) -> Vec<String> {
    game.events()
        .iter()
        .filter_map(|e| match e {
            Event::Marker { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// The options of the pending "Choose an action" request of `player`.
fn actions_offered(game: &Game<Scenario>, player: PlayerId) -> Vec<Choice> {
    let asked = request(game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (player, "Choose an action")
    );
    choices(&asked)
}

/// Answers what follows an action that the scenario does not look at: the first weapon and
/// enemy, re-rolls kept, no drive back, reactions passed; stops at "Choose an action" or
/// when nothing is pending.
fn settle(game: &mut Game<Scenario>) {
    for _ in 0..60 {
        let Some(asked) = game.pending().first().map(|r| (*r).clone()) else {
            return;
        };
        let choice = match asked.prompt.as_str() {
            "Choose an action" => return,
            "Re-roll an attack die?" | "Re-roll a defence die?" => option("keep the roll"),
            "Drive the target back?" => option("do not drive back"),
            "Reaction step: react or pass?" => option("pass"),
            "Which weapon?" | "Which enemy?" => choices(&asked)[0].clone(),
            other => panic!("unexpected request: {other}"),
        };
        answer(game, choice);
    }
}

/// Calthia (Truthseekers) with Fatal Scheme and `glory` glory, far from Shank; three power
/// cards in the Truthseekers' deck; `charged`: Calthia has a Charge token.
fn fatal_scheme_setup(
    rules: &RulesetGame,
    glory: i64,
    charged: bool,
    activations: usize,
) -> Game<Scenario> {
    let calthia = away(rules, &[], 0);
    let shank = pick(rules, &[calthia], |h| h.distance_to(calthia) >= 4);
    let frames = (0..activations)
        .map(|_| frame("activation", &[("player", Value::Player(SEEKERS))]))
        .collect();
    scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            place_all(ctx, &[("Calthia Xandire", calthia), ("Shank", shank)]);
            upgrade(ctx, "Fatal Scheme", "Calthia Xandire");
            for name in ["Audacious Move", "Called Strike", "Easy Meat"] {
                card(ctx, name, SEEKERS, "power_deck");
            }
            set(ctx, Scope::Player(SEEKERS), "glory", glory);
            set(ctx, Scope::Game, "turn_seat", 1);
            set(ctx, Scope::Game, "round", 1);
            if charged {
                token(ctx, "Calthia Xandire", "charge");
            }
        },
        frames,
    )
}

/// Harrowdeep 3.6 (002 L2406-2420; digest 3.6): Fatal Scheme's action (002 L1103-1121) is
/// offered in the activation step and resolves there: 1 glory spent, two cards drawn and two
/// discarded; then `after_activation` opens (its reaction step is settled).
#[test]
fn activation_upgrade_action_fatal_scheme_is_offered_and_resolves() {
    let rules = rules();
    let mut game = fatal_scheme_setup(&rules, 1, false, 1);
    let calthia = piece(game.state(), "Calthia Xandire");
    let offered = actions_offered(&game, SEEKERS);
    assert!(
        offered.contains(&option("use a fighter's action")),
        "{offered:?}"
    );
    expect(
        &mut game,
        SEEKERS,
        "Choose an action",
        option("use a fighter's action"),
    );
    expect(
        &mut game,
        SEEKERS,
        "Which fighter acts?",
        Choice::Piece(calthia),
    );
    for _ in 0..2 {
        let first = choices(&request(&game))[0].clone();
        expect(&mut game, SEEKERS, "Discard which power card?", first);
    }
    settle(&mut game);
    assert!(game.pending().is_empty(), "{:?}", game.pending());
    assert_eq!(glory_spent(game.state(), SEEKERS), 1);
    assert_eq!(names_in(game.state(), SEEKERS, "power_hand").len(), 0);
    assert_eq!(names_in(game.state(), SEEKERS, "power_discard").len(), 2);
    assert_eq!(names_in(game.state(), SEEKERS, "power_deck").len(), 1);
    // The activation ends with `after_activation` (and `after_action`, digest H10).
    let marked = markers(&game);
    assert!(
        marked.contains(&"after_activation".to_owned()),
        "{marked:?}"
    );
    assert!(marked.contains(&"after_action".to_owned()), "{marked:?}");
}

/// Fatal Scheme is once per round (002 L1103-1121): the next activation of the same round
/// does not offer it again, though glory is left.
#[test]
fn activation_upgrade_action_used_this_round_is_not_offered_again() {
    let rules = rules();
    let mut game = fatal_scheme_setup(&rules, 2, false, 2);
    let calthia = piece(game.state(), "Calthia Xandire");
    expect(
        &mut game,
        SEEKERS,
        "Choose an action",
        option("use a fighter's action"),
    );
    expect(
        &mut game,
        SEEKERS,
        "Which fighter acts?",
        Choice::Piece(calthia),
    );
    for _ in 0..2 {
        let first = choices(&request(&game))[0].clone();
        expect(&mut game, SEEKERS, "Discard which power card?", first);
    }
    settle(&mut game);
    let offered = actions_offered(&game, SEEKERS);
    assert!(
        !offered.contains(&option("use a fighter's action")),
        "{offered:?}"
    );
    assert!(offered.contains(&option("guard")));
}

/// A fighter with a Charge token is not activated again this phase (3.6, 002 L2406-2420;
/// digest 3.6), so its printed actions are not offered; neither is an action whose
/// condition fails (Fatal Scheme with no glory to spend).
#[test]
fn activation_upgrade_action_of_charged_or_unable_fighter_is_not_offered() {
    let rules = rules();
    let charged = fatal_scheme_setup(&rules, 1, true, 1);
    assert!(!actions_offered(&charged, SEEKERS).contains(&option("use a fighter's action")));
    let poor = fatal_scheme_setup(&rules, 0, false, 1);
    let offered = actions_offered(&poor, SEEKERS);
    assert!(
        !offered.contains(&option("use a fighter's action")),
        "{offered:?}"
    );
    assert!(offered.contains(&option("guard")));
}

/// Money Bags (Krookgrin's fighter-card action, 002 L490-524; Harrowdeep 3.6, digest 3.6): in
/// Krookgrin's activation his player spends 1 glory and a friendly minion (Gikkit) makes an
/// Attack action with 1 more die.
#[test]
fn activation_fighter_ability_money_bags_is_offered_and_a_minion_attacks() {
    let rules = rules();
    let gikkit_hex = pick(&rules, &[], |h| roomy(&rules, h));
    let calthia_hex = pick(&rules, &[gikkit_hex], |h| h.distance_to(gikkit_hex) == 1);
    let krookgrin_hex = away(&rules, &[gikkit_hex, calthia_hex], 3);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place_all(
                ctx,
                &[
                    ("Krookgrin", krookgrin_hex),
                    ("Gikkit", gikkit_hex),
                    ("Calthia Xandire", calthia_hex),
                ],
            );
            set(ctx, Scope::Player(KREW), "glory", 1);
            set(ctx, Scope::Game, "round", 1);
        },
        vec![frame("activation", &[("player", Value::Player(KREW))])],
    );
    let krookgrin = piece(game.state(), "Krookgrin");
    let gikkit = piece(game.state(), "Gikkit");
    expect(
        &mut game,
        KREW,
        "Choose an action",
        option("use a fighter's action"),
    );
    expect(
        &mut game,
        KREW,
        "Which fighter acts?",
        Choice::Piece(krookgrin),
    );
    expect(
        &mut game,
        KREW,
        "Which minion attacks?",
        Choice::Piece(gikkit),
    );
    settle(&mut game);
    assert!(game.pending().is_empty(), "{:?}", game.pending());
    assert_eq!(glory_spent(game.state(), KREW), 1);
    // Krule Irons' 2 Dice and the 1 Money Bags adds, in one attack roll.
    assert_eq!(attack_rolls(&game), [2 + 1]);
    // The minion's Attack action resolves before the activation's `after_activation`.
    let marked = markers(&game);
    let attacked = marked.iter().position(|m| m == "after_attack");
    let ended = marked.iter().position(|m| m == "after_activation");
    assert!(
        attacked.is_some() && ended.is_some() && attacked < ended,
        "{marked:?}"
    );
    let base = game
        .state()
        .characteristic(gikkit, "attack_dice")
        .unwrap_or(0);
    assert_eq!(base, 0, "the extra die ends with the attack");
}

/// Calthia with Phantom Fathomer next to Shank, who has two upgrades (Titan of Krulety,
/// Fatal Scheme); the Truthseekers' activation.
fn fathomer_duel(rules: &RulesetGame) -> Game<Scenario> {
    let calthia = pick(rules, &[], |h| roomy(rules, h));
    let shank = pick(rules, &[calthia], |h| h.distance_to(calthia) == 1);
    scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            place_all(ctx, &[("Calthia Xandire", calthia), ("Shank", shank)]);
            upgrade(ctx, "Phantom Fathomer", "Calthia Xandire");
            upgrade(ctx, "Titan of Krulety", "Shank");
            upgrade(ctx, "Fatal Scheme", "Shank");
            set(ctx, Scope::Game, "turn_seat", 1);
            set(ctx, Scope::Game, "round", 1);
        },
        vec![frame("activation", &[("player", Value::Player(SEEKERS))])],
    )
}

/// Calthia attacks Shank with `weapon` in an Attack action of her activation; the dice of
/// each attack roll.
fn fathomer_attack(weapon: &str) -> Vec<usize> {
    let rules = rules();
    let mut game = fathomer_duel(&rules);
    let calthia = piece(game.state(), "Calthia Xandire");
    let shank = piece(game.state(), "Shank");
    expect(&mut game, SEEKERS, "Choose an action", option("attack"));
    expect(
        &mut game,
        SEEKERS,
        "Which fighter attacks?",
        Choice::Piece(calthia),
    );
    let asked = request(&game);
    assert_eq!(asked.prompt, "Which weapon?");
    assert_eq!(
        choices(&asked),
        [option("Broadsword"), option("Phantom Fathomer")],
        "the upgrade's Attack action is offered after her own"
    );
    expect(&mut game, SEEKERS, "Which weapon?", option(weapon));
    expect(&mut game, SEEKERS, "Which enemy?", Choice::Piece(shank));
    settle(&mut game);
    attack_rolls(&game)
}

/// Phantom Fathomer (002 L2155-2173; an upgrade's actions are usable when the fighter is
/// activated, Harrowdeep 3.16, digest 3.16 "Effects"): its own Attack action (Range 1, 1 Smash
/// die, Damage 2, Grievous) is one of Calthia's weapons in an Attack action, and rolls 1 more
/// die for each of the target's two upgrades: 1 + 2 dice. Her Broadsword (3 dice) gets none.
#[test]
fn phantom_fathomer_attack_action_uses_its_own_profile_with_a_die_per_target_upgrade() {
    assert_eq!(fathomer_attack("Phantom Fathomer"), [1 + 2]);
    assert_eq!(fathomer_attack("Broadsword"), [3]);
}
