//! Umbra Turris's movement rules left over from the terrain (seed 003, digest A7, A8): a hero
//! entering the water in the middle of its Move, the 2 cm level rule outside the charge,
//! disengaging from several enemies, and ladders and ropes fixed to a piece. Each scenario
//! arranges heroes and terrain on the table through the kernel's `Ctx`, loads the dice, runs
//! one step of the flow and answers its requests; each cites the seed lines it checks and is
//! played with and without the rule's condition. Lengths are tenths of a millimetre (1 cm =
//! 100); the shipped heroes are Humans with 25 mm bases (Hedda: M 15 cm, Sp 7, 3 cm tall).

use gloam::core::{Ctx, Game, GameState, PlayerId, Point, Position, Value};
use gloam::engine::RulesetGame;

mod scenario;
use scenario::{
    Scenario, answer, frame, has_said, option, pending, piece, said, scenario, shipped,
};
use scenario::{asked, at, face_as_it_stands, send_point};

const ANN: PlayerId = PlayerId(0);
const CM: i64 = 100;

fn rules() -> RulesetGame {
    shipped("umbra_turris")
}

/// Stands the piece `kind` (a hero or a terrain feature) at (`x`, `y`), facing north.
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

fn damage(state: &GameState, kind: &str) -> i64 {
    state.pieces[&piece(state, kind)]
        .counters
        .get("damage")
        .copied()
        .unwrap_or(0)
}

fn distance(a: Point, b: Point) -> f64 {
    (((a.x - b.x) as f64).powi(2) + ((a.y - b.y) as f64).powi(2)).sqrt()
}

/// One step `step` for `fighter` (its owner acting) and `target`, when given, after
/// `arrange`, with the d6 loaded with `dice`.
fn run(
    step: &str,
    fighter: &'static str,
    target: Option<&'static str>,
    dice: &'static [&'static str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let rules = rules();
    let probe = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = probe.state();
    let owner = state.pieces[&piece(state, fighter)].owner;
    let mut vars = vec![
        ("player", Value::Player(owner)),
        ("fighter", Value::Piece(piece(state, fighter))),
    ];
    if let Some(target) = target {
        vars.push(("target", Value::Piece(piece(state, target))));
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

// ---- Swimming in the middle of a Move (003 L346-350) ------------------------------------

/// Hedda `y` cm north of the table's south edge, below the Pond's centre (its south edge at
/// y 29 cm), Grizzle far off; step `move`.
fn to_the_pond(y: i64, dice: &'static [&'static str]) -> Game<Scenario> {
    run("move", "Hedda", None, dice, move |ctx: &mut Ctx<'_>| {
        stand(ctx, "Pond", 35 * CM, 35 * CM);
        stand(ctx, "Hedda", 35 * CM, y);
        stand(ctx, "Grizzle", 10 * CM, 65 * CM);
    })
}

#[test]
fn a_move_into_the_water_stops_at_its_edge_and_swims_on_up_to_sp() {
    // 003 L346: "A model which wants to cross a body of water must make a swimming test
    // immediately after entering the water. Roll a d6. On a 3+ the model can swim a distance
    // of up to his Speed." Hedda (M 15 cm, Sp 7) cannot walk 15 cm straight into the pond:
    // her Move stops at its edge, she tests there and swims at most 7 cm.
    let mut game = to_the_pond(20 * CM, &["3"]);
    // Her base is 7.75 cm from the water.
    assert!(!send_point(&mut game, Point::new(0, 15 * CM)));
    assert!(send_point(&mut game, Point::new(0, 725)));
    assert!(
        asked(&game, "Does Hedda enter the water?"),
        "{:?}",
        pending(&game)
    );
    answer(&mut game, ANN, option("enter the water"));
    // 7.75 cm of her Move are left; she swims up to Sp 7.
    assert!(asked(&game, "Where does Hedda swim?"));
    assert!(!send_point(&mut game, Point::new(0, 710)));
    assert!(send_point(&mut game, Point::new(0, 7 * CM)));
    face_as_it_stands(&mut game);
    assert!(has_said(&game, "swims (3)"), "{:?}", said(&game));
    assert_eq!(
        at(game.state(), "Hedda"),
        Point::new(35 * CM, 20 * CM + 1425)
    );
    // She tested once, entering: ending in the water takes no second test.
    assert_eq!(
        said(&game).iter().filter(|s| s.contains("swims")).count(),
        1
    );
    assert_eq!(damage(game.state(), "Hedda"), 0);
    // From 5 cm farther, 12.25 cm of walking leave 2.75 cm of her Move to swim (ours: the
    // swim is part of the Move).
    let mut far = to_the_pond(15 * CM, &["3"]);
    assert!(send_point(&mut far, Point::new(0, 1225)));
    answer(&mut far, ANN, option("enter the water"));
    assert!(!send_point(&mut far, Point::new(0, 285)));
    assert!(send_point(&mut far, Point::new(0, 275)));
}

#[test]
fn a_hero_failing_the_test_as_it_enters_loses_a_wound_and_stops_at_the_edge() {
    // 003 L348: "A lower result means that the model loses 1 wound and cannot move further."
    let mut game = to_the_pond(20 * CM, &["2"]);
    assert!(send_point(&mut game, Point::new(0, 725)));
    answer(&mut game, ANN, option("enter the water"));
    assert!(!asked(&game, "Where does Hedda swim?"));
    face_as_it_stands(&mut game);
    assert!(
        has_said(&game, "struggles in the water (2) and cannot move further"),
        "{:?}",
        said(&game)
    );
    assert_eq!(damage(game.state(), "Hedda"), 1);
    assert_eq!(
        at(game.state(), "Hedda"),
        Point::new(35 * CM, 20 * CM + 725)
    );
    // Staying on the bank costs nothing and rolls nothing.
    let mut bank = to_the_pond(20 * CM, &["2"]);
    assert!(send_point(&mut bank, Point::new(0, 725)));
    answer(&mut bank, ANN, option("stay on the bank"));
    face_as_it_stands(&mut bank);
    assert_eq!(damage(bank.state(), "Hedda"), 0);
    assert!(!has_said(&bank, "struggles"));
}

#[test]
fn a_hero_at_the_waters_edge_may_enter_it_with_its_whole_move() {
    // 003 L346: the test comes as the hero enters the water, wherever its Move began. Hedda's
    // base 0.5 cm from the pond: her player may send her straight in, and she swims Sp 7.
    // A hero farther from the water is not asked.
    let mut game = to_the_pond(29 * CM - 175, &["4"]);
    assert!(
        asked(&game, "Does Hedda walk, or enter the water?"),
        "{:?}",
        pending(&game)
    );
    answer(&mut game, ANN, option("enter the water"));
    assert!(!send_point(&mut game, Point::new(0, 710)));
    assert!(send_point(&mut game, Point::new(0, 7 * CM)));
    face_as_it_stands(&mut game);
    assert!(has_said(&game, "swims (4)"), "{:?}", said(&game));
    let away = to_the_pond(20 * CM, &["4"]);
    assert!(asked(&away, "Where does Hedda move?"));
}

#[test]
fn a_hero_whose_base_overlaps_the_water_stops_where_its_centre_would_enter_it() {
    // 003 L346: crossing water needs the test as the hero enters it. Hedda's base already
    // reaches 0.75 cm over the pond's edge (her centre 0.5 cm out of it): walking 15 cm
    // across, she stops where her centre would enter the water (to the millimetre, ours),
    // and may swim on from there.
    let mut game = to_the_pond(2850, &["3"]);
    answer(&mut game, ANN, option("walk"));
    assert!(send_point(&mut game, Point::new(0, 15 * CM)));
    assert!(
        asked(&game, "Does Hedda enter the water?"),
        "{:?}",
        pending(&game)
    );
    answer(&mut game, ANN, option("stay on the bank"));
    face_as_it_stands(&mut game);
    let hedda = at(game.state(), "Hedda");
    assert!(hedda.y >= 2850 && hedda.y < 29 * CM, "{hedda:?}");
    assert!(hedda.y > 29 * CM - 10, "{hedda:?}");
}

// ---- The 2 cm level rule outside the charge (003 L302) ----------------------------------

/// Hedda standing on `piece` (centred at 35, 35 cm) with her base's south rim 1 cm inside
/// its south edge at `edge` cm, Grizzle (an enemy) on the ground south of her, bases
/// touching; step `step` for Hedda.
fn across_a_level(step: &str, piece: &'static str, edge: i64) -> Game<Scenario> {
    run(step, "Hedda", None, &[], move |ctx: &mut Ctx<'_>| {
        stand(ctx, piece, 35 * CM, 35 * CM);
        stand(ctx, "Hedda", 35 * CM, edge * CM + 225);
        stand(ctx, "Grizzle", 35 * CM, edge * CM - 25);
    })
}

#[test]
fn bases_touching_across_more_than_2_cm_of_level_are_not_in_contact() {
    // 003 L302: where terrain keeps the bases apart, "models can fight if the difference in
    // the levels at which are their bases is not greater than 2 cm". On the 2 cm Fallen Log
    // (its south edge at y 33 cm) Hedda is in contact with Grizzle below: locked, she
    // fights or disengages and does not move. On the 3 cm Rubble Heap (south edge at y 28
    // cm) she is not: she moves, and neither fights nor disengages.
    let log = scenario::offered(&across_a_level("activation", "Fallen Log", 33));
    assert!(log.contains(&"fight".to_owned()), "{log:?}");
    assert!(log.contains(&"disengage".to_owned()), "{log:?}");
    assert!(!log.contains(&"move".to_owned()), "{log:?}");
    let heap = scenario::offered(&across_a_level("activation", "Rubble Heap", 28));
    assert!(heap.contains(&"move".to_owned()), "{heap:?}");
    assert!(!heap.contains(&"fight".to_owned()), "{heap:?}");
    assert!(!heap.contains(&"disengage".to_owned()), "{heap:?}");
    // She walks away from him, never into contact again (L306).
    let mut away = across_a_level("move", "Rubble Heap", 28);
    assert!(!send_point(&mut away, Point::new(0, -1)));
    assert!(send_point(&mut away, Point::new(0, 5 * CM)));
}

#[test]
fn a_hero_touching_an_enemy_across_more_than_2_cm_may_shoot_it() {
    // 003 L302 with L508 (a shooter in base contact does not shoot): Tobble (a bow) on the
    // north side of the 3 cm Rubble Heap (y 28-42 cm), Ugluk on the ground north of him,
    // bases touching: not in contact, so Tobble may shoot him. On the 2 cm Fallen Log (y
    // 33-37 cm) they are in contact: no shot.
    let shooter = |piece: &'static str, north: i64| {
        scenario::offered(&run(
            "activation",
            "Tobble",
            None,
            &[],
            move |ctx: &mut Ctx<'_>| {
                stand(ctx, piece, 35 * CM, 35 * CM);
                stand(ctx, "Tobble", 35 * CM, north * CM - 125);
                stand(ctx, "Ugluk", 35 * CM, north * CM + 125);
            },
        ))
    };
    let heap = shooter("Rubble Heap", 42);
    assert!(heap.contains(&"shoot".to_owned()), "{heap:?}");
    let log = shooter("Fallen Log", 37);
    assert!(!log.contains(&"shoot".to_owned()), "{log:?}");
    assert!(log.contains(&"fight".to_owned()), "{log:?}");
}

// ---- Disengaging from several enemies (003 L436-440) ------------------------------------

/// Hedda at (35, 35) cm, the enemies `foes` around her, bases touching, each centred at the
/// offset given (2.5 cm from hers: (0, 250) north, (250, 0) east...); step `disengage`, her
/// 2d6 6 and 6, the strongest enemy's 1 and 1.
fn surrounded(foes: &'static [(&'static str, i64, i64)]) -> Game<Scenario> {
    run(
        "disengage",
        "Hedda",
        None,
        &["6", "6", "1", "1"],
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, "Hedda", 35 * CM, 35 * CM);
            for (foe, dx, dy) in foes {
                stand(ctx, foe, 35 * CM + dx, 35 * CM + dy);
            }
        },
    )
}

#[test]
fn a_hero_disengaging_from_two_enemies_is_placed_1_cm_from_each() {
    // 003 L438: "When disengaging from group combat, model must be placed 1 cm away from
    // each enemy the model was in base contact with, but may not move more than 2 cm."
    // Grizzle north of Hedda, Ugluk east: she ends 1 cm from both (centres 3.5 cm apart),
    // not only from the stronger of them.
    let game = surrounded(&[("Grizzle", 0, 250), ("Ugluk", 250, 0)]);
    assert!(
        has_said(&game, "disengages (18 against"),
        "{:?}",
        said(&game)
    );
    let hedda = at(game.state(), "Hedda");
    for foe in ["Grizzle", "Ugluk"] {
        let apart = distance(hedda, at(game.state(), foe));
        assert!((apart - 350.0).abs() < 1.5, "{foe}: {apart} {hedda:?}");
    }
    assert!(distance(hedda, Point::new(35 * CM, 35 * CM)) <= 200.0);
}

#[test]
fn a_disengage_with_no_place_1_cm_from_every_enemy_is_cancelled() {
    // 003 L438: "If the model may not move away exactly 1 cm from each of its opponents, the
    // disengaging is cancelled." Ugluk (S 8) east of Hedda, Grizzle and Snikk north and
    // north-west of her: no point is 1 cm from all three, though some within 2 cm are 1 cm
    // from Ugluk and no nearer the other two.
    let game = surrounded(&[
        ("Ugluk", 250, 0),
        ("Grizzle", 70, 240),
        ("Snikk", -200, 150),
    ]);
    assert!(
        has_said(
            &game,
            "cannot be placed 1 cm away from every enemy: the disengage is cancelled"
        ),
        "{:?}",
        said(&game)
    );
    assert_eq!(at(game.state(), "Hedda"), Point::new(35 * CM, 35 * CM));
}

// ---- Ladders and ropes fixed to a piece (003 L324) --------------------------------------

/// Hedda standing at (35, `y`) cm beside or on `piece` (centred at 35, 35 cm), Grizzle far
/// off; step `move`, the d6 loaded with `dice`; she is sent by `offset`.
fn by_the_piece(
    piece: &'static str,
    y: i64,
    offset: Point,
    dice: &'static [&'static str],
) -> (bool, Game<Scenario>) {
    let mut game = run("move", "Hedda", None, dice, move |ctx: &mut Ctx<'_>| {
        stand(ctx, piece, 35 * CM, 35 * CM);
        stand(ctx, "Hedda", 35 * CM, y);
        stand(ctx, "Grizzle", 10 * CM, 65 * CM);
    });
    let taken = send_point(&mut game, offset);
    face_as_it_stands(&mut game);
    (taken, game)
}

#[test]
fn a_rope_fixed_to_the_dead_tree_takes_a_hero_up_by_a_normal_move() {
    // 003 L324: "Ladders and ropes will make climbing up and down easier, and when using them
    // a hero can make a normal move which is not treated as Climbing." The Dead Tree (8 cm)
    // has a rope tied to it (ours): Hedda (3 cm tall) walks onto it from the ground. The
    // Broken Stair (6 cm, no ladder) is taller than she is: she must climb it (L316).
    let (up, game) = by_the_piece("Dead Tree", 2850, Point::new(0, 650), &[]);
    assert!(up, "{:?}", said(&game));
    assert!(has_said(&game, "climbs up to the Dead Tree by its ladder"));
    assert_eq!(at(game.state(), "Hedda"), Point::new(35 * CM, 35 * CM));
    let (stair, _) = by_the_piece("Broken Stair", 2750, Point::new(0, 750), &[]);
    assert!(!stair);
}

#[test]
fn a_rope_fixed_to_the_dead_tree_takes_a_hero_down_without_a_jump() {
    // 003 L324 against L336: down 8 cm by the rope is a normal move, no d6; from the 6 cm
    // Broken Stair without one, a jump down that needs a 4 (the 1 loaded: 1 W lost).
    let (down, game) = by_the_piece("Dead Tree", 35 * CM, Point::new(0, -12 * CM), &["1"]);
    assert!(down);
    assert!(has_said(
        &game,
        "climbs down from the Dead Tree by its ladder"
    ));
    assert_eq!(damage(game.state(), "Hedda"), 0);
    assert!(!has_said(&game, "jumps down"));
    let (_, stair) = by_the_piece("Broken Stair", 35 * CM, Point::new(0, -12 * CM), &["1"]);
    assert!(has_said(&stair, "lands badly jumping down 6 cm (1)"));
    assert_eq!(damage(stair.state(), "Hedda"), 1);
}

// ---- A climber that cannot stand firm (003 L320) -----------------------------------------

/// Hedda on the ground, her base 0.5 cm south of `piece` (centred at 35, 35 cm, its south
/// edge at `edge` cm), climbs it (step `climb`), the d6 loaded with `dice`.
fn climbing(piece: &'static str, edge: i64, dice: &'static [&'static str]) -> Game<Scenario> {
    run("climb", "Hedda", None, dice, move |ctx: &mut Ctx<'_>| {
        stand(ctx, piece, 35 * CM, 35 * CM);
        stand(ctx, "Hedda", 35 * CM, edge * CM - 175);
        stand(ctx, "Grizzle", 10 * CM, 65 * CM);
    })
}

#[test]
fn a_climber_on_a_piece_without_firm_footing_holds_on_on_4_or_falls() {
    // 003 L320: "If the model cannot be placed firmly on the table after climbing you must
    // roll a d6. If you roll 3 or less, the hero falls down (see Falling Down). If you roll
    // 4 or better, the hero does not fall down." The Broken Stair's loose stones (6 cm, ours)
    // give no firm footing: on a 3 Hedda falls 6 cm back to its foot, d6 W (the 5 loaded,
    // L332); on a 4 she holds on, up on it. The 4 cm stall is firm: no roll.
    let fall = climbing("Broken Stair", 29, &["3", "5"]);
    assert!(
        has_said(
            &fall,
            "cannot stand firm on the Broken Stair (3) and falls 6 cm"
        ),
        "{:?}",
        said(&fall)
    );
    assert_eq!(damage(fall.state(), "Hedda"), 5);
    assert_eq!(
        at(fall.state(), "Hedda"),
        Point::new(35 * CM, 29 * CM - 175)
    );
    let hold = climbing("Broken Stair", 29, &["4"]);
    assert!(has_said(&hold, "holds on to the Broken Stair (4)"));
    assert!(has_said(&hold, "climbs onto the Broken Stair (6 cm)"));
    assert_eq!(damage(hold.state(), "Hedda"), 0);
    assert!(at(hold.state(), "Hedda").y > 29 * CM);
    let stall = climbing("Stall West", 31, &["1"]);
    assert!(
        has_said(&stall, "climbs onto the Stall West (4 cm)"),
        "{:?}",
        said(&stall)
    );
    assert_eq!(damage(stall.state(), "Hedda"), 0);
}
