//! Exact odds of one unit's attacks with one weapon in a game on a measured table
//! (`gloam odds spearhead`), from the rules themselves.
//!
//! As for the hex editions ([`crate::odds`]), nothing here knows how an attack is resolved:
//! the attack is staged in a game of the ruleset's own data (the two units set up close
//! together, every attacking model in reach of the target; the target wholly on a Cover
//! feature if the situation says so; the attacker marked as having charged if it did), the
//! game is put in chance mode and the ruleset's own `attacks` step is run for the weapon.
//! Every chance node is branched on a clone, with a memo of the futures of equal states, and
//! each leaf adds its chance to the damage the target unit took: the counter
//! `damage_inflicted` the ruleset's `allocate` step records on the target unit's first model
//! (the points after Ward rolls, before they are allocated to models). The profile is read
//! from the data and from the numbers the ruleset's `attacks` step worked out (its
//! `attack_hit` frames' `data`: hit, hit modifier, wound, wound modifier, save, rend, save
//! bonus, damage, crit, charge bonus). See `docs/odds.md`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;

use gloam_core::{
    Control, Ctx, Frame, Game, PieceId, PlayerId, Point, Position, RuleError, Rules, Scope, Setup,
    Value,
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::engine::{MatchSpec, RulesetGame, Seat, TableChoice};
use crate::exact::Exact;
use crate::load::Loaded;
use crate::odds::OddsError;

/// The most leaves one attack may have before the enumeration gives up.
pub const MAX_LEAVES: usize = 2_000_000;

/// The attacking unit of a table situation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableAttacker {
    /// The army.
    pub army: String,
    /// The unit (its warscroll's name).
    pub unit: String,
    /// The weapon.
    pub weapon: String,
    /// Whether the unit charged this turn.
    #[serde(default)]
    pub charged: bool,
}

/// The target unit of a table situation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableTarget {
    /// The army.
    pub army: String,
    /// The unit (its warscroll's name).
    pub unit: String,
    /// Whether it stands wholly on a Cover feature.
    #[serde(default)]
    pub cover: bool,
    /// Whether it charged this turn.
    #[serde(default)]
    pub charged: bool,
}

/// One unit's attacks with one weapon against another unit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSituation {
    /// The attacking unit.
    pub attacker: TableAttacker,
    /// The target unit.
    pub target: TableTarget,
}

/// A unit that can attack or be attacked, for `--list`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListedUnit {
    /// The army.
    pub army: String,
    /// The unit (warscroll).
    pub unit: String,
    /// Its keywords.
    pub keywords: Vec<String>,
    /// Its weapons.
    pub weapons: Vec<ListedTableWeapon>,
}

/// A weapon in `--list`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListedTableWeapon {
    /// Its name.
    pub name: String,
}

/// What was read for the situation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableProfile {
    /// The attacking models (all in reach of the target).
    pub models: usize,
    /// Attacks per model, as the data writes them (`"2"`, `"D3"`).
    pub attacks: String,
    /// The hit roll needed.
    pub hit: i64,
    /// The wound roll needed.
    pub wound: i64,
    /// Rend, with what the situation adds (Anti-X).
    pub rend: i64,
    /// Damage, as the data writes it.
    pub damage: String,
    /// The target's Save.
    pub save: i64,
    /// The target's Ward, if it has one.
    pub ward: Option<i64>,
    /// The weapon's critical-hit ability: `"2 hits"`, `"auto-wound"`, `"mortal"`.
    pub crit: Option<String>,
    /// The hit roll modifier (Cover, capped).
    pub hit_modifier: i64,
    /// The wound roll modifier.
    pub wound_modifier: i64,
    /// The save roll modifier.
    pub save_modifier: i64,
}

/// The exact damage distribution of one unit's attacks with one weapon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableOdds {
    /// What was read.
    pub profile: TableProfile,
    /// The chance of each number of damage points inflicted (before allocation).
    pub damage: BTreeMap<i64, Exact>,
    /// The expected damage points.
    pub expected_damage: Exact,
    /// Leaves whose scripts ran.
    pub leaves: usize,
}

impl TableOdds {
    /// The contract's JSON: `profile`, `damage` (exact fractions), `expected_damage`.
    pub fn to_json(&self) -> serde_json::Value {
        let damage: serde_json::Map<String, serde_json::Value> = self
            .damage
            .iter()
            .map(|(amount, p)| (amount.to_string(), serde_json::Value::String(p.to_string())))
            .collect();
        serde_json::json!({
            "profile": self.profile,
            "damage": damage,
            "expected_damage": self.expected_damage.to_string(),
        })
    }
}

/// A loaded library, ready to stage attacks of one table ruleset.
pub struct TableCalculator {
    loaded: Rc<Loaded>,
    host: Rc<gloam_dsl::Host>,
    ruleset: String,
}

fn stage_error(error: impl std::fmt::Display) -> OddsError {
    OddsError::Stage(error.to_string())
}

fn run_error(error: impl std::fmt::Display) -> OddsError {
    OddsError::Run(error.to_string())
}

impl TableCalculator {
    /// Loads `paths` for `ruleset`, whose players bring armies to a table.
    pub fn new(paths: &[PathBuf], ruleset: &str) -> Result<TableCalculator, OddsError> {
        let (loaded, host) = crate::odds::load_for_odds(paths)?;
        let calculator = TableCalculator {
            loaded: Rc::new(loaded),
            host,
            ruleset: ruleset.to_owned(),
        };
        if calculator.armies().is_empty() {
            return Err(OddsError::Unknown(format!(
                "ruleset `{ruleset}` has no armies: it is not played on a table"
            )));
        }
        Ok(calculator)
    }

    /// Whether `ruleset` in `paths`' data is played by armies on a table.
    pub fn is_table_ruleset(loaded: &Loaded, ruleset: &str) -> bool {
        let chain = loaded.ruleset_chain(ruleset);
        loaded
            .library
            .armies()
            .iter()
            .any(|a| chain.contains(&a.ruleset.as_str()))
    }

    fn armies(&self) -> Vec<&gloam_grammar::ArmyDef> {
        let chain = self.loaded.ruleset_chain(&self.ruleset);
        self.loaded
            .library
            .armies()
            .iter()
            .filter(|a| chain.contains(&a.ruleset.as_str()))
            .collect()
    }

    /// Every unit of the ruleset's armies, with its keywords and weapons.
    pub fn list(&self) -> Vec<ListedUnit> {
        self.armies()
            .into_iter()
            .flat_map(|army| {
                army.warscrolls.iter().map(|w| ListedUnit {
                    army: army.name.clone(),
                    unit: w.name.clone(),
                    keywords: w.keywords.clone(),
                    weapons: w
                        .weapons
                        .iter()
                        .map(|weapon| ListedTableWeapon {
                            name: weapon.name.clone(),
                        })
                        .collect(),
                })
            })
            .collect()
    }

    fn warscroll(&self, army: &str, unit: &str) -> Result<gloam_grammar::WarscrollDef, OddsError> {
        let armies = self.armies();
        let Some(found) = armies.iter().find(|a| a.name == army) else {
            return Err(OddsError::Unknown(format!(
                "no army `{army}` in ruleset `{}`; armies: {}",
                self.ruleset,
                armies
                    .iter()
                    .map(|a| a.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        found.warscroll(unit).cloned().ok_or_else(|| {
            OddsError::Unknown(format!(
                "no unit `{unit}` in army `{army}`; units: {}",
                found
                    .warscrolls
                    .iter()
                    .map(|w| w.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
    }

    /// The exact damage distribution of the situation.
    pub fn odds(&mut self, situation: &TableSituation) -> Result<TableOdds, OddsError> {
        let attacker_def = self.warscroll(&situation.attacker.army, &situation.attacker.unit)?;
        let target_def = self.warscroll(&situation.target.army, &situation.target.unit)?;
        let weapon = attacker_def
            .weapons
            .iter()
            .find(|w| w.name == situation.attacker.weapon)
            .cloned()
            .ok_or_else(|| {
                OddsError::Unknown(format!(
                    "`{}` has no weapon `{}`; weapons: {}",
                    attacker_def.name,
                    situation.attacker.weapon,
                    attacker_def
                        .weapons
                        .iter()
                        .map(|w| w.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
        let seat = |name: &str, army: &str| Seat {
            name: name.to_owned(),
            warband: String::new(),
            decklist: None,
            board: None,
            army: Some(army.to_owned()),
            party: None,
        };
        let spec = MatchSpec {
            ruleset: self.ruleset.clone(),
            seats: vec![
                seat("Attacker", &situation.attacker.army),
                seat("Target", &situation.target.army),
            ],
            table: Some(TableChoice {
                table: None,
                map: None,
            }),
        };
        let rules =
            RulesetGame::new(self.loaded.clone(), self.host.clone(), spec).map_err(stage_error)?;
        let bare = Game::start(rules.clone(), rules.setup(1), vec![]).map_err(stage_error)?;
        let state = bare.state();
        let first_unit = |owner: u8, kind: &str| -> Vec<PieceId> {
            let mut units: BTreeMap<i64, Vec<PieceId>> = BTreeMap::new();
            for piece in state
                .pieces
                .values()
                .filter(|p| p.owner == PlayerId(owner) && p.kind == kind && p.layer.is_empty())
            {
                let number = piece.characteristics.get("unit").copied().unwrap_or(0);
                units.entry(number).or_default().push(piece.id);
            }
            units.into_values().next().unwrap_or_default()
        };
        let attackers = first_unit(0, &attacker_def.name);
        let targets = first_unit(1, &target_def.name);
        if attackers.is_empty() || targets.is_empty() {
            return Err(OddsError::Stage("the match has no such units".into()));
        }
        let radius = |piece: PieceId| {
            state.pieces[&piece]
                .characteristics
                .get("base_radius")
                .copied()
                .unwrap_or(0)
        };
        let world = rules.world_in(state);
        let constant = |name: &str, default: i64| world.constant(name).unwrap_or(default);
        let reach = match weapon.range {
            Some(range) => range.length.as_tenth_mm(),
            None => constant("combat_range", 762),
        };
        // The cover feature, if asked: the first feature of the table in play with the
        // rule, its floor's bounding box holding the target unit.
        let table = world
            .table()
            .ok_or_else(|| OddsError::Stage("the match has no table".into()))?;
        let cover = if situation.target.cover {
            let feature = table
                .loose
                .iter()
                .chain(table.features.iter())
                .find(|f| f.has_rule("cover"))
                .ok_or_else(|| {
                    OddsError::Stage("the table has no terrain feature with the Cover rule".into())
                })?;
            Some(feature.clone())
        } else {
            None
        };
        // The target's models in a grid, bases 1 mm apart: on the cover feature's floor
        // (moved to the table's middle) or in the open, in the table's middle.
        let centre = Point::new(
            table.outline.iter().map(|p| p.x).max().unwrap_or(0) / 2,
            table.outline.iter().map(|p| p.y).max().unwrap_or(0) / 2,
        );
        let r_target = radius(targets[0]);
        let mut placements: Vec<(PieceId, Point)> = Vec::new();
        let (low, high, feature_at) = match &cover {
            Some(feature) => {
                let floor = &feature.footprints[0].footprint;
                let (x0, x1) = (
                    floor.iter().map(|p| p.x).min().unwrap_or(0),
                    floor.iter().map(|p| p.x).max().unwrap_or(0),
                );
                let (y0, y1) = (
                    floor.iter().map(|p| p.y).min().unwrap_or(0),
                    floor.iter().map(|p| p.y).max().unwrap_or(0),
                );
                let at = Point::new(centre.x - (x1 - x0) / 2 - x0, centre.y - (y1 - y0) / 2 - y0);
                (
                    Point::new(x0 + at.x, y0 + at.y),
                    Point::new(x1 + at.x, y1 + at.y),
                    Some((feature.name.clone(), at)),
                )
            }
            None => {
                let side = (targets.len() as f64).sqrt().ceil() as i64 * (2 * r_target + 10);
                (
                    Point::new(centre.x - side / 2, centre.y - side / 2),
                    Point::new(centre.x + side / 2, centre.y + side / 2),
                    None,
                )
            }
        };
        let step = 2 * r_target + 10;
        let mut y = low.y + r_target;
        let mut left = targets.clone();
        while !left.is_empty() && y + r_target <= high.y {
            let mut x = low.x + r_target;
            while !left.is_empty() && x + r_target <= high.x {
                placements.push((left.remove(0), Point::new(x, y)));
                x += step;
            }
            y += step;
        }
        if !left.is_empty() {
            return Err(OddsError::Stage(format!(
                "the {} do not fit wholly on a Cover feature of the table",
                target_def.name
            )));
        }
        // The attackers: around the target, each base in reach of a target model, not
        // overlapping, on a lattice searched outward from the target.
        let r_attacker = radius(attackers[0]);
        let target_points: Vec<Point> = placements.iter().map(|(_, p)| *p).collect();
        let gap_to = |p: Point, q: Point, r: i64| -> f64 {
            let (dx, dy) = ((p.x - q.x) as f64, (p.y - q.y) as f64);
            (dx * dx + dy * dy).sqrt() - (r + r_target) as f64
        };
        let mut spots: Vec<(i64, Point)> = Vec::new();
        let span = reach + 4 * r_attacker + 2 * r_target + (high.x - low.x).max(high.y - low.y);
        let lattice = r_attacker + 5;
        let mut gy = centre.y - span;
        while gy <= centre.y + span {
            let mut gx = centre.x - span;
            while gx <= centre.x + span {
                let p = Point::new(gx, gy);
                let nearest = target_points
                    .iter()
                    .map(|q| gap_to(p, *q, r_attacker))
                    .fold(f64::INFINITY, f64::min);
                // Clear of the target's bases (and of the cover floor), in reach.
                let on_floor = p.x + r_attacker > low.x
                    && p.x - r_attacker < high.x
                    && p.y + r_attacker > low.y
                    && p.y - r_attacker < high.y;
                if nearest >= 5.0 && nearest <= (reach - 20) as f64 && !on_floor {
                    spots.push((nearest as i64, p));
                }
                gx += lattice;
            }
            gy += lattice;
        }
        spots.sort_by_key(|(d, p)| (*d, p.y, p.x));
        let mut placed: Vec<Point> = Vec::new();
        for (_, p) in spots {
            if placed.len() == attackers.len() {
                break;
            }
            let clear = placed.iter().all(|q| {
                let (dx, dy) = ((p.x - q.x) as f64, (p.y - q.y) as f64);
                (dx * dx + dy * dy).sqrt() >= (2 * r_attacker + 5) as f64
            });
            if clear {
                placed.push(p);
            }
        }
        if placed.len() < attackers.len() {
            return Err(OddsError::Stage(format!(
                "only {} of the {} models of {} fit in reach of the target",
                placed.len(),
                attackers.len(),
                attacker_def.name
            )));
        }
        placements.extend(attackers.iter().copied().zip(placed));
        let arrangement = Arrangement {
            placements,
            terrain: feature_at,
            counters: [
                (situation.attacker.charged, attackers[0]),
                (situation.target.charged, targets[0]),
            ]
            .into_iter()
            .filter(|(on, _)| *on)
            .map(|(_, piece)| (piece, "charged_turn".to_owned(), 1))
            .collect(),
        };
        let staged = StagedTable {
            rules,
            arrangement: Rc::new(arrangement),
        };
        let mut game =
            Game::start(staged, bare.record().setup.clone(), vec![]).map_err(stage_error)?;
        game.set_chance_mode(true).map_err(stage_error)?;
        let how = if weapon.range.is_some() {
            "shoot"
        } else {
            "fight"
        };
        let attack = Frame::new("attacks")
            .with("player", Value::Player(PlayerId(0)))
            .with("attacker", Value::Piece(attackers[0]))
            .with("target", Value::Piece(targets[0]))
            .with("weapon", Value::Str(weapon.name.clone()))
            .with("data", Value::Str(how.into()));
        let mut walk = Walk {
            target: targets[0],
            leaves: 0,
            memo: BTreeMap::new(),
            numbers: None,
        };
        game.push_frame(attack).map_err(run_error)?;
        let damage = walk.explore(game)?;
        let expected = crate::odds::expected_amount(&damage);
        let amount = |a: &gloam_grammar::Amount| match a {
            gloam_grammar::Amount::Fixed(n) => n.to_string(),
            gloam_grammar::Amount::Roll { dice, die, plus } => format!(
                "{}D{}{}",
                if *dice == 1 {
                    String::new()
                } else {
                    dice.to_string()
                },
                die.strip_prefix('d').unwrap_or(die).to_uppercase(),
                match plus.signum() {
                    1 => format!("+{plus}"),
                    -1 => plus.to_string(),
                    _ => String::new(),
                }
            ),
        };
        let numbers = walk.numbers.unwrap_or_default();
        let int = |i: usize, default: i64| match numbers.get(i) {
            Some(Value::Int(n)) => *n,
            _ => default,
        };
        let stat = |name: &str| {
            target_def.stat(name).map(|q| match q {
                gloam_grammar::Quantity::Number(n) => n,
                gloam_grammar::Quantity::Length(l) => l.length.as_tenth_mm(),
            })
        };
        let crit = weapon
            .abilities
            .iter()
            .rev()
            .find_map(|a| match a.name.as_str() {
                "crit_2_hits" => Some("2 hits".to_owned()),
                "crit_auto_wound" => Some("auto-wound".to_owned()),
                "crit_mortal" => Some("mortal".to_owned()),
                _ => None,
            });
        let profile = TableProfile {
            models: attackers.len(),
            attacks: amount(&weapon.attacks),
            hit: weapon.hit,
            wound: weapon.wound,
            rend: int(5, weapon.rend),
            damage: amount(&weapon.damage),
            save: stat("save").unwrap_or(0),
            ward: stat("ward").filter(|w| *w > 0),
            crit,
            hit_modifier: int(1, 0),
            wound_modifier: int(3, 0),
            save_modifier: int(6, 0),
        };
        Ok(TableOdds {
            profile,
            damage,
            expected_damage: expected,
            leaves: walk.leaves,
        })
    }
}

/// The damage points inflicted from a point of the tree on, given it is reached.
type Damage = BTreeMap<i64, Exact>;

struct Walk {
    target: PieceId,
    leaves: usize,
    /// The futures after each chance node, by a digest of its state.
    memo: BTreeMap<[u8; 32], Rc<Damage>>,
    /// The numbers of an `attack_hit` frame (the same in every branch).
    numbers: Option<Vec<Value>>,
}

impl Walk {
    fn explore(&mut self, game: Game<StagedTable>) -> Result<Damage, OddsError> {
        if self.numbers.is_none() {
            if let Some(Value::List(numbers)) = game
                .state()
                .flow
                .iter()
                .rev()
                .find(|f| f.step == "attack_hit")
                .and_then(|f| f.var("data"))
            {
                self.numbers = Some(numbers.clone());
            }
        }
        if game.chance_pending().is_some() {
            let json = serde_json::to_vec(game.state()).map_err(run_error)?;
            let key: [u8; 32] = Sha256::digest(&json).into();
            if let Some(after) = self.memo.get(&key) {
                return Ok((**after).clone());
            }
            let mut after = Damage::new();
            for (outcome, p) in game.chance_outcomes().map_err(run_error)? {
                let p = Exact::from(p);
                let mut branch = game.clone();
                branch.apply_chance(&outcome).map_err(run_error)?;
                for (dealt, q) in self.explore(branch)? {
                    *after.entry(dealt).or_default() += &(&p * &q);
                }
            }
            self.memo.insert(key, Rc::new(after.clone()));
            return Ok(after);
        }
        if let Some(request) = game.pending().first() {
            return Err(OddsError::Run(format!(
                "the attack asked `{}`: the attacks of one weapon ask nothing",
                request.prompt
            )));
        }
        self.leaves += 1;
        if self.leaves > MAX_LEAVES {
            return Err(OddsError::Run(format!(
                "more than {MAX_LEAVES} outcomes to enumerate"
            )));
        }
        let dealt = game
            .state()
            .piece(self.target)
            .and_then(|p| p.counters.get("damage_inflicted").copied())
            .unwrap_or(0);
        Ok(BTreeMap::from([(dealt, Exact::one())]))
    }
}

/// The table arranged once the match's own set-up is done.
#[derive(Debug)]
struct Arrangement {
    placements: Vec<(PieceId, Point)>,
    terrain: Option<(String, Point)>,
    counters: Vec<(PieceId, String, i64)>,
}

impl Arrangement {
    fn apply(&self, ctx: &mut Ctx<'_>) -> Result<(), RuleError> {
        for (piece, at) in &self.placements {
            ctx.place_piece(
                *piece,
                Some(Position::Table {
                    at: *at,
                    facing: (0, 0),
                }),
                vec![],
                "set_up",
            )?;
        }
        if let Some((name, at)) = &self.terrain {
            let piece = ctx
                .state()
                .pieces
                .values()
                .find(|p| p.layer == gloam_dsl::TERRAIN_LAYER && p.kind == *name)
                .map(|p| p.id);
            if let Some(piece) = piece {
                ctx.place_piece(
                    piece,
                    Some(Position::Table {
                        at: *at,
                        facing: (0, 0),
                    }),
                    vec![],
                    "set_up",
                )?;
            }
        }
        ctx.set_counter(Scope::Game, "round", 1)?;
        ctx.set_counter(Scope::Game, "turn_serial", 1)?;
        ctx.set_counter(Scope::Game, "phase_serial", 1)?;
        for (piece, name, value) in &self.counters {
            ctx.set_counter(Scope::Piece(*piece), name, *value)?;
        }
        Ok(())
    }
}

/// The match's rules with a table situation arranged right after the set-up.
#[derive(Clone, Debug)]
pub struct StagedTable {
    rules: RulesetGame,
    arrangement: Rc<Arrangement>,
}

impl Rules for StagedTable {
    fn start(&self, ctx: &mut Ctx<'_>, setup: &Setup) -> Result<(), RuleError> {
        self.rules.start(ctx, setup)?;
        self.arrangement.apply(ctx)
    }

    fn step(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
        self.rules.step(ctx, frame)
    }
}
