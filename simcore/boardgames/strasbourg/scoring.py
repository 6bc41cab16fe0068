"""Strasbourg scoring: the council phase (SB-11.2), the task cards TK-01..TK-17 on the final
state (SB-13) and the final scoring (SB-12). Every VP gain is booked to one category of st.pts,
so a seat's VP is always the sum of its categories (failed tasks are negative)."""
import numpy as np

from simcore.kernel import kernel
from simcore.boardgames.strasbourg.rules import city_members, council_seats
from simcore.boardgames.strasbourg.state import (
    CAT_BUILDINGS, CAT_CHAPELS, CAT_CITY, CAT_COUNCIL, CAT_PRIVILEGES, CAT_TASKS_MINUS, CAT_TASKS_PLUS,
    CHURCH, COLS, N_CELLS, N_GUILDS, NOBILITY, ROWS, SC_CITY, SC_TASKS_KEPT, SC_TASKS_MET, TK_BUILDING,
    TK_CHAPELS, TK_CORNERS, TK_COUNCIL, TK_DIAGONAL, TK_EVERY_GUILD, TK_FOUR_BUILDINGS, TK_GOODS_VARIETY,
    TK_GUILD, TK_LINE, TK_MOST_CITY, TK_MOST_COINS, TK_NOBLE_OR_CHURCH, TK_SQUARE, TK_START_PLAYER,
    TK_THREE_AT_BUILDING, TK_WALL)

FAILED_TASK = -3                 # SB-12.1(e)


@kernel
def gain_vp(st, p, v, category):
    st.vp[p] += v
    st.pts[p, category] += v


@kernel
def council_phase(st):
    """1 VP per council seat; the most seats (ties: each) gain a privilege (SB-11.2)."""
    most = 0
    for p in range(st.players):
        most = max(most, council_seats(st, p))
    for p in range(st.players):
        c = council_seats(st, p)
        gain_vp(st, p, c, CAT_COUNCIL)
        if c == most:
            st.privileges[p] += 1


# ---------------------------------------------------------------- neighbourhoods (SB-2.4)

@kernel
def members_next_to_site(st, tt, p, site):
    """p's family members orthogonally next to a building site (BADJ)."""
    n = 0
    for j in range(4):
        c = tt.orth[site, j]
        if c >= 0 and st.cell_owner[c] == p:
            n += 1
    return n


@kernel
def members_at_spot(st, tt, p, spot):
    """p's family members on the cells a chapel spot scores (CADJ)."""
    n = 0
    for j in range(tt.spot_cells.shape[1]):
        c = tt.spot_cells[spot, j]
        if c >= 0 and st.cell_owner[c] == p:
            n += 1
    return n


@kernel
def building_site(st, b):
    for c in range(N_CELLS):
        if st.site_building[c] == b:
            return c
    return -1


@kernel
def owns(st, p, r, c):
    return 0 <= r < ROWS and 0 <= c < COLS and st.cell_owner[r * COLS + c] == p


@kernel
def in_a_line(st, p, length, dr, dc):
    """`length` consecutive cells of p along direction (dr, dc) (TK-08, TK-09, AMB-13, SB-13.1)."""
    for r in range(ROWS):
        for c in range(COLS):
            run = 0
            while run < length and owns(st, p, r + run * dr, c + run * dc):
                run += 1
            if run == length:
                return True
    return False


@kernel
def full_square(st, p, side):
    """A side x side block of cells all holding p's family members (TK-10, AMB-11)."""
    for r in range(ROWS - side + 1):
        for c in range(COLS - side + 1):
            full = True
            for i in range(side):
                for j in range(side):
                    if not owns(st, p, r + i, c + j):
                        full = False
            if full:
                return True
    return False


@kernel
def strictly_most(values, p, players):
    for q in range(players):
        if q != p and values[q] >= values[p]:
            return False
    return True


# ---------------------------------------------------------------- tasks (SB-13)

@kernel
def task_met(st, tt, p, card):
    """Is task card `card` fulfilled for p on the current (final) state? TK-01..TK-17, with the
    card's parameters (components.TASK_TYPES: the depicted building or guild, then thresholds)."""
    kind = tt.task_type[card]
    a = tt.task_param[card, 0]
    b = tt.task_param[card, 1]
    if kind == TK_BUILDING:
        site = building_site(st, a)
        return site >= 0 and members_next_to_site(st, tt, p, site) >= b
    if kind == TK_THREE_AT_BUILDING or kind == TK_FOUR_BUILDINGS:
        bordered = 0
        for c in range(N_CELLS):
            if st.site_building[c] >= 0:
                m = members_next_to_site(st, tt, p, c)
                if kind == TK_THREE_AT_BUILDING and m >= a:
                    return True
                if m >= 1:
                    bordered += 1
        return kind == TK_FOUR_BUILDINGS and bordered >= a
    if kind == TK_CHAPELS:                     # distinct family members (AMB-12)
        n = 0
        for c in range(N_CELLS):
            if st.cell_owner[c] == p and next_to_chapel(st, tt, c):
                n += 1
        return n >= a
    if kind == TK_WALL or kind == TK_CORNERS:
        n = 0
        for c in range(N_CELLS):
            if st.cell_owner[c] == p and (tt.wall[c] if kind == TK_WALL else tt.corner[c]):
                n += 1
        return n >= a
    if kind == TK_GUILD:
        return guild_members(st, tt, p, a) >= b
    if kind == TK_LINE:
        return in_a_line(st, p, a, 0, 1) or in_a_line(st, p, a, 1, 0)
    if kind == TK_DIAGONAL:
        return in_a_line(st, p, a, 1, 1) or in_a_line(st, p, a, 1, -1)
    if kind == TK_SQUARE:
        return full_square(st, p, a)
    if kind == TK_EVERY_GUILD:
        for g in range(N_GUILDS):
            if guild_members(st, tt, p, g) < a:
                return False
        return True
    if kind == TK_NOBLE_OR_CHURCH:
        return st.seat_owner[NOBILITY] == p or st.seat_owner[CHURCH] == p
    if kind == TK_COUNCIL:                     # thresholds for 3, 4, 5 players
        return council_seats(st, p) >= tt.task_param[card, st.players - 3]
    if kind == TK_MOST_CITY:
        counts = np.zeros(st.players, np.int32)
        for q in range(st.players):
            counts[q] = city_members(st, q)
        return strictly_most(counts, p, st.players)
    if kind == TK_MOST_COINS:
        return strictly_most(st.coins, p, st.players)
    if kind == TK_GOODS_VARIETY:
        kinds = 0
        for g in range(N_GUILDS):
            if st.goods[p, g] >= 1:
                kinds += 1
        return kinds >= a
    if kind == TK_START_PLAYER:
        return st.sp == p
    return False


@kernel
def next_to_chapel(st, tt, c):
    for k in range(tt.n_spots):
        if st.chapel[k]:
            for j in range(tt.spot_cells.shape[1]):
                if tt.spot_cells[k, j] == c:
                    return True
    return False


@kernel
def guild_members(st, tt, p, g):
    n = 0
    for c in range(N_CELLS):
        if st.cell_owner[c] == p and tt.cell_guild[c] == g:
            n += 1
    return n


# ---------------------------------------------------------------- final scoring (SB-12)

@kernel
def final_scoring(st, tt):
    """Tasks on the final state first (SB-12.2), then city, chapels, buildings, privileges."""
    for p in range(st.players):
        for i in range(st.tasks.shape[1]):
            card = st.tasks[p, i]
            if card < 0:
                continue
            st.seat_count[p, SC_TASKS_KEPT] += 1
            if task_met(st, tt, p, card):
                st.seat_count[p, SC_TASKS_MET] += 1
                gain_vp(st, p, tt.task_prestige[card], CAT_TASKS_PLUS)
            else:
                gain_vp(st, p, FAILED_TASK, CAT_TASKS_MINUS)
    for p in range(st.players):
        members = city_members(st, p)
        st.seat_count[p, SC_CITY] = members
        gain_vp(st, p, members, CAT_CITY)
        chapels = 0
        for k in range(tt.n_spots):
            if st.chapel[k]:
                chapels += members_at_spot(st, tt, p, k)
        gain_vp(st, p, chapels, CAT_CHAPELS)
        buildings = 0
        for c in range(N_CELLS):
            b = st.site_building[c]
            if b >= 0:
                buildings += tt.building_value[b] * members_next_to_site(st, tt, p, c)
        gain_vp(st, p, buildings, CAT_BUILDINGS)
        gain_vp(st, p, st.privileges[p], CAT_PRIVILEGES)


@kernel
def tiebreak(st, tt, p):
    """Ties on VP go to more family members in the city (SB-12.3, AMB-24)."""
    return city_members(st, p)
