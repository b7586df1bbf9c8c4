//! The shipped realm battlefield (`cards/spearhead/realm_battlefield.gloam`) as the table
//! scripts see (issue 13 item 1): the chosen deployment map's territories and objectives,
//! the terrain features placed, and scripts measuring on it on both engines.

use std::path::PathBuf;

use gloam::load::{load, read_paths};
use gloam::world::{TableSetupError, table_of};
use gloam_core::{
    Battlefield, Ctx, Dice, GameState, Hex, Length, PieceId, PlayerId, Point, Position, Value,
};
use gloam_dsl::{Bindings, Host, Outcome, ScriptContext, ScriptEngine, ScriptSource, Table, World};
use gloam_grammar::Library;

const INCH: i64 = 254;

fn library() -> Library {
    let cards = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards/spearhead");
    let (sources, problems) = read_paths(&[cards]);
    assert!(problems.is_empty(), "{problems:?}");
    let (loaded, problems) = load(&sources, &Host::new());
    assert!(problems.is_empty(), "{problems:?}");
    loaded.library
}

/// The Aqshy side, horizontal map, the Lava Vent set up with its origin at (4", 20").
fn aqshy(library: &Library) -> Table {
    let def = library
        .table("Realm Battlefield: Aqshy")
        .expect("the Aqshy side");
    let at = Point::at(Length::inches(4), Length::inches(20));
    table_of(def, "Horizontal", &[("Lava Vent", at)]).expect("the table")
}

#[test]
fn the_table_holds_the_chosen_map_and_the_placed_terrain() {
    let library = library();
    let table = aqshy(&library);
    // realm_battlefield.gloam: 44in by 30in; the Horizontal map's two territories and four
    // objectives; the Lava Vent (4in by 3in, a 1in rim 2in tall) moved to (4in, 20in).
    assert_eq!(table.outline[2], Point::new(44 * INCH, 30 * INCH));
    let territories: Vec<&str> = table.territories.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(territories, ["South", "North"]);
    assert_eq!(table.objectives.len(), 4);
    assert_eq!(
        table.objectives[0],
        ("South Home".to_owned(), Point::new(22 * INCH, 6 * INCH))
    );
    let vent = &table.features[0];
    assert_eq!(
        (vent.name.as_str(), vent.kind.as_str()),
        ("Lava Vent", "small")
    );
    assert_eq!(vent.rules, ["cover", "unstable"]);
    assert_eq!(vent.footprints.len(), 2);
    assert_eq!(
        vent.footprints[1].footprint[2],
        Point::new(8 * INCH, 21 * INCH)
    );
    assert_eq!(vent.footprints[1].height, Length::inches(2));
}

#[test]
fn unknown_maps_and_features_and_a_feature_placed_twice_are_refused() {
    let library = library();
    let def = library.table("Realm Battlefield: Aqshy").expect("table");
    let map = table_of(def, "Vertical", &[]).unwrap_err();
    assert!(
        map.to_string().contains("has: Horizontal, Diagonal"),
        "{map}"
    );
    let feature = table_of(def, "Horizontal", &[("Bog", Point::ORIGIN)]).unwrap_err();
    assert!(
        matches!(feature, TableSetupError::UnknownFeature { .. }),
        "{feature}"
    );
    let twice = table_of(
        def,
        "Horizontal",
        &[
            ("Lava Vent", Point::ORIGIN),
            ("Lava Vent", Point::new(INCH * 10, 0)),
        ],
    )
    .unwrap_err();
    assert!(
        twice.to_string().contains("two terrain features"),
        "{twice}"
    );
}

#[test]
fn scripts_measure_on_the_shipped_table_with_both_engines() {
    let library = library();
    let world = World::new(
        Battlefield::from_hexes([(Hex::ORIGIN, Vec::<String>::new())]),
        ["blocked"],
        false,
        Dice::new(),
    )
    .with_table(aqshy(&library));
    // The ruleset's constants, as the rules driver gives them to every script.
    let constants = gloam::world::constants_of(library.ruleset("spearhead").expect("ruleset"));
    let world = constants.into_iter().fold(world, |world, (name, value)| {
        world.with_constant(name, value)
    });
    let mut state = GameState::new(1, &["Ann", "Bo"]);
    let mut events = Vec::new();
    let model = {
        let mut ctx = Ctx::new(&mut state, &mut events);
        // A 32 mm base (warscroll `base = 32mm`) centred 6in north of South Home.
        let id: PieceId = ctx
            .create_piece(
                PlayerId(0),
                "model",
                [("base_radius".to_owned(), 160), ("control".to_owned(), 1)],
            )
            .expect("piece");
        ctx.place_piece(
            id,
            Some(Position::Table {
                at: Point::new(22 * INCH, 12 * INCH),
                facing: (0, 0),
            }),
            vec![],
            "deploy",
        )
        .expect("place");
        id
    };
    events.clear();
    let text = "[wholly_within(m, \"South\", 0), within(m, \"North\", inches(3) - 160), \
                within(m, \"North\", inches(3) - 161), controller(\"South Home\", inches(6) - 160, \"control\") == player, \
                controller(\"South Home\", inches(6) - 161, \"control\") == (), terrain_features(), objectives().len(), \
                constant(\"combat_range\"), constant(\"objective_range\")]";
    let context = ScriptContext::effect("table test").with_variables(["m", "player"]);
    let bindings = Bindings::new()
        .acting(PlayerId(0))
        .with("m", Value::Piece(model));
    let expected = Value::List(vec![
        Value::Bool(true),
        Value::Bool(true),
        Value::Bool(false),
        Value::Bool(true),
        Value::Bool(true),
        Value::List(vec![Value::Str("Lava Vent".into())]),
        Value::Int(4),
        // spearhead.gloam: `combat_range` 3in and `objective_range` 3in (digest B12).
        Value::Int(762),
        Value::Int(762),
    ]);
    for engine in [ScriptEngine::Rhai, ScriptEngine::Compiled] {
        let host = Host::new();
        host.set_script_engine(engine);
        let script = host
            .compile(&ScriptSource::whole("test.gloam", text), &context)
            .expect("compiles");
        let outcome = host.run(&script, &world, &mut state, &mut events, &bindings, &[]);
        assert_eq!(outcome, Ok(Outcome::done(expected.clone())), "{engine:?}");
    }
}
