//! The text drawing of a measured table (`gloam::table_text`, issue 13 item 4): a small
//! table with territories, terrain with a raised part, an objective and two players' units
//! (a snapshot); the scale bar; models at the table's edges and corners; a model exactly on
//! the line between two cells; terrain features set up in play as pieces of the `terrain`
//! layer; players' words for lengths, directions and typed points. Then the table game in
//! the other commands: a saved skirmish game replays (`gloam replay`), `gloam render --save`
//! draws its table (terrain pieces too), and `gloam replay --html` writes its page.

use std::path::PathBuf;

use gloam::table_text::{
    Scale, TERRAIN_LAYER, TableText, direction_words, draw, length_words, parse_point, point_words,
    table_in, with_terrain_pieces,
};
use gloam_core::{
    Area, Ctx, GameState, Length, LengthUnit, PieceId, PlayerId, Point, Position, Scope,
};
use gloam_dsl::{Feature, Names, Table};

fn inch(n: i64) -> i64 {
    Length::inches(n).as_tenth_mm()
}

fn at(x: i64, y: i64) -> Option<Position> {
    Some(Position::Table {
        at: Point::new(x, y),
        facing: (0, 0),
    })
}

fn rect(x0: i64, y0: i64, x1: i64, y1: i64) -> Vec<Point> {
    vec![
        Point::new(inch(x0), inch(y0)),
        Point::new(inch(x1), inch(y0)),
        Point::new(inch(x1), inch(y1)),
        Point::new(inch(x0), inch(y1)),
    ]
}

/// A model of `unit` owned by `owner` with a base of `radius` tenths of a millimetre,
/// standing at `place` (tenths of a millimetre) or off the table.
fn model(
    state: &mut GameState,
    owner: u8,
    kind: &str,
    unit: i64,
    radius: i64,
    place: Option<(i64, i64)>,
) -> PieceId {
    let mut log = Vec::new();
    let mut ctx = Ctx::new(state, &mut log);
    let names = Names::default();
    let piece = ctx
        .create_piece(
            PlayerId(owner),
            kind,
            [
                (names.unit.clone(), unit),
                (names.base_radius.clone(), radius),
            ],
        )
        .expect("created");
    if let Some((x, y)) = place {
        ctx.place_piece(piece, at(x, y), vec![], "set_up")
            .expect("placed");
    }
    piece
}

/// The one helper that draws: `table` with the models of `state` at `scale`, the drawing
/// then the legend.
fn check(table: &Table, state: &GameState, scale: Scale) -> String {
    let text = draw(
        table,
        state,
        scale,
        &Names::default(),
        &["Red Band", "Blue Band"],
    );
    format!("{}{}", text.drawing, text.legend)
}

/// The cells of the drawing, row 0 at the bottom (what lies between `|` and `|`).
fn cells(drawing: &str) -> Vec<Vec<char>> {
    let mut rows: Vec<Vec<char>> = drawing
        .lines()
        .filter(|line| line.ends_with('|') && !line.starts_with("scale"))
        .filter_map(|line| {
            let start = line.find('|')?;
            let end = line.rfind('|')?;
            (end > start).then(|| line[start + 1..end].chars().collect())
        })
        .collect();
    rows.reverse();
    rows
}

fn small_table() -> (Table, GameState) {
    let ruin = Feature::new(
        "Ruin",
        "large",
        ["cover", "obscuring"],
        rect(0, 0, 3, 2),
        Length::inches(1),
    )
    .with_part(rect(0, 0, 1, 2), Length::inches(4))
    .moved_by(Point::new(inch(4), inch(4)));
    let table = Table::new(Length::inches(12), Length::inches(8), LengthUnit::Inch)
        .with_territory("West", Area::Polygon(rect(0, 0, 4, 8)))
        .with_territory("East", Area::Polygon(rect(8, 0, 12, 8)))
        .with_feature(ruin)
        .with_objective("Well", Point::new(inch(6), inch(2)));
    let mut state = GameState::new(1, &["Ann", "Bo"]);
    // Ann's unit of two 25 mm bases touching, Bo's hero on a 40 mm base with 2 damage, and a
    // unit of Bo's not set up yet.
    model(
        &mut state,
        0,
        "Red Spears",
        1,
        125,
        Some((inch(1), inch(1))),
    );
    model(
        &mut state,
        0,
        "Red Spears",
        1,
        125,
        Some((inch(1) + 250, inch(1))),
    );
    let hero = model(
        &mut state,
        1,
        "Blue Lord",
        2,
        200,
        Some((inch(10), inch(6))),
    );
    model(&mut state, 1, "Blue Blades", 3, 160, None);
    let mut log = Vec::new();
    Ctx::new(&mut state, &mut log)
        .set_counter(Scope::Piece(hero), "damage", 2)
        .expect("damage");
    (table, state)
}

#[test]
fn a_small_table_with_two_units_terrain_and_an_objective() {
    let (table, state) = small_table();
    let text = check(&table, &state, Scale::new(2, 1));
    insta::assert_snapshot!(text);
    let grid = cells(&text);
    assert_eq!(grid.len(), 8, "one row an inch");
    assert!(
        grid.iter().all(|row| row.len() == 24),
        "two columns an inch"
    );
    // The ruin's floor from (4, 4) to (7, 6) and its raised part on its west inch.
    assert_eq!(grid[4][10], '%');
    assert_eq!(grid[4][8], '#');
    // The objective in the cell holding (6 in, 2 in); Bo's hero in the cell holding its
    // centre, Ann's spears on the row of theirs.
    assert_eq!(grid[2][12], '1');
    assert_eq!(grid[6][20], 'a');
    assert_eq!(grid[1][2], 'A');
    assert!(
        grid.iter().flatten().all(|c| *c != 'B'),
        "Bo's units are lower case"
    );
}

#[test]
fn the_scale_bar_is_as_long_as_it_says() {
    let (table, state) = small_table();
    for (scale, length, columns) in [
        (Scale::new(2, 1), "6 in", 12),
        (Scale::new(1, 1), "12 in", 12),
        (Scale::new(4, 1), "2 in", 8),
    ] {
        let text = check(&table, &state, scale);
        let line = text
            .lines()
            .find(|l| l.starts_with("scale "))
            .expect("a scale line");
        let bar = format!("|{}|", "-".repeat(columns - 1));
        assert!(
            line.starts_with(&format!("scale {bar} {length} ")),
            "{scale:?}: {line}"
        );
    }
    let text = check(&table, &state, Scale::new(2, 1));
    assert!(text.contains("(a column is 0.5 in across, a row 1 in tall; north is up)"));
    // The edge labels: x every 3 inches under the near edge, the far edges' sizes.
    assert!(
        text.contains("\n    0     3     6     9     12\n"),
        "{text}"
    );
    assert!(
        text.starts_with(" 8 +------------------------+\n"),
        "{text}"
    );
}

#[test]
fn models_at_the_edges_and_corners_are_drawn_inside_the_frame() {
    let table = Table::new(Length::inches(10), Length::inches(6), LengthUnit::Inch);
    let mut state = GameState::new(1, &["Ann", "Bo"]);
    // Bases of radius 0, so only the centre's cell is marked.
    let corners = [
        (0, 0),
        (inch(10), 0),
        (0, inch(6)),
        (inch(10), inch(6)),
        (inch(5), inch(6)),
        (0, inch(3)),
    ];
    for (unit, (x, y)) in corners.iter().enumerate() {
        model(&mut state, 0, "Scout", unit as i64 + 1, 0, Some((*x, *y)));
    }
    let text = check(&table, &state, Scale::new(1, 1));
    let grid = cells(&text);
    assert_eq!((grid.len(), grid[0].len()), (3, 10));
    assert_eq!(grid[0][0], 'A', "bottom-left corner");
    assert_eq!(
        grid[0][9], 'B',
        "bottom-right corner: the far edge is in the last cell"
    );
    assert_eq!(grid[2][0], 'C', "top-left corner");
    assert_eq!(grid[2][9], 'D', "top-right corner");
    assert_eq!(grid[2][5], 'E', "on the far edge, half-way");
    assert_eq!(grid[1][0], 'F', "on the west edge, on a row line");
    for line in text.lines().filter(|l| l.contains('|')) {
        assert_eq!(
            line.matches('|').count(),
            2,
            "nothing outside the frame: {line}"
        );
    }
}

#[test]
fn a_model_exactly_on_a_cell_line_is_drawn_above_it_and_to_its_right() {
    let table = Table::new(Length::inches(10), Length::inches(10), LengthUnit::Inch);
    let mut state = GameState::new(1, &["Ann", "Bo"]);
    // One column an inch, one row two inches: (3 in, 4 in) is a corner of four cells.
    model(&mut state, 0, "Scout", 1, 0, Some((inch(3), inch(4))));
    // A tenth of a millimetre short of it, in both directions.
    model(
        &mut state,
        1,
        "Scout",
        2,
        0,
        Some((inch(7) - 1, inch(8) - 1)),
    );
    let grid = cells(&check(&table, &state, Scale::new(1, 1)));
    assert_eq!(grid[2][3], 'A');
    assert_eq!(grid[1][2], ' ');
    assert_eq!(grid[3][6], 'a');
    assert_eq!(grid[4][7], ' ');
}

#[test]
fn a_terrain_piece_puts_its_feature_where_it_stands() {
    let crate_feature = Feature::new(
        "Crate",
        "small",
        ["cover"],
        rect(0, 0, 2, 2),
        Length::inches(1),
    )
    .with_part(rect(0, 0, 1, 1), Length::inches(2));
    let table = Table::new(Length::inches(10), Length::inches(6), LengthUnit::Inch);
    let mut state = GameState::new(1, &["Ann", "Bo"]);
    let mut log = Vec::new();
    {
        let mut ctx = Ctx::new(&mut state, &mut log);
        let piece = ctx
            .create_piece_in(PlayerId(0), "Crate", TERRAIN_LAYER, Vec::new())
            .expect("a terrain piece");
        ctx.place_piece(piece, at(inch(6), inch(2)), vec![], "terrain")
            .expect("placed");
        // A piece of the layer naming no feature is left out.
        let other = ctx
            .create_piece_in(PlayerId(0), "Statue", TERRAIN_LAYER, Vec::new())
            .expect("a terrain piece");
        ctx.place_piece(other, at(inch(1), inch(1)), vec![], "terrain")
            .expect("placed");
    }
    let placed = with_terrain_pieces(table, &state, std::slice::from_ref(&crate_feature));
    assert_eq!(placed.features.len(), 1);
    assert_eq!(
        placed.features[0],
        crate_feature.clone().moved_by(Point::new(inch(6), inch(2)))
    );
    let text = check(&placed, &state, Scale::new(2, 1));
    let grid = cells(&text);
    assert_eq!(
        grid[2][12], '#',
        "the raised part at the feature's own origin, moved"
    );
    assert_eq!(grid[3][14], '%');
    assert_eq!(grid[1][12], ' ');
    assert!(
        text.contains("terrain:  %  Crate (small, cover), 1.0 in high; #  raised part 2.0 in high"),
        "{text}"
    );
    // Set up again elsewhere: the feature moves, not doubles.
    let again = with_terrain_pieces(placed, &state, &[crate_feature]);
    assert_eq!(again.features.len(), 1);
}

#[test]
fn the_skirmish_match_has_its_table_and_its_terrain_pieces() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/skirmish");
    let rules = gloam::sim::prepare(&[data], "skirmish").expect("the skirmish match");
    let mut state = GameState::new(1, &["Ann", "Bo"]);
    let table = table_in(&rules, &state).expect("a table game");
    assert_eq!(table.territories.len(), 2);
    assert!(
        table.features.is_empty(),
        "no terrain is placed at match creation"
    );
    let mut log = Vec::new();
    {
        let mut ctx = Ctx::new(&mut state, &mut log);
        let piece = ctx
            .create_piece_in(PlayerId(1), "Crate", TERRAIN_LAYER, Vec::new())
            .expect("a terrain piece");
        ctx.place_piece(piece, at(inch(9), inch(9)), vec![], "terrain")
            .expect("placed");
    }
    let table = table_in(&rules, &state).expect("a table game");
    assert_eq!(table.features.len(), 1);
    assert_eq!(
        table.features[0].footprints[0].footprint[0],
        Point::new(inch(9), inch(9))
    );
    let text = TableText::of_game(&rules, &state).expect("drawn");
    assert!(
        text.legend.contains("Crate (small, cover)"),
        "{}",
        text.legend
    );
    // A game on hexes has no table.
    let cards = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards");
    let hexes = gloam::sim::prepare(&[cards], "shadespire").expect("shadespire");
    assert!(table_in(&hexes, &GameState::new(1, &["Ann", "Bo"])).is_none());
}

#[test]
fn lengths_directions_and_typed_points_read_as_players_say_them() {
    assert_eq!(length_words(Length::inches(5), LengthUnit::Inch), "5.0 in");
    assert_eq!(
        length_words(Length::tenth_mm(12), LengthUnit::Inch),
        "0.0 in"
    );
    assert_eq!(length_words(Length::mm(125), LengthUnit::Cm), "12.5 cm");
    assert_eq!(
        point_words(Point::new(inch(12), 1651), LengthUnit::Inch),
        "(12.0 in, 6.5 in)"
    );
    assert_eq!(direction_words(Point::new(10, 0)), "east");
    assert_eq!(direction_words(Point::new(10, 10)), "north-east");
    assert_eq!(direction_words(Point::new(-1, -10)), "south");
    assert_eq!(direction_words(Point::new(-10, 4)), "west");
    assert_eq!(direction_words(Point::new(0, 0)), "nowhere");
    assert_eq!(
        parse_point("1.5, 2", LengthUnit::Inch),
        Some(Point::new(381, 508))
    );
    assert_eq!(
        parse_point("+2 -0.5", LengthUnit::Inch),
        Some(Point::new(508, -127))
    );
    assert_eq!(parse_point("1 2 3", LengthUnit::Inch), None);
    assert_eq!(parse_point("a b", LengthUnit::Inch), None);
    assert_eq!(parse_point(". 2", LengthUnit::Inch), None);
    assert_eq!(parse_point("1 2parsecs", LengthUnit::Inch), None);
}

#[test]
fn the_fitted_scale_is_the_finest_that_fits() {
    let square = Table::new(Length::inches(20), Length::inches(20), LengthUnit::Inch);
    assert_eq!(Scale::fit(&square, 100, 32), Scale::new(2, 1));
    assert_eq!(Scale::fit(&square, 100, 40), Scale::new(4, 1));
    let wide = Table::new(Length::inches(44), Length::inches(30), LengthUnit::Inch);
    assert_eq!(Scale::fit(&wide, 88, 32), Scale::new(2, 1));
    let big = Table::new(Length::cm(300), Length::cm(200), LengthUnit::Cm);
    assert_eq!(Scale::fit(&big, 100, 32), Scale::new(1, 4));
}

#[test]
fn a_table_that_is_not_a_rectangle_marks_what_lies_outside_it() {
    let mut table = Table::new(Length::inches(8), Length::inches(8), LengthUnit::Inch);
    table.outline = vec![
        Point::new(0, 0),
        Point::new(inch(8), 0),
        Point::new(0, inch(8)),
    ];
    let grid = cells(&check(
        &table,
        &GameState::new(1, &["Ann", "Bo"]),
        Scale::new(1, 1),
    ));
    assert_eq!(grid[0][0], ' ');
    assert_eq!(grid[3][7], '/');
}

fn skirmish_data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/skirmish")
}

/// A whole skirmish game played by random agents, saved in a fresh folder.
fn saved_skirmish(name: &str, seed: u64) -> PathBuf {
    use gloam::agent::Agent as _;
    let dir = std::env::temp_dir().join(format!("gloam-table-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp folder");
    let rules = gloam::sim::prepare(&[skirmish_data()], "skirmish").expect("the skirmish");
    let mut game = gloam_core::Game::start(
        rules.clone(),
        rules.setup(seed),
        gloam::engine::RulesetGame::first_frames(),
    )
    .expect("started");
    let mut agent = gloam::agent::RandomAgent::new(seed);
    while !game.is_over() {
        let request = game.pending()[0].clone();
        let answer = agent.choose(&game.view(request.player), &request);
        game.submit(request.player, answer).expect("a legal answer");
    }
    let file = dir.join("skirmish.json");
    gloam::save::SavedGame::of(&game, vec![skirmish_data()])
        .write(&file)
        .expect("saved");
    file
}

fn gloam(args: &[&str]) -> (bool, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gloam"))
        .args(args)
        .output()
        .expect("gloam runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn of_class<'a, 'i>(
    document: &'a roxmltree::Document<'i>,
    class: &str,
) -> Vec<roxmltree::Node<'a, 'i>> {
    document
        .descendants()
        .filter(|node| node.attribute("class") == Some(class))
        .collect()
}

#[test]
fn a_saved_table_game_replays_and_renders_its_table() {
    let file = saved_skirmish("render", 5);
    let path = file.to_str().expect("a path");
    let (ok, out, err) = gloam(&["replay", path]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("replay matches"), "{out}");
    // The last state: the table, both territories, the objective, every model.
    let svg_file = file.with_extension("svg");
    let svg_path = svg_file.to_str().expect("a path");
    let (ok, out, err) = gloam(&["render", "--save", path, "--out", svg_path]);
    assert!(ok, "{out}{err}");
    let svg = std::fs::read_to_string(&svg_file).expect("the picture");
    let document = roxmltree::Document::parse(&svg).expect("valid SVG");
    assert_eq!(of_class(&document, "table").len(), 1);
    assert_eq!(of_class(&document, "territory").len(), 2);
    assert_eq!(of_class(&document, "objective").len(), 1);
    assert_eq!(
        of_class(&document, "base").len(),
        8,
        "every model is on the table"
    );
    assert!(of_class(&document, "hex").is_empty(), "no hex is drawn");
    let roster: Vec<String> = of_class(&document, "roster")
        .iter()
        .filter_map(|n| n.text().map(str::to_owned))
        .collect();
    assert_eq!(roster.len(), 4, "{roster:?}");
    assert!(roster[0].starts_with("A  Ann  Red Band"), "{roster:?}");
    // At a step, with the overlays of a model.
    let (ok, out, err) = gloam(&[
        "render",
        "--save",
        path,
        "--step",
        "3",
        "--los",
        "Red Captain",
        "--range",
        "Red Captain:3",
    ]);
    assert!(ok, "{out}{err}");
    let document = roxmltree::Document::parse(&out).expect("valid SVG");
    assert_eq!(of_class(&document, "range").len(), 1);
    assert!(!of_class(&document, "sight").is_empty());
    // Before set-up, a model has no line of sight to draw.
    let (ok, _, err) = gloam(&[
        "render",
        "--save",
        path,
        "--step",
        "0",
        "--los",
        "Red Captain",
    ]);
    assert!(!ok);
    assert!(
        err.contains("is not on the battlefield at this step"),
        "{err}"
    );
}

#[test]
fn the_replay_page_of_a_table_game_steps_through_its_table() {
    let file = saved_skirmish("page", 9);
    let page_file = file.with_extension("html");
    let (ok, out, err) = gloam(&[
        "replay",
        file.to_str().expect("a path"),
        "--html",
        page_file.to_str().expect("a path"),
    ]);
    assert!(ok, "{out}{err}");
    let page = std::fs::read_to_string(&page_file).expect("the page");
    let start_tag = "<script type=\"application/json\" id=\"gloam-data\">";
    let start = page.find(start_tag).expect("the page's data") + start_tag.len();
    let end = start + page[start..].find("</script>").expect("its end");
    let data: serde_json::Value = serde_json::from_str(&page[start..end]).expect("JSON");
    let boards = data["boards"].as_array().expect("boards");
    assert_eq!(boards.len(), 1, "the table is stored once");
    assert!(
        boards[0]
            .as_str()
            .expect("svg")
            .contains("class=\"territory\"")
    );
    let frames = data["frames"].as_array().expect("frames");
    let last = frames.last().expect("a last step");
    let items = data["items"].as_array().expect("items");
    let bases = last["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .filter(|i| {
            items[i.as_u64().expect("an index") as usize]
                .as_str()
                .is_some_and(|item| item.contains("class=\"base\""))
        })
        .count();
    assert_eq!(bases, 8);
    let narration: Vec<&str> = frames
        .iter()
        .flat_map(|f| f["narration"].as_array().into_iter().flatten())
        .filter_map(|line| line.as_str())
        .collect();
    assert!(
        narration
            .iter()
            .any(|l| l.contains(" are set up (") || l.contains(" is set up at (")),
        "{narration:?}"
    );
}

#[test]
fn a_picture_draws_terrain_set_up_as_pieces() {
    let rules = gloam::sim::prepare(&[skirmish_data()], "skirmish").expect("the skirmish");
    let mut state = GameState::new(1, &["Ann", "Bo"]);
    let mut log = Vec::new();
    {
        let mut ctx = Ctx::new(&mut state, &mut log);
        let piece = ctx
            .create_piece_in(PlayerId(0), "Crate", TERRAIN_LAYER, Vec::new())
            .expect("a terrain piece");
        ctx.place_piece(piece, at(inch(4), inch(12)), vec![], "terrain")
            .expect("placed");
    }
    let svg = gloam::render::layers(&rules, &state, &gloam::render::Overlays::default())
        .expect("drawn")
        .to_svg();
    let document = roxmltree::Document::parse(&svg).expect("valid SVG");
    let terrain = of_class(&document, "terrain");
    assert_eq!(terrain.len(), 2, "the crate's floor and its lid");
    assert!(
        terrain
            .iter()
            .all(|t| t.attribute("data-feature") == Some("Crate"))
    );
    // The floor's first corner is the piece's point: 4 in east (20 px margin + 80 px), 12 in
    // north of the near edge of a 20-inch table (20 + 40 px header + (20 - 12) x 20 px).
    assert!(
        terrain[0]
            .attribute("points")
            .is_some_and(|p| p.starts_with("100,220 ")),
        "{:?}",
        terrain[0].attribute("points")
    );
}
