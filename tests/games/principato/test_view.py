"""Principato as one seat sees it (simcore/boardgames/principato/view.py): the step API's decision
names, action ids and words, and an observation that shows what the rules show and hides what they
hide (HI-1 to HI-5). Decisions are built from the rules' own option generators on positions set up
by hand (builder.py), and observations read records of real games (spec.play_logged)."""
import json

import numpy as np
import pytest

from simcore.boardgames.principato import describe, rules, scoring, spec, view
from simcore.boardgames.principato.state import (
    ACT_A, D_CARD, D_CULTURE, D_DISCARD, D_EXCHANGE, D_EXCHANGE_B, D_FAVOUR, D_KIND, D_LOAD, D_OPTION,
    D_OVERFLOW, D_RECRUIT, DISCARD_CON, DISCARD_MIL, END_TURN, EV_SWAP, H_FOOD, H_MONEY, LOAD_FAV_MIL,
    LOAD_MONEY_CON, LOSE, TO_MILITIA, YEARS)
from tests.games.principato.builder import (
    CARD, DATA, EFFECT, S1_MARKET2, S2_FIELD, generated, position, set_holdings, show)

from simcore.contract import Decision
from view_tool import assert_differ, assert_same

pay = rules.pay_code
PLAYER_COUNTS = (2, 3, 4)


def decision(point, options, seat=0, context=0):
    return Decision(seat=seat, point=point, context=context, options=tuple(int(v) for v in options))


def rich_position(players, **switches):
    """A set-up game in which seat 0 can afford every option of every card, with empty units to
    load and a full church (so every decision point has several options)."""
    st, tt = position(players=players, sp=0, **switches)
    set_holdings(st, tt, 0, farm=5, bank=5, food=8, money=8, favour=3, mil=(3, 0, 0), con=(2, 0, 0))
    return st, tt


def every_decision(players, st, tt):
    """One decision of every point (two for a card's option: every effect), with the options the
    rules generate for seat 0."""
    out = [decision(D_KIND, generated(rules.kind_options, st, tt, 0), context=1),
           decision(D_CARD, generated(rules.card_options, st, tt, 0)),
           decision(D_RECRUIT, generated(rules.recruit_options, st, 0), context=EFFECT["MILITIA"]),
           decision(D_OVERFLOW, generated(rules.overflow_options, st, tt, 0, H_FOOD, 5), context=H_FOOD),
           decision(D_EXCHANGE, generated(rules.slot_options, st, tt), context=CARD["HARVEST"]),
           decision(D_EXCHANGE_B, generated(rules.swap_options, st, tt)),
           decision(D_FAVOUR, generated(rules.favour_options, st, tt, 0)),
           decision(D_LOAD, generated(rules.count_options, st, 3), context=LOAD_FAV_MIL),
           decision(D_DISCARD, generated(rules.count_options, st, 3), context=DISCARD_MIL)]
    for name, card in CARD.items():
        n = rules.option_moves(st, tt, 0, card, st.opts)
        out.append(decision(D_OPTION, st.opts[:n], context=EFFECT[name]))
    chooser, ctt = rich_position(players, culture_take="choose")
    out.append(decision(D_CULTURE, generated(rules.culture_options, chooser, ctt, 2), context=2))
    return out


@pytest.fixture(scope="module")
def games():
    """Real records: after 10 turns of a 4-player game (mid year 1), after 30 (year 2), a 3- and a
    2-player game mid-way, and a finished 4-player game."""
    greedy = np.ones(4, np.int8)
    return {"mid": spec.play_logged(DATA, 4, greedy, 1, 0, halt_at=10),
            "year2": spec.play_logged(DATA, 4, greedy, 1, 0, halt_at=30),
            "three": spec.play_logged(DATA, 3, greedy[:3], 2, 0, halt_at=12),
            "two": spec.play_logged(DATA, 2, greedy[:2], 3, 0, halt_at=20),
            "final": spec.play_logged(DATA, 4, greedy, 1, 0)}


def copy(st):
    return st.copy()


# ---------------------------------------------------------------- decisions and action ids

def test_every_decision_point_has_a_name():                               # DEC-1 to DEC-13
    assert set(view.DECISIONS) == {D_KIND, D_CARD, D_OPTION, D_RECRUIT, D_OVERFLOW, D_EXCHANGE, D_CULTURE,
                                   D_EXCHANGE_B, D_FAVOUR, D_LOAD, D_DISCARD}
    names = list(view.DECISIONS.values())
    assert len(set(names)) == len(names)
    assert all(name == name.lower() and name for name in names)
    assert view.DECISIONS[D_EXCHANGE_B] == "swap" and view.DECISIONS[D_KIND] == "action"


def test_the_action_space_per_player_count():
    # counts 0..37 (the unit pool) for 2 players; action B's D(D+1) patterns for displays of 6 and 7
    assert [view.num_distinct_actions(DATA, p) for p in PLAYER_COUNTS] == [38, 42, 56]
    sizes = view.layout(DATA, 4).sizes
    assert sizes[D_OPTION] == 16                  # CATAPULT_Y12: (1+1)(1+1) + (3+1)(2+1) payments
    assert sizes[D_EXCHANGE_B] == 7 * 8 and sizes[D_RECRUIT] == 38 and sizes[D_KIND] == 4


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_action_ids_are_injective_in_range_and_stable(players):
    st, tt = rich_position(players)
    n = view.num_distinct_actions(DATA, players)
    for d in every_decision(players, st, tt):
        ids = [view.action_id(DATA, players, d, v) for v in d.options]
        assert len(d.options) >= 1
        assert len(set(ids)) == len(ids), (view.DECISIONS[d.point], d.context, d.options)
        assert all(0 <= a < n for a in ids)
        view._LAYOUTS.clear()                     # the same ids from a fresh layout: a pure function
        assert [view.action_id(DATA, players, d, v) for v in d.options] == ids


def test_every_payment_a_card_can_have_gets_its_own_id():                  # DEC-3, DEC-4, PR-9.3
    for e, name in enumerate(DATA.effect_ids):
        ids = set()
        for o in range(DATA.effect_n_options[e]):
            food, money = (int(x) for x in DATA.effect_pay[e, o])
            for f in range(food + 1):
                for m in range(money + 1):
                    code = pay(o, f, m, food - f + money - m) if DATA.effect_kind[e] == 0 else o
                    ids.add(view.action_id(DATA, 4, decision(D_OPTION, [code], context=e), code))
        assert ids == set(range(len(ids))), name
        assert len(ids) <= view.layout(DATA, 4).sizes[D_OPTION]


def test_ids_that_mean_a_value_are_that_value():
    assert view.action_id(DATA, 4, decision(D_KIND, [0, 1, 2, 3], context=2), END_TURN) == 3
    # action B: one card as its code, two cards without the code's gaps at s0 = s1 (D = 7)
    assert view.action_id(DATA, 4, decision(D_EXCHANGE_B, []), 1 * 7 + 6) == 13
    assert view.action_id(DATA, 4, decision(D_EXCHANGE_B, []), 14 + 0 * 7 + 1) == 14
    assert view.action_id(DATA, 4, decision(D_EXCHANGE_B, []), 14 + 6 * 7 + 5) == 55
    assert view.action_id(DATA, 2, decision(D_RECRUIT, range(38), context=EFFECT["MILITIA"]), 37) == 37
    # BANK's option 2 (3 food) paid 2 food + 1 favour: after option 1's 2 payments, f = 2, m = 0
    assert view.action_id(DATA, 4, decision(D_OPTION, [], context=EFFECT["BANK"]), pay(1, 2, 0, 1)) == 4
    with pytest.raises(ValueError):
        view.action_id(DATA, 2, decision(D_EXCHANGE_B, []), 10 + 2 * 5 + 2)     # s0 = s1: no option


# ---------------------------------------------------------------- moves in words

def test_moves_in_words():
    st, tt = rich_position(4)
    st.hand[0] = (S1_MARKET2, S2_FIELD)
    show(st, tt, [CARD["HARVEST"], CARD["TAXES"], CARD["MONEY3"], CARD["BOOK"], CARD["FARM"], CARD["BANK"],
                  CARD["PAINTING"]])

    def words(point, value, context=0):
        return view.action_to_string(DATA, 4, st, decision(point, [value], context=context), value)

    assert words(D_KIND, ACT_A, 1) == "activates a card (A)"
    assert words(D_KIND, END_TURN, 2) == "ends the turn"
    assert words(D_CARD, 1) == "activates Field"
    assert words(D_OPTION, pay(1, 2, 0, 1), EFFECT["BANK"]) == "Bank option 2 (2 banks): pays 2 food, 0 money, 1 favour"
    assert words(D_OPTION, 1, EFFECT["MARKET2"]) == "Market option 2: 1 food and 1 money"
    assert words(D_RECRUIT, 3, EFFECT["CONDOTTIERI"]) == "recruits 3 condottieri"
    assert words(D_OVERFLOW, 2, H_MONEY) == "puts 2 overflow money onto condottieri, the rest is lost"
    assert words(D_EXCHANGE, 2, S1_MARKET2) == "exchanges Market for 3 Money from slot 2"
    assert words(D_CULTURE, 0, 2) == "takes a painting worth 6 VP"
    assert words(D_EXCHANGE_B, 1 * 7 + 3) == "swaps Field with display slot 3"
    assert words(D_EXCHANGE_B, 2 * 7 + 0 * 7 + 4) == "swaps Market into slot 0 and Field into slot 4"
    assert words(D_FAVOUR, TO_MILITIA) == "takes a favour: onto a militia (church full)"
    assert words(D_FAVOUR, LOSE) == "takes a favour: lost (church full)"
    assert words(D_LOAD, 2, LOAD_MONEY_CON) == "loads 2 money onto condottieri"
    assert words(D_DISCARD, 1, DISCARD_CON) == "discards 1 condottieri"


def test_a_swap_reads_as_the_replay_writes_it():                          # DEC-9
    st, tt = rich_position(3)
    st.hand[1] = (CARD["CATAPULT_Y3"], S1_MARKET2)
    names = describe.card_names(DATA)
    for code in (0, 6 + 5, 12 + 2 * 6 + 1):
        line = describe.event_line(names, (EV_SWAP, 1, 1, code, *st.hand[1], 0), 6)
        assert line == "    Blue " + view.action_to_string(DATA, 3, st, decision(D_EXCHANGE_B, [code], seat=1), code)


# ---------------------------------------------------------------- what a seat sees

def kind_decision(st):
    return decision(D_KIND, [0, 1, 2, 3], seat=int(st.current), context=1)


def both(st, seat, d, players=4):
    return (view.observation(DATA, players, st, seat, d), view.observation_tensor(DATA, players, st, seat, d))



@pytest.mark.parametrize("key, players", [("mid", 4), ("year2", 4), ("three", 3), ("two", 2), ("final", 4)])
def test_observations_are_json_and_tensors_their_size(games, key, players):
    st = games[key]
    d = None if key == "final" else kind_decision(st)
    for seat in range(players):
        obs, tensor = both(st, seat, d, players)
        assert json.loads(json.dumps(obs)) == obs
        assert tensor.dtype == np.float32 and tensor.shape == (view.tensor_size(DATA, players),)
        assert obs["seat"] == seat and obs["scores"] == [int(v) for v in st.vp[:players]]


def test_an_observation_holds_the_public_game(games):                      # HI-3
    st = games["mid"]
    obs = view.observation(DATA, 4, st, 2, kind_decision(st))
    assert (obs["year"], obs["turn"], obs["start_player"], obs["game_over"]) == (1, 10, int(st.sp), False)
    assert obs["decision"] == {"seat": int(st.current), "point": "action", "context": 1,
                               "about": "action 1 of the turn"}
    names = describe.card_names(DATA)
    assert obs["hands"] == [[names[c] for c in st.hand[q]] for q in range(4)]
    assert obs["display"] == [names[c] for c in st.display[:7]]
    assert obs["principalities"][1]["militia"] == st.hold[1, 11]
    # year 1's deck is partly drawn, years 2 and 3 whole with their scoring card (HI-2)
    assert sum(obs["decks"][0].values()) == st.deck_n - st.deck_pos
    assert [sum(deck.values()) for deck in obs["decks"][1:]] == [29, 29]
    assert obs["decks"][1]["Military scoring card"] == 1
    assert obs["culture_stacks"]["monument"] == [int(v) for v in DATA.culture_values[0, :15]][
        int(st.taken[0]):]


def test_only_the_own_goal_cards_are_seen_until_the_end(games):           # HI-1
    st = games["mid"]
    obs = view.observation(DATA, 4, st, 1, kind_decision(st))
    assert obs["goals"][1] == [describe.in_words(DATA.goal_ids[g]) for g in st.goals[1]]
    assert obs["goals"][0] is obs["goals"][2] is obs["goals"][3] is None
    final = view.observation(DATA, 4, games["final"], 1, None)
    assert final["game_over"] and all(g is not None for g in final["goals"])


def hide(st, seat, rng):
    """A copy of st that differs only in what `seat` cannot see (what determinize redraws, HI-5):
    the order of every deck's undrawn cards, the other seats' goal cards, the random streams and
    the policies' private fields."""
    other = copy(st)
    rng.shuffle(other.deck[other.deck_pos:other.deck_n])
    for y in range(YEARS):
        rng.shuffle(other.decks[y][:view.layout(DATA, int(st.players)).deck_sizes[y]])
    for deck in range(2):
        others = [q for q in range(int(st.players)) if q != seat]
        goals = [other.goals[q, deck] for q in others]
        goals = goals[1:] + goals[:1] if len(goals) > 1 else goals
        undealt = [g for g in range(len(DATA.goal_ids)) if DATA.goal_deck[g] == deck and g not in other.goals[:, deck]]
        if undealt:                                       # with fewer players: an undealt card instead
            goals[0] = undealt[0]
        for q, g in zip(others, goals):
            other.goals[q, deck] = g
    other.gen_chance[:] = rng.integers(1, 2**62, 4)
    other.gen_decide[:] = rng.integers(1, 2**62, 4)
    other.plan_card, other.plan_ok = 5, 1
    other.policy[:] = 1 - other.policy
    return other


@pytest.mark.parametrize("key, players", [("mid", 4), ("year2", 4), ("three", 3), ("two", 2)])
def test_what_a_seat_cannot_see_changes_nothing(games, key, players):      # HI-1, HI-2, HI-5
    st = games[key]
    rng = np.random.default_rng(7)
    for seat in range(players):
        other = hide(st, seat, rng)
        assert not np.array_equal(other.goals, st.goals)
        assert not np.array_equal(other.deck, st.deck)
        d = kind_decision(st)
        assert_same(both(st, seat, d, players), both(other, seat, d, players))
        # the same copy seen by another seat: its goal cards changed, and it sees them
        watcher = (seat + 1) % players
        assert_differ(both(st, watcher, d, players), both(other, watcher, d, players))


def test_what_a_seat_can_see_changes_its_observation(games):               # HI-3
    st = games["mid"]
    d = kind_decision(st)
    seen = both(st, 0, d)

    def changed(edit):
        other = copy(st)
        edit(other)
        return both(other, 0, d)

    def own_hand(s):
        s.hand[0] = (s.hand[0, 1], CARD["PAINTING"])

    def board(s):
        s.hold[3, 4] += 1                       # another seat's catapult

    def score(s):
        s.vp[2] += 1

    def display(s):
        s.display[3] = CARD["BOOK"] if names[s.display[3]] != "Book" else CARD["FARM"]

    def drawn(s):
        s.deck_pos += 1                         # one card fewer in the deck

    def own_goal(s):
        s.goals[0, 0] = (s.goals[0, 0] + 1) % 4

    names = describe.card_names(DATA)
    for edit in (own_hand, board, score, display, drawn, own_goal):
        assert_differ(seen, changed(edit))


def test_the_goals_are_shown_at_the_end(games):                           # HI-1, PR-15
    st = games["final"]
    other = copy(st)
    other.goals[[2, 3]] = other.goals[[3, 2]]
    assert_differ(both(st, 0, None), both(other, 0, None))
    obs = view.observation(DATA, 4, st, 0, None)
    assert obs["decision"] is None and obs["scorings"] == 5
    assert [sum(p.values()) for p in obs["points"]] == obs["scores"]


def test_a_scoring_shows_its_order_then_its_awards(games):                # PR-14.1, PR-14.5
    st = copy(games["year2"])
    scoring.scoring_order(st)
    order = [int(q) for q in st.order[:4]]
    load = view.observation(DATA, 4, st, 0, decision(D_LOAD, range(3), seat=order[0], context=LOAD_FAV_MIL))
    assert load["scoring"] == {"order": order}
    assert load["decision"]["about"] == "favour onto militia"
    st.strength[:4], st.award[:4] = (3, 1, 0, 2), (7, 2, 0, 4)
    discard = view.observation(DATA, 4, st, 0, decision(D_DISCARD, range(2), seat=order[0], context=DISCARD_MIL))
    assert discard["scoring"] == {"order": order, "strength": [3, 1, 0, 2], "award": [7, 2, 0, 4]}
    assert view.observation(DATA, 4, st, 0, kind_decision(st))["scoring"] is None
    a, b = both(st, 0, decision(D_LOAD, range(3), context=LOAD_FAV_MIL)), both(st, 0, kind_decision(st))
    assert not np.array_equal(a[1], b[1])


def test_tensor_rows_start_with_the_seat_itself(games):
    st = games["mid"]
    d = kind_decision(st)
    lay = view.layout(DATA, 4)
    offsets = np.cumsum([0] + [n for _, n in lay.sections])
    start = offsets[[name for name, _ in lay.sections].index("seats")]
    for seat in range(4):
        tensor = view.observation_tensor(DATA, 4, st, seat, d)
        assert tensor[seat] == 1 and tensor[:4].sum() == 1                  # "seat": its own number
        assert np.array_equal(tensor[start:start + 17], st.hold[seat].astype(np.float32))
