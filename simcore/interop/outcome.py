"""What a finished game is worth to each seat in the harnesses (OpenSpiel's returns,
PettingZoo's rewards): its win share, as simulate's results count it. No framework imported."""
from __future__ import annotations

import numpy as np

from simcore import results, step


def win_shares(game: step.Game) -> list[float]:
    """A finished game's win share per seat: 1/k for each of the k seats that rank first, 0 for
    the others, ranked as simulate's rows rank them (results.ranks: the score, then the game's
    tie-break where it has one), so that it equals the `win_share` of game.result()'s rows
    without building them (a search asks it at the end of every rollout)."""
    pts, _, _, tiebreak = game.outcome()
    scores = pts.sum(axis=1, dtype=np.int64)[None]
    wins = results.ranks(scores, tiebreak[None]) == 1
    return [float(x) for x in results.win_shares(wins)[0]]
