//! Umbra Turris: abilities a spell takes away, played from the data in cards/umbra_turris
//! (seed 003). A Shade clinging to an enemy bars it from every ability of its race and
//! profession (L638); a Mage turned into the Wildwood Demon loses his race's abilities but
//! keeps the rest (L742). Each scenario plays the same dice with and without the spell's mark.

use gloam::core::{Choice, Ctx, Game, PlayerId, Scope, Value};
use gloam::engine::RulesetGame;

mod scenario;
use scenario::{
    Scenario, answer, frame, options, party_duel, pending, piece, scenario, shipped, stand, tokens,
};

const ANN: PlayerId = PlayerId(0);

/// A party of Borians (Faith: an order to a Borian may be re-rolled, 003 L920), legal under
/// the building rules, and an opponent.
const PARTIES: &str = r#"
party "Test Borian Guard" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = good
    points = 1500
    source = "ours"
    hero "Borian Captain" { race = "Humans" subrace = "Borians" profession = "Soldier" leader = true equipment = ["Spear"] }
    hero "Borian 1" { race = "Humans" subrace = "Borians" profession = "Soldier" equipment = ["Spear"] }
    hero "Borian 2" { race = "Humans" subrace = "Borians" profession = "Soldier" equipment = ["Spear"] }
    hero "Borian 3" { race = "Humans" subrace = "Borians" profession = "Soldier" equipment = ["Spear"] }
    hero "Borian 4" { race = "Humans" subrace = "Borians" profession = "Soldier" equipment = ["Spear"] }
    hero "Borian 5" { race = "Humans" subrace = "Borians" profession = "Soldier" equipment = ["Spear"] }
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
    hero "Sell 3" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Sell 4" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Sell 5" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
}
"#;

fn borians() -> RulesetGame {
    party_duel(PARTIES, "Test Borian Guard", "Test Thargo Sellswords")
}

/// The Borian Captain orders Borian 1, 15.5 cm away (beyond Bound by blood's 10 cm: 4+),
/// with a 1 and then a 6 loaded; Borian 1 carries the token `mark` if any. Whether Borian 1
/// obeyed.
fn order_with(mark: Option<&'static str>) -> bool {
    let rules = borians();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let captain = Value::Piece(piece(start.state(), "Borian Captain"));
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            let ids: Vec<_> = ctx.state().pieces.keys().copied().collect();
            for id in ids {
                ctx.set_tokens(Scope::Piece(id), "action_die", 0)
                    .expect("tokens");
            }
            stand(ctx, "Borian Captain", 3500, 1000, (0, 1));
            stand(ctx, "Borian 1", 3500, 2800, (0, 1));
            if let Some(mark) = mark {
                let id = piece(ctx.state(), "Borian 1");
                ctx.set_tokens(Scope::Piece(id), mark, 1).expect("mark");
            }
            ctx.set_counter(Scope::Player(ANN), "orders", 3)
                .expect("orders");
            ctx.fix_dice("d6", &["1", "6"]);
        },
        vec![frame(
            "order",
            &[("player", Value::Player(ANN)), ("fighter", captain)],
        )],
    );
    let target = piece(game.state(), "Borian 1");
    answer(&mut game, ANN, Choice::Piece(target));
    assert!(pending(&game).is_none());
    tokens(game.state(), "Borian 1", "action_die") == 1
}

#[test]
fn a_borians_faith_rerolls_a_failed_order() {
    // 003 L920: orders issued to Borians may be re-rolled; the 1 is rolled again as a 6.
    assert!(order_with(None));
}

#[test]
fn a_shade_clinging_to_a_borian_takes_his_faith_away() {
    // 003 L638: while the Shade is in base contact with the enemy, he may not use any
    // ability of his race: the failed order stands.
    assert!(!order_with(Some("shaded")));
}

#[test]
fn the_wildwood_demon_has_no_ability_of_the_heros_race() {
    // 003 L742: the Demon may not use the abilities of the hero's race.
    assert!(!order_with(Some("shapeshifted")));
}

/// The options Sir Aldwin (a Paladin of the shipped Lantern Wardens) has in his turn, with
/// the token `mark` on him if any.
fn paladins_turn(mark: Option<&'static str>) -> Vec<String> {
    let rules = shipped("umbra_turris");
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let aldwin = Value::Piece(piece(start.state(), "Sir Aldwin"));
    let game: Game<Scenario> = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, "Sir Aldwin", 3500, 1000, (0, 1));
            if let Some(mark) = mark {
                let id = piece(ctx.state(), "Sir Aldwin");
                ctx.set_tokens(Scope::Piece(id), mark, 1).expect("mark");
            }
        },
        vec![frame(
            "activation",
            &[("player", Value::Player(ANN)), ("fighter", aldwin)],
        )],
    );
    options(&pending(&game).expect("his turn's choice"))
}

#[test]
fn a_shade_takes_a_paladins_aura_of_inspiration_away() {
    // 003 L1300: the Paladin's Aura of Inspiration, a profession ability, is offered in his
    // turn; L638: not while a Shade clings to him.
    assert!(paladins_turn(None).contains(&"Aura of Inspiration".to_owned()));
    assert!(!paladins_turn(Some("shaded")).contains(&"Aura of Inspiration".to_owned()));
}

#[test]
fn the_wildwood_demon_keeps_the_heros_profession() {
    // 003 L742 takes the race's abilities and the weapons, not the profession's.
    assert!(paladins_turn(Some("shapeshifted")).contains(&"Aura of Inspiration".to_owned()));
}
