"""Search players: decision time per move, and strength against other policies.

    python benchmarks/search.py time [GAME ...] [--policy mcts] [--games 10]
    python benchmarks/search.py cost [GAME ...] [--policy mcts] [--games 10]
    python benchmarks/search.py strength GAME --policy mcts:iters=50 --policy mcts:iters=400 \\
        [--against greedy] [--games 2000] [-p P] [--seed 1] [--out DIR] [--workers N]

time: plays --games games of each game (2 players, Strasbourg 3) with seat 0 searching and the
others greedy, one after another in this thread, and prints per game the seconds per searched
decision and the searched decisions per game (JSON lines).

cost: the time games of `time`, and between two runs of 20,000 random games of the same game
and players on this worker: the cost of one searched game in random games (seconds per searched
game times random games per second), and the search's iterations per second (the issue on strong
play follows this figure from commit to commit).

strength: for each --policy, --games games with rotated seats of that policy against --against in
every other seat, and prints its win rate with a 95% Wilson interval, its win share, and the same
for the opponents (JSON lines; the numbers of the budget curve in the note of issue 7). With
--out DIR each run's rows go to a CSV file in DIR, written a chunk at a time, and a run that finds
its file there resumes after the games it holds (a 2,000-game run of a slow search takes an hour or
more). --workers: threads (default all cores).
"""
import argparse
import importlib
import json
import os
import re
import time

import numpy as np
from statsmodels.stats.proportion import proportion_confint

from simcore import registry, runner
from simcore.players import defaults as policy_defaults, parse as parse_policy

PACKAGES = {"carcassonne": "carcassonne", "carcassonne-ark": "carcassonne", "notre-dame": "notre_dame",
            "strasbourg": "strasbourg", "principato": "principato"}


def players_of(game: str) -> int:
    return max(2, registry.get(game).min_players)


def decision_time(game: str, policy: str, games: int) -> dict:
    players = players_of(game)
    p = runner.plan(game, players=players, games=1, policies=[policy] + ["greedy"] * (players - 1), workers=1)
    play_logged = importlib.import_module(f"simcore.boardgames.{PACKAGES[game]}.spec").play_logged
    seats = runner.policy_ids(p)
    play_logged(p.data, players, seats, 0, 0, search=p.lineup.table)          # compile or load
    searches = 0
    start = time.perf_counter()
    for index in range(games):
        st = play_logged(p.data, players, seats, 1, index, search=p.lineup.table)
        searches += int(st["s_searches"])
    seconds = time.perf_counter() - start
    return {"game": game, "players": players, "policy": p.policies[0], "games": games,
            "searched_decisions_per_game": round(searches / games, 1),
            "ms_per_decision": round(1000 * seconds / max(searches, 1), 2),
            "seconds_per_game": round(seconds / games, 4)}


def random_games_per_second(game: str, players: int, games: int = 20_000) -> float:
    record = next(runner.measure_speed(game, players, games, (1,), "random"))
    return record["games_per_second"]


def cost(game: str, policy: str, games: int) -> dict:
    """decision_time's record with the cost of a searched game in random games of the same game."""
    players = players_of(game)
    before = random_games_per_second(game, players)
    record = decision_time(game, policy, games)
    after = random_games_per_second(game, players)
    rate = (before + after) / 2
    budget = budget_of(game, record["policy"])
    per_game = record["seconds_per_game"]
    record.update({"random_games_per_second": round(rate),
                   "random_games_per_search_game": round(per_game * rate),
                   "iterations_per_second": round(budget * record["searched_decisions_per_game"] / per_game)
                   if budget else None})
    return record


def budget_of(game: str, policy: str) -> int | None:
    """mcts: its iterations per decision (the game's default unless named); flatmc: None (its
    playouts are per option)."""
    base, params = parse_policy(registry.get(game), policy)
    if base != "mcts":
        return None
    return params.get("iters", policy_defaults(registry.get(game))["mcts"]["iters"])


def strength(game: str, policy: str, against: str, games: int, players: int, seed: int,
             out_dir: str | None = None, workers: int | None = None) -> dict:
    start = time.perf_counter()
    p = runner.plan(game, players=players, games=games, seed=seed, rotate_seats=True, workers=workers,
                    policies=[policy] + [against] * (players - 1))
    name = p.policies[0]
    out = None
    if out_dir:
        run_name = re.sub(r"[^A-Za-z0-9.=-]+", "_", f"{game}_{players}p_{name}_vs_{against}_seed{seed}")
        out = os.path.join(out_dir, run_name + ".csv")
    df = runner.run(p, out=out, resume=out is not None, keep_rows=True).frame
    seconds = time.perf_counter() - start
    mine = df[df.policy == name]
    wins = int(mine.win.sum())
    lo, hi = proportion_confint(wins, games, alpha=0.05, method="wilson")
    return {"game": game, "players": players, "policy": name, "against": against, "games": games, "seed": seed,
            "win_rate": round(wins / games, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "win_share": round(float(mine.win_share.mean()), 4),
            "mean_score": round(float(mine.score.mean()), 2),
            "opponent_mean_score": round(float(df[df.policy != name].score.mean()), 2),
            "seconds": round(seconds, 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["time", "cost", "strength"])
    parser.add_argument("game_ids", nargs="*", metavar="GAME")
    parser.add_argument("--policy", action="append")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--games", type=int)
    parser.add_argument("-p", "--players", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", metavar="DIR", help="strength: keep each run's rows in DIR and resume from them")
    parser.add_argument("--workers", type=int)
    args = parser.parse_args()
    games = args.game_ids or [g for g, spec in registry.games().items() if spec.searchable]
    for game in games:
        for policy in args.policy or ["mcts"]:
            if args.what == "time":
                record = decision_time(game, policy, args.games or 10)
            elif args.what == "cost":
                record = cost(game, policy, args.games or 10)
            else:
                record = strength(game, policy, args.against, args.games or 2000,
                                  args.players or players_of(game), args.seed, args.out, args.workers)
            print(json.dumps(record), flush=True)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
