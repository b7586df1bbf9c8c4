//! Harrowdeep reaction steps at the end of an activation (issue 18 item 4; rules digest
//! /work/shared/rules/underworlds.md 3.19 and H10, seed 002): the end of the last action of an
//! activation and the end of the activation step are one moment and share one reaction step
//! (002 L3133-3135, L3275-3277), so a player uses an "after an action" reaction (or one
//! after that kind of action: "after an Attack action", "after a Move action") or an "after
//! an activation" one, not both. Each card is used with the fighters its own window gives:
//! after an Attack action, the target and the attacker; after an action or an activation, the
//! fighter that made it. A Charge is a superaction with a reaction step after each of its
//! actions (002 L2610-2620, the figure of 002 L3113-3138): its Move has a step of its own; its
//! Attack's end is the activation's end.

use gloam::core::{Choice, Ctx, Event, Game, PieceId, Scope, Value};
use gloam::engine::RulesetGame;

mod scenario;
use scenario::decks::{
    Scenario, answer, card, choices, expect, names_in, open_hexes, place_all, request, roomy,
    scenario, set,
};
use scenario::{KREW, SEEKERS, frame, option, piece, with_fixture};

/// Test-only reaction ploys, one for each window that meets at the end of an activation;
/// each marks the fighters it was given.
const FIXTURES: &str = r#"
card "Test Parting Shot" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = after_attack
    text = "Test fixture. Reaction: after any Attack action; nothing happens."
    effect = { mark("parting_target", target); mark("parting_attacker", attacker); }
}

card "Test Second Wind" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = after_action
    text = "Test fixture. Reaction: after any action; nothing happens."
    effect = { mark("wind_target", target); }
}

card "Test Last Word" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = after_activation
    text = "Test fixture. Reaction: after any activation; nothing happens."
    effect = { if target != () { mark("word_target", target); } }
}

card "Test Hustle" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = after_activation
    text = "Test fixture. Reaction: after a friendly fighter's activation, remove its Move token; it makes a Move action."
    condition = { target != () && owner(target) == player }
    effect = {
        remove_token(target, "move");
        then("move_action", #{ player: player, fighter: target });
    }
}

card "Test Sidestep" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = after_move
    text = "Test fixture. Reaction: after any Move action; nothing happens."
    effect = { mark("sidestep_target", target); }
}
"#;

const PARTING: &str = "Test Parting Shot";
const WIND: &str = "Test Second Wind";
const WORD: &str = "Test Last Word";
const SIDESTEP: &str = "Test Sidestep";
const HUSTLE: &str = "Test Hustle";

fn rules() -> RulesetGame {
    with_fixture("harrowdeep", "harrowdeep-reactions-fixtures", FIXTURES)
}

/// Krew's activation, with Shank `apart` hexes from Calthia (both in roomy hexes, alone on
/// the battlefield); the Truthseekers, whose turn is next, hold `hand` and the objectives
/// `objectives`.
fn activation(
    rules: &RulesetGame,
    apart: u32,
    hand: &'static [&'static str],
    objectives: &'static [&'static str],
) -> Game<Scenario> {
    let open = open_hexes(rules);
    let (shank_hex, calthia_hex) = open
        .iter()
        .filter(|h| roomy(rules, **h))
        .find_map(|&s| {
            open.iter()
                .find(|&&c| c.distance_to(s) == apart && roomy(rules, c))
                .map(|&c| (s, c))
        })
        .expect("two roomy hexes that far apart");
    scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            place_all(
                ctx,
                &[("Shank", shank_hex), ("Calthia Xandire", calthia_hex)],
            );
            for name in hand {
                card(ctx, name, SEEKERS, "power_hand");
            }
            for name in objectives {
                card(ctx, name, SEEKERS, "objective_hand");
            }
            set(ctx, Scope::Game, "round", 1);
            set(ctx, Scope::Game, "turn_seat", 0);
            set(ctx, Scope::Game, "reactions_this_phase", 0);
        },
        vec![frame("activation", &[("player", Value::Player(KREW))])],
    )
}

/// The names of the cards a "Which reaction card?" request offers, sorted.
fn offered_cards(game: &Game<Scenario>) -> Vec<String> {
    let mut names: Vec<String> = choices(&request(game))
        .iter()
        .filter_map(|c| match c {
            Choice::Card(id) => Some(game.state().cards[id].name.clone()),
            _ => None,
        })
        .collect();
    names.sort();
    names
}

/// Answers everything until nothing is pending: re-rolls kept, no drive back, the first
/// weapon, enemy, hex and route; in each reaction step that offers a reaction card, plays
/// the card `play` picks among those offered. Returns the cards offered in each such step.
fn play_out(
    game: &mut Game<Scenario>,
    play: impl Fn(usize, &[String]) -> String,
) -> Vec<Vec<String>> {
    let mut steps = Vec::new();
    for _ in 0..120 {
        let Some(asked) = game.pending().first().map(|r| (*r).clone()) else {
            return steps;
        };
        let choice = match asked.prompt.as_str() {
            "Re-roll an attack die?" | "Re-roll a defence die?" => option("keep the roll"),
            "Drive the target back?" => option("do not drive back"),
            "Reaction step: react or pass?" => {
                if choices(&asked).contains(&option("play a reaction card")) {
                    option("play a reaction card")
                } else {
                    option("pass")
                }
            }
            "Which reaction card?" => {
                let offered = offered_cards(game);
                let name = play(steps.len(), &offered);
                steps.push(offered);
                choices(&asked)
                    .into_iter()
                    .find(|c| matches!(c, Choice::Card(id) if game.state().cards[id].name == name))
                    .unwrap_or_else(|| panic!("{name} is not offered"))
            }
            "Which weapon?"
            | "Which enemy?"
            | "Where does it charge to?"
            | "Which way does it charge?"
            | "Where does it move?"
            | "Which way does it move?" => choices(&asked)[0].clone(),
            other => panic!("unexpected request: {other}"),
        };
        answer(game, choice);
    }
    panic!("the scenario does not end");
}

/// The fighters each marker `name` was about, in order.
fn marked(game: &Game<Scenario>, name: &str) -> Vec<PieceId> {
    game.events()
        .iter()
        .filter_map(|e| match e {
            Event::Marker {
                name: n,
                scope: Scope::Piece(id),
                ..
            } if n == name => Some(*id),
            _ => None,
        })
        .collect()
}

fn sorted(names: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
    names.sort();
    names
}

/// Harrowdeep 3.19 (002 L3133-3135, L3275-3277; digest H10): after an Attack activation, one
/// reaction step offers the "after an Attack action" reaction, the "after an action" one and
/// the "after an activation" one together; once one is played there is no second step, and
/// the others are not offered again. Each is used with its own window's fighters: after the
/// Attack action, Calthia (the target) and Shank (the attacker); after the action or the
/// activation, Shank. (The flow opened `after_attack`, then `after_activation` and
/// `after_action` in a second step: two reactions could follow one action.)
#[test]
fn an_attack_activation_ends_with_one_reaction_step_for_the_attack_the_action_and_the_activation() {
    let rules = rules();
    for played in [PARTING, WIND, WORD] {
        let mut game = activation(&rules, 1, &[PARTING, WIND, WORD], &[]);
        let shank = piece(game.state(), "Shank");
        let calthia = piece(game.state(), "Calthia Xandire");
        expect(&mut game, KREW, "Choose an action", option("attack"));
        expect(
            &mut game,
            KREW,
            "Which fighter attacks?",
            Choice::Piece(shank),
        );
        let steps = play_out(&mut game, |_, _| played.to_owned());
        assert_eq!(steps, [sorted(&[PARTING, WIND, WORD])], "playing {played}");
        assert_eq!(
            game.state().counter("reactions_this_phase"),
            1,
            "playing {played}"
        );
        // The two cards not played stay in hand: no later step offered them.
        let hand = names_in(game.state(), SEEKERS, "power_hand");
        assert_eq!(hand.len(), 2, "playing {played}: {hand:?}");
        assert!(!hand.contains(&played.to_owned()), "{hand:?}");
        match played {
            PARTING => {
                assert_eq!(marked(&game, "parting_target"), [calthia]);
                assert_eq!(marked(&game, "parting_attacker"), [shank]);
            }
            WIND => assert_eq!(marked(&game, "wind_target"), [shank]),
            _ => assert_eq!(marked(&game, "word_target"), [shank]),
        }
    }
}

/// Harrowdeep 3.6 and 3.19, a Charge (002 L2610-2620: a reaction step after each action of a
/// superaction; the figure of 002 L3113-3138; L3133-3135): the Charge's Move is not the last
/// action, so its end has a step of its own, for "after a Move action" and "after an action"
/// reactions (the charger); the Attack's end is the activation's end, one step for "after an
/// Attack action", "after an action" and "after an activation" reactions. One reaction in
/// each step, two in all. (The flow offered only `after_move` after the Move, and split the
/// Attack's end from the activation's end.)
#[test]
fn a_charge_activation_has_a_step_after_its_move_and_one_shared_by_its_attack_and_the_activation() {
    let rules = rules();
    let mut game = activation(&rules, 3, &[PARTING, WIND, WORD, SIDESTEP], &[]);
    let shank = piece(game.state(), "Shank");
    expect(&mut game, KREW, "Choose an action", option("charge"));
    expect(
        &mut game,
        KREW,
        "Which fighter charges?",
        Choice::Piece(shank),
    );
    let steps = play_out(&mut game, |step, _| {
        if step == 0 { SIDESTEP } else { WORD }.to_owned()
    });
    assert_eq!(
        steps,
        [sorted(&[SIDESTEP, WIND]), sorted(&[PARTING, WIND, WORD])]
    );
    assert_eq!(marked(&game, "sidestep_target"), [shank]);
    assert_eq!(marked(&game, "word_target"), [shank]);
    assert_eq!(game.state().counter("reactions_this_phase"), 2);
    assert_eq!(sorted(&[PARTING, WIND]), {
        let mut hand = names_in(game.state(), SEEKERS, "power_hand");
        hand.sort();
        hand
    });
}

/// Blaze of Glory (002 L680-691: surge, the second or a later reaction of the phase; digest
/// H31) counts one reaction after an Attack activation, however many of the windows of that
/// moment the reacting player holds cards for (002 L3133-3135, L3275-3277): the player who
/// plays whatever is offered uses one reaction, and Blaze of Glory is not revealed. (Two
/// reactions followed the attack, and the objective was revealed.)
#[test]
fn blaze_of_glory_counts_one_reaction_at_the_end_of_an_attack_activation() {
    let rules = rules();
    let mut game = activation(&rules, 1, &[PARTING, WIND, WORD], &["Blaze of Glory"]);
    let shank = piece(game.state(), "Shank");
    expect(&mut game, KREW, "Choose an action", option("attack"));
    expect(
        &mut game,
        KREW,
        "Which fighter attacks?",
        Choice::Piece(shank),
    );
    let steps = play_out(&mut game, |_, offered| offered[0].clone());
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(game.state().counter("reactions_this_phase"), 1);
    assert_eq!(
        names_in(game.state(), SEEKERS, "objective_hand"),
        ["Blaze of Glory"]
    );
    assert!(names_in(game.state(), SEEKERS, "revealed").is_empty());
}

/// Harrowdeep 3.19, an action granted by an ability (002 L3260-3266: "after an Attack action"
/// reactions of any condition share the reaction step after the Attack action; 002
/// L3092-3169): Money Bags (002 L490-524) grants Gikkit an Attack action; its end is one
/// moment, so one step offers the "after an Attack action" reaction (Calthia the target,
/// Gikkit the attacker) and the "after an action" one (Gikkit). Krookgrin's activation then
/// ends with its own step, for his action and his activation (002 L3133-3135), where the
/// reactions about him are offered. (The flow opened `after_attack` and `after_action` of
/// Gikkit's Attack in two steps.)
#[test]
fn a_granted_attack_action_ends_with_one_reaction_step_and_the_activation_with_another() {
    let rules = rules();
    let open = open_hexes(&rules);
    let (gikkit_hex, calthia_hex) = open
        .iter()
        .filter(|h| roomy(&rules, **h))
        .find_map(|&g| {
            open.iter()
                .find(|&&c| c.distance_to(g) == 1 && roomy(&rules, c))
                .map(|&c| (g, c))
        })
        .expect("two roomy hexes side by side");
    let krookgrin_hex = open
        .iter()
        .copied()
        .find(|h| h.distance_to(gikkit_hex) >= 3 && h.distance_to(calthia_hex) >= 3)
        .expect("a hex apart");
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place_all(
                ctx,
                &[
                    ("Krookgrin", krookgrin_hex),
                    ("Gikkit", gikkit_hex),
                    ("Calthia Xandire", calthia_hex),
                ],
            );
            for name in [PARTING, WIND, WORD] {
                card(ctx, name, SEEKERS, "power_hand");
            }
            set(ctx, Scope::Player(KREW), "glory", 1);
            set(ctx, Scope::Game, "round", 1);
            set(ctx, Scope::Game, "turn_seat", 0);
            set(ctx, Scope::Game, "reactions_this_phase", 0);
        },
        vec![frame("activation", &[("player", Value::Player(KREW))])],
    );
    let krookgrin = piece(game.state(), "Krookgrin");
    let gikkit = piece(game.state(), "Gikkit");
    let calthia = piece(game.state(), "Calthia Xandire");
    expect(
        &mut game,
        KREW,
        "Choose an action",
        option("use a fighter's action"),
    );
    expect(
        &mut game,
        KREW,
        "Which fighter acts?",
        Choice::Piece(krookgrin),
    );
    expect(
        &mut game,
        KREW,
        "Which minion attacks?",
        Choice::Piece(gikkit),
    );
    let steps = play_out(&mut game, |step, _| {
        if step == 0 { PARTING } else { WORD }.to_owned()
    });
    assert_eq!(
        steps,
        [sorted(&[PARTING, WIND]), sorted(&[WIND, WORD])],
        "Gikkit's Attack action, then Krookgrin's activation"
    );
    assert_eq!(marked(&game, "parting_target"), [calthia]);
    assert_eq!(marked(&game, "parting_attacker"), [gikkit]);
    assert_eq!(marked(&game, "word_target"), [krookgrin]);
    assert_eq!(game.state().counter("reactions_this_phase"), 2);
}

/// Harrowdeep 3.19, a Move action granted by a reaction (002 L3092-3169, L3133-3135): its end
/// is one moment for "after a Move action" and "after an action" reactions, one step; the
/// reactions it opens are led by the other player (reacting to a reaction, 002 L3279-3293).
/// The Krew (priority: the Truthseekers' turn) use Test Hustle after Shank's Move activation;
/// Shank's granted Move then offers the Truthseekers both reactions about him in one step, and
/// after one there is no other. (The flow opened `after_move` and `after_action` in two
/// steps.)
#[test]
fn a_granted_move_action_ends_with_one_reaction_step() {
    let rules = rules();
    let mut game = scenario(
        &rules,
        {
            let rules = rules.clone();
            move |ctx: &mut Ctx<'_>| {
                let open = open_hexes(&rules);
                let shank_hex = open
                    .iter()
                    .copied()
                    .find(|h| roomy(&rules, *h))
                    .expect("a roomy hex");
                let calthia_hex = open
                    .iter()
                    .copied()
                    .find(|h| h.distance_to(shank_hex) >= 8)
                    .expect("a hex far away");
                place_all(
                    ctx,
                    &[("Shank", shank_hex), ("Calthia Xandire", calthia_hex)],
                );
                card(ctx, HUSTLE, KREW, "power_hand");
                for name in [SIDESTEP, WIND] {
                    card(ctx, name, SEEKERS, "power_hand");
                }
                set(ctx, Scope::Game, "round", 1);
                set(ctx, Scope::Game, "turn_seat", 1);
                set(ctx, Scope::Game, "reactions_this_phase", 0);
            }
        },
        vec![frame("activation", &[("player", Value::Player(KREW))])],
    );
    let shank = piece(game.state(), "Shank");
    expect(&mut game, KREW, "Choose an action", option("move"));
    expect(
        &mut game,
        KREW,
        "Which fighter moves?",
        Choice::Piece(shank),
    );
    let steps = play_out(&mut game, |step, _| {
        if step == 0 { HUSTLE } else { SIDESTEP }.to_owned()
    });
    assert_eq!(
        steps,
        [sorted(&[HUSTLE]), sorted(&[SIDESTEP, WIND])],
        "Shank's activation (the Krew), then his granted Move (the Truthseekers)"
    );
    assert_eq!(marked(&game, "sidestep_target"), [shank]);
    assert_eq!(names_in(game.state(), SEEKERS, "power_hand"), [WIND]);
    assert_eq!(game.state().counter("reactions_this_phase"), 2);
}

/// The names of the markers of the game so far, in order.
fn markers(game: &Game<Scenario>) -> Vec<String> {
    game.events()
        .iter()
        .filter_map(|e| match e {
            Event::Marker { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// Harrowdeep 3.19 (002 L3133-3135; 002 L3216-3236: an interrupted action that can no longer
/// resolve ends, the fighter still counts as having made it): when the activation's Attack
/// action cannot be made (here no enemy is in range, as after a Charge whose target was
/// pushed away in the Move's reaction step), the activation still ends, with its reaction
/// step (`after_activation` and `after_action`); a granted Charge's Attack that cannot be made
/// ends the Charge (`after_action`); a granted Attack action that cannot be made opens nothing.
#[test]
fn an_attack_action_that_cannot_be_made_still_ends_the_activation_or_the_charge() {
    let rules = rules();
    for (data, windows) in [
        (Some("activation"), vec!["after_activation", "after_action"]),
        (Some("charge"), vec!["after_action"]),
        (None, vec![]),
    ] {
        let mut vars = vec![
            ("player", Value::Player(KREW)),
            ("fighter", Value::Piece(scenario::id(&rules, "Shank"))),
        ];
        if let Some(data) = data {
            vars.push(("data", Value::Str(data.into())));
        }
        let game = activation_frames(&rules, vec![frame("attack_action", &vars)]);
        assert!(game.pending().is_empty(), "{data:?}: {:?}", game.pending());
        assert_eq!(markers(&game), windows, "{data:?}");
    }
}

/// Shank and Calthia far apart (no attack possible), then `frames`.
fn activation_frames(rules: &RulesetGame, frames: Vec<gloam::core::Frame>) -> Game<Scenario> {
    let open = open_hexes(rules);
    let shank_hex = open[0];
    let calthia_hex = open
        .iter()
        .copied()
        .find(|h| h.distance_to(shank_hex) >= 8)
        .expect("a hex far away");
    scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            place_all(
                ctx,
                &[("Shank", shank_hex), ("Calthia Xandire", calthia_hex)],
            );
            set(ctx, Scope::Game, "round", 1);
            set(ctx, Scope::Game, "turn_seat", 0);
        },
        frames,
    )
}
