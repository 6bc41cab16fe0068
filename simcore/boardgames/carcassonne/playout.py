"""One whole Carcassonne game, and the batch kernel the runner calls.

A turn holds up to three decisions (CA-13): the placement, the phase-A action and, once a game,
the Ark's entry tile. Without a search seat the seat's policy makes them (policies.choose_*).
With one, the game is played by replays (simcore/driver.py, simcore/search.py): each decision of two or more
options is counted, forced from the history, handed to the search tree, or left to the seat's
policy; the options are every placement (symmetric rotations merged, CA-13.1), every phase-A
action, or every entry cell, in canonical order (CA-13.6).

The Ark's move is searched as a decision of its own (ARK_MOVE, each outcome an option
ARK * 16 + k) after ARK was chosen among the phase-A actions, as the rulebook lists the choices
(CA-13.4's factored action; the random policy draws the same way). With every outcome a
phase-A option of its own (ARK_APART = False), the 20-60 outcomes drown the few follower
options: the tree gives each a few visits, the search players moved the Ark on ~75% of
their turns and placed half as many followers as greedy, and mcts (200 iterations) had a win
share of 1% in 150 Ark games against greedy (6% with the Ark apart).
"""

import numpy as np

from simcore import driver
from simcore.kernel import kernel
from simcore.search import (
    ASK, OWN_POLICY, PLAY, ROLLOUT, SEARCH, STEP, at_search_root, chosen, copy_field, copy_items, copy_root_options,
    is_greedy, keep_play_fields, kept_item, known_decision, restore_play_fields, root_options_known,
    search_choice_of, seed_decision_stream, stepped_probe)
from simcore.boardgames.carcassonne.policies import (
    choose_action, choose_ark_outcome, choose_entry, choose_listed_placement, choose_placement, determinize,
    greedy_plan)
from simcore.boardgames.carcassonne.rules import (
    apply_action, ark_enters, ball_occupied, board_columns, count_ark_outcomes, draw_placeable, kth_placement,
    link_frontier, list_actions, list_ark_entries, list_ark_outcomes, list_placements, lowest_bit,
    mark_open_cloisters, place_tile, reset, turns_left_of, walk_ark_outcomes)
from simcore.boardgames.carcassonne.scoring import final_scoring, move_ark, score_turn
from simcore.boardgames.carcassonne.components import MAX_SEG
from simcore.boardgames.carcassonne.state import (
    ARK, DIRTY_WORDS, EV_ACTION, EV_ARK_STEP, EV_PLACE, GC_DISCARDED, GC_TURNS, GRID, STATE)
from simcore.turns import halt_here, log_event

PLACEMENT, ACTION, ENTRY, ARK_MOVE = 0, 1, 2, 3   # decision points, as the search tree keys them
ARK_APART = True                        # the Ark's move after ARK, not every outcome an action (see above)


# ---------------------------------------------------------------- the decisions of a searched game

search_choice = search_choice_of(determinize)    # the search's part of a decision (simcore/search.py)


@kernel
def keep(st, value):
    """After the seat's own policy chose `value` among st.opts: a probe keeps it in the history,
    a search expanding its tree may take another option (search.chosen). Returns the value taken."""
    i = 0
    while i < st.n_opts - 1 and st.opts[i] != value:
        i += 1
    return st.opts[chosen(st, i)]


@kernel(inline=True)
def placement_decision(st, tt, t, seat):
    """-> cell * 4 + rotation for the drawn tile t."""
    if st.s_mode == PLAY:
        return choose_placement(st, tt, t, seat)
    if st.s_mode == STEP:
        return stepped_placement(st, tt, t, seat)
    return searched_placement(st, tt, t, seat)


@kernel
def searched_placement(st, tt, t, seat):
    """placement_decision in a probe or search run (simcore/search.py)."""
    root = -1                                           # the option's index at a search run's root
    if st.n_placements == 1:
        placement = kth_placement(st, tt, t, 0, 1)       # one option: not a decision
    else:
        placement = known_decision(st)
        if placement == ROLLOUT:
            return choose_placement(st, tt, t, seat)    # greedy plans its action with it
        if placement == ASK:
            # a search run's root after the first: the same placements as the probe listed
            n = copy_root_options(st) if root_options_known(st) else list_placement_options(st, tt, t)
            i = search_choice(st, tt, seat, PLACEMENT)
            if i == OWN_POLICY:
                own = choose_listed_placement(st, tt, t, seat, n)
                placement = keep(st, own)
                if placement == own:
                    return own
            else:
                placement = st.opts[i]
                if at_search_root(st):
                    root = i
    if st.s_dec >= st.s_n_hist or stepped_probe(st):
        # greedy did not choose this placement (the tree did, or it was replayed) but may choose
        # the action (not forced from the history: as the rollout policy or the tree's first
        # child; in a stepped game also the Ark's move after a forced ARK, probe_ark_move): give
        # it the plan of this placement, not a stale one of an earlier turn
        if root >= 0:
            root_plan(st, tt, t, seat, placement, root)
        elif not rolls_out_without_greedy(st, tt, seat):
            greedy_plan(st, tt, t, seat, placement)
    return placement


@kernel(inline=True)
def rolls_out_without_greedy(st, tt, seat):
    """Whether a search run has left its tree (this placement was its new leaf, or the tree is
    full) with a rollout policy that is no greedy: then no greedy decides this turn's action and
    its plan would never be read (in the Ark the plan weighs every Ark move first)."""
    return st.s_mode == SEARCH and st.t_cur < 0 and not is_greedy(tt, st.policy[seat])


@kernel
def root_plan(st, tt, t, seat, placement, i):
    """greedy_plan for root option i of a search: the root's board is the same in every run, so
    each option's plan is made once a search (it weighs the Ark's every move in the Ark, more
    than the rest of a run's turn) and kept in root_plan under the search's serial."""
    if st.root_plan_of[i] == st.s_serial:
        st.plan = st.root_plan[i]
        return
    greedy_plan(st, tt, t, seat, placement)
    st.root_plan[i] = st.plan
    st.root_plan_of[i] = st.s_serial


@kernel
def stepped_placement(st, tt, t, seat):
    """placement_decision in a stepped game without a search seat (search.STEP): the seat's
    policy chooses as in plain play, and two or more placements are a decision of the step API
    (simcore/step.py), taken from the history or opened there."""
    if st.n_placements < 2:
        return choose_placement(st, tt, t, seat)
    list_placement_options(st, tt, t)
    search_choice(st, tt, seat, PLACEMENT)          # counts the decision, opens it (search.step_decision)
    own = choose_placement(st, tt, t, seat)
    placement = keep(st, own)
    if placement != own:
        greedy_plan(st, tt, t, seat, placement)     # greedy's action then fits the placement taken
    return placement


@kernel
def list_placement_options(st, tt, t):
    """st.opts: every placement of tile t, cell * 4 + rotation, in canonical order (CA-13.6)."""
    n = list_placements(st, tt, t)
    for i in range(n):
        st.opts[i] = st.opt_cell[i] * 4 + st.opt_rot[i]
    st.n_opts = n
    return n


@kernel(inline=True)
def action_decision(st, tt, seat):
    """-> kind * 16 + segment, or ARK * 16 + Ark outcome index (st.ark_path holds its path)."""
    if st.s_mode == PLAY:
        return choose_action(st, tt, seat)
    if st.s_mode == STEP:
        return stepped_action(st, tt, seat)
    return searched_action(st, tt, seat)


@kernel
def stepped_action(st, tt, seat):
    """action_decision in a stepped game without a search seat: the seat's policy chooses as in
    plain play; the step API's decision is the phase-A action, ARK among them as one option, and
    then the Ark's move (ARK_MOVE), as a searched game decides them (ARK_APART), the move being
    the one the policy chose with its action."""
    n = list_actions(st, tt, seat)
    if n < 2:
        return choose_action(st, tt, seat)
    for j in range(n):
        st.opts[j] = st.actions[j]
    st.n_opts = n
    search_choice(st, tt, seat, ACTION)
    own = choose_action(st, tt, seat)
    asked = ARK * 16 if own >= ARK * 16 else own
    action = keep(st, asked)
    if action != ARK * 16:
        return action
    m = list_ark_outcomes(st, tt)                   # the paths resolve_turn moves along
    move = own if own >= ARK * 16 else choose_ark_outcome(st, tt, seat)
    if m < 2:
        return move
    for k in range(m):
        st.opts[k] = ARK * 16 + k
    st.n_opts = m
    search_choice(st, tt, seat, ARK_MOVE)
    return keep(st, move)


@kernel
def searched_action(st, tt, seat):
    """action_decision in a probe or search run (simcore/search.py)."""
    n = list_actions(st, tt, seat)
    if n == 1:
        return st.actions[0]                  # PASS only: not a decision (the Ark always has a move, CA-13.5)
    action = known_decision(st)
    if action == ROLLOUT:
        return choose_action(st, tt, seat)
    if action == ASK:
        if ARK_APART:
            for j in range(n):
                st.opts[j] = st.actions[j]
            st.n_opts = n
        else:
            list_action_options(st, tt, n)
        i = search_choice(st, tt, seat, ACTION)
        if i == OWN_POLICY:
            own = choose_action(st, tt, seat)
            asked = ARK * 16 if ARK_APART and own >= ARK * 16 else own
            action = keep(st, asked)
            if action == asked:
                if ARK_APART and own >= ARK * 16:
                    # the move is a decision of its own, also when it is the first outcome
                    # (own == asked): a replay asks it (ark_move_decision)
                    keep_ark_move(st, tt, seat, own)
                return own
        else:
            action = st.opts[i]
    if ARK_APART and action == ARK * 16:
        return ark_move_decision(st, tt, seat)
    if action >= ARK * 16:
        list_ark_outcomes(st, tt)             # a replayed Ark move: its path, for resolve_turn
    return action


@kernel
def ark_move_decision(st, tt, seat):
    """-> ARK * 16 + outcome, once ARK is the action: the Ark's move is a decision of its own.
    In a search's run the outcomes are counted and only the one taken is walked to (its path,
    for resolve_turn), as random_ark_move does, where listing every path cost a fifth of a
    searched Ark game; elsewhere they are listed (a stepped game's view shows every path)."""
    searching = st.s_mode == SEARCH
    occ = ball_occupied(st, st.ark_cell) if searching else np.uint64(0)
    m = count_ark_outcomes(st, tt, occ) if searching else list_ark_outcomes(st, tt)
    st.n_ark = m
    if m == 1:
        move = ARK * 16
    else:
        move = known_decision(st)
        if move == ROLLOUT:
            return choose_ark_outcome(st, tt, seat)
        if move == ASK:
            for k in range(m):
                st.opts[k] = ARK * 16 + k
            st.n_opts = m
            i = search_choice(st, tt, seat, ARK_MOVE)
            if i == OWN_POLICY:
                move = keep(st, probe_ark_move(st, tt, seat) if stepped_probe(st) else choose_ark_outcome(st, tt, seat))
                if searching:
                    count_ark_outcomes(st, tt, occ)     # again: greedy's list took the scratch the walk reads
            else:
                move = st.opts[i]
    if searching:
        walk_ark_outcomes(st, tt, move - ARK * 16, occ)
    return move


@kernel
def probe_ark_move(st, tt, seat):
    """The seat's policy's Ark move in a stepped game's probe, its ARK taken from the history:
    the move it chose with its action at that decision (a searched game's probe keeps both at
    once: keep_ark_move), or, when ARK was not its action, its choice of a move now."""
    seed_decision_stream(st, st.s_dec - 2)          # the stream of the action's decision
    own = choose_action(st, tt, seat)
    if own >= ARK * 16:
        return own
    seed_decision_stream(st, st.s_dec - 1)
    return choose_ark_outcome(st, tt, seat)


@kernel
def keep_ark_move(st, tt, seat, action):
    """A probe's frontier: the seat's policy chose the Ark's move with its action; keep the move
    as the policy's answer to the ARK_MOVE decision that follows ARK."""
    m = list_ark_outcomes(st, tt)
    if m >= 2 and known_decision(st) == ASK:
        for k in range(m):
            st.opts[k] = ARK * 16 + k
        st.n_opts = m
        if search_choice(st, tt, seat, ARK_MOVE) == OWN_POLICY:
            keep(st, action)


@kernel
def list_action_options(st, tt, n):
    """st.opts: the n phase-A options of st.actions with ARK replaced by each Ark outcome."""
    k = 0
    for j in range(n):
        a = st.actions[j]
        if a == ARK * 16:
            for o in range(list_ark_outcomes(st, tt)):
                st.opts[k] = ARK * 16 + o
                k += 1
        else:
            st.opts[k] = a
            k += 1
    st.n_opts = k


@kernel
def entry_decision(st, tt, seat, n):
    """-> the cell where the Ark enters, one of st.tmp[:n]."""
    if st.s_mode == PLAY:
        return choose_entry(st, tt, seat, n)
    if st.s_mode == STEP:
        return stepped_entry(st, tt, seat, n)
    if n == 1:
        return st.tmp[0]
    entry = known_decision(st)
    if entry == ROLLOUT:
        return choose_entry(st, tt, seat, n)
    if entry == ASK:
        for i in range(n):
            st.opts[i] = st.tmp[i]
        st.n_opts = n
        i = search_choice(st, tt, seat, ENTRY)
        if i == OWN_POLICY:
            return keep(st, choose_entry(st, tt, seat, n))
        entry = st.opts[i]
    return entry


@kernel
def stepped_entry(st, tt, seat, n):
    """entry_decision in a stepped game without a search seat."""
    if n < 2:
        return choose_entry(st, tt, seat, n)
    for i in range(n):
        st.opts[i] = st.tmp[i]
    st.n_opts = n
    search_choice(st, tt, seat, ENTRY)
    return keep(st, choose_entry(st, tt, seat, n))


# ---------------------------------------------------------------- a turn and a game


@kernel(inline=True)
def resolve_turn(st, tt, seat, action, entry_choice):
    """Phases A, S and E of a turn (CA-3.3) once the tile lies on the board.

    action: kind * 16 + segment, or ARK * 16 + Ark outcome index (from rules.list_ark_outcomes).
    entry_choice: -1 lets the seat's policy choose the Ark's entry tile, else that cell.
    Returns the Ark's entry cell, -1 if it did not enter this turn."""
    if action >= ARK * 16:
        k = action - ARK * 16
        move_ark(st, tt, seat, st.ark_path[k], st.ark_len[k])
    else:
        apply_action(st, tt, seat, action)
    score_turn(st, tt)
    # the Ark enters only after a completed feature while it is off the board: most turns, and
    # every turn of the base game, need not call list_ark_entries to learn there is no entry
    n = list_ark_entries(st, tt) if st.n_completed > 0 and st.ark_cell < 0 else 0
    entry = -1
    if n > 0:
        entry = entry_decision(st, tt, seat, n) if entry_choice < 0 else entry_choice
        ark_enters(st, seat, entry)
    return entry


@kernel
def log_move(st, seat, t, cell, rot, action):
    """The move log's entries of the seat's move, before it scores (st.logging on): the tile
    placed, the phase-A action and, for an Ark move, each tile the Ark enters (the action names
    the move by its index among the turn's outcomes only)."""
    log_event(st, EV_PLACE, seat, t, cell, rot)
    log_event(st, EV_ACTION, seat, action, 0, 0)
    if action >= ARK * 16:
        k = action - ARK * 16
        for j in range(st.ark_len[k]):
            log_event(st, EV_ARK_STEP, seat, st.ark_path[k, j], 0, 0)


@kernel
def run_game(st, tt, players, policies, seed, index):
    """Play game `index` of `seed` to the end, final scoring included (CA-3, CA-10), or on from
    the turn a search restored (driver.resumed)."""
    if not driver.resumed(st):
        reset(st, tt, players, policies, seed, index)
    while st.top < st.n_deck:
        if st.s_mode != PLAY:           # plain play keeps no boundary (searched_checkpoint): no call a turn
            driver.checkpoint(st)
        t = draw_placeable(st, tt)
        if t < 0:
            break                       # the pile ran out through discards (CA-10.1b)
        seat = st.seat
        placement = placement_decision(st, tt, t, seat)
        cell = placement // 4
        rot = placement % 4
        place_tile(st, tt, t, rot, cell)
        action = action_decision(st, tt, seat)
        if st.logging:
            log_move(st, seat, t, cell, rot, action)
        resolve_turn(st, tt, seat, action, -1)
        st.round_no += 1
        st.seat = seat + 1 if seat + 1 < players else 0     # not %: a division every turn
        if halt_here(st, st.round_no):
            return
    final_scoring(st, tt, 0.0)                      # the end: no outlook
    st.game_count[GC_TURNS] = st.round_no
    st.game_count[GC_DISCARDED] = st.discarded


# ---------------------------------------------------------------- the shared driver (simcore/driver.py)

@kernel
def no_tiebreak(st, tt, s):
    """Carcassonne has no tie-break: tied players share the win (CA-10.4, AMB-17)."""
    return 0


@kernel
def keep_turn(st):
    """driver.keep_boundary: the state at the start of a turn into the search's snapshot, the
    segments and the cities' fields as far as they are in use, and the board's requirement keys
    in the columns of its tiles and frontier (state.py), which restore_turn reads a cell at a time."""
    st.kept_placed = st.n_placed
    st.kept_lo, st.kept_hi = board_columns(st)
    st.seg_dirty[:] = 0
    keep_play_fields(st)
    copy_turn_fields(st, True)
    copy_field(st, "req", st.kept_lo, st.kept_hi, True)


@kernel
def restore_turn(st):
    """driver.restore_boundary: the snapshot back, and of the board only what the run changed:
    the cells of the tiles it laid (empty again) and their neighbours' requirement keys, where
    copying the board's columns back moved some 20 KB a run; then the frontier's links, made
    again from its bits (they are valid at frontier cells only), and the open temples and
    monasteries marked near their cells (occupied and cloister_near are not copied)."""
    mark_open_cloisters(st, False)
    for i in range(st.kept_placed, st.n_placed):
        cell = np.int64(st.p_cell[i])
        st.cell_pidx[cell] = -1
        st.occupied[cell >> 6] &= ~(np.uint64(1) << np.uint64(cell & 63))
        for k in range(5):
            c = cell + NEIGHBOURHOOD[k]
            st.req[c] = kept_item(st, "req", c) if st.kept_lo <= c < st.kept_hi else 255
    restore_play_fields(st)
    copy_turn_fields(st, False)
    link_frontier(st)
    mark_open_cloisters(st, True)


NEIGHBOURHOOD = np.array([0, 1, -1, GRID, -GRID], dtype=np.int64)   # a cell and the four it touches


@kernel
def copy_turn_fields(st, save):
    """The fields keep_turn and restore_turn copy as far as they are in use, to the snapshot
    (save) or back; n_placed and n_cities_done are the snapshot's already. A restore puts back
    the segments of the tiles the run changed (seg_dirty: under the features it joined, gave a
    figure or scored, and the paths find shortened), each tile's own only, four records at a time
    (3.4 a tile on average, of MAX_SEG slots): a record past them is never read, nor written after
    the tile is placed, where one copy of every slot moved 768 bytes a tile, most of a run's
    restore."""
    if save:
        copy_field(st, "seg", 0, st.n_placed * MAX_SEG, True)
    else:
        for w in range(DIRTY_WORDS):
            dirty = st.seg_dirty[w]
            st.seg_dirty[w] = 0
            while dirty:
                i = w * 64 + lowest_bit(dirty)
                dirty &= dirty - np.uint64(1)
                if i >= st.n_placed:
                    break               # a tile the run laid: its records are written anew when it is
                base = i * MAX_SEG
                for first in range(0, st.type_segs[st.p_type[i]], 4):
                    copy_items(st, "seg", base + first, 4, False)
    copy_field(st, "city_field_nodes", 0, st.city_field_at[st.n_cities_done], save)


# What a follower still in supply is worth at a cut-off, in points, while SUPPLY_TURNS or more
# turns are left (less, in proportion, near the end). The end scoring pays every follower on the
# board its feature's points and one in supply nothing, so with the end scoring alone a search
# that cuts its runs off spends its followers as soon as it can; under the rulebook's
# EMPTY_SUPPLY_TILE_ONLY a player with none left only places tiles, no prophet and no Ark move,
# and the Ark's mcts (depth 8) won only 47% of 200 games against greedy, searching 50 of the
# 90 decisions it searches with the switch off (88.5%).
SUPPLY_VALUE = 2.0
SUPPLY_TURNS = 8.0


# A city still open at a cut-off is scored as the end scores it, a point a tile and a pennant or
# scroll, though it may yet be completed for twice that: its majority is credited CITY_OUTLOOK
# times greedy's chance of completing it (scoring.completion_chance) of the difference. Against
# greedy, base game, 1,000 games (seed 1) at 500 iterations: 64.2% with the end scoring alone
# (600 games), 71.8% with 0.5, 73.4% with 0.7, 70.8% with 1.0, 63.9% with 1.5; crediting
# monasteries likewise (half the missing neighbours, as greedy weighs them) lost 5 points.
CITY_OUTLOOK = 0.7


@kernel
def score_cut_off(st, tt):
    """driver.score_cut_off: the end scoring of the position, the open cities' outlook, and the
    followers still in supply."""
    final_scoring(st, tt, CITY_OUTLOOK)
    worth = SUPPLY_VALUE * min(1.0, turns_left_of(st) / SUPPLY_TURNS)
    for s in range(st.players):
        st.vp[s] += np.int32(round(worth * st.supply[s]))


driver.implement((STATE,), run_game=run_game, score_cut_off=score_cut_off, tiebreak=no_tiebreak,
                 keep_boundary=keep_turn, restore_boundary=restore_turn)


@kernel
def play_game(st, tt, players, policies, seed, index):
    """One whole game, with a search seat by the search's replays (driver.play_game)."""
    driver.play_game(st, tt, players, policies, seed, index)


@kernel
def play_batch_kernel(ws, tables, players, seat_policies, seed, first_index, out_pts, out_seat, out_game,
                      out_tiebreak, checking, out_check):
    """A batch without a search seat into the result arrays (driver.play_batch)."""
    driver.play_batch(ws, tables, players, seat_policies, seed, first_index, out_pts, out_seat, out_game,
                      out_tiebreak, checking, out_check)


@kernel
def step_kernel(ws, tables, players, policies, seed, index, command, out):
    """The step API's call into the game in ws[0] (driver.step; arrays, not records: numba
    types a record argument anew at every call, 50 us, an array of records from a cache)."""
    return driver.step(ws[0], tables[0], players, policies, seed, index, command, out)


@kernel
def search_batch_kernel(ws, tables, players, seat_policies, seed, first_index, out_pts, out_seat, out_game,
                        out_tiebreak, checking, out_check):
    """A batch with a search seat into the result arrays (driver.play_search_batch)."""
    driver.play_search_batch(ws, tables, players, seat_policies, seed, first_index, out_pts, out_seat, out_game,
                             out_tiebreak, checking, out_check)
