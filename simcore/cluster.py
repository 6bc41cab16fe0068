"""Playing a run's chunks as tasks on a Dask cluster (dask.distributed).

A task is one chunk: (game, players, data path, seed, first index, count, seat policies, rotate)
-> the chunk's results rows, computed on a worker by the local runner's own functions
(runner.play, runner.chunk_rows), so game i's rows are the same wherever it is played. The
client keeps a bounded number of chunks in flight (two per worker thread, and two more),
gathers them as they complete (`as_completed`), and hands them to runner.run in game order (a
chunk that finishes early waits in a buffer), which writes them, counts them and keeps Ctrl-C's
promise exactly as for a local run. A worker that dies takes the results it held with it; the
scheduler plays those chunks again elsewhere, and since the client writes each game range once,
nothing is lost or doubled.

Workers need simcore installed (the same version: the warm-up compares a hash of the source each
process loaded and warns when a worker's differs) and, for --data, the file at the same absolute
path (the warm-up checks every worker loads the data the client loaded).
"""
from __future__ import annotations

import functools
import logging
import re
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pandas as pd

from simcore import compile_cache, runner
from simcore.contract import UserError

CONNECT_TIMEOUT = 5      # seconds to reach a scheduler before giving up with one line
WORKER_TIMEOUT = 60      # seconds to wait for a scheduler's first worker
LOCAL = re.compile(r"local:([0-9]+)")
SOURCE = compile_cache.source_hash()   # about the simcore source this process imported
IN_FLIGHT_PER_THREAD = 2  # chunks submitted but not yet written: 2 per worker thread, plus IN_FLIGHT_EXTRA,
IN_FLIGHT_EXTRA = 2       # so a worker never waits for its next task; this bounds the client's memory


# ---- on the workers --------------------------------------------------------------------

@functools.lru_cache(maxsize=8)
def _worker_plan(game: str, players: int, data: str | None, seed: int, policies: tuple, rotate: bool) -> runner.Plan:
    # loads (and validates) the component data once per worker process, not once per chunk
    return runner.plan(game, players=players, games=1, seed=seed, policies=policies, rotate_seats=rotate,
                       workers=1, data=data, chunk_size=1)


def play_chunk(game: str, players: int, data: str | None, seed: int, first: int, count: int,
               policies: tuple, rotate: bool) -> pd.DataFrame:
    """The task: the results rows of games first..first+count-1 of that plan, on a worker."""
    p = _worker_plan(game, players, data, seed, tuple(policies), rotate)
    return runner.chunk_rows(p, runner.play(p, first, count), p.spec.data_id(p.data))


def warm_up_worker(game: str, players: int, data: str | None, seed: int, policies: tuple, rotate: bool) -> dict:
    """Loads the kernels on a worker (client.run: every worker at once): the seconds it took, the
    data id the worker loaded and the hash of its simcore source."""
    p = _worker_plan(game, players, data, seed, tuple(policies), rotate)
    return {"seconds": runner.warm_up(p), "data": p.spec.data_id(p.data), "source": SOURCE}


# ---- on the client ---------------------------------------------------------------------

def task_args(p: runner.Plan) -> tuple:
    """What a worker needs to rebuild the plan: ids, names and a path, never the loaded data."""
    return p.spec.id, p.players, p.data_path, p.seed, tuple(p.policies), p.rotate_seats


class ClusterPlayer:
    """Plays a run's chunks as tasks on the cluster of a distributed.Client (see runner.run)."""

    def __init__(self, client, name: str):
        self.client = client
        self.name = name

    def threads(self) -> int:
        return sum(self.client.nthreads().values())

    def fit(self, p: runner.Plan, chunk_size: int | None = None) -> runner.Plan:
        """p with the cluster's thread count as its workers and, unless chunk_size is given, the
        chunk size a local run with that many threads would use (neither changes any result)."""
        threads = max(1, self.threads())
        return replace(p, workers=threads, chunk_size=chunk_size or runner.default_chunk_size(p.games, threads))

    def describe(self, p: runner.Plan) -> str:
        threads = self.threads()
        return f"{threads} Dask worker thread{'s' if threads != 1 else ''} ({self.name})"

    def warm_up(self, p: runner.Plan) -> float:
        """Every worker loads the kernels at once; each must load the client's data, and one that
        imported another simcore source gets a warning (its games may differ)."""
        data_id = p.spec.data_id(p.data)
        loaded = self.client.run(warm_up_worker, *task_args(p), on_error="return")
        for worker, answer in sorted(loaded.items()):
            if isinstance(answer, UserError):
                raise UserError(f"worker {worker}: {answer}") from answer
            if isinstance(answer, BaseException):
                raise UserError(f"worker {worker} cannot play {p.spec.id}: {answer!r}") from answer
            if answer["data"] != data_id:
                raise UserError(f"worker {worker} loads data {answer['data']}, not {data_id}: "
                                f"give every worker the same --data file at the same path")
            if answer["source"] != SOURCE:
                print(f"warning: worker {worker} runs another simcore source ({answer['source']}, here {SOURCE}): "
                      f"install the same simcore on every worker, or games may differ", file=sys.stderr)
        return max((answer["seconds"] for answer in loaded.values()), default=0.0)

    def frames(self, p: runner.Plan, start: int) -> Iterator[pd.DataFrame]:
        """The rows of games start..p.games-1, one frame per chunk, in game order."""
        from distributed import as_completed

        head, tail = task_args(p)[:4], task_args(p)[4:]
        run_id = uuid.uuid4().hex[:8]
        firsts = iter(range(start, p.games, p.chunk_size))
        futures: dict[str, tuple[int, object]] = {}   # key -> (first game, future), until written
        finished: dict[int, pd.DataFrame] = {}        # first game -> rows, waiting for earlier chunks
        completed = as_completed(loop=self.client.loop)

        def submit():
            first = next(firsts, None)
            if first is None:
                return
            count = min(p.chunk_size, p.games - first)
            key = f"simcore-{p.spec.id}-{first}-{first + count}-{run_id}"   # a chunk is its game range
            futures[key] = (first, self.client.submit(play_chunk, *head, first, count, *tail, key=key))
            completed.add(futures[key][1])

        window = IN_FLIGHT_PER_THREAD * max(1, self.threads()) + IN_FLIGHT_EXTRA
        try:
            for _ in range(window):
                submit()
            expected = start
            for future in completed:
                first, _ = futures.pop(future.key)
                finished[first] = future.result()   # a chunk lost with its worker is recomputed first
                del future
                while expected in finished:
                    frame = finished.pop(expected)
                    yield frame
                    expected += len(frame) // p.players
                    submit()
        finally:
            if futures:
                self.client.cancel([future for _, future in futures.values()])


def parse_local(spec: str) -> int:
    """N from `local:N` (N >= 1), or a UserError."""
    match = LOCAL.fullmatch(spec.strip())
    if not match or int(match.group(1)) < 1:
        raise UserError(f"--cluster must be local:N with N >= 1 workers, not '{spec}' "
                        f"(for another cluster give --scheduler tcp://HOST:PORT)")
    return int(match.group(1))


def check_address(address: str) -> str:
    """The scheduler address if it is well formed (tcp://HOST:PORT, tls://..., HOST:PORT), else a UserError."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address.strip())
        get_backend(scheme)
        if scheme in ("tcp", "tls"):
            host, port = parse_host_port(location)
            if not host or not 0 < int(port) < 65536:
                raise ValueError("a host and a port 1..65535 are needed")
    except (ValueError, TypeError) as e:
        raise UserError(f"bad scheduler address '{address}' (use tcp://HOST:PORT): {e}") from e
    return address.strip()


@contextmanager
def connect(scheduler: str | None = None, local: str | None = None) -> Iterator[ClusterPlayer]:
    """A ClusterPlayer on the scheduler at `scheduler`, or on a LocalCluster of N one-thread
    worker processes for local='local:N' (started here and shut down on exit)."""
    from distributed import Client, LocalCluster

    if scheduler and local:
        raise UserError("give --scheduler or --cluster, not both")
    cluster = None
    if local:
        workers = parse_local(local)
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        client, name = Client(cluster, set_as_default=False), f"local cluster of {workers}"
    else:
        address = check_address(scheduler)
        try:
            client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise UserError(f"cannot reach the Dask scheduler at {address} within {CONNECT_TIMEOUT} s") from e
        name = address
    try:
        try:
            client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        except TimeoutError as e:
            raise UserError(f"no worker joined the Dask scheduler at {name} within {WORKER_TIMEOUT} s") from e
        yield ClusterPlayer(client, name)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
