"""Notre Dame scoring: VP gain events with the Park bonus (ND-11), the plague's VP loss (ND-10),
the Notre Dame payout at each stage end (ND-13) and the tie-break key of the ranking (ND-14).

Every VP change is booked to one category of st.pts, so a seat's VP is always the sum of its
categories (the Park bonus has a category of its own; plague losses are negative).
"""

from simcore.kernel import kernel
from simcore.boardgames.notre_dame.rules import park_bonus
from simcore.boardgames.notre_dame.state import (
    CAT_PARK_BONUS, CAT_PAYOUT, CAT_PLAGUE, R_ND_SPLIT, R_VP_FLOOR0, SPLIT_PER_CUBE)


@kernel
def gain_vp(st, p, v, category):
    """A VP gain event: v VP plus the Park bonus, if v >= 1 (ND-11.2, A-18)."""
    if v < 1:
        return 0
    bonus = park_bonus(st, p)
    st.vp[p] += v + bonus
    st.pts[p, category] += v
    st.pts[p, CAT_PARK_BONUS] += bonus
    return v + bonus


@kernel
def lose_vp(st, tt, p, v):
    """Give back v VP, not below 0 unless F_VP_FLOOR0 is off (ND-10.2, A-5)."""
    lost = min(v, st.vp[p]) if tt.rules[R_VP_FLOOR0] else v
    st.vp[p] -= lost
    st.pts[p, CAT_PLAGUE] -= lost


@kernel
def payout_share(tt, mine, total):
    """VP for `mine` of the `total` cubes on Notre Dame (ND-13.1, A-21)."""
    if total == 0:
        return 0
    if tt.rules[R_ND_SPLIT] == SPLIT_PER_CUBE:
        return (tt.payout // total) * mine
    return tt.payout * mine // total


@kernel
def cubes_on_notre_dame(st):
    """N, all players' cubes on the Notre Dame tile (ND-13.1)."""
    total = 0
    for p in range(st.players):
        total += st.nd[p]
    return total


@kernel
def stage_payout(st, tt):
    """Pay out the Notre Dame tile, then its cubes go back to the general supplies (ND-13.1-2)."""
    total = cubes_on_notre_dame(st)
    for p in range(st.players):
        gain_vp(st, p, payout_share(tt, st.nd[p], total), CAT_PAYOUT)
        st.gsupply[p] += st.nd[p]
        st.nd[p] = 0


@kernel
def tiebreak(st, tt, p):
    """Ties on VP go to gold, then to cubes in the personal supply (ND-14.2): one number."""
    return st.gold[p] * 16 + st.personal[p]
