//! What a measured game sets up and reads beyond moving units: the table and map chosen in
//! play (layouts), terrain features set up in play (pieces of [`TERRAIN_LAYER`]) with the
//! checks and candidate places of their footprints, a unit's models whether on the table or
//! not, the weapons of a model's profile, and rolls read as numbers (`roll_amount`,
//! `roll_values`). No game's terms are here: limits and names come from the scripts and the
//! data.

use gloam_core::{
    Choice, FootprintLimits, GroupId, Length, PieceId, PlayerId, Point, Position, Request, Shape,
    check_footprint, footprint_at, footprint_candidates,
};
use rhai::{Array, Dynamic, ImmutableString, Map};

use crate::FunctionKind::Choice as ChoiceKind;
use crate::compiled::Registrar;
use crate::functions::{Ncc, Res, effect, roll_pool};
use crate::runtime::{RunState, Stop, with_run};
use crate::table::{
    Edge, Feature, TERRAIN_LAYER, Table, WAS_REFUSED, get_int, get_list, known_keys, length,
    table_of, table_type_name, zone_named,
};
use crate::world::ProfileValue;

pub(crate) fn register(engine: &mut Registrar) {
    register_layouts(engine);
    register_terrain(engine);
    register_units(engine);
    register_rolls(engine);
}

fn register_layouts(engine: &mut Registrar) {
    engine.register_fn("table_layouts", |ctx: Ncc| -> Res<Array> {
        with_run(&ctx, "table_layouts", |run| {
            Ok(run
                .world
                .table_layouts
                .iter()
                .zip(&run.world.layouts)
                .map(|((table, map), layout)| {
                    let mut entry = Map::new();
                    entry.insert(
                        "layout".into(),
                        Dynamic::from(ImmutableString::from(layout.as_str())),
                    );
                    entry.insert(
                        "table".into(),
                        Dynamic::from(ImmutableString::from(table.as_str())),
                    );
                    entry.insert(
                        "map".into(),
                        Dynamic::from(ImmutableString::from(map.as_str())),
                    );
                    Dynamic::from_map(entry)
                })
                .collect())
        })
    });
    engine.register_fn("territories_at", |ctx: Ncc, at: Point| -> Res<Array> {
        with_run(&ctx, "territories_at", |run| {
            let table = table_of(run, "territories_at")?;
            Ok(table
                .territories
                .iter()
                .filter(|(_, area)| area.contains(at))
                .map(|(name, _)| text(name))
                .collect())
        })
    });
    engine.register_fn("table_edges", |ctx: Ncc| -> Res<Array> {
        with_run(&ctx, "table_edges", |run| {
            let table = table_of(run, "table_edges")?;
            let outline = &table.outline;
            Ok((0..outline.len())
                .map(|i| {
                    let edge: Array = vec![
                        Dynamic::from(outline[i]),
                        Dynamic::from(outline[(i + 1) % outline.len()]),
                    ];
                    Dynamic::from_array(edge)
                })
                .collect())
        })
    });
}

/// A loose feature of the table in play, by name.
fn loose<'a>(table: &'a Table, function: &'static str, name: &str) -> Result<&'a Feature, Stop> {
    table.loose.iter().find(|f| f.name == name).ok_or_else(|| {
        let known: Vec<&str> = table.loose.iter().map(|f| f.name.as_str()).collect();
        Stop::failed(
            function,
            format!(
                "the table has no terrain feature `{name}` to set up (it has: {})",
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            ),
        )
    })
}

/// The piece that stands for the loose feature `name`.
fn terrain_piece(run: &RunState, function: &'static str, name: &str) -> Result<PieceId, Stop> {
    run.state()
        .pieces
        .values()
        .find(|piece| piece.layer == TERRAIN_LAYER && piece.kind == name)
        .map(|piece| piece.id)
        .ok_or_else(|| {
            Stop::failed(
                function,
                format!("no piece stands for terrain feature `{name}` (the match made none)"),
            )
        })
}

const TERRAIN_KEYS: &[&str] = &["zone", "away", "terrain_gap", "on_table"];

/// The shapes a target of a terrain limit stands for, with a name for refusals.
fn shapes_of(
    run: &RunState,
    table: &Table,
    function: &'static str,
    value: &Dynamic,
    moving: &str,
) -> Result<Vec<(String, Shape)>, Stop> {
    if let Some(point) = value.read_lock::<Point>().map(|p| *p) {
        return Ok(vec![(
            format!("({}, {})", point.x, point.y),
            Shape::Point(point),
        )]);
    }
    if let Some(piece) = value.read_lock::<PieceId>().map(|p| *p) {
        let entry = run
            .state()
            .piece(piece)
            .ok_or_else(|| Stop::failed(function, format!("there is no {piece}")))?;
        let Some(at) = entry.position.and_then(Position::point) else {
            return Ok(Vec::new());
        };
        let radius = entry
            .characteristics
            .get(&run.world.names.base_radius)
            .copied()
            .unwrap_or(0);
        return Ok(vec![(
            piece.to_string(),
            Shape::Disc(at, Length::tenth_mm(radius)),
        )]);
    }
    if value.is::<Edge>() {
        let outline = &table.outline;
        return Ok((0..outline.len())
            .map(|i| {
                (
                    "the table edge".to_owned(),
                    Shape::Segment(outline[i], outline[(i + 1) % outline.len()]),
                )
            })
            .collect());
    }
    if let Ok(pair) = value.clone().into_array() {
        let ends: Vec<Point> = pair
            .iter()
            .filter_map(|item| item.read_lock::<Point>().map(|p| *p))
            .collect();
        if let [a, b] = ends.as_slice() {
            return Ok(vec![(
                format!("the edge from ({}, {}) to ({}, {})", a.x, a.y, b.x, b.y),
                Shape::Segment(*a, *b),
            )]);
        }
    }
    if value.is_string() {
        let name = value.to_string();
        if let Some((_, area)) = table.territories.iter().find(|(n, _)| *n == name) {
            return Ok(vec![(name, Shape::of_area(area))]);
        }
        if let Some((_, at)) = table.objectives.iter().find(|(n, _)| *n == name) {
            return Ok(vec![(format!("objective {name}"), Shape::Point(*at))]);
        }
        if let Some(feature) = table.features.iter().find(|f| f.name == name) {
            if feature.name == moving {
                return Ok(Vec::new());
            }
            return Ok(feature
                .footprints
                .iter()
                .map(|t| (name.clone(), Shape::Polygon(t.footprint.clone())))
                .collect());
        }
        if table.loose.iter().any(|f| f.name == name) {
            // A feature not set up yet is nowhere to keep away from.
            return Ok(Vec::new());
        }
        return Err(Stop::failed(
            function,
            format!("the table has no territory, objective or terrain feature named `{name}`"),
        ));
    }
    Err(Stop::failed(
        function,
        format!(
            "a target of limit `away` must be a point, a fighter, `table_edge()`, an edge \
             (`[point, point]`, as `table_edges()` gives them), or the name of a territory, \
             objective or terrain feature, not a {}",
            table_type_name(value)
        ),
    ))
}

/// A terrain limits map read as the kernel's footprint limits for feature `moving`.
fn terrain_limits(
    run: &RunState,
    table: &Table,
    function: &'static str,
    moving: &str,
    map: &Map,
) -> Result<FootprintLimits, Stop> {
    known_keys(function, map, TERRAIN_KEYS)?;
    let mut limits = FootprintLimits::default();
    if let Some(zone) = map.get("zone") {
        limits.zone = Some(zone_named(table, function, zone)?.clone());
    }
    if let Some(items) = get_list(function, map, "away")? {
        for item in &items {
            let bad = || {
                Stop::failed(
                    function,
                    "limit `away` must be a list of pairs `[target, distance]`",
                )
            };
            let pair = item.clone().into_array().map_err(|_| bad())?;
            let [target, distance] = pair.as_slice() else {
                return Err(bad());
            };
            let distance = distance.as_int().map_err(|_| bad())?;
            let distance = length(function, "limit `away`", distance)?;
            for (name, shape) in shapes_of(run, table, function, target, moving)? {
                limits.away.push((name, shape, distance));
            }
        }
    }
    if let Some(gap) = get_int(function, map, "terrain_gap")? {
        let gap = length(function, "limit `terrain_gap`", gap)?;
        for feature in table.features.iter().filter(|f| f.name != moving) {
            for terrain in &feature.footprints {
                limits.away.push((
                    format!("terrain feature {}", feature.name),
                    Shape::Polygon(terrain.footprint.clone()),
                    gap,
                ));
            }
        }
    }
    let on_table = match map.get("on_table") {
        None => true,
        Some(value) => value
            .as_bool()
            .map_err(|_| Stop::failed(function, "limit `on_table` must be true or false"))?,
    };
    if on_table {
        limits.outline = Some(table.outline.clone());
    }
    Ok(limits)
}

/// Checks every footprint of `feature` with its origin at `at`.
fn check_feature(
    run: &RunState,
    feature: &Feature,
    at: Point,
    limits: &FootprintLimits,
    table: &Table,
) -> Result<(), String> {
    check_feature_from(run, feature, at, limits, table, 0)
}

/// [`check_feature`] of the footprints from `first` on (the ones before already checked
/// against the same limits).
fn check_feature_from(
    run: &RunState,
    feature: &Feature,
    at: Point,
    limits: &FootprintLimits,
    table: &Table,
    first: usize,
) -> Result<(), String> {
    // A feature set up in play is a piece standing at its origin: two cannot share one
    // point, even where their footprints may overlap (a token set on a piece of terrain).
    let taken = run.state().pieces.values().any(|piece| {
        piece.layer == TERRAIN_LAYER && piece.position.and_then(|p| p.point()) == Some(at)
    });
    if taken {
        return Err(format!(
            "{} cannot be set up there: another terrain feature is set up with its origin at that very point",
            feature.name
        ));
    }
    for terrain in feature.footprints.iter().skip(first) {
        check_footprint(&footprint_at(&terrain.footprint, at), limits, table.unit)
            .map_err(|refused| format!("{} cannot be set up there: {refused}", feature.name))?;
    }
    Ok(())
}

/// The most candidate places a script may ask for (under the sandbox's list size).
const MAX_TERRAIN_CANDIDATES: usize = 1000;

fn terrain_candidates(
    run: &RunState,
    function: &'static str,
    name: &str,
    map: &Map,
    spacing: i64,
    max: i64,
) -> Result<Vec<Point>, Stop> {
    let table = table_of(run, function)?;
    let feature = loose(&table, function, name)?;
    let limits = terrain_limits(run, &table, function, name, map)?;
    if spacing <= 0 {
        return Err(Stop::failed(
            function,
            format!("the spacing must be more than 0, not {spacing}"),
        ));
    }
    let max = usize::try_from(max)
        .ok()
        .filter(|max| (1..=MAX_TERRAIN_CANDIDATES).contains(max))
        .ok_or_else(|| {
            Stop::failed(
                function,
                format!("the most candidates must be 1 to {MAX_TERRAIN_CANDIDATES}, not {max}"),
            )
        })?;
    let Some(floor) = feature.footprints.first() else {
        return Ok(Vec::new());
    };
    // The floor's legal places (the floor checked there against these limits), then those
    // where every raised part fits too.
    let legal: Vec<Point> = footprint_candidates(
        &floor.footprint,
        &limits,
        Length::tenth_mm(spacing),
        usize::MAX,
    )
    .into_iter()
    .filter(|at| check_feature_from(run, feature, *at, &limits, &table, 1).is_ok())
    .collect();
    Ok(spread(legal, max))
}

fn spread(legal: Vec<Point>, max: usize) -> Vec<Point> {
    if legal.len() <= max {
        return legal;
    }
    let count = legal.len();
    (0..max).map(|i| legal[i * count / max]).collect()
}

fn register_terrain(engine: &mut Registrar) {
    engine.register_fn("terrain_to_set_up", |ctx: Ncc| -> Res<Array> {
        with_run(&ctx, "terrain_to_set_up", |run| {
            let table = table_of(run, "terrain_to_set_up")?;
            let placed: Vec<&str> = table.features.iter().map(|f| f.name.as_str()).collect();
            Ok(table
                .loose
                .iter()
                .filter(|f| !placed.contains(&f.name.as_str()))
                .map(|f| Dynamic::from(ImmutableString::from(f.name.as_str())))
                .collect())
        })
    });
    engine.register_fn(
        "terrain_kind",
        |ctx: Ncc, name: ImmutableString| -> Res<ImmutableString> {
            with_run(&ctx, "terrain_kind", |run| {
                let table = table_of(run, "terrain_kind")?;
                table
                    .features
                    .iter()
                    .chain(table.loose.iter())
                    .find(|f| f.name == name.as_str())
                    .map(|f| ImmutableString::from(f.kind.as_str()))
                    .ok_or_else(|| {
                        Stop::failed(
                            "terrain_kind",
                            format!("the table has no terrain feature `{name}`"),
                        )
                    })
            })
        },
    );
    engine.register_fn(
        "terrain_setup_candidates",
        |ctx: Ncc, name: ImmutableString, limits: Map, spacing: i64, max: i64| -> Res<Array> {
            const F: &str = "terrain_setup_candidates";
            with_run(&ctx, F, |run| {
                Ok(terrain_candidates(run, F, &name, &limits, spacing, max)?
                    .into_iter()
                    .map(Dynamic::from)
                    .collect())
            })
        },
    );
    engine.register_fn(
        "check_terrain_setup",
        |ctx: Ncc, name: ImmutableString, at: Point, limits: Map| -> Res<Dynamic> {
            const F: &str = "check_terrain_setup";
            with_run(&ctx, F, |run| {
                let table = table_of(run, F)?;
                let feature = loose(&table, F, &name)?;
                let limits = terrain_limits(run, &table, F, &name, &limits)?;
                Ok(match check_feature(run, feature, at, &limits, &table) {
                    Ok(()) => Dynamic::UNIT,
                    Err(why) => Dynamic::from(ImmutableString::from(why)),
                })
            })
        },
    );
    engine.register_fn(
        "choose_terrain_setup",
        |ctx: Ncc,
         name: ImmutableString,
         limits: Map,
         spacing: i64,
         max: i64,
         prompt: ImmutableString|
         -> Res<Dynamic> {
            const F: &str = "choose_terrain_setup";
            with_run(&ctx, F, |run| {
                let candidates = terrain_candidates(run, F, &name, &limits, spacing, max)?;
                run.check_effect(F, ChoiceKind)?;
                if candidates.is_empty() {
                    return Ok(Dynamic::UNIT);
                }
                let player = run.acting(F)?;
                let request = Request::table_point(player, F, &prompt, candidates.clone());
                let point = match run.choose(F, request)? {
                    gloam_core::Answer::One(Choice::Point(point)) => point,
                    _ => {
                        return Err(Stop::failed(F, "the recorded answer is not a table point"));
                    }
                };
                if !candidates.contains(&point) {
                    let table = table_of(run, F)?;
                    let feature = loose(&table, F, &name)?;
                    let limits = terrain_limits(run, &table, F, &name, &limits)?;
                    if let Err(why) = check_feature(run, feature, point, &limits, &table) {
                        return Err(Stop::refused(
                            F,
                            format!("{}{WAS_REFUSED}{why}", Choice::Point(point)),
                        ));
                    }
                }
                Ok(Dynamic::from(point))
            })
        },
    );
    engine.register_fn(
        "set_up_terrain",
        |ctx: Ncc, name: ImmutableString, at: Point, limits: Map| -> Res<()> {
            const F: &str = "set_up_terrain";
            with_run(&ctx, F, |run| {
                effect(run, F)?;
                let table = table_of(run, F)?;
                if table.features.iter().any(|f| f.name == name.as_str()) {
                    return Err(Stop::refused(
                        F,
                        format!("terrain feature `{name}` is already set up"),
                    ));
                }
                let feature = loose(&table, F, &name)?;
                let limits = terrain_limits(run, &table, F, &name, &limits)?;
                check_feature(run, feature, at, &limits, &table)
                    .map_err(|why| Stop::refused(F, why))?;
                drop(table);
                let piece = terrain_piece(run, F, &name)?;
                run.ctx()
                    .place_piece(
                        piece,
                        Some(Position::Table { at, facing: (0, 0) }),
                        Vec::new(),
                        "set_up",
                    )
                    .map_err(|error| Stop::refused(F, error))
            })
        },
    );
}

/// The unit number a piece carries (its id when it has none), as `unit_of` reads it.
fn group_of(run: &RunState, piece: &gloam_core::Piece) -> GroupId {
    GroupId(
        piece
            .characteristics
            .get(&run.world.names.unit)
            .and_then(|g| u32::try_from(*g).ok())
            .unwrap_or(u32::from(piece.id.0)),
    )
}

fn text(value: &str) -> Dynamic {
    Dynamic::from(ImmutableString::from(value))
}

fn or_unit_text(value: Option<&String>) -> Dynamic {
    value.map_or(Dynamic::UNIT, |v| text(v))
}

/// An ability as scripts read it: a map of its name, window, choice, frequency and keywords.
fn ability_map(ability: &crate::ArmyAbility) -> Dynamic {
    let mut map = Map::new();
    map.insert("name".into(), text(&ability.name));
    map.insert("window".into(), or_unit_text(ability.window.as_ref()));
    map.insert("choice".into(), or_unit_text(ability.choice.as_ref()));
    map.insert("frequency".into(), or_unit_text(ability.frequency.as_ref()));
    map.insert(
        "keywords".into(),
        Dynamic::from_array(ability.keywords.iter().map(|k| text(k)).collect()),
    );
    map.insert("effect".into(), Dynamic::from_bool(ability.has_effect));
    Dynamic::from_map(map)
}

fn register_units(engine: &mut Registrar) {
    engine.register_fn("army_of", |ctx: Ncc, player: PlayerId| -> Res<Dynamic> {
        with_run(&ctx, "army_of", |run| {
            if run.state().player(player).is_none() {
                return Err(Stop::failed("army_of", format!("there is no {player}")));
            }
            let Some(army) = run.world.armies.get(&player) else {
                return Ok(Dynamic::UNIT);
            };
            let mut map = Map::new();
            map.insert("name".into(), text(&army.name));
            map.insert("general".into(), or_unit_text(army.general.as_ref()));
            map.insert(
                "abilities".into(),
                Dynamic::from_array(army.abilities.iter().map(ability_map).collect()),
            );
            Ok(Dynamic::from_map(map))
        })
    });
    engine.register_fn("party_of", |ctx: Ncc, player: PlayerId| -> Res<Dynamic> {
        with_run(&ctx, "party_of", |run| {
            if run.state().player(player).is_none() {
                return Err(Stop::failed("party_of", format!("there is no {player}")));
            }
            let Some(party) = run.world.parties.get(&player) else {
                return Ok(Dynamic::UNIT);
            };
            let mut map = Map::new();
            map.insert("name".into(), text(&party.name));
            map.insert("alignment".into(), text(&party.alignment));
            map.insert("guild".into(), or_unit_text(party.guild.as_ref()));
            map.insert("points".into(), Dynamic::from_int(party.points));
            Ok(Dynamic::from_map(map))
        })
    });
    engine.register_fn(
        "model_abilities",
        |ctx: Ncc, fighter: PieceId| -> Res<Array> {
            with_run(&ctx, "model_abilities", |run| {
                let piece = run.state().piece(fighter).ok_or_else(|| {
                    Stop::failed("model_abilities", format!("there is no {fighter}"))
                })?;
                Ok(run
                    .world
                    .model_abilities
                    .get(&piece.kind)
                    .into_iter()
                    .flatten()
                    .map(ability_map)
                    .collect())
            })
        },
    );
    engine.register_fn("unit_models", |ctx: Ncc, unit: GroupId| -> Res<Array> {
        with_run(&ctx, "unit_models", |run| {
            Ok(run
                .state()
                .pieces
                .values()
                .filter(|piece| piece.layer.is_empty() && group_of(run, piece) == unit)
                .map(|piece| Dynamic::from(piece.id))
                .collect())
        })
    });
    engine.register_fn("all_units_of", |ctx: Ncc, player: PlayerId| -> Res<Array> {
        with_run(&ctx, "all_units_of", |run| {
            if run.state().player(player).is_none() {
                return Err(Stop::failed(
                    "all_units_of",
                    format!("there is no {player}"),
                ));
            }
            let mut units: Vec<GroupId> = Vec::new();
            for piece in run.state().pieces.values() {
                if piece.owner == player && piece.layer.is_empty() {
                    let group = group_of(run, piece);
                    if !units.contains(&group) {
                        units.push(group);
                    }
                }
            }
            Ok(units.into_iter().map(Dynamic::from).collect())
        })
    });
    engine.register_fn(
        "model_weapons",
        |ctx: Ncc, fighter: PieceId| -> Res<Array> {
            with_run(&ctx, "model_weapons", |run| {
                let piece = run.state().piece(fighter).ok_or_else(|| {
                    Stop::failed("model_weapons", format!("there is no {fighter}"))
                })?;
                Ok(run
                    .world
                    .model_weapons
                    .get(&piece.kind)
                    .into_iter()
                    .flatten()
                    .map(|w| Dynamic::from(ImmutableString::from(w.name.as_str())))
                    .collect())
            })
        },
    );
    engine.register_fn(
        "model_weapon",
        |ctx: Ncc, fighter: PieceId, weapon: ImmutableString| -> Res<Map> {
            const F: &str = "model_weapon";
            with_run(&ctx, F, |run| {
                let piece = run
                    .state()
                    .piece(fighter)
                    .ok_or_else(|| Stop::failed(F, format!("there is no {fighter}")))?;
                let weapons: &[crate::ModelWeapon] = run
                    .world
                    .model_weapons
                    .get(&piece.kind)
                    .map_or(&[], Vec::as_slice);
                let found = weapons
                    .iter()
                    .find(|w| w.name == weapon.as_str())
                    .ok_or_else(|| {
                        Stop::failed(
                            F,
                            format!(
                                "{fighter} ({}) has no weapon `{weapon}` (it has: {})",
                                piece.kind,
                                if weapons.is_empty() {
                                    "none".to_owned()
                                } else {
                                    weapons
                                        .iter()
                                        .map(|w| w.name.as_str())
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                }
                            ),
                        )
                    })?;
                let mut map = Map::new();
                map.insert(
                    "name".into(),
                    Dynamic::from(ImmutableString::from(found.name.as_str())),
                );
                for (key, value) in &found.profile {
                    let value = match value {
                        ProfileValue::Int(n) => Dynamic::from_int(*n),
                        ProfileValue::Text(text) => {
                            Dynamic::from(ImmutableString::from(text.as_str()))
                        }
                        ProfileValue::Names(names) => Dynamic::from_array(
                            names
                                .iter()
                                .map(|n| Dynamic::from(ImmutableString::from(n.as_str())))
                                .collect(),
                        ),
                        ProfileValue::Unset => Dynamic::UNIT,
                    };
                    map.insert(key.as_str().into(), value);
                }
                Ok(map)
            })
        },
    );
}

/// `"D3"`, `"2D6+1"`, `"D6-1"`: the number of dice (1 when left out), the die's name (`d`
/// and what follows, lower case) and what is added.
fn parse_amount(text: &str) -> Option<(i64, String, i64)> {
    let text = text.trim();
    let at = text.find(['D', 'd'])?;
    let count = match &text[..at] {
        "" => 1,
        digits => digits.parse::<i64>().ok()?,
    };
    let rest = &text[at + 1..];
    let (sides, plus) = match rest.find(['+', '-']) {
        Some(sign) => {
            let plus: i64 = rest[sign + 1..].trim().parse().ok()?;
            (
                &rest[..sign],
                if rest.as_bytes()[sign] == b'-' {
                    -plus
                } else {
                    plus
                },
            )
        }
        None => (rest, 0),
    };
    if sides.is_empty() || !sides.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((count, format!("d{}", sides.to_ascii_lowercase()), plus))
}

fn sum_of(function: &'static str, die: &str, roll: &gloam_core::Roll) -> Result<i64, Stop> {
    roll.sum().ok_or_else(|| {
        Stop::failed(
            function,
            format!("die `{die}` has faces without a number: give it `values` in the ruleset"),
        )
    })
}

fn register_rolls(engine: &mut Registrar) {
    engine.register_fn("roll_amount", |ctx: Ncc, amount: Dynamic| -> Res<i64> {
        const F: &str = "roll_amount";
        with_run(&ctx, F, |run| {
            if let Ok(n) = amount.as_int() {
                return Ok(n);
            }
            let text = amount
                .read_lock::<ImmutableString>()
                .map(|s| s.to_string())
                .ok_or_else(|| {
                    Stop::failed(
                        F,
                        format!(
                            "the amount must be a number or a roll such as \"D3\" or \"2D6+1\", not a {}",
                            table_type_name(&amount)
                        ),
                    )
                })?;
            let (count, die, plus) = parse_amount(&text).ok_or_else(|| {
                Stop::failed(
                    F,
                    format!("`{text}` is not a roll: write it like \"D3\", \"2D6\" or \"D6+1\""),
                )
            })?;
            let acting = run.acting;
            let roll = roll_pool(run, F, acting, &die, count, &ctx)?;
            Ok(sum_of(F, &die, &roll)?.saturating_add(plus))
        })
    });
    engine.register_fn(
        "roll_values",
        |ctx: Ncc, die: ImmutableString, count: i64| -> Res<Array> {
            const F: &str = "roll_values";
            with_run(&ctx, F, |run| {
                let acting = run.acting;
                let roll = roll_pool(run, F, acting, &die, count, &ctx)?;
                roll.dice()
                    .iter()
                    .map(|rolled| {
                        run.world
                            .dice
                            .get(&die)
                            .and_then(|def| def.face(&rolled.face))
                            .and_then(|face| face.value)
                            .map(Dynamic::from_int)
                            .ok_or_else(|| {
                                Stop::failed(
                                    F,
                                    format!(
                                        "face `{}` of die `{die}` has no number: give the die `values` in the ruleset",
                                        rolled.face
                                    ),
                                )
                            })
                    })
                    .collect()
            })
        },
    );
}

#[cfg(test)]
mod tests {
    use super::parse_amount;

    #[test]
    fn amounts_parse() {
        assert_eq!(parse_amount("D3"), Some((1, "d3".into(), 0)));
        assert_eq!(parse_amount("2D6+1"), Some((2, "d6".into(), 1)));
        assert_eq!(parse_amount("d6-1"), Some((1, "d6".into(), -1)));
        assert_eq!(parse_amount("3"), None);
        assert_eq!(parse_amount("D"), None);
        assert_eq!(parse_amount("xD6"), None);
    }
}
