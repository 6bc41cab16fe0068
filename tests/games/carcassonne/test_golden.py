"""Golden playthroughs (DESIGN.md, Correctness; OpenSpiel's playthroughs): a few seeded games of
both rule sets, written as text move logs with the score after every turn, are regenerated and
diffed against the files in golden/. The generator is tools/regen_golden.py; after an intended
rule, data or policy change run `python tools/regen_golden.py` and review the diff."""
from pathlib import Path

import pytest

from golden_tool import regen

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


def test_the_cases_cover_both_rule_sets_player_counts_and_policies():
    games = {case.game for case in regen.CASES if case.game.startswith("carcassonne")}
    assert games == {"carcassonne", "carcassonne-ark"}
    for game in games:
        cases = [case for case in regen.CASES if case.game == game]
        assert {case.players for case in cases} == {2, 4}
        assert any(set(case.policies) == {"random"} for case in cases)
        assert any(set(case.policies) == {"random", "greedy"} for case in cases)
    assert regen.GOLDEN_DIR == GOLDEN_DIR


@pytest.mark.parametrize("case", [c for c in regen.CASES if c.game.startswith("carcassonne")],
                         ids=lambda case: case.filename)
def test_playthrough_matches_its_golden_file(case):
    problem = regen.difference(case)
    if problem:
        pytest.fail(problem, pytrace=False)


def test_a_golden_file_logs_every_turn_with_its_score():
    case = [c for c in regen.CASES if c.game.startswith("carcassonne")][-1]
    lines = (GOLDEN_DIR / case.filename).read_text(encoding="utf-8").splitlines()
    turns = [line for line in lines if line.startswith("turn ")]
    scores = [line for line in lines if line.startswith("  score: ")]
    assert len(turns) == len(scores) > 0
    assert turns[0].startswith("turn 1: ")
    assert "final scoring:" in lines and "final scores:" in lines
    # the last running score plus the final-scoring events gives the final scores
    last = {name: int(points) for name, points in
            (part.split() for part in scores[-1][len("  score: "):].split(", "))}
    final = lines.index("final scoring:")
    for line in lines[final + 1:lines.index("final scores:")]:
        points, name = line.split(":")[0].split()
        last[name] += int(points)
    totals = {line.split()[0]: int(line.split(":")[1].split()[0])
              for line in lines[lines.index("final scores:") + 1:] if "(seat " in line}
    assert totals == last
