//! Decisions: what the kernel asks a player, and what a player may answer.
//!
//! A request carries the complete set of legal answers, so a host (a terminal, a bot,
//! a web client) never has to know a rule to offer only legal choices, and the kernel
//! can reject anything else without changing the game.

use serde::{Deserialize, Serialize};

use crate::{CardId, Hex, PieceId, PlayerId};

/// One thing a player can pick.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Choice {
    /// A piece.
    Piece(PieceId),
    /// A hex.
    Hex(Hex),
    /// A point on a measured table.
    Point(crate::Point),
    /// A card.
    Card(CardId),
    /// A die of a roll, by index.
    Die(u32),
    /// A named option (`attack`, `guard`, `yes`).
    Option(String),
    /// A number.
    Number(i64),
    /// Decline (pass, make no reaction).
    Pass,
    /// Any point on a measured table, offered in [`Options::One`] beside candidate
    /// [`Choice::Point`]s (see [`Request::table_point`]): the host may answer with any
    /// in-bounds `Choice::Point`, listed or not; the rules then check it and refuse an
    /// illegal one with [`crate::RuleError::AnswerRefused`], leaving the game unchanged. It is
    /// never an answer itself, and means nothing in the other shapes.
    AnyPoint,
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::Piece(id) => write!(f, "{id}"),
            Choice::Hex(hex) => write!(f, "hex {hex}"),
            Choice::Point(point) => write!(f, "point ({}, {})", point.x, point.y),
            Choice::Card(id) => write!(f, "{id}"),
            Choice::Die(index) => write!(f, "die {index}"),
            Choice::Option(name) => write!(f, "{name}"),
            Choice::Number(n) => write!(f, "{n}"),
            Choice::Pass => write!(f, "pass"),
            Choice::AnyPoint => write!(f, "any point on the table"),
        }
    }
}

/// The shape of the answers a request accepts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum Options {
    /// Exactly one of these.
    One {
        /// The legal choices.
        choices: Vec<Choice>,
    },
    /// A set of distinct items, between `min` and `max` of them ("one or more fighters").
    Several {
        /// The items to pick from.
        choices: Vec<Choice>,
        /// The fewest allowed.
        min: u32,
        /// The most allowed.
        max: u32,
    },
    /// An ordering of all the items (the order to resolve simultaneous effects).
    Order {
        /// The items to order.
        items: Vec<Choice>,
    },
}

/// An answer to a request.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// The answer to [`Options::One`].
    One(Choice),
    /// The answer to [`Options::Several`]: the picked items.
    Several(Vec<Choice>),
    /// The answer to [`Options::Order`]: the items in the chosen order.
    Order(Vec<Choice>),
}

impl Answer {
    /// The single choice, for an answer to [`Options::One`].
    pub fn choice(&self) -> Option<&Choice> {
        match self {
            Answer::One(choice) => Some(choice),
            _ => None,
        }
    }

    /// The picked or ordered items, for the other shapes; the single choice as a list.
    pub fn items(&self) -> Vec<&Choice> {
        match self {
            Answer::One(choice) => vec![choice],
            Answer::Several(items) | Answer::Order(items) => items.iter().collect(),
        }
    }
}

/// A question for one player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// Who must answer.
    pub player: PlayerId,
    /// What is asked, in the ruleset's words (`choose_action`, `pick_attack_target`).
    pub kind: String,
    /// A sentence for a person.
    pub prompt: String,
    /// The legal answers.
    pub options: Options,
    /// Whether the answer stays hidden from the other players until the rules reveal it.
    #[serde(default)]
    pub secret: bool,
}

/// Why an answer was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecisionError {
    /// Nothing is being asked.
    #[error("no decision is pending; the game is over or has not started")]
    NothingPending,
    /// The player is not one who must answer now.
    #[error("{player} has no pending decision; waiting on {waiting_on}")]
    NotYourDecision {
        /// Who answered.
        player: PlayerId,
        /// Who must answer.
        waiting_on: String,
    },
    /// The player already answered this simultaneous decision.
    #[error("{player} already answered this decision")]
    AlreadyAnswered {
        /// Who answered twice.
        player: PlayerId,
    },
    /// The answer has the wrong shape.
    #[error("the answer has the wrong shape: this decision wants {expected}")]
    WrongShape {
        /// What shape the request wants.
        expected: &'static str,
    },
    /// A choice is not among the legal options.
    #[error("{choice} is not a legal choice for `{kind}`; legal: {legal}")]
    Illegal {
        /// What was asked.
        kind: String,
        /// The refused choice.
        choice: String,
        /// The legal choices, listed.
        legal: String,
    },
    /// Too few or too many items, or a repeated item.
    #[error("`{kind}` takes {min} to {max} distinct items; got {got}")]
    WrongCount {
        /// What was asked.
        kind: String,
        /// Fewest allowed.
        min: u32,
        /// Most allowed.
        max: u32,
        /// How many distinct items came.
        got: usize,
    },
}

impl Request {
    /// Checks `answer` against the legal options, changing nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Answer, Choice, Options, PlayerId, Request};
    /// let request = Request {
    ///     player: PlayerId(0),
    ///     kind: "choose_action".into(),
    ///     prompt: "Choose an action".into(),
    ///     options: Options::One { choices: vec![Choice::Option("move".into()), Choice::Pass] },
    ///     secret: false,
    /// };
    /// assert!(request.check(&Answer::One(Choice::Pass)).is_ok());
    /// assert!(request.check(&Answer::One(Choice::Option("fly".into()))).is_err());
    /// ```
    pub fn check(&self, answer: &Answer) -> Result<(), DecisionError> {
        let legal_list = |choices: &[Choice]| {
            let mut text = choices
                .iter()
                .take(12)
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            if choices.len() > 12 {
                text.push_str(&format!(", ... ({} in all)", choices.len()));
            }
            text
        };
        let illegal = |choice: &Choice, choices: &[Choice]| DecisionError::Illegal {
            kind: self.kind.clone(),
            choice: choice.to_string(),
            legal: legal_list(choices),
        };
        match (&self.options, answer) {
            (Options::One { choices }, Answer::One(choice)) => {
                let free_point = matches!(choice, Choice::Point(point)
                    if crate::Point::checked(point.x, point.y).is_ok()
                        && choices.contains(&Choice::AnyPoint));
                if free_point || (choices.contains(choice) && *choice != Choice::AnyPoint) {
                    Ok(())
                } else {
                    Err(illegal(choice, choices))
                }
            }
            (Options::Several { choices, min, max }, Answer::Several(picked)) => {
                if let Some(bad) = picked
                    .iter()
                    .find(|c| !choices.contains(c) || **c == Choice::AnyPoint)
                {
                    return Err(illegal(bad, choices));
                }
                let distinct: std::collections::BTreeSet<&Choice> = picked.iter().collect();
                let got = picked.len();
                if distinct.len() != got || got < *min as usize || got > *max as usize {
                    return Err(DecisionError::WrongCount {
                        kind: self.kind.clone(),
                        min: *min,
                        max: *max,
                        got: distinct.len(),
                    });
                }
                Ok(())
            }
            (Options::Order { items }, Answer::Order(ordered)) => {
                if let Some(bad) = ordered.iter().find(|c| !items.contains(c)) {
                    return Err(illegal(bad, items));
                }
                let mut expected = items.clone();
                let mut got = ordered.clone();
                expected.sort();
                got.sort();
                if expected != got {
                    return Err(DecisionError::WrongCount {
                        kind: self.kind.clone(),
                        min: items.len() as u32,
                        max: items.len() as u32,
                        got: ordered.len(),
                    });
                }
                Ok(())
            }
            (Options::One { .. }, _) => Err(DecisionError::WrongShape {
                expected: "one choice",
            }),
            (Options::Several { .. }, _) => Err(DecisionError::WrongShape {
                expected: "a set of choices",
            }),
            (Options::Order { .. }, _) => Err(DecisionError::WrongShape {
                expected: "an ordering of all items",
            }),
        }
    }

    /// A request for a point on a measured table: the `candidates` (legal points the rules
    /// generated, in their order) as [`Choice::Point`]s, then [`Choice::AnyPoint`], so a host
    /// may also answer any other point, which the rules accept only when their check passes.
    /// A request with no candidate is refused when asked ([`crate::RuleError::EmptyRequest`]):
    /// agents need at least one listed answer.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Answer, Choice, PlayerId, Point, Request};
    /// let request = Request::table_point(PlayerId(0), "move_unit", "Where to?", [Point::new(10, 0)]);
    /// assert!(request.accepts_any_point());
    /// assert!(request.check(&Answer::One(Choice::Point(Point::new(10, 0)))).is_ok());
    /// assert!(request.check(&Answer::One(Choice::Point(Point::new(3, 4)))).is_ok()); // the rules decide
    /// assert!(request.check(&Answer::One(Choice::AnyPoint)).is_err());
    /// assert!(request.check(&Answer::One(Choice::Point(Point::new(2_000_000_000, 0)))).is_err());
    /// assert_eq!(request.enumerate(10).unwrap().len(), 1);
    /// ```
    pub fn table_point(
        player: PlayerId,
        kind: impl Into<String>,
        prompt: impl Into<String>,
        candidates: impl IntoIterator<Item = crate::Point>,
    ) -> Request {
        let mut choices: Vec<Choice> = candidates.into_iter().map(Choice::Point).collect();
        choices.push(Choice::AnyPoint);
        Request {
            player,
            kind: kind.into(),
            prompt: prompt.into(),
            options: Options::One { choices },
            secret: false,
        }
    }

    /// Whether a host may answer any table point (the choices include [`Choice::AnyPoint`]).
    pub fn accepts_any_point(&self) -> bool {
        matches!(&self.options, Options::One { choices } if choices.contains(&Choice::AnyPoint))
    }

    /// Every legal answer, when there are few enough to list (`One`, and `Several`/`Order`
    /// with at most `limit` answers); `None` when there are more.
    pub fn enumerate(&self, limit: usize) -> Option<Vec<Answer>> {
        match &self.options {
            Options::One { choices } => Some(
                choices
                    .iter()
                    .filter(|choice| **choice != Choice::AnyPoint)
                    .cloned()
                    .map(Answer::One)
                    .collect(),
            ),
            Options::Several { choices, min, max } => {
                let n = choices.len();
                if n > 20 {
                    return None;
                }
                let mut out = Vec::new();
                for mask in 0u32..(1 << n) {
                    let count = mask.count_ones();
                    if count >= *min && count <= *max {
                        out.push(Answer::Several(
                            (0..n)
                                .filter(|i| mask & (1 << i) != 0)
                                .map(|i| choices[i].clone())
                                .collect(),
                        ));
                        if out.len() > limit {
                            return None;
                        }
                    }
                }
                Some(out)
            }
            Options::Order { items } => {
                let mut out = Vec::new();
                let mut current = items.clone();
                permutations(&mut current, 0, &mut out, limit).then_some(out)
            }
        }
    }
}

fn permutations(items: &mut Vec<Choice>, k: usize, out: &mut Vec<Answer>, limit: usize) -> bool {
    if k == items.len() {
        out.push(Answer::Order(items.clone()));
        return out.len() <= limit;
    }
    for i in k..items.len() {
        items.swap(k, i);
        if !permutations(items, k + 1, out, limit) {
            return false;
        }
        items.swap(k, i);
    }
    true
}
