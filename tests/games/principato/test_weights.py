"""Greedy's weights (`greedy:culture=0`, policies.WEIGHTS; docs/principato.md, Players): on a
position built by hand each weight decides greedy's action (DEC-1: the action, card and move it
plans) one way at its default and another when moved; a weight is the deciding seat's own; every
weight at its default is plain greedy, in its name and in the games it plays."""
import numpy as np
import pytest

from simcore import players, registry
from simcore.search import FIRST_VARIANT_ID, GREEDY_ID
from simcore.boardgames.principato import policies, rules
from simcore.boardgames.principato import spec as principato
from simcore.boardgames.principato.state import ACT_A, ACT_B, END_TURN
from tests.games.principato.builder import CARD, DATA, GOAL, hand, position, set_holdings, show

SPEC = registry.get("principato")
pay = rules.pay_code
# seat 0's principality: the church full (3 favour) and no unit, so a favour (action C) gains
# nothing and the actions compared are the hand cards' (and an exchange)
BASE = dict(field=1, farm=2, palazzo=1, bank=2, food=2, money=3, favour=3)


def seat(st, tt, names):
    """Seats 0, 1, ... play these policies, with the policy table the runner would build."""
    keys = [players.canonical(SPEC, name) for name in names]
    lineup = players.lineup(SPEC, keys)
    tt.search[:] = lineup.table
    st.policy[:len(keys)] = lineup.ids(keys)


def greedy_plan(cards, name, display=(), goals=None, others="greedy", **holdings):
    """What seat 0 playing `name` plans at DEC-1 holding BASE (changed by holdings), the hand
    cards and the display (empty slots after it), seat 1 playing others: (action, hand card,
    move) for A, (ACT_B, the exchange code h * D + s) for B, (END_TURN,) or (ACT_C,)."""
    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 0, **{**BASE, **holdings})
    hand(st, 0, *cards)
    show(st, tt, list(display))
    if goals:
        st.goals[0] = [GOAL[g] for g in goals]
    seat(st, tt, [name, others])
    policies.note_rivals(st, tt, 0)
    kind = policies.plan_action(st, tt, 0)
    if kind == ACT_A:
        return kind, int(st.plan_card), int(st.plan_code)
    if kind == ACT_B:
        return kind, int(st.plan_slot)
    return (kind,)


# ---------------------------------------------------------------- each weight decides

def test_culture_a_monument_at_the_default_two_fields_without_culture():
    """A monument (4 VP, paid 1 food + 2 money) against two fields for 3 money: at culture=0
    the monument is only the cubes it costs."""
    cards = (CARD["MONUMENT"], CARD["FIELD"])
    assert greedy_plan(cards, "greedy") == (ACT_A, 0, pay(0, 1, 2, 0))
    assert greedy_plan(cards, "greedy:culture=0") == (ACT_A, 1, pay(1, 0, 3, 0))


def test_military_a_catapult_at_the_default_two_fields_without_military():
    """A catapult (1 food + 1 money) wins the next scoring's rank against a rival of strength 0
    and counts at the four after it; at military=0 that is nothing and two fields win."""
    cards = (CARD["CATAPULT_Y12"], CARD["FIELD"])
    assert greedy_plan(cards, "greedy") == (ACT_A, 0, pay(0, 1, 1, 0))
    assert greedy_plan(cards, "greedy:military=0") == (ACT_A, 1, pay(1, 0, 3, 0))


def test_goals_a_monument_for_chapel_at_the_default_a_book_without_goals():
    """Holding a painting, a monument makes CHAPEL's first pair (2 VP) on top of its 4 VP; a book
    is 5 VP for 4 food. At goals=0 the pair is worth nothing and the book wins."""
    cards = (CARD["MONUMENT"], CARD["BOOK"])
    chapel = dict(goals=("FERTILE_SOIL", "CHAPEL"), food=4, painting=1)
    assert greedy_plan(cards, "greedy", **chapel) == (ACT_A, 0, pay(0, 1, 2, 0))
    assert greedy_plan(cards, "greedy:goals=0", **chapel) == (ACT_A, 1, pay(0, 4, 0, 0))


def test_production_two_fields_at_the_default_three_money_without_production():
    """Two fields (their farms store what they will harvest) against 3 Money with room for one
    of them: at production=0 fields are only their price."""
    cards = (CARD["FIELD"], CARD["MONEY3"])
    assert greedy_plan(cards, "greedy") == (ACT_A, 0, pay(1, 0, 3, 0))
    assert greedy_plan(cards, "greedy:production=0") == (ACT_A, 1, pay(0, 0, 0, 0))


def test_storage_no_farm_at_the_default_a_farm_at_ten_times_its_value():
    """A farm for 1 money, with no field beyond what the farms store, is worth less than the
    money: greedy ends its turn (the book it cannot pay). At storage=10 it buys the farm."""
    cards = (CARD["FARM"], CARD["BOOK"])
    assert greedy_plan(cards, "greedy", food=0) == (END_TURN,)
    assert greedy_plan(cards, "greedy:storage=10", food=0) == (ACT_A, 0, pay(0, 0, 1, 0))


def test_cubes_three_food_at_the_default_two_fields_without_cubes():
    """3 Food into empty farms against two fields for 3 money: at cubes=0 the food is worth
    nothing and the money costs nothing."""
    cards = (CARD["FOOD3"], CARD["FIELD"])
    assert greedy_plan(cards, "greedy", food=0) == (ACT_A, 0, pay(0, 0, 0, 0))
    assert greedy_plan(cards, "greedy:cubes=0", food=0) == (ACT_A, 1, pay(1, 0, 3, 0))


def test_exchange_a_swap_for_three_food_at_the_default_none_at_a_cost_of_two():
    """Without cubes neither hand card (a book, a painting) can be paid; 3 Food in the display is
    worth 1.8 VP: more than an exchange costs at the default 0.6, less than at exchange=2."""
    cards = (CARD["BOOK"], CARD["PAINTING"])
    broke = dict(display=(CARD["FOOD3"],), food=0, money=0)
    assert greedy_plan(cards, "greedy", **broke) == (ACT_B, 0)                 # hand card 0 for slot 0
    assert greedy_plan(cards, "greedy:exchange=2", **broke) == (END_TURN,)


def test_the_weights_are_the_deciding_seats():
    """Seat 1's weights leave seat 0's plan alone, and seat 0's own decide it."""
    cards = (CARD["CATAPULT_Y12"], CARD["FIELD"])
    assert greedy_plan(cards, "greedy", others="greedy:military=0") == (ACT_A, 0, pay(0, 1, 1, 0))
    assert greedy_plan(cards, "greedy:military=0", others="greedy") == (ACT_A, 1, pay(1, 0, 3, 0))


# ---------------------------------------------------------------- the defaults are greedy

def test_every_weight_at_its_default_is_greedy():
    defaults = ",".join(f"{p.key}={p.default:g}" for p in policies.WEIGHTS)
    assert defaults == "culture=1,military=1,goals=1,production=1,storage=1,cubes=1,exchange=0.6"
    assert players.canonical(SPEC, "greedy:" + defaults) == "greedy"
    assert players.canonical(SPEC, "g=greedy:" + defaults) == "g=greedy"
    assert players.canonical(SPEC, "greedy:exchange=0.6,culture=2") == "greedy:culture=2"


@pytest.mark.parametrize("players_, mix", [(2, (1, 0)), (4, (1, 0, 1, 1))])
def test_a_variant_at_the_defaults_plays_greedys_games(players_, mix):
    """A labelled greedy (a variant's id, its weights read from the policy table) plays the same
    games, chance and all, as greedy itself."""
    keys = [players.canonical(SPEC, "g=greedy")]
    lineup = players.lineup(SPEC, keys)
    assert lineup.ids(keys).tolist() == [FIRST_VARIANT_ID]
    own = np.tile(np.array(mix, np.int8), (300, 1))
    variant = np.where(own == GREEDY_ID, FIRST_VARIANT_ID, own).astype(np.int8)
    a = principato.play_batch(DATA, players_, own, 5, 0)
    b = principato.play_batch(DATA, players_, variant, 5, 0, search=lineup.table)
    for name in ("pts", "game", "seat", "tiebreak"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.pts.sum() > 0
