"""simcore's games in the ecosystem's harnesses (simcore/interop): OpenSpiel's own checks
(pyspiel.random_sim_test) and its MCTSBot, PettingZoo's api_test, the returns and rewards as
the games' win shares, game numbers and seeds, bad input, and that simcore itself never imports
a harness.

Each game's tests carry the xdist group of tests/games/<package> (conftest.py), so that under
`--dist loadgroup` they run in the worker that compiles that game's kernels anyway."""
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts
from pettingzoo import AECEnv
from pettingzoo.test import api_test

import simcore
from simcore import UserError
from simcore.interop import openspiel
from simcore.interop.pettingzoo import SimcoreEnv, env
from simcore.search import MAX_HIST
from step_tool import GAMES, per_game, players_of

ROOT = Path(__file__).resolve().parents[1]

NAMES = {"carcassonne": "simcore_carcassonne", "carcassonne-ark": "simcore_carcassonne_ark",
         "notre-dame": "simcore_notre_dame", "strasbourg": "simcore_strasbourg", "principato": "simcore_principato"}
DEFAULT_PLAYERS = {"carcassonne": 4, "carcassonne-ark": 4, "notre-dame": 4, "strasbourg": 4, "principato": 4}
# with the shipped data, at the players above
ACTIONS = {"carcassonne": 40900, "carcassonne-ark": 40900, "notre-dame": 252, "strasbourg": 55, "principato": 38}
TENSOR = {"carcassonne": 3334, "carcassonne-ark": 5662, "notre-dame": 736, "strasbourg": 1590, "principato": 395}


players = players_of          # the players its tests seat: 2, or the fewest the game allows


def load(game, **params):
    return pyspiel.load_game(NAMES[game], {"players": players(game), **params})


def result_shares(simcore_game):
    """The win shares of simulate's rows of the finished game."""
    return [row["win_share"] for row in simcore_game.result()]


def assert_win_shares(shares, simcore_game):
    """shares are the finished game's win shares: they sum to 1, split equally among the seats
    ranked first (the best score), and equal simulate's rows of that game."""
    rows = simcore_game.result()
    assert sum(shares) == pytest.approx(1.0, abs=1e-12)
    assert shares == [row["win_share"] for row in rows]
    winners = [row["seat"] for row in rows if row["rank"] == 1]
    assert [s for s, share in enumerate(shares) if share > 0] == winners
    assert all(shares[s] == 1 / len(winners) for s in winners)
    best = max(row["score"] for row in rows)
    assert all(rows[s]["score"] == best for s in winners)
    assert [float(row["score"]) for row in rows] == simcore_game.returns()


# ---------------------------------------------------------------- OpenSpiel

def test_every_game_is_registered_once():
    assert openspiel.register() == list(NAMES.values())
    assert openspiel.register() == list(NAMES.values())          # idempotent
    registered = pyspiel.registered_names()
    for name in NAMES.values():
        assert registered.count(name) == 1


@pytest.mark.parametrize("game", per_game())
def test_openspiel_game_type_and_info(game):
    g = load(game)
    t = g.get_type()
    assert t.short_name == NAMES[game]
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert t.provides_observation_string and t.provides_observation_tensor
    assert not t.provides_information_state_string and not t.provides_information_state_tensor
    assert t.parameter_specification == {"players": DEFAULT_PLAYERS[game], "seed": 0}
    assert (g.num_players(), g.num_distinct_actions(), g.observation_tensor_size()) == \
           (players(game), ACTIONS[game], TENSOR[game])
    assert (g.min_utility(), g.max_utility(), g.utility_sum(), g.max_chance_outcomes(), g.max_game_length()) == \
           (0.0, 1.0, 1.0, 0, MAX_HIST)
    assert str(g) == f"{NAMES[game]}(players={players(game)},seed=0)"
    assert load(game, seed=9).seed == 9
    assert pyspiel.load_game(NAMES[game]).num_players() == DEFAULT_PLAYERS[game]


@pytest.mark.parametrize("game", per_game())
def test_random_sim_test(game):
    """OpenSpiel's own checks of a game: clones equal, sorted legal actions with unique strings,
    observations of every seat of the right size, returns that sum to 1 within [0, 1]."""
    g = load(game)
    sims = 1 if game == "strasbourg" else 2      # Strasbourg's observations cost ten times the others'
    pyspiel.random_sim_test(g, num_sims=sims, serialize=False, verbose=False)
    assert g.games_started == sims       # its clones and tensor-shape probes played no game of their own


@pytest.mark.parametrize("game", per_game())
def test_mcts_bot_plays_a_whole_game(game):
    g = load(game, seed=3)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(g, uct_c=2.0, max_simulations=2, random_state=rng,
                       evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng))
    state = g.new_initial_state()
    moves = 0
    while not state.is_terminal():
        assert state.current_player() in range(players(game))
        assert state.returns() == [0.0] * players(game)
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert moves == len(state.history()) > 20
    assert_win_shares(state.returns(), state.simcore_game)
    assert (state.simcore_game.seed, state.simcore_game.index, g.games_started) == (3, 0, 1)


@pytest.mark.parametrize("game", per_game())
def test_returns_are_the_win_shares_of_the_game_simulate_plays(game):
    """Every seat taking its first legal action: the game of open_game, its returns the win
    shares of its results rows. Carcassonne's such games end 0:0, a shared win."""
    g = load(game)
    state = g.new_initial_state()
    same = simcore.open_game(game, players=players(game), seed=0, index=0)
    while not state.is_terminal():
        assert state.legal_actions() == same.legal_actions()
        assert state.observation_tensor(0) == same.observation_tensor(0).tolist()
        assert state.observation_string(1) == same.observation_string(1)
        action = state.legal_actions()[0]
        state.apply_action(action)
        same.apply_action(action)
    assert same.is_terminal()
    assert_win_shares(state.returns(), same)
    assert state.returns() == result_shares(same)
    if game.startswith("carcassonne"):
        assert same.returns() == [0.0, 0.0] and state.returns() == [0.5, 0.5]


@pytest.mark.parametrize("game", per_game("principato"))
def test_a_game_object_numbers_the_games_its_states_play(game):
    g = load(game, seed=5)
    first, second = g.new_initial_state(), g.new_initial_state()
    probe = g.new_initial_state()
    assert probe.observation_tensor(0) == simcore.open_game(game, players=2, seed=5).observation_tensor(0).tolist()
    assert g.observation_tensor_size() == TENSOR[game]
    assert g.games_started == 0                      # observing a fresh state numbers no game
    second.current_player()                          # played first: game 0
    first.legal_actions()
    assert (second.simcore_game.index, first.simcore_game.index, g.games_started) == (0, 1, 2)
    assert second.simcore_game.seed == 5
    copy = first.clone()
    copy.apply_action(copy.legal_actions()[-1])
    assert g.games_started == 2 and copy.simcore_game.index == 1
    assert len(first.history()) == 0 and len(copy.history()) == 1
    text = copy.serialize()
    back = g.deserialize_state(text)
    assert (str(back), back.history(), back.observation_tensor(1)) == \
           (str(copy), copy.history(), copy.observation_tensor(1))
    assert g.games_started == 2


def test_bad_parameters_are_one_line_errors():
    with pytest.raises(UserError, match="^strasbourg is played by 3 to 5 players, not 2$"):
        pyspiel.load_game("simcore_strasbourg", {"players": 2})
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game("simcore_principato", {"colour": 1})


def test_observers_give_only_the_seat_s_observation():
    g = pyspiel.load_game("simcore_principato", {"players": 2})
    with pytest.raises(ValueError, match="no perfect recall"):
        g.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    with pytest.raises(ValueError, match="take no parameters"):
        g.make_py_observer(None, {"x": 1})


# ---------------------------------------------------------------- PettingZoo

@pytest.mark.parametrize("game", per_game())
def test_pettingzoo_api_test(game):
    e = env(game, players=players(game), seed=0)
    assert isinstance(e, AECEnv) and isinstance(e.unwrapped, SimcoreEnv)
    with warnings.catch_warnings():
        # a Dict observation (observation and action mask) is PettingZoo's own classic games' form,
        # which api_test knows by their names only
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably should be")
        api_test(e, num_cycles=1000, verbose_progress=False)      # 1000 cycles: a whole game


@pytest.mark.parametrize("game", per_game())
def test_pettingzoo_plays_the_games_of_its_seed(game):
    n = players(game)
    e = env(game, players=n, seed=4, render_mode="ansi")
    agents = [f"player_{s}" for s in range(n)]
    assert e.possible_agents == agents
    assert e.observation_space("player_0")["observation"].shape == (TENSOR[game],)
    assert e.action_space("player_0").n == ACTIONS[game]
    e.reset()
    raw = e.unwrapped
    same = simcore.open_game(game, players=n, seed=4, index=0)
    steps = 0
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        seat = agents.index(agent)
        if termination:
            break
        assert not truncation and reward == 0.0 and seat == same.current_player()
        assert np.array_equal(observation["observation"], same.observation_tensor(seat))
        assert np.flatnonzero(observation["action_mask"]).tolist() == same.legal_actions()
        other = agents[(seat + 1) % n]
        assert not e.observe(other)["action_mask"].any()
        action = same.legal_actions()[-1]
        e.step(action)
        same.apply_action(action)
        steps += 1
    assert same.is_terminal() and steps > 20
    shares = [e.rewards[a] for a in agents]
    assert_win_shares(shares, same)
    assert [e._cumulative_rewards[a] for a in agents] == shares
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert [e.infos[a] for a in agents] == [{"score": score, "win_share": share}
                                            for score, share in zip(same.returns(), shares)]
    assert e.render().startswith(f"<simcore game {game}, {n} players, seed 4, game 0: over>\nVP: player_0 ")
    e.reset()
    assert (raw.game.seed, raw.game.index) == (4, 1)              # the next game of the seed
    e.reset(seed=11)
    assert (raw.game.seed, raw.game.index) == (11, 0)
    e.reset()
    assert (raw.game.seed, raw.game.index) == (11, 1)
    with pytest.raises(ValueError, match="is not legal"):
        e.step(ACTIONS[game] + 5)


def test_pettingzoo_bad_input_is_one_line():
    with pytest.raises(UserError, match="^strasbourg is played by 3 to 5 players, not 2$"):
        env("strasbourg", players=2)
    with pytest.raises(UserError, match="unknown game"):
        env("chess")
    with pytest.raises(ValueError, match="^render_mode must be one of human, ansi or None, not 'rgb_array'$"):
        env("principato", render_mode="rgb_array")


# ---------------------------------------------------------------- lazy imports

LAZY = """
import sys
HARNESSES = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium")
def loaded():
    return sorted({m.split(".")[0] for m in sys.modules} & set(HARNESSES))
def cli(*args):
    try:
        main(list(args))
    except SystemExit as e:
        assert not e.code, e.code
import simcore
print("import simcore", loaded())
from cli.main import main
cli("games", "--json")
print("simcore games", loaded())
sys.path.insert(0, "tests")
from simcore import registry
from dice_game import DICE
registry._REGISTRY = {DICE.id: DICE}
cli("simulate", DICE.id, "-n", "3", "--quiet", "--json")
print("simcore simulate", loaded())
import simcore.interop.pettingzoo
print("simcore.interop.pettingzoo", loaded())
"""


def test_simcore_and_its_command_line_import_no_harness():
    """import simcore, the CLI's `games` (every game package) and a simulate (of the toy game:
    nothing to compile) load none of pyspiel, OpenSpiel, PettingZoo or gymnasium; the
    PettingZoo harness loads its own framework only."""
    p = subprocess.run([sys.executable, "-c", LAZY], cwd=ROOT, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 0, p.stderr
    assert [line for line in p.stdout.splitlines() if not line.startswith(("[", "{"))] == [
        "import simcore []", "simcore games []", "simcore simulate []",
        "simcore.interop.pettingzoo ['gymnasium', 'pettingzoo']"]
