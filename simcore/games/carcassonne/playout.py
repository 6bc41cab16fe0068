"""One whole Carcassonne game, and the batch kernel the runner calls."""
from numba import njit

from simcore.games.carcassonne.policies import choose_action, choose_entry, choose_placement
from simcore.games.carcassonne.rules import apply_action, draw_placeable, list_ark_entries, place_tile, reset
from simcore.games.carcassonne.scoring import final_scoring, move_ark, score_turn
from simcore.games.carcassonne.state import ARK, MAX_PLAYERS
from simcore.turns import halt_here

GAME_COLUMNS = ("turns", "tiles_discarded")


@njit(cache=True, nogil=True)
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
    n = list_ark_entries(st, tt)
    entry = -1
    if n > 0:
        entry = choose_entry(st, tt, seat, n) if entry_choice < 0 else entry_choice
        st.ark_cell = entry
    return entry


@njit(cache=True, nogil=True)
def log_move(st, seat, t, cell, rot, action, entry):
    i = st.n_moves
    st.mv_seat[i] = seat
    st.mv_type[i] = t
    st.mv_cell[i] = cell
    st.mv_rot[i] = rot
    st.mv_action[i] = action
    st.mv_path_len[i] = 0
    if action >= ARK * 16:
        k = action - ARK * 16
        st.mv_path_len[i] = st.ark_len[k]
        for j in range(st.ark_len[k]):
            st.mv_path[i, j] = st.ark_path[k, j]
    st.mv_entry[i] = entry
    for s in range(MAX_PLAYERS):
        st.mv_score[i, s] = st.score[s]
    st.n_moves += 1
    if st.n_moves < st.mv_n_discards.shape[0]:
        st.mv_n_discards[st.n_moves] = 0


@njit(cache=True, nogil=True)
def play_game(st, tt, players, policies, seed, index):
    """Play game `index` of `seed` to the end, final scoring included (CA-3, CA-10)."""
    reset(st, tt, players, policies, seed, index)
    while st.top < st.n_deck:
        t = draw_placeable(st, tt)
        if t < 0:
            break                       # the pile ran out through discards (CA-10.1b)
        seat = st.seat
        placement = choose_placement(st, tt, t, seat)
        cell = placement // 4
        rot = placement % 4
        place_tile(st, tt, t, rot, cell)
        action = choose_action(st, tt, seat)
        entry = resolve_turn(st, tt, seat, action, -1)
        if st.logging:
            log_move(st, seat, t, cell, rot, action, entry)
        st.turn += 1
        st.seat = (seat + 1) % players
        if halt_here(st, st.turn):
            return
    final_scoring(st, tt)


@njit(cache=True, nogil=True)
def play_batch_kernel(ws, tables, players, seat_policies, seed, first_index, out_pts, out_game):
    """Games first_index .. first_index + len(seat_policies) - 1, one after another in ws[0]."""
    st = ws[0]
    tt = tables[0]
    st.logging = 0
    for k in range(seat_policies.shape[0]):
        play_game(st, tt, players, seat_policies[k], seed, first_index + k)
        for s in range(players):
            for c in range(out_pts.shape[2]):
                out_pts[k, s, c] = st.pts[s, c]
        out_game[k, 0] = st.turn
        out_game[k, 1] = st.discarded
