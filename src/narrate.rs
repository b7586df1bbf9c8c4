//! Plain-English lines for kernel events, and a text drawing of a hex battlefield.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use gloam_core::{Event, GameState, Hex, PieceId, PlayerId, Scope};

fn player_name(state: &GameState, player: PlayerId) -> String {
    state
        .player(player)
        .map_or_else(|| player.to_string(), |p| p.name.clone())
}

fn piece_name(state: &GameState, piece: PieceId) -> String {
    match state.piece(piece) {
        Some(p) => format!(
            "{}'s {} (#{})",
            player_name(state, p.owner),
            p.kind,
            piece.0
        ),
        None => piece.to_string(),
    }
}

fn scope_name(state: &GameState, scope: Scope) -> String {
    match scope {
        Scope::Game => "the game".to_owned(),
        Scope::Player(player) => player_name(state, player),
        Scope::Piece(piece) => piece_name(state, piece),
    }
}

/// A line describing `event`, or `None` for bookkeeping a reader does not need.
///
/// `state` supplies names (players, piece kinds); any state of the same game will do.
pub fn narrate(event: &Event, state: &GameState) -> Option<String> {
    Some(match event {
        Event::Marker { .. } => return None,
        Event::PieceMoved {
            piece,
            from,
            to,
            how,
            ..
        } => {
            let who = piece_name(state, *piece);
            match (from.and_then(|p| p.hex()), to.and_then(|p| p.hex())) {
                (_, None) => format!("{who} is taken off the battlefield ({how})"),
                (None, Some(to)) => format!("{who} is placed at {to} ({how})"),
                (Some(from), Some(to)) => format!("{who} goes from {from} to {to} ({how})"),
            }
        }
        Event::CounterChanged {
            scope: Scope::Game,
            name,
            to,
            ..
        } => {
            // The round is news; other game counters are the rules' bookkeeping.
            if name != "round" {
                return None;
            }
            format!("-- round {to} --")
        }
        Event::CounterChanged {
            scope,
            name,
            from,
            to,
        } => {
            format!("{}: {name} {from} -> {to}", scope_name(state, *scope))
        }
        Event::TokensChanged {
            scope,
            token,
            from,
            to,
        } => {
            format!(
                "{}: {token} tokens {from} -> {to}",
                scope_name(state, *scope)
            )
        }
        Event::Rolled {
            player,
            purpose,
            dice,
        } => {
            let faces: Vec<&str> = dice.iter().map(|d| d.face.as_str()).collect();
            let who = player.map_or_else(|| "the game".to_owned(), |p| player_name(state, p));
            // Name the dice (`attack`, `defence`); say what for when it is plain words.
            let kind = dice.first().map_or("no", |d| d.die.as_str());
            let why = if purpose.contains('"') || purpose.is_empty() || purpose == kind {
                String::new()
            } else {
                format!(" for {purpose}")
            };
            let noun = if dice.len() == 1 { "die" } else { "dice" };
            format!(
                "{who} rolls {} {kind} {noun}{why}: {}",
                dice.len(),
                faces.join(", ")
            )
        }
        Event::Rerolled {
            purpose,
            index,
            before,
            after,
        } => {
            format!(
                "{purpose}: die {index} re-rolled, {} -> {}",
                before.face, after.face
            )
        }
        Event::Decided {
            player,
            kind,
            answer,
        } => {
            let items: Vec<String> = answer
                .items()
                .into_iter()
                .map(|choice| match choice {
                    gloam_core::Choice::Piece(piece) => piece_name(state, *piece),
                    other => other.to_string(),
                })
                .collect();
            format!(
                "{} chooses {} ({kind})",
                player_name(state, *player),
                items.join(", ")
            )
        }
        Event::DecidedHidden { player, kind } => {
            format!("{} answers `{kind}` in secret", player_name(state, *player))
        }
        Event::GameEnded { result } => {
            let names: Vec<String> = result
                .winners
                .iter()
                .map(|p| player_name(state, *p))
                .collect();
            let verdict = if result.winners.len() == state.players.len() {
                "a draw".to_owned()
            } else {
                format!("{} wins", names.join(" and "))
            };
            format!("game over: {verdict} ({})", result.reason)
        }
        _ => return None,
    })
}

/// Draws a hex battlefield as text: `.` an empty hex, `#` a blocked one, and for each piece
/// on a hex its owner's letter (`A`, `B`...) and its id's last digit.
pub fn draw_hexes(hexes: &BTreeSet<Hex>, blocked: &BTreeSet<Hex>, state: &GameState) -> String {
    let Some(min_r) = hexes.iter().map(|h| h.r).min() else {
        return String::new();
    };
    let max_r = hexes.iter().map(|h| h.r).max().unwrap_or(min_r);
    // Column on screen: 2 * (q + r / 2); each row is shifted by its r.
    let min_x = hexes.iter().map(|h| 2 * h.q + h.r).min().unwrap_or(0);
    let mut out = String::new();
    for r in min_r..=max_r {
        let mut row: Vec<(i32, String)> = hexes
            .iter()
            .filter(|h| h.r == r)
            .map(|h| {
                let cell = if blocked.contains(h) {
                    "##".to_owned()
                } else if let Some(piece) = state.piece_on(*h) {
                    let owner = state.pieces[&piece].owner.0;
                    format!("{}{}", char::from(b'A' + owner % 26), piece.0 % 10)
                } else {
                    ". ".to_owned()
                };
                (2 * h.q + h.r - min_x, cell)
            })
            .collect();
        row.sort();
        let mut line = String::new();
        for (x, cell) in row {
            let column = (x as usize) * 2;
            while line.len() < column {
                line.push(' ');
            }
            line.push_str(&cell);
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}
