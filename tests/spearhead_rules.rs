//! Spearhead's rules played from the data in `cards/spearhead` (seed 004, the reference
//! sheet; digest `shared/rules/tabletop.md` part B). Each scenario starts a match of the
//! shipped data, arranges the table through the kernel's `Ctx` (models set up in rows,
//! terrain features put down, the counters the flow keeps), then runs one step of the flow
//! and answers its requests. Dice are loaded (`Ctx::fix_dice`) where a rule depends on them.

use std::collections::BTreeMap;

use gloam::core::{
    Answer, Choice, Ctx, Frame, Game, GameState, Length, Options, PieceId, PlayerId, Point,
    Position, Request, Scene, Scope, Subject, Value,
};
use gloam::engine::RulesetGame;
use gloam::sim::check_invariants;

mod scenario;
#[allow(unused_imports)]
use scenario::answer;
use scenario::{Scenario, frame, option, options, pending, scenario, shipped};

/// Seat 0 of the default match brings the Cinderbrood Reavers, seat 1 the Thornwall Wardens.
const REAVERS: PlayerId = PlayerId(0);
const WARDENS: PlayerId = PlayerId(1);
/// An inch in tenths of a millimetre.
const IN: i64 = 254;

thread_local! {
    static RULES: RulesetGame = shipped("spearhead");
}

/// The shipped data set up as Spearhead (loaded once a test thread).
fn rules() -> RulesetGame {
    RULES.with(Clone::clone)
}

/// The models of the `n`th unit (0-based, in seating order) of warscroll `kind`.
fn unit(state: &GameState, kind: &str, n: usize) -> Vec<PieceId> {
    let mut units: BTreeMap<i64, Vec<PieceId>> = BTreeMap::new();
    for piece in state.pieces.values().filter(|p| p.kind == kind) {
        let number = piece.characteristics.get("unit").copied().unwrap_or(-1);
        units.entry(number).or_default().push(piece.id);
    }
    units
        .into_values()
        .nth(n)
        .unwrap_or_else(|| panic!("no unit {n} of {kind}"))
}

/// Sets a unit's models up in a row along x from `(x, y)` (inches), bases touching.
fn row(ctx: &mut Ctx<'_>, ids: &[PieceId], x: i64, y: i64) {
    let mut at = x * IN;
    for (i, id) in ids.iter().enumerate() {
        let radius = ctx.state().pieces[id].characteristics["base_radius"];
        if i > 0 {
            at += radius;
        }
        ctx.place_piece(
            *id,
            Some(Position::Table {
                at: Point::new(at, y * IN),
                facing: (0, 0),
            }),
            vec![],
            "set_up",
        )
        .expect("set up");
        at += radius;
    }
}

/// Puts the terrain feature `name` (drawn around its own origin) with its origin at `(x, y)`.
fn terrain(ctx: &mut Ctx<'_>, name: &str, x: i64, y: i64) {
    let piece = ctx
        .state()
        .pieces
        .values()
        .find(|p| p.layer == gloam_dsl::TERRAIN_LAYER && p.kind == name)
        .expect("a terrain piece")
        .id;
    ctx.place_piece(
        piece,
        Some(Position::Table {
            at: Point::new(x * IN, y * IN),
            facing: (0, 0),
        }),
        vec![],
        "set_up",
    )
    .expect("terrain");
}

fn set(ctx: &mut Ctx<'_>, scope: Scope, name: &str, value: i64) {
    ctx.set_counter(scope, name, value).expect("counter");
}

/// The counters a battle in progress has: territories (South for the Reavers, North for
/// the Wardens, on the first layout: Aqshy, horizontal map), the Reavers the attacker,
/// round 1, turn 1 and phase 1 (the Reavers' turn).
fn battle(ctx: &mut Ctx<'_>) {
    set(ctx, Scope::Player(REAVERS), "territory", 0);
    set(ctx, Scope::Player(WARDENS), "territory", 1);
    set(ctx, Scope::Game, "attacker_seat", 0);
    set(ctx, Scope::Game, "round", 1);
    set(ctx, Scope::Game, "turn_serial", 1);
    set(ctx, Scope::Game, "phase_serial", 1);
    for piece in ctx.state().pieces.keys().copied().collect::<Vec<_>>() {
        if ctx.state().pieces[&piece].layer.is_empty() {
            ctx.set_counter(Scope::Piece(piece), "deployed", 1)
                .expect("deployed");
        }
    }
}

fn step(name: &str, player: PlayerId, vars: &[(&str, Value)]) -> Frame {
    let mut all = vec![("player", Value::Player(player))];
    all.extend(vars.iter().cloned());
    frame(name, &all)
}

fn game_with(arrange: impl Fn(&mut Ctx<'_>) + 'static, frames: Vec<Frame>) -> Game<Scenario> {
    scenario(&rules(), arrange, frames)
}

fn scene(state: &GameState) -> Scene {
    Scene::from_state(state, "base_radius", "unit")
}

fn group(state: &GameState, piece: PieceId) -> gloam_core::GroupId {
    gloam_core::GroupId(state.pieces[&piece].characteristics["unit"] as u32)
}

fn at(state: &GameState, piece: PieceId) -> Option<Point> {
    state.pieces[&piece].position.and_then(Position::point)
}

/// The candidate points of a table request.
fn points(request: &Request) -> Vec<Point> {
    let Options::One { choices } = &request.options else {
        panic!("a single choice: {request:?}");
    };
    choices
        .iter()
        .filter_map(|c| match c {
            Choice::Point(p) => Some(*p),
            _ => None,
        })
        .collect()
}

fn submit(game: &mut Game<Scenario>, player: PlayerId, choice: Choice) {
    game.submit(player, Answer::One(choice))
        .unwrap_or_else(|error| panic!("{error}"));
    check_invariants(game.state()).expect("invariants");
}

fn counter(state: &GameState, piece: PieceId, name: &str) -> i64 {
    state.pieces[&piece]
        .counters
        .get(name)
        .copied()
        .unwrap_or(0)
}

fn game_counter(state: &GameState, name: &str) -> i64 {
    state.counters.get(name).copied().unwrap_or(0)
}

fn on_table(state: &GameState, ids: &[PieceId]) -> usize {
    ids.iter().filter(|id| at(state, **id).is_some()).count()
}

fn length(p: Point) -> f64 {
    ((p.x as f64).powi(2) + (p.y as f64).powi(2)).sqrt()
}

/// The state of a match right after its set-up: the models' ids (the same in every game
/// of the match).
fn bare() -> GameState {
    game_with(|_| {}, vec![]).state().clone()
}

// ---------------------------------------------------------------------------------------
// Core abilities (004 L78-150)
// ---------------------------------------------------------------------------------------

/// NORMAL MOVE (004 L80-90): up to the unit's Move, and never into combat (3", digest
/// B12) at any point of the move; a free point that would end in combat is refused and
/// changes nothing.
#[test]
fn normal_move_is_up_to_move_and_never_into_combat() {
    let arrange = |ctx: &mut Ctx<'_>| {
        battle(ctx);
        let spears = unit(ctx.state(), "Thornwall Spears", 0);
        row(ctx, &spears, 4, 22);
        let reavers = unit(ctx.state(), "Cinder Reavers", 0);
        row(ctx, &reavers, 4, 15);
    };
    let head = unit(&bare(), "Thornwall Spears", 0)[0];
    let frames = vec![step(
        "normal_move",
        WARDENS,
        &[("fighter", Value::Piece(head))],
    )];
    let mut game = game_with(arrange, frames.clone());
    let request = pending(&game).expect("where to move");
    let candidates = points(&request);
    assert!(!candidates.is_empty());
    let budget = 5 * IN; // the Spears' Move (ours): 5"
    for offset in &candidates {
        assert!(length(*offset) <= budget as f64 + 1.0, "{offset:?}");
        let mut tried = game_with(arrange, frames.clone());
        submit(&mut tried, WARDENS, Choice::Point(*offset));
        let scene = scene(tried.state());
        let g = group(tried.state(), head);
        assert!(
            !scene
                .in_range_of_enemy(Subject::Group(g), Length::inches(3))
                .unwrap(),
            "{offset:?} ends in combat"
        );
    }
    // Straight south by 4": the rows, 7" apart centre to centre, would end 3" apart, their
    // bases closer still: in combat.
    let before = game.state().clone();
    let refused = game.submit(WARDENS, Answer::One(Choice::Point(Point::new(0, -4 * IN))));
    assert!(refused.is_err(), "a move into combat is refused");
    assert_eq!(game.state(), &before, "a refused move changes nothing");
}

/// RUN (004 L92-102): a run roll of D6 is added to Move; a unit that ran may not Shoot or
/// Charge this turn (L120, L132).
#[test]
fn run_adds_a_d6_and_then_the_unit_may_not_shoot_or_charge() {
    let arrange = |ctx: &mut Ctx<'_>| {
        battle(ctx);
        let archers = unit(ctx.state(), "Bramble Archers", 0);
        row(ctx, &archers, 4, 22);
        let reavers = unit(ctx.state(), "Cinder Reavers", 0);
        row(ctx, &reavers, 4, 6);
        ctx.fix_dice("d6", &["four"]);
    };
    let archers = unit(&bare(), "Bramble Archers", 0);
    let mut game = game_with(
        arrange,
        vec![
            step("run", WARDENS, &[("fighter", Value::Piece(archers[0]))]),
            step("shooting_phase", WARDENS, &[("count", Value::Int(1))]),
        ],
    );
    let request = pending(&game).expect("where to run");
    let candidates = points(&request);
    let longest = candidates.iter().map(|p| length(*p)).fold(0.0, f64::max);
    // Move 6" + run roll 4 = 10": some candidate goes past 6", none past 10".
    assert!(longest > (6 * IN) as f64, "{longest}");
    assert!(longest <= (10 * IN) as f64 + 1.0, "{longest}");
    let first = candidates[0];
    submit(&mut game, WARDENS, Choice::Point(first));
    assert_eq!(counter(game.state(), archers[0], "ran_turn"), 1);
    // The shooting phase offers nothing to a unit that ran: with no other shooter, it
    // asks nothing.
    if let Some(request) = pending(&game) {
        assert!(
            !options(&request)
                .iter()
                .any(|o| o.contains("Bramble Archers")),
            "{:?}",
            options(&request)
        );
    }
}

/// RETREAT (004 L104-114): D3 mortal damage on the unit, then it moves up to its Move
/// through combat ranges and ends outside all of them.
#[test]
fn retreat_takes_d3_mortal_damage_and_ends_out_of_combat() {
    let arrange = |ctx: &mut Ctx<'_>| {
        battle(ctx);
        let reavers = unit(ctx.state(), "Cinder Reavers", 0);
        row(ctx, &reavers, 4, 10);
        let spears = unit(ctx.state(), "Thornwall Spears", 0);
        row(ctx, &spears, 4, 12);
        // The D3 shows two (a D6 read in pairs: 004 L110).
        ctx.fix_dice("d3", &["two"]);
    };
    let reavers = unit(&bare(), "Cinder Reavers", 0);
    let frames = vec![step(
        "retreat",
        REAVERS,
        &[("fighter", Value::Piece(reavers[0]))],
    )];
    let game = game_with(arrange, frames.clone());
    // Two mortal damage on models of Health 1: two models slain.
    assert_eq!(on_table(game.state(), &reavers), 8);
    let request = pending(&game).expect("where to retreat");
    let candidates = points(&request);
    assert!(!candidates.is_empty());
    let g = group(game.state(), reavers[0]);
    for offset in candidates {
        let mut tried = game_with(arrange, frames.clone());
        submit(&mut tried, REAVERS, Choice::Point(offset));
        assert!(
            !scene(tried.state())
                .in_range_of_enemy(Subject::Group(g), Length::inches(3))
                .unwrap(),
            "{offset:?} ends in combat"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Shooting, charging, fighting (004 L116-150, L166)
// ---------------------------------------------------------------------------------------

/// SHOOT (004 L116-126) and Shoot in Combat (L166, digest D2.11): a unit in combat shoots
/// only with a Shoot in Combat weapon: the Ember Hurlers' Slag Sling may, the Bramble
/// Archers' Longbow may not.
#[test]
fn a_unit_in_combat_shoots_only_with_shoot_in_combat_weapons() {
    let arrange = |ctx: &mut Ctx<'_>| {
        battle(ctx);
        let hurlers = unit(ctx.state(), "Ember Hurlers", 0);
        row(ctx, &hurlers, 4, 14);
        let archers = unit(ctx.state(), "Bramble Archers", 0);
        row(ctx, &archers, 4, 16);
    };
    let game = game_with(arrange, vec![step("shooting_phase", REAVERS, &[])]);
    let asked = options(&pending(&game).expect("who shoots"));
    assert!(
        asked.contains(&"Shoot: Ember Hurlers".to_owned()),
        "{asked:?}"
    );
    let game = game_with(arrange, vec![step("shooting_phase", WARDENS, &[])]);
    // The Archers are in combat and their Longbow lacks Shoot in Combat: nobody shoots.
    assert!(pending(&game).is_none_or(|r| !options(&r).iter().any(|o| o.contains("Archers"))));
}

/// Obscuring (004 L47): a unit wholly on an Obscuring feature cannot be targeted by
/// shooting attacks, unless it has FLY.
#[test]
fn obscuring_hides_a_unit_wholly_on_it_but_not_a_flyer() {
    // The Shattered Forge (large: Cover, Obscuring, Unstable) 8" x 5" with its origin at
    // (4", 20"); its chimney wall is its first 1.5" along y. Targets stand on its floor.
    let shoot = |kind: &'static str| {
        let arrange = move |ctx: &mut Ctx<'_>| {
            battle(ctx);
            terrain(ctx, "Shattered Forge", 4, 20);
            let targets = unit(ctx.state(), kind, 0);
            for (i, id) in targets.iter().take(3).enumerate() {
                let x = 5 * IN + i as i64 * 2 * IN;
                ctx.place_piece(
                    *id,
                    Some(Position::Table {
                        at: Point::new(x, 23 * IN),
                        facing: (0, 0),
                    }),
                    vec![],
                    "set_up",
                )
                .unwrap();
            }
            let archers = unit(ctx.state(), "Bramble Archers", 0);
            row(ctx, &archers, 4, 9);
        };
        let archers = unit(&bare(), "Bramble Archers", 0);
        let game = game_with(
            arrange,
            vec![step(
                "shoot",
                WARDENS,
                &[("fighter", Value::Piece(archers[0]))],
            )],
        );
        // One target (or none): no question asked; the narration says who is shot.
        let told = format!("{:?}", game.events());
        told.contains(&format!("attacks {kind} with Longbow"))
    };
    // The Cinder Reavers (wholly on the Forge) are not a target.
    assert!(!shoot("Cinder Reavers"));
    // The Cinderwing Harpies have FLY: they are.
    assert!(shoot("Cinderwing Harpies"));
}

/// CHARGE (004 L128-138): a 2D6 charge roll; the unit moves up to it and must end within
/// 1/2" of an enemy unit; then it has charged. With too low a roll the charge fails and
/// the unit does not move (ours, digest D2.9).
#[test]
fn a_charge_ends_within_half_an_inch_of_an_enemy_or_fails() {
    let arrange_with = |faces: [&'static str; 2]| {
        move |ctx: &mut Ctx<'_>| {
            battle(ctx);
            let riders = unit(ctx.state(), "Stag Riders", 0);
            row(ctx, &riders, 10, 25);
            let reavers = unit(ctx.state(), "Cinder Reavers", 0);
            row(ctx, &reavers, 8, 17);
            ctx.fix_dice("d6", &faces);
        }
    };
    let riders = unit(&bare(), "Stag Riders", 0);
    let frames = vec![step(
        "charge",
        WARDENS,
        &[("fighter", Value::Piece(riders[0]))],
    )];
    // 5 + 6 = 11: the Riders (60mm bases, 8" from the Reavers' bases) reach.
    let arrange = arrange_with(["five", "six"]);
    let game = game_with(arrange, frames.clone());
    let request = pending(&game).expect("where the charge ends");
    let candidates = points(&request);
    assert!(!candidates.is_empty());
    let g = group(game.state(), riders[0]);
    for offset in candidates.iter().take(12) {
        let mut tried = game_with(arrange, frames.clone());
        submit(&mut tried, WARDENS, Choice::Point(*offset));
        let state = tried.state();
        assert!(
            scene(state)
                .in_range_of_enemy(Subject::Group(g), Length::tenth_mm(127))
                .unwrap(),
            "{offset:?} does not end within 1/2in"
        );
        assert!(length(*offset) <= (11 * IN) as f64 + 1.0);
        assert_eq!(
            counter(state, riders[0], "charged_turn"),
            1,
            "the unit has charged"
        );
    }
    // 1 + 1 = 2: too short; the unit stays where it is and has not charged.
    let game = game_with(arrange_with(["one", "one"]), frames);
    assert!(pending(&game).is_none());
    assert_eq!(
        at(game.state(), riders[0]),
        Some(Point::new(10 * IN, 25 * IN))
    );
    assert_eq!(counter(game.state(), riders[0], "charged_turn"), 0);
}

/// CHARGE's declaration (004 L130): not a unit in combat, nor one that used Run or Retreat
/// this turn.
#[test]
fn units_in_combat_or_that_ran_are_not_offered_a_charge() {
    let arrange = |ctx: &mut Ctx<'_>| {
        battle(ctx);
        let spears = unit(ctx.state(), "Thornwall Spears", 0);
        row(ctx, &spears, 2, 14);
        let reavers = unit(ctx.state(), "Cinder Reavers", 0);
        row(ctx, &reavers, 2, 12);
        let riders = unit(ctx.state(), "Stag Riders", 0);
        row(ctx, &riders, 20, 20);
        let archers = unit(ctx.state(), "Bramble Archers", 0);
        row(ctx, &archers, 28, 18);
        let ran = archers[0];
        ctx.set_counter(Scope::Piece(ran), "ran_turn", 1).unwrap();
    };
    let game = game_with(arrange, vec![step("charge_phase", WARDENS, &[])]);
    let asked = options(&pending(&game).expect("who charges"));
    assert!(
        asked.contains(&"Charge: Stag Riders".to_owned()),
        "{asked:?}"
    );
    assert!(
        !asked.iter().any(|o| o.contains("Thornwall Spears")),
        "{asked:?}"
    );
    assert!(
        !asked.iter().any(|o| o.contains("Bramble Archers")),
        "{asked:?}"
    );
}

/// FIGHT (004 L140-150): a unit in combat or that charged this turn fights; the players
/// take turns picking, the active player first (digest B12, medium).
#[test]
fn units_in_combat_fight_and_the_active_player_picks_first() {
    let arrange = |ctx: &mut Ctx<'_>| {
        battle(ctx);
        let spears = unit(ctx.state(), "Thornwall Spears", 0);
        row(ctx, &spears, 2, 14);
        let reavers = unit(ctx.state(), "Cinder Reavers", 0);
        row(ctx, &reavers, 2, 12);
        let harpies = unit(ctx.state(), "Cinderwing Harpies", 0);
        row(ctx, &harpies, 30, 5);
    };
    let game = game_with(
        arrange,
        vec![step(
            "combat_phase",
            REAVERS,
            &[
                ("count", Value::Int(0)),
                ("data", Value::Str("pick".into())),
            ],
        )],
    );
    let request = pending(&game).expect("who fights");
    assert_eq!(request.player, REAVERS);
    let asked = options(&request);
    assert_eq!(
        asked,
        ["Fight: Cinder Reavers 1", "fight with no more units"]
    );
}

// ---------------------------------------------------------------------------------------
// The attack sequence (digest B12) and the weapon abilities (004 L152-166)
// ---------------------------------------------------------------------------------------

/// The frames of one weapon's attacks: `attacker`'s unit with `weapon` against `target`'s.
fn attack(
    player: PlayerId,
    attacker: PieceId,
    target: PieceId,
    weapon: &str,
    how: &str,
) -> Vec<Frame> {
    vec![step(
        "attacks",
        player,
        &[
            ("attacker", Value::Piece(attacker)),
            ("target", Value::Piece(target)),
            ("weapon", Value::Str(weapon.into())),
            ("data", Value::Str(how.into())),
        ],
    )]
}

const FACES: [&str; 6] = ["one", "two", "three", "four", "five", "six"];

/// The attack sequence against its exact distribution (digest B12: hit roll D6 >= Hit, an
/// unmodified 1 failing; wound roll D6 >= Wound, an unmodified 1 failing; save roll D6 -
/// Rend >= Save; else Damage): every one of the 216 hit, wound and save rolls of one
/// attack of the Warden-Captain's Hand Crossbow (1 attack, 3+, 4+, Rend 0, Damage 1)
/// against Cinder Reavers (Save 5+, Health 1) slays a model exactly when the rulebook says:
/// 4 x 3 x 4 = 48 of them.
#[test]
fn one_attack_slays_exactly_when_it_hits_wounds_and_is_not_saved() {
    let captain = unit(&bare(), "Warden-Captain", 0)[0];
    let reavers = unit(&bare(), "Cinder Reavers", 0);
    let mut slain = 0;
    for h in 1..=6 {
        for w in 1..=6 {
            for s in 1..=6 {
                let faces = [FACES[h - 1], FACES[w - 1], FACES[s - 1]];
                let game = game_with(
                    move |ctx| {
                        battle(ctx);
                        row(ctx, &unit(ctx.state(), "Warden-Captain", 0), 10, 20);
                        row(ctx, &unit(ctx.state(), "Cinder Reavers", 0), 10, 14);
                        ctx.fix_dice("d6", &faces);
                    },
                    attack(WARDENS, captain, reavers[0], "Hand Crossbow", "shoot"),
                );
                let lost = 10 - on_table(game.state(), &reavers);
                let expected = usize::from(h >= 3 && w >= 4 && s < 5);
                assert_eq!(lost, expected, "hit {h}, wound {w}, save {s}");
                slain += lost;
            }
        }
    }
    assert_eq!(slain, 48);
}

/// Anti-X (004 L154-156): +1 Rend against a target with the keyword, or that fulfils the
/// condition (`charged`): the Thorn Spear's save roll of 5 is not enough for Reavers
/// (Save 5+) that charged this turn, and is when they did not.
#[test]
fn anti_charge_adds_rend_against_a_unit_that_charged() {
    let spears = unit(&bare(), "Thornwall Spears", 0);
    let reavers = unit(&bare(), "Cinder Reavers", 0);
    let lost = |charged: bool| {
        let game = game_with(
            move |ctx| {
                battle(ctx);
                row(ctx, &unit(ctx.state(), "Thornwall Spears", 0)[..1], 10, 16);
                row(ctx, &unit(ctx.state(), "Cinder Reavers", 0), 10, 15);
                if charged {
                    let head = unit(ctx.state(), "Cinder Reavers", 0)[0];
                    ctx.set_counter(Scope::Piece(head), "charged_turn", 1)
                        .unwrap();
                }
                // Two attacks: hit, wound, save 5; then a miss.
                ctx.fix_dice("d6", &["three", "four", "five", "one"]);
            },
            attack(WARDENS, spears[0], reavers[0], "Thorn Spear", "fight"),
        );
        10 - on_table(game.state(), &reavers)
    };
    assert_eq!(lost(false), 0);
    assert_eq!(lost(true), 1);
}

/// Anti-Hero (004 L154): the Ashen Tyrant's Molten Maul (Rend 2, Anti-Hero) against the
/// Warden-Captain (a Hero, Save 3+): a save roll of 5 fails (5 - 3 < 3). Its Crit
/// (Auto-wound) is seen too: a hit roll of 6 goes straight to the save (004 L162).
#[test]
fn anti_hero_adds_rend_and_auto_wound_skips_the_wound_roll() {
    let tyrant = unit(&bare(), "Ashen Tyrant", 0)[0];
    let captain = unit(&bare(), "Warden-Captain", 0)[0];
    let damage = |faces: &'static [&'static str]| {
        let game = game_with(
            move |ctx| {
                battle(ctx);
                row(ctx, &unit(ctx.state(), "Ashen Tyrant", 0), 10, 15);
                row(ctx, &unit(ctx.state(), "Warden-Captain", 0), 10, 17);
                ctx.fix_dice("d6", faces);
                ctx.fix_dice("d3", &["three"]);
            },
            attack(REAVERS, tyrant, captain, "Molten Maul", "fight"),
        );
        counter(game.state(), captain, "damage")
    };
    // Hit 3, wound 3, save 5 (fails against Rend 3), then three misses: D3 (3) damage;
    // the Captain's Ward is none.
    assert_eq!(damage(&["three", "three", "five", "one", "one", "one"]), 3);
    // A save of 6 holds (6 - 3 >= 3).
    assert_eq!(damage(&["three", "three", "six", "one", "one", "one"]), 0);
    // A critical hit (6) then a save of 1: no wound roll is made (a 1 there would fail).
    assert_eq!(damage(&["six", "one", "one", "one", "one"]), 3);
}

/// Charge (+1 Damage) (004 L158): the Stag Riders' Rider's Lance deals 3 instead of 2 when
/// the Riders charged this turn; the points spill from model to model (digest B12:
/// allocated one model at a time), so Reavers of Health 1 lose 3 models instead of 2.
#[test]
fn charge_adds_one_damage_when_the_attacker_charged() {
    let riders = unit(&bare(), "Stag Riders", 0);
    let reavers = unit(&bare(), "Cinder Reavers", 0);
    let lost = |charged: bool| {
        let game = game_with(
            move |ctx| {
                battle(ctx);
                row(ctx, &unit(ctx.state(), "Stag Riders", 0)[..1], 10, 17);
                row(ctx, &unit(ctx.state(), "Cinder Reavers", 0), 10, 15);
                if charged {
                    let head = unit(ctx.state(), "Stag Riders", 0)[0];
                    ctx.set_counter(Scope::Piece(head), "charged_turn", 1)
                        .unwrap();
                }
                // Three Lance attacks: the first gets through (save 1), two miss.
                ctx.fix_dice("d6", &["three", "three", "one", "one", "one"]);
            },
            attack(WARDENS, riders[0], reavers[0], "Rider's Lance", "fight"),
        );
        10 - on_table(game.state(), &reavers)
    };
    assert_eq!(lost(false), 2);
    assert_eq!(lost(true), 3);
}

/// Companion (004 L160): a friendly ability's +1 to hit (the hook `hit_bonus_phase`, as
/// All-out Attack would give) does not reach a Companion weapon: with a hit roll of 3 the
/// Antlers and Hooves (4+) miss; the Rider's Lance (3+, no Companion) is not needed here.
#[test]
fn companion_weapons_ignore_friendly_bonuses() {
    let riders = unit(&bare(), "Stag Riders", 0);
    let reavers = unit(&bare(), "Cinder Reavers", 0);
    let game = game_with(
        move |ctx| {
            battle(ctx);
            let riders = unit(ctx.state(), "Stag Riders", 0);
            row(ctx, &riders[..1], 10, 17);
            row(ctx, &unit(ctx.state(), "Cinder Reavers", 0), 10, 15);
            ctx.set_counter(Scope::Piece(riders[0]), "hit_bonus_phase", 1)
                .unwrap();
            // Two attacks: a 3 (a hit only with the bonus), wound 4, save 1; then a miss.
            ctx.fix_dice("d6", &["three", "four", "one", "one"]);
        },
        attack(
            WARDENS,
            riders[0],
            reavers[0],
            "Antlers and Hooves",
            "fight",
        ),
    );
    assert_eq!(10 - on_table(game.state(), &reavers), 0);
}

/// Crit (2 Hits) (004 L160): a critical hit scores two hits, each with its own wound roll:
/// one Barbed Blades attack slays two Spears.
#[test]
fn crit_two_hits_makes_two_wound_rolls() {
    let reavers = unit(&bare(), "Cinder Reavers", 0);
    let spears = unit(&bare(), "Thornwall Spears", 0);
    let game = game_with(
        move |ctx| {
            battle(ctx);
            row(ctx, &unit(ctx.state(), "Cinder Reavers", 0)[..1], 10, 15);
            row(ctx, &unit(ctx.state(), "Thornwall Spears", 0), 10, 16);
            // Attack 1: a 6, then wound 4 and save 1, twice; attack 2: a miss.
            ctx.fix_dice("d6", &["six", "four", "one", "four", "one", "one"]);
        },
        attack(REAVERS, reavers[0], spears[0], "Barbed Blades", "fight"),
    );
    assert_eq!(10 - on_table(game.state(), &spears), 2);
}

/// Crit (Mortal) (004 L164): a critical hit inflicts mortal damage equal to Damage and the
/// attack ends: no wound or save roll (the next faces, all 1s, would have failed).
#[test]
fn crit_mortal_skips_the_wound_and_save_rolls() {
    let harpies = unit(&bare(), "Cinderwing Harpies", 0);
    let spears = unit(&bare(), "Thornwall Spears", 0);
    let game = game_with(
        move |ctx| {
            battle(ctx);
            row(
                ctx,
                &unit(ctx.state(), "Cinderwing Harpies", 0)[..1],
                10,
                15,
            );
            row(ctx, &unit(ctx.state(), "Thornwall Spears", 0), 10, 16);
            ctx.fix_dice("d6", &["six", "one", "one"]);
        },
        attack(
            REAVERS,
            harpies[0],
            spears[0],
            "Smouldering Talons",
            "fight",
        ),
    );
    assert_eq!(10 - on_table(game.state(), &spears), 1);
}

/// Cover (004 L45): -1 to hit against a unit wholly on a Cover feature, unless it charged
/// this turn or has FLY: a hit roll of 3 with the Hand Crossbow (3+) misses Reavers on the
/// Lava Vent, and hits them when they charged, and hits Harpies (FLY) there.
#[test]
fn cover_subtracts_one_from_hit_rolls_unless_the_target_charged_or_flies() {
    let captain = unit(&bare(), "Warden-Captain", 0)[0];
    let shot = |kind: &'static str, charged: bool| {
        let target = unit(&bare(), kind, 0);
        let game = game_with(
            move |ctx| {
                battle(ctx);
                // The Lava Vent (small: Cover, Unstable), 4" x 3", origin (20", 10"); its
                // rim is its first inch along y; its floor is 0.5" tall.
                terrain(ctx, "Lava Vent", 20, 10);
                let models = unit(ctx.state(), kind, 0);
                ctx.place_piece(
                    models[0],
                    Some(Position::Table {
                        at: Point::new(22 * IN, 12 * IN),
                        facing: (0, 0),
                    }),
                    vec![],
                    "set_up",
                )
                .unwrap();
                if charged {
                    ctx.set_counter(Scope::Piece(models[0]), "charged_turn", 1)
                        .unwrap();
                }
                row(ctx, &unit(ctx.state(), "Warden-Captain", 0), 22, 18);
                ctx.fix_dice("d6", &["three", "six", "one"]);
            },
            attack(WARDENS, captain, target[0], "Hand Crossbow", "shoot"),
        );
        // Hit: the model is slain (Reavers, Health 1) or damaged (Harpies, Health 2).
        on_table(game.state(), &target[..1]) == 0 || counter(game.state(), target[0], "damage") > 0
    };
    assert!(!shot("Cinder Reavers", false), "in cover: a 3 misses");
    assert!(shot("Cinder Reavers", true), "charged: no cover");
    assert!(shot("Cinderwing Harpies", false), "FLY: no cover");
}

/// Ward (digest B12): a D6 for each point of damage, at or above the Ward it is negated:
/// the Ashen Tyrant (Ward 6+) shrugs off a point with a 6.
#[test]
fn a_ward_roll_negates_a_point_of_damage() {
    let captain = unit(&bare(), "Warden-Captain", 0)[0];
    let tyrant = unit(&bare(), "Ashen Tyrant", 0)[0];
    let damage = |ward: &'static str| {
        let game = game_with(
            move |ctx| {
                battle(ctx);
                row(ctx, &unit(ctx.state(), "Warden-Captain", 0), 10, 20);
                row(ctx, &unit(ctx.state(), "Ashen Tyrant", 0), 10, 14);
                // Hand Crossbow: hit, wound, save 1; then the ward roll.
                ctx.fix_dice("d6", &["three", "four", "one", ward]);
            },
            attack(WARDENS, captain, tyrant, "Hand Crossbow", "shoot"),
        );
        counter(game.state(), tyrant, "damage")
    };
    assert_eq!(damage("five"), 1);
    assert_eq!(damage("six"), 0);
}

// ---------------------------------------------------------------------------------------
// The battle round: priority, underdog, seizing the initiative (004 L15-17, L33-39)
// ---------------------------------------------------------------------------------------

/// A round-2 priority roll: seat 0 went first in round 1 (`first_seat` 0); `faces` are
/// seat 0's D6 then seat 1's; `glory` each seat's victory points.
fn priority(faces: [&'static str; 2], glory: [i64; 2]) -> Game<Scenario> {
    game_with(
        move |ctx| {
            battle(ctx);
            set(ctx, Scope::Game, "round", 2);
            set(ctx, Scope::Game, "first_seat", 0);
            set(ctx, Scope::Player(REAVERS), "glory", glory[0]);
            set(ctx, Scope::Player(WARDENS), "glory", glory[1]);
            ctx.fix_dice("d6", &faces);
        },
        vec![step("priority_roll", REAVERS, &[])],
    )
}

/// The priority roll (004 L35): the higher D6 chooses who goes first; on a tie (not in the
/// seed, digest D2.1; ours) the player who went first last round chooses.
#[test]
fn the_priority_roll_winner_chooses_and_a_tie_goes_to_last_rounds_first_player() {
    let game = priority(["two", "five"], [0, 0]);
    assert_eq!(pending(&game).expect("a choice").player, WARDENS);
    let game = priority(["four", "four"], [0, 0]);
    assert_eq!(pending(&game).expect("a choice").player, REAVERS);
}

/// Seizing the initiative (004 L17): the player who went second last round wins priority
/// and goes first: they draw no battle tactics this round, unless they are the underdog
/// (fewer victory points, digest B12) trailing by 5 or more. The underdog is named (L36);
/// none on equal points.
#[test]
fn seizing_the_initiative_costs_the_tactic_draw_unless_the_underdog_trails_by_five() {
    let seize = |glory: [i64; 2]| {
        let mut game = priority(["two", "five"], glory);
        submit(&mut game, WARDENS, option("take the first turn"));
        let state = game.state();
        (
            game_counter(state, "first_seat"),
            game_counter(state, "underdog_seat"),
            game_counter(state, "no_draw_seat"),
        )
    };
    // Even: no underdog; the Wardens seized: no draw (seat 1 + 1).
    assert_eq!(seize([0, 0]), (1, 0, 2));
    // Wardens behind by 4: underdog, still no draw.
    assert_eq!(seize([4, 0]), (1, 2, 2));
    // Behind by 5: the underdog draws.
    assert_eq!(seize([5, 0]), (1, 2, 0));
    // Winning priority and giving the first turn away is no seizing.
    let mut game = priority(["two", "five"], [0, 0]);
    submit(&mut game, WARDENS, option("give the first turn"));
    assert_eq!(game_counter(game.state(), "no_draw_seat"), 0);
    assert_eq!(game_counter(game.state(), "first_seat"), 0);
}

/// Battle tactics (004 L19-22): in round 1, draw 3; later, discard any, then draw back up
/// to 3.
#[test]
fn battle_tactics_are_drawn_up_to_three_after_discards() {
    let hand = |state: &GameState, p: PlayerId| {
        state.zones[&gloam_core::ZoneId::new(p, "battle_tactic_hand")]
            .cards
            .len()
    };
    let game = game_with(
        battle,
        vec![step("tactics_draw", REAVERS, &[("count", Value::Int(0))])],
    );
    assert_eq!(hand(game.state(), REAVERS), 3);
    let mut game = game_with(
        |ctx| {
            battle(ctx);
            set(ctx, Scope::Game, "round", 2);
        },
        vec![
            step("tactics_draw", REAVERS, &[("count", Value::Int(0))]),
            step("tactics_draw", REAVERS, &[("count", Value::Int(0))]),
        ],
    );
    // The first frame drew 3 (round 2, empty hand), the second offers discards.
    let request = pending(&game).expect("discard?");
    let asked = options(&request);
    assert_eq!(asked.len(), 4, "{asked:?}");
    submit(&mut game, REAVERS, option(&asked[1]));
    let request = pending(&game).expect("discard more?");
    submit(&mut game, REAVERS, option(&options(&request)[0]));
    assert_eq!(hand(game.state(), REAVERS), 3);
    let discarded = game.state().zones[&gloam_core::ZoneId::new(REAVERS, "battle_tactic_discard")]
        .cards
        .len();
    assert_eq!(discarded, 1);
}

// ---------------------------------------------------------------------------------------
// Victory points (004 L24-31) and Call for Reinforcements (004 L51-64)
// ---------------------------------------------------------------------------------------

/// Victory points at the end of your turn (004 L28-30): 1 for an objective, 1 for two or
/// more, 1 for more than the opponent. Control (digest B12): the summed Control within 3"
/// of the marker.
#[test]
fn victory_points_for_objectives_at_the_end_of_the_turn() {
    let game = game_with(
        |ctx| {
            battle(ctx);
            // Reavers on South Home (22", 6") and West Centre (11", 15"); Wardens on East
            // Centre (33", 15").
            let reavers = unit(ctx.state(), "Cinder Reavers", 0);
            row(ctx, &reavers[..3], 21, 6);
            row(ctx, &reavers[3..6], 10, 14);
            let spears = unit(ctx.state(), "Thornwall Spears", 0);
            row(ctx, &spears[..3], 32, 16);
        },
        vec![step("end_of_turn", REAVERS, &[])],
    );
    let glory = |p: PlayerId| {
        game.state().players[p.0 as usize]
            .counters
            .get("glory")
            .copied()
            .unwrap_or(0)
    };
    assert_eq!(glory(REAVERS), 3);
    assert_eq!(glory(WARDENS), 0, "points are scored in one's own turn");
}

/// Call for Reinforcements (004 L51-64): a destroyed Reinforcements unit is set up again
/// wholly within friendly territory and wholly within 6" of the battlefield edge, not in
/// combat; once per turn, and each unit only once.
#[test]
fn a_destroyed_reinforcements_unit_comes_back_once_near_an_edge() {
    let arrange = |ctx: &mut Ctx<'_>| {
        battle(ctx);
        // The first Spears unit was deployed and destroyed (no model on the table).
        let archers = unit(ctx.state(), "Bramble Archers", 0);
        row(ctx, &archers, 30, 25);
    };
    let mut game = game_with(
        arrange,
        vec![step("movement_phase", WARDENS, &[("count", Value::Int(0))])],
    );
    let request = pending(&game).expect("movement");
    let asked = options(&request);
    assert!(
        asked.contains(&"Call for Reinforcements".to_owned()),
        "{asked:?}"
    );
    submit(&mut game, WARDENS, option("Call for Reinforcements"));
    let request = pending(&game).expect("where the replacement goes");
    let anchor = points(&request)[0];
    submit(&mut game, WARDENS, Choice::Point(anchor));
    let spears = unit(game.state(), "Thornwall Spears", 0);
    let state = game.state();
    // Every Spears unit on the table: the replaced one is whole again.
    let back = on_table(state, &spears);
    assert_eq!(back, 10);
    let mut scene = scene(state);
    scene.outline = vec![
        Point::new(0, 0),
        Point::new(44 * IN, 0),
        Point::new(44 * IN, 30 * IN),
        Point::new(0, 30 * IN),
    ];
    let g = group(state, spears[0]);
    assert!(
        scene
            .wholly_within(
                Subject::Group(g),
                &gloam_core::Target::Edge,
                Length::inches(6)
            )
            .unwrap()
    );
    for id in &spears {
        let p = at(state, *id).unwrap();
        assert!(
            p.y - 160 >= 15 * IN,
            "wholly within the North territory: {p:?}"
        );
    }
    assert_eq!(counter(state, spears[0], "replaced"), 1);
    // The same turn (once per turn), and later (once per unit): not offered again. Here the
    // other Spears unit was never destroyed: nothing else to replace.
    let request = pending(&game).expect("movement goes on");
    assert!(!options(&request).contains(&"Call for Reinforcements".to_owned()));
}

// ---------------------------------------------------------------------------------------
// The pre-battle sequence (004 L3-9) and deployment (004 L11-13)
// ---------------------------------------------------------------------------------------

/// 004 L5-6: the roll-off's winner picks attacker or defender; the attacker picks their
/// regiment ability and enhancement first.
#[test]
fn the_roll_off_winner_picks_the_attacker_who_picks_army_choices_first() {
    let mut game = game_with(
        |ctx| ctx.fix_dice("d6", &["two", "five"]),
        vec![step("roll_off", REAVERS, &[])],
    );
    let request = pending(&game).expect("attacker or defender");
    assert_eq!(request.player, WARDENS);
    submit(&mut game, WARDENS, option("be the defender"));
    assert_eq!(game_counter(game.state(), "attacker_seat"), 0);
    let request = pending(&game).expect("army choices");
    assert_eq!(request.player, REAVERS, "the attacker picks first");
    assert_eq!(options(&request), ["Fanned Flames", "Smouldering Hatred"]);
}

/// 004 L9: each terrain feature the defender sets up is wholly within their territory,
/// more than 6" from other features, more than 3" from both long edges and from enemy
/// territory, and not on an objective.
#[test]
fn terrain_is_set_up_within_its_distance_constraints() {
    let mut game = game_with(
        |ctx| {
            battle(ctx);
            // The attacker (Reavers, South) already set the Lava Vent up at (4", 5").
            terrain(ctx, "Lava Vent", 4, 5);
        },
        vec![step("terrain_setup", WARDENS, &[("count", Value::Int(0))])],
    );
    let request = pending(&game).expect("which large feature");
    assert_eq!(options(&request), ["Shattered Forge", "Cinder Mound"]);
    submit(&mut game, WARDENS, option("Shattered Forge"));
    let request = pending(&game).expect("where");
    let candidates = points(&request);
    assert!(!candidates.is_empty());
    for c in &candidates {
        // The Forge is 8" x 5" from its origin. North territory is y >= 15".
        let (x0, y0, x1, y1) = (c.x, c.y, c.x + 8 * IN, c.y + 5 * IN);
        assert!(
            y0 - 15 * IN > 3 * IN,
            "more than 3in from enemy territory: {c:?}"
        );
        assert!(
            30 * IN - y1 > 3 * IN,
            "more than 3in from the long edge: {c:?}"
        );
        assert!(x0 >= 0 && x1 <= 44 * IN, "on the table: {c:?}");
        // North Home objective (22", 24"): no part within the 40mm marker.
        let (ox, oy) = (22 * IN, 24 * IN);
        let dx = (x0 - ox).max(0).max(ox - x1);
        let dy = (y0 - oy).max(0).max(oy - y1);
        assert!(dx * dx + dy * dy > 200 * 200, "not on an objective: {c:?}");
    }
}

/// 004 L13: each unit is set up wholly within friendly territory and more than 6" from
/// enemy territory.
#[test]
fn units_deploy_wholly_within_their_territory_more_than_six_inches_from_the_enemy() {
    // No unit deployed yet: the attacker's first unit (the Ashen Tyrant) is asked for.
    let game = game_with(
        |ctx| {
            set(ctx, Scope::Player(REAVERS), "territory", 0);
            set(ctx, Scope::Player(WARDENS), "territory", 1);
        },
        vec![step("deploy", REAVERS, &[("count", Value::Int(0))])],
    );
    let request = pending(&game).expect("where the first unit goes");
    let candidates = points(&request);
    assert!(!candidates.is_empty());
    // The Ashen Tyrant (50mm base, radius 250): the centre's y + 250 is more than 6" from
    // y = 15" (the North territory).
    for c in candidates {
        assert!(c.y - 250 >= 0 && 15 * IN - (c.y + 250) > 6 * IN, "{c:?}");
    }
}

/// Combat range at its exact boundary (digest B12: 3", measured base to base; exactly 3"
/// is within): a unit exactly 3" from an enemy is in combat (offered Retreat, 004 L106),
/// a tenth of a millimetre farther it is not (offered Normal Move and Run, L82, L94).
#[test]
fn combat_range_is_three_inches_exactly() {
    let offered = |gap: i64| {
        let arrange = move |ctx: &mut Ctx<'_>| {
            battle(ctx);
            let captain = unit(ctx.state(), "Warden-Captain", 0);
            let tyrant = unit(ctx.state(), "Ashen Tyrant", 0);
            // Bases of 40mm and 50mm: centres 200 + 250 + gap apart.
            ctx.place_piece(
                captain[0],
                Some(Position::Table {
                    at: Point::new(10 * IN, 20 * IN),
                    facing: (0, 0),
                }),
                vec![],
                "set_up",
            )
            .unwrap();
            ctx.place_piece(
                tyrant[0],
                Some(Position::Table {
                    at: Point::new(10 * IN + 450 + gap, 20 * IN),
                    facing: (0, 0),
                }),
                vec![],
                "set_up",
            )
            .unwrap();
        };
        let game = game_with(
            arrange,
            vec![step("movement_phase", WARDENS, &[("count", Value::Int(0))])],
        );
        options(&pending(&game).expect("movement"))
    };
    let at_three = offered(3 * IN);
    assert!(
        at_three.contains(&"Retreat: Warden-Captain".to_owned()),
        "{at_three:?}"
    );
    assert!(!at_three.contains(&"Normal Move: Warden-Captain".to_owned()));
    let past = offered(3 * IN + 1);
    assert!(
        past.contains(&"Normal Move: Warden-Captain".to_owned()),
        "{past:?}"
    );
    assert!(past.contains(&"Run: Warden-Captain".to_owned()));
    assert!(!past.contains(&"Retreat: Warden-Captain".to_owned()));
}
