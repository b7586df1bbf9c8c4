"""Decisions per second through Python.

    python python/bench/decisions.py [--ruleset harrowdeep] [--games 20]

Plays whole games of random play three ways and prints decisions per second of CPU time
(process time, so other load on the machine does not count) and of wall time:

- ``python loop``: the loop in Python, one call per step: ``pending()``, the request's
  ``.player``, ``random_answer()`` (gloam's random agent, in Rust) and ``answer()``, which
  returns the events that followed as dicts; this is what a Python bot pays per decision.
- ``python loop + view``: the same plus ``view(player)`` before each answer (a bot that
  looks at the game).
- ``gloam.play``: the whole game in Rust, called once from Python (what ``gloam.sweep``
  runs), for comparison with ``gloam sim``.
"""

import argparse
import json
import time

import gloam


def python_loop(ruleset, seeds, with_view):
    decisions = 0
    for seed in seeds:
        game = gloam.Game(ruleset, seed=seed)
        while not game.is_over():
            request = game.pending()[0]
            if with_view:
                game.view(request.player)
            game.answer(request.player, game.random_answer(request.player, decisions))
            decisions += 1
    return decisions


def in_rust(ruleset, seeds):
    return sum(gloam.play(ruleset, seed=seed)["decisions"] for seed in seeds)


def measure(run):
    wall, cpu = time.perf_counter(), time.process_time()
    decisions = run()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"decisions": decisions, "cpu_s": round(cpu, 3), "wall_s": round(wall, 3),
            "per_cpu_s": round(decisions / cpu), "per_wall_s": round(decisions / wall)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--ruleset", default="harrowdeep")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    gloam.play(args.ruleset, seed=0)  # load the rules once, outside the measurement
    results = {
        "python loop": measure(lambda: python_loop(args.ruleset, seeds, False)),
        "python loop + view": measure(lambda: python_loop(args.ruleset, seeds, True)),
        "gloam.play": measure(lambda: in_rust(args.ruleset, seeds)),
    }
    print(json.dumps({"ruleset": args.ruleset, "games": args.games, **results}, indent=2))


if __name__ == "__main__":
    main()
