"""Determinism of the Carcassonne games (docs/architecture.md, Correctness; CA-17 INV-13): the logged game
and its replay are the batch game, and the compiled kernels give exactly what the same code gives
as plain Python (NUMBA_DISABLE_JIT=1). Chunking and other games' policies: tests/test_game_contract.py;
workers and chunk sizes: tests/test_runner.py."""

import numpy as np
import pytest

from simcore import registry
from simcore.boardgames.carcassonne import spec as carcassonne
from simcore.boardgames.carcassonne.describe import read_log, score_events
from pure_python import assert_compiled_matches_pure_python

GAMES = ("carcassonne", "carcassonne-ark")


def policies_for(count, players, salt):
    """Seat policies per game (0 random, 1 greedy), different from game to game."""
    return np.random.default_rng(salt).integers(0, 2, size=(count, players)).astype(np.int8)


def batch(game, players, policies, seed, first):
    spec = registry.get(game)
    return spec.play_batch(spec.load_data(None), players, policies, seed, first)


@pytest.mark.parametrize("game", GAMES)
def test_replay_and_logged_game_reproduce_the_batch_game(game):
    """INV-13: the logged game (replay) is the batch game: same points, same turns and discards,
    every score event accounted for, and the replay text is the same every time."""
    spec = registry.get(game)
    data = spec.load_data(None)
    seed, players = 31_337, 3
    policies = policies_for(6, players, seed)
    result = spec.play_batch(data, players, policies, seed, 0)
    n_cat = result.pts.shape[2]
    for i in range(len(policies)):
        st = carcassonne.play_logged(data, players, policies[i], seed, i)
        np.testing.assert_array_equal(st["pts"][:players, :n_cat], result.pts[i], err_msg=f"game {i}")
        assert [int(st["round_no"]), int(st["discarded"])] == result.game[i].tolist()
        assert len(read_log(st).turns) == int(st["round_no"])
        for s in range(players):
            assert sum(score.points for score in score_events(st) if score.seat == s) == int(st["vp"][s])
    first = spec.replay(data, players, policies[0], seed, 0)
    assert spec.replay(data, players, policies[0], seed, 0) == first
    assert first[0].startswith(f"{spec.name}, {players} players, seed {seed}, game 0")


PURE_PYTHON_GAMES = 3
@pytest.mark.parametrize("game", GAMES)
def test_compiled_and_pure_python_games_are_identical(game):
    """docs/architecture.md, Correctness: a handful of games give identical results with NUMBA_DISABLE_JIT=1."""
    assert_compiled_matches_pure_python(game, {2: [[0, 0], [0, 1], [1, 0]][:PURE_PYTHON_GAMES]}, 8_086)
