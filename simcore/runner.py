"""Runs games of a GameSpec: validated plans, chunks over threads, results streamed in game order.

Game i's result depends only on (seed, i, its seat policies, data) — the GameSpec contract —
so it is the same whatever the worker count or chunk size. Chunks run on a thread pool (the
batch kernels are nogil), or as tasks on a Dask cluster (simcore.cluster), and are handed on
strictly in game-index order, so a results file cut short by Ctrl-C always holds games 0..N-1,
and a run resumed on that file plays only games N.. .
"""
from __future__ import annotations

import math
import os
import shlex
import sys
import signal
import threading
import time
import tomllib
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from simcore import agents, registry, results, stats
from simcore.players import Lineup, canonical, lineup as make_lineup
from simcore.contract import BatchResult, GameSpec, UserError

DEFAULT_GAMES = 10_000
DEFAULT_POLICY = "random"
MAX_CHUNK = 10_000          # games per chunk: bounds memory and the progress/Ctrl-C latency
CHUNKS_PER_WORKER = 4       # enough chunks that every worker stays busy to the end
MAX_SEED = 2**63 - 1        # the results column `seed` is int64


@dataclass(frozen=True)
class Plan:
    """A validated request to play games 0..games-1 of one game under one seed."""
    spec: GameSpec
    data: Any
    players: int
    games: int
    seed: int
    policies: tuple[str, ...]    # one per seat (game 0's assignment when seats rotate)
    rotate_seats: bool
    workers: int
    chunk_size: int
    data_path: str | None = None   # the --data file, absolute (what a cluster's workers load); None: the game's own

    @property
    def lineup(self) -> Lineup:
        """The kernels' policy ids and search table of this plan's policies."""
        return make_lineup(self.spec, self.policies)


@dataclass(frozen=True)
class Chunk:
    first: int
    seat_policies: np.ndarray    # int8[count, players]
    batch: BatchResult


@dataclass(frozen=True)
class Outcome:
    tally: stats.Tally
    games: int                   # games 0..games-1 are in the tally (and the file)
    seconds: float               # after the warm-up: what games_per_second measures
    frame: pd.DataFrame | None   # every row, when asked for
    start: int = 0               # a resumed run found games 0..start-1 in the file and played the rest

    @property
    def played(self) -> int:
        return self.games - self.start

    @property
    def games_per_second(self) -> float | None:
        return self.played / self.seconds if self.played > 0 and self.seconds > 0 else None

    def summary(self) -> dict:
        return self.tally.summary(self.games_per_second)


class Stopped(KeyboardInterrupt):
    """SIGTERM (kill, timeout, a batch scheduler or container stopping the run), raised in the
    main thread as Ctrl-C is, so the run ends the same way: the file closed, the games counted."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM during a run, after the output file was closed holding games 0..games-1;
    signal: the signal that stopped it (signal.SIGINT or signal.SIGTERM)."""

    def __init__(self, out: str | None, games: int, signum: int = signal.SIGINT):
        super().__init__(out, games)
        self.out = out
        self.games = games
        self.signal = signum


# ---- validation ------------------------------------------------------------------------

def plan(game: str, players: int | None = None, games: int = DEFAULT_GAMES, seed: int = 0,
         policies: Iterable[str] | None = None, rotate_seats: bool = False, workers: int | None = None,
         data: str | None = None, chunk_size: int | None = None) -> Plan:
    """Checks every argument (UserError naming the problem) and loads the component data."""
    spec = registry.get(game)
    players = spec.default_players if players is None else players
    if not spec.min_players <= players <= spec.max_players:
        raise UserError(f"{spec.id} is played by {spec.min_players} to {spec.max_players} players, not {players}")
    _check_at_least("games", games, 1)
    _check_at_least("seed", seed, 0)
    if seed > MAX_SEED:
        raise UserError(f"seed must be at most {MAX_SEED}, not {seed}")
    workers = (os.cpu_count() or 1) if workers is None else workers
    _check_at_least("workers", workers, 1)
    chunk_size = default_chunk_size(games, workers) if chunk_size is None else chunk_size
    _check_at_least("chunk size", chunk_size, 1)
    return Plan(spec, load_data(spec, data), players, games, seed, seat_policies(spec, players, policies),
                rotate_seats, workers, chunk_size, None if data is None else os.path.abspath(data))


def seat_policies(spec: GameSpec, players: int, policies: Iterable[str] | None) -> tuple[str, ...]:
    """One canonical policy name per seat (simcore/players.py): no names means random, one name
    applies to every seat."""
    names = [canonical(spec, n) for n in policies or [DEFAULT_POLICY]]
    if len(names) == 1:
        return tuple(names) * players
    if len(names) != players:
        raise UserError(f"{len(names)} policies given for {players} players: give one, or one per seat")
    return tuple(names)


def load_data(spec: GameSpec, path: str | None) -> Any:
    """The game's component data; a user's file that is missing or unreadable is a UserError."""
    if path is not None and not os.path.isfile(path):
        raise UserError(f"data file {path} does not exist")
    try:
        data = spec.load_data(path)
    except (OSError, ValueError) as e:
        if path is None:
            raise   # the shipped data is broken: a bug, not a user mistake
        raise UserError(f"data file {path}: {e}") from e
    for warning in getattr(data, "warnings", ()):   # a file that loads but departs from the box (Principato)
        print(f"warning: {warning}", file=sys.stderr)
    return data


def default_chunk_size(games: int, workers: int) -> int:
    return max(1, min(MAX_CHUNK, math.ceil(games / (CHUNKS_PER_WORKER * workers))))


def _check_at_least(name: str, value: int, minimum: int) -> None:
    if value < minimum:
        raise UserError(f"{name} must be at least {minimum}, not {value}")


# ---- playing ---------------------------------------------------------------------------

def assign_seats(policy_ids: np.ndarray, first: int, count: int, rotate: bool) -> np.ndarray:
    """int8[count, players]: seat s of game i plays policy_ids[s], or policy_ids[(s + i) % players]
    when seats rotate, so every policy sits in every seat equally often."""
    players = len(policy_ids)
    shift = np.arange(first, first + count, dtype=np.int64)[:, None] * bool(rotate)
    return policy_ids[(np.arange(players) + shift) % players].astype(np.int8)


def policy_ids(p: Plan) -> np.ndarray:
    return p.lineup.ids(p.policies)


def play(p: Plan, first: int, count: int) -> Chunk:
    """Games first..first+count-1; runs in a worker thread (the kernel releases the GIL)."""
    seats = assign_seats(policy_ids(p), first, count, p.rotate_seats)
    if agents.has_agents(p.policies):
        return Chunk(first, seats, play_with_agents(p, seats, first))
    return Chunk(first, seats, p.spec.play_batch(p.data, p.players, seats, p.seed, first, p.lineup.table))


def play_with_agents(p: Plan, seats: np.ndarray, first: int):
    """A chunk with Python agents, in one of p.workers worker processes (simcore/agents.py)."""
    task = agents.process_pool(p.workers).submit(agents.play_chunk_in_process, p.spec.id, p.players, p.data_path,
                                                 p.seed, p.policies, p.rotate_seats, seats, first)
    return task.result()


def chunk_rows(p: Plan, chunk: Chunk, data_id: str) -> pd.DataFrame:
    """The results rows of a played chunk (the same function on this machine and on a cluster worker)."""
    return results.chunk_frame(p.spec, data_id, p.players, p.seed, chunk.first, chunk.seat_policies, chunk.batch,
                               p.lineup.names)


def warm_up(p: Plan) -> float:
    """Plays one game in this thread so the kernels load from the numba cache (or compile) once,
    not in every worker at the same time; returns the seconds it took."""
    start = time.perf_counter()
    play(p, 0, 1)
    return time.perf_counter() - start


def play_chunks(p: Plan, start: int = 0, task: Callable[[Plan, int, int], Any] = play) -> Iterator[Any]:
    """Every chunk of games start..p.games-1, in game-index order, played on p.workers threads
    (call warm_up first): task(p, first, count) for each, `play` unless told otherwise.

    At most 2 chunks per worker are in flight: a finished later chunk waits in its future until
    the earlier ones are handed on, and memory stays bounded whatever p.games is."""
    pool = ThreadPoolExecutor(max_workers=p.workers, thread_name_prefix="simcore")
    pending = deque()
    finished = False
    try:
        for first in range(start, p.games, p.chunk_size):
            pending.append(pool.submit(task, p, first, min(p.chunk_size, p.games - first)))
            if len(pending) >= 2 * p.workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
        finished = True
    finally:
        # stopped early (Ctrl-C, SIGTERM, an error): do not wait for the chunks still playing,
        # whose games are played again by --resume
        pool.shutdown(wait=finished, cancel_futures=True)


class LocalPlayer:
    """Plays a run's chunks on this machine's threads. run() accepts any object with these three
    methods (simcore.cluster.ClusterPlayer plays them on a Dask cluster)."""

    def describe(self, p: Plan) -> str:
        return f"{p.workers} worker{'s' if p.workers > 1 else ''}"

    def warm_up(self, p: Plan) -> float:
        return warm_up(p)

    def frames(self, p: Plan, start: int) -> Iterator[pd.DataFrame]:
        """The rows of games start..p.games-1, one frame per chunk, in game order."""
        data_id = p.spec.data_id(p.data)
        with closing(play_chunks(p, start)) as chunks:
            for chunk in chunks:
                yield chunk_rows(p, chunk, data_id)


def run(p: Plan, out: str | None = None, keep_rows: bool = False,
        progress: Callable[[int], None] | None = None, resume: bool = False,
        player: Any = None, force: bool = False) -> Outcome:
    """Plays the plan, writing each chunk's rows to `out` (Parquet or CSV) as it finishes and
    summing them into a Tally; progress(0) once the kernels are loaded, then progress(games_done)
    after each chunk. keep_rows also returns all rows as one DataFrame (memory grows with the run).
    Ctrl-C or SIGTERM closes the file and raises Interrupted.

    An existing `out` is never replaced silently: without resume or force it is a UserError
    naming the file and the games it holds. force replaces it. resume: `out` must hold games
    0..k-1 of this very plan (checked row by row, else a UserError; a CSV file cut inside a game
    is first trimmed to its last whole game); only games k.. are played and appended, and the
    tally, the rows kept and the progress count cover all games 0.. (progress(k) first).
    player: where the chunks are played (default: LocalPlayer, this machine's threads)."""
    if resume and not out:
        raise UserError("resuming needs the output file of the run to resume")
    player = player or LocalPlayer()
    data_id = p.spec.data_id(p.data)
    tally, frames, start, done, writer = stats.Tally(), [], 0, 0, None
    if out and os.path.exists(out):
        if resume:
            start = games_held(p, out, data_id, tally, frames if keep_rows else None, trim=True)
        elif force:
            results.check_output(out)
            results.remove(out)
        else:
            refuse_overwrite(out)
    with signals_stop_the_run():
        try:
            if out and start < p.games:
                writer = results.open_writer(out, results.empty_frame(p.spec, p.players), append=start > 0)
            if start < p.games:
                player.warm_up(p)
            if progress:
                progress(start)             # the kernels are loaded (or compiled): games start now
            begin = time.perf_counter()
            with closing(player.frames(p, start)) as chunks:
                for frame in chunks:
                    with interrupts_deferred():
                        if writer:
                            writer.write(frame)
                        done += len(frame) // p.players
                    tally.add(frame)
                    if keep_rows:
                        frames.append(frame)
                    if progress:
                        progress(start + done)
            seconds = time.perf_counter() - begin
        except KeyboardInterrupt as stop:
            raise Interrupted(out, start + done, signal.SIGTERM if isinstance(stop, Stopped) else signal.SIGINT) \
                from stop
        finally:
            if writer:
                writer.close()
    frame = (pd.concat(frames, ignore_index=True) if frames else results.empty_frame(p.spec, p.players)) \
        if keep_rows else None
    return Outcome(tally, start + done, seconds, frame, start)


def refuse_overwrite(out: str) -> None:
    """The UserError for an output file that exists and would be replaced."""
    held = results.games_in(out)
    what = f"holds {held:,} games" if held is not None else "exists (not a simcore results file)"
    raise UserError(f"{out} already {what}: give --resume to continue it or --force to replace it")


def games_held(p: Plan, path: str, data_id: str, tally: stats.Tally | None = None,
               frames: list | None = None, trim: bool = False) -> int:
    """How many games the results file at path holds, after checking row by row that they are
    games 0..k-1 of the plan p in order: same game, players, seed, data and seat policies (a
    UserError naming the first difference otherwise). Adds the rows to tally, and to frames if
    given, reading the file chunk by chunk. trim: a CSV file that a killed run left ending inside
    a game (a cut line, or a game's first rows only) is first cut back to its last whole game."""
    def mismatch(what: str):
        raise UserError(f"cannot resume {path}: {what}")

    if results.writer_class(path) is results.CsvWriter:
        if trim:
            removed = results.trim_csv(path, p.players)
            if removed:
                print(f"{path}: removed the last {removed} bytes, an unfinished game of a run that was killed",
                      file=sys.stderr)
        elif not _ends_with_newline(path):
            mismatch("it ends in a cut line (the run was killed while writing)")
    if results.is_parquet(path) and os.path.isfile(path) and results.games_in(path) is None:
        mismatch("it is a single Parquet file that cannot be read, as a run killed before it closed the file "
                 "leaves it (simcore writes a folder of part files now, which survives that): give --force to "
                 "replace it")
    columns = list(results.empty_frame(p.spec, p.players).columns)
    names = p.lineup.names
    ids = policy_ids(p)
    rows = 0
    for frame in results.read_chunks(path):
        if frame.empty:
            continue
        for column, want, said in (("game", p.spec.id, "it holds {} games, not {}"),
                                   ("players", p.players, "it holds {}-player games, not {}-player"),
                                   ("seed", p.seed, "it was played with seed {}, not {}"),
                                   ("data", data_id, "it was played with data {}, not {}")):
            if column in frame.columns:
                differs = np.flatnonzero((frame[column] != want).to_numpy(dtype=bool))
                if len(differs):
                    mismatch(said.format(frame[column].iloc[differs[0]], want))
        if list(frame.columns) != columns:
            mismatch(f"its columns are not those of {p.spec.id} results")
        row = np.arange(rows, rows + len(frame))
        game, seat = row // p.players, row % p.players
        got_game, got_seat = frame["game_index"].to_numpy(), frame["seat"].to_numpy()
        differs = np.flatnonzero((got_game != game) | (got_seat != seat))
        if len(differs):
            k = differs[0]
            mismatch(f"it does not hold games 0.. in order (row {rows + k} is game {got_game[k]} seat "
                     f"{got_seat[k]}, not game {game[k]} seat {seat[k]})")
        want = ids[(seat + game * bool(p.rotate_seats)) % p.players]
        got = np.full(len(frame), -1)
        for pid, name in enumerate(names):           # a few vectorised string compares, not one per row
            got[(frame["policy"] == name).to_numpy(dtype=bool)] = pid
        differs = np.flatnonzero(got != want)
        if len(differs):
            k = differs[0]
            mismatch(f"its seat policies differ (game {game[k]} seat {seat[k]} played "
                     f"{frame['policy'].iloc[k]}, not {names[want[k]]}): give the same --policy and --rotate-seats")
        rows += len(frame)
        if tally is not None:
            tally.add(frame)
        if frames is not None:
            frames.append(frame)
    if rows % p.players:
        mismatch(f"it ends inside game {rows // p.players}")
    held = rows // p.players
    if held > p.games:
        mismatch(f"it holds {held} games, more than the {p.games} asked for")
    return held


def _ends_with_newline(path: str) -> bool:
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() == 0:
            return True
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def signals_stop_the_run():
    """SIGTERM raises Stopped in the main thread for the block, as Ctrl-C raises KeyboardInterrupt,
    so both end a run the same way (the file closed holding every finished chunk)."""
    if threading.current_thread() is not threading.main_thread():
        yield   # only the main thread receives signals (and may set their handlers)
        return

    def stop(signum, frame):
        raise Stopped()

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def interrupts_deferred():
    """Holds a Ctrl-C or SIGTERM that arrives inside the block until the block ends, so a chunk
    is always written whole and counted: otherwise a CSV could end in half a chunk or a cut row."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    previous = {s: signal.signal(s, lambda signum, frame: caught.append((signum, frame))) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if caught:
        signum, frame = caught[0]
        handler = previous[signum]
        if callable(handler):
            handler(signum, frame)   # raises KeyboardInterrupt (Ctrl-C) or Stopped (SIGTERM) here


def replay(p: Plan, index: int) -> list[str]:
    """The move log of game `index` of the plan's seed: the game of rows game_index == index."""
    _check_at_least("index", index, 0)
    seats = assign_seats(policy_ids(p), index, 1, p.rotate_seats)[0]
    lineup = p.lineup
    if agents.has_agents(p.policies):
        state = agents.play_game(p, index, [lineup.keys[i] for i in seats], logging=True).final_state()
        return list(p.spec.replay(p.data, p.players, seats, p.seed, index, lineup, state=state))
    return list(p.spec.replay(p.data, p.players, seats, p.seed, index, lineup))


# ---- checking --------------------------------------------------------------------------

@dataclass(frozen=True)
class Violation:
    """The first game of a check whose invariant checker reported a broken invariant."""
    game_index: int
    step: int                    # the turn, round or year it broke in (GameSpec.check_step)
    code: int
    what: str                    # GameSpec.violations[code]


@dataclass(frozen=True)
class CheckOutcome:
    games: int
    violations: int              # games with a broken invariant
    first: Violation | None
    seconds: float


def check_chunk(p: Plan, first: int, count: int) -> tuple[int, Any]:
    """Games first..first+count-1 played with the invariant checker on (a worker thread)."""
    seats = assign_seats(policy_ids(p), first, count, p.rotate_seats)
    return first, p.spec.check_batch(p.data, p.players, seats, p.seed, first, p.lineup.table)


def check(p: Plan, progress: Callable[[int], None] | None = None) -> CheckOutcome:
    """Plays the plan's games with the game's invariant checker on after every step and counts
    the games in which an invariant broke; progress as for run."""
    if p.spec.check_batch is None:
        raise UserError(f"{p.spec.id} has no invariant checker")
    if agents.has_agents(p.policies):
        raise UserError("simcore check plays the built-in policies only, not Python agents")
    check_chunk(replace(p, games=1), 0, 1)               # load or compile the kernels once
    if progress:
        progress(0)
    begin = time.perf_counter()
    games = violations = 0
    first = None
    with closing(play_chunks(p, 0, check_chunk)) as chunks:
        for start, found in chunks:
            broken = np.flatnonzero(found.violation)
            violations += len(broken)
            if len(broken) and first is None:
                k = int(broken[0])
                code = int(found.violation[k])
                first = Violation(start + k, int(found.step[k]), code,
                                  p.spec.violations.get(code, "an invariant the game does not name"))
            games += len(found.violation)
            if progress:
                progress(games)
    return CheckOutcome(games, violations, first, time.perf_counter() - begin)


def replay_command(p: Plan, index: int) -> str:
    """The `simcore replay` command line of game `index` of the plan."""
    parts = ["simcore", "replay", p.spec.id, "-p", str(p.players), "--seed", str(p.seed), "--index", str(index)]
    if len(set(p.policies)) > 1 or p.policies[0] != DEFAULT_POLICY:
        for name in (p.policies if len(set(p.policies)) > 1 else p.policies[:1]):
            parts += ["--policy", name]
    if p.rotate_seats:
        parts.append("--rotate-seats")
    if p.data_path:
        parts += ["--data", p.data_path]
    return " ".join(shlex.quote(part) for part in parts)


# ---- measuring -------------------------------------------------------------------------

def measure_speed(game: str, players: int | None = None, games: int = 20_000,
                  workers: Iterable[int] = (1,), policy: str = DEFAULT_POLICY,
                  data: str | None = None) -> Iterator[dict]:
    """Games per second of the kernels run by the runner (no results table), one record per
    worker count: {game, players, policy, workers, games, seconds, games_per_second,
    compile_seconds}; compile_seconds is the first call's time (compile or cache load)."""
    base = plan(game, players=players, games=games, policies=[policy], data=data)
    compile_seconds = warm_up(base)
    for w in workers:
        p = replace(base, workers=w, chunk_size=default_chunk_size(games, w))
        start = time.perf_counter()
        for _ in play_chunks(p):
            pass
        seconds = time.perf_counter() - start
        yield {"game": p.spec.id, "players": p.players, "policy": policy, "workers": w, "games": games,
               "seconds": seconds, "games_per_second": games / seconds, "compile_seconds": compile_seconds}


# ---- scenarios -------------------------------------------------------------------------

SCENARIO_KEYS = {"game": str, "players": int, "games": int, "seed": int, "policies": list,
                 "rotate_seats": bool, "workers": int, "out": str, "data": str}
_TYPE_NAMES = {str: "a string", int: "an integer", list: "a list", bool: "true or false"}


def read_scenario(path: str) -> dict:
    """A scenario TOML file as keyword arguments of plan() plus `out`; paths are as given (relative
    to the current directory). Unknown keys, wrong types and a missing `game` are UserErrors."""
    try:
        with open(path, "rb") as f:
            scenario = tomllib.load(f)
    except OSError as e:
        raise UserError(f"scenario {path}: cannot read ({e.strerror or e})") from e
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"scenario {path}: not valid TOML ({e})") from e
    unknown = sorted(set(scenario) - set(SCENARIO_KEYS))
    if unknown:
        raise UserError(f"scenario {path}: unknown key '{unknown[0]}' (known: {', '.join(SCENARIO_KEYS)})")
    if "game" not in scenario:
        raise UserError(f"scenario {path}: no 'game' key")
    for key, value in scenario.items():
        kind = SCENARIO_KEYS[key]
        # bool is an int in Python; a scenario saying players = true is still a mistake
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise UserError(f"scenario {path}: '{key}' must be {_TYPE_NAMES[kind]}, not {value!r}")
    if not all(isinstance(name, str) for name in scenario.get("policies", [])):
        raise UserError(f"scenario {path}: 'policies' must be a list of policy names")
    return scenario
