//! One battlefield situation, three editions (issue 5): the same fighters' positions, the
//! same tokens and the same dice, resolved by the Shadespire, Harrowdeep and Embergard
//! rules from their data, with the outcomes each rulebook gives.
//!
//! Each situation puts an attacker next to its target on open ground of the edition's own
//! default battlefield, places supporters or blockers around them, loads the dice
//! (`Ctx::fix_dice`: the attack and defence faces named below, then faces that count for
//! nothing), and makes the attacker's Attack action through the edition's own flow. The
//! fighters are each edition's own (Steelheart's Champions against Garrek's Reavers; Da
//! Kunnin' Krew and Xandire's Truthseekers in Harrowdeep and in our Embergard conversions),
//! so the dice are given as roles: the weapon's symbol, the target's defence symbol, and the
//! other symbols of each die.

use gloam::core::{
    Answer, Choice, Ctx, Event, Frame, Game, Hex, ModOp, ModTarget, ModifierSpec, Options, PieceId,
    Position, Scope, Value,
};
use gloam::engine::RulesetGame;
use gloam::load::read_paths;
use gloam::sim::{check_invariants, prepare};
use gloam_grammar::{FighterDef, Library, Side};

mod scenario;
use scenario::{Scenario, cards_dir, piece};

const EDITIONS: [&str; 3] = ["shadespire", "harrowdeep", "embergard"];

fn library() -> Library {
    let (sources, problems) = read_paths(&[cards_dir()]);
    assert!(problems.is_empty());
    let (library, problems) = gloam_grammar::load(&sources);
    assert!(problems.is_empty(), "{problems:?}");
    library
}

/// What the dice show, by role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Face {
    Critical,
    /// The attacking weapon's symbol, or the target's defence symbol.
    Symbol,
    /// The other symbol of the die (the one that does not count unless on Guard).
    Other,
    SingleSupport,
    DoubleSupport,
}

/// Who stands where, around attacker A and target T (neighbours in direction `d`).
#[derive(Clone, Copy, Debug, Default)]
struct Layout {
    /// Friends of the attacker next to the target (and the attacker): 0 to 2.
    attack_supporters: usize,
    /// Friends of the target next to the attacker, not the target: 0 to 2.
    defence_supporters: usize,
    /// Friends of the target filling the three hexes behind it, so it cannot be driven back.
    trapped: bool,
    /// The target is on Guard.
    guard: bool,
}

/// The edition's match, its fighters, and the roles' faces.
struct Edition {
    name: &'static str,
    rules: RulesetGame,
    attacker: String,
    target: String,
    attacker_friends: Vec<String>,
    target_friends: Vec<String>,
    weapon: String,
    weapon_dice: i64,
    attack_faces: Faces,
    defence_faces: Faces,
}

struct Faces {
    symbol: String,
    other: String,
}

impl Faces {
    fn of(&self, face: Face) -> String {
        match face {
            Face::Critical => "critical".into(),
            Face::Symbol => self.symbol.clone(),
            Face::Other => self.other.clone(),
            Face::SingleSupport => "single_support".into(),
            Face::DoubleSupport => "double_support".into(),
        }
    }
}

/// The die's face that is neither critical nor a support symbol nor `symbol`.
fn other_face(library: &Library, ruleset: &str, die: &str, symbol: &str) -> String {
    let ruleset = library.ruleset(ruleset).expect("ruleset");
    let die = ruleset.dice.iter().find(|d| d.name == die).expect("die");
    die.faces
        .iter()
        .map(|f| f.name.clone())
        .find(|f| !["critical", "single_support", "double_support", symbol].contains(&f.as_str()))
        .expect("a second symbol")
}

fn fighters<'a>(library: &'a Library, warband: &str) -> &'a [FighterDef] {
    &library.warband(warband).expect("warband").fighters
}

fn edition(library: &Library, name: &'static str) -> Edition {
    let rules = prepare(&[cards_dir()], name).expect("the edition sets up a match");
    let seats = &rules.spec().seats;
    // The target's warband is the larger one: it needs three friends for the trapped case.
    let (attacking, defending) = if fighters(library, &seats[0].warband).len()
        >= fighters(library, &seats[1].warband).len()
    {
        (&seats[1].warband, &seats[0].warband)
    } else {
        (&seats[0].warband, &seats[1].warband)
    };
    let attackers = fighters(library, attacking);
    let defenders = fighters(library, defending);
    assert!(attackers.len() >= 3 && defenders.len() >= 4, "{name}");
    // The attacker: the first fighter with a melee weapon (range 1) on its usual side.
    let (attacker, weapon) = attackers
        .iter()
        .find_map(|f| {
            f.weapons
                .iter()
                .find(|w| w.range == 1 && w.side != Some(Side::Inspired))
                .map(|w| (f, w))
        })
        .expect("a fighter with a range 1 weapon");
    let target = &defenders[0];
    let defence_symbol = target
        .symbols
        .iter()
        .find(|s| s.characteristic == "defence")
        .map(|s| s.face.clone())
        .expect("the target's defence symbol");
    Edition {
        name,
        attacker: attacker.name.clone(),
        target: target.name.clone(),
        attacker_friends: attackers
            .iter()
            .filter(|f| f.name != attacker.name)
            .map(|f| f.name.clone())
            .collect(),
        target_friends: defenders[1..].iter().map(|f| f.name.clone()).collect(),
        weapon: weapon.name.clone(),
        weapon_dice: weapon.dice,
        attack_faces: Faces {
            other: other_face(library, name, "attack", &weapon.symbol),
            symbol: weapon.symbol.clone(),
        },
        defence_faces: Faces {
            other: other_face(library, name, "defence", &defence_symbol),
            symbol: defence_symbol,
        },
        rules,
    }
}

/// Two neighbouring hexes (target, attacker) such that the target, the attacker and every
/// hex next to either are plain battlefield hexes: no blocked, lethal, cover, stagger or
/// edge hex.
fn duel_hexes(rules: &RulesetGame) -> (Hex, Hex) {
    let battlefield = rules.battlefield();
    let plain = |h: Hex| {
        battlefield.contains(h)
            && ["blocked", "lethal", "cover", "stagger_hex", "edge"]
                .iter()
                .all(|t| !battlefield.has_type(h, t))
    };
    let clear = |h: Hex| plain(h) && h.neighbors().into_iter().all(plain);
    let mut hexes: Vec<Hex> = battlefield.hexes().collect();
    hexes.sort();
    hexes
        .iter()
        .filter(|&&t| clear(t))
        .find_map(|&t| {
            t.neighbors()
                .into_iter()
                .find(|&a| clear(a))
                .map(|a| (t, a))
        })
        .expect("open ground for a duel")
}

/// Plays the attacker's Attack action on the target under `edition`'s rules with `layout`
/// and the loaded dice; returns the game after it.
fn resolve(edition: &Edition, layout: Layout, attack: &[Face], defence: &[Face]) -> Game<Scenario> {
    let (t, a) = duel_hexes(&edition.rules);
    let common: Vec<Hex> = t
        .neighbors()
        .into_iter()
        .filter(|h| a.neighbors().contains(h))
        .collect();
    let behind: Vec<Hex> = t
        .neighbors()
        .into_iter()
        .filter(|h| h.distance_to(a) == 2)
        .collect();
    let beside_attacker: Vec<Hex> = a
        .neighbors()
        .into_iter()
        .filter(|h| *h != t && h.distance_to(t) == 2)
        .collect();
    let mut places: Vec<(String, Hex)> =
        vec![(edition.attacker.clone(), a), (edition.target.clone(), t)];
    for (name, hex) in edition
        .attacker_friends
        .iter()
        .zip(&common)
        .take(layout.attack_supporters)
    {
        places.push((name.clone(), *hex));
    }
    let mut friends = edition.target_friends.iter();
    for hex in beside_attacker.iter().take(layout.defence_supporters) {
        places.push((friends.next().expect("a friend").clone(), *hex));
    }
    if layout.trapped {
        for hex in &behind {
            places.push((friends.next().expect("a friend").clone(), *hex));
        }
    }
    // Exactly as many dice as faces named: the weapon's Dice and the target's Defence are
    // modified as cards modify them.
    let extra_attack_dice = attack.len() as i64 - edition.weapon_dice;
    let defence_dice = defence.len() as i64;
    let attacker_name = edition.attacker.clone();
    let mut attack_faces: Vec<String> =
        attack.iter().map(|f| edition.attack_faces.of(*f)).collect();
    let mut defence_faces: Vec<String> = defence
        .iter()
        .map(|f| edition.defence_faces.of(*f))
        .collect();
    // Dice beyond the named ones show a symbol that counts for nothing here.
    attack_faces.extend(std::iter::repeat_n(edition.attack_faces.other.clone(), 8));
    defence_faces.extend(std::iter::repeat_n(edition.defence_faces.other.clone(), 8));
    let target = edition.target.clone();
    let guard = layout.guard;
    let arrange = move |ctx: &mut Ctx<'_>| {
        for (name, hex) in &places {
            let id = piece(ctx.state(), name);
            ctx.place_piece(id, Some(Position::Hex(*hex)), vec![], "deploy")
                .expect("place");
        }
        let attacker = piece(ctx.state(), &attacker_name);
        let defender = piece(ctx.state(), &target);
        ctx.add_modifier(ModifierSpec::new(
            ModTarget::Piece(attacker),
            "attack_dice",
            ModOp::Add(extra_attack_dice),
        ))
        .expect("attack dice");
        ctx.add_modifier(ModifierSpec::new(
            ModTarget::Piece(defender),
            "defence",
            ModOp::Set(defence_dice),
        ))
        .expect("defence dice");
        if guard {
            let id = piece(ctx.state(), &target);
            ctx.set_tokens(Scope::Piece(id), "guard", 1).expect("guard");
        }
        let attack: Vec<&str> = attack_faces.iter().map(String::as_str).collect();
        let defence: Vec<&str> = defence_faces.iter().map(String::as_str).collect();
        ctx.fix_dice("attack", &attack);
        ctx.fix_dice("defence", &defence);
    };
    let probe = Game::start(edition.rules.clone(), edition.rules.setup(7), vec![]).expect("start");
    let attacker = piece(probe.state(), &edition.attacker);
    let target = piece(probe.state(), &edition.target);
    let owner = probe.state().pieces[&attacker].owner;
    let frame = Frame::new("attack_action")
        .with("player", Value::Player(owner))
        .with("fighter", Value::Piece(attacker))
        .with("target", Value::Piece(target));
    let scenario = Scenario {
        rules: edition.rules.clone(),
        arrange: Box::new(arrange),
    };
    let mut game = Game::start(scenario, edition.rules.setup(7), vec![frame]).expect("starts");
    play_out(&mut game, edition, target);
    // The rolls are the loaded ones: each roll starts with the faces named.
    let rolled = |die: &str| -> Vec<String> {
        game.events()
            .iter()
            .find_map(|e| match e {
                Event::Rolled { dice, .. } if dice.first().is_some_and(|d| d.die == die) => {
                    Some(dice.iter().map(|d| d.face.clone()).collect())
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("{}: no {die} roll", edition.name))
    };
    for (die, named, faces) in [
        ("attack", attack, &edition.attack_faces),
        ("defence", defence, &edition.defence_faces),
    ] {
        let expected: Vec<String> = named.iter().map(|f| faces.of(*f)).collect();
        let got = rolled(die);
        assert!(
            got.len() >= expected.len() && got[..expected.len()] == expected[..],
            "{}: {die} roll {got:?}, loaded {expected:?}",
            edition.name
        );
    }
    game
}

/// Answers the flow's questions until the attack is over: the weapon under test, the
/// target, no weapon ability, no re-roll, no reaction, and "drive back" whenever offered
/// (so that whether a drive back happens is the rules' decision).
fn play_out(game: &mut Game<Scenario>, edition: &Edition, target: PieceId) {
    for _ in 0..100 {
        let Some(request) = game.pending().first().map(|r| (*r).clone()) else {
            return;
        };
        let Options::One { choices } = &request.options else {
            panic!("{}: unexpected request {request:?}", edition.name);
        };
        let texts: Vec<String> = choices.iter().map(ToString::to_string).collect();
        let wanted = |text: &str| choices.iter().find(|c| c.to_string() == text).cloned();
        let drive = texts.iter().position(|t| {
            let t = t.to_lowercase();
            t.contains("drive") && !t.starts_with("do not") && !t.starts_with("don't")
        });
        let choice = if choices.contains(&Choice::Piece(target)) {
            Choice::Piece(target)
        } else if let Some(weapon) = wanted(&edition.weapon) {
            weapon
        } else if let Some(passive) = ["none", "keep the roll", "pass"]
            .iter()
            .find_map(|p| wanted(p))
        {
            passive
        } else if let Some(i) = drive {
            choices[i].clone()
        } else {
            choices[0].clone()
        };
        game.submit(request.player, Answer::One(choice))
            .unwrap_or_else(|error| panic!("{}: {error}", edition.name));
        check_invariants(game.state()).expect("invariants");
    }
    panic!(
        "{}: the attack did not end within 100 decisions",
        edition.name
    );
}

fn damage(game: &Game<Scenario>, kind: &str) -> i64 {
    let state = game.state();
    state.pieces[&piece(state, kind)]
        .counters
        .get("damage")
        .copied()
        .unwrap_or(0)
}

fn hex_of(game: &Game<Scenario>, kind: &str) -> Option<Hex> {
    let state = game.state();
    state.pieces[&piece(state, kind)]
        .position
        .and_then(Position::hex)
}

/// Each edition's result: (damage dealt to the target, whether it stands on another hex).
fn outcomes(layout: Layout, attack: &[Face], defence: &[Face]) -> Vec<(&'static str, i64, bool)> {
    let library = library();
    EDITIONS
        .iter()
        .map(|name| {
            let edition = edition(&library, name);
            let start = duel_hexes(&edition.rules).0;
            let game = resolve(&edition, layout, attack, defence);
            (
                *name,
                damage(&game, &edition.target),
                hex_of(&game, &edition.target).is_some_and(|h| h != start),
            )
        })
        .collect()
}

fn hit(result: &[(&str, i64, bool)], edition: &str) -> bool {
    result
        .iter()
        .find(|(name, ..)| *name == edition)
        .map(|(_, damage, _)| *damage > 0)
        .expect("edition")
}

fn moved(result: &[(&str, i64, bool)], edition: &str) -> bool {
    result
        .iter()
        .find(|(name, ..)| *name == edition)
        .map(|(.., moved)| *moved)
        .expect("edition")
}

#[test]
fn support_two_each_side_counts_in_harrowdeep_and_embergard_and_cancels_in_shadespire() {
    // Attack roll: critical, single support, double support; defence roll: critical and the
    // target's symbol. Two attackers' friends flank the target, two of the target's friends
    // stand by the attacker.
    // - Shadespire, support (000 L517-533; digest 2.8): support is relative, 2 - 2 = 0, so
    //   only the critical counts: 1 against 2, the attack fails.
    // - Harrowdeep, support (002 L2408-2458; digest 3.10): absolute on both sides: the
    //   attack counts 3 (critical, single, double support) against 2, a hit.
    // - Embergard, flanked and surrounded (001 L285-297; digest 4.8): the target is
    //   surrounded by two enemies, so both support symbols count: 3 against 2, a hit.
    let layout = Layout {
        attack_supporters: 2,
        defence_supporters: 2,
        ..Layout::default()
    };
    let result = outcomes(
        layout,
        &[Face::Critical, Face::SingleSupport, Face::DoubleSupport],
        &[Face::Critical, Face::Symbol],
    );
    assert!(!hit(&result, "shadespire"), "{result:?}");
    assert!(hit(&result, "harrowdeep"), "{result:?}");
    assert!(hit(&result, "embergard"), "{result:?}");
}

#[test]
fn more_criticals_win_outright_in_shadespire_and_harrowdeep_but_not_in_embergard() {
    // Attack roll: one critical and a symbol that does not count; defence roll: the
    // target's symbol twice. No supporters.
    // - Shadespire, combat step 5 (000 L515; digest 2.8) and Harrowdeep, combat step 4
    //   (002 L2319-2396; digest 3.9): more criticals win whatever the totals: a critical hit.
    // - Embergard, determine success (001 L255-269; digest 4.8): criticals are plain
    //   successes, 1 against 2, the attack fails; more criticals only mean overrun
    //   (001 L361-365).
    let result = outcomes(
        Layout::default(),
        &[Face::Critical, Face::Other],
        &[Face::Symbol, Face::Symbol],
    );
    assert!(hit(&result, "shadespire"), "{result:?}");
    assert!(hit(&result, "harrowdeep"), "{result:?}");
    assert!(!hit(&result, "embergard"), "{result:?}");
}

#[test]
fn equal_totals_against_a_trapped_target_succeed_except_in_embergard() {
    // Attack roll: the weapon's symbol; defence roll: the target's symbol. The three hexes
    // behind the target hold its friends, so it cannot be driven back.
    // - Shadespire, combat (000 L509; digest 2.8, differences row 17): equal totals
    //   against a target that cannot be driven back are a success.
    // - Harrowdeep, combat step 4 (002 L2352-2361; digest 3.9): a trapped target adds a
    //   success to the attack: 2 against 1, a hit.
    // - Embergard, determine success (001 L255-283; digest 4.8, differences row 17): equal
    //   totals are a drawn attack, which fails; there is no trapped rule.
    let layout = Layout {
        trapped: true,
        ..Layout::default()
    };
    let result = outcomes(
        layout,
        &[Face::Symbol, Face::Other],
        &[Face::Symbol, Face::Other],
    );
    assert!(hit(&result, "shadespire"), "{result:?}");
    assert!(hit(&result, "harrowdeep"), "{result:?}");
    assert!(!hit(&result, "embergard"), "{result:?}");
}

#[test]
fn a_guarded_target_is_driven_back_only_in_shadespire() {
    // The target is on Guard. Attack roll: the weapon's symbol twice; defence roll (one
    // die): the target's other symbol, which Guard makes count: 2 against 1, a hit in every
    // edition.
    // - Shadespire, Guard (000 L573, L861; digest 2.5): Guard lets both symbols count and
    //   says nothing of drive backs, so a guarded fighter is driven back like any other.
    // - Harrowdeep, Guard (002 L2598-2606; digest 3.6): a fighter on Guard cannot be driven
    //   back.
    // - Embergard, Guard (001 L147-149, L355-359; digest 4.5, 4.8): a guarding fighter is
    //   not driven back.
    let layout = Layout {
        guard: true,
        ..Layout::default()
    };
    let result = outcomes(layout, &[Face::Symbol, Face::Symbol], &[Face::Other]);
    for edition in EDITIONS {
        assert!(hit(&result, edition), "{edition}: {result:?}");
    }
    assert!(moved(&result, "shadespire"), "{result:?}");
    assert!(!moved(&result, "harrowdeep"), "{result:?}");
    assert!(!moved(&result, "embergard"), "{result:?}");
}
