//! The shipped Spearhead data (`cards/spearhead/`, issue 13): it loads with no problem, holds
//! every name the reference sheet prints (seed 004, counted by the digest's part B), cites
//! its sources, and its lengths are exact. The ruleset has no flow yet: nothing here plays.

use std::path::PathBuf;

use gloam::load::{Source, load, read_paths};
use gloam_core::Length;
use gloam_grammar::{Library, Quantity, RulesetDef};
use miette::Diagnostic as _;

fn cards() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")
}

/// Every shipped data file, Spearhead and the Underworlds editions together.
fn shipped() -> Library {
    let (sources, problems) = read_paths(&[cards()]);
    assert!(problems.is_empty(), "{problems:?}");
    let (loaded, problems) = load(&sources, &gloam_dsl::Host::new());
    let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(messages.is_empty(), "{messages:#?}");
    loaded.library
}

fn spearhead(library: &Library) -> &RulesetDef {
    library.ruleset("spearhead").expect("the spearhead ruleset")
}

#[test]
fn shipped_spearhead_data_loads_alone_and_with_the_other_editions() {
    let library = shipped();
    assert!(library.ruleset("underworlds").is_some());
    let (sources, problems) = read_paths(&[cards().join("spearhead")]);
    assert!(problems.is_empty(), "{problems:?}");
    let (loaded, problems) = load(&sources, &gloam_dsl::Host::new());
    let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(messages.is_empty(), "{messages:#?}");
    assert_eq!(loaded.library.armies().len(), 2);
    assert_eq!(loaded.library.tables().len(), 2);
}

#[test]
fn spearhead_has_its_flow_as_steps() {
    // The flow is data: the pre-battle sequence (004 L3-9), deployment (L11-13), the battle
    // round (L15-39), the phases (L66-76), the core abilities (L80-150, L51-64), the attack
    // sequence and victory points (L24-31).
    let library = shipped();
    let ruleset = spearhead(&library);
    let steps: Vec<&str> = ruleset.steps.iter().map(|s| s.name.as_str()).collect();
    for step in [
        "roll_off",
        "attacker_choice",
        "army_choice",
        "battlefield_choice",
        "territory_choice",
        "terrain_setup",
        "deploy",
        "battle_round",
        "priority_roll",
        "first_turn_choice",
        "twist",
        "tactics_draw",
        "turn",
        "hero_phase",
        "movement_phase",
        "normal_move",
        "run",
        "retreat",
        "reinforcements",
        "shooting_phase",
        "shoot",
        "charge_phase",
        "charge",
        "combat_phase",
        "fight",
        "attacks",
        "attack_hit",
        "attack_wound",
        "attack_save",
        "attack_damage",
        "damage",
        "ward_roll",
        "allocate",
        "end_of_turn",
        "end_of_battle",
    ] {
        assert!(steps.contains(&step), "no step `{step}`: {steps:?}");
    }
    assert!(ruleset.setup.is_some());
}

/// The names the sheet prints, each with the seed lines it is at: the digest's part B counts.
#[test]
fn every_name_the_sheet_prints_is_in_the_data() {
    let library = shipped();
    let ruleset = spearhead(&library);
    let abilities: Vec<&str> = ruleset.abilities.iter().map(|a| a.name.as_str()).collect();
    // B1: six universal core abilities (004 L82-150) and Call for Reinforcements (L51-60).
    for (name, lines) in [
        ("Normal Move", "004 L80-90"),
        ("Run", "004 L92-102"),
        ("Retreat", "004 L104-114"),
        ("Shoot", "004 L116-126"),
        ("Charge", "004 L128-138"),
        ("Fight", "004 L140-150"),
        ("Call for Reinforcements", "004 L51-64"),
    ] {
        let ability = ruleset
            .abilities
            .iter()
            .find(|a| a.name == name)
            .unwrap_or_else(|| panic!("{name} ({lines}) missing from {abilities:?}"));
        assert_eq!(ability.source.as_deref(), Some(lines), "{name}");
        assert!(ability.keywords.iter().any(|k| k == "core"), "{name}: CORE");
    }
    // Their keywords (004 L90, L102, L114, L126, L138, L150).
    let keywords_of = |name: &str| {
        ruleset
            .abilities
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.keywords.clone())
            .unwrap_or_default()
    };
    assert_eq!(keywords_of("Normal Move"), ["core", "move"]);
    assert_eq!(keywords_of("Run"), ["core", "move", "run"]);
    assert_eq!(keywords_of("Retreat"), ["core", "move", "retreat"]);
    assert_eq!(keywords_of("Shoot"), ["core", "attack", "shoot"]);
    assert_eq!(keywords_of("Charge"), ["core", "move", "charge"]);
    assert_eq!(keywords_of("Fight"), ["core", "attack", "fight"]);
    // "Once Per Turn, Your Movement Phase" (004 L51).
    let reinforcements = ruleset
        .abilities
        .iter()
        .find(|a| a.name == "Call for Reinforcements")
        .unwrap();
    assert_eq!(reinforcements.frequency.as_deref(), Some("once_per_turn"));
    assert_eq!(
        reinforcements.window.as_deref(),
        Some("your_movement_phase")
    );
    // "Any Combat Phase" (004 L140).
    let fight = ruleset
        .abilities
        .iter()
        .find(|a| a.name == "Fight")
        .unwrap();
    assert_eq!(fight.window.as_deref(), Some("any_combat_phase"));

    // B1, B11: seven universal weapon abilities (004 L154-166).
    assert_eq!(
        ruleset.weapon_abilities,
        [
            "anti",
            "charge",
            "companion",
            "crit_2_hits",
            "crit_auto_wound",
            "crit_mortal",
            "shoot_in_combat"
        ]
    );
    // B1, B7: two terrain sizes and three terrain rules (004 L43-49).
    assert_eq!(ruleset.terrain_kinds, ["large", "small"]);
    assert_eq!(ruleset.terrain_rules, ["cover", "obscuring", "unstable"]);
    // B1, B8: seven phases (004 L66-76), as timing windows.
    let windows: Vec<&str> = ruleset.windows.iter().map(|w| w.name.as_str()).collect();
    for phase in [
        "start_of_turn",
        "your_hero_phase",
        "your_movement_phase",
        "your_shooting_phase",
        "your_charge_phase",
        "any_combat_phase",
        "end_of_turn",
    ] {
        assert!(windows.contains(&phase), "{phase} missing from {windows:?}");
    }
    // The pre-battle sequence, deployment and the start of the battle round (004 L3-39).
    for window in ["pre_battle", "deployment", "start_of_battle_round"] {
        assert!(windows.contains(&window), "{window}");
    }
    // Keywords the sheet prints: the abilities' (L90-150), REINFORCEMENTS (L55), FLY
    // (L45, L47), HERO (L154).
    for keyword in [
        "core",
        "move",
        "run",
        "retreat",
        "attack",
        "shoot",
        "charge",
        "fight",
        "reinforcements",
        "fly",
        "hero",
    ] {
        assert!(ruleset.keywords.iter().any(|k| k == keyword), "{keyword}");
    }
    // Flags the abilities test: charged (L134, L144, L154-156), Run and Retreat used
    // (L120, L132).
    assert_eq!(ruleset.flags, ["charged", "ran", "retreated"]);
    // Battle tactic and twist cards (L19-22, L37).
    assert_eq!(ruleset.card_kinds, ["battle_tactic", "twist"]);
    // One regiment ability and one enhancement each (L6).
    let choices: Vec<(&str, i64)> = ruleset
        .army_choices
        .iter()
        .map(|c| (c.name.as_str(), c.max))
        .collect();
    assert_eq!(choices, [("regiment_ability", 1), ("enhancement", 1)]);
    // The dice: the run roll D6 (L98), the charge roll 2D6 (L132), D3 mortal damage (L110).
    let d3 = ruleset.die("d3").unwrap();
    assert_eq!(d3.faces.iter().map(|f| f.count).sum::<i64>(), 6);
    assert_eq!(ruleset.die("d6").unwrap().faces.len(), 6);
    // Move is a length (L86, L98).
    let movement = ruleset
        .characteristics
        .iter()
        .find(|c| c.name == "move")
        .unwrap();
    assert!(movement.length && movement.required);
    // The realm battlefield's two sides (L7) and two deployment maps each (L8).
    for side in ["Realm Battlefield: Aqshy", "Realm Battlefield: Ghyran"] {
        let table = library.table(side).unwrap_or_else(|| panic!("{side}"));
        let maps: Vec<&str> = table.maps.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(maps, ["Horizontal", "Diagonal"], "{side}");
    }
}

#[test]
fn the_sheets_numbers_are_data_and_cite_their_lines() {
    let library = shipped();
    let ruleset = spearhead(&library);
    let constant = |name: &str| {
        ruleset
            .constants
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("constant {name}"))
    };
    let length = |name: &str| match constant(name).value {
        Quantity::Length(measure) => measure.length,
        Quantity::Number(number) => panic!("{name} is the number {number}"),
    };
    let number = |name: &str| match constant(name).value {
        Quantity::Number(number) => number,
        Quantity::Length(measure) => panic!("{name} is the length {measure}"),
    };
    // ½" for a charge (004 L134): 12.7 mm exactly.
    assert_eq!(length("charge_end_within"), Length::tenth_mm(127));
    assert_eq!(
        constant("charge_end_within").source.as_deref(),
        Some("004 L134")
    );
    for (name, inches, lines) in [
        ("deployment_gap", 6, "004 L13"),
        ("terrain_gap", 6, "004 L9"),
        ("terrain_edge_gap", 3, "004 L9"),
        ("unstable_height", 1, "004 L49"),
        ("reinforcement_edge", 6, "004 L58"),
    ] {
        assert_eq!(length(name), Length::inches(inches), "{name}");
        assert_eq!(constant(name).source.as_deref(), Some(lines), "{name}");
    }
    assert_eq!(number("battle_tactic_hand"), 3); // 004 L21-22
    assert_eq!(number("underdog_catch_up"), 5); // 004 L17
    // Combat range: 3" is 762 tenths of a millimetre (not in the seed, digest B12).
    assert_eq!(length("combat_range"), Length::tenth_mm(762));
    // Every value is either the sheet's, citing its lines, or not in the seed with a
    // confidence (digest B12).
    for constant in &ruleset.constants {
        let source = constant.source.as_deref().unwrap_or_default();
        if source.starts_with("004 L") {
            assert!(constant.confidence.is_none(), "{}", constant.name);
        } else {
            assert!(
                source.starts_with("not in the seed"),
                "{}: {source}",
                constant.name
            );
            assert!(
                constant.confidence.is_some(),
                "{} needs a confidence",
                constant.name
            );
        }
    }
    // Four battle rounds is not in the seed either: marked ours.
    assert_eq!(ruleset.rounds, Some(4));
    assert!(ruleset.ours.iter().any(|o| o == "rounds"));
}

#[test]
fn each_army_offers_its_choices_and_marks_its_values_as_ours() {
    let library = shipped();
    assert_eq!(library.armies().len(), 2);
    for army in library.armies() {
        assert_eq!(army.ruleset, "spearhead");
        assert!(
            army.source
                .as_deref()
                .unwrap_or_default()
                .starts_with("ours"),
            "{}",
            army.name
        );
        // Pick 1 of 2 regiment abilities and 1 of 2 enhancements (digest C8).
        for choice in ["regiment_ability", "enhancement"] {
            let offered = army
                .abilities
                .iter()
                .filter(|a| a.choice.as_deref() == Some(choice))
                .count();
            assert_eq!(offered, 2, "{}: {choice}", army.name);
        }
        // The general is a Hero of the army.
        let general = army.warscroll(army.general.as_deref().unwrap()).unwrap();
        assert!(
            general.keywords.iter().any(|k| k == "hero"),
            "{}",
            army.name
        );
        // Call for Reinforcements has a unit to bring back (004 L55).
        assert!(
            army.warscrolls
                .iter()
                .any(|w| w.keywords.iter().any(|k| k == "reinforcements")),
            "{}",
            army.name
        );
        for warscroll in &army.warscrolls {
            assert_eq!(
                warscroll.source.as_deref(),
                Some("ours"),
                "{}",
                warscroll.name
            );
            for required in ["move", "health", "save", "control"] {
                assert!(
                    warscroll.stat(required).is_some(),
                    "{}: {required}",
                    warscroll.name
                );
            }
            assert!(matches!(warscroll.stat("move"), Some(Quantity::Length(_))));
            assert!(!warscroll.weapons.is_empty(), "{}", warscroll.name);
        }
    }
}

#[test]
fn the_battlefield_is_44_by_30_with_terrain_for_both_players() {
    let library = shipped();
    for table in library.tables().iter().filter(|t| t.ruleset == "spearhead") {
        assert_eq!(table.width.length, Length::inches(44), "{}", table.name);
        assert_eq!(table.depth.length, Length::inches(30), "{}", table.name);
        // Each player sets up one large and one small feature (004 L9).
        let count = |kind: &str| table.terrain.iter().filter(|t| t.kind == kind).count();
        assert_eq!((count("large"), count("small")), (2, 2), "{}", table.name);
        for feature in &table.terrain {
            // Large: Cover, Obscuring, Unstable; small: Cover, Unstable (004 L43).
            let rules: &[&str] = match feature.kind.as_str() {
                "large" => &["cover", "obscuring", "unstable"],
                _ => &["cover", "unstable"],
            };
            assert_eq!(feature.rules, rules, "{}", feature.name);
        }
        for map in &table.maps {
            assert_eq!(map.territories.len(), 2, "{} {}", table.name, map.name);
            assert!(!map.objectives.is_empty());
        }
    }
}

#[test]
fn the_card_decks_are_full_and_each_tactic_names_a_command() {
    let library = shipped();
    let ruleset = spearhead(&library);
    let tactics: Vec<_> = library
        .cards()
        .iter()
        .filter(|c| c.ruleset == "spearhead" && c.kind == "battle_tactic")
        .collect();
    let deck = ruleset
        .decks
        .iter()
        .find(|d| d.name == "battle_tactic")
        .unwrap();
    assert_eq!(Some(tactics.len() as i64), deck.min_size);
    assert_eq!(Some(tactics.len() as i64), deck.max_size);
    for card in &tactics {
        let command = card
            .command
            .as_deref()
            .unwrap_or_else(|| panic!("{}", card.name));
        let ability = ruleset
            .abilities
            .iter()
            .find(|a| a.name == command)
            .unwrap();
        assert!(ability.keywords.iter().any(|k| k == "command"), "{command}");
    }
    let twists = library
        .cards()
        .iter()
        .filter(|c| c.ruleset == "spearhead" && c.kind == "twist")
        .count();
    assert!(twists >= 1);
}

#[test]
fn bad_lengths_in_a_data_file_are_refused_where_they_are_written() {
    let (sources, _) = read_paths(&[cards().join("spearhead")]);
    let broken = "table \"Broken\" {\n    ruleset = \"spearhead\"\n    width = 44\"\n    depth = 30ft\n}\n\ntable \"Fine\" {\n    ruleset = \"spearhead\"\n    width = 0.25in\n    depth = 30in\n}\n";
    let mut all = sources;
    all.push(Source::new("broken.gloam", broken));
    let (_, problems) = load(&all, &gloam_dsl::Host::new());
    let found: Vec<(String, String, usize)> = problems
        .iter()
        .map(|problem| {
            let code = problem.code().map(|c| c.to_string()).unwrap_or_default();
            let offset = problem
                .labels()
                .and_then(|mut labels| labels.next())
                .map_or(0, |label| label.offset());
            (code, problem.to_string(), offset)
        })
        .collect();
    let line_of = |offset: usize| broken[..offset].matches('\n').count() + 1;
    let bad: Vec<(usize, &str)> = found
        .iter()
        .filter(|(code, _, _)| code == "gloam::grammar::bad_length")
        .map(|(_, message, offset)| (line_of(*offset), message.as_str()))
        .collect();
    assert_eq!(bad.len(), 3, "{found:#?}");
    assert_eq!(bad[0].0, 3);
    assert!(bad[0].1.contains("write inches as `44in`"), "{}", bad[0].1);
    assert_eq!(bad[1].0, 4);
    assert!(
        bad[1].1.contains("unknown length unit `ft`"),
        "{}",
        bad[1].1
    );
    assert_eq!(bad[2].0, 9);
    assert!(
        bad[2].1.contains("not a whole number of tenths"),
        "{}",
        bad[2].1
    );
}

#[test]
fn sim_reports_the_same_spearhead_games_with_one_job_or_two() {
    let run = |jobs: &str| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_gloam"))
            .args([
                "sim",
                "spearhead",
                "--games",
                "3",
                "--seed",
                "11",
                "--jobs",
                jobs,
                "--json",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run gloam");
        assert!(output.status.success());
        String::from_utf8(output.stdout).expect("utf-8")
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert!(one.contains("\"failed\": 0"), "{one}");
}

#[test]
fn sim_plays_spearhead_games_to_the_end() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gloam"))
        .args(["sim", "spearhead", "--games", "2", "--seed", "1", "--json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run gloam");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["games"], 2, "{report}");
    assert_eq!(report["failed"], 0, "{report}");
    // `rules list` counts its steps.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gloam"))
        .args(["rules", "list", "--json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run gloam");
    let rows: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["name"] == "spearhead")
        .expect("spearhead is listed");
    assert!(row["steps"].as_u64().unwrap_or(0) > 30, "{row}");
}
