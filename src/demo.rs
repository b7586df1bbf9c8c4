//! The kernel demonstration game behind `gloam demo`.
//!
//! Not a published system: a small skirmish whose dice, board, fighters and deployment are
//! read from `cards/demo/skirmish.json`, played on the kernel's real primitives (hex
//! board, exact line of sight, reachable sets, dice defined by data, decisions and events).
//! It stands in for a full ruleset until the data-driven rulesets land. Its rules: each
//! round, players alternate activations; an activation moves one fighter up to its Move
//! through empty hexes, or attacks an enemy in range and in line of sight (attack dice
//! showing the weapon's face or a critical, against defence dice showing the fighter's
//! face or a critical; more hits than saves deals the weapon's damage); a fighter whose
//! damage reaches its wounds is out of action and its attacker's player scores a kill.
//! Most kills after the last round wins.

use std::collections::BTreeSet;

use gloam_core::{
    Answer, Choice, Control, Ctx, Dice, DieDef, Frame, GameResult, GameState, Grid, Hex, Options,
    PieceId, PlayerId, Pool, Position, Request, RuleError, Rules, Scope, Setup, Sight, Value,
    reachable,
};
use serde::Deserialize;

/// The built-in demonstration data.
pub const BUILTIN: &str = include_str!("../cards/demo/skirmish.json");

#[derive(Clone, Debug, Deserialize)]
struct Spec {
    dice: Vec<DieDef>,
    board: BoardSpec,
    rounds: i64,
    activations_per_round: i64,
    fighters: Vec<FighterSpec>,
    deployment: Vec<Vec<[i32; 2]>>,
}

#[derive(Clone, Debug, Deserialize)]
struct BoardSpec {
    radius: u32,
    blocked: Vec<[i32; 2]>,
}

#[derive(Clone, Debug, Deserialize)]
struct FighterSpec {
    name: String,
    #[serde(rename = "move")]
    movement: i64,
    wounds: i64,
    defence: i64,
    defence_face: String,
    attack_dice: i64,
    attack_face: String,
    range: i64,
    damage: i64,
}

/// A failure to load the demonstration data.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    /// The JSON is malformed or a value is invalid.
    #[error("demo data: {0}")]
    Data(String),
}

/// The demonstration game's rules, loaded from data.
#[derive(Clone, Debug)]
pub struct Demo {
    spec: Spec,
    dice: Dice,
    hexes: BTreeSet<Hex>,
    blocked: BTreeSet<Hex>,
    sight: Sight,
}

impl Demo {
    /// The built-in demonstration.
    pub fn builtin() -> Result<Demo, DemoError> {
        Demo::from_json(BUILTIN)
    }

    /// The text of the built-in demonstration data.
    pub fn builtin_text() -> &'static str {
        BUILTIN
    }

    /// A demonstration read from JSON in the format of `cards/demo/skirmish.json`.
    pub fn from_json(text: &str) -> Result<Demo, DemoError> {
        let spec: Spec = serde_json::from_str(text).map_err(|e| DemoError::Data(e.to_string()))?;
        let dice =
            Dice::from_defs(spec.dice.clone()).map_err(|e| DemoError::Data(e.to_string()))?;
        let hexes: BTreeSet<Hex> = Hex::ORIGIN.range(spec.board.radius).into_iter().collect();
        let blocked: BTreeSet<Hex> = spec
            .board
            .blocked
            .iter()
            .map(|[q, r]| Hex::new(*q, *r))
            .collect();
        if spec.deployment.len() != 2 {
            return Err(DemoError::Data("deployment must list two players".into()));
        }
        for hex in spec.deployment.iter().flatten() {
            let hex = Hex::new(hex[0], hex[1]);
            if !hexes.contains(&hex) || blocked.contains(&hex) {
                return Err(DemoError::Data(format!(
                    "deployment hex {hex} is off the board or blocked"
                )));
            }
        }
        let sight = Sight::new(hexes.iter().copied(), blocked.iter().copied(), false);
        Ok(Demo {
            spec,
            dice,
            hexes,
            blocked,
            sight,
        })
    }

    /// The frames a new game starts with.
    pub fn first_frames() -> Vec<Frame> {
        vec![Frame::new("round")]
    }

    /// The hexes of the board.
    pub fn hexes(&self) -> &BTreeSet<Hex> {
        &self.hexes
    }

    /// The blocked hexes.
    pub fn blocked(&self) -> &BTreeSet<Hex> {
        &self.blocked
    }

    fn fighter(&self, kind: &str) -> Result<&FighterSpec, RuleError> {
        self.spec
            .fighters
            .iter()
            .find(|f| f.name == kind)
            .ok_or_else(|| RuleError::step("activation", format!("no fighter profile `{kind}`")))
    }

    fn on_board(state: &GameState, player: PlayerId) -> Vec<PieceId> {
        state
            .pieces
            .values()
            .filter(|p| p.owner == player && p.position.is_some())
            .map(|p| p.id)
            .collect()
    }

    fn hex_of(state: &GameState, piece: PieceId) -> Option<Hex> {
        state.piece(piece)?.position?.hex()
    }

    fn targets(&self, state: &GameState, attacker: PieceId) -> Result<Vec<PieceId>, RuleError> {
        let Some(piece) = state.piece(attacker) else {
            return Ok(Vec::new());
        };
        let Some(from) = Self::hex_of(state, attacker) else {
            return Ok(Vec::new());
        };
        let range = state.characteristic(attacker, "range").unwrap_or(0);
        let mut targets = Vec::new();
        for enemy in state.pieces.values().filter(|p| p.owner != piece.owner) {
            let Some(to) = enemy.position.and_then(Position::hex) else {
                continue;
            };
            let in_range = i64::from(from.distance_to(to)) <= range;
            let visible = self
                .sight
                .visible(from, to)
                .map_err(|e| RuleError::step("attack", e.to_string()))?;
            if in_range && visible {
                targets.push(enemy.id);
            }
        }
        Ok(targets)
    }

    fn activation(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
        let player = match frame.var("player") {
            Some(Value::Player(player)) => *player,
            _ => return Err(RuleError::step("activation", "frame has no player")),
        };
        if let Some(result) = self.winner_if_wiped_out(ctx.state()) {
            return Ok(Control::End(result));
        }
        match frame.stage {
            0 => match frame.answers.pop() {
                None => {
                    let mut choices: Vec<Choice> = Self::on_board(ctx.state(), player)
                        .into_iter()
                        .map(Choice::Piece)
                        .collect();
                    choices.push(Choice::Pass);
                    Ok(Control::Ask(Request {
                        player,
                        kind: "choose_fighter".into(),
                        prompt: "Choose a fighter to activate, or pass".into(),
                        options: Options::One { choices },
                        secret: false,
                    }))
                }
                Some(Answer::One(Choice::Piece(piece))) => {
                    frame.vars.insert("piece".into(), Value::Piece(piece));
                    frame.stage = 1;
                    Ok(Control::Continue)
                }
                Some(_) => Ok(Control::Done),
            },
            _ => {
                let piece = frame
                    .var("piece")
                    .and_then(Value::as_piece)
                    .ok_or_else(|| RuleError::step("activation", "no fighter chosen"))?;
                let from = Self::hex_of(ctx.state(), piece)
                    .ok_or_else(|| RuleError::step("activation", "fighter is not on the board"))?;
                match frame.answers.pop() {
                    None => {
                        let budget = ctx.state().characteristic(piece, "move").unwrap_or(0);
                        let grid = DemoGrid {
                            demo: self,
                            state: ctx.state(),
                        };
                        let reach = reachable(&grid, from, budget.max(0) as u32);
                        let mut choices: Vec<Choice> =
                            reach.hexes().into_iter().map(Choice::Hex).collect();
                        choices.extend(
                            self.targets(ctx.state(), piece)?
                                .into_iter()
                                .map(Choice::Piece),
                        );
                        choices.push(Choice::Pass);
                        Ok(Control::Ask(Request {
                            player,
                            kind: "choose_action".into(),
                            prompt: "Move to a hex, attack an enemy fighter, or pass".into(),
                            options: Options::One { choices },
                            secret: false,
                        }))
                    }
                    Some(Answer::One(Choice::Hex(to))) => {
                        let budget = ctx.state().characteristic(piece, "move").unwrap_or(0);
                        let grid = DemoGrid {
                            demo: self,
                            state: ctx.state(),
                        };
                        let path = reachable(&grid, from, budget.max(0) as u32)
                            .path_to(to)
                            .ok_or_else(|| RuleError::step("move", "destination not reachable"))?;
                        ctx.place_piece(piece, Some(Position::Hex(to)), path, "move")?;
                        Ok(Control::Done)
                    }
                    Some(Answer::One(Choice::Piece(target))) => {
                        self.attack(ctx, piece, target)?;
                        Ok(Control::Done)
                    }
                    Some(_) => Ok(Control::Done),
                }
            }
        }
    }

    fn attack(
        &self,
        ctx: &mut Ctx<'_>,
        attacker: PieceId,
        target: PieceId,
    ) -> Result<(), RuleError> {
        let attacker_kind = ctx
            .state()
            .piece(attacker)
            .ok_or(RuleError::UnknownPiece { piece: attacker })?
            .kind
            .clone();
        let target_piece = ctx
            .state()
            .piece(target)
            .ok_or(RuleError::UnknownPiece { piece: target })?;
        let (target_kind, target_owner) = (target_piece.kind.clone(), target_piece.owner);
        let attacker_owner = ctx.state().pieces[&attacker].owner;
        let weapon = self.fighter(&attacker_kind)?.clone();
        let defender = self.fighter(&target_kind)?.clone();
        let state = ctx.state();
        let n_attack = state.characteristic(attacker, "attack_dice").unwrap_or(0);
        let n_defence = state.characteristic(target, "defence").unwrap_or(0);
        let damage = state.characteristic(attacker, "damage").unwrap_or(0);
        let wounds = state.characteristic(target, "wounds").unwrap_or(1);
        let data = vec![
            ("attacker".to_owned(), Value::Piece(attacker)),
            ("target".to_owned(), Value::Piece(target)),
        ];
        ctx.marker("attack", Scope::Piece(attacker), data.clone())?;
        let attack_roll = ctx.roll(
            Some(attacker_owner),
            "attack",
            &self.dice,
            &Pool::of("attack", n_attack.max(0) as u32),
        )?;
        let defence_roll = ctx.roll(
            Some(target_owner),
            "defence",
            &self.dice,
            &Pool::of("defence", n_defence.max(0) as u32),
        )?;
        let hits = attack_roll.count(&[weapon.attack_face.as_str(), "critical"]);
        let saves = defence_roll.count(&[defender.defence_face.as_str(), "critical"]);
        if hits > saves {
            let total = ctx.add_counter(Scope::Piece(target), "damage", damage)?;
            if total >= wounds {
                ctx.place_piece(target, None, Vec::new(), "out_of_action")?;
                ctx.add_counter(Scope::Player(attacker_owner), "kills", 1)?;
            }
        }
        ctx.marker("attack_resolved", Scope::Piece(attacker), data)?;
        Ok(())
    }

    fn winner_if_wiped_out(&self, state: &GameState) -> Option<GameResult> {
        let alive: Vec<bool> = (0..2u8)
            .map(|p| !Self::on_board(state, PlayerId(p)).is_empty())
            .collect();
        match (alive[0], alive[1]) {
            (true, false) => Some(GameResult {
                winners: vec![PlayerId(0)],
                reason: "every enemy fighter is out of action".into(),
            }),
            (false, true) => Some(GameResult {
                winners: vec![PlayerId(1)],
                reason: "every enemy fighter is out of action".into(),
            }),
            _ => None,
        }
    }

    fn final_result(state: &GameState) -> GameResult {
        let kills = |p: usize| state.players[p].counters.get("kills").copied().unwrap_or(0);
        let (a, b) = (kills(0), kills(1));
        let winners = match a.cmp(&b) {
            std::cmp::Ordering::Greater => vec![PlayerId(0)],
            std::cmp::Ordering::Less => vec![PlayerId(1)],
            std::cmp::Ordering::Equal => vec![PlayerId(0), PlayerId(1)],
        };
        GameResult {
            winners,
            reason: format!("kills {a} to {b} after the last round"),
        }
    }
}

/// An agent for the demonstration game: attacks when it can, otherwise activates a
/// fighter and moves it as close as it can to the nearest enemy; ties are broken by its
/// own seeded RNG. It only ever answers with one of the request's options.
#[derive(Clone, Debug)]
pub struct AggressiveAgent {
    rng: gloam_core::GameRng,
}

impl AggressiveAgent {
    /// An aggressive agent seeded with `seed`.
    pub fn new(seed: u64) -> AggressiveAgent {
        AggressiveAgent {
            rng: gloam_core::GameRng::from_seed(seed),
        }
    }

    fn nearest_enemy(view: &gloam_core::PlayerView, hex: Hex) -> u32 {
        view.pieces
            .values()
            .filter(|p| p.owner != view.viewer)
            .filter_map(|p| p.position.and_then(Position::hex))
            .map(|enemy| enemy.distance_to(hex))
            .min()
            .unwrap_or(0)
    }
}

impl crate::agent::Agent for AggressiveAgent {
    fn choose(&mut self, view: &gloam_core::PlayerView, request: &Request) -> Answer {
        let Options::One { choices } = &request.options else {
            return crate::agent::random_answer(&mut self.rng, request);
        };
        let owner_of = |piece: &PieceId| view.pieces.get(piece).map(|p| p.owner);
        let score = |choice: &Choice| -> i64 {
            match choice {
                Choice::Piece(piece) if owner_of(piece) != Some(view.viewer) => 1_000,
                Choice::Piece(piece) => {
                    let at = view.pieces[piece].position.and_then(Position::hex);
                    100 - at.map_or(0, |hex| i64::from(Self::nearest_enemy(view, hex)))
                }
                Choice::Hex(hex) => 100 - i64::from(Self::nearest_enemy(view, *hex)),
                _ => 0,
            }
        };
        let best = choices.iter().map(score).max().unwrap_or(0);
        let top: Vec<&Choice> = choices.iter().filter(|c| score(c) == best).collect();
        let pick = top[self.rng.below(top.len() as u32) as usize].clone();
        Answer::One(pick)
    }
}

/// The board as the movement primitives see it.
struct DemoGrid<'a> {
    demo: &'a Demo,
    state: &'a GameState,
}

impl Grid for DemoGrid<'_> {
    fn contains(&self, hex: Hex) -> bool {
        self.demo.hexes.contains(&hex)
    }

    fn blocks_movement(&self, hex: Hex) -> bool {
        self.demo.blocked.contains(&hex)
    }

    fn is_occupied(&self, hex: Hex) -> bool {
        self.state.piece_on(hex).is_some()
    }
}

impl Rules for Demo {
    fn start(&self, ctx: &mut Ctx<'_>, setup: &Setup) -> Result<(), RuleError> {
        if setup.players.len() != 2 {
            return Err(RuleError::step("start", "the demo is for two players"));
        }
        ctx.set_floor("move", 0)?;
        ctx.set_floor("wounds", 1)?;
        for (seat, hexes) in self.spec.deployment.iter().enumerate() {
            let owner = PlayerId(seat as u8);
            for (fighter, [q, r]) in self.spec.fighters.iter().zip(hexes) {
                let piece = ctx.create_piece(
                    owner,
                    &fighter.name,
                    [
                        ("move".to_owned(), fighter.movement),
                        ("wounds".to_owned(), fighter.wounds),
                        ("defence".to_owned(), fighter.defence),
                        ("attack_dice".to_owned(), fighter.attack_dice),
                        ("range".to_owned(), fighter.range),
                        ("damage".to_owned(), fighter.damage),
                    ],
                )?;
                ctx.place_piece(
                    piece,
                    Some(Position::Hex(Hex::new(*q, *r))),
                    vec![],
                    "deploy",
                )?;
            }
        }
        Ok(())
    }

    fn step(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Result<Control, RuleError> {
        match frame.step.as_str() {
            "round" => {
                if ctx.state().counter("round") >= self.spec.rounds {
                    return Ok(Control::End(Self::final_result(ctx.state())));
                }
                let round = ctx.add_counter(Scope::Game, "round", 1)?;
                ctx.marker("round_start", Scope::Game, vec![])?;
                let first = (round - 1) % 2;
                let mut frames: Vec<Frame> = (0..self.spec.activations_per_round)
                    .map(|i| {
                        let seat = ((first + i) % 2) as u8;
                        Frame::new("activation").with("player", Value::Player(PlayerId(seat)))
                    })
                    .collect();
                frames.push(Frame::new("round"));
                Ok(Control::Replace(frames))
            }
            "activation" => self.activation(ctx, frame),
            other => Err(RuleError::step(other, "unknown step")),
        }
    }
}
