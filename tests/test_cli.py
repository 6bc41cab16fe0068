import dataclasses
import io
import json
import re
import time

import numpy as np
import pytest
from click.testing import CliRunner

from rich.console import Console

from cli import main as cli_main
from cli.main import main
from simcore import results, runner
from dice_game import DICE, play_batch


def simcore(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def json_of(result):
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_games_lists_every_game_with_its_provenance(dice):
    listed = json_of(simcore("games", "--json"))
    assert listed == [{"id": "dice", "name": "Dice (test game)", "min_players": 2, "max_players": 4,
                       "default_players": 3, "policies": ["random", "greedy"], "parameters": {},
                       "categories": ["dice", "bonus"],
                       "provenance": {"dice": "rulebook"}}]
    table = simcore("games")
    assert table.exit_code == 0 and "rulebook" in table.stdout


def test_simulate_json_prints_only_the_summary(dice):
    result = simcore("simulate", "dice", "-p", 2, "-n", 50, "--seed", 4, "--json", "--quiet")
    summary = json_of(result)
    assert result.stderr == ""
    assert (summary["game"], summary["players"], summary["games"], summary["seed"]) == ("dice", 2, 50, 4)
    assert summary["games_per_second"] > 0
    assert [s["seat"] for s in summary["seats"]] == [0, 1]
    assert summary["seats"][0]["points"].keys() == {"dice", "bonus"}
    assert [p["policy"] for p in summary["policies"]] == ["random"]


def test_simulate_prints_a_table_per_seat_and_a_progress_bar(dice):
    result = simcore("simulate", "dice", "-n", 30, "--policy", "greedy", "--policy", "random", "--policy", "random")
    assert result.exit_code == 0, result.output
    for text in ("seat", "win rate", "95% CI", "mean score", "dice", "bonus", "games/s", "greedy"):
        assert text in result.stdout
    assert "30/30" in result.stderr


@pytest.mark.parametrize("name", ["out.parquet", "out.csv"])
def test_simulate_writes_the_rows_and_stats_reads_them_back(dice, tmp_path, name):
    path = tmp_path / name
    ran = json_of(simcore("simulate", "dice", "-n", 40, "--rotate-seats", "--policy", "greedy", "--policy", "random",
                          "-p", 2, "--chunk-size", 7, "-o", path, "--json", "--quiet"))
    assert len(results.read(str(path))) == 80
    read = json_of(simcore("stats", path, "--json"))
    assert {**read, "games_per_second": None} == {**ran, "games_per_second": None}
    by_policy = simcore("stats", path, "--by", "policy")
    assert by_policy.exit_code == 0 and "greedy" in by_policy.stdout and "seat" not in by_policy.stdout


def test_replay_prints_the_move_log(dice):
    result = simcore("replay", "dice", "-p", 2, "--seed", 3, "--index", 5, "--policy", "greedy")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("seat 0: ") and "turns: 4" in result.stdout


def test_bench_json_prints_one_record_per_game_players_and_workers(dice):
    result = simcore("bench", "dice", "-p", 2, "-p", 4, "--games", 100, "--workers", 2, "--json")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 0
    assert [(r["players"], r["workers"]) for r in records] == [(2, 1), (2, 2), (4, 1), (4, 2)]
    assert all(r.keys() == {"game", "players", "policy", "workers", "games", "seconds", "games_per_second",
                            "compile_seconds"} for r in records)


def test_run_plays_a_scenario_and_out_overrides_its_file(dice, tmp_path):
    scenario = tmp_path / "dice.toml"
    scenario.write_text(f'game = "dice"\nplayers = 4\ngames = 12\nseed = 9\npolicies = ["greedy"]\n'
                        f'out = "{tmp_path / "scenario.csv"}"\n')
    summary = json_of(simcore("run", scenario, "--json", "--quiet"))
    assert (summary["players"], summary["games"], summary["seed"]) == (4, 12, 9)
    assert len(results.read(str(tmp_path / "scenario.csv"))) == 48
    assert simcore("run", scenario, "-o", tmp_path / "other.parquet", "--quiet").exit_code == 0
    assert len(results.read(str(tmp_path / "other.parquet"))) == 48


def test_a_scenario_names_its_strategies_with_labels(dice, tmp_path):
    scenario = tmp_path / "dice.toml"
    scenario.write_text('game = "dice"\nplayers = 2\ngames = 10\npolicies = ["two_dice=greedy", "one_die=random"]\n'
                        f'out = "{tmp_path / "labelled.csv"}"\n')
    summary = json_of(simcore("run", scenario, "--json", "--quiet"))
    assert [s["policy"] for s in summary["seats"]] == ["two_dice", "one_die"]
    plain = json_of(simcore("simulate", "dice", "-p", "2", "-n", "10", "--policy", "greedy", "--policy", "random",
                            "--json", "--quiet"))
    assert [s["mean_score"] for s in summary["seats"]] == [s["mean_score"] for s in plain["seats"]]


def error_cases(tmp):
    (tmp / "bad.toml").write_text("game = [unclosed\n")
    (tmp / "unknown_key.toml").write_text('game = "dice"\ncolour = "red"\n')
    (tmp / "bad.json").write_text('{"tiles": 5')
    (tmp / "foreign.csv").write_text("a,b\n1,2\n")
    (tmp / "folder.parquet").mkdir()
    return [
        ["simulate", "no-such-game", "-n", "10"],
        ["simulate", "dice", "-p", "1", "-n", "10"],
        ["simulate", "dice", "-p", "9", "-n", "10"],
        ["simulate", "dice", "-n", "0"],
        ["simulate", "dice", "-n", "-5"],
        ["simulate", "dice", "-n", "ten"],
        ["simulate", "dice", "-n", "10", "--policy", "no-such-policy"],
        ["simulate", "dice", "-p", "3", "-n", "10", "--policy", "greedy", "--policy", "random"],
        ["simulate", "dice", "-n", "10", "--workers", "0"],
        ["simulate", "dice", "-n", "10", "--seed", "-1"],
        ["simulate", "dice", "-n", "10", "-o", "/nonexistent-dir/x.parquet"],
        ["simulate", "dice", "-n", "10", "-o", str(tmp / "x.xlsx")],
        ["simulate", "dice", "-n", "10", "-o", str(tmp / "folder.parquet")],
        ["simulate", "dice", "-n", "10", "--data", str(tmp / "bad.json")],
        ["simulate", "dice", "-n", "10", "--data", str(tmp / "missing.json")],
        ["simulate", "dice", "--no-such-option"],
        ["simulate"],
        ["run", str(tmp / "missing.toml")],
        ["run", str(tmp / "bad.toml")],
        ["run", str(tmp / "unknown_key.toml")],
        ["stats", str(tmp / "missing.parquet")],
        ["stats", str(tmp / "foreign.csv")],
        ["stats", str(tmp / "foreign.csv"), "--by", "colour"],
        ["replay", "dice", "--index", "-1"],
        ["replay", "dice", "-p", "7"],
        ["bench", "no-such-game"],
        ["no-such-command"],
    ]


def test_every_user_mistake_is_one_error_line_and_status_2(dice, tmp_path):
    wrong = []
    for args in error_cases(tmp_path):
        result = CliRunner().invoke(main, args)
        lines = result.stderr.splitlines()
        if (result.exit_code != 2 or len(lines) != 1 or not lines[0].startswith("error: ")
                or "Traceback" in result.output or not isinstance(result.exception, SystemExit)):
            wrong.append((args, result.exit_code, result.stderr))
    assert wrong == []


def test_ctrl_c_keeps_the_games_written_and_says_how_many(register, tmp_path):
    def interrupted_at_game_20(data, players, seat_policies, seed, first_index, search=None):
        if first_index >= 20:
            raise KeyboardInterrupt   # reaches the main thread the way Ctrl-C does: while it waits for this chunk
        return play_batch(data, players, seat_policies, seed, first_index)

    register(dataclasses.replace(DICE, play_batch=interrupted_at_game_20))
    path = tmp_path / "cut.parquet"
    result = simcore("simulate", "dice", "-n", 100, "--chunk-size", 10, "--workers", 2, "-o", path)
    assert result.exit_code == 130
    assert result.stderr.strip().splitlines()[-1] == f"interrupted: {path} holds 20 games (0..19)"
    assert sorted(set(results.read(str(path))["game_index"])) == list(range(20))


@pytest.mark.parametrize("args", [[], ["--help"], ["simulate", "--help"]])
def test_help_is_not_an_error(dice, args):
    result = simcore(*args)
    assert result.exit_code == 0 and result.stdout.startswith("Usage: ")


@pytest.mark.parametrize("name", ["big.parquet", "big.csv"])
def test_an_existing_results_file_is_never_replaced_silently(dice, tmp_path, name):
    path = tmp_path / name
    assert simcore("simulate", "dice", "-n", 30, "-o", path, "--quiet").exit_code == 0
    again = simcore("simulate", "dice", "-n", 10, "-o", path, "--quiet")
    assert again.exit_code == 2
    assert again.stderr == (f"error: {path} already holds 30 games: give --resume to continue it or --force to "
                            f"replace it\n")
    assert len(results.read(str(path))) == 90                 # the 30 games are still there
    replaced = simcore("simulate", "dice", "-n", 10, "-o", path, "--quiet", "--force")
    assert replaced.exit_code == 0 and len(results.read(str(path))) == 30
    both = simcore("simulate", "dice", "-n", 10, "-o", path, "--resume", "--force")
    assert both.exit_code == 2 and both.stderr == ("error: give --resume (continue the file) or --force (replace "
                                                   "it), not both\n")


def test_a_file_that_is_no_results_file_is_not_replaced_either(dice, tmp_path):
    path = tmp_path / "notes.csv"
    path.write_text("my,own\n1,2\n")
    refused = simcore("simulate", "dice", "-n", 10, "-o", path, "--quiet")
    assert refused.exit_code == 2
    assert refused.stderr == (f"error: {path} already exists (not a simcore results file): give --resume to "
                              f"continue it or --force to replace it\n")
    assert path.read_text() == "my,own\n1,2\n"


def test_a_scenario_run_refuses_to_replace_its_results_file(dice, tmp_path):
    scenario = tmp_path / "s.toml"
    out = tmp_path / "s.parquet"
    scenario.write_text(f'game = "dice"\ngames = 12\nout = "{out}"\n')
    assert simcore("run", scenario, "--quiet").exit_code == 0
    refused = simcore("run", scenario, "--quiet")
    assert refused.exit_code == 2 and "already holds 12 games" in refused.stderr
    assert simcore("run", scenario, "--quiet", "--force").exit_code == 0
    scenario.write_text(f'game = "dice"\ngames = 20\nout = "{out}"\n')
    resumed = simcore("run", scenario, "--resume")
    assert resumed.exit_code == 0 and f"resumed {out}: it held 12 games, played 8 more" in resumed.stderr


def test_the_python_api_refuses_to_replace_a_file_unless_told(dice, tmp_path):
    import simcore as api
    from simcore.registry import UserError
    path = str(tmp_path / "api.parquet")
    api.simulate("dice", games=5, out=path)
    with pytest.raises(UserError, match="already holds 5 games"):
        api.simulate("dice", games=5, out=path)
    assert len(api.simulate("dice", games=8, out=path, resume=True)) == 24
    assert len(api.simulate("dice", games=2, out=path, force=True)) == 6


def test_check_reports_a_clean_run(dice):
    result = simcore("check", "dice", "-n", 200, "--seed", 3, "--quiet")
    assert result.exit_code == 0, result.output
    assert result.stdout == ("checked 200 games of dice, 3 players, seed 3, random, data standard-dice: "
                             "0 with a broken invariant\n")
    assert json_of(simcore("check", "dice", "-n", 50, "--json", "--quiet")) == {
        "game": "dice", "players": 3, "games": 50, "violations": 0, "first_violation": None}


def test_check_finds_a_broken_invariant_and_says_how_to_replay_it(dice, tmp_path):
    loaded = tmp_path / "loaded.json"
    loaded.write_text('{"id": "loaded", "faces": 7}')
    result = simcore("check", "dice", "-p", 2, "-n", 100, "--seed", 1, "--data", loaded,
                     "--policy", "greedy", "--policy", "random", "--quiet")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    broken = int(lines[0].split(": ")[1].split()[0])
    assert 0 < broken < 100 and lines[0].startswith("checked 100 games of dice, 2 players, seed 1, greedy, random")
    first = json_of_status(simcore("check", "dice", "-p", 2, "-n", 100, "--seed", 1, "--data", loaded,
                                   "--policy", "greedy", "--policy", "random", "--json", "--quiet"), 1)
    assert first["violations"] == broken
    v = first["first_violation"]
    assert (v["code"], v["unit"], v["what"]) == (1, "seat", "a seat scored more than 6 a die")
    assert lines[1] == f"first: game {v['game_index']}, seat {v['step']}: invariant 1, a seat scored more than 6 a die"
    assert lines[2] == f"replay it: {v['replay']}"
    assert v["replay"] == (f"simcore replay dice -p 2 --seed 1 --index {v['game_index']} --policy greedy "
                           f"--policy random --data {loaded}")
    # the first violation is the lowest game index: every game before it is clean
    seats = np.array([[1, 0]] * v["game_index"], np.int8)
    assert not DICE.check_batch({"faces": 7}, 2, seats, 1, 0).violation.any()


def test_check_refuses_bad_input_in_one_line(dice):
    result = simcore("check", "nogame", "-n", 5)
    assert result.exit_code == 2 and result.stderr.startswith("error: unknown game 'nogame'")


def json_of_status(result, status):
    assert result.exit_code == status, result.output
    return json.loads(result.stdout)


def test_while_kernels_compile_the_line_says_so_and_the_time_ticks(dice, monkeypatch):
    """A first run compiles for a minute or more: after COMPILING_AFTER seconds without a game
    the progress line says what is happening and how long it takes, in 80 columns, with the
    elapsed time; the bar and the game count appear once games are played."""
    monkeypatch.setattr(cli_main, "COMPILING_AFTER", 0.05)
    plan = runner.plan("dice", players=2, games=10)
    screen = io.StringIO()
    console = Console(file=screen, width=80, force_terminal=True, color_system=None)
    with cli_main.progress_bar(plan, False, console=console) as progress:
        time.sleep(0.3)
        progress(4)
        time.sleep(0.2)
    lines = [re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line).rstrip()
             for line in screen.getvalue().replace("\r", "\n").splitlines()]
    compiling = [line for line in lines if "compiling" in line][-1]
    assert compiling.startswith(f"compiling Dice (test game), once per install: about {DICE.compile_seconds} s")
    assert compiling.endswith("0:00:00") and "games" not in compiling and len(compiling) <= 80
    playing = [line for line in lines if line][-1]
    assert playing.startswith("dice 2p ") and "4/10 games" in playing and len(playing) <= 80
