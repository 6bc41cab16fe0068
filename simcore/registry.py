"""The games: id -> GameSpec. Adding a game touches this file and its own package only."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np


class UserError(Exception):
    """A mistake in what the user asked for (bad game, player count, data file, ...).

    The CLI prints its message as one line and exits with status 2."""


@dataclass(frozen=True)
class BatchResult:
    """What a game's batch kernel returns for `count` consecutive games.

    pts:  int32[count, players, len(categories)], points per seat and score category
    game: int32[count, len(game_columns)], game-level counters (turns, discards, ...)
    seat: int32[count, players, len(seat_columns)], per-seat counters (outbreaks, ...), or None
    tiebreak: int32[count, players], ranks seats of equal score (higher first), or None (ties share)
    """
    pts: np.ndarray
    game: np.ndarray
    seat: np.ndarray | None = None
    tiebreak: np.ndarray | None = None


@dataclass(frozen=True)
class CheckResult:
    """What a game's invariant checker found in `count` consecutive games (GameSpec.check_batch).

    violation: int32[count], 0 for a clean game, else the code of its first broken invariant
               (GameSpec.violations names each code)
    step: int32[count], where it broke: the turn, round or year (GameSpec.check_step) it was found in
    """
    violation: np.ndarray
    step: np.ndarray


@dataclass(frozen=True)
class GameSpec:
    id: str
    name: str
    min_players: int
    max_players: int
    default_players: int
    policies: dict[str, int]            # policy name -> integer id used inside kernels
    categories: tuple[str, ...]         # score categories; results columns pts_<category>
    game_columns: tuple[str, ...]       # game-level integer columns of the results
    # load_data(path or None) -> validated component data (default data when None);
    # raises UserError naming the file, the item and the broken constraint.
    load_data: Callable[[str | None], Any]
    # play_batch(data, players, seat_policies int8[count, players], seed, first_index, search)
    # -> BatchResult. Game first_index + k uses seat_policies[k]; its result depends only on
    # (seed, first_index + k, seat_policies[k], data, search). Ids 0, 1 are the game's policies,
    # 2.. the run's search policies, whose parameters are the rows of search (players.Lineup.table).
    play_batch: Callable[..., BatchResult]
    # replay(data, players, seat_policies int8[players], seed, index, lineup) -> list[str], the
    # move log in words and the final score breakdown of that one game (lineup: players.Lineup).
    replay: Callable[..., list]
    # provenance(data) -> {component: "rulebook" | "sourced" | "reconstructed" | "mixed: ..."}
    provenance: Callable[[Any], dict]
    # data_id(data) -> short id of the component data (e.g. the tile set id), a results column
    data_id: Callable[[Any], str]
    notes: tuple[str, ...] = field(default=())
    searchable: bool = False            # the search policies (flatmc, mcts; simcore/players.py) play it
    # the game's own defaults of the search policies' parameters: {"mcts": {"rollout": "greedy"}}
    search_defaults: dict = field(default_factory=dict)
    seat_columns: tuple[str, ...] = ()  # per-seat integer columns of the results
    # draw(data, players, seat_policies int8[players], seed, index, path, halt_at=0) -> bool: a PNG
    # picture (matplotlib) of that one game's final state at path, or of the game stopped after
    # halt_at units of picture_step; True if it stopped there (False: the game ended first, and
    # the picture is of the final state). None for a game without pictures yet.
    draw: Callable[..., bool] | None = None
    picture_step: str = "turn"          # the unit of draw's halt_at: "turn" or "round"
    # check_batch(data, players, seat_policies, seed, first_index, search) -> CheckResult: the same
    # games as play_batch, played with the engine's invariant checker on after every step
    # (`simcore check`); violations: {code: what broke} for the codes it reports.
    check_batch: Callable[..., CheckResult] | None = None
    violations: dict = field(default_factory=dict)
    check_step: str = "round"           # the unit of CheckResult.step: "turn", "round" or "year"
    # seconds the first run takes to compile the game's kernels on a 2-core machine
    # (benchmarks/startup.py); the progress bar says so while they compile
    compile_seconds: int = 60


def _carcassonne_specs():
    from simcore.boardgames.carcassonne import spec
    return [spec.BASE, spec.ARK]


def _notre_dame_specs():
    from simcore.boardgames.notre_dame import spec
    return [spec.NOTRE_DAME]


def _strasbourg_specs():
    from simcore.boardgames.strasbourg import spec
    return [spec.STRASBOURG]


def _principato_specs():
    from simcore.boardgames.principato import spec
    return [spec.PRINCIPATO]


_LOADERS = [_carcassonne_specs, _notre_dame_specs, _strasbourg_specs, _principato_specs]
_REGISTRY: dict[str, GameSpec] | None = None


def games() -> dict[str, GameSpec]:
    """Every registered game, by id."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = {}
        for load in _LOADERS:
            for spec in load():
                _REGISTRY[spec.id] = spec
    return _REGISTRY


def get(game_id: str) -> GameSpec:
    """The GameSpec of game_id, or a UserError listing the known ids."""
    known = games()
    if game_id not in known:
        raise UserError(f"unknown game '{game_id}'{did_you_mean(game_id, known)} (known: {', '.join(sorted(known))})")
    return known[game_id]


def did_you_mean(name: str, known) -> str:
    """", did you mean 'x'?" for the known name closest to a misspelt one, or "" if none is close."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.75)
    return f", did you mean '{close[0]}'?" if close else ""
