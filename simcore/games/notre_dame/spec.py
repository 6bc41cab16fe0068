"""Notre Dame in the registry."""

from simcore.games.notre_dame import components, describe, draw, playout, state
from simcore.games.notre_dame.policies import POLICIES
from simcore.registry import GameSpec
from simcore.turns import Engine


ENGINE = Engine.of(playout, state)
play_batch = ENGINE.play_batch
play_logged = ENGINE.play_logged


def replay(data, players, seat_policies, seed, index):
    st = play_logged(data, players, seat_policies, seed, index)
    header = ENGINE.replay_header("Notre Dame", describe.SEAT_NAMES, POLICIES, data, players, seat_policies, seed,
                                  index)
    header.append(f"street graph {data.street_graphs[data.street_graph]}, "
                  f"rats {'2 on every card' if data.rules['CONSTANT_RATS'] else 'per card'}")
    return describe.replay_lines(data, st, header)


def provenance(data):
    prov = dict(data.provenance)
    prov["rules"] = "rulebook; its gaps read as the specification does (A-1..A-31, rule switches)"
    return prov


NOTRE_DAME = GameSpec(
    id="notre-dame",
    name="Notre Dame",
    min_players=2,
    max_players=5,
    default_players=4,
    policies=dict(POLICIES),
    categories=state.CATEGORIES,
    game_columns=state.GAME_COLUMNS,
    seat_columns=state.SEAT_COLUMNS,
    load_data=components.load,
    play_batch=play_batch,
    replay=replay,
    provenance=provenance,
    data_id=lambda data: data.data_set_id,
    draw=draw.picture,
)
