//! The shipped Umbra Turris data (`cards/umbra_turris/`, issue 14): it loads with no problem,
//! holds every race, sub-race, profession, domain and spell name the rulebook prints (seed
//! 003, counted by the digest's part A), cites its seed lines, and its two example parties
//! are legal and priced as the building rules say (003 L1607-1651). The flow is played in
//! tests/umbra_turris_play.rs and tests/umbra_turris_sim.rs.

use std::path::PathBuf;

use gloam::load::{load, read_paths};
use gloam_grammar::{Library, Quantity, party_costs};

fn cards() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")
}

fn load_dir(dir: PathBuf) -> Library {
    let (sources, problems) = read_paths(&[dir]);
    assert!(problems.is_empty(), "{problems:?}");
    let (loaded, problems) = load(&sources, &gloam_dsl::Host::new());
    let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(messages.is_empty(), "{messages:#?}");
    loaded.library
}

fn umbra() -> Library {
    load_dir(cards().join("umbra_turris"))
}

#[test]
fn shipped_umbra_turris_data_loads_alone_and_with_the_other_games() {
    let all = load_dir(cards());
    assert!(all.ruleset("spearhead").is_some());
    assert!(all.roster("Umbra Turris").is_some());
    let library = umbra();
    assert_eq!(library.rosters().len(), 1);
    assert_eq!(library.parties().len(), 3);
}

#[test]
fn umbra_turris_has_a_flow_of_steps_and_a_table() {
    let library = umbra();
    let ruleset = library.ruleset("umbra_turris").expect("the ruleset");
    assert_eq!(
        ruleset.steps.first().map(|s| s.name.as_str()),
        Some("start")
    );
    assert!(ruleset.actions.is_empty());
    let table = library.table("Umbra Turris table").expect("the table");
    assert_eq!(table.maps[0].territories.len(), 2);
}

/// The names the seed prints, with their lines: races [003 L891-903].
const RACES: &[&str] = &[
    "Humans",
    "Elves",
    "Dwarfs",
    "Orcs",
    "Black Orcs",
    "Half-giants",
    "Dark Fauns",
    "Goblins",
    "Halflings",
    "Tigerians",
    "Vorak",
    "Hobgoblins",
    "Gnomes",
];

/// Sub-races with their race [003 L908-1101].
const SUBRACES: &[(&str, &str)] = &[
    ("Humans", "Mortenians"),           // L910
    ("Humans", "Borians"),              // L916
    ("Humans", "Vartevians"),           // L924
    ("Humans", "Estanians"),            // L933
    ("Humans", "Undorhans"),            // L937
    ("Elves", "Wood elves"),            // L949
    ("Elves", "Dark Elves"),            // L957
    ("Dwarfs", "Dwarfs of Thargomind"), // L965
    ("Dwarfs", "Northern Dwarfs"),      // L969
    ("Orcs", "City Orcs"),              // L981
    ("Orcs", "Orcs of Ugruk-hor"),      // L989
    ("Black Orcs", "Black Orcs"),       // L995
    ("Goblins", "City Goblins"),        // L1005
    ("Goblins", "Wild Goblins"),        // L1019
    ("Halflings", "Shortlings"),        // L1027
    ("Halflings", "Darklings"),         // L1035
    ("Half-giants", "Half-giants"),     // L1047
    ("Dark Fauns", "Dark Fauns"),       // L1053
    ("Tigerians", "Tigerians"),         // L1063
    ("Vorak", "Vorak"),                 // L1073
    ("Hobgoblins", "Hobgoblins"),       // L1085
    ("Gnomes", "Gnomes"),               // L1095
];

/// The 54 professions, the Leader among them [003 L1125-1470].
const PROFESSIONS: &[&str] = &[
    "Leader",
    "Acolyte",
    "Alchemist",
    "Outlaw",
    "Barbarian",
    "Bard",
    "Berserker",
    "Black Knight",
    "Wizard",
    "Royal Champion",
    "Druid",
    "False Prophet",
    "Squire",
    "Gladiator",
    "Guardsman",
    "Grave Robber",
    "Priest",
    "Cleric",
    "Corsair",
    "Witch Hunter",
    "Scoundrel",
    "Headhunter",
    "Bounty Hunter",
    "Bow Master",
    "Sword Master",
    "Monk",
    "Cutthroat",
    "Paladin",
    "Crafty Merchant",
    "Tracker",
    "Brigand",
    "Gunsmith",
    "Knight of the Order",
    "Guard Sergeant",
    "Skald",
    "Executioner",
    "Ranger",
    "Marksman",
    "Shaman",
    "Duelist",
    "Charlatan",
    "Fencer",
    "Axeman",
    "Street Judge",
    "Wizard Apprentice",
    "Master Gamekeeper",
    "Clan Warrior",
    "Fortune teller",
    "Assassin",
    "Soldier",
    "Herbalist",
    "Thief",
    "Swashbuckler",
    "Scout",
];

/// The 11 domains and their 33 spells [003 L630-764].
const SPELLS: &[(&str, [&str; 3])] = &[
    ("Shadow", ["Invisibility", "Shade", "Daze"]), // L632-642
    ("Air", ["Wind swipe", "Thunderbolt", "Levitate"]), // L644-650
    ("Earth", ["Quake", "Stoneskin", "Tremor"]),   // L652-660
    ("Fire", ["Kula", "Fire wave", "Fire strike"]), // L662-666
    ("Death", ["Raise dead", "Black death", "Breath of death"]), // L668-680
    (
        "Spirit",
        ["Fighting spirit", "Will of life", "Lack of resolve"],
    ), // L686-694
    ("Water", ["Rain", "Freeze", "Scalding vapors"]), // L696-704
    ("Light", ["Heal", "Aura of life", "Summon Cherub"]), // L706-716
    ("Mind", ["War eagle", "Control", "Sharpen senses"]), // L720-728
    (
        "Nature",
        ["Shapeshift", "Ferocious attack", "Ally of the nature"],
    ), // L730-750
    (
        "Change",
        ["Summon spawn", "Turn into spawn", "Transmute magic"],
    ), // L752-764
];

#[test]
fn every_race_subrace_profession_domain_and_spell_of_the_seed_is_in_the_data() {
    let library = umbra();
    let roster = library.roster("Umbra Turris").expect("the roster");
    let mut missing = Vec::new();
    for race in RACES {
        if roster.race(race).is_none() {
            missing.push(format!("race {race}"));
        }
    }
    for (race, sub) in SUBRACES {
        if roster.race(race).and_then(|r| r.subrace(sub)).is_none() {
            missing.push(format!("sub-race {sub} of {race}"));
        }
    }
    for profession in PROFESSIONS {
        if roster.profession(profession).is_none() {
            missing.push(format!("profession {profession}"));
        }
    }
    for (domain, spells) in SPELLS {
        match roster.domains.iter().find(|d| d.name == *domain) {
            None => missing.push(format!("domain {domain}")),
            Some(found) => {
                for spell in spells {
                    if !found.spells.iter().any(|s| s.name == *spell) {
                        missing.push(format!("spell {spell} of {domain}"));
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "missing: {missing:#?}");
    // The digest's counts (A1): nothing more than the seed either.
    assert_eq!(roster.races.len(), 13);
    assert_eq!(
        roster.races.iter().map(|r| r.subraces.len()).sum::<usize>(),
        22
    );
    assert_eq!(roster.professions.len(), 54);
    assert_eq!(roster.domains.len(), 11);
    assert_eq!(roster.spells().count(), 33);
    assert_eq!(roster.guilds.len(), 5);
    assert_eq!(roster.alignments.len(), 5);
    assert_eq!(roster.battlegrounds.len(), 4);
}

#[test]
fn every_subrace_and_profession_has_its_ability_and_every_item_a_seed_line() {
    let library = umbra();
    let roster = library.roster("Umbra Turris").expect("the roster");
    let cites = |source: &Option<String>| source.as_deref().is_some_and(|s| s.starts_with("003 L"));
    for race in &roster.races {
        assert!(cites(&race.source), "{}", race.name);
        for sub in &race.subraces {
            assert_eq!(sub.abilities.len(), 1, "{}", sub.name);
            assert!(cites(&sub.source), "{}", sub.name);
        }
    }
    for profession in &roster.professions {
        assert_eq!(profession.abilities.len(), 1, "{}", profession.name);
        assert!(cites(&profession.source), "{}", profession.name);
    }
    for item in &roster.equipment {
        assert!(cites(&item.source), "{}", item.name);
    }
    for (_, spell) in roster.spells() {
        assert!(cites(&spell.source), "{}", spell.name);
    }
}

#[test]
fn equipment_lists_match_the_seed() {
    // 20 melee and 16 ranged entries, 8 armour pieces and shields (003 L1665-1895), and the
    // 15 additional items of which the arrowheads are three (003 L1917-1977): 61 entries.
    let library = umbra();
    let roster = library.roster("Umbra Turris").expect("the roster");
    let count = |kinds: &[&str]| {
        roster
            .equipment
            .iter()
            .filter(|e| kinds.contains(&e.kind.as_str()))
            .count()
    };
    assert_eq!(count(&["one_handed", "two_handed", "light"]), 20);
    assert_eq!(count(&["ranged", "firearm", "thrown"]), 16);
    assert_eq!(count(&["armour", "shield"]), 8);
    assert_eq!(count(&["item"]), 17);
    // Spot checks against the seed: the Long Bow needs S 7 and Sp 7 and reaches 70 cm
    // (003 L1775), the Steel shield is heavy, 5+, 12 DC (003 L1894).
    let long_bow = roster.item("Long Bow").expect("Long Bow");
    assert_eq!(long_bow.cost, 19);
    assert_eq!(
        long_bow.min_stats,
        [("s".to_string(), 7), ("sp".to_string(), 7)]
    );
    assert_eq!(
        long_bow.range.map(|r| r.to_string()),
        Some("70cm".to_string())
    );
    let shield = roster.item("Steel shield").expect("Steel shield");
    assert!(shield.heavy && shield.save == Some(5) && shield.cost == 12);
}

#[test]
fn the_hobgoblin_row_the_ocr_lost_is_marked_uncertain() {
    // 003 L902 prints no BS, T or C for Hobgoblins: best readings, marked.
    let library = umbra();
    let roster = library.roster("Umbra Turris").expect("the roster");
    let hobgoblins = roster.race("Hobgoblins").expect("Hobgoblins");
    assert_eq!(hobgoblins.uncertain, ["bs", "t", "cost"]);
    let humans = roster.race("Humans").expect("Humans");
    assert!(humans.uncertain.is_empty());
    assert_eq!(humans.stat("ld"), Some(7));
    assert!(
        humans
            .stats
            .iter()
            .any(|v| v.name == "m" && matches!(v.value, Quantity::Length(_)))
    );
}

#[test]
fn the_example_parties_are_legal_and_priced_by_the_rules() {
    let library = umbra();
    let roster = library.roster("Umbra Turris").expect("the roster");
    let ruleset = library.ruleset("umbra_turris").expect("the ruleset");
    let wardens = library.party("The Lantern Wardens").expect("party");
    let costs = party_costs(wardens, roster, ruleset).expect("constants");
    let of = |name: &str| {
        costs
            .iter()
            .find(|c| c.hero == name)
            .map(gloam_grammar::HeroCost::total)
    };
    // Leader on a 45 DC Paladin costs 5 (003 L1129): 55 + 45 + 5 + 11 + 12 + 9.
    assert_eq!(of("Sir Aldwin"), Some(137));
    // The second Soldier costs 10 more (003 L1127, L1639): 55 + 31 + 10 + 22.
    assert_eq!(of("Hedda"), Some(118));
    // A Marksman's extra weapon is not tripled (003 L1362): 50 + 19 + 12 + 7.
    assert_eq!(of("Tobble"), Some(88));
    // Anyone else's is (003 L460): 57 + 24 + 12 + 3 x 2.
    assert_eq!(of("Ilvane"), Some(99));
    // A Halfling Cleric costs 40 (003 L1238): 46 + 40 + 6.
    assert_eq!(of("Pip Thistlewood"), Some(92));
    let total: i64 = costs.iter().map(gloam_grammar::HeroCost::total).sum();
    assert_eq!(total, 954);
    assert!(total <= wardens.points);
    let court = library.party("The Ashen Court").expect("party");
    let costs = party_costs(court, roster, ruleset).expect("constants");
    let total: i64 = costs.iter().map(gloam_grammar::HeroCost::total).sum();
    // With Nyx, a Darkling Cleric of Death at the Halflings' price: 46 + 40 + 6.
    assert_eq!(
        costs
            .iter()
            .find(|c| c.hero == "Nyx")
            .map(gloam_grammar::HeroCost::total),
        Some(92)
    );
    assert_eq!(total, 677);
    assert!(total <= court.points);
    let choir = library.party("The Cinder Choir").expect("party");
    let costs = party_costs(choir, roster, ruleset).expect("constants");
    let total: i64 = costs.iter().map(gloam_grammar::HeroCost::total).sum();
    assert!(total <= choir.points, "{total}");
}

#[test]
fn the_race_table_decides_which_alignments_a_hero_may_join() {
    // 003 L1613-1617: a party's heroes are those whose race carries its letter in the race
    // table (L891-903). The sub-race pages print a narrower "Race alignment" (Mortenians:
    // Good, Neutral, Evil, L910), which we do not read as a building rule (digest D1.25): it
    // would leave no legal Anarchist party, and Lawful ones to Gnomes alone. So an
    // Anarchist party fields a Goblin False Prophet (L1204-1208) and a Human of any
    // sub-race, and a Lawful one a Mortenian; an alignment missing from the race table is
    // still refused (Half-giants carry no A, L897).
    let library = umbra();
    assert!(library.party("The Cinder Choir").is_some());
    let lawful = problems_with_all(&[("alignment = good", "alignment = lawful")]);
    assert!(
        !lawful
            .iter()
            .any(|p| p.contains("Mortenians") || p.contains("Borians")),
        "{lawful:#?}"
    );
    let anarchist = problems_with_all(&[("alignment = good", "alignment = anarchists")]);
    assert!(
        anarchist
            .iter()
            .any(|p| p.contains("Half-giants") && p.contains("anarchists")),
        "{anarchist:#?}"
    );
    assert!(
        !anarchist.iter().any(|p| p.contains("Humans")),
        "{anarchist:#?}"
    );
}

/// The shipped parties, changed: the shipped ruleset's constants and roster refuse them.
fn problems_with(find: &str, replace: &str) -> Vec<String> {
    let dir = cards().join("umbra_turris");
    let (mut sources, problems) = read_paths(&[dir]);
    assert!(problems.is_empty(), "{problems:?}");
    let parties = sources
        .iter_mut()
        .find(|s| s.name.ends_with("parties.gloam"))
        .expect("parties.gloam");
    assert!(parties.text.contains(find), "{find}");
    parties.text = parties.text.replacen(find, replace, 1).into();
    let (_, problems) = load(&sources, &gloam_dsl::Host::new());
    problems.iter().map(ToString::to_string).collect()
}

#[test]
fn changed_example_parties_are_refused_by_the_shipped_rules() {
    // 954 DC is over a small game's 750 (003 L1627).
    let over = problems_with("points = 1000", "points = 750");
    assert_eq!(
        over,
        ["the party costs 954 points, over its limit of 750"],
        "{over:#?}"
    );
    // A Paladin in an Evil party (003 L1296).
    let paladin = problems_with("profession = \"Berserker\"", "profession = \"Paladin\"");
    assert!(
        paladin.contains(&"Paladin is not open to a party of alignment `evil`".to_string()),
        "{paladin:#?}"
    );
    // A second Mage (003 L1645): the Lantern Wardens already field a Cleric.
    let mages = problems_with("profession = \"Scout\"", "profession = \"Wizard\"");
    assert!(
        mages.contains(&"a party fields at most 1 caster".to_string()),
        "{mages:#?}"
    );
}

/// The shipped data with each `find` in parties.gloam replaced, once.
fn sources_with(changes: &[(&str, &str)]) -> Vec<gloam::load::Source> {
    let dir = cards().join("umbra_turris");
    let (mut sources, problems) = read_paths(&[dir]);
    assert!(problems.is_empty(), "{problems:?}");
    let parties = sources
        .iter_mut()
        .find(|s| s.name.ends_with("parties.gloam"))
        .expect("parties.gloam");
    for (find, replace) in changes {
        assert!(parties.text.contains(find), "{find}");
        parties.text = parties.text.replacen(find, replace, 1).into();
    }
    sources
}

fn problems_with_all(changes: &[(&str, &str)]) -> Vec<String> {
    let (_, problems) = load(&sources_with(changes), &gloam_dsl::Host::new());
    problems.iter().map(ToString::to_string).collect()
}

/// A Tracker Guild party of seven (003 L1518-1524): a Tracker leads, two Scouts and a Bow
/// Master are members, and four heroes shoot.
const STALKERS: &str = r#"
party "Reed Stalkers" {
    ruleset = "umbra_turris"
    roster = "Umbra Turris"
    alignment = neutral
    points = 1000
    guild = "Tracker"

    hero "Orla" {
        race = "Humans"
        subrace = "Mortenians"
        profession = "Tracker"
        leader = true
        equipment = ["Sling"]
    }

    hero "Wren" {
        race = "Humans"
        subrace = "Mortenians"
        profession = "Scout"
        equipment = ["Sling"]
    }

    hero "Teague" {
        race = "Humans"
        subrace = "Mortenians"
        profession = "Bow Master"
        equipment = ["Crossbow"]
    }

    hero "Moss" {
        race = "Humans"
        subrace = "Mortenians"
        profession = "Scout"
        equipment = ["Crossbow"]
    }

    hero "Fenn" {
        race = "Humans"
        subrace = "Mortenians"
        profession = "Marksman"
        equipment = ["Spear"]
    }

    hero "Hale" {
        race = "Humans"
        subrace = "Mortenians"
        profession = "Soldier"
        equipment = ["Spear"]
    }

    hero "Cob" {
        race = "Humans"
        subrace = "Mortenians"
        profession = "Soldier"
        equipment = ["Spear"]
    }
}
"#;

/// The problems of the shipped data with STALKERS added, each `find` in it replaced once.
fn stalkers_with(changes: &[(&str, &str)]) -> Vec<String> {
    let mut party = STALKERS.to_string();
    for (find, replace) in changes {
        assert!(party.contains(find), "{find}");
        party = party.replacen(find, replace, 1);
    }
    let mut sources = sources_with(&[]);
    let parties = sources
        .iter_mut()
        .find(|s| s.name.ends_with("parties.gloam"))
        .expect("parties.gloam");
    parties.text = format!("{}{party}", parties.text).into();
    let (_, problems) = load(&sources, &gloam_dsl::Host::new());
    problems.iter().map(ToString::to_string).collect()
}

#[test]
fn the_tracker_guild_rounds_the_shooters_up_and_bars_firearms() {
    // Half of seven rounded up is four (003 L1520).
    let guild = stalkers_with(&[]);
    assert!(guild.is_empty(), "{guild:#?}");
    // Without the guild, half rounded down is three (003 L1645).
    let plain = stalkers_with(&[("    guild = \"Tracker\"\n", "")]);
    assert_eq!(
        plain,
        ["at most 3 of the party's 7 heroes may carry ranged weapons"],
        "{plain:#?}"
    );
    // No firearms in the guild (003 L1520), even for a Marksman, who may carry a Musket
    // elsewhere.
    let musket = stalkers_with(&[(
        "profession = \"Marksman\"\n        equipment = [\"Spear\"]",
        "profession = \"Marksman\"\n        equipment = [\"Spear\", \"Musket\"]",
    )]);
    assert!(
        musket.contains(&"the Tracker Guild's heroes may not carry Musket (firearm)".to_string()),
        "{musket:#?}"
    );
}

#[test]
fn an_axemans_axes_are_outside_the_ranged_limit() {
    // Three shooters of seven without the guild, and an Axeman with a one-handed axe: the
    // axe may be thrown but is not counted (003 L1402).
    let fine = stalkers_with(&[
        ("    guild = \"Tracker\"\n", ""),
        (
            "profession = \"Scout\"\n        equipment = [\"Crossbow\"]",
            "profession = \"Scout\"\n        equipment = [\"Spear\"]",
        ),
        (
            "profession = \"Soldier\"\n        equipment = [\"Spear\"]",
            "profession = \"Axeman\"\n        equipment = [\"Axe, Scimitar\"]",
        ),
    ]);
    assert!(fine.is_empty(), "{fine:#?}");
}

#[test]
fn one_hero_of_a_party_carries_special_weapons() {
    // Two different special weapons on two heroes (003 L1755).
    let two = problems_with_all(&[
        (
            "equipment = [\"Sword, short sword\", \"Light helmet\"]",
            "equipment = [\"Asari Tiheri\", \"Light helmet\"]",
        ),
        (
            "equipment = [\"Bow\", \"Knife\"]",
            "equipment = [\"Bow of Morrenviel\", \"Knife\"]",
        ),
    ]);
    assert!(
        two.contains(&"only one hero of a party may carry `special` equipment: `Rasha` already carries Asari Tiheri".to_string()),
        "{two:#?}"
    );
    // One is fine.
    let one = problems_with_all(&[(
        "equipment = [\"Bow\", \"Knife\"]",
        "equipment = [\"Bow of Morrenviel\", \"Knife\"]",
    )]);
    assert!(one.is_empty(), "{one:#?}");
}

#[test]
fn the_trophy_and_the_horn_go_to_neither_leader_nor_mage() {
    // 003 L1971-1977: not for the Leader or the Mage; the Horn not for the Trophy's bearer.
    let leader = problems_with_all(&[(
        "\"Steel shield\", \"Heavy helmet\"]",
        "\"Steel shield\", \"Heavy helmet\", \"Trophy/totem\"]",
    )]);
    assert_eq!(
        leader,
        ["Trophy/totem may not be carried by the party's leader"],
        "{leader:#?}"
    );
    let mage = problems_with_all(&[(
        "equipment = [\"Staff, Ritual weapon\"]",
        "equipment = [\"Staff, Ritual weapon\", \"Horn\"]",
    )]);
    assert_eq!(mage, ["Horn may not be carried by a caster"], "{mage:#?}");
    let both = problems_with_all(&[(
        "equipment = [\"Spear\", \"Breastplate\"]",
        "equipment = [\"Spear\", \"Breastplate\", \"Trophy/totem\", \"Horn\"]",
    )]);
    assert!(
        both.contains(&"Horn cannot go with Trophy/totem".to_string()),
        "{both:#?}"
    );
    let soldier = problems_with_all(&[(
        "equipment = [\"Spear\", \"Breastplate\"]",
        "equipment = [\"Spear\", \"Breastplate\", \"Trophy/totem\"]",
    )]);
    assert!(soldier.is_empty(), "{soldier:#?}");
}

#[test]
fn a_caster_picks_its_domains_within_the_partys_alignment() {
    // A Cleric has one domain (003 L1242); Death is for Evil parties only (003 L628, L668).
    let death = problems_with_all(&[("domains = [\"Light\"]", "domains = [\"Death\"]")]);
    assert_eq!(
        death,
        ["the domain of Death is only for parties of alignment `evil`; this one is `good`"],
        "{death:#?}"
    );
    let none = problems_with_all(&[("        domains = [\"Light\"]\n", "")]);
    assert_eq!(
        none,
        ["a Cleric picks 1 domain of magic; hero `Pip Thistlewood` picks 0"],
        "{none:#?}"
    );
    let two = problems_with_all(&[("domains = [\"Light\"]", "domains = [\"Light\", \"Fire\"]")]);
    assert_eq!(
        two,
        ["a Cleric picks 1 domain of magic; hero `Pip Thistlewood` picks more"],
        "{two:#?}"
    );
}

#[test]
fn a_crafty_merchant_buys_three_different_items() {
    // 003 L1302: three different items from the additional equipment.
    let merchant = |items: &str| {
        problems_with_all(&[(
            "profession = \"Soldier\"\n        equipment = [\"Spear\", \"Breastplate\"]",
            &format!("profession = \"Crafty Merchant\"\n        equipment = [\"Spear\", {items}]"),
        )])
    };
    let three = merchant("\"Rope\", \"Herbs\", \"Glass\"");
    assert!(three.is_empty(), "{three:#?}");
    let four = merchant("\"Rope\", \"Herbs\", \"Glass\", \"Tinderbox\"");
    assert_eq!(
        four,
        ["a Crafty Merchant buys at most 3 additional items"],
        "{four:#?}"
    );
    let twice = merchant("\"Rope\", \"Rope\"");
    assert_eq!(twice, ["hero `Brannoc` buys Rope twice"], "{twice:#?}");
}

#[test]
fn a_swashbucklers_matching_second_weapon_costs_half() {
    // 003 L1466: the second weapon, the same as the first, costs half (rounded down)
    // instead of three times.
    let cost_of = |equipment: &str| {
        let sources = sources_with(&[(
            "profession = \"Squire\"\n        equipment = [\"Sword, short sword\", \"Light helmet\"]",
            &format!("profession = \"Swashbuckler\"\n        equipment = [{equipment}]"),
        )]);
        let (loaded, _) = load(&sources, &gloam_dsl::Host::new());
        let library = loaded.library;
        let party = library.party("The Lantern Wardens").expect("party");
        let costs = party_costs(
            party,
            library.roster("Umbra Turris").expect("roster"),
            library.ruleset("umbra_turris").expect("ruleset"),
        )
        .expect("constants");
        costs
            .iter()
            .find(|c| c.hero == "Rasha")
            .map(|c| c.equipment)
            .expect("Rasha")
    };
    // A sword is 11 DC (003 L1659): 11 + 5.
    assert_eq!(
        cost_of("\"Sword, short sword\", \"Sword, short sword\""),
        16
    );
    // A different second weapon is tripled as for anyone: a Spear (13): 11 + 39.
    assert_eq!(cost_of("\"Sword, short sword\", \"Spear\""), 50);
}

#[test]
fn every_summoned_creature_and_shape_of_the_seed_is_in_the_data() {
    let library = umbra();
    let roster = library.roster("Umbra Turris").expect("the roster");
    let creature = |spell: &str| {
        let (_, found) = roster
            .spells()
            .find(|(_, s)| s.name == spell)
            .unwrap_or_else(|| panic!("spell {spell}"));
        assert_eq!(found.creatures.len(), 1, "{spell}");
        found.creatures[0].clone()
    };
    let stats = |c: &gloam_grammar::CreatureDef| -> Vec<(String, String)> {
        c.stats
            .iter()
            .map(|v| (v.name.clone(), v.value.to_string()))
            .collect()
    };
    let expect = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    };
    // Summoned: [003 L636-638], [L670-672], [L714], [L722-724], [L754-758].
    type Row<'a> = (&'a str, &'a str, i64, &'a [(&'a str, &'a str)]);
    let rows: [Row; 5] = [
        (
            "Shade",
            "Shade",
            1,
            &[
                ("ld", "0"),
                ("m", "15cm"),
                ("ws", "6"),
                ("s", "6"),
                ("sp", "6"),
                ("bs", "0"),
                ("t", "6"),
                ("wounds", "3"),
            ],
        ),
        (
            "Raise dead",
            "Undead",
            1,
            &[
                ("ld", "0"),
                ("m", "15cm"),
                ("ws", "6"),
                ("s", "6"),
                ("sp", "5"),
                ("bs", "0"),
                ("t", "6"),
                ("wounds", "2"),
            ],
        ),
        (
            "Summon Cherub",
            "Cherub",
            1,
            &[
                ("ld", "0"),
                ("m", "15cm"),
                ("ws", "6"),
                ("s", "6"),
                ("sp", "6"),
                ("bs", "0"),
                ("t", "6"),
                ("wounds", "2"),
            ],
        ),
        (
            "War eagle",
            "War Eagle",
            1,
            &[
                ("ld", "0"),
                ("ws", "6"),
                ("s", "6"),
                ("sp", "7"),
                ("bs", "0"),
                ("t", "6"),
                ("wounds", "2"),
            ],
        ),
        (
            "Summon spawn",
            "Magic Spawn",
            2,
            &[
                ("ld", "0"),
                ("m", "15cm"),
                ("ws", "6"),
                ("s", "6"),
                ("sp", "6"),
                ("bs", "0"),
                ("t", "6"),
                ("wounds", "1"),
            ],
        ),
    ];
    for (spell, name, count, profile) in rows {
        let c = creature(spell);
        assert_eq!(
            (c.name.as_str(), c.form.as_str(), c.count),
            (name, "summoned", count)
        );
        assert_eq!(stats(&c), expect(profile), "{name}");
    }
    // The War Eagle flies (L724: "M-Flying"); the Undead has Permanent Fear and +1 Power
    // Strike claws (L672); the Cherub and the Eagle make Normal Strikes only (L714, L724).
    assert!(creature("War eagle").flying);
    let undead = creature("Raise dead");
    assert_eq!(undead.keywords, ["permanent_fear"]);
    assert_eq!(undead.strikes, [("power".to_string(), 1)]);
    assert_eq!(creature("Summon Cherub").strike_types, ["normal"]);
    // Shapes: the Wildwood Demon keeps LD, WS and W and only makes Power Strikes
    // (L734-740); a hero turned into a spawn keeps its Wounds (our reading of L760).
    let demon = creature("Shapeshift");
    assert_eq!(demon.form, "caster");
    assert_eq!(demon.keep, ["ld", "ws", "wounds"]);
    assert_eq!(
        stats(&demon),
        expect(&[
            ("m", "10cm"),
            ("s", "12"),
            ("sp", "6"),
            ("bs", "0"),
            ("t", "9")
        ])
    );
    assert_eq!(demon.keywords, ["fear", "large"]);
    assert_eq!(demon.strike_types, ["power"]);
    let spawned = creature("Turn into spawn");
    assert_eq!(spawned.form, "target");
    assert_eq!(spawned.keep, ["wounds"]);
}
