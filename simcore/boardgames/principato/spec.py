"""Principato in the registry."""

from simcore.players import Lineup
from simcore.boardgames.principato import components, describe, draw, playout, state
from simcore.boardgames.principato.policies import POLICIES, WEIGHTS
from simcore.turns import Engine


ENGINE = Engine.of(playout, state)
play_batch = ENGINE.play_batch
play_logged = ENGINE.play_logged


def replay(data, players, seat_policies, seed, index, lineup=None, state=None):
    lineup = lineup or Lineup.own(POLICIES)
    st = play_logged(data, players, seat_policies, seed, index, search=lineup.table) if state is None else state
    header = ENGINE.replay_header("Principato", describe.SEAT_NAMES, lineup.names, data, players, seat_policies, seed,
                                  index)
    return describe.replay_lines(data, st, ENGINE.new_tables(data, players)[0], header)


PRINCIPATO = ENGINE.game_spec("principato", "Principato", (2, 4, 4), POLICIES, components, replay, draw.picture,
                              check_step="year", compile_seconds=50, greedy_weights=WEIGHTS,
                              notes=("seats are numbered from seat 0; the start player is drawn at random "
                                     "(PR-3.9): the seat column turn_position is each seat's distance from it",),
                              # random players end on 3-7 VP, so random rollouts tell a search almost
                              # nothing: mcts won 2% of 200 games against greedy with them. With greedy
                              # rollouts the budget decides: 21%, 45%, 76% of 100 games at iters=50,
                              # 200, 800 (a game's ~77 decisions chain action, card, option, loads;
                              # issue 7's note). flatmc too: against random it won 98.5% of 200 games
                              # with random rollouts, 100% with greedy ones (greedy itself: 100% of 2,000).
                              # Rollouts cut off 48 decisions below the root (depth=48) and scored at
                              # greedy's value (score_position) cost half (2 players) to a sixth (4) of
                              # rollouts to the end; their rewards lie closer together than a game's win
                              # or loss, so exploration is narrower (c=0.2). 2 players, 600 games each
                              # against greedy, depth 24: c=0.7 65%, 0.3 81%, 0.2 84%, 0.15 80%; at c=0.2
                              # depth 16 73%, 32 83% (to the end at c=0.7: 79.3% of 2,000). The cut-off
                              # must reach as many turns a seat at 4 players: one mcts seat against
                              # three greedy, 200 games, depth 24 wins 40.5%, 48 64.5%, to the end 63.3%.
                              # A search ends once its choice is settled (settle=1): 1.15-1.2x less time
                              # a searched game, 83.8% [82.1, 85.4] of 2,000 games as without it; at 4
                              # players 59.3% of 600 games against 62.0% (within the noise). Both
                              # Carcassonnes lost some 2 points of 2,000 games with it and keep it off.
                              search_defaults={"mcts": {"iters": 800, "rollout": "greedy", "c": 0.2, "depth": 48,
                                                        "settle": 1},
                                               "flatmc": {"rollout": "greedy"}})
