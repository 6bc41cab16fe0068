"""How much the JIT buys: games per second of the same kernels compiled and run as plain
Python (NUMBA_DISABLE_JIT=1), as one JSON line per game.

    python benchmarks/jit_ratio.py [GAME ...] [-p N] [--games N]
"""
import argparse
import json
import os
import subprocess
import sys

from simcore import registry

CHILD = """
import json, sys, time
import numpy as np
from simcore import registry
spec = registry.get(sys.argv[1]); players = int(sys.argv[2]); games = int(sys.argv[3])
data = spec.load_data(None)
policies = np.zeros((games, players), dtype=np.int8)
spec.play_batch(data, players, policies[:1], 1, 0)          # compile or load the cache first
start = time.perf_counter()
spec.play_batch(data, players, policies, 1, 0)
print(json.dumps(games / (time.perf_counter() - start)))
"""


def games_per_second(game: str, players: int, games: int, jit: bool) -> float:
    env = dict(os.environ)
    if not jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    out = subprocess.run([sys.executable, "-c", CHILD, game, str(players), str(games)], check=True,
                         capture_output=True, text=True, env=env).stdout
    return json.loads(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game_ids", nargs="*", metavar="GAME")
    parser.add_argument("-p", "--players", type=int)
    parser.add_argument("--games", type=int, default=20, help="games for the plain-Python run")
    args = parser.parse_args()
    for game in args.game_ids or list(registry.games()):
        players = args.players or registry.get(game).default_players
        python = games_per_second(game, players, args.games, jit=False)
        compiled = games_per_second(game, players, 20_000, jit=True)
        print(json.dumps({"game": game, "players": players, "compiled_games_per_second": round(compiled),
                          "python_games_per_second": round(python, 2), "speedup": round(compiled / python)}),
              flush=True)


if __name__ == "__main__":
    main()
