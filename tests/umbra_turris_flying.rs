//! Umbra Turris's flyers, Swooping Attacks, swimming and Ambush played from the data (seed
//! 003, L346-350, L370-374, L478-500, L722-724, L846-848, L1424; digest A7, A10, A11.2, A13).
//! Each scenario arranges heroes (and terrain pieces) on the table through the kernel's `Ctx`,
//! gives a hero the keyword `flying` or `ambush` where the seed names no race or profession
//! that has it, loads the dice with `fix_dice`, runs one step of the flow and answers its
//! requests. Each test cites the seed lines it checks.

use gloam::core::{
    Answer, Choice, Ctx, Frame, Game, GameState, Options, PieceId, Point, Position, Scope, Value,
};
use gloam::engine::RulesetGame;
use gloam::sim::check_invariants;

mod scenario;
use scenario::{Scenario, frame, has_said, party_duel, pending, piece, said, scenario, stand};

/// Two test parties, legal under the building rules: Lawful Gnomes with a Wizard of the
/// Domain of Mind (War eagle, 003 L720-724) and a Master Gamekeeper (L1420-1424), and Evil
/// Mortenian Humans with an archer.
const PARTIES: &str = r#"
party "Test Sky Wardens" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = lawful
    points = 1500
    source = "ours"
    hero "Sky Captain" { race = "Gnomes" profession = "Soldier" leader = true equipment = ["Spear"] }
    hero "Sky Wizard" { race = "Gnomes" profession = "Wizard" equipment = ["Staff, Ritual weapon"] domains = ["Mind", "Air"] }
    hero "Sky Keeper" { race = "Gnomes" profession = "Master Gamekeeper" equipment = ["Bow"] }
    hero "Sky Soldier 1" { race = "Gnomes" profession = "Soldier" equipment = ["Spear"] }
    hero "Sky Soldier 2" { race = "Gnomes" profession = "Soldier" equipment = ["Spear"] }
    hero "Sky Soldier 3" { race = "Gnomes" profession = "Soldier" equipment = ["Spear"] }
}

party "Test Marsh Raiders" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = evil
    points = 1500
    source = "ours"
    hero "Marsh Captain" { race = "Humans" subrace = "Mortenians" profession = "Soldier" leader = true equipment = ["Spear"] }
    hero "Marsh Archer" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Bow"] }
    hero "Marsh Soldier 1" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Marsh Soldier 2" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Marsh Soldier 3" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Marsh Soldier 4" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
}
"#;

const CM: i64 = 100;

fn rules() -> RulesetGame {
    party_duel(PARTIES, "Test Sky Wardens", "Test Marsh Raiders")
}

fn id(state: &GameState, kind: &str) -> PieceId {
    piece(state, kind)
}

/// Gives the hero `kind` the keyword `keyword` (no race or profession of the seed has
/// `ambush`; only the War Eagle flies).
fn keyword(ctx: &mut Ctx<'_>, kind: &str, keyword: &str) {
    let fighter = piece(ctx.state(), kind);
    ctx.set_keyword(fighter, keyword, true).expect("keyword");
}

/// Gives the hero `kind` a flyer's 30 cm M (the flow's `start` does it in a battle).
fn flyer(ctx: &mut Ctx<'_>, kind: &str) {
    keyword(ctx, kind, "flying");
    scenario::modify(ctx, kind, "m", 15 * CM);
}

fn set(ctx: &mut Ctx<'_>, kind: &str, name: &str, value: i64) {
    let fighter = piece(ctx.state(), kind);
    ctx.set_counter(Scope::Piece(fighter), name, value)
        .expect("counter");
}

fn token(ctx: &mut Ctx<'_>, kind: &str, name: &str) {
    let fighter = piece(ctx.state(), kind);
    ctx.set_tokens(Scope::Piece(fighter), name, 1)
        .expect("token");
}

fn at(state: &GameState, kind: &str) -> Option<Point> {
    state.pieces[&id(state, kind)]
        .position
        .and_then(|p| p.point())
}

fn damage(state: &GameState, kind: &str) -> i64 {
    state.pieces[&id(state, kind)]
        .counters
        .get("damage")
        .copied()
        .unwrap_or(0)
}

fn counter(state: &GameState, kind: &str, name: &str) -> i64 {
    state.pieces[&id(state, kind)]
        .counters
        .get(name)
        .copied()
        .unwrap_or(0)
}

/// The pieces named `kind` standing on the table.
fn on_table(state: &GameState, kind: &str) -> Vec<PieceId> {
    state
        .pieces
        .values()
        .filter(|p| p.kind == kind && p.position.and_then(|at| at.point()).is_some())
        .map(|p| p.id)
        .collect()
}

/// One step `step` for `fighter` (and `target`), its owner acting, after `arrange`, the d6
/// loaded with `dice`.
fn run(
    step: &str,
    fighter: &'static str,
    target: Option<&'static str>,
    extra: Vec<(&'static str, Value)>,
    dice: &'static [&'static str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let rules = rules();
    let probe = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = probe.state();
    let owner = state.pieces[&id(state, fighter)].owner;
    let mut vars = vec![
        ("player", Value::Player(owner)),
        ("fighter", Value::Piece(id(state, fighter))),
    ];
    if let Some(target) = target {
        vars.push(("target", Value::Piece(id(state, target))));
    }
    vars.extend(extra);
    scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            arrange(ctx);
            ctx.fix_dice("d6", dice);
        },
        vec![frame(step, &vars)],
    )
}

/// The choices of the first pending request, cards and pieces by name.
fn offered(game: &Game<Scenario>) -> Vec<String> {
    let request = pending(game).expect("a request");
    let state = game.state();
    match &request.options {
        Options::One { choices } => choices
            .iter()
            .map(|choice| match choice {
                Choice::Card(card) => state.cards[card].name.clone(),
                Choice::Piece(piece) => state.pieces[piece].kind.clone(),
                other => other.to_string(),
            })
            .collect(),
        other => panic!("not a single choice: {other:?}"),
    }
}

/// Answers the first pending request with the choice named `name`.
fn choose(game: &mut Game<Scenario>, name: &str) {
    let request = pending(game).expect("a request");
    let state = game.state();
    let Options::One { choices } = &request.options else {
        panic!("not a single choice")
    };
    let choice = choices
        .iter()
        .find(|choice| match choice {
            Choice::Card(card) => state.cards[card].name == name,
            Choice::Piece(piece) => state.pieces[piece].kind == name,
            Choice::Option(text) => text == name,
            _ => false,
        })
        .unwrap_or_else(|| panic!("{name} is not offered: {:?}", offered(game)))
        .clone();
    game.submit(request.player, Answer::One(choice))
        .unwrap_or_else(|error| panic!("{error}"));
    check_invariants(game.state()).expect("invariants");
}

/// Sends the point `offset` (a move or a set-up anchor); whether it was taken.
fn send_point(game: &mut Game<Scenario>, offset: Point) -> bool {
    let request = pending(game).expect("a request");
    game.submit(request.player, Answer::One(Choice::Point(offset)))
        .is_ok()
}

/// Answers a shot's requests: its target `target`, then no aiming.
fn shoot_at(game: &mut Game<Scenario>, target: &str) {
    while let Some(request) = pending(game) {
        if request.prompt.starts_with("Whom") {
            choose(game, target);
        } else if request.prompt.starts_with("Aim") {
            choose(game, "no aiming");
        } else {
            break;
        }
    }
}

fn place(ctx: &mut Ctx<'_>, kind: &str, x: i64, y: i64) {
    stand(ctx, kind, x, y, (0, 1));
}

fn frame_of(step: &str, vars: &[(&str, Value)]) -> Frame {
    frame(step, vars)
}

// ---- Flying (003 L370-374) ----------------------------------------------------------------

#[test]
fn a_flyer_flies_30_cm_over_models_and_walls_and_a_walker_does_not() {
    // 003 L372: a flyer moves up to 30 cm, its movement not limited by terrain or any other
    // obstacle; a walker never crosses a model (L310) nor a wall (L322).
    let arrange = |ctx: &mut Ctx<'_>| {
        place(ctx, "Marsh Soldier 1", 35 * CM, 10 * CM);
        place(ctx, "Marsh Soldier 2", 35 * CM, 14 * CM);
        place(ctx, "Palisade", 35 * CM, 20 * CM);
        place(ctx, "Sky Captain", 60 * CM, 60 * CM);
    };
    let mut flies = run("move", "Marsh Soldier 1", None, vec![], &[], move |ctx| {
        arrange(ctx);
        flyer(ctx, "Marsh Soldier 1");
    });
    assert!(
        send_point(&mut flies, Point::new(0, 25 * CM)),
        "{:?}",
        said(&flies)
    );
    choose(&mut flies, "as it stands");
    assert_eq!(
        at(flies.state(), "Marsh Soldier 1"),
        Some(Point::new(35 * CM, 35 * CM))
    );
    // No landing: no swim, jump or fall is rolled for it.
    assert!(!has_said(&flies, "jumps"));
    // 30 cm at most.
    let mut far = run("move", "Marsh Soldier 1", None, vec![], &[], move |ctx| {
        arrange(ctx);
        flyer(ctx, "Marsh Soldier 1");
    });
    assert!(!send_point(&mut far, Point::new(0, 31 * CM)));
    let mut walks = run("move", "Marsh Soldier 1", None, vec![], &[], arrange);
    assert!(!send_point(&mut walks, Point::new(0, 25 * CM)));
    assert_eq!(
        at(walks.state(), "Marsh Soldier 1"),
        Some(Point::new(35 * CM, 10 * CM))
    );
}

#[test]
fn a_flyer_is_charged_only_by_a_flyer_and_cannot_hide() {
    // 003 L372: a flyer begins and ends its turn in the air and cannot be targeted by
    // Charges, and cannot Hide; flyers fight each other as non-flyers do (L484).
    let arrange = |ctx: &mut Ctx<'_>| {
        place(ctx, "Marsh Soldier 1", 35 * CM, 10 * CM);
        place(ctx, "Sky Soldier 1", 35 * CM, 20 * CM);
        flyer(ctx, "Sky Soldier 1");
    };
    let walker = run("activation", "Marsh Soldier 1", None, vec![], &[], arrange);
    assert!(
        !offered(&walker).contains(&"charge".to_owned()),
        "{:?}",
        offered(&walker)
    );
    let winged = run(
        "activation",
        "Marsh Soldier 1",
        None,
        vec![],
        &[],
        move |ctx| {
            arrange(ctx);
            flyer(ctx, "Marsh Soldier 1");
        },
    );
    let options = offered(&winged);
    assert!(options.contains(&"charge".to_owned()), "{options:?}");
    assert!(!options.contains(&"hide".to_owned()), "{options:?}");
}

#[test]
fn a_flyer_in_contact_is_not_locked_in_combat() {
    // 003 L480: after a Swooping Attack the flyer rises back into the air, though still in
    // base contact; L488: flyers fighting each other are not locked and move freely out of it.
    let touching = |ctx: &mut Ctx<'_>| {
        place(ctx, "Marsh Soldier 1", 35 * CM, 10 * CM);
        place(ctx, "Sky Soldier 1", 35 * CM, 1250);
    };
    let swooped = run(
        "activation",
        "Marsh Soldier 1",
        None,
        vec![],
        &[],
        move |ctx| {
            touching(ctx);
            flyer(ctx, "Marsh Soldier 1");
        },
    );
    let options = offered(&swooped);
    assert!(options.contains(&"move".to_owned()), "{options:?}");
    assert!(!options.contains(&"disengage".to_owned()), "{options:?}");
    assert!(!options.contains(&"fight".to_owned()), "{options:?}");
    // The walker it swooped on is not locked either.
    let walker = run(
        "activation",
        "Sky Soldier 1",
        None,
        vec![],
        &[],
        move |ctx| {
            touching(ctx);
            flyer(ctx, "Marsh Soldier 1");
        },
    );
    let options = offered(&walker);
    assert!(options.contains(&"move".to_owned()), "{options:?}");
    assert!(!options.contains(&"fight".to_owned()), "{options:?}");
    // Two flyers in contact: free to move, and free to fight.
    let both = run(
        "activation",
        "Marsh Soldier 1",
        None,
        vec![],
        &[],
        move |ctx| {
            touching(ctx);
            flyer(ctx, "Marsh Soldier 1");
            flyer(ctx, "Sky Soldier 1");
        },
    );
    let options = offered(&both);
    assert!(options.contains(&"move".to_owned()), "{options:?}");
    assert!(options.contains(&"fight".to_owned()), "{options:?}");
    assert!(!options.contains(&"disengage".to_owned()), "{options:?}");
}

/// A flyer (Marsh Soldier 1) charges Sky Soldier 1, 20 cm ahead: the target, then the end of
/// the charge in base contact, then the weapon and location (no parry), then `strike`.
fn swoop(dice: &'static [&'static str], terrain: bool) -> Game<Scenario> {
    let mut game = run(
        "charge",
        "Marsh Soldier 1",
        None,
        vec![],
        dice,
        move |ctx| {
            place(ctx, "Marsh Soldier 1", 35 * CM, 10 * CM);
            place(ctx, "Sky Soldier 1", 35 * CM, 30 * CM);
            // A walker in the way: the flyer passes over it (003 L372).
            place(ctx, "Marsh Soldier 2", 35 * CM, 20 * CM);
            if terrain {
                place(ctx, "Gravestones", 35 * CM, 30 * CM);
            }
            flyer(ctx, "Marsh Soldier 1");
        },
    );
    if offered(&game).contains(&"Sky Soldier 1".to_owned()) {
        choose(&mut game, "Sky Soldier 1");
    }
    assert!(
        send_point(&mut game, Point::new(0, 1750)),
        "{:?}",
        said(&game)
    );
    game
}

#[test]
fn a_swooping_attack_is_not_parried_nor_countered_and_the_better_roll_hurts() {
    // 003 L480: a flyer's charge is a Swooping Attack: damage is rolled at once, the enemy
    // cannot parry, a counter-attack does not work, no Precision Strike; the better result
    // inflicts the difference, so a defender who rolls better hurts the flyer.
    let mut game = swoop(&["1", "6"], false);
    assert!(has_said(&game, "swoops on"), "{:?}", said(&game));
    // No secret guess and no counter-attack offered to the Spear (a counter-attack weapon,
    // L1747): the attacker chooses weapon and location openly.
    let request = pending(&game).expect("a request");
    assert!(
        request.prompt.contains("cannot parry"),
        "{}",
        request.prompt
    );
    choose(&mut game, "Spear / body");
    let strikes = offered(&game);
    assert!(!strikes.contains(&"precision".to_owned()), "{strikes:?}");
    choose(&mut game, "normal");
    // 1 + WS 7 + Spear 1 = 9 against 6 + WS 6 = 12: the flyer loses 3.
    assert!(
        has_said(&game, "normal strike: 9 against 12"),
        "{:?}",
        said(&game)
    );
    assert!(has_said(&game, "strikes back at the swooping"));
    assert_eq!(damage(game.state(), "Marsh Soldier 1"), 3);
    assert_eq!(damage(game.state(), "Sky Soldier 1"), 0);
    // The flyer won (6 + 7 + 1 = 14 against 1 + 6 = 7): the enemy loses the difference.
    let mut won = swoop(&["6", "1", "1"], false);
    choose(&mut won, "Spear / body");
    choose(&mut won, "normal");
    assert_eq!(damage(won.state(), "Marsh Soldier 1"), 0);
    assert!(damage(won.state(), "Sky Soldier 1") > 0, "{:?}", said(&won));
}

#[test]
fn a_swoop_at_a_model_in_terrain_costs_the_flyer_2_for_each_1() {
    // 003 L500: a flyer making a Swooping Attack against a model inside terrain takes 2
    // damage for each 1 rolled on its attack roll.
    let mut game = swoop(&["1", "6"], true);
    choose(&mut game, "Spear / body");
    choose(&mut game, "normal");
    assert!(
        has_said(&game, "is hurt swooping into the terrain"),
        "{:?}",
        said(&game)
    );
    // 2 for the 1, and 3 for the defender's better roll.
    assert_eq!(damage(game.state(), "Marsh Soldier 1"), 5);
}

#[test]
fn shooting_between_a_flyer_and_a_walker_adds_10_cm_to_the_range() {
    // 003 L492: a non-flyer shooting a flyer, or the other way round, adds 10 cm to the
    // measured range; the Bow reaches 60 cm (L1765). 55 cm apart, base to base.
    let arrange = |ctx: &mut Ctx<'_>| {
        place(ctx, "Marsh Archer", 35 * CM, 5 * CM);
        place(ctx, "Sky Soldier 1", 35 * CM, 5 * CM + 55 * CM + 250);
    };
    let mut at_flyer = run("shoot", "Marsh Archer", None, vec![], &["1"], move |ctx| {
        arrange(ctx);
        flyer(ctx, "Sky Soldier 1");
    });
    shoot_at(&mut at_flyer, "Sky Soldier 1");
    assert!(has_said(&at_flyer, "out of range"), "{:?}", said(&at_flyer));
    let mut at_walker = run("shoot", "Marsh Archer", None, vec![], &["1"], arrange);
    shoot_at(&mut at_walker, "Sky Soldier 1");
    assert!(
        !has_said(&at_walker, "out of range"),
        "{:?}",
        said(&at_walker)
    );
    assert!(has_said(&at_walker, "misses"), "{:?}", said(&at_walker));
    // Two flyers: measured normally.
    let mut both = run("shoot", "Marsh Archer", None, vec![], &["1"], move |ctx| {
        arrange(ctx);
        flyer(ctx, "Sky Soldier 1");
        flyer(ctx, "Marsh Archer");
    });
    shoot_at(&mut both, "Sky Soldier 1");
    assert!(!has_said(&both, "out of range"), "{:?}", said(&both));
}

#[test]
fn a_flyer_that_shot_moves_up_to_15_cm() {
    // 003 L492: a flyer with a ranged weapon can shoot and also move up to 15 cm in the same
    // turn.
    let mut game = run("shoot", "Marsh Archer", None, vec![], &["1"], |ctx| {
        place(ctx, "Marsh Archer", 35 * CM, 5 * CM);
        place(ctx, "Sky Soldier 1", 35 * CM, 30 * CM);
        flyer(ctx, "Marsh Archer");
    });
    shoot_at(&mut game, "Sky Soldier 1");
    assert_eq!(counter(game.state(), "Marsh Archer", "flew_shot"), 1);
    assert_eq!(counter(game.state(), "Marsh Archer", "sp_move"), 1);
    let after = |ctx: &mut Ctx<'_>| {
        place(ctx, "Marsh Archer", 35 * CM, 5 * CM);
        flyer(ctx, "Marsh Archer");
        set(ctx, "Marsh Archer", "flew_shot", 1);
        set(ctx, "Marsh Archer", "sp_move", 1);
    };
    let mut near = run("move", "Marsh Archer", None, vec![], &[], after);
    assert!(send_point(&mut near, Point::new(15 * CM, 0)));
    choose(&mut near, "as it stands");
    assert_eq!(
        at(near.state(), "Marsh Archer"),
        Some(Point::new(50 * CM, 5 * CM))
    );
    let mut far = run("move", "Marsh Archer", None, vec![], &[], after);
    assert!(!send_point(&mut far, Point::new(16 * CM, 0)));
}

#[test]
fn a_flyer_in_terrain_gets_no_cover() {
    // 003 L372: a flyer hovering over terrain cannot benefit from any cover (L570-572: a
    // target wholly on a cover piece, -2 to the shot's wound roll).
    let shot = |flying: bool| {
        let game = run(
            "shot_wound",
            "Marsh Archer",
            Some("Sky Soldier 1"),
            vec![
                ("weapon", Value::Str("Bow".into())),
                ("count", Value::Int(0)),
                ("data", Value::Str("aimed".into())),
            ],
            &["3", "3", "3", "3", "1", "1", "1"],
            move |ctx| {
                place(ctx, "Marsh Archer", 35 * CM, 5 * CM);
                place(ctx, "Sky Soldier 1", 35 * CM, 30 * CM);
                place(ctx, "Gravestones", 35 * CM, 30 * CM);
                // Static: +1 (003 L578-580).
                token(ctx, "Sky Soldier 1", "action_die");
                if flying {
                    flyer(ctx, "Sky Soldier 1");
                }
            },
        );
        damage(game.state(), "Sky Soldier 1")
    };
    // 3 + 3 + BS 7 + 1 (static) - 2 (cover) = 12 against 3 + 3 + T 6 = 12: no wound (a tie
    // fails); the flyer, without cover, is wounded (14 against 12).
    assert_eq!(shot(false), 0);
    assert!(shot(true) > 0);
}

#[test]
fn a_flyer_at_0_wounds_crashes_and_is_removed_at_once() {
    // 003 L496: flying models reduced to 0 Wounds are immediately removed from the battlefield.
    let rules = rules();
    let probe = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let soldier = id(probe.state(), "Sky Soldier 1");
    let walker = id(probe.state(), "Sky Soldier 2");
    let crash = |target: PieceId, flying: bool| {
        scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Sky Soldier 1", 35 * CM, 30 * CM);
                place(ctx, "Sky Soldier 2", 45 * CM, 30 * CM);
                if flying {
                    flyer(ctx, "Sky Soldier 1");
                }
            },
            vec![frame_of(
                "wound",
                &[
                    ("target", Value::Piece(target)),
                    ("count", Value::Int(6)),
                    ("data", Value::Str("shot".into())),
                ],
            )],
        )
    };
    let crashed = crash(soldier, true);
    let state = crashed.state();
    assert!(at(state, "Sky Soldier 1").is_none(), "{:?}", said(&crashed));
    assert_eq!(state.pieces[&soldier].tokens.get("death_counter"), Some(&1));
    assert!(has_said(&crashed, "crashes"));
    // A walker stays on the table with its Death Counter until the Cycle ends (L476).
    let fell = crash(walker, false);
    assert!(at(fell.state(), "Sky Soldier 2").is_some());
}

// ---- The War Eagle and the Master Gamekeeper (003 L722-724, L1424) -------------------------

/// The Sky Wizard casts (step `cast`) with one War Eagle of his in play, the Gamekeeper on the
/// table or not.
fn second_eagle(keeper: bool) -> Game<Scenario> {
    let rules = rules();
    let probe = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = probe.state();
    let wizard = id(state, "Sky Wizard");
    let owner = state.pieces[&wizard].owner;
    let mut eagles: Vec<PieceId> = state
        .pieces
        .values()
        .filter(|p| p.kind == "War Eagle")
        .map(|p| p.id)
        .collect();
    eagles.sort();
    let first = eagles[0];
    scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Sky Wizard", 35 * CM, 20 * CM);
            ctx.place_piece(
                first,
                Some(Position::Table {
                    at: Point::new(35 * CM, 40 * CM),
                    facing: (0, 1),
                }),
                vec![],
                "deploy",
            )
            .expect("the eagle");
            if keeper {
                place(ctx, "Sky Keeper", 50 * CM, 20 * CM);
            }
            ctx.fix_dice("d6", &["3"]);
        },
        vec![frame_of(
            "cast",
            &[
                ("player", Value::Player(owner)),
                ("fighter", Value::Piece(wizard)),
            ],
        )],
    )
}

#[test]
fn a_master_gamekeeper_lets_the_party_summon_a_second_war_eagle() {
    // 003 L1424: as long as the Master Gamekeeper is on the battlefield, a second War Eagle
    // may be summoned (L620: otherwise one summoning at a time).
    let alone = second_eagle(false);
    let spells = offered(&alone);
    assert!(!spells.contains(&"War eagle".to_owned()), "{spells:?}");
    let mut kept = second_eagle(true);
    let spells = offered(&kept);
    assert!(spells.contains(&"War eagle".to_owned()), "{spells:?}");
    choose(&mut kept, "War eagle");
    let eagles = on_table(kept.state(), "War Eagle");
    assert_eq!(eagles.len(), 2, "{:?}", said(&kept));
    // The War Eagle flies by the general rule: its keyword (L724).
    assert!(kept.state().pieces[&eagles[0]].keywords.contains("flying"));
}

// ---- Swimming (003 L346-350) -------------------------------------------------------------

/// Marsh Soldier 1 in the Pond, holding its Action Dice, its player's turn (step `turn`).
fn in_the_pond(dice: &'static [&'static str]) -> Game<Scenario> {
    let rules = rules();
    let probe = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let owner = probe.state().pieces[&id(probe.state(), "Marsh Soldier 1")].owner;
    scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Pond", 35 * CM, 35 * CM);
            place(ctx, "Marsh Soldier 1", 35 * CM, 35 * CM);
            place(ctx, "Sky Soldier 1", 35 * CM, 45 * CM);
            token(ctx, "Marsh Soldier 1", "action_die");
            ctx.fix_dice("d6", dice);
        },
        vec![frame_of("turn", &[("player", Value::Player(owner))])],
    )
}

#[test]
fn a_hero_starting_its_turn_in_water_swims_up_to_sp_on_3() {
    // 003 L348: a model that starts its turn in the water makes a swimming test at the start
    // of its turn; on 3+ it swims up to its Speed in cm; swimming is never part of a charge
    // (L350).
    let mut game = in_the_pond(&["3"]);
    assert!(has_said(&game, "swims (3)"), "{:?}", said(&game));
    let options = offered(&game);
    assert!(options.contains(&"move".to_owned()), "{options:?}");
    assert!(!options.contains(&"charge".to_owned()), "{options:?}");
    choose(&mut game, "move");
    // Sp 7: 7 cm, not 8.
    let mut again = in_the_pond(&["3"]);
    choose(&mut again, "move");
    assert!(!send_point(&mut again, Point::new(8 * CM, 0)));
    assert!(send_point(&mut game, Point::new(-7 * CM, 0)));
}

#[test]
fn a_hero_failing_its_swimming_test_loses_a_wound_and_cannot_move() {
    // 003 L348: a lower result than 3 means the model loses 1 wound and cannot move further.
    let game = in_the_pond(&["2"]);
    assert!(
        has_said(&game, "struggles in the water (2)"),
        "{:?}",
        said(&game)
    );
    assert_eq!(damage(game.state(), "Marsh Soldier 1"), 1);
    let options = offered(&game);
    assert!(!options.contains(&"move".to_owned()), "{options:?}");
    assert!(!options.contains(&"charge".to_owned()), "{options:?}");
}

#[test]
fn a_flyer_over_water_takes_no_swimming_test() {
    // 003 L372: a flyer ends its movement hovering over terrain; it never swims.
    let rules = rules();
    let probe = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let owner = probe.state().pieces[&id(probe.state(), "Marsh Soldier 1")].owner;
    let game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Pond", 35 * CM, 35 * CM);
            place(ctx, "Marsh Soldier 1", 35 * CM, 35 * CM);
            flyer(ctx, "Marsh Soldier 1");
            token(ctx, "Marsh Soldier 1", "action_die");
            ctx.fix_dice("d6", &["1"]);
        },
        vec![frame_of("turn", &[("player", Value::Player(owner))])],
    );
    assert!(!has_said(&game, "swims"));
    assert!(!has_said(&game, "struggles"));
    assert_eq!(damage(game.state(), "Marsh Soldier 1"), 0);
}

// ---- Ambush (003 L846-848) ---------------------------------------------------------------

#[test]
fn a_hero_with_ambush_may_stay_out_of_the_deployment() {
    // 003 L848: the model does not have to be placed in the deployment zone (ours: its player
    // is asked, hero by hero).
    let rules = rules();
    let probe = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let owner = probe.state().pieces[&id(probe.state(), "Marsh Soldier 2")].owner;
    let mut game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| keyword(ctx, "Marsh Soldier 2", "ambush"),
        vec![frame_of(
            "deploy",
            &[
                ("player", Value::Player(owner)),
                ("data", Value::Str("South".into())),
            ],
        )],
    );
    let mut asked = false;
    while let Some(request) = pending(&game) {
        if request.player != owner {
            break;
        }
        if request.prompt.contains("Ambush") {
            asked = true;
            choose(&mut game, "hold it back in ambush");
            continue;
        }
        let Options::One { choices } = &request.options else {
            panic!("one choice")
        };
        let first = choices[0].clone();
        game.submit(request.player, Answer::One(first))
            .expect("set up");
    }
    assert!(asked);
    let state = game.state();
    assert!(at(state, "Marsh Soldier 2").is_none());
    assert_eq!(counter(state, "Marsh Soldier 2", "ambush"), 1);
    assert!(at(state, "Marsh Soldier 1").is_some());
    assert!(has_said(&game, "is held back in ambush"));
}

/// A Cycle begins (step `cycle`) with Marsh Soldier 2 held back in ambush, the Marsh
/// Raiders having deployed in the South strip.
fn ambush_cycle(dice: &'static [&'static str]) -> Game<Scenario> {
    let rules = rules();
    let probe = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let owner = probe.state().pieces[&id(probe.state(), "Marsh Soldier 2")].owner;
    scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            keyword(ctx, "Marsh Soldier 2", "ambush");
            set(ctx, "Marsh Soldier 2", "ambush", 1);
            ctx.set_counter(Scope::Player(owner), "deploy_zone", 1)
                .expect("zone");
            place(ctx, "Marsh Captain", 35 * CM, 5 * CM);
            place(ctx, "Sky Captain", 35 * CM, 65 * CM);
            ctx.fix_dice("d6", dice);
        },
        vec![frame_of("cycle", &[])],
    )
}

#[test]
fn a_hero_in_ambush_comes_in_on_3_within_20_cm_of_the_zone_or_waits() {
    // 003 L848: with the beginning of the first Cycle, a d6: on 3+ the model is placed
    // anywhere within 20 cm of the player's deployment zone (the South strip, 10 cm deep,
    // L2104); otherwise it rolls again at the beginning of each later Cycle.
    let waits = ambush_cycle(&["2"]);
    assert!(
        has_said(&waits, "stays in ambush (2)"),
        "{:?}",
        said(&waits)
    );
    assert!(at(waits.state(), "Marsh Soldier 2").is_none());
    assert_eq!(counter(waits.state(), "Marsh Soldier 2", "ambush"), 1);
    let mut comes = ambush_cycle(&["3"]);
    let request = pending(&comes).expect("where it comes in");
    assert!(request.prompt.contains("Ambush"), "{}", request.prompt);
    let Options::One { choices } = &request.options else {
        panic!("one choice")
    };
    // Every place offered lies wholly within 30 cm of the South edge (the strip's 10 cm and
    // 20 more); a point beyond is refused.
    for choice in choices {
        if let Choice::Point(p) = choice {
            assert!(p.y + 125 <= 30 * CM, "{p:?}");
        }
    }
    assert!(!send_point(&mut comes, Point::new(35 * CM, 40 * CM)));
    assert!(send_point(&mut comes, Point::new(20 * CM, 25 * CM)));
    let state = comes.state();
    assert_eq!(
        at(state, "Marsh Soldier 2"),
        Some(Point::new(20 * CM, 25 * CM))
    );
    assert_eq!(counter(state, "Marsh Soldier 2", "ambush"), 0);
    assert!(has_said(&comes, "springs from ambush (3)"));
    // Placed before the Action Dice Placement Phase (ours): it holds a die this Cycle.
    assert_eq!(
        state.pieces[&id(state, "Marsh Soldier 2")]
            .tokens
            .get("action_die"),
        Some(&1)
    );
}

// ---- Random games ------------------------------------------------------------------------

/// What the scripts said in random games of the two test parties, seeds `seeds`, with every
/// invariant checked after each decision.
fn random_narration(seeds: std::ops::RangeInclusive<u64>) -> Vec<String> {
    use gloam::agent::Agent as _;
    let rules = rules();
    let mut lines = Vec::new();
    for seed in seeds {
        let mut game = Game::start(
            rules.clone(),
            rules.setup(seed),
            RulesetGame::first_frames(),
        )
        .expect("started");
        let mut agents: Vec<gloam::agent::RandomAgent> = (0..2)
            .map(|s| gloam::agent::RandomAgent::new(seed * 17 + s))
            .collect();
        let mut decisions = 0;
        while !game.is_over() && decisions < gloam::sim::MAX_DECISIONS {
            let request = game.pending().first().map(|r| (*r).clone()).expect("asked");
            let seat = request.player.0 as usize;
            let answer = agents[seat].choose(&game.view(request.player), &request);
            game.submit(request.player, answer)
                .unwrap_or_else(|e| panic!("seed {seed}, decision {decisions}: {e}"));
            decisions += 1;
            gloam::sim::check_game_invariants(&rules, game.state())
                .unwrap_or_else(|e| panic!("seed {seed}, after decision {decisions}: {e}"));
        }
        assert!(game.is_over(), "seed {seed} never ends");
        lines.extend(said(&game));
    }
    lines
}

#[test]
fn random_games_of_a_party_that_summons_war_eagles_keep_every_invariant() {
    // 003 L722-724, L372, L480: the Sky Wardens' Wizard of Mind may summon War Eagles, which
    // fly by the general rule and swoop on the enemy. Random games of the two test parties
    // end, with every invariant holding after each decision. How often an Eagle comes depends
    // on the agents' dice (one in these seeds when this was written); the flying rules
    // themselves have their scenarios above.
    let lines = random_narration(1..=12);
    let count = |text: &str| lines.iter().filter(|l| l.contains(text)).count();
    eprintln!(
        "casts {}, summoned {}, War eagle {}, swoops {}, crashes {}",
        count("casts "),
        count("is summoned"),
        count("casts War eagle"),
        count("swoops on"),
        count("crashes")
    );
    assert!(count("casts ") > 0, "the Wizards cast in random games");
}
