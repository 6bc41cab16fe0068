"""Games per second (1 worker and all cores) and compile time per game, as JSON lines — the
numbers of `simcore bench --json` — then the peak memory of one streamed `simcore simulate` run.

    python benchmarks/bench.py [GAME ...] [-p N] [--games N] [--memory-games N]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from simcore import registry, runner


def peak_memory_mb(game: str, players: int, games: int) -> float:
    """ru_maxrss of a child process running `simcore simulate` to a Parquet file: the run's own peak."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-c", "from cli.main import main; main()", "simulate", game, "-p", str(players),
               "-n", str(games), "-o", os.path.join(tmp, "run.parquet"), "--quiet", "--json"]
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)   # the rusage of this child alone, not of all children
        child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"simulate {game} failed with status {child.returncode}")
    return usage.ru_maxrss / 1024   # Linux reports kilobytes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game_ids", nargs="*", metavar="GAME")
    parser.add_argument("-p", "--players", type=int)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--memory-games", type=int, default=1_000_000)
    parser.add_argument("--policy", default=runner.DEFAULT_POLICY)
    args = parser.parse_args()
    for game in args.game_ids or list(registry.games()):
        players = args.players or registry.get(game).default_players
        for record in runner.measure_speed(game, players, args.games, sorted({1, os.cpu_count() or 1}), args.policy):
            print(json.dumps(record), flush=True)
        print(json.dumps({"game": game, "players": players, "games": args.memory_games,
                          "peak_memory_mb": round(peak_memory_mb(game, players, args.memory_games), 1)}), flush=True)


if __name__ == "__main__":
    main()
