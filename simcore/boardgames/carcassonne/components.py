"""Tile data file -> validated tile tables (one numpy record) for the kernels.

The file format is CA-16.5 (edges, city/road/field segments with scrolls, oases, sheep and
wolves, temple or monastery, count, is_start, provenance), used for the base game too:
pennants go in "scrolls", and a base-game field lists the cities it touches
("adjacent_city_segments", for its farmers, CB-4.2). The rule set's JSON Schema
(data/base.schema.json, data/ark_reconstructed.schema.json) checks the file's shape first;
then the constraints here. A value the kernels would not read is refused, not stored: the
other rule set's features (check_rule_set_features) and the base game's Ark switches.
Ports follow CA-12.1: 12 per tile, clockwise from the north-west corner; rotating by r
quarter-turns moves port p to p + 3r.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from simcore.datafile import describe_tally, read_json, schema_validator, shipped_path, validate
from simcore.contract import UserError
from simcore.search import search_table_fields

MAX_TYPES = 80          # distinct tile designs in one set
FIT_WORDS = MAX_TYPES // 4      # words of four 16-bit counts, one a fit class of tile types (key_placements)
MAX_SEG = 12            # segments on one tile (a segment owns >= 1 port; a monastery adds one)
BOX_TILES = 72          # tiles in the box's set, start tile included (CA-1.1, CB-1.1)
# the most tiles a variant's set may hold: a feature's tiles are a 128-bit mask (tiles_lo/hi)
MAX_TILES = 128

F, R, C = 0, 1, 2                                   # edge types (CA-0.4)
EDGE_LETTERS = {"F": F, "R": R, "C": C}
SIDES = "NESW"
ROAD, CITY, FIELD, CLOISTER = 0, 1, 2, 3             # segment kinds; CLOISTER = base monastery
HALF_EDGE_PORT = {"NL": 0, "NR": 2, "EL": 3, "ER": 5, "SL": 6, "SR": 8, "WL": 9, "WR": 11}

# Rule switches (CA-11) and their defaults. ruleset 0 = base game, 1 = The Ark of the Covenant.
# Where the specification's reading and the rulebook's wording disagree, the default is the
# rulebook's and the reading is the switch (docs/carcassonne.md, "Which defaults follow the rulebook").
RULE_DEFAULTS = {
    "START_TILE_ROTATION": 0,
    "START_PLAYER": 0,
    "PROPHET_DOUBLES_INCOMPLETE": False,
    "ARK_COUNTS_PROPHETS": True,
    "ARK_COUNTS_FIELD_FOLLOWERS": True,
    # Rulebook p.4: no tile "twice", and never end on the start tile -- so the path may pass
    # over its start once (AMB-08); False is the specification's reading.
    "ARK_MAY_REENTER_START": True,
    "ARK_ENTRY_SCOPE": "CITY_TILES",
    "INCOMPLETE_TEMPLE_COUNTS_PROPHETS": True,
    "FIELD_SCORE_MAY_BE_NEGATIVE": False,
    "DEDUPE_SYMMETRIC_PLACEMENTS": True,
    # Rulebook p.4: a player whose followers are all placed "only draws and places tiles": no
    # prophet, no Ark (AMB-13, AMB-14); False is the specification's reading (only FOLLOWER goes).
    "EMPTY_SUPPLY_TILE_ONLY": True,
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
    # tile types that fit every requirement key in as many ways (n_fits alike) form a fit class
    # (the Ark's 53 types form 16, the base game's 24 form 17), numbered by their first type
    ("fit_class", np.int8, (MAX_TYPES,)),
    ("n_fit_words", np.int32),                       # the words of four classes key_placements uses
    # [requirement key, word] -> n_fits of every fit class for that key, four classes a word in
    # 16-bit lanes: place_tile adds a frontier cell's row to every class's count of placements in a
    # few words (state.class_placements), where a per-key tally cost branches and a sum over the
    # keys each draw
    ("key_placements", np.uint64, (256, FIT_WORDS)),
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
    # a new segment's record (state.SEGMENT) as words 2 and 3 of its 8, its parent 0: rules.place_tile
    # writes a segment as 4 words, not as a dozen fields from as many columns
    ("seg_init", np.uint64, (MAX_TYPES, MAX_SEG, 2)),
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
    warnings: list[str]                # ways the file loads but departs from the box (a set of 60 tiles)


SCHEMAS = {"base": "base.schema.json", "ark": "ark_reconstructed.schema.json"}
# Ark switches: in the base game (no prophets, no Ark, no sheep) nothing reads them, so a file
# that sets one to anything but its default would be a variant that plays the same games
ARK_ONLY_RULES = ("PROPHET_DOUBLES_INCOMPLETE", "ARK_COUNTS_PROPHETS", "ARK_COUNTS_FIELD_FOLLOWERS",
                  "ARK_MAY_REENTER_START", "ARK_ENTRY_SCOPE", "INCOMPLETE_TEMPLE_COUNTS_PROPHETS",
                  "FIELD_SCORE_MAY_BE_NEGATIVE", "EMPTY_SUPPLY_TILE_ONLY")


def default_path(ruleset: str) -> str:
    name = "base.json" if ruleset == "base" else "ark_reconstructed.json"
    return shipped_path("simcore.boardgames.carcassonne", name)


def load(path: str | None, ruleset: str) -> TileSet:
    """Read, validate and convert a tile file (None: the game's default set)."""
    path = path or default_path(ruleset)
    return from_document(read_json(path, "tile file"), ruleset, path)


def from_document(doc, ruleset: str, path: str = "<data>", check_set: bool = True) -> TileSet:
    """Validate a parsed tile document and build its tables: first its shape against the rule
    set's JSON Schema (data/*.schema.json: keys, types, ranges), then the tile constraints.

    check_set=False skips the whole-set constraints (1 to 128 tiles, one start tile), for
    hand-built test positions that use a few fixture tiles. A set of other than 72 tiles is a
    variant: it loads with a warning and plays (TileSet.warnings)."""
    def bad(msg):
        raise UserError(f"tile file {path}: {msg}")

    validate(doc, schema_validator("simcore.boardgames.carcassonne", SCHEMAS[ruleset]), path, "tile file")
    rules = parse_rules(doc.get("rules", {}), ruleset, bad)
    parsed = [parse_tile(t, ruleset, bad) for t in doc["tiles"]]
    ids = [p["id"] for p in parsed]
    if len(set(ids)) != len(ids):
        bad("tile ids are not unique")
    warnings = check_whole_set(parsed, bad) if check_set else []
    tables = build_tables(parsed, rules)
    return TileSet(
        tile_set_id=doc["tile_set_id"],
        name=doc["name"],
        source=doc["source"],
        reconstructed=doc["reconstructed"],
        path=path,
        ids=ids,
        segment_names=[p["segment_names"] for p in parsed],
        tables=tables,
        provenance=summarise_provenance(parsed),
        rules=rules,
        warnings=warnings,
    )


def check_whole_set(parsed, bad) -> list[str]:
    """CA-1.1, CB-1.1: 72 tiles, one of them the start tile, whose type it is (CA-16.5). A set
    of 1 to 128 tiles plays, with a warning if it is not the box's 72 (a designer's variant);
    returns the warnings."""
    total = sum(p["count"] for p in parsed)
    if not 1 <= total <= MAX_TILES:
        bad(f"the counts add up to {total} tiles; a set holds 1 to {MAX_TILES} (the box has {BOX_TILES})")
    starts = [p for p in parsed if p["is_start"]]
    if len(starts) != 1:
        bad(f"exactly one tile must be the start tile (is_start), found {len(starts)}")
    if starts[0]["count"] < 1:
        bad(f"tile {starts[0]['id']}: the start tile's count must include the start copy (>= 1)")
    if total == BOX_TILES:
        return []
    return [f"the tile counts add up to {total} tile{'' if total == 1 else 's'}, the box has {BOX_TILES} "
            f"(CA-1.1): playing a variant"]


def parse_rules(given, ruleset, bad):
    """The file's rule switches over the defaults (their types and ranges are the schema's)."""
    rules = dict(RULE_DEFAULTS)
    for name, value in given.items():
        if ruleset == "base" and name in ARK_ONLY_RULES and value != RULE_DEFAULTS[name]:
            bad(f"rules.{name}: a rule of The Ark of the Covenant (prophets, the Ark, sheep); in the base "
                f"game it is fixed by the rules at {json.dumps(RULE_DEFAULTS[name])}")
        rules[name] = int(value) if type(RULE_DEFAULTS[name]) is int else value    # 1.0 is an integer too
    rules["ruleset"] = ruleset
    return rules


def parse_tile(t, ruleset, bad):
    """One tile entry -> segments as (kind, port mask, attributes), checked against its edges
    and against the rule set."""
    tid = t["id"]

    def tbad(msg):
        bad(f"tile {tid}: {msg}")

    check_rule_set_features(t, ruleset, tbad)
    edges = [EDGE_LETTERS[t["edges"][s]] for s in SIDES]
    segments, names = [], []
    for key, kind in (("city_segments", CITY), ("road_segments", ROAD), ("field_segments", FIELD)):
        for seg in t[key]:
            segments.append(parse_segment(seg, kind, edges))
            names.append(segment_name(seg, kind))
    cloister_seg = -1
    if t["monastery"]:
        cloister_seg = len(segments)
        segments.append({"kind": CLOISTER, "ports": 0, "scrolls": 0, "oases": 0, "sheep": 0,
                         "wolves": 0, "cities": 0, "sides": 0})
        names.append("monastery")
    if len(segments) > MAX_SEG:
        tbad(f"{len(segments)} segments, at most {MAX_SEG}")
    check_ports(segments, edges, tbad)
    n_city = len(t["city_segments"])
    for seg in segments:
        if seg["cities"] >> n_city:
            tbad("adjacent_city_segments names a city segment that does not exist")
    return {"id": tid, "count": int(t["count"]), "is_start": t["is_start"], "edges": edges,
            "temple": t["temple"], "cloister_seg": cloister_seg,
            "segments": segments, "segment_names": names, "provenance": t["provenance"]}


def check_rule_set_features(t, ruleset, tbad):
    """Features the other rule set's scoring reads and this one's never does are refused rather
    than stored and ignored: temples, sheep and wolves are the Ark's, monasteries the base game's."""
    if ruleset == "base" and t["temple"]:
        tbad("temple: temples belong to The Ark of the Covenant; in the base game it is fixed by the rules "
             "at false")
    if ruleset == "ark" and t["monastery"]:
        tbad("monastery: monasteries belong to the base game (the Ark has temples); in the Ark it is fixed "
             "by the rules at false")
    if ruleset == "base":
        for j, seg in enumerate(t["field_segments"]):
            for attr in ("sheep", "wolves"):
                if seg[attr]:
                    tbad(f"field_segments[{j}].{attr}: {attr} belong to The Ark of the Covenant (base-game "
                         f"fields score by the cities they touch); in the base game it is fixed by the rules at 0")


def parse_segment(seg, kind, edges):
    """A segment's ports (CA-16.5's conversion), the sides it leaves open and its attributes."""
    ports, sides = 0, 0
    if kind == FIELD:
        for h in seg["half_edges"]:
            ports |= 1 << HALF_EDGE_PORT[h]
        for s in range(4):          # the centre of a field side belongs to the field owning its halves
            if edges[s] == F and ports >> (3 * s) & 1:
                ports |= 1 << (3 * s + 1)
    else:
        for name in seg["edges"]:
            s = SIDES.index(name)
            sides |= 1 << s
            ports |= (0b111 << (3 * s)) if kind == CITY else (1 << (3 * s + 1))
    # each attribute lives on the one segment kind the schema gives it (a float 1.0 is an integer
    # to JSON Schema, hence int())
    values = {attr: int(seg.get(attr, 0)) for attr in ("scrolls", "oases", "sheep", "wolves")}
    cities = 0
    for c in seg.get("adjacent_city_segments", []):
        cities |= 1 << int(c)
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
    """The kernels' tables of the parsed tiles: each column built as one array, then stored."""
    tables = np.zeros(1, dtype=TABLES)
    tt = tables[0]
    n = len(parsed)
    tt["n_types"] = n
    tt["rules"][:RULESET] = [rule_value(name, rules[name]) for name in RULE_DEFAULTS]
    tt["rules"][RULESET] = 1 if rules["ruleset"] == "ark" else 0
    tt["count"][:n] = [tile["count"] for tile in parsed]
    tt["start_type"] = max((t for t, tile in enumerate(parsed) if tile["is_start"]), default=0)
    tt["temple"][:n] = [tile["temple"] for tile in parsed]
    tt["cloister_seg"][:] = -1
    tt["cloister_seg"][:n] = [tile["cloister_seg"] for tile in parsed]
    tt["n_seg"][:n] = [len(tile["segments"]) for tile in parsed]
    for column, attr in (("seg_kind", "kind"), ("seg_scrolls", "scrolls"), ("seg_oases", "oases"),
                         ("seg_sheep", "sheep"), ("seg_wolves", "wolves"), ("field_cities", "cities")):
        tt[column][:n] = segment_column(parsed, lambda seg: seg[attr])
    tt["seg_open"][:n] = segment_column(parsed, lambda seg: bin(seg["sides"]).count("1"))
    # [type, rot, side]: rotating by r quarter-turns shows printed side s - r on side s (CA-12.1)
    edge = np.array([[[tile["edges"][(s - r) % 4] for s in range(4)] for r in range(4)] for tile in parsed],
                    dtype=np.int8)
    tt["edge"][:n] = edge
    owner = np.full((n, 12), -1, dtype=np.int8)             # printed port -> segment
    for t, tile in enumerate(parsed):
        for g, seg in enumerate(tile["segments"]):
            for p in range(12):
                if seg["ports"] >> p & 1:
                    owner[t, p] = g
    tt["port_seg"][:] = -1
    tt["port_seg"][:n] = np.stack([np.roll(owner, 3 * r, axis=1) for r in range(4)], axis=1)
    fits = ((KEY_DIGITS == 3) | (KEY_DIGITS == edge[:, :, None, :])).all(axis=3)    # [type, rot, key]
    fits &= np.array([placed_rotations(tile, rules["DEDUPE_SYMMETRIC_PLACEMENTS"]) for tile in parsed],
                     dtype=bool)[:, :, None]
    tt["fits"][:n] = (fits << np.arange(4)[None, :, None]).sum(axis=1)
    tt["n_fits"][:n] = fits.sum(axis=1)
    fit_classes(tt, n)
    tt["seg_init"][:n] = segment_words(tt, n)
    return tables


def fit_classes(tt, n):
    """fit_class, n_fit_words and key_placements of the first n tile types, from their n_fits:
    what the whole set's types have in common, made again whenever a type changes."""
    classes, first, inverse = np.unique(tt["n_fits"][:n], axis=0, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))           # classes numbered in the order of their first type
    tt["fit_class"][:] = 0
    tt["fit_class"][:n] = order[inverse.reshape(-1)]
    tt["n_fit_words"] = (len(classes) + 3) // 4
    lanes = np.zeros((256, MAX_TYPES), dtype=np.uint64)
    lanes[:, order] = classes.T
    tt["key_placements"] = (lanes.reshape(256, FIT_WORDS, 4) << (np.uint64(16) * np.arange(4, dtype=np.uint64))).sum(
        axis=2, dtype=np.uint64)


def segment_words(tt, n):
    """seg_init of the first n tile types: their segments' records with the columns' values, as
    words 2 and 3 of the record (the fields from parent to done; the tile bits before, the figures
    after, are not in them)."""
    from simcore.boardgames.carcassonne.state import SEGMENT      # (state imports this module)
    assert SEGMENT.fields["parent"][1] == 16 and SEGMENT.fields["figs"][1] == 32 and np.little_endian
    init = np.zeros((n, MAX_SEG), dtype=SEGMENT)
    for field, column in (("open", "seg_open"), ("scrolls", "seg_scrolls"), ("oases", "seg_oases"),
                          ("sheep", "seg_sheep"), ("wolves", "seg_wolves"), ("kind", "seg_kind")):
        init[field] = tt[column][:n]
    return init.view(np.uint64).reshape(n, MAX_SEG, 8)[:, :, 2:4]


def rule_value(name, value):
    """A rule switch as the kernels read it: ARK_ENTRY_SCOPE by its index, the rest as 0/1 or the number."""
    return ARK_ENTRY_SCOPES[value] if name == "ARK_ENTRY_SCOPE" else int(value)


def segment_column(parsed, value):
    """[type, segment] -> value(segment), 0 past a tile's last segment."""
    column = np.zeros((len(parsed), MAX_SEG), dtype=np.int64)
    for t, tile in enumerate(parsed):
        for g, seg in enumerate(tile["segments"]):
            column[t, g] = value(seg)
    return column


def placed_rotations(tile, dedupe):
    """Which rotations a placement may use: all four, or with DEDUPE_SYMMETRIC_PLACEMENTS the first
    of each group that gives the same placed tile (CA-13.1, CA-12.4)."""
    seen = []
    keep = []
    for r in range(4):
        sig = rotation_signature(tile, r)
        keep.append(not dedupe or sig not in seen)
        if sig not in seen:
            seen.append(sig)
    return keep


# KEY_DIGITS[key, side]: the digit of a requirement key for that side: the edge type the neighbour
# on that side shows towards the cell, or 3 where the cell has no neighbour on that side
KEY_DIGITS = (np.arange(256)[:, None] >> (2 * np.arange(4))[None, :]) & 3


def summarise_provenance(parsed) -> dict[str, str]:
    """component -> provenance over physical tiles, e.g. 'sourced' or 'sourced 40, reconstructed 32'."""
    keys = ("count", "edges", "segments", "scrolls", "oases", "sheep", "wolves", "temple", "monastery",
            "is_start")
    summary = {}
    for key in keys:
        tally = {}
        for tile in parsed:
            value = tile["provenance"][key]
            tally[value] = tally.get(value, 0) + tile["count"]
        summary[f"tiles.{key}"] = describe_tally(tally)
    return summary


def tables_with(data, search):
    """The tile set's tables with the run's policy table (players.Lineup.table) in them."""
    if search is None:
        return data.tables
    tables = data.tables.copy()
    tables[0]["search"] = search
    return tables
