//! Chance mode: rolls as chance nodes a host can read and answer (`Game::set_chance_mode`,
//! `chance_pending`, `chance_outcomes`, `apply_chance`).

use std::collections::BTreeMap;

use gloam_core::{
    Answer, ChanceOutcome, Choice, Control, Ctx, Dice, DieDef, DieFace, FaceCount, Frame, Game,
    GameError, GameResult, Options, PlayerId, Pool, Ratio, Request, RuleError, Rules, Setup, Value,
};

/// A die with uneven faces: `star` ×1, `moon` ×2, `sun` ×3.
fn sky() -> Dice {
    Dice::from_defs([DieDef::new(
        "sky",
        vec![
            DieFace::new("star", 1),
            DieFace::new("moon", 2),
            DieFace::new("sun", 3),
        ],
    )
    .unwrap()])
    .unwrap()
}

/// Rolls two sky dice; player 0 may re-roll one die that is not a star; the number of
/// stars is the seat of the winner. As rules written in Rust must, the step keeps what it
/// rolled in its frame (stage 0 rolls, stage 1 asks), since a step that asks runs again
/// after the answer. The re-roll is a fresh roll of one die.
#[derive(Clone)]
struct StarHunt(Dice);

fn faces_of(frame: &Frame) -> Vec<String> {
    match frame.var("faces") {
        Some(Value::List(items)) => items
            .iter()
            .filter_map(|v| match v {
                Value::Str(s) => Some(s.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn end_with(faces: &[String]) -> Control {
    let stars = faces.iter().filter(|f| *f == "star").count() as u8;
    Control::End(GameResult {
        winners: vec![PlayerId(stars)],
        reason: "stars".into(),
    })
}

impl Rules for StarHunt {
    fn start(&self, _ctx: &mut Ctx<'_>, _setup: &Setup) -> Result<(), RuleError> {
        Ok(())
    }

    fn step(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
        if frame.stage == 0 {
            let roll = ctx.roll(Some(PlayerId(0)), "hunt", &self.0, &Pool::of("sky", 2))?;
            let faces = roll
                .dice()
                .iter()
                .map(|d| Value::Str(d.face.clone()))
                .collect();
            frame.vars.insert("faces".into(), Value::List(faces));
            frame.stage = 1;
            return Ok(Control::Continue);
        }
        let mut faces = faces_of(frame);
        let misses: Vec<usize> = (0..faces.len()).filter(|&i| faces[i] != "star").collect();
        if misses.is_empty() {
            return Ok(end_with(&faces));
        }
        let Some(answer) = frame.answers.first() else {
            let mut choices = vec![Choice::Pass];
            choices.extend(misses.iter().map(|&i| Choice::Number(i as i64)));
            return Ok(Control::Ask(Request {
                player: PlayerId(0),
                kind: "reroll".into(),
                prompt: "Re-roll a die?".into(),
                options: Options::One { choices },
                secret: false,
            }));
        };
        if let Answer::One(Choice::Number(i)) = answer {
            let again = ctx.roll(Some(PlayerId(0)), "hunt", &self.0, &Pool::of("sky", 1))?;
            faces[*i as usize] = again.dice()[0].face.clone();
        }
        Ok(end_with(&faces))
    }
}

/// Rolls two sky dice and re-rolls (`Ctx::reroll`) each die that is not a star, all in one
/// step; the number of stars is the seat of the winner.
#[derive(Clone)]
struct AutoHunt(Dice);

impl Rules for AutoHunt {
    fn start(&self, _ctx: &mut Ctx<'_>, _setup: &Setup) -> Result<(), RuleError> {
        Ok(())
    }

    fn step(&self, ctx: &mut Ctx<'_>, _frame: &mut Frame) -> Result<Control, RuleError> {
        let mut roll = ctx.roll(None, "hunt", &self.0, &Pool::of("sky", 2))?;
        for i in 0..roll.len() {
            if roll.dice()[i].face != "star" {
                ctx.reroll("hunt again", &mut roll, i)?;
            }
        }
        let faces: Vec<String> = roll.dice().iter().map(|d| d.face.clone()).collect();
        Ok(end_with(&faces))
    }
}

fn hunt(seed: u64) -> Game<StarHunt> {
    Game::start(
        StarHunt(sky()),
        Setup::new(seed, &["A", "B", "C"]),
        vec![Frame::new("hunt")],
    )
    .unwrap()
}

fn r(num: u128, den: u128) -> Ratio {
    Ratio::new(num, den).unwrap()
}

fn line(face: &str, count: u32) -> FaceCount {
    FaceCount {
        die: "sky".into(),
        face: face.into(),
        count,
    }
}

#[test]
fn chance_outcomes_of_two_dice_are_pooled_by_face_and_exact() {
    let outcomes = sky().outcomes(&Pool::of("sky", 2)).unwrap();
    let shown: Vec<(String, Ratio)> = outcomes.iter().map(|(o, p)| (o.to_string(), *p)).collect();
    assert_eq!(
        shown,
        [
            ("2 star".to_string(), r(1, 36)),
            ("1 star, 1 moon".to_string(), r(4, 36)),
            ("1 star, 1 sun".to_string(), r(6, 36)),
            ("2 moon".to_string(), r(4, 36)),
            ("1 moon, 1 sun".to_string(), r(12, 36)),
            ("2 sun".to_string(), r(9, 36)),
        ]
    );
    // Five dice of six faces: C(10, 5) = 252 pooled outcomes, adding up to 1.
    let d6 = Dice::from_defs([DieDef::numeric(6).unwrap()]).unwrap();
    let five = d6.outcomes(&Pool::of("d6", 5)).unwrap();
    assert_eq!(five.len(), 252);
    let total = five
        .iter()
        .try_fold(Ratio::ZERO, |sum, (_, p)| sum.checked_add(*p))
        .unwrap();
    assert_eq!(total, Ratio::ONE);
}

#[test]
fn normal_play_is_unchanged_and_seeded() {
    // Chance mode off: two games of the same seed give the same log, and the log holds a
    // roll drawn from the RNG.
    let mut a = hunt(7);
    let mut b = hunt(7);
    if !a.is_over() {
        a.submit(PlayerId(0), Answer::One(Choice::Pass)).unwrap();
        b.submit(PlayerId(0), Answer::One(Choice::Pass)).unwrap();
    }
    assert_eq!(a.events(), b.events());
    assert!(!a.chance_mode());
    assert!(a.chance_pending().is_none());
    assert_eq!(a.chance_outcomes().unwrap(), vec![]);
}

#[test]
fn chance_mode_stops_before_each_roll_and_reruns_with_the_outcomes() {
    let mut game = Game::start(StarHunt(sky()), Setup::new(1, &["A", "B", "C"]), vec![]).unwrap();
    game.set_chance_mode(true).unwrap();
    game.push_frame(Frame::new("hunt")).unwrap();
    let request = game.chance_pending().expect("the roll waits").clone();
    assert_eq!(request.purpose, "hunt");
    assert_eq!(request.player, Some(PlayerId(0)));
    assert!(
        game.pending().is_empty(),
        "no player decision while a roll waits"
    );
    let events_before = game.events().len();
    let rng_before = game.state().rng.clone();

    // One moon, one sun: a choice follows; the step ran and was undone.
    let outcome = ChanceOutcome {
        faces: vec![line("moon", 1), line("sun", 1)],
    };
    game.apply_chance(&outcome).unwrap();
    assert_eq!(game.pending().len(), 1);
    assert!(game.chance_pending().is_none());
    assert!(game.events().len() > events_before, "the roll is committed");

    // Re-roll die 1 (the sun): the re-roll is a chance node of one die.
    game.submit(PlayerId(0), Answer::One(Choice::Number(1)))
        .unwrap();
    let reroll = game.chance_pending().expect("the re-roll waits");
    assert_eq!(reroll.purpose, "hunt");
    assert_eq!(reroll.pool, Pool::of("sky", 1));
    let outcomes = game.chance_outcomes().unwrap();
    assert_eq!(
        outcomes.iter().map(|(_, p)| *p).collect::<Vec<_>>(),
        [r(1, 6), r(1, 3), r(1, 2)]
    );
    game.apply_chance(&outcomes[0].0).unwrap(); // a star
    assert_eq!(
        game.state().result.as_ref().unwrap().winners,
        vec![PlayerId(1)]
    );
    assert_eq!(game.state().rng, rng_before, "no die drew from the RNG");
    assert!(game.state().chance.as_ref().unwrap().queued.is_empty());
}

#[test]
fn an_outcome_that_does_not_fit_is_refused_and_changes_nothing() {
    let mut game = Game::start(StarHunt(sky()), Setup::new(1, &["A", "B", "C"]), vec![]).unwrap();
    game.set_chance_mode(true).unwrap();
    game.push_frame(Frame::new("hunt")).unwrap();
    let before = (game.state().clone(), game.events().to_vec());
    for bad in [
        vec![line("moon", 1)],
        vec![line("moon", 3)],
        vec![line("comet", 2)],
        vec![FaceCount {
            die: "d6".into(),
            face: "1".into(),
            count: 2,
        }],
    ] {
        let error = game
            .apply_chance(&ChanceOutcome { faces: bad })
            .unwrap_err();
        assert!(
            matches!(error, GameError::Rule(RuleError::Dice(_))),
            "{error}"
        );
        assert_eq!((game.state().clone(), game.events().to_vec()), before);
    }
    let mut over = hunt(3);
    over.set_chance_mode(true).unwrap();
    assert!(matches!(
        over.apply_chance(&ChanceOutcome::default()),
        Err(GameError::NoChancePending)
    ));
}

/// Enumerates the whole tree: at a chance node every outcome (on a clone), at a decision
/// the policy "re-roll the first die that is not a star".
fn enumerate(game: &Game<StarHunt>, chance: Ratio, out: &mut BTreeMap<u8, Ratio>) {
    if let Some(result) = &game.state().result {
        let entry = out.entry(result.winners[0].0).or_insert(Ratio::ZERO);
        *entry = entry.checked_add(chance).unwrap();
        return;
    }
    if game.chance_pending().is_some() {
        for (outcome, p) in game.chance_outcomes().unwrap() {
            let mut branch = game.clone();
            branch.apply_chance(&outcome).unwrap();
            enumerate(&branch, chance.checked_mul(p).unwrap(), out);
        }
        return;
    }
    let request = game.pending()[0].clone();
    let Options::One { choices } = &request.options else {
        panic!("one choice expected")
    };
    let mut branch = game.clone();
    branch
        .submit(request.player, Answer::One(choices[1].clone()))
        .unwrap();
    enumerate(&branch, chance, out);
}

#[test]
fn enumerating_chance_nodes_gives_the_exact_distribution() {
    let mut game = Game::start(StarHunt(sky()), Setup::new(1, &["A", "B", "C"]), vec![]).unwrap();
    game.set_chance_mode(true).unwrap();
    game.push_frame(Frame::new("hunt")).unwrap();
    let mut out = BTreeMap::new();
    enumerate(&game, Ratio::ONE, &mut out);
    // By hand: p(star) = 1/6. Two stars: 1/36. Exactly one star (10/36) then a re-roll of
    // the other: star 1/6 -> two. No star (25/36) then a re-roll: star 1/6 -> one.
    let two = r(1, 36).checked_add(r(10, 216)).unwrap();
    let one = r(50, 216).checked_add(r(25, 216)).unwrap();
    let zero = r(125, 216);
    assert_eq!(out.get(&2), Some(&two));
    assert_eq!(out.get(&1), Some(&one));
    assert_eq!(out.get(&0), Some(&zero));
}

#[test]
fn turning_chance_mode_off_rolls_the_waiting_dice_with_the_rng() {
    let mut game = Game::start(StarHunt(sky()), Setup::new(5, &["A", "B", "C"]), vec![]).unwrap();
    game.set_chance_mode(true).unwrap();
    game.push_frame(Frame::new("hunt")).unwrap();
    assert!(game.chance_pending().is_some());
    game.set_chance_mode(false).unwrap();
    assert!(game.chance_pending().is_none());
    assert!(game.is_over() || game.pending().len() == 1);
    assert!(
        matches!(game.push_frame(Frame::new("hunt")), Err(GameError::Waiting)) || game.is_over()
    );
}

#[test]
fn rerolls_in_one_step_are_chance_nodes_of_one_die() {
    let mut game = Game::start(AutoHunt(sky()), Setup::new(1, &["A", "B", "C"]), vec![]).unwrap();
    game.set_chance_mode(true).unwrap();
    game.push_frame(Frame::new("hunt")).unwrap();
    game.apply_chance(&ChanceOutcome {
        faces: vec![line("moon", 1), line("sun", 1)],
    })
    .unwrap();
    let request = game.chance_pending().expect("the first re-roll waits");
    assert_eq!(request.purpose, "hunt again");
    assert_eq!(request.pool, Pool::of("sky", 1));
    game.apply_chance(&ChanceOutcome {
        faces: vec![line("star", 1)],
    })
    .unwrap();
    game.apply_chance(&ChanceOutcome {
        faces: vec![line("star", 1)],
    })
    .unwrap();
    assert_eq!(
        game.state().result.as_ref().unwrap().winners,
        vec![PlayerId(2)]
    );
    // The whole step ran once in the end: one roll and two re-roll events.
    let rerolls = game
        .events()
        .iter()
        .filter(|e| matches!(e, gloam_core::Event::Rerolled { .. }))
        .count();
    assert_eq!(rerolls, 2);
}
