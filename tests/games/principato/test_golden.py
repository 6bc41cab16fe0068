"""What a Principato golden playthrough must show (the files themselves are diffed by
tests/test_golden.py). The all-random file is pinned line by line at its start and end; of the
mixed file (greedy seats, still being tuned) only what chance decides is pinned, and its structure."""
from pathlib import Path

import pytest

from golden_tool import regen

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
CASES = [case for case in regen.CASES if case.game == "principato"]
SEATS = ("Red", "Blue", "Green", "Yellow")
STACKS = {"monument": [4] * 5 + [3] * 5 + [2] * 5, "book": [5] * 5 + [4] * 5 + [3] * 5,
          "painting": [6] * 5 + [5] * 5 + [4] * 5}                                  # DATA-5, highest first


def golden_lines(case):
    return (GOLDEN_DIR / case.filename).read_text(encoding="utf-8").splitlines()


def test_the_cases_are_two_and_four_players():
    assert [(case.players, case.policies, case.seed, case.index) for case in CASES] == [
        (2, ("random", "random"), 2024, 0), (4, ("greedy", "random", "greedy", "random"), 2024, 7)]


def test_the_all_random_file_begins_and_ends_with_these_lines():
    lines = golden_lines(CASES[0])
    assert lines[:13] == [
        "# golden playthrough, checked by tests/games/principato/test_golden.py; regenerate: "
        "python tools/regen_golden.py",
        "Principato, 2 players, seed 2024, game 0, data principato-reconstructed-1",
        "seats: Red=random, Blue=random",
        "start player Red; goal cards Red: Fertile Soil, Villa; Blue: Armory, Palace",
        "Year 1 (first turn: Red)",
        "  turn 1: Red",
        "    Red takes a favour: into the church",                                   # PR-8
        "    Red activates Market",                                                   # S1 (DATA-3)
        "      stores 1 money",
        "      1 money lost (storage full)",                                          # 1 bank: 2 money (PR-2.2)
        "      exchanges it for Harvest from slot 1",                                 # PR-6.3
        "    Palazzo leaves the display",                                             # PR-11.1
        "    3 Money is drawn",
    ]
    assert "    Catapult (years 1-2) is drawn" in lines                               # by its name, not CATAPULT_Y12#22
    first_scoring = lines.index("  Military scoring 1 (year 1)")
    assert lines[first_scoring + 1:first_scoring + 3] == [                         # a tie at 0: (5 + 0) / 2 up
        "    Red: strength 0, +3 VP, military VP 3  [VP 3]",
        "    Blue: strength 0, +3 VP, military VP 3  [VP 3]"]
    assert lines[-5:] == [
        "    Red: strength 4, +5 VP, military VP 19  [VP 19]",
        "    Blue: strength 0, +0 VP, military VP 9  [VP 9]",
        "final score (military, monuments, books, paintings, armory, fertile_soil, municipal_law, stronghold, "
        "chapel, city_hall, villa, palace; tie-break stored cubes)",
        "  Red: 19 VP = 19 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0",
        "  Blue: 9 VP = 9 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0",
    ]


def test_the_mixed_file_deals_what_chance_deals():
    lines = golden_lines(CASES[1])
    assert lines[1:5] == [
        "Principato, 4 players, seed 2024, game 7, data principato-reconstructed-1",
        "seats: Red=greedy, Blue=random, Green=greedy, Yellow=random",
        "start player Yellow; goal cards Red: Fertile Soil, Villa; Blue: Armory, Palace; Green: Stronghold, "
        "City Hall; Yellow: Municipal Law, Chapel",
        "Year 1 (first turn: Yellow)",
    ]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.filename)
def test_a_golden_file_shows_three_years_of_turns_five_scorings_and_scores_that_add_up(case):
    lines = golden_lines(case)
    players = case.players
    first = lines[3].split(";")[0].removeprefix("start player ")
    start = SEATS.index(first)
    # INV-10: 7 turns per player and year in continuous rotation, each year begun by the start player
    assert [line for line in lines if line.startswith("Year ")] == [f"Year {y} (first turn: {first})" for y in (1, 2, 3)]
    turns = [line for line in lines if line.startswith("  turn ")]
    assert turns == [f"  turn {k + 1}: {SEATS[(start + k) % players]}" for k in range(21 * players)]
    # INV-9: five scorings, one at each year's end and one per scoring card of decks 2 and 3
    scorings = [line for line in lines if line.startswith("  Military scoring ")]
    assert scorings[0] == "  Military scoring 1 (year 1)"
    assert [line.split(" (")[0] for line in scorings] == [f"  Military scoring {k}" for k in range(1, 6)]
    assert [line[-7:-1] for line in scorings] == ["year 1", "year 2", "year 2", "year 3", "year 3"]
    # every seat's strength line at every scoring; military VP only grow (INV-8), awards >= 0 (INV-11)
    military = {seat: 0 for seat in SEATS[:players]}
    for at in (lines.index(line) for line in scorings):
        block = []
        for line in lines[at + 1:]:
            if not line.startswith("    "):
                break
            if ": strength " in line:
                block.append(line)
        assert sorted(line.split(":")[0].strip() for line in block) == sorted(SEATS[:players])
        for line in block:
            seat, rest = line.strip().split(": strength ")
            award = int(rest.split("+")[1].split()[0])
            total = int(rest.split("military VP ")[1].split()[0])
            assert award >= 0 and total == military[seat] + award, line
            military[seat] = total
    # INV-12: the tokens of each type are taken in stack order
    for kind, stack in STACKS.items():
        taken = [int(line.split(" worth ")[1].split()[0]) for line in lines if f"takes a {kind} worth" in line]
        assert taken == stack[:len(taken)], kind
    # the final score: the categories add up, and the military category is the seat's military VP
    final = lines.index(next(line for line in lines if line.startswith("final score (")))
    block = lines[final + 1:]
    assert [line.split(":")[0].strip() for line in block] == list(SEATS[:players])
    for line in block:
        seat, rest = line.strip().split(": ")
        total, parts = rest.split(" VP = ")
        points = [int(p) for p in parts.split(" + ")]
        assert len(points) == 12 and int(total) == sum(points)
        assert points[0] == military[seat]
