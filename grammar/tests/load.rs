//! The example data set of `tests/data/`: it loads cleanly, `extends` merges as documented,
//! the board layout becomes axial hexes, scripts point into their files, and printing then
//! loading again gives the same definitions.

use gloam_core::{Hex, Visibility};
use gloam_grammar::{
    Library, Owner, PartKind, Restriction, SourceFile, Value, ZoneDef, list_codes, load, parse,
    schema,
};

const DATA: [&str; 7] = [
    "underworlds",
    "harrowdeep",
    "board",
    "truthseekers",
    "cards",
    "deck_cards",
    "decklist",
];

fn data_files() -> Vec<SourceFile> {
    DATA.iter()
        .map(|name| {
            let path = format!("tests/data/{name}.gloam");
            let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
            SourceFile::new(path, text)
        })
        .collect()
}

/// The data set's library; the data set must load without a single diagnostic.
fn library() -> Library {
    let (library, diagnostics) = load(&data_files());
    let messages: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    assert!(messages.is_empty(), "{messages:#?}");
    library
}

#[test]
fn data_set_loads_every_definition() {
    let library = library();
    assert_eq!(library.rulesets().len(), 2);
    assert_eq!(library.boards().len(), 1);
    assert_eq!(library.warbands().len(), 1);
    assert_eq!(library.warbands()[0].fighters.len(), 2);
    assert_eq!(library.cards().len(), 32);
    assert_eq!(library.decklists().len(), 1);
}

#[test]
fn extends_inherits_overrides_and_removes() {
    let library = library();
    let declared = library.declared_ruleset("harrowdeep").expect("declared");
    assert_eq!(declared.rounds, None);
    let resolved = library.ruleset("harrowdeep").expect("resolved");
    // Inherited single values, overridden ones.
    assert_eq!(resolved.rounds, Some(3));
    assert_eq!(resolved.min_players, Some(2));
    assert_eq!(resolved.off_board_blocks_sight, Some(true));
    assert_eq!(resolved.title, "Warhammer Underworlds: Harrowdeep");
    // Name lists: the parent's, then the child's; `remove` drops `immediately`.
    assert_eq!(
        resolved.score_timings,
        ["end_phase", "surge", "third_end_phase"]
    );
    assert_eq!(
        resolved.hex_types,
        ["starting", "blocked", "edge", "lethal", "cover"]
    );
    // Named items: overridden in place, new ones appended, removed ones gone.
    let dice: Vec<&str> = resolved.dice.iter().map(|die| die.name.as_str()).collect();
    assert_eq!(dice, ["attack", "defence", "magic"]);
    let attack = resolved.die("attack").expect("attack die");
    assert!(attack.faces.iter().any(|face| face.name == "smash"));
    assert!(!attack.faces.iter().any(|face| face.name == "hammer"));
    let characteristics: Vec<&str> = resolved
        .characteristics
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        characteristics,
        ["move", "wounds", "defence", "bounty", "wizard_level"]
    );
    assert!(
        resolved
            .windows
            .iter()
            .any(|window| window.name == "power_step")
    );
    assert!(resolved.setup.is_some());
    let decks: Vec<&str> = resolved
        .decks
        .iter()
        .map(|deck| deck.name.as_str())
        .collect();
    assert_eq!(decks, ["power", "objective"]);
    assert_eq!(resolved.decks[0].kinds, ["ploy", "spell", "upgrade"]);
    // The base is its own resolution.
    assert_eq!(
        library.ruleset("underworlds"),
        library.declared_ruleset("underworlds")
    );
}

#[test]
fn extends_zones_override_visibility_append_and_remove() {
    let library = library();
    let resolved = library.ruleset("harrowdeep").expect("resolved");
    let zones: Vec<(&str, Visibility)> = resolved
        .zones
        .iter()
        .map(|zone| (zone.name.as_str(), zone.visibility))
        .collect();
    // `scored` keeps its place with the child's visibility, `persisting` is appended and
    // `revealed` is removed.
    assert_eq!(
        zones,
        [
            ("power_hand", Visibility::Owner),
            ("power_discard", Visibility::Public),
            ("scored", Visibility::Owner),
            ("persisting", Visibility::Public),
        ]
    );
    let base = library.ruleset("underworlds").expect("base");
    assert_eq!(base.names(PartKind::Zone).len(), 4);
}

#[test]
fn zones_parse_each_visibility_and_none_is_empty() {
    let text = r#"ruleset "r" { title = "R" rounds = 1 min_players = 2 max_players = 2
        zones = [deck: nobody, hand: owner, discard: public] }
        ruleset "bare" { title = "B" rounds = 1 min_players = 2 max_players = 2 }"#;
    let (library, diagnostics) = load(&[SourceFile::new("r.gloam", text)]);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let ruleset = library.ruleset("r").expect("r");
    let visibilities: Vec<&str> = ruleset.zones.iter().map(ZoneDef::visibility_name).collect();
    assert_eq!(visibilities, ["nobody", "owner", "public"]);
    assert_eq!(ruleset.names(PartKind::Zone), ["deck", "hand", "discard"]);
    assert!(library.ruleset("bare").expect("bare").zones.is_empty());
}

#[test]
fn zones_unknown_visibility_and_conflict_are_reported() {
    let text = r#"ruleset "r" { title = "R" rounds = 1 min_players = 2 max_players = 2
        zones = [hand: ownr, pile: public, pile: nobody, deck: nobody, deck: nobody] }"#;
    let (library, diagnostics) = load(&[SourceFile::new("r.gloam", text)]);
    let messages: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            "unknown zone visibility `ownr`",
            "zone `pile` is declared twice with different visibilities",
            "`deck` appears twice in `zones`",
        ]
    );
    let helps: Vec<String> = diagnostics
        .iter()
        .filter_map(|d| miette::Diagnostic::help(d).map(|h| h.to_string()))
        .collect();
    assert_eq!(helps[0], "did you mean `owner`?");
    // The first declaration of each zone is kept; the bad one is left out.
    let ruleset = library.ruleset("r").expect("r");
    assert_eq!(ruleset.names(PartKind::Zone), ["pile", "deck"]);
}

#[test]
fn board_layout_becomes_odd_r_axial_hexes() {
    let library = library();
    let board = library.board("Shattered Atrium").expect("board");
    assert_eq!(board.hexes.len(), 30);
    assert_eq!(board.half_hexes.len(), 3);
    let types_at = |q: i32, r: i32| -> Vec<String> {
        board
            .hexes
            .iter()
            .find(|hex| hex.hex == Hex::new(q, r))
            .map(|hex| hex.types.clone())
            .unwrap_or_else(|| panic!("no hex at ({q}, {r})"))
    };
    // Row 0 is unshifted: column c is q = c.
    assert_eq!(types_at(0, 0), Vec::<String>::new());
    assert_eq!(types_at(2, 0), ["starting"]);
    // Row 1 is shifted right half a hex: column c is q = c.
    assert_eq!(types_at(1, 1), ["blocked"]);
    assert_eq!(types_at(3, 1), ["lethal"]);
    // Row 2: q = c - 1; row 3: q = c - 1.
    assert_eq!(types_at(1, 2), ["cover"]);
    assert_eq!(types_at(-1, 3), ["starting"]);
    assert_eq!(types_at(2, 3), ["blocked"]);
    let halves: Vec<Hex> = board.half_hexes.iter().map(|hex| hex.hex).collect();
    assert_eq!(halves, [Hex::new(6, 0), Hex::new(5, 2), Hex::new(4, 4)]);
    assert!(board.half_hexes.iter().all(|hex| hex.types == ["edge"]));
    let kernel_board = board.to_board();
    assert_eq!(kernel_board.hexes.len(), 30);
    assert_eq!(kernel_board.half_hexes.len(), 3);
}

#[test]
fn warband_fighters_weapons_and_abilities() {
    let library = library();
    let warband = library.warband("Xandire's Truthseekers").expect("warband");
    assert_eq!(warband.alliance, "order");
    let calthia = warband.fighter("Calthia Xandire").expect("Calthia");
    assert_eq!(calthia.stat("move"), Some(3));
    assert_eq!(calthia.keywords, ["leader", "wizard"]);
    assert_eq!(calthia.symbols[0].face, "block");
    assert!(calthia.inspire.is_some());
    let broadsword = &calthia.weapons[0];
    assert_eq!(
        (broadsword.range, broadsword.dice, broadsword.damage),
        (1, 2, 2)
    );
    assert_eq!(broadsword.inspired_keywords[0].name, "cleave");
    let ability = &calthia.abilities[0];
    assert!(ability.reaction);
    assert_eq!(ability.window.as_deref(), Some("after_damage"));
    assert!(ability.effect.is_some());
}

#[test]
fn cards_keep_owner_restrictions_and_multiline_text() {
    let library = library();
    let blaze = library.card("Blaze of Light").expect("Blaze of Light");
    assert_eq!(blaze.kind, "spell");
    assert_eq!(
        blaze.owner,
        Owner::Warband("Xandire's Truthseekers".to_string())
    );
    assert_eq!(
        blaze.restrictions,
        [Restriction::Fighter("Calthia Xandire".to_string())]
    );
    assert_eq!(blaze.casting_value[0].name, "channel");
    assert_eq!(blaze.window.as_deref(), Some("power_step"));
    let banish = library.card("Banish the Dark").expect("Banish the Dark");
    assert_eq!(banish.score.as_deref(), Some("end_phase"));
    assert!(
        banish
            .text
            .as_deref()
            .is_some_and(|text| text.contains("action\nthis phase"))
    );
    assert!(banish.effect.is_none());
}

#[test]
fn decklist_lists_each_deck_in_order() {
    let library = library();
    let decklist = library.decklist("Truthseekers: Starter").expect("decklist");
    assert_eq!(decklist.ruleset, "harrowdeep");
    assert_eq!(decklist.warband.as_deref(), Some("Xandire's Truthseekers"));
    let decks: Vec<&str> = decklist
        .decks
        .iter()
        .map(|deck| deck.name.as_str())
        .collect();
    assert_eq!(decks, ["objective", "power"]);
    let objective = decklist.deck("objective").expect("objective deck");
    assert_eq!(objective.cards.len(), 12);
    assert_eq!(objective.cards[0], "Banish the Dark");
    assert_eq!(decklist.deck("power").expect("power deck").cards.len(), 20);
    // Every listed card is in the library.
    for deck in &decklist.decks {
        for card in &deck.cards {
            assert!(library.card(card).is_some(), "{card}");
        }
    }
}

#[test]
fn decklist_schema_tells_the_two_decks_apart() {
    let decks: Vec<_> = schema().iter().filter(|item| item.kind == "deck").collect();
    assert_eq!(decks.len(), 2);
    assert_eq!(decks[0].parent, Some("ruleset"));
    assert!(decks[0].field("min_size").is_some());
    assert_eq!(decks[1].parent, Some("decklist"));
    assert!(decks[1].field("cards").is_some());
    let decklist = schema()
        .iter()
        .find(|item| item.kind == "decklist")
        .expect("decklist");
    assert_eq!(decklist.children, ["deck"]);
}

#[test]
fn every_script_points_into_its_file() {
    let library = library();
    let scripts = library.scripts();
    assert_eq!(scripts.len(), 11);
    for script_use in scripts {
        let script = script_use.script;
        let text = script.file_text();
        assert_eq!(
            &text[script.text_range()],
            script.text,
            "{}",
            script_use.item_name
        );
        assert!(script.file_name().starts_with("tests/data/"));
    }
}

#[test]
fn printing_then_loading_gives_the_same_library() {
    let library = library();
    let printed = library.to_string();
    let (again, diagnostics) = load(&[SourceFile::new("printed.gloam", printed.clone())]);
    let messages: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    assert!(messages.is_empty(), "{messages:#?}");
    assert_eq!(again, library);
    assert_eq!(again.to_string(), printed);
}

#[test]
fn parse_keeps_spans_of_items_fields_and_scripts() {
    let text = "card \"A\" {\n    effect = { push(x, 1); }\n}\n";
    let (document, diagnostics) = parse(&SourceFile::new("a.gloam", text));
    assert!(diagnostics.is_empty());
    let item = &document.items[0];
    assert_eq!(&text[item.kind.span.start..item.kind.span.end], "card");
    assert_eq!(
        item.name.as_ref().map(|name| name.value.as_str()),
        Some("A")
    );
    let field = item.field("effect").expect("effect");
    let Value::Script(script) = &field.value else {
        panic!("not a script: {:?}", field.value);
    };
    assert_eq!(&text[script.span.start..script.span.end], " push(x, 1); ");
    assert_eq!(script.text, " push(x, 1); ");
}

#[test]
fn codes_are_unique_and_namespaced() {
    let codes = list_codes();
    assert_eq!(codes.len(), 29);
    for (index, (code, meaning)) in codes.iter().enumerate() {
        assert!(code.starts_with("gloam::grammar::"), "{code}");
        assert!(!meaning.is_empty() && !meaning.ends_with('.'), "{code}");
        assert!(
            codes[index + 1..].iter().all(|(other, _)| other != code),
            "{code}"
        );
    }
}

#[test]
fn schema_lists_top_level_kinds_first() {
    let kinds: Vec<&str> = schema().iter().map(|item| item.kind).collect();
    assert_eq!(
        &kinds[..9],
        [
            "ruleset", "board", "warband", "card", "decklist", "army", "table", "roster", "party"
        ]
    );
}

#[test]
fn decklist_unique_names_span_all_its_decks() {
    let text = r#"
ruleset "r" {
    title = "R"
    rounds = 1
    min_players = 2
    max_players = 2
    card_kinds = [objective, ploy]
    alliances = [order]
    deck "objective" { kinds = [objective, ploy] unique_names = true }
    deck "power" { kinds = [ploy] unique_names = true }
}
card "Feint" { ruleset = "r" kind = ploy owner = universal }
decklist "d" {
    ruleset = "r"
    warband = "w"
    deck "objective" { cards = ["Feint"] }
    deck "power" { cards = ["Feint"] }
}
warband "w" { ruleset = "r" alliance = order }
"#;
    let (library, diagnostics) = load(&[SourceFile::new("d.gloam", text)]);
    let codes: Vec<&str> = diagnostics.iter().map(|d| d.code_str()).collect();
    // The repeat is reported where it is listed again, in the second deck.
    assert_eq!(codes, ["gloam::grammar::deck_duplicate"]);
    let repeat = &diagnostics[0];
    assert_eq!(&text[repeat.span().start..repeat.span().end], "\"Feint\"");
    assert!(repeat.span().start > text.find("deck \"power\" { cards").unwrap_or(0));
    assert_eq!(library.decklists()[0].decks[1].cards, ["Feint"]);
}
