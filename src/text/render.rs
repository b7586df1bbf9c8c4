//! Canonical card text in the house style, written from a card's data.

use gloam_grammar::CardDef;
use gloam_grammar::text::{Deck, EffectKind, Item, PushDirection, Roll, Side, Stat};

use gloam_grammar::text::Territory;

use super::behaviour::{Behaviour, DataEffect, behaviour};

const ILLUSION: &str = "Illusion: costs no glory; breaks at the end of the action phase, or when its fighter is chosen by a gambit or dealt damage.";

fn who(effect: &DataEffect, subject: bool) -> String {
    let one = if subject { "A" } else { "a" };
    let each = if subject { "Each" } else { "each" };
    match (effect.side, effect.each) {
        (Side::This, _) => if subject {
            "This fighter"
        } else {
            "this fighter"
        }
        .to_owned(),
        (Side::Friendly, true) => format!("{each} friendly fighter"),
        (Side::Friendly, false) => format!("{one} friendly fighter"),
        (Side::Enemy, true) => format!("{each} enemy fighter"),
        (Side::Enemy, false) => format!("{}n enemy fighter", one),
        (Side::Any, _) => format!("{each} fighter"),
        _ => if subject {
            "The fighter"
        } else {
            "the fighter"
        }
        .to_owned(),
    }
}

fn deck(deck: Deck) -> &'static str {
    match deck {
        Deck::Power => "power ",
        Deck::Objective => "objective ",
        _ => "",
    }
}

fn plural(n: i64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

fn count(n: i64) -> String {
    match n {
        1 => "one".to_owned(),
        2 => "two".to_owned(),
        3 => "three".to_owned(),
        _ => n.to_string(),
    }
}

fn stat(stat: Stat) -> &'static str {
    match stat {
        Stat::Move => "Move",
        Stat::Dice => "Dice",
        Stat::Defence => "Defence",
        Stat::Wounds => "Wounds",
        Stat::Range => "Range",
        Stat::Bounty => "Bounty",
        _ => "Damage",
    }
}

/// One effect as a clause of the house style, or `None` for an effect it cannot say.
fn clause(effect: &DataEffect) -> Option<String> {
    let n = effect.amount.unwrap_or(1);
    Some(match &effect.kind {
        EffectKind::Push(direction) => format!(
            "push {} {}{}",
            who(effect, false),
            plural(n, "hex", "hexes"),
            match direction {
                PushDirection::Closer => " closer to the chosen enemy fighter",
                PushDirection::Away => " away",
                _ => "",
            }
        ),
        EffectKind::Damage => format!("deal {n} damage to {}", who(effect, false)),
        EffectKind::Heal => format!("heal {} by {n}", who(effect, false)),
        EffectKind::Modify(s) => format!(
            "{} {} {:+} {}{}",
            who(effect, false),
            "has",
            n,
            stat(*s),
            if effect.per.is_some() {
                " for each upgrade its target has"
            } else {
                ""
            }
        ),
        EffectKind::Reroll(roll) => format!(
            "{} may re-roll {} {}die",
            who(effect, false),
            count(n),
            match roll {
                Roll::Attack => "attack ",
                Roll::Defence => "defence ",
                _ => "",
            }
        ),
        EffectKind::Draw(d) => format!(
            "draw {} {}{}",
            count(n),
            deck(*d),
            if n == 1 { "card" } else { "cards" }
        ),
        EffectKind::Discard(d) => format!(
            "discard {} {}{}",
            count(n),
            deck(*d),
            if n == 1 { "card" } else { "cards" }
        ),
        EffectKind::GiveToken(token) => {
            let mut name = token.clone();
            if let Some(first) = name.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            format!("{} gains a {name} token", who(effect, false))
        }
        EffectKind::Stagger => format!("stagger {}", who(effect, false)),
        EffectKind::RemoveToken(token) => {
            format!("remove {token} tokens from {}", who(effect, false))
        }
        EffectKind::Break => "break one of the target's upgrades".to_owned(),
        EffectKind::LookTop(d) => format!("look at the top card of your {}deck", deck(*d)),
        EffectKind::Bottom => "or put that card at the bottom of its deck".to_owned(),
        EffectKind::SpendGlory => format!("spend {}", plural(n, "glory point", "glory points")),
        EffectKind::Inspire => format!("{} is Inspired", who(effect, false)),
        EffectKind::MakeAction => format!("{} makes another action", who(effect, false)),
        EffectKind::Raise => format!("raise {}", who(effect, false)),
        EffectKind::CountAsSuccess => format!(
            "both attack symbols count as successes for {}",
            who(effect, false)
        ),
        // An upgrade's keyword, given to its bearer.
        EffectKind::GrantKeyword(keyword) => format!("this fighter is a {keyword}"),
        EffectKind::NoMoreActivations => {
            format!(
                "{} cannot be activated again this phase",
                who(effect, false)
            )
        }
        _ => return None,
    })
}

/// The conditions a power card's scripts test, as one sentence of the house style (`Only
/// if fighters are adjacent and the Attack action is successful.`), or `None` when they
/// test nothing the text states. Each phrase reads back as the condition it comes from.
fn condition_sentence(data: &Behaviour, except_said: bool, ranges_said: bool) -> Option<String> {
    let mut phrases: Vec<String> = Vec::new();
    if let Some((values, _)) = &data.ranges
        && !values.is_empty()
        && !ranges_said
    {
        let words: Vec<String> = values.iter().map(|v| format!("Range {v}")).collect();
        phrases.push(format!("it is a {} Attack action", words.join(" or ")));
    }
    if data.successful.is_some() {
        phrases.push(if data.attack_failed {
            "the Attack action fails".to_owned()
        } else {
            "the Attack action is successful".to_owned()
        });
    }
    if data.except.is_some() && !except_said {
        match &data.except_kind {
            Some(kind) => phrases.push(format!("it is not a {kind} Attack action")),
            None => phrases.push("it is not excepted".to_owned()),
        }
    }
    if data.adjacent.is_some() {
        phrases.push("fighters are adjacent".to_owned());
    }
    let mut withins: Vec<i64> = data.withins.iter().map(|(n, _)| *n).collect();
    withins.dedup();
    for n in withins {
        phrases.push(format!(
            "fighters are within {n} {}",
            if n == 1 { "hex" } else { "hexes" }
        ));
    }
    let mut keywords: Vec<&str> = data
        .fighter_keywords
        .iter()
        .map(|k| k.name.as_str())
        .collect();
    keywords.sort_unstable();
    keywords.dedup();
    for keyword in keywords {
        phrases.push(format!("the fighter is a {keyword}"));
    }
    let mut hexes: Vec<&str> = Vec::new();
    for tested in &data.hex_types {
        let name = tested.name.as_str();
        if matches!(name, "blocked" | "lethal" | "stagger_hex") || hexes.contains(&name) {
            continue;
        }
        // One of two alternatives says the test.
        if data.hex_alternatives.iter().any(|(a, b)| {
            (a == name && hexes.contains(&b.as_str())) || (b == name && hexes.contains(&a.as_str()))
        }) {
            continue;
        }
        hexes.push(name);
        phrases.push(match name {
            "feature" => "a fighter is on a feature token".to_owned(),
            "treasure" => "a fighter is on a treasure token".to_owned(),
            "objective" => "a fighter holds an objective".to_owned(),
            other if other.starts_with(['a', 'e', 'i', 'o', 'u']) => {
                format!("a fighter is in an {other} hex")
            }
            other => format!("a fighter is in a {other} hex"),
        });
    }
    let mut territories: Vec<Territory> = data.territories.iter().map(|(t, _)| *t).collect();
    territories.sort();
    territories.dedup();
    for territory in territories {
        phrases.push(
            match territory {
                Territory::Friendly => "it is in friendly territory",
                Territory::Enemy => "it is in enemy territory",
                Territory::NotFriendly => "it is outside your territory",
                _ => "it is outside enemy territory",
            }
            .to_owned(),
        );
    }
    if data.stands.is_some() {
        phrases.push("it still stands".to_owned());
    }
    for (name, _) in &data.game_values {
        phrases.push(format!("the count is compared with the {name} number"));
    }
    let once = if data.once_per_round.is_some() {
        "Once per round."
    } else {
        ""
    };
    let Some(last) = phrases.pop() else {
        return (!once.is_empty()).then(|| once.to_owned());
    };
    let only = if phrases.is_empty() {
        format!("Only if {last}.")
    } else {
        format!("Only if {}, and {last}.", phrases.join(", "))
    };
    Some(if once.is_empty() {
        only
    } else {
        format!("{only} {once}")
    })
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

/// The card's text in the house style, written from its data: its keywords, when it is
/// scored or played, each effect with its number, target and duration, and its
/// restrictions. An objective's condition, which a script holds and no sentence can be
/// written from, is carried over from the card's own `text` (from its `Score` clause on).
///
/// # Examples
///
/// ```
/// let (library, _) = gloam_grammar::load(&[gloam_grammar::SourceFile::new("c.gloam", r#"
/// card "Shove" {
///     ruleset = "r"
///     kind = ploy
///     owner = universal
///     window = power_step
///     effect = { for f in friendly_fighters() { modify(f, "move", 2, "after_activation"); } }
/// }
/// "#)]);
/// let card = library.card("Shove").unwrap();
/// assert_eq!(gloam::text::render(card), "In the next activation step, each friendly fighter has +2 Move.");
/// ```
pub fn render(card: &CardDef) -> String {
    let data = behaviour(card);
    let mut sentences: Vec<String> = Vec::new();
    let has = |k: &str| data.keywords.iter().any(|x| x == k);
    if data.score.as_deref() == Some("surge") {
        sentences.push(
            if has("hybrid") {
                "Surge, hybrid."
            } else {
                "Surge."
            }
            .to_owned(),
        );
    } else if has("hybrid") {
        sentences.push("Hybrid.".to_owned());
    }
    if has("dual") {
        sentences.push("Dual.".to_owned());
    }
    if has("waypoint") {
        sentences.push("Waypoint.".to_owned());
    }
    if has("illusion") {
        sentences.push(ILLUSION.to_owned());
    }
    if has("attack_action") {
        sentences.push("Attack action upgrade.".to_owned());
    }
    if data.kind == "spell" {
        sentences.push("Spell.".to_owned());
    }
    if data.kind == "objective" {
        let own = card.text.clone().unwrap_or_default();
        let parsed = gloam_grammar::text::parse_text(&own);
        let body = parsed
            .clauses
            .iter()
            .find(|c| matches!(c.item, Item::Score(_)))
            .map(|c| own[c.span.start..].to_owned())
            .unwrap_or(own);
        sentences.push(capitalise(&body));
    } else {
        let mut lead = String::new();
        if has("reaction") {
            lead.push_str("Reaction: ");
        }
        if has("surge") {
            lead.push_str("Surge: ");
        }
        match data.window.as_deref() {
            Some("after_activation") => lead.push_str("after this fighter's activation, "),
            Some("after_action") => lead.push_str("after this fighter's action, "),
            Some("after_attack") => lead.push_str("after a friendly fighter's Attack action, "),
            Some("action_phase_end") => lead.push_str("at the end of each action phase, "),
            Some("fighter_action") => lead.push_str("Action: "),
            // Embergard's moments (seed 001).
            Some("after_move") => lead.push_str("after a friendly fighter moves, "),
            Some("after_damage") => lead.push_str("after a friendly fighter is dealt damage, "),
            Some("after_delve") => lead.push_str("after a friendly fighter delves, "),
            Some("after_slain") => lead.push_str("after a fighter is slain, "),
            Some("before_attack") => lead.push_str("immediately before an attack, "),
            _ => {}
        }
        if data.kind == "spell" {
            lead.push_str("if cast, ");
        }
        if data
            .effects
            .iter()
            .any(|e| e.until.as_deref() == Some("after_activation"))
        {
            lead.push_str("in the next activation step, ");
        } else if data
            .effects
            .iter()
            .any(|e| e.until.as_deref() == Some("action_phase_end"))
        {
            lead.push_str("until the end of the phase, ");
        } else if data
            .effects
            .iter()
            .any(|e| e.until.as_deref() == Some("round_powers_end"))
        {
            lead.push_str("until the end of the round, ");
        }
        // A 'next activation' gambit applied to one Attack action, re-rolls for short Range
        // only, support required.
        if has("next_activation") {
            lead.push_str("in the next activation step, ");
        }
        let ranges = match &data.ranges {
            Some((values, _)) if !values.is_empty() => {
                let words: Vec<String> = values.iter().map(|v| format!("Range {v}")).collect();
                format!("{} ", words.join(" or "))
            }
            _ => String::new(),
        };
        if data.first_attack.is_some() && has("next_activation") {
            lead.push_str(&format!("in the first {ranges}Attack action, "));
        } else if !ranges.is_empty() && data.window.as_deref() == Some("power_step") {
            lead.push_str(&format!("in its {ranges}Attack actions, "));
        }
        if data.supported.is_some() {
            lead.push_str("if the attacker has a supporting fighter, ");
        }
        // A Move bonus taken back from Charge actions.
        let except = if data.except.is_some()
            && data
                .tokens
                .iter()
                .any(|t| t.name == "charge" && !t.in_condition)
        {
            ", except in a Charge action"
        } else {
            ""
        };
        let clauses: Vec<String> = data.effects.iter().filter_map(clause).collect();
        if !clauses.is_empty() {
            sentences.push(capitalise(&format!(
                "{lead}{}{except}.",
                clauses.join(", then ")
            )));
        } else if data.window.as_deref() == Some("fighter_action") {
            // An action printed on the upgrade, with no effect the render can say.
            sentences.push("This fighter has this action.".to_owned());
        } else if !lead.is_empty() {
            sentences.push(capitalise(lead.trim_end_matches([' ', ',', ':'])) + ".");
        }
    }
    if data.kind != "objective" {
        let except_said = data.except.is_some()
            && data
                .tokens
                .iter()
                .any(|t| t.name == "charge" && !t.in_condition);
        let ranges_said = data.ranges.as_ref().is_some_and(|(v, _)| !v.is_empty())
            && ((data.first_attack.is_some() && has("next_activation"))
                || data.window.as_deref() == Some("power_step"));
        sentences.extend(condition_sentence(&data, except_said, ranges_said));
    }
    if has("grievous") {
        sentences.push("Grievous.".to_owned());
    }
    if has("waypoint") {
        sentences.push("This lasts until another Waypoint is played.".to_owned());
    }
    if !data.restrictions.is_empty() {
        sentences.push(format!("Restricted: {}.", data.restrictions.join(", ")));
    }
    sentences.join(" ")
}
