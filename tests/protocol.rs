//! The JSON-lines protocol (`docs/protocol.md`) through `gloam serve --stdio`: whole games of
//! every shipped ruleset, illegal answers refused without any change, several games in one
//! process, clone, record and load, and the input log replayed byte for byte. Every message
//! exchanged is validated against the committed JSON Schemas in `docs/protocol/`.

use std::collections::BTreeMap;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::OnceLock;

use serde_json::{Value as Json, json};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The committed schemas, each compiled with the others registered for its `$ref`s.
struct Schemas {
    validators: BTreeMap<String, jsonschema::Validator>,
}

fn schemas() -> &'static Schemas {
    static SCHEMAS: OnceLock<Schemas> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let dir = root().join("docs/protocol");
        let mut documents = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).expect("docs/protocol exists") {
            let path = entry.expect("entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".schema.json") else {
                continue;
            };
            let text = std::fs::read_to_string(&path).expect("schema is readable");
            let schema: Json = serde_json::from_str(&text).expect("schema is JSON");
            assert!(
                jsonschema::meta::is_valid(&schema),
                "{name} is not a valid JSON Schema"
            );
            documents.insert(stem.to_owned(), schema);
        }
        let mut registry = jsonschema::Registry::new();
        for schema in documents.values() {
            let uri = schema["$id"].as_str().expect("every schema has an $id");
            registry = registry.add(uri, schema.clone()).expect("schema registers");
        }
        let registry = registry.prepare().expect("registry prepares");
        let validators = documents
            .iter()
            .map(|(stem, schema)| {
                let validator = jsonschema::options()
                    .with_registry(&registry)
                    .build(schema)
                    .unwrap_or_else(|e| panic!("{stem}.schema.json does not compile: {e}"));
                (stem.clone(), validator)
            })
            .collect();
        Schemas { validators }
    })
}

/// Validates `message` against `docs/protocol/{schema}.schema.json`.
fn validate(schema: &str, message: &Json) {
    let validator = schemas()
        .validators
        .get(schema)
        .unwrap_or_else(|| panic!("no schema {schema}.schema.json"));
    let errors: Vec<String> = validator
        .iter_errors(message)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .take(5)
        .collect();
    assert!(
        errors.is_empty(),
        "message does not match {schema}.schema.json: {errors:#?}\n{}",
        shorten(&message.to_string())
    );
}

fn shorten(text: &str) -> String {
    text.chars().take(600).collect()
}

/// A `gloam serve --stdio` process and everything said to it and by it.
struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    input: Vec<String>,
    output: Vec<String>,
    next_id: u64,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gloam"))
            .args(["serve", "--stdio", "--data"])
            .arg(root().join("cards"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("gloam serve starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Server {
            child,
            stdin,
            stdout,
            input: Vec::new(),
            output: Vec::new(),
            next_id: 1,
        }
    }

    /// Sends one raw line and returns the reply line.
    fn raw(&mut self, line: &str) -> String {
        self.stdin.write_all(line.as_bytes()).expect("write");
        self.stdin.write_all(b"\n").expect("write");
        self.stdin.flush().expect("flush");
        let mut reply = String::new();
        self.stdout.read_line(&mut reply).expect("read");
        assert!(
            reply.ends_with('\n'),
            "a reply is one whole line: {reply:?}"
        );
        reply.pop();
        self.input.push(line.to_owned());
        self.output.push(reply.clone());
        reply
    }

    /// Sends a request (given an id here), validates it and its reply against the schemas,
    /// and returns the reply.
    fn send(&mut self, mut request: Json) -> Json {
        let id = self.next_id;
        self.next_id += 1;
        request["id"] = json!(id);
        let cmd = request["cmd"].as_str().expect("cmd").to_owned();
        validate(&cmd, &request);
        validate("request", &request);
        let reply: Json = serde_json::from_str(&self.raw(&request.to_string())).expect("JSON");
        assert_eq!(reply["id"], json!(id), "the reply echoes the id");
        let schema = if reply.get("error").is_some() {
            "error_reply"
        } else {
            match cmd.as_str() {
                "new_game" | "answer" | "load" | "clone" | "chance_mode" | "apply_chance" => {
                    "game_reply"
                }
                "view" => "view_reply",
                "events" => "events_reply",
                "record" => "record_reply",
                "close" => "close_reply",
                other => panic!("unexpected command {other}"),
            }
        };
        validate(schema, &reply);
        validate("reply", &reply);
        reply
    }

    /// Sends a request that must succeed.
    fn ok(&mut self, request: Json) -> Json {
        let reply = self.send(request);
        assert!(
            reply.get("error").is_none(),
            "refused: {}",
            shorten(&reply.to_string())
        );
        reply
    }

    /// Sends a request that must be refused with `code`.
    fn refused(&mut self, request: Json, code: &str) -> Json {
        let reply = self.send(request.clone());
        assert_eq!(
            reply["error"]["code"],
            json!(code),
            "{request} should be refused with {code}: {}",
            shorten(&reply.to_string())
        );
        reply
    }

    /// Everything the session says about a game, as a before/after snapshot: each
    /// player's view, the record and the whole event log (ids removed).
    fn snapshot(&mut self, game: u64, players: usize) -> Vec<Json> {
        let mut out = Vec::new();
        for player in 0..players {
            out.push(
                self.ok(json!({"cmd": "view", "game": game, "player": player}))["view"].clone(),
            );
        }
        out.push(self.ok(json!({"cmd": "record", "game": game}))["record"].clone());
        out.push(self.ok(json!({"cmd": "events", "game": game}))["events"].clone());
        out
    }

    fn finish(mut self) -> (Vec<String>, Vec<String>) {
        drop(self.stdin);
        let status = self.child.wait().expect("gloam serve exits");
        assert!(status.success(), "gloam serve exited with {status}");
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).expect("read");
        assert!(rest.is_empty(), "no reply without a request: {rest}");
        (self.input, self.output)
    }
}

/// A deterministic chooser: the same replies give the same answers.
struct Chooser(u64);

impl Chooser {
    fn next(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % bound.max(1) as u64) as usize
    }

    fn answer(&mut self, request: &Json) -> Json {
        let n = request["options"].as_array().expect("options").len();
        match request["kind"].as_str().expect("kind") {
            "one" => json!({"option": self.next(n)}),
            "several" => {
                let min = request["min"].as_u64().unwrap() as usize;
                let max = (request["max"].as_u64().unwrap() as usize).min(n);
                let count = min + self.next(max - min + 1);
                let start = self.next(n);
                let picked: Vec<usize> = (0..count).map(|k| (start + k) % n).collect();
                json!({"options": picked})
            }
            "order" => {
                let mut order: Vec<usize> = (0..n).collect();
                let turn = self.next(n);
                order.rotate_left(turn);
                json!({"order": order})
            }
            other => panic!("no shipped ruleset asks for {other}"),
        }
    }
}

/// Illegal answers to `game`'s first pending request, each refused with its code, and the
/// game unchanged: views, record and events before and after are the same.
fn probe_illegal(server: &mut Server, game: u64, players: usize, pending: &[Json]) {
    let before = server.snapshot(game, players);
    let request = &pending[0];
    let player = request["player"].as_u64().unwrap();
    let n = request["options"].as_array().unwrap().len();
    let kind = request["kind"].as_str().unwrap();
    let answer =
        |answer: Json| json!({"cmd": "answer", "game": game, "player": player, "answer": answer});
    // An option out of range, in each shape.
    let out_of_range = match kind {
        "one" => json!({"option": n}),
        "several" => json!({"options": [n]}),
        _ => json!({"order": [n]}),
    };
    server.refused(answer(out_of_range), "out_of_range");
    if kind == "one" {
        server.refused(answer(json!({"option": -1})), "out_of_range");
        server.refused(answer(json!({"options": [0]})), "wrong_shape");
    } else {
        server.refused(answer(json!({"option": 0})), "wrong_shape");
    }
    if kind == "several" && n >= 1 && request["max"].as_u64().unwrap() >= 2 {
        // The same option twice is not two distinct options (rules: "between min and max").
        server.refused(answer(json!({"options": [0, 0]})), "illegal");
    }
    if kind == "order" && n >= 2 {
        server.refused(answer(json!({"order": [0, 0]})), "illegal");
    }
    // A free table position answers only requests that accept any point; no shipped ruleset
    // asks one.
    server.refused(answer(json!({"point": [100, 250]})), "wrong_shape");
    // A player who is not being asked, and one who is not seated.
    let waiting: Vec<u64> = pending
        .iter()
        .map(|r| r["player"].as_u64().unwrap())
        .collect();
    if let Some(idle) = (0..players as u64).find(|p| !waiting.contains(p)) {
        server.refused(
            json!({"cmd": "answer", "game": game, "player": idle, "answer": {"option": 0}}),
            "wrong_player",
        );
    }
    server.refused(
        json!({"cmd": "answer", "game": game, "player": 9, "answer": {"option": 0}}),
        "wrong_player",
    );
    // A game that does not exist; a viewer who is not seated.
    server.refused(
        json!({"cmd": "answer", "game": 999, "player": player, "answer": {"option": 0}}),
        "unknown_game",
    );
    server.refused(
        json!({"cmd": "view", "game": game, "player": 7}),
        "unknown_player",
    );
    // Broken lines: not JSON (id null), and a command missing a field (id echoed).
    let reply: Json = serde_json::from_str(&server.raw("{\"cmd\": \"answer\", ")).unwrap();
    validate("error_reply", &reply);
    assert_eq!(reply["id"], Json::Null);
    assert_eq!(reply["error"]["code"], json!("malformed"));
    let reply: Json = serde_json::from_str(&server.raw(&format!(
        r#"{{"id": "x", "cmd": "answer", "game": {game}}}"#
    )))
    .unwrap();
    validate("error_reply", &reply);
    assert_eq!(reply["id"], json!("x"));
    assert_eq!(reply["error"]["code"], json!("malformed"));
    let after = server.snapshot(game, players);
    assert!(before == after, "an illegal answer changed game {game}");
}

/// What a played game left: its id and how many answers were accepted.
struct Played {
    game: u64,
    decisions: usize,
}

/// Plays a whole game of `ruleset` through the server, probing illegal answers now and then.
fn play(server: &mut Server, ruleset: &str, seed: u64, players: usize) -> Played {
    let reply =
        server.ok(json!({"cmd": "new_game", "ruleset": ruleset, "seed": seed, "players": players}));
    let game = reply["game"].as_u64().expect("a game id");
    let mut reply = reply;
    let mut chooser = Chooser(seed);
    let mut decisions = 0;
    while reply["over"].is_null() {
        let pending = reply["pending"].as_array().expect("pending").clone();
        assert!(
            !pending.is_empty(),
            "{ruleset}: a running game waits on someone"
        );
        if decisions % 60 == 0 {
            probe_illegal(server, game, players, &pending);
        }
        let request = &pending[chooser.next(pending.len())];
        let answer = chooser.answer(request);
        reply = server.ok(
            json!({"cmd": "answer", "game": game, "player": request["player"], "answer": answer}),
        );
        decisions += 1;
        assert!(decisions < 20_000, "{ruleset}: the game does not end");
    }
    assert!(reply["pending"].as_array().unwrap().is_empty());
    assert!(!reply["over"]["winners"].as_array().unwrap().is_empty());
    // Once over, nothing more is accepted, and nothing changes.
    let before = server.snapshot(game, players);
    server.refused(
        json!({"cmd": "answer", "game": game, "player": 0, "answer": {"option": 0}}),
        "game_over",
    );
    assert!(before == server.snapshot(game, players));
    Played { game, decisions }
}

/// A finished game's record loads into a new game with the same events and result.
fn check_load(server: &mut Server, played: &Played) {
    let record = server.ok(json!({"cmd": "record", "game": played.game}))["record"].clone();
    assert_eq!(
        record["answers"].as_array().unwrap().len(),
        played.decisions,
        "the record holds every accepted answer, and no refused one"
    );
    let loaded = server.ok(json!({"cmd": "load", "record": record}));
    let copy = loaded["game"].as_u64().unwrap();
    assert_ne!(copy, played.game);
    let original_events =
        server.ok(json!({"cmd": "events", "game": played.game}))["events"].clone();
    assert_eq!(
        loaded["events"], original_events,
        "load replays the same log"
    );
    assert!(!loaded["over"].is_null());
    assert_eq!(
        server.ok(json!({"cmd": "record", "game": copy}))["record"],
        record
    );
    server.ok(json!({"cmd": "close", "game": copy}));
    server.refused(json!({"cmd": "close", "game": copy}), "unknown_game");
}

#[test]
fn every_shipped_ruleset_plays_to_the_end_through_serve_and_the_input_log_replays() {
    let mut server = Server::start();
    let mut played = Vec::new();
    for (ruleset, seed) in [
        ("harrowdeep", 3),
        ("shadespire", 5),
        ("shadespire_artefact", 8),
        ("shadespire_matched", 13),
        ("embergard", 21),
    ] {
        let game = play(&mut server, ruleset, seed, 2);
        check_load(&mut server, &game);
        played.push(game);
    }
    // Several games stay open in one process; ids count up and are never reused.
    let ids: Vec<u64> = played.iter().map(|p| p.game).collect();
    assert_eq!(ids, vec![1, 3, 5, 7, 9]);
    for game in &played {
        server.ok(json!({"cmd": "view", "game": game.game, "player": 0}));
    }
    let (input, output) = server.finish();
    // The input log is a replay: a fresh process gives the same replies, byte for byte.
    let mut again = Server::start();
    for (line, expected) in input.iter().zip(&output) {
        let reply = again.raw(line);
        assert!(
            &reply == expected,
            "the replay differs at `{}`",
            shorten(line)
        );
    }
    again.finish();
}

#[test]
fn clone_plays_on_independently_and_close_forgets() {
    let mut server = Server::start();
    let mut reply = server.ok(json!({"cmd": "new_game", "ruleset": "harrowdeep", "seed": 11}));
    let game = reply["game"].as_u64().unwrap();
    let mut chooser = Chooser(11);
    for _ in 0..15 {
        let request = reply["pending"][0].clone();
        reply = server.ok(json!({"cmd": "answer", "game": game, "player": request["player"], "answer": chooser.answer(&request)}));
    }
    let before = server.snapshot(game, 2);
    let cloned = server.ok(json!({"cmd": "clone", "game": game}));
    let copy = cloned["game"].as_u64().unwrap();
    assert_eq!(copy, game + 1);
    assert_eq!(
        cloned["events"],
        json!([]),
        "a clone starts with no new events"
    );
    assert_eq!(cloned["pending"], reply["pending"]);
    // Play the copy on; the original does not move.
    let mut copy_reply = cloned;
    for _ in 0..10 {
        let request = copy_reply["pending"][0].clone();
        copy_reply = server.ok(json!({"cmd": "answer", "game": copy, "player": request["player"], "answer": chooser.answer(&request)}));
    }
    assert!(
        server.snapshot(game, 2) == before,
        "the original is untouched"
    );
    assert_ne!(server.snapshot(copy, 2), before);
    server.ok(json!({"cmd": "close", "game": copy}));
    server.refused(
        json!({"cmd": "view", "game": copy, "player": 0}),
        "unknown_game",
    );
    // A new game after a close gets a new id, never the closed one.
    let next = server.ok(json!({"cmd": "new_game", "ruleset": "embergard", "seed": 1}));
    assert_eq!(next["game"], json!(copy + 1));
    server.finish();
}

#[test]
fn bad_requests_are_refused_with_their_codes_and_make_no_game() {
    let mut server = Server::start();
    server.refused(
        json!({"cmd": "new_game", "ruleset": "harowdeep", "seed": 1}),
        "bad_setup",
    );
    server.refused(
        json!({"cmd": "new_game", "ruleset": "harrowdeep", "seed": 1, "players": 9}),
        "bad_setup",
    );
    server.refused(
        json!({"cmd": "new_game", "ruleset": "harrowdeep", "seats": [
            {"name": "Ann", "warband": "Nobody's Krew"}, {"name": "Bo", "warband": "Nobody's Krew"}]}),
        "bad_setup",
    );
    server.refused(json!({"cmd": "record", "game": 1}), "unknown_game");
    server.refused(
        json!({"cmd": "load", "record": {"format": "gloam-record/1",
            "match": {"ruleset": "harrowdeep", "seats": []}, "setup": {"seed": 1, "players": []}, "answers": []}}),
        "bad_record",
    );
    // An unknown command with a suggestion; a request that is not an object.
    let reply: Json = serde_json::from_str(&server.raw(r#"{"id": 5, "cmd": "nwe_game"}"#)).unwrap();
    validate("error_reply", &reply);
    assert_eq!(reply["error"]["code"], json!("unknown_command"));
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("new_game")
    );
    let reply: Json = serde_json::from_str(&server.raw("[1, 2]")).unwrap();
    validate("error_reply", &reply);
    assert_eq!(
        reply,
        json!({"id": null, "error": {"code": "malformed", "message": "a request is a JSON object"}})
    );
    // Nothing above made a game: the first game made is game 1.
    let reply = server.ok(json!({"cmd": "new_game", "ruleset": "shadespire", "seed": 2}));
    assert_eq!(reply["game"], json!(1));
    // A viewer sees their own events only: another player's hidden card moves are redacted.
    let all = server.ok(json!({"cmd": "events", "game": 1}))["events"].clone();
    let mine = server.ok(json!({"cmd": "events", "game": 1, "player": 0}))["events"].clone();
    assert_eq!(
        all.as_array().unwrap().len(),
        mine.as_array().unwrap().len()
    );
    assert_ne!(all, mine, "decks are hidden from every viewer");
    server.finish();
}

/// The schemas are not vacuous: messages that break the spec fail them.
#[test]
fn schemas_refuse_messages_that_break_the_spec() {
    let fails = |schema: &str, message: Json| {
        let validator = &schemas().validators[schema];
        assert!(
            !validator.is_valid(&message),
            "{schema} should refuse {message}"
        );
    };
    fails("answer", json!({"cmd": "answer", "game": 1, "player": 0}));
    fails(
        "answer",
        json!({"cmd": "answer", "game": 1, "player": 0, "answer": {"option": 0, "order": [0]}}),
    );
    fails(
        "new_game",
        json!({"cmd": "new_game", "ruleset": "harrowdeep", "colour": "red"}),
    );
    fails("request", json!({"cmd": "dance"}));
    fails(
        "game_reply",
        json!({"id": 1, "game": 1, "events": [], "pending": []}),
    );
    fails(
        "game_reply",
        json!({"id": 1, "game": 1, "events": [], "over": null, "pending": [
            {"player": 0, "kind": "sideways", "name": "x", "prompt": "x", "options": [], "secret": false}]}),
    );
    fails(
        "game_reply",
        json!({"id": 1, "game": 1, "events": [], "over": null, "pending": [
            {"player": 0, "kind": "several", "name": "x", "prompt": "x", "options": [], "secret": false}]}),
    );
    fails(
        "error_reply",
        json!({"id": null, "error": {"code": "oops", "message": "x"}}),
    );
    fails("reply", json!({"id": 1}));
}

/// An exact fraction `"p/q"` (or `"0"`, `"1"`) as a pair.
fn ratio(text: &str) -> (u128, u128) {
    match text.split_once('/') {
        Some((p, q)) => (p.parse().unwrap(), q.parse().unwrap()),
        None => (text.parse().unwrap(), 1),
    }
}

/// Chance nodes over the protocol (OpenSpiel's `chance_outcomes`): in chance mode the game
/// stops before each roll, the reply lists every outcome pooled by face with its exact
/// chance (summing to 1), and `apply_chance` continues with the host's pick; a bad pick
/// changes nothing; a game that took an outcome has no record (it would not replay), its
/// clone neither; turning chance mode off rolls from the seed again.
#[test]
fn chance_mode_lets_the_host_pick_each_roll() {
    let mut server = Server::start();
    let mut reply = server.ok(json!({"cmd": "new_game", "ruleset": "harrowdeep", "seed": 5}));
    let game = reply["game"].as_u64().unwrap();
    server.refused(
        json!({"cmd": "apply_chance", "game": game, "outcome": 0}),
        "illegal",
    );
    reply = server.ok(json!({"cmd": "chance_mode", "game": game, "on": true}));
    let mut chooser = Chooser(5);
    let mut steps = 0;
    while reply.get("chance").is_none() {
        assert!(steps < 400, "no roll within 400 answers");
        steps += 1;
        let request = reply["pending"][0].clone();
        reply = server.ok(json!({"cmd": "answer", "game": game, "player": request["player"], "answer": chooser.answer(&request)}));
    }
    let chance = reply["chance"].clone();
    assert_eq!(
        reply["pending"],
        json!([]),
        "nobody decides while a roll waits"
    );
    let outcomes = chance["outcomes"].as_array().unwrap();
    // The chances sum to 1, exactly.
    let (mut num, mut den) = (0u128, 1u128);
    let gcd = |mut a: u128, mut b: u128| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    for outcome in outcomes {
        let (p, q) = ratio(outcome["p"].as_str().unwrap());
        let lcm = den / gcd(den, q) * q;
        num = num * (lcm / den) + p * (lcm / q);
        den = lcm;
        let common = gcd(num, den).max(1);
        (num, den) = (num / common, den / common);
    }
    assert_eq!(num, den, "the outcomes' chances sum to 1: {chance}");
    let dice: u64 = chance["pool"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["count"].as_u64().unwrap())
        .sum();
    for outcome in outcomes {
        let shown: u64 = outcome["outcome"]
            .as_array()
            .unwrap()
            .iter()
            .map(|line| line["count"].as_u64().unwrap())
            .sum();
        assert_eq!(shown, dice, "each outcome shows every die once");
    }
    // A pick out of range, and an answer while the roll waits, change nothing.
    let before = server.ok(json!({"cmd": "events", "game": game}))["events"].clone();
    server.refused(
        json!({"cmd": "apply_chance", "game": game, "outcome": outcomes.len()}),
        "out_of_range",
    );
    server.refused(
        json!({"cmd": "apply_chance", "game": game, "outcome": -1}),
        "out_of_range",
    );
    server.refused(
        json!({"cmd": "answer", "game": game, "player": 0, "answer": {"option": 0}}),
        "wrong_player",
    );
    assert_eq!(
        server.ok(json!({"cmd": "events", "game": game}))["events"],
        before
    );
    // Pick the last outcome of each roll until no roll waits (a script that rolls several
    // times stops at each roll; its events come when it finishes): the rolls recorded show
    // the outcomes picked, in order.
    let mut wanted = Vec::new();
    let mut events = Vec::new();
    while let Some(chance) = reply.get("chance").cloned() {
        assert!(wanted.len() < 20, "more than 20 rolls in a row");
        let outcomes = chance["outcomes"].as_array().unwrap();
        let pick = outcomes.len() - 1;
        wanted.push(outcomes[pick]["outcome"].clone());
        reply = server.ok(json!({"cmd": "apply_chance", "game": game, "outcome": pick}));
        events.extend(reply["events"].as_array().unwrap().iter().cloned());
    }
    let rolled: Vec<&Json> = events
        .iter()
        .filter(|event| event["event"] == json!("rolled"))
        .collect();
    assert!(rolled.len() >= wanted.len(), "{events:?}");
    for (roll, outcome) in rolled.iter().zip(&wanted) {
        for line in outcome.as_array().unwrap() {
            let shown = roll["dice"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|die| die["die"] == line["die"] && die["face"] == line["face"])
                .count() as u64;
            assert_eq!(shown, line["count"].as_u64().unwrap(), "{roll}");
        }
    }
    server.refused(json!({"cmd": "record", "game": game}), "no_record");
    let copy = server.ok(json!({"cmd": "clone", "game": game}))["game"].clone();
    server.refused(json!({"cmd": "record", "game": copy}), "no_record");
    // Off again: the game rolls from its seed and plays on to a question.
    reply = server.ok(json!({"cmd": "chance_mode", "game": game, "on": false}));
    assert!(reply.get("chance").is_none());
    for _ in 0..50 {
        if reply["over"] != json!(null) {
            break;
        }
        assert!(reply.get("chance").is_none(), "no roll stops the game now");
        let request = reply["pending"][0].clone();
        reply = server.ok(json!({"cmd": "answer", "game": game, "player": request["player"], "answer": chooser.answer(&request)}));
    }
    server.finish();
}
