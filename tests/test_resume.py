"""A search resumes its probes and iterations from the last boundary a probe passed (driver.py,
"resuming a game at a boundary"): a searched game must be exactly the game the search plays when
every probe and iteration replays the game from its start, as it did before snapshots, in every
game — the same decisions in the history, the same scores, and no run that meets another decision
at the root than the probe did (search.s_replay_errors)."""
import importlib

import numba
import numpy as np
import pytest

from simcore import driver, registry, runner
from simcore.search import (
    begin_game, begin_iteration, begin_probe, begin_search, best_root_move, end_game, end_iteration,
    probe_stopped, settled)

GAMES = sorted(g for g, spec in registry.games().items() if spec.searchable)


@numba.njit
def play_searched_from_the_start(st, tt, players, policies, seed, index):
    """driver.play_searched without restoring a snapshot: every run replays from the start (a
    search settled early, settle, ends as there)."""
    begin_game(st, players, policies, seed, index)
    while True:
        begin_probe(st)
        st.logging = 0
        driver.run_game(st, tt, players, policies, seed, index)
        if not probe_stopped(st):
            break
        budget = begin_search(st, tt)
        for it in range(budget):
            if it % 8 == 0 and settled(st, budget - it):    # as driver.search_root asks
                break
            begin_iteration(st, it)
            st.logging = 0
            driver.run_game(st, tt, players, policies, seed, index)
            if st.halted:
                driver.score_cut_off(st, tt)
            for s in range(players):
                st.s_score[s] = st.vp[s] + 1e-6 * driver.tiebreak(st, tt, s)
            end_iteration(st, players)
        best_root_move(st)
    end_game(st)


@numba.njit
def play_searched_resuming(st, tt, players, policies, seed, index):
    st.logging = 0
    driver.play_searched(st, tt, players, policies, seed, index)


def tables_for(spec, data, players, search):
    """The tables record of a batch with the run's search policies (the decision-point games'
    Engine makes it; Carcassonne's data holds it)."""
    engine = getattr(importlib.import_module(f"{spec.package}.spec"), "ENGINE", None)
    if engine is not None:
        return engine.tables(data, players, search)
    tables = data.tables.copy()
    tables[0]["search"] = search
    return tables


def searched_game(game, names, index, resuming):
    spec = registry.get(game)
    plan = runner.plan(game, players=len(names), games=1, policies=names, workers=1)
    state = importlib.import_module(f"{spec.package}.state")
    tables = tables_for(spec, plan.data, len(names), plan.lineup.table)
    st = state.new_state(1)[0]
    row = np.zeros(state.MAX_PLAYERS, np.int8)
    row[:len(names)] = runner.policy_ids(plan)
    play = play_searched_resuming if resuming else play_searched_from_the_start
    play(st, tables[0], len(names), row, np.int64(11), np.int64(index))
    return st


@pytest.mark.parametrize("game", GAMES)
def test_a_game_resumed_from_its_boundaries_is_the_game_replayed_from_the_start(game):
    names = {"strasbourg": ["mcts:iters=4", "greedy", "random"],
             "carcassonne-ark": ["mcts:iters=4,depth=3", "greedy"]}.get(game, ["mcts:iters=4", "greedy"])
    for index in range(2):
        resumed = searched_game(game, names, index, resuming=True)
        replayed = searched_game(game, names, index, resuming=False)
        n = int(replayed["s_n_hist"])
        assert resumed["s_searches"] > 10 and resumed["s_searches"] == replayed["s_searches"]
        assert int(resumed["s_n_hist"]) == n
        assert resumed["s_hist"][:n].tolist() == replayed["s_hist"][:n].tolist()
        assert resumed["vp"].tolist() == replayed["vp"].tolist()
        assert resumed["pts"].tolist() == replayed["pts"].tolist()
        assert resumed["s_replay_errors"] == 0 and replayed["s_replay_errors"] == 0
