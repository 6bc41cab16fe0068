"""The search players flatmc and mcts, as kernels every game's playout calls: the fields they add
to a game's state and tables, the steps of a searched game (begin_game, begin_probe,
begin_iteration, ...; simcore/driver.py and Carcassonne's playout loop over them), one decision
in a replay, and the tree.

A game's playout is straight-line code that calls the seat's policy wherever a player decides
(its `decide`, simcore/driver.py), so a position in the middle of a turn cannot be copied and
continued on its own. A search therefore REPLAYS: the game's own run_game runs again from the
last turn (round) boundary a probe passed, restored from the record's snapshot (s_snap, kept and
restored by the driver: driver.checkpoint, driver.restore), every decision taken since forced
from st.s_hist (the same seed gives the same chance, so the replay reaches exactly the position
of the decision), and then:

- PROBE runs play the real game: the other seats' policies choose at the frontier and their
  choices are appended to s_hist; the run stops at the first decision of a search seat (the root);
- SEARCH runs (the iterations) replay to the root, where the game's own `determinize` redraws
  everything the searching seat cannot see (tile order, other hands, bundles, goal cards, decks)
  from what it can, and the chance and policy streams are reseeded from the search's own stream.
  From there the tree chooses (mcts: UCT over the sampled states, information-set MCTS with one
  tree per decision, nodes keyed by (seat, decision point, option); flatmc: the root's options in
  turn), then every seat plays the rollout policy to the end — or, with an mcts depth K, to the
  end of the turn (or round) in which the K-th decision below the root falls (`cut_off`), where the
  game's own end scoring scores the position as if the game ended there (Carcassonne's unfinished
  features and fields, Strasbourg's final scoring, Principato's goals; Notre Dame scores nothing
  at its end). The result is backed up.
  mcts grows a node's children one at a time, greedy's choice first, then untried options at
  random (progressive widening, see tree_step): it starts from greedy's move and keeps it unless
  other moves do better.

An iteration costs the turn (round) in progress and its rollout. Everything stays a function of
(seed, game index, policies): a game's result does not depend on batch or thread.

Rewards. flatmc takes the option with the best mean final margin (own score minus the best other
score). mcts backs up, for every seat (max^n: each node's seat maximises its own), the reward
0.5 * win share + 0.5 * (0.5 + 0.5 * tanh(margin / MARGIN_SCALE)): winning counts most, and the
margin separates positions whose playouts all win or all lose. A cut-off run (depth) has no
winner: its reward is 0.5 + 0.5 * tanh((margin - mean) / MARGIN_SCALE), the margin against the
mean margin of the search's runs so far (cut_off_reward).
"""
import math

import numba
import numpy as np

from numba.core import cgutils, types
from numba.extending import intrinsic, overload

from simcore.kernel import kernel
from simcore.rng import below, copy_stream, next_u64, seed_stream

PLAY, PROBE, SEARCH, STOPPED, STEP = 0, 1, 2, 3, 4   # st.s_mode (STEP: a stepped game without a search seat)
NO_OWN = -2147483648                                 # st.s_step_own at a search seat's decision: the search chooses
OWN_POLICY, AT_ROOT = -1, -2                         # search_decision's answers besides an index
ASK, ROLLOUT = -1, -2                                # known_decision's answers besides a forced value
# Policy ids (st.policy, int8): 0 random and 1 greedy at the game's own settings; then the run's
# search policies; then its variants of random and greedy (a label, greedy's weights). Every id
# has its row of parameters in tt.search, the run's policy table (players.Lineup.table).
RANDOM_ID, GREEDY_ID = 0, 1
FIRST_SEARCH_ID = 2
MAX_SPECS = 8                                        # distinct search policies in one run
FIRST_VARIANT_ID = FIRST_SEARCH_ID + MAX_SPECS
MAX_VARIANTS = 8                                     # distinct variants of random and greedy in one run
MAX_IDS = FIRST_VARIANT_ID + MAX_VARIANTS
FLATMC, MCTS = 0, 1                                  # kinds of search
# a row of the policy table: a search's kind, budget, ...; a variant's own policy (P_KIND: RANDOM_ID
# or GREEDY_ID) and greedy's weights from P_WEIGHTS on (the game's policies.WEIGHTS, in order)
P_KIND, P_BUDGET, P_C, P_ROLLOUT, P_DEPTH, P_WEIGHTS = range(6)
MAX_WEIGHTS = 16
P_REUSE = P_WEIGHTS + MAX_WEIGHTS                    # mcts: keep the subtree of the move played (reuse_tree)
P_TOPUP = P_REUSE + 1                                # mcts: the share of the budget a kept subtree is searched up to
P_EXPAND = P_TOPUP + 1                               # mcts: a node's visits before its first child (tree_step)
P_SETTLE = P_EXPAND + 1                              # mcts: end a search once its choice is settled (settled)
N_PARAMS = P_SETTLE + 1
MAX_HIST = 8192                                      # decisions with 2+ options in one game
MAX_NODES = 4097                                     # tree nodes: one per iteration, plus the root
MAX_DEPTH = 512
HASH_SLOTS = 4096                                    # options of one decision, by value (power of 2)
MARGIN_SCALE = 10.0
WIDEN = 1.0                                          # a node of n visits has up to 1 + WIDEN * sqrt(n) children
SEARCH_STREAM = 7                                    # rng stream of a game's searches (0, 1: chance, policies)
# the natural log of each count below 2 * MAX_NODES, by Python's math.log (the C library's log, which
# compiled math.log calls too: the same values): a tree step asks it for every child (log_count)
LOG_COUNT = np.array([-math.inf] + [math.log(k) for k in range(1, 2 * MAX_NODES)])


def search_fields(max_players):
    """The STATE fields of a search, to append to a game's dtype."""
    return [
        ("s_mode", np.int32),
        ("s_hist", np.int32, (MAX_HIST,)),           # option values of the game's decisions so far
        ("s_n_hist", np.int32),
        ("s_dec", np.int32),                         # decisions with 2+ options in this run
        ("s_root_seat", np.int32),
        ("s_root_dp", np.int32),
        ("s_spec", np.int32),                        # the searching seat's row of tt.search (its policy id)
        ("s_kind", np.int32),
        ("s_c", np.float64),                         # mcts: the exploration constant
        ("s_rollout", np.int32),
        ("s_depth", np.int32),                       # mcts: decisions below the root before a run is scored, 0: none
        ("s_iter", np.int32),
        ("s_n_root", np.int32),                      # the root's options (flatmc's turn order)
        ("s_true_policy", np.int8, (max_players,)),
        ("s_gen", np.uint64, (4,)),                  # the searches' own stream (determinizing, expanding)
        ("s_gen_saved", np.uint64, (4,)),
        ("s_searches", np.int32),                    # decisions searched in this game (benchmarks)
        ("s_serial", np.int64),                      # searches begun in this record, ever: a game keeps what
                                                     # it computes once for a search's root under this key
        ("s_halt_at", np.int32),                     # the picture's halt_at (st.halt_at stops probes)
        ("s_seed", np.int64),
        ("s_index", np.int64),
        # the tree: node 0 is the root; children are a linked list
        ("t_n", np.int32),
        ("t_parent", np.int32, (MAX_NODES,)),
        ("t_child", np.int32, (MAX_NODES,)),
        ("t_next", np.int32, (MAX_NODES,)),
        ("t_seat", np.int32, (MAX_NODES,)),
        ("t_dp", np.int32, (MAX_NODES,)),
        ("t_move", np.int32, (MAX_NODES,)),
        ("t_visits", np.float64, (MAX_NODES,)),
        ("t_avail", np.float64, (MAX_NODES,)),
        ("t_reward", np.float64, (MAX_NODES, max_players)),
        ("t_root", np.int32),                        # the root of this search: 0, or the node kept from the last
        ("s_reuse", np.int32),                       # mcts: reuse the subtree of the move played (P_REUSE)
        ("s_expand", np.int32),                      # mcts: a node's visits before its first child (P_EXPAND)
        ("s_settle", np.float64),                    # mcts: end a search once its choice is settled (P_SETTLE)
        ("s_last_seat", np.int32),                   # the last search's seat, -1: none to reuse in this game
        ("s_last_hist", np.int32),                   # the decisions taken before the last search's root
        ("s_last_child", np.int32),                  # the root child the last search chose
        ("s_root_opts", np.int32, (HASH_SLOTS,)),    # the root's options (a reused root's children may hold others)
        ("s_root_child", np.int32, (HASH_SLOTS,)),   # root option i's child + 1 (0: none yet), kept across
        ("s_root_children", np.int32),               # ... the runs of the search of serial s_root_marked, as
        ("s_root_marked", np.int64),                 # ... mark_children finds them (root_children)
        ("t_cur", np.int32),                         # the node of this run's last tree step, -1 past it
        ("t_expanding", np.int32),                   # seat + 1 while greedy chooses the option to expand
        ("t_expand_dp", np.int32),
        ("t_path", np.int32, (MAX_DEPTH,)),
        ("t_n_path", np.int32),
        ("t_hash", np.int32, (HASH_SLOTS,)),         # mark_children: a child + 1 by its move, scratch
        ("t_kids", np.int32, (MAX_NODES,)),          # ... the children of the decision, scratch
        ("t_opt_child", np.int32, (HASH_SLOTS,)),    # option index -> its child + 1 (0: none yet)
        ("s_score", np.float64, (max_players,)),     # final results of a run, filled by the game
        ("s_reward", np.float64, (max_players,)),
        ("s_margin_sum", np.float64, (max_players,)),  # cut-off runs: each seat's margins so far in this search
        # the snapshot: the game's state at the last turn (round) boundary a probe passed, from
        # which the next probe and every iteration resume instead of replaying from the start
        ("s_snap_ok", np.int32),                     # s_snap holds a boundary of this game
        ("s_snap_dec", np.int32),                    # decisions taken before that boundary
        ("s_resume", np.int32),                      # the next run_game starts from the restored state
        ("s_replay_errors", np.int32),               # runs that met another decision at the root than the probe
                                                     # did (a replay that does not retrace the game: a bug)
        # a stepped game (simcore/step.py): every decision with 2+ options stops the run
        ("s_step", np.int32),                        # 1 while the game is stepped
        ("s_ctx", np.int32),                         # the context (decide's ctx) of the decision being asked
        ("s_open_ctx", np.int32),                    # the open decision's
        ("s_step_own", np.int32),                    # the value the seat's policy takes at the stop, NO_OWN: a search's
    ]


DRIVER_CONTROLS = ("logging", "halt_at", "halted")    # play fields the driver sets before every run


def snapshot_field(play_fields):
    """The snapshot's field: room for every play field (play_fields, a list of dtype fields),
    laid out as they are; and the view, the play fields as a stepped game stopped at a decision
    (keep_view), which simcore/step.py reads as a record of the plain-play dtype."""
    size = np.dtype(play_fields).itemsize
    return [("s_snap", np.uint8, (size,)), ("s_view", np.uint8, (size,))]


_SNAPSHOTS = {}      # numba record type -> Snapshot


class Snapshot:
    """Where a record type's snapshot lives: the play fields' first byte, s_snap's first byte
    (a play field at offset o is kept at o - play + snap), and the spans of the fields a
    checkpoint copies whole (save_snapshot)."""

    def __init__(self, dtype, play_names, unsaved):
        self.play = dtype.fields[play_names[0]][1]
        self.snap = dtype.fields["s_snap"][1]
        self.view = dtype.fields["s_view"][1]
        self.size = dtype.fields["s_view"][0].itemsize
        self.fields = {name: dtype.fields[name][:2] for name in play_names}
        spans = []
        for name in play_names:
            if name in unsaved or name in DRIVER_CONTROLS:
                continue
            offset, size = dtype.fields[name][1], dtype.fields[name][0].itemsize
            if spans and spans[-1][0] + spans[-1][1] == offset:
                spans[-1][1] += size
            else:
                spans.append([offset, size])
        self.spans = tuple(map(tuple, spans))


_PLAY_DTYPES = {}    # state dtype -> the dtype of its play fields, as they lie in s_view


def register_snapshot(dtype, play_names, unsaved):
    play = [dtype.fields[name] for name in play_names]
    assert all(b[1] == a[1] + a[0].itemsize for a, b in zip(play, play[1:])), "the play fields lie together"
    _SNAPSHOTS[numba.from_dtype(dtype)] = Snapshot(dtype, play_names, set(unsaved))
    first = play[0][1]
    _PLAY_DTYPES[dtype] = np.dtype({"names": list(play_names), "formats": [f[0] for f in play],
                                    "offsets": [f[1] - first for f in play],
                                    "itemsize": dtype.fields["s_view"][0].itemsize})
    return dtype


def view_of(states):
    """The play fields of a stepped game's record states[0] (a numpy record array of one) as they
    were at its open decision or its end (keep_view kept them): a record of the game's plain-play
    fields over the record's s_view, which the next run of the game overwrites."""
    return states["s_view"].view(_PLAY_DTYPES[states.dtype]).reshape(-1).view(np.recarray)[0]


def with_search_fields(play_state, max_players, unsaved=()):
    """A game's state dtype for games with a search seat: the search's fields and its plain-play
    dtype. Plain play keeps the dtype without them, and search_choice and chosen compile to
    nothing for it, so that a plain batch compiles none of the search's code (a fifth of Notre
    Dame's first compile). The search's fields come first: were the plain fields a prefix of the
    record, numba would take it for a subtype of plain play's record and weigh, for every call,
    the kernels already compiled for plain play, which never search (an experimental numba
    feature, with a warning on every such call).
    unsaved: the play fields a search's snapshot leaves out (save_snapshot): the move log, which
    no search run writes (they do not log, and a probe that logs rewrites the entries after its
    boundary), scratch that no boundary carries, and what the game keeps its own way."""
    dtype = np.dtype(search_fields(max_players) + snapshot_field(play_state.descr) + play_state.descr)
    return register_snapshot(dtype, play_state.names, unsaved)


def searchable_state(play_fields, max_players, unsaved=()):
    """A state dtype of play_fields followed by the search's: one record for plain play and
    search alike (Carcassonne's)."""
    dtype = np.dtype(play_fields + search_fields(max_players) + snapshot_field(play_fields))
    return register_snapshot(dtype, [f[0] for f in play_fields], unsaved)


def has_search_fields(st):
    """Whether the state record st (or its numba type) carries the search's fields."""
    fields = st.fields if isinstance(st, types.Record) else st.dtype.names
    return "s_mode" in fields


def search_table_fields():
    """The TABLES field holding a run's policy table: one row of parameters per policy id."""
    return [("search", np.float64, (MAX_IDS, N_PARAMS))]


# ---------------------------------------------------------------- policy ids

@kernel(inline=True)
def is_search_id(pid):
    """Whether policy id pid is one of the run's search policies (flatmc, mcts)."""
    return FIRST_SEARCH_ID <= pid < FIRST_VARIANT_ID


def has_search_policy(seat_policies):
    """Whether any seat of these games (a numpy array of policy ids) plays a search policy: such
    a batch runs the search's kernels."""
    return bool(((seat_policies >= FIRST_SEARCH_ID) & (seat_policies < FIRST_VARIANT_ID)).any())


@kernel(inline=True)
def is_greedy(tt, pid):
    """Whether policy id pid plays greedy: the game's own or a variant (weights, a label)."""
    return pid == GREEDY_ID or (pid >= FIRST_VARIANT_ID and tt.search[pid, P_KIND] == GREEDY_ID)


@kernel(inline=True)
def is_random(tt, pid):
    """Whether policy id pid plays random: the game's own or a labelled variant."""
    return pid == RANDOM_ID or (pid >= FIRST_VARIANT_ID and tt.search[pid, P_KIND] == RANDOM_ID)


def weight_defaults(weights):
    """The defaults of a game's greedy weights (contract.Param, its policies.WEIGHTS) as the
    array greedy_weight reads for the game's own greedy, at least one entry long."""
    return np.array([p.default for p in weights] or [0.0], dtype=np.float64)


@kernel(inline=True)
def plays_default_weights(pid):
    """Whether policy id pid, playing greedy, plays the game's default weights (every id but a
    variant's): a valuation run thousands of times a game may then skip a factor that is 1."""
    return pid < FIRST_VARIANT_ID


@kernel(inline=True)
def greedy_weight(tt, pid, w, defaults):
    """Weight w of greedy as policy id pid plays it: a variant's own from the policy table, else
    the game's default (defaults: its policies.WEIGHTS as an array, a constant of the kernel)."""
    if plays_default_weights(pid):
        return defaults[w]
    return tt.search[pid, P_WEIGHTS + w]


# ---------------------------------------------------------------- the snapshot at a boundary

def _snapshot_copy(save):
    """The intrinsic copying a record's play fields, but the unsaved ones, to its snapshot (save)
    or back: one memcpy per span."""
    def typer(typingctx, st):
        if not isinstance(st, types.Record) or st not in _SNAPSHOTS:
            return None
        snapshot = _SNAPSHOTS[st]

        def codegen(context, builder, signature, values):
            base = builder.bitcast(values[0], cgutils.voidptr_t)
            for offset, size in snapshot.spans:
                copy_bytes(context, builder, base, offset, offset - snapshot.play + snapshot.snap,
                           context.get_constant(types.intp, size), save)
            return context.get_dummy_value()

        return types.none(st), codegen
    return intrinsic(typer)


def element_copy(st, name):
    """For copy_field and copy_items: the bytes of one element (along the first axis) of the play
    array field `name`, and a codegen helper copying `size` bytes (an LLVM value) from element
    values[2] on, to the snapshot (values[4] true) or back."""
    snapshot = _SNAPSHOTS[st]
    field_dtype, offset = snapshot.fields[name.literal_value]
    item = field_dtype.itemsize // field_dtype.shape[0]

    def copy(context, builder, signature, values, size):
        def constant(value):
            return context.get_constant(types.intp, value)

        base = builder.bitcast(values[0], cgutils.voidptr_t)
        first = builder.mul(context.cast(builder, values[2], signature.args[2], types.intp), constant(item))
        play = builder.gep(base, [builder.add(constant(offset), first)])
        snap = builder.gep(base, [builder.add(constant(offset - snapshot.play + snapshot.snap), first)])
        save_it = context.cast(builder, values[4], signature.args[4], types.boolean)
        dst = builder.select(save_it, snap, play)
        src = builder.select(save_it, play, snap)
        cgutils.raw_memcpy(builder, dst, src, size, 1)

    return item, copy


def is_snapshot_field(st, name):
    return isinstance(st, types.Record) and st in _SNAPSHOTS and isinstance(name, types.StringLiteral)


@intrinsic
def copy_field(typingctx, st, name, lo, hi, save):
    """Copy elements lo .. hi - 1 (along its first axis) of the play array field `name` (a string
    constant) to the snapshot (save True) or back, for the fields a game keeps its own way."""
    if not is_snapshot_field(st, name):
        return None
    item, copy = element_copy(st, name)

    def codegen(context, builder, signature, values):
        count = builder.sub(context.cast(builder, values[3], signature.args[3], types.intp),
                            context.cast(builder, values[2], signature.args[2], types.intp))
        copy(context, builder, signature, values, builder.mul(count, context.get_constant(types.intp, item)))
        return context.get_dummy_value()

    return types.none(st, name, lo, hi, save), codegen


@intrinsic
def copy_items(typingctx, st, name, lo, n, save):
    """copy_field of the n elements from lo on, n a constant: a copy of a fixed size, which the
    compiler writes out as a few vector moves where a copy of a size known only at run time
    calls memcpy (for a game that copies many short runs of elements)."""
    if not is_snapshot_field(st, name) or not isinstance(n, types.IntegerLiteral):
        return None
    item, copy = element_copy(st, name)

    def codegen(context, builder, signature, values):
        copy(context, builder, signature, values, context.get_constant(types.intp, n.literal_value * item))
        return context.get_dummy_value()

    return types.none(st, name, lo, n, save), codegen


@intrinsic
def kept_item(typingctx, st, name, i):
    """Element i of the play array field `name` (a string constant, a one-dimensional array) as
    the snapshot holds it: for a game that restores only the elements a run changed."""
    if not is_snapshot_field(st, name):
        return None
    snapshot = _SNAPSHOTS[st]
    field_dtype, offset = snapshot.fields[name.literal_value]
    element = numba.from_dtype(field_dtype.base)

    def codegen(context, builder, signature, values):
        base = builder.bitcast(values[0], cgutils.voidptr_t)
        at = context.cast(builder, values[2], signature.args[2], types.intp)
        first = builder.gep(base, [context.get_constant(types.intp, offset - snapshot.play + snapshot.snap)])
        items = builder.bitcast(first, context.get_value_type(element).as_pointer())
        return builder.load(builder.gep(items, [at]))

    return element(st, name, i), codegen


def copy_bytes(context, builder, base, play, snap, size, save):
    """memcpy of size bytes between offset play and offset snap of the record at base."""
    def at(offset):
        return builder.gep(base, [context.get_constant(types.intp, offset)])
    dst, src = (at(snap), at(play)) if save else (at(play), at(snap))
    cgutils.raw_memcpy(builder, dst, src, size, 1)


save_snapshot = _snapshot_copy(True)
load_snapshot = _snapshot_copy(False)


@intrinsic
def keep_view(typingctx, st):
    """Copy every play field to s_view: a stepped game's state at its open decision (view_of)."""
    if not isinstance(st, types.Record) or st not in _SNAPSHOTS:
        return None
    snapshot = _SNAPSHOTS[st]

    def codegen(context, builder, signature, values):
        base = builder.bitcast(values[0], cgutils.voidptr_t)
        copy_bytes(context, builder, base, snapshot.play, snapshot.view,
                   context.get_constant(types.intp, snapshot.size), True)
        return context.get_dummy_value()

    return types.none(st), codegen


@kernel
def keep_play_fields(st):
    """A checkpoint's copy of the play fields (driver.keep_boundary for most games)."""
    save_snapshot(st)


@kernel
def restore_play_fields(st):
    """A restore's copy of the play fields (driver.restore_boundary for most games)."""
    load_snapshot(st)


# ---------------------------------------------------------------- the game loop of a searched game

@kernel
def has_search_seat(policies, players):
    for s in range(players):
        if is_search_id(policies[s]):
            return True
    return False


@kernel
def begin_game(st, players, policies, seed, index):
    """Before the first probe of a game with a search seat."""
    for s in range(players):
        st.s_true_policy[s] = policies[s]
    st.s_n_hist = 0
    st.s_searches = 0
    st.s_halt_at = st.halt_at
    st.s_seed = seed
    st.s_index = index
    st.s_snap_ok = 0
    st.s_resume = 0
    st.s_replay_errors = 0
    st.s_step = 0
    st.s_ctx = 0
    st.s_last_seat = -1
    seed_stream(st.s_gen, seed, index, SEARCH_STREAM)


@kernel
def begin_probe(st):
    """The next run plays the real game on from s_hist."""
    st.s_mode = PROBE
    st.s_dec = 0
    st.halt_at = st.s_halt_at
    st.halted = 0


@kernel
def probe_stopped(st):
    """After a probe: True when it stopped at a search seat's decision (the root), False when the
    game ended (st then holds the real final state)."""
    return st.s_mode == STOPPED


@kernel
def begin_search(st, tt):
    """A fresh tree for the root the probe found: the searching seat's spec and budget."""
    p = st.s_root_seat
    st.s_searches += 1
    st.s_serial += 1
    st.s_spec = st.s_true_policy[p]
    spec = tt.search[st.s_spec]
    st.s_kind = np.int32(spec[P_KIND])
    st.s_rollout = np.int32(spec[P_ROLLOUT])
    st.s_c = spec[P_C]
    st.s_depth = np.int32(spec[P_DEPTH])
    st.s_reuse = np.int32(spec[P_REUSE])
    st.s_expand = np.int32(spec[P_EXPAND])
    st.s_settle = spec[P_SETTLE]
    st.s_margin_sum[:] = 0.0
    budget = iterations(st, tt)
    if st.s_kind == MCTS and st.s_reuse and reuse_tree(st, budget):
        return max(1, np.int32(budget * tt.search[st.s_spec, P_TOPUP]) - np.int32(st.t_visits[st.t_root]))
    st.t_n = 1
    st.t_root = 0
    new_node(st, 0, -1, p, st.s_root_dp, 0)
    return budget


@kernel
def reuse_tree(st, budget):
    """mcts with reuse: when this decision is the searching seat's next one right after the move
    its last search chose (nobody decided in between, and that move was taken), the subtree below
    that move becomes the root — its nodes are this decision's options and what follows them —
    and the search runs only the iterations its visits lack. The tree's nodes key moves by (seat,
    decision point, option), so the nodes below the move that are another decision's are passed
    over (mark_children). False (a fresh tree) when that does not hold or the tree lacks room."""
    child = st.s_last_child
    if (st.s_last_seat != st.s_root_seat or st.s_n_hist != st.s_last_hist + 1 or child < 0
            or st.s_hist[st.s_n_hist - 1] != st.t_move[child] or st.t_n + budget >= MAX_NODES):
        return False
    st.t_root = child
    return True


@kernel
def iterations(st, tt):
    """mcts: iters; flatmc: playouts for each of the root's options."""
    budget = np.int32(tt.search[st.s_spec, P_BUDGET])
    if st.s_kind == FLATMC:
        return budget * st.s_n_root
    return budget


@kernel
def end_game(st):
    """After the last probe: st holds the real game's end (or its picture's halt); later games
    play without search."""
    st.s_mode = PLAY
    st.halt_at = st.s_halt_at


@kernel
def begin_iteration(st, it):
    st.s_mode = SEARCH
    st.s_dec = 0
    st.s_iter = it
    st.t_cur = st.t_root
    st.t_expanding = 0
    st.t_path[0] = st.t_root
    st.t_n_path = 1
    st.halt_at = 0
    st.halted = 0


@kernel
def end_iteration(st, players):
    """Back up the run's result (st.s_score, filled by the game) along the path."""
    rewards(st, players)
    for k in range(st.t_n_path):
        node = st.t_path[k]
        st.t_visits[node] += 1.0
        for s in range(players):
            st.t_reward[node, s] += st.s_reward[s]


@kernel
def rewards(st, players):
    """s_reward from s_score (score + tie-break as a fraction): flatmc the margin, mcts the blend."""
    best = -1e18
    n_best = 0
    for s in range(players):
        if st.s_score[s] > best + 1e-9:
            best = st.s_score[s]
            n_best = 1
        elif abs(st.s_score[s] - best) <= 1e-9:
            n_best += 1
    for s in range(players):
        other = -1e18
        for q in range(players):
            if q != s and st.s_score[q] > other:
                other = st.s_score[q]
        margin = st.s_score[s] - other
        if st.s_kind == FLATMC:
            st.s_reward[s] = margin
        elif st.s_depth > 0:
            st.s_reward[s] = cut_off_reward(st, s, margin)
        else:
            win = 1.0 / n_best if abs(st.s_score[s] - best) <= 1e-9 else 0.0
            st.s_reward[s] = 0.5 * win + 0.5 * (0.5 + 0.5 * math.tanh(margin / MARGIN_SCALE))


@kernel
def cut_off_reward(st, s, margin):
    """A cut-off run's reward for seat s: its margin against the mean margin of this search's
    runs so far, 0.5 + 0.5 * tanh((margin - mean) / MARGIN_SCALE). Being ahead when a run is cut
    off is not a win, and the lead a seat already has is the same in every run: measured from
    zero, a lead of 30 (the Ark's scores run to 150+) puts every run far out on the tanh, where
    moves barely differ (the Ark against greedy, 100 games: 69% from zero, 83% from the mean)."""
    center = st.s_margin_sum[s] / st.s_iter if st.s_iter > 0 else margin
    st.s_margin_sum[s] += margin
    return 0.5 + 0.5 * math.tanh((margin - center) / MARGIN_SCALE)


@kernel
def best_root_move(st):
    """After the iterations: the root child with the most visits (mcts) or the best mean (flatmc);
    appended to s_hist as the real game's decision."""
    p = st.s_root_seat
    best = -1
    best_value = -1e300
    c = st.t_child[st.t_root]
    while c >= 0:
        if st.t_visits[c] > 0 and (st.t_root == 0 or is_root_option(st, c)):
            if st.s_kind == FLATMC:
                value = st.t_reward[c, p] / st.t_visits[c]
            else:
                value = st.t_visits[c] + 1e-6 * st.t_reward[c, p] / st.t_visits[c]
            if value > best_value:
                best_value = value
                best = c
        c = st.t_next[c]
    remember(st, st.t_move[best])
    st.s_last_seat = p
    st.s_last_hist = st.s_n_hist - 1
    st.s_last_child = best


@kernel
def settled(st, left):
    """mcts with settle: whether no root option can catch up with the most visited one in the
    `left` iterations still to run, so that best_root_move takes the option it would take after
    the whole budget (settle=1); with settle=S < 1, whether the most visited one leads the next by
    more than S x left: a runner-up would have to win more than that share of the runs left, which
    a search that has favoured the leader all along rarely gives it. Asked before the first run
    too: a kept subtree (reuse) may be settled already and then runs none. The next decision's
    kept subtree is topped up to its share of the budget as before (topup), so with topup=1 part
    of the runs saved are run there."""
    if st.s_kind != MCTS or st.s_settle == 0:
        return False
    first = 0.0
    second = 0.0
    c = st.t_child[st.t_root]
    while c >= 0:
        v = st.t_visits[c]
        if v > second and (st.t_root == 0 or is_root_option(st, c)):
            if v > first:
                second = first
                first = v
            else:
                second = v
        c = st.t_next[c]
    return first - second > st.s_settle * left


@kernel
def is_root_option(st, c):
    """Whether node c below a reused root is one of this decision's options (the kept subtree
    also holds moves of other decisions and of options another sample of the game had)."""
    if st.t_seat[c] != st.s_root_seat or st.t_dp[c] != st.s_root_dp:
        return False
    for i in range(st.s_n_root):
        if st.s_root_opts[i] == st.t_move[c]:
            return True
    return False


@kernel
def remember(st, value):
    if st.s_n_hist < MAX_HIST:
        st.s_hist[st.s_n_hist] = value
        st.s_n_hist += 1


# ---------------------------------------------------------------- one decision in a replay

@kernel
def search_decision(st, p, dp):
    """In a probe or search run, for a decision with options st.opts[:st.n_opts]: the index of
    the option to take, or OWN_POLICY (the seat's policy chooses; then take the index `chosen`
    returns), or AT_ROOT (determinize the state for seat p, then call `root_decision`, which
    answers the same way)."""
    if st.s_mode == STOPPED:
        return 0
    k = st.s_dec
    st.s_dec += 1
    if k < st.s_n_hist:
        return forced(st, st.s_hist[k])
    if st.s_mode == PROBE:
        if st.s_step:
            open_decision(st, p, dp)
        if is_search_id(st.s_true_policy[p]):
            st.s_mode = STOPPED
            st.s_root_seat = p
            st.s_root_dp = dp
            st.s_n_root = st.n_opts
            for i in range(st.n_opts):
                st.s_root_opts[i] = st.opts[i]
            st.s_step_own = NO_OWN
            st.halt_at = 1                   # the game returns at its next turn or round
            return 0
        copy_stream(st.s_gen_saved, st.gen_decide)    # the policy draws from a stream of this decision
        seed_decision_stream(st, k)
        return OWN_POLICY
    if k == st.s_n_hist:
        if dp != st.s_root_dp or st.n_opts != st.s_n_root:
            st.s_replay_errors += 1
        return AT_ROOT
    cut_off(st, k)
    if st.t_cur < 0:
        return OWN_POLICY                    # past the tree: the rollout policy
    return tree_step(st, p, dp)


@kernel(inline=True)
def at_search_root(st):
    """Whether the decision just taken was a search run's root: the same position, options and
    order in every run of the search (st.s_serial), whatever the sample hides."""
    return st.s_mode == SEARCH and st.s_dec == st.s_n_hist + 1


@kernel
def seed_decision_stream(st, k):
    """gen_decide for decision k of a searched game's probe: a policy outside the search draws
    from a stream of its decision, so that a probe resumed at a boundary draws as one from the
    start would."""
    seed_stream(st.gen_decide, st.s_seed ^ np.int64(k + 1) * np.int64(0x3C6EF372), st.s_index, SEARCH_STREAM + 1)


@kernel
def open_decision(st, p, dp):
    """A stepped game reaches its next decision (seat p at point dp, options st.opts[:st.n_opts]):
    keep the state as it is (the view simcore/step.py reads) and who decides."""
    keep_view(st)
    st.s_root_seat = p
    st.s_root_dp = dp
    st.s_open_ctx = st.s_ctx
    st.s_n_root = st.n_opts


@kernel(inline=True)
def stepped_probe(st):
    """Whether st is a stepped game's probe (a stepped game with a search seat between its
    stops; not one of the search's runs)."""
    return st.s_step != 0 and st.s_mode == PROBE


@kernel
def step_decision(st, p, dp):
    """A decision of a stepped game without a search seat (STEP), before the seat's policy
    chooses as in plain play (its stream goes on as there): count it, and at the first one not
    yet taken open it. `stepped` then takes the value the history holds, or stops the run."""
    k = st.s_dec
    st.s_dec += 1
    if k == st.s_n_hist:
        open_decision(st, p, dp)


@kernel
def stepped(st, i):
    """After the seat's policy chose option i at a STEP decision: the value taken before (the
    history's), or, at the open decision, a stop: the run goes on to its next turn or round and
    returns, the policy's choice kept in s_step_own. Returns the index of the option to take."""
    k = st.s_dec - 1
    if k < st.s_n_hist:
        return forced(st, st.s_hist[k])
    stop_step(st, st.opts[i])
    return i


@kernel
def stop_step(st, own):
    st.s_step_own = own
    st.s_mode = STOPPED
    st.halt_at = 1


@kernel
def known_decision(st):
    """search_decision's answer where it needs no options, for a game whose options cost more to
    list than a random move (Carcassonne's placements and Ark moves): the value of a decision
    forced from the history, ROLLOUT past the tree (the seat's policy chooses), else ASK (list the
    options, then call the game's search_choice). Counts the decision in s_dec exactly as
    search_decision does."""
    if st.s_mode == PROBE or st.s_mode == SEARCH:
        k = st.s_dec
        if k < st.s_n_hist:
            st.s_dec = k + 1
            return st.s_hist[k]
        if st.s_mode == SEARCH and k > st.s_n_hist and st.t_cur < 0:
            st.s_dec = k + 1
            cut_off(st, k)
            return ROLLOUT
    return ASK


@kernel
def cut_off(st, k):
    """mcts with a depth: once decision k lies depth decisions below the root, the run stops at
    the end of this turn (or round), and the game scores the position as if it ended there."""
    if st.s_depth > 0 and k >= st.s_n_hist + st.s_depth:
        st.halt_at = 1


def search_choice_of(determinize):
    """The search's part of a game's `decide`, given the game's own determinize (a kernel):
    search_choice(st, tt, p, dp), for a decision of seat p at point dp with options
    st.opts[:st.n_opts], returns the index of the option to take, or OWN_POLICY (the seat's policy
    chooses; then take the index `chosen` returns). Compiled, it decides on the state's type: for
    plain play's state, without the search's fields, it is OWN_POLICY and nothing else."""

    def search_choice(st, tt, p, dp):
        if not has_search_fields(st):
            return OWN_POLICY
        return searched_choice(st, tt, p, dp)

    def searched_choice(st, tt, p, dp):
        if st.s_mode == PLAY:
            return OWN_POLICY
        if st.s_mode == STEP:
            step_decision(st, p, dp)
            return OWN_POLICY
        i = search_decision(st, p, dp)
        if i == AT_ROOT:
            determinize(st, tt, p)
            i = root_decision(st, st.players)
        return i

    @overload(search_choice)
    def compiled_search_choice(st, tt, p, dp):
        if has_search_fields(st):
            return searched_choice
        return lambda st, tt, p, dp: OWN_POLICY

    return search_choice


def chosen(st, i):
    """After the seat's own policy chose option i: a probe keeps it in the history; a search run
    expanding its tree (tree_step asked greedy) takes greedy's option unless the tree has it
    already, then another one. Returns the index of the option to take."""
    if not has_search_fields(st):
        return i
    return searched_chosen(st, i)


@overload(chosen)
def compiled_chosen(st, i):
    """Compiled, chosen decides on the state's type: for plain play's state it is i."""
    if has_search_fields(st):
        return lambda st, i: searched_chosen(st, i)
    return lambda st, i: i


def note_context(st, ctx):
    """Before a decision's search_choice: its context (decide's ctx), which a stepped game's
    open decision reports. Compiled to nothing for plain play's state."""
    if has_search_fields(st):
        st.s_ctx = ctx


@overload(note_context)
def compiled_note_context(st, ctx):
    if has_search_fields(st):
        def note(st, ctx):
            st.s_ctx = ctx
        return note
    return lambda st, ctx: None


@kernel
def searched_chosen(st, i):
    if st.s_mode == PROBE:
        copy_stream(st.gen_decide, st.s_gen_saved)
        if st.s_step:
            stop_step(st, st.opts[i])        # a stepped game's open decision: the policy's choice
        else:
            remember(st, st.opts[i])
    elif st.s_mode == STEP:
        i = stepped(st, i)
    elif st.t_expanding > 0:
        i = expand(st, i)
    return i


@kernel
def forced(st, value):
    for i in range(st.n_opts):
        if st.opts[i] == value:
            return i
    return 0                                 # cannot happen: a replay takes the same options


@kernel
def root_decision(st, players):
    """At the root of a search run, the state just determinized: reseed chance and the policies
    from the search's stream, hand every seat the rollout policy, and take the tree's option."""
    seed_stream(st.gen_chance, np.int64(next_u64(st.s_gen) >> np.uint64(1)), st.s_index, 0)
    seed_stream(st.gen_decide, np.int64(next_u64(st.s_gen) >> np.uint64(1)), st.s_index, 1)
    for s in range(players):
        st.policy[s] = st.s_rollout
    if st.s_kind == FLATMC:
        i = st.s_iter % st.n_opts
        child = find_child(st, 0, st.s_root_seat, st.s_root_dp, st.opts[i])
        if child < 0:
            child = add_child(st, 0, st.s_root_seat, st.s_root_dp, st.opts[i])
        st.t_path[1] = child
        st.t_n_path = 2
        st.t_cur = -1
        return i
    return tree_step(st, st.s_root_seat, st.s_root_dp)


# ---------------------------------------------------------------- the tree (mcts)

@kernel
def new_node(st, node, parent, seat, dp, move):
    st.t_parent[node] = parent
    st.t_child[node] = -1
    st.t_next[node] = -1
    st.t_seat[node] = seat
    st.t_dp[node] = dp
    st.t_move[node] = move
    st.t_visits[node] = 0.0
    st.t_avail[node] = 0.0
    st.t_reward[node, :] = 0.0


@kernel
def add_child(st, parent, seat, dp, move):
    node = st.t_n
    st.t_n += 1
    new_node(st, node, parent, seat, dp, move)
    st.t_next[node] = st.t_child[parent]
    st.t_child[parent] = node
    return node


@kernel
def find_child(st, parent, seat, dp, move):
    c = st.t_child[parent]
    while c >= 0:
        if st.t_move[c] == move and st.t_seat[c] == seat and st.t_dp[c] == dp:
            return c
        c = st.t_next[c]
    return -1


@kernel
def tree_step(st, p, dp):
    """One step below st.t_cur among the legal options. A node grows one child at a time, up to
    1 + WIDEN * sqrt(visits) of them (progressive widening: wide decisions — dozens of placements
    or action patterns — are not spread over every option before any is tried twice), and the
    first child is greedy's choice, so the search starts from greedy's move and looks for better
    ones. Expanding the first child returns OWN_POLICY with greedy as the seat's policy; `chosen`
    then adds the child and the run leaves the tree. A later child is an untried option at random,
    without asking greedy again: its choice is a child already in nearly every sample (it differs
    only where the samples differ in what the seat sees), and in Carcassonne asking it weighs
    every placement, more than the rest of a run's turn. A node below the root grows its first
    child only once it has mcts's `expand` visits: until then a run reaching it rolls out from it
    (fewer nodes, fewer of greedy's first choices). Else the child of best upper confidence bound
    among the legal ones (availability counts, information-set MCTS) is followed."""
    node = st.t_cur
    children = root_children(st, p, dp) if node == st.t_root else mark_children(st, p, dp)
    room = st.t_n < MAX_NODES and st.t_n_path < MAX_DEPTH
    if room and children < st.n_opts and children < 1.0 + WIDEN * math.sqrt(st.t_visits[node]):
        if children > 0:
            return expand_untried(st, p, dp)
        if node != st.t_root and st.t_visits[node] < st.s_expand:
            st.t_cur = -1                    # too few visits to grow a first child: roll out from here
            return OWN_POLICY
        st.t_expanding = p + 1
        st.t_expand_dp = dp
        st.policy[p] = GREEDY_ID
        return OWN_POLICY
    best = -1
    best_ucb = -1e300
    for i in range(st.n_opts):
        child = st.t_opt_child[i] - 1
        if child < 0:
            continue
        st.t_avail[child] += 1.0
        if st.t_visits[child] == 0.0:
            ucb = 1e300
        else:
            ucb = (st.t_reward[child, p] / st.t_visits[child]
                   + st.s_c * math.sqrt(log_count(st.t_avail[child]) / st.t_visits[child]))
        if ucb > best_ucb:
            best_ucb = ucb
            best = i
    if best < 0:                             # tree full and nothing expanded here: roll out
        st.t_cur = -1
        return OWN_POLICY
    enter(st, st.t_opt_child[best] - 1, False)
    return best


@kernel(inline=True)
def log_count(x):
    """math.log(x) of a count x (a whole number as a float): from LOG_COUNT below its end."""
    k = np.int64(x)
    return LOG_COUNT[k] if k < LOG_COUNT.shape[0] else math.log(x)


@kernel
def root_children(st, p, dp):
    """mark_children at the root: the root's options and their order are the same in every run
    of a search, and its children change only where a run adds one (add_leaf), so the map is
    made once a search and kept (s_root_child), not hashed again every run. (Serial 0: no
    search was begun in the record, a tree stepped on its own: nothing is kept.)"""
    if not root_map_kept(st):
        st.s_root_children = mark_children(st, p, dp)
        st.s_root_child[:st.n_opts] = st.t_opt_child[:st.n_opts]
        st.s_root_marked = st.s_serial
    else:
        st.t_opt_child[:st.n_opts] = st.s_root_child[:st.n_opts]
    return st.s_root_children


@kernel(inline=True)
def root_map_kept(st):
    """Whether s_root_child holds this search's map of the root (root_children)."""
    return st.s_root_marked == st.s_serial and st.s_serial > 0


@kernel
def root_options_known(st):
    """Whether the decision about to be asked is a search run's root whose options the search
    kept (s_root_opts) and whose tree will not ask the seat's policy to choose (the root has a
    child): a game whose options cost more to list than to copy takes them from there
    (copy_root_options). Call before search_choice, which counts the decision."""
    return st.s_mode == SEARCH and st.s_dec == st.s_n_hist and root_map_kept(st) and st.s_root_children > 0


@kernel
def copy_root_options(st):
    """st.opts: the options of the search's root, as the probe listed them."""
    st.opts[:st.s_n_root] = st.s_root_opts[:st.s_n_root]
    st.n_opts = st.s_n_root
    return st.s_n_root


@kernel
def mark_children(st, p, dp):
    """t_opt_child[i]: option i's child below t_cur + 1, 0 when it has none. Returns the number
    of options with a child."""
    if options_are_a_range(st):
        return mark_range_children(st, p, dp)
    return mark_hashed_children(st, p, dp)


@kernel
def options_are_a_range(st):
    """Whether the options are consecutive values, first to last (the Ark's moves, numbered by
    outcome: hundreds of them); other lists break off within an option or two."""
    first = st.opts[0]
    for i in range(1, st.n_opts):
        if st.opts[i] != first + i:
            return False
    return True


@kernel
def mark_range_children(st, p, dp):
    """mark_children for options first, first + 1, ...: a child's option index is its move less
    the first."""
    for i in range(st.n_opts):
        st.t_opt_child[i] = 0
    children = 0
    c = st.t_child[st.t_cur]
    while c >= 0:
        if st.t_seat[c] == p and st.t_dp[c] == dp:
            i = st.t_move[c] - st.opts[0]
            if 0 <= i < st.n_opts:
                st.t_opt_child[i] = c + 1
                children += 1
        c = st.t_next[c]
    return children


@kernel
def mark_hashed_children(st, p, dp):
    """mark_children for any options. The children (a few) are hashed by move, not the options
    (dozens of placements), so each option costs one lookup that mostly meets an empty slot; a
    child found is marked taken (negative), so an option value listed twice gets the child once,
    at its first index. The node's children are walked once (a node whose samples differ in
    their options, another seat's placements, gathers a hundred or more, of other decisions too):
    this decision's are noted in t_kids, and the table is as small as they allow (a quarter full
    at most), so its slots stay in a few cache lines."""
    n = 0
    c = st.t_child[st.t_cur]
    while c >= 0:
        if st.t_seat[c] == p and st.t_dp[c] == dp:
            st.t_kids[n] = c
            n += 1
        c = st.t_next[c]
    if n == 0:                               # a leaf of this decision (every run's last step): nothing to look up
        st.t_opt_child[:st.n_opts] = 0
        return 0
    mask = 63
    while mask < 4 * n and mask < HASH_SLOTS - 1:
        mask = 2 * mask + 1
    for k in range(n):
        c = st.t_kids[k]
        h = slot_of(st.t_move[c], mask)
        while st.t_hash[h] != 0:
            h = (h + 1) & mask
        st.t_hash[h] = c + 1
    children = 0
    for i in range(st.n_opts):
        value = st.opts[i]
        found = 0
        h = slot_of(value, mask)
        while st.t_hash[h] != 0:
            k = st.t_hash[h]
            if k > 0 and st.t_move[k - 1] == value:
                found = k
                st.t_hash[h] = -k
                children += 1
                break
            h = (h + 1) & mask
        st.t_opt_child[i] = found
    for k in range(n):                       # clear from each child's slot to the first empty one
        h = slot_of(st.t_move[st.t_kids[k]], mask)
        while st.t_hash[h] != 0:
            st.t_hash[h] = 0
            h = (h + 1) & mask
    return children


@kernel
def expand(st, i):
    """The child of option i (greedy's choice) below t_cur, or, when it has one, of an option
    without one taken at random; the run leaves the tree. Returns the option's index."""
    p = st.t_expanding - 1
    st.t_expanding = 0
    st.policy[p] = st.s_rollout
    if st.t_opt_child[i] != 0:
        i = untried_option(st)
    return add_leaf(st, p, st.t_expand_dp, i)


@kernel
def expand_untried(st, p, dp):
    """A child of an option without one, taken at random, below t_cur; the run leaves the
    tree. Returns the option's index."""
    return add_leaf(st, p, dp, untried_option(st))


@kernel
def untried_option(st):
    """The index of an option without a child below t_cur (mark_children), at random."""
    untried = 0
    for j in range(st.n_opts):
        if st.t_opt_child[j] == 0:
            untried += 1
    pick = below(st.s_gen, untried)
    for j in range(st.n_opts):
        if st.t_opt_child[j] == 0:
            if pick == 0:
                return j
            pick -= 1
    return 0                                 # cannot happen: tree_step expands only with one untried


@kernel
def add_leaf(st, p, dp, i):
    if st.t_cur == st.t_root and root_map_kept(st):
        st.s_root_child[i] = st.t_n + 1                  # the root's new child (root_children)
        st.s_root_children += 1
    child = add_child(st, st.t_cur, p, dp, st.opts[i])
    st.t_avail[child] += 1.0
    enter(st, child, True)
    return i


@kernel
def enter(st, child, leaves):
    st.t_path[st.t_n_path] = child
    st.t_n_path += 1
    st.t_cur = -1 if leaves else child


@kernel
def slot_of(value, mask):
    """A value's first slot: Fibonacci hashing, the product's high bits (the options are
    consecutive cells and segments: a multiplication spreads them; splitmix64 cost a dozen
    instructions more)."""
    return np.int64((np.uint64(np.int64(value) & np.int64(0xFFFFFFFF)) * np.uint64(0x9E3779B97F4A7C15))
                    >> np.uint64(40)) & mask
