"""Every registered game keeps the batch contract of simcore/registry.py (docs/architecture.md, Determinism):
game i's result depends only on (seed, i, its own seat policies, the data), whatever the chunks
it is played in, and the arrays have the game's declared shapes."""
import numpy as np
import pytest

from simcore import registry

GAMES = sorted(registry.games())


def policies_for(count, players, salt):
    """Seat policies per game (0 random, 1 greedy), different from game to game."""
    return np.random.default_rng(salt).integers(0, 2, size=(count, players)).astype(np.int8)


def batch(game, players, policies, seed, first):
    spec = registry.get(game)
    return spec.play_batch(spec.load_data(None), players, policies, seed, first)


def arrays(result, rows=slice(None)):
    """Every array of a BatchResult (seat counters and tie-break where the game has them)."""
    return {name: getattr(result, name)[rows].tolist() for name in ("pts", "game", "seat", "tiebreak")
            if getattr(result, name) is not None}


def concatenated(parts):
    return {name: sum((arrays(p)[name] for p in parts), []) for name in arrays(parts[0])}


@pytest.mark.parametrize("game", GAMES)
def test_results_have_the_declared_shapes_and_do_not_depend_on_chunking(game):
    spec = registry.get(game)
    for players in (spec.min_players, spec.max_players):
        seed = 90_210 + players
        policies = policies_for(60, players, seed)
        whole = batch(game, players, policies, seed, 0)
        assert whole.pts.shape == (60, players, len(spec.categories))
        assert whole.game.shape == (60, len(spec.game_columns))
        if spec.seat_columns:
            assert whole.seat.shape == (60, players, len(spec.seat_columns))
        halves = [batch(game, players, policies[:25], seed, 0), batch(game, players, policies[25:], seed, 25)]
        assert concatenated(halves) == arrays(whole)
        for i in (0, 17, 59):
            assert arrays(batch(game, players, policies[i:i + 1], seed, i)) == arrays(whole, slice(i, i + 1))
        # the seed matters, and so does the game index
        assert not np.array_equal(batch(game, players, policies, seed + 1, 0).pts, whole.pts)
        assert not np.array_equal(batch(game, players, policies, seed, 1).pts, whole.pts)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_uses_only_its_own_seat_policies(game):
    """Game i uses seat_policies[i] only: changing the policies of other games changes nothing."""
    seed, players = 4_711, 4
    policies = policies_for(20, players, seed)
    flipped = policies.copy()
    flipped[1::2] = 1 - flipped[1::2]
    a = batch(game, players, policies, seed, 0)
    b = batch(game, players, flipped, seed, 0)
    assert arrays(a, slice(0, None, 2)) == arrays(b, slice(0, None, 2))
    assert not np.array_equal(a.pts[1::2], b.pts[1::2])
