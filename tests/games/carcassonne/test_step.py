"""The step API on carcassonne (tests/step_tool.py): stepping with the seats' policies plays simulate's
games, search players included; actions named and checked; clones independent."""
from step_tool import assert_actions_are_named_and_checked, assert_clones_are_independent, assert_steps_play_simulate

GAME = "carcassonne"


def test_stepping_random_seats_plays_the_simulated_games():
    assert_steps_play_simulate(GAME, 2, ["random"], games=4)


def test_stepping_greedy_and_weighted_seats_plays_the_simulated_games():
    assert_steps_play_simulate(GAME, 2, ["greedy"] + ["w=greedy"] * (2 - 2) + ["random"], games=3)


def test_stepping_a_game_with_a_search_seat_plays_the_simulated_game():
    assert_steps_play_simulate(GAME, 2, ["mcts:iters=3"] + ["greedy"] * (2 - 2) + ["random"], games=2)


def test_actions_are_named_and_illegal_ones_refused():
    assert_actions_are_named_and_checked(GAME, 2)


def test_a_clone_is_independent():
    assert_clones_are_independent(GAME, 2)


def test_stepping_the_ark_plays_the_simulated_games():
    """The Ark's move is a decision of its own after ARK (playout.ARK_APART): stepped, a random
    seat's move is the one it drew with its action, as in plain play."""
    assert_steps_play_simulate("carcassonne-ark", 2, ["random"], games=3)
    assert_steps_play_simulate("carcassonne-ark", 3, ["greedy", "w=greedy:ark=2", "random"], games=2)


def test_stepping_the_ark_with_a_search_seat_plays_the_simulated_game():
    """With a search seat, a policy's Ark move is the one its probe kept with the action
    (playout.probe_ark_move), also when the action was applied at a step of its own."""
    assert_steps_play_simulate("carcassonne-ark", 2, ["mcts:iters=4", "greedy"], games=2)
    assert_steps_play_simulate("carcassonne-ark", 2, ["random", "flatmc:playouts=1"], games=1)


def test_the_ark_names_its_decisions():
    points = assert_actions_are_named_and_checked("carcassonne-ark", 2, decisions=120)
    assert {"placement", "action", "ark move"} <= points
