"""The command line on Principato, the way a user runs it (subprocess): the commands of the issue,
one-line errors for bad input, the games list and the shipped scenarios."""
import json

import pandas as pd
import pytest

from simcore.boardgames.principato import components
from simcore.boardgames.principato.state import CATEGORIES, GAME_COLUMNS, SEAT_COLUMNS
import cli_tool
from cli_tool import (
    assert_one_error_line, assert_ranked_by_score_then, assert_shipped_scenarios_run, simcore, spoiled)

PTS = [f"pts_{c}" for c in CATEGORIES]
GOAL_PTS = [f"pts_{g}" for g in components.GOAL_CATEGORIES]


def test_simulate_writes_one_row_per_game_and_seat(tmp_path):
    out = tmp_path / "pr4.parquet"
    p = simcore("simulate", "principato", "--players", 4, "--games", 2000, "--seed", 1, "--out", out, "--quiet")
    assert p.returncode == 0, p.stderr
    df = pd.read_parquet(out)
    assert len(df) == 8000
    assert [c for c in df.columns if c.startswith("pts_")] == PTS == [
        "pts_military", "pts_monuments", "pts_books", "pts_paintings", "pts_armory", "pts_fertile_soil",
        "pts_municipal_law", "pts_stronghold", "pts_chapel", "pts_city_hall", "pts_villa", "pts_palace"]
    assert list(SEAT_COLUMNS) + list(GAME_COLUMNS) == [
        "turn_position", "goal_g1", "goal_g2", "scorings_won", "strength_total", "units_recruited",
        "units_discarded", "cubes_lost", "favour_taken", "exchanges", "stored_cubes_end",
        "start_player", "turns", "scorings", "catapults_left", "favour_left", "cards_boxed"]
    assert set(SEAT_COLUMNS) | set(GAME_COLUMNS) <= set(df.columns)
    assert (df[PTS].sum(axis=1) == df["score"]).all()                          # PR-15.2
    assert (df[PTS] >= 0).all().all()
    assert set(df["data"]) == {"principato-reconstructed-1"}
    # game columns: 84 turns, 5 scorings (INV-9, INV-10), one card boxed per turn (PR-11.1)
    assert (df["turns"] == 84).all() and (df["scorings"] == 5).all() and (df["cards_boxed"] == 84).all()
    assert df["catapults_left"].between(0, 19).all() and df["favour_left"].between(0, 12).all()
    games = df.groupby("game_index")
    for column in GAME_COLUMNS:
        assert (games[column].nunique() == 1).all(), column
    assert sorted(df["start_player"].unique()) == [0, 1, 2, 3]                 # PR-3.9
    assert (df["turn_position"] == (df["seat"] - df["start_player"]) % 4).all()
    # goal cards: one of G1 (0..3) and one of G2 (4..7) each, all different (PR-3.5); a goal
    # category scores only for a seat holding that card
    assert df["goal_g1"].between(0, 3).all() and df["goal_g2"].between(4, 7).all()
    assert (games["goal_g1"].nunique() == 4).all() and (games["goal_g2"].nunique() == 4).all()
    for g, column in enumerate(GOAL_PTS):
        scored = df[df[column] != 0]
        assert ((scored["goal_g1"] == g) | (scored["goal_g2"] == g)).all(), column
    assert (df["units_recruited"] >= df["units_discarded"]).all()              # INV-8: units leave by discard
    assert (games["scorings_won"].sum() >= 5).all() and df["scorings_won"].between(0, 5).all()
    assert (df["strength_total"] < 0).any()                                    # AMB-15
    assert (df[["cubes_lost", "favour_taken", "exchanges", "stored_cubes_end"]] >= 0).all().all()
    # standing: VP, then stored cubes (PR-15.3)
    assert (games["rank"].min() == 1).all()
    assert (df["win"] == (df["rank"] == 1)).all()
    assert (games["win_share"].sum().round(9) == 1).all()
    even = assert_ranked_by_score_then(df, "stored_cubes_end")
    assert (even.rank_x == even.rank_y).all()                                  # a shared win


def test_replay_prints_three_years_five_scorings_and_the_final_score_of_the_simulated_game(tmp_path):
    out = tmp_path / "r.csv"
    assert simcore("simulate", "principato", "-p", 2, "-n", 4, "--seed", 5, "-o", out, "--quiet").returncode == 0
    df = pd.read_csv(out)
    for index, extra in ((0, []), (3, ["--index", 3])):                   # the command first
        p = simcore("replay", "principato", "--players", 2, "--seed", 5, *extra)
        assert p.returncode == 0, p.stderr
        lines = p.stdout.splitlines()
        assert lines[0] == f"Principato, 2 players, seed 5, game {index}, data principato-reconstructed-1"
        assert lines[1] == "seats: Red=random, Blue=random"
        game = df[df.game_index == index].sort_values("seat")
        first = ("Red", "Blue")[int(game["start_player"].iloc[0])]
        assert lines[2].startswith(f"start player {first}; goal cards Red: ")
        assert [line for line in lines if line.startswith("Year ")] == [
            f"Year {y} (first turn: {first})" for y in (1, 2, 3)]                  # INV-10
        turns = [line for line in lines if line.startswith("  turn ")]
        assert len(turns) == 42 and turns[0] == f"  turn 1: {first}"
        assert [line.split(" (")[0] for line in lines if line.startswith("  Military scoring ")] == [
            f"  Military scoring {k}" for k in range(1, 6)]                        # INV-9
        at = lines.index("final score (" + ", ".join(CATEGORIES) + "; tie-break stored cubes)")
        block = lines[at + 1:]
        assert [line.split(":")[0] for line in block] == ["  Red", "  Blue"]
        scores = [int(line.split(":")[1].split()[0]) for line in block]
        points = [[int(x) for x in line.split(" VP = ")[1].split(" + ")] for line in block]
        assert scores == game["score"].tolist()
        assert points == game[PTS].values.tolist()


def test_replay_of_seed_5_shows_its_setup_and_first_turn():
    """Concrete lines of `simcore replay principato --players 2 --seed 5` (all random: the chance
    stream deals the goals and the start player, the decision stream the moves)."""
    p = simcore("replay", "principato", "--players", 2, "--seed", 5)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[:9] == [
        "Principato, 2 players, seed 5, game 0, data principato-reconstructed-1",
        "seats: Red=random, Blue=random",
        "start player Blue; goal cards Red: Armory, Villa; Blue: Fertile Soil, City Hall",
        "Year 1 (first turn: Blue)",
        "  turn 1: Blue",
        "    Blue takes a favour: into the church",
        "    Blue swaps Market into slot 0 and Field into slot 4",                  # the start cards S1, S2
        "    Market leaves the display",                                             # PR-11.3: denial
        "    Taxes is drawn",
    ]
    assert lines[-3:] == [
        "final score (military, monuments, books, paintings, armory, fertile_soil, municipal_law, stronghold, "
        "chapel, city_hall, villa, palace; tie-break stored cubes)",
        "  Red: 9 VP = 9 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0",
        "  Blue: 19 VP = 19 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0",
    ]
    assert "  Military scoring 5 (year 3)" in lines


def test_greedy_against_two_random_seats_rotated():
    p = simcore("simulate", "principato", "-p", 3, "-n", 2000, "--policy", "greedy", "--policy", "random",
                "--policy", "random", "--rotate-seats", "--json", "--quiet")
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    assert summary["game"] == "principato" and summary["players"] == 3 and summary["games"] == 2000
    rate = {x["policy"]: x["win_rate"] for x in summary["policies"]}
    assert rate["greedy"] > 1 / 3 > rate["random"]                        # above and below a fair 1 in 3
    games = {x["policy"]: x["games"] for x in summary["policies"]}
    assert games == {"greedy": 2000, "random": 4000}
    assert [s["seat"] for s in summary["seats"]] == [0, 1, 2]
    assert [s["policy"] for s in summary["seats"]] == ["greedy, random"] * 3     # every seat played both
    assert set(summary["seats"][0]["points"]) == set(CATEGORIES)


def fewer_books(doc):
    doc["culture_tokens"]["book"] = doc["culture_tokens"]["book"][:-1]


def tiny_first_deck(doc):
    doc["year_decks"]["1"] = doc["year_decks"]["1"][:2]


def unknown_take(doc):
    doc["options"]["culture_take"] = "random"


@pytest.mark.parametrize("command", ["simulate", "replay"])
@pytest.mark.parametrize("players", [1, 5])
def test_player_counts_outside_two_to_four_are_one_error_line_and_status_2(command, players):
    extra = ["-n", 5, "--quiet"] if command == "simulate" else []
    assert_one_error_line(simcore(command, "principato", "-p", players, *extra),
                          f"principato is played by 2 to 4 players, not {players}")


@pytest.mark.parametrize("content, needle", [
    (None, "does not exist"),
    ('{"format": ', "not valid JSON"),
    (spoiled(components.default_path(), fewer_books),
     "culture_tokens.book: must list 15 token values, the supply's book pool (PR-1.2, DATA-5), found 14"),
    (spoiled(components.default_path(), tiny_first_deck),
     "year_decks.1: with 2 players the deck has 4 action cards after the removal of PR-3.2, it needs the "
     "display of 5 (PR-3.8)"),
    (spoiled(components.default_path(), unknown_take),
     "options.culture_take: 'random' is not one of ['highest_first', 'lowest_first', 'choose']"),
], ids=["missing", "malformed", "14 books", "tiny deck 1", "culture_take"])
def test_bad_data_file_is_one_error_line_and_status_2(tmp_path, content, needle):
    data = tmp_path / "pr.json"
    if content is not None:
        data.write_text(content)
    assert_one_error_line(simcore("simulate", "principato", "-n", 5, "--data", data, "--quiet"), needle)


def test_games_lists_principato_with_its_deck_as_reconstructed():
    p = simcore("games", "--json")
    assert p.returncode == 0, p.stderr
    games = {g["id"]: g for g in json.loads(p.stdout)}
    pr = games["principato"]
    assert pr["name"] == "Principato"
    assert (pr["min_players"], pr["max_players"], pr["default_players"]) == (2, 4, 4)
    assert pr["policies"] == ["random", "greedy", "flatmc", "mcts"]
    assert pr["categories"] == list(CATEGORIES)
    provenance = pr["provenance"]
    assert provenance["rules"].startswith("rulebook")
    for part in ("supply.tiles", "supply.cubes", "storage.food_per_farm", "military_vp_by_rank.vp",
                 "strength.values", "scoring_cards.count"):
        assert provenance[part] == "rulebook", part
    for part in ("year_decks.effect", "year_decks.exchange", "year_decks.marker", "year_decks.copies",
                 "start_cards.effect", "culture_tokens.values"):                  # DATA-3, DATA-4, DATA-5
        assert provenance[part] == "reconstructed", part
    text = simcore("games")
    assert text.returncode == 0, text.stderr
    block = text.stdout.split("principato: Principato", 1)[1].splitlines()
    assert block[1].split() == ["players", "2-4", "(default", "4)"]
    assert any(line.split() == ["year_decks.copies", "reconstructed"] for line in block)


def test_every_shipped_scenario_runs(tmp_path):
    assert_shipped_scenarios_run("principato", (2, 3, 4), tmp_path)


@pytest.mark.parametrize("game, players", [("principato", 2)])
def test_check_plays_the_shipped_data_clean_with_greedy_and_random_seats(game, players):
    cli_tool.assert_check_clean(game, players)
