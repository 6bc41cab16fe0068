"""Win rates with intervals, mean scores, where the points come from: per seat and per policy.

Everything is computed from running sums per (seat, policy) — a Tally — so a run of millions
of games is summarised chunk by chunk without holding its rows. A whole DataFrame is just a
single chunk.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import ndtri, stdtrit   # normal and Student-t quantiles; lighter to import than scipy.stats

from simcore.contract import UserError

CONFIDENCE = 0.95
_SUMMED = ["n", "win", "win_share", "score", "score_sq"]


def wilson_interval(wins, n, confidence: float = CONFIDENCE):
    """Wilson score interval of a binomial proportion wins/n; (lo, hi), arrays or scalars."""
    wins, n = np.asarray(wins, dtype=float), np.asarray(n, dtype=float)
    z = ndtri(0.5 + confidence / 2)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def mean_interval(total, total_sq, n, confidence: float = CONFIDENCE):
    """Student-t interval of a mean from the sum and sum of squares of n values; NaN when n < 2."""
    total, total_sq, n = (np.asarray(x, dtype=float) for x in (total, total_sq, n))
    mean = total / n
    with np.errstate(divide="ignore", invalid="ignore"):
        variance = np.maximum(total_sq - total * mean, 0) / (n - 1)
        half = stdtrit(n - 1, 0.5 + confidence / 2) * np.sqrt(variance / n)
    half = np.where(n >= 2, half, np.nan)
    return mean - half, mean + half


class Tally:
    """Running sums of a results table per (seat, policy), plus what the rows were about."""

    def __init__(self):
        self.games = 0
        self._sums: pd.DataFrame | None = None
        self._seen = {"game": set(), "players": set(), "seed": set(), "data": set()}

    @classmethod
    def of(cls, frame: pd.DataFrame) -> "Tally":
        return cls().add(frame)

    def add(self, frame: pd.DataFrame) -> "Tally":
        """Adds the rows of one chunk; returns self."""
        if frame.empty:
            return self
        self.games += int((frame["seat"] == 0).sum())
        for column, seen in self._seen.items():
            if column in frame.columns:
                seen.update(frame[column].unique().tolist())
        score = frame["score"].astype(np.int64)
        summed = frame.assign(n=1, score=score, score_sq=score * score)[_SUMMED + _points_columns(frame)]
        chunk = summed.groupby([frame["seat"], frame["policy"]]).sum()
        self._sums = chunk if self._sums is None else pd.concat([self._sums, chunk]).groupby(level=[0, 1]).sum()
        return self

    def by_seat(self) -> pd.DataFrame:
        """Per seat: policy (names joined when seats rotate), n, win_rate, win_lo, win_hi, win_share,
        mean_score, score_lo, score_hi and the mean of every pts_ column."""
        sums = self._checked_sums()
        table = rates(sums.groupby(level="seat").sum())
        policies = sums.index.to_frame(index=False).groupby("seat")["policy"].agg(lambda s: ", ".join(sorted(s)))
        table.insert(0, "policy", policies)
        return table

    def by_policy(self) -> pd.DataFrame:
        """Per policy, over every (game, seat) it played: the same columns as by_seat."""
        return rates(self._checked_sums().groupby(level="policy").sum())

    def by_policy_seat(self) -> pd.DataFrame:
        """Per (policy, seat): how each policy did in each seat, the table a mixed lineup with
        rotated seats needs (its seats' own rows mix the policies)."""
        sums = self._checked_sums()
        return rates(sums.reorder_levels(["policy", "seat"]).sort_index())

    def summary(self, games_per_second: float | None = None) -> dict:
        """The JSON summary of `simcore simulate --json` (see the README for its shape)."""
        seats, policies = self.by_seat(), self.by_policy()
        return {
            "game": _single(self._seen["game"]),
            "players": _single(self._seen["players"]),
            "games": self.games,
            "seed": _single(self._seen["seed"]),
            "games_per_second": json_number(games_per_second),
            "data": _single(self._seen["data"]),
            "seats": [{"seat": int(seat), "policy": row["policy"], **rate_fields(row),
                       "points": {c.removeprefix("pts_"): json_number(row[c]) for c in _points_columns(seats)}}
                      for seat, row in seats.iterrows()],
            "policies": [{"policy": policy, **rate_fields(row)} for policy, row in policies.iterrows()],
            "policy_seats": [{"policy": policy, "seat": int(seat), **rate_fields(row)}
                             for (policy, seat), row in self.by_policy_seat().iterrows()],
        }

    def _checked_sums(self) -> pd.DataFrame:
        if self._sums is None:
            raise UserError("no games to summarise")
        return self._sums


def by_seat(frame: pd.DataFrame) -> pd.DataFrame:
    return Tally.of(frame).by_seat()


def by_policy(frame: pd.DataFrame) -> pd.DataFrame:
    return Tally.of(frame).by_policy()


def summary(frame: pd.DataFrame, games_per_second: float | None = None) -> dict:
    return Tally.of(frame).summary(games_per_second)


def rates(sums: pd.DataFrame) -> pd.DataFrame:
    """The rates of summed rows (columns n, win, win_share, score, score_sq and any pts_), on
    their index: n, win_rate, win_lo, win_hi (95% Wilson), win_share, mean_score, score_lo,
    score_hi (95% Student-t) and the mean of every pts_ column."""
    n = sums["n"]
    win_lo, win_hi = wilson_interval(sums["win"], n)
    score_lo, score_hi = mean_interval(sums["score"], sums["score_sq"], n)
    table = pd.DataFrame({
        "n": n,
        "win_rate": sums["win"] / n,
        "win_lo": win_lo,
        "win_hi": win_hi,
        "win_share": sums["win_share"] / n,
        "mean_score": sums["score"] / n,
        "score_lo": score_lo,
        "score_hi": score_hi,
    }, index=sums.index)
    for column in _points_columns(sums):
        table[column] = sums[column] / n
    return table


def speed_text(games_per_second: float | None, unit: str = " games/s") -> str:
    """A speed as every command prints it: whole games from 100 a second up ("2,398 games/s"),
    three significant digits below ("0.38 games/s", "12.3 games/s"): a slow run never reads
    "0 games/s". "no games played" when there is no speed (a resumed run that had nothing left)."""
    if games_per_second is None or not np.isfinite(games_per_second):
        return "no games played"
    number = f"{games_per_second:,.0f}" if games_per_second >= 100 else f"{games_per_second:.3g}"
    return number + unit


def rate_fields(row: pd.Series) -> dict:
    """A row of `rates` as the JSON outputs give it: games, win rate and share, mean score, intervals."""
    return {
        "games": int(row["n"]),
        "win_rate": json_number(row["win_rate"]),
        "win_ci": [json_number(row["win_lo"]), json_number(row["win_hi"])],
        "win_share": json_number(row["win_share"]),
        "mean_score": json_number(row["mean_score"]),
        "score_ci": [json_number(row["score_lo"]), json_number(row["score_hi"])],
    }


def _points_columns(frame: pd.DataFrame) -> list[str]:
    return [c for c in frame.columns if c.startswith("pts_")]


def json_number(x) -> float | None:
    """A plain float for JSON; None where the value is undefined (an interval from one game)."""
    return None if x is None or not np.isfinite(x) else float(x)


def _single(values: set):
    """The value when all rows agree (the usual single run), else the sorted list of values."""
    plain = sorted(v.item() if isinstance(v, np.generic) else v for v in values)
    return plain[0] if len(plain) == 1 else plain
