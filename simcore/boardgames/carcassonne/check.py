"""The engine's invariant checker (CA-17, and CB-3/CB-4 for the base game): `simcore check`
plays games with it on after every step (GameSpec.check_batch), tests/games/carcassonne/
test_invariants.py plays many games with it.

checked_game mirrors playout.run_game step by step (draw_placeable, choose_placement, place_tile,
choose_action, the phases of resolve_turn, final_scoring) and checks the invariants in between:
after every placement, after every action, after phase S and at the end of every turn and of the
game. The first violation ends that game's checking and comes back as (code, turn, detail);
VIOLATIONS says what each code means. The random and greedy policies play; a search player's
replays (driver.play_searched) are not mirrored.

Most checks recompute a quantity by brute force from the board and the figures rather than
trusting the engine's incremental bookkeeping: feature membership from the ports (CA-8.1), open
sides, distinct tiles and attribute sums of every feature, the figures on every feature, the
frontier, Ark paths and points, and who wins every scored feature and how much.
"""
import numpy as np

from simcore.boardgames.carcassonne import components as cp
from simcore.boardgames.carcassonne.components import CITY, CLOISTER, FIELD, MAX_SEG, MAX_TILES, ROAD
from simcore.boardgames.carcassonne.playout import log_move
from simcore.boardgames.carcassonne.policies import choose_action, choose_entry, choose_placement
from simcore.boardgames.carcassonne.rules import (
    DELTA, RING, apply_action, ark_enters, draw_placeable, find, list_actions, list_ark_entries,
    list_ark_outcomes, on_border, opposite_port, place_tile, reset, set_size, tile_count,
)
from simcore.boardgames.carcassonne.scoring import final_scoring, move_ark, score_turn
from simcore.boardgames.carcassonne.state import (
    ARK, CAT_ARK, CAT_FIELD, EV_PLACE, EV_SCORE, FOLLOWER, FOLLOWERS, GRID, MAX_EVENTS, MAX_PLAYERS,
    N_CATEGORIES, N_CELLS, N_NODES, PASS, PROPHET, PROPHET_AVAILABLE, PROPHET_ON_BOARD, PROPHET_SLOT, SLOTS,
    WHY_ARK, WHY_CITY, WHY_CITY_END, WHY_CITY_PROPHET, WHY_FIELD, WHY_MONASTERY9, WHY_MONASTERY_END, WHY_ROAD,
    WHY_ROAD_END, WHY_TEMPLE3, WHY_TEMPLE7, new_state,
)
from simcore.kernel import kernel
from simcore.contract import CheckResult, UserError
from simcore.search import FIRST_SEARCH_ID, FIRST_VARIANT_ID, FLATMC, P_KIND

R_RULESET = cp.RULESET
R_ARK_REENTER = cp.RULE_INDEX["ARK_MAY_REENTER_START"]
R_ARK_ENTRY = cp.RULE_INDEX["ARK_ENTRY_SCOPE"]
R_TILE_ONLY = cp.RULE_INDEX["EMPTY_SUPPLY_TILE_ONLY"]
R_ARK_PROPHETS = cp.RULE_INDEX["ARK_COUNTS_PROPHETS"]
R_ARK_FIELDS = cp.RULE_INDEX["ARK_COUNTS_FIELD_FOLLOWERS"]
R_NEGATIVE_FIELDS = cp.RULE_INDEX["FIELD_SCORE_MAY_BE_NEGATIVE"]
R_DOUBLE_INCOMPLETE = cp.RULE_INDEX["PROPHET_DOUBLES_INCOMPLETE"]
R_TEMPLE_PROPHETS = cp.RULE_INDEX["INCOMPLETE_TEMPLE_COUNTS_PROPHETS"]

# the checker's codes
E_TILES, E_FOLLOWERS, E_FIG_BOOKS, E_FIG_ON_DONE, E_EDGES, E_PLACEMENT, E_OPEN, E_TILE_COUNT, \
    E_AGGREGATES, E_SCORE_DOWN, E_SCORE_SUM, E_PROPHET, E_TARGET, E_ACTION, E_ARK_STATE, E_ARK_PATH, \
    E_ARK_POINTS, E_ARK_ENTRY, E_FRONTIER, E_COMPLETED, E_TEMPLE, E_LENGTH, E_EVENTS, E_EVENT_VALUE, \
    E_UNUSED_SEAT, E_FEATURES, E_WINNERS = range(1, 28)
VIOLATIONS = {       # what broke (simcore check names them)
    E_TILES: "tiles placed + discarded + left in the pile are not the set's tiles (72 in the box), or the turns "
             "played are not the tiles placed after the start tile (INV-03)",
    E_FOLLOWERS: "a player's followers in supply and on the board are not 7 (INV-01)",
    E_FIG_BOOKS: "a feature's count of figures disagrees with the figures standing on it",
    E_FIG_ON_DONE: "a figure stands on a completed road or city or a scored monastery, or a feature was marked "
                   "scored before it was complete (INV-05)",
    E_EDGES: "two adjacent tiles show different edges to each other (INV-04)",
    E_PLACEMENT: "a tile was placed where it does not fit, or where the placement list did not offer it "
                 "(CA-4.2)",
    E_OPEN: "a road or city's count of open sides is wrong, or it is complete and not scored (INV-05)",
    E_TILE_COUNT: "a feature's count of tiles is wrong (INV-09)",
    E_AGGREGATES: "a feature's scrolls (pennants), oases, sheep or wolves are not the sum over its "
                  "segments (CA-8.7)",
    E_SCORE_DOWN: "a player's score, or a score category, went down (INV-11)",
    E_SCORE_SUM: "a score is not the sum of its categories or of its scoring events (INV-11)",
    E_PROPHET: "a prophet came back from the board or the box, or stands on the board without being "
               "marked there (INV-02)",
    E_TARGET: "a follower or prophet was placed on a feature that already held a figure (INV-06)",
    E_ACTION: "the actions offered (pass, follower, prophet, move the Ark) were wrong, or the player took "
              "one not offered (CA-5, CA-6, CA-7.4)",
    E_ARK_STATE: "the Ark stood on the board before the first completed city, off it after, on an empty "
                 "cell, or could not move (INV-07)",
    E_ARK_PATH: "the Ark moved along an illegal path (CA-7.5)",
    E_ARK_POINTS: "the Ark's points are not one per counted figure on the tiles it entered (INV-08)",
    E_ARK_ENTRY: "the tiles offered for the Ark's entry, or the one chosen, were wrong (CA-7.2)",
    E_FRONTIER: "the empty cells next to the board, or the edges they require, are wrong (CA-12.5)",
    E_COMPLETED: "a road or city the tile completed was missed, listed twice, or not scored and cleared "
                 "(CA-9.1)",
    E_TEMPLE: "a temple or monastery is surrounded and unscored, or was scored before it was surrounded "
              "(INV-10)",
    E_LENGTH: "the game did not end when all its tiles were placed or discarded (CA-10.1)",
    E_EVENTS: "a feature, temple or monastery scored as complete twice or again at the end, or a score "
              "of the other rule set (INV-10)",
    E_EVENT_VALUE: "the points scored for a feature do not match it (CA-9.3, CA-9.4, CA-10.2, CB-3, CB-4)",
    E_UNUSED_SEAT: "a seat that is not in the game has figures or points",
    E_FEATURES: "the roads, cities and fields the engine joined are not the ones the tiles' edges connect "
                "(CA-8.1)",
    E_WINNERS: "a feature, temple or monastery paid others than the players with the most figures on it, "
               "or a prophet's doubling was wrong (CA-0.11, CA-6.6)",
}
# what the third number of a violation (its detail) names, for a test's message
DETAILS = {
    E_TILES: "tiles placed or turn", E_FOLLOWERS: "seat", E_FIG_BOOKS: "node", E_FIG_ON_DONE: "node",
    E_EDGES: "placed tile index", E_PLACEMENT: "cell * 4 + rotation", E_OPEN: "root node",
    E_TILE_COUNT: "root node", E_AGGREGATES: "root node", E_SCORE_DOWN: "seat", E_SCORE_SUM: "seat",
    E_PROPHET: "seat", E_TARGET: "action", E_ACTION: "action", E_ARK_STATE: "Ark cell",
    E_ARK_PATH: "path index", E_ARK_POINTS: "seat", E_ARK_ENTRY: "cell or count", E_FRONTIER: "cell",
    E_COMPLETED: "root node", E_TEMPLE: "placed tile index", E_LENGTH: "turn", E_EVENTS: "event index",
    E_EVENT_VALUE: "event index", E_UNUSED_SEAT: "seat", E_FEATURES: "node",
    E_WINNERS: "root node, placed tile index or event index",
}

# rows of the per-node scratch array
W_OPEN, W_TILES, W_LAST, W_SCROLLS, W_OASES, W_SHEEP, W_WOLVES, W_PROPH, W_UF, W_MAP1, W_MAP2, \
    W_EV_TURN, W_EV_SEATS, W_EV_END, W_WIN, W_GOT, W_PRO = range(17)
N_WORK = 17
N_SLOTS = N_NODES + MAX_TILES     # columns: feature nodes, then one per tile (temples, monasteries)


# ------------------------------------------------------------------ compiled checks

@kernel
def uf_find(par, x):
    while par[x] != x:
        par[x] = par[par[x]]
        x = par[x]
    return x


@kernel
def winners(counts, players):
    """CA-0.11: bit mask of the seats with the most counted figures (0 if none)."""
    best = 0
    for s in range(players):
        if counts[s] > best:
            best = counts[s]
    mask = 0
    if best > 0:
        for s in range(players):
            if counts[s] == best:
                mask |= 1 << s
    return mask


@kernel
def feature_counts(st, root, counts):
    """Figures per seat on the feature of root, from fig_node; returns the prophet owners' mask."""
    for s in range(MAX_PLAYERS):
        counts[s] = 0
    prophets = 0
    for seat in range(st.players):
        for slot in range(SLOTS):
            node = st.fig_node[seat, slot]
            if node >= 0 and find(st, node) == root:
                counts[seat] += 1
                if slot == PROPHET_SLOT:
                    prophets |= 1 << seat
    return prophets


@kernel
def cross_counts(st, cell, with_prophets, counts):
    """CA-9.6/CA-10.2: figures per seat on a temple's tile and its orthogonal neighbours."""
    for s in range(MAX_PLAYERS):
        counts[s] = 0
    for seat in range(st.players):
        for slot in range(SLOTS):
            node = st.fig_node[seat, slot]
            if node < 0 or (slot == PROPHET_SLOT and not with_prophets):
                continue
            d = st.p_cell[node // MAX_SEG] - cell
            if d == 0 or d == 1 or d == -1 or d == GRID or d == -GRID:
                counts[seat] += 1


@kernel
def farmer_value(st, tt, field_root, mark, ctr):
    """CB-4.2: 3 points per distinct COMPLETED city (open == 0) touching the field."""
    ctr[0] += 1
    stamp = ctr[0]
    n = 0
    for pidx in range(st.n_placed):
        t = st.p_type[pidx]
        for g in range(tt.n_seg[t]):
            if tt.seg_kind[t, g] != FIELD or find(st, pidx * MAX_SEG + g) != field_root:
                continue
            cities = tt.field_cities[t, g]
            c = 0
            while cities:
                if cities & 1:
                    city = find(st, pidx * MAX_SEG + c)
                    if st.seg[city].kind == CITY and st.seg[city].open == 0 and mark[city] != stamp:
                        mark[city] = stamp
                        n += 1
                cities >>= 1
                c += 1
    return 3 * n


@kernel
def stray_frontier_cell(st, mark, stamp):
    """The first cell whose frontier bit is set though it is not a frontier cell (mark != stamp)."""
    for w in range(st.front_bits.shape[0]):
        for b in range(64):
            if st.front_bits[w] >> np.uint64(b) & np.uint64(1) and mark[w * 64 + b] != stamp:
                return w * 64 + b
    return -2


@kernel
def check_placement(st, tt, t, rot, cell):
    """CA-4.2: empty cell, >= 1 occupied orthogonal neighbour, every facing edge equal; and the
    placement is one the enumerator offers (fits table, which respects DEDUPE)."""
    if rot < 0 or rot > 3 or st.cell_pidx[cell] >= 0:
        return False
    neighbours = 0
    for s in range(4):
        q = st.cell_pidx[cell + DELTA[s]]
        if q >= 0:
            neighbours += 1
            if tt.edge[t, rot, s] != tt.edge[st.p_type[q], st.p_rot[q], (s + 2) % 4]:
                return False
    if neighbours == 0 or st.req[cell] == 255:
        return False
    return (tt.fits[t, st.req[cell]] >> rot) & 1 == 1


@kernel
def check_features(st, tt, work, ctr):
    """CA-8.1: build the features independently of the engine (segments joined across every pair
    of facing ports) and compare the partition with the engine's union-find. Tiles never move, so
    the checker's own union-find (work[W_UF]) joins each tile's ports once, when it is first seen:
    ctr[1] counts the tiles it holds (0 at the start of a game)."""
    par = work[W_UF]
    m1 = work[W_MAP1]
    m2 = work[W_MAP2]
    for pidx in range(ctr[1], st.n_placed):
        for g in range(tt.n_seg[st.p_type[pidx]]):
            par[pidx * MAX_SEG + g] = pidx * MAX_SEG + g
        t = st.p_type[pidx]
        r = st.p_rot[pidx]
        cell = st.p_cell[pidx]
        for s in range(4):
            q = st.cell_pidx[cell + DELTA[s]]
            if q < 0 or q > pidx:           # an empty side, or a tile joined when it is seen
                continue
            for i in range(3):
                p = 3 * s + i
                a = uf_find(par, pidx * MAX_SEG + tt.port_seg[t, r, p])
                b = uf_find(par, q * MAX_SEG + tt.port_seg[st.p_type[q], st.p_rot[q], opposite_port(p)])
                if a < b:
                    par[b] = a
                elif b < a:
                    par[a] = b
    ctr[1] = st.n_placed
    code = 0
    detail = 0
    for pidx in range(st.n_placed):
        for g in range(tt.n_seg[st.p_type[pidx]]):
            node = pidx * MAX_SEG + g
            mine = uf_find(par, node) + 1
            theirs = find(st, node) + 1
            if m1[theirs - 1] == 0:
                m1[theirs - 1] = mine
            elif m1[theirs - 1] != mine:
                code, detail = E_FEATURES, node
            if m2[mine - 1] == 0:
                m2[mine - 1] = theirs
            elif m2[mine - 1] != theirs:
                code, detail = E_FEATURES, node
    for pidx in range(st.n_placed):
        for g in range(tt.n_seg[st.p_type[pidx]]):
            m1[pidx * MAX_SEG + g] = 0
            m2[pidx * MAX_SEG + g] = 0
    return code, detail


@kernel
def check_state(st, tt, work, figcnt, mark, ctr, ark, city_done, final):
    """Everything that must hold at the end of every turn (and, final=True, after final scoring,
    where features scored at the end may be marked done = 2). Returns (code, detail)."""
    players = st.players
    # INV-03
    tiles = set_size(tt)
    if st.n_placed < 1 or st.n_deck != tiles - 1:
        return E_TILES, 0
    if st.n_placed + st.discarded + (st.n_deck - st.top) != tiles:
        return E_TILES, st.n_placed
    if st.round_no != st.n_placed - 1 or st.round_no > tiles - 1:
        return E_TILES, st.round_no
    # seats not in the game
    for s in range(players, MAX_PLAYERS):
        if st.supply[s] != FOLLOWERS or st.vp[s] != 0 or st.prophet_state[s] != PROPHET_AVAILABLE:
            return E_UNUSED_SEAT, s
        for j in range(SLOTS):
            if st.fig_node[s, j] != -1:
                return E_UNUSED_SEAT, s
        for c in range(N_CATEGORIES):
            if st.pts[s, c] != 0:
                return E_UNUSED_SEAT, s
    code, detail = check_features(st, tt, work, ctr)
    if code != 0:
        return code, detail
    # INV-01, INV-02 (ON_BOARD <=> the prophet stands), figure targets, figures per root
    for s in range(players):
        on_board = 0
        for j in range(FOLLOWERS):
            if st.fig_node[s, j] >= 0:
                on_board += 1
        if st.supply[s] < 0 or st.supply[s] > FOLLOWERS or st.supply[s] + on_board != FOLLOWERS:
            return E_FOLLOWERS, s
        if (st.prophet_state[s] == PROPHET_ON_BOARD) != (st.fig_node[s, PROPHET_SLOT] >= 0):
            return E_PROPHET, s
        if not ark and st.prophet_state[s] != PROPHET_AVAILABLE:
            return E_PROPHET, s
    for s in range(players):
        for j in range(SLOTS):
            node = st.fig_node[s, j]
            if node < 0:
                continue
            pidx = node // MAX_SEG
            g = node % MAX_SEG
            if pidx >= st.n_placed or g >= tt.n_seg[st.p_type[pidx]]:
                code, detail = E_FIG_BOOKS, node
                break
            if j == PROPHET_SLOT and tt.seg_kind[st.p_type[pidx], g] != CITY:
                code, detail = E_FIG_BOOKS, node
            root = find(st, node)
            figcnt[root, s] += 1
            if j == PROPHET_SLOT:
                work[W_PROPH, root] |= 1 << s
            k = st.seg[root].kind
            if (k == ROAD or k == CITY) and (st.seg[root].done == 1 or st.seg[root].open == 0):
                code, detail = E_FIG_ON_DONE, node
            if st.seg[root].done == 2 and not final:
                code, detail = E_FIG_ON_DONE, node
            if k == CLOISTER and st.cloister_done[pidx] != 0:
                code, detail = E_FIG_ON_DONE, node
    # brute-force aggregates over the member nodes of every feature
    for pidx in range(st.n_placed):
        t = st.p_type[pidx]
        r = st.p_rot[pidx]
        cell = st.p_cell[pidx]
        if st.cell_pidx[cell] != pidx and code == 0:
            code, detail = E_EDGES, pidx
        for g in range(tt.n_seg[t]):
            node = pidx * MAX_SEG + g
            root = find(st, node)
            kind = tt.seg_kind[t, g]
            if (st.seg[node].kind != kind or st.seg[root].kind != kind) and code == 0:
                code, detail = E_AGGREGATES, root
            if work[W_LAST, root] != pidx + 1:        # nodes come in pidx order: distinct tiles
                work[W_LAST, root] = pidx + 1
                work[W_TILES, root] += 1
            work[W_SCROLLS, root] += tt.seg_scrolls[t, g]
            work[W_OASES, root] += tt.seg_oases[t, g]
            work[W_SHEEP, root] += tt.seg_sheep[t, g]
            work[W_WOLVES, root] += tt.seg_wolves[t, g]
        for s in range(4):
            q = st.cell_pidx[cell + DELTA[s]]
            if q < 0:       # an open side of the road or city whose segment holds the side's middle port
                g = tt.port_seg[t, r, 3 * s + 1]
                if tt.seg_kind[t, g] == ROAD or tt.seg_kind[t, g] == CITY:
                    work[W_OPEN, find(st, pidx * MAX_SEG + g)] += 1
            elif tt.edge[t, r, s] != tt.edge[st.p_type[q], st.p_rot[q], (s + 2) % 4] and code == 0:
                code, detail = E_EDGES, pidx        # INV-04: facing edges of every adjacent pair
    for pidx in range(st.n_placed):
        t = st.p_type[pidx]
        for g in range(tt.n_seg[t]):
            node = pidx * MAX_SEG + g
            if code == 0 and st.seg[node].parent == node:
                kind = st.seg[node].kind
                done = st.seg[node].done
                if tile_count(st, node) != work[W_TILES, node]:
                    code, detail = E_TILE_COUNT, node
                elif st.seg[node].scrolls != work[W_SCROLLS, node] or st.seg[node].oases != work[W_OASES, node] \
                        or st.seg[node].sheep != work[W_SHEEP, node] or st.seg[node].wolves != work[W_WOLVES, node]:
                    code, detail = E_AGGREGATES, node
                elif (kind == ROAD or kind == CITY) and (
                        st.seg[node].open < 0 or st.seg[node].open != work[W_OPEN, node]
                        or (st.seg[node].open == 0) != (done == 1)):
                    code, detail = E_OPEN, node
                elif done < 0 or done > 2 or (done == 2 and not final) or (kind != ROAD and kind != CITY
                                                                           and done == 1):
                    code, detail = E_FIG_ON_DONE, node
                elif st.seg[node].n_figs > 0:       # figs[] is only meaningful while n_figs > 0
                    total = 0
                    for s in range(MAX_PLAYERS):
                        if st.seg[node].figs[s] != figcnt[node, s]:
                            code, detail = E_FIG_BOOKS, node
                        total += figcnt[node, s]
                    if st.seg[node].n_figs != total or st.seg[node].prophets != work[W_PROPH, node]:
                        code, detail = E_FIG_BOOKS, node
                else:
                    for s in range(MAX_PLAYERS):
                        if figcnt[node, s] != 0:
                            code, detail = E_FIG_BOOKS, node
                    if st.seg[node].n_figs != 0 or st.seg[node].prophets != 0:
                        code, detail = E_FIG_BOOKS, node
            for w in range(W_OPEN, W_PROPH + 1):
                work[w, node] = 0
            for s in range(MAX_PLAYERS):
                figcnt[node, s] = 0
    if code != 0:
        return code, detail
    # temples (Ark, cross of 4) and monasteries (base, ring of 8): scored exactly when complete
    for pidx in range(st.n_placed):
        t = st.p_type[pidx]
        cell = st.p_cell[pidx]
        if ark and tt.temple[t]:
            n = 0
            for s in range(4):
                if st.cell_pidx[cell + DELTA[s]] >= 0:
                    n += 1
            if (n == 4) != (st.cloister_done[pidx] == 1):
                return E_TEMPLE, pidx
        elif not ark and tt.cloister_seg[t] >= 0:
            n = 0
            for k in range(8):
                if st.cell_pidx[cell + RING[k]] >= 0:
                    n += 1
            if (n == 8) != (st.cloister_done[pidx] == 1):
                return E_TEMPLE, pidx
        elif st.cloister_done[pidx] != 0:
            return E_TEMPLE, pidx
    # frontier: exactly the empty cells next to the board, with the right requirement keys
    ctr[0] += 1
    stamp = ctr[0]
    n_front = 0
    for pidx in range(st.n_placed):
        cell = st.p_cell[pidx]
        for s in range(4):
            nc = cell + DELTA[s]
            if st.cell_pidx[nc] >= 0 or mark[nc] == stamp or on_border(nc):
                continue
            mark[nc] = stamp
            n_front += 1
            key = 0
            for s2 in range(4):
                q = st.cell_pidx[nc + DELTA[s2]]
                digit = 3
                if q >= 0:
                    digit = tt.edge[st.p_type[q], st.p_rot[q], (s2 + 2) % 4]
                key |= digit << (2 * s2)
            w = nc >> 6
            if st.req[nc] != key or st.front_bits[w] >> np.uint64(nc & 63) & np.uint64(1) == 0 \
                    or w < st.front_lo or w > st.front_hi:
                return E_FRONTIER, nc
    if n_front != st.n_frontier:
        return E_FRONTIER, -1
    # the bitmap holds every frontier cell (above), so it holds no other if it has as many set bits
    # and none in a word outside front_lo..front_hi; counting only the set bits keeps this cheap
    in_bits = 0
    for w in range(st.front_bits.shape[0]):
        bits = st.front_bits[w]
        if bits != 0 and (w < st.front_lo or w > st.front_hi):
            return E_FRONTIER, w * 64
        while bits != 0:
            bits &= bits - np.uint64(1)
            in_bits += 1
    if in_bits != n_front:
        return E_FRONTIER, stray_frontier_cell(st, mark, stamp)
    # INV-07
    if not ark:
        if st.ark_cell != -1:
            return E_ARK_STATE, st.ark_cell
    elif city_done != (st.ark_cell >= 0):
        return E_ARK_STATE, st.ark_cell
    elif st.ark_cell >= 0:
        if st.cell_pidx[st.ark_cell] < 0:
            return E_ARK_STATE, st.ark_cell
        if list_ark_outcomes(st, tt) < 1:           # CA-7.9: always movable
            return E_ARK_STATE, st.ark_cell
    # INV-11
    for s in range(players):
        total = 0
        for c in range(N_CATEGORIES):
            total += st.pts[s, c]
        if total != st.vp[s]:
            return E_SCORE_SUM, s
        if not ark and st.pts[s, CAT_ARK] != 0:
            return E_SCORE_SUM, s
    return 0, 0


@kernel
def check_actions(st, tt, seat, n):
    """CA-13 D-ACTION: list_actions offers exactly PASS, FOLLOWER(g) for every segment of the
    placed tile on an unoccupied feature (supply >= 1), PROPHET(g) for every such city segment
    (prophet AVAILABLE), and ARK when the Ark is on the board, in canonical order. Returns 0 or
    the first wrong entry."""
    pidx = st.n_placed - 1
    t = st.p_type[pidx]
    ark = tt.rules[R_RULESET] == 1
    tile_only = tt.rules[R_TILE_ONLY] == 1 and st.supply[seat] == 0
    k = 0
    expect = np.empty(32, np.int64)
    expect[k] = PASS * 16
    k += 1
    if st.supply[seat] > 0:
        for g in range(tt.n_seg[t]):
            if st.seg[find(st, pidx * MAX_SEG + g)].n_figs == 0:
                expect[k] = FOLLOWER * 16 + g
                k += 1
    if ark and not tile_only:
        if st.prophet_state[seat] == PROPHET_AVAILABLE:
            for g in range(tt.n_seg[t]):
                if tt.seg_kind[t, g] == CITY and st.seg[find(st, pidx * MAX_SEG + g)].n_figs == 0:
                    expect[k] = PROPHET * 16 + g
                    k += 1
        if st.ark_cell >= 0:
            expect[k] = ARK * 16
            k += 1
    if n != k:
        return -1 - n
    for i in range(k):
        if st.actions[i] != expect[i]:
            return st.actions[i]
    return 0


@kernel
def check_ark_path(st, tt, k):
    """CA-7.5 for outcome k: 1..5 steps over occupied, orthogonally adjacent, pairwise distinct
    cells, not ending on the start, and not entering the start unless ARK_MAY_REENTER_START."""
    s = st.ark_cell
    n = st.ark_len[k]
    if n < 1 or n > 5:
        return False
    prev = s
    for i in range(n):
        c = st.ark_path[k, i]
        if st.cell_pidx[c] < 0:
            return False
        d = c - prev
        if d != 1 and d != -1 and d != GRID and d != -GRID:
            return False
        for j in range(i):
            if st.ark_path[k, j] == c:
                return False
        if c == s and tt.rules[R_ARK_REENTER] != 1:
            return False
        prev = c
    return st.ark_path[k, n - 1] != s


@kernel
def expected_ark_points(st, tt, k, out):
    """CA-7.6: +1 per counted figure on the tiles of {t1..tk} minus the start tile."""
    s = st.ark_cell
    for seat in range(MAX_PLAYERS):
        out[seat] = 0
    for seat in range(st.players):
        for slot in range(SLOTS):
            node = st.fig_node[seat, slot]
            if node < 0:
                continue
            c = st.p_cell[node // MAX_SEG]
            if c == s:
                continue
            on_path = False
            for i in range(st.ark_len[k]):
                if st.ark_path[k, i] == c:
                    on_path = True
            if not on_path:
                continue
            if slot == PROPHET_SLOT:
                counted = tt.rules[R_ARK_PROPHETS] == 1
            elif st.seg[node].kind == FIELD:
                counted = tt.rules[R_ARK_FIELDS] == 1
            else:
                counted = True
            if counted:
                out[seat] += 1


@kernel
def check_entries(st, tt, n, cell, mark, ctr):
    """CA-7.2 entry options: the tiles of every city completed this turn (CITY_TILES), sorted, or
    only the placed tile (PLACED_TILE)."""
    if tt.rules[R_ARK_ENTRY] == 1:
        return n == 1 and st.tmp[0] == cell
    ctr[0] += 1
    stamp = ctr[0]
    expect = 0
    for pidx in range(st.n_placed):
        t = st.p_type[pidx]
        hit = False
        for g in range(tt.n_seg[t]):
            if tt.seg_kind[t, g] != CITY:
                continue
            root = find(st, pidx * MAX_SEG + g)
            for i in range(st.n_completed):
                if st.completed[i] == root:
                    hit = True
        if hit:
            mark[st.p_cell[pidx]] = stamp
            expect += 1
    if n != expect:
        return False
    for i in range(n):
        if mark[st.tmp[i]] != stamp or (i > 0 and st.tmp[i - 1] >= st.tmp[i]):
            return False
    return True


@kernel
def score_of(st, i):
    """Move-log entry i, an EV_SCORE: its turn, seat, points, why (WHY_*) and subject (state.py)."""
    return st.ev[i, 1], st.ev[i, 2], st.ev[i, 3], st.ev[i, 4], st.ev[i, 5]


@kernel
def logged(st, code):
    """How many entries of the move log are of the kind code (EV_*)."""
    n = 0
    for i in range(st.n_events):
        if st.ev[i, 0] == code:
            n += 1
    return n


@kernel
def points_logged(st, seat):
    """The points of the seat's score events in the move log."""
    total = 0
    for i in range(st.n_events):
        if st.ev[i, 0] == EV_SCORE:
            _, s, points, _, _ = score_of(st, i)
            if s == seat:
                total += points
    return total


@kernel
def event_slot(reason, ref):
    """Scratch column of an event's subject: feature root node, or N_NODES + tile index."""
    if reason == WHY_TEMPLE7 or reason == WHY_TEMPLE3 or reason == WHY_MONASTERY9 or reason == WHY_MONASTERY_END:
        return N_NODES + ref
    return ref


@kernel
def check_events(st, tt, work, mark, ctr, final_turn):
    """INV-10/INV-11/CA-8.6 over the score event log: every completion scored in one turn only and
    once per seat, end-of-game events only in final scoring and never for a completed feature,
    and the points of each event match its feature (CA-9.3, CA-9.4, CA-10.2, CB-3, CB-4)."""
    ark = tt.rules[R_RULESET] == 1
    negative = tt.rules[R_NEGATIVE_FIELDS] == 1
    code = 0
    detail = 0
    for i in range(st.n_events):
        if st.ev[i, 0] != EV_SCORE:
            continue
        turn, seat, pts, reason, ref = score_of(st, i)
        if seat < 0 or seat >= st.players:
            return E_EVENTS, i
        bit = 1 << seat
        in_game = turn < final_turn
        if reason == WHY_ARK:
            if not ark or not in_game or pts <= 0:
                return E_EVENTS, i
            continue
        arkonly = reason == WHY_CITY_PROPHET or reason == WHY_TEMPLE7 or reason == WHY_TEMPLE3
        baseonly = reason == WHY_MONASTERY9 or reason == WHY_MONASTERY_END
        if (arkonly and not ark) or (baseonly and ark):
            return E_EVENTS, i
        completion = reason == WHY_ROAD or reason == WHY_CITY or reason == WHY_CITY_PROPHET \
            or reason == WHY_TEMPLE7 or reason == WHY_MONASTERY9
        if completion != in_game:
            return E_EVENTS, i
        slot = event_slot(reason, ref)
        if slot < 0 or slot >= N_SLOTS or (slot >= N_NODES and (ref < 0 or ref >= st.n_placed)):
            return E_EVENTS, i
        if completion:
            if work[W_EV_END, slot] != 0:
                return E_EVENTS, i
            if work[W_EV_TURN, slot] == 0:
                work[W_EV_TURN, slot] = turn + 1
            elif work[W_EV_TURN, slot] != turn + 1:
                return E_EVENTS, i          # scored as completed in two different turns
        else:
            if work[W_EV_TURN, slot] != 0:
                return E_EVENTS, i          # completed earlier, scored again at the end
            work[W_EV_END, slot] = 1
        if work[W_EV_SEATS, slot] & bit:
            return E_EVENTS, i              # the same seat paid twice for one feature
        work[W_EV_SEATS, slot] |= bit
        if code != 0:
            continue
        if reason == WHY_ROAD or reason == WHY_ROAD_END:
            ok = pts == tile_count(st, ref) + st.seg[ref].oases and st.seg[ref].kind == ROAD \
                and st.seg[ref].parent == ref
        elif reason == WHY_CITY or reason == WHY_CITY_PROPHET:
            value = 2 * (tile_count(st, ref) + st.seg[ref].scrolls)
            if reason == WHY_CITY_PROPHET:
                value *= 2
            ok = pts == value and st.seg[ref].kind == CITY and st.seg[ref].parent == ref and st.seg[ref].open == 0
        elif reason == WHY_CITY_END:    # the prophet's doubling is checked in check_final
            value = tile_count(st, ref) + st.seg[ref].scrolls
            ok = (pts == value or pts == 2 * value) and st.seg[ref].kind == CITY and st.seg[ref].parent == ref \
                and st.seg[ref].open > 0
        elif reason == WHY_FIELD:
            ok = st.seg[ref].kind == FIELD and st.seg[ref].parent == ref
            if ark:
                left = st.seg[ref].sheep - st.seg[ref].wolves
                if left < 0 and not negative:
                    left = 0
                ok = ok and pts == 2 * left
            else:
                ok = ok and pts == farmer_value(st, tt, ref, mark, ctr)
        elif reason == WHY_TEMPLE7:
            ok = pts == 7 and tt.temple[st.p_type[ref]] == 1
        elif reason == WHY_TEMPLE3:
            ok = pts == 3 and tt.temple[st.p_type[ref]] == 1
        elif reason == WHY_MONASTERY9:
            ok = pts == 9 and tt.cloister_seg[st.p_type[ref]] >= 0
        elif reason == WHY_MONASTERY_END:
            n = 0
            for k in range(8):
                if st.cell_pidx[st.p_cell[ref] + RING[k]] >= 0:
                    n += 1
            ok = pts == 1 + n and n < 8 and tt.cloister_seg[st.p_type[ref]] >= 0
        else:
            ok = False
        if not ok:
            code, detail = E_EVENT_VALUE, i
    for i in range(N_SLOTS):
        work[W_EV_TURN, i] = 0
        work[W_EV_SEATS, i] = 0
        work[W_EV_END, i] = 0
    return code, detail


@kernel
def check_phase_s(st, tt, ev0, comp_win, comp_pro, mon_pidx, mon_win, temple_was_open, counts):
    """CA-9/CB-3 winners of this turn's phase S: every completed road/city pays exactly its
    majority (doubled, as WHY_CITY_PROPHET, for a winning prophet owner), every monastery completed
    now pays its monk's owner(s), every temple completed now pays the majority of the cross as it
    stands after the roads and cities were cleared. comp_win/comp_pro/mon_win were taken before
    phase S; temple_was_open[k] says the temple at candidate k (placed cell, N, E, S, W) was open."""
    cell = st.p_cell[st.n_placed - 1]
    got = np.zeros(16, np.int64)
    got_mon = np.zeros(16, np.int64)
    got_temple = np.zeros(5, np.int64)
    for i in range(ev0, st.n_events):
        if st.ev[i, 0] != EV_SCORE:
            continue
        _, seat, _, reason, ref = score_of(st, i)
        bit = 1 << seat
        matched = False
        if reason == WHY_ROAD or reason == WHY_CITY or reason == WHY_CITY_PROPHET:
            for j in range(st.n_completed):
                if st.completed[j] == ref:
                    matched = True
                    got[j] |= bit
                    if (reason == WHY_CITY_PROPHET) != ((comp_pro[j] & bit) != 0):
                        return E_WINNERS, i
        elif reason == WHY_MONASTERY9:
            for j in range(16):
                if mon_pidx[j] == ref:
                    matched = True
                    got_mon[j] |= bit
        elif reason == WHY_TEMPLE7:
            for k in range(5):
                c = cell if k == 0 else cell + DELTA[k - 1]
                if temple_was_open[k] and st.cell_pidx[c] == ref:
                    matched = True
                    got_temple[k] |= bit
        if not matched:
            return E_WINNERS, i
    for j in range(st.n_completed):
        if got[j] != comp_win[j]:
            return E_WINNERS, st.completed[j]
    for j in range(16):
        if mon_pidx[j] >= 0 and got_mon[j] != mon_win[j]:
            return E_WINNERS, mon_pidx[j]
    for k in range(5):
        c = cell if k == 0 else cell + DELTA[k - 1]
        if temple_was_open[k]:
            pidx = st.cell_pidx[c]
            if st.cloister_done[pidx] == 1:
                cross_counts(st, c, True, counts)
                if got_temple[k] != winners(counts, st.players):
                    return E_WINNERS, pidx
            elif got_temple[k] != 0:
                return E_WINNERS, pidx
    return 0, 0


@kernel
def final_snapshot(st, tt, work, counts):
    """Before final scoring: who must win each unfinished temple or monastery and each road, city
    and field that holds figures (CA-10.2, CB-4), from the figures on the board."""
    ark = tt.rules[R_RULESET] == 1
    temple_prophets = tt.rules[R_TEMPLE_PROPHETS] == 1
    for pidx in range(st.n_placed):
        t = st.p_type[pidx]
        slot = N_NODES + pidx
        work[W_WIN, slot] = 0
        work[W_GOT, slot] = 0
        if st.cloister_done[pidx]:
            pass
        elif ark and tt.temple[t]:
            cross_counts(st, st.p_cell[pidx], temple_prophets, counts)
            work[W_WIN, slot] = winners(counts, st.players)
        elif not ark and tt.cloister_seg[t] >= 0:
            feature_counts(st, pidx * MAX_SEG + tt.cloister_seg[t], counts)
            work[W_WIN, slot] = winners(counts, st.players)
        for g in range(tt.n_seg[t]):
            node = pidx * MAX_SEG + g
            work[W_WIN, node] = 0
            work[W_GOT, node] = 0
            work[W_PRO, node] = 0
            kind = st.seg[node].kind
            if st.seg[node].parent == node and st.seg[node].done == 0 \
                    and (kind == ROAD or kind == CITY or kind == FIELD):
                work[W_PRO, node] = feature_counts(st, node, counts)
                work[W_WIN, node] = winners(counts, st.players)


@kernel
def check_final(st, tt, work, ev0, mark, ctr):
    """After final scoring: each subject paid exactly its majority, or nobody when it is worth 0;
    an unfinished city doubles only for a winning prophet owner under PROPHET_DOUBLES_INCOMPLETE."""
    ark = tt.rules[R_RULESET] == 1
    negative = tt.rules[R_NEGATIVE_FIELDS] == 1
    doubles = ark and tt.rules[R_DOUBLE_INCOMPLETE] == 1
    for i in range(ev0, st.n_events):
        if st.ev[i, 0] != EV_SCORE:
            continue
        _, seat, pts, reason, ref = score_of(st, i)
        if reason != WHY_TEMPLE3 and reason != WHY_MONASTERY_END and reason != WHY_ROAD_END \
                and reason != WHY_CITY_END and reason != WHY_FIELD:
            return E_EVENTS, i
        slot = event_slot(reason, ref)
        work[W_GOT, slot] |= 1 << seat
        if reason == WHY_CITY_END:
            value = tile_count(st, ref) + st.seg[ref].scrolls
            if doubles and (work[W_PRO, ref] >> seat) & 1:
                value *= 2
            if pts != value:
                return E_WINNERS, i
    for pidx in range(st.n_placed):
        slot = N_NODES + pidx
        if work[W_GOT, slot] != work[W_WIN, slot]:
            return E_WINNERS, pidx
        t = st.p_type[pidx]
        for g in range(tt.n_seg[t]):
            node = pidx * MAX_SEG + g
            win = work[W_WIN, node]
            if win != 0:
                kind = st.seg[node].kind
                if kind == FIELD:
                    if ark:
                        value = st.seg[node].sheep - st.seg[node].wolves
                        if value < 0 and not negative:
                            value = 0
                    else:
                        value = farmer_value(st, tt, node, mark, ctr)
                else:
                    value = 1               # roads and cities are worth >= 1 tile
                if value == 0:
                    win = 0
            if work[W_GOT, node] != win:
                return E_WINNERS, node
    return 0, 0


@kernel
def checked_game(st, tt, players, policies, seed, index, work, figcnt, mark, ctr, err):
    """playout.run_game with resolve_turn spelled out and the invariants checked in between.
    Returns 0 or the code of the first broken invariant (err holds code, the turn it broke in,
    detail)."""
    ark = tt.rules[R_RULESET] == 1
    negative_fields = tt.rules[R_NEGATIVE_FIELDS] == 1
    st.logging = 1
    reset(st, tt, players, policies, seed, index)
    ctr[1] = 0                      # check_features: a new game's union-find
    prev_pts = np.zeros((MAX_PLAYERS, N_CATEGORIES), np.int64)
    prev_prophet = np.zeros(MAX_PLAYERS, np.int64)
    gained = np.zeros(MAX_PLAYERS, np.int64)
    counts = np.zeros(MAX_PLAYERS, np.int64)
    comp_win = np.zeros(16, np.int64)
    comp_pro = np.zeros(16, np.int64)
    mon_pidx = np.full(16, -1, np.int64)
    mon_win = np.zeros(16, np.int64)
    temple_was_open = np.zeros(5, np.bool_)
    city_done = False
    step = 0                        # the turn being played: 0 the setup, 1 the first tile after the start tile
    code, detail = check_state(st, tt, work, figcnt, mark, ctr, ark, city_done, False)
    while code == 0 and st.top < st.n_deck:
        step = st.round_no + 1
        t = draw_placeable(st, tt)
        if t < 0:
            break
        seat = st.seat
        placement = choose_placement(st, tt, t, seat)
        cell = placement // 4
        rot = placement % 4
        if not check_placement(st, tt, t, rot, cell):
            code, detail = E_PLACEMENT, placement
            break
        place_tile(st, tt, t, rot, cell)
        # CA-9.1: completed = the roads/cities of the new tile with no open side, each once
        city_now = False
        for g in range(tt.n_seg[t]):
            kind = tt.seg_kind[t, g]
            if kind != ROAD and kind != CITY:
                continue
            root = find(st, (st.n_placed - 1) * MAX_SEG + g)
            listed = 0
            for i in range(st.n_completed):
                if st.completed[i] == root:
                    listed += 1
            if listed != (1 if st.seg[root].open == 0 else 0) or st.seg[root].done != 0:
                code, detail = E_COMPLETED, root
        for i in range(st.n_completed):
            root = st.completed[i]
            if st.seg[root].open != 0 or st.seg[root].parent != root \
                    or (st.seg[root].kind != ROAD and st.seg[root].kind != CITY):
                code, detail = E_COMPLETED, root
            if st.seg[root].kind == CITY:
                city_now = True
        if code != 0:
            break
        n_act = list_actions(st, tt, seat)
        bad = check_actions(st, tt, seat, n_act)
        if bad != 0:
            code, detail = E_ACTION, bad
            break
        action = choose_action(st, tt, seat)
        offered = False
        for i in range(n_act):
            if st.actions[i] == (ARK * 16 if action >= ARK * 16 else action):
                offered = True
        if not offered:
            code, detail = E_ACTION, action
            break
        log_move(st, seat, t, cell, rot, action)
        # phase A (resolve_turn, first step)
        for s in range(MAX_PLAYERS):
            for c in range(N_CATEGORIES):
                prev_pts[s, c] = st.pts[s, c]
        if action >= ARK * 16:
            k = action - ARK * 16
            if k >= st.n_ark or not check_ark_path(st, tt, k):
                code, detail = E_ARK_PATH, k
                break
            expected_ark_points(st, tt, k, gained)
            move_ark(st, tt, seat, st.ark_path[k], st.ark_len[k])
            for s in range(MAX_PLAYERS):
                if st.pts[s, CAT_ARK] - prev_pts[s, CAT_ARK] != gained[s] or \
                        st.vp[s] - prev_pts[s].sum() != gained[s]:
                    code, detail = E_ARK_POINTS, s
            if st.ark_cell != st.ark_path[k, st.ark_len[k] - 1]:
                code, detail = E_ARK_PATH, k
        else:
            supply = st.supply[seat]
            apply_action(st, tt, seat, action)
            kind = action // 16
            if kind == FOLLOWER or kind == PROPHET:      # INV-06
                root = find(st, (st.n_placed - 1) * MAX_SEG + action % 16)
                total = 0
                for s in range(MAX_PLAYERS):
                    total += st.seg[root].figs[s]
                if st.seg[root].n_figs != 1 or st.seg[root].figs[seat] != 1 or total != 1:
                    code, detail = E_TARGET, action
                if kind == PROPHET and (st.seg[root].prophets != (1 << seat) or supply != st.supply[seat]
                                        or st.prophet_state[seat] != PROPHET_ON_BOARD
                                        or st.fig_node[seat, PROPHET_SLOT] < 0):
                    code, detail = E_TARGET, action
                if kind == FOLLOWER and (st.seg[root].prophets != 0 or st.supply[seat] != supply - 1):
                    code, detail = E_TARGET, action
            elif kind != PASS:
                code, detail = E_ACTION, action
        if code != 0:
            break
        # phase S (resolve_turn): who must win, then score_turn
        for i in range(st.n_completed):
            comp_pro[i] = feature_counts(st, st.completed[i], counts)
            comp_win[i] = winners(counts, players)
        n_mon = 0
        for k in range(16):
            mon_pidx[k] = -1
        if not ark:
            for k in range(9):
                c = cell if k == 0 else cell + RING[k - 1]
                pidx = st.cell_pidx[c]
                if pidx < 0 or tt.cloister_seg[st.p_type[pidx]] < 0 or st.cloister_done[pidx]:
                    continue
                full = True
                for j in range(8):
                    if st.cell_pidx[c + RING[j]] < 0:
                        full = False
                if full:
                    feature_counts(st, pidx * MAX_SEG + tt.cloister_seg[st.p_type[pidx]], counts)
                    mon_pidx[n_mon] = pidx
                    mon_win[n_mon] = winners(counts, players)
                    n_mon += 1
        for k in range(5):
            c = cell if k == 0 else cell + DELTA[k - 1]
            pidx = st.cell_pidx[c]
            temple_was_open[k] = ark and pidx >= 0 and tt.temple[st.p_type[pidx]] == 1 and st.cloister_done[pidx] == 0
        ev0 = st.n_events
        score_turn(st, tt)
        for i in range(st.n_completed):
            root = st.completed[i]
            if st.seg[root].done != 1 or st.seg[root].n_figs != 0:
                code, detail = E_COMPLETED, root
        if code == 0 and st.n_events < MAX_EVENTS:
            code, detail = check_phase_s(st, tt, ev0, comp_win, comp_pro, mon_pidx, mon_win, temple_was_open,
                                         counts)
        if code != 0:
            break
        # phase E (resolve_turn, the rest)
        n = list_ark_entries(st, tt)
        entry = -1
        if n > 0:
            if not ark or not city_now or st.ark_cell >= 0 or not check_entries(st, tt, n, cell, mark, ctr):
                code, detail = E_ARK_ENTRY, n
                break
            entry = choose_entry(st, tt, seat, n)
            chosen = False
            for i in range(n):
                if st.tmp[i] == entry:
                    chosen = True
            if not chosen:
                code, detail = E_ARK_ENTRY, entry
                break
            ark_enters(st, seat, entry)
        st.round_no += 1
        st.seat = (seat + 1) % players
        if city_now:
            city_done = True
        # INV-11 (never decreases), INV-02 (only forward)
        for s in range(MAX_PLAYERS):
            for c in range(N_CATEGORIES):
                if st.pts[s, c] < prev_pts[s, c]:
                    code, detail = E_SCORE_DOWN, s
            if st.prophet_state[s] < prev_prophet[s]:
                code, detail = E_PROPHET, s
            prev_prophet[s] = st.prophet_state[s]
        if code != 0:
            break
        code, detail = check_state(st, tt, work, figcnt, mark, ctr, ark, city_done, False)
    if code == 0:
        for s in range(MAX_PLAYERS):
            for c in range(N_CATEGORIES):
                prev_pts[s, c] = st.pts[s, c]
        final_snapshot(st, tt, work, counts)
        ev0 = st.n_events
        final_scoring(st, tt, 0.0)
        for s in range(MAX_PLAYERS):
            total = 0
            for c in range(N_CATEGORIES):
                total += st.pts[s, c]
                if st.pts[s, c] < prev_pts[s, c] and not (c == CAT_FIELD and negative_fields):
                    code, detail = E_SCORE_DOWN, s
            if total != st.vp[s]:
                code, detail = E_SCORE_SUM, s
        whole_log = st.n_events < MAX_EVENTS        # turns.log_event drops the entries past its end
        if code == 0:
            if st.round_no + st.discarded != set_size(tt) - 1 or st.top != st.n_deck \
                    or (whole_log and logged(st, EV_PLACE) != st.round_no):
                code, detail = E_LENGTH, st.round_no
        if code == 0 and whole_log:
            for s in range(st.players):
                if points_logged(st, s) != st.vp[s]:
                    code, detail = E_SCORE_SUM, s
            if code == 0:
                code, detail = check_events(st, tt, work, mark, ctr, st.round_no)
            if code == 0:
                code, detail = check_final(st, tt, work, ev0, mark, ctr)
        if code == 0:   # final scoring moves no figure: the books still balance
            code, detail = check_state(st, tt, work, figcnt, mark, ctr, ark, city_done, True)
    if code != 0:
        err[0] = code
        err[1] = step               # final scoring counts as the last turn's
        err[2] = detail
    return code



@kernel
def check_batch_kernel(ws, tables, players, seat_policies, seed, first_index, out_pts, out_game, out_check):
    """The games of playout.play_batch_kernel, each played by checked_game: out_check[k] is
    (code, turn, detail), code 0 for a clean game; a broken game's points are those it had then."""
    st = ws[0]
    tt = tables[0]
    work = np.zeros((N_WORK, N_SLOTS), np.int64)
    figcnt = np.zeros((N_NODES, MAX_PLAYERS), np.int64)
    mark = np.zeros(N_CELLS, np.int64)
    ctr = np.zeros(2, np.int64)     # the last stamp of mark; the tiles check_features joined
    for k in range(seat_policies.shape[0]):
        if checked_game(st, tt, players, seat_policies[k], seed, first_index + k, work, figcnt, mark, ctr,
                        out_check[k]) != 0:
            work[:] = 0             # a check that stopped early may leave its scratch rows dirty
            figcnt[:] = 0
        for s in range(players):
            for c in range(out_pts.shape[2]):
                out_pts[k, s, c] = st.pts[s, c]
        out_game[k, 0] = st.round_no
        out_game[k, 1] = st.discarded


def checked_batch(data, players, seat_policies, seed, first_index, search=None):
    """(pts int32[count, players, 5], game int32[count, 2], found int64[count, 3]) of the games
    play_batch plays, with the checker on; found[k] = (code, turn, detail)."""
    count = seat_policies.shape[0]
    pts = np.zeros((count, players, N_CATEGORIES), np.int32)
    game = np.zeros((count, 2), np.int32)
    found = np.zeros((count, 3), np.int64)
    policies = np.ascontiguousarray(seat_policies, dtype=np.int8)
    tables = cp.tables_with(data, search)
    check_batch_kernel(new_state().view(np.recarray), tables.view(np.recarray), players, policies,
                       np.int64(seed), np.int64(first_index), pts, game, found)
    return pts, game, found


def check_batch(data, players, seat_policies, seed, first_index, search=None):
    """GameSpec.check_batch: the games of spec.play_batch with the invariant checker on after every
    step; random and greedy seats only (search players are refused)."""
    refuse_search_seats(seat_policies, search)
    _, _, found = checked_batch(data, players, seat_policies, seed, first_index, search)
    return CheckResult(violation=found[:, 0].astype(np.int32), step=found[:, 1].astype(np.int32))


def refuse_search_seats(seat_policies, search):
    """The checked loop mirrors a game of random and greedy seats, not a search player's replays."""
    ids = sorted({int(p) for p in np.unique(seat_policies) if FIRST_SEARCH_ID <= p < FIRST_VARIANT_ID})
    if ids:
        names = dict.fromkeys(search_name(pid, search) for pid in ids)
        raise UserError(f"simcore check plays random and greedy seats in Carcassonne, not {', '.join(names)}")


def search_name(pid, search):
    """flatmc or mcts: the kind of the run's search policy with kernel id pid (search: its table)."""
    if search is None:
        return f"policy id {pid}"
    return "flatmc" if search[pid][P_KIND] == FLATMC else "mcts"
