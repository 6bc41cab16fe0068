"""The step API (simcore/step.py) on every game (tests/step_tool.py): stepping with the seats'
policies plays simulate's games, search players included; actions named and checked; clones
independent. Each game's tests run in its xdist group, beside its other tests."""
import pytest
from step_tool import (
    assert_actions_are_named_and_checked, assert_clones_are_independent, assert_steps_play_simulate, per_game,
    players_of)


@pytest.mark.parametrize("game", per_game())
def test_stepping_random_seats_plays_the_simulated_games(game):
    assert_steps_play_simulate(game, players_of(game), ["random"], games=3)


@pytest.mark.parametrize("game", per_game())
def test_stepping_greedy_and_weighted_seats_plays_the_simulated_games(game):
    p = players_of(game) + 1
    assert_steps_play_simulate(game, p, ["greedy"] + ["w=greedy"] * (p - 2) + ["random"], games=2)


@pytest.mark.parametrize("game", per_game())
def test_stepping_a_game_with_a_search_seat_plays_the_simulated_game(game):
    p = players_of(game)
    assert_steps_play_simulate(game, p, ["mcts:iters=3"] + ["greedy"] * (p - 2) + ["random"], games=2)


@pytest.mark.parametrize("game", per_game())
def test_actions_are_named_and_illegal_ones_refused(game):
    assert_actions_are_named_and_checked(game, players_of(game))


@pytest.mark.parametrize("game", per_game())
def test_a_clone_is_independent(game):
    assert_clones_are_independent(game, players_of(game))


@pytest.mark.parametrize("game", per_game("carcassonne-ark"))
def test_stepping_the_ark_with_its_ark_weight_and_flatmc_plays_the_simulated_games(game):
    """The Ark's move is a decision of its own after ARK (playout.ARK_APART): stepped, a seat's
    move is the one its policy chose with its action, as in plain play and in a searched game's
    probe (playout.probe_ark_move)."""
    assert_steps_play_simulate(game, 3, ["greedy", "w=greedy:ark=2", "random"], games=2)
    assert_steps_play_simulate(game, 2, ["random", "flatmc:playouts=1"], games=1)


@pytest.mark.parametrize("game", per_game("carcassonne-ark"))
def test_the_ark_names_its_decisions(game):
    points = assert_actions_are_named_and_checked(game, 2, decisions=120)
    assert {"placement", "action", "ark move"} <= points


@pytest.mark.parametrize("game", per_game("notre-dame", "principato"))
def test_stepping_a_search_that_reuses_its_tree_plays_the_simulated_games(game):
    """mcts:reuse=1 keeps the subtree of its move between a seat's consecutive decisions: the step
    API (which pops the search's move and applies it again) keeps the tree as simulate does."""
    p = players_of(game)
    assert_steps_play_simulate(game, p, ["mcts:iters=8,reuse=1"] + ["greedy"] * (p - 2) + ["random"], games=1)
