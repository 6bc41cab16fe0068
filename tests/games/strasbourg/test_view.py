"""Strasbourg as one seat sees it (simcore/boardgames/strasbourg/view.py): the decision names, the
action ids and words, and an observation that shows all a seat may know and nothing it may not
(SB-16)."""
import json

import numpy as np
import pytest

from simcore.boardgames.strasbourg import components, rules, state, view
from simcore.boardgames.strasbourg.spec import play_logged
from simcore.boardgames.strasbourg.state import (
    D_APPRENTICE, D_BID, D_BUILD, D_CHAPEL, D_DRAW, D_MASTER_BUY, D_MASTER_PART, D_RETURN, D_SELL, D_TASKS,
    DECK_SLOTS, EV_BID, EV_SUBPHASE, GOODS, KEY_BASE, NO_BUY, PASS, PRIVILEGE)

from simcore.contract import Decision

DATA = components.load(None)
SUB_B = 1                                # sub-phase B, the round card's first guild (SB-6.1)


def cell(r, c):
    return r * 9 + c


def copy(st):
    """A record of its own (changing it leaves st as it was)."""
    return np.array([st], dtype=st.dtype).view(np.recarray)[0]


@pytest.fixture(scope="module")
def halted():
    """{players: the record after round 2} of game 0, seed 1, all seats random."""
    return {n: play_logged(DATA, n, np.zeros(n, np.int8), 1, 0, halt_at=2) for n in (3, 4, 5)}


@pytest.fixture(scope="module")
def final():
    return {n: play_logged(DATA, n, np.zeros(n, np.int8), 1, 0) for n in (3, 4, 5)}


def log(st, code, seat, a, b=0):
    e = int(st.n_events)
    st.ev[e, :] = (code, st.round_no, seat, a, b, 0, st.vp[seat])
    st.n_events = e + 1


def bidding(record):
    """Round 3, sub-phase B of a 4-player game: every seat drew 3 cards off its deck and bundled
    them as {1st} {2nd, 3rd}; seat sp revealed its first bundle, sp + 1 passed, and sp + 2 is at
    the front of the queue: (st, tt, its Decision)."""
    st = copy(record)
    tt = state.new_tables(DATA, 4)[0]
    st.round_no, st.subphase = 3, SUB_B
    st.bid[:], st.bid_bundle[:] = -1, -1
    for p in range(4):
        st.hand_n[p] = 0
        for _ in range(3):
            rules.draw_card(st, p)
        st.hand_bundle[p, :3] = (0, 1, 1)
        rules.form_bundles(st, p)
    sp = int(st.sp)
    log(st, EV_SUBPHASE, sp, SUB_B)
    rules.reveal(st, sp, 0)
    log(st, EV_BID, sp, 0, int(st.bid[sp]))
    log(st, EV_BID, (sp + 1) % 4, -1)
    seat = (sp + 2) % 4
    rules.bid_options(st, tt, seat, 1)
    return st, tt, Decision(seat, D_BID, SUB_B, tuple(int(v) for v in st.opts[:st.n_opts]))


def options_of(st):
    return tuple(int(v) for v in st.opts[:st.n_opts])


def plain(x):
    """Only JSON's own types, all the way down."""
    if isinstance(x, dict):
        return all(isinstance(k, str) and plain(v) for k, v in x.items())
    if isinstance(x, list):
        return all(plain(v) for v in x)
    return x is None or type(x) in (int, float, str, bool)


# ---------------------------------------------------------------- decisions and actions

def test_every_decision_point_has_a_unique_lowercase_name():
    points = {getattr(state, name) for name in dir(state) if name.startswith("D_")}
    assert set(view.DECISIONS) == points == {1, 2, 4, 5, 6, 7, 8, 9, 10, 11}     # SB-15: D-3 is not asked
    names = list(view.DECISIONS.values())
    assert len(set(names)) == len(names) and all(n == n.lower() for n in names)
    assert view.DECISIONS[D_BID] == "bid" and view.DECISIONS[D_TASKS] == "tasks"


@pytest.mark.parametrize("players", (3, 4, 5))
def test_the_action_space_is_the_city_and_one_more(players):
    assert view.num_distinct_actions(DATA, players) == 55        # 54 cells + no purchase / goods


def every_value(point):
    """Every option value a decision point can offer on the shipped data (SB-15)."""
    return {
        D_TASKS: range(1, 32), D_DRAW: (0, 1), D_BID: [*range(24), PASS, PRIVILEGE], D_RETURN: range(7),
        D_MASTER_BUY: [NO_BUY, *range(54)], D_APPRENTICE: [GOODS, *range(54)], D_SELL: range(4),
        D_CHAPEL: range(8), D_BUILD: [int(c) for c in DATA.sites], D_MASTER_PART: (0, 1),
    }[point]


@pytest.mark.parametrize("point", sorted(view.DECISIONS))
def test_action_ids_are_in_range_distinct_and_stable(point):
    n = view.num_distinct_actions(DATA, 4)
    values = list(every_value(point))
    ids = [view.action_id(DATA, 4, Decision(0, point, 0, tuple(values)), v) for v in values]
    assert all(0 <= i < n for i in ids)
    assert len(set(ids)) == len(ids)
    again = [view.action_id(DATA, 4, Decision(2, point, 3, tuple(values[:1])), v) for v in values]
    assert again == ids                                          # not a function of seat, context or the others


def test_the_ids_of_special_options():
    def id_of(point, value):
        return view.action_id(DATA, 4, Decision(0, point, 0, ()), value)
    assert id_of(D_TASKS, 1) == 0 and id_of(D_TASKS, 31) == 30
    assert id_of(D_BID, 0) == 0 and id_of(D_BID, PASS) == 24 and id_of(D_BID, PRIVILEGE) == 25
    assert id_of(D_MASTER_BUY, cell(0, 3)) == 3 and id_of(D_MASTER_BUY, NO_BUY) == 54
    assert id_of(D_APPRENTICE, GOODS) == 54 and id_of(D_BUILD, cell(1, 1)) == 10


def test_the_ids_of_generated_options(halted):
    st, tt, bid = bidding(halted[4])
    g = int(DATA.card_guilds[st.round_card[2], 0])
    st.coins[bid.seat] = 20
    decisions = [bid]
    for point, make in ((D_MASTER_BUY, lambda: rules.buy_options(st, tt, bid.seat, g, NO_BUY)),
                        (D_APPRENTICE, lambda: rules.buy_options(st, tt, bid.seat, g, GOODS)),
                        (D_RETURN, lambda: rules.return_options(st, tt, bid.seat, 1)),
                        (D_CHAPEL, lambda: rules.chapel_options(st, tt)),
                        (D_BUILD, lambda: rules.site_options(st, tt)),
                        (D_DRAW, lambda: rules.draw_options(st, bid.seat))):
        make()
        decisions.append(Decision(bid.seat, point, g, options_of(st)))
    for d in decisions:
        ids = [view.action_id(DATA, 4, d, v) for v in d.options]
        assert len(d.options) >= 2 and len(set(ids)) == len(ids)
        assert all(0 <= i < view.num_distinct_actions(DATA, 4) for i in ids)


# ---------------------------------------------------------------- moves in words

def test_moves_in_words(halted):
    st, tt, bid = bidding(halted[4])
    p = bid.seat
    cards = [int(v) for v in st.hand[p, :3]]
    high, low = max(cards[1:]), min(cards[1:])

    def words(point, value, context=0, seat=p):
        return view.action_to_string(DATA, 4, st, Decision(seat, point, context, ()), value)
    assert words(D_BID, 1) == f"reveals bundle 2: [{high}, {low}] = {high + low}"
    assert words(D_BID, PASS) == "passes"
    assert words(D_BID, PRIVILEGE) == "spends a privilege to wait"
    assert words(D_DRAW, 1) == "draws another card" and words(D_DRAW, 0) == "stops drawing"
    assert words(D_RETURN, 2) == "puts a 2 under the deck"
    assert words(D_MASTER_BUY, cell(0, 3)) == "buys (0,3) for 4"               # a vintners space (SB-19.8)
    assert words(D_MASTER_BUY, NO_BUY) == "buys nothing"
    assert words(D_APPRENTICE, GOODS, 1) == "takes Vintners goods"
    assert words(D_SELL, 2, 0) == "sells 2 Smiths goods for 10"                 # smiths goods are 5 (SB-19.2)
    assert words(D_SELL, 0, 4) == "sells no Bakers goods"
    assert words(D_CHAPEL, 3) == "builds a chapel on spot 3"
    building = DATA.building_names[int(st.round_building[2])]
    assert words(D_BUILD, cell(1, 1)) == f"builds the {building} on (1,1)"
    first, third = (DATA.task_names[int(st.dealt[0, i])] for i in (0, 2))
    assert words(D_TASKS, 0b101, seat=0) == f"keeps 2 task card(s): {first}; {third}"


def test_master_part_words_name_the_journeymans_goods():
    st = copy(state.new_state()[0])
    st.players = 4
    st.bid[:4] = (6, 5, -1, -1)
    st.ranked[:2] = (0, 1)
    d = Decision(1, D_MASTER_PART, 1, (0, 1))
    assert view.action_to_string(DATA, 4, st, d, 1) == "takes the Vintners goods tile"
    master = view.action_to_string(DATA, 4, st, Decision(0, D_MASTER_PART, 1, (0, 1)), 0)
    assert master == "declines the Master's part offered: the Vintners seat, then its goods tile"


# ---------------------------------------------------------------- what a seat sees

@pytest.mark.parametrize("players", (3, 4, 5))
def test_observations_are_plain_json_of_a_fixed_size(halted, final, players):
    for st in (halted[players], final[players]):
        for seat in range(players):
            obs = view.observation(DATA, players, st, seat, None)
            assert plain(obs) and json.loads(json.dumps(obs)) == obs
            t = view.observation_tensor(DATA, players, st, seat, None)
            assert t.dtype == np.float32 and t.shape == (view.tensor_size(DATA, players),)
    assert view.tensor_size(DATA, 3) < view.tensor_size(DATA, 4) < view.tensor_size(DATA, 5)


def test_a_round_end_and_the_game_end(halted, final):
    st = halted[4]
    obs = view.observation(DATA, 4, st, 0, None)
    assert (obs["round"], obs["phase"], obs["decision"], obs["bidding"]) == (2, "round end", None, None)
    assert [q["vp"] for q in obs["table"]] == [int(v) for v in st.vp[:4]]
    assert obs["council"]["NOBILITY"] == int(st.seat_owner[0])
    assert obs["own"]["tasks_kept"] == [int(c) for c in st.tasks[0] if c >= 0]
    assert sum(obs["own"]["deck"]) == obs["table"][0]["deck_size"] == int(st.deck_n[0])
    assert [r["building"] for r in obs["round_cards"]] == [DATA.building_names[b] for b in st.round_building]
    end = view.observation(DATA, 4, final[4], 1, None)
    assert end["phase"] == "game over" and end["round"] == 5
    assert all(sum(q["points"].values()) == q["vp"] for q in end["table"])
    assert [q["city_members"] for q in end["table"]] == [int((final[4].cell_owner == q).sum()) for q in range(4)]


def test_a_bid_under_way(halted):
    st, tt, bid = bidding(halted[4])
    sp = int(st.sp)
    obs = view.observation(DATA, 4, st, bid.seat, bid)
    assert plain(obs)
    assert obs["phase"] == "B" and obs["decision"] == {"seat": bid.seat, "point": "bid", "context": SUB_B}
    assert obs["bidding"]["moves"] == [{"seat": sp, "move": "reveal"}, {"seat": (sp + 1) % 4, "move": "pass"}]
    assert obs["bidding"]["bids"][sp] == int(st.bundle_sum[sp, 0]) and obs["bidding"]["ranking"] is None
    opened = obs["table"][sp]["bundles"]
    assert opened[0] == {"size": 1, "revealed": True, "cards": [int(st.hand[sp, 0])]}
    assert opened[1] == {"size": 2, "revealed": False}                          # SB-16.3.2
    assert "cards" in obs["table"][bid.seat]["bundles"][1]                      # its own
    assert obs["table"][bid.seat]["cards_drawn"] == 3
    t = view.observation_tensor(DATA, 4, st, bid.seat, bid)
    assert t.shape == (view.tensor_size(DATA, 4),) and t.dtype == np.float32


def hidden_changes(st, seat):
    """st with everything `seat` cannot see changed (SB-16.3): the others' unrevealed bundles
    swapped with cards of their decks, every deck's unknown places reordered, the others' task
    cards dealt and kept anew, the chance stream moved on."""
    other = copy(st)
    rng = np.random.default_rng(7)
    for q in range(4):
        unknown = [(int(st.deck_top[q]) + k) % DECK_SLOTS for k in range(int(st.deck_n[q]))]
        unknown = [s for s in unknown if not st.deck_known[q, s]]
        if q != seat:
            for i in range(int(st.hand_n[q])):
                if other.bundle_open[q, other.hand_bundle[q, i]]:
                    s = unknown[i]
                    other.hand[q, i], other.deck[q, s] = other.deck[q, s], other.hand[q, i]
            for b in range(int(st.n_bundles[q])):
                if other.bundle_open[q, b]:
                    cards = [int(other.hand[q, i]) for i in range(int(st.hand_n[q])) if other.hand_bundle[q, i] == b]
                    other.bundle_sum[q, b] = sum(cards)
                    other.bundle_key[q, b] = sum(KEY_BASE ** (v - 1) for v in cards)
            other.tasks[q] = (24 - q, -1, -1, -1, -1)
            other.dealt[q] = rng.permutation(25)[:5]
        other.deck[q, unknown] = rng.permutation(other.deck[q, unknown])
    other.gen_chance[:] = (1, 2, 3, 4)
    other.gen_decide[:] = (5, 6, 7, 8)
    return other


@pytest.mark.parametrize("seat", range(4))
def test_what_a_seat_cannot_see_changes_nothing(halted, seat):
    st, tt, bid = bidding(halted[4])
    other = hidden_changes(st, seat)
    changed = [q for q in range(4) if q != seat and
               (other.bundle_key[q, :2] != st.bundle_key[q, :2]).any()]
    assert changed, "the test changes someone's unrevealed bundles"
    assert view.observation(DATA, 4, other, seat, bid) == view.observation(DATA, 4, st, seat, bid)
    assert (view.observation_tensor(DATA, 4, other, seat, bid) == view.observation_tensor(DATA, 4, st, seat, bid)).all()
    assert view.observation(DATA, 4, other, changed[0], bid) != view.observation(DATA, 4, st, changed[0], bid)


def test_what_a_seat_sees_changes_its_observation(halted):
    st, tt, bid = bidding(halted[4])
    seat, sp = bid.seat, int(st.sp)
    before = view.observation_tensor(DATA, 4, st, seat, bid)
    own_bundle = copy(st)
    own_bundle.bundle_key[seat, 0] = KEY_BASE ** 5 if st.hand[seat, 0] != 6 else 1
    board = copy(st)
    board.cell_owner[cell(0, 0)] = 3 - int(st.cell_owner[cell(0, 0)] == 3)
    coins = copy(st)
    coins.coins[sp] += 1
    revealed = copy(st)
    revealed.bundle_key[sp, 0] = KEY_BASE ** 5 if st.hand[sp, 0] != 6 else 1
    own_task = copy(st)
    own_task.tasks[seat, 0] = (int(st.tasks[seat, 0]) + 1) % 25
    for changed in (own_bundle, board, coins, revealed, own_task):
        assert view.observation(DATA, 4, changed, seat, bid) != view.observation(DATA, 4, st, seat, bid)
        assert (view.observation_tensor(DATA, 4, changed, seat, bid) != before).any()


def test_the_moves_of_a_sub_phase_need_the_log(halted):
    st, tt, bid = bidding(halted[4])
    st.logging = 0
    obs = view.observation(DATA, 4, st, bid.seat, bid)
    assert obs["bidding"]["moves"] is None and obs["bidding"]["bids"][int(st.sp)] is not None


def test_a_plain_play_record_is_seen_alike(halted):
    """The step API may hold a record without the search's fields (state.PLAY_STATE)."""
    st, tt, bid = bidding(halted[4])
    play = state.new_state(search=False)[0]
    for name in state.PLAY_STATE.names:
        play[name] = st[name]
    assert view.observation(DATA, 4, play, 1, bid) == view.observation(DATA, 4, st, 1, bid)
    assert (view.observation_tensor(DATA, 4, play, 1, bid) == view.observation_tensor(DATA, 4, st, 1, bid)).all()


def test_the_phase_follows_the_decision(halted):
    st = copy(halted[3])
    assert view.observation(DATA, 3, st, 0, Decision(0, D_TASKS, 0, ()))["phase"] == "setup"
    assert view.observation(DATA, 3, st, 0, Decision(0, D_DRAW, 1, (0, 1)))["phase"] == "planning"
    st.subphase = 7
    assert view.observation(DATA, 3, st, 0, Decision(1, D_CHAPEL, 0, (0, 2)))["phase"] == "H"
    st.halted = 0
    assert view.observation(DATA, 3, st, 0, None)["phase"] == "game over"
