import dataclasses
import signal
import threading

import numpy as np
import pandas as pd
import pytest

import simcore
from simcore import registry, results, runner
from simcore.contract import UserError
from dice_game import DICE, RANDOM, play_batch


def run_frame(**kwargs):
    return runner.run(runner.plan("dice", **kwargs), keep_rows=True).frame


def test_assign_seats_gives_every_game_the_same_seats_without_rotation():
    seats = runner.assign_seats(np.array([1, 0, 0], np.int8), first=10, count=2, rotate=False)
    assert seats.dtype == np.int8
    assert seats.tolist() == [[1, 0, 0], [1, 0, 0]]


def test_rotated_seat_s_of_game_i_plays_policy_s_plus_i_mod_players():
    seats = runner.assign_seats(np.array([1, 0, 0], np.int8), first=0, count=4, rotate=True)
    assert seats.tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]]
    later = runner.assign_seats(np.array([1, 0, 0], np.int8), first=7, count=1, rotate=True)
    assert later.tolist() == [[0, 0, 1]]   # game 7: (s + 7) % 3 == (s + 1) % 3


def test_one_policy_name_applies_to_every_seat_and_n_names_set_seats_in_order():
    assert runner.seat_policies(DICE, 3, None) == ("random",) * 3
    assert runner.seat_policies(DICE, 3, ["greedy"]) == ("greedy",) * 3
    assert runner.seat_policies(DICE, 3, ["greedy", "random", "greedy"]) == ("greedy", "random", "greedy")


@pytest.mark.parametrize("kwargs, message", [
    ({"players": 1}, "2 to 4 players, not 1"),
    ({"players": 5}, "2 to 4 players, not 5"),
    ({"games": 0}, "games must be at least 1"),
    ({"seed": -1}, "seed must be at least 0"),
    ({"seed": 2**63}, "seed must be at most"),
    ({"workers": 0}, "workers must be at least 1"),
    ({"chunk_size": 0}, "chunk size must be at least 1"),
    ({"policies": ["clever"]}, "unknown policy 'clever'"),
    ({"players": 3, "policies": ["greedy", "random"]}, "2 policies given for 3 players"),
    ({"data": "/no/such/dice.json"}, "data file /no/such/dice.json does not exist"),
])
def test_plan_rejects_bad_arguments_with_a_user_error(dice, kwargs, message):
    with pytest.raises(UserError, match=message):
        runner.plan("dice", **kwargs)


def test_unknown_game_names_the_known_ones(dice):
    with pytest.raises(UserError, match=r"unknown game 'chess' \(known: dice\)"):
        runner.plan("chess")


def test_malformed_data_files_are_user_errors(dice, tmp_path):
    (tmp_path / "syntax.json").write_text('{"id": ')
    (tmp_path / "no_id.json").write_text('{"faces": 6}')
    with pytest.raises(UserError, match="syntax.json"):
        runner.plan("dice", data=str(tmp_path / "syntax.json"))
    with pytest.raises(UserError, match="no_id.json: no 'id'"):
        runner.plan("dice", data=str(tmp_path / "no_id.json"))


def test_a_data_file_names_the_data_column(dice, tmp_path):
    (tmp_path / "loaded.json").write_text('{"id": "loaded-dice"}')
    frame = run_frame(games=3, data=str(tmp_path / "loaded.json"))
    assert set(frame["data"]) == {"loaded-dice"}


def test_results_do_not_depend_on_workers_or_chunk_size(dice):
    kwargs = dict(players=3, games=150, seed=11, policies=["greedy", "random", "random"], rotate_seats=True)
    reference = run_frame(workers=1, chunk_size=7, **kwargs)
    assert len(reference) == 150 * 3
    for workers, chunk_size in [(2, 7), (2, 1000), (1, 1000), (2, 1)]:
        pd.testing.assert_frame_equal(run_frame(workers=workers, chunk_size=chunk_size, **kwargs), reference)


def test_game_i_is_the_game_played_alone_at_index_i(dice):
    frame = run_frame(players=2, games=40, seed=3, workers=2, chunk_size=6)
    for i in (0, 17, 39):
        alone = play_batch(None, 2, np.array([[RANDOM, RANDOM]], np.int8), 3, i)
        assert frame.loc[frame["game_index"] == i, "score"].tolist() == alone.pts[0].sum(axis=1).tolist()


def test_rotated_runs_seat_each_policy_in_each_seat_equally_often(dice):
    frame = run_frame(players=2, games=10, policies=["greedy", "random"], rotate_seats=True)
    assert frame["policy"].tolist()[:4] == ["greedy", "random", "random", "greedy"]
    assert frame.groupby(["seat", "policy"]).size().tolist() == [5, 5, 5, 5]


def test_chunks_arrive_in_game_order_and_progress_counts_them(dice):
    done = []
    plan = runner.plan("dice", games=95, workers=2, chunk_size=10)
    outcome = runner.run(plan, progress=done.append)
    assert done == [0] + list(range(10, 100, 10)) + [95]     # 0: the kernels are ready
    assert outcome.games == 95 and outcome.tally.games == 95
    assert [c.first for c in runner.play_chunks(plan)] == list(range(0, 95, 10))


def test_warm_up_plays_one_game_in_the_calling_thread_before_any_worker(register):
    calls = []

    def recording_play_batch(data, players, seat_policies, seed, first_index, search=None):
        calls.append((threading.current_thread() is threading.main_thread(), len(seat_policies)))
        return play_batch(data, players, seat_policies, seed, first_index)

    register(dataclasses.replace(DICE, play_batch=recording_play_batch))
    runner.run(runner.plan("dice", games=20, workers=2, chunk_size=5))
    assert calls[0] == (True, 1)
    assert all(not in_main for in_main, _ in calls[1:]) and len(calls) == 5


def test_run_writes_the_same_rows_it_returns(dice, tmp_path):
    path = str(tmp_path / "r.parquet")
    outcome = runner.run(runner.plan("dice", games=30, chunk_size=8), out=path, keep_rows=True)
    pd.testing.assert_frame_equal(results.read(path), outcome.frame)


@pytest.mark.parametrize("name", ["cut.parquet", "cut.csv"])
def test_ctrl_c_leaves_a_readable_file_holding_a_prefix_of_the_games(dice, tmp_path, name):
    def interrupt_after_two_chunks(done):
        if done == 20:
            raise KeyboardInterrupt

    path = str(tmp_path / name)
    plan = runner.plan("dice", games=100, workers=2, chunk_size=10)
    with pytest.raises(runner.Interrupted) as stop:
        runner.run(plan, out=path, progress=interrupt_after_two_chunks)
    assert (stop.value.out, stop.value.games) == (path, 20)
    complete = runner.run(plan, keep_rows=True).frame
    pd.testing.assert_frame_equal(results.read(path), complete[complete["game_index"] < 20])


def test_ctrl_c_during_a_write_lets_the_chunk_finish_first(dice, tmp_path, monkeypatch):
    write = results.CsvWriter.write

    def write_while_ctrl_c_arrives(self, frame):
        if frame["game_index"].iloc[0] == 30:
            # Ctrl-C in the middle of writing this chunk: the handler a real SIGINT runs, called at
            # this exact point (os.kill would let a loaded machine run it some bytecodes later)
            signal.getsignal(signal.SIGINT)(signal.SIGINT, None)
        write(self, frame)

    monkeypatch.setattr(results.CsvWriter, "write", write_while_ctrl_c_arrives)
    path = str(tmp_path / "cut.csv")
    # Python's own Ctrl-C handler, as in a user's process: a test run before this one in the same
    # worker may have left another (an event loop's, which does nothing), and then no Ctrl-C came
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(runner.Interrupted) as stop:
            runner.run(runner.plan("dice", games=100, workers=2, chunk_size=10), out=path)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert stop.value.games == 40
    assert results.read(path)["game_index"].tolist() == list(np.repeat(np.arange(40), 3))


def test_replay_plays_the_game_of_that_index(dice):
    frame = run_frame(players=2, games=6, seed=5, policies=["greedy", "random"], rotate_seats=True)
    log = simcore.replay("dice", players=2, seed=5, index=3, policies=["greedy", "random"], rotate_seats=True)
    row = frame[frame["game_index"] == 3]
    assert log[:2] == [f"seat {s}: {d} from dice, {b} bonus" for s, d, b in row[["seat", "pts_dice", "pts_bonus"]].values]
    with pytest.raises(UserError, match="index must be at least 0"):
        simcore.replay("dice", index=-1)


def test_simulate_returns_every_row_and_its_speed(dice):
    frame = simcore.simulate("dice", players=4, games=25, seed=2, policies=["greedy"], workers=2)
    assert len(frame) == 100 and set(frame["policy"]) == {"greedy"}
    assert frame.attrs["games_per_second"] > 0


def test_measure_speed_gives_one_record_per_worker_count(dice):
    records = list(runner.measure_speed("dice", games=50, workers=[1, 2]))
    assert [r["workers"] for r in records] == [1, 2]
    assert set(records[0]) == {"game", "players", "policy", "workers", "games", "seconds",
                               "games_per_second", "compile_seconds"}
    assert (records[0]["game"], records[0]["players"], records[0]["policy"]) == ("dice", 3, "random")


def test_scenario_files_become_plan_arguments(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('game = "dice"\nplayers = 2\ngames = 10\npolicies = ["greedy", "random"]\nrotate_seats = true\n')
    assert runner.read_scenario(str(path)) == {"game": "dice", "players": 2, "games": 10,
                                               "policies": ["greedy", "random"], "rotate_seats": True}


@pytest.mark.parametrize("text, message", [
    ('game = "dice"\nplayer = 2\n', "unknown key 'player'"),
    ('game = "dice"\nplayers = "two"\n', "'players' must be an integer"),
    ('game = "dice"\nplayers = true\n', "'players' must be"),
    ('game = "dice"\npolicies = [1, 2]\n', "list of policy names"),
    ('players = 2\n', "no 'game' key"),
    ('game = [unclosed\n', "not valid TOML"),
])
def test_malformed_scenarios_are_user_errors(tmp_path, text, message):
    path = tmp_path / "s.toml"
    path.write_text(text)
    with pytest.raises(UserError, match=message):
        runner.read_scenario(str(path))


def test_a_missing_scenario_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="cannot read"):
        runner.read_scenario(str(tmp_path / "none.toml"))


@pytest.mark.parametrize("game", ["carcassonne", "carcassonne-ark", "notre-dame", "strasbourg", "principato"])
def test_real_games_do_not_depend_on_workers_or_chunk_size(game):
    """docs/architecture.md, Determinism: the same rows whatever --workers and --chunk-size, and they are the
    games the spec's batch kernel plays."""
    def frame(workers, chunk_size):
        plan = runner.plan(game, players=3, games=100, seed=555, policies=["random", "greedy", "random"],
                           rotate_seats=True, workers=workers, chunk_size=chunk_size)
        return runner.run(plan, keep_rows=True).frame

    one = frame(1, 100)
    assert len(one) == 300 and one["game_index"].tolist() == [i for i in range(100) for _ in range(3)]
    pd.testing.assert_frame_equal(frame(2, 13), one)
    pd.testing.assert_frame_equal(frame(2, 100), one)
    spec = registry.get(game)
    seats = runner.assign_seats(np.array([0, 1, 0], np.int8), 0, 100, True)
    direct = spec.play_batch(spec.load_data(None), 3, seats, 555, 0)
    assert one["score"].tolist() == direct.pts.sum(axis=2).ravel().tolist()


def test_simcore_games_stays_the_registry_after_a_game_is_loaded():
    """Loading a game's package once replaced the function simcore.games() by the subpackage of
    the same name (issue 16): the packages now live in simcore.boardgames."""
    registry.get("strasbourg")                       # imports simcore.boardgames.strasbourg
    assert callable(simcore.games)
    assert {"carcassonne", "carcassonne-ark", "notre-dame", "strasbourg", "principato"} <= set(simcore.games())
    assert simcore.games()["strasbourg"].name == "Strasbourg"


def test_resuming_an_unreadable_single_parquet_file_says_what_to_do(dice, tmp_path):
    path = tmp_path / "killed.parquet"
    path.write_bytes(b"PAR1" + bytes(100))              # what an older simcore killed mid-run left behind
    with pytest.raises(UserError, match=r"^cannot resume .*killed.parquet: it is a single Parquet file that cannot be "
                                        r"read, .* give --force to replace it$"):
        runner.run(runner.plan("dice", games=10), out=str(path), resume=True)
    assert runner.run(runner.plan("dice", games=10), out=str(path), force=True).games == 10
    assert results.games_in(str(path)) == 10
