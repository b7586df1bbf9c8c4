//! Shadespire rules played from the data in cards/shadespire (seed 000; rules digest section
//! 2, differences in section 5, ambiguities in section 6).
//!
//! Each scenario starts a match of the shipped data, arranges the battlefield through the
//! kernel's `Ctx` (who stands where, tokens, counters, cards in hand), then runs chosen steps
//! of the flow and answers their requests. Combat is checked against a reference written
//! here in Rust from the rulebook over many seeds, so every branch is met with real rolls.

use gloam::core::{
    Answer, Choice, Ctx, Event, Frame, Game, GameState, Hex, Options, PieceId, PlayerId, Position,
    Scope, Value, Visibility, ZoneId,
};
use gloam::engine::RulesetGame;
use gloam::sim::{play_one, prepare, prepare_for, simulate};

mod scenario;
use scenario::{
    Scenario, answer, card_id, cards_dir, frame, game_counter, glory, id, inspired, option,
    options, piece, place, player_counter, request, shipped, tokens,
};

/// Seat 0 of the default match.
const REAVERS: PlayerId = PlayerId(0);
/// Seat 1 of the default match.
const CHAMPIONS: PlayerId = PlayerId(1);

fn rules() -> RulesetGame {
    shipped("shadespire")
}

/// Starts `frames` of the flow after `arrange`, with the game's seed `seed`.
fn scenario(
    rules: &RulesetGame,
    seed: u64,
    arrange: impl Fn(&mut Ctx<'_>) + 'static,
    frames: Vec<Frame>,
) -> Game<Scenario> {
    let setup = rules.setup(seed);
    let scenario = Scenario {
        rules: rules.clone(),
        arrange: Box::new(arrange),
    };
    Game::start(scenario, setup, frames).expect("the scenario starts")
}

fn hex_of(state: &GameState, kind: &str) -> Option<Hex> {
    match state.pieces[&piece(state, kind)].position {
        Some(Position::Hex(hex)) => Some(hex),
        _ => None,
    }
}

fn counter(state: &GameState, kind: &str, name: &str) -> i64 {
    state.pieces[&piece(state, kind)]
        .counters
        .get(name)
        .copied()
        .unwrap_or(0)
}

/// The cards of `player`'s zone, by name.
fn zone(state: &GameState, player: PlayerId, name: &str) -> Vec<String> {
    state.zones[&ZoneId::new(player, name)]
        .cards
        .iter()
        .map(|c| state.cards[c].name.clone())
        .collect()
}

/// Moves the card named `card` of `player` to the top of their zone `to`.
fn put_card(ctx: &mut Ctx<'_>, player: PlayerId, card: &str, to: &str) {
    let id = ctx
        .state()
        .cards
        .values()
        .find(|c| c.name == card && c.owner == player)
        .unwrap_or_else(|| panic!("{card} is not in the decks"))
        .id;
    ctx.move_card(id, &ZoneId::new(player, to), 0)
        .expect("move card");
}

/// The faces of every roll in `events`, in order, with the die rolled.
fn rolls(events: &[Event]) -> Vec<(String, Vec<String>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { dice, .. } => Some((
                dice.first().map(|d| d.die.clone()).unwrap_or_default(),
                dice.iter().map(|d| d.face.clone()).collect(),
            )),
            _ => None,
        })
        .collect()
}

/// A hex deep inside the battlefield: it, its neighbours and theirs are all on it and open.
fn centre(rules: &RulesetGame) -> Hex {
    let battlefield = rules.battlefield();
    let open = |h: Hex| battlefield.contains(h) && !battlefield.has_type(h, "blocked");
    let mut hexes: Vec<Hex> = battlefield.hexes().collect();
    hexes.sort();
    hexes
        .into_iter()
        .find(|&h| {
            open(h)
                && h.neighbors()
                    .iter()
                    .all(|&n| open(n) && n.neighbors().iter().all(|&m| open(m)))
        })
        .expect("the battlefield has an inner hex")
}

/// Where the fighters of a combat stand, around the target's hex `t` and the attacker's `a`.
struct Ring {
    t: Hex,
    a: Hex,
    /// The target's neighbours that are 2 hexes from the attacker: where it is driven back.
    away: Vec<Hex>,
    /// The target's neighbours next to the attacker.
    beside: Vec<Hex>,
    /// The attacker's neighbours 2 hexes from the target.
    behind: Vec<Hex>,
}

fn ring(rules: &RulesetGame) -> Ring {
    let t = centre(rules);
    let a = t.neighbors()[0];
    let away = t
        .neighbors()
        .into_iter()
        .filter(|n| n.distance_to(a) == 2)
        .collect();
    let beside = t
        .neighbors()
        .into_iter()
        .filter(|n| n.distance_to(a) == 1)
        .collect();
    let behind = a
        .neighbors()
        .into_iter()
        .filter(|n| n.distance_to(t) == 2)
        .collect();
    Ring {
        t,
        a,
        away,
        beside,
        behind,
    }
}

/// A weapon profile as the flow passes it: [name, symbol, range, dice, damage, [keywords]].
fn profile(symbol: &str, dice: i64, damage: i64, keywords: &[&str]) -> Value {
    Value::List(vec![
        Value::Str("Test Weapon".into()),
        Value::Str(symbol.into()),
        Value::Int(1),
        Value::Int(dice),
        Value::Int(damage),
        Value::List(keywords.iter().map(|k| Value::Str((*k).into())).collect()),
    ])
}

/// The combat step of `attacker` against `target` with `weapon`.
fn combat(rules: &RulesetGame, attacker: &str, target: &str, weapon: Value) -> Frame {
    let player = if [
        "Severin Steelheart",
        "Angharad Brightshield",
        "Obryn the Bold",
    ]
    .contains(&attacker)
    {
        CHAMPIONS
    } else {
        REAVERS
    };
    frame(
        "combat",
        &[
            ("player", Value::Player(player)),
            ("fighter", Value::Piece(id(rules, attacker))),
            ("target", Value::Piece(id(rules, target))),
            ("data", weapon),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// The combat reference
// ---------------------------------------------------------------------------------------

/// One combat's circumstances, for the reference.
#[derive(Clone, Copy)]
struct Terms<'a> {
    symbol: &'a str,
    defence_symbol: &'a str,
    guard: bool,
    cleave: bool,
    /// The attacker's supporters minus the target's.
    lead: i64,
    /// Whether every hex the target could be driven back into is taken.
    cornered: bool,
}

/// The outcome the rulebook gives (000 L509-533): 0 failed, 1 failed with equal totals (the
/// target can be driven back), 2 success, 3 critical hit.
fn reference(attack: &[String], defence: &[String], terms: Terms<'_>) -> i64 {
    let count = |faces: &[String], wanted: &[&str]| {
        faces
            .iter()
            .filter(|f| wanted.contains(&f.as_str()))
            .count() as i64
    };
    let mut hits = vec![terms.symbol, "critical"];
    if terms.lead >= 1 {
        hits.push("single_support");
    }
    if terms.lead >= 2 {
        hits.push("double_support");
    }
    let mut saves = if terms.guard {
        vec!["block", "dodge", "critical"]
    } else {
        vec![terms.defence_symbol, "critical"]
    };
    if terms.cleave {
        saves.retain(|s| *s != "block");
    }
    if terms.lead <= -1 {
        saves.push("single_support");
    }
    if terms.lead <= -2 {
        saves.push("double_support");
    }
    let (attack_crits, defence_crits) =
        (count(attack, &["critical"]), count(defence, &["critical"]));
    let (successes, blocks) = (count(attack, &hits), count(defence, &saves));
    if attack_crits > defence_crits {
        return 3;
    }
    if attack_crits < defence_crits {
        return 0;
    }
    let outcome = if successes > blocks {
        2
    } else if successes == blocks && successes >= 1 {
        if terms.cornered { 2 } else { 1 }
    } else {
        0
    };
    if outcome == 2 && attack_crits >= 1 {
        3
    } else {
        outcome
    }
}

/// Tallies of what the seeds met, so a test can require each branch to have happened.
#[derive(Default)]
struct Met {
    crits_win_with_fewer_successes: usize,
    crits_lose_with_more_successes: usize,
    equal_totals: usize,
    cornered_draws_won: usize,
    support_decided: usize,
}

/// Runs the combat of `attacker` against `target` over `seeds` seeds after `arrange`, and
/// checks each outcome, the damage dealt and whether drive back is offered against the
/// reference. The target has Defence 3 and Wounds 30 so that totals vary and no one falls.
fn check_combats(
    rules: &RulesetGame,
    attacker: &str,
    target: &str,
    weapon: (&str, i64, &[&str]),
    terms: Terms<'_>,
    arrange: impl Fn(&mut Ctx<'_>) + Clone + 'static,
    seeds: u64,
) -> Met {
    let mut met = Met::default();
    let target_id = id(rules, target);
    for seed in 0..seeds {
        let arrange = arrange.clone();
        let game = scenario(
            rules,
            seed,
            move |ctx: &mut Ctx<'_>| {
                arrange(ctx);
                ctx.set_characteristic(target_id, "defence", 3).unwrap();
                ctx.set_characteristic(target_id, "wounds", 30).unwrap();
            },
            vec![combat(
                rules,
                attacker,
                target,
                profile(weapon.0, weapon.1, 2, weapon.2),
            )],
        );
        let state = game.state();
        let rolled = rolls(game.events());
        assert_eq!(
            rolled.len(),
            2,
            "seed {seed}: one attack roll, one defence roll"
        );
        let (attack, defence) = (&rolled[0].1, &rolled[1].1);
        let expected = reference(attack, defence, terms);
        let outcome = game_counter(state, "attack_outcome");
        assert_eq!(
            outcome, expected,
            "seed {seed}: attack {attack:?} defence {defence:?}"
        );
        let damage = counter(state, target, "damage");
        assert_eq!(damage, if expected >= 2 { 2 } else { 0 }, "seed {seed}");
        let offered = game
            .pending()
            .first()
            .is_some_and(|r| r.prompt == "Drive the target back?");
        assert_eq!(
            offered,
            expected >= 1 && !terms.cornered,
            "seed {seed}: drive back offered after outcome {expected}"
        );
        let crits = |faces: &[String]| faces.iter().filter(|f| *f == "critical").count();
        let others = |faces: &[String], wanted: &[&str]| {
            faces
                .iter()
                .filter(|f| wanted.contains(&f.as_str()))
                .count()
        };
        let plain = reference(
            attack,
            defence,
            Terms {
                lead: 0,
                cornered: false,
                ..terms
            },
        );
        if crits(attack) > crits(defence)
            && others(attack, &[terms.symbol]) + crits(attack)
                < others(defence, &[terms.defence_symbol]) + crits(defence)
        {
            met.crits_win_with_fewer_successes += 1;
        }
        if crits(attack) < crits(defence)
            && others(attack, &[terms.symbol]) + crits(attack)
                > others(defence, &[terms.defence_symbol]) + crits(defence)
        {
            met.crits_lose_with_more_successes += 1;
        }
        if plain == 1 {
            met.equal_totals += 1;
            if terms.cornered && expected >= 2 {
                met.cornered_draws_won += 1;
            }
        }
        if plain != expected && !terms.cornered {
            met.support_decided += 1;
        }
    }
    met
}

const PLAIN: Terms<'static> = Terms {
    symbol: "hammer",
    defence_symbol: "dodge",
    guard: false,
    cleave: false,
    lead: 0,
    cornered: false,
};

#[test]
fn combat_more_criticals_win_or_lose_outright_whatever_the_totals() {
    // Shadespire, combat step 5 (000 L515; digest 2.8): the side that rolled more criticals
    // wins outright; equal criticals compare totals. Severin attacks Garrek with 2 dice.
    let rules = rules();
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    let met = check_combats(
        &rules,
        "Severin Steelheart",
        "Garrek Gorebeard",
        ("hammer", 2, &[]),
        PLAIN,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            place(ctx, "Severin Steelheart", a);
        },
        300,
    );
    assert!(
        met.crits_win_with_fewer_successes > 0,
        "the seeds never met a critical win with fewer successes"
    );
    assert!(
        met.crits_lose_with_more_successes > 0,
        "the seeds never met a critical loss with more successes"
    );
    assert!(met.equal_totals > 0);
}

#[test]
fn combat_support_is_relative_and_only_the_side_with_more_supporters_gains() {
    // Shadespire, support (000 L517-533; digest 2.8, differences row 14): the attacker's
    // friends next to the target against the target's friends next to the attacker; only
    // the side with more gains (1 more: single support; 2 or more: double too). Harrowdeep
    // counts each side absolutely.
    let rules = rules();
    let r = ring(&rules);
    // Two Champions beside the target (also next to the attacker: they support the attack
    // only), one Reaver behind the attacker (next to it: supports the defence). Lead +1.
    let (t, a, beside, behind) = (r.t, r.a, r.beside.clone(), r.behind.clone());
    let met = check_combats(
        &rules,
        "Severin Steelheart",
        "Garrek Gorebeard",
        ("hammer", 2, &[]),
        Terms { lead: 1, ..PLAIN },
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            place(ctx, "Severin Steelheart", a);
            place(ctx, "Angharad Brightshield", beside[0]);
            place(ctx, "Obryn the Bold", beside[1]);
            place(ctx, "Targor", behind[0]);
        },
        300,
    );
    assert!(met.support_decided > 0, "support never changed an outcome");
    // The defence leads by 2: two Reavers next to Severin, no Champion next to Garrek.
    let (t, a, behind) = (r.t, r.a, r.behind.clone());
    let met = check_combats(
        &rules,
        "Severin Steelheart",
        "Garrek Gorebeard",
        ("hammer", 2, &[]),
        Terms { lead: -2, ..PLAIN },
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            place(ctx, "Severin Steelheart", a);
            place(ctx, "Targor", behind[0]);
            place(ctx, "Arnulf", behind[1]);
        },
        300,
    );
    assert!(
        met.support_decided > 0,
        "defence support never changed an outcome"
    );
}

#[test]
fn combat_trapped_target_turns_equal_totals_into_a_success() {
    // Shadespire, trapped (000 L509; digest 2.8, differences row 17; A2): with equal totals
    // the attack fails but the target can be driven back; if every hex it could be driven
    // into is taken, the attack succeeds instead. Harrowdeep adds one success instead.
    let rules = rules();
    let r = ring(&rules);
    let (t, a, away) = (r.t, r.a, r.away.clone());
    assert_eq!(away.len(), 3);
    let met = check_combats(
        &rules,
        "Severin Steelheart",
        "Garrek Gorebeard",
        ("hammer", 2, &[]),
        Terms {
            cornered: true,
            ..PLAIN
        },
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            place(ctx, "Severin Steelheart", a);
            for (kind, hex) in ["Targor", "Arnulf", "Blooded Saek"].iter().zip(&away) {
                place(ctx, kind, *hex);
            }
        },
        300,
    );
    assert!(
        met.cornered_draws_won > 0,
        "the seeds never met a trapped draw"
    );
}

#[test]
fn combat_guard_counts_both_symbols_but_gives_no_drive_back_immunity() {
    // Shadespire, Guard (000 L573, L861; digest 2.5, differences row 13): on Guard both block
    // and dodge succeed, and the fighter can still be driven back (Harrowdeep: cannot).
    // Cleave takes block away even on Guard (A9).
    let rules = rules();
    let r = ring(&rules);
    let garrek = id(&rules, "Garrek Gorebeard");
    for cleave in [false, true] {
        let (t, a) = (r.t, r.a);
        let keywords: &[&str] = if cleave { &["cleave"] } else { &[] };
        check_combats(
            &rules,
            "Severin Steelheart",
            "Garrek Gorebeard",
            ("hammer", 3, keywords),
            Terms {
                guard: true,
                cleave,
                ..PLAIN
            },
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Garrek Gorebeard", t);
                place(ctx, "Severin Steelheart", a);
                ctx.set_tokens(Scope::Piece(garrek), "guard", 1).unwrap();
            },
            200,
        );
    }
    // A guarded target driven back: the first seed whose attack succeeds.
    let (t, a, away) = (r.t, r.a, r.away.clone());
    for seed in 0..100 {
        let mut game = scenario(
            &rules,
            seed,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Garrek Gorebeard", t);
                place(ctx, "Severin Steelheart", a);
                ctx.set_tokens(Scope::Piece(garrek), "guard", 1).unwrap();
            },
            vec![combat(
                &rules,
                "Severin Steelheart",
                "Garrek Gorebeard",
                profile("hammer", 3, 1, &[]),
            )],
        );
        if game.pending().is_empty() {
            continue;
        }
        assert_eq!(request(&game).prompt, "Drive the target back?");
        answer(&mut game, CHAMPIONS, option("drive back"));
        let to = away[0];
        answer(&mut game, CHAMPIONS, Choice::Hex(to));
        assert_eq!(hex_of(game.state(), "Garrek Gorebeard"), Some(to));
        assert_eq!(tokens(game.state(), "Garrek Gorebeard", "guard"), 1);
        return;
    }
    panic!("no seed drove a guarded target back");
}

#[test]
fn knockback_pushes_further_in_the_same_direction_after_a_successful_attack() {
    // Shadespire, Knockback X (000 L567, L863; digest 2.6): after the first hex of drive
    // back, up to X more hexes in the same direction, only on a successful attack.
    let rules = rules();
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    // Straight away from the attacker: t + (t - a).
    let straight = Hex::new(2 * t.q - a.q, 2 * t.r - a.r);
    let beyond = Hex::new(3 * t.q - 2 * a.q, 3 * t.r - 2 * a.r);
    for seed in 0..100 {
        let mut game = scenario(
            &rules,
            seed,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Garrek Gorebeard", t);
                place(ctx, "Obryn the Bold", a);
            },
            vec![combat(
                &rules,
                "Obryn the Bold",
                "Garrek Gorebeard",
                profile("hammer", 3, 1, &["knockback"]),
            )],
        );
        if game.pending().is_empty() || game_counter(game.state(), "attack_outcome") < 2 {
            continue;
        }
        answer(&mut game, CHAMPIONS, option("drive back"));
        answer(&mut game, CHAMPIONS, Choice::Hex(straight));
        let asked = request(&game);
        assert_eq!(asked.prompt, "Knockback?");
        answer(&mut game, CHAMPIONS, option("knock back 1 more hex"));
        assert_eq!(hex_of(game.state(), "Garrek Gorebeard"), Some(beyond));
        return;
    }
    panic!("no seed gave a successful Knockback attack");
}

// ---------------------------------------------------------------------------------------
// Actions and activations
// ---------------------------------------------------------------------------------------

#[test]
fn a_fighter_that_moved_neither_moves_nor_charges_again_and_a_charger_is_not_activated_again() {
    // Shadespire, Move and Charge (000 L399, L403, L569; digest 2.5, differences rows 11-12):
    // one Move or Charge per fighter per phase; a fighter that charged cannot be activated
    // again that phase.
    let rules = rules();
    let r = ring(&rules);
    let champions = [
        "Severin Steelheart",
        "Angharad Brightshield",
        "Obryn the Bold",
    ];
    let (t, far) = (r.t, r.away.clone());
    let mut game = scenario(
        &rules,
        1,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            for (kind, hex) in champions.iter().zip(&far) {
                place(ctx, kind, *hex);
            }
            let severin = piece(ctx.state(), "Severin Steelheart");
            let angharad = piece(ctx.state(), "Angharad Brightshield");
            let obryn = piece(ctx.state(), "Obryn the Bold");
            ctx.set_tokens(Scope::Piece(severin), "move", 1).unwrap();
            ctx.set_tokens(Scope::Piece(angharad), "move", 1).unwrap();
            ctx.set_tokens(Scope::Piece(obryn), "charge", 1).unwrap();
        },
        vec![frame("activation", &[("player", Value::Player(CHAMPIONS))])],
    );
    let choices = options(&request(&game));
    assert!(!choices.contains(&"move".to_owned()), "{choices:?}");
    assert!(!choices.contains(&"charge".to_owned()), "{choices:?}");
    assert!(choices.contains(&"attack".to_owned()), "{choices:?}");
    answer(&mut game, CHAMPIONS, option("guard"));
    let asked = request(&game);
    assert_eq!(asked.prompt, "Which fighter goes on guard?");
    let offered: Vec<PieceId> = match &asked.options {
        Options::One { choices } => choices
            .iter()
            .filter_map(|c| match c {
                Choice::Piece(p) => Some(*p),
                _ => None,
            })
            .collect(),
        other => panic!("{other:?}"),
    };
    assert!(!offered.contains(&id(&rules, "Obryn the Bold")));
    assert!(offered.contains(&id(&rules, "Severin Steelheart")));
}

#[test]
fn a_charge_moves_then_attacks_and_leaves_a_charge_token() {
    // Shadespire, Charge (000 L569, L851; digest 2.5; A8): a Move then an Attack in one
    // activation, only to a hex from which an attack has a target; Guard is removed.
    let rules = rules();
    let r = ring(&rules);
    let t = r.t;
    // Obryn three hexes from Garrek: he can reach a hex next to him.
    let start = Hex::new(t.q + 3, t.r);
    let mut game = scenario(
        &rules,
        3,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            place(ctx, "Obryn the Bold", start);
            let obryn = piece(ctx.state(), "Obryn the Bold");
            ctx.set_tokens(Scope::Piece(obryn), "guard", 1).unwrap();
        },
        vec![frame("activation", &[("player", Value::Player(CHAMPIONS))])],
    );
    answer(&mut game, CHAMPIONS, option("charge"));
    answer(
        &mut game,
        CHAMPIONS,
        Choice::Piece(id(&rules, "Obryn the Bold")),
    );
    let asked = request(&game);
    assert_eq!(asked.prompt, "Where does it charge to?");
    let ends: Vec<Hex> = match &asked.options {
        Options::One { choices } => choices
            .iter()
            .filter_map(|c| match c {
                Choice::Hex(h) => Some(*h),
                _ => None,
            })
            .collect(),
        other => panic!("{other:?}"),
    };
    assert!(!ends.is_empty());
    assert!(ends.iter().all(|h| h.distance_to(t) == 1), "{ends:?}");
    answer(&mut game, CHAMPIONS, Choice::Hex(ends[0]));
    let state = game.state();
    assert_eq!(tokens(state, "Obryn the Bold", "charge"), 1);
    assert_eq!(tokens(state, "Obryn the Bold", "guard"), 0);
    assert_eq!(tokens(state, "Obryn the Bold", "move"), 0);
    // The attack followed: two rolls.
    assert_eq!(rolls(game.events()).len(), 2);
}

// ---------------------------------------------------------------------------------------
// Inspire
// ---------------------------------------------------------------------------------------

#[test]
fn a_champion_who_rolls_a_block_or_critical_is_inspired_as_soon_as_the_attack_ends() {
    // Shadespire, Inspire (000 L45, L83; digest 2.10, differences row 30): inspired at once,
    // after the action that met the condition; Harrowdeep waits for the Inspire step.
    let rules = rules();
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    let mut seen = [false, false];
    for seed in 0..60 {
        let mut game = scenario(
            &rules,
            seed,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Severin Steelheart", t);
                place(ctx, "Garrek Gorebeard", a);
            },
            vec![frame(
                "attack",
                &[
                    ("player", Value::Player(REAVERS)),
                    ("fighter", Value::Piece(id(&rules, "Garrek Gorebeard"))),
                    ("target", Value::Piece(id(&rules, "Severin Steelheart"))),
                    ("data", profile("hammer", 2, 1, &[])),
                ],
            )],
        );
        let defence = rolls(game.events())[1].1.clone();
        let latched = defence.iter().any(|f| f == "block" || f == "critical");
        // Mid-action (the drive-back choice): not yet inspired.
        if !game.pending().is_empty() {
            assert!(!inspired(game.state(), "Severin Steelheart"), "seed {seed}");
            while let Some(asked) = game.pending().first().map(|r| (*r).clone()) {
                let choice = if options(&asked).contains(&"do not drive back".to_owned()) {
                    option("do not drive back")
                } else {
                    option("pass")
                };
                answer(&mut game, asked.player, choice);
            }
        }
        assert_eq!(
            inspired(game.state(), "Severin Steelheart"),
            latched,
            "seed {seed}: {defence:?}"
        );
        assert_eq!(
            counter(game.state(), "Severin Steelheart", "block_or_crit"),
            0
        );
        seen[usize::from(latched)] = true;
        if latched {
            // Inspired side: Defence 2.
            let severin = id(&rules, "Severin Steelheart");
            assert_eq!(game.state().characteristic(severin, "defence").unwrap(), 2);
        }
    }
    assert!(seen[0] && seen[1], "both cases met");
}

#[test]
fn reavers_are_inspired_after_the_activation_in_which_three_fighters_fall_and_stay_inspired() {
    // Shadespire, Inspire (000 L45, L79, L863; digest 2.10, differences rows 30-31): the
    // Reavers' condition (three fighters out of action, any warband) inspires at the end of
    // the activation, for good: there is no un-Inspire.
    let rules = rules();
    let hexes: Vec<Hex> = {
        let r = ring(&rules);
        r.away.iter().chain(&r.behind).copied().collect()
    };
    let arrangement = hexes.clone();
    let mut game = scenario(
        &rules,
        5,
        move |ctx: &mut Ctx<'_>| {
            // Angharad, Obryn and Targor are never placed: out of action.
            for (kind, hex) in [
                "Garrek Gorebeard",
                "Karsus the Chained",
                "Severin Steelheart",
            ]
            .iter()
            .zip(&arrangement)
            {
                place(ctx, kind, *hex);
            }
        },
        vec![frame("activation", &[("player", Value::Player(REAVERS))])],
    );
    assert!(!inspired(game.state(), "Garrek Gorebeard"));
    answer(&mut game, REAVERS, option("pass"));
    let state = game.state();
    assert!(inspired(state, "Garrek Gorebeard"));
    assert!(inspired(state, "Karsus the Chained"));
    assert!(!inspired(state, "Severin Steelheart"));
    let garrek = piece(state, "Garrek Gorebeard");
    assert_eq!(state.characteristic(garrek, "move").unwrap(), 5);
    // The fallen come back (no rule does; the test only breaks the condition): still inspired.
    let later = scenario(
        &rules,
        5,
        move |ctx: &mut Ctx<'_>| {
            for (kind, hex) in [
                "Garrek Gorebeard",
                "Karsus the Chained",
                "Severin Steelheart",
                "Angharad Brightshield",
                "Obryn the Bold",
                "Targor",
            ]
            .iter()
            .zip(&hexes)
            {
                place(ctx, kind, *hex);
            }
            let garrek = piece(ctx.state(), "Garrek Gorebeard");
            ctx.set_keyword(garrek, "inspired", true).unwrap();
        },
        vec![frame(
            "inspire_check",
            &[("player", Value::Player(REAVERS))],
        )],
    );
    assert!(later.pending().is_empty());
    assert!(inspired(later.state(), "Garrek Gorebeard"));
    assert!(!inspired(later.state(), "Karsus the Chained"));
}

// ---------------------------------------------------------------------------------------
// Objectives, power cards, glory
// ---------------------------------------------------------------------------------------

#[test]
fn an_objective_is_scored_immediately_after_an_activation_with_an_optional_draw() {
    // Shadespire, objectives (000 L707; digest 2.13, differences row 33): "score this
    // immediately" after an action or activation, then the player may draw a replacement at
    // once (Harrowdeep: surge objectives, mandatory draw).
    let rules = rules();
    let r = ring(&rules);
    let hexes: Vec<Hex> = r.away.iter().chain(&r.behind).copied().collect();
    for draw in [true, false] {
        let spots = hexes.clone();
        let mut game = scenario(
            &rules,
            2,
            move |ctx: &mut Ctx<'_>| {
                for (kind, hex) in ["Garrek Gorebeard", "Targor", "Arnulf", "Severin Steelheart"]
                    .iter()
                    .zip(&spots)
                {
                    place(ctx, kind, *hex);
                }
                for kind in ["Garrek Gorebeard", "Targor", "Arnulf"] {
                    let f = piece(ctx.state(), kind);
                    ctx.set_counter(Scope::Piece(f), "hit_this_phase", 1)
                        .unwrap();
                }
                put_card(ctx, REAVERS, "Let the Blood Flow", "objective_hand");
            },
            vec![frame(
                "window",
                &[
                    ("player", Value::Player(REAVERS)),
                    ("data", Value::Str("after_activation".into())),
                ],
            )],
        );
        let state = game.state();
        assert_eq!(zone(state, REAVERS, "scored"), ["Let the Blood Flow"]);
        assert_eq!(glory(state, REAVERS), 2);
        let asked = request(&game);
        assert_eq!(asked.player, REAVERS);
        assert_eq!(asked.prompt, "Draw replacement objective cards?");
        let choice = if draw {
            "draw replacements"
        } else {
            "do not draw"
        };
        answer(&mut game, REAVERS, option(choice));
        let hand = zone(game.state(), REAVERS, "objective_hand");
        assert_eq!(hand.len(), usize::from(draw), "{hand:?}");
    }
}

#[test]
fn an_objective_is_not_scored_at_a_moment_that_is_not_after_an_action() {
    // Shadespire, objectives (000 L707): only after an action or an activation; a power
    // card's resolution is neither.
    let rules = rules();
    let r = ring(&rules);
    let hexes: Vec<Hex> = r.away.iter().chain(&r.behind).copied().collect();
    let game = scenario(
        &rules,
        2,
        move |ctx: &mut Ctx<'_>| {
            for (kind, hex) in ["Garrek Gorebeard", "Targor", "Arnulf"].iter().zip(&hexes) {
                place(ctx, kind, *hex);
                let f = piece(ctx.state(), kind);
                ctx.set_counter(Scope::Piece(f), "hit_this_phase", 1)
                    .unwrap();
            }
            put_card(ctx, REAVERS, "Let the Blood Flow", "objective_hand");
        },
        vec![frame(
            "window",
            &[
                ("player", Value::Player(REAVERS)),
                ("data", Value::Str("card_resolved".into())),
            ],
        )],
    );
    assert!(zone(game.state(), REAVERS, "scored").is_empty());
    assert_eq!(glory(game.state(), REAVERS), 0);
}

#[test]
fn an_upgrade_costs_one_unspent_glory_and_spent_glory_still_counts() {
    // Shadespire, upgrades (000 L371, L605, L713; digest 2.11, differences row 28): an
    // upgrade needs 1 unspent glory, which is flipped to spent; spent and unspent glory both
    // count for victory. Great Fortitude: +1 Wounds.
    let rules = rules();
    let r = ring(&rules);
    for glory_points in [0, 1] {
        let hex = r.t;
        let mut game = scenario(
            &rules,
            4,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Garrek Gorebeard", hex);
                ctx.set_counter(Scope::Player(REAVERS), "glory", glory_points)
                    .unwrap();
                put_card(ctx, REAVERS, "Great Fortitude", "power_hand");
            },
            vec![frame(
                "power_step",
                &[
                    ("player", Value::Player(REAVERS)),
                    ("count", Value::Int(0)),
                    ("data", Value::Str("action_phase".into())),
                ],
            )],
        );
        if glory_points == 0 {
            // Nothing playable: both pass without a question.
            assert!(game.pending().is_empty());
            continue;
        }
        answer(&mut game, REAVERS, option("play a card"));
        let card = game
            .state()
            .cards
            .values()
            .find(|c| c.name == "Great Fortitude")
            .unwrap()
            .id;
        answer(&mut game, REAVERS, Choice::Card(card));
        answer(
            &mut game,
            REAVERS,
            Choice::Piece(id(&rules, "Garrek Gorebeard")),
        );
        let state = game.state();
        let garrek = piece(state, "Garrek Gorebeard");
        assert_eq!(state.characteristic(garrek, "wounds").unwrap(), 5);
        assert_eq!(
            state.players[0].counters.get("glory_spent").copied(),
            Some(1)
        );
        assert_eq!(glory(state, REAVERS), 1);
        // With no unspent glory left, the power step offers nothing more.
        assert!(game.pending().is_empty() || request(&game).player == CHAMPIONS);
    }
}

#[test]
fn the_power_step_starts_with_the_player_who_took_the_activation() {
    // Shadespire, power step (000 L575-579; digest 2.11, differences row 10): the player who
    // took the activation plays or passes first (Harrowdeep: the player whose turn is next).
    let rules = rules();
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    for first in [REAVERS, CHAMPIONS] {
        let game = scenario(
            &rules,
            4,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Garrek Gorebeard", t);
                place(ctx, "Severin Steelheart", a);
                put_card(ctx, REAVERS, "Sidestep", "power_hand");
                put_card(ctx, CHAMPIONS, "Sidestep", "power_hand");
            },
            vec![frame(
                "power_step",
                &[
                    ("player", Value::Player(first)),
                    ("count", Value::Int(0)),
                    ("data", Value::Str("action_phase".into())),
                ],
            )],
        );
        assert_eq!(request(&game).player, first);
    }
}

// ---------------------------------------------------------------------------------------
// Reactions
// ---------------------------------------------------------------------------------------

#[test]
fn a_reaction_goes_first_to_the_player_whose_activation_is_next_and_only_one_is_used() {
    // Shadespire, reactions (000 L631-633; digest 2.12; A10): one reaction per opportunity;
    // priority to the player whose activation comes next. Tireless Assault: after a friendly
    // fighter's failed Attack action, it attacks the same target again.
    let rules = rules();
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    let mut game = scenario(
        &rules,
        6,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            place(ctx, "Severin Steelheart", a);
            put_card(ctx, CHAMPIONS, "Tireless Assault", "power_hand");
            // The Reavers took this activation: the Champions have priority.
            ctx.set_counter(Scope::Game, "turn_seat", 0).unwrap();
            ctx.set_counter(Scope::Game, "attack_outcome", 0).unwrap();
        },
        vec![frame(
            "window",
            &[
                ("player", Value::Player(CHAMPIONS)),
                ("data", Value::Str("after_attack".into())),
                ("target", Value::Piece(id(&rules, "Garrek Gorebeard"))),
                ("fighter", Value::Piece(id(&rules, "Severin Steelheart"))),
            ],
        )],
    );
    let asked = request(&game);
    assert_eq!(asked.player, CHAMPIONS);
    assert_eq!(asked.prompt, "Reaction: react or pass?");
    answer(&mut game, CHAMPIONS, option("play a reaction card"));
    let card = game
        .state()
        .cards
        .values()
        .find(|c| c.name == "Tireless Assault")
        .unwrap()
        .id;
    answer(&mut game, CHAMPIONS, Choice::Card(card));
    // Severin's second attack: one weapon, one target, so it rolls at once.
    let rolled = rolls(game.events());
    assert_eq!(rolled.len(), 2, "{rolled:?}");
    assert_eq!(
        zone(game.state(), CHAMPIONS, "power_discard"),
        ["Tireless Assault"]
    );
    // No reaction opportunity follows the reaction's own attack.
    for asked in game.pending() {
        assert_ne!(asked.prompt, "Reaction: react or pass?");
    }
}

/// Puts the upgrade named `card` of `player` on the fighter `kind`, as `equip` does.
fn equip(ctx: &mut Ctx<'_>, player: PlayerId, card: &str, kind: &str) {
    let fighter = piece(ctx.state(), kind);
    let card = ctx
        .state()
        .cards
        .values()
        .find(|c| c.name == card && c.owner == player)
        .unwrap_or_else(|| panic!("{card} is not in the decks"))
        .id;
    let zone = ZoneId::on_piece(player, "equipped", fighter);
    if !ctx.state().zones.contains_key(&zone) {
        ctx.create_zone(zone.clone(), Visibility::Public).unwrap();
    }
    ctx.move_card(card, &zone, 0).unwrap();
}

#[test]
fn ever_advancing_pushes_garrek_instead_of_being_driven_back() {
    // Shadespire, Ever-Advancing (000 L655, L683-685; card inventory C8): whenever he could
    // be driven back, his player may push him 1 hex instead (a reaction); the attacker's
    // drive back is then not offered.
    let rules = rules();
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    let mut game = scenario(
        &rules,
        1,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            place(ctx, "Severin Steelheart", a);
            equip(ctx, REAVERS, "Ever-Advancing", "Garrek Gorebeard");
            // The Champions took this activation: the Reavers have priority.
            ctx.set_counter(Scope::Game, "turn_seat", 1).unwrap();
        },
        vec![frame(
            "drive_back",
            &[
                ("player", Value::Player(CHAMPIONS)),
                ("fighter", Value::Piece(id(&rules, "Severin Steelheart"))),
                ("target", Value::Piece(id(&rules, "Garrek Gorebeard"))),
                ("count", Value::Int(0)),
            ],
        )],
    );
    let asked = request(&game);
    assert_eq!(asked.player, REAVERS);
    assert_eq!(asked.prompt, "Reaction: react or pass?");
    answer(&mut game, REAVERS, option("use an upgrade's reaction"));
    // One upgrade: choose it, then where Garrek is pushed (any direction).
    while let Some(asked) = game.pending().first().map(|r| (*r).clone()) {
        assert_eq!(
            asked.player, REAVERS,
            "the attacker is never asked to drive back"
        );
        let choice = match &asked.options {
            Options::One { choices } => choices[0].clone(),
            other => panic!("{other:?}"),
        };
        answer(&mut game, REAVERS, choice);
    }
    let moved = hex_of(game.state(), "Garrek Gorebeard").unwrap();
    assert_eq!(moved.distance_to(t), 1);
    assert_eq!(
        counter(game.state(), "Garrek Gorebeard", "no_drive_back"),
        0
    );
}

#[test]
fn furious_parry_answers_a_failed_attack_and_angharad_is_not_driven_back() {
    // Shadespire, Furious Parry (000 L669-681, L693-699; digest 2.12; card inventory G2):
    // Inspired Angharad, target of a failed Attack action, cannot be driven back and attacks
    // the attacker.
    let rules = rules();
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    for seed in 0..200 {
        let mut game = scenario(
            &rules,
            seed,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Angharad Brightshield", t);
                place(ctx, "Garrek Gorebeard", a);
                let angharad = piece(ctx.state(), "Angharad Brightshield");
                ctx.set_keyword(angharad, "inspired", true).unwrap();
                ctx.set_counter(Scope::Game, "turn_seat", 0).unwrap();
            },
            vec![combat(
                &rules,
                "Garrek Gorebeard",
                "Angharad Brightshield",
                profile("hammer", 2, 1, &[]),
            )],
        );
        // Equal totals: failed, yet she could be driven back.
        if game_counter(game.state(), "attack_outcome") != 1 {
            continue;
        }
        let asked = request(&game);
        assert_eq!(asked.player, CHAMPIONS);
        assert_eq!(asked.prompt, "Reaction: react or pass?");
        answer(&mut game, CHAMPIONS, option("use a fighter's reaction"));
        while let Some(asked) = game.pending().first().map(|r| (*r).clone()) {
            // Her own attack may drive Garrek back; she is never driven back.
            assert!(
                !(asked.prompt == "Drive the target back?" && asked.player == REAVERS),
                "seed {seed}"
            );
            let choice = if options(&asked).contains(&"do not drive back".to_owned()) {
                option("do not drive back")
            } else {
                match &asked.options {
                    Options::One { choices } => choices[0].clone(),
                    other => panic!("{other:?}"),
                }
            };
            answer(&mut game, asked.player, choice);
        }
        assert_eq!(rolls(game.events()).len(), 4, "her attack rolled");
        assert_eq!(hex_of(game.state(), "Angharad Brightshield"), Some(t));
        return;
    }
    panic!("no seed gave equal totals");
}

// ---------------------------------------------------------------------------------------
// Roll-offs, end phase, victory
// ---------------------------------------------------------------------------------------

#[test]
fn the_roll_off_counts_criticals_then_hammers_then_swords_and_the_bonus_critical() {
    // Shadespire, roll-offs (000 L131, L391; digest 2.18, differences row 7): four dice each;
    // most criticals, then the second and third symbols (our choice: hammer, then swords);
    // ties roll again; in round 1 the first to finish deploying adds one critical.
    let rules = rules();
    let mut bonus_decided = false;
    for seed in 0..150 {
        for bonus in [0_i64, 1] {
            let game = scenario(
                &rules,
                seed,
                |_ctx: &mut Ctx<'_>| {},
                vec![frame(
                    "rolloff",
                    &[
                        ("data", Value::Str("first_activation".into())),
                        ("count", Value::Int(bonus)),
                    ],
                )],
            );
            let rolled = rolls(game.events());
            assert_eq!(rolled.len() % 2, 0);
            let last = &rolled[rolled.len() - 2..];
            let score = |faces: &[String], extra: i64| {
                let n = |s: &str| faces.iter().filter(|f| *f == s).count() as i64;
                ((n("critical") + extra), n("hammer"), n("swords"))
            };
            let reavers = score(&last[0].1, if bonus == 1 { 1 } else { 0 });
            let champions = score(&last[1].1, 0);
            let winner = request(&game).player;
            assert_ne!(
                reavers, champions,
                "seed {seed}: a tie was not rolled again"
            );
            assert_eq!(
                winner,
                if reavers > champions {
                    REAVERS
                } else {
                    CHAMPIONS
                },
                "seed {seed}"
            );
            if bonus == 1 && score(&last[0].1, 0) < champions && reavers > champions {
                bonus_decided = true;
            }
        }
    }
    assert!(bonus_decided, "the bonus critical never decided a roll-off");
}

#[test]
fn the_end_phase_clears_every_token_and_draws_back_up() {
    // Shadespire, end phase (000 L703; digest 2.14, differences row 46): draw objectives to
    // 3 and power cards to 5, then clear all tokens (move, charge and guard).
    let rules = rules();
    let r = ring(&rules);
    let t = r.t;
    let game = scenario(
        &rules,
        8,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Obryn the Bold", t);
            let obryn = piece(ctx.state(), "Obryn the Bold");
            for token in ["move", "charge", "guard"] {
                ctx.set_tokens(Scope::Piece(obryn), token, 1).unwrap();
            }
            ctx.set_counter(Scope::Game, "round", 1).unwrap();
        },
        vec![
            frame("end_refill", &[("player", Value::Player(REAVERS))]),
            frame("end_refill", &[("player", Value::Player(CHAMPIONS))]),
            frame("end_draw", &[("player", Value::Player(REAVERS))]),
        ],
    );
    let state = game.state();
    for token in ["move", "charge", "guard"] {
        assert_eq!(tokens(state, "Obryn the Bold", token), 0, "{token}");
    }
    // The Champions' decks hold one objective (Annihilation) and five power cards: only
    // Shadespire's cards are dealt, never another edition's.
    assert_eq!(zone(state, CHAMPIONS, "objective_hand").len(), 1);
    assert_eq!(zone(state, CHAMPIONS, "power_hand").len(), 5);
    // The next round began with its roll-off.
    assert_eq!(game_counter(state, "round"), 2);
}

#[test]
fn victory_on_tied_glory_goes_to_the_player_with_fighters_left() {
    // Shadespire, victory (000 L713; digest 2.15; A5): most glory; tied, a warband entirely
    // out of action loses; both standing (no objective tokens to count): a draw.
    let rules = rules();
    let r = ring(&rules);
    for (reavers_standing, expected) in [(true, vec![REAVERS]), (false, vec![REAVERS, CHAMPIONS])] {
        let (t, a) = (r.t, r.a);
        let game = scenario(
            &rules,
            9,
            move |ctx: &mut Ctx<'_>| {
                if reavers_standing {
                    place(ctx, "Garrek Gorebeard", t);
                } else {
                    place(ctx, "Garrek Gorebeard", t);
                    place(ctx, "Severin Steelheart", a);
                }
                ctx.set_counter(Scope::Player(REAVERS), "glory", 3).unwrap();
                ctx.set_counter(Scope::Player(CHAMPIONS), "glory", 3)
                    .unwrap();
            },
            vec![frame("victory", &[])],
        );
        let result = game.state().result.clone().expect("the game ended");
        assert_eq!(result.winners, expected, "{}", result.reason);
    }
}

#[test]
fn objective_tokens_are_placed_in_turn_away_from_starting_hexes_and_from_each_other() {
    // Shadespire, set-up 2 (000 L267, L307-311; digest 2.3): five tokens, placed in turn
    // from the first-board player; not on a starting, blocked or edge hex, nor within 2
    // hexes of another token (the last one may go on an edge hex).
    let rules = rules();
    let mut game = scenario(
        &rules,
        11,
        |_ctx: &mut Ctx<'_>| {},
        vec![frame(
            "objective_tokens",
            &[("player", Value::Player(REAVERS)), ("count", Value::Int(0))],
        )],
    );
    let mut placers = Vec::new();
    while let Some(asked) = game.pending().first().map(|r| (*r).clone()) {
        if asked.prompt != "Place an objective token" {
            break;
        }
        placers.push(asked.player);
        let choice = match &asked.options {
            Options::One { choices } => choices[choices.len() / 2].clone(),
            other => panic!("{other:?}"),
        };
        answer(&mut game, asked.player, choice);
    }
    assert_eq!(placers, [REAVERS, CHAMPIONS, REAVERS, CHAMPIONS, REAVERS]);
    let tokens: Vec<Hex> = game
        .state()
        .hex_types
        .iter()
        .filter(|(_, name)| name == "objective")
        .map(|(hex, _)| *hex)
        .collect();
    assert_eq!(tokens.len(), 5);
    let battlefield = rules.battlefield();
    for (index, hex) in tokens.iter().enumerate() {
        assert!(!battlefield.has_type(*hex, "starting"));
        assert!(!battlefield.has_type(*hex, "blocked"));
        for other in &tokens[index + 1..] {
            assert!(hex.distance_to(*other) > 2, "{hex:?} {other:?}");
        }
    }
    // Set-up 3 follows: the do-over.
    assert_eq!(request(&game).prompt, "Do-over?");
}

#[test]
fn victory_between_tied_warbands_with_fighters_left_goes_to_the_most_objective_tokens() {
    // Shadespire, victory (000 L713; digest 2.15): tied on glory, both standing, the player
    // controlling more objective tokens (a friendly fighter in the token's hex) wins.
    let rules = rules();
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    let game = scenario(
        &rules,
        9,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            place(ctx, "Severin Steelheart", a);
            ctx.set_hex_type(a, "objective", true);
            ctx.set_counter(Scope::Player(REAVERS), "glory", 2).unwrap();
            ctx.set_counter(Scope::Player(CHAMPIONS), "glory", 2)
                .unwrap();
        },
        vec![frame("victory", &[])],
    );
    let result = game.state().result.clone().expect("the game ended");
    assert_eq!(result.winners, [CHAMPIONS], "{}", result.reason);
}

/// Seat 2 of a three-player match.
const THIRD: PlayerId = PlayerId(2);

#[test]
fn with_three_players_round_two_runs_anticlockwise() {
    // Shadespire, multiplayer (000 L831; digest 2.17): activations go clockwise, round 2
    // anticlockwise, round 3 clockwise again.
    let rules = prepare_for(&[cards_dir()], "shadespire", 3).expect("a three-player match");
    for (round, next) in [(1, CHAMPIONS), (2, THIRD), (3, CHAMPIONS)] {
        let mut game = scenario(
            &rules,
            12,
            move |ctx: &mut Ctx<'_>| {
                ctx.set_counter(Scope::Game, "round", round).unwrap();
            },
            vec![frame(
                "turn",
                &[("player", Value::Player(REAVERS)), ("count", Value::Int(0))],
            )],
        );
        let asked = request(&game);
        assert_eq!(
            (asked.player, asked.prompt.as_str()),
            (REAVERS, "Choose an action")
        );
        answer(&mut game, REAVERS, option("pass"));
        let asked = request(&game);
        assert_eq!(asked.prompt, "Choose an action");
        assert_eq!(asked.player, next, "round {round}");
    }
}

#[test]
fn with_three_players_only_the_warband_that_took_a_fighter_out_gains_glory() {
    // Shadespire, multiplayer (000 L809; digest 2.9, A6): only the player whose warband took
    // the fighter out of action gains the glory, never for their own fighter; in two players
    // the other player gains it whoever dealt the damage.
    let rules = prepare_for(&[cards_dir()], "shadespire", 3).expect("a three-player match");
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    for by_enemy in [true, false] {
        let game = scenario(
            &rules,
            13,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Severin Steelheart", t);
                place(ctx, "Garrek Gorebeard", a);
                let severin = piece(ctx.state(), "Severin Steelheart");
                ctx.set_counter(Scope::Piece(severin), "damage", 4).unwrap();
            },
            vec![if by_enemy {
                frame(
                    "out_of_action",
                    &[
                        ("player", Value::Player(REAVERS)),
                        ("fighter", Value::Piece(id(&rules, "Garrek Gorebeard"))),
                    ],
                )
            } else {
                frame("out_of_action", &[("player", Value::Player(CHAMPIONS))])
            }],
        );
        let state = game.state();
        assert_eq!(hex_of(state, "Severin Steelheart"), None);
        assert_eq!(glory(state, REAVERS), i64::from(by_enemy));
        assert_eq!(glory(state, CHAMPIONS), 0);
        assert_eq!(glory(state, THIRD), 0);
    }
    // Two players: Blood Offering's self-inflicted fall still gives the other player 1.
    let rules = self::rules();
    let game = scenario(
        &rules,
        13,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Targor", t);
            let targor = piece(ctx.state(), "Targor");
            ctx.set_counter(Scope::Piece(targor), "damage", 2).unwrap();
        },
        vec![frame(
            "out_of_action",
            &[("player", Value::Player(REAVERS))],
        )],
    );
    assert_eq!(glory(game.state(), CHAMPIONS), 1);
    assert_eq!(glory(game.state(), REAVERS), 0);
}

#[test]
fn capture_the_artefact_places_it_in_no_ones_territory_before_the_objective_tokens() {
    // Shadespire, Capture the Artefact (000 L721-749; digest 2.17): the player who placed the
    // last board puts the artefact in no one's territory, not on an edge hex; the objective
    // tokens follow, never on it.
    let rules = prepare(&[cards_dir()], "shadespire_artefact").expect("the mode sets up");
    let mut game =
        Game::start(rules.clone(), rules.setup(3), RulesetGame::first_frames()).expect("starts");
    let asked = game.pending()[0].clone();
    assert_eq!(asked.prompt, "Place the Katophrane Artefact");
    assert_eq!(asked.player, CHAMPIONS);
    let hexes: Vec<Hex> = match &asked.options {
        Options::One { choices } => choices
            .iter()
            .filter_map(|c| match c {
                Choice::Hex(h) => Some(*h),
                _ => None,
            })
            .collect(),
        other => panic!("{other:?}"),
    };
    assert!(!hexes.is_empty());
    let battlefield = rules.battlefield();
    for hex in &hexes {
        assert!(!battlefield.is_edge(*hex), "{hex:?} is an edge hex");
        assert!(
            battlefield.territory(*hex).is_none(),
            "{hex:?} is in a territory"
        );
    }
    game.submit(CHAMPIONS, Answer::One(Choice::Hex(hexes[0])))
        .expect("placed");
    let next = game.pending()[0].clone();
    assert_eq!(next.prompt, "Place an objective token");
    if let Options::One { choices } = &next.options {
        assert!(!choices.contains(&Choice::Hex(hexes[0])));
    }
}

#[test]
fn capture_the_artefact_inspires_its_holder_and_gives_three_glory_in_each_end_phase() {
    // Shadespire, Capture the Artefact (000 L749): in each end phase the fighter holding the
    // artefact is inspired and its warband gains 3 glory.
    let rules = prepare(&[cards_dir()], "shadespire_artefact").expect("the mode sets up");
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    let game = scenario(
        &rules,
        4,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Targor", t);
            place(ctx, "Severin Steelheart", a);
            ctx.set_hex_type(t, "artefact", true);
            ctx.set_counter(Scope::Game, "round", 3).unwrap();
        },
        vec![frame("end_phase", &[])],
    );
    let state = game.state();
    assert!(inspired(state, "Targor"));
    assert!(!inspired(state, "Severin Steelheart"));
    assert_eq!(glory(state, REAVERS), 3);
    let result = state.result.clone().expect("round 3 ends the game");
    assert_eq!(result.winners, [REAVERS]);
}

// ---------------------------------------------------------------------------------------
// Set-up and the cards of the seed
// ---------------------------------------------------------------------------------------

#[test]
fn the_battlefield_joins_two_boards_with_at_least_three_completed_hexes_of_no_ones_territory() {
    // Shadespire, set-up 1 (000 L143-163, L389; digest 2.3, differences row 1): long edge to
    // long edge with at least 3 completed hexes, which belong to no one.
    let rules = rules();
    let battlefield = rules.battlefield();
    let no_ones = battlefield
        .hexes()
        .filter(|&h| battlefield.territory(h).is_none())
        .count();
    assert!(no_ones >= 3, "{no_ones} completed hexes");
    assert_eq!(battlefield.hexes().count(), 38 * 2 + no_ones);
}

#[test]
fn the_do_over_discards_a_whole_hand_for_good_and_draws_as_many() {
    // Shadespire, set-up 3 (000 L317; digest 2.3, differences row 6): the discarded cards
    // are not shuffled back (Harrowdeep shuffles them back).
    let rules = rules();
    let mut game = scenario(
        &rules,
        14,
        |_ctx: &mut Ctx<'_>| {},
        vec![frame("draw_hands", &[])],
    );
    let before = zone(game.state(), REAVERS, "power_hand");
    assert_eq!(before.len(), 5);
    answer(&mut game, REAVERS, option("redraw power cards"));
    let state = game.state();
    let mut discarded = zone(state, REAVERS, "power_discard");
    let mut expected = before.clone();
    discarded.sort();
    expected.sort();
    assert_eq!(discarded, expected);
    let after = zone(state, REAVERS, "power_hand");
    assert!(after.iter().all(|c| !before.contains(c)), "{after:?}");
    // The Reavers' power deck holds 7 cards (4 of their own, 3 universal): 2 were left.
    assert_eq!(after.len(), 2);
    assert_eq!(request(&game).player, CHAMPIONS);
}

#[test]
fn the_deployment_roll_off_winner_chooses_who_places_first_and_the_first_to_finish_gets_the_bonus()
{
    // Shadespire, set-up 4 and round 1 (000 L385, L391; digest 2.3-2.4): the winner chooses
    // who places first; the player who finished placing first adds a critical to the first
    // roll-off of round 1 (counter rolloff_bonus = 1 + seat).
    let rules = rules();
    let mut game = scenario(
        &rules,
        15,
        |_ctx: &mut Ctx<'_>| {},
        vec![frame("deploy_order", &[("player", Value::Player(REAVERS))])],
    );
    answer(&mut game, REAVERS, option("let the other place first"));
    let mut placed = Vec::new();
    while let Some(asked) = game.pending().first().map(|r| (*r).clone()) {
        if asked.prompt == "You won the roll-off" {
            break;
        }
        if asked.prompt == "Choose a fighter to place" {
            placed.push(asked.player);
        }
        let choice = match &asked.options {
            Options::One { choices } => choices[0].clone(),
            other => panic!("{other:?}"),
        };
        answer(&mut game, asked.player, choice);
    }
    // Champions first, alternating; the Champions' three are placed first, then the Reavers
    // place their last two.
    assert_eq!(
        placed,
        [
            CHAMPIONS, REAVERS, CHAMPIONS, REAVERS, CHAMPIONS, REAVERS, REAVERS, REAVERS
        ]
    );
    assert_eq!(game_counter(game.state(), "rolloff_bonus"), 2);
}

#[test]
fn an_upgrade_is_played_in_the_end_phase_but_a_ploy_is_not() {
    // Shadespire, end phase step 3 (000 L703; digest 2.14; A1): upgrades may be played, no
    // ploys.
    let rules = rules();
    let r = ring(&rules);
    let t = r.t;
    let mut game = scenario(
        &rules,
        16,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            ctx.set_counter(Scope::Player(REAVERS), "glory", 1).unwrap();
            put_card(ctx, REAVERS, "Great Fortitude", "power_hand");
            put_card(ctx, REAVERS, "Sidestep", "power_hand");
        },
        vec![frame(
            "power_step",
            &[
                ("player", Value::Player(REAVERS)),
                ("count", Value::Int(0)),
                ("data", Value::Str("end_phase".into())),
            ],
        )],
    );
    answer(&mut game, REAVERS, option("play a card"));
    let asked = request(&game);
    let offered = match &asked.options {
        Options::One { choices } => choices.clone(),
        other => panic!("{other:?}"),
    };
    let fortitude = card_id(game.state(), REAVERS, "Great Fortitude");
    assert_eq!(offered, [Choice::Card(fortitude)]);
}

#[test]
fn blood_offering_costs_a_wound_and_adds_two_dice_to_the_next_activations_first_attack_only() {
    // Shadespire, "next" ploys (000 L361-365, L605; card inventory C3): 1 damage, two extra
    // attack dice in the fighter's first Attack action of the next activation.
    let rules = rules();
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    let card = card_id(
        scenario(&rules, 17, |_ctx: &mut Ctx<'_>| {}, vec![]).state(),
        REAVERS,
        "Blood Offering",
    );
    let mut game = scenario(
        &rules,
        17,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Targor", a);
            place(ctx, "Severin Steelheart", t);
        },
        vec![
            frame(
                "card",
                &[
                    ("card", Value::Card(card)),
                    ("player", Value::Player(REAVERS)),
                ],
            ),
            combat(
                &rules,
                "Targor",
                "Severin Steelheart",
                profile("swords", 2, 1, &[]),
            ),
            combat(
                &rules,
                "Targor",
                "Severin Steelheart",
                profile("swords", 2, 1, &[]),
            ),
        ],
    );
    answer(&mut game, REAVERS, Choice::Piece(id(&rules, "Targor")));
    let state = game.state();
    assert_eq!(counter(state, "Targor", "damage"), 1);
    let attacks: Vec<usize> = rolls(game.events())
        .iter()
        .filter(|(die, _)| die == "attack")
        .map(|(_, faces)| faces.len())
        .collect();
    // The first attack rolls 4 dice; the second, 2 (the bonus is used). Drive-back choices
    // may stop the flow after the first: answer them.
    assert_eq!(attacks.first(), Some(&4), "{attacks:?}");
    while let Some(asked) = game.pending().first().map(|r| (*r).clone()) {
        let choice = if options(&asked).contains(&"do not drive back".to_owned()) {
            option("do not drive back")
        } else {
            option("pass")
        };
        answer(&mut game, asked.player, choice);
    }
    let attacks: Vec<usize> = rolls(game.events())
        .iter()
        .filter(|(die, _)| die == "attack")
        .map(|(_, faces)| faces.len())
        .collect();
    assert_eq!(attacks, [4, 2]);
}

#[test]
fn total_offence_adds_two_dice_outside_a_charge_and_ends_the_fighters_phase() {
    // Shadespire, Total Offence (000 L537-543; card inventory C9).
    let rules = rules();
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    let mut game = scenario(
        &rules,
        18,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Obryn the Bold", a);
            place(ctx, "Garrek Gorebeard", t);
            equip(ctx, CHAMPIONS, "Total Offence", "Obryn the Bold");
        },
        vec![frame(
            "attack",
            &[
                ("player", Value::Player(CHAMPIONS)),
                ("fighter", Value::Piece(id(&rules, "Obryn the Bold"))),
                ("target", Value::Piece(id(&rules, "Garrek Gorebeard"))),
                ("data", profile("hammer", 2, 1, &[])),
            ],
        )],
    );
    assert_eq!(request(&game).prompt, "Total Offence?");
    answer(&mut game, CHAMPIONS, option("roll two extra dice"));
    let rolled = rolls(game.events());
    assert_eq!(rolled[0].1.len(), 4);
    assert_eq!(counter(game.state(), "Obryn the Bold", "exhausted"), 1);
}

#[test]
fn berserk_charge_makes_both_symbols_succeed_when_saek_charges() {
    // Shadespire, Berserk Charge (000 L327-355, L613-629; card inventory C6): both attack
    // symbols count when this fighter Charges; not otherwise.
    let rules = rules();
    let r = ring(&rules);
    let mut met_swords = false;
    for charging in [true, false] {
        for seed in 0..80 {
            let (t, a) = (r.t, r.a);
            let game = scenario(
                &rules,
                seed,
                move |ctx: &mut Ctx<'_>| {
                    place(ctx, "Blooded Saek", a);
                    place(ctx, "Severin Steelheart", t);
                    equip(ctx, REAVERS, "Berserk Charge", "Blooded Saek");
                    let saek = piece(ctx.state(), "Blooded Saek");
                    let severin = piece(ctx.state(), "Severin Steelheart");
                    ctx.set_counter(Scope::Piece(saek), "charging", i64::from(charging))
                        .unwrap();
                    ctx.set_characteristic(severin, "wounds", 30).unwrap();
                },
                vec![frame(
                    "attack",
                    &[
                        ("player", Value::Player(REAVERS)),
                        ("fighter", Value::Piece(id(&rules, "Blooded Saek"))),
                        ("target", Value::Piece(id(&rules, "Severin Steelheart"))),
                        ("data", profile("hammer", 2, 1, &[])),
                    ],
                )],
            );
            let rolled = rolls(game.events());
            let (attack, defence) = (&rolled[0].1, &rolled[1].1);
            let terms = Terms {
                defence_symbol: "block",
                ..PLAIN
            };
            let with_hammer = reference(attack, defence, terms);
            let expected = if charging {
                // Both symbols succeed: read every swords as a hammer.
                let both: Vec<String> = attack
                    .iter()
                    .map(|f| {
                        if f == "swords" {
                            "hammer".to_owned()
                        } else {
                            f.clone()
                        }
                    })
                    .collect();
                reference(&both, defence, terms)
            } else {
                with_hammer
            };
            if charging && expected != with_hammer {
                met_swords = true;
            }
            assert_eq!(
                game_counter(game.state(), "attack_outcome"),
                expected,
                "seed {seed}, charging {charging}: {attack:?} {defence:?}"
            );
        }
    }
    assert!(met_swords, "swords never decided a charge");
}

#[test]
fn deadly_spin_attacks_every_adjacent_enemy_one_after_the_other() {
    // Shadespire, Deadly Spin (000 L467-489; card inventory C7) and attacks on several
    // targets (000 L519; A11): one Attack action per adjacent enemy, in the order chosen.
    let rules = rules();
    let r = ring(&rules);
    let (t, beside) = (r.t, r.beside.clone());
    let mut game = scenario(
        &rules,
        19,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Targor", t);
            place(ctx, "Severin Steelheart", beside[0]);
            place(ctx, "Obryn the Bold", beside[1]);
            equip(ctx, REAVERS, "Deadly Spin", "Targor");
        },
        vec![frame("activation", &[("player", Value::Player(REAVERS))])],
    );
    answer(&mut game, REAVERS, option("use an upgrade's action"));
    answer(&mut game, REAVERS, Choice::Piece(id(&rules, "Targor")));
    let spin = card_id(game.state(), REAVERS, "Deadly Spin");
    answer(&mut game, REAVERS, Choice::Card(spin));
    assert_eq!(
        request(&game).prompt,
        "Which adjacent enemy is attacked next?"
    );
    answer(
        &mut game,
        REAVERS,
        Choice::Piece(id(&rules, "Obryn the Bold")),
    );
    while let Some(asked) = game.pending().first().map(|r| (*r).clone()) {
        let choice = if options(&asked).contains(&"do not drive back".to_owned()) {
            option("do not drive back")
        } else {
            option("pass")
        };
        answer(&mut game, asked.player, choice);
    }
    let attacks: Vec<usize> = rolls(game.events())
        .iter()
        .filter(|(die, _)| die == "attack")
        .map(|(_, faces)| faces.len())
        .collect();
    assert_eq!(attacks, [3, 3], "two attacks of 3 dice");
}

#[test]
fn heroic_guard_puts_a_friendly_fighter_on_guard() {
    // Shadespire, Heroic Guard (000 L585-595; card inventory C4).
    let rules = rules();
    let t = ring(&rules).t;
    let card = card_id(
        scenario(&rules, 20, |_ctx: &mut Ctx<'_>| {}, vec![]).state(),
        CHAMPIONS,
        "Heroic Guard",
    );
    let mut game = scenario(
        &rules,
        20,
        move |ctx: &mut Ctx<'_>| place(ctx, "Obryn the Bold", t),
        vec![frame(
            "card",
            &[
                ("card", Value::Card(card)),
                ("player", Value::Player(CHAMPIONS)),
            ],
        )],
    );
    answer(
        &mut game,
        CHAMPIONS,
        Choice::Piece(id(&rules, "Obryn the Bold")),
    );
    assert_eq!(tokens(game.state(), "Obryn the Bold", "guard"), 1);
}

#[test]
fn annihilation_is_scored_in_the_end_phase_when_every_enemy_is_out_of_action() {
    // Shadespire, Annihilation (000 L779-801; card inventory C2): 5 glory.
    let rules = rules();
    let t = ring(&rules).t;
    for wiped in [true, false] {
        let game = scenario(
            &rules,
            21,
            move |ctx: &mut Ctx<'_>| {
                place(ctx, "Targor", t);
                if !wiped {
                    place(ctx, "Obryn the Bold", Hex::new(t.q + 2, t.r));
                }
                put_card(ctx, REAVERS, "Annihilation", "objective_hand");
                ctx.set_counter(Scope::Game, "round", 3).unwrap();
            },
            vec![frame("end_phase", &[])],
        );
        assert_eq!(glory(game.state(), REAVERS), if wiped { 5 } else { 0 });
    }
}

// ---------------------------------------------------------------------------------------
// Matched play (000 L719-751; digest 2.17): the ruleset "shadespire_matched"
// ---------------------------------------------------------------------------------------

fn matched() -> RulesetGame {
    prepare(&[cards_dir()], "shadespire_matched").expect("the matched-play mode sets up")
}

/// The end of game `game` of a match: Garrek and Severin stand, the players have `glory`
/// this game, `wins` games won and `earlier` glory from the finished games.
fn end_of_match_game(
    rules: &RulesetGame,
    game: i64,
    glory: [i64; 2],
    wins: [i64; 2],
    earlier: [i64; 2],
    severin_standing: bool,
) -> Game<Scenario> {
    let r = ring(rules);
    let (t, a) = (r.t, r.a);
    scenario(
        rules,
        22,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            if severin_standing {
                place(ctx, "Severin Steelheart", a);
            }
            ctx.set_hex_type(t, "objective", true);
            ctx.set_counter(Scope::Game, "match_game", game).unwrap();
            ctx.set_counter(Scope::Game, "round", 3).unwrap();
            for seat in 0..2 {
                let p = Scope::Player(PlayerId(seat as u8));
                ctx.set_counter(p, "glory", glory[seat]).unwrap();
                ctx.set_counter(p, "match_wins", wins[seat]).unwrap();
                ctx.set_counter(p, "match_glory", earlier[seat]).unwrap();
            }
            put_card(ctx, REAVERS, "Sidestep", "power_hand");
        },
        vec![frame("victory", &[])],
    )
}

#[test]
fn matched_play_records_a_won_game_and_starts_the_next_one_afresh() {
    // Matched play (000 L719-751): the same warbands and decks; after game 1 the match goes
    // on with everything set up again.
    let rules = matched();
    let game = end_of_match_game(&rules, 1, [3, 1], [0, 0], [0, 0], true);
    let state = game.state();
    assert!(state.result.is_none());
    assert_eq!(player_counter(state, REAVERS, "match_wins"), 1);
    assert_eq!(player_counter(state, CHAMPIONS, "match_wins"), 0);
    assert_eq!(player_counter(state, REAVERS, "match_glory"), 3);
    assert_eq!(player_counter(state, CHAMPIONS, "match_glory"), 1);
    assert_eq!(glory(state, REAVERS), 0);
    assert_eq!(game_counter(state, "match_game"), 2);
    assert_eq!(hex_of(state, "Garrek Gorebeard"), None);
    assert!(zone(state, REAVERS, "power_hand").is_empty());
    assert!(!state.hex_types.iter().any(|(_, name)| name == "objective"));
    assert_eq!(request(&game).prompt, "Place an objective token");
}

#[test]
fn matched_play_ends_when_a_player_has_won_two_games() {
    let rules = matched();
    let game = end_of_match_game(&rules, 2, [0, 4], [0, 1], [5, 2], true);
    let result = game.state().result.clone().expect("the match ended");
    assert_eq!(result.winners, [CHAMPIONS], "{}", result.reason);
}

#[test]
fn matched_play_after_three_level_games_goes_to_total_glory_then_the_standing_warband() {
    // Matched play tiebreakers (000 L741-751): total glory over the three games, then a
    // warband entirely out of action at the end of game 3 loses.
    let rules = matched();
    // Game 3 drawn (equal glory, both standing, Garrek on the only objective token: the
    // Reavers win it). Wins 1-1 before: Reavers 2 wins, match over.
    let game = end_of_match_game(&rules, 3, [2, 2], [1, 1], [0, 0], true);
    assert_eq!(game.state().result.clone().unwrap().winners, [REAVERS]);
    // The Champions win game 3 on glory: one game each (game 1 or 2 was drawn). Total glory
    // decides: 1 + 9 against 2 + 0.
    let game = end_of_match_game(&rules, 3, [1, 2], [1, 0], [9, 0], false);
    assert_eq!(game.state().result.clone().unwrap().winners, [REAVERS]);
    // Level on total glory too (2 and 2): the Champions' warband is entirely out of action at
    // the end of game 3, so the Reavers win.
    let game = end_of_match_game(&rules, 3, [1, 2], [1, 0], [1, 0], false);
    let result = game.state().result.clone().unwrap();
    assert_eq!(result.winners, [REAVERS]);
    assert_eq!(result.reason, "won the match after three games");
}

#[test]
fn matched_play_level_on_wins_and_glory_with_both_standing_plays_sudden_death() {
    // Matched play (000 L751): sudden-death rounds: no drawing, no power cards, no scoring;
    // the first to eliminate the other warband wins.
    let rules = matched();
    // Game 3 is drawn on glory and tokens (no token held): wins stay 1-1, glory level.
    let r = ring(&rules);
    let (t, a) = (r.t, r.a);
    let mut game = scenario(
        &rules,
        23,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            place(ctx, "Severin Steelheart", a);
            ctx.set_counter(Scope::Game, "match_game", 3).unwrap();
            ctx.set_counter(Scope::Game, "round", 3).unwrap();
            for seat in 0..2u8 {
                let p = Scope::Player(PlayerId(seat));
                ctx.set_counter(p, "match_wins", 1).unwrap();
                ctx.set_counter(p, "match_glory", 4).unwrap();
            }
            put_card(ctx, REAVERS, "Sidestep", "power_hand");
        },
        vec![frame("victory", &[])],
    );
    assert!(game.state().result.is_none());
    assert_eq!(game_counter(game.state(), "sudden_death"), 1);
    assert_eq!(game_counter(game.state(), "round"), 4);
    let asked = request(&game);
    assert_eq!(asked.prompt, "You won the roll-off");
    answer(&mut game, asked.player, option("take the first activation"));
    let asked = request(&game);
    assert_eq!(asked.prompt, "Choose an action");
    let choices = options(&asked);
    assert!(
        !choices.contains(&"draw a power card".to_owned()),
        "{choices:?}"
    );
    assert!(
        !choices.contains(&"swap an objective".to_owned()),
        "{choices:?}"
    );
    // In sudden death, an activation after which only the Reavers have fighters left ends
    // the match.
    let finished = scenario(
        &rules,
        23,
        move |ctx: &mut Ctx<'_>| {
            place(ctx, "Garrek Gorebeard", t);
            ctx.set_counter(Scope::Game, "sudden_death", 1).unwrap();
        },
        vec![frame(
            "end_activation",
            &[("player", Value::Player(REAVERS))],
        )],
    );
    let result = finished.state().result.clone().expect("the match ended");
    assert_eq!(result.winners, [REAVERS], "{}", result.reason);
}

#[test]
fn matched_play_games_end_without_error() {
    let rules = matched();
    for seed in 1..=10 {
        let summary = play_one(&rules, seed);
        assert_eq!(summary.error, None, "seed {seed}");
        assert_eq!(
            summary.winners.len(),
            1,
            "seed {seed}: a match has one winner"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Whole games
// ---------------------------------------------------------------------------------------

#[test]
fn a_hundred_seeded_games_end_without_error_and_keep_the_invariants() {
    // Whole games with random agents (play_one checks the invariants after every decision:
    // no two fighters in a hex, damage never above Wounds, glory never negative, every card
    // in one zone).
    let rules = rules();
    // 100 games (about 40 s in a test build; `gloam sim shadespire --games 200` runs more).
    let mut scored_glory = 0;
    for seed in 1..=100 {
        let summary = play_one(&rules, seed);
        assert_eq!(summary.error, None, "seed {seed}");
        assert!(!summary.winners.is_empty(), "seed {seed}: no result");
        scored_glory += summary.glory.iter().sum::<i64>();
    }
    assert!(scored_glory > 0, "no glory in 100 games");
}

#[test]
fn simulation_results_do_not_depend_on_the_job_count() {
    let paths = [cards_dir()];
    let one = simulate(&paths, "shadespire", 12, 40, 1, &|_| {}).expect("runs");
    let three = simulate(&paths, "shadespire", 12, 40, 3, &|_| {}).expect("runs");
    assert_eq!(one, three);
    assert!(one.errors.is_empty());
}

// ---------------------------------------------------------------------------------------
// Deck building (digest 2.16)
// ---------------------------------------------------------------------------------------

/// The problem codes of loading the shipped data plus `extra`.
fn deck_problems(extra: &str) -> Vec<String> {
    let host = gloam_dsl::Host::new();
    let mut sources = Vec::new();
    let mut files: Vec<std::path::PathBuf> = ["underworlds", "shadespire"]
        .iter()
        .flat_map(|dir| {
            std::fs::read_dir(cards_dir().join(dir))
                .expect("data folder")
                .map(|e| e.expect("entry").path())
        })
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        sources.push(gloam::load::Source::new(file.display().to_string(), text));
    }
    sources.push(gloam::load::Source::new("extra.gloam", extra));
    let (_, problems) = gloam::load::load(&sources, &host);
    problems
        .iter()
        .map(|p| {
            miette::Diagnostic::code(p)
                .map(|c| c.to_string())
                .unwrap_or_default()
        })
        .collect()
}

/// Test-only Shadespire cards (`objectives` objectives and 20 upgrades) and a Garrek's
/// Reavers decklist holding every one of them.
fn shadespire_decklist(objectives: usize) -> String {
    let mut text = String::new();
    let mut objective_names = Vec::new();
    for n in 0..objectives {
        text.push_str(&format!(
            "card \"Test Objective {n}\" {{\n ruleset = \"shadespire\"\n kind = objective\n owner = universal\n glory = 1\n score = end_phase\n text = \"Test fixture.\"\n}}\n"
        ));
        objective_names.push(format!("\"Test Objective {n}\""));
    }
    let mut power_names = Vec::new();
    for n in 0..20 {
        text.push_str(&format!(
            "card \"Test Upgrade {n}\" {{\n ruleset = \"shadespire\"\n kind = upgrade\n owner = universal\n text = \"Test fixture.\"\n}}\n"
        ));
        power_names.push(format!("\"Test Upgrade {n}\""));
    }
    text.push_str(&format!(
        "decklist \"Test Deck\" {{\n ruleset = \"shadespire\"\n warband = \"Garrek's Reavers\"\n deck \"objective\" {{ cards = [{}] }}\n deck \"power\" {{ cards = [{}] }}\n}}\n",
        objective_names.join(", "),
        power_names.join(", ")
    ));
    text
}

/// Shadespire deck building (000 L113; digest 2.16): the objective deck holds exactly 12
/// cards, so 13 is as wrong as 11 (the data said "at least 12" before).
#[test]
fn a_shadespire_objective_deck_holds_exactly_twelve_cards() {
    assert_eq!(
        deck_problems(&shadespire_decklist(12)),
        Vec::<String>::new()
    );
    assert_eq!(
        deck_problems(&shadespire_decklist(11)),
        ["gloam::grammar::deck_too_small"]
    );
    assert_eq!(
        deck_problems(&shadespire_decklist(13)),
        ["gloam::grammar::deck_too_large"]
    );
}

/// Shadespire, end phase (000 L703, steps 1-5; digest 2.14): each player runs the whole
/// sequence in turn, starting with the player who took the first activation: score,
/// discard any objective cards, play upgrades, discard any power cards, draw. The discards
/// are offered (they were not), and the second player begins only once the first has drawn.
#[test]
fn each_player_runs_the_whole_end_phase_sequence_in_turn_with_its_discards() {
    let rules = rules();
    let mut game = scenario(
        &rules,
        8,
        move |ctx: &mut Ctx<'_>| {
            ctx.set_counter(Scope::Game, "round", 1).unwrap();
            ctx.set_counter(Scope::Game, "first_seat", 0).unwrap();
            put_card(ctx, REAVERS, "Let the Blood Flow", "objective_hand");
            put_card(ctx, REAVERS, "Blood Offering", "power_hand");
            put_card(ctx, CHAMPIONS, "Annihilation", "objective_hand");
        },
        vec![frame("end_phase", &[])],
    );
    let before = zone(game.state(), REAVERS, "objective_hand");
    assert!(!before.is_empty(), "the Reavers hold objectives");
    let asked = request(&game);
    assert_eq!(
        (asked.player, asked.prompt.as_str()),
        (REAVERS, "Discard an objective card?")
    );
    answer(&mut game, REAVERS, option("discard a card"));
    let asked = request(&game);
    let first = match &asked.options {
        Options::One { choices } => choices[0].clone(),
        other => panic!("{other:?}"),
    };
    answer(&mut game, REAVERS, first);
    assert_eq!(zone(game.state(), REAVERS, "objective_discard").len(), 1);
    // Keep the rest; then the Reavers' power cards, still before the Champions' turn.
    answer(&mut game, REAVERS, option("keep the rest"));
    let mut asked_champions_at = None;
    for _ in 0..40 {
        let Some(asked) = game.pending().first().map(|r| (*r).clone()) else {
            break;
        };
        if asked.player == CHAMPIONS && asked_champions_at.is_none() {
            // The Reavers' sequence is over: they drew back up to 3 objectives (their deck
            // allowing) before the Champions were asked anything.
            asked_champions_at = Some(zone(game.state(), REAVERS, "objective_hand").len());
        }
        let choice = match &asked.options {
            Options::One { choices } => choices
                .iter()
                .find(|c| ["keep the rest", "pass"].contains(&c.to_string().as_str()))
                .cloned()
                .unwrap_or_else(|| choices[0].clone()),
            other => panic!("{other:?}"),
        };
        answer(&mut game, asked.player, choice);
    }
    let reavers_deck_left = zone(game.state(), REAVERS, "objective_deck").len();
    let refilled = asked_champions_at.expect("the Champions run their sequence too");
    assert!(
        refilled == 3 || reavers_deck_left == 0,
        "{refilled} objectives, {reavers_deck_left} left in the deck"
    );
}
