"""Carcassonne rules as small compiled steps: setup, drawing, placing, figures, the Ark.

One engine for both rule sets; tables.rules[RULESET] switches the Ark's differences
(temples, prophets, the Ark, sheep and wolves) against the base game's (monasteries,
farmers scored by cities). Rule numbers: CA- and CB-, defined in docs/carcassonne.md.
"""
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.core import types
from numba.extending import intrinsic, overload

from simcore import rng
from simcore.boardgames.carcassonne import components as cp
from simcore.boardgames.carcassonne.state import (
    ARK, EV_ARK_ENTERS, EV_DISCARD, FOLLOWER, FOLLOWERS, GRID, MAX_PLAYERS, ORIGIN, PASS, PROPHET,
    PROPHET_AVAILABLE, PROPHET_ON_BOARD, PROPHET_SLOT, SLOTS, ARK_HASH, FRONT_WORDS, N_CELLS,
)
from simcore.boardgames.carcassonne.components import C, CITY, F, FIELD, FIT_WORDS, MAX_SEG, R, ROAD
from simcore.kernel import kernel
from simcore.turns import log_event

# neighbour offsets in flattened cells, sides N, E, S, W (CA-0.3: y grows to the north)
DELTA = np.array([1, GRID, -1, -GRID], dtype=np.int32)
# the 8 cells around a cell (base-game monastery, CB-3.3)
RING = np.array([1, GRID + 1, GRID, GRID - 1, -1, -GRID - 1, -GRID, -GRID + 1], dtype=np.int32)
# a cell's place relative to a temple or monastery as bit k of cloister_near: 0 the cloister's own
# cell, k its neighbour RING[k - 1] away (scoring.cloisters_near's bits)
NEAR_OFFSET = np.array([0] + list(RING), dtype=np.int64)
# cells within 5 orthogonal steps of the Ark, as bit numbers 0..60 of an outcome set
BALL = np.full((11, 11), -1, dtype=np.int8)
_b = 0
for _dx in range(-5, 6):
    for _dy in range(-5, 6):
        if abs(_dx) + abs(_dy) <= 5:
            BALL[_dx + 5, _dy + 5] = _b
            _b += 1
# the same bit numbers by the cell's offset from the centre: one load for a cell known to lie in the
# ball (an Ark path's), where ball_bit tests any cell
BALL_SPAN = 5 * GRID + 5
BALL_AT = np.full(2 * BALL_SPAN + 1, -1, dtype=np.int8)
for _dx in range(-5, 6):
    for _dy in range(-5, 6):
        BALL_AT[_dx * GRID + _dy + BALL_SPAN] = BALL[_dx + 5, _dy + 5]
BALL_STEP = np.full((61, 4), -1, dtype=np.int8)      # [bit, side] -> bit of the neighbour cell
for _dx in range(-5, 6):
    for _dy in range(-5, 6):
        if BALL[_dx + 5, _dy + 5] >= 0:
            for _s, (_mx, _my) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
                if abs(_dx + _mx) + abs(_dy + _my) <= 5:
                    BALL_STEP[BALL[_dx + 5, _dy + 5], _s] = BALL[_dx + _mx + 5, _dy + _my + 5]
BALL_CENTRE = int(BALL[5, 5])
BALL_SIDE = np.full(61, 4, dtype=np.int64)            # [bit] -> the side of the centre it lies on, 4 if not next to it
for _s in range(4):
    BALL_SIDE[BALL_STEP[BALL_CENTRE, _s]] = _s
BALL_CELL = np.zeros(61, dtype=np.int64)              # [bit] -> the cell's offset from the centre
BALL_NEAR = np.zeros(61, dtype=np.uint64)             # [bit] -> the bits of its neighbours in the ball
for _dx in range(-5, 6):
    for _dy in range(-5, 6):
        _b = BALL[_dx + 5, _dy + 5]
        if _b >= 0:
            BALL_CELL[_b] = _dx * GRID + _dy
            for _s in range(4):
                if BALL_STEP[_b, _s] >= 0:
                    BALL_NEAR[_b] |= np.uint64(1) << np.uint64(BALL_STEP[_b, _s])
# a column dx of the ball holds the cells dy = -(5 - |dx|) .. 5 - |dx| as consecutive bits, from
# bit BALL_COLUMN[dx + 5] on, as the board's occupied bits hold them (cell = X * GRID + Y)
BALL_COLUMN = np.array([BALL[_dx + 5, abs(_dx)] for _dx in range(-5, 6)], dtype=np.int64)
# the cells an Ark path's fourth step may end on: 2 or 4 steps from the centre (count_ark_outcomes)
BALL_FOURTH = sum(np.uint64(1) << np.uint64(BALL[_dx + 5, _dy + 5]) for _dx in range(-5, 6) for _dy in range(-5, 6)
                  if abs(_dx) + abs(_dy) in (2, 4))

R_START_ROT = cp.RULE_INDEX["START_TILE_ROTATION"]
R_START_PLAYER = cp.RULE_INDEX["START_PLAYER"]
R_ARK_REENTER = cp.RULE_INDEX["ARK_MAY_REENTER_START"]
R_ARK_ENTRY = cp.RULE_INDEX["ARK_ENTRY_SCOPE"]
R_TILE_ONLY = cp.RULE_INDEX["EMPTY_SUPPLY_TILE_ONLY"]
R_ARK_PROPHETS = cp.RULE_INDEX["ARK_COUNTS_PROPHETS"]
R_ARK_FIELDS = cp.RULE_INDEX["ARK_COUNTS_FIELD_FOLLOWERS"]
RULESET = cp.RULESET


@kernel(inline=True)
def is_ark(tt):
    return tt.rules[RULESET] == 1


@kernel(inline=True)
def opposite_port(p):
    """The port of the neighbour that touches port p across the shared side (CA-12.1)."""
    return 3 * ((p // 3 + 2) % 4) + (2 - p % 3)


# ---------------------------------------------------------------- union-find (CA-12.6)

@kernel
def find(st, node):
    seg = st.seg
    x = np.uint64(node)                 # an unsigned index: no wrap-around code for negative ones
    # a root or a root's child, most nodes, in one test whose outcome is easy to predict (a loop
    # that ends after no step or after one ends on a hard one); deeper, the loop halves the path
    up = np.uint64(seg[x].parent)
    if seg[up].parent == up:
        return np.int64(up)
    while seg[x].parent != x:
        touch_segments(st, x)
        seg[x].parent = seg[seg[x].parent].parent
        x = np.uint64(seg[x].parent)
    return np.int64(x)


@kernel(inline=True)
def touch_segments(st, node):
    """Mark the tile of segment node as changed (seg_dirty), before a record of it is written:
    a search's restore puts back the segment records of the tiles a run changed, not of every
    tile on the board (playout.restore_turn). Every write to a placed tile's records calls it."""
    pidx = np.uint64(node) // np.uint64(MAX_SEG)
    st.seg_dirty[pidx >> np.uint64(6)] |= np.uint64(1) << (pidx & np.uint64(63))


@kernel(inline=True)
def union(st, a, b, ark):
    """Merge the features of nodes a and b; the older root (lower node) survives. Oases, sheep and
    wolves are the Ark's (ark): the base game's tiles have none, so its sums stay 0 without them."""
    ra = find(st, a)
    rb = find(st, b)
    # a and b in one feature already (a tile closing a loop, a field met on two sides) is merged
    # with itself with nothing added (apart = 0), which costs less than a branch that half the
    # time goes the way not predicted
    apart = np.int16(ra != rb)
    if rb < ra:
        ra, rb = rb, ra
    touch_segments(st, ra)
    touch_segments(st, rb)
    old = st.seg[np.uint64(ra)]         # one record each: the merge reads and writes two cache lines
    new = st.seg[np.uint64(rb)]
    new.parent = ra
    old.open += new.open * apart
    old.tiles_lo |= new.tiles_lo
    old.tiles_hi |= new.tiles_hi
    old.scrolls += new.scrolls * apart
    if ark:
        old.oases += new.oases * apart
        old.sheep += new.sheep * apart
        old.wolves += new.wolves * apart
    if apart and new.n_figs > 0:        # figs[] is only valid where n_figs > 0 (lazy clearing)
        if old.n_figs == 0:
            for s in range(MAX_PLAYERS):
                old.figs[s] = new.figs[s]
        else:
            for s in range(MAX_PLAYERS):
                old.figs[s] += new.figs[s]
        old.n_figs += new.n_figs
        old.prophets |= new.prophets
    return ra


def lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64 (plain Python, for NUMBA_DISABLE_JIT)."""
    x = int(x)
    return (x & -x).bit_length() - 1


@overload(lowest_bit)
def _lowest_bit_compiled(x):
    return lambda x: trailing_zeros(x)      # one tzcnt instruction


def highest_bit(x):
    """Index of the highest set bit of a non-zero uint64 (plain Python, for NUMBA_DISABLE_JIT)."""
    return int(x).bit_length() - 1


@overload(highest_bit)
def _highest_bit_compiled(x):
    return lambda x: 63 - leading_zeros(x)  # one lzcnt instruction


def popcount(x):
    """Set bits of a uint64 (plain Python, for NUMBA_DISABLE_JIT)."""
    return bin(int(x) & 0xFFFFFFFFFFFFFFFF).count("1")


@intrinsic
def _count_bits(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@overload(popcount)
def _popcount_compiled(x):
    return lambda x: np.int64(_count_bits(np.uint64(x)))      # one popcnt instruction


@kernel
def turns_left_of(st):
    """The turns the player to move has left, this one included."""
    return (st.n_deck - st.top) // st.players + 1


@kernel
def tile_count(st, root):
    """tiles(F): distinct tiles holding a segment of the feature (CA-8.7)."""
    return popcount(st.seg[root].tiles_lo) + popcount(st.seg[root].tiles_hi)


# ---------------------------------------------------------------- setup (CA-2, CB-2.1)

@kernel
def mark_cloister(st, pidx, open_):
    """The open temple or monastery on tile pidx in cloister_near of the 9 cells it is near
    (open_), or out of them (scored complete, or the board emptied): a cell's word then says which
    open ones are near it, where phase S would scan them all every turn."""
    cell = st.p_cell[pidx]
    for k in range(9):
        c = np.uint64(cell - NEAR_OFFSET[k])    # the cell that has this one at its place k
        if open_:
            st.cloister_near[c] |= np.uint16(1 << k)
        else:
            st.cloister_near[c] &= np.uint16(~(1 << k) & 0x1FF)


@kernel
def mark_open_cloisters(st, open_):
    for i in range(st.n_open_cloisters):
        mark_cloister(st, st.open_cloisters[i], open_)


@kernel
def empty_board(st):
    """Every cell of the board empty again: no tile, no frontier requirement, no open temple or
    monastery near (the frontier's own bits and counts and the list of open temples and
    monasteries stay as they are)."""
    mark_open_cloisters(st, False)
    for i in range(st.n_placed):
        cell = np.uint64(st.p_cell[i])
        st.cell_pidx[cell] = -1
        st.occupied[cell >> np.uint64(6)] = 0        # every bit of the word is a placed tile's
    for w in range(st.front_lo, st.front_hi + 1):
        bits = st.front_bits[w]
        while bits:
            st.req[w * 64 + lowest_bit(bits)] = 255
            bits &= bits - np.uint64(1)


@kernel
def link_frontier(st):
    """The frontier's list (front_next, front_prev, front_first, front_last) made from its bits,
    in canonical order, as frontier_add and frontier_drop keep it (after a search restored its
    snapshot's bits)."""
    last = -1
    for w in range(st.front_lo, st.front_hi + 1):
        bits = st.front_bits[w]
        while bits:
            cell = w * 64 + np.int64(lowest_bit(bits))
            bits &= bits - np.uint64(1)
            if last < 0:
                st.front_first = cell
            else:
                st.front_next[np.uint64(last)] = cell
            st.front_prev[np.uint64(cell)] = last
            last = cell
    if last >= 0:
        st.front_next[np.uint64(last)] = -1
    st.front_last = last


@kernel
def board_columns(st):
    """The cells lo .. hi - 1 of the board's columns (x) that hold its tiles and frontier cells:
    from the column left of the leftmost tile to the one right of the rightmost."""
    lo = st.p_cell[0] // GRID
    hi = lo
    for i in range(1, st.n_placed):
        x = st.p_cell[i] // GRID
        lo = min(lo, x)
        hi = max(hi, x)
    return (lo - 1) * GRID, (hi + 2) * GRID


@kernel
def clear(st, players, policies):
    """An empty table for a new game: no tiles, full supplies, prophets available (CA-2.3-2.6).
    Clears only what the last game touched, so a worker's record is reused game after game."""
    empty_board(st)
    for i in range(st.n_placed):
        st.cloister_done[i] = 0
        st.tile_figs[i] = 0
        st.tile_fig_codes[i] = 0
    for w in range(st.front_lo, st.front_hi + 1):
        st.front_bits[w] = 0
    st.front_lo = FRONT_WORDS
    st.front_hi = -1
    st.front_first = -1
    st.front_last = -1
    for w in range(FIT_WORDS):
        st.class_placements[w] = 0
    st.n_placed = 0
    st.n_frontier = 0
    st.n_open_cloisters = 0
    st.players = players
    for s in range(MAX_PLAYERS):
        st.policy[s] = policies[s] if s < players else 0
        st.supply[s] = FOLLOWERS
        st.prophet_state[s] = PROPHET_AVAILABLE
        st.vp[s] = 0
        for c in range(st.pts.shape[1]):
            st.pts[s, c] = 0
        for j in range(SLOTS):
            st.fig_node[s, j] = -1
    st.n_deck = 0
    st.top = 0
    st.discarded = 0
    st.round_no = 0
    st.seat = 0
    st.ark_cell = -1
    st.n_completed = 0
    st.n_cities_done = 0
    st.n_events = 0


@kernel
def reset(st, tt, players, policies, seed, index):
    """Start game `index` of `seed`: shuffle the set's tiles but the start tile (71 in the box) into
    one pile and lay the start tile."""
    clear(st, players, policies)
    rng.seed_stream(st.gen_chance, seed, index, rng.CHANCE)
    rng.seed_stream(st.gen_decide, seed, index, rng.DECISION)
    n = 0
    start = tt.start_type
    for t in range(tt.n_types):
        copies = tt.count[t] - (1 if t == start else 0)
        for _ in range(copies):
            st.deck[n] = t
            n += 1
    st.n_deck = n
    for t in range(tt.n_types):
        st.type_segs[t] = tt.n_seg[t]
    rng.shuffle(st.gen_chance, st.deck, 0, n)
    st.pile_fixed = n
    st.seat = tt.rules[R_START_PLAYER] % players
    place_tile(st, tt, start, tt.rules[R_START_ROT], ORIGIN * GRID + ORIGIN)
    st.n_completed = 0


# ---------------------------------------------------------------- tiles (CA-4)

@kernel(inline=True)
def count_placements(st, tt, t):
    """Legal (cell, rotation) pairs for tile type t, symmetric duplicates merged (CA-13.1): its
    lane of class_placements, its fit class's, which the frontier's cells keep (key_gained, key_lost)."""
    c = np.uint64(tt.fit_class[np.uint64(t)])
    lane = (st.class_placements[c >> np.uint64(2)] >> (np.uint64(16) * (c & np.uint64(3)))) & np.uint64(0xFFFF)
    return np.int64(lane)


@kernel
def draw_placeable(st, tt):
    """Draw until a tile fits (CA-4.4): unplaceable tiles go to the box. -1 when the pile runs out.
    Leaves the drawn tile's count of legal placements in st.n_placements (the board does not
    change before the tile is placed, so the placement's choice need not count them again)."""
    while st.top < st.n_deck:
        if st.top >= st.pile_fixed:
            draw_unseen(st)
        t = st.deck[st.top]
        st.top += 1
        st.n_placements = count_placements(st, tt, t)
        if st.n_placements > 0:
            return t
        if st.logging:
            log_event(st, EV_DISCARD, st.seat, t, 0, 0)
        st.discarded += 1
    return -1


@kernel(inline=True)
def draw_unseen(st):
    """A search's sample (policies.determinize) leaves the pile's order open past pile_fixed: the
    tile on top is drawn now, at random from those left — a step of the Fisher–Yates shuffle, so
    the tiles come in a uniformly random order as from a shuffle of the whole pile, for the few a
    run draws before its cut-off (a whole shuffle of ~35 tiles was 12% of a searched game). From
    the chance stream, which the search seeds for each run at its root (search.root_decision):
    the search's own stream then draws as much in a short run as in a long one."""
    j = st.top + rng.below(st.gen_chance, st.n_deck - st.top)
    t = st.deck[j]
    st.deck[j] = st.deck[st.top]
    st.deck[st.top] = t
    st.pile_fixed = st.top + 1


@kernel
def list_placements(st, tt, t):
    """Write the legal placements into opt_cell/opt_rot in canonical (x, y, rot) order (CA-13.6):
    the frontier bitmap read in order gives the cells sorted by (x, y)."""
    n = 0
    for w in range(st.front_lo, st.front_hi + 1):
        bits = st.front_bits[w]
        while bits:
            cell = w * 64 + lowest_bit(bits)
            bits &= bits - np.uint64(1)
            m = tt.fits[t, st.req[cell]]
            for r in range(4):
                if m >> r & 1:
                    st.opt_cell[n] = cell
                    st.opt_rot[n] = r
                    n += 1
    return n


# NTH_ROTATION[mask * 4 + i]: the i-th rotation (lowest first) in a mask of fitting rotations
NTH_ROTATION = np.zeros(64, dtype=np.int8)
for _m in range(16):
    for _i, _r in enumerate(r for r in range(4) if _m >> r & 1):
        NTH_ROTATION[_m * 4 + _i] = _r


@kernel
def kth_placement(st, tt, t, k, total):
    """The k-th of the `total` legal placements of tile t in canonical order, as cell * 4 + rot,
    walked along the frontier list. A k in the upper half is counted from the list's far end
    (front_prev), which walks half as many cells on average and finds the same placement; both
    walks are one loop (which list, where it starts and how far it counts are chosen before it),
    and the rotation is a table's, so the only branch that is hard to predict ends the walk."""
    nfits = tt.n_fits[np.uint64(t)]
    forward = 2 * k < total
    j = k if forward else total - 1 - k
    links = st.front_next if forward else st.front_prev
    cell = st.front_first if forward else st.front_last
    while True:
        n = np.int64(nfits[np.uint64(st.req[np.uint64(cell)])])
        if j < n:
            break
        j -= n
        cell = np.int64(links[np.uint64(cell)])
    m = np.int64(tt.fits[np.uint64(t), np.uint64(st.req[np.uint64(cell)])])
    i = j if forward else n - 1 - j
    return cell * 4 + NTH_ROTATION[np.uint64(m * 4 + i)]


@kernel(inline=True)
def key_gained(st, tt, key):
    """A frontier cell with requirement key: every fit class of tile types gains the placements
    the cell offers its types, four classes a word (no lane exceeds 16 bits: a type has at most 4
    placements on each of at most MAX_FRONTIER cells, 1,056)."""
    row = tt.key_placements[np.uint64(key)]
    for w in range(tt.n_fit_words):
        st.class_placements[w] += row[w]


@kernel(inline=True)
def key_lost(st, tt, key):
    """A frontier cell with requirement key no more: every fit class loses what the cell offered it
    (each lane holds at least that much, so no borrow crosses into the next)."""
    row = tt.key_placements[np.uint64(key)]
    for w in range(tt.n_fit_words):
        st.class_placements[w] -= row[w]


@kernel(inline=True)
def rekey(st, tt, key, new_key):
    """A frontier cell's requirement key changes (a tile laid next to it): each word gains the
    new key's row less the old key's, in one pass. Words wrap modulo 2**64, so this is the sum
    that adding the new row and then taking the old away gives, in which no lane goes below
    zero: every lane comes out right though the difference borrows across them."""
    new_row = tt.key_placements[np.uint64(new_key)]
    old_row = tt.key_placements[np.uint64(key)]
    for w in range(tt.n_fit_words):
        st.class_placements[w] += new_row[w] - old_row[w]


@kernel(inline=True)
def frontier_add(st, tt, cell, key):
    """A new frontier cell with requirement key (place_tile's one call, compiled into it)."""
    w = np.int64(cell >> 6)
    # the frontier cell before this one in canonical order: the highest bit below it in its word,
    # else in the nearest word below holding one (words below front_lo hold none)
    u = np.uint64(w)
    below = st.front_bits[u] & ((np.uint64(1) << np.uint64(cell & 63)) - np.uint64(1))
    while below == 0 and u > np.uint64(st.front_lo):
        u -= np.uint64(1)
        below = st.front_bits[u]
    cell = np.int64(cell)
    if below == 0:
        after = st.front_first
        st.front_first = cell
        st.front_prev[np.uint64(cell)] = -1
    else:
        before = np.int64(u) * 64 + np.int64(highest_bit(below))
        after = st.front_next[np.uint64(before)]
        st.front_next[np.uint64(before)] = cell
        st.front_prev[np.uint64(cell)] = before
    st.front_next[np.uint64(cell)] = after
    if after < 0:
        st.front_last = cell
    else:
        st.front_prev[np.uint64(after)] = cell
    st.front_bits[np.uint64(w)] |= np.uint64(1) << np.uint64(cell & 63)
    st.n_frontier += 1
    key_gained(st, tt, key)
    if w < st.front_lo:
        st.front_lo = w
    if w > st.front_hi:
        st.front_hi = w


@kernel(inline=True)
def frontier_drop(st, tt, cell):
    """The cell a tile is laid on leaves the frontier (place_tile's one call, compiled into it)."""
    before = st.front_prev[np.uint64(cell)]
    after = st.front_next[np.uint64(cell)]
    if before < 0:
        st.front_first = after
    else:
        st.front_next[np.uint64(before)] = after
    if after < 0:
        st.front_last = before
    else:
        st.front_prev[np.uint64(after)] = before
    st.front_bits[np.uint64(cell >> 6)] &= ~(np.uint64(1) << np.uint64(cell & 63))
    st.n_frontier -= 1
    key_lost(st, tt, st.req[np.uint64(cell)])


@kernel
def on_border(cell):
    """The grid's outer ring, which never holds a tile: only a set of more than 72 tiles laid in
    a line from the centre reaches it (state.GRID)."""
    if cell < 0 or cell >= N_CELLS:                # beyond it: a tile laid on the ring (tests)
        return True
    x = np.uint64(cell) // np.uint64(GRID)      # unsigned: a multiply, no sign fix-ups
    y = np.uint64(cell) - x * np.uint64(GRID)
    return x == 0 or y == 0 or x == GRID - 1 or y == GRID - 1


@kernel
def set_size(tt):
    """The tiles of the set, the start tile included: 72 in the box (CA-1.1)."""
    n = 0
    for t in range(tt.n_types):
        n += tt.count[t]
    return n


@kernel
def place_tile(st, tt, t, r, cell):
    """Put tile type t at cell with rotation r and merge its segments into features (CA-12.7).

    Leaves the roots of the roads and cities this tile completed in st.completed. Indices are
    unsigned where they cannot be negative: numba then leaves out its wrap-around code."""
    ark = is_ark(tt)
    pidx = st.n_placed
    st.n_placed += 1
    ut = np.uint64(t)
    ur = np.uint64(r)
    upidx = np.uint64(pidx)
    st.p_type[upidx] = t
    st.p_rot[upidx] = r
    st.p_cell[upidx] = cell
    st.cell_pidx[np.uint64(cell)] = pidx
    st.occupied[np.uint64(cell >> 6)] |= np.uint64(1) << np.uint64(cell & 63)
    if st.req[np.uint64(cell)] != 255:
        frontier_drop(st, tt, cell)
        st.req[np.uint64(cell)] = 255
    if tt.temple[ut] or tt.cloister_seg[ut] >= 0:
        st.open_cloisters[st.n_open_cloisters] = pidx
        st.n_open_cloisters += 1
        mark_cloister(st, pidx, True)
    base = pidx * MAX_SEG
    tiles_lo = np.uint64(1) << np.uint64(pidx) if pidx < 64 else np.uint64(0)
    tiles_hi = np.uint64(0) if pidx < 64 else np.uint64(1) << np.uint64(pidx - 64)
    words = st.seg.view(np.uint64)      # each segment's record as 8 words (state.SEGMENT)
    # at least 4 records, whatever the tile's count (3.4 on average): the loop then ends where the
    # branch predictor expects it for most tiles; a record past the tile's segments is never read
    for g in range(max(4, tt.n_seg[ut])):
        ug = np.uint64(g)
        w = np.uint64(8 * (base + g))
        words[w] = tiles_lo
        words[w + np.uint64(1)] = tiles_hi
        # parent, open, scrolls, oases; sheep, wolves, kind, no figures (figs is cleared when its
        # first figure arrives), no prophet, not done: the tile type's words (seg_init)
        words[w + np.uint64(2)] = tt.seg_init[ut, ug, 0] | np.uint64(base + g)
        words[w + np.uint64(3)] = tt.seg_init[ut, ug, 1]
    joined = np.uint64(0)                       # this tile's road and city segments joined to a neighbour
    touched = np.uint64(0)                      # ... and every segment joined to one
    closed = False                              # a join left a road or city with no open side
    for s in range(4):
        nc = cell + DELTA[s]                # signed: a tile laid on the border ring (tests) reads no further
        q = st.cell_pidx[nc]
        e = tt.edge[ut, ur, np.uint64(s)]
        if q < 0:
            key = np.int64(st.req[nc])
            shift = 2 * ((s + 2) % 4)       # the neighbour cell's side that faces this tile
            new_key = (key & ~(3 << shift)) | (np.int64(e) << shift)
            if key == 255:
                if on_border(nc):           # the table's edge: never a frontier cell (state.GRID)
                    continue
                frontier_add(st, tt, nc, new_key)
            else:                           # (a frontier cell is never on the border)
                rekey(st, tt, key, new_key)
            st.req[nc] = new_key
            continue
        uq = np.uint64(q)
        tq = np.uint64(st.p_type[uq])
        rq = np.uint64(st.p_rot[uq])
        qbase = q * MAX_SEG
        # the ports joined across the side: a city's centre; a road's centre and its two banks, which
        # meet separately; a field side's first port, its field owning the whole side on both tiles.
        # Port 3s + i faces the neighbour's port facing - i (CA-12.1: opposite_port). One union call
        # in the loop, inlined once (a feature's root does not depend on the order)
        facing = 3 * ((s + 2) % 4) + 2
        first = 1 if e == C else 0
        last = 2 if e == R else first
        for i in range(first, last + 1):
            mine = tt.port_seg[ut, ur, np.uint64(3 * s + i)]
            root = union(st, base + mine, qbase + tt.port_seg[tq, rq, np.uint64(facing - i)], ark)
            touched |= np.uint64(1) << np.uint64(mine)
            if i == 1:
                st.seg[np.uint64(root)].open -= 2   # one open side closed on each tile, loops included
                joined |= np.uint64(1) << np.uint64(mine)
                closed |= st.seg[np.uint64(root)].open == 0
    st.joined_segments = touched
    # only a road or city segment joined across a side can be complete (alone it has an open side),
    # and only as its last open side closes: most tiles complete none and need not look again (a
    # feature left with no open side is joined to no other by the tile's later joins, which would
    # need an open side of it)
    st.n_completed = 0
    while joined and closed:
        root = find(st, base + np.int64(lowest_bit(joined)))   # by segment order, phase S's
        joined &= joined - np.uint64(1)
        if st.seg[np.uint64(root)].open == 0 and st.seg[np.uint64(root)].done == 0:
            new = True
            for i in range(st.n_completed):
                if st.completed[i] == root:
                    new = False
            if new:
                st.completed[st.n_completed] = root
                st.n_completed += 1

# ---------------------------------------------------------------- figures (CA-5, CA-6, CB-2.3)

@kernel
def list_actions(st, tt, seat):
    """Write the phase-A options into st.actions in canonical order (CA-13.6); ARK stands for
    every Ark outcome at once (list_ark_outcomes enumerates them). Returns the count."""
    pidx = st.n_placed - 1
    t = st.p_type[pidx]
    base = pidx * MAX_SEG
    tile_only = tt.rules[R_TILE_ONLY] == 1 and st.supply[seat] == 0
    prophet = is_ark(tt) and not tile_only and st.prophet_state[seat] == PROPHET_AVAILABLE
    vacant = np.uint64(0)               # bit g: no figure stands in segment g's feature (found once)
    if st.supply[seat] > 0 or prophet:
        # a segment joined to no neighbour is a feature of its own, with no figure yet
        joined = st.joined_segments
        vacant = ((np.uint64(1) << np.uint64(tt.n_seg[t])) - np.uint64(1)) & ~joined
        while joined:
            g = lowest_bit(joined)
            if st.seg[find(st, base + np.int64(g))].n_figs == 0:
                vacant |= np.uint64(1) << np.uint64(g)
            joined &= joined - np.uint64(1)
    n = 0
    st.actions[n] = PASS * 16
    n += 1
    if st.supply[seat] > 0:
        bits = vacant
        while bits:
            st.actions[n] = FOLLOWER * 16 + lowest_bit(bits)
            bits &= bits - np.uint64(1)
            n += 1
    if is_ark(tt) and not tile_only:
        if prophet:
            for g in range(tt.n_seg[t]):
                if tt.seg_kind[t, g] == CITY and vacant >> np.uint64(g) & np.uint64(1):
                    st.actions[n] = PROPHET * 16 + g
                    n += 1
        if st.ark_cell >= 0:
            st.actions[n] = ARK * 16
            n += 1
    return n


@kernel(inline=True)
def tile_figure(st, pidx, seat, slot, change):
    """A figure arrives on placed tile pidx (change 1) or leaves it (-1)."""
    st.tile_figs[pidx] += change
    st.tile_fig_codes[pidx] ^= seat * SLOTS + slot


@kernel(inline=True)
def lone_figure(st, cell):
    """The figure on the tile at cell as seat * SLOTS + slot; -1 where none stands, -2 where more
    than one does (only a builder's position has more: a tile's figure is placed the turn it is laid)."""
    pidx = st.cell_pidx[np.uint64(cell)]
    if pidx < 0:
        return -1
    n = st.tile_figs[np.uint64(pidx)]
    if n == 0:
        return -1
    if n > 1:
        return -2
    return np.int64(st.tile_fig_codes[np.uint64(pidx)])


@kernel(inline=True)
def place_figure(st, seat, node, prophet):
    """Put a follower (or the prophet) on segment node of the tile just placed (CA-5.4, CA-6)."""
    root = find(st, node)
    touch_segments(st, root)
    if prophet:
        slot = PROPHET_SLOT
        st.seg[root].prophets |= np.uint8(1 << seat)
        st.prophet_state[seat] = PROPHET_ON_BOARD
    else:
        # the first free slot (one is, while the supply is not empty), from the slots in use read
        # all at once, where a search slot by slot ends on a branch hard to predict
        used = np.uint64(0)
        for j in range(FOLLOWERS):
            if st.fig_node[seat, j] >= 0:           # (compiled to a select, not a branch)
                used |= np.uint64(1) << np.uint64(j)
        slot = np.int64(lowest_bit(~used))
        st.supply[seat] -= 1
    st.fig_node[seat, slot] = node
    tile_figure(st, node // MAX_SEG, seat, slot, 1)
    if st.seg[root].n_figs == 0:
        for s in range(MAX_PLAYERS):
            st.seg[root].figs[s] = 0
    st.seg[root].figs[seat] += 1
    st.seg[root].n_figs += 1


@kernel
def apply_action(st, tt, seat, action):
    """PASS, FOLLOWER or PROPHET (ARK moves go through move_ark)."""
    kind = action // 16
    if kind == FOLLOWER or kind == PROPHET:
        place_figure(st, seat, (st.n_placed - 1) * MAX_SEG + action % 16, kind == PROPHET)


# ---------------------------------------------------------------- the Ark (CA-7)

@kernel
def _outcome_seen(st, mask, end):
    """Insert outcome (mask, end) into this turn's hash set; True if it was there already."""
    h = np.int64(((mask * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(53)) ^ np.uint64(end)) & (ARK_HASH - 1)
    while st.hash_stamp[h] == st.stamp:
        i = st.hash_slot[h]
        if st.ark_mask[i] == mask and st.ark_end[i] == end:
            return True
        h = (h + 1) & (ARK_HASH - 1)
    st.hash_stamp[h] = st.stamp
    st.hash_slot[h] = st.n_ark
    return False


@kernel
def list_ark_outcomes(st, tt):
    """Every distinct Ark outcome (entered tiles, end tile) from its cell, first path of each in
    DFS pre-order N, E, S, W, shorter before longer (CA-7.5, CA-12.10, CA-13.6), in
    st.ark_path/ark_len. Returns the count.

    Cells are tracked as bit numbers of the ball of radius 5 around the start, so "entered
    before" is one bit test and an outcome is (bit set, end bit). Without ARK_MAY_REENTER_START
    every path is its own outcome: no two simple grid paths of at most 5 steps from one cell
    enter the same set of cells and end on the same one (checked by enumerating all 436 such
    paths on the full grid), so outcomes are only de-duplicated when the start may be re-entered,
    and then only among the paths that passed over it."""
    reenter = tt.rules[R_ARK_REENTER] == 1
    if not reenter:
        return list_simple_ark_paths(st)
    s = st.ark_cell
    st.stamp += 1
    st.n_ark = 0
    pos = st.tmp[0:6]           # path cells, pos[0] = start
    nxt_dir = st.tmp[6:12]
    ball = st.tmp[12:18]        # ball bit number of each path cell
    passed = st.tmp[18:24]      # 1 once the path has passed back over the start (ARK_MAY_REENTER_START)
    entered = st.ark_prefix
    pos[0] = s
    nxt_dir[0] = 0
    ball[0] = BALL[5, 5]
    passed[0] = 0
    entered[0] = np.uint64(0)
    level = 0
    while level >= 0:
        d = nxt_dir[level]
        if d == 4:
            level -= 1
            continue
        nxt_dir[level] = d + 1
        c = pos[level] + DELTA[d]
        if st.cell_pidx[c] < 0:
            continue
        b = BALL_STEP[ball[level], d]
        k = level + 1
        if c == s:
            if not reenter or passed[level]:
                continue
            mask = entered[level]
            passed[k] = 1
        else:
            bit = np.uint64(1) << np.uint64(b)
            if entered[level] & bit:
                continue
            mask = entered[level] | bit
            passed[k] = passed[level]
            # only a path that passed over the start can repeat an outcome: one that did not
            # enters its cells in one step fewer, so by the grid's parity it never ends where a
            # passing path with the same cells does, and simple paths never repeat (see above)
            if not passed[k] or not _outcome_seen(st, mask, b):
                n = st.n_ark
                st.ark_mask[n] = mask
                st.ark_end[n] = b
                for i in range(k):
                    st.ark_path[n, i] = pos[i + 1] if i < level else c
                st.ark_len[n] = k
                st.n_ark += 1
        if k < 5:
            pos[k] = c
            ball[k] = b
            entered[k] = mask
            nxt_dir[k] = 0
            level = k
    return st.n_ark


@kernel
def keep_ark_path(st, n, length, c1, c2, c3, c4, c5):
    st.ark_path[n, 0] = c1
    st.ark_path[n, 1] = c2
    st.ark_path[n, 2] = c3
    st.ark_path[n, 3] = c4
    st.ark_path[n, 4] = c5
    st.ark_len[n] = length
    return n + 1


@kernel
def list_simple_ark_paths(st):
    """list_ark_outcomes without ARK_MAY_REENTER_START (the start tile counts as entered): every
    path of 1-5 steps over placed tiles that enters no cell twice, in the same order. Five nested
    loops keep the path in registers; this runs on every Ark move of a random player then."""
    s = st.ark_cell
    board = st.cell_pidx
    n = 0
    for d1 in range(4):
        c1 = s + DELTA[d1]
        if board[c1] < 0:
            continue
        n = keep_ark_path(st, n, 1, c1, 0, 0, 0, 0)
        for d2 in range(4):
            c2 = c1 + DELTA[d2]
            if board[c2] < 0 or c2 == s:
                continue
            n = keep_ark_path(st, n, 2, c1, c2, 0, 0, 0)
            for d3 in range(4):
                c3 = c2 + DELTA[d3]
                if board[c3] < 0 or c3 == s or c3 == c1:
                    continue
                n = keep_ark_path(st, n, 3, c1, c2, c3, 0, 0)
                for d4 in range(4):
                    c4 = c3 + DELTA[d4]
                    if board[c4] < 0 or c4 == s or c4 == c1 or c4 == c2:
                        continue
                    n = keep_ark_path(st, n, 4, c1, c2, c3, c4, 0)
                    for d5 in range(4):
                        c5 = c4 + DELTA[d5]
                        if board[c5] < 0 or c5 == s or c5 == c1 or c5 == c2 or c5 == c3:
                            continue
                        n = keep_ark_path(st, n, 5, c1, c2, c3, c4, c5)
    st.n_ark = n
    return n


@kernel
def ball_occupied(st, centre):
    """The ball bits of the cells around centre that hold a tile, centre itself left out: the
    ball's 11 columns, each a run of consecutive cells, read from the occupied bits a column at a
    time (BALL_COLUMN), where a cell at a time took 61 loads."""
    occ = np.uint64(0)
    for dx in range(-5, 6):
        h = 5 - abs(dx)
        first = np.uint64(centre + dx * GRID - h)        # the column's lowest cell
        n = np.uint64(2 * h + 1)
        w = first >> np.uint64(6)
        o = first & np.uint64(63)
        run = st.occupied[w] >> o
        if o + n > np.uint64(64):                        # the run goes on in the next word
            run |= st.occupied[w + np.uint64(1)] << (np.uint64(64) - o)
        run &= (np.uint64(1) << n) - np.uint64(1)
        occ |= run << np.uint64(BALL_COLUMN[dx + 5])
    return occ & ~(np.uint64(1) << np.uint64(BALL_CENTRE))


@kernel(inline=True)
def near_tiles(occ):
    """For the cells of the ball bits occ that a fourth step may end on (BALL_FOURTH), their
    number of neighbours in occ as three bit planes (bits 1, 2 and 4 of the number)."""
    near1 = near2 = near4 = np.uint64(0)
    cells = occ & BALL_FOURTH
    while cells:
        b = lowest_bit(cells)
        bit = cells & (np.uint64(0) - cells)
        cells &= cells - np.uint64(1)
        n = np.uint64(popcount(BALL_NEAR[b] & occ))
        near1 |= bit * (n & np.uint64(1))
        near2 |= bit * ((n >> np.uint64(1)) & np.uint64(1))
        near4 |= bit * (n >> np.uint64(2))
    return near1, near2, near4


@kernel
def count_ark_outcomes(st, tt, occ):
    """The number of list_ark_outcomes' outcomes on the board around the Ark whose tiles are the
    ball bits occ (ball_occupied), and in st.tmp[0:20] those after each first step [16 + d1] and
    each two [4 * d1 + d2], for walk_ark_outcomes. Past the second step the order does not
    matter to a count: the cells a path may enter next are the set bits of one mask, taken in any
    order (one hard branch a cell, where a loop over the four sides has one a side), and the fifth
    steps are a popcount. Which paths repeat an earlier outcome is walk_ark_outcomes' rule, the
    sides compared being the centre's (BALL_SIDE).

    The fourth steps are not walked either. A fourth step's cell b4 (2 or 4 steps from the centre)
    counts itself and its fifth steps, its neighbours on the board but the three cells entered
    before: of those only the third step's b3 and, round a square, the first step's b1 can touch
    it (b2 lies an even number of steps from it, the centre too). So it adds its number of
    neighbours on the board (`near_tiles`, kept as three bit planes) less 1 if it touches b1, and
    the fourth steps' sum is three popcounts."""
    reenter = tt.rules[R_ARK_REENTER] == 1
    one = np.uint64(1)
    centre = BALL_CENTRE
    sub = st.tmp[0:20]
    total = 0
    occ = np.uint64(occ)
    near1, near2, near4 = near_tiles(occ)
    for d1 in range(4):
        b1 = np.int64(BALL_STEP[centre, d1])
        if (occ >> np.uint64(b1)) & one == 0:
            continue
        start1 = total
        total += 1
        v1 = one << np.uint64(b1)
        for d2 in range(4):
            b2 = np.int64(BALL_STEP[b1, d2])
            passed2 = b2 == centre
            if passed2:
                if not reenter:
                    continue
                v2 = v1
                n = 0
            else:
                if (occ >> np.uint64(b2)) & one == 0 or (v1 >> np.uint64(b2)) & one:
                    continue
                v2 = v1 | (one << np.uint64(b2))
                n = 1
            thirds = BALL_NEAR[b2] & occ & ~v2          # never the start (an odd number of steps from it)
            while thirds:
                b3 = np.int64(lowest_bit(thirds))
                thirds &= thirds - one
                n += 1
                v3 = v2 | (one << np.uint64(b3))
                fourths = BALL_NEAR[b3] & occ & ~v3
                round_b1 = fourths & BALL_NEAR[b1]      # the fourth steps that touch b1
                # p, start, q, r repeats q, start, p, r where r touches p and q's side comes first
                if passed2 and BALL_SIDE[b3] < d1:
                    fourths &= ~round_b1
                    round_b1 = np.uint64(0)
                n += (popcount(fourths & near1) + 2 * popcount(fourths & near2) + 4 * popcount(fourths & near4)
                      - popcount(round_b1))
                # round a square back to the start, a repeat when the square's last side comes first
                if reenter and not passed2 and BALL_SIDE[b3] < 4 and BALL_SIDE[b3] >= d1:
                    n += popcount(BALL_NEAR[centre] & occ & ~v3)
            sub[4 * d1 + d2] = n
            total += n
        sub[16 + d1] = total - start1
    return total


@kernel
def walk_ark_outcomes(st, tt, k, occ):
    """The k-th of list_ark_outcomes' outcomes, in its order, without listing them, on the board
    around the Ark whose tiles are the ball bits occ (ball_occupied): its path is written to
    st.ark_path[k] and st.ark_len[k] (as list_ark_outcomes would write it). count_ark_outcomes
    on the same board comes first: the outcomes after each first step and each two it leaves in
    st.tmp[0:20] are passed over in one step each.

    A random player's Ark move needs only the count and one path. Cells are ball bits; a path's
    one-step extensions at the fifth step are counted with a popcount, never walked one by one.
    Which outcomes list_ark_outcomes drops as repeats depends on the paths' shapes alone (a
    repeat has the same cells as the path it repeats, so both lie on the board or neither), and
    on the full grid these are exactly (checked against list_ark_outcomes): with
    ARK_MAY_REENTER_START, a path p, start, q, r (, y) where r also touches p, when q's side of
    the start comes before p's (it repeats q, start, p, r (, y)); and p, q, r, start, y round a
    square, when r's side comes before p's (it repeats r, q, p, start, y)."""
    reenter = tt.rules[R_ARK_REENTER] == 1
    s = st.ark_cell
    one = np.uint64(1)
    centre = BALL_CENTRE
    sub = st.tmp[0:20]                   # the count's outcomes per first step [16 + d1] and two steps [4 * d1 + d2]
    left = k                             # outcomes to pass over before the one wanted
    for d1 in range(4):
        b1 = np.int64(BALL_STEP[centre, d1])
        if (occ >> np.uint64(b1)) & one == 0:
            continue
        if left >= sub[16 + d1]:                       # the one wanted lies past these paths
            left -= sub[16 + d1]
            continue
        if left == 0:
            keep_ark_path(st, k, 1, s + BALL_CELL[b1], 0, 0, 0, 0)
            return -1
        left -= 1
        v1 = one << np.uint64(b1)
        for d2 in range(4):
            b2 = np.int64(BALL_STEP[b1, d2])
            passed2 = b2 == centre            # back over the start: no outcome, the cells stay those entered
            if passed2:
                if not reenter:
                    continue
            elif (occ >> np.uint64(b2)) & one == 0 or (v1 >> np.uint64(b2)) & one:
                continue
            if left >= sub[4 * d1 + d2]:
                left -= sub[4 * d1 + d2]
                continue
            if passed2:
                v2 = v1
            else:
                if left == 0:
                    keep_ark_path(st, k, 2, s + BALL_CELL[b1], s + BALL_CELL[b2], 0, 0, 0)
                    return -1
                left -= 1
                v2 = v1 | (one << np.uint64(b2))
            for d3 in range(4):
                b3 = np.int64(BALL_STEP[b2, d3])  # never the start (an odd number of steps from it)
                if (occ >> np.uint64(b3)) & one == 0 or (v2 >> np.uint64(b3)) & one:
                    continue
                if left == 0:
                    keep_ark_path(st, k, 3, s + BALL_CELL[b1], s + BALL_CELL[b2], s + BALL_CELL[b3], 0, 0)
                    return -1
                left -= 1
                v3 = v2 | (one << np.uint64(b3))
                for d4 in range(4):
                    b4 = np.int64(BALL_STEP[b3, d4])
                    if b4 == centre:          # round a square back to the start
                        if not reenter or passed2:
                            continue
                        v4 = v3
                        repeat = (d4 + 2) % 4 < d1
                    else:
                        if (occ >> np.uint64(b4)) & one == 0 or (v3 >> np.uint64(b4)) & one:
                            continue
                        repeat = passed2 and d3 < d1 and (BALL_NEAR[b4] >> np.uint64(b1)) & one != 0
                        if not repeat:
                            if left == 0:
                                keep_ark_path(st, k, 4, s + BALL_CELL[b1], s + BALL_CELL[b2], s + BALL_CELL[b3],
                                              s + BALL_CELL[b4], 0)
                                return -1
                            left -= 1
                        v4 = v3 | (one << np.uint64(b4))
                    if repeat:
                        continue
                    ends = BALL_NEAR[b4] & occ & ~v4
                    if ends == 0:
                        continue
                    n5 = popcount(ends)
                    if left >= n5:
                        left -= n5
                        continue
                    for d5 in range(4):
                        b5 = np.int64(BALL_STEP[b4, d5])
                        if (ends >> np.uint64(b5)) & one:
                            if left == 0:
                                keep_ark_path(st, k, 5, s + BALL_CELL[b1], s + BALL_CELL[b2], s + BALL_CELL[b3],
                                              s + BALL_CELL[b4], s + BALL_CELL[b5])
                                return -1
                            left -= 1


@kernel
def ark_counts_figure(st, tt, seat, slot):
    """Does this figure earn an Ark point when its tile is entered (CA-7.6, AMB-06, AMB-07)?"""
    if slot == PROPHET_SLOT:
        return tt.rules[R_ARK_PROPHETS] == 1
    if st.seg[st.fig_node[seat, slot]].kind == FIELD:
        return tt.rules[R_ARK_FIELDS] == 1
    return True


@kernel(inline=True)                 # a lookup, in the loops of the Ark's scoring and its greedy
def ball_bit(centre, cell):
    """The bit number of cell in the ball of radius 5 around centre (BALL), -1 outside it: one
    load from BALL_AT by the cells' difference (tiles never lie near the board's edge, where a
    difference could wrap to another column)."""
    at = np.uint64(cell - centre + BALL_SPAN)
    if at > np.uint64(2 * BALL_SPAN):                    # unsigned: far on either side
        return -1
    return BALL_AT[at]


@kernel
def ark_path_points(st, tt, path, length, out):
    """Points per seat for entering the tiles of a path (the start tile is never in a path's
    scoring set, CA-7.6); out is int32[MAX_PLAYERS] and is overwritten. The figures are read
    from the path's tiles (lone_figure), not looked for among all the figures on the board."""
    start = st.ark_cell
    for s in range(MAX_PLAYERS):
        out[s] = 0
    for i in range(length):             # a path enters no tile twice but may pass over the start
        if path[i] == start:
            continue
        f = lone_figure(st, path[i])
        if f == -2:
            return scan_path_points(st, tt, path, length, out)
        if f >= 0 and ark_counts_figure(st, tt, f // SLOTS, f % SLOTS):
            out[f // SLOTS] += 1


@kernel
def scan_path_points(st, tt, path, length, out):
    """ark_path_points where a tile of the path holds more than one figure: every figure on the
    board is looked at. The path's cells, all in the ball around the start, are one mask of ball
    bits: a figure's cell is one bit test, not a comparison with each cell of the path."""
    start = st.ark_cell
    entered = np.uint64(0)
    for i in range(length):
        entered |= np.uint64(1) << np.uint64(ball_bit(start, path[i]))
    entered &= ~(np.uint64(1) << np.uint64(BALL_CENTRE))       # a path may pass over the start
    for s in range(MAX_PLAYERS):
        out[s] = 0
    for seat in range(st.players):
        for slot in range(SLOTS):
            node = st.fig_node[seat, slot]
            if node < 0:
                continue
            b = ball_bit(start, st.p_cell[node // MAX_SEG])
            if b >= 0 and (entered >> np.uint64(b)) & np.uint64(1) and ark_counts_figure(st, tt, seat, slot):
                out[seat] += 1


@kernel
def list_ark_entries(st, tt):
    """Cells where the Ark may enter after this turn's first completed city(ies), ascending
    (CA-7.2, CA-13.6); written to st.tmp, count returned. 0 if no entry this turn."""
    if st.ark_cell >= 0 or not is_ark(tt):
        return 0
    lo = np.uint64(0)
    hi = np.uint64(0)
    for i in range(st.n_completed):
        root = st.completed[i]
        if st.seg[root].kind == CITY:
            lo |= st.seg[root].tiles_lo
            hi |= st.seg[root].tiles_hi
    if lo == 0 and hi == 0:
        return 0
    if tt.rules[R_ARK_ENTRY] == 1:       # PLACED_TILE
        st.tmp[0] = st.p_cell[st.n_placed - 1]
        return 1
    n = 0
    for pidx in range(st.n_placed):
        bits = lo if pidx < 64 else hi
        if bits >> np.uint64(pidx % 64) & np.uint64(1):
            c = st.p_cell[pidx]
            j = n                          # insertion sort: a handful of tiles, once per game
            while j > 0 and st.tmp[j - 1] > c:
                st.tmp[j] = st.tmp[j - 1]
                j -= 1
            st.tmp[j] = c
            n += 1
    return n


@kernel
def ark_enters(st, seat, cell):
    """CA-7.2: the Ark enters the board on the tile at cell, the seat's choice among
    list_ark_entries."""
    st.ark_cell = cell
    if st.logging:
        log_event(st, EV_ARK_ENTERS, seat, cell, 0, 0)
