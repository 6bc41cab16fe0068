"""Notre Dame in the step API (simcore/boardgames/notre_dame/view.py): the decision points' names,
the action ids of their options, the moves in words, and what one seat's observation holds —
all it may know (ND-17.1 … ND-17.3) and nothing `determinize` redraws for it (ND-17.4)."""
import json

import numpy as np
import pytest

from simcore.rng import seed_stream
from simcore.boardgames.notre_dame import components, policies, rules, view
from simcore.boardgames.notre_dame import spec as notre_dame
from simcore.boardgames.notre_dame.state import (
    BANK, BEGGAR_KING, CUBE, DP_BANK_VICTIM, DP_BISHOP_TARGET, DP_BRIBE, DP_CARRIAGE_DEST, DP_CONFIDANT_TARGET,
    DP_CUBE_SOURCE, DP_DONATION, DP_DRAFT_KEEP1, DP_DRAFT_KEEP2, DP_GUEST_CHOICE, DP_HOUSEKEEPER_CHOICE,
    DP_JESTER_MOVE, DP_MINSTREL_MOVE, DP_OUTBREAK_LOSS, DP_PLAY_CARD, DP_TAKE_MESSAGE, DRAFT_DREW, DRAFT_SHOWN,
    DRAFT_TOOK, FORFEIT, GOLD, GUEST_HOUSE, HOSPITAL, JESTER_FROM_ND, MONK, NOTRE_DAME, PARK, PASS, PERSONAL, RAT,
    RESIDENCE)
from tests.games.notre_dame.builder import data_with, position, seat
from tests.games.notre_dame.test_search import at_decision

from simcore.contract import Decision
from view_tool import assert_differ, assert_same

DATA = components.load(None)
REDRAWN = ("deck", "kept", "passing", "hand", "offered", "drawn", "brown", "grey", "s_gen")  # all determinize writes


def opened(st, p, dp, ctx=0):
    """The decision the last option generator wrote into st, asked of seat p."""
    return Decision(p, dp, ctx, tuple(int(v) for v in st.opts[:st.n_opts]))


def ids(n, decision):
    return [view.action_id(DATA, n, decision, v) for v in decision.options]


# ---------------------------------------------------------------- decision points and the action space

def test_every_decision_point_has_its_own_lowercase_name():
    """DP-1 … DP-16 (ND-16), the playout's DP_* constants 1..16."""
    assert sorted(view.DECISIONS) == list(range(1, 17))
    names = list(view.DECISIONS.values())
    assert len(set(names)) == 16 and all(name == name.lower() for name in names)
    assert view.DECISIONS[DP_BRIBE] == "bribe" and view.DECISIONS[DP_MINSTREL_MOVE] == "minstrel_move"


@pytest.mark.parametrize("n, markets", [(2, 20), (3, 15), (4, 20), (5, 25)])
def test_the_action_space_is_the_minstrels_252_moves_at_every_player_count(n, markets):
    """7 sources x 6 destinations x 6 ways of 1-3 pieces (ND-15.3) is the largest decision; the
    carriage's markets (ND-1.4: 4, 3, 4, 5 districts of 5) and the bank's victims follow n."""
    sizes = view.decision_sizes(DATA, n)
    assert view.num_distinct_actions(DATA, n) == 252 == sizes[DP_MINSTREL_MOVE]
    assert sizes[DP_CARRIAGE_DEST] == markets and sizes[DP_BANK_VICTIM] == n
    assert sizes[DP_BRIBE] == 16 and sizes[DP_JESTER_MOVE] == 63 and sizes[DP_CUBE_SOURCE] == 9


def test_ids_of_chosen_options_by_hand():
    """FORFEIT and PASS (-1) are id 0; the Guest house's pairs follow its single parts; the
    Minstrel's and the Jester's moves are packed densely."""
    def aid(dp, v, ctx=0):
        return view.action_id(DATA, 4, Decision(0, dp, ctx, ()), v)

    assert [aid(DP_CUBE_SOURCE, v, RESIDENCE) for v in (FORFEIT, BANK, PERSONAL)] == [0, 2, 8]
    assert [aid(DP_CONFIDANT_TARGET, v) for v in (FORFEIT, PARK)] == [0, 6]
    assert [aid(DP_BRIBE, v) for v in (PASS, MONK, BEGGAR_KING)] == [0, 2, 11]
    assert [aid(DP_GUEST_CHOICE, v, 2) for v in (GOLD, CUBE, RAT)] == [0, 1, 2]
    assert [aid(DP_GUEST_CHOICE, v, 4) for v in (0, 1, 2, 4, 5, 8)] == [3, 4, 5, 6, 7, 8]
    # the Minstrel: 2 cubes and the confidant from the Bank to the Park (TC-74): (1 * 6 + 4) * 6 + 5
    assert aid(DP_MINSTREL_MOVE, BANK * 64 + PARK * 8 + 2 * 2 + 1) == 65
    assert aid(DP_MINSTREL_MOVE, 0 * 64 + 1 * 8 + 1 * 2) == 0
    assert aid(DP_MINSTREL_MOVE, 6 * 64 + 5 * 8 + 2 * 2 + 1) == 251
    # the Jester: a cube from Notre Dame to the Residence (TC-76): 8 * 7 + 2
    assert aid(DP_JESTER_MOVE, JESTER_FROM_ND * 8 + RESIDENCE) == 58
    assert aid(DP_CARRIAGE_DEST, 17, 3) == 17 and aid(DP_DONATION, 3) == 3


@pytest.mark.parametrize("dp, value, ctx", [
    (DP_MINSTREL_MOVE, BANK * 64 + BANK * 8 + 2, 0),          # the source is the destination
    (DP_MINSTREL_MOVE, BANK * 64 + PARK * 8 + 0, 0),          # no piece
    (DP_MINSTREL_MOVE, BANK * 64 + PARK * 8 + 3 * 2 + 1, 0),  # 4 pieces
    (DP_JESTER_MOVE, BANK * 8 + 7, 0),                        # onto Notre Dame
    (DP_GUEST_CHOICE, 3, 4),                                  # not a pair a <= b
    (DP_GUEST_CHOICE, 4, 2),                                  # a pair where one part is given
    (DP_BRIBE, 15, 0), (DP_CUBE_SOURCE, -2, 0), (DP_CARRIAGE_DEST, 20, 2),
])
def test_a_value_no_option_can_have_is_refused(dp, value, ctx):
    with pytest.raises(ValueError):
        view.action_id(DATA, 4, Decision(0, dp, ctx, ()), value)


def rich_seat(st, p, conf):
    """Seat p with 3 cubes on every building but one, the confidant on `conf`, 2 cubes on Notre
    Dame and an empty personal supply: every Minstrel and Jester move is there."""
    seat(st, p, bld={"CS": 1, "BK": 2, "RS": 3, "CH": 1, "GH": 1, "PK": 2, "HO": 1}, conf=conf, per=0, nd=2)


def built_decisions(n):
    """Options of every decision point as the rules generate them on built positions (ND-16)."""
    st, tt = position(players=n, data=data_with(F_VOLUNTARY_FORFEIT=True))
    out = []
    for b, name in enumerate(("CS", "BK", "RS", "CH", "GH", "PK", "HO")):
        rich_seat(st, 0, name)
        st.cubes[0, b] = 3
        rules.minstrel_moves(st, 0)
        out.append(opened(st, 0, DP_MINSTREL_MOVE))
        rules.jester_moves(st, 0)
        out.append(opened(st, 0, DP_JESTER_MOVE))
        rules.cube_sources(st, tt, 0, b, True)
        out.append(opened(st, 0, DP_CUBE_SOURCE, b))
    st.personal[0] = 2
    rules.cube_sources(st, tt, 0, NOTRE_DAME, True)
    out.append(opened(st, 0, DP_CUBE_SOURCE, NOTRE_DAME))
    rules.confidant_targets(st, tt, 0)
    out.append(opened(st, 0, DP_CONFIDANT_TARGET))
    for k in (1, 4):
        rules.guest_options(st, k)
        out.append(opened(st, 0, DP_GUEST_CHOICE, k))
    for first in range(0, 15, 3):
        st.face[:] = (first, first + 1, first + 2)
        rules.bribe_options(st, tt, 0)
        out.append(opened(st, 0, DP_BRIBE))
    for here in range(view.markets(DATA, n)):
        st.carriage[0] = here
        rules.carriage_destinations(st, tt, 0, 2)
        out.append(opened(st, 0, DP_CARRIAGE_DEST, 2))
    seat(st, 0, bld={"BK": 2, "RS": 2}, gold=3, per=1)
    for generate, dp in ((rules.empty_buildings, DP_BISHOP_TARGET), (rules.outbreak_candidates, DP_OUTBREAK_LOSS),
                         (rules.donation_options, DP_DONATION)):
        generate(st, 0)
        out.append(opened(st, 0, dp))
    rules.small_choice_options(st)
    out.append(opened(st, 0, DP_HOUSEKEEPER_CHOICE))
    rules.take_options(st)
    out.append(opened(st, 0, DP_TAKE_MESSAGE, int(tt.message_markets[1, 0])))
    for q in range(1, n):
        seat(st, q, gold=4)
    rules.richest_opponents(st, 0)
    out.append(opened(st, 0, DP_BANK_VICTIM))
    for dp in (DP_DRAFT_KEEP1, DP_DRAFT_KEEP2, DP_PLAY_CARD):
        out.append(Decision(0, dp, 0, tuple(range(9))))
    return st, out


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_ids_are_distinct_within_a_decision_in_range_and_the_same_for_the_same_option(n):
    st, decisions = built_decisions(n)
    assert {d.point for d in decisions} == set(view.DECISIONS)
    size = view.num_distinct_actions(DATA, n)
    meaning = {}
    for d in decisions:
        got = ids(n, d)
        assert len(set(got)) == len(got) == len(d.options) > 0, d
        assert all(0 <= a < size for a in got)
        assert got == ids(n, d)                          # a pure function of the decision and the value
        for v, a in zip(d.options, got):
            key = (d.point, d.context if d.point == DP_GUEST_CHOICE else 0, a)
            assert meaning.setdefault(key, v) == v, (d, v)   # one id, one option wherever it is asked
    minstrel = {a for d in decisions if d.point == DP_MINSTREL_MOVE for a in ids(n, d)}
    assert minstrel == set(range(252))                  # every Minstrel move, each id used
    guest = {d.context: set(ids(n, d)) for d in decisions if d.point == DP_GUEST_CHOICE}
    assert guest == {1: {0, 1, 2}, 4: {3, 4, 5, 6, 7, 8}}
    carriage = {a for d in decisions if d.point == DP_CARRIAGE_DEST for a in ids(n, d)}
    assert carriage == set(range(view.markets(DATA, n)))
    every_person = {a for d in decisions if d.point == DP_BRIBE for a in ids(n, d)}
    assert every_person == set(range(16))


# ---------------------------------------------------------------- moves in words

def words(st, decision, n=4):
    return [view.action_to_string(DATA, n, st, decision, v) for v in decision.options]


def test_moves_in_words_by_hand():
    st, tt = position(players=4)
    seat(st, 0, bld={"BK": 2, "RS": 1}, per=0)                          # TC-30
    rules.cube_sources(st, tt, 0, RESIDENCE, True)
    assert words(st, opened(st, 0, DP_CUBE_SOURCE, RESIDENCE)) == [
        "no cube placed: the Residence card has no effect", "move a cube from the Bank onto the Residence"]
    st.personal[0] = 1
    rules.cube_sources(st, tt, 0, NOTRE_DAME, False)
    assert words(st, opened(st, 0, DP_CUBE_SOURCE, NOTRE_DAME)) == ["a cube from the personal supply onto Notre Dame"]
    seat(st, 0, bld={"BK": 3, "RS": 2}, conf="RS")
    rules.confidant_targets(st, tt, 0)
    assert words(st, opened(st, 0, DP_CONFIDANT_TARGET))[1] == "confidant from the Residence to the Bank"
    say = lambda dp, v, ctx=0: view.action_to_string(DATA, 4, st, Decision(0, dp, ctx, (v,)), v)  # noqa: E731
    assert say(DP_DRAFT_KEEP1, HOSPITAL) == "keep Hospital"
    assert say(DP_PLAY_CARD, NOTRE_DAME) == "play Notre Dame"
    assert say(DP_DONATION, 2) == "donate 2 gold to Notre Dame" and say(DP_DONATION, 0) == "donate nothing"
    assert say(DP_GUEST_CHOICE, GOLD * 3 + RAT, 4) == "guest house: gold + rat back"          # TC-18
    assert say(DP_BRIBE, PASS) == "pass" and say(DP_BRIBE, MONK) == "bribe the Monk"
    assert say(DP_HOUSEKEEPER_CHOICE, RAT) == "choose rat back"
    assert say(DP_BISHOP_TARGET, HOSPITAL) == "a cube from the general supply onto the Hospital"  # TC-78
    assert say(DP_MINSTREL_MOVE, BANK * 64 + PARK * 8 + 2 * 2 + 1) == \
        "move 2 cubes and the confidant from the Bank to the Park"                             # TC-74
    assert say(DP_MINSTREL_MOVE, BANK * 64 + PARK * 8 + 1) == "move the confidant from the Bank to the Park"
    assert say(DP_JESTER_MOVE, JESTER_FROM_ND * 8 + RESIDENCE) == "move a cube from Notre Dame to the Residence"
    assert say(DP_OUTBREAK_LOSS, BANK) == "lose a cube from the Bank"
    assert say(DP_BANK_VICTIM, 2) == "take the missing gold from Green"


def test_the_carriage_and_the_message_read_the_board():
    """DP-7 and DP-8 name the markets and the tile lying there, as the replay does (ND-2.2)."""
    st, tt = position(players=2)
    m = int(tt.message_markets[1, 2])                     # a neutral district's market
    st.msg_at[m] = 1 * 4 + 2                              # its colour's M3
    st.carriage[0] = int(tt.central_market[1])
    assert view.action_to_string(DATA, 2, st, Decision(0, DP_CARRIAGE_DEST, 1, (m,)), m) == \
        f"carriage 1.C -> {DATA.market_name(m)} (the neutral green message M3 there)"
    take = Decision(0, DP_TAKE_MESSAGE, m, (0, 1))
    assert words(st, take, 2) == [f"leave the neutral green message M3 at {DATA.market_name(m)}",
                                  f"take the neutral green message M3 at {DATA.market_name(m)}"]


@pytest.mark.parametrize("n", [2, 5])
def test_every_option_has_words_of_its_own(n):
    st, decisions = built_decisions(n)
    st.msg_at[:] = np.where(st.msg_at >= 0, st.msg_at, 0)  # a tile on every market the carriage may name
    for d in decisions:
        said = words(st, d, n)
        assert len(set(said)) == len(said) and all(said), d


# ---------------------------------------------------------------- what a seat sees

def test_at_the_first_draft_step_a_seat_sees_its_three_cards_and_the_others_do_not():
    """ND-17.2: the deciding seat's options are its drawn cards; nobody else's observation lists
    them."""
    arr, tt, p = at_decision(5, 1, [1, 1, 1, 1], rounds_done=4, step=1, seat=2)
    st = arr[0]
    d = opened(st, p, DP_DRAFT_KEEP1)
    mine = view.observation(DATA, 4, st, p, d)
    assert mine["decision"] == {"seat": 2, "point": "draft_keep1", "context": 0, "options": list(d.options),
                                "actions": list(d.options)}
    assert mine["cards"]["choosing_from"] == sorted(int(k) for k in st.offered) == sorted(d.options)
    assert mine["phase"] == "draft" and mine["round"] == 5 and mine["stage"] == 2 and mine["start_player"] == 0
    assert [s["draft_step"] for s in mine["seats"]] == ["passed", "passed", "drew", "none"]
    other = view.observation(DATA, 4, st, 0, d)
    assert other["decision"] == {"seat": 2, "point": "draft_keep1", "context": 0}
    assert other["cards"]["choosing_from"] == [] and len(other["cards"]["passed"]) == 2
    assert len(other["cards"]["kept"]) == 1
    later = view.observation(DATA, 4, st, 3, d)["cards"]       # seat 3 has not drawn yet
    assert (later["hand"], later["choosing_from"], later["kept"], later["passed"]) == ([], [], [], [])
    assert later["handed_on"] is None and len(later["seen"][3]) == 3       # round 4's draw of its own deck


def test_after_the_draft_a_seat_sees_its_hand_and_only_the_size_and_colours_of_the_others():
    arr, tt, p = at_decision(8, 2, [1, 0, 1], rounds_done=2, step=3, turns=1)
    st = arr[0]
    d = opened(st, p, DP_PLAY_CARD)
    obs = view.observation(DATA, 3, st, p, d)
    assert obs["phase"] == "cards" and obs["cards_played"] == 1
    hand = sorted([int(st.hand[p, i]), int(st.hand_from[p, i])] for i in range(3))
    assert obs["cards"]["hand"] == hand and {k for k, _ in hand} == set(d.options)
    assert sorted(deck for _, deck in hand) == sorted([p, (p - 1) % 3, (p - 2) % 3])   # ND-5.2
    for q, s in enumerate(obs["seats"]):
        assert s["hand_size"] == int(st.hand_n[q]) and s["draft_step"] == "took"
        assert s["hand_decks"] == sorted(int(x) for x in st.hand_from[q, :st.hand_n[q]])
    assert sum(s["hand_size"] for s in obs["seats"]) == 8


def test_the_bribes_and_the_plague_are_named():
    arr, tt, _ = at_decision(9, 3, [1, 1], rounds_done=1, step=3, turns=4)
    st = arr[0]
    p = int(st.start)
    rules.bribe_options(st, tt, p)
    assert view.observation(DATA, 2, st, p, opened(st, p, DP_BRIBE))["phase"] == "bribes"
    assert view.observation(DATA, 2, st, p, Decision(p, DP_OUTBREAK_LOSS, 0, (0, 1)))["phase"] == "plague"
    st.bribed[p] = 8                                     # the Bishop's building acts (TC-78)
    assert view.observation(DATA, 2, st, p, Decision(p, DP_CARRIAGE_DEST, 1, (0, 1)))["phase"] == "bribes"
    st.bribed[p] = -1                                    # the last card's carriage, before the bribes
    assert view.observation(DATA, 2, st, p, Decision(p, DP_CARRIAGE_DEST, 1, (0, 1)))["phase"] == "cards"


def test_a_round_boundary_and_the_end_of_the_game():
    final = notre_dame.play_logged(DATA, 3, np.array([1, 1, 0], np.int8), 4, 0)
    obs = view.observation(DATA, 3, final, 1, None)
    assert obs["phase"] == "game over" and obs["decision"] is None and obs["round"] == 9
    assert obs["scores"] == [int(v) for v in final.vp[:3]]
    assert [sum(s["points"].values()) for s in obs["seats"]] == obs["scores"]
    assert obs["persons"]["grey_shown"] == [int(g) for g in final.grey]
    between = notre_dame.play_logged(DATA, 3, np.array([1, 1, 0], np.int8), 4, 0, halt_at=3)
    obs = view.observation(DATA, 3, between, 0, None)
    assert obs["phase"] == "end of round" and obs["persons"]["brown_shown"] == []   # a new stage's deck
    assert all(s["notre_dame"] == 0 for s in obs["seats"])                           # paid out (ND-13.2)


def positions():
    """Decisions in every part of a round, 2 to 5 players: (n, st array, tables, decision)."""
    out = []
    for k, (n, step, rounds_done, turns) in enumerate([(2, 1, 0, 0), (3, 2, 4, 0), (4, 3, 2, 3), (5, 1, 7, 0),
                                                       (5, 2, 2, 0), (4, 3, 5, 8), (3, 0, 6, 0), (2, 3, 3, 2)]):
        arr, tt, p = at_decision(20 + k, k, [1] * n, rounds_done, step, seat=k % n, turns=turns)
        st = arr[0]
        if step == 0:
            decision = None
        elif turns == 2 * n:
            rules.bribe_options(st, tt, p)
            decision = opened(st, p, DP_BRIBE)
        else:
            decision = opened(st, p, {1: DP_DRAFT_KEEP1, 2: DP_DRAFT_KEEP2, 3: DP_PLAY_CARD}[step])
        out.append((n, arr, tt, decision))
    return out


POSITIONS = positions()


def seen_by(n, st, s, decision):
    return view.observation(DATA, n, st, s, decision), view.observation_tensor(DATA, n, st, s, decision)


@pytest.mark.parametrize("k", range(len(POSITIONS)))
def test_what_determinize_redraws_for_a_seat_is_not_in_its_observation(k):
    """Every seat, at decisions of every kind: the others' cards, every deck's order and the
    persons to come, redrawn as a search player samples them (ND-17.4), change neither the
    observation nor the tensor; the samples do differ from the true state."""
    n, arr, tt, decision = POSITIONS[k]
    changed = 0
    for s in range(n):
        base = seen_by(n, arr[0], s, decision)
        json.dumps(base[0])
        for i in range(4):
            work = arr.copy()
            seed_stream(work[0].s_gen, 99, 10 * k + i, s)
            policies.determinize(work[0], tt, s)
            assert_same(seen_by(n, work[0], s, decision), base)
            changed += any(not np.array_equal(work[0][f], arr[0][f]) for f in ("deck", "hand", "kept", "brown"))
    assert changed


def hide(st, s, n):
    """Change, in place, what seat s cannot see (ND-17.2, policies.determinize)."""
    for q in range(n):
        st.deck[q] = st.deck[q][::-1]                    # deck orders, even of the own deck (ND-5.6)
        st.drawn[q] ^= 0b101
        if q != s:
            st.hand[q] = (st.hand[q] + 1) % 9            # the others' cards
            st.kept[q] = (st.kept[q] + 2) % 9
            st.passing[q] = (st.passing[q] + 3) % 9
            st.seen[q] ^= 0b110                          # what the others have seen
    if st.draft_at[s] not in (DRAFT_DREW, DRAFT_SHOWN):
        st.offered[:] = (st.offered + 4) % 9             # the cards another seat chooses from
    st.brown[int(st.brown_shown):] = st.brown[int(st.brown_shown):][::-1]   # persons to come (ND-2.5)
    st.grey[int(st.round_no):] = st.grey[int(st.round_no):][::-1]
    st.gen_chance[:] = 1
    st.gen_decide[:] = 2
    st.policy[:] = 1


def show(st, s, n, what):
    """Change, in place, one thing seat s can see."""
    q = (s + 1) % n
    if what == "own card":
        if st.draft_at[s] == DRAFT_TOOK:
            st.hand[s, 0] = (st.hand[s, 0] + 1) % 9
        else:
            st.seen[s, s] ^= 1
    elif what == "a cube":
        st.cubes[q, GUEST_HOUSE] += 1
        st.gsupply[q] -= 1
    elif what == "score":
        st.vp[q] += 3
        st.pts[q, 0] += 3
    elif what == "message":
        m = int(np.flatnonzero(st.msg_at >= 0)[0])
        st.msg_at[m] = -1
    elif what == "rats":
        st.rat[q] = (st.rat[q] + 1) % 10
    elif what == "carriage":
        st.carriage[q] = (st.carriage[q] + 1) % view.markets(DATA, n)


@pytest.mark.parametrize("k", range(len(POSITIONS)))
def test_a_change_a_seat_cannot_see_leaves_its_view_and_one_it_can_changes_it(k):
    n, arr, tt, decision = POSITIONS[k]
    for s in range(n):
        base = seen_by(n, arr[0], s, decision)
        work = arr.copy()
        hide(work[0], s, n)
        assert_same(seen_by(n, work[0], s, decision), base)
        for what in ("own card", "a cube", "score", "message", "rats", "carriage"):
            work = arr.copy()
            show(work[0], s, n, what)
            assert_differ(seen_by(n, work[0], s, decision), base)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_tensor_has_the_size_of_its_layout_at_every_player_count(n):
    states = [(arr[0], d) for m, arr, _, d in POSITIONS if m == n]
    states.append((notre_dame.play_logged(DATA, n, np.ones(n, np.int8), 1, 0), None))
    size = view.tensor_size(DATA, n)
    assert size == sum(length for _, length in view.tensor_blocks(DATA, n))
    for st, d in states:
        for s in range(n):
            t = view.observation_tensor(DATA, n, st, s, d)
            assert t.dtype == np.float32 and t.shape == (size,)
            obs = view.observation(DATA, n, st, s, d)
            assert json.loads(json.dumps(obs)) == obs
            start = view.tensor_offset(DATA, n, "legal")
            legal = t[start:start + view.num_distinct_actions(DATA, n)]
            assert sorted(np.flatnonzero(legal)) == sorted(obs["decision"]["actions"] if d and d.seat == s else [])
