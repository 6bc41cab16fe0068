"""The step API's speed: random games played through it, `apply_action(policy_action())` at every
decision, in this process (simcore/step.py; the issue on open engines asks for at least 5,000
actions a second in every game). One JSON line per game: actions per second (the median of
--reps repetitions of --games games each, after one game that loads the kernels), decisions per
game, and, for scale, how long the same games take as one simulate batch.

    python benchmarks/step.py [GAME ...] [-p N] [--games 20] [--reps 3] [--policy random]
"""
import argparse
import json
import statistics
import time

import simcore
from simcore import registry, runner


def stepped(game: str, players: int, policy: str, games: int, first: int) -> tuple[int, float]:
    """(decisions, seconds) of games first.. stepped with the seats' policies."""
    decisions = 0
    start = time.perf_counter()
    for index in range(first, first + games):
        g = simcore.open_game(game, players=players, seed=1, index=index, policies=[policy])
        while not g.is_terminal():
            g.apply_action(g.policy_action())
            decisions += 1
    return decisions, time.perf_counter() - start


def batch_seconds(game: str, players: int, policy: str, games: int) -> float:
    plan = runner.plan(game, players=players, games=games, seed=1, policies=[policy], workers=1)
    start = time.perf_counter()
    runner.play(plan, 0, games)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games_", nargs="*", metavar="GAME", help="default: every game")
    parser.add_argument("-p", "--players", type=int, default=None, help="default: each game's own")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--policy", default="random")
    args = parser.parse_args()
    for game in args.games_ or list(registry.games()):
        players = args.players or registry.get(game).default_players
        stepped(game, players, args.policy, 1, 10_000)            # load (or compile) the kernels
        batch_seconds(game, players, args.policy, 1)
        rates, per_game = [], 0
        for rep in range(args.reps):
            decisions, seconds = stepped(game, players, args.policy, args.games, rep * args.games)
            rates.append(decisions / seconds)
            per_game = decisions / args.games
        batch = batch_seconds(game, players, args.policy, args.games)
        print(json.dumps({"game": game, "players": players, "policy": args.policy, "games": args.games,
                          "decisions_per_game": round(per_game, 1),
                          "actions_per_second": round(statistics.median(rates)),
                          "batch_actions_per_second": round(per_game * args.games / batch)}), flush=True)


if __name__ == "__main__":
    main()
