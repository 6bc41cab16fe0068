"""Task cards TK-01 .. TK-17 (docs/strasbourg.md SB-13) on hand-built final states: for each
type one city that fulfils the shipped card and one that narrowly does not.

Geometry cases use a blank board of guild spaces (builder.empty_board) with their own sites and
chapel spots; guild cases use the shipped placeholder board P0 (SB-19.8). WALL and CORNERS are
the outer ring and the 4 grid corners (AMB-14).
"""
import numpy as np
import pytest

from simcore.boardgames.strasbourg import rules, scoring
from simcore.boardgames.strasbourg.state import (
    CHURCH, MERCHANTS, NOBILITY, TK_BUILDING, TK_CHAPELS, TK_CORNERS, TK_COUNCIL, TK_DIAGONAL,
    TK_EVERY_GUILD, TK_FOUR_BUILDINGS, TK_GOODS_VARIETY, TK_GUILD, TK_LINE, TK_MOST_CITY, TK_MOST_COINS,
    TK_NOBLE_OR_CHURCH, TK_SQUARE, TK_START_PLAYER, TK_THREE_AT_BUILDING, TK_WALL)
from tests.games.strasbourg.builder import cell, empty_board, place, position, site, spot

SMITHS, VINTNERS, SHOEMAKERS, BUTCHERS, BAKERS = range(5)
INN, WELL, E3, E4, E5 = range(5)
ME, OTHER = 0, 1


# ---------------------------------------------------------------- helpers

def board(players=4, blank=True):
    """A set-up game with an empty city and empty council; blank: every cell a guild space."""
    st, tt = position(players=players)
    st.seat_owner[:] = -1
    if blank:
        empty_board(tt)
    return st, tt


def card(tt, kind, params):
    """The shipped task card of this type whose leading parameters are `params` (checked)."""
    for c in np.flatnonzero(tt.task_type == kind):
        if tt.task_param[c, :len(params)].tolist() == list(params):
            return int(c)
    raise AssertionError(f"no shipped TK-{kind:02d} card with parameters {params}")


def met(st, tt, c, p=ME):
    return bool(scoring.task_met(st, tt, p, c))


def build(st, tt, b, r, c):
    """Building b on a new site (r, c)."""
    site(tt, r, c)
    st.site_building[cell(r, c)] = b


def chapel(st, tt, vr, vc):
    """A built chapel on the vertex (vr, vc): it scores the 4 cells around it (AMB-02)."""
    k = spot(tt, [(vr - 1, vc - 1), (vr - 1, vc), (vr, vc - 1), (vr, vc)])
    st.chapel[k] = 1


def hold(st, p, *seats):
    for s in seats:
        st.seat_owner[s] = p


# ---------------------------------------------------------------- TK-01 .. TK-06 buildings, chapels, wall

@pytest.mark.parametrize("mine, theirs, expected", [
    ([(1, 2), (3, 2)], [], True),
    ([(1, 2), (1, 1)], [(3, 2)], False),            # the second FM is diagonal; an opponent's is orthogonal
    ([(1, 6), (3, 6)], [], False),                  # two FMs at the well, not at the inn
])
def test_tk01_depicted_building(mine, theirs, expected):
    """TK-01(INN): at least 2 of p's FMs orthogonally next to the inn (SB-2.4 BADJ)."""
    st, tt = board()
    c = card(tt, TK_BUILDING, [INN, 2])
    build(st, tt, INN, 2, 2)
    build(st, tt, WELL, 2, 6)
    place(st, ME, *mine)
    place(st, OTHER, *theirs)
    assert met(st, tt, c) is expected


def test_tk01_building_never_built():
    """TK-01: if the depicted building was never built, FALSE."""
    st, tt = board()
    c = card(tt, TK_BUILDING, [E5, 2])
    site(tt, 2, 2)                                  # an empty site
    build(st, tt, INN, 2, 6)
    place(st, ME, (1, 2), (3, 2), (1, 6), (3, 6))
    assert met(st, tt, c) is False


@pytest.mark.parametrize("mine, expected", [
    ([(1, 2), (3, 2), (2, 1)], True),
    ([(1, 2), (3, 2), (1, 6), (3, 6)], False),      # 4 FMs next to buildings, but only 2 at each
])
def test_tk02_three_at_the_same_building(mine, expected):
    """TK-02: some building has at least 3 of p's FMs orthogonally next to it."""
    st, tt = board()
    c = card(tt, TK_THREE_AT_BUILDING, [3])
    build(st, tt, INN, 2, 2)
    build(st, tt, WELL, 2, 6)
    place(st, ME, *mine)
    assert met(st, tt, c) is expected


@pytest.mark.parametrize("mine, expected", [
    ([(1, 2), (4, 2), (4, 6)], True),               # (1,2) borders two buildings (AMB-12)
    ([(1, 2), (4, 2), (3, 6)], False),              # (3,6) is diagonal to (4,5): 3 buildings
])
def test_tk03_four_buildings(mine, expected):
    """TK-03, AMB-12: at least 4 buildings have one of p's FMs next to them; one FM may serve two."""
    st, tt = board()
    c = card(tt, TK_FOUR_BUILDINGS, [4])
    for b, (r, col) in enumerate([(1, 1), (1, 3), (4, 1), (4, 5), (2, 8)]):
        build(st, tt, b, r, col)
    place(st, ME, *mine)
    assert met(st, tt, c) is expected


@pytest.mark.parametrize("mine, expected", [
    ([(1, 1), (1, 2), (2, 1), (2, 2), (1, 3)], True),
    ([(1, 1), (1, 2), (2, 2), (2, 3), (4, 6)], False),   # 4 distinct FMs (6 FM-chapel pairs); (4,6)
                                                         # is at an empty spot
])
def test_tk04_next_to_chapels(mine, expected):
    """TK-04, AMB-12: at least 5 distinct FMs of p next to built chapels."""
    st, tt = board()
    c = card(tt, TK_CHAPELS, [5])
    chapel(st, tt, 2, 2)
    chapel(st, tt, 2, 3)
    spot(tt, [(4, 6), (4, 7), (5, 6), (5, 7)])      # no chapel on it
    place(st, ME, *mine)
    assert met(st, tt, c) is expected


@pytest.mark.parametrize("last, expected", [((5, 4), True), ((1, 4), False)])
def test_tk05_wall(last, expected):
    """TK-05, AMB-14: at least 6 of p's FMs on the wall ring; they need not touch."""
    st, tt = board()
    c = card(tt, TK_WALL, [6])
    place(st, ME, (0, 0), (0, 2), (0, 4), (0, 6), (0, 8), last)
    assert met(st, tt, c) is expected


@pytest.mark.parametrize("mine, expected", [
    ([(0, 0), (5, 8)], True),
    ([(0, 0), (0, 1), (1, 0), (5, 7)], False),      # one corner, the others next to corners
])
def test_tk06_corners(mine, expected):
    """TK-06, AMB-14: at least 2 of p's FMs on the 4 corner cells."""
    st, tt = board()
    c = card(tt, TK_CORNERS, [2])
    place(st, ME, *mine)
    assert met(st, tt, c) is expected


# ---------------------------------------------------------------- TK-07 .. TK-11 guilds and shapes

@pytest.mark.parametrize("mine, expected", [
    ([(0, 0), (0, 1), (3, 1)], True),
    ([(0, 0), (0, 1), (0, 3)], False),              # (0,3) is a vintner space; an opponent holds (3,1)
])
def test_tk07_depicted_guild(mine, expected):
    """TK-07(SMITHS), AMB-11: at least 3 of p's FMs in the smiths' district (P0)."""
    st, tt = board(blank=False)
    c = card(tt, TK_GUILD, [SMITHS, 3])
    assert [tt.cell_guild[cell(r, col)] for r, col in [(0, 0), (0, 1), (3, 1), (0, 3)]] == [SMITHS] * 3 + [VINTNERS]
    place(st, ME, *mine)
    if not expected:
        place(st, OTHER, (3, 1))
    assert met(st, tt, c) is expected


@pytest.mark.parametrize("mine, theirs, expected", [
    ([(1, 4), (2, 4), (3, 4)], [], True),           # a column
    ([(2, 1), (2, 3), (2, 4)], [(2, 2)], False),    # an opponent's FM breaks the row
])
def test_tk08_line(mine, theirs, expected):
    """TK-08, AMB-13, SB-13.1: 3 of p's FMs on consecutive cells of a row or column."""
    st, tt = board()
    c = card(tt, TK_LINE, [3])
    place(st, ME, *mine)
    place(st, OTHER, *theirs)
    assert met(st, tt, c) is expected


@pytest.mark.parametrize("mine, expected", [
    ([(3, 6), (4, 7), (5, 8)], True),
    ([(1, 1), (2, 2), (4, 4)], False),              # a gap on the diagonal
])
def test_tk09_diagonal(mine, expected):
    """TK-09, AMB-13: 3 of p's FMs on consecutive cells of a diagonal."""
    st, tt = board()
    c = card(tt, TK_DIAGONAL, [3])
    place(st, ME, *mine)
    assert met(st, tt, c) is expected


@pytest.mark.parametrize("fourth, expected", [(ME, True), (OTHER, False)])
def test_tk10_square(fourth, expected):
    """TK-10, AMB-11: a 2 x 2 block all holding p's FMs (here in the grid's corner)."""
    st, tt = board()
    c = card(tt, TK_SQUARE, [2])
    place(st, ME, (4, 7), (4, 8), (5, 7))
    place(st, fourth, (5, 8))
    assert met(st, tt, c) is expected


EVERY_GUILD_TWICE = [(0, 0), (0, 1), (0, 3), (0, 4), (0, 6), (0, 7), (3, 0), (4, 0), (2, 8), (3, 6)]


@pytest.mark.parametrize("swap, expected", [(None, True), (((3, 6), (0, 2)), False)])
def test_tk11_every_guild(swap, expected):
    """TK-11: at least 2 of p's FMs in every guild (P0); 10 FMs with one baker short fail."""
    st, tt = board(blank=False)
    c = card(tt, TK_EVERY_GUILD, [2])
    cells = [swap[1] if swap and rc == swap[0] else rc for rc in EVERY_GUILD_TWICE]
    place(st, ME, *cells)
    counts = [int(scoring.guild_members(st, tt, ME, g)) for g in range(5)]
    assert counts == ([2] * 5 if expected else [3, 2, 2, 2, 1])
    assert met(st, tt, c) is expected


# ---------------------------------------------------------------- TK-12 .. TK-17 council and resources

def test_tk12_nobility_or_church():
    """TK-12: p holds NOBILITY or CHURCH."""
    st, tt = board()
    c = card(tt, TK_NOBLE_OR_CHURCH, [])
    hold(st, OTHER, NOBILITY)
    hold(st, ME, CHURCH)
    assert met(st, tt, c) is True
    hold(st, OTHER, CHURCH)
    hold(st, ME, *range(2, 8))                      # every guild seat and MERCHANTS, but neither
    assert met(st, tt, c) is False


@pytest.mark.parametrize("players, seats, expected", [
    (3, 4, True), (3, 3, False), (4, 3, True), (4, 2, False), (5, 2, True), (5, 1, False)])
def test_tk13_council(players, seats, expected):
    """TK-13: at least T(N) council seats, T(3) = 4, T(4) = 3, T(5) = 2."""
    st, tt = board(players=players)
    c = card(tt, TK_COUNCIL, [4, 3, 2])
    hold(st, OTHER, *range(8))
    hold(st, ME, *range(seats))
    assert rules.council_seats(st, ME) == seats
    assert met(st, tt, c) is expected


@pytest.mark.parametrize("members, expected", [
    ((3, 2, 2), True),
    ((3, 3, 0), False),                             # a tie for the most
    ((0, 0, 0), False),                             # AMB-21
])
def test_tk14_most_city_members(members, expected):
    """TK-14: strictly more FMs in the city than every other player."""
    st, tt = board(players=3)
    c = card(tt, TK_MOST_CITY, [])
    for p, n in enumerate(members):
        place(st, p, *[(p, col) for col in range(n)])
    assert met(st, tt, c) is expected


@pytest.mark.parametrize("coins, expected", [
    ((6, 5, 5), True),
    ((6, 6, 1), False),                             # a tie for the most
    ((0, 0, 0), False),                             # AMB-21
])
def test_tk15_most_coins(coins, expected):
    """TK-15: strictly more coins than every other player."""
    st, tt = board(players=3)
    c = card(tt, TK_MOST_COINS, [])
    st.coins[:3] = coins
    assert met(st, tt, c) is expected


@pytest.mark.parametrize("goods, expected", [
    ({SMITHS: 1, SHOEMAKERS: 1, BAKERS: 1}, True),
    ({SMITHS: 5, VINTNERS: 5}, False),              # many goods, 2 kinds
])
def test_tk16_goods_variety(goods, expected):
    """TK-16: goods of at least 3 different guilds."""
    st, tt = board()
    c = card(tt, TK_GOODS_VARIETY, [3])
    for g, n in goods.items():
        st.goods[ME, g] = n
    assert met(st, tt, c) is expected


@pytest.mark.parametrize("sp, expected", [(ME, True), (OTHER, False)])
def test_tk17_start_player(sp, expected):
    """TK-17: p holds the SP marker at game end."""
    st, tt = board()
    c = card(tt, TK_START_PLAYER, [])
    st.sp = sp
    hold(st, ME, NOBILITY, CHURCH, MERCHANTS)       # seats do not matter
    assert met(st, tt, c) is expected


def test_every_shipped_task_type_is_covered():
    """SB-13, SB-19.5: the shipped deck holds TK-01 x 5, TK-07 x 5 and one of each other type."""
    kinds = sorted(int(k) for k in position(players=4)[1].task_type)
    assert kinds == [1] * 5 + list(range(2, 7)) + [7] * 5 + list(range(8, 18))
