"""Scenario builder for Carcassonne rule tests (CA-15 in docs/carcassonne.md).

Fixture tiles are the synthetic tiles of CA-15.1, written as in the spec's table: edges
N E S W and segments `name: kind {ports}` (ports CA-12.1, printed orientation). A
segment's index is its position in the list, so every list is cities, roads, fields (the
order of the data-file schema, components.from_document), then a monastery if any.

Attribute variants are named like the spec's setup lines, e.g. "CITY_TUBE city.scrolls=1"
or "ROAD_STRAIGHT field_n.sheep=1 field_n.wolves=1": each becomes its own tile type.

    p = Position()                                   # Ark rules, 5 players, default flags
    p.place(0, 0, "CITY_CAP", 2)                     # (0,0) CITY_CAP r2 (start)
    p.place(0, -1, "CITY_TUBE city.scrolls=1", 1, "BLACK@city")
    p.turn(RED, "CITY_CAP", 0, -2, 0, "FOLLOWER@field")
    assert p.points() == {"BLACK": 8}

place() is a setup tile: a normal placement (edges checked, figures only on vacant
features of that tile), then phase S, as the spec's setup lines say. figure() puts a
figure anywhere (AMB-23: builders may). turn() = lay() (phase T, checked) + act()
(playout.resolve_turn: phases A, S and Ark entry).
"""
from __future__ import annotations

import functools

import numpy as np

from simcore.boardgames.carcassonne import components, playout, rules, scoring, state
from simcore.boardgames.carcassonne.describe import score_events
from simcore.boardgames.carcassonne.state import ARK, FOLLOWER, MAX_SEG, PASS, PROPHET, cell_of, xy_of

RED, BLUE, GREEN, YELLOW, BLACK = range(5)
SEATS = ("RED", "BLUE", "GREEN", "YELLOW", "BLACK")
REASONS = ("ARK", "ROAD", "CITY", "CITY_PROPHET", "TEMPLE7", "TEMPLE3", "ROAD_END", "CITY_END",
           "FIELD", "MONASTERY9", "MONASTERY_END")
AVAILABLE, ON_BOARD, BOXED = state.PROPHET_AVAILABLE, state.PROPHET_ON_BOARD, state.PROPHET_BOXED
SIDE_OFFSET = ((0, 1), (1, 0), (0, -1), (-1, 0))          # N E S W (CA-0.3)

# ---------------------------------------------------------------- fixture tiles (CA-15.1)

ALL = set(range(12))
FIXTURES = {
    # name: (edges N E S W, [(segment, kind, ports)], extra)
    "ROAD_STRAIGHT": ("FRFR", [("road", "R", {4, 10}), ("field_n", "F", {0, 1, 2, 3, 11}),
                               ("field_s", "F", {5, 6, 7, 8, 9})], ""),
    "ROAD_CURVE": ("FFRR", [("road", "R", {7, 10}), ("field_in", "F", {8, 9}),
                            ("field_out", "F", {0, 1, 2, 3, 4, 5, 6, 11})], ""),
    "CROSSROADS": ("RRRR", [("road_n", "R", {1}), ("road_e", "R", {4}), ("road_s", "R", {7}),
                            ("road_w", "R", {10}), ("field_ne", "F", {2, 3}), ("field_se", "F", {5, 6}),
                            ("field_sw", "F", {8, 9}), ("field_nw", "F", {11, 0})], ""),
    "CITY_CAP": ("CFFF", [("city", "C", {0, 1, 2}), ("field", "F", ALL - {0, 1, 2})], ""),
    "CITY_CAP_ROAD_STRAIGHT": ("CRFR", [("city", "C", {0, 1, 2}), ("road", "R", {4, 10}),
                                        ("field_n", "F", {3, 11}), ("field_s", "F", {5, 6, 7, 8, 9})], ""),
    "CITY_CAP_ROAD_END": ("CFRF", [("city", "C", {0, 1, 2}), ("road", "R", {7}),
                                   ("field_w", "F", {8, 9, 10, 11}), ("field_e", "F", {3, 4, 5, 6})], ""),
    "CITY_TUBE": ("FCFC", [("city", "C", {3, 4, 5, 9, 10, 11}), ("field_n", "F", {0, 1, 2}),
                           ("field_s", "F", {6, 7, 8})], ""),
    "CITY_CORNER": ("CFFC", [("city", "C", {0, 1, 2, 9, 10, 11}), ("field", "F", {3, 4, 5, 6, 7, 8})], ""),
    "CITY_TWO_CAPS_CORNER": ("CCFF", [("city_n", "C", {0, 1, 2}), ("city_e", "C", {3, 4, 5}),
                                      ("field", "F", {6, 7, 8, 9, 10, 11})], ""),
    "CITY_FULL": ("CCCC", [("city", "C", ALL)], ""),
    "TEMPLE_ROAD": ("FFRF", [("road", "R", {7}), ("field", "F", ALL - {7})], "temple"),
    "TEMPLE": ("FFFF", [("field", "F", ALL)], "temple"),
    "MEADOW": ("FFFF", [("field", "F", ALL)], ""),
    # Not in CA-15.1; base-game shapes for the CB-5 examples (base tile Q/R without pennant,
    # base tiles B and A): a 3-sided city, monasteries (monastery = the last segment).
    "CITY_THREE": ("CCFC", [("city", "C", ALL - {6, 7, 8}), ("field", "F", {6, 7, 8})], ""),
    "MONASTERY": ("FFFF", [("field", "F", ALL)], "monastery"),
    "MONASTERY_ROAD": ("FFRF", [("road", "R", {7}), ("field", "F", ALL - {7})], "monastery"),
}
ARK_ONLY = {"TEMPLE_ROAD", "TEMPLE"}
BASE_ONLY = {"MONASTERY", "MONASTERY_ROAD"}
HALF_EDGE = {p: name for name, p in components.HALF_EDGE_PORT.items()}
FIXTURE_PROVENANCE = {key: "rulebook" for key in ("count", "edges", "segments", "scrolls", "oases", "sheep",
                                                  "wolves", "temple", "monastery", "is_start")}
ATTRIBUTES = {"scrolls": "C", "pennants": "C", "oases": "R", "sheep": "F", "wolves": "F"}


def segment_names(fixture):
    """Segment names of a fixture (or variant) in index order."""
    name = fixture.split()[0]
    segs = [s[0] for s in FIXTURES[name][1]]
    return segs + (["monastery"] if FIXTURES[name][2] == "monastery" else [])


def tile_entry(fixture, ruleset):
    """One fixture (with its attribute variant, if any) as a data-file tile entry (CA-16.5)."""
    name, *attrs = fixture.split()
    edges, segs, extra = FIXTURES[name]
    kinds = [kind for _, kind, _ in segs]
    assert kinds == sorted(kinds, key="CRF".index), f"{name}: segments must be listed cities, roads, fields"
    values = {}
    for a in attrs:                                   # "field_n.sheep=2"
        target, value = a.split("=")
        seg, attr = target.split(".")
        kind = dict((s, k) for s, k, _ in segs)[seg]
        assert ATTRIBUTES[attr] == kind, f"{a}: {attr} do not go on a {kind} segment"
        values.setdefault(seg, {})["scrolls" if attr == "pennants" else attr] = int(value)
    cities = [ports for _, kind, ports in segs if kind == "C"]
    entry = {"id": fixture, "count": 1, "is_start": False, "edges": dict(zip("NESW", edges)),
             "temple": extra == "temple", "monastery": extra == "monastery", "city_segments": [],
             "road_segments": [], "field_segments": [], "provenance": FIXTURE_PROVENANCE}
    for seg, kind, ports in segs:
        if kind == "F":
            d = {"half_edges": [HALF_EDGE[p] for p in sorted(ports) if p % 3 != 1], "sheep": 0, "wolves": 0}
            if ruleset == "base":    # a field touches a city it borders along the tile's rim
                d["adjacent_city_segments"] = [i for i, c in enumerate(cities)
                                               if any((p + 1) % 12 in c or (p - 1) % 12 in c for p in ports)]
            entry["field_segments"].append({**d, **values.get(seg, {})})
        else:
            sides = ["NESW"[p // 3] for p in sorted(ports) if p % 3 == 1]
            key, attr = ("city_segments", "scrolls") if kind == "C" else ("road_segments", "oases")
            entry[key].append({"edges": sides, attr: 0, **values.get(seg, {})})
    return entry


@functools.lru_cache(maxsize=None)
def tile_set(ruleset, flags, fixtures):
    """TileSet of the given fixtures (type index = position in `fixtures`) and rule switches."""
    doc = {"tile_set_id": "fixtures", "name": "CA-15.1 fixture tiles", "source": "tests/games/carcassonne/builder.py",
           "reconstructed": False, "tiles": [tile_entry(f, ruleset) for f in fixtures], "rules": dict(flags)}
    return components.from_document(doc, ruleset, "<fixtures>", check_set=False)


def tables_with(ruleset, flags, fixtures):
    """Tables of the fixture set plus attribute variants. Building tables is slow in Python,
    so each variant is built alone (cached) and its per-type rows are appended."""
    n = len(base_fixtures(ruleset))
    tables = tile_set(ruleset, flags, tuple(fixtures[:n])).tables.copy()
    tt = tables[0]
    for t, variant in enumerate(fixtures[n:], start=n):
        one = tile_set(ruleset, flags, (variant,)).tables[0]
        for field in components.TABLES.names:
            if tt[field].shape[:1] == (components.MAX_TYPES,):
                tt[field][t] = one[field][0]
        tt["n_types"] = t + 1
    return tables


def base_fixtures(ruleset):
    excluded = BASE_ONLY if ruleset == "ark" else ARK_ONLY
    return tuple(n for n in FIXTURES if n not in excluded)


# ---------------------------------------------------------------- positions

def xy(cell):
    x, y = xy_of(int(cell))
    return int(x), int(y)


class Position:
    """One hand-built game state: a state record plus the fixture tile set it refers to."""

    def __init__(self, ruleset="ark", players=5, **flags):
        self.ruleset = ruleset
        self.flags = tuple(sorted(flags.items()))
        self.fixtures = list(base_fixtures(ruleset))
        self._load_tables()
        self.ws = state.new_state()
        self.st = self.ws[0]
        rules.clear(self.st, players, np.zeros(5, dtype=np.int8))
        self.st["logging"] = 1
        self.players = players
        self.names = []              # pidx -> fixture name
        self.entries = []            # Ark entry options of the last act(), as (x, y)
        self.after_a = None          # copy of the state record after the last act()'s phase A
        self.last_events = []        # score events of the last act() / final()

    # ---- tile types
    def _load_tables(self):
        self.tables = tables_with(self.ruleset, self.flags, self.fixtures)
        self.tt = self.tables[0]

    def type_of(self, fixture):
        if fixture not in self.fixtures:          # a new attribute variant: append, indices stay
            self.fixtures.append(fixture)
            self._load_tables()
        return self.fixtures.index(fixture)

    # ---- board
    def pidx(self, x, y):
        p = int(self.st["cell_pidx"][cell_of(x, y)])
        assert p >= 0, f"no tile at ({x},{y})"
        return p

    def node(self, x, y, segment):
        p = self.pidx(x, y)
        return p * MAX_SEG + segment_names(self.names[p]).index(segment)

    def _check_placement(self, t, rot, x, y):
        """CA-4.2: empty cell, an orthogonal neighbour, every facing edge equal."""
        st, tt = self.st, self.tt
        assert st["cell_pidx"][cell_of(x, y)] < 0, f"({x},{y}) is occupied"
        neighbours = 0
        for side, (dx, dy) in enumerate(SIDE_OFFSET):
            q = st["cell_pidx"][cell_of(x + dx, y + dy)]
            if q < 0:
                continue
            neighbours += 1
            mine = tt["edge"][t, rot, side]
            theirs = tt["edge"][st["p_type"][q], st["p_rot"][q], (side + 2) % 4]
            assert mine == theirs, f"({x},{y}) r{rot}: {'NESW'[side]} edge {'FRC'[mine]} meets {'FRC'[theirs]}"
        assert neighbours > 0 or st["n_placed"] == 0, f"({x},{y}) touches no tile"

    def lay(self, seat, fixture, x, y, rot):
        """Phase T: place a tile (legality checked). Returns its pidx."""
        t = self.type_of(fixture)
        self._check_placement(t, rot, x, y)
        self.st["seat"] = seat
        rules.place_tile(self.st, self.tt, t, rot, cell_of(x, y))
        self.names.append(fixture)
        return self.st["n_placed"] - 1

    def place(self, x, y, fixture, rot=0, *figures):
        """A setup tile: placement, its figures ("BLUE@city", "BLUE PROPHET@city"), phase S."""
        self.lay(0, fixture, x, y, rot)
        for spec in figures:
            seat, prophet, seg = parse_figure(spec)
            label = ("PROPHET@" if prophet else "FOLLOWER@") + seg
            assert label in self.options(seat), f"setup figure {spec} at ({x},{y}) is not a legal action"
            rules.place_figure(self.st, seat, self.node(x, y, seg), prophet)
        scoring.score_turn(self.st, self.tt)
        assert rules.list_ark_entries(self.st, self.tt) == 0, "setup tile would bring the Ark in"

    def figure(self, x, y, spec):
        """A figure on any placed tile, vacant feature or not (AMB-23: builders may)."""
        seat, prophet, seg = parse_figure(spec)
        rules.place_figure(self.st, seat, self.node(x, y, seg), prophet)

    def set_ark(self, x, y):
        self.st["ark_cell"] = cell_of(x, y)

    # ---- a turn
    def options(self, seat):
        """Phase-A options in the engine's order: "PASS", "FOLLOWER@seg", "PROPHET@seg", "ARK"."""
        n = rules.list_actions(self.st, self.tt, seat)
        segs = segment_names(self.names[-1])
        out = []
        for a in self.st["actions"][:n]:
            kind, g = divmod(int(a), 16)
            out.append({PASS: "PASS", ARK: "ARK"}.get(kind) or
                       {FOLLOWER: "FOLLOWER@", PROPHET: "PROPHET@"}[kind] + segs[g])
        return out

    def ark_outcomes(self):
        """Legal Ark moves as paths of (x, y), first path of each outcome, canonical order."""
        n = rules.list_ark_outcomes(self.st, self.tt)
        return [[xy(c) for c in self.st["ark_path"][i, :self.st["ark_len"][i]]] for i in range(n)]

    def action_code(self, seat, action):
        if isinstance(action, list):                  # an Ark path [(x, y), ...]
            paths = self.ark_outcomes()
            assert action in paths, f"Ark path {action} is not a legal outcome: {paths}"
            return ARK * 16 + paths.index(action)
        assert action in self.options(seat), f"{action} is not legal: {self.options(seat)}"
        if action == "PASS":
            return PASS * 16
        kind, seg = action.split("@")
        return {"FOLLOWER": FOLLOWER, "PROPHET": PROPHET}[kind] * 16 + segment_names(self.names[-1]).index(seg)

    def act(self, seat, action="PASS", entry=None):
        """Phases A, S and E through playout.resolve_turn. action: "PASS", "FOLLOWER@seg",
        "PROPHET@seg" or an Ark path. entry: the Ark's entry cell (default: the first option).
        Returns the entry cell or None."""
        code = self.action_code(seat, action)
        probe = self.ws.copy()                        # the same phases on a copy, to look between them
        if code >= ARK * 16:
            k = code - ARK * 16
            scoring.move_ark(probe[0], self.tt, seat, probe[0]["ark_path"][k], probe[0]["ark_len"][k])
        else:
            rules.apply_action(probe[0], self.tt, seat, code)
        self.after_a = probe.copy()[0]
        scoring.score_turn(probe[0], self.tt)
        n = rules.list_ark_entries(probe[0], self.tt)
        self.entries = [xy(c) for c in probe[0]["tmp"][:n]]
        if entry is None and self.entries:
            entry = self.entries[0]
        mark = self.st["n_events"]
        got = playout.resolve_turn(self.st, self.tt, seat, code, cell_of(*entry) if entry else -1)
        self.last_events = self.events(mark)
        return None if got < 0 else xy(got)

    def turn(self, seat, fixture, x, y, rot, action="PASS", entry=None):
        self.lay(seat, fixture, x, y, rot)
        return self.act(seat, action, entry)

    def final(self):
        mark = self.st["n_events"]
        scoring.final_scoring(self.st, self.tt, 0.0)
        self.last_events = self.events(mark)
        return self.last_events

    # ---- the draw pile (CA-4.4)
    def set_pile(self, fixtures):
        for i, f in enumerate(fixtures):
            self.st["deck"][i] = self.type_of(f)
        self.st["n_deck"] = len(fixtures)
        self.st["top"] = 0

    def pile(self):
        return [self.fixtures[t] for t in self.st["deck"][self.st["top"]:self.st["n_deck"]]]

    def draw(self):
        t = rules.draw_placeable(self.st, self.tt)
        return None if t < 0 else self.fixtures[t]

    def placements(self, fixture):
        t = self.type_of(fixture)
        n = rules.list_placements(self.st, self.tt, t)
        return [xy(self.st["opt_cell"][i]) + (int(self.st["opt_rot"][i]),) for i in range(n)]

    # ---- reading the state
    def points(self):
        """Non-zero scores by seat name."""
        return {SEATS[s]: int(self.st["vp"][s]) for s in range(self.players) if self.st["vp"][s]}

    def supply(self, seat):
        return int(self.st["supply"][seat])

    def prophet(self, seat):
        return int(self.st["prophet_state"][seat])

    def ark(self):
        return None if self.st["ark_cell"] < 0 else xy(self.st["ark_cell"])

    def events(self, start=0):
        """Score events from the move log's entry start on: (seat name, points, reason)."""
        return [(SEATS[score.seat], score.points, REASONS[score.why]) for score in score_events(self.st, start)]


def parse_figure(spec):
    """ "BLUE@city" -> (1, False, "city"); "BLUE PROPHET@city" -> (1, True, "city")."""
    who, seg = spec.split("@")
    words = who.split()
    return SEATS.index(words[0]), words[1:] == ["PROPHET"], seg
