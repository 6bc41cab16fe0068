"""Determinism of the Strasbourg games (docs/architecture.md, Correctness): the logged game and its replay
are the batch game, and the compiled kernels give exactly what the same code gives as plain
Python (NUMBA_DISABLE_JIT=1). Chunking and other games' policies: tests/test_game_contract.py;
workers and chunk sizes: tests/test_runner.py."""

import numpy as np
from pure_python import assert_compiled_matches_pure_python
from replay_tool import final_scores, mixed_policies

from simcore import registry
from simcore.boardgames.strasbourg import spec as strasbourg
from simcore.boardgames.strasbourg.state import CATEGORIES, ROUNDS
from simcore.results import ranks

GAME = "strasbourg"
SPEC = registry.get(GAME)


def batch(players, policies, seed, first):
    return SPEC.play_batch(SPEC.load_data(None), players, policies, seed, first)


def test_replay_and_logged_game_reproduce_the_batch_game():
    """The logged game (replay) is the batch game: same points, counters and final standing, the
    log never overflows, and the replay text is the same every time."""
    data = SPEC.load_data(None)
    seed, players = 31_337, 3
    policies = mixed_policies(6, players, seed)
    result = SPEC.play_batch(data, players, policies, seed, 0)
    rank = ranks(result.pts.sum(axis=2), result.tiebreak)
    city = CATEGORIES.index("city")
    for i in range(len(policies)):
        st = strasbourg.play_logged(data, players, policies[i], seed, i)
        assert int(st["n_events"]) < len(st["ev"]), f"game {i}: the move log is full"
        logged = {"pts": st["pts"][:players], "seat": st["seat_count"][:players], "game": st["game_count"]}
        for field, values in logged.items():
            assert values.tolist() == getattr(result, field)[i].tolist(), f"game {i}: {field}"
        lines = SPEC.replay(data, players, policies[i], seed, i)
        finals = final_scores(lines, players)
        assert [pts for pts, _ in finals] == result.pts[i].tolist(), f"game {i}: replay points"
        assert [vp for _, vp in finals] == result.pts[i].sum(axis=1).tolist()
        # ranked by VP, then family members in the city (SB-12.3): 1 VP each, so the city points
        key = np.array([[vp * 1_000 + pts[city] for pts, vp in finals]])
        assert ranks(key)[0].tolist() == rank[i].tolist(), f"game {i}: ranking"
        assert sum(line.startswith("round ") for line in lines) == ROUNDS
    first = SPEC.replay(data, players, policies[0], seed, 0)
    assert SPEC.replay(data, players, policies[0], seed, 0) == first
    assert first[0].startswith(f"Strasbourg, {players} players, seed {seed}, game 0")


PURE_PYTHON_SEED = 8_086
PURE_PYTHON_POLICIES = {3: [[0, 0, 0], [1, 1, 1], [0, 1, 0]], 5: [[0, 0, 0, 0, 0], [1, 1, 1, 1, 1], [1, 0, 1, 0, 1]]}
def test_compiled_and_pure_python_games_are_identical():
    """docs/architecture.md, Correctness: a handful of games give identical results with NUMBA_DISABLE_JIT=1."""
    assert_compiled_matches_pure_python(GAME, PURE_PYTHON_POLICIES, PURE_PYTHON_SEED)
