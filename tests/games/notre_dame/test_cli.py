"""The command line on Notre Dame, the way a user runs it (subprocess): the commands of the issue,
every player count, one-line errors for bad input, the games list and the shipped scenarios."""
import json

import pandas as pd
import pytest

from simcore.boardgames.notre_dame import components
from simcore.datafile import shipped_path
from simcore.boardgames.notre_dame.state import CATEGORIES
import cli_tool
from cli_tool import (
    assert_one_error_line, assert_ranked_by_score_then, assert_shipped_scenarios_run, simcore, spoiled)

PTS = [f"pts_{c}" for c in CATEGORIES]


def test_simulate_writes_one_row_per_game_and_seat(tmp_path):
    out = tmp_path / "nd4.parquet"
    p = simcore("simulate", "notre-dame", "--players", 4, "--games", 2000, "--seed", 1, "--out", out, "--quiet")
    assert p.returncode == 0, p.stderr
    df = pd.read_parquet(out)
    assert len(df) == 8000
    assert [c for c in df.columns if c.startswith("pts_")] == PTS == [
        "pts_residence", "pts_messages", "pts_donations", "pts_payout", "pts_persons", "pts_park_bonus", "pts_plague"]
    assert {"plague_outbreaks", "bribes", "messages_taken", "cards_forfeited", "gold_end", "gold_stolen",
            "messages_left"} <= set(df.columns)
    assert (df[PTS].sum(axis=1) == df["score"]).all()
    assert set(df["data"]) == {"notre-dame-v2"}
    games = df.groupby("game_index")
    assert (games["rank"].min() == 1).all()
    assert (df["win"] == (df["rank"] == 1)).all()
    assert (games["win_share"].sum().round(9) == 1).all()
    assert (games["messages_taken"].sum() + games["messages_left"].first() == 16).all()   # 4 colours x 4
    assert (games["gold_end"].sum() <= 25).all()
    assert df["pts_plague"].between(-2 * df["plague_outbreaks"], 0).all()                # -2 VP, floor 0
    # equal scores: more gold ranks higher (ND-14.2; the personal supply decides only after that)
    assert_ranked_by_score_then(df, "gold_end")


def test_replay_prints_nine_rounds_and_the_final_score_of_the_simulated_game(tmp_path):
    out = tmp_path / "r.csv"
    assert simcore("simulate", "notre-dame", "-p", 2, "-n", 4, "--seed", 5, "-o", out, "--quiet").returncode == 0
    df = pd.read_csv(out)
    for index, extra in ((0, []), (3, ["--index", 3])):                   # the command first
        p = simcore("replay", "notre-dame", "--players", 2, "--seed", 5, *extra)
        assert p.returncode == 0, p.stderr
        lines = p.stdout.splitlines()
        assert [l.split(",")[0] for l in lines if l.startswith("round ")] == [f"round {r}" for r in range(1, 10)]
        at = next(i for i, l in enumerate(lines) if l.startswith("final score"))
        scores = [int(l.split(":")[1].split()[0]) for l in lines[at + 1:]]
        assert scores == df[df.game_index == index].sort_values("seat")["score"].tolist()


def constant_three(doc):
    doc["rules"]["CONSTANT_RATS"] = True
    doc["constant_rats"] = 3


def test_replay_header_gives_the_rats_the_data_put_in_play(tmp_path):
    p = simcore("replay", "notre-dame", "--players", 2, "--seed", 5)
    assert p.returncode == 0, p.stderr
    assert "street graph core, rats per card (stages A 12, B 13, C 12)" in p.stdout.splitlines()
    data = tmp_path / "nd.json"
    data.write_text(spoiled(components.default_path(), constant_three))
    p = simcore("replay", "notre-dame", "--players", 2, "--seed", 5, "--data", data)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "street graph core, rats 3 on every card (stages A 27, B 27, C 27)" in lines
    assert all(line.endswith("R = 9") for line in lines if line.startswith("round "))


def test_two_player_replays_name_messages_by_the_district_they_lie_in():      # ND-2.2
    """Seats Red and Blue sit in districts 0 and 2; the neutral districts 1 and 3 hold the tiles of
    colours nobody plays, green and yellow (as the pictures draw them)."""
    names = set()
    for seed in range(1, 6):
        p = simcore("replay", "notre-dame", "--players", 2, "--seed", seed)
        assert p.returncode == 0, p.stderr
        for line in p.stdout.splitlines():
            if " message M" in line:
                whose, market = line.split("takes ")[1].split(" message ")[0], line.split(" at ")[1][0]
                names.add((whose, market))
    assert names <= {("Red's", "0"), ("Blue's", "2"), ("the neutral green", "1"), ("the neutral yellow", "3")}
    assert {whose for whose, _ in names} >= {"Red's", "Blue's"}


def test_a_data_file_off_its_stage_totals_warns_and_plays(tmp_path):
    data = tmp_path / "nd.json"
    data.write_text(spoiled(components.default_path(), lambda doc: doc["persons"][0].update(rats=0)))
    p = simcore("simulate", "notre-dame", "-n", 5, "--data", data, "--quiet")
    assert p.returncode == 0, p.stderr
    assert p.stderr.splitlines()[0] == ("warning: the persons' rats put 9/10/9 rats in stage(s) A/B/C (the six "
                                        "brown cards and the stage's three grey ones), rats_per_stage says "
                                        "12/13/12 (sourced)")


def test_the_earlier_rats_file_plays_as_notre_dame_v1(tmp_path):
    out = tmp_path / "nd.csv"
    rats45 = shipped_path(components.PACKAGE, "notre_dame_rats45.json")
    p = simcore("simulate", "notre-dame", "-n", 5, "--data", rats45, "-o", out, "--quiet")
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr
    assert set(pd.read_csv(out)["data"]) == {"notre-dame-v1"}


def test_greedy_against_two_random_seats_rotated():
    p = simcore("simulate", "notre-dame", "-p", 3, "-n", 3000, "--policy", "greedy", "--policy", "random",
                "--policy", "random", "--rotate-seats", "--json", "--quiet")
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    assert summary["game"] == "notre-dame" and summary["players"] == 3 and summary["games"] == 3000
    rate = {x["policy"]: x["win_rate"] for x in summary["policies"]}
    assert rate["greedy"] > 0.8 > rate["random"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_player_count_runs(players):
    p = simcore("simulate", "notre-dame", "-p", players, "-n", 200, "--seed", 2, "--json", "--quiet")
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    assert (summary["players"], summary["games"]) == (players, 200)
    assert [s["seat"] for s in summary["seats"]] == list(range(players))
    assert set(summary["seats"][0]["points"]) == set(CATEGORIES)


def grey_card_with_four_rats(doc):
    next(p for p in doc["persons"] if p["colour"] == "grey")["rats"] = 4


@pytest.mark.parametrize("args, needle", [
    (["-p", 1], "2 to 5 players, not 1"),
    (["-p", 6], "2 to 5 players, not 6"),
    (["--policy", "clever"], "unknown policy 'clever'"),
    (["--data", "no/such/file.json"], "does not exist"),
])
def test_bad_arguments_are_one_error_line_and_status_2(args, needle):
    assert_one_error_line(simcore("simulate", "notre-dame", "-n", 5, "--quiet", *args), needle)


@pytest.mark.parametrize("content, needle", [
    ('{"persons": [', "not valid JSON"),
    (spoiled(components.default_path(), lambda doc: doc["persons"].pop()),
     "persons: Too few items match the given schema (expected at least 15 but only 14 matched)"),
    (spoiled(components.default_path(), grey_card_with_four_rats), "persons.6.rats: 4 is greater than the maximum of 3"),
], ids=["malformed", "14 persons", "grey card with 4 rats"])
def test_bad_data_file_is_one_error_line_and_status_2(tmp_path, content, needle):
    data = tmp_path / "nd.json"
    data.write_text(content)
    assert_one_error_line(simcore("simulate", "notre-dame", "-n", 5, "--data", data, "--quiet"), needle)


def test_games_json_lists_notre_dame_with_categories_and_provenance():
    p = simcore("games", "--json")
    assert p.returncode == 0, p.stderr
    games = {g["id"]: g for g in json.loads(p.stdout)}
    nd = games["notre-dame"]
    assert nd["name"] == "Notre Dame"
    assert (nd["min_players"], nd["max_players"], nd["default_players"]) == (2, 5, 4)
    assert nd["policies"] == ["random", "greedy", "flatmc", "mcts"]
    assert nd["categories"] == list(CATEGORIES)
    provenance = nd["provenance"]
    assert provenance["rules"].startswith("rulebook")
    assert provenance["persons.effect"] == "rulebook"
    assert provenance["persons.rats"] == "reconstructed"             # no source gives each card's (§21.4)
    assert provenance["rats_per_stage"] == "sourced"                  # 12/13/12, a player's published count


def test_every_shipped_scenario_runs(tmp_path):
    assert_shipped_scenarios_run("notre-dame", (2, 3, 4, 5), tmp_path)


@pytest.mark.parametrize("game, players", [("notre-dame", 3)])
def test_check_plays_the_shipped_data_clean_with_greedy_and_random_seats(game, players):
    cli_tool.assert_check_clean(game, players)
