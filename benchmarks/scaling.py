"""Scaling with cores: games per second on 1, 2, 4, ... workers up to all cores, and the speed-up
over 1 worker, as JSON lines.

    python benchmarks/scaling.py GAME [-p N] [--games N]
"""
import argparse
import json
import os

from simcore import runner


def worker_counts(cores: int) -> list[int]:
    return sorted({2**k for k in range(cores.bit_length()) if 2**k <= cores} | {cores})


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("-p", "--players", type=int)
    parser.add_argument("--games", type=int, default=40_000)
    args = parser.parse_args()
    one_worker = None
    for record in runner.measure_speed(args.game, args.players, args.games, worker_counts(os.cpu_count() or 1)):
        one_worker = one_worker or record["games_per_second"]
        print(json.dumps({**record, "speedup": record["games_per_second"] / one_worker}), flush=True)


if __name__ == "__main__":
    main()
