//! Umbra Turris for three or four players (seed 003, L2152-2178; digest A23), played from
//! the data: the corner zones and the roll-off for them, everyone's initiative, the places
//! won one after the other while the others play on, and the Quest cards about one enemy
//! party or about all of them. Each test cites the seed lines it checks.

use gloam::agent::Agent as _;
use gloam::core::{Game, GameState, PieceId, PlayerId, Position, Scope, Value, ZoneId};
use gloam::engine::RulesetGame;
use gloam::sim::{MatchChoice, check_game_invariants, prepare_match};

mod scenario;
use scenario::{cards_dir, frame, player_counter, scenario};

const P0: PlayerId = PlayerId(0);
const P1: PlayerId = PlayerId(1);
const P2: PlayerId = PlayerId(2);

/// The shipped parties in turn, for `players` seats.
fn table_for(players: usize) -> RulesetGame {
    let parties = ["The Lantern Wardens", "The Ashen Court"];
    let choice = MatchChoice {
        parties: (0..players).map(|i| parties[i % 2].to_owned()).collect(),
        ..MatchChoice::default()
    };
    prepare_match(&[cards_dir()], "umbra_turris", players, &choice).expect("the match")
}

/// The models of `player` (heroes and the creatures it may summon), in id order.
fn pieces_of(state: &GameState, player: PlayerId) -> Vec<PieceId> {
    let mut ids: Vec<PieceId> = state
        .pieces
        .iter()
        .filter(|(_, p)| p.owner == player && p.characteristics.contains_key("wounds"))
        .map(|(id, _)| *id)
        .collect();
    ids.sort();
    ids
}

fn on_table(state: &GameState, id: PieceId) -> Option<(i64, i64)> {
    match state.pieces[&id].position {
        Some(Position::Table { at, .. }) => Some((at.x, at.y)),
        _ => None,
    }
}

fn cost(state: &GameState, id: PieceId) -> i64 {
    state.characteristic(id, "cost").expect("a hero's cost")
}

fn card_of(state: &GameState, player: PlayerId, name: &str) -> gloam::core::CardId {
    *state
        .cards
        .iter()
        .find(|(_, c)| c.name == name && c.owner == player)
        .unwrap_or_else(|| panic!("no card {name}"))
        .0
}

fn zone_names(state: &GameState, player: PlayerId, zone: &str) -> Vec<String> {
    state
        .zone_cards(&ZoneId::new(player, zone))
        .iter()
        .map(|card| state.cards[card].name.clone())
        .collect()
}

/// 003 L2156-2162: with three or four players each party deploys within 15 cm of its own
/// corner (the square there: ours, docs/umbra-turris.md) (the corners chosen after a roll-off), every player rolls for the initiative, and
/// the game is played to its end with the invariants kept after every decision.
#[test]
fn three_or_four_parties_deploy_in_their_corners_roll_initiative_and_play_to_the_end() {
    let corners = [(0, 0), (7000, 0), (7000, 7000), (0, 7000)];
    for players in [3usize, 4] {
        let rules = table_for(players);
        let seed = 5;
        let mut game = Game::start(
            rules.clone(),
            rules.setup(seed),
            RulesetGame::first_frames(),
        )
        .expect("started");
        let mut agents: Vec<gloam::agent::RandomAgent> = (0..players)
            .map(|s| gloam::agent::RandomAgent::new(seed * 31 + s as u64))
            .collect();
        let mut checked = false;
        let mut decisions = 0;
        while !game.is_over() {
            let state = game.state();
            // The first Cycle has begun: everyone is deployed and has rolled.
            if !checked && state.counters.get("cycle").copied().unwrap_or(0) >= 1 {
                checked = true;
                let mut used = Vec::new();
                for seat in 0..players {
                    let player = PlayerId(seat as u8);
                    let placed: Vec<(i64, i64)> = pieces_of(state, player)
                        .into_iter()
                        .filter_map(|id| on_table(state, id))
                        .collect();
                    assert!(
                        placed.len() >= 7,
                        "{players} players: seat {seat} deployed {placed:?}"
                    );
                    let corner = corners
                        .iter()
                        .position(|&(cx, cy)| {
                            // A Ranger's party may set one hero up to 20 cm further
                            // forward (003 L1354): every other hero is in the square.
                            placed
                                .iter()
                                .filter(|&&(x, y)| (x - cx).abs() > 1500 || (y - cy).abs() > 1500)
                                .count()
                                <= 1
                        })
                        .unwrap_or_else(|| {
                            panic!("{players} players: seat {seat} not in a corner's 15 cm square: {placed:?}")
                        });
                    assert!(!used.contains(&corner), "two parties share corner {corner}");
                    used.push(corner);
                }
            }
            let request = game.pending().first().map(|r| (*r).clone()).expect("asked");
            let seat = request.player.0 as usize;
            let answer = agents[seat].choose(&game.view(request.player), &request);
            game.submit(request.player, answer)
                .unwrap_or_else(|e| panic!("{players} players, decision {decisions}: {e}"));
            decisions += 1;
            check_game_invariants(&rules, game.state())
                .unwrap_or_else(|e| panic!("{players} players, after decision {decisions}: {e}"));
            // Once the first initiative is rolled, the order is one place for each party
            // still in the game (003 L2162). A party that takes a place during a Cycle
            // (a Quest won, L2166) leaves its place in that Cycle's order empty until the
            // next initiative: the others keep theirs, distinct.
            let state = game.state();
            if state.counters.get("cycle").copied().unwrap_or(0) >= 1 {
                let mut orders: Vec<i64> = (0..players)
                    .map(|s| PlayerId(s as u8))
                    .filter(|p| player_counter(state, *p, "place") == 0)
                    .map(|p| player_counter(state, p, "turn_order"))
                    .collect();
                orders.sort();
                if orders.iter().all(|o| *o > 0) {
                    let mut distinct = orders.clone();
                    distinct.dedup();
                    assert_eq!(distinct, orders, "{players} players: the initiative order");
                    assert!(
                        orders.iter().all(|o| *o <= players as i64),
                        "{players} players: the initiative order {orders:?}"
                    );
                }
            }
            assert!(
                decisions < gloam::sim::MAX_DECISIONS,
                "{players} players never end"
            );
        }
        assert!(checked, "{players} players: the first Cycle never began");
        let result = game.state().result.clone().expect("a result");
        assert!(!result.reason.is_empty());
    }
}

/// 003 L2166: the first to win takes the first place, his models leave play, and the others
/// play on; a party that flees takes the last place still free (ours); with one party left
/// it takes the remaining place and the game ends, won by the first place.
#[test]
fn the_first_winner_takes_first_place_and_the_others_play_on_for_the_rest() {
    let rules = table_for(3);
    let stand_all = |ctx: &mut gloam::core::Ctx<'_>| {
        for seat in 0..3u8 {
            for (i, id) in pieces_of(ctx.state(), PlayerId(seat))
                .into_iter()
                .enumerate()
            {
                let at = gloam::core::Point::new(1000 + 500 * i as i64, 1000 + 2000 * seat as i64);
                ctx.place_piece(
                    id,
                    Some(Position::Table { at, facing: (0, 1) }),
                    vec![],
                    "deploy",
                )
                .expect("placed");
                ctx.set_tokens(Scope::Piece(id), "action_die", 1)
                    .expect("die");
            }
        }
    };
    // One win: a place, not the end.
    let game = scenario(
        &rules,
        stand_all,
        vec![frame(
            "place",
            &[
                ("player", Value::Player(P0)),
                ("data", Value::Str("reached 3 Triumph Points".into())),
            ],
        )],
    );
    let state = game.state();
    assert_eq!(player_counter(state, P0, "place"), 1);
    assert!(
        pieces_of(state, P0)
            .iter()
            .all(|id| on_table(state, *id).is_none())
    );
    assert!(pieces_of(state, P0).iter().all(|id| {
        state.pieces[id]
            .tokens
            .get("action_die")
            .copied()
            .unwrap_or(0)
            == 0
    }));
    assert!(
        pieces_of(state, P1)
            .iter()
            .all(|id| on_table(state, *id).is_some())
    );
    assert!(state.result.is_none(), "the others play on");

    // Then a party flees: it takes the last place, the one left the second, and the game is
    // won by the first place.
    let game = scenario(
        &rules,
        stand_all,
        vec![
            frame(
                "place",
                &[
                    ("player", Value::Player(P0)),
                    ("data", Value::Str("reached 3 Triumph Points".into())),
                ],
            ),
            frame(
                "place",
                &[
                    ("player", Value::Player(P2)),
                    ("data", Value::Str("fled".into())),
                ],
            ),
        ],
    );
    let state = game.state();
    assert_eq!(player_counter(state, P0, "place"), 1);
    assert_eq!(player_counter(state, P2, "place"), 3);
    assert_eq!(player_counter(state, P1, "place"), 2);
    let result = state.result.clone().expect("the game is over");
    assert_eq!(result.winners, vec![P0]);
}

/// 003 L2168-2170: Beat the Cowards counts heroes felled in every enemy party; a Quest card
/// about one enemy party (Pillage) counts only the party its player named for it.
#[test]
fn beat_the_cowards_counts_every_enemy_party_and_pillage_only_its_named_one() {
    let rules = table_for(3);
    for (named, pillaged) in [(P2, false), (P1, true)] {
        let arrange = move |ctx: &mut gloam::core::Ctx<'_>| {
            for name in ["Beat the Cowards", "Pillage"] {
                let card = card_of(ctx.state(), P0, name);
                ctx.move_card(card, &ZoneId::new(P0, "quests"), 0)
                    .expect("moved");
            }
            let mut felled = 0;
            for seat in [P1, P2] {
                for id in pieces_of(ctx.state(), seat).into_iter().take(2) {
                    ctx.set_tokens(Scope::Piece(id), "death_counter", 1)
                        .expect("token");
                    if seat == P1 {
                        felled += cost(ctx.state(), id);
                    }
                }
            }
            // P1's two fallen heroes are exactly a third of its worth; P2's are a sliver.
            ctx.set_counter(Scope::Player(P0), "start_dc", 100_000)
                .expect("dc");
            ctx.set_counter(Scope::Player(P1), "start_dc", 3 * felled)
                .expect("dc");
            ctx.set_counter(Scope::Player(P2), "start_dc", 100_000)
                .expect("dc");
            ctx.set_counter(Scope::Player(P0), "rival_pillage", named.0 as i64 + 1)
                .expect("rival");
        };
        let game = scenario(
            &rules,
            arrange,
            vec![frame("victory", &[("player", Value::Player(P0))])],
        );
        let state = game.state();
        let revealed = zone_names(state, P0, "quests_revealed");
        assert!(
            revealed.contains(&"Beat the Cowards".to_owned()),
            "four heroes of two parties: {revealed:?}"
        );
        assert_eq!(
            revealed.contains(&"Pillage".to_owned()),
            pillaged,
            "Pillage about seat {}: {revealed:?}",
            named.0
        );
        assert_eq!(
            player_counter(state, P0, "tp"),
            if pillaged { 2 } else { 1 }
        );
        assert!(state.result.is_none());
    }
}

/// Plays `rules` with random answers until a request's prompt contains `prompt`; returns
/// its options.
fn first_offer(rules: &RulesetGame, players: usize, prompt: &str) -> Vec<String> {
    let mut game =
        Game::start(rules.clone(), rules.setup(3), RulesetGame::first_frames()).expect("started");
    let mut agents: Vec<gloam::agent::RandomAgent> = (0..players)
        .map(|s| gloam::agent::RandomAgent::new(s as u64 + 1))
        .collect();
    for _ in 0..1000 {
        let request = scenario::request(&game);
        if request.prompt.contains(prompt) {
            return scenario::options(&request);
        }
        let answer = agents[request.player.0 as usize].choose(&game.view(request.player), &request);
        game.submit(request.player, answer).expect("a legal answer");
    }
    panic!("never asked `{prompt}`");
}

/// A two-player match keeps the two strips (003 L2104-2106); three or four players choose
/// among the four corners (L2158); a map named for a match with more seats than it has
/// territories is refused with the reason.
#[test]
fn the_deployment_map_follows_the_number_of_players() {
    let mut strips = first_offer(&table_for(2), 2, "side of the table");
    strips.sort();
    assert_eq!(strips, ["North", "South"]);
    let mut corners = first_offer(&table_for(4), 4, "corner of the table");
    corners.sort();
    assert_eq!(
        corners,
        ["North-east", "North-west", "South-east", "South-west"]
    );
    let choice = MatchChoice {
        parties: vec![
            "The Lantern Wardens".into(),
            "The Ashen Court".into(),
            "The Lantern Wardens".into(),
        ],
        map: Some("Strips".into()),
        ..MatchChoice::default()
    };
    let Err(refused) = prepare_match(&[cards_dir()], "umbra_turris", 3, &choice) else {
        panic!("two strips cannot seat three");
    };
    assert!(refused.contains("2 territories for 3 seats"), "{refused}");
}

/// When the Cycles run out (`cycle_cap`, ours: the seed sets no length, digest D1.37), a
/// first place already taken stands (003 L2166); otherwise the party that lost the least of
/// its worth wins (ours, as "more of the enemy's worth eliminated" with two players).
#[test]
fn when_the_cycles_run_out_the_party_that_lost_least_wins_unless_a_first_place_is_taken() {
    let rules = table_for(3);
    for first_place in [None, Some(P2)] {
        let arrange = move |ctx: &mut gloam::core::Ctx<'_>| {
            for (seat, fallen) in [(P0, 2), (P1, 1), (P2, 3)] {
                for id in pieces_of(ctx.state(), seat).into_iter().take(fallen) {
                    ctx.set_tokens(Scope::Piece(id), "death_counter", 1)
                        .expect("token");
                }
            }
            if let Some(seat) = first_place {
                ctx.set_counter(Scope::Player(seat), "place", 1)
                    .expect("place");
            }
        };
        let game = scenario(
            &rules,
            arrange,
            vec![frame("time_up", &[("player", Value::Player(P0))])],
        );
        let state = game.state();
        let lost: Vec<i64> = [P0, P1, P2]
            .iter()
            .map(|seat| {
                pieces_of(state, *seat)
                    .into_iter()
                    .filter(|id| state.pieces[id].tokens.contains_key("death_counter"))
                    .map(|id| cost(state, id))
                    .sum()
            })
            .collect();
        let least = *lost.iter().min().expect("three seats");
        assert_eq!(lost.iter().filter(|l| **l == least).count(), 1, "{lost:?}");
        let fewest = PlayerId(lost.iter().position(|l| *l == least).expect("least") as u8);
        let result = state.result.clone().expect("over");
        assert_eq!(
            result.winners,
            vec![first_place.unwrap_or(fewest)],
            "{lost:?}: {}",
            result.reason
        );
    }
}
