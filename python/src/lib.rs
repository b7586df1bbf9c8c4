//! The Python binding of gloam (`import gloam`): games driven through the facade, with the
//! shipped rules embedded in the module.
//!
//! No rule lives here: a game is a [`gloam::core::Game`] of a [`RulesetGame`], set up as
//! `gloam sim` sets its matches up ([`gloam::sim::default_match_for`]). Requests, views and
//! events cross to Python in the JSON shapes their serde derivations give, built as Python
//! objects directly (no JSON text in between).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;

use gloam::core::{
    Answer, Choice, DecisionError, Event, Game as CoreGame, GameError, Options, PlayerId, Point,
    Record, Request as CoreRequest,
};
use gloam::engine::{MatchSpec, RulesetGame};
use gloam::load::{Loaded, Source};
use gloam::sim::AgentKind;
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// mimalloc, as the `gloam` command: a game runs many short scripts that allocate small
/// values (docs/performance.md). Only the module's Rust allocations use it; Python objects
/// stay with Python's allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod shipped {
    include!(concat!(env!("OUT_DIR"), "/shipped.rs"));
}

create_exception!(
    gloam,
    IllegalAnswer,
    PyValueError,
    "An answer the pending request does not allow; the game is unchanged."
);
create_exception!(
    gloam,
    DataError,
    PyValueError,
    "The data could not be loaded, or names no such ruleset or match."
);
create_exception!(
    gloam,
    RuleFailure,
    PyRuntimeError,
    "A rule failed while running; the game is unchanged."
);

/// The format tag of [`Game::record`].
const RECORD_FORMAT: &str = "gloam-python-record/1";

/// Where a game's data comes from: the embedded rules or files on disk, plus extra files
/// given as text (a variant, a house rule).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
struct DataSpec {
    /// Files or folders read from disk; `None` for the shipped rules.
    paths: Option<Vec<String>>,
    /// Extra files: (name, text).
    sources: Vec<(String, String)>,
}

impl DataSpec {
    fn new(data: Option<Vec<PathBuf>>, sources: Option<BTreeMap<String, String>>) -> DataSpec {
        let paths = data
            .or_else(|| std::env::var_os("GLOAM_DATA").map(|v| std::env::split_paths(&v).collect()))
            .map(|paths| paths.iter().map(|p| p.display().to_string()).collect());
        DataSpec {
            paths,
            sources: sources.unwrap_or_default().into_iter().collect(),
        }
    }

    fn read(&self) -> Result<Vec<Source>, String> {
        let mut files = match &self.paths {
            None => shipped::SHIPPED
                .iter()
                .map(|(name, text)| Source::new(*name, *text))
                .collect(),
            Some(paths) => {
                let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
                let (files, problems) = gloam::load::read_paths(&paths);
                if let Some(first) = problems.first() {
                    return Err(format!("cannot read the data: {first}"));
                }
                files
            }
        };
        // A source named like a file already read replaces it (a changed shipped file).
        files.retain(|file| !self.sources.iter().any(|(name, _)| *name == file.name));
        files.extend(
            self.sources
                .iter()
                .map(|(name, text)| Source::new(name.as_str(), text.as_str())),
        );
        Ok(files)
    }
}

/// A loaded library and the host that compiled it.
type Library = (Rc<Loaded>, Rc<gloam_dsl::Host>);

thread_local! {
    /// Libraries loaded on this thread. Shipped and in-memory data never change, so they
    /// are loaded once per thread; data read from disk is read again each time.
    static LIBRARIES: RefCell<BTreeMap<DataSpec, Library>> = const { RefCell::new(BTreeMap::new()) };
}

fn library(data: &DataSpec) -> Result<Library, String> {
    let cacheable = data.paths.is_none();
    if cacheable {
        if let Some(found) = LIBRARIES.with(|cache| cache.borrow().get(data).cloned()) {
            return Ok(found);
        }
    }
    let sources = data.read()?;
    let loaded = gloam::sim::load_checked(&sources)?;
    if cacheable {
        LIBRARIES.with(|cache| cache.borrow_mut().insert(data.clone(), loaded.clone()));
    }
    Ok(loaded)
}

fn rules_for(data: &DataSpec, spec: &MatchSpec) -> PyResult<RulesetGame> {
    let (loaded, host) = library(data).map_err(DataError::new_err)?;
    RulesetGame::new(loaded, host, spec.clone()).map_err(|e| DataError::new_err(e.to_string()))
}

fn default_spec(data: &DataSpec, ruleset: &str, players: usize) -> PyResult<MatchSpec> {
    let (loaded, _) = library(data).map_err(DataError::new_err)?;
    gloam::sim::default_match_for(&loaded, ruleset, players).map_err(DataError::new_err)
}

// ---------------------------------------------------------------------------------------
// JSON values to and from Python objects.

fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

fn serde_to_py<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(value).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    to_py(py, &value)
}

fn from_py(object: &Bound<'_, PyAny>) -> PyResult<Value> {
    if object.is_none() {
        Ok(Value::Null)
    } else if let Ok(b) = object.cast::<PyBool>() {
        Ok(Value::Bool(b.is_true()))
    } else if object.is_instance_of::<PyInt>() {
        if let Ok(i) = object.extract::<i64>() {
            Ok(Value::from(i))
        } else {
            Ok(Value::from(object.extract::<u64>()?))
        }
    } else if let Ok(f) = object.cast::<PyFloat>() {
        serde_json::Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| PyValueError::new_err("a number that JSON cannot hold"))
    } else if let Ok(s) = object.cast::<PyString>() {
        Ok(Value::String(s.extract::<String>()?))
    } else if let Ok(dict) = object.cast::<PyDict>() {
        let mut map = serde_json::Map::new();
        for (key, item) in dict.iter() {
            let key: String = key
                .extract()
                .map_err(|_| PyTypeError::new_err("a record's keys are strings"))?;
            map.insert(key, from_py(&item)?);
        }
        Ok(Value::Object(map))
    } else if let Ok(list) = object.cast::<PyList>() {
        list.iter().map(|item| from_py(&item)).collect()
    } else if let Ok(tuple) = object.cast::<PyTuple>() {
        tuple.iter().map(|item| from_py(&item)).collect()
    } else {
        Err(PyTypeError::new_err(format!(
            "cannot read a {} as JSON data",
            object.get_type().name()?
        )))
    }
}

// ---------------------------------------------------------------------------------------
// Requests.

/// What shape of answer a request takes: `one`, `several`, `order`, or `point` (one free
/// position on a measured table: every choice is a point).
fn shape(request: &CoreRequest) -> &'static str {
    match &request.options {
        Options::One { choices }
            if !choices.is_empty() && choices.iter().all(|c| matches!(c, Choice::Point(_))) =>
        {
            "point"
        }
        Options::One { .. } => "one",
        Options::Several { .. } => "several",
        Options::Order { .. } => "order",
    }
}

fn items(request: &CoreRequest) -> &[Choice] {
    match &request.options {
        Options::One { choices } | Options::Several { choices, .. } => choices,
        Options::Order { items } => items,
    }
}

/// A decision the game waits on: who, what shape of answer, and the options.
#[pyclass(module = "gloam", frozen)]
struct Request {
    inner: CoreRequest,
}

#[pymethods]
impl Request {
    /// The seat that must answer.
    #[getter]
    fn player(&self) -> u8 {
        self.inner.player.0
    }

    /// The shape of the answer: `one` (an index), `several` (a list of distinct indices,
    /// between `min` and `max` of them), `order` (every index, in an order) or `point`.
    #[getter]
    fn kind(&self) -> &'static str {
        shape(&self.inner)
    }

    /// What the ruleset asks, in its words (`choose_action`).
    #[getter]
    fn name(&self) -> &str {
        &self.inner.kind
    }

    /// A sentence for a person.
    #[getter]
    fn prompt(&self) -> &str {
        &self.inner.prompt
    }

    /// The options, each a dict `{"type": ..., "value": ...}` (`{"type": "pass"}` has no
    /// value); an answer names them by index.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        serde_to_py(py, items(&self.inner))
    }

    /// The fewest options a `several` answer takes (`None` for other shapes).
    #[getter]
    fn min(&self) -> Option<u32> {
        match self.inner.options {
            Options::Several { min, .. } => Some(min),
            _ => None,
        }
    }

    /// The most options a `several` answer takes (`None` for other shapes).
    #[getter]
    fn max(&self) -> Option<u32> {
        match self.inner.options {
            Options::Several { max, .. } => Some(max),
            _ => None,
        }
    }

    /// Whether the answer stays hidden from the other players until the rules reveal it.
    #[getter]
    fn secret(&self) -> bool {
        self.inner.secret
    }

    /// The request as a dict in the JSON protocol's shape.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let dict = PyDict::new(py);
        dict.set_item("player", self.player())?;
        dict.set_item("kind", self.kind())?;
        dict.set_item("name", self.name())?;
        dict.set_item("prompt", self.prompt())?;
        dict.set_item("options", self.options(py)?)?;
        if let Options::Several { min, max, .. } = self.inner.options {
            dict.set_item("min", min)?;
            dict.set_item("max", max)?;
        }
        dict.set_item("secret", self.secret())?;
        Ok(dict.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "Request(player={}, kind={:?}, name={:?}, options={})",
            self.player(),
            self.kind(),
            self.inner.kind,
            items(&self.inner).len()
        )
    }
}

// ---------------------------------------------------------------------------------------
// Answers.

/// What a Python answer says, before it is matched with the request.
enum Given {
    Index(i64),
    Indices(Vec<i64>),
    Point(i64, i64),
}

fn given(choice: &Bound<'_, PyAny>) -> PyResult<Given> {
    let shape_error = || {
        PyTypeError::new_err(
            "an answer is an option index (int), a list of indices, or {\"point\": [x, y]} \
             (also {\"option\": i}, {\"options\": [...]}, {\"order\": [...]})",
        )
    };
    if choice.is_instance_of::<PyBool>() {
        return Err(shape_error());
    }
    if choice.is_instance_of::<PyInt>() {
        return Ok(Given::Index(choice.extract()?));
    }
    if let Ok(dict) = choice.cast::<PyDict>() {
        if dict.len() != 1 {
            return Err(shape_error());
        }
        let (key, value) = dict.iter().next().ok_or_else(shape_error)?;
        let key: String = key.extract().map_err(|_| shape_error())?;
        return match key.as_str() {
            "option" => Ok(Given::Index(value.extract().map_err(|_| shape_error())?)),
            "options" | "order" => Ok(Given::Indices(value.extract().map_err(|_| shape_error())?)),
            "point" => {
                let xy: Vec<i64> = value.extract().map_err(|_| shape_error())?;
                match xy[..] {
                    [x, y] => Ok(Given::Point(x, y)),
                    _ => Err(shape_error()),
                }
            }
            _ => Err(shape_error()),
        };
    }
    if choice.is_instance_of::<PyString>() {
        return Err(shape_error());
    }
    let indices: Vec<i64> = choice.extract().map_err(|_| shape_error())?;
    Ok(Given::Indices(indices))
}

/// The kernel answer `given` means for `request`, or why it is illegal.
fn answer_for(request: &CoreRequest, given: Given) -> Result<Answer, String> {
    let choices = items(request);
    let pick = |index: i64| -> Result<Choice, String> {
        usize::try_from(index)
            .ok()
            .and_then(|i| choices.get(i))
            .cloned()
            .ok_or_else(|| {
                format!(
                    "option {index} is out of range: `{}` has {} options (0 to {})",
                    request.kind,
                    choices.len(),
                    choices.len().saturating_sub(1)
                )
            })
    };
    match (&request.options, given) {
        (Options::One { .. }, Given::Index(index)) => Ok(Answer::One(pick(index)?)),
        (Options::One { .. }, Given::Point(x, y)) => Ok(Answer::One(Choice::Point(Point { x, y }))),
        (Options::Several { .. }, Given::Indices(indices)) => Ok(Answer::Several(
            indices.into_iter().map(pick).collect::<Result<_, _>>()?,
        )),
        (Options::Order { .. }, Given::Indices(indices)) => Ok(Answer::Order(
            indices.into_iter().map(pick).collect::<Result<_, _>>()?,
        )),
        (Options::One { .. }, _) => Err(format!(
            "`{}` takes one option: answer with an index",
            request.kind
        )),
        (Options::Several { min, max, .. }, _) => Err(format!(
            "`{}` takes {min} to {max} distinct options: answer with a list of indices",
            request.kind
        )),
        (Options::Order { .. }, _) => Err(format!(
            "`{}` takes every option in an order: answer with a list of all the indices",
            request.kind
        )),
    }
}

fn game_error(error: GameError) -> PyErr {
    match error {
        GameError::Decision(e) => IllegalAnswer::new_err(e.to_string()),
        other => RuleFailure::new_err(other.to_string()),
    }
}

fn parse_agents(agents: &[String]) -> PyResult<Vec<AgentKind>> {
    agents
        .iter()
        .map(|a| a.parse::<AgentKind>().map_err(PyValueError::new_err))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Games.

/// A saved game as [`Game::record`] writes it.
#[derive(Serialize, Deserialize)]
struct SavedRecord {
    format: String,
    data: DataSpec,
    #[serde(rename = "match")]
    spec: MatchSpec,
    record: Record,
}

/// A game of a ruleset, played by answering its requests.
///
/// A game lives on the thread that made it (its loaded rules are not shared between
/// threads); `clone()` or `record()` and `Game.load()` carry it elsewhere.
#[pyclass(module = "gloam", unsendable)]
struct Game {
    game: CoreGame<RulesetGame>,
    data: DataSpec,
    /// Whether a chance outcome was applied: the record no longer replays the game.
    chance_applied: bool,
}

impl Game {
    fn player(&self, player: i64) -> PyResult<PlayerId> {
        let seats = self.game.state().players.len();
        u8::try_from(player)
            .ok()
            .filter(|p| usize::from(*p) < seats)
            .map(PlayerId)
            .ok_or_else(|| {
                IllegalAnswer::new_err(format!(
                    "there is no player {player}: this game seats players 0 to {}",
                    seats.saturating_sub(1)
                ))
            })
    }

    fn events_to_py<'py>(py: Python<'py>, events: &[Event]) -> PyResult<Bound<'py, PyAny>> {
        let list = PyList::empty(py);
        for event in events {
            list.append(serde_to_py(py, event)?)?;
        }
        Ok(list.into_any())
    }
}

#[pymethods]
impl Game {
    /// Starts a game of `ruleset` with `seed`, its default match (its first warbands, one
    /// seat per player). `data`: files or folders to load instead of the shipped rules
    /// (default: env `GLOAM_DATA`, else the shipped rules); `sources`: extra data files as
    /// `{name: text}`, loaded with them.
    #[new]
    #[pyo3(signature = (ruleset, seed=0, data=None, *, players=2, sources=None))]
    fn new(
        ruleset: &str,
        seed: u64,
        data: Option<Vec<PathBuf>>,
        players: usize,
        sources: Option<BTreeMap<String, String>>,
    ) -> PyResult<Game> {
        let data = DataSpec::new(data, sources);
        let spec = default_spec(&data, ruleset, players)?;
        let rules = rules_for(&data, &spec)?;
        let setup = rules.setup(seed);
        let game = CoreGame::start(rules, setup, RulesetGame::first_frames())
            .map_err(|e| RuleFailure::new_err(format!("the game did not start: {e}")))?;
        Ok(Game {
            game,
            data,
            chance_applied: false,
        })
    }

    /// The ruleset's name.
    #[getter]
    fn ruleset(&self) -> String {
        self.game.rules().spec().ruleset.clone()
    }

    /// The seed the game started with.
    #[getter]
    fn seed(&self) -> u64 {
        self.game.record().setup.seed
    }

    /// How many seats the game has.
    #[getter]
    fn num_players(&self) -> usize {
        self.game.state().players.len()
    }

    /// What each seat brings: its warband, or its army in a table game.
    #[getter]
    fn warbands(&self) -> Vec<String> {
        let spec = self.game.rules().spec();
        spec.seats.iter().map(|s| s.brings().to_string()).collect()
    }

    /// The requests waiting for an answer (several when players decide at once; empty once
    /// the game is over).
    fn pending(&self) -> Vec<Request> {
        self.game
            .pending()
            .into_iter()
            .map(|r| Request { inner: r.clone() })
            .collect()
    }

    /// The option indices `player` may pick now (empty when nothing is asked of them). For
    /// a `several` or `order` request, the indices an answer's list is made of.
    fn legal_actions(&self, player: i64) -> PyResult<Vec<usize>> {
        let player = self.player(player)?;
        Ok(self
            .game
            .pending_for(player)
            .map(|r| (0..items(r).len()).collect())
            .unwrap_or_default())
    }

    /// Answers `player`'s request with `choice`: an option index, a list of indices
    /// (`several`, `order`), or `{"point": [x, y]}`. Returns the events that followed.
    /// Raises `IllegalAnswer` (a `ValueError`), changing nothing, when the answer is not
    /// allowed; `RuleFailure` when a rule fails (nothing changes either).
    fn answer<'py>(
        &mut self,
        py: Python<'py>,
        player: i64,
        choice: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let player = self.player(player)?;
        let given = given(choice)?;
        let answer = match self.game.pending_for(player) {
            Some(request) => answer_for(request, given).map_err(IllegalAnswer::new_err)?,
            // Nobody asks this player: the kernel says why (not their turn, game over).
            None => Answer::One(Choice::Pass),
        };
        let events = self.game.submit(player, answer).map_err(game_error)?;
        Game::events_to_py(py, events)
    }

    /// What `player` may see now: pieces, visible cards, zone sizes, counters, their own
    /// request, the result (a dict in the JSON protocol's shape).
    fn view<'py>(&self, py: Python<'py>, player: i64) -> PyResult<Bound<'py, PyAny>> {
        let player = self.player(player)?;
        serde_to_py(py, &self.game.view(player))
    }

    /// The event log: every event, or only what `player` may see of each.
    #[pyo3(signature = (player=None))]
    fn events<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        match player {
            None => Game::events_to_py(py, self.game.events()),
            Some(player) => {
                let player = self.player(player)?;
                Game::events_to_py(py, &self.game.events_for(player))
            }
        }
    }

    /// An independent copy: answering one never changes the other.
    fn clone(&self) -> Game {
        Game {
            game: self.game.clone(),
            data: self.data.clone(),
            chance_applied: self.chance_applied,
        }
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    /// The game as JSON-ready data: its data, its match, its seed and every answer.
    /// `Game.load(record)` replays it.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if self.chance_applied {
            return Err(PyValueError::new_err(
                "this game took chance outcomes from the host (apply_chance): its record \
                 holds no outcomes and would not replay it; copy it with clone()",
            ));
        }
        let saved = SavedRecord {
            format: RECORD_FORMAT.to_owned(),
            data: self.data.clone(),
            spec: self.game.rules().spec().clone(),
            record: self.game.record().clone(),
        };
        serde_to_py(py, &saved)
    }

    /// Replays a record written by `record()` into a new game.
    #[staticmethod]
    fn load(record: &Bound<'_, PyAny>) -> PyResult<Game> {
        let value = from_py(record)?;
        let saved: SavedRecord = serde_json::from_value(value)
            .map_err(|e| DataError::new_err(format!("not a gloam record: {e}")))?;
        if saved.format != RECORD_FORMAT {
            return Err(DataError::new_err(format!(
                "record format `{}`, expected `{RECORD_FORMAT}`",
                saved.format
            )));
        }
        let rules = rules_for(&saved.data, &saved.spec)?;
        let game = CoreGame::replay(rules, &saved.record, RulesetGame::first_frames())
            .map_err(|e| DataError::new_err(format!("the record does not replay: {e}")))?;
        Ok(Game {
            game,
            data: saved.data,
            chance_applied: false,
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let load = slf.get_type().getattr("load")?;
        let record = slf.borrow().record(py)?;
        PyTuple::new(py, [load, PyTuple::new(py, [record])?.into_any()])
    }

    /// Whether the game has ended.
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// `None` while the game runs; then `{"winners": [...], "reason": "..."}` (every seat
    /// among the winners for a draw).
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.game.state().result {
            None => Ok(py.None().into_bound(py)),
            Some(result) => serde_to_py(py, result),
        }
    }

    /// A counter of the game (`scope=None`), of a player (`player=P`) or of a piece
    /// (`piece=N`); 0 when unset.
    #[pyo3(signature = (name, player=None, piece=None))]
    fn counter(&self, name: &str, player: Option<i64>, piece: Option<u16>) -> PyResult<i64> {
        let state = self.game.state();
        Ok(match (player, piece) {
            (Some(_), Some(_)) => {
                return Err(PyValueError::new_err("give a player or a piece, not both"));
            }
            (Some(player), None) => {
                let id = self.player(player)?;
                state.players[usize::from(id.0)]
                    .counters
                    .get(name)
                    .copied()
                    .unwrap_or(0)
            }
            (None, Some(piece)) => state
                .pieces
                .get(&gloam::core::PieceId(piece))
                .and_then(|p| p.counters.get(name).copied())
                .unwrap_or(0),
            (None, None) => state.counter(name),
        })
    }

    /// Answers `player`'s request as one of gloam's agents would (`random`), seeded with
    /// `seed`, and returns the answer's option indices (an int, or a list).
    fn random_answer<'py>(
        &self,
        py: Python<'py>,
        player: i64,
        seed: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let player = self.player(player)?;
        let Some(request) = self.game.pending_for(player) else {
            return Err(IllegalAnswer::new_err(format!(
                "{}",
                DecisionError::NothingPending
            )));
        };
        let mut rng = gloam::core::GameRng::from_seed(seed);
        let answer = gloam::agent::random_answer(&mut rng, request);
        let index = |choice: &Choice| items(request).iter().position(|c| c == choice);
        match answer {
            Answer::One(choice) => Ok(index(&choice).into_pyobject(py)?.into_any()),
            Answer::Several(picked) | Answer::Order(picked) => {
                let indices: Vec<Option<usize>> = picked.iter().map(index).collect();
                Ok(indices.into_pyobject(py)?.into_any())
            }
        }
    }

    /// Turns chance mode on or off. In chance mode every roll is a chance node: the game
    /// stops before it, `chance_pending()` describes it, `chance_outcomes()` lists its
    /// outcomes with their exact probabilities, and `apply_chance(i)` continues with one.
    /// Off (the default), dice roll from the game's seeded generator.
    #[pyo3(signature = (on=true))]
    fn set_chance_mode(&mut self, on: bool) -> PyResult<()> {
        self.game.set_chance_mode(on).map_err(game_error)
    }

    /// Whether chance mode is on.
    #[getter]
    fn chance_mode(&self) -> bool {
        self.game.chance_mode()
    }

    /// Whether the game waits on a chance outcome (no player decides meanwhile).
    fn is_chance_node(&self) -> bool {
        self.game.chance_pending().is_some()
    }

    /// The roll waiting for an outcome, `{"player", "purpose", "pool"}`, or `None`.
    fn chance_pending<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.game.chance_pending() {
            None => Ok(py.None().into_bound(py)),
            Some(request) => {
                let dict = PyDict::new(py);
                dict.set_item("player", request.player.map(|p| p.0))?;
                dict.set_item("purpose", &request.purpose)?;
                dict.set_item("pool", serde_to_py(py, &request.pool)?)?;
                Ok(dict.into_any())
            }
        }
    }

    /// The outcomes of the roll waiting, as OpenSpiel's `chance_outcomes`: a list of
    /// `(outcome, probability)`, each outcome a list of `{"die", "face", "count"}` (dice
    /// of a kind pooled by face), the probabilities exact fractions (`fractions.Fraction`)
    /// with `exact=True`, else floats; they sum to 1. Empty when no roll waits.
    #[pyo3(signature = (exact=false))]
    fn chance_outcomes<'py>(
        &self,
        py: Python<'py>,
        exact: bool,
    ) -> PyResult<Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
        let outcomes = self.game.chance_outcomes().map_err(game_error)?;
        let fraction = if exact {
            Some(py.import("fractions")?.getattr("Fraction")?)
        } else {
            None
        };
        outcomes
            .iter()
            .map(|(outcome, ratio)| {
                let probability = match &fraction {
                    Some(fraction) => fraction.call1((ratio.num(), ratio.den()))?,
                    None => PyFloat::new(py, ratio.num() as f64 / ratio.den() as f64).into_any(),
                };
                Ok((serde_to_py(py, outcome)?, probability))
            })
            .collect()
    }

    /// Continues the game with an outcome of the roll waiting: an index into
    /// `chance_outcomes()`, or an outcome as it lists them. Returns the events that
    /// followed; an outcome that does not fit the roll raises `IllegalAnswer` and changes
    /// nothing. After this, `record()` refuses (it holds no outcomes); `clone()` works.
    fn apply_chance<'py>(
        &mut self,
        py: Python<'py>,
        outcome: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if self.game.chance_pending().is_none() {
            return Err(IllegalAnswer::new_err(
                "no roll waits for a chance outcome (is chance mode on?)",
            ));
        }
        let chosen = if outcome.is_instance_of::<PyInt>() && !outcome.is_instance_of::<PyBool>() {
            let index: i64 = outcome.extract()?;
            let outcomes = self.game.chance_outcomes().map_err(game_error)?;
            usize::try_from(index)
                .ok()
                .and_then(|i| outcomes.into_iter().nth(i))
                .map(|(o, _)| o)
                .ok_or_else(|| {
                    IllegalAnswer::new_err(format!(
                        "chance outcome {index} is out of range (see chance_outcomes())"
                    ))
                })?
        } else {
            serde_json::from_value(from_py(outcome)?).map_err(|e| {
                PyTypeError::new_err(format!(
                    "a chance outcome is an index or a list of {{die, face, count}}: {e}"
                ))
            })?
        };
        let fits = self
            .game
            .chance_pending()
            .map(|request| request.dice.roll_outcome(&request.pool, &chosen));
        if let Some(Err(unfit)) = fits {
            return Err(IllegalAnswer::new_err(format!(
                "the outcome does not fit the roll: {unfit}"
            )));
        }
        let events = self.game.apply_chance(&chosen).map_err(game_error)?;
        let events = Game::events_to_py(py, events)?;
        self.chance_applied = true;
        Ok(events)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(ruleset={:?}, seed={}, decisions={}, over={})",
            self.ruleset(),
            self.seed(),
            self.game.record().answers.len(),
            self.is_over()
        )
    }
}

/// Plays one whole game between gloam's agents (`random`, `greedy`; seat `s` plays
/// `agents[s % len(agents)]`) and returns its summary: seed, winners, glory by seat,
/// decisions, events, error. The same arguments give the same summary on any machine.
#[pyfunction]
#[pyo3(signature = (ruleset, seed=0, agents=vec!["random".to_owned()], data=None, *, players=2, sources=None))]
fn play<'py>(
    py: Python<'py>,
    ruleset: &str,
    seed: u64,
    agents: Vec<String>,
    data: Option<Vec<PathBuf>>,
    players: usize,
    sources: Option<BTreeMap<String, String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let agents = parse_agents(&agents)?;
    let data = DataSpec::new(data, sources);
    let spec = default_spec(&data, ruleset, players)?;
    let rules = rules_for(&data, &spec)?;
    let summary = gloam::sim::play_one_with(&rules, seed, &agents);
    let dict = serde_to_py(py, &summary)?;
    dict.set_item(
        "warbands",
        spec.seats
            .iter()
            .map(|s| s.brings().to_string())
            .collect::<Vec<_>>(),
    )?;
    Ok(dict)
}

/// The rulesets the data holds (default: the shipped rules).
#[pyfunction]
#[pyo3(signature = (data=None, *, sources=None))]
fn rulesets(
    data: Option<Vec<PathBuf>>,
    sources: Option<BTreeMap<String, String>>,
) -> PyResult<Vec<String>> {
    let data = DataSpec::new(data, sources);
    let (loaded, _) = library(&data).map_err(DataError::new_err)?;
    Ok(loaded
        .library
        .rulesets()
        .iter()
        .map(|r| r.name.clone())
        .collect())
}

/// The shipped data files embedded in this module, `{name: text}`: write them out to
/// change them, or pass a changed one in `sources`.
#[pyfunction]
fn shipped_data() -> BTreeMap<String, String> {
    shipped::SHIPPED
        .iter()
        .map(|(name, text)| ((*name).to_owned(), (*text).to_owned()))
        .collect()
}

/// The native part of the `gloam` package.
#[pymodule]
fn _gloam(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add_class::<Game>()?;
    module.add_class::<Request>()?;
    module.add_function(wrap_pyfunction!(play, module)?)?;
    module.add_function(wrap_pyfunction!(rulesets, module)?)?;
    module.add_function(wrap_pyfunction!(shipped_data, module)?)?;
    module.add("IllegalAnswer", py.get_type::<IllegalAnswer>())?;
    module.add("DataError", py.get_type::<DataError>())?;
    module.add("RuleFailure", py.get_type::<RuleFailure>())?;
    Ok(())
}
