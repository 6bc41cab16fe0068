"""Greedy's weights (`greedy:council=2,coin=0.2`; policies.WEIGHTS, docs/strasbourg.md Players):
for each weight a position on the shipped board where it decides greedy's choice, and the
defaults playing exactly the game's own greedy.

A variant is set up as a run sets it up: its row of the run's policy table (players.lineup) in
tt.search, and its id as the seat's policy. Positions are built by hand (builder.py); the
options come from the rules' own generators and greedy's choice from policies.choose.
"""
import numpy as np
import pytest

from simcore import players
from simcore.boardgames.strasbourg import components, policies, rules
from simcore.boardgames.strasbourg.spec import STRASBOURG
from simcore.boardgames.strasbourg.state import (
    D_APPRENTICE, D_BID, D_MASTER_BUY, D_TASKS, GOODS, NO_BUY, NOBILITY, PASS, SUBPHASES)
from tests.games.strasbourg.builder import GUILDS, bundles, position

SEAT = 1                                         # the greedy seat of every position below
A = SUBPHASES.index("A")                          # nobility and church (SB-6.1)


def playing(st, tt, name):
    """Seat SEAT plays policy `name` (a variant of greedy, or greedy itself) as a run would set it up."""
    name = players.canonical(STRASBOURG, name)
    lineup = players.lineup(STRASBOURG, [name])
    tt.search[:] = lineup.table
    st.policy[SEAT] = lineup.ids([name])[0]


def choice(st, tt, name, dp, ctx=0):
    """The option value greedy `name` takes among the options the generator wrote."""
    playing(st, tt, name)
    return int(st.opts[policies.choose(st, tt, SEAT, dp, ctx)])


# ---------------------------------------------------------------- each weight decides a choice

def bid_position(cards):
    """Round 1, sub-phase A, SEAT at the front of the queue with one bundle of these cards and no
    seat: winning A is worth 1 + 5 round ends of a seat's VP + 2 for the building right = 8 VP."""
    st, tt = position(players=4)
    st.seat_owner[NOBILITY] = 0
    st.subphase = A
    bundles(st, SEAT, [cards])
    rules.bid_options(st, tt, SEAT, 3)
    return st, tt


@pytest.mark.parametrize("name, expected", [("greedy", PASS), ("greedy:council=2", 0)])
def test_council_a_bundle_of_30_is_bid_for_nobility_when_a_seat_is_worth_twice_its_vp(name, expected):
    """30 points at 0.3 VP each (9) cost more than the 8 VP of sub-phase A; with council=2 the
    seat's 5 round ends count 10 VP, A is worth 13, and greedy reveals its bundle (index 0)."""
    st, tt = bid_position([6, 6, 6, 6, 5, 1])
    assert choice(st, tt, name, D_BID, A) == expected


@pytest.mark.parametrize("name, expected", [("greedy", 0), ("greedy:influence=1", PASS)])
def test_influence_a_bundle_of_12_is_kept_back_when_each_point_costs_a_vp(name, expected):
    """12 points at 0.3 VP (3.6) are worth sub-phase A's 8 VP; at 1 VP a point they cost 12, and
    greedy passes."""
    st, tt = bid_position([6, 6])
    assert choice(st, tt, name, D_BID, A) == expected


def guild_position(guild, first):
    """Round 1, SEAT with 5 coins buying in `guild` on the shipped board: the options of D-6
    (first NO_BUY) or D-7 (first GOODS)."""
    st, tt = position(players=4)
    st.coins[SEAT] = 5
    rules.buy_options(st, tt, SEAT, GUILDS[guild], first)
    return st, tt


@pytest.mark.parametrize("name, expected", [("greedy", 12), ("greedy:city=0", NO_BUY)])
def test_city_the_master_buys_only_while_a_space_is_worth_more_than_its_price(name, expected):
    """D-6 among the vintners' spaces: space 12 (3 coins, next to two sites) is worth 2.3 - 1.2 =
    1.1 VP, the most; with city=0 a space is worth nothing and every price a loss: no purchase."""
    st, tt = guild_position("VINTNERS", NO_BUY)
    assert choice(st, tt, name, D_MASTER_BUY, GUILDS["VINTNERS"]) == expected


@pytest.mark.parametrize("name, expected", [("greedy", GOODS), ("greedy:coin=0", 1)])
def test_coin_the_apprentice_takes_the_goods_tile_while_coins_are_worth_something(name, expected):
    """D-7 among the smiths' spaces: a smiths' goods tile (5 coins) is worth 2 VP, more than any
    space less its price (0.3 at best); with coin=0 the tile is worth nothing and the price costs
    nothing, so greedy buys the space worth most, 1 (2.3 VP, next to two sites)."""
    st, tt = guild_position("SMITHS", GOODS)
    assert choice(st, tt, name, D_APPRENTICE, GUILDS["SMITHS"]) == expected


def kept(st, tt, name, dealt):
    """The task cards (D-1) greedy `name` keeps of these 5 dealt to SEAT (4 players)."""
    st.dealt[SEAT, :] = dealt
    st.opts[:31] = np.arange(1, 32)
    st.n_opts = 31
    mask = choice(st, tt, name, D_TASKS)
    return [card for i, card in enumerate(dealt) if mask >> i & 1]


@pytest.mark.parametrize("name, expected", [("greedy", [20]), ("greedy:tasks=3", [18, 8, 10, 20])])
def test_tasks_at_three_times_their_prestige_greedy_keeps_the_riskier_cards(name, expected):
    """Of TK-11 (8 VP, met 15% of the time), TK-05 (4, 30%), TK-07 (3, 50%), TK-17 (2, 40%) and
    TK-13 (4, 50%) greedy keeps only TK-13 (worth 0.5 VP against the 3 VP a failed task costs);
    with their prestige tripled all but TK-17 are worth keeping (over 1 VP each)."""
    st, tt = position(players=4)
    assert [int(tt.task_type[c]) for c in (18, 8, 10, 24, 20)] == [11, 5, 7, 17, 13]
    assert kept(st, tt, name, [18, 8, 10, 24, 20]) == expected


# ---------------------------------------------------------------- the defaults are greedy

def test_greedy_with_every_weight_at_its_default_is_greedy():
    every = ",".join(f"{p.key}={p.default:g}" for p in policies.WEIGHTS)
    assert every == "council=1,city=1,tasks=1,coin=0.4,influence=0.3"
    assert players.canonical(STRASBOURG, f"greedy:{every}") == "greedy"
    assert players.canonical(STRASBOURG, f"g=greedy:{every}") == "g=greedy"


@pytest.mark.parametrize("n", [3, 5])
def test_a_variant_at_the_defaults_plays_the_games_greedy_plays(n):
    """A labelled greedy (an id of its own, weights read from the policy table) against the
    game's own greedy (weights the compiled defaults) at every seat: the same 200 games."""
    data = components.load(None)
    lineup = players.lineup(STRASBOURG, ["greedy", "random", "g=greedy"])
    own = np.tile(lineup.ids(["greedy", "random"] + ["greedy"] * (n - 2)), (200, 1))
    variant = np.tile(lineup.ids(["g=greedy", "random"] + ["g=greedy"] * (n - 2)), (200, 1))
    assert (variant[0] >= 10).sum() == n - 1
    games = [STRASBOURG.play_batch(data, n, seats, 11, 0, search=lineup.table) for seats in (own, variant)]
    assert np.array_equal(games[0].pts, games[1].pts)
    assert np.array_equal(games[0].game, games[1].game)
    assert np.array_equal(games[0].seat, games[1].seat)
