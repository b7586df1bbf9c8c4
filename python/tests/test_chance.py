"""Chance nodes (the kernel's chance mode): the outcomes of the next roll with exact
probabilities, as OpenSpiel's chance_outcomes, and applying one."""

import json
from fractions import Fraction

import pytest

import gloam


def to_first_chance_node(ruleset="harrowdeep", seed=1, limit=2000):
    game = gloam.Game(ruleset, seed=seed)
    game.set_chance_mode(True)
    assert game.chance_mode
    for step in range(limit):
        if game.is_chance_node():
            return game
        assert not game.is_over()
        request = game.pending()[0]
        game.answer(request.player, game.random_answer(request.player, step))
    raise AssertionError("no roll in the first decisions")


def test_a_chance_node_lists_exact_outcomes_summing_to_one():
    game = to_first_chance_node()
    assert game.pending() == []  # nobody decides while the dice wait
    pending = game.chance_pending()
    assert pending["purpose"] and pending["pool"]
    exact = game.chance_outcomes(exact=True)
    assert exact and sum(p for _, p in exact) == 1
    floats = game.chance_outcomes()
    assert [o for o, _ in floats] == [o for o, _ in exact]
    assert sum(p for _, p in floats) == pytest.approx(1.0)
    assert len({json.dumps(o) for o, _ in exact}) == len(exact)


def test_the_roll_off_odds_follow_the_data():
    # cards/harrowdeep/harrowdeep.gloam:409-411: the attack die has 6 faces, critical 1,
    # smash 2, fury 1, single_support 1, double_support 1; the placement roll-off (line
    # 830) rolls 4 of them.
    game = to_first_chance_node()
    assert game.chance_pending()["pool"] == [{"count": 4, "die": "attack"}]
    odds = {json.dumps(o, sort_keys=True): p for o, p in game.chance_outcomes(exact=True)}
    four_criticals = [{"count": 4, "die": "attack", "face": "critical"}]
    assert odds[json.dumps(four_criticals, sort_keys=True)] == Fraction(1, 6**4)
    two_and_two = [
        {"count": 2, "die": "attack", "face": "critical"},
        {"count": 2, "die": "attack", "face": "smash"},
    ]
    # 4!/(2!2!) orders of two criticals (1/6 each) and two smashes (2/6 each).
    assert odds[json.dumps(two_and_two, sort_keys=True)] == 6 * Fraction(1, 6) ** 2 * Fraction(2, 6) ** 2
    # Outcomes pool dice by face: as many as multisets of 4 dice over 5 faces.
    assert len(odds) == 70


def test_applying_each_outcome_on_a_clone_rolls_those_faces():
    game = to_first_chance_node()
    outcomes = game.chance_outcomes()
    before = len(game.events())
    for index, (outcome, _) in enumerate(outcomes):
        branch = game.clone()
        branch.apply_chance(index)
        # The roll-off's step rolls again for the other player: the step's events are
        # recorded once every roll in it has its outcome.
        while branch.is_chance_node():
            branch.apply_chance(0)
        rolled = [e for e in branch.events()[before:] if e["event"] == "rolled"]
        assert rolled
        faces = sorted(d["face"] for d in rolled[0]["dice"])
        expected = sorted(line["face"] for line in outcome for _ in range(line["count"]))
        assert faces == expected
        assert branch.pending() or branch.is_chance_node() or branch.is_over()
    # The original still waits at its node.
    assert game.is_chance_node() and game.chance_outcomes() == outcomes
    # An outcome given as it is listed works as its index does.
    by_value = game.clone()
    by_value.apply_chance(outcomes[0][0])
    by_index = game.clone()
    by_index.apply_chance(0)
    assert by_value.events() == by_index.events()


def test_a_bad_outcome_raises_and_changes_nothing():
    game = to_first_chance_node()
    before = json.dumps(game.events())
    outcomes = game.chance_outcomes()
    with pytest.raises(gloam.IllegalAnswer):
        game.apply_chance(len(outcomes))
    with pytest.raises(gloam.IllegalAnswer):
        game.apply_chance([{"die": "attack", "face": "no_such_face", "count": 1}])
    assert json.dumps(game.events()) == before and game.chance_outcomes() == outcomes
    plain = gloam.Game("harrowdeep", seed=1)
    with pytest.raises(gloam.IllegalAnswer, match="no roll waits"):
        plain.apply_chance(0)
    assert plain.chance_outcomes() == []


def test_a_game_with_applied_chance_refuses_a_record_that_would_not_replay_it():
    game = to_first_chance_node()
    game.record()  # nothing applied yet: fine
    game.apply_chance(0)
    with pytest.raises(ValueError, match="would not replay"):
        game.record()
    assert game.clone().events() == game.events()


def test_a_whole_game_plays_through_chance_nodes():
    game = to_first_chance_node(ruleset="embergard", seed=3)
    step = 0
    while not game.is_over() and step < 20_000:
        if game.is_chance_node():
            outcomes = game.chance_outcomes()
            game.apply_chance(step % len(outcomes))
        else:
            request = game.pending()[0]
            game.answer(request.player, game.random_answer(request.player, step))
        step += 1
    assert game.is_over() and game.result()["winners"]
