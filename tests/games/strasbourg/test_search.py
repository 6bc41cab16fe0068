"""Search players in Strasbourg (simcore/search.py): what `determinize` redraws for a seat is its
information set (SB-16), searched games are exact replays and do not depend on workers or
chunks, and they are legal games (the invariant checker stays silent)."""
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from replay_tool import final_scores

import simcore
from simcore import players, registry, runner
from simcore.rng import seed_stream
from simcore.boardgames.strasbourg import components, playout, policies, spec as strasbourg
from simcore.boardgames.strasbourg.rules import box_bundle, discard_unused, draw_card, reveal
from simcore.boardgames.strasbourg.state import (
    DECK_SLOTS, KEY_BASE, MAX_DECK, MAX_PLAYERS, N_TASK_CARDS, STATE, new_state, new_tables)
from tests.games.strasbourg.builder import bundles, deck, position

GAME = "strasbourg"
ROOT = Path(__file__).resolve().parents[3]
REDRAWN = ("deck", "hand", "bundle_sum", "bundle_key", "dealt", "tasks", "s_gen")   # all determinize may write
SAMPLES = 2000
TOLERANCE = 0.04                     # |frequency - expected|: about 4.5 standard deviations at 2000 samples
DATA = components.load(None)


# ---------------------------------------------------------------- positions in the middle of a round

def mid_round(seed, index, seats, rounds_done, subphases):
    """The game (seed, index) after `rounds_done` rounds, then the next round's planning (SB-5)
    and `subphases` bidding sub-phases played by the seats' policies; in the next sub-phase the
    start player has revealed its first bundle (SB-7.2). Returns (state array, tables record)."""
    n = len(seats)
    played = strasbourg.play_logged(DATA, n, np.array(seats, np.int8), seed, index, halt_at=rounds_done)
    arr = new_state()
    arr[0] = played
    st = arr[0]
    tt = new_tables(DATA, n)[0]
    st.halt_at = st.halted = st.logging = 0
    st.round_no = rounds_done + 1
    for i in range(n):
        playout.plan(st, tt, (st.sp + i) % n)
    for s in range(subphases):
        st.subphase = s
        playout.bidding_subphase(st, tt)
    st.subphase = subphases
    st.bid[:] = -1
    st.bid_bundle[:] = -1
    opened = [b for b in range(st.n_bundles[st.sp]) if st.bundle_open[st.sp, b]]
    if opened:
        reveal(st, st.sp, opened[0])
    return arr, tt


def live_slots(st, q):
    return [(st.deck_top[q] + k) % DECK_SLOTS for k in range(st.deck_n[q])]


def unseen_of(st, q):
    """What everyone knows of q's cards (SB-16.3.4): the values nobody has seen, by value (index
    1..6; the returned cards in the deck are seen), and those q's unrevealed bundles must hold
    (returned cards q drew again this round and has not revealed)."""
    unseen = np.array([0] + [4] * 6) - st.shown[q]
    for slot in live_slots(st, q):
        if st.deck_known[q, slot]:
            unseen[st.deck[q, slot]] -= 1
    revealed = Counter(int(st.hand[q, i]) for i in range(st.hand_n[q]) if not st.bundle_open[q, st.hand_bundle[q, i]])
    must = np.array([0] + [max(0, int(st.drawn_known[q, v]) - revealed[v]) for v in range(1, 7)])
    return unseen, must


def counts(values):
    c = np.zeros(7, np.int64)
    for v in values:
        c[v] += 1
    return c


def open_cards(st, q):
    return [int(st.hand[q, i]) for i in range(st.hand_n[q]) if st.bundle_open[q, st.hand_bundle[q, i]]]


def hidden_deck(st, q):
    return [int(st.deck[q, s]) for s in live_slots(st, q) if not st.deck_known[q, s]]


def assert_consistent(base, st, p):
    """A determinized state never contradicts what p knows (SB-16.4)."""
    n = int(base.players)
    for field in STATE.names:
        if field not in REDRAWN and not field.startswith("t_"):
            assert np.array_equal(base[field], st[field]), f"{field} changed"
    for field in ("hand", "bundle_sum", "bundle_key", "tasks", "dealt"):            # p's own
        assert np.array_equal(base[field][p], st[field][p]), f"p's {field} changed"
    assert sorted(hidden_deck(base, p)) == sorted(hidden_deck(st, p))              # p's deck multiset
    dealt = [int(c) for q in range(n) for c in st.dealt[q]]
    assert sorted(dealt) == sorted(set(dealt)) and all(0 <= c < N_TASK_CARDS for c in dealt)
    for q in range(n):
        for slot in live_slots(st, q):
            if base.deck_known[q, slot]:                                            # returned cards (SB-9.2)
                assert st.deck[q, slot] == base.deck[q, slot]
        for i in range(st.hand_n[q]):
            if not base.bundle_open[q, base.hand_bundle[q, i]]:                     # revealed bundles
                assert st.hand[q, i] == base.hand[q, i]
        for b in range(st.n_bundles[q]):
            cards = [int(st.hand[q, i]) for i in range(st.hand_n[q]) if st.hand_bundle[q, i] == b]
            assert st.bundle_sum[q, b] == sum(cards)
            assert st.bundle_key[q, b] == sum(KEY_BASE ** (v - 1) for v in cards)
        if q == p:
            continue
        unseen, must = unseen_of(base, q)
        placed = counts(hidden_deck(st, q)) + counts(open_cards(st, q))
        assert (placed <= unseen).all(), f"seat {q}: cards nobody has seen: {placed} > {unseen}"
        assert (counts(open_cards(st, q)) >= must).all(), f"seat {q}: a returned card left its bundles"
        kept = [int(c) for c in st.tasks[q] if c >= 0]
        assert (len(kept) > 0) == (base.tasks[q, 0] >= 0)                           # chosen already or not
        assert set(kept) <= {int(c) for c in st.dealt[q]}


def samples(arr, tt, p, look, check=20):
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
            assert_consistent(base, st, p)
        seen.append(look(st))
    return base, seen


def assert_frequencies(seen, expected):
    """Every value that can be there comes out about as often as a uniform draw over p's
    information set gives, and no other value does."""
    got = Counter(seen)
    total = sum(expected.values())
    for value in set(got) | set(expected):
        want = expected.get(value, 0) / total
        assert want > 0 or got[value] == 0, f"{value} cannot be there"
        assert abs(got[value] / len(seen) - want) < TOLERANCE, (value, got[value] / len(seen), want)


# ---------------------------------------------------------------- determinization

def test_the_cards_nobody_has_seen_are_redrawn_uniformly_and_the_rest_stays():
    """Round 3, sub-phase C, the start player has revealed: seat p's own deck order (unknown to
    p too, SB-3.3) and another seat's deck and unrevealed bundles (SB-16.3.2) come out of the
    cards of that colour nobody has seen (SB-16.3.4); bundle sizes and revealed cards stay (SB-5.4,
    SB-7.5)."""
    arr, tt = mid_round(5, 1, [0, 1, 0], rounds_done=2, subphases=2)
    st = arr[0]
    p = (st.sp + 1) % 3
    q = (st.sp + 2) % 3
    assert st.deck_n[p] > 0 and st.deck_n[q] > 0
    q_open = [i for i in range(st.hand_n[q]) if st.bundle_open[q, st.hand_bundle[q, i]]]
    assert q_open, "the position needs an unrevealed bundle of seat q"

    def look(s):
        return (int(s.deck[p, s.deck_top[p]]), int(s.deck[q, s.deck_top[q]]), int(s.hand[q, q_open[0]]),
                tuple(int(x) for x in s.bundle_sum[q, :s.n_bundles[q]]))

    base, seen = samples(arr, tt, p, look)
    unseen, must = unseen_of(base, q)
    assert must.sum() == 0
    own = Counter(hidden_deck(base, p))
    assert_frequencies([s[0] for s in seen], own)
    assert_frequencies([s[1] for s in seen], {v: int(unseen[v]) for v in range(1, 7)})
    assert_frequencies([s[2] for s in seen], {v: int(unseen[v]) for v in range(1, 7)})
    assert len({s[3] for s in seen}) > 10                   # the bundles' sums vary


def test_a_returned_card_drawn_again_stays_in_the_unrevealed_bundles():
    """Round 5 (greedy players draw their whole deck): a card returned under the deck (SB-9.2) is
    public, so once drawn again it is known to be in the hand (SB-16.3.1); unless a revealed
    bundle may hold it, one of the unrevealed bundles does."""
    for index in range(40):
        arr, tt = mid_round(4, index, [1, 1, 1], rounds_done=4, subphases=1)
        st = arr[0]
        p = (st.sp + 1) % 3
        for q in range(3):
            if q != p and unseen_of(st, q)[1].sum() > 0:
                break
        else:
            continue
        break
    else:
        pytest.fail("no position with a returned card drawn again in an unrevealed bundle")
    q_open = [i for i in range(st.hand_n[q]) if st.bundle_open[q, st.hand_bundle[q, i]]]
    base, seen = samples(arr, tt, p, lambda s: [int(s.hand[q, i]) for i in q_open])
    unseen, must = unseen_of(base, q)
    free = unseen - must
    slots = len(q_open)
    # a slot of an unrevealed bundle: a card that must be there, or one of the free cards
    expected = {v: must[v] + (slots - must.sum()) * free[v] / free.sum() for v in range(1, 7)}
    assert_frequencies([hand[0] for hand in seen], expected)
    for hand in seen:
        assert (counts(hand) >= must).all()


def test_what_everyone_knows_of_a_players_cards_follows_the_game():
    """Revealed cards are public (SB-7.5), so is a returned card's value and place under the deck
    (SB-9.2); drawn again, it is known to be in the hand, and the search keeps it there while its
    bundle is not revealed."""
    st, tt = position(players=3, seed=4, round=5)
    q = 1
    deck(st, q, [6, 1, 2, 3] + [1, 2, 3] * 3 + [4] * 4 + [5] * 4 + [6] * 3)
    for _ in range(3):
        draw_card(st, q)
    bundles(st, q, [[6, 1], [2]])
    reveal(st, q, 0)
    assert st.shown[q].tolist() == [0, 1, 0, 0, 0, 0, 1]
    box_bundle(st, q, 0, 6)                                  # not entitled: the 6 goes back (SB-9.2)
    discard_unused(st, q)                                    # the 2 leaves face down (AMB-15)
    bottom = (st.deck_top[q] + st.deck_n[q] - 1) % DECK_SLOTS
    assert st.deck[q, bottom] == 6 and st.deck_known[q].tolist() == [int(i == bottom) for i in range(DECK_SLOTS)]
    assert st.shown[q].tolist() == [0, 1, 0, 0, 0, 0, 0] and st.deck_n[q] == 22 and st.boxed[q] == 2
    for _ in range(22):                                      # the whole deck: the 6 comes last
        draw_card(st, q)
    assert st.drawn_known[q].tolist() == [0, 0, 0, 0, 0, 0, 1] and st.deck_known[q].sum() == 0
    bundles(st, q, [[int(v)] for v in st.hand[q, :22]])
    arr = new_state()
    arr[0] = st
    base, seen = samples(arr, tt, 0, lambda s: sorted(open_cards(s, q)))
    unseen, must = unseen_of(base, q)
    assert unseen.tolist() == [0, 3, 4, 4, 4, 4, 4] and must.tolist() == [0, 0, 0, 0, 0, 0, 1]
    assert all(counts(hand)[6] >= 1 for hand in seen)
    # 22 of the 23 cards nobody has seen, one of them the 6; the other lies face down in the box
    assert_frequencies([tuple(unseen - counts(hand)) for hand in seen],
                       {tuple(int(i == v) for i in range(7)): unseen[v] - (v == 6) for v in range(1, 7)})


def test_the_others_task_cards_are_dealt_again_from_those_p_has_not_seen():
    """SB-3.6: p knows its own 5 dealt cards; the others' come from the other 20, and which and
    how many of them each kept is secret (SB-16.3.3): a uniform non-empty subset."""
    arr, tt = mid_round(5, 2, [1, 0, 1], rounds_done=1, subphases=0)
    p = 0
    base, seen = samples(arr, tt, p, lambda s: (int(s.dealt[1, 0]), int(s.dealt[2, 4]),
                                                sum(int(c) >= 0 for c in s.tasks[1])))
    mine = {int(c) for c in base.dealt[p]}
    others = {c: 1 for c in range(N_TASK_CARDS) if c not in mine}
    assert_frequencies([s[0] for s in seen], others)
    assert_frequencies([s[1] for s in seen], others)
    assert_frequencies([s[2] for s in seen], {1: 5, 2: 10, 3: 10, 4: 5, 5: 1})     # C(5, k) of the 31 subsets


def test_a_seat_still_to_choose_its_tasks_keeps_none_and_gets_a_new_deal():
    """Searching seat 1's D-1 (the players choose one after another, unseen, SB-3.6): seat 0 has
    kept some cards, seat 2 not yet."""
    st, tt = position(players=3, seed=9)
    st.tasks[0, :2] = st.dealt[0, 1:3]
    arr = new_state()
    arr[0] = st
    _, seen = samples(arr, tt, 1, lambda s: (int(s.tasks[0, 0]) >= 0, int(s.tasks[2, 0]), int(s.dealt[2, 0])),
                      check=200)
    assert all(s[0] and s[1] == -1 for s in seen)
    assert len({s[2] for s in seen}) == 20


def test_a_search_seat_bundles_as_greedy_does():
    """plan_bundles (D-3) is no decision the search makes: a search seat (policy 2..) forms its
    bundles as greedy does (policies.py)."""
    st, tt = position(players=3, seed=2)
    for k, v in enumerate([6, 1, 4, 4, 2]):
        st.hand[0, k] = v
    st.hand_n[0] = 5
    got = {}
    for policy in (1, 2, 3):
        st.policy[0] = policy
        policies.plan_bundles(st, tt, 0)
        got[policy] = st.hand_bundle[0, :5].tolist()
    assert got[2] == got[3] == got[1] == [0, 2, 0, 0, 1]


# ---------------------------------------------------------------- searched games

POLICIES = ["mcts:iters=30", "greedy", "flatmc:playouts=2,rollout=greedy"]


def test_searched_games_do_not_depend_on_workers_or_chunks_and_replay_gives_them():
    def frame(workers, chunk_size):
        plan = runner.plan(GAME, players=3, games=4, seed=3, policies=POLICIES, workers=workers,
                           chunk_size=chunk_size)
        return runner.run(plan, keep_rows=True).frame

    one = frame(1, 4)
    pd.testing.assert_frame_equal(frame(1, 4), one)
    pd.testing.assert_frame_equal(frame(2, 1), one)
    pd.testing.assert_frame_equal(frame(2, 3), one)
    for index in (0, 3):
        lines = simcore.replay(GAME, players=3, seed=3, index=index, policies=POLICIES)
        rows = one[one.game_index == index].sort_values("seat")
        assert [vp for _, vp in final_scores(lines, 3)] == rows["score"].tolist()


@pytest.mark.parametrize("n, names", [(3, ["mcts:iters=20", "random", "greedy"]),
                                      (4, ["greedy", "flatmc:playouts=1", "random", "mcts:iters=10,rollout=greedy"])])
def test_a_searched_game_is_a_legal_game(n, names):
    lineup = players.lineup(registry.get(GAME), names)
    tt = strasbourg.ENGINE.tables(DATA, n, lineup.table)[0]
    row = np.zeros(MAX_PLAYERS, np.int8)
    row[:n] = lineup.ids(names)
    for index in range(2):
        st = new_state()[0]
        st.checking = 1
        playout.play_game(st, tt, n, row, np.int64(11), np.int64(index))
        assert st.violation == 0, f"game {index}: invariant {st.violation} broken in round {st.violation_round}"
        assert st.s_searches > 0 and st.round_no == 5 and not st.halted
        assert st.vp[:n].tolist() == st.pts[:n].sum(axis=1).tolist()
        assert (st.deck_n[:n] + st.boxed[:n] == MAX_DECK).all()


EXACT_REPLAY = """
import json, warnings
import numpy as np
from simcore import players, search
from simcore.boardgames.strasbourg import components, playout, state
warnings.simplefilter("ignore", RuntimeWarning)     # uint64 arithmetic of the RNG wraps on purpose


def snapshot(st):
    # the state but what a run has not written yet (left over from the run before) and the search's own
    out = {}
    for f in state.STATE.names:
        if not f.startswith(("s_", "t_")) and f not in ("opts", "n_opts", "halt_at", "halted", "queue", "ranked"):
            out[f] = np.array(st[f]).copy()
    for q in range(state.MAX_PLAYERS):
        live = {(st.deck_top[q] + k) %% state.DECK_SLOTS for k in range(st.deck_n[q])}
        out["deck"][q, [i for i in range(state.DECK_SLOTS) if i not in live]] = 0
        for f in ("hand", "hand_bundle"):
            out[f][q, st.hand_n[q]:] = 0
        for f in ("bundle_sum", "bundle_size", "bundle_key", "bundle_open"):
            out[f][q, st.n_bundles[q]:] = 0
    if st.round_no == 0 or (st.round_no == 1 and min(st.n_bundles[:st.players]) == 0):
        out["bid"][:] = out["bid_bundle"][:] = 0                # no sub-phase yet in this game
    out["game_count"][1] = 0
    return out


taken, at_root, counts = {}, {}, {"forced": 0, "roots": 0}
real = search.search_decision


def watched(st, p, dp):
    mode, k, known = int(st.s_mode), int(st.s_dec), int(st.s_n_hist)
    options = (int(p), int(dp), tuple(int(x) for x in st.opts[:st.n_opts]))
    i = real(st, p, dp)
    if mode in (search.PROBE, search.SEARCH) and k < known:
        assert taken[k] == options, ("a replayed decision met other options", k, taken[k], options)
        counts["forced"] += 1
    elif mode == search.PROBE:
        taken[k] = options
        if st.s_mode == search.STOPPED:
            at_root[k] = snapshot(st)
    if i == search.AT_ROOT:
        now = snapshot(st)
        assert all(np.array_equal(now[f], at_root[k][f]) for f in now), \\
            ("a search run reached another state at the root", [f for f in now if not np.array_equal(now[f], at_root[k][f])])
        counts["roots"] += 1
    return i


search.search_decision = watched         # what the game's decide calls, through search.search_choice
names = %(names)r
from simcore import registry
lineup = players.lineup(registry.get("strasbourg"), names)
tt = state.new_tables(components.load(None), len(names))
tt[0].search[:] = lineup.table
row = np.zeros(state.MAX_PLAYERS, np.int8)
row[:len(names)] = lineup.ids(names)
st = state.new_state()[0]
playout.play_game(st, tt[0], len(names), row, np.int64(%(seed)d), np.int64(0))
print(json.dumps(dict(counts, searches=int(st.s_searches), vp=st.vp[:len(names)].tolist())))
"""


def test_every_replay_is_exact():
    """In plain Python (NUMBA_DISABLE_JIT=1), with the search's replays watched: every forced
    decision meets the very options it was taken from, and every search run reaches the probe's
    state at its root (random bundles, D-3, draw from gen_decide outside any decision)."""
    script = EXACT_REPLAY % {"names": ["mcts:iters=1", "random", "greedy"], "seed": 5}
    env = dict(os.environ, NUMBA_DISABLE_JIT="1",
               PYTHONPATH=os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, "\n".join(proc.stderr.strip().splitlines()[-12:])
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["searches"] > 20 and result["roots"] == result["searches"] and result["forced"] > 1000
