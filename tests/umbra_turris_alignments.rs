//! Umbra Turris's alignments (seed 003 L1542-1603, digest A18) and guilds (L1476-1538,
//! digest A17) played from the data: each party's bonus dice are counters of its seat
//! (`blessing`, `torment`, `inspiration`, `rage`, `tactics_a` / `tactics_b`), set by the
//! step `alignment_setup` and spent as choices of the player; a guild's bonuses read the
//! seat's `guild`. Each scenario arranges heroes through the kernel's `Ctx` (loaded dice
//! with `fix_dice`), runs a step of the flow and answers its requests, citing the seed
//! lines it checks.
//!
//! No legal Anarchist party exists with the roster as read (every race that allows the
//! Anarchists has sub-races that do not, and a sub-race is required): the Rage Dice are
//! played by setting the seat's `alignment` counter to 4 through the `Ctx`.
//!
//! | Ability | Test |
//! |---|---|
//! | the party's alignment and guild, read from its heroes | `the_alignment_guild_and_stocks_are_set_before_the_battle` |
//! | Blessing Dice: their number (L1554) | `the_alignment_guild_and_stocks_are_set_before_the_battle` |
//! | Blessing: a hero about to drop to 0 W (L1554) | `a_blessing_dice_keeps_a_falling_hero_at_1_w_on_4_and_unhurt_on_6` |
//! | Blessing: a 1 rolled in combat (L1554) | `a_blessing_dice_rerolls_a_1_in_combat_and_returns_on_5` |
//! | Torment: the offering (L1601) | `the_alignment_guild_and_stocks_are_set_before_the_battle` |
//! | Torment: an enemy removed, 4+ (L1601) | `torment_and_inspiration_dice_come_from_enemies_falling` |
//! | Torment: re-roll any die, the second stands (L1601) | `a_torment_dice_rerolls_one_die_and_the_second_result_stands` |
//! | Inspiration Dice: their number and the enemy at 0 W (L1576) | `the_alignment_guild_and_stocks_are_set_before_the_battle`, `torment_and_inspiration_dice_come_from_enemies_falling` |
//! | Inspiration: parried, 3+ regains the Action Dice; parry again; once a Cycle (L1576) | `inspiration_regains_the_action_dice_when_parried_and_parries_again` |
//! | Battle Tactics: gained, kept, swapped (L1566) | `battle_tactics_keep_a_rolled_value_and_swap_it_for_a_die` |
//! | Rage: rolled in the first Cycle, gained by Wounds dealt, spent at the Initiative (L1586) | `rage_is_rolled_in_the_first_cycle_gained_by_wounds_and_spent_at_the_initiative` |
//! | Tracker, a Tracker Leader: +1 BS, Spot re-rolled (L1526) | `a_tracker_leaders_party_shoots_at_plus_1_bs_and_rerolls_spot_tests` |
//! | Mercenary: +1 WS or S on a charge, one more order (L1530-1534) | `the_mercenaries_strike_harder_on_a_charge`, `the_alignment_guild_and_stocks_are_set_before_the_battle` |
//! | Assassins: +1 Precision, the Leader's Fear (L1480-1486) | `the_assassins_precision_and_their_leaders_fear` |

use gloam::core::{Ctx, Game, GameState, PlayerId, Scope, Value, ZoneId};
use gloam::engine::RulesetGame;

mod scenario;
use scenario::{
    Scenario, answer, frame, has_said, option, options, pending, piece, piece_counter as counter,
    player_counter, scenario, shipped, tokens,
};
use scenario::{party_duel, stand};

const ANN: PlayerId = PlayerId(0);
const BO: PlayerId = PlayerId(1);

/// Test parties, legal under the building rules (`gloam check`): a Lawful one (Gnomes, who
/// also allow Good, and an Executioner, who does not), a Good one of Mortenians with a
/// Wizard of the Light, a
/// Neutral Mercenary Guild (Dwarfs of Thargomind, a Duelist Leader), an Evil Assassins
/// Guild (Dark Elves) and a Neutral one of Mortenians, whose heroes allow three alignments.
const PARTIES: &str = r#"
party "Test Gnome Watch" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = lawful
    points = 1500
    source = "ours"
    hero "Watch Captain" { race = "Gnomes" profession = "Soldier" leader = true equipment = ["Spear"] }
    hero "Watch 1" { race = "Gnomes" profession = "Soldier" equipment = ["Spear"] }
    hero "Watch 2" { race = "Gnomes" profession = "Soldier" equipment = ["Spear"] }
    hero "Watch 3" { race = "Gnomes" profession = "Soldier" equipment = ["Spear"] }
    hero "Watch 4" { race = "Gnomes" profession = "Soldier" equipment = ["Spear"] }
    hero "Watch 5" { race = "Gnomes" profession = "Executioner" equipment = ["Spear"] }
}

party "Test Thargo Sellswords" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 1500
    guild = "Mercenary"
    source = "ours"
    hero "Sell Captain" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Duelist" leader = true equipment = ["Spear"] }
    hero "Sell 1" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Sell 2" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Sell 3" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Sell 4" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
    hero "Sell 5" { race = "Dwarfs" subrace = "Dwarfs of Thargomind" profession = "Soldier" equipment = ["Spear"] }
}

party "Test Night Knives" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = evil
    points = 1500
    guild = "Assassins"
    source = "ours"
    hero "Knife Captain" { race = "Elves" subrace = "Dark Elves" profession = "Assassin" leader = true equipment = ["Spear"] }
    hero "Knife 1" { race = "Elves" subrace = "Dark Elves" profession = "Assassin" equipment = ["Spear"] }
    hero "Knife 2" { race = "Elves" subrace = "Dark Elves" profession = "Cutthroat" equipment = ["Spear"] }
    hero "Knife 3" { race = "Elves" subrace = "Dark Elves" profession = "Executioner" equipment = ["Spear"] }
    hero "Knife 4" { race = "Elves" subrace = "Dark Elves" profession = "Soldier" equipment = ["Spear"] }
    hero "Knife 5" { race = "Elves" subrace = "Dark Elves" profession = "Soldier" equipment = ["Spear"] }
}

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
    hero "Grey 4" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Grey 5" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
}

party "Test Green Stalkers" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = good
    points = 1500
    guild = "Tracker"
    source = "ours"
    hero "Stalk Captain" { race = "Elves" subrace = "Wood elves" profession = "Tracker" leader = true equipment = ["Bow"] }
    hero "Stalk 1" { race = "Elves" subrace = "Wood elves" profession = "Scout" equipment = ["Spear"] }
    hero "Stalk 2" { race = "Elves" subrace = "Wood elves" profession = "Scout" equipment = ["Spear"] }
    hero "Stalk 3" { race = "Elves" subrace = "Wood elves" profession = "Soldier" equipment = ["Spear"] }
    hero "Stalk 4" { race = "Elves" subrace = "Wood elves" profession = "Soldier" equipment = ["Spear"] }
    hero "Stalk 5" { race = "Elves" subrace = "Wood elves" profession = "Soldier" equipment = ["Spear"] }
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
    hero "Dawn 3" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
    hero "Dawn 4" { race = "Humans" subrace = "Mortenians" profession = "Soldier" equipment = ["Spear"] }
}
"#;

/// A match of the shipped data plus the test parties, `a` against `b`.
fn duel(a: &str, b: &str) -> RulesetGame {
    party_duel(PARTIES, a, b)
}

fn rules() -> RulesetGame {
    shipped("umbra_turris")
}

fn id(state: &GameState, kind: &str) -> Value {
    Value::Piece(piece(state, kind))
}

fn set(ctx: &mut Ctx<'_>, seat: PlayerId, name: &str, value: i64) {
    ctx.set_counter(Scope::Player(seat), name, value)
        .expect("counter");
}

fn pick(game: &mut Game<Scenario>, who: PlayerId, text: &str) {
    answer(game, who, option(text));
}

/// The one pending request's player and options.
fn asked(game: &Game<Scenario>) -> (PlayerId, Vec<String>) {
    let request = pending(game).expect("a request");
    (request.player, options(&request))
}

/// A close-combat exchange of the shipped parties: `attacker` attacks `defender`, in base
/// contact (the attacker to the south, facing north), with the faces `dice` loaded; `how`
/// is `charge` for a charge.
fn fight(
    attacker: &'static str,
    defender: &'static str,
    how: &str,
    dice: &'static [&'static str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    fight_in(&rules(), attacker, defender, how, dice, arrange)
}

fn fight_in(
    rules: &RulesetGame,
    attacker: &'static str,
    defender: &'static str,
    how: &str,
    dice: &'static [&'static str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let game = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let (a, d) = (id(game.state(), attacker), id(game.state(), defender));
    let owner = game.state().pieces[&piece(game.state(), attacker)].owner;
    scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, attacker, 3500, 3000, (0, 1));
            stand(ctx, defender, 3500, 3250, (0, -1));
            arrange(ctx);
            ctx.fix_dice("d6", dice);
        },
        vec![frame(
            "fight",
            &[
                ("player", Value::Player(owner)),
                ("fighter", a),
                ("target", d),
                ("data", Value::Str(how.to_owned())),
            ],
        )],
    )
}

/// Both players answer the secret guess.
fn guess(game: &mut Game<Scenario>, blow: &str, guard: &str) {
    let asked: Vec<PlayerId> = game.pending().iter().map(|r| r.player).collect();
    assert_eq!(asked.len(), 2, "a secret guess asks both players");
    pick(game, asked[0], blow);
    pick(game, asked[1], guard);
}

/// `target` loses `count` Wounds (by `attacker`, when given), with `dice` loaded.
fn wound(
    rules: &RulesetGame,
    target: &'static str,
    attacker: Option<&'static str>,
    counts: &[i64],
    dice: &'static [&'static str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let mut vars = vec![
        ("target", id(start.state(), target)),
        ("data", Value::Str("combat".into())),
    ];
    if let Some(a) = attacker {
        vars.push(("attacker", id(start.state(), a)));
    }
    let frames = counts
        .iter()
        .map(|n| {
            let mut v = vars.clone();
            v.push(("count", Value::Int(*n)));
            frame("wound", &v)
        })
        .collect();
    scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, target, 3500, 3000, (0, 1));
            if let Some(a) = attacker {
                stand(ctx, a, 3500, 3250, (0, -1));
            }
            arrange(ctx);
            ctx.fix_dice("d6", dice);
        },
        frames,
    )
}

/// The step `alignment_setup` for both seats of `rules`, with `dice` loaded.
fn set_up(rules: &RulesetGame, dice: &'static [&'static str]) -> Game<Scenario> {
    scenario(
        rules,
        move |ctx: &mut Ctx<'_>| ctx.fix_dice("d6", dice),
        vec![
            frame("alignment_setup", &[("player", Value::Player(ANN))]),
            frame("alignment_setup", &[("player", Value::Player(BO))]),
        ],
    )
}

#[test]
fn the_alignment_guild_and_stocks_are_set_before_the_battle() {
    // 003 L1554: a Good party gets half its size in Blessing Dice, rounded up, and its
    // Paladin 2 more (L1300; the Lantern Wardens' 9 heroes and Sir Aldwin's: 5 + 2). L1601:
    // each Evil hero may offer its soul, losing 1 W, and brings a Torment Dice on 3+.
    let mut game = set_up(&rules(), &["3", "2"]);
    let state = game.state();
    assert_eq!(player_counter(state, ANN, "alignment"), 1);
    assert_eq!(player_counter(state, ANN, "blessing"), 7);
    // Each hero is asked in turn; Hrodgar (a 3) and Ugluk (a 2) offer, the others keep it.
    let mut asked_heroes = 0;
    while let Some(request) = pending(&game) {
        assert_eq!(request.player, BO);
        let offer = options(&request)[0].clone();
        assert!(offer.starts_with("offer "), "{offer}");
        asked_heroes += 1;
        if offer.contains("Hrodgar") || offer.contains("Ugluk") {
            pick(&mut game, BO, &offer);
        } else {
            pick(&mut game, BO, "keep it");
        }
    }
    assert_eq!(asked_heroes, 7, "every hero of the Ashen Court");
    let state = game.state();
    assert_eq!(player_counter(state, BO, "alignment"), 5);
    assert_eq!(
        player_counter(state, BO, "torment"),
        1,
        "3 brings one, 2 none"
    );
    assert_eq!(counter(state, "Hrodgar", "damage"), 1);
    assert_eq!(counter(state, "Ugluk", "damage"), 1);
    assert_eq!(counter(state, "Grizzle", "damage"), 0);
    assert_eq!(player_counter(state, ANN, "torment"), 0);

    // L1576: a Neutral party gets the Leader's LD halved, rounded up, in Inspiration Dice;
    // L1530-1534: the Mercenary Guild (a Duelist Leader and Soldiers) has one more order.
    // Lawful (Gnomes only) and Evil Assassins are read from the heroes too.
    let sell = duel("Test Thargo Sellswords", "Test Gnome Watch");
    let game = set_up(&sell, &[]);
    let state = game.state();
    let captain = piece(state, "Sell Captain");
    let ld = state.characteristic(captain, "ld").expect("LD");
    assert_eq!(player_counter(state, ANN, "alignment"), 3);
    assert_eq!(player_counter(state, ANN, "inspiration"), (ld + 1) / 2);
    assert_eq!(player_counter(state, ANN, "guild"), 5);
    assert_eq!(player_counter(state, ANN, "orders"), 1);
    assert_eq!(player_counter(state, BO, "alignment"), 2);
    assert_eq!(player_counter(state, BO, "guild"), 0);
    assert_eq!(player_counter(state, BO, "orders"), 0);
    // The party's alignment is the one it declares (`party_of`), even where its heroes
    // would allow several: the Grey Band (Mortenians and Soldiers: Good, Neutral or Evil)
    // is Neutral and gets its Inspiration Dice.
    let knives = duel("Test Night Knives", "Test Grey Band");
    let mut game = set_up(&knives, &[]);
    while pending(&game).is_some() {
        pick(&mut game, ANN, "keep it");
    }
    let state = game.state();
    assert_eq!(player_counter(state, ANN, "alignment"), 5);
    assert_eq!(player_counter(state, ANN, "guild"), 1);
    assert_eq!(player_counter(state, BO, "alignment"), 3);
    let grey = piece(state, "Grey Captain");
    let ld = state.characteristic(grey, "ld").expect("LD");
    assert_eq!(player_counter(state, BO, "inspiration"), (ld + 1) / 2);
    assert!(pending(&game).is_none());
    // The same Mortenians with a Wizard of the Light (a Good domain, L706): Good, 6 heroes,
    // 3 Blessing Dice.
    let dawn = duel("Test Dawn Choir", "Test Grey Band");
    let game = set_up(&dawn, &[]);
    assert_eq!(player_counter(game.state(), ANN, "alignment"), 1);
    assert_eq!(player_counter(game.state(), ANN, "blessing"), 3);
}

#[test]
fn a_blessing_dice_keeps_a_falling_hero_at_1_w_on_4_and_unhurt_on_6() {
    // 003 L1554: a hero to be reduced to 0 W; a Blessing Dice rolled: 4+ leaves 1 W, 6 no
    // damage; below 4 it falls. Hedda has 7 W.
    let rules = rules();
    let blessed = |n: i64| move |ctx: &mut Ctx<'_>| set(ctx, ANN, "blessing", n);
    for (face, damage) in [("4", 6), ("6", 0), ("3", 7)] {
        let dice: &'static [&'static str] = match face {
            "4" => &["4"],
            "6" => &["6"],
            _ => &["3"],
        };
        let mut game = wound(&rules, "Hedda", None, &[9], dice, blessed(2));
        let (who, offered) = asked(&game);
        assert_eq!(who, ANN);
        assert_eq!(offered, ["spend a Blessing Dice", "let it fall"]);
        pick(&mut game, ANN, "spend a Blessing Dice");
        let state = game.state();
        assert_eq!(counter(state, "Hedda", "damage"), damage, "a {face}");
        assert_eq!(
            tokens(state, "Hedda", "death_counter"),
            i64::from(damage == 7)
        );
        assert_eq!(player_counter(state, ANN, "blessing"), 1);
    }
    // Declined, or without a Blessing Dice, it falls; a loss that leaves a Wound asks nothing.
    let mut declined = wound(&rules, "Hedda", None, &[9], &[], blessed(2));
    pick(&mut declined, ANN, "let it fall");
    assert_eq!(tokens(declined.state(), "Hedda", "death_counter"), 1);
    assert_eq!(player_counter(declined.state(), ANN, "blessing"), 2);
    let none = wound(&rules, "Hedda", None, &[9], &[], blessed(0));
    assert!(pending(&none).is_none());
    assert_eq!(tokens(none.state(), "Hedda", "death_counter"), 1);
    let light = wound(&rules, "Hedda", None, &[3], &[], blessed(2));
    assert!(pending(&light).is_none());
    assert_eq!(counter(light.state(), "Hedda", "damage"), 3);
}

#[test]
fn a_blessing_dice_rerolls_a_1_in_combat_and_returns_on_5() {
    // 003 L1554: a 1 rolled in combat may be re-rolled with a Blessing Dice; 5+ on the
    // re-roll gives the die back. Hedda (WS 7, Halberd) against Grizzle (WS 6): a 1 and
    // Grizzle's 2 tie at 8 and fail (tests/umbra_turris_play.rs); re-rolled to 5, 12 wins.
    let blessed = |ctx: &mut Ctx<'_>| set(ctx, ANN, "blessing", 1);
    let mut game = fight("Hedda", "Grizzle", "", &["1", "5", "2"], blessed);
    guess(&mut game, "Halberd / body", "head");
    pick(&mut game, ANN, "normal");
    let (who, offered) = asked(&game);
    assert_eq!(who, ANN);
    assert_eq!(offered, ["re-roll it (Blessing Dice)", "keep it"]);
    pick(&mut game, ANN, "re-roll it (Blessing Dice)");
    assert!(has_said(&game, "normal strike: 12 against 8"));
    assert!(has_said(&game, "gets the Blessing Dice back"));
    assert_eq!(player_counter(game.state(), ANN, "blessing"), 1);
    let mut spent = fight("Hedda", "Grizzle", "", &["1", "3", "2"], blessed);
    guess(&mut spent, "Halberd / body", "head");
    pick(&mut spent, ANN, "normal");
    pick(&mut spent, ANN, "re-roll it (Blessing Dice)");
    assert!(has_said(&spent, "normal strike: 10 against 8"));
    assert_eq!(player_counter(spent.state(), ANN, "blessing"), 0);
    // Without a Blessing Dice nothing is asked: the tie fails.
    let mut plain = fight("Hedda", "Grizzle", "", &["1", "2"], |_| {});
    guess(&mut plain, "Halberd / body", "head");
    pick(&mut plain, ANN, "normal");
    assert!(has_said(&plain, "normal strike: 8 against 8"));
    assert!(pending(&plain).is_none());
}

#[test]
fn a_torment_dice_rerolls_one_die_and_the_second_result_stands() {
    // 003 L1601: a Torment Dice re-rolls any die; the second result stands. Grizzle's
    // defence die of 2 (8 against Hedda's 11) re-rolled to 6: 12, the blow fails.
    let tormented = |ctx: &mut Ctx<'_>| set(ctx, BO, "torment", 1);
    let mut game = fight("Hedda", "Grizzle", "", &["4", "2", "6"], tormented);
    guess(&mut game, "Halberd / body", "head");
    pick(&mut game, ANN, "normal");
    let (who, offered) = asked(&game);
    assert_eq!(who, BO);
    assert_eq!(
        offered,
        ["keep the roll", "re-roll die 1 (2) with a Torment Dice"]
    );
    pick(&mut game, BO, "re-roll die 1 (2) with a Torment Dice");
    assert!(has_said(&game, "normal strike: 11 against 12"));
    assert_eq!(player_counter(game.state(), BO, "torment"), 0);
    assert_eq!(counter(game.state(), "Grizzle", "damage"), 0);
    // Kept: 11 against 8, 3 damage, and the die stays.
    let mut kept = fight("Hedda", "Grizzle", "", &["4", "2"], tormented);
    guess(&mut kept, "Halberd / body", "head");
    pick(&mut kept, ANN, "normal");
    pick(&mut kept, BO, "keep the roll");
    assert!(has_said(&kept, "normal strike: 11 against 8"));
    assert_eq!(player_counter(kept.state(), BO, "torment"), 1);
    assert_eq!(counter(kept.state(), "Grizzle", "damage"), 3);
}

#[test]
fn torment_and_inspiration_dice_come_from_enemies_falling() {
    // 003 L1601: for every enemy removed, 4+ gives a Torment Dice (ours: at its Death
    // Counter); L1576: an enemy reduced to 0 W gives an Inspiration Dice.
    let rules = rules();
    let evil = |ctx: &mut Ctx<'_>| set(ctx, BO, "alignment", 5);
    let four = wound(&rules, "Hedda", None, &[9], &["4"], evil);
    assert_eq!(player_counter(four.state(), BO, "torment"), 1);
    let three = wound(&rules, "Hedda", None, &[9], &["3"], evil);
    assert_eq!(player_counter(three.state(), BO, "torment"), 0);
    // A hero that keeps a Wound brings nothing.
    let hurt = wound(&rules, "Hedda", None, &[3], &["6"], evil);
    assert_eq!(player_counter(hurt.state(), BO, "torment"), 0);
    let neutral = |ctx: &mut Ctx<'_>| set(ctx, BO, "alignment", 3);
    let fell = wound(&rules, "Hedda", None, &[9], &[], neutral);
    assert_eq!(player_counter(fell.state(), BO, "inspiration"), 1);
    // Its own hero falling brings the party nothing.
    let own = wound(&rules, "Grizzle", None, &[9], &[], neutral);
    assert_eq!(player_counter(own.state(), BO, "inspiration"), 0);
}

#[test]
fn inspiration_regains_the_action_dice_when_parried_and_parries_again() {
    // 003 L1576: the attack parried, an Inspiration Dice rolled: 3+ gives the attacker its
    // Action Dice back. One Inspiration Dice a hero per Cycle.
    let inspired = |ctx: &mut Ctx<'_>| set(ctx, ANN, "inspiration", 2);
    let mut game = fight("Hedda", "Grizzle", "", &["3"], inspired);
    guess(&mut game, "Halberd / head", "head");
    let (who, offered) = asked(&game);
    assert_eq!(who, ANN);
    assert_eq!(
        offered,
        ["roll for the Action Dice (Inspiration Dice)", "no"]
    );
    pick(
        &mut game,
        ANN,
        "roll for the Action Dice (Inspiration Dice)",
    );
    assert_eq!(tokens(game.state(), "Hedda", "action_die"), 1);
    assert_eq!(player_counter(game.state(), ANN, "inspiration"), 1);
    let mut low = fight("Hedda", "Grizzle", "", &["2"], inspired);
    guess(&mut low, "Halberd / head", "head");
    pick(&mut low, ANN, "roll for the Action Dice (Inspiration Dice)");
    assert_eq!(tokens(low.state(), "Hedda", "action_die"), 0);
    // Already used this Cycle (Cycle 0 of the scenario is stored as 1): not offered.
    let mut used = fight("Hedda", "Grizzle", "", &[], move |ctx: &mut Ctx<'_>| {
        inspired(ctx);
        let hedda = piece(ctx.state(), "Hedda");
        ctx.set_counter(Scope::Piece(hedda), "inspired_cycle", 1)
            .expect("counter");
    });
    guess(&mut used, "Halberd / head", "head");
    assert!(pending(&used).is_none());
    // The defender failed to parry: an Inspiration Dice lets it try again (ours: the
    // secret guess is made again); this time the parry holds.
    let mut again = fight("Hedda", "Grizzle", "", &[], |ctx: &mut Ctx<'_>| {
        set(ctx, BO, "inspiration", 1);
    });
    guess(&mut again, "Halberd / legs", "head");
    let (who, offered) = asked(&again);
    assert_eq!(who, BO);
    assert_eq!(offered, ["parry again (Inspiration Dice)", "take the blow"]);
    pick(&mut again, BO, "parry again (Inspiration Dice)");
    guess(&mut again, "Halberd / legs", "legs");
    assert!(has_said(&again, "parries the blow"));
    assert_eq!(player_counter(again.state(), BO, "inspiration"), 0);
    assert!(pending(&again).is_none());
}

#[test]
fn battle_tactics_keep_a_rolled_value_and_swap_it_for_a_die() {
    // 003 L1566: one hero's actions cost one enemy 3 W in a Cycle: a Battle Tactics Dice is
    // rolled and kept with its value (two at most); later it replaces a die rolled.
    let rules = rules();
    let lawful = |ctx: &mut Ctx<'_>| set(ctx, ANN, "alignment", 2);
    let game = wound(&rules, "Grizzle", Some("Hedda"), &[2, 1], &["4"], lawful);
    assert_eq!(player_counter(game.state(), ANN, "tactics_a"), 4);
    assert_eq!(player_counter(game.state(), ANN, "tactics_b"), 0);
    // 2 W is not enough.
    let short = wound(&rules, "Grizzle", Some("Hedda"), &[2], &["4"], lawful);
    assert_eq!(player_counter(short.state(), ANN, "tactics_a"), 0);
    // A third while holding two: the player may keep the old ones or replace one.
    let mut full = wound(&rules, "Grizzle", Some("Hedda"), &[3], &["6"], |ctx| {
        set(ctx, ANN, "alignment", 2);
        set(ctx, ANN, "tactics_a", 2);
        set(ctx, ANN, "tactics_b", 3);
    });
    let (who, offered) = asked(&full);
    assert_eq!(who, ANN);
    assert_eq!(
        offered,
        ["discard the 6", "replace the 2", "replace the 3 "]
    );
    pick(&mut full, ANN, "replace the 2");
    assert_eq!(player_counter(full.state(), ANN, "tactics_a"), 6);
    assert_eq!(player_counter(full.state(), ANN, "tactics_b"), 3);
    // Swapped: Hedda's 1 becomes the kept 5: 12 against 8.
    let mut swap = fight("Hedda", "Grizzle", "", &["1", "2"], |ctx: &mut Ctx<'_>| {
        set(ctx, ANN, "tactics_a", 5);
    });
    guess(&mut swap, "Halberd / body", "head");
    pick(&mut swap, ANN, "normal");
    pick(&mut swap, ANN, "swap die 1 (1) for the Battle Tactics 5");
    assert!(has_said(&swap, "normal strike: 12 against 8"));
    assert_eq!(player_counter(swap.state(), ANN, "tactics_a"), 0);
}

#[test]
fn rage_is_rolled_in_the_first_cycle_gained_by_wounds_and_spent_at_the_initiative() {
    // 003 L1586 (no legal Anarchist party: the seat's alignment is set to 4). In the first
    // Cycle a hero may give up its turn and roll: 4+ a Rage Dice.
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let hedda = id(start.state(), "Hedda");
    let activation = |first: bool| {
        scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| {
                stand(ctx, "Hedda", 3500, 1000, (0, 1));
                stand(ctx, "Grizzle", 3500, 6000, (0, -1));
                set(ctx, ANN, "alignment", 4);
                ctx.set_counter(Scope::Game, "cycle", if first { 1 } else { 2 })
                    .expect("cycle");
                ctx.fix_dice("d6", &["4"]);
            },
            vec![frame(
                "activation",
                &[("player", Value::Player(ANN)), ("fighter", hedda.clone())],
            )],
        )
    };
    let mut game = activation(true);
    let (_, offered) = asked(&game);
    assert!(offered.contains(&"rage".to_owned()), "{offered:?}");
    pick(&mut game, ANN, "rage");
    assert_eq!(player_counter(game.state(), ANN, "rage"), 1);
    assert!(pending(&game).is_none(), "the turn is given up");
    let later = activation(false);
    assert!(!options(&pending(&later).expect("the turn")).contains(&"rage".to_owned()));
    // W dealt to the enemies in one Cycle as many as the party's starting heroes: one die.
    let dealt = wound(&rules, "Grizzle", Some("Hedda"), &[1, 1, 1], &[], |ctx| {
        set(ctx, ANN, "alignment", 4);
        set(ctx, ANN, "start_heroes", 2);
    });
    assert_eq!(player_counter(dealt.state(), ANN, "rage"), 1);
    // Spent in the Initiative Phase: +1 to the attack and defence characteristics.
    let mut spent = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| {
            stand(ctx, "Hedda", 3500, 1000, (0, 1));
            stand(ctx, "Grizzle", 3500, 6000, (0, -1));
            set(ctx, ANN, "rage", 1);
        },
        vec![frame("placement", &[])],
    );
    let (who, offered) = asked(&spent);
    assert_eq!(who, ANN);
    assert_eq!(offered, ["spend a Rage Dice", "keep them"]);
    pick(&mut spent, ANN, "spend a Rage Dice");
    let state = spent.state();
    let h = piece(state, "Hedda");
    let g = piece(state, "Grizzle");
    assert_eq!(state.characteristic(h, "ws"), Some(8));
    assert_eq!(state.characteristic(h, "t"), Some(8));
    assert_eq!(state.characteristic(g, "ws"), Some(6));
    assert_eq!(player_counter(state, ANN, "rage"), 0);
}

#[test]
fn the_mercenaries_strike_harder_on_a_charge() {
    // 003 L1532: +1 to WS or S when charging (ours: the one the strike uses). Hedda's 4
    // against Grizzle's 2: 11 against 8, 12 in a Mercenary party on a charge.
    let merc = |ctx: &mut Ctx<'_>| set(ctx, ANN, "guild", 5);
    let mut game = fight("Hedda", "Grizzle", "charge", &["4", "2"], merc);
    guess(&mut game, "Halberd / body", "head");
    pick(&mut game, ANN, "normal");
    assert!(has_said(&game, "normal strike: 12 against 8"));
    let mut standing = fight("Hedda", "Grizzle", "", &["4", "2"], merc);
    guess(&mut standing, "Halberd / body", "head");
    pick(&mut standing, ANN, "normal");
    assert!(has_said(&standing, "normal strike: 11 against 8"));
    let mut plain = fight("Hedda", "Grizzle", "charge", &["4", "2"], |_| {});
    guess(&mut plain, "Halberd / body", "head");
    pick(&mut plain, ANN, "normal");
    assert!(has_said(&plain, "normal strike: 11 against 8"));
}

#[test]
fn the_assassins_precision_and_their_leaders_fear() {
    // 003 L1484: +1 to Precision Strikes. Hedda (Sp 7): 3 + 3 + 7 against 2 + 2 + Grizzle's
    // Sp; one more in an Assassins party.
    let precision = |guild: i64| {
        let mut game = fight("Hedda", "Grizzle", "", &["3", "3", "2", "2"], move |ctx| {
            set(ctx, ANN, "guild", guild);
        });
        guess(&mut game, "Halberd / body", "head");
        pick(&mut game, ANN, "precision");
        game
    };
    let plain = precision(0);
    let guild = precision(1);
    let line = |game: &Game<Scenario>| {
        scenario::said(game)
            .into_iter()
            .find(|l| l.contains("precision strike:"))
            .expect("a precision strike")
    };
    let total = |l: String| -> i64 {
        l.split("strike: ")
            .nth(1)
            .expect("total")
            .split(' ')
            .next()
            .expect("n")
            .parse()
            .expect("int")
    };
    assert_eq!(total(line(&guild)), total(line(&plain)) + 1);
    // L1486: the Leader gains Fear: charging, it cannot be parried by a foe without Fear
    // (L802): the attacker chooses openly.
    let mut fear = fight(
        "Sir Aldwin",
        "Grizzle",
        "charge",
        &[],
        |ctx: &mut Ctx<'_>| {
            set(ctx, ANN, "guild", 1);
        },
    );
    let request = pending(&fear).expect("the blow");
    assert!(!request.secret, "no parry");
    assert_eq!(fear.pending().len(), 1);
    pick(&mut fear, ANN, "Sword, short sword / body");
    let normal = fight("Sir Aldwin", "Grizzle", "charge", &[], |_| {});
    assert_eq!(normal.pending().len(), 2, "a secret guess");
}

#[test]
fn a_tracker_leaders_party_shoots_at_plus_1_bs_and_rerolls_spot_tests() {
    // 003 L1518-1526: a Tracker Guild party (a Tracker Leader and two Scouts) is read as
    // such; with a Tracker Leader each hero gains +1 BS. The same wound roll of the Leader's
    // Bow at a Mortenian, with and without the guild.
    let rules = duel("Test Green Stalkers", "Test Grey Band");
    let game = set_up(&rules, &[]);
    assert_eq!(player_counter(game.state(), ANN, "guild"), 4);
    assert_eq!(player_counter(game.state(), ANN, "alignment"), 1);
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let (captain, grey) = (
        id(start.state(), "Stalk Captain"),
        id(start.state(), "Grey 1"),
    );
    let shot = |guild: i64| {
        let (captain, grey) = (captain.clone(), grey.clone());
        let game = scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| {
                stand(ctx, "Stalk Captain", 3500, 1000, (0, 1));
                stand(ctx, "Grey 1", 3500, 3000, (0, -1));
                set(ctx, ANN, "guild", guild);
                ctx.fix_dice("d6", &["4", "4", "3", "3"]);
            },
            vec![frame(
                "shot_wound",
                &[
                    ("player", Value::Player(ANN)),
                    ("fighter", captain),
                    ("target", grey),
                    ("weapon", Value::Str("Bow".into())),
                    ("count", Value::Int(0)),
                    ("data", Value::Str("aimed".into())),
                ],
            )],
        );
        scenario::said(&game)
            .into_iter()
            .find(|l| l.contains("the shot"))
            .expect("the wound roll")
    };
    let total = |l: String| -> i64 {
        l.split('(')
            .nth(1)
            .expect("total")
            .split(' ')
            .next()
            .expect("n")
            .parse()
            .expect("int")
    };
    assert_eq!(total(shot(4)), total(shot(0)) + 1);
    // L1526: Spot tests may be re-rolled: a failed 2, re-rolled to 5, finds Grey 1. The
    // spotter is a Scout of the party (the Tracker Leader re-rolls his own Spot tests as a
    // Tracker, L1312, without the guild).
    let scout = id(start.state(), "Stalk 1");
    let spot = |guild: i64| {
        let captain = scout.clone();
        scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| {
                stand(ctx, "Stalk 1", 3500, 1000, (0, 1));
                stand(ctx, "Grey 1", 3500, 2000, (0, -1));
                let grey = piece(ctx.state(), "Grey 1");
                ctx.set_tokens(Scope::Piece(grey), "hidden", 1)
                    .expect("hidden");
                set(ctx, ANN, "guild", guild);
                ctx.fix_dice("d6", &["2", "5"]);
            },
            vec![frame(
                "spot",
                &[("player", Value::Player(ANN)), ("fighter", captain)],
            )],
        )
    };
    // The one hidden enemy is chosen first.
    let target = |game: &mut Game<Scenario>| {
        let request = pending(game).expect("whom to spot");
        let gloam::core::Options::One { choices } = &request.options else {
            panic!("{:?}", request.options)
        };
        answer(game, ANN, choices[0].clone());
    };
    let mut game = spot(4);
    target(&mut game);
    let (who, offered) = asked(&game);
    assert_eq!(who, ANN);
    assert_eq!(
        offered,
        ["keep it", "re-roll the Spot test (Tracker Guild)"]
    );
    pick(&mut game, ANN, "re-roll the Spot test (Tracker Guild)");
    assert_eq!(tokens(game.state(), "Grey 1", "hidden"), 0);
    let mut plain = spot(0);
    target(&mut plain);
    assert!(pending(&plain).is_none());
    assert_eq!(tokens(plain.state(), "Grey 1", "hidden"), 1);
}

#[test]
fn professions_change_their_partys_bonus_dice() {
    // 003 L1300: a Paladin brings 2 more Blessing Dice; L1452: a Herbalist's Good party
    // re-rolls 1s and 2s with them; L1436: a Fortune teller's Evil party adds 1 to its
    // Torment re-rolls; L1392: a Charlatan gives an Anarchist party a Rage Dice. The shipped
    // Lantern Wardens have a Paladin (the test above); the others are given the profession's
    // card and the seat's alignment is set, as no legal party holds them all.
    let rules = rules();
    let with = |profession: &'static str, alignment: i64| {
        scenario(
            &rules,
            move |ctx: &mut Ctx<'_>| {
                let hero = piece(ctx.state(), "Hedda");
                let owner = ctx.state().pieces[&hero].owner;
                let zone = ZoneId::on_piece(owner, "equipped", hero);
                ctx.create_card(profession, owner, &zone).expect("the card");
                set(ctx, owner, "alignment", alignment);
            },
            vec![frame("alignment_setup", &[("player", Value::Player(ANN))])],
        )
    };
    let herbal = with("Herbalist", 1);
    assert_eq!(player_counter(herbal.state(), ANN, "blessing_faces"), 2);
    let plain = with("Scoundrel", 1);
    assert_eq!(player_counter(plain.state(), ANN, "blessing_faces"), 0);
    let mut fortune = with("Fortune teller", 5);
    while pending(&fortune).is_some() {
        pick(&mut fortune, ANN, "keep it");
    }
    assert_eq!(player_counter(fortune.state(), ANN, "torment_bonus"), 1);
    let charlatan = with("Charlatan", 4);
    assert_eq!(player_counter(charlatan.state(), ANN, "rage"), 1);
    assert_eq!(player_counter(with("Scoundrel", 4).state(), ANN, "rage"), 0);
}
