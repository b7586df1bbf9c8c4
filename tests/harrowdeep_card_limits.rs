//! The limits printed on Harrowdeep cards that the flow now keeps (issues 4 and 6): 'next
//! activation' gambits spent by the first Attack action they fit (Called Strike, Easy Meat),
//! re-rolls only in Range 1 and 2 Attack actions (Swampspill), a Move bonus that does not
//! count in a Charge (Audacious Move), a keyword given by an upgrade (Visage of
//! Destruction), and the power step giving upgrades only to the fighters their restrictions
//! allow. Printed texts: seed 002 (each test cites its lines) and
//! shared/rules/underworlds-cards.md; rules: digest section 3.
//!
//! Each scenario starts a match of the shipped data (seat 0 Da Kunnin' Krew, seat 1 Xandire's
//! Truthseekers), arranges the battlefield and hands through the kernel's `Ctx`, then runs
//! the real flow (power step, windows, the combat sequence on loaded dice).

use gloam::core::{
    Choice, Control, Ctx, Event, Frame, Game, GameState, Hex, PieceId, PlayerId, Position, Request,
    RuleError, Rules, Scope, Setup, Value, ZoneId,
};
use gloam::engine::RulesetGame;
use gloam::sim::check_invariants;

mod scenario;
use scenario::decks::{
    answer, choices, expect, names_in, pick, power_step, prompt, request, roomy,
};
use scenario::{KREW, SEEKERS, cards_dir, frame, option, piece, with_fixture};

/// A test-only card: run as a `card` frame for `this_fighter`, it marks `hunter` when the
/// fighter is a hunter (`has_keyword`) and `allowed` when a hunter-only card would allow it
/// (`card_allows` of "Hunter Only"). An upgrade, so that its effect may read `this_fighter`
/// (a ploy's may not: `gloam_dsl::Place`).
const PROBE: &str = r#"
card "Keyword Probe" {
    ruleset = "harrowdeep"
    kind = upgrade
    owner = universal
    window = card_resolved
    text = "Test fixture: marks the fighter's keywords."
    effect = {
        if has_keyword(this_fighter, "hunter") { mark("holds hunter"); }
        for c in cards_in(player, "power_hand") {
            if card_allows(c, this_fighter) { mark("holds allowed"); }
        }
    }
}

card "Hunter Only" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    restrictions = [keyword: hunter]
    window = power_step
    text = "Test fixture: a hunter's card."
    effect = { }
}
"#;

/// The shipped data plus the probe.
fn rules() -> RulesetGame {
    // Its own file for each call: parallel tests never read one half-written.
    with_fixture("harrowdeep", "card-limits-probe", PROBE)
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
        // The scenarios build hands themselves: the shuffled decks go to the discard piles,
        // and every fighter leaves the battlefield until the scenario places it.
        for seat in [KREW, SEEKERS] {
            for deck in ["objective", "power"] {
                let from = ZoneId::new(seat, format!("{deck}_deck"));
                let to = ZoneId::new(seat, format!("{deck}_discard"));
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

fn fighter(rules: &RulesetGame, kind: &str) -> Value {
    let game = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    Value::Piece(piece(game.state(), kind))
}

/// Places fighters `(kind, hex)`; every other fighter stays off the battlefield.
fn place_all(ctx: &mut Ctx<'_>, placed: &[(&str, Hex)]) {
    let everyone: Vec<PieceId> = ctx.state().pieces.keys().copied().collect();
    for id in everyone {
        ctx.place_piece(id, None, vec![], "test").expect("off");
    }
    for (kind, hex) in placed {
        let id = piece(ctx.state(), kind);
        ctx.place_piece(id, Some(Position::Hex(*hex)), vec![], "deploy")
            .expect("place");
    }
}

fn card(ctx: &mut Ctx<'_>, name: &str, player: PlayerId, zone: &str) {
    ctx.create_card(name, player, &ZoneId::new(player, zone))
        .expect("card");
}

/// Plays `name` from `player`'s hand in the power step the game is at.
fn play_in_power_step(game: &mut Game<Scenario>, player: PlayerId, name: &str) {
    expect(game, player, "Power step", option("play a card"));
    let card = choices(&request(game))
        .into_iter()
        .find(|c| matches!(c, Choice::Card(id) if game.state().cards[id].name == name))
        .unwrap_or_else(|| panic!("{name} is not offered"));
    expect(game, player, "Which card?", card);
}

/// Combat step 1 onwards (3.9): `attacker` attacks `target` with `weapon`.
fn attack_frame(rules: &RulesetGame, attacker: &str, target: &str, weapon: &str) -> Frame {
    let owner = if SEEKER_KINDS.contains(&attacker) {
        SEEKERS
    } else {
        KREW
    };
    frame(
        "attack",
        &[
            ("player", Value::Player(owner)),
            ("fighter", fighter(rules, attacker)),
            ("target", fighter(rules, target)),
            ("weapon", Value::Str(weapon.into())),
        ],
    )
}

const SEEKER_KINDS: [&str; 4] = [
    "Calthia Xandire",
    "Dhoraz Giant-fell",
    "Luxa Stormrider",
    "Taros",
];

/// A window of the flow opening.
fn window(player: PlayerId, name: &str) -> Frame {
    frame(
        "window",
        &[
            ("player", Value::Player(player)),
            ("data", Value::Str(name.into())),
        ],
    )
}

fn damage_of(state: &GameState, kind: &str) -> i64 {
    state.pieces[&piece(state, kind)]
        .counters
        .get("damage")
        .copied()
        .unwrap_or(0)
}

/// How many times an attack roll offered a re-roll, by attack roll: for each combat
/// sequence, whether the first "Re-roll an attack die?" came. Answers every request
/// (re-rolls kept, no drive back, reactions passed) until none is pending.
fn run_out(game: &mut Game<Scenario>) -> Vec<String> {
    let mut asked = Vec::new();
    for _ in 0..200 {
        let Some(request) = game.pending().first().map(|r| (*r).clone()) else {
            return asked;
        };
        asked.push(request.prompt.clone());
        let choice = match request.prompt.as_str() {
            "Re-roll an attack die?" | "Re-roll a defence die?" => option("keep the roll"),
            "Drive the target back?" => option("do not drive back"),
            "Reaction step: react or pass?" => option("pass"),
            other => panic!("unexpected request: {other}"),
        };
        answer(game, choice);
    }
    panic!("the scenario does not end")
}

/// How many attack-die re-roll offers the game made, counting one per attack roll.
fn reroll_offers(prompts: &[String]) -> usize {
    prompts
        .iter()
        .filter(|p| p.as_str() == "Re-roll an attack die?")
        .count()
}

/// Calthia with Gikkit next to her, Krookgrin 3 hexes from Gikkit and Calthia, Luxa 4 hexes
/// from Gikkit; `torka_near` puts Torka 2 hexes from Calthia (his Grapple supports attacks
/// on her from there, 3.10), else far away.
fn duel(rules: &RulesetGame, torka_near: bool) -> Vec<(&'static str, Hex)> {
    let calthia = pick(rules, &[], |h| roomy(rules, h));
    let gikkit = pick(rules, &[calthia], |h| h.distance_to(calthia) == 1);
    let torka = if torka_near {
        pick(rules, &[calthia, gikkit], |h| {
            h.distance_to(calthia) == 2 && h.distance_to(gikkit) >= 2
        })
    } else {
        pick(rules, &[calthia, gikkit], |h| {
            h.distance_to(calthia) >= 6 && h.distance_to(gikkit) >= 6
        })
    };
    let luxa = pick(rules, &[calthia, gikkit, torka], |h| {
        h.distance_to(gikkit) == 4 && h.distance_to(calthia) >= 3 && h.distance_to(torka) >= 3
    });
    vec![
        ("Calthia Xandire", calthia),
        ("Gikkit", gikkit),
        ("Torka Tuffskul", torka),
        ("Luxa Stormrider", luxa),
    ]
}

/// In the `duel` set-up, `player` plays `name` in a power step (answering `then`), then the
/// `attacks` follow, the dice always showing `attack` and `defence`.
fn ploy_then_attacks(
    rules: &RulesetGame,
    (player, name, then): (PlayerId, &'static str, &[&str]),
    torka_near: bool,
    attacks: Vec<Frame>,
    (attack, defence): (&'static [&'static str], &'static [&'static str]),
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let placed = duel(rules, torka_near);
    let mut frames = vec![power_step(player)];
    frames.extend(attacks);
    let mut game = scenario(
        rules,
        move |ctx| {
            place_all(ctx, &placed);
            arrange(ctx);
            for _ in 0..8 {
                ctx.fix_dice("attack", attack);
                ctx.fix_dice("defence", defence);
            }
            card(ctx, name, player, "power_hand");
        },
        frames,
    );
    play_in_power_step(&mut game, player, name);
    for kind in then {
        let id = piece(game.state(), kind);
        answer(&mut game, Choice::Piece(id));
    }
    game
}

// ---------------------------------------------------------------------------------------
// Called Strike
// ---------------------------------------------------------------------------------------

/// Called Strike (seed 002 L740-753; digest 3.15 'next' gambits): only the first Attack
/// action a friendly fighter makes in the next activation step may re-roll; the card is then
/// spent (discarded), so the second one may not.
#[test]
fn called_strike_first_friendly_attack_only_rerolls() {
    let rules = rules();
    let attacks = vec![
        attack_frame(&rules, "Calthia Xandire", "Gikkit", "Broadsword"),
        attack_frame(&rules, "Calthia Xandire", "Gikkit", "Broadsword"),
    ];
    let mut game = ploy_then_attacks(
        &rules,
        (SEEKERS, "Called Strike", &[]),
        false,
        attacks,
        (&["fury"], &["block"]),
        |_| {},
    );
    let prompts = run_out(&mut game);
    assert_eq!(reroll_offers(&prompts), 1, "{prompts:?}");
    assert!(names_in(game.state(), SEEKERS, "persisting").is_empty());
    assert!(names_in(game.state(), SEEKERS, "power_discard").contains(&"Called Strike".into()));
}

/// Called Strike (seed 002 L740-753): an enemy's Attack action neither uses nor spends it;
/// the friendly Attack action after it still may re-roll.
#[test]
fn called_strike_enemy_attack_first_keeps_it_for_the_friendly_one() {
    let rules = rules();
    let attacks = vec![
        attack_frame(&rules, "Gikkit", "Calthia Xandire", "Krule Irons"),
        attack_frame(&rules, "Calthia Xandire", "Gikkit", "Broadsword"),
    ];
    let mut game = ploy_then_attacks(
        &rules,
        (SEEKERS, "Called Strike", &[]),
        false,
        attacks,
        (&["fury"], &["block"]),
        |_| {},
    );
    let prompts = run_out(&mut game);
    let declared = game
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Marker { name, .. } if name == "attack_declared"))
        .count();
    assert_eq!(declared, 2, "two attacks declared");
    assert_eq!(reroll_offers(&prompts), 1, "only Calthia's: {prompts:?}");
    assert!(names_in(game.state(), SEEKERS, "persisting").is_empty());
}

/// Called Strike (seed 002 L740-753; digest 3.15: unused 'next' gambits expire at the end
/// of the next activation step): an activation step without an Attack action discards it,
/// and a later Attack action may not re-roll.
#[test]
fn called_strike_unused_expires_with_the_next_activation_step() {
    let rules = rules();
    let attacks = vec![
        window(SEEKERS, "after_activation"),
        attack_frame(&rules, "Calthia Xandire", "Gikkit", "Broadsword"),
    ];
    let mut game = ploy_then_attacks(
        &rules,
        (SEEKERS, "Called Strike", &[]),
        false,
        attacks,
        (&["fury"], &["block"]),
        |_| {},
    );
    let prompts = run_out(&mut game);
    assert_eq!(reroll_offers(&prompts), 0, "{prompts:?}");
    assert!(names_in(game.state(), SEEKERS, "persisting").is_empty());
    assert!(names_in(game.state(), SEEKERS, "power_discard").contains(&"Called Strike".into()));
}

// ---------------------------------------------------------------------------------------
// Easy Meat
// ---------------------------------------------------------------------------------------

/// Easy Meat (seed 002 L888-899): the first Range 1 or 2 Attack action, supported (Torka's
/// Grapple, 2 hexes from the target), deals 1 extra damage; the second does not (spent).
/// Gikkit's Krule Irons: Damage 1.
#[test]
fn easy_meat_first_supported_short_attack_deals_one_more() {
    let rules = rules();
    let attacks = vec![
        attack_frame(&rules, "Gikkit", "Calthia Xandire", "Krule Irons"),
        attack_frame(&rules, "Gikkit", "Calthia Xandire", "Krule Irons"),
    ];
    let mut game = ploy_then_attacks(
        &rules,
        (KREW, "Easy Meat", &[]),
        true,
        attacks,
        (&["smash", "smash"], &["dodge", "dodge"]),
        |_| {},
    );
    run_out(&mut game);
    // 2 (1 + Easy Meat) then 1.
    assert_eq!(damage_of(game.state(), "Calthia Xandire"), 3);
    assert!(names_in(game.state(), KREW, "persisting").is_empty());
}

/// Easy Meat (seed 002 L888-899): an unsupported first Range 1 Attack action spends it
/// without the extra damage.
#[test]
fn easy_meat_unsupported_first_attack_spends_it_for_nothing() {
    let rules = rules();
    let attacks = vec![attack_frame(
        &rules,
        "Gikkit",
        "Calthia Xandire",
        "Krule Irons",
    )];
    let mut game = ploy_then_attacks(
        &rules,
        (KREW, "Easy Meat", &[]),
        false,
        attacks,
        (&["smash", "smash"], &["dodge", "dodge"]),
        |_| {},
    );
    run_out(&mut game);
    assert_eq!(damage_of(game.state(), "Calthia Xandire"), 1);
    assert!(names_in(game.state(), KREW, "persisting").is_empty());
    assert!(names_in(game.state(), KREW, "power_discard").contains(&"Easy Meat".into()));
}

/// Easy Meat (seed 002 L888-899): a Range 4 Attack action (Luxa's Stormcaller Bow) is not
/// the one it waits for; it stays in play for the next Range 1-2 Attack action.
#[test]
fn easy_meat_long_range_attack_does_not_spend_it() {
    let rules = rules();
    let attacks = vec![attack_frame(
        &rules,
        "Luxa Stormrider",
        "Gikkit",
        "Stormcaller Bow",
    )];
    let mut game = ploy_then_attacks(
        &rules,
        (KREW, "Easy Meat", &[]),
        true,
        attacks,
        (&["fury", "fury"], &["block"]),
        |_| {},
    );
    run_out(&mut game);
    assert_eq!(names_in(game.state(), KREW, "persisting"), ["Easy Meat"]);
}

// ---------------------------------------------------------------------------------------
// Swampspill
// ---------------------------------------------------------------------------------------

/// Swampspill (seed 002 L2711-2725): the chosen fighter may re-roll one die in its Range 1
/// and Range 2 Attack actions only: played for Calthia, her Broadsword (Range 1) is offered
/// a re-roll; played for Luxa, her Stormcaller Bow (Range 4) is not. (The card is the
/// Krew's; the test gives it to the Truthseekers, whose Luxa has the set's only Range 3+
/// weapon.)
#[test]
fn swampspill_rerolls_only_in_range_1_and_2_attacks() {
    let rules = rules();
    for (chosen, weapon, offers) in [
        ("Calthia Xandire", "Broadsword", 1),
        ("Luxa Stormrider", "Stormcaller Bow", 0),
    ] {
        let attacks = vec![attack_frame(&rules, chosen, "Gikkit", weapon)];
        let mut game = ploy_then_attacks(
            &rules,
            (SEEKERS, "Swampspill", &[chosen]),
            true,
            attacks,
            (&["smash", "smash"], &["block"]),
            |_| {},
        );
        let prompts = run_out(&mut game);
        assert_eq!(reroll_offers(&prompts), offers, "{chosen}: {prompts:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Audacious Move
// ---------------------------------------------------------------------------------------

/// Audacious Move (seed 002 L983-995): +2 Move in the next activation step, except in a
/// Charge action: Luxa (Move 4) moves up to 6 hexes, but charges only as far as 4.
#[test]
fn audacious_move_charge_moves_without_the_bonus() {
    let rules = rules();
    let luxa = fighter(&rules, "Luxa Stormrider");
    let run = |step: &str| {
        let at = pick(&rules, &[], |h| roomy(&rules, h));
        // Gikkit 8 hexes away: Luxa's bow (Range 4) reaches him once she has moved 4 hexes
        // towards him; with 6 hexes of Move she could end 6 hexes away.
        let gikkit = pick(&rules, &[at], |h| h.distance_to(at) == 8);
        let placed = vec![("Luxa Stormrider", at), ("Gikkit", gikkit)];
        let mut game = scenario(
            &rules,
            move |ctx| {
                place_all(ctx, &placed);
                card(ctx, "Audacious Move", SEEKERS, "power_hand");
            },
            vec![
                power_step(SEEKERS),
                frame(
                    step,
                    &[
                        ("player", Value::Player(SEEKERS)),
                        ("fighter", luxa.clone()),
                    ],
                ),
            ],
        );
        play_in_power_step(&mut game, SEEKERS, "Audacious Move");
        // The players pass (if asked), ending the power step.
        while prompt(&game).as_deref() == Some("Power step") {
            answer(&mut game, option("pass"));
        }
        let asked = request(&game);
        let farthest = choices(&asked)
            .iter()
            .filter_map(|c| match c {
                Choice::Hex(h) => Some(h.distance_to(at)),
                _ => None,
            })
            .max();
        (asked.prompt, farthest)
    };
    let (prompt, moved) = run("move_action");
    assert_eq!(prompt, "Where does it move?");
    assert!(moved > Some(4), "{moved:?}");
    let (prompt, charged) = run("charge_action");
    assert_eq!(prompt, "Where does it charge to?");
    assert!(charged <= Some(4), "{charged:?}");
}

// ---------------------------------------------------------------------------------------
// Visage of Destruction
// ---------------------------------------------------------------------------------------

/// Visage of Destruction (seed 002 L1451-1464): "this fighter is a hunter": Torka (no
/// hunter) is one while he bears it (`has_keyword`, and a hunter-only card allows him).
#[test]
fn visage_of_destruction_bearer_is_a_hunter() {
    let rules = rules();
    for bears in [false, true] {
        let at = pick(&rules, &[], |h| roomy(&rules, h));
        let placed = vec![("Torka Tuffskul", at)];
        let game = scenario(
            &rules,
            move |ctx| {
                place_all(ctx, &placed);
                card(ctx, "Hunter Only", KREW, "power_hand");
                card(ctx, "Keyword Probe", KREW, "scored");
                if bears {
                    let torka = piece(ctx.state(), "Torka Tuffskul");
                    let zone = ZoneId::on_piece(KREW, "equipped", torka);
                    ctx.create_zone(zone.clone(), gloam::core::Visibility::Public)
                        .expect("zone");
                    ctx.create_card("Visage of Destruction", KREW, &zone)
                        .expect("card");
                }
            },
            vec![],
        );
        let probe = *game
            .state()
            .zone_cards(&ZoneId::new(KREW, "scored"))
            .last()
            .expect("the probe");
        let torka = piece(game.state(), "Torka Tuffskul");
        let probe_frame = frame(
            "card",
            &[
                ("card", Value::Card(probe)),
                ("player", Value::Player(KREW)),
                ("fighter", Value::Piece(torka)),
            ],
        );
        let placed = vec![("Torka Tuffskul", at)];
        let game = scenario(
            &rules,
            move |ctx| {
                place_all(ctx, &placed);
                card(ctx, "Hunter Only", KREW, "power_hand");
                card(ctx, "Keyword Probe", KREW, "scored");
                if bears {
                    let torka = piece(ctx.state(), "Torka Tuffskul");
                    let zone = ZoneId::on_piece(KREW, "equipped", torka);
                    ctx.create_zone(zone.clone(), gloam::core::Visibility::Public)
                        .expect("zone");
                    ctx.create_card("Visage of Destruction", KREW, &zone)
                        .expect("card");
                }
            },
            vec![probe_frame],
        );
        let marks: Vec<String> = game
            .events()
            .iter()
            .filter_map(|e| match e {
                Event::Marker { name, .. } => name.strip_prefix("holds ").map(str::to_owned),
                _ => None,
            })
            .collect();
        let expected: Vec<String> = if bears {
            vec!["hunter".into(), "allowed".into()]
        } else {
            vec![]
        };
        assert_eq!(marks, expected, "bears {bears}");
    }
}

// ---------------------------------------------------------------------------------------
// The power step's upgrades
// ---------------------------------------------------------------------------------------

/// Upgrades in the power step (digest 3.16; seed 002 L2860-2886): given only to a friendly
/// fighter on the battlefield its restrictions allow, as in end-phase step 3. Tempered
/// Sigmarite is restricted to Calthia, Dhoraz and Luxa: Taros is not offered.
#[test]
fn power_step_upgrade_offered_only_to_allowed_fighters() {
    let rules = rules();
    let placed: Vec<(&str, Hex)> = {
        let mut taken = Vec::new();
        let mut placed = Vec::new();
        for kind in SEEKER_KINDS {
            let hex = pick(&rules, &taken, |h| {
                taken.iter().all(|t: &Hex| h.distance_to(*t) >= 2)
            });
            taken.push(hex);
            placed.push((kind, hex));
        }
        placed
    };
    let mut game = scenario(
        &rules,
        move |ctx| {
            place_all(ctx, &placed);
            ctx.set_counter(Scope::Player(SEEKERS), "glory", 3)
                .expect("glory");
            card(ctx, "Tempered Sigmarite", SEEKERS, "power_hand");
        },
        vec![power_step(SEEKERS)],
    );
    play_in_power_step(&mut game, SEEKERS, "Tempered Sigmarite");
    let asked = request(&game);
    assert_eq!(asked.prompt, "Which fighter takes the upgrade?");
    let mut offered: Vec<String> = choices(&asked)
        .iter()
        .map(|c| match c {
            Choice::Piece(id) => game.state().pieces[id].kind.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    offered.sort();
    assert_eq!(
        offered,
        ["Calthia Xandire", "Dhoraz Giant-fell", "Luxa Stormrider"]
    );
}

/// Upgrades in the power step (digest 3.16): an upgrade no fighter on the battlefield may
/// take is not offered (Tempered Sigmarite with only Taros standing).
#[test]
fn power_step_upgrade_without_allowed_bearer_not_offered() {
    let rules = rules();
    let at = pick(&rules, &[], |h| roomy(&rules, h));
    let placed = vec![("Taros", at)];
    let game = scenario(
        &rules,
        move |ctx| {
            place_all(ctx, &placed);
            ctx.set_counter(Scope::Player(SEEKERS), "glory", 3)
                .expect("glory");
            card(ctx, "Tempered Sigmarite", SEEKERS, "power_hand");
        },
        vec![power_step(SEEKERS)],
    );
    // Nothing to play and nothing to delve: the step passes without asking Seekers.
    let asked: Vec<Request> = game.pending().iter().map(|r| (*r).clone()).collect();
    assert!(
        asked
            .iter()
            .all(|r| !(r.player == SEEKERS && choices(r).contains(&option("play a card")))),
        "{asked:?}"
    );
}

// ---------------------------------------------------------------------------------------
// gloam text: the limits read from the data
// ---------------------------------------------------------------------------------------

/// `gloam text render` writes the limits from the data (seed 002 L740-753, L888-899,
/// L983-995, L2711-2725, L1451-1464): the first Attack action, its Range, support, the Charge
/// exception, the keyword; each render parses and agrees with the card (`check_card`).
#[test]
fn render_card_limits_written_from_data() {
    let (sources, problems) = gloam::load::read_paths(&[cards_dir()]);
    assert!(problems.is_empty(), "{problems:?}");
    let (loaded, problems) = gloam::load::load(&sources, &gloam_dsl::Host::new());
    assert!(problems.is_empty(), "{problems:?}");
    let sites = gloam::text::Sites::new(&sources);
    let expected = [
        (
            "Called Strike",
            "In the next activation step, in the first Attack action, the fighter may re-roll one attack die.",
        ),
        (
            "Easy Meat",
            "In the next activation step, in the first Range 1 or Range 2 Attack action, if the attacker has a supporting fighter, the fighter has +1 Damage.",
        ),
        (
            "Swampspill",
            "Until the end of the phase, in its Range 1 or Range 2 Attack actions, a friendly fighter may re-roll one attack die.",
        ),
        (
            "Audacious Move",
            "In the next activation step, each friendly fighter has +2 Move, except in a Charge action.",
        ),
    ];
    for (name, text) in expected {
        let card = loaded
            .library
            .cards()
            .iter()
            .find(|c| c.name == name && c.ruleset == "harrowdeep")
            .unwrap_or_else(|| panic!("no card {name}"));
        assert_eq!(gloam::text::render(card), text, "{name}");
        let check = gloam::text::check_card(card, None, &sites);
        assert_eq!(
            check.status,
            gloam::text::Status::Agrees,
            "{name}: {check:?}"
        );
        let mut rendered = card.clone();
        rendered.text = Some(text.to_owned());
        let check = gloam::text::check_card(&rendered, None, &sites);
        assert_eq!(
            check.status,
            gloam::text::Status::Agrees,
            "{name} rendered: {check:?}"
        );
    }
    let visage = loaded
        .library
        .cards()
        .iter()
        .find(|c| c.name == "Visage of Destruction")
        .expect("Visage of Destruction");
    assert!(
        gloam::text::render(visage).contains("this fighter is a hunter"),
        "{}",
        gloam::text::render(visage)
    );
}
