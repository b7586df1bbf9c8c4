//! The data format of measured games: lengths with units, armies and warscrolls, tables with
//! deployment maps, objectives and terrain, and ruleset constants; each check at load.

use gloam_core::{Length, LengthUnit};
use gloam_grammar::{
    Amount, AreaDef, GrammarDiagnostic, Library, Measure, Quantity, SourceFile, Value, load, parse,
};
use miette::Diagnostic as _;

/// A small measured ruleset for the tests below.
const RULES: &str = r#"
ruleset "skirmish" {
    title = "A measured skirmish"
    rounds = 4
    min_players = 2
    max_players = 2
    keywords = [hero, infantry, reinforcements]
    alliances = [order]
    unit = in
    weapon_abilities = [anti, crit_mortal]
    flags = [charged]
    terrain_kinds = [large]
    terrain_rules = [cover]
    frequencies = [once_per_turn]
    army_choices = [enhancement: 1]
    window "your_movement_phase" { }
    characteristic "move" { length = true required = true }
    characteristic "health" { required = true }
    characteristic "ward" { }
    die "d3" { faces = [one: 2, two: 2, three: 2] values = [one: 1, two: 2, three: 3] }
    constant "combat_range" { length = 3in confidence = high }
    constant "rounds" { number = 4 }
}
"#;

fn load_with_rules(text: &str) -> (Library, Vec<GrammarDiagnostic>) {
    load(&[
        SourceFile::new("rules.gloam", RULES),
        SourceFile::new("data.gloam", text),
    ])
}

fn messages(diagnostics: &[GrammarDiagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.code_str(), d))
        .collect()
}

/// The value of `x = TEXT` as parsed.
fn value_of(text: &str) -> (Option<Value>, Vec<GrammarDiagnostic>) {
    let source = SourceFile::new("v.gloam", format!("item {{\n    x = {text}\n}}\n"));
    let (document, diagnostics) = parse(&source);
    let value = document
        .items
        .first()
        .and_then(|item| item.field("x"))
        .map(|field| field.value.clone());
    (value, diagnostics)
}

fn length_of(text: &str) -> Measure {
    match value_of(text) {
        (Some(Value::Length(length)), diagnostics) if diagnostics.is_empty() => length.value,
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn lengths_parse_exactly_to_tenths_of_a_millimetre() {
    // 3" is 76.2 mm: 762 tenths.
    assert_eq!(length_of("3in").length, Length::tenth_mm(762));
    assert_eq!(length_of("3in").unit, LengthUnit::Inch);
    // Half an inch is written 0.5in: 127 tenths, exactly.
    assert_eq!(length_of("0.5in").length, Length::tenth_mm(127));
    assert_eq!(length_of("44in").length, Length::inches(44));
    assert_eq!(length_of("12cm").length, Length::cm(12));
    assert_eq!(length_of("32mm").length, Length::mm(32));
    assert_eq!(length_of("1.5cm").length, Length::mm(15));
    assert_eq!(length_of("1_000mm").length, Length::mm(1000));
    // Printed back in the unit it was written in.
    assert_eq!(length_of("0.5in").to_string(), "0.5in");
    assert_eq!(length_of("32mm").to_string(), "32mm");
}

#[test]
fn bad_lengths_are_refused_where_they_are_written() {
    for (text, code, says) in [
        ("3\"", "gloam::grammar::bad_length", "write inches as `3in`"),
        (
            "5ft",
            "gloam::grammar::bad_length",
            "unknown length unit `ft`",
        ),
        (
            "5inch",
            "gloam::grammar::bad_length",
            "unknown length unit `inch`",
        ),
        (
            "0.1in",
            "gloam::grammar::bad_length",
            "not a whole number of tenths",
        ),
        (
            "0.25in",
            "gloam::grammar::bad_length",
            "not a whole number of tenths",
        ),
        (
            "99999999999999999999in",
            "gloam::grammar::bad_length",
            "out of range",
        ),
        (
            "2d6",
            "gloam::grammar::bad_length",
            "unknown length unit `d6`",
        ),
    ] {
        let (value, diagnostics) = value_of(text);
        assert!(
            matches!(value, Some(Value::Invalid(_))),
            "{text}: {value:?}"
        );
        assert_eq!(
            diagnostics.len(),
            1,
            "{text}: {}",
            messages(&diagnostics).join("; ")
        );
        let problem = &diagnostics[0];
        assert_eq!(problem.code_str(), code, "{text}");
        assert!(problem.to_string().contains(says), "{text}: {problem}");
        // Located: the span covers exactly the length as written (after `x = `).
        let start = "item {\n    x = ".len();
        assert_eq!(problem.span().start, start, "{text}");
        assert_eq!(problem.span().end, start + text.len(), "{text}");
    }
    // `5inch` gets a did-you-mean.
    let (_, diagnostics) = value_of("5inch");
    let help = diagnostics[0]
        .help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    assert!(help.contains("did you mean `5in`"), "{help}");
}

#[test]
fn decimals_stay_refused_outside_lengths() {
    let (value, diagnostics) = value_of("1.5");
    assert!(matches!(value, Some(Value::Invalid(_))));
    assert_eq!(diagnostics[0].code_str(), "gloam::grammar::decimal_number");
    let (_, problems) = load_with_rules(
        r#"
army "A" {
    ruleset = "skirmish"
    warscroll "W" {
        models = 1
        base = 32mm
        stats = [move: 5in, health: 2.5]
    }
}
"#,
    );
    assert!(
        messages(&problems)
            .iter()
            .any(|m| m.starts_with("gloam::grammar::decimal_number")),
        "{problems:?}"
    );
}

const ARMY: &str = r#"
army "Wardens" {
    ruleset = "skirmish"
    alliance = order
    general = "Captain"
    warscroll "Captain" {
        models = 1
        base = 40mm
        stats = [move: 5in, health: 5, ward: 6]
        keywords = [hero, infantry]
        weapon "Blade" {
            attacks = 4
            hit = 3
            wound = 3
            rend = 1
            damage = 2
            abilities = [crit_mortal, anti: charged, anti: hero]
        }
        weapon "Bow" {
            range = 12in
            attacks = "D3+1"
            hit = 4
            wound = 4
            damage = 1
        }
    }
    warscroll "Spears" {
        units = 2
        models = 5
        base = 32mm
        stats = [move: 5in, health: 1]
        keywords = [infantry, reinforcements]
    }
    ability "Oath" { choice = enhancement text = "..." }
}
"#;

#[test]
fn an_army_loads_with_its_warscrolls_weapons_and_choices() {
    let (library, problems) = load_with_rules(ARMY);
    assert!(problems.is_empty(), "{:#?}", messages(&problems));
    let army = library.army("Wardens").unwrap();
    let captain = army.warscroll("Captain").unwrap();
    assert_eq!(captain.base.length, Length::mm(40));
    assert_eq!(
        captain.stat("move"),
        Some(Quantity::Length(Measure::new(
            Length::inches(5),
            LengthUnit::Inch
        )))
    );
    assert_eq!(captain.stat("health"), Some(Quantity::Number(5)));
    let blade = &captain.weapons[0];
    assert_eq!(blade.range, None);
    assert_eq!(blade.abilities.len(), 3, "two `anti` abilities add up");
    assert_eq!(captain.weapons[1].range.unwrap().length, Length::inches(12));
    assert_eq!(captain.weapons[1].rend, 0);
    assert_eq!(
        captain.weapons[1].attacks,
        Amount::Roll {
            dice: 1,
            die: "d3".to_string(),
            plus: 1
        }
    );
    assert_eq!(blade.damage, Amount::Fixed(2));
    assert_eq!(army.warscroll("Spears").unwrap().units, 2);
    // The printer gives text that loads to the same army.
    let (again, problems) = load(&[SourceFile::new("printed.gloam", library.to_string())]);
    assert!(problems.is_empty(), "{:#?}", messages(&problems));
    assert_eq!(again.army("Wardens"), library.army("Wardens"));
}

#[test]
fn army_mistakes_are_each_reported() {
    let broken = ARMY
        .replace("move: 5in, health: 5", "move: 5, heath: 5")
        .replace("anti: charged", "anti: chraged")
        .replace("crit_mortal,", "crit_mortl,")
        .replace("hit = 3", "hit = 7")
        .replace("base = 32mm", "base = 0mm")
        .replace("general = \"Captain\"", "general = \"Captian\"")
        .replace("choice = enhancement", "choice = enhancment")
        .replace("attacks = \"D3+1\"", "attacks = \"D7\"")
        .replace("attacks = 4", "attacks = \"many\"");
    let (_, problems) = load_with_rules(&broken);
    let all = messages(&problems).join("\n");
    for expected in [
        "`move` is a length",
        "unknown characteristic `heath`",
        "lack `health`",
        "unknown keyword or flag `chraged`",
        "unknown weapon ability `crit_mortl`",
        "`hit` must be at most 6",
        "`base` must be longer than 0",
        "unknown warscroll `Captian`",
        "unknown army choice `enhancment`",
        "the army offers 0 `enhancement` abilities",
        "unknown die `d7`",
        "`many` is not a dice roll",
    ] {
        assert!(
            all.contains(expected)
                || problems
                    .iter()
                    .any(|p| { p.help().is_some_and(|h| h.to_string().contains(expected)) }),
            "missing {expected:?} in:\n{all}"
        );
    }
}

const TABLE: &str = r#"
table "Field" {
    ruleset = "skirmish"
    width = 44in
    depth = 30in
    map "Lines" {
        territory "south" { rect = [[0in, 0in], [44in, 15in]] }
        territory "north" { outline = [[0in, 15in], [44in, 15in], [44in, 30in], [0in, 30in]] }
        objective "centre" { at = [22in, 15in] }
    }
    terrain "Ruin" {
        kind = large
        rules = [cover]
        outline = [[0in, 0in], [6in, 0in], [6in, 4in], [0in, 4in]]
        height = 0.5in
        part "wall" {
            outline = [[0in, 0in], [6in, 0in], [6in, 1in], [0in, 1in]]
            height = 4in
        }
    }
}
"#;

#[test]
fn a_table_loads_with_maps_objectives_and_terrain() {
    let (library, problems) = load_with_rules(TABLE);
    assert!(problems.is_empty(), "{:#?}", messages(&problems));
    let table = library.table("Field").unwrap();
    assert_eq!(table.width.length, Length::inches(44));
    let map = table.map("Lines").unwrap();
    assert!(matches!(map.territories[0].area, AreaDef::Rect(..)));
    assert_eq!(map.territories[0].area.corners().len(), 4);
    let south = map.territories[0].area.to_area();
    assert!(south.contains(gloam_core::Point::at(
        Length::inches(44),
        Length::inches(15)
    )));
    assert!(!south.contains(gloam_core::Point::at(
        Length::inches(22),
        Length::inches(16)
    )));
    assert_eq!(
        map.objectives[0].at.to_point().x,
        Length::inches(22).as_tenth_mm()
    );
    assert_eq!(table.terrain[0].tallest(), Length::inches(4));
    let (again, problems) = load(&[SourceFile::new("printed.gloam", library.to_string())]);
    assert!(problems.is_empty(), "{:#?}", messages(&problems));
    assert_eq!(again.table("Field"), library.table("Field"));
}

#[test]
fn a_map_says_which_numbers_of_players_it_serves() {
    let served = TABLE.replace(
        "    map \"Lines\" {\n",
        "    map \"Lines\" {\n        min_players = 2\n        max_players = 2\n",
    );
    let (library, problems) = load_with_rules(&served);
    assert!(problems.is_empty(), "{:#?}", messages(&problems));
    let map = library.table("Field").unwrap().map("Lines").unwrap();
    assert_eq!((map.min_players, map.max_players), (Some(2), Some(2)));
    assert!(map.serves(2));
    assert!(!map.serves(1) && !map.serves(3));
    // Printed and read again, the range stays.
    let (again, problems) = load(&[SourceFile::new("printed.gloam", library.to_string())]);
    assert!(problems.is_empty(), "{:#?}", messages(&problems));
    assert_eq!(again.table("Field"), library.table("Field"));
    // Without a range, a map serves as many players as it has territories.
    let (library, _) = load_with_rules(TABLE);
    let map = library.table("Field").unwrap().map("Lines").unwrap();
    assert!(map.serves(1) && map.serves(2) && !map.serves(3));

    let broken = TABLE.replace(
        "    map \"Lines\" {\n",
        "    map \"Lines\" {\n        min_players = 3\n        max_players = 2\n",
    );
    let (_, problems) = load_with_rules(&broken);
    let all = messages(&problems).join("\n");
    assert!(
        all.contains("`max_players` is below `min_players`"),
        "{all}"
    );
    let broken = TABLE.replace(
        "    map \"Lines\" {\n",
        "    map \"Lines\" {\n        min_players = 0\n        max_players = 4\n",
    );
    let (_, problems) = load_with_rules(&broken);
    let all = messages(&problems).join("\n");
    assert!(all.contains("`min_players` must be at least 1"), "{all}");
    assert!(
        all.contains("the map serves up to 4 players but has 2 territories"),
        "{all}"
    );
}

#[test]
fn table_mistakes_are_each_reported() {
    let broken = TABLE
        .replace("at = [22in, 15in]", "at = [22in, 31in]")
        .replace("[[0in, 0in], [44in, 15in]]", "[[0in, 0in], [44in, 0in]]")
        .replace(
            "outline = [[0in, 15in], [44in, 15in], [44in, 30in], [0in, 30in]]",
            "outline = [[0in, 15in], [44in, 30in], [44in, 15in], [0in, 30in]]",
        )
        .replace("kind = large", "kind = lrage")
        .replace("rules = [cover]", "rules = [cover, obscuring]")
        .replace("height = 4in", "height = -4in")
        .replace("[6in, 1in], [0in, 1in]]", "[6in, 5in], [0in, 5in]]");
    let (_, problems) = load_with_rules(&broken);
    let all = messages(&problems).join("\n");
    for expected in [
        "`at` lies off the table",
        "`rect` takes two opposite corners",
        "`outline` is not a simple polygon",
        "unknown terrain kind `lrage`",
        "unknown terrain rule `obscuring`",
        "`height` cannot be negative",
        "part `wall` reaches outside its feature's outline",
    ] {
        assert!(all.contains(expected), "missing {expected:?} in:\n{all}");
    }
    let (_, problems) = load_with_rules(
        "table \"T\" {\n    ruleset = \"skirmish\"\n    width = 10in\n    depth = 10in\n    map \"M\" {\n        territory \"x\" { }\n        objective \"o\" { at = [1in] }\n    }\n}\n",
    );
    let all = messages(&problems).join("\n");
    assert!(all.contains("missing field `outline` or `rect`"), "{all}");
    assert!(all.contains("has 1 coordinate; it needs 2"), "{all}");
}

#[test]
fn constants_hold_one_value_and_a_known_confidence() {
    let (library, problems) = load_with_rules("");
    assert!(problems.is_empty(), "{:#?}", messages(&problems));
    let ruleset = library.ruleset("skirmish").unwrap();
    assert_eq!(
        ruleset.constants[0].value,
        Quantity::Length(Measure::new(Length::inches(3), LengthUnit::Inch))
    );
    let broken = RULES
        .replace(
            "length = 3in confidence = high",
            "length = 3in number = 3 confidence = hihg",
        )
        .replace("unit = in", "unit = ft");
    let (_, problems) = load(&[SourceFile::new("rules.gloam", broken)]);
    let all = messages(&problems).join("\n");
    assert!(all.contains("one value: `length` or `number`"), "{all}");
    assert!(all.contains("unknown confidence `hihg`"), "{all}");
    assert!(all.contains("unknown length unit `ft`"), "{all}");
}

/// The shipped Spearhead data, read from `cards/spearhead/`.
fn spearhead() -> Vec<SourceFile> {
    let dir = format!("{}/../cards/spearhead", env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "gloam"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            SourceFile::new(path.display().to_string(), text)
        })
        .collect()
}

#[test]
fn shipped_spearhead_data_loads_and_round_trips() {
    let (library, problems) = load(&spearhead());
    assert!(problems.is_empty(), "{:#?}", messages(&problems));
    let printed = library.to_string();
    let (again, problems) = load(&[SourceFile::new("printed.gloam", printed.clone())]);
    assert!(problems.is_empty(), "{:#?}", messages(&problems));
    assert_eq!(again, library);
    assert_eq!(again.to_string(), printed);
}

#[test]
fn flat_terrain_is_allowed_but_a_table_or_a_base_needs_a_size() {
    let flat = TABLE.replace("height = 0.5in", "height = 0in");
    let (library, problems) = load_with_rules(&flat);
    assert!(problems.is_empty(), "{:#?}", messages(&problems));
    assert_eq!(
        library.table("Field").unwrap().terrain[0].height.length,
        Length::ZERO
    );
    let (_, problems) = load_with_rules(&TABLE.replace("width = 44in", "width = 0in"));
    let all = messages(&problems).join("\n");
    assert!(all.contains("`width` must be longer than 0"), "{all}");
}
