//! Umbra Turris's terrain (seed 003, digest A7, A21): the Terrain Cards and the pieces they
//! set, the extra pieces and their shift, the Loot tokens and the Loot test, climbing,
//! jumping, jumping down and falling, cover against shots and the spotting malus. Each
//! scenario arranges heroes and terrain pieces on the table through the kernel's `Ctx`, loads
//! the dice, runs one step of the flow and answers its requests; each cites the seed lines
//! it checks. Lengths are tenths of a millimetre (1 cm = 100).

use gloam::core::{
    Choice, Ctx, Event, Frame, Game, GameState, PlayerId, Point, Position, Request, Scope, Value,
    ZoneId,
};
use gloam::engine::RulesetGame;
use gloam::sim::check_invariants;

mod scenario;
use scenario::face_as_it_stands;
use scenario::{
    Scenario, answer, frame, has_said, option, options, pending, piece, piece_counter as counter,
    said, scenario, shipped, tokens,
};

const ANN: PlayerId = PlayerId(0);
const BO: PlayerId = PlayerId(1);
const CM: i64 = 100;

fn rules() -> RulesetGame {
    shipped("umbra_turris")
}

/// Stands the piece `kind` (a hero or a terrain feature) at (`x`, `y`) cm.
fn stand(ctx: &mut Ctx<'_>, kind: &str, x: i64, y: i64) {
    let id = piece(ctx.state(), kind);
    ctx.place_piece(
        id,
        Some(Position::Table {
            at: Point::new(x, y),
            facing: (0, 1),
        }),
        vec![],
        "deploy",
    )
    .expect("placed");
}

fn hero(state: &GameState, kind: &str) -> Value {
    Value::Piece(piece(state, kind))
}

fn at(state: &GameState, kind: &str) -> Option<Point> {
    state.pieces[&piece(state, kind)]
        .position
        .and_then(|p| p.point())
}

fn damage(state: &GameState, kind: &str) -> i64 {
    state.pieces[&piece(state, kind)]
        .counters
        .get("damage")
        .copied()
        .unwrap_or(0)
}

/// The terrain features on the table and where their origins stand, in piece order.
/// The terrain pieces on the table and where they stand, by name.
fn terrain(state: &GameState) -> Vec<(String, Point)> {
    let mut placed: Vec<(String, Point)> = state
        .pieces
        .values()
        .filter(|p| p.layer == "terrain")
        .filter_map(|p| Some((p.kind.clone(), p.position?.point()?)))
        .collect();
    placed.sort_by(|a, b| a.0.cmp(&b.0));
    placed
}

fn names_in(state: &GameState, player: PlayerId, zone: &str) -> Vec<String> {
    state
        .zone_cards(&ZoneId::new(player, zone))
        .iter()
        .map(|card| state.cards[card].name.clone())
        .collect()
}

fn request(game: &Game<Scenario>) -> Request {
    pending(game).expect("a request")
}

/// A table point written as the flow's labels write it: "x.y, x.y cm" (to the millimetre).
fn parse_label(label: &str) -> Point {
    let cm = |text: &str| -> i64 {
        let (whole, tenth) = text.trim().split_once('.').expect("a decimal");
        whole.parse::<i64>().expect("cm") * CM + tenth.parse::<i64>().expect("mm") * 10
    };
    let text = label.trim_end_matches(" cm");
    let (x, y) = text.split_once(',').expect("two numbers");
    Point::new(cm(x), cm(y))
}

/// The cards a request offers.
fn cards_offered(request: &Request) -> Vec<gloam::core::CardId> {
    match &request.options {
        gloam::core::Options::One { choices } => choices
            .iter()
            .filter_map(|c| match c {
                Choice::Card(card) => Some(*card),
                _ => None,
            })
            .collect(),
        other => panic!("not a single choice: {other:?}"),
    }
}

fn distance(a: Point, b: Point) -> f64 {
    (((a.x - b.x) as f64).powi(2) + ((a.y - b.y) as f64).powi(2)).sqrt()
}

/// One step `step` for Ann's `fighter` (and `target`, when given), after `arrange`.
fn run(
    step: &str,
    fighter: &'static str,
    target: Option<&'static str>,
    dice: &'static [&'static str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let rules = rules();
    let probe = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let owner = probe.state().pieces[&piece(probe.state(), fighter)].owner;
    let mut vars = vec![
        ("player", Value::Player(owner)),
        ("fighter", hero(probe.state(), fighter)),
    ];
    if let Some(target) = target {
        vars.push(("target", hero(probe.state(), target)));
    }
    scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            arrange(ctx);
            ctx.fix_dice("d6", dice);
        },
        vec![frame(step, &vars)],
    )
}

// ---- The Terrain Cards (003 L1991-1997) -------------------------------------------------

/// A piece and where its centre stands, in cm.
type Placed = (&'static str, i64, i64);

/// Each card's pieces and where their centres stand, as the card's effect sets them.
const CARDS: &[(&str, &[Placed])] = &[
    (
        "Overgrown Cemetery",
        &[
            ("Crypt", 35, 35),
            ("Gravestones", 15, 24),
            ("Dead Tree", 55, 46),
        ],
    ),
    (
        "Market Day",
        &[
            ("Stall West", 14, 40),
            ("Stall East", 56, 30),
            ("Well", 35, 35),
            ("Cart", 40, 50),
        ],
    ),
    (
        "Old Watchtower",
        &[("Watchtower", 35, 35), ("Rubble Heap", 35, 22)],
    ),
    (
        "Forest Clearing",
        &[
            ("Grove West", 12, 42),
            ("Grove East", 60, 36),
            ("Grove North", 40, 48),
            ("Fallen Log", 22, 22),
            ("Pond", 43, 23),
        ],
    ),
    (
        "Temple Steps",
        &[
            ("Broken Stair", 35, 30),
            ("Altar", 35, 42),
            ("Statue", 56, 46),
        ],
    ),
    (
        "Bandit Camp",
        &[
            ("Tent North", 18, 46),
            ("Tent South", 52, 24),
            ("Palisade", 35, 35),
            ("Campfire", 35, 46),
        ],
    ),
    (
        "Wayside Shrine",
        &[
            ("Altar", 35, 36),
            ("Statue", 35, 46),
            ("Grove East", 56, 30),
            ("Well", 16, 28),
        ],
    ),
    (
        "Ferry Landing",
        &[
            ("Pond", 24, 34),
            ("Fallen Log", 40, 26),
            ("Cart", 46, 44),
            ("Stall East", 16, 48),
        ],
    ),
    (
        "Barricaded Street",
        &[
            ("Palisade", 35, 30),
            ("Rubble Heap", 20, 44),
            ("Tent South", 52, 44),
            ("Campfire", 40, 40),
        ],
    ),
    (
        "Gallows Hill",
        &[
            ("Dead Tree", 35, 46),
            ("Crypt", 20, 28),
            ("Gravestones", 50, 28),
            ("Campfire", 35, 34),
        ],
    ),
];

fn pieces_of(card: &str) -> Vec<(String, Point)> {
    CARDS
        .iter()
        .find(|(name, _)| *name == card)
        .expect("one of our cards")
        .1
        .iter()
        .map(|(name, x, y)| ((*name).to_owned(), Point::new(x * CM, y * CM)))
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_iter()
        .collect()
}

#[test]
fn the_roll_off_winner_draws_two_terrain_cards_keeps_one_and_its_pieces_are_placed() {
    // 003 L1993: both roll a d6, the highest draws two Terrain Cards and keeps one, the other
    // goes back to the deck; L1997: the card sets the terrain. Ann rolls 5, Bo 2.
    let rules = rules();
    let mut game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| ctx.fix_dice("d6", &["5", "2"]),
        vec![Frame::new("start")],
    );
    assert!(has_said(&game, "wins the roll-off for the Terrain Cards"));
    let asked = request(&game);
    assert_eq!(asked.player, ANN);
    // The two cards drawn are offered (the draw stands once the choice is made).
    let drawn = cards_offered(&asked);
    assert_eq!(drawn.len(), 2);
    assert!(
        terrain(game.state()).is_empty(),
        "nothing stands before the choice"
    );
    let kept = drawn[1];
    let kept_name = game.state().cards[&kept].name.clone();
    answer(&mut game, ANN, Choice::Card(kept));
    let state = game.state();
    assert_eq!(
        names_in(state, ANN, "terrain_in_play"),
        std::slice::from_ref(&kept_name)
    );
    // Ten cards (two of each alignment, 003 L2116): two drawn, one returned.
    assert_eq!(names_in(state, ANN, "terrain_deck").len(), 9);
    assert!(names_in(state, ANN, "terrain_drawn").is_empty());
    // The kept card's pieces, each where the card puts it.
    assert_eq!(terrain(state), pieces_of(&kept_name));
    // Then the extra pieces, the winner first (ours).
    let next = request(&game);
    assert_eq!(next.player, ANN);
    assert_eq!(options(&next)[0], "no extra piece");
    check_invariants(game.state()).expect("invariants");
}

#[test]
fn a_tied_terrain_roll_off_is_rolled_again() {
    // 003 L1993 says nothing of ties: rolled again (ours). 3-3, then Ann 2 and Bo 6.
    let rules = rules();
    let game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| ctx.fix_dice("d6", &["3", "3", "2", "6"]),
        vec![Frame::new("start")],
    );
    let asked = request(&game);
    assert_eq!(asked.player, BO);
    assert_eq!(cards_offered(&asked).len(), 2);
}

#[test]
fn every_terrain_card_sets_its_pieces_between_the_deployment_strips() {
    // 003 L1997, L2038, L2104: each card names its pieces (1-6, about 20 cm) and where they
    // stand; ours, none in a deployment strip (y under 10 cm or over 60 cm).
    let rules = rules();
    for (card, expected) in CARDS {
        let game = scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| {
                ctx.create_card(card, ANN, &ZoneId::new(ANN, "terrain_in_play"))
                    .expect("card");
            },
            vec![],
        );
        let card_id = game
            .state()
            .zone_cards(&ZoneId::new(ANN, "terrain_in_play"))[0];
        let played = scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| {
                ctx.create_card(card, ANN, &ZoneId::new(ANN, "terrain_in_play"))
                    .expect("card");
            },
            vec![
                Frame::new("card")
                    .with("card", Value::Card(card_id))
                    .with("player", Value::Player(ANN)),
            ],
        );
        let placed = terrain(played.state());
        assert_eq!(placed, pieces_of(card), "{card}");
        assert!((1..=6).contains(&expected.len()), "{card}");
        for (_, p) in &placed {
            assert!(p.y > 15 * CM && p.y < 55 * CM, "{card}: {p:?}");
        }
    }
}

// ---- The extra piece and its shift (003 L2040) --------------------------------------------

#[test]
fn an_extra_piece_goes_outside_the_strips_and_the_opponent_moves_it_at_most_20_cm() {
    // 003 L2040: each player may add one piece, not in the deployment zones; the opponent
    // may move it up to 20 cm in any direction.
    let rules = rules();
    let mut game = scenario(
        &rules,
        |_| {},
        vec![frame("extra_terrain", &[("player", Value::Player(ANN))])],
    );
    let asked = request(&game);
    assert_eq!(options(&asked)[0], "no extra piece");
    assert!(options(&asked).contains(&"Watchtower".to_owned()));
    answer(&mut game, ANN, option("Watchtower"));
    // Where: the tower is 12 cm square, so its centre stays more than 16 cm from each edge
    // the strips lie along.
    let place = request(&game);
    let points: Vec<Point> = match &place.options {
        gloam::core::Options::One { choices } => choices
            .iter()
            .filter_map(|c| match c {
                Choice::Point(p) => Some(*p),
                _ => None,
            })
            .collect(),
        other => panic!("{other:?}"),
    };
    assert!(!points.is_empty());
    assert!(
        points.iter().all(|p| p.y > 16 * CM && p.y < 54 * CM),
        "{points:?}"
    );
    let chosen = Point::new(35 * CM, 35 * CM);
    assert!(
        points
            .iter()
            .any(|p| distance(*p, chosen) > 20.0 * CM as f64),
        "places beyond 20 cm exist for the owner"
    );
    answer(&mut game, ANN, Choice::Point(chosen));
    // Bo may leave it or move it, never more than 20 cm.
    let shift = request(&game);
    assert_eq!(shift.player, BO);
    let offered = options(&shift);
    assert_eq!(offered[0], "leave it");
    let spots: Vec<Point> = offered[1..].iter().map(|l| parse_label(l)).collect();
    assert!(!spots.is_empty());
    assert!(
        spots
            .iter()
            .all(|p| distance(*p, chosen) <= 20.0 * CM as f64 + 10.0)
    );
    assert!(spots.iter().all(|p| p.y > 16 * CM && p.y < 54 * CM));
    let far = offered[1..]
        .iter()
        .max_by(|a, b| {
            distance(parse_label(a), chosen).total_cmp(&distance(parse_label(b), chosen))
        })
        .expect("a spot")
        .clone();
    assert!(
        distance(parse_label(&far), chosen) > 15.0 * CM as f64,
        "{far}"
    );
    answer(&mut game, BO, option(&far));
    let stands = at(game.state(), "Watchtower").expect("on the table");
    assert_eq!(stands, parse_label(&far));
    assert!(has_said(&game, "moves the Watchtower"));
}

// ---- Loot tokens (003 L1999, L2046, L2052) ------------------------------------------------

#[test]
fn a_loot_token_is_set_on_each_piece_never_closer_than_3_cm_to_another() {
    // 003 L1999, L2046: the drawer sets a Loot token on each piece, anywhere on it; L2052: no
    // token closer than 3 cm to another. Two pieces side by side: the second token is
    // offered no place within 3 cm of the first (5.5 cm between the centres of two 2.5 cm
    // bases).
    let rules = rules();
    let mut game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| {
            stand(ctx, "Stall West", 14 * CM, 40 * CM);
            stand(ctx, "Cart", 14 * CM, 47 * CM);
        },
        vec![frame(
            "loot_tokens",
            &[("player", Value::Player(ANN)), ("count", Value::Int(0))],
        )],
    );
    let first = request(&game);
    assert_eq!(first.player, ANN);
    let stall: Vec<Point> = options(&first).iter().map(|l| parse_label(l)).collect();
    // Every place is on the stall (16 by 8 cm around (14, 40)).
    assert!(
        stall
            .iter()
            .all(|p| (p.x - 14 * CM).abs() <= 8 * CM && (p.y - 40 * CM).abs() <= 4 * CM)
    );
    // Ann puts it as near the cart as she can.
    let near_cart = options(&first)
        .into_iter()
        .max_by_key(|l| parse_label(l).y)
        .expect("a place");
    answer(&mut game, ANN, option(&near_cart));
    let token = parse_label(&near_cart);
    let second = request(&game);
    let cart: Vec<Point> = options(&second).iter().map(|l| parse_label(l)).collect();
    assert!(!cart.is_empty());
    assert!(
        cart.iter().all(|p| (p.y - 47 * CM).abs() <= 3 * CM),
        "on the cart"
    );
    assert!(
        cart.iter().all(|p| distance(*p, token) >= 5.5 * CM as f64),
        "3 cm between the tokens' bases"
    );
    let closest = options(&second)
        .into_iter()
        .min_by(|a, b| distance(parse_label(a), token).total_cmp(&distance(parse_label(b), token)))
        .expect("a place");
    answer(&mut game, ANN, option(&closest));
    assert!(pending(&game).is_none());
    let state = game.state();
    let one = at(state, "Loot 1").expect("token 1");
    let two = at(state, "Loot 2").expect("token 2");
    assert_eq!(one, token);
    assert!(distance(one, two) >= 5.5 * CM as f64);
    assert!(at(state, "Loot 3").is_none(), "one token a piece");
    assert!(has_said(&game, "sets 2 Loot tokens"));
}

// ---- The Loot test (003 L2046, L2056-2080) ------------------------------------------------

/// A Loot test by `who`, standing on the token "Loot 1" at the table's centre.
fn loot(
    who: &'static str,
    dice: &'static [&'static str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    run("loot", who, None, dice, move |ctx: &mut Ctx<'_>| {
        stand(ctx, who, 35 * CM, 35 * CM);
        stand(ctx, "Loot 1", 35 * CM, 35 * CM);
        arrange(ctx);
    })
}

fn loot_taken(game: &Game<Scenario>) -> i64 {
    game.state()
        .counters
        .get("loot_taken")
        .copied()
        .unwrap_or(0)
}

#[test]
fn loot_1_costs_a_wound_whatever_the_armour_and_the_token_leaves_play() {
    // 003 L2056-2058: 1, the hero loses 1 W regardless of armour; L2046: the token is
    // removed. Sir Aldwin wears a shield and a heavy helmet.
    let game = loot("Sir Aldwin", &["1"], |_| {});
    assert_eq!(damage(game.state(), "Sir Aldwin"), 1);
    assert_eq!(loot_taken(&game), 1 << 1);
    assert!(has_said(&game, "searches the loot and rolls 1"));
    // A second test finds no token.
    let again = loot("Sir Aldwin", &["3"], |ctx: &mut Ctx<'_>| {
        ctx.set_counter(Scope::Game, "loot_taken", 1 << 1)
            .expect("taken");
    });
    assert!(!has_said(&again, "searches the loot"));
}

#[test]
fn loot_2_gives_the_action_dice_back() {
    // 003 L2060-2062.
    let game = loot("Hedda", &["2"], |_| {});
    assert_eq!(tokens(game.state(), "Hedda", "action_die"), 1);
}

#[test]
fn loot_3_heals_two_wounds() {
    // 003 L2064.
    let game = loot("Hedda", &["3"], |ctx: &mut Ctx<'_>| {
        let id = piece(ctx.state(), "Hedda");
        ctx.set_counter(Scope::Piece(id), "damage", 3)
            .expect("hurt");
    });
    assert_eq!(damage(game.state(), "Hedda"), 1);
}

#[test]
fn loot_4_rolls_2d6_on_the_additional_equipment_list() {
    // 003 L2066-2068: 2d6 on the Additional Equipment table (L1915-1981, its numbers); 3 + 4
    // is 7, the Talisman of Destiny.
    let game = loot("Hedda", &["4", "3", "4"], |_| {});
    assert!(has_said(&game, "finds Talisman of Destiny (7)"));
    assert_eq!(counter(game.state(), "Hedda", "loot_gear"), 1 << 7);
    // 12, the arrowheads: the player picks the kind.
    let mut twelve = loot("Hedda", &["4", "6", "6"], |_| {});
    let asked = request(&twelve);
    assert_eq!(options(&asked).len(), 3);
    answer(&mut twelve, ANN, option("Hunting arrowheads"));
    assert!(has_said(&twelve, "finds Hunting arrowheads (12)"));
    // 2, the Lantern: +1 to Spot tests afterwards (L1923).
    let lantern = loot("Hedda", &["4", "1", "1"], |_| {});
    assert_eq!(counter(lantern.state(), "Hedda", "loot_gear"), 1 << 2);
}

/// Moves the Item cards the seat was dealt at seating out of `deck` (to its discard), so
/// that a scenario stacks the deck itself.
fn set_aside_the_deck(ctx: &mut Ctx<'_>, deck: &ZoneId) {
    let discard = ZoneId::new(deck.owner, "item_discard");
    for card in ctx.state().zone_cards(deck).to_vec() {
        ctx.move_card(card, &discard, 0).expect("moved");
    }
}

#[test]
fn loot_5_draws_an_item_card_and_a_permanent_item_leaves_the_game() {
    // 003 L2070-2074: an Item Card from the top of the deck; a Permanent Item is removed from
    // the game and another drawn. Whetstone (permanent) lies on Rusted Key.
    let game = loot("Hedda", &["5"], |ctx: &mut Ctx<'_>| {
        let deck = ZoneId::new(ANN, "item_deck");
        set_aside_the_deck(ctx, &deck);
        // Created in order from the top.
        ctx.create_card("Whetstone", ANN, &deck).expect("card");
        ctx.create_card("Rusted Key", ANN, &deck).expect("card");
    });
    let state = game.state();
    assert_eq!(names_in(state, ANN, "items"), ["Rusted Key"]);
    assert_eq!(names_in(state, ANN, "removed"), ["Whetstone"]);
    assert!(names_in(state, ANN, "item_deck").is_empty());
}

#[test]
fn loot_6_draws_two_item_cards_keeps_one_and_shuffles_the_other_back() {
    // 003 L2076-2080: two Item Cards, one kept, the other shuffled back; a Permanent Item
    // drawn is removed and replaced.
    let mut game = loot("Hedda", &["6"], |ctx: &mut Ctx<'_>| {
        let deck = ZoneId::new(ANN, "item_deck");
        set_aside_the_deck(ctx, &deck);
        // Created in order from the top.
        ctx.create_card("Whetstone", ANN, &deck).expect("card");
        ctx.create_card("Lucky Coin", ANN, &deck).expect("card");
        ctx.create_card("Caltrops", ANN, &deck).expect("card");
    });
    let asked = request(&game);
    assert_eq!(asked.player, ANN);
    let offered = cards_offered(&asked);
    assert_eq!(offered.len(), 2);
    let caltrops = *offered
        .iter()
        .find(|c| game.state().cards[*c].name == "Caltrops")
        .expect("drawn");
    answer(&mut game, ANN, Choice::Card(caltrops));
    let state = game.state();
    assert_eq!(names_in(state, ANN, "items"), ["Caltrops"]);
    assert_eq!(names_in(state, ANN, "item_deck"), ["Lucky Coin"]);
    assert_eq!(names_in(state, ANN, "removed"), ["Whetstone"]);
}

#[test]
fn the_loot_test_is_a_minor_action_offered_to_a_hero_touching_a_token() {
    // 003 L2046: a hero in contact with a Loot token may take the test as his Minor Action.
    let game = run("activation", "Hedda", None, &[], |ctx: &mut Ctx<'_>| {
        stand(ctx, "Hedda", 35 * CM, 35 * CM);
        stand(ctx, "Grizzle", 35 * CM, 65 * CM);
        // The token's base touches Hedda's (1.25 + 1.25 cm apart, centre to centre).
        stand(ctx, "Loot 1", 35 * CM + 250, 35 * CM);
    });
    assert!(options(&request(&game)).contains(&"loot".to_owned()));
    let away = run("activation", "Hedda", None, &[], |ctx: &mut Ctx<'_>| {
        stand(ctx, "Hedda", 35 * CM, 35 * CM);
        stand(ctx, "Grizzle", 35 * CM, 65 * CM);
        stand(ctx, "Loot 1", 35 * CM + 300, 35 * CM);
    });
    assert!(!options(&request(&away)).contains(&"loot".to_owned()));
}

// ---- Movement through terrain (003 L310-338) ----------------------------------------------

#[test]
fn a_hero_climbs_the_tower_from_the_rubble_but_not_from_the_ground() {
    // 003 L316-318: a piece taller than the hero is climbed, up to its Sp in cm, and that is
    // its Basic Action. Hedda (Human, Sp 7, 3 cm tall: ours) stands on the 3 cm rubble heaped
    // against the 10 cm tower: 7 cm to climb.
    let arrange = |hedda_y: i64| {
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, "Watchtower", 35 * CM, 35 * CM);
            stand(ctx, "Rubble Heap", 35 * CM, 22 * CM);
            stand(ctx, "Hedda", 35 * CM, hedda_y);
            stand(ctx, "Grizzle", 10 * CM, 65 * CM);
        }
    };
    // From the rubble: its base touches the tower's south side (y 29 cm).
    let offered = run("activation", "Hedda", None, &[], arrange(29 * CM - 125));
    assert!(options(&request(&offered)).contains(&"climb".to_owned()));
    let game = run("climb", "Hedda", None, &[], arrange(29 * CM - 125));
    assert!(has_said(&game, "climbs onto the Watchtower (10 cm)"));
    let p = at(game.state(), "Hedda").expect("on the table");
    assert!(p.y > 29 * CM && p.y < 41 * CM, "on the tower: {p:?}");
    // From the ground on the north side, 10 cm is more than Sp 7.
    let ground = run("activation", "Hedda", None, &[], arrange(41 * CM + 125));
    assert!(!options(&request(&ground)).contains(&"climb".to_owned()));
}

/// Hedda on the west stall (4 cm, taller than her 3 cm) moves 8 cm east onto the east
/// stall, 4 cm away: a jump (003 L326).
fn jump(dice: &'static [&'static str]) -> Game<Scenario> {
    let mut game = run("move", "Hedda", None, dice, |ctx: &mut Ctx<'_>| {
        stand(ctx, "Stall West", 20 * CM, 40 * CM);
        stand(ctx, "Stall East", 40 * CM, 40 * CM);
        stand(ctx, "Hedda", 27 * CM, 40 * CM);
        stand(ctx, "Grizzle", 10 * CM, 65 * CM);
    });
    answer(&mut game, ANN, Choice::Point(Point::new(8 * CM, 0)));
    face_as_it_stands(&mut game);
    game
}

#[test]
fn a_jump_between_pieces_succeeds_on_3_or_more() {
    // 003 L326-328: jumping from one piece to another within Sp cm; d6 3+.
    let game = jump(&["3"]);
    assert!(has_said(&game, "jumps onto the Stall East (3)"));
    assert_eq!(
        at(game.state(), "Hedda"),
        Some(Point::new(35 * CM, 40 * CM))
    );
    assert_eq!(damage(game.state(), "Hedda"), 0);
}

#[test]
fn a_failed_jump_falls_beside_the_piece_and_costs_d6_wounds() {
    // 003 L328-332: a failed jump falls to the lower level next to the piece jumped for and
    // loses d6 W (a fall under 10 cm), armour no help. 2 fails; the fall costs 4.
    let game = jump(&["2", "4"]);
    assert!(has_said(&game, "fails the jump (2) and falls 4 cm"));
    assert_eq!(damage(game.state(), "Hedda"), 4);
    let p = at(game.state(), "Hedda").expect("on the table");
    // On the ground: not on either stall (y 36 to 44 cm, x 12-28 and 32-48).
    let on_stall = (p.y - 40 * CM).abs() < 4 * CM
        && ((p.x - 20 * CM).abs() < 8 * CM || (p.x - 40 * CM).abs() < 8 * CM);
    assert!(!on_stall, "{p:?}");
    assert!(distance(p, Point::new(35 * CM, 40 * CM)) < 13.0 * CM as f64);
}

#[test]
fn a_hero_that_falls_on_an_enemy_hurts_it_and_lands_1_cm_from_it() {
    // 003 L332: "If a model contacted another model's base when falling, that model also
    // loses d6 wounds. The model which fell should be placed 1 cm away from the contacted
    // model if it was an enemy." Morwick stands on the ground where Hedda comes down beside
    // the east stall (the point of the ring the flow picks, x 30-31 cm, y 44-45 cm). He loses
    // 3 W, not enough to fell him (a Black Knight falling would strike back, L1188).
    let mut game = run(
        "move",
        "Hedda",
        None,
        &["2", "4", "3"],
        |ctx: &mut Ctx<'_>| {
            stand(ctx, "Stall West", 20 * CM, 40 * CM);
            stand(ctx, "Stall East", 40 * CM, 40 * CM);
            stand(ctx, "Hedda", 27 * CM, 40 * CM);
            stand(ctx, "Morwick the Grey", 3050, 4450);
        },
    );
    answer(&mut game, ANN, Choice::Point(Point::new(8 * CM, 0)));
    face_as_it_stands(&mut game);
    assert!(has_said(&game, "fails the jump (2) and falls 4 cm"));
    assert!(has_said(
        &game,
        "is struck by the falling Hedda and loses 3 W"
    ));
    assert_eq!(damage(game.state(), "Hedda"), 4);
    assert_eq!(damage(game.state(), "Morwick the Grey"), 3);
    let hedda = at(game.state(), "Hedda").expect("on the table");
    let morwick = at(game.state(), "Morwick the Grey").expect("on the table");
    // 25 mm bases: centres 2.5 cm + 1 cm apart.
    let apart = distance(hedda, morwick);
    assert!(
        (apart - 3.5 * CM as f64).abs() < 0.05 * CM as f64,
        "{hedda:?} {morwick:?}"
    );
}

#[test]
fn a_jump_down_from_10_cm_is_a_fall_and_from_6_cm_needs_a_4() {
    // 003 L336-338: above 5 cm, a d6 4+ or 1 W lost and the Turn over; from 10 cm or more,
    // a fall (d6 W under 10 cm; ours: exactly 10 cm counts as under).
    let down = |piece: &'static str, dice: &'static [&'static str]| {
        let mut game = run("move", "Hedda", None, dice, move |ctx: &mut Ctx<'_>| {
            stand(ctx, piece, 35 * CM, 35 * CM);
            stand(ctx, "Hedda", 35 * CM, 35 * CM);
            stand(ctx, "Grizzle", 10 * CM, 65 * CM);
        });
        answer(&mut game, ANN, Choice::Point(Point::new(0, 12 * CM)));
        face_as_it_stands(&mut game);
        game
    };
    let fall = down("Watchtower", &["5"]);
    assert!(has_said(&fall, "jumps down 10 cm: a fall"));
    assert_eq!(damage(fall.state(), "Hedda"), 5);
    let bad = down("Broken Stair", &["3"]);
    assert!(has_said(&bad, "lands badly jumping down 6 cm (3)"));
    assert_eq!(damage(bad.state(), "Hedda"), 1);
    assert_eq!(counter(bad.state(), "Hedda", "turn_over"), 1);
    let good = down("Broken Stair", &["4"]);
    assert!(has_said(&good, "jumps down 6 cm safely (4)"));
    assert_eq!(damage(good.state(), "Hedda"), 0);
    // 3 cm off the rubble: a normal move, no roll.
    let low = down("Rubble Heap", &[]);
    assert_eq!(damage(low.state(), "Hedda"), 0);
    assert!(!has_said(&low, "jumps down"));
}

#[test]
fn a_piece_taller_than_the_hero_blocks_a_move_and_a_lower_one_does_not() {
    // 003 L310, L316: obstacles up to the hero's own height are walked over; a taller one
    // must be climbed. Walls are never crossed (L322). Hedda walks 20 cm north across the
    // 2 cm gravestones but not across the 4 cm cart.
    let across = |piece: &'static str| {
        let mut game = run("move", "Hedda", None, &[], move |ctx: &mut Ctx<'_>| {
            stand(ctx, piece, 35 * CM, 30 * CM);
            stand(ctx, "Hedda", 35 * CM, 20 * CM);
            stand(ctx, "Grizzle", 10 * CM, 65 * CM);
        });
        let asked = request(&game);
        game.submit(
            ANN,
            gloam::core::Answer::One(Choice::Point(Point::new(0, 15 * CM))),
        )
        .is_ok()
            && pending(&game).is_none_or(|r| r != asked)
    };
    assert!(across("Gravestones"));
    assert!(!across("Cart"));
    assert!(!across("Crypt"));
}

// ---- Shooting and spotting in terrain (003 L368, L570-574) --------------------------------

/// The total of Tobble's wound roll at Ugluk (2d6 3 + 3, BS 7) with `terrain` arranged.
fn shot_total(arrange: impl Fn(&mut Ctx<'_>) + 'static) -> i64 {
    let rules = rules();
    let probe = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let vars = [
        ("player", Value::Player(ANN)),
        ("fighter", hero(probe.state(), "Tobble")),
        ("target", hero(probe.state(), "Ugluk")),
        ("weapon", Value::Str("Bow".into())),
        ("count", Value::Int(0)),
        ("data", Value::Str("aimed".into())),
    ];
    let game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, "Tobble", 35 * CM, 15 * CM);
            arrange(ctx);
            ctx.fix_dice("d6", &["3", "3", "3", "3"]);
        },
        vec![frame("shot_wound", &vars)],
    );
    // `weapon` and the aiming bonus are the shot's.
    let line = said(&game)
        .into_iter()
        .find(|l| l.contains(" against "))
        .expect("the wound roll was said");
    let open = line.find('(').expect("a total") + 1;
    line[open..]
        .split_whitespace()
        .next()
        .expect("a number")
        .parse()
        .expect("an int")
}

#[test]
fn cover_gives_the_shooter_minus_1_behind_a_piece_and_minus_2_wholly_in_it() {
    // 003 L570: touching terrain that lies between shooter and target, -1 BS; L572: the
    // whole base standing in terrain, -2 BS.
    let open = shot_total(|ctx: &mut Ctx<'_>| stand(ctx, "Ugluk", 35 * CM, 50 * CM));
    let behind = shot_total(|ctx: &mut Ctx<'_>| {
        // The gravestones (y 29-43 cm) between; Ugluk's base touches their north side.
        stand(ctx, "Gravestones", 35 * CM, 36 * CM);
        stand(ctx, "Ugluk", 35 * CM, 43 * CM + 125);
    });
    let beside = shot_total(|ctx: &mut Ctx<'_>| {
        // Touching their south side: the piece is not between them.
        stand(ctx, "Gravestones", 35 * CM, 58 * CM);
        stand(ctx, "Ugluk", 35 * CM, 51 * CM - 125);
    });
    let inside = shot_total(|ctx: &mut Ctx<'_>| {
        stand(ctx, "Gravestones", 35 * CM, 50 * CM);
        stand(ctx, "Ugluk", 35 * CM, 50 * CM);
    });
    assert_eq!(behind, open - 1);
    assert_eq!(beside, open);
    assert_eq!(inside, open - 2);
}

#[test]
fn a_hero_hidden_in_terrain_is_spotted_at_minus_1() {
    // 003 L360-368: a Spot test is 4+; -1 when the hidden hero touches or stands in a piece
    // that obscures it. A 4 finds Grizzle in the open, not behind the gravestones.
    let spot = |arrange: fn(&mut Ctx<'_>)| {
        let mut game = run("spot", "Hedda", None, &["4"], move |ctx: &mut Ctx<'_>| {
            stand(ctx, "Hedda", 35 * CM, 15 * CM);
            let grizzle = piece(ctx.state(), "Grizzle");
            ctx.set_tokens(Scope::Piece(grizzle), "hidden", 1)
                .expect("hidden");
            arrange(ctx);
        });
        if let Some(asked) = pending(&game) {
            let grizzle = piece(game.state(), "Grizzle");
            assert_eq!(asked.player, ANN);
            answer(&mut game, ANN, Choice::Piece(grizzle));
        }
        tokens(game.state(), "Grizzle", "hidden")
    };
    assert_eq!(spot(|ctx| stand(ctx, "Grizzle", 35 * CM, 40 * CM)), 0);
    assert_eq!(
        spot(|ctx| {
            stand(ctx, "Gravestones", 35 * CM, 32 * CM);
            stand(ctx, "Grizzle", 35 * CM, 39 * CM + 125);
        }),
        1
    );
}

#[test]
fn a_loot_token_is_never_offered_the_very_point_where_its_piece_stands() {
    // A feature set up in play stands at its origin: two cannot share one point (the kernel
    // refuses it), so the token on the crypt, centred at (35, 35) cm, is offered the lattice
    // points around the centre but not the centre itself.
    let rules = rules();
    let game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| stand(ctx, "Crypt", 35 * CM, 35 * CM),
        vec![frame(
            "loot_tokens",
            &[("player", Value::Player(ANN)), ("count", Value::Int(0))],
        )],
    );
    let offered = options(&request(&game));
    assert!(offered.contains(&"37.5, 35.0 cm".to_owned()), "{offered:?}");
    assert!(!offered.contains(&"35.0, 35.0 cm".to_owned()));
}

// ---- Random games (003 L1991-2052) ---------------------------------------------------------

#[test]
fn random_games_are_played_on_terrain_with_loot_to_search() {
    // Every game sets up a Terrain Card's pieces and a Loot token on each piece before
    // deployment (003 L1997-1999), and random heroes meet the terrain rules in play.
    let rules = rules();
    let mut seen: Vec<String> = Vec::new();
    for seed in 1..=4 {
        let mut game = Game::start(
            rules.clone(),
            rules.setup(seed),
            RulesetGame::first_frames(),
        )
        .expect("started");
        let mut agents: Vec<gloam::agent::RandomAgent> = (0..2)
            .map(|s| gloam::agent::RandomAgent::new(seed * 31 + s))
            .collect();
        let mut decisions = 0;
        while !game.is_over() && decisions < gloam::sim::MAX_DECISIONS {
            let request = game.pending().first().map(|r| (*r).clone()).expect("asked");
            let seat = request.player.0 as usize;
            let answer = gloam::agent::Agent::choose(
                &mut agents[seat],
                &game.view(request.player),
                &request,
            );
            game.submit(request.player, answer).expect("legal");
            decisions += 1;
        }
        assert!(game.is_over(), "seed {seed}");
        let placed = terrain(game.state());
        let pieces = placed
            .iter()
            .filter(|(n, _)| !n.starts_with("Loot"))
            .count();
        let loot = placed.len() - pieces;
        assert!(pieces >= 2, "seed {seed}: {placed:?}");
        assert_eq!(loot, pieces, "seed {seed}: a token a piece");
        for event in game.events() {
            if let Event::Marker { name, data, .. } = event {
                if name == "say" {
                    if let Some(text) = data
                        .iter()
                        .find(|(k, _)| k == "text")
                        .and_then(|(_, v)| v.as_str())
                    {
                        seen.push(text.to_owned());
                    }
                }
            }
        }
    }
    let count = |what: &str| seen.iter().filter(|l| l.contains(what)).count();
    assert_eq!(count("chooses the location"), 4);
    // Seeds 1 to 4 search a Loot token once, climb 12 times and jump 3 times; only that
    // the rules are reached is held here (other rules change what random heroes do).
    assert!(count("searches the loot") + count("climbs onto") + count("jumps") > 0);
}
