"""Set up Principato positions by hand for rule tests (docs/principato.md section 23 notation).

    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 0, field=5, farm=2, food=3, mil=(1, 1, 0))   # mil = (empty, food, favour)
    set_supply(st, tt, "food", 20, sink=1)        # seat 1 holds the food the supply gives up
    hand(st, 0, CARD["HARVEST"], CARD["FIELD"])
    activate(st, tt, 0, 0, 1, 2)                  # card 0, overflow x = 1, exchange slot 2

Holdings are counts (state.py H_*); every change here keeps the cubes, tiles and tokens
conserved (INV-4, INV-5) by taking from or returning to st.supply; `assert_conserved` checks it.
Scripted values are the option values of the next decisions with two or more options
(tests/decisions_tool.py); `done` checks they were all legal and all used.
"""
import json

import numpy as np

from simcore.boardgames.principato import components, playout, rules
from simcore.boardgames.principato.state import (
    H_BANK, H_BOOK, H_CATAPULT, H_CON_FAV, H_CON_MONEY, H_CONDOTTIERE, H_FARM, H_FAVOUR, H_FIELD, H_FOOD,
    H_MIL_FAV, H_MIL_FOOD, H_MILITIA, H_MONEY, H_MONUMENT, H_PAINTING, H_PALAZZO, MAX_PLAYERS, N_HOLD,
    new_state, new_tables)
from decisions_tool import options, script  # noqa: F401 (the builder is where tests find them)

DATA = components.load(None)

HOLD_NAMES = ("field", "farm", "palazzo", "bank", "catapult", "monument", "book", "painting", "food", "money",
              "favour", "militia", "mil_food", "mil_fav", "condottiere", "con_money", "con_fav")
SUPPLY_NAMES = ("field_farm", "palazzo_bank", "catapult", "units", "monument", "book", "painting", "food",
                "money", "favour")
EFFECT = {name: i for i, name in enumerate(DATA.effect_ids)}          # effect id -> index
GOAL = {name: i for i, name in enumerate(DATA.goal_ids)}              # goal id -> index (data.goal_ids)
# the first year-deck card of each effect (DATA-3, DATA-4 card instance ids)
CARD = {"HARVEST": 8, "TAXES": 10, "FOOD3": 12, "MONEY3": 13, "MARKET2": 14, "FIELD": 16, "PALAZZO": 18,
        "FARM": 20, "BANK": 21, "CATAPULT_Y12": 22, "MILITIA": 23, "CONDOTTIERI": 24, "MONUMENT": 25,
        "BOOK": 54, "PAINTING": 55, "CATAPULT_Y3": 75}
S1_MARKET2, S2_FIELD, S2_PALAZZO, S2_FARM, S2_BANK = 0, 4, 5, 6, 7
SCORING_Y2, SCORING_Y3 = 98, 99

# what each supply entry counts in a principality (PR-1.2, PR-1.4)
POOL_HOLDS = {
    "field_farm": (H_FIELD, H_FARM), "palazzo_bank": (H_PALAZZO, H_BANK), "catapult": (H_CATAPULT,),
    "units": (H_MILITIA, H_CONDOTTIERE), "monument": (H_MONUMENT,), "book": (H_BOOK,), "painting": (H_PAINTING,),
    "food": (H_FOOD, H_MIL_FOOD), "money": (H_MONEY, H_CON_MONEY), "favour": (H_FAVOUR, H_MIL_FAV, H_CON_FAV)}


def shipped_doc():
    with open(components.default_path(), encoding="utf-8") as fh:
        return json.load(fh)


def data_with(**switches):
    """The shipped data set with some rule switches (the data file's "options") changed."""
    if not switches:
        return DATA
    doc = shipped_doc()
    doc["options"].update(switches)
    return components.from_document(doc, "test")


def position(players=2, seed=1, data=None, sp=None, **switches):
    """A freshly set-up game (PR-3), all seats random: (st, tt). sp sets the start player (and the
    seat to move)."""
    data = data or data_with(**switches)
    st = new_state()[0]
    tt = new_tables(data, players)[0]
    rules.reset(st, tt, players, np.zeros(MAX_PLAYERS, np.int8), np.int64(seed), np.int64(0))
    if sp is not None:
        st.sp = sp
        st.current = sp
    return st, tt


def pool_use(st, p):
    """What p's holdings take out of each supply entry."""
    return {name: sum(int(st.hold[p, h]) for h in holds) for name, holds in POOL_HOLDS.items()}


def set_holdings(st, tt, p, mil=None, con=None, **counts):
    """Set p's counts (HOLD_NAMES; mil=(empty, food, favour), con=(empty, money, favour)); the
    supply gives or takes the difference. Culture tokens are taken from the stacks with their
    printed VP (rules.take_token), so they can only grow."""
    before = pool_use(st, p)
    for kind in ("monument", "book", "painting"):
        t = ("monument", "book", "painting").index(kind)
        for _ in range(counts.pop(kind, st.hold[p, H_MONUMENT + t]) - st.hold[p, H_MONUMENT + t]):
            rules.take_token(st, tt, p, t, rules.next_token(st, tt, t))
        before[kind] = int(st.hold[p, H_MONUMENT + t])
    for name, value in counts.items():
        st.hold[p, HOLD_NAMES.index(name)] = value
    if mil is not None:
        empty, food, fav = mil
        st.hold[p, H_MILITIA], st.hold[p, H_MIL_FOOD], st.hold[p, H_MIL_FAV] = empty + food + fav, food, fav
    if con is not None:
        empty, money, fav = con
        st.hold[p, H_CONDOTTIERE], st.hold[p, H_CON_MONEY], st.hold[p, H_CON_FAV] = empty + money + fav, money, fav
    after = pool_use(st, p)
    for i, name in enumerate(SUPPLY_NAMES):
        st.supply[i] -= after[name] - before[name]


def set_supply(st, tt, name, n, sink):
    """Make the supply of `name` hold n, moving the difference into (or out of) seat sink's holdings:
    stored cubes (with farms or banks enough to hold them; favour beyond the church on militia),
    fields, palazzi, catapults, militia or culture tokens."""
    extra = int(st.supply[SUPPLY_NAMES.index(name)]) - n
    h = st.hold[sink]
    if name == "food":
        food = h[H_FOOD] + extra
        set_holdings(st, tt, sink, food=food, farm=max(h[H_FARM], -(-food // tt.food_per_farm)))
    elif name == "money":
        money = h[H_MONEY] + extra
        set_holdings(st, tt, sink, money=money, bank=max(h[H_BANK], -(-money // tt.money_per_bank)))
    elif name == "favour":
        total = h[H_FAVOUR] + h[H_MIL_FAV] + extra
        church = min(total, tt.church_favour)
        set_holdings(st, tt, sink, favour=church, mil=(h[H_MILITIA] - h[H_MIL_FOOD] - h[H_MIL_FAV],
                                                        h[H_MIL_FOOD], total - church))
    else:
        hold = {"field_farm": "field", "palazzo_bank": "palazzo", "catapult": "catapult", "units": "militia"}
        key = hold.get(name, name)
        if key == "militia":
            set_holdings(st, tt, sink, mil=(h[H_MILITIA] - h[H_MIL_FOOD] - h[H_MIL_FAV] + extra,
                                            h[H_MIL_FOOD], h[H_MIL_FAV]))
        else:
            set_holdings(st, tt, sink, **{key: int(h[HOLD_NAMES.index(key)]) + extra})
    assert st.supply[SUPPLY_NAMES.index(name)] == n


def holdings(st, p, *names):
    """p's counts by name (all of HOLD_NAMES without names)."""
    return {name: int(st.hold[p, HOLD_NAMES.index(name)]) for name in (names or HOLD_NAMES)}


def supply(st, *names):
    return {name: int(st.supply[SUPPLY_NAMES.index(name)]) for name in (names or SUPPLY_NAMES)}


def assert_conserved(st, tt):
    """INV-4, INV-5, INV-6, INV-7: every cube, tile and token is in the supply or one principality;
    storage within its limits; no unit over-loaded; no count negative."""
    for i, name in enumerate(SUPPLY_NAMES):
        held = sum(pool_use(st, p)[name] for p in range(st.players))
        assert st.supply[i] >= 0, name
        assert held + st.supply[i] == tt.supply[i], name
    for p in range(st.players):
        h = st.hold[p]
        assert (h[:N_HOLD] >= 0).all()
        assert h[H_FOOD] <= h[H_FARM] * tt.food_per_farm
        assert h[H_MONEY] <= h[H_BANK] * tt.money_per_bank
        assert h[H_FAVOUR] <= tt.church_favour
        assert h[H_MIL_FOOD] + h[H_MIL_FAV] <= h[H_MILITIA]
        assert h[H_CON_MONEY] + h[H_CON_FAV] <= h[H_CONDOTTIERE]


def hand(st, p, *cards):
    st.hand[p, 0], st.hand[p, 1] = cards


def show(st, tt, cards):
    """The display, slot 0 first (-1 for an empty slot)."""
    st.display[:] = -1
    st.display[:len(cards)] = cards


def shown(st, tt):
    return [int(c) for c in st.display[:tt.display_size]]


def arrange_deck(st, cards_top_first):
    """The current year's draw deck, top card first."""
    st.deck[:len(cards_top_first)] = cards_top_first
    st.deck_pos = 0
    st.deck_n = len(cards_top_first)


def deck_left(st):
    return [int(c) for c in st.deck[st.deck_pos:st.deck_n]]


def done(st):
    """Every scripted value was a legal option and was used by a decision."""
    assert st.script_miss == 0
    assert st.script_pos == st.n_script


def activate(st, tt, p, *values):
    """Action A for p with these scripted option values (DEC-2 .. DEC-8)."""
    script(st, *values)
    playout.activate(st, tt, p)
    done(st)


def turn(st, tt, p, *values):
    """A whole turn of p (two actions or END_TURN) with these scripted option values."""
    script(st, *values)
    playout.take_turn(st, tt, p)
    done(st)


def generated(fn, st, *args):
    """The options a rules.py generator writes into st.opts, sorted."""
    fn(st, *args)
    return options(st)


def moves(st, tt, p, card):
    """rules.option_moves of card for p as a sorted list of (option, f, m, v) (DEC-3/DEC-4)."""
    n = rules.option_moves(st, tt, p, card, st.opts)
    return sorted((int(rules.code_option(c)), int(rules.code_food(c)), int(rules.code_money(c)),
                   int(rules.code_favour(c))) for c in st.opts[:n])


def events(st, code):
    """Logged events of one code: (year, seat, a, b, c)."""
    return [tuple(int(x) for x in row[1:6]) for row in st.ev[:st.n_events] if row[0] == code]


def event_codes(st):
    return [int(row[0]) for row in st.ev[:st.n_events]]
