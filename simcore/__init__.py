"""simcore: fast Monte Carlo simulation of modern board games."""
from __future__ import annotations

import os
from collections.abc import Iterable

import pandas as pd

from simcore import compile_cache

compile_cache.configure()      # before any kernel is defined: they read the cache folder then

from simcore import agents, runner  # noqa: E402
from simcore.contract import UserError  # noqa: E402
from simcore.registry import games  # noqa: E402
from simcore.step import open_game  # noqa: E402

__all__ = ["simulate", "replay", "draw", "games", "play_tournament", "tune_policy", "open_game", "UserError"]


def simulate(game: str, players: int | None = None, games: int = 1000, seed: int = 0,
             policies: Iterable[str] | None = None, rotate_seats: bool = False,
             workers: int | None = None, out: str | None = None, data: str | None = None,
             resume: bool = False, force: bool = False) -> pd.DataFrame:
    """Plays games 0..games-1 of `game` under `seed` and returns every (game, seat) row.

    policies: one name for every seat or one per seat (default random); rotate_seats moves the
    assignment one seat per game. workers: threads (default all cores). out: also write the rows
    to a .parquet/.csv file; an existing one is a UserError unless resume (keep its games, play
    the rest) or force (replace it). data: a component data file instead of the game's own.
    The frame's attrs["games_per_second"] holds the measured speed."""
    plan = runner.plan(game, players=players, games=games, seed=seed, policies=policies,
                       rotate_seats=rotate_seats, workers=workers, data=data)
    outcome = runner.run(plan, out=out, keep_rows=True, resume=resume, force=force)
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
         policies: Iterable[str] | None = None, data: str | None = None, rotate_seats: bool = False,
         every: int | None = None) -> list[str]:
    """A PNG picture (matplotlib) of the final state of the game replay() describes, at path.

    every=N also draws the game in progress after N, 2N, ... turns or rounds (the game's
    GameSpec.picture_step) as <stem>-turn010.png, <stem>-turn020.png, ... beside path, up to the
    last such point before the game ends. Returns the paths written, the final picture last."""
    plan = runner.plan(game, players=players, games=1, seed=seed, policies=policies,
                       rotate_seats=rotate_seats, workers=1, data=data)
    if plan.spec.draw is None:
        raise UserError(f"{game} has no pictures yet")
    if agents.has_agents(plan.policies):
        raise UserError("pictures of games with Python agents are not drawn yet: replay the game as text")
    if index < 0:
        raise UserError(f"index must be at least 0, got {index}")
    if not str(path).lower().endswith(".png"):
        raise UserError(f"picture path {path} must end in .png")
    unit = plan.spec.picture_step
    if every is not None and every < 1:
        raise UserError(f"pictures every N {unit}s need N of at least 1, got {every}")
    seats = runner.assign_seats(runner.policy_ids(plan), index, 1, plan.rotate_seats)[0]
    final = str(path)
    written, target = [], final
    try:
        halt_at = every or 0
        while halt_at:
            target = f"{final[:-len('.png')]}-{unit}{halt_at:03d}.png"
            if not plan.spec.draw(plan.data, plan.players, seats, plan.seed, index, target, halt_at=halt_at,
                                  lineup=plan.lineup):
                os.replace(target, final)        # the game ended first: this is the final picture
                break
            written.append(target)
            halt_at += every
        else:                                    # no pictures of the game in progress asked for
            target = final
            plan.spec.draw(plan.data, plan.players, seats, plan.seed, index, final, lineup=plan.lineup)
    except OSError as exc:
        raise UserError(f"cannot write picture {target}: {exc.strerror}") from None
    return written + [final]


def play_tournament(game: str, policies: Iterable[str], players: int | None = None, games: int = 1000,
                    seed: int = 0, workers: int | None = None, data: str | None = None, out: str | None = None,
                    resume: bool = False, force: bool = False) -> dict:
    """`simcore tournament`: every policy meets the others on common seeds; returns the ranking
    (tournament.json's object) and writes the matches' results and the report to `out`
    (default tournament-GAME)."""
    from simcore import tournament
    tp = tournament.plan(game, policies, players=players, games=games, seed=seed, workers=workers, data=data, out=out)
    return tournament.run(tp, resume=resume, force=force).ranking


def tune_policy(game: str, policy: str, space: Iterable[str], against: Iterable[str], players: int | None = None,
                trials: int = 50, games: int = 1000, held_out: int | None = None, seed: int = 0,
                workers: int | None = None, data: str | None = None, out: str | None = None,
                resume: bool = False, force: bool = False) -> dict:
    """`simcore tune`: the values of `policy`'s parameters in `space` ("NAME=LO:HI" each) that win
    most against `against`; returns tune.json's object and writes the study to `out` (default
    tune-GAME)."""
    from simcore import tune
    tp = tune.plan(game, policy, space, against, players=players, trials=trials, games=games, held_out=held_out,
                   seed=seed, workers=workers, data=data, out=out)
    return tune.run(tp, resume=resume, force=force)
