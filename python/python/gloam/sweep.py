"""Parameter sweeps: card variants x seeds x agents, run on a Dask cluster or in this process.

A sweep is a list of tasks, one game each, numbered in a fixed order (variant, then agents,
then seed). Each task is played by :func:`gloam.play`, whose result depends only on the
task (ruleset, data, seed, agents), and the results are put back in task order: the same
sweep gives the same results whatever the cluster, the number of workers or the order in
which they finish.

    from dask.distributed import Client
    from gloam import sweep

    variants = {
        "shipped": {},
        "short": sweep.replace("cards/harrowdeep/harrowdeep.gloam", "round() >= 3", "round() >= 2"),
    }
    tasks = sweep.tasks("harrowdeep", variants, seeds=range(100), agents=[["random"], ["random", "greedy"]])
    with Client("tcp://scheduler:8786") as client:      # or Client(LocalCluster(...)), or client=None
        results = sweep.run(tasks, client)
    print(sweep.summarize(results))

From the command line: ``python -m gloam.sweep --help``. See ``docs/python.md`` for running
it on a real cluster.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import gloam

__all__ = ["Task", "replace", "tasks", "run", "run_task", "summarize", "main"]


@dataclass(frozen=True)
class Task:
    """One game of a sweep."""

    index: int
    ruleset: str
    variant: str
    seed: int
    agents: tuple
    players: int = 2
    sources: dict = field(default_factory=dict)


def replace(file: str, old: str, new: str, base: dict[str, str] | None = None) -> dict[str, str]:
    """A variant: the shipped data file ``file`` (or ``base[file]``) with every ``old``
    replaced by ``new``, as ``sources`` for :func:`gloam.play`. Raises ``ValueError`` when
    ``old`` is not in the file, so a typo cannot make a variant that changes nothing."""
    files = base if base is not None else gloam.shipped_data()
    if file not in files:
        raise ValueError(f"no data file named `{file}`; files: {', '.join(sorted(files))}")
    text = files[file]
    if old not in text:
        raise ValueError(f"`{old}` does not occur in `{file}`: the variant would change nothing")
    return {file: text.replace(old, new)}


def tasks(
    ruleset: str,
    variants: dict[str, dict[str, str]],
    seeds: Iterable[int],
    agents: Sequence[Sequence[str]] = (("random",),),
    players: int = 2,
) -> list[Task]:
    """The tasks of a sweep, in order: for each variant (in the dict's order), each agent
    line-up, each seed."""
    seeds = list(seeds)
    out = []
    for variant, sources in variants.items():
        for lineup in agents:
            for seed in seeds:
                out.append(
                    Task(len(out), ruleset, variant, seed, tuple(lineup), players, dict(sources))
                )
    return out


def run_task(task: Task) -> dict[str, Any]:
    """Plays one task's game and returns its summary, with the task's parameters (not its
    source texts)."""
    summary = gloam.play(
        task.ruleset,
        seed=task.seed,
        agents=list(task.agents),
        players=task.players,
        sources=task.sources or None,
    )
    summary.update(
        index=task.index,
        ruleset=task.ruleset,
        variant=task.variant,
        agents=list(task.agents),
    )
    return summary


def run(task_list: Sequence[Task], client: Any = None, batch: int = 8) -> list[dict[str, Any]]:
    """Runs the tasks, on ``client`` (a ``dask.distributed.Client``) or here when it is
    ``None``, and returns the results in task order. ``batch`` tasks go to a worker at a
    time (fewer round trips for short games)."""
    if client is None:
        results = [run_task(task) for task in task_list]
    else:
        chunks = [list(task_list[i : i + batch]) for i in range(0, len(task_list), batch)]
        futures = client.map(_run_chunk, chunks, pure=False)
        results = [result for chunk in client.gather(futures) for result in chunk]
    results.sort(key=lambda r: r["index"])
    if [r["index"] for r in results] != [t.index for t in task_list]:
        raise RuntimeError("a sweep lost or repeated a task")
    return results


def _run_chunk(chunk: list[Task]) -> list[dict[str, Any]]:
    return [run_task(task) for task in chunk]


def summarize(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One line per (variant, agents): games, wins by seat, draws, errors, average glory by
    seat and average decisions, in the order the groups first appear."""
    groups: dict[tuple, dict[str, Any]] = {}
    for result in results:
        key = (result["variant"], tuple(result["agents"]))
        seats = len(result["warbands"])
        group = groups.setdefault(
            key,
            {
                "variant": result["variant"],
                "agents": list(result["agents"]),
                "games": 0,
                "wins": [0] * seats,
                "draws": 0,
                "errors": 0,
                "glory": [0] * seats,
                "decisions": 0,
            },
        )
        group["games"] += 1
        if result["error"] is not None:
            group["errors"] += 1
            continue
        winners = result["winners"]
        if len(winners) == seats:
            group["draws"] += 1
        else:
            for seat in winners:
                group["wins"][seat] += 1
        for seat, glory in enumerate(result["glory"]):
            group["glory"][seat] += glory
        group["decisions"] += result["decisions"]
    out = []
    for group in groups.values():
        played = max(group["games"] - group["errors"], 1)
        group["average_glory"] = [g / played for g in group.pop("glory")]
        group["average_decisions"] = group.pop("decisions") / played
        out.append(group)
    return out


def _parse_seeds(text: str) -> range:
    start, _, end = text.partition(":")
    return range(int(start), int(end)) if end else range(int(start), int(start) + 1)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gloam.sweep``: runs a sweep and prints its results as JSON."""
    parser = argparse.ArgumentParser(prog="python -m gloam.sweep", description=main.__doc__)
    parser.add_argument("ruleset")
    parser.add_argument("--seeds", default="0:10", help="START:END (END excluded); default 0:10")
    parser.add_argument(
        "--agents",
        action="append",
        help="an agent line-up, seats in order, e.g. random,greedy (repeatable; default random)",
    )
    parser.add_argument(
        "--variants",
        help='a JSON file {"NAME": [{"file": F, "old": O, "new": N}, ...]}; '
        "the shipped rules are always the variant `shipped`",
    )
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--scheduler", help="a Dask scheduler address (tcp://HOST:8786)")
    parser.add_argument(
        "--local-workers", type=int, default=0, help="start a local Dask cluster of N processes"
    )
    parser.add_argument("--games", action="store_true", help="print every game, not only the summary")
    args = parser.parse_args(argv)

    variants: dict[str, dict[str, str]] = {"shipped": {}}
    if args.variants:
        with open(args.variants, encoding="utf-8") as handle:
            spec = json.load(handle)
        for name, changes in spec.items():
            files: dict[str, str] = {}
            for change in changes:
                base = dict(gloam.shipped_data(), **files)
                files.update(replace(change["file"], change["old"], change["new"], base))
            variants[name] = files
    lineups = [a.split(",") for a in (args.agents or ["random"])]
    task_list = tasks(args.ruleset, variants, _parse_seeds(args.seeds), lineups, args.players)

    client = None
    cluster = None
    if args.scheduler or args.local_workers:
        from dask.distributed import Client, LocalCluster

        if args.scheduler:
            client = Client(args.scheduler)
        else:
            cluster = LocalCluster(
                n_workers=args.local_workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",
            )
            client = Client(cluster)
    try:
        results = run(task_list, client)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    out: dict[str, Any] = {"summary": summarize(results)}
    if args.games:
        out["games"] = results
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
