"""The command line on the real Carcassonne games, the way a user runs it (subprocess)."""
import json
import os

import pandas as pd
import pytest

import cli_tool
from cli_tool import assert_one_error_line, simcore


def test_simulate_writes_one_row_per_game_and_seat(tmp_path):
    out = tmp_path / "ark4.parquet"
    p = simcore("simulate", "carcassonne-ark", "-p", 4, "-n", 300, "--seed", 1, "-o", out, "--quiet")
    assert p.returncode == 0, p.stderr
    df = pd.read_parquet(out)
    assert len(df) == 1200
    assert list(df.columns[:10]) == ["game_index", "seed", "game", "players", "seat", "policy", "score", "rank",
                                     "win", "win_share"]
    pts = [c for c in df.columns if c.startswith("pts_")]
    assert pts == ["pts_roads", "pts_cities", "pts_temples", "pts_fields", "pts_ark"]
    assert (df[pts].sum(axis=1) == df["score"]).all()
    assert set(df["data"]) == {"ark-reconstructed-v1"}
    assert (df.groupby("game_index")["win_share"].sum().round(9) == 1).all()
    assert df["turns"].between(36, 71).all()        # 71 tiles to draw; discards shorten the game


def test_simulate_json_summary_compares_policies():
    p = simcore("simulate", "carcassonne", "-p", 2, "-n", 400, "--seed", 3, "--policy", "greedy",
                "--policy", "random", "--rotate-seats", "--json", "--quiet")
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    assert summary["game"] == "carcassonne" and summary["players"] == 2 and summary["games"] == 400
    greedy = next(x for x in summary["policies"] if x["policy"] == "greedy")
    assert greedy["win_rate"] > 0.9
    assert set(summary["seats"][0]["points"]) == {"roads", "cities", "monasteries", "fields"}


def test_replay_is_row_i_of_simulate(tmp_path):
    out = tmp_path / "r.csv"
    assert simcore("simulate", "carcassonne", "-p", 3, "-n", 4, "--seed", 9, "-o", out, "--quiet").returncode == 0
    df = pd.read_csv(out)
    p = simcore("replay", "carcassonne", "-p", 3, "--seed", 9, "--index", 2)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    finals = [l for l in lines if "(seat " in l]
    scores = [int(l.split(":")[1].split()[0]) for l in finals]
    assert scores == df[df.game_index == 2].sort_values("seat")["score"].tolist()
    assert any(l.startswith("turn 1: Red draws") for l in lines)
    assert "final map" in p.stdout


def test_games_json_names_reconstructed_ark_tiles():
    p = simcore("games", "--json")
    assert p.returncode == 0, p.stderr
    games = {g["id"]: g for g in json.loads(p.stdout)}
    assert {"carcassonne", "carcassonne-ark"} <= set(games)
    assert "reconstructed" in json.dumps(games["carcassonne-ark"])
    assert (games["carcassonne"]["min_players"], games["carcassonne"]["max_players"]) == (2, 5)
    assert games["carcassonne"]["policies"] == ["random", "greedy", "flatmc", "mcts"]
    assert games["carcassonne"]["provenance"]["tiles.edges"] == "sourced"


TOP = '{"tile_set_id": "t", "name": "t", "source": "test", "reconstructed": false, '


@pytest.mark.parametrize("content, needle", [
    ('{"tiles": 5', "not valid JSON"),
    ('{"tiles": []}', "the top level: 'tile_set_id' is a required property"),
    (TOP + '"tiles": []}', "tiles: [] should be non-empty"),
    (TOP + '"tiles": [{"id": "X1", "count": 72, "is_start": true, "edges": {"N": "C", "E": "F", "S": "F", "W": "F"},'
     ' "temple": false, "monastery": false, "city_segments": [], "road_segments": [], "field_segments": [],'
     ' "provenance": {"count": "sourced", "edges": "sourced", "segments": "sourced", "scrolls": "sourced",'
     ' "oases": "sourced", "sheep": "sourced", "wolves": "sourced", "temple": "sourced", "monastery": "sourced",'
     ' "is_start": "sourced"}}]}', "tile X1: the N edge (C) has a part no segment covers"),
    ('{"rules": {"NO_SUCH_SWITCH": true}, "tiles": [{"id": "A"}]}', "the top level: 'tile_set_id' is a required"),
    (TOP + '"rules": {"NO_SUCH_SWITCH": true}, "tiles": [{"id": "A"}]}',
     "rules: Additional properties are not allowed ('NO_SUCH_SWITCH' was unexpected)"),
])
def test_bad_tile_file_is_one_line_and_status_2(tmp_path, content, needle):
    data = tmp_path / "tiles.json"
    data.write_text(content)
    assert_one_error_line(simcore("simulate", "carcassonne-ark", "-n", 5, "--data", data, "--quiet"), needle)


def test_rule_switch_in_a_data_file_changes_the_game(tmp_path):
    from simcore.boardgames.carcassonne.components import default_path
    doc = json.load(open(default_path("ark")))
    doc["rules"] = {"PROPHET_DOUBLES_INCOMPLETE": True}
    data = tmp_path / "ark_doubling.json"
    data.write_text(json.dumps(doc))
    args = ["simulate", "carcassonne-ark", "-p", 2, "-n", 300, "--seed", 4, "--json", "--quiet"]
    plain = json.loads(simcore(*args).stdout)
    doubled = json.loads(simcore(*args, "--data", data).stdout)
    assert doubled["seats"][0]["points"]["cities"] > plain["seats"][0]["points"]["cities"]


def test_every_shipped_scenario_runs(tmp_path):
    import glob
    for path in sorted(glob.glob("scenarios/carcassonne*.toml")):
        out = tmp_path / (os.path.basename(path) + ".parquet")     # simcore run refuses to replace a file
        text = open(path).read().replace("games = 20000", "games = 50")
        small = tmp_path / "small.toml"
        small.write_text(text)
        p = simcore("run", small, "-o", out, "--quiet", "--json")
        assert p.returncode == 0, (path, p.stderr)
        assert json.loads(p.stdout)["games"] == 50


@pytest.mark.parametrize("game, players", [("carcassonne", 2), ("carcassonne-ark", 5)])
def test_check_plays_the_shipped_data_clean_with_greedy_and_random_seats(game, players):
    cli_tool.assert_check_clean(game, players)
