"""What the decision-point engines (Notre Dame, Strasbourg) share: the state fields of an open
decision, of scripted choices, of invariant checks and of the move log; taking a scripted
choice; logging an event; and running a batch of games into a BatchResult.

A game's playout fills st.opts[:st.n_opts] with a decision's legal options and calls its own
`decide`, which asks `scripted_option` first (tests drive positions this way) and the seat's
policy otherwise.
"""
import numpy as np

from simcore.kernel import kernel
from simcore.registry import BatchResult

MAX_SCRIPT = 64
EVENT_FIELDS = 7                 # code, round, seat, a, b, c, VP of the seat after


def turn_fields(max_options, max_events):
    """The STATE fields of decisions, scripts, checks and the log, to append to a game's dtype."""
    return [
        # a decision's legal options, filled by playout, read by policies
        ("opts", np.int32, (max_options,)),
        ("n_opts", np.int32),
        # scripted choices (tests): option values taken in order before any policy is asked
        ("script", np.int32, (MAX_SCRIPT,)),
        ("n_script", np.int32),
        ("script_pos", np.int32),
        ("script_miss", np.int32),                   # scripted values that were not legal
        # invariant checking after every step (tests): the first broken invariant and its round
        ("checking", np.int32),
        ("violation", np.int32),
        ("violation_round", np.int32),
        # move log (replay)
        ("logging", np.int32),
        ("n_events", np.int32),
        ("ev", np.int32, (max_events, EVENT_FIELDS)),
    ]


@kernel
def scripted_option(st):
    """The index of the next scripted value among st.opts, or -1 when no script is left (a
    scripted value that is not legal is counted in st.script_miss and skipped)."""
    if st.script_pos >= st.n_script:
        return -1
    v = st.script[st.script_pos]
    st.script_pos += 1
    for i in range(st.n_opts):
        if st.opts[i] == v:
            return i
    st.script_miss += 1
    return -1


@kernel
def log_event(st, code, p, a, b, c):
    """One move-log line (st.logging on): code, round, seat, a, b, c and the seat's VP after."""
    if st.logging and st.n_events < st.ev.shape[0]:
        e = st.n_events
        st.ev[e, 0] = code
        st.ev[e, 1] = st.round_no
        st.ev[e, 2] = p
        st.ev[e, 3] = a
        st.ev[e, 4] = b
        st.ev[e, 5] = c
        st.ev[e, 6] = st.vp[p] if p >= 0 else 0
        st.n_events += 1


def run_batch(kernel_fn, ws, tables, players, seat_policies, seed, first_index, n_categories,
              seat_columns, game_columns, max_players):
    """Call a game's batch kernel for seat_policies (int8[count, players]) and wrap its outputs."""
    count = seat_policies.shape[0]
    pts = np.zeros((count, players, n_categories), dtype=np.int32)
    seat = np.zeros((count, players, len(seat_columns)), dtype=np.int32)
    game = np.zeros((count, len(game_columns)), dtype=np.int32)
    tiebreak = np.zeros((count, players), dtype=np.int32)
    policies = np.zeros((count, max_players), dtype=np.int8)
    policies[:, :players] = seat_policies
    kernel_fn(ws, tables, players, policies, np.int64(seed), np.int64(first_index), pts, seat, game, tiebreak)
    return BatchResult(pts=pts, game=game, seat=seat, tiebreak=tiebreak)


def logged_policies(seat_policies, max_players):
    """A seat-policy row padded to max_players, for one logged game."""
    row = np.zeros(max_players, dtype=np.int8)
    row[:len(seat_policies)] = seat_policies
    return row
