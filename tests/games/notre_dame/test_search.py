"""Search players in Notre Dame (simcore/search.py): what `determinize` redraws for a seat is its
information set (ND-17.4) at every kind of decision — in the draft (ND-5) and after it — searched
games are exact replays that do not depend on workers or chunks, and they are legal games (the
invariant checker stays silent)."""
from collections import Counter

import numpy as np
import pandas as pd
import pytest

import simcore
from simcore import players, registry, runner
from simcore.rng import seed_stream
from simcore.boardgames.notre_dame import components, playout, policies, spec as notre_dame
from simcore.boardgames.notre_dame.rules import hand_options, reveal_persons
from simcore.boardgames.notre_dame.state import (
    DRAFT_DREW, DRAFT_SHOWN, MAX_PLAYERS, N_KINDS, STATE, new_state, new_tables)

GAME = "notre-dame"
REDRAWN = ("deck", "kept", "passing", "hand", "offered", "drawn", "brown", "grey", "s_gen")  # all determinize writes
ARRAYS = ("kept", "passing", "hand")
SAMPLES = 2000
TOLERANCE = 0.04                     # |frequency - expected|: about 4.5 standard deviations at 2000 samples
DATA = components.load(None)


# ---------------------------------------------------------------- positions at a decision

def at_decision(seed, index, seats, rounds_done, step, seat=0, turns=0):
    """Game (seed, index) after `rounds_done` rounds, then in the next round up to a decision:
    step 0: none (the round boundary itself); step 1: `seat` has drawn and chooses the card to
    keep, the seats before it have kept theirs and passed 2 (ND-5.2 step 1, in seat order A-26);
    step 2: everyone has passed, `seat` chooses from the 2 it received, the seats before it have
    chosen; step 3: the draft is over and `turns` Phase-3 turns are played, the next seat chooses
    a card (ND-6.1). The seats' policies choose. Returns (state array, tables record, deciding seat)."""
    n = len(seats)
    played = notre_dame.play_logged(DATA, n, np.array(seats, np.int8), seed, index, halt_at=rounds_done)
    arr = new_state()
    arr[0] = played
    st = arr[0]
    tt = new_tables(DATA, n)[0]
    st.halt_at = st.halted = st.logging = 0
    if step == 0:
        return arr, tt, seat
    st.round_no = rounds_done + 1
    st.start = (st.s0 + st.round_no - 1) % n
    reveal_persons(st)
    if step == 1:
        for q in range(seat):
            playout.draw_three(st, q)
            playout.keep_first(st, tt, q)
        playout.draw_three(st, seat)
        playout.show_cards(st, seat, st.offered, 3)
        return arr, tt, seat
    for q in range(n):
        playout.draw_three(st, q)
        playout.keep_first(st, tt, q)
    if step == 2:
        for q in range(seat):
            playout.receive_pair(st, q)
            playout.keep_second(st, tt, q)
        playout.receive_pair(st, seat)
        playout.show_cards(st, seat, st.offered, 2)
        return arr, tt, seat
    for q in range(n):
        playout.receive_pair(st, q)
        playout.keep_second(st, tt, q)
    for q in range(n):
        playout.take_last(st, q)
    for t in range(turns):
        playout.play_turn(st, tt, (int(st.start) + t) % n)
    p = (int(st.start) + turns) % n
    hand_options(st, p)
    return arr, tt, p


def places(st, p, step):
    """Where the cards of this round lie that the seats other than p hold or pass between them,
    from the draft's rules alone (ND-5.2, ND-5.3): (array, seat, index, deck it came from, what p
    knows of it, ND-17.2): "known", "hidden", or "passed" (one of the 2 cards p passed in step 1:
    p knows both, not who kept which)."""
    n = int(st.players)

    def right(q):
        return (q - 1) % n

    out = []
    if step == 1:                           # the seats before p kept 1 and passed 2, all unseen
        for q in range(p):
            out += [("kept", q, 0, q, "hidden"), ("passing", q, 0, q, "hidden"), ("passing", q, 1, q, "hidden")]
    elif step == 2:
        out += [("passing", right(p), i, right(p), "known") for i in range(2)]      # what p chooses from
        for q in range(n):
            if q == p:
                continue
            out.append(("kept", q, 0, q, "hidden"))
            if q < p:                       # chose already from its right neighbour's pair
                what = "passed" if right(q) == p else "hidden"
                out += [("kept", q, 1, right(q), what), ("kept", q, 2, right(q), what)]
            elif right(q) != p:             # chooses later, from a pair p has not seen
                out += [("passing", right(q), i, right(q), "hidden") for i in range(2)]
    elif step == 3:
        handed_on = int(st.kept[p, 2])      # what p handed on in step 2 (ND-5.2; 2 players: returned)
        for q in range(n):
            if q == p:
                continue
            for i in range(int(st.hand_n[q])):
                d = int(st.hand_from[q, i])
                if d == p:
                    what = "passed"
                elif d == right(p) and int(st.hand[q, i]) == handed_on:
                    what = "known"
                else:
                    what = "hidden"
                out.append(("hand", q, i, d, what))
    return out


def card(st, place):
    array, q, i = place[:3]
    return int(st[array][q, i])


def unseen(st, p, d):
    """The kinds of deck d seat p has not seen this stage (st.seen: tested below)."""
    return {k for k in range(N_KINDS) if not (int(st.seen[p, d]) >> k) & 1}


def assert_consistent(base, st, p, step):
    """A determinized state never contradicts what p knows (ND-17.4), is a possible world (every
    deck holds each kind once a stage, ND-5.6), and keeps no true hidden card anywhere."""
    n = int(base.players)
    for field in STATE.names:
        if field not in REDRAWN and not field.startswith("t_"):
            assert np.array_equal(base[field], st[field]), f"{field} changed"
    for field in ARRAYS:                                                        # p's own cards
        assert np.array_equal(base[field][p], st[field][p]), f"p's {field} changed"
    if base.draft_at[p] in (DRAFT_DREW, DRAFT_SHOWN):
        assert np.array_equal(base.offered, st.offered)
    where = places(base, p, step)
    for place in where:
        d, what = place[3], place[4]
        if what == "known":
            assert card(st, place) == card(base, place), place
        elif what == "hidden":
            assert card(st, place) in unseen(base, p, d), place
    passed = [place for place in where if place[4] == "passed"]
    assert sorted(card(st, x) for x in passed) == sorted(card(base, x) for x in passed)
    live = {place[:3] for place in where}
    for array in ARRAYS:                                                        # nothing else survives
        for q in range(n):
            for i in range(st[array].shape[1]):
                if q != p and (array, q, i) not in live:
                    assert st[array][q, i] == -1, f"{array}[{q}, {i}] kept a card the game will not read"
    for d in range(n):
        top = int(base.deck_pos[d])
        assert sorted(st.deck[d].tolist()) == list(range(N_KINDS)), f"deck {d} is no permutation"
        for pos in range(top):
            if int(base.deck[d, pos]) not in unseen(base, p, d):
                assert st.deck[d, pos] == base.deck[d, pos]
        assert set(st.deck[d, top:].tolist()) <= unseen(base, p, d)
        assert int(st.drawn[d]) == sum(1 << int(k) for k in st.deck[d, :top])
        # a card of this round and a card still in the deck are never the same card (p's own too)
        held = [card(st, x) for x in where if x[3] == d]
        held += [int(st[array][p, i]) for array, i in own_places(base, p) if array_origin(base, p, array, i) == d]
        future = st.deck[d, top:].tolist()
        assert len(held + future) == len(set(held + future)), f"deck {d}: a card in two places"
        assert set(held) <= set(st.deck[d, :top].tolist())
    shown = int(base.brown_shown)
    assert np.array_equal(st.brown[:shown], base.brown[:shown]) and sorted(st.brown) == sorted(base.brown)
    r = int(base.round_no)
    assert np.array_equal(st.grey[:r], base.grey[:r])
    for g in range(0, 9, 3):
        assert sorted(st.grey[g:g + 3]) == sorted(base.grey[g:g + 3])          # the letters stay apart


def own_places(st, p):
    """p's own live cards of this round: its hand, or in the draft what it kept (not what it is
    choosing from: that is in another seat's passing row or its own draw)."""
    at = int(st.draft_at[p])
    if at == 5:
        return [("hand", i) for i in range(int(st.hand_n[p]))]
    out = []
    if at >= 2:
        out.append(("kept", 0))
    if at == 4:
        out += [("kept", 1), ("kept", 2)]
    return out


def array_origin(st, p, array, i):
    if array == "hand":
        return int(st.hand_from[p, i])
    return p if i == 0 else (p - 1) % int(st.players)


def samples(arr, tt, p, step, look, check=20):
    """SAMPLES determinizations of arr[0] for seat p (a fixed stream each); look(st) -> what to count."""
    base = arr.copy()[0]
    work = arr.copy()
    st = work[0]
    seen = []
    for i in range(SAMPLES):
        for field in REDRAWN:
            st[field] = base[field]
        seed_stream(st.s_gen, 2024, i, 7)
        policies.determinize(st, tt, p)
        if i < check:
            assert_consistent(base, st, p, step)
        seen.append(look(st))
    return base, seen


def assert_uniform(seen, values):
    """Every value that can be there comes out about equally often, and no other value does."""
    got = Counter(seen)
    assert set(got) <= set(values), f"{set(got) - set(values)} cannot be there"
    for value in values:
        assert abs(got[value] / len(seen) - 1 / len(values)) < TOLERANCE, (value, got[value] / len(seen))


def assert_every_hidden_card_uniform(arr, tt, p, step):
    """Each unseen card of the others (each hidden place) and each position of every deck still
    to be drawn: every kind of its deck p has not seen, about equally often."""
    st = arr[0]
    n = int(st.players)
    hidden = [x for x in places(st, p, step) if x[4] == "hidden"]
    future = [(d, pos) for d in range(n) for pos in range(int(st.deck_pos[d]), N_KINDS)]

    def look(s):
        return [card(s, x) for x in hidden] + [int(s.deck[d, pos]) for d, pos in future]

    base, seen = samples(arr, tt, p, step, look)
    origins = [x[3] for x in hidden] + [d for d, _ in future]
    for k, d in enumerate(origins):
        assert_uniform([s[k] for s in seen], sorted(unseen(base, p, d)))
    return base, hidden, seen


# ---------------------------------------------------------------- what a seat has seen

def test_what_a_seat_has_seen_follows_the_draft_and_the_cards_played():
    """ND-17.2: p sees its 3 draws, the 2 cards passed to it and the 1 it is given; a card played
    is seen by all, with its deck (its colour, ND-0.2). Hands hold cards of the seat's own deck,
    its right neighbour's and the one two seats to the right (ND-5.2 step 3)."""
    arr, tt, p = at_decision(8, 1, [1, 0, 1, 0], rounds_done=3, step=3, turns=0)
    st = arr[0]
    n = 4

    def bits(kinds):
        return sum(1 << int(k) for k in set(kinds))

    for q in range(n):
        r1, r2 = (q - 1) % n, (q - 2) % n
        assert st.hand_from[q, :3].tolist() == [q, r1, r2]
        assert st.hand[q, 0] == st.kept[q, 0] and st.hand[q, 1] == st.kept[q, 1] and st.hand[q, 2] == st.kept[r1, 2]
        assert int(st.seen[q, q]) == bits(st.deck[q, :3])                                   # a new stage: round 4
        assert int(st.seen[q, r1]) == bits(st.passing[r1])
        assert int(st.seen[q, r2]) == bits([st.hand[q, 2]])
        assert int(st.seen[q, (q + 1) % n]) == 0
        assert st.deck_pos[q] == 3 and st.draft_at[q] == 5
    before = st.seen.copy()
    q = int(st.start)
    hand = st.hand[q].tolist()
    kind, d = hand[0], int(st.hand_from[q, 0])
    st.script[0], st.n_script, st.script_pos = kind, 1, 0
    playout.play_turn(st, tt, q)                     # the first card of that kind leaves the hand
    assert st.hand_n[q] == 2 and st.hand[q, :2].tolist() == [hand[2], hand[1]]
    assert st.hand_from[q, :2].tolist() == [(q - 2) % n, (q - 1) % n]
    for s in range(n):
        assert int(st.seen[s, d]) == int(before[s, d]) | (1 << kind)


@pytest.mark.parametrize("n, seat", [(3, 2), (2, 1), (5, 3)])
def test_in_step_1_the_earlier_seats_cards_and_every_deck_order_are_redrawn(n, seat):
    """ND-5.2 step 1 in seat order: the seats before p have drawn, kept and passed cards p has
    not seen (ND-5.4); the seats after p draw later. Each such card, and each deck's cards still to
    be drawn this stage, comes out of the kinds of its deck p has not seen."""
    arr, tt, p = at_decision(3, 2, [1, 0, 1, 0, 1][:n], rounds_done=1, step=1, seat=seat)
    base, hidden, seen = assert_every_hidden_card_uniform(arr, tt, p, 1)
    assert len(hidden) == 3 * seat
    assert base.deck_pos[:n].tolist() == [6] * (seat + 1) + [3] * (n - seat - 1)      # round 2 of the stage


@pytest.mark.parametrize("n, seat", [(3, 1), (3, 0), (4, 2), (2, 0)])
def test_in_step_2_p_knows_the_pair_it_chooses_from_and_nothing_else_of_the_others(n, seat):
    """ND-5.2 step 2: p sees the 2 cards from its right neighbour, not what the others kept in
    step 1 nor the pairs the others choose from (ND-5.4)."""
    arr, tt, p = at_decision(5, 4, [0, 1, 1, 0][:n], rounds_done=4, step=2, seat=seat)
    base, hidden, seen = assert_every_hidden_card_uniform(arr, tt, p, 2)
    assert hidden


def test_in_step_2_the_cards_p_passed_are_known_but_not_who_kept_which():
    """2 players, seat 1 chooses in step 2: seat 0 has kept 1 of the 2 cards p passed and hands
    the other back (ND-5.3) — p will see which only when it comes back; until then either is
    equally likely. Seat 0's step-1 card is one of the kinds of its deck p has not seen."""
    arr, tt, p = at_decision(6, 0, [1, 1], rounds_done=2, step=2, seat=1)
    st = arr[0]
    assert sorted(st.kept[0, 1:3].tolist()) == sorted(st.passing[1].tolist())
    base, seen = samples(arr, tt, p, 2, lambda s: (int(s.kept[0, 1]), int(s.kept[0, 0])))
    assert_uniform([s[0] for s in seen], sorted(base.passing[1].tolist()))
    assert_uniform([s[1] for s in seen], sorted(unseen(base, p, 0)))


@pytest.mark.parametrize("turns", [0, 2, 5])
def test_after_the_draft_a_hand_is_redrawn_from_what_p_has_not_seen(turns):
    """Phase 3, 3 players: of p's left neighbour's hand p knows the card it handed it in step 2;
    one card of each of the two others' hands comes from p's own step-1 pair, the rest are unseen
    cards of their decks (ND-17.2); cards played are public with their deck (ND-17.1)."""
    arr, tt, p = at_decision(9, 3, [1, 0, 1], rounds_done=5, step=3, turns=turns)
    base, hidden, seen = assert_every_hidden_card_uniform(arr, tt, p, 3)
    passed = [x for x in places(base, p, 3) if x[4] == "passed"]
    if len(passed) == 2:                    # neither played yet: who kept which is open
        values = sorted(card(base, x) for x in passed)
        _, got = samples(arr, tt, p, 3, lambda s: card(s, passed[0]), check=0)
        assert_uniform(got, values)


def test_with_two_players_only_the_opponents_step_1_card_is_unknown():
    """2 players after the draft (ND-5.3): p chose 1 of the opponent's pair and returned the
    other, and got one of its own back, so of the opponent's hand only the card the opponent kept
    in step 1 is unknown — one of the kinds of the opponent's deck p has not seen."""
    arr, tt, p = at_decision(12, 5, [0, 1], rounds_done=7, step=3)     # before the first card: none played yet
    base, hidden, seen = assert_every_hidden_card_uniform(arr, tt, p, 3)
    q = 1 - p
    assert len(hidden) == 1 and hidden[0][3] == q
    assert len(unseen(base, p, q)) >= 1


@pytest.mark.parametrize("rounds_done", [3, 4])
def test_at_a_round_boundary_only_deck_orders_and_persons_are_redrawn(rounds_done):
    """Between rounds nobody holds a card: every deck's undrawn cards (a whole new deck after a
    stage end, ND-13.3) and the persons not shown (ND-4) are redrawn, nothing else."""
    arr, tt, p = at_decision(2, 7, [1, 1, 0], rounds_done=rounds_done, step=0, seat=1)
    base, hidden, seen = assert_every_hidden_card_uniform(arr, tt, p, 0)
    assert not hidden
    st = arr[0]
    shown = int(st.brown_shown)
    assert shown == (0 if rounds_done == 3 else 2)
    base, seen = samples(arr, tt, p, 0, lambda s: int(s.brown[5]), check=0)
    assert_uniform(seen, sorted(base.brown[shown:].tolist()))


def test_every_kind_of_position_gives_consistent_samples():
    """Many positions — 2 to 5 players, every stage, both draft steps at every seat, Phase 3 up
    to the bribes (ND-9: after the 2 laps) — and a few samples each: never a contradiction of
    what p knows, and determinize finds the places and the kinds of every deck to match
    (st.violation 10 otherwise)."""
    rng = np.random.default_rng(17)
    for k in range(48):
        n = 2 + k % 4
        step = k % 3 + 1
        seat = int(rng.integers(n))
        turns = int(rng.integers(2 * n + 1))
        seats = rng.integers(0, 2, n).tolist()
        arr, tt, p = at_decision(40 + k, k, seats, int(rng.integers(1, 9)), step, seat=seat, turns=turns)
        arr[0].checking = 1
        base = arr.copy()[0]
        work = arr.copy()
        st = work[0]
        for i in range(5):
            for field in REDRAWN:
                st[field] = base[field]
            seed_stream(st.s_gen, 7, 100 * k + i, 7)
            policies.determinize(st, tt, p)
            assert st.violation == 0, (k, n, step, seat, turns)
            assert_consistent(base, st, p, step)


# ---------------------------------------------------------------- searched games

POLICIES = ["mcts:iters=30", "greedy", "flatmc:playouts=2,rollout=greedy"]


def test_searched_games_do_not_depend_on_workers_or_chunks_and_replay_gives_them():
    def frame(workers, chunk_size):
        plan = runner.plan(GAME, players=3, games=3, seed=3, policies=POLICIES, workers=workers,
                           chunk_size=chunk_size)
        return runner.run(plan, keep_rows=True).frame

    one = frame(1, 3)
    pd.testing.assert_frame_equal(frame(1, 3), one)
    pd.testing.assert_frame_equal(frame(2, 1), one)
    two = simcore.simulate(GAME, players=2, games=2, seed=3, policies=["mcts:iters=30", "greedy"], workers=1)
    pd.testing.assert_frame_equal(
        simcore.simulate(GAME, players=2, games=2, seed=3, policies=["mcts:iters=30", "greedy"], workers=2), two)
    for index in (0, 2):
        lines = simcore.replay(GAME, players=3, seed=3, index=index, policies=POLICIES)
        rows = one[one.game_index == index].sort_values("seat")
        assert [int(line.split(":", 1)[1].split(" VP = ")[0]) for line in lines[-3:]] == rows["score"].tolist()


@pytest.mark.parametrize("n, names", [(2, ["mcts:iters=20", "random"]),
                                      (4, ["greedy", "flatmc:playouts=1", "random", "mcts:iters=10,rollout=greedy"])])
def test_a_searched_game_is_a_legal_game(n, names):
    """The invariant checker (playout.check, TC-99; 9: every deck's stage draws are its 9 kinds)
    stays silent in searched games; scores are the sums of their categories."""
    lineup = players.lineup(registry.get(GAME), names)
    tt = notre_dame.ENGINE.tables(DATA, n, lineup.table)[0]
    row = np.zeros(MAX_PLAYERS, np.int8)
    row[:n] = lineup.ids(names)
    for index in range(2):
        st = new_state()[0]
        st.checking = 1
        playout.play_game(st, tt, n, row, np.int64(11), np.int64(index))
        assert st.violation == 0, f"game {index}: invariant {st.violation} broken in round {st.violation_round}"
        assert st.s_searches > 0 and st.round_no == 9 and not st.halted
        assert st.vp[:n].tolist() == st.pts[:n].sum(axis=1).tolist()
