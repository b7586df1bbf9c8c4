"""Sweeps on a local Dask cluster of several worker processes on loopback: the results are
gathered by task index and equal a run in this process, whatever the workers."""

import json
import os

import pytest
from dask.distributed import Client, LocalCluster

import gloam
from gloam import sweep

FLOW = "cards/harrowdeep/harrowdeep.gloam"


def sweep_tasks():
    variants = {
        "shipped": {},
        # The game ends after round 1 instead of round 3.
        "one_round": sweep.replace(FLOW, "round() >= 3", "round() >= 1"),
    }
    return sweep.tasks(
        "harrowdeep", variants, seeds=[0, 1, 2], agents=[["random"], ["greedy", "random"]]
    )


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(
        n_workers=3,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
    )
    with Client(cluster) as client:
        yield client
    cluster.close()


def test_tasks_are_numbered_variant_then_agents_then_seed():
    task_list = sweep_tasks()
    assert [t.index for t in task_list] == list(range(12))
    assert [(t.variant, t.agents, t.seed) for t in task_list[:4]] == [
        ("shipped", ("random",), 0),
        ("shipped", ("random",), 1),
        ("shipped", ("random",), 2),
        ("shipped", ("greedy", "random"), 0),
    ]


def test_a_sweep_on_a_cluster_equals_one_in_this_process(client):
    task_list = sweep_tasks()
    workers = client.scheduler_info()["workers"]
    assert len(workers) == 3
    assert all(address.startswith("tcp://127.0.0.1:") for address in workers)
    pids = set(client.run(os.getpid).values())
    assert len(pids) == 3 and os.getpid() not in pids

    here = sweep.run(task_list, client=None)
    there = sweep.run(task_list, client=client, batch=1)
    assert json.dumps(there) == json.dumps(here)
    assert all(r["error"] is None for r in here)
    # Different batching spreads the tasks differently; the results stay the same.
    assert json.dumps(sweep.run(task_list, client=client, batch=5)) == json.dumps(here)


def test_the_work_is_spread_over_several_workers(client):
    task_list = sweep_tasks()
    futures = client.map(sweep.run_task, task_list, pure=False)
    client.gather(futures)
    where = client.who_has(futures)
    assert len({address for holders in where.values() for address in holders}) >= 2


def test_variants_change_the_games():
    results = sweep.run(sweep_tasks())
    lines = {(s["variant"], tuple(s["agents"])): s for s in sweep.summarize(results)}
    assert len(lines) == 4
    for agents in [("random",), ("greedy", "random")]:
        full = lines[("shipped", agents)]
        short = lines[("one_round", agents)]
        assert full["games"] == short["games"] == 3
        assert short["average_decisions"] < full["average_decisions"]


def test_a_variant_that_changes_nothing_is_refused():
    with pytest.raises(ValueError, match="would change nothing"):
        sweep.replace(FLOW, "no such text", "x")
    with pytest.raises(ValueError, match="no data file named"):
        sweep.replace("cards/nowhere.gloam", "a", "b")


def test_the_command_line_runs_a_sweep_on_a_local_cluster(tmp_path, capsys):
    variants = tmp_path / "variants.json"
    variants.write_text(
        json.dumps({"one_round": [{"file": FLOW, "old": "round() >= 3", "new": "round() >= 1"}]})
    )
    args = ["harrowdeep", "--seeds", "0:2", "--variants", str(variants)]
    assert sweep.main(args + ["--local-workers", "2"]) == 0
    on_cluster = json.loads(capsys.readouterr().out)
    assert sweep.main(args) == 0
    here = json.loads(capsys.readouterr().out)
    assert on_cluster == here
    assert [line["variant"] for line in here["summary"]] == ["shipped", "one_round"]
