"""Set up Strasbourg positions by hand for rule tests (docs/strasbourg.md §SB-18 notation).

    st, tt = position(players=4)
    bundles(st, 0, [[5], [2, 1]])                 # seat 0's bundles this round
    script(st, 0, -1)                             # option values of the next decisions, in order
    playout.bidding_subphase(st, tt)

Boards: the shipped placeholder P0 by default, or `board(...)` for a test's own geometry.
Cells are row * 9 + col.
"""
import json

import numpy as np

from simcore.boardgames.strasbourg import components
from simcore.boardgames.strasbourg.rules import form_bundles, reset
from simcore.boardgames.strasbourg.state import COLS, MAX_PLAYERS, new_state, new_tables
from decisions_tool import options, script  # noqa: F401 (the builder is where tests find them)

GUILDS = {"SMITHS": 0, "VINTNERS": 1, "SHOEMAKERS": 2, "BUTCHERS": 3, "BAKERS": 4}


def cell(r, c):
    return r * COLS + c


def data_with(**rules):
    """The shipped data set with some rule switches changed."""
    if not rules:
        return components.load(None)
    with open(components.default_path(), encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["rules"].update(rules)
    return components.from_document(doc, "test")


def position(players=4, seed=1, round=1, data=None, **rules):
    """A freshly set-up game (SB-3) at the start of `round`, all seats random, no tasks kept:
    (st, tt). The start player is whoever the seed chose; set st.sp and the seats as needed."""
    data = data or data_with(**rules)
    st = new_state()[0]
    tt = new_tables(data, players)[0]
    reset(st, tt, players, np.zeros(MAX_PLAYERS, np.int8), np.int64(seed), np.int64(0))
    st.round_no = round
    return st, tt


def empty_board(tt, guild=0, price=1):
    """Every cell a guild space of `guild` at `price`, no sites, no chapel spots: a blank grid for
    geometry tests; then mark sites with `site` and spots with `spot`."""
    tt.cell_guild[:] = guild
    tt.price[:] = price
    tt.is_site[:] = 0
    tt.n_spots = 0
    tt.spot_cells[:, :] = -1


def site(tt, r, c):
    tt.is_site[cell(r, c)] = 1
    tt.cell_guild[cell(r, c)] = -1


def spot(tt, cells):
    """A chapel spot scoring exactly these (row, col) cells; returns its index."""
    k = tt.n_spots
    tt.spot_cells[k, :] = -1
    for j, (r, c) in enumerate(cells):
        tt.spot_cells[k, j] = cell(r, c)
    tt.n_spots = k + 1
    return k


def place(st, p, *cells):
    """Family members of p on these (row, col) cells."""
    for r, c in cells:
        st.cell_owner[cell(r, c)] = p


def bundles(st, p, groups):
    """p's drawn cards this round, split into these bundles (lists of card values)."""
    i = 0
    for b, group in enumerate(groups):
        for v in group:
            st.hand[p, i] = v
            st.hand_bundle[p, i] = b
            i += 1
    st.hand_n[p] = i
    form_bundles(st, p)


def deck(st, p, cards_top_first):
    """p's deck, top card first."""
    st.deck_top[p] = 0
    st.deck_n[p] = len(cards_top_first)
    for i, v in enumerate(cards_top_first):
        st.deck[p, i] = v
