"""A tiny two-player game wired to simcore/search.py the way the real games are, to test the tree
where the best move is known.

Seat 0 chooses TRAP or SAFE.
- TRAP: seat 0 scores 5, then seat 1 chooses one of 10 answers; answer 9 scores 8 for seat 1, the
  others nothing. Under random answers seat 0 wins 90% of the time, against a seat 1 that looks
  for its best answer it always loses (5 against 8).
- SAFE: seat 1 scores 2, then seat 0 chooses one of 10 follow-ups; follow-ups 0-5 score 5 for
  seat 0, the others nothing. Under random follow-ups seat 0 wins 60%, choosing well it always wins.
So flat Monte Carlo with random playouts prefers TRAP (90% > 60%) and a tree that models both
seats (max^n) prefers SAFE. The toy's greedy takes the first option (TRAP, answer 0, follow-up 0):
the tree's first child, which the search must then improve on.
"""
import numpy as np

from simcore.kernel import kernel
from simcore.rng import below, seed_stream
from simcore.search import (
    AT_ROOT, PLAY, begin_game, begin_iteration, begin_probe, begin_search, best_root_move, chosen, end_game,
    end_iteration, has_search_seat, probe_stopped, root_decision, search_decision, search_table_fields,
    searchable_state, settled)

TRAP, SAFE = 1, 2
RANDOM, GREEDY = 0, 1
FIRST, ANSWER, FOLLOW_UP = 0, 1, 2          # decision points

STATE = searchable_state([
    ("gen_chance", np.uint64, (4,)),
    ("gen_decide", np.uint64, (4,)),
    ("players", np.int32),
    ("policy", np.int8, (2,)),
    ("vp", np.int32, (2,)),
    ("opts", np.int32, (16,)),
    ("n_opts", np.int32),
    ("halt_at", np.int32),
    ("halted", np.int32),
    ("first_move", np.int32),
], 2)
TABLES = np.dtype(search_table_fields())


def new_state():
    return np.zeros(1, dtype=STATE).view(np.recarray)


def new_tables(search_table):
    tt = np.zeros(1, dtype=TABLES).view(np.recarray)
    tt[0].search[:] = search_table
    return tt


@kernel
def decide(st, tt, p, dp):
    if st.n_opts == 1:
        return st.opts[0]
    i = -1
    if st.s_mode != PLAY:
        i = search_decision(st, p, dp)
        if i == AT_ROOT:
            i = root_decision(st, 2)          # nothing hidden: no determinizing
    if i < 0:
        i = chosen(st, choose(st, p))
    return st.opts[i]


@kernel
def choose(st, p):
    """The toy's policies: greedy (id 1) takes the first option, every other seat a random one."""
    if st.policy[p] == GREEDY:
        return 0
    return below(st.gen_decide, st.n_opts)


@kernel
def run_game(st, tt, policies, seed, index):
    seed_stream(st.gen_chance, seed, index, 0)
    seed_stream(st.gen_decide, seed, index, 1)
    st.players = 2
    st.vp[0] = 0
    st.vp[1] = 0
    st.policy[0] = policies[0]
    st.policy[1] = policies[1]
    st.opts[0] = TRAP
    st.opts[1] = SAFE
    st.n_opts = 2
    st.first_move = decide(st, tt, 0, FIRST)
    for i in range(10):
        st.opts[i] = i
    st.n_opts = 10
    if st.first_move == TRAP:
        st.vp[0] += 5
        if decide(st, tt, 1, ANSWER) == 9:
            st.vp[1] += 8
    else:
        st.vp[1] += 2
        if decide(st, tt, 0, FOLLOW_UP) <= 5:
            st.vp[0] += 5


@kernel
def play_game(st, tt, policies, seed, index):
    """As the games do: a search seat's games are played by the search's replays."""
    if not has_search_seat(policies, 2):
        run_game(st, tt, policies, seed, index)
        return
    begin_game(st, 2, policies, seed, index)
    while True:
        begin_probe(st)
        run_game(st, tt, policies, seed, index)
        if not probe_stopped(st):
            break
        budget = begin_search(st, tt)
        for it in range(budget):
            if it % 8 == 0 and settled(st, budget - it):
                break
            begin_iteration(st, it)
            run_game(st, tt, policies, seed, index)
            for s in range(2):
                st.s_score[s] = st.vp[s]
            end_iteration(st, 2)
        best_root_move(st)
    end_game(st)
