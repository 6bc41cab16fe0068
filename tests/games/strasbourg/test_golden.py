"""What a Strasbourg golden playthrough must show (the files themselves are diffed by
tests/test_golden.py)."""
from pathlib import Path

from golden_tool import regen

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
CASES = [case for case in regen.CASES if case.game == "strasbourg"]


def test_a_golden_file_shows_five_rounds_of_nine_sub_phases_and_scores_that_add_up():
    lines = (GOLDEN_DIR / CASES[-1].filename).read_text(encoding="utf-8").splitlines()
    rounds = [line for line in lines if line.startswith("round ")]
    assert [int(line.split()[1].rstrip(",")) for line in rounds] == [1, 2, 3, 4, 5]        # SB-4.1
    for letter in "ABCDEFG":                                                               # SB-6.1
        assert sum(line.startswith(f"  {letter}: start player") for line in lines) == 5
    assert sum(line.startswith("  H: ") for line in lines) == 5
    assert sum(line.startswith("  I: ") for line in lines) == 5
    final = lines.index(next(line for line in lines if line.startswith("final score (")))
    for line in lines[final + 1:]:
        total, parts = line.split(" VP = ")
        assert int(total.split(": ")[1]) == sum(int(p) for p in parts.split(" + "))
