"""Determinism of the Principato games (docs/architecture.md, Correctness; INV-14): the logged game and its
replay are the batch game, and the compiled kernels give exactly what the same code gives as plain
Python (NUMBA_DISABLE_JIT=1). Chunking and other games' policies: tests/test_game_contract.py;
workers and chunk sizes: tests/test_runner.py."""

import numpy as np
import pytest
from pure_python import assert_compiled_matches_pure_python
from replay_tool import final_scores, mixed_policies

from simcore import registry
from simcore.boardgames.principato import spec as principato
from simcore.boardgames.principato.state import CATEGORIES, YEARS
from simcore.results import ranks

GAME = "principato"
SPEC = registry.get(GAME)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_logged_game_is_the_batch_game(players):
    """A game played alone in a fresh state record (the replay's logged game) is the game the
    batch kernel played after others in a reused one: nothing of a game leaks into the next
    (docs/architecture.md, Determinism and random streams: game i depends on (seed, i) and its own seat policies alone)."""
    data = SPEC.load_data(None)
    seed = 31_337 + players
    policies = mixed_policies(100, players, seed)
    result = SPEC.play_batch(data, players, policies, seed, 0)
    differ = []
    for i in range(len(policies)):
        st = principato.play_logged(data, players, policies[i], seed, i)
        if (st["pts"][:players].tolist() != result.pts[i].tolist()
                or st["seat_count"][:players].tolist() != result.seat[i].tolist()
                or st["game_count"].tolist() != result.game[i].tolist()):
            differ.append(i)
    assert differ == [], (f"{players} players, seed {seed}: games {differ} (policies "
                          f"{[policies[i].tolist() for i in differ[:3]]} ...) differ between the batch and "
                          f"a fresh state record")


@pytest.mark.parametrize("players", [2, 4])
def test_replay_and_logged_game_reproduce_the_batch_game(players):
    """The logged game (replay) is the batch game: same points, counters and final standing, the
    log never overflows, and the replay text is the same every time."""
    data = SPEC.load_data(None)
    seed = 31_337 + players
    policies = mixed_policies(6, players, seed)
    policies[0] = 0                                                      # one all-random game
    result = SPEC.play_batch(data, players, policies, seed, 0)
    rank = ranks(result.pts.sum(axis=2), result.tiebreak)
    for i in range(len(policies)):
        st = principato.play_logged(data, players, policies[i], seed, i)
        assert int(st["n_events"]) < len(st["ev"]), f"game {i}: the move log is full"
        logged = {"pts": st["pts"][:players], "seat": st["seat_count"][:players], "game": st["game_count"]}
        for field, values in logged.items():
            assert values.tolist() == getattr(result, field)[i].tolist(), f"game {i}: {field}"
        lines = SPEC.replay(data, players, policies[i], seed, i)
        finals = final_scores(lines, players)
        assert [pts for pts, _ in finals] == result.pts[i].tolist(), f"game {i}: replay points"
        assert [vp for _, vp in finals] == result.pts[i].sum(axis=1).tolist()
        # ranked by VP, then by stored cubes (PR-15.3): the batch's tie-break is the logged game's
        key = np.array([[vp * 1_000 + int(tb) for (_, vp), tb in zip(finals, result.tiebreak[i])]])
        assert ranks(key)[0].tolist() == rank[i].tolist(), f"game {i}: ranking"
        assert [line.split(" (")[0] for line in lines if line.startswith("Year ")] == [
            f"Year {y}" for y in range(1, YEARS + 1)]
        assert sum(line.startswith("  Military scoring ") for line in lines) == 5       # INV-9
    first = SPEC.replay(data, players, policies[0], seed, 0)
    assert SPEC.replay(data, players, policies[0], seed, 0) == first
    assert first[0] == f"Principato, {players} players, seed {seed}, game 0, data principato-reconstructed-1"
    assert first[1] == "seats: " + ", ".join(f"{name}=random" for name in ("Red", "Blue", "Green", "Yellow")[:players])
    assert first[-players - 1] == "final score (" + ", ".join(CATEGORIES) + "; tie-break stored cubes)"


def test_the_same_seed_gives_the_same_games_and_another_seed_other_games():
    """INV-14: replaying a batch gives it again, bit for bit; a greedy seat sees the same chance
    (setup and decks) as a random one in its place (separate chance and decision streams)."""
    data = SPEC.load_data(None)
    policies = mixed_policies(40, 3, 9)
    a = SPEC.play_batch(data, 3, policies, 123, 0)
    b = SPEC.play_batch(data, 3, policies, 123, 0)
    for field in ("pts", "game", "seat", "tiebreak"):
        assert getattr(a, field).tolist() == getattr(b, field).tolist(), field
    assert not np.array_equal(SPEC.play_batch(data, 3, policies, 124, 0).pts, a.pts)
    random_only = SPEC.play_batch(data, 3, np.zeros_like(policies), 123, 0)
    seat_columns = list(SPEC.seat_columns)
    dealt = [seat_columns.index("turn_position"), seat_columns.index("goal_g1"), seat_columns.index("goal_g2")]
    assert a.seat[:, :, dealt].tolist() == random_only.seat[:, :, dealt].tolist()     # PR-3.5, PR-3.9
    assert a.game[:, 0].tolist() == random_only.game[:, 0].tolist()                     # start player


PURE_PYTHON_SEED = 8_086
PURE_PYTHON_POLICIES = {2: [[0, 0], [1, 1], [1, 0]], 4: [[0, 0, 0, 0], [1, 1, 1, 1], [0, 1, 0, 1]]}


def test_compiled_and_pure_python_games_are_identical():
    """docs/architecture.md, Correctness: a handful of games give identical results with NUMBA_DISABLE_JIT=1."""
    assert_compiled_matches_pure_python(GAME, PURE_PYTHON_POLICIES, PURE_PYTHON_SEED)
