"""Worked cases TC-01 .. TC-44 of docs/notre_dame.md §20: setup and flow, building actions,
no cube / Confidant / Notre Dame card. Each test names its case and the rules it checks.

Project decision (the rulebook wins over spec A-11): the Bank shortfall default is
F_BANK_STEAL = ONE_VICTIM; the spec's PER_COIN numbers are checked with that switch set.
"""
import json
from collections import Counter

import numpy as np
import pytest

from simcore.boardgames.notre_dame import components, playout, rules
from simcore.boardgames.notre_dame.state import (
    BANK, BISHOP, CARRIAGE_HOUSE, CLOISTER_SCHOOL, CONFIDANT, CUBE, EV_BRIBE, EV_HAND, EV_PAYOUT,
    EV_PLAGUE, EV_PLAY, EV_ROUND, EV_STAGE, EV_STANDING, FORFEIT, GOLD, GUEST_HOUSE, HOSPITAL,
    HOUSEKEEPER, JESTER, MAX_PLAYERS, MINSTREL, NOTRE_DAME, NOWHERE, PARK, RAT, RESIDENCE)
from tests.games.notre_dame.builder import count, options, position, script, seat, set_gold_supply

ASKING_PERSONS = (HOUSEKEEPER, MINSTREL, JESTER, BISHOP)     # persons whose effect asks a question
R, B, G_, Y = range(4)             # message colours of TC-24 (red, blue, green, yellow)


# ---------------------------------------------------------------- helpers

def done(st):
    """Every scripted value was legal and was used by a decision."""
    assert st.script_miss == 0
    assert st.script_pos == st.n_script


def play(st, tt, p, kind, *choices):
    """Seat p plays an action card of `kind`, taking the scripted option values."""
    script(st, *choices)
    playout.play_card(st, tt, p, kind)
    done(st)


def snapshot(st):
    """Everything a card could change, for 'nothing changes' checks."""
    return {name: np.array(getattr(st, name)).copy()
            for name in ("cubes", "conf", "personal", "gsupply", "nd", "gold", "G", "vp", "rat",
                         "carriage", "held", "msg_at", "on_board")}


def assert_unchanged(st, before):
    after = snapshot(st)
    for name, value in before.items():
        assert np.array_equal(after[name], value), name


def golds(st, players):
    return [int(st.gold[p]) for p in range(players)]


def events(st, code):
    """Logged rows of one event code: (round, seat, a, b, c)."""
    return [tuple(int(x) for x in row[1:6]) for row in st.ev[:st.n_events] if row[0] == code]


def generator(fn, st, *args):
    """The options a rules.py generator writes, sorted."""
    fn(st, *args)
    return options(st)


# ---------------------------------------------------------------- setup and flow

@pytest.mark.parametrize("players, districts, G, P", [(2, 4, 19, 6), (3, 3, 16, 8), (4, 4, 13, 10),
                                                      (5, 5, 10, 12)])
def test_tc01_setup(players, districts, G, P):
    """TC-01, ND-1.4, ND-2.1 .. ND-2.5, A-1, A-23, A-24."""
    st, tt = position(players=players)
    assert st.round_no == 1
    for p in range(players):
        assert (st.personal[p], st.gsupply[p], st.gold[p]) == (4, 10, 3)
        assert (st.vp[p], st.rat[p], st.nd[p]) == (0, 0, 0)
        assert st.conf[p] == NOWHERE
        assert st.cubes[p].sum() == 0 and st.held[p].sum() == 0
        assert st.carriage[p] == tt.central_market[tt.seat_district[p]]
        assert sorted(st.deck[p].tolist()) == list(range(9))             # own 9 kinds, shuffled
    if players == 2:
        assert list(tt.seat_district[:2]) == [0, 2]                      # opposite districts, ND-2.2
    assert st.G == G
    assert tt.payout == P
    # messages: each district's 4 tiles (one per kind) on its 4 message markets, none elsewhere
    assert tt.districts == districts and st.n_colours == districts
    on_message_markets = set()
    for d in range(districts):
        tiles = [int(st.msg_at[m]) for m in tt.message_markets[d]]
        assert sorted(tiles) == [d * 4 + kind for kind in range(4)]
        assert st.on_board[d] == 4
        on_message_markets.update(int(m) for m in tt.message_markets[d])
    assert sum(int(st.msg_at[m]) >= 0 for m in range(25)) == 4 * districts
    assert all(st.msg_at[m] < 0 for m in range(25) if m not in on_message_markets)
    # person decks: 6 brown; grey A,A,A,B,B,B,C,C,C top to bottom
    assert [int(tt.person_letter[i]) for i in st.grey] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert sorted(st.grey.tolist()) == [i for i in range(15) if tt.person_grey[i]]
    assert sorted(st.brown.tolist()) == [i for i in range(15) if not tt.person_grey[i]]


def test_two_players_without_the_neutral_messages_when_the_file_says_so():
    """ND-2.2, A-23's other reading (board.two_player.neutral_districts_get_messages false): only
    the players' districts 0 and 2 get their 4 tiles; the colour rule then knows 2 colours, and a
    checked game keeps every invariant."""
    with open(components.default_path(), encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["board"]["two_player"]["neutral_districts_get_messages"] = False
    st, tt = position(players=2, data=components.from_document(doc, "test"))
    assert [int(st.on_board[d]) for d in range(4)] == [4, 0, 4, 0]
    tiles = sorted(int(st.msg_at[m]) for m in range(25) if st.msg_at[m] >= 0)
    assert tiles == [0, 1, 2, 3, 8, 9, 10, 11]                           # colours 0 and 2, one of each kind
    assert all(st.msg_at[m] < 0 for d in (1, 3) for m in tt.message_markets[d])
    st.held[0, 0] = 1                                                    # one red message held:
    assert not rules.colour_allowed(st, 0, 0) and rules.colour_allowed(st, 0, 2)   # green first
    st.held[0, 0] = 0
    st.checking = 1
    playout.play_game(st, tt, 2, np.zeros(MAX_PLAYERS, np.int8), np.int64(3), np.int64(0))
    assert st.violation == 0
    assert int(st.on_board.sum()) + int(st.held[:2].sum()) == 8


def test_tc02_schedule():
    """TC-02, ND-3.1 .. ND-3.3, ND-6.1, ND-9.1, ND-10.2, ND-12.3, ND-14.1: n = 3, s0 = 1."""
    n, s0 = 3, 1
    st, tt = position(players=n)
    st.s0 = s0
    st.logging = 1
    st.checking = 1
    for r in range(1, 10):
        st.round_no = r
        playout.play_round(st, tt)
    assert st.violation == 0
    assert st.n_events < len(st.ev)
    starts = [s for (_r, s, *_x) in events(st, EV_ROUND)]
    assert starts == [1, 2, 0, 1, 2, 0, 1, 2, 0]                         # round 2 -> 2, 3 -> 0, 4 -> 1
    plays = [s for (r, s, *_x) in events(st, EV_PLAY) if r == 1]
    assert plays == [1, 2, 0, 1, 2, 0]
    for r in range(1, 10):
        order = [(s0 + r - 1 + i) % n for i in range(n)]
        assert [s for (rr, s, *_x) in events(st, EV_PLAY) if rr == r] == order * 2
        assert [s for (rr, s, *_x) in events(st, EV_PLAGUE) if rr == r] == order
        bribers = [s for (rr, s, *_x) in events(st, EV_BRIBE) if rr == r]
        assert bribers == [p for p in order if p in bribers]                 # in turn order
    # stage ends after rounds 3, 6, 9; the game ends with the round-9 payout
    assert [(r, a) for (r, _s, a, *_x) in events(st, EV_STAGE)] == [(3, 1), (6, 2), (9, 3)]
    codes = [int(c) for c in st.ev[:st.n_events, 0]]
    last_stage = max(i for i, c in enumerate(codes) if c == EV_STAGE)
    assert set(codes[last_stage + 1:]) <= {EV_STANDING}                      # only summary rows after
    assert max(int(r) for r in st.ev[:st.n_events, 1]) == 9
    assert all(r in (3, 6, 9) for (r, *_x) in events(st, EV_PAYOUT))
    assert st.nd[:n].sum() == 0
    # round 1's bribe phase, everybody bribing: order 1, 2, 0
    st.round_no, st.start = 1, (s0 + 0) % n
    st.n_events = 0
    st.gold[:n] = 2
    plain = next(int(f) for f in st.face if tt.person_effect[f] not in ASKING_PERSONS)
    script(st, plain, plain, plain)
    playout.bribe_phase(st, tt)
    done(st)
    assert [s for (_r, s, *_x) in events(st, EV_BRIBE)] == [1, 2, 0]


def deal_and_draft(players, draws, keep1, keep2):
    """Round 1's draft with the given draws (st.deck[p, 0:3]) and scripted keeps."""
    st, tt = position(players=players)
    for p, cards in enumerate(draws):
        st.deck[p, :3] = cards
    script(st, *keep1, *keep2)
    playout.draft(st, tt)
    done(st)
    return [sorted(int(k) for k in st.hand[p, :3]) for p in range(players)]


# draws D_i = (a_i, b_i, c_i): three different kinds per player
DRAWS = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (2, 8, 4)]


def hands_expected(players, recipe):
    """recipe[p] = [(role, seat), ...] -> sorted kinds of the expected hand of each seat."""
    role = {"a": 0, "b": 1, "c": 2}
    return [sorted(DRAWS[q][role[r]] for r, q in recipe[p]) for p in range(players)]


def draft_with_standard_choices(players):
    """Step 1: everybody keeps a_i; step 2: everybody keeps the b card received."""
    keep1 = [DRAWS[p][0] for p in range(players)]
    keep2 = [DRAWS[(p - 1) % players][1] for p in range(players)]
    return deal_and_draft(players, DRAWS[:players], keep1, keep2)


def test_tc03_draft_four_players():
    """TC-03, ND-5.1, ND-5.2: H0 = {a0,b3,c2}, H1 = {a1,b0,c3}, H2 = {a2,b1,c0}, H3 = {a3,b2,c1}."""
    expected = hands_expected(4, [[("a", 0), ("b", 3), ("c", 2)], [("a", 1), ("b", 0), ("c", 3)],
                                  [("a", 2), ("b", 1), ("c", 0)], [("a", 3), ("b", 2), ("c", 1)]])
    assert draft_with_standard_choices(4) == expected


def test_tc04_draft_three_players():
    """TC-04, ND-5.2: H0 = {a0,b2,c1}, H1 = {a1,b0,c2}, H2 = {a2,b1,c0}."""
    expected = hands_expected(3, [[("a", 0), ("b", 2), ("c", 1)], [("a", 1), ("b", 0), ("c", 2)],
                                  [("a", 2), ("b", 1), ("c", 0)]])
    assert draft_with_standard_choices(3) == expected


def test_tc05_draft_two_players():
    """TC-05, ND-5.3: each keeps the opponent's b and gets its own c back:
    H0 = {a0,b1,c0}, H1 = {a1,b0,c1}."""
    expected = hands_expected(2, [[("a", 0), ("b", 1), ("c", 0)], [("a", 1), ("b", 0), ("c", 1)]])
    assert draft_with_standard_choices(2) == expected


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("policy, seed", [(0, 11), (1, 12)], ids=["random", "greedy"])
def test_tc06_stage_draws_and_persons(players, policy, seed):
    """TC-06, TC-99, ND-4.2, ND-5.6, ND-13.3: draws, brown and grey persons per stage."""
    st, tt = position(players=players)
    st.checking = 1
    st.logging = 1
    policies = np.zeros(MAX_PLAYERS, np.int8)
    policies[:players] = policy
    playout.play_game(st, tt, players, policies, np.int64(seed), np.int64(3))
    assert st.violation == 0                        # includes: each stage's draws = the 9 kinds
    assert st.n_events < len(st.ev)
    rounds = events(st, EV_ROUND)
    assert [r for (r, *_x) in rounds] == list(range(1, 10))
    brown = {i for i in range(15) if not tt.person_grey[i]}
    for stage in range(3):
        shown = rounds[3 * stage:3 * stage + 3]
        browns = [a for (_r, _s, a, _b, _c) in shown] + [b for (_r, _s, _a, b, _c) in shown]
        assert sorted(browns) == sorted(brown)                               # each once per stage
        assert all(tt.person_letter[c] == stage for (*_x, c) in shown)       # its letter's stage
        # every hand of the stage together: each player's 9 kinds once = n copies of each kind
        hands = Counter()
        for (r, _s, a, b, c) in events(st, EV_HAND):
            if (r - 1) // 3 == stage:
                hands.update((a, b, c))
        assert hands == Counter({k: players for k in range(9)})
    greys = [c for (*_x, c) in rounds]
    assert sorted(greys) == [i for i in range(15) if tt.person_grey[i]]     # each grey once per game


# ---------------------------------------------------------------- buildings

def test_tc10_cloister_short_supply():
    """TC-10, ND-7.1, A-13: CS 2, per 1, gs 2 -> CS 3, per 2, gs 0."""
    st, tt = position()
    seat(st, 0, bld={"CS": 2}, per=1, gs=2)
    play(st, tt, 0, CLOISTER_SCHOOL)
    assert count(st, 0, "CS") == 3
    assert (st.personal[0], st.gsupply[0]) == (2, 0)


def test_tc11_cloister_with_confidant():
    """TC-11, ND-7.1, ND-0.5: CS 1 + confidant, per 1, gs 10 -> k = 3 -> per 3, gs 7."""
    st, tt = position()
    seat(st, 0, bld={"CS": 1}, conf="CS", per=1, gs=10)
    play(st, tt, 0, CLOISTER_SCHOOL)
    assert st.cubes[0, CLOISTER_SCHOOL] == 2 and count(st, 0, "CS") == 3
    assert (st.personal[0], st.gsupply[0]) == (3, 7)


def test_tc12_bank():
    """TC-12, ND-7.2: BK 3, per 2, gold 0, G 20 -> gold 4, G 16, per 1."""
    st, tt = position()
    seat(st, 0, bld={"BK": 3}, per=2, gold=0)
    set_gold_supply(st, 20)
    play(st, tt, 0, BANK)
    assert (st.gold[0], st.G, st.personal[0], st.cubes[0, BANK]) == (4, 16, 1, 4)


def bank_shortfall(players, start_gold, G, bank_cubes, **switches):
    """Seat 0 plays the Bank with the given golds and general supply; returns golds and G."""
    st, tt = position(players=players, **switches)
    for p, g in enumerate(start_gold):
        seat(st, p, bld={"BK": bank_cubes} if p == 0 else None, per=1, gold=g)
    set_gold_supply(st, G)
    play(st, tt, 0, BANK)
    assert st.cubes[0, BANK] == bank_cubes + 1
    return golds(st, players), int(st.G)


@pytest.mark.parametrize("switches, expected", [
    ({}, [4, 2, 5, 2]),                                     # ONE_VICTIM (project default)
    ({"F_BANK_STEAL": "PER_COIN"}, [4, 3, 4, 2]),           # the spec's coin-by-coin reading
], ids=["one_victim", "per_coin"])
def test_tc13_bank_shortfall(switches, expected):
    """TC-13, ND-7.2, A-11: golds 0/5/5/2, G 1, k = 4."""
    assert bank_shortfall(4, [0, 5, 5, 2], 1, 3, **switches) == (expected, 0)


@pytest.mark.parametrize("switches, expected", [
    ({}, [8, 0, 2]),
    ({"F_BANK_STEAL": "PER_COIN"}, [8, 1, 1]),
], ids=["one_victim", "per_coin"])
def test_tc14_bank_active_player_richest(switches, expected):
    """TC-14, ND-7.2, A-11: n = 3, golds 6/2/2, G 0, k = 2; never from oneself."""
    assert bank_shortfall(3, [6, 2, 2], 0, 1, **switches) == (expected, 0)


@pytest.mark.parametrize("switches", [{}, {"F_BANK_STEAL": "PER_COIN"}], ids=["one_victim", "per_coin"])
def test_tc15_bank_nothing_anywhere(switches):
    """TC-15, ND-7.2: G 0 and all opponents 0 gold -> 0 gold, the cube is still placed."""
    assert bank_shortfall(4, [2, 0, 0, 0], 0, 0, **switches) == ([2, 0, 0, 0], 0)


def test_tc16_residence_with_park():
    """TC-16, ND-7.3, ND-11: RS 2, PK 4, vp 10 -> RS 3, vp 10 + 3 + 2 = 15."""
    st, tt = position()
    seat(st, 0, bld={"RS": 2, "PK": 4}, per=1, vp=10)
    play(st, tt, 0, RESIDENCE)
    assert count(st, 0, "RS") == 3
    assert st.vp[0] == 15


def test_tc17_park_bonus_with_confidant():
    """TC-17, ND-11.1, A-16, A-18: PK 3 + confidant (bonus 2), RS 0 -> RS 1, +1 + 2 = +3 VP."""
    st, tt = position()
    seat(st, 0, bld={"PK": 3}, conf="PK", per=1, vp=0)
    play(st, tt, 0, RESIDENCE)
    assert count(st, 0, "RS") == 1
    assert st.vp[0] == 3


def test_tc18_guest_house_k4():
    """TC-18, ND-7.5, DP-9: GH 2 + confidant, rat 5, gold 1 -> k = 4, GR -> gold 2, rat 4."""
    st, tt = position()
    seat(st, 0, bld={"GH": 2}, conf="GH", per=1, gold=1, rat=5)
    pairs = generator(rules.guest_options, st, 4)
    assert len(pairs) == 6
    assert pairs == sorted(a * 3 + b for a in range(3) for b in range(a, 3))
    play(st, tt, 0, GUEST_HOUSE, GOLD * 3 + RAT)
    assert count(st, 0, "GH") == 4
    assert (st.gold[0], st.rat[0], st.personal[0]) == (2, 4, 0)


@pytest.mark.parametrize("choice, expected", [
    (GOLD, (4, 1, 3)), (CUBE, (3, 2, 3)), (RAT, (3, 1, 2)),
], ids=["gold", "cube", "rat"])
def test_tc19_guest_house_k1(choice, expected):
    """TC-19, ND-7.5, DP-9: GH 0 -> k = 1 -> exactly one of GOLD, CUBE, RAT
    (start gold 3, per 2, rat 3; expected (gold, per, rat))."""
    st, tt = position()
    seat(st, 0, per=2, gold=3, rat=3)
    assert generator(rules.guest_options, st, 1) == [GOLD, CUBE, RAT]
    play(st, tt, 0, GUEST_HOUSE, choice)
    assert count(st, 0, "GH") == 1
    assert (st.gold[0], st.personal[0], st.rat[0]) == expected


def test_tc20_park():
    """TC-20, ND-7.6, ND-11.1: PK 1, rat 3 -> PK 2, rat 2, bonus 1."""
    st, tt = position()
    seat(st, 0, bld={"PK": 1}, per=1, rat=3)
    play(st, tt, 0, PARK)
    assert count(st, 0, "PK") == 2
    assert st.rat[0] == 2
    assert rules.park_bonus(st, 0) == 1


@pytest.mark.parametrize("building", [PARK, HOSPITAL], ids=["park", "hospital"])
def test_tc21_park_hospital_at_rat_zero(building):
    """TC-21, ND-0.6, ND-7.6, ND-7.7: rat 0 stays 0."""
    st, tt = position()
    seat(st, 0, per=1, rat=0)
    play(st, tt, 0, building)
    assert st.cubes[0, building] == 1
    assert st.rat[0] == 0


def test_tc22_hospital():
    """TC-22, ND-7.7: HO 0, rat 5 -> HO 1, rat 4."""
    st, tt = position()
    seat(st, 0, per=1, rat=5)
    play(st, tt, 0, HOSPITAL)
    assert count(st, 0, "HO") == 1
    assert st.rat[0] == 4


X, Y_, Z, W = range(4)             # TC-23 markets in a line


def line_board(**switches):
    """Markets X-Y-Z-W in a line; Y holds an M1 (colour 1), Z an M4 (colour 2); carriage on X."""
    st, tt = position(**switches)
    tt.n_markets = 4
    tt.distance[:, :] = -1
    for i in range(4):
        for j in range(4):
            tt.distance[i, j] = abs(i - j)
    st.msg_at[:] = -1
    st.on_board[:] = 0
    st.msg_at[Y_] = 1 * 4 + 0
    st.msg_at[Z] = 2 * 4 + 3
    st.on_board[1] = st.on_board[2] = 1
    st.carriage[0] = X
    seat(st, 0, bld={"CH": 1}, per=1, vp=0)
    return st, tt


@pytest.mark.parametrize("switches, reach", [
    ({}, [X, Y_, Z]),
    ({"F_CARRIAGE_MAY_STAY": False}, [Y_, Z]),
], ids=["may_stay", "must_move"])
def test_tc23_carriage_destinations(switches, reach):
    """TC-23, ND-7.4, A-9, DP-7: k = 2 from X reaches {X, Y, Z}, not W ({Y, Z} if it must move)."""
    st, tt = line_board(**switches)
    assert generator(rules.carriage_destinations, st, tt, 0, 2) == reach


def test_tc23_carriage_takes_message_at_destination():
    """TC-23, ND-7.4, ND-1.3, DP-7, DP-8: CH 1 -> CH 2, k = 2, drive to Z and take the M4 ->
    +4 VP and the tile collected; the M1 on Y (passed through) stays."""
    st, tt = line_board()
    gold = int(st.gold[0])
    play(st, tt, 0, CARRIAGE_HOUSE, Z, 1)
    assert count(st, 0, "CH") == 2
    assert st.carriage[0] == Z
    assert st.vp[0] == 4
    assert st.held[0, 2] == 1 and st.held[0].sum() == 1
    assert st.msg_at[Z] == -1 and st.on_board[2] == 0
    assert st.msg_at[Y_] == 1 * 4 + 0 and st.on_board[1] == 1
    assert st.gold[0] == gold


@pytest.mark.parametrize("colours, held, on_board, allowed", [
    (4, {R: 1, B: 1}, [R, B, G_, Y], {G_, Y}),                 # (a)
    (4, {}, [R, B, G_, Y], {R, B, G_, Y}),                     # (b)
    (4, {R: 1, B: 1, G_: 1}, [R, B, G_, Y], {Y}),              # (c)
    (4, {R: 1, B: 1, G_: 1}, [R, B, G_], {R, B, G_}),          # (d) no Y tile left on the board
    (3, {R: 2, B: 1, G_: 1}, [R, B, G_], {B, G_}),             # (e)
    (3, {R: 1}, [R, B], {B}),                                  # (f) G exhausted
], ids=["a", "b", "c", "d", "e", "f"])
def test_tc24_colour_rule(colours, held, on_board, allowed):
    """TC-24, ND-7.4.1, A-10: may take colour c only with h_c <= h_d for every available d."""
    st, tt = position(players=colours)
    st.n_colours = colours
    st.held[0, :] = 0
    st.on_board[:] = 0
    for c, h in held.items():
        st.held[0, c] = h
    for c in on_board:
        st.on_board[c] = 1
    assert {c for c in range(colours) if rules.colour_allowed(st, 0, c)} == allowed


def drive_to_own_message(st, tt, p, kind):
    """Seat p's carriage stands on its own colour's tile of `kind`; the Carriage house (k = 1)
    stays there and takes it. Returns the colour."""
    colour = int(tt.seat_district[p])
    m = next(int(m) for m in tt.message_markets[colour] if st.msg_at[m] == colour * 4 + kind)
    st.carriage[p] = m
    play(st, tt, p, CARRIAGE_HOUSE, m, 1)
    assert st.held[p, colour] == 1 and st.msg_at[m] == -1
    return colour


def test_tc25_m1_without_gold_in_supply():
    """TC-25, ND-1.3, ND-0.6, A-12, A-30: M1 with G 0 -> +1 VP, no gold."""
    st, tt = position()
    seat(st, 0, per=1, gold=3, vp=0)
    set_gold_supply(st, 0)
    drive_to_own_message(st, tt, 0, 0)
    assert (st.vp[0], st.gold[0], st.G) == (1, 3, 0)


def test_tc25_m2_without_cube_in_supply():
    """TC-25, ND-1.3, A-13, A-30: M2 with gs 0 -> +2 VP, no cube."""
    st, tt = position()
    seat(st, 0, per=1, gs=0, vp=0)
    drive_to_own_message(st, tt, 0, 1)
    assert (st.vp[0], st.personal[0], st.gsupply[0]) == (2, 0, 0)


def test_tc25_m3_on_rat_zero():
    """TC-25, ND-1.3, A-30: M3 on rat 0 -> +3 VP, rat 0."""
    st, tt = position()
    seat(st, 0, per=1, rat=0, vp=0)
    drive_to_own_message(st, tt, 0, 2)
    assert (st.vp[0], st.rat[0]) == (3, 0)


def test_tc25_m4_with_park():
    """TC-25, ND-1.3, ND-11: M4 with pk 2 -> +5 VP."""
    st, tt = position()
    seat(st, 0, bld={"PK": 2}, per=1, vp=0)
    drive_to_own_message(st, tt, 0, 3)
    assert st.vp[0] == 5


# ---------------------------------------------------------------- no cube / Confidant / Notre Dame

def test_tc30_relocation():
    """TC-30, ND-6.5, A-14, DP-4: per 0, BK 2, RS 1 -> Residence: {FORFEIT, BK}; via BK ->
    BK 1, RS 2, +2 VP."""
    st, tt = position()
    seat(st, 0, bld={"BK": 2, "RS": 1}, per=0, vp=0)
    assert generator(rules.cube_sources, st, tt, 0, RESIDENCE, True) == [FORFEIT, BANK]
    play(st, tt, 0, RESIDENCE, BANK)
    assert (count(st, 0, "BK"), count(st, 0, "RS")) == (1, 2)
    assert st.vp[0] == 2


def test_tc31_forfeit_only():
    """TC-31, ND-6.5, A-14, DP-4: per 0, RS 1, confidant on PK -> Residence: {FORFEIT} only
    (RS is the target, the confidant cannot be moved) -> nothing changes."""
    st, tt = position()
    seat(st, 0, bld={"RS": 1}, conf="PK", per=0, vp=7)
    assert generator(rules.cube_sources, st, tt, 0, RESIDENCE, True) == [FORFEIT]
    before = snapshot(st)
    play(st, tt, 0, RESIDENCE)
    assert_unchanged(st, before)


def test_tc32_relocation_into_hospital():
    """TC-32, ND-6.5, ND-7.7: per 0, BK 1, rat 3 -> Hospital via BK -> BK 0, HO 1, rat 2."""
    st, tt = position()
    seat(st, 0, bld={"BK": 1}, per=0, rat=3)
    play(st, tt, 0, HOSPITAL, BANK)
    assert (count(st, 0, "BK"), count(st, 0, "HO")) == (0, 1)
    assert st.rat[0] == 2


def test_tc33_confidant_first_use():
    """TC-33, ND-8.2, DP-5: confidant not placed, RS 2, per 0 -> RS, k = 3 -> +3 VP, per 0."""
    st, tt = position()
    seat(st, 0, bld={"RS": 2}, per=0, vp=0)
    assert generator(rules.confidant_targets, st, tt, 0) == list(range(7))
    play(st, tt, 0, CONFIDANT, RESIDENCE)
    assert st.conf[0] == RESIDENCE and count(st, 0, "RS") == 3
    assert st.vp[0] == 3
    assert st.personal[0] == 0 and st.cubes[0, RESIDENCE] == 2


def test_tc34_confidant_moves_away():
    """TC-34, ND-8.2: confidant on RS, RS 2, BK 1 -> BK: count 2 -> +2 gold; RS count now 2."""
    st, tt = position()
    seat(st, 0, bld={"RS": 2, "BK": 1}, conf="RS", per=1, gold=0)
    play(st, tt, 0, CONFIDANT, BANK)
    assert st.conf[0] == BANK
    assert count(st, 0, "BK") == 2 and count(st, 0, "RS") == 2
    assert st.gold[0] == 2


def test_tc35_confidant_stays():
    """TC-35, ND-8.2, A-8: confidant on RS, RS 2 -> RS again -> +3 VP."""
    st, tt = position()
    seat(st, 0, bld={"RS": 2}, conf="RS", per=1, vp=0)
    play(st, tt, 0, CONFIDANT, RESIDENCE)
    assert st.conf[0] == RESIDENCE and count(st, 0, "RS") == 3
    assert st.vp[0] == 3


def test_tc35_confidant_must_move_with_flag_off():
    """TC-35, A-8, DP-5: F_CONFIDANT_MAY_STAY = false -> RS (its building) is not a target."""
    st, tt = position(F_CONFIDANT_MAY_STAY=False)
    seat(st, 0, bld={"RS": 2}, conf="RS", per=1)
    assert generator(rules.confidant_targets, st, tt, 0) == [b for b in range(7) if b != RESIDENCE]


def test_tc40_donation_3():
    """TC-40, ND-8.1, DP-6: gold 3, per 2 -> d = 3 -> nd +1, per 1, gold 0, G +3, +6 VP."""
    st, tt = position()
    seat(st, 0, per=2, gold=3, vp=0, nd=0)
    G = int(st.G)
    assert generator(rules.donation_options, st, 0) == [0, 1, 2, 3]
    play(st, tt, 0, NOTRE_DAME, 3)
    assert (st.nd[0], st.personal[0], st.gold[0], st.G, st.vp[0]) == (1, 1, 0, G + 3, 6)


def test_tc41_donation_with_park():
    """TC-41, ND-8.1, ND-11: gold 5, pk 3 (bonus 1) -> d = 2 -> gold 3, +3 + 1 = +4 VP."""
    st, tt = position()
    seat(st, 0, bld={"PK": 3}, per=1, gold=5, vp=0)
    play(st, tt, 0, NOTRE_DAME, 2)
    assert (st.gold[0], st.vp[0], st.nd[0]) == (3, 4, 1)


def test_tc42_no_gold():
    """TC-42, ND-8.1, A-22, DP-6, ND-6.2: gold 0 -> options {0} -> nothing changes, the card is
    used (it leaves the hand)."""
    st, tt = position()
    seat(st, 0, per=2, gold=0)
    assert generator(rules.donation_options, st, 0) == [0]
    st.hand[0, :] = [NOTRE_DAME, BANK, RESIDENCE]
    st.hand_n[0] = 3
    before = snapshot(st)
    script(st, NOTRE_DAME)
    playout.play_turn(st, tt, 0)
    done(st)
    assert_unchanged(st, before)
    assert st.hand_n[0] == 2
    assert sorted(st.hand[0, :2].tolist()) == [BANK, RESIDENCE]


def test_tc43_donation_by_relocation():
    """TC-43, ND-8.1, ND-6.5, A-14, DP-4, DP-6: per 0, gold 2, BK 2, confidant on RS ->
    d in {0, 1, 2}, source BK only (not RS) -> d = 2 -> BK 1, nd +1, gold 0, +3 VP."""
    st, tt = position()
    seat(st, 0, bld={"BK": 2}, conf="RS", per=0, gold=2, vp=0, nd=0)
    assert generator(rules.donation_options, st, 0) == [0, 1, 2]
    assert generator(rules.cube_sources, st, tt, 0, NOTRE_DAME, False) == [BANK]
    play(st, tt, 0, NOTRE_DAME, 2)
    assert (count(st, 0, "BK"), st.nd[0], st.gold[0], st.vp[0]) == (1, 1, 0, 3)
    assert st.conf[0] == RESIDENCE


def test_tc44_donation_impossible():
    """TC-44, ND-8.1, A-22, DP-6: per 0, gold 3, no cube on any building -> options {0}."""
    st, tt = position()
    seat(st, 0, per=0, gold=3)
    assert generator(rules.donation_options, st, 0) == [0]
    before = snapshot(st)
    play(st, tt, 0, NOTRE_DAME)
    assert_unchanged(st, before)
