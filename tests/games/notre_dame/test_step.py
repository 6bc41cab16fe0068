"""The step API on notre-dame (tests/step_tool.py): stepping with the seats' policies plays simulate's
games, search players included; actions named and checked; clones independent."""
from step_tool import assert_actions_are_named_and_checked, assert_clones_are_independent, assert_steps_play_simulate

GAME = "notre-dame"


def test_stepping_random_seats_plays_the_simulated_games():
    assert_steps_play_simulate(GAME, 3, ["random"], games=4)


def test_stepping_greedy_and_weighted_seats_plays_the_simulated_games():
    assert_steps_play_simulate(GAME, 3, ["greedy"] + ["w=greedy"] * (3 - 2) + ["random"], games=3)


def test_stepping_a_game_with_a_search_seat_plays_the_simulated_game():
    assert_steps_play_simulate(GAME, 3, ["mcts:iters=3"] + ["greedy"] * (3 - 2) + ["random"], games=2)


def test_actions_are_named_and_illegal_ones_refused():
    assert_actions_are_named_and_checked(GAME, 3)


def test_a_clone_is_independent():
    assert_clones_are_independent(GAME, 3)


def test_stepping_a_search_that_reuses_its_tree_plays_the_simulated_games():
    """mcts:reuse=1 keeps the subtree of its move between a seat's consecutive decisions: the step
    API (which pops the search's move and applies it again) must keep the tree as simulate does."""
    assert_steps_play_simulate(GAME, 3, ["mcts:iters=8,reuse=1", "greedy", "random"], games=2)
