"""Worked cases TC-R01 .. TC-R11 and TC-D01 .. TC-D19 of docs/strasbourg.md SB-18, the AMB-04
tie-break case and the rule switches (SB-17). Each test names its case and the rules it checks.

Positions are built by hand (builder.py): bundles, seats, coins and goods are set directly, the
option values of the decisions are scripted, and playout / scoring run the steps. The shipped
board is placeholder P0 (SB-19.8); TC-R11, TC-D10, TC-D11 and TC-D15 use their own geometry
(builder.empty_board + site + spot), since their cells are building sites on P0.
"""
import numpy as np
import pytest

from simcore.boardgames.strasbourg import playout, rules, scoring
from simcore.boardgames.strasbourg.state import (
    CAT_BUILDINGS, CAT_CHAPELS, CAT_CITY, CAT_COUNCIL, CAT_PRIVILEGES, CAT_TASKS_MINUS, CAT_TASKS_PLUS,
    CHURCH, DECK_SLOTS, DRAW, EV_BID, EV_CHAPEL, EV_PRIVILEGE, GOODS, GUILD_SLOT, MAX_PLAYERS, MERCHANTS,
    NO_BUY, NO_RETURN, NOBILITY, PASS, PRIVILEGE, SC_PRIVILEGES_SPENT, SC_RETURNED, STOP, SUBPHASES,
    TK_COUNCIL, TK_DIAGONAL, TK_FOUR_BUILDINGS, TK_GOODS_VARIETY, TK_LINE, TK_MOST_CITY, TK_MOST_COINS,
    TK_SQUARE)
from simcore.results import ranks
from tests.games.strasbourg.builder import (
    bundles, cell, deck, empty_board, options, place, position, script, site, spot)

SMITHS, VINTNERS, SHOEMAKERS, BUTCHERS, BAKERS = range(5)
INN, WELL = 0, 1                                     # building indexes of the shipped file (SB-19.3)
SUB = {name: i for i, name in enumerate(SUBPHASES)}  # "A" .. "I" -> 0 .. 8
NICOLE, PETER, SANDRA, THOMAS = range(4)             # the seating of TC-R02 (TC-R09 seats its own)

# P0's vintner district: cell -> printed price (SB-19.8)
VINTNER_SPACES = {cell(0, 3): 4, cell(0, 4): 3, cell(0, 5): 4, cell(1, 3): 3, cell(1, 5): 3,
                  cell(2, 2): 4, cell(2, 3): 3, cell(2, 4): 4, cell(3, 4): 3}
S_T = cell(0, 3)                                     # TC-R03: Thomas's 4-space


# ---------------------------------------------------------------- helpers

def seat(g):
    """SEAT[g], the council seat of guild g (SB-2.1)."""
    return 2 + g


def start(players=4, sp=0, round=1, **switches):
    """A set-up game (SB-3) with start player `sp`: NOBILITY sp, CHURCH sp + 1, other seats empty."""
    st, tt = position(players=players, round=round, **switches)
    st.sp = sp
    st.seat_owner[:] = -1
    st.seat_owner[NOBILITY] = sp
    st.seat_owner[CHURCH] = (sp + 1) % players
    st.logging = 1
    return st, tt


def done(st):
    """Every scripted value was a legal option and was used by a decision."""
    assert st.script_miss == 0
    assert st.script_pos == st.n_script


def guild_at(st, tt, subphase, g):
    """This round's card names guild g at sub-phase B, D or F (tt is the test's own copy)."""
    tt.card_guilds[st.round_card[st.round_no - 1], GUILD_SLOT[subphase]] = g


def bid_round(st, tt, name, *choices, guild=None):
    """Play bidding sub-phase `name` (A..G) with these scripted option values."""
    st.subphase = SUB[name]
    if guild is not None:
        guild_at(st, tt, st.subphase, guild)
    script(st, *choices)
    playout.bidding_subphase(st, tt)
    done(st)


def ranking(st, sp0):
    """The revealers of the last sub-phase, best first (SB-7.6)."""
    ranked = np.empty(MAX_PLAYERS, np.int64)
    k = rules.rank_bids(st, sp0, ranked)
    return [int(p) for p in ranked[:k]]


def generated(fn, st, *args):
    """The options a rules.py generator writes, sorted."""
    fn(st, *args)
    return options(st)


def bottom_card(st, p):
    return int(st.deck[p, (st.deck_top[p] + st.deck_n[p] - 1) % DECK_SLOTS])


def events(st, code):
    """Logged events of one code: (seat, a, b, c)."""
    return [tuple(int(x) for x in row[2:6]) for row in st.ev[:st.n_events] if row[0] == code]


def deciders(st):
    """The seats that revealed or passed, in the order they decided (SB-7.2)."""
    return [e[0] for e in events(st, EV_BID)]


def seats_of(st, p):
    return int(rules.council_seats(st, p))


def sale_choices(st, p):
    """D-8's option count: the product over guilds of the per-guild sale options (SB-15)."""
    n = 1
    for g in range(5):
        n *= int(rules.sale_options(st, p, g))
    return n


def card_of(tt, kind):
    """The first shipped task card of a type (TK number)."""
    return int(np.flatnonzero(tt.task_type == kind)[0])


def met(st, tt, kind, p):
    return bool(scoring.task_met(st, tt, p, card_of(tt, kind)))


def geometry(players=4):
    """A blank city of guild spaces (no sites, no chapel spots) for geometry cases."""
    st, tt = start(players=players)
    empty_board(tt)
    return st, tt


def build(st, tt, b, r, c):
    """Building b on a new site (r, c) of a test's own board."""
    site(tt, r, c)
    st.site_building[cell(r, c)] = b


# ---------------------------------------------------------------- TC-R01 planning and bundles

def set_partitions(items):
    """Every labelled set partition of `items` (a list), as lists of blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in set_partitions(rest):
        yield [[first]] + part
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1:]


def canonical(groups):
    """SB-5.5: each bundle sorted descending, the bundles sorted descending."""
    return tuple(sorted((tuple(sorted(g, reverse=True)) for g in groups), reverse=True))


def test_tc_r01_nicoles_draw():
    """TC-R01, SB-5.2, SB-5.3: DRAW x4 then STOP from a deck of 24 with 5, 2, 2, 3, 6 on top."""
    st, tt = start(players=4, sp=NICOLE)
    deck(st, NICOLE, [5, 2, 2, 3, 6] + [1, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6, 6])
    assert st.deck_n[NICOLE] == 24
    script(st, DRAW, DRAW, DRAW, DRAW, STOP)
    playout.plan(st, tt, NICOLE)
    done(st)                                     # DRAW was offered at every step (24 > 4)
    assert st.hand[NICOLE, :st.hand_n[NICOLE]].tolist() == [5, 2, 2, 3, 6]
    assert st.deck_n[NICOLE] == 19
    assert generated(rules.draw_options, st, NICOLE) == [STOP, DRAW]


@pytest.mark.parametrize("split, sizes", [
    ([[3, 2], [5], [2], [6]], (2, 1, 1, 1)),
    ([[5, 2, 2], [3, 6]], (3, 2)),
    ([[5, 2, 2, 3, 6]], (5,)),
    ([[5], [2], [2], [3], [6]], (1, 1, 1, 1, 1)),
])
def test_tc_r01_legal_splits_and_their_public_view(split, sizes):
    """TC-R01, SB-5.4: these splits of {5,2,2,3,6} are legal; the public view is the bundle sizes."""
    st, _ = start(players=4)
    bundles(st, NICOLE, split)
    n = int(st.n_bundles[NICOLE])
    assert n == len(sizes)
    assert tuple(sorted(st.bundle_size[NICOLE, :n].tolist(), reverse=True)) == sizes
    assert sorted(st.bundle_sum[NICOLE, :n].tolist()) == sorted(sum(g) for g in split)


def test_tc_r01_partitions_of_nicoles_hand():
    """TC-R01, SB-5.5, D-3, D-4: {2,2,3,5,6} has 52 labelled partitions, 36 canonical ones and 7
    size profiles; the engine's bundle identity (multiset keys) tells exactly the 36 apart, and
    D-4 offers one REVEAL per distinct bundle multiset."""
    hand = [5, 2, 2, 3, 6]
    labelled = list(set_partitions(hand))
    assert len(labelled) == 52
    assert len({canonical(p) for p in labelled}) == 36
    views = {}                                   # canonical partition -> engine key multisets
    profiles = set()
    st, tt = start(players=4)
    for groups in labelled:
        bundles(st, NICOLE, groups)
        n = int(st.n_bundles[NICOLE])
        assert n == len(groups)
        assert sorted(st.bundle_sum[NICOLE, :n].tolist()) == sorted(sum(g) for g in groups)
        profiles.add(tuple(sorted(st.bundle_size[NICOLE, :n].tolist(), reverse=True)))
        views.setdefault(canonical(groups), set()).add(tuple(sorted(st.bundle_key[NICOLE, :n].tolist())))
        reveals = [v for v in generated(rules.bid_options, st, tt, NICOLE, 3) if v >= 0]
        assert len(reveals) == len({tuple(sorted(g)) for g in groups})
        assert len({int(st.bundle_key[NICOLE, b]) for b in reveals}) == len(reveals)
    assert all(len(v) == 1 for v in views.values())
    assert len({next(iter(v)) for v in views.values()}) == 36
    assert profiles == {(1, 1, 1, 1, 1), (2, 1, 1, 1), (3, 1, 1), (2, 2, 1), (4, 1), (3, 2), (5,)}


# ---------------------------------------------------------------- TC-R02 .. TC-R05 one guild sub-phase

def tc_r02():
    """TC-R02's table: N = 4, SP = Nicole, bundles Nicole [5], Peter [2,1], Sandra [3,2], Thomas [6]."""
    st, tt = start(players=4, sp=NICOLE)
    bundles(st, NICOLE, [[5]])
    bundles(st, PETER, [[2, 1]])
    bundles(st, SANDRA, [[3, 2]])
    bundles(st, THOMAS, [[6]])
    return st, tt


def play_tc_r02(st, tt, thomas=NO_BUY, nicole=NO_BUY, sandra=GOODS, peter_returns=2):
    """Sub-phase B of VINTNERS: all four reveal in queue order N, P, S, T; then Thomas's D-6,
    Nicole's D-6, Sandra's D-7 and Peter's D-5."""
    bid_round(st, tt, "B", 0, 0, 0, 0, thomas, nicole, sandra, peter_returns, guild=VINTNERS)


def test_tc_r02_bidding_tie_break_and_new_start_player():
    """TC-R02, SB-7.1, SB-7.6, SB-7.7, SB-7.8, SB-8.2, SB-9.2, AMB-03."""
    st, tt = tc_r02()
    play_tc_r02(st, tt)
    assert deciders(st) == [NICOLE, PETER, SANDRA, THOMAS]
    assert st.bid[:4].tolist() == [5, 3, 5, 6]
    assert ranking(st, NICOLE) == [THOMAS, NICOLE, SANDRA, PETER]   # Nicole wins the 5-tie as SP0
    assert st.sp == THOMAS
    # entitled: Thomas Master, Nicole Journeyman, Sandra Apprentice; Peter is not
    assert st.seat_owner[seat(VINTNERS)] == THOMAS
    assert st.goods[:4, VINTNERS].tolist() == [1, 0, 1, 1]
    assert st.seat_count[:4, SC_RETURNED].tolist() == [0, 1, 0, 0]
    # Peter's D-5: return 2 or 1; he returned the 2 under his deck, the 1 left the game
    assert generated(rules.return_options, st, tt, PETER, st.bid_bundle[PETER]) == [1, 2]
    assert st.deck_n[:4].tolist() == [24, 25, 24, 24]
    assert bottom_card(st, PETER) == 2
    # every other revealed card left the game
    assert st.boxed[:4].tolist() == [1, 1, 2, 1]
    assert st.bundle_open[:4, 0].tolist() == [0, 0, 0, 0]
    # the queue of sub-phase C starts at the new start player
    st.n_events = 0
    bid_round(st, tt, "C")
    assert deciders(st) == [THOMAS, NICOLE, PETER, SANDRA]


def test_tc_r03_master():
    """TC-R03, SB-8.2.1, SB-8.4, SB-11.1: Thomas is Master of VINTNERS and buys the 4-space s_T."""
    st, tt = tc_r02()
    st.seat_owner[seat(VINTNERS)] = PETER            # held by someone else
    st.coins[THOMAS] = 5
    assert tt.price[S_T] == 4 and tt.cell_guild[S_T] == VINTNERS
    peter_seats = seats_of(st, PETER)
    play_tc_r02(st, tt, thomas=S_T)
    assert st.seat_owner[seat(VINTNERS)] == THOMAS
    assert seats_of(st, PETER) == peter_seats - 1
    assert st.goods[THOMAS, VINTNERS] == 1
    assert st.cell_owner[S_T] == THOMAS
    assert st.coins[THOMAS] == 1


def test_tc_r04_journeyman_options():
    """TC-R04, SB-8.2.2, SB-8.4, SB-19.8: after Thomas's purchase Nicole may buy any other vintner
    space, priced 3 or 4; s_T is not offered."""
    st, tt = tc_r02()
    for c, price in VINTNER_SPACES.items():          # board-data check: P0's vintner district
        assert (tt.cell_guild[c], tt.price[c]) == (VINTNERS, price)
    assert (tt.cell_guild == VINTNERS).sum() == len(VINTNER_SPACES)
    st.cell_owner[S_T] = THOMAS                      # as after TC-R03
    offered = generated(rules.buy_options, st, tt, NICOLE, VINTNERS, NO_BUY)
    assert offered == sorted([NO_BUY] + [c for c in VINTNER_SPACES if c != S_T])
    assert {int(tt.price[c]) for c in offered if c >= 0} == {3, 4}


@pytest.mark.parametrize("space, price", [(cell(1, 3), 3), (cell(2, 4), 4)])
def test_tc_r04_journeyman_buys(space, price):
    """TC-R04, SB-8.2.2: Nicole takes a vintner good automatically and pays 3 or 4 for her space."""
    st, tt = tc_r02()
    play_tc_r02(st, tt, thomas=S_T, nicole=space)
    assert st.goods[NICOLE, VINTNERS] == 1
    assert st.cell_owner[space] == NICOLE
    assert st.coins[NICOLE] == 5 - price


def test_tc_r05_apprentice_takes_goods():
    """TC-R05, SB-8.2.3, D-7, AMB-06: Sandra takes the good; BUY was offered too, doing nothing was not."""
    st, tt = tc_r02()
    play_tc_r02(st, tt, thomas=S_T, nicole=cell(1, 3), sandra=GOODS)
    assert st.goods[SANDRA, VINTNERS] == 1
    assert st.coins[SANDRA] == 5
    assert rules.city_members(st, SANDRA) == 0
    free = [c for c in VINTNER_SPACES if c not in (S_T, cell(1, 3))]
    assert generated(rules.buy_options, st, tt, SANDRA, VINTNERS, GOODS) == sorted([GOODS] + free)


# ---------------------------------------------------------------- TC-R06 merchants

@pytest.mark.parametrize("name", ["C", "E", "G"])
def test_tc_r06_merchant_sale(name):
    """TC-R06, SB-8.3, D-8, SB-19.2, AMB-22: Nicole sells a weapon, a barrel and a shoe for 12;
    in G she also takes MERCHANTS, in C and E the council does not change."""
    st, tt = start(players=4, sp=NICOLE)
    assert tt.goods_value[SMITHS] + tt.goods_value[VINTNERS] + tt.goods_value[SHOEMAKERS] == 12
    for g in (SMITHS, VINTNERS, SHOEMAKERS):
        st.goods[NICOLE, g] = 1
    bundles(st, NICOLE, [[4]])
    assert sale_choices(st, NICOLE) == 8
    council = st.seat_owner.copy()
    bid_round(st, tt, name, 0, 1, 1, 1)              # reveal, then sell 1 of each guild held
    assert st.goods[NICOLE].tolist() == [0, 0, 0, 0, 0]
    assert st.coins[NICOLE] == 5 + 12
    if name == "G":
        council[MERCHANTS] = NICOLE
    assert st.seat_owner.tolist() == council.tolist()


# ---------------------------------------------------------------- TC-R07, TC-R08 construction

def test_tc_r07_chapel():
    """TC-R07, SB-10.1, D-9, SB-12.1(b), AMB-02: Sandra builds on spot (2,4), which scores (1,3),
    (1,4), (2,3), (2,4); two of her FMs are there, so the chapel gives her +2."""
    st, tt = start(players=4, sp=NICOLE)
    st.seat_owner[CHURCH] = SANDRA
    k = 2
    assert sorted(c for c in tt.spot_cells[k].tolist() if c >= 0) == [cell(1, 3), cell(1, 4), cell(2, 3), cell(2, 4)]
    place(st, SANDRA, (1, 3), (2, 3), (4, 0))
    place(st, THOMAS, (2, 4))
    assert generated(rules.chapel_options, st, tt) == list(range(8))
    st.subphase = SUB["H"]
    script(st, k)
    playout.build_chapel(st, tt)
    done(st)
    assert st.chapel[:8].tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
    assert [e[0] for e in events(st, EV_CHAPEL)] == [SANDRA]     # only Sandra decided D-9
    scoring.final_scoring(st, tt)
    assert st.pts[SANDRA, CAT_CHAPELS] == 2
    assert st.pts[THOMAS, CAT_CHAPELS] == 1


def test_tc_r08_building():
    """TC-R08, SB-10.2, D-10, SB-12.1(c): Thomas builds the inn (4) on site (3,2) next to two of
    his FMs: +8."""
    st, tt = start(players=4, sp=NICOLE)
    st.seat_owner[NOBILITY] = THOMAS
    st.round_building[st.round_no - 1] = INN
    assert tt.building_value[INN] == 4
    place(st, THOMAS, (2, 2), (4, 2), (4, 0))
    sites = [cell(1, 1), cell(1, 4), cell(1, 7), cell(3, 2), cell(3, 5), cell(4, 7), cell(5, 1)]
    assert generated(rules.site_options, st, tt) == sites
    st.subphase = SUB["I"]
    script(st, cell(3, 2))
    playout.build_building(st, tt)
    done(st)
    assert st.site_building[cell(3, 2)] == INN
    scoring.final_scoring(st, tt)
    assert st.pts[THOMAS, CAT_BUILDINGS] == 8


# ---------------------------------------------------------------- TC-R09 privileges

def test_tc_r09_waiting_with_privileges():
    """TC-R09, SB-7.2, SB-7.3, SB-7.4, SB-7.6, AMB-03, AMB-08: the queue after every step, the
    decision order P, S, N, T, no PRIVILEGE when it is pointless, Thomas wins the tie with Peter."""
    thomas, nicole, peter, sandra = range(4)
    st, tt = start(players=4, sp=thomas)
    bundles(st, thomas, [[4], [1]])
    bundles(st, nicole, [[3], [1]])
    bundles(st, peter, [[4], [2]])
    bundles(st, sandra, [[2]])
    st.privileges[thomas] = 3
    st.privileges[nicole] = 1
    bid_round(st, tt, "B",
              PRIVILEGE,                 # 1 T
              PRIVILEGE,                 # 2 N
              0,                         # 3 P reveals [4]
              PASS,                      # 4 S
              PRIVILEGE,                 # 5 T
              0,                         # 6 N reveals [3]
              0,                         # 7 T reveals [4]
              NO_BUY, NO_BUY, GOODS,     # Master T, Journeyman P, Apprentice N
              guild=SMITHS)
    # the queue: every arrival in order; after step k it holds arrivals[k : 4 + privileges so far]
    arrivals = st.queue[:7].tolist()
    assert arrivals == [thomas, nicole, peter, sandra, thomas, nicole, thomas]
    used = [0, 1, 2, 2, 2, 3, 3, 3]
    queues = [arrivals[k:4 + used[k]] for k in range(8)]
    T, N, P, S = thomas, nicole, peter, sandra
    assert queues == [[T, N, P, S], [N, P, S, T], [P, S, T, N], [S, T, N], [T, N], [N, T], [T], []]
    assert [e[0] for e in events(st, EV_PRIVILEGE)] == [T, N, T]
    assert deciders(st) == [P, S, N, T]                          # Thomas decided last
    assert st.privileges[:2].tolist() == [1, 0]
    assert st.seat_count[:2, SC_PRIVILEGES_SPENT].tolist() == [2, 1]
    # step 6: Nicole has none left; step 7: Thomas is last in the queue (SB-7.4)
    assert generated(rules.bid_options, st, tt, nicole, 1) == [PASS, 1]
    assert generated(rules.bid_options, st, tt, thomas, 0) == [PASS, 1]
    assert generated(rules.bid_options, st, tt, thomas, 1) == [PRIVILEGE, PASS, 1]
    # equal bids: Thomas (SP0) beats Peter, though Peter revealed first
    assert st.bid[:4].tolist() == [4, 3, 4, -1]
    assert ranking(st, thomas) == [thomas, peter, nicole]
    assert st.sp == thomas
    assert st.seat_owner[seat(SMITHS)] == thomas
    assert st.goods[:4, SMITHS].tolist() == [1, 1, 1, 0]


# ---------------------------------------------------------------- TC-R10, TC-R11 council and scoring

def hold_seats(st, holders):
    """Council seats by index -> owner; all others empty."""
    st.seat_owner[:] = -1
    for s, p in holders.items():
        st.seat_owner[s] = p


def test_tc_r10_council_after_round_1():
    """TC-R10, SB-11.2: seats Thomas 2, Nicole 2, Peter 1, Sandra 1, two guild seats empty."""
    st, _ = start(players=4)
    hold_seats(st, {NOBILITY: THOMAS, seat(SMITHS): THOMAS, CHURCH: NICOLE, seat(VINTNERS): NICOLE,
                    seat(SHOEMAKERS): PETER, MERCHANTS: SANDRA})
    scoring.council_phase(st)
    assert st.vp[:4].tolist() == [2, 1, 1, 2]                  # Nicole, Peter, Sandra, Thomas
    assert st.pts[:4, CAT_COUNCIL].tolist() == [2, 1, 1, 2]
    assert st.privileges[:4].tolist() == [1, 0, 0, 1]


def test_tc_r11_end_scoring():
    """TC-R11, SB-12.1(a)-(c), AMB-02, AMB-25: the synthetic geometry of SB-18 on a blank board."""
    st, tt = geometry(players=4)
    build(st, tt, INN, 2, 2)
    build(st, tt, WELL, 4, 4)
    assert tt.building_value[INN] == 4 and tt.building_value[WELL] == 3
    k = spot(tt, [(0, 3), (0, 4), (1, 3), (1, 4)])
    st.chapel[k] = 1
    place(st, PETER, (2, 3), (1, 4))
    place(st, SANDRA, (0, 3), (0, 4))
    place(st, THOMAS, (1, 2), (2, 1), (4, 5))
    place(st, NICOLE, (3, 3))
    scoring.final_scoring(st, tt)
    assert st.vp[:4].tolist() == [1, 7, 4, 14]                 # Nicole, Peter, Sandra, Thomas
    assert st.pts[:4, CAT_CITY].tolist() == [1, 2, 2, 3]
    assert st.pts[:4, CAT_CHAPELS].tolist() == [0, 1, 2, 0]
    assert st.pts[:4, CAT_BUILDINGS].tolist() == [0, 4, 0, 11]


# ---------------------------------------------------------------- TC-D01 .. TC-D09 bidding and actions

def test_tc_d01_tie_break_with_five_players():
    """TC-D01, SB-7.6, SB-7.7, SB-7.8, SB-9.2: SP0 = 3; bids 4, 4, 2, pass, 4."""
    st, tt = start(players=5, sp=3)
    for p, group in {0: [4], 1: [3, 1], 2: [2], 3: [5], 4: [2, 2]}.items():
        bundles(st, p, [group])
    bid_round(st, tt, "B", PASS, 0, 0, 0, 0, NO_BUY, NO_BUY, GOODS, guild=SMITHS)
    assert deciders(st) == [3, 4, 0, 1, 2]
    assert st.bid[:5].tolist() == [4, 4, 2, -1, 4]
    assert ranking(st, 3) == [4, 0, 1, 2]
    assert st.sp == 4
    assert st.seat_count[:5, SC_RETURNED].tolist() == [0, 0, 1, 0, 0]   # rank 4 returns its card
    assert st.deck_n[2] == 25 and bottom_card(st, 2) == 2


@pytest.mark.parametrize("name", list("ABCDEFG"))
def test_tc_d02_everyone_passes(name):
    """TC-D02, SB-7.6, SB-7.7, AMB-09: nobody ranked, SP unchanged, no actions, no returns;
    seats from earlier rounds stay."""
    st, tt = start(players=4, sp=2)
    st.seat_owner[seat(BUTCHERS)] = 0
    st.seat_owner[MERCHANTS] = 3
    for p in range(4):
        bundles(st, p, [[p + 2]])
        st.goods[p, BAKERS] = 1
    council = st.seat_owner.copy()
    bid_round(st, tt, name, PASS, PASS, PASS, PASS)
    assert ranking(st, 2) == []
    assert st.sp == 2
    assert st.seat_owner.tolist() == council.tolist()
    assert st.goods[:4].sum() == 4 and st.coins[:4].tolist() == [5, 5, 5, 5]
    assert rules.city_members(st, 0) + rules.city_members(st, 1) + rules.city_members(st, 2) \
        + rules.city_members(st, 3) == 0
    assert st.deck_n[:4].tolist() == [24] * 4 and st.boxed[:4].tolist() == [0] * 4
    assert st.bundle_open[:4, 0].tolist() == [1] * 4


def test_tc_d03_a_with_a_single_revealer():
    """TC-D03, SB-8.1, SB-7.7: only seat 0 reveals in A: it takes NOBILITY and becomes SP."""
    st, tt = start(players=4, sp=2)                   # NOBILITY 2, CHURCH 3
    for p in range(4):
        bundles(st, p, [[3]])
    bid_round(st, tt, "A", PASS, PASS, 0, PASS)       # queue 2, 3, 0, 1
    assert st.seat_owner[NOBILITY] == 0
    assert st.seat_owner[CHURCH] == 3
    assert st.sp == 0
    assert st.deck_n[0] == 24 and st.boxed[0] == 1


@pytest.mark.parametrize("holder", [PETER, THOMAS])
def test_tc_d04_seat_displacement(holder):
    """TC-D04, SB-11.1, SB-8.2.1: Thomas becomes Master of VINTNERS; Peter's FM on the seat goes
    home; if Thomas held it already, nothing changes."""
    st, tt = start(players=4, sp=NICOLE)
    st.seat_owner[seat(VINTNERS)] = holder
    bundles(st, THOMAS, [[6]])
    before = [seats_of(st, p) for p in range(4)]
    bid_round(st, tt, "B", 0, NO_BUY, guild=VINTNERS)
    assert st.seat_owner[seat(VINTNERS)] == THOMAS
    after = [seats_of(st, p) for p in range(4)]
    if holder == PETER:
        assert after[PETER] == before[PETER] - 1
        assert after[THOMAS] == before[THOMAS] + 1
    else:
        assert after == before


def test_tc_d05_council_majority_tie():
    """TC-D05, SB-11.2: seats 3 / 3 / 2 / 0: +3, +3, +2, 0 VP; a privilege to each of the two 3s."""
    st, _ = start(players=4)
    hold_seats(st, {NOBILITY: 0, CHURCH: 0, seat(SMITHS): 0, seat(VINTNERS): 1, seat(SHOEMAKERS): 1,
                    seat(BUTCHERS): 1, seat(BAKERS): 2, MERCHANTS: 2})
    scoring.council_phase(st)
    assert st.vp[:4].tolist() == [3, 3, 2, 0]
    assert st.privileges[:4].tolist() == [1, 1, 0, 0]


@pytest.mark.parametrize("round_no, deck_size, most", [(1, 24, 20), (3, 5, 3), (5, 4, 4), (4, 2, 1)])
def test_tc_d06_deck_reserve(round_no, deck_size, most):
    """TC-D06, SB-5.3, AMB-01: a player who always says DRAW draws `most` cards; then DRAW is no
    longer offered (the last scripted DRAW is never asked for)."""
    st, tt = start(players=3, round=round_no)
    deck(st, 0, [1 + i % 6 for i in range(deck_size)])
    script(st, *[DRAW] * most)
    playout.plan(st, tt, 0)
    assert st.script_miss == 0
    assert st.script_pos == most - 1
    assert st.hand_n[0] == most
    assert st.deck_n[0] == deck_size - most
    assert generated(rules.draw_options, st, 0) == [STOP]


def test_tc_d07_cannot_afford():
    """TC-D07, SB-8.2.2, SB-8.2.3, SB-8.4, D-6, D-7: 2 coins, the cheapest vintner space costs 3:
    the Journeyman is offered only NO_BUY and still gains the good; the Apprentice only GOODS."""
    st, tt = start(players=4, sp=0)
    assert min(VINTNER_SPACES.values()) == 3
    for p, v in enumerate([6, 5, 4]):
        bundles(st, p, [[v]])
        st.coins[p] = 2
    assert generated(rules.buy_options, st, tt, 1, VINTNERS, NO_BUY) == [NO_BUY]
    assert generated(rules.buy_options, st, tt, 2, VINTNERS, GOODS) == [GOODS]
    bid_round(st, tt, "B", 0, 0, 0, guild=VINTNERS)  # no action decision is asked
    assert ranking(st, 0) == [0, 1, 2]
    assert st.goods[:4, VINTNERS].tolist() == [1, 1, 1, 0]
    assert st.coins[:3].tolist() == [2, 2, 2]


def test_tc_d08_full_district():
    """TC-D08, SB-8.4: with every vintner space taken, BUY is never offered, whatever the coins."""
    st, tt = start(players=4, sp=0)
    for c in VINTNER_SPACES:
        st.cell_owner[c] = 3
    for p in range(3):
        st.coins[p] = 99
        assert generated(rules.buy_options, st, tt, p, VINTNERS, NO_BUY) == [NO_BUY]
        assert generated(rules.buy_options, st, tt, p, VINTNERS, GOODS) == [GOODS]
    bundles(st, 0, [[6]])
    bid_round(st, tt, "B", 0, guild=VINTNERS)        # the Master's D-6 is not asked
    assert st.goods[0, VINTNERS] == 1 and st.coins[0] == 99


def test_tc_d09_merchant_options_and_rank_2():
    """TC-D09, SB-8.3, D-8, SB-9.2: goods {SMITHS 2, VINTNERS 1} give 3 x 2 = 6 sale options;
    rank 2 in C gets nothing and returns a card."""
    st, tt = start(players=4, sp=0)
    st.goods[0, SMITHS] = 2
    st.goods[0, VINTNERS] = 1
    assert sale_choices(st, 0) == 6
    assert generated(rules.sale_options, st, 0, SMITHS) == [0, 1, 2]
    bundles(st, 0, [[6]])
    bundles(st, 1, [[3, 1]])
    bid_round(st, tt, "C", 0, 0, 2, 0, 3)           # reveals; sell 2 smiths, 0 vintners; return 3
    assert st.goods[0, :2].tolist() == [0, 1] and st.coins[0] == 5 + 2 * 5
    assert st.goods[1].sum() == 0 and st.coins[1] == 5
    assert st.seat_owner[MERCHANTS] == -1
    assert st.deck_n[1] == 25 and bottom_card(st, 1) == 3 and st.boxed[1] == 1


# ---------------------------------------------------------------- TC-D10 .. TC-D17 tasks and scoring

@pytest.mark.parametrize("kind, cells, expected", [
    (TK_LINE, [(2, 1), (2, 2), (2, 3)], True),
    (TK_LINE, [(2, 1), (2, 2), (3, 2)], False),             # an L-shape
    (TK_LINE, [(2, 1), (2, 3), (2, 4)], False),             # a gap
    (TK_DIAGONAL, [(1, 1), (2, 2), (3, 3)], True),
    (TK_DIAGONAL, [(1, 3), (2, 2), (3, 1)], True),
    (TK_DIAGONAL, [(1, 1), (2, 2), (3, 2)], False),
])
def test_tc_d10_lines(kind, cells, expected):
    """TC-D10, TK-08, TK-09, AMB-13, SB-13.1 (own geometry: every cell a guild space)."""
    st, tt = geometry()
    place(st, 0, *cells)
    assert met(st, tt, kind, 0) is expected


@pytest.mark.parametrize("cells, expected", [
    ([(1, 1), (1, 2), (2, 1), (2, 2)], True),
    ([(1, 1), (1, 2), (2, 2), (2, 3)], False),
])
def test_tc_d11_square(cells, expected):
    """TC-D11, TK-10, AMB-11 (own geometry)."""
    st, tt = geometry()
    place(st, 0, *cells)
    assert met(st, tt, TK_SQUARE, 0) is expected


def place_many(st, p, count, row):
    """`count` FMs of p along one row of a blank board."""
    place(st, p, *[(row, c) for c in range(count)])


@pytest.mark.parametrize("coins, winners", [((11, 9, 10), [True, False, False]),
                                            ((10, 9, 10), [False, False, False])])
def test_tc_d12_strict_majorities(coins, winners):
    """TC-D12, TK-14, TK-15, SB-13: city FMs (5, 5, 3) fulfil TK-14 for no one; coins need a
    strict maximum for TK-15."""
    st, tt = geometry(players=3)
    for p, n in enumerate((5, 5, 3)):
        place_many(st, p, n, row=p)
        st.coins[p] = coins[p]
    assert [met(st, tt, TK_MOST_CITY, p) for p in range(3)] == [False, False, False]
    assert [met(st, tt, TK_MOST_COINS, p) for p in range(3)] == winners


@pytest.mark.parametrize("goods, expected", [({SMITHS: 2, VINTNERS: 1}, False),
                                             ({SMITHS: 1, VINTNERS: 1, BAKERS: 1}, True)])
def test_tc_d13_goods_variety(goods, expected):
    """TC-D13, TK-16."""
    st, tt = start(players=4)
    for g, n in goods.items():
        st.goods[0, g] = n
    assert met(st, tt, TK_GOODS_VARIETY, 0) is expected


@pytest.mark.parametrize("players, seats, expected", [(3, 3, False), (4, 3, True), (5, 2, True)])
def test_tc_d14_council_size(players, seats, expected):
    """TC-D14, TK-13: T(3) = 4, T(4) = 3, T(5) = 2."""
    st, tt = start(players=players)
    hold_seats(st, {s: 0 if s < seats else 1 for s in range(8)})
    assert seats_of(st, 0) == seats
    assert met(st, tt, TK_COUNCIL, 0) is expected


def test_tc_d15_four_buildings_with_a_shared_fm():
    """TC-D15, TK-03, AMB-12: the FM at (1,2) borders b1 and b2; b3 and b4 border other FMs."""
    st, tt = geometry()
    build(st, tt, 0, 1, 1)
    build(st, tt, 1, 1, 3)
    build(st, tt, 2, 4, 1)
    build(st, tt, 3, 4, 7)
    build(st, tt, 4, 0, 8)
    place(st, 0, (1, 2), (4, 2), (4, 6))
    assert met(st, tt, TK_FOUR_BUILDINGS, 0) is True


def test_tc_d16_task_scoring_and_privileges():
    """TC-D16, SB-12.1(d), SB-12.1(e): tasks worth 5 and 4 fulfilled, one worth 3 failed, 2 unused
    privileges: +8 from tasks and privileges."""
    st, tt = start(players=4)
    most_city, council, most_coins = card_of(tt, TK_MOST_CITY), card_of(tt, TK_COUNCIL), card_of(tt, TK_MOST_COINS)
    assert [int(tt.task_prestige[c]) for c in (most_city, council, most_coins)] == [5, 4, 3]
    st.tasks[0, :3] = [most_city, council, most_coins]
    place(st, 0, (4, 0))                                       # the only city FM: TK-14 met
    hold_seats(st, {NOBILITY: 0, CHURCH: 0, MERCHANTS: 0})     # 3 seats with 4 players: TK-13 met
    st.privileges[0] = 2                                       # coins 5 each: TK-15 failed
    scoring.final_scoring(st, tt)
    assert st.pts[0, CAT_TASKS_PLUS] == 9
    assert st.pts[0, CAT_TASKS_MINUS] == -3
    assert st.pts[0, CAT_PRIVILEGES] == 2
    assert st.pts[0, CAT_TASKS_PLUS] + st.pts[0, CAT_TASKS_MINUS] + st.pts[0, CAT_PRIVILEGES] == 8
    assert st.vp[0] == 8 + 1                                   # and 1 for the city FM


@pytest.mark.parametrize("members, expected", [((8, 9, 1), [2, 1, 3]), ((9, 9, 1), [1, 1, 3])])
def test_tc_d17_winner(members, expected):
    """TC-D17, SB-12.3, AMB-24: VP 30 / 30; more city FMs wins, equal counts share the win."""
    st, tt = geometry(players=3)
    for p, n in enumerate(members):
        place_many(st, p, n, row=p)
    tiebreak = np.array([[scoring.tiebreak(st, tt, p) for p in range(3)]])
    assert tiebreak[0].tolist() == list(members)
    assert ranks(np.array([[30, 30, 10]]), tiebreak)[0].tolist() == expected


def test_tc_d18_unused_bundles_leave_unrevealed():
    """TC-D18, SB-9.3, AMB-15: a player who passes through A..G keeps 2 bundles; at the end of the
    round they leave the game unrevealed, and the deck does not change."""
    st, tt = start(players=3, sp=0)
    st.checking = 1
    st.policy[0] = 1                                           # greedy: {6,3} and {1}
    rest = [1] * 3 + [2] * 4 + [3] * 3 + [4] * 4 + [5] * 4 + [6] * 3
    deck(st, 0, [6, 3, 1] + rest)
    plans = [DRAW, DRAW, STOP, STOP, STOP]                     # seat 0 draws 3 cards, seats 1, 2 one
    script(st, *plans, *[PASS] * 21, 0, cell(1, 1))            # 7 sub-phases x 3 passes; H; I
    playout.play_round(st, tt)
    done(st)
    assert st.violation == 0
    assert [e for e in events(st, EV_BID) if e[0] == 0] == [(0, -1, 0, 0)] * 7   # never revealed
    assert st.n_bundles[0] == 0 and st.hand_n[0] == 0
    assert st.boxed[0] == 3
    assert st.deck_n[0] == 21
    assert [int(st.deck[0, (st.deck_top[0] + i) % DECK_SLOTS]) for i in range(21)] == rest


def test_tc_d18_greedy_split_is_two_bundles():
    """TC-D18's premise: the hand {6,3,1} of the greedy player is 2 bundles."""
    st, tt = start(players=3, sp=0)
    st.policy[0] = 1
    deck(st, 0, [6, 3, 1] + [2] * 21)
    script(st, DRAW, DRAW, STOP)
    playout.plan(st, tt, 0)
    done(st)
    assert st.n_bundles[0] == 2
    assert sorted(st.bundle_sum[0, :2].tolist()) == [1, 9]


@pytest.mark.parametrize("apprentice", [GOODS, cell(0, 1)])
def test_tc_d19_apprentice_with_three_players(apprentice):
    """TC-D19, SB-8.2, SB-8.2.3, SB-9.2, D-7: N = 3, bids 6, 5, 3: Master, Apprentice (no
    automatic good), and rank 3 returns a card."""
    st, tt = start(players=3, sp=0)
    bundles(st, 0, [[6]])
    bundles(st, 1, [[5]])
    bundles(st, 2, [[2, 1]])
    assert tt.price[cell(0, 1)] == 5
    bid_round(st, tt, "B", 0, 0, 0, NO_BUY, apprentice, 2, guild=SMITHS)
    assert ranking(st, 0) == [0, 1, 2]
    assert st.seat_owner[seat(SMITHS)] == 0 and st.goods[0, SMITHS] == 1     # Master
    if apprentice == GOODS:
        assert st.goods[1, SMITHS] == 1 and st.coins[1] == 5
    else:
        assert st.goods[1, SMITHS] == 0 and st.coins[1] == 0 and st.cell_owner[apprentice] == 1
    assert generated(rules.return_options, st, tt, 2, st.bid_bundle[2]) == [1, 2]
    assert st.seat_count[:3, SC_RETURNED].tolist() == [0, 0, 1]
    assert st.deck_n[2] == 25 and bottom_card(st, 2) == 2


# ---------------------------------------------------------------- AMB-04 and the rule switches

def test_amb04_ties_use_the_start_player_at_the_start_of_the_sub_phase():
    """AMB-04, SB-7.6, SB-7.7, SB-8.1: SP0 = 0; bids seat 1 -> 6, seat 0 -> 5, seat 3 -> 5: seat 1
    becomes SP, but the 5-tie is broken from SP0, so seat 0 ranks before seat 3."""
    st, tt = start(players=4, sp=0)
    bundles(st, 0, [[5]])
    bundles(st, 1, [[6]])
    bundles(st, 3, [[4, 1]])
    bid_round(st, tt, "A", 0, 0, 0, 4)               # seat 2 has no bundle; seat 3 returns the 4
    assert ranking(st, 0) == [1, 0, 3]
    assert st.sp == 1
    assert st.seat_owner[NOBILITY] == 1 and st.seat_owner[CHURCH] == 0
    assert st.seat_count[:4, SC_RETURNED].tolist() == [0, 0, 0, 1]
    assert bottom_card(st, 3) == 4


@pytest.mark.parametrize("allowed", [False, True])
def test_switch_allow_dominated_privilege_options(allowed):
    """ALLOW_DOMINATED_PRIVILEGE, SB-7.4, AMB-08: PRIVILEGE when last in the queue or without an
    unrevealed bundle is offered only under the switch."""
    st, tt = start(players=3, ALLOW_DOMINATED_PRIVILEGE=allowed)
    st.privileges[0] = 1
    st.privileges[1] = 1
    bundles(st, 0, [[3]])
    assert generated(rules.bid_options, st, tt, 0, 2) == [PRIVILEGE, PASS, 0]   # useful: always
    pointless = [PRIVILEGE, PASS] if allowed else [PASS]
    assert generated(rules.bid_options, st, tt, 0, 0) == pointless + [0]       # last in the queue
    assert generated(rules.bid_options, st, tt, 1, 2) == pointless            # no bundle


def test_switch_allow_dominated_privilege_when_last():
    """ALLOW_DOMINATED_PRIVILEGE, SB-7.3, SB-7.4: the last player spends a privilege, comes back
    to the front of the empty queue and then reveals."""
    st, tt = start(players=3, sp=0, ALLOW_DOMINATED_PRIVILEGE=True)
    for p in range(3):
        bundles(st, p, [[p + 1]])
    st.privileges[2] = 1
    bid_round(st, tt, "C", PASS, PASS, PRIVILEGE, 0)
    assert [e[0] for e in events(st, EV_PRIVILEGE)] == [2]
    assert deciders(st) == [0, 1, 2]
    assert st.privileges[2] == 0 and st.bid[2] == 3 and st.sp == 2


@pytest.mark.parametrize("allowed", [False, True])
def test_switch_allow_dominated_return(allowed):
    """ALLOW_DOMINATED_RETURN, SB-9.2, D-5, AMB-07: 'return nothing' (0) is offered only under the
    switch; choosing it boxes the whole bundle."""
    st, tt = start(players=3, sp=0, ALLOW_DOMINATED_RETURN=allowed)
    bundles(st, 0, [[6]])
    bundles(st, 1, [[5]])
    bundles(st, 2, [[2, 1]])
    bid_round(st, tt, "A", 0, 0, 0, NO_RETURN if allowed else 1)
    expected = [NO_RETURN, 1, 2] if allowed else [1, 2]
    assert generated(rules.return_options, st, tt, 2, st.bid_bundle[2]) == expected
    if allowed:
        assert st.deck_n[2] == 24 and st.boxed[2] == 2
    else:
        assert st.deck_n[2] == 25 and st.boxed[2] == 1 and bottom_card(st, 2) == 1


@pytest.mark.parametrize("take_seat, take_goods", [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_switch_master_parts_optional(take_seat, take_goods):
    """MASTER_PARTS_OPTIONAL, SB-8.2.1, AMB-05, D-11: the Master decides on the seat (0/1), then
    on the good (0/1), then D-6."""
    st, tt = start(players=4, sp=NICOLE, MASTER_PARTS_OPTIONAL=True)
    st.seat_owner[seat(VINTNERS)] = PETER
    bundles(st, THOMAS, [[6]])
    bid_round(st, tt, "B", 0, take_seat, take_goods, NO_BUY, guild=VINTNERS)
    assert st.seat_owner[seat(VINTNERS)] == (THOMAS if take_seat else PETER)
    assert st.goods[THOMAS, VINTNERS] == take_goods


def test_switch_master_parts_automatic_by_default():
    """AMB-05 default: the seat and the good are not asked; only D-6 is."""
    st, tt = start(players=4, sp=NICOLE)
    st.seat_owner[seat(VINTNERS)] = PETER
    bundles(st, THOMAS, [[6]])
    bid_round(st, tt, "B", 0, NO_BUY, guild=VINTNERS)
    assert st.seat_owner[seat(VINTNERS)] == THOMAS
    assert st.goods[THOMAS, VINTNERS] == 1


@pytest.mark.parametrize("city, capped", [(2, True), (0, False)])
def test_switch_fm_limit(city, capped):
    """FM_LIMIT = 3, AMB-16, SB-8.2.1, SB-8.4: with all 3 FMs out (city + council), BUY options
    are only NO_BUY / GOODS and the Master's seat is not taken; the good still is."""
    st, tt = start(players=4, sp=NICOLE, FM_LIMIT=3)
    st.seat_owner[CHURCH] = THOMAS                   # 1 council seat
    place(st, THOMAS, *[(4, c) for c in range(city)])
    st.seat_owner[seat(VINTNERS)] = PETER
    bundles(st, THOMAS, [[6]])
    if capped:
        assert generated(rules.buy_options, st, tt, THOMAS, VINTNERS, NO_BUY) == [NO_BUY]
        assert generated(rules.buy_options, st, tt, THOMAS, VINTNERS, GOODS) == [GOODS]
        bid_round(st, tt, "B", 0, guild=VINTNERS)    # D-6 has one option: not asked
        assert st.seat_owner[seat(VINTNERS)] == PETER
    else:
        bid_round(st, tt, "B", 0, NO_BUY, guild=VINTNERS)
        assert st.seat_owner[seat(VINTNERS)] == THOMAS
    assert st.goods[THOMAS, VINTNERS] == 1


def test_amb07_amb22_merchant_winner_without_goods():
    """AMB-07 (2), AMB-22, SB-8.3, SB-7.8: the G winner with no goods still takes MERCHANTS and, being
    entitled, returns nothing; rank 2 returns a card."""
    st, tt = start(players=3, sp=0)
    bundles(st, 0, [[4, 2]])
    bundles(st, 1, [[3, 1]])
    bid_round(st, tt, "G", 0, 0, 3)                  # reveals; seat 1 returns the 3
    assert st.seat_owner[MERCHANTS] == 0
    assert st.coins[0] == 5
    assert st.seat_count[:3, SC_RETURNED].tolist() == [0, 1, 0]
    assert st.deck_n[:2].tolist() == [24, 25] and st.boxed[:2].tolist() == [2, 1]
