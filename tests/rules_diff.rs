//! `gloam rules diff A B` on the shipped data (issue 5, point 3): what an edition changes
//! against the shared model or another edition, read from the data.

use std::process::Command;

use gloam::load::read_paths;
use gloam::rules_diff::{ChangeKind, diff_rulesets};

fn gloam(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_gloam"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("gloam runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn shipped() -> gloam_grammar::Library {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards");
    let (sources, problems) = read_paths(&[dir]);
    assert!(problems.is_empty());
    let (library, problems) = gloam_grammar::load(&sources);
    assert!(problems.is_empty(), "{problems:?}");
    library
}

#[test]
fn rules_diff_harrowdeep_against_the_shared_model_lists_its_additions() {
    let library = shipped();
    let diff = diff_rulesets(&library, "underworlds", "harrowdeep").unwrap();
    assert_eq!(diff.to_extends, ["underworlds"]);
    // Harrowdeep adds lethal and cover hexes (002 L1636-1749; digest 3.3) and the Stagger
    // token (digest 3.11) to the shared model.
    let added = |section: &str| -> Vec<String> {
        diff.section(section)
            .unwrap()
            .changes
            .iter()
            .filter(|c| c.kind == ChangeKind::Added)
            .map(|c| c.name.clone())
            .collect()
    };
    assert!(added("hex types").contains(&"lethal".to_string()));
    assert!(added("hex types").contains(&"cover".to_string()));
    assert!(added("tokens").contains(&"stagger".to_string()));
    // The flow is Harrowdeep's own: every step is an addition.
    assert!(added("steps").contains(&"attack".to_string()));
    // Harrowdeep's attack die has its own face names (smash, fury): the die is overridden.
    let dice = diff.section("dice").unwrap();
    let attack = dice.changes.iter().find(|c| c.name == "attack").unwrap();
    assert_eq!(attack.kind, ChangeKind::Overridden);
    // Nothing the shared model has is removed.
    assert!(diff.sections.iter().all(|s| {
        s.changes
            .iter()
            .all(|c| c.kind != ChangeKind::Removed || s.section == "settings")
    }));
}

#[test]
fn rules_diff_command_prints_sections_and_json() {
    let (code, out, err) = gloam(&["rules", "diff", "underworlds", "harrowdeep"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("ruleset `harrowdeep` against `underworlds`"),
        "{out}"
    );
    assert!(out.contains("\nhex types\n  + lethal"), "{out}");
    assert!(out.contains("\nunchanged: "), "{out}");

    let (code, out, err) = gloam(&["rules", "diff", "underworlds", "harrowdeep", "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(json["from"], "underworlds");
    assert_eq!(json["to"], "harrowdeep");
    let sections = json["sections"].as_array().unwrap();
    let steps = sections.iter().find(|s| s["section"] == "steps").unwrap();
    assert!(
        steps["changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["kind"] == "added" && c["name"] == "attack")
    );
}

#[test]
fn rules_diff_unknown_ruleset_fails_with_the_loaded_names() {
    let (code, out, err) = gloam(&["rules", "diff", "underworlds", "harowdeep"]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("no ruleset named `harowdeep`"), "{err}");
    assert!(err.contains("harrowdeep"), "{err}");
}

#[test]
fn rules_diff_both_directions_mirror_each_other() {
    let library = shipped();
    let there = diff_rulesets(&library, "underworlds", "harrowdeep").unwrap();
    let back = diff_rulesets(&library, "harrowdeep", "underworlds").unwrap();
    for (a, b) in there.sections.iter().zip(&back.sections) {
        assert_eq!(a.unchanged, b.unchanged, "{}", a.section);
        let flip = |k: ChangeKind| match k {
            ChangeKind::Added => ChangeKind::Removed,
            ChangeKind::Removed => ChangeKind::Added,
            ChangeKind::Overridden => ChangeKind::Overridden,
        };
        let mut ours: Vec<(ChangeKind, &str)> = a
            .changes
            .iter()
            .map(|c| (flip(c.kind), c.name.as_str()))
            .collect();
        let mut theirs: Vec<(ChangeKind, &str)> = b
            .changes
            .iter()
            .map(|c| (c.kind, c.name.as_str()))
            .collect();
        ours.sort_by_key(|(k, n)| (format!("{k:?}"), n.to_string()));
        theirs.sort_by_key(|(k, n)| (format!("{k:?}"), n.to_string()));
        assert_eq!(ours, theirs, "{}", a.section);
    }
}

#[test]
fn rules_diff_shadespire_against_harrowdeep_reads_the_edition_differences() {
    let library = shipped();
    let diff = diff_rulesets(&library, "harrowdeep", "shadespire").unwrap();
    let names = |section: &str, kind: ChangeKind| -> Vec<String> {
        diff.section(section)
            .unwrap()
            .changes
            .iter()
            .filter(|c| c.kind == kind)
            .map(|c| c.name.clone())
            .collect()
    };
    // Digest section 5, rows 23 and 36: Shadespire has no lethal or cover hexes and no
    // magic (no spells, no magic die).
    let removed_hexes = names("hex types", ChangeKind::Removed);
    assert!(
        removed_hexes.contains(&"lethal".to_string()),
        "{removed_hexes:?}"
    );
    assert!(
        removed_hexes.contains(&"cover".to_string()),
        "{removed_hexes:?}"
    );
    assert_eq!(names("card kinds", ChangeKind::Removed), ["spell"]);
    assert!(names("dice", ChangeKind::Removed).contains(&"magic".to_string()));
    // Row 22: no Stagger in Shadespire.
    assert!(names("tokens", ChangeKind::Removed).contains(&"stagger".to_string()));
    // Rows 14-18: combat differs, so the step that makes Attack actions is overridden, and
    // both editions' decks differ (row 49).
    assert!(names("steps", ChangeKind::Overridden).contains(&"attack_action".to_string()));
    assert_eq!(names("decks", ChangeKind::Overridden).len(), 2);
    // The content is each edition's own.
    assert!(names("warbands", ChangeKind::Added).contains(&"Steelheart's Champions".to_string()));
    assert!(names("warbands", ChangeKind::Removed).contains(&"Da Kunnin' Krew".to_string()));
}

#[test]
fn rules_diff_a_mode_shows_only_what_it_changes() {
    // Capture the Artefact (000; digest 2.17) is a ruleset extending Shadespire: against
    // Shadespire it adds its own parts and removes nothing of the flow.
    let library = shipped();
    let diff = diff_rulesets(&library, "shadespire", "shadespire_artefact").unwrap();
    assert_eq!(diff.to_extends, ["shadespire", "underworlds"]);
    let steps = diff.section("steps").unwrap();
    assert!(steps.changes.iter().all(|c| c.kind != ChangeKind::Removed));
    assert!(
        steps.unchanged > 10,
        "most of the flow is inherited: {}",
        steps.unchanged
    );
}

/// Issue 18 item 12: `gloam rules diff` tells a rule change of the seeds from content and
/// from values that are ours. Shadespire's floors are ours (000 states none), so its Move
/// floor 0 against Embergard's 1 (001 L461) is marked ours; the runemarks of our Embergard
/// conversions (hunter, brawler...) are ours; the stagger token (001 L367-373) is the
/// seed's; the cards are content. Embergard is two players only (001 L71, L101, L117).
#[test]
fn rules_diff_tells_seed_rules_from_ours_and_from_content() {
    use gloam::rules_diff::Provenance;
    let library = shipped();
    let diff = diff_rulesets(&library, "shadespire", "embergard").unwrap();
    let change = |section: &str, name: &str| {
        diff.section(section)
            .unwrap()
            .changes
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no change {name} in {section}"))
            .clone()
    };
    assert_eq!(
        change("characteristics", "move").provenance,
        Provenance::Ours
    );
    assert_eq!(change("keywords", "hunter").provenance, Provenance::Ours);
    assert_eq!(change("keywords", "grievous").provenance, Provenance::Seed);
    assert_eq!(change("tokens", "stagger").provenance, Provenance::Seed);
    let max = change("settings", "max_players");
    assert_eq!(
        (max.before.as_deref(), max.after.as_deref()),
        (Some("4"), Some("2"))
    );
    assert!(
        diff.section("cards")
            .unwrap()
            .changes
            .iter()
            .all(|c| c.provenance == Provenance::Content)
    );
    let text = diff.render(false);
    assert!(text.contains("hunter (ours)"), "{text}");
    assert!(text.contains("~ move (ours): floor 0 -> floor 1"), "{text}");
    assert!(text.contains("\ncards (content)\n"), "{text}");
    // Harrowdeep states its floors (002 L2891-2897): against Embergard, its Move floor 0 is
    // not ours.
    let diff = diff_rulesets(&library, "harrowdeep", "embergard").unwrap();
    let moves = diff
        .section("characteristics")
        .unwrap()
        .changes
        .iter()
        .find(|c| c.name == "move")
        .expect("move differs")
        .provenance;
    assert_eq!(moves, Provenance::Seed);
}

/// Embergard is two players only: a match of 3 is refused with a message saying so.
#[test]
fn embergard_refuses_three_players() {
    let (code, _, err) = gloam(&["sim", "embergard", "--players", "3", "--games", "1"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("embergard") && err.contains("2 players"),
        "{err}"
    );
}

/// An `ours` name that is neither a setting nor a name of the ruleset's vocabulary is a
/// clear load error.
#[test]
fn an_unknown_ours_name_is_reported() {
    let text = r#"
ruleset "base" {
    title = "Base" rounds = 3 min_players = 2 max_players = 2
    keywords = [hunter]
    ours = [huntre]
    characteristic "move" { floor = 0 ours = [flor] }
}
"#;
    let (_, problems) = gloam_grammar::load(&[gloam_grammar::SourceFile::new("r.gloam", text)]);
    let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 2, "{shown:?}");
}

/// A house mode of Spearhead in a second file: a wider combat range (ours) and an army of
/// its own, beside the shipped data.
const HOUSE: &str = r#"
ruleset "spearhead_house" {
    extends = "spearhead"
    title = "Spearhead, house rules"

    constant "combat_range" {
        about = "a wider reach for a club's beginners"
        length = 4in
        source = "ours: house rule"
        confidence = high
    }
}

army "Ember Wardens" {
    ruleset = "spearhead_house"
    alliance = order
    general = "Ember Captain"
    source = "ours"

    warscroll "Ember Captain" {
        units = 1
        models = 1
        base = 40mm
        stats = [move: 5in, health: 5, save: 3, control: 2]
        keywords = [hero, infantry]
        source = "ours"

        weapon "Brand" {
            attacks = 4
            hit = 3
            wound = 3
            rend = 1
            damage = 2
        }
    }

    ability "Kindled Line" {
        window = your_hero_phase
        choice = regiment_ability
        text = "Friendly units within 6 inches of the general add 1 to charge rolls this turn."
        source = "ours"
    }

    ability "Ember Torc" {
        choice = enhancement
        text = "The general has a Ward of 6+."
        source = "ours"
    }
}
"#;

#[test]
fn rules_diff_reads_a_table_games_constants_armies_and_tables() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards");
    let (mut sources, problems) = read_paths(&[dir]);
    assert!(problems.is_empty());
    sources.push(gloam_grammar::SourceFile::new("house.gloam", HOUSE));
    let (library, problems) = gloam_grammar::load(&sources);
    assert!(problems.is_empty(), "{problems:?}");
    let diff = diff_rulesets(&library, "spearhead", "spearhead_house").unwrap();
    // The constant is overridden and, its source saying so, ours.
    let constants = diff.section("constants").unwrap();
    let range = constants
        .changes
        .iter()
        .find(|c| c.name == "combat_range")
        .expect("combat_range changed");
    assert_eq!(range.kind, ChangeKind::Overridden);
    assert_eq!(range.before.as_deref(), Some("3in (high confidence)"));
    assert_eq!(range.after.as_deref(), Some("4in (high confidence)"));
    assert_eq!(range.provenance, gloam::rules_diff::Provenance::Ours);
    assert_eq!(constants.changes.len(), 1, "{constants:?}");
    // The mode plays its parent's armies and tables too; its own army is added content.
    let armies = diff.section("armies").unwrap();
    assert_eq!(armies.changes.len(), 1, "{armies:?}");
    assert_eq!(armies.changes[0].kind, ChangeKind::Added);
    assert_eq!(armies.changes[0].name, "Ember Wardens");
    assert_eq!(
        armies.changes[0].after.as_deref(),
        Some("1 warscrolls: Ember Captain")
    );
    assert_eq!(
        armies.changes[0].provenance,
        gloam::rules_diff::Provenance::Content
    );
    assert_eq!(armies.unchanged, 2);
    assert_eq!(diff.section("tables").unwrap().unchanged, 2);
    // Against Umbra Turris: the measured vocabularies differ, and the content sections name
    // the other game's armies, tables, roster and parties.
    let other = diff_rulesets(&library, "spearhead", "umbra_turris").unwrap();
    let removed = |section: &str| -> Vec<String> {
        other
            .section(section)
            .unwrap()
            .changes
            .iter()
            .filter(|c| c.kind == ChangeKind::Removed)
            .map(|c| c.name.clone())
            .collect()
    };
    // Both games have cover, obscuring and unstable terrain (Umbra Turris's loose stones,
    // 003 L320); its raised pieces, walls, water, Loot tokens and ladders are not
    // Spearhead's.
    assert!(
        removed("terrain rules").is_empty(),
        "{:?}",
        removed("terrain rules")
    );
    let added: Vec<String> = other
        .section("terrain rules")
        .unwrap()
        .changes
        .iter()
        .filter(|c| c.kind == ChangeKind::Added)
        .map(|c| c.name.clone())
        .collect();
    assert_eq!(added, ["raised", "wall", "water", "loot", "ladder"]);
    assert_eq!(removed("armies").len(), 2);
    assert_eq!(removed("tables").len(), 2);
    let parties = other.section("parties").unwrap();
    assert_eq!(parties.changes.len(), 3);
    assert!(parties.changes.iter().all(|c| c.kind == ChangeKind::Added));
    assert_eq!(other.section("rosters").unwrap().changes.len(), 1);
}

#[test]
fn rules_list_counts_armies_tables_and_parties() {
    let (code, out, err) = gloam(&["rules", "list", "--json"]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let row = |name: &str| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap()
            .clone()
    };
    let spearhead = row("spearhead");
    assert_eq!(
        (
            &spearhead["armies"],
            &spearhead["tables"],
            &spearhead["parties"]
        ),
        (
            &serde_json::json!(2),
            &serde_json::json!(2),
            &serde_json::json!(0)
        ),
        "{spearhead}"
    );
    assert_eq!(row("umbra_turris")["parties"], 3);
    assert_eq!(row("harrowdeep")["armies"], 0);
    let (code, out, _) = gloam(&["rules", "list"]);
    assert_eq!(code, 0);
    assert!(
        out.lines()
            .next()
            .unwrap()
            .contains("tables  warbands  armies  parties"),
        "{out}"
    );
}
