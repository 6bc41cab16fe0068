"""Python agents at the table (simcore/agents.py, docs/step.md), on Notre Dame: reproducible runs
for any worker count, the agent's view, every command that takes --policy, and one-line errors."""
import numpy as np
import pandas as pd
import pytest
from cli_tool import simcore

import simcore as api
from simcore import agents
from simcore.contract import UserError

GAME = "notre-dame"
SEEDED = "me=py:agents_for_tests:seeded"


def test_an_agent_run_is_the_same_for_any_worker_count_and_its_own_seed():
    one = api.simulate(GAME, players=2, games=6, seed=4, policies=[SEEDED, "greedy"], workers=1)
    two = api.simulate(GAME, players=2, games=6, seed=4, policies=[SEEDED, "greedy"], workers=2)
    pd.testing.assert_frame_equal(one, two)
    assert list(one["policy"][:2]) == ["me", "greedy"]
    assert len(one) == 12
    # the agent is not the built-in random player: its own generator, seeded per game and seat
    plain = api.simulate(GAME, players=2, games=6, seed=4, policies=["random", "greedy"], workers=1)
    assert not one["score"].equals(plain["score"])
    assert agents.agent_seed(4, 0, 0) != agents.agent_seed(4, 1, 0) != agents.agent_seed(4, 0, 1)
    assert agents.agent_seed(4, 0, 0) == agents.agent_seed(4, 0, 0)


def test_an_agent_game_is_the_stepped_game_with_the_agents_moves():
    """The row simulate writes for an agent's game is the game stepped by hand with the agent."""
    rows = api.simulate(GAME, players=2, games=2, seed=9, policies=["py:agents_for_tests:last", "greedy"],
                        workers=1)
    g = api.open_game(GAME, players=2, seed=9, index=1, policies=["random", "greedy"])
    while not g.is_terminal():
        g.apply_action(g.legal_actions()[-1] if g.current_player() == 0 else g.policy_action())
    assert list(rows["score"][2:]) == [int(r) for r in g.returns()]


def test_a_replay_of_an_agent_game_shows_its_moves_and_the_simulated_score():
    run = api.simulate(GAME, players=2, games=3, seed=2, policies=[SEEDED, "greedy"], workers=1)
    lines = api.replay(GAME, players=2, seed=2, index=2, policies=[SEEDED, "greedy"])
    assert lines[1] == "seats: Red=me, Blue=greedy"
    assert any(line.startswith("  Red plays") for line in lines)
    final = {line.split(":")[0].strip(): int(line.split(":")[1].split(" VP")[0]) for line in lines[-2:]}
    assert final == {"Red": int(run["score"][4]), "Blue": int(run["score"][5])}


def test_a_tournament_ranks_an_agent(tmp_path):
    out = tmp_path / "t"
    result = simcore("tournament", GAME, "-p", "2", "-n", "4", "--policy", SEEDED, "--policy", "greedy",
                     "--out", out, "--workers", "2", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "me" in (out / "tournament.md").read_text()


def test_an_agent_that_returns_no_legal_action_is_one_line_naming_it_the_game_and_decision():
    result = simcore("simulate", GAME, "-p", "2", "-n", "2", "--workers", "1", "--quiet", "--policy", "bad=py:agents_for_tests:illegal",
                     "--policy", "greedy")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "Python agent bad=py:agents_for_tests:illegal (seat 0) in game 0, decision 0 (draft_keep1) returned -5" \
        in result.stderr


def test_an_agent_that_raises_is_one_line():
    result = simcore("simulate", GAME, "-p", "2", "-n", "1", "--workers", "1", "--quiet", "--policy", "py:agents_for_tests:raising")
    assert result.returncode == 2
    assert "raised RuntimeError: out of ideas" in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize("policy, message", [
    ("py:no_such_module_here:make", "cannot import no_such_module_here"),
    ("py:agents_for_tests:nothing", "agents_for_tests has no function nothing"),
    ("py:agents_for_tests:NOT_A_FUNCTION", "has no function NOT_A_FUNCTION"),
    ("py:agents_for_tests", "write py:MODULE:FACTORY"),
])
def test_an_agent_that_cannot_be_loaded_is_one_line_before_any_game(policy, message):
    result = simcore("simulate", GAME, "-p", "2", "-n", "1", "--quiet", "--policy", policy)
    assert result.returncode == 2 and message in result.stderr and result.stderr.count("\n") == 1
    with pytest.raises(UserError, match=message):
        api.open_game(GAME, players=2, policies=[policy])


def test_a_search_cannot_roll_out_with_an_agent():
    with pytest.raises(UserError, match="not a Python agent"):
        api.simulate(GAME, players=2, games=1, policies=["me=py:agents_for_tests:seeded", "mcts:rollout=me"])


def test_the_agent_sees_only_its_view():
    g = api.open_game(GAME, players=3, seed=1)
    seat = g.current_player()
    view = g.view(seat)
    assert view.legal_actions() == g.legal_actions()
    assert g.view((seat + 1) % 3).legal_actions() == []
    assert view.observation() == g.observation(seat)
    assert np.array_equal(view.observation_tensor(), g.observation_tensor(seat))
    assert not hasattr(view, "apply_action") and not hasattr(view, "clone")


def test_a_scenario_file_seats_an_agent(tmp_path):
    scenario = tmp_path / "agent.toml"
    scenario.write_text('game = "notre-dame"\nplayers = 2\ngames = 3\nseed = 1\n'
                        f'policies = ["{SEEDED}", "greedy"]\nworkers = 2\nout = "{tmp_path / "r.csv"}"\n')
    result = simcore("run", scenario, "--quiet")
    assert result.returncode == 0, result.stderr
    rows = pd.read_csv(tmp_path / "r.csv")
    direct = api.simulate(GAME, players=2, games=3, seed=1, policies=[SEEDED, "greedy"], workers=1)
    assert list(rows["score"]) == list(direct["score"]) and list(rows["policy"][:2]) == ["me", "greedy"]


def test_commands_that_cannot_seat_an_agent_say_so_in_one_line(tmp_path):
    for command in (["check", GAME, "-p", "2", "-n", "2"], ["replay", GAME, "-p", "2", "--image", tmp_path / "x.png"]):
        result = simcore(*command, "--policy", SEEDED)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert result.stderr.splitlines()[-1].startswith("error:") and "Python agents" in result.stderr
