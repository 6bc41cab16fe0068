"""Checking the step API (simcore/step.py) on every game: stepping with the seats' policies
plays simulate's games, actions and their names, illegal actions, clones; and Python agents."""
import json

import numpy as np
import pandas as pd
import pytest

import simcore
from simcore import runner


# game -> its tests' xdist group (the folder of its other tests, tests/conftest.py) and the fewest
# players it allows
GAMES = {"carcassonne": ("carcassonne", 2), "carcassonne-ark": ("carcassonne", 2),
         "notre-dame": ("notre_dame", 2), "strasbourg": ("strasbourg", 3), "principato": ("principato", 2)}


def per_game(*games):
    """pytest parameters of these games (default all), each in its game's xdist group."""
    return [pytest.param(g, marks=pytest.mark.xdist_group(GAMES[g][0]), id=g) for g in games or GAMES]


def players_of(game):
    return GAMES[game][1]


def stepped_rows(game, players, policies, seed, index):
    """The results rows of game `index` stepped with policy_action() at every decision, and the
    number of decisions it took."""
    g = simcore.open_game(game, players=players, seed=seed, index=index, policies=policies)
    decisions = 0
    while not g.is_terminal():
        g.apply_action(g.policy_action())
        decisions += 1
    return pd.DataFrame(g.result()), decisions


def assert_steps_play_simulate(game, players, policies, games, seed=3):
    """Games 0..games-1 stepped are the games simulate plays: every column of every row equal.
    Returns the decisions each game took (a game of no decision would test nothing)."""
    plan = runner.plan(game, players=players, games=games, seed=seed, policies=policies, workers=1)
    expected = runner.chunk_rows(plan, runner.play(plan, 0, games), plan.spec.data_id(plan.data))
    frames, decisions = zip(*(stepped_rows(game, players, policies, seed, i) for i in range(games)))
    got = pd.concat(frames, ignore_index=True)
    pd.testing.assert_frame_equal(got.astype(expected.dtypes.to_dict()), expected, check_categorical=False)
    assert min(decisions) > 0
    return decisions


def assert_actions_are_named_and_checked(game, players, seed=5, decisions=40):
    """Along a random game: legal actions ascending in [0, num_distinct_actions), each with a
    name, the decision named, an illegal action refused naming the legal ones, observations
    JSON-serialisable and tensors of the fixed size, for every seat."""
    g = simcore.open_game(game, players=players, seed=seed)
    size = g.num_distinct_actions()
    points = set()
    for _ in range(decisions):
        if g.is_terminal():
            break
        legal = g.legal_actions()
        assert legal == sorted(set(legal)) and len(legal) >= 2
        assert 0 <= legal[0] and legal[-1] < size
        names = [g.action_to_string(a) for a in legal]
        assert all(isinstance(n, str) and n for n in names)
        points.add(g.decision_point())
        illegal = next(a for a in range(size + 1) if a not in legal)
        with pytest.raises(ValueError, match="legal"):
            g.apply_action(illegal)
        for seat in range(players):
            json.dumps(g.observation(seat))
            tensor = g.observation_tensor(seat)
            assert tensor.dtype == np.float32 and tensor.shape == (g.observation_tensor_size(),)
        g.apply_action(g.policy_action())
    assert points and "" not in points
    return points


def assert_clones_are_independent(game, players, seed=7, moves=6):
    """A clone goes its own way: actions applied to it change nothing in the original, and
    the original continued plays the same game as a clone taken before."""
    g = simcore.open_game(game, players=players, seed=seed)
    for _ in range(moves):
        g.apply_action(g.policy_action())
    before = (g.current_player(), g.legal_actions(), g.observation(0))
    twin = g.clone()
    other = twin.legal_actions()[-1] if twin.legal_actions()[-1] != g.policy_action() else twin.legal_actions()[0]
    twin.apply_action(other)
    for _ in range(moves):
        if twin.is_terminal():
            break
        twin.apply_action(twin.policy_action())
    assert (g.current_player(), g.legal_actions(), g.observation(0)) == before
    untouched = g.clone()
    while not g.is_terminal():
        g.apply_action(g.policy_action())
        untouched.apply_action(untouched.policy_action())
    assert untouched.returns() == g.returns()
    assert g.result() == untouched.result()
