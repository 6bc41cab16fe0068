"""The game loop written once for all five games: playing a game with or without a search seat
(the search's probes and iterations) and playing a batch into the result arrays with each game's
tie-break and first broken invariant.

Deciding is written here too (`decider`): a game's `decide` is the driver's `decide_as_game`
with the game's own policy and determinize in its globals (see there why not a hook or a closure).

The driver calls each game's own steps through the hooks below, which a game implements for its
state records with `implement(...)`. Compiled, a hook is an intrinsic that calls the kernel the
game gave for the record's type, so the driver is compiled once per game with that game's steps in
it and numba's on-disk cache keeps it (a driver taking the game's functions as arguments would not
be cached). As plain Python (NUMBA_DISABLE_JIT=1) a hook looks the game up by the record's dtype.

A game's playout keeps its entry points (play_batch_kernel, search_batch_kernel, play_game) as
one-line kernels calling play_batch, play_search_batch and play_game here: the functions called
from Python live in the game's package, so its compiled code is cached under its own key
(simcore/compile_cache.py).
"""
import builtins
import types as pytypes

import numba
from numba.core import types
from numba.extending import intrinsic, overload

from simcore.kernel import kernel
from simcore.search import (
    PROBE, STEP, STOPPED, begin_game, begin_iteration, begin_probe, begin_search, best_root_move, chosen, end_game,
    end_iteration, has_search_fields, has_search_seat, keep_play_fields, keep_view, note_context, probe_stopped,
    restore_play_fields, search_choice_of, settled)
from simcore.turns import record_game, scripted_option

JIT = not numba.config.DISABLE_JIT
_GAMES = {}          # (hook name, record type or dtype) -> the game's kernel


def game_call(typingctx, name, args):
    """The typing and code of a call of hook `name` with argument types args: a direct call of
    the kernel the game of the record args[0] gave for it (an intrinsic, not an overload: an
    overload's implementation would be one more function, linked with the game's whole code under
    it and optimised again, which made Strasbourg's first compile a quarter longer)."""
    kernel_of_game = _GAMES.get((name, args[0]))
    if kernel_of_game is None:
        return None
    fnty = types.Dispatcher(kernel_of_game)
    target = typingctx.resolve_function_type(fnty, args, {})

    def codegen(context, builder, signature, values):
        values = [context.cast(builder, v, a, b) for v, a, b in zip(values, signature.args, target.args)]
        return context.get_function(fnty, target)(builder, values)

    return target.return_type(*args), codegen


def hook(name, compiled):
    """The hook `name`: compiled, its intrinsic; as plain Python, the game's kernel found by the
    record's dtype."""
    if JIT:
        return compiled
    return lambda st, *args: _GAMES[name, st.dtype](st, *args)


# ---------------------------------------------------------------- the hooks a game implements

@intrinsic
def _run_game(typingctx, st, tt, players, policies, seed, index):
    return game_call(typingctx, "run_game", (st, tt, players, policies, seed, index))


@intrinsic
def _score_cut_off(typingctx, st, tt):
    return game_call(typingctx, "score_cut_off", (st, tt))


@intrinsic
def _tiebreak(typingctx, st, tt, s):
    return game_call(typingctx, "tiebreak", (st, tt, s))


@intrinsic
def _keep_boundary(typingctx, st):
    return game_call(typingctx, "keep_boundary", (st,))


@intrinsic
def _restore_boundary(typingctx, st):
    return game_call(typingctx, "restore_boundary", (st,))


# run_game(st, tt, players, policies, seed, index): the game's own loop: reset for game `index` of
#     `seed` (unless resumed(st): then go on from the boundary in st), play every round or turn,
#     calling checkpoint(st) at the start of each, score the end; stop early where st.halt_at says
# score_cut_off(st, tt): score a game the search cut off (mcts depth) as if it ended there
# tiebreak(st, tt, s): seat s's tie-break value after the game (higher ranks higher among equals)
# keep_boundary(st): copy the state at a boundary into the snapshot (by default every play field
#     but those the state's dtype leaves unsaved: search.keep_play_fields)
# restore_boundary(st): the state of the snapshot back (search.restore_play_fields)
run_game = hook("run_game", _run_game)
score_cut_off = hook("score_cut_off", _score_cut_off)
tiebreak = hook("tiebreak", _tiebreak)
keep_boundary = hook("keep_boundary", _keep_boundary)
restore_boundary = hook("restore_boundary", _restore_boundary)


def implement(dtypes, keep_boundary=keep_play_fields, restore_boundary=restore_play_fields, **kernels):
    """A game's hooks (run_game=..., score_cut_off=..., tiebreak=...: one kernel each, taking the
    hook's arguments) for its state records of `dtypes` (numpy dtypes)."""
    kernels.update(keep_boundary=keep_boundary, restore_boundary=restore_boundary)
    missing = set(HOOKS) - set(kernels)
    assert not missing, f"hooks not implemented: {sorted(missing)}"
    for name, game_kernel in kernels.items():
        for d in dtypes:
            _GAMES[name, d] = game_kernel
            _GAMES[name, numba.from_dtype(d)] = game_kernel


HOOKS = ("run_game", "score_cut_off", "tiebreak", "keep_boundary", "restore_boundary")


def implemented(dtype) -> set:
    """The hooks a game implemented for its record dtype."""
    return {name for name in HOOKS if (name, dtype) in _GAMES}


@kernel
def nothing_to_score(st, tt):
    """score_cut_off for a game that has nothing left to score at a cut-off (Notre Dame scores as it goes)."""


# ---------------------------------------------------------------- deciding

def decide_as_game(st, tt, p, dp, ctx):
    """The value of the option seat p takes at decision point dp, among st.opts[:st.n_opts]: the
    only option (no decision), else the next scripted value (tests), else the search's choice (a
    search seat's probe or run), else the seat's own policy (`choose`, which a probe keeps in the
    search's history). `overruled(st)` runs when the value taken is not the policy's own (a
    policy that planned ahead with its choice then knows the plan no longer holds).
    (The template of every game's decide: see decider.)"""
    if st.n_opts == 1:
        return st.opts[0]
    i = scripted_option(st)
    if i < 0:
        note_context(st, ctx)
        i = search_choice(st, tt, p, dp)  # noqa: F821 (the game's: decider)
    if i < 0:
        own = choose(st, tt, p, dp, ctx)  # noqa: F821
        i = chosen(st, own)
    else:
        own = -1
    if i != own:
        overruled(st)  # noqa: F821
    return st.opts[i]


@kernel(inline=True)
def nothing_overruled(st):
    """decider's default `overruled`: the game's policies keep no plan across decisions."""


def decider(choose, determinize, overruled=nothing_overruled):
    """A game's decide(st, tt, p, dp, ctx), compiled: decide_as_game with the game's policy
    choose(st, tt, p, dp, ctx) -> the index of its option in st.opts, its determinize(st, tt, p)
    for the search (search.search_choice_of) and overruled(st).

    The game's functions are the new function's globals, not a closure's cells and not a hook:
    numba keys a cached closure by a pickle of its cells, and a compiled function pickles with an
    id of its process, so a closure over the policy would compile again in every process; through
    a hook (an intrinsic, as run_game) the policy would be a function of its own, linked with all
    of its code and optimised once more (Strasbourg's first compile 8% longer), where here it is
    compiled into decide as before. numba caches each game's decide under its state record's type."""
    game = {"__builtins__": builtins, "__name__": __name__, "scripted_option": scripted_option, "chosen": chosen,
            "note_context": note_context,
            "search_choice": search_choice_of(determinize), "choose": choose, "overruled": overruled}
    return kernel(pytypes.FunctionType(decide_as_game.__code__, game, "decide"))


# ---------------------------------------------------------------- resuming a game at a boundary

def on_search_state(searched, plain, doc):
    """A function of the state record: searched(st) for a record with the search's fields, the
    constant `plain` for plain play's (compiled, numba picks one by the record's type, so plain
    play compiles none of it) and as plain Python (which replays a search from the start)."""
    def f(st):
        return plain

    @overload(f)
    def compiled(st):
        if has_search_fields(st):
            return lambda st: searched(st)
        return lambda st: plain

    f.__doc__ = doc
    return f


@kernel
def searched_checkpoint(st):
    if st.s_mode == PROBE or st.s_mode == STEP:
        keep_boundary(st)
        st.s_snap_dec = st.s_dec
        st.s_snap_ok = 1


@kernel
def searched_resumed(st):
    if st.s_resume:
        st.s_resume = 0
        return True
    return False


checkpoint = on_search_state(searched_checkpoint, None, """A game's loop calls this at every boundary
    it can resume from (the start of a turn or round, where everything the game needs is in st): a
    probe keeps the state there, and the next probe and the search's iterations start from it
    instead of the start of the game.""")
resumed = on_search_state(searched_resumed, False, """A game's run_game asks this first: True when
    it is to go on from the boundary restored into st (then it does not reset, and starts its loop
    there), False for a game from the start.""")


@kernel
def restore(st):
    """After begin_probe or begin_iteration: the state of the last boundary a probe kept, if any
    (the driver's controls, search.DRIVER_CONTROLS, stay as begin_* set them)."""
    if st.s_snap_ok:
        restore_boundary(st)
        st.s_dec = st.s_snap_dec
        st.s_resume = 1


# ---------------------------------------------------------------- the driver

@kernel(inline=True)
def play_game(st, tt, players, policies, seed, index):
    """Play game `index` of `seed` to the end; with a search seat by the search's replays.
    Inlined where it is called, so that it is no whole game's code compiled once more."""
    if has_search_seat(policies, players):
        play_searched(st, tt, players, policies, seed, index)
    else:
        run_game(st, tt, players, policies, seed, index)


@kernel
def play_searched(st, tt, players, policies, seed, index):
    """Probe the real game up to a search seat's decision, search it, keep the best option;
    again until the game ends (simcore/search.py). Probes and iterations start from the last
    boundary a probe passed (search.checkpoint), the state restored."""
    begin_game(st, players, policies, seed, index)
    logging = st.logging
    while True:
        begin_probe(st)
        restore(st)
        st.logging = logging
        run_game(st, tt, players, policies, seed, index)
        if not probe_stopped(st):
            break
        search_root(st, tt, players, policies, seed, index)
    end_game(st)


@kernel
def search_root(st, tt, players, policies, seed, index):
    """The search of the decision a probe stopped at: its iterations, then the best option
    appended to the history. An iteration's result per seat: its VP, the tie-break as a fraction
    of a point."""
    budget = begin_search(st, tt)
    for it in range(budget):
        if it % 8 == 0 and settled(st, budget - it):
            break
        begin_iteration(st, it)
        restore(st)
        st.logging = 0
        run_game(st, tt, players, policies, seed, index)
        if st.halted:
            score_cut_off(st, tt)
        for s in range(players):
            st.s_score[s] = st.vp[s] + 1e-6 * tiebreak(st, tt, s)
        end_iteration(st, players)
    best_root_move(st)


# ---------------------------------------------------------------- a stepped game (simcore/step.py)

BEGIN, ADVANCE, SEARCH_HERE, TIEBREAKS = range(4)     # step's commands


@kernel(inline=True)
def step(st, tt, players, policies, seed, index, command, out):
    """The step API's one call into a game (each game's playout.step_kernel): BEGIN game `index`
    of `seed`; ADVANCE it from its last boundary to its next decision of two or more options
    (returns 1: st.s_view holds the state there, s_root_seat/s_root_dp/s_open_ctx the decision and
    s_step_own the seat's policy's choice) or to its end (0, s_view the final state); SEARCH_HERE: the choice of the
    search seat whose decision is open (the search runs as in a searched game; returns the value);
    TIEBREAKS into out[:players] once the game is over. The decisions taken so far are
    st.s_hist[:st.s_n_hist]: each ADVANCE replays those of the turn (round) in progress.

    A game with a search seat advances as its probes do (a policy outside the search draws from a
    stream of its decision); one without, as plain play does (the policies' stream goes on, and
    every policy chooses again where the history's value is taken): either way, taking the seat's
    policy's choice at every decision plays exactly the game play_batch plays."""
    if command == BEGIN:
        begin_game(st, players, policies, seed, index)
        st.s_step = 1
        st.logging = 0
        return 0
    if command == ADVANCE:
        st.s_mode = PROBE if has_search_seat(policies, players) else STEP
        st.s_dec = 0
        st.halt_at = 0
        st.halted = 0
        restore(st)
        run_game(st, tt, players, policies, seed, index)
        if st.s_mode == STOPPED:
            return 1
        keep_view(st)                                   # the end, as the view
        return 0
    if command == SEARCH_HERE:
        search_root(st, tt, players, policies, seed, index)
        st.s_n_hist -= 1
        return st.s_hist[st.s_n_hist]
    for s in range(players):
        out[s] = tiebreak(st, tt, s)
    return 0


@kernel(inline=True)
def play_batch(ws, tables, players, seat_policies, seed, first_index, out_pts, out_seat, out_game,
               out_tiebreak, checking, out_check):
    """Games first_index .. first_index + len(seat_policies) - 1, one after another in ws[0], none
    with a search seat: this batch does not call the search's code, so plain play never compiles
    it. checking: the game's invariant checker after every step; out_check[k] is (violation, round)."""
    st = ws[0]
    tt = tables[0]
    st.logging = 0
    st.checking = checking
    for k in range(seat_policies.shape[0]):
        run_game(st, tt, players, seat_policies[k], seed, first_index + k)
        record(st, tt, k, players, out_pts, out_seat, out_game, out_tiebreak, out_check)


@kernel(inline=True)
def play_search_batch(ws, tables, players, seat_policies, seed, first_index, out_pts, out_seat, out_game,
                      out_tiebreak, checking, out_check):
    """play_batch for a batch with a search seat."""
    st = ws[0]
    tt = tables[0]
    st.logging = 0
    st.checking = checking
    for k in range(seat_policies.shape[0]):
        play_game(st, tt, players, seat_policies[k], seed, first_index + k)
        record(st, tt, k, players, out_pts, out_seat, out_game, out_tiebreak, out_check)


@kernel(inline=True)
def record(st, tt, k, players, out_pts, out_seat, out_game, out_tiebreak, out_check):
    """Game k of a batch, just played in st: its counters, tie-break and first broken invariant."""
    record_game(st, k, players, out_pts, out_seat, out_game)
    for s in range(players):
        out_tiebreak[k, s] = tiebreak(st, tt, s)
    out_check[k, 0] = st.violation
    out_check[k, 1] = st.violation_round
