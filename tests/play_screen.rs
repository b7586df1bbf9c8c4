//! `gloam play`'s screen and commands, driven through stdin (issue 16, item 4): the legend
//! of the ruleset's hex types, the hand (the player's own, never the other player's),
//! `show card`, `show fighter`, `help`, did-you-mean, and hex answers by coordinates; a game
//! on a measured table drawn top-down, its table-point questions in players' words, typed
//! points and refused ones (issue 13, item 4).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use gloam_grammar::Owner;

fn cards_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")
}

/// Runs `gloam play RULESET` with `input` on stdin; returns stdout.
fn play(ruleset: &str, extra: &[&str], input: &str) -> String {
    play_data(cards_dir(), ruleset, extra, input)
}

/// [`play`] with the data in `data`.
fn play_data(data: PathBuf, ruleset: &str, extra: &[&str], input: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("play-screen-{ruleset}"));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gloam"))
        .current_dir(&dir)
        .args(["play", ruleset, "--data"])
        .arg(data)
        .args(["--opponent", "random", "--save", "save.json"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gloam runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    let output = child.wait_with_output().expect("gloam ends");
    String::from_utf8(output.stdout).expect("utf-8")
}

#[test]
fn the_legend_lists_each_hex_type_of_each_editions_battlefield() {
    // Enough first answers to pass set-up and see the board with fighters and tokens.
    let input = "1\n".repeat(40);
    for (ruleset, entries) in [
        (
            "harrowdeep",
            &[
                "s  starting",
                "#  blocked",
                "e  edge",
                "l  lethal",
                "c  cover",
                "f  feature",
                "g  gloom",
                "n  numbered",
            ][..],
        ),
        (
            "shadespire",
            &["s  starting", "e  edge", "o  objective"][..],
        ),
        (
            "embergard",
            &[
                "s  starting",
                "#  blocked",
                "t  territory a",
                "r  territory b",
                "f  feature token",
                "u  treasure side",
            ][..],
        ),
    ] {
        let out = play(ruleset, &[], &input);
        let legends: Vec<&str> = out.lines().filter(|l| l.starts_with("legend:")).collect();
        let last = legends
            .last()
            .unwrap_or_else(|| panic!("{ruleset}: no legend"));
        for entry in entries {
            assert!(last.contains(entry), "{ruleset}: `{entry}` not in `{last}`");
        }
        assert!(
            out.contains("        Ann: A1 "),
            "{ruleset}: no fighter labels"
        );
        assert!(
            out.lines()
                .any(|l| l.starts_with("r0 ") && l.contains(" | ")),
            "{ruleset}: no row labels"
        );
    }
}

#[test]
fn the_hand_shows_only_the_players_own_cards_with_their_texts() {
    let rules = gloam::sim::prepare(&[cards_dir()], "harrowdeep").expect("loads");
    let mine = rules.spec().seats[0].warband.clone();
    let alliance = rules
        .library()
        .warband(&mine)
        .expect("Ann's warband")
        .alliance
        .clone();
    let out = play("harrowdeep", &[], &"1\n".repeat(60));
    let mut in_hand = false;
    let mut shown = 0;
    let lines: Vec<&str> = out.lines().collect();
    for (index, line) in lines.iter().enumerate() {
        if line.starts_with("your ") && line.contains(" hand (") {
            in_hand = true;
            continue;
        }
        if !line.starts_with("  - ") && !line.starts_with("      ") {
            in_hand = false;
        }
        if !in_hand {
            continue;
        }
        if let Some(rest) = line.strip_prefix("  - ") {
            let name = rest.split(" [").next().expect("a name");
            let card = rules
                .library()
                .card(name)
                .unwrap_or_else(|| panic!("`{name}` is no card"));
            assert!(
                matches!(&card.owner, Owner::Universal)
                    || matches!(&card.owner, Owner::Warband(w) if *w == mine)
                    || matches!(&card.owner, Owner::Alliance(a) if *a == alliance),
                "`{name}` ({:?}) is not a card Ann's deck holds",
                card.owner
            );
            if let Some(text) = &card.text {
                assert_eq!(lines[index + 1], format!("      {text}"));
            }
            shown += 1;
        }
    }
    assert!(shown > 0, "no hand card was shown");
    // The other player's hand is never listed.
    assert!(!out.contains("Bo's objective hand") && !out.contains("Bo's power hand"));
}

#[test]
fn show_card_show_fighter_help_and_did_you_mean() {
    let out = play(
        "harrowdeep",
        &[],
        "help\nshow card Swampspill\nshow card Swampspil\nshow crad Swampspill\n\
         show fighter A2\nshow fighter luxa\nshow fighter Zzzz\nshwo card x\n\
         show card Tough Hide\nquit\n",
    );
    assert!(out.contains("show fighter NAME"), "{out}");
    assert!(
        out.contains("Swampspill (ploy)\n  for: Da Kunnin' Krew\n"),
        "{out}"
    );
    assert!(out.contains("  text: Choose a friendly fighter."), "{out}");
    assert!(
        out.contains("no card is named `Swampspil`; did you mean `Swampspill`?"),
        "{out}"
    );
    assert!(out.contains("did you mean `show card`?"), "{out}");
    assert!(
        out.contains("Torka Tuffskul (A2, Ann's, Da Kunnin' Krew)\n  wounds taken: 0 of 5"),
        "{out}"
    );
    assert!(
        out.contains("  weapon Mansnappa: range 2, 2 attack dice (smash), damage 2"),
        "{out}"
    );
    assert!(out.contains("Luxa Stormrider (B3, Bo's, "), "{out}");
    assert!(out.contains("no fighter is named `Zzzz`"), "{out}");
    assert!(
        out.contains("`shwo card x` is not a command; did you mean `show`?"),
        "{out}"
    );
    // An Embergard card is not one of this Harrowdeep game's.
    assert!(
        out.contains("no card is named `Tough Hide` in harrowdeep"),
        "{out}"
    );
}

#[test]
fn a_hex_question_takes_the_hexs_coordinates() {
    // Seed 1: Ann wins the roll-off, chooses the first board, then places a feature token;
    // (-1, 7) is one of the hexes offered, (99, 99) is not.
    let out = play("harrowdeep", &[], "1\n99,99\n(-1, 7)\nquit\n");
    assert!(
        out.contains("hex (99, 99) is not one of the options"),
        "{out}"
    );
    assert!(out.contains("Ann chooses hex (-1, 7)"), "{out}");
    assert!(out.contains("hex (-1, 7) is now feature"), "{out}");
}

#[test]
fn a_table_game_shows_the_table_and_takes_typed_points() {
    // Seed 1 of the skirmish (tests/data/skirmish): Ann sets up her captain at the first
    // candidate and her spears at a point she types, picks her captain to move, types a move
    // too long (refused, nothing changed), then a short one of her own.
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/skirmish");
    let out = play_data(data, "skirmish", &[], "1\n12 6.5\n1\n30 2\n-1 0\n");
    for expected in [
        "20 +----------------------------------------+\n",
        "scale |-----------| 6 in   (a column is 0.5 in across, a row 1 in tall; north is up)",
        "territories:   .  South   ,  North",
        "objective:  1  Centre at (10.0 in, 10.0 in)",
        "  A  Ann  Red Band   Red Captain  not on the table (1 model)   damage 0",
        "  b  Bo   Blue Band  Blue Blades  2 of 2 models on the table  damage 0",
        "  1. set up at (2.0 in, 2.0 in)",
        "a point of your own: type `X Y` in inches from the bottom-left corner",
        "Ann chooses point (12.0 in, 6.5 in)",
        "Ann's Red Spears are set up (3 models, the first at (12.0 in, 6.5 in))",
        "  1. your Red Captain (A) at (2.0 in, 2.0 in)",
        "  1. move 5.0 in north, ending ",
        "a move of your own: type how far east and north, `X Y` in inches",
        "refused: A (Ann's Red Captain) cannot go there: the path is ",
        "nothing changed; answer again",
        "Ann chooses to move 1.0 in west",
        "Ann's Red Captain moves 1.0 in west to (1.0 in, 2.0 in)",
        "game over: nobody wins",
    ] {
        assert!(out.contains(expected), "`{expected}` not in:\n{out}");
    }
    // At the end the captain stands at (1 in, 2 in): its 40 mm base covers the cells of
    // x = 0.5 to 1.5 in on the rows of y = 1 and 2 in (its centre's).
    let rows: Vec<&str> = out
        .lines()
        .rev()
        .filter(|line| line.starts_with("   |") && line.contains('A'))
        .take(2)
        .collect();
    assert_eq!(rows, ["   |.AA . . . . . . . . . . . . . . . . . . |"; 2]);
}
