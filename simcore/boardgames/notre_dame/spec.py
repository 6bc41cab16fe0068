"""Notre Dame in the registry."""

from simcore.players import Lineup
from simcore.boardgames.notre_dame import components, describe, draw, playout, state
from simcore.boardgames.notre_dame.policies import POLICIES, WEIGHTS
from simcore.turns import Engine


ENGINE = Engine.of(playout, state)
play_batch = ENGINE.play_batch
play_logged = ENGINE.play_logged


def replay(data, players, seat_policies, seed, index, lineup=None, state=None):
    lineup = lineup or Lineup.own(POLICIES)
    st = play_logged(data, players, seat_policies, seed, index, search=lineup.table) if state is None else state
    header = ENGINE.replay_header("Notre Dame", describe.SEAT_NAMES, lineup.names, data, players, seat_policies, seed,
                                  index)
    header.append(f"street graph {data.street_graphs[data.street_graph]}, {rats_line(data)}")
    return describe.replay_lines(data, st, header)


def rats_line(data):
    """The rats in play as the data give them: the constant of CONSTANT_RATS or the cards' own,
    with what each stage adds up to."""
    cards = f"{data.constant_rats} on every card" if data.rules["CONSTANT_RATS"] else "per card"
    stages = ", ".join(f"{letter} {n}" for letter, n in zip(components.LETTERS, data.stage_rats()))
    return f"rats {cards} (stages {stages})"


def provenance(data):
    prov = dict(data.provenance)
    prov["rules"] = "rulebook; its gaps read as the specification does (A-1..A-31, rule switches)"
    return prov


NOTRE_DAME = ENGINE.game_spec("notre-dame", "Notre Dame", (2, 5, 4), POLICIES, components, replay, draw.picture,
                              compile_seconds=40,
                              provenance=provenance, picture_step="round", greedy_weights=WEIGHTS,
                              # mcts rolls out with greedy, 30 iterations: against greedy 89.3%
                              # [87.8, 90.5] of 2,000 rotated 2-player games (seed 1), at half the
                              # time of 200 iterations with random rollouts (85.4% [83.7, 86.8]);
                              # greedy rollouts at 20, 40: 83%, 93% of 1,000; random ones at 130,
                              # c=0.4, 0.7, 1: 77%, 79%, 78% (issue 20's note)
                              search_defaults={"mcts": {"iters": 30, "rollout": "greedy"}})
