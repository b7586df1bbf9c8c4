"""The PettingZoo AEC environment: PettingZoo's own API test on every shipped ruleset, the
action mask, the fixed observation size, rewards, and determinism."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import gloam
from gloam.pettingzoo import env, fnv1a, observation_size

SHIPPED = ["harrowdeep", "shadespire", "shadespire_artefact", "shadespire_matched", "embergard"]


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_pettingzoo_api_test_passes(ruleset):
    api_test(env(ruleset), num_cycles=300)


def play(environment, seed, policy_seed):
    """Plays one game with masked random actions; returns the final rewards, the decisions
    and the largest number of legal actions seen."""
    rng = np.random.default_rng(policy_seed)
    environment.reset(seed=seed)
    totals = {agent: 0 for agent in environment.possible_agents}
    widest = 0
    size = observation_size(environment.players, environment.piece_slots, environment.buckets)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        assert observation["observation"].shape == (size,)
        assert observation["observation"].dtype == np.float32
        if terminated or truncated:
            environment.step(None)
            continue
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        assert len(legal) > 0
        widest = max(widest, len(legal))
        environment.step(int(rng.choice(legal)))
    return totals, environment.decisions, widest


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_whole_games_end_with_a_zero_sum_result_and_no_request_near_the_cap(ruleset):
    environment = env(ruleset)
    for seed in range(2):
        totals, decisions, widest = play(environment, seed, seed)
        assert decisions > 10
        assert sorted(totals.values()) in ([-1, 1], [0, 0])
        # The documented cap: no shipped request comes near max_options.
        assert widest < environment.max_options // 2


def test_the_mask_matches_the_legal_actions_and_illegal_actions_change_nothing():
    environment = env("harrowdeep")
    environment.reset(seed=3)
    agent = environment.agent_selection
    seat = environment.agent_name_mapping[agent]
    observation = environment.observe(agent)
    legal = environment.game.legal_actions(seat)
    assert list(np.flatnonzero(observation["action_mask"])) == legal
    other = [a for a in environment.possible_agents if a != agent][0]
    assert not environment.observe(other)["action_mask"].any()
    before = environment.game.record()
    with pytest.raises(gloam.IllegalAnswer):
        environment.step(len(legal))
    assert environment.game.record() == before
    assert environment.agent_selection == agent


def test_same_seed_same_game():
    first = env("embergard")
    second = env("embergard")
    assert play(first, 5, 1) == play(second, 5, 1)
    assert first.game.events() == second.game.events()


def test_observations_see_only_what_the_player_may_see():
    environment = env("harrowdeep")
    environment.reset(seed=2)
    for _ in range(30):
        environment.step(0)
    # The cards segment counts the cards of the observer's own zones that it may see, and
    # nothing of the other player's hand.
    b = environment.buckets
    n = environment.players
    at = 2 * n + b + n * 2 * b + environment.piece_slots * (6 + b)
    for agent in environment.possible_agents:
        seat = environment.agent_name_mapping[agent]
        view = environment.game.view(seat)
        own = sum(
            len(z["cards"] or [])
            for name, z in view["zones"].items()
            if int(name.split(":")[0]) == seat
        )
        cards = environment.observe(agent)["observation"][at : at + 2 * b]
        assert cards.sum() == own


def test_the_feature_hash_is_fnv1a():
    # Published FNV-1a 32-bit test vectors.
    assert fnv1a("") == 0x811C9DC5
    assert fnv1a("a") == 0xE40C292C
    assert fnv1a("foobar") == 0xBF9CF968


def test_four_players():
    environment = env("harrowdeep", players=4)
    api_test(environment, num_cycles=100)
    totals, decisions, _ = play(environment, 1, 1)
    assert len(environment.possible_agents) == 4 and decisions > 10
    values = sorted(totals.values())
    # +1 for each winner and -1 for the others; 0 for all on a draw.
    assert values == [0, 0, 0, 0] or (set(values) == {-1, 1}), values
    winners = set(environment.game.result()["winners"])
    for agent, total in totals.items():
        if values != [0, 0, 0, 0]:
            assert (total == 1) == (environment.agent_name_mapping[agent] in winners)
