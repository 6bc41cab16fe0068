"""simcore tournament on the toy dice game: the matches and their seat balance, the ranking
against the results files, resume, and the command line's one-line errors."""
import os

import pytest

import simcore as simcore_api
from cli_tool import assert_one_error_line, json_output, simcore
from simcore import results, tournament
from simcore.contract import UserError


def test_two_players_meet_in_every_pair_and_more_fill_every_multiset_of_two_policies_or_more():
    assert tournament.seatings(("a", "b", "c"), 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert tournament.seatings(("a", "b", "c", "d"), 3) == [("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"),
                                                            ("b", "c", "d")]
    assert tournament.seatings(("a", "b"), 3) == [("a", "a", "b"), ("a", "b", "b")]


def test_every_policy_plays_every_seat_equally_often_on_common_seeds(dice, tmp_path):
    tp = tournament.plan("dice", ["random", "greedy"], players=3, games=10, seed=4, out=str(tmp_path / "t"))
    assert tp.games == 12                                   # rounded up to a multiple of 3 seats
    tournament.run(tp)
    frames = [results.read(tp.results_path(m)) for m in tp.matches]
    together = sum(f.groupby(["policy", "seat"]).size() for f in frames)
    assert together.to_dict() == {(p, s): 12 for p in ("greedy", "random") for s in range(3)}
    assert all((f["seed"] == 4).all() and f["game_index"].max() == 11 for f in frames)


def test_the_ranking_pools_every_match_and_orders_the_two_dice_above_the_one(dice, tmp_path):
    out = tmp_path / "t"
    ranking = json_output(simcore("tournament", "dice", "-p", "2", "--policy", "random", "--policy", "greedy", "-n",
                                  "400", "--seed", "1", "--out", out, "--json", "--quiet"))
    assert [r["policy"] for r in ranking["ratings"]] == ["greedy", "random"]
    frame = results.read(str(out / "matches" / "000-random-greedy.parquet"))
    greedy = frame[frame["policy"] == "greedy"]
    top = ranking["ratings"][0]
    assert top["games"] == 400 and top["win_rate"] == pytest.approx(greedy["win"].mean())
    assert top["ci"][0] < top["rating"] < top["ci"][1]
    beats = ranking["head_to_head"]["greedy"]["random"]
    assert beats["pairs"] == 400
    rank_of = frame.pivot(index="game_index", columns="policy", values="rank")
    expected = ((rank_of["greedy"] < rank_of["random"]) + 0.5 * (rank_of["greedy"] == rank_of["random"])).mean()
    assert beats["share"] == pytest.approx(expected)
    assert "random" not in ranking["head_to_head"]["random"]
    assert sorted(os.listdir(out)) == ["matches", "tournament.json", "tournament.md"]


def test_resume_keeps_the_games_held_and_plays_only_the_missing_match(dice, tmp_path):
    out = str(tmp_path / "t")
    args = ["tournament", "dice", "-p", "2", "--policy", "random", "--policy", "greedy", "--policy", "g2=greedy",
            "-n", "50", "--out", out, "--json", "--quiet"]
    first = json_output(simcore(*args))
    tp = tournament.plan("dice", ["random", "greedy", "g2=greedy"], players=2, games=50, out=out)
    results.remove(tp.results_path(tp.matches[1]))
    assert json_output(simcore(*args, "--resume")) == first
    assert_one_error_line(simcore(*args), "already holds a tournament: give --resume to continue it or --force")


@pytest.mark.parametrize("args, message", [
    (["--policy", "random"], "a tournament needs at least two different policies"),
    (["--policy", "random", "--policy", "random"], "a tournament needs at least two different policies"),
    (["--policy", "random", "--policy", "nope"], "unknown policy 'nope'"),
    (["--policy", "a=random", "--policy", "a=greedy"], "have the same name a"),
    (["--policy", "random", "--policy", "greedy", "-n", "0"], "games per match must be at least 1")])
def test_mistakes_are_one_line_errors(dice, tmp_path, args, message):
    assert_one_error_line(simcore("tournament", "dice", "-p", "2", *args, "--out", tmp_path / "t"), message)


def test_resume_and_force_together_are_refused(dice, tmp_path):
    tp = tournament.plan("dice", ["random", "greedy"], players=2, games=4, out=str(tmp_path / "t"))
    with pytest.raises(UserError, match="not both"):
        tournament.run(tp, force=True, resume=True)


def test_the_python_api_returns_the_ranking_the_command_prints(dice, tmp_path):
    ranking = simcore_api.play_tournament("dice", ["random", "greedy"], players=2, games=20, seed=3, out=str(tmp_path / "a"))
    printed = json_output(simcore("tournament", "dice", "-p", "2", "--policy", "random", "--policy", "greedy", "-n", "20",
                              "--seed", "3", "--out", tmp_path / "b", "--json", "--quiet"))
    assert ranking == printed
