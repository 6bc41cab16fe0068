"""A new user's first run: the wall time and peak memory of `simcore simulate GAME -n 1000` with
empty caches (every kernel compiles: fresh NUMBA_CACHE_DIR and XDG_CACHE_HOME), then again with
the cache it left (what every later run pays). One JSON line per game and repetition.

With --reference FILE.py (a standalone numba module with a function `run_batch`, e.g. the lean
Carcassonne kernel a speed study compares with), that module is compiled cold before and after
each game, in the same minute, and each game's cold time is also given as a ratio to the mean of
the two: on a shared machine the ratio means more than the seconds.

    python benchmarks/startup.py [GAME ...] [-p N] [--reps R] [--reference FILE.py]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from simcore import registry

SIMULATE = "from cli.main import main; main()"
# compiles the reference module's run_batch on 2,000 games, as its own speed script does
REFERENCE = ("import sys; sys.path.insert(0, {folder!r}); import {module} as ref; "
             "ref.run_batch(2000, 4, 1, 0, 3, False, 64)")


def timed(cmd: list[str], cache: str) -> tuple[float, float]:
    """(seconds, peak resident MB) of one command run with its caches in the folder `cache`."""
    env = {**os.environ, "NUMBA_CACHE_DIR": os.path.join(cache, "numba"), "XDG_CACHE_HOME": cache}
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if status:
        sys.exit(f"{' '.join(cmd)} failed (status {status})")
    return seconds, usage.ru_maxrss / 1024          # ru_maxrss is in KB on Linux


def reference_cold(path: str) -> float:
    folder, name = os.path.split(os.path.abspath(path))
    with tempfile.TemporaryDirectory() as cache:
        return timed([sys.executable, "-c", REFERENCE.format(folder=folder, module=name.removesuffix(".py"))],
                     cache)[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game_ids", nargs="*", metavar="GAME")
    parser.add_argument("-p", "--players", type=int)
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--reference", help="a standalone numba module with run_batch, compiled cold beside each game")
    args = parser.parse_args()
    ratios = {}
    for rep in range(args.reps):
        before = reference_cold(args.reference) if args.reference else None
        for game in args.game_ids or list(registry.games()):
            players = args.players or registry.get(game).default_players
            cmd = [sys.executable, "-c", SIMULATE, "simulate", game, "-p", str(players), "-n", "1000",
                   "--quiet", "--json"]
            with tempfile.TemporaryDirectory() as cache:
                cold, cold_mb = timed(cmd, cache)
                warm, _ = timed(cmd, cache)
            row = {"game": game, "players": players, "command": "simulate -n 1000", "rep": rep,
                   "cold_seconds": round(cold, 1), "cold_peak_mb": round(cold_mb), "warm_seconds": round(warm, 2)}
            if args.reference:
                after = reference_cold(args.reference)
                reference = (before + after) / 2
                row |= {"reference_cold_seconds": round(reference, 1), "cold_ratio": round(cold / reference, 2)}
                ratios.setdefault(game, []).append(cold / reference)
                before = after
            print(json.dumps(row), flush=True)
    for game, values in ratios.items():
        print(f"{game:<16} cold compile {statistics.median(values):.2f}x the reference (median of {len(values)})",
              file=sys.stderr)


if __name__ == "__main__":
    main()
