"""The turn, actions B and C, the display shift, years and scoring cards of docs/principato.md
(PR-3, PR-4, PR-5, PR-7, PR-8, PR-11, PR-12, PR-13), with worked examples EX-11, EX-12, EX-13,
EX-16, EX-17, EX-18 and EX-21. Positions are built by hand (builder.py); decisions are scripted
by option value."""
import json

import numpy as np
import pytest

from simcore.boardgames.principato import components, playout, rules
from simcore.boardgames.principato.state import (
    ACT_A, ACT_B, ACT_C, END_TURN, EV_BOX, EV_DRAW, EV_SCORING, EV_STRENGTH, EV_TURN, LOSE, MAX_PLAYERS,
    SC_FAVOUR, TO_CONDOTTIERE)
from tests.games.principato.builder import (
    CARD, S1_MARKET2, S2_FIELD, S2_PALAZZO, SCORING_Y2, arrange_deck, assert_conserved, data_with, deck_left,
    done, events, generated, holdings, position, script, set_holdings, set_supply, shipped_doc, show, shown,
    supply, turn)

pay = rules.pay_code


def b_two(tt, s0, s1):
    """DEC-9 code of a two-card B: hand card 0 -> s0, hand card 1 -> s1."""
    d = tt.display_size
    return 2 * d + s0 * d + s1


def b_one(tt, h, s):
    return h * tt.display_size + s


# ---------------------------------------------------------------- PR-3 setup

@pytest.mark.parametrize("players", [2, 3, 4])
def test_pr3_10_supply_after_setup(players):
    """PR-3.7, PR-3.8, PR-3.10: starting holdings, the supply that is left, a full display."""
    st, tt = position(players=players, seed=7)
    assert supply(st) == {"field_farm": 42 - 2 * players, "palazzo_bank": 42 - 2 * players, "catapult": 19,
                          "units": 37, "monument": 15, "book": 15, "painting": 15, "food": 39 - players,
                          "money": 39 - players, "favour": 12 - players}
    for p in range(players):
        assert holdings(st, p, "field", "farm", "palazzo", "bank", "food", "money", "favour") == dict.fromkeys(
            ("field", "farm", "palazzo", "bank", "food", "money", "favour"), 1)
        assert st.military_vp[p] == 0
    d = players + 3
    assert tt.display_size == d
    assert all(c >= 0 for c in shown(st, tt)) and st.display[d:].tolist() == [-1] * (len(st.display) - d)
    assert st.deck_n - st.deck_pos == tt.deck_size[0] - d
    assert st.current == st.sp
    # PR-3.3: one S1 each, S2 cards all different
    assert sorted(int(c) for c in st.hand[:players, 0]) == list(range(players))
    assert len({int(c) for c in st.hand[:players, 1]}) == players
    assert all(4 <= c <= 7 for c in st.hand[:players, 1])
    assert_conserved(st, tt)


@pytest.mark.parametrize("players, sizes", [(2, [18, 15, 15]), (3, [26, 22, 22]), (4, [34, 29, 29])])
def test_pr3_2_decks_by_player_count(players, sizes):
    """PR-3.2, PR-3.4, DATA-4: marked cards removed by player count; one scoring card each in
    decks 2 and 3, none in deck 1."""
    st, tt = position(players=players)
    assert tt.deck_size[:3].tolist() == sizes
    for y, scoring_card in ((0, None), (1, 98), (2, 99)):
        deck = st.decks[y, :sizes[y]].tolist()
        assert [c for c in deck if tt.card_scoring[c]] == ([] if scoring_card is None else [scoring_card])
        assert len(set(deck)) == sizes[y]


def test_amb6_free_loading_switch():
    """AMB-6, DEC-13, rules.free_loading = true: a load step is offered before each action."""
    st, tt = position(players=2, sp=0, free_loading=True)
    set_holdings(st, tt, 0, mil=(1, 0, 0), food=1, favour=0)
    turn(st, tt, 0, 1, END_TURN)                       # load 1 food onto the militia, then end
    assert holdings(st, 0, "food", "mil_food") == {"food": 0, "mil_food": 1}
    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 0, mil=(1, 0, 0), food=1, favour=0)
    turn(st, tt, 0, END_TURN)                          # default: no load step during a turn
    assert holdings(st, 0, "food", "mil_food") == {"food": 1, "mil_food": 0}


# ---------------------------------------------------------------- EX-12 a complete first turn

def ex12():
    """EX-12's position: 2 players, seat 0 starts with [MARKET2 (S1) #0, FIELD (S2) #4]; display
    [8 HARVEST, 21 BANK, 10 TAXES, 25 MONUMENT, 20 FARM]; deck 1 holds 13 cards, 18 PALAZZO on top."""
    st, tt = position(players=2, sp=0)
    st.hand[0] = [S1_MARKET2, S2_FIELD]
    st.hand[1] = [1, S2_PALAZZO]
    show(st, tt, [8, 21, 10, 25, 20])
    rest = [c for c in range(8, 26) if c not in (8, 21, 10, 25, 20, 18)]
    arrange_deck(st, [18] + rest)
    assert len(deck_left(st)) == 13
    assert supply(st, "field_farm", "palazzo_bank", "food", "money", "favour") == {
        "field_farm": 38, "palazzo_bank": 38, "food": 37, "money": 37, "favour": 10}
    return st, tt


def test_ex12_complete_first_turn():
    """EX-12, PR-6.3, PR-6.4, PR-11: MARKET2 "1 money + 1 food" with the exchange of slot 0, then
    FIELD O1 paid (0,1,0); the end of turn boxes MARKET2 and draws PALAZZO #18."""
    st, tt = ex12()
    turn(st, tt, 0,
         ACT_A, 0, 1, 0,                               # MARKET2, option "1 money + 1 food", take slot 0
         ACT_A, 1, pay(0, 0, 1, 0))                    # FIELD, O1 paid with 1 money
    assert shown(st, tt) == [0, 21, 10, 25, 20]
    assert st.hand[0].tolist() == [8, 4]
    assert holdings(st, 0, "field", "farm", "palazzo", "bank", "food", "money", "favour") == {
        "field": 2, "farm": 1, "palazzo": 1, "bank": 1, "food": 2, "money": 1, "favour": 1}
    assert playout.end_of_turn(st, tt)
    assert shown(st, tt) == [21, 10, 25, 20, 18]
    assert len(deck_left(st)) == 12
    assert st.boxed == 1
    assert supply(st, "food", "money", "favour", "field_farm") == {
        "food": 36, "money": 37, "favour": 10, "field_farm": 37}
    assert_conserved(st, tt)


def test_ex12_field_options_and_alternative_payment():
    """EX-12 action 2: FIELD offers O1 (0,1,0), O1 (0,0,1) and O2 (0,2,1); paying (0,0,1) leaves
    fav 0 and favour supply 11."""
    st, tt = ex12()
    turn(st, tt, 0, ACT_A, 0, 1, 0, ACT_A, 1, pay(0, 0, 0, 1))
    assert holdings(st, 0, "money", "favour", "field") == {"money": 2, "favour": 0, "field": 2}
    assert supply(st, "favour", "money")["favour"] == 11
    st, tt = ex12()
    turn(st, tt, 0, ACT_A, 0, 1, 0, END_TURN)
    n = rules.option_moves(st, tt, 0, 4, st.opts)
    assert sorted(st.opts[:n].tolist()) == sorted([pay(0, 0, 1, 0), pay(0, 0, 0, 1), pay(1, 0, 2, 1)])


def test_ex12_variant_two_money():
    """EX-12 variant: MARKET2 "2 money": 1 stored (cap 2), 1 lost (no condottiere); money supply
    36, food stays 1."""
    st, tt = ex12()
    turn(st, tt, 0, ACT_A, 0, 0, 0, END_TURN)
    assert holdings(st, 0, "money", "food") == {"money": 2, "food": 1}
    assert supply(st, "money", "food") == {"money": 36, "food": 37}


def test_ex12_seat_1_moves_next():
    """EX-12, PR-4.1, PR-11.1: in play, the first turn is seat 0's, MARKET2 #0 is boxed, #18 drawn,
    and seat 1 moves next."""
    st, tt = ex12()
    st.logging = 1
    script(st, ACT_A, 0, 1, 0, ACT_A, 1, pay(0, 0, 1, 0))
    playout.play_year(st, tt, 1)
    assert st.script_miss == 0
    assert [e[1] for e in events(st, EV_TURN)][:4] == [0, 1, 0, 1]
    assert events(st, EV_BOX)[0][2] == 0
    assert events(st, EV_DRAW)[0][2] == 18


# ---------------------------------------------------------------- EX-13, DEC-9 action B

def ex13():
    st, tt = position(players=2, sp=0)
    d = [42, 43, 44, 45, 46]
    h = [47, 48]
    show(st, tt, d)
    st.hand[0] = h
    arrange_deck(st, [49, 50])
    return st, tt, d, h


def test_ex13_two_card_exchange():
    """EX-13, PR-7.3, AMB-13: B(s0=3, s1=1): display [d0,h1,d2,h0,d4], hand {d3, d1}; after the
    shift [h1,d2,h0,d4,new]."""
    st, tt, d, h = ex13()
    turn(st, tt, 0, ACT_B, b_two(tt, 3, 1), END_TURN)
    assert shown(st, tt) == [d[0], h[1], d[2], h[0], d[4]]
    assert sorted(st.hand[0].tolist()) == sorted([d[3], d[1]])
    assert playout.end_of_turn(st, tt)
    assert shown(st, tt) == [h[1], d[2], h[0], d[4], 49]


def test_ex13_mapping_is_a_distinct_move():
    """EX-13: B(s0=1, s1=3) gives display [d0,h0,d2,h1,d4], a different state."""
    st, tt, d, h = ex13()
    turn(st, tt, 0, ACT_B, b_two(tt, 1, 3), END_TURN)
    assert shown(st, tt) == [d[0], h[0], d[2], h[1], d[4]]


def test_ex13_single_swap_denial():
    """EX-13, PR-7.2, PR-11.3: B(h=1, s=0): display [h1,d1,...], hand {h0, d0}; the shift boxes h1."""
    st, tt, d, h = ex13()
    st.logging = 1
    turn(st, tt, 0, ACT_B, b_one(tt, 1, 0), END_TURN)
    assert shown(st, tt) == [h[1]] + d[1:]
    assert st.hand[0].tolist() == [h[0], d[0]]
    assert playout.end_of_turn(st, tt)
    assert events(st, EV_BOX)[-1][2] == h[1]
    assert h[1] not in shown(st, tt)


@pytest.mark.parametrize("players, count", [(2, 30), (3, 42), (4, 56)])
def test_dec9_pattern_count(players, count):
    """DEC-9, PR-7.4: 2D one-card and D(D-1) two-card patterns: D(D+1) = 30, 42, 56, all distinct,
    each a different resulting state."""
    st, tt = position(players=players, sp=0)
    assert len(generated(rules.swap_options, st, tt)) == count
    codes = st.opts[:st.n_opts].tolist()
    assert len(set(codes)) == count
    results = set()
    for code in codes:
        st2, tt2 = position(players=players, sp=0)
        rules.swap(st2, tt2, 0, code)
        results.add((tuple(shown(st2, tt2)), tuple(st2.hand[0].tolist())))
    assert len(results) == count


def test_ex21_reuse_an_exchange_card_through_a_then_b():
    """EX-21, AMB-26, PR-6.3: A on HARVEST takes Y from slot 2; B(h=0, s=2) gives Y back and
    takes HARVEST: HARVEST was used and is kept, at the cost of both actions."""
    st, tt = position(players=2, sp=0)
    x, y = S2_FIELD, CARD["MONUMENT"]
    st.hand[0] = [CARD["HARVEST"], x]
    st.display[2] = y
    display = shown(st, tt)
    turn(st, tt, 0, ACT_A, 0, 2, ACT_B, b_one(tt, 0, 2))
    assert st.hand[0].tolist() == [CARD["HARVEST"], x]
    assert shown(st, tt) == display
    assert holdings(st, 0, "food")["food"] == 2


# ---------------------------------------------------------------- EX-11 action C (PR-8)

def test_ex11a_favour_into_the_church():
    """EX-11(a): fav=2, favour supply 5 -> fav=3, supply 4."""
    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 0, favour=2)
    set_supply(st, tt, "favour", 5, sink=1)
    turn(st, tt, 0, ACT_C, END_TURN)
    assert holdings(st, 0, "favour")["favour"] == 3
    assert supply(st, "favour")["favour"] == 4
    assert_conserved(st, tt)


@pytest.mark.parametrize("where, con_fav, favour_supply", [(TO_CONDOTTIERE, 1, 3), (LOSE, 0, 4)])
def test_ex11b_full_church_with_an_empty_condottiere(where, con_fav, favour_supply):
    """EX-11(b), PR-8.2, DEC-10: fav=3, con[e=1], no militia, supply 4: options {condottiere, lose}."""
    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 0, favour=3, con=(1, 0, 0))
    set_supply(st, tt, "favour", 4, sink=1)
    assert generated(rules.favour_options, st, tt, 0) == [TO_CONDOTTIERE, LOSE]
    turn(st, tt, 0, ACT_C, where, END_TURN)
    assert holdings(st, 0, "favour", "condottiere", "con_fav") == {"favour": 3, "condottiere": 1, "con_fav": con_fav}
    assert supply(st, "favour")["favour"] == favour_supply
    assert_conserved(st, tt)


def test_ex11c_full_church_no_empty_unit():
    """EX-11(c), PR-8.4: fav=3, no empty unit: nothing changes (no decision) but the action is
    spent: C + C is the whole turn."""
    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 0, favour=3, con=(0, 1, 0), money=0)
    before, favour = holdings(st, 0), supply(st, "favour")["favour"]
    turn(st, tt, 0, ACT_C, ACT_C)
    assert holdings(st, 0) == before
    assert supply(st, "favour")["favour"] == favour
    assert st.seat_count[0, SC_FAVOUR] == 2


def test_ex11d_favour_supply_empty():
    """EX-11(d), PR-8.3: favour supply 0: no change; the action is spent."""
    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 0, favour=1)
    set_supply(st, tt, "favour", 0, sink=1)
    before = holdings(st, 0)
    turn(st, tt, 0, ACT_C, ACT_C)
    assert holdings(st, 0) == before
    assert supply(st, "favour")["favour"] == 0
    assert st.seat_count[0, SC_FAVOUR] == 2


# ---------------------------------------------------------------- PR-5, PR-11 the turn and the shift

def test_pr5_2_end_turn_forfeits_and_the_shift_still_happens():
    """PR-5.2, PR-11.2: END_TURN as the first action ends the turn (one decision); the display
    still shifts and refills."""
    st, tt = position(players=2, sp=0)
    display, top = shown(st, tt), deck_left(st)[0]
    before = holdings(st, 0)
    turn(st, tt, 0, END_TURN)
    assert holdings(st, 0) == before
    assert playout.end_of_turn(st, tt)
    assert shown(st, tt) == display[1:] + [top]


def test_pr12_1_year_ends_when_the_refill_fails():
    """PR-11.1 step 4, PR-12.1: with the deck empty the shift leaves slot D-1 empty and the
    refill fails."""
    st, tt = position(players=2, sp=0)
    display = shown(st, tt)
    arrange_deck(st, [])
    assert not playout.end_of_turn(st, tt)
    assert shown(st, tt) == display[1:] + [-1]


# ---------------------------------------------------------------- EX-16 two scorings at a year's end

C = [42, 43, 44, 45, 46]
X, Y = 47, 70


def ex16(a_discards, b_final_load):
    """EX-16 in play: year 2 with deck 2 = [c4, X, S] (c4 refills the display left by year 1),
    display [c0..c3, _]; A = seat 0 (start player), B = seat 1; scoring #1 done."""
    st, tt = position(players=2, sp=0)
    st.round_no = 1
    st.scorings = 1
    show(st, tt, C[:4] + [-1])
    st.decks[1, :3] = [C[4], X, SCORING_Y2]
    tt.deck_size[1] = 3
    st.decks[2, 0] = Y
    set_holdings(st, tt, 0, catapult=2, mil=(2, 0, 0), food=3, farm=2, money=0, favour=0)
    set_holdings(st, tt, 1, catapult=1, con=(1, 0, 0), money=2, bank=1, favour=1, food=0)
    st.logging = 1
    script(st,
           END_TURN,             # A's turn
           END_TURN,             # B's turn; its refill draws S: scoring #2
           2,                    # #2: A loads food -> militia 2
           1,                    # #2: B loads money -> condottiere 1
           a_discards,           # #2 discards: A's militia
           0,                    # B's condottieri
           1,                    # #3 (end of year 2): A loads 1 food
           *b_final_load,        # B: money -> condottiere, then favour -> condottiere if asked
           0, 0)                 # #3 discards
    playout.play_year(st, tt, 2)
    done(st)
    return st, tt


@pytest.mark.parametrize("b_final_load", [(1,), (0, 1)])
def test_ex16_branch_i_nobody_discards(b_final_load):
    """EX-16, PR-13.3, AMB-18: scoring #2 (card S) and the end-of-year scoring #3 are separate and
    complete. #2: A 4 (+5), B 2 (+0); #3: A 2, B 2, tie: 3 each. Totals A 8, B 3."""
    st, tt = ex16(0, b_final_load)
    scorings = events(st, EV_SCORING)
    assert [e[2] for e in scorings] == [2, 3]
    assert [e[3] for e in scorings] == [0, 0]                   # A is first in both orders
    strengths = [(e[1], e[2], e[3]) for e in events(st, EV_STRENGTH)]
    assert strengths == [(0, 4, 5), (1, 2, 0), (0, 2, 3), (1, 2, 3)]
    assert st.military_vp[:2].tolist() == [8, 3]
    assert st.scorings == 3
    assert len(events(st, EV_TURN)) == 2
    # the cleanups returned every loaded cube: A 3 food - 2 - 1, B 2 money and 1 favour - loads
    assert holdings(st, 0, "food", "mil_food", "militia") == {"food": 0, "mil_food": 0, "militia": 2}
    assert holdings(st, 1, "money", "favour", "con_money", "con_fav") == {
        "money": 1 - b_final_load[0], "favour": 1 - (len(b_final_load) - 1), "con_money": 0, "con_fav": 0}
    assert_conserved(st, tt)


def test_ex16_scoring_2_step_by_step():
    """EX-16, PR-11.1, PR-13.1, PR-13.2: A's end of turn boxes c0 and draws X; B's boxes c1 and
    draws S: scoring #2 runs with the gap at slot 4 (A 4 -> +5, B 2 -> +0; cleanup returns 2 food
    and 1 money), then the refill finds deck 2 empty: the year ends."""
    st, tt = position(players=2, sp=0)
    st.round_no = 2
    st.scorings = 1
    show(st, tt, C)
    arrange_deck(st, [X, SCORING_Y2])
    set_holdings(st, tt, 0, catapult=2, mil=(2, 0, 0), food=3, farm=2, money=0, favour=0)
    set_holdings(st, tt, 1, catapult=1, con=(1, 0, 0), money=2, bank=1, favour=1, food=0)
    assert playout.end_of_turn(st, tt)
    assert shown(st, tt) == C[1:] + [X]
    food, money = supply(st, "food", "money").values()
    script(st, 2, 1, 0, 0)                  # loads A (2,0,0,0), B (0,0,1,0); no discards
    assert not playout.end_of_turn(st, tt)
    done(st)
    assert st.scorings == 2
    assert st.strength[:2].tolist() == [4, 2]
    assert st.military_vp[:2].tolist() == [5, 0]
    assert supply(st, "food", "money") == {"food": food + 2, "money": money + 1}
    assert holdings(st, 0, "food", "mil_food")["food"] == 1
    assert holdings(st, 1, "money", "favour") == {"money": 1, "favour": 1}
    assert shown(st, tt) == [C[2], C[3], C[4], X, -1]
    assert deck_left(st) == []
    assert_conserved(st, tt)


def test_ex16_branch_ii_a_discards_a_militia():
    """EX-16 branch (ii): A discards 1 militia after #2; #3: A 2 + 1 = 3, B 2: A +5. Totals A 10, B 0."""
    st, tt = ex16(1, (1,))
    strengths = [(e[1], e[2], e[3]) for e in events(st, EV_STRENGTH)]
    assert strengths == [(0, 4, 5), (1, 2, 0), (0, 3, 5), (1, 2, 0)]
    assert st.military_vp[:2].tolist() == [10, 0]
    assert holdings(st, 0, "militia")["militia"] == 1
    assert supply(st, "units")["units"] == 37 - 1 - 1


def test_ex16_then_year_3():
    """EX-16: deck 3 becomes the draw deck, its top card Y fills slot 4 (display [c2,c3,c4,X,Y]),
    and A (the player after B) starts year 3; 3 scorings of 5 so far."""
    st, tt = ex16(0, (1,))
    assert st.current == 0
    rules.start_year(st, tt, 3)
    assert playout.refill(st, tt)
    assert shown(st, tt) == [C[2], C[3], C[4], X, Y]
    assert st.round_no == 3
    assert st.scorings == 3


# ---------------------------------------------------------------- EX-17 a scoring card at the new-year refill

def test_ex17_scoring_card_at_the_start_of_year_refill():
    """EX-17, PR-12.4, AMB-18: year 1 ends (scoring #1 with its cleanup and discards); deck 2's top
    card is the scoring card, so scoring #2 runs at once, before any turn, with a new load step on
    the cubes still stored; then the next card fills slot D-1, the next player starts year 2, and
    year 2 still lasts n2 = 14 turns."""
    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 0, mil=(2, 0, 0), food=3, farm=2, favour=0)
    arrange_deck(st, [])                           # year 1's deck is used up: this turn is its last
    top = int(np.flatnonzero(st.decks[1, :tt.deck_size[1]] == SCORING_Y2)[0])
    st.decks[1, [0, top]] = st.decks[1, [top, 0]]
    following = int(st.decks[1, 1])
    st.logging = 1
    script(st,
           END_TURN,      # seat 0's (last) turn of year 1
           2, 0,          # scoring #1: seat 0 loads 2 food (strength 2, +5), discards nothing
           1, 0)          # scoring #2: only 1 food is still stored: loads 1 (strength 0, tie +3)
    playout.play_year(st, tt, 1)
    assert st.scorings == 1 and st.current == 1
    assert st.military_vp[:2].tolist() == [5, 0]
    playout.play_year(st, tt, 2)
    assert st.script_miss == 0 and st.script_pos == st.n_script
    year2 = [row for row in st.ev[:st.n_events].tolist() if row[0] in (EV_SCORING, EV_DRAW, EV_TURN, EV_STRENGTH)
             and row[1] == 2]
    assert year2[0][0] == EV_SCORING and year2[0][3] == 2
    assert [r[2:6] for r in year2[1:3]] == [[0, 0, 3, 8], [1, 0, 3, 3]]      # #2: strengths 0, 0: 3 each
    assert year2[3][0] == EV_DRAW and year2[3][3] == following
    assert year2[4][0] == EV_TURN and year2[4][2] == 1
    assert len([r for r in year2 if r[0] == EV_TURN]) == 14
    assert st.scorings == 3
    assert SCORING_Y2 not in [e[2] for e in events(st, EV_DRAW)]             # PR-13.4


# ---------------------------------------------------------------- EX-18, AMB-17 turn counts

def play_logged(players, data, seed):
    """A whole random game with its log: (st, tt)."""
    st, tt = position(players=players, seed=seed, data=data)
    st.logging = 1
    playout.play_game(st, tt, players, np.zeros(MAX_PLAYERS, np.int8), np.int64(seed), np.int64(0))
    assert st.n_events < st.ev.shape[0]
    return st, tt


def year_turns(st):
    """Per year: (number of turns, seat of the first turn)."""
    turns = events(st, EV_TURN)
    return [(sum(1 for e in turns if e[0] == y), next(e[1] for e in turns if e[0] == y)) for y in (1, 2, 3)]


@pytest.mark.parametrize("players, n", [(2, 14), (3, 21), (4, 28)])
@pytest.mark.parametrize("starter", ["next_player", "start_player"])
def test_ex18_default_turn_counts(players, n, starter):
    """EX-18, PR-4.2, PR-4.5, INV-9, INV-10, AMB-17: the default data gives n turns per year
    (7 per player), every year begins with the start player under both readings, 5 scorings."""
    st, tt = play_logged(players, data_with(new_year_starter=starter), seed=11 + players)
    assert year_turns(st) == [(n, st.sp)] * 3
    assert st.turn == 3 * n
    assert st.scorings == 5
    seats = [e[1] for e in events(st, EV_TURN)]
    assert [seats.count(p) for p in range(players)] == [21] * players


def ex18_data(starter):
    """EX-18's custom data: with 3 players decks of 25 / 20 / 22 action cards."""
    doc = shipped_doc()
    doc["options"]["new_year_starter"] = starter
    decks = doc["year_decks"]
    assert decks["1"][0]["effect"] == "HARVEST" and decks["1"][0]["copies"] == 2
    decks["1"][0]["copies"] = 1                          # 26 -> 25
    assert decks["2"][0]["effect"] == "HARVEST" and decks["2"][0]["copies"] == 1
    del decks["2"][0]                                    # 21 -> 20
    assert decks["3"][8]["effect"] == "MONUMENT" and decks["3"][8]["copies"] == 2
    decks["3"][8]["copies"] = 3                          # 21 -> 22
    data = components.from_document(json.loads(json.dumps(doc)), "ex18")
    assert data.warnings == ["98 action cards expected, file has 97 (PR-1.1)"]
    return data


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_ex18_custom_deck_sizes_next_player(seed):
    """EX-18, AMB-17 (next_player): P=3, decks 25/20/22: year 1 has 25 - 6 + 1 = 20 turns, so year 2
    starts at dist 2; year 2 has 20, so year 3 starts at dist (2 + 20) mod 3 = 1; 22 turns in
    year 3; 62 in all."""
    st, tt = play_logged(3, ex18_data("next_player"), seed)
    assert tt.deck_size[:3].tolist() == [25, 21, 23]      # scoring cards included in decks 2 and 3
    sp = st.sp
    assert year_turns(st) == [(20, sp), (20, (sp + 2) % 3), (22, (sp + 1) % 3)]
    assert st.turn == 62
    assert st.scorings == 5


@pytest.mark.parametrize("seed", [3, 4])
def test_ex18_custom_deck_sizes_start_player(seed):
    """EX-18, AMB-17 (start_player): the same decks, but every year starts with the start player."""
    st, tt = play_logged(3, ex18_data("start_player"), seed)
    sp = st.sp
    assert year_turns(st) == [(20, sp), (20, sp), (22, sp)]
    assert st.turn == 62
