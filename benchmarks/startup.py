"""Compile time and warm start, as JSON lines: the wall time of
`simcore simulate GAME -n 1000` with an empty numba cache (everything compiles) and then
again with the cache it left (what every later run pays).

    python benchmarks/startup.py [GAME ...] [-p N]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from simcore import registry


def timed_simulate(game: str, players: int, cache_dir: str) -> float:
    cmd = [sys.executable, "-c", "from cli.main import main; main()", "simulate", game, "-p", str(players),
           "-n", "1000", "--quiet", "--json"]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env={**os.environ, "NUMBA_CACHE_DIR": cache_dir})
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game_ids", nargs="*", metavar="GAME")
    parser.add_argument("-p", "--players", type=int)
    args = parser.parse_args()
    for game in args.game_ids or list(registry.games()):
        players = args.players or registry.get(game).default_players
        with tempfile.TemporaryDirectory() as cache:
            cold = timed_simulate(game, players, cache)
            warm = timed_simulate(game, players, cache)
        print(json.dumps({"game": game, "players": players, "command": "simulate -n 1000",
                          "cold_seconds": round(cold, 2), "warm_seconds": round(warm, 2)}), flush=True)


if __name__ == "__main__":
    main()
