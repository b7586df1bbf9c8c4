//! Plain-English lines for kernel events, and a text drawing of a hex battlefield.
//!
//! [`Narrator`] turns the events of a game into sentences in the players' words: fighters
//! by their names (`Bo's Luxa Stormrider`), cards by their names (never an id), dice by their
//! faces, the glory, damage, tokens and round changes that players track, and the lines the
//! rules themselves write with the script function `say` (which weapon attacks whom, the
//! attack's result in the edition's words, who won a roll-off). The rules' bookkeeping (other
//! counters, markers, modifiers, step names, prompt ids) is left out. [`narrate`] is the same
//! without a ruleset or a viewer. [`Board`] draws a hex battlefield with coordinates, a glyph
//! for each hex type the data defines and a legend.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use gloam_core::{
    CardId, Choice, Event, GameState, Hex, LengthUnit, PieceId, PlayerId, Point, Position, Scope,
    Value, Visibility, ZoneId,
};

use crate::engine::RulesetGame;

/// The counters players track, narrated when they change, by their default names (a ruleset
/// may rename them: `gloam_dsl::Names`): `glory` (a player's), `damage` (a fighter's wounds
/// taken) and `round` (the game's). Every other counter is the rules'
/// bookkeeping and is never narrated; a ruleset that wants a line says it with `say`.
pub const TRACKED_COUNTERS: [&str; 3] = ["glory", "damage", "round"];

/// A word of the data (`single_support`, `power_hand`) as a player reads it.
///
/// # Examples
///
/// ```
/// assert_eq!(gloam::narrate::words("single_support"), "single support");
/// ```
pub fn words(name: &str) -> String {
    name.replace('_', " ")
}

fn player_name(state: &GameState, player: PlayerId) -> String {
    state
        .player(player)
        .map_or_else(|| format!("player {}", player.0 + 1), |p| p.name.clone())
}

/// A fighter (or any piece) as players name it: `Bo's Luxa Stormrider`.
pub fn piece_name(state: &GameState, piece: PieceId) -> String {
    match state.piece(piece) {
        Some(p) => format!("{}'s {}", player_name(state, p.owner), p.kind),
        None => "a fighter no longer in the game".to_owned(),
    }
}

fn scope_name(state: &GameState, scope: Scope) -> String {
    match scope {
        Scope::Game => "the game".to_owned(),
        Scope::Player(player) => player_name(state, player),
        Scope::Piece(piece) => piece_name(state, piece),
    }
}

fn plural(n: i64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A line describing `event`, or `None` for bookkeeping a reader does not need.
///
/// `state` supplies names (players, fighters, cards); any state of the same game will do.
/// Without a viewer, a card is named only once it is in a zone every player sees; use a
/// [`Narrator`] to name a player's own hidden cards to them and to know what the data says
/// (an objective's glory, a fighter's wounds).
pub fn narrate(event: &Event, state: &GameState) -> Option<String> {
    Narrator::default().line(event, state)
}

/// Narrates the events of one game for one viewer.
#[derive(Clone, Copy, Debug, Default)]
pub struct Narrator<'a> {
    rules: Option<&'a RulesetGame>,
    viewer: Option<PlayerId>,
}

impl<'a> Narrator<'a> {
    /// A narrator that reads the ruleset's data (objective glory) and, with
    /// [`Narrator::for_viewer`], names that player's hidden cards to them.
    pub fn new(rules: &'a RulesetGame) -> Narrator<'a> {
        Narrator {
            rules: Some(rules),
            viewer: None,
        }
    }

    /// The names the ruleset gives damage, wounds, glory, the round and inspiration (the
    /// shared defaults without a ruleset).
    fn names(&self) -> &gloam_dsl::Names {
        static DEFAULT: std::sync::LazyLock<gloam_dsl::Names> =
            std::sync::LazyLock::new(gloam_dsl::Names::default);
        self.rules.map_or(&DEFAULT, RulesetGame::names)
    }

    /// The unit a measured game's lengths are told in: the ruleset's `unit`, else inches.
    fn length_unit(&self) -> LengthUnit {
        self.rules
            .and_then(|rules| rules.ruleset().unit.as_deref())
            .and_then(LengthUnit::from_suffix)
            .unwrap_or(LengthUnit::Inch)
    }

    /// A run of models of one unit set up, moved by one offset or taken off the table
    /// together, from `events[0]`, told as one line; `None` when `events[0]` is not a
    /// change of table position. Returns the line and how many events it tells.
    fn table_moves(&self, events: &[Event], state: &GameState) -> Option<(String, usize)> {
        let Event::PieceMoved {
            piece,
            from,
            to,
            how,
            ..
        } = events.first()?
        else {
            return None;
        };
        let step = TableStep::of(*from, *to)?;
        let unit_of = |piece: PieceId| {
            state.piece(piece).map(|p| {
                (
                    p.owner,
                    p.kind.clone(),
                    p.characteristics.get(&self.names().unit).copied(),
                )
            })
        };
        let key = unit_of(*piece);
        let run = if key.as_ref().is_some_and(|k| k.2.is_some()) {
            events
                .iter()
                .take_while(|event| match event {
                    Event::PieceMoved {
                        piece: other,
                        from,
                        to,
                        how: other_how,
                        ..
                    } => {
                        other_how == how
                            && unit_of(*other) == key
                            && TableStep::of(*from, *to).is_some_and(|s| s.joins(&step))
                    }
                    _ => false,
                })
                .count()
        } else {
            1
        };
        let unit = self.length_unit();
        let who = piece_name(state, *piece);
        let how_words = words(how);
        let models = format!("{run} models");
        let line = match (step, run) {
            (TableStep::SetUp(at), 1) => {
                format!(
                    "{who} is set up at {}",
                    crate::table_text::point_words(at, unit)
                )
            }
            (TableStep::SetUp(at), _) => format!(
                "{who} are set up ({models}, the first at {})",
                crate::table_text::point_words(at, unit)
            ),
            (TableStep::Moved(by, at), run) => {
                let words =
                    crate::table_text::length_words(crate::table_text::offset_length(by), unit);
                // A move shorter than the tenth the words show is told as such, not as 0.0.
                let length = if words.starts_with("0.0 ") {
                    format!("less than {}", words.replacen("0.0", "0.1", 1))
                } else {
                    words
                };
                let direction = crate::table_text::direction_words(by);
                let verb = if run == 1 { "moves" } else { "move" };
                let extra = if how == "move" {
                    String::new()
                } else {
                    format!(" ({how_words})")
                };
                if run == 1 {
                    format!(
                        "{who} {verb} {length} {direction} to {}{extra}",
                        crate::table_text::point_words(at, unit)
                    )
                } else {
                    format!("{who} ({models}) {verb} {length} {direction}{extra}")
                }
            }
            (TableStep::Turned(facing), run) => {
                let direction = crate::table_text::direction_words(facing);
                let extra = if how == "turn" {
                    String::new()
                } else {
                    format!(" ({how_words})")
                };
                if run == 1 {
                    format!("{who} turns to face {direction}{extra}")
                } else {
                    format!("{who} ({models}) turn to face {direction}{extra}")
                }
            }
            (TableStep::Removed, 1) if how == "out of action" => {
                format!("{who} is taken out of action")
            }
            (TableStep::Removed, 1) => format!("{who} is taken off the table ({how_words})"),
            (TableStep::Removed, _) => {
                format!("{who} ({models}) are taken off the table ({how_words})")
            }
        };
        Some((line, run.max(1)))
    }

    /// The same narrator, telling the game as `viewer` sees it.
    pub fn for_viewer(self, viewer: PlayerId) -> Narrator<'a> {
        Narrator {
            viewer: Some(viewer),
            ..self
        }
    }

    /// Whether the viewer may know which card `card` is, from where it is now.
    fn sees_card(&self, state: &GameState, card: CardId) -> bool {
        let Some(zone) = state.zone_of(card) else {
            return false;
        };
        self.sees_zone(state, zone)
    }

    fn sees_zone(&self, state: &GameState, zone: &ZoneId) -> bool {
        match state.zones.get(zone).map(|z| z.visibility) {
            Some(Visibility::Public) => true,
            Some(Visibility::Owner) => self.viewer == Some(zone.owner),
            _ => false,
        }
    }

    fn card_name(&self, state: &GameState, card: CardId) -> String {
        match state.cards.get(&card) {
            Some(c) if self.sees_card(state, card) => c.name.clone(),
            Some(c) => format!("one of {}'s hidden cards", player_name(state, c.owner)),
            None => "a card".to_owned(),
        }
    }

    fn choice(&self, state: &GameState, choice: &Choice) -> String {
        match choice {
            Choice::Piece(piece) => piece_name(state, *piece),
            Choice::Card(card) => self.card_name(state, *card),
            Choice::Hex(hex) => format!("hex {hex}"),
            Choice::Option(text) => words(text),
            Choice::Point(point) => format!(
                "point {}",
                crate::table_text::point_words(*point, self.length_unit())
            ),
            other => words(&other.to_string()),
        }
    }

    fn glory_of(&self, card: &str) -> Option<i64> {
        self.rules?.library().card(card)?.glory
    }

    fn card_kind(&self, card: &str) -> Option<String> {
        Some(self.rules?.library().card(card)?.kind.clone())
    }

    /// The lines for a run of events, read together: a card chosen and then moved from a
    /// hand is one line (`Ann plays Swampspill`), cards drawn one after another are counted,
    /// and the types one hex gains at once are listed on one line.
    pub fn lines(&self, events: &[Event], state: &GameState) -> Vec<String> {
        let mut out = Vec::new();
        let mut index = 0;
        // Fighters whose damage reached their wounds in this run, then those taken off the
        // battlefield after it (their damage is cleared: bookkeeping, not healing).
        let mut dying: BTreeSet<PieceId> = BTreeSet::new();
        let mut gone: BTreeSet<PieceId> = BTreeSet::new();
        while index < events.len() {
            let event = &events[index];
            let next = events.get(index + 1);
            match event {
                Event::CounterChanged {
                    scope: Scope::Piece(piece),
                    name,
                    to,
                    ..
                } if *name == self.names().damage => {
                    let wounds = state.characteristic(*piece, &self.names().wounds);
                    if wounds.is_some_and(|w| *to >= w) {
                        dying.insert(*piece);
                    }
                    if *to == 0 && gone.contains(piece) {
                        index += 1;
                        continue;
                    }
                    out.extend(self.line(event, state));
                }
                Event::PieceMoved {
                    piece,
                    from: Some(_),
                    to: None,
                    ..
                } if dying.contains(piece) => {
                    gone.insert(*piece);
                    out.push(format!(
                        "{} is taken out of action",
                        piece_name(state, *piece)
                    ));
                }
                // A card chosen, then moved out of a hand: the move says it all.
                Event::Decided { answer, .. }
                    if matches!(answer.items().as_slice(), [Choice::Card(_)])
                        && matches!(next, Some(Event::CardMoved { from, .. }) if from.name.ends_with("_hand")) =>
                {
                    let chosen = answer.items().first().copied().cloned();
                    if let (
                        Some(Choice::Card(card)),
                        Some(Event::CardMoved {
                            card: moved,
                            name,
                            from,
                            to,
                            ..
                        }),
                    ) = (chosen, next)
                    {
                        if card == *moved {
                            if let Some(line) = self.card_moved(state, name, from, to, true) {
                                out.push(line);
                            }
                            index += 2;
                            continue;
                        }
                    }
                    out.extend(self.line(event, state));
                }
                Event::HiddenCardMoved { from, to } => {
                    let same = events[index..]
                        .iter()
                        .take_while(|e| matches!(e, Event::HiddenCardMoved { from: f, to: t } if f == from && t == to))
                        .count();
                    if from.name.ends_with("_deck") && to.name.ends_with("_hand") {
                        out.push(format!(
                            "{} draws {} ({})",
                            player_name(state, to.owner),
                            plural(i64::try_from(same).unwrap_or(1), "card", "cards"),
                            words(&to.name)
                        ));
                    }
                    index += same.max(1);
                    continue;
                }
                Event::PieceMoved { .. } if self.table_moves(&events[index..], state).is_some() => {
                    if let Some((line, told)) = self.table_moves(&events[index..], state) {
                        out.push(line);
                        index += told;
                        continue;
                    }
                }
                Event::HexTypeChanged { hex, .. } => {
                    let run: Vec<(&String, bool)> = events[index..]
                        .iter()
                        .map_while(|e| match e {
                            Event::HexTypeChanged {
                                hex: h,
                                name,
                                present,
                            } if h == hex => Some((name, *present)),
                            _ => None,
                        })
                        .collect();
                    let gained: Vec<String> = run
                        .iter()
                        .filter(|(_, p)| *p)
                        .map(|(n, _)| words(n))
                        .collect();
                    let lost: Vec<String> = run
                        .iter()
                        .filter(|(_, p)| !*p)
                        .map(|(n, _)| words(n))
                        .collect();
                    let mut parts = Vec::new();
                    if !gained.is_empty() {
                        parts.push(format!("is now {}", gained.join(", ")));
                    }
                    if !lost.is_empty() {
                        parts.push(format!("is no longer {}", lost.join(", ")));
                    }
                    out.push(format!("hex {hex} {}", parts.join(" and ")));
                    index += run.len().max(1);
                    continue;
                }
                _ => out.extend(self.line(event, state)),
            }
            index += 1;
        }
        out
    }

    /// A line describing `event`, or `None` for bookkeeping a reader does not need.
    pub fn line(&self, event: &Event, state: &GameState) -> Option<String> {
        Some(match event {
            Event::Marker { name, scope, data } => {
                if name != gloam_dsl::SAY {
                    return None;
                }
                let text = data
                    .iter()
                    .find(|(key, _)| key == "text")
                    .and_then(|(_, value)| match value {
                        Value::Str(text) => Some(text.as_str()),
                        _ => None,
                    })?;
                match scope {
                    Scope::Game => text.to_owned(),
                    _ => format!("{} {text}", scope_name(state, *scope)),
                }
            }
            Event::PieceMoved {
                piece,
                from,
                to,
                how,
                ..
            } => {
                if TableStep::of(*from, *to).is_some() {
                    return self
                        .table_moves(std::slice::from_ref(event), state)
                        .map(|(line, _)| line);
                }
                let who = piece_name(state, *piece);
                let how = words(how);
                match (from.and_then(|p| p.hex()), to.and_then(|p| p.hex())) {
                    (None, None) => return None,
                    (_, None) if how == "out of action" => format!("{who} is taken out of action"),
                    (_, None) => format!("{who} is taken off the battlefield ({how})"),
                    (None, Some(to)) => format!("{who} is placed at {to}"),
                    (Some(from), Some(to)) if how == "move" => {
                        format!("{who} moves from {from} to {to}")
                    }
                    (Some(from), Some(to)) if how == "push" => {
                        format!("{who} is pushed from {from} to {to}")
                    }
                    (Some(from), Some(to)) => format!("{who} goes from {from} to {to} ({how})"),
                }
            }
            Event::CounterChanged {
                scope,
                name,
                from,
                to,
            } => self.counter(state, *scope, name, *from, *to)?,
            Event::TokensChanged {
                scope,
                token,
                from,
                to,
            } => {
                let who = scope_name(state, *scope);
                let token = words(token);
                match to - from {
                    0 => return None,
                    1 => format!("{who} gains a {token} token"),
                    n if n > 0 => format!("{who} gains {n} {token} tokens"),
                    _ if *to == 0 => format!("{who} loses its {token} tokens"),
                    n => format!("{who} loses {} {token} tokens", -n),
                }
            }
            Event::KeywordChanged {
                piece,
                keyword,
                present,
            } => {
                // Keywords given at set-up are the fighter's card: not news.
                let placed = state.piece(*piece).is_some_and(|p| p.position.is_some());
                if !placed {
                    return None;
                }
                let who = piece_name(state, *piece);
                let inspired = *keyword == self.names().inspired;
                match (inspired, present) {
                    (true, true) => format!("{who} is inspired"),
                    (true, false) => format!("{who} is no longer inspired"),
                    (false, true) => format!("{who} gains the keyword {}", words(keyword)),
                    (false, false) => format!("{who} loses the keyword {}", words(keyword)),
                }
            }
            Event::HexTypeChanged { hex, name, present } => {
                if *present {
                    format!("hex {hex} is now {}", words(name))
                } else {
                    format!("hex {hex} is no longer {}", words(name))
                }
            }
            Event::CardMoved { name, from, to, .. } => {
                self.card_moved(state, name, from, to, false)?
            }
            Event::HiddenCardMoved { from, to }
                if from.name.ends_with("_deck") && to.name.ends_with("_hand") =>
            {
                format!(
                    "{} draws a card ({})",
                    player_name(state, to.owner),
                    words(&to.name)
                )
            }
            Event::Rolled {
                player,
                purpose,
                dice,
            } => {
                let faces: Vec<String> = dice.iter().map(|d| words(&d.face)).collect();
                let who = player.map_or_else(|| "the game".to_owned(), |p| player_name(state, p));
                // Name the dice (`attack`, `defence`); say what for when it is plain words
                // (not the name of a step of the rules).
                let kind = dice.first().map_or("no", |d| d.die.as_str());
                let why = if purpose.contains('"') || purpose.is_empty() || purpose == kind {
                    String::new()
                } else {
                    format!(" for {purpose}")
                };
                let noun = if dice.len() == 1 { "die" } else { "dice" };
                format!(
                    "{who} rolls {} {} {noun}{why}: {}",
                    dice.len(),
                    words(kind),
                    faces.join(", ")
                )
            }
            Event::Rerolled { before, after, .. } => {
                format!(
                    "a {} die is re-rolled: {} becomes {}",
                    words(&before.die),
                    words(&before.face),
                    words(&after.face)
                )
            }
            Event::Decided {
                player,
                answer,
                kind,
            } if kind == crate::table_text::MOVE_REQUEST => match answer.items().as_slice() {
                // The move that follows tells the rest.
                [Choice::Point(by)] => format!(
                    "{} chooses to move {} {}",
                    player_name(state, *player),
                    crate::table_text::length_words(
                        crate::table_text::offset_length(*by),
                        self.length_unit()
                    ),
                    crate::table_text::direction_words(*by)
                ),
                _ => format!("{} chooses not to move", player_name(state, *player)),
            },
            Event::Decided { player, answer, .. } => {
                let items: Vec<String> = answer
                    .items()
                    .into_iter()
                    .map(|choice| self.choice(state, choice))
                    .collect();
                if items.is_empty() {
                    format!("{} chooses nothing", player_name(state, *player))
                } else {
                    format!(
                        "{} chooses {}",
                        player_name(state, *player),
                        items.join(", ")
                    )
                }
            }
            Event::DecidedHidden { player, .. } => {
                format!("{} answers in secret", player_name(state, *player))
            }
            Event::Revealed { answers } => answers
                .iter()
                .map(|(player, answer)| {
                    let items: Vec<String> = answer
                        .items()
                        .into_iter()
                        .map(|choice| self.choice(state, choice))
                        .collect();
                    format!(
                        "{} reveals {}",
                        player_name(state, *player),
                        items.join(", ")
                    )
                })
                .collect::<Vec<_>>()
                .join("; "),
            Event::GameEnded { result } => {
                let names: Vec<String> = result
                    .winners
                    .iter()
                    .map(|p| player_name(state, *p))
                    .collect();
                let verdict = if result.winners.len() == state.players.len() {
                    "a draw".to_owned()
                } else if names.is_empty() {
                    "nobody wins".to_owned()
                } else {
                    format!("{} wins", names.join(" and "))
                };
                format!("game over: {verdict} ({})", words(&result.reason))
            }
            _ => return None,
        })
    }

    fn counter(
        &self,
        state: &GameState,
        scope: Scope,
        name: &str,
        from: i64,
        to: i64,
    ) -> Option<String> {
        let change = to - from;
        let names = self.names();
        Some(match scope {
            Scope::Game if name == names.round => format!("-- round {to} --"),
            Scope::Player(player) if name == names.glory => {
                let who = player_name(state, player);
                if change >= 0 {
                    format!(
                        "{who} gains {} ({to} in all)",
                        plural(change, "glory point", "glory points")
                    )
                } else {
                    format!(
                        "{who} loses {} ({to} left)",
                        plural(-change, "glory point", "glory points")
                    )
                }
            }
            Scope::Piece(piece) if name == names.damage => {
                let who = piece_name(state, piece);
                let wounds = state
                    .characteristic(piece, &names.wounds)
                    .map_or_else(String::new, |w| format!(" of {w} wounds"));
                if change > 0 {
                    format!(
                        "{who} takes {} ({to}{wounds})",
                        plural(change, "damage", "damage")
                    )
                } else if to == 0 {
                    format!("{who} is healed of all damage")
                } else {
                    format!("{who} is healed of {} ({to}{wounds} left)", -change)
                }
            }
            _ => return None,
        })
    }

    fn card_moved(
        &self,
        state: &GameState,
        name: &str,
        from: &ZoneId,
        to: &ZoneId,
        chosen: bool,
    ) -> Option<String> {
        // The event is the viewer's copy: a card moved between zones they cannot see was
        // redacted into `HiddenCardMoved`. From a hidden zone to a hidden one of theirs (a
        // draw) the viewer is its owner.
        if !self.sees_zone(state, from) && !self.sees_zone(state, to) {
            return None;
        }
        let owner = player_name(state, to.owner);
        let kind = self.card_kind(name);
        let hand = |zone: &ZoneId| zone.name.ends_with("_hand");
        let deck = |zone: &ZoneId| zone.name.ends_with("_deck");
        Some(if to.name == "scored" {
            match self.glory_of(name) {
                Some(glory) => format!(
                    "{owner} scores {name} ({})",
                    plural(glory, "glory point", "glory points")
                ),
                None => format!("{owner} scores {name}"),
            }
        } else if let Some(fighter) = to.piece {
            format!("{} is given {name}", piece_name(state, fighter))
        } else if deck(from) && hand(to) {
            format!("{owner} draws {name}")
        } else if hand(from) && deck(to) {
            format!("{owner} puts {name} back into the {}", words(&to.name))
        } else if hand(from) && to.name == "revealed" {
            format!("{owner} reveals {name}")
        } else if hand(from) && chosen && kind.as_deref() != Some("objective") {
            format!("{owner} plays {name}")
        } else if hand(from) {
            format!("{owner} discards {name}")
        } else if from.piece.is_some() {
            format!("{name} is discarded")
        } else if from.name == to.name {
            return None;
        } else {
            format!(
                "{name} goes from {}'s {} to {}'s {}",
                player_name(state, from.owner),
                words(&from.name),
                owner,
                words(&to.name)
            )
        })
    }
}

/// A change of a model's place on a measured table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TableStep {
    /// Put on the table at a point.
    SetUp(Point),
    /// Moved by an offset, to a point.
    Moved(Point, Point),
    /// Turned in place to face a direction (an offset along which it now faces).
    Turned(Point),
    /// Taken off the table.
    Removed,
}

impl TableStep {
    /// What a placement did to a model on the table (`None` when it did nothing: a move by
    /// no offset that kept the facing tells no line).
    fn of(from: Option<Position>, to: Option<Position>) -> Option<TableStep> {
        match (from, to) {
            (None, Some(Position::Table { at, .. })) => Some(TableStep::SetUp(at)),
            (
                Some(Position::Table { at: a, facing: was }),
                Some(Position::Table { at: b, facing }),
            ) if a == b => {
                (was != facing).then(|| TableStep::Turned(Point::new(facing.0, facing.1)))
            }
            (Some(Position::Table { at: a, .. }), Some(Position::Table { at: b, .. })) => {
                Some(TableStep::Moved(
                    Point::new(b.x.saturating_sub(a.x), b.y.saturating_sub(a.y)),
                    b,
                ))
            }
            (Some(Position::Table { .. }), None) => Some(TableStep::Removed),
            _ => None,
        }
    }

    /// Whether `self` goes on one line with `first`: set-ups together, removals together,
    /// moves by the same offset together.
    fn joins(&self, first: &TableStep) -> bool {
        match (first, self) {
            (TableStep::SetUp(_), TableStep::SetUp(_))
            | (TableStep::Removed, TableStep::Removed) => true,
            (TableStep::Moved(a, _), TableStep::Moved(b, _)) => a == b,
            (TableStep::Turned(a), TableStep::Turned(b)) => a == b,
            _ => false,
        }
    }
}

/// A text drawing of a hex battlefield in play: rows labelled with their `r` and the `q`
/// of their first and last hexes (the coordinates `gloam play` accepts for a hex), a glyph
/// for each hex type the data gives the battlefield (printed on its boards or given in play,
/// as feature tokens and their sides are), fighters as a short label (`A1`: the first
/// player's first fighter), and a legend.
#[derive(Debug)]
pub struct Board {
    /// The drawing, one line per row of hexes.
    pub drawing: String,
    /// The glyph of each hex type, in the order the ruleset declares the types.
    pub glyphs: Vec<(String, char)>,
    /// Each fighter's label.
    pub labels: BTreeMap<PieceId, String>,
}

/// The glyph of blocked hexes (and of a type named `blocked` when the data has one).
const BLOCKED: char = '#';

impl Board {
    /// Draws the battlefield `rules` plays on in `state`.
    pub fn of(rules: &RulesetGame, state: &GameState) -> Board {
        let hexes: BTreeSet<Hex> = rules.battlefield_in(state).hexes().collect();
        let types = rules.hex_types_in(state);
        // The types in the ruleset's order, then any the battlefield has that it does not
        // declare.
        let order = rules.hex_type_order(&types);
        let present: BTreeSet<&String> = types.values().flatten().collect();
        let glyphs = assign_glyphs(order.iter().filter(|t| present.contains(t)));
        let labels = labels(state);
        let drawing = draw(&hexes, &types, &glyphs, &labels, state);
        Board {
            drawing,
            glyphs,
            labels,
        }
    }

    /// Draws `hexes` (a battlefield without a ruleset game around it, as `gloam try` has):
    /// `blocked` ones, the types given in play in `state`, and `edge` for a hex with fewer
    /// than six neighbours among `hexes`.
    pub fn of_hexes(hexes: &BTreeSet<Hex>, blocked: &BTreeSet<Hex>, state: &GameState) -> Board {
        let mut types: BTreeMap<Hex, BTreeSet<String>> = BTreeMap::new();
        for hex in hexes {
            let entry = types.entry(*hex).or_default();
            if blocked.contains(hex) {
                entry.insert("blocked".to_owned());
            }
            if hex.neighbors().iter().any(|n| !hexes.contains(n)) {
                entry.insert("edge".to_owned());
            }
        }
        for (hex, name) in state.hex_types.iter() {
            types.entry(*hex).or_default().insert(name.clone());
        }
        let mut order = vec!["blocked".to_owned(), "edge".to_owned()];
        for set in types.values() {
            for name in set {
                if !order.contains(name) {
                    order.push(name.clone());
                }
            }
        }
        let present: BTreeSet<&String> = types.values().flatten().collect();
        let glyphs = assign_glyphs(order.iter().filter(|t| present.contains(t)));
        let labels = labels(state);
        let drawing = draw(hexes, &types, &glyphs, &labels, state);
        Board {
            drawing,
            glyphs,
            labels,
        }
    }

    /// The legend: each glyph and its hex type, then the fighters' labels.
    pub fn legend(&self, state: &GameState) -> String {
        let mut out = String::from("legend: .  an empty hex");
        for (name, glyph) in &self.glyphs {
            let _ = write!(out, "   {glyph}  {}", words(name));
        }
        out.push('\n');
        let mut by_owner: BTreeMap<PlayerId, Vec<String>> = BTreeMap::new();
        for (piece, label) in &self.labels {
            if let Some(p) = state.piece(*piece) {
                by_owner
                    .entry(p.owner)
                    .or_default()
                    .push(format!("{label} {}", p.kind));
            }
        }
        for (owner, fighters) in by_owner {
            let _ = writeln!(
                out,
                "        {}: {}",
                player_name(state, owner),
                fighters.join(", ")
            );
        }
        out
    }
}

/// One lowercase letter for each type (the first letter of its name not taken yet, else
/// any free letter), `#` for `blocked`.
fn assign_glyphs<'t>(types: impl Iterator<Item = &'t String>) -> Vec<(String, char)> {
    let mut taken: BTreeSet<char> = BTreeSet::new();
    let mut out = Vec::new();
    for name in types {
        let glyph = if name == "blocked" {
            BLOCKED
        } else {
            name.chars()
                .filter(char::is_ascii_alphabetic)
                .map(|c| c.to_ascii_lowercase())
                .chain('a'..='z')
                .find(|c| !taken.contains(c))
                .unwrap_or('?')
        };
        taken.insert(glyph);
        out.push((name.clone(), glyph));
    }
    out
}

/// `A1`, `A2`... for the first player's fighters in the order they entered the game, `B1`...
/// for the second's.
fn labels(state: &GameState) -> BTreeMap<PieceId, String> {
    let mut count: BTreeMap<PlayerId, usize> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for piece in state.pieces.values().filter(|p| p.layer.is_empty()) {
        let n = count.entry(piece.owner).or_default();
        *n += 1;
        out.insert(
            piece.id,
            format!("{}{}", char::from(b'A' + (piece.owner.0 % 26)), *n % 10),
        );
    }
    out
}

/// The hexes on screen: each cell is three characters, four apart in a row, each row
/// shifted two to the right of the one above for each step of `r` (pointy-top axial).
fn draw(
    hexes: &BTreeSet<Hex>,
    types: &BTreeMap<Hex, BTreeSet<String>>,
    glyphs: &[(String, char)],
    labels: &BTreeMap<PieceId, String>,
    state: &GameState,
) -> String {
    let Some(min_r) = hexes.iter().map(|h| h.r).min() else {
        return String::new();
    };
    let max_r = hexes.iter().map(|h| h.r).max().unwrap_or(min_r);
    let min_x = hexes.iter().map(|h| 2 * h.q + h.r).min().unwrap_or(0);
    let glyph_of = |hex: &Hex| -> String {
        let set = types.get(hex);
        glyphs
            .iter()
            .filter(|(name, _)| set.is_some_and(|s| s.contains(name)))
            .map(|(_, glyph)| *glyph)
            .collect()
    };
    let mut rows = Vec::new();
    for r in min_r..=max_r {
        let mut row: Vec<(i32, String)> = hexes
            .iter()
            .filter(|h| h.r == r)
            .map(|h| {
                let marks = glyph_of(h);
                let cell = if let Some(label) = state.piece_on(*h).and_then(|p| labels.get(&p)) {
                    // A fighter, and the first of its hex's marks.
                    format!("{label}{}", marks.chars().next().unwrap_or(' '))
                } else if marks.is_empty() {
                    ".".to_owned()
                } else {
                    marks.chars().take(3).collect()
                };
                (2 * h.q + h.r - min_x, cell)
            })
            .collect();
        row.sort();
        let first_q = hexes.iter().filter(|h| h.r == r).map(|h| h.q).min();
        let last_q = hexes.iter().filter(|h| h.r == r).map(|h| h.q).max();
        let label = match (first_q, last_q) {
            (Some(a), Some(b)) => format!("r{r:<3} q{a}..{b}"),
            _ => format!("r{r:<3}"),
        };
        let mut line = String::new();
        for (x, cell) in row {
            let column = usize::try_from(x).unwrap_or(0) * 2;
            while line.len() < column {
                line.push(' ');
            }
            line.push_str(&cell);
        }
        rows.push((label, line.trim_end().to_owned()));
    }
    let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (label, line) in rows {
        let _ = writeln!(out, "{label:<width$} | {line}");
    }
    out
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
