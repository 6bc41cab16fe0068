"""Notre Dame rule tests: plague, bribes and persons, stage end and game end, invariants
(docs/notre_dame.md ND-9 .. ND-16, worked cases TC-50 .. TC-99 of §20, switches of §19).

Every position is built by hand with builder.py; expectations are the spec's numbers.
"""
import numpy as np
import pytest

from simcore.boardgames.notre_dame import playout, rules, scoring
from simcore.boardgames.notre_dame.state import (
    BEGGAR_KING, BISHOP, CARPENTER, CAT_PARK_BONUS, CAT_PAYOUT, CAT_PERSONS, CAT_PLAGUE, CITY_GUARD,
    DOCTOR, GUILD_MASTER, HOUSEKEEPER, JESTER, JESTER_CONFIDANT, JESTER_FROM_ND, LADY, LAWYER, MAYOR,
    MINSTREL, MONEYLENDER, MONK, N_BUILDINGS, N_KINDS, NIGHT_WATCHMAN, NOWHERE, PASS, RAT)
from simcore.results import ranks
from .builder import BUILDING_IDS, count, data_with, options, position, script, seat

CS, BK, RS, CH, GH, PK, HO = (BUILDING_IDS[k] for k in ("CS", "BK", "RS", "CH", "GH", "PK", "HO"))
PLAGUE_FACE = (HOUSEKEEPER, DOCTOR, CITY_GUARD)        # two brown persons and a grey one, as in ND-4.1


# ---------------------------------------------------------------- helpers

def person(tt, effect):
    """The index of the person card with this effect."""
    return int(np.flatnonzero(tt.person_effect == effect)[0])


def game(players=4, face=PLAGUE_FACE, round=1, **rule_switches):
    """A fresh position with invariant checking on and the given persons face up (ND-4.1)."""
    st, tt = position(players=players, round=round, data=data_with(**rule_switches))
    st.checking = 1
    for i, effect in enumerate(face):
        st.face[i] = person(tt, effect)
    return st, tt


def set_rats(st, tt, R):
    """Give the three face-up persons R rats in all (0-3 each, ND-10.1)."""
    left = R
    for i in range(3):
        tt.person_rats[st.face[i]] = min(3, left)
        left -= min(3, left)
    assert left == 0 and rules.face_rats(st, tt) == R


def done(st, tt, violation=0):
    """Every scripted choice was legal and the position is still consistent (TC-99)."""
    assert st.script_miss == 0
    playout.check(st, tt)
    assert st.violation == violation


def plague(st, tt, R, *choices):
    """Phase 5 for every seat with R rats face up; choices answer DP-16."""
    set_rats(st, tt, R)
    script(st, *choices)
    playout.plague_phase(st, tt)


def bribe(st, tt, *choices):
    """Phase 4; choices answer DP-11 (and the persons' own decisions) in turn order."""
    script(st, *choices)
    playout.bribe_phase(st, tt)


def apply(st, tt, p, effect, *choices):
    """The effect of a bribed person for seat p (the gold is paid elsewhere)."""
    script(st, *choices)
    playout.apply_person(st, tt, p, person(tt, effect))


def seat_state(st, p):
    """Everything a seat holds, to compare before and after."""
    return {name: np.array(getattr(st, name)[p]).copy() for name in
            ("cubes", "conf", "personal", "gsupply", "nd", "gold", "vp", "rat", "carriage", "held", "pts")}


def assert_same(before, after, skip=()):
    for name, value in before.items():
        if name not in skip:
            assert np.array_equal(value, after[name]), name


def minstrel(src, dst, x, y):
    """DP-14 encoding."""
    return src * 64 + dst * 8 + x * 2 + y


def jester(piece, dst):
    """DP-15 encoding."""
    return piece * 8 + dst


# ---------------------------------------------------------------- plague (ND-10)

@pytest.mark.parametrize("case, rat, R, h, new_rat, outbreak", [
    ("TC-50", 5, 4, 1, 8, False),
    ("TC-51", 7, 5, 2, 9, True),
    ("TC-52", 9, 2, 2, 9, False),
    ("TC-53", 9, 3, 2, 9, True),
    ("TC-54", 3, 1, 3, 1, False),      # the hospital moves the marker back (A-3 NET)
    ("TC-55", 1, 0, 3, 0, False),      # not below 0
    ("TC-57", 7, 5, 3, 9, False),      # net: no outbreak
])
def test_plague_net(case, rat, R, h, new_rat, outbreak):
    # TC-50..TC-55, TC-57; ND-10.2, ND-10.3, A-3, A-4
    st, tt = game()
    seat(st, 0, bld={"HO": h, "BK": 4}, per=0, rat=rat, vp=10)
    assert rules.plague_move(st, tt, 0, R) == (new_rat, outbreak)
    gs = int(st.gsupply[0])
    plague(st, tt, R)
    assert st.rat[0] == new_rat
    if outbreak:                        # rat 9, -2 VP, one cube off the fullest building (BK)
        assert (st.vp[0], st.pts[0, CAT_PLAGUE], st.cubes[0, BK], st.gsupply[0]) == (8, -2, 3, gs + 1)
        assert st.cubes[0, HO] == h
    else:
        assert (st.vp[0], st.cubes[0, BK], st.gsupply[0]) == (10, 4, gs)
    done(st, tt)


@pytest.mark.parametrize("mode, case, rat, R, h, new_rat, outbreak", [
    ("SEQUENTIAL", "TC-57", 7, 5, 3, 6, True),      # +R first: outbreak at 12, then 9 - 3
    ("SEQUENTIAL", "TC-50", 5, 4, 1, 8, False),
    ("NET_NO_BACK", "TC-54", 3, 1, 3, 3, False),    # the hospital only cancels new rats
    ("NET_NO_BACK", "TC-55", 1, 0, 3, 1, False),
    ("NET_NO_BACK", "TC-57", 7, 5, 3, 9, False),
])
def test_plague_mode_switch(mode, case, rat, R, h, new_rat, outbreak):
    # TC-57 / TC-54 notes of A-3; F_PLAGUE_MODE; ND-10.2
    st, tt = game(F_PLAGUE_MODE=mode)
    seat(st, 0, bld={"HO": h, "BK": 4}, per=0, rat=rat, vp=10)
    assert rules.plague_move(st, tt, 0, R) == (new_rat, outbreak)
    plague(st, tt, R)
    assert st.rat[0] == new_rat
    assert st.vp[0] == (8 if outbreak else 10)
    assert st.cubes[0, BK] == (3 if outbreak else 4)
    done(st, tt)


@pytest.mark.parametrize("case, rat, R, h, outbreak", [
    ("TC-52", 9, 2, 2, True),           # x = 9 now breaks out
    ("TC-50", 5, 4, 1, False),          # x = 8
])
def test_outbreak_at_9_switch(case, rat, R, h, outbreak):
    # F_OUTBREAK_AT = 9; A-4, ND-10.2
    st, tt = game(F_OUTBREAK_AT=9)
    seat(st, 0, bld={"HO": h, "BK": 4}, per=0, rat=rat, vp=10)
    plague(st, tt, R)
    assert st.rat[0] == (9 if outbreak else rat + R - h)
    assert (st.vp[0], st.cubes[0, BK]) == ((8, 3) if outbreak else (10, 4))
    done(st, tt)


def test_doctor_protects_only_its_briber():
    # TC-56, ND-10.2, ND-15.1 B6, A-19
    st, tt = game()
    st.bribed[0] = person(tt, DOCTOR)
    seat(st, 0, bld={"HO": 2}, rat=4)
    seat(st, 1, rat=0)
    plague(st, tt, 6)
    assert st.rat[0] == 2               # R_p = 0, the hospital still moves it back
    assert st.rat[1] == 6               # no Doctor: R as usual
    done(st, tt)


def test_doctor_on_9_without_hospital_no_outbreak():
    # TC-56 (second case), ND-10.2, A-19
    st, tt = game()
    st.bribed[0] = person(tt, DOCTOR)
    seat(st, 0, bld={"BK": 2}, rat=9, vp=10)
    seat(st, 1, bld={"BK": 2}, rat=9, vp=10)
    plague(st, tt, 9)
    assert (st.rat[0], st.vp[0], st.cubes[0, BK]) == (9, 10, 2)
    assert (st.rat[1], st.vp[1], st.cubes[1, BK]) == (9, 8, 1)      # seat 1 did not bribe him
    done(st, tt)


def test_confidant_in_hospital_counts():
    # TC-58, ND-10.2, ND-0.5, A-16
    st, tt = game()
    seat(st, 0, bld={"HO": 1}, conf="HO", rat=5)
    assert count(st, 0, "HO") == 2
    assert rules.plague_move(st, tt, 0, 0) == (3, False)
    plague(st, tt, 3)
    assert st.rat[0] == 6               # 5 + 3 - 2
    done(st, tt)


@pytest.mark.parametrize("choice, bk, rs", [(RS, 3, 1), (BK, 2, 2)], ids=["lose RS", "lose BK"])
def test_outbreak_tie_is_the_players_choice(choice, bk, rs):
    # TC-59, ND-10.3, A-6, DP-16
    st, tt = game()
    seat(st, 0, bld={"BK": 3, "RS": 2, "PK": 1}, conf="RS", vp=10, rat=9)
    rules.outbreak_candidates(st, 0)
    assert options(st) == [BK, RS]
    plague(st, tt, 3, choice)
    assert (st.cubes[0, BK], st.cubes[0, RS], st.cubes[0, PK]) == (bk, rs, 1)
    assert st.conf[0] == RS
    assert (st.vp[0], st.rat[0]) == (8, 9)
    done(st, tt)


def outbreak_without_cubes(**rule_switches):
    st, tt = game(**rule_switches)
    seat(st, 0, conf="HO", nd=2, per=3, vp=1, rat=9)
    rules.outbreak_candidates(st, 0)
    assert options(st) == []
    before = seat_state(st, 0)
    plague(st, tt, 3)                   # x = 9 + 3 - 1 = 11
    assert st.rat[0] == 9
    assert_same(before, seat_state(st, 0), skip=("vp", "rat", "pts"))   # ND, personal, supply untouched
    return st, tt


def test_outbreak_with_nothing_removable():
    # TC-60, ND-10.3, A-5, A-6
    st, tt = outbreak_without_cubes()
    assert st.vp[0] == 0 and st.pts[0, CAT_PLAGUE] == -1
    done(st, tt)


def test_outbreak_vp_below_zero_switch():
    # TC-60 with F_VP_FLOOR0 = false, A-5: the 2 VP are lost in full; VP below 0 is then legal
    st, tt = outbreak_without_cubes(F_VP_FLOOR0=False)
    assert st.vp[0] == -1 and st.pts[0, CAT_PLAGUE] == -2
    done(st, tt)


def test_outbreak_confidant_raises_the_max():
    # TC-61, ND-10.3, A-6
    st, tt = game()
    seat(st, 0, bld={"RS": 1, "BK": 1}, conf="RS", rat=9, vp=5)
    rules.outbreak_candidates(st, 0)
    assert options(st) == [RS]
    plague(st, tt, 3)
    assert (st.cubes[0, RS], st.cubes[0, BK], st.conf[0]) == (0, 1, RS)
    assert count(st, 0, "RS") == 1
    done(st, tt)


# ---------------------------------------------------------------- bribes (ND-9)

def test_bribe_cost_and_moneylender():
    # TC-70, ND-9.1, ND-9.2, ND-15.1 B3, DP-11
    st, tt = game(face=(MONEYLENDER, MONK, CITY_GUARD))
    seat(st, 0, gold=0)
    rules.bribe_options(st, tt, 0)
    assert options(st) == [PASS]
    seat(st, 0, gold=2, vp=0)
    for p in (1, 2, 3):
        seat(st, p, gold=6)
    assert st.G == 5
    bribe(st, tt, person(tt, MONEYLENDER), PASS, PASS, PASS)
    assert (st.gold[0], st.G, st.vp[0]) == (3, 4, 1)
    assert st.bribed[0] == person(tt, MONEYLENDER)
    done(st, tt)


def test_same_person_twice():
    # TC-71, ND-9.3, ND-15.1 B2
    st, tt = game(face=(MONK, MONEYLENDER, CITY_GUARD))
    monk = person(tt, MONK)
    bribe(st, tt, monk, monk, PASS, PASS)
    for p in (0, 1):
        assert (st.personal[p], st.gsupply[p], st.vp[p], st.gold[p]) == (6, 8, 1, 2)
    for p in (2, 3):
        assert (st.personal[p], st.vp[p], st.gold[p]) == (4, 0, 3)
    done(st, tt)


def test_monk_with_park():
    # TC-72, ND-15.1 B2, ND-11.2
    st, tt = game()
    seat(st, 0, bld={"PK": 4}, per=0, gs=10, vp=0)
    apply(st, tt, 0, MONK)
    assert (st.personal[0], st.gsupply[0], st.vp[0]) == (2, 8, 3)
    assert (st.pts[0, CAT_PERSONS], st.pts[0, CAT_PARK_BONUS]) == (1, 2)
    done(st, tt)


def test_housekeeper():
    # TC-73, ND-15.1 B1, DP-12
    st, tt = game()
    seat(st, 0, rat=2, vp=0)
    apply(st, tt, 0, HOUSEKEEPER, RAT)
    assert (st.vp[0], st.rat[0], st.gold[0], st.personal[0]) == (3, 1, 3, 4)
    done(st, tt)


def test_minstrel_moves_pieces_without_action():
    # TC-74, ND-15.3, ND-11.4, DP-14
    st, tt = game()
    seat(st, 0, bld={"BK": 3, "PK": 1}, conf="BK", per=0, rat=4, vp=0)
    apply(st, tt, 0, MINSTREL, minstrel(BK, PK, 2, 1))
    assert (st.cubes[0, BK], st.cubes[0, PK], st.conf[0]) == (1, 3, PK)
    assert count(st, 0, "PK") == 4 and rules.park_bonus(st, 0) == 2
    assert (st.rat[0], st.vp[0], st.gold[0]) == (4, 0, 3)
    done(st, tt)


def test_minstrel_legal_moves():
    # TC-75, ND-15.3, A-20, DP-14: the legal set is exactly src != dst among the 7 buildings,
    # 1 <= x + y <= 3, x <= cubes(src), y <= conf(src); Notre Dame never takes part
    st, tt = game()
    seat(st, 0, bld={"BK": 4, "PK": 1}, conf="BK", nd=2, per=0)
    rules.minstrel_moves(st, 0)
    legal = options(st)
    pieces = {BK: (4, 1), PK: (1, 0)}
    expected = sorted(minstrel(src, dst, x, y)
                      for src, (cubes, conf) in pieces.items() for dst in range(N_BUILDINGS) if dst != src
                      for y in range(conf + 1) for x in range(min(cubes, 3) + 1) if 1 <= x + y <= 3)
    assert legal == expected
    assert minstrel(BK, PK, 3, 1) not in legal          # 4 pieces
    assert minstrel(BK, BK, 1, 0) not in legal          # same building
    assert minstrel(BK, PK, 0, 0) not in legal          # 0 pieces
    assert minstrel(PK, BK, 0, 1) not in legal          # no confidant on PK
    assert all(mv // 64 < N_BUILDINGS and (mv // 8) % 8 < N_BUILDINGS for mv in legal)   # no Notre Dame
    apply(st, tt, 0, MINSTREL, minstrel(BK, RS, 3, 0))
    assert (st.cubes[0, BK], st.cubes[0, RS], st.nd[0]) == (1, 3, 2)
    done(st, tt)


def test_jester_from_notre_dame():
    # TC-76, ND-15.4, A-20, DP-15
    st, tt = game()
    seat(st, 0, bld={"RS": 2}, nd=2, per=0, vp=0)
    apply(st, tt, 0, JESTER, jester(JESTER_FROM_ND, RS))
    assert (st.nd[0], st.cubes[0, RS], st.vp[0]) == (1, 3, 3)
    done(st, tt)


def test_jester_moves_the_confidant():
    # TC-77, ND-15.4, A-20, DP-15
    st, tt = game()
    seat(st, 0, bld={"BK": 1}, conf="RS", gold=0)
    g = int(st.G)
    apply(st, tt, 0, JESTER, jester(JESTER_CONFIDANT, BK))
    assert st.conf[0] == BK and count(st, 0, "BK") == 2 and count(st, 0, "RS") == 0
    assert (st.gold[0], st.G) == (2, g - 2)
    done(st, tt)


def test_bishop_on_the_hospital():
    # TC-78, ND-15.2 G3, A-13, DP-13
    st, tt = game()
    seat(st, 0, bld={"CS": 1, "BK": 1, "RS": 1, "GH": 1, "PK": 1}, per=0, rat=3)
    rules.empty_buildings(st, 0)
    assert options(st) == [CH, HO]
    gs = int(st.gsupply[0])
    apply(st, tt, 0, BISHOP, HO)
    assert (st.cubes[0, HO], st.rat[0], st.gsupply[0], st.personal[0]) == (1, 2, gs - 1, 0)
    done(st, tt)


def test_bishop_on_the_carriage_house_moves_one_step():
    # TC-78 (target CH), ND-15.2 G3, ND-7.4: k = 1
    st, tt = game()
    seat(st, 0, bld={"CS": 1, "BK": 1, "RS": 1, "GH": 1, "PK": 1}, per=0)
    here = int(st.carriage[0])
    one_step = [m for m in range(tt.n_markets) if tt.distance[here, m] == 1]
    two_steps = [m for m in range(tt.n_markets) if tt.distance[here, m] == 2]
    rules.carriage_destinations(st, tt, 0, 1)
    reach = options(st)
    assert set(one_step) <= set(reach) and not set(two_steps) & set(reach)
    apply(st, tt, 0, BISHOP, CH, one_step[0], 0)           # drive one step, leave the tile
    assert (st.cubes[0, CH], st.carriage[0]) == (1, one_step[0])
    done(st, tt)


@pytest.mark.parametrize("bld, per", [
    ({"CS": 1, "BK": 1, "RS": 1, "CH": 1, "GH": 1, "PK": 1, "HO": 1}, 0),   # no empty building
    ({"BK": 5, "RS": 5}, 4),                                               # gs = 0
])
def test_useless_bishop(bld, per):
    # TC-79, ND-9.5, A-13, A-27
    st, tt = game(face=(MONK, MONEYLENDER, BISHOP))
    seat(st, 0, bld=bld, per=per, gold=1)
    for p in (1, 2, 3):
        seat(st, p, gold=0)
    rules.bribe_options(st, tt, 0)
    assert person(tt, BISHOP) in options(st)              # legal although useless
    before = seat_state(st, 0)
    bribe(st, tt, person(tt, BISHOP))
    assert (st.gold[0], st.G) == (0, 25)
    assert_same(before, seat_state(st, 0), skip=("gold",))
    done(st, tt)


# ---------------------------------------------------------------- grey persons (ND-15.2)

GREY_CASES = [
    # case, effect, seat position, messages held, base VP, VP gained (with the Park bonus)
    ("TC-80", CITY_GUARD, dict(bld={"BK": 2, "RS": 3}, conf="CS", nd=2), None, 8, 8),
    ("TC-81", NIGHT_WATCHMAN, dict(bld={"BK": 1, "RS": 1}, conf="PK"), None, 4, 4),
    ("TC-82", GUILD_MASTER, dict(bld={"BK": 2, "RS": 3, "PK": 1, "HO": 1}, conf="PK"), None, 6, 7),
    ("TC-83 rat 4", BEGGAR_KING, dict(rat=4), None, 5, 5),
    ("TC-83 rat 9", BEGGAR_KING, dict(rat=9, bld={"PK": 2}), None, 0, 0),     # no event, no bonus
    ("TC-83 rat 0", BEGGAR_KING, dict(rat=0), None, 9, 9),
    ("TC-84 5 msgs", LAWYER, {}, (2, 1, 1, 1), 6, 6),
    ("TC-84 1 msg", LAWYER, {}, (1, 0, 0, 0), 0, 0),
    ("TC-85", LADY, dict(bld={"RS": 3, "BK": 2}, conf="RS"), None, 4, 4),
    ("TC-86", MAYOR, dict(bld={"BK": 3, "RS": 2, "PK": 2}, conf="RS"), None, 6, 7),
    ("TC-87", CARPENTER, dict(bld={"CS": 1, "BK": 2, "RS": 1}, conf="HO"), None, 4, 4),
]


@pytest.mark.parametrize("case, effect, position_, held, base, gained", GREY_CASES,
                         ids=[c[0] for c in GREY_CASES])
def test_grey_person_vp(case, effect, position_, held, base, gained):
    # TC-80..TC-87, ND-15.2, ND-11.2, ND-11.3, A-15, A-16, A-18
    st, tt = game()
    seat(st, 0, per=0, vp=10, **position_)
    if held is not None:
        st.held[0, :4] = held
        for colour, k in enumerate(held):           # the tiles left the board (ND-7.4)
            taken = [m for m in range(len(st.msg_at)) if st.msg_at[m] >= 0 and st.msg_at[m] // 4 == colour][:k]
            st.msg_at[taken] = -1
            st.on_board[colour] -= k
    assert rules.person_vp(st, tt, 0, effect) == base
    apply(st, tt, 0, effect)
    assert st.vp[0] == 10 + gained
    assert (st.pts[0, CAT_PERSONS], st.pts[0, CAT_PARK_BONUS]) == (base, gained - base)
    done(st, tt)


def test_city_guard_without_notre_dame_switch():
    # TC-80 with F_GUARD_COUNTS_ND = false, A-15
    st, tt = game(F_GUARD_COUNTS_ND=False)
    seat(st, 0, bld={"BK": 2, "RS": 3}, conf="CS", nd=2, per=0, vp=0)
    assert rules.person_vp(st, tt, 0, CITY_GUARD) == 6
    apply(st, tt, 0, CITY_GUARD)
    assert st.vp[0] == 6
    done(st, tt)


@pytest.mark.parametrize("allow", [True, False])
def test_useless_bribe_switch(allow):
    # F_ALLOW_USELESS_BRIBE, ND-9.5, A-27, ND-16 DP-11: nothing on any building and no Notre Dame
    # cube -> the Minstrel and the Jester can do nothing; the Monk always gives VP
    st, tt = game(face=(MONK, MINSTREL, JESTER), F_ALLOW_USELESS_BRIBE=allow)
    seat(st, 0, per=4)
    rules.bribe_options(st, tt, 0)
    useful = [PASS, person(tt, MONK)]
    useless = [person(tt, MINSTREL), person(tt, JESTER)]
    assert options(st) == sorted(useful + useless if allow else useful)


@pytest.mark.parametrize("allow", [True, False])
def test_useless_grey_and_bishop_bribe_switch(allow):
    # F_ALLOW_USELESS_BRIBE, A-27: Lawyer with 1 message (0 VP), Bishop with gs = 0, Guild master
    # with no building of count >= 2
    st, tt = game(face=(LAWYER, BISHOP, GUILD_MASTER), F_ALLOW_USELESS_BRIBE=allow)
    seat(st, 0, bld={"BK": 1, "RS": 1}, per=12, gs=0)
    st.held[0, 0] = 1
    rules.bribe_options(st, tt, 0)
    every = sorted([PASS] + [person(tt, e) for e in (LAWYER, BISHOP, GUILD_MASTER)])
    assert options(st) == (every if allow else [PASS])


# ---------------------------------------------------------------- stage end (ND-13)

ALL_KINDS_DRAWN = (1 << N_KINDS) - 1


def stage_one_over(players, **rule_switches):
    """A position at the end of round 3: every seat has drawn its 9 kinds this stage (ND-5.6)."""
    st, tt = game(players=players, round=3, **rule_switches)
    st.drawn[:players] = ALL_KINDS_DRAWN
    return st, tt


def payout(players, nds, parks=(), **rule_switches):
    """End of stage 1 with nd cubes per seat (and a Park count per seat); returns st, tt, VP gains."""
    st, tt = stage_one_over(players, **rule_switches)
    for p in range(players):
        seat(st, p, nd=nds[p], vp=0, bld={"PK": parks[p]} if p < len(parks) else None)
    gs = st.gsupply[:players].copy()
    playout.end_of_stage(st, tt)
    assert list(st.nd[:players]) == [0] * players                    # ND-13.2
    assert list(st.gsupply[:players]) == list(gs + np.array(nds))
    done(st, tt)
    return st, tt, [int(v) for v in st.vp[:players]]


def test_payout_three_cubes():
    # TC-90, ND-13.1, ND-13.2, ND-11.3
    st, tt, gains = payout(4, (1, 1, 1, 0))
    assert tt.payout == 10 and gains == [3, 3, 3, 0]
    st, tt, gains = payout(4, (1, 1, 1, 0), parks=(2,))
    assert gains == [4, 3, 3, 0]
    assert (st.pts[0, CAT_PAYOUT], st.pts[0, CAT_PARK_BONUS]) == (3, 1)


def test_payout_two_and_one():
    # TC-91, ND-13.1
    assert payout(4, (2, 1, 0, 0))[2] == [6, 3, 0, 0]


@pytest.mark.parametrize("split, gains", [("PER_CUBE", [6, 2, 0, 0]), ("PER_PLAYER", [7, 2, 0, 0])])
def test_payout_rounding(split, gains):
    # TC-92, ND-13.1, A-21, F_ND_SPLIT
    assert payout(4, (3, 1, 0, 0), F_ND_SPLIT=split)[2] == gains


def test_payout_zero_share():
    # TC-93, ND-13.1, ND-11.2: q = 0, nobody scores, no Park bonus; all 9 cubes return
    st, tt, gains = payout(3, (3, 3, 3), parks=(2, 2, 2))
    assert tt.payout == 8 and gains == [0, 0, 0]


def test_payout_two_players():
    # TC-94, ND-13.1, ND-1.4
    st, tt, gains = payout(2, (2, 2))
    assert tt.payout == 6 and gains == [2, 2]


def test_stage_reset():
    # TC-95, ND-13, ND-3.3, ND-12.3
    st, tt = stage_one_over(4)
    st.s0 = 2
    seat(st, 0, bld={"BK": 2, "PK": 1}, conf="RS", per=2, nd=1, gold=5, vp=7, rat=4)
    seat(st, 1, bld={"HO": 3}, per=0, nd=1, gold=1, vp=3, rat=9)
    before = [seat_state(st, p) for p in range(4)]
    msg_at = st.msg_at.copy()
    playout.end_of_stage(st, tt)
    assert (st.vp[0], st.vp[1]) == (7 + 5, 3 + 5)                     # q = 10 // 2 = 5
    for p in range(4):
        assert st.nd[p] == 0
        assert_same(before[p], seat_state(st, p), skip=("nd", "gsupply", "vp", "pts"))
        assert sorted(st.deck[p]) == list(range(N_KINDS))             # own 9 kinds, new stage
        assert st.drawn[p] == 0
    assert sorted(st.brown) == sorted(int(i) for i in np.flatnonzero(tt.person_grey == 0))
    assert np.array_equal(st.msg_at, msg_at)
    done(st, tt)
    st.round_no = 4
    playout.play_round(st, tt)          # random play; the round-4 start player is s0 + 3
    assert st.start == (2 + 3) % 4
    done(st, tt)


# ---------------------------------------------------------------- game end (ND-14)

def ranking(rows):
    """rows = (vp, gold, personal) per seat -> rank numbers (ND-14.2)."""
    st, tt = game(players=len(rows))
    for p, (vp, gold, per) in enumerate(rows):
        seat(st, p, vp=vp, gold=gold, per=per)
    scores = np.array([[int(st.vp[p]) for p in range(len(rows))]])
    tiebreak = np.array([[int(scoring.tiebreak(st, tt, p)) for p in range(len(rows))]])
    return [int(r) for r in ranks(scores, tiebreak)[0]]


def test_ranking():
    # TC-96, ND-14.2
    assert ranking([(50, 2, 1), (50, 2, 3), (52, 0, 0)]) == [3, 2, 1]      # C, B, A
    assert ranking([(50, 2, 3), (50, 2, 3), (52, 0, 0)]) == [2, 2, 1]      # A and B share


# ---------------------------------------------------------------- invariants (TC-99)

def invariant_position():
    st, tt = game()
    seat(st, 0, bld={"BK": 3, "RS": 2}, conf="RS", per=1, gold=0, rat=5, vp=10, nd=2)
    seat(st, 1, bld={"HO": 1}, per=3, gold=6, rat=9, vp=4)
    seat(st, 2, per=0, gs=14, gold=1)
    return st, tt


def corrupt_message(st):
    st.held[1, 2] += 1                  # a tile collected that is still on the board


CORRUPTIONS = [
    ("cube too many", 1, lambda st: st.personal.__setitem__(0, st.personal[0] + 1)),
    ("cube on ND lost", 1, lambda st: st.nd.__setitem__(0, st.nd[0] - 1)),
    ("gold from nowhere", 2, lambda st: st.gold.__setitem__(1, st.gold[1] + 1)),
    ("rat past 9", 3, lambda st: st.rat.__setitem__(1, 10)),
    ("negative vp", 4, lambda st: (st.vp.__setitem__(2, -1), st.pts.__setitem__((2, CAT_PLAGUE), -1))),
    ("vp not the categories", 5, lambda st: st.vp.__setitem__(0, st.vp[0] + 1)),
    ("message twice", 6, corrupt_message),
    ("confidant off the board", 7, lambda st: st.conf.__setitem__(0, N_BUILDINGS)),
]


def test_invariants_hold_on_a_consistent_position():
    # TC-99, ND-0.3, ND-0.6
    st, tt = invariant_position()
    assert st.G + st.gold[:4].sum() == 25
    for p in range(4):
        assert st.gsupply[p] + st.personal[p] + st.cubes[p].sum() + st.nd[p] == 14
    assert st.conf[3] == NOWHERE
    done(st, tt)


@pytest.mark.parametrize("name, code, corrupt", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_invariant_violations(name, code, corrupt):
    # TC-99, playout.check codes
    st, tt = invariant_position()
    corrupt(st)
    done(st, tt, violation=code)
