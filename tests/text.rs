//! Card text against behaviour (issue 6): the parser of printed Underworlds card text, the
//! comparison with each card's data, the canonical render and `gloam text`.
//!
//! Rules: Harrowdeep card texts (seed 002 L640-1121, L1449-1571, L2153-2725, L3186-3516;
//! card inventory in shared/rules/underworlds-cards.md, sections B-E); Shadespire's
//! (seed 000 L273-801, digest 2) and Embergard's terms (seed 001: surge plays L421-427,
//! delving, raising, BOUNTY L351; digest 4).

use std::path::Path;

use gloam::load::{Source, load, read_paths};
use gloam::text::{Code, Sites, Status, check_card, render};
use gloam_grammar::CardDef;
use gloam_grammar::text::{Condition, Item, Keyword, ScoreTiming, Trigger, parse_text};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

struct Data {
    library: gloam_grammar::Library,
    sites: Sites,
}

fn harrowdeep() -> Data {
    let (sources, problems) = read_paths(&[
        root().join("cards/harrowdeep"),
        root().join("cards/underworlds"),
    ]);
    assert!(problems.is_empty(), "{problems:?}");
    let sources: Vec<Source> = sources;
    let (loaded, problems) = load(&sources, &gloam_dsl::Host::new());
    assert!(problems.is_empty(), "{problems:?}");
    Data {
        sites: Sites::new(&sources),
        library: loaded.library,
    }
}

/// Every shipped ruleset: all of `cards/`.
fn every_ruleset() -> Data {
    let (sources, problems) = read_paths(&[root().join("cards")]);
    assert!(problems.is_empty(), "{problems:?}");
    let (loaded, problems) = load(&sources, &gloam_dsl::Host::new());
    assert!(problems.is_empty(), "{problems:?}");
    Data {
        sites: Sites::new(&sources),
        library: loaded.library,
    }
}

/// The card `name` of ruleset `ruleset`.
fn card_of<'a>(data: &'a Data, ruleset: &str, name: &str) -> &'a CardDef {
    data.library
        .cards()
        .iter()
        .find(|c| c.ruleset == ruleset && c.name == name)
        .unwrap_or_else(|| panic!("no card `{name}` in `{ruleset}`"))
}

/// The snapshot fixture: a small ruleset and two cards (tests/text/fixture.gloam).
fn fixture() -> Data {
    let path = root().join("tests/text/fixture.gloam");
    let text = std::fs::read_to_string(&path).expect("fixture");
    let sources = [Source::new("tests/text/fixture.gloam", text)];
    let (loaded, problems) = load(&sources, &gloam_dsl::Host::new());
    assert!(problems.is_empty(), "{problems:?}");
    Data {
        sites: Sites::new(&sources),
        library: loaded.library,
    }
}

/// One load for the property tests.
fn shared_harrowdeep() -> &'static Data {
    static DATA: std::sync::OnceLock<Data> = std::sync::OnceLock::new();
    DATA.get_or_init(harrowdeep)
}

fn card<'a>(data: &'a Data, name: &str) -> &'a CardDef {
    data.library
        .card(name)
        .unwrap_or_else(|| panic!("no card `{name}`"))
}

fn codes(check: &gloam::text::TextCheck) -> Vec<&'static str> {
    check.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

#[derive(serde::Deserialize)]
struct CorpusEntry {
    /// The card's ruleset (Harrowdeep when not given).
    #[serde(default = "harrowdeep_name")]
    ruleset: String,
    card: String,
    expect: String,
    /// For the logic plants of issue 17 item 8: which kind of slip (`condition_side`,
    /// `duration_side`, `territory`, `operand`, `dropped_clause`, `push_hexes`), or
    /// `control` for an agreeing text with the same conditions.
    #[serde(default)]
    kind: String,
    about: String,
    text: String,
}

fn harrowdeep_name() -> String {
    "harrowdeep".to_owned()
}

/// The corpus entry's card, in its ruleset.
fn corpus_card<'a>(data: &'a Data, entry: &CorpusEntry) -> &'a CardDef {
    card_of(data, &entry.ruleset, &entry.card)
}

/// One load of every shipped ruleset for the corpus tests.
fn shared_every_ruleset() -> &'static Data {
    static DATA: std::sync::OnceLock<Data> = std::sync::OnceLock::new();
    DATA.get_or_init(every_ruleset)
}

fn corpus() -> Vec<CorpusEntry> {
    let text = std::fs::read_to_string(root().join("tests/text/corpus.json")).expect("corpus");
    serde_json::from_str(&text).expect("corpus is JSON")
}

/// Each planted mismatch (wrong number, window, score timing, target side, range,
/// duration, direction, keyword, kind, restriction; dropped condition or effect; an effect
/// or condition the data lacks; an unknown sentence) is caught with its own code.
#[test]
fn corpus_planted_mismatches_caught_with_their_code() {
    let data = shared_every_ruleset();
    let mut failures = Vec::new();
    let mut planted = 0;
    for entry in corpus().iter().filter(|e| e.expect != "agrees") {
        planted += 1;
        let check = check_card(
            corpus_card(data, entry),
            Some(("corpus", &entry.text)),
            &data.sites,
        );
        if check.status == Status::Agrees || !codes(&check).contains(&entry.expect.as_str()) {
            failures.push(format!(
                "{} ({}): expected {}, got {:?} {:?}",
                entry.card,
                entry.about,
                entry.expect,
                check.status,
                codes(&check)
            ));
        }
    }
    assert!(planted >= 20, "the corpus plants {planted} mismatches");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Paraphrases with the same meaning, printed wordings and noisy typography (ligatures
/// split or lost, curly quotes, line breaks, hyphenation) are accepted.
#[test]
fn corpus_paraphrases_and_noise_accepted() {
    let data = shared_every_ruleset();
    let mut failures = Vec::new();
    for entry in corpus().iter().filter(|e| e.expect == "agrees") {
        let check = check_card(
            corpus_card(data, entry),
            Some(("corpus", &entry.text)),
            &data.sites,
        );
        if check.status != Status::Agrees {
            failures.push(format!(
                "{} ({}): {:?} {:?}",
                entry.card,
                entry.about,
                check.status,
                check
                    .diagnostics
                    .iter()
                    .map(|d| d.message.clone())
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Issue 17 item 8: conditions compared as logic. Every kind of slip the robustness pass
/// found (a changed side inside a condition or a duration, a changed territory, a changed
/// comparison operand, a dropped condition clause, a changed number of hexes in a push) is
/// planted in each edition's wording (Harrowdeep seed 002, Shadespire seed 000, Embergard
/// seed 001 terms), and each edition has agreeing controls with the same conditions, so a
/// checker that flags everything fails `corpus_paraphrases_and_noise_accepted`. (Shadespire
/// has no card that tests a territory: its territory plant is a territory the card never
/// tests, and its operand plants only the round number where the card has a number, as
/// only Harrowdeep data compares with the round.)
#[test]
fn corpus_logic_kinds_planted_in_every_edition() {
    let entries = corpus();
    let kinds = [
        "condition_side",
        "duration_side",
        "territory",
        "operand",
        "dropped_clause",
        "push_hexes",
    ];
    let mut missing = Vec::new();
    for ruleset in ["harrowdeep", "shadespire", "embergard"] {
        for kind in kinds.iter().chain(&["control"]) {
            let count = entries
                .iter()
                .filter(|e| e.ruleset == ruleset && e.kind == *kind)
                .count();
            if count == 0 {
                missing.push(format!("{ruleset}: {kind}"));
            }
        }
    }
    assert!(missing.is_empty(), "not planted: {missing:?}");
    // The controls agree and the plants do not: checked by the two corpus tests above.
    let controls = entries.iter().filter(|e| e.kind == "control").count();
    assert!(controls >= 9, "{controls} controls");
}

/// Where the shipped behaviour does less than the card says. Each is a rule the engine does
/// not implement yet (the card files say "Needs engine support"); the text is right.
const KNOWN_GAPS: &[(&str, &[&str])] = &[
    // None: every shipped card agrees with its text (Audacious Move, Called Strike, Easy
    // Meat, Swampspill and Visage of Destruction were the last, closed by the flow's 'next
    // activation' gambits, `close_attack_rerolls`, `charge_move` and upgrade keywords).
];

/// The shipped rulesets with card texts, and how many cards each has at least (Harrowdeep's
/// core set is complete: exactly 34).
const SHIPPED: &[(&str, usize)] = &[("harrowdeep", 34), ("shadespire", 11), ("embergard", 32)];

/// Every shipped card's text, in every ruleset, parses, and agrees with its behaviour
/// except for the listed gaps, which are caught with exactly the listed codes.
#[test]
fn shipped_texts_every_ruleset_parse_and_agree_except_known_gaps() {
    let data = every_ruleset();
    let mut failures = Vec::new();
    for (ruleset, at_least) in SHIPPED {
        let cards: Vec<&CardDef> = data
            .library
            .cards()
            .iter()
            .filter(|c| c.ruleset == *ruleset && c.text.is_some())
            .collect();
        if *ruleset == "harrowdeep" {
            assert_eq!(cards.len(), *at_least);
        }
        assert!(cards.len() >= *at_least, "{ruleset}: {} cards", cards.len());
        failures.extend(shipped_failures(&data, &cards));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The cards of `cards` whose check is not what [`KNOWN_GAPS`] expects.
/// A check's diagnostics as `code: message` lines, for failure messages.
fn listed(check: &gloam::text::TextCheck) -> Vec<String> {
    check
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect()
}

fn shipped_failures(data: &Data, cards: &[&CardDef]) -> Vec<String> {
    let mut failures = Vec::new();
    for card in cards {
        let check = check_card(card, None, &data.sites);
        let expected: Vec<&str> = KNOWN_GAPS
            .iter()
            .find(|(name, _)| *name == card.name)
            .map(|(_, codes)| codes.to_vec())
            .unwrap_or_default();
        if check.status == Status::Unparsed || codes(&check) != expected {
            failures.push(format!(
                "{} ({}): {:?} {:?}",
                card.name,
                card.ruleset,
                check.status,
                listed(&check)
            ));
        }
    }
    failures
}

/// The tutorial's card file (docs/tutorial/my_cards.gloam) with the shared model it is
/// written for.
fn tutorial() -> Data {
    let (sources, problems) = read_paths(&[
        root().join("cards/underworlds"),
        root().join("docs/tutorial/my_cards.gloam"),
    ]);
    assert!(problems.is_empty(), "{problems:?}");
    let (loaded, _) = load(&sources, &gloam_dsl::Host::new());
    Data {
        sites: Sites::new(&sources),
        library: loaded.library,
    }
}

/// The render's failures: each card whose canonical text does not check as agreeing with
/// the card (any code: conditions included).
fn render_failures(data: &Data, cards: &[&CardDef]) -> Vec<String> {
    let mut failures = Vec::new();
    for card in cards {
        let text = render(card);
        let check = check_card(card, Some(("render", &text)), &data.sites);
        if check.status != Status::Agrees {
            failures.push(format!(
                "{} ({}): `{text}`: {:?} {:?}",
                card.name,
                card.ruleset,
                check.status,
                listed(&check)
            ));
        }
    }
    failures
}

/// Issue 11 item 4: the text `gloam text render` writes for any card checks as agreeing
/// with that card, conditions included: every card of every shipped ruleset, and the
/// tutorial's card.
#[test]
fn render_every_card_every_ruleset_and_tutorial_agrees() {
    let data = every_ruleset();
    // The cards of the hex rulesets that are played: the card-text grammar reads the
    // Underworlds editions' wording (docs/card-text.md). A table game's cards (Spearhead's
    // battle tactics and twists, whose conditions read the measured table) are outside it,
    // as are those of a ruleset with no flow.
    let on_a_table = |ruleset: &str| data.library.armies().iter().any(|a| a.ruleset == ruleset);
    let played = |card: &&CardDef| {
        data.library
            .ruleset(&card.ruleset)
            .is_some_and(|ruleset| !ruleset.steps.is_empty())
            && !on_a_table(&card.ruleset)
    };
    let cards: Vec<&CardDef> = data.library.cards().iter().filter(played).collect();
    assert!(cards.len() >= 77, "{} cards", cards.len());
    let mut failures = render_failures(&data, &cards);
    let tutorial = tutorial();
    let cards: Vec<&CardDef> = tutorial.library.cards().iter().collect();
    assert!(!cards.is_empty(), "the tutorial has a card");
    failures.extend(render_failures(&tutorial, &cards));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Issue 11 item 4: the tutorial card's text (docs/tutorial/my_cards.gloam, docs/authoring.md)
/// is read as it says: the push is seen even with its target qualified before the distance
/// ("an enemy fighter adjacent to your fighter 1 hex"), and "your fighter" is a friendly
/// fighter, not any fighter.
#[test]
fn issue_0011_tutorial_push_and_your_fighter_read() {
    use gloam_grammar::text::{EffectKind, PushDirection, Quantity, Side};
    let text = parse_text(
        "Push an enemy fighter adjacent to your fighter 1 hex, then your fighter gains a guard token.",
    );
    assert!(text.is_parsed(), "{:?}", text.unparsed);
    let effects: Vec<(EffectKind, Option<i64>, Side, Quantity)> = text
        .effects()
        .map(|(_, e)| (e.kind.clone(), e.amount, e.target.side, e.target.quantity))
        .collect();
    assert_eq!(
        effects,
        [
            (
                EffectKind::Push(PushDirection::Any),
                Some(1),
                Side::Enemy,
                Quantity::One
            ),
            (
                EffectKind::GiveToken("guard".into()),
                Some(1),
                Side::Friendly,
                Quantity::One
            ),
        ]
    );
    let items: Vec<&Item> = text.clauses.iter().map(|c| &c.item).collect();
    assert!(items.contains(&&Item::Condition(Condition::Adjacent)));
    // The distance is not read again as a number of the condition.
    assert!(!items.contains(&&Item::Condition(Condition::Number(1))));
    let text = parse_text("Push a friendly fighter within 2 hexes of your leader up to 2 hexes.");
    assert!(
        text.effects()
            .any(|(_, e)| e.kind == EffectKind::Push(PushDirection::Any)
                && e.amount == Some(2)
                && e.target.side == Side::Friendly)
    );
}

/// Issue 11 item 4: the tutorial card checks against its text. Its push agrees; its
/// token goes to "your fighter", a friendly fighter: with the data choosing a friendly
/// fighter (as a ploy must, issue 11 item 1) the whole text agrees, and with
/// `this_fighter` in a ploy only that side is reported.
#[test]
fn issue_0011_tutorial_card_checked() {
    let data = tutorial();
    let card = card(&data, "Heroic Shove");
    let check = check_card(card, None, &data.sites);
    let found = codes(&check);
    assert!(
        found.iter().all(|c| *c == "gloam::text::target_side"),
        "{:?}",
        check
            .diagnostics
            .iter()
            .map(|d| &d.message)
            .collect::<Vec<_>>()
    );
    let file = r#"
card "Heroic Shove" {
    ruleset = "underworlds"
    kind = ploy
    owner = universal
    window = power_step
    text = "Push an enemy fighter adjacent to your fighter 1 hex, then your fighter gains a guard token."
    effect = {
        let hero = choose_fighter(friendly_fighters(), "Which fighter?");
        let victims = enemy_fighters().filter(|enemy| adjacent(hero, enemy));
        let victim = choose_fighter(victims, "Which enemy?");
        push(victim, 1);
        give_token(hero, "guard");
    }
}
"#;
    let sources = [Source::new("shove.gloam", file)];
    let (library, _) = gloam_grammar::load(&sources);
    let fixed = library.card("Heroic Shove").expect("the card");
    let sites = Sites::new(&sources);
    let check = check_card(fixed, None, &sites);
    assert_eq!(check.status, Status::Agrees, "{:?}", codes(&check));
    // Said of any fighter, or pushed 2 hexes, it does not agree.
    for wrong in [
        "Push an enemy fighter adjacent to your fighter 2 hexes, then your fighter gains a guard token.",
        "Push an enemy fighter adjacent to your fighter 1 hex, then an enemy fighter gains a guard token.",
    ] {
        let check = check_card(fixed, Some(("wrong", wrong)), &sites);
        assert_eq!(check.status, Status::Mismatch, "{wrong}");
    }
}

#[test]
fn render_ploy_effect_written_from_data() {
    let data = harrowdeep();
    assert_eq!(
        render(card(&data, "Advance as One")),
        "Push each friendly fighter 1 hex closer to the chosen enemy fighter."
    );
    assert_eq!(
        render(card(&data, "Unfaltering Stride")),
        "Reaction: after this fighter's activation, push this fighter 1 hex. Restricted: Calthia Xandire, Dhoraz Giant-fell, Luxa Stormrider."
    );
}

/// Harrowdeep, Elimination Order (002 L1036-1052): Surge and Hybrid, scored after an
/// Attack action, naming an assassin and a leader, with "no other enemy fighters".
#[test]
fn parse_printed_hybrid_surge_meaning_found() {
    let text = parse_text(
        "Surge, Hybrid: Score this immediately aft er:\n\nA friendly assassin\u{2019}s Attack action that takes the target out of action\n\nOr: A friendly fi ghter\u{2019}s Attack action that takes an enemy leader out of action, if no other enemy fi ghters are out of action.",
    );
    assert!(text.is_parsed(), "{:?}", text.unparsed);
    let items: Vec<&Item> = text.clauses.iter().map(|c| &c.item).collect();
    assert!(items.contains(&&Item::Keyword(Keyword::Surge)));
    assert!(items.contains(&&Item::Keyword(Keyword::Hybrid)));
    assert!(items.contains(&&Item::Score(ScoreTiming::Immediately)));
    assert!(items.contains(&&Item::Trigger(Trigger::After(
        gloam_grammar::text::Event::Attack
    ))));
    assert!(items.contains(&&Item::Condition(Condition::Mentions("assassin".into()))));
    assert!(items.contains(&&Item::Condition(Condition::Mentions("leader".into()))));
    assert!(items.contains(&&Item::Condition(Condition::Exactly(0))));
}

#[test]
fn parse_clause_span_points_into_original_text() {
    let original = "Score this in an end phase if your leader has two \nor more wound counters.";
    let text = parse_text(original);
    let clause = text
        .clauses
        .iter()
        .find(|c| c.item == Item::Condition(Condition::AtLeast(2)))
        .expect("two or more");
    assert_eq!(&original[clause.span.clone()], "two \nor more");
}

#[test]
fn parse_nonsense_reported_unparsed() {
    let text = parse_text("Push each friendly fighter 1 hex. Gloriously flourish the banner.");
    assert!(!text.is_parsed());
    assert_eq!(text.unparsed.len(), 1);
    assert_eq!(
        &text.original[text.unparsed[0].clone()],
        "Gloriously flourish the banner"
    );
}

/// A diagnostic points at the clause in an external text and, under it, at the card
/// file's script literal it disagrees with.
#[test]
fn diagnostic_wrong_number_rendered_with_both_places() {
    let data = fixture();
    let check = check_card(
        card(&data, "Grit"),
        Some((
            "printed.txt",
            "Score in an end phase if your leader has three or more wound counters.",
        )),
        &data.sites,
    );
    assert_eq!(check.status, Status::Mismatch);
    let diagnostic = &check.diagnostics[0];
    assert_eq!(diagnostic.code, Code::Number);
    let site = diagnostic.card.as_ref().expect("a place in the card file");
    assert_eq!(site.file, "tests/text/fixture.gloam");
    assert_eq!(site.what, "condition script");
    insta::assert_snapshot!("text_wrong_number", rendered(diagnostic));
}

fn rendered(diagnostic: &gloam::text::TextDiagnostic) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(100);
    let mut out = String::new();
    handler
        .render_report(&mut out, diagnostic)
        .expect("renders");
    out
}

#[test]
fn cli_texts_csv_json_follows_the_contract() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gloam"))
        .current_dir(root())
        .args([
            "text",
            "check",
            "--ruleset",
            "harrowdeep",
            "--texts",
            "tests/text/printed.csv",
            "--json",
        ])
        .output()
        .expect("gloam runs");
    assert_eq!(output.status.code(), Some(1), "not every text agrees");
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let array = value.as_array().expect("an array");
    let summary: Vec<(String, String)> = array
        .iter()
        .map(|o| {
            (
                o["name"].as_str().unwrap_or_default().to_owned(),
                o["status"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("Unfaltering Stride".to_owned(), "agrees".to_owned()),
            ("True Grit".to_owned(), "mismatch".to_owned()),
            ("Heroic End".to_owned(), "unknown card".to_owned()),
            ("Advance as One".to_owned(), "unparsed".to_owned()),
        ]
    );
    let diagnostic = &array[1]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "gloam::text::number");
    assert_eq!(diagnostic["clause"]["text"], "three or more");
    assert!(diagnostic["card"]["line"].as_u64().is_some_and(|l| l > 1));
    assert!(
        array[0]["diagnostics"]
            .as_array()
            .is_some_and(Vec::is_empty)
    );
}

#[test]
fn cli_own_texts_checked_and_rendered() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gloam"))
        .current_dir(root())
        .args(["text", "render", "--ruleset", "harrowdeep"])
        .output()
        .expect("gloam runs");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("Advance as One\n  Push each friendly fighter 1 hex"),
        "{text}"
    );
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gloam"))
        .current_dir(root())
        .args(["text", "check", "--ruleset", "harrowdeep", "--json"])
        .output()
        .expect("gloam runs");
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let agree = value
        .as_array()
        .map_or(0, |a| a.iter().filter(|o| o["status"] == "agrees").count());
    assert_eq!(agree, 34 - KNOWN_GAPS.len());
}

/// Other editions' phrasing: "at once when ... slays" (Embergard), SAVE and HEALTH
/// (Embergard's Defence and Wounds), "put it on Guard" (Shadespire, 000).
#[test]
fn parse_other_editions_phrasing_understood() {
    let text =
        parse_text("Surge: score this at once when a friendly fighter slays an enemy fighter.");
    let items: Vec<&Item> = text.clauses.iter().map(|c| &c.item).collect();
    assert!(items.contains(&&Item::Score(ScoreTiming::Immediately)));
    assert!(items.contains(&&Item::Trigger(Trigger::After(
        gloam_grammar::text::Event::OutOfAction
    ))));
    let text = parse_text("+1 SAVE and +1 HEALTH.");
    let stats: Vec<gloam_grammar::text::EffectKind> =
        text.effects().map(|(_, e)| e.kind.clone()).collect();
    assert_eq!(
        stats,
        [
            gloam_grammar::text::EffectKind::Modify(gloam_grammar::text::Stat::Defence),
            gloam_grammar::text::EffectKind::Modify(gloam_grammar::text::Stat::Wounds),
        ]
    );
    let text = parse_text("Remove all stagger tokens from each friendly fighter.");
    assert!(text.effects().any(|(_, e)| e.kind
        == gloam_grammar::text::EffectKind::RemoveToken("stagger".into())
        && e.target.side == gloam_grammar::text::Side::Friendly));
    let text = parse_text("Choose a friendly fighter and put it on Guard.");
    assert!(text.effects().any(|(_, e)| e.kind
        == gloam_grammar::text::EffectKind::GiveToken("guard".into())
        && e.target.side == gloam_grammar::text::Side::Friendly));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

    /// Any text parses without a panic, and every span it reports is a range of the text
    /// on character boundaries.
    #[test]
    fn parse_any_text_spans_within_text(text in "(\\PC|[\u{FB01}\u{FFFD}\u{2019} \n-]){0,80}") {
        let parsed = parse_text(&text);
        for clause in &parsed.clauses {
            proptest::prop_assert!(text.get(clause.span.clone()).is_some(), "{:?}", clause);
        }
        for range in &parsed.unparsed {
            proptest::prop_assert!(text.get(range.clone()).is_some(), "{:?}", range);
        }
    }

    /// Any text checked against a real card gives a verdict, never a panic.
    #[test]
    fn check_any_text_against_card_gives_verdict(
        words in proptest::collection::vec(
            "(push|fighter|friendly|enemy|each|1|2|hex|hexes|\\+1|Move|Dice|Score|in|an|end|phase|if|after|Range|or|more|Reaction|:|\\.|,|\u{FB01}|within|re-roll|one|die|look|at|the|top|card|of|remove|token|draw|discard|restricted|spend|glory|is|a|make|action|attack|upgrade|costs|no|damage|until|another|waypoint)",
            0..24,
        ),
    ) {
        let data = shared_harrowdeep();
        let text = words.join(" ");
        for name in ["Advance as One", "True Grit", "Arcane Bulwark", "Visage of Destruction"] {
            let check = check_card(card(data, name), Some(("prop", &text)), &data.sites);
            proptest::prop_assert!(matches!(
                check.status,
                Status::Agrees | Status::Mismatch | Status::Unparsed
            ));
        }
    }
}

/// Phrases cut off at the end of the text (as a scan cut short leaves them) parse without
/// a panic, with spans inside the text.
#[test]
fn parse_truncated_phrases_spans_within_text() {
    for text in [
        "Look at the top card of",
        "Look at the top card of your",
        "Push it 1",
        "Remove all",
        "Restricted:",
        "Attack action",
        "Score this in the third end",
        "+1",
        "Gambit Spell (",
    ] {
        let parsed = parse_text(text);
        for clause in &parsed.clauses {
            assert!(
                text.get(clause.span.clone()).is_some(),
                "{text}: {clause:?}"
            );
        }
    }
}

/// A card's own text: the clause and the card's effect script are labelled in the same
/// file.
#[test]
fn diagnostic_own_text_rendered_in_card_file() {
    let data = fixture();
    let check = check_card(card(&data, "Shove"), None, &data.sites);
    assert_eq!(check.status, Status::Mismatch);
    assert_eq!(check.diagnostics[0].code, Code::MissingEffect);
    insta::assert_snapshot!("text_own_text", rendered(&check.diagnostics[0]));
}

/// Embergard phrasing (seed 001; digest 4): a surge play's `Surge:` lead, `immediately
/// before an attack`, `delves`, `is dealt damage`, `moves`, `it gains one` (a token the
/// sentence named), `raise a slain fighter`, RANGE and BOUNTY, treasure and cover tokens.
#[test]
fn parse_embergard_phrasing_understood() {
    use gloam_grammar::text::{EffectKind, Event, Side, Stat};
    let triggers = |text: &str| -> Vec<Trigger> {
        parse_text(text)
            .clauses
            .iter()
            .filter_map(|c| match &c.item {
                Item::Trigger(t) => Some(*t),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        triggers("Surge: after an attack on a friendly fighter, push that fighter 1 hex."),
        [Trigger::After(Event::Attack)]
    );
    assert_eq!(
        triggers("Surge: after a friendly fighter delves, remove its stagger tokens."),
        [Trigger::After(Event::Delve)]
    );
    assert_eq!(
        triggers("Surge: after a friendly fighter is dealt damage, it has +1 Move."),
        [Trigger::After(Event::Damage)]
    );
    assert_eq!(
        triggers("Surge: after a friendly fighter moves, deal 1 damage to an enemy fighter."),
        [Trigger::After(Event::Move)]
    );
    let text = parse_text(
        "Surge: immediately before an attack on a friendly fighter without a guard token, it gains one.",
    );
    assert!(text.is_parsed());
    assert!(
        text.clauses
            .iter()
            .any(|c| c.item == Item::Trigger(Trigger::Before(Event::Attack)))
    );
    assert!(
        text.effects()
            .any(|(_, e)| e.kind == EffectKind::GiveToken("guard".into()))
    );
    let text = parse_text("An enemy fighter next to a friendly fighter gains a stagger token.");
    assert!(
        text.effects()
            .any(|(_, e)| e.kind == EffectKind::Stagger && e.target.side == Side::Enemy)
    );
    let text = parse_text("Raise a slain friendly fighter in an empty starting hex.");
    assert!(text.is_parsed());
    assert!(
        text.effects()
            .any(|(_, e)| e.kind == EffectKind::Raise && e.target.side == Side::Friendly)
    );
    let kinds: Vec<EffectKind> = parse_text("This fighter's weapons have +1 RANGE. +1 BOUNTY.")
        .effects()
        .map(|(_, e)| e.kind.clone())
        .collect();
    assert_eq!(
        kinds,
        [
            EffectKind::Modify(Stat::Range),
            EffectKind::Modify(Stat::Bounty)
        ]
    );
    let text = parse_text("Score in an end phase if friendly fighters hold two treasure tokens.");
    assert!(
        text.clauses
            .iter()
            .any(|c| c.item == Item::Condition(Condition::HexType("treasure".into())))
    );
}

/// Shadespire phrasing (seed 000 L327-355, L537-543; digest 2): symbols counted as
/// successes, a fighter that cannot be activated again, and "When this fighter makes an
/// Attack action" as the moment rather than an action the card makes.
#[test]
fn parse_shadespire_phrasing_understood() {
    use gloam_grammar::text::EffectKind;
    let text = parse_text(
        "When this fighter Charges, both attack symbols (hammer and swords) count as successes in its attack roll.",
    );
    assert!(text.is_parsed());
    assert!(
        text.effects()
            .any(|(_, e)| e.kind == EffectKind::CountAsSuccess)
    );
    let text = parse_text(
        "When this fighter makes an Attack action, it may roll two extra attack dice; if it does, it cannot be activated again this phase.",
    );
    assert!(text.is_parsed());
    let kinds: Vec<EffectKind> = text.effects().map(|(_, e)| e.kind.clone()).collect();
    assert!(kinds.contains(&EffectKind::NoMoreActivations), "{kinds:?}");
    assert!(!kinds.contains(&EffectKind::MakeAction), "{kinds:?}");
}

/// Planted mismatches in Embergard and Shadespire texts are caught with their codes: a
/// surge play without `Surge`, the wrong moment (after against before an attack), the wrong
/// feature token, the wrong characteristic, a raise the card does not do, a missing
/// "cannot be activated again" (Embergard universal cards; Shadespire seed 000 L537-543),
/// a Scything exception left out (Harrowdeep 002 L930-932).
#[test]
fn check_other_editions_planted_mismatches_caught() {
    let data = every_ruleset();
    let cases: &[(&str, &str, &str, &[&str])] = &[
        (
            "embergard",
            "Hidden Blade",
            "After a friendly fighter moves, deal 1 damage to an enemy fighter next to it.",
            &["gloam::text::keyword"],
        ),
        (
            "embergard",
            "Hidden Blade",
            "Surge: after a friendly fighter moves, deal 2 damage to an enemy fighter next to it.",
            &["gloam::text::number"],
        ),
        (
            "embergard",
            "Brace",
            "Surge: after an attack on a friendly fighter without a guard token, it gains one.",
            &["gloam::text::window"],
        ),
        (
            "embergard",
            "Take Cover",
            "Score in an end phase if a friendly fighter stands on a treasure token.",
            // The text's treasure token is not tested; the tested cover token is not said.
            &[
                "gloam::text::missing_condition",
                "gloam::text::dropped_condition",
            ],
        ),
        (
            "embergard",
            "Long Reach",
            "This fighter's weapons have +1 DAMAGE.",
            &["gloam::text::missing_effect", "gloam::text::dropped_effect"],
        ),
        (
            "embergard",
            "Second Wind",
            "Raise a slain friendly fighter.",
            &["gloam::text::missing_effect", "gloam::text::dropped_effect"],
        ),
        (
            "embergard",
            "War Cry",
            "A friendly fighter's weapons roll 1 more die until the end of the phase.",
            &["gloam::text::duration"],
        ),
        (
            "harrowdeep",
            "Titan of Krulety",
            "Illusion: costs no glory; breaks at the end of the action phase, or when its fighter is chosen by a gambit or dealt damage. Reaction: after this fighter's action, push it 1 hex.",
            &["gloam::text::dropped_condition"],
        ),
        (
            "shadespire",
            "Total Offence",
            "When this fighter makes an Attack action that is not part of a Charge, it may roll two extra attack dice.",
            &["gloam::text::dropped_effect"],
        ),
    ];
    let mut failures = Vec::new();
    for (ruleset, name, text, expected) in cases {
        let card = card_of(&data, ruleset, name);
        let check = check_card(card, Some(("planted", text)), &data.sites);
        if codes(&check) != *expected {
            failures.push(format!("{name}: `{text}`: {:?}", codes(&check)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What the reader takes from other editions' scripts: Embergard's feature counters as
/// treasure and cover tokens, a raise (without its raise token or the stagger hex's
/// token, rules of the game), Harrowdeep's Scything flag as an exception, Shadespire's
/// first-Attack-action dice (seed 001 L75-81, L351; 002 L930-932; 000 L361-365).
#[test]
fn behaviour_other_editions_scripts_read() {
    use gloam_grammar::text::{EffectKind, Stat};
    let data = every_ruleset();
    let found = gloam::text::behaviour(card_of(&data, "embergard", "Take Cover"));
    let hex_types: Vec<&str> = found.hex_types.iter().map(|h| h.name.as_str()).collect();
    assert_eq!(hex_types, ["cover"]);
    let found = gloam::text::behaviour(card_of(&data, "embergard", "Treasure Seekers"));
    assert!(found.hex_types.iter().any(|h| h.name == "treasure"));
    assert!(
        found.numbers.iter().all(|n| n.value == 2),
        "{:?}",
        found.numbers
    );
    let found = gloam::text::behaviour(card_of(&data, "embergard", "Return from the Brink"));
    let kinds: Vec<&EffectKind> = found.effects.iter().map(|e| &e.kind).collect();
    assert_eq!(kinds, [&EffectKind::Raise]);
    let found = gloam::text::behaviour(card_of(&data, "embergard", "Long Reach"));
    assert_eq!(found.effects[0].kind, EffectKind::Modify(Stat::Range));
    let found = gloam::text::behaviour(card_of(&data, "harrowdeep", "Titan of Krulety"));
    assert!(found.except.is_some());
    assert!(
        found.numbers.iter().all(|n| n.value != 0),
        "{:?}",
        found.numbers
    );
    let found = gloam::text::behaviour(card_of(&data, "shadespire", "Blood Offering"));
    assert!(found.first_attack.is_some());
    let found = gloam::text::behaviour(card_of(&data, "shadespire", "Sidestep"));
    assert!(found.first_attack.is_none());
}

/// Issue 17 item 8: the typed atoms the parser reads from conditions, durations and
/// moments, in each edition's wording.
#[test]
fn parse_condition_logic_atoms_read() {
    use gloam_grammar::text::{Duration, Role, Side, Territory};
    let conditions = |text: &str| -> Vec<Condition> {
        parse_text(text)
            .clauses
            .into_iter()
            .filter_map(|c| match c.item {
                Item::Condition(condition) => Some(condition),
                _ => None,
            })
            .collect()
    };
    let found = conditions(
        "Score in an end phase if two or more friendly fighters stand on feature tokens in enemy territory.",
    );
    assert!(
        found.contains(&Condition::Whose(Side::Friendly)),
        "{found:?}"
    );
    assert!(found.contains(&Condition::Territory(Territory::Enemy)));
    let found = conditions(
        "Score in an end phase if a friendly fighter holds an objective outside your territory.",
    );
    assert!(found.contains(&Condition::Territory(Territory::NotFriendly)));
    let found = conditions(
        "Score in an end phase if no more friendly fighters are out of action than the number of the current round.",
    );
    assert!(found.contains(&Condition::GameValue("round".into())));
    let found =
        conditions("Surge: score this at once when a friendly fighter slays an enemy fighter.");
    assert!(found.contains(&Condition::Role(Role::Attacker, Side::Friendly)));
    assert!(found.contains(&Condition::Role(Role::Target, Side::Enemy)));
    let found = conditions("Surge: after an attack on a friendly fighter fails, push it 1 hex.");
    assert!(found.contains(&Condition::Role(Role::Target, Side::Friendly)));
    assert!(found.contains(&Condition::Failed));
    let found = conditions(
        "Surge: after a friendly fighter is dealt damage and still stands, it has +1 Move.",
    );
    assert!(found.contains(&Condition::Stands));
    let found = conditions("Score in an end phase if no enemy fighter is slain.");
    assert!(found.contains(&Condition::Whose(Side::Enemy)));
    let durations = |text: &str| -> Vec<Duration> {
        parse_text(text)
            .clauses
            .into_iter()
            .filter_map(|c| match c.item {
                Item::Duration(d) => Some(d),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        durations("Until the end of your next activation, friendly fighters have +1 Move."),
        [Duration::Activation(Side::Friendly)]
    );
    assert_eq!(
        durations("In the next enemy activation, enemy fighters have -1 Move."),
        [Duration::Activation(Side::Enemy)]
    );
    assert_eq!(
        durations("In the next activation step, friendly fighters have +1 Move."),
        [Duration::NextActivation]
    );
}

/// Issue 17 item 8: the typed atoms read from the shipped scripts: whose fighters a
/// condition tests, the part each plays, territories (Harrowdeep's `territory_of`,
/// Embergard's own and other territory hex types), the round number as an operand, a fighter
/// that still stands, and a push to a hex around the fighter as 1 hex (seed 002 L664-678,
/// L802-817, L965-981; Embergard universal cards).
#[test]
fn behaviour_logic_atoms_read() {
    use gloam_grammar::text::{Role, Side, Territory};
    let data = shared_every_ruleset();
    let found = gloam::text::behaviour(card_of(data, "harrowdeep", "Fearless Seekers"));
    let territories: Vec<Territory> = found.territories.iter().map(|(t, _)| *t).collect();
    assert_eq!(territories, [Territory::Enemy]);
    let found = gloam::text::behaviour(card_of(data, "harrowdeep", "Bearing Sigmar's Light"));
    let territories: Vec<Territory> = found.territories.iter().map(|(t, _)| *t).collect();
    assert_eq!(territories, [Territory::NotFriendly]);
    let found = gloam::text::behaviour(card_of(data, "harrowdeep", "Born Survivors"));
    assert_eq!(found.game_values.len(), 1);
    assert!(
        found
            .condition_sides
            .iter()
            .all(|(s, _)| *s == Side::Friendly)
    );
    let found = gloam::text::behaviour(card_of(data, "embergard", "Hold the Line"));
    let territories: Vec<Territory> = found.territories.iter().map(|(t, _)| *t).collect();
    assert_eq!(territories, [Territory::Friendly]);
    let found = gloam::text::behaviour(card_of(data, "embergard", "Carve the Path"));
    let territories: Vec<Territory> = found.territories.iter().map(|(t, _)| *t).collect();
    assert_eq!(territories, [Territory::Enemy]);
    let found = gloam::text::behaviour(card_of(data, "embergard", "First Blood"));
    let roles: Vec<(Role, Side)> = found.roles.iter().map(|(r, s, _)| (*r, *s)).collect();
    assert_eq!(
        roles,
        [
            (Role::Attacker, Side::Friendly),
            (Role::Target, Side::Enemy)
        ]
    );
    let found = gloam::text::behaviour(card_of(data, "embergard", "Counterstrike"));
    assert!(found.stands.is_some());
    let found = gloam::text::behaviour(card_of(data, "embergard", "Quick Step"));
    assert_eq!(found.effects[0].amount, Some(1));
    let found = gloam::text::behaviour(card_of(data, "shadespire", "Tireless Assault"));
    assert!(found.successful.is_some() && found.attack_failed);
}

/// Issue 17 item 8: a changed side inside a condition is reported with the clause in the
/// text and, under it, the condition script call that tests the other side.
#[test]
fn diagnostic_condition_side_rendered_with_both_places() {
    let data = fixture();
    let check = check_card(
        card(&data, "Grit"),
        Some((
            "printed.txt",
            "Score in an end phase if an enemy leader has two or more wound counters.",
        )),
        &data.sites,
    );
    assert_eq!(check.status, Status::Mismatch);
    assert_eq!(codes(&check), ["gloam::text::condition_side"]);
    insta::assert_snapshot!("text_condition_side", rendered(&check.diagnostics[0]));
}
