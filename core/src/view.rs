//! What one player may see of a game.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::{
    Card, CardId, GameResult, GameState, Modifiers, Piece, PieceId, Player, PlayerId, Request,
    Visibility, ZoneId,
};

/// A zone as a player sees it: always its size, its cards only when visible to them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneView {
    /// Who may see the cards.
    pub visibility: Visibility,
    /// How many cards it holds.
    pub size: usize,
    /// The cards, top first, when this player may see them.
    pub cards: Option<Vec<CardId>>,
}

/// A player's view of a game: everything public, plus what is theirs alone.
///
/// Hidden from it: other players' hands, every deck's contents and order, other players'
/// pending requests and secret answers, the RNG state and the rules' internal flow.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Whose view this is.
    pub viewer: PlayerId,
    /// The players.
    pub players: Vec<Player>,
    /// The pieces.
    pub pieces: BTreeMap<PieceId, Arc<Piece>>,
    /// The cards this player may see.
    pub cards: BTreeMap<CardId, Card>,
    /// Every zone.
    pub zones: BTreeMap<ZoneId, ZoneView>,
    /// Game counters.
    pub counters: BTreeMap<String, i64>,
    /// Modifiers in force.
    pub modifiers: Modifiers,
    /// This player's pending request, if any.
    pub request: Option<Request>,
    /// Who else the game is waiting on.
    pub waiting_on: Vec<PlayerId>,
    /// The result, once the game is over.
    pub result: Option<GameResult>,
}

impl PlayerView {
    /// Builds `viewer`'s view of `state`.
    pub fn new(state: &GameState, viewer: PlayerId) -> PlayerView {
        let mut cards = BTreeMap::new();
        let zones = state
            .zones
            .iter()
            .map(|(id, zone)| {
                let visible = match zone.visibility {
                    Visibility::Public => true,
                    Visibility::Owner => id.owner == viewer,
                    Visibility::Nobody => false,
                };
                if visible {
                    for card in &zone.cards {
                        if let Some(entry) = state.cards.get(card) {
                            cards.insert(*card, entry.clone());
                        }
                    }
                }
                let view = ZoneView {
                    visibility: zone.visibility,
                    size: zone.cards.len(),
                    cards: visible.then(|| zone.cards.clone()),
                };
                (id.clone(), view)
            })
            .collect();
        let (request, waiting_on) = match &state.pending {
            Some(pending) => {
                let open = pending
                    .requests
                    .iter()
                    .zip(&pending.answers)
                    .filter(|(_, answer)| answer.is_none())
                    .map(|(request, _)| request);
                let mut request = None;
                let mut waiting_on = Vec::new();
                for open_request in open {
                    if open_request.player == viewer {
                        request = Some(open_request.clone());
                    } else {
                        waiting_on.push(open_request.player);
                    }
                }
                (request, waiting_on)
            }
            None => (None, Vec::new()),
        };
        PlayerView {
            viewer,
            players: state.players.to_vec(),
            pieces: (*state.pieces).clone(),
            cards,
            zones,
            counters: (*state.counters).clone(),
            modifiers: state.modifiers.clone(),
            request,
            waiting_on,
            result: state.result.clone(),
        }
    }
}
