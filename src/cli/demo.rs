//! `gloam demo`: the kernel demonstration game, an aggressive agent against a random one.

use clap::Args;
use gloam::agent::{Agent, RandomAgent};
use gloam::demo::{AggressiveAgent, Demo};
use gloam::narrate::{draw_hexes, narrate};
use gloam_core::{Game, Setup};

use super::CliError;

/// Arguments of `gloam demo`.
#[derive(Debug, Args)]
pub(crate) struct DemoArgs {
    /// The game's seed: the same seed plays the same game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the record (setup and answers) and the event log as one JSON object.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: &DemoArgs) -> Result<(), CliError> {
    let demo = Demo::builtin().map_err(|e| CliError::input(e.to_string()))?;
    let setup = Setup::new(args.seed, &["Ann", "Bo"]);
    let mut game = Game::start(demo.clone(), setup, Demo::first_frames())
        .map_err(|e| CliError::input(e.to_string()))?;
    let mut agents: [Box<dyn Agent>; 2] = [
        Box::new(AggressiveAgent::new(args.seed.wrapping_mul(2))),
        Box::new(RandomAgent::new(args.seed.wrapping_mul(2) + 1)),
    ];
    let start_board = draw_hexes(demo.hexes(), demo.blocked(), game.state());
    while !game.is_over() {
        let Some(request) = game.pending().first().map(|r| (*r).clone()) else {
            return Err(CliError::input(
                "the game stopped without a decision or a result",
            ));
        };
        let seat = request.player.0 as usize;
        let view = game.view(request.player);
        let answer = agents[seat % 2].choose(&view, &request);
        game.submit(request.player, answer)
            .map_err(|e| CliError::input(format!("the agent's answer was refused: {e}")))?;
    }
    if args.json {
        let document = serde_json::json!({
            "record": game.record(),
            "events": game.events(),
        });
        return super::emit(&format!("{document}\n"));
    }
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "gloam kernel demo, seed {}: Ann (A, aggressive agent) against Bo (B, random agent)\n",
        args.seed
    );
    let _ = writeln!(out, "{start_board}");
    for event in game.events() {
        if let Some(line) = narrate(event, game.state()) {
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = writeln!(out);
    out.push_str(&draw_hexes(demo.hexes(), demo.blocked(), game.state()));
    let _ = writeln!(
        out,
        "\n{} events, {} decisions. Replay check: gloam demo --seed {} --json gives the same log every time.",
        game.events().len(),
        game.record().answers.len(),
        args.seed
    );
    super::emit(&out)
}
