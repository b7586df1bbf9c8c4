//! Helpers shared by the picture tests (`tests/render.rs`, `tests/render_browser.rs`): a
//! fresh folder per test and a whole saved game played by random agents.
#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};

use gloam::agent::{Agent as _, RandomAgent};
use gloam::core::Game;
use gloam::engine::RulesetGame;
use gloam::save::SavedGame;

/// The shipped data folder.
pub fn cards_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards")
}

/// A fresh, empty folder for one test.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gloam-render-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp folder");
    dir
}

/// Plays a whole game of `ruleset` (the shipped data, its default match) with random agents
/// seeded with `seed`, and saves it to `path`.
pub fn save_game(ruleset: &str, seed: u64, path: &Path) -> SavedGame {
    let rules = gloam::sim::prepare(&[cards_dir()], ruleset).expect("the shipped data loads");
    let mut game = Game::start(
        rules.clone(),
        rules.setup(seed),
        RulesetGame::first_frames(),
    )
    .expect("the game starts");
    let mut agent = RandomAgent::new(seed);
    while !game.is_over() {
        let request = game.pending()[0].clone();
        let answer = agent.choose(&game.view(request.player), &request);
        game.submit(request.player, answer).expect("a legal answer");
    }
    let saved = SavedGame::of(&game, vec![cards_dir()]);
    saved.write(path).expect("the save is written");
    saved
}

/// The `gloam` command.
pub fn gloam() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_gloam"))
}

/// The JSON data a replay page carries (the `gloam-data` script element).
pub fn page_data(page: &str) -> serde_json::Value {
    let start_tag = "<script type=\"application/json\" id=\"gloam-data\">";
    let start = page.find(start_tag).expect("the page carries its data") + start_tag.len();
    let end = start + page[start..].find("</script>").expect("the data ends");
    serde_json::from_str(&page[start..end]).expect("the page's data is JSON")
}
