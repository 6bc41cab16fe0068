"""Python agents for the tests (--policy py:agents_for_tests:FACTORY; tests/ is on sys.path)."""
import numpy as np


def seeded(game_id, players, seat, seed):
    """Random among the legal actions from its seed; remembers what it was given in CALLS."""
    rng = np.random.default_rng(seed)

    def act(view):
        assert view.seat == seat and view.game_id == game_id and view.players == players
        return int(rng.choice(view.legal_actions()))
    return act


def last(game_id, players, seat, seed):
    """Always the highest legal action id."""
    return lambda view: view.legal_actions()[-1]


def illegal(game_id, players, seat, seed):
    return lambda view: -5


def raising(game_id, players, seat, seed):
    def act(view):
        raise RuntimeError("out of ideas")
    return act


NOT_A_FUNCTION = 3
