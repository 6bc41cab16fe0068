"""A report on one or more results files: seat advantage, strategies, scores, game length, counters.

`write_report(paths, out_dir, fmt)` reads results files and writes `report.md` (the PNG plots
beside it, linked) or `report.html` (the same PNGs also embedded as base64) into out_dir; it
returns the paths written. `report_frames` does the same from DataFrames already in memory. A
folder that already holds a report is refused unless force is given (`check_folder`).

The files are read chunk by chunk (`results.read_chunks`), never whole, so a report on 10 million
games needs no more memory than one on a thousand. Each chunk's games are summed into a Group —
the sufficient statistics of one (game, players, data, lineup): per (seat, policy) the seat-games,
wins, wins shared by k seats, score, points and counter sums; how often each score occurred per
(seat, policy); the pairwise win, comparison and meeting counts of the policies; per policy and
pair of seats it held in one game, those games, its wins there and the games both seats won; how
often each margin of victory and each value of a game column occurred; ties; the game indexes
each file holds. Scores and counters are integers, so these counts give the means, sds and quantiles
exactly. Every section is a function of a Group — or of a DataFrame of one group's rows, which
it aggregates the same way (`Group.of`) — so notebooks and tests can call them directly.

Several files: their rows are grouped by (game, players, data, lineup). A game's lineup is the
multiset of its seats' policies, as sorted text: "random ×4", "greedy ×2, mcts" (rotated seats
keep it; a run normally has one). Files of the same group are pooled — their games counted
together — and every group gets its own section, titled with its lineup: a run of search players
(`--policy mcts`) and a random run of the same game are never pooled. When groups share (game,
players, data) but differ in lineup, a block "Seat advantage by lineup" near the top puts their
seat advantages side by side: one row per lineup, each seat's win share with its simultaneous
95% interval and the chi-square p-value, computed within that lineup's games alone (the same
numbers as its section). Two pooled files that hold the same games (same seed, same policies at
the first game index both hold) are flagged: pooled, those games count twice.

Methods, as the report states them:
- lineup: per game, the seats' policy codes (pandas factorize, names sorted) sorted within the
  game and compared row by row (numpy, no Python loop over games); the distinct rows become the
  texts, each policy once with "×n" when n seats play it.
- seat advantage: a seat's wins are the sum of its win_share (a game won by k tied seats gives
  each 1/k), so the seats' counts add up to the number of games; 95% simultaneous intervals are
  Goodman's (statsmodels `multinomial_proportions_confint(method="goodman")`, whose closed form
  takes these fractional counts as they are); the chi-square test (scipy `chisquare`, k − 1
  degrees of freedom) compares the counts with equal shares.
- each policy in each seat (a lineup of several policies): per (policy, seat) the seat-games, the
  win rate (ties counting as wins) with its 95% Wilson interval and the mean score with its 95%
  Student-t interval (the numbers of `simcore stats --by policy-seat`). With rotated seats every
  seat holds each policy equally often, so the pooled shares per seat are about equal by design;
  each policy's own seat advantage is tested within its seat-games: the chi-square test of equal
  win rates across the seats it played (k − 1 degrees of freedom; exactly Pearson's test, scipy's
  chi2_contingency without continuity correction, where it held one seat a game). Where it held
  several seats of one game (random ×2) those seat-games are not independent, and the test's
  covariance adds their within-game term (equal_rates_test), which keeps its 5% level where
  Pearson's does not (a policy in 3 of 4 seats, one winner a game, no seat advantage: Pearson
  rejects 9% of the time at 5%, this test 5%). No test where a policy played one seat, never or
  always won, or fewer than 5 wins or losses are expected in a seat (Cochran's rule).
- strategies: win rate per policy over every (game, seat) it played, ties counting as wins, with
  the 95% Wilson interval of `simcore stats`. Head-to-head: every pair of seats (a, b) of one game
  whose policies are A and B is one comparison, won by A when a ranked above b (a lower rank); a
  tie in rank is half a win each way. Rating: Bradley–Terry strengths, the maximum-likelihood fit
  to those pairwise wins (choix's iterative Luce spectral ranking), given as log-strengths normalised to mean 0, so
  P(A beats B) = 1 / (1 + exp(θB − θA)). When the maximum-likelihood fit does not exist (a policy
  won or lost every comparison: the wins graph is not strongly connected) every compared pair
  gets half a win each way added, and the report says so.
- scores: mean, sample sd (ddof 1) and linear-interpolation quantiles (pandas' default), from the
  counts of every score. Margin of victory: the best score minus the second best of the game (0
  when the top score is shared and the tie-break decided). Ties: games won by more than one seat.
- game columns (a counter equal on every seat of every game, or a GameSpec's game_columns): their
  distribution over games; seat columns: their mean per seat and per policy.
- plots: the score histograms' bins hold a whole number of scores each, edges halfway between
  integers (score_bins), so integer scores never make a comb; a mixed lineup's histogram of a seat
  has one outline per policy (the share of its games there). Titles too wide for a figure are
  broken into lines, never cut.
"""
from __future__ import annotations

import base64
import html
import math
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from itertools import combinations, permutations

import numpy as np
import pandas as pd

from simcore import results, stats
from simcore.contract import UserError

FORMATS = ("md", "html")
CONFIDENCE = 0.95
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
PLOTS = ("win_share", "scores", "points")     # a group's PNGs: <slug>-<plot>.png
_GROUP_KEYS = ["game", "players", "data"]
_NOT_COUNTERS = set(results.BASE_DTYPES) | {results.DATA_COLUMN}


# ---- reading: whole games, chunk by chunk ------------------------------------------------

@dataclass(frozen=True)
class Source:
    """Results rows to report on: a file (its path) or rows in memory (the name given to them).
    chunks() reads them, again each time it is called, as DataFrames of bounded size."""
    name: str
    chunks: Callable[[], Iterable[pd.DataFrame]]


def whole_games(chunks: Iterable[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """chunks cut between games: a chunk that ends inside a game (a CSV block of 200,000 rows of
    3-player games) hands that game's first rows on to the next chunk. Empty chunks are skipped."""
    carry = None
    for chunk in chunks:
        if carry is not None:
            chunk = pd.concat([carry, chunk], ignore_index=True)
            carry = None
        if chunk.empty:
            continue
        starts = np.flatnonzero(chunk["seat"].to_numpy() == 0)
        # only a last game shorter than its player count is carried: a malformed file is never
        # held whole, it reaches _check_games as it is
        if len(starts) and len(chunk) - starts[-1] < int(chunk["players"].iloc[starts[-1]]):
            chunk, carry = chunk.iloc[:starts[-1]], chunk.iloc[starts[-1]:]
        if not chunk.empty:
            yield chunk
    if carry is not None:
        yield carry            # a file that ends inside a game: _check_games says so


def read_groups(paths) -> list[Group]:
    """The Groups of the results files at paths, read chunk by chunk; a UserError for a missing,
    empty, unreadable or malformed file (not one row per seat of every game)."""
    paths = list(paths)
    if not paths:
        raise UserError("no results files given")
    for path in paths:
        ext = os.path.splitext(path)[1].lower()
        if ext not in results.PARQUET_EXTENSIONS + results.CSV_EXTENSIONS:
            raise UserError(f"results file {path}: unknown extension '{ext}' (use .parquet, .pq or .csv)")
        if os.path.isfile(path) and os.path.getsize(path) == 0:
            raise UserError(f"results file {path} is empty")
    return group_sources([Source(path, partial(results.read_chunks, path)) for path in paths])


def group_frames(named: list[tuple[str, pd.DataFrame]]) -> list[Group]:
    """The Groups of results rows in memory, as (name, rows) pairs (a name stands for the file)."""
    return group_sources([Source(name, partial(lambda frame: [frame], frame)) for name, frame in named])


def group_sources(sources: list[Source]) -> list[Group]:
    """Every (game, players, data, lineup) of the sources' rows, its files pooled, sorted by that key."""
    groups: dict[tuple, Group] = {}
    for i, source in enumerate(sources):
        empty = True
        for chunk in whole_games(source.chunks()):
            empty = False
            for key, rows in _split(source.name, chunk):
                if key not in groups:
                    groups[key] = Group(*key)
                groups[key].add(rows, i, source)
        if empty:
            raise UserError(f"results file {source.name} holds no games")
    return [groups[key] for key in sorted(groups)]


def _split(name: str, chunk: pd.DataFrame) -> Iterator[tuple[tuple, pd.DataFrame]]:
    """The chunk's rows of every (game, players, data, lineup), each in game order, after checking
    that they hold one row per seat of every game; a single run's chunk is one piece, not copied."""
    if results.DATA_COLUMN not in chunk.columns:
        raise UserError(f"results file {name} is not a simcore results table (no column {results.DATA_COLUMN})")
    if all(_constant(chunk[c]) for c in _GROUP_KEYS):
        parts = [(tuple(chunk[c].iloc[0] for c in _GROUP_KEYS), chunk)]
    else:
        parts = chunk.groupby(_GROUP_KEYS, sort=False)
    for (game, players, data), rows in parts:
        players = int(players)
        _check_games(name, rows, players)
        index, lineups = game_lineups(rows)
        pieces = [(lineups[0], rows)] if len(lineups) == 1 else \
            [(text, rows[np.repeat(index == j, players)]) for j, text in enumerate(lineups)]
        for lineup, piece in pieces:
            yield (str(game), players, str(data), lineup), piece


def _constant(column: pd.Series) -> bool:
    return bool((column == column.iloc[0]).all())


def _check_games(name: str, rows: pd.DataFrame, players: int) -> None:
    """One row per seat 0..players-1 of every game, in game order (as simcore writes them)."""
    seats = rows["seat"].to_numpy()
    index = rows["game_index"].to_numpy()
    ok = len(rows) % players == 0
    if ok:
        ok = (seats.reshape(-1, players) == np.arange(players)).all() and \
             (index.reshape(-1, players) == index[::players, None]).all()
    if not ok:
        raise UserError(f"results file {name}: not one row per seat 0..{players - 1} of every game")


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


def _ordered(frame: pd.DataFrame) -> pd.DataFrame:
    """frame with every game's rows together, seats 0..players-1 in order (as results files hold
    them: then frame itself, not a sorted copy)."""
    players = _players(frame)
    if len(frame) % players == 0:
        seats = frame["seat"].to_numpy().reshape(-1, players)
        grouped = (seats == np.arange(players)).all()
        for key in ["seed", "game_index"]:
            values = frame[key].to_numpy().reshape(-1, players)
            grouped = grouped and (values == values[:, :1]).all()
        if grouped:
            return frame.reset_index(drop=True)
    return frame.sort_values(["seed", "game_index", "seat"], kind="stable", ignore_index=True)


def _players(frame: pd.DataFrame) -> int:
    players = frame["players"].unique()
    if len(players) != 1:
        raise ValueError("the rows of one player count are expected")
    return int(players[0])


# ---- a group's sufficient statistics -----------------------------------------------------

class Group:
    """Everything the report says about one (game, players, data, lineup), summed chunk by chunk
    over the games of every file pooled in it (see the module's docstring); add() takes whole
    games in game order. The statistics are integer counts and sums in numpy arrays and Counters
    (pandas only when a section asks), so the order and size of the chunks change nothing."""

    def __init__(self, game: str, players: int, data: str, lineup: str = ""):
        self.game, self.players, self.data, self.lineup = game, int(players), data, lineup
        self.sources: dict[int, str] = {}       # the file's position in the list given -> the file
        self.games = 0
        self.columns: list[str] = []            # pts_ and counter columns every chunk had, in file order
        self._readers: dict[int, Source] = {}
        self._seeds: set[int] = set()
        self._names: list[str] = []              # the policies, in the order first met: their codes
        self._summed: list[str] = []             # the columns of _sums
        self._sums = np.zeros((self.players, 0, 0), np.int64)   # [seat, policy code, column]
        self._meetings = np.zeros((3, 0, 0), np.int64)          # wins2, pairs, games: [_, policy A, policy B]
        # [policy, seat a, seat b, (games it held both seats, its wins at a in them, both won)]
        self._seat_pairs = np.zeros((0, self.players, self.players, 3), np.int64)
        self._scores: Counter = Counter()        # (seat, policy code, score) -> seat-games
        self._margins: Counter = Counter()       # margin -> games
        self._ties = self._tiebreaks = 0
        self._game_values: dict[str, Counter] = {}   # game column (or candidate) -> value -> games
        self._same: dict[str, bool] = {}         # counter -> equal on every seat of every game so far
        self._spans: dict[tuple[int, int], list[list[int]]] = {}   # (source, seed) -> runs [first, last]
        self._policies_cache: dict[tuple[int, int, int], tuple | None] = {}
        self._split_of, self._split = None, None

    @classmethod
    def of(cls, frame: pd.DataFrame) -> "Group":
        """The aggregate of rows in memory of one player count (a notebook's DataFrame), all of
        them, whatever their data and lineups; rows out of game order are sorted first."""
        frame = _ordered(frame)
        players = _players(frame)
        _check_games("rows", frame, players)
        lineups = game_lineups(frame)[1]
        data = str(frame[results.DATA_COLUMN].iloc[0]) if results.DATA_COLUMN in frame.columns else ""
        group = cls(str(frame["game"].iloc[0]), players, data, lineups[0] if len(lineups) == 1 else "")
        return group.add(frame, 0, Source("rows", partial(lambda f: [f], frame)))

    # ---- what the sections read: pandas objects indexed by names, sorted

    @property
    def seeds(self) -> list[int]:
        return sorted(self._seeds)

    @property
    def policies(self) -> list[str]:
        return sorted(self._names)

    def tag(self) -> str:
        """'(N games, seed S)' or '(N games, seeds S1, S2)': what every number of the group's section comes from."""
        seeds = self.seeds
        seed_text = f"seed {seeds[0]}" if len(seeds) == 1 else "seeds " + ", ".join(map(str, seeds))
        return f"({self.games:,} games, {seed_text})"

    def sums(self) -> pd.DataFrame:
        """Per (seat, policy) that played: n (seat-games), win (ties counting), won_k (wins shared
        by k seats), score and every pts_ and counter column summed."""
        seats, codes = np.nonzero(self._sums[:, :, 0])
        index = pd.MultiIndex.from_arrays([seats, np.asarray(self._names, dtype=object)[codes]], names=["seat", "policy"])
        table = pd.DataFrame(self._sums[seats, codes], index=index, columns=self._summed).sort_index()
        return table[self._base_sums() + self.columns]

    def score_counts(self) -> pd.Series:
        """(seat, policy, score) -> how many seat-games ended with that score."""
        keys = [(seat, self._names[code], score) for seat, code, score in self._scores]
        return pd.Series(list(self._scores.values()), index=pd.MultiIndex.from_tuples(
            keys, names=["seat", "policy", "score"]), dtype=np.int64).sort_index()

    def meetings(self) -> pd.DataFrame:
        """Per ordered pair of policies (A, B): wins2 (A's wins over B in half wins), pairs (the
        seat-pair comparisons), games (games both played; (A, A): the games A played)."""
        names = np.asarray(self._names, dtype=object)
        k = len(names)
        index = pd.MultiIndex.from_arrays([np.repeat(names, k), np.tile(names, k)], names=["policy", "other"])
        return pd.DataFrame(self._meetings.reshape(3, -1).T, index=index, columns=["wins2", "pairs", "games"]).sort_index()

    def seat_pairs(self) -> pd.DataFrame:
        """Per (policy, seat, other seat) where one policy held both seats of a game: games (how
        many such games), wins (its wins at seat in them, ties counting) and both_won (games both
        seats won: a tie). What the within-game covariance of a policy's seat wins needs."""
        names = np.asarray(self._names, dtype=object)
        players = self.players
        index = pd.MultiIndex.from_product([names, range(players), range(players)], names=["policy", "seat", "other"])
        table = pd.DataFrame(self._seat_pairs.reshape(-1, 3), index=index, columns=["games", "wins", "both_won"])
        return table[table["games"] > 0].sort_index()

    def margin_counts(self) -> pd.Series:
        """margin of victory -> games."""
        return _series(self._margins)

    def game_value_counts(self, column: str) -> pd.Series:
        """value of a game column -> games."""
        return _series(self._game_values[column])

    # ---- adding a chunk's games

    def add(self, rows: pd.DataFrame, source: int = 0, reader: Source | None = None) -> "Group":
        """Adds whole games of this group (rows in game order, one per seat) from the source'th file."""
        if rows.empty:
            return self
        self._update_columns(rows)
        self.sources.setdefault(source, reader.name if reader else "rows")
        if reader is not None:
            self._readers.setdefault(source, reader)
        players = self.players
        self.games += len(rows) // players
        self._seeds.update(int(s) for s in np.unique(rows["seed"].to_numpy()))
        codes = self._codes(rows["policy"]).reshape(-1, players)
        grid = {"score": rows["score"].to_numpy(np.int64).reshape(-1, players),
                "win": rows["win"].to_numpy(bool).reshape(-1, players),
                "rank": rows["rank"].to_numpy(np.int64).reshape(-1, players)}
        self._add_sums(rows, codes, grid)
        seats = np.broadcast_to(np.arange(players), codes.shape)
        self._scores.update(_counts(seats.ravel(), codes.ravel(), grid["score"].ravel()))
        self._add_meetings(codes, grid["rank"])
        self._add_seat_pairs(codes, grid["win"])
        self._add_margins(grid)
        self._add_game_values(rows)
        self._add_spans(rows, source)
        return self

    def _codes(self, policies: pd.Series) -> np.ndarray:
        """The group's codes of the rows' policies; a policy not met before gets the next code."""
        codes, names = pd.factorize(policies)
        for name in names:
            if name not in self._names:
                self._names.append(str(name))
        k = len(self._names)
        if self._sums.shape[1] < k:            # room for the new policies' sums and meetings
            grow = k - self._sums.shape[1]
            self._sums = np.pad(self._sums, ((0, 0), (0, grow), (0, 0)))
            self._meetings = np.pad(self._meetings, ((0, 0), (0, grow), (0, grow)))
            self._seat_pairs = np.pad(self._seat_pairs, ((0, grow), (0, 0), (0, 0), (0, 0)))
        return np.asarray([self._names.index(str(name)) for name in names], dtype=np.int64)[codes]

    def _base_sums(self) -> list[str]:
        return ["n", "win"] + [f"won_{k}" for k in range(1, self.players + 1)] + ["score"]

    def _update_columns(self, rows: pd.DataFrame) -> None:
        columns = [c for c in rows.columns if c not in _NOT_COUNTERS]
        # files pooled in a group may differ in columns (another simcore version): only the common ones
        self.columns = columns if not self.games else [c for c in self.columns if c in columns]

    def _add_sums(self, rows, codes, grid) -> None:
        if not self._summed:
            self._summed = self._base_sums() + self.columns
            self._sums = np.zeros(self._sums.shape[:2] + (len(self._summed),), np.int64)
        win = grid["win"]
        winners = win.sum(axis=1, keepdims=True)
        values = {"n": np.ones_like(win), "win": win, "score": grid["score"]}
        values.update({f"won_{k}": win & (winners == k) for k in range(1, self.players + 1)})
        values.update({c: rows[c].to_numpy().reshape(win.shape) for c in self.columns})
        k = self._sums.shape[1]
        cells = (np.arange(self.players) * k + codes).ravel()       # (seat, policy code) of every row
        for j, column in enumerate(self._summed):
            if column in values:        # a column another file lacks is no longer reported
                # float sums of integers stay exact below 2**53, far above any chunk's total
                total = np.bincount(cells, weights=values[column].ravel(), minlength=self.players * k)
                self._sums[:, :, j] += total.astype(np.int64).reshape(self.players, k)

    def _add_meetings(self, codes: np.ndarray, rank: np.ndarray) -> None:
        """Every ordered pair of seats of a game is one comparison of their policies: A's wins over B
        (in half wins: 2 for a better rank, 1 for the same), the comparisons, and the games both played."""
        k = len(self._names)
        for a, b in permutations(range(self.players), 2):
            cell = codes[:, a] * k + codes[:, b]
            credit = 2 * (rank[:, a] < rank[:, b]) + (rank[:, a] == rank[:, b])
            self._meetings[0] += np.bincount(cell, weights=credit, minlength=k * k).astype(np.int64).reshape(k, k)
            self._meetings[1] += np.bincount(cell, minlength=k * k).reshape(k, k)
        present = np.zeros((len(codes), k), dtype=np.int64)
        np.put_along_axis(present, codes, 1, axis=1)
        self._meetings[2] += present.T @ present

    def _add_seat_pairs(self, codes: np.ndarray, win: np.ndarray) -> None:
        """Every ordered pair of seats (a, b) that one policy held in a game: the games, its wins
        at a, and the games both seats won (ties)."""
        k = len(self._names)
        for a, b in permutations(range(self.players), 2):
            same = codes[:, a] == codes[:, b]
            if not same.any():
                continue
            policy, won, other_won = codes[same, a], win[same, a], win[same, b]
            self._seat_pairs[:, a, b, 0] += np.bincount(policy, minlength=k)
            self._seat_pairs[:, a, b, 1] += np.bincount(policy, weights=won, minlength=k).astype(np.int64)
            self._seat_pairs[:, a, b, 2] += np.bincount(policy, weights=won & other_won, minlength=k).astype(np.int64)

    def _add_margins(self, grid) -> None:
        scores = np.sort(grid["score"], axis=1)
        margin = scores[:, -1] - scores[:, -2]
        winners = grid["win"].sum(axis=1)
        self._margins.update(_counts(margin))
        self._ties += int((winners > 1).sum())
        self._tiebreaks += int(((margin == 0) & (winners == 1)).sum())

    def _add_game_values(self, rows: pd.DataFrame) -> None:
        """The distribution over games of the game columns: the GameSpec's, or (no spec that knows
        the columns) of every counter, with whether it was equal on every seat so far."""
        counters = [c for c in self.columns if not c.startswith("pts_")]
        split = self.counter_split()
        for column in (split[1] if split else counters):
            values = rows[column].to_numpy(np.int64).reshape(-1, self.players)
            if not split:
                self._same[column] = self._same.get(column, True) and bool((values == values[:, :1]).all())
            self._game_values.setdefault(column, Counter()).update(_counts(values[:, 0]))

    def counter_split(self) -> tuple[list[str], list[str]] | None:
        """(seat columns, game columns) as the registered game's GameSpec says, if it knows every counter."""
        counters = tuple(c for c in self.columns if not c.startswith("pts_"))
        if self._split_of != counters:         # looked up once per set of columns, not per chunk
            self._split_of, self._split = counters, _spec_split(self.game, list(counters))
        return self._split

    def _add_spans(self, rows: pd.DataFrame, source: int) -> None:
        """The runs of consecutive game indexes of every (source, seed): what repeated_games compares."""
        index = rows["game_index"].to_numpy()[::self.players]
        seeds = rows["seed"].to_numpy()[::self.players]
        for seed in np.unique(seeds):
            games = index[seeds == seed]
            breaks = np.flatnonzero(np.diff(games) != 1) + 1
            spans = self._spans.setdefault((source, int(seed)), [])
            for first, last in zip(games[np.r_[0, breaks]], games[np.r_[breaks - 1, len(games) - 1]]):
                if spans and spans[-1][1] + 1 == first:
                    spans[-1][1] = int(last)
                else:
                    spans.append([int(first), int(last)])

    def runs(self, source: int) -> dict[int, list[list[int]]]:
        """seed -> the runs [first, last] of consecutive game indexes the source'th file holds."""
        return {seed: spans for (held, seed), spans in self._spans.items() if held == source}

    def policies_at(self, source: int, seed: int, index: int) -> tuple | None:
        """The seats' policies of game `index` of `seed` in the source'th file, read again from
        there (only the chunks up to that game); None if it holds no such game of this group."""
        key = (source, seed, index)
        if key not in self._policies_cache:
            self._policies_cache[key] = self._find_policies(source, seed, index)
        return self._policies_cache[key]

    def _find_policies(self, source: int, seed: int, index: int) -> tuple | None:
        for chunk in whole_games(self._readers[source].chunks()):
            hit = (chunk["seed"].to_numpy() == seed) & (chunk["game_index"].to_numpy() == index)
            if not hit.any():
                continue
            rows = chunk[hit]
            rows = rows[((rows["game"] == self.game) & (rows["players"] == self.players)
                         & (rows[results.DATA_COLUMN] == self.data)).to_numpy(bool)]
            for policies in rows["policy"].to_numpy().reshape(-1, self.players):
                if not self.lineup or lineup_text(policies) == self.lineup:
                    return tuple(policies)
        return None


def _counts(*keys: np.ndarray) -> dict:
    """How often each value of an integer array occurs — or each tuple of values, one from each
    of several arrays: {value or tuple: count}. The tuples are packed into one integer (digits of
    mixed radix) for np.unique; the dict holds only the distinct ones (a few hundred per chunk)."""
    lows = [int(key.min()) for key in keys]
    spans = [int(key.max()) - low + 1 for key, low in zip(keys, lows)]
    packed = np.zeros(len(keys[0]), np.int64)
    for key, low, span in zip(keys, lows, spans):
        packed = packed * span + (key.astype(np.int64) - low)
    distinct, counts = np.unique(packed, return_counts=True)
    digits = []
    for low, span in reversed(list(zip(lows, spans))):
        distinct, digit = np.divmod(distinct, span)
        digits.insert(0, (digit + low).tolist())
    return dict(zip(digits[0] if len(keys) == 1 else zip(*digits), counts.tolist()))


def _series(counts: Counter) -> pd.Series:
    """value -> count as a Series, sorted by value."""
    return pd.Series(counts, dtype=np.int64).sort_index()


def _spec_split(game: str, counters: list[str]) -> tuple[list[str], list[str]] | None:
    """(seat columns, game columns) as the registered game's GameSpec says, if it knows every counter."""
    spec = _spec(game)
    if spec is None or not set(counters) <= set(spec.seat_columns) | set(spec.game_columns):
        return None
    return [c for c in counters if c in spec.seat_columns], [c for c in counters if c in spec.game_columns]


def _spec(game: str):
    from simcore import registry
    try:
        return registry.games().get(game)
    except Exception:   # noqa: BLE001 -- a broken game package must not stop a report on the others' results
        return None


def _group(rows) -> Group:
    """A Group as it is; a DataFrame of one group's rows aggregated (Group.of)."""
    return rows if isinstance(rows, Group) else Group.of(rows)


def tag(rows) -> str:
    """'(N games, seed S)' or '(N games, seeds S1, S2)' of a group (or its rows)."""
    return _group(rows).tag()


def lineup_families(groups: list[Group]) -> list[list[Group]]:
    """The groups of every (game, players, data) played by two lineups or more, in order."""
    families: dict[tuple, list[Group]] = {}
    for group in groups:
        families.setdefault((group.game, group.players, group.data), []).append(group)
    return [family for family in families.values() if len(family) > 1]


# ---- the sections: functions of one group (its aggregate, or its rows) ----------------------

def repeated_games(group: Group) -> list[tuple[int, int]]:
    """Pairs (i, j) of pooled sources (positions in the list of files) that hold the same games:
    the same seed and, at the first game index both hold, the same policy in every seat (a game
    depends only on the seed, its index and its seats' policies). The index runs of every file
    are known from the pass over the rows; the policies of that one game are read again."""
    group = _group(group)
    runs = {source: group.runs(source) for source in group.sources}
    pairs = []
    for i, j in combinations(sorted(group.sources), 2):
        for seed in sorted(runs[i].keys() & runs[j].keys()):
            common = _first_common(runs[i][seed], runs[j][seed])
            if common is not None and group.policies_at(i, seed, common) == group.policies_at(j, seed, common):
                pairs.append((i, j))
                break
    return pairs


def _first_common(spans: list[list[int]], others: list[list[int]]) -> int | None:
    """The smallest index in both lists of [first, last] runs, or None."""
    found = None
    a, b = sorted(spans), sorted(others)
    i = j = 0
    while i < len(a) and j < len(b):
        low, high = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if low <= high:
            found = low if found is None else min(found, low)
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return found


def _by(sums: pd.DataFrame, by: str) -> pd.DataFrame:
    """The (seat, policy) sums summed per seat or per policy."""
    return sums.groupby(level=by).sum()


def _seat_policies(group: Group) -> pd.Series:
    """Per seat, the policies it played, sorted and joined ("greedy, random" when seats rotate)."""
    return group.sums().index.to_frame(index=False).groupby("seat")["policy"].agg(lambda s: ", ".join(sorted(s)))


def _wins(sums: pd.DataFrame, players: int) -> pd.Series:
    """win_share summed, exactly: a win shared by k seats counts 1/k, added up as fractions and
    rounded once (a float sum of the column would print 249,334 as 249,334.00)."""
    won = sums[[f"won_{k}" for k in range(1, players + 1)]].to_numpy()
    return pd.Series([float(sum(Fraction(int(c), k) for k, c in enumerate(row, start=1))) for row in won],
                     index=sums.index)


def seat_advantage(group) -> dict:
    """Win share per seat with 95% simultaneous (Goodman) intervals and a chi-square test against
    equal shares. Returns {"table": DataFrame indexed by seat with policy, games, wins (sum of
    win_share), win_share, lo, hi, expected, win_rate (ties count as wins); "chi2", "dof", "p",
    "expected", "games"}."""
    from scipy.stats import chisquare
    from statsmodels.stats.proportion import multinomial_proportions_confint

    group = _group(group)
    players, games = group.players, group.games
    per_seat = _by(group.sums(), "seat").reindex(range(players))
    wins = _wins(per_seat, players).to_numpy()
    intervals = multinomial_proportions_confint(wins, alpha=1 - CONFIDENCE, method="goodman")
    test = chisquare(wins, np.full(players, games / players))
    table = pd.DataFrame({
        "policy": _seat_policies(group).to_numpy(),
        "games": games,
        "wins": wins,
        "win_share": wins / games,
        "lo": intervals[:, 0],
        "hi": intervals[:, 1],
        "expected": 1 / players,
        "win_rate": per_seat["win"].to_numpy() / games,
    }, index=pd.Index(range(players), name="seat"))
    return {"table": table, "chi2": float(test.statistic), "dof": players - 1, "p": float(test.pvalue),
            "expected": 1 / players, "games": games}


def seat_lines(advantage: dict, group) -> list[str]:
    """The plain-language lines: 'seat 0 wins 31.2% [30.6, 31.8] vs 33.3% expected (N games, seed S)'."""
    expected = _percent_plain(advantage["expected"])
    return [f"seat {seat} wins {100 * row.win_share:.1f}% [{100 * row.lo:.1f}, {100 * row.hi:.1f}] "
            f"vs {expected} expected {tag(group)}" for seat, row in advantage["table"].iterrows()]


def policy_rates(group) -> pd.DataFrame:
    """Per policy, over every (game, seat) it played: seat_games, games (games it played in),
    win_rate (ties count as wins), win_lo, win_hi (95% Wilson), win_share, mean_score."""
    group = _group(group)
    sums = _by(group.sums(), "policy")
    n = sums["n"]
    win_lo, win_hi = stats.wilson_interval(sums["win"], n)
    met = group.meetings()["games"]
    out = pd.DataFrame({"seat_games": n.astype(int),
                        "games": met[met.index.get_level_values(0) == met.index.get_level_values(1)].droplevel(1),
                        "win_rate": sums["win"] / n, "win_lo": win_lo, "win_hi": win_hi,
                        "win_share": _wins(sums, group.players) / n, "mean_score": sums["score"] / n},
                       index=sums.index)
    out.index.name = "policy"
    return out


def seat_balance(group) -> tuple[pd.DataFrame, bool]:
    """(seat-games per policy and seat, whether every policy played every seat equally often,
    give or take one game per pooled file: the rotated-seat design that separates strategy from seat)."""
    group = _group(group)
    counts = group.sums()["n"].unstack("seat", fill_value=0).reindex(columns=range(group.players), fill_value=0)
    counts.columns.name = "seat"
    balanced = bool(((counts.max(axis=1) - counts.min(axis=1)) <= len(group.sources)).all())
    return counts, balanced


def policy_seat_rates(group) -> pd.DataFrame:
    """Per (policy, seat) it played: n (seat-games), win_rate (ties count as wins) with its 95%
    Wilson interval win_lo, win_hi, win_share, mean_score with its 95% Student-t interval
    score_lo, score_hi: the numbers of `simcore stats --by policy-seat`, from the group's counts."""
    group = _group(group)
    sums = group.sums()
    counts = group.score_counts()
    scores = counts.index.get_level_values("score").to_numpy(np.int64)
    squares = pd.Series(counts.to_numpy() * scores * scores, index=counts.index).groupby(level=["seat", "policy"]).sum()
    summed = pd.DataFrame({"n": sums["n"], "win": sums["win"], "win_share": _wins(sums, group.players),
                           "score": sums["score"], "score_sq": squares})
    return stats.rates(summed.reorder_levels(["policy", "seat"]).sort_index())


MIN_EXPECTED = 5     # the fewest wins and losses expected in every seat for a policy's chi-square test


def policy_seat_advantage(group) -> pd.DataFrame:
    """Per policy: does its win rate (ties count as wins) depend on the seat it played? Within
    its own seat-games, the chi-square test of equal win rates across the seats it played
    (equal_rates_test). Returns per policy: seats (how many it played), seat_games, wins, chi2,
    dof, p, and why_not where there is nothing to test ("one seat", "never won", "always won")
    or too little for the chi-square distribution to hold ("few": under MIN_EXPECTED wins or
    losses expected in a seat, Cochran's rule; "too few games": see equal_rates_test); else ""."""
    group = _group(group)
    sums, pairs = group.sums(), group.seat_pairs()
    rows = {}
    for policy in group.policies:
        part = sums.xs(policy, level="policy")
        seats = list(part.index)
        n, wins = part["n"].to_numpy(float), part["win"].to_numpy(float)
        rate = wins.sum() / n.sum()
        why = "one seat" if len(seats) < 2 else "never won" if rate == 0 else "always won" if rate == 1 else \
            "few" if n.min() * min(rate, 1 - rate) < MIN_EXPECTED else ""
        chi2 = p = np.nan
        if not why:
            held = pairs.xs(policy, level="policy") if policy in pairs.index.get_level_values("policy") else pairs.iloc[:0]
            matrices = {c: held[c].unstack("other", fill_value=0).reindex(index=seats, columns=seats, fill_value=0)
                        .to_numpy(float) for c in ["games", "wins", "both_won"]}
            chi2, p = equal_rates_test(n, wins, matrices["games"], matrices["wins"], matrices["both_won"])
            why = "" if np.isfinite(chi2) else "too few games"
        rows[policy] = {"seats": len(seats), "seat_games": int(n.sum()), "wins": int(wins.sum()), "chi2": chi2,
                        "dof": len(seats) - 1, "p": p, "why_not": why}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "policy"
    return table


def equal_rates_test(n, wins, games_both, wins_both, both_won) -> tuple[float, float]:
    """(chi2, p) of the test that k seats' win rates wins / n are equal, k − 1 degrees of
    freedom: the Wald form (d' S⁻¹ d, d the seats' rates minus the first seat's) of Pearson's
    chi-square, with its covariance estimated under equal rates r (the pooled rate).

    When one policy holds two seats i, j of the same game, those seat-games are not independent
    (one's win is mostly the other's loss). games_both[i, j] counts such games, wins_both[i, j]
    the wins at i in them, both_won[i, j] the games both won (a tie); their covariance term
    Σ (x_i − r)(x_j − r) / (n_i n_j) over those games enters the covariance, so the test keeps
    its level. Where no game holds two of the seats it is exactly Pearson's test (scipy's
    chi2_contingency on wins and losses per seat, no continuity correction). (nan, nan) when
    that covariance estimate is not positive definite (too few games)."""
    from scipy.stats import chi2

    n, wins = np.asarray(n, float), np.asarray(wins, float)
    k = len(n)
    rate = wins.sum() / n.sum()
    within = both_won - rate * (wins_both + np.transpose(wins_both)) + rate * rate * games_both
    covariance = within / np.outer(n, n)
    np.fill_diagonal(covariance, rate * (1 - rate) / n)
    contrast = np.hstack([-np.ones((k - 1, 1)), np.eye(k - 1)])       # each seat minus the first
    difference = contrast @ (wins / n)
    spread = contrast @ covariance @ contrast.T
    if np.linalg.eigvalsh(spread).min() <= 0:
        return np.nan, np.nan
    statistic = float(difference @ np.linalg.solve(spread, difference))
    return statistic, float(chi2.sf(statistic, k - 1))


def head_to_head(group) -> dict:
    """For every ordered pair of policies (A, B): "wins" = A's wins over B in seat-pair comparisons
    (a tie in rank half a win each way), "pairs" = those comparisons, "share" = wins / pairs (NaN
    where A and B never met, and on the diagonal), "games" = games where both played."""
    group = _group(group)
    names = group.policies
    table = group.meetings()
    meetings = {name: table[name].unstack("other", fill_value=0).reindex(index=names, columns=names, fill_value=0)
                .to_numpy() for name in table.columns}
    wins, pairs, games = meetings["wins2"] / 2, meetings["pairs"].copy(), meetings["games"].copy()
    for values in (wins, pairs, games):
        np.fill_diagonal(values, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(pairs > 0, wins / pairs, np.nan)
    index = pd.Index(names, name="policy")
    return {name: pd.DataFrame(values, index=index, columns=names)
            for name, values in [("wins", wins), ("pairs", pairs.astype(int)), ("share", share), ("games", games)]}


def bradley_terry(wins: pd.DataFrame) -> dict:
    """Bradley–Terry strengths from pairwise wins (wins.loc[A, B]: A's wins over B, may be
    fractional), the maximum-likelihood fit of choix (its Luce spectral ranking, iterated to the
    ML estimate). Returns {"strength": log-strengths normalised to mean 0 (NaN when the
    policies do not all meet, directly or through others), "regularised": whether half a win each
    way was added to every compared pair because the maximum-likelihood fit does not exist}."""
    import choix
    from scipy.sparse.csgraph import connected_components

    w = wins.to_numpy(dtype=float).copy()
    np.fill_diagonal(w, 0)
    n = w + w.T
    nan = pd.Series(np.nan, index=wins.index, name="strength")
    if len(w) < 2 or connected_components(n > 0, directed=False)[0] > 1:
        return {"strength": nan, "regularised": False}
    regularised = connected_components(w > 0, directed=True, connection="strong")[0] > 1
    if regularised:
        w = w + 0.5 * (n > 0)
    strength = choix.ilsr_pairwise_dense(w, tol=1e-13, max_iter=10_000)
    return {"strength": pd.Series(strength - strength.mean(), index=wins.index, name="strength"),
            "regularised": bool(regularised)}


def score_distribution(group, by: str) -> pd.DataFrame:
    """Per seat or per policy: n (seat-games), mean, sd, min, q5 .. q95, max of the score."""
    group = _group(group)
    counts = group.score_counts().groupby(level=[by, "score"]).sum()
    table = pd.DataFrame({key: distribution(part.droplevel(by)) for key, part in counts.groupby(level=by)}).T
    table.index.name = by
    table.insert(0, "n", counts.groupby(level=by).sum())
    if by == "seat":
        table.insert(0, "policy", _seat_policies(group))
    return table


def points_by_category(group, by: str) -> pd.DataFrame:
    """Mean points of every score category (pts_ prefix dropped) and the mean score, per seat or policy."""
    group = _group(group)
    sums = _by(group.sums(), by)
    columns = [c for c in group.columns if c.startswith("pts_")] + ["score"]
    return sums[columns].div(sums["n"], axis=0).rename(columns=lambda c: c.removeprefix("pts_"))


def margins(group) -> dict:
    """Margin of victory (best score minus second best, per game): {"summary": mean, sd, min,
    quantiles, max; "games"; "ties": share of games won by more than one seat;
    "tiebreaks": share of games whose top score was shared but a tie-break gave one winner}."""
    group = _group(group)
    return {"summary": distribution(group.margin_counts()), "games": group.games,
            "ties": group._ties / group.games, "tiebreaks": group._tiebreaks / group.games}


def counter_columns(group) -> tuple[list[str], list[str]]:
    """(seat columns, game columns) of the rows: the game's own counters. A registered game's
    GameSpec says which is which; otherwise a counter equal on every seat of every game is a game column."""
    group = _group(group)
    counters = [c for c in group.columns if not c.startswith("pts_")]
    split = group.counter_split()
    if split:
        return split
    return [c for c in counters if not group._same[c]], [c for c in counters if group._same[c]]


def game_counters(group) -> pd.DataFrame:
    """Every game column (turns, scorings, discards, ...): mean, sd, min, quantiles, max over games."""
    group = _group(group)
    _, columns = counter_columns(group)
    return pd.DataFrame({c: distribution(group.game_value_counts(c)) for c in columns}).T.rename_axis("column")


def seat_counters(group, by: str) -> pd.DataFrame:
    """The mean of every seat column (outbreaks, discarded units, ...) per seat or per policy."""
    group = _group(group)
    columns, _ = counter_columns(group)
    sums = _by(group.sums(), by)
    return sums[columns].div(sums["n"], axis=0)


def distribution(counts: pd.Series) -> pd.Series:
    """mean, sd (ddof 1), min, the QUANTILES and max of integer values given as value -> count.
    Exact: the sums are Python integers (no rounding until the one division), and the quantiles
    are pandas' (numpy's linear interpolation) taken from the cumulative counts."""
    counts = counts[counts > 0].sort_index()
    values = counts.index.to_numpy(np.int64)
    weights = counts.to_numpy(np.int64)
    n = int(weights.sum())
    total = int(np.dot(values.astype(object), weights.astype(object)))
    squares = int(np.dot(values.astype(object) ** 2, weights.astype(object)))
    sd = math.sqrt((n * squares - total * total) / (n * (n - 1))) if n > 1 else math.nan
    ends = np.cumsum(weights)          # the sorted values' positions: value k fills [ends[k-1], ends[k])
    quantiles = {}
    for q in QUANTILES:
        h = (n - 1) * q
        low = math.floor(h)
        a, b = (values[np.searchsorted(ends, i, side="right")] for i in (low, min(low + 1, n - 1)))
        gamma, diff = h - low, b - a
        # numpy's lerp, term for term, so the quantile is the very float pandas gives
        quantiles[_quantile_name(q)] = float(b - diff * (1 - gamma)) if gamma >= 0.5 else float(a + diff * gamma)
    return pd.Series({"mean": total / n, "sd": sd, "min": float(values[0]), **quantiles, "max": float(values[-1])})


def _quantile_name(q: float) -> str:
    return f"q{round(100 * q)}"


# ---- plots -----------------------------------------------------------------------------

def _figure(width: float, height: float):
    # a Figure on the Agg canvas, never pyplot: no screen, no global backend switch, no figure leaks
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    figure = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


MAX_BINS = 60        # a score histogram's most bins: wider score ranges take bins of 2, 3, ... scores


def score_bins(low: int, high: int, max_bins: int = MAX_BINS) -> np.ndarray:
    """Histogram edges for integer scores low..high: every bin holds the same whole number of
    scores (the fewest that keep the bins at most max_bins, starting at a multiple of it) and
    its edges lie halfway between integers. Bins of a fractional width would hold one score,
    then two, in turn: a comb of tall and short bars that is in the bins, not in the scores."""
    width = max(1, math.ceil((high - low + 1) / max_bins))
    first = width * math.floor(low / width)
    count = (high - first) // width + 1
    return first - 0.5 + width * np.arange(count + 1)


def score_histograms(group) -> tuple[np.ndarray, dict[tuple[int, str], np.ndarray]]:
    """(edges, {(seat, policy): seat-games per bin}) of the final scores, on the group's score_bins."""
    group = _group(group)
    counts = group.score_counts()
    scores = counts.index.get_level_values("score")
    edges = score_bins(int(scores.min()), int(scores.max()))
    bins = np.searchsorted(edges, scores.to_numpy(), side="right") - 1
    per_bin = counts.groupby([counts.index.get_level_values("seat"), counts.index.get_level_values("policy"), bins]).sum()
    histograms = {}
    for (seat, policy), part in per_bin.groupby(level=[0, 1]):
        values = np.zeros(len(edges) - 1, np.int64)
        values[part.index.get_level_values(2).to_numpy()] = part.to_numpy()
        histograms[(int(seat), str(policy))] = values
    return edges, histograms


def plot_score_histograms(group, path: str, title: str):
    """One histogram of the final score per seat on a shared score axis, from the counts of every
    score. A mixed lineup's panels hold one outline per policy, each as the share of that
    policy's games in the seat, so the policies compare whatever their number of games there.
    Returns the figure (saved to path)."""
    group = _group(group)
    players, policies = group.players, group.policies
    mixed = len(policies) > 1
    edges, histograms = score_histograms(group)
    seat_policies = _seat_policies(group)
    columns = 2 if players == 4 else min(players, 3)
    rows = math.ceil(players / columns)
    figure = _figure(3.4 * columns, 2.6 * rows + 0.7)
    axes = figure.subplots(rows, columns, sharex=True, sharey=True, squeeze=False).ravel()
    for seat in range(players):
        ax = axes[seat]
        for j, policy in enumerate(policies):
            values = histograms.get((seat, policy))
            if values is None:
                continue
            if mixed:
                ax.stairs(values / values.sum(), edges, color=f"C{j}", linewidth=1.4, label=policy)
            else:
                ax.stairs(values, edges, fill=True, color=f"C{seat}")
        ax.set_title(f"seat {seat} ({seat_policies[seat]})", fontsize=9)
        ax.set_xlabel("score")
        ax.set_ylabel("share of its games" if mixed else "games")
        ax.tick_params(labelbottom=True)
    for ax in axes[players:]:
        ax.set_visible(False)
    if mixed:
        axes[0].legend(fontsize=7, title="policy", title_fontsize=7)
    _title(figure, f"{title}: score per seat" + (", by policy" if mixed else ""))
    figure.savefig(path)
    return figure


def _title(figure, text: str, fontsize: float = 10) -> None:
    """The figure's title, broken into lines where it would be wider than the figure: a long
    group title (lineup, games, seeds) is never cut at the edges."""
    import textwrap

    renderer = figure.canvas.get_renderer()
    lines = text.split("\n")
    width = max(map(len, lines))
    while True:
        wrapped = "\n".join(textwrap.fill(line, width, break_on_hyphens=False) for line in lines)
        title = figure.suptitle(wrapped, fontsize=fontsize)
        if title.get_window_extent(renderer).width <= 0.96 * figure.bbox.width or width <= 20:
            return
        width -= 4


def plot_win_share(advantage: dict, path: str, title: str):
    """Win share per seat with its 95% simultaneous interval as error bars; equal share dashed.
    Returns the figure (saved to path)."""
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
    _title(figure, f"{title}\nwin share per seat, 95% simultaneous intervals")
    figure.savefig(path)
    return figure


def plot_points(by_seat: pd.DataFrame, by_policy: pd.DataFrame | None, path: str, title: str):
    """Mean points per category as stacked bars per seat (and per policy): gains up, losses down.
    Returns the figure (saved to path)."""
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
    _title(figure, f"{title}\npoints by category")
    figure.savefig(path)
    return figure


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
    """A p-value in a table's cell: "0.0123", "< 1e-300" where it underflows, "n/a" where there is none."""
    if not np.isfinite(p):
        return "n/a"
    return "< 1e-300" if p == 0 else f"{p:.3g}"


def _p_is(p: float) -> str:
    """A p-value in a sentence: "p = 0.0123", "p < 1e-300" (never "p = < 1e-300")."""
    text = _pvalue(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


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
        advantage = advantages.get(id(group)) or seat_advantage(group)
        table, t = advantage["table"], group.tag()
        cells = [f"{100 * row.win_share:.1f}% [{100 * row.lo:.1f}, {100 * row.hi:.1f}]" for _, row in table.iterrows()]
        rows.append([group.lineup] + cells + [_pvalue(advantage["p"]), t])
        lines.append(f"{group.lineup}: " + ", ".join(f"seat {seat} wins {cell}" for seat, cell in enumerate(cells))
                     + f" vs {expected} expected; chi-square {_p_is(advantage['p'])} {t}")
        if len(group.policies) > 1 and not seat_balance(group)[1]:
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


def policy_seat_blocks(group: Group) -> list:
    """A mixed lineup's seat advantage policy by policy: each policy in each seat (games, win rate
    and mean score with their intervals), and each policy's own test of equal win rates across
    its seats. With rotated seats every seat holds each policy equally often, so the pooled
    shares above are about equal by design whatever the seats do for each policy."""
    t = group.tag()
    rates = policy_seat_rates(group)
    blocks: list = [Table(f"Each policy in each seat: seat-games, win rate (ties count as wins) with its 95% Wilson "
                          f"interval, mean score with its 95% Student-t interval {t}",
                          ["policy", "seat", "games", "win_rate", "win_interval", "mean_score", "score_interval"],
                          [[policy, str(seat), _number(row["n"]), _percent(row["win_rate"]),
                            _interval(row["win_lo"], row["win_hi"], percent=True), _number(row["mean_score"]),
                            _interval(row["score_lo"], row["score_hi"])] for (policy, seat), row in rates.iterrows()])]
    if seat_balance(group)[1]:
        blocks.append("Every seat held each policy equally often (rotated seats), so the shares per seat above average "
                      "over the policies and are about equal by design; whether a seat helps a policy is tested below, "
                      f"within that policy's own games {t}.")
    tests = policy_seat_advantage(group)
    verdicts = {"one seat": "played one seat only: nothing to compare", "never won": "never won: nothing to compare",
                "always won": "won every game: nothing to compare", "too few games": "too few games to test",
                "few": f"too few wins or losses to test (under {MIN_EXPECTED} expected in a seat)"}
    cells = []
    for policy, row in tests.iterrows():
        verdict = verdicts.get(row["why_not"]) or ("its win rate differs between seats" if row["p"] < 1 - CONFIDENCE
                                                   else "no evidence that its win rate differs between seats")
        tested = bool(np.isfinite(row["chi2"]))
        cells.append([policy, str(row["seats"]), _number(row["seat_games"]), f"{row['chi2']:.2f}" if tested else "n/a",
                      str(row["dof"]) if tested else "n/a", _pvalue(row["p"]), verdict])
    blocks.append(Table(f"Seat advantage of each policy on its own: chi-square test of equal win rates across the seats it "
                        f"played, 5% level {t}", ["policy", "seats", "seat_games", "χ²", "df", "p", "verdict"], cells))
    blocks.append("Method: per policy, its seat-games alone: Pearson's chi-square test of equal win rates (ties count as "
                  "wins) across the seats it played, k − 1 degrees of freedom. Where it held several seats of one game "
                  "those seat-games are not independent (one's win is mostly the other's loss): the test then adds their "
                  "within-game covariance, estimated from those games, so it keeps its 5% level.")
    return blocks


def _interval(lo: float, hi: float, percent: bool = False) -> str:
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return "n/a"
    return f"[{100 * lo:.1f}, {100 * hi:.1f}]" if percent else f"[{_number(lo)}, {_number(hi)}]"


def group_blocks(group: Group, images: dict[str, str], advantage: dict | None = None) -> list:
    """The section of one group: headings (str starting with '#'), paragraphs (str), Tables, Images.
    advantage: the group's seat_advantage, where already computed."""
    t = group.tag()
    lineup = f" · lineup {group.lineup}" if group.lineup else ""
    blocks: list = [f"## {group.game} · {group.players} players · data {group.data}{lineup} {t}"]
    blocks.append("Files: " + ", ".join(f"`{p}`" for p in group.sources.values()) + ".")
    for first, second in repeated_games(group):
        blocks.append(f"Note: `{group.sources[first]}` and `{group.sources[second]}` hold the same games (same seed, "
                      "same policies): pooled, those games count twice.")

    # seat advantage
    advantage = advantage or seat_advantage(group)
    blocks.append("### Seat advantage")
    blocks.extend(seat_lines(advantage, group))
    blocks.append(_table(f"Win share per seat, 95% simultaneous intervals (Goodman) {t}",
                         advantage["table"].assign(interval=[f"[{100 * lo:.1f}, {100 * hi:.1f}]" for lo, hi in
                                                             zip(advantage["table"]["lo"], advantage["table"]["hi"])]),
                         "seat", {"policy": str, "games": _number, "wins": _number, "win_share": _percent,
                                  "interval": str, "expected": _percent_plain, "win_rate": _percent}))
    verdict = "the seats' shares differ" if advantage["p"] < 1 - CONFIDENCE else "no evidence that the seats' shares differ"
    blocks.append(f"Chi-square test against equal shares: χ² = {advantage['chi2']:.2f}, df = {advantage['dof']}, "
                  f"{_p_is(advantage['p'])} — {verdict} at the 5% level {t}.")
    blocks.append("Method: wins are win_share summed: a game won by k tied seats counts 1/k for each, so the seats' counts "
                  "add up to the games; the intervals hold for all seats at once (statsmodels "
                  "multinomial_proportions_confint, method goodman, on these counts). win_rate counts a tied win as a win.")
    if len(group.policies) > 1 and not seat_balance(group)[1]:
        blocks.append("Warning: the seats did not all play the same policies equally often (run with --rotate-seats): "
                      f"these shares mix seat advantage with strategy {t}.")
    blocks.append(Image(images["win_share"], f"win share per seat with 95% simultaneous intervals {t}"))
    if len(group.policies) > 1:
        blocks += policy_seat_blocks(group)

    # strategy comparison
    blocks.append("### Strategy comparison")
    rates = policy_rates(group)
    blocks.append(_table(f"Win rate per policy (ties count as wins), 95% Wilson interval; seat_games = the (game, seat) "
                         f"pairs it played {t}",
                         rates.assign(interval=[f"[{100 * lo:.1f}, {100 * hi:.1f}]" for lo, hi in
                                                zip(rates["win_lo"], rates["win_hi"])]),
                         "policy", {"seat_games": _number, "games": _number, "win_rate": _percent, "interval": str,
                                    "win_share": _percent, "mean_score": _number}))
    if len(rates) < 2:
        blocks.append(f"One policy ({rates.index[0]}) played every seat: nothing to compare {t}.")
    else:
        counts, balanced = seat_balance(group)
        blocks.append(_table(f"Seat-games per policy and seat {t}", counts.rename(columns=lambda s: f"seat {s}"),
                             "policy", {f"seat {s}": _number for s in counts.columns}))
        blocks.append("Every policy played every seat equally often (rotated seats): the comparison is free of seat "
                      f"advantage {t}." if balanced else
                      "Warning: the policies did not play every seat equally often (run with --rotate-seats): the "
                      f"comparison below mixes strategy with seat advantage {t}.")
        h2h = head_to_head(group)
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
        blocks.append("Method: Bradley–Terry, the maximum-likelihood fit (choix, iterative Luce spectral ranking) to the "
                      "head-to-head wins; θ is on a log "
                      "scale, normalised to mean 0: P(A beats B) = 1 / (1 + exp(θB − θA))."
                      + (" A policy won or lost every comparison, so no maximum-likelihood fit exists: half a win "
                         "each way was added to every compared pair." if rating["regularised"] else "")
                      + (" Some policies never met, directly or through others: no common scale." if
                         strength.isna().all() else "") + f" {t}")

    # scores
    blocks.append("### Scores")
    for by in ["seat", "policy"]:
        table = score_distribution(group, by)
        blocks.append(_table(f"Score per {by}: n = seat-games, sd with ddof 1, quantiles q5..q95 {t}", table, by,
                             _distribution_formats(table.columns)))
    blocks.append(Image(images["scores"], f"score histograms per seat {t}"))
    points_seat, points_policy = points_by_category(group, "seat"), points_by_category(group, "policy")
    for by, table in [("seat", points_seat), ("policy", points_policy)]:
        blocks.append(_table(f"Mean points by category per {by} {t}", table, by, {c: _number for c in table.columns}))
    blocks.append(Image(images["points"], f"mean points by category, stacked {t}"))
    margin = margins(group)
    blocks.append(_table(f"Margin of victory: best score minus second best {t}",
                         margin["summary"].to_frame("margin").T, "", {c: _number for c in margin["summary"].index}))
    blocks.append(f"Ties: {_percent(margin['ties'])} of games were won by more than one seat; "
                  f"{_percent(margin['tiebreaks'])} had a shared top score decided by the tie-break {t}.")

    # game length and counters
    blocks.append("### Game length and counters")
    seat_columns, game_columns = counter_columns(group)
    if game_columns:
        table = game_counters(group)
        blocks.append(_table(f"Game columns, one value per game (game length and more) {t}", table, "column",
                             {c: _number for c in table.columns}))
    else:
        blocks.append(f"No game columns {t}.")
    if seat_columns:
        for by in ["seat", "policy"]:
            table = seat_counters(group, by).T
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


def report_files(out_dir: str) -> list[str]:
    """The names of a report's files in out_dir: report.md, report.html and the plots named as a
    report names them (<slug>-win_share.png, ...); other files (a run's results.parquet) are not."""
    if not os.path.isdir(out_dir):
        return []
    return sorted(name for name in os.listdir(out_dir)
                  if name in _REPORTS or (name.endswith(".png") and name[:-4].rpartition("-")[2] in PLOTS))


_REPORTS = tuple(f"report.{fmt}" for fmt in FORMATS)


def check_folder(out_dir: str, force: bool = False) -> None:
    """A report is never replaced silently: a UserError if out_dir already holds one (report.md,
    report.html or its plots), unless force. write_report checks before it reads anything;
    `simulate --report DIR` checks before it plays."""
    held = report_files(out_dir)
    if held and not force:
        reports = [name for name in held if name in _REPORTS]
        plots = len(held) - len(reports)
        what = ", ".join(reports + ([f"{plots} plot{'s' if plots != 1 else ''}"] if plots else []))
        raise UserError(f"report folder {out_dir} already holds a report ({what}): give --force to replace it")


def _prepare_folder(out_dir: str, force: bool = False) -> None:
    """Creates out_dir; with force, removes the report it held (its report files and plots), so
    no plot of the old report stays beside the new one."""
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise UserError(f"report folder {out_dir}: cannot create it ({e.strerror or e})") from e
    if not os.path.isdir(out_dir) or not os.access(out_dir, os.W_OK):
        raise UserError(f"report folder {out_dir}: cannot write there")
    if force:
        for name in report_files(out_dir):
            try:
                os.remove(os.path.join(out_dir, name))
            except OSError as e:
                raise UserError(f"report folder {out_dir}: cannot replace {name} ({e.strerror or e})") from e


def report_frames(named: list[tuple[str, pd.DataFrame]], out_dir: str, fmt: str = "md",
                  force: bool = False) -> list[str]:
    """The report on results rows already in memory, as (name, rows) pairs (a name stands for the
    file in the report): writes report.<fmt> and the PNGs into out_dir; returns the paths written.
    A report already in out_dir is a UserError, or with force replaced."""
    _check_format(fmt)
    check_folder(out_dir, force)
    return _write(group_frames(named), out_dir, fmt, force)


def write_report(paths: list[str], out_dir: str, fmt: str = "md", force: bool = False) -> list[str]:
    """Reads the results files at paths, chunk by chunk, and writes the report into out_dir
    (created if missing): report.md (PNGs linked) or report.html (PNGs embedded). Returns the
    paths written, the report first. A report already in out_dir is a UserError, or with force
    replaced. User mistakes raise UserError."""
    _check_format(fmt)
    check_folder(out_dir, force)
    return _write(read_groups(paths), out_dir, fmt, force)


def _write(groups: list[Group], out_dir: str, fmt: str, force: bool) -> list[str]:
    _prepare_folder(out_dir, force)
    written = []
    blocks: list = ["# simcore report",
                    ("Every number comes with the games and the seed it came from, as (N games, seed S). "
                     "Seats are numbered as in the results files: seat 0 plays first.")]
    if len(groups) > 1:
        blocks.append("The files hold different games, player counts, component data or lineups (the seats' "
                      "policies): one section each (files of the same game, player count, data and lineup are pooled).")
    advantages = {id(group): seat_advantage(group) for group in groups}
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
            images = {name: os.path.join(out_dir, f"{slug}-{name}.png") for name in PLOTS}
            plot_win_share(advantages[id(group)], images["win_share"], title)
            plot_score_histograms(group, images["scores"], title)
            plot_points(points_by_category(group, "seat").drop(columns="score"),
                        points_by_category(group, "policy").drop(columns="score") if len(group.policies) > 1 else None,
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
