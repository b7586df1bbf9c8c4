//! The comparison of a parsed text with a card's behaviour.

use std::ops::Range;

use gloam_grammar::text::{
    CardText, Condition, Deck, Duration, Effect, EffectKind, Event, Item, Keyword, PushDirection,
    Quantity, Role, Roll, ScoreTiming, Side, Territory, Trigger,
};

use super::behaviour::{Behaviour, DataEffect};
use super::{Code, Finding, Site};

/// Keywords that printed text states; other data keywords are not compared.
const TEXT_KEYWORDS: &[&str] = &[
    "hybrid",
    "dual",
    "reaction",
    "waypoint",
    "illusion",
    "attack_action",
    "grievous",
];

struct Findings(Vec<Finding>);

impl Findings {
    fn add(&mut self, code: Code, message: String, clause: Option<Range<usize>>, site: Site) {
        self.0.push(Finding {
            code,
            message,
            clause,
            site,
        });
    }
}

fn event_window(event: Event) -> &'static str {
    match event {
        Event::Activation => "after_activation",
        Event::Action => "after_action",
        Event::Attack => "after_attack",
        Event::Move => "after_move",
        Event::Reaction => "after_reaction",
        Event::OutOfAction => "after_out_of_action",
        Event::Delve => "after_delve",
        Event::Damage => "after_damage",
        _ => "after_action",
    }
}

/// Whether the window the text implies is the card's: the same name, or the same moment
/// under another edition's name (Embergard's `after_slain` is out of action).
fn same_window(said: &str, actual: &str) -> bool {
    said == actual || matches!((said, actual), ("after_out_of_action", "after_slain"))
}

/// The window the text implies, and the clause that implies it.
fn text_window(text: &CardText, data: &Behaviour) -> Option<(String, Option<Range<usize>>)> {
    for clause in &text.clauses {
        let window = match &clause.item {
            Item::Trigger(Trigger::After(event)) => event_window(*event),
            Item::Trigger(Trigger::Before(Event::Attack)) => "before_attack",
            Item::Trigger(Trigger::ActionPhaseEnd) => "action_phase_end",
            Item::Trigger(Trigger::Action) | Item::Keyword(Keyword::AttackAction) => {
                "fighter_action"
            }
            _ => continue,
        };
        return Some((window.to_owned(), Some(clause.span.clone())));
    }
    for clause in &text.clauses {
        match &clause.item {
            Item::Trigger(Trigger::AgainstThisFighter) => {
                return Some(("attack_declared".to_owned(), Some(clause.span.clone())));
            }
            Item::Effect(Effect {
                kind: EffectKind::Reroll(Roll::Defence),
                ..
            }) if data.kind == "upgrade" => {
                return Some(("after_defence_roll".to_owned(), Some(clause.span.clone())));
            }
            _ => {}
        }
    }
    if matches!(data.kind.as_str(), "ploy" | "spell" | "play") {
        return Some(("power_step".to_owned(), None));
    }
    None
}

fn duration_of(until: &str) -> Option<Duration> {
    match until {
        "after_activation" => Some(Duration::NextActivation),
        "action_phase_end" | "phase_end" => Some(Duration::EndOfPhase),
        "round_end" | "end_round" | "round_powers_end" => Some(Duration::EndOfRound),
        _ => None,
    }
}

fn duration_words(duration: Duration) -> &'static str {
    match duration {
        Duration::NextActivation => "in the next activation step",
        Duration::EndOfPhase => "until the end of the phase",
        Duration::EndOfRound => "until the end of the round",
        Duration::UntilWaypoint => "until another Waypoint is played",
        Duration::Activation(Side::Friendly) => "in (or until the end of) your next activation",
        Duration::Activation(Side::Enemy) => "in (or until the end of) the next enemy activation",
        Duration::Activation(Side::This) => {
            "in (or until the end of) this fighter's next activation"
        }
        _ => "for some time",
    }
}

fn same_class(text: &EffectKind, data: &EffectKind) -> bool {
    match (text, data) {
        (EffectKind::Push(_), EffectKind::Push(_)) => true,
        (EffectKind::Modify(a), EffectKind::Modify(b)) => a == b,
        (EffectKind::Reroll(a), EffectKind::Reroll(b)) => {
            a == b || *a == Roll::Any || *b == Roll::Any
        }
        (EffectKind::Draw(a), EffectKind::Draw(b))
        | (EffectKind::Discard(a), EffectKind::Discard(b))
        | (EffectKind::LookTop(a), EffectKind::LookTop(b)) => {
            a == b || *a == Deck::Any || *b == Deck::Any
        }
        (EffectKind::GiveToken(a), EffectKind::GiveToken(b))
        | (EffectKind::RemoveToken(a), EffectKind::RemoveToken(b)) => a == b,
        (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

pub(crate) fn describe(kind: &EffectKind) -> String {
    match kind {
        EffectKind::Push(_) => "a push".to_owned(),
        EffectKind::Damage => "damage".to_owned(),
        EffectKind::Heal => "healing".to_owned(),
        EffectKind::Modify(stat) => format!("a {} modifier", format!("{stat:?}").to_lowercase()),
        EffectKind::Reroll(roll) => match roll {
            Roll::Attack => "an attack re-roll".to_owned(),
            Roll::Defence => "a defence re-roll".to_owned(),
            _ => "a re-roll".to_owned(),
        },
        EffectKind::Draw(_) => "a card draw".to_owned(),
        EffectKind::Discard(_) => "a discard".to_owned(),
        EffectKind::GiveToken(token) => format!("a {token} token"),
        EffectKind::RemoveToken(token) => format!("the removal of {token} tokens"),
        EffectKind::Stagger => "a stagger".to_owned(),
        EffectKind::Break => "a broken upgrade".to_owned(),
        EffectKind::LookTop(_) => "a look at the top card".to_owned(),
        EffectKind::Bottom => "a card put at the bottom of its deck".to_owned(),
        EffectKind::SpendGlory => "a glory cost".to_owned(),
        EffectKind::MakeAction => "an action".to_owned(),
        EffectKind::GrantKeyword(keyword) => format!("the keyword `{keyword}`"),
        EffectKind::Inspire => "an Inspire".to_owned(),
        EffectKind::Raise => "a raised fighter".to_owned(),
        EffectKind::CountAsSuccess => "symbols counted as successes".to_owned(),
        EffectKind::NoMoreActivations => "no further activation".to_owned(),
        _ => "an effect".to_owned(),
    }
}

fn side_words(side: Side) -> &'static str {
    match side {
        Side::Friendly => "friendly fighters",
        Side::Enemy => "enemy fighters",
        Side::Any => "any fighter",
        Side::This => "this fighter",
        _ => "someone",
    }
}

fn direction_words(direction: PushDirection) -> &'static str {
    match direction {
        PushDirection::Closer => "closer to something",
        PushDirection::Away => "away from something",
        _ => "in any direction",
    }
}

fn effect_site(effect: &DataEffect) -> Site {
    Site::Span("effect", effect.span.clone())
}

/// Compares `text` with `data`; every disagreement is a finding.
pub(crate) fn compare(text: &CardText, data: &Behaviour) -> Vec<Finding> {
    let mut out = Findings(Vec::new());
    let first_span = text.clauses.first().map(|c| c.span.clone());
    let find = |pred: &dyn Fn(&Item) -> bool| -> Option<Range<usize>> {
        text.clauses
            .iter()
            .find(|c| pred(&c.item))
            .map(|c| c.span.clone())
    };

    // Kind.
    let spell = find(&|i| matches!(i, Item::Keyword(Keyword::Spell)));
    match (&spell, data.kind == "spell") {
        (Some(span), false) => out.add(
            Code::Kind,
            format!("the text is a spell's; the card is a {}", data.kind),
            Some(span.clone()),
            Site::Field("kind"),
        ),
        (None, true) => out.add(
            Code::Kind,
            "the card is a spell; the text never says so (`Spell.`)".to_owned(),
            first_span.clone(),
            Site::Field("kind"),
        ),
        _ => {}
    }

    // Score timing. On a power card (an Embergard surge play), `Surge` is a keyword.
    let surge_keyword = data.kind != "objective" && data.score.is_none();
    let surge = find(&|i| matches!(i, Item::Keyword(Keyword::Surge))).filter(|_| !surge_keyword);
    if surge_keyword {
        let said = find(&|i| matches!(i, Item::Keyword(Keyword::Surge)));
        let has = data.keywords.iter().any(|k| k == "surge");
        match (said, has) {
            (Some(span), false) => out.add(
                Code::Keyword,
                "the text has the keyword `surge`; the card's `keywords` do not".to_owned(),
                Some(span),
                Site::Field("keywords"),
            ),
            (None, true) => out.add(
                Code::Keyword,
                "the card has the keyword `surge`; the text does not say it".to_owned(),
                first_span.clone(),
                Site::Field("keywords"),
            ),
            _ => {}
        }
    }
    let scored = text.clauses.iter().find_map(|c| match &c.item {
        Item::Score(timing) => Some((*timing, c.span.clone())),
        _ => None,
    });
    let text_score = match (&surge, &scored) {
        (Some(span), _) => Some(("surge", span.clone())),
        (None, Some((ScoreTiming::Immediately, span))) => Some(("surge", span.clone())),
        (None, Some((ScoreTiming::EndPhase, span))) => Some(("end_phase", span.clone())),
        (None, Some((ScoreTiming::ThirdEndPhase, span))) => Some(("third_end_phase", span.clone())),
        _ => None,
    };
    match (&text_score, &data.score) {
        // Shadespire calls the immediate scoring moment `immediate`.
        (Some(("surge", _)), Some(score)) if score == "immediate" => {}
        (Some((said, span)), Some(score)) if said != score => out.add(
            Code::ScoreTiming,
            format!("the text scores it at `{said}`; the card's `score` is `{score}`"),
            Some(span.clone()),
            Site::Field("score"),
        ),
        (Some((said, span)), None) => out.add(
            Code::Kind,
            format!(
                "the text scores it (`{said}`); the card is a {} with no `score`",
                data.kind
            ),
            Some(span.clone()),
            Site::Field("kind"),
        ),
        (None, Some(score)) => out.add(
            Code::ScoreTiming,
            format!("the card is scored at `{score}`; the text never says when it is scored"),
            first_span.clone(),
            Site::Field("score"),
        ),
        _ => {}
    }

    // Window.
    if let Some((window, clause)) = text_window(text, data)
        && !data
            .window
            .as_deref()
            .is_some_and(|actual| same_window(&window, actual))
        && !(data.kind == "objective" && data.window.is_none())
        // A 'next activation' gambit is played in the power step and applied at its window.
        && !(window == "power_step" && data.keywords.iter().any(|k| k == "next_activation"))
        // An Attack action written as a `weapon` is used in any Attack action; the card's
        // window is when the weapon's extras apply.
        && !(window == "fighter_action" && data.grants_weapon)
    {
        out.add(
            Code::Window,
            match &data.window {
                Some(actual) => {
                    format!("the text plays it at `{window}`; the card's `window` is `{actual}`")
                }
                None => format!("the text plays it at `{window}`; the card has no `window`"),
            },
            clause.or_else(|| first_span.clone()),
            Site::Field("window"),
        );
    }

    // Keywords.
    let text_keywords: Vec<(String, Range<usize>)> = text
        .clauses
        .iter()
        .filter_map(|c| match &c.item {
            Item::Keyword(k) if TEXT_KEYWORDS.contains(&k.name()) => {
                Some((k.name().to_owned(), c.span.clone()))
            }
            Item::IllusionRule => Some(("illusion".to_owned(), c.span.clone())),
            _ => None,
        })
        .collect();
    for (keyword, span) in &text_keywords {
        if !data.keywords.contains(keyword) {
            out.add(
                Code::Keyword,
                format!("the text has the keyword `{keyword}`; the card's `keywords` do not"),
                Some(span.clone()),
                Site::Field("keywords"),
            );
        }
    }
    for keyword in &data.keywords {
        if TEXT_KEYWORDS.contains(&keyword.as_str())
            && !text_keywords.iter().any(|(k, _)| k == keyword)
        {
            out.add(
                Code::Keyword,
                format!("the card has the keyword `{keyword}`; the text does not say it"),
                first_span.clone(),
                Site::Field("keywords"),
            );
        }
    }

    // Illusion: costs no glory.
    if let Some(span) = find(&|i| matches!(i, Item::IllusionRule))
        && data.cost.unwrap_or(0) != 0
    {
        out.add(
            Code::Cost,
            format!(
                "the text says it costs no glory; the card's `cost` is {}",
                data.cost.unwrap_or(0)
            ),
            Some(span),
            Site::Field("cost"),
        );
    }

    // Restrictions (compared when the text prints them).
    for clause in &text.clauses {
        let Item::Restriction(names) = &clause.item else {
            continue;
        };
        let matches = |printed: &str, name: &str| {
            let printed = printed.to_lowercase();
            let name = name.to_lowercase();
            name == printed
                || name.split([' ', '-']).any(|w| w == printed)
                || printed.split([' ', '-']).any(|w| w == name)
        };
        for printed in names {
            if !data.restrictions.iter().any(|n| matches(printed, n)) {
                out.add(
                    Code::Restriction,
                    format!(
                        "the text restricts it to `{printed}`; the card's `restrictions` do not"
                    ),
                    Some(clause.span.clone()),
                    Site::Field("restrictions"),
                );
            }
        }
        for name in &data.restrictions {
            if !names.iter().any(|printed| matches(printed, name)) {
                out.add(
                    Code::Restriction,
                    format!("the card is restricted to `{name}`; the text does not name it"),
                    Some(clause.span.clone()),
                    Site::Field("restrictions"),
                );
            }
        }
    }

    compare_effects(text, data, &mut out);
    compare_conditions(text, data, &mut out);
    compare_logic(text, data, &mut out);
    out.0
}

/// Where a span of the data is: in the condition script or the effect script.
fn script_site(data: &Behaviour, span: &Range<usize>) -> Site {
    let in_condition = data
        .condition_range
        .as_ref()
        .is_some_and(|range| range.start <= span.start && span.end <= range.end);
    Site::Span(
        if in_condition { "condition" } else { "effect" },
        span.clone(),
    )
}

fn territory_words(territory: Territory) -> &'static str {
    match territory {
        Territory::Friendly => "friendly territory",
        Territory::Enemy => "enemy territory",
        Territory::NotFriendly => "outside friendly territory",
        Territory::NotEnemy => "outside enemy territory",
        _ => "some territory",
    }
}

/// The typed atoms of the condition, compared as sets in both directions: whose fighters
/// the condition and the moment speak of, territories, the operand a count is compared
/// with (a number or the round number), that a fighter still stands, and hex types.
fn compare_logic(text: &CardText, data: &Behaviour, out: &mut Findings) {
    let said = |pred: &dyn Fn(&Condition) -> bool| -> Vec<(Condition, Range<usize>)> {
        text.clauses
            .iter()
            .filter_map(|c| match &c.item {
                Item::Condition(condition) if pred(condition) => {
                    Some((condition.clone(), c.span.clone()))
                }
                _ => None,
            })
            .collect()
    };

    // Sides. The text's condition sides must each be tested; each side the condition
    // tests must be named somewhere in the text.
    let whose: Vec<(Side, Range<usize>)> = said(&|c| matches!(c, Condition::Whose(_)))
        .into_iter()
        .filter_map(|(c, span)| match c {
            Condition::Whose(side) => Some((side, span)),
            _ => None,
        })
        .collect();
    let tested: Vec<Side> = {
        let mut sides: Vec<Side> = data.condition_sides.iter().map(|(s, _)| *s).collect();
        sides.sort();
        sides.dedup();
        sides
    };
    if !whose.is_empty() && !tested.is_empty() {
        let mut named: Vec<Side> = whose.iter().map(|(s, _)| *s).collect();
        // `you`, `your warband`, `your hand` name the player's own side.
        let words: Vec<String> = text
            .clean
            .split(|c: char| !c.is_alphanumeric())
            .map(str::to_lowercase)
            .collect();
        if words.iter().any(|w| w == "you" || w == "your") {
            named.push(Side::Friendly);
        }
        for clause in &text.clauses {
            match &clause.item {
                Item::Effect(effect) => named.push(effect.target.side),
                Item::Choose(target) => named.push(target.side),
                _ => {}
            }
        }
        for (side, span) in &whose {
            if !tested.contains(side) {
                let (at, actual) = data
                    .condition_sides
                    .iter()
                    .find(|(s, _)| !whose.iter().any(|(w, _)| w == s))
                    .or(data.condition_sides.first())
                    .map(|(s, at)| (at.clone(), *s))
                    .unwrap_or((0..0, Side::Unknown));
                out.add(
                    Code::ConditionSide,
                    format!(
                        "the text's condition speaks of {}; the card's condition tests {}",
                        side_words(*side),
                        side_words(actual)
                    ),
                    Some(span.clone()),
                    Site::Span("condition", at),
                );
            }
        }
        for (side, at) in &data.condition_sides {
            if *side != Side::This
                && !named.contains(side)
                && !out.0.iter().any(|f| f.code == Code::ConditionSide)
            {
                out.add(
                    Code::ConditionSide,
                    format!(
                        "the card's condition tests {}; the text never names them",
                        side_words(*side)
                    ),
                    whose.first().map(|(_, span)| span.clone()),
                    Site::Span("condition", at.clone()),
                );
            }
        }
    }

    // Roles: whose fighter attacks and whose is the target, where the text says it and the
    // condition tests that part of the moment.
    for clause in &text.clauses {
        let Item::Condition(Condition::Role(role, side)) = &clause.item else {
            continue;
        };
        let tested: Vec<&(Role, Side, Range<usize>)> =
            data.roles.iter().filter(|(r, _, _)| r == role).collect();
        if !tested.is_empty() && !tested.iter().any(|(_, s, _)| s == side) {
            let part = match role {
                Role::Attacker => "attacker",
                _ => "target",
            };
            out.add(
                Code::ConditionSide,
                format!(
                    "the text's {part} is one of {}; the card's condition wants one of {}",
                    side_words(*side),
                    side_words(tested[0].1)
                ),
                Some(clause.span.clone()),
                Site::Span("condition", tested[0].2.clone()),
            );
        }
    }

    // Territories.
    let territories: Vec<(Territory, Range<usize>)> =
        said(&|c| matches!(c, Condition::Territory(_)))
            .into_iter()
            .filter_map(|(c, span)| match c {
                Condition::Territory(t) => Some((t, span)),
                _ => None,
            })
            .collect();
    for (territory, span) in &territories {
        if !data.territories.iter().any(|(t, _)| t == territory) {
            match data.territories.first() {
                Some((actual, at)) => out.add(
                    Code::Territory,
                    format!(
                        "the text says {}; the card tests {}",
                        territory_words(*territory),
                        territory_words(*actual)
                    ),
                    Some(span.clone()),
                    script_site(data, at),
                ),
                None => out.add(
                    Code::MissingCondition,
                    format!(
                        "the text says {}; the card never tests a territory",
                        territory_words(*territory)
                    ),
                    Some(span.clone()),
                    Site::Field("condition"),
                ),
            }
        }
    }
    for (k, (territory, at)) in data.territories.iter().enumerate() {
        // Once per territory, though the condition and the effect both test it.
        if territories.iter().any(|(t, _)| t == territory)
            || data.territories[..k].iter().any(|(t, _)| t == territory)
        {
            continue;
        }
        if territories.is_empty() {
            out.add(
                Code::DroppedCondition,
                format!(
                    "the card tests {}; the text does not say it",
                    territory_words(*territory)
                ),
                None,
                script_site(data, at),
            );
        } else if !out.0.iter().any(|f| f.code == Code::Territory) {
            out.add(
                Code::Territory,
                format!(
                    "the card tests {}; the text says {}",
                    territory_words(*territory),
                    territory_words(territories[0].0)
                ),
                Some(territories[0].1.clone()),
                script_site(data, at),
            );
        }
    }

    // Operands: a value of the game (the round number) against a number.
    let values = said(&|c| matches!(c, Condition::GameValue(_)));
    for (value, span) in &values {
        let Condition::GameValue(name) = value else {
            continue;
        };
        if !data.game_values.iter().any(|(n, _)| n == name) {
            out.add(
                Code::Operand,
                format!(
                    "the text compares with the {name} number; the card's condition compares with a number"
                ),
                Some(span.clone()),
                Site::Field("condition"),
            );
        }
    }
    for (name, at) in &data.game_values {
        if !values
            .iter()
            .any(|(v, _)| *v == Condition::GameValue(name.clone()))
        {
            out.add(
                Code::Operand,
                format!("the card's condition compares with the {name} number; the text does not"),
                text.clauses.first().map(|c| c.span.clone()),
                Site::Span("condition", at.clone()),
            );
        }
    }

    // Still standing.
    let stands = said(&|c| matches!(c, Condition::Stands));
    match (stands.first(), &data.stands) {
        (Some((_, span)), None) => out.add(
            Code::MissingCondition,
            "the text requires the fighter to still stand; the card never tests it".to_owned(),
            Some(span.clone()),
            Site::Field("condition"),
        ),
        (None, Some(at)) => out.add(
            Code::DroppedCondition,
            "the card tests that the fighter still stands; the text does not say it".to_owned(),
            None,
            Site::Span("condition", at.clone()),
        ),
        _ => {}
    }

    // Hex types the data tests must be said (or one of their alternatives). Hexes a fighter
    // cannot enter, lethal hexes and stagger hexes are rules of the game.
    let hex_said = |name: &str| {
        text.clauses
            .iter()
            .any(|c| c.item == Item::Condition(Condition::HexType(name.to_owned())))
    };
    for tested in &data.hex_types {
        if matches!(tested.name.as_str(), "blocked" | "lethal" | "stagger_hex") {
            continue;
        }
        let alternative = data
            .hex_alternatives
            .iter()
            .any(|(a, b)| (a == &tested.name && hex_said(b)) || (b == &tested.name && hex_said(a)));
        if !hex_said(&tested.name) && !alternative {
            out.add(
                Code::DroppedCondition,
                format!(
                    "the card tests {} hexes; the text does not say it",
                    tested.name
                ),
                None,
                Site::Span(
                    if tested.in_condition {
                        "condition"
                    } else {
                        "effect"
                    },
                    tested.span.clone(),
                ),
            );
        }
    }
}

fn compare_effects(text: &CardText, data: &Behaviour, out: &mut Findings) {
    let mut used = vec![false; data.effects.len()];
    for (clause, effect) in text.effects() {
        let candidates: Vec<usize> = (0..data.effects.len())
            .filter(|&k| !used[k] && same_class(&effect.kind, &data.effects[k].kind))
            .collect();
        // Prefer the data effect with the same number, then the same side.
        let chosen = candidates
            .iter()
            .copied()
            .find(|&k| data.effects[k].amount == effect.amount)
            .or_else(|| candidates.first().copied());
        let Some(k) = chosen else {
            out.add(
                Code::MissingEffect,
                format!(
                    "the text gives {}; the card's effect does no such thing",
                    describe(&effect.kind)
                ),
                Some(clause.span.clone()),
                Site::Field("effect"),
            );
            continue;
        };
        used[k] = true;
        let done = &data.effects[k];
        if let (Some(said), Some(does)) = (effect.amount, done.amount)
            && said != does
        {
            out.add(
                Code::Number,
                format!(
                    "the text gives {} of {said}; the effect gives {does}",
                    describe(&effect.kind)
                ),
                Some(clause.span.clone()),
                effect_site(done),
            );
        }
        let side = effect.target.side;
        if side != Side::Unknown && done.side != Side::Unknown && side != done.side {
            out.add(
                Code::TargetSide,
                format!(
                    "the text gives {} to {}; the effect gives it to {}",
                    describe(&effect.kind),
                    side_words(side),
                    side_words(done.side)
                ),
                Some(clause.span.clone()),
                effect_site(done),
            );
        }
        if side != Side::Unknown
            && side == done.side
            && matches!(side, Side::Friendly | Side::Enemy | Side::Any)
            && !done.contextual
            && (effect.target.quantity == Quantity::Each) != done.each
        {
            let (said_words, done_words) = if done.each {
                ("one fighter", "each of them")
            } else {
                ("each of them", "one chosen fighter")
            };
            out.add(
                Code::TargetSide,
                format!(
                    "the text gives {} to {said_words}; the effect gives it to {done_words}",
                    describe(&effect.kind)
                ),
                Some(clause.span.clone()),
                effect_site(done),
            );
        }
        if let (EffectKind::Push(said), EffectKind::Push(does)) = (&effect.kind, &done.kind)
            && said != does
        {
            out.add(
                Code::Direction,
                format!(
                    "the text pushes {}; the effect's push goes {}",
                    direction_words(*said),
                    direction_words(*does)
                ),
                Some(clause.span.clone()),
                effect_site(done),
            );
        }
        if effect.per.is_some() != done.per.is_some() {
            out.add(
                Code::Number,
                match &effect.per {
                    Some(per) => format!(
                        "the text counts {} per {per}; the effect does not",
                        describe(&effect.kind)
                    ),
                    None => format!(
                        "the effect counts {} per upgrade; the text does not",
                        describe(&effect.kind)
                    ),
                },
                Some(clause.span.clone()),
                effect_site(done),
            );
        }
    }
    for (k, done) in data.effects.iter().enumerate() {
        if !used[k] {
            out.add(
                Code::DroppedEffect,
                format!(
                    "the card's effect gives {}; the text does not say it",
                    describe(&done.kind)
                ),
                None,
                effect_site(done),
            );
        }
    }
    // Durations.
    let said: Vec<(Duration, Range<usize>)> = text
        .clauses
        .iter()
        .filter_map(|c| match &c.item {
            Item::Duration(d) if *d != Duration::UntilWaypoint => Some((*d, c.span.clone())),
            _ => None,
        })
        .collect();
    let mut explained: Vec<bool> = said
        .iter()
        .map(|(d, _)| {
            // A 'next activation' gambit lasts by the flow (3.15).
            *d == Duration::NextActivation && data.keywords.iter().any(|k| k == "next_activation")
        })
        .collect();
    for done in &data.effects {
        let Some(until) = done.until.as_deref() else {
            continue;
        };
        let Some(lasts) = duration_of(until) else {
            continue;
        };
        match said.iter().position(|(d, _)| *d == lasts) {
            Some(k) => explained[k] = true,
            None => out.add(
                Code::Duration,
                match said.first() {
                    Some((d, _)) => format!(
                        "the text says {}; the effect lasts {} (`{until}`)",
                        duration_words(*d),
                        duration_words(lasts)
                    ),
                    None => format!(
                        "the effect lasts {} (`{until}`); the text gives no duration",
                        duration_words(lasts)
                    ),
                },
                said.first().map(|(_, span)| span.clone()),
                effect_site(done),
            ),
        }
    }
    let modifiers = data.effects.iter().any(|e| e.until.is_some());
    for (k, (d, span)) in said.iter().enumerate() {
        // A persisting card with no modifier (a Waypoint's damage) lasts by `persist`.
        let persists = *d == Duration::EndOfPhase && data.persist && !modifiers;
        if !explained[k] && !persists && !out.0.iter().any(|f| f.code == Code::Duration) {
            out.add(
                Code::Duration,
                format!(
                    "the text says {}; no effect of the card lasts so",
                    duration_words(*d)
                ),
                Some(span.clone()),
                Site::Field("effect"),
            );
        }
    }
}

fn compare_conditions(text: &CardText, data: &Behaviour, out: &mut Findings) {
    // Numbers.
    let mut said_numbers: Vec<i64> = Vec::new();
    let mut strict: Vec<(i64, Range<usize>)> = Vec::new();
    let mut withins: Vec<(i64, Range<usize>)> = Vec::new();
    let mut ranges: Vec<(Vec<i64>, Range<usize>)> = Vec::new();
    for clause in &text.clauses {
        match &clause.item {
            Item::Condition(Condition::AtLeast(n)) => {
                said_numbers.push(*n);
                if *n >= 2 {
                    strict.push((*n, clause.span.clone()));
                }
            }
            Item::Condition(Condition::Exactly(n)) => {
                said_numbers.push(*n);
                if *n >= 1 {
                    strict.push((*n, clause.span.clone()));
                }
            }
            Item::Condition(Condition::Number(n)) => said_numbers.push(*n),
            Item::Condition(Condition::Within(n)) => {
                said_numbers.push(*n);
                if !withins.iter().any(|(m, s)| {
                    m == n && s.start <= clause.span.start && clause.span.end <= s.end
                }) {
                    withins.push((*n, clause.span.clone()));
                }
            }
            Item::Condition(Condition::Range(values)) => {
                said_numbers.extend(values);
                ranges.push((values.clone(), clause.span.clone()));
            }
            Item::Effect(effect) => said_numbers.extend(effect.amount),
            _ => {}
        }
    }
    let effect_amounts: Vec<i64> = data.effects.iter().filter_map(|e| e.amount).collect();
    let mut unmatched_text: Vec<(i64, Range<usize>)> = strict
        .into_iter()
        .filter(|(n, _)| !data.literals.contains(n) && !effect_amounts.contains(n))
        .collect();
    // Each number the text says answers one test of the data (a multiset, not a set: two
    // tests of 2 need two numbers).
    let mut pool = said_numbers.clone();
    let mut unmatched_data: Vec<&super::DataNumber> = Vec::new();
    for tested in data.numbers.iter().filter(|d| d.must_be_said()) {
        match pool.iter().position(|n| *n == tested.value) {
            Some(k) => {
                pool.remove(k);
            }
            None => unmatched_data.push(tested),
        }
    }
    while let (Some((said, span)), Some(tested)) = (
        unmatched_text.first().cloned(),
        unmatched_data.first().copied(),
    ) {
        out.add(
            Code::Number,
            format!(
                "the text's condition says {said}; the card's condition tests {}",
                tested.value
            ),
            Some(span),
            Site::Span("condition", tested.span.clone()),
        );
        unmatched_text.remove(0);
        unmatched_data.remove(0);
    }
    for (said, span) in unmatched_text {
        out.add(
            Code::MissingCondition,
            format!("the text's condition says {said}; the card's condition tests no such number"),
            Some(span),
            Site::Field("condition"),
        );
    }
    for tested in unmatched_data {
        out.add(
            Code::DroppedCondition,
            format!(
                "the card's condition tests {} {}; the text does not say it",
                tested.relation, tested.value
            ),
            None,
            Site::Span("condition", tested.span.clone()),
        );
    }

    // Ranges of Attack actions.
    let said_range: Option<(Vec<i64>, Range<usize>)> = ranges.first().map(|(_, span)| {
        let mut all: Vec<i64> = ranges.iter().flat_map(|(v, _)| v.clone()).collect();
        all.sort_unstable();
        all.dedup();
        (all, span.clone())
    });
    match (&said_range, &data.ranges) {
        (Some((said, span)), Some((tested, at))) if said != tested => out.add(
            Code::Range,
            format!("the text says Range {said:?}; the card's condition allows Range {tested:?}"),
            Some(span.clone()),
            Site::Span("condition", at.clone()),
        ),
        (Some((said, span)), None) => out.add(
            Code::Range,
            format!("the text limits it to Range {said:?}; the card does not check the range"),
            Some(span.clone()),
            Site::Field("condition"),
        ),
        (None, Some((tested, at))) => out.add(
            Code::DroppedCondition,
            format!("the card's condition allows Range {tested:?} only; the text does not say it"),
            None,
            Site::Span("condition", at.clone()),
        ),
        _ => {}
    }
    // Distances.
    let mut data_withins: Vec<&(i64, Range<usize>)> = data.withins.iter().collect();
    for (said, span) in &withins {
        if let Some(k) = data_withins.iter().position(|(n, _)| n == said) {
            data_withins.remove(k);
        } else {
            let tested = data_withins.first().map(|(n, at)| (*n, at.clone()));
            out.add(
                Code::Range,
                match &tested {
                    Some((n, _)) => {
                        format!("the text says within {said} hexes; the card tests within {n}")
                    }
                    None => {
                        format!("the text says within {said} hexes; the card tests no distance")
                    }
                },
                Some(span.clone()),
                match tested {
                    Some((_, at)) => Site::Span("condition", at),
                    None => Site::Field("effect"),
                },
            );
            if !data_withins.is_empty() {
                data_withins.remove(0);
            }
        }
    }
    for (n, at) in data_withins {
        if !said_numbers.contains(n) {
            out.add(
                Code::DroppedCondition,
                format!("the card tests a distance of {n}; the text does not say it"),
                None,
                Site::Span("condition", at.clone()),
            );
        }
    }

    // Names: fighter keywords, tokens, hex types.
    let mut text_kinds: Vec<(String, Range<usize>)> = Vec::new();
    let mut text_tokens: Vec<(String, Range<usize>)> = Vec::new();
    for clause in &text.clauses {
        match &clause.item {
            Item::Condition(Condition::Mentions(kind)) => {
                text_kinds.push((kind.clone(), clause.span.clone()));
            }
            Item::Effect(effect) => {
                if let Some(kind) = &effect.target.kind {
                    text_kinds.push((kind.clone(), clause.span.clone()));
                }
                if let EffectKind::GiveToken(token) = &effect.kind {
                    text_tokens.push((token.clone(), clause.span.clone()));
                }
                if effect.kind == EffectKind::Stagger {
                    text_tokens.push(("stagger".to_owned(), clause.span.clone()));
                }
                // Removing a fighter's tokens says it has them.
                if let EffectKind::RemoveToken(token) = &effect.kind {
                    text_tokens.push((token.clone(), clause.span.clone()));
                }
            }
            Item::Choose(target) => {
                if let Some(kind) = &target.kind {
                    text_kinds.push((kind.clone(), clause.span.clone()));
                }
            }
            Item::Condition(Condition::Token(token)) => {
                text_tokens.push((token.clone(), clause.span.clone()));
            }
            _ => {}
        }
    }
    for (kind, span) in &text_kinds {
        if !data.fighter_keywords.iter().any(|k| &k.name == kind) {
            out.add(
                Code::MissingCondition,
                format!("the text speaks of a {kind}; the card never tests the keyword `{kind}`"),
                Some(span.clone()),
                Site::Field("condition"),
            );
        }
    }
    for tested in &data.fighter_keywords {
        if !text_kinds.iter().any(|(k, _)| *k == tested.name) {
            out.add(
                Code::DroppedCondition,
                format!(
                    "the card tests the keyword `{}`; the text does not say it",
                    tested.name
                ),
                None,
                Site::Span(
                    if tested.in_condition {
                        "condition"
                    } else {
                        "effect"
                    },
                    tested.span.clone(),
                ),
            );
        }
    }
    for (token, span) in &text_tokens {
        if !data.tokens.iter().any(|t| &t.name == token) {
            out.add(
                Code::MissingCondition,
                format!("the text speaks of {token} tokens; the card never tests or gives one"),
                Some(span.clone()),
                Site::Field("condition"),
            );
        }
    }
    for tested in data.tokens.iter().filter(|t| t.in_condition) {
        if !text_tokens.iter().any(|(t, _)| *t == tested.name) {
            out.add(
                Code::DroppedCondition,
                format!(
                    "the card tests {} tokens; the text does not say it",
                    tested.name
                ),
                None,
                Site::Span("condition", tested.span.clone()),
            );
        }
    }
    for clause in &text.clauses {
        if let Item::Condition(Condition::HexType(hex_type)) = &clause.item
            && !data.hex_types.iter().any(|h| &h.name == hex_type)
        {
            out.add(
                Code::MissingCondition,
                format!("the text speaks of {hex_type} hexes; the card never tests that hex type"),
                Some(clause.span.clone()),
                Site::Field("condition"),
            );
        }
    }

    // Flags: adjacency, success, once per round.
    let flag = |condition: &Condition| {
        text.clauses
            .iter()
            .find(|c| {
                c.item == Item::Condition(condition.clone())
                    // A failure is the outcome too, negated.
                    || (*condition == Condition::Successful
                        && c.item == Item::Condition(Condition::Failed))
            })
            .map(|c| c.span.clone())
    };
    // The outcome's polarity: success against failure.
    let failed = flag(&Condition::Failed);
    let succeeded = flag(&Condition::Successful).filter(|_| failed.is_none());
    if let Some(at) = &data.successful {
        let wrong = match (&failed, &succeeded) {
            (Some(span), _) if !data.attack_failed => Some((span, "fail", "succeed")),
            (None, Some(span)) if data.attack_failed => Some((span, "succeed", "fail")),
            _ => None,
        };
        if let Some((span, said, tested)) = wrong {
            out.add(
                Code::MissingCondition,
                format!(
                    "the text requires the Attack action to {said}; the card's condition requires it to {tested}"
                ),
                Some(span.clone()),
                Site::Span("condition", at.clone()),
            );
        }
    }
    let pairs: [(Condition, &Option<Range<usize>>, &str); 3] = [
        (Condition::Adjacent, &data.adjacent, "adjacency"),
        (
            Condition::Successful,
            &data.successful,
            "the Attack action's success",
        ),
        (
            Condition::OncePerRound,
            &data.once_per_round,
            "once per round",
        ),
    ];
    for (condition, tested, words) in pairs {
        match (flag(&condition), tested) {
            (Some(span), None) => out.add(
                Code::MissingCondition,
                format!("the text requires {words}; the card never tests it"),
                Some(span),
                Site::Field("condition"),
            ),
            (None, Some(at)) => out.add(
                Code::DroppedCondition,
                format!("the card tests {words}; the text does not say it"),
                None,
                Site::Span("condition", at.clone()),
            ),
            _ => {}
        }
    }
    // An Attack action excluded by a flag of the flow: the text must say the exception.
    if let Some(at) = &data.except
        && flag(&Condition::Except).is_none()
    {
        out.add(
            Code::DroppedCondition,
            "the card excludes a kind of Attack action; the text does not say it".to_owned(),
            None,
            Site::Span("condition", at.clone()),
        );
    }
    // The Attack action's own taking out: the card tests the flag the flow sets, so the text
    // must say the attack takes its target out of action (a text that says so about an
    // Attack action's moment, while the card never tests it, is caught below).
    let says_taken_out = text
        .clauses
        .iter()
        .any(|c| c.item == Item::Condition(Condition::TakenOut));
    if let Some(at) = &data.taken_out
        && !says_taken_out
    {
        out.add(
            Code::DroppedCondition,
            "the card's condition requires the Attack action to take its target out of action; the text does not say it".to_owned(),
            None,
            Site::Span("condition", at.clone()),
        );
    }
    // Qualifiers the data cannot express.
    for clause in &text.clauses {
        let words = match &clause.item {
            Item::Condition(Condition::First) if data.first_attack.is_none() => {
                "only the first Attack action"
            }
            Item::Condition(Condition::Supported) if data.supported.is_none() => {
                "a supporting fighter"
            }
            Item::Condition(Condition::Except) if data.except.is_none() => "an exception",
            // After an Attack action, "takes ... out of action" is the attack's doing; in an
            // out-of-action window the moment itself says it.
            Item::Condition(Condition::TakenOut)
                if data.taken_out.is_none() && data.window.as_deref() == Some("after_attack") =>
            {
                "the Attack action to take its target out of action"
            }
            _ => continue,
        };
        out.add(
            Code::MissingCondition,
            format!("the text requires {words}; the card's scripts do not check it"),
            Some(clause.span.clone()),
            Site::Field("effect"),
        );
    }
}
