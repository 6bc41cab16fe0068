"""Action A (PR-6) and the 16 card effects (PR-17) of docs/principato.md: legal options and
payments (PR-9, DEC-3/DEC-4), gains (PR-10), storage overflow (PR-10.3/10.4, DEC-6), supply
exhaustion (AMB-11), tile-pool shortage (AMB-10), culture tokens (AMB-9), recruits (DEC-5), and
worked examples EX-7, EX-8, EX-9, EX-10, EX-14, EX-15.

Engine default that differs from the specification on purpose (the rulebook wins): the catapult
cards' expensive option gives 1 catapult (options.catapult_big_option_gain = 1, as the Hungarian
rulebook prints it); the specification's AMB-1 value 2 is the switch's alternative. Both are tested.
"""
import pytest

from simcore.boardgames.principato import playout, rules
from simcore.boardgames.principato.state import (
    ACT_A, ACT_B, ACT_C, END_TURN, H_FOOD, H_MONEY, LOSE, SC_LOST, TO_CONDOTTIERE)
from tests.games.principato.builder import (
    CARD, DATA, EFFECT, activate, assert_conserved, data_with, done, generated, holdings, moves, options, position,
    script, set_holdings, set_supply, shown, supply, turn)

pay = rules.pay_code
OTHER = 9                      # HARVEST#9: a second hand card that can always be activated (AMB-12)
BASE = dict(field=3, farm=2, palazzo=2, bank=2, food=3, money=3, favour=1)


def effect_position(card, players=2, switches=None, **holdings_):
    """Seat 0 (start player) holds BASE (changed by holdings_) and the hand [card, HARVEST#9];
    switches: rule switches of the data file's options."""
    st, tt = position(players=players, sp=0, **(switches or {}))
    set_holdings(st, tt, 0, **{**BASE, **holdings_})
    st.hand[0] = [card, OTHER]
    return st, tt


def delta(before, after):
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


# ---------------------------------------------------------------- PR-17: the 16 effects

# effect, holdings over BASE, legal moves (option, f, m, v), scripted values after the card
# (DEC-3/4 code, DEC-5 count, DEC-6 count, DEC-7 slot), holding changes, supply changes
EFFECTS = [
    ("BANK", {}, [(0, 0, 0, 1), (0, 1, 0, 0), (1, 2, 0, 1), (1, 3, 0, 0)], [pay(1, 3, 0, 0)],
     {"food": -3, "bank": 2}, {"food": 3, "palazzo_bank": -2}),
    ("CATAPULT_Y12", {}, [(0, 0, 1, 1), (0, 1, 0, 1), (0, 1, 1, 0), (1, 2, 2, 1), (1, 3, 1, 1), (1, 3, 2, 0)],
     [pay(1, 2, 2, 1)], {"food": -2, "money": -2, "favour": -1, "catapult": 1},
     {"food": 2, "money": 2, "favour": 1, "catapult": -1}),
    ("FIELD", {}, [(0, 0, 0, 1), (0, 0, 1, 0), (1, 0, 2, 1), (1, 0, 3, 0)], [pay(1, 0, 2, 1)],
     {"money": -2, "favour": -1, "field": 2}, {"money": 2, "favour": 1, "field_farm": -2}),
    ("TAXES", {"money": 1}, [(0, 0, 0, 0)], [1], {"money": 2}, {"money": -2}),
    ("PAINTING", {"bank": 3, "money": 5}, [(0, 0, 4, 1), (0, 0, 5, 0)], [pay(0, 0, 4, 1)],
     {"money": -4, "favour": -1, "painting": 1}, {"money": 4, "favour": 1, "painting": -1}),
    ("CATAPULT_Y3", {}, [(0, 0, 0, 1), (0, 1, 0, 0), (1, 1, 1, 1), (1, 2, 0, 1), (1, 2, 1, 0)],
     [pay(1, 2, 1, 0)], {"food": -2, "money": -1, "catapult": 1}, {"food": 2, "money": 1, "catapult": -1}),
    ("FARM", {}, [(0, 0, 0, 1), (0, 0, 1, 0), (1, 0, 2, 1), (1, 0, 3, 0)], [pay(0, 0, 1, 0)],
     {"money": -1, "farm": 1}, {"money": 1, "field_farm": -1}),
    ("PALAZZO", {}, [(0, 0, 0, 1), (0, 1, 0, 0), (1, 2, 0, 1), (1, 3, 0, 0)], [pay(0, 0, 0, 1)],
     {"favour": -1, "palazzo": 1}, {"favour": 1, "palazzo_bank": -1}),
    ("HARVEST", {"food": 1}, [(0, 0, 0, 0)], [1], {"food": 3}, {"food": -3}),
    ("CONDOTTIERI", {}, [(0, 0, 0, 0)], [2], {"condottiere": 2}, {"units": -2}),
    ("MILITIA", {}, [(0, 0, 0, 0)], [3], {"militia": 3}, {"units": -3}),
    ("MONUMENT", {}, [(0, 0, 2, 1), (0, 1, 1, 1), (0, 1, 2, 0), (1, 2, 0, 1), (1, 2, 1, 0)], [pay(1, 2, 1, 0)],
     {"food": -2, "money": -1, "monument": 1}, {"food": 2, "money": 1, "monument": -1}),
    ("MARKET2", {"food": 1, "money": 1}, [(0, 0, 0, 0), (1, 0, 0, 0), (2, 0, 0, 0)], [1, 1],
     {"food": 1, "money": 1}, {"food": -1, "money": -1}),
    ("MONEY3", {"money": 1}, [(0, 0, 0, 0)], [1], {"money": 3}, {"money": -3}),
    ("FOOD3", {"food": 1}, [(0, 0, 0, 0)], [1], {"food": 3}, {"food": -3}),
    ("BOOK", {"food": 4}, [(0, 3, 0, 1), (0, 4, 0, 0)], [pay(0, 4, 0, 0)],
     {"food": -4, "book": 1}, {"food": 4, "book": -1}),
]
EXCHANGE = {"HARVEST", "TAXES", "FOOD3", "MONEY3", "MARKET2"}        # DATA-4: the producing cards


def test_pr17_every_effect_is_tested():
    assert sorted(e[0] for e in EFFECTS) == sorted(CARD)
    assert len(EFFECTS) == 16


@pytest.mark.parametrize("name, extra, legal, values, gains, supplies", EFFECTS, ids=[e[0] for e in EFFECTS])
def test_pr17_effect(name, extra, legal, values, gains, supplies):
    """PR-17, PR-6.1, PR-9.3 (favour replaces any food or money), PR-10.1: the legal (option,
    payment) moves, then the chosen move's cost and gain; PR-6.3 / PR-6.4: a card with the
    exchange symbol goes into the chosen display slot (1) and that slot's card into the hand, a
    card without it stays in hand and the display is untouched."""
    card = CARD[name]
    st, tt = effect_position(card, **extra)
    assert bool(tt.card_exchange[card]) == (name in EXCHANGE)
    assert moves(st, tt, 0, card) == legal
    before, before_supply, display = holdings(st, 0), supply(st), shown(st, tt)
    activate(st, tt, 0, 0, *values)
    assert delta(before, holdings(st, 0)) == gains
    assert delta(before_supply, supply(st)) == supplies
    if name in EXCHANGE:
        assert options(st) == [0, 1, 2, 3, 4]            # DEC-7: any slot, no way to keep the card
        assert st.hand[0].tolist() == [display[1], OTHER]
        assert shown(st, tt) == display[:1] + [card] + display[2:]
    else:
        assert st.hand[0].tolist() == [card, OTHER]
        assert shown(st, tt) == display
    assert_conserved(st, tt)


@pytest.mark.parametrize("name, vp", [("MONUMENT", 4), ("BOOK", 5), ("PAINTING", 6)])
def test_pr10_2_token_printed_vp(name, vp):
    """PR-10.2, DATA-5: the top token of the stack and its printed VP go to the buyer."""
    st, tt = effect_position(CARD[name], food=4, money=4, bank=3, favour=3)
    t = ("MONUMENT", "BOOK", "PAINTING").index(name)
    code = {"MONUMENT": pay(0, 1, 2, 0), "BOOK": pay(0, 4, 0, 0), "PAINTING": pay(0, 0, 4, 1)}[name]
    activate(st, tt, 0, 0, code)
    assert st.culture_vp[0].tolist() == [vp if i == t else 0 for i in range(3)]
    assert st.vp[0] == vp
    assert st.taken[t] == 1


@pytest.mark.parametrize("gain", [1, 2])
@pytest.mark.parametrize("name, code", [("CATAPULT_Y12", pay(1, 3, 2, 0)), ("CATAPULT_Y3", pay(1, 2, 1, 0))])
def test_amb1_catapult_expensive_option(name, code, gain):
    """AMB-1: the expensive catapult option gives catapult_big_option_gain catapults: 1 by default
    (the rulebook's print; an engine choice over the specification's 2), 2 with the switch. The
    cheap option gives 1 either way."""
    st, tt = effect_position(CARD[name], switches={"catapult_big_option_gain": gain})
    activate(st, tt, 0, 0, code)
    assert holdings(st, 0, "catapult")["catapult"] == gain
    assert supply(st, "catapult")["catapult"] == 19 - gain
    st, tt = effect_position(CARD[name], switches={"catapult_big_option_gain": gain})
    activate(st, tt, 0, 0, pay(0, 1, 0, 0) if name == "CATAPULT_Y3" else pay(0, 1, 1, 0))
    assert holdings(st, 0, "catapult")["catapult"] == 1


def test_amb1_default_is_the_rulebook_one():
    """AMB-1: the shipped data (and so the engine default) gives 1 catapult for O2 of both
    printings, as the rulebook prints it."""
    g_catapult = 4                                   # components.G_CATAPULT
    assert DATA.rules["catapult_big_option_gain"] == 1
    assert DATA.effect_gain[EFFECT["CATAPULT_Y12"], 1, g_catapult] == 1
    assert DATA.effect_gain[EFFECT["CATAPULT_Y3"], 1, g_catapult] == 1
    assert data_with(catapult_big_option_gain=2).effect_gain[EFFECT["CATAPULT_Y3"], 1, g_catapult] == 2


def test_pr6_4_card_without_symbol_twice_in_one_turn():
    """PR-6.4, PR-5.1 (A+A): FIELD stays in hand and is activated by both actions."""
    st, tt = effect_position(CARD["FIELD"])
    turn(st, tt, 0, ACT_A, 0, pay(0, 0, 1, 0), ACT_A, 0, pay(0, 0, 1, 0))
    assert holdings(st, 0, "field", "money") == {"field": 5, "money": 1}
    assert st.hand[0].tolist() == [CARD["FIELD"], OTHER]


def test_pr6_5_card_taken_by_exchange_can_be_used_next():
    """PR-6.3, PR-6.5: HARVEST's exchange takes FOOD3 from slot 2; the second action uses FOOD3,
    whose own exchange then takes slot 0."""
    st, tt = effect_position(CARD["HARVEST"], food=0, farm=5)
    st.hand[0] = [CARD["HARVEST"], CARD["FIELD"]]
    display = shown(st, tt)
    display[2] = CARD["FOOD3"]
    st.display[2] = CARD["FOOD3"]
    turn(st, tt, 0, ACT_A, 0, 2, ACT_A, 0, 0)
    assert holdings(st, 0, "food")["food"] == 6                   # 3 fields, then 3 food
    assert st.hand[0].tolist() == [display[0], CARD["FIELD"]]
    assert shown(st, tt) == [CARD["FOOD3"], display[1], CARD["HARVEST"]] + display[3:]


# ---------------------------------------------------------------- DEC-1, DEC-2, PR-6.2 legality

def test_dec1_dec2_only_cards_with_a_legal_option():
    """PR-6.2, DEC-1, DEC-2: with no cubes, PAINTING and BOOK cannot be activated, so A is not
    offered; B, C and END_TURN always are (INV-13). With 4 food only BOOK can."""
    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 0, food=0, money=0, favour=0)
    st.hand[0] = [CARD["PAINTING"], CARD["BOOK"]]
    assert generated(rules.kind_options, st, tt, 0) == [ACT_B, ACT_C, END_TURN]
    assert generated(rules.card_options, st, tt, 0) == []
    set_holdings(st, tt, 0, food=4, farm=2)
    assert generated(rules.kind_options, st, tt, 0) == [ACT_A, ACT_B, ACT_C, END_TURN]
    assert generated(rules.card_options, st, tt, 0) == [1]


def test_amb20_loaded_cubes_cannot_pay():
    """PR-2.5, PR-9.1, AMB-20: a favour on a militia and money on a condottiere pay nothing."""
    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 0, food=0, money=0, favour=0, mil=(0, 0, 1), con=(0, 1, 0))
    assert not rules.can_activate(st, tt, 0, CARD["FIELD"])
    assert moves(st, tt, 0, CARD["FIELD"]) == []


@pytest.mark.parametrize("name, holdings_", [("HARVEST", {"field": 0}), ("TAXES", {"palazzo": 0}),
                                             ("FOOD3", {"food": 4}), ("MONEY3", {"money": 4})])
def test_amb12_free_effect_with_no_result_is_legal(name, holdings_):
    """AMB-12, PR-6.2: a produce or gain card that gives nothing (no fields / full storage) is
    legal; on a card with the exchange symbol the exchange still happens."""
    st, tt = effect_position(CARD[name], **holdings_)
    before, before_supply, display = holdings(st, 0), supply(st), shown(st, tt)
    assert rules.can_activate(st, tt, 0, CARD[name])
    activate(st, tt, 0, 0, 3)
    assert holdings(st, 0) == before
    assert supply(st) == before_supply
    assert st.hand[0, 0] == display[3] and st.display[3] == CARD[name]


# ---------------------------------------------------------------- EX-10 favour substitution (PR-9)

def test_ex10a_painting():
    """EX-10(a): PAINTING (5 money) with food=1, money=4, fav=2: (0,4,1) and (0,3,2), leaving
    (money 0, fav 1) or (money 1, fav 0); with fav=0 PAINTING is illegal."""
    for code, left in ((pay(0, 0, 4, 1), (0, 1)), (pay(0, 0, 3, 2), (1, 0))):
        st, tt = effect_position(CARD["PAINTING"], food=1, money=4, favour=2)
        assert moves(st, tt, 0, CARD["PAINTING"]) == [(0, 0, 3, 2), (0, 0, 4, 1)]
        activate(st, tt, 0, 0, code)
        h = holdings(st, 0, "money", "favour", "food", "painting")
        assert (h["money"], h["favour"]) == left
        assert (h["food"], h["painting"]) == (1, 1)
    st, tt = effect_position(CARD["PAINTING"], food=1, money=4, favour=0)
    assert moves(st, tt, 0, CARD["PAINTING"]) == []
    assert not rules.can_activate(st, tt, 0, CARD["PAINTING"])


def test_ex10b_monument_deduplicated_by_triple():
    """EX-10(b), PR-9.3, DEC-4: MONUMENT with food=1, money=4, fav=2: O1 admits (1,2,0) (1,1,1)
    (1,0,2) (0,2,1) (0,1,2); O2 admits only triples O1 also admits: 5 distinct moves."""
    st, tt = effect_position(CARD["MONUMENT"], food=1, money=4, favour=2)
    triples = [m[1:] for m in moves(st, tt, 0, CARD["MONUMENT"])]
    assert sorted(triples) == sorted([(1, 2, 0), (1, 1, 1), (1, 0, 2), (0, 2, 1), (0, 1, 2)])
    assert len(triples) == 5


@pytest.mark.parametrize("gain", [1, 2])
def test_ex10c_catapult_y12(gain):
    """EX-10(c): CATAPULT_Y12 with food=2, money=2, fav=3: 4 moves for O1, 6 for O2: 10 (the same
    under both catapult_big_option_gain values, AMB-1)."""
    st, tt = effect_position(CARD["CATAPULT_Y12"], food=2, money=2, favour=3,
                             switches={"catapult_big_option_gain": gain})
    assert moves(st, tt, 0, CARD["CATAPULT_Y12"]) == sorted(
        [(0, 1, 1, 0), (0, 0, 1, 1), (0, 1, 0, 1), (0, 0, 0, 2),
         (1, 2, 2, 1), (1, 2, 1, 2), (1, 1, 2, 2), (1, 2, 0, 3), (1, 1, 1, 3), (1, 0, 2, 3)])


# ---------------------------------------------------------------- EX-7, EX-9 overflow (PR-10.3/10.4, DEC-6)

@pytest.mark.parametrize("x, food_supply, mil_food, lost", [(1, 18, 2, 3), (0, 19, 1, 4)])
def test_ex7_harvest_overflow(x, food_supply, mil_food, lost):
    """EX-7: fld=5, frm=2 (cap 4), food=3, mil[e=1,f=1], food supply 20. HARVEST: 5 received,
    1 stored, overflow 4, DEC-6 x in {0, 1}."""
    st, tt = effect_position(CARD["HARVEST"], field=5, farm=2, food=3, mil=(1, 1, 0))
    set_supply(st, tt, "food", 20, sink=1)
    assert generated(rules.overflow_options, st, tt, 0, H_FOOD, 4) == [0, 1]
    activate(st, tt, 0, 0, x, 1)
    assert holdings(st, 0, "food", "militia", "mil_food") == {"food": 4, "militia": 2, "mil_food": mil_food}
    assert supply(st, "food")["food"] == food_supply
    assert st.seat_count[0, SC_LOST] == lost
    assert_conserved(st, tt)


# EX-9 outcomes: MARKET2 option, DEC-6 x (None: not asked), money/food/con_money after, money supply change
EX9 = [
    ("i", 0, 0, (2, 0, 0), 0),
    ("ii", 0, 1, (2, 0, 1), -1),
    ("iii", 1, 0, (2, 1, 0), 0),
    ("iv", 1, 1, (2, 1, 1), -1),
    ("v", 2, None, (2, 2, 0), 0),
]


@pytest.mark.parametrize("case, option, x, after, money_supply", EX9, ids=[c[0] for c in EX9])
def test_ex9_market2_with_full_banks(case, option, x, after, money_supply):
    """EX-9: bnk=1 (cap 2), money=2, frm=2, food=0, con[e=1], no militia: the five distinct
    outcomes, each followed by the exchange (DEC-7)."""
    st, tt = effect_position(CARD["MARKET2"], bank=1, money=2, farm=2, food=0, con=(1, 0, 0))
    money = supply(st, "money")["money"]
    display = shown(st, tt)
    activate(st, tt, 0, 0, option, *([] if x is None else [x]), 4)
    h = holdings(st, 0, "money", "food", "con_money")
    assert (h["money"], h["food"], h["con_money"]) == after
    assert supply(st, "money")["money"] == money + money_supply
    assert st.display[4] == CARD["MARKET2"] and st.hand[0, 0] == display[4]
    assert_conserved(st, tt)


def test_ex9_overflow_options_of_market2():
    """EX-9, DEC-6: 2 money with full banks overflow 2, and one empty condottiere: x in {0, 1};
    without rules.overflow_to_units the overflow is simply lost (x = 0 only, not asked)."""
    st, tt = effect_position(CARD["MARKET2"], bank=1, money=2, con=(1, 0, 0))
    assert generated(rules.overflow_options, st, tt, 0, H_MONEY, 2) == [0, 1]
    st, tt = effect_position(CARD["MARKET2"], switches={"overflow_to_units": False}, bank=1, money=2,
                             con=(1, 0, 0))
    assert generated(rules.overflow_options, st, tt, 0, H_MONEY, 2) == [0]
    activate(st, tt, 0, 0, 0, 4)                  # card, option "2 money", slot: no DEC-6
    assert holdings(st, 0, "money", "con_money") == {"money": 2, "con_money": 0}


def test_pr10_4_mixed_gain_settled_per_type():
    """PR-10.4: MARKET2 "1 money + 1 food" with both storages full: food onto a militia and money
    onto a condottiere are two separate DEC-6 decisions."""
    st, tt = effect_position(CARD["MARKET2"], farm=1, food=2, bank=1, money=2, mil=(1, 0, 0), con=(1, 0, 0))
    activate(st, tt, 0, 0, 1, 1, 0, 2)            # option 1; food x=1; money x=0; slot 2
    assert holdings(st, 0, "food", "mil_food", "money", "con_money") == {
        "food": 2, "mil_food": 1, "money": 2, "con_money": 0}


def test_pr10_5_lost_cubes_stay_lost():
    """PR-2.3, PR-10.5: FOOD3 into 1 free space: 1 stored, 2 lost (left in the supply); a farm
    gained later does not bring them back."""
    st, tt = effect_position(CARD["FOOD3"], farm=1, food=1)
    food = supply(st, "food")["food"]
    activate(st, tt, 0, 0, 0)
    assert holdings(st, 0, "food")["food"] == 2
    assert supply(st, "food")["food"] == food - 1
    st.hand[0] = [CARD["FARM"], OTHER]
    activate(st, tt, 0, 0, pay(0, 0, 1, 0))
    assert holdings(st, 0, "food", "farm") == {"food": 2, "farm": 2}


# ---------------------------------------------------------------- EX-8 supply exhaustion (AMB-11)

def test_ex8_gain_capped_by_the_supply():
    """EX-8, AMB-11, PR-10.3: fld=5, frm=3, food=0, food supply 2: HARVEST gives 2 (supply 0);
    FOOD3 by the next player is legal, gives 0, and its exchange still happens."""
    st, tt = effect_position(CARD["HARVEST"], field=5, farm=3, food=0)
    set_supply(st, tt, "food", 2, sink=1)
    activate(st, tt, 0, 0, 1)
    assert holdings(st, 0, "food")["food"] == 2
    assert supply(st, "food")["food"] == 0
    st.hand[1] = [CARD["FOOD3"], OTHER]
    before = holdings(st, 1)
    display = shown(st, tt)
    assert generated(rules.card_options, st, tt, 1) == [0, 1]
    activate(st, tt, 1, 0, 3)
    assert holdings(st, 1) == before
    assert supply(st, "food")["food"] == 0
    assert st.hand[1, 0] == display[3] and st.display[3] == CARD["FOOD3"]
    assert_conserved(st, tt)


def test_amb11_harvest_supply_short_of_storage():
    """AMB-11: the gain is min(g, supply) before storage: 3 fields, supply 1 -> 1 food."""
    st, tt = effect_position(CARD["HARVEST"], field=3, farm=3, food=0)
    set_supply(st, tt, "food", 1, sink=1)
    activate(st, tt, 0, 0, 0)
    assert holdings(st, 0, "food")["food"] == 1
    assert supply(st, "food")["food"] == 0


# ---------------------------------------------------------------- EX-14 pool shortages (AMB-10), card versions

def test_ex14_case_1_field_farm_pool_holds_one():
    """EX-14 case 1, PR-6.2, AMB-10 (a): with 1 field/farm tile left, FIELD and FARM O1 are legal,
    O2 (2 tiles) is not; BANK and PALAZZO are unaffected."""
    st, tt = effect_position(CARD["FIELD"])
    set_supply(st, tt, "field_farm", 1, sink=1)
    assert moves(st, tt, 0, CARD["FIELD"]) == [(0, 0, 0, 1), (0, 0, 1, 0)]
    assert moves(st, tt, 0, CARD["FARM"]) == [(0, 0, 0, 1), (0, 0, 1, 0)]
    assert moves(st, tt, 0, CARD["BANK"]) == [(0, 0, 0, 1), (0, 1, 0, 0), (1, 2, 0, 1), (1, 3, 0, 0)]
    assert moves(st, tt, 0, CARD["PALAZZO"]) == [(0, 0, 0, 1), (0, 1, 0, 0), (1, 2, 0, 1), (1, 3, 0, 0)]
    set_supply(st, tt, "field_farm", 0, sink=1)
    assert moves(st, tt, 0, CARD["FIELD"]) == []
    assert not rules.can_activate(st, tt, 0, CARD["FARM"])


def test_amb10_switch_pay_in_full_get_what_is_left():
    """AMB-10 (b), tile_option_needs_full_pool = false: FIELD O2 with 1 tile left is legal; it
    costs the full 3 money and gives the 1 field left."""
    st, tt = effect_position(CARD["FIELD"], switches={"tile_option_needs_full_pool": False})
    set_supply(st, tt, "field_farm", 1, sink=1)
    assert moves(st, tt, 0, CARD["FIELD"]) == [(0, 0, 0, 1), (0, 0, 1, 0), (1, 0, 2, 1), (1, 0, 3, 0)]
    activate(st, tt, 0, 0, pay(1, 0, 3, 0))
    assert holdings(st, 0, "field", "money") == {"field": 4, "money": 0}
    assert supply(st, "field_farm")["field_farm"] == 0
    assert_conserved(st, tt)


def test_amb10_switch_never_pays_for_nothing():
    """AMB-10 (b), PR-2.7: with the pool empty, no option of FIELD or FARM is legal even under
    tile_option_needs_full_pool = false (the buyer would only throw cubes away)."""
    st, tt = effect_position(CARD["FIELD"], switches={"tile_option_needs_full_pool": False})
    set_supply(st, tt, "field_farm", 0, sink=1)
    assert moves(st, tt, 0, CARD["FIELD"]) == []
    assert not rules.can_activate(st, tt, 0, CARD["FARM"])
    assert moves(st, tt, 0, CARD["BANK"]) == [(0, 0, 0, 1), (0, 1, 0, 0), (1, 2, 0, 1), (1, 3, 0, 0)]


@pytest.mark.parametrize("gain, o2_legal", [(1, True), (2, False)])
@pytest.mark.parametrize("name", ["CATAPULT_Y12", "CATAPULT_Y3"])
def test_ex14_case_2_catapult_pool_holds_one(name, gain, o2_legal):
    """EX-14 case 2, AMB-1, AMB-10: with 1 catapult left, O2 needs catapult_big_option_gain
    catapults: legal under the engine default 1 (rulebook), illegal under 2 (specification)."""
    st, tt = effect_position(CARD[name], food=3, money=3, favour=0, switches={"catapult_big_option_gain": gain})
    set_supply(st, tt, "catapult", 1, sink=1)
    options_ = {m[0] for m in moves(st, tt, 0, CARD[name])}
    assert options_ == ({0, 1} if o2_legal else {0})
    if o2_legal:
        activate(st, tt, 0, 0, pay(1, 3, 2, 0) if name == "CATAPULT_Y12" else pay(1, 2, 1, 0))
        assert holdings(st, 0, "catapult")["catapult"] == 1
        assert supply(st, "catapult")["catapult"] == 0


def test_ex14_case_3_monument_stack_empty():
    """EX-14 case 3, PR-10.2: an empty monument stack: MONUMENT cannot be activated."""
    st, tt = effect_position(CARD["MONUMENT"])
    set_supply(st, tt, "monument", 0, sink=1)
    assert moves(st, tt, 0, CARD["MONUMENT"]) == []
    assert not rules.can_activate(st, tt, 0, CARD["MONUMENT"])
    assert generated(rules.card_options, st, tt, 0) == [1]


def test_amb10_token_stack_empty_also_with_switch():
    """PR-10.2, AMB-10: a culture token option needs its token whatever the tile-pool switch."""
    st, tt = effect_position(CARD["BOOK"], switches={"tile_option_needs_full_pool": False}, food=4)
    assert rules.can_activate(st, tt, 0, CARD["BOOK"])
    set_supply(st, tt, "book", 0, sink=1)
    assert not rules.can_activate(st, tt, 0, CARD["BOOK"])


def test_ex14_case_4_year_1_2_catapult_keeps_its_cost_in_year_3():
    """EX-14 case 4, PR-12.6, AMB-16: in year 3, CATAPULT_Y12 O1 still costs 1F+1M, CATAPULT_Y3
    O1 costs 1F."""
    st, tt = effect_position(CARD["CATAPULT_Y12"], food=1, money=1, favour=0)
    st.round_no = 3
    assert moves(st, tt, 0, CARD["CATAPULT_Y12"]) == [(0, 1, 1, 0)]
    assert moves(st, tt, 0, CARD["CATAPULT_Y3"]) == [(0, 1, 0, 0)]
    set_holdings(st, tt, 0, money=0)
    assert moves(st, tt, 0, CARD["CATAPULT_Y12"]) == []
    assert tt.card_effect[22] == tt.card_effect[31] == tt.card_effect[50] == tt.card_effect[61]
    assert tt.card_effect[75] == tt.card_effect[88] == tt.card_effect[94] != tt.card_effect[22]


# ---------------------------------------------------------------- EX-15 recruits (DEC-5)

def test_ex15_recruit_bounded_by_the_shared_unit_pool():
    """EX-15, PR-17, PR-17.4, DEC-5, AMB-12: 4 players with 35 units on the boards, avail 2:
    MILITIA k in {0,1,2}; after k = 2, CONDOTTIERI allows only k = 0 (legal, no effect); after a
    scoring in which the others discard 3 units, avail_units = 3."""
    st, tt = position(players=4, sp=0)
    set_holdings(st, tt, 1, mil=(20, 0, 0))
    set_holdings(st, tt, 2, con=(10, 0, 0))
    set_holdings(st, tt, 3, mil=(3, 0, 0), con=(2, 0, 0))
    assert supply(st, "units")["units"] == 2
    assert generated(rules.recruit_options, st, 0) == [0, 1, 2]
    st.hand[0] = [CARD["MILITIA"], CARD["CONDOTTIERI"]]
    activate(st, tt, 0, 0, 2)                            # card MILITIA, k = 2
    assert holdings(st, 0, "militia")["militia"] == 2
    assert supply(st, "units")["units"] == 0
    assert generated(rules.recruit_options, st, 0) == [0]
    activate(st, tt, 0, 1)                               # card CONDOTTIERI; k = 0 is not asked
    assert holdings(st, 0, "condottiere", "militia") == {"condottiere": 0, "militia": 2}
    script(st, 2)
    playout.discard_step(st, tt, 1)                      # seat 1: 2 militia (condottieri: none)
    script(st, 0, 1)
    playout.discard_step(st, tt, 3)                      # seat 3: 0 militia, 1 condottiere
    done(st)
    assert supply(st, "units")["units"] == 3
    assert generated(rules.recruit_options, st, 0) == [0, 1, 2, 3]
    assert_conserved(st, tt)


def test_dec5_recruit_full_range():
    """DEC-5: up to avail_units + 1 options, 0..37 at the start (37 units, PR-1.2)."""
    st, tt = position(players=4)
    assert generated(rules.recruit_options, st, 0) == list(range(38))


# ---------------------------------------------------------------- AMB-9 culture take rule, DEC-8

def buy_monument(st, tt, *culture):
    st.hand[0] = [CARD["MONUMENT"], OTHER]
    set_holdings(st, tt, 0, food=1, money=2, favour=0)
    activate(st, tt, 0, 0, *culture)


def test_amb9_highest_first():
    """AMB-9 (a), PR-3.6, INV-12: the i-th monument taken has value stack[i]: 4 x5, then 3."""
    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 1, monument=5)
    assert st.culture_vp[1, 0] == 20
    buy_monument(st, tt)
    assert st.culture_vp[0, 0] == 3
    assert st.vp[0] == 3


def test_amb9_lowest_first():
    """AMB-9 (b), culture_take = lowest_first: the first monument is worth 2, the first book 3."""
    st, tt = position(players=2, sp=0, culture_take="lowest_first")
    buy_monument(st, tt)
    assert st.culture_vp[0].tolist() == [2, 0, 0]
    set_holdings(st, tt, 1, book=6)
    assert st.culture_vp[1, 1] == 5 * 3 + 4


def test_amb9_choose_dec8():
    """AMB-9 (c), DEC-8, culture_take = choose: one option per value still present (stack
    positions of 4, 3, 2); taking a 2 is legal; once the 4s are gone only 3 and 2 are offered."""
    st, tt = position(players=2, sp=0, culture_take="choose")
    assert generated(rules.culture_options, st, tt, 0) == [0, 5, 10]
    buy_monument(st, tt, 10)
    assert st.culture_vp[0, 0] == 2
    for k in range(5):
        st.token_left[0, k] = 0
    assert generated(rules.culture_options, st, tt, 0) == [5, 11]
    buy_monument(st, tt, 5)
    assert st.culture_vp[0, 0] == 5
    assert holdings(st, 0, "monument")["monument"] == 2


# ---------------------------------------------------------------- action C with a full church (PR-8, DEC-10)

def test_pr8_2_overflow_switch_off_loses_the_favour():
    """AMB-7, rules.overflow_to_units = false: with a full church the favour is lost (not asked)."""
    st, tt = position(players=2, sp=0, overflow_to_units=False)
    set_holdings(st, tt, 0, favour=3, con=(1, 0, 0))
    assert generated(rules.favour_options, st, tt, 0) == [LOSE]
    favour = supply(st, "favour")["favour"]
    turn(st, tt, 0, ACT_C, END_TURN)
    assert holdings(st, 0, "favour", "con_fav") == {"favour": 3, "con_fav": 0}
    assert supply(st, "favour")["favour"] == favour


def test_dec10_both_unit_types():
    """DEC-10: with an empty militia and an empty condottiere, {militia, condottiere, lose}."""
    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 0, favour=3, mil=(1, 0, 0), con=(1, 0, 0))
    assert generated(rules.favour_options, st, tt, 0) == [0, TO_CONDOTTIERE, LOSE]
    turn(st, tt, 0, ACT_C, 0, END_TURN)
    assert holdings(st, 0, "favour", "mil_fav", "con_fav") == {"favour": 3, "mil_fav": 1, "con_fav": 0}
    assert_conserved(st, tt)
