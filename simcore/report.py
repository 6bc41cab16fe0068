"""A report on one or more results files: seat advantage, strategies, scores, game length, counters.

`write_report(paths, out_dir, fmt)` reads results files and writes `report.md` (the PNG plots
beside it, linked) or `report.html` (the same PNGs also embedded as base64) into out_dir; it
returns the paths written. `report_frames` does the same from DataFrames already in memory.
Every section is computed by a pure function of a DataFrame of results rows (one group's rows:
one game, player count, component data and lineup), so notebooks and tests can call them directly.

Several files: their rows are grouped by (game, players, data, lineup). A game's lineup is the
multiset of its seats' policies, as sorted text: "random ×4", "greedy ×2, mcts" (rotated seats
keep it; a run normally has one). Files of the same group are pooled — their games counted
together, each file's game_index kept apart by a `source` column (the file's position in the
list) — and every group gets its own section, titled with its lineup: a run of search players
(`--policy mcts`) and a random run of the same game are never pooled. When groups share (game,
players, data) but differ in lineup, a block "Seat advantage by lineup" near the top puts their
seat advantages side by side: one row per lineup, each seat's win share with its simultaneous
95% interval and the chi-square p-value, computed within that lineup's games alone (the same
numbers as its section). Two pooled files that hold the same games (same seed, same policies at
a common game index) are flagged: pooled, those games count twice. The files are read whole
(about 4x the rows' size in memory at the peak).

Methods, as the report states them:
- lineup: per game, the seats' policy codes (pandas factorize, names sorted) sorted within the
  game and compared row by row (numpy, no Python loop over games); the distinct rows become the
  texts, each policy once with "×n" when n seats play it.
- seat advantage: a seat's wins are the sum of its win_share (a game won by k tied seats gives
  each 1/k), so the seats' counts add up to the number of games; 95% simultaneous intervals are
  Goodman's (statsmodels `multinomial_proportions_confint(method="goodman")`, whose closed form
  takes these fractional counts as they are); the chi-square test (scipy `chisquare`, k − 1
  degrees of freedom) compares the counts with equal shares.
- strategies: win rate per policy over every (game, seat) it played, ties counting as wins, with
  the 95% Wilson interval of `simcore stats`. Head-to-head: every pair of seats (a, b) of one game
  whose policies are A and B is one comparison, won by A when a ranked above b (a lower rank); a
  tie in rank is half a win each way. Rating: Bradley–Terry strengths fitted to those pairwise
  wins by the MM algorithm (Hunter 2004), given as log-strengths normalised to mean 0, so
  P(A beats B) = 1 / (1 + exp(θB − θA)). When the maximum-likelihood fit does not exist (a policy
  won or lost every comparison: the wins graph is not strongly connected) every compared pair
  gets half a win each way added, and the report says so.
- scores: mean, sample sd (ddof 1) and linear-interpolation quantiles (pandas' default).
  Margin of victory: the best score minus the second best of the game (0 when the top score is
  shared and the tie-break decided). Ties: games won by more than one seat.
- game columns (a counter equal on every seat of every game, or a GameSpec's game_columns): their
  distribution over games; seat columns: their mean per seat and per policy.
"""
from __future__ import annotations

import base64
import html
import math
import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simcore import results, stats
from simcore.registry import UserError

FORMATS = ("md", "html")
CONFIDENCE = 0.95
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
SOURCE = "source"          # column of pooled rows: the file's position in the list of paths
_GROUP_KEYS = ["game", "players", "data"]
_NOT_COUNTERS = set(results.BASE_DTYPES) | {results.DATA_COLUMN, SOURCE}


# ---- reading ---------------------------------------------------------------------------

def read_results(paths) -> list[tuple[str, pd.DataFrame]]:
    """(path, rows) of each results file; a UserError for a missing, empty, unreadable or
    malformed file (not one row per seat of every game)."""
    paths = list(paths)
    if not paths:
        raise UserError("no results files given")
    read = []
    for path in paths:
        ext = os.path.splitext(path)[1].lower()
        if ext not in results.PARQUET_EXTENSIONS + results.CSV_EXTENSIONS:
            raise UserError(f"results file {path}: unknown extension '{ext}' (use .parquet, .pq or .csv)")
        if os.path.isfile(path) and os.path.getsize(path) == 0:
            raise UserError(f"results file {path} is empty")
        frame = results.read(path)
        if frame.empty:
            raise UserError(f"results file {path} holds no games")
        read.append((path, frame))
    return read


def _check_games(path: str, frame: pd.DataFrame) -> None:
    """One row per seat 0..players-1 of every game, in game order (as simcore writes them)."""
    for (_, players), rows in frame.groupby(["game", "players"], sort=False):
        players = int(players)
        seats = rows["seat"].to_numpy()
        index = rows["game_index"].to_numpy()
        ok = len(rows) % players == 0
        if ok:
            ok = (seats.reshape(-1, players) == np.arange(players)).all() and \
                 (index.reshape(-1, players) == index[::players, None]).all()
        if not ok:
            raise UserError(f"results file {path}: not one row per seat 0..{players - 1} of every game")


def lineup_text(policies) -> str:
    """The lineup of one game from its seats' policies: each policy once, sorted, with "×n" when
    n seats play it: ["mcts", "greedy", "greedy"] -> "greedy ×2, mcts"."""
    names, counts = np.unique(np.asarray([str(p) for p in policies]), return_counts=True)
    return ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in zip(names, counts))


def game_lineups(frame: pd.DataFrame) -> tuple[np.ndarray, list[str]]:
    """(per game, the index of its lineup in the list; the lineups' texts) of rows of one player
    count in game order (one row per seat of every game). Vectorised: the policy codes, sorted
    within each game, compared as rows; a run with one lineup costs one pass over the codes."""
    players = _players(frame)
    codes, names = pd.factorize(frame["policy"], sort=True)
    grid = np.sort(codes.reshape(-1, players).astype(np.int64), axis=1)
    if len(grid) == 0 or (grid == grid[0]).all():
        distinct, index = grid[:1], np.zeros(len(grid), dtype=np.int64)
    elif len(names) ** players < 2 ** 62:      # a game's sorted codes as one integer: a 1-d unique
        weights = len(names) ** np.arange(players - 1, -1, -1, dtype=np.int64)
        _, first, index = np.unique(grid @ weights, return_index=True, return_inverse=True)
        distinct = grid[first]
    else:
        distinct, index = np.unique(grid, axis=0, return_inverse=True)
    names = np.asarray(names, dtype=object)
    return np.asarray(index).reshape(-1), [lineup_text(names[row]) for row in distinct]


@dataclass
class Group:
    """The pooled rows of one (game, players, data, lineup), in game order, and where they came from."""
    game: str
    players: int
    data: str
    frame: pd.DataFrame
    sources: dict[int, str]     # `source` value -> the file (its position in the list given)
    lineup: str = ""            # the seats' policies of every game of the group: "greedy ×2, mcts"

    @property
    def games(self) -> int:
        return len(self.frame) // self.players

    @property
    def seeds(self) -> list[int]:
        return sorted(int(s) for s in self.frame["seed"].unique())

    def tag(self) -> str:
        """'(N games, seed S)': what every number of the group's section comes from."""
        return tag(self.frame)


def tag(frame: pd.DataFrame) -> str:
    """'(N games, seed S)' or '(N games, seeds S1, S2)' of a group's rows."""
    games = len(frame) // int(frame["players"].iloc[0])
    seeds = sorted(int(s) for s in frame["seed"].unique())
    seed_text = f"seed {seeds[0]}" if len(seeds) == 1 else "seeds " + ", ".join(map(str, seeds))
    return f"({games:,} games, {seed_text})"


def group_frames(named: list[tuple[str, pd.DataFrame]]) -> list[Group]:
    """The rows of every (game, players, data, lineup), pooled over files, each with a `source`
    column; sorted by that key."""
    parts: dict[tuple, list[tuple[int, str, pd.DataFrame]]] = {}
    for i, (path, frame) in enumerate(named):
        if frame.empty:
            raise UserError(f"results file {path} holds no games")
        _check_games(path, frame)
        keys = frame[_GROUP_KEYS].drop_duplicates()
        # a file is usually one run: its rows as they are, no copy per group
        split = [(tuple(keys.iloc[0]), frame)] if len(keys) == 1 else frame.groupby(_GROUP_KEYS, sort=False)
        for key, rows in split:
            index, lineups = game_lineups(rows)
            # one lineup (a run, rotated seats or not): no copy either
            by_lineup = [(lineups[0], rows)] if len(lineups) == 1 else \
                [(text, rows[np.repeat(index == j, int(key[1]))]) for j, text in enumerate(lineups)]
            for lineup, piece in by_lineup:
                parts.setdefault((str(key[0]), int(key[1]), str(key[2]), lineup), []).append((i, path, piece))
    groups = []
    for (game, players, data, lineup), pieces in sorted(parts.items()):
        common = [c for c in pieces[0][2].columns if all(c in rows.columns for _, _, rows in pieces)]
        tagged = [rows[common].assign(**{SOURCE: i}) for i, _, rows in pieces]
        frame = _ordered(tagged[0] if len(tagged) == 1 else pd.concat(tagged, ignore_index=True))
        groups.append(Group(game, players, data, frame, {i: path for i, path, _ in pieces}, lineup))
    return groups


def lineup_families(groups: list[Group]) -> list[list[Group]]:
    """The groups of every (game, players, data) played by two lineups or more, in order."""
    families: dict[tuple, list[Group]] = {}
    for group in groups:
        families.setdefault((group.game, group.players, group.data), []).append(group)
    return [family for family in families.values() if len(family) > 1]


# ---- the sections: pure functions of one group's rows -----------------------------------

def repeated_games(frame: pd.DataFrame) -> list[tuple[int, int]]:
    """Pairs (i, j) of pooled sources (the `source` values) that hold the same games: the same
    seed and, at the first game index both hold, the same policy in every seat (a game depends
    only on the seed, its index and its seats' policies)."""
    if SOURCE not in frame.columns:
        return []
    players = _players(frame)
    runs = {}
    for source, rows in _ordered(frame).groupby(SOURCE, sort=True):
        runs[int(source)] = (rows["seed"].iloc[0], rows["game_index"].to_numpy()[::players],
                             rows["policy"].to_numpy().reshape(-1, players))
    pairs = []
    for i, (seed_i, index_i, policies_i) in runs.items():
        for j, (seed_j, index_j, policies_j) in runs.items():
            if j <= i or seed_i != seed_j:
                continue
            common = np.intersect1d(index_i, index_j)
            if len(common) and (policies_i[np.flatnonzero(index_i == common[0])[0]]
                                == policies_j[np.flatnonzero(index_j == common[0])[0]]).all():
                pairs.append((i, j))
    return pairs


def _ordered(frame: pd.DataFrame) -> pd.DataFrame:
    """frame with every game's rows together, seats 0..players-1 in order (as results files hold
    them: then frame itself, not a sorted copy)."""
    keys = [SOURCE, "game_index"] if SOURCE in frame.columns else ["game_index"]
    players = _players(frame)
    if len(frame) % players == 0:
        seats = frame["seat"].to_numpy().reshape(-1, players)
        grouped = (seats == np.arange(players)).all()
        for key in keys:
            values = frame[key].to_numpy().reshape(-1, players)
            grouped = grouped and (values == values[:, :1]).all()
        if grouped:
            return frame.reset_index(drop=True)
    return frame.sort_values(keys + ["seat"], kind="stable", ignore_index=True)


def _players(frame: pd.DataFrame) -> int:
    players = frame["players"].unique()
    if len(players) != 1:
        raise ValueError("the rows of one player count are expected")
    return int(players[0])


def _grid(frame: pd.DataFrame, column: str) -> np.ndarray:
    """column as [games, seats] (frame in game order, one row per seat)."""
    return frame[column].to_numpy().reshape(-1, _players(frame))


def seat_advantage(frame: pd.DataFrame) -> dict:
    """Win share per seat with 95% simultaneous (Goodman) intervals and a chi-square test against
    equal shares. Returns {"table": DataFrame indexed by seat with policy, games, wins (sum of
    win_share), win_share, lo, hi, expected, win_rate (ties count as wins); "chi2", "dof", "p",
    "expected", "games"}."""
    from scipy.stats import chisquare
    from statsmodels.stats.proportion import multinomial_proportions_confint

    frame = _ordered(frame)
    players = _players(frame)
    games = len(frame) // players
    wins = _grid(frame, "win_share").sum(axis=0)
    intervals = multinomial_proportions_confint(wins, alpha=1 - CONFIDENCE, method="goodman")
    test = chisquare(wins, np.full(players, games / players))
    table = pd.DataFrame({
        "policy": frame.groupby("seat")["policy"].agg(lambda s: ", ".join(sorted(s.unique()))).to_numpy(),
        "games": games,
        "wins": wins,
        "win_share": wins / games,
        "lo": intervals[:, 0],
        "hi": intervals[:, 1],
        "expected": 1 / players,
        "win_rate": _grid(frame, "win").mean(axis=0),
    }, index=pd.Index(range(players), name="seat"))
    return {"table": table, "chi2": float(test.statistic), "dof": players - 1, "p": float(test.pvalue),
            "expected": 1 / players, "games": games}


def seat_lines(advantage: dict, frame: pd.DataFrame) -> list[str]:
    """The plain-language lines: 'seat 0 wins 31.2% [30.6, 31.8] vs 33.3% expected (N games, seed S)'."""
    expected = _percent_plain(advantage["expected"])
    return [f"seat {seat} wins {100 * row.win_share:.1f}% [{100 * row.lo:.1f}, {100 * row.hi:.1f}] "
            f"vs {expected} expected {tag(frame)}" for seat, row in advantage["table"].iterrows()]


def policy_rates(frame: pd.DataFrame) -> pd.DataFrame:
    """Per policy, over every (game, seat) it played: seat_games, games (games it played in),
    win_rate (ties count as wins), win_lo, win_hi (95% Wilson), win_share, mean_score."""
    frame = _ordered(frame)
    table = stats.by_policy(frame)
    keys = [SOURCE, "game_index"] if SOURCE in frame.columns else ["game_index"]
    games = frame.drop_duplicates(keys + ["policy"]).groupby("policy").size()
    out = pd.DataFrame({"seat_games": table["n"].astype(int), "games": games.reindex(table.index)})
    for column in ["win_rate", "win_lo", "win_hi", "win_share", "mean_score"]:
        out[column] = table[column]
    out.index.name = "policy"
    return out


def seat_balance(frame: pd.DataFrame) -> tuple[pd.DataFrame, bool]:
    """(seat-games per policy and seat, whether every policy played every seat equally often,
    give or take one game per pooled file: the rotated-seat design that separates strategy from seat)."""
    counts = pd.crosstab(frame["policy"], frame["seat"]).reindex(columns=range(_players(frame)), fill_value=0)
    files = frame[SOURCE].nunique() if SOURCE in frame.columns else 1
    balanced = bool(((counts.max(axis=1) - counts.min(axis=1)) <= files).all())
    return counts, balanced


def head_to_head(frame: pd.DataFrame) -> dict:
    """For every ordered pair of policies (A, B): "wins" = A's wins over B in seat-pair comparisons
    (a tie in rank half a win each way), "pairs" = those comparisons, "share" = wins / pairs (NaN
    where A and B never met, and on the diagonal), "games" = games where both played."""
    frame = _ordered(frame)
    names = sorted(frame["policy"].unique())
    codes = pd.Categorical(frame["policy"], categories=names).codes.reshape(-1, _players(frame)).astype(np.int64)
    rank = _grid(frame, "rank").astype(np.int64)
    k = len(names)
    wins = np.zeros(k * k)
    pairs = np.zeros(k * k)
    players = codes.shape[1]
    for a in range(players):
        for b in range(players):
            if a == b:
                continue
            cell = codes[:, a] * k + codes[:, b]
            credit = (rank[:, a] < rank[:, b]) + 0.5 * (rank[:, a] == rank[:, b])
            wins += np.bincount(cell, weights=credit, minlength=k * k)
            pairs += np.bincount(cell, minlength=k * k)
    present = np.zeros((len(codes), k), dtype=np.int64)
    np.put_along_axis(present, codes, 1, axis=1)
    games = present.T @ present
    wins, pairs = wins.reshape(k, k), pairs.reshape(k, k)
    np.fill_diagonal(wins, 0)
    np.fill_diagonal(pairs, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(pairs > 0, wins / pairs, np.nan)
    np.fill_diagonal(games, 0)
    index = pd.Index(names, name="policy")
    return {name: pd.DataFrame(values, index=index, columns=names)
            for name, values in [("wins", wins), ("pairs", pairs.astype(int)), ("share", share), ("games", games)]}


def bradley_terry(wins: pd.DataFrame, tolerance: float = 1e-12, max_iterations: int = 100_000) -> dict:
    """Bradley–Terry strengths from pairwise wins (wins.loc[A, B]: A's wins over B, may be
    fractional) by Hunter's (2004) MM algorithm: γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j).
    Returns {"strength": log-strengths normalised to mean 0 (NaN when the policies do not all
    meet, directly or through others), "regularised": whether half a win each way was added to
    every compared pair because the maximum-likelihood fit does not exist, "iterations"}."""
    from scipy.sparse.csgraph import connected_components

    names = list(wins.index)
    w = wins.to_numpy(dtype=float).copy()
    np.fill_diagonal(w, 0)
    n = w + w.T
    nan = pd.Series(np.nan, index=wins.index, name="strength")
    if len(names) < 2 or connected_components(n > 0, directed=False)[0] > 1:
        return {"strength": nan, "regularised": False, "iterations": 0}
    regularised = connected_components(w > 0, directed=True, connection="strong")[0] > 1
    if regularised:
        w = w + 0.5 * (n > 0)
        n = w + w.T
    total = w.sum(axis=1)
    gamma = np.ones(len(names))
    iterations = 0
    for iterations in range(1, max_iterations + 1):
        new = total / (n / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new /= np.exp(np.log(new).mean())
        done = np.max(np.abs(np.log(new) - np.log(gamma))) < tolerance
        gamma = new
        if done:
            break
    strength = np.log(gamma)
    return {"strength": pd.Series(strength - strength.mean(), index=wins.index, name="strength"),
            "regularised": bool(regularised), "iterations": iterations}


def score_distribution(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Per seat or per policy: n (seat-games), mean, sd, min, q5 .. q95, max of the score."""
    grouped = frame.groupby(by)["score"]
    table = pd.DataFrame({"n": grouped.size(), "mean": grouped.mean(), "sd": grouped.std(), "min": grouped.min()})
    quantiles = grouped.quantile(list(QUANTILES)).unstack()
    for q in QUANTILES:
        table[_quantile_name(q)] = quantiles[q]
    table["max"] = grouped.max()
    if by == "seat":
        table.insert(0, "policy", frame.groupby("seat")["policy"].agg(lambda s: ", ".join(sorted(s.unique()))))
    return table


def points_by_category(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Mean points of every score category (pts_ prefix dropped) and the mean score, per seat or policy."""
    columns = [c for c in frame.columns if c.startswith("pts_")]
    table = frame.groupby(by)[columns + ["score"]].mean()
    return table.rename(columns=lambda c: c.removeprefix("pts_"))


def margins(frame: pd.DataFrame) -> dict:
    """Margin of victory (best score minus second best, per game): {"summary": mean, sd, min,
    quantiles, max; "games"; "ties": share of games won by more than one seat;
    "tiebreaks": share of games whose top score was shared but a tie-break gave one winner}."""
    frame = _ordered(frame)
    scores = np.sort(_grid(frame, "score").astype(np.int64), axis=1)
    margin = pd.Series(scores[:, -1] - scores[:, -2])
    winners = _grid(frame, "win").sum(axis=1)
    return {"summary": _distribution(margin), "games": len(margin),
            "ties": float((winners > 1).mean()),
            "tiebreaks": float(((margin == 0).to_numpy() & (winners == 1)).mean())}


def counter_columns(frame: pd.DataFrame) -> tuple[list[str], list[str]]:
    """(seat columns, game columns) of the rows: the game's own counters. A registered game's
    GameSpec says which is which; otherwise a counter equal on every seat of every game is a game column."""
    counters = [c for c in frame.columns if c not in _NOT_COUNTERS and not c.startswith("pts_")]
    spec = _spec(str(frame["game"].iloc[0]))
    if spec is not None and set(counters) <= set(spec.seat_columns) | set(spec.game_columns):
        return ([c for c in counters if c in spec.seat_columns], [c for c in counters if c in spec.game_columns])
    frame = _ordered(frame)
    same = {c: bool((_grid(frame, c) == _grid(frame, c)[:, :1]).all()) for c in counters}
    return [c for c in counters if not same[c]], [c for c in counters if same[c]]


def game_counters(frame: pd.DataFrame) -> pd.DataFrame:
    """Every game column (turns, scorings, discards, ...): mean, sd, min, quantiles, max over games."""
    frame = _ordered(frame)
    _, columns = counter_columns(frame)
    per_game = frame.iloc[::_players(frame)]
    return pd.DataFrame({c: _distribution(per_game[c]) for c in columns}).T.rename_axis("column")


def seat_counters(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """The mean of every seat column (outbreaks, discarded units, ...) per seat or per policy."""
    columns, _ = counter_columns(frame)
    return frame.groupby(by)[columns].mean()


def _distribution(values: pd.Series) -> pd.Series:
    values = values.astype(float)
    quantiles = values.quantile(list(QUANTILES))
    return pd.Series({"mean": values.mean(), "sd": values.std(), "min": values.min(),
                      **{_quantile_name(q): quantiles[q] for q in QUANTILES}, "max": values.max()})


def _quantile_name(q: float) -> str:
    return f"q{round(100 * q)}"


def _spec(game: str):
    from simcore import registry
    try:
        return registry.games().get(game)
    except Exception:   # noqa: BLE001 -- a broken game package must not stop a report on the others' results
        return None


# ---- plots -----------------------------------------------------------------------------

def _figure(width: float, height: float):
    # a Figure on the Agg canvas, never pyplot: no screen, no global backend switch, no figure leaks
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    figure = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def plot_score_histograms(frame: pd.DataFrame, path: str, title: str) -> None:
    """One histogram of the final score per seat, on a shared score axis."""
    frame = _ordered(frame)
    players = _players(frame)
    scores = _grid(frame, "score")
    policies = frame.groupby("seat")["policy"].agg(lambda s: ", ".join(sorted(s.unique())))
    low, high = int(scores.min()), int(scores.max())
    bins = np.arange(low, high + 2) - 0.5 if high - low <= 60 else np.linspace(low, high + 1, 41)
    columns = 2 if players == 4 else min(players, 3)
    rows = math.ceil(players / columns)
    figure = _figure(3.4 * columns, 2.6 * rows + 0.5)
    axes = figure.subplots(rows, columns, sharex=True, sharey=True, squeeze=False).ravel()
    for seat in range(players):
        ax = axes[seat]
        ax.hist(scores[:, seat], bins=bins, color=f"C{seat}")
        ax.set_title(f"seat {seat} ({policies[seat]})", fontsize=9)
        ax.set_xlabel("score")
        ax.set_ylabel("games")
        ax.tick_params(labelbottom=True)
    for ax in axes[players:]:
        ax.set_visible(False)
    figure.suptitle(f"{title}: score per seat", fontsize=10)
    figure.savefig(path)


def plot_win_share(advantage: dict, path: str, title: str) -> None:
    """Win share per seat with its 95% simultaneous interval as error bars; equal share dashed."""
    table = advantage["table"]
    figure = _figure(6, 3.8)
    ax = figure.subplots()
    share = table["win_share"].to_numpy()
    errors = np.vstack([share - table["lo"].to_numpy(), table["hi"].to_numpy() - share])
    seats = table.index.to_numpy()
    ax.bar(seats, share, yerr=errors, capsize=6, color=[f"C{s}" for s in seats])
    ax.axhline(advantage["expected"], linestyle="--", color="black", linewidth=1, label="equal share")
    ax.set_xticks(seats, [f"seat {s}" for s in seats])
    ax.set_ylabel("win share")
    ax.set_ylim(0, max(1e-9, float(table["hi"].max())) * 1.15)
    ax.legend(loc="upper right", fontsize=8)
    ax.set_title(f"{title}\nwin share per seat, 95% simultaneous intervals", fontsize=10)
    figure.savefig(path)


def plot_points(by_seat: pd.DataFrame, by_policy: pd.DataFrame | None, path: str, title: str) -> None:
    """Mean points per category as stacked bars per seat (and per policy): gains up, losses down."""
    panels = [("seat", by_seat)] + ([("policy", by_policy)] if by_policy is not None else [])
    figure = _figure(5 + 3 * (len(panels) - 1), 4.2)
    axes = figure.subplots(1, len(panels), squeeze=False).ravel()
    categories = [c for c in by_seat.columns if c != "score"]
    colours = [f"C{i}" if len(categories) <= 10 else _tab20(i) for i in range(len(categories))]
    for ax, (by, table) in zip(axes, panels):
        labels = [f"seat {i}" for i in table.index] if by == "seat" else [str(i) for i in table.index]
        x = np.arange(len(table))
        up, down = np.zeros(len(table)), np.zeros(len(table))
        for category, colour in zip(categories, colours):
            values = table[category].to_numpy(dtype=float)
            bottom = np.where(values >= 0, up, down)
            ax.bar(x, values, bottom=bottom, color=colour, label=category)
            up += np.maximum(values, 0)
            down += np.minimum(values, 0)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(x, labels)
        ax.set_ylabel("mean points")
        ax.set_title(f"per {by}", fontsize=9)
    axes[-1].legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=7)
    figure.suptitle(f"{title}: points by category", fontsize=10)
    figure.savefig(path)


def _tab20(i: int):
    from matplotlib import colormaps
    return colormaps["tab20"](i % 20)


# ---- the document ----------------------------------------------------------------------

@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]


@dataclass
class Image:
    path: str
    alt: str


def _percent(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:.1f}%"


def _percent_plain(x: float) -> str:
    """25% rather than 25.0%, 33.3% for a third."""
    text = f"{100 * x:.1f}"
    return text.removesuffix(".0") + "%"


def _number(x, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and not np.isfinite(x)):
        return "n/a"
    if float(x) == round(float(x)) and abs(float(x)) < 1e15:
        return f"{round(float(x)):,}"
    return f"{float(x):,.{digits}f}"


def _pvalue(p: float) -> str:
    return "< 1e-300" if p == 0 else f"{p:.3g}"


def _table(title: str, table: pd.DataFrame, index_name: str, formats: dict) -> Table:
    columns = [index_name] + [c for c in formats if c in table.columns]
    rows = [[str(index)] + [formats[c](row[c]) for c in columns[1:]] for index, row in table.iterrows()]
    return Table(title, columns, rows)


def _distribution_formats(columns) -> dict:
    formats = {c: _number for c in columns}
    formats.update({"policy": str, "n": _number})
    return formats


def lineup_blocks(family: list[Group], advantages: dict[int, dict] | None = None) -> list:
    """The seat advantage of every lineup of one (game, players, data) side by side: a table with
    one row per lineup (each seat's win share and simultaneous 95% interval, the chi-square
    p-value, its games and seeds) and one plain line per lineup. advantages: seat_advantage of
    each group by id(group), where already computed."""
    advantages = advantages or {}
    first = family[0]
    players = first.players
    expected = _percent_plain(1 / players)
    rows, lines, unbalanced = [], [], []
    for group in family:
        advantage = advantages.get(id(group)) or seat_advantage(group.frame)
        table, t = advantage["table"], group.tag()
        cells = [f"{100 * row.win_share:.1f}% [{100 * row.lo:.1f}, {100 * row.hi:.1f}]" for _, row in table.iterrows()]
        rows.append([group.lineup] + cells + [_pvalue(advantage["p"]), t])
        lines.append(f"{group.lineup}: " + ", ".join(f"seat {seat} wins {cell}" for seat, cell in enumerate(cells))
                     + f" vs {expected} expected; chi-square p = {_pvalue(advantage['p'])} {t}")
        if group.frame["policy"].nunique() > 1 and not seat_balance(group.frame)[1]:
            unbalanced.append(f"{group.lineup} {t}")
    blocks: list = [Table(f"{first.game} · {players} players · data {first.data}: win share per seat by lineup, "
                          f"95% simultaneous intervals (Goodman), vs {expected} expected; p: chi-square test against "
                          "equal shares; each row (N games, seed S)",
                          ["lineup"] + [f"seat {s}" for s in range(players)] + ["p", "games"], rows)]
    blocks += lines
    if unbalanced:
        blocks.append("Warning: in " + "; ".join(unbalanced) + " the seats did not all play the same policies equally "
                      "often (run with --rotate-seats): those shares mix seat advantage with strategy.")
    return blocks


def group_blocks(group: Group, images: dict[str, str], advantage: dict | None = None) -> list:
    """The section of one group: headings (str starting with '#'), paragraphs (str), Tables, Images.
    advantage: the group's seat_advantage, where already computed."""
    frame, t = group.frame, group.tag()
    lineup = f" · lineup {group.lineup}" if group.lineup else ""
    blocks: list = [f"## {group.game} · {group.players} players · data {group.data}{lineup} {t}"]
    blocks.append("Files: " + ", ".join(f"`{p}`" for p in group.sources.values()) + ".")
    for first, second in repeated_games(frame):
        blocks.append(f"Note: `{group.sources[first]}` and `{group.sources[second]}` hold the same games (same seed, "
                      "same policies): pooled, those games count twice.")

    # seat advantage
    advantage = advantage or seat_advantage(frame)
    blocks.append("### Seat advantage")
    blocks.extend(seat_lines(advantage, frame))
    blocks.append(_table(f"Win share per seat, 95% simultaneous intervals (Goodman) {t}",
                         advantage["table"].assign(interval=[f"[{100 * lo:.1f}, {100 * hi:.1f}]" for lo, hi in
                                                             zip(advantage["table"]["lo"], advantage["table"]["hi"])]),
                         "seat", {"policy": str, "games": _number, "wins": _number, "win_share": _percent,
                                  "interval": str, "expected": _percent_plain, "win_rate": _percent}))
    verdict = "the seats' shares differ" if advantage["p"] < 1 - CONFIDENCE else "no evidence that the seats' shares differ"
    blocks.append(f"Chi-square test against equal shares: χ² = {advantage['chi2']:.2f}, df = {advantage['dof']}, "
                  f"p = {_pvalue(advantage['p'])} — {verdict} at the 5% level {t}.")
    blocks.append("Method: wins are win_share summed: a game won by k tied seats counts 1/k for each, so the seats' counts "
                  "add up to the games; the intervals hold for all seats at once (statsmodels "
                  "multinomial_proportions_confint, method goodman, on these counts). win_rate counts a tied win as a win.")
    if frame["policy"].nunique() > 1 and not seat_balance(frame)[1]:
        blocks.append("Warning: the seats did not all play the same policies equally often (run with --rotate-seats): "
                      f"these shares mix seat advantage with strategy {t}.")
    blocks.append(Image(images["win_share"], f"win share per seat with 95% simultaneous intervals {t}"))

    # strategy comparison
    blocks.append("### Strategy comparison")
    rates = policy_rates(frame)
    blocks.append(_table(f"Win rate per policy (ties count as wins), 95% Wilson interval; seat_games = the (game, seat) "
                         f"pairs it played {t}",
                         rates.assign(interval=[f"[{100 * lo:.1f}, {100 * hi:.1f}]" for lo, hi in
                                                zip(rates["win_lo"], rates["win_hi"])]),
                         "policy", {"seat_games": _number, "games": _number, "win_rate": _percent, "interval": str,
                                    "win_share": _percent, "mean_score": _number}))
    if len(rates) < 2:
        blocks.append(f"One policy ({rates.index[0]}) played every seat: nothing to compare {t}.")
    else:
        counts, balanced = seat_balance(frame)
        blocks.append(_table(f"Seat-games per policy and seat {t}", counts.rename(columns=lambda s: f"seat {s}"),
                             "policy", {f"seat {s}": _number for s in counts.columns}))
        blocks.append("Every policy played every seat equally often (rotated seats): the comparison is free of seat "
                      f"advantage {t}." if balanced else
                      "Warning: the policies did not play every seat equally often (run with --rotate-seats): the "
                      f"comparison below mixes strategy with seat advantage {t}.")
        h2h = head_to_head(frame)
        names = list(h2h["share"].index)
        blocks.append(Table(f"Head-to-head: share of seat-pair comparisons in which the row's policy ranked above the "
                            f"column's (a tie in rank counts half) {t}", ["policy"] + names,
                            [[a] + ["—" if a == b else _percent(h2h["share"].loc[a, b]) for b in names] for a in names]))
        blocks.append(Table(f"Head-to-head: games where both played / seat pairs compared {t}", ["policy"] + names,
                            [[a] + ["—" if a == b else f"{h2h['games'].loc[a, b]:,} / {h2h['pairs'].loc[a, b]:,}"
                                    for b in names] for a in names]))
        rating = bradley_terry(h2h["wins"])
        strength = rating["strength"].sort_values(ascending=False)
        blocks.append(Table(f"Rating: Bradley–Terry log-strength θ, mean 0 {t}", ["policy", "θ"],
                            [[p, "n/a" if not np.isfinite(s) else f"{s:+.3f}"] for p, s in strength.items()]))
        blocks.append("Method: Bradley–Terry fitted by the MM algorithm (Hunter 2004) to the head-to-head wins; θ is on a log "
                      "scale, normalised to mean 0: P(A beats B) = 1 / (1 + exp(θB − θA))."
                      + (" A policy won or lost every comparison, so no maximum-likelihood fit exists: half a win "
                         "each way was added to every compared pair." if rating["regularised"] else "")
                      + (" Some policies never met, directly or through others: no common scale." if
                         strength.isna().all() else "") + f" {t}")

    # scores
    blocks.append("### Scores")
    for by in ["seat", "policy"]:
        table = score_distribution(frame, by)
        blocks.append(_table(f"Score per {by}: n = seat-games, sd with ddof 1, quantiles q5..q95 {t}", table, by,
                             _distribution_formats(table.columns)))
    blocks.append(Image(images["scores"], f"score histograms per seat {t}"))
    points_seat, points_policy = points_by_category(frame, "seat"), points_by_category(frame, "policy")
    for by, table in [("seat", points_seat), ("policy", points_policy)]:
        blocks.append(_table(f"Mean points by category per {by} {t}", table, by, {c: _number for c in table.columns}))
    blocks.append(Image(images["points"], f"mean points by category, stacked {t}"))
    margin = margins(frame)
    blocks.append(_table(f"Margin of victory: best score minus second best {t}",
                         margin["summary"].to_frame("margin").T, "", {c: _number for c in margin["summary"].index}))
    blocks.append(f"Ties: {_percent(margin['ties'])} of games were won by more than one seat; "
                  f"{_percent(margin['tiebreaks'])} had a shared top score decided by the tie-break {t}.")

    # game length and counters
    blocks.append("### Game length and counters")
    seat_columns, game_columns = counter_columns(frame)
    if game_columns:
        table = game_counters(frame)
        blocks.append(_table(f"Game columns, one value per game (game length and more) {t}", table, "column",
                             {c: _number for c in table.columns}))
    else:
        blocks.append(f"No game columns {t}.")
    if seat_columns:
        for by in ["seat", "policy"]:
            table = seat_counters(frame, by).T
            table.columns = [f"seat {c}" for c in table.columns] if by == "seat" else list(table.columns)
            blocks.append(_table(f"Seat columns: mean per {by} {t}", table, "column", {c: _number for c in table.columns}))
    else:
        blocks.append(f"No seat columns {t}.")
    return blocks


def _safe(text: str) -> str:
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_.") else "_" for ch in text)


def _slugs(groups: list[Group]) -> list[str]:
    """The file-name stem of every group's plots: game and player count, then the data and the
    lineup where other groups of that game and player count differ in them; unique."""
    slugs, taken = [], set()
    for group in groups:
        same = [g for g in groups if (g.game, g.players) == (group.game, group.players)]
        base = f"{group.game}-{group.players}p"
        if len({g.data for g in same}) > 1:
            base += "-" + _safe(group.data)
        if len({g.lineup for g in same}) > 1:
            base += "-" + _safe(group.lineup.replace(" ×", "x").replace(", ", "-"))
        slug, n = base, 1
        while slug in taken:
            n += 1
            slug = f"{base}-{n}"
        taken.add(slug)
        slugs.append(slug)
    return slugs


def render_md(blocks: list, out_dir: str) -> str:
    lines = []
    for block in blocks:
        if isinstance(block, Table):
            lines += [f"**{block.title}**", "",
                      "| " + " | ".join(block.columns) + " |",
                      "|" + "|".join("---" if i == 0 else "---:" for i in range(len(block.columns))) + "|"]
            lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in block.rows]
        elif isinstance(block, Image):
            lines.append(f"![{block.alt}]({os.path.relpath(block.path, out_dir)})")
        else:
            lines.append(block)
        lines.append("")
    return "\n".join(lines)


_CSS = ("body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:.3em 0 1.2em}td,th{border:1px solid #ccc;padding:.2em .6em}"
        "td{text-align:right}td:first-child{text-align:left}caption{text-align:left;font-weight:bold;padding:.3em 0}"
        "img{max-width:100%}")


def render_html(blocks: list) -> str:
    parts = ["<!DOCTYPE html>", '<html><head><meta charset="utf-8"><title>simcore report</title>',
             f"<style>{_CSS}</style></head><body>"]
    for block in blocks:
        if isinstance(block, Table):
            parts.append(f"<table><caption>{html.escape(block.title)}</caption><tr>"
                         + "".join(f"<th>{html.escape(c)}</th>" for c in block.columns) + "</tr>")
            parts += ["<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in block.rows]
            parts.append("</table>")
        elif isinstance(block, Image):
            with open(block.path, "rb") as fh:
                data = base64.b64encode(fh.read()).decode("ascii")
            parts.append(f'<p><img alt="{html.escape(block.alt)}" src="data:image/png;base64,{data}"></p>')
        elif block.startswith("#"):
            level = len(block) - len(block.lstrip("#"))
            parts.append(f"<h{level}>{html.escape(block[level:].strip())}</h{level}>")
        else:
            text = html.escape(block)
            while text.count("`") >= 2:
                text = text.replace("`", "<code>", 1).replace("`", "</code>", 1)
            parts.append(f"<p>{text}</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise UserError(f"unknown report format '{fmt}' (use {' or '.join(FORMATS)})")


def _prepare_folder(out_dir: str) -> None:
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise UserError(f"report folder {out_dir}: cannot create it ({e.strerror or e})") from e
    if not os.path.isdir(out_dir) or not os.access(out_dir, os.W_OK):
        raise UserError(f"report folder {out_dir}: cannot write there")


def report_frames(named: list[tuple[str, pd.DataFrame]], out_dir: str, fmt: str = "md") -> list[str]:
    """The report on results rows already in memory, as (name, rows) pairs (a name stands for the
    file in the report): writes report.<fmt> and the PNGs into out_dir; returns the paths written."""
    _check_format(fmt)
    groups = group_frames(named)
    _prepare_folder(out_dir)
    written = []
    blocks: list = ["# simcore report",
                    ("Every number comes with the games and the seed it came from, as (N games, seed S). "
                     "Seats are numbered as in the results files: seat 0 plays first.")]
    if len(groups) > 1:
        blocks.append("The files hold different games, player counts, component data or lineups (the seats' "
                      "policies): one section each (files of the same game, player count, data and lineup are pooled).")
    advantages = {id(group): seat_advantage(group.frame) for group in groups}
    families = lineup_families(groups)
    if families:
        blocks.append("## Seat advantage by lineup")
        for family in families:
            blocks += lineup_blocks(family, advantages)
        blocks.append("Method: each lineup's games alone, as in its section: wins are win_share summed (a game won by k "
                      "tied seats counts 1/k for each); the intervals hold for all seats of a row at once (statsmodels "
                      "multinomial_proportions_confint, method goodman); p is the chi-square test (k − 1 degrees of "
                      "freedom) against equal shares. The rows come from separate games: where a seat's intervals in "
                      "two rows do not overlap, its share differs between those lineups (a conservative reading); "
                      "overlap does not show that they are equal.")
    try:
        for group, slug in zip(groups, _slugs(groups)):
            title = f"{group.game} {group.players}p" + (f", {group.lineup}" if group.lineup else "") + f" {group.tag()}"
            images = {name: os.path.join(out_dir, f"{slug}-{name}.png") for name in ["win_share", "scores", "points"]}
            plot_win_share(advantages[id(group)], images["win_share"], title)
            plot_score_histograms(group.frame, images["scores"], title)
            several = group.frame["policy"].nunique() > 1
            plot_points(points_by_category(group.frame, "seat").drop(columns="score"),
                        points_by_category(group.frame, "policy").drop(columns="score") if several else None,
                        images["points"], title)
            written += list(images.values())
            blocks += group_blocks(group, images, advantages[id(group)])
        report = os.path.join(out_dir, f"report.{fmt}")
        text = render_md(blocks, out_dir) if fmt == "md" else render_html(blocks)
        with open(report, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as e:
        raise UserError(f"report folder {out_dir}: cannot write ({e.strerror or e})") from e
    return [report] + written


def write_report(paths: list[str], out_dir: str, fmt: str = "md") -> list[str]:
    """Reads the results files at paths and writes the report into out_dir (created if missing):
    report.md (PNGs linked) or report.html (PNGs embedded). Returns the paths written, the
    report first. User mistakes raise UserError."""
    _check_format(fmt)
    return report_frames(read_results(paths), out_dir, fmt)
