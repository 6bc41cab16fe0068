"""Military scoring (PR-14), goal cards (PR-16) and the final score with its tie-break (PR-15) of
docs/principato.md: worked examples EX-1 .. EX-6, EX-19, EX-20 and the switches AMB-2, AMB-3,
AMB-4, AMB-19. Positions are built by hand (builder.py); the load (DEC-11) and discard (DEC-12)
steps are driven with scripted values."""
import numpy as np
import pytest

from simcore.boardgames.principato import playout, scoring
from simcore.boardgames.principato.state import (
    CAT_BOOKS, CAT_GOALS, CAT_MILITARY, CAT_MONUMENTS, CAT_PAINTINGS, CATEGORIES, EV_LOAD, MAX_PLAYERS)
from simcore.results import ranks
from tests.games.principato.builder import (
    GOAL, assert_conserved, done, events, holdings, position, script, set_holdings, supply)


def award(strengths):
    """PR-14.5 rank VP for these strengths (P = len(strengths))."""
    _, tt = position(players=len(strengths))
    out = np.zeros(MAX_PLAYERS, np.int32)
    scoring.rank_awards(tt, np.array(strengths + [0] * (MAX_PLAYERS - len(strengths)), np.int32),
                        len(strengths), out)
    return out[:len(strengths)].tolist()


def strength(st, tt, p):
    return int(scoring.strength(st, tt, p))


# ---------------------------------------------------------------- EX-1 .. EX-4 strength and ranks

def test_ex1_strength_of_philipp():
    """EX-1, PR-14.4: cat=2, mil[e=1,f=2] -> 2 + 2 - 1 = 3."""
    st, tt = position(players=4)
    set_holdings(st, tt, 0, catapult=2, mil=(1, 2, 0), food=0)
    assert strength(st, tt, 0) == 3


def test_ex1_strength_without_military_is_zero_and_may_be_negative():
    """PR-14.2, PR-14.4, AMB-15: no military tiles: 0; three empty units: -3."""
    st, tt = position(players=2)
    assert strength(st, tt, 0) == 0
    set_holdings(st, tt, 1, mil=(2, 0, 0), con=(1, 0, 0))
    assert strength(st, tt, 1) == -3


def test_ex2_tie_split_rulebook_example():
    """EX-2, PR-14.5: Tobias 5, Martina 5, Philipp 3, Wolf 2 -> 6, 6, 2, 0 (14 VP, one over 13)."""
    assert award([5, 5, 3, 2]) == [6, 6, 2, 0]
    assert sum(award([5, 5, 3, 2])) == 14


@pytest.mark.parametrize("strengths, vp", [
    ([2, 2], [3, 3]),
    ([4, 1, 1], [6, 2, 2]),
    ([1, 1, 1], [3, 3, 3]),
    ([-2, -1, -3], [3, 6, 0]),
    ([3, 3, 3, -1], [5, 5, 5, 0]),
    ([0, 0, 0, 0], [4, 4, 4, 4]),
    ([5, 2, 2, 2], [7, 2, 2, 2]),
    ([4, 4, 1, 1], [6, 6, 1, 1]),
    ([2, 2, 2, 9], [2, 2, 2, 7]),
    ([7, 3], [5, 0]),
    ([1, 2, 3, 4], [0, 2, 4, 7]),
])
def test_ex4_tie_split_table(strengths, vp):
    """EX-4, PR-14.5, INV-11 (the last two rows: no ties, exactly the rank table)."""
    assert award(strengths) == vp


def test_ex3_cleanup_and_discard():
    """EX-3, PR-14.7, PR-14.8: Philipp's 2 food go back (food supply +2), mil[e=3]; he discards 1
    militia (unit pool +1): mil[e=2], cat=2."""
    st, tt = position(players=4)
    set_holdings(st, tt, 0, catapult=2, mil=(1, 2, 0))
    food, units = supply(st, "food", "units").values()
    scoring.cleanup(st)
    assert supply(st, "food")["food"] == food + 2
    assert holdings(st, 0, "militia", "mil_food", "mil_fav") == {"militia": 3, "mil_food": 0, "mil_fav": 0}
    script(st, 1)                                     # DEC-12: 1 militia (no condottieri: not asked)
    playout.discard_step(st, tt, 0)
    done(st)
    assert holdings(st, 0, "militia", "catapult") == {"militia": 2, "catapult": 2}
    assert supply(st, "units")["units"] == units + 1
    assert_conserved(st, tt)


# ---------------------------------------------------------------- EX-5 order, EX-6 loading

def test_ex5_scoring_order_case_1():
    """EX-5 case 1, PR-14.1, AMB-14: 4 players, start player seat 2, military tiles 3, 5, 3, 3
    (catapults, militia and condottieri all count) -> [1, 2, 3, 0]."""
    st, tt = position(players=4, sp=2)
    set_holdings(st, tt, 0, catapult=3)
    set_holdings(st, tt, 1, catapult=1, mil=(2, 0, 0), con=(2, 0, 0))
    set_holdings(st, tt, 2, mil=(3, 0, 0))
    set_holdings(st, tt, 3, catapult=1, con=(2, 0, 0))
    scoring.scoring_order(st)
    assert st.order[:4].tolist() == [1, 2, 3, 0]


def test_ex5_scoring_order_case_2():
    """EX-5 case 2: 3 players, start player seat 1, tiles 2, 0, 2 -> [2, 0, 1] (dist(2)=1 < dist(0)=2)."""
    st, tt = position(players=3, sp=1)
    set_holdings(st, tt, 0, catapult=2)
    set_holdings(st, tt, 2, mil=(1, 0, 0), catapult=1)
    scoring.scoring_order(st)
    assert st.order[:3].tolist() == [2, 0, 1]


def test_ex6_strength_with_condottieri_and_favour():
    """EX-6, PR-14.3, DEC-11: cat=1, con[e=1,v=1], mil[e=1], money=1: strength 0; loading
    (0,0,1,0) gives 2. The militia cannot be loaded (no food, no favour): the only load decision
    asked is money -> condottiere."""
    st, tt = position(players=2)
    set_holdings(st, tt, 0, catapult=1, con=(1, 0, 1), mil=(1, 0, 0), money=1, favour=0, food=0)
    assert strength(st, tt, 0) == 0
    script(st, 1)
    playout.load_step(st, tt, 0)
    done(st)
    assert holdings(st, 0, "money", "con_money", "con_fav", "mil_food", "mil_fav") == {
        "money": 0, "con_money": 1, "con_fav": 1, "mil_food": 0, "mil_fav": 0}
    assert strength(st, tt, 0) == 2
    assert_conserved(st, tt)


def test_dec11_load_parts_are_bounded():
    """DEC-11: food->militia 0..min(food, empty militia), favour->militia 0..min(favour, the
    militia left), money->condottieri, favour->condottieri with the favour left."""
    st, tt = position(players=2)
    set_holdings(st, tt, 0, mil=(3, 0, 0), con=(2, 0, 0), food=2, money=1, favour=3, farm=1, bank=1)
    script(st, 2, 1, 1, 1)                 # a=2 of 0..2, b=1 of 0..1, c=1 of 0..1, d=1 of 0..1
    playout.load_step(st, tt, 0)
    done(st)
    assert holdings(st, 0, "food", "money", "favour", "mil_food", "mil_fav", "con_money", "con_fav") == {
        "food": 0, "money": 0, "favour": 1, "mil_food": 2, "mil_fav": 1, "con_money": 1, "con_fav": 1}
    assert strength(st, tt, 0) == 5
    assert_conserved(st, tt)


# ---------------------------------------------------------------- a whole military scoring

def test_pr14_full_scoring_three_players():
    """PR-14.1 .. PR-14.8: order by tiles (ties by distance from sp), loads in that order, VP by
    strength (negative strengths rank too, AMB-15), cleanup of every unit, discards in order."""
    st, tt = position(players=3, sp=0)
    set_holdings(st, tt, 0, mil=(2, 0, 0), food=0, favour=0)                    # strength -2
    set_holdings(st, tt, 1, catapult=1, con=(2, 0, 0), money=1, favour=0)      # -1 -> loads 1: 1
    set_holdings(st, tt, 2, mil=(3, 0, 0), food=1, favour=0)                    # -3 -> loads 1: -1
    st.logging = 1
    script(st,
           1,          # seat 1 (3 tiles, dist 1) first: money -> condottiere 1
           1,          # seat 2 (3 tiles, dist 2): food -> militia 1
           # seat 0 (2 tiles) has nothing to load: not asked
           1,          # discards in the same order: seat 1 returns 1 condottiere
           2,          # seat 2 returns 2 militia
           0)          # seat 0 keeps both militia
    playout.military_scoring(st, tt, False)
    done(st)
    assert st.order[:3].tolist() == [1, 2, 0]
    assert [e[1] for e in events(st, EV_LOAD)] == [1, 2]
    assert st.strength[:3].tolist() == [-2, 1, -1]
    assert st.military_vp[:3].tolist() == [0, 6, 3]
    assert st.pts[:3, CAT_MILITARY].tolist() == [0, 6, 3]
    assert st.scorings == 1
    assert holdings(st, 1, "condottiere", "con_money") == {"condottiere": 1, "con_money": 0}
    assert holdings(st, 2, "militia", "mil_food") == {"militia": 1, "mil_food": 0}
    assert holdings(st, 0, "militia")["militia"] == 2
    assert_conserved(st, tt)


def test_pr15_1_final_scoring_has_no_discards():
    """PR-15.1, DEC-12: the last scoring cleans up but asks for no discards."""
    st, tt = position(players=2, sp=0)
    set_holdings(st, tt, 0, mil=(2, 0, 0), food=1, favour=0)
    set_holdings(st, tt, 1, favour=0)
    script(st, 1)                                    # seat 0 loads 1 food; nothing else is asked
    playout.military_scoring(st, tt, True)
    done(st)
    assert st.strength[:2].tolist() == [0, 0]        # 1 loaded - 1 empty; no military
    assert st.military_vp[:2].tolist() == [3, 3]     # tie: ceil(5 / 2)
    assert holdings(st, 0, "militia", "mil_food", "food") == {"militia": 2, "mil_food": 0, "food": 0}
    assert st.loaded_final[:2].tolist() == [1, 0]
    assert_conserved(st, tt)


# ---------------------------------------------------------------- EX-19 goal cards (PR-16)

def goals_of(st, tt, p):
    return {name: int(scoring.goal_vp(st, tt, p, g)) for name, g in GOAL.items()}


def ex19(case, **switches):
    st, tt = position(players=2, **switches)
    if case == 1:
        set_holdings(st, tt, 0, catapult=3, field=5, farm=3, palazzo=4, bank=2, monument=2, book=3, painting=1)
        st.military_vp[0] = 13
    else:
        set_holdings(st, tt, 0, catapult=0, field=3, farm=3, palazzo=7, bank=3, monument=4, book=3, painting=5)
        st.military_vp[0] = 16
    return st, tt


def test_ex19_case_1():
    """EX-19 case 1, PR-16.1, PR-16.2, AMB-3 (floor)."""
    st, tt = ex19(1)
    assert goals_of(st, tt, 0) == {"ARMORY": 3, "FERTILE_SOIL": 2, "MUNICIPAL_LAW": 0, "STRONGHOLD": 3,
                                   "CHAPEL": 2, "CITY_HALL": 5, "VILLA": 2, "PALACE": 5}


def test_ex19_case_2():
    """EX-19 case 2, AMB-2 (Villa 9 as printed), AMB-4 (4 pairs score the 3-pair value)."""
    st, tt = ex19(2)
    assert goals_of(st, tt, 0) == {"ARMORY": 0, "FERTILE_SOIL": 0, "MUNICIPAL_LAW": 4, "STRONGHOLD": 4,
                                   "CHAPEL": 8, "CITY_HALL": 8, "VILLA": 9, "PALACE": 15}


def test_ex19_case_2_villa_table_switch():
    """EX-19 case 2, AMB-2: villa_table = [0,2,5,8] gives VILLA 8; the other goals do not change."""
    st, tt = ex19(2, villa_table=[0, 2, 5, 8])
    assert goals_of(st, tt, 0) == {"ARMORY": 0, "FERTILE_SOIL": 0, "MUNICIPAL_LAW": 4, "STRONGHOLD": 4,
                                   "CHAPEL": 8, "CITY_HALL": 8, "VILLA": 8, "PALACE": 15}


@pytest.mark.parametrize("military, vp", [(15, 3), (3, 0), (4, 1), (0, 0), (13, 3), (16, 4)])
def test_ex19_stronghold_edge_cases(military, vp):
    """EX-19 STRONGHOLD edge cases, AMB-3 floor: 15 -> 3, 3 -> 0."""
    st, tt = position(players=2)
    st.military_vp[0] = military
    assert scoring.goal_vp(st, tt, 0, GOAL["STRONGHOLD"]) == vp


@pytest.mark.parametrize("rounding, military, vp", [
    ("round", 13, 3), ("round", 14, 4), ("round", 15, 4), ("ceil", 13, 4), ("ceil", 12, 3), ("ceil", 3, 1),
])
def test_amb3_stronghold_rounding_switch(rounding, military, vp):
    """AMB-3: stronghold_rounding = round (halves up) or ceil."""
    st, tt = position(players=2, stronghold_rounding=rounding)
    st.military_vp[0] = military
    assert scoring.goal_vp(st, tt, 0, GOAL["STRONGHOLD"]) == vp


@pytest.mark.parametrize("cap, chapel, palace", [(3, 8, 15), (2, 5, 10), (1, 2, 5)])
def test_amb4_pair_cap(cap, chapel, palace):
    """AMB-4, PR-16.2: pairs and sets beyond pair_cap score the capped value (case 2 holdings:
    4 monument+painting pairs, 3 full sets)."""
    st, tt = ex19(2, pair_cap=cap)
    assert scoring.goal_vp(st, tt, 0, GOAL["CHAPEL"]) == chapel
    assert scoring.goal_vp(st, tt, 0, GOAL["PALACE"]) == palace


@pytest.mark.parametrize("tokens, vp", [((0, 0, 0), 0), ((1, 0, 0), 0), ((1, 1, 1), 5), ((2, 2, 1), 5),
                                        ((2, 2, 2), 10), ((6, 5, 3), 15)])
def test_pr16_palace_sets_are_disjoint(tokens, vp):
    """PR-16.1, PR-16.2: PALACE counts complete monument+book+painting sets, each token once."""
    st, tt = position(players=2)
    m, b, p = tokens
    set_holdings(st, tt, 0, monument=m, book=b, painting=p)
    assert scoring.goal_vp(st, tt, 0, GOAL["PALACE"]) == vp


# ---------------------------------------------------------------- EX-20 final score, tie-break (PR-15)

def ex20(**switches):
    """EX-20: A (seat 0) and B (seat 1), 13 military VP each, their tokens bought in turn from the
    top of the stacks, their goals, and stored cubes after the final cleanup (A also had 2 food
    on militia in the final scoring, which the cleanup returned)."""
    st, tt = position(players=2, sp=0, **switches)
    a, b = 0, 1
    for p in (a, b):
        st.military_vp[p] = 13
        st.pts[p, CAT_MILITARY] = 13
        st.vp[p] = 13
    set_holdings(st, tt, a, monument=2, book=3, painting=1)
    set_holdings(st, tt, b, monument=3, book=2, painting=1)
    set_holdings(st, tt, a, catapult=4, food=2, money=3, favour=0, bank=2, mil=(0, 2, 0))
    set_holdings(st, tt, b, field=6, farm=5, food=4, money=1, favour=1)
    st.goals[a] = [GOAL["ARMORY"], GOAL["VILLA"]]
    st.goals[b] = [GOAL["FERTILE_SOIL"], GOAL["CHAPEL"]]
    scoring.cleanup(st)                               # the final scoring's cleanup (PR-14.7)
    scoring.score_goals(st, tt)
    return st, tt


def test_ex20_final_score():
    """EX-20, PR-15.2, INV-12: A 13 + 29 + 4 + 2 = 48; B 13 + 28 + 5 + 2 = 48. Every token came
    from the top value band (4, 5, 6)."""
    st, tt = ex20()
    assert st.culture_vp[0].tolist() == [8, 15, 6]
    assert st.culture_vp[1].tolist() == [12, 10, 6]
    assert st.taken.tolist() == [5, 5, 2]
    goal = {name: CAT_GOALS + i for i, name in enumerate(GOAL)}
    a = st.pts[0]
    b = st.pts[1]
    assert (a[CAT_MILITARY], a[CAT_MONUMENTS], a[CAT_BOOKS], a[CAT_PAINTINGS]) == (13, 8, 15, 6)
    assert (a[goal["ARMORY"]], a[goal["VILLA"]]) == (4, 2)
    assert (b[CAT_MILITARY], b[CAT_MONUMENTS], b[CAT_BOOKS], b[CAT_PAINTINGS]) == (13, 12, 10, 6)
    assert (b[goal["FERTILE_SOIL"]], b[goal["CHAPEL"]]) == (5, 2)
    assert st.vp[:2].tolist() == [48, 48]
    assert st.pts[:2].sum(axis=1).tolist() == [48, 48]
    assert len(CATEGORIES) == st.pts.shape[1]
    assert_conserved(st, tt)


def test_ex20_tiebreak_stored_cubes():
    """EX-20, PR-15.3, AMB-19 (a): stored cubes after the final cleanup, A 5, B 6: B wins; the 2
    food A loaded in the final scoring do not count."""
    st, tt = ex20()
    assert st.loaded_final[:2].tolist() == [2, 0]
    tb = [int(scoring.tiebreak(st, tt, p)) for p in range(2)]
    assert tb == [5, 6]
    assert ranks(st.vp[None, :2], np.array([tb])).tolist() == [[2, 1]]


def test_amb19_tiebreak_counts_loaded_switch():
    """AMB-19 (b), tiebreak_counts_loaded = true: A's 2 loaded food count, A 7 beats B 6."""
    st, tt = ex20(tiebreak_counts_loaded=True)
    tb = [int(scoring.tiebreak(st, tt, p)) for p in range(2)]
    assert tb == [7, 6]
    assert ranks(st.vp[None, :2], np.array([tb])).tolist() == [[1, 2]]


def test_pr15_3_remaining_tie_is_shared():
    """PR-15.3 step 2: equal VP and equal stored cubes share the rank."""
    st, tt = ex20()
    set_holdings(st, tt, 0, food=3)
    tb = [int(scoring.tiebreak(st, tt, p)) for p in range(2)]
    assert tb == [6, 6]
    assert ranks(st.vp[None, :2], np.array([tb])).tolist() == [[1, 1]]
