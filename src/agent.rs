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

    /// Its answer to `request`: it needs no view of the game, so a simulator need not make
    /// one ([`Agent::choose`] gives the same answer).
    pub(crate) fn answer(&mut self, request: &Request) -> Answer {
        random_answer(&mut self.rng, request)
    }
}

impl Agent for RandomAgent {
    fn choose(&mut self, _view: &PlayerView, request: &Request) -> Answer {
        self.answer(request)
    }
}

/// A uniformly random legal answer to `request`.
pub fn random_answer(rng: &mut GameRng, request: &Request) -> Answer {
    match &request.options {
        Options::One { choices } => {
            // The `AnyPoint` marker is not an answer: pick among the listed choices (the same
            // draws as before when there is no marker).
            let listed = || choices.iter().filter(|choice| **choice != Choice::AnyPoint);
            let index = rng.below(listed().count() as u32) as usize;
            Answer::One(listed().nth(index).cloned().unwrap_or(Choice::Pass))
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

/// Looks ahead a little: tries each legal answer (up to [`GreedyAgent::MAX_CANDIDATES`]) on
/// a copy of the game, plays on with random answers while the same player keeps deciding
/// (so that "attack" is judged by the attack it leads to), and keeps the answer that leaves
/// it best placed: glory ahead of the best other player first, then damage dealt to enemy
/// fighters minus damage taken. Ties are broken by its own seeded RNG. It reads the counters
/// named `glory` (players) and `damage` (pieces), the names the Underworlds rulesets use.
///
/// It is a benchmark opponent, not a fair player: the copy it looks ahead on is the whole
/// game, so its trials see the other hands and roll the dice the game itself will roll.
/// A fair agent would work from its [`PlayerView`] and a re-seeded copy; that needs a way
/// to build a game from a view, which the kernel does not offer yet.
#[derive(Clone, Debug)]
pub struct GreedyAgent {
    rng: GameRng,
}

impl GreedyAgent {
    /// The most answers tried for one request; above that, a random sample of this many.
    pub const MAX_CANDIDATES: usize = 24;
    /// The most decisions played on after a tried answer.
    pub const LOOKAHEAD: usize = 12;

    /// A greedy agent seeded with `seed`.
    pub fn new(seed: u64) -> GreedyAgent {
        GreedyAgent {
            rng: GameRng::from_seed(seed),
        }
    }

    /// How well placed `player` is in `state`.
    pub fn score(state: &gloam_core::GameState, player: gloam_core::PlayerId) -> i64 {
        let glory = |p: &gloam_core::Player| p.counters.get("glory").copied().unwrap_or(0);
        let own = state.player(player).map_or(0, glory);
        let best_other = state
            .players
            .iter()
            .filter(|p| p.id != player)
            .map(glory)
            .max()
            .unwrap_or(0);
        let damage: i64 = state
            .pieces
            .values()
            .map(|piece| {
                let taken = piece.counters.get("damage").copied().unwrap_or(0);
                if piece.owner == player { -taken } else { taken }
            })
            .sum();
        100 * (own - best_other) + damage
    }

    /// Picks an answer to `request` in `game`. A secret request (a simultaneous choice, such
    /// as a hidden guess) is answered at random: trying answers on a copy of the game would
    /// read the other players' committed answers, which the player may not see.
    pub fn choose_in<R: gloam_core::Rules + Clone>(
        &mut self,
        game: &gloam_core::Game<R>,
        request: &Request,
    ) -> Answer {
        if request.secret {
            return random_answer(&mut self.rng, request);
        }
        let candidates = request.enumerate(Self::MAX_CANDIDATES).unwrap_or_else(|| {
            (0..Self::MAX_CANDIDATES)
                .map(|_| random_answer(&mut self.rng, request))
                .collect()
        });
        if candidates.len() <= 1 {
            return candidates
                .into_iter()
                .next()
                .unwrap_or_else(|| random_answer(&mut self.rng, request));
        }
        let player = request.player;
        let mut best: Vec<(i64, Answer)> = Vec::new();
        for candidate in candidates {
            let mut trial = game.clone();
            if trial.submit(player, candidate.clone()).is_err() {
                continue;
            }
            let mut rollout = self.rng.clone();
            for _ in 0..Self::LOOKAHEAD {
                let Some(next) = trial.pending_for(player).cloned() else {
                    break;
                };
                if trial.pending().len() != 1 {
                    break;
                }
                let answer = random_answer(&mut rollout, &next);
                if trial.submit(player, answer).is_err() {
                    break;
                }
            }
            let score = Self::score(trial.state(), player);
            match best.first() {
                Some((top, _)) if score < *top => {}
                Some((top, _)) if score == *top => best.push((score, candidate)),
                _ => best = vec![(score, candidate)],
            }
        }
        if best.is_empty() {
            return random_answer(&mut self.rng, request);
        }
        let index = self.rng.below(best.len() as u32) as usize;
        best.swap_remove(index).1
    }
}
