"""Strasbourg in the registry."""

from simcore.games.strasbourg import components, describe, draw, playout, state
from simcore.games.strasbourg.policies import POLICIES
from simcore.registry import GameSpec
from simcore.turns import Engine


ENGINE = Engine.of(playout, state)
play_batch = ENGINE.play_batch
play_logged = ENGINE.play_logged


def replay(data, players, seat_policies, seed, index):
    st = play_logged(data, players, seat_policies, seed, index)
    header = ENGINE.replay_header("Strasbourg", describe.SEAT_NAMES, POLICIES, data, players, seat_policies, seed,
                                  index)
    return describe.replay_lines(data, st, header)


STRASBOURG = GameSpec(
    id="strasbourg",
    name="Strasbourg",
    min_players=3,
    max_players=5,
    default_players=4,
    policies=dict(POLICIES),
    categories=state.CATEGORIES,
    game_columns=state.GAME_COLUMNS,
    seat_columns=state.SEAT_COLUMNS,
    load_data=components.load,
    play_batch=play_batch,
    replay=replay,
    provenance=components.provenance,
    data_id=lambda data: data.data_set_id,
    draw=draw.picture,
)
