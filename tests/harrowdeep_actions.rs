//! Printed fighter actions in the Harrowdeep activation step (issue 4; Harrowdeep 3.6,
//! seed 002 L2406-2420, digest /work/shared/rules/underworlds.md 3.6): a fighter's action may
//! be one printed on its fighter card or on an upgrade it has (window `fighter_action`). The
//! `activation` step offers "use a fighter's action" when one of the active player's fighters
//! that may be activated (no Charge token, 3.6/3.7) has such an action whose condition holds,
//! resolves it, then opens `after_activation` (digest H10).

use gloam::core::{Choice, Ctx, Event, Game, PlayerId, Scope, Value};
use gloam::engine::RulesetGame;

mod scenario;
use scenario::decks::{
    Scenario, answer, attack_rolls, away, card, choices, expect, glory_spent, names_in, pick,
    place_all, request, roomy, scenario, set, token, upgrade,
};
use scenario::{KREW, SEEKERS, frame, option, piece, shipped};

/// The shipped data.
fn rules() -> RulesetGame {
    shipped("harrowdeep")
}

/// The names of the markers (windows and other moments) of the game so far, in order.
fn markers(game: &Game<Scenario>) -> Vec<String> {
    game.events()
        .iter()
        .filter_map(|e| match e {
            Event::Marker { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// The options of the pending "Choose an action" request of `player`.
fn actions_offered(game: &Game<Scenario>, player: PlayerId) -> Vec<Choice> {
    let asked = request(game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (player, "Choose an action")
    );
    choices(&asked)
}

/// Answers what follows an action that the scenario does not look at: the first weapon and
/// enemy, re-rolls kept, no drive back, reactions passed; stops at "Choose an action" or
/// when nothing is pending.
fn settle(game: &mut Game<Scenario>) {
    for _ in 0..60 {
        let Some(asked) = game.pending().first().map(|r| (*r).clone()) else {
            return;
        };
        let choice = match asked.prompt.as_str() {
            "Choose an action" => return,
            "Re-roll an attack die?" | "Re-roll a defence die?" => option("keep the roll"),
            "Drive the target back?" => option("do not drive back"),
            "Reaction step: react or pass?" => option("pass"),
            // The first route enters the fewest lethal hexes (issue 18 item 5).
            "Which weapon?"
            | "Which enemy?"
            | "Which way does it move?"
            | "Which way does it charge?" => choices(&asked)[0].clone(),
            other => panic!("unexpected request: {other}"),
        };
        answer(game, choice);
    }
}

/// Calthia (Truthseekers) with Fatal Scheme and `glory` glory, far from Shank; three power
/// cards in the Truthseekers' deck; `charged`: Calthia has a Charge token.
fn fatal_scheme_setup(
    rules: &RulesetGame,
    glory: i64,
    charged: bool,
    activations: usize,
) -> Game<Scenario> {
    let calthia = away(rules, &[], 0);
    let shank = pick(rules, &[calthia], |h| h.distance_to(calthia) >= 4);
    let frames = (0..activations)
        .map(|_| frame("activation", &[("player", Value::Player(SEEKERS))]))
        .collect();
    scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            place_all(ctx, &[("Calthia Xandire", calthia), ("Shank", shank)]);
            upgrade(ctx, "Fatal Scheme", "Calthia Xandire");
            for name in ["Audacious Move", "Called Strike", "Easy Meat"] {
                card(ctx, name, SEEKERS, "power_deck");
            }
            set(ctx, Scope::Player(SEEKERS), "glory", glory);
            set(ctx, Scope::Game, "turn_seat", 1);
            set(ctx, Scope::Game, "round", 1);
            if charged {
                token(ctx, "Calthia Xandire", "charge");
            }
        },
        frames,
    )
}

/// Harrowdeep 3.6 (002 L2406-2420; digest 3.6): Fatal Scheme's action (002 L1103-1121) is
/// offered in the activation step and resolves there: 1 glory spent, two cards drawn and two
/// discarded; then `after_activation` opens (its reaction step is settled).
#[test]
fn activation_upgrade_action_fatal_scheme_is_offered_and_resolves() {
    let rules = rules();
    let mut game = fatal_scheme_setup(&rules, 1, false, 1);
    let calthia = piece(game.state(), "Calthia Xandire");
    let offered = actions_offered(&game, SEEKERS);
    assert!(
        offered.contains(&option("use a fighter's action")),
        "{offered:?}"
    );
    expect(
        &mut game,
        SEEKERS,
        "Choose an action",
        option("use a fighter's action"),
    );
    expect(
        &mut game,
        SEEKERS,
        "Which fighter acts?",
        Choice::Piece(calthia),
    );
    for _ in 0..2 {
        let first = choices(&request(&game))[0].clone();
        expect(&mut game, SEEKERS, "Discard which power card?", first);
    }
    settle(&mut game);
    assert!(game.pending().is_empty(), "{:?}", game.pending());
    assert_eq!(glory_spent(game.state(), SEEKERS), 1);
    assert_eq!(names_in(game.state(), SEEKERS, "power_hand").len(), 0);
    assert_eq!(names_in(game.state(), SEEKERS, "power_discard").len(), 2);
    assert_eq!(names_in(game.state(), SEEKERS, "power_deck").len(), 1);
    // The activation ends with `after_activation` (and `after_action`, digest H10).
    let marked = markers(&game);
    assert!(
        marked.contains(&"after_activation".to_owned()),
        "{marked:?}"
    );
    assert!(marked.contains(&"after_action".to_owned()), "{marked:?}");
}

/// Fatal Scheme is once per round (002 L1103-1121): the next activation of the same round
/// does not offer it again, though glory is left.
#[test]
fn activation_upgrade_action_used_this_round_is_not_offered_again() {
    let rules = rules();
    let mut game = fatal_scheme_setup(&rules, 2, false, 2);
    let calthia = piece(game.state(), "Calthia Xandire");
    expect(
        &mut game,
        SEEKERS,
        "Choose an action",
        option("use a fighter's action"),
    );
    expect(
        &mut game,
        SEEKERS,
        "Which fighter acts?",
        Choice::Piece(calthia),
    );
    for _ in 0..2 {
        let first = choices(&request(&game))[0].clone();
        expect(&mut game, SEEKERS, "Discard which power card?", first);
    }
    settle(&mut game);
    let offered = actions_offered(&game, SEEKERS);
    assert!(
        !offered.contains(&option("use a fighter's action")),
        "{offered:?}"
    );
    assert!(offered.contains(&option("guard")));
}

/// A fighter with a Charge token is not activated again this phase (3.6, 002 L2406-2420;
/// digest 3.6), so its printed actions are not offered; neither is an action whose
/// condition fails (Fatal Scheme with no glory to spend).
#[test]
fn activation_upgrade_action_of_charged_or_unable_fighter_is_not_offered() {
    let rules = rules();
    let charged = fatal_scheme_setup(&rules, 1, true, 1);
    assert!(!actions_offered(&charged, SEEKERS).contains(&option("use a fighter's action")));
    let poor = fatal_scheme_setup(&rules, 0, false, 1);
    let offered = actions_offered(&poor, SEEKERS);
    assert!(
        !offered.contains(&option("use a fighter's action")),
        "{offered:?}"
    );
    assert!(offered.contains(&option("guard")));
}

/// Money Bags (Krookgrin's fighter-card action, 002 L490-524; Harrowdeep 3.6, digest 3.6): in
/// Krookgrin's activation his player spends 1 glory and a friendly minion (Gikkit) makes an
/// Attack action with 1 more die.
#[test]
fn activation_fighter_ability_money_bags_is_offered_and_a_minion_attacks() {
    let rules = rules();
    let gikkit_hex = pick(&rules, &[], |h| roomy(&rules, h));
    let calthia_hex = pick(&rules, &[gikkit_hex], |h| h.distance_to(gikkit_hex) == 1);
    let krookgrin_hex = away(&rules, &[gikkit_hex, calthia_hex], 3);
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
            set(ctx, Scope::Player(KREW), "glory", 1);
            set(ctx, Scope::Game, "round", 1);
        },
        vec![frame("activation", &[("player", Value::Player(KREW))])],
    );
    let krookgrin = piece(game.state(), "Krookgrin");
    let gikkit = piece(game.state(), "Gikkit");
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
    settle(&mut game);
    assert!(game.pending().is_empty(), "{:?}", game.pending());
    assert_eq!(glory_spent(game.state(), KREW), 1);
    // Krule Irons' 2 Dice and the 1 Money Bags adds, in one attack roll.
    assert_eq!(attack_rolls(&game), [2 + 1]);
    // The minion's Attack action resolves before the activation's `after_activation`.
    let marked = markers(&game);
    let attacked = marked.iter().position(|m| m == "after_attack");
    let ended = marked.iter().position(|m| m == "after_activation");
    assert!(
        attacked.is_some() && ended.is_some() && attacked < ended,
        "{marked:?}"
    );
    let base = game
        .state()
        .characteristic(gikkit, "attack_dice")
        .unwrap_or(0);
    assert_eq!(base, 0, "the extra die ends with the attack");
}

/// Calthia with Phantom Fathomer next to Shank, who has two upgrades (Titan of Krulety,
/// Fatal Scheme); the Truthseekers' activation.
fn fathomer_duel(rules: &RulesetGame) -> Game<Scenario> {
    let calthia = pick(rules, &[], |h| roomy(rules, h));
    let shank = pick(rules, &[calthia], |h| h.distance_to(calthia) == 1);
    scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            place_all(ctx, &[("Calthia Xandire", calthia), ("Shank", shank)]);
            upgrade(ctx, "Phantom Fathomer", "Calthia Xandire");
            upgrade(ctx, "Titan of Krulety", "Shank");
            upgrade(ctx, "Fatal Scheme", "Shank");
            set(ctx, Scope::Game, "turn_seat", 1);
            set(ctx, Scope::Game, "round", 1);
        },
        vec![frame("activation", &[("player", Value::Player(SEEKERS))])],
    )
}

/// Calthia attacks Shank with `weapon` in an Attack action of her activation; the dice of
/// each attack roll.
fn fathomer_attack(weapon: &str) -> Vec<usize> {
    let rules = rules();
    let mut game = fathomer_duel(&rules);
    let calthia = piece(game.state(), "Calthia Xandire");
    let shank = piece(game.state(), "Shank");
    expect(&mut game, SEEKERS, "Choose an action", option("attack"));
    expect(
        &mut game,
        SEEKERS,
        "Which fighter attacks?",
        Choice::Piece(calthia),
    );
    let asked = request(&game);
    assert_eq!(asked.prompt, "Which weapon?");
    assert_eq!(
        choices(&asked),
        [option("Broadsword"), option("Phantom Fathomer")],
        "the upgrade's Attack action is offered after her own"
    );
    expect(&mut game, SEEKERS, "Which weapon?", option(weapon));
    expect(&mut game, SEEKERS, "Which enemy?", Choice::Piece(shank));
    settle(&mut game);
    attack_rolls(&game)
}

/// Phantom Fathomer (002 L2155-2173; an upgrade's actions are usable when the fighter is
/// activated, Harrowdeep 3.16, digest 3.16 "Effects"): its own Attack action (Range 1, 1 Smash
/// die, Damage 2, Grievous) is one of Calthia's weapons in an Attack action, and rolls 1 more
/// die for each of the target's two upgrades: 1 + 2 dice. Her Broadsword (3 dice) gets none.
#[test]
fn phantom_fathomer_attack_action_uses_its_own_profile_with_a_die_per_target_upgrade() {
    assert_eq!(fathomer_attack("Phantom Fathomer"), [1 + 2]);
    assert_eq!(fathomer_attack("Broadsword"), [3]);
}

/// Answers like `settle` until nothing is pending, passing every reaction step; returns, for
/// each reaction step that offered an upgrade's reaction, the last window marked before it.
fn settle_noting_upgrade_reactions(game: &mut Game<Scenario>) -> Vec<String> {
    let mut offered_at = Vec::new();
    for _ in 0..80 {
        let Some(asked) = game.pending().first().map(|r| (*r).clone()) else {
            break;
        };
        if asked.prompt == "Reaction step: react or pass?"
            && choices(&asked).contains(&option("use an upgrade's reaction"))
        {
            offered_at.push(markers(game).last().cloned().unwrap_or_default());
        }
        let choice = match asked.prompt.as_str() {
            "Re-roll an attack die?" | "Re-roll a defence die?" => option("keep the roll"),
            "Drive the target back?" => option("do not drive back"),
            "Reaction step: react or pass?" => option("pass"),
            "Which weapon?" | "Which enemy?" => choices(&asked)[0].clone(),
            other => panic!("unexpected request: {other}"),
        };
        answer(game, choice);
    }
    offered_at
}

/// Harrowdeep, "after an action" of a granted action (002 L3092-3169, L3133-3135; digest 3.19,
/// H10): Money Bags (002 L490-524) grants Gikkit an Attack action; once it is resolved the
/// `after_action` window opens for Gikkit with its own reaction step, where Titan of Krulety
/// (002 L920-936: reaction after this fighter's action) on Gikkit is offered. Krookgrin's
/// activation then ends with one `after_activation` + `after_action` window for him, where
/// Gikkit's Titan is not offered.
#[test]
fn granted_attack_action_money_bags_opens_after_action_with_its_reaction_step() {
    let rules = rules();
    let gikkit_hex = pick(&rules, &[], |h| roomy(&rules, h));
    let calthia_hex = pick(&rules, &[gikkit_hex], |h| h.distance_to(gikkit_hex) == 1);
    let krookgrin_hex = away(&rules, &[gikkit_hex, calthia_hex], 3);
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
            upgrade(ctx, "Titan of Krulety", "Gikkit");
            set(ctx, Scope::Player(KREW), "glory", 1);
            set(ctx, Scope::Game, "round", 1);
            set(ctx, Scope::Game, "turn_seat", 0);
        },
        vec![frame("activation", &[("player", Value::Player(KREW))])],
    );
    let krookgrin = piece(game.state(), "Krookgrin");
    let gikkit = piece(game.state(), "Gikkit");
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
    let offered_at = settle_noting_upgrade_reactions(&mut game);
    assert!(game.pending().is_empty(), "{:?}", game.pending());
    assert_eq!(
        offered_at,
        ["after_action"],
        "Titan offered once, after Gikkit's action"
    );
    // Two `after_action` windows: Gikkit's granted Attack action, then Krookgrin's action
    // (shared with `after_activation`), in that order.
    let marked = markers(&game);
    let actions: Vec<usize> = marked
        .iter()
        .enumerate()
        .filter(|(_, m)| *m == "after_action")
        .map(|(i, _)| i)
        .collect();
    let attacked = marked.iter().position(|m| m == "after_attack");
    let ended = marked.iter().position(|m| m == "after_activation");
    assert_eq!(actions.len(), 2, "{marked:?}");
    assert!(
        attacked < Some(actions[0]) && Some(actions[0]) < ended,
        "{marked:?}"
    );
}

/// Harrowdeep, "after an action" (002 L3133-3135; digest 3.19, H10): a Move action made in an
/// activation opens no `after_action` of its own: the activation's window serves both, so
/// Titan of Krulety on the mover is offered once, in that window.
#[test]
fn activation_move_action_opens_one_shared_after_action_window() {
    let rules = rules();
    let shank_hex = pick(&rules, &[], |h| roomy(&rules, h));
    let calthia_hex = away(&rules, &[shank_hex], 4);
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place_all(
                ctx,
                &[("Shank", shank_hex), ("Calthia Xandire", calthia_hex)],
            );
            upgrade(ctx, "Titan of Krulety", "Shank");
            set(ctx, Scope::Game, "round", 1);
            set(ctx, Scope::Game, "turn_seat", 0);
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
    let to = choices(&request(&game))[0].clone();
    expect(&mut game, KREW, "Where does it move?", to);
    let mut offered_at = Vec::new();
    while let Some(asked) = game.pending().first().map(|r| (*r).clone()) {
        assert_eq!(asked.prompt, "Reaction step: react or pass?");
        if choices(&asked).contains(&option("use an upgrade's reaction")) {
            offered_at.push(markers(&game).last().cloned().unwrap_or_default());
        }
        answer(&mut game, option("pass"));
    }
    let marked = markers(&game);
    assert_eq!(
        marked.iter().filter(|m| *m == "after_action").count(),
        1,
        "{marked:?}"
    );
    // Offered once, in the step the Move's end shares with the activation's end (002
    // L3133-3135): it marks `after_move`, `after_action`, then `after_activation`.
    assert_eq!(offered_at, ["after_activation"], "{marked:?}");
}

/// Harrowdeep, "after an action" (002 L3092-3169, L3133-3135; digest 3.19, H10): a Charge made
/// in an activation is a superaction with a reaction step after each action in it (002
/// L2610-2620; the figure of 002 L3113-3138): its Move's end opens `after_action` with
/// `after_move` in a step of their own (the Move is not the last action), and its Attack's end
/// is the activation's end, one step for `after_attack`, `after_action` and
/// `after_activation`. (Before issue 18 item 4 the Move opened no `after_action`.)
#[test]
fn activation_charge_opens_one_after_action_window_for_its_move_and_attack() {
    let rules = rules();
    let shank_hex = pick(&rules, &[], |h| roomy(&rules, h));
    let calthia_hex = pick(&rules, &[shank_hex], |h| {
        h.distance_to(shank_hex) == 3 && roomy(&rules, h)
    });
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place_all(
                ctx,
                &[("Shank", shank_hex), ("Calthia Xandire", calthia_hex)],
            );
            set(ctx, Scope::Game, "round", 1);
            set(ctx, Scope::Game, "turn_seat", 0);
        },
        vec![frame("activation", &[("player", Value::Player(KREW))])],
    );
    let shank = piece(game.state(), "Shank");
    expect(&mut game, KREW, "Choose an action", option("charge"));
    expect(
        &mut game,
        KREW,
        "Which fighter charges?",
        Choice::Piece(shank),
    );
    let to = choices(&request(&game))[0].clone();
    expect(&mut game, KREW, "Where does it charge to?", to);
    settle(&mut game);
    assert!(game.pending().is_empty(), "{:?}", game.pending());
    let marked = markers(&game);
    let count = |name: &str| marked.iter().filter(|m| *m == name).count();
    assert_eq!(count("attack_declared"), 1, "{marked:?}");
    assert_eq!(count("after_action"), 2, "{marked:?}");
    assert_eq!(count("after_activation"), 1, "{marked:?}");
    let at = |name: &str| marked.iter().position(|m| m == name);
    assert!(
        at("after_move") < at("after_action") && at("after_action") < at("attack_declared"),
        "{marked:?}"
    );
}

/// Harrowdeep, Guard action (3.6; 002 L2598-2599): a fighter given a Guard token loses all
/// its Stagger tokens, not one; a fighter with two Stagger tokens that goes on Guard is no
/// longer staggered. (The activation removed one token.)
#[test]
fn a_guard_action_removes_every_stagger_token() {
    let rules = rules();
    let hex = pick(&rules, &[], |h| roomy(&rules, h));
    let mut game = scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            place_all(ctx, &[("Calthia Xandire", hex)]);
            let calthia = piece(ctx.state(), "Calthia Xandire");
            ctx.set_tokens(Scope::Piece(calthia), "stagger", 2)
                .expect("stagger");
        },
        vec![frame("activation", &[("player", Value::Player(SEEKERS))])],
    );
    let calthia = piece(game.state(), "Calthia Xandire");
    expect(&mut game, SEEKERS, "Choose an action", option("guard"));
    expect(
        &mut game,
        SEEKERS,
        "Which fighter goes on guard?",
        Choice::Piece(calthia),
    );
    let tokens = &game.state().pieces[&calthia].tokens;
    assert_eq!(tokens.get("guard"), Some(&1));
    assert_eq!(tokens.get("stagger"), None, "{tokens:?}");
}
