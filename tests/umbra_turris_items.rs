//! Umbra Turris's additional equipment played from the data in cards/umbra_turris (seed 003,
//! L1915-1981; digest A20.4): the Tinderbox, the Healing potion, the Herbs, the Talisman of
//! Destiny, the Battle relic, the Tracker cloak, the Glass and the Amulet of courage. Two
//! test parties of our own carry one item a hero; each scenario loads the dice and checks the
//! item against the same scene without it.

use gloam::core::{Ctx, Game, GameState, PlayerId, Scope, Value};
use gloam::engine::RulesetGame;

mod scenario;
use scenario::{
    Scenario, answer, damage, frame, has_said, option, options, party_duel, pending, piece,
    piece_counter, scenario, stand, tokens,
};

const ANN: PlayerId = PlayerId(0);
const BO: PlayerId = PlayerId(1);

const PARTIES: &str = r#"
party "Test Pack Bearers" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 1500
    source = "ours"
    hero "Pack Captain" { race = "Humans" subrace = "Mortenians" profession = "Soldier" leader = true equipment = ["Spear", "Talisman of Destiny"] }
    hero "Pack 1" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear", "Tinderbox"] }
    hero "Pack 2" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear", "Healing potion"] }
    hero "Pack 3" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear", "Herbs"] }
    hero "Pack 4" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear", "Battle relic"] }
    hero "Pack 5" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Bow", "Glass"] }
}

party "Test Cloaked Watch" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 1500
    source = "ours"
    hero "Cloak Captain" { race = "Humans" subrace = "Mortenians" profession = "Soldier" leader = true equipment = ["Spear", "Talisman of Destiny"] }
    hero "Cloak 1" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear", "Tracker cloak"] }
    hero "Cloak 2" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear", "Amulet of courage"] }
    hero "Cloak 3" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear", "Healing potion"] }
    hero "Cloak 4" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Bow", "Glass"] }
    hero "Cloak 5" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear", "Herbs"] }
}
"#;

fn rules() -> RulesetGame {
    party_duel(PARTIES, "Test Pack Bearers", "Test Cloaked Watch")
}

fn id(state: &GameState, kind: &str) -> Value {
    Value::Piece(piece(state, kind))
}

/// A scene of the test parties after `arrange`, starting with the frame `step` of `vars`
/// (heroes named in `vars` by kind are made piece values).
fn play(
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
    step: &str,
    vars: &[(&str, &str)],
) -> Game<Scenario> {
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let values: Vec<(&str, Value)> = vars
        .iter()
        .map(|(name, value)| {
            let value = match *name {
                "player" => Value::Player(if *value == "ann" { ANN } else { BO }),
                "data" => Value::Str((*value).into()),
                "count" => Value::Int(value.parse().expect("a number")),
                _ => id(start.state(), value),
            };
            (*name, value)
        })
        .collect();
    scenario(&rules, arrange, vec![frame(step, &values)])
}

fn hide(ctx: &mut Ctx<'_>, kind: &str) {
    let id = piece(ctx.state(), kind);
    ctx.set_tokens(Scope::Piece(id), "hidden", 1)
        .expect("hidden");
}

/// The options `kind`'s turn offers first (seat 0 or 1 by `player`).
fn turn_options(arrange: impl Fn(&mut Ctx<'_>) + 'static, kind: &str, player: &str) -> Vec<String> {
    let game = play(
        arrange,
        "activation",
        &[("player", player), ("fighter", kind)],
    );
    options(&pending(&game).expect("the turn's choice"))
}

#[test]
fn the_tinderbox_strips_hidden_markers_within_30_cm_but_not_a_tracker_cloaks() {
    // 003 L1925: after using it, every hero within 30 cm loses its Hidden marker; L1953: a
    // hero in a Tracker cloak keeps it against items.
    let mut game = play(
        |ctx| {
            stand(ctx, "Pack 1", 3500, 1000, (0, 1));
            stand(ctx, "Cloak 5", 3500, 2500, (0, -1));
            stand(ctx, "Cloak 1", 4500, 2000, (0, -1));
            stand(ctx, "Cloak 3", 3500, 5500, (0, -1));
            for kind in ["Cloak 5", "Cloak 1", "Cloak 3"] {
                hide(ctx, kind);
            }
        },
        "activation",
        &[("player", "ann"), ("fighter", "Pack 1")],
    );
    answer(&mut game, ANN, option("use the Tinderbox"));
    let state = game.state();
    assert_eq!(tokens(state, "Cloak 5", "hidden"), 0, "12.5 cm away");
    assert_eq!(tokens(state, "Cloak 1", "hidden"), 1, "a Tracker cloak");
    assert_eq!(tokens(state, "Cloak 3", "hidden"), 1, "42.5 cm away");
    assert!(has_said(&game, "strikes the Tinderbox"));
    // One use (the mark `1` in L1981).
    assert_eq!(
        piece_counter(state, "Pack 1", "items_used") & (1 << 3),
        1 << 3
    );
}

#[test]
fn the_healing_potion_takes_two_off_the_first_loss_only() {
    // 003 L1929: the hero's first Wound loss of the game is decreased by 2.
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let target = id(start.state(), "Cloak 3");
    let hit = || {
        frame(
            "wound",
            &[
                ("target", target.clone()),
                ("count", Value::Int(3)),
                ("data", Value::Str("fall".into())),
            ],
        )
    };
    let game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| stand(ctx, "Cloak 3", 3500, 3000, (0, 1)),
        vec![hit(), hit()],
    );
    assert_eq!(damage(game.state(), "Cloak 3"), 1 + 3);
    assert!(has_said(&game, "Healing potion"));
}

#[test]
fn the_herbs_give_two_wounds_back_on_a_4() {
    // 003 L1933: at the beginning of his turn, a Minor Action: d6 4+ regains 2 W.
    for (face, left) in [("4", 1), ("3", 3)] {
        let mut game = play(
            move |ctx| {
                stand(ctx, "Pack 3", 3500, 1000, (0, 1));
                let id = piece(ctx.state(), "Pack 3");
                ctx.set_counter(Scope::Piece(id), "damage", 3)
                    .expect("hurt");
                ctx.fix_dice("d6", &[face]);
            },
            "activation",
            &[("player", "ann"), ("fighter", "Pack 3")],
        );
        answer(&mut game, ANN, option("use the Herbs"));
        assert_eq!(damage(game.state(), "Pack 3"), left, "rolled {face}");
    }
}

#[test]
fn the_herbs_are_used_only_at_the_beginning_of_the_turn() {
    // 003 L1933: "at the beginning of his turn" (ours: before any Basic Action).
    let offered = turn_options(
        |ctx| {
            stand(ctx, "Pack 3", 3500, 1000, (0, 1));
            let id = piece(ctx.state(), "Pack 3");
            ctx.set_counter(Scope::Piece(id), "damage", 3)
                .expect("hurt");
            ctx.set_counter(Scope::Piece(id), "basic_done", 1)
                .expect("moved");
        },
        "Pack 3",
        "ann",
    );
    assert!(
        !offered.contains(&"use the Herbs".to_owned()),
        "{offered:?}"
    );
}

#[test]
fn the_battle_relic_raises_a_characteristic_by_two_for_the_cycle() {
    // 003 L1943: a Minor Action; until the end of the Cycle one characteristic +2.
    let mut game = play(
        |ctx| stand(ctx, "Pack 4", 3500, 1000, (0, 1)),
        "activation",
        &[("player", "ann"), ("fighter", "Pack 4")],
    );
    let hero = piece(game.state(), "Pack 4");
    let before = game.state().characteristic(hero, "ws").expect("ws");
    answer(&mut game, ANN, option("use the Battle relic"));
    answer(&mut game, ANN, option("ws"));
    assert_eq!(game.state().characteristic(hero, "ws"), Some(before + 2));
}

#[test]
fn the_glass_bars_an_enemy_from_shooting_for_the_cycle() {
    // 003 L1961: a Minor Action; until the end of the Cycle the target enemy may not make
    // any ranged attacks. Cloak 4 could shoot Pack 5 before.
    let scene = |ctx: &mut Ctx<'_>| {
        stand(ctx, "Pack 5", 3500, 1000, (0, 1));
        stand(ctx, "Cloak 4", 3500, 4000, (0, -1));
    };
    assert!(turn_options(scene, "Cloak 4", "bo").contains(&"shoot".to_owned()));
    let mut game = play(
        scene,
        "activation",
        &[("player", "ann"), ("fighter", "Pack 5")],
    );
    answer(&mut game, ANN, option("use the Glass"));
    if pending(&game).is_some_and(|r| r.kind == "choose_fighter") {
        let target = piece(game.state(), "Cloak 4");
        answer(&mut game, ANN, gloam::core::Choice::Piece(target));
    }
    let dazzled = piece_counter(game.state(), "Cloak 4", "glass_cycle");
    assert!(dazzled > 0, "the Glass marks its target");
    let offered = turn_options(
        move |ctx| {
            scene(ctx);
            let id = piece(ctx.state(), "Cloak 4");
            ctx.set_counter(Scope::Piece(id), "glass_cycle", dazzled)
                .expect("glass");
        },
        "Cloak 4",
        "bo",
    );
    assert!(!offered.contains(&"shoot".to_owned()), "{offered:?}");
}

#[test]
fn a_tracker_cloak_is_spotted_only_within_20_cm() {
    // 003 L1953: spotted only from 20 cm or less (Spot reaches 30 cm otherwise, L360).
    let at = |kind: &'static str, y: i64| {
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, "Pack 2", 3500, 1000, (0, 1));
            stand(ctx, kind, 3500, y, (0, -1));
            hide(ctx, kind);
        }
    };
    let spot = "spot".to_owned();
    // 25 cm between centres: 22.5 cm between the bases.
    assert!(turn_options(at("Cloak 5", 3500), "Pack 2", "ann").contains(&spot));
    assert!(!turn_options(at("Cloak 1", 3500), "Pack 2", "ann").contains(&spot));
    // 20 cm between centres: 17.5 cm.
    assert!(turn_options(at("Cloak 1", 3000), "Pack 2", "ann").contains(&spot));
}

/// A combat wound of `count` W from `attacker` to `target`, with the d6 faces `dice`; each
/// Talisman question answered `use`.
fn talisman_wound(
    attacker: &str,
    target: &str,
    count: &str,
    dice: &'static [&'static str],
    use_it: bool,
) -> Game<Scenario> {
    let (a, t) = (attacker.to_owned(), target.to_owned());
    let mut game = play(
        move |ctx| {
            stand(ctx, &a, 3500, 3000, (0, 1));
            stand(ctx, &t, 3500, 3250, (0, -1));
            ctx.fix_dice("d6", dice);
        },
        "wound",
        &[
            ("target", target),
            ("attacker", attacker),
            ("count", count),
            ("data", "combat"),
        ],
    );
    while let Some(asked) = pending(&game) {
        let pick = if use_it {
            "use the Talisman of Destiny"
        } else {
            "keep it"
        };
        answer(&mut game, asked.player, option(pick));
    }
    game
}

#[test]
fn the_talisman_of_destiny_adds_four_wounds_to_its_bearers_blow() {
    // 003 L1935-1939: when he wounds an enemy in combat, d6 4+: the wounds inflicted +4.
    let game = talisman_wound("Pack Captain", "Cloak 5", "1", &["4"], true);
    assert_eq!(damage(game.state(), "Cloak 5"), 5);
    let game = talisman_wound("Pack Captain", "Cloak 5", "1", &["3"], true);
    assert_eq!(damage(game.state(), "Cloak 5"), 1, "a 3 fails");
    assert_eq!(
        piece_counter(game.state(), "Pack Captain", "items_used") & (1 << 7),
        1 << 7,
        "used, even in vain"
    );
    let game = talisman_wound("Pack Captain", "Cloak 5", "1", &["4"], false);
    assert_eq!(damage(game.state(), "Cloak 5"), 1, "kept");
}

#[test]
fn the_talisman_of_destiny_takes_four_off_its_bearers_wounds() {
    // 003 L1937-1939: or, wounded himself, 4 fewer suffered.
    let game = talisman_wound("Pack 1", "Cloak Captain", "5", &["6"], true);
    assert_eq!(damage(game.state(), "Cloak Captain"), 1);
}

#[test]
fn the_amulet_of_courage_lets_a_hero_parry_a_fearsome_charger_on_a_3() {
    // 003 L802: a hero charged by a Fear model cannot parry, so its attacker chooses openly;
    // L1965: with the Amulet of courage, d6 3+ and it may try to parry (the secret guess asks
    // both players).
    let charge = |defender: &'static str, dice: &'static [&'static str]| {
        let game = play(
            move |ctx| {
                stand(ctx, "Pack 1", 3500, 3000, (0, 1));
                stand(ctx, defender, 3500, 3250, (0, -1));
                let id = piece(ctx.state(), "Pack 1");
                ctx.set_keyword(id, "fear", true).expect("fear");
                ctx.fix_dice("d6", dice);
            },
            "fight",
            &[
                ("player", "ann"),
                ("fighter", "Pack 1"),
                ("target", defender),
                ("data", "charge"),
            ],
        );
        game.pending().len()
    };
    assert_eq!(charge("Cloak 5", &[]), 1, "no Amulet: no parry");
    assert_eq!(charge("Cloak 2", &["3"]), 2, "the Amulet on a 3: the guess");
    assert_eq!(charge("Cloak 2", &["2"]), 1, "the Amulet on a 2: no parry");
}
