"""What a Notre Dame golden playthrough must show (the files themselves are diffed by
tests/test_golden.py)."""
from pathlib import Path

from golden_tool import regen

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
CASES = [case for case in regen.CASES if case.game == "notre-dame"]


def test_a_golden_file_shows_nine_rounds_and_scores_that_add_up():
    lines = (GOLDEN_DIR / CASES[-1].filename).read_text(encoding="utf-8").splitlines()
    rounds = [line for line in lines if line.startswith("round ")]
    assert [int(line.split()[1].rstrip(",")) for line in rounds] == list(range(1, 10))   # ND-3.1
    assert sum(line == f"end of stage {s}" for s in (1, 2, 3) for line in lines) == 3     # ND-13
    final = lines.index(next(line for line in lines if line.startswith("final score (")))
    for line in lines[final + 1:]:
        total, parts = line.split(" VP = ")
        points = parts.split(";")[0].split(" + ")
        assert int(total.split(": ")[1]) == sum(int(p) for p in points)   # score = sum of categories
    # the last round's standings give the same VP as the final score
    standings = {line.split(":")[0].strip(): int(line.split("VP ")[1].split(",")[0])
                 for line in lines[:final] if ": VP " in line}
    finals = {line.split(":")[0].strip(): int(line.split(": ")[1].split()[0]) for line in lines[final + 1:]}
    assert standings == finals
