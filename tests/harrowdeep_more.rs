//! The last Harrowdeep rules played from the data in cards/harrowdeep (seed 002, rules
//! digest section 3): Scatter (3.18, with our symbol-direction table for digest H14), innate
//! symbols (3.25, digest H26) on attack, defence and casting rolls, and Taros's companion
//! rule in support counting (3.10).
//!
//! Each scenario starts a match of the shipped data, arranges the battlefield through the
//! kernel's `Ctx` (loaded dice with `fix_dice`), then runs chosen steps of the flow and
//! answers its requests.

use gloam::core::{Ctx, Event, Frame, Game, GameState, Hex, Options, Position, Value};
use gloam::engine::RulesetGame;

mod scenario;
use scenario::{
    KREW, SEEKERS, Scenario, TWIN_CHANNEL, answer, card_named, damage, frame, game_counter, glory,
    id, modify, option, options, pending, place, scenario, shipped, with_fixture,
};

const POINT: &str = "Which way does the scatter token point?";
const ORDER: &str = "Which die extends the chain next?";
const INNATE: &str = "Which innate symbol is added to the roll?";

/// The six axial directions in the order the `scatter` step lists them: clockwise from east.
const DIRS: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
/// Their names in the options.
const NAMES: [&str; 6] = [
    "east",
    "south-east",
    "south-west",
    "west",
    "north-west",
    "north-east",
];

fn rules() -> RulesetGame {
    shipped("harrowdeep")
}

/// Test-only cards (with the shared `TWIN_CHANNEL` spell): an upgrade (so that its effect
/// reads `this_fighter`, its bearer; a ploy's may not) that scatters 1 from a
/// fighter.
const FIXTURES: &str = r#"
card "Test Scatter Blast" {
    ruleset = "harrowdeep"
    kind = upgrade
    owner = universal
    window = power_step
    text = "Test fixture. Scatter 1 from the chosen fighter's hex; the fighter in the end hex is dealt 1 damage."
    effect = {
        then("scatter", #{ player: player, hex: hex_of(this_fighter), count: 1, data: "scatter_damage" });
    }
}
"#;

fn rules_with_fixtures() -> RulesetGame {
    with_fixture(
        "harrowdeep",
        "harrowdeep-more-fixtures",
        &format!("{TWIN_CHANNEL}{FIXTURES}"),
    )
}

/// Answers every pending request with "pass", "keep the roll" or "no" (the drive back)
/// while one of those is offered: the scenario's own choices are made by the test.
fn settle(game: &mut Game<Scenario>) {
    while let Some(asked) = pending(game) {
        let opts = match &asked.options {
            Options::One { choices } => choices.clone(),
            _ => return,
        };
        let passive = ["pass", "keep the roll", "no"]
            .into_iter()
            .find(|p| opts.contains(&option(p)));
        match passive {
            Some(p) => answer(game, asked.player, option(p)),
            None => return,
        }
    }
}

/// Answers the pending request (asked of anyone) with the option `text`.
fn pick(game: &mut Game<Scenario>, prompt: &str, text: &str) {
    let asked = pending(game).unwrap_or_else(|| panic!("no request, expected {prompt}"));
    assert_eq!(asked.prompt, prompt);
    assert!(
        options(&asked).iter().any(|o| o == text),
        "{text} not among {:?}",
        options(&asked)
    );
    answer(game, asked.player, option(text));
}

fn step(h: Hex, d: usize) -> Hex {
    Hex::new(h.q + DIRS[d].0, h.r + DIRS[d].1)
}

/// Hexes that are battlefield hexes, neither blocked nor lethal nor cover, with all hexes
/// within `radius` such hexes too: open ground, sorted.
fn open_ground(rules: &RulesetGame, radius: u32) -> Vec<Hex> {
    let battlefield = rules.battlefield();
    let plain = |h: Hex| {
        battlefield.contains(h)
            && !battlefield.has_type(h, "blocked")
            && !battlefield.has_type(h, "lethal")
            && !battlefield.has_type(h, "cover")
    };
    let mut hexes: Vec<Hex> = battlefield
        .hexes()
        .filter(|&h| h.range(radius).into_iter().all(plain))
        .collect();
    hexes.sort();
    hexes
}

/// A hex of open ground (with its neighbours) whose hex east then south-east is open too.
fn scatter_origin(rules: &RulesetGame) -> Hex {
    let ground = open_ground(rules, 0);
    open_ground(rules, 1)
        .into_iter()
        .find(|&o| ground.contains(&step(step(o, 0), 1)))
        .expect("room to scatter")
}

fn no_fighter_at(state: &GameState, hex: Hex) -> bool {
    state
        .pieces
        .values()
        .all(|p| p.position.and_then(Position::hex) != Some(hex))
}

// ---------------------------------------------------------------------------------------
// Scatter (3.18; digest H14)
// ---------------------------------------------------------------------------------------

fn scatter_frame(origin: Hex, dice: i64) -> Frame {
    frame(
        "scatter",
        &[
            ("player", Value::Player(KREW)),
            ("hex", Value::Hex(origin)),
            ("count", Value::Int(dice)),
            ("data", Value::Str("scatter_damage".into())),
        ],
    )
}

#[test]
fn scatter_chain_follows_the_dice_in_the_order_picked_and_hits_the_end_hex() {
    // Harrowdeep, Scatter (002 L2986-3071; digest 3.18, H14): the player points the token,
    // rolls X attack dice and orders them; each die extends the chain one hex in its
    // direction. Our table: critical straight on, fury one turn clockwise.
    let rules = rules();
    let origin = scatter_origin(&rules);
    let end = step(step(origin, 0), 1);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Dhoraz Giant-fell", end);
            ctx.fix_dice("attack", &["fury", "critical"]);
        },
        vec![scatter_frame(origin, 2)],
    );
    pick(&mut game, POINT, "critical toward east");
    let asked = pending(&game).expect("the order is asked");
    assert_eq!(asked.prompt, ORDER);
    assert_eq!(
        options(&asked),
        vec!["fury to the south-east", "critical to the east",]
    );
    pick(&mut game, ORDER, "critical to the east");
    settle(&mut game);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 1);
}

#[test]
fn scatter_in_the_other_order_ends_in_the_same_hex_but_passes_elsewhere() {
    // Harrowdeep, Scatter (digest 3.18): ordering the dice changes the chain; the end hex
    // of critical then fury equals fury then critical, so the fighter there is hit either
    // way, and a fighter in the first hex of the other order is not.
    let rules = rules();
    let origin = scatter_origin(&rules);
    let end = step(step(origin, 0), 1);
    let first = step(origin, 0);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Dhoraz Giant-fell", end);
            place(ctx, "Luxa Stormrider", first);
            ctx.fix_dice("attack", &["fury", "critical"]);
        },
        vec![scatter_frame(origin, 2)],
    );
    pick(&mut game, POINT, "critical toward east");
    pick(&mut game, ORDER, "fury to the south-east");
    settle(&mut game);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 1);
    assert_eq!(damage(game.state(), "Luxa Stormrider"), 0);
}

#[test]
fn scatter_chain_may_loop_back_into_the_origin_with_a_smash_either_way() {
    // Harrowdeep, Scatter (002 L3060-3066; digest 3.18): the chain may loop back into the
    // origin. Our table (H14): a smash goes three or five turns clockwise, the player picks.
    let rules = rules();
    let origin = scatter_origin(&rules);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Dhoraz Giant-fell", origin);
            ctx.fix_dice("attack", &["critical", "smash"]);
        },
        vec![scatter_frame(origin, 2)],
    );
    pick(&mut game, POINT, "critical toward east");
    let asked = pending(&game).expect("the order is asked");
    assert_eq!(
        options(&asked),
        vec![
            "critical to the east",
            "smash to the west",
            "smash to the north-east",
        ]
    );
    pick(&mut game, ORDER, "critical to the east");
    // From the first hex, a smash three turns on (west) comes back into the origin.
    pick(&mut game, ORDER, "smash to the west");
    settle(&mut game);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 1);
}

/// A battlefield hex `e` and a direction `o` such that the fury hex `f` (one turn from
/// `o`) is an empty, plain battlefield hex and the critical's direction from `f` leaves the
/// battlefield: (e, o, f).
fn edge_case(rules: &RulesetGame) -> (Hex, usize, Hex) {
    let battlefield = rules.battlefield();
    let plain = |h: Hex| {
        battlefield.contains(h)
            && !battlefield.has_type(h, "blocked")
            && !battlefield.has_type(h, "lethal")
    };
    let mut hexes: Vec<Hex> = battlefield.hexes().collect();
    hexes.sort();
    hexes
        .into_iter()
        .filter(|&e| plain(e))
        .find_map(|e| {
            (0..6).find_map(|o| {
                let f = step(e, (o + 1) % 6);
                (plain(f) && !battlefield.contains(step(f, o))).then_some((e, o, f))
            })
        })
        .expect("an edge of the battlefield")
}

#[test]
fn scatter_leaving_the_battlefield_is_interrupted_in_the_last_hex_reached() {
    // Harrowdeep, Scatter (002 L3008-3012; digest 3.18): a chain that would extend off the
    // battlefield ends in the last hex it extended into (interrupted); the rest is unused.
    let rules = rules();
    let (origin, facing, last) = edge_case(&rules);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            if no_fighter_at(ctx.state(), last) {
                place(ctx, "Dhoraz Giant-fell", last);
            }
            ctx.fix_dice("attack", &["fury", "critical"]);
        },
        vec![scatter_frame(origin, 2)],
    );
    pick(
        &mut game,
        POINT,
        &format!("critical toward {}", NAMES[facing]),
    );
    pick(
        &mut game,
        ORDER,
        &format!("fury to the {}", NAMES[(facing + 1) % 6]),
    );
    // The critical is the only die left: it is placed without a question and leaves.
    settle(&mut game);
    assert!(pending(&game).is_none());
    let hit: i64 = game
        .state()
        .pieces
        .values()
        .filter(|p| p.position.and_then(Position::hex) == Some(last))
        .map(|p| p.counters.get("damage").copied().unwrap_or(0))
        .sum();
    assert_eq!(hit, 1);
}

#[test]
fn scatter_that_never_leaves_the_origin_makes_no_chain_and_no_effect() {
    // Harrowdeep, Scatter (002 L3013-3016; digest 3.18): a chain that has not extended
    // beyond the origin is no chain: the follow-up gets no end hex, the fighter standing in
    // the origin is not hit.
    let rules = rules();
    let (origin, facing, _) = edge_case(&rules);
    let origin = step(origin, (facing + 1) % 6);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            if no_fighter_at(ctx.state(), origin) {
                place(ctx, "Dhoraz Giant-fell", origin);
            }
            ctx.fix_dice("attack", &["critical"]);
        },
        vec![scatter_frame(origin, 1)],
    );
    pick(
        &mut game,
        POINT,
        &format!("critical toward {}", NAMES[facing]),
    );
    settle(&mut game);
    assert!(pending(&game).is_none());
    let total: i64 = game
        .state()
        .pieces
        .values()
        .map(|p| p.counters.get("damage").copied().unwrap_or(0))
        .sum();
    assert_eq!(total, 0);
}

#[test]
fn a_card_script_queues_scatter_and_its_follow_up_step() {
    // Harrowdeep, Scatter (digest 3.18): "the card names the origin hex"; a card's effect
    // queues the step `scatter` with the origin, X and the follow-up step.
    let rules = rules_with_fixtures();
    let origin = scatter_origin(&rules);
    let setup_game = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let card = card_named(setup_game.state(), "Test Scatter Blast");
    let dhoraz = id(&rules, "Dhoraz Giant-fell");
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Dhoraz Giant-fell", origin);
            place(ctx, "Torka Tuffskul", step(origin, 0));
            ctx.fix_dice("attack", &["critical"]);
        },
        vec![frame(
            "card",
            &[
                ("player", Value::Player(SEEKERS)),
                ("card", Value::Card(card)),
                ("fighter", Value::Piece(dhoraz)),
            ],
        )],
    );
    pick(&mut game, POINT, "critical toward east");
    settle(&mut game);
    assert_eq!(damage(game.state(), "Torka Tuffskul"), 1);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 0);
}

// ---------------------------------------------------------------------------------------
// Innate symbols (3.25; digest H26)
// ---------------------------------------------------------------------------------------

/// Torka (Mansnappa: 2 Smash dice, Damage 2, Grievous) next to Dhoraz (Defence 2 Block,
/// Wounds 5) on open ground, everyone else off the battlefield.
fn duel(rules: &RulesetGame) -> (Hex, Hex) {
    let ground = open_ground(rules, 1);
    let target = ground[0];
    (target, target.neighbors()[0])
}

fn attack_frame(rules: &RulesetGame) -> Frame {
    frame(
        "attack",
        &[
            ("player", Value::Player(KREW)),
            ("fighter", Value::Piece(id(rules, "Torka Tuffskul"))),
            ("target", Value::Piece(id(rules, "Dhoraz Giant-fell"))),
            ("weapon", Value::Str("Mansnappa".into())),
        ],
    )
}

fn dice_rolled(game: &Game<Scenario>) -> usize {
    game.events()
        .iter()
        .filter(|e| matches!(e, Event::Rolled { .. }))
        .count()
}

#[test]
fn an_innate_symbol_is_chosen_before_the_roll_and_only_one_is_added() {
    // Harrowdeep, innate symbols (002 L2965-2985; digest 3.25, H26): a fighter with two
    // innate symbols adds one of them, chosen before rolling. Rolled: smash, fury against
    // block, dodge is a draw; the innate smash makes it a hit (Damage 2); both symbols
    // would make a critical hit (Damage 3 with Grievous).
    let rules = rules();
    let (target, attacker) = duel(&rules);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Dhoraz Giant-fell", target);
            place(ctx, "Torka Tuffskul", attacker);
            modify(ctx, "Torka Tuffskul", "innate_smash", 1);
            modify(ctx, "Torka Tuffskul", "innate_critical", 1);
            ctx.fix_dice("attack", &["smash", "fury"]);
            ctx.fix_dice("defence", &["block", "dodge"]);
        },
        vec![attack_frame(&rules)],
    );
    settle(&mut game);
    let asked = pending(&game).expect("the innate symbol is asked");
    assert_eq!(asked.prompt, INNATE);
    assert_eq!(asked.player, KREW);
    assert_eq!(options(&asked), vec!["critical", "smash"]);
    assert_eq!(dice_rolled(&game), 0, "chosen before any roll");
    answer(&mut game, KREW, option("smash"));
    settle(&mut game);
    assert_eq!(game_counter(game.state(), "attack_outcome"), 2);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 2);
}

#[test]
fn an_innate_symbol_that_is_no_face_of_the_die_is_not_offered() {
    // Harrowdeep, innate symbols (digest 3.25): the symbol is added to the roll as a face of
    // its die; an innate block is no attack symbol, so Torka's attack roll gains nothing and
    // the draw stays a draw (no question asked, no damage).
    let rules = rules();
    let (target, attacker) = duel(&rules);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Dhoraz Giant-fell", target);
            place(ctx, "Torka Tuffskul", attacker);
            modify(ctx, "Torka Tuffskul", "innate_block", 1);
            ctx.fix_dice("attack", &["smash", "fury"]);
            ctx.fix_dice("defence", &["block", "dodge"]);
        },
        vec![attack_frame(&rules)],
    );
    settle(&mut game);
    assert!(pending(&game).is_none_or(|r| r.prompt != INNATE));
    assert_eq!(game_counter(game.state(), "attack_outcome"), 1);
    assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), 0);
}

#[test]
fn an_innate_defence_symbol_adds_a_success_to_the_defence_roll() {
    // Harrowdeep, innate symbols (digest 3.25): defence rolls gain them too. Smash, smash
    // against one block is a hit; Dhoraz's innate block (his only one: taken without a
    // question) makes it a draw.
    let rules = rules();
    let (target, attacker) = duel(&rules);
    for (innate, outcome, dealt) in [(0, 2, 2), (1, 1, 0)] {
        let mut game = scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Dhoraz Giant-fell", target);
                place(ctx, "Torka Tuffskul", attacker);
                modify(ctx, "Dhoraz Giant-fell", "innate_block", innate);
                ctx.fix_dice("attack", &["smash", "smash"]);
                ctx.fix_dice("defence", &["block", "dodge"]);
            },
            vec![attack_frame(&rules)],
        );
        settle(&mut game);
        assert_eq!(
            game_counter(game.state(), "attack_outcome"),
            outcome,
            "innate {innate}"
        );
        assert_eq!(damage(game.state(), "Dhoraz Giant-fell"), dealt);
    }
}

fn cast_with_innate(symbol: &'static str, rolled: &'static [&'static str]) -> Game<Scenario> {
    let rules = rules_with_fixtures();
    let hex = open_ground(&rules, 1)[0];
    let calthia = id(&rules, "Calthia Xandire");
    let setup_game = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let card = card_named(setup_game.state(), "Test Twin Channel");
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Calthia Xandire", hex);
            modify(ctx, "Calthia Xandire", symbol, 1);
            ctx.fix_dice("magic", rolled);
        },
        vec![frame(
            "cast_spell",
            &[
                ("player", Value::Player(SEEKERS)),
                ("fighter", Value::Piece(calthia)),
                ("card", Value::Card(card)),
            ],
        )],
    );
    settle(&mut game);
    game
}

#[test]
fn an_innate_channel_completes_a_casting_value() {
    // Harrowdeep, innate symbols (002 L2965-2985; digest 3.17, 3.25): casting rolls gain
    // them. Calthia (wizard level 1) rolls one channel; the spell needs two; her innate
    // channel casts it, an innate block (no magic symbol) does not.
    let game = cast_with_innate("innate_channel", &["channel"]);
    assert_eq!(glory(game.state(), SEEKERS), 1);
    let game = cast_with_innate("innate_block", &["channel"]);
    assert_eq!(glory(game.state(), SEEKERS), 0);
}

#[test]
fn an_innate_critical_matches_like_a_critical_but_causes_no_backlash() {
    // Harrowdeep, magic and innate symbols (digest 3.17, 3.25; our choice in the ruleset
    // header): a rolled critical and an innate critical match two channels; backlash counts
    // the dice alone, so Calthia takes no damage.
    let game = cast_with_innate("innate_critical", &["critical"]);
    assert_eq!(glory(game.state(), SEEKERS), 1);
    assert_eq!(damage(game.state(), "Calthia Xandire"), 0);
}

// ---------------------------------------------------------------------------------------
// Taros's companion rule (3.10)
// ---------------------------------------------------------------------------------------

/// A target hex and a neighbour of it on open ground, and hexes of open ground at distance
/// 2 and 3 from that neighbour that are not next to the target: (target, beside, two, three).
fn companion_hexes(rules: &RulesetGame) -> (Hex, Hex, Hex, Hex) {
    let ground = open_ground(rules, 0);
    ground
        .iter()
        .find_map(|&t| {
            t.neighbors().into_iter().find_map(|a| {
                let far = |d: u32| {
                    ground.iter().copied().find(|&h| {
                        h.distance_to(a) == d && h.distance_to(t) >= 2 && ground.contains(&a)
                    })
                };
                Some((t, a, far(2)?, far(3)?))
            })
        })
        .expect("room for the companion")
}

fn result_frame(
    rules: &RulesetGame,
    attacker: &str,
    target: &str,
    weapon: &str,
    attack: &[&str],
    defence: &[&str],
) -> Frame {
    let faces = |list: &[&str]| Value::List(list.iter().map(|f| Value::Str((*f).into())).collect());
    frame(
        "attack_result",
        &[
            ("player", Value::Player(KREW)),
            ("fighter", Value::Piece(id(rules, attacker))),
            ("target", Value::Piece(id(rules, target))),
            ("weapon", Value::Str(weapon.into())),
            ("rolls", Value::List(vec![faces(attack), faces(defence)])),
        ],
    )
}

#[test]
fn luxa_supports_taros_attacking_from_two_hexes_but_not_from_three() {
    // Harrowdeep, support (002 L2408-2458; digest 3.10) and Taros's card (002 L545-579):
    // while a friendly Stormrider is within 2 hexes of him, she counts as supporting him,
    // even when not adjacent to the target. A single-support symbol then hits.
    let rules = rules();
    let (target, beside, two, three) = companion_hexes(&rules);
    for (luxa, outcome) in [(two, 2), (three, 0)] {
        let mut game = scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Torka Tuffskul", target);
                place(ctx, "Taros", beside);
                place(ctx, "Luxa Stormrider", luxa);
            },
            vec![result_frame(
                &rules,
                "Taros",
                "Torka Tuffskul",
                "Beak",
                &["single_support"],
                &[],
            )],
        );
        settle(&mut game);
        assert_eq!(
            game_counter(game.state(), "attack_outcome"),
            outcome,
            "Luxa at {luxa}"
        );
        assert_eq!(
            game_counter(game.state(), "attack_supporters"),
            if outcome == 2 { 1 } else { 0 }
        );
    }
}

#[test]
fn luxa_supports_taros_defending_from_two_hexes() {
    // Harrowdeep, support on both sides (digest 3.10) and Taros's companion rule: Luxa
    // within 2 hexes of Taros supports him when he is attacked, though not adjacent to the
    // attacker: Torka's smash against a single-support symbol is a draw, not a hit.
    let rules = rules();
    let (target, beside, two, three) = companion_hexes(&rules);
    for (luxa, outcome) in [(two, 1), (three, 2)] {
        let mut game = scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Taros", beside);
                place(ctx, "Torka Tuffskul", target);
                place(ctx, "Luxa Stormrider", luxa);
            },
            vec![result_frame(
                &rules,
                "Torka Tuffskul",
                "Taros",
                "Mansnappa",
                &["smash"],
                &["single_support"],
            )],
        );
        settle(&mut game);
        assert_eq!(
            game_counter(game.state(), "attack_outcome"),
            outcome,
            "Luxa at {luxa}"
        );
    }
}

#[test]
fn luxa_supports_no_other_fighter_from_afar() {
    // Harrowdeep, support (digest 3.10): only Taros has the companion rule; Dhoraz attacking
    // with Luxa 2 hexes away and not next to the target gets no support.
    let rules = rules();
    let (target, beside, two, _) = companion_hexes(&rules);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Torka Tuffskul", target);
            place(ctx, "Dhoraz Giant-fell", beside);
            place(ctx, "Luxa Stormrider", two);
        },
        vec![result_frame(
            &rules,
            "Dhoraz Giant-fell",
            "Torka Tuffskul",
            "Great Hammer",
            &["single_support"],
            &[],
        )],
    );
    settle(&mut game);
    assert_eq!(game_counter(game.state(), "attack_outcome"), 0);
}
