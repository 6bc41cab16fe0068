"""The two Carcassonne games in the registry: the base game and The Ark of the Covenant."""
from functools import partial

import numpy as np

from simcore.players import Lineup
from simcore.boardgames.carcassonne import check, components, describe, draw
from simcore.boardgames.carcassonne.playout import play_batch_kernel, play_game, search_batch_kernel, step_kernel
from simcore.boardgames.carcassonne.policies import BASE_WEIGHTS, POLICIES, WEIGHTS
from simcore.boardgames.carcassonne.state import (
    ARK_CATEGORIES, BASE_CATEGORIES, GAME_COLUMNS, MAX_PLAYERS, N_CATEGORIES, new_state)
from simcore.contract import BatchResult, GameSpec, Stepper
from simcore.search import has_search_policy



def play_batch(data, players, seat_policies, seed, first_index, search=None):
    """Games first_index.. with seat_policies (int8[count, players]); search: the run's search
    policies (players.Lineup.table), copied into the tables."""
    count = seat_policies.shape[0]
    tables = components.tables_with(data, search)
    ws = new_state()
    pts = np.zeros((count, players, N_CATEGORIES), dtype=np.int32)
    game = np.zeros((count, len(GAME_COLUMNS)), dtype=np.int32)
    no_seat_counters = np.zeros((count, players, 0), dtype=np.int32)
    no_tiebreak = np.zeros((count, players), dtype=np.int32)      # ties share the win (CA-10.4)
    unchecked = np.zeros((count, 2), dtype=np.int32)               # check.py checks Carcassonne
    policies = np.ascontiguousarray(seat_policies, dtype=np.int8)
    batch_kernel = search_batch_kernel if has_search_policy(policies) else play_batch_kernel
    batch_kernel(ws.view(np.recarray), tables.view(np.recarray), players, policies, np.int64(seed),
                 np.int64(first_index), pts, no_seat_counters, game, no_tiebreak, np.int32(0), unchecked)
    n_cat = 5 if data.rules["ruleset"] == "ark" else 4
    return BatchResult(pts=pts[:, :, :n_cat], game=game)


def play_logged(data, players, seat_policies, seed, index, halt_at=0, search=None):
    """One game with its move log kept (state.py, EV_*): the state record at the end, or after
    halt_at turns (st.halted says whether it stopped there)."""
    ws = new_state().view(np.recarray)    # records with attribute access, also without the JIT
    st = ws[0]
    st.logging = 1
    st.halt_at = halt_at
    row = np.zeros(MAX_PLAYERS, dtype=np.int8)
    row[:players] = seat_policies
    tables = components.tables_with(data, search)
    play_game(st, tables.view(np.recarray)[0], players, row, np.int64(seed), np.int64(index))
    return st


def replay(data, players, seat_policies, seed, index, lineup=None, state=None, *, categories, name):
    lineup = lineup or Lineup.own(POLICIES)
    st = play_logged(data, players, seat_policies, seed, index, search=lineup.table) if state is None else state
    names = lineup.names
    header = [f"{name}, {players} players, seed {seed}, game {index}, tile set {data.tile_set_id}"
              + (" (reconstructed)" if data.reconstructed else ""),
              "seats: " + ", ".join(f"{describe.SEAT_NAMES[s]}={names[int(p)]}"
                                    for s, p in enumerate(seat_policies)),
              f"start tile {data.ids[int(st['p_type'][0])]} at (0,0)"]
    return describe.replay_lines(data, st, categories, header)


def step_tables(data, players, search):
    """The tables of a stepped game (simcore/step.py): Carcassonne's do not depend on players."""
    return components.tables_with(data, search).view(np.recarray)


STEPPER = Stepper(new_state=lambda: new_state().view(np.recarray), tables=step_tables, kernel=step_kernel)


def provenance(data):
    prov = dict(data.provenance)
    prov["tile_set"] = f"{data.tile_set_id}" + (" (reconstructed)" if data.reconstructed else "")
    prov["rules"] = "rulebook"
    return prov


def _spec(game_id, name, ruleset, categories, search_defaults, greedy_weights):
    return GameSpec(
        id=game_id,
        name=name,
        min_players=2,
        max_players=5,
        default_players=4,
        policies=dict(POLICIES),
        greedy_weights=greedy_weights,
        categories=categories,
        game_columns=GAME_COLUMNS,
        load_data=partial(components.load, ruleset=ruleset),
        play_batch=play_batch,
        searchable=True,
        search_defaults=search_defaults,
        replay=partial(replay, categories=categories, name=name),
        provenance=provenance,
        data_id=lambda data: data.tile_set_id,
        draw=partial(draw.picture, categories=categories, name=name),
        check_batch=check.check_batch,
        violations=dict(check.VIOLATIONS),
        check_step="turn",
        compile_seconds=45,
        package=__name__.rpartition(".")[0],
        stepper=STEPPER,
    )


# mcts in both Carcassonnes: 800 iterations, each rolled out 8 decisions (about four turns) past
# the root with random moves and then scored as the game's end would score it (depth=8), with
# the open cities' outlook (playout.CITY_OUTLOOK). Rollouts to the end put the search's followers
# into fields (random rollouts reward them: in the Ark 54 field points against greedy's 47, 22
# city points against 58). Against greedy, 100 games each: base 37% (random rollouts to the end),
# 61% (greedy rollouts, 4.2 s a game), 77% (depth=8 and c=0.3, under a second a game); the Ark
# 22% (to the end), 53% (depth=8), 62% (c=0.3), 69% (iters=800), 83% (a cut-off run's reward
# measured from the search's mean margin, search.py). Since the outlook both explore less
# (c=0.2) and stop a search once it is settled (settle=1: no other option can catch up with the
# most visited one), which the lower c makes sooner.
CARCASSONNE_MCTS = {"mcts": {"iters": 800, "c": 0.2, "depth": 8, "settle": 1}}
# In the base game the follower after a searched placement is taken from the placement's tree with
# one more iteration (topup=0): against greedy 72.7% [70.7, 74.6] of 2,000 games, as with the
# full budget (73.1% [71.1, 75.0]), 18% cheaper (c=0.3, no outlook, no settle). With the outlook
# the base game needs fewer iterations, 500: 74.3% [72.3, 76.2] of 2,000 games against greedy,
# where 800 iterations without the outlook won 72.7%, at well under half their cost (with c=0.3
# 72.75%, 15% dearer; without settle 71.0%; 450 iterations 72.5% of 1,000, 400 68.3%).
# Its search also ends once the most visited option leads the next by more than half the
# iterations left (settle=0.5), some 1.15x cheaper: 73.3% [71.3, 75.2] of 2,000 games of seed 1
# (settle=1 74.3%), 73.05% of seed 2 (73.45%); settle=0.6 72.8%, 0.25 70.35% (seed 1).
BASE_MCTS = {"mcts": CARCASSONNE_MCTS["mcts"] | {"iters": 500, "topup": 0.0, "settle": 0.5}}
# In the Ark a node below the root grows its first child on its second visit (expand=2): fewer
# nodes and fewer of greedy's first choices (each weighs every placement and Ark move), about 15%
# less time a decision, and as strong: 62.3% [60.2, 64.4] of 2,000 games against greedy (expand=1:
# 61.5% [59.3, 63.6]). Not in the base game: 68.2% of 600 games with it, against 72.7%. Its
# action and Ark move need iterations of their own (topup=0: 56.9% [54.7, 59.1]), half the budget
# with the outlook (topup=0.5): 63.45% [61.3, 65.5] of 2,000 games, at some 1.4x less cost than
# the whole budget without the outlook (61.9% [59.8, 64.0] with it; topup=0.5 at c=0.3 without
# settle 58.7%).
ARK_MCTS = {"mcts": CARCASSONNE_MCTS["mcts"] | {"expand": 2, "topup": 0.5}}
# flatmc's 20 random playouts won every game against random, as greedy does, but by less: 85 to 16
# points against greedy's 94 to 20; with 60, 97 to 15 (2 players, 2,000 games; issue 7's note)
BASE = _spec("carcassonne", "Carcassonne", "base", BASE_CATEGORIES,
             BASE_MCTS | {"flatmc": {"playouts": 60}}, BASE_WEIGHTS)
ARK = _spec("carcassonne-ark", "Carcassonne: The Ark of the Covenant", "ark", ARK_CATEGORIES, ARK_MCTS,
            WEIGHTS)
