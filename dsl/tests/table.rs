//! The measured table in scripts: lengths, points, units, within and wholly within at their
//! exact boundaries, coherency, control, line of sight, the move and set-up checks, the
//! candidates, the effects that move and set up units, and the choice of a table point
//! (a refused free point changes nothing). Every script runs on both engines, which must
//! agree on the outcome, the events and the game.
//!
//! Rule readings checked here follow the digest `/work/shared/rules/tabletop.md` part B12
//! (combat range 3", coherency, objective control within 3", values not in the seed and so
//! passed by scripts) and seed 004 L80-90 (a Normal Move may not come within combat range).

mod common;

use common::render;
use gloam_core::{
    Answer, Area, Choice, Ctx, Dice, Event, GameState, Length, LengthUnit, PieceId, PlayerId,
    Point, Position, Value,
};
use gloam_dsl::{
    Bindings, DslDiagnostic, Feature, Host, Outcome, ScriptContext, ScriptEngine, ScriptSource,
    Table, World,
};

const INCH: i64 = 254;

/// A model to create: owner, unit number, base radius, where (or off the table), extra
/// characteristics.
struct Model {
    owner: u8,
    unit: i64,
    radius: i64,
    at: Option<(i64, i64)>,
    extra: Vec<(&'static str, i64)>,
}

fn model(owner: u8, unit: i64, radius: i64, at: Option<(i64, i64)>) -> Model {
    Model {
        owner,
        unit,
        radius,
        at,
        extra: Vec::new(),
    }
}

/// A 44" × 30" table with two halves as territories ("South", "North"), objectives
/// "Centre" (22", 15") and "Corner" (2", 2"), and a tall obscuring wall 4" wide and 1" deep
/// centred at (22", 25").
fn table() -> Table {
    let wall = vec![
        Point::new(20 * INCH, 24 * INCH + INCH / 2),
        Point::new(24 * INCH, 24 * INCH + INCH / 2),
        Point::new(24 * INCH, 25 * INCH + INCH / 2),
        Point::new(20 * INCH, 25 * INCH + INCH / 2),
    ];
    let rect = |y0: i64, y1: i64| {
        Area::Polygon(vec![
            Point::new(0, y0),
            Point::new(44 * INCH, y0),
            Point::new(44 * INCH, y1),
            Point::new(0, y1),
        ])
    };
    Table::new(Length::inches(44), Length::inches(30), LengthUnit::Inch)
        .with_territory("South", rect(0, 15 * INCH))
        .with_territory("North", rect(15 * INCH, 30 * INCH))
        .with_objective("Centre", Point::new(22 * INCH, 15 * INCH))
        .with_objective("Corner", Point::new(2 * INCH, 2 * INCH))
        .with_feature(Feature::new(
            "Wall",
            "large",
            ["obscuring", "cover"],
            wall,
            Length::inches(5),
        ))
}

struct Game {
    world: World,
    state: GameState,
    events: Vec<Event>,
    pieces: Vec<PieceId>,
}

fn game(models: &[Model], with_table: bool) -> Game {
    let battlefield =
        gloam_core::Battlefield::from_hexes([(gloam_core::Hex::ORIGIN, Vec::<String>::new())]);
    let mut world = World::new(battlefield, ["blocked"], false, Dice::new());
    if with_table {
        world = world.with_table(table());
    }
    let mut state = GameState::new(5, &["Ann", "Bo"]);
    let mut events = Vec::new();
    let mut pieces = Vec::new();
    {
        let mut ctx = Ctx::new(&mut state, &mut events);
        for m in models {
            let mut stats = vec![
                ("base_radius".to_owned(), m.radius),
                ("unit".to_owned(), m.unit),
            ];
            stats.extend(m.extra.iter().map(|(k, v)| ((*k).to_owned(), *v)));
            let id = ctx
                .create_piece(PlayerId(m.owner), "model", stats)
                .expect("piece");
            if let Some((x, y)) = m.at {
                ctx.place_piece(
                    id,
                    Some(Position::Table {
                        at: Point::new(x, y),
                        facing: (0, 0),
                    }),
                    vec![],
                    "deploy",
                )
                .expect("place");
            }
            pieces.push(id);
        }
    }
    events.clear();
    Game {
        world,
        state,
        events,
        pieces,
    }
}

type Run = (Result<Outcome, DslDiagnostic>, Vec<Event>, GameState);

/// Runs `text` as an effect acting for Ann, with `m0`, `m1`... bound to the pieces, on both
/// engines; asserts they agree and returns the result.
fn run(g: &Game, text: &str, answers: &[Answer]) -> Run {
    let names: Vec<String> = (0..g.pieces.len()).map(|i| format!("m{i}")).collect();
    let context = ScriptContext::effect("table test").with_variables(names.iter().cloned());
    let mut bindings = Bindings::new().acting(PlayerId(0));
    for (name, piece) in names.iter().zip(&g.pieces) {
        bindings = bindings.with(name.clone(), Value::Piece(*piece));
    }
    let mut results: Vec<Run> = Vec::new();
    for engine in [ScriptEngine::Rhai, ScriptEngine::Compiled] {
        let host = Host::new();
        host.set_script_engine(engine);
        let script = host
            .compile(&ScriptSource::whole("table.gloam", text), &context)
            .unwrap_or_else(|errors| panic!("{}", errors.iter().map(render).collect::<String>()));
        let mut state = g.state.clone();
        let mut events = g.events.clone();
        let outcome = host.run(
            &script,
            &g.world,
            &mut state,
            &mut events,
            &bindings,
            answers,
        );
        assert!(
            host.compiled_bails().is_empty(),
            "{:?}",
            host.compiled_bails()
        );
        results.push((outcome, events, state));
    }
    let compiled = results.pop().expect("compiled");
    let rhai = results.pop().expect("rhai");
    assert_eq!(rhai.0, compiled.0, "engines disagree on {text}");
    assert_eq!(
        rhai.1, compiled.1,
        "engines disagree on the events of {text}"
    );
    assert_eq!(
        rhai.2, compiled.2,
        "engines disagree on the game after {text}"
    );
    rhai
}

fn value(g: &Game, text: &str) -> Value {
    match run(g, text, &[]).0 {
        Ok(Outcome::Done { value, .. }) => value,
        other => panic!("{text}: {other:?}"),
    }
}

fn error(g: &Game, text: &str) -> String {
    match run(g, text, &[]).0 {
        Err(error) => error.to_string(),
        other => panic!("{text}: expected an error, got {other:?}"),
    }
}

fn yes(g: &Game, text: &str) {
    assert_eq!(value(g, text), Value::Bool(true), "{text}");
}

fn no(g: &Game, text: &str) {
    assert_eq!(value(g, text), Value::Bool(false), "{text}");
}

/// Two 25 mm bases of Ann's unit 1 touching at y = 5"; Bo's 25 mm model (unit 2) exactly 3"
/// from the second, edge to edge: centres 762 + 250 apart.
fn three_inches_apart() -> Game {
    let y = 5 * INCH;
    game(
        &[
            model(0, 1, 125, Some((10 * INCH, y))),
            model(0, 1, 125, Some((10 * INCH + 250, y))),
            model(1, 2, 125, Some((10 * INCH + 250 + 762 + 250, y))),
        ],
        true,
    )
}

#[test]
fn a_point_or_nothing_compared_with_nothing_agrees_on_both_engines() {
    // The compiled engine answers `==` and `!=` between a point and `()`, and between two
    // `()`, itself (issue 12): as Rhai's built-ins do.
    let g = three_inches_apart();
    yes(&g, "position(m0) != ()");
    no(&g, "position(m0) == ()");
    yes(&g, "() != position(m1)");
    yes(&g, "() == ()");
    no(&g, "() != ()");
    yes(&g, "let p = position(m0); p == p");
}

#[test]
fn game_ids_compared_agree_on_both_engines() {
    // The compiled engine answers `==` and `!=` between two ids of one type itself (issue
    // 12), as the registered operators do; ids of two types go to Rhai's resolution.
    let g = three_inches_apart();
    yes(&g, "m0 == m0");
    no(&g, "m0 != m0");
    yes(&g, "m0 != m1");
    yes(&g, "owner(m0) == owner(m1)");
    yes(&g, "owner(m0) != owner(m2)");
    yes(&g, "unit_of(m0) == unit_of(m1)");
    no(&g, "unit_of(m0) == unit_of(m2)");
    yes(&g, "position(m1) != position(m2)");
    no(&g, "m0 == owner(m0)");
    yes(&g, "m0 != owner(m0)");
    yes(&g, "let l = [m0, m1]; l[0] == m0 && l[1] != m0");
}

#[test]
fn lengths_are_tenths_of_a_millimetre() {
    let g = three_inches_apart();
    assert_eq!(value(&g, "inches(3)"), Value::Int(762));
    assert_eq!(value(&g, "inches(1) / 2"), Value::Int(127));
    assert_eq!(value(&g, "cm(2) + mm(3)"), Value::Int(230));
    let p = "let p = point(10, -20); [p.x, p.y]";
    assert_eq!(
        value(&g, p),
        Value::List(vec![Value::Int(10), Value::Int(-20)])
    );
    assert!(error(&g, "inches(9223372036854775807)").contains("too long for the table"));
    assert!(error(&g, "point(2000000000, 0)").contains("`point`"));
    let unknown = error(&g, "constant(\"combat_range\")");
    assert!(
        unknown.contains("no constant `combat_range` (it has: none)"),
        "{unknown}"
    );
    let mut g = g;
    g.world = g.world.clone().with_constant("combat_range", 762);
    yes(&g, "within(m1, m2, constant(\"combat_range\"))");
}

#[test]
fn exactly_three_inches_is_within_and_one_tenth_less_is_not() {
    // Digest B12 "Combat range": 3", inclusive. The value is the script's.
    let g = three_inches_apart();
    assert_eq!(value(&g, "gap(m1, m2)"), Value::Int(762));
    // Touching bases (centres 250 apart, radii 125 each) are in base contact; not with
    // themselves, and not 3" apart.
    yes(&g, "base_contact(m0, m1)");
    no(&g, "base_contact(m0, m0)");
    no(&g, "base_contact(m1, m2)");
    yes(&g, "within(m1, m2, inches(3))");
    no(&g, "within(m1, m2, inches(3) - 1)");
    yes(&g, "in_range_of_enemy(unit_of(m0), inches(3))");
    no(&g, "in_range_of_enemy(unit_of(m0), inches(3) - 1)");
    // The first model is 250 tenths farther: only the unit as a whole is in range.
    no(&g, "in_range_of_enemy(m0, inches(3))");
    yes(&g, "within(unit_of(m0), unit_of(m2), inches(3))");
    assert_eq!(value(&g, "nearest_enemy(m0) == m2"), Value::Bool(true));
    assert_eq!(value(&g, "models_of(unit_of(m0)).len()"), Value::Int(2));
    assert_eq!(value(&g, "units_of(players()[1]).len()"), Value::Int(1));
}

#[test]
fn wholly_within_a_point_is_exact_to_a_tenth_of_a_millimetre() {
    // Wholly within d of a point: centre distance + radius <= d.
    let g = three_inches_apart();
    let centre = "let c = position(m0); let p = point(c.x + 500, c.y); ";
    yes(&g, &format!("{centre} wholly_within(m0, p, 625)"));
    no(&g, &format!("{centre} wholly_within(m0, p, 624)"));
    yes(&g, &format!("{centre} within(m0, p, 375)"));
    no(&g, &format!("{centre} within(m0, p, 374)"));
}

#[test]
fn territories_objectives_and_the_table_edge_are_targets() {
    let g = three_inches_apart();
    yes(&g, "wholly_within(unit_of(m0), \"South\", 0)");
    no(&g, "within(unit_of(m0), \"North\", 0)");
    // 5" from the south edge, radius 12.5 mm: wholly within 5" + 12.5 mm, not a tenth less.
    yes(&g, "wholly_within(m0, table_edge(), inches(5) + 125)");
    no(&g, "wholly_within(m0, table_edge(), inches(5) + 124)");
    yes(&g, "within(m0, table_edge(), inches(5) - 125)");
    no(&g, "within(m0, table_edge(), inches(5) - 126)");
    assert_eq!(
        value(&g, "territories()"),
        Value::List(vec![Value::Str("South".into()), Value::Str("North".into())])
    );
    assert_eq!(
        value(&g, "objective_point(\"Centre\").x"),
        Value::Int(22 * INCH)
    );
    assert_eq!(
        value(&g, "terrain_rules(\"Wall\")"),
        Value::List(vec![
            Value::Str("obscuring".into()),
            Value::Str("cover".into())
        ])
    );
    let unknown = error(&g, "within(m0, \"Swamp\", 0)");
    assert!(
        unknown.contains("no territory or objective named `Swamp`"),
        "{unknown}"
    );
    assert!(
        unknown.contains("South, North, Centre, Corner"),
        "{unknown}"
    );
}

#[test]
fn coherency_at_half_an_inch_exactly() {
    // Digest B12 "Coherency": the distance and count are data; here ½" and 1 neighbour.
    let y = 5 * INCH;
    let apart = |gap: i64| {
        game(
            &[
                model(0, 1, 125, Some((10 * INCH, y))),
                model(0, 1, 125, Some((10 * INCH + 250 + gap, y))),
            ],
            true,
        )
    };
    let g = apart(127);
    yes(&g, "coherent(unit_of(m0), inches(1) / 2, 1)");
    assert_eq!(
        value(&g, "coherency_break(unit_of(m0), inches(1) / 2, 1)"),
        Value::Unit
    );
    let g = apart(128);
    no(&g, "coherent(unit_of(m0), inches(1) / 2, 1)");
    let reason = value(&g, "coherency_break(unit_of(m0), inches(1) / 2, 1)");
    assert!(
        matches!(&reason, Value::Str(s) if s.contains("needs 1")),
        "{reason:?}"
    );
}

#[test]
fn control_is_the_strictly_highest_sum_within_the_distance() {
    // Digest B12 "Objective control": summed Control within 3"; a tie is nobody.
    let objective = (22 * INCH, 15 * INCH);
    let at = |dx: i64| Some((objective.0 + dx, objective.1));
    let with_control = |mut m: Model, control: i64| {
        m.extra.push(("control", control));
        m
    };
    // Ann: one model 3" away edge to centre (radius 125: centre 762 + 125 off); Bo: one
    // model 1 tenth too far.
    let g = game(
        &[
            with_control(model(0, 1, 125, at(-(762 + 125))), 2),
            with_control(model(1, 2, 125, at(762 + 126)), 5),
        ],
        true,
    );
    assert_eq!(
        value(
            &g,
            "controller(\"Centre\", inches(3), \"control\") == players()[0]"
        ),
        Value::Bool(true)
    );
    let g = game(
        &[
            with_control(model(0, 1, 125, at(-(762 + 125))), 2),
            with_control(model(1, 2, 125, at(762 + 125)), 2),
        ],
        true,
    );
    assert_eq!(
        value(&g, "controller(\"Centre\", inches(3), \"control\")"),
        Value::Unit
    );
}

#[test]
fn the_wall_blocks_sight_only_to_a_shorter_target() {
    let height = |mut m: Model, h: i64| {
        m.extra.push(("height", h));
        m
    };
    let g = game(
        &[
            height(model(0, 1, 125, Some((22 * INCH, 22 * INCH))), 2 * INCH),
            height(model(1, 2, 125, Some((22 * INCH, 28 * INCH))), 2 * INCH),
            height(model(1, 3, 125, Some((22 * INCH, 29 * INCH))), 6 * INCH),
            height(model(1, 4, 125, Some((30 * INCH, 28 * INCH))), 2 * INCH),
        ],
        true,
    );
    no(&g, "line_of_sight(m0, m1)");
    yes(&g, "line_of_sight(m0, m2)");
    yes(&g, "line_of_sight(m0, m3)");
    no(&g, "line_of_sight(m0, m1, \"obscuring\")");
    yes(&g, "line_of_sight(m0, m1, \"unstable\")");
}

/// Ann's unit of two at 5", Bo's model 10" east of them.
fn open_field() -> Game {
    let y = 5 * INCH;
    game(
        &[
            model(0, 1, 125, Some((10 * INCH, y))),
            model(0, 1, 125, Some((10 * INCH + 250, y))),
            model(1, 2, 125, Some((20 * INCH, y))),
        ],
        true,
    )
}

const NORMAL_MOVE: &str = "#{ budget: inches(5), never_within: inches(3) }";

#[test]
fn every_move_candidate_passes_the_check() {
    let g = open_field();
    let text = format!(
        "let u = unit_of(m0); let lim = {NORMAL_MOVE}; let c = move_candidates(u, lim); \
         c.len() > 10 && c.all(|o| check_formation(u, o, lim) == ())"
    );
    yes(&g, &text);
}

#[test]
fn a_normal_move_may_not_come_within_combat_range() {
    // Seed 004 L80-90: a Normal Move may not come within combat range (3", digest B12).
    let g = open_field();
    // The front model is 10" - 250 tenths - 250 tenths from the enemy's edge: 2286 tenths.
    // Moving 5" east leaves 2286 - 1270 = 1016, more than 762: allowed.
    assert_eq!(
        value(
            &g,
            &format!("check_formation(unit_of(m0), point(inches(5), 0), {NORMAL_MOVE})")
        ),
        Value::Unit
    );
    // 1524 tenths east leaves 762: within 3", refused, in inches.
    let refusal = value(
        &g,
        "check_formation(unit_of(m0), point(1524, 0), #{ budget: inches(7), never_within: inches(3) })",
    );
    assert!(
        matches!(&refusal, Value::Str(s) if s.contains("within 3in of enemy")),
        "{refusal:?}"
    );
    // The effect moves both models and logs it.
    let (outcome, events, state) = run(
        &g,
        &format!("move_unit(unit_of(m0), point(inches(5), 0), {NORMAL_MOVE})"),
        &[],
    );
    assert!(matches!(outcome, Ok(Outcome::Done { .. })), "{outcome:?}");
    let at = |piece: PieceId| state.piece(piece).and_then(|p| p.position);
    assert_eq!(
        at(g.pieces[1]),
        Some(Position::Table {
            at: Point::new(15 * INCH + 250, 5 * INCH),
            facing: (0, 0)
        })
    );
    assert_eq!(events.len(), 2, "{events:?}");
    // Refused: nothing changes.
    let (outcome, events, state) = run(
        &g,
        "move_unit(unit_of(m0), point(1524, 0), #{ budget: inches(7), never_within: inches(3) })",
        &[],
    );
    let error = outcome.expect_err("refused");
    assert_eq!(error.refused_answer(), None);
    let message = error.to_string();
    assert!(message.contains("`move_unit` was refused"), "{message}");
    assert_eq!(state, g.state);
    assert_eq!(events, g.events);
}

#[test]
fn a_single_model_moves_along_a_path() {
    let g = open_field();
    let (outcome, _, state) = run(
        &g,
        "let p = position(m0); move_model(m0, [p, point(p.x, p.y + inches(2)), point(p.x + inches(1), p.y + inches(2))], #{ budget: inches(3) })",
        &[],
    );
    assert!(matches!(outcome, Ok(Outcome::Done { .. })), "{outcome:?}");
    assert_eq!(
        state.piece(g.pieces[0]).and_then(|p| p.position),
        Some(Position::Table {
            at: Point::new(11 * INCH, 7 * INCH),
            facing: (0, 0)
        })
    );
    // Over budget by a tenth of a millimetre.
    let refusal = value(
        &g,
        "let p = position(m0); check_move(m0, [p, point(p.x, p.y + inches(3) + 1)], #{ budget: inches(3) })",
    );
    assert!(matches!(refusal, Value::Str(_)), "{refusal:?}");
}

#[test]
fn choose_move_offers_the_candidates_and_any_point() {
    let g = open_field();
    let limits = "#{ budget: inches(7), never_within: inches(3) }";
    let text = format!(
        "let u = unit_of(m0); let o = choose_move(u, {limits}, \"where to?\"); \
         move_unit(u, o, {limits}); o.x"
    );
    let (outcome, _, _) = run(&g, &text, &[]);
    let Ok(Outcome::NeedsChoice(request)) = outcome else {
        panic!("{outcome:?}")
    };
    assert!(request.accepts_any_point());
    assert_eq!(request.kind, "choose_move");
    let first = request.enumerate(1000).expect("choices")[0].clone();
    let (outcome, _, _) = run(&g, &text, std::slice::from_ref(&first));
    let Answer::One(Choice::Point(point)) = first else {
        panic!("{first:?}")
    };
    assert_eq!(outcome, Ok(Outcome::done(Value::Int(point.x))));
    // A free legal point is accepted.
    let free = Answer::One(Choice::Point(Point::new(-7, 3)));
    assert_eq!(run(&g, &text, &[free]).0, Ok(Outcome::done(Value::Int(-7))));
    // A free illegal point (into combat range) is refused and nothing changes.
    let illegal = Answer::One(Choice::Point(Point::new(1524, 0)));
    let (outcome, events, state) = run(&g, &text, &[illegal]);
    let error = outcome.expect_err("refused");
    // What a rules driver reports as the kernel's `RuleError::AnswerRefused`.
    let (kind, answer, reason) = error.refused_answer().expect("a refused answer");
    assert_eq!((kind, answer), ("choose_move", "point (1524, 0)"));
    assert!(reason.contains("cannot go there"), "{reason}");
    let message = error.to_string();
    assert!(
        message.contains("point (1524, 0) was refused") && message.contains("within 3in"),
        "{message}"
    );
    assert_eq!(state, g.state);
    assert_eq!(events, g.events);
}

#[test]
fn a_unit_is_set_up_from_the_candidates_wholly_in_its_territory() {
    // Seed 004 L13: units set up wholly within their territory, more than 6" from enemy
    // territory (our halves: the North's edge is at 15").
    let g = game(
        &[
            model(0, 1, 125, None),
            model(0, 1, 125, None),
            model(0, 1, 125, None),
        ],
        true,
    );
    let limits = "#{ zone: \"South\", away: [[\"North\", inches(6)]] }";
    let text = format!(
        "let u = unit_of(m0); let c = setup_candidates(u, {limits}, inches(2), 50); \
         c.len() > 10 && c.all(|a| check_setup(u, a, {limits}) == ())"
    );
    yes(&g, &text);
    // The row's bases reach 125 tenths above the anchor; the North begins at 15".
    let at =
        |y: i64| format!("let u = unit_of(m0); check_setup(u, point(inches(10), {y}), {limits})");
    // Exactly 6" away is within 6", so refused ("more than"); a tenth farther is allowed.
    assert_eq!(value(&g, &at(9 * INCH - 126)), Value::Unit);
    let refusal = value(&g, &at(9 * INCH - 125));
    assert!(
        matches!(&refusal, Value::Str(s) if s.contains("more than 6in")),
        "{refusal:?}"
    );
    let text = format!(
        "let u = unit_of(m0); let a = choose_setup(u, {limits}, inches(2), 50, \"where?\"); \
         set_up_unit(u, a, {limits}); models_of(u).len()"
    );
    let (outcome, _, _) = run(&g, &text, &[]);
    let Ok(Outcome::NeedsChoice(request)) = outcome else {
        panic!("{outcome:?}")
    };
    let anchor = request.enumerate(1000).expect("choices")[0].clone();
    let (outcome, events, state) = run(&g, &text, &[anchor]);
    assert_eq!(outcome, Ok(Outcome::done(Value::Int(3))));
    assert_eq!(events.len(), 3);
    // Bases touching in a row.
    let x = |i: usize| match state.piece(g.pieces[i]).and_then(|p| p.position) {
        Some(Position::Table { at, .. }) => at.x,
        other => panic!("{other:?}"),
    };
    assert_eq!((x(1) - x(0), x(2) - x(1)), (250, 250));
    // A free anchor in the enemy's territory is refused, nothing changed.
    let (outcome, events, state) = run(
        &g,
        &text,
        &[Answer::One(Choice::Point(Point::new(10 * INCH, 20 * INCH)))],
    );
    assert!(outcome.is_err(), "{outcome:?}");
    assert_eq!((state, events), (g.state.clone(), g.events.clone()));
}

#[test]
fn place_model_puts_one_base_at_a_point() {
    let g = open_field();
    let (outcome, _, state) = run(
        &g,
        "place_model(m0, point(inches(30), inches(20)), #{})",
        &[],
    );
    assert!(matches!(outcome, Ok(Outcome::Done { .. })), "{outcome:?}");
    assert_eq!(
        state
            .piece(g.pieces[0])
            .and_then(|p| p.position.and_then(Position::point)),
        Some(Point::new(30 * INCH, 20 * INCH))
    );
    // Onto the enemy's base: refused.
    let message = error(
        &g,
        "place_model(m0, point(inches(20) + 100, inches(5)), #{})",
    );
    assert!(message.contains("`place_model` was refused"), "{message}");
}

#[test]
fn bad_input_is_a_located_error_never_a_panic() {
    let g = open_field();
    for (text, expected) in [
        ("within(m0, m2, -1)", "must be 0 or more"),
        ("within(3, m2, 1)", "must be a fighter or a unit, not a int"),
        ("within(m0, [1], 1)", "`target` must be a point"),
        (
            "move_candidates(unit_of(m0), #{ budget: 1, speed: 2 })",
            "unknown limit `speed`",
        ),
        ("move_candidates(unit_of(m0), #{})", "need a `budget`"),
        (
            "move_candidates(unit_of(m0), #{ budget: \"far\" })",
            "must be an int",
        ),
        (
            "move_candidates(unit_of(m0), #{ budget: 1, impassable: [3] })",
            "by feature name or rule, or `[name, height]` for the parts taller than `height`; an item is a int",
        ),
        (
            "move_candidates(unit_of(m0), #{ budget: 1, end_within: [m2] })",
            "pair `[target, distance]`",
        ),
        (
            "setup_candidates(unit_of(m0), #{ zone: \"Moon\" }, 10, 10)",
            "must name a territory",
        ),
        (
            "setup_candidates(unit_of(m0), #{}, 0, 10)",
            "spacing must be more than 0",
        ),
        (
            "coherent(unit_of(m0), 1, -1)",
            "neighbours must be 0 or more",
        ),
        ("check_move(m0, [1, 2], #{ budget: 1 })", "item 1 is a int"),
        (
            "controller(\"Nowhere\", 1, \"control\")",
            "no objective or territory",
        ),
        ("terrain_rules(\"Lake\")", "no terrain feature named `Lake`"),
        (
            "models_of(unit_of(m0)); coherent(unit_of(m0), 1, 1); line_of_sight(m0, m0, \"x\"); gap(m0, m0); check_setup(unit_of(m0), point(0, 0), #{})",
            "no model waiting to be set up",
        ),
    ] {
        let message = error(&g, text);
        assert!(message.contains(expected), "{text}: {message}");
        assert!(message.contains("table test"), "{text}: {message}");
    }
}

#[test]
fn a_hex_game_has_no_table() {
    let g = game(&[model(0, 1, 125, None)], false);
    for text in [
        "within(m0, m0, 1)",
        "position(m0)",
        "move_candidates(unit_of(m0), #{ budget: 1 })",
        "table_edge()",
        "territories()",
        "choose_move(unit_of(m0), #{ budget: 1 }, \"?\")",
        "move_unit(unit_of(m0), point(1, 0), #{ budget: 1 })",
    ] {
        let message = error(&g, text);
        assert!(
            message.contains("this game has no table"),
            "{text}: {message}"
        );
    }
}

#[test]
fn extreme_numbers_are_answered_or_refused_never_a_panic() {
    let g = open_field();
    let max = i64::MAX;
    yes(&g, &format!("within(m0, m2, {max})"));
    no(
        &g,
        &format!("wholly_within(m0, point(0, 0), {max}) == false"),
    );
    assert!(matches!(
        value(
            &g,
            &format!("move_candidates(unit_of(m0), #{{ budget: {max} }}).len() > 0")
        ),
        Value::Bool(true)
    ));
    let far = value(
        &g,
        "check_formation(unit_of(m0), point(-1000000000, 1000000000), #{ budget: inches(5) })",
    );
    assert!(matches!(far, Value::Str(_)), "{far:?}");
    let off = value(
        &g,
        &format!("check_formation(unit_of(m0), point(0, inches(100)), #{{ budget: {max} }})"),
    );
    assert!(
        matches!(&off, Value::Str(s) if s.contains("table")),
        "{off:?}"
    );
    assert!(error(&g, &format!("coherent(unit_of(m0), 1, {max})")).contains("neighbours"));
    assert!(error(&g, "inches(-9223372036854775807 - 1)").contains("too long"));
    let dense = "setup_candidates(unit_of(m0), #{}, 1, 1000).len()";
    assert!(error(&g, dense).contains("no model waiting"));
    let g = game(&[model(0, 1, 125, None), model(0, 1, 125, None)], true);
    assert!(matches!(value(&g, dense), Value::Int(n) if n > 100 && n <= 1000));
    assert!(error(&g, "setup_candidates(unit_of(m0), #{}, 1, 1001)").contains("1 to 1000"));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Ann's unit of three touching 25 mm bases from (10", 10"); Bo's two models in distinct
    /// cells of a 2" grid east of them (so nothing overlaps to start with).
    fn field(enemies: [(i64, i64); 2]) -> Game {
        let y = 10 * INCH;
        let enemy =
            |(cx, cy): (i64, i64)| Some((16 * INCH + cx * 2 * INCH, 4 * INCH + cy * 2 * INCH));
        game(
            &[
                model(0, 1, 125, Some((10 * INCH, y))),
                model(0, 1, 125, Some((10 * INCH + 250, y))),
                model(0, 1, 125, Some((10 * INCH + 500, y))),
                model(1, 2, 125, enemy(enemies[0])),
                model(1, 3, 160, enemy(enemies[1])),
            ],
            true,
        )
    }

    fn scene_after(state: &GameState) -> gloam_core::Scene {
        gloam_core::Scene::from_state(state, "base_radius", "unit")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// A free point is accepted exactly when `check_formation` accepts it; an accepted
        /// one moves the unit with no base overlapping and its shape kept; a refused one
        /// changes nothing (issue 13, "Show": property tests).
        #[test]
        fn a_free_point_is_accepted_iff_the_check_passes_and_a_refusal_changes_nothing(
            first in (0_i64..8, 0_i64..10),
            second in (0_i64..8, 0_i64..10),
            dx in -3000_i64..3000,
            dy in -3000_i64..3000,
        ) {
            prop_assume!(first != second);
            let g = field([first, second]);
            let limits = "#{ budget: inches(8), never_within: inches(1) }";
            let check = value(&g, &format!("check_formation(unit_of(m0), point({dx}, {dy}), {limits})"));
            let text = format!(
                "let u = unit_of(m0); let o = choose_move(u, {limits}, \"?\"); move_unit(u, o, {limits}); o.x"
            );
            let answer = Answer::One(Choice::Point(Point::new(dx, dy)));
            let (outcome, events, state) = run(&g, &text, &[answer]);
            if check == Value::Unit {
                prop_assert_eq!(outcome, Ok(Outcome::done(Value::Int(dx))));
                let scene = scene_after(&state);
                prop_assert_eq!(scene.first_overlap(), None);
                let x = |i: usize| state.piece(g.pieces[i]).and_then(|p| p.position).and_then(Position::point).map(|p| (p.x, p.y));
                prop_assert_eq!(x(0), Some((10 * INCH + dx, 10 * INCH + dy)));
                prop_assert_eq!(x(2), Some((10 * INCH + 500 + dx, 10 * INCH + dy)));
                prop_assert_eq!(events.len(), 3);
            } else {
                let error = outcome.expect_err("refused");
                prop_assert!(error.refused_answer().is_some(), "{}", error);
                prop_assert_eq!(&state, &g.state);
                prop_assert_eq!(&events, &g.events);
            }
        }
    }
}

#[test]
fn base_contact_is_exact_where_the_rounded_gap_is_not() {
    // Centres (0, 0) and (300, 401) are 500.2 tenths apart; radii 250 each leave a gap of
    // 0.2 tenths: the rounded gap says 0, base contact says no. (300, 400) touches exactly.
    let at = |y: i64| {
        game(
            &[
                model(0, 1, 250, Some((2 * INCH, 2 * INCH))),
                model(1, 2, 250, Some((2 * INCH + 300, 2 * INCH + y))),
            ],
            true,
        )
    };
    let g = at(401);
    assert_eq!(value(&g, "gap(m0, m1)"), Value::Int(0));
    no(&g, "base_contact(m0, m1)");
    yes(&at(400), "base_contact(m0, m1)");
}

#[test]
fn terrain_is_crossed_or_stood_wholly_on() {
    // Digest B, "behind" terrain (row at tabletop.md L710): judged base to base, a straight
    // line from the attacker to the target passing across the feature; "wholly on" (L648):
    // every base inside the footprint. The wall is 4" by 1" from (20", 24.5"), rules
    // obscuring and cover.
    let g = game(
        &[
            model(0, 1, 125, Some((22 * INCH, 22 * INCH))),
            model(1, 2, 125, Some((22 * INCH, 28 * INCH))),
            model(1, 3, 125, Some((30 * INCH, 28 * INCH))),
            // On the wall: centre 125 tenths inside its west and south sides exactly.
            model(
                1,
                4,
                125,
                Some((20 * INCH + 125, 24 * INCH + INCH / 2 + 125)),
            ),
            model(
                1,
                4,
                125,
                Some((20 * INCH + 124, 24 * INCH + INCH / 2 + 500)),
            ),
        ],
        true,
    );
    yes(&g, "crosses_terrain(m0, m1, \"Wall\")");
    yes(&g, "crosses_terrain(m0, m1, \"cover\")");
    no(&g, "crosses_terrain(m0, m2, \"cover\")");
    // A rule no placed feature has crosses nothing; so does an unknown name.
    no(&g, "crosses_terrain(m0, m1, \"unstable\")");
    yes(&g, "wholly_on_terrain(m3, \"obscuring\")");
    // The unit's second model pokes a tenth of a millimetre over the west side.
    no(&g, "wholly_on_terrain(unit_of(m3), \"obscuring\")");
    no(&g, "wholly_on_terrain(m0, \"Wall\")");
    // Moving north, the wall may be touched (its south side is 2.5" - 125 tenths = 510
    // tenths from the base's edge: the farthest candidate) but not crossed.
    let north = "move_candidates(unit_of(m0), #{ budget: inches(3), impassable: [\"Wall\"] })";
    yes(&g, &format!("{north}.some(|o| o.x == 0 && o.y == 510)"));
    no(&g, &format!("{north}.some(|o| o.x == 0 && o.y > 510)"));
}

#[test]
fn terrain_heights_points_and_nearness_are_read() {
    // The wall of `game`: 4" by 1" from (20", 24.5"), rules obscuring and cover; its height
    // is read back, a point on it names it, and a base is near it within a distance.
    let g = game(
        &[
            model(0, 1, 125, Some((22 * INCH, 24 * INCH))),
            model(1, 2, 125, Some((22 * INCH, 22 * INCH))),
        ],
        true,
    );
    assert_eq!(
        value(&g, "terrain_at(point(inches(21), inches(25))).len()"),
        Value::Int(1)
    );
    yes(
        &g,
        "terrain_at(point(inches(21), inches(25)))[0] == \"Wall\"",
    );
    yes(&g, "terrain_at(point(inches(21), inches(23))).is_empty()");
    yes(&g, "terrain_height(\"Wall\") > 0");
    // m0's base edge is half an inch minus 125 tenths from the wall's south side.
    let gap = INCH / 2 - 125;
    yes(&g, &format!("near_terrain(m0, \"Wall\", {gap})"));
    no(&g, &format!("near_terrain(m0, \"Wall\", {})", gap - 1));
    yes(&g, &format!("near_terrain(m0, \"cover\", {gap})"));
    no(&g, &format!("near_terrain(m0, \"unstable\", {gap})"));
    no(&g, "near_terrain(m1, \"Wall\", inches(1))");
}
