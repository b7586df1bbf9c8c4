//! Embergard played from the data in cards/embergard (seed 001, a third-party summary of the
//! 2024 rules; rules digest section 4). Each scenario starts a match of the shipped data,
//! arranges the battlefield through the kernel's `Ctx`, runs chosen steps of the flow and
//! answers its requests; the whole-game tests play seeded random games.
//!
//! The tests load only `cards/underworlds` and `cards/embergard`, so other editions' data
//! being edited cannot break them.

use std::path::PathBuf;

use gloam::agent::{Agent, RandomAgent};
use gloam::core::{
    Answer, Choice, Ctx, Event, Frame, Game, GameState, Hex, Options, PlayerId, Scope, Value,
    ZoneId,
};
use gloam::engine::RulesetGame;
use gloam::sim::{play_one, prepare, simulate};

mod scenario;
use scenario::{
    KREW, SEEKERS, Scenario, answer, card_id, damage, frame, glory, hex_choices, inspired, option,
    options, piece, place, player_counter, request, tokens,
};

const CALTHIA: &str = "Calthia Xandire (Embergard)";
const DHORAZ: &str = "Dhoraz Giant-fell (Embergard)";
const LUXA: &str = "Luxa Stormrider (Embergard)";
const TAROS: &str = "Taros (Embergard)";
const MANNOK: &str = "Mannok da Kunnin' (Embergard)";
const TORKA: &str = "Torka Tuffskul (Embergard)";
const KROOKGRIN: &str = "Krookgrin (Embergard)";
const GIKKIT: &str = "Gikkit (Embergard)";
const SHANK: &str = "Shank (Embergard)";

fn data() -> Vec<PathBuf> {
    let cards = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards");
    vec![cards.join("underworlds"), cards.join("embergard")]
}

fn rules() -> RulesetGame {
    prepare(&data(), "embergard").expect("the shipped Embergard data sets up a match")
}

fn scenario_seeded(
    rules: &RulesetGame,
    seed: u64,
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
    frames: Vec<Frame>,
) -> Game<Scenario> {
    let setup = rules.setup(seed);
    let scenario = Scenario {
        rules: rules.clone(),
        arrange: Box::new(arrange),
    };
    Game::start(scenario, setup, frames).expect("the scenario starts")
}

fn scenario(
    rules: &RulesetGame,
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
    frames: Vec<Frame>,
) -> Game<Scenario> {
    scenario_seeded(rules, 7, arrange, frames)
}

fn give(ctx: &mut Ctx<'_>, kind: &str, token: &str, count: i64) {
    let id = piece(ctx.state(), kind);
    ctx.set_tokens(Scope::Piece(id), token, count)
        .expect("tokens");
}

fn position(state: &GameState, kind: &str) -> Option<Hex> {
    state.pieces[&piece(state, kind)]
        .position
        .and_then(|p| p.hex())
}

/// Answers every pending request with the first option named in `prefer` that it offers,
/// else its first choice.
fn answer_all(game: &mut Game<Scenario>, prefer: &[&str]) {
    for _ in 0..50 {
        let Some(asked) = game.pending().first().map(|r| (*r).clone()) else {
            return;
        };
        let choice = match &asked.options {
            Options::One { choices } => prefer
                .iter()
                .find_map(|p| choices.iter().find(|c| c.to_string() == *p).cloned())
                .unwrap_or_else(|| choices[0].clone()),
            other => panic!("not a single choice: {other:?}"),
        };
        answer(game, asked.player, choice);
    }
    panic!("the flow kept asking");
}

fn counter(state: &GameState, name: &str) -> i64 {
    state.counters.get(name).copied().unwrap_or(0)
}

/// Hexes to stand on: not blocked, not stagger hexes, in a fixed order.
fn open_hexes(rules: &RulesetGame) -> Vec<Hex> {
    let battlefield = rules.battlefield();
    let mut hexes: Vec<Hex> = battlefield
        .hexes()
        .filter(|&h| !battlefield.has_type(h, "blocked") && !battlefield.has_type(h, "stagger_hex"))
        .collect();
    hexes.sort();
    hexes
}

/// A hex whose six neighbours are all open.
fn open_centre(rules: &RulesetGame, avoid: &[Hex]) -> Hex {
    let open = open_hexes(rules);
    *open
        .iter()
        .find(|h| {
            avoid.iter().all(|a| a.distance_to(**h) >= 4)
                && h.neighbors().iter().all(|n| open.contains(n))
        })
        .expect("an open hex with open neighbours")
}

fn hexes_of(rules: &RulesetGame, types: &[&str]) -> Vec<Hex> {
    let battlefield = rules.battlefield();
    let mut hexes: Vec<Hex> = battlefield
        .hexes()
        .filter(|&h| types.iter().all(|t| battlefield.has_type(h, t)))
        .collect();
    hexes.sort();
    hexes
}

fn to_zone(ctx: &mut Ctx<'_>, player: PlayerId, name: &str, zone: &str) {
    let card = card_id(ctx.state(), player, name);
    ctx.move_card(card, &ZoneId::new(player, zone), usize::MAX)
        .expect("move card");
}

fn zone_names(state: &GameState, player: PlayerId, zone: &str) -> Vec<String> {
    state
        .zone_cards(&ZoneId::new(player, zone))
        .iter()
        .map(|c| state.cards[c].name.clone())
        .collect()
}

/// Sets feature token `n` (1-5) in `hex` with `side` (1 treasure, 2 cover).
fn feature(ctx: &mut Ctx<'_>, n: i64, hex: Hex, side: i64) {
    ctx.set_counter(Scope::Game, &format!("feature{n}_q"), i64::from(hex.q))
        .expect("q");
    ctx.set_counter(Scope::Game, &format!("feature{n}_r"), i64::from(hex.r))
        .expect("r");
    ctx.set_counter(Scope::Game, &format!("feature{n}_side"), side)
        .expect("side");
}

// ---------------------------------------------------------------------------------------
// The battlefield and set-up (digest 4.3, 4.14)
// ---------------------------------------------------------------------------------------

#[test]
fn the_battlefield_is_one_shared_board_with_two_territories_and_neutral_ground() {
    // Embergard, set-up: territories (001 L71-73; digest 4.3): one board, highlighted
    // friendly and enemy territories, the rest neutral.
    let rules = rules();
    let battlefield = rules.battlefield();
    assert_eq!(battlefield.hexes().count(), 68);
    let a = hexes_of(&rules, &["territory_a"]);
    let b = hexes_of(&rules, &["territory_b"]);
    let neutral = hexes_of(&rules, &["neutral"]);
    assert_eq!(
        a.len() + b.len() + neutral.len(),
        68,
        "every hex is in one area"
    );
    assert!(!neutral.is_empty());
    assert_eq!(hexes_of(&rules, &["territory_a", "starting"]).len(), 6);
    assert_eq!(hexes_of(&rules, &["territory_b", "starting"]).len(), 6);
    assert!(hexes_of(&rules, &["neutral", "starting"]).is_empty());
    assert_eq!(hexes_of(&rules, &["stagger_hex"]).len(), 4);
    // Edge hexes come from the shape: the outer ring of the board (2 rows of 8, 7 rows
    // with 2 ends each).
    assert_eq!(battlefield.edge_hexes().len(), 8 + 8 + 7 * 2);
}

/// Plays the set-up with random agents up to the first round's start; also returns the
/// feature tokens' hexes in the order they were placed.
fn play_setup(rules: &RulesetGame, seed: u64) -> (Game<RulesetGame>, Vec<Hex>) {
    let mut game = Game::start(
        rules.clone(),
        rules.setup(seed),
        RulesetGame::first_frames(),
    )
    .expect("start");
    let mut agents = [RandomAgent::new(seed), RandomAgent::new(seed + 50)];
    let mut placed = Vec::new();
    while game.state().counters.get("round").copied().unwrap_or(0) == 0 {
        let request = game.pending()[0].clone();
        let answer = agents[request.player.0 as usize].choose(&game.view(request.player), &request);
        if request.prompt == "Where does the feature token go?" {
            if let Answer::One(Choice::Hex(hex)) = &answer {
                placed.push(*hex);
            }
        }
        game.submit(request.player, answer).expect("legal");
    }
    (game, placed)
}

#[test]
fn set_up_places_five_treasure_tokens_by_the_placement_rules() {
    // Embergard, set-up: feature tokens (001 L75-81; digest 4.3, E13): the first in neutral
    // territory, none on starting, blocked or stagger hexes, none within 2 hexes of another,
    // at least one in each territory; flipped to treasure, numbered 1-5.
    let rules = rules();
    let battlefield = rules.battlefield().clone();
    for seed in 1..=8 {
        let (game, placed) = play_setup(&rules, seed);
        let state = game.state();
        assert_eq!(counter(state, "features_placed"), 5, "seed {seed}");
        let hexes: Vec<Hex> = (1..=5)
            .map(|n| {
                assert_eq!(
                    counter(state, &format!("feature{n}_side")),
                    1,
                    "treasure side up"
                );
                Hex::new(
                    counter(state, &format!("feature{n}_q")) as i32,
                    counter(state, &format!("feature{n}_r")) as i32,
                )
            })
            .collect();
        for (i, h) in hexes.iter().enumerate() {
            for t in ["starting", "blocked", "stagger_hex"] {
                assert!(!battlefield.has_type(*h, t), "seed {seed}: token on {t}");
            }
            for other in &hexes[i + 1..] {
                assert!(h.distance_to(*other) > 2, "seed {seed}: tokens too close");
            }
        }
        for territory in ["territory_a", "territory_b"] {
            assert!(
                hexes.iter().any(|h| battlefield.has_type(*h, territory)),
                "seed {seed}: no token in {territory}"
            );
        }
        // The placements in order: the first is neutral, and an edge hex is taken only
        // when no other hex was legal at that moment.
        assert_eq!(placed.len(), 5);
        assert!(battlefield.has_type(placed[0], "neutral"), "seed {seed}");
        for (k, h) in placed.iter().enumerate() {
            if !battlefield.is_edge(*h) {
                continue;
            }
            let earlier = &placed[..k];
            let lacking: Vec<&str> = ["territory_a", "territory_b"]
                .into_iter()
                .filter(|t| !earlier.iter().any(|e| battlefield.has_type(*e, t)))
                .collect();
            let must_fill = !lacking.is_empty() && lacking.len() >= 5 - k;
            let other = battlefield.hexes().find(|c| {
                !battlefield.is_edge(*c)
                    && ["starting", "blocked", "stagger_hex"]
                        .iter()
                        .all(|t| !battlefield.has_type(*c, t))
                    && earlier.iter().all(|e| e.distance_to(*c) > 2)
                    && (k > 0 || battlefield.has_type(*c, "neutral"))
                    && (!must_fill || lacking.iter().any(|t| battlefield.has_type(*c, t)))
            });
            assert_eq!(
                other, None,
                "seed {seed}: token {k} on an edge hex with {other:?} free"
            );
        }
        // Each player deployed into its own territory's starting hexes.
        for player in [KREW, SEEKERS] {
            let mine = if player_counter(state, player, "side") == 1 {
                "territory_a"
            } else {
                "territory_b"
            };
            for p in state.pieces.values().filter(|p| p.owner == player) {
                let h = p.position.and_then(|p| p.hex()).expect("deployed");
                assert!(battlefield.has_type(h, mine) && battlefield.has_type(h, "starting"));
            }
        }
    }
}

#[test]
fn the_player_who_does_not_take_the_first_turn_draws_a_power_card() {
    // Embergard, battle round start (001 L113-117; digest 4.4, E1).
    let rules = rules();
    let mut game = scenario(
        &rules,
        |_ctx: &mut Ctx<'_>| {},
        vec![frame("first_turn", &[("player", Value::Player(KREW))])],
    );
    answer(&mut game, KREW, option("give the first turn"));
    let state = game.state();
    assert_eq!(counter(state, "first_seat"), 1);
    assert_eq!(zone_names(state, KREW, "power_hand").len(), 1);
    assert_eq!(zone_names(state, SEEKERS, "power_hand").len(), 0);
}

#[test]
fn a_tied_round_roll_off_goes_to_the_underdog_from_round_two() {
    // Embergard, roll-offs (001 L89, L117-119; digest 4.4, E2): in rounds 2 and 3 the
    // player with fewer glory wins a tie. Over many seeds the underdog wins more than half
    // of the roll-offs (ties alone give it the edge), and every tie.
    let rules = rules();
    let mut underdog_wins = 0;
    let mut ties = 0;
    for seed in 1..=40 {
        let game = scenario_seeded(
            &rules,
            seed,
            |ctx: &mut Ctx<'_>| {
                ctx.set_counter(Scope::Game, "round", 1).expect("round");
                ctx.set_counter(Scope::Player(SEEKERS), "glory", 3)
                    .expect("glory");
            },
            vec![frame("round", &[("player", Value::Player(KREW))])],
        );
        let asked = request(&game);
        let rolls: Vec<&Event> = game
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Rolled { .. }))
            .collect();
        if rolls.len() == 2 {
            let faces: Vec<String> = rolls
                .iter()
                .map(|e| match e {
                    Event::Rolled { dice, .. } => dice[0].face.clone(),
                    _ => unreachable!(),
                })
                .collect();
            if faces[0] == faces[1] {
                ties += 1;
                assert_eq!(
                    asked.player, KREW,
                    "seed {seed}: a tie goes to the underdog"
                );
            }
        }
        if asked.player == KREW {
            underdog_wins += 1;
        }
    }
    assert!(ties > 0, "some roll-offs tie");
    assert!(underdog_wins > ties, "{underdog_wins}");
}

// ---------------------------------------------------------------------------------------
// Core abilities (digest 4.5)
// ---------------------------------------------------------------------------------------

#[test]
fn a_charged_fighter_is_locked_until_every_friendly_fighter_has_charged() {
    // Embergard, the charge-token lock (001 L127; digest 4.5, E4).
    let rules = rules();
    let open = open_hexes(&rules);
    let spots: Vec<Hex> = open.iter().step_by(7).copied().take(3).collect();
    let run = |all_charged: bool| {
        let spots = spots.clone();
        scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, CALTHIA, spots[0]);
                place(ctx, LUXA, spots[1]);
                place(ctx, SHANK, spots[2]);
                give(ctx, CALTHIA, "charge", 1);
                if all_charged {
                    give(ctx, LUXA, "charge", 1);
                }
            },
            vec![frame("action_step", &[("player", Value::Player(SEEKERS))])],
        )
    };
    // Luxa has no charge token: only Luxa may move.
    let mut game = run(false);
    answer(&mut game, SEEKERS, option("move"));
    let movers = request(&game);
    assert!(matches!(&movers.options, Options::One { choices } if choices.len() == 1));
    // Every friendly fighter has one: Calthia may move again, and Luxa.
    let mut game = run(true);
    answer(&mut game, SEEKERS, option("move"));
    let movers = request(&game);
    assert!(matches!(&movers.options, Options::One { choices } if choices.len() == 2));
}

#[test]
fn a_fighter_may_move_twice_but_not_charge_after_moving() {
    // Embergard, Move and Charge (001 L129-145; digest 4.5, E3): Move does not check move
    // tokens; Charge needs a fighter with no move or charge token.
    let rules = rules();
    let open = open_hexes(&rules);
    let calthia = open[20];
    let shank = *open
        .iter()
        .find(|h| h.distance_to(calthia) == 3)
        .expect("a hex 3 away");
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, CALTHIA, calthia);
            place(ctx, SHANK, shank);
            give(ctx, CALTHIA, "move", 1);
        },
        vec![frame("action_step", &[("player", Value::Player(SEEKERS))])],
    );
    let offered = options(&request(&game));
    assert!(offered.contains(&"move".to_string()), "{offered:?}");
    assert!(!offered.contains(&"charge".to_string()), "{offered:?}");
    answer(&mut game, SEEKERS, option("move"));
    answer_all(&mut game, &[]);
    assert_eq!(tokens(game.state(), CALTHIA, "move"), 2);
}

#[test]
fn focus_redraws_the_discarded_cards_and_one_more_power_card() {
    // Embergard, Focus (001 L151-153; digest 4.5).
    let rules = rules();
    let mut game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| {
            to_zone(ctx, SEEKERS, "Hold the Line", "objective_hand");
            to_zone(ctx, SEEKERS, "Brace", "power_hand");
        },
        vec![frame("focus", &[("player", Value::Player(SEEKERS))])],
    );
    answer(&mut game, SEEKERS, option("discard a card"));
    let card = card_id(game.state(), SEEKERS, "Hold the Line");
    answer(&mut game, SEEKERS, Choice::Card(card));
    answer(&mut game, SEEKERS, option("draw"));
    let state = game.state();
    assert_eq!(zone_names(state, SEEKERS, "objective_hand").len(), 1);
    assert!(!zone_names(state, SEEKERS, "objective_hand").contains(&"Hold the Line".into()));
    assert_eq!(
        zone_names(state, SEEKERS, "power_hand").len(),
        2,
        "Brace and 1 more"
    );
    assert_eq!(
        zone_names(state, SEEKERS, "objective_discard"),
        ["Hold the Line"]
    );
}

#[test]
fn entering_a_stagger_hex_staggers_a_walker_but_not_a_flyer() {
    // Embergard, stagger hexes and Flying (001 L385, L399; digest 4.14).
    let rules = rules();
    let stagger = hexes_of(&rules, &["stagger_hex", "neutral"])[0];
    let open = open_hexes(&rules);
    let start = *open
        .iter()
        .find(|h| h.distance_to(stagger) == 1)
        .expect("an open hex next to a stagger hex");
    for (kind, expected) in [(LUXA, 1), (TAROS, 0)] {
        let mut game = scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| place(ctx, kind, start),
            vec![frame(
                "move_action",
                &[
                    ("player", Value::Player(SEEKERS)),
                    ("fighter", Value::Piece(piece(&bare_state(), kind))),
                ],
            )],
        );
        answer(&mut game, SEEKERS, Choice::Hex(stagger));
        answer_all(&mut game, &[]);
        assert_eq!(position(game.state(), kind), Some(stagger));
        assert_eq!(tokens(game.state(), kind, "stagger"), expected, "{kind}");
    }
}

/// `kind` on an open hex, hemmed in by a ring of six fighters (five enemies and Luxa), about
/// to take the Seekers' `step` (`move_action` or `charge_action`); and that hex.
fn hemmed_in(rules: &RulesetGame, kind: &'static str, step: &str) -> (Game<Scenario>, Hex) {
    let centre = open_centre(rules, &[]);
    let ring = centre.neighbors();
    let game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, kind, centre);
            for (other, hex) in [MANNOK, TORKA, KROOKGRIN, GIKKIT, SHANK, LUXA]
                .iter()
                .zip(ring)
            {
                place(ctx, other, hex);
            }
        },
        vec![frame(
            step,
            &[
                ("player", Value::Player(SEEKERS)),
                ("fighter", Value::Piece(piece(&bare_state(), kind))),
            ],
        )],
    );
    (game, centre)
}

#[test]
fn a_flyer_moves_through_occupied_hexes_but_a_walker_cannot() {
    // Embergard, Flying (001 L385; digest 4.14): a flying fighter may move through
    // occupied hexes (not blocked ones) and must end in an empty one.
    let rules = rules();
    for (kind, escapes) in [(TAROS, true), (CALTHIA, false)] {
        let (game, centre) = hemmed_in(&rules, kind, "move_action");
        if escapes {
            let hexes = hex_choices(&request(&game));
            assert!(!hexes.is_empty());
            assert!(hexes.iter().all(|h| h.distance_to(centre) >= 2));
        } else {
            assert!(game.pending().is_empty(), "a walker hemmed in cannot move");
            assert_eq!(position(game.state(), kind), Some(centre));
        }
    }
}

#[test]
fn a_flyer_charges_through_occupied_hexes_but_a_walker_cannot() {
    // Embergard, Flying (001 L385; digest 4.14) applies to a Charge's move too (001
    // L139-145): hemmed in by a ring of fighters, a flyer charges past them to a hex next
    // to an enemy of the ring; a walker cannot charge.
    let rules = rules();
    for (kind, charges) in [(TAROS, true), (CALTHIA, false)] {
        let (game, centre) = hemmed_in(&rules, kind, "charge_action");
        if charges {
            let asked = request(&game);
            let hexes = hex_choices(&asked);
            assert!(asked.prompt.contains("charge"), "{}", asked.prompt);
            assert!(!hexes.is_empty(), "{asked:?}");
            assert!(hexes.iter().all(|h| h.distance_to(centre) >= 2));
        } else {
            assert!(
                game.pending().is_empty(),
                "a walker hemmed in cannot charge"
            );
            assert_eq!(position(game.state(), kind), Some(centre));
            assert_eq!(tokens(game.state(), kind, "charge"), 0);
        }
    }
}

/// The state right after the match's set-up (the fighters exist, off the battlefield).
fn bare_state() -> GameState {
    let rules = rules();
    Game::start(rules.clone(), rules.setup(7), vec![])
        .expect("start")
        .state()
        .clone()
}

// ---------------------------------------------------------------------------------------
// Combat (digest 4.8)
// ---------------------------------------------------------------------------------------

/// One attack situation: Gikkit (Krule Irons: hammer, DAMAGE 1, Grievous) attacks Calthia
/// (SAVE 2 shield, HEALTH 5).
#[derive(Clone, Copy, Default)]
struct Situation {
    /// Other Kruleboyz next to Calthia (flanked 1, surrounded 2).
    around_target: usize,
    /// Other Truthseekers next to Gikkit.
    around_attacker: usize,
    guard: bool,
    cover: bool,
    ability: Option<&'static str>,
}

struct Resolved {
    attack: Vec<String>,
    save: Vec<String>,
    outcome: i64,
    damage: i64,
    target_moved: bool,
    attacker_moved: bool,
}

fn resolve(rules: &RulesetGame, situation: Situation, seed: u64, prefer: &[&str]) -> Resolved {
    let centre = open_centre(rules, &[]);
    let attacker_hex = centre.neighbors()[0];
    // Friends of the attacker go next to the target but not next to the attacker (a
    // neighbour of the target two steps round from the attacker), and the other way round.
    let target_ring = centre.neighbors();
    let friend_spots = [target_ring[2], target_ring[4]];
    let attacker_ring = attacker_hex.neighbors();
    let foe_spots: Vec<Hex> = attacker_ring
        .iter()
        .copied()
        .filter(|h| *h != centre && h.distance_to(centre) == 2)
        .collect();
    let mut game = scenario_seeded(
        rules,
        seed,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, GIKKIT, attacker_hex);
            place(ctx, CALTHIA, centre);
            for (kind, hex) in [SHANK, TORKA]
                .iter()
                .zip(friend_spots)
                .take(situation.around_target)
            {
                place(ctx, kind, hex);
            }
            for (kind, hex) in [LUXA, DHORAZ]
                .iter()
                .zip(foe_spots.clone())
                .take(situation.around_attacker)
            {
                place(ctx, kind, hex);
            }
            if situation.guard {
                give(ctx, CALTHIA, "guard", 1);
            }
            if situation.cover {
                feature(ctx, 1, centre, 2);
            }
        },
        vec![frame(
            "attack",
            &[
                ("player", Value::Player(KREW)),
                ("fighter", Value::Piece(piece(&bare_state(), GIKKIT))),
                ("target", Value::Piece(piece(&bare_state(), CALTHIA))),
                (
                    "data",
                    Value::List(vec![
                        Value::Str("Krule Irons".into()),
                        Value::Str(situation.ability.unwrap_or("none").into()),
                    ]),
                ),
            ],
        )],
    );
    answer_all(&mut game, prefer);
    let state = game.state();
    let rolls: Vec<Vec<String>> = game
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { dice, .. } => Some(dice.iter().map(|d| d.face.clone()).collect()),
            _ => None,
        })
        .collect();
    let (attack, save) = (rolls[0].clone(), rolls[1].clone());
    Resolved {
        attack,
        save,
        outcome: counter(state, "attack_outcome"),
        damage: damage(state, CALTHIA),
        target_moved: position(state, CALTHIA) != Some(centre),
        attacker_moved: position(state, GIKKIT) != Some(attacker_hex),
    }
}

fn count(faces: &[String], wanted: &[&str]) -> usize {
    faces
        .iter()
        .filter(|f| wanted.contains(&f.as_str()))
        .count()
}

/// The Embergard outcome (digest 7, EMBERGARD): 2 successful, 1 drawn, 0 failed.
fn expected_outcome(s: Situation, attack: &[String], save: &[String]) -> i64 {
    let mut hits = vec!["hammer", "critical"];
    if s.around_target >= 1 {
        hits.push("single_support");
    }
    if s.around_target >= 2 {
        hits.push("double_support");
    }
    let mut saves = vec!["shield", "critical"];
    if s.guard {
        saves.push("dodge");
    }
    if s.around_attacker >= 1 || s.cover {
        saves.push("single_support");
    }
    if s.around_attacker >= 2 {
        saves.push("double_support");
    }
    if count(attack, &["critical"]) >= 1 {
        match s.ability {
            Some("cleave") => saves.retain(|x| *x != "shield"),
            Some("ensnare") => saves.retain(|x| *x != "dodge"),
            Some("brutal") => saves.retain(|x| *x != "single_support" && *x != "double_support"),
            _ => {}
        }
    }
    let a = count(attack, &hits);
    let d = count(save, &saves);
    match a.cmp(&d) {
        std::cmp::Ordering::Greater => 2,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Less => 0,
    }
}

fn check_outcomes(situation: Situation, seeds: std::ops::RangeInclusive<u64>) -> Vec<Resolved> {
    let rules = rules();
    let mut all = Vec::new();
    for seed in seeds {
        let r = resolve(
            &rules,
            situation,
            seed,
            &["leave it", "stay", "keep the roll"],
        );
        assert_eq!(
            r.outcome,
            expected_outcome(situation, &r.attack, &r.save),
            "seed {seed}: attack {:?} save {:?}",
            r.attack,
            r.save
        );
        all.push(r);
    }
    all
}

#[test]
fn crits_are_ordinary_successes_and_ties_are_drawn() {
    // Embergard, combat step 4: determine success (001 L255-269; digest 4.8): more attack
    // successes win, equal is drawn, crits count as successes with no "most crits" rule.
    let results = check_outcomes(Situation::default(), 1..=60);
    // Some attack rolled more crits than the save yet failed: no outright crit win.
    assert!(
        results.iter().any(|r| {
            count(&r.attack, &["critical"]) > count(&r.save, &["critical"]) && r.outcome != 2
        }) || results.iter().any(|r| {
            count(&r.attack, &["critical"]) < count(&r.save, &["critical"]) && r.outcome == 2
        })
    );
    assert!(
        results.iter().any(|r| r.outcome == 1),
        "some attacks are drawn"
    );
}

#[test]
fn a_flanked_target_lets_single_support_count_and_a_surrounded_one_double_too() {
    // Embergard, combat: flanked and surrounded (001 L285-297; digest 4.8, E11).
    for around in [1, 2] {
        check_outcomes(
            Situation {
                around_target: around,
                ..Situation::default()
            },
            1..=30,
        );
    }
}

#[test]
fn a_flanked_attacker_lets_the_target_count_support_symbols() {
    // Embergard, combat: the same test applies to the attacker for the save roll
    // (001 L285-297; digest 4.8).
    for around in [1, 2] {
        check_outcomes(
            Situation {
                around_attacker: around,
                ..Situation::default()
            },
            1..=30,
        );
    }
}

#[test]
fn a_guarded_target_saves_on_shield_and_dodge_and_is_never_driven_back() {
    // Embergard, combat: guard (001 L147-149, L261; digest 4.8).
    let situation = Situation {
        guard: true,
        ..Situation::default()
    };
    let rules = rules();
    for seed in 1..=30 {
        let r = resolve(&rules, situation, seed, &["drive back", "overrun"]);
        assert_eq!(r.outcome, expected_outcome(situation, &r.attack, &r.save));
        assert!(!r.target_moved, "seed {seed}: a guarded target stays");
    }
}

#[test]
fn a_target_on_a_cover_token_counts_one_more_save_symbol() {
    // Embergard, combat: cover (001 L263, L409; digest 4.8, E7: single support).
    check_outcomes(
        Situation {
            cover: true,
            ..Situation::default()
        },
        1..=30,
    );
}

#[test]
fn cleave_ensnare_and_brutal_cancel_save_symbols_only_with_a_critical() {
    // Embergard, critical weapon abilities (001 L299-323; digest 4.8, E7).
    for ability in ["cleave", "ensnare", "brutal"] {
        check_outcomes(
            Situation {
                ability: Some(ability),
                guard: ability == "ensnare",
                around_attacker: if ability == "brutal" { 2 } else { 0 },
                ..Situation::default()
            },
            1..=30,
        );
    }
}

#[test]
fn damage_is_the_weapons_plus_grievous_on_a_crit_minus_stand_fast_never_below_one() {
    // Embergard, outcome and stand fast (001 L271-283, L369-373; digest 4.8, E9): Krule
    // Irons deals 1; Grievous adds 1 when the roll holds a crit; stand fast (more save crits)
    // takes 1 away, never below 1.
    let rules = rules();
    let situation = Situation {
        ability: Some("grievous"),
        ..Situation::default()
    };
    let mut grievous_seen = false;
    for seed in 1..=60 {
        let r = resolve(&rules, situation, seed, &["leave it", "stay"]);
        let crits = count(&r.attack, &["critical"]);
        let save_crits = count(&r.save, &["critical"]);
        let expected = if r.outcome == 2 {
            let mut amount = 1;
            if crits >= 1 {
                amount += 1;
            }
            if save_crits > crits {
                amount -= 1;
            }
            amount.max(1)
        } else {
            0
        };
        assert_eq!(
            r.damage, expected,
            "seed {seed}: {:?} {:?}",
            r.attack, r.save
        );
        grievous_seen |= r.damage == 2;
    }
    assert!(grievous_seen);
}

#[test]
fn a_drawn_or_successful_attack_drives_back_and_more_crits_overrun() {
    // Embergard, drive back and overrun (001 L355-365; digest 4.8, E8, E17): the target may
    // be driven back 1 hex away unless stand fast; with more crits than the save, the
    // attacker may then take the vacated hex.
    let rules = rules();
    let mut overran = 0;
    let mut stood_fast = 0;
    for seed in 1..=60 {
        let r = resolve(
            &rules,
            Situation::default(),
            seed,
            &["drive back", "overrun"],
        );
        let crits = count(&r.attack, &["critical"]);
        let save_crits = count(&r.save, &["critical"]);
        let may_drive = r.outcome >= 1 && save_crits <= crits;
        assert_eq!(
            r.target_moved, may_drive,
            "seed {seed}: {:?} {:?}",
            r.attack, r.save
        );
        assert_eq!(
            r.attacker_moved,
            may_drive && crits > save_crits,
            "seed {seed}"
        );
        if r.attacker_moved {
            overran += 1;
        }
        if r.outcome >= 1 && save_crits > crits {
            stood_fast += 1;
        }
    }
    assert!(overran > 0 && stood_fast > 0, "{overran} {stood_fast}");
}

#[test]
fn a_staggered_target_lets_the_attacker_re_roll_one_die() {
    // Embergard, attack roll (001 L245-249; digest 4.8 step 2).
    let rules = rules();
    let centre = open_centre(&rules, &[]);
    let mut game = scenario_seeded(
        &rules,
        3,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, GIKKIT, centre.neighbors()[0]);
            place(ctx, CALTHIA, centre);
            give(ctx, CALTHIA, "stagger", 1);
        },
        vec![frame(
            "attack",
            &[
                ("player", Value::Player(KREW)),
                ("fighter", Value::Piece(piece(&bare_state(), GIKKIT))),
                ("target", Value::Piece(piece(&bare_state(), CALTHIA))),
                (
                    "data",
                    Value::List(vec![
                        Value::Str("Krule Irons".into()),
                        Value::Str("none".into()),
                    ]),
                ),
            ],
        )],
    );
    let asked = request(&game);
    assert_eq!(
        asked.prompt,
        "The target is staggered: re-roll one attack die?"
    );
    let offered = options(&asked);
    assert_eq!(offered[0], "keep the roll");
    answer(&mut game, KREW, option(&offered[1]));
    let rolls = game
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Rolled { .. }))
        .count();
    assert_eq!(rolls, 3, "attack roll, the re-rolled die, save roll");
}

#[test]
fn grapple_pushes_the_target_one_hex_in_any_direction_instead_of_away() {
    // Embergard, Grapple (001 L321; digest 4.8): with a crit, instead of driving back, the
    // target may be pushed 1 hex in any direction, even towards the attacker's side.
    let rules = rules();
    let mut grappled = 0;
    for seed in 1..=60 {
        let centre = open_centre(&rules, &[]);
        let attacker_hex = centre.neighbors()[0];
        let mut game = scenario_seeded(
            &rules,
            seed,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, KROOKGRIN, attacker_hex);
                place(ctx, CALTHIA, centre);
            },
            vec![frame(
                "attack",
                &[
                    ("player", Value::Player(KREW)),
                    ("fighter", Value::Piece(piece(&bare_state(), KROOKGRIN))),
                    ("target", Value::Piece(piece(&bare_state(), CALTHIA))),
                    (
                        "data",
                        Value::List(vec![
                            Value::Str("Krule Dagger".into()),
                            Value::Str("grapple".into()),
                        ]),
                    ),
                ],
            )],
        );
        let Some(asked) = game.pending().first().map(|r| (*r).clone()) else {
            continue;
        };
        let offered = options(&asked);
        if !offered.contains(&"grapple".to_string()) {
            continue;
        }
        answer(&mut game, KREW, option("grapple"));
        // Any empty neighbour, including ones no farther from the attacker.
        let asked = request(&game);
        let closer_or_level = match &asked.options {
            Options::One { choices } => choices
                .iter()
                .filter(|c| matches!(c, Choice::Hex(h) if h.distance_to(attacker_hex) <= 1))
                .count(),
            _ => 0,
        };
        assert!(closer_or_level > 0, "seed {seed}");
        grappled += 1;
    }
    assert!(grappled > 0);
}

// ---------------------------------------------------------------------------------------
// Damage, slain, bounty, raise (digest 4.9); inspire (4.10)
// ---------------------------------------------------------------------------------------

#[test]
fn a_slain_fighter_loses_its_tokens_and_upgrades_is_uninspired_and_pays_its_bounty() {
    // Embergard, slain and bounty (001 L325-337; digest 4.9).
    let rules = rules();
    let open = open_hexes(&rules);
    let (a, b) = (open[10], open[40]);
    let game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, CALTHIA, a);
            place(ctx, SHANK, b);
            give(ctx, CALTHIA, "guard", 1);
            give(ctx, CALTHIA, "stagger", 2);
            let calthia = piece(ctx.state(), CALTHIA);
            ctx.set_keyword(calthia, "inspired", true).expect("inspire");
            ctx.set_counter(Scope::Piece(calthia), "damage", 5)
                .expect("damage");
            let helm = card_id(ctx.state(), SEEKERS, "Heavy Armour");
            ctx.move_card(helm, &ZoneId::on_piece(SEEKERS, "equipped", calthia), 0)
                .or_else(|_| {
                    ctx.create_zone(
                        ZoneId::on_piece(SEEKERS, "equipped", calthia),
                        gloam::core::Visibility::Public,
                    )?;
                    ctx.move_card(helm, &ZoneId::on_piece(SEEKERS, "equipped", calthia), 0)
                })
                .expect("equip");
        },
        vec![frame("slay", &[("player", Value::Player(KREW))])],
    );
    let state = game.state();
    assert_eq!(position(state, CALTHIA), None);
    for t in ["guard", "stagger"] {
        assert_eq!(tokens(state, CALTHIA, t), 0, "{t}");
    }
    assert!(!inspired(state, CALTHIA));
    assert!(zone_names(state, SEEKERS, "power_discard").contains(&"Heavy Armour".into()));
    assert_eq!(glory(state, KREW), 2, "Calthia's BOUNTY");
}

#[test]
fn a_raised_fighter_is_worth_no_bounty() {
    // Embergard, raise (001 L347-351; digest 4.9): a raised fighter has BOUNTY 0.
    let rules = rules();
    let open = open_hexes(&rules);
    let (a, b) = (open[10], open[40]);
    let game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, CALTHIA, a);
            place(ctx, SHANK, b);
            give(ctx, CALTHIA, "raise", 1);
            let calthia = piece(ctx.state(), CALTHIA);
            ctx.set_counter(Scope::Piece(calthia), "damage", 5)
                .expect("damage");
        },
        vec![frame("slay", &[("player", Value::Player(KREW))])],
    );
    assert_eq!(position(game.state(), CALTHIA), None);
    assert_eq!(glory(game.state(), KREW), 0);
}

#[test]
fn return_from_the_brink_raises_a_slain_fighter_with_a_raise_token() {
    // Embergard, raise (001 L347-351; digest 4.9), through our card.
    let rules = rules();
    let mut game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| {
            ctx.set_counter(Scope::Player(SEEKERS), "side", 2)
                .expect("side");
            to_zone(ctx, SEEKERS, "Return from the Brink", "power_hand");
        },
        vec![frame(
            "power_step",
            &[("player", Value::Player(SEEKERS)), ("count", Value::Int(0))],
        )],
    );
    answer(&mut game, SEEKERS, option("play a card"));
    let card = card_id(game.state(), SEEKERS, "Return from the Brink");
    answer(&mut game, SEEKERS, Choice::Card(card));
    let calthia = piece(game.state(), CALTHIA);
    answer(&mut game, SEEKERS, Choice::Piece(calthia));
    let asked = request(&game);
    let hexes: Vec<Hex> = match &asked.options {
        Options::One { choices } => choices
            .iter()
            .filter_map(|c| match c {
                Choice::Hex(h) => Some(*h),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    assert_eq!(hexes, hexes_of(&rules, &["territory_b", "starting"]));
    answer(&mut game, SEEKERS, Choice::Hex(hexes[0]));
    assert_eq!(position(game.state(), CALTHIA), Some(hexes[0]));
    assert_eq!(tokens(game.state(), CALTHIA, "raise"), 1);
}

#[test]
fn inspire_and_uninspire_conditions_apply_at_once() {
    // Embergard, inspire and uninspire (001 L103-105; digest 4.10): no Inspire step; the
    // settle point after each ability flips the card. Truthseekers: inspired while a
    // friendly fighter other than Taros is slain; uninspired with 2+ stagger tokens.
    let rules = rules();
    let open = open_hexes(&rules);
    let (a, b, c) = (open[5], open[30], open[50]);
    let game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, CALTHIA, a);
            place(ctx, LUXA, b);
            place(ctx, SHANK, c);
            give(ctx, LUXA, "stagger", 2);
        },
        vec![frame("settle", &[("player", Value::Player(SEEKERS))])],
    );
    // Dhoraz is not on the battlefield (slain): Calthia is inspired at once; Luxa is
    // inspired then uninspired by her stagger tokens in the same settle point, and Taros
    // (not deployed) is neither.
    let state = game.state();
    assert!(inspired(state, CALTHIA));
    assert!(!inspired(state, LUXA));
    let flips = game
        .events()
        .iter()
        .filter(|e| matches!(e, Event::KeywordChanged { keyword, piece: p, .. } if keyword == "inspired" && *p == piece(state, LUXA)))
        .count();
    assert_eq!(flips, 2, "Luxa was inspired, then uninspired");
}

// ---------------------------------------------------------------------------------------
// Power step, delve, upgrades (digest 4.7)
// ---------------------------------------------------------------------------------------

#[test]
fn delving_flips_the_token_and_staggers_the_fighter_once_per_power_step() {
    // Embergard, delve (001 L182-186; digest 4.7).
    let rules = rules();
    let open = open_hexes(&rules);
    let (a, b) = (open[12], open[44]);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, CALTHIA, a);
            place(ctx, SHANK, b);
            feature(ctx, 3, a, 1);
        },
        vec![frame(
            "power_step",
            &[("player", Value::Player(SEEKERS)), ("count", Value::Int(0))],
        )],
    );
    assert_eq!(options(&request(&game)), ["delve", "pass"]);
    answer(&mut game, SEEKERS, option("delve"));
    let calthia = piece(game.state(), CALTHIA);
    answer(&mut game, SEEKERS, Choice::Piece(calthia));
    assert_eq!(
        counter(game.state(), "feature3_side"),
        2,
        "treasure became cover"
    );
    assert_eq!(tokens(game.state(), CALTHIA, "stagger"), 1);
    // The Krew has nothing to do; back to the Truthseekers: no second delve.
    assert!(
        game.pending().is_empty(),
        "with nothing left to do, both pass without being asked"
    );
}

#[test]
fn a_warscroll_ability_is_used_in_the_power_step_once_per_step() {
    // Embergard, power step: warscroll abilities (001 L164; digest 4.7). Our choice: one
    // per player per power step. Lantern Astrala heals 1.
    let rules = rules();
    let open = open_hexes(&rules);
    let (a, b) = (open[12], open[44]);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, CALTHIA, a);
            place(ctx, SHANK, b);
            let calthia = piece(ctx.state(), CALTHIA);
            ctx.set_counter(Scope::Piece(calthia), "damage", 2)
                .expect("damage");
        },
        vec![frame(
            "power_step",
            &[("player", Value::Player(SEEKERS)), ("count", Value::Int(0))],
        )],
    );
    assert_eq!(
        options(&request(&game)),
        ["use a warscroll ability", "pass"]
    );
    answer_all(&mut game, &["use a warscroll ability"]);
    assert_eq!(damage(game.state(), CALTHIA), 1, "healed once, not twice");
}

#[test]
fn upgrades_are_capped_by_current_glory_and_spend_nothing() {
    // Embergard, upgrades (001 L178-180; digest 4.7, E5).
    let rules = rules();
    let open = open_hexes(&rules);
    let (a, b) = (open[12], open[44]);
    let run = |glory_now: i64| {
        scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, CALTHIA, a);
                place(ctx, SHANK, b);
                ctx.set_counter(Scope::Player(SEEKERS), "glory", glory_now)
                    .expect("glory");
                to_zone(ctx, SEEKERS, "Keen Edge", "power_hand");
                to_zone(ctx, SEEKERS, "Swift Boots", "power_hand");
            },
            vec![frame(
                "power_step",
                &[("player", Value::Player(SEEKERS)), ("count", Value::Int(0))],
            )],
        )
    };
    // No glory: nothing can be equipped.
    assert!(run(0).pending().is_empty());
    // 2 glory: Keen Edge (2) fits alone; after it nothing else fits.
    let mut game = run(2);
    answer(&mut game, SEEKERS, option("equip an upgrade"));
    let asked = request(&game);
    assert!(matches!(&asked.options, Options::One { choices } if choices.len() == 2));
    let edge = card_id(game.state(), SEEKERS, "Keen Edge");
    answer(&mut game, SEEKERS, Choice::Card(edge));
    let calthia = piece(game.state(), CALTHIA);
    answer(&mut game, SEEKERS, Choice::Piece(calthia));
    assert_eq!(glory(game.state(), SEEKERS), 2, "nothing is spent");
    assert!(
        game.pending().is_empty(),
        "Swift Boots (1) no longer fits under 2 glory"
    );
    assert_eq!(
        game.state().characteristic(calthia, "attack_damage"),
        Some(1),
        "Keen Edge works while equipped"
    );
}

// ---------------------------------------------------------------------------------------
// Surges (digest 4.11)
// ---------------------------------------------------------------------------------------

#[test]
fn a_surge_objective_is_scored_at_once_and_a_replacement_surge_waits_for_the_next_turn() {
    // Embergard, surge objectives (001 L216-218; digest 4.11).
    let rules = rules();
    let open = open_hexes(&rules);
    let (a, b) = (open[12], open[44]);
    let game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, CALTHIA, a);
            place(ctx, SHANK, b);
            feature(ctx, 2, a, 1);
            to_zone(ctx, SEEKERS, "Claim the Hoard", "objective_hand");
            // The replacement drawn will be another surge that holds now, on top of the deck.
            let other = card_id(ctx.state(), SEEKERS, "Bold Advance");
            ctx.move_card(other, &ZoneId::new(SEEKERS, "objective_deck"), 0)
                .expect("top");
            let third = card_id(ctx.state(), SEEKERS, "Hold the Line");
            ctx.move_card(third, &ZoneId::new(SEEKERS, "objective_hand"), 0)
                .expect("hand");
        },
        vec![frame("settle", &[("player", Value::Player(SEEKERS))])],
    );
    let state = game.state();
    assert_eq!(zone_names(state, SEEKERS, "scored"), ["Claim the Hoard"]);
    assert_eq!(glory(state, SEEKERS), 1);
    assert_eq!(
        zone_names(state, SEEKERS, "objective_hand"),
        ["Hold the Line", "Bold Advance"]
    );
    assert_eq!(player_counter(state, SEEKERS, "fresh_surges"), 1);
}

#[test]
fn a_surge_play_can_answer_the_event_it_names() {
    // Embergard, surge plays (001 L176, L429-431; digest 4.11, E6): after an attack on a
    // friendly fighter, Slip Aside may be played.
    let rules = rules();
    let open = open_hexes(&rules);
    let (a, b) = (open[12], open[44]);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, CALTHIA, a);
            place(ctx, SHANK, b);
            to_zone(ctx, SEEKERS, "Slip Aside", "power_hand");
        },
        vec![frame(
            "window",
            &[
                ("player", Value::Player(KREW)),
                ("data", Value::Str("after_attack".into())),
                ("target", Value::Piece(piece(&bare_state(), CALTHIA))),
                ("fighter", Value::Piece(piece(&bare_state(), SHANK))),
            ],
        )],
    );
    let asked = request(&game);
    assert_eq!(asked.player, SEEKERS);
    assert_eq!(options(&asked), ["make a surge play", "pass"]);
    answer_all(&mut game, &["make a surge play"]);
    assert_ne!(position(game.state(), CALTHIA), Some(a));
    assert_eq!(
        zone_names(game.state(), SEEKERS, "power_discard"),
        ["Slip Aside"]
    );
}

#[test]
fn a_surge_play_can_come_immediately_before_an_attack() {
    // Embergard, surge plays "immediately before or after the event they name" (001 L176;
    // digest 4.11): Brace gives the target a guard token before anything is rolled.
    let rules = rules();
    let centre = open_centre(&rules, &[]);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, GIKKIT, centre.neighbors()[0]);
            place(ctx, CALTHIA, centre);
            to_zone(ctx, SEEKERS, "Brace", "power_hand");
        },
        vec![frame(
            "attack_action",
            &[
                ("player", Value::Player(KREW)),
                ("fighter", Value::Piece(piece(&bare_state(), GIKKIT))),
            ],
        )],
    );
    let calthia = piece(game.state(), CALTHIA);
    answer(&mut game, KREW, Choice::Piece(calthia));
    let asked = request(&game);
    assert_eq!(asked.player, SEEKERS);
    assert_eq!(options(&asked), ["make a surge play", "pass"]);
    assert!(
        !game
            .events()
            .iter()
            .any(|e| matches!(e, Event::Rolled { .. })),
        "nothing is rolled yet"
    );
    answer_all(&mut game, &["make a surge play", "leave it", "stay"]);
    let guard_at = game
        .events()
        .iter()
        .position(|e| matches!(e, Event::TokensChanged { token, .. } if token == "guard"))
        .expect("Calthia gains a guard token");
    let first_roll = game
        .events()
        .iter()
        .position(|e| matches!(e, Event::Rolled { .. }))
        .expect("the attack is rolled");
    assert!(guard_at < first_roll);
    assert_eq!(
        position(game.state(), CALTHIA),
        Some(centre),
        "guarded: not driven back"
    );
}

// ---------------------------------------------------------------------------------------
// End phase and victory (digest 4.12, 4.13)
// ---------------------------------------------------------------------------------------

#[test]
fn the_final_end_phase_scores_and_equips_then_ends_the_game() {
    // Embergard, final end phase (001 L220-222; digest 4.12, E16).
    let rules = rules();
    let open = open_hexes(&rules);
    let (a, b) = (open[12], open[44]);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, CALTHIA, a);
            place(ctx, SHANK, b);
            ctx.set_counter(Scope::Game, "round", 3).expect("round");
            ctx.set_counter(Scope::Game, "first_seat", 1)
                .expect("first");
            ctx.set_counter(Scope::Player(SEEKERS), "glory", 1)
                .expect("glory");
            to_zone(ctx, SEEKERS, "Take Cover", "objective_hand");
            feature(ctx, 4, a, 2);
            to_zone(ctx, SEEKERS, "Swift Boots", "power_hand");
        },
        vec![frame("end_phase", &[("player", Value::Player(SEEKERS))])],
    );
    // Take Cover scored (Calthia stands on a cover token): 2 glory now.
    assert_eq!(glory(game.state(), SEEKERS), 2);
    assert_eq!(options(&request(&game)), ["equip an upgrade", "done"]);
    answer_all(&mut game, &["equip an upgrade"]);
    assert!(game.is_over());
    let calthia = piece(game.state(), CALTHIA);
    assert_eq!(
        game.state()
            .zone_cards(&ZoneId::on_piece(SEEKERS, "equipped", calthia))
            .len(),
        1
    );
    let result = game.state().result.clone().expect("a result");
    assert_eq!(result.winners, [SEEKERS]);
    assert_eq!(result.reason, "major victory: most glory");
}

#[test]
fn the_end_phase_clears_move_charge_guard_and_stagger_tokens() {
    // Embergard, end phase (001 L212; digest 4.12).
    let rules = rules();
    let open = open_hexes(&rules);
    let (a, b) = (open[12], open[44]);
    let game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, CALTHIA, a);
            place(ctx, SHANK, b);
            ctx.set_counter(Scope::Game, "round", 1).expect("round");
            for t in ["move", "charge", "guard", "stagger", "raise"] {
                give(ctx, CALTHIA, t, 1);
            }
        },
        vec![frame("end_draw", &[("player", Value::Player(KREW))])],
    );
    let state = game.state();
    for t in ["move", "charge", "guard", "stagger"] {
        assert_eq!(tokens(state, CALTHIA, t), 0, "{t}");
    }
    assert_eq!(tokens(state, CALTHIA, "raise"), 1, "raise tokens stay");
    assert_eq!(zone_names(state, KREW, "objective_hand").len(), 3);
    assert_eq!(zone_names(state, KREW, "power_hand").len(), 5);
}

fn victory(arrange: impl Fn(&mut Ctx<'_>) + 'static) -> gloam::core::GameResult {
    let rules = rules();
    let game = scenario(&rules, arrange, vec![frame("victory", &[])]);
    game.state().result.clone().expect("a result")
}

#[test]
fn ties_on_glory_are_broken_by_survivors_then_treasure_then_bounty() {
    // Embergard, victory (001 L224-231; digest 4.13, E14).
    let rules = rules();
    let open = open_hexes(&rules);
    let (a, b, c, d) = (open[12], open[44], open[30], open[55]);
    // Most glory: a major victory.
    let result = victory(move |ctx| {
        place(ctx, SHANK, b);
        ctx.set_counter(Scope::Player(SEEKERS), "glory", 2).unwrap();
    });
    assert_eq!(result.winners, [SEEKERS]);
    assert_eq!(result.reason, "major victory: most glory");
    // Tied; only the Krew has fighters left.
    let result = victory(move |ctx| place(ctx, SHANK, b));
    assert_eq!(result.winners, [KREW]);
    assert_eq!(
        result.reason,
        "minor victory: the only one with fighters left"
    );
    // Both stand; Calthia holds treasure 4, Shank treasure 2.
    let result = victory(move |ctx| {
        place(ctx, SHANK, b);
        place(ctx, CALTHIA, a);
        feature(ctx, 4, a, 1);
        feature(ctx, 2, b, 1);
    });
    assert_eq!(result.winners, [SEEKERS]);
    assert_eq!(result.reason, "minor victory: most treasure held");
    // No treasure held; Calthia's BOUNTY 2 beats Shank's 1.
    let result = victory(move |ctx| {
        place(ctx, SHANK, b);
        place(ctx, CALTHIA, a);
    });
    assert_eq!(result.winners, [SEEKERS]);
    assert_eq!(result.reason, "minor victory: most bounty left standing");
    // Equal bounty (Shank 1 + Gikkit 1 against Luxa 1 + Taros 1): a draw.
    let result = victory(move |ctx| {
        place(ctx, SHANK, b);
        place(ctx, GIKKIT, c);
        place(ctx, LUXA, a);
        place(ctx, TAROS, d);
    });
    assert_eq!(result.winners, [KREW, SEEKERS]);
    assert_eq!(result.reason, "draw");
}

// ---------------------------------------------------------------------------------------
// Nemesis deck building (digest 4.16)
// ---------------------------------------------------------------------------------------

/// The problem codes of loading the shipped data plus `extra`.
fn deck_problems(extra: &str) -> Vec<String> {
    let host = gloam_dsl::Host::new();
    let mut sources = Vec::new();
    for dir in data() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("data folder")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            sources.push(gloam::load::Source::new(file.display().to_string(), text));
        }
    }
    sources.push(gloam::load::Source::new("extra.gloam", extra));
    let (_, problems) = gloam::load::load(&sources, &host);
    problems
        .iter()
        .map(|p| {
            miette::Diagnostic::code(p)
                .map(|c| c.to_string())
                .unwrap_or_default()
        })
        .collect()
}

/// A decklist for the Truthseekers from the shipped one, with `objectives` and `power`.
fn decklist(objectives: &[&str], power: &[&str]) -> String {
    let list = |names: &[&str]| {
        names
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "decklist \"Test Deck\" {{\n ruleset = \"embergard\"\n warband = \"Xandire's Truthseekers (Embergard)\"\n deck \"objective\" {{ cards = [{}] }}\n deck \"power\" {{ cards = [{}] }}\n}}\n",
        list(objectives),
        list(power)
    )
}

const OBJECTIVES: [&str; 12] = [
    "Hold the Line",
    "Carve the Path",
    "Treasure Seekers",
    "Unbroken",
    "Bloodied Foes",
    "Take Cover",
    "First Blood",
    "Strike True",
    "Hold Fast",
    "Claim the Hoard",
    "Shaken Loose",
    "Bold Advance",
];

const POWER: [&str; 20] = [
    "Slip Aside",
    "Hidden Blade",
    "Counterstrike",
    "Dig In",
    "Second Wind",
    "Return from the Brink",
    "Quick Step",
    "War Cry",
    "Brace",
    "Trip Up",
    "Keen Edge",
    "Heavy Armour",
    "Swift Boots",
    "Tough Hide",
    "Battle Fury",
    "Ward of Embers",
    "Trophy Belt",
    "Long Reach",
    "Grim Resolve",
    "Fleet Stride",
];

/// Test-only cards: a seventh surge objective and an eleventh play.
const EXTRA_CARDS: &str = r#"
card "Test Surge" {
    ruleset = "embergard"
    kind = objective
    owner = universal
    glory = 1
    score = surge
    text = "Test fixture."
}
card "Test Play" {
    ruleset = "embergard"
    kind = play
    owner = universal
    window = power_step
    text = "Test fixture."
}
"#;

#[test]
fn nemesis_decks_follow_the_deck_building_rules() {
    // Embergard, Nemesis deck building (001 L477-485; digest 4.16): at least 12
    // objectives, at most 6 of them surge; at least 20 power cards, at most half plays;
    // unique names. The shipped decklists are legal.
    assert!(deck_problems("").is_empty(), "{:?}", deck_problems(""));
    assert!(deck_problems(&decklist(&OBJECTIVES, &POWER)).is_empty());
    // 11 objectives.
    let problems = deck_problems(&decklist(&OBJECTIVES[1..], &POWER));
    assert_eq!(problems, ["gloam::grammar::deck_too_small"]);
    // A seventh surge objective.
    let mut objectives = OBJECTIVES.to_vec();
    objectives.push("Test Surge");
    let problems = deck_problems(&format!("{EXTRA_CARDS}{}", decklist(&objectives, &POWER)));
    assert_eq!(problems, ["gloam::grammar::deck_limit"]);
    // An eleventh play in 21 power cards (at most 10).
    let mut power = POWER.to_vec();
    power.push("Test Play");
    let problems = deck_problems(&format!("{EXTRA_CARDS}{}", decklist(&OBJECTIVES, &power)));
    assert_eq!(problems, ["gloam::grammar::deck_half"]);
    // A name twice.
    let mut power = POWER.to_vec();
    power.push("Keen Edge");
    let problems = deck_problems(&decklist(&OBJECTIVES, &power));
    assert_eq!(problems, ["gloam::grammar::deck_duplicate"]);
}

// ---------------------------------------------------------------------------------------
// Whole games
// ---------------------------------------------------------------------------------------

#[test]
fn two_hundred_seeded_games_end_without_error_and_keep_the_invariants() {
    // Embergard end to end: every state of 200 random games keeps the invariants
    // (src/sim.rs check_invariants: no two fighters in a hex, damage never above HEALTH,
    // glory never negative, every card in one zone).
    let report = simulate(&data(), "embergard", 200, 1, 2, &|_| {}).expect("simulate");
    assert!(report.errors.is_empty(), "{:?}", report.errors.first());
    assert_eq!(report.games, 200);
    assert!(report.average_decisions > 50.0);
}

#[test]
fn results_are_identical_whatever_the_job_count() {
    let one = simulate(&data(), "embergard", 6, 40, 1, &|_| {}).expect("one job");
    let three = simulate(&data(), "embergard", 6, 40, 3, &|_| {}).expect("three jobs");
    assert_eq!(one.wins, three.wins);
    assert_eq!(one.draws, three.draws);
    assert_eq!(
        format!("{:?}", one.average_glory),
        format!("{:?}", three.average_glory)
    );
    assert_eq!(
        format!("{:?}", one.average_events),
        format!("{:?}", three.average_events)
    );
}

#[test]
fn whole_games_last_three_rounds_of_eight_turns() {
    // Embergard, rounds and turns (001 L109-121; digest 4.4): 3 battle rounds, 4 turns each.
    let rules = rules();
    let summary = play_one(&rules, 3);
    assert_eq!(summary.error, None);
    let mut game =
        Game::start(rules.clone(), rules.setup(3), RulesetGame::first_frames()).expect("start");
    let mut agents = [RandomAgent::new(3), RandomAgent::new(4)];
    while !game.is_over() {
        let request = game.pending()[0].clone();
        let answer = agents[request.player.0 as usize].choose(&game.view(request.player), &request);
        game.submit(request.player, answer).expect("legal");
    }
    let turns = game
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Marker { name, .. } if name == "turn_start"))
        .count();
    assert_eq!(turns, 24);
    assert_eq!(counter(game.state(), "round"), 3);
}

/// Embergard, Charge (001 L139-145): a Charge resolves a move ability, then an attack
/// ability, so the `after_move` window opens after its move, before the attack: Hidden
/// Blade and Bold Advance can answer a Charge. (Only the Move action opened it before.)
#[test]
fn a_charge_opens_after_move_before_its_attack() {
    let rules = rules();
    let open = open_hexes(&rules);
    let calthia = open[20];
    let shank = *open
        .iter()
        .find(|h| h.distance_to(calthia) == 3)
        .expect("a hex 3 away");
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, CALTHIA, calthia);
            place(ctx, SHANK, shank);
        },
        vec![frame(
            "charge_action",
            &[
                ("player", Value::Player(SEEKERS)),
                ("fighter", Value::Piece(piece(&bare_state(), CALTHIA))),
            ],
        )],
    );
    answer_all(&mut game, &[]);
    let markers: Vec<String> = game
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Marker { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect();
    let moved = markers.iter().position(|m| m == "after_move");
    let rolled = markers.iter().position(|m| m == "attack_rolled");
    assert!(
        moved.is_some() && rolled.is_some() && moved < rolled,
        "{markers:?}"
    );
    assert_eq!(tokens(game.state(), CALTHIA, "charge"), 1);
}

/// Embergard, stand fast (001 L367-373): the target *can* use it when its save roll holds
/// more crits; its player chooses. Declined, the attack deals its full Damage and the
/// target may be driven back. (It was applied without asking.)
#[test]
fn stand_fast_is_the_targets_choice() {
    let rules = rules();
    let mut offered = 0;
    for seed in 1..=80 {
        let r = resolve(
            &rules,
            Situation::default(),
            seed,
            &["do not stand fast", "drive back"],
        );
        let crits = count(&r.attack, &["critical"]);
        let save_crits = count(&r.save, &["critical"]);
        if r.outcome >= 1 && save_crits > crits {
            offered += 1;
            // Krule Irons: Damage 1, no Grievous here; driven back though the save had
            // more crits.
            assert_eq!(r.damage, if r.outcome == 2 { 1 } else { 0 }, "seed {seed}");
            assert!(
                r.target_moved,
                "seed {seed}: not standing fast, driven back"
            );
        }
    }
    assert!(offered > 0, "no seed offered stand fast");
    // The request goes to the target's player.
    let mut asked_of = Vec::new();
    for seed in 1..=80 {
        let centre = open_centre(&rules, &[]);
        let mut game = scenario_seeded(
            &rules,
            seed,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, GIKKIT, centre.neighbors()[0]);
                place(ctx, CALTHIA, centre);
            },
            vec![frame(
                "attack",
                &[
                    ("player", Value::Player(KREW)),
                    ("fighter", Value::Piece(piece(&bare_state(), GIKKIT))),
                    ("target", Value::Piece(piece(&bare_state(), CALTHIA))),
                    (
                        "data",
                        Value::List(vec![
                            Value::Str("Krule Irons".into()),
                            Value::Str("none".into()),
                        ]),
                    ),
                ],
            )],
        );
        for _ in 0..20 {
            let Some(asked) = game.pending().first().map(|r| (*r).clone()) else {
                break;
            };
            if asked.prompt.starts_with("Stand fast") {
                asked_of.push(asked.player);
            }
            let first = match &asked.options {
                Options::One { choices } => choices[0].clone(),
                other => panic!("not a single choice: {other:?}"),
            };
            answer(&mut game, asked.player, first);
        }
    }
    assert!(!asked_of.is_empty());
    assert!(asked_of.iter().all(|p| *p == SEEKERS), "{asked_of:?}");
}
