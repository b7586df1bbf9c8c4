//! What `gloam play` shows a player: the board with its legend, the fighters, their own
//! hand with card texts, `show card`, `show fighter` and `help`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use gloam::engine::RulesetGame;
use gloam::narrate::{Board, words};
use gloam_core::{GameState, PieceId, PlayerId, Visibility};
use gloam_grammar::{CardDef, FighterDef, Owner, Restriction, Side};

/// The commands `gloam play` takes at a prompt (for `help` and did-you-mean).
pub(crate) const COMMANDS: [&str; 8] = [
    "help", "hand", "board", "show", "save", "quit", "card", "fighter",
];

/// `help`: the commands and how to answer each kind of question.
pub(crate) fn help() -> String {
    "commands (at any prompt):
  NUMBER            pick an option by its number (`3`); for a question that takes several
                    answers or an order, type the numbers in order, separated by spaces
                    (`2 1 3`); an empty line answers none where none is allowed
  Q,R               for a hex question, the hex itself by its coordinates (`-1,7` or
                    `(-1, 7)`): rows are labelled `rR` on the board, with the Q of their
                    first and last hexes; Q grows by 1 from one hex to the next in a row
  X Y               for a question on a measured table that takes any point, a point of
                    your own in the table's unit (`12 6.5`, from the bottom-left corner);
                    for a move, how far east and north the unit goes (`-1 2.5`)
  hand              your hand (your hidden cards) with their texts
  board             the battlefield, its legend and the fighters
  show card NAME    a card's text, kind, glory or cost, keywords and restrictions
  show fighter NAME a fighter (by name or board label, `A1`): characteristics, weapons,
                    wounds taken, tokens and upgrades
  save              write the game to the save file (the game goes on)
  quit              save and stop
  help              this list
"
    .to_owned()
}

/// The fighters of `state`, one line each: label, owner, name, hex (with its types), damage,
/// tokens and upgrades; then each player's glory.
pub(crate) fn roster(rules: &RulesetGame, state: &GameState, board: &Board) -> String {
    let mut out = String::new();
    let types_by_hex = rules.hex_types_in(state);
    for piece in state.pieces.values().filter(|p| p.layer.is_empty()) {
        let label = board.labels.get(&piece.id).map_or("", String::as_str);
        let owner = state.player(piece.owner).map_or("?", |p| p.name.as_str());
        let names = rules.names();
        let damage = piece.counters.get(&names.damage).copied().unwrap_or(0);
        let wounds = state.characteristic(piece.id, &names.wounds).unwrap_or(0);
        let where_ = match piece.position.and_then(|p| p.hex()) {
            None => "off the battlefield".to_owned(),
            Some(hex) => {
                let types = hex_types(&types_by_hex, hex);
                if types.is_empty() {
                    format!("at {hex}")
                } else {
                    format!("at {hex} ({})", types.join(", "))
                }
            }
        };
        let mut extras: Vec<String> = piece
            .tokens
            .iter()
            .filter(|(_, n)| **n > 0)
            .map(|(t, n)| {
                if *n == 1 {
                    format!("{} token", words(t))
                } else {
                    format!("{n} {} tokens", words(t))
                }
            })
            .collect();
        if piece.keywords.contains(&names.inspired) {
            extras.push("inspired".to_owned());
        }
        for card in upgrades(state, piece.id) {
            extras.push(format!("upgrade {card}"));
        }
        let _ = writeln!(
            out,
            "  {label:<3} {owner:<6} {:<24} {where_:<28} damage {damage}/{wounds}{}",
            piece.kind,
            if extras.is_empty() {
                String::new()
            } else {
                format!("  {}", extras.join(", "))
            }
        );
    }
    for player in state.players.iter() {
        let _ = writeln!(
            out,
            "  {}: glory {}",
            player.name,
            player
                .counters
                .get(&rules.names().glory)
                .copied()
                .unwrap_or(0)
        );
    }
    out
}

/// The hex types of `hex` in words, from `types` (`RulesetGame::hex_types_in`: printed on
/// its board, the battlefield's edge, given in play).
fn hex_types(
    types: &BTreeMap<gloam_core::Hex, BTreeSet<String>>,
    hex: gloam_core::Hex,
) -> Vec<String> {
    types
        .get(&hex)
        .map(|types| types.iter().map(|n| words(n)).collect())
        .unwrap_or_default()
}

/// The names of the cards equipped on `piece`.
fn upgrades(state: &GameState, piece: PieceId) -> Vec<String> {
    state
        .zones
        .iter()
        .filter(|(zone, _)| zone.piece == Some(piece))
        .flat_map(|(_, zone)| zone.cards.iter())
        .filter_map(|card| state.cards.get(card).map(|c| c.name.clone()))
        .collect()
}

/// `viewer`'s hidden zones (those only their owner sees: their hands), each card with its
/// text. Never another player's.
pub(crate) fn hand(rules: &RulesetGame, state: &GameState, viewer: PlayerId) -> String {
    let mut out = String::new();
    for (zone, contents) in state.zones.iter() {
        if zone.owner != viewer || zone.piece.is_some() || contents.visibility != Visibility::Owner
        {
            continue;
        }
        let _ = writeln!(
            out,
            "your {} ({}):",
            words(&zone.name),
            plural(contents.cards.len(), "card")
        );
        for card in &contents.cards {
            let Some(card) = state.cards.get(card) else {
                continue;
            };
            match rules.library().card(&card.name) {
                Some(def) => {
                    let _ = writeln!(out, "  - {} [{}]", def.name, summary(def));
                    if let Some(text) = &def.text {
                        let _ = writeln!(out, "      {text}");
                    }
                }
                None => {
                    let _ = writeln!(out, "  - {}", card.name);
                }
            }
        }
    }
    if out.is_empty() {
        out.push_str("you hold no hidden cards\n");
    }
    out
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A card's kind, glory or cost, timing and keywords on one line.
fn summary(card: &CardDef) -> String {
    let mut parts = vec![words(&card.kind)];
    if let Some(glory) = card.glory {
        parts.push(format!("{glory} glory"));
    }
    if let Some(cost) = card.cost {
        parts.push(format!("costs {cost} glory"));
    }
    if let Some(score) = &card.score {
        parts.push(format!("scored: {}", words(score)));
    }
    if !card.keywords.is_empty() {
        parts.push(
            card.keywords
                .iter()
                .map(|k| words(k))
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    parts.join(", ")
}

/// `show card NAME`: everything the data says about a card of the game's ruleset (or one it
/// extends) a player reads.
pub(crate) fn show_card(rules: &RulesetGame, name: &str) -> String {
    let library = rules.library();
    let chain = rules.ruleset_chain();
    let cards: Vec<&CardDef> = library
        .cards()
        .iter()
        .filter(|c| chain.contains(&c.ruleset.as_str()))
        .collect();
    let found = cards.iter().find(|c| c.name.eq_ignore_ascii_case(name));
    let Some(card) = found else {
        let names: Vec<&str> = cards.iter().map(|c| c.name.as_str()).collect();
        return match gloam_grammar::closest(name, names.iter().copied()) {
            Some(best) => format!("no card is named `{name}`; did you mean `{best}`?\n"),
            None => format!(
                "no card is named `{name}` in {}; `hand` lists yours\n",
                rules.ruleset().name
            ),
        };
    };
    let mut out = format!("{} ({})\n", card.name, words(&card.kind));
    let owner = match &card.owner {
        Owner::Universal => "any warband".to_owned(),
        Owner::Warband(w) => w.clone(),
        Owner::Alliance(a) => format!("{} warbands", words(a)),
    };
    let _ = writeln!(out, "  for: {owner}");
    if let Some(glory) = card.glory {
        let _ = writeln!(out, "  glory: {glory}");
    }
    if let Some(cost) = card.cost {
        let _ = writeln!(out, "  cost: {cost} glory");
    }
    if let Some(score) = &card.score {
        let _ = writeln!(out, "  scored: {}", words(score));
    }
    if let Some(window) = &card.window {
        let _ = writeln!(out, "  when: {}", words(window));
    }
    if !card.casting_value.is_empty() {
        let faces: Vec<String> = card
            .casting_value
            .iter()
            .map(|f| format!("{} {}", f.count, words(&f.name)))
            .collect();
        let _ = writeln!(out, "  casting value: {}", faces.join(", "));
    }
    if !card.keywords.is_empty() {
        let keywords: Vec<String> = card.keywords.iter().map(|k| words(k)).collect();
        let _ = writeln!(out, "  keywords: {}", keywords.join(", "));
    }
    if !card.restrictions.is_empty() {
        let restrictions: Vec<String> = card
            .restrictions
            .iter()
            .map(|r| match r {
                Restriction::Fighter(f) => f.clone(),
                Restriction::Keyword(k) => format!("a {} fighter", words(k)),
            })
            .collect();
        let _ = writeln!(out, "  only for: {}", restrictions.join(" or "));
    }
    if card.persist {
        let _ = writeln!(out, "  stays in play after it resolves");
    }
    for weapon in &card.weapons {
        let _ = writeln!(
            out,
            "  attack: {} range {}, {} dice ({}), damage {}",
            weapon.name,
            weapon.range,
            weapon.dice,
            words(&weapon.symbol),
            weapon.damage
        );
    }
    match &card.text {
        Some(text) => {
            let _ = writeln!(out, "  text: {text}");
        }
        None => out.push_str("  (the data gives no text)\n"),
    }
    out
}

/// The fighter named `name` (or labelled `A1`) in `state`: the lookup `gloam render` uses,
/// with the board's labels first.
fn find_fighter(state: &GameState, board: &Board, name: &str) -> Result<PieceId, String> {
    let labels: Vec<(PieceId, String)> = board
        .labels
        .iter()
        .map(|(piece, label)| (*piece, label.clone()))
        .collect();
    gloam::render::find_fighter_labelled(state, name, &labels).map_err(|error| format!("{error}\n"))
}

/// `show fighter NAME`: characteristics (with modifiers), weapons on the current side,
/// wounds taken, tokens, keywords and upgrades.
pub(crate) fn show_fighter(
    rules: &RulesetGame,
    state: &GameState,
    board: &Board,
    name: &str,
) -> String {
    let id = match find_fighter(state, board, name) {
        Ok(id) => id,
        Err(message) => return message,
    };
    let Some(piece) = state.piece(id) else {
        return format!("no fighter is named `{name}`\n");
    };
    let owner = state.player(piece.owner).map_or("?", |p| p.name.as_str());
    let warband = rules
        .spec()
        .seats
        .get(usize::from(piece.owner.0))
        .map(|s| s.warband.clone())
        .unwrap_or_default();
    let def: Option<&FighterDef> = rules
        .library()
        .warband(&warband)
        .and_then(|w| w.fighter(&piece.kind));
    let names = rules.names();
    let inspired = piece.keywords.contains(&names.inspired);
    let label = board.labels.get(&id).cloned().unwrap_or_default();
    let mut out = format!(
        "{} ({label}, {owner}'s, {warband}){}\n",
        piece.kind,
        if inspired { ", inspired" } else { "" }
    );
    let damage = piece.counters.get(&names.damage).copied().unwrap_or(0);
    let wounds = state.characteristic(id, &names.wounds).unwrap_or(0);
    let _ = writeln!(out, "  wounds taken: {damage} of {wounds}");
    let unit = rules
        .ruleset()
        .unit
        .as_deref()
        .and_then(gloam_core::LengthUnit::from_suffix)
        .unwrap_or(gloam_core::LengthUnit::Inch);
    match piece.position {
        Some(gloam_core::Position::Table { at, .. }) => {
            let _ = writeln!(
                out,
                "  at {} on the table",
                gloam::table_text::point_words(at, unit)
            );
        }
        Some(gloam_core::Position::Hex(hex)) => {
            let types = hex_types(&rules.hex_types_in(state), hex);
            let _ = writeln!(
                out,
                "  at {hex}{}",
                if types.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", types.join(", "))
                }
            );
        }
        None => out.push_str("  not on the battlefield\n"),
    }
    if let Some(def) = def {
        let stats: Vec<String> = def
            .stats
            .iter()
            .map(|s| {
                let now = state.characteristic(id, &s.name).unwrap_or(s.value);
                format!("{} {now}", words(&s.name))
            })
            .collect();
        let _ = writeln!(out, "  characteristics: {}", stats.join(", "));
        let side = if inspired {
            Side::Inspired
        } else {
            Side::Uninspired
        };
        for weapon in def
            .weapons
            .iter()
            .filter(|w| w.side.is_none_or(|s| s == side))
        {
            let value = |name: &str, base: i64| {
                if inspired {
                    weapon
                        .inspired
                        .iter()
                        .find(|s| s.name == name)
                        .map_or(base, |s| s.value)
                } else {
                    base
                }
            };
            let mut keywords: Vec<String> =
                weapon.keywords.iter().map(|k| words(&k.name)).collect();
            if inspired {
                keywords.extend(weapon.inspired_keywords.iter().map(|k| words(&k.name)));
            }
            let _ = writeln!(
                out,
                "  weapon {}: range {}, {} {} dice ({}), damage {}{}",
                weapon.name,
                value("range", weapon.range),
                value("dice", weapon.dice),
                weapon.die.as_deref().map_or("attack".to_owned(), words),
                words(&weapon.symbol),
                value("damage", weapon.damage),
                if keywords.is_empty() {
                    String::new()
                } else {
                    format!(", {}", keywords.join(", "))
                }
            );
        }
        for ability in def
            .abilities
            .iter()
            .filter(|a| a.side.is_none_or(|s| s == side))
        {
            let _ = writeln!(
                out,
                "  {} {}: {}",
                if ability.reaction {
                    "reaction"
                } else {
                    "ability"
                },
                ability.name,
                ability.text.as_deref().unwrap_or("(no text)")
            );
        }
        if let Some(text) = &def.text {
            let _ = writeln!(out, "  text: {text}");
        }
    }
    let tokens: Vec<String> = piece
        .tokens
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(t, n)| format!("{n} {}", words(t)))
        .collect();
    let _ = writeln!(
        out,
        "  tokens: {}",
        if tokens.is_empty() {
            "none".to_owned()
        } else {
            tokens.join(", ")
        }
    );
    let keywords: Vec<String> = piece.keywords.iter().map(|k| words(k)).collect();
    if !keywords.is_empty() {
        let _ = writeln!(out, "  keywords: {}", keywords.join(", "));
    }
    let equipped = upgrades(state, id);
    let _ = writeln!(
        out,
        "  upgrades: {}",
        if equipped.is_empty() {
            "none".to_owned()
        } else {
            equipped.join(", ")
        }
    );
    out
}
