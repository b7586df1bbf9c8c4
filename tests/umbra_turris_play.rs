//! Umbra Turris played from the data in cards/umbra_turris (seed 003, digest part A): the
//! driver seats the two shipped parties on the table (issue 14, item 1), and each scenario
//! below arranges heroes on the table through the kernel's `Ctx` (loaded dice with
//! `fix_dice`), runs one step of the flow and answers its requests. Each test cites the seed
//! lines of the rule it plays.

use gloam::core::{
    Answer, Choice, Ctx, Event, Frame, Game, GameState, PieceId, PlayerId, Point, Position,
    Request, Scope, Value, ZoneId,
};
use gloam::engine::RulesetGame;
use gloam::sim::check_invariants;

mod scenario;
use scenario::stand;
use scenario::{
    Scenario, answer, frame, give, has_said, option, options, pending, piece,
    piece_counter as counter, scenario, shipped, tokens,
};

const ANN: PlayerId = PlayerId(0);
const BO: PlayerId = PlayerId(1);

fn rules() -> RulesetGame {
    shipped("umbra_turris")
}

/// Stands `a` facing north and `b` facing south, their 25 mm bases touching.
fn face_to_face(ctx: &mut Ctx<'_>, a: &str, b: &str) {
    stand(ctx, a, 3500, 3000, (0, 1));
    stand(ctx, b, 3500, 3250, (0, -1));
}

fn id(state: &GameState, kind: &str) -> Value {
    Value::Piece(piece(state, kind))
}

/// The names of the cards on a hero, in order.
fn carried(state: &GameState, kind: &str) -> Vec<String> {
    let id = piece(state, kind);
    let zone = ZoneId::on_piece(state.pieces[&id].owner, "equipped", id);
    state
        .zone_cards(&zone)
        .iter()
        .map(|card| state.cards[card].name.clone())
        .collect()
}

/// Moves the card `name` off `kind` (to its owner's `destroyed` zone).
fn strip(ctx: &mut Ctx<'_>, kind: &str, name: &str) {
    let id = piece(ctx.state(), kind);
    let owner = ctx.state().pieces[&id].owner;
    let zone = ZoneId::on_piece(owner, "equipped", id);
    let card = *ctx
        .state()
        .zone_cards(&zone)
        .iter()
        .find(|card| ctx.state().cards[*card].name == name)
        .expect("the card");
    ctx.move_card(card, &ZoneId::new(owner, "destroyed"), 0)
        .expect("moved");
}

/// `who` answers the named option.
fn pick(game: &mut Game<Scenario>, who: PlayerId, text: &str) {
    answer(game, who, option(text));
}

fn request<R: gloam::core::Rules>(game: &Game<R>) -> Request {
    pending(game).expect("a request")
}

/// A close-combat exchange: `attacker` attacks `defender`, in base contact (the attacker to
/// the south, facing north), with the faces `dice` loaded; not a charge.
fn fight(
    attacker: &'static str,
    defender: &'static str,
    dice: &'static [&'static str],
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
) -> Game<Scenario> {
    let rules = rules();
    let game = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let (a, d) = (id(game.state(), attacker), id(game.state(), defender));
    let owner = game.state().pieces[&piece(game.state(), attacker)].owner;
    scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            face_to_face(ctx, attacker, defender);
            arrange(ctx);
            ctx.fix_dice("d6", dice);
        },
        vec![frame(
            "fight",
            &[
                ("player", Value::Player(owner)),
                ("fighter", a.clone()),
                ("target", d.clone()),
                ("data", Value::Str(String::new())),
            ],
        )],
    )
}

/// Both players answer the secret guess: the attacker strikes `blow` (`weapon / location`),
/// the defender parries `guard`.
fn guess(game: &mut Game<Scenario>, blow: &str, guard: &str) {
    let asked: Vec<PlayerId> = game.pending().iter().map(|r| r.player).collect();
    assert_eq!(asked.len(), 2, "a secret guess asks both players");
    pick(game, asked[0], blow);
    pick(game, asked[1], guard);
}

#[test]
fn each_hero_of_a_party_is_seated_as_a_piece_with_its_race_profession_and_equipment() {
    // Item 1 of issue 14: the default match seats the two shipped parties.
    let rules = rules();
    let brings: Vec<&str> = rules.spec().seats.iter().map(|s| s.brings()).collect();
    assert_eq!(brings, ["The Lantern Wardens", "The Ashen Court"]);
    let game = Game::start(rules.clone(), rules.setup(1), vec![]).expect("start");
    let state = game.state();
    // Heroes only: the Cleric's Summon Cherub also brings its Cherubs off the table,
    // summoned models that are no heroes (003 L620; tests/umbra_turris_spells.rs), and the
    // terrain pieces set up in play are pieces of the `terrain` layer.
    let owned = |p: PlayerId| {
        state
            .pieces
            .values()
            .filter(|x| x.owner == p && !x.keywords.contains("summoned") && x.layer != "terrain")
            .count()
    };
    assert_eq!((owned(ANN), owned(BO)), (9, 7));
    let aldwin = &state.pieces[&piece(state, "Sir Aldwin")];
    // Humans' row (003 L891); a 25 mm base (the `base` constant), a Half-giant's 40 mm.
    for (name, value) in [("ld", 7), ("m", 1500), ("ws", 7), ("wounds", 7)] {
        assert_eq!(aldwin.characteristics[name], value, "{name}");
    }
    assert_eq!(aldwin.characteristics["base_radius"], 125);
    let gorm = &state.pieces[&piece(state, "Gorm")];
    assert_eq!(gorm.characteristics["base_radius"], 200);
    // Each hero is a unit of its own and carries its worth in DC (race + profession +
    // Leader + equipment: 55 + 45 + 5 + 11 + 12 + 9).
    assert_ne!(aldwin.characteristics["unit"], gorm.characteristics["unit"]);
    assert_eq!(aldwin.characteristics["cost"], 137);
    // Keywords of the profession and the Leader add-on (003 L1129, L1296).
    assert!(aldwin.keywords.contains("heroism") && aldwin.keywords.contains("fearless"));
    assert_eq!(
        carried(state, "Sir Aldwin"),
        [
            "Humans",
            "Borians",
            "Paladin",
            "Leader",
            "Sword, short sword",
            "Steel shield",
            "Heavy helmet"
        ]
    );
    // A caster's spells: the Cleric's Light domain (003 L706-716).
    let pip = carried(state, "Pip Thistlewood");
    assert!(
        pip.ends_with(&[
            "Heal".into(),
            "Aura of life".into(),
            "Summon Cherub".into(),
            "Cherub".into()
        ]),
        "{pip:?}"
    );
    check_invariants(state).expect("invariants");
}

#[test]
fn the_side_is_chosen_by_the_loser_of_the_terrain_roll_off_and_heroism_adds_a_wound() {
    // 003 L1993, L2001: the opponent of the player who drew the terrain chooses the side
    // and deploys first; Heroism +1 W (L828-830).
    let rules = rules();
    let mut game =
        Game::start(rules.clone(), rules.setup(3), RulesetGame::first_frames()).expect("start");
    // The terrain comes first (tests/umbra_turris_terrain.rs): its winner takes the first
    // card, adds no piece, and the Loot tokens go on the first places offered.
    let drawer = request(&game).player;
    loop {
        let asked = request(&game);
        if options(&asked) == ["South", "North"] {
            break;
        }
        let first = match &asked.options {
            gloam::core::Options::One { choices } => choices[0].clone(),
            other => panic!("{other:?}"),
        };
        let choice = if options(&asked).contains(&"no extra piece".to_owned()) {
            option("no extra piece")
        } else {
            first
        };
        game.submit(asked.player, Answer::One(choice))
            .expect("terrain");
    }
    let asked = request(&game);
    assert_ne!(asked.player, drawer);
    assert_eq!(options(&asked), ["South", "North"]);
    let state = game.state();
    let aldwin = piece(state, "Sir Aldwin");
    assert_eq!(state.characteristic(aldwin, "wounds"), Some(8));
    let brannoc = piece(state, "Brannoc");
    assert_eq!(state.characteristic(brannoc, "wounds"), Some(7));
    let chooser = asked.player;
    game.submit(chooser, Answer::One(option("North")))
        .expect("side");
    // The chooser deploys first, in the North strip (y from 60 to 70 cm); a party with a
    // Ranger is first asked which hero deploys further forward (003 L1354): none.
    let mut next = pending(&game).expect("deploy");
    if options(&next).first().map(String::as_str) == Some("none") {
        game.submit(chooser, Answer::One(option("none")))
            .expect("ranger");
        next = pending(&game).expect("deploy");
    }
    assert_eq!(next.player, chooser);
    let Some(Choice::Point(at)) = (match &next.options {
        gloam::core::Options::One { choices } => choices.first().cloned(),
        _ => None,
    }) else {
        panic!("a set-up point")
    };
    assert!(at.y >= 6000 + 125, "{at:?}");
}

#[test]
fn the_hidden_guess_is_resolved_only_after_both_commit_and_a_matching_parry_ends_the_attack() {
    // 003 L378-396: both pick in secret; neither sees the other's pick until both are in;
    // the same location is parried.
    let mut game = fight("Hedda", "Grizzle", &[], |_| {});
    let asked: Vec<Request> = game.pending().into_iter().cloned().collect();
    assert_eq!(asked.len(), 2);
    assert!(asked.iter().all(|r| r.secret));
    assert_eq!((asked[0].player, asked[1].player), (ANN, BO));
    assert_eq!(options(&asked[1]), ["legs", "body", "head"]);
    assert!(options(&asked[0]).contains(&"Halberd / head".to_owned()));
    pick(&mut game, ANN, "Halberd / head");
    // Committed, not revealed: Bo's view holds no answer, his events only that Ann chose.
    let view = game.view(BO);
    assert!(view.request.is_some());
    let json = serde_json::to_string(&view).expect("json");
    assert!(!json.contains("Halberd / head"), "{json}");
    let seen = game.events_for(BO);
    assert!(matches!(seen.last(), Some(Event::DecidedHidden { player, .. }) if *player == ANN));
    assert!(
        !serde_json::to_string(&seen)
            .expect("json")
            .contains("Halberd / head")
    );
    assert!(!has_said(&game, "strikes at"));
    // Ann cannot answer twice, and nothing changes when she tries.
    assert!(
        game.submit(ANN, Answer::One(option("Halberd / legs")))
            .is_err()
    );
    pick(&mut game, BO, "head");
    assert!(
        game.events()
            .iter()
            .any(|e| matches!(e, Event::Revealed { answers } if answers.len() == 2))
    );
    assert!(has_said(&game, "parries the blow"));
    assert_eq!(counter(game.state(), "Grizzle", "damage"), 0);
    assert!(pending(&game).is_none());
}

#[test]
fn a_normal_strike_that_gets_through_deals_the_difference() {
    // 003 L404-406: d6 + WS + the weapon's Normal bonus against d6 + WS.
    // Hedda (WS 7, Halberd: no Normal bonus): 4 + 7 = 11 against Grizzle's 2 + 6 = 8.
    let mut game = fight("Hedda", "Grizzle", &["4", "2"], |_| {});
    guess(&mut game, "Halberd / body", "head");
    let asked = request(&game);
    assert_eq!(asked.player, ANN);
    assert_eq!(options(&asked), ["normal", "power", "precision"]);
    pick(&mut game, ANN, "normal");
    assert!(has_said(&game, "normal strike: 11 against 8"));
    assert_eq!(counter(game.state(), "Grizzle", "damage"), 3);
}

#[test]
fn a_perfect_strike_adds_a_die_and_a_tie_fails() {
    // 003 L406: a natural 6 adds another d6; the defender wins ties.
    let mut game = fight("Hedda", "Grizzle", &["6", "1", "6"], |_| {});
    guess(&mut game, "Halberd / legs", "body");
    pick(&mut game, ANN, "normal");
    assert!(has_said(&game, "Perfect Strike"));
    assert_eq!(counter(game.state(), "Grizzle", "damage"), 2);
    let mut tie = fight("Hedda", "Grizzle", &["1", "2"], |_| {});
    guess(&mut tie, "Halberd / legs", "body");
    pick(&mut tie, ANN, "normal");
    assert!(has_said(&tie, "fails to wound"));
    assert_eq!(counter(tie.state(), "Grizzle", "damage"), 0);
}

#[test]
fn a_power_strike_that_empties_the_wounds_leaves_a_death_counter() {
    // 003 L408-410, L472-476: 2d6 + S + the Power bonus (Halberd +2) against 2d6 + T; at
    // 0 W the hero takes a Death Counter and loses its Action Dice.
    // Grizzle, a City Goblin, then rolls a 1 for Vitality (L1011-1015).
    let mut game = fight("Hedda", "Grizzle", &["3", "3", "2", "2", "1"], |ctx| {
        give(ctx, "Grizzle", "action_die");
    });
    guess(&mut game, "Halberd / body", "legs");
    pick(&mut game, ANN, "power");
    assert!(has_said(&game, "power strike: 15 against 10"));
    let state = game.state();
    assert_eq!(counter(state, "Grizzle", "damage"), 5);
    assert_eq!(tokens(state, "Grizzle", "death_counter"), 1);
    assert_eq!(tokens(state, "Grizzle", "action_die"), 0);
}

#[test]
fn a_precision_strike_deals_two_and_a_six_may_crit() {
    // 003 L412-418, L452-456: damage 2; each 6 rolls a d6, 5+ takes all remaining Wounds.
    let mut plain = fight("Hedda", "Grizzle", &["5", "5", "1", "1"], |_| {});
    guess(&mut plain, "Halberd / body", "legs");
    pick(&mut plain, ANN, "precision");
    assert_eq!(counter(plain.state(), "Grizzle", "damage"), 2);
    // Then a 1 for Grizzle's Vitality (City Goblins, L1011-1015).
    let mut crit = fight("Hedda", "Grizzle", &["6", "5", "1", "1", "5", "1"], |_| {});
    guess(&mut crit, "Halberd / body", "legs");
    pick(&mut crit, ANN, "precision");
    assert!(has_said(&crit, "strikes critically"));
    assert_eq!(counter(crit.state(), "Grizzle", "damage"), 5);
    assert_eq!(tokens(crit.state(), "Grizzle", "death_counter"), 1);
}

#[test]
fn an_unarmed_hero_strikes_for_one_and_cannot_parry_a_weapon() {
    // 003 L422-428: WS against WS, always 1 damage; an unarmed hero cannot parry strikes
    // made with a weapon, so the armed attacker chooses openly (L396, L424).
    let mut game = fight("Hedda", "Grizzle", &["5", "1"], |ctx| {
        strip(ctx, "Hedda", "Halberd");
    });
    guess(&mut game, "Unarmed / body", "legs");
    assert!(has_said(&game, "unarmed strike: 12 against 7"));
    assert_eq!(counter(game.state(), "Grizzle", "damage"), 1);
    // The third die is Grizzle's Vitality roll at 0 W (City Goblins, L1011-1017): a 1 fails.
    let mut open = fight("Hedda", "Grizzle", &["5", "1", "1"], |ctx| {
        strip(ctx, "Grizzle", "Sword, short sword");
    });
    let asked = request(&open);
    assert!(!asked.secret);
    assert_eq!(open.pending().len(), 1);
    pick(&mut open, ANN, "Halberd / body");
    pick(&mut open, ANN, "normal");
    assert_eq!(counter(open.state(), "Grizzle", "damage"), 5);
}

#[test]
fn fear_on_a_charge_takes_the_parry_away() {
    // 003 L802: a charged enemy cannot parry a Fear model's strikes (Morwick, Black Knight).
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let (morwick, hedda) = (
        id(start.state(), "Morwick the Grey"),
        id(start.state(), "Hedda"),
    );
    let mut game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| face_to_face(ctx, "Hedda", "Morwick the Grey"),
        vec![frame(
            "fight",
            &[
                ("player", Value::Player(BO)),
                ("fighter", morwick),
                ("target", hedda),
                ("data", Value::Str("charge".into())),
            ],
        )],
    );
    let asked = request(&game);
    assert_eq!(game.pending().len(), 1);
    assert!(!asked.secret);
    assert_eq!(asked.player, BO);
    assert!(options(&asked).contains(&"Bastard sword / head".to_owned()));
    pick(&mut game, BO, "Bastard sword / head");
    assert_eq!(request(&game).player, BO);
}

#[test]
fn armour_halves_the_damage_and_a_double_one_destroys_it() {
    // 003 L1899-1905: 3d6, any die reaching the save (Breastplate 5+) halves the damage,
    // rounding up; a double 1 destroys the piece even so. Grizzle (Sword, Normal +1):
    // 6 (a Perfect Strike, +1) + WS 6 + 1 = 14 against 1 + WS 7 = 8, 6 damage halved to 3.
    let mut game = fight(
        "Grizzle",
        "Brannoc",
        &["6", "1", "1", "5", "1", "1"],
        |_| {},
    );
    guess(&mut game, "Sword, short sword / body", "legs");
    pick(&mut game, BO, "normal");
    assert!(has_said(&game, "armour halves the damage"));
    assert!(has_said(&game, "has its Breastplate destroyed"));
    let state = game.state();
    assert!(!carried(state, "Brannoc").contains(&"Breastplate".to_owned()));
    let destroyed = state.zone_cards(&ZoneId::new(ANN, "destroyed"));
    assert_eq!(destroyed.len(), 1);
    assert_eq!(counter(state, "Brannoc", "damage"), 3);
}

#[test]
fn a_head_hit_without_a_helmet_stuns_on_five() {
    // 003 L446-450: a Normal or Power Strike to the head, d6 5+: the Action Dice is lost.
    let mut game = fight("Hedda", "Grizzle", &["3", "2", "5"], |ctx| {
        give(ctx, "Grizzle", "action_die");
    });
    guess(&mut game, "Halberd / head", "body");
    pick(&mut game, ANN, "normal");
    let state = game.state();
    assert_eq!(tokens(state, "Grizzle", "stunned"), 1);
    assert_eq!(tokens(state, "Grizzle", "action_die"), 0);
}

#[test]
fn a_shield_absorbs_the_blow_on_its_save() {
    // 003 L1907-1909: without an Action Dice, 1d6 against the shield (steel 5+).
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let (grizzle, aldwin) = (
        id(start.state(), "Grizzle"),
        id(start.state(), "Sir Aldwin"),
    );
    let mut game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| {
            face_to_face(ctx, "Sir Aldwin", "Grizzle");
            ctx.fix_dice("d6", &["5"]);
        },
        vec![frame(
            "fight",
            &[
                ("player", Value::Player(BO)),
                ("fighter", grizzle),
                ("target", aldwin),
                ("data", Value::Str(String::new())),
            ],
        )],
    );
    pick(&mut game, BO, "Sword, short sword / legs");
    pick(&mut game, ANN, "head");
    assert!(has_said(&game, "takes the blow on the shield"));
    assert!(pending(&game).is_none());
}

/// A shooting scenario: Tobble (Ann's, Bow) shoots at `target`, 25 cm north of him.
fn shot(target: &'static str, dice: &'static [&'static str]) -> Game<Scenario> {
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let tobble = id(start.state(), "Tobble");
    scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, "Tobble", 3500, 1000, (0, 1));
            stand(ctx, target, 3500, 1000 + 250 + 2500, (0, -1));
            give(ctx, target, "action_die");
            ctx.fix_dice("d6", dice);
        },
        vec![frame(
            "shoot",
            &[("player", Value::Player(ANN)), ("fighter", tobble)],
        )],
    )
}

#[test]
fn a_shot_hits_on_the_range_difficulty_and_wounds_bs_against_t() {
    // 003 L508-518: 25 cm is hit on 2+; L524-536, L578-580: 2d6 + BS 8 + 1 (a static
    // target) against 2d6 + T; damage the Bow's 1.
    // Tobble is a Gnome: his Innate power's d6 comes first (L1097), a 1 that fails.
    let mut game = shot("Ugluk", &["1", "4", "6", "6", "1", "1"]);
    let asked = request(&game);
    assert_eq!(options(&asked).len(), 1, "Ugluk is the only visible enemy");
    {
        let chosen = piece(game.state(), "Ugluk");
        answer(&mut game, ANN, Choice::Piece(chosen));
    }
    assert_eq!(options(&request(&game))[0], "no aiming");
    pick(&mut game, ANN, "no aiming");
    assert!(has_said(&game, "needing 2+"));
    assert!(has_said(&game, "the shot wounds (21 against 10)"));
    assert_eq!(counter(game.state(), "Ugluk", "damage"), 1);
}

#[test]
fn aiming_raises_the_difficulty_and_a_natural_one_always_misses() {
    // 003 L556-560: aiming +2 needs 4+ at 25 cm; L518: a 1 misses whatever the range.
    // Tobble's Innate power (a Gnome, L1097) fails first, on a 1.
    let mut game = shot("Ugluk", &["1", "3"]);
    {
        let chosen = piece(game.state(), "Ugluk");
        answer(&mut game, ANN, Choice::Piece(chosen));
    }
    pick(&mut game, ANN, "aim +2");
    assert!(has_said(&game, "misses (3, needing 4+)"));
    let mut one = shot("Ugluk", &["1", "1"]);
    {
        let chosen = piece(one.state(), "Ugluk");
        answer(&mut one, ANN, Choice::Piece(chosen));
    }
    pick(&mut one, ANN, "no aiming");
    assert!(has_said(&one, "misses (1, needing 2+)"));
}

#[test]
fn a_shot_beyond_the_weapons_range_is_lost() {
    // 003 L506: declared without measuring; Snikk's Sling reaches 20 cm (L1791).
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let snikk = id(start.state(), "Snikk");
    let mut game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| {
            stand(ctx, "Snikk", 3500, 4000, (0, -1));
            stand(ctx, "Hedda", 3500, 4000 - 250 - 2500, (0, 1));
        },
        vec![frame(
            "shoot",
            &[("player", Value::Player(BO)), ("fighter", snikk)],
        )],
    );
    {
        let chosen = piece(game.state(), "Hedda");
        answer(&mut game, BO, Choice::Piece(chosen));
    }
    assert!(has_said(&game, "out of range: the shot is lost"));
    assert_eq!(counter(game.state(), "Hedda", "damage"), 0);
}

/// Pip (Ann's Cleric, Light domain) casts, with Hedda wounded 2 beside him.
fn cast(dice: &'static [&'static str]) -> Game<Scenario> {
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let pip = id(start.state(), "Pip Thistlewood");
    scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            stand(ctx, "Pip Thistlewood", 3500, 1000, (0, 1));
            stand(ctx, "Hedda", 3500, 1600, (0, 1));
            let hedda = piece(ctx.state(), "Hedda");
            ctx.set_counter(Scope::Piece(hedda), "damage", 2)
                .expect("hurt");
            ctx.fix_dice("d6", dice);
        },
        vec![frame(
            "cast",
            &[("player", Value::Player(ANN)), ("fighter", pip)],
        )],
    )
}

#[test]
fn casting_heal_costs_a_wound_and_heals_two() {
    // 003 L604-608: pay 1 W, then d6 against the chance (Heal 3+, L708: 2 W back).
    let mut game = cast(&["4"]);
    let asked = request(&game);
    // Heal is the first of the Cleric's spells (003 L708).
    assert_eq!(asked.kind, "choose_card");
    let heal = match &asked.options {
        gloam::core::Options::One { choices } => choices[0].clone(),
        _ => panic!("cards"),
    };
    answer(&mut game, ANN, heal);
    {
        let chosen = piece(game.state(), "Hedda");
        answer(&mut game, ANN, Choice::Piece(chosen));
    }
    let state = game.state();
    assert_eq!(counter(state, "Pip Thistlewood", "damage"), 1);
    assert_eq!(counter(state, "Hedda", "damage"), 0);
    assert_eq!(counter(state, "Pip Thistlewood", "sp_move"), 1);
}

#[test]
fn a_fumble_fails_the_spell_and_costs_another_wound() {
    // 003 L608: a 1 is a Fumble: the spell fails and the Mage loses another Wound.
    let mut game = cast(&["1"]);
    let heal = match &request(&game).options {
        gloam::core::Options::One { choices } => choices[0].clone(),
        _ => panic!("cards"),
    };
    answer(&mut game, ANN, heal);
    {
        let chosen = piece(game.state(), "Hedda");
        answer(&mut game, ANN, Choice::Piece(chosen));
    }
    assert!(has_said(&game, "a Fumble"));
    let state = game.state();
    assert_eq!(counter(state, "Pip Thistlewood", "damage"), 2);
    assert_eq!(counter(state, "Hedda", "damage"), 2);
}

#[test]
fn the_leader_falling_forces_a_panic_test_that_can_lose_the_game() {
    // 003 L788-792: 2d6 against the Leader's LD (Sir Aldwin, a Human: LD 7); a failure hands
    // the opponent the game. (The Ashen Court's Leader, Morwick, is a Black Knight: removed
    // from play as he falls, L1185, his party tests against its highest LD instead, L792;
    // tests/umbra_turris_professions_a.rs.)
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let aldwin = id(start.state(), "Sir Aldwin");
    let game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| {
            stand(ctx, "Sir Aldwin", 3500, 3000, (0, 1));
            stand(ctx, "Hedda", 4500, 3000, (0, 1));
            ctx.fix_dice("d6", &["1", "2"]);
        },
        vec![frame(
            "wound",
            &[
                ("target", aldwin),
                ("count", Value::Int(20)),
                ("data", Value::Str("combat".into())),
            ],
        )],
    );
    assert!(
        has_said(&game, "fails a Panic test (3 against LD 7)"),
        "{:?}",
        scenario::said(&game)
    );
    let result = game.state().result.clone().expect("over");
    assert_eq!(result.winners, [BO]);
}

#[test]
fn frenzy_shrugs_off_a_single_combat_wound() {
    // 003 L812-814: a combat loss of exactly 1 Wound is cancelled.
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let hedda = id(start.state(), "Hedda");
    let game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| {
            stand(ctx, "Hedda", 3500, 3000, (0, 1));
            let id = piece(ctx.state(), "Hedda");
            ctx.set_keyword(id, "frenzy", true).expect("frenzy");
        },
        vec![
            frame(
                "wound",
                &[
                    ("target", hedda.clone()),
                    ("count", Value::Int(1)),
                    ("data", Value::Str("combat".into())),
                ],
            ),
            frame(
                "wound",
                &[
                    ("target", hedda),
                    ("count", Value::Int(1)),
                    ("data", Value::Str("shot".into())),
                ],
            ),
        ],
    );
    assert!(has_said(&game, "Frenzy"));
    assert_eq!(counter(game.state(), "Hedda", "damage"), 1);
}

#[test]
fn an_order_gives_a_spent_hero_its_action_dice_back() {
    // 003 L768-776: the Leader orders a hero within 20 cm without an Action Dice; 4+.
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let aldwin = id(start.state(), "Sir Aldwin");
    let mut game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| {
            stand(ctx, "Sir Aldwin", 3500, 1000, (0, 1));
            stand(ctx, "Brannoc", 3500, 2000, (0, 1));
            ctx.set_counter(Scope::Player(ANN), "orders", 3)
                .expect("orders");
            ctx.fix_dice("d6", &["4"]);
        },
        vec![frame(
            "order",
            &[("player", Value::Player(ANN)), ("fighter", aldwin)],
        )],
    );
    if let Some(asked) = pending(&game) {
        assert_eq!(asked.kind, "choose_fighter");
        let brannoc = piece(game.state(), "Brannoc");
        answer(&mut game, ANN, Choice::Piece(brannoc));
    }
    let state = game.state();
    assert_eq!(tokens(state, "Brannoc", "action_die"), 1);
    assert_eq!(state.players[0].counters["orders"], 2);
}

#[test]
fn eliminating_three_quarters_of_the_enemys_worth_wins() {
    // 003 L2028: 75% of the opponent's DC eliminated.
    let rules = rules();
    let game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| {
            let worth: i64 = ctx
                .state()
                .pieces
                .values()
                .filter(|p| p.owner == BO)
                .map(|p| p.characteristics["cost"])
                .sum();
            ctx.set_counter(Scope::Player(BO), "start_dc", worth)
                .expect("worth");
            let mut fallen = 0;
            let ids: Vec<(PieceId, i64)> = ctx
                .state()
                .pieces
                .values()
                .filter(|p| p.owner == BO)
                .map(|p| (p.id, p.characteristics["cost"]))
                .collect();
            for (id, cost) in ids {
                if fallen * 4 >= worth * 3 {
                    break;
                }
                ctx.set_tokens(Scope::Piece(id), "death_counter", 1)
                    .expect("fallen");
                fallen += cost;
            }
        },
        vec![Frame::new("victory")],
    );
    let result = game.state().result.clone().expect("over");
    assert_eq!(result.winners, [ANN]);
}

/// A disengage test (003 L436-442) for Hedda, in base contact with Morwick the Grey, with the
/// faces `dice` loaded (Hedda's 2d6 first, then Morwick's); then Hedda's activation.
fn disengage(dice: &'static [&'static str]) -> Game<Scenario> {
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let hedda = id(start.state(), "Hedda");
    scenario(
        &rules,
        move |ctx: &mut Ctx<'_>| {
            face_to_face(ctx, "Hedda", "Morwick the Grey");
            ctx.fix_dice("d6", dice);
        },
        vec![
            frame(
                "disengage",
                &[("player", Value::Player(ANN)), ("fighter", hedda.clone())],
            ),
            frame(
                "activation",
                &[("player", Value::Player(ANN)), ("fighter", hedda.clone())],
            ),
        ],
    )
}

#[test]
fn a_hero_that_disengages_may_not_charge_the_enemy_it_left() {
    // 003 L436-440: 2d6 + Sp against the enemy's 2d6 + S; the hero is placed 1 cm away and
    // "cannot charge the model or models he just disengaged from".
    let game = disengage(&["6", "6", "1", "1"]);
    let state = game.state();
    assert!(has_said(&game, "disengages"), "{:?}", scenario::said(&game));
    assert_eq!(counter(state, "Hedda", "disengaged"), 1);
    assert_eq!(tokens(state, "Morwick the Grey", "left_behind"), 1);
    let offered = options(&request(&game));
    assert!(offered.contains(&"move".to_owned()), "{offered:?}");
    assert!(!offered.contains(&"charge".to_owned()), "{offered:?}");

    // Failing the test, the hero stays in combat (L444) and nothing is marked.
    let game = disengage(&["1", "1", "6", "6"]);
    let state = game.state();
    assert!(has_said(&game, "fails to disengage"));
    assert_eq!(tokens(state, "Morwick the Grey", "left_behind"), 0);
}

#[test]
fn the_ban_on_charging_lasts_only_for_the_turn_of_the_hero_that_disengaged() {
    // 003 L440: the ban is the disengaging hero's, in its turn: when the next hero activates
    // (step `turn`), the enemy it left is unmarked.
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let hedda = id(start.state(), "Hedda");
    let game = scenario(
        &rules,
        |ctx: &mut Ctx<'_>| {
            face_to_face(ctx, "Hedda", "Morwick the Grey");
            give(ctx, "Morwick the Grey", "action_die");
            ctx.fix_dice("d6", &["6", "6", "1", "1"]);
        },
        vec![
            frame(
                "disengage",
                &[("player", Value::Player(ANN)), ("fighter", hedda)],
            ),
            frame("turn", &[("player", Value::Player(BO))]),
        ],
    );
    assert!(has_said(&game, "disengages"));
    assert!(has_said(&game, "activates"));
    assert_eq!(tokens(game.state(), "Morwick the Grey", "left_behind"), 0);
}

#[test]
fn after_a_move_the_hero_may_turn_to_face_any_direction() {
    // 003 L292: "before or after performing Move ... a model can turn to face any
    // direction", once a Turn. After its Move the player chooses which way the hero faces.
    let rules = rules();
    let start = Game::start(rules.clone(), rules.setup(7), vec![]).expect("start");
    let hedda = id(start.state(), "Hedda");
    for (way, expect) in [
        ("west", (-1, 0)),
        ("south-east", (1, -1)),
        ("the nearest enemy", (0, 1)),
    ] {
        let mut game = scenario(
            &rules,
            |ctx: &mut Ctx<'_>| {
                stand(ctx, "Hedda", 3500, 1500, (0, 1));
                stand(ctx, "Morwick the Grey", 3500, 6000, (0, -1));
            },
            vec![frame(
                "move",
                &[
                    ("player", Value::Player(ANN)),
                    ("fighter", hedda.clone()),
                    ("data", Value::Str(String::new())),
                ],
            )],
        );
        // The move: an offset of 0, 0 (a point the host may send; it is checked).
        assert_eq!(request(&game).player, ANN);
        answer(&mut game, ANN, Choice::Point(Point::new(0, 0)));
        let offered = options(&request(&game));
        assert_eq!(offered[0], "the nearest enemy", "{offered:?}");
        assert!(offered.contains(&"as it stands".to_owned()));
        pick(&mut game, ANN, way);
        let state = game.state();
        let Some(Position::Table { facing, .. }) = state.pieces[&piece(state, "Hedda")].position
        else {
            panic!("Hedda is on the table");
        };
        assert_eq!(
            (facing.0.signum(), facing.1.signum()),
            expect,
            "{way}: {facing:?}"
        );
    }
}
