//! The generated reference, the codes and the trigger index.

use gloam_core::{Event, Scope};
use gloam_dsl::{
    FunctionKind, ListenerId, NameKind, TriggerIndex, docs_markdown, list_codes, vocabulary,
};

#[test]
fn the_reference_documents_every_function_and_code() {
    let text = docs_markdown();
    for doc in vocabulary() {
        assert!(
            text.contains(&format!("`{}`", doc.signature())),
            "{} is missing",
            doc.name
        );
    }
    for (code, meaning) in list_codes() {
        assert!(
            text.contains(&format!("| `{code}` | {meaning} |")),
            "{code} is missing"
        );
    }
    assert_eq!(docs_markdown(), text, "the reference is not deterministic");
}

#[test]
fn the_vocabulary_has_the_designed_names() {
    let names = |kind: FunctionKind| -> Vec<&str> {
        vocabulary()
            .iter()
            .filter(|doc| doc.kind == kind)
            .map(|doc| doc.name)
            .collect()
    };
    for name in [
        "fighters",
        "friendly_fighters",
        "enemy_fighters",
        "adjacent",
        "distance",
        "visible",
        "has_token",
        "characteristic",
        "damage",
        "wounds",
        "has_keyword",
        "is_inspired",
        "owner",
        "current_player",
        "round",
        "glory",
        "hand_size",
        "counter",
        "tokens",
        "hexes_of_type",
        "hex_of",
        "fighters_within",
        "fighters_of",
        "on_battlefield",
        "fighter_kind",
        "reachable_hexes",
        "move_routes",
        "starting_hexes",
        "player_after",
        "count_faces",
        "card_kind",
        "card_glory",
        "card_window",
        "card_score",
        "card_has_keyword",
        "condition_holds",
        "equipped",
        // The measured table (docs/kernel.md, "What the DSL exposes").
        "inches",
        "point",
        "position",
        "unit_of",
        "models_of",
        "gap",
        "within",
        "wholly_within",
        "in_range_of_enemy",
        "coherent",
        "controller",
        "line_of_sight",
        "check_move",
        "check_formation",
        "check_setup",
        "move_candidates",
        "setup_candidates",
        // Set-up in play and profiles of a measured game (docs/dsl.md, "The measured table").
        "table_layouts",
        "table_edges",
        "territories_at",
        "terrain_to_set_up",
        "terrain_kind",
        "terrain_setup_candidates",
        "check_terrain_setup",
        "terrain_height",
        "terrain_at",
        "near_terrain",
        "check_place_model",
        "unit_models",
        "all_units_of",
        "army_of",
        "party_of",
        "model_abilities",
        "model_weapons",
        "model_weapon",
    ] {
        assert!(names(FunctionKind::Query).contains(&name), "query {name}");
    }
    for name in [
        "push",
        "push_away",
        "deal_damage",
        "heal",
        "give_token",
        "remove_token",
        "draw_power",
        "draw_objectives",
        "gain_glory",
        "modify",
        "set_counter",
        "add_counter",
        "inspire",
        "uninspire",
        "mark",
        "then",
        "play_card",
        "end_game",
        "move_fighter",
        "move_fighter_along",
        "place_fighter",
        "take_off",
        "move_card",
        "move_card_bottom",
        "shuffle_zone",
        "draw_cards",
        "equip",
        "move_unit",
        "move_model",
        "set_up_unit",
        "place_model",
        "set_up_terrain",
        "roll_amount",
        "roll_values",
    ] {
        assert!(names(FunctionKind::Effect).contains(&name), "effect {name}");
    }
    assert_eq!(
        names(FunctionKind::Choice),
        [
            "choose_fighter",
            "choose_hex",
            "choose_option",
            "choose_secretly",
            "choose_route",
            "choose_card",
            "choose_move",
            "choose_setup",
            "choose_terrain_setup"
        ]
    );
}

#[test]
fn codes_are_stable_and_namespaced() {
    let codes: Vec<&str> = list_codes().iter().map(|(code, _)| *code).collect();
    assert_eq!(
        codes,
        [
            "gloam::dsl::syntax",
            "gloam::dsl::unknown_function",
            "gloam::dsl::wrong_arity",
            "gloam::dsl::undefined_variable",
            "gloam::dsl::decimal_number",
            "gloam::dsl::effect_in_condition",
            "gloam::dsl::unknown_name",
            "gloam::dsl::limit_exceeded",
            "gloam::dsl::runtime_error",
            "gloam::dsl::refused_effect",
        ]
    );
}

#[test]
fn trigger_index_keeps_declaration_order_per_name() {
    let index = TriggerIndex::build([
        ("after_attack", ListenerId(3)),
        ("power_step", ListenerId(1)),
        ("after_attack", ListenerId(0)),
        ("after_attack", ListenerId(3)),
    ]);
    assert_eq!(
        index.listeners("after_attack"),
        &[ListenerId(3), ListenerId(0)]
    );
    assert_eq!(
        index.names().collect::<Vec<_>>(),
        ["after_attack", "power_step"]
    );
    assert_eq!(index.len(), 2);
    let marker = Event::Marker {
        name: "power_step".into(),
        scope: Scope::Game,
        data: vec![],
    };
    assert_eq!(index.listeners_of(&marker), &[ListenerId(1)]);
    let other = Event::Shuffled {
        zone: gloam_core::ZoneId::new(gloam_core::PlayerId(0), "deck"),
    };
    assert!(index.listeners_of(&other).is_empty());
    assert!(TriggerIndex::default().is_empty());
}

#[test]
fn name_parameters_have_their_kind_in_the_reference() {
    let text = docs_markdown();
    assert!(text.contains("`has_token(fighter: fighter, token: string (a token name)) -> bool`"));
    assert!(text.contains("`then(step: string (a step name)) -> nothing`"));
    assert!(text.contains(
        "`modify(fighter: fighter, characteristic: string (a characteristic name), amount: int, until: string (a timing window or event name)) -> nothing`"
    ));
    for kind in NameKind::ALL {
        assert!(text.contains(&format!("| `{}` |", kind.name())), "{kind:?}");
    }
    // Every string parameter that names something the ruleset declares has a kind; prompts,
    // options, the reason a game ends, a `say` line's text, weapon and ability names (from
    // fighter profiles),
    // weapon stats (`range`, `dice`, `damage`), card kinds (`cards_of_kind`: a kind no
    // card has keeps no card), the table's own names (objectives, terrain features and
    // their rules, from the `table` item), constants' names (checked when the script
    // runs) and the named numbers of a card's data (`card_value`) do not.
    for doc in vocabulary() {
        for param in doc.params {
            let expected = !matches!(
                param.name,
                "prompt"
                    | "options"
                    | "reason"
                    | "text"
                    | "weapon"
                    | "ability"
                    | "stat"
                    | "kind"
                    | "layout"
                    | "objective"
                    | "constant"
                    | "feature"
                    | "rule"
                    | "value"
            ) && param.ty == "string";
            assert_eq!(
                param.names.is_some(),
                expected,
                "{}({})",
                doc.name,
                param.name
            );
        }
    }
}
