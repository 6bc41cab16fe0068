"""Determinism of the Notre Dame games (DESIGN.md, Correctness): a game's result depends only on
(seed, game index, seat policies, data), whatever the chunking, the worker count or the logging,
and the compiled kernels give exactly what the same code gives as plain Python
(NUMBA_DISABLE_JIT=1). Every array of the batch result is compared: points, game counters,
per-seat counters and tie-breaks."""

import numpy as np
import pytest

from simcore import registry
from simcore.games.notre_dame import spec as notre_dame
from simcore.results import ranks
from pure_python import assert_compiled_matches_pure_python

GAME = "notre-dame"
SPEC = registry.get(GAME)
FIELDS = ("pts", "game", "seat", "tiebreak")


def policies_for(count, players, salt):
    """Seat policies per game (0 random, 1 greedy), different from game to game."""
    return np.random.default_rng(salt).integers(0, 2, size=(count, players)).astype(np.int8)


def batch(players, policies, seed, first):
    return SPEC.play_batch(SPEC.load_data(None), players, policies, seed, first)


def as_lists(result, rows=slice(None)):
    return {field: getattr(result, field)[rows].tolist() for field in FIELDS}


def concatenated(parts):
    return {field: np.concatenate([getattr(p, field) for p in parts]).tolist() for field in FIELDS}


@pytest.mark.parametrize("players", [3, 5])
def test_results_do_not_depend_on_chunking(players):
    seed = 90_210 + players
    policies = policies_for(100, players, seed)
    whole = batch(players, policies, seed, 0)
    assert whole.pts.shape == (100, players, 7)
    assert whole.seat.shape == (100, players, 5) and whole.game.shape == (100, 2)
    assert whole.tiebreak.shape == (100, players)
    halves = [batch(players, policies[:50], seed, 0), batch(players, policies[50:], seed, 50)]
    assert concatenated(halves) == as_lists(whole)
    for i in sorted(np.random.default_rng(seed).choice(100, size=37, replace=False)):
        one = batch(players, policies[i:i + 1], seed, i)
        assert as_lists(one) == as_lists(whole, slice(i, i + 1)), f"seed {seed} game {i}"
    # the seed matters, and so does the game index
    other = batch(players, policies, seed + 1, 0)
    assert not np.array_equal(other.pts, whole.pts)
    assert not np.array_equal(whole.pts[:50], whole.pts[50:])


def test_a_game_does_not_depend_on_the_seat_policies_of_other_games():
    """Game i uses seat_policies[i] only: changing the policies of other games changes nothing."""
    seed, players = 4_711, 4
    policies = policies_for(20, players, seed)
    flipped = policies.copy()
    flipped[1::2] = 1 - flipped[1::2]
    a = batch(players, policies, seed, 0)
    b = batch(players, flipped, seed, 0)
    assert as_lists(a, slice(0, None, 2)) == as_lists(b, slice(0, None, 2))
    assert not np.array_equal(a.pts[1::2], b.pts[1::2])


def final_scores(lines, players):
    """(points per category, VP, gold, personal supply) per seat from a replay's last lines."""
    seats = []
    for line in lines[-players:]:
        vp, rest = line.split(":", 1)[1].split(" VP = ")
        pts, tail = rest.split(";")
        gold, personal = (int(part.split()[-1]) for part in tail.split(","))
        seats.append(([int(x) for x in pts.split(" + ")], int(vp), gold, personal))
    return seats


def test_replay_and_logged_game_reproduce_the_batch_game():
    """The logged game (replay) is the batch game: same points, counters and final standing, the
    log never overflows, and the replay text is the same every time."""
    data = SPEC.load_data(None)
    seed, players = 31_337, 3
    policies = policies_for(6, players, seed)
    result = SPEC.play_batch(data, players, policies, seed, 0)
    rank = ranks(result.pts.sum(axis=2), result.tiebreak)
    for i in range(len(policies)):
        st = notre_dame.play_logged(data, players, policies[i], seed, i)
        assert int(st["n_events"]) < len(st["ev"]), f"game {i}: the move log is full"
        logged = {"pts": st["pts"][:players], "seat": st["seat_count"][:players], "game": st["game_count"]}
        for field, values in logged.items():
            assert values.tolist() == getattr(result, field)[i].tolist(), f"game {i}: {field}"
        lines = SPEC.replay(data, players, policies[i], seed, i)
        finals = final_scores(lines, players)
        assert [pts for pts, *_ in finals] == result.pts[i].tolist(), f"game {i}: replay points"
        assert [vp for _, vp, *_ in finals] == result.pts[i].sum(axis=1).tolist()
        # ranked by VP, then gold, then personal supply (ND-14.2): the batch's ranking
        key = np.array([[vp * 10_000 + gold * 100 + personal for _, vp, gold, personal in finals]])
        assert ranks(key)[0].tolist() == rank[i].tolist(), f"game {i}: ranking"
        assert sum(line.startswith("round ") for line in lines) == 9
    first = SPEC.replay(data, players, policies[0], seed, 0)
    assert SPEC.replay(data, players, policies[0], seed, 0) == first
    assert first[0].startswith(f"Notre Dame, {players} players, seed {seed}, game 0")


PURE_PYTHON_SEED = 8_086
PURE_PYTHON_POLICIES = {2: [[0, 0], [1, 1], [0, 1]], 4: [[0, 0, 0, 0], [1, 1, 1, 1], [0, 1, 0, 1]]}
def test_compiled_and_pure_python_games_are_identical():
    """DESIGN.md: a handful of games give identical results with NUMBA_DISABLE_JIT=1."""
    assert_compiled_matches_pure_python(GAME, PURE_PYTHON_POLICIES, PURE_PYTHON_SEED)
