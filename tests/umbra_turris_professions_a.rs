//! Umbra Turris's profession abilities, Leader to Cutthroat (seed 003, L1129-1292; digest
//! A16), played from the data: each scenario arranges heroes of two test parties on the
//! table through the kernel's `Ctx`, loads the dice with `fix_dice`, runs one step of the
//! flow and answers its requests. Each test cites the seed lines it checks and compares the
//! roll with and without the ability (or with a hero of another profession).
//!
//! | Ability | Test |
//! |---|---|
//! | Leader, Acolyte, Berserker, Black Knight... keywords | `the_professions_carry_their_keywords` |
//! | Berserker, Battle frenzy (L1181) | `a_berserker_who_lost_two_wounds_takes_his_action_dice_back_on_3` |
//! | Black Knight, marks (L1185) | `the_black_knights_marks_add_2_each_to_a_power_strike_and_cost_them_a_wound` |
//! | Black Knight, at 0 W (L1185) | `the_black_knight_falling_is_removed_and_wounds_the_enemies_within_15_cm` |
//! | Cleric, Prayer; Acolyte's +5 cm (L1240, L1137) | `a_clerics_prayer_lets_a_hero_within_15_cm_strike_again`, `a_prayer_also_rerolls_a_missed_shot` |
//! | Squire, Distraction (L1212) | `a_squire_in_the_same_combat_lets_a_friend_disengage_without_a_test` |
//! | Outlaw, disengaging (L1169) | `an_outlaw_adds_a_d6_to_disengage` |
//! | Barbarian, +1 S (L1171); Priest's Fury (L1236) | `a_barbarian_strikes_with_1_more_s_and_a_priest_has_fury_with_a_paladin` |
//! | Corsair, re-roll 1s and 2s (L1248) | `a_corsair_rerolls_1s_and_2s_on_a_normal_strike_against_an_enemy_no_faster` |
//! | Sword Master, Perfect Strike on 4+ (L1282) | `a_sword_master_makes_a_perfect_strike_on_4` |
//! | Headhunter, head strikes (L1264) | `a_headhunter_doubles_his_weapons_bonus_at_the_head` |
//! | Headhunter, panic (L1266) | `a_headhunters_kill_makes_the_enemy_test_for_panic` |
//! | Bounty Hunter, +2 (L1270) | `a_bounty_hunter_gains_2_against_the_enemy_leader` |
//! | Cutthroat, Stab (L1292) | `a_cutthroats_knife_deals_3_on_a_precision_strike` |
//! | Gladiator, armour, parried blows, shield (L1218) | `a_gladiators_strikes_ignore_armour`, `a_gladiator_parried_still_wounds_on_3`, `a_gladiators_shield_has_1_more` |
//! | Royal Champion (L1196) | `only_a_weapon_of_the_royal_champions_group_parries_him`, `a_royal_champion_dodges_a_blow_he_failed_to_parry_on_6` |
//! | Outlaw, charge from hiding (L1169) | `an_outlaw_charging_from_hiding_rolls_past_a_parry` |
//! | Guardsman (L1224) | `a_guardsman_charging_with_a_spear_strikes_again`, `a_guardsman_charged_without_his_die_attacks_first_on_4` |
//! | Witch Hunter, Fear only against Mages (L1250) | `a_witch_hunters_fear_takes_only_a_mages_parry` |
//! | Witch Hunter, +2 or -2 (L1254) | `a_witch_hunter_with_a_soldier_near_modifies_a_strike_by_2` |
//! | Witch Hunter, +1 W to cast (L1254) | `a_witch_hunter_within_30_cm_makes_a_mage_pay_another_wound` |
//! | Druid, Menhir (L1200-1202) | `a_druids_menhir_saves_wounds_heals_and_gives_4_w_back` |
//! | Alchemist, Fire re-roll (L1163); Druid, 1s (L1202) | `an_alchemist_rerolls_a_fire_test_and_a_human_druid_a_1` |
//! | Grave Robber (L1228-1230) | `a_grave_robber_gives_1_to_death_spells_and_one_more_undead` |
//! | Monk (L1286) | `a_monk_lengthens_light_spells_and_may_pay_the_wound` |
//! | Bow Master (L1276) | `a_bow_masters_bs_is_8_his_bow_deals_2_and_he_may_move_after_shooting` |
//! | Bard (L1177) | `a_bard_gives_his_leader_ld_8_and_silences_the_enemy_leader` |
//! | False Prophet, Acolyte's -3 (L1206-1208, L1139) | `a_false_prophets_curse_takes_2_and_his_friends_near_him_have_frenzy` |
//! | Alchemist, Potions (L1147-1161) | `the_alchemists_potions_are_handed_out_before_the_battle_and_drunk_for_the_cycle` |

use gloam::core::{
    Choice, Ctx, Frame, Game, GameState, Options, PieceId, PlayerId, Point, Position, Scope, Value,
    ZoneId,
};
use gloam::engine::RulesetGame;
use gloam::sim::{MatchChoice, check_invariants, prepare_match};

mod scenario;
use scenario::stand;
use scenario::{
    Scenario, cards_dir, frame, give, has_said, pending, piece, piece_counter as counter, said,
    scenario, tokens,
};

const P0: PlayerId = PlayerId(0);
const P1: PlayerId = PlayerId(1);

/// Two test parties holding the professions of this group, legal under the building rules
/// (`gloam check`). Every hero is a Borian Human (ld 7, ws 7, s 7, sp 7, bs 7, t 7, W 7),
/// whose ability (L916) touches only orders and initiative.
const PARTIES: &str = r#"
party "Test Dark Band" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = evil
    points = 1500
    source = "ours"
    hero "Dark Knight" { race = "Humans" subrace = "Borians" profession = "Black Knight" leader = true equipment = ["Spear"] }
    hero "Dark Alchemist" { race = "Humans" subrace = "Borians" profession = "Alchemist" equipment = ["Staff, Ritual weapon"] domains = ["Death"] }
    hero "Dark Berserker" { race = "Humans" subrace = "Borians" profession = "Berserker" equipment = ["Spear"] }
    hero "Dark Cutthroat" { race = "Humans" subrace = "Borians" profession = "Cutthroat" equipment = ["Knife"] }
    hero "Dark Headhunter" { race = "Humans" subrace = "Borians" profession = "Headhunter" equipment = ["Spear"] }
    hero "Dark Gladiator" { race = "Humans" subrace = "Borians" profession = "Gladiator" equipment = ["Spear"] }
    hero "Dark Corsair" { race = "Humans" subrace = "Borians" profession = "Corsair" equipment = ["Spear"] }
    hero "Dark Barbarian" { race = "Humans" subrace = "Borians" profession = "Barbarian" equipment = ["Spear"] }
    hero "Dark Guardsman" { race = "Humans" subrace = "Borians" profession = "Guardsman" equipment = ["Spear"] }
    hero "Dark Bounty Hunter" { race = "Humans" subrace = "Borians" profession = "Bounty Hunter" equipment = ["Spear"] }
    hero "Dark Sword Master" { race = "Humans" subrace = "Borians" profession = "Sword Master" equipment = ["Spear"] }
    hero "Dark Champion" { race = "Humans" subrace = "Borians" profession = "Royal Champion" equipment = ["Spear"] }
    hero "Dark Outlaw" { race = "Humans" subrace = "Borians" profession = "Outlaw" equipment = ["Spear"] }
    hero "Dark Squire" { race = "Humans" subrace = "Borians" profession = "Squire" equipment = ["Spear"] }
    hero "Dark Grave Robber" { race = "Humans" subrace = "Borians" profession = "Grave Robber" equipment = ["Spear"] }
}

party "Test Grey Watch" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 1500
    source = "ours"
    hero "Grey Captain" { race = "Humans" subrace = "Borians" profession = "Soldier" leader = true equipment = ["Spear"] }
    hero "Grey Cleric" { race = "Humans" subrace = "Borians" profession = "Cleric" equipment = ["Staff, Ritual weapon"] domains = ["Fire"] }
    hero "Grey Witch Hunter" { race = "Humans" subrace = "Borians" profession = "Witch Hunter" equipment = ["Spear"] }
    hero "Grey Bow Master" { race = "Humans" subrace = "Borians" profession = "Bow Master" equipment = ["Spear", "Bow"] }
    hero "Grey Monk" { race = "Humans" subrace = "Borians" profession = "Monk" equipment = ["Spear"] }
    hero "Grey Bard" { race = "Humans" subrace = "Borians" profession = "Bard" equipment = ["Spear"] }
    hero "Grey Acolyte" { race = "Humans" subrace = "Borians" profession = "Acolyte" equipment = ["Spear"] }
    hero "Grey Soldier" { race = "Humans" subrace = "Borians" profession = "Soldier" equipment = ["Great Axe"] }
    hero "Grey Scoundrel" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Spear"] }
}
"#;

/// The match of the shipped data plus the test parties: the Dark Band (P0) against the Grey
/// Watch (P1).
fn rules() -> RulesetGame {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let unique = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("gloam-ut-profa-{}-{unique}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("parties.gloam");
    std::fs::write(&file, PARTIES).expect("write the parties");
    let choice = MatchChoice {
        parties: vec!["Test Dark Band".to_owned(), "Test Grey Watch".to_owned()],
        ..MatchChoice::default()
    };
    prepare_match(&[cards_dir(), file], "umbra_turris", 2, &choice).expect("the match")
}

fn hurt(ctx: &mut Ctx<'_>, kind: &str, damage: i64) {
    let id = piece(ctx.state(), kind);
    ctx.set_counter(Scope::Piece(id), "damage", damage)
        .expect("hurt");
}

fn set(ctx: &mut Ctx<'_>, kind: &str, name: &str, value: i64) {
    let id = piece(ctx.state(), kind);
    ctx.set_counter(Scope::Piece(id), name, value)
        .expect("counter");
}

/// Puts a card named `name` (a spell, a piece of equipment, a profession) in `kind`'s
/// `equipped` zone.
fn equip(ctx: &mut Ctx<'_>, kind: &str, name: &str) {
    let id = piece(ctx.state(), kind);
    let owner = ctx.state().pieces[&id].owner;
    let zone = ZoneId::on_piece(owner, "equipped", id);
    ctx.create_card(name, owner, &zone).expect("the card");
}

fn id(state: &GameState, kind: &str) -> Value {
    Value::Piece(piece(state, kind))
}

fn owner(state: &GameState, kind: &str) -> PlayerId {
    state.pieces[&piece(state, kind)].owner
}

fn stat(state: &GameState, kind: &str, name: &str) -> i64 {
    state
        .characteristic(piece(state, kind), name)
        .unwrap_or_else(|| panic!("{kind} has no {name}"))
}

fn at(state: &GameState, id: PieceId) -> Option<Point> {
    match state.pieces[&id].position {
        Some(Position::Table { at, .. }) => Some(at),
        _ => None,
    }
}

/// The names of the choices of the first pending request (cards and pieces by name).
fn offered(game: &Game<Scenario>) -> Vec<String> {
    let request = pending(game).expect("a request");
    let state = game.state();
    match &request.options {
        Options::One { choices } => choices
            .iter()
            .map(|choice| match choice {
                Choice::Card(id) => state.cards[id].name.clone(),
                Choice::Piece(id) => state.pieces[id].kind.clone(),
                other => other.to_string(),
            })
            .collect(),
        other => panic!("not a single choice: {other:?}"),
    }
}

/// Answers the first pending request with its choice named `name` (a card, a piece or an
/// option); the invariants still hold.
fn choose(game: &mut Game<Scenario>, name: &str) {
    let request = pending(game).expect("a request");
    let state = game.state();
    let Options::One { choices } = &request.options else {
        panic!("not a single choice")
    };
    let choice = choices
        .iter()
        .find(|choice| match choice {
            Choice::Card(id) => state.cards[id].name == name,
            Choice::Piece(id) => state.pieces[id].kind == name,
            Choice::Option(text) => text == name,
            _ => false,
        })
        .unwrap_or_else(|| panic!("{name} is not offered: {:?}", offered(game)))
        .clone();
    game.submit(request.player, gloam::core::Answer::One(choice))
        .unwrap_or_else(|error| panic!("{error}"));
    check_invariants(game.state()).expect("invariants");
}

/// Both players answer the secret guess: the attacker strikes `blow` (`weapon / location`),
/// the defender parries `guard`.
fn guess(game: &mut Game<Scenario>, blow: &str, guard: &str) {
    let asked: Vec<PlayerId> = game.pending().iter().map(|r| r.player).collect();
    assert_eq!(
        asked.len(),
        2,
        "a secret guess asks both players: {:?} {:?}",
        said(game),
        pending(game)
    );
    for (who, text) in [(asked[0], blow), (asked[1], guard)] {
        game.submit(who, gloam::core::Answer::One(Choice::Option(text.into())))
            .unwrap_or_else(|error| panic!("{error}"));
    }
    check_invariants(game.state()).expect("invariants");
}

/// A step frame for `player` and `fighter`, with more variables.
fn step(rules: &RulesetGame, name: &str, fighter: &str, more: &[(&str, Value)]) -> Frame {
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let mut vars = vec![
        ("player", Value::Player(owner(state, fighter))),
        ("fighter", id(state, fighter)),
    ];
    vars.extend(more.iter().cloned());
    frame(name, &vars)
}

/// The value of the piece `kind` in a fresh game of `rules`.
fn who(rules: &RulesetGame, kind: &str) -> Value {
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    id(start.state(), kind)
}

/// A close-combat exchange: `attacker` (to the south, facing north) attacks `defender`, in
/// base contact; `how` is `charge` or empty; `arrange` then the dice `dice`.
fn fight(
    rules: &RulesetGame,
    attacker: &'static str,
    defender: &'static str,
    how: &str,
    dice: &[&'static str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let dice = dice.to_vec();
    let target = who(rules, defender);
    let frame = step(
        rules,
        "fight",
        attacker,
        &[("target", target), ("data", Value::Str(how.into()))],
    );
    scenario(
        rules,
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, attacker, 3500, 3000, (0, 1));
            stand(ctx, defender, 3500, 3250, (0, -1));
            arrange(ctx);
            ctx.fix_dice("d6", &dice);
        },
        vec![frame],
    )
}

/// `attacker` lands a blow on `defender`'s body and makes the strike `kind`.
fn strike(
    rules: &RulesetGame,
    attacker: &'static str,
    defender: &'static str,
    weapon: &str,
    kind: &str,
    dice: &'static [&'static str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let mut game = fight(rules, attacker, defender, "", dice, arrange);
    let guard = if weapon.ends_with("head") {
        "legs"
    } else {
        "head"
    };
    let blow = if weapon.contains(" / ") {
        weapon.to_owned()
    } else {
        format!("{weapon} / body")
    };
    guess(&mut game, &blow, guard);
    choose(&mut game, kind);
    game
}

#[test]
fn the_professions_carry_their_keywords() {
    // 003 L1129 (Leader: Fearless, Heroism), L1135 (Acolyte: Fanatic, Fervor), L1165
    // (Outlaw: Brotherhood), L1171 (Barbarian: Fury), L1173 (Bard: Fervor), L1179
    // (Berserker: Fear, Fearless, Fury), L1183 (Black Knight: Fear, Fearless, Heroism), L1194
    // (Royal Champion: Fervor, Fearless), L1210 (Squire: Fervor), L1250 (Witch Hunter:
    // Fanatic, Fear), L1262 (Headhunter: Fanatic), L1284 (Monk: Fervor).
    let rules = rules();
    let game = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = game.state();
    let keywords = |kind: &str| state.pieces[&piece(state, kind)].keywords.clone();
    for (kind, wanted) in [
        ("Dark Knight", &["fear", "fearless", "heroism"][..]),
        ("Grey Captain", &["fearless", "heroism"][..]),
        ("Grey Acolyte", &["fanatic", "fervor"][..]),
        ("Dark Outlaw", &["brotherhood"][..]),
        ("Dark Barbarian", &["fury"][..]),
        ("Grey Bard", &["fervor"][..]),
        ("Dark Berserker", &["fear", "fearless", "fury"][..]),
        ("Dark Champion", &["fervor", "fearless"][..]),
        ("Dark Squire", &["fervor"][..]),
        ("Grey Witch Hunter", &["fanatic", "fear"][..]),
        ("Dark Headhunter", &["fanatic"][..]),
        ("Grey Monk", &["fervor"][..]),
    ] {
        let have = keywords(kind);
        for k in wanted {
            assert!(have.contains(*k), "{kind} lacks {k}: {have:?}");
        }
    }
    assert!(!keywords("Grey Scoundrel").contains("fear"));
}

#[test]
fn a_berserker_who_lost_two_wounds_takes_his_action_dice_back_on_3() {
    // 003 L1181: lost 2 or more Wounds and no Action Dice: d6 3+ gives it back (ours: once
    // a Cycle). Another profession never rolls.
    let rules = rules();
    for (kind, hurt_by, die, back) in [
        ("Dark Berserker", 2, "3", true),
        ("Dark Berserker", 3, "2", false),
        ("Dark Berserker", 1, "6", false),
        ("Dark Barbarian", 2, "6", false),
    ] {
        let game = scenario(
            &rules,
            move |ctx| {
                stand(ctx, kind, 3500, 3000, (0, 1));
                hurt(ctx, kind, hurt_by);
                ctx.set_counter(Scope::Game, "cycle", 1).expect("cycle");
                ctx.fix_dice("d6", &[die, die]);
            },
            vec![step(&rules, "battle_frenzy", kind, &[])],
        );
        assert_eq!(
            tokens(game.state(), kind, "action_die"),
            i64::from(back),
            "{kind} {hurt_by} {die}"
        );
    }
    // Once a Cycle: a failed roll is not tried again.
    let twice = scenario(
        &rules,
        |ctx| {
            stand(ctx, "Dark Berserker", 3500, 3000, (0, 1));
            hurt(ctx, "Dark Berserker", 2);
            ctx.set_counter(Scope::Game, "cycle", 1).expect("cycle");
            ctx.fix_dice("d6", &["2", "6"]);
        },
        vec![
            step(&rules, "battle_frenzy", "Dark Berserker", &[]),
            step(&rules, "battle_frenzy", "Dark Berserker", &[]),
        ],
    );
    assert_eq!(tokens(twice.state(), "Dark Berserker", "action_die"), 0);
    // A wound that brings him to 2 lost triggers it at once.
    let berserker = who(&rules, "Dark Berserker");
    let wounded = scenario(
        &rules,
        |ctx| {
            stand(ctx, "Dark Berserker", 3500, 3000, (0, 1));
            hurt(ctx, "Dark Berserker", 1);
            ctx.set_counter(Scope::Game, "cycle", 1).expect("cycle");
            ctx.fix_dice("d6", &["4"]);
        },
        vec![frame(
            "wound",
            &[
                ("target", berserker),
                ("count", Value::Int(1)),
                ("data", Value::Str("combat".into())),
            ],
        )],
    );
    assert!(has_said(&wounded, "battle frenzy"), "{:?}", said(&wounded));
    assert_eq!(tokens(wounded.state(), "Dark Berserker", "action_die"), 1);
}

#[test]
fn the_black_knights_marks_add_2_each_to_a_power_strike_and_cost_them_a_wound() {
    // 003 L1185: after the parry, each hero of his party within 20 cm he marks gives +2 to
    // his Power Strike; if it wounds, each marked model loses 1 W. Power: 2d6 + S 7 + Spear
    // -2 (+4 for two marks) against 2d6 + T 7.
    let rules = rules();
    let arrange = |ctx: &mut Ctx<'_>| {
        stand(ctx, "Dark Squire", 3000, 3000, (0, 1));
        stand(ctx, "Dark Corsair", 4000, 3000, (0, 1));
        stand(ctx, "Dark Cutthroat", 3500, 600, (0, 1));
    };
    let mut marked = strike(
        &rules,
        "Dark Knight",
        "Grey Soldier",
        "Spear",
        "power",
        &["3", "3", "2", "2"],
        arrange,
    );
    assert_eq!(offered(&marked), ["mark 0", "mark 1", "mark 2"]);
    choose(&mut marked, "mark 2");
    assert!(
        has_said(&marked, "power strike: 15 against 11"),
        "{:?}",
        said(&marked)
    );
    let state = marked.state();
    assert_eq!(counter(state, "Grey Soldier", "damage"), 4);
    assert_eq!(counter(state, "Dark Squire", "damage"), 1);
    assert_eq!(counter(state, "Dark Corsair", "damage"), 1);
    assert_eq!(counter(state, "Dark Cutthroat", "damage"), 0);
    let mut none = strike(
        &rules,
        "Dark Knight",
        "Grey Soldier",
        "Spear",
        "power",
        &["3", "3", "2", "2"],
        arrange,
    );
    choose(&mut none, "mark 0");
    assert!(has_said(&none, "power strike: 11 against 11"));
    assert_eq!(counter(none.state(), "Grey Soldier", "damage"), 0);
    assert_eq!(counter(none.state(), "Dark Squire", "damage"), 0);
    // Another hero marks nobody: no question after the strike's choice.
    let plain = strike(
        &rules,
        "Dark Headhunter",
        "Grey Soldier",
        "Spear",
        "power",
        &["3", "3", "2", "2"],
        arrange,
    );
    assert!(has_said(&plain, "power strike: 11 against 11"));
}

#[test]
fn the_black_knight_falling_is_removed_and_wounds_the_enemies_within_15_cm() {
    // 003 L1185-1188: reduced to 0 W, he is removed from play at once and each enemy within
    // 15 cm loses 2 W (3 W a hero of a Good party).
    let rules = rules();
    let knight = who(&rules, "Dark Knight");
    let game = scenario(
        &rules,
        |ctx| {
            stand(ctx, "Dark Knight", 3500, 3000, (0, 1));
            stand(ctx, "Dark Squire", 3000, 3000, (0, 1));
            stand(ctx, "Grey Captain", 3500, 4000, (0, -1));
            stand(ctx, "Grey Monk", 3500, 5000, (0, -1));
            ctx.fix_dice("d6", &["6", "6", "6", "6"]);
        },
        vec![frame(
            "wound",
            &[
                ("target", knight),
                ("count", Value::Int(7)),
                ("data", Value::Str("combat".into())),
            ],
        )],
    );
    let state = game.state();
    assert!(
        at(state, piece(state, "Dark Knight")).is_none(),
        "{:?}",
        said(&game)
    );
    assert_eq!(counter(state, "Grey Captain", "damage"), 2);
    assert_eq!(counter(state, "Grey Monk", "damage"), 0);
    assert_eq!(counter(state, "Dark Squire", "damage"), 0);
    // L1188: 3 W to a hero of a Good party (the seat's alignment, as `alignment_setup`
    // reads it from the party).
    let good = scenario(
        &rules,
        |ctx| {
            stand(ctx, "Dark Knight", 3500, 3000, (0, 1));
            stand(ctx, "Grey Captain", 3500, 4000, (0, -1));
            let grey = ctx.state().pieces[&piece(ctx.state(), "Grey Captain")].owner;
            ctx.set_counter(gloam::core::Scope::Player(grey), "alignment", 1)
                .expect("alignment");
            ctx.fix_dice("d6", &["6", "6", "6", "6"]);
        },
        vec![frame(
            "wound",
            &[
                ("target", who(&rules, "Dark Knight")),
                ("count", Value::Int(7)),
                ("data", Value::Str("combat".into())),
            ],
        )],
    );
    assert_eq!(counter(good.state(), "Grey Captain", "damage"), 3);
    // Another hero falling stays on the table with his Death Counter, and hurts no one.
    let squire = who(&rules, "Dark Squire");
    let other = scenario(
        &rules,
        |ctx| {
            stand(ctx, "Dark Squire", 3500, 3000, (0, 1));
            stand(ctx, "Grey Captain", 3500, 4000, (0, -1));
        },
        vec![frame(
            "wound",
            &[
                ("target", squire),
                ("count", Value::Int(7)),
                ("data", Value::Str("combat".into())),
            ],
        )],
    );
    let state = other.state();
    assert!(at(state, piece(state, "Dark Squire")).is_some());
    assert_eq!(counter(state, "Grey Captain", "damage"), 0);
}

#[test]
fn a_clerics_prayer_lets_a_hero_within_15_cm_strike_again() {
    // 003 L1240: once per turn, d6 3+: a hero of his party within 15 cm may re-roll a die
    // (ours: its failed strike is rolled again); L1137: an Acolyte adds 5 cm.
    let rules = rules();
    let pray = step(&rules, "prayer", "Grey Cleric", &[]);
    let arrange = |acolyte: bool| {
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, "Grey Cleric", 3500, 3000, (0, 1));
            stand(ctx, "Grey Captain", 3500, 4400, (0, 1));
            stand(ctx, "Grey Monk", 3500, 5000, (0, 1));
            if acolyte {
                stand(ctx, "Grey Acolyte", 6000, 6000, (0, 1));
            }
            ctx.fix_dice("d6", &["3"]);
        }
    };
    let mut game = scenario(&rules, arrange(false), vec![pray.clone()]);
    assert_eq!(offered(&game), ["Grey Captain"]);
    choose(&mut game, "Grey Captain");
    assert_eq!(tokens(game.state(), "Grey Captain", "blessed"), 1);
    assert_eq!(counter(game.state(), "Grey Cleric", "ability_used"), 1);
    assert_eq!(counter(game.state(), "Grey Cleric", "damage"), 0);
    let with_acolyte = scenario(&rules, arrange(true), vec![pray]);
    assert_eq!(offered(&with_acolyte), ["Grey Captain", "Grey Monk"]);
    // The blessed Captain's Normal Strike fails (1 + 7 + Spear 1 against 6 + 7), then is
    // rolled again (5 + 8 against 1 + 7).
    let mut strikes = strike(
        &rules,
        "Grey Captain",
        "Dark Squire",
        "Spear",
        "normal",
        &["1", "6", "5", "1"],
        |ctx| {
            give(ctx, "Grey Captain", "blessed");
        },
    );
    assert_eq!(offered(&strikes), ["re-roll the strike", "keep the result"]);
    choose(&mut strikes, "re-roll the strike");
    assert_eq!(counter(strikes.state(), "Dark Squire", "damage"), 5);
    assert_eq!(tokens(strikes.state(), "Grey Captain", "blessed"), 0);
    let unblessed = strike(
        &rules,
        "Grey Captain",
        "Dark Squire",
        "Spear",
        "normal",
        &["1", "6", "5", "1"],
        |_| {},
    );
    assert!(pending(&unblessed).is_none());
    assert_eq!(counter(unblessed.state(), "Dark Squire", "damage"), 0);
}

/// `fighter` (to the south) tries to disengage from the Grey Soldier; `squire` says where the
/// Dark Squire stands: beside the Soldier, in contact, or far away.
fn disengage(
    rules: &RulesetGame,
    fighter: &'static str,
    squire_near: bool,
    dice: &'static [&'static str],
) -> Game<Scenario> {
    scenario(
        rules,
        move |ctx| {
            stand(ctx, fighter, 3500, 3000, (0, 1));
            stand(ctx, "Grey Soldier", 3500, 3250, (0, -1));
            if squire_near {
                stand(ctx, "Dark Squire", 3750, 3250, (-1, 0));
            } else {
                stand(ctx, "Dark Squire", 6000, 6000, (-1, 0));
            }
            ctx.fix_dice("d6", dice);
        },
        vec![step(rules, "disengage", fighter, &[])],
    )
}

#[test]
fn a_squire_in_the_same_combat_lets_a_friend_disengage_without_a_test() {
    // 003 L1212: a Squire who joins a friend's combat lets him disengage without a test;
    // L438: otherwise 2d6 + Sp against 2d6 + S (here 2 + 7 against 12 + 7: a failure).
    let rules = rules();
    let free = disengage(&rules, "Dark Corsair", true, &["1", "1", "6", "6"]);
    assert_eq!(
        counter(free.state(), "Dark Corsair", "disengaged"),
        1,
        "{:?}",
        said(&free)
    );
    let held = disengage(&rules, "Dark Corsair", false, &["1", "1", "6", "6"]);
    assert_eq!(counter(held.state(), "Dark Corsair", "disengaged"), 2);
}

#[test]
fn an_outlaw_adds_a_d6_to_disengage() {
    // 003 L1169: 2d6 + Sp + d6 (3 + 7 + 6) against 2d6 + S (8 + 7).
    let rules = rules();
    let outlaw = disengage(&rules, "Dark Outlaw", false, &["1", "2", "4", "4", "6"]);
    assert_eq!(
        counter(outlaw.state(), "Dark Outlaw", "disengaged"),
        1,
        "{:?}",
        said(&outlaw)
    );
    let other = disengage(&rules, "Dark Corsair", false, &["1", "2", "4", "4", "6"]);
    assert_eq!(counter(other.state(), "Dark Corsair", "disengaged"), 2);
}

#[test]
fn a_barbarian_strikes_with_1_more_s_and_a_priest_has_fury_with_a_paladin() {
    // 003 L1171: +1 S in close combat; Power: 2d6 + S + Spear -2 against 2d6 + T.
    let rules = rules();
    let barbarian = strike(
        &rules,
        "Dark Barbarian",
        "Grey Soldier",
        "Spear",
        "power",
        &["3", "3", "2", "2"],
        |_| {},
    );
    assert!(
        has_said(&barbarian, "power strike: 12 against 11"),
        "{:?}",
        said(&barbarian)
    );
    let other = strike(
        &rules,
        "Dark Corsair",
        "Grey Soldier",
        "Spear",
        "power",
        &["3", "3", "2", "2"],
        |_| {},
    );
    assert!(has_said(&other, "power strike: 11 against 11"));
    // 003 L1236, L824-826: a Priest with a Paladin in his party has Fury, +2 S on a charge.
    let charge = |paladin: bool| {
        let mut game = fight(
            &rules,
            "Dark Corsair",
            "Grey Soldier",
            "charge",
            &["3", "3", "2", "2"],
            move |ctx| {
                equip(ctx, "Dark Corsair", "Priest");
                stand(ctx, "Dark Squire", 6000, 6000, (0, 1));
                if paladin {
                    equip(ctx, "Dark Squire", "Paladin");
                }
            },
        );
        guess(&mut game, "Spear / body", "head");
        choose(&mut game, "power");
        game
    };
    assert!(has_said(&charge(true), "power strike: 13 against 11"));
    assert!(has_said(&charge(false), "power strike: 11 against 11"));
}

#[test]
fn a_corsair_rerolls_1s_and_2s_on_a_normal_strike_against_an_enemy_no_faster() {
    // 003 L1248: d6 + WS + Spear 1; the 1 is rolled again (4) against an enemy of Sp 7.
    let rules = rules();
    let corsair = strike(
        &rules,
        "Dark Corsair",
        "Grey Soldier",
        "Spear",
        "normal",
        &["1", "4", "2"],
        |_| {},
    );
    assert!(has_said(&corsair, "re-rolls his Normal Strike"));
    assert!(
        has_said(&corsair, "normal strike: 12 against 9"),
        "{:?}",
        said(&corsair)
    );
    assert_eq!(counter(corsair.state(), "Grey Soldier", "damage"), 3);
    // Against a faster enemy (Sp 8), no re-roll: 1 + 7 + 1 against 4 + 7.
    let faster = strike(
        &rules,
        "Dark Corsair",
        "Grey Soldier",
        "Spear",
        "normal",
        &["1", "4", "2"],
        |ctx| {
            scenario::modify(ctx, "Grey Soldier", "sp", 1);
        },
    );
    assert!(!has_said(&faster, "re-rolls"));
    assert_eq!(counter(faster.state(), "Grey Soldier", "damage"), 0);
    // Another profession keeps its 1.
    let other = strike(
        &rules,
        "Dark Barbarian",
        "Grey Soldier",
        "Spear",
        "normal",
        &["1", "4", "2"],
        |_| {},
    );
    assert!(!has_said(&other, "re-rolls"));
}

#[test]
fn a_sword_master_makes_a_perfect_strike_on_4() {
    // 003 L1282 (L406: a Perfect Strike adds a d6): 4 + 7 + 1 + 2 against 4 + 7.
    let rules = rules();
    let master = strike(
        &rules,
        "Dark Sword Master",
        "Grey Soldier",
        "Spear",
        "normal",
        &["4", "2", "4"],
        |_| {},
    );
    assert!(has_said(&master, "Perfect Strike"));
    assert_eq!(counter(master.state(), "Grey Soldier", "damage"), 3);
    let other = strike(
        &rules,
        "Dark Corsair",
        "Grey Soldier",
        "Spear",
        "normal",
        &["4", "2", "4"],
        |_| {},
    );
    assert!(!has_said(&other, "Perfect Strike"));
    assert!(
        has_said(&other, "normal strike: 12 against 9"),
        "{:?}",
        said(&other)
    );
}

#[test]
fn a_headhunter_doubles_his_weapons_bonus_at_the_head() {
    // 003 L1264: the Spear's Normal +1 becomes +2 at the head: 3 + 7 + 2 against 1 + 7 (then
    // the stun roll, 1: no stun).
    let rules = rules();
    let head = strike(
        &rules,
        "Dark Headhunter",
        "Grey Soldier",
        "Spear / head",
        "normal",
        &["3", "1", "1"],
        |_| {},
    );
    assert!(
        has_said(&head, "normal strike: 12 against 8"),
        "{:?}",
        said(&head)
    );
    let body = strike(
        &rules,
        "Dark Headhunter",
        "Grey Soldier",
        "Spear",
        "normal",
        &["3", "1"],
        |_| {},
    );
    assert!(has_said(&body, "normal strike: 11 against 8"));
    let other = strike(
        &rules,
        "Dark Corsair",
        "Grey Soldier",
        "Spear / head",
        "normal",
        &["3", "1", "1"],
        |_| {},
    );
    assert!(has_said(&other, "normal strike: 11 against 8"));
}

#[test]
fn a_headhunters_kill_makes_the_enemy_test_for_panic() {
    // 003 L1266 (L788-794): the enemy party tests for Panic at once, though fewer than half
    // of it are lost (2d6 12 against LD 7).
    let rules = rules();
    let kill = |attacker: &'static str| {
        strike(
            &rules,
            attacker,
            "Grey Scoundrel",
            "Spear",
            "normal",
            &["3", "1", "6", "6"],
            |ctx| {
                hurt(ctx, "Grey Scoundrel", 6);
                stand(ctx, "Grey Captain", 6000, 6000, (0, 1));
            },
        )
    };
    let hunter = kill("Dark Headhunter");
    assert_eq!(tokens(hunter.state(), "Grey Scoundrel", "death_counter"), 1);
    assert!(
        has_said(&hunter, "passes a Panic test (12 against LD 7)"),
        "{:?}",
        said(&hunter)
    );
    let other = kill("Dark Barbarian");
    assert_eq!(tokens(other.state(), "Grey Scoundrel", "death_counter"), 1);
    assert!(!has_said(&other, "Panic test"));
}

#[test]
fn a_bounty_hunter_gains_2_against_the_enemy_leader() {
    // 003 L1270: +2 when fighting the enemy Leader or a Mage: 3 + 7 + 1 + 2 against 1 + 7.
    let rules = rules();
    let leader = strike(
        &rules,
        "Dark Bounty Hunter",
        "Grey Captain",
        "Spear",
        "normal",
        &["3", "1"],
        |_| {},
    );
    assert!(
        has_said(&leader, "normal strike: 13 against 8"),
        "{:?}",
        said(&leader)
    );
    let mage = strike(
        &rules,
        "Dark Bounty Hunter",
        "Grey Cleric",
        "Spear",
        "normal",
        &["3", "1"],
        |_| {},
    );
    assert!(has_said(&mage, "normal strike: 13 against 8"));
    let soldier = strike(
        &rules,
        "Dark Bounty Hunter",
        "Grey Soldier",
        "Spear",
        "normal",
        &["3", "1"],
        |_| {},
    );
    assert!(has_said(&soldier, "normal strike: 11 against 8"));
}

#[test]
fn a_cutthroats_knife_deals_3_on_a_precision_strike() {
    // 003 L1292 (L414-420: a Precision Strike deals 2): 2d6 + Sp + Knife 1 against 2d6 + Sp.
    let rules = rules();
    let knife = strike(
        &rules,
        "Dark Cutthroat",
        "Grey Soldier",
        "Knife",
        "precision",
        &["4", "4", "1", "1"],
        |_| {},
    );
    assert_eq!(
        counter(knife.state(), "Grey Soldier", "damage"),
        3,
        "{:?}",
        said(&knife)
    );
    let spear = strike(
        &rules,
        "Dark Cutthroat",
        "Grey Soldier",
        "Spear",
        "precision",
        &["4", "4", "1", "1"],
        |ctx| {
            equip(ctx, "Dark Cutthroat", "Spear");
        },
    );
    assert_eq!(counter(spear.state(), "Grey Soldier", "damage"), 2);
    let other = strike(
        &rules,
        "Dark Corsair",
        "Grey Soldier",
        "Knife",
        "precision",
        &["4", "4", "1", "1"],
        |ctx| {
            equip(ctx, "Dark Corsair", "Knife");
        },
    );
    assert_eq!(counter(other.state(), "Grey Soldier", "damage"), 2);
}

#[test]
fn a_gladiators_strikes_ignore_armour() {
    // 003 L1218; L1899: 3d6, any die at the save halves the damage (4 becomes 2).
    let rules = rules();
    let armoured = |ctx: &mut Ctx<'_>| equip(ctx, "Grey Soldier", "Chain shirt");
    let gladiator = strike(
        &rules,
        "Dark Gladiator",
        "Grey Soldier",
        "Spear",
        "power",
        &["4", "4", "1", "1", "6", "6", "6"],
        armoured,
    );
    assert_eq!(
        counter(gladiator.state(), "Grey Soldier", "damage"),
        4,
        "{:?}",
        said(&gladiator)
    );
    let other = strike(
        &rules,
        "Dark Corsair",
        "Grey Soldier",
        "Spear",
        "power",
        &["4", "4", "1", "1", "6", "6", "6"],
        armoured,
    );
    assert_eq!(counter(other.state(), "Grey Soldier", "damage"), 2);
}

#[test]
fn a_gladiator_parried_still_wounds_on_3() {
    // 003 L1218: his attack parried, d6 3+ and the enemy loses 1 W.
    let rules = rules();
    for (attacker, die, lost) in [
        ("Dark Gladiator", "3", 1),
        ("Dark Gladiator", "2", 0),
        ("Dark Corsair", "6", 0),
    ] {
        let mut game = fight(&rules, attacker, "Grey Soldier", "", &[die], |_| {});
        guess(&mut game, "Spear / body", "body");
        assert!(has_said(&game, "parries the blow"));
        assert_eq!(
            counter(game.state(), "Grey Soldier", "damage"),
            lost,
            "{attacker} {die}"
        );
    }
}

#[test]
fn a_gladiators_shield_has_1_more() {
    // 003 L1218, L1907: a Wooden shield saves on 6; the Gladiator's 5 + 1 does.
    let rules = rules();
    for (defender, saved) in [("Dark Gladiator", true), ("Dark Corsair", false)] {
        let attacker = who(&rules, "Grey Soldier");
        let game = scenario(
            &rules,
            move |ctx| {
                stand(ctx, "Grey Soldier", 3500, 3000, (0, 1));
                stand(ctx, defender, 3500, 3250, (0, -1));
                equip(ctx, defender, "Wooden shield");
                ctx.fix_dice("d6", &["5"]);
            },
            vec![step(
                &rules,
                "shield",
                defender,
                &[
                    ("attacker", attacker),
                    ("weapon", Value::Str("Great Axe".into())),
                    (
                        "data",
                        Value::List(vec![Value::Str("body".into()), Value::Str(String::new())]),
                    ),
                ],
            )],
        );
        assert_eq!(
            has_said(&game, "takes the blow on the shield"),
            saved,
            "{defender}: {:?}",
            said(&game)
        );
    }
}

#[test]
fn only_a_weapon_of_the_royal_champions_group_parries_him() {
    // 003 L1196: his one-handed Spear is parried only with a one-handed weapon: the Grey
    // Soldier's Great Axe (two-handed) guesses right and still does not parry.
    let rules = rules();
    let mut axe = fight(&rules, "Dark Champion", "Grey Soldier", "", &[], |_| {});
    guess(&mut axe, "Spear / body", "body");
    assert!(has_said(&axe, "cannot parry the Royal Champion"));
    assert_eq!(offered(&axe), ["normal", "power", "precision"]);
    let mut spear = fight(&rules, "Dark Champion", "Grey Captain", "", &[], |_| {});
    guess(&mut spear, "Spear / body", "body");
    assert!(has_said(&spear, "parries the blow"));
    let mut other = fight(&rules, "Dark Corsair", "Grey Soldier", "", &[], |_| {});
    guess(&mut other, "Spear / body", "body");
    assert!(has_said(&other, "parries the blow"));
}

#[test]
fn a_royal_champion_dodges_a_blow_he_failed_to_parry_on_6() {
    // 003 L1196: the blow got through his parry; d6 6 and it fails.
    let rules = rules();
    for (defender, die, dodged) in [
        ("Dark Champion", "6", true),
        ("Dark Champion", "5", false),
        ("Dark Corsair", "6", false),
    ] {
        let mut game = fight(&rules, "Grey Captain", defender, "", &[die], |_| {});
        guess(&mut game, "Spear / body", "head");
        assert_eq!(
            has_said(&game, "dodges the blow"),
            dodged,
            "{defender} {die}"
        );
        assert_eq!(pending(&game).is_some(), !dodged);
    }
}

#[test]
fn an_outlaw_charging_from_hiding_rolls_past_a_parry() {
    // 003 L1169: he began his turn hidden and charges; parried, d6 as a location (5: Head)
    // other than the one parried (Body) and the blow lands.
    let rules = rules();
    for (attacker, hidden, die, lands) in [
        ("Dark Outlaw", 1, "5", true),
        ("Dark Outlaw", 1, "3", false),
        ("Dark Outlaw", 0, "5", false),
        ("Dark Corsair", 1, "5", false),
    ] {
        let mut game = fight(
            &rules,
            attacker,
            "Grey Soldier",
            "charge",
            &[die],
            move |ctx| {
                set(ctx, attacker, "began_hidden", hidden);
            },
        );
        guess(&mut game, "Spear / body", "body");
        assert_eq!(
            has_said(&game, "parries the blow"),
            !lands,
            "{attacker} {hidden} {die}"
        );
    }
}

#[test]
fn a_guardsman_charging_with_a_spear_strikes_again() {
    // 003 L1224: a counter-attack weapon (the Spear, L1675): his strikes on a charge are
    // rolled again (ours: a failed strike, once): 1 + 7 + 1 against 6 + 7, then 5 + 7 + 1
    // against 1 + 7.
    let rules = rules();
    let run = |attacker: &'static str, how: &str| {
        let target = who(&rules, "Grey Soldier");
        let data = Value::List(vec![Value::Str("body".into()), Value::Str(how.into())]);
        scenario(
            &rules,
            move |ctx| {
                stand(ctx, attacker, 3500, 3000, (0, 1));
                stand(ctx, "Grey Soldier", 3500, 3250, (0, -1));
                ctx.fix_dice("d6", &["1", "6", "5", "1"]);
            },
            vec![step(
                &rules,
                "strike",
                attacker,
                &[
                    ("target", target),
                    ("weapon", Value::Str("Spear".into())),
                    ("data", data),
                ],
            )],
        )
    };
    let mut guardsman = run("Dark Guardsman", "charge");
    choose(&mut guardsman, "normal");
    assert!(
        has_said(&guardsman, "strikes again (Guardsman)"),
        "{:?}",
        said(&guardsman)
    );
    assert_eq!(counter(guardsman.state(), "Grey Soldier", "damage"), 5);
    let mut standing = run("Dark Guardsman", "");
    choose(&mut standing, "normal");
    assert_eq!(counter(standing.state(), "Grey Soldier", "damage"), 0);
    let mut other = run("Dark Barbarian", "charge");
    choose(&mut other, "normal");
    assert_eq!(counter(other.state(), "Grey Soldier", "damage"), 0);
}

#[test]
fn a_guardsman_charged_without_his_die_attacks_first_on_4() {
    // 003 L1224: charged while without an Action Dice, d6 4+: a free attack against the
    // charger, before the charger's.
    let rules = rules();
    for (defender, die, free) in [
        ("Dark Guardsman", "4", true),
        ("Dark Guardsman", "3", false),
        ("Dark Corsair", "6", false),
    ] {
        let target = who(&rules, defender);
        let game = scenario(
            &rules,
            move |ctx| {
                stand(ctx, "Grey Soldier", 3500, 3000, (0, 1));
                stand(ctx, defender, 3500, 3250, (0, -1));
                ctx.fix_dice("d6", &[die]);
            },
            vec![step(
                &rules,
                "land",
                "Grey Soldier",
                &[
                    ("target", target),
                    ("count", Value::Int(0)),
                    ("weapon", Value::Str(String::new())),
                    ("data", Value::Str("charge".into())),
                ],
            )],
        );
        assert_eq!(
            has_said(&game, "meets the charge with a free attack"),
            free,
            "{defender} {die}: {:?}",
            said(&game)
        );
    }
}

#[test]
fn a_witch_hunters_fear_takes_only_a_mages_parry() {
    // 003 L1250 (L802: Fear on a charge takes the parry away): "Fear (only for Mages)".
    let rules = rules();
    let mage = fight(
        &rules,
        "Grey Witch Hunter",
        "Dark Alchemist",
        "charge",
        &[],
        |_| {},
    );
    assert!(!pending(&mage).expect("a request").secret);
    let soldier = fight(
        &rules,
        "Grey Witch Hunter",
        "Dark Squire",
        "charge",
        &[],
        |_| {},
    );
    assert!(pending(&soldier).expect("a request").secret);
    // A Berserker's Fear takes anyone's.
    let berserker = fight(
        &rules,
        "Dark Berserker",
        "Grey Soldier",
        "charge",
        &[],
        |_| {},
    );
    assert!(!pending(&berserker).expect("a request").secret);
}

/// `caster` casts: its spell `spell` on `target`; `arrange` then the dice.
fn cast(
    rules: &RulesetGame,
    caster: &'static str,
    spell: &str,
    target: &str,
    dice: &'static [&'static str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let mut game = scenario(
        rules,
        move |ctx| {
            arrange(ctx);
            ctx.fix_dice("d6", dice);
        },
        vec![step(rules, "cast", caster, &[])],
    );
    choose(&mut game, spell);
    if !target.is_empty() {
        choose(&mut game, target);
    }
    game
}

#[test]
fn a_witch_hunter_within_30_cm_makes_a_mage_pay_another_wound() {
    // 003 L1254: an enemy Mage within 30 cm of the Witch Hunter loses one more Wound for
    // each spell (Kula, 3+, L664: 1 W, here 2).
    let rules = rules();
    let with = |far: bool| {
        cast(
            &rules,
            "Dark Alchemist",
            "Kula",
            "Grey Soldier",
            &["4"],
            move |ctx| {
                equip(ctx, "Dark Alchemist", "Kula");
                stand(ctx, "Dark Alchemist", 3500, 3000, (0, 1));
                stand(ctx, "Grey Soldier", 3500, 4000, (0, -1));
                stand(
                    ctx,
                    "Grey Witch Hunter",
                    if far { 6800 } else { 4500 },
                    3000,
                    (-1, 0),
                );
            },
        )
    };
    let mut near = with(false);
    // The Hunter, with the Grey Soldier near, may take 2 from any enemy Magic Test (L1254,
    // ours): he lets this one pass.
    assert_eq!(offered(&near), ["-2 to the enemy's Magic Test", "no"]);
    choose(&mut near, "no");
    assert_eq!(
        counter(near.state(), "Dark Alchemist", "damage"),
        2,
        "{:?}",
        said(&near)
    );
    assert_eq!(counter(near.state(), "Grey Soldier", "damage"), 2);
    let far = with(true);
    assert_eq!(counter(far.state(), "Dark Alchemist", "damage"), 1);
}

#[test]
fn an_alchemist_rerolls_a_fire_test_and_a_human_druid_a_1() {
    // 003 L1163: an Alchemist re-rolls the Magic Test of a Fire spell (Kula 3+: 2, then 5).
    let rules = rules();
    let alchemist = cast(
        &rules,
        "Dark Alchemist",
        "Kula",
        "Grey Soldier",
        &["2", "5"],
        |ctx| {
            equip(ctx, "Dark Alchemist", "Kula");
            stand(ctx, "Dark Alchemist", 3500, 3000, (0, 1));
            stand(ctx, "Grey Soldier", 3500, 4000, (0, -1));
        },
    );
    assert!(has_said(&alchemist, "casts Kula"), "{:?}", said(&alchemist));
    assert_eq!(counter(alchemist.state(), "Grey Soldier", "damage"), 2);
    // The Cleric re-rolls nothing (2: fails).
    let cleric = cast(
        &rules,
        "Grey Cleric",
        "Kula",
        "Dark Squire",
        &["2", "5"],
        |ctx| {
            stand(ctx, "Grey Cleric", 3500, 3000, (0, 1));
            stand(ctx, "Dark Squire", 3500, 4000, (0, -1));
        },
    );
    assert!(has_said(&cleric, "fails to cast Kula"));
    // 003 L1202: a Human Druid re-rolls a 1 (ours: the profession card given to the Cleric;
    // the re-roll needs no Menhir). A 1 then 4.
    let druid = cast(
        &rules,
        "Grey Cleric",
        "Kula",
        "Dark Squire",
        &["1", "4"],
        |ctx| {
            equip(ctx, "Grey Cleric", "Druid");
            stand(ctx, "Grey Cleric", 3500, 3000, (0, 1));
            stand(ctx, "Dark Squire", 3500, 4000, (0, -1));
        },
    );
    assert!(has_said(&druid, "casts Kula"), "{:?}", said(&druid));
    assert_eq!(counter(druid.state(), "Grey Cleric", "damage"), 1);
}

#[test]
fn a_grave_robber_gives_1_to_death_spells_and_one_more_undead() {
    // 003 L1228-1230: +1 to the Magic Test of a Death spell (Raise dead 3+, L670: a 2
    // succeeds), and one more Undead than otherwise.
    let rules = rules();
    let raise = |robber: bool| {
        cast(
            &rules,
            "Dark Alchemist",
            "Raise dead",
            "",
            &["2"],
            move |ctx| {
                stand(ctx, "Dark Alchemist", 3500, 3000, (0, 1));
                if robber {
                    stand(ctx, "Dark Grave Robber", 4000, 3000, (0, 1));
                }
            },
        )
    };
    let with = raise(true);
    assert!(has_said(&with, "casts Raise dead"), "{:?}", said(&with));
    let without = raise(false);
    assert!(
        has_said(&without, "fails to cast Raise dead"),
        "{:?}",
        said(&without)
    );
    // One Undead in play and nobody fallen: Raise dead is offered only with the Robber.
    let offered_with = |robber: bool| {
        let game = scenario(
            &rules,
            move |ctx| {
                stand(ctx, "Dark Alchemist", 3500, 3000, (0, 1));
                stand(ctx, "Undead", 3500, 3250, (0, 1));
                if robber {
                    stand(ctx, "Dark Grave Robber", 4000, 3000, (0, 1));
                }
            },
            vec![step(&rules, "cast", "Dark Alchemist", &[])],
        );
        offered(&game).contains(&"Raise dead".to_owned())
    };
    assert!(offered_with(true));
    assert!(!offered_with(false));
}

#[test]
fn a_monk_lengthens_light_spells_and_may_pay_the_wound() {
    // 003 L1286: a Light spell reaches 10 cm further (Heal, 20 cm, L708), and a Monk within
    // 15 cm may lose the casting Wound instead of the Mage.
    let rules = rules();
    let heal = |monk: bool| {
        let mut game = scenario(
            &rules,
            move |ctx| {
                equip(ctx, "Grey Cleric", "Heal");
                stand(ctx, "Grey Cleric", 3500, 3000, (0, 1));
                stand(ctx, "Grey Captain", 3500, 5500, (0, -1));
                hurt(ctx, "Grey Captain", 3);
                if monk {
                    stand(ctx, "Grey Monk", 4000, 3000, (0, 1));
                }
                ctx.fix_dice("d6", &["4"]);
            },
            vec![step(&rules, "cast", "Grey Cleric", &[])],
        );
        choose(&mut game, "Heal");
        choose(&mut game, "Grey Captain");
        game
    };
    let mut with = heal(true);
    assert_eq!(offered(&with), ["the Mage", "the Monk"]);
    choose(&mut with, "the Monk");
    let state = with.state();
    assert_eq!(
        counter(state, "Grey Captain", "damage"),
        1,
        "{:?}",
        said(&with)
    );
    assert_eq!(counter(state, "Grey Monk", "damage"), 1);
    assert_eq!(counter(state, "Grey Cleric", "damage"), 0);
    let without = heal(false);
    assert!(has_said(&without, "cannot reach"));
    assert_eq!(counter(without.state(), "Grey Captain", "damage"), 3);
}

#[test]
fn a_bow_masters_bs_is_8_his_bow_deals_2_and_he_may_move_after_shooting() {
    // 003 L1276: his BS is 8 (set before the battle, step `start`) ...
    let rules = rules();
    let start = scenario(&rules, |_| {}, vec![frame("start", &[])]);
    assert_eq!(stat(start.state(), "Grey Bow Master", "bs"), 8);
    assert_eq!(stat(start.state(), "Grey Soldier", "bs"), 7);
    // ... any bow of his deals 2 (the Bow: 1, L1765): 2d6 + BS - 1 (a target without its
    // Action Dice, L584) against 2d6 + T ...
    let target = who(&rules, "Dark Squire");
    let wound = scenario(
        &rules,
        |ctx| {
            stand(ctx, "Grey Bow Master", 3500, 3000, (0, 1));
            stand(ctx, "Dark Squire", 3500, 5000, (0, -1));
            ctx.fix_dice("d6", &["6", "6", "1", "1"]);
        },
        vec![step(
            &rules,
            "shot_wound",
            "Grey Bow Master",
            &[
                ("target", target),
                ("weapon", Value::Str("Bow".into())),
                ("count", Value::Int(0)),
                ("data", Value::Str("aimed".into())),
            ],
        )],
    );
    assert_eq!(
        counter(wound.state(), "Dark Squire", "damage"),
        2,
        "{:?}",
        said(&wound)
    );
    // ... and when he shoots he may also move up to his Sp.
    let mut shot = scenario(
        &rules,
        |ctx| {
            stand(ctx, "Grey Bow Master", 3500, 3000, (0, 1));
            stand(ctx, "Dark Squire", 3500, 5000, (0, -1));
            ctx.fix_dice("d6", &["6", "6", "6", "1", "1"]);
        },
        vec![step(&rules, "shoot", "Grey Bow Master", &[])],
    );
    while pending(&shot).is_some() {
        let options = offered(&shot);
        let pick = if options.contains(&"no aiming".to_owned()) {
            "no aiming".to_owned()
        } else {
            options[0].clone()
        };
        choose(&mut shot, &pick);
    }
    assert_eq!(
        counter(shot.state(), "Grey Bow Master", "sp_move"),
        1,
        "{:?}",
        said(&shot)
    );
}

#[test]
fn a_bard_gives_his_leader_ld_8_and_silences_the_enemy_leader() {
    // 003 L1177: a Leader within 20 cm of his Bard has LD 8 (a Panic test: 2d6 + Fervor 2,
    // L816-818, against LD 8) ...
    let rules = rules();
    let panic = |bard: bool| {
        scenario(
            &rules,
            move |ctx| {
                stand(ctx, "Grey Captain", 3500, 3000, (0, 1));
                if bard {
                    stand(ctx, "Grey Bard", 4000, 3000, (0, 1));
                } else {
                    stand(ctx, "Grey Bard", 6800, 6800, (0, 1));
                }
                ctx.fix_dice("d6", &["3", "4"]);
            },
            vec![frame(
                "panic",
                &[
                    ("player", Value::Player(P1)),
                    ("data", Value::Str("leader".into())),
                ],
            )],
        )
    };
    assert!(
        has_said(&panic(true), "against LD 8"),
        "{:?}",
        said(&panic(true))
    );
    assert!(has_said(&panic(false), "against LD 7"));
    // ... and an enemy Leader within 20 cm of the Bard issues no orders.
    let orders = |bard_near: bool| {
        let game = scenario(
            &rules,
            move |ctx| {
                stand(ctx, "Dark Knight", 3500, 3000, (0, 1));
                stand(ctx, "Dark Squire", 3000, 3000, (0, 1));
                stand(
                    ctx,
                    "Grey Bard",
                    if bard_near { 3500 } else { 6800 },
                    if bard_near { 4500 } else { 6800 },
                    (0, -1),
                );
                ctx.set_counter(Scope::Player(P0), "orders", 3)
                    .expect("orders");
            },
            vec![step(&rules, "activation", "Dark Knight", &[])],
        );
        offered(&game).contains(&"order".to_owned())
    };
    assert!(!orders(true));
    assert!(orders(false));
}

#[test]
fn the_alchemists_potions_are_handed_out_before_the_battle_and_drunk_for_the_cycle() {
    // 003 L1147-1161: choose two different Potions or roll d6 four times (6 strength +3 S,
    // 5 vitality 2 W, 3 speed +2 Sp, 1 toughness +2 T), each given to a hero; L628: it lasts
    // until the end of the Cycle it is drunk in (ours: drinking is the Minor Action "Use an
    // Item", L254).
    let rules = rules();
    let mut rolled = scenario(
        &rules,
        |ctx| ctx.fix_dice("d6", &["6", "5", "3", "6"]),
        vec![frame("potions", &[("player", Value::Player(P0))])],
    );
    choose(&mut rolled, "roll a d6 four times");
    for hero in ["Dark Squire", "Dark Squire", "Dark Corsair", "Dark Squire"] {
        choose(&mut rolled, hero);
    }
    // Two of strength (octal digit 5) and one of vitality (digit 4) for the Squire.
    assert_eq!(
        counter(rolled.state(), "Dark Squire", "potions"),
        2 << 15 | 1 << 12
    );
    assert_eq!(counter(rolled.state(), "Dark Corsair", "potions"), 1 << 6);
    let mut chosen = scenario(
        &rules,
        |_| {},
        vec![frame("potions", &[("player", Value::Player(P0))])],
    );
    choose(&mut chosen, "choose two different Potions");
    choose(&mut chosen, "Potion of toughness");
    assert!(!offered(&chosen).contains(&"Potion of toughness".to_owned()));
    choose(&mut chosen, "Potion of accuracy");
    choose(&mut chosen, "Dark Squire");
    choose(&mut chosen, "Dark Squire");
    assert_eq!(
        counter(chosen.state(), "Dark Squire", "potions"),
        1 | 1 << 3
    );
    // Drinking: +3 S until the end of the Cycle.
    let mut drink = scenario(
        &rules,
        |ctx| {
            stand(ctx, "Dark Squire", 3500, 3000, (0, 1));
            set(ctx, "Dark Squire", "potions", 1 << 15 | 1 << 12);
            hurt(ctx, "Dark Squire", 3);
        },
        vec![step(&rules, "drink", "Dark Squire", &[])],
    );
    assert_eq!(
        offered(&drink),
        ["Potion of vitality", "Potion of strength"]
    );
    choose(&mut drink, "Potion of strength");
    assert_eq!(stat(drink.state(), "Dark Squire", "s"), 10);
    assert_eq!(counter(drink.state(), "Dark Squire", "potions"), 1 << 12);
    let vitality = scenario(
        &rules,
        |ctx| {
            stand(ctx, "Dark Squire", 3500, 3000, (0, 1));
            set(ctx, "Dark Squire", "potions", 1 << 12);
            hurt(ctx, "Dark Squire", 3);
        },
        vec![step(&rules, "drink", "Dark Squire", &[])],
    );
    assert_eq!(counter(vitality.state(), "Dark Squire", "damage"), 1);
    assert_eq!(counter(vitality.state(), "Dark Squire", "potions"), 0);
    // Offered as a Minor Action to a hero carrying one, not to one without.
    let offered_to = |potions: i64| {
        let game = scenario(
            &rules,
            move |ctx| {
                stand(ctx, "Dark Squire", 3500, 3000, (0, 1));
                set(ctx, "Dark Squire", "potions", potions);
            },
            vec![step(&rules, "activation", "Dark Squire", &[])],
        );
        offered(&game).contains(&"drink a potion".to_owned())
    };
    assert!(offered_to(1));
    assert!(!offered_to(0));
}

#[test]
fn a_false_prophets_curse_takes_2_and_his_friends_near_him_have_frenzy() {
    // 003 L1206: d6 3+: an enemy within 30 cm gets -2 to a characteristic chosen by his
    // player until the end of the Cycle (L1139: -3 with an Acolyte); no legal party is
    // Anarchist (docs), so the profession card is given to a hero of the test party.
    let rules = rules();
    let curse = |acolyte: bool, die: &'static str| {
        let mut game = scenario(
            &rules,
            move |ctx| {
                equip(ctx, "Dark Squire", "False Prophet");
                stand(ctx, "Dark Squire", 3500, 3000, (0, 1));
                stand(ctx, "Grey Soldier", 3500, 5000, (0, -1));
                if acolyte {
                    equip(ctx, "Dark Corsair", "Acolyte");
                    stand(ctx, "Dark Corsair", 6000, 6000, (0, 1));
                }
                ctx.fix_dice("d6", &[die]);
            },
            vec![step(&rules, "accursed_visions", "Dark Squire", &[])],
        );
        if die != "2" {
            choose(&mut game, "Grey Soldier");
            choose(&mut game, "ws");
        }
        stat(game.state(), "Grey Soldier", "ws")
    };
    assert_eq!(curse(false, "3"), 5);
    assert_eq!(curse(true, "3"), 4);
    assert_eq!(curse(false, "2"), 7);
    // 003 L1208 (L812-814: Frenzy shrugs off a combat loss of exactly 1 W): a friend within
    // 10 cm of him has Frenzy.
    let hit = |near: bool| {
        let corsair = who(&rules, "Dark Corsair");
        let game = scenario(
            &rules,
            move |ctx| {
                equip(ctx, "Dark Squire", "False Prophet");
                stand(ctx, "Dark Corsair", 3500, 3000, (0, 1));
                stand(
                    ctx,
                    "Dark Squire",
                    if near { 4000 } else { 6000 },
                    3000,
                    (0, 1),
                );
            },
            vec![frame(
                "wound",
                &[
                    ("target", corsair),
                    ("count", Value::Int(1)),
                    ("data", Value::Str("combat".into())),
                ],
            )],
        );
        counter(game.state(), "Dark Corsair", "damage")
    };
    assert_eq!(hit(true), 0);
    assert_eq!(hit(false), 1);
}

/// The Grey Cleric made a Druid (the Grey Watch's one Mage; the Druid's own card given to
/// him), his Menhir at (`x`, `y`) when `menhir`.
fn druid(ctx: &mut Ctx<'_>, menhir: Option<(i64, i64)>) {
    equip(ctx, "Grey Cleric", "Druid");
    stand(ctx, "Grey Cleric", 3500, 3000, (0, 1));
    if let Some((x, y)) = menhir {
        for (name, value) in [("menhir", 1), ("menhir_x", x), ("menhir_y", y)] {
            ctx.set_counter(Scope::Player(P1), name, value)
                .expect("menhir");
        }
    }
}

#[test]
fn a_druids_menhir_saves_wounds_heals_and_gives_4_w_back() {
    // 003 L1200: placed during deployment anywhere on the battlefield (ours: a 10 cm lattice).
    let rules = rules();
    let mut placed = scenario(
        &rules,
        |_| {},
        vec![frame("menhir", &[("player", Value::Player(P1))])],
    );
    assert_eq!(offered(&placed).len(), 50);
    choose(&mut placed, "at 35 cm, 25 cm");
    let state = placed.state();
    assert_eq!(scenario::player_counter(state, P1, "menhir"), 1);
    assert_eq!(scenario::player_counter(state, P1, "menhir_x"), 3500);
    assert_eq!(scenario::player_counter(state, P1, "menhir_y"), 2500);
    // 003 L1202: within 20 cm of it a 6 on the Magic Test costs no Wound (Kula: 1 W).
    let six = |menhir: (i64, i64)| {
        let game = cast(
            &rules,
            "Grey Cleric",
            "Kula",
            "Dark Squire",
            &["6"],
            move |ctx| {
                druid(ctx, Some(menhir));
                stand(ctx, "Dark Squire", 3500, 4000, (0, -1));
            },
        );
        counter(game.state(), "Grey Cleric", "damage")
    };
    assert_eq!(six((3500, 4500)), 0);
    assert_eq!(six((3500, 6500)), 1);
    // A Halfling or Elf Druid by the Menhir heals 3 (L616: 2 otherwise).
    let heal = |halfling: bool| {
        let game = scenario(
            &rules,
            move |ctx| {
                druid(ctx, Some((3500, 4000)));
                if halfling {
                    equip(ctx, "Grey Cleric", "Halflings");
                }
                hurt(ctx, "Grey Cleric", 4);
            },
            vec![step(&rules, "self_heal", "Grey Cleric", &[])],
        );
        counter(game.state(), "Grey Cleric", "damage")
    };
    assert_eq!(heal(true), 1);
    assert_eq!(heal(false), 2);
    // At 0 W, removing the Menhir gives 4 W back.
    let cleric = who(&rules, "Grey Cleric");
    let fall = |remove: bool| {
        let mut game = scenario(
            &rules,
            |ctx| {
                druid(ctx, Some((3500, 4000)));
                stand(ctx, "Grey Captain", 6000, 6000, (0, 1));
            },
            vec![frame(
                "wound",
                &[
                    ("target", cleric.clone()),
                    ("count", Value::Int(7)),
                    ("data", Value::Str("magic".into())),
                ],
            )],
        );
        choose(
            &mut game,
            if remove {
                "remove the Menhir: 4 W back"
            } else {
                "let him fall"
            },
        );
        game
    };
    let saved = fall(true);
    let state = saved.state();
    assert_eq!(tokens(state, "Grey Cleric", "death_counter"), 0);
    assert_eq!(counter(state, "Grey Cleric", "damage"), 3);
    assert_eq!(scenario::player_counter(state, P1, "menhir"), 0);
    let fallen = fall(false);
    assert_eq!(tokens(fallen.state(), "Grey Cleric", "death_counter"), 1);
}

#[test]
fn a_prayer_also_rerolls_a_missed_shot() {
    // 003 L1240 (ours: the re-roll of a missed hit roll, L518): a 1 misses, the 6 re-rolled
    // hits.
    let rules = rules();
    let shoot = |blessed: bool| {
        let mut game = scenario(
            &rules,
            move |ctx| {
                stand(ctx, "Grey Bow Master", 3500, 3000, (0, 1));
                stand(ctx, "Dark Squire", 3500, 5000, (0, -1));
                if blessed {
                    give(ctx, "Grey Bow Master", "blessed");
                }
                ctx.fix_dice("d6", &["1", "6", "6", "6", "1", "1"]);
            },
            vec![step(&rules, "shoot", "Grey Bow Master", &[])],
        );
        while pending(&game).is_some() {
            let options = offered(&game);
            let pick = ["no aiming", "re-roll the hit roll"]
                .iter()
                .find(|o| options.contains(&(**o).to_owned()))
                .map_or_else(|| options[0].clone(), |o| (*o).to_owned());
            choose(&mut game, &pick);
        }
        game
    };
    let blessed = shoot(true);
    assert!(
        has_said(&blessed, "re-rolls the hit roll"),
        "{:?}",
        said(&blessed)
    );
    // The Bow Master's 2, +1 under 20 cm (L511).
    assert_eq!(counter(blessed.state(), "Dark Squire", "damage"), 3);
    assert_eq!(tokens(blessed.state(), "Grey Bow Master", "blessed"), 0);
    let plain = shoot(false);
    assert!(has_said(&plain, "misses"));
    assert_eq!(counter(plain.state(), "Dark Squire", "damage"), 0);
}

#[test]
fn a_witch_hunter_with_a_soldier_near_modifies_a_strike_by_2() {
    // 003 L1254: once per turn, for each friendly Acolyte or Soldier within 20 cm, +2 or -2
    // to a die roll (ours: a Normal or Power Strike he makes or suffers).
    let rules = rules();
    let attack = |soldier: bool| {
        let mut game = strike(
            &rules,
            "Grey Witch Hunter",
            "Dark Squire",
            "Spear",
            "normal",
            &["3", "4"],
            move |ctx| {
                if soldier {
                    stand(ctx, "Grey Soldier", 4000, 2700, (0, 1));
                }
            },
        );
        if soldier {
            assert_eq!(offered(&game), ["+2 to my strike", "no"]);
            choose(&mut game, "+2 to my strike");
        }
        game
    };
    // 3 + 7 + 1 against 4 + 7: a tie fails, +2 wounds for 2.
    let helped = attack(true);
    assert_eq!(
        counter(helped.state(), "Dark Squire", "damage"),
        2,
        "{:?}",
        said(&helped)
    );
    assert_eq!(
        counter(helped.state(), "Grey Witch Hunter", "ability_used"),
        1
    );
    let alone = attack(false);
    assert_eq!(counter(alone.state(), "Dark Squire", "damage"), 0);
    // Struck: 5 + 7 + 1 against 1 + 7, less 2.
    let mut defended = strike(
        &rules,
        "Dark Corsair",
        "Grey Witch Hunter",
        "Spear",
        "normal",
        &["5", "1"],
        |ctx| {
            stand(ctx, "Grey Soldier", 4000, 3500, (0, 1));
        },
    );
    assert_eq!(pending(&defended).expect("asked").player, P1);
    choose(&mut defended, "-2 to the enemy's strike");
    assert_eq!(counter(defended.state(), "Grey Witch Hunter", "damage"), 3);
    // One Soldier, one use this turn.
    let used = strike(
        &rules,
        "Dark Corsair",
        "Grey Witch Hunter",
        "Spear",
        "normal",
        &["5", "1"],
        |ctx| {
            stand(ctx, "Grey Soldier", 4000, 3500, (0, 1));
            set(ctx, "Grey Witch Hunter", "ability_used", 1);
        },
    );
    assert!(pending(&used).is_none());
    assert_eq!(counter(used.state(), "Grey Witch Hunter", "damage"), 5);
}
