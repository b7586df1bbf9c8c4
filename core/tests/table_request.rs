//! A request for a point on a measured table: candidate points the rules generate, and any
//! other point a host sends, accepted only when the rules' legality check passes; a refused
//! point is a clear error and leaves the game exactly as it was.
//!
//! The test ruleset (no real game): player 0's unit of three models (group 0) makes formation
//! moves of up to 6", never within 3" of player 1's lone model (the normal move of digest
//! `tabletop.md` B9), three times; then the game ends.

use gloam_core::{
    Answer, Choice, Coherency, Control, Ctx, DecisionError, Frame, Game, GameError, GameResult,
    GroupId, Lattice, Length, LengthUnit, Options, PathLimits, PlayerId, Point, Position, Request,
    RuleError, Rules, Scene, Setup, check_coherency, check_formation, formation_candidates,
};
use proptest::prelude::*;

const RADIUS: i64 = 125;

#[derive(Clone, Debug)]
struct MoveRules;

fn limits() -> PathLimits {
    PathLimits::new(Length::inches(6), LengthUnit::Inch).never_within(Length::inches(3))
}

fn scene(ctx_state: &gloam_core::GameState) -> Scene {
    Scene::from_state(ctx_state, "radius", "group")
}

fn shifted(point: Point, by: Point) -> Point {
    Point::new(point.x + by.x, point.y + by.y)
}

impl Rules for MoveRules {
    fn start(&self, ctx: &mut Ctx<'_>, _setup: &gloam_core::Setup) -> Result<(), RuleError> {
        let models = [
            (0u8, 0, 0, 0),
            (0, 0, 2 * RADIUS, 0),
            (0, 0, 4 * RADIUS, 0),
            (1, 1, 3_000, 0),
        ];
        for (owner, group, x, y) in models {
            let id = ctx.create_piece(
                PlayerId(owner),
                "model",
                [("radius".to_owned(), RADIUS), ("group".to_owned(), group)],
            )?;
            let at = Position::Table {
                at: Point::new(x, y),
                facing: (0, 0),
            };
            ctx.place_piece(id, Some(at), vec![], "set_up")?;
        }
        Ok(())
    }

    fn step(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
        let table = scene(ctx.state());
        let members: Vec<_> = table.members(GroupId(0)).into_iter().cloned().collect();
        let anchor = members[0].figure.centre;
        let Some(answer) = frame.answers.pop() else {
            let candidates =
                formation_candidates(&table, GroupId(0), &limits(), &Lattice::default())
                    .map_err(|refused| RuleError::step("move", refused.to_string()))?;
            return Ok(Control::Ask(Request::table_point(
                PlayerId(0),
                "move_unit",
                "Move the unit: where does its first model go?",
                candidates.iter().map(|c| shifted(anchor, c.by)),
            )));
        };
        let Answer::One(Choice::Point(to)) = answer else {
            return Err(RuleError::step("move", "expected a point"));
        };
        let by = Point::new(to.x - anchor.x, to.y - anchor.y);
        check_formation(&table, GroupId(0), by, &limits())
            .map_err(|refused| RuleError::refused("move_unit", &Choice::Point(to), refused))?;
        // Front models first, so none is placed where a mate still stands.
        for id in table.front_first(GroupId(0), by) {
            let Some(model) = members.iter().find(|m| m.id == id) else {
                continue;
            };
            let at = Position::Table {
                at: shifted(model.figure.centre, by),
                facing: (0, 0),
            };
            ctx.place_piece(id, Some(at), vec![], "formation_move")?;
        }
        let moves = ctx.add_counter(gloam_core::Scope::Game, "moves", 1)?;
        if moves >= 3 {
            return Ok(Control::End(GameResult {
                winners: vec![PlayerId(0)],
                reason: "three moves".into(),
            }));
        }
        Ok(Control::Replace(vec![Frame::new("move")]))
    }
}

fn new_game() -> Game<MoveRules> {
    Game::start(
        MoveRules,
        Setup::new(7, &["Ann", "Bo"]),
        vec![Frame::new("move")],
    )
    .expect("the test ruleset starts")
}

fn anchor(game: &Game<MoveRules>) -> Point {
    scene(game.state()).members(GroupId(0))[0].figure.centre
}

fn snapshot(game: &Game<MoveRules>) -> (String, usize, usize) {
    (
        serde_json::to_string(game.state()).unwrap(),
        game.events().len(),
        game.record().answers.len(),
    )
}

fn submit_point(game: &mut Game<MoveRules>, to: Point) -> Result<usize, GameError> {
    game.submit(PlayerId(0), Answer::One(Choice::Point(to)))
        .map(|events| events.len())
}

#[test]
fn request_offers_legal_candidates_then_any_point() {
    let game = new_game();
    let request = game.pending()[0];
    assert_eq!(request.kind, "move_unit");
    assert!(request.accepts_any_point());
    let Options::One { choices } = &request.options else {
        panic!("a table point is one choice");
    };
    assert_eq!(choices.last(), Some(&Choice::AnyPoint));
    assert!(choices.len() > 10);
    let start = anchor(&game);
    for choice in &choices[..choices.len() - 1] {
        let Choice::Point(to) = choice else {
            panic!("candidates are points");
        };
        let mut branch = game.clone();
        submit_point(&mut branch, *to).expect("every candidate is accepted");
        assert_eq!(anchor(&branch), *to);
        assert_eq!(scene(branch.state()).first_overlap(), None);
        let by = Point::new(to.x - start.x, to.y - start.y);
        assert!(check_formation(&scene(game.state()), GroupId(0), by, &limits()).is_ok());
    }
}

#[test]
fn free_point_accepted_when_legal() {
    let mut game = new_game();
    let to = Point::new(137, 41);
    let Options::One { choices } = &game.pending()[0].options else {
        panic!("one choice");
    };
    assert!(!choices.contains(&Choice::Point(to)));
    submit_point(&mut game, to).expect("a legal free point");
    let table = scene(game.state());
    let centres: Vec<Point> = table
        .members(GroupId(0))
        .iter()
        .map(|m| m.figure.centre)
        .collect();
    assert_eq!(
        centres,
        vec![
            Point::new(137, 41),
            Point::new(387, 41),
            Point::new(637, 41)
        ]
    );
    // The record replays to the same log, byte for byte.
    let replayed = Game::replay(MoveRules, game.record(), vec![Frame::new("move")]).unwrap();
    assert_eq!(
        serde_json::to_string(replayed.events()).unwrap(),
        serde_json::to_string(game.events()).unwrap()
    );
}

#[test]
fn illegal_free_point_refused_clearly_and_nothing_changes() {
    let mut game = new_game();
    let before = snapshot(&game);
    // 6" east: the lead model would end within 3" of the enemy (whose edge is at x = 2875).
    let to = Point::new(1_524, 0);
    let error = submit_point(&mut game, to).unwrap_err();
    assert!(matches!(
        error,
        GameError::Rule(RuleError::AnswerRefused { .. })
    ));
    assert_eq!(
        error.to_string(),
        "`move_unit`: point (1524, 0) was refused: piece2 cannot go there: on leg 1 it would \
         come within 3in of enemy piece3 (to 72.6mm (about 2.86in))"
    );
    assert_eq!(snapshot(&game), before);
    assert_eq!(game.pending()[0].kind, "move_unit");
    // Too far.
    let error = submit_point(&mut game, Point::new(0, 1_525)).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the path is 152.5mm (about 6.00in) long"),
        "{error}"
    );
    assert_eq!(snapshot(&game), before);
    // The marker itself, and a point out of bounds, are refused by the request.
    let marker = game
        .submit(PlayerId(0), Answer::One(Choice::AnyPoint))
        .unwrap_err();
    assert!(matches!(
        marker,
        GameError::Decision(DecisionError::Illegal { .. })
    ));
    let far = submit_point(&mut game, Point::new(2_000_000_000, 0)).unwrap_err();
    assert!(matches!(
        far,
        GameError::Decision(DecisionError::Illegal { .. })
    ));
    assert_eq!(snapshot(&game), before);
    // Then a legal answer still works.
    submit_point(&mut game, Point::new(0, 500)).unwrap();
    assert_eq!(anchor(&game), Point::new(0, 500));
}

#[test]
fn table_point_request_without_candidates_is_refused_when_asked() {
    #[derive(Clone, Debug)]
    struct Nowhere;
    impl Rules for Nowhere {
        fn start(&self, _ctx: &mut Ctx<'_>, _setup: &Setup) -> Result<(), RuleError> {
            Ok(())
        }
        fn step(&self, _ctx: &mut Ctx<'_>, _frame: &mut Frame) -> Result<Control, RuleError> {
            Ok(Control::Ask(Request::table_point(
                PlayerId(0),
                "move_unit",
                "Where to?",
                [],
            )))
        }
    }
    let error = Game::start(
        Nowhere,
        Setup::new(1, &["Ann", "Bo"]),
        vec![Frame::new("move")],
    )
    .expect_err("refused");
    assert!(
        matches!(error, GameError::Rule(RuleError::EmptyRequest { .. })),
        "{error}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any point: accepted (no two bases overlap, the unit stays coherent), or refused with
    /// nothing changed (issue 13, "Show").
    #[test]
    fn any_point_accepted_legal_or_refused_unchanged(
        points in prop::collection::vec((-2_500i64..=2_500, -2_500i64..=2_500), 1..=4),
    ) {
        let mut game = new_game();
        let rule = Coherency { distance: Length::tenth_mm(127), neighbours: 1 };
        for (dx, dy) in points {
            if game.state().result.is_some() {
                break;
            }
            let start = anchor(&game);
            let before = snapshot(&game);
            match submit_point(&mut game, Point::new(start.x + dx, start.y + dy)) {
                Ok(_) => {
                    let table = scene(game.state());
                    prop_assert_eq!(table.first_overlap(), None);
                    let members: Vec<_> = table.members(GroupId(0)).into_iter().cloned().collect();
                    prop_assert_eq!(check_coherency(&members, &rule), Ok(()));
                }
                Err(_) => prop_assert_eq!(snapshot(&game), before),
            }
        }
    }
}
