//! Exact odds of one attack, from the rules themselves (`gloam odds`).
//!
//! An attack is staged in a game of the ruleset's own data (the two fighters placed next to
//! each other on open ground, supporters, tokens, sides and hexes as the situation says),
//! the game is put in chance mode ([`gloam_core::Game::set_chance_mode`]), and the edition's
//! own `attack_action` step is run. Every chance node (each roll and re-roll, pooled by
//! face) is branched on a clone of the game, every player decision is answered by a fixed
//! policy (below), and each leaf, where the attack is over, adds its chance to the result
//! the edition's data recorded. Nothing here knows how an attack is resolved: that is the
//! data's; what is here is how to stage a situation and how to read the result.
//!
//! Decisions: the weapon and the target are the situation's; a weapon ability to pick
//! (Embergard) is the situation's `ability`, else the first offered; an attacker's re-roll
//! re-rolls a die whose face is not a success for the attack (criticals, the weapon's
//! symbol, the support symbols the supporters give), a defender's re-roll one whose face is
//! not a save, and keeps the roll when every die succeeds; anything else (reactions, drive
//! backs) is passed or declined. See `docs/odds.md`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;

use gloam_core::{
    Answer, Choice, Control, Ctx, Event, Frame, Game, Hex, ModOp, ModTarget, ModifierSpec, Options,
    PieceId, PlayerId, Position, Ratio, Request, RuleError, Rules, Scope, Setup, Value,
};
use gloam_grammar::{FighterDef, WeaponDef};
use serde::{Deserialize, Serialize};

use crate::engine::{MatchSpec, RulesetGame, Seat};
use crate::exact::Exact;
use crate::load::{Loaded, load, read_paths};

/// The most leaves one attack may have before the enumeration gives up (a pool too large
/// to enumerate exactly in reasonable time).
pub const MAX_LEAVES: usize = 2_000_000;

/// An error of `gloam odds`: what is wrong and how to fix it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OddsError {
    /// The data could not be loaded.
    #[error("the data has {count} problem(s); the first: {first} (run gloam check)")]
    Data {
        /// How many problems.
        count: usize,
        /// The first one.
        first: String,
    },
    /// A name in the situation is not in the data.
    #[error("{0}")]
    Unknown(String),
    /// The situation cannot be staged.
    #[error("cannot stage the situation: {0}")]
    Stage(String),
    /// The rules failed while the attack ran.
    #[error("the attack failed while running: {0}")]
    Run(String),
}

/// Which Underworlds edition a ruleset is (or extends): how its result is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Edition {
    /// Warhammer Underworlds: Shadespire (and its modes).
    Shadespire,
    /// Warhammer Underworlds: Harrowdeep.
    Harrowdeep,
    /// Warhammer Underworlds: Embergard.
    Embergard,
}

impl Edition {
    /// The game counter the edition's combat writes its result to, and what each value
    /// means, as `(value, key)`; keys are `crit_hit`, `hit`, `draw` and `miss`.
    pub fn result_names(self) -> &'static [(i64, &'static str)] {
        match self {
            // 3 critical hit, 2 hit, 1 draw (failed, may drive back), 0 miss.
            Edition::Shadespire | Edition::Harrowdeep => {
                &[(3, "crit_hit"), (2, "hit"), (1, "draw"), (0, "miss")]
            }
            // Embergard's results are successful, drawn and failed; criticals are ordinary
            // successes that switch on a weapon ability, so it has no critical hit.
            Edition::Embergard => &[(2, "hit"), (1, "draw"), (0, "miss")],
        }
    }
}

/// One side of the situation: the attacker.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackerSpec {
    /// The warband.
    pub warband: String,
    /// The fighter (its name in the warband).
    pub fighter: String,
    /// The weapon (its name on the fighter's card).
    pub weapon: String,
    /// Whether the fighter is inspired.
    #[serde(default)]
    pub inspired: bool,
    /// Re-rolls of attack dice that cards give (Harrowdeep's `attack_rerolls`).
    #[serde(default)]
    pub rerolls: u32,
    /// The weapon ability picked, where the edition asks for one (Embergard); the first
    /// offered when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<String>,
}

/// The target of the situation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    /// The warband.
    pub warband: String,
    /// The fighter.
    pub fighter: String,
    /// Whether the fighter is inspired.
    #[serde(default)]
    pub inspired: bool,
    /// Whether it is on Guard (a guard token).
    #[serde(default)]
    pub guard: bool,
    /// Whether it stands in cover (Harrowdeep: a cover hex).
    #[serde(default)]
    pub cover: bool,
    /// Whether it has a Stagger token.
    #[serde(default)]
    pub staggered: bool,
    /// Whether it is trapped: every hex it could be driven back into is blocked.
    #[serde(default)]
    pub trapped: bool,
    /// Re-rolls of defence dice that cards give (Harrowdeep's `defence_rerolls`).
    #[serde(default)]
    pub rerolls: u32,
}

/// A situation: who attacks whom with what, and around them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Situation {
    /// The attacker.
    pub attacker: AttackerSpec,
    /// The target.
    pub target: TargetSpec,
    /// The attacker's friends adjacent to the target.
    #[serde(default)]
    pub attacker_supports: u32,
    /// The target's friends adjacent to the attacker.
    #[serde(default)]
    pub target_supports: u32,
}

/// What was read from the data for the situation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Profile {
    /// The edition.
    pub edition: Edition,
    /// The weapon's Dice (on the fighter's side).
    pub dice: i64,
    /// The weapon's symbol.
    pub symbol: String,
    /// The weapon's Damage.
    pub damage: i64,
    /// The weapon's Range.
    pub range: i64,
    /// The weapon's keywords.
    pub keywords: Vec<String>,
    /// The target's Defence (dice).
    pub defence: i64,
    /// The target's defence symbol.
    pub defence_symbol: String,
    /// The target's Wounds.
    pub wounds: i64,
}

/// The exact distribution of one attack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Odds {
    /// What was read from the data.
    pub profile: Profile,
    /// The chance of each result: `crit_hit`, `hit`, `draw`, `miss`.
    pub outcomes: BTreeMap<&'static str, Exact>,
    /// The chance of each amount of damage dealt to the target (capped by its Wounds, as
    /// the rules cap it).
    pub damage: BTreeMap<i64, Exact>,
    /// The expected damage.
    pub expected_damage: Exact,
    /// How many leaves the enumeration ran the scripts of: a chance node whose game state
    /// was met before is not walked again, so this counts distinct futures, not paths.
    pub leaves: usize,
    /// The chance that the attacker or the target turned to its other side during the
    /// attack (an Inspire condition that holds in the situation, as Embergard's do while
    /// friends stand adjacent): the rules apply it, so the odds are those of the fighter
    /// as it attacked, not as the situation was given.
    pub side_changed: Exact,
}

impl Odds {
    /// The contract's JSON: `profile`, `outcomes`, `damage`, `expected_damage`, every
    /// chance an exact fraction `p/q` (`"0"` for none, `"1"` for certain).
    pub fn to_json(&self) -> serde_json::Value {
        let outcomes: serde_json::Map<String, serde_json::Value> =
            ["crit_hit", "hit", "draw", "miss"]
                .iter()
                .map(|key| {
                    let p = self.outcomes.get(key).cloned().unwrap_or_default();
                    ((*key).to_owned(), serde_json::Value::String(p.to_string()))
                })
                .collect();
        let damage: serde_json::Map<String, serde_json::Value> = self
            .damage
            .iter()
            .map(|(amount, p)| (amount.to_string(), serde_json::Value::String(p.to_string())))
            .collect();
        serde_json::json!({
            "profile": self.profile,
            "outcomes": outcomes,
            "damage": damage,
            "expected_damage": self.expected_damage.to_string(),
        })
    }
}

/// An exact fraction as the contract writes it: `p/q`, `0` or `1`... (an integer when the
/// denominator is 1).
pub fn fraction(p: Ratio) -> String {
    if p.den() == 1 {
        p.num().to_string()
    } else {
        p.to_string()
    }
}

/// Loads `paths` with a new script host for `gloam odds`; any problem in the data refuses.
pub(crate) fn load_for_odds(paths: &[PathBuf]) -> Result<(Loaded, Rc<gloam_dsl::Host>), OddsError> {
    let host = Rc::new(gloam_dsl::Host::new());
    let (sources, mut problems) = read_paths(paths);
    let (loaded, load_problems) = load(&sources, &host);
    problems.extend(load_problems);
    if let Some(first) = problems.first() {
        return Err(OddsError::Data {
            count: problems.len(),
            first: first.to_string(),
        });
    }
    Ok((loaded, host))
}

/// A loaded library, ready to stage attacks of one ruleset.
pub struct Calculator {
    loaded: Rc<Loaded>,
    host: Rc<gloam_dsl::Host>,
    ruleset: String,
    edition: Edition,
    /// Matches already set up, by (attacker warband, target warband).
    matches: BTreeMap<(String, String), RulesetGame>,
}

/// A fighter that can attack or be attacked, for `--list`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Listed {
    /// The warband.
    pub warband: String,
    /// The fighter.
    pub fighter: String,
    /// Its weapons (both sides).
    pub weapons: Vec<ListedWeapon>,
}

/// A weapon in `--list`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListedWeapon {
    /// Its name.
    pub name: String,
    /// `inspired` or `uninspired` for a weapon of one side only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Range.
    pub range: i64,
    /// Dice.
    pub dice: i64,
    /// Symbol.
    pub symbol: String,
    /// Damage.
    pub damage: i64,
}

impl Calculator {
    /// Loads `paths` for `ruleset` (which must be, or extend, an Underworlds edition).
    pub fn new(paths: &[PathBuf], ruleset: &str) -> Result<Calculator, OddsError> {
        let (loaded, host) = load_for_odds(paths)?;
        let Some(resolved) = loaded.library.ruleset(ruleset) else {
            let names: Vec<&str> = loaded
                .library
                .rulesets()
                .iter()
                .map(|r| r.name.as_str())
                .collect();
            return Err(OddsError::Unknown(format!(
                "no ruleset named `{ruleset}` is loaded; loaded: {}",
                names.join(", ")
            )));
        };
        let name = resolved.name.clone();
        let chain: Vec<String> = loaded
            .ruleset_chain(&name)
            .into_iter()
            .map(str::to_owned)
            .collect();
        let edition = if chain.iter().any(|r| r == "harrowdeep") {
            Edition::Harrowdeep
        } else if chain.iter().any(|r| r == "embergard") {
            Edition::Embergard
        } else if chain.iter().any(|r| r == "shadespire") {
            Edition::Shadespire
        } else {
            return Err(OddsError::Unknown(format!(
                "ruleset `{ruleset}` is not an Underworlds edition (harrowdeep, shadespire, embergard) nor extends one; table games get odds once they exist"
            )));
        };
        Ok(Calculator {
            loaded: Rc::new(loaded),
            host,
            ruleset: name,
            edition,
            matches: BTreeMap::new(),
        })
    }

    /// The edition.
    pub fn edition(&self) -> Edition {
        self.edition
    }

    fn warbands(&self) -> Vec<&gloam_grammar::WarbandDef> {
        let chain = self.loaded.ruleset_chain(&self.ruleset);
        self.loaded
            .library
            .warbands()
            .iter()
            .filter(|w| chain.contains(&w.ruleset.as_str()) || w.ruleset == self.ruleset)
            .collect()
    }

    /// Every fighter of the ruleset's warbands, with its weapons.
    pub fn list(&self) -> Vec<Listed> {
        self.warbands()
            .into_iter()
            .flat_map(|w| {
                w.fighters.iter().map(|f| Listed {
                    warband: w.name.clone(),
                    fighter: f.name.clone(),
                    weapons: f
                        .weapons
                        .iter()
                        .map(|weapon| ListedWeapon {
                            name: weapon.name.clone(),
                            side: weapon.side.map(|s| s.name().to_owned()),
                            range: weapon.range,
                            dice: weapon.dice,
                            symbol: weapon.symbol.clone(),
                            damage: weapon.damage,
                        })
                        .collect(),
                })
            })
            .collect()
    }

    fn fighter(&self, warband: &str, fighter: &str) -> Result<&FighterDef, OddsError> {
        let warbands = self.warbands();
        let Some(band) = warbands.iter().find(|w| w.name == warband) else {
            return Err(OddsError::Unknown(format!(
                "no warband `{warband}` in ruleset `{}`; warbands: {}",
                self.ruleset,
                warbands
                    .iter()
                    .map(|w| w.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        band.fighter(fighter).ok_or_else(|| {
            OddsError::Unknown(format!(
                "no fighter `{fighter}` in warband `{warband}`; fighters: {}",
                band.fighters
                    .iter()
                    .map(|f| f.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
    }

    fn rules_for(&mut self, attacker: &str, target: &str) -> Result<RulesetGame, OddsError> {
        let key = (attacker.to_owned(), target.to_owned());
        if let Some(rules) = self.matches.get(&key) {
            return Ok(rules.clone());
        }
        let seat = |name: &str, warband: &str| Seat {
            name: name.to_owned(),
            warband: warband.to_owned(),
            decklist: None,
            board: None,
            army: None,
            party: None,
        };
        let spec = MatchSpec {
            ruleset: self.ruleset.clone(),
            seats: vec![seat("Attacker", attacker), seat("Target", target)],
            table: None,
        };
        let rules = RulesetGame::new(self.loaded.clone(), self.host.clone(), spec)
            .map_err(|e| OddsError::Stage(e.to_string()))?;
        self.matches.insert(key, rules.clone());
        Ok(rules)
    }

    /// The profile of a situation, read from the data.
    pub fn profile(&self, situation: &Situation) -> Result<Profile, OddsError> {
        let attacker = self.fighter(&situation.attacker.warband, &situation.attacker.fighter)?;
        let target = self.fighter(&situation.target.warband, &situation.target.fighter)?;
        let weapon = weapon_of(
            attacker,
            &situation.attacker.weapon,
            situation.attacker.inspired,
        )?;
        let stat = |f: &FighterDef, inspired: bool, name: &str| -> i64 {
            let base = f.stat(name).unwrap_or(0);
            if inspired {
                f.inspired
                    .iter()
                    .find(|s| s.name == name)
                    .map_or(base, |s| s.value)
            } else {
                base
            }
        };
        let inspired_value = |name: &str, base: i64| -> i64 {
            if situation.attacker.inspired {
                weapon
                    .inspired
                    .iter()
                    .find(|s| s.name == name)
                    .map_or(base, |s| s.value)
            } else {
                base
            }
        };
        let mut keywords: Vec<String> = weapon.keywords.iter().map(|k| k.name.clone()).collect();
        if situation.attacker.inspired {
            keywords.extend(weapon.inspired_keywords.iter().map(|k| k.name.clone()));
        }
        keywords.sort();
        keywords.dedup();
        let defence_symbol = target
            .symbols
            .iter()
            .find(|s| s.characteristic == "defence")
            .map(|s| s.face.clone())
            .unwrap_or_default();
        Ok(Profile {
            edition: self.edition,
            dice: inspired_value("dice", weapon.dice),
            symbol: weapon.symbol.clone(),
            damage: inspired_value("damage", weapon.damage),
            range: inspired_value("range", weapon.range),
            keywords,
            defence: stat(target, situation.target.inspired, "defence"),
            defence_symbol,
            wounds: stat(target, situation.target.inspired, "wounds"),
        })
    }

    /// Stages the situation, ready for the attack: chance mode on, the attack not yet run.
    pub fn stage(&mut self, situation: &Situation) -> Result<StagedAttack, OddsError> {
        if situation.target.cover && self.edition != Edition::Harrowdeep {
            return Err(OddsError::Stage(format!(
                "cover is staged for harrowdeep only (a cover hex); {:?} keeps cover on feature tokens or has none",
                self.edition
            )));
        }
        if (situation.attacker.rerolls > 0 || situation.target.rerolls > 0)
            && self.edition != Edition::Harrowdeep
        {
            return Err(OddsError::Stage(
                "re-rolls from cards are staged for harrowdeep only (its `attack_rerolls` and `defence_rerolls`)".into(),
            ));
        }
        let profile = self.profile(situation)?;
        if let Some(sweep) = profile
            .keywords
            .iter()
            .find(|k| *k == "all_adjacent" || *k == "scything")
        {
            return Err(OddsError::Stage(format!(
                "`{}` has `{sweep}`: it attacks every adjacent enemy, one attack each, and gloam odds gives the odds of one attack; not supported yet",
                situation.attacker.weapon
            )));
        }
        if profile.keywords.iter().any(|k| k == "reaction") {
            return Err(OddsError::Stage(format!(
                "`{}` is used as a reaction, not in an Attack action, and gloam odds stages an Attack action; not supported yet",
                situation.attacker.weapon
            )));
        }
        let attacker_def = self
            .fighter(&situation.attacker.warband, &situation.attacker.fighter)?
            .clone();
        let target_def = self
            .fighter(&situation.target.warband, &situation.target.fighter)?
            .clone();
        let rules = self.rules_for(&situation.attacker.warband, &situation.target.warband)?;
        let battlefield = rules.battlefield().clone();
        // Open ground: on the battlefield, and none of the hex types that change an attack
        // or a fighter standing there (a cover hex is laid on only if the situation says).
        let plain = |h: Hex| {
            battlefield.contains(h)
                && ["blocked", "lethal", "cover", "stagger_hex"]
                    .iter()
                    .all(|t| !battlefield.has_type(h, t))
        };
        let mut pairs: Vec<(Hex, Hex)> = battlefield
            .hexes()
            .filter(|&t| plain(t) && t.neighbors().into_iter().all(plain))
            .flat_map(|t| t.neighbors().into_iter().map(move |a| (t, a)))
            .filter(|(_, a)| a.neighbors().into_iter().all(plain))
            .collect();
        pairs.sort();
        let Some(&(target_hex, attacker_hex)) = pairs.first() else {
            return Err(OddsError::Stage(
                "the battlefield has no open ground two hexes wide to stage the attack on".into(),
            ));
        };
        let near_both: Vec<Hex> = target_hex
            .neighbors()
            .into_iter()
            .filter(|h| h.distance_to(attacker_hex) == 1)
            .collect();
        let behind: Vec<Hex> = target_hex
            .neighbors()
            .into_iter()
            .filter(|h| h.distance_to(attacker_hex) == 2)
            .collect();
        let behind_attacker: Vec<Hex> = attacker_hex
            .neighbors()
            .into_iter()
            .filter(|h| h.distance_to(target_hex) == 2)
            .collect();
        // The attacker's supporters: beside both first, then behind the target (one hex
        // behind it stays free unless it is trapped).
        let mut support_hexes = near_both.clone();
        let spare = if situation.target.trapped { 3 } else { 2 };
        support_hexes.extend(behind.iter().take(spare));
        if situation.attacker_supports as usize > support_hexes.len() {
            return Err(OddsError::Stage(format!(
                "at most {} attacker supporters fit around the target",
                support_hexes.len()
            )));
        }
        if situation.target_supports as usize > behind_attacker.len() {
            return Err(OddsError::Stage(format!(
                "at most {} target supporters fit around the attacker",
                behind_attacker.len()
            )));
        }
        let game = Game::start(rules.clone(), rules.setup(1), vec![])
            .map_err(|e| OddsError::Stage(e.to_string()))?;
        let state = game.state();
        let find = |owner: u8, name: &str| -> Option<PieceId> {
            state
                .pieces
                .values()
                .find(|p| p.owner == PlayerId(owner) && p.kind == name)
                .map(|p| p.id)
        };
        let attacker = find(0, &attacker_def.name).ok_or_else(|| {
            OddsError::Stage(format!("the match has no fighter `{}`", attacker_def.name))
        })?;
        let target = find(1, &target_def.name).ok_or_else(|| {
            OddsError::Stage(format!("the match has no fighter `{}`", target_def.name))
        })?;
        let friends = |owner: u8, not: PieceId| -> Vec<PieceId> {
            state
                .pieces
                .values()
                .filter(|p| p.owner == PlayerId(owner) && p.id != not && p.layer.is_empty())
                .map(|p| p.id)
                .collect()
        };
        let attacker_friends = friends(0, attacker);
        let target_friends = friends(1, target);
        if attacker_friends.len() < situation.attacker_supports as usize {
            return Err(OddsError::Stage(format!(
                "warband `{}` has {} other fighters, not {} supporters",
                situation.attacker.warband,
                attacker_friends.len(),
                situation.attacker_supports
            )));
        }
        if target_friends.len() < situation.target_supports as usize {
            return Err(OddsError::Stage(format!(
                "warband `{}` has {} other fighters, not {} supporters",
                situation.target.warband,
                target_friends.len(),
                situation.target_supports
            )));
        }
        let mut placements = vec![(attacker, attacker_hex), (target, target_hex)];
        placements.extend(
            attacker_friends
                .iter()
                .zip(&support_hexes)
                .take(situation.attacker_supports as usize)
                .map(|(p, h)| (*p, *h)),
        );
        placements.extend(
            target_friends
                .iter()
                .zip(&behind_attacker)
                .take(situation.target_supports as usize)
                .map(|(p, h)| (*p, *h)),
        );
        // Everyone else stands on the battlefield too, three hexes or more from both (an
        // unplaced fighter would read as out of action, which some Inspire conditions and
        // cards count), on hexes that are neither blocked nor lethal.
        let placed: Vec<PieceId> = placements.iter().map(|(p, _)| *p).collect();
        let mut rest: Vec<PieceId> = state
            .pieces
            .values()
            .filter(|p| p.layer.is_empty() && !placed.contains(&p.id))
            .map(|p| p.id)
            .collect();
        rest.sort();
        let mut far: Vec<Hex> = battlefield
            .hexes()
            .filter(|&h| {
                h.distance_to(target_hex) >= 3
                    && h.distance_to(attacker_hex) >= 3
                    && !battlefield.has_type(h, "blocked")
                    && !battlefield.has_type(h, "lethal")
            })
            .collect();
        far.sort();
        if far.len() < rest.len() {
            return Err(OddsError::Stage(format!(
                "the battlefield has room for {} of the other {} fighters away from the attack",
                far.len(),
                rest.len()
            )));
        }
        placements.extend(rest.into_iter().zip(far));
        let occupied: Vec<Hex> = placements.iter().map(|(_, h)| *h).collect();
        let mut blocked = Vec::new();
        if situation.target.trapped {
            blocked.extend(behind.iter().filter(|h| !occupied.contains(h)).copied());
        }
        let arrangement = Arrangement {
            placements,
            blocked,
            cover: situation.target.cover.then_some(target_hex),
            inspire: [
                (situation.attacker.inspired, attacker, attacker_def.clone()),
                (situation.target.inspired, target, target_def.clone()),
            ]
            .into_iter()
            .filter(|(on, _, _)| *on)
            .map(|(_, piece, def)| (piece, def))
            .collect(),
            tokens: [
                (situation.target.guard, target, "guard"),
                (situation.target.staggered, target, "stagger"),
            ]
            .into_iter()
            .filter(|(on, _, _)| *on)
            .map(|(_, piece, token)| (piece, token.to_owned()))
            .collect(),
            modifiers: [
                (situation.attacker.rerolls, attacker, "attack_rerolls"),
                (situation.target.rerolls, target, "defence_rerolls"),
            ]
            .into_iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|(n, piece, name)| (piece, name.to_owned(), i64::from(n)))
            .collect(),
        };
        let staged = Staged {
            rules,
            arrangement: Rc::new(arrangement),
        };
        let mut game = Game::start(staged, game.record().setup.clone(), vec![])
            .map_err(|e| OddsError::Stage(e.to_string()))?;
        let mut attack = Frame::new("attack_action")
            .with("player", Value::Player(PlayerId(0)))
            .with("fighter", Value::Piece(attacker))
            .with("target", Value::Piece(target));
        // Harrowdeep: an Attack action that is not granted by a card (`data` set) opens no
        // after-action window of its own; it changes nothing in the attack.
        if self.edition == Edition::Harrowdeep {
            attack = attack.with("data", Value::Str("odds".into()));
        }
        game.set_chance_mode(true)
            .map_err(|e| OddsError::Stage(e.to_string()))?;
        Ok(StagedAttack {
            game,
            attack,
            attacker,
            target,
            profile,
        })
    }

    /// The exact odds of the situation.
    pub fn odds(&mut self, situation: &Situation) -> Result<Odds, OddsError> {
        let staged = self.stage(situation)?;
        let mut walk = Walk {
            policy: Policy::new(&staged.profile, situation, staged.target),
            target: staged.target,
            edition: self.edition,
            attacker: staged.attacker,
            leaves: 0,
            memo: BTreeMap::new(),
        };
        let mut game = staged.game;
        let start = game.events().len();
        game.push_frame(staged.attack).map_err(run_error)?;
        let endings = walk.explore(game, start)?;
        let mut results: BTreeMap<&'static str, Exact> = BTreeMap::new();
        let mut damage: BTreeMap<i64, Exact> = BTreeMap::new();
        let mut side_changed = Exact::zero();
        for ((key, dealt, turned), p) in endings {
            add(&mut results, key, &p);
            add(&mut damage, dealt, &p);
            if turned {
                side_changed += &p;
            }
        }
        let expected = expected_amount(&damage);
        let mut outcomes: BTreeMap<&'static str, Exact> = ["crit_hit", "hit", "draw", "miss"]
            .into_iter()
            .map(|key| (key, Exact::zero()))
            .collect();
        outcomes.extend(results);
        Ok(Odds {
            profile: staged.profile,
            outcomes,
            damage,
            expected_damage: expected,
            leaves: walk.leaves,
            side_changed,
        })
    }
}

/// A situation staged in a game: chance mode on, the attack's frame not yet pushed.
pub struct StagedAttack {
    /// The game, after its set-up and the arrangement.
    pub game: Game<Staged>,
    /// The Attack action to push ([`Game::push_frame`]).
    pub attack: Frame,
    /// The attacker.
    pub attacker: PieceId,
    /// The target.
    pub target: PieceId,
    /// What was read from the data.
    pub profile: Profile,
}

/// The decisions of the enumeration (see the module's documentation).
struct Policy {
    target: PieceId,
    weapon: String,
    ability: Option<String>,
    hits: Vec<String>,
    saves: Vec<String>,
}

impl Policy {
    fn new(profile: &Profile, situation: &Situation, target: PieceId) -> Policy {
        let mut hits = vec!["critical".to_owned(), profile.symbol.clone()];
        if situation.attacker_supports >= 1 {
            hits.push("single_support".into());
        }
        if situation.attacker_supports >= 2 {
            hits.push("double_support".into());
        }
        let mut saves = vec!["critical".to_owned(), profile.defence_symbol.clone()];
        if situation.target.guard {
            saves.extend(["block", "dodge", "shield"].map(str::to_owned));
        }
        if situation.target_supports >= 1 || situation.target.cover {
            saves.push("single_support".into());
        }
        if situation.target_supports >= 2 {
            saves.push("double_support".into());
        }
        Policy {
            target,
            weapon: situation.attacker.weapon.clone(),
            ability: situation.attacker.ability.clone(),
            hits,
            saves,
        }
    }

    fn decide(&self, request: &Request) -> Result<Answer, OddsError> {
        let Options::One { choices } = &request.options else {
            return Err(OddsError::Run(format!(
                "the attack asked `{}` with a kind of question the odds policy does not answer",
                request.prompt
            )));
        };
        let option = |text: &str| Choice::Option(text.to_owned());
        let has = |choice: &Choice| choices.contains(choice);
        if has(&Choice::Piece(self.target)) {
            return Ok(Answer::One(Choice::Piece(self.target)));
        }
        if has(&option(&self.weapon)) {
            return Ok(Answer::One(option(&self.weapon)));
        }
        if let Some(ability) = &self.ability {
            if has(&option(ability)) {
                return Ok(Answer::One(option(ability)));
            }
        }
        if request.prompt.contains("ability") {
            if let Some(first) = choices.first() {
                return Ok(Answer::One(first.clone()));
            }
        }
        if has(&option("keep the roll")) {
            let good = if request.player == PlayerId(0) {
                &self.hits
            } else {
                &self.saves
            };
            let reroll = choices.iter().find(|choice| match choice {
                Choice::Option(text) if text.starts_with("re-roll") => {
                    face_named(text).is_some_and(|face| !good.iter().any(|g| g == face))
                }
                _ => false,
            });
            return Ok(Answer::One(
                reroll.cloned().unwrap_or_else(|| option("keep the roll")),
            ));
        }
        for passive in ["pass", "leave it", "stay", "none", "no"] {
            if has(&option(passive)) {
                return Ok(Answer::One(option(passive)));
            }
        }
        if has(&Choice::Pass) {
            return Ok(Answer::One(Choice::Pass));
        }
        choices
            .first()
            .map(|c| Answer::One(c.clone()))
            .ok_or_else(|| OddsError::Run(format!("`{}` offers nothing", request.prompt)))
    }
}

/// The face a re-roll option names: `re-roll die 2 (fury)` or `re-roll a fury`.
fn face_named(text: &str) -> Option<&str> {
    if let (Some(open), Some(close)) = (text.rfind('('), text.rfind(')')) {
        if open < close {
            return Some(&text[open + 1..close]);
        }
    }
    text.rsplit(' ').next()
}

/// How an attack ended, seen from a point of its tree: the result `attack_outcome` names,
/// the damage dealt to the target since that point, and whether the attacker or the target
/// turned to its other side since then.
type Ending = (&'static str, i64, bool);

/// The chance of each [`Ending`] from a point of the tree, given that the point is reached.
type Endings = BTreeMap<Ending, Exact>;

/// The enumeration: a depth-first walk of the chance tree that remembers, at each chance
/// node, the endings that follow from its game state. Scripts read the state and never the
/// event log, so two nodes of equal state have equal futures (re-rolled dice, and dice
/// pooled by face, reach one state by many paths): the second is read from the memo.
struct Walk {
    policy: Policy,
    target: PieceId,
    edition: Edition,
    attacker: PieceId,
    /// Leaves whose scripts ran (a remembered subtree is not walked again).
    leaves: usize,
    /// The endings after each chance node, by the node's state (as JSON).
    memo: BTreeMap<Vec<u8>, Rc<Endings>>,
}

impl Walk {
    /// The endings of `game`, counted from the event at `base` of its log.
    fn explore(&mut self, mut game: Game<Staged>, base: usize) -> Result<Endings, OddsError> {
        loop {
            if game.chance_pending().is_some() {
                let node = game.events().len();
                let key = serde_json::to_vec(game.state()).map_err(run_error)?;
                let after = match self.memo.get(&key) {
                    Some(after) => after.clone(),
                    None => {
                        let mut after = Endings::new();
                        let outcomes = game.chance_outcomes().map_err(run_error)?;
                        for (outcome, p) in outcomes {
                            let p = Exact::from(p);
                            let mut branch = game.clone();
                            branch.apply_chance(&outcome).map_err(run_error)?;
                            for (ending, q) in self.explore(branch, node)? {
                                add(&mut after, ending, &(&p * &q));
                            }
                        }
                        let after = Rc::new(after);
                        self.memo.insert(key, after.clone());
                        after
                    }
                };
                // The events between `base` and the node come before every ending.
                let (dealt, turned) = self.since(&game, base);
                let mut endings = Endings::new();
                for (&(key, more, turns), p) in after.iter() {
                    add(&mut endings, (key, dealt + more, turned || turns), p);
                }
                return Ok(endings);
            }
            if let Some(request) = game.pending().first().map(|r| (*r).clone()) {
                let answer = self.policy.decide(&request)?;
                game.submit(request.player, answer).map_err(run_error)?;
                continue;
            }
            return self.leaf(&game, base);
        }
    }

    /// The damage dealt to the target in the events from `base` on, and whether the
    /// attacker or the target turned to its other side in them.
    fn since(&self, game: &Game<Staged>, base: usize) -> (i64, bool) {
        let events = &game.events()[base..];
        let dealt: i64 = events
            .iter()
            .map(|event| match event {
                Event::CounterChanged {
                    scope: Scope::Piece(piece),
                    name,
                    from,
                    to,
                } if *piece == self.target && name == "damage" && to > from => to - from,
                _ => 0,
            })
            .sum();
        let turned = events.iter().any(|event| {
            matches!(event, Event::KeywordChanged { piece, keyword, .. }
                if (*piece == self.target || *piece == self.attacker) && keyword == "inspired")
        });
        (dealt, turned)
    }

    fn leaf(&mut self, game: &Game<Staged>, base: usize) -> Result<Endings, OddsError> {
        self.leaves += 1;
        if self.leaves > MAX_LEAVES {
            return Err(OddsError::Run(format!(
                "more than {MAX_LEAVES} outcomes to enumerate; use fewer dice"
            )));
        }
        let value = game.state().counter("attack_outcome");
        let key = self
            .edition
            .result_names()
            .iter()
            .find(|(v, _)| *v == value)
            .map(|(_, key)| *key)
            .ok_or_else(|| {
                OddsError::Run(format!("the attack ended with an unknown result {value}"))
            })?;
        let (dealt, turned) = self.since(game, base);
        Ok(BTreeMap::from([((key, dealt, turned), Exact::one())]))
    }
}

fn add<K: Ord>(map: &mut BTreeMap<K, Exact>, key: K, p: &Exact) {
    *map.entry(key).or_default() += p;
}

/// The expected amount of a distribution of whole amounts (a negative amount counts 0).
pub(crate) fn expected_amount(distribution: &BTreeMap<i64, Exact>) -> Exact {
    let mut expected = Exact::zero();
    for (amount, p) in distribution {
        let amount = Exact::whole(u64::try_from(*amount).unwrap_or(0));
        expected += &(p * &amount);
    }
    expected
}

fn run_error(error: impl std::fmt::Display) -> OddsError {
    OddsError::Run(error.to_string())
}

fn weapon_of<'a>(
    fighter: &'a FighterDef,
    name: &str,
    inspired: bool,
) -> Result<&'a WeaponDef, OddsError> {
    let side = if inspired {
        gloam_grammar::Side::Inspired
    } else {
        gloam_grammar::Side::Uninspired
    };
    fighter
        .weapons
        .iter()
        .find(|w| w.name == name && w.side.is_none_or(|s| s == side))
        .ok_or_else(|| {
            OddsError::Unknown(format!(
                "`{}` has no weapon `{name}` on its {} side; weapons: {}",
                fighter.name,
                side.name(),
                fighter
                    .weapons
                    .iter()
                    .filter(|w| w.side.is_none_or(|s| s == side))
                    .map(|w| w.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

/// How the battlefield is arranged once the match's own set-up is done.
#[derive(Debug)]
struct Arrangement {
    placements: Vec<(PieceId, Hex)>,
    blocked: Vec<Hex>,
    cover: Option<Hex>,
    inspire: Vec<(PieceId, FighterDef)>,
    tokens: Vec<(PieceId, String)>,
    modifiers: Vec<(PieceId, String, i64)>,
}

impl Arrangement {
    fn apply(&self, ctx: &mut Ctx<'_>) -> Result<(), RuleError> {
        for (piece, hex) in &self.placements {
            ctx.place_piece(*piece, Some(Position::Hex(*hex)), vec![], "deploy")?;
        }
        for hex in &self.blocked {
            ctx.set_hex_type(*hex, "blocked", true);
        }
        if let Some(hex) = self.cover {
            ctx.set_hex_type(hex, "cover", true);
        }
        for (piece, def) in &self.inspire {
            // As the script host's `inspire` does: the keyword, and the inspired side's
            // characteristics.
            ctx.set_keyword(*piece, "inspired", true)?;
            for stat in &def.inspired {
                ctx.set_characteristic(*piece, &stat.name, stat.value)?;
            }
        }
        for (piece, token) in &self.tokens {
            ctx.set_tokens(Scope::Piece(*piece), token, 1)?;
        }
        for (piece, name, amount) in &self.modifiers {
            ctx.add_modifier(ModifierSpec::new(
                ModTarget::Piece(*piece),
                name,
                ModOp::Add(*amount),
            ))?;
        }
        Ok(())
    }
}

/// The match's rules with a situation arranged right after the set-up.
#[derive(Clone, Debug)]
pub struct Staged {
    rules: RulesetGame,
    arrangement: Rc<Arrangement>,
}

impl Staged {
    /// The ruleset the attack is played by.
    pub fn rules(&self) -> &RulesetGame {
        &self.rules
    }
}

impl Rules for Staged {
    fn start(&self, ctx: &mut Ctx<'_>, setup: &Setup) -> Result<(), RuleError> {
        self.rules.start(ctx, setup)?;
        self.arrangement.apply(ctx)
    }

    fn step(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
        self.rules.step(ctx, frame)
    }
}
