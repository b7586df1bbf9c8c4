//! Umbra Turris's professions, Paladin to Scout (seed 003, L1296-1470; digest A16), played
//! from the data: each scenario arranges heroes of the test parties below on the table
//! through the kernel's `Ctx`, loads the dice with `fix_dice`, runs one step of the flow and
//! answers its requests. Each test cites the seed lines it checks, and compares the hero of
//! the profession with one of another profession (or the same roll without the ability).
//!
//! | Profession | What is checked | Test |
//! |---|---|---|
//! | Paladin | the Aura: +2 to his characteristic, +1 to a friend's within 20 cm; Fear with a Priest | `the_paladins_aura_raises_him_and_his_friends_within_20_cm`, `a_paladin_with_a_priest_has_fear_on_the_charge` |
//! | Tracker | Spot at 40 cm, a failed test re-rolled; his charge on a spotted enemy or one in terrain is not parried | `a_tracker_spots_at_40_cm_and_re_rolls`, `a_tracker_charging_a_spotted_enemy_cannot_be_parried`, `terrain_gives_the_brigand_1_damage_the_tracker_an_unparried_charge_and_the_ranger_a_counter_attack` |
//! | Brigand | in terrain or hidden at the start of his turn: +2 on the charge; +1 damage against an enemy in terrain | `a_brigand_hidden_at_the_start_of_his_turn_strikes_plus_2_on_the_charge`, `terrain_gives_the_brigand_1_damage_the_tracker_an_unparried_charge_and_the_ranger_a_counter_attack` |
//! | Gunsmith | +1 to hit with a firearm; moves Sp after shooting | `a_gunsmith_hits_plus_1_with_a_firearm`, `a_marksman_gunsmith_or_executioner_may_move_sp_after_shooting` |
//! | Knight of the Order | +2 damage against a hero without an Action Dice; more than 1 damage, the die lost on 2+; armour +1 | `the_knight_deals_2_more_to_a_hero_without_a_die_and_shakes_off_its_die`, `a_soldier_and_a_knight_test_armour_at_plus_1` |
//! | Skald | the song's Fury: +2 S on a charge | `the_skalds_song_gives_fury_within_20_cm` |
//! | Executioner | Sp 8; moves Sp after shooting; critical shots with a bow | `executioner_and_fencer_characteristics_are_set_before_the_battle`, `a_marksman_gunsmith_or_executioner_may_move_sp_after_shooting`, `an_executioners_bow_strikes_critically` |
//! | Ranger | a hero deploys 20 cm further; Nature magic re-rolled; in terrain his weapons counter-attack | `a_rangers_party_deploys_one_hero_further_forward`, `a_ranger_in_the_party_re_rolls_a_failed_nature_spell`, `terrain_gives_the_brigand_1_damage_the_tracker_an_unparried_charge_and_the_ranger_a_counter_attack` |
//! | Marksman | moves Sp after shooting | `a_marksman_gunsmith_or_executioner_may_move_sp_after_shooting` |
//! | Duelist | Normal +1 becomes +2 | `a_duelist_strikes_with_plus_2_for_a_plus_1_weapon` |
//! | Fencer | WS 8 with a saber; parries two locations from the front | `a_fencer_parries_two_locations_from_the_front`, `executioner_and_fencer_characteristics_are_set_before_the_battle` |
//! | Street Judge | the cry: weapon bonuses doubled within 10 cm, armour re-rolled | `the_street_judges_cry_doubles_weapon_bonuses_and_re_rolls_armour` |
//! | Master Gamekeeper | his bows stun; Sharpen senses doubled | `a_master_gamekeepers_bow_stuns`, `a_master_gamekeeper_doubles_sharpen_senses` |
//! | Crafty Merchant | charged, gives an item and is not attacked | `a_crafty_merchant_charged_may_give_an_item_and_is_not_attacked` |
//! | Guard Sergeant | initiative passed or seized; shield re-rolled | `a_guard_sergeant_passes_a_won_initiative_or_seizes_a_lost_one`, `a_guard_sergeant_re_rolls_his_shield_test` |
//! | Charlatan | enemy Mages within 20 cm -1 | `an_enemy_charlatan_within_20_cm_takes_1_from_magic_tests` |
//! | Wizard Apprentice | Summon spawn re-rolled | `a_wizard_apprentice_lets_the_wizard_re_roll_summon_spawn` |
//! | Axeman | a thrown axe, Damage 2, and a Sp move | `an_axeman_throws_his_axe_for_2_and_moves` |
//! | Shaman | the Ritual and the Spirit Table | `a_shaman_consults_the_spirits_instead_of_casting`, `the_spirit_table_six_wounds_two_enemies_and_costs_nothing`, `the_spirit_table_one_costs_a_wound_more`, `the_spirit_table_four_and_two_are_chosen_by_the_opponent`, `the_spirit_table_five_avenges_a_model_of_the_party` |
//! | Clan Warrior | a Normal Strike die shifted by 1 | `a_clan_warrior_shifts_his_strike_die_by_1` |
//! | Assassin | light weapon bonus doubled, crits on 4+ | `an_assassin_doubles_a_light_weapon_and_crits_on_4` |
//! | Soldier | armour +1 | `a_soldier_and_a_knight_test_armour_at_plus_1` |
//! | Thief | 3+ damage, d6 3+ steals an item | `a_thief_steals_an_item_after_3_damage` |
//! | Swashbuckler | a second attack after a parry | `a_swashbuckler_with_two_swords_attacks_again_when_parried` |
//! | Scout | moves his full M while hidden | `a_hidden_scout_moves_his_full_m` |

use gloam::core::{Choice, Ctx, Game, GameState, Options, PlayerId, Scope, Value, ZoneId};
use gloam::engine::RulesetGame;
use gloam::sim::check_invariants;

mod scenario;
use scenario::teach;
use scenario::{
    Scenario, frame, give, has_said, pending, piece, piece_counter as counter, said, scenario,
    tokens,
};
use scenario::{party_duel, stand};

/// Test parties, legal under the building rules (`gloam check`): Borian Humans (no race
/// ability of theirs acts in these scenarios). No legal party holds a Street Judge (Humans'
/// sub-races and the Half-giants refuse Lawful), so the Judge's card is given to a hero in
/// its scenario.
const PARTIES: &str = r#"
party "Test Blades" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 5000
    source = "ours"
    hero "Kord" { race = "Humans" subrace = "Borians" profession = "Knight of the Order" leader = true equipment = ["Sword, short sword"] }
    hero "Sola" { race = "Humans" subrace = "Borians" profession = "Soldier" equipment = ["Sword, short sword", "Chain shirt"] }
    hero "Asha" { race = "Humans" subrace = "Borians" profession = "Assassin" equipment = ["Dagger, Hunting knife"] }
    hero "Duro" { race = "Humans" subrace = "Borians" profession = "Duelist" equipment = ["Sword, short sword"] }
    hero "Brig" { race = "Humans" subrace = "Borians" profession = "Brigand" equipment = ["Sword, short sword"] }
    hero "Clan" { race = "Humans" subrace = "Borians" profession = "Clan Warrior" equipment = ["Sword, short sword"] }
    hero "Fenn" { race = "Humans" subrace = "Borians" profession = "Fencer" equipment = ["Saber, Rapier"] }
    hero "Swash" { race = "Humans" subrace = "Borians" profession = "Swashbuckler" equipment = ["Sword, short sword", "Sword, short sword"] }
    hero "Trak" { race = "Humans" subrace = "Borians" profession = "Tracker" equipment = ["Sword, short sword"] }
    hero "Skal" { race = "Humans" subrace = "Borians" profession = "Skald" equipment = ["Sword, short sword"] }
    hero "Thea" { race = "Humans" subrace = "Borians" profession = "Thief" equipment = ["Sword, short sword"] }
    hero "Rang" { race = "Humans" subrace = "Borians" profession = "Ranger" equipment = ["Sword, short sword"] }
    hero "Mark" { race = "Humans" subrace = "Borians" profession = "Marksman" equipment = ["Bow"] }
    hero "Gun" { race = "Humans" subrace = "Borians" profession = "Gunsmith" equipment = ["Pistol"] }
    hero "Keep" { race = "Humans" subrace = "Borians" profession = "Master Gamekeeper" equipment = ["Bow"] }
    hero "Scot" { race = "Humans" subrace = "Borians" profession = "Scout" equipment = ["Sword, short sword"] }
}

party "Test Foes" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 5000
    source = "ours"
    hero "Foe Chief" { race = "Humans" subrace = "Borians" profession = "Scoundrel" leader = true equipment = ["Sword, short sword"] }
    hero "Foe Mage" { race = "Humans" subrace = "Borians" profession = "Wizard" equipment = ["Staff, Ritual weapon"] domains = ["Nature", "Change"] }
    hero "Foe 1" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword", "Poison"] }
    hero "Foe 2" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Foe 3" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword", "Chain shirt"] }
    hero "Foe 4" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Bow"] }
    hero "Foe 5" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Pistol"] }
    hero "Serg" { race = "Humans" subrace = "Borians" profession = "Guard Sergeant" equipment = ["Sword, short sword"] }
    hero "Merc" { race = "Humans" subrace = "Borians" profession = "Crafty Merchant" equipment = ["Sword, short sword", "Rope", "Lantern/torch", "Herbs"] }
    hero "Charl" { race = "Humans" subrace = "Borians" profession = "Charlatan" equipment = ["Sword, short sword"] }
    hero "Axel" { race = "Humans" subrace = "Borians" profession = "Axeman" equipment = ["Axe, Scimitar"] }
    hero "Appr" { race = "Humans" subrace = "Borians" profession = "Wizard Apprentice" equipment = ["Sword, short sword"] spells = ["Ferocious attack"] }
    hero "Exec" { race = "Humans" subrace = "Borians" profession = "Executioner" equipment = ["Bow"] }
}

party "Test Spirits" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 5000
    source = "ours"
    hero "Sham" { race = "Humans" subrace = "Borians" profession = "Shaman" equipment = ["Staff, Ritual weapon"] }
    hero "Kin 1" { race = "Humans" subrace = "Borians" profession = "Scoundrel" leader = true equipment = ["Sword, short sword"] }
    hero "Kin 2" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Kin 3" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Kin 4" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Kin 5" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
}

party "Test Light" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = good
    points = 5000
    source = "ours"
    hero "Pala" { race = "Humans" subrace = "Borians" profession = "Paladin" leader = true equipment = ["Sword, short sword"] }
    hero "Prie" { race = "Humans" subrace = "Borians" profession = "Priest" equipment = ["Staff, Ritual weapon"] domains = ["Light"] }
    hero "Lux 1" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Lux 2" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Lux 3" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
    hero "Lux 4" { race = "Humans" subrace = "Borians" profession = "Scoundrel" equipment = ["Sword, short sword"] }
}
"#;

/// A match of the shipped data plus the test parties, `a` against `b`.
fn duel(a: &str, b: &str) -> RulesetGame {
    party_duel(PARTIES, a, b)
}

fn blades() -> RulesetGame {
    duel("Test Blades", "Test Foes")
}

fn light() -> RulesetGame {
    duel("Test Light", "Test Foes")
}

/// `a` to the south facing north, `b` facing south, their 25 mm bases touching.
fn face_to_face(ctx: &mut Ctx<'_>, a: &str, b: &str) {
    stand(ctx, a, 3500, 3000, (0, 1));
    stand(ctx, b, 3500, 3250, (0, -1));
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

fn set(ctx: &mut Ctx<'_>, kind: &str, name: &str, value: i64) {
    let id = piece(ctx.state(), kind);
    ctx.set_counter(Scope::Piece(id), name, value)
        .expect("counter");
}

/// The names of the cards on a hero.
fn carried(state: &GameState, kind: &str) -> Vec<String> {
    let id = piece(state, kind);
    let zone = ZoneId::on_piece(state.pieces[&id].owner, "equipped", id);
    state
        .zone_cards(&zone)
        .iter()
        .map(|card| state.cards[card].name.clone())
        .collect()
}

/// A game of `rules` arranged by `arrange`, the d6 loaded with `dice`, starting with the
/// frame of `step` with `vars` (names of heroes in `Value::Str` are not resolved: callers
/// pass pieces).
fn run(
    rules: &RulesetGame,
    step: &str,
    vars: Vec<(&'static str, Value)>,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    scenario::umbra::loaded(rules, vec![frame(step, &vars)], dice, arrange)
}

/// `attacker` attacks `defender` (step `fight`, `data` `how`), in base contact, the d6
/// loaded with `dice`.
fn fight(
    rules: &RulesetGame,
    attacker: &'static str,
    defender: &'static str,
    how: &str,
    dice: &[&str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, attacker))),
        ("fighter", id(state, attacker)),
        ("target", id(state, defender)),
        ("data", Value::Str(how.to_owned())),
    ];
    run(rules, "fight", vars, dice, move |ctx| {
        face_to_face(ctx, attacker, defender);
        arrange(ctx);
    })
}

/// The names of the choices of the first pending request.
fn offered(game: &Game<Scenario>) -> Vec<String> {
    let request = pending(game).expect("a request");
    let state = game.state();
    match &request.options {
        Options::One { choices } => choices
            .iter()
            .map(|choice| match choice {
                Choice::Card(id) => state.cards[id].name.clone(),
                Choice::Piece(id) => state.pieces[id].kind.clone(),
                Choice::Option(text) => text.clone(),
                other => other.to_string(),
            })
            .collect(),
        other => panic!("not a single choice: {other:?}"),
    }
}

/// Answers the first pending request with its choice named `name`.
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

/// Both players answer the secret guess: the attacker strikes `blow`, the defender parries
/// `guard`.
fn guess(game: &mut Game<Scenario>, blow: &str, guard: &str) {
    let asked: Vec<(PlayerId, bool)> = game
        .pending()
        .iter()
        .map(|r| (r.player, r.secret))
        .collect();
    assert_eq!(
        asked.len(),
        2,
        "a secret guess asks both players: {:?}",
        said(game)
    );
    assert!(asked.iter().all(|(_, secret)| *secret));
    let answer = |game: &mut Game<Scenario>, who: PlayerId, text: &str| {
        game.submit(
            who,
            gloam::core::Answer::One(Choice::Option(text.to_owned())),
        )
        .unwrap_or_else(|error| panic!("{error}"));
    };
    answer(game, asked[0].0, blow);
    answer(game, asked[1].0, guard);
}

/// A blow that lands on the body (the defender parries the legs), struck as `kind`.
fn lands(game: &mut Game<Scenario>, weapon: &str, kind: &str) {
    guess(game, &format!("{weapon} / body"), "legs");
    choose(game, kind);
}

const SWORD: &str = "Sword, short sword";

// ------------------------------------------------------------------------------------
// The professions of the shipped parties (Paladin, Tracker, Ranger, Marksman, Assassin,
// Soldier, Thief, Scout)
// ------------------------------------------------------------------------------------

#[test]
fn the_paladins_aura_raises_him_and_his_friends_within_20_cm() {
    // 003 L1300: once per Cycle, d6 3+: +2 to one of his characteristics, +1 to one of each
    // hero within 20 cm, until the end of the Cycle.
    let rules = light();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Pala"))),
        ("fighter", id(state, "Pala")),
        ("data", Value::Str("Aura of Inspiration".into())),
    ];
    let arrange = |ctx: &mut Ctx<'_>| {
        stand(ctx, "Pala", 3500, 3000, (0, 1));
        stand(ctx, "Lux 1", 3500, 4500, (0, 1));
        stand(ctx, "Lux 2", 3500, 6500, (0, 1));
    };
    let mut game = run(&rules, "profession_call", vars.clone(), &["3"], arrange);
    let ws = stat(game.state(), "Pala", "ws");
    choose(&mut game, "ws");
    // Only Lux 1 is within 20 cm: one more question, then none.
    choose(&mut game, "s");
    assert!(pending(&game).is_none());
    let state = game.state();
    assert_eq!(stat(state, "Pala", "ws"), ws + 2);
    assert_eq!(stat(state, "Lux 1", "s"), 8);
    assert_eq!(stat(state, "Lux 2", "s"), 7);
    // A 2 fails: nothing changes, and the Aura is spent for the Cycle.
    let failed = run(&rules, "profession_call", vars, &["2"], arrange);
    assert!(pending(&failed).is_none());
    assert_eq!(stat(failed.state(), "Pala", "ws"), ws);
    assert!(has_said(&failed, "fails"));
    assert_eq!(counter(failed.state(), "Pala", "call_cycle"), 1);
}

#[test]
fn the_aura_is_offered_once_a_cycle_while_the_paladin_activates() {
    // 003 L1300: "at any moment during his turn, but only once per Cycle".
    let rules = light();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Pala"))),
        ("fighter", id(state, "Pala")),
    ];
    let fresh = run(&rules, "activation", vars.clone(), &[], |ctx| {
        stand(ctx, "Pala", 3500, 3000, (0, 1))
    });
    assert!(offered(&fresh).contains(&"Aura of Inspiration".to_owned()));
    let spent = run(&rules, "activation", vars, &[], |ctx| {
        stand(ctx, "Pala", 3500, 3000, (0, 1));
        set(ctx, "Pala", "call_cycle", 1);
    });
    assert!(!offered(&spent).contains(&"Aura of Inspiration".to_owned()));
    // A hero of another profession has no Aura.
    let other = run(
        &rules,
        "activation",
        vec![
            ("player", Value::Player(owner(start.state(), "Lux 1"))),
            ("fighter", id(start.state(), "Lux 1")),
        ],
        &[],
        |ctx| {
            stand(ctx, "Lux 1", 3500, 3000, (0, 1));
        },
    );
    assert!(!offered(&other).contains(&"Aura of Inspiration".to_owned()));
}

#[test]
fn a_paladin_with_a_priest_has_fear_on_the_charge() {
    // 003 L1300: with a Priest in the party the Paladin has Fear; a charged enemy cannot parry
    // a Fear model's strikes (L802): the attacker chooses openly.
    let rules = light();
    let game = fight(&rules, "Pala", "Foe 2", "charge", &[], |_| {});
    let asked = pending(&game).expect("a request");
    assert_eq!(game.pending().len(), 1);
    assert!(!asked.secret);
    // Lux 1 (no Fear) charging is parried in secret as usual.
    let plain = fight(&rules, "Lux 1", "Foe 2", "charge", &[], |_| {});
    assert_eq!(plain.pending().len(), 2);
}

#[test]
fn a_tracker_spots_at_40_cm_and_re_rolls() {
    // 003 L1312: Spot range 40 cm (30 cm for others, L360), a failed Spot test re-rolled.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let spot = |who: &'static str, y: i64| {
        let vars = vec![
            ("player", Value::Player(owner(state, who))),
            ("fighter", id(state, who)),
        ];
        let mut game = run(&rules, "spot", vars, &["1", "4"], move |ctx| {
            stand(ctx, who, 3500, 1000, (0, 1));
            stand(ctx, "Foe 2", 3500, y, (0, -1));
            give(ctx, "Foe 2", "hidden");
        });
        if pending(&game).is_some() {
            choose(&mut game, "Foe 2");
        }
        game
    };
    // 35 cm between the bases: the Tracker's 1 is re-rolled to a 4.
    let tracker = spot("Trak", 1000 + 3500 + 250);
    assert_eq!(
        tokens(tracker.state(), "Foe 2", "hidden"),
        0,
        "{:?}",
        said(&tracker)
    );
    assert_eq!(counter(tracker.state(), "Foe 2", "tracked"), 1);
    // The Soldier at 25 cm keeps his 1.
    let soldier = spot("Sola", 1000 + 2500 + 250);
    assert_eq!(tokens(soldier.state(), "Foe 2", "hidden"), 1);
    assert!(has_said(&soldier, "fails to spot"));
}

#[test]
fn a_tracker_charging_a_spotted_enemy_cannot_be_parried() {
    // 003 L1314: charging an enemy he spotted, the Tracker's attacks may not be parried.
    let rules = blades();
    let game = fight(&rules, "Trak", "Foe 2", "charge", &[], |ctx| {
        set(ctx, "Foe 2", "tracked", 1)
    });
    assert_eq!(game.pending().len(), 1);
    assert!(!pending(&game).expect("a request").secret);
    // Not spotted: a secret guess; another profession: a secret guess too.
    let unseen = fight(&rules, "Trak", "Foe 2", "charge", &[], |_| {});
    assert_eq!(unseen.pending().len(), 2);
    let soldier = fight(&rules, "Sola", "Foe 2", "charge", &[], |ctx| {
        set(ctx, "Foe 2", "tracked", 1)
    });
    assert_eq!(soldier.pending().len(), 2);
}

#[test]
fn a_rangers_party_deploys_one_hero_further_forward() {
    // 003 L1354: one hero may be deployed 20 cm further than the deployment zone (the South
    // strip is 10 cm deep, L2104-2106).
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let blades_seat = owner(start.state(), "Rang");
    let vars = vec![
        ("player", Value::Player(blades_seat)),
        ("data", Value::Str("South".into())),
    ];
    let mut game = run(&rules, "deploy", vars, &[], |_| {});
    assert_eq!(offered(&game)[0], "none");
    assert!(offered(&game).contains(&"Scot".to_owned()));
    choose(&mut game, "Kord");
    // Kord is set up in the strip, then may move up to 20 cm further (ours).
    let request = pending(&game).expect("a request");
    let Options::One { choices } = &request.options else {
        panic!("one choice")
    };
    let first = choices[0].clone();
    game.submit(request.player, gloam::core::Answer::One(first))
        .expect("set up");
    let request = pending(&game).expect("a request");
    assert!(request.prompt.contains("Ranger"), "{}", request.prompt);
    let Options::One { choices } = &request.options else {
        panic!("one choice")
    };
    let farthest = choices
        .iter()
        .filter_map(|c| {
            if let Choice::Point(p) = c {
                Some(p.x * p.x + p.y * p.y)
            } else {
                None
            }
        })
        .max()
        .expect("points");
    assert!(farthest > 1500 * 1500, "{farthest}");
    // The foes have no Ranger: no question, the first set-up at once, all within the strip.
    let foes = run(
        &rules,
        "deploy",
        vec![
            ("player", Value::Player(owner(start.state(), "Foe 2"))),
            ("data", Value::Str("North".into())),
        ],
        &[],
        |_| {},
    );
    assert!(!offered(&foes).contains(&"none".to_owned()));
}

#[test]
fn a_ranger_in_the_party_re_rolls_a_failed_nature_spell() {
    // 003 L1354: thanks to the Ranger a Mage may re-roll Magic Tests for Nature spells. The
    // foes' Wizard (Nature) casts Ally of the nature (003 L748, chance 2): a 1 then a 5.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Foe Mage"))),
        ("fighter", id(state, "Foe Mage")),
    ];
    let cast = |ranger: bool| {
        let mut game = run(&rules, "cast", vars.clone(), &["1", "5"], move |ctx| {
            stand(ctx, "Foe Mage", 3500, 2000, (0, 1));
            if ranger {
                stand(ctx, "Foe 2", 4500, 2000, (0, 1));
                teach(ctx, "Foe 2", "Ranger");
            }
        });
        choose(&mut game, "Ally of the nature");
        // Cast: the spell asks which way the next Initiative roll goes (L748).
        if pending(&game).is_some() {
            choose(&mut game, "+3");
        }
        game
    };
    let helped = cast(true);
    assert!(
        has_said(&helped, "casts Ally of the nature"),
        "{:?}",
        said(&helped)
    );
    let alone = cast(false);
    assert!(has_said(&alone, "a Fumble"), "{:?}", said(&alone));
}

#[test]
fn a_marksman_gunsmith_or_executioner_may_move_sp_after_shooting() {
    // 003 L1362, L1324, L1348: they may move up to Sp in addition to the ranged attack.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let shoot = |who: &'static str, target: &'static str, teach_it: Option<&'static str>| {
        let state = start.state();
        let vars = vec![
            ("player", Value::Player(owner(state, who))),
            ("fighter", id(state, who)),
        ];
        let mut game = run(&rules, "shoot", vars, &["1"], move |ctx| {
            stand(ctx, who, 3500, 2000, (0, 1));
            stand(ctx, target, 3500, 3500, (0, -1));
            if let Some(name) = teach_it {
                teach(ctx, who, name);
            }
        });
        while pending(&game).is_some() {
            let first = offered(&game)[0].clone();
            choose(&mut game, &first);
        }
        counter(game.state(), who, "sp_move")
    };
    assert_eq!(shoot("Mark", "Foe 2", None), 1);
    assert_eq!(shoot("Gun", "Foe 2", None), 1);
    assert_eq!(shoot("Foe 4", "Sola", Some("Executioner")), 1);
    assert_eq!(shoot("Foe 4", "Sola", None), 0);
}

#[test]
fn an_assassin_doubles_a_light_weapon_and_crits_on_4() {
    // 003 L1442: a light weapon's bonus doubled (Dagger, Precision +2: +4); +1 to the chance
    // of a Critical Strike (5+ becomes 4+, L454-456). 2d6 6 and 3 + Sp 7 + 4 = 20 against
    // 1 + 1 + 7 = 9; the 6 rolls a 4.
    let rules = blades();
    let mut game = fight(
        &rules,
        "Asha",
        "Foe 2",
        "",
        &["6", "3", "1", "1", "4"],
        |_| {},
    );
    lands(&mut game, "Dagger, Hunting knife", "precision");
    assert!(
        has_said(&game, "precision strike: 20 against 9"),
        "{:?}",
        said(&game)
    );
    assert!(has_said(&game, "strikes critically"));
    assert_eq!(tokens(game.state(), "Foe 2", "death_counter"), 1);
    // The same dagger and dice in a Scoundrel's hand: 18, and no critical on a 4.
    let mut plain = fight(
        &rules,
        "Foe 2",
        "Sola",
        "",
        &["6", "3", "1", "1", "4"],
        |ctx| teach(ctx, "Foe 2", "Dagger, Hunting knife"),
    );
    lands(&mut plain, "Dagger, Hunting knife", "precision");
    assert!(
        has_said(&plain, "precision strike: 18 against 9"),
        "{:?}",
        said(&plain)
    );
    assert!(!has_said(&plain, "strikes critically"));
}

#[test]
fn a_soldier_and_a_knight_test_armour_at_plus_1() {
    // 003 L1448, L1330: Armor tests at +1. A Chain shirt saves on 6 (L1888): a 5 saves the
    // Soldier and the Knight, not a Duelist. Foe Chief's Sword: 5 + 7 + 1 = 13 against 1 + 7 = 8, 5
    // damage, halved to 3.
    let rules = blades();
    let dice = ["5", "1", "5", "2", "2"];
    let mut soldier = fight(&rules, "Foe Chief", "Sola", "", &dice, |_| {});
    lands(&mut soldier, SWORD, "normal");
    assert!(has_said(&soldier, "armour halves the damage"));
    assert_eq!(counter(soldier.state(), "Sola", "damage"), 3);
    let mut knight = fight(&rules, "Foe Chief", "Kord", "", &dice, |ctx| {
        teach(ctx, "Kord", "Chain shirt")
    });
    lands(&mut knight, SWORD, "normal");
    assert_eq!(counter(knight.state(), "Kord", "damage"), 3);
    let mut duelist = fight(&rules, "Foe Chief", "Duro", "", &dice, |ctx| {
        teach(ctx, "Duro", "Chain shirt")
    });
    lands(&mut duelist, SWORD, "normal");
    assert_eq!(counter(duelist.state(), "Duro", "damage"), 5);
}

#[test]
fn a_thief_steals_an_item_after_3_damage() {
    // 003 L1460: 3 or more damage in combat, d6 3+: the Thief steals an item of the enemy's
    // additional equipment. 5 + 7 + 1 = 13 against 8: 5 damage; the steal rolls a 3.
    let rules = blades();
    let mut game = fight(&rules, "Thea", "Foe 1", "", &["5", "1", "3"], |_| {});
    lands(&mut game, SWORD, "normal");
    if pending(&game).is_some() {
        choose(&mut game, "Poison");
    }
    assert!(
        carried(game.state(), "Thea").contains(&"Poison".to_owned()),
        "{:?}",
        said(&game)
    );
    assert!(!carried(game.state(), "Foe 1").contains(&"Poison".to_owned()));
    let mut soldier = fight(&rules, "Sola", "Foe 1", "", &["5", "1", "3"], |_| {});
    lands(&mut soldier, SWORD, "normal");
    assert!(carried(soldier.state(), "Foe 1").contains(&"Poison".to_owned()));
}

#[test]
fn a_hidden_scout_moves_his_full_m() {
    // 003 L1470 (L356: a hidden hero moves at most Sp): a hidden Scout moves his full M,
    // 15 cm, beyond his Sp 7 cm.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let reach = |who: &'static str| {
        let state = start.state();
        let vars = vec![
            ("player", Value::Player(owner(state, who))),
            ("fighter", id(state, who)),
        ];
        let game = run(&rules, "move", vars, &[], move |ctx| {
            stand(ctx, who, 3500, 2000, (0, 1));
            give(ctx, who, "hidden");
        });
        let request = pending(&game).expect("a request");
        let Options::One { choices } = &request.options else {
            panic!("one choice")
        };
        choices
            .iter()
            .filter_map(|c| {
                if let Choice::Point(p) = c {
                    Some(p.x * p.x + p.y * p.y)
                } else {
                    None
                }
            })
            .max()
            .expect("points")
    };
    assert!(reach("Scot") > 700 * 700, "{}", reach("Scot"));
    assert!(reach("Sola") <= 700 * 700);
}

// ------------------------------------------------------------------------------------
// Combat modifiers
// ------------------------------------------------------------------------------------

#[test]
fn the_knight_deals_2_more_to_a_hero_without_a_die_and_shakes_off_its_die() {
    // 003 L1330: +2 damage to an enemy without an Action Dice; more than 1 damage to one with
    // a die, d6 2+ and it loses it. Sword: 3 + 7 + 1 = 11 against 1 + 7 = 8: 3 damage.
    let rules = blades();
    let mut bare = fight(&rules, "Kord", "Foe 2", "", &["3", "1"], |_| {});
    lands(&mut bare, SWORD, "normal");
    assert_eq!(counter(bare.state(), "Foe 2", "damage"), 5);
    let mut holding = fight(&rules, "Kord", "Foe 2", "", &["3", "1", "2"], |ctx| {
        give(ctx, "Foe 2", "action_die")
    });
    lands(&mut holding, SWORD, "normal");
    assert_eq!(counter(holding.state(), "Foe 2", "damage"), 3);
    assert_eq!(tokens(holding.state(), "Foe 2", "action_die"), 0);
    let mut soldier = fight(&rules, "Sola", "Foe 2", "", &["3", "1", "2"], |ctx| {
        give(ctx, "Foe 2", "action_die")
    });
    lands(&mut soldier, SWORD, "normal");
    assert_eq!(counter(soldier.state(), "Foe 2", "damage"), 3);
    assert_eq!(tokens(soldier.state(), "Foe 2", "action_die"), 1);
}

#[test]
fn a_duelist_strikes_with_plus_2_for_a_plus_1_weapon() {
    // 003 L1386: a +1 Normal bonus becomes +2. 3 + 7 + 2 = 12 against 8: 4 damage (3 for
    // the Soldier's same sword).
    let rules = blades();
    let mut duelist = fight(&rules, "Duro", "Foe 2", "", &["3", "1"], |_| {});
    lands(&mut duelist, SWORD, "normal");
    assert_eq!(counter(duelist.state(), "Foe 2", "damage"), 4);
    let mut soldier = fight(&rules, "Sola", "Foe 2", "", &["3", "1"], |_| {});
    lands(&mut soldier, SWORD, "normal");
    assert_eq!(counter(soldier.state(), "Foe 2", "damage"), 3);
}

#[test]
fn a_brigand_hidden_at_the_start_of_his_turn_strikes_plus_2_on_the_charge() {
    // 003 L1318: in terrain or hidden at the beginning of his turn, +2 to any strike when he
    // charges. The turn marks him; the charge strikes 3 + 7 + 1 + 2 = 13 against 8.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let seat = owner(start.state(), "Brig");
    let turn = run(
        &rules,
        "turn",
        vec![("player", Value::Player(seat))],
        &[],
        |ctx| {
            stand(ctx, "Brig", 3500, 2000, (0, 1));
            give(ctx, "Brig", "hidden");
            give(ctx, "Brig", "action_die");
        },
    );
    assert_eq!(counter(turn.state(), "Brig", "brigand_ready"), 1);
    let open = run(
        &rules,
        "turn",
        vec![("player", Value::Player(seat))],
        &[],
        |ctx| {
            stand(ctx, "Brig", 3500, 2000, (0, 1));
            give(ctx, "Brig", "action_die");
        },
    );
    assert_eq!(counter(open.state(), "Brig", "brigand_ready"), 0);
    // The Brigand has Fear (L1316): a charged enemy cannot parry (L802), he strikes openly.
    let mut charge = fight(&rules, "Brig", "Foe 2", "charge", &["3", "1"], |ctx| {
        set(ctx, "Brig", "brigand_ready", 1)
    });
    choose(&mut charge, &format!("{SWORD} / body"));
    choose(&mut charge, "normal");
    assert_eq!(counter(charge.state(), "Foe 2", "damage"), 5);
    let mut plain = fight(&rules, "Brig", "Foe 2", "charge", &["3", "1"], |_| {});
    choose(&mut plain, &format!("{SWORD} / body"));
    choose(&mut plain, "normal");
    assert_eq!(counter(plain.state(), "Foe 2", "damage"), 3);
}

#[test]
fn a_clan_warrior_shifts_his_strike_die_by_1() {
    // 003 L1430: a Normal or Power Strike die modified by 1 (ours: up). 4 + 7 + 1 = 12
    // against 8.
    let rules = blades();
    let mut clan = fight(&rules, "Clan", "Foe 2", "", &["3", "1"], |_| {});
    lands(&mut clan, SWORD, "normal");
    assert_eq!(counter(clan.state(), "Foe 2", "damage"), 4);
    let mut soldier = fight(&rules, "Sola", "Foe 2", "", &["3", "1"], |_| {});
    lands(&mut soldier, SWORD, "normal");
    assert_eq!(counter(soldier.state(), "Foe 2", "damage"), 3);
}

#[test]
fn a_fencer_parries_two_locations_from_the_front() {
    // 003 L1398: a Fencer with a sword, saber or rapier attacked from the front parries with
    // two dice: he defends two locations.
    let rules = blades();
    let mut game = fight(&rules, "Foe Chief", "Fenn", "", &[], |_| {});
    let asked: Vec<_> = game.pending().into_iter().cloned().collect();
    let guard = asked
        .iter()
        .find(|r| r.player == owner(game.state(), "Fenn"))
        .expect("the defender");
    let Options::One { choices } = &guard.options else {
        panic!("one choice")
    };
    assert_eq!(choices.len(), 3);
    assert!(choices.contains(&Choice::Option("legs and body".into())));
    guess(&mut game, &format!("{SWORD} / body"), "legs and body");
    assert!(has_said(&game, "parries the blow"));
    assert!(pending(&game).is_none());
    // The head is open.
    let mut open = fight(&rules, "Foe Chief", "Fenn", "", &["3", "1"], |_| {});
    guess(&mut open, &format!("{SWORD} / head"), "legs and body");
    assert!(!has_said(&open, "parries the blow"));
    // Another hero parries one location.
    let plain = fight(&rules, "Foe Chief", "Sola", "", &[], |_| {});
    let asked: Vec<_> = plain.pending().into_iter().cloned().collect();
    let guard = asked
        .iter()
        .find(|r| r.player == owner(plain.state(), "Sola"))
        .expect("the defender");
    let Options::One { choices } = &guard.options else {
        panic!("one choice")
    };
    assert!(choices.contains(&Choice::Option("body".into())));
}

#[test]
fn executioner_and_fencer_characteristics_are_set_before_the_battle() {
    // 003 L1348: the Executioner's Sp is 8; L1398: a Fencer with a saber has WS 8 (Borians:
    // Sp 7, WS 7, L891).
    let rules = blades();
    let game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| teach(ctx, "Foe 3", "Executioner"),
        vec![frame("start", &[])],
    );
    let state = game.state();
    assert_eq!(stat(state, "Foe 3", "sp"), 8);
    assert_eq!(stat(state, "Fenn", "ws"), 8);
    assert_eq!(stat(state, "Sola", "ws"), 7);
    assert_eq!(stat(state, "Foe 2", "sp"), 7);
}

#[test]
fn a_swashbuckler_with_two_swords_attacks_again_when_parried() {
    // 003 L1466: two identical one-handed weapons: a second attack if the first is parried
    // (ours: one second attack).
    let rules = blades();
    let mut game = fight(&rules, "Swash", "Foe 2", "", &[], |_| {});
    guess(&mut game, &format!("{SWORD} / body"), "body");
    assert!(has_said(&game, "strikes again"));
    guess(&mut game, &format!("{SWORD} / head"), "head");
    assert!(pending(&game).is_none());
    let mut soldier = fight(&rules, "Sola", "Foe 2", "", &[], |_| {});
    guess(&mut soldier, &format!("{SWORD} / body"), "body");
    assert!(pending(&soldier).is_none());
}

#[test]
fn a_gunsmith_hits_plus_1_with_a_firearm() {
    // 003 L1324: +1 to hit rolls with a firearm. A Pistol at 12 cm, aimed +3: needs 5+; a 4
    // hits for the Gunsmith, misses for a Scoundrel (L510-518, L556-560).
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let shoot = |who: &'static str, target: &'static str| {
        let state = start.state();
        let vars = vec![
            ("player", Value::Player(owner(state, who))),
            ("fighter", id(state, who)),
        ];
        let mut game = run(&rules, "shoot", vars, &["4"], move |ctx| {
            stand(ctx, who, 3500, 2000, (0, 1));
            stand(ctx, target, 3500, 3450, (0, -1));
        });
        if offered(&game).contains(&target.to_owned()) {
            choose(&mut game, target);
        }
        choose(&mut game, "aim +3");
        game
    };
    let gunsmith = shoot("Gun", "Foe 2");
    assert!(has_said(&gunsmith, "hits Foe 2"), "{:?}", said(&gunsmith));
    let scoundrel = shoot("Foe 5", "Sola");
    assert!(
        has_said(&scoundrel, "misses (4, needing 5+)"),
        "{:?}",
        said(&scoundrel)
    );
}

#[test]
fn a_master_gamekeepers_bow_stuns() {
    // 003 L1424: his bows and crossbows have Stun (L1875: a stun roll on any location, 5+).
    // Foe 2 wears no armour, so no location is rolled; 2d6 6 6 + BS 7 against 1 1 + T 7.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let shot = |who: &'static str, target: &'static str| {
        let state = start.state();
        let vars = vec![
            ("player", Value::Player(owner(state, who))),
            ("fighter", id(state, who)),
            ("target", id(state, target)),
            ("weapon", Value::Str("Bow".into())),
            ("count", Value::Int(0)),
            ("data", Value::Str("aimed".into())),
        ];
        run(
            &rules,
            "shot_wound",
            vars,
            &["6", "6", "1", "1", "5"],
            move |ctx| {
                stand(ctx, who, 3500, 2000, (0, 1));
                stand(ctx, target, 3500, 4000, (0, -1));
                give(ctx, target, "action_die");
            },
        )
    };
    let keeper = shot("Keep", "Foe 2");
    assert_eq!(
        tokens(keeper.state(), "Foe 2", "stunned"),
        1,
        "{:?}",
        said(&keeper)
    );
    assert_eq!(tokens(keeper.state(), "Foe 2", "action_die"), 0);
    let marksman = shot("Mark", "Foe 2");
    assert_eq!(tokens(marksman.state(), "Foe 2", "stunned"), 0);
}

// ------------------------------------------------------------------------------------
// Once-a-Cycle calls
// ------------------------------------------------------------------------------------

#[test]
fn the_skalds_song_gives_fury_within_20_cm() {
    // 003 L1342: d6 3+: the Skald and every hero within 20 cm have Fury until the end of the
    // Cycle; Fury is +2 S on a charge (L824-826). Sola's power strike on a charge: 3 + 3 +
    // S 7 + 2 = 15 against 1 + 1 + T 7 = 9.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Skal"))),
        ("fighter", id(state, "Skal")),
        ("data", Value::Str("Battle song".into())),
    ];
    let song = run(&rules, "profession_call", vars, &["4"], |ctx| {
        stand(ctx, "Skal", 3500, 2000, (0, 1));
        stand(ctx, "Sola", 3500, 3500, (0, 1));
        stand(ctx, "Asha", 3500, 5000, (0, 1));
    });
    let state = song.state();
    assert_eq!(counter(state, "Skal", "fury_cycle"), 1);
    assert_eq!(counter(state, "Sola", "fury_cycle"), 1);
    assert_eq!(counter(state, "Asha", "fury_cycle"), 0);
    let mut furious = fight(
        &rules,
        "Sola",
        "Foe 2",
        "charge",
        &["3", "3", "1", "1"],
        |ctx| set(ctx, "Sola", "fury_cycle", 1),
    );
    lands(&mut furious, SWORD, "power");
    assert!(
        has_said(&furious, "power strike: 15 against 9"),
        "{:?}",
        said(&furious)
    );
    let mut calm = fight(
        &rules,
        "Sola",
        "Foe 2",
        "charge",
        &["3", "3", "1", "1"],
        |_| {},
    );
    lands(&mut calm, SWORD, "power");
    assert!(
        has_said(&calm, "power strike: 13 against 9"),
        "{:?}",
        said(&calm)
    );
}

#[test]
fn the_street_judges_cry_doubles_weapon_bonuses_and_re_rolls_armour() {
    // 003 L1412: d6 3+: until the end of the Cycle the Judge re-rolls his Armor Tests, and he
    // and every hero of his party within 10 cm double their weapons' bonuses.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Foe Chief"))),
        ("fighter", id(state, "Foe Chief")),
        ("data", Value::Str("I am the LAW".into())),
    ];
    let cry = run(&rules, "profession_call", vars, &["3"], |ctx| {
        teach(ctx, "Foe Chief", "Street Judge");
        stand(ctx, "Foe Chief", 3500, 2000, (0, 1));
        stand(ctx, "Foe 1", 3500, 2800, (0, 1));
        stand(ctx, "Foe 2", 3500, 3500, (0, 1));
    });
    let state = cry.state();
    assert_eq!(counter(state, "Foe Chief", "judge_cycle"), 1);
    assert_eq!(counter(state, "Foe 1", "judge_cycle"), 1);
    assert_eq!(counter(state, "Foe 2", "judge_cycle"), 0);
    // Doubled: Sword +2. 3 + 7 + 2 = 12 against 8.
    let mut doubled = fight(
        &rules,
        "Foe 1",
        "Sola",
        "",
        &["3", "1", "2", "3", "4"],
        |ctx| set(ctx, "Foe 1", "judge_cycle", 1),
    );
    lands(&mut doubled, SWORD, "normal");
    assert!(
        has_said(&doubled, "normal strike: 12 against 8"),
        "{:?}",
        said(&doubled)
    );
    // The Judge's Chain shirt (6+): 2 2 2 fail, re-rolled 6 1 1: halved, 5 to 3.
    let judge = |cried: i64| {
        let mut game = fight(
            &rules,
            "Sola",
            "Foe Chief",
            "",
            &["5", "1", "2", "2", "2", "6", "1", "1"],
            move |ctx| {
                teach(ctx, "Foe Chief", "Street Judge");
                teach(ctx, "Foe Chief", "Chain shirt");
                set(ctx, "Foe Chief", "judge_cycle", cried);
            },
        );
        lands(&mut game, SWORD, "normal");
        counter(game.state(), "Foe Chief", "damage")
    };
    assert_eq!(judge(1), 3);
    assert_eq!(judge(0), 5);
}

// ------------------------------------------------------------------------------------
// The rest: Guard Sergeant, Charlatan, Wizard Apprentice, Master Gamekeeper's spell,
// Executioner's shots, Axeman, Crafty Merchant
// ------------------------------------------------------------------------------------

#[test]
fn a_guard_sergeant_re_rolls_his_shield_test() {
    // 003 L1336: he may re-roll armor tests for his shield. A Wooden shield saves on 6
    // (L1907-1909): a 2, re-rolled to a 6.
    let rules = blades();
    let mut game = fight(&rules, "Sola", "Serg", "", &["2", "6"], |ctx| {
        teach(ctx, "Serg", "Wooden shield")
    });
    guess(&mut game, &format!("{SWORD} / body"), "legs");
    assert!(
        has_said(&game, "takes the blow on the shield (6)"),
        "{:?}",
        said(&game)
    );
    let mut plain = fight(&rules, "Sola", "Foe 2", "", &["2", "6"], |ctx| {
        teach(ctx, "Foe 2", "Wooden shield")
    });
    guess(&mut plain, &format!("{SWORD} / body"), "legs");
    assert!(
        has_said(&plain, "fails to block with the shield (2)"),
        "{:?}",
        said(&plain)
    );
}

#[test]
fn a_guard_sergeant_passes_a_won_initiative_or_seizes_a_lost_one() {
    // 003 L1336: the party may pass a won Initiative to the opponent; having lost it, the
    // Sergeant may give up his Action Dice and take it on a d6 3+.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let foes = owner(start.state(), "Serg");
    let mut pass = run(
        &rules,
        "sergeant_pass",
        vec![("player", Value::Player(foes))],
        &[],
        |ctx| {
            stand(ctx, "Serg", 3500, 6000, (0, -1));
        },
    );
    choose(&mut pass, "pass it to the opponent");
    assert!(
        has_said(&pass, "passes the initiative"),
        "{:?}",
        said(&pass)
    );
    let blades_seat = owner(start.state(), "Sola");
    let mut seize = run(
        &rules,
        "sergeant_pass",
        vec![("player", Value::Player(blades_seat))],
        &["3"],
        |ctx| {
            stand(ctx, "Serg", 3500, 6000, (0, -1));
            give(ctx, "Serg", "action_die");
        },
    );
    choose(&mut seize, "give up his Action Dice and try");
    assert!(
        has_said(&seize, "seizes the initiative (3)"),
        "{:?}",
        said(&seize)
    );
    // Without a Sergeant on the battlefield nothing is asked.
    let none = run(
        &rules,
        "sergeant_pass",
        vec![("player", Value::Player(blades_seat))],
        &[],
        |_| {},
    );
    assert!(!has_said(&none, "passes the initiative") && !has_said(&none, "seize"));
}

#[test]
fn an_enemy_charlatan_within_20_cm_takes_1_from_magic_tests() {
    // 003 L1392: any enemy Mage within 20 cm of the Charlatan has -1 to Magic Tests. Ally of
    // the nature needs 2+ (L748): a 2 fails next to him.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Foe Mage"))),
        ("fighter", id(state, "Foe Mage")),
    ];
    let cast = |charlatan: bool| {
        let mut game = run(&rules, "cast", vars.clone(), &["2"], move |ctx| {
            stand(ctx, "Foe Mage", 3500, 3000, (0, 1));
            stand(ctx, "Sola", 3500, 4000, (0, -1));
            if charlatan {
                teach(ctx, "Sola", "Charlatan");
            }
        });
        choose(&mut game, "Ally of the nature");
        if pending(&game).is_some() {
            choose(&mut game, "+3");
        }
        game
    };
    assert!(has_said(&cast(true), "fails to cast Ally of the nature"));
    assert!(has_said(&cast(false), "casts Ally of the nature"));
}

#[test]
fn a_wizard_apprentice_lets_the_wizard_re_roll_summon_spawn() {
    // 003 L1418: the Wizard may re-roll tests for summoning Magic Spawns. A 1, then a 6.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Foe Mage"))),
        ("fighter", id(state, "Foe Mage")),
    ];
    let cast = |apprentice: bool| {
        let mut game = run(&rules, "cast", vars.clone(), &["1", "6"], move |ctx| {
            stand(ctx, "Foe Mage", 3500, 3000, (0, 1));
            if apprentice {
                stand(ctx, "Appr", 4500, 3000, (0, 1));
            }
        });
        choose(&mut game, "Summon spawn");
        let mut guard = 0;
        while pending(&game).is_some() && guard < 10 {
            let request = pending(&game).expect("a request");
            let Options::One { choices } = &request.options else {
                panic!("one choice")
            };
            let first = choices[0].clone();
            game.submit(request.player, gloam::core::Answer::One(first))
                .expect("answer");
            guard += 1;
        }
        game
    };
    let helped = cast(true);
    assert!(
        has_said(&helped, "casts Summon spawn"),
        "{:?}",
        said(&helped)
    );
    let alone = cast(false);
    assert!(has_said(&alone, "a Fumble"), "{:?}", said(&alone));
}

#[test]
fn a_master_gamekeeper_doubles_sharpen_senses() {
    // 003 L1424: while a Master Gamekeeper is on the battlefield the bonus of Sharpen senses
    // is doubled (WS +2, L702: +4).
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Foe Mage"))),
        ("fighter", id(state, "Foe Mage")),
    ];
    let cast = |keeper: bool| {
        let mut game = run(&rules, "cast", vars.clone(), &["6"], move |ctx| {
            stand(ctx, "Foe Mage", 3500, 3000, (0, 1));
            teach(ctx, "Foe Mage", "Sharpen senses");
            stand(ctx, "Foe 2", 4500, 3000, (0, 1));
            if keeper {
                teach(ctx, "Foe 2", "Master Gamekeeper");
            }
        });
        choose(&mut game, "Sharpen senses");
        if offered(&game).contains(&"Foe 2".to_owned()) {
            choose(&mut game, "Foe 2");
        }
        choose(&mut game, "WS +2");
        stat(game.state(), "Foe 2", "ws")
    };
    assert_eq!(cast(true), 11);
    assert_eq!(cast(false), 9);
}

#[test]
fn an_executioners_bow_strikes_critically() {
    // 003 L1348: Critical Strikes when shooting a bow or crossbow (ours: each 6 of the wound
    // roll, then d6 5+, as L454-456). 6 6 + BS 7 - 1 (no Action Dice) against 1 1 + T 7.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let shot = |who: &'static str| {
        let state = start.state();
        let vars = vec![
            ("player", Value::Player(owner(state, who))),
            ("fighter", id(state, who)),
            ("target", id(state, "Foe 2")),
            ("weapon", Value::Str("Bow".into())),
            ("count", Value::Int(0)),
            ("data", Value::Str("aimed".into())),
        ];
        run(
            &rules,
            "shot_wound",
            vars,
            &["6", "6", "1", "1", "5", "1"],
            move |ctx| {
                stand(ctx, who, 3500, 2000, (0, 1));
                stand(ctx, "Foe 2", 3500, 4000, (0, -1));
                teach(ctx, who, "Executioner");
            },
        )
    };
    // Mark is taught the Executioner's card for the crit, and compared with a Marksman.
    let executioner = shot("Mark");
    assert!(
        has_said(&executioner, "is shot critically"),
        "{:?}",
        said(&executioner)
    );
    assert_eq!(tokens(executioner.state(), "Foe 2", "death_counter"), 1);
    let marksman = {
        let state = start.state();
        let vars = vec![
            ("player", Value::Player(owner(state, "Mark"))),
            ("fighter", id(state, "Mark")),
            ("target", id(state, "Foe 2")),
            ("weapon", Value::Str("Bow".into())),
            ("count", Value::Int(0)),
            ("data", Value::Str("aimed".into())),
        ];
        run(
            &rules,
            "shot_wound",
            vars,
            &["6", "6", "1", "1", "5", "1"],
            |ctx| {
                stand(ctx, "Mark", 3500, 2000, (0, 1));
                stand(ctx, "Foe 2", 3500, 4000, (0, -1));
            },
        )
    };
    assert_eq!(counter(marksman.state(), "Foe 2", "damage"), 1);
}

#[test]
fn an_axeman_throws_his_axe_for_2_and_moves() {
    // 003 L1404: a one-handed axe has Thrown for the Axeman, Damage 2, and he may move up to
    // his Sp as well. The hit (a 6), then 6 6 + S 7 - 1 against 1 1 + T 7; within 20 cm a
    // shot deals 1 more (L511): 3.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Axel"))),
        ("fighter", id(state, "Axel")),
    ];
    let arrange = |ctx: &mut Ctx<'_>| {
        stand(ctx, "Axel", 3500, 2000, (0, 1));
        stand(ctx, "Thea", 3500, 3450, (0, -1));
    };
    let asked = run(&rules, "activation", vars.clone(), &[], arrange);
    assert!(
        offered(&asked).contains(&"shoot".to_owned()),
        "{:?}",
        offered(&asked)
    );
    let mut game = run(&rules, "shoot", vars, &["6", "6", "6", "1", "1"], arrange);
    if offered(&game).contains(&"Thea".to_owned()) {
        choose(&mut game, "Thea");
    }
    choose(&mut game, "no aiming");
    assert_eq!(
        counter(game.state(), "Thea", "damage"),
        3,
        "{:?}",
        said(&game)
    );
    assert_eq!(counter(game.state(), "Axel", "sp_move"), 1);
    // Another hero's sword is no thrown weapon.
    let other = run(
        &rules,
        "activation",
        vec![
            ("player", Value::Player(owner(state, "Foe 2"))),
            ("fighter", id(state, "Foe 2")),
        ],
        &[],
        |ctx| {
            stand(ctx, "Foe 2", 3500, 2000, (0, 1));
            stand(ctx, "Thea", 3500, 3450, (0, -1));
        },
    );
    assert!(!offered(&other).contains(&"shoot".to_owned()));
}

#[test]
fn a_crafty_merchant_charged_may_give_an_item_and_is_not_attacked() {
    // 003 L1306: charged, the Merchant may give the charger one of his items, and it does not
    // attack.
    let rules = blades();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Sola"))),
        ("fighter", id(state, "Sola")),
        ("target", id(state, "Merc")),
        ("count", Value::Int(0)),
        ("weapon", Value::Str(String::new())),
        ("data", Value::Str("charge".into())),
    ];
    let arrange = |ctx: &mut Ctx<'_>| face_to_face(ctx, "Sola", "Merc");
    let mut bribed = run(&rules, "land", vars.clone(), &[], arrange);
    choose(&mut bribed, "give an item");
    choose(&mut bribed, "Rope");
    assert!(pending(&bribed).is_none(), "{:?}", said(&bribed));
    assert!(carried(bribed.state(), "Sola").contains(&"Rope".to_owned()));
    assert!(!carried(bribed.state(), "Merc").contains(&"Rope".to_owned()));
    let mut kept = run(&rules, "land", vars, &[], arrange);
    choose(&mut kept, "keep them");
    assert_eq!(kept.pending().len(), 2, "the charge's secret guess");
}

// ------------------------------------------------------------------------------------
// The Shaman's Spirit Table (A11.3)
// ------------------------------------------------------------------------------------

/// The Shaman consults the spirits (step `spirits`) with the d6 `dice`, facing Foe 1 and
/// Foe 2 20 cm away; Kin 1 of his party beside him.
fn spirits(dice: &[&str]) -> Game<Scenario> {
    let rules = duel("Test Spirits", "Test Foes");
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Sham"))),
        ("fighter", id(state, "Sham")),
    ];
    run(&rules, "spirits", vars, dice, |ctx| {
        stand(ctx, "Sham", 3500, 2000, (0, 1));
        stand(ctx, "Kin 1", 4000, 2000, (0, 1));
        stand(ctx, "Foe 1", 3000, 4000, (0, -1));
        stand(ctx, "Foe 2", 4000, 4000, (0, -1));
    })
}

#[test]
fn the_spirit_table_six_wounds_two_enemies_and_costs_nothing() {
    // 003 L1368-1370: the Ritual costs 1 W; on a 6 the Shaman regains it and two chosen
    // enemy models lose 1 W each.
    let mut game = spirits(&["6"]);
    choose(&mut game, "Foe 1");
    choose(&mut game, "Foe 2");
    let state = game.state();
    assert_eq!(counter(state, "Foe 1", "damage"), 1);
    assert_eq!(counter(state, "Foe 2", "damage"), 1);
    assert_eq!(counter(state, "Sham", "damage"), 0);
}

#[test]
fn the_spirit_table_one_costs_a_wound_more() {
    // 003 L1368, L1380: 1 W for the Ritual, and on a 1 another.
    let game = spirits(&["1"]);
    assert_eq!(
        counter(game.state(), "Sham", "damage"),
        2,
        "{:?}",
        said(&game)
    );
}

#[test]
fn the_spirit_table_four_and_two_are_chosen_by_the_opponent() {
    // 003 L1374, L1378: the opponent chooses one of his models: on a 4 it loses its Action
    // Dice, on a 2 it loses 2 W.
    let mut doom = spirits(&["4"]);
    let foes = owner(doom.state(), "Foe 1");
    assert_eq!(pending(&doom).expect("a request").player, foes);
    choose(&mut doom, "Foe 2");
    assert!(has_said(&doom, "loses its Action Dice (Doom)"));
    let mut tribute = spirits(&["2"]);
    assert_eq!(pending(&tribute).expect("a request").player, foes);
    choose(&mut tribute, "Foe 1");
    assert_eq!(counter(tribute.state(), "Foe 1", "damage"), 2);
    assert_eq!(counter(tribute.state(), "Sham", "damage"), 1);
}

#[test]
fn the_spirit_table_five_avenges_a_model_of_the_party() {
    // 003 L1372: an enemy damaging the chosen model receives the same damage back.
    let mut game = spirits(&["5"]);
    choose(&mut game, "Kin 1");
    assert_eq!(counter(game.state(), "Kin 1", "mati_puti"), 1);
    let rules = duel("Test Spirits", "Test Foes");
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let hit = |avenged: i64| {
        let vars = vec![
            ("target", id(state, "Kin 1")),
            ("attacker", id(state, "Foe 1")),
            ("count", Value::Int(3)),
            ("data", Value::Str("combat".into())),
        ];
        let game = run(&rules, "wound", vars, &[], move |ctx| {
            face_to_face(ctx, "Foe 1", "Kin 1");
            set(ctx, "Kin 1", "mati_puti", avenged);
        });
        counter(game.state(), "Foe 1", "damage")
    };
    assert_eq!(hit(1), 3);
    assert_eq!(hit(0), 0);
}

#[test]
fn a_shaman_consults_the_spirits_instead_of_casting() {
    // 003 L1368: no Domain of Magic; the Ritual is his casting, a Basic Action.
    let rules = duel("Test Spirits", "Test Foes");
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Sham"))),
        ("fighter", id(state, "Sham")),
    ];
    let game = run(&rules, "activation", vars, &[], |ctx| {
        stand(ctx, "Sham", 3500, 2000, (0, 1))
    });
    assert!(offered(&game).contains(&"consult the spirits".to_owned()));
    assert!(!offered(&game).contains(&"cast".to_owned()));
}

// ------------------------------------------------------------------------------------
// Terrain (Brigand, Tracker, Ranger)
// ------------------------------------------------------------------------------------

#[test]
fn terrain_gives_the_brigand_1_damage_the_tracker_an_unparried_charge_and_the_ranger_a_counter_attack()
 {
    // 003 L1318: a Brigand fighting an enemy in terrain inflicts 1 more damage; L1314: a
    // Tracker charging an enemy within terrain cannot be parried; L1354: a Ranger within a
    // terrain piece counter-attacks with any close-combat weapon (L1747). The Grove West
    // (`cover`, `obscuring`) stands under the one in terrain.
    let rules = blades();
    let grove = |ctx: &mut Ctx<'_>| stand(ctx, "Grove West", 3500, 3250, (0, 1));
    let mut brigand = fight(&rules, "Brig", "Foe 2", "", &["3", "1"], grove);
    lands(&mut brigand, SWORD, "normal");
    assert_eq!(counter(brigand.state(), "Foe 2", "damage"), 4);
    let mut open = fight(&rules, "Brig", "Foe 2", "", &["3", "1"], |_| {});
    lands(&mut open, SWORD, "normal");
    assert_eq!(counter(open.state(), "Foe 2", "damage"), 3);
    let tracker = fight(&rules, "Trak", "Foe 2", "charge", &[], grove);
    assert_eq!(tracker.pending().len(), 1);
    // The Ranger charged in the grove is asked whether he strikes first; in the open not.
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let state = start.state();
    let vars = vec![
        ("player", Value::Player(owner(state, "Foe 2"))),
        ("fighter", id(state, "Foe 2")),
        ("target", id(state, "Rang")),
        ("count", Value::Int(0)),
        ("weapon", Value::Str(String::new())),
        ("data", Value::Str("charge".into())),
    ];
    let charged = |in_grove: bool| {
        run(&rules, "land", vars.clone(), &[], move |ctx| {
            face_to_face(ctx, "Foe 2", "Rang");
            give(ctx, "Rang", "action_die");
            if in_grove {
                stand(ctx, "Grove West", 3500, 3250, (0, 1));
            }
        })
    };
    let ranger = charged(true);
    assert!(
        offered(&ranger).contains(&"strike first".to_owned()),
        "{:?}",
        offered(&ranger)
    );
    let plain = charged(false);
    assert_eq!(plain.pending().len(), 2);
}
