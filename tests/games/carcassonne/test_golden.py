"""What a Carcassonne golden playthrough must show: every turn with its running score, adding up
to the final scores (the files themselves are diffed by tests/test_golden.py)."""
from pathlib import Path

from golden_tool import regen

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


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
