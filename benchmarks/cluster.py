"""Games per second of the local runner (1 and 2 threads) against a Dask LocalCluster of 1 and 2
one-thread worker processes on the same machine, and the cluster's overhead per chunk, as JSON lines.

    python benchmarks/cluster.py [GAME] [-p N] [--games N] [--chunk-size N ...] [--policy NAME] [--repeat R]

Every figure is runner.run without an output file (the rows are built and summed, as for
`simcore simulate`), best of R runs, after the warm-up (kernels loaded in every process).
seconds_per_chunk is the worker time a chunk costs: seconds x workers / chunks. A cluster
record's overhead_per_chunk is its seconds_per_chunk minus the local runner's with as many
workers: scheduling, moving the rows to the client (pickled), gathering them in order.
startup_seconds is starting the LocalCluster; warm_up_seconds loading the kernels on its workers.
"""
import argparse
import json
import logging
import math
import os
import time
from dataclasses import replace

os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/numba_shared")   # inherited by the worker processes

from simcore import cluster, runner  # noqa: E402


def best_run(p, repeat, player=None) -> float:
    return min(runner.run(p, player=player).seconds for _ in range(repeat))


def record(kind, p, seconds, **extra) -> dict:
    chunks = math.ceil(p.games / p.chunk_size)
    return {"runner": kind, "workers": p.workers, "game": p.spec.id, "players": p.players, "policy": p.policies[0],
            "games": p.games, "chunk_size": p.chunk_size, "chunks": chunks, "seconds": round(seconds, 4),
            "games_per_second": round(p.games / seconds), "seconds_per_chunk": seconds * p.workers / chunks, **extra}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="strasbourg")
    parser.add_argument("-p", "--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--chunk-size", type=int, nargs="+", default=[10_000, 1_000])
    parser.add_argument("--policy", default="random")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    base = runner.plan(args.game, players=args.players, games=args.games, policies=[args.policy])
    runner.warm_up(base)
    local = {}
    for chunk_size in args.chunk_size:
        for workers in (1, 2):
            p = replace(base, workers=workers, chunk_size=chunk_size)
            local[chunk_size, workers] = rec = record("local", p, best_run(p, args.repeat))
            print(json.dumps(rec), flush=True)
    for workers in (1, 2):
        start = time.perf_counter()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=logging.ERROR) as lc, Client(lc, set_as_default=False) as client:
            startup = time.perf_counter() - start
            player = cluster.ClusterPlayer(client, f"local cluster of {workers}")
            warm = player.warm_up(base)
            for chunk_size in args.chunk_size:
                p = player.fit(base, chunk_size)
                seconds = best_run(p, args.repeat, player)
                rec = record("cluster", p, seconds, startup_seconds=round(startup, 2), warm_up_seconds=round(warm, 2))
                rec["overhead_per_chunk"] = rec["seconds_per_chunk"] - local[chunk_size, workers]["seconds_per_chunk"]
                print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main()
