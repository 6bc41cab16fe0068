"""The numpy structured dtype of one Carcassonne game's state (base and Ark).

One record holds everything a game mutates, so kernels take one argument (the record) and
numba's reference counting stays out of the hot loops. Board cells are flattened:
cell = X * GRID + Y with X = x + ORIGIN, Y = y + ORIGIN (CA-12.5), so sorting cells sorts
by (x, y), the canonical placement order (CA-13.6).
"""
import numpy as np

from simcore.search import searchable_state
from simcore.turns import LOG_FIELDS, turn_fields
from simcore.boardgames.carcassonne.components import FIT_WORDS, MAX_SEG, MAX_TILES, MAX_TYPES

# The box's 72 tiles in a line from the centre still fit, with a border ring that never holds a
# tile (a frontier cell's neighbours are read, so none may lie on the border). A variant of more
# than 72 tiles could reach that ring in a line from the centre: there the table ends (no
# frontier cell on the border ring, rules.on_border), the one place the table is not endless.
GRID = 147
ORIGIN = 73
N_CELLS = GRID * GRID
MAX_PLAYERS = 5
FOLLOWERS = 7                    # placeable followers per player (CA-1.3, CB-1.2)
SLOTS = FOLLOWERS + 1            # figure slots per player; the last one is the prophet's
PROPHET_SLOT = FOLLOWERS
N_NODES = MAX_TILES * MAX_SEG      # union-find nodes: node = pidx * MAX_SEG + segment
DIRTY_WORDS = (MAX_TILES + 63) // 64
MAX_FRONTIER = 2 * MAX_TILES + 8
MAX_CITIES = 2 * MAX_TILES       # completed cities: a tile has at most 4 city segments, a city at least 2
FRONT_WORDS = (N_CELLS + 63) // 64
MAX_PLACEMENTS = 4 * MAX_FRONTIER
ARK_REACH = 61                   # cells within 5 orthogonal steps of the Ark (rules.BALL)
MAX_ARK_OUTCOMES = 640           # 436 paths of <= 5 steps; 600 when the start may be re-entered
ARK_HASH = 2048                  # outcome hash set size, a power of two well above that
MAX_ACTIONS = 32                 # PASS, followers and prophets on one tile's segments, ARK
# a decision's options for the search players: every placement of a tile, every phase-A action
# with each Ark outcome on its own, or every Ark entry cell
MAX_OPTIONS = max(MAX_PLACEMENTS, MAX_ACTIONS + MAX_ARK_OUTCOMES, MAX_TILES)
# the move log's entries (EV_* below): besides its scores a turn logs 7 at most (its tile, its
# action, 5 Ark steps), 889 in the 127 turns of the largest set (MAX_TILES), whose Ark games logged
# 520 at most, scores included, in 300 games of 2 and 5 players (turns.log_event drops any past the end)
MAX_EVENTS = 2048
N_CATEGORIES = 5

# score categories (index into pts); the base game has no ark points, its "temples" are monasteries
CAT_ROAD, CAT_CITY, CAT_CLOISTER, CAT_FIELD, CAT_ARK = 0, 1, 2, 3, 4
BASE_CATEGORIES = ("roads", "cities", "monasteries", "fields")
ARK_CATEGORIES = ("roads", "cities", "temples", "fields", "ark")
GAME_COLUMNS = ("turns", "tiles_discarded")     # a game's counters in the results
GC_TURNS, GC_DISCARDED = 0, 1

# prophet states (CA-6.1)
PROPHET_AVAILABLE, PROPHET_ON_BOARD, PROPHET_BOXED = 0, 1, 2

# action kinds (CA-13); an action is kind * 16 + segment, or kind * 16 for PASS and ARK
PASS, FOLLOWER, PROPHET, ARK = 0, 1, 2, 3

# the move log (CA-12.11), written only when logging (replay, pictures, tests) through
# turns.log_event: one entry of (code, round_no, seat, a, b, c, the seat's VP after) for
#   EV_DISCARD     a tile the seat drew that fits nowhere (CA-4.4): a = tile type
#   EV_PLACE       the seat's tile: a = tile type, b = cell, c = rotation
#   EV_ACTION      its phase-A action: a = kind * 16 + segment, or ARK * 16 + the Ark outcome's index
#   EV_ARK_STEP    a tile the Ark enters on its move, in the order entered: a = cell
#   EV_SCORE       points: a = points, b = why (WHY_*), c = the feature's root node, the temple's or
#                  monastery's tile index, or the Ark's end cell
#   EV_ARK_ENTERS  the Ark enters the board after the turn's scoring (CA-7.2): a = cell
# in the order they happen; round_no is the turn (0 for the first after the start tile), and
# the end's discards and final scoring come after the last turn, with round_no the turns played
EV_DISCARD, EV_PLACE, EV_ACTION, EV_ARK_STEP, EV_SCORE, EV_ARK_ENTERS = range(6)
# why a score event scored, in the base game MONASTERY stands where TEMPLE does
WHY_ARK, WHY_ROAD, WHY_CITY, WHY_CITY_PROPHET, WHY_TEMPLE7, WHY_TEMPLE3, WHY_ROAD_END, WHY_CITY_END, \
    WHY_FIELD, WHY_MONASTERY9, WHY_MONASTERY_END = range(11)

# one union-find node (a segment of a placed tile): its feature's aggregates are valid at the root;
# 64 bytes with the padding: one cache line
SEGMENT = np.dtype([
    ("tiles_lo", np.uint64),      # bit pidx for pidx < 64: tiles counted once
    ("tiles_hi", np.uint64),      # bit pidx - 64
    ("parent", np.uint16),
    ("open", np.int16),           # open road/city sides; 0 = complete
    ("scrolls", np.int16),        # scrolls (Ark) or pennants (base)
    ("oases", np.int16),
    ("sheep", np.int16),
    ("wolves", np.int16),
    ("kind", np.int8),
    ("n_figs", np.int8),
    ("prophets", np.uint8),       # bit per seat whose prophet stands in the feature
    ("done", np.int8),            # 1 completed and scored, 2 scored open at the end
    ("figs", np.int8, (MAX_PLAYERS,)),  # figures per seat on the feature
    ("pad", np.uint8, (27,)),
])
assert SEGMENT.itemsize == 64

PLAY_FIELDS = [
    ("gen_chance", np.uint64, (4,)),
    ("gen_decide", np.uint64, (4,)),
    ("players", np.int32),
    # turns played so far, under the name the shared code gives a game's step (turns.log_event's
    # round column, like violation_round): Carcassonne's step is one player's turn
    ("round_no", np.int32),
    ("seat", np.int32),                       # active player
    ("policy", np.int8, (MAX_PLAYERS,)),      # policy id per seat
    # draw pile: deck[top:n_deck] are the tiles still to draw (the start tile is not in it)
    ("deck", np.int16, (MAX_TILES,)),
    ("n_deck", np.int32),
    ("top", np.int32),
    ("pile_fixed", np.int32),     # the pile's order is set up to here; past it a search's sample draws at random
    ("discarded", np.int32),
    ("n_placements", np.int32),               # legal placements of the tile just drawn (draw_placeable)
    # board
    ("cell_pidx", np.int16, (N_CELLS,)),      # placed tile index, -1 where empty
    # ... and the cells holding a tile as one bit per cell: a column's run of cells is a shift of a
    # word or two (the Ark's neighbourhood, rules.ball_occupied)
    ("occupied", np.uint64, (FRONT_WORDS,)),
    ("req", np.uint8, (N_CELLS,)),            # requirement key of an empty cell (components.KEY_DIGITS)
    # the frontier (empty cells next to the board) as one bit per cell: adding and removing a
    # cell is one bit operation, and reading the bits in order gives the cells sorted
    ("front_bits", np.uint64, (FRONT_WORDS,)),
    ("front_lo", np.int32),                   # words front_lo..front_hi may hold bits
    ("front_hi", np.int32),
    # ... and the same cells as a list linked both ways in that order, valid at frontier cells only:
    # the k-th placement is a walk along it from its nearer end, one load per cell, where the
    # bitmap's walk mispredicts a branch at almost every word
    ("front_next", np.int16, (N_CELLS,)),     # the next frontier cell, -1 after the last
    ("front_prev", np.int16, (N_CELLS,)),     # the one before, -1 before the first
    ("front_first", np.int32),                # -1 while the frontier is empty
    ("front_last", np.int32),
    ("n_frontier", np.int32),
    # the legal placements on the frontier of each fit class of tile types (components.fit_class),
    # four classes a word in 16-bit lanes: each frontier cell adds its requirement key's row of
    # components.key_placements, so a drawn tile's count is one lane (rules.count_placements)
    ("class_placements", np.uint64, (FIT_WORDS,)),
    ("n_placed", np.int32),
    ("p_type", np.int16, (MAX_TILES,)),
    ("type_segs", np.int8, (MAX_TYPES,)),          # each tile type's segments (tt.n_seg; restore_turn has no tables)
    ("p_rot", np.int8, (MAX_TILES,)),
    ("p_cell", np.int32, (MAX_TILES,)),
    # features: union-find over segments with aggregates at each root (CA-12.6), one record per
    # segment node (SEGMENT), so that a merge or a new segment touches one cache line, not a dozen arrays
    ("seg", SEGMENT, (N_NODES,)),
    ("seg_dirty", np.uint64, (DIRTY_WORDS,)),      # bit pidx: a tile whose records changed (rules.touch_segments)
    # figures
    ("fig_node", np.int16, (MAX_PLAYERS, SLOTS)),  # segment node of each figure, -1 = not on board
    # the figures on each placed tile, and their codes (seat * SLOTS + slot) xor-ed together: a
    # temple's cross and an Ark move's path read the figures of a few tiles, and in play a tile
    # holds at most one (placed the turn it was laid, CA-5.4), whose code the xor then is
    ("tile_figs", np.int8, (MAX_TILES,)),
    ("tile_fig_codes", np.int8, (MAX_TILES,)),
    ("supply", np.int8, (MAX_PLAYERS,)),
    ("prophet_state", np.int8, (MAX_PLAYERS,)),
    ("cloister_done", np.int8, (MAX_TILES,)),   # temple or monastery on this tile scored as complete
    ("open_cloisters", np.int16, (MAX_TILES,)), # tiles with a temple or monastery not yet complete
    ("n_open_cloisters", np.int32),
    # per cell, the places of the open temples and monasteries on it and around it, a bit each
    # (rules.mark_cloister): phase S reads one word where it would scan the open ones
    ("cloister_near", np.uint16, (N_CELLS,)),
    ("ark_cell", np.int32),                   # -1 while the Ark is off the board
    # this turn
    ("completed", np.int16, (8,)),            # roots of roads/cities the placed tile completed
    ("joined_segments", np.uint64),           # bit g: the placed tile's segment g joined a neighbour's
    ("n_completed", np.int32),
    # scores
    ("vp", np.int32, (MAX_PLAYERS,)),             # points so far (the final score at the end)
    ("pts", np.int32, (MAX_PLAYERS, N_CATEGORIES)),
    # what the shared driver records of a game (simcore/driver.py): its counters, set at the end
    # (GAME_COLUMNS), and no per-seat counters
    ("game_count", np.int32, (len(GAME_COLUMNS),)),
    ("seat_count", np.int32, (MAX_PLAYERS, 0)),
    # scratch buffers reused every turn (no allocation in the loop)
    ("opt_cell", np.int32, (MAX_PLACEMENTS,)),
    ("opt_rot", np.int8, (MAX_PLACEMENTS,)),
    ("actions", np.int16, (MAX_ACTIONS,)),
    ("ark_mask", np.uint64, (MAX_ARK_OUTCOMES,)),   # outcome: entered cells as a bit set ...
    ("ark_end", np.int8, (MAX_ARK_OUTCOMES,)),      # ... and the end cell, in ball coordinates
    ("ark_path", np.int32, (MAX_ARK_OUTCOMES, 5)),  # first path reaching each outcome
    ("ark_len", np.int8, (MAX_ARK_OUTCOMES,)),
    ("n_ark", np.int32),
    ("ark_prefix", np.uint64, (6,)),                # entered cells of each path prefix (walk scratch)
    ("ark_own", np.int8, (ARK_REACH,)),             # greedy: figures an Ark move would score per cell
    ("ark_rivals", np.int8, (ARK_REACH,)),          # in reach (ball bit), the seat's own and its opponents'
    ("hash_slot", np.int32, (ARK_HASH,)),           # outcome hash set, valid where hash_stamp == stamp
    ("hash_stamp", np.int32, (ARK_HASH,)),
    ("stamp", np.int32),
    ("tmp", np.int32, (128,)),
    ("pile_count", np.int16, (MAX_TYPES,)),        # determinize's scratch: tiles of each type in the pile
    # greedy's look-ahead: per segment of the tile under consideration, the feature it would join
    ("pv_roots", np.int16, (MAX_SEG, 8)),          # distinct neighbour roots
    ("pv_n_roots", np.int8, (MAX_SEG,)),
    ("pv_links", np.int8, (MAX_SEG,)),             # road/city sides joined to a neighbour
    ("pv_value", np.float64, (MAX_SEG, MAX_PLAYERS)),  # worth per seat of the merged feature
    ("pv_free", np.int8, (MAX_SEG,)),              # the feature holds no figure yet
    ("pv_lone", np.float64, (MAX_SEG, 2)),         # ... then the worth of a follower, a prophet there
    ("pv_returns", np.int8, (MAX_SEG,)),           # ... and whether it completes at once
    ("plan", np.int32),                            # greedy: the action chosen with the placement
    # what the search's last snapshot kept of the board (playout.keep_turn): its tiles, and the
    # cells of the columns whose requirement keys it holds
    ("kept_placed", np.int32),
    ("kept_lo", np.int64),
    ("kept_hi", np.int64),
    ("root_plan", np.int32, (MAX_PLACEMENTS,)),    # ... for each option of a search's root (playout.root_plan),
    ("root_plan_of", np.int64, (MAX_PLACEMENTS,)), # ... made in the search of this serial (search.s_serial)
    ("sorted_pile", np.int16, (MAX_TILES,)),       # the pile at a search's root, sorted (policies.determinize)
    ("sorted_pile_of", np.int64),                  # ... in the search of this serial
    ("sorted_pile_top", np.int32),                 # ... from this top
    # the base game's farmers (CB-4.2): each city completed during the game keeps the fields it
    # touches then (a segment node of each), so final scoring reads them instead of the board;
    # fields that merge later are the same field through find
    ("n_cities_done", np.int32),
    ("city_field_at", np.int16, (MAX_CITIES + 1,)),  # completed city i: city_field_nodes[at[i]:at[i+1]]
    ("city_field_nodes", np.int16, (4 * N_NODES,)),   # a field touches at most 4 city segments of its tile
    ("fid", np.int8, (N_NODES,)),                   # final scoring's scratch: field root -> field number, -1 if none
    ("field_roots", np.int16, (40,)),                # ... field number -> root
    ("field_cities", np.int32, (40,)),               # ... field number -> completed cities touching it
    ("field_last_city", np.int32, (40,)),            # ... the last city counted for the field
    # and the fields every game has (simcore/turns.py): the open decision's options (search
    # players only: the random and greedy policies list their own), as placement cell * 4 + rot,
    # action kind * 16 + segment or ARK * 16 + outcome, or entry cell; the script, which no
    # Carcassonne test uses; the invariant fields, which stay 0 (Carcassonne's checker is
    # check.py's own loop); the move log (ev, of EV_* entries); halt_at and halted (pictures of a
    # game in progress stop after a turn)
] + turn_fields(MAX_OPTIONS, MAX_EVENTS)
# What a search's snapshot at the start of a turn (simcore/search.py) leaves out: the move log
# (turns.LOG_FIELDS); scratch no turn carries over (the Ark's outcome hash set with its stamp,
# which stay valid together); what a search keeps across its runs (SEARCH_KEPT_FIELDS: its root's
# greedy plans, what the snapshot holds of the board), which a restore must not overwrite; and
# what playout.keep_turn and restore_turn handle their own way: the board (only the cells a run
# changed are put back), the segments of the tiles placed and the completed cities' fields.
SCRATCH_FIELDS = ("opt_cell", "opt_rot", "actions", "ark_mask", "ark_end", "ark_path", "ark_len", "ark_prefix",
                  "ark_own", "ark_rivals", "hash_slot", "hash_stamp", "stamp", "tmp", "pile_count", "pv_roots",
                  "pv_n_roots", "pv_links", "pv_value", "pv_free", "pv_lone", "pv_returns", "fid", "field_roots",
                  "field_cities", "field_last_city", "opts")
SEARCH_KEPT_FIELDS = ("root_plan", "root_plan_of", "sorted_pile", "sorted_pile_of", "sorted_pile_top", "kept_placed",
                      "kept_lo", "kept_hi")
BOARD_FIELDS = ("cell_pidx", "req", "front_next", "front_prev", "cloister_near", "occupied")
SEGMENT_FIELDS = ("seg", "seg_dirty")
STATE = searchable_state(PLAY_FIELDS, MAX_PLAYERS,        # one record for plain play and search
                         LOG_FIELDS + SCRATCH_FIELDS + SEARCH_KEPT_FIELDS + BOARD_FIELDS + SEGMENT_FIELDS
                         + ("city_field_nodes",))


def new_state(n=1):
    """n zeroed state records, ready for rules.reset."""
    st = np.zeros(n, dtype=STATE)
    st["cell_pidx"] = -1
    st["req"] = 255
    st["fid"] = -1
    st["front_lo"] = FRONT_WORDS
    st["front_hi"] = -1
    st["front_first"] = -1
    st["front_last"] = -1
    return st


def cell_of(x, y):
    return (x + ORIGIN) * GRID + (y + ORIGIN)


def xy_of(cell):
    return cell // GRID - ORIGIN, cell % GRID - ORIGIN
