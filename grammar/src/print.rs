//! The printer: typed definitions → canonical `.gloam` text.
//!
//! Canonical form: four-space indentation; fields in the schema's order, then nested items,
//! separated by a blank line; lists on one line unless longer than 96 columns, then one
//! element per line with a trailing comma. Script text is printed exactly as read (it is the
//! script host's, and its byte positions are kept), so it keeps its own indentation.
//! Comments outside scripts are not kept: they are not part of the definitions.

use std::fmt;

use crate::defs::{
    AbilityDef, Amount, AreaDef, ArmyDef, BoardDef, CardDef, DecklistDef, FighterDef, KeywordDef,
    Owner, PointDef, Quantity, Restriction, RulesetDef, ScriptDef, StatDef, TableDef, WarbandDef,
    WeaponDef,
};
use crate::party::{PartyDef, RosterDef};

const WIDTH: usize = 96;
const INDENT: &str = "    ";

/// Quotes and escapes a string; newlines stay literal so card text and layouts stay readable.
pub(crate) fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push('\n'),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A legend key as written: a bare letter, otherwise a quoted string.
pub(crate) fn quote_key(symbol: char) -> String {
    if symbol.is_ascii_alphabetic() {
        symbol.to_string()
    } else {
        quote(&symbol.to_string())
    }
}

struct Out {
    text: String,
    depth: usize,
    /// Whether the current block has had a line yet (for blank lines before items).
    block_has_lines: bool,
}

impl Out {
    fn new() -> Out {
        Out {
            text: String::new(),
            depth: 0,
            block_has_lines: false,
        }
    }

    fn indent(&self) -> String {
        INDENT.repeat(self.depth)
    }

    fn line(&mut self, line: &str) {
        let indent = self.indent();
        self.text.push_str(&indent);
        self.text.push_str(line);
        self.text.push('\n');
        self.block_has_lines = true;
    }

    fn open(&mut self, kind: &str, name: &str) {
        if self.block_has_lines {
            self.text.push('\n');
        }
        self.line(&format!("{kind} {} {{", quote(name)));
        self.depth += 1;
        self.block_has_lines = false;
    }

    fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.line("}");
    }

    fn raw(&mut self, key: &str, value: &str) {
        self.line(&format!("{key} = {value}"));
    }

    fn string(&mut self, key: &str, value: &str) {
        self.raw(key, &quote(value));
    }

    fn opt_string(&mut self, key: &str, value: Option<&String>) {
        if let Some(value) = value {
            self.string(key, value);
        }
    }

    fn opt_int(&mut self, key: &str, value: Option<i64>) {
        if let Some(value) = value {
            self.raw(key, &value.to_string());
        }
    }

    fn opt_bool(&mut self, key: &str, value: Option<bool>) {
        if let Some(value) = value {
            self.raw(key, if value { "true" } else { "false" });
        }
    }

    fn opt_name(&mut self, key: &str, value: Option<&String>) {
        if let Some(value) = value {
            self.raw(key, value);
        }
    }

    fn script(&mut self, key: &str, script: Option<&ScriptDef>) {
        if let Some(script) = script {
            // Verbatim: `key = {` + text + `}`, the text's own newlines included.
            let indent = self.indent();
            self.text
                .push_str(&format!("{indent}{key} = {{{}}}\n", script.text));
            self.block_has_lines = true;
        }
    }

    fn list(&mut self, key: &str, elements: &[String]) {
        if elements.is_empty() {
            return;
        }
        let one_line = format!("{key} = [{}]", elements.join(", "));
        if self.indent().len() + one_line.len() <= WIDTH {
            self.line(&one_line);
            return;
        }
        self.line(&format!("{key} = ["));
        self.depth += 1;
        for element in elements {
            self.line(&format!("{element},"));
        }
        self.depth -= 1;
        self.line("]");
    }

    fn names(&mut self, key: &str, names: &[String]) {
        self.list(key, names);
    }

    fn stats(&mut self, key: &str, stats: &[StatDef]) {
        let elements: Vec<String> = stats
            .iter()
            .map(|stat| format!("{}: {}", stat.name, stat.value))
            .collect();
        self.list(key, &elements);
    }

    fn tags(&mut self, key: &str, tags: &[KeywordDef]) {
        let elements: Vec<String> = tags
            .iter()
            .map(|tag| match tag.value {
                Some(value) => format!("{}: {value}", tag.name),
                None => tag.name.clone(),
            })
            .collect();
        self.list(key, &elements);
    }
}

fn ruleset(out: &mut Out, def: &RulesetDef) {
    out.open("ruleset", &def.name);
    out.opt_string("extends", def.extends.as_ref());
    out.string("title", &def.title);
    out.opt_string("about", def.about.as_ref());
    out.opt_int("rounds", def.rounds);
    out.opt_int("min_players", def.min_players);
    out.opt_int("max_players", def.max_players);
    out.opt_bool("off_board_blocks_sight", def.off_board_blocks_sight);
    out.names("ours", &def.ours);
    out.names("hex_types", &def.hex_types);
    out.names("tokens", &def.tokens);
    out.names("counters", &def.counters);
    out.names("keywords", &def.keywords);
    out.names("card_kinds", &def.card_kinds);
    out.names("score_timings", &def.score_timings);
    out.names("alliances", &def.alliances);
    let zones: Vec<String> = def
        .zones
        .iter()
        .map(|zone| format!("{}: {}", zone.name, zone.visibility_name()))
        .collect();
    out.list("zones", &zones);
    out.opt_name("unit", def.unit.as_ref());
    out.names("weapon_abilities", &def.weapon_abilities);
    out.names("flags", &def.flags);
    out.names("terrain_kinds", &def.terrain_kinds);
    out.names("terrain_rules", &def.terrain_rules);
    out.names("frequencies", &def.frequencies);
    let choices: Vec<String> = def
        .army_choices
        .iter()
        .map(|choice| format!("{}: {}", choice.name, choice.max))
        .collect();
    out.list("army_choices", &choices);
    let removals: Vec<String> = def
        .remove
        .iter()
        .map(|removal| {
            if removal.part.is_item() {
                format!("{}: {}", removal.part.name(), quote(&removal.name))
            } else {
                format!("{}: {}", removal.part.name(), removal.name)
            }
        })
        .collect();
    out.list("remove", &removals);
    out.script("setup", def.setup.as_ref());
    out.script("scoring", def.scoring.as_ref());
    out.script("victory", def.victory.as_ref());
    for characteristic in &def.characteristics {
        out.open("characteristic", &characteristic.name);
        out.opt_string("about", characteristic.about.as_ref());
        out.opt_int("floor", characteristic.floor);
        out.opt_name("dice", characteristic.dice.as_ref());
        if characteristic.length {
            out.raw("length", "true");
        }
        if characteristic.required {
            out.raw("required", "true");
        }
        out.names("ours", &characteristic.ours);
        out.close();
    }
    for die in &def.dice {
        out.open("die", &die.name);
        out.opt_string("about", die.about.as_ref());
        let faces: Vec<String> = die
            .faces
            .iter()
            .map(|face| format!("{}: {}", face.name, face.count))
            .collect();
        if let Some(sides) = die.sides {
            out.raw("sides", &sides.to_string());
        } else if faces.is_empty() {
            out.raw("faces", "[]");
        } else {
            out.list("faces", &faces);
        }
        let values: Vec<String> = die
            .values
            .iter()
            .map(|face| format!("{}: {}", face.name, face.count))
            .collect();
        // A numbered die's values are its pips, written by `sides`.
        if !values.is_empty() && die.sides.is_none() {
            out.list("values", &values);
        }
        out.close();
    }
    for window in &def.windows {
        out.open("window", &window.name);
        out.opt_string("about", window.about.as_ref());
        if !window.gives.is_empty() {
            out.names("gives", &window.gives);
        }
        if !window.optional.is_empty() {
            out.names("optional", &window.optional);
        }
        out.close();
    }
    for step in &def.steps {
        out.open("step", &step.name);
        out.opt_string("about", step.about.as_ref());
        out.script("run", Some(&step.run));
        out.close();
    }
    for action in &def.actions {
        out.open("action", &action.name);
        out.opt_string("about", action.about.as_ref());
        out.script("condition", action.condition.as_ref());
        out.script("run", Some(&action.run));
        out.close();
    }
    for invariant in &def.invariants {
        out.open("invariant", &invariant.name);
        out.opt_string("about", Some(&invariant.about));
        out.script("holds", Some(&invariant.holds));
        out.close();
    }
    for battlefield in &def.battlefields {
        out.open("battlefield", &battlefield.name);
        out.opt_string("about", battlefield.about.as_ref());
        out.opt_int("players", Some(battlefield.players));
        out.opt_int("min_completed", battlefield.min_completed);
        for (index, seat) in battlefield.seats.iter().enumerate() {
            let pairs = [
                format!("turn: {}", seat.turn),
                format!("q: {}", seat.q),
                format!("r: {}", seat.r),
            ];
            out.list(&format!("seat_{}", index + 1), &pairs);
        }
        out.close();
    }
    for deck in &def.decks {
        out.open("deck", &deck.name);
        out.opt_string("about", deck.about.as_ref());
        if deck.kinds.is_empty() {
            out.raw("kinds", "[]");
        } else {
            out.names("kinds", &deck.kinds);
        }
        out.opt_int("min_size", deck.min_size);
        out.opt_int("max_size", deck.max_size);
        let limits: Vec<String> = deck
            .limits
            .iter()
            .map(|limit| format!("{}: {}", limit.name, limit.max))
            .collect();
        out.list("limits", &limits);
        out.names("max_half", &deck.max_half);
        out.names("balanced", &deck.balanced);
        out.opt_bool("unique_names", deck.unique_names);
        out.close();
    }
    for def in &def.abilities {
        ability(out, def);
    }
    for constant in &def.constants {
        out.open("constant", &constant.name);
        out.opt_string("about", constant.about.as_ref());
        match constant.value {
            Quantity::Length(length) => out.raw("length", &length.to_string()),
            Quantity::Number(number) => out.raw("number", &number.to_string()),
        }
        out.opt_string("source", constant.source.as_ref());
        out.opt_name("confidence", constant.confidence.as_ref());
        out.close();
    }
    out.close();
}

fn board(out: &mut Out, def: &BoardDef) {
    out.open("board", &def.name);
    out.string("ruleset", &def.ruleset);
    out.opt_string("about", def.about.as_ref());
    out.string("layout", &def.layout);
    let legend: Vec<String> = def
        .legend
        .iter()
        .map(|entry| {
            let key = quote_key(entry.symbol);
            let mut values = entry.types.clone();
            if entry.half {
                values.insert(0, crate::build::HALF.to_string());
            }
            match values.as_slice() {
                [one] => format!("{key}: {one}"),
                _ => format!("{key}: [{}]", values.join(", ")),
            }
        })
        .collect();
    out.list("legend", &legend);
    out.close();
}

fn side(out: &mut Out, side: Option<crate::defs::Side>) {
    if let Some(side) = side {
        out.raw("side", side.name());
    }
}

fn weapon(out: &mut Out, def: &WeaponDef) {
    out.open("weapon", &def.name);
    side(out, def.side);
    out.opt_name("die", def.die.as_ref());
    out.raw("range", &def.range.to_string());
    out.raw("dice", &def.dice.to_string());
    out.raw("symbol", &def.symbol);
    out.raw("damage", &def.damage.to_string());
    out.tags("keywords", &def.keywords);
    out.stats("inspired", &def.inspired);
    out.tags("inspired_keywords", &def.inspired_keywords);
    out.opt_string("text", def.text.as_ref());
    out.names("uncertain", &def.uncertain);
    out.close();
}

fn ability(out: &mut Out, def: &AbilityDef) {
    out.open("ability", &def.name);
    side(out, def.side);
    if def.reaction {
        out.raw("reaction", "true");
    }
    out.opt_name("window", def.window.as_ref());
    out.opt_string("text", def.text.as_ref());
    out.script("condition", def.condition.as_ref());
    out.script("effect", def.effect.as_ref());
    out.names("keywords", &def.keywords);
    out.opt_name("frequency", def.frequency.as_ref());
    out.opt_name("choice", def.choice.as_ref());
    out.opt_string("source", def.source.as_ref());
    out.close();
}

/// A number bare, a roll as a string: `2`, `"D3"`.
fn amount(out: &mut Out, key: &str, amount: &Amount) {
    match amount {
        Amount::Fixed(number) => out.raw(key, &number.to_string()),
        Amount::Roll { .. } => out.string(key, &amount.to_string()),
    }
}

fn point(point: &PointDef) -> String {
    format!("[{}, {}]", point.x, point.y)
}

fn points(points: &[PointDef]) -> Vec<String> {
    points.iter().map(point).collect()
}

fn army(out: &mut Out, def: &ArmyDef) {
    out.open("army", &def.name);
    out.string("ruleset", &def.ruleset);
    out.opt_name("alliance", def.alliance.as_ref());
    out.opt_string("faction", def.faction.as_ref());
    out.opt_string("general", def.general.as_ref());
    out.opt_string("about", def.about.as_ref());
    out.opt_string("source", def.source.as_ref());
    for warscroll in &def.warscrolls {
        out.open("warscroll", &warscroll.name);
        out.opt_int("units", Some(warscroll.units));
        out.opt_int("models", Some(warscroll.models));
        out.raw("base", &warscroll.base.to_string());
        let stats: Vec<String> = warscroll
            .stats
            .iter()
            .map(|stat| format!("{}: {}", stat.name, stat.value))
            .collect();
        if stats.is_empty() {
            out.raw("stats", "[]");
        } else {
            out.list("stats", &stats);
        }
        out.names("keywords", &warscroll.keywords);
        out.opt_string("text", warscroll.text.as_ref());
        out.names("uncertain", &warscroll.uncertain);
        out.opt_string("source", warscroll.source.as_ref());
        for weapon in &warscroll.weapons {
            out.open("weapon", &weapon.name);
            if let Some(range) = weapon.range {
                out.raw("range", &range.to_string());
            }
            amount(out, "attacks", &weapon.attacks);
            out.raw("hit", &weapon.hit.to_string());
            out.raw("wound", &weapon.wound.to_string());
            out.raw("rend", &weapon.rend.to_string());
            amount(out, "damage", &weapon.damage);
            let abilities: Vec<String> = weapon
                .abilities
                .iter()
                .map(|ability| match &ability.value {
                    Some(value) => format!("{}: {value}", ability.name),
                    None => ability.name.clone(),
                })
                .collect();
            out.list("abilities", &abilities);
            out.opt_string("text", weapon.text.as_ref());
            out.names("uncertain", &weapon.uncertain);
            out.close();
        }
        for def in &warscroll.abilities {
            ability(out, def);
        }
        out.close();
    }
    for def in &def.abilities {
        ability(out, def);
    }
    out.close();
}

fn table(out: &mut Out, def: &TableDef) {
    out.open("table", &def.name);
    out.string("ruleset", &def.ruleset);
    out.opt_string("about", def.about.as_ref());
    out.raw("width", &def.width.to_string());
    out.raw("depth", &def.depth.to_string());
    out.opt_string("source", def.source.as_ref());
    for map in &def.maps {
        out.open("map", &map.name);
        out.opt_string("about", map.about.as_ref());
        out.opt_string("source", map.source.as_ref());
        out.opt_int("min_players", map.min_players);
        out.opt_int("max_players", map.max_players);
        for territory in &map.territories {
            out.open("territory", &territory.name);
            out.opt_string("about", territory.about.as_ref());
            match &territory.area {
                AreaDef::Outline(corners) => out.list("outline", &points(corners)),
                AreaDef::Rect(a, b) => out.list("rect", &[point(a), point(b)]),
            }
            out.close();
        }
        for objective in &map.objectives {
            out.open("objective", &objective.name);
            out.opt_string("about", objective.about.as_ref());
            out.raw("at", &point(&objective.at));
            out.close();
        }
        out.close();
    }
    for terrain in &def.terrain {
        out.open("terrain", &terrain.name);
        out.raw("kind", &terrain.kind);
        out.names("rules", &terrain.rules);
        out.list("outline", &points(&terrain.outline));
        out.raw("height", &terrain.height.to_string());
        out.opt_string("about", terrain.about.as_ref());
        out.opt_string("source", terrain.source.as_ref());
        for part in &terrain.parts {
            out.open("part", &part.name);
            out.list("outline", &points(&part.outline));
            out.raw("height", &part.height.to_string());
            out.close();
        }
        out.close();
    }
    out.close();
}

fn fighter(out: &mut Out, def: &FighterDef) {
    out.open("fighter", &def.name);
    out.names("keywords", &def.keywords);
    if def.stats.is_empty() {
        out.raw("stats", "[]");
    } else {
        out.stats("stats", &def.stats);
    }
    out.stats("inspired", &def.inspired);
    let symbols: Vec<String> = def
        .symbols
        .iter()
        .map(|symbol| format!("{}: {}", symbol.characteristic, symbol.face))
        .collect();
    out.list("symbols", &symbols);
    out.script("inspire", def.inspire.as_ref());
    out.script("uninspire", def.uninspire.as_ref());
    out.opt_string("text", def.text.as_ref());
    out.names("uncertain", &def.uncertain);
    out.opt_string("source", def.source.as_ref());
    for def in &def.weapons {
        weapon(out, def);
    }
    for def in &def.abilities {
        ability(out, def);
    }
    out.close();
}

fn warband(out: &mut Out, def: &WarbandDef) {
    out.open("warband", &def.name);
    out.string("ruleset", &def.ruleset);
    out.raw("alliance", &def.alliance);
    out.opt_string("faction", def.faction.as_ref());
    out.opt_string("about", def.about.as_ref());
    out.opt_string("source", def.source.as_ref());
    for def in &def.fighters {
        fighter(out, def);
    }
    out.close();
}

fn card(out: &mut Out, def: &CardDef) {
    out.open("card", &def.name);
    out.string("ruleset", &def.ruleset);
    out.raw("kind", &def.kind);
    let owner = match &def.owner {
        Owner::Warband(name) => quote(name),
        Owner::Universal => "universal".to_string(),
        Owner::Alliance(name) => name.clone(),
    };
    out.raw("owner", &owner);
    out.opt_int("number", def.number);
    out.opt_int("glory", def.glory);
    out.opt_int("cost", def.cost);
    let casting: Vec<String> = def
        .casting_value
        .iter()
        .map(|face| format!("{}: {}", face.name, face.count))
        .collect();
    out.list("casting_value", &casting);
    out.names("keywords", &def.keywords);
    let restrictions: Vec<String> = def
        .restrictions
        .iter()
        .map(|restriction| match restriction {
            Restriction::Fighter(name) => format!("fighter: {}", quote(name)),
            Restriction::Keyword(name) => format!("keyword: {name}"),
        })
        .collect();
    out.list("restrictions", &restrictions);
    out.opt_name("window", def.window.as_ref());
    out.opt_name("score", def.score.as_ref());
    out.opt_string("command", def.command.as_ref());
    if def.persist {
        out.raw("persist", "true");
    }
    out.opt_string("text", def.text.as_ref());
    out.script("condition", def.condition.as_ref());
    out.script("effect", def.effect.as_ref());
    out.names("uncertain", &def.uncertain);
    out.opt_string("source", def.source.as_ref());
    for def in &def.weapons {
        weapon(out, def);
    }
    out.close();
}

fn decklist(out: &mut Out, def: &DecklistDef) {
    out.open("decklist", &def.name);
    out.string("ruleset", &def.ruleset);
    out.opt_string("warband", def.warband.as_ref());
    out.opt_string("party", def.party.as_ref());
    out.opt_string("about", def.about.as_ref());
    out.opt_string("source", def.source.as_ref());
    for deck in &def.decks {
        out.open("deck", &deck.name);
        if deck.cards.is_empty() {
            out.raw("cards", "[]");
        } else {
            let cards: Vec<String> = deck.cards.iter().map(|card| quote(card)).collect();
            out.list("cards", &cards);
        }
        out.close();
    }
    out.close();
}

fn quoted(names: &[String]) -> Vec<String> {
    names.iter().map(|name| quote(name)).collect()
}

fn pairs(items: &[(String, i64)]) -> Vec<String> {
    items
        .iter()
        .map(|(name, value)| format!("{name}: {value}"))
        .collect()
}

fn flag(out: &mut Out, key: &str, value: bool) {
    if value {
        out.raw(key, "true");
    }
}

fn roster(out: &mut Out, def: &RosterDef) {
    out.open("roster", &def.name);
    out.string("ruleset", &def.ruleset);
    out.names("equipment_kinds", &def.equipment_kinds);
    out.names("weapon_kinds", &def.weapon_kinds);
    out.names("ranged_kinds", &def.ranged_kinds);
    out.names("item_kinds", &def.item_kinds);
    out.names("one_hero_rules", &def.one_hero_rules);
    out.names("locations", &def.locations);
    out.opt_string("about", def.about.as_ref());
    out.opt_string("source", def.source.as_ref());
    for race in &def.races {
        out.open("race", &race.name);
        let stats: Vec<String> = race
            .stats
            .iter()
            .map(|stat| format!("{}: {}", stat.name, stat.value))
            .collect();
        if stats.is_empty() {
            out.raw("stats", "[]");
        } else {
            out.list("stats", &stats);
        }
        out.raw("cost", &race.cost.to_string());
        if race.alignments.is_empty() {
            out.raw("alignments", "[]");
        } else {
            out.names("alignments", &race.alignments);
        }
        out.names("keywords", &race.keywords);
        if let Some(base) = race.base {
            out.raw("base", &base.to_string());
        }
        out.opt_string("text", race.text.as_ref());
        out.names("uncertain", &race.uncertain);
        out.opt_string("source", race.source.as_ref());
        for sub in &race.subraces {
            out.open("subrace", &sub.name);
            out.names("alignments", &sub.alignments);
            out.list("bans", &quoted(&sub.bans));
            out.names("keywords", &sub.keywords);
            out.opt_string("text", sub.text.as_ref());
            out.names("uncertain", &sub.uncertain);
            out.opt_string("source", sub.source.as_ref());
            for def in &sub.abilities {
                ability(out, def);
            }
            out.close();
        }
        for def in &race.abilities {
            ability(out, def);
        }
        out.close();
    }
    for p in &def.professions {
        out.open("profession", &p.name);
        out.raw("cost", &p.cost.to_string());
        flag(out, "leader", p.leader);
        flag(out, "mage", p.mage);
        if p.domains != 0 {
            out.raw("domains", &p.domains.to_string());
        }
        if p.spells != 0 {
            out.raw("spells", &p.spells.to_string());
        }
        out.opt_string("spells_from", p.spells_from.as_ref());
        out.list("races", &quoted(&p.races));
        out.names("alignments", &p.alignments);
        flag(out, "not_leader", p.not_leader);
        out.opt_int("per_party", p.per_party);
        flag(out, "plain_extra_weapon", p.plain_extra_weapon);
        out.opt_int("items", p.items);
        out.opt_int("matching_weapon_divisor", p.matching_weapon_divisor);
        out.names("keywords", &p.keywords);
        out.opt_string("text", p.text.as_ref());
        out.names("uncertain", &p.uncertain);
        out.opt_string("source", p.source.as_ref());
        for (race, cost) in &p.prices {
            out.open("price", race);
            out.raw("cost", &cost.to_string());
            out.close();
        }
        for def in &p.abilities {
            ability(out, def);
        }
        out.close();
    }
    for g in &def.guilds {
        out.open("guild", &g.name);
        out.list("leader", &quoted(&g.leader));
        out.list("members", &quoted(&g.members));
        if g.members_needed != 0 {
            out.raw("members_needed", &g.members_needed.to_string());
        }
        flag(out, "mage_needed", g.mage_needed);
        flag(out, "ranged_round_up", g.ranged_round_up);
        if g.extra_points_percent != 0 {
            out.raw("extra_points_percent", &g.extra_points_percent.to_string());
        }
        if g.leader_spells != 0 {
            out.raw("leader_spells", &g.leader_spells.to_string());
        }
        out.names("forbids", &g.forbids);
        out.opt_string("text", g.text.as_ref());
        out.opt_string("source", g.source.as_ref());
        for def in &g.abilities {
            ability(out, def);
        }
        out.close();
    }
    for a in &def.alignments {
        out.open("alignment", &a.name);
        out.opt_string("resource", a.resource.as_ref());
        out.opt_string("text", a.text.as_ref());
        out.opt_string("source", a.source.as_ref());
        for def in &a.abilities {
            ability(out, def);
        }
        out.close();
    }
    for e in &def.equipment {
        out.open("equipment", &e.name);
        out.raw("kind", &e.kind);
        out.raw("cost", &e.cost.to_string());
        out.list("strikes", &pairs(&e.strikes));
        out.tags("rules", &e.rules);
        out.opt_int("damage", e.damage);
        if let Some(range) = e.range {
            out.raw("range", &range.to_string());
        }
        out.list("min_stats", &pairs(&e.min_stats));
        out.names("excludes", &e.excludes);
        out.list("races", &quoted(&e.races));
        out.list("professions", &quoted(&e.professions));
        out.list("guilds", &quoted(&e.guilds));
        out.names("not_for", &e.not_for);
        out.list("not_with", &quoted(&e.not_with));
        flag(out, "heavy", e.heavy);
        out.opt_name("location", e.location.as_ref());
        out.opt_int("save", e.save);
        flag(out, "one_use", e.one_use);
        out.opt_int("per_party", e.per_party);
        out.opt_string("text", e.text.as_ref());
        out.names("uncertain", &e.uncertain);
        out.opt_string("source", e.source.as_ref());
        out.close();
    }
    for d in &def.domains {
        out.open("domain", &d.name);
        out.opt_name("alignment", d.alignment.as_ref());
        out.opt_string("text", d.text.as_ref());
        out.opt_string("source", d.source.as_ref());
        for spell in &d.spells {
            out.open("spell", &spell.name);
            out.opt_int("chance", spell.chance);
            if let Some(range) = spell.range {
                out.raw("range", &range.to_string());
            }
            out.opt_name("reach", spell.reach.as_ref());
            out.opt_int("wounds", spell.wounds);
            out.string("text", &spell.text);
            out.names("uncertain", &spell.uncertain);
            out.opt_string("source", spell.source.as_ref());
            for c in &spell.creatures {
                out.open("creature", &c.name);
                if c.form != "summoned" {
                    out.raw("form", &c.form);
                }
                if c.count != 1 {
                    out.raw("count", &c.count.to_string());
                }
                let stats: Vec<String> = c
                    .stats
                    .iter()
                    .map(|stat| format!("{}: {}", stat.name, stat.value))
                    .collect();
                out.list("stats", &stats);
                out.names("keep", &c.keep);
                flag(out, "flying", c.flying);
                out.names("keywords", &c.keywords);
                out.opt_string("weapon", c.weapon.as_ref());
                out.list("strikes", &pairs(&c.strikes));
                out.names("strike_types", &c.strike_types);
                out.opt_string("text", c.text.as_ref());
                out.names("uncertain", &c.uncertain);
                out.opt_string("source", c.source.as_ref());
                out.close();
            }
            out.close();
        }
        out.close();
    }
    for c in &def.charts {
        out.open("chart", &c.name);
        out.raw("dice", &c.dice.to_string());
        out.opt_string("text", c.text.as_ref());
        out.opt_string("source", c.source.as_ref());
        for r in &c.results {
            out.open("result", &r.name);
            out.raw("roll", &r.roll.to_string());
            out.string("text", &r.text);
            out.opt_string("source", r.source.as_ref());
            out.close();
        }
        out.close();
    }
    for b in &def.battlegrounds {
        out.open("battleground", &b.name);
        out.opt_string("text", b.text.as_ref());
        out.opt_string("source", b.source.as_ref());
        out.close();
    }
    out.close();
}

fn party(out: &mut Out, def: &PartyDef) {
    out.open("party", &def.name);
    out.string("ruleset", &def.ruleset);
    out.string("roster", &def.roster);
    out.raw("alignment", &def.alignment);
    out.raw("points", &def.points.to_string());
    out.opt_string("guild", def.guild.as_ref());
    out.opt_string("about", def.about.as_ref());
    out.opt_string("source", def.source.as_ref());
    for hero in &def.heroes {
        out.open("hero", &hero.name);
        out.string("race", &hero.race);
        out.opt_string("subrace", hero.subrace.as_ref());
        out.string("profession", &hero.profession);
        flag(out, "leader", hero.leader);
        out.list("equipment", &quoted(&hero.equipment));
        out.list("domains", &quoted(&hero.domains));
        out.list("spells", &quoted(&hero.spells));
        out.close();
    }
    out.close();
}

macro_rules! display {
    ($type:ty, $printer:ident) => {
        /// Prints the canonical `.gloam` text of the definition.
        impl fmt::Display for $type {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut out = Out::new();
                $printer(&mut out, self);
                f.write_str(&out.text)
            }
        }
    };
}

display!(RulesetDef, ruleset);
display!(BoardDef, board);
display!(WarbandDef, warband);
display!(CardDef, card);
display!(DecklistDef, decklist);
display!(ArmyDef, army);
display!(TableDef, table);
display!(RosterDef, roster);
display!(PartyDef, party);

/// Prints definitions one after another, separated by blank lines.
pub(crate) fn print_all<'a>(
    rulesets: impl Iterator<Item = &'a RulesetDef>,
    boards: impl Iterator<Item = &'a BoardDef>,
    warbands: impl Iterator<Item = &'a WarbandDef>,
    cards: impl Iterator<Item = &'a CardDef>,
    decklists: impl Iterator<Item = &'a DecklistDef>,
    armies: impl Iterator<Item = &'a ArmyDef>,
    tables: impl Iterator<Item = &'a TableDef>,
) -> String {
    let mut out = Out::new();
    for def in rulesets {
        ruleset(&mut out, def);
    }
    for def in boards {
        board(&mut out, def);
    }
    for def in warbands {
        warband(&mut out, def);
    }
    for def in cards {
        card(&mut out, def);
    }
    for def in decklists {
        decklist(&mut out, def);
    }
    for def in armies {
        army(&mut out, def);
    }
    for def in tables {
        table(&mut out, def);
    }
    out.text
}

/// Prints rosters and parties after `text` (what [`print_all`] printed), separated as it
/// separates items.
pub(crate) fn print_rosters<'a>(
    text: String,
    rosters: impl Iterator<Item = &'a RosterDef>,
    parties: impl Iterator<Item = &'a PartyDef>,
) -> String {
    let mut out = Out::new();
    out.block_has_lines = !text.is_empty();
    out.text = text;
    for def in rosters {
        roster(&mut out, def);
    }
    for def in parties {
        party(&mut out, def);
    }
    out.text
}
