//! Agents: players that answer the kernel's requests, choosing only among the legal
//! options each request offers.

use gloam_core::{Answer, Choice, GameRng, Options, PlayerView, Request};

/// Something that answers requests for one seat.
pub trait Agent {
    /// Picks an answer to `request`, seeing only `view`.
    fn choose(&mut self, view: &PlayerView, request: &Request) -> Answer;
}

/// Picks uniformly among the legal answers, with its own seeded RNG.
///
/// # Examples
///
/// ```
/// use gloam::agent::{Agent, RandomAgent};
/// use gloam::core::{Choice, GameState, Options, PlayerId, PlayerView, Request};
/// let view = PlayerView::new(&GameState::new(1, &["a", "b"]), PlayerId(0));
/// let request = Request {
///     player: PlayerId(0),
///     kind: "pick".into(),
///     prompt: "Pick".into(),
///     options: Options::One { choices: vec![Choice::Number(1), Choice::Number(2)] },
///     secret: false,
/// };
/// let answer = RandomAgent::new(3).choose(&view, &request);
/// assert!(request.check(&answer).is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: GameRng,
}

impl RandomAgent {
    /// A random agent seeded with `seed`.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: GameRng::from_seed(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn choose(&mut self, _view: &PlayerView, request: &Request) -> Answer {
        random_answer(&mut self.rng, request)
    }
}

/// A uniformly random legal answer to `request`.
pub fn random_answer(rng: &mut GameRng, request: &Request) -> Answer {
    match &request.options {
        Options::One { choices } => {
            let index = rng.below(choices.len() as u32) as usize;
            Answer::One(choices.get(index).cloned().unwrap_or(Choice::Pass))
        }
        Options::Several { choices, min, max } => {
            let max = (*max as usize).min(choices.len());
            let min = (*min as usize).min(max);
            let count = min + rng.below((max - min + 1) as u32) as usize;
            let mut picked = choices.clone();
            rng.shuffle(&mut picked);
            picked.truncate(count);
            picked.sort();
            Answer::Several(picked)
        }
        Options::Order { items } => {
            let mut ordered = items.clone();
            rng.shuffle(&mut ordered);
            Answer::Order(ordered)
        }
    }
}
