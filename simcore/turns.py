"""What the games share: the state fields of an open decision, of scripted choices, of invariant
checks and of the move log, and logging an event; and what the decision-point engines (Notre
Dame, Strasbourg, Principato) share besides: taking a scripted choice, and the Engine that plays
a batch or one logged game.

A game's playout fills st.opts[:st.n_opts] with a decision's legal options and calls its
`decide` (simcore/driver.py, decider), which asks `scripted_option` first (tests drive positions
this way), then the search, then the seat's policy.
"""
import numpy as np

from simcore.kernel import kernel
from simcore.contract import BatchResult, CheckResult, GameSpec, Stepper
from simcore.search import has_search_policy

MAX_SCRIPT = 64
EVENT_FIELDS = 7                 # code, round, seat, a, b, c, VP of the seat after
LOG_FIELDS = ("ev",)             # the move log's entries, which a search's snapshot leaves out


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
        # pictures of a game in progress: stop after this many turns or rounds (0: play to the end)
        ("halt_at", np.int32),
        ("halted", np.int32),
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
    """One move-log line (st.logging on): code, round, seat, a, b, c and the seat's VP after. The
    round is st.round_no, the game's step (Carcassonne's is the turn)."""
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


@kernel
def halt_here(st, done):
    """True once `done` turns or rounds are played and a picture of the game so far was asked for
    (st.halt_at); the game's loop then returns at once."""
    if st.halt_at > 0 and done >= st.halt_at:
        st.halted = 1
        return True
    return False


@kernel
def record_game(st, k, players, out_pts, out_seat, out_game):
    """Game k of a batch, just played in st: points by category, per-seat and game counters."""
    for s in range(players):
        for c in range(out_pts.shape[2]):
            out_pts[k, s, c] = st.pts[s, c]
        for c in range(out_seat.shape[2]):
            out_seat[k, s, c] = st.seat_count[s, c]
    for c in range(out_game.shape[1]):
        out_game[k, c] = st.game_count[c]


class Engine:
    """A decision-point game's kernels and tables, as its spec.py needs them: play a batch into a
    BatchResult, or one game with its move log."""

    def __init__(self, play_batch_kernel, search_batch_kernel, play_game, new_state, new_tables, categories,
                 seat_columns, game_columns, max_players, violations, package="", step_kernel=None):
        self.kernel, self.search_kernel, self.play_game = play_batch_kernel, search_batch_kernel, play_game
        self.step_kernel = step_kernel
        self.violations = violations
        self.new_state, self.new_tables = new_state, new_tables
        self.categories, self.seat_columns, self.game_columns = categories, seat_columns, game_columns
        self.max_players = max_players
        self.package = package

    @classmethod
    def of(cls, playout, state):
        """The engine of a game package: its playout and state modules (docs/architecture.md, Layout)."""
        return cls(playout.play_batch_kernel, playout.search_batch_kernel, playout.play_game, state.new_state,
                   state.new_tables, state.CATEGORIES, state.SEAT_COLUMNS, state.GAME_COLUMNS, state.MAX_PLAYERS,
                   playout.VIOLATIONS, package=playout.__name__.rpartition(".")[0], step_kernel=playout.step_kernel)

    def game_spec(self, id, name, players, policies, components, replay, draw, provenance=None, notes=(),
                  picture_step="turn", search_defaults=None, check_step="round", compile_seconds=60,
                  greedy_weights=()):
        """The registry's GameSpec of a decision-point game; players = (min, max, default)."""
        return GameSpec(id=id, name=name, min_players=players[0], max_players=players[1],
                        default_players=players[2], policies=dict(policies), categories=self.categories,
                        game_columns=self.game_columns, seat_columns=self.seat_columns,
                        load_data=components.load, play_batch=self.play_batch, replay=replay,
                        provenance=provenance or components.provenance, data_id=lambda data: data.data_set_id,
                        draw=draw, notes=notes, picture_step=picture_step, searchable=True,
                        search_defaults=search_defaults or {}, check_batch=self.check_batch,
                        violations=dict(self.violations), check_step=check_step,
                        compile_seconds=compile_seconds, package=self.package, greedy_weights=greedy_weights,
                        stepper=Stepper(new_state=self.new_state, tables=self.tables, kernel=self.step_kernel))

    def tables(self, data, players, search=None):
        """The tables record for a batch; search: the run's search policies (players.Lineup.table)."""
        tt = self.new_tables(data, players)
        if search is not None:
            tt[0].search[:] = search
        return tt

    def play_batch(self, data, players, seat_policies, seed, first_index, search=None):
        """Games first_index.. with seat_policies (int8[count, players])."""
        return self._play(data, players, seat_policies, seed, first_index, search, checking=0)[0]

    def check_batch(self, data, players, seat_policies, seed, first_index, search=None):
        """The games of play_batch with the invariant checker on after every step."""
        found = self._play(data, players, seat_policies, seed, first_index, search, checking=1)[1]
        return CheckResult(violation=found[:, 0].copy(), step=found[:, 1].copy())

    def _play(self, data, players, seat_policies, seed, first_index, search, checking):
        count = seat_policies.shape[0]
        pts = np.zeros((count, players, len(self.categories)), dtype=np.int32)
        seat = np.zeros((count, players, len(self.seat_columns)), dtype=np.int32)
        game = np.zeros((count, len(self.game_columns)), dtype=np.int32)
        tiebreak = np.zeros((count, players), dtype=np.int32)
        found = np.zeros((count, 2), dtype=np.int32)           # (violation, round) per game
        policies = np.zeros((count, self.max_players), dtype=np.int8)
        policies[:, :players] = seat_policies
        searched = has_search_policy(seat_policies)
        kernel = self.search_kernel if searched else self.kernel
        kernel(self.new_state(search=searched), self.tables(data, players, search), players, policies, np.int64(seed),
               np.int64(first_index), pts, seat, game, tiebreak, np.int32(checking), found)
        return BatchResult(pts=pts, game=game, seat=seat, tiebreak=tiebreak), found

    def replay_header(self, name, seat_names, names, data, players, seat_policies, seed, index):
        """The first lines of a replay: the game, seed and data, then each seat's policy (names:
        the policy names by kernel id, players.Lineup.names)."""
        return [f"{name}, {players} players, seed {seed}, game {index}, data {data.data_set_id}",
                "seats: " + ", ".join(f"{seat_names[s]}={names[int(p)]}" for s, p in enumerate(seat_policies))]

    def play_logged(self, data, players, seat_policies, seed, index, halt_at=0, search=None):
        """One game with its move log kept: the state record at the end, or after halt_at turns or
        rounds (the game's own unit; st.halted says whether it stopped there)."""
        st = self.new_state()[0]
        st.logging = 1
        st.halt_at = halt_at
        row = np.zeros(self.max_players, dtype=np.int8)
        row[:players] = seat_policies
        self.play_game(st, self.tables(data, players, search)[0], players, row, np.int64(seed), np.int64(index))
        return st
