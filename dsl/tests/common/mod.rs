//! The test fixture: a small battlefield, two players, three fighters, decks.

#![allow(dead_code, unreachable_pub)]

use gloam_core::{
    Battlefield, Ctx, Dice, DieDef, DieFace, Event, GameState, Hex, PieceId, PlayerId, Position,
    Value, Visibility, ZoneId,
};
use gloam_dsl::{
    Bindings, DslDiagnostic, Host, Outcome, Script, ScriptContext, ScriptSource, World,
};
use miette::{GraphicalReportHandler, GraphicalTheme};

/// A game in progress and the host and world around it.
///
/// The battlefield is the hexagon of radius 3 around the origin; (-1, 1) is blocked and
/// (2, 0) is lethal. Ann (player 0) has `hero` at (0, 0), a leader; Bo (player 1) has
/// `brute` at (1, 0), next to the hero, and `archer` at (-2, 2), behind the blocked hex.
pub struct Fixture {
    pub host: Host,
    pub world: World,
    pub state: GameState,
    pub events: Vec<Event>,
    pub hero: PieceId,
    pub brute: PieceId,
    pub archer: PieceId,
}

pub const EFFECT_VARIABLES: [&str; 3] = ["this_fighter", "player", "target"];

pub fn fixture() -> Fixture {
    let hexes = Hex::ORIGIN.range(3).into_iter().map(|hex| {
        let types: Vec<&str> = if hex == Hex::new(-1, 1) {
            vec!["blocked"]
        } else if hex == Hex::new(2, 0) {
            vec!["lethal"]
        } else {
            vec![]
        };
        (hex, types)
    });
    let battlefield = Battlefield::from_hexes(hexes);
    let attack = DieDef::new(
        "attack",
        vec![
            DieFace::new("critical", 1),
            DieFace::new("hammer", 2),
            DieFace::new("swords", 1),
            DieFace::new("support", 2),
        ],
    )
    .expect("die");
    let dice = Dice::from_defs([attack]).expect("dice");
    let stats = |mv: i64| {
        vec![
            ("move".to_owned(), mv),
            ("wounds".to_owned(), 3),
            ("defence".to_owned(), 1),
        ]
    };
    let world =
        World::new(battlefield, ["blocked"], true, dice).with_sides("hero", stats(3), stats(4));

    let mut state = GameState::new(42, &["Ann", "Bo"]);
    let mut events = Vec::new();
    let (hero, brute, archer) = {
        let mut ctx = Ctx::new(&mut state, &mut events);
        let mut piece = |owner: u8, kind: &str, hex: Hex| {
            let id = ctx
                .create_piece(PlayerId(owner), kind, stats(3))
                .expect("piece");
            ctx.place_piece(id, Some(Position::Hex(hex)), vec![], "deploy")
                .expect("place");
            id
        };
        let hero = piece(0, "hero", Hex::new(0, 0));
        let brute = piece(1, "brute", Hex::new(1, 0));
        let archer = piece(1, "archer", Hex::new(-2, 2));
        ctx.set_keyword(hero, "leader", true).expect("keyword");
        ctx.set_counter(gloam_core::Scope::Game, "round", 1)
            .expect("round");
        for player in [PlayerId(0), PlayerId(1)] {
            for (zone, visibility) in [
                ("power_deck", Visibility::Nobody),
                ("power_hand", Visibility::Owner),
                ("objective_deck", Visibility::Nobody),
                ("objective_hand", Visibility::Owner),
            ] {
                ctx.create_zone(ZoneId::new(player, zone), visibility)
                    .expect("zone");
            }
            for name in ["Sidestep", "Shove", "Cut"] {
                ctx.create_card(name, player, &ZoneId::new(player, "power_deck"))
                    .expect("card");
            }
        }
        (hero, brute, archer)
    };
    events.clear();
    Fixture {
        host: Host::new(),
        world,
        state,
        events,
        hero,
        brute,
        archer,
    }
}

impl Fixture {
    /// A new host for this game, whose runs may do at most `operations` operations.
    pub fn limit_operations(&mut self, operations: u64) {
        self.host = Host::with_limits(gloam_dsl::Limits {
            operations,
            ..gloam_dsl::Limits::default()
        });
    }

    /// Ann acts; `this_fighter` is the hero, `target` the brute.
    pub fn bindings(&self) -> Bindings {
        Bindings::new()
            .acting(PlayerId(0))
            .with("this_fighter", Value::Piece(self.hero))
            .with("target", Value::Piece(self.brute))
    }

    pub fn effect(&self, text: &str) -> Script {
        compile_effect(&self.host, text)
            .unwrap_or_else(|errors| panic!("{}", errors.iter().map(render).collect::<String>()))
    }

    pub fn condition(&self, text: &str) -> Script {
        let context = ScriptContext::condition("test condition").with_variables(EFFECT_VARIABLES);
        self.host
            .compile(&ScriptSource::whole("test.gloam", text), &context)
            .unwrap_or_else(|errors| panic!("{}", errors.iter().map(render).collect::<String>()))
    }

    /// Runs an effect with the usual bindings and the given answers.
    pub fn run_with(
        &mut self,
        script: &Script,
        answers: &[gloam_core::Answer],
    ) -> Result<Outcome, DslDiagnostic> {
        let bindings = self.bindings();
        self.host.run(
            script,
            &self.world,
            &mut self.state,
            &mut self.events,
            &bindings,
            answers,
        )
    }

    pub fn run(&mut self, text: &str) -> Result<Outcome, DslDiagnostic> {
        let script = self.effect(text);
        self.run_with(&script, &[])
    }

    /// Runs a script that must finish, and returns its value.
    pub fn value(&mut self, text: &str) -> Value {
        match self.run(text) {
            Ok(Outcome::Done { value, .. }) => value,
            Ok(other) => panic!("`{text}` did not finish: {other:?}"),
            Err(error) => panic!("`{text}` failed:\n{}", render(&error)),
        }
    }

    /// Runs a script that must finish, and returns what it queued.
    pub fn flow(&mut self, text: &str) -> Vec<gloam_dsl::FlowRequest> {
        match self.run(text) {
            Ok(Outcome::Done { flow, .. }) => flow,
            Ok(other) => panic!("`{text}` did not finish: {other:?}"),
            Err(error) => panic!("`{text}` failed:\n{}", render(&error)),
        }
    }

    /// Runs a script that must fail, checks the game is unchanged, returns the diagnostic.
    pub fn failure(&mut self, text: &str) -> DslDiagnostic {
        let state_before = self.state.clone();
        let events_before = self.events.clone();
        let error = match self.run(text) {
            Err(error) => error,
            Ok(outcome) => panic!("`{text}` did not fail: {outcome:?}"),
        };
        assert_eq!(self.state, state_before, "`{text}` changed the state");
        assert_eq!(self.events, events_before, "`{text}` changed the events");
        error
    }
}

pub fn compile_effect(host: &Host, text: &str) -> Result<Script, Vec<DslDiagnostic>> {
    let context = ScriptContext::effect("test effect").with_variables(EFFECT_VARIABLES);
    host.compile(&ScriptSource::whole("test.gloam", text), &context)
}

/// The codes of the problems `text` has as an effect script.
pub fn codes(text: &str) -> Vec<&'static str> {
    match compile_effect(&Host::new(), text) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.iter().map(DslDiagnostic::code_name).collect(),
    }
}

/// A diagnostic as the command line shows it, without colour, 80 columns wide.
pub fn render(diagnostic: &DslDiagnostic) -> String {
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(80)
        .render_report(&mut out, diagnostic)
        .expect("render");
    out
}

/// The 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}
