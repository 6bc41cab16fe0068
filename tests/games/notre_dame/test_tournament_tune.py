"""simcore tournament and simcore tune on a real game: the ranking orders random < greedy < mcts,
and tuning is repeatable for a seed, measures on held-out seeds it never tuned on, and resumes."""
import os

import pandas as pd
import pytest

from cli_tool import assert_one_error_line, json_output, simcore
from simcore import tune


def test_a_small_tournament_ranks_random_below_greedy_below_the_search(tmp_path):
    ranking = json_output(simcore("tournament", "notre-dame", "-p", "2", "--policy", "random", "--policy", "greedy",
                                  "--policy", "mcts", "-n", "30", "--seed", "2", "--out", tmp_path / "t", "--json",
                                  "--quiet"))
    assert [r["policy"] for r in ranking["ratings"]] == ["mcts", "greedy", "random"]
    assert ranking["matches"] == 3 and ranking["games"] == 90
    assert all(r["games"] == 60 for r in ranking["ratings"])


TUNE = ["tune", "notre-dame", "-p", "2", "--policy", "mcts:rollout=greedy", "--space", "iters=1:6",
        "--space", "c=0.1:2", "--against", "greedy", "-n", "6", "--held-out", "8", "--seed", "5", "--json", "--quiet"]


def test_tuning_is_repeatable_for_a_seed_and_measures_on_held_out_seeds(tmp_path):
    outcome = json_output(simcore(*TUNE, "--trials", "3", "--out", tmp_path / "a"))
    assert outcome == json_output(simcore(*TUNE, "--trials", "3", "--out", tmp_path / "b"))
    best, baseline = outcome["best"], outcome["baseline"]
    assert outcome["trials"] == 3 and outcome["seed"] == 5
    assert best["held_out"]["seed"] == baseline["held_out"]["seed"] == 6      # never a tuning seed
    assert best["held_out"]["games"] == baseline["held_out"]["games"] == 8
    assert baseline["policy"] == "mcts"                                      # greedy rollouts: notre-dame's default
    params = best["params"]
    assert 1 <= params["iters"] <= 6 and 0.1 <= params["c"] <= 2
    assert best["policy"] == f"mcts:iters={params['iters']},c={params['c']:g}"
    lo, hi = best["held_out"]["win_ci"]
    assert lo <= best["held_out"]["win_rate"] <= hi
    trials = pd.read_csv(tmp_path / "a" / "trials.csv")
    assert len(trials) == 3 and trials["value"].max() == pytest.approx(best["tuning_win_share"])
    assert {"study.db", "trials.csv", "tune.json", "history.png", "importance.png"} <= set(os.listdir(tmp_path / "a"))


def test_resume_continues_the_study_up_to_the_trials_asked(tmp_path):
    out = tmp_path / "s"
    assert simcore(*TUNE, "--trials", "2", "--out", out).returncode == 0
    assert_one_error_line(simcore(*TUNE, "--trials", "3", "--out", out), "already holds a tuning study")
    assert json_output(simcore(*TUNE, "--trials", "3", "--out", out, "--resume"))["trials"] == 3
    assert len(pd.read_csv(out / "trials.csv")) == 3


@pytest.mark.parametrize("args, message", [
    (["--policy", "greedy", "--space", "iters=1:4", "--against", "random"], "greedy has no parameter 'iters'"),
    (["--policy", "mcts", "--space", "iters=4", "--against", "random"], "give NAME=LO:HI"),
    (["--policy", "mcts", "--space", "iters=4:2", "--against", "random"], "LO must be below HI"),
    (["--policy", "mcts", "--space", "rollout=0:1", "--against", "random"], "not a number to tune"),
    (["--policy", "mcts:iters=5", "--space", "iters=1:4", "--against", "random"], "fixed in --policy"),
    (["--policy", "mcts", "--space", "iters=1:4"], "give the opponents"),
    (["--policy", "mcts", "--against", "random"], "give the parameters to tune"),
    (["--policy", "x=mcts", "--space", "iters=1:4", "--against", "random"], "takes no label"),
    (["--policy", "mcts", "--space", "iters=1:4", "--against", "tuned=random"], "label the opponents otherwise"),
    (["-p", "3", "--policy", "mcts", "--space", "iters=1:4", "--against", "random", "--against", "greedy",
      "--against", "random"], "3 opponents given for 2 other seats")])
def test_mistakes_are_one_line_errors(tmp_path, args, message):
    assert_one_error_line(simcore("tune", "notre-dame", *args, "--out", tmp_path / "t"), message)


def test_a_trials_policy_is_the_base_with_the_values_tried():
    tp = tune.plan("notre-dame", "mcts:depth=2", ["iters=1:9"], ["greedy"], players=2, games=5)
    assert tp.games == 6
    assert tp.policy({"iters": 7}) == "mcts:iters=7,depth=2"
    assert tp.against == ("greedy",)
