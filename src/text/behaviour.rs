//! What a card does, read from its data: fields, and the effect calls and condition tests
//! of its scripts, each with its place in the card file.

use std::ops::Range;

use gloam_grammar::CardDef;
use gloam_grammar::text::{Deck, EffectKind, PushDirection, Role, Roll, Side, Stat, Territory};

use super::script::ScriptScan;

/// One thing a card's effect script does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataEffect {
    /// What it does (the same vocabulary as printed text).
    pub kind: EffectKind,
    /// Its number, when it is a literal.
    pub amount: Option<i64>,
    /// Whose fighters it is done to.
    pub side: Side,
    /// `modify(.., equipped(x).len(), ..)`: counts per upgrade.
    pub per: Option<String>,
    /// The duration event of a modifier (`after_activation`).
    pub until: Option<String>,
    /// Whether it is done to each fighter of a list (a loop) rather than one chosen.
    pub each: bool,
    /// Whether it is done to the fighter the moment gives (`this_fighter`, `attacker`,
    /// `target`), so that "each" and "one" do not apply.
    pub contextual: bool,
    /// The byte span of the call in the card file.
    pub span: Range<usize>,
}

/// A number a condition tests, normalised to `at least`, `at most` or `exactly`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataNumber {
    /// The number, after normalising (`x > 1` is `at least 2`).
    pub value: i64,
    /// `>=`, `<=` or `==`.
    pub relation: &'static str,
    /// The byte span of the literal in the card file.
    pub span: Range<usize>,
}

impl DataNumber {
    /// Whether printed text must say this number: `at least 2` and more, any `exactly`,
    /// any `at most`. `at least 1` (there is one) is what `a`/`one or more` says without a
    /// digit, so it is not demanded.
    pub fn must_be_said(&self) -> bool {
        match self.relation {
            ">=" => self.value >= 2,
            _ => true,
        }
    }
}

/// A name a script tests, with where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataName {
    /// The name (`leader`, `charge`, `cover`).
    pub name: String,
    /// The byte span of the literal in the card file.
    pub span: Range<usize>,
    /// Whether it is in the condition script (rather than the effect's).
    pub in_condition: bool,
}

/// What a card does, as far as its text can say it.
#[derive(Clone, Debug, Default)]
pub struct Behaviour {
    /// The card's kind (`objective`, `ploy`, `spell`, `upgrade`).
    pub kind: String,
    /// The timing window.
    pub window: Option<String>,
    /// When it is scored.
    pub score: Option<String>,
    /// Its keywords.
    pub keywords: Vec<String>,
    /// The fighters it is restricted to.
    pub restrictions: Vec<String>,
    /// Its glory cost (upgrades).
    pub cost: Option<i64>,
    /// Whether it persists.
    pub persist: bool,
    /// The effect calls.
    pub effects: Vec<DataEffect>,
    /// Numbers the scripts test.
    pub numbers: Vec<DataNumber>,
    /// Every integer literal of the condition script (and the values numbers normalise to),
    /// for finding a number the text gives.
    pub literals: Vec<i64>,
    /// Attack ranges the condition allows (`counter("attack_range") <= 2` is 1 and 2).
    pub ranges: Option<(Vec<i64>, Range<usize>)>,
    /// `distance(..) <= N` tests.
    pub withins: Vec<(i64, Range<usize>)>,
    /// Fighter keywords tested (`has_keyword(f, "leader")`).
    pub fighter_keywords: Vec<DataName>,
    /// Tokens tested or given.
    pub tokens: Vec<DataName>,
    /// Hex types tested.
    pub hex_types: Vec<DataName>,
    /// Where `adjacent(..)` is tested.
    pub adjacent: Option<Range<usize>>,
    /// Where the attack's outcome is tested.
    pub successful: Option<Range<usize>>,
    /// Whether the outcome tested is a failure (`counter("attack_outcome") <= 1`) rather
    /// than a success.
    pub attack_failed: bool,
    /// Where a once-per-round test is.
    pub once_per_round: Option<Range<usize>>,
    /// Where the effect keeps something for the fighter's first Attack action only (the
    /// Shadespire `bonus_dice` counter, which the combat step spends).
    pub first_attack: Option<Range<usize>>,
    /// Where the condition excludes a kind of Attack action by a flag the flow sets
    /// (`counter("attack_scything") == 0`), or the effect takes a Move bonus back from Charge
    /// actions (a negative `charge_move`): the text's `not`/`other than`/`except`.
    pub except: Option<Range<usize>>,
    /// The kind of Attack action the condition excludes (`scything` for
    /// `counter("attack_scything") == 0`).
    pub except_kind: Option<String>,
    /// Where the condition requires the Attack action to have taken its target out of action
    /// (`counter("attack_took_out") == 1`, a flag the flow sets).
    pub taken_out: Option<Range<usize>>,
    /// Where a script reads the attacker's supporting fighters (`counter("attack_supporters")`).
    pub supported: Option<Range<usize>>,
    /// Keywords an upgrade gives its bearer: its keywords that are not card keywords
    /// (`has_keyword` counts an equipped card's keywords).
    pub granted_keywords: Vec<String>,
    /// Whether the card writes its Attack action as a `weapon` (an Attack action upgrade whose
    /// weapon its bearer uses like its own; its window is then when the weapon's extras apply).
    pub grants_weapon: bool,
    /// Whose fighters the condition script tests (`friendly_fighters()`, `owner(x) ==
    /// player`, `enemy_fighters()`, `owner(x) != player`, `this_fighter`), with where.
    pub condition_sides: Vec<(Side, Range<usize>)>,
    /// Whose fighter the condition wants in each part of the moment: `owner(attacker) ==
    /// player` is a friendly attacker, `target == this_fighter` this fighter as the target.
    pub roles: Vec<(Role, Side, Range<usize>)>,
    /// Territories the scripts test (`territory_of(h) != player`, Embergard's own or the
    /// other territory hex type).
    pub territories: Vec<(Territory, Range<usize>)>,
    /// The byte range of the condition script in the card file, to tell a span in it from one
    /// in the effect script.
    pub condition_range: Option<Range<usize>>,
    /// Values of the game a count is compared with (`round()`, not the once-per-round
    /// `!= round()`).
    pub game_values: Vec<(String, Range<usize>)>,
    /// Where the condition tests that a fighter still stands (`damage(x) < wounds(x)`).
    pub stands: Option<Range<usize>>,
    /// Hex types the scripts test as alternatives (`hex_has_type(h, "cover") ||
    /// hex_has_type(h, "gloom")`): saying one says the test.
    pub hex_alternatives: Vec<(String, String)>,
}

/// Keywords of cards that describe the card, never given to a fighter that bears it.
const CARD_ONLY_KEYWORDS: &[&str] = &[
    "hybrid",
    "dual",
    "reaction",
    "waypoint",
    "illusion",
    "attack_action",
    "surge",
    "next_activation",
];

/// Modifier characteristics, as the Harrowdeep data names them, to the text's terms.
fn modifier_kind(characteristic: &str) -> Option<EffectKind> {
    Some(match characteristic {
        "move" => EffectKind::Modify(Stat::Move),
        "attack_dice" | "dice" => EffectKind::Modify(Stat::Dice),
        "attack_damage" | "damage" => EffectKind::Modify(Stat::Damage),
        "defence" | "save" => EffectKind::Modify(Stat::Defence),
        "wounds" | "health" => EffectKind::Modify(Stat::Wounds),
        "attack_range" | "range" => EffectKind::Modify(Stat::Range),
        "bounty" => EffectKind::Modify(Stat::Bounty),
        "attack_rerolls" | "close_attack_rerolls" => EffectKind::Reroll(Roll::Attack),
        "defence_rerolls" => EffectKind::Reroll(Roll::Defence),
        _ => return None,
    })
}

fn deck_of_zone(zone: &str) -> Deck {
    if zone.starts_with("power") {
        Deck::Power
    } else if zone.starts_with("objective") {
        Deck::Objective
    } else {
        Deck::Any
    }
}

/// The side of the fighters an expression names: the first of `friendly_fighters()`,
/// `enemy_fighters()`, `fighters()`, `this_fighter`, `attacker` in it or in what its names
/// are bound to.
fn side_of(scan: &ScriptScan, range: &Range<usize>, attacker_is_enemy: bool) -> Side {
    for index in scan.chain(range) {
        match scan.text(index) {
            "friendly_fighters" => return Side::Friendly,
            "enemy_fighters" => return Side::Enemy,
            "fighters" if scan.is_call(index) => return Side::Any,
            "this_fighter" => return Side::This,
            "attacker" => {
                return if attacker_is_enemy {
                    Side::Enemy
                } else {
                    Side::Unknown
                };
            }
            "target" => return Side::Unknown,
            _ => {}
        }
    }
    Side::Unknown
}

/// Reads what `card` does.
///
/// # Examples
///
/// ```
/// use gloam_grammar::text::{EffectKind, Side, Stat};
/// let (library, _) = gloam_grammar::load(&[gloam_grammar::SourceFile::new("c.gloam", r#"
/// card "Rally" {
///     ruleset = "r"
///     kind = ploy
///     owner = universal
///     window = power_step
///     effect = { for f in friendly_fighters() { modify(f, "move", 1, "after_activation"); } }
/// }
/// "#)]);
/// let found = gloam::text::behaviour(library.card("Rally").unwrap());
/// let effect = &found.effects[0];
/// assert_eq!(effect.kind, EffectKind::Modify(Stat::Move));
/// assert_eq!((effect.amount, effect.side, effect.each), (Some(1), Side::Friendly, true));
/// assert_eq!(effect.until.as_deref(), Some("after_activation"));
/// ```
pub fn behaviour(card: &CardDef) -> Behaviour {
    let mut found = Behaviour {
        kind: card.kind.clone(),
        window: card.window.clone(),
        score: card.score.clone(),
        // An Attack action upgrade's weapon keywords (Grievous) are what its text states.
        keywords: card
            .keywords
            .iter()
            .chain(
                card.weapons
                    .iter()
                    .flat_map(|w| w.keywords.iter().map(|k| &k.name)),
            )
            .cloned()
            .collect(),
        grants_weapon: !card.weapons.is_empty(),
        restrictions: card
            .restrictions
            .iter()
            .map(|r| match r {
                gloam_grammar::Restriction::Fighter(name)
                | gloam_grammar::Restriction::Keyword(name) => name.clone(),
            })
            .collect(),
        cost: card.cost,
        persist: card.persist,
        ..Behaviour::default()
    };
    found.condition_range = card.condition.as_ref().map(|script| script.text_range());
    let condition_scan = card.condition.as_ref().map(|script| {
        let range = script.text_range();
        ScriptScan::new(&script.text, range.start)
    });
    let effect_scan = card.effect.as_ref().map(|script| {
        let range = script.text_range();
        ScriptScan::new(&script.text, range.start)
    });
    // An upgrade that answers Attack actions against its own fighter
    // (`target == this_fighter`): the attacker is an enemy.
    let attacker_is_enemy = card.condition.as_ref().is_some_and(|c| {
        let compact: String = c.text.chars().filter(|c| !c.is_whitespace()).collect();
        compact.contains("target==this_fighter")
    });
    for (scan, in_condition) in [(&condition_scan, true), (&effect_scan, false)] {
        let Some(scan) = scan else { continue };
        read_tests(scan, in_condition, &mut found);
    }
    if let Some(scan) = &effect_scan {
        read_effects(scan, attacker_is_enemy, card.window.as_deref(), &mut found);
    }
    // An upgrade's own keywords (not an Attack action upgrade's, which describe its weapon)
    // are its bearer's: "this fighter is a hunter".
    if card.kind == "upgrade" && !card.keywords.iter().any(|k| k == "attack_action") {
        let span = card
            .effect
            .as_ref()
            .map_or(0..0, |script| script.text_range());
        for keyword in &card.keywords {
            if CARD_ONLY_KEYWORDS.contains(&keyword.as_str()) {
                continue;
            }
            found.granted_keywords.push(keyword.clone());
            found.effects.push(DataEffect {
                kind: EffectKind::GrantKeyword(keyword.clone()),
                amount: None,
                side: Side::Unknown,
                per: None,
                until: None,
                each: false,
                contextual: true,
                span: span.clone(),
            });
        }
    }
    found
}

/// The logic atoms of a script: territories (condition and effect), and in the condition,
/// whose fighters it tests, game values it compares with and whether a fighter still
/// stands.
fn read_logic(scan: &ScriptScan, in_condition: bool, found: &mut Behaviour) {
    let calls = scan.calls();
    // Hex types joined by `||`: alternatives.
    let hex_calls: Vec<(String, usize, usize)> = calls
        .iter()
        .filter(|c| scan.name(c) == "hex_has_type")
        .filter_map(|c| {
            let name = c.args.get(1).and_then(|a| scan.string(a))?.to_owned();
            let close = c.args.last().map_or(c.at + 1, |a| a.end);
            Some((name, c.at, close))
        })
        .collect();
    for pair in hex_calls.windows(2) {
        let (first, _, close) = &pair[0];
        let (second, at, _) = &pair[1];
        if *at == close + 2 && scan.text(close + 1) == "||" {
            found.hex_alternatives.push((first.clone(), second.clone()));
        }
    }
    for call in &calls {
        match scan.name(call) {
            "hex_has_type" => {
                // Embergard: a name bound to `if counter(player, "side") == 1 { "territory_a" }
                // else { "territory_b" }` is the player's own territory (side 1 holds
                // territory_a); the other order is the enemy's.
                let Some(arg) = call.args.get(1) else {
                    continue;
                };
                if scan.string(arg).is_some() {
                    continue;
                }
                let chain = scan.chain(arg);
                let first = chain.iter().find_map(|&i| {
                    scan.string(&(i..i + 1))
                        .filter(|s| s.starts_with("territory_"))
                });
                let territory = match first {
                    Some("territory_a") => Territory::Friendly,
                    Some("territory_b") => Territory::Enemy,
                    _ => continue,
                };
                found.territories.push((territory, scan.call_span(call)));
            }
            "friendly_fighters" if in_condition => {
                found
                    .condition_sides
                    .push((Side::Friendly, scan.call_span(call)));
            }
            "enemy_fighters" if in_condition => {
                found
                    .condition_sides
                    .push((Side::Enemy, scan.call_span(call)));
            }
            // A player's fighters, all of them or those on or off the battlefield.
            "fighters_of" | "fighters_on_battlefield" | "fighters_off_battlefield"
                if in_condition =>
            {
                if let Some(arg) = call.args.first()
                    && arg.len() == 1
                    && scan.text(arg.start) == "player"
                {
                    found
                        .condition_sides
                        .push((Side::Friendly, scan.call_span(call)));
                }
            }
            "damage" if in_condition => {
                let close = call.args.first().map_or(call.at + 1, |a| a.end);
                if scan.text(close + 1) == "<" && scan.text(close + 2) == "wounds" {
                    found.stands = Some(scan.call_span(call));
                }
            }
            _ => {}
        }
    }
    for index in 0..scan.toks.len() {
        let op = scan.text(index);
        if !matches!(op, "==" | "!=" | "<=" | ">=" | "<" | ">") {
            continue;
        }
        let span = scan.span(&(index..index + 1));
        let left = scan.operand_before(index);
        let right = scan.operand_after(index);
        let is =
            |range: &Range<usize>, word: &str| range.len() == 1 && scan.text(range.start) == word;
        let (other, player_side) = if is(&right, "player") {
            (left.clone(), true)
        } else if is(&left, "player") {
            (right.clone(), true)
        } else {
            (left.clone(), false)
        };
        if player_side && matches!(op, "==" | "!=") {
            if scan.mentions(&other, "territory_of") {
                // `territory_of(h) != player`: outside the player's territory; with
                // `territory_of(h) != ()` too, in an enemy's.
                let territory = if op == "==" {
                    Territory::Friendly
                } else if (0..scan.toks.len()).any(|i| {
                    scan.text(i) == "territory_of"
                        && scan.text(i + 1) == "("
                        && (i..scan.toks.len().min(i + 8))
                            .any(|k| scan.text(k) == "!=" && scan.text(k + 1) == "(")
                }) {
                    Territory::Enemy
                } else {
                    Territory::NotFriendly
                };
                found.territories.push((territory, span));
            } else if in_condition && scan.mentions(&other, "owner") {
                let side = if op == "==" {
                    Side::Friendly
                } else {
                    Side::Enemy
                };
                found.condition_sides.push((side, span.clone()));
                let role = if scan.mentions(&other, "attacker") {
                    Some(Role::Attacker)
                } else if scan.mentions(&other, "target") {
                    Some(Role::Target)
                } else {
                    None
                };
                if let Some(role) = role {
                    found.roles.push((role, side, span));
                }
            } else if in_condition && other.len() == 1 {
                // `for p in players() { if p != player { .. fighters_of(p) .. } }`.
                let bound_to_players = scan
                    .chain(&other)
                    .iter()
                    .any(|&i| scan.text(i) == "players");
                if bound_to_players {
                    let side = if op == "==" {
                        Side::Friendly
                    } else {
                        Side::Enemy
                    };
                    found.condition_sides.push((side, span));
                }
            }
            continue;
        }
        if !in_condition {
            continue;
        }
        // `target == this_fighter`, `attacker == this_fighter`.
        if op == "==" && (is(&right, "this_fighter") || is(&left, "this_fighter")) {
            let other = if is(&right, "this_fighter") {
                &left
            } else {
                &right
            };
            let role = if is(other, "attacker") {
                Some(Role::Attacker)
            } else if is(other, "target") {
                Some(Role::Target)
            } else {
                None
            };
            if let Some(role) = role {
                found.roles.push((role, Side::This, span.clone()));
            }
        }
        if op != "!=" && (is_round_call(scan, &left) || is_round_call(scan, &right)) {
            found.game_values.push(("round".to_owned(), span));
        }
    }
    if in_condition {
        for index in 0..scan.toks.len() {
            if scan.text(index) == "this_fighter" {
                found
                    .condition_sides
                    .push((Side::This, scan.span(&(index..index + 1))));
                break;
            }
        }
    }
}

/// Whether `range` is the call `round()`.
fn is_round_call(scan: &ScriptScan, range: &Range<usize>) -> bool {
    range.len() == 3
        && scan.text(range.start) == "round"
        && scan.text(range.start + 1) == "("
        && scan.text(range.start + 2) == ")"
}

fn read_tests(scan: &ScriptScan, in_condition: bool, found: &mut Behaviour) {
    read_logic(scan, in_condition, found);
    for call in scan.calls() {
        let name = scan.name(&call).to_owned();
        let literal = |k: usize| {
            call.args
                .get(k)
                .and_then(|a| scan.string(a).map(|s| (s, a)))
        };
        match name.as_str() {
            "has_keyword" => {
                if let Some((keyword, at)) = literal(1)
                    && keyword != "beast"
                {
                    found.fighter_keywords.push(DataName {
                        name: keyword.to_owned(),
                        span: scan.span(at),
                        in_condition,
                    });
                }
            }
            "has_token" => {
                if let Some((token, at)) = literal(1) {
                    found.tokens.push(DataName {
                        name: token.to_owned(),
                        span: scan.span(at),
                        in_condition,
                    });
                }
            }
            "hex_has_type" => {
                if let Some((hex_type, at)) = literal(1)
                    && hex_type != "lethal"
                {
                    found.hex_types.push(DataName {
                        name: hex_type.to_owned(),
                        span: scan.span(at),
                        in_condition,
                    });
                }
            }
            "adjacent" if found.adjacent.is_none() => {
                found.adjacent = Some(scan.call_span(&call));
            }
            "counter" if literal(0).is_some_and(|(name, _)| name == "attack_supporters") => {
                found.supported = Some(scan.call_span(&call));
            }
            _ => {}
        }
    }
    if !in_condition {
        for comparison in scan.comparisons() {
            if scan.mentions(&comparison.operand, "distance") && comparison.op == "<=" {
                let span = scan.span(&(comparison.at..comparison.at + 1));
                found.withins.push((comparison.value, span));
            }
        }
        return;
    }
    for index in 0..scan.toks.len() {
        if scan.text(index) == "!=" && scan.text(index + 1) == "round" {
            found.once_per_round = Some(scan.span(&(index + 1..index + 2)));
        }
    }
    for (value, _) in scan.literals() {
        found.literals.push(value);
    }
    for comparison in scan.comparisons() {
        let span = scan.span(&(comparison.at..comparison.at + 1));
        let operand = &comparison.operand;
        if scan.mentions(operand, "round") && comparison.op == "!=" {
            found.once_per_round = Some(span);
            continue;
        }
        let counter_name = operand
            .clone()
            .find_map(|index| {
                let text = scan.text(index);
                (scan.string(&(index..index + 1)).is_some()).then(|| text.to_owned())
            })
            .unwrap_or_default();
        if scan.mentions(operand, "counter") && counter_name == "attack_range" {
            let values: Vec<i64> = match comparison.op.as_str() {
                "==" => vec![comparison.value],
                "<=" => (1..=comparison.value).collect(),
                "<" => (1..comparison.value).collect(),
                _ => continue,
            };
            found.ranges = Some((values, span));
            continue;
        }
        if scan.mentions(operand, "counter")
            && counter_name.starts_with("feature")
            && counter_name.ends_with("_side")
        {
            // Embergard keeps each feature token in counters `feature<i>_side` (1 treasure,
            // 2 cover): testing the side is testing for that token in the hex.
            let name = match comparison.value {
                1 => "treasure",
                2 => "cover",
                _ => continue,
            };
            found.hex_types.push(DataName {
                name: name.to_owned(),
                span,
                in_condition: true,
            });
            continue;
        }
        if scan.mentions(operand, "counter")
            && counter_name.starts_with("attack_")
            && !matches!(counter_name.as_str(), "attack_outcome" | "attack_range")
            && comparison.op == "=="
            && comparison.value == 0
        {
            found.except = Some(span);
            found.except_kind = counter_name.strip_prefix("attack_").map(str::to_owned);
            continue;
        }
        if scan.mentions(operand, "counter")
            && counter_name == "attack_took_out"
            && comparison.op == "=="
            && comparison.value == 1
        {
            found.taken_out = Some(span);
            continue;
        }
        if scan.mentions(operand, "counter") && counter_name == "attack_outcome" {
            // The outcome is 2 for a success, less for a failure.
            found.attack_failed = match comparison.op.as_str() {
                "<=" => comparison.value <= 1,
                "<" => comparison.value <= 2,
                "==" => comparison.value < 2,
                _ => false,
            };
            found.successful = Some(span);
            continue;
        }
        if counter_name.contains("success") || counter_name.starts_with("hit") {
            // A count of successful attacks kept by the flow.
            found.successful = Some(span.clone());
        }
        // `counter(holder, "name")`: its first argument is not the name.
        let holder_counter = operand.clone().any(|index| {
            scan.text(index) == "counter"
                && scan.text(index + 2) != ")"
                && scan.string(&(index + 2..index + 3)).is_none()
        });
        if scan.mentions(operand, "counter") && (counter_name == "territory" || holder_counter) {
            // A fighter's or player's own counter is the card's bookkeeping (whose
            // territory a hex is in, whether an effect was used), not a number the text
            // gives.
            continue;
        }
        // The number of players: the player-count variant a text gives by its icons or
        // "three or four players", not a condition on the game.
        if scan.mentions(operand, "players") && scan.mentions(operand, "len") {
            continue;
        }
        if scan.mentions(operand, "distance") {
            let value = match comparison.op.as_str() {
                "<=" => comparison.value,
                "<" => comparison.value - 1,
                _ => continue,
            };
            found.withins.push((value, span));
            continue;
        }
        let (value, relation) = match comparison.op.as_str() {
            ">=" => (comparison.value, ">="),
            ">" => (comparison.value + 1, ">="),
            "<=" => (comparison.value, "<="),
            "<" => (comparison.value - 1, "<="),
            "==" => (comparison.value, "=="),
            _ => continue,
        };
        found.literals.push(value);
        found.numbers.push(DataNumber {
            value,
            relation,
            span,
        });
    }
}

fn read_effects(
    scan: &ScriptScan,
    attacker_is_enemy: bool,
    window: Option<&str>,
    found: &mut Behaviour,
) {
    let mut looked = false;
    for call in scan.calls() {
        if call.method {
            continue;
        }
        let name = scan.name(&call).to_owned();
        let arg = |k: usize| call.args.get(k).cloned().unwrap_or(0..0);
        let side = || side_of(scan, &arg(0), attacker_is_enemy);
        let span = scan.call_span(&call);
        // Done to each fighter of a list: not to one chosen (unless the choice is made
        // again and again in a loop, as when the player orders the pushes).
        let each = scan.in_loop(call.at)
            || !scan
                .chain(&arg(0))
                .iter()
                .any(|&i| matches!(scan.text(i), "choose_fighter" | "this_fighter" | "attacker"));
        // The fighter the moment gives (the attacker, the target, the card's own fighter):
        // one fighter, but not one the card chooses.
        let contextual = arg(0).len() == 1
            && matches!(
                scan.text(arg(0).start),
                "this_fighter" | "attacker" | "target"
            );
        let effect = |kind: EffectKind, amount: Option<i64>, side: Side| DataEffect {
            kind,
            amount,
            side,
            per: None,
            until: None,
            each,
            contextual,
            span: span.clone(),
        };
        let made = match name.as_str() {
            "deal_damage" => {
                // Damage from a lethal hex crossed by a push is a rule of the game, not the
                // card's: `if hex_has_type(h, "lethal") { deal_damage(..) }`.
                let lethal =
                    (call.at.saturating_sub(12)..call.at).any(|index| scan.text(index) == "lethal");
                if lethal {
                    continue;
                }
                effect(EffectKind::Damage, scan.int(&arg(1)), side())
            }
            "heal" => effect(EffectKind::Heal, scan.int(&arg(1)), side()),
            "push" => effect(
                EffectKind::Push(PushDirection::Any),
                scan.int(&arg(1)),
                side(),
            ),
            "push_away" => effect(
                EffectKind::Push(PushDirection::Away),
                scan.int(&arg(1)),
                side(),
            ),
            "move_fighter" => {
                // A push written as a choice of end hex: its distance is the N of
                // `reachable_hexes(_, N)` where the end hexes come from; `closer` when they
                // are filtered by a smaller distance.
                let chain = scan.chain(&arg(1));
                let mut amount = None;
                let mut closer = false;
                for (position, &index) in chain.iter().enumerate() {
                    if scan.text(index) == "reachable_hexes" && amount.is_none() {
                        // reachable_hexes ( x , N )
                        if let Some(&n_index) = chain.get(position + 4) {
                            amount = scan.int(&(n_index..n_index + 1));
                        }
                    }
                    if scan.text(index) == "<"
                        && (index.saturating_sub(8)..index).any(|i| scan.text(i) == "distance")
                    {
                        closer = true;
                    }
                }
                // An end hex among the hexes around the fighter: a push of 1 hex.
                if amount.is_none() && chain.iter().any(|&i| scan.text(i) == "hexes_around") {
                    amount = Some(1);
                }
                let direction = if closer {
                    PushDirection::Closer
                } else {
                    PushDirection::Any
                };
                effect(EffectKind::Push(direction), amount, side())
            }
            "give_token" => {
                let token = call
                    .args
                    .get(1)
                    .and_then(|a| scan.string(a))
                    .unwrap_or_default()
                    .to_owned();
                // A fighter that ends a move on a stagger hex is staggered, and a raised
                // fighter carries a raise token (Embergard): rules of the game, not the card.
                let stagger_hex = (call.at.saturating_sub(12)..call.at)
                    .any(|index| scan.text(index) == "stagger_hex");
                let raised = token == "raise"
                    && scan.calls().iter().any(|c| scan.name(c) == "place_fighter");
                if stagger_hex || raised {
                    continue;
                }
                if let Some(at) = call.args.get(1) {
                    found.tokens.push(DataName {
                        name: token.clone(),
                        span: scan.span(at),
                        in_condition: false,
                    });
                }
                if token == "stagger" {
                    effect(EffectKind::Stagger, None, side())
                } else {
                    effect(EffectKind::GiveToken(token), Some(1), side())
                }
            }
            // Removing a token is the card's effect, unless the script also gives one: then
            // it is the rule that a fighter has Guard or Stagger, not both.
            "remove_token" if !scan.calls().iter().any(|c| scan.name(c) == "give_token") => {
                let token = scan.string(&arg(1)).unwrap_or_default().to_owned();
                let amount = if scan.in_loop(call.at) { None } else { Some(1) };
                effect(EffectKind::RemoveToken(token), amount, side())
            }
            "modify" => {
                let characteristic = scan.string(&arg(1)).unwrap_or_default().to_owned();
                // A Move bonus taken back from Charge actions: "except when charging".
                if characteristic == "charge_move" && scan.int(&arg(2)).is_some_and(|n| n < 0) {
                    found.except = Some(span.clone());
                    found.tokens.push(DataName {
                        name: "charge".to_owned(),
                        span: span.clone(),
                        in_condition: false,
                    });
                    continue;
                }
                // Re-rolls the attack roll adds only for Range 1 and 2 Attack actions.
                if characteristic == "close_attack_rerolls" {
                    found.ranges = Some((vec![1, 2], span.clone()));
                }
                let Some(kind) = modifier_kind(&characteristic) else {
                    continue;
                };
                let amount_range = arg(2);
                let mut made = effect(kind, scan.int(&amount_range), side());
                if made.amount.is_none() && scan.mentions(&amount_range, "equipped") {
                    made.amount = Some(1);
                    made.per = Some("upgrade".to_owned());
                }
                made.until = scan.string(&arg(3)).map(str::to_owned);
                made
            }
            "draw_power" => effect(
                EffectKind::Draw(Deck::Power),
                scan.int(&arg(0)),
                Side::Unknown,
            ),
            "draw_objectives" => effect(
                EffectKind::Draw(Deck::Objective),
                scan.int(&arg(0)),
                Side::Unknown,
            ),
            "move_card" => {
                // Illusion upgrades break when their fighter is chosen by a gambit: a rule
                // of the game (`if card_has_keyword(c, "illusion") { move_card(..) }`).
                if (call.at.saturating_sub(12)..call.at).any(|index| scan.text(index) == "illusion")
                {
                    continue;
                }
                // A persisting card that discards itself once applied: it is spent by the
                // first Attack action it is applied to ('next activation' gambits).
                if arg(0).len() == 1 && scan.text(arg(0).start) == "this_card" {
                    found.first_attack = Some(span.clone());
                    continue;
                }
                let zone = scan.string(&arg(1)).unwrap_or_default().to_owned();
                let chain = scan.chain(&arg(0));
                if chain.iter().any(|&i| scan.text(i) == "equipped") {
                    effect(EffectKind::Break, None, Side::Unknown)
                } else if zone.ends_with("_discard") {
                    effect(
                        EffectKind::Discard(deck_of_zone(&zone)),
                        Some(scan.repeat(call.at)),
                        Side::Unknown,
                    )
                } else if zone.ends_with("_hand") {
                    effect(
                        EffectKind::Draw(deck_of_zone(&zone)),
                        Some(scan.repeat(call.at)),
                        Side::Unknown,
                    )
                } else {
                    continue;
                }
            }
            // Shadespire keeps extra attack dice for the next Attack action in a counter.
            "set_counter" | "add_counter"
                if matches!(scan.string(&arg(1)), Some("bonus_dice" | "extra_dice")) =>
            {
                // The combat step spends them in the fighter's first Attack action.
                found.first_attack = Some(span.clone());
                effect(EffectKind::Modify(Stat::Dice), scan.int(&arg(2)), side())
            }
            "set_counter" | "add_counter" if scan.string(&arg(1)) == Some("both_symbols") => {
                effect(EffectKind::CountAsSuccess, None, side())
            }
            "set_counter" | "add_counter" if scan.string(&arg(1)) == Some("exhausted") => {
                effect(EffectKind::NoMoreActivations, None, side())
            }
            "place_fighter" => effect(EffectKind::Raise, None, side()),
            "move_card_bottom" => effect(EffectKind::Bottom, None, Side::Unknown),
            "cards_in" if !looked => {
                let zone = scan.string(&arg(1)).unwrap_or_default().to_owned();
                let close = (call.at + 1..scan.toks.len())
                    .find(|&i| scan.text(i) == ")")
                    .unwrap_or(call.at);
                if zone.ends_with("_deck") && scan.text(close + 1) == "[" {
                    looked = true;
                    effect(
                        EffectKind::LookTop(deck_of_zone(&zone)),
                        None,
                        Side::Unknown,
                    )
                } else {
                    continue;
                }
            }
            "add_counter" if scan.string(&arg(1)) == Some("glory_spent") => {
                effect(EffectKind::SpendGlory, scan.int(&arg(2)), Side::Unknown)
            }
            "inspire" => effect(EffectKind::Inspire, None, side()),
            // A fighter makes an action (`then("attack_action", ..)`); an upgrade's own
            // action (window `fighter_action`) is the card's action, not a further one.
            "then"
                if window != Some("fighter_action")
                    && scan
                        .string(&arg(0))
                        .is_some_and(|step| step.ends_with("_action")) =>
            {
                let fighter = side_of(scan, &arg(1), attacker_is_enemy);
                effect(EffectKind::MakeAction, None, fighter)
            }
            _ => continue,
        };
        found.effects.push(made);
    }
}
