//! Umbra Turris's weapon on a separate base (seed 003 L1877, the mark `[]`; the Small cannon,
//! L1815), played from the data: its user moves with it up to his Sp or leaves it standing;
//! left, it shoots only once he is back in full base contact with it; an enemy may charge it
//! instead of a hero, and a charged gun is removed from play at the end of that enemy's
//! turn. Each scenario arranges heroes of the test parties below on the table through the
//! kernel's `Ctx`, gives a hero the Small cannon (a new card of the roster's), runs one step
//! of the flow and answers its requests; each is compared with the same scenario without
//! the rule's condition. Lengths are tenths of a millimetre (1 cm = 100); the heroes are
//! Borian Humans (M 15 cm, Sp 7, 25 mm bases), and the gun's base is the ruleset's
//! `gun_base` (ours: 15 mm from its centre).
//!
//! | Rule (003 L1877) | Test |
//! |---|---|
//! | "can move with the weapon, but only up to his Sp" | `moving_with_the_small_cannon_keeps_the_move_to_sp` |
//! | "may leave the weapon ... useless until he comes back into full base contact" | `a_small_cannon_left_standing_shoots_only_with_its_user_in_base_contact` |
//! | coming back to it | `a_move_may_end_back_in_base_contact_with_the_cannon` |
//! | "may charge either the hero, or his weapon ... remove it from play at the end of the enemy hero's turn" | `an_enemy_may_charge_a_cannon_standing_apart_and_takes_it_at_the_end_of_that_turn` |
//! | a charge is no Move with it (ours) | `a_charging_gunner_leaves_his_cannon_where_he_stood` |
//!
//! The same parties play the turning rule (003 L292: once a Turn, before or after a Move or
//! before an attack, a hero may turn to face any direction; counter `turned`):
//!
//! | Rule (003 L292) | Test |
//! |---|---|
//! | a turn before an attack: an enemy behind may be shot (or charged) if the hero has not turned yet | `a_hero_that_has_not_turned_may_turn_to_shoot_an_enemy_behind_it`, `an_enemy_may_charge_a_cannon_standing_apart_and_takes_it_at_the_end_of_that_turn` |
//! | the turn after a Move, once a Turn | `a_hero_turns_once_a_turn_after_its_move_at_most` |

use gloam::core::{Ctx, Game, GameState, Point, Position, Scope, Value, ZoneId};
use gloam::engine::RulesetGame;
use std::cell::OnceCell;

mod scenario;
use scenario::{
    Scenario, choose, frame, has_said, offered, party_duel, pending, piece,
    piece_counter as counter, said, scenario,
};
use scenario::{asked, at, face_as_it_stands, send_point};

const CM: i64 = 100;

/// Test parties of six, legal under the building rules (`gloam check`); each scenario gives
/// the Small cannon to the Gunner, and heroes it does not stand on the table stay off it.
const PARTIES: &str = r#"
party "Test Battery" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 5000
    source = "ours"
    hero "Bat Chief" { race = "Humans" subrace = "Borians" profession = "Scoundrel" leader = true equipment = ["Sword, short sword"] }
    hero "Gunner" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Bat 1" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Bat 2" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Bat 3" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Bat 4" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
}

party "Test Raiders" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 5000
    source = "ours"
    hero "Raid Chief" { race = "Humans" subrace = "Borians" profession = "Scoundrel" leader = true equipment = ["Sword, short sword"] }
    hero "Raider" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Raid 1" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Raid 2" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Raid 3" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Raid 4" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
}
"#;

thread_local! {
    static RULES: OnceCell<RulesetGame> = const { OnceCell::new() };
}

fn rules() -> RulesetGame {
    RULES.with(|rules| {
        rules
            .get_or_init(|| party_duel(PARTIES, "Test Battery", "Test Raiders"))
            .clone()
    })
}

/// Stands `kind` at (`x`, `y`) facing along `facing`.
fn stand(ctx: &mut Ctx<'_>, kind: &str, x: i64, y: i64, facing: (i64, i64)) {
    let id = piece(ctx.state(), kind);
    ctx.place_piece(
        id,
        Some(Position::Table {
            at: Point::new(x, y),
            facing,
        }),
        vec![],
        "deploy",
    )
    .expect("placed");
}

/// Gives the Gunner a Small cannon (003 L1815).
fn arm(ctx: &mut Ctx<'_>) {
    let id = piece(ctx.state(), "Gunner");
    let owner = ctx.state().pieces[&id].owner;
    let zone = ZoneId::on_piece(owner, "equipped", id);
    ctx.create_card("Small cannon", owner, &zone)
        .expect("the card");
}

/// Leaves the Gunner's gun standing at (`x`, `y`).
fn gun_apart(ctx: &mut Ctx<'_>, x: i64, y: i64) {
    let id = piece(ctx.state(), "Gunner");
    for (name, value) in [("gun_apart", 1), ("gun_x", x), ("gun_y", y)] {
        ctx.set_counter(Scope::Piece(id), name, value)
            .expect("counter");
    }
}

/// One step `step` for `fighter` (its owner acting), after `arrange`.
fn run(
    step: &str,
    fighter: &'static str,
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
    then: &[&str],
) -> Game<Scenario> {
    let rules = rules();
    let probe = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = probe.state();
    let owner = state.pieces[&piece(state, fighter)].owner;
    let vars = [
        ("player", Value::Player(owner)),
        ("fighter", Value::Piece(piece(state, fighter))),
    ];
    let mut frames = vec![frame(step, &vars)];
    for next in then {
        frames.push(frame(next, &[("player", Value::Player(owner))]));
    }
    scenario(&rules, arrange, frames)
}

/// The Gunner at (20 cm, 20 cm) facing north, the Raider far off.
fn field(ctx: &mut Ctx<'_>) {
    stand(ctx, "Gunner", 20 * CM, 20 * CM, (0, 1));
    stand(ctx, "Raider", 60 * CM, 60 * CM, (0, -1));
}

#[test]
fn moving_with_the_small_cannon_keeps_the_move_to_sp() {
    // 003 L1877: "The hero can move with the weapon, but he can only move up to his Sp."
    // With the cannon at his side the Gunner (M 15 cm, Sp 7) is asked, and moving with it
    // he cannot go 10 cm, only 7.
    let mut game = run(
        "move",
        "Gunner",
        |ctx: &mut Ctx<'_>| {
            field(ctx);
            arm(ctx);
        },
        &[],
    );
    assert!(
        asked(&game, "Does Gunner move with the Small cannon?"),
        "{:?}",
        pending(&game)
    );
    choose(&mut game, "move with the Small cannon (up to Sp)");
    assert!(!send_point(&mut game, Point::new(0, 10 * CM)));
    assert!(send_point(&mut game, Point::new(0, 7 * CM)));
    face_as_it_stands(&mut game);
    assert_eq!(at(game.state(), "Gunner"), Point::new(20 * CM, 27 * CM));
    assert_eq!(counter(game.state(), "Gunner", "gun_apart"), 0);

    // Without the cannon he is not asked and walks his full M.
    let mut bare = run("move", "Gunner", field, &[]);
    assert!(
        asked(&bare, "Where does Gunner move?"),
        "{:?}",
        pending(&bare)
    );
    assert!(send_point(&mut bare, Point::new(0, 10 * CM)));
}

#[test]
fn a_small_cannon_left_standing_shoots_only_with_its_user_in_base_contact() {
    // 003 L1877: "If he wants to leave the weapon, he may do so, but the weapon will be
    // useless until he comes back into full base contact with it."
    let mut game = run(
        "move",
        "Gunner",
        |ctx: &mut Ctx<'_>| {
            field(ctx);
            arm(ctx);
        },
        &[],
    );
    choose(&mut game, "leave the Small cannon here");
    assert!(send_point(&mut game, Point::new(0, 10 * CM)));
    face_as_it_stands(&mut game);
    let state = game.state();
    assert!(
        has_said(&game, "leaves the Small cannon standing"),
        "{:?}",
        said(&game)
    );
    assert_eq!(counter(state, "Gunner", "gun_apart"), 1);
    assert_eq!(
        (
            counter(state, "Gunner", "gun_x"),
            counter(state, "Gunner", "gun_y")
        ),
        (20 * CM, 20 * CM)
    );

    // The Raider 30 cm in front of him, in the cannon's 50 cm range: he may shoot it only
    // with his base touching the gun's (its centre 2 cm from his: in contact), not 10 cm
    // away from it, nor with it left 10 cm away but no cannon at all.
    let shooter = |gun_y: i64| {
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, "Gunner", 20 * CM, 30 * CM, (0, 1));
            stand(ctx, "Raider", 20 * CM, 60 * CM, (0, -1));
            arm(ctx);
            gun_apart(ctx, 20 * CM, gun_y);
        }
    };
    let far = run("activation", "Gunner", shooter(20 * CM), &[]);
    assert!(
        !offered(&far).contains(&"shoot".to_owned()),
        "{:?}",
        offered(&far)
    );
    let near = run("activation", "Gunner", shooter(28 * CM), &[]);
    assert!(
        offered(&near).contains(&"shoot".to_owned()),
        "{:?}",
        offered(&near)
    );
    // At his side (never left), the cannon shoots.
    let with = run(
        "activation",
        "Gunner",
        |ctx: &mut Ctx<'_>| {
            stand(ctx, "Gunner", 20 * CM, 30 * CM, (0, 1));
            stand(ctx, "Raider", 20 * CM, 60 * CM, (0, -1));
            arm(ctx);
        },
        &[],
    );
    assert!(
        offered(&with).contains(&"shoot".to_owned()),
        "{:?}",
        offered(&with)
    );
}

#[test]
fn a_move_may_end_back_in_base_contact_with_the_cannon() {
    // 003 L1877: the weapon is useless "until he comes back into full base contact with
    // it". The cannon stands 10 cm north of the Gunner; going back, his Move must end in
    // contact with it (not 10 cm east), and then the cannon is his again.
    let back = |ctx: &mut Ctx<'_>| {
        field(ctx);
        arm(ctx);
        gun_apart(ctx, 20 * CM, 30 * CM);
    };
    let mut game = run("move", "Gunner", back, &[]);
    assert!(
        asked(&game, "Does Gunner go back to the Small cannon?"),
        "{:?}",
        pending(&game)
    );
    choose(&mut game, "go back to the Small cannon");
    assert!(!send_point(&mut game, Point::new(10 * CM, 0)));
    assert!(send_point(&mut game, Point::new(0, 9 * CM)));
    face_as_it_stands(&mut game);
    assert_eq!(counter(game.state(), "Gunner", "gun_apart"), 0);
    assert!(
        has_said(&game, "is back with the Small cannon"),
        "{:?}",
        said(&game)
    );

    // Moving elsewhere, the gun stays where it is, still apart.
    let mut away = run("move", "Gunner", back, &[]);
    choose(&mut away, "move elsewhere");
    assert!(send_point(&mut away, Point::new(10 * CM, 0)));
    face_as_it_stands(&mut away);
    assert_eq!(counter(away.state(), "Gunner", "gun_apart"), 1);
}

#[test]
fn an_enemy_may_charge_a_cannon_standing_apart_and_takes_it_at_the_end_of_that_turn() {
    // 003 L1877: "An enemy declaring a charge may charge either the hero, or his weapon. If
    // the weapon is charged, remove it from play at the end of the enemy hero's turn." The
    // cannon stands 20 cm east of the Gunner; the Raider, 15 cm north of it and facing
    // south, sees both. The turn that follows the charge (step `turn`) takes the cannon.
    let arrange = |facing: (i64, i64), turned: bool| {
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, "Gunner", 20 * CM, 20 * CM, (0, 1));
            stand(ctx, "Raider", 40 * CM, 35 * CM, facing);
            arm(ctx);
            gun_apart(ctx, 40 * CM, 20 * CM);
            if turned {
                let raider = piece(ctx.state(), "Raider");
                ctx.set_counter(Scope::Piece(raider), "turned", 1)
                    .expect("counter");
            }
        }
    };
    let mut game = run("charge", "Raider", arrange((0, -1), true), &["turn"]);
    assert!(
        asked(&game, "What does Raider charge?"),
        "{:?}",
        pending(&game)
    );
    assert_eq!(
        offered(&game),
        vec!["a hero".to_owned(), "the Small cannon of Gunner".to_owned()]
    );
    choose(&mut game, "the Small cannon of Gunner");
    // The charge must end in contact with the gun's base, not beside the Gunner.
    assert!(!send_point(&mut game, Point::new(10 * CM, -1250)));
    assert!(send_point(&mut game, Point::new(0, -1250)));
    let state = game.state();
    assert!(
        has_said(&game, "charges the weapon of Gunner"),
        "{:?}",
        said(&game)
    );
    assert!(
        has_said(&game, "loses the Small cannon"),
        "{:?}",
        said(&game)
    );
    let gunner = piece(state, "Gunner");
    let owner = state.pieces[&gunner].owner;
    let lost = state.zone_cards(&ZoneId::new(owner, "lost"));
    assert!(
        lost.iter().any(|c| state.cards[c].name == "Small cannon"),
        "the cannon is out of play"
    );
    assert_eq!(counter(state, "Gunner", "gun_apart"), 0);

    // Facing away (north), the Raider has the cannon behind him. Having turned already this
    // Turn (003 L292: once a Turn), he cannot charge it: the Gunner, at his side, is the
    // only target. Not turned yet, he may turn before the attack and charge it.
    let behind = run("charge", "Raider", arrange((0, 1), true), &[]);
    assert!(
        asked(&behind, "Whom does Raider charge?"),
        "{:?}",
        pending(&behind)
    );
    let turning = run("charge", "Raider", arrange((0, 1), false), &[]);
    assert_eq!(
        offered(&turning),
        vec!["a hero".to_owned(), "the Small cannon of Gunner".to_owned()]
    );
}

#[test]
fn a_charging_gunner_leaves_his_cannon_where_he_stood() {
    // Ours (003 L1877 keeps a move with the weapon to Sp): a charge is no Move with it; the
    // cannon stays where the Gunner stood, apart from him.
    let mut game = run(
        "charge",
        "Gunner",
        |ctx: &mut Ctx<'_>| {
            stand(ctx, "Gunner", 20 * CM, 20 * CM, (0, 1));
            stand(ctx, "Raider", 20 * CM, 32 * CM, (0, -1));
            arm(ctx);
        },
        &[],
    );
    if asked(&game, "Whom does Gunner charge?") {
        choose(&mut game, "Raider");
    }
    // Into base contact with the Raider, 12 cm north (25 mm bases).
    assert!(send_point(&mut game, Point::new(0, 950)));
    assert!(
        has_said(&game, "leaves the Small cannon standing to charge"),
        "{:?}",
        said(&game)
    );
    let state = game.state();
    assert_eq!(counter(state, "Gunner", "gun_apart"), 1);
    assert_eq!(
        (
            counter(state, "Gunner", "gun_x"),
            counter(state, "Gunner", "gun_y")
        ),
        (20 * CM, 20 * CM)
    );
}

// ---- Turning, once a Turn (003 L292) -------------------------------------------------------

/// Marks `kind` as having turned this Turn (counter `turned`).
fn turned(ctx: &mut Ctx<'_>, kind: &str) {
    let id = piece(ctx.state(), kind);
    ctx.set_counter(Scope::Piece(id), "turned", 1)
        .expect("counter");
}

/// The Gunner with a Bow at (20 cm, 30 cm) facing north, the Raider 15 cm behind him.
fn archer(has_turned: bool) -> impl Fn(&mut Ctx<'_>) + 'static {
    move |ctx: &mut Ctx<'_>| {
        stand(ctx, "Gunner", 20 * CM, 30 * CM, (0, 1));
        stand(ctx, "Raider", 20 * CM, 15 * CM, (0, 1));
        let id = piece(ctx.state(), "Gunner");
        let owner = ctx.state().pieces[&id].owner;
        ctx.create_card("Bow", owner, &ZoneId::on_piece(owner, "equipped", id))
            .expect("the card");
        if has_turned {
            turned(ctx, "Gunner");
        }
    }
}

/// Answers every request left with its first choice (at most 20).
fn play_out(game: &mut Game<Scenario>) {
    for _ in 0..20 {
        if pending(game).is_none() {
            return;
        }
        let first = offered(game).into_iter().next().expect("a choice");
        choose(game, &first);
    }
}

fn facing(state: &GameState, kind: &str) -> (i64, i64) {
    match state.pieces[&piece(state, kind)].position {
        Some(Position::Table { facing, .. }) => facing,
        other => panic!("{kind} is not on the table: {other:?}"),
    }
}

#[test]
fn a_hero_that_has_not_turned_may_turn_to_shoot_an_enemy_behind_it() {
    // 003 L292: "Before or after performing Move basic action or before attack, and only
    // once per Turn, a model can turn to face any direction"; the rear is outside the Field
    // of Vision. The Raider is behind the Gunner: not turned yet, he may shoot him, turning
    // to face him (his turn for the Turn); having turned, he may not.
    let free = run("activation", "Gunner", archer(false), &[]);
    assert!(
        offered(&free).contains(&"shoot".to_owned()),
        "{:?}",
        offered(&free)
    );
    let spent = run("activation", "Gunner", archer(true), &[]);
    assert!(
        !offered(&spent).contains(&"shoot".to_owned()),
        "{:?}",
        offered(&spent)
    );

    let mut shot = run("shoot", "Gunner", archer(false), &[]);
    assert!(
        asked(&shot, "Whom does Gunner shoot?"),
        "{:?}",
        pending(&shot)
    );
    play_out(&mut shot);
    let state = shot.state();
    assert_eq!(counter(state, "Gunner", "turned"), 1);
    let (dx, dy) = facing(state, "Gunner");
    assert!(
        dx == 0 && dy < 0,
        "he faces south, to the Raider: {:?}",
        (dx, dy)
    );
}

#[test]
fn a_hero_turns_once_a_turn_after_its_move_at_most() {
    // 003 L292: the turn after a Move is the Turn's one turn. Not turned yet, the Gunner's
    // player is asked where he faces, and a new facing marks the turn; having turned (here
    // before an attack earlier in the Turn), he is not asked.
    let mut game = run("move", "Gunner", field, &[]);
    assert!(send_point(&mut game, Point::new(0, 5 * CM)));
    assert!(
        asked(&game, "Which way does Gunner face?"),
        "{:?}",
        pending(&game)
    );
    choose(&mut game, "east");
    assert_eq!(counter(game.state(), "Gunner", "turned"), 1);
    let (dx, dy) = facing(game.state(), "Gunner");
    assert!(dx > 0 && dy == 0, "{:?}", (dx, dy));

    let mut spent = run(
        "move",
        "Gunner",
        |ctx: &mut Ctx<'_>| {
            field(ctx);
            turned(ctx, "Gunner");
        },
        &[],
    );
    assert!(send_point(&mut spent, Point::new(0, 5 * CM)));
    assert!(
        !asked(&spent, "Which way does Gunner face?"),
        "{:?}",
        pending(&spent)
    );
    assert_eq!(facing(spent.state(), "Gunner"), (0, 1));
}
