"""A toy dice game behind the GameSpec contract, so the generic layer is tested without any real game.

Each seat rolls with the DECISION stream of its game: policy 'random' rolls one die, 'greedy'
two; an exact six earns a 3-point bonus. Scores tie often, which the rank tests need.
"""
import json

import numpy as np
from numba import njit

from simcore import rng
from simcore.contract import BatchResult, CheckResult, GameSpec, UserError
from simcore.search import FIRST_VARIANT_ID, P_KIND

RANDOM, GREEDY = 0, 1
SIX_BONUS = 3


@njit(cache=True, nogil=True)
def _play_dice(players, seat_policies, seed, first_index, pts, game, faces=6):
    gen = np.empty(4, np.uint64)
    for k in range(seat_policies.shape[0]):
        rng.seed_stream(gen, seed, first_index + k, rng.DECISION)
        rolls = 0
        for seat in range(players):
            dice = 1 if seat_policies[k, seat] == RANDOM else 2
            total = 0
            for _ in range(dice):
                total += rng.below(gen, faces) + 1
            rolls += dice
            pts[k, seat, 0] = total
            pts[k, seat, 1] = SIX_BONUS if total == 6 else 0
        game[k, 0] = rolls


def play_batch(data, players, seat_policies, seed, first_index, search=None):
    count = len(seat_policies)
    if search is not None:          # a variant (a label) plays the own policy its row of the table names
        variant = seat_policies >= FIRST_VARIANT_ID
        seat_policies = np.where(variant, search[seat_policies.astype(np.int64), P_KIND], seat_policies).astype(np.int8)
    pts = np.zeros((count, players, 2), np.int32)
    game = np.zeros((count, 1), np.int32)
    _play_dice(players, seat_policies, seed, first_index, pts, game, (data or {}).get("faces", 6))
    return BatchResult(pts, game)


def check_batch(data, players, seat_policies, seed, first_index, search=None):
    """The invariant of the dice: no seat scores more than 6 a die (a data file with "faces": 7
    breaks it on purpose, to test `simcore check`); the step is the seat that broke it, plus 1."""
    batch = play_batch(data, players, seat_policies, seed, first_index)
    dice = np.where(seat_policies == RANDOM, 1, 2)
    over = batch.pts[:, :, 0] > 6 * dice
    return CheckResult(violation=over.any(axis=1).astype(np.int32),
                       step=np.where(over.any(axis=1), over.argmax(axis=1) + 1, 0).astype(np.int32))


def replay(data, players, seat_policies, seed, index, lineup=None):
    batch = play_batch(data, players, seat_policies[None, :], seed, index)
    lines = [f"seat {s}: {batch.pts[0, s, 0]} from dice, {batch.pts[0, s, 1]} bonus" for s in range(players)]
    return lines + [f"turns: {batch.game[0, 0]}"]


def load_data(path):
    if path is None:
        return {"id": "standard-dice"}
    with open(path) as f:
        data = json.load(f)   # a JSON syntax error is left to the runner to report (its fallback)
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        raise UserError(f"data file {path}: no 'id' string")
    return data


DICE = GameSpec(
    id="dice", name="Dice (test game)", min_players=2, max_players=4, default_players=3,
    policies={"random": RANDOM, "greedy": GREEDY}, categories=("dice", "bonus"), game_columns=("turns",),
    load_data=load_data, play_batch=play_batch, replay=replay,
    provenance=lambda data: {"dice": "rulebook"}, data_id=lambda data: data["id"],
    check_batch=check_batch, violations={1: "a seat scored more than 6 a die"}, check_step="seat",
)
