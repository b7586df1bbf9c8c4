//! Variables by window (issue 11, item 1): a card's scripts receive the fighters its timing
//! window gives (`gives` on the ruleset's `window` item), and a game binds exactly those. A
//! flow that wakes a card without a fighter its window promises is stopped with an error
//! that names the card, the window and the file.

use gloam::core::{Ctx, Event, Game, PlayerId, Value, ZoneId};

mod scenario;
use scenario::{SEEKERS, Scenario, frame, with_fixture};

/// A reaction in Harrowdeep's `after_move`, which gives `target` (the fighter that moved).
const FIXTURE: &str = r#"
card "Test Trip" {
    ruleset = "harrowdeep"
    kind = ploy
    owner = universal
    keywords = [reaction]
    window = after_move
    text = "Test fixture. Reaction: after a Move action, the fighter that moved gains a guard token."
    effect = { give_token(target, "guard"); }
}
"#;

fn start(target: Option<Value>) -> Result<Game<Scenario>, String> {
    let rules = with_fixture("harrowdeep", "window-variables", FIXTURE);
    let setup = rules.setup(7);
    let probe = Game::start(rules.clone(), setup.clone(), vec![]).expect("start");
    let card = gloam::core::CardId(
        probe
            .state()
            .cards
            .keys()
            .map(|c| c.0)
            .max()
            .map_or(0, |m| m + 1),
    );
    let arrange = |ctx: &mut Ctx<'_>| {
        ctx.create_card("Test Trip", SEEKERS, &ZoneId::new(SEEKERS, "power_discard"))
            .expect("card");
    };
    let mut vars = vec![
        ("player", Value::Player(SEEKERS)),
        ("card", Value::Card(card)),
    ];
    if let Some(target) = target {
        vars.push(("target", target));
    }
    let scenario = Scenario {
        rules,
        arrange: Box::new(arrange),
    };
    Game::start(scenario, setup, vec![frame("card", &vars)]).map_err(|e| e.to_string())
}

#[test]
fn issue_0011_a_card_woken_without_the_target_its_window_gives_is_a_located_error() {
    let error = start(None).err().expect("the game refuses the card frame");
    assert!(error.contains("card `Test Trip`"), "{error}");
    assert!(
        error.contains("window `after_move`, which gives `target`"),
        "{error}"
    );
    assert!(error.contains("window-variables"), "{error}");
}

#[test]
fn a_card_woken_with_the_target_its_window_gives_plays() {
    let probe = with_fixture("harrowdeep", "window-variables-probe", FIXTURE);
    let game = Game::start(probe.clone(), probe.setup(7), vec![]).expect("start");
    let fighter = *game
        .state()
        .pieces
        .iter()
        .find(|(_, p)| p.owner == PlayerId(0))
        .expect("a fighter")
        .0;
    let game = start(Some(Value::Piece(fighter))).expect("the card plays");
    assert!(
        game.events().iter().any(|e| matches!(
            e,
            Event::TokensChanged { token, to: 1, .. } if token == "guard"
        )),
        "{:?}",
        game.events()
    );
}
