import json

import numpy as np
import pandas as pd
import pytest

from simcore import results, stats
from simcore.contract import BatchResult, UserError
from dice_game import DICE, GREEDY, RANDOM


def frame_of(scores, seat_policies, bonus=None):
    """A dice results frame whose pts_dice are `scores` (pts_bonus from `bonus`, default 0)."""
    scores = np.asarray(scores, np.int32)
    bonus = np.zeros_like(scores) if bonus is None else np.asarray(bonus, np.int32)
    batch = BatchResult(np.stack([scores - bonus, bonus], axis=2), np.ones((len(scores), 1), np.int32))
    return results.chunk_frame(DICE, "standard-dice", scores.shape[1], 7, 0, np.asarray(seat_policies, np.int8), batch)


@pytest.fixture
def four_games():
    """Seat 0 (greedy) wins games 0 and 1 outright and ties game 2; seat 1 wins game 3."""
    return frame_of([[6, 2], [5, 3], [4, 4], [1, 9]], [[GREEDY, RANDOM]] * 4, bonus=[[3, 0], [0, 0], [0, 0], [0, 3]])


def test_wilson_interval_matches_the_hand_computed_value():
    # 8 wins in 10: p = .8, z = 1.959964; centre = (p + z²/20) / (1 + z²/10), half = z/(1 + z²/10) * sqrt(p(1-p)/10 + z²/400)
    lo, hi = stats.wilson_interval(8, 10)
    assert lo == pytest.approx(0.49016, abs=1e-5)
    assert hi == pytest.approx(0.94332, abs=1e-5)


def test_wilson_interval_stays_inside_zero_one_at_the_extremes():
    lo, hi = stats.wilson_interval(np.array([0, 10]), np.array([10, 10]))
    assert lo[0] == pytest.approx(0) and hi[0] == pytest.approx(0.27753, abs=1e-5)
    assert lo[1] == pytest.approx(0.72247, abs=1e-5) and hi[1] == pytest.approx(1)


def test_mean_interval_is_the_student_t_interval():
    # values 1, 2, 3, 4: mean 2.5, s = 1.2910, t(0.975, 3) = 3.18245, half = 3.18245 * 1.29099 / 2 = 2.05426
    lo, hi = stats.mean_interval(10, 30, 4)
    assert (lo, hi) == (pytest.approx(0.44574, abs=1e-5), pytest.approx(4.55426, abs=1e-5))
    assert np.isnan(stats.mean_interval(5, 25, 1)).all()


def test_by_seat_gives_win_rates_scores_and_points(four_games):
    seats = stats.by_seat(four_games)
    assert seats["policy"].tolist() == ["greedy", "random"]
    assert seats["n"].tolist() == [4, 4]
    assert seats["win_rate"].tolist() == [0.75, 0.5]          # the game 2 tie is a win for both
    assert seats["win_share"].tolist() == [0.625, 0.375]
    assert seats["mean_score"].tolist() == [4.0, 4.5]
    assert seats["pts_bonus"].tolist() == [0.75, 0.75]
    assert (seats["win_lo"] < seats["win_rate"]).all() and (seats["win_rate"] < seats["win_hi"]).all()


def test_by_policy_pools_every_seat_a_policy_played():
    rotated = frame_of([[6, 2], [5, 3], [4, 4], [1, 9]], [[GREEDY, RANDOM], [RANDOM, GREEDY]] * 2)
    policies = stats.by_policy(rotated)
    assert policies.index.tolist() == ["greedy", "random"]
    assert policies["win_rate"].tolist() == [0.75, 0.5]       # greedy wins games 0 and 3, ties game 2
    assert policies["win_share"].tolist() == [0.625, 0.375]
    assert stats.by_seat(rotated)["policy"].tolist() == ["greedy, random"] * 2


def test_a_tally_of_chunks_equals_the_tally_of_the_whole(four_games):
    chunked = stats.Tally()
    for start in range(0, len(four_games), 2):
        chunked.add(four_games.iloc[start:start + 2])
    pd.testing.assert_frame_equal(chunked.by_seat(), stats.by_seat(four_games))
    pd.testing.assert_frame_equal(chunked.by_policy(), stats.by_policy(four_games))
    assert chunked.summary() == stats.summary(four_games)


def test_summary_has_the_documented_shape(four_games):
    summary = stats.summary(four_games, games_per_second=1234.5)
    json.dumps(summary, allow_nan=False)
    assert {"game", "players", "games", "seed", "games_per_second", "seats", "policies"} <= set(summary)
    assert (summary["game"], summary["players"], summary["games"], summary["seed"], summary["games_per_second"]) \
        == ("dice", 2, 4, 7, 1234.5)
    seat = summary["seats"][0]
    assert {"seat", "policy", "win_rate", "win_ci", "mean_score", "score_ci", "points"} <= set(seat)
    assert (seat["seat"], seat["policy"], seat["win_rate"], seat["points"]) == (0, "greedy", 0.75, {"dice": 3.25, "bonus": 0.75})
    assert len(seat["win_ci"]) == len(seat["score_ci"]) == 2
    assert {"policy", "win_rate", "win_ci"} <= set(summary["policies"][0])


def test_an_interval_from_one_game_is_null_not_nan():
    summary = stats.summary(frame_of([[3, 5]], [[RANDOM, RANDOM]]))
    assert summary["seats"][0]["score_ci"] == [None, None]
    json.dumps(summary, allow_nan=False)


def test_nothing_to_summarise_is_a_user_error():
    with pytest.raises(UserError, match="no games"):
        stats.Tally().summary()


def test_each_policy_in_each_seat_of_a_rotated_lineup():
    """Rotated seats: seat 0 is greedy in games 0 and 2 (scores 6, 4), random in games 1 and 3
    (scores 5, 1); greedy wins games 0 and 3 and ties game 2, so greedy in seat 0 won both its
    games (one a tie) and greedy in seat 1 won its one of two (game 3: 9 to 1, game 1: 3 to 5)."""
    rotated = frame_of([[6, 2], [5, 3], [4, 4], [1, 9]], [[GREEDY, RANDOM], [RANDOM, GREEDY]] * 2)
    table = stats.Tally.of(rotated).by_policy_seat()
    assert table.index.tolist() == [("greedy", 0), ("greedy", 1), ("random", 0), ("random", 1)]
    assert table["n"].tolist() == [2, 2, 2, 2]
    assert table["win_rate"].tolist() == [1.0, 0.5, 0.5, 0.5]
    assert table["mean_score"].tolist() == [5.0, 6.0, 3.0, 3.0]
    rows = stats.summary(rotated)["policy_seats"]
    assert [(r["policy"], r["seat"], r["games"], r["win_rate"], r["mean_score"]) for r in rows] == [
        ("greedy", 0, 2, 1.0, 5.0), ("greedy", 1, 2, 0.5, 6.0), ("random", 0, 2, 0.5, 3.0), ("random", 1, 2, 0.5, 3.0)]
    assert {"policy", "seat", "games", "win_rate", "win_ci", "mean_score", "score_ci"} <= set(rows[0])


def test_a_speed_keeps_three_significant_digits_below_100_games_a_second():
    speeds = [0.38, 0.0412, 5, 12.345, 99.96, 2398.4, 107342.0]
    assert [stats.speed_text(x) for x in speeds] == ["0.38 games/s", "0.0412 games/s", "5 games/s", "12.3 games/s",
                                                     "100 games/s", "2,398 games/s", "107,342 games/s"]
    assert (stats.speed_text(0.38, unit=""), stats.speed_text(None)) == ("0.38", "no games played")


def simcore_cli(*args):
    from click.testing import CliRunner
    from cli.main import main
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_slow_run_and_a_slow_bench_print_their_speed_not_0_games_per_second(dice, monkeypatch):
    from simcore import runner
    monkeypatch.setattr(runner.Outcome, "games_per_second", property(lambda self: 0.38))
    result = simcore_cli("simulate", "dice", "-p", 2, "-n", 20, "--quiet")
    assert result.exit_code == 0, result.output
    assert "0.38 games/s on " in result.stdout and "0 games/s" not in result.stdout
    monkeypatch.setattr(runner, "measure_speed", lambda game, players, games, workers, policy: iter([
        {"game": game, "players": players, "policy": policy, "workers": 1, "games": games, "seconds": 263.2,
         "games_per_second": games / 263.2, "compile_seconds": 17.0}]))
    bench = simcore_cli("bench", "dice", "--games", 100)
    assert bench.exit_code == 0, bench.output
    assert "│  263.20 │    0.38 │     17.00 │" in bench.stdout


def test_stats_calls_a_file_it_cannot_read_a_results_file(tmp_path):
    (tmp_path / "README.md").write_text("# notes\n")
    result = simcore_cli("stats", tmp_path / "README.md")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: results file {tmp_path / 'README.md'}: unknown extension '.md' " \
                                    "(use .parquet, .pq or .csv)"
