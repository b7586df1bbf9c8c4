//! Umbra Turris's decks as a player builds them (seed 003 L2110-2148; digest A22): each
//! player brings his own Terrain, Item and Quest decks. A party names its decks in a
//! `decklist` item (`party = "..."`), checked at load against the ruleset's deck rules, and
//! its seat is dealt them; a deck the decklist leaves out is every card of the ruleset, as
//! for a party with no decklist.

use std::path::PathBuf;

use gloam::core::{GameState, PlayerId, ZoneId};
use gloam::load::{load, read_paths};
use gloam::sim::{MatchChoice, prepare_match};

mod scenario;
use scenario::{bare, cards_dir, fixture_file};

const ANN: PlayerId = PlayerId(0);
const BO: PlayerId = PlayerId(1);

/// Two Item cards of the test's own beside the shipped twelve, and a decklist of the
/// Lantern Wardens that takes them instead of Caltrops and Smoke Powder. It lists no
/// Terrain and no Quest deck.
const KIT: &str = r#"
card "Tin Whistle" {
    ruleset = "umbra_turris"
    kind = item
    owner = universal
    keywords = [instant]
    text = "Instant. A test card: nothing happens."
}

card "Sealed Letter" {
    ruleset = "umbra_turris"
    kind = item
    owner = universal
    keywords = [instant]
    text = "Instant. A test card: nothing happens."
}

decklist "Wardens' Kit" {
    ruleset = "umbra_turris"
    party = "The Lantern Wardens"

    deck "item" {
        cards = [
            "Whetstone",
            "Traveller's Cloak",
            "Map Fragment",
            "Grappling Hook",
            "Spare Arrows",
            "Lucky Coin",
            "Rusted Key",
            "Blessed Bandage",
            "Forged Orders",
            "Bottled Courage",
            "Tin Whistle",
            "Sealed Letter",
        ]
    }
}
"#;

const KIT_ITEMS: [&str; 12] = [
    "Whetstone",
    "Traveller's Cloak",
    "Map Fragment",
    "Grappling Hook",
    "Spare Arrows",
    "Lucky Coin",
    "Rusted Key",
    "Blessed Bandage",
    "Forged Orders",
    "Bottled Courage",
    "Tin Whistle",
    "Sealed Letter",
];

fn parties() -> Vec<String> {
    vec!["The Lantern Wardens".into(), "The Ashen Court".into()]
}

fn names_in(state: &GameState, player: PlayerId, zone: &str) -> Vec<String> {
    let mut names: Vec<String> = state
        .zone_cards(&ZoneId::new(player, zone))
        .iter()
        .map(|card| state.cards[card].name.clone())
        .collect();
    names.sort();
    names
}

/// What `gloam check` says of the shipped data with `text` beside it.
fn problems_with(text: &str) -> Vec<String> {
    let file: PathBuf = fixture_file("decklists", text);
    let (sources, problems) = read_paths(&[cards_dir(), file]);
    assert!(problems.is_empty(), "{problems:?}");
    let (_, problems) = load(&sources, &gloam_dsl::Host::new());
    problems.iter().map(ToString::to_string).collect()
}

#[test]
fn the_shipped_terrain_cards_hold_each_alignment_twice() {
    // 003 L2116: a Terrain deck of 6 to 18 different cards, at least one card of each
    // alignment, all alignments in equal proportions. Ours: the alignment is a keyword of
    // the card; with five alignments a deck holds 10 or 15 cards; ours holds two of each.
    let (sources, _) = read_paths(&[cards_dir()]);
    let (loaded, problems) = load(&sources, &gloam_dsl::Host::new());
    assert!(problems.is_empty());
    let terrain: Vec<_> = loaded
        .library
        .cards()
        .iter()
        .filter(|c| c.ruleset == "umbra_turris" && c.kind == "terrain")
        .collect();
    assert_eq!(terrain.len(), 10);
    for alignment in ["good", "lawful", "neutral", "anarchists", "evil"] {
        let count = terrain
            .iter()
            .filter(|c| c.keywords.iter().any(|k| k == alignment))
            .count();
        assert_eq!(count, 2, "{alignment}");
    }
    // The ruleset's deck says so, and `gloam check` holds a decklist to it.
    let deck = loaded
        .library
        .ruleset("umbra_turris")
        .and_then(|r| r.decks.iter().find(|d| d.name == "terrain"))
        .expect("the terrain deck");
    assert_eq!(
        deck.balanced,
        ["good", "lawful", "neutral", "anarchists", "evil"]
    );
}

#[test]
fn a_partys_decklist_is_dealt_to_its_seat_and_a_deck_it_leaves_out_is_every_card() {
    // 003 L2118: each player has his own Item deck, built as he likes within the rules.
    // The Wardens' decklist is theirs by default (a party's first decklist); the Ashen Court
    // has none and brings every Item card of the data, the test's two among them.
    let file = fixture_file("kit", KIT);
    let choice = MatchChoice {
        parties: parties(),
        ..MatchChoice::default()
    };
    let rules = prepare_match(&[cards_dir(), file], "umbra_turris", 2, &choice).expect("match");
    let game = bare(&rules);
    let state = game.state();
    let mut kit: Vec<String> = KIT_ITEMS.iter().map(|s| (*s).to_owned()).collect();
    kit.sort();
    assert_eq!(names_in(state, ANN, "item_deck"), kit);
    let court = names_in(state, BO, "item_deck");
    assert_eq!(court.len(), 14);
    assert!(court.contains(&"Caltrops".to_owned()) && court.contains(&"Tin Whistle".to_owned()));
    // The decks the decklist does not list: every Terrain and Quest card, as for the Court.
    for (zone, size) in [("terrain_deck", 10), ("quest_deck", 16)] {
        assert_eq!(names_in(state, ANN, zone).len(), size, "{zone}");
        assert_eq!(
            names_in(state, ANN, zone),
            names_in(state, BO, zone),
            "{zone}"
        );
    }
}

#[test]
fn a_decklist_named_for_a_seat_must_be_that_seats_partys() {
    let file = fixture_file("kit", KIT);
    let choice = MatchChoice {
        parties: parties(),
        decklists: vec!["Wardens' Kit".into(), "Wardens' Kit".into()],
        ..MatchChoice::default()
    };
    let error = prepare_match(&[cards_dir(), file.clone()], "umbra_turris", 2, &choice)
        .expect_err("the Court cannot take the Wardens' decks");
    assert!(
        error.contains(
            "decklist `Wardens' Kit` is for party `The Lantern Wardens`, not party `The Ashen Court` (seat 1)"
        ),
        "{error}"
    );
    let choice = MatchChoice {
        parties: parties(),
        decklists: vec!["Wardens Kit".into()],
        ..MatchChoice::default()
    };
    let error = prepare_match(&[cards_dir(), file], "umbra_turris", 2, &choice)
        .expect_err("no such decklist");
    assert!(error.contains("Wardens' Kit"), "{error}");
}

#[test]
fn check_holds_a_partys_decklist_to_the_deck_rules() {
    // The shipped data with the kit: no problem.
    assert_eq!(problems_with(KIT), Vec::<String>::new());
    // 003 L2116: six Terrain cards, two of them lawful and none anarchist, are refused.
    let lopsided = r#"
decklist "Lopsided" {
    ruleset = "umbra_turris"
    party = "The Ashen Court"
    deck "terrain" {
        cards = ["Market Day", "Old Watchtower", "Temple Steps", "Forest Clearing", "Overgrown Cemetery", "Gallows Hill"]
    }
}
"#;
    let problems = problems_with(lopsided);
    assert_eq!(
        problems,
        [
            "the `terrain` deck holds 1 good, 2 lawful, 1 neutral, 0 anarchists, 2 evil; its rules want each on the same number of cards, at least one"
        ],
        "{problems:#?}"
    );
    // 003 L2120: at most one Permanent Item per card of another type (3 of 5 here), and
    // 12 cards at least.
    let heavy = r#"
decklist "Heavy" {
    ruleset = "umbra_turris"
    party = "The Ashen Court"
    deck "item" {
        cards = ["Whetstone", "Traveller's Cloak", "Map Fragment", "Lucky Coin", "Caltrops"]
    }
}
"#;
    let problems = problems_with(heavy);
    assert!(
        problems
            .iter()
            .any(|p| p
                .contains("the `item` deck has 5 cards; ruleset `umbra_turris` needs at least 12")),
        "{problems:#?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("3 permanent cards out of 5; at most half (2) may be")),
        "{problems:#?}"
    );
    // A party that is not loaded, and a decklist that names no owner or two.
    let strays = r#"
decklist "Stray" {
    ruleset = "umbra_turris"
    party = "The Lantern Warden"
}

decklist "Nobody's" {
    ruleset = "umbra_turris"
}

decklist "Everybody's" {
    ruleset = "umbra_turris"
    party = "The Ashen Court"
    warband = "The Ashen Court"
}
"#;
    let problems = problems_with(strays).join("\n");
    assert!(
        problems.contains("unknown party `The Lantern Warden`"),
        "{problems}"
    );
    assert!(
        problems.contains("missing field `warband` in `decklist`"),
        "{problems}"
    );
    assert!(
        problems.contains("decklist `Everybody's` names both a warband and a party"),
        "{problems}"
    );
}
