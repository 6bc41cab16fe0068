"""Determinism of the Notre Dame games (docs/architecture.md, Correctness): the logged game and its replay
are the batch game, and the compiled kernels give exactly what the same code gives as plain
Python (NUMBA_DISABLE_JIT=1). Chunking and other games' policies: tests/test_game_contract.py;
workers and chunk sizes: tests/test_runner.py."""

import numpy as np
from pure_python import assert_compiled_matches_pure_python
from replay_tool import mixed_policies

from simcore import registry
from simcore.boardgames.notre_dame import spec as notre_dame
from simcore.results import ranks

GAME = "notre-dame"
SPEC = registry.get(GAME)


def batch(players, policies, seed, first):
    return SPEC.play_batch(SPEC.load_data(None), players, policies, seed, first)


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
    policies = mixed_policies(6, players, seed)
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
    """docs/architecture.md, Correctness: a handful of games give identical results with NUMBA_DISABLE_JIT=1."""
    assert_compiled_matches_pure_python(GAME, PURE_PYTHON_POLICIES, PURE_PYTHON_SEED)
