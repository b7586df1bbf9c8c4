//! Pictures of a game: an SVG of a hex battlefield with its hex types, the feature tokens
//! and the fighters (`gloam render`), a self-contained HTML page stepping through a saved
//! game (`gloam replay --html`), and an SVG of pieces on a measured table.
//!
//! Everything drawn is read from the data and the state: the hex types are the ruleset's
//! (`hex_types`, with the battlefield's own and those given in play), the tokens the
//! ruleset's `tokens`, damage and wounds the counter and characteristic the ruleset names.
//! Line of sight and range overlays call the kernel's own [`Sight`] and
//! [`Hex::distance_to`]. Drawing uses floating point for pixel positions only; no rule reads
//! them. See `docs/render.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use gloam_core::{
    Answer, Battlefield, Choice, Event, Game, GameState, Hex, Piece, PieceId, PlayerId, Request,
    Sight,
};

use crate::agent::{Agent as _, RandomAgent};
use crate::engine::RulesetGame;
use crate::save::SavedGame;

/// The radius of a hex in the picture, in SVG user units (pixels).
const SIZE: f64 = 30.0;
/// The margin around the battlefield.
const MARGIN: f64 = 20.0;
/// The height of the title line above the battlefield.
const HEADER: f64 = 40.0;
/// The width of the legend column right of the battlefield.
const LEGEND_WIDTH: f64 = 340.0;
/// The height of one legend line.
const LINE: f64 = 20.0;

/// The colour of each seat, in seat order (a fifth seat and on reuse them).
pub const OWNER_COLOURS: [&str; 4] = ["#1d4ed8", "#dc2626", "#15803d", "#7e22ce"];

/// Hex types drawn as the hex's fill (the first of them a hex has, in this order); every
/// other type is drawn as a ring inside the hex.
const FILL_TYPES: [&str; 3] = ["blocked", "lethal", "cover"];

/// Conventional colours for common hex type names; any other name takes a colour of
/// [`PALETTE`] by its place in the ruleset's list.
const KNOWN_COLOURS: [(&str, &str); 10] = [
    ("blocked", "#3f3f46"),
    ("lethal", "#f97316"),
    ("cover", "#65a30d"),
    ("starting", "#eab308"),
    ("edge", "#a1a1aa"),
    ("objective", "#0891b2"),
    ("gloom", "#4d7c0f"),
    ("feature", "#78716c"),
    ("artefact", "#c026d3"),
    ("stagger_hex", "#db2777"),
];

/// Colours for hex types without a conventional colour.
const PALETTE: [&str; 10] = [
    "#8dd3c7", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5", "#bc80bd",
    "#ccebc5", "#a6761d",
];

/// Token colours, by the token's place in the ruleset's `tokens` list.
const TOKEN_COLOURS: [&str; 8] = [
    "#0f766e", "#b45309", "#1e3a8a", "#9f1239", "#4338ca", "#3f6212", "#6b21a8", "#334155",
];

/// Optional overlays on a picture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overlays {
    /// Shade the hexes the fighter standing here can see (the kernel's line of sight).
    pub sight_from: Option<PieceId>,
    /// Outline the hexes within this many hexes of this fighter (the kernel's distance).
    pub range: Option<(PieceId, u32)>,
}

/// Why a picture could not be drawn.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum RenderError {
    /// No fighter answers to that name.
    #[error("no fighter is named `{name}`; {known}")]
    UnknownFighter {
        /// The name asked for.
        name: String,
        /// The closest name, if one is close, and the fighters as they may be named.
        known: String,
    },
    /// More than one fighter answers to that name.
    #[error("`{name}` names several fighters ({which}); name one by its number, `#N`")]
    AmbiguousFighter {
        /// The name asked for.
        name: String,
        /// The fighters it names.
        which: String,
    },
    /// The fighter is not on the battlefield (not yet placed, or out of action).
    #[error("{fighter} is not on the battlefield at this step, so it has no {what} to draw")]
    NotOnBattlefield {
        /// The fighter, in words.
        fighter: String,
        /// The overlay asked for.
        what: &'static str,
    },
    /// A step beyond the game.
    #[error("step {step} is past the end: {what}")]
    StepPastEnd {
        /// The step asked for.
        step: usize,
        /// How many steps there are.
        what: String,
    },
    /// The game could not be played or replayed to the step.
    #[error("{0}")]
    Game(String),
}

/// Escapes text for XML character data and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0 (tab, newline, return are).
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A number for SVG: one decimal, no `-0.0`.
fn n(value: f64) -> String {
    let rounded = (value * 10.0).round() / 10.0;
    if rounded == 0.0 {
        "0".to_owned()
    } else if rounded.fract() == 0.0 {
        format!("{rounded:.0}")
    } else {
        format!("{rounded:.1}")
    }
}

fn owner_colour(owner: PlayerId) -> &'static str {
    OWNER_COLOURS[usize::from(owner.0) % OWNER_COLOURS.len()]
}

/// A piece in words: `Alice's Ironskull (#3)`.
pub fn piece_words(state: &GameState, id: PieceId) -> String {
    match state.piece(id) {
        Some(piece) => {
            let owner = state
                .player(piece.owner)
                .map_or_else(|| piece.owner.to_string(), |p| p.name.clone());
            format!("{owner}'s {} (#{})", piece.kind, id.0)
        }
        None => format!("#{}", id.0),
    }
}

/// The fighter `name` answers to in `state`: `#N` (its number), else its name in any case,
/// else the one fighter whose name starts with it, else the one whose name contains it.
/// Several answers are refused with their list; none with the closest name.
pub fn find_fighter(state: &GameState, name: &str) -> Result<PieceId, RenderError> {
    find_fighter_labelled(state, name, &[])
}

/// [`find_fighter`], where `labels` (a text board's `A1`, `B2`) name fighters first.
pub fn find_fighter_labelled(
    state: &GameState,
    name: &str,
    labels: &[(PieceId, String)],
) -> Result<PieceId, RenderError> {
    let fighters: Vec<&Piece> = state
        .pieces
        .values()
        .map(AsRef::as_ref)
        .filter(|p| p.layer.is_empty())
        .collect();
    let wanted = name.trim();
    if let Some((piece, _)) = labels
        .iter()
        .find(|(_, label)| label.eq_ignore_ascii_case(wanted))
    {
        return Ok(*piece);
    }
    if let Ok(number) = wanted.trim_start_matches('#').parse::<u16>()
        && let Some(piece) = fighters.iter().find(|p| p.id.0 == number)
    {
        return Ok(piece.id);
    }
    let lower = wanted.to_lowercase();
    let named = |test: &dyn Fn(&str) -> bool| -> Vec<&&Piece> {
        fighters
            .iter()
            .filter(|p| !lower.is_empty() && test(&p.kind.to_lowercase()))
            .collect()
    };
    let mut matches = named(&|kind| kind == lower);
    if matches.is_empty() {
        matches = named(&|kind| kind.starts_with(&lower));
    }
    if matches.is_empty() {
        matches = named(&|kind| kind.contains(&lower));
    }
    match matches.as_slice() {
        [one] => Ok(one.id),
        [] => {
            let known: Vec<String> = fighters
                .iter()
                .map(|p| format!("#{} {}", p.id.0, p.kind))
                .collect();
            // Compared with whole names and with each word of them (`Sevrin` is close to
            // `Severin`, not to `Severin Steelheart`), and answered with the whole name.
            let words = fighters
                .iter()
                .flat_map(|p| std::iter::once(p.kind.as_str()).chain(p.kind.split_whitespace()));
            let closest = gloam_grammar::closest(wanted, words)
                .and_then(|best| {
                    fighters.iter().find(|p| {
                        p.kind == best || p.kind.split_whitespace().any(|word| word == best)
                    })
                })
                .map(|p| format!("did you mean `{}`? ", p.kind))
                .unwrap_or_default();
            Err(RenderError::UnknownFighter {
                name: wanted.to_owned(),
                known: format!("{closest}the fighters are: {}", known.join(", ")),
            })
        }
        several => Err(RenderError::AmbiguousFighter {
            name: wanted.to_owned(),
            which: several
                .iter()
                .map(|p| piece_words(state, p.id))
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

/// Up to two initials of a fighter's name: `Skritch Spiteclaw` → `SS`, `Ironskull` → `Ir`.
pub fn initials(name: &str) -> String {
    let words: Vec<&str> = name
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .collect();
    match words.as_slice() {
        [] => name.chars().take(2).collect(),
        [one] => one.chars().take(2).collect(),
        [first, .., last] => first.chars().take(1).chain(last.chars().take(1)).collect(),
    }
}

/// A bold heading of the legend at `(x, y)`; `y` moves to the next line.
fn legend_heading(out: &mut String, x: f64, y: &mut f64, title: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" font-weight=\"bold\">{title}</text>",
        n(x),
        n(*y)
    );
    *y += LINE;
}

/// The pixel centre of a hex (pointy-top axial coordinates), before the picture's offset.
fn centre(hex: Hex) -> (f64, f64) {
    let q = f64::from(hex.q);
    let r = f64::from(hex.r);
    (SIZE * 3f64.sqrt() * (q + r / 2.0), SIZE * 1.5 * r)
}

fn hex_points(x: f64, y: f64, scale: f64) -> String {
    (0..6)
        .map(|i| {
            let angle = std::f64::consts::PI / 180.0 * (60.0 * f64::from(i) - 30.0);
            format!(
                "{},{}",
                n(x + SIZE * scale * angle.cos()),
                n(y + SIZE * scale * angle.sin())
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A feature token recorded by game counters: `<name><i>_q`, `<name><i>_r` and
/// `<name><i>_side` (side 0: not on the battlefield), as Embergard records its tokens. Only
/// tokens on a battlefield hex are drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CounterToken {
    family: String,
    number: u32,
    hex: Hex,
    side: i64,
}

fn counter_tokens(state: &GameState) -> Vec<CounterToken> {
    let mut tokens = Vec::new();
    for (name, side) in state.counters.iter() {
        let Some(stem) = name.strip_suffix("_side") else {
            continue;
        };
        let digits = stem.len() - stem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 || digits == stem.len() || *side <= 0 {
            continue;
        }
        let (family, number) = stem.split_at(stem.len() - digits);
        // An unset counter is 0 (the kernel drops counters set to 0).
        let q = state.counter(&format!("{stem}_q"));
        let r = state.counter(&format!("{stem}_r"));
        let (Ok(q), Ok(r), Ok(number)) = (i32::try_from(q), i32::try_from(r), number.parse())
        else {
            continue;
        };
        tokens.push(CounterToken {
            family: family.to_owned(),
            number,
            hex: Hex::new(q, r),
            side: *side,
        });
    }
    tokens.sort_by_key(|t| (t.family.clone(), t.number));
    tokens
}

/// What a picture of one state is made of, each part an SVG fragment: the static board
/// (hexes, their types and the legend of types and tokens), and what changes from step to
/// step (the title, the feature tokens, the fighters, the roster). `gloam replay --html`
/// shares boards and piece layers between steps that draw the same.
#[derive(Clone, Debug, PartialEq)]
pub struct Layers {
    /// The picture's width and height.
    pub size: (f64, f64),
    /// The battlefield: its hexes and their types (those given in play are pieces).
    pub board: String,
    /// The legend of hex types and tokens.
    pub legend: String,
    /// The title line, the feature tokens, the fighters and the roster: one item a line.
    pub pieces: String,
    /// The overlays (empty without any).
    pub overlay: String,
}

impl Layers {
    /// The whole picture as one SVG document.
    pub fn to_svg(&self) -> String {
        let (width, height) = self.size;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">",
            w = n(width),
            h = n(height)
        );
        let _ = writeln!(
            out,
            "<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
            n(width),
            n(height)
        );
        let _ = writeln!(out, "<g id=\"board\">\n{}</g>", self.board);
        let _ = writeln!(out, "<g id=\"legend\">\n{}</g>", self.legend);
        let _ = writeln!(out, "<g id=\"overlay\">\n{}</g>", self.overlay);
        let _ = writeln!(out, "<g id=\"pieces\">\n{}</g>", self.pieces);
        out.push_str("</svg>\n");
        out
    }
}

/// Draws `state`, a state of a game of `rules`, as an SVG document.
///
/// # Errors
///
/// An overlay's fighter that is not on the battlefield.
///
/// # Examples
///
/// ```
/// use gloam::core::Game;
/// use gloam::engine::RulesetGame;
/// let cards = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cards"));
/// let rules = gloam::sim::prepare(&[cards], "shadespire").unwrap();
/// let game = Game::start(rules.clone(), rules.setup(1), RulesetGame::first_frames()).unwrap();
/// let svg = gloam::render::svg(&rules, game.state(), &Default::default()).unwrap();
/// assert!(svg.starts_with("<svg"));
/// ```
pub fn svg(
    rules: &RulesetGame,
    state: &GameState,
    overlays: &Overlays,
) -> Result<String, RenderError> {
    Ok(layers(rules, state, overlays)?.to_svg())
}

/// The layers of the picture of `state` (see [`svg`]).
pub fn layers(
    rules: &RulesetGame,
    state: &GameState,
    overlays: &Overlays,
) -> Result<Layers, RenderError> {
    if let Some(table) = crate::table_text::table_in(rules, state) {
        return table_layers(rules, state, &table, overlays);
    }
    Scene::new(rules, state).layers(overlays)
}

/// What a picture needs, read once from the rules and the state.
struct Scene<'a> {
    rules: &'a RulesetGame,
    state: &'a GameState,
    battlefield: &'a Battlefield,
    /// Each hex's types: the battlefield's, `edge` where it is one, those given in play.
    types: BTreeMap<Hex, BTreeSet<String>>,
    /// The types given in play, by hex.
    in_play: BTreeMap<Hex, BTreeSet<String>>,
    /// Every type name in legend order: the ruleset's own list, then any other found.
    type_order: Vec<String>,
    /// The picture's offset: a hex's pixel centre plus this is where it is drawn.
    offset: (f64, f64),
    /// The battlefield's width and height in pixels, margins included.
    board_size: (f64, f64),
}

impl<'a> Scene<'a> {
    fn new(rules: &'a RulesetGame, state: &'a GameState) -> Scene<'a> {
        let battlefield = rules.battlefield_in(state);
        let types = rules.hex_types_in(state);
        let mut in_play: BTreeMap<Hex, BTreeSet<String>> = BTreeMap::new();
        for (hex, name) in state.hex_types.iter() {
            in_play.entry(*hex).or_default().insert(name.clone());
        }
        let type_order = rules.hex_type_order(&types);
        let centres: Vec<(f64, f64)> = battlefield.hexes().map(centre).collect();
        let min_x = centres.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
        let max_x = centres
            .iter()
            .map(|c| c.0)
            .fold(f64::NEG_INFINITY, f64::max);
        let min_y = centres.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
        let max_y = centres
            .iter()
            .map(|c| c.1)
            .fold(f64::NEG_INFINITY, f64::max);
        let (min_x, max_x, min_y, max_y) = if centres.is_empty() {
            (0.0, 0.0, 0.0, 0.0)
        } else {
            (min_x, max_x, min_y, max_y)
        };
        let half_width = SIZE * 3f64.sqrt() / 2.0;
        let offset = (MARGIN + half_width - min_x, HEADER + MARGIN + SIZE - min_y);
        let board_size = (
            max_x - min_x + 2.0 * half_width + 2.0 * MARGIN,
            max_y - min_y + 2.0 * SIZE + 2.0 * MARGIN + HEADER,
        );
        Scene {
            rules,
            state,
            battlefield,
            types,
            in_play,
            type_order,
            offset,
            board_size,
        }
    }

    fn at(&self, hex: Hex) -> (f64, f64) {
        let (x, y) = centre(hex);
        (x + self.offset.0, y + self.offset.1)
    }

    /// The seat whose territory `hex` is, if any.
    fn territory_seat(&self, hex: Hex) -> Option<PlayerId> {
        let territory = self.battlefield.territory(hex)?;
        (0..self.rules.spec().seats.len())
            .find(|&index| crate::engine::territory_of(index) == territory)
            .and_then(|index| u8::try_from(index).ok())
            .map(PlayerId)
    }

    fn type_colour(&self, name: &str) -> &'static str {
        if let Some((_, colour)) = KNOWN_COLOURS.iter().find(|(known, _)| *known == name) {
            return colour;
        }
        let index = self.type_order.iter().position(|t| t == name).unwrap_or(0);
        PALETTE[index % PALETTE.len()]
    }

    fn token_colour(&self, name: &str) -> &'static str {
        let index = self
            .rules
            .ruleset()
            .tokens
            .iter()
            .position(|t| t == name)
            .unwrap_or(self.rules.ruleset().tokens.len());
        TOKEN_COLOURS[index % TOKEN_COLOURS.len()]
    }

    /// A short unique label for each of the ruleset's tokens: its first letter, more when
    /// two tokens would share it.
    fn token_labels(&self) -> BTreeMap<String, String> {
        let tokens = &self.rules.ruleset().tokens;
        let mut labels = BTreeMap::new();
        for token in tokens {
            let mut length = 1;
            loop {
                let label: String = token.chars().take(length).collect::<String>();
                let clash = tokens.iter().any(|other| {
                    other != token && other.chars().take(length).collect::<String>() == label
                });
                if !clash || length >= token.chars().count() {
                    let mut chars = label.chars();
                    let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
                    labels.insert(token.clone(), first.unwrap_or_default() + chars.as_str());
                    break;
                }
                length += 1;
            }
        }
        labels
    }

    fn token_label(&self, labels: &BTreeMap<String, String>, name: &str) -> String {
        labels.get(name).cloned().unwrap_or_else(|| {
            name.chars()
                .next()
                .map(|c| c.to_uppercase().collect())
                .unwrap_or_default()
        })
    }

    /// The legend's lines: hex types, feature tokens, fighter tokens; and where the
    /// roster starts.
    fn legend(&self, out: &mut String) -> f64 {
        let x = self.board_size.0 + 10.0;
        let mut y = HEADER + MARGIN;
        legend_heading(out, x, &mut y, "Hex types");
        let present: BTreeSet<&String> = self.types.values().flatten().collect();
        for name in &self.type_order {
            let colour = self.type_colour(name);
            let swatch = if FILL_TYPES.contains(&name.as_str()) {
                format!("fill=\"{colour}\" stroke=\"#52525b\"")
            } else {
                format!("fill=\"#f5f0e6\" stroke=\"{colour}\" stroke-width=\"3\"")
            };
            let note = if !present.contains(name) {
                " (none here)"
            } else if self.in_play.values().any(|set| set.contains(name)) {
                " (given in play)"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "<g class=\"legend-type\" data-type=\"{}\"><polygon points=\"{}\" {swatch}/>\
                 <text x=\"{}\" y=\"{}\">{}{note}</text></g>",
                escape(name),
                hex_points(x + 8.0, y - 4.0, 0.28),
                n(x + 22.0),
                n(y),
                escape(name)
            );
            y += LINE;
        }
        // Feature tokens the ruleset records in game counters: one line per side shown.
        let counted = counter_tokens(self.state);
        let sides: BTreeSet<(&str, i64)> = counted
            .iter()
            .filter(|t| self.battlefield.contains(t.hex))
            .map(|t| (t.family.as_str(), t.side))
            .collect();
        if !sides.is_empty() {
            y += 6.0;
            legend_heading(out, x, &mut y, "Tokens in game counters");
            for (family, side) in sides {
                let _ = writeln!(
                    out,
                    "<g class=\"legend-counter-token\"><circle cx=\"{}\" cy=\"{}\" r=\"7\" \
                     fill=\"{}\" fill-opacity=\"0.6\" stroke=\"#44403c\"/><text x=\"{}\" y=\"{}\">\
                     {} N, side {side} (`{}N_side` = {side})</text></g>",
                    n(x + 8.0),
                    n(y - 4.0),
                    PALETTE[usize::try_from(side).unwrap_or(0) % PALETTE.len()],
                    n(x + 22.0),
                    n(y),
                    escape(family),
                    escape(family)
                );
                y += LINE;
            }
        }
        // Territories, when the battlefield has any.
        let seats: BTreeSet<PlayerId> = self
            .battlefield
            .hexes()
            .filter_map(|hex| self.territory_seat(hex))
            .collect();
        if !seats.is_empty() {
            y += 6.0;
            legend_heading(out, x, &mut y, "Territories");
            for seat in seats {
                let name = self
                    .rules
                    .spec()
                    .seats
                    .get(usize::from(seat.0))
                    .map_or_else(|| seat.to_string(), |s| s.name.clone());
                let _ = writeln!(
                    out,
                    "<g class=\"legend-territory\"><polygon points=\"{}\" fill=\"{}\" \
                     fill-opacity=\"0.25\" stroke=\"#a8a29e\"/><text x=\"{}\" y=\"{}\">{}'s territory</text></g>",
                    hex_points(x + 8.0, y - 4.0, 0.28),
                    owner_colour(seat),
                    n(x + 22.0),
                    n(y),
                    escape(&name)
                );
                y += LINE;
            }
        }
        let tokens = &self.rules.ruleset().tokens;
        if !tokens.is_empty() {
            y += 6.0;
            legend_heading(out, x, &mut y, "Tokens on fighters");
            let labels = self.token_labels();
            for token in tokens {
                let _ = writeln!(
                    out,
                    "<g class=\"legend-token\"><rect x=\"{}\" y=\"{}\" width=\"16\" height=\"13\" \
                     rx=\"2\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" fill=\"#ffffff\" \
                     font-size=\"9\" text-anchor=\"middle\">{}</text><text x=\"{}\" y=\"{}\">{}</text></g>",
                    n(x),
                    n(y - 10.0),
                    self.token_colour(token),
                    n(x + 8.0),
                    n(y),
                    escape(&self.token_label(&labels, token)),
                    n(x + 22.0),
                    n(y),
                    escape(token)
                );
                y += LINE;
            }
        }
        let _ = writeln!(
            out,
            "<g class=\"legend-fighter\"><circle cx=\"{}\" cy=\"{}\" r=\"7\" fill=\"#71717a\" \
             stroke=\"#facc15\" stroke-width=\"3\"/><text x=\"{}\" y=\"{}\">{} (gold ring); \
             damage/wounds below</text></g>",
            n(x + 8.0),
            n(y - 4.0),
            n(x + 22.0),
            n(y),
            escape(&self.rules.names().inspired)
        );
        y += LINE + 6.0;
        y
    }

    fn board(&self) -> String {
        let mut out = String::new();
        for (hex, types) in &self.types {
            let (x, y) = self.at(*hex);
            let board_types: Vec<&String> = types
                .iter()
                .filter(|t| !self.in_play.get(hex).is_some_and(|set| set.contains(*t)))
                .collect();
            // The fill: the first fill type the hex has; the other types are rings.
            let fill_type = FILL_TYPES
                .iter()
                .find(|t| board_types.iter().any(|b| b.as_str() == **t));
            let fill = fill_type.map_or("#f5f0e6", |t| self.type_colour(t));
            let territory = self
                .battlefield
                .territory(*hex)
                .map(|t| format!(" data-territory=\"{}\"", escape(t)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "<g class=\"hex\" data-hex=\"{},{}\" data-types=\"{}\"{territory}>\
                 <title>hex ({}, {}){}</title>\
                 <polygon points=\"{}\" fill=\"{fill}\" stroke=\"#a8a29e\" stroke-width=\"1\"/>",
                hex.q,
                hex.r,
                escape(
                    &board_types
                        .iter()
                        .map(|t| t.as_str())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                hex.q,
                hex.r,
                if board_types.is_empty() {
                    String::new()
                } else {
                    format!(
                        ": {}",
                        escape(
                            &board_types
                                .iter()
                                .map(|t| t.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    )
                },
                hex_points(x, y, 0.97),
            );
            // A seat's territory: a wash of its owner's colour.
            if let Some(seat) = self.territory_seat(*hex) {
                let _ = writeln!(
                    out,
                    "<polygon class=\"territory\" points=\"{}\" fill=\"{}\" fill-opacity=\"0.12\"/>",
                    hex_points(x, y, 0.97),
                    owner_colour(seat)
                );
            }
            // Rings in the ruleset's order, outermost first.
            let rings: Vec<&String> = self
                .type_order
                .iter()
                .filter(|t| board_types.contains(t) && Some(&t.as_str()) != fill_type)
                .collect();
            for (index, name) in rings.iter().enumerate() {
                let scale = 0.86 - 0.13 * index as f64;
                if scale <= 0.2 {
                    break;
                }
                let style = if name.as_str() == self.rules.names().edge {
                    "stroke-width=\"1.5\" stroke-dasharray=\"3 3\""
                } else {
                    "stroke-width=\"3\""
                };
                let _ = writeln!(
                    out,
                    "<polygon points=\"{}\" fill=\"none\" stroke=\"{}\" {style}/>",
                    hex_points(x, y, scale),
                    self.type_colour(name)
                );
            }
            out.push_str("</g>\n");
        }
        out
    }

    fn pieces(&self, roster_top: f64) -> String {
        let state = self.state;
        let names = self.rules.names();
        let mut out = String::new();
        // The title line: the ruleset, the round, each player's score.
        let mut title = format!(
            "{} · {} {}",
            self.rules.ruleset().title,
            names.round,
            state.counter(&names.round)
        );
        for player in state.players.iter() {
            let _ = write!(
                title,
                " · {} {} {}",
                player.name,
                names.glory,
                player.counters.get(&names.glory).copied().unwrap_or(0)
            );
        }
        if let Some(result) = &state.result {
            let winners: Vec<String> = result
                .winners
                .iter()
                .filter_map(|p| state.player(*p).map(|p| p.name.clone()))
                .collect();
            let _ = write!(title, " · over: {} ({})", winners.join(", "), result.reason);
        }
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\">{}</text>",
            n(MARGIN),
            n(MARGIN + 8.0),
            escape(&title)
        );
        // Hex types given in play: a token disc in the hex, ringed by each type's colour.
        for (hex, set) in &self.in_play {
            let (x, y) = self.at(*hex);
            let ordered: Vec<&String> = self
                .type_order
                .iter()
                .filter(|t| set.contains(*t))
                .collect();
            let first = ordered.first().map_or("#78716c", |t| self.type_colour(t));
            let _ = write!(
                out,
                "<g class=\"feature\" data-hex=\"{},{}\" data-types=\"{}\"><title>{}</title>\
                 <circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{first}\" fill-opacity=\"0.35\" \
                 stroke=\"#44403c\" stroke-dasharray=\"4 2\"/>",
                hex.q,
                hex.r,
                escape(
                    &ordered
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                escape(&format!(
                    "given in play at ({}, {}): {}",
                    hex.q,
                    hex.r,
                    ordered
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                n(x),
                n(y),
                n(SIZE * 0.82)
            );
            for (index, name) in ordered.iter().enumerate().skip(1) {
                let _ = write!(
                    out,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"3\"/>",
                    n(x),
                    n(y),
                    n(SIZE * (0.82 - 0.1 * index as f64)),
                    self.type_colour(name)
                );
            }
            out.push_str("</g>\n");
        }
        // Feature tokens recorded in game counters: a disc with the token's number.
        for token in counter_tokens(state) {
            if !self.battlefield.contains(token.hex) {
                continue;
            }
            let (x, y) = self.at(token.hex);
            let colour = PALETTE[usize::try_from(token.side).unwrap_or(0) % PALETTE.len()];
            let _ = writeln!(
                out,
                "<g class=\"feature\" data-hex=\"{},{}\" data-token=\"{}{}\" data-side=\"{}\">\
                 <title>{} token {} at ({}, {}), side {}</title>\
                 <circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{colour}\" fill-opacity=\"0.6\" \
                 stroke=\"#44403c\" stroke-dasharray=\"4 2\"/>\
                 <text x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\">{} s{}</text></g>",
                token.hex.q,
                token.hex.r,
                escape(&token.family),
                token.number,
                token.side,
                escape(&token.family),
                token.number,
                token.hex.q,
                token.hex.r,
                token.side,
                n(x),
                n(y),
                n(SIZE * 0.82),
                n(x),
                n(y - SIZE * 0.55),
                token.number,
                token.side
            );
        }
        // Pieces of other layers (tokens that are pieces): a small diamond.
        for piece in state.pieces.values().filter(|p| !p.layer.is_empty()) {
            let Some(hex) = piece.position.and_then(|p| p.hex()) else {
                continue;
            };
            let (x, y) = self.at(hex);
            let r = SIZE * 0.7;
            let _ = writeln!(
                out,
                "<g class=\"marker\" data-piece=\"{}\" data-hex=\"{},{}\"><title>{}</title>\
                 <polygon points=\"{},{} {},{} {},{} {},{}\" fill=\"{}\" fill-opacity=\"0.5\" stroke=\"#44403c\"/></g>",
                piece.id.0,
                hex.q,
                hex.r,
                escape(&format!(
                    "{} ({} layer)",
                    piece_words(state, piece.id),
                    piece.layer
                )),
                n(x),
                n(y - r),
                n(x + r),
                n(y),
                n(x),
                n(y + r),
                n(x - r),
                n(y),
                owner_colour(piece.owner)
            );
        }
        let labels = self.token_labels();
        // Fighters.
        for piece in state.pieces.values().filter(|p| p.layer.is_empty()) {
            let Some(hex) = piece.position.and_then(|p| p.hex()) else {
                continue;
            };
            let (x, y) = self.at(hex);
            let damage = piece.counters.get(&names.damage).copied().unwrap_or(0);
            let wounds = state.characteristic(piece.id, &names.wounds);
            let inspired = piece.keywords.contains(&names.inspired);
            let tokens: Vec<(&String, i64)> = piece
                .tokens
                .iter()
                .filter(|(_, count)| **count > 0)
                .map(|(name, count)| (name, *count))
                .collect();
            let mut tip = format!("{} at ({}, {})", piece_words(state, piece.id), hex.q, hex.r);
            if let Some(wounds) = wounds {
                let _ = write!(
                    tip,
                    "; {} {damage} of {} {wounds}",
                    names.damage, names.wounds
                );
            }
            for (name, count) in &tokens {
                let _ = write!(tip, "; {name} token x{count}");
            }
            if !piece.keywords.is_empty() {
                let _ = write!(
                    tip,
                    "; {}",
                    piece
                        .keywords
                        .iter()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            let _ = write!(
                out,
                "<g class=\"fighter\" data-piece=\"{}\" data-owner=\"{}\" data-hex=\"{},{}\" \
                 data-damage=\"{damage}\"><title>{}</title>\
                 <circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>\
                 <text x=\"{}\" y=\"{}\" fill=\"#ffffff\" font-size=\"13\" font-weight=\"bold\" \
                 text-anchor=\"middle\">{}</text>",
                piece.id.0,
                piece.owner.0,
                hex.q,
                hex.r,
                escape(&tip),
                n(x),
                n(y),
                n(SIZE * 0.6),
                owner_colour(piece.owner),
                if inspired { "#facc15" } else { "#18181b" },
                if inspired { "4" } else { "1.5" },
                n(x),
                n(y + 4.5),
                escape(&initials(&piece.kind))
            );
            if let Some(wounds) = wounds {
                let colour = if damage > 0 { "#b91c1c" } else { "#3f3f46" };
                let _ = write!(
                    out,
                    "<rect x=\"{}\" y=\"{}\" width=\"26\" height=\"12\" rx=\"3\" fill=\"#ffffff\" \
                     stroke=\"{colour}\"/><text class=\"damage\" x=\"{}\" y=\"{}\" font-size=\"10\" \
                     text-anchor=\"middle\" fill=\"{colour}\">{damage}/{wounds}</text>",
                    n(x - 13.0),
                    n(y + SIZE * 0.55),
                    n(x),
                    n(y + SIZE * 0.55 + 10.0)
                );
            }
            for (index, (name, count)) in tokens.iter().enumerate() {
                let tx = x - SIZE * 0.75 + 15.0 * index as f64;
                let ty = y - SIZE * 0.85;
                let label = self.token_label(&labels, name);
                let label = if *count > 1 {
                    format!("{label}{count}")
                } else {
                    label
                };
                let _ = write!(
                    out,
                    "<g class=\"token\" data-token=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"14\" \
                     height=\"12\" rx=\"2\" fill=\"{}\" stroke=\"#ffffff\"/><text x=\"{}\" y=\"{}\" \
                     fill=\"#ffffff\" font-size=\"9\" text-anchor=\"middle\">{}</text></g>",
                    escape(name),
                    n(tx),
                    n(ty),
                    self.token_colour(name),
                    n(tx + 7.0),
                    n(ty + 9.5),
                    escape(&label)
                );
            }
            out.push_str("</g>\n");
        }
        // The roster: every fighter, on the battlefield or not.
        let x = self.board_size.0 + 10.0;
        let mut y = roster_top;
        for player in state.players.iter() {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" font-weight=\"bold\" fill=\"{}\">{} ({} {})</text>",
                n(x),
                n(y),
                owner_colour(player.id),
                escape(&player.name),
                escape(&names.glory),
                player.counters.get(&names.glory).copied().unwrap_or(0)
            );
            y += LINE;
            for piece in state
                .pieces
                .values()
                .filter(|p| p.layer.is_empty() && p.owner == player.id)
            {
                let damage = piece.counters.get(&names.damage).copied().unwrap_or(0);
                let wounds = state
                    .characteristic(piece.id, &names.wounds)
                    .map_or_else(String::new, |w| format!(" {damage}/{w}"));
                let place = piece
                    .position
                    .and_then(|p| p.hex())
                    .map_or_else(|| " (off)".to_owned(), |h| format!(" ({}, {})", h.q, h.r));
                let tokens: Vec<String> = piece
                    .tokens
                    .iter()
                    .filter(|(_, c)| **c > 0)
                    .map(|(name, _)| self.token_label(&labels, name))
                    .collect();
                let tokens = if tokens.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", tokens.join(" "))
                };
                let _ = writeln!(
                    out,
                    "<text class=\"roster\" data-piece=\"{}\" x=\"{}\" y=\"{}\" font-size=\"11\">#{} {}{wounds}{place}{tokens}</text>",
                    piece.id.0,
                    n(x + 8.0),
                    n(y),
                    piece.id.0,
                    escape(&piece.kind)
                );
                y += LINE - 4.0;
            }
            y += 6.0;
        }
        out
    }

    fn overlay(&self, overlays: &Overlays) -> Result<String, RenderError> {
        let mut out = String::new();
        let hex_of = |id: PieceId, what: &'static str| {
            self.state
                .piece(id)
                .and_then(|p| p.position)
                .and_then(|p| p.hex())
                .ok_or_else(|| RenderError::NotOnBattlefield {
                    fighter: piece_words(self.state, id),
                    what,
                })
        };
        if let Some(id) = overlays.sight_from {
            let from = hex_of(id, "line of sight")?;
            let sight = Sight::from_battlefield(
                self.battlefield,
                &[crate::world::BLOCKING],
                self.rules.ruleset().off_board_blocks_sight.unwrap_or(false),
            );
            for hex in self.battlefield.hexes() {
                let visible = sight.visible(from, hex).unwrap_or(false);
                let (x, y) = self.at(hex);
                let (fill, opacity) = if visible {
                    ("#fde047", "0.45")
                } else {
                    ("#18181b", "0.35")
                };
                let _ = writeln!(
                    out,
                    "<polygon class=\"sight\" data-hex=\"{},{}\" data-visible=\"{visible}\" \
                     points=\"{}\" fill=\"{fill}\" fill-opacity=\"{opacity}\"/>",
                    hex.q,
                    hex.r,
                    hex_points(x, y, 0.97)
                );
            }
        }
        if let Some((id, reach)) = overlays.range {
            let from = hex_of(id, "range")?;
            for hex in self.battlefield.hexes() {
                if from.distance_to(hex) > reach {
                    continue;
                }
                let (x, y) = self.at(hex);
                let _ = writeln!(
                    out,
                    "<polygon class=\"range\" data-hex=\"{},{}\" points=\"{}\" fill=\"none\" \
                     stroke=\"#0f172a\" stroke-width=\"2.5\" stroke-dasharray=\"5 3\"/>",
                    hex.q,
                    hex.r,
                    hex_points(x, y, 0.72)
                );
            }
        }
        if !out.is_empty() {
            let mut caption = Vec::new();
            if let Some(id) = overlays.sight_from {
                caption.push(format!(
                    "line of sight from {} (shaded: hidden)",
                    piece_words(self.state, id)
                ));
            }
            if let Some((id, reach)) = overlays.range {
                caption.push(format!(
                    "range {reach} from {} (dashed rings)",
                    piece_words(self.state, id)
                ));
            }
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"12\">{}</text>",
                n(MARGIN),
                n(MARGIN + 26.0),
                escape(&caption.join("; "))
            );
        }
        Ok(out)
    }

    fn layers(&self, overlays: &Overlays) -> Result<Layers, RenderError> {
        let board = self.board();
        let mut legend = String::new();
        let roster_top = self.legend(&mut legend);
        let pieces = self.pieces(roster_top);
        let overlay = self.overlay(overlays)?;
        let rows = self
            .state
            .pieces
            .values()
            .filter(|p| p.layer.is_empty())
            .count() as f64
            * (LINE - 4.0)
            + self.state.players.len() as f64 * (LINE + 6.0);
        let height = self.board_size.1.max(roster_top + rows + MARGIN);
        Ok(Layers {
            size: (self.board_size.0 + LEGEND_WIDTH, height),
            board,
            legend,
            pieces,
            overlay,
        })
    }
}

/// Where to stop when playing a new game for a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// After this many decisions.
    Step(usize),
    /// At the first decision where every fighter is on the battlefield (set-up done).
    Deployed,
}

/// Plays a new game of `rules` with `seed`, every seat a random agent seeded with `seed`,
/// up to `stop`. Returns the game and the number of decisions made.
pub fn play_to(
    rules: &RulesetGame,
    seed: u64,
    stop: Stop,
) -> Result<(Game<RulesetGame>, usize), RenderError> {
    /// More decisions than any shipped game's set-up takes.
    const SET_UP_LIMIT: usize = 2000;
    let mut game = Game::start(
        rules.clone(),
        rules.setup(seed),
        RulesetGame::first_frames(),
    )
    .map_err(|e| RenderError::Game(format!("the game does not start: {e}")))?;
    let mut agent = RandomAgent::new(seed);
    let mut steps = 0;
    loop {
        let deployed = game
            .state()
            .pieces
            .values()
            .filter(|p| p.layer.is_empty())
            .all(|p| p.position.is_some());
        match stop {
            Stop::Step(wanted) if steps == wanted => break,
            Stop::Deployed if deployed && !game.state().pieces.is_empty() => break,
            Stop::Deployed if steps >= SET_UP_LIMIT => {
                return Err(RenderError::Game(format!(
                    "the fighters are not all on the battlefield after {SET_UP_LIMIT} decisions; \
                     pass --step N"
                )));
            }
            _ => {}
        }
        let Some(request) = game.pending().first().map(|r| (*r).clone()) else {
            return match stop {
                Stop::Step(wanted) => Err(RenderError::StepPastEnd {
                    step: wanted,
                    what: format!("this game ends after {steps} decisions"),
                }),
                Stop::Deployed => Err(RenderError::Game(
                    "the game ended before every fighter was on the battlefield".to_owned(),
                )),
            };
        };
        let answer = agent.choose(&game.view(request.player), &request);
        game.submit(request.player, answer)
            .map_err(|e| RenderError::Game(format!("decision {}: {e}", steps + 1)))?;
        steps += 1;
    }
    Ok((game, steps))
}

/// A choice in players' words: pieces and cards by name.
pub fn choice_words(choice: &Choice, state: &GameState) -> String {
    match choice {
        Choice::Piece(id) => piece_words(state, *id),
        Choice::Card(id) => state
            .cards
            .get(id)
            .map_or_else(|| id.to_string(), |card| format!("\"{}\"", card.name)),
        other => other.to_string(),
    }
}

/// An answer in players' words.
pub fn answer_words(answer: &Answer, state: &GameState) -> String {
    let items: Vec<String> = answer
        .items()
        .into_iter()
        .map(|choice| choice_words(choice, state))
        .collect();
    match answer {
        Answer::One(_) => items.join(""),
        Answer::Several(_) if items.is_empty() => "nothing".to_owned(),
        Answer::Several(_) => items.join(", "),
        Answer::Order(_) => format!("in order: {}", items.join(", ")),
    }
}

/// One step of a replayed game: the state after `index` answers, what happened to lead to
/// it, and the decision taken there.
#[derive(Clone, Debug)]
pub struct Step {
    /// The state.
    pub state: GameState,
    /// The events since the previous step (for step 0: the set-up up to the first decision).
    pub events: Vec<Event>,
    /// The decision asked at this step and the answer the record gives, if any.
    pub decision: Option<(Request, Answer)>,
}

/// Replays `saved` against its loaded data, keeping every step: the state before each
/// answer and after the last. The save is checked first ([`SavedGame::replay_loaded`]), so
/// a record that does not replay gives its error here.
pub fn steps_of(
    saved: &SavedGame,
    loaded: std::rc::Rc<crate::load::Loaded>,
    host: std::rc::Rc<gloam_dsl::Host>,
) -> Result<(RulesetGame, Vec<Step>), RenderError> {
    let checked = saved
        .replay_loaded(loaded, host)
        .map_err(|e| RenderError::Game(e.to_string()))?;
    let rules = checked.rules().clone();
    let mut game = Game::start(
        rules.clone(),
        saved.record.setup.clone(),
        RulesetGame::first_frames(),
    )
    .map_err(|e| RenderError::Game(format!("the game does not start: {e}")))?;
    let mut steps = Vec::with_capacity(saved.record.answers.len() + 1);
    let mut seen = 0;
    for (player, answer) in &saved.record.answers {
        let request = game
            .pending()
            .into_iter()
            .find(|r| r.player == *player)
            .cloned();
        let events = game.events()[seen..].to_vec();
        seen = game.events().len();
        steps.push(Step {
            state: game.state().clone(),
            events,
            decision: request.map(|r| (r, answer.clone())),
        });
        game.submit(*player, answer.clone())
            .map_err(|e| RenderError::Game(format!("an answer is refused: {e}")))?;
    }
    steps.push(Step {
        state: game.state().clone(),
        events: game.events()[seen..].to_vec(),
        decision: None,
    });
    Ok((rules, steps))
}

/// Strings stored once, by first appearance: a page's shared boards, legends and items.
#[derive(Debug, Default)]
struct Dedup {
    items: Vec<String>,
    index: BTreeMap<String, usize>,
}

impl Dedup {
    fn index(&mut self, item: &str) -> usize {
        if let Some(index) = self.index.get(item) {
            return *index;
        }
        self.items.push(item.to_owned());
        self.index.insert(item.to_owned(), self.items.len() - 1);
        self.items.len() - 1
    }
}

/// The page's script: steps through the frames, draws each from the shared layers.
const PAGE_SCRIPT: &str = include_str!("render_page.js");
/// The page's style.
const PAGE_STYLE: &str = include_str!("render_page.css");

/// Writes one self-contained HTML page that steps through a replayed game: the board at each
/// step, the narration of the events leading to it and the decision taken there. Boards and
/// piece layers that several steps share are stored once.
pub fn html(title: &str, rules: &RulesetGame, steps: &[Step]) -> Result<String, RenderError> {
    let mut boards = Dedup::default();
    let mut legends = Dedup::default();
    let mut items = Dedup::default();
    let mut frames = Vec::with_capacity(steps.len());
    for (number, step) in steps.iter().enumerate() {
        let layers = layers(rules, &step.state, &Overlays::default())?;
        let board = boards.index(&layers.board);
        let legend = legends.index(&layers.legend);
        let pieces: Vec<usize> = layers
            .pieces
            .lines()
            .map(|line| items.index(line))
            .collect();
        let narration: Vec<String> = step
            .events
            .iter()
            .filter_map(|event| crate::narrate::narrate(event, &step.state))
            .collect();
        let decision = step.decision.as_ref().map(|(request, answer)| {
            let who = step
                .state
                .player(request.player)
                .map_or_else(|| request.player.to_string(), |p| p.name.clone());
            serde_json::json!({
                "player": who,
                "seat": request.player.0,
                "prompt": request.prompt,
                "answer": answer_words(answer, &step.state),
            })
        });
        frames.push(serde_json::json!({
            "step": number,
            "board": board,
            "legend": legend,
            "pieces": pieces,
            "size": [n(layers.size.0), n(layers.size.1)],
            "narration": narration,
            "decision": decision,
        }));
    }
    let data = serde_json::json!({
        "title": title,
        "boards": boards.items,
        "legends": legends.items,
        "items": items.items,
        "frames": frames,
    });
    let json = serde_json::to_string(&data).map_err(|e| RenderError::Game(e.to_string()))?;
    // Inside <script>, `</` could end the element: JSON allows `<\/` for it.
    let json = json.replace("</", "<\\/");
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n<style>\n{PAGE_STYLE}</style>\n</head>\n<body>\n\
         <header><h1>{}</h1>\n<nav>\
         <button id=\"first\" title=\"first (Home)\">&#xAB; first</button>\
         <button id=\"prev\" title=\"previous (Left)\">&#x2039; prev</button>\
         <input id=\"slider\" type=\"range\" min=\"0\" max=\"{}\" value=\"0\">\
         <button id=\"next\" title=\"next (Right)\">next &#x203A;</button>\
         <button id=\"last\" title=\"last (End)\">last &#xBB;</button>\
         <span id=\"label\"></span></nav></header>\n\
         <main><div id=\"picture\"><svg id=\"board-svg\" xmlns=\"http://www.w3.org/2000/svg\" \
         font-family=\"sans-serif\" font-size=\"12\"><rect id=\"paper\" fill=\"#ffffff\"/>\
         <g id=\"board\"></g><g id=\"legend\"></g><g id=\"pieces\"></g></svg></div>\n\
         <aside><section id=\"decision\"></section><h2>What happened</h2>\
         <ol id=\"narration\"></ol></aside></main>\n\
         <pre id=\"errors\"></pre>\n\
         <script type=\"application/json\" id=\"gloam-data\">{json}</script>\n\
         <script>\n{PAGE_SCRIPT}</script>\n</body>\n</html>\n",
        escape(title),
        escape(title),
        steps.len().saturating_sub(1)
    );
    Ok(out)
}

/// A measured table as a host sets it up for a picture. The kernel's state holds where each
/// piece stands (a point and a facing), but no shipped ruleset plays on a table yet, so the
/// table's size, its terrain, its objectives and each piece's base come from the caller.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// The table's width (x) and depth (y), from the origin.
    pub size: (gloam_core::Length, gloam_core::Length),
    /// Terrain pieces: footprints drawn as polygons, with their tags.
    pub terrain: Vec<gloam_core::Terrain>,
    /// Objectives: where each lies and the radius of its marker.
    pub objectives: Vec<(gloam_core::Point, gloam_core::Length)>,
    /// Each piece's base radius; pieces not listed get `default_base`.
    pub bases: BTreeMap<PieceId, gloam_core::Length>,
    /// The base radius of pieces not in `bases`.
    pub default_base: gloam_core::Length,
    /// The base height of every piece, for line of sight.
    pub height: gloam_core::Length,
}

/// Pixels per tenth of a millimetre: an inch (254 tenths) is 20 pixels.
const TABLE_SCALE: f64 = 20.0 / 254.0;

/// Draws the pieces of `state` that stand on a measured table, at scale: bases as circles in
/// their owner's colour with a facing tick, terrain footprints, objectives, and (with
/// `sight_from`) a line from that piece to every other, solid where the kernel's
/// [`gloam_core::line_of_sight`] sees and dashed where terrain blocks it.
///
/// # Examples
///
/// ```
/// use gloam::core::{Ctx, GameState, Length, Point, Position};
/// use gloam::render::{Table, table_svg};
/// let mut state = GameState::new(1, &["Ann", "Bo"]);
/// let mut log = Vec::new();
/// {
///     let mut ctx = Ctx::new(&mut state, &mut log);
///     let hero = ctx.create_piece(gloam::core::PlayerId(0), "Hero", Vec::new()).unwrap();
///     let at = Position::Table { at: Point::new(2540, 2540), facing: (1, 0) };
///     ctx.place_piece(hero, Some(at), vec![], "deploy").unwrap();
/// }
/// let table = Table { size: (Length::inches(22), Length::inches(15)), default_base: Length::mm(16), ..Default::default() };
/// let svg = table_svg(&state, &table, None);
/// assert!(svg.contains("data-piece=\"0\""));
/// ```
pub fn table_svg(state: &GameState, table: &Table, sight_from: Option<PieceId>) -> String {
    let px = |tenths: i64| tenths as f64 * TABLE_SCALE;
    let width = px(table.size.0.as_tenth_mm());
    let depth = px(table.size.1.as_tenth_mm());
    let (ox, oy) = (MARGIN, HEADER + MARGIN);
    // North (growing y) is up, as in the text drawing (`crate::table_text`).
    let point = |p: gloam_core::Point| (ox + px(p.x), oy + depth - px(p.y));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">",
        w = n(width + 2.0 * MARGIN),
        h = n(depth + HEADER + 2.0 * MARGIN)
    );
    let _ = writeln!(
        out,
        "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\">{}</text>\
         <rect class=\"table\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#e7e5d8\" stroke=\"#57534e\"/>",
        n(MARGIN),
        n(MARGIN + 8.0),
        escape(&format!(
            "table {} × {} (1 inch = 20 px)",
            table.size.0, table.size.1
        )),
        n(ox),
        n(oy),
        n(width),
        n(depth)
    );
    for (index, terrain) in table.terrain.iter().enumerate() {
        let points: Vec<String> = terrain
            .footprint
            .iter()
            .map(|p| {
                let (x, y) = point(*p);
                format!("{},{}", n(x), n(y))
            })
            .collect();
        let _ = writeln!(
            out,
            "<polygon class=\"terrain\" data-terrain=\"{index}\" points=\"{}\" fill=\"#78716c\" \
             fill-opacity=\"0.6\" stroke=\"#292524\"><title>{}</title></polygon>",
            points.join(" "),
            escape(&format!(
                "terrain {index}, height {}{}{}",
                terrain.height,
                if terrain.tags.is_empty() { "" } else { ": " },
                terrain.tags.join(", ")
            ))
        );
    }
    for (index, (at, radius)) in table.objectives.iter().enumerate() {
        let (x, y) = point(*at);
        let _ = writeln!(
            out,
            "<g class=\"objective\" data-objective=\"{}\"><circle cx=\"{}\" cy=\"{}\" r=\"{}\" \
             fill=\"#0891b2\" fill-opacity=\"0.3\" stroke=\"#0e7490\" stroke-width=\"2\"/>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text></g>",
            index + 1,
            n(x),
            n(y),
            n(px(radius.as_tenth_mm())),
            n(x),
            n(y + 4.0),
            index + 1
        );
    }
    let figure = |piece: &Piece| -> Option<gloam_core::Figure> {
        let Some(gloam_core::Position::Table { at, facing }) = piece.position else {
            return None;
        };
        let radius = table
            .bases
            .get(&piece.id)
            .copied()
            .unwrap_or(table.default_base);
        Some(
            gloam_core::Figure::new(at, radius)
                .with_height(table.height)
                .with_facing(facing),
        )
    };
    if let Some(from) = sight_from.and_then(|id| state.piece(id)).and_then(figure) {
        for piece in state.pieces.values() {
            let Some(other) = figure(piece) else {
                continue;
            };
            if piece.id == sight_from.unwrap_or(piece.id) {
                continue;
            }
            let seen = gloam_core::line_of_sight(&from, &other, &table.terrain);
            let (x1, y1) = point(from.centre);
            let (x2, y2) = point(other.centre);
            let _ = writeln!(
                out,
                "<line class=\"sight\" data-to=\"{}\" data-visible=\"{seen}\" x1=\"{}\" y1=\"{}\" \
                 x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{}/>",
                piece.id.0,
                n(x1),
                n(y1),
                n(x2),
                n(y2),
                if seen { "#ca8a04" } else { "#52525b" },
                if seen {
                    ""
                } else {
                    " stroke-dasharray=\"5 4\""
                }
            );
        }
    }
    for piece in state.pieces.values() {
        let Some(figure) = figure(piece) else {
            continue;
        };
        let (x, y) = point(figure.centre);
        let r = px(figure.radius.as_tenth_mm());
        let mut tip = piece_words(state, piece.id);
        for (name, value) in piece.counters.iter().filter(|(_, v)| **v != 0) {
            let _ = write!(tip, "; {name} {value}");
        }
        for (name, count) in piece.tokens.iter().filter(|(_, c)| **c > 0) {
            let _ = write!(tip, "; {name} token x{count}");
        }
        let _ = write!(
            out,
            "<g class=\"base\" data-piece=\"{}\" data-owner=\"{}\"><title>{}</title>\
             <circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"#18181b\" stroke-width=\"1.5\"/>",
            piece.id.0,
            piece.owner.0,
            escape(&tip),
            n(x),
            n(y),
            n(r),
            owner_colour(piece.owner)
        );
        let (fx, fy) = figure.facing;
        let fy = -fy;
        if (fx, fy) != (0, 0) {
            let length = ((fx as f64).powi(2) + (fy as f64).powi(2)).sqrt();
            let _ = write!(
                out,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#ffffff\" stroke-width=\"2\"/>",
                n(x),
                n(y),
                n(x + r * fx as f64 / length),
                n(y + r * fy as f64 / length)
            );
        }
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" fill=\"#ffffff\" font-size=\"{}\" text-anchor=\"middle\">{}</text></g>",
            n(x),
            n(y + r * 0.3),
            n((r * 0.8).clamp(6.0, 14.0)),
            escape(&initials(&piece.kind))
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The colours of territories, by their order on the map (light washes).
const TERRITORY_COLOURS: [&str; 4] = ["#dbeafe", "#fee2e2", "#dcfce7", "#f3e8ff"];

/// The layers of a game on a measured table (`table`, as [`crate::table_text::table_in`]
/// gives it), at 1 inch = 20 pixels, north up: the table with its territories (washed, named
/// in the legend), terrain (floors, raised parts darker, each feature named), objectives
/// (numbered discs), each model's base in its owner's colour with its unit's glyph (the text
/// drawing's), and the legend of units. `--los` draws sight lines from a model (the
/// kernel's line of sight over every footprint, heights from the `height` characteristic);
/// `--range` a ring `N` of the table's unit beyond a model's base.
fn table_layers(
    rules: &RulesetGame,
    state: &GameState,
    table: &gloam_dsl::Table,
    overlays: &Overlays,
) -> Result<Layers, RenderError> {
    let names = rules.names();
    let text = crate::table_text::TableText::of_game(rules, state);
    let glyphs = text.as_ref().map(|t| t.labels.clone()).unwrap_or_default();
    let px = |tenths: i64| tenths as f64 * TABLE_SCALE;
    let xs = table.outline.iter().map(|p| p.x);
    let ys = table.outline.iter().map(|p| p.y);
    let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
    let (y0, y1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
    let (width, depth) = (px(x1 - x0), px(y1 - y0));
    let (ox, oy) = (MARGIN, HEADER + MARGIN);
    let point = |p: gloam_core::Point| (ox + px(p.x - x0), oy + depth - px(p.y - y0));
    let polygon = |corners: &[gloam_core::Point]| {
        corners
            .iter()
            .map(|p| {
                let (x, y) = point(*p);
                format!("{},{}", n(x), n(y))
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let area = |area: &gloam_core::Area, attributes: &str| match area {
        gloam_core::Area::Circle { centre, radius } => {
            let (x, y) = point(*centre);
            format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {attributes}/>",
                n(x),
                n(y),
                n(px(radius.as_tenth_mm()))
            )
        }
        gloam_core::Area::Polygon(corners) => {
            format!("<polygon points=\"{}\" {attributes}/>", polygon(corners))
        }
        _ => String::new(),
    };
    let mut board = String::new();
    let _ = writeln!(
        board,
        "<polygon class=\"table\" points=\"{}\" fill=\"#f5f5f0\" stroke=\"#57534e\" stroke-width=\"2\"/>",
        polygon(&table.outline)
    );
    for (index, (name, territory)) in table.territories.iter().enumerate() {
        let colour = TERRITORY_COLOURS[index % TERRITORY_COLOURS.len()];
        let _ = writeln!(
            board,
            "<g class=\"territory\" data-territory=\"{}\"><title>{}</title>{}</g>",
            escape(name),
            escape(&format!("territory {name}")),
            area(
                territory,
                &format!("fill=\"{colour}\" fill-opacity=\"0.8\" stroke=\"none\"")
            )
        );
    }
    for feature in &table.features {
        for (part, terrain) in feature.footprints.iter().enumerate() {
            let (fill, what) = if part == 0 {
                ("#a8a29e", "floor".to_owned())
            } else {
                ("#57534e", "raised part".to_owned())
            };
            let _ = writeln!(
                board,
                "<polygon class=\"terrain\" data-feature=\"{}\" points=\"{}\" fill=\"{fill}\" \
                 fill-opacity=\"0.8\" stroke=\"#292524\"><title>{}</title></polygon>",
                escape(&feature.name),
                polygon(&terrain.footprint),
                escape(&format!(
                    "{} ({}): {what}, {} high{}{}",
                    feature.name,
                    feature.kind,
                    crate::table_text::length_words(terrain.height, table.unit),
                    if feature.rules.is_empty() { "" } else { "; " },
                    feature.rules.join(", ")
                ))
            );
        }
    }
    // The objectives: numbered discs of 20 mm radius (the table gives only their centres).
    for (index, (name, at)) in table.objectives.iter().enumerate() {
        let (x, y) = point(*at);
        let _ = writeln!(
            board,
            "<g class=\"objective\" data-objective=\"{}\"><title>{}</title><circle cx=\"{}\" cy=\"{}\" \
             r=\"{}\" fill=\"#0891b2\" fill-opacity=\"0.35\" stroke=\"#0e7490\" stroke-width=\"2\"/>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text></g>",
            index + 1,
            escape(&format!(
                "objective {}: {name} at {}",
                index + 1,
                crate::table_text::point_words(*at, table.unit)
            )),
            n(x),
            n(y),
            n(px(200)),
            n(x),
            n(y + 4.0),
            index + 1
        );
    }
    // The legend: the scale, territories, terrain, objectives, units.
    let lx = ox + width + MARGIN;
    let mut ly = oy + 10.0;
    let mut legend = String::new();
    legend_heading(&mut legend, lx, &mut ly, "Table");
    let _ = writeln!(
        legend,
        "<text x=\"{}\" y=\"{}\">{}</text>",
        n(lx),
        n(ly),
        escape(&format!(
            "{} × {} ({}; 1 inch = 20 px, north up)",
            crate::table_text::length_words(gloam_core::Length::tenth_mm(x1 - x0), table.unit),
            crate::table_text::length_words(gloam_core::Length::tenth_mm(y1 - y0), table.unit),
            rules
                .table_and_map_in(state)
                .map_or_else(String::new, |(table, map)| format!("{table}, {map}"))
        ))
    );
    ly += LINE;
    let entry = |legend: &mut String, ly: &mut f64, swatch: &str, label: &str| {
        let _ = writeln!(
            legend,
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{swatch}\" stroke=\"#57534e\"/>\
             <text x=\"{}\" y=\"{}\">{}</text>",
            n(lx),
            n(*ly - 10.0),
            n(lx + 18.0),
            n(*ly),
            escape(label)
        );
        *ly += LINE;
    };
    for (index, (name, _)) in table.territories.iter().enumerate() {
        let colour = TERRITORY_COLOURS[index % TERRITORY_COLOURS.len()];
        entry(&mut legend, &mut ly, colour, &format!("territory {name}"));
    }
    for feature in &table.features {
        entry(
            &mut legend,
            &mut ly,
            "#a8a29e",
            &format!("{} ({})", feature.name, feature.kind),
        );
    }
    if table.features.iter().any(|f| f.footprints.len() > 1) {
        entry(&mut legend, &mut ly, "#57534e", "raised part");
    }
    for (index, (name, _)) in table.objectives.iter().enumerate() {
        entry(
            &mut legend,
            &mut ly,
            "#0891b2",
            &format!("{} objective {name}", index + 1),
        );
    }
    let roster_top = ly + LINE;
    // The pieces: the title line, then each model, then the unit roster.
    let mut pieces = String::new();
    let mut title = rules.ruleset().title.clone();
    if let Some(result) = &state.result {
        let winners: Vec<String> = result
            .winners
            .iter()
            .filter_map(|p| state.player(*p).map(|p| p.name.clone()))
            .collect();
        let _ = write!(title, " · over: {} ({})", winners.join(", "), result.reason);
    }
    let _ = writeln!(
        pieces,
        "<text x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\">{}</text>",
        n(MARGIN),
        n(MARGIN + 8.0),
        escape(&title)
    );
    let figure = |piece: &Piece| -> Option<gloam_core::Figure> {
        let Some(gloam_core::Position::Table { at, facing }) = piece.position else {
            return None;
        };
        let radius = piece
            .characteristics
            .get(&names.base_radius)
            .copied()
            .unwrap_or(0);
        let height = piece
            .characteristics
            .get(&names.height)
            .copied()
            .unwrap_or(0);
        Some(
            gloam_core::Figure::new(at, gloam_core::Length::tenth_mm(radius))
                .with_height(gloam_core::Length::tenth_mm(height))
                .with_facing(facing),
        )
    };
    let models = state.pieces.values().filter(|p| p.layer.is_empty());
    for piece in models.clone() {
        let Some(figure) = figure(piece) else {
            continue;
        };
        let (x, y) = point(figure.centre);
        let r = px(figure.radius.as_tenth_mm()).max(3.0);
        let glyph = glyphs
            .get(&piece.id)
            .map_or_else(String::new, char::to_string);
        let mut tip = format!("{} ({glyph})", piece_words(state, piece.id));
        for (name, value) in piece.counters.iter().filter(|(_, v)| **v != 0) {
            let _ = write!(tip, "; {name} {value}");
        }
        let _ = writeln!(
            pieces,
            "<g class=\"base\" data-piece=\"{}\" data-owner=\"{}\"><title>{}</title>\
             <circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"#18181b\" stroke-width=\"1.5\"/>\
             <text x=\"{}\" y=\"{}\" fill=\"#ffffff\" font-size=\"{}\" text-anchor=\"middle\">{}</text></g>",
            piece.id.0,
            piece.owner.0,
            escape(&tip),
            n(x),
            n(y),
            n(r),
            owner_colour(piece.owner),
            n(x),
            n(y + r * 0.35),
            n((r * 1.1).clamp(6.0, 14.0)),
            escape(&glyph)
        );
    }
    // The roster: one line per unit, from the text drawing's legend.
    let mut roster_y = roster_top;
    if let Some(text) = &text {
        let units = text
            .legend
            .lines()
            .skip_while(|line| *line != "units:")
            .skip(1);
        let _ = writeln!(
            pieces,
            "<text x=\"{}\" y=\"{}\" font-weight=\"bold\">Units</text>",
            n(lx),
            n(roster_y)
        );
        roster_y += LINE;
        for line in units {
            let _ = writeln!(
                pieces,
                "<text class=\"roster\" x=\"{}\" y=\"{}\" font-family=\"monospace\" font-size=\"11\">{}</text>",
                n(lx),
                n(roster_y),
                escape(line.trim())
            );
            roster_y += LINE - 4.0;
        }
    }
    // Overlays.
    let mut overlay = String::new();
    let find = |id: PieceId, what: &'static str| -> Result<gloam_core::Figure, RenderError> {
        state
            .piece(id)
            .and_then(figure)
            .ok_or_else(|| RenderError::NotOnBattlefield {
                fighter: piece_words(state, id),
                what,
            })
    };
    if let Some(from_id) = overlays.sight_from {
        let from = find(from_id, "line of sight")?;
        let terrain: Vec<gloam_core::Terrain> = table
            .features
            .iter()
            .flat_map(|f| f.footprints.iter().cloned())
            .collect();
        for piece in models.clone().filter(|p| p.id != from_id) {
            let Some(other) = figure(piece) else {
                continue;
            };
            let seen = gloam_core::line_of_sight(&from, &other, &terrain);
            let (a, b) = (point(from.centre), point(other.centre));
            let _ = writeln!(
                overlay,
                "<line class=\"sight\" data-to=\"{}\" data-visible=\"{seen}\" x1=\"{}\" y1=\"{}\" \
                 x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{}/>",
                piece.id.0,
                n(a.0),
                n(a.1),
                n(b.0),
                n(b.1),
                if seen { "#ca8a04" } else { "#52525b" },
                if seen {
                    ""
                } else {
                    " stroke-dasharray=\"5 4\""
                }
            );
        }
    }
    if let Some((id, reach)) = overlays.range {
        let from = find(id, "range")?;
        let (x, y) = point(from.centre);
        let reach = gloam_core::Length::of(i64::from(reach), table.unit);
        let _ = writeln!(
            overlay,
            "<circle class=\"range\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"#18181b\" \
             stroke-width=\"2\" stroke-dasharray=\"6 4\"/>",
            n(x),
            n(y),
            n(px((from.radius + reach).as_tenth_mm()))
        );
    }
    let height = (oy + depth + MARGIN).max(roster_y + MARGIN);
    // Room for the longest roster line (monospace, 11 px: about 6.7 px a character).
    let longest = text
        .as_ref()
        .and_then(|t| t.legend.lines().map(|l| l.trim().chars().count()).max())
        .unwrap_or(0);
    Ok(Layers {
        size: (lx + LEGEND_WIDTH.max(longest as f64 * 6.7 + MARGIN), height),
        board,
        legend,
        pieces,
        overlay,
    })
}
