"""PettingZoo AEC environments of gloam's rulesets: ``gloam.pettingzoo.env("harrowdeep")``.

Agents are ``player_0`` ... ``player_{n-1}`` (the seats). The agent to act is the seat of the
first pending request; when the rules ask several players at once, they answer one after
the other, which the AEC API does naturally.

Actions. The action space is ``Discrete(max_options)`` (default 128). For a request of shape
``one``, action ``i`` is option ``i``. For ``several`` and ``order`` requests, action ``i`` is
the ``i``-th legal answer in enumeration order (``itertools.combinations`` by size from
``min`` to ``max``, or ``itertools.permutations``). The ``action_mask`` marks the legal
actions; when a request offers more than ``max_options`` answers only the first
``max_options`` are offered (the shipped rulesets never come near: the most options one of
their requests offered in our probes was 67; ``tests/test_pettingzoo.py`` checks this stays
under the cap). An action the mask forbids raises ``gloam.IllegalAnswer`` and changes nothing.

Observations. Each observation is ``{"observation": float32[N], "action_mask": int8[A]}``,
where ``N`` is fixed for an environment (``observation_size(players, piece_slots, buckets)``)
and built from the acting player's view only (what that player may see), in this order:

1. seats (``2 * players``): one-hot of the observing seat, one-hot of the seat to act;
2. game counters (``buckets``): each counter's value added into bucket ``hash(name)``;
3. per player, starting with the observer and going round the table (``players * 2 *
   buckets``): the player's counters and tokens (as ``counter:NAME`` / ``token:NAME``), then
   the sizes of their zones (``zone:NAME``), each hashed into ``buckets``;
4. per piece slot (``piece_slots * (6 + buckets)``, pieces in id order, the first
   ``piece_slots``): exists, owned by the observer, on the battlefield, ``q``, ``r`` (or
   ``x``, ``y`` on a table), is a marker (a non-default layer); then its characteristics,
   counters, tokens and keywords (``char:``, ``counter:``, ``token:``, ``keyword:`` names,
   keywords counting 1), hashed;
5. the observer's cards (``2 * buckets``): each card the observer may see in a zone it owns,
   by ``zone/card name``, hashed (a count per bucket);
6. the observer's request (``6 + 2 * buckets``): has one, number of options / max_options,
   shape one-hot (one, several, order, point); the request's name hashed (one-hot); the
   options' types and values hashed (a count per bucket).

``hash`` is 32-bit FNV-1a of the UTF-8 name, modulo ``buckets`` (default 16): stable across
runs and machines, so a trained policy keeps its meaning. Values are the game's integers,
unscaled.

Rewards: 0 until the game ends; then +1 for each winner and -1 for each other seat, and 0
for all on a draw (every seat among the winners). A game that takes more than
``max_decisions`` decisions is truncated.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import gloam

__all__ = ["GloamEnv", "env", "observation_size", "fnv1a"]

SHAPES = ("one", "several", "order", "point")


def fnv1a(text: str) -> int:
    """32-bit FNV-1a of ``text`` (UTF-8): the observation's feature hash."""
    value = 0x811C9DC5
    for byte in text.encode("utf-8"):
        value ^= byte
        value = (value * 0x01000193) & 0xFFFFFFFF
    return value


def observation_size(players: int, piece_slots: int, buckets: int) -> int:
    """The length of the observation vector for these settings."""
    return (
        2 * players
        + buckets
        + players * 2 * buckets
        + piece_slots * (6 + buckets)
        + 2 * buckets
        + 6
        + 2 * buckets
    )


def env(ruleset: str = "harrowdeep", **kwargs: Any) -> "GloamEnv":
    """An AEC environment of ``ruleset``; keyword arguments as :class:`GloamEnv`."""
    return GloamEnv(ruleset, **kwargs)


class GloamEnv(AECEnv):
    """A gloam game as a PettingZoo AEC environment (see the module documentation)."""

    metadata = {"render_modes": ["ansi"], "name": "gloam_v0", "is_parallelizable": False}

    def __init__(
        self,
        ruleset: str = "harrowdeep",
        *,
        players: int = 2,
        data: list | None = None,
        sources: dict[str, str] | None = None,
        seed: int = 0,
        max_options: int = 128,
        piece_slots: int = 32,
        buckets: int = 16,
        max_decisions: int = 20_000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.ruleset = ruleset
        self.players = players
        self.data = data
        self.sources = sources
        self.max_options = max_options
        self.piece_slots = piece_slots
        self.buckets = buckets
        self.max_decisions = max_decisions
        self.render_mode = render_mode
        self._next_seed = seed
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {name: i for i, name in enumerate(self.possible_agents)}
        size = observation_size(players, piece_slots, buckets)
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=-(2.0**31), high=2.0**31, shape=(size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(max_options,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(max_options) for agent in self.possible_agents}
        self.game: gloam.Game | None = None

    # -- spaces --------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # -- the game ------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Starts a new game: with ``seed``, or the seed after the previous game's."""
        if seed is None:
            seed = self._next_seed
        self._next_seed = seed + 1
        self.game = gloam.Game(
            self.ruleset, seed=seed, data=self.data, players=self.players, sources=self.sources
        )
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.decisions = 0
        self._last_events: list = []
        self._select()

    def _select(self) -> None:
        pending = self.game.pending()
        if pending:
            self.agent_selection = self.possible_agents[pending[0].player]
            for agent in self.agents:
                self.infos[agent] = {}
            self.infos[self.agent_selection] = {
                "request": pending[0].name,
                "prompt": pending[0].prompt,
            }
        else:
            # The game is over: every agent still present takes its final (None) step.
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]

    def _answers(self, request: gloam.Request) -> list:
        """The legal answers to ``request``, in action order, at most ``max_options``."""
        count = len(request.options)
        if request.kind == "one":
            return list(range(min(count, self.max_options)))
        if request.kind == "several":
            combos = itertools.chain.from_iterable(
                itertools.combinations(range(count), size)
                for size in range(request.min, min(request.max, count) + 1)
            )
            return [list(c) for c in itertools.islice(combos, self.max_options)]
        if request.kind == "order":
            perms = itertools.permutations(range(count))
            return [list(p) for p in itertools.islice(perms, self.max_options)]
        # A point request lists its points as options: answer with the point.
        return [{"point": [o["value"]["x"], o["value"]["y"]]} for o in request.options][
            : self.max_options
        ]

    def _request_of(self, agent: str) -> gloam.Request | None:
        player = self.agent_name_mapping[agent]
        for request in self.game.pending():
            if request.player == player:
                return request
        return None

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        request = self._request_of(agent)
        answers = self._answers(request)
        if action is None or not 0 <= int(action) < len(answers):
            raise gloam.IllegalAnswer(
                f"action {action} is not legal for {agent}: the mask allows 0 to {len(answers) - 1}"
            )
        self._cumulative_rewards[agent] = 0
        self._last_events = self.game.answer(request.player, answers[int(action)])
        self.decisions += 1
        if self.game.is_over():
            winners = set(self.game.result()["winners"])
            draw = len(winners) == len(self.possible_agents)
            for name, seat in self.agent_name_mapping.items():
                self.rewards[name] = 0 if draw else (1 if seat in winners else -1)
                self.terminations[name] = True
            self._accumulate_rewards()
            self._select_dead()
        elif self.decisions >= self.max_decisions:
            for name in self.agents:
                self.truncations[name] = True
            self._select_dead()
        else:
            for name in self.agents:
                self.rewards[name] = 0
            self._select()
        if self.render_mode == "ansi":
            print(self.render())

    def _select_dead(self) -> None:
        if self.agents:
            self.agent_selection = self.agents[0]

    # -- observations --------------------------------------------------------------------

    def _hash_into(self, out: np.ndarray, start: int, name: str, value: float) -> None:
        out[start + fnv1a(name) % self.buckets] += value

    def observe(self, agent: str) -> dict:
        player = self.agent_name_mapping[agent]
        game = self.game
        view = game.view(player)
        b = self.buckets
        n = self.players
        out = np.zeros(observation_size(n, self.piece_slots, b), dtype=np.float32)
        at = 0
        # 1. seats
        out[at + player] = 1
        pending = game.pending()
        if pending:
            out[at + n + pending[0].player] = 1
        at += 2 * n
        # 2. game counters
        for name, value in view["counters"].items():
            self._hash_into(out, at, name, value)
        at += b
        # 3. players, from the observer round the table
        zone_sizes: dict[int, list] = {}
        for zone, seen in view["zones"].items():
            owner, _, name = zone.partition(":")
            zone_sizes.setdefault(int(owner), []).append((name, seen["size"]))
        for offset in range(n):
            seat = (player + offset) % n
            if seat < len(view["players"]):
                seen_player = view["players"][seat]
                for name, value in seen_player["counters"].items():
                    self._hash_into(out, at, "counter:" + name, value)
                for name, value in seen_player["tokens"].items():
                    self._hash_into(out, at, "token:" + name, value)
                for name, size in zone_sizes.get(seat, []):
                    self._hash_into(out, at + b, "zone:" + name, size)
            at += 2 * b
        # 4. pieces
        pieces = sorted(view["pieces"].values(), key=lambda p: p["id"])[: self.piece_slots]
        for slot, piece in enumerate(pieces):
            base = at + slot * (6 + b)
            out[base] = 1
            out[base + 1] = 1 if piece["owner"] == player else 0
            position = piece["position"]
            if position is not None:
                out[base + 2] = 1
                if "hex" in position:
                    out[base + 3] = position["hex"]["q"]
                    out[base + 4] = position["hex"]["r"]
                else:
                    out[base + 3] = position["table"]["at"]["x"]
                    out[base + 4] = position["table"]["at"]["y"]
            out[base + 5] = 1 if piece.get("layer") else 0
            for kind in ("characteristics", "counters", "tokens"):
                prefix = {"characteristics": "char:", "counters": "counter:", "tokens": "token:"}[kind]
                for name, value in piece[kind].items():
                    self._hash_into(out, base + 6, prefix + name, value)
            for keyword in piece["keywords"]:
                self._hash_into(out, base + 6, "keyword:" + keyword, 1)
        at += self.piece_slots * (6 + b)
        # 5. the observer's own visible cards
        cards = view["cards"]
        for zone, seen in view["zones"].items():
            owner, _, name = zone.partition(":")
            if int(owner) != player or not seen["cards"]:
                continue
            for card in seen["cards"]:
                card_name = cards.get(str(card), {}).get("name", "")
                self._hash_into(out, at, f"{name}/{card_name}", 1)
        at += 2 * b
        # 6. the observer's request
        mask = np.zeros(self.max_options, dtype=np.int8)
        request = self._request_of(agent) if not self.game.is_over() else None
        if request is not None:
            answers = self._answers(request)
            mask[: len(answers)] = 1
            out[at] = 1
            out[at + 1] = len(request.options) / self.max_options
            out[at + 2 + SHAPES.index(request.kind)] = 1
            out[at + 6 + fnv1a(request.name) % b] = 1
            for option in request.options:
                text = f"{option['type']}:{option.get('value', '')}"
                self._hash_into(out, at + 6 + b, text, 1)
        at += 6 + 2 * b
        assert at == len(out)
        return {"observation": out, "action_mask": mask}

    # -- the rest of the API -------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        lines = [repr(self.game)]
        for request in self.game.pending():
            lines.append(f"  player {request.player}: {request.prompt}")
        if self.game.is_over():
            lines.append(f"  result: {self.game.result()}")
        return "\n".join(lines)

    def close(self) -> None:
        self.game = None
