"""Carcassonne scoring: Ark moves, completed features, temples and monasteries, final scoring."""
import numpy as np

from simcore.boardgames.carcassonne import components as cp
from simcore.boardgames.carcassonne.components import CITY, FIELD, MAX_SEG, ROAD
from simcore.boardgames.carcassonne.rules import (
    DELTA, NEAR_OFFSET, RING, ark_path_points, find, lone_figure, is_ark, lowest_bit, mark_cloister, tile_count,
    tile_figure, touch_segments, turns_left_of)
from simcore.boardgames.carcassonne.state import (
    CAT_ARK, CAT_CITY, CAT_CLOISTER, CAT_FIELD, CAT_ROAD, EV_SCORE, MAX_PLAYERS, PROPHET_BOXED,
    PROPHET_SLOT, SLOTS, WHY_ARK, WHY_CITY, WHY_CITY_END, WHY_CITY_PROPHET, WHY_FIELD, WHY_MONASTERY9,
    WHY_MONASTERY_END, WHY_ROAD, WHY_ROAD_END, WHY_TEMPLE3, WHY_TEMPLE7,
)
from simcore.kernel import kernel
from simcore.turns import log_event

R_DOUBLE_INCOMPLETE = cp.RULE_INDEX["PROPHET_DOUBLES_INCOMPLETE"]
R_TEMPLE_PROPHETS = cp.RULE_INDEX["INCOMPLETE_TEMPLE_COUNTS_PROPHETS"]
R_NEGATIVE_FIELDS = cp.RULE_INDEX["FIELD_SCORE_MAY_BE_NEGATIVE"]
# cloisters_near's bits (rules.NEAR_OFFSET) of a temple's cross: the cell and its N, E, S, W neighbours (DELTA)
CROSS_BITS = 1 | sum(1 << (list(RING).index(d) + 1) for d in DELTA)


@kernel
def add_points(st, seat, category, points, reason, ref):
    if points == 0:
        return
    st.vp[seat] += points
    st.pts[seat, category] += points
    if st.logging:
        log_event(st, EV_SCORE, seat, points, reason, ref)


@kernel
def award_majority(st, counts, value, category, reason, ref, doubled, doubled_reason):
    """CA-0.11: every seat with the most figures gets the full value; a seat whose bit is set in
    `doubled` (a prophet owner, CA-6.6) gets twice the value."""
    best = 0
    for s in range(st.players):
        if counts[s] > best:
            best = counts[s]
    if best == 0:
        return
    for s in range(st.players):
        if counts[s] == best:
            if doubled >> s & 1:
                add_points(st, s, category, 2 * value, doubled_reason, ref)
            else:
                add_points(st, s, category, value, reason, ref)


@kernel
def move_ark(st, tt, seat, path, length):
    """ARK action (CA-7.6, CA-7.7): points at once, in phase A, then the Ark stands on the end tile."""
    gained = st.tmp[100:100 + MAX_PLAYERS]
    ark_path_points(st, tt, path, length, gained)
    end = path[length - 1]
    for s in range(st.players):
        if gained[s] > 0:
            add_points(st, s, CAT_ARK, gained[s], WHY_ARK, end)
    st.ark_cell = end


@kernel
def remove_figures(st, root):
    """CA-9.5: every figure of a scored road, city or monastery leaves the board; followers go
    back to supply, prophets to the box."""
    if st.seg[root].n_figs == 0:
        return
    kind = st.seg[root].kind
    for seat in range(st.players):
        left = st.seg[root].figs[seat]           # the seat's figures on the feature, still to find
        slot = 0
        while left > 0:
            node = st.fig_node[seat, slot]
            if node >= 0 and st.seg[node].kind == kind and find(st, node) == root:
                st.fig_node[seat, slot] = -1
                tile_figure(st, node // MAX_SEG, seat, slot, -1)
                left -= 1
                if slot == PROPHET_SLOT:
                    st.prophet_state[seat] = PROPHET_BOXED
                else:
                    st.supply[seat] += 1
            slot += 1
    touch_segments(st, root)
    st.seg[root].n_figs = 0
    st.seg[root].prophets = 0


@kernel(inline=True)
def score_completed_feature(st, tt, root):
    """CA-9.3/9.4, CB-3.1/3.2: road = tiles + oases, city = 2 * (tiles + scrolls or pennants)."""
    touch_segments(st, root)
    st.seg[root].done = 1
    if st.seg[root].kind == CITY and not is_ark(tt):
        keep_city_fields(st, tt, root)
    if st.seg[root].n_figs == 0:
        return
    tiles = tile_count(st, root)
    if st.seg[root].kind == ROAD:
        award_majority(st, st.seg[root].figs, tiles + st.seg[root].oases, CAT_ROAD, WHY_ROAD, root, 0, WHY_ROAD)
    else:
        award_majority(st, st.seg[root].figs, 2 * tiles + 2 * st.seg[root].scrolls, CAT_CITY, WHY_CITY, root,
                       st.seg[root].prophets, WHY_CITY_PROPHET)
    remove_figures(st, root)


@kernel
def keep_city_fields(st, tt, root):
    """Keep, for the farmers (CB-4.2), a segment node of each field the completed city `root`
    touches. The city's segments lie on the tiles of its tile set."""
    i = st.n_cities_done
    start = st.city_field_at[i]
    end = start
    for half in range(2):
        tiles = st.seg[root].tiles_lo if half == 0 else st.seg[root].tiles_hi
        while tiles:
            pidx = 64 * half + lowest_bit(tiles)
            tiles &= tiles - np.uint64(1)
            t = st.p_type[pidx]
            base = pidx * MAX_SEG
            mine = 0                         # the tile's city segments in this city
            for g in range(tt.n_seg[t]):
                if tt.seg_kind[t, g] == CITY and find(st, base + g) == root:
                    mine |= 1 << g
            for g in range(tt.n_seg[t]):
                if tt.seg_kind[t, g] == FIELD and tt.field_cities[t, g] & mine:
                    field = find(st, base + g)
                    new = True
                    for e in range(start, end):
                        if st.city_field_nodes[e] == field:
                            new = False
                    if new:
                        st.city_field_nodes[end] = field
                        end += 1
    st.city_field_at[i + 1] = end
    st.n_cities_done = i + 1


@kernel
def orthogonal_neighbours(st, cell):
    n = 0
    for s in range(4):
        if st.cell_pidx[cell + DELTA[s]] >= 0:
            n += 1
    return n


@kernel
def ring_neighbours(st, cell):
    n = 0
    for i in range(8):
        if st.cell_pidx[cell + RING[i]] >= 0:
            n += 1
    return n


@kernel
def count_cross_figures(st, cell, with_prophets, counts):
    """Figures per seat on the temple's tile and its orthogonal neighbours (CA-9.6, CA-10.2)."""
    for s in range(MAX_PLAYERS):
        counts[s] = 0
    for k in range(5):
        f = lone_figure(st, cell if k == 0 else cell + DELTA[k - 1])
        if f == -2:
            return scan_cross_figures(st, cell, with_prophets, counts)
        if f >= 0 and (f % SLOTS != PROPHET_SLOT or with_prophets):
            counts[f // SLOTS] += 1


@kernel
def scan_cross_figures(st, cell, with_prophets, counts):
    """count_cross_figures where a tile of the cross holds more than one figure: every figure on
    the board is looked at."""
    for s in range(MAX_PLAYERS):
        counts[s] = 0
    for seat in range(st.players):
        for slot in range(SLOTS):
            node = st.fig_node[seat, slot]
            if node < 0 or (slot == PROPHET_SLOT and not with_prophets):
                continue
            d = st.p_cell[node // MAX_SEG] - cell
            if d == 0 or d == DELTA[0] or d == DELTA[1] or d == DELTA[2] or d == DELTA[3]:
                counts[seat] += 1


@kernel
def score_temple(st, pidx, complete, with_prophets):
    """7 points to the cross's majority when complete, 3 at the end if not; figures stay."""
    counts = st.tmp[110:110 + MAX_PLAYERS]
    count_cross_figures(st, st.p_cell[pidx], with_prophets, counts)
    if complete:
        award_majority(st, counts, 7, CAT_CLOISTER, WHY_TEMPLE7, pidx, 0, WHY_TEMPLE7)
    else:
        award_majority(st, counts, 3, CAT_CLOISTER, WHY_TEMPLE3, pidx, 0, WHY_TEMPLE3)


@kernel(inline=True)
def score_turn(st, tt):
    """Phase S (CA-9): roads, then cities, completed by the placed tile (by segment order), then
    temples (placed tile, N, E, S, W) or, in the base game, monasteries (placed tile and ring).
    Most turns complete nothing and have no open temple or monastery near: they pay two tests,
    the scoring itself is in functions of its own."""
    if st.n_completed > 0:
        score_completed_features(st, tt)
    cell = st.p_cell[st.n_placed - 1]
    near = cloisters_near(st, cell)
    if near != 0:
        score_cloisters(st, tt, cell, near)


@kernel
def score_completed_features(st, tt):
    """The roads, then the cities, the placed tile completed (st.completed, by segment order)."""
    for kind in (ROAD, CITY):
        for i in range(st.n_completed):
            root = st.completed[i]
            if st.seg[root].kind == kind:
                score_completed_feature(st, tt, root)


@kernel
def score_cloisters(st, tt, cell, near):
    """The temples or monasteries near the placed tile (cloisters_near) that it completed, by
    their places' bits in order (a temple's cross is the bits CROSS_BITS)."""
    ark = is_ark(tt)
    bits = near & CROSS_BITS if ark else near
    done = False
    while bits:
        k = lowest_bit(np.uint64(bits))
        bits &= bits - 1
        c = cell + NEAR_OFFSET[k]
        pidx = st.cell_pidx[c]
        if pidx < 0 or st.cloister_done[pidx] != 0:
            continue
        if ark:
            if tt.temple[st.p_type[pidx]] and orthogonal_neighbours(st, c) == 4:
                score_temple(st, pidx, True, True)
                st.cloister_done[pidx] = 1
                mark_cloister(st, pidx, False)
                done = True
        else:
            g = int(tt.cloister_seg[st.p_type[pidx]])
            if g >= 0 and ring_neighbours(st, c) == 8:
                node = pidx * MAX_SEG + g
                if st.seg[node].n_figs > 0:
                    award_majority(st, st.seg[node].figs, 9, CAT_CLOISTER, WHY_MONASTERY9, pidx, 0, WHY_MONASTERY9)
                    remove_figures(st, node)
                st.cloister_done[pidx] = 1
                mark_cloister(st, pidx, False)
                done = True
    if done:
        keep_open_cloisters(st)


@kernel
def keep_open_cloisters(st):
    """The open temples and monasteries, once some completed: in placement order, as they were."""
    n = 0
    for i in range(st.n_open_cloisters):
        pidx = st.open_cloisters[i]
        if st.cloister_done[pidx] == 0:
            st.open_cloisters[n] = pidx
            n += 1
    st.n_open_cloisters = n


@kernel(inline=True)
def cloisters_near(st, cell):
    """The places of the open temples and monasteries on the cell and its 8 neighbours, a bit each:
    bit 0 the cell, bit k its neighbour RING[k - 1]. Kept per cell as they open and close
    (rules.mark_cloister): one load a turn, and most turns it is 0."""
    return np.int64(st.cloister_near[np.uint64(cell)])


@kernel
def completion_chance(open_sides, turns_left):
    """The chance greedy gives a city with these open sides of being completed (policies.py), which a
    search's cut-off also credits (final_scoring's city_outlook)."""
    if open_sides <= 0:
        return 1.0
    p = 0.85 - 0.2 * (open_sides - 1)
    if p < 0.1:
        p = 0.1
    if turns_left < 6:
        p *= turns_left / 6.0
    return p


@kernel(inline=True)
def figure_root(st, seat, slot):
    """The root of the feature under seat's figure in slot (fig_node), -1 if the slot is empty."""
    node = st.fig_node[seat, slot]
    return -1 if node < 0 else find(st, node)


@kernel
def final_scoring(st, tt, city_outlook):
    """CA-10.2 / CB-4: unfinished temples or monasteries, unfinished roads and cities, fields.
    Only features with figures score, so they are found through the figures on the board.
    city_outlook: 0 at the game's end; a search's cut-off (playout.score_cut_off) also credits
    each open city's majority city_outlook x its completion chance x its tiles and pennants or
    scrolls, rounded — what completing it would add, as far as it is likely."""
    ark = is_ark(tt)
    for i in range(st.n_open_cloisters):
        pidx = st.open_cloisters[i]
        t = st.p_type[pidx]
        if ark and tt.temple[t]:
            score_temple(st, pidx, False, tt.rules[R_TEMPLE_PROPHETS] == 1)
        elif not ark and tt.cloister_seg[t] >= 0:
            node = pidx * MAX_SEG + int(tt.cloister_seg[t])
            if st.seg[node].n_figs > 0:
                award_majority(st, st.seg[node].figs, 1 + ring_neighbours(st, st.p_cell[pidx]), CAT_CLOISTER,
                               WHY_MONASTERY_END, pidx, 0, WHY_MONASTERY_END)
    doubles = ark and tt.rules[R_DOUBLE_INCOMPLETE] == 1
    for seat in range(st.players):
        for slot in range(SLOTS):
            root = figure_root(st, seat, slot)
            if root < 0 or st.seg[root].done:   # no figure, or scored already (by another of the feature)
                continue
            kind = st.seg[root].kind
            if kind == ROAD:
                award_majority(st, st.seg[root].figs, tile_count(st, root) + st.seg[root].oases, CAT_ROAD, WHY_ROAD_END,
                               root, 0, WHY_ROAD_END)
                touch_segments(st, root)
                st.seg[root].done = 2           # 2: scored at the end of the game
            elif kind == CITY:
                points = tile_count(st, root) + st.seg[root].scrolls
                award_majority(st, st.seg[root].figs, points, CAT_CITY, WHY_CITY_END, root,
                               st.seg[root].prophets if doubles else 0, WHY_CITY_END)
                if city_outlook > 0:
                    chance = completion_chance(st.seg[root].open, turns_left_of(st))
                    award_majority(st, st.seg[root].figs, np.int32(round(city_outlook * chance * points)), CAT_CITY,
                                   WHY_CITY_END, root, 0, WHY_CITY_END)
                touch_segments(st, root)
                st.seg[root].done = 2
    if ark:
        score_sheep_fields(st, tt)
    else:
        score_farmers(st, tt)


@kernel
def score_sheep_fields(st, tt):
    """CA-10.2 step 3: each wolf eats a sheep, each remaining sheep is worth 2 (AMB-04)."""
    negative = tt.rules[R_NEGATIVE_FIELDS] == 1
    for seat in range(st.players):
        for slot in range(SLOTS):
            node = st.fig_node[seat, slot]
            if node < 0 or st.seg[node].kind != FIELD:
                continue
            root = find(st, node)
            if st.seg[root].done:
                continue
            left = st.seg[root].sheep - st.seg[root].wolves
            if left < 0 and not negative:
                left = 0
            award_majority(st, st.seg[root].figs, 2 * left, CAT_FIELD, WHY_FIELD, root, 0, WHY_FIELD)
            touch_segments(st, root)
            st.seg[root].done = 2


@kernel
def score_farmers(st, tt):
    """CB-4.2: each completed city touching a field gives 3 to the field's majority; a city
    counts once per field, and once for each field it touches. The fields with farmers are
    numbered in the order their figures are found; the cities come from keep_city_fields."""
    n_fields = 0
    for seat in range(st.players):
        for slot in range(SLOTS):
            node = st.fig_node[seat, slot]
            if node < 0 or st.seg[node].kind != FIELD:
                continue
            root = find(st, node)
            if st.fid[root] < 0:
                st.fid[root] = n_fields
                st.field_roots[n_fields] = root
                n_fields += 1
    if n_fields == 0:
        return
    counts = st.field_cities
    last_city = st.field_last_city
    for f in range(n_fields):
        counts[f] = 0
        last_city[f] = -1
    for i in range(st.n_cities_done):
        for e in range(st.city_field_at[i], st.city_field_at[i + 1]):
            f = st.fid[find(st, st.city_field_nodes[e])]
            if f >= 0 and last_city[f] != i:
                last_city[f] = i
                counts[f] += 1
    for f in range(n_fields):
        node = st.field_roots[f]
        st.fid[node] = -1
        award_majority(st, st.seg[node].figs, 3 * counts[f], CAT_FIELD, WHY_FIELD, node, 0, WHY_FIELD)
