//! Umbra Turris psychology played from the data in cards/umbra_turris (seed 003, digest
//! part A13): Bound by blood, the Leader's bonus in a party of one race (L778-780,
//! L838-840), and Stubborn, the large models' Action Dice won back after a hurt not from
//! combat (L842-844); and the Vartevians' Invulnerability (L928-931), a race ability that
//! lets a hero with a Death Counter act and gives it Permanent Fear. Each scenario arranges heroes through the kernel's `Ctx` with loaded
//! dice, runs one step of the flow and checks what the seed says.

use gloam::core::{Choice, Ctx, Game, GameState, PlayerId, Scope, Value};
use gloam::engine::RulesetGame;

mod scenario;
use scenario::{
    Scenario, answer, frame, has_said, party_duel, pending, piece, piece_counter, scenario, stand,
    tokens,
};

const ANN: PlayerId = PlayerId(0);

/// Test parties, legal under the building rules: two of one race each (Humans of Mortenia,
/// one of them with a Wizard whose Summon Cherub brings Cherubs off the table; Dwarfs of
/// Thargomind) and one of two races.
const PARTIES: &str = r#"
party "Test Grey Band" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 1500
    source = "ours"
    hero "Grey Captain" { race = "Humans" subrace = "Mortenians" profession = "Soldier" leader = true equipment = ["Spear"] }
    hero "Grey 1" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Grey 2" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Grey 3" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Grey 14" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Grey 15" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
}

party "Test Dawn Choir" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = good
    points = 1500
    source = "ours"
    hero "Dawn Captain" { race = "Humans" subrace = "Mortenians" profession = "Soldier" leader = true equipment = ["Spear"] }
    hero "Dawn Wizard" { race = "Humans" subrace = "Mortenians" profession = "Wizard" equipment = ["Staff, Ritual weapon"] domains = ["Light", "Spirit"] }
    hero "Dawn 1" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Dawn 2" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Dawn 14" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Dawn 15" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
}

party "Test Mixed Watch" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 1500
    source = "ours"
    hero "Mixed Captain" { race = "Humans" subrace = "Mortenians" profession = "Soldier" leader = true equipment = ["Spear"] }
    hero "Mixed 1" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Mixed 2" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Mixed 13" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Mixed 14" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Mixed 15" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
}

party "Test Vartevian Band" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 1500
    source = "ours"
    hero "Vart Captain" { race = "Humans" subrace = "Vartevians" profession = "Soldier" leader = true equipment = ["Spear"] }
    hero "Vart 1" { race = "Humans" subrace = "Vartevians" profession = "Soldier" equipment = ["Spear"] }
    hero "Vart 2" { race = "Humans" subrace = "Vartevians" profession = "Soldier" equipment = ["Spear"] }
    hero "Vart 3" { race = "Humans" subrace = "Vartevians" profession = "Soldier" equipment = ["Spear"] }
    hero "Vart 4" { race = "Humans" subrace = "Vartevians" profession = "Soldier" equipment = ["Spear"] }
    hero "Vart 5" { race = "Humans" subrace = "Vartevians" profession = "Soldier" equipment = ["Spear"] }
}

party "Test Thargo Sellswords" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 1500
    source = "ours"
    hero "Sell Captain" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" leader = true equipment = ["Spear"] }
    hero "Sell 1" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Sell 2" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Sell 13" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Sell 14" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Sell 15" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
}
"#;

fn duel(a: &str, b: &str) -> RulesetGame {
    party_duel(PARTIES, a, b)
}

fn id(state: &GameState, kind: &str) -> Value {
    Value::Piece(piece(state, kind))
}

/// Takes every hero's Action Dice away, so that any of them may be ordered.
fn spend_all(ctx: &mut Ctx<'_>) {
    let ids: Vec<_> = ctx.state().pieces.keys().copied().collect();
    for id in ids {
        ctx.set_tokens(Scope::Piece(id), "action_die", 0)
            .expect("tokens");
    }
}

/// The Leader `leader` of seat 0 orders `hero`, standing `apart` tenths of a millimetre
/// north of him (centre to centre; 25 mm bases), with the d6 faces `dice` loaded. Returns
/// the game after the order, its attempts having started at 3.
fn order(
    rules: &RulesetGame,
    leader: &'static str,
    hero: &'static str,
    apart: i64,
    dice: &'static [&'static str],
) -> Game<Scenario> {
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let giver = id(start.state(), leader);
    let mut game = scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            spend_all(ctx);
            stand(ctx, leader, 3500, 1000, (0, 1));
            stand(ctx, hero, 3500, 1000 + apart, (0, 1));
            ctx.set_counter(Scope::Player(ANN), "orders", 3)
                .expect("orders");
            ctx.fix_dice("d6", dice);
        },
        vec![frame(
            "order",
            &[("player", Value::Player(ANN)), ("fighter", giver)],
        )],
    );
    let asked = pending(&game).expect("whom to order");
    assert_eq!(asked.kind, "choose_fighter");
    let target = piece(game.state(), hero);
    answer(&mut game, ANN, Choice::Piece(target));
    assert!(pending(&game).is_none(), "the order asks nothing more");
    game
}

fn orders_left(game: &Game<Scenario>) -> i64 {
    game.state().players[ANN.0 as usize].counters["orders"]
}

#[test]
fn bound_by_blood_an_order_within_10_cm_succeeds_on_a_3() {
    // 003 L778-780: a party of heroes of one race gives its Leader Bound by blood; L838-840:
    // his orders to a hero within 10 cm succeed on 3+ (4+ otherwise, L772).
    let rules = duel("Test Grey Band", "Test Thargo Sellswords");
    // 8 cm between the centres: 5.5 cm between the bases.
    let game = order(&rules, "Grey Captain", "Grey 1", 800, &["3"]);
    assert_eq!(tokens(game.state(), "Grey 1", "action_die"), 1);
    assert!(has_said(&game, "obeys the order"));
    assert_eq!(
        orders_left(&game),
        2,
        "a 3 is not a 6: the attempt is spent"
    );
}

#[test]
fn bound_by_blood_does_not_reach_beyond_10_cm() {
    // 003 L838-840: the 3+ holds within 10 cm only; at 15.5 cm the order needs 4+ (L772).
    let rules = duel("Test Grey Band", "Test Thargo Sellswords");
    let game = order(&rules, "Grey Captain", "Grey 1", 1800, &["3"]);
    assert_eq!(tokens(game.state(), "Grey 1", "action_die"), 0);
    assert!(has_said(&game, "does not heed"));
}

#[test]
fn a_party_of_two_races_has_no_bound_by_blood() {
    // 003 L778-780: only a party of one race. Humans and a Dwarf: a 3 fails even at 5.5 cm.
    let rules = duel("Test Mixed Watch", "Test Thargo Sellswords");
    let game = order(&rules, "Mixed Captain", "Mixed 1", 800, &["3"]);
    assert_eq!(tokens(game.state(), "Mixed 1", "action_die"), 0);
    assert_eq!(orders_left(&game), 2);
}

#[test]
fn bound_by_blood_a_6_costs_no_attempt() {
    // 003 L840: with Bound by blood, an order rolled a 6 is free; without it, it is spent.
    let rules = duel("Test Grey Band", "Test Thargo Sellswords");
    let game = order(&rules, "Grey Captain", "Grey 1", 1800, &["6"]);
    assert_eq!(tokens(game.state(), "Grey 1", "action_die"), 1);
    assert_eq!(orders_left(&game), 3);
    let rules = duel("Test Mixed Watch", "Test Thargo Sellswords");
    let game = order(&rules, "Mixed Captain", "Mixed 1", 1800, &["6"]);
    assert_eq!(tokens(game.state(), "Mixed 1", "action_die"), 1);
    assert_eq!(orders_left(&game), 2);
}

#[test]
fn summoned_models_waiting_off_the_table_do_not_break_a_one_race_party() {
    // 003 L778-780 counts the party's heroes; a summoned model is no hero of the party
    // (L618-620). The Wizard's Cherubs wait off the table and have no race.
    let rules = duel("Test Dawn Choir", "Test Thargo Sellswords");
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    assert!(
        start
            .state()
            .pieces
            .values()
            .any(|p| p.owner == ANN && p.kind == "Cherub"),
        "the Wizard's party brings Cherubs"
    );
    let game = order(&rules, "Dawn Captain", "Dawn 1", 800, &["3"]);
    assert_eq!(tokens(game.state(), "Dawn 1", "action_die"), 1);
}

/// A `wound` step of `count` Wounds to `target` (seat 1's Sell 1, made Stubborn, without
/// an Action Dice), caused by `data`, from `attacker` if any, with the d6 faces `dice`.
fn hurt_stubborn(
    frames: &'static [(&'static str, Option<&'static str>)],
    dice: &'static [&'static str],
) -> Game<Scenario> {
    let rules = duel("Test Grey Band", "Test Thargo Sellswords");
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let target = id(start.state(), "Sell 1");
    let frames = frames
        .iter()
        .map(|(data, attacker)| {
            let mut vars = vec![
                ("target", target.clone()),
                ("count", Value::Int(1)),
                ("data", Value::Str((*data).into())),
            ];
            if let Some(kind) = attacker {
                vars.push(("attacker", id(start.state(), kind)));
            }
            frame("wound", &vars)
        })
        .collect();
    scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            spend_all(ctx);
            stand(ctx, "Sell 1", 3500, 3000, (0, 1));
            stand(ctx, "Grey 1", 3500, 1000, (0, 1));
            let id = piece(ctx.state(), "Sell 1");
            ctx.set_keyword(id, "stubborn", true).expect("stubborn");
            ctx.fix_dice("d6", dice);
        },
        frames,
    )
}

#[test]
fn stubborn_wins_its_action_dice_back_after_an_enemy_shot() {
    // 003 L842-844: without an Action Dice, hurt by the enemy not in combat: 2d6 >= Sp gives
    // the model an Action Dice.
    let game = hurt_stubborn(&[("shot", Some("Grey 1"))], &["6", "6"]);
    assert_eq!(piece_counter(game.state(), "Sell 1", "damage"), 1);
    assert_eq!(tokens(game.state(), "Sell 1", "action_die"), 1);
    assert!(has_said(&game, "stubborn"));
}

#[test]
fn stubborn_fails_below_its_sp() {
    // 003 L844: the 2d6 must reach Sp; 1 + 1 does not.
    let game = hurt_stubborn(&[("magic", Some("Grey 1"))], &["1", "1"]);
    assert_eq!(tokens(game.state(), "Sell 1", "action_die"), 0);
}

#[test]
fn stubborn_does_not_answer_combat_or_its_own_hurts() {
    // 003 L842: damage from the enemy that is NOT a result of combat. A combat wound, a
    // casting cost paid in Wounds and a fall are not.
    for data in ["combat", "cast", "fall"] {
        let frames: &'static [(&'static str, Option<&'static str>)] = match data {
            "combat" => &[("combat", Some("Grey 1"))],
            "cast" => &[("cast", None)],
            _ => &[("fall", None)],
        };
        let game = hurt_stubborn(frames, &["6", "6"]);
        assert_eq!(
            tokens(game.state(), "Sell 1", "action_die"),
            0,
            "no Stubborn after a {data} wound"
        );
        assert_eq!(piece_counter(game.state(), "Sell 1", "damage"), 1);
    }
}

#[test]
fn stubborn_answers_once_a_cycle() {
    // 003 L844: once in a Cycle. Two enemy shots in one Cycle: the die comes back after the
    // first; spent again, the second shot gives nothing.
    let rules = duel("Test Grey Band", "Test Thargo Sellswords");
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let target = id(start.state(), "Sell 1");
    let shooter = id(start.state(), "Grey 1");
    let shot = |target: &Value, shooter: &Value| {
        frame(
            "wound",
            &[
                ("target", target.clone()),
                ("attacker", shooter.clone()),
                ("count", Value::Int(1)),
                ("data", Value::Str("shot".into())),
            ],
        )
    };
    let game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| {
            spend_all(ctx);
            stand(ctx, "Sell 1", 3500, 3000, (0, 1));
            stand(ctx, "Grey 1", 3500, 1000, (0, 1));
            let id = piece(ctx.state(), "Sell 1");
            ctx.set_keyword(id, "stubborn", true).expect("stubborn");
            ctx.set_counter(Scope::Piece(id), "stubborn_used", 1)
                .expect("used");
            ctx.fix_dice("d6", &["6", "6"]);
        },
        vec![shot(&target, &shooter)],
    );
    assert_eq!(piece_counter(game.state(), "Sell 1", "stubborn_used"), 1);
    assert_eq!(
        tokens(game.state(), "Sell 1", "action_die"),
        0,
        "used this Cycle already"
    );
}

/// Seat 0's Vart 1 (or Grey Band's Grey 1, for `vartevian = false`) loses all its Wounds to
/// an enemy's strike, holding an Action Dice when `holding`; the two stand face to face.
fn fall(vartevian: bool, holding: bool) -> Game<Scenario> {
    let (party, hero) = if vartevian {
        ("Test Vartevian Band", "Vart 1")
    } else {
        ("Test Grey Band", "Grey 1")
    };
    let rules = duel(party, "Test Thargo Sellswords");
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let target = id(start.state(), hero);
    let wounds = start.state().pieces[&piece(start.state(), hero)].characteristics["wounds"];
    let attacker = id(start.state(), "Sell 1");
    scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            spend_all(ctx);
            stand(ctx, hero, 3500, 3000, (0, 1));
            stand(ctx, "Sell 1", 3500, 3250, (0, -1));
            if holding {
                let id = piece(ctx.state(), hero);
                ctx.set_tokens(Scope::Piece(id), "action_die", 1)
                    .expect("die");
            }
        },
        vec![frame(
            "wound",
            &[
                ("target", target.clone()),
                ("attacker", attacker.clone()),
                ("count", Value::Int(wounds)),
                ("data", Value::Str("combat".into())),
            ],
        )],
    )
}

#[test]
fn invulnerability_a_vartevian_falling_with_its_action_dice_keeps_it() {
    // 003 L928-931: at 0 W with an Action Dice still held, the hero takes the Death Counter
    // and may still use the die.
    let game = fall(true, true);
    let state = game.state();
    assert_eq!(tokens(state, "Vart 1", "death_counter"), 1);
    assert_eq!(tokens(state, "Vart 1", "action_die"), 1);
    assert_eq!(piece_counter(state, "Vart 1", "invulnerable"), 1);
    assert!(has_said(&game, "keeps its Action Dice"));
    let rules = duel("Test Vartevian Band", "Test Thargo Sellswords");
    assert_eq!(
        rules.broken_invariant(state),
        None,
        "a kept die breaks no invariant"
    );
}

#[test]
fn invulnerability_needs_a_die_still_held() {
    // 003 L928: "and still has an Action Dice": a Vartevian that spent its die falls as any
    // hero; a hero of another race loses its die with the Death Counter (L476).
    let game = fall(true, false);
    assert_eq!(tokens(game.state(), "Vart 1", "death_counter"), 1);
    assert_eq!(piece_counter(game.state(), "Vart 1", "invulnerable"), 0);
    let game = fall(false, true);
    assert_eq!(tokens(game.state(), "Grey 1", "death_counter"), 1);
    assert_eq!(tokens(game.state(), "Grey 1", "action_die"), 0);
}

/// A game where seat 0's Vart 1 fell keeping its die (`fall`) and then it is seat 0's turn.
fn fallen_vartevians_turn(arrange: impl Fn(&mut Ctx<'_>) + 'static) -> Game<Scenario> {
    let rules = duel("Test Vartevian Band", "Test Thargo Sellswords");
    scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            spend_all(ctx);
            stand(ctx, "Vart 1", 3500, 3000, (0, 1));
            stand(ctx, "Sell 1", 3500, 3250, (0, -1));
            let id = piece(ctx.state(), "Vart 1");
            let wounds = ctx.state().pieces[&id].characteristics["wounds"];
            ctx.set_counter(Scope::Piece(id), "damage", wounds)
                .expect("damage");
            ctx.set_tokens(Scope::Piece(id), "death_counter", 1)
                .expect("counter");
            ctx.set_tokens(Scope::Piece(id), "action_die", 1)
                .expect("die");
            ctx.set_counter(Scope::Piece(id), "invulnerable", 1)
                .expect("invulnerable");
            arrange(ctx);
        },
        vec![frame("turn", &[("player", Value::Player(ANN))])],
    )
}

#[test]
fn invulnerability_the_fallen_vartevian_still_activates() {
    // 003 L928-930: "... but still can use his Action Dice": seat 0's only die is the fallen
    // Vartevian's, so its turn is his.
    let game = fallen_vartevians_turn(|_| {});
    assert!(has_said(&game, "activates"));
    let asked = pending(&game).expect("the hero's turn asks what it does");
    assert_eq!(asked.player, ANN);
    let offered = scenario::options(&asked);
    assert!(offered.contains(&"fight".to_owned()), "{offered:?}");
    assert_eq!(
        tokens(game.state(), "Vart 1", "action_die"),
        0,
        "the die is used"
    );
}

#[test]
fn invulnerability_ends_once_the_die_is_used() {
    // 003 L928-930: the die is what it may still use; with it spent the hero is a Death
    // Counter like any other (ours: the mark is cleared at the next turn).
    let mut game = fallen_vartevians_turn(|_| {});
    answer(&mut game, ANN, scenario::option("end the turn"));
    while let Some(asked) = pending(&game) {
        if asked.kind != "choose_option" || asked.player != ANN {
            break;
        }
        let offered = scenario::options(&asked);
        if !offered.contains(&"end the turn".to_owned()) {
            break;
        }
        answer(&mut game, ANN, scenario::option("end the turn"));
    }
    assert_eq!(piece_counter(game.state(), "Vart 1", "invulnerable"), 0);
    assert_eq!(tokens(game.state(), "Vart 1", "action_die"), 0);
}

#[test]
fn invulnerability_gives_the_fallen_vartevian_permanent_fear() {
    // 003 L931: while it has the Death Counter it has Permanent Fear, whose strikes cannot be
    // parried (L804-806): no secret guess, the attacker picks openly.
    let game = fallen_vartevians_turn(|_| {});
    let mut game = game;
    answer(&mut game, ANN, scenario::option("fight"));
    let asked: Vec<_> = game.pending().iter().map(|r| r.player).collect();
    assert_eq!(asked, [ANN], "only the attacker is asked: no parry");
}
