"""A complete Python agent for simcore (docs/step.md): run it with

    PYTHONPATH=examples simcore simulate notre-dame -p 2 -n 100 --policy me=py:random_agent:make --policy greedy

FACTORY(game_id, players, seat, seed) is called once per seat and game; the callable it returns
gets the seat's view at each of the seat's decisions and returns one of view.legal_actions().
"""
import numpy as np


def make(game_id, players, seat, seed):
    """This agent: uniformly random among the legal actions, from its own generator seeded with
    the seed it is given (derived from the run's seed, the game index and the seat, so a run
    repeats exactly)."""
    rng = np.random.default_rng(seed)

    def act(view):
        # the view also holds view.observation() (all this seat may know, a dict),
        # view.observation_tensor(), view.decision_point() and view.action_to_string(a)
        return int(rng.choice(view.legal_actions()))

    return act
