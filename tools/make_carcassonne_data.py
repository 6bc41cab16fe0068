#!/usr/bin/env python3
"""Generate and validate the Carcassonne tile data files.

Writes
  simcore/boardgames/carcassonne/data/base.json              base game, tiles A-X (sourced)
  simcore/boardgames/carcassonne/data/ark_reconstructed.json Ark of the Covenant,
                                                        "ark-reconstructed-v1" (CA-16.4)
then validates both files (CA-12.3 plus the CA-16.4 constraints) and prints totals.

The tile sets are written below as plain Python tables so that a reviewer can see
every reconstruction choice.  The script is deterministic: running it twice gives
byte-identical files.

Conventions (CA-12.1 in docs/carcassonne.md; the project's component research):
  * edges are N, E, S, W in the printed orientation; C = city, R = road, F = field;
  * half-edges NL,NR,EL,ER,SL,SR,WL,WR run clockwise from the NW corner; L/R are
    seen looking outward from the tile centre (NL=port 0, NR=2, EL=3, ER=5, SL=6,
    SR=8, WL=9, WR=11);
  * field segments list half-edges only: a field owns both halves of an F side and
    one half on each side of a road; a C side has no field halves;
  * segment order (cities, then roads, then fields) is the canonical action order.

Usage:  python tools/make_carcassonne_data.py [--research PATH] [--check-only]
"""

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from simcore.boardgames.carcassonne import components  # noqa: E402
from simcore.registry import UserError  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
DATA_DIR = REPO / "simcore" / "boardgames" / "carcassonne" / "data"
BASE_FILE = DATA_DIR / "base.json"
ARK_FILE = DATA_DIR / "ark_reconstructed.json"

SIDES = ("N", "E", "S", "W")
HALF_EDGES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
HALF_EDGE_PORT = {"NL": 0, "NR": 2, "EL": 3, "ER": 5, "SL": 6, "SR": 8, "WL": 9, "WR": 11}
PROVENANCE_VALUES = ("rulebook", "sourced", "reconstructed")
PROVENANCE_KEYS = ("count", "edges", "segments", "scrolls", "oases", "sheep", "wolves",
                   "temple", "monastery", "is_start")
TOP_KEYS = ("tile_set_id", "name", "source", "reconstructed", "tiles")
TILE_KEYS = ("id", "count", "is_start", "edges", "temple", "monastery", "city_segments",
             "road_segments", "field_segments", "provenance", "note")
TOTAL_TILES = 72


def parse_sides(text):
    """'NW' -> ['N', 'W']"""
    return [ch for ch in text]


def parse_half_edges(text):
    """'NL NR EL' -> ['NL', 'NR', 'EL']"""
    return text.split()


def parse_edges(text):
    """'CRFR' -> {'N': 'C', 'E': 'R', 'S': 'F', 'W': 'R'}"""
    return dict(zip(SIDES, text))


# =====================================================================================
# 1. Base game (72 tiles A-X): the component research's "base_game_fallback"
# =====================================================================================

BASE_SOURCE = (
    "Carcassonne base game, 72 tiles A-X (D includes the start tile). Counts and segment "
    "connectivity: github farin/JCloisterZone src/main/resources/tile-definitions/basic.xml; "
    "edge strings and counts: github exp111/Carcassonne public/img/tiles/tiles.md (citing "
    "https://wikicarpedia.com/car/Base_game#Tile_distribution). The two sources agree on all "
    "24 tiles. Converted from the project's component research ('base_game_fallback') by "
    "tools/make_carcassonne_data.py (2026-11-29); pennants are stored as 'scrolls'."
)

# id, count, edges NESW, monastery,
#   cities [(sides, pennants)], roads [sides], fields [(half-edges, adjacent city indexes)], note
BASE_TILES = [
    ("A", 2, "FFRF", True, [], ["S"],
     [("NL NR EL ER SL SR WL WR", [])], "monastery; the road ends at the monastery"),
    ("B", 4, "FFFF", True, [], [],
     [("NL NR EL ER SL SR WL WR", [])], "monastery"),
    ("C", 1, "CCCC", False, [("NESW", 1)], [],
     [], "full city with pennant"),
    ("D", 4, "CRFR", False, [("N", 0)], ["EW"],
     [("EL WR", [0]), ("ER SL SR WL", [])],
     "city cap, straight road; start tile type (3 in the pile + 1 start)"),
    ("E", 5, "CFFF", False, [("N", 0)], [],
     [("EL ER SL SR WL WR", [0])], "city cap"),
    ("F", 2, "FCFC", False, [("EW", 1)], [],
     [("NL NR", [0]), ("SL SR", [0])], "city tube E-W with pennant"),
    ("G", 1, "FCFC", False, [("EW", 0)], [],
     [("NL NR", [0]), ("SL SR", [0])], "city tube E-W"),
    ("H", 3, "CFCF", False, [("N", 0), ("S", 0)], [],
     [("EL ER WL WR", [0, 1])], "two separate city caps on opposite edges"),
    ("I", 2, "CFFC", False, [("N", 0), ("W", 0)], [],
     [("EL ER SL SR", [0, 1])], "two separate city caps on adjacent edges"),
    ("J", 3, "CRRF", False, [("N", 0)], ["ES"],
     [("EL SR WL WR", [0]), ("ER SL", [])], "city cap, road curve E-S"),
    ("K", 3, "CFRR", False, [("N", 0)], ["SW"],
     [("EL ER SL WR", [0]), ("SR WL", [])], "city cap, road curve S-W"),
    ("L", 3, "CRRR", False, [("N", 0)], ["E", "S", "W"],
     [("EL WR", [0]), ("ER SL", []), ("SR WL", [])],
     "city cap; three roads end at a junction"),
    ("M", 2, "CFFC", False, [("NW", 1)], [],
     [("EL ER SL SR", [0])], "corner city N-W with pennant"),
    ("N", 3, "CFFC", False, [("NW", 0)], [],
     [("EL ER SL SR", [0])], "corner city N-W"),
    ("O", 2, "CRRC", False, [("NW", 1)], ["ES"],
     [("EL SR", [0]), ("ER SL", [])], "corner city N-W with pennant, road curve E-S"),
    ("P", 3, "CRRC", False, [("NW", 0)], ["ES"],
     [("EL SR", [0]), ("ER SL", [])], "corner city N-W, road curve E-S"),
    ("Q", 1, "CCFC", False, [("NEW", 1)], [],
     [("SL SR", [0])], "three-sided city with pennant"),
    ("R", 3, "CCFC", False, [("NEW", 0)], [],
     [("SL SR", [0])], "three-sided city"),
    ("S", 2, "CCRC", False, [("NEW", 1)], ["S"],
     [("SL", [0]), ("SR", [0])], "three-sided city with pennant; the road ends at the city"),
    ("T", 1, "CCRC", False, [("NEW", 0)], ["S"],
     [("SL", [0]), ("SR", [0])], "three-sided city; the road ends at the city"),
    ("U", 8, "FRFR", False, [], ["EW"],
     [("WR NL NR EL", []), ("ER SL SR WL", [])], "straight road E-W"),
    ("V", 9, "FFRR", False, [], ["SW"],
     [("NL NR EL ER SL WR", []), ("SR WL", [])], "road curve S-W"),
    ("W", 4, "FRRR", False, [], ["E", "S", "W"],
     [("WR NL NR EL", []), ("ER SL", []), ("SR WL", [])], "three roads end at a junction"),
    ("X", 1, "RRRR", False, [], ["N", "E", "S", "W"],
     [("WR NL", []), ("NR EL", []), ("ER SL", []), ("SR WL", [])],
     "four roads end at a junction"),
]
BASE_START_ID = "D"


def base_tile_record(row):
    """One base-game table row -> a tile record of the schema."""
    tile_id, count, edges, monastery, cities, roads, fields, note = row
    return {
        "id": tile_id,
        "count": count,
        "is_start": tile_id == BASE_START_ID,
        "edges": parse_edges(edges),
        "temple": False,
        "monastery": monastery,
        "city_segments": [{"edges": parse_sides(s), "scrolls": p} for s, p in cities],
        "road_segments": [{"edges": parse_sides(s), "oases": 0} for s in roads],
        "field_segments": [{"half_edges": parse_half_edges(h), "sheep": 0, "wolves": 0,
                            "adjacent_city_segments": list(adj)} for h, adj in fields],
        "provenance": {key: "sourced" for key in PROVENANCE_KEYS},
        "note": note,
    }


def build_base_file():
    return {
        "tile_set_id": "base-v1",
        "name": "Carcassonne (base game)",
        "source": BASE_SOURCE,
        "reconstructed": False,
        "tiles": [base_tile_record(row) for row in BASE_TILES],
    }


# =====================================================================================
# 2. Ark of the Covenant, reconstructed set "ark-reconstructed-v1" (CA-16.4)
# =====================================================================================

ARK_SOURCE = (
    "RECONSTRUCTION, not the printed tile set: simcore project, tools/make_carcassonne_data.py "
    "(2026-11-29), following CA-16.4 (docs/carcassonne.md). Sourced: the edge categories and "
    "copy counts of 40 tiles (images 'Ark Tile 01'-'33' of the wikicarpedia Ark Tile Reference, "
    "https://wikicarpedia.com/car/Ark_Tile_Reference/en, as recorded in "
    "the project's component research). Reconstructed: the internal connectivity of every "
    "tile (modelled on the base-game tile of the same edge category), the split of the other 32 "
    "tiles over CRRR/FFRR/FRFR/FRRR/RRRR (base L3 V9 U8 W4 X1 scaled to 32), and all scrolls, "
    "oases, sheep, wolves, temples and the start tile."
)

# Edge categories (wikicarpedia notation) whose tile counts are known (CA-16.2).
ARK_KNOWN_COUNTS = {"CCCC": 1, "CCCF": 3, "CCCR": 2, "CCFF": 6, "CCRR": 7,
                    "CFCF": 5, "CFFF": 5, "CFRR": 3, "CRFR": 4, "CRRF": 4}
# Categories of the other 32 tiles, and the base-game tile each one is modelled on.
ARK_UNKNOWN_MODEL = {"CRRR": ("L", 3), "FFRR": ("V", 9), "FRFR": ("U", 8),
                     "FRRR": ("W", 4), "RRRR": ("X", 1)}
ARK_CATEGORIES = tuple(ARK_KNOWN_COUNTS) + tuple(ARK_UNKNOWN_MODEL)

# Required totals over physical copies (CA-16.4).
ARK_TEMPLES = 6
ARK_SCROLLS = 10
ARK_OASIS_SEGMENTS = 8
ARK_WOLF_SEGMENTS = 6
ARK_SHEEP_FRACTION = (0.28, 0.38)

# Shapes: connectivity patterns taken from the base game, written in the canonical
# orientation of their edge category (so the edge string IS the category).
# Every segment has a name, used by the design table below to place attributes:
#   cities: name -> sides;  roads: name -> sides;  fields: name -> (half-edges, adjacent cities)
SHAPES = {
    # CCCC, like base C
    "full_city": dict(
        edges="CCCC", model="C",
        cities=[("city", "NESW")], roads=[], fields=[]),
    # CCCF, like base Q/R (rotated): city N-E-S, field W
    "city3": dict(
        edges="CCCF", model="Q/R",
        cities=[("city", "NES")], roads=[],
        fields=[("field", "WL WR", ["city"])]),
    # CCCR, like base S/T (rotated): city N-E-S, the road W ends at the city
    "city3_road": dict(
        edges="CCCR", model="S/T",
        cities=[("city", "NES")], roads=[("road", "W")],
        fields=[("field_s", "WL", ["city"]), ("field_n", "WR", ["city"])]),
    # CCFF, like base M/N (rotated): one corner city N-E
    "corner": dict(
        edges="CCFF", model="M/N",
        cities=[("city", "NE")], roads=[],
        fields=[("field", "SL SR WL WR", ["city"])]),
    # CCFF, like base I (rotated): two separate caps N and E
    "two_caps_adjacent": dict(
        edges="CCFF", model="I",
        cities=[("city_n", "N"), ("city_e", "E")], roads=[],
        fields=[("field", "SL SR WL WR", ["city_n", "city_e"])]),
    # CCRR, like base O/P (rotated): corner city N-E, road curve S-W
    "corner_curve": dict(
        edges="CCRR", model="O/P",
        cities=[("city", "NE")], roads=[("road", "SW")],
        fields=[("outer", "SL WR", ["city"]), ("inner", "SR WL", [])]),
    # CFCF, like base F/G (rotated): city tube N-S
    "tube": dict(
        edges="CFCF", model="F/G",
        cities=[("city", "NS")], roads=[],
        fields=[("field_e", "EL ER", ["city"]), ("field_w", "WL WR", ["city"])]),
    # CFCF, like base H: two separate caps N and S
    "two_caps_opposite": dict(
        edges="CFCF", model="H",
        cities=[("city_n", "N"), ("city_s", "S")], roads=[],
        fields=[("field", "EL ER WL WR", ["city_n", "city_s"])]),
    # CFFF, like base E: city cap N
    "cap": dict(
        edges="CFFF", model="E",
        cities=[("city", "N")], roads=[],
        fields=[("field", "EL ER SL SR WL WR", ["city"])]),
    # CFRR, like base K: city cap N, road curve S-W
    "cap_curve_sw": dict(
        edges="CFRR", model="K",
        cities=[("city", "N")], roads=[("road", "SW")],
        fields=[("outer", "EL ER SL WR", ["city"]), ("inner", "SR WL", [])]),
    # CRFR, like base D: city cap N, straight road E-W
    "cap_straight": dict(
        edges="CRFR", model="D",
        cities=[("city", "N")], roads=[("road", "EW")],
        fields=[("north", "EL WR", ["city"]), ("south", "ER SL SR WL", [])]),
    # CRFR, base D with the road broken by a temple: roads E and W end at the temple
    "cap_two_road_ends": dict(
        edges="CRFR", model="D",
        cities=[("city", "N")], roads=[("road_e", "E"), ("road_w", "W")],
        fields=[("north", "EL WR", ["city"]), ("south", "ER SL SR WL", [])]),
    # CRRF, like base J: city cap N, road curve E-S
    "cap_curve_es": dict(
        edges="CRRF", model="J",
        cities=[("city", "N")], roads=[("road", "ES")],
        fields=[("outer", "EL SR WL WR", ["city"]), ("inner", "ER SL", [])]),
    # CRRR, like base L: city cap N, roads E, S, W end at a junction (or temple)
    "cap_junction3": dict(
        edges="CRRR", model="L",
        cities=[("city", "N")], roads=[("road_e", "E"), ("road_s", "S"), ("road_w", "W")],
        fields=[("north", "EL WR", ["city"]), ("southeast", "ER SL", []),
                ("southwest", "SR WL", [])]),
    # FFRR, like base V: road curve S-W
    "curve": dict(
        edges="FFRR", model="V",
        cities=[], roads=[("road", "SW")],
        fields=[("outer", "NL NR EL ER SL WR", []), ("inner", "SR WL", [])]),
    # FFRR, base V with the curve broken by a temple: roads S and W end at the temple
    "two_road_ends_sw": dict(
        edges="FFRR", model="V",
        cities=[], roads=[("road_s", "S"), ("road_w", "W")],
        fields=[("outer", "NL NR EL ER SL WR", []), ("inner", "SR WL", [])]),
    # FRFR, like base U: straight road E-W
    "straight": dict(
        edges="FRFR", model="U",
        cities=[], roads=[("road", "EW")],
        fields=[("north", "NL NR EL WR", []), ("south", "ER SL SR WL", [])]),
    # FRRR, like base W: roads E, S, W end at a junction (or temple)
    "junction3": dict(
        edges="FRRR", model="W",
        cities=[], roads=[("road_e", "E"), ("road_s", "S"), ("road_w", "W")],
        fields=[("north", "NL NR EL WR", []), ("southeast", "ER SL", []),
                ("southwest", "SR WL", [])]),
    # RRRR, like base X: four roads end at a junction (or temple)
    "junction4": dict(
        edges="RRRR", model="X",
        cities=[], roads=[("road_n", "N"), ("road_e", "E"), ("road_s", "S"), ("road_w", "W")],
        fields=[("northwest", "WR NL", []), ("northeast", "NR EL", []),
                ("southeast", "ER SL", []), ("southwest", "SR WL", [])]),
}

# The designs.  ARK-01 .. ARK-33 are the 33 tile images of the 40 known tiles, with the
# image's sourced repeat count; their connectivity and attributes are reconstructed.
# ARK-<category>-<letter> are the reconstructed 32 tiles of the unknown categories.
# Attributes name segments of the shape: scrolls/oases/sheep/wolves = {segment: number}.
#
#  id              count shape               attributes
ARK_DESIGNS = [
    # --- CCCC (1) -------------------------------------------------------------------
    dict(id="ARK-01", count=1, shape="full_city", scrolls={"city": 1}),
    # --- CCCF (3) -------------------------------------------------------------------
    dict(id="ARK-02", count=2, shape="city3", sheep={"field": 1}),
    dict(id="ARK-03", count=1, shape="city3", scrolls={"city": 1}),
    # --- CCCR (2) -------------------------------------------------------------------
    dict(id="ARK-04", count=1, shape="city3_road", scrolls={"city": 1}),
    dict(id="ARK-05", count=1, shape="city3_road"),
    # --- CCFF (6): 4 corner cities + 2 two-caps (base M2 N3 I2) -----------------------
    dict(id="ARK-06", count=1, shape="corner", scrolls={"city": 1}, sheep={"field": 2}),
    dict(id="ARK-07", count=1, shape="corner", scrolls={"city": 1}),
    dict(id="ARK-08", count=1, shape="corner", sheep={"field": 1}, wolves={"field": 1}),
    dict(id="ARK-09", count=1, shape="corner", sheep={"field": 1}),
    dict(id="ARK-10", count=1, shape="two_caps_adjacent", sheep={"field": 1}),
    dict(id="ARK-11", count=1, shape="two_caps_adjacent"),
    # --- CCRR (7): corner city + road curve (base O2 P3) ------------------------------
    dict(id="ARK-12", count=2, shape="corner_curve", scrolls={"city": 1}, sheep={"inner": 1}),
    dict(id="ARK-13", count=2, shape="corner_curve", sheep={"outer": 1}),
    dict(id="ARK-14", count=1, shape="corner_curve", oases={"road": 1}),
    dict(id="ARK-15", count=1, shape="corner_curve", sheep={"inner": 2}),
    dict(id="ARK-16", count=1, shape="corner_curve", wolves={"outer": 1}),
    # --- CFCF (5): 3 two-caps + 2 tubes (base H3 F2 G1) -------------------------------
    dict(id="ARK-17", count=2, shape="two_caps_opposite", sheep={"field": 1}),
    dict(id="ARK-18", count=1, shape="tube", scrolls={"city": 1}),
    dict(id="ARK-19", count=1, shape="tube", sheep={"field_e": 1, "field_w": 1}),
    dict(id="ARK-20", count=1, shape="two_caps_opposite"),
    # --- CFFF (5): city cap (base E5) --------------------------------------------------
    dict(id="ARK-21", count=2, shape="cap", sheep={"field": 2}),
    dict(id="ARK-22", count=1, shape="cap", scrolls={"city": 1}),
    dict(id="ARK-23", count=1, shape="cap", sheep={"field": 1}, wolves={"field": 1}),
    dict(id="ARK-24", count=1, shape="cap", temple=True, sheep={"field": 1},
         note="temple in the field below the city"),
    # --- CFRR (3): city cap + road curve (base K3) ------------------------------------
    dict(id="ARK-25", count=2, shape="cap_curve_sw", sheep={"outer": 1}),
    dict(id="ARK-26", count=1, shape="cap_curve_sw", oases={"road": 1}),
    # --- CRFR (4): city cap + straight road (base D4); ARK-27 is the start tile -------
    dict(id="ARK-27", count=1, shape="cap_straight", is_start=True,
         note="start tile (different back); plain, like base D"),
    dict(id="ARK-28", count=1, shape="cap_straight", oases={"road": 1}, sheep={"south": 1}),
    dict(id="ARK-29", count=1, shape="cap_straight", sheep={"south": 2}),
    dict(id="ARK-30", count=1, shape="cap_two_road_ends", temple=True,
         note="temple in the middle; roads E and W end at it"),
    # --- CRRF (4): city cap + road curve (base J3) ------------------------------------
    dict(id="ARK-31", count=1, shape="cap_curve_es", scrolls={"city": 1}),
    dict(id="ARK-32", count=2, shape="cap_curve_es", sheep={"outer": 1}),
    dict(id="ARK-33", count=1, shape="cap_curve_es", sheep={"outer": 1}, wolves={"inner": 1}),
    # --- CRRR (4, reconstructed; base L3) ----------------------------------------------
    dict(id="ARK-CRRR-a", count=2, shape="cap_junction3", sheep={"southwest": 1}),
    dict(id="ARK-CRRR-b", count=1, shape="cap_junction3", sheep={"southeast": 1}),
    dict(id="ARK-CRRR-t", count=1, shape="cap_junction3", temple=True,
         note="the three roads end at the temple"),
    # --- FFRR (12, reconstructed; base V9) ---------------------------------------------
    dict(id="ARK-FFRR-a", count=3, shape="curve"),
    dict(id="ARK-FFRR-b", count=2, shape="curve", oases={"road": 1}),
    dict(id="ARK-FFRR-c", count=2, shape="curve", sheep={"outer": 1}),
    dict(id="ARK-FFRR-d", count=1, shape="curve", sheep={"outer": 3}, wolves={"outer": 1}),
    dict(id="ARK-FFRR-e", count=1, shape="curve", sheep={"inner": 1}),
    dict(id="ARK-FFRR-f", count=2, shape="curve", sheep={"outer": 2}),
    dict(id="ARK-FFRR-t", count=1, shape="two_road_ends_sw", temple=True,
         note="temple in the bend; roads S and W end at it"),
    # --- FRFR (10, reconstructed; base U8) ---------------------------------------------
    dict(id="ARK-FRFR-a", count=3, shape="straight"),
    dict(id="ARK-FRFR-b", count=2, shape="straight", oases={"road": 1}),
    dict(id="ARK-FRFR-c", count=2, shape="straight", sheep={"north": 1, "south": 1}),
    dict(id="ARK-FRFR-d", count=1, shape="straight", sheep={"north": 2}, wolves={"north": 1}),
    dict(id="ARK-FRFR-e", count=2, shape="straight", sheep={"south": 1}),
    # --- FRRR (5, reconstructed; base W4) ----------------------------------------------
    dict(id="ARK-FRRR-a", count=2, shape="junction3", sheep={"north": 1}),
    dict(id="ARK-FRRR-b", count=1, shape="junction3", oases={"road_e": 1},
         note="the oasis lies on the east road"),
    dict(id="ARK-FRRR-c", count=1, shape="junction3", sheep={"north": 2}),
    dict(id="ARK-FRRR-t", count=1, shape="junction3", temple=True,
         note="the three roads end at the temple"),
    # --- RRRR (1, reconstructed; base X1) ----------------------------------------------
    dict(id="ARK-RRRR-t", count=1, shape="junction4", temple=True,
         note="the four roads end at the temple"),
]

ARK_DESIGN_KEYS = {"id", "count", "shape", "scrolls", "oases", "sheep", "wolves",
                   "temple", "is_start", "note"}


def largest_remainder_split(weights, total):
    """Split `total` proportionally to `weights` (dict), Hamilton / largest remainder."""
    weight_sum = sum(weights.values())
    quotas = {k: total * w / weight_sum for k, w in weights.items()}
    split = {k: int(q) for k, q in quotas.items()}
    by_remainder = sorted(weights, key=lambda k: (-(quotas[k] - split[k]), k))
    for k in by_remainder[: total - sum(split.values())]:
        split[k] += 1
    return split


def ark_unknown_split():
    """Target counts of the 32 unknown-category tiles: base L3 V9 U8 W4 X1 scaled to 32."""
    unknown_total = TOTAL_TILES - sum(ARK_KNOWN_COUNTS.values())
    weights = {cat: n for cat, (_, n) in ARK_UNKNOWN_MODEL.items()}
    return largest_remainder_split(weights, unknown_total)


def attach(names, values, what, design_id):
    """Turn {segment name: n} into a list aligned with the shape's segments."""
    unknown = set(values) - set(names)
    if unknown:
        raise ValueError(f"{design_id}: {what} on unknown segment(s) {sorted(unknown)}")
    return [values.get(name, 0) for name in names]


def ark_tile_record(design):
    """One design row + its shape -> a tile record of the schema."""
    extra = set(design) - ARK_DESIGN_KEYS
    if extra:
        raise ValueError(f"{design['id']}: unknown design keys {sorted(extra)}")
    shape = SHAPES[design["shape"]]
    tile_id = design["id"]
    city_names = [name for name, _ in shape["cities"]]
    road_names = [name for name, _ in shape["roads"]]
    field_names = [name for name, _, _ in shape["fields"]]
    scrolls = attach(city_names, design.get("scrolls", {}), "scrolls", tile_id)
    oases = attach(road_names, design.get("oases", {}), "oases", tile_id)
    sheep = attach(field_names, design.get("sheep", {}), "sheep", tile_id)
    wolves = attach(field_names, design.get("wolves", {}), "wolves", tile_id)
    category = edge_category(parse_edges(shape["edges"]))
    known = category in ARK_KNOWN_COUNTS
    if known:
        origin = (f"wikicarpedia image 'Ark Tile {tile_id[4:]}.png' (edge category and count "
                  f"sourced)")
    else:
        origin = f"category {category}, count reconstructed"
    note = (f"{origin}; connectivity reconstructed like base {shape['model']} "
            f"(shape '{design['shape']}'); attributes reconstructed")
    if design.get("note"):
        note += "; " + design["note"]
    return {
        "id": tile_id,
        "count": design["count"],
        "is_start": design.get("is_start", False),
        "edges": parse_edges(shape["edges"]),
        "temple": design.get("temple", False),
        "monastery": False,
        "city_segments": [{"edges": parse_sides(sides), "scrolls": n}
                          for (_, sides), n in zip(shape["cities"], scrolls)],
        "road_segments": [{"edges": parse_sides(sides), "oases": n}
                          for (_, sides), n in zip(shape["roads"], oases)],
        # no adjacent cities: only the base game's farmers score them, and the Ark's file refuses them
        "field_segments": [{"half_edges": parse_half_edges(halves), "sheep": s, "wolves": w}
                           for (_, halves, adj), s, w in zip(shape["fields"], sheep, wolves)],
        "provenance": {
            "count": "sourced" if known else "reconstructed",
            "edges": "sourced" if known else "reconstructed",
            "segments": "reconstructed",
            "scrolls": "reconstructed",
            "oases": "reconstructed",
            "sheep": "reconstructed",
            "wolves": "reconstructed",
            "temple": "reconstructed",
            "monastery": "rulebook",  # the Ark has temples, no monasteries
            "is_start": "reconstructed",
        },
        "note": note,
    }


def build_ark_file():
    return {
        "tile_set_id": "ark-reconstructed-v1",
        "name": "Carcassonne: The Ark of the Covenant (RECONSTRUCTED tile set, "
                "not the printed tiles)",
        "source": ARK_SOURCE,
        "reconstructed": True,
        "tiles": [ark_tile_record(d) for d in ARK_DESIGNS],
    }


# =====================================================================================
# 3. Validation
# =====================================================================================

def edge_category(edges):
    """The wikicarpedia category of a tile: the rotation of the NESW edge string that is
    one of the known category names (all of them are the lexicographically smallest
    rotation with C < F < R, so that is the fallback)."""
    text = "".join(edges[s] for s in SIDES)
    rotations = [text[i:] + text[:i] for i in range(4)]
    named = sorted({r for r in rotations if r in ARK_CATEGORIES})
    if len(named) > 1:
        raise ValueError(f"edges {text} match several categories {named}")
    return named[0] if named else min(rotations)


def is_nonneg_int(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def check_keys(obj, keys, where, errors):
    if not isinstance(obj, dict):
        errors.append(f"{where}: expected an object")
        return False
    if list(obj) != list(keys):
        errors.append(f"{where}: keys {list(obj)} != {list(keys)}")
        return False
    return True


def check_segment_lists(tile, where, errors):
    """City/road/field segments: key sets, value types, edge kinds and attributes."""
    edges = tile["edges"]
    for i, seg in enumerate(tile["city_segments"]):
        w = f"{where} city_segments[{i}]"
        if not check_keys(seg, ("edges", "scrolls"), w, errors):
            continue
        if not seg["edges"] or any(edges.get(s) != "C" for s in seg["edges"]):
            errors.append(f"{w}: edges {seg['edges']} must be non-empty C sides")
        if not is_nonneg_int(seg["scrolls"]):
            errors.append(f"{w}: scrolls must be an int >= 0")
    for i, seg in enumerate(tile["road_segments"]):
        w = f"{where} road_segments[{i}]"
        if not check_keys(seg, ("edges", "oases"), w, errors):
            continue
        if not seg["edges"] or any(edges.get(s) != "R" for s in seg["edges"]):
            errors.append(f"{w}: edges {seg['edges']} must be non-empty R sides")
        if not is_nonneg_int(seg["oases"]):
            errors.append(f"{w}: oases must be an int >= 0")
    n_cities = len(tile["city_segments"])
    for i, seg in enumerate(tile["field_segments"]):
        w = f"{where} field_segments[{i}]"
        # adjacent cities: the base game's only (its loader requires them, the Ark's refuses them)
        keys = ("half_edges", "sheep", "wolves") + (("adjacent_city_segments",) if "adjacent_city_segments" in seg
                                                    else ())
        if not check_keys(seg, keys, w, errors):
            continue
        halves = seg["half_edges"]
        if not halves or any(h not in HALF_EDGE_PORT for h in halves):
            errors.append(f"{w}: half_edges {halves} must be non-empty names from {HALF_EDGES}")
        elif any(edges[h[0]] == "C" for h in halves):
            errors.append(f"{w}: half_edges {halves} include a half of a C side")
        if not is_nonneg_int(seg["sheep"]) or not is_nonneg_int(seg["wolves"]):
            errors.append(f"{w}: sheep and wolves must be ints >= 0")
        adj = seg.get("adjacent_city_segments", [])
        if len(set(adj)) != len(adj) or any(not is_nonneg_int(a) or a >= n_cities for a in adj):
            errors.append(f"{w}: adjacent_city_segments {adj} must be distinct city indexes")


def check_coverage(tile, where, errors):
    """Every side used exactly once by its feature; every F/R half-edge in exactly one field."""
    edges = tile["edges"]
    side_use = Counter()
    for seg in tile["city_segments"] + tile["road_segments"]:
        side_use.update(seg["edges"])
    half_use = Counter()
    for seg in tile["field_segments"]:
        half_use.update(seg["half_edges"])
    for side in SIDES:
        kind = edges[side]
        if kind in ("C", "R") and side_use[side] != 1:
            errors.append(f"{where}: {kind} side {side} is in {side_use[side]} "
                          f"{'city' if kind == 'C' else 'road'} segments (must be 1)")
        if kind == "F" and side_use[side] != 0:
            errors.append(f"{where}: F side {side} is in a city or road segment")
        for half in (side + "L", side + "R"):
            want = 0 if kind == "C" else 1
            if half_use[half] != want:
                errors.append(f"{where}: half-edge {half} of {kind} side {side} is in "
                              f"{half_use[half]} field segments (must be {want})")


def validate_tile(tile, game, errors):
    """All per-tile checks.  game is 'base' or 'ark'."""
    where = f"tile {tile.get('id', '?') if isinstance(tile, dict) else '?'}"
    if not check_keys(tile, TILE_KEYS, where, errors):
        return
    if not isinstance(tile["id"], str) or not tile["id"]:
        errors.append(f"{where}: id must be a non-empty string")
    if not is_nonneg_int(tile["count"]) or tile["count"] < 1:
        errors.append(f"{where}: count must be an int >= 1")
    for key in ("is_start", "temple", "monastery"):
        if not isinstance(tile[key], bool):
            errors.append(f"{where}: {key} must be true/false")
    if not check_keys(tile["edges"], SIDES, f"{where} edges", errors):
        return
    if any(v not in ("C", "R", "F") for v in tile["edges"].values()):
        errors.append(f"{where}: edge types must be C, R or F")
        return
    if game == "base" and tile["temple"]:
        errors.append(f"{where}: the base game has no temples")
    if game == "ark" and tile["monastery"]:
        errors.append(f"{where}: the Ark has no monasteries")
    if check_keys(tile["provenance"], PROVENANCE_KEYS, f"{where} provenance", errors):
        bad = {k: v for k, v in tile["provenance"].items() if v not in PROVENANCE_VALUES}
        if bad:
            errors.append(f"{where}: provenance values {bad} not in {PROVENANCE_VALUES}")
    if not isinstance(tile["note"], str):
        errors.append(f"{where}: note must be a string")
    n_errors = len(errors)
    check_segment_lists(tile, where, errors)
    if len(errors) == n_errors:
        check_coverage(tile, where, errors)


def copies(tiles, predicate):
    """Number of physical segments/tiles: sum over tiles of count * predicate(tile)."""
    return sum(t["count"] * predicate(t) for t in tiles)


def totals(data):
    """Totals over physical copies, used for printing and for the set-level checks."""
    tiles = data["tiles"]
    per_category = Counter()
    for t in tiles:
        per_category[edge_category(t["edges"])] += t["count"]
    return {
        "tiles": copies(tiles, lambda t: 1),
        "per_category": dict(sorted(per_category.items())),
        "start_entries": sum(1 for t in tiles if t["is_start"]),
        "temples": copies(tiles, lambda t: int(t["temple"])),
        "monasteries": copies(tiles, lambda t: int(t["monastery"])),
        "scrolls": copies(tiles, lambda t: sum(c["scrolls"] for c in t["city_segments"])),
        "scroll_segments": copies(tiles, lambda t: sum(c["scrolls"] > 0
                                                       for c in t["city_segments"])),
        "oases": copies(tiles, lambda t: sum(r["oases"] for r in t["road_segments"])),
        "oasis_segments": copies(tiles, lambda t: sum(r["oases"] > 0
                                                      for r in t["road_segments"])),
        "field_segments": copies(tiles, lambda t: len(t["field_segments"])),
        "sheep_segments": copies(tiles, lambda t: sum(f["sheep"] > 0
                                                      for f in t["field_segments"])),
        "sheep": copies(tiles, lambda t: sum(f["sheep"] for f in t["field_segments"])),
        "wolf_segments": copies(tiles, lambda t: sum(f["wolves"] > 0
                                                     for f in t["field_segments"])),
        "wolves": copies(tiles, lambda t: sum(f["wolves"] for f in t["field_segments"])),
    }


def check_set_common(data, game, errors):
    """Schema of the whole file and the checks shared by both tile sets."""
    if not check_keys(data, TOP_KEYS, "file", errors):
        return False
    for key in ("tile_set_id", "name", "source"):
        if not isinstance(data[key], str) or not data[key]:
            errors.append(f"file: {key} must be a non-empty string")
    if not isinstance(data["tiles"], list) or not data["tiles"]:
        errors.append("file: tiles must be a non-empty list")
        return False
    for tile in data["tiles"]:
        validate_tile(tile, game, errors)
    if errors:
        return False
    ids = [t["id"] for t in data["tiles"]]
    dup = sorted(i for i, n in Counter(ids).items() if n > 1)
    if dup:
        errors.append(f"file: duplicate tile ids {dup}")
    check_identical_designs(data["tiles"], errors)
    tot = totals(data)
    if tot["tiles"] != TOTAL_TILES:
        errors.append(f"file: sum of counts is {tot['tiles']}, must be {TOTAL_TILES}")
    if tot["start_entries"] != 1:
        errors.append(f"file: {tot['start_entries']} tile entries have is_start, must be 1")
    return not errors


def design_signature(tile):
    """What makes a design distinct: everything except id, count, provenance and note."""
    keys = ("is_start", "edges", "temple", "monastery", "city_segments", "road_segments",
            "field_segments")
    return json.dumps([tile[k] for k in keys], sort_keys=True)


def check_identical_designs(tiles, errors):
    """Two entries with the same design should be one entry with a larger count."""
    seen = {}
    for t in tiles:
        sig = design_signature(t)
        if sig in seen:
            errors.append(f"file: tiles {seen[sig]} and {t['id']} are identical designs "
                          f"(merge them into one entry)")
        seen.setdefault(sig, t["id"])


def check_base_set(data, errors):
    if data["reconstructed"] is not False:
        errors.append("base: reconstructed must be false")
    tot = totals(data)
    expected = {"monasteries": 6, "scrolls": 10, "temples": 0, "oases": 0, "sheep": 0,
                "wolves": 0}
    for key, want in expected.items():
        if tot[key] != want:
            errors.append(f"base: {key} = {tot[key]}, must be {want}")
    start = [t for t in data["tiles"] if t["is_start"]]
    if start and start[0]["id"] != BASE_START_ID:
        errors.append(f"base: start tile is {start[0]['id']}, must be {BASE_START_ID}")


def check_ark_set(data, errors):
    if data["reconstructed"] is not True:
        errors.append("ark: reconstructed must be true")
    if data["tile_set_id"] != "ark-reconstructed-v1":
        errors.append("ark: tile_set_id must be 'ark-reconstructed-v1'")
    tot = totals(data)
    cats = tot["per_category"]
    for cat, want in ARK_KNOWN_COUNTS.items():
        if cats.get(cat, 0) != want:
            errors.append(f"ark: category {cat} has {cats.get(cat, 0)} tiles, must be {want}")
    outside = sorted(set(cats) - set(ARK_CATEGORIES))
    if outside:
        errors.append(f"ark: categories {outside} are not allowed (e.g. no FFFF, no FFFR)")
    unknown = sum(cats.get(c, 0) for c in ARK_UNKNOWN_MODEL)
    want_unknown = TOTAL_TILES - sum(ARK_KNOWN_COUNTS.values())
    if unknown != want_unknown:
        errors.append(f"ark: {unknown} tiles in CRRR/FFRR/FRFR/FRRR/RRRR, must be {want_unknown}")
    checks = [("temples", ARK_TEMPLES), ("scrolls", ARK_SCROLLS),
              ("oasis_segments", ARK_OASIS_SEGMENTS), ("oases", ARK_OASIS_SEGMENTS),
              ("wolf_segments", ARK_WOLF_SEGMENTS), ("wolves", ARK_WOLF_SEGMENTS),
              ("monasteries", 0)]
    for key, want in checks:
        if tot[key] != want:
            errors.append(f"ark: {key} = {tot[key]}, must be {want}")
    lo, hi = ARK_SHEEP_FRACTION
    fraction = tot["sheep_segments"] / tot["field_segments"]
    if not lo <= fraction <= hi:
        errors.append(f"ark: sheep on {fraction:.3f} of field segments, must be in [{lo}, {hi}]")
    for t in data["tiles"]:
        where = f"ark tile {t['id']}"
        if any(f["sheep"] > 3 for f in t["field_segments"]):
            errors.append(f"{where}: at most 3 sheep per field segment")
        if t["temple"] and not (t["city_segments"] or t["road_segments"]):
            errors.append(f"{where}: a temple tile must also show a road or a city")
        if t["is_start"]:
            check_ark_start(t, errors)


def check_ark_start(tile, errors):
    """The start tile: city cap N, straight road E-W (like base D)."""
    ok = (tile["edges"] == parse_edges("CRFR")
          and [c["edges"] for c in tile["city_segments"]] == [["N"]]
          and [r["edges"] for r in tile["road_segments"]] == [["E", "W"]])
    if not ok:
        errors.append(f"ark tile {tile['id']}: the start tile must be a city cap N with a "
                      f"straight road E-W")


def validate_file(data, game):
    """Return the list of errors of one tile-set file (empty = valid)."""
    errors = []
    if check_set_common(data, game, errors):
        if game == "base":
            check_base_set(data, errors)
        else:
            check_ark_set(data, errors)
    return errors


# =====================================================================================
# 4. Cross-checks against the research JSON (optional; skipped if the file is absent)
# =====================================================================================

def check_base_against_research(base, research, errors):
    """The base table must reproduce research 'base_game_fallback' exactly."""
    ref = {t["id"]: t for t in research["base_game_fallback"]["tiles"]}
    if sorted(ref) != sorted(t["id"] for t in base["tiles"]):
        errors.append("research: base tile ids differ")
        return
    for t in base["tiles"]:
        r = ref[t["id"]]
        mine = (t["count"], t["edges"], t["monastery"],
                [(c["edges"], c["scrolls"]) for c in t["city_segments"]],
                [r_["edges"] for r_ in t["road_segments"]],
                [(f["half_edges"], f["adjacent_city_segments"]) for f in t["field_segments"]])
        theirs = (r["count"], r["edges"], r["monastery"],
                  [(c["edges"], c["pennants"]) for c in r["city_segments"]],
                  [r_["edges"] for r_ in r["road_segments"]],
                  [(f["half_edges"], f["adjacent_city_segments"]) for f in r["field_segments"]])
        if mine != theirs:
            errors.append(f"research: base tile {t['id']} differs from base_game_fallback")


def check_ark_against_research(ark, research, errors):
    """ARK-01..ARK-33 must carry the category and repeat count of wikicarpedia's images."""
    images = {}
    for group in research["ark"]["groups"]:
        for img in group["tile_images"] or []:
            number = img["image"].replace("Ark Tile ", "").replace(".png", "")
            images["ARK-" + number] = (group["edge_category"], img["count"])
    mine = {t["id"]: (edge_category(t["edges"]), t["count"])
            for t in ark["tiles"] if t["provenance"]["count"] == "sourced"}
    if mine != images:
        diff = sorted(set(mine.items()) ^ set(images.items()))
        errors.append(f"research: Ark image categories/counts differ: {diff}")


# =====================================================================================
# 5. Output
# =====================================================================================

def write_json(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def print_totals(label, data):
    tot = totals(data)
    print(f"== {label}: {data['tile_set_id']} ({len(data['tiles'])} designs, "
          f"{tot['tiles']} tiles)")
    print("   tiles per category: " + ", ".join(f"{c} {n}" for c, n in
                                                 tot["per_category"].items()))
    print(f"   start entries {tot['start_entries']}, monasteries {tot['monasteries']}, "
          f"temples {tot['temples']}")
    print(f"   scrolls {tot['scrolls']} (on {tot['scroll_segments']} city segments), "
          f"oases {tot['oases']} (on {tot['oasis_segments']} road segments)")
    print(f"   sheep segments {tot['sheep_segments']} / field segments {tot['field_segments']}"
          f" = {tot['sheep_segments'] / tot['field_segments']:.3f} ({tot['sheep']} sheep), "
          f"wolves {tot['wolves']} (on {tot['wolf_segments']} field segments)")


def print_ark_designs(data):
    print("   designs: id | edges | count | attributes")
    for t in data["tiles"]:
        attrs = []
        if t["is_start"]:
            attrs.append("START")
        if t["temple"]:
            attrs.append("temple")
        scrolls = sum(c["scrolls"] for c in t["city_segments"])
        oases = sum(r["oases"] for r in t["road_segments"])
        sheep = [f["sheep"] for f in t["field_segments"] if f["sheep"]]
        wolves = sum(f["wolves"] for f in t["field_segments"])
        if scrolls:
            attrs.append(f"scroll {scrolls}")
        if oases:
            attrs.append(f"oasis {oases}")
        if sheep:
            attrs.append("sheep " + "+".join(map(str, sheep)))
        if wolves:
            attrs.append(f"wolf {wolves}")
        edges = "".join(t["edges"][s] for s in SIDES)
        print(f"   {t['id']:<11} {edges} x{t['count']}  {', '.join(attrs) or '-'}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--research", type=Path, default=None,
                        help="the component research's tile list (JSON) to cross-check against, if you have it")
    parser.add_argument("--check-only", action="store_true",
                        help="validate the existing JSON files, do not write")
    parser.add_argument("--list", action="store_true", help="also list the Ark designs")
    args = parser.parse_args(argv)

    split = ark_unknown_split()
    print("Ark unknown-category split (base L3 V9 U8 W4 X1 scaled to 32): "
          + ", ".join(f"{c} {n}" for c, n in split.items()))
    if args.check_only:
        base = json.loads(BASE_FILE.read_text(encoding="utf-8"))
        ark = json.loads(ARK_FILE.read_text(encoding="utf-8"))
    else:
        base, ark = build_base_file(), build_ark_file()

    errors = [f"{BASE_FILE.name}: {e}" for e in validate_file(base, "base")]
    errors += [f"{ARK_FILE.name}: {e}" for e in validate_file(ark, "ark")]
    if not errors:
        actual = {c: n for c, n in totals(ark)["per_category"].items() if c in split}
        if actual != split:
            errors.append(f"{ARK_FILE.name}: unknown-category split {actual} != {split}")
    for path, data, ruleset in ((BASE_FILE, base, "base"), (ARK_FILE, ark, "ark")):
        try:                               # the game's own loader: the schema and every constraint
            components.from_document(json.loads(json.dumps(data)), ruleset, str(path))
        except UserError as refused:
            errors.append(str(refused))
    if args.research and args.research.exists():
        research = json.loads(args.research.read_text(encoding="utf-8"))
        research_errors = []
        check_base_against_research(base, research, research_errors)
        check_ark_against_research(ark, research, research_errors)
        errors += research_errors
        print(f"cross-checked against {args.research}")
    else:
        print("(no --research file: cross-checks skipped)")

    if errors:
        print("VALIDATION FAILED:")
        for e in errors:
            print("  " + e)
        return 1
    if not args.check_only:
        write_json(BASE_FILE, base)
        write_json(ARK_FILE, ark)
        print(f"wrote {BASE_FILE.relative_to(REPO)} and {ARK_FILE.relative_to(REPO)}")
    print_totals("base", base)
    print_totals("ark", ark)
    if args.list:
        print_ark_designs(ark)
    print("OK: both tile sets pass validation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
