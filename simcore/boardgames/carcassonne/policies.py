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
import numpy as np

from simcore import rng
from simcore.boardgames.carcassonne.components import CITY, CLOISTER, F, FIELD, MAX_SEG, ROAD
from simcore.boardgames.carcassonne.rules import (
    DELTA, ball_occupied, R_ARK_REENTER, R_TILE_ONLY, RING, ark_counts_figure, ball_bit, find, is_ark, kth_placement, list_actions,
    list_ark_outcomes, list_placements, opposite_port, popcount, tile_count, count_placements, walk_ark_outcomes, count_ark_outcomes,
    turns_left_of,
)
from simcore.boardgames.carcassonne.scoring import (
    completion_chance, count_cross_figures, orthogonal_neighbours, ring_neighbours)
from simcore.boardgames.carcassonne.state import (
    ARK, ARK_REACH, FOLLOWER, GRID, MAX_PLAYERS, PASS, PROPHET, PROPHET_AVAILABLE, SLOTS,
)
from simcore.contract import Param
from simcore.kernel import kernel
from simcore.search import greedy_weight, is_greedy, weight_defaults

RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}


@kernel(inline=True)
def random_placement(st, tt, t):
    """A uniformly random legal placement of the drawn tile t (counted by draw_placeable)."""
    return kth_placement(st, tt, t, rng.below(st.gen_decide, st.n_placements), st.n_placements)


@kernel(inline=True)
def random_action(st, tt, seat):
    n = list_actions(st, tt, seat)
    a = st.actions[rng.below(st.gen_decide, n)]
    if a == ARK * 16:
        a = random_ark_move(st, tt)
    return a


@kernel
def random_ark_move(st, tt):
    """ARK * 16 + an Ark outcome uniform over list_ark_outcomes' (the same draw), its path in
    st.ark_path[k] and their number in st.n_ark: the outcomes are counted and only the one drawn
    is walked to (rules.walk_ark_outcomes), which costs a fraction of listing them all."""
    occ = ball_occupied(st, st.ark_cell)
    m = count_ark_outcomes(st, tt, occ)
    st.n_ark = m
    k = rng.below(st.gen_decide, m)
    walk_ark_outcomes(st, tt, k, occ)
    return ARK * 16 + k


@kernel
def random_entry(st, tt, n):
    return st.tmp[rng.below(st.gen_decide, n)]


@kernel
def choose_placement(st, tt, t, seat):
    """-> cell * 4 + rotation"""
    if is_greedy(tt, st.policy[seat]):
        return greedy_placement(st, tt, t, seat)
    return random_placement(st, tt, t)


@kernel
def choose_action(st, tt, seat):
    """-> PASS/FOLLOWER/PROPHET as kind * 16 + segment, or ARK * 16 + Ark outcome index"""
    if is_greedy(tt, st.policy[seat]):
        return greedy_action(st, tt, seat)
    return random_action(st, tt, seat)


@kernel
def choose_ark_outcome(st, tt, seat):
    """-> ARK * 16 + Ark outcome index, once the Ark is to move (a search player's tree or a
    replay chose ARK): random uniform over the outcomes, greedy the best (as in their actions)."""
    if is_greedy(tt, st.policy[seat]):
        _, k = best_ark_outcome(st, tt, seat)
        return ARK * 16 + k
    return random_ark_move(st, tt)


@kernel
def choose_entry(st, tt, seat, n):
    """-> the cell where the Ark enters, one of st.tmp[:n]"""
    if is_greedy(tt, st.policy[seat]):
        return greedy_entry(st, tt, seat, n)
    return random_entry(st, tt, n)


# ---------------------------------------------------------------- greedy
#
# greedy looks one turn ahead and reads only public information plus its own drawn tile
# (CA-13.3): for every legal placement and every phase-A option it estimates the change in
# "worth" of the features the tile touches, for itself minus the average opponent, and plays
# the best pair. Worth of a feature with figures, to each seat in its majority:
#   road: tiles + oases (the same complete or not);
#   city: (1 - p) * (tiles + scrolls) + p * 2 * (tiles + scrolls), p = chance to complete
#         = 1 when closed, else falling with open sides and with the turns left; a prophet
#         owner in the majority doubles the completed part;
#   field: Ark 2 * max(0, sheep - wolves); base 3 per city the field is expected to touch
#         (0.3 per field tile: a proxy, the engine does not track field-city contacts live);
#   monastery: 1 + neighbours + half of the missing ones while turns remain.
# A figure costs FOLLOWER_COST points of opportunity (more when few are left, nothing when
# the feature completes at once and the follower comes straight back), the prophet
# PROPHET_FOLLOWERS times that. Temples: +7 to the cross majority when the tile completes one,
# +1.5 for a figure on a cross with an open temple. The Ark: the best outcome's points (self
# minus average opponent), counted on the board before the tile is placed. Entry: the tile with
# the most own figures nearby.
#
# Each of these is a weight a variant may change (`greedy:cities=2`, WEIGHTS below). A weight is
# read once per decision (greedy_outlook), always the deciding seat's: the worth of a feature to
# the other seats is weighed as the deciding seat weighs it.

FOLLOWER_COST = 2.0
PROPHET_FOLLOWERS = 2.5

# greedy's weights (`greedy:NAME=X`), in the order its kernels read them (W_*): a factor on the
# worth of each kind of feature (1 = the values above), what a follower costs and, the Ark's own
# last, what the prophet costs and a factor on the Ark's points. The base game has monasteries
# where the Ark has temples (CA-0.12): one weight, W_CLOISTERS, named for each game's own.
WEIGHTS = (
    Param("roads", float, 1.0, 0.0, 10.0, "factor on what a road is worth (a point a tile and an oasis)"),
    Param("cities", float, 1.0, 0.0, 10.0, "factor on what a city is worth (its tiles and scrolls or pennants, more "
          "the likelier it is to be completed)"),
    Param("fields", float, 1.0, 0.0, 10.0, "factor on what a field is worth (its sheep less its wolves)"),
    Param("followers", float, FOLLOWER_COST, 0.0, 10.0, "points a follower placed costs (one kept in supply is "
          "worth): twice that with 2 or fewer left, fading over the last 8 turns, nothing when it comes straight "
          "back"),
    Param("temples", float, 1.0, 0.0, 10.0, "factor on what temples are worth (7 to the majority of a temple the "
          "tile completes, 1.5 for a figure on an open temple's cross)"),
    Param("prophet", float, PROPHET_FOLLOWERS, 0.0, 10.0, "what placing the prophet costs, in followers"),
    Param("ark", float, 1.0, 0.0, 10.0, "factor on the points of moving the Ark (0: never moves it)"),
)
W_ROADS, W_CITIES, W_FIELDS, W_FOLLOWERS, W_CLOISTERS, W_PROPHET, W_ARK = range(len(WEIGHTS))
DEFAULT_WEIGHTS = weight_defaults(WEIGHTS)
# the base game's: its monasteries in the temples' place, no prophet and no Ark
BASE_WEIGHTS = WEIGHTS[:W_FIELDS] + (
    Param("fields", float, 1.0, 0.0, 10.0, "factor on what a field is worth (its farmers' 3 points a city, "
          "guessed from its size)"),
    WEIGHTS[W_FOLLOWERS],
    Param("monasteries", float, 1.0, 0.0, 10.0, "factor on what monasteries are worth (1 + the tiles around and "
          "half of those missing, for a follower on one; 0.5 or 1 a tile laid around an own one)"),
)


@kernel(inline=True)
def weight(st, tt, p, w):
    """Weight w (W_*) of the greedy seat p plays (the game's own greedy: the defaults)."""
    return greedy_weight(tt, st.policy[p], w, DEFAULT_WEIGHTS)


@kernel
def worth(kind, tiles, scrolls, oases, sheep, wolves, open_sides, figs, prophets, players, turns_left, ark,
          out):
    """Expected points per seat of a road/city/field with these aggregates (see above)."""
    for s in range(players):
        out[s] = 0.0
    best = 0
    for s in range(players):
        if figs[s] > best:
            best = figs[s]
    if best == 0:
        return
    value, doubled = feature_value(kind, tiles, scrolls, oases, sheep, wolves, open_sides, turns_left, ark)
    for s in range(players):
        if figs[s] == best:
            out[s] = doubled if prophets >> s & 1 else value


@kernel
def feature_value(kind, tiles, scrolls, oases, sheep, wolves, open_sides, turns_left, ark):
    """(expected points, the same doubled by a prophet) of a road/city/field with these
    aggregates to a seat in its majority (see above)."""
    if kind == ROAD:
        value = float(tiles + oases)
        doubled = value
    elif kind == CITY:
        p = completion_chance(open_sides, turns_left)
        base = float(tiles + scrolls)
        value = (1.0 - p) * base + p * 2.0 * base
        doubled = (1.0 - p) * base + p * 4.0 * base
    else:
        if ark:
            left = sheep - wolves
            value = 2.0 * (left if left > 0 else 0)
        else:
            value = 3.0 * 0.3 * tiles
        doubled = value
    return value, doubled


@kernel
def preview(st, tt, t, r, cell):
    """Which existing features each segment of tile t would join at (cell, r): fills pv_roots,
    pv_n_roots and pv_links without changing the board."""
    n_seg = tt.n_seg[t]
    for g in range(n_seg):
        st.pv_n_roots[g] = 0
        st.pv_links[g] = 0
    for s in range(4):
        q = st.cell_pidx[cell + DELTA[s]]
        if q < 0:
            continue
        tq = st.p_type[q]
        rq = st.p_rot[q]
        for i in range(3):
            p = 3 * s + i
            g = tt.port_seg[t, r, p]
            if i == 1 and tt.edge[t, r, s] != F:
                st.pv_links[g] += 1
            elif i == 1:
                continue                    # a field side's centre adds nothing to its halves
            root = find(st, q * MAX_SEG + tt.port_seg[tq, rq, opposite_port(p)])
            seen = False
            for j in range(st.pv_n_roots[g]):
                if st.pv_roots[g, j] == root:
                    seen = True
            if not seen and st.pv_n_roots[g] < 8:
                st.pv_roots[g, st.pv_n_roots[g]] = root
                st.pv_n_roots[g] += 1


@kernel
def segment_gain(st, tt, t, g, seat, turns_left, before, after, figs):
    """Change of worth per seat when segment g joins its roots, without a figure of its own:
    the gain for seat minus the average opponent's. A segment that joins no figure changes no
    one's worth (0); for it st.pv_free[g] is set and st.pv_lone[g] keeps what a figure of seat
    there alone is worth, a follower [0] and a prophet [1], and st.pv_returns[g] whether the
    feature completes at once (the figure comes straight back), so that greedy's figure options
    need not join the roots again."""
    players = st.players
    ark = is_ark(tt)
    kind = tt.seg_kind[t, g]
    tiles_lo = np.uint64(0)
    tiles_hi = np.uint64(0)
    scrolls = tt.seg_scrolls[t, g]
    oases = tt.seg_oases[t, g]
    sheep = tt.seg_sheep[t, g]
    wolves = tt.seg_wolves[t, g]
    open_sides = tt.seg_open[t, g] - 2 * st.pv_links[g]
    prophets = 0
    free = True
    for s in range(MAX_PLAYERS):
        figs[s] = 0
        before[s] = 0.0
    for j in range(st.pv_n_roots[g]):
        root = st.pv_roots[g, j]
        tiles_lo |= st.seg[root].tiles_lo
        tiles_hi |= st.seg[root].tiles_hi
        scrolls += st.seg[root].scrolls
        oases += st.seg[root].oases
        sheep += st.seg[root].sheep
        wolves += st.seg[root].wolves
        open_sides += st.seg[root].open
        prophets |= st.seg[root].prophets
        if st.seg[root].n_figs > 0:
            free = False
            for s in range(players):
                figs[s] += st.seg[root].figs[s]
            worth(kind, tile_count(st, root), st.seg[root].scrolls, st.seg[root].oases, st.seg[root].sheep,
                  st.seg[root].wolves, st.seg[root].open, st.seg[root].figs, st.seg[root].prophets, players, turns_left,
                  ark, after)
            for s in range(players):
                before[s] += after[s]
    tiles = 1 + popcount(tiles_lo) + popcount(tiles_hi)     # the new tile is in no root yet
    st.pv_free[g] = free
    if free:
        value, doubled = feature_value(kind, tiles, scrolls, oases, sheep, wolves, open_sides, turns_left, ark)
        st.pv_lone[g, 0] = doubled if prophets >> seat & 1 else value
        st.pv_lone[g, 1] = doubled
        st.pv_returns[g] = (kind == ROAD or kind == CITY) and open_sides <= 0
        return 0.0
    worth(kind, tiles, scrolls, oases, sheep, wolves, open_sides, figs, prophets, players, turns_left, ark, after)
    mine = 0.0
    others = 0.0
    for s in range(players):
        d = after[s] - before[s]
        if s == seat:
            mine = d
        else:
            others += d
    return mine - others / (players - 1)


@kernel
def cloister_gain(st, tt, t, r, cell, seat, turns_left):
    """Temples (Ark) or monasteries (base) around the cell: what placing the tile there gives."""
    gain = 0.0
    if is_ark(tt):
        for k in range(4):
            c = cell + DELTA[k]
            pidx = st.cell_pidx[c]
            if pidx < 0 or not tt.temple[st.p_type[pidx]] or st.cloister_done[pidx]:
                continue
            if orthogonal_neighbours(st, c) == 3:   # this tile is the fourth: the temple scores 7 now
                counts = st.tmp[120:125]
                count_cross_figures(st, c, True, counts)
                gain += majority_share(counts, seat, st.players) * 7.0
    else:
        for k in range(8):
            pidx = st.cell_pidx[cell + RING[k]]
            if pidx < 0:
                continue
            g = int(tt.cloister_seg[st.p_type[pidx]])
            if g < 0 or st.cloister_done[pidx]:
                continue
            node = pidx * MAX_SEG + g
            if st.seg[node].n_figs > 0 and st.seg[node].figs[seat] > 0:
                gain += 0.5 + (0.5 if turns_left < 4 else 0.0)
            elif st.seg[node].n_figs > 0:
                gain -= 0.5 / (st.players - 1)
    return gain


@kernel
def majority_share(counts, seat, players):
    """+1 if seat is in the majority, minus the share of opponents who are."""
    best = 0
    for s in range(players):
        if counts[s] > best:
            best = counts[s]
    if best == 0:
        return 0.0
    v = 0.0
    for s in range(players):
        if counts[s] == best:
            v += 1.0 if s == seat else -1.0 / (players - 1)
    return v


@kernel
def temple_figure_bonus(st, tt, cell):
    """A figure on this cell counts for each open temple whose cross holds the cell."""
    if not is_ark(tt):
        return 0.0
    bonus = 0.0
    for k in range(5):
        c = cell if k == 0 else cell + DELTA[k - 1]
        pidx = st.cell_pidx[c]
        if pidx >= 0 and tt.temple[st.p_type[pidx]] and not st.cloister_done[pidx]:
            bonus += 1.5
    return bonus


@kernel
def best_ark_outcome(st, tt, seat):
    """(value, outcome index) of the best Ark move for seat, or (-inf, -1) if none."""
    if st.ark_cell < 0:
        return -1e9, -1
    tally_ark_reach(st, tt, seat)
    return best_tallied_outcome(st, tt, seat)


@kernel
def tally_ark_reach(st, tt, seat):
    """The figures an Ark move would score (rules.ark_path_points) on each cell within its reach,
    by the cell's ball bit: the seat's own in st.ark_own, its opponents' in st.ark_rivals, so that
    each outcome's points are a sum over its few cells instead of a pass over every figure.
    Returns the seat's own figures in reach: without one, no move gains the seat a point."""
    for b in range(ARK_REACH):
        st.ark_own[b] = 0
        st.ark_rivals[b] = 0
    own = 0
    for s in range(st.players):
        for slot in range(SLOTS):
            b = ark_reach_bit(st, tt, s, slot)
            if b < 0:
                continue
            if s == seat:
                st.ark_own[b] += 1
                own += 1
            else:
                st.ark_rivals[b] += 1
    return own


@kernel(inline=True)
def ark_reach_bit(st, tt, seat, slot):
    """The ball bit of the cell of a figure an Ark move could score (CA-7.6), -1 for a figure
    off the board, out of reach, on the Ark's own tile (never scored) or not counted."""
    node = st.fig_node[seat, slot]
    if node < 0:
        return -1
    cell = st.p_cell[node // MAX_SEG]
    if cell == st.ark_cell or not ark_counts_figure(st, tt, seat, slot):
        return -1
    return ball_bit(st.ark_cell, cell)


@kernel
def best_tallied_outcome(st, tt, seat):
    """best_ark_outcome with the cells in reach tallied (tally_ark_reach): the first outcome of
    the most own points minus the average opponent's."""
    n = list_ark_outcomes(st, tt)
    best = -1e9
    best_k = -1
    for k in range(n):
        own = 0
        rivals = 0
        for i in range(st.ark_len[k]):
            b = ball_bit(st.ark_cell, st.ark_path[k, i])
            own += st.ark_own[b]
            rivals += st.ark_rivals[b]
        v = own - rivals / (st.players - 1)
        if v > best:
            best = v
            best_k = k
    return best, best_k


@kernel(inline=True)
def ark_outlook(st, tt, seat):
    """The best Ark move's value for greedy's outlook, which weighs only a positive one: 0 when
    no own figure is within the Ark's reach (then no move gains the seat a point) or the Ark is
    off the board, without listing the outcomes."""
    if st.ark_cell < 0 or tally_ark_reach(st, tt, seat) == 0:
        return 0.0
    return best_ark_value(st, tt)


@kernel(inline=True)
def enter_cell(st, cell, own, rivals, best, others):
    """A path of the Ark's grown by cell: its own and rival figures (tally_ark_reach; none on the
    Ark's own tile) added, and the best value so far."""
    b = ball_bit(st.ark_cell, cell)
    own += np.int64(st.ark_own[b])
    rivals += np.int64(st.ark_rivals[b])
    return own, rivals, max(best, own - rivals / others)


@kernel
def best_ark_value(st, tt):
    """best_tallied_outcome's value without listing the outcomes: the most own points minus the
    average opponent's over every path of 1-5 steps the rules allow (rules.list_ark_outcomes: no
    tile entered twice, the start once more under ARK_MAY_REENTER_START), summed as each path
    grows. Paths that repeat an outcome repeat its value, and a step back onto the start scores
    nothing (no figure there counts) and ends no outcome, so the best is the same; listing wrote
    out and de-duplicated every path, a fifth of a searched Ark game."""
    s = st.ark_cell
    board = st.cell_pidx
    reenter = tt.rules[R_ARK_REENTER] == 1
    others = st.players - 1
    best = -1e9
    for d1 in range(4):
        c1 = s + DELTA[d1]
        if board[c1] < 0:
            continue
        own1, rivals1, best = enter_cell(st, c1, 0, 0, best, others)
        for d2 in range(4):
            c2 = c1 + DELTA[d2]
            if board[c2] < 0 or (c2 == s and not reenter):
                continue
            own2, rivals2, best = enter_cell(st, c2, own1, rivals1, best, others)
            for d3 in range(4):
                c3 = c2 + DELTA[d3]
                if board[c3] < 0 or c3 == c1 or (c3 == s and (c2 == s or not reenter)):
                    continue
                own3, rivals3, best = enter_cell(st, c3, own2, rivals2, best, others)
                for d4 in range(4):
                    c4 = c3 + DELTA[d4]
                    if board[c4] < 0 or c4 == c1 or c4 == c2 or (c4 == s and (c3 == s or c2 == s or not reenter)):
                        continue
                    own4, rivals4, best = enter_cell(st, c4, own3, rivals3, best, others)
                    for d5 in range(4):
                        c5 = c4 + DELTA[d5]
                        if (board[c5] < 0 or c5 == c1 or c5 == c2 or c5 == c3
                                or (c5 == s and (c4 == s or c3 == s or c2 == s or not reenter))):
                            continue
                        _, _, best = enter_cell(st, c5, own4, rivals4, best, others)
    return best


@kernel
def greedy_outlook(st, tt, seat):
    """What greedy weighs every placement of this turn against: turns left, the cost of a
    follower and of the prophet, the best Ark move on the board before the tile, whether figures
    are allowed, and the seat's factors on the worth of each kind of feature (by segment kind)."""
    turns_left = turns_left_of(st)
    follower_cost = weight(st, tt, seat, W_FOLLOWERS) * (2.0 if st.supply[seat] <= 2 else 1.0)
    if turns_left < 8:
        follower_cost *= turns_left / 8.0
    prophet_cost = follower_cost * weight(st, tt, seat, W_PROPHET)
    ark_value = weight(st, tt, seat, W_ARK) * ark_outlook(st, tt, seat)
    ark_allowed = not (tt.rules[R_TILE_ONLY] == 1 and st.supply[seat] == 0)
    return turns_left, follower_cost, prophet_cost, ark_value, ark_allowed, feature_factors(st, tt, seat)


@kernel(inline=True)
def feature_factors(st, tt, seat):
    """The seat's weights on roads, cities, fields and monasteries or temples, indexed by
    segment kind (ROAD, CITY, FIELD, CLOISTER)."""
    return (weight(st, tt, seat, W_ROADS), weight(st, tt, seat, W_CITIES), weight(st, tt, seat, W_FIELDS),
            weight(st, tt, seat, W_CLOISTERS))


@kernel(inline=True)
def kind_factor(factors, kind):
    """factors[kind] of a road, city or field segment, read without the bounds check (and the
    error path) of a tuple indexed by a variable."""
    if kind == CITY:
        return factors[CITY]
    if kind == ROAD:
        return factors[ROAD]
    return factors[FIELD]


@kernel
def placement_value(st, tt, t, seat, cell, r, turns_left, follower_cost, prophet_cost, ark_value, ark_allowed,
                    factors):
    """(value, best action) of tile t at (cell, r) for seat, on the board before the tile;
    factors: the seat's weight on each kind of feature (feature_factors)."""
    before = st.pv_value[0]
    after = st.pv_value[1]
    figs = st.tmp[80:80 + MAX_PLAYERS]
    preview(st, tt, t, r, cell)
    base = factors[CLOISTER] * cloister_gain(st, tt, t, r, cell, seat, turns_left)
    for g in range(tt.n_seg[t]):
        kind = tt.seg_kind[t, g]
        if kind != CLOISTER:
            base += kind_factor(factors, kind) * segment_gain(st, tt, t, g, seat, turns_left, before, after, figs)
    value = base
    action = PASS * 16
    if ark_allowed and ark_value > 0 and base + ark_value > value:
        value = base + ark_value
        action = ARK * 16
    figure_bonus = factors[CLOISTER] * temple_figure_bonus(st, tt, cell)
    for g in range(tt.n_seg[t]):
        kind = tt.seg_kind[t, g]
        if kind != CLOISTER and not st.pv_free[g]:
            continue                    # a figure may only join a feature without one (CA-5.3)
        for prophet in (False, True):
            if prophet:
                if kind != CITY or not is_ark(tt) or st.prophet_state[seat] != PROPHET_AVAILABLE \
                        or not ark_allowed:
                    continue
            elif st.supply[seat] == 0:
                continue
            if kind == CLOISTER:
                ring = ring_neighbours(st, cell)
                gain = factors[CLOISTER] * (1.0 + ring + 0.5 * (8 - ring) * (1.0 if turns_left > 8 - ring else 0.3))
                returns = ring == 8
            else:
                gain = kind_factor(factors, kind) * st.pv_lone[g, 1 if prophet else 0]
                returns = st.pv_returns[g]
            cost = 0.0 if returns else (prophet_cost if prophet else follower_cost)
            v = base + gain - cost + figure_bonus
            if v > value:
                value = v
                action = (PROPHET if prophet else FOLLOWER) * 16 + g
    return value, action


@kernel
def greedy_placement(st, tt, t, seat):
    """Choose the best (placement, action) pair; remember the action in st.plan."""
    return best_listed_placement(st, tt, t, seat, list_placements(st, tt, t))


@kernel
def choose_listed_placement(st, tt, t, seat, n):
    """choose_placement when tile t's n placements are listed already (opt_cell, opt_rot: a
    searched game's decision lists them as its options): greedy does not list them again."""
    if is_greedy(tt, st.policy[seat]):
        return best_listed_placement(st, tt, t, seat, n)
    return random_placement(st, tt, t)


@kernel
def best_listed_placement(st, tt, t, seat, n):
    """greedy_placement over the n placements in opt_cell and opt_rot."""
    turns_left, follower_cost, prophet_cost, ark_value, ark_allowed, factors = greedy_outlook(st, tt, seat)
    best = -1e18
    best_placement = st.opt_cell[0] * 4 + st.opt_rot[0]
    best_action = PASS * 16
    for i in range(n):
        cell = st.opt_cell[i]
        r = st.opt_rot[i]
        value, action = placement_value(st, tt, t, seat, cell, r, turns_left, follower_cost, prophet_cost,
                                        ark_value, ark_allowed, factors)
        if value > best:
            best = value
            best_placement = cell * 4 + r
            best_action = action
    st.plan = best_action
    return best_placement


@kernel
def greedy_plan(st, tt, t, seat, placement):
    """st.plan for a placement greedy did not choose itself (a search player's tree or a replayed
    decision chose it), so that greedy_action never reads the plan of another turn: the best
    action greedy sees with tile t at that placement, on the board before the tile is placed."""
    turns_left, follower_cost, prophet_cost, ark_value, ark_allowed, factors = greedy_outlook(st, tt, seat)
    _, st.plan = placement_value(st, tt, t, seat, placement // 4, placement % 4, turns_left, follower_cost,
                                 prophet_cost, ark_value, ark_allowed, factors)


@kernel
def greedy_action(st, tt, seat):
    """The action planned with the placement; the Ark outcome is picked on the board as it is now."""
    if st.plan == ARK * 16:
        _, k = best_ark_outcome(st, tt, seat)
        return ARK * 16 + k
    n = list_actions(st, tt, seat)
    for i in range(n):
        if st.actions[i] == st.plan:
            return st.plan
    return PASS * 16


@kernel
def greedy_entry(st, tt, seat, n):
    """The entry tile with the most own figures (minus opponents') within 2 steps."""
    best = -1e9
    best_cell = st.tmp[0]
    for i in range(n):
        c = st.tmp[i]
        v = 0.0
        for s in range(st.players):
            for slot in range(SLOTS):
                node = st.fig_node[s, slot]
                if node < 0:
                    continue
                d = st.p_cell[node // MAX_SEG] - c
                dx = (d + 2 * GRID + 2) // GRID - 2
                dy = d - dx * GRID
                if abs(dx) + abs(dy) <= 2:
                    v += 1.0 if s == seat else -1.0 / (st.players - 1)
        if v > best:
            best = v
            best_cell = c
    return best_cell


# ---------------------------------------------------------------- what a seat cannot see (search players)

@kernel
def sort_pile(st, tt):
    """The draw pile deck[top:n_deck] in ascending order, counted by tile type (a few dozen
    types): determinize sorts it for every run of a search, where a comparison sort of ~70 tiles
    cost as much as the rest of determinizing."""
    for t in range(tt.n_types):
        st.pile_count[t] = 0
    for i in range(st.top, st.n_deck):
        st.pile_count[st.deck[i]] += 1
    i = st.top
    for t in range(tt.n_types):
        for _ in range(st.pile_count[t]):
            st.deck[i] = t
            i += 1


@kernel
def determinize(st, tt, p):
    """Redraw what seat p cannot see, from what it can (simcore/search.py): only the order of the
    draw pile is hidden (CA-13.3). The tiles still in it, deck[top:n_deck], are public as a
    multiset (the set minus the tiles placed and discarded), so any order of them is consistent;
    the tile drawn this turn (deck[top - 1]) and everything before it stay. The pile is sorted
    first, so the sample depends on the multiset alone, never on the true order; its tiles are
    drawn at random as they come (rules.draw_unseen), where a run draws a few. Every run of a
    search reaches its root with the same pile: the first sorts it, the others copy that
    (sorted_pile, kept under the search's serial and the pile's top)."""
    if st.sorted_pile_of == st.s_serial and st.sorted_pile_top == st.top and st.s_serial > 0:
        st.deck[st.top:st.n_deck] = st.sorted_pile[st.top:st.n_deck]
    else:
        sort_pile(st, tt)
        st.sorted_pile[st.top:st.n_deck] = st.deck[st.top:st.n_deck]
        st.sorted_pile_of = st.s_serial
        st.sorted_pile_top = st.top
    st.pile_fixed = st.top
