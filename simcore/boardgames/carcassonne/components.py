"""Tile data file -> validated tile tables (one numpy record) for the kernels.

The file format is rules/carcassonne_ark.md CA-16.5 (edges, city/road/field segments with
scrolls, oases, sheep and wolves, temple or monastery, count, is_start, provenance), used
for the base game too (pennants go in "scrolls"). Ports follow CA-12.1: 12 per tile,
clockwise from the north-west corner; rotating by r quarter-turns moves port p to p + 3r.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.datafile import PROVENANCES, describe_tally, read_json, shipped_path
from simcore.registry import UserError
from simcore.search import search_table_fields

MAX_TYPES = 80          # distinct tile designs in one set
MAX_SEG = 12            # segments on one tile (a segment owns >= 1 port; a monastery adds one)
N_TILES = 72            # tiles in a set, start tile included (CA-1.1, CB-1.1)

F, R, C = 0, 1, 2                                   # edge types (CA-0.4)
EDGE_LETTERS = {"F": F, "R": R, "C": C}
SIDES = "NESW"
ROAD, CITY, FIELD, CLOISTER = 0, 1, 2, 3             # segment kinds; CLOISTER = base monastery
HALF_EDGE_PORT = {"NL": 0, "NR": 2, "EL": 3, "ER": 5, "SL": 6, "SR": 8, "WL": 9, "WR": 11}

# Rule switches (CA-11) and their defaults. ruleset 0 = base game, 1 = The Ark of the Covenant.
RULE_DEFAULTS = {
    "START_TILE_ROTATION": 0,
    "START_PLAYER": 0,
    "PROPHET_DOUBLES_INCOMPLETE": False,
    "ARK_COUNTS_PROPHETS": True,
    "ARK_COUNTS_FIELD_FOLLOWERS": True,
    "ARK_MAY_REENTER_START": False,
    "ARK_ENTRY_SCOPE": "CITY_TILES",
    "INCOMPLETE_TEMPLE_COUNTS_PROPHETS": True,
    "FIELD_SCORE_MAY_BE_NEGATIVE": False,
    "DEDUPE_SYMMETRIC_PLACEMENTS": True,
    # Rulebook p.4 read literally: a player whose followers are all placed "only draws and
    # places tiles" (no prophet, no Ark). The spec's default (AMB-13) removes only FOLLOWER.
    "EMPTY_SUPPLY_TILE_ONLY": False,
}
RULE_INDEX = {name: i for i, name in enumerate(RULE_DEFAULTS)}
RULESET = len(RULE_DEFAULTS)          # index of the ruleset switch in the rules array
ARK_ENTRY_SCOPES = {"CITY_TILES": 0, "PLACED_TILE": 1}

TABLES = np.dtype([
    ("n_types", np.int32),
    ("rules", np.int32, (16,)),
    ("count", np.int32, (MAX_TYPES,)),
    ("start_type", np.int32),
    ("edge", np.int8, (MAX_TYPES, 4, 4)),            # [type, rot, side] -> F/R/C
    ("fits", np.uint8, (MAX_TYPES, 256)),           # [type, requirement key] -> rotation mask
    ("n_fits", np.uint8, (MAX_TYPES, 256)),         # number of rotations in fits
    ("n_seg", np.int8, (MAX_TYPES,)),
    ("seg_kind", np.int8, (MAX_TYPES, MAX_SEG)),
    ("seg_scrolls", np.int8, (MAX_TYPES, MAX_SEG)),
    ("seg_oases", np.int8, (MAX_TYPES, MAX_SEG)),
    ("seg_sheep", np.int8, (MAX_TYPES, MAX_SEG)),
    ("seg_wolves", np.int8, (MAX_TYPES, MAX_SEG)),
    ("seg_open", np.int8, (MAX_TYPES, MAX_SEG)),      # sides a road/city segment touches
    ("field_cities", np.int32, (MAX_TYPES, MAX_SEG)),  # bitmask of city segments a field touches
    ("port_seg", np.int8, (MAX_TYPES, 4, 12)),        # [type, rot, port] -> segment
    ("temple", np.int8, (MAX_TYPES,)),
    ("cloister_seg", np.int8, (MAX_TYPES,)),          # monastery segment, -1 if none
] + search_table_fields())                            # a run's search players (spec.play_batch)


@dataclass
class TileSet:
    """A validated tile set: the kernel tables plus what people need to read results."""
    tile_set_id: str
    name: str
    source: str
    reconstructed: bool
    path: str
    ids: list[str]                     # type index -> tile id
    segment_names: list[list[str]]     # type index -> segment index -> "city N+W", ...
    tables: np.ndarray                 # 1-element array of TABLES
    provenance: dict[str, str]
    rules: dict


def default_path(ruleset: str) -> str:
    name = "base.json" if ruleset == "base" else "ark_reconstructed.json"
    return shipped_path("simcore.boardgames.carcassonne", name)


def load(path: str | None, ruleset: str) -> TileSet:
    """Read, validate and convert a tile file (None: the game's default set)."""
    path = path or default_path(ruleset)
    return from_document(read_json(path, "tile file"), ruleset, path)


def from_document(doc, ruleset: str, path: str = "<data>", check_set: bool = True) -> TileSet:
    """Validate a parsed tile document and build its tables.

    check_set=False skips the whole-set constraints (72 tiles, one start tile), for
    hand-built test positions that use a few fixture tiles."""
    def bad(msg):
        raise UserError(f"tile file {path}: {msg}")

    if not isinstance(doc, dict) or not isinstance(doc.get("tiles"), list) or not doc["tiles"]:
        bad('needs an object with a non-empty "tiles" list')
    tiles = doc["tiles"]
    if len(tiles) > MAX_TYPES:
        bad(f"{len(tiles)} tile designs, at most {MAX_TYPES}")
    rules = parse_rules(doc.get("rules", {}), ruleset, bad)
    parsed = [parse_tile(t, i, bad) for i, t in enumerate(tiles)]
    ids = [p["id"] for p in parsed]
    if len(set(ids)) != len(ids):
        bad("tile ids are not unique")
    if check_set:
        total = sum(p["count"] for p in parsed)
        if total != N_TILES:
            bad(f"the counts add up to {total} tiles, a set has {N_TILES}")
        starts = [p for p in parsed if p["is_start"]]
        if len(starts) != 1:
            bad(f"exactly one tile must be the start tile (is_start), found {len(starts)}")
        if starts[0]["count"] < 1:
            bad(f"tile {starts[0]['id']}: the start tile's count must include the start copy (>= 1)")
    if ruleset == "base" and any(p["temple"] for p in parsed):
        bad("temples belong to The Ark of the Covenant, not the base game")
    if ruleset == "ark" and any(p["cloister_seg"] >= 0 for p in parsed):
        bad("monasteries belong to the base game; the Ark has temples")
    tables = build_tables(parsed, rules)
    return TileSet(
        tile_set_id=str(doc.get("tile_set_id", "unnamed")),
        name=str(doc.get("name", doc.get("tile_set_id", "unnamed"))),
        source=str(doc.get("source", "")),
        reconstructed=bool(doc.get("reconstructed", False)),
        path=path,
        ids=ids,
        segment_names=[p["segment_names"] for p in parsed],
        tables=tables,
        provenance=summarise_provenance(parsed),
        rules=rules,
    )


def parse_rules(given, ruleset, bad):
    if not isinstance(given, dict):
        bad('"rules" must be an object of rule switches')
    rules = dict(RULE_DEFAULTS)
    for name, value in given.items():
        if name not in RULE_DEFAULTS:
            bad(f"unknown rule switch {name} (known: {', '.join(RULE_DEFAULTS)})")
        default = RULE_DEFAULTS[name]
        if name == "ARK_ENTRY_SCOPE":
            if value not in ARK_ENTRY_SCOPES:
                bad(f"rule switch ARK_ENTRY_SCOPE must be one of {', '.join(ARK_ENTRY_SCOPES)}")
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                bad(f"rule switch {name} must be true or false")
        elif not isinstance(value, int) or isinstance(value, bool):
            bad(f"rule switch {name} must be an integer")
        rules[name] = value
    if rules["START_TILE_ROTATION"] not in (0, 1, 2, 3):
        bad("rule switch START_TILE_ROTATION must be 0, 1, 2 or 3")
    if rules["START_PLAYER"] not in range(5):
        bad("rule switch START_PLAYER must be a seat 0..4 (in a game of fewer players: that seat modulo the players)")
    rules["ruleset"] = ruleset
    return rules


def parse_tile(t, index, bad):
    """One tile entry -> segments as (kind, port mask, attributes), checked against its edges."""
    if not isinstance(t, dict):
        bad(f"tile #{index} is not an object")
    tid = str(t.get("id", f"#{index}"))

    def tbad(msg):
        bad(f"tile {tid}: {msg}")

    count = t.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        tbad("count must be a whole number >= 0")
    edges_in = t.get("edges")
    if not isinstance(edges_in, dict) or set(edges_in) != set(SIDES) or \
            any(edges_in[s] not in EDGE_LETTERS for s in SIDES):
        tbad('edges must give N, E, S and W as "F", "R" or "C"')
    edges = [EDGE_LETTERS[edges_in[s]] for s in SIDES]

    segments, names = [], []
    for key, kind in (("city_segments", CITY), ("road_segments", ROAD), ("field_segments", FIELD)):
        entries = t.get(key, [])
        if not isinstance(entries, list):
            tbad(f"{key} must be a list")
        for j, seg in enumerate(entries):
            segments.append(parse_segment(seg, kind, edges, f"{key}[{j}]", tbad))
            names.append(segment_name(seg, kind))
    monastery = bool(t.get("monastery", False))
    cloister_seg = -1
    if monastery:
        cloister_seg = len(segments)
        segments.append({"kind": CLOISTER, "ports": 0, "scrolls": 0, "oases": 0, "sheep": 0,
                         "wolves": 0, "cities": 0, "sides": 0})
        names.append("monastery")
    if len(segments) > MAX_SEG:
        tbad(f"{len(segments)} segments, at most {MAX_SEG}")
    check_ports(segments, edges, tbad)
    n_city = len(t.get("city_segments", []))
    for seg in segments:
        if seg["cities"] >> n_city:
            tbad("adjacent_city_segments names a city segment that does not exist")
    return {"id": tid, "count": count, "is_start": bool(t.get("is_start", False)), "edges": edges,
            "temple": bool(t.get("temple", False)), "cloister_seg": cloister_seg,
            "segments": segments, "segment_names": names, "provenance": t.get("provenance", {})}


def parse_segment(seg, kind, edges, where, tbad):
    if not isinstance(seg, dict):
        tbad(f"{where} is not an object")
    ports, sides = 0, 0
    if kind == FIELD:
        halves = seg.get("half_edges")
        if not isinstance(halves, list) or not halves or any(h not in HALF_EDGE_PORT for h in halves):
            tbad(f"{where}: half_edges must list some of {', '.join(HALF_EDGE_PORT)}")
        for h in halves:
            ports |= 1 << HALF_EDGE_PORT[h]
        for s in range(4):          # the centre of a field side belongs to the field owning its halves
            if edges[s] == F and ports >> (3 * s) & 1:
                ports |= 1 << (3 * s + 1)
    else:
        sides_in = seg.get("edges")
        if not isinstance(sides_in, list) or not sides_in or any(s not in SIDES for s in sides_in):
            tbad(f"{where}: edges must list some of N, E, S, W")
        for name in sides_in:
            s = SIDES.index(name)
            sides |= 1 << s
            ports |= (0b111 << (3 * s)) if kind == CITY else (1 << (3 * s + 1))
    values = {}
    for attr, allowed in (("scrolls", CITY), ("oases", ROAD), ("sheep", FIELD), ("wolves", FIELD)):
        raw = seg.get(attr, seg.get("pennants", 0) if attr == "scrolls" else 0)
        if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw <= 9:
            tbad(f"{where}: {attr} must be a whole number 0..9")
        if raw and kind != allowed:
            tbad(f"{where}: {attr} only go on {['road', 'city', 'field'][allowed]} segments")
        values[attr] = raw
    cities = 0
    for c in seg.get("adjacent_city_segments", []) if kind == FIELD else []:
        if not isinstance(c, int) or c < 0:
            tbad(f"{where}: adjacent_city_segments must list city segment indexes")
        cities |= 1 << c
    return {"kind": kind, "ports": ports, "sides": sides, "cities": cities, **values}


def check_ports(segments, edges, tbad):
    """CA-12.3 validation: every port in exactly one segment of the kind its edge requires."""
    owner = [-1] * 12
    for g, seg in enumerate(segments):
        for p in range(12):
            if seg["ports"] >> p & 1:
                if owner[p] >= 0:
                    tbad(f"port {p} ({SIDES[p // 3]} side) belongs to two segments")
                owner[p] = g
    for p in range(12):
        side, pos = divmod(p, 3)
        edge = edges[side]
        need = CITY if edge == C else (ROAD if edge == R and pos == 1 else FIELD)
        if owner[p] < 0:
            tbad(f"the {SIDES[side]} edge ({'FRC'[edge]}) has a part no segment covers")
        if segments[owner[p]]["kind"] != need:
            tbad(f"the {SIDES[side]} edge is {'FRC'[edge]} but a {['road', 'city', 'field'][segments[owner[p]]['kind']]}"
                 " segment covers it")
    for s in range(4):      # fields join across a field side through one half only (rules.place_tile)
        if edges[s] == F and owner[3 * s] != owner[3 * s + 2]:
            tbad(f"the {SIDES[s]} edge is a field side split between two field segments")


def segment_name(seg, kind):
    if kind == FIELD:
        return "field " + "+".join(seg["half_edges"])
    return ("road " if kind == ROAD else "city ") + "+".join(seg["edges"])


def rotate_ports(mask, r):
    return ((mask << (3 * r)) | (mask >> (12 - 3 * r))) & 0xFFF


def rotation_signature(tile, r):
    """What a placed tile looks like at rotation r: the set of segments, compared as a set (CA-12.4)."""
    segs = frozenset((s["kind"], rotate_ports(s["ports"], r), s["scrolls"], s["oases"], s["sheep"],
                      s["wolves"]) for s in tile["segments"])
    return segs, tile["temple"]


def build_tables(parsed, rules) -> np.ndarray:
    tables = np.zeros(1, dtype=TABLES)
    tt = tables[0]
    tt["n_types"] = len(parsed)
    for name, i in RULE_INDEX.items():
        value = rules[name]
        tt["rules"][i] = ARK_ENTRY_SCOPES[value] if name == "ARK_ENTRY_SCOPE" else int(value)
    tt["rules"][RULESET] = 1 if rules["ruleset"] == "ark" else 0
    tt["port_seg"][:] = -1
    tt["cloister_seg"][:] = -1
    dedupe = rules["DEDUPE_SYMMETRIC_PLACEMENTS"]
    for t, tile in enumerate(parsed):
        tt["count"][t] = tile["count"]
        if tile["is_start"]:
            tt["start_type"] = t
        tt["temple"][t] = tile["temple"]
        tt["cloister_seg"][t] = tile["cloister_seg"]
        tt["n_seg"][t] = len(tile["segments"])
        for g, seg in enumerate(tile["segments"]):
            tt["seg_kind"][t, g] = seg["kind"]
            tt["seg_scrolls"][t, g] = seg["scrolls"]
            tt["seg_oases"][t, g] = seg["oases"]
            tt["seg_sheep"][t, g] = seg["sheep"]
            tt["seg_wolves"][t, g] = seg["wolves"]
            tt["seg_open"][t, g] = bin(seg["sides"]).count("1")
            tt["field_cities"][t, g] = seg["cities"]
        distinct = []
        for r in range(4):
            for s in range(4):
                tt["edge"][t, r, s] = tile["edges"][(s - r) % 4]
            for g, seg in enumerate(tile["segments"]):
                for p in range(12):
                    if seg["ports"] >> p & 1:
                        tt["port_seg"][t, r, (p + 3 * r) % 12] = g
            sig = rotation_signature(tile, r)
            if not dedupe or sig not in distinct:
                distinct.append(sig)
                fill_fits(tt, t, r)
    return tables


def fill_fits(tt, t, r):
    """Mark rotation r as fitting every requirement key it satisfies.

    A requirement key has one base-4 digit per side: the edge type the neighbour on that side
    shows towards the cell, or 3 where the cell has no neighbour on that side."""
    for key in range(256):
        if all((key >> (2 * s)) & 3 in (3, tt["edge"][t, r, s]) for s in range(4)):
            tt["fits"][t, key] |= 1 << r
            tt["n_fits"][t, key] += 1


def summarise_provenance(parsed) -> dict[str, str]:
    """component -> provenance over physical tiles, e.g. 'sourced' or 'sourced 40, reconstructed 32'."""
    keys = ("count", "edges", "segments", "scrolls", "oases", "sheep", "wolves", "temple", "monastery",
            "is_start")
    summary = {}
    for key in keys:
        tally = {}
        for tile in parsed:
            value = tile["provenance"].get(key)
            if value is None:
                continue
            if value not in PROVENANCES:
                raise UserError(f"tile {tile['id']}: provenance of {key} must be one of {', '.join(PROVENANCES)}")
            tally[value] = tally.get(value, 0) + tile["count"]
        if tally:
            summary[f"tiles.{key}"] = describe_tally(tally)
    return summary
