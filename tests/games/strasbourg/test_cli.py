"""The command line on Strasbourg, the way a user runs it (subprocess): the commands of the issue,
one-line errors for bad input, the games list and the shipped scenarios."""
import json

import pandas as pd
import pytest

from simcore.boardgames.strasbourg import components
from simcore.boardgames.strasbourg.state import CATEGORIES, GAME_COLUMNS, ROUNDS, SEAT_COLUMNS
import cli_tool
from cli_tool import (
    assert_one_error_line, assert_ranked_by_score_then, assert_shipped_scenarios_run, simcore, spoiled)

PTS = [f"pts_{c}" for c in CATEGORIES]


def test_simulate_writes_one_row_per_game_and_seat(tmp_path):
    out = tmp_path / "sb4.parquet"
    p = simcore("simulate", "strasbourg", "--players", 4, "--games", 2000, "--seed", 1, "--out", out, "--quiet")
    assert p.returncode == 0, p.stderr
    df = pd.read_parquet(out)
    assert len(df) == 8000
    assert [c for c in df.columns if c.startswith("pts_")] == PTS == [
        "pts_council", "pts_city", "pts_chapels", "pts_buildings", "pts_privileges", "pts_tasks_fulfilled",
        "pts_tasks_failed"]
    assert list(SEAT_COLUMNS) + list(GAME_COLUMNS) == [
        "city_members", "tasks_kept", "tasks_met", "cards_returned", "privileges_spent", "coins_end",
        "start_player", "final_start_player"]
    assert set(SEAT_COLUMNS) | set(GAME_COLUMNS) <= set(df.columns)
    assert (df[PTS].sum(axis=1) == df["score"]).all()
    assert set(df["data"]) == {"strasbourg-p0-v1"}
    assert (df["pts_city"] == df["city_members"]).all()                            # 1 VP per member
    assert (df["tasks_met"] <= df["tasks_kept"]).all() and df["tasks_kept"].between(1, 5).all()
    assert (df["coins_end"] >= 0).all()
    assert df["start_player"].between(0, 3).all() and df["final_start_player"].between(0, 3).all()
    games = df.groupby("game_index")
    assert (games["start_player"].nunique() == 1).all()
    assert (games["rank"].min() == 1).all()
    assert (df["win"] == (df["rank"] == 1)).all()
    assert (games["win_share"].sum().round(9) == 1).all()
    # one winner a game, unless the winners tie on VP and on family members in the city (SB-12.3)
    winners = df[df["rank"] == 1].groupby("game_index")
    shared = winners.size() > 1
    assert (winners["score"].nunique()[shared] == 1).all()
    assert (winners["city_members"].nunique()[shared] == 1).all()
    even = assert_ranked_by_score_then(df, "city_members")
    assert (even.rank_x == even.rank_y).all()


def test_replay_prints_five_rounds_and_the_final_score_of_the_simulated_game(tmp_path):
    out = tmp_path / "r.csv"
    assert simcore("simulate", "strasbourg", "-p", 3, "-n", 4, "--seed", 2, "-o", out, "--quiet").returncode == 0
    df = pd.read_csv(out)
    for index, extra in ((0, []), (3, ["--index", 3])):                   # the command first
        p = simcore("replay", "strasbourg", "--players", 3, "--seed", 2, *extra)
        assert p.returncode == 0, p.stderr
        lines = p.stdout.splitlines()
        assert lines[0].startswith(f"Strasbourg, 3 players, seed 2, game {index}")
        rounds = [line.split(",")[0] for line in lines if line.startswith("round ")]
        assert rounds == [f"round {r}" for r in range(1, ROUNDS + 1)]
        at = next(i for i, line in enumerate(lines) if line.startswith("final score"))
        block = lines[at + 1:]
        assert len(block) == 3
        scores = [int(line.split(":")[1].split()[0]) for line in block]
        points = [[int(x) for x in line.split(" VP = ")[1].split(" + ")] for line in block]
        game = df[df.game_index == index].sort_values("seat")
        assert scores == game["score"].tolist()
        assert points == game[PTS].values.tolist()


def test_greedy_against_four_random_seats_rotated():
    p = simcore("simulate", "strasbourg", "-p", 5, "-n", 2000, "--policy", "greedy", "--policy", "random",
                "--policy", "random", "--policy", "random", "--policy", "random", "--rotate-seats", "--json", "--quiet")
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    assert summary["game"] == "strasbourg" and summary["players"] == 5 and summary["games"] == 2000
    rate = {x["policy"]: x["win_rate"] for x in summary["policies"]}
    assert rate["greedy"] > 0.2 > rate["random"]                          # above and below a fair 1 in 5
    assert [s["seat"] for s in summary["seats"]] == list(range(5))
    assert set(summary["seats"][0]["points"]) == set(CATEGORIES)


def cell_entry(doc, r, c):
    return next(cell for cell in doc["board"]["cells"] if (cell["r"], cell["c"]) == (r, c))


def six_sites(doc):
    """The site at (1,1), inside the Smiths' district, becomes a Smiths space."""
    cell_entry(doc, 1, 1).update(kind="guild", guild="SMITHS", price=5)


def smiths_split(doc):
    """(2,1) joins the Vintners: the Smiths space (3,1) below it is cut off from its district."""
    cell_entry(doc, 2, 1)["guild"] = "VINTNERS"


@pytest.mark.parametrize("args, needle", [
    (["-p", 2], "strasbourg is played by 3 to 5 players, not 2"),
    (["-p", 6], "strasbourg is played by 3 to 5 players, not 6"),
    (["--data", "no/such/file.json"], "does not exist"),
])
def test_bad_arguments_are_one_error_line_and_status_2(args, needle):
    assert_one_error_line(simcore("simulate", "strasbourg", "-n", 5, "--quiet", *args), needle)


@pytest.mark.parametrize("content, needle", [
    ('{"board": [', "not valid JSON"),
    (spoiled(components.default_path(), six_sites), "board.cells: 6 building sites, the city has exactly 7 (SB-2.2)"),
    (spoiled(components.default_path(), smiths_split), "the SMITHS spaces form 2 separate districts"),
], ids=["malformed", "6 sites", "smiths split"])
def test_bad_data_file_is_one_error_line_and_status_2(tmp_path, content, needle):
    data = tmp_path / "sb.json"
    data.write_text(content)
    assert_one_error_line(simcore("simulate", "strasbourg", "-n", 5, "--data", data, "--quiet"), needle)


def test_games_json_lists_strasbourg_with_categories_and_provenance():
    p = simcore("games", "--json")
    assert p.returncode == 0, p.stderr
    games = {g["id"]: g for g in json.loads(p.stdout)}
    sb = games["strasbourg"]
    assert sb["name"] == "Strasbourg"
    assert (sb["min_players"], sb["max_players"], sb["default_players"]) == (3, 5, 4)
    assert sb["policies"] == ["random", "greedy", "flatmc", "mcts"]
    assert sb["categories"] == list(CATEGORIES)
    provenance = sb["provenance"]
    assert provenance["rules"].startswith("rulebook")
    assert provenance["influence.cards_per_value"] == "rulebook"                    # 1..6, four each
    for part in ("board.layout", "board.prices", "tasks.prestige", "goods.values"):     # placeholder P0
        assert provenance[part] == "reconstructed", part


def test_every_shipped_scenario_runs(tmp_path):
    assert_shipped_scenarios_run("strasbourg", (3, 4, 5), tmp_path)


@pytest.mark.parametrize("game, players", [("strasbourg", 5)])
def test_check_plays_the_shipped_data_clean_with_greedy_and_random_seats(game, players):
    cli_tool.assert_check_clean(game, players)
