"""Tile files are validated at load (CA-12.3, CA-16.5), and the Ark's outcome buffers hold the
largest boards the rule switches allow (CA-7.5, CA-12.10)."""
import copy
import json

import numpy as np
import pytest

from simcore.boardgames.carcassonne import components, rules, state
from simcore.registry import UserError

MEADOW = {"id": "MEADOW", "count": 72, "is_start": True, "edges": {"N": "F", "E": "F", "S": "F", "W": "F"},
          "field_segments": [{"half_edges": ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"]}]}


def shipped(ruleset):
    with open(components.default_path(ruleset)) as fh:
        return json.load(fh)


def test_shipped_sets_have_72_tiles_and_one_start_tile():
    for ruleset in ("base", "ark"):
        tiles = components.from_document(shipped(ruleset), ruleset)
        assert int(tiles.tables[0]["count"].sum()) == 72                        # CA-1.1, CB-1.1
        assert tiles.ids[int(tiles.tables[0]["start_type"])] == ("D" if ruleset == "base" else "ARK-27")


def test_a_start_tile_without_copies_is_rejected():
    doc = shipped("ark")
    start = next(t for t in doc["tiles"] if t["is_start"])
    other = next(t for t in doc["tiles"] if not t["is_start"])
    start["count"], other["count"] = 0, other["count"] + start["count"]
    with pytest.raises(UserError, match="ARK-27: the start tile's count"):
        components.from_document(doc, "ark")


def test_a_field_side_split_between_two_fields_is_rejected():
    tile = copy.deepcopy(MEADOW)
    tile["field_segments"] = [{"half_edges": ["NL", "WL", "WR"]},
                              {"half_edges": ["NR", "EL", "ER", "SL", "SR"]}]
    with pytest.raises(UserError, match="N edge is a field side split"):
        components.from_document({"tiles": [tile]}, "ark")


@pytest.mark.parametrize("seat", [5, -1, 2**40])
def test_start_player_must_be_a_seat(seat):
    with pytest.raises(UserError, match="START_PLAYER must be a seat 0..4"):
        components.from_document({"rules": {"START_PLAYER": seat}, "tiles": [MEADOW]}, "ark")


def brute_force_outcomes(cells, start, reenter):
    """Distinct (entered cells, end cell) of every legal Ark path (CA-7.5), straight from the rule."""
    outcomes = set()

    def walk(path):
        if len(path) > 1 and path[-1] != start:
            outcomes.add((frozenset(c for c in path[1:] if c != start), path[-1]))
        if len(path) == 6:
            return
        x, y = path[-1]
        for nxt in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)):
            if nxt not in cells or nxt in path[1:] or (nxt == start and not reenter):
                continue
            walk(path + [nxt])

    walk([start])
    return outcomes


@pytest.mark.parametrize("reenter, expected", [(False, 388), (True, 532)])
def test_ark_outcomes_on_a_full_7x7_block(reenter, expected):
    # CA-7.5 and AMB-08: 49 tiles around the Ark; with re-entry of the start allowed there are
    # more outcomes than the 436 paths a default board can ever have
    tiles = components.from_document({"rules": {"ARK_MAY_REENTER_START": reenter}, "tiles": [MEADOW]}, "ark",
                                     check_set=False)
    tt = tiles.tables[0]
    ws = state.new_state()
    st = ws[0]
    rules.clear(st, 2, np.zeros(5, dtype=np.int8))
    cells = {(x, y) for x in range(-3, 4) for y in range(-3, 4)}
    for x, y in sorted(cells, key=lambda c: abs(c[0]) + abs(c[1])):
        rules.place_tile(st, tt, 0, 0, state.cell_of(x, y))
    st["ark_cell"] = state.cell_of(0, 0)
    n = rules.list_ark_outcomes(st, tt)
    found = set()
    for k in range(n):
        path = [state.xy_of(int(c)) for c in st["ark_path"][k, :st["ark_len"][k]]]
        found.add((frozenset(c for c in path if c != (0, 0)), path[-1]))
    expect = brute_force_outcomes(cells, (0, 0), reenter)
    assert len(expect) == expected
    assert n == expected and found == expect
