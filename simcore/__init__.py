"""simcore: fast Monte Carlo simulation of modern board games."""
from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from simcore import compile_cache

compile_cache.configure()      # before any kernel is defined: they read the cache folder then

from simcore import runner  # noqa: E402
from simcore.registry import UserError, games  # noqa: E402

__all__ = ["simulate", "replay", "draw", "games", "UserError"]


def simulate(game: str, players: int | None = None, games: int = 1000, seed: int = 0,
             policies: Iterable[str] | None = None, rotate_seats: bool = False,
             workers: int | None = None, out: str | None = None, data: str | None = None) -> pd.DataFrame:
    """Plays games 0..games-1 of `game` under `seed` and returns every (game, seat) row.

    policies: one name for every seat or one per seat (default random); rotate_seats moves the
    assignment one seat per game. workers: threads (default all cores). out: also write the rows
    to a .parquet/.csv file. data: a component data file instead of the game's own.
    The frame's attrs["games_per_second"] holds the measured speed."""
    plan = runner.plan(game, players=players, games=games, seed=seed, policies=policies,
                       rotate_seats=rotate_seats, workers=workers, data=data)
    outcome = runner.run(plan, out=out, keep_rows=True)
    outcome.frame.attrs["games_per_second"] = outcome.games_per_second
    return outcome.frame


def replay(game: str, players: int | None = None, seed: int = 0, index: int = 0,
           policies: Iterable[str] | None = None, data: str | None = None,
           rotate_seats: bool = False) -> list[str]:
    """The move log, in words, of game `index` under `seed`: the game of simulate()'s rows with
    game_index == index (give the same policies and rotate_seats)."""
    plan = runner.plan(game, players=players, games=1, seed=seed, policies=policies,
                       rotate_seats=rotate_seats, workers=1, data=data)
    return runner.replay(plan, index)


def draw(game: str, path: str, players: int | None = None, seed: int = 0, index: int = 0,
         policies: Iterable[str] | None = None, data: str | None = None, rotate_seats: bool = False) -> None:
    """A PNG picture (matplotlib) of the final state of the game replay() describes, at path."""
    plan = runner.plan(game, players=players, games=1, seed=seed, policies=policies,
                       rotate_seats=rotate_seats, workers=1, data=data)
    if plan.spec.draw is None:
        raise UserError(f"{game} has no pictures yet")
    if index < 0:
        raise UserError(f"index must be at least 0, got {index}")
    if not str(path).lower().endswith(".png"):
        raise UserError(f"picture path {path} must end in .png")
    seats = runner.assign_seats(runner.policy_ids(plan), index, 1, plan.rotate_seats)[0]
    try:
        plan.spec.draw(plan.data, plan.players, seats, plan.seed, index, str(path))
    except OSError as exc:
        raise UserError(f"cannot write picture {path}: {exc.strerror}") from None
