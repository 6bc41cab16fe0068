"""Tile files are validated at load (CA-12.3, CA-16.5), and the Ark's outcome buffers hold the
largest boards the rule switches allow (CA-7.5, CA-12.10)."""
import copy
import json

import numpy as np
import pytest

from simcore.boardgames.carcassonne import components, rules, state
from simcore.contract import UserError

PROVENANCE = {key: "rulebook" for key in ("count", "edges", "segments", "scrolls", "oases", "sheep", "wolves",
                                          "temple", "monastery", "is_start")}
MEADOW = {"id": "MEADOW", "count": 72, "is_start": True, "edges": {"N": "F", "E": "F", "S": "F", "W": "F"},
          "temple": False, "monastery": False, "city_segments": [], "road_segments": [],
          "field_segments": [{"half_edges": ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"], "sheep": 0,
                              "wolves": 0}],
          "provenance": PROVENANCE}


def meadows(tile=None, **top):
    """A tile document of 72 meadows (or of `tile`), with top-level keys replaced by `top`."""
    return {"tile_set_id": "meadows", "name": "72 meadows", "source": "test", "reconstructed": False,
            "tiles": [tile or MEADOW]} | top


def shipped(ruleset):
    with open(components.default_path(ruleset)) as fh:
        return json.load(fh)


def refusal(doc, ruleset):
    with pytest.raises(UserError) as caught:
        components.from_document(doc, ruleset, "t.json")
    return str(caught.value)


def test_shipped_sets_have_72_tiles_and_one_start_tile():
    for ruleset in ("base", "ark"):
        tiles = components.from_document(shipped(ruleset), ruleset)
        assert int(tiles.tables[0]["count"].sum()) == 72                        # CA-1.1, CB-1.1
        assert tiles.ids[int(tiles.tables[0]["start_type"])] == ("D" if ruleset == "base" else "ARK-27")


@pytest.mark.parametrize("count, warnings", [
    (72, []),
    (60, ["the tile counts add up to 60 tiles, the box has 72 (CA-1.1): playing a variant"]),
    (128, ["the tile counts add up to 128 tiles, the box has 72 (CA-1.1): playing a variant"]),
    (1, ["the tile counts add up to 1 tile, the box has 72 (CA-1.1): playing a variant"]),
])
def test_a_set_of_1_to_128_tiles_loads_and_one_not_of_72_is_warned(count, warnings):
    tiles = components.from_document(meadows(MEADOW | {"count": count}), "ark")
    assert int(tiles.tables[0]["count"].sum()) == count and tiles.warnings == warnings


@pytest.mark.parametrize("start, other", [(0, 0), (100, 29)])
def test_a_set_of_more_than_128_tiles_or_none_is_refused(start, other):
    doc = meadows() | {"tiles": [MEADOW | {"count": start}, MEADOW | {"id": "M2", "count": other, "is_start": False}]}
    assert refusal(doc, "ark") == (
        f"tile file t.json: the counts add up to {start + other} tiles; a set holds 1 to 128 (the box has 72)")


def test_a_start_tile_without_copies_is_rejected():
    doc = shipped("ark")
    start = next(t for t in doc["tiles"] if t["is_start"])
    other = next(t for t in doc["tiles"] if not t["is_start"])
    start["count"], other["count"] = 0, other["count"] + start["count"]
    with pytest.raises(UserError, match="ARK-27: the start tile's count"):
        components.from_document(doc, "ark")


def test_a_field_side_split_between_two_fields_is_rejected():
    tile = copy.deepcopy(MEADOW)
    tile["field_segments"] = [{"half_edges": ["NL", "WL", "WR"], "sheep": 0, "wolves": 0},
                              {"half_edges": ["NR", "EL", "ER", "SL", "SR"], "sheep": 0, "wolves": 0}]
    with pytest.raises(UserError, match="N edge is a field side split"):
        components.from_document(meadows(tile), "ark")


@pytest.mark.parametrize("seat, expected", [(5, "5 is greater than the maximum of 4"),
                                            (-1, "-1 is less than the minimum of 0"),
                                            (2**40, "1099511627776 is greater than the maximum of 4")])
def test_start_player_must_be_a_seat(seat, expected):
    assert refusal(meadows(rules={"START_PLAYER": seat}), "ark") == f"tile file t.json: rules.START_PLAYER: {expected}"


@pytest.mark.parametrize("ruleset, place, value, expected", [
    # the crashes users reported: a TypeError and an unhashable dict before the schema
    ("base", ("tiles", 3, "field_segments", 0, "adjacent_city_segments"), 0,
     "tiles.3.field_segments.0.adjacent_city_segments: 0 is not of type 'array'"),
    ("ark", ("tiles", 0, "edges", "N"), {}, "tiles.0.edges.N: {} is not one of ['F', 'R', 'C']"),
    ("ark", ("tiles", 5, "count"), 2**40, "tiles.5.count: 1099511627776 is greater than the maximum of 128"),
    ("ark", ("tiles", 5, "city_segments", 0, "scrolls"), 10, "tiles.5.city_segments.0.scrolls: 10 is greater "
                                                               "than the maximum of 9"),
    ("ark", ("tiles", 5, "is_start"), 1, "tiles.5.is_start: 1 is not of type 'boolean'"),
    ("base", ("tiles", 0, "road_segments", 0, "oasis"), 1, "tiles.0.road_segments.0: Additional properties are "
                                                           "not allowed ('oasis' was unexpected)"),
    # a misspelt switch is refused, not ignored
    ("ark", ("rules",), {"PROPHET_DOUBLE_INCOMPLETE": True}, "rules: Additional properties are not allowed "
                                                              "('PROPHET_DOUBLE_INCOMPLETE' was unexpected)"),
])
def test_a_value_of_the_wrong_shape_is_one_line_naming_its_place(ruleset, place, value, expected):
    doc = shipped(ruleset)
    parent = doc
    for key in place[:-1]:
        parent = parent[key]
    parent[place[-1]] = value
    assert refusal(doc, ruleset) == f"tile file t.json: {expected}"


@pytest.mark.parametrize("ruleset, key", [("ark", "provenance"), ("base", "monastery"), ("ark", "temple"),
                                          ("base", "field_segments")])
def test_a_missing_key_is_refused_not_defaulted(ruleset, key):
    doc = shipped(ruleset)
    del doc["tiles"][2][key]
    assert refusal(doc, ruleset) == f"tile file t.json: tiles.2: '{key}' is a required property"


def test_a_value_the_rule_set_does_not_play_is_refused():
    """Sheep, wolves and temples score only in the Ark, monasteries and the fields' cities only in
    the base game, the Ark's switches only in the Ark: a file setting them for the other rule set
    would play the same games as without them."""
    base = shipped("base")
    base["tiles"][3]["field_segments"][1]["wolves"] = 1
    assert refusal(base, "base") == (
        "tile file t.json: tile D: field_segments[1].wolves: wolves belong to The Ark of the Covenant (base-game "
        "fields score by the cities they touch); in the base game it is fixed by the rules at 0")
    base = shipped("base")
    base["tiles"][0]["temple"] = True
    assert refusal(base, "base") == ("tile file t.json: tile A: temple: temples belong to The Ark of the Covenant; "
                                     "in the base game it is fixed by the rules at false")
    base = shipped("base") | {"rules": {"ARK_MAY_REENTER_START": False}}
    assert refusal(base, "base") == (
        "tile file t.json: rules.ARK_MAY_REENTER_START: a rule of The Ark of the Covenant (prophets, the Ark, "
        "sheep); in the base game it is fixed by the rules at true")
    ark = shipped("ark")
    ark["tiles"][1]["monastery"] = True
    assert refusal(ark, "ark") == ("tile file t.json: tile ARK-02: monastery: monasteries belong to the base game "
                                   "(the Ark has temples); in the Ark it is fixed by the rules at false")
    ark = shipped("ark")
    ark["tiles"][1]["field_segments"][0]["adjacent_city_segments"] = [0]
    assert refusal(ark, "ark") == ("tile file t.json: tiles.1.field_segments.0: Additional properties are not "
                                   "allowed ('adjacent_city_segments' was unexpected)")
    # the switches both rule sets play, and the Ark's at their defaults, load
    rules = {"START_PLAYER": 2, "DEDUPE_SYMMETRIC_PLACEMENTS": False, "ARK_MAY_REENTER_START": True}
    assert components.from_document(shipped("base") | {"rules": rules}, "base").rules["START_PLAYER"] == 2


def test_a_whole_number_written_as_a_float_is_a_whole_number():
    # JSON Schema counts 1.0 as an integer; the tables get the integer 1
    doc = shipped("ark")
    doc["tiles"][0]["city_segments"][0]["scrolls"] = 2.0
    doc["tiles"][0]["count"] = 1.0
    tt = components.from_document(doc, "ark").tables[0]
    assert int(tt["seg_scrolls"][0, 0]) == 2 and int(tt["count"][0]) == 1


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
    # CA-7.5 and AMB-08: 49 tiles around the Ark; with re-entry of the start allowed (the default)
    # there are more outcomes than the 436 paths a board without it can ever have
    tiles = components.from_document(meadows(rules={"ARK_MAY_REENTER_START": reenter}), "ark")
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
