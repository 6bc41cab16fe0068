"""`simcore tournament`: every policy meets the others on common seeds, and one ranking of all.

The matches: every P-subset of the policies (P the player count; every pair for 2 players), or,
with fewer policies than seats, every multiset of P of them with two policies or more. Each match
is an ordinary run (simcore.runner: workers, cluster, resume) of the same N games under the same
seed, seats rotated one place per game, N rounded up to a multiple of P: every policy of a match
sits in every seat equally often, and by symmetry every policy plays every seat equally often in
the tournament.

The ranking (tournament.json, tournament.md, the printed tables) pools every game:
- per policy: its seat-games, win rate (95% Wilson interval), mean score (95% Student-t);
- one rating per policy: openskill's Plackett-Luce model fed every game's ranks (multi-player
  results directly, ties shared), games taken in a fixed order that interleaves the matches
  (game 0 of every match, then game 1, ...), no drift between games (tau = 0: a strategy does not
  change during a tournament). The interval is the model's posterior: mu ± 1.96 sigma;
- the head-to-head matrix: for policies A and B, over every game where both sat, the share of
  (A's seat, B's seat) pairs in which A ranked above B (ties count a half).
"""
from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simcore import registry, results, runner, stats
from simcore.contract import GameSpec, UserError
from simcore.players import lineup as make_lineup, shown_name

Z95 = 1.959963984540054
RESULTS_DIR = "matches"
REPORT_FILES = ("tournament.json", "tournament.md")


@dataclass(frozen=True)
class Match:
    index: int
    policies: tuple[str, ...]          # canonical names, seat order of game 0

    @property
    def label(self) -> str:
        return " vs ".join(shown_name(p) for p in self.policies)


@dataclass(frozen=True)
class TournamentPlan:
    spec: GameSpec
    players: int
    policies: tuple[str, ...]          # canonical names, each once
    games: int                         # per match
    seed: int
    workers: int | None
    data: str | None
    out: str
    matches: tuple[Match, ...]

    def results_path(self, m: Match) -> str:
        slug = re.sub(r"[^A-Za-z0-9_.+-]+", "-", "-".join(shown_name(p) for p in m.policies))[:80]
        return os.path.join(self.out, RESULTS_DIR, f"{m.index:03d}-{slug}.parquet")

    def runner_plan(self, m: Match) -> runner.Plan:
        return runner.plan(self.spec.id, players=self.players, games=self.games, seed=self.seed,
                           policies=m.policies, rotate_seats=True, workers=self.workers, data=self.data)


def seatings(policies: tuple[str, ...], players: int) -> list[tuple[str, ...]]:
    """The policies of every match: every P-subset, or with fewer policies than seats every
    multiset of P with at least two different policies."""
    if len(policies) >= players:
        return list(itertools.combinations(policies, players))
    return [s for s in itertools.combinations_with_replacement(policies, players) if len(set(s)) > 1]


def plan(game: str, policies: Iterable[str], players: int | None = None, games: int = 1000, seed: int = 0,
         workers: int | None = None, data: str | None = None, out: str | None = None) -> TournamentPlan:
    """Checks the request (UserError naming the problem) and lays out the matches."""
    spec = registry.get(game)
    base = runner.plan(game, players=players, games=1, seed=seed, policies=None, workers=workers, data=data)
    names = tuple(dict.fromkeys(runner.seat_policies(spec, 1, [p])[0] for p in policies))
    if len(names) < 2:
        raise UserError("a tournament needs at least two different policies (--policy A --policy B ...)")
    make_lineup(spec, names)                      # one run's limits and distinct names hold for all of them
    if games < 1:
        raise UserError(f"games per match must be at least 1, not {games}")
    games = -(-games // base.players) * base.players
    matches = tuple(Match(i, s) for i, s in enumerate(seatings(names, base.players)))
    return TournamentPlan(spec, base.players, names, games, seed, workers, data, out or f"tournament-{spec.id}",
                          matches)


def check_folder(tp: TournamentPlan, force: bool, resume: bool) -> None:
    """An output folder holding a tournament is replaced only with force, continued with resume."""
    if force and resume:
        raise UserError("give --resume (continue the tournament) or --force (replace it), not both")
    if os.path.exists(tp.out) and not os.path.isdir(tp.out):
        raise UserError(f"output folder {tp.out} is a file")
    held = os.path.join(tp.out, RESULTS_DIR)
    if os.path.isdir(held) and os.listdir(held) and not (force or resume):
        raise UserError(f"{tp.out} already holds a tournament: give --resume to continue it or --force to replace it")
    if force:
        for name in os.listdir(held) if os.path.isdir(held) else ():
            results.remove(os.path.join(held, name))
    os.makedirs(held, exist_ok=True)


class Interrupted(runner.Interrupted):
    """A tournament stopped in match `match` (its file holds `games` games; the matches before it
    are complete)."""

    def __init__(self, out, games, match: Match, signum):
        super().__init__(out, games, signum)
        self.match = match


@dataclass
class Outcome:
    plan: TournamentPlan
    ranking: dict                      # the JSON object (to_json)


def run(tp: TournamentPlan, progress: Callable[[str], None] | None = None, force: bool = False,
        resume: bool = False, player=None, games_done: Callable[[int], None] | None = None) -> Outcome:
    """Plays every match (runner.run into its results file; resume keeps the games a file holds),
    then ranks the policies from all games and writes tournament.json and tournament.md.
    progress(line) after each match; games_done(n) as the tournament's games are played."""
    check_folder(tp, force, resume)
    if progress:
        progress(f"{len(tp.matches)} matches of {tp.games:,} games -> {tp.out}")
    for m in tp.matches:
        path = tp.results_path(m)
        before = m.index * tp.games
        count = (lambda done: games_done(before + done)) if games_done else None
        try:
            outcome = runner.run(tp.runner_plan(m), out=path, resume=resume and os.path.exists(path), player=player,
                                 progress=count)
        except runner.Interrupted as stop:
            raise Interrupted(stop.out, stop.games, m, stop.signal) from stop
        if progress:
            kept = f" ({outcome.start:,} kept from the file)" if outcome.start else ""
            progress(f"[{m.index + 1}/{len(tp.matches)}] {m.label}: {outcome.games:,} games{kept}, "
                     f"{stats.speed_text(outcome.games_per_second)}")
    ranking = rank(tp)
    write_report(tp, ranking)
    return Outcome(tp, ranking)


# ---- ranking ---------------------------------------------------------------------------------

def match_games(tp: TournamentPlan, m: Match) -> tuple[np.ndarray, np.ndarray, pd.DataFrame]:
    """(policy index int[games, players] into tp.policies, rank int[games, players], the rows) of
    one match's results file."""
    frame = results.read(tp.results_path(m)).sort_values(["game_index", "seat"], kind="stable")
    index = {shown_name(p): i for i, p in enumerate(tp.policies)}
    codes = frame["policy"].map(index).to_numpy()
    return (codes.reshape(-1, tp.players).astype(np.int64), frame["rank"].to_numpy().reshape(-1, tp.players),
            frame)


def ratings(order: Iterator[tuple[np.ndarray, np.ndarray]], k: int) -> list[tuple[float, float]]:
    """(mu, sigma) of each of k policies after openskill's Plackett-Luce model has rated every
    game (policy indices, ranks) in the given order; a policy in two seats of a game rates as
    both (one team each, its rating after the game the mean of the two updates)."""
    from openskill.models import PlackettLuce
    model = PlackettLuce(tau=0.0)
    rating = [model.rating(name=str(i)) for i in range(k)]
    for seats, ranks in order:
        teams = model.rate([[rating[s]] for s in seats], ranks=[int(r) for r in ranks])
        updated: dict[int, list] = {}
        for s, team in zip(seats, teams):
            updated.setdefault(int(s), []).append(team[0])
        for s, new in updated.items():
            rating[s] = model.rating(mu=float(np.mean([r.mu for r in new])),
                                     sigma=float(np.mean([r.sigma for r in new])), name=str(s))
    return [(r.mu, r.sigma) for r in rating]


def rank(tp: TournamentPlan) -> dict:
    """The tournament's JSON object: ratings (best first) and the head-to-head matrix."""
    k = len(tp.policies)
    tally = stats.Tally()
    beats, met = np.zeros((k, k)), np.zeros((k, k))
    per_match = []
    for m in tp.matches:
        seats, ranks, frame = match_games(tp, m)
        tally.add(frame)
        per_match.append((seats, ranks))
        for i, j in itertools.permutations(range(tp.players), 2):
            a, b = seats[:, i], seats[:, j]
            differ = a != b
            above = (ranks[:, i] < ranks[:, j]) + 0.5 * (ranks[:, i] == ranks[:, j])
            np.add.at(beats, (a[differ], b[differ]), above[differ])
            np.add.at(met, (a[differ], b[differ]), 1.0)
    longest = max(len(s) for s, _ in per_match)
    order = ((s[g], r[g]) for g in range(longest) for s, r in per_match if g < len(s))
    rated = ratings(order, k)
    by_policy = tally.by_policy()
    rows = []
    for i, name in enumerate(tp.policies):
        shown = shown_name(name)
        row = by_policy.loc[shown]
        mu, sigma = rated[i]
        rows.append({"policy": shown, "definition": name, "rating": mu, "ci": [mu - Z95 * sigma, mu + Z95 * sigma],
                     **stats.rate_fields(row)})
    rows.sort(key=lambda r: -r["rating"])
    names = [shown_name(p) for p in tp.policies]
    head = {names[a]: {names[b]: {"share": beats[a, b] / met[a, b], "pairs": int(met[a, b])}
                       for b in range(k) if met[a, b] > 0} for a in range(k)}
    return {"game": tp.spec.id, "players": tp.players, "seed": tp.seed, "games_per_match": tp.games,
            "matches": len(tp.matches), "games": tp.games * len(tp.matches), "ratings": rows,
            "head_to_head": head,
            "method": "rating: openskill Plackett-Luce (tau 0) over every game's ranks, games interleaved across "
                      "matches; ci: mu ± 1.96 sigma of its posterior; win_ci: 95% Wilson over seat-games; "
                      "head_to_head: share of (row seat, column seat) pairs in common games where the row "
                      "policy ranked above (ties a half)"}


# ---- report ----------------------------------------------------------------------------------

def ranking_rows(ranking: dict) -> tuple[list[str], list[list[str]]]:
    """The ranking as a table, best first: rating ± the half width of its 95% interval."""
    header = ["policy", "rating", "± 95%", "games", "win rate", "95% CI", "mean score"]
    rows = [[r["policy"], f"{r['rating']:.2f}", f"{(r['ci'][1] - r['ci'][0]) / 2:.2f}", f"{r['games']:,}",
             f"{100 * r['win_rate']:.1f}%", f"{100 * r['win_ci'][0]:.1f}–{100 * r['win_ci'][1]:.1f}%",
             f"{r['mean_score']:.2f}"] for r in ranking["ratings"]]
    return header, rows


def head_to_head_rows(ranking: dict) -> tuple[list[str], list[list[str]]]:
    names = [r["policy"] for r in ranking["ratings"]]
    head = ranking["head_to_head"]
    rows = [[a] + [("" if a == b else f"{100 * head[a][b]['share']:.1f}%" if b in head[a] else "–") for b in names]
            for a in names]
    return ["row ranks above column"] + names, rows


def markdown(tp: TournamentPlan, ranking: dict) -> str:
    lines = [f"# Tournament · {tp.spec.id} · {tp.players} players",
             "", f"{len(tp.matches)} matches of {tp.games:,} games, seed {tp.seed}, seats rotated; policies:", ""]
    lines += [f"- `{p}`" for p in tp.policies]
    for title, (header, rows) in (("Ranking", ranking_rows(ranking)), ("Head to head", head_to_head_rows(ranking))):
        lines += ["", f"## {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
    lines += ["", "Method: " + ranking["method"] + ".", ""]
    return "\n".join(lines)


def write_report(tp: TournamentPlan, ranking: dict) -> None:
    with open(os.path.join(tp.out, "tournament.json"), "w") as f:
        json.dump(ranking, f, indent=1)
    with open(os.path.join(tp.out, "tournament.md"), "w") as f:
        f.write(markdown(tp, ranking))
