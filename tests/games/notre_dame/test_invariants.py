"""Invariants of random Notre Dame games (docs/notre_dame.md §20 TC-99, ND-5.6): 5,000 seeded
games for each of 2-5 players, random and greedy seats mixed, and 500 more per player count
under each of several sets of other rule switches. With st.checking on, playout.check runs
after every turn, bribe, plague and stage end and records the first broken invariant in
st.violation (1 cubes, 2 gold, 3 rat marker, 4 VP below 0, 5 VP != sum of categories,
6 messages, 7 confidant, 8 hand size, 9 a stage's draws not the 9 kinds); the end of every game
is checked here as well. A few robust statistics close the file: the plague strikes, every
category scores, greedy beats random."""
import numpy as np
import pytest

from simcore import registry
from simcore.boardgames.notre_dame import playout
from simcore.boardgames.notre_dame.state import CATEGORIES, MAX_PLAYERS, SEAT_COLUMNS, new_state, new_tables
from simcore.results import ranks
from tests.games.notre_dame.builder import ALL_CUBES, ALL_GOLD, data_with

COLOURS_IN_PLAY = {2: 4, 3: 3, 4: 4, 5: 5}     # one message colour per district (ND-1.3, ND-2.2)
RAT_MAX = 9
SPEC = registry.get("notre-dame")


def mixed_policies(count, seed):
    """Seat policies per game, random (0) and greedy (1) mixed, padded to MAX_PLAYERS seats."""
    return np.random.default_rng(seed).integers(0, 2, size=(count, MAX_PLAYERS)).astype(np.int8)


def end_of_game_problems(st, players, vp_floor=True):
    """What is wrong with a finished game's state record (empty: nothing)."""
    p = slice(0, players)
    problems = []
    if not ((st.rat[p] >= 0) & (st.rat[p] <= RAT_MAX)).all():
        problems.append(f"rat markers {st.rat[p].tolist()}")
    if not (st.vp[p] == st.pts[p].sum(axis=1)).all():
        problems.append(f"vp {st.vp[p].tolist()} != sums of categories {st.pts[p].sum(axis=1).tolist()}")
    if vp_floor and (st.vp[p] < 0).any():
        problems.append(f"vp {st.vp[p].tolist()} below 0")
    if int(st.gold[p].sum()) + int(st.G) != ALL_GOLD:
        problems.append(f"gold {st.gold[p].tolist()} + supply {int(st.G)} != {ALL_GOLD}")
    cubes = (st.gsupply[p].astype(int) + st.personal[p] + st.cubes[p].sum(axis=1) + st.nd[p]).tolist()
    if cubes != [ALL_CUBES] * players:
        problems.append(f"cubes per colour {cubes}")
    if (st.nd[p] != 0).any():
        problems.append(f"Notre Dame not emptied by the last payout: {st.nd[p].tolist()}")
    colours = COLOURS_IN_PLAY[players]
    tiles = (st.on_board[:colours].astype(int) + st.held[p, :colours].sum(axis=0)).tolist()
    if int(st.n_colours) != colours or tiles != [4] * colours:
        problems.append(f"{int(st.n_colours)} colours; message tiles per colour {tiles}")
    return problems


def play_checked(data, players, count, seed, vp_floor=True):
    """Plays games 0..count-1 of seed with the invariant checker on; fails on the first bad one."""
    tt = new_tables(data, players)[0]
    st = new_state()[0]
    st.checking = 1
    policies = mixed_policies(count, seed)
    for i in range(count):
        playout.play_game(st, tt, players, policies[i], np.int64(seed), np.int64(i))
        where = f"{players} players, seed {seed}, game {i}, policies {policies[i, :players].tolist()}"
        assert st.violation == 0, f"{where}: invariant {int(st.violation)} broken in round {int(st.violation_round)}"
        problems = end_of_game_problems(st, players, vp_floor)
        assert not problems, f"{where}: " + "; ".join(problems)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_invariants_hold_over_five_thousand_games(players):
    play_checked(data_with(), players, 5_000, seed=2_024 + players)


@pytest.mark.parametrize("switches", [
    {"F_PLAGUE_MODE": "SEQUENTIAL", "F_BANK_STEAL": "PER_COIN", "F_BANK_TIE": "CHOOSER"},
    {"F_GOLD_STEAL_ALL_SOURCES": True, "F_VOLUNTARY_FORFEIT": True, "F_BANK_TIE": "CHOOSER"},
    {"F_CONFIDANT_MAY_STAY": False, "F_CARRIAGE_MAY_STAY": False, "F_ALLOW_USELESS_BRIBE": False},
    {"CONSTANT_RATS": True, "STREET_GRAPH": "inner_outer", "F_BANK_STEAL": "NONE"},
    {"F_PLAGUE_MODE": "NET_NO_BACK", "F_OUTBREAK_AT": 9, "F_OUTBREAK_RESET_TO": 5, "F_START_GOLD": 5},
    {"F_ND_SPLIT": "PER_PLAYER", "F_GUARD_COUNTS_ND": False, "F_VP_FLOOR0": False},
], ids=lambda switches: ",".join(switches))
def test_invariants_hold_under_other_rule_switches(switches):
    data = data_with(**switches)
    for players in (2, 3, 4, 5):
        play_checked(data, players, 500, seed=77 + players, vp_floor=switches.get("F_VP_FLOOR0", True))


def test_the_checker_notices_a_broken_invariant():
    """The checks above can fail: a finished game with one thing spoilt is reported."""
    data = data_with()
    tt = new_tables(data, 4)[0]
    st = new_state()[0]
    st.checking = 1
    playout.play_game(st, tt, 4, mixed_policies(1, 5)[0], np.int64(5), np.int64(0))
    assert st.violation == 0
    st.gold[1] += 1
    playout.check(st, tt)
    assert st.violation == 2
    assert any(p.startswith("gold") for p in end_of_game_problems(st, 4))


def random_batch(players, count, seed):
    return SPEC.play_batch(SPEC.load_data(None), players, np.zeros((count, players), np.int8), seed, 0)


def test_plague_strikes_and_every_category_and_counter_is_used():
    result = random_batch(4, 2_000, seed=31)
    outbreaks = result.seat[:, :, SEAT_COLUMNS.index("plague_outbreaks")]
    assert outbreaks.mean() > 0
    unused = [c for k, c in enumerate(CATEGORIES) if not result.pts[:, :, k].any()]
    assert unused == [], f"no seat ever scored in {unused}"
    silent = [c for k, c in enumerate(SEAT_COLUMNS) if not result.seat[:, :, k].any()]
    assert silent == [], f"per-seat counters always 0: {silent}"
    assert (result.pts[:, :, CATEGORIES.index("plague")] <= 0).all()
    assert (np.delete(result.pts, CATEGORIES.index("plague"), axis=2) >= 0).all()


def test_greedy_beats_random_in_two_player_games():
    seats = np.tile(np.array([[1, 0], [0, 1]], np.int8), (1_000, 1))       # seats rotated
    result = SPEC.play_batch(SPEC.load_data(None), 2, seats, 8, 0)
    rank = ranks(result.pts.sum(axis=2), result.tiebreak)
    greedy_wins = (rank[seats == 1] == 1).mean()
    assert greedy_wins > 0.85, f"greedy won {greedy_wins:.1%} of 2,000 games against random"
