"""Determinism of the Carcassonne games (DESIGN.md, Correctness; CA-17 INV-13): a game's result
depends only on (seed, game index, seat policies, data), whatever the chunking, the worker
count or the logging, and the compiled kernels give exactly what the same code gives as plain
Python (NUMBA_DISABLE_JIT=1)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simcore import registry
from simcore.games.carcassonne import spec as carcassonne

ROOT = Path(__file__).resolve().parents[3]
GAMES = ("carcassonne", "carcassonne-ark")


def policies_for(count, players, salt):
    """Seat policies per game (0 random, 1 greedy), different from game to game."""
    return np.random.default_rng(salt).integers(0, 2, size=(count, players)).astype(np.int8)


def batch(game, players, policies, seed, first):
    spec = registry.get(game)
    return spec.play_batch(spec.load_data(None), players, policies, seed, first)


@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("game", GAMES)
def test_results_do_not_depend_on_chunking(game, players):
    seed = 90_210 + players
    policies = policies_for(100, players, seed)
    whole = batch(game, players, policies, seed, 0)
    assert whole.pts.shape == (100, players, 5 if game == "carcassonne-ark" else 4)
    assert whole.game.shape == (100, 2)
    halves = [batch(game, players, policies[:50], seed, 0), batch(game, players, policies[50:], seed, 50)]
    np.testing.assert_array_equal(np.concatenate([h.pts for h in halves]), whole.pts)
    np.testing.assert_array_equal(np.concatenate([h.game for h in halves]), whole.game)
    for i in sorted(np.random.default_rng(seed).choice(100, size=37, replace=False)):
        one = batch(game, players, policies[i:i + 1], seed, i)
        np.testing.assert_array_equal(one.pts[0], whole.pts[i], err_msg=f"{game} seed {seed} game {i}")
        np.testing.assert_array_equal(one.game[0], whole.game[i], err_msg=f"{game} seed {seed} game {i}")
    # the seed matters, and so does the game index
    other = batch(game, players, policies, seed + 1, 0)
    assert not np.array_equal(other.pts, whole.pts)
    assert not np.array_equal(whole.pts[:50], whole.pts[50:])


@pytest.mark.parametrize("game", GAMES)
def test_a_game_does_not_depend_on_the_other_seats_policies_of_other_games(game):
    """Game i uses seat_policies[i] only: changing the policies of other games changes nothing."""
    seed, players = 4_711, 4
    policies = policies_for(20, players, seed)
    flipped = policies.copy()
    flipped[1::2] = 1 - flipped[1::2]
    a = batch(game, players, policies, seed, 0)
    b = batch(game, players, flipped, seed, 0)
    np.testing.assert_array_equal(a.pts[0::2], b.pts[0::2])
    np.testing.assert_array_equal(a.game[0::2], b.game[0::2])


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
        assert [int(st["turn"]), int(st["discarded"])] == result.game[i].tolist()
        assert int(st["n_moves"]) == int(st["turn"])
        events = int(st["n_events"])
        for s in range(players):
            assert int(st["ev_points"][:events][st["ev_seat"][:events] == s].sum()) == int(st["score"][s])
    first = spec.replay(data, players, policies[0], seed, 0)
    assert spec.replay(data, players, policies[0], seed, 0) == first
    assert first[0].startswith(f"{spec.name}, {players} players, seed {seed}, game 0")


PURE_PYTHON_GAMES = 3
PURE_PYTHON_SCRIPT = """
import json, sys
import numpy as np
from simcore import registry
out = {}
for game in %(games)r:
    spec = registry.get(game)
    policies = np.array(%(policies)r, dtype=np.int8)
    result = spec.play_batch(spec.load_data(None), %(players)d, policies, %(seed)d, 0)
    out[game] = {"pts": result.pts.tolist(), "game": result.game.tolist()}
print(json.dumps(out))
"""


def test_compiled_and_pure_python_games_are_identical():
    """DESIGN.md: a handful of games give identical results with NUMBA_DISABLE_JIT=1."""
    players, seed = 2, 8_086
    policies = [[0, 0], [0, 1], [1, 0]][:PURE_PYTHON_GAMES]
    script = PURE_PYTHON_SCRIPT % {"games": GAMES, "policies": policies, "players": players, "seed": seed}
    env = dict(os.environ, NUMBA_DISABLE_JIT="1",
               PYTHONPATH=os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    if proc.returncode != 0:
        pytest.fail(f"the pure-Python run (NUMBA_DISABLE_JIT=1) of {PURE_PYTHON_GAMES} games per rule set "
                    f"failed:\n" + "\n".join(proc.stderr.strip().splitlines()[-12:]), pytrace=False)
    pure = json.loads(proc.stdout.strip().splitlines()[-1])
    stale = ("; if the engine changed recently, suspect a stale numba cache first (cache=True does not "
             "notice changes in other modules: delete simcore/**/__pycache__ and run again)")
    for game in GAMES:
        compiled = batch(game, players, np.array(policies, np.int8), seed, 0)
        assert pure[game]["pts"] == compiled.pts.tolist(), f"{game}: points differ, compiled vs pure Python{stale}"
        assert pure[game]["game"] == compiled.game.tolist(), f"{game}: turns/discards differ{stale}"
