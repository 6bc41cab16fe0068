"""Cluster runs (simcore.cluster on a dask.distributed LocalCluster) and resumed runs.

Game i's rows must be the same wherever the chunk holding it was played, and a run resumed on
the file of an interrupted one must end as the file of an uninterrupted run, row for row."""
import json
import logging
import os
import time
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from simcore import cluster, results, runner
from simcore.contract import UserError
from cli_tool import ROOT, assert_one_error_line, simcore

GAME, PLAYERS, GAMES, CHUNK = "strasbourg", 3, 2000, 200
POLICIES = ["greedy", "random", "random"]


def make_plan(**changes):
    p = runner.plan(GAME, players=PLAYERS, games=GAMES, seed=41, policies=POLICIES, rotate_seats=True,
                    workers=2, chunk_size=CHUNK)
    return replace(p, **changes)


@pytest.fixture(scope="module")
def reference():
    """Every row of the plan, played by the local runner."""
    return runner.run(make_plan(), keep_rows=True).frame


@pytest.fixture(scope="module")
def client():
    """A 2-worker LocalCluster. The kernels are loaded in this process first, so the numba cache
    is written (or found) before two workers want it at the same time."""
    from distributed import Client, LocalCluster

    runner.warm_up(make_plan())
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR) as local, Client(local, set_as_default=False) as c:
        yield c


def cluster_run(client, p, **kwargs):
    return runner.run(p, player=cluster.ClusterPlayer(client, "test"), **kwargs)


def chunks_computed(dask_scheduler) -> dict:
    """How often each chunk task of the cluster's life went to memory (from the scheduler's log)."""
    done = {}
    for t in dask_scheduler.transition_log:
        if str(t.key).startswith("simcore-") and t.finish == "memory":
            done[t.key] = done.get(t.key, 0) + 1
    return done


async def exit_now():
    """Run on a worker: its process dies at once, as if killed (its nanny then starts a new one)."""
    os._exit(1)


def times_computed(client) -> dict:
    return client.run_on_scheduler(chunks_computed)


def test_a_cluster_run_writes_the_file_a_local_run_writes(client, reference, tmp_path):
    local, remote = str(tmp_path / "local.parquet"), str(tmp_path / "cluster.parquet")
    runner.run(make_plan(), out=local)
    done = []
    outcome = cluster_run(client, make_plan(), out=remote, progress=done.append)
    assert done == list(range(0, GAMES + 1, CHUNK))          # 0: loaded, then one call per chunk in order
    assert outcome.games == GAMES and outcome.tally.games == GAMES
    pd.testing.assert_frame_equal(results.read(remote), results.read(local))
    pd.testing.assert_frame_equal(results.read(remote), reference)


@pytest.mark.parametrize("name", ["cut.parquet", "cut.csv"])
def test_a_resumed_run_ends_as_the_uninterrupted_one(reference, tmp_path, name):
    path = str(tmp_path / name)

    def ctrl_c_after_three_chunks(done):
        if done == 3 * CHUNK:
            raise KeyboardInterrupt

    with pytest.raises(runner.Interrupted) as stop:
        runner.run(make_plan(), out=path, progress=ctrl_c_after_three_chunks)
    assert stop.value.games == 600
    done = []
    outcome = runner.run(make_plan(chunk_size=350, workers=1), out=path, progress=done.append, resume=True,
                         keep_rows=True)
    assert done == [600, 950, 1300, 1650, 2000]              # only games 600.. were played
    assert (outcome.start, outcome.played, outcome.games, outcome.tally.games) == (600, 1400, 2000, 2000)
    pd.testing.assert_frame_equal(outcome.frame, reference)
    pd.testing.assert_frame_equal(results.read(path), reference)
    assert not os.path.exists(tmp_path / f".{name}.resuming")
    if name.endswith(".csv"):
        with open(path) as f:
            assert sum(line.startswith("game_index,") for line in f) == 1
    # a complete file is left as it is
    again = runner.run(make_plan(), out=path, resume=True)
    assert (again.start, again.played, again.games_per_second) == (2000, 0, None)
    pd.testing.assert_frame_equal(results.read(path), reference)


def test_resume_without_a_file_plays_everything(reference, tmp_path):
    path = str(tmp_path / "new.parquet")
    assert runner.run(make_plan(), out=path, resume=True).start == 0
    pd.testing.assert_frame_equal(results.read(path), reference)


def test_ctrl_c_on_a_cluster_keeps_a_prefix_and_resume_plays_the_rest(client, reference, tmp_path):
    path = str(tmp_path / "part.parquet")

    def ctrl_c_after_three_chunks(done):
        if done == 3 * CHUNK:
            raise KeyboardInterrupt

    with pytest.raises(runner.Interrupted) as stop:
        cluster_run(client, make_plan(), out=path, progress=ctrl_c_after_three_chunks)
    assert stop.value.games == 600
    pd.testing.assert_frame_equal(results.read(path), reference[reference["game_index"] < 600])
    done = []
    outcome = cluster_run(client, make_plan(chunk_size=350), out=path, resume=True, progress=done.append)
    assert done == [600, 950, 1300, 1650, 2000] and outcome.start == 600
    pd.testing.assert_frame_equal(results.read(path), reference)


def test_a_killed_workers_chunks_are_played_again_not_lost_or_doubled(client, reference, tmp_path):
    path = str(tmp_path / "killed.parquet")
    killed = []

    def kill_a_worker_holding_results(done):
        if killed or done < CHUNK:
            return
        # the client waits here, gathering nothing: chunks the workers finished stay in their memory
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            held = {w: [k for k in keys if str(k).startswith("simcore-") and int(str(k).split("-")[2]) >= done]
                    for w, keys in client.has_what().items()}
            victim = max(held, key=lambda w: len(held[w]), default=None)
            if victim and held[victim]:
                break
            time.sleep(0.05)
        assert held[victim], "no worker holds a finished chunk"
        client.run(exit_now, workers=[victim], wait=False)
        while victim in client.scheduler_info()["workers"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert victim not in client.scheduler_info()["workers"]
        killed.append(held[victim])

    before = times_computed(client)
    outcome = cluster_run(client, make_plan(), out=path, progress=kill_a_worker_holding_results)
    assert killed and outcome.games == GAMES
    frame = results.read(path)
    assert frame["game_index"].tolist() == list(np.repeat(np.arange(GAMES), PLAYERS))   # every game once
    pd.testing.assert_frame_equal(frame, reference)
    computed = times_computed(client)
    assert all(computed.get(key, 0) - before.get(key, 0) == 2 for key in killed[0])   # lost, then played again
    client.wait_for_workers(2, timeout=60)                   # the nanny restarts the killed worker


def test_every_worker_must_load_the_clients_data(client, tmp_path):
    with pytest.raises(UserError, match=r"worker tcp://\S+: data file /no/such/board.json does not exist"):
        cluster_run(client, make_plan(data_path="/no/such/board.json"))
    doc = json.loads((ROOT / "simcore/boardgames/strasbourg/data/strasbourg.json").read_text())
    doc["data_set_id"] = "my-variant"
    (tmp_path / "variant.json").write_text(json.dumps(doc))
    with pytest.raises(UserError, match="loads data my-variant, not strasbourg-p0-v1"):
        cluster_run(client, make_plan(data_path=str(tmp_path / "variant.json")))


def test_resume_refuses_a_file_of_another_run(reference, tmp_path):
    path = str(tmp_path / "other.csv")
    runner.run(make_plan(games=300), out=path)
    for changes, message in [({"seed": 42}, "played with seed 41, not 42"),
                             ({"rotate_seats": False}, "its seat policies differ"),
                             ({"policies": ("random",) * 3}, "its seat policies differ")]:
        with pytest.raises(UserError, match=message):
            runner.run(make_plan(**changes), out=path, resume=True)
    with pytest.raises(UserError, match="holds 3-player games, not 4-player"):
        runner.run(runner.plan(GAME, players=4, games=10), out=path, resume=True)
    with pytest.raises(UserError, match="holds strasbourg games, not principato"):
        runner.run(runner.plan("principato", players=3, games=10), out=path, resume=True)
    with pytest.raises(UserError, match="holds 300 games, more than the 100"):
        runner.run(make_plan(games=100), out=path, resume=True)
    with open(path, "a") as f:
        f.write("300,41,strasb")                             # a run killed in the middle of a line
    runner.run(make_plan(), out=path, resume=True)           # trims the cut line, plays games 300..
    pd.testing.assert_frame_equal(results.read(path), reference)


def test_the_command_line_resumes_on_a_local_cluster(reference, tmp_path):
    path = tmp_path / "cli.csv"
    runner.run(make_plan(games=900), out=str(path))
    p = simcore("simulate", GAME, "-p", PLAYERS, "-n", GAMES, "--seed", 41, *(f"--policy={x}" for x in POLICIES),
                "--rotate-seats", "--chunk-size", CHUNK, "-o", path, "--resume", "--cluster", "local:1", "--json")
    assert p.returncode == 0, p.stderr
    assert "resumed" in p.stderr and "it held 900 games, played 1100 more" in p.stderr
    pd.testing.assert_frame_equal(results.read(str(path)), reference)


@pytest.mark.parametrize("args, message", [
    (["--cluster", "local:0"], "--cluster must be local:N with N >= 1"),
    (["--scheduler", "ftp://host:8786"], "bad scheduler address 'ftp://host:8786'"),
    (["--scheduler", "tcp://127.0.0.1:1"], "cannot reach the Dask scheduler at tcp://127.0.0.1:1 within 5 s"),
    (["--scheduler", "tcp://127.0.0.1:1", "--cluster", "local:2"], "not both"),
    (["--cluster", "local:2", "--workers", "2"], "--workers sets local threads"),
    (["--resume"], "--resume needs --out"),
])
def test_cluster_and_resume_mistakes_are_one_line(args, message):
    assert_one_error_line(simcore("simulate", GAME, "-n", 10, *args), message)


def test_resuming_a_file_of_another_run_is_one_line(tmp_path):
    path = tmp_path / "seed1.parquet"
    runner.run(make_plan(games=50, seed=1), out=str(path))
    p = simcore("simulate", GAME, "-p", PLAYERS, "-n", 100, "--seed", 2, "-o", path, "--resume", "--cluster", "local:1")
    assert_one_error_line(p, "cannot resume")
    assert len(results.read(str(path))) == 50 * PLAYERS      # the file is left as it was
