"""Principato scoring: the military scoring's order, strength, rank awards and cleanup (PR-14),
goal cards (PR-16), the final score and the tie-break (PR-15). The load and discard steps ask
players, so playout.py runs them between these functions."""
import numpy as np

from simcore.kernel import kernel
from simcore.boardgames.principato.components import GK_ABOVE, GK_PER_MILITARY_VP, GK_PER_TILE
from simcore.boardgames.principato.rules import loaded_units, military_tiles, stored_cubes
from simcore.boardgames.principato.state import (
    CAT_MILITARY, CEIL, FLOOR, H_BANK, H_CATAPULT, H_CON_FAV, H_CON_MONEY, H_CONDOTTIERE, H_FARM, H_FIELD,
    H_MIL_FAV, H_MIL_FOOD, H_MILITIA, H_MONUMENT, H_BOOK, H_PAINTING, H_PALAZZO, N_HOLD, R_PAIR_CAP,
    R_TIEBREAK_LOADED, S_FAVOUR, S_FOOD, S_MONEY, SC_STRENGTH, SC_WON)

# components.TILES order -> the holding it counts (goal cards, PR-16)
TILE_HOLD = np.array([H_FIELD, H_FARM, H_PALAZZO, H_BANK, H_CATAPULT, H_MILITIA, H_CONDOTTIERE, H_MONUMENT,
                      H_BOOK, H_PAINTING], dtype=np.int64)
# a holding -> its bit in a goal card's tile mask (0: no goal card counts it)
HOLD_BIT = np.zeros(N_HOLD, dtype=np.int64)
HOLD_BIT[TILE_HOLD] = 1 << np.arange(len(TILE_HOLD))


@kernel
def scoring_order(st):
    """PR-14.1: most military tiles first; ties by distance from the start player. Into st.order."""
    n = st.players
    for i in range(n):
        st.order[i] = (st.sp + i) % n                       # distance order: a stable sort keeps it
    for i in range(1, n):
        p = st.order[i]
        j = i
        while j > 0 and military_tiles(st, st.order[j - 1]) < military_tiles(st, p):
            st.order[j] = st.order[j - 1]
            j -= 1
        st.order[j] = p


@kernel
def strength(st, tt, p):
    """PR-14.4: catapults + loaded units - empty units (with the data file's weights)."""
    loaded = loaded_units(st, p)
    empty = st.hold[p, H_MILITIA] + st.hold[p, H_CONDOTTIERE] - loaded
    return (tt.strength_catapult * st.hold[p, H_CATAPULT] + tt.strength_loaded * loaded
            + tt.strength_empty * empty)


@kernel
def rank_awards(tt, strengths, players, award):
    """PR-14.5: rank VP by strength; a tied group of k at ranks r..r+k-1 shares their VP, each
    getting the sum / k rounded up."""
    for p in range(players):
        above = 0
        tied = 0
        for q in range(players):
            if strengths[q] > strengths[p]:
                above += 1
            elif strengths[q] == strengths[p]:
                tied += 1
        total = 0
        for r in range(above, above + tied):
            total += tt.rank_vp[r]
        award[p] = (total + tied - 1) // tied


@kernel
def award_military_vp(st, tt):
    """Strength, VP and the counters of one scoring (PR-14.4 … PR-14.6)."""
    n = st.players
    best = -1 << 30
    for p in range(n):
        st.strength[p] = strength(st, tt, p)
        best = max(best, st.strength[p])
    rank_awards(tt, st.strength, n, st.award)
    for p in range(n):
        st.military_vp[p] += st.award[p]
        st.vp[p] += st.award[p]
        st.pts[p, CAT_MILITARY] += st.award[p]
        st.seat_count[p, SC_STRENGTH] += st.strength[p]
        if st.strength[p] == best:
            st.seat_count[p, SC_WON] += 1


@kernel
def cleanup(st):
    """PR-14.7: every cube on every unit back to the supply. Remembers what each player had
    loaded (the final scoring's loads are the AMB-19 switch's)."""
    for p in range(st.players):
        st.loaded_final[p] = loaded_units(st, p)
        st.supply[S_FOOD] += st.hold[p, H_MIL_FOOD]
        st.supply[S_MONEY] += st.hold[p, H_CON_MONEY]
        st.supply[S_FAVOUR] += st.hold[p, H_MIL_FAV] + st.hold[p, H_CON_FAV]
        st.hold[p, H_MIL_FOOD] = 0
        st.hold[p, H_MIL_FAV] = 0
        st.hold[p, H_CON_MONEY] = 0
        st.hold[p, H_CON_FAV] = 0


# ---------------------------------------------------------------- goal cards and the end (PR-15, PR-16)

@kernel
def tiles_of(h, mask):
    """The masked tiles of holdings h (a st.hold row) together."""
    total = 0
    for i in range(TILE_HOLD.shape[0]):
        if mask & (1 << i):
            total += h[TILE_HOLD[i]]
    return total


@kernel
def fewest_of(h, mask):
    """The number of disjoint sets of one of each masked tile (PR-16.2)."""
    least = 1 << 30
    for i in range(TILE_HOLD.shape[0]):
        if mask & (1 << i):
            least = min(least, h[TILE_HOLD[i]])
    return least


@kernel
def divide(x, d, rounding):
    if rounding == FLOOR:
        return x // d
    if rounding == CEIL:
        return (x + d - 1) // d
    return (2 * x + d) // (2 * d)                           # round, halves up


@kernel
def goal_vp(st, tt, p, g):
    """The VP goal card g gives p on the current holdings (PR-16.1)."""
    return goal_value(tt, g, st.hold[p], st.military_vp[p])


@kernel
def goal_value(tt, g, h, military_vp):
    """The VP of goal card g for holdings h (a st.hold row) and military VP (PR-16.1)."""
    kind = tt.goal_kind[g]
    if kind == GK_PER_TILE:
        return tt.goal_vp_each[g] * tiles_of(h, tt.goal_tiles[g])
    if kind == GK_ABOVE:
        return tt.goal_vp_each[g] * max(0, tiles_of(h, tt.goal_tiles[g]) - tt.goal_threshold[g])
    if kind == GK_PER_MILITARY_VP:
        return divide(military_vp, tt.goal_divisor[g], tt.goal_rounding[g])
    sets = min(fewest_of(h, tt.goal_tiles[g]), tt.rules[R_PAIR_CAP], 3)   # GK_SETS, AMB-4
    return tt.goal_table[g, sets]


@kernel
def score_goals(st, tt):
    """PR-15.2: each player's two goal cards on the final state, as their categories."""
    for p in range(st.players):
        for k in range(2):
            g = st.goals[p, k]
            vp = goal_vp(st, tt, p, g)
            st.pts[p, tt.goal_category[g]] += vp
            st.vp[p] += vp


@kernel
def tiebreak(st, tt, p):
    """PR-15.3: stored cubes after the final cleanup (plus the cubes loaded in the final scoring
    under tiebreak_counts_loaded, AMB-19)."""
    extra = st.loaded_final[p] if tt.rules[R_TIEBREAK_LOADED] else 0
    return stored_cubes(st, p) + extra
