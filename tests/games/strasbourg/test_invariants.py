"""Invariants of random Strasbourg games (issue 4, Tests): 5,000 seeded games for each of 3-5
players, random and greedy seats mixed, and 500 more per player count under each non-default rule
switch. With st.checking on, playout.check runs after every bidding sub-phase, the council phase
and the final scoring and records the first broken invariant in st.violation (1 a player's 24
cards not in exactly one of deck / bundles / box, 2 coins below 0, 3 a council seat or city space
with a bad owner, 4 VP != the sum of the categories, 5 goods or privileges below 0); the end of
every game is checked here as well. A few robust statistics close the file: every category
scores, failed tasks only cost, greedy beats random."""
import numpy as np
import pytest

from simcore import registry
from simcore.boardgames.strasbourg import playout
from simcore.boardgames.strasbourg.state import (
    CAT_CITY, CAT_TASKS_MINUS, CATEGORIES, CHURCH, DECK_SLOTS, MAX_DECK, MAX_PLAYERS, N_BUILDINGS, NOBILITY, ROUNDS,
    SC_CITY, SC_TASKS_KEPT, SC_TASKS_MET, SEAT_COLUMNS, new_state, new_tables)
from simcore.results import ranks
from tests.games.strasbourg.builder import data_with

CARD_COPIES = 4                 # influence cards 1..6, four of each per player (SB-1.5)
FAILED_TASK = -3                # SB-12.1(e)
SPEC = registry.get("strasbourg")


def mixed_policies(count, seed):
    """Seat policies per game, random (0) and greedy (1) mixed, padded to MAX_PLAYERS seats."""
    return np.random.default_rng(seed).integers(0, 2, size=(count, MAX_PLAYERS)).astype(np.int8)


def deck_cards(st, p):
    """The values of the cards in p's deck (a ring of DECK_SLOTS slots from deck_top)."""
    return st.deck[p, (st.deck_top[p] + np.arange(st.deck_n[p])) % DECK_SLOTS]


def end_of_game_problems(st, tt, players, fm_limit=None):
    """What is wrong with a finished game's state record (empty: nothing)."""
    p = slice(0, players)
    problems = []
    cards = (st.deck_n[p] + st.boxed[p]).tolist()
    if cards != [MAX_DECK] * players or (st.n_bundles[p] != 0).any():
        problems.append(f"deck + box {cards}, bundles left {st.n_bundles[p].tolist()} (24 each, no bundle open)")
    for q in range(players):
        values = np.bincount(deck_cards(st, q), minlength=7)
        if st.deck_n[q] < 0 or values[0] or (values > CARD_COPIES).any():
            problems.append(f"seat {q}: deck {deck_cards(st, q).tolist()} is no part of 1..6 four each")
    if (st.coins[p] < 0).any() or (st.goods[p] < 0).any() or (st.privileges[p] < 0).any():
        problems.append(f"coins {st.coins[p].tolist()}, goods {st.goods[p].tolist()}, "
                        f"privileges {st.privileges[p].tolist()}")
    if not (st.vp[p] == st.pts[p].sum(axis=1)).all():
        problems.append(f"vp {st.vp[p].tolist()} != sums of categories {st.pts[p].sum(axis=1).tolist()}")
    owners = st.seat_owner
    if not ((owners >= -1) & (owners < players)).all() or owners[NOBILITY] < 0 or owners[CHURCH] < 0:
        problems.append(f"council seats {owners.tolist()} (nobility and church always held)")
    cells = st.cell_owner
    if not ((cells >= -1) & (cells < players)).all() or ((cells >= 0) & (tt.cell_guild < 0)).any():
        problems.append(f"family members on {np.flatnonzero(cells >= 0).tolist()}, owners in -1..{players - 1}, "
                        f"only on guild spaces")
    members = [int((cells == q).sum()) for q in range(players)]
    if st.seat_count[p, SC_CITY].tolist() != members or st.pts[p, CAT_CITY].tolist() != members:
        problems.append(f"city members {members}, counted {st.seat_count[p, SC_CITY].tolist()}")
    if fm_limit is not None:
        used = [members[q] + int((owners == q).sum()) for q in range(players)]
        if max(used) > fm_limit:
            problems.append(f"family members in city + council {used} above FM_LIMIT {fm_limit}")
    built = st.site_building[st.site_building >= 0]
    if sorted(built.tolist()) != list(range(N_BUILDINGS)) or not tt.is_site[st.site_building >= 0].all():
        problems.append(f"buildings {st.site_building.tolist()}: each of the 5 once, on sites only")
    if int(st.chapel.sum()) != ROUNDS or st.chapel[tt.n_spots:].any():
        problems.append(f"{int(st.chapel.sum())} chapels, one per round")
    for q in range(players):
        kept = [t for t in st.tasks[q].tolist() if t >= 0]
        if not 1 <= len(kept) <= 5 or not set(kept) <= set(st.dealt[q].tolist()) or len(set(kept)) != len(kept):
            problems.append(f"seat {q} keeps tasks {kept} of {st.dealt[q].tolist()}")
    dealt = st.dealt[p].ravel().tolist()
    if len(set(dealt)) != 5 * players or min(dealt) < 0:
        problems.append(f"tasks dealt {dealt}: 5 different cards each")
    return problems


def play_checked(data, players, count, seed, fm_limit=None):
    """Plays games 0..count-1 of seed with the invariant checker on; fails on the first bad one."""
    tt = new_tables(data, players)[0]
    st = new_state()[0]
    st.checking = 1
    policies = mixed_policies(count, seed)
    for i in range(count):
        playout.play_game(st, tt, players, policies[i], np.int64(seed), np.int64(i))
        where = f"{players} players, seed {seed}, game {i}, policies {policies[i, :players].tolist()}"
        assert st.violation == 0, f"{where}: invariant {int(st.violation)} broken (codes: playout.check)"
        problems = end_of_game_problems(st, tt, players, fm_limit)
        assert not problems, f"{where}: " + "; ".join(problems)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_invariants_hold_over_five_thousand_games(players):
    play_checked(data_with(), players, 5_000, seed=2_024 + players)


SWITCHES = [
    {"MASTER_PARTS_OPTIONAL": True},
    {"ALLOW_DOMINATED_RETURN": True},
    {"ALLOW_DOMINATED_PRIVILEGE": True},
    {"FM_LIMIT": 15},
    {"FM_LIMIT": 3},
]


@pytest.mark.parametrize("switches", SWITCHES, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_invariants_hold_under_other_rule_switches(switches):
    data = data_with(**switches)
    for players in (3, 4, 5):
        play_checked(data, players, 500, seed=77 + players, fm_limit=switches.get("FM_LIMIT"))


@pytest.mark.parametrize("switches", [s for s in SWITCHES if s != {"FM_LIMIT": 15}],
                         ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_the_rule_switches_change_games(switches):
    """The games above really ran under the switch: the same seeds give other games (FM_LIMIT 15
    is left out: seldom anyone places 15 family members)."""
    seats = mixed_policies(200, 3)[:, :4]
    default = SPEC.play_batch(data_with(), 4, seats, 3, 0)
    switched = SPEC.play_batch(data_with(**switches), 4, seats, 3, 0)
    assert not np.array_equal(default.pts, switched.pts)


def test_the_checker_notices_a_broken_invariant():
    """The checks above can fail: a finished game with one thing spoilt is reported."""
    data = data_with()
    tt = new_tables(data, 4)[0]
    record = new_state()
    st = record[0]                                      # a view: restoring record restores st
    st.checking = 1
    playout.play_game(st, tt, 4, mixed_policies(1, 5)[0], np.int64(5), np.int64(0))
    assert st.violation == 0 and end_of_game_problems(st, tt, 4) == []
    finished = record.copy()
    for field, index, value, code, problem in [
        ("deck_n", 1, int(st.deck_n[1]) - 1, 1, "deck + box"),
        ("coins", 2, -1, 2, "coins"),
        ("seat_owner", CHURCH, 4, 3, "council seats"),
        ("vp", 0, int(st.vp[0]) + 1, 4, "vp"),
    ]:
        record[:] = finished
        st[field][index] = value
        playout.check(st, tt)
        assert st.violation == code, field
        assert any(p.startswith(problem) for p in end_of_game_problems(st, tt, 4)), field


def random_batch(players, count, seed):
    return SPEC.play_batch(SPEC.load_data(None), players, np.zeros((count, players), np.int8), seed, 0)


@pytest.mark.parametrize("players", [3, 5])
def test_every_category_and_counter_is_used_with_the_right_sign(players):
    result = random_batch(players, 2_000, seed=31 + players)
    unused = [c for k, c in enumerate(CATEGORIES) if not result.pts[:, :, k].any()]
    assert unused == [], f"no seat ever scored in {unused}"
    silent = [c for k, c in enumerate(SEAT_COLUMNS) if not result.seat[:, :, k].any()]
    assert silent == [], f"per-seat counters always 0: {silent}"
    assert (result.pts[:, :, CAT_TASKS_MINUS] <= 0).all()
    assert (np.delete(result.pts, CAT_TASKS_MINUS, axis=2) >= 0).all()
    kept, met = result.seat[:, :, SC_TASKS_KEPT], result.seat[:, :, SC_TASKS_MET]
    assert ((1 <= kept) & (kept <= 5) & (0 <= met) & (met <= kept)).all()
    assert (result.pts[:, :, CAT_TASKS_MINUS] == FAILED_TASK * (kept - met)).all()
    assert (result.tiebreak == result.seat[:, :, SC_CITY]).all()            # SB-12.3: city members
    assert ((0 <= result.game) & (result.game < players)).all()             # start players
    assert len(np.unique(result.game[:, 0])) == players


def test_greedy_beats_two_random_players():
    seats = np.tile(np.eye(3, dtype=np.int8), (1_000, 1))                  # greedy in every seat in turn
    result = SPEC.play_batch(SPEC.load_data(None), 3, seats, 8, 0)
    rank = ranks(result.pts.sum(axis=2), result.tiebreak)
    greedy_wins = (rank[seats == 1] == 1).mean()
    assert greedy_wins > 0.7, f"greedy won {greedy_wins:.1%} of 3,000 games against two random players"
