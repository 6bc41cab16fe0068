"""Strasbourg component data file -> validated numpy tables for the kernels.

The file (data/strasbourg.json) holds the city (guild spaces with their printed prices, the 7
building sites, the chapel spots with the cells each one scores, the city wall and its corners),
the 5 guilds, the council seats, the 5 round cards, the 5 buildings, the goods tiles, the 25 task
cards, one player's influence cards, the start coins and the rule switches the specification
offers for its ambiguities (SB-17). Every value carries a provenance:
rulebook, sourced or reconstructed. The shipped file is the specification's placeholder board P0
with its placeholder cards (SB-19), so results on it are provisional.

A file is checked against data/strasbourg.schema.json first (keys, types, list lengths, number
ranges: one UserError naming the item), then against the game's own constraints. Every value
that is not a name, an id, a note or a provenance reaches the kernels through the tables
(state.new_tables), or the loader refuses any value but the one the engine plays: the 6 x 9 grid,
PLANNING_MODE and SCREEN_HIDES_RESOURCES (FIXED_RULES), and goods tiles of one value per guild.

Cells are numbered row * 9 + col. Guilds, buildings, council seats, round cards and task cards
are numbered in file order; the guilds are listed by space price, most valuable first (SB-19.1).
"""
from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass

import numpy as np

from simcore.datafile import (
    describe_tally, read_json, rule_values, schema_validator, shipped_path, validate)
from simcore.contract import UserError

PACKAGE = "simcore.boardgames.strasbourg"
SCHEMA = "strasbourg.schema.json"       # data/: the file's shape, checked before everything below
WHAT = "Strasbourg data file"           # the file in error messages

# The city is 6 rows x 9 columns (SB-2.2 says 9 x 6 without saying which side has 9 cells; a
# board with 9 rows is the same city transposed, so the engine fixes one orientation: the
# straight lines and squares of TK-08..TK-10 are scored on it).
ROWS, COLS = 6, 9
N_CELLS = ROWS * COLS
N_SITES = 7                             # grey building sites (SB-2.2)
N_GUILDS = 5
ROUNDS = 5                              # one round card, one building, one chapel per round
GUILD_SUBPHASES = ("B", "D", "F")       # the sub-phases of a round card that name a guild (SB-6.1)
CARDS_PER_GUILD = 3                     # each guild is auctioned 3 times a game (SB-19.4)
N_BUILDINGS = 5
GOODS_PER_GUILD = 6                     # SB-1.7
N_TASK_CARDS = 25                       # SB-1.6
MAX_CADJ = 8                            # a chapel may score at most the 8 cells around one cell (AMB-02 c)
MAX_CHAPEL_SPOTS = (ROWS + 1) * (COLS + 1)   # the grid's vertices
MAX_DECK = 24                           # one player's influence cards (SB-1.5): the kernels' hand size
CARD_VALUES = 6                         # influence cards show 1..6 (SB-1.5): the kernels' per-value counts
NO_CELL = -1                            # padding of neighbour and CADJ tables; the guild/price of a site

SECTIONS = ("board", "guilds", "council", "round_cards", "buildings", "goods", "tasks", "influence",
            "player_start")
NOBILITY, CHURCH, MERCHANTS = "NOBILITY", "CHURCH", "MERCHANTS"   # the non-guild council seats (SB-2.1)

# Rule switches and their defaults: the specification's recommended readings (SB-17).
RULE_DEFAULTS = {
    "CHAPEL_ADJACENCY": "VERTEX",       # AMB-02: VERTEX = each spot's CADJ is the up to 4 cells around
                                        # its vertex (checked); LISTED = CADJ as the file lists it
    "MASTER_PARTS_OPTIONAL": False,     # AMB-05: the Master's seat and goods are automatic
    "ALLOW_DOMINATED_RETURN": False,    # AMB-07: a non-entitled revealer always returns a card
    "ALLOW_DOMINATED_PRIVILEGE": False, # AMB-08: no privilege when last in the queue or without bundles
    "PLANNING_MODE": "SEQUENTIAL",      # AMB-10: plan in seat order from the start player
    "CITY_WALL": "OUTER_RING",          # AMB-14: OUTER_RING = wall and corners are the grid's outer ring
                                        # and its 4 corners (checked); LISTED = as the file lists them
    "FM_LIMIT": None,                   # AMB-16: family members per player; None = unlimited
    "SCREEN_HIDES_RESOURCES": False,    # SB-16.2: coins, goods, privileges follow from public history
}
RULE_CHOICES = {                        # the schema lists the same choices
    "CHAPEL_ADJACENCY": ("VERTEX", "LISTED"),
    "PLANNING_MODE": ("SEQUENTIAL", "SIMULTANEOUS"),
    "CITY_WALL": ("OUTER_RING", "LISTED"),
}
# Switches that only choose what the loader checks: the kernels play the board's lists either way.
CHECK_SWITCHES = ("CHAPEL_ADJACENCY", "CITY_WALL")
# Switches the engine plays at one value only, and why. Their other readings change only what a
# player may see, and playing them needs more than a table value: the search players' redraw of
# hidden information (policies.determinize) would have to hide what the other reading hides.
FIXED_RULES = {
    "PLANNING_MODE": ("SEQUENTIAL", "players plan in seat order from the start player, seeing the "
                                    "earlier players' bundles (AMB-10); SIMULTANEOUS is not implemented"),
    "SCREEN_HIDES_RESOURCES": (False, "coins, goods and privileges follow from public history (SB-16.2); "
                                      "hiding them is not implemented"),
}
NO_FM_LIMIT = -1                        # FM_LIMIT None in the rule array
RULE_INDEX = {name: i for i, name in enumerate(RULE_DEFAULTS)}

# Task types (SB-13) -> their parameters. A count parameter has its (low, high) range; None marks
# the depicted building or guild, given by id in the file and stored as its index.
TASK_TYPES = {
    "TK-01": {"building": None, "min_family_members": (1, 4)},     # a site has 4 orthogonal neighbours
    "TK-02": {"min_family_members": (1, 4)},
    "TK-03": {"min_buildings": (1, N_BUILDINGS)},
    "TK-04": {"min_family_members": (1, N_CELLS)},
    "TK-05": {"min_family_members": (1, N_CELLS)},
    "TK-06": {"min_family_members": (1, 4)},                     # the wall has 4 corners
    "TK-07": {"guild": None, "min_family_members": (1, N_CELLS)},
    "TK-08": {"length": (2, 9)},                                 # a row or column holds at most 9 cells
    "TK-09": {"length": (2, 6)},                                 # a diagonal holds at most 6 cells
    "TK-10": {"side": (2, 6)},
    "TK-11": {"min_family_members_per_guild": (1, 9)},
    "TK-12": {},
    "TK-13": {"min_seats_3p": (1, 8), "min_seats_4p": (1, 8), "min_seats_5p": (1, 8)},
    "TK-14": {},
    "TK-15": {},
    "TK-16": {"min_goods_kinds": (1, N_GUILDS)},
    "TK-17": {},
}
TASK_TYPE_IDS = tuple(TASK_TYPES)
TASK_TYPE_CODE = {kind: int(kind[3:]) for kind in TASK_TYPES}    # the kernels' task_type: TK-08 -> 8
MAX_TASK_PARAMS = max(len(params) for params in TASK_TYPES.values())

# How people read a task card; the placeholders are the card's parameters (names for guild/building).
TASK_TEXT = {
    "TK-01": "{min_family_members}+ family members next to the {building}",
    "TK-02": "{min_family_members}+ family members next to the same building",
    "TK-03": "family members next to {min_buildings}+ different buildings",
    "TK-04": "{min_family_members}+ family members next to chapels",
    "TK-05": "{min_family_members}+ family members on the city wall",
    "TK-06": "{min_family_members}+ family members in the wall's corners",
    "TK-07": "{min_family_members}+ family members in the {guild}",
    "TK-08": "{length} family members side by side in a row or column",
    "TK-09": "{length} family members side by side on a diagonal",
    "TK-10": "family members on a {side} x {side} square",
    "TK-11": "{min_family_members_per_guild}+ family members in every guild",
    "TK-12": "a seat of nobility or church",
    "TK-13": "council seats: {min_seats_3p}/{min_seats_4p}/{min_seats_5p} with 3/4/5 players",
    "TK-14": "most family members in the city",
    "TK-15": "most coins",
    "TK-16": "goods of {min_goods_kinds}+ guilds",
    "TK-17": "the start player marker",
}


@dataclass
class StrasbourgData:
    """A validated Strasbourg data set: numpy tables for the kernels plus names for people."""
    data_set_id: str
    name: str
    source: str
    reconstructed: bool
    path: str
    rules: dict
    rule_values: np.ndarray            # int32[len(RULE_DEFAULTS)], RULE_INDEX order; choices as indexes
    rows: int
    cols: int
    cell_row: np.ndarray               # int8[54]
    cell_col: np.ndarray               # int8[54]
    cell_guild: np.ndarray             # int8[54]: guild index, NO_CELL on a building site
    cell_price: np.ndarray             # int16[54]: printed price, NO_CELL on a building site
    is_site: np.ndarray                # bool[54]
    sites: np.ndarray                  # int8[7]: the building-site cells, row by row
    guild_spaces: np.ndarray           # int8[5]: spaces per guild
    orth: np.ndarray                   # int8[54, 4]: ORTH(s), NO_CELL padded (SB-2.4; BADJ = ORTH)
    n_orth: np.ndarray                 # int8[54]
    diag: np.ndarray                   # int8[54, 4]: DIAG(s), NO_CELL padded
    n_diag: np.ndarray                 # int8[54]
    chapel_vertex: np.ndarray          # int8[spots, 2]: (vr, vc)
    chapel_cadj: np.ndarray            # int8[spots, 8]: CADJ(spot), NO_CELL padded
    chapel_n_cadj: np.ndarray          # int8[spots]
    on_wall: np.ndarray                # bool[54]: WALL
    is_corner: np.ndarray              # bool[54]: CORNERS
    guild_ids: list[str]
    guild_names: list[str]
    council_seats: list[str]           # seat index -> id
    seat_guild: np.ndarray             # int8[8]: guild of a guild seat, -1 for the others
    guild_seat: np.ndarray             # int8[5]: SEAT[g]
    nobility_seat: int
    church_seat: int
    merchants_seat: int
    round_card_ids: list[str]
    card_guilds: np.ndarray            # int8[5, 3]: each round card's guild index at B, D, F
    building_ids: list[str]
    building_names: list[str]
    building_value: np.ndarray         # int16[5]
    goods_value: np.ndarray            # int16[5, 6]: coins for each goods tile of each guild
    task_ids: list[str]
    task_names: list[str]
    task_type: np.ndarray              # int8[25]: TASK_TYPE_CODE, the TK number 1..17
    task_param: np.ndarray             # int16[25, MAX_TASK_PARAMS]: TASK_TYPES order, -1 padded
    task_prestige: np.ndarray          # int16[25]
    influence_cards: np.ndarray        # int8[5..24]: one player's influence cards, ascending
    start_coins: int                   # each player's coins at the start (SB-3.3)
    provenance: dict[str, str]

    def cell(self, row: int, col: int) -> int:
        return row * self.cols + col

    def cell_name(self, cell: int) -> str:
        return f"({self.cell_row[cell]},{self.cell_col[cell]})"


def default_path() -> str:
    return shipped_path(PACKAGE, "strasbourg.json")


def load(path: str | None = None) -> StrasbourgData:
    """Read, validate and convert a Strasbourg data file (None: the shipped one)."""
    path = path or default_path()
    return from_document(read_json(path, WHAT), path)


def from_document(doc, path: str = "<data>") -> StrasbourgData:
    """Validate a parsed data document and build its tables: the schema first (keys, types, list
    lengths, ranges), then the game's own constraints."""
    validate(doc, schema_validator(PACKAGE, SCHEMA), path, WHAT)
    doc = whole_numbers(doc)

    def bad(item, msg):
        raise UserError(f"{WHAT} {path}: {item}: {msg}")

    rules = read_rules(doc.get("rules", {}), bad)
    guilds = read_guilds(doc["guilds"], bad)
    guild_ids = [g["id"] for g in guilds]
    board = read_board(doc["board"], rules, guild_ids, bad)
    council = read_council(doc["council"], guild_ids, bad)
    buildings = read_buildings(doc["buildings"], bad)
    tasks = read_tasks(doc["tasks"], guilds, buildings, bad)
    return StrasbourgData(
        data_set_id=doc["data_set_id"],
        name=doc["name"],
        source=doc.get("source", ""),
        reconstructed=doc.get("reconstructed", False),
        path=path,
        rules=rules,
        rule_values=rule_values(rules, RULE_DEFAULTS, RULE_CHOICES, none=NO_FM_LIMIT),
        **board,
        guild_ids=guild_ids,
        guild_names=[g["name"] for g in guilds],
        **council,
        **read_round_cards(doc["round_cards"], guild_ids, bad),
        building_ids=[b["id"] for b in buildings],
        building_names=[b["name"] for b in buildings],
        building_value=np.array([b["value"] for b in buildings], dtype=np.int16),
        goods_value=read_goods(doc["goods"], guild_ids, bad),
        **tasks,
        influence_cards=read_influence(doc["influence"], bad),
        start_coins=doc["player_start"]["coins"],
        provenance=summarise_provenance(doc),
    )


def whole_numbers(doc):
    """The document with its numbers as ints. JSON Schema counts 2.0 as an integer, and the schema
    admits no other numbers, so every float here is whole; as a float it could not count a list
    or index a table."""
    if isinstance(doc, dict):
        return {key: whole_numbers(value) for key, value in doc.items()}
    if isinstance(doc, list):
        return [whole_numbers(value) for value in doc]
    return int(doc) if isinstance(doc, float) else doc


def provenance(data: StrasbourgData) -> dict[str, str]:
    """component -> provenance, for `simcore games`."""
    prov = dict(data.provenance)
    prov["rules"] = "rulebook; its gaps read as the specification does (AMB-01..AMB-25, rule switches)"
    return prov


def read_rules(given, bad) -> dict:
    """The file's rule switches over the defaults (the schema has checked their values); a switch
    the engine plays at one value only is refused at any other (FIXED_RULES)."""
    rules = {**RULE_DEFAULTS, **given}
    for name, (fixed, why) in FIXED_RULES.items():
        require_fixed(rules[name], fixed, f"rules.{name}", why, bad)
    return rules


def require_fixed(value, fixed, item, why, bad):
    if value != fixed:
        bad(item, f"is fixed at {json.dumps(fixed)}, found {json.dumps(value)}: {why}")


# ---------------------------------------------------------------- guilds and council

def read_guilds(section, bad):
    guilds = [{"id": kind["id"], "name": kind["name_en"]} for kind in section["kinds"]]
    for guild in guilds:
        if guild["id"] in (NOBILITY, CHURCH, MERCHANTS):
            bad(f"guild {guild['id']}", "the id is taken by a council seat")
    if len({g["id"] for g in guilds}) != N_GUILDS:
        bad("guilds.kinds", "guild ids are not unique")
    return guilds


def read_council(section, guild_ids, bad):
    """The 8 seats: nobility, church, one per guild (SEAT[g]) and the merchants (SB-2.1).

    Where a seat sits does not matter to the rules, so the order is fixed: kernels may then number
    the seats as constants (NOBILITY 0, CHURCH 1, SEAT[g] 2 + g, MERCHANTS 7)."""
    seats = section["seats"]
    expected = [NOBILITY, CHURCH, *guild_ids, MERCHANTS]
    if seats != expected:
        bad("council.seats", f"must be {NOBILITY}, {CHURCH}, one seat per guild in guild order and {MERCHANTS}: "
                             f"{', '.join(expected)} (SB-2.1)")
    seat_guild = np.array([guild_ids.index(s) if s in guild_ids else -1 for s in seats], dtype=np.int8)
    return {"council_seats": list(seats), "seat_guild": seat_guild,
            "guild_seat": np.array([seats.index(g) for g in guild_ids], dtype=np.int8),
            "nobility_seat": seats.index(NOBILITY), "church_seat": seats.index(CHURCH),
            "merchants_seat": seats.index(MERCHANTS)}


# ---------------------------------------------------------------- the city board

def read_board(board, rules, guild_ids, bad):
    why = (f"the city is {ROWS} rows x {COLS} columns (SB-2.2); a board with {COLS} rows is the same "
           f"city transposed, list it so")
    require_fixed(board["rows"], ROWS, "board.rows", why, bad)
    require_fixed(board["cols"], COLS, "board.cols", why, bad)
    cells = read_cells(board["cells"], guild_ids, bad)
    check_districts(cells["cell_guild"], guild_ids, bad)
    orth, n_orth = neighbour_table(((-1, 0), (0, 1), (1, 0), (0, -1)))
    diag, n_diag = neighbour_table(((-1, -1), (-1, 1), (1, -1), (1, 1)))
    return {"rows": ROWS, "cols": COLS, **cells, "orth": orth, "n_orth": n_orth, "diag": diag,
            "n_diag": n_diag, **read_chapel_spots(board["chapel_spots"], rules, bad),
            **read_wall(board, rules, bad)}


def read_cells(cells, guild_ids, bad):
    """Every grid cell once: a guild space with its guild and price, or a building site."""
    guild = np.full(N_CELLS, NO_CELL, dtype=np.int8)
    price = np.full(N_CELLS, NO_CELL, dtype=np.int16)
    is_site = np.zeros(N_CELLS, dtype=np.bool_)
    seen = np.zeros(N_CELLS, dtype=np.bool_)
    for cell in cells:
        item = f"board cell ({cell['r']},{cell['c']})"
        s = cell["r"] * COLS + cell["c"]
        if seen[s]:
            bad(item, "is listed twice")
        seen[s] = True
        if cell["kind"] == "site":
            if cell["guild"] is not None or cell["price"] is not None:
                bad(item, "a building site has no guild and no price")
            is_site[s] = True
            continue
        if cell["price"] is None:
            bad(item, "a guild space has a printed price")
        if cell["guild"] not in guild_ids:
            bad(item, f"unknown guild {cell['guild']!r} (known: {', '.join(guild_ids)})")
        guild[s] = guild_ids.index(cell["guild"])
        price[s] = cell["price"]
    if is_site.sum() != N_SITES:
        bad("board.cells", f"{is_site.sum()} building sites, the city has exactly {N_SITES} (SB-2.2)")
    return {"cell_row": (np.arange(N_CELLS) // COLS).astype(np.int8),
            "cell_col": (np.arange(N_CELLS) % COLS).astype(np.int8),
            "cell_guild": guild, "cell_price": price, "is_site": is_site,
            "sites": np.flatnonzero(is_site).astype(np.int8),
            "guild_spaces": np.bincount(guild[guild >= 0], minlength=len(guild_ids)).astype(np.int8)}


def check_districts(cell_guild, guild_ids, bad):
    """Each guild's spaces form one district, connected through shared edges (SB-2.2)."""
    for g, gid in enumerate(guild_ids):
        districts = count_districts(cell_guild == g)
        if districts == 0:
            bad("board.cells", f"the {gid} have no spaces; every guild has a district (SB-2.2)")
        if districts > 1:
            bad("board.cells", f"the {gid} spaces form {districts} separate districts; a guild's spaces "
                               f"must be one orthogonally connected district (SB-2.2)")


def count_districts(member) -> int:
    seen = np.zeros(N_CELLS, dtype=np.bool_)
    districts = 0
    for start in np.flatnonzero(member):
        if seen[start]:
            continue
        districts += 1
        seen[start] = True
        queue = deque([start])
        while queue:
            r, c = divmod(int(queue.popleft()), COLS)
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                s = nr * COLS + nc
                if 0 <= nr < ROWS and 0 <= nc < COLS and member[s] and not seen[s]:
                    seen[s] = True
                    queue.append(s)
    return districts


def neighbour_table(steps):
    """The cells one step away in each direction, compacted and NO_CELL padded, and their count."""
    table = np.full((N_CELLS, len(steps)), NO_CELL, dtype=np.int8)
    count = np.zeros(N_CELLS, dtype=np.int8)
    for s in range(N_CELLS):
        r, c = divmod(s, COLS)
        for dr, dc in steps:
            if 0 <= r + dr < ROWS and 0 <= c + dc < COLS:
                table[s, count[s]] = (r + dr) * COLS + c + dc
                count[s] += 1
    return table, count


def read_chapel_spots(spots, rules, bad):
    """White spots on grid vertices (SB-2.3), each with the cells its chapel scores (CADJ, AMB-02)."""
    vertex = np.zeros((len(spots), 2), dtype=np.int8)
    cadj = np.full((len(spots), MAX_CADJ), NO_CELL, dtype=np.int8)
    n_cadj = np.zeros(len(spots), dtype=np.int8)
    seen = set()
    for k, spot in enumerate(spots):
        vr, vc = spot["vr"], spot["vc"]
        item = f"chapel spot ({vr},{vc})"
        if (vr, vc) in seen:
            bad(item, "is listed twice")
        seen.add((vr, vc))
        cells = read_cell_list(spot["cadj"], f"{item}: cadj", bad)
        if rules["CHAPEL_ADJACENCY"] == "VERTEX" and sorted(cells) != cells_around_vertex(vr, vc):
            bad(item, "cadj must be the cells around its vertex (rules.CHAPEL_ADJACENCY = VERTEX, AMB-02)")
        vertex[k] = vr, vc
        cadj[k, :len(cells)] = cells
        n_cadj[k] = len(cells)
    return {"chapel_vertex": vertex, "chapel_cadj": cadj, "chapel_n_cadj": n_cadj}


def cells_around_vertex(vr, vc) -> list[int]:
    """Vertex (vr, vc) is the corner shared by cells (vr-1..vr, vc-1..vc): 4 inside, fewer on the edge."""
    return sorted(r * COLS + c for r in (vr - 1, vr) for c in (vc - 1, vc) if 0 <= r < ROWS and 0 <= c < COLS)


def read_wall(board, rules, bad):
    """WALL and CORNERS for TK-05 and TK-06 (SB-2.4, AMB-14)."""
    outer_ring = rules["CITY_WALL"] == "OUTER_RING"
    wall = read_cell_list(board["wall"], "board.wall", bad)
    if outer_ring:
        ring = sorted(r * COLS + c for r in range(ROWS) for c in range(COLS)
                      if r in (0, ROWS - 1) or c in (0, COLS - 1))
        if sorted(wall) != ring:
            bad("board.wall", f"must be the outer ring of the grid, {len(ring)} cells "
                              f"(rules.CITY_WALL = OUTER_RING, AMB-14)")
    corners = read_cell_list(board["corners"], "board.corners", bad)
    if not set(corners) <= set(wall):
        bad("board.corners", "every corner must be a wall cell")
    if outer_ring:
        if sorted(corners) != [0, COLS - 1, (ROWS - 1) * COLS, ROWS * COLS - 1]:
            bad("board.corners", "must be the 4 corners of the grid (rules.CITY_WALL = OUTER_RING, AMB-14)")
    on_wall = np.zeros(N_CELLS, dtype=np.bool_)
    on_wall[wall] = True
    is_corner = np.zeros(N_CELLS, dtype=np.bool_)
    is_corner[corners] = True
    return {"on_wall": on_wall, "is_corner": is_corner}


def read_cell_list(given, item, bad) -> list[int]:
    """[[r, c], ...] -> distinct cell indexes."""
    cells = []
    for r, c in given:
        s = r * COLS + c
        if s in cells:
            bad(item, f"cell ({r},{c}) is listed twice")
        cells.append(s)
    return cells


# ---------------------------------------------------------------- cards and tiles

def read_round_cards(section, guild_ids, bad):
    """5 cards, each naming the guilds of sub-phases B, D and F (SB-1.2, SB-19.4)."""
    cards = section["cards"]
    ids = [card["id"] for card in cards]
    if len(set(ids)) != len(ids):
        bad("round_cards.cards", "round card ids are not unique")
    table = np.zeros((ROUNDS, len(GUILD_SUBPHASES)), dtype=np.int8)
    for k, card in enumerate(cards):
        item = f"round card {ids[k]}"
        guilds = card["guilds"]
        for g in guilds:
            if g not in guild_ids:
                bad(item, f"unknown guild {g!r} (known: {', '.join(guild_ids)})")
        if len(set(guilds)) != len(guilds):
            bad(item, "names a guild twice; a card's 3 guilds differ (SB-19.4)")
        table[k] = [guild_ids.index(g) for g in guilds]
    for g, gid in enumerate(guild_ids):
        named = int((table == g).sum())
        if named != CARDS_PER_GUILD:
            bad("round_cards.cards", f"{gid} is named on {named} cards; each guild is auctioned on exactly "
                                     f"{CARDS_PER_GUILD} (SB-19.4)")
    return {"round_card_ids": ids, "card_guilds": table}


def read_buildings(section, bad):
    buildings = [{"id": tile["id"], "name": tile["name_en"], "value": tile["value"]} for tile in section["tiles"]]
    if len({b["id"] for b in buildings}) != N_BUILDINGS:
        bad("buildings.tiles", "building ids are not unique")
    return buildings


def read_goods(section, guild_ids, bad) -> np.ndarray:
    """6 goods tiles per guild, each with the coins a merchant pays for it (SB-1.7, SB-19.2)."""
    tiles = section["tiles"]
    for gid in tiles:
        if gid not in guild_ids:
            bad(f"goods.tiles.{gid}", f"unknown guild (known: {', '.join(guild_ids)})")
    values = np.zeros((len(guild_ids), GOODS_PER_GUILD), dtype=np.int16)
    for g, gid in enumerate(guild_ids):
        if gid not in tiles:
            bad(f"goods.tiles.{gid}", f"the guild's {GOODS_PER_GUILD} goods tiles are missing (SB-1.7)")
        given = tiles[gid]
        if len(set(given)) != 1:
            # the value is printed per goods kind (SB-19.2); the engine does not track single tiles
            bad(f"goods.tiles.{gid}", "all tiles of a guild must have the same value (SB-19.2)")
        values[g] = given
    return values


def read_tasks(section, guilds, buildings, bad):
    """25 task cards: a task type TK-01..TK-17, its parameters and the printed prestige (SB-13)."""
    guild_ids, building_ids = [g["id"] for g in guilds], [b["id"] for b in buildings]
    cards = section["cards"]
    task_type = np.zeros(N_TASK_CARDS, dtype=np.int8)
    task_param = np.full((N_TASK_CARDS, MAX_TASK_PARAMS), -1, dtype=np.int16)
    prestige = np.zeros(N_TASK_CARDS, dtype=np.int16)
    ids, names = [], []
    for i, card in enumerate(cards):
        kind = card["type"]
        params = read_task_params(card["params"], kind, f"task {card['id']}", guild_ids, building_ids, bad)
        task_type[i] = TASK_TYPE_CODE[kind]
        task_param[i, :len(params)] = list(params.values())
        prestige[i] = card["prestige"]
        ids.append(card["id"])
        names.append(task_name(kind, params, guilds, buildings))
    if len(set(ids)) != len(ids):
        bad("tasks.cards", "task ids are not unique")
    return {"task_ids": ids, "task_names": names, "task_type": task_type, "task_param": task_param,
            "task_prestige": prestige}


def read_task_params(given, kind, item, guild_ids, building_ids, bad) -> dict[str, int]:
    """The card's parameters in TASK_TYPES order; a depicted guild or building as its index."""
    expected = TASK_TYPES[kind]
    for name in given:
        if name not in expected:
            bad(item, f"unknown parameter {name!r} for {kind} (known: {', '.join(expected) or 'none'})")
    params = {}
    for name, limits in expected.items():
        if name not in given:
            bad(item, f"parameter {name} is missing")
        value = given[name]
        if limits is None:
            depicted = guild_ids if name == "guild" else building_ids
            if value not in depicted:
                bad(item, f"{name} {value!r} is not a {name} of this file (known: {', '.join(depicted)})")
            params[name] = depicted.index(value)
        else:
            if not (isinstance(value, int) and limits[0] <= value <= limits[1]):
                bad(item, f"{name} must be a whole number {limits[0]}..{limits[1]}")
            params[name] = value
    return params


def task_name(kind, params, guilds, buildings) -> str:
    """'TK-07: 3+ family members in the Smiths' (params as read_task_params returns them)."""
    words = dict(params)
    if "guild" in words:
        words["guild"] = guilds[words["guild"]]["name"]
    if "building" in words:
        words["building"] = buildings[words["building"]]["name"]
    return f"{kind}: " + TASK_TEXT[kind].format(**words)


def read_influence(section, bad) -> np.ndarray:
    """One player's influence cards: how many of each value (SB-1.5: 1..6, four each)."""
    cards = [int(value) for value, count in section["cards_per_value"].items() for _ in range(count)]
    # Every round starts with a compulsory draw, so a deck needs a card per round (SB-5.3).
    if not ROUNDS <= len(cards) <= MAX_DECK:
        bad("influence.cards_per_value", f"a player's deck must hold {ROUNDS}..{MAX_DECK} cards "
                                         f"(one draw per round, SB-5.3), found {len(cards)}")
    return np.array(sorted(cards), dtype=np.int8)


# ---------------------------------------------------------------- provenance

# Sections whose items carry their own provenance, and the list that holds the items.
ITEM_LISTS = {"guilds": "kinds", "round_cards": "cards", "buildings": "tiles", "tasks": "cards"}


def summarise_provenance(doc) -> dict[str, str]:
    """component -> provenance, e.g. board.layout -> reconstructed, buildings.value -> reconstructed 3, rulebook 2."""
    tallies: dict[str, dict[str, int]] = {}

    def count(component, value):
        tally = tallies.setdefault(component, {})
        tally[value] = tally.get(value, 0) + 1

    for section in SECTIONS:
        items = doc[section][ITEM_LISTS[section]] if section in ITEM_LISTS else []
        for entry in (doc[section], *items):
            for key, value in entry.get("provenance", {}).items():
                count(f"{section}.{key}", value)
    return {component: describe_tally(tally) for component, tally in tallies.items()}
