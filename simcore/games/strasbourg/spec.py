"""Strasbourg in the registry."""

from simcore.games.strasbourg import components, describe, draw, playout, state
from simcore.games.strasbourg.policies import POLICIES
from simcore.turns import Engine


ENGINE = Engine.of(playout, state)
play_batch = ENGINE.play_batch
play_logged = ENGINE.play_logged


def replay(data, players, seat_policies, seed, index):
    st = play_logged(data, players, seat_policies, seed, index)
    header = ENGINE.replay_header("Strasbourg", describe.SEAT_NAMES, POLICIES, data, players, seat_policies, seed,
                                  index)
    return describe.replay_lines(data, st, header)


STRASBOURG = ENGINE.game_spec("strasbourg", "Strasbourg", (3, 5, 4), POLICIES, components, replay, draw.picture)
