"""The games: id -> GameSpec. Adding a game touches this file and its own package only.

The contract a game keeps is in simcore/contract.py; games import that, never this module, which
imports each game's package only when the games are first asked for."""
from __future__ import annotations

import difflib

from simcore.contract import GameSpec, UserError


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
