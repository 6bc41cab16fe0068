"""Notre Dame component data file -> validated numpy tables for the kernels.

The file (data/notre_dame.json) holds the street graphs of the 3-, 4- and 5-district layouts in
one or more variants, the 15 person cards, the rats each stage shows, the message tiles, the Notre
Dame payouts, the 2-player board and the rule switches (the specification's §19 flags plus
CONSTANT_RATS and STREET_GRAPH). Every value carries a provenance: rulebook, sourced or
reconstructed. data/notre_dame_rats45.json is the earlier reconstruction of the rats (13/16/16
a stage), kept for comparison.

The file's shape (keys, types, ranges, list lengths) is data/notre_dame.schema.json, checked
first; this module then checks what a schema cannot say: ids that must exist, the street
graphs, card counts, and the values the rules fix. Every other value reaches the kernels
(tests/games/notre_dame/test_data_contract.py holds each leaf of the file to that).

Markets are numbered district * 5 + role, the roles in the order of board.markets_per_district.
Tables indexed by player count have 6 rows (0 and 1 unused); the 2-player game uses the
4-district board with the players in districts 0 and 2 (ND-2.2).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from simcore.datafile import describe_tally, read_json, rule_values, schema_validator, shipped_path, validate
from simcore.contract import UserError

PACKAGE = "simcore.boardgames.notre_dame"
SCHEMA = "notre_dame.schema.json"
WHAT = "Notre Dame data file"

PLAYER_COUNTS = (2, 3, 4, 5)
LAYOUTS = (3, 4, 5)                     # districts on the table (ND-1.4)
MARKETS_PER_DISTRICT = 5                # 1 central + 4 message markets (ND-2.4, §21.6)
MAX_DISTRICTS = 5
MAX_MARKETS = MAX_DISTRICTS * MARKETS_PER_DISTRICT
MAX_STREETS_AT_MARKET = 8
UNREACHABLE = -1

N_PERSONS, N_BROWN, N_GREY = 15, 6, 9   # ND-1.1
LETTERS = ("A", "B", "C")               # grey letter = stage (ND-2.5); 3 cards each
CARDS_PER_LETTER = 3
MAX_RATS = 3                            # each person card shows 0-3 rats (ND-10; the schema's bound)
DEFAULT_CONSTANT_RATS = 2               # the specification's placeholder (§21.4)

# Person effect ids (ND-15); index = effect code used by the kernels.
EFFECTS = ("HOUSEKEEPER", "MONK", "MONEYLENDER", "MINSTREL", "JESTER", "DOCTOR",
           "CITY_GUARD", "NIGHT_WATCHMAN", "BISHOP", "GUILD_MASTER", "BEGGAR_KING", "LAWYER",
           "LADY", "MAYOR", "CARPENTER")
BROWN_EFFECTS = frozenset(EFFECTS[:6])

MESSAGE_KINDS = 4                       # M1..M4 (ND-1.3)
DONATIONS = (1, 2, 3)                   # gold a Notre Dame card may donate (ND-8.1)

# Rule switches and their defaults (the specification's §19; A-n cited there).
RULE_DEFAULTS = {
    "F_START_GOLD": 3,
    "F_PLAGUE_MODE": "NET",
    "F_OUTBREAK_AT": 10,
    "F_OUTBREAK_RESET_TO": 9,
    "F_VP_FLOOR0": True,
    "F_CONFIDANT_MAY_STAY": True,
    "F_CARRIAGE_MAY_STAY": True,
    "F_BANK_STEAL": "ONE_VICTIM",       # A-11; the rulebook: all missing coins from the richest
    "F_BANK_TIE": "CLOCKWISE",
    "F_GOLD_STEAL_ALL_SOURCES": False,
    "F_VOLUNTARY_FORFEIT": False,
    "F_GUARD_COUNTS_ND": True,
    "F_ND_SPLIT": "PER_CUBE",
    "F_ALLOW_USELESS_BRIBE": True,
    "F_VP_PUBLIC": True,
    "CONSTANT_RATS": False,             # true: every card 2 rats, the spec's placeholder (§21.4)
    "STREET_GRAPH": "core",             # a key of board.street_graphs
}
RULE_CHOICES = {
    "F_PLAGUE_MODE": ("NET", "SEQUENTIAL", "NET_NO_BACK"),
    "F_BANK_STEAL": ("PER_COIN", "ONE_VICTIM", "NONE"),
    "F_BANK_TIE": ("CLOCKWISE", "CHOOSER"),
    "F_ND_SPLIT": ("PER_CUBE", "PER_PLAYER"),
}
RULE_INDEX = {name: i for i, name in enumerate(RULE_DEFAULTS)}


@dataclass
class NotreDameData:
    """A validated Notre Dame data set: numpy tables for the kernels plus names for people."""
    data_set_id: str
    name: str
    source: str
    reconstructed: bool
    path: str
    rules: dict
    rule_values: np.ndarray            # int32[len(RULE_DEFAULTS)], RULE_INDEX order; choices as indexes
    street_graphs: list[str]           # variant index -> name
    street_graph: int                  # the variant STREET_GRAPH selects
    market_roles: list[str]            # role index -> name ("C", "I_ccw", ...)
    central_role: int
    districts: np.ndarray              # int8[6]: districts on the table per player count
    seat_district: np.ndarray          # int8[6, 5]: district of each seat, -1 for no seat
    neutral_district: np.ndarray       # bool[6, 5]: districts without a player (2 players)
    district_messages: np.ndarray      # bool[6, 5]: districts whose colour's 4 tiles are placed (ND-2.2)
    adjacency: np.ndarray              # bool[variants, 6, 25, 25]
    distance: np.ndarray               # int8[variants, 6, 25, 25], UNREACHABLE off the table
    neighbours: np.ndarray             # int8[variants, 6, 25, 8], -1 padded
    n_neighbours: np.ndarray           # int8[variants, 6, 25]
    central_market: np.ndarray         # int8[5]: central market of each district
    message_markets: np.ndarray        # int8[5, 4]: the 4 message markets of each district
    person_ids: list[str]
    person_names: list[str]
    person_effect: np.ndarray          # int8[15]: index into EFFECTS
    person_grey: np.ndarray            # bool[15]
    person_letter: np.ndarray          # int8[15]: 0/1/2 = A/B/C, -1 brown
    person_rats: np.ndarray            # int8[15]: rats in play (the constant placeholder if CONSTANT_RATS)
    person_rats_printed: np.ndarray    # int8[15]: the file's per-card rats, whatever the switch
    message_ids: list[str]
    message_vp: np.ndarray             # int8[4] per kind
    message_gold: np.ndarray
    message_cubes: np.ndarray
    message_rat_back: np.ndarray
    colour_tiles: np.ndarray           # int8[4]: the message kinds of one colour's tiles
    nd_payout: np.ndarray              # int16[6]: Notre Dame payout P per player count
    donation_vp: np.ndarray            # int16[4]: VP for donating 0..3 gold
    constant_rats: int                 # the rats on every card when CONSTANT_RATS is on
    rats_per_stage: dict[str, int]     # the file's stated totals by letter ({} if it states none)
    provenance: dict[str, str]
    warnings: list[str]                # ways the file loads but departs from what it states

    def stage_rats(self) -> list[int]:
        """Rats in play in each stage A, B, C."""
        return stage_totals(self.person_rats, self.person_letter)

    def distances(self, players: int, variant: int | None = None) -> np.ndarray:
        """Street distances between markets on the board of a player count."""
        v = self.street_graph if variant is None else variant
        m = self.districts[players] * MARKETS_PER_DISTRICT
        return self.distance[v, players, :m, :m]

    def market_name(self, market: int) -> str:
        district, role = divmod(market, MARKETS_PER_DISTRICT)
        return f"{district}.{self.market_roles[role]}"


def default_path() -> str:
    return shipped_path(PACKAGE, "notre_dame.json")


def load(path: str | None = None) -> NotreDameData:
    """Read, validate and convert a Notre Dame data file (None: the shipped one)."""
    path = path or default_path()
    return from_document(read_json(path, WHAT), path)


def from_document(doc, path: str = "<data>") -> NotreDameData:
    """Validate a parsed data document (its schema first, then the game's constraints) and build
    its tables."""
    validate(doc, schema_validator(PACKAGE, SCHEMA), path, WHAT)
    return build(doc, path)


def build(doc, path: str) -> NotreDameData:
    """The tables of a document that passed the schema, after the game's own constraints."""
    def bad(item, msg):
        raise UserError(f"{WHAT} {path}: {item}: {msg}")

    rules = read_rules(doc.get("rules", {}), bad)
    board = read_board(doc["board"], rules, bad)
    persons = read_persons(doc["persons"], bad)
    constant = doc.get("constant_rats", DEFAULT_CONSTANT_RATS)
    messages = read_messages(doc["messages"], bad)
    cathedral = read_notre_dame(doc["notre_dame"])
    rats = np.array([p["rats"] for p in persons], dtype=np.int8)
    letters = np.array([LETTERS.index(p["letter"]) if p["letter"] else -1 for p in persons], dtype=np.int8)
    stated = doc.get("rats_per_stage", {})
    return NotreDameData(
        data_set_id=doc.get("data_set_id", "unnamed"),
        name=doc.get("name", doc.get("data_set_id", "unnamed")),
        source=doc.get("source", ""),
        reconstructed=doc.get("reconstructed", False),
        path=path,
        rules=rules,
        rule_values=rule_values(rules, RULE_DEFAULTS, RULE_CHOICES,
                                convert={"STREET_GRAPH": board["variants"].index}),
        street_graphs=board["variants"],
        street_graph=board["variants"].index(rules["STREET_GRAPH"]),
        market_roles=board["roles"],
        central_role=board["central_role"],
        districts=board["districts"],
        seat_district=board["seat_district"],
        neutral_district=board["neutral_district"],
        district_messages=board["district_messages"],
        adjacency=board["adjacency"],
        distance=board["distance"],
        neighbours=board["neighbours"],
        n_neighbours=board["n_neighbours"],
        central_market=board["central_market"],
        message_markets=board["message_markets"],
        person_ids=[p["id"] for p in persons],
        person_names=[p["name"] for p in persons],
        person_effect=np.array([EFFECTS.index(p["effect"]) for p in persons], dtype=np.int8),
        person_grey=np.array([p["colour"] == "grey" for p in persons]),
        person_letter=letters,
        person_rats=np.full(N_PERSONS, constant, np.int8) if rules["CONSTANT_RATS"] else rats,
        person_rats_printed=rats,
        message_ids=messages["ids"],
        message_vp=messages["vp"],
        message_gold=messages["gold"],
        message_cubes=messages["cubes"],
        message_rat_back=messages["rat_back"],
        colour_tiles=messages["colour_tiles"],
        nd_payout=cathedral["payout"],
        donation_vp=cathedral["donation_vp"],
        constant_rats=constant,
        rats_per_stage={letter: stated[letter] for letter in LETTERS if letter in stated},
        provenance=summarise_provenance(doc, persons),
        warnings=stage_rats_warnings(stated, stage_totals(rats, letters)),
    )


def read_rules(given, bad) -> dict:
    """The file's rule switches over the defaults (the schema checked each value)."""
    rules = {**RULE_DEFAULTS, **given}
    if not rules["F_VP_PUBLIC"]:
        bad("rules.F_VP_PUBLIC", "is fixed at true: the simulator's players remember every public event, "
                                 "so VP are public (ND-17.3, A-28)")
    return rules


# ---------------------------------------------------------------- board and street graphs

def read_board(board, rules, bad):
    roles, central_role = read_district_markets(board, bad)
    districts = read_districts_by_players(board["districts_by_players"], bad)
    seat_district, neutral, district_messages = read_seats(board["two_player"], districts, bad)
    graphs = board["street_graphs"]
    variants = list(graphs)
    if rules["STREET_GRAPH"] not in variants:
        bad("rules.STREET_GRAPH", f"names no street graph (known: {', '.join(variants)})")
    shape = (len(variants), 6, MAX_MARKETS, MAX_MARKETS)
    adjacency = np.zeros(shape, dtype=np.bool_)
    distance = np.full(shape, UNREACHABLE, dtype=np.int8)
    neighbours = np.full(shape[:3] + (MAX_STREETS_AT_MARKET,), -1, dtype=np.int8)
    n_neighbours = np.zeros(shape[:3], dtype=np.int8)
    for v, variant in enumerate(variants):
        layouts = read_layouts(variant, graphs[variant], roles, bad)
        for players in PLAYER_COUNTS:
            d = int(districts[players])
            m = d * MARKETS_PER_DISTRICT
            adjacency[v, players], distance[v, players, :m, :m] = layouts[d]
            fill_neighbours(adjacency[v, players], neighbours[v, players], n_neighbours[v, players])
    central = np.arange(MAX_DISTRICTS, dtype=np.int8) * MARKETS_PER_DISTRICT + central_role
    others = [r for r in range(MARKETS_PER_DISTRICT) if r != central_role]
    message_markets = np.array([[d * MARKETS_PER_DISTRICT + r for r in others]
                                for d in range(MAX_DISTRICTS)], dtype=np.int8)
    return {"variants": variants, "roles": roles, "central_role": central_role, "districts": districts,
            "seat_district": seat_district, "neutral_district": neutral,
            "district_messages": district_messages, "adjacency": adjacency,
            "distance": distance, "neighbours": neighbours, "n_neighbours": n_neighbours,
            "central_market": central, "message_markets": message_markets}


def read_district_markets(board, bad):
    roles = board["markets_per_district"]
    central = board["central_market"]
    if central not in roles:
        bad("board.central_market", "must be one of board.markets_per_district")
    for role in board.get("market_names", {}):
        if role not in roles:
            bad(f"board.market_names.{role}", "names no market of board.markets_per_district")
    return list(roles), roles.index(central)


def read_districts_by_players(given, bad):
    districts = np.zeros(6, dtype=np.int8)
    for players in PLAYER_COUNTS:
        value = given[str(players)]
        expected = 4 if players == 2 else players          # ND-1.4, ND-2.2
        if value != expected:
            bad(f"board.districts_by_players.{players}", f"is fixed by the rules at {expected} (ND-1.4)")
        districts[players] = value
    return districts


def read_seats(two_player, districts, bad):
    """Seat i owns district i for 3-5 players; 2 players sit in two opposite districts, and the
    two neutral districts get their messages unless neutral_districts_get_messages is false (ND-2.2,
    A-23: the rulebook's 16 tiles; one player guide plays with the players' 8)."""
    seats = two_player["player_districts"]
    if two_player["districts"] != 4:
        bad("board.two_player.districts", "is fixed by the rules at 4: the 2-player game uses the "
                                          "4-district board (ND-2.2)")
    if (seats[1] - seats[0]) % 4 != 2:
        bad("board.two_player.player_districts", "must be two opposite districts of 0..3 (ND-2.2)")
    if sorted(two_player["neutral_districts"]) != sorted(set(range(4)) - set(seats)):
        bad("board.two_player.neutral_districts", "must be the two districts without a player")
    neutral_messages = two_player.get("neutral_districts_get_messages", True)
    seat_district = np.full((6, MAX_DISTRICTS), -1, dtype=np.int8)
    neutral = np.zeros((6, MAX_DISTRICTS), dtype=np.bool_)
    district_messages = np.zeros((6, MAX_DISTRICTS), dtype=np.bool_)
    for players in PLAYER_COUNTS:
        owned = seats if players == 2 else list(range(players))
        seat_district[players, :players] = owned
        for d in range(int(districts[players])):
            neutral[players, d] = d not in owned
            district_messages[players, d] = neutral_messages or d in owned
    return seat_district, neutral, district_messages


def read_layouts(variant, layouts, roles, bad):
    """One variant's streets for the 3-, 4- and 5-district boards -> (adjacency, distances) per
    district count."""
    result = {}
    for d in LAYOUTS:
        item = f"street graph {variant}, {d} districts"
        layout = layouts[str(d)]
        if layout["districts"] != d:
            bad(item, f'"districts" is fixed at {d}, the layout\'s key')
        adjacency = read_streets(layout["streets"], d, roles, lambda msg, i=item: bad(i, msg))
        distance = street_distances(adjacency[:d * MARKETS_PER_DISTRICT, :d * MARKETS_PER_DISTRICT])
        check_every_market_reachable(distance, roles, lambda msg, i=item: bad(i, msg))
        result[d] = adjacency, distance
    return result


def read_streets(streets, districts, roles, bad):
    adjacency = np.zeros((MAX_MARKETS, MAX_MARKETS), dtype=np.bool_)
    for street in streets:
        a, b = (market_index(name, districts, roles, bad) for name in street)
        if a == b:
            bad(f"street {street[0]}-{street[1]} joins a market to itself")
        if adjacency[a, b]:
            bad(f"street {street[0]}-{street[1]} is listed twice")
        adjacency[a, b] = adjacency[b, a] = True
    degree = adjacency.sum(axis=1)
    if degree.max() > MAX_STREETS_AT_MARKET:
        bad(f"more than {MAX_STREETS_AT_MARKET} streets meet at one market")
    return adjacency


def market_index(name, districts, roles, bad) -> int:
    """'2.I_cw' -> 2 * 5 + role index of I_cw."""
    district, _, role = name.partition(".")
    if not re.fullmatch("[0-9]+", district) or role not in roles:
        bad(f"market {name!r} is not '<district>.<market>' with a market of board.markets_per_district")
    if int(district) >= districts:
        bad(f"market {name} lies in district {district}, but the board has districts 0..{districts - 1}")
    return int(district) * MARKETS_PER_DISTRICT + roles.index(role)


def check_every_market_reachable(distance, roles, bad):
    for market in np.flatnonzero(distance[0] == UNREACHABLE):
        district, role = divmod(int(market), MARKETS_PER_DISTRICT)
        bad(f"market {district}.{roles[role]} cannot be reached from 0.{roles[0]} (every market must be reachable)")


def street_distances(adjacency) -> np.ndarray:
    """All-pairs step counts (Floyd-Warshall over the street graph; a few dozen markets, so numpy
    is quick); UNREACHABLE where no route exists."""
    n = adjacency.shape[0]
    steps = np.where(adjacency, 1, n).astype(np.int32)      # n steps: longer than any route
    np.fill_diagonal(steps, 0)
    for via in range(n):
        steps = np.minimum(steps, steps[:, via:via + 1] + steps[via:via + 1, :])
    return np.where(steps >= n, UNREACHABLE, steps).astype(np.int8)


def fill_neighbours(adjacency, neighbours, n_neighbours):
    for market in range(MAX_MARKETS):
        around = np.flatnonzero(adjacency[market])
        neighbours[market, :len(around)] = around
        n_neighbours[market] = len(around)


# ---------------------------------------------------------------- person cards

def read_persons(persons, bad):
    parsed = [read_person(p, bad) for p in persons]
    ids = [p["id"] for p in parsed]
    if len(set(ids)) != len(ids):
        bad("persons", "person ids are not unique")
    effects = [p["effect"] for p in parsed]
    if len(set(effects)) != len(effects):
        bad("persons", "each effect id must appear on exactly one card")
    brown = sum(p["colour"] == "brown" for p in parsed)
    if brown != N_BROWN:
        bad("persons", f"{brown} brown and {N_PERSONS - brown} grey cards, the game has {N_BROWN} and {N_GREY}")
    for letter in LETTERS:
        count = sum(p["letter"] == letter for p in parsed)
        if count != CARDS_PER_LETTER:
            bad("persons", f"{count} grey cards carry letter {letter}, each letter needs {CARDS_PER_LETTER} (3/3/3)")
    return parsed


def read_person(person, bad):
    pid = person["id"]
    item = f"person {pid}"
    effect = person["effect"]
    colour = person["colour"]
    if (colour == "brown") != (effect in BROWN_EFFECTS):
        bad(item, f"{effect} is a {'brown' if effect in BROWN_EFFECTS else 'grey'} person (ND-15)")
    letter = person.get("letter")
    if colour == "brown" and letter is not None:
        bad(item, "brown cards carry no letter")
    if colour == "grey" and letter not in LETTERS:
        bad(item, "grey cards need letter A, B or C")
    name = person.get("name_en") or person.get("name_hu") or effect
    return {"id": pid, "effect": effect, "colour": colour, "letter": letter, "rats": person["rats"],
            "name": name, "provenance": person.get("provenance", {})}


def stage_totals(rats, letters) -> list[int]:
    """The rats of each stage A, B, C: the six brown cards (letter -1), each shown once a stage
    (ND-4.2), plus the three grey cards of the stage's letter."""
    brown = int(rats[letters < 0].sum())
    return [brown + int(rats[letters == k].sum()) for k in range(len(LETTERS))]


def stage_rats_warnings(stated, totals) -> list[str]:
    """A file whose printed cards do not add up to its stated stage totals (rats_per_stage) still
    plays: a variant of one card's rats is a designer's question. It is told, in one line."""
    printed = dict(zip(LETTERS, totals))
    letters = [letter for letter in LETTERS if letter in stated]
    if all(stated[letter] == printed[letter] for letter in letters):
        return []
    source = f" ({stated['provenance']})" if "provenance" in stated else ""
    return [f"the persons' rats put {'/'.join(str(printed[k]) for k in letters)} rats in stage(s) "
            f"{'/'.join(letters)} (the six brown cards and the stage's three grey ones), rats_per_stage "
            f"says {'/'.join(str(stated[k]) for k in letters)}{source}"]


# ---------------------------------------------------------------- messages and Notre Dame

def read_messages(messages, bad):
    kinds = messages["kinds"]
    table = {key: np.array([kind[key] for kind in kinds], dtype=np.int8)
             for key in ("vp", "gold", "cubes", "rat_back")}
    ids = [kind["id"] for kind in kinds]
    if len(set(ids)) != len(ids):
        bad("messages.kinds", "message ids are not unique")
    for j, tile in enumerate(messages["tiles_per_colour"]):
        if tile not in ids:
            bad(f"messages.tiles_per_colour.{j}", f"names no message kind (known: {', '.join(ids)})")
    colour_tiles = np.array([ids.index(t) for t in messages["tiles_per_colour"]], dtype=np.int8)
    return {"ids": ids, "colour_tiles": colour_tiles, **table}


def read_notre_dame(cathedral):
    payout = np.zeros(6, dtype=np.int16)
    for players in PLAYER_COUNTS:
        payout[players] = cathedral["payout_by_players"][str(players)]
    donation_vp = np.zeros(4, dtype=np.int16)
    for gold in DONATIONS:
        donation_vp[gold] = cathedral["donation_vp"][str(gold)]
    return {"payout": payout, "donation_vp": donation_vp}


# ---------------------------------------------------------------- provenance

PERSON_PROVENANCE_KEYS = ("name_hu", "name_en", "colour", "effect", "letter", "rats")


def summarise_provenance(doc, persons) -> dict[str, str]:
    """component -> provenance, e.g. 'reconstructed' or 'reconstructed 8, sourced 1'."""
    summary = {}
    for key in PERSON_PROVENANCE_KEYS:
        tally = count_values(person["provenance"][key] for person in persons if key in person["provenance"])
        if tally:
            summary[f"persons.{key}"] = describe_tally(tally)
    graphs = doc["board"]["street_graphs"]
    for variant, layouts in graphs.items():
        summary[f"board.street_graphs.{variant}"] = describe_tally(
            count_values(layout["provenance"] for layout in layouts.values()))
    for section in ("board", "messages", "notre_dame"):
        for key, value in doc[section].get("provenance", {}).items():
            summary[f"{section}.{key}"] = value
    if "provenance" in doc.get("rats_per_stage", {}):
        summary["rats_per_stage"] = doc["rats_per_stage"]["provenance"]
    two_player = doc["board"]["two_player"].get("provenance")
    if two_player is not None:
        summary["board.two_player"] = two_player
    return summary


def count_values(values) -> dict[str, int]:
    tally = {}
    for value in values:
        tally[value] = tally.get(value, 0) + 1
    return tally
