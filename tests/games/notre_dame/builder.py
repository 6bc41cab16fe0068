"""Set up Notre Dame positions by hand for rule tests (docs/notre_dame.md §20 notation).

    st, tt = position(players=4)
    seat(st, 0, bld={"BK": 3}, conf="RS", per=1, gold=0)
    script(st, 2)                      # the values of the options to take, in order
    playout.building_card(st, tt, 0, BANK)

`seat` keeps the invariants: a colour's cubes not placed elsewhere are in its general supply
(or gs= sets that supply, when a test needs fewer cubes in play), and gold a seat is given comes
from the general supply G; `set_gold_supply` sets G directly for the Bank shortfall cases.
"""
import json

import numpy as np

from simcore.boardgames.notre_dame import components
from simcore.boardgames.notre_dame.rules import reset
from simcore.boardgames.notre_dame.state import MAX_PLAYERS, NOWHERE, new_state, new_tables
from decisions_tool import options, script  # noqa: F401 (the builder is where tests find them)

BUILDING_IDS = {"CS": 0, "BK": 1, "RS": 2, "CH": 3, "GH": 4, "PK": 5, "HO": 6}
ALL_CUBES = 14
ALL_GOLD = 25


def data_with(**rules):
    """The shipped data set with some rule switches changed (F_... names of §19)."""
    if not rules:
        return components.load(None)
    with open(components.default_path(), encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["rules"].update(rules)
    return components.from_document(doc, "test")


def position(players=4, seed=1, round=1, data=None, **rules):
    """A freshly set-up game (ND-2) at the start of `round`, all seats random: (st, tt)."""
    data = data or data_with(**rules)
    st = new_state()[0]
    tt = new_tables(data, players)[0]
    reset(st, tt, players, np.zeros(MAX_PLAYERS, np.int8), np.int64(seed), np.int64(0))
    st.round_no = round
    st.start = (st.s0 + round - 1) % players
    return st, tt


def seat(st, p, bld=None, conf="-", per=None, gs=None, gold=None, vp=None, rat=None, nd=None):
    """Give seat p a position. Cubes: bld + per + nd + gs = 14; when gs is not given it is the
    rest. Gold changes move coins between the seat and the general supply."""
    bld = bld or {}
    for name, b in BUILDING_IDS.items():
        st.cubes[p, b] = bld.get(name, 0)
    st.conf[p] = NOWHERE if conf == "-" else BUILDING_IDS[conf]
    if per is not None:
        st.personal[p] = per
    if nd is not None:
        st.nd[p] = nd
    placed = sum(bld.values()) + int(st.personal[p]) + int(st.nd[p])
    st.gsupply[p] = ALL_CUBES - placed if gs is None else gs
    assert gs is None or placed + gs <= ALL_CUBES, "more than 14 cubes"
    if gold is not None:
        st.G += int(st.gold[p]) - gold
        st.gold[p] = gold
    if vp is not None:
        st.vp[p] = vp
        st.pts[p, :] = 0
        st.pts[p, 0] = vp                  # booked to the first category so VP = sum of categories
    if rat is not None:
        st.rat[p] = rat


def set_gold_supply(st, G):
    st.G = G


def count(st, p, name):
    b = BUILDING_IDS[name]
    return int(st.cubes[p, b]) + (1 if st.conf[p] == b else 0)
