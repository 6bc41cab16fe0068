"""A replay prints an Ark move as its whole path: from the tile the Ark stood on through every tile
it enters (CA-7.5, CA-7.7; the game record holds only the tiles entered, CA-12.11)."""
import re
from pathlib import Path

import numpy as np
import pytest

from simcore import registry
from simcore.boardgames.carcassonne import describe
from simcore.boardgames.carcassonne import spec as carcassonne
from golden_tool import regen

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
ARK_CASES = [case for case in regen.CASES if case.game == "carcassonne-ark"]
MOVE = re.compile(r"  \w+ moves the Ark (\d+) steps?: (.*)")
ENTRY = "  the Ark enters the board at "


def golden_lines(case):
    return (GOLDEN_DIR / case.filename).read_text(encoding="utf-8").splitlines()


def cells(text):
    return [tuple(int(v) for v in cell.strip("()").split(",")) for cell in text.split(" -> ")]


def test_an_ark_move_is_printed_from_where_the_ark_stood():
    lines = golden_lines(ARK_CASES[0])
    turn = lines.index("turn 17: Red draws ARK-24, places it at (-1,2) turned 90°")
    # turn 13 left the Ark at (1,0), passing back over its start tile (-1,-1) on the way (AMB-08)
    assert lines[turn + 1] == "  Red moves the Ark 5 steps: (1,0) -> (0,0) -> (-1,0) -> (-2,0) -> (-2,1) -> (-2,2)"


@pytest.mark.parametrize("case", ARK_CASES, ids=lambda case: case.filename)
def test_every_ark_move_starts_where_the_entry_or_the_last_move_left_the_ark(case):
    ark, moves = None, 0
    for line in golden_lines(case):
        if line.startswith(ENTRY):
            assert ark is None                                                # CA-7.3: it enters once
            ark = cells(line[len(ENTRY):])[0]
        elif match := MOVE.fullmatch(line):
            path = cells(match[2])
            assert path[0] == ark, line
            assert len(path) == int(match[1]) + 1 and 1 <= int(match[1]) <= 5, line      # CA-7.5
            assert all(abs(x - u) + abs(y - v) == 1 for (x, y), (u, v) in zip(path, path[1:])), line
            assert path[-1] != path[0], line
            ark, moves = path[-1], moves + 1                                  # CA-7.7
    assert moves >= 5                       # not vacuous: each golden game moves the Ark often


def test_the_tracked_ark_ends_where_the_game_left_it():
    """The start of every move is worked out from the record; after the last move it must be the
    state's own Ark cell."""
    spec = registry.get("carcassonne-ark")
    data = spec.load_data(None)
    moved = 0
    for index in range(4):
        st = carcassonne.play_logged(data, 3, np.zeros(3, dtype=np.int8), 7, index)
        turns = describe.read_log(st).turns
        before = describe.ark_cells_before(turns)
        assert len(before) == int(st["round_no"]) + 1 and before[0] == -1    # CA-2.4
        assert before[-1] == int(st["ark_cell"]), index
        moved += sum(turn.moves_ark for turn in turns)
    assert moved > 0
