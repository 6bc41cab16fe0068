"""Carcassonne players: uniform random and a one-ply greedy heuristic.

random (CA-13.6): the placement is uniform over the legal (cell, rotation) pairs, symmetric
rotations merged (CA-13.1). Then the action is uniform over the phase-A options where
"move the Ark" counts as ONE option next to PASS and each legal follower and prophet
segment — the rulebook's own list of choices — and, if it is drawn, the Ark outcome is
uniform over the distinct outcomes (entered tiles, end tile). Counting every Ark outcome as
its own option would make a random player move the Ark on almost every turn once it is on
the board (there are often 50+ outcomes against a handful of follower options), so it would
hardly ever place a follower. The Ark's entry tile is uniform over its options.
"""
from numba import njit

from simcore import rng
from simcore.games.carcassonne.rules import (
    count_placements, kth_placement, list_actions, list_ark_outcomes,
)
from simcore.games.carcassonne.state import ARK

RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}


@njit(cache=True, nogil=True)
def random_placement(st, tt, t):
    return kth_placement(st, tt, t, rng.below(st.gen_decide, count_placements(st, tt, t)))


@njit(cache=True, nogil=True)
def random_action(st, tt, seat):
    n = list_actions(st, tt, seat)
    a = st.actions[rng.below(st.gen_decide, n)]
    if a == ARK * 16:
        a = ARK * 16 + rng.below(st.gen_decide, list_ark_outcomes(st, tt))
    return a


@njit(cache=True, nogil=True)
def random_entry(st, tt, n):
    return st.tmp[rng.below(st.gen_decide, n)]


@njit(cache=True, nogil=True)
def choose_placement(st, tt, t, seat):
    """-> cell * 4 + rotation"""
    return random_placement(st, tt, t)


@njit(cache=True, nogil=True)
def choose_action(st, tt, seat):
    """-> PASS/FOLLOWER/PROPHET as kind * 16 + segment, or ARK * 16 + Ark outcome index"""
    return random_action(st, tt, seat)


@njit(cache=True, nogil=True)
def choose_entry(st, tt, seat, n):
    """-> the cell where the Ark enters, one of st.tmp[:n]"""
    return random_entry(st, tt, n)
