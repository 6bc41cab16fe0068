"""Notre Dame component data file -> validated numpy tables for the kernels.

The file (data/notre_dame.json) holds the street graphs of the 3-, 4- and 5-district layouts in
one or more variants, the 15 person cards, the message tiles, the Notre Dame payouts, the
2-player board and the rule switches (rules/notre_dame.md §19 flags plus CONSTANT_RATS and
STREET_GRAPH). Every value carries a provenance: rulebook, sourced or reconstructed.

Markets are numbered district * 5 + role, the roles in the order of board.markets_per_district.
Tables indexed by player count have 6 rows (0 and 1 unused); the 2-player game uses the
4-district board with the players in districts 0 and 2 (ND-2.2).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from simcore.datafile import (
    PROVENANCES, describe_tally, is_whole, read_json, read_rule_switches, rule_values, shipped_path)
from simcore.registry import UserError

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
MAX_RATS = 3                            # each person card shows 0-3 rats (ND-10)

# Person effect ids (ND-15); index = effect code used by the kernels.
EFFECTS = ("HOUSEKEEPER", "MONK", "MONEYLENDER", "MINSTREL", "JESTER", "DOCTOR",
           "CITY_GUARD", "NIGHT_WATCHMAN", "BISHOP", "GUILD_MASTER", "BEGGAR_KING", "LAWYER",
           "LADY", "MAYOR", "CARPENTER")
BROWN_EFFECTS = frozenset(EFFECTS[:6])

MESSAGE_KINDS = 4                       # M1..M4 (ND-1.3)
DONATIONS = (1, 2, 3)                   # gold a Notre Dame card may donate (ND-8.1)

# Rule switches and their defaults (rules/notre_dame.md §19; A-n cited there).
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
RULE_RANGES = {"F_START_GOLD": (0, 5), "F_OUTBREAK_AT": (9, 10), "F_OUTBREAK_RESET_TO": (0, 9)}
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
    provenance: dict[str, str]

    def distances(self, players: int, variant: int | None = None) -> np.ndarray:
        """Street distances between markets on the board of a player count."""
        v = self.street_graph if variant is None else variant
        m = self.districts[players] * MARKETS_PER_DISTRICT
        return self.distance[v, players, :m, :m]

    def market_name(self, market: int) -> str:
        district, role = divmod(market, MARKETS_PER_DISTRICT)
        return f"{district}.{self.market_roles[role]}"


def default_path() -> str:
    return shipped_path("simcore.boardgames.notre_dame", "notre_dame.json")


def load(path: str | None = None) -> NotreDameData:
    """Read, validate and convert a Notre Dame data file (None: the shipped one)."""
    path = path or default_path()
    return from_document(read_json(path, "Notre Dame data file"), path)


def from_document(doc, path: str = "<data>") -> NotreDameData:
    """Validate a parsed data document and build its tables."""
    def bad(item, msg):
        raise UserError(f"Notre Dame data file {path}: {item}: {msg}")

    if not isinstance(doc, dict):
        bad("document", "must be a JSON object")
    for section in ("board", "persons", "messages", "notre_dame"):
        if section not in doc:
            bad(section, "section is missing")
    rules = read_rule_switches(doc.get("rules", {}), RULE_DEFAULTS, bad, RULE_CHOICES, RULE_RANGES)
    board = read_board(doc["board"], rules, bad)
    persons = read_persons(doc["persons"], bad)
    constant = read_constant_rats(doc.get("constant_rats", 2), bad)
    messages = read_messages(doc["messages"], bad)
    cathedral = read_notre_dame(doc["notre_dame"], bad)
    rats = np.array([p["rats"] for p in persons], dtype=np.int8)
    return NotreDameData(
        data_set_id=str(doc.get("data_set_id", "unnamed")),
        name=str(doc.get("name", doc.get("data_set_id", "unnamed"))),
        source=str(doc.get("source", "")),
        reconstructed=bool(doc.get("reconstructed", False)),
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
        person_letter=np.array([LETTERS.index(p["letter"]) if p["letter"] else -1 for p in persons],
                               dtype=np.int8),
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
        provenance=summarise_provenance(doc, persons, bad),
    )


# ---------------------------------------------------------------- board and street graphs

def read_board(board, rules, bad):
    if not isinstance(board, dict):
        bad("board", "must be an object")
    roles, central_role = read_district_markets(board, bad)
    districts = read_districts_by_players(board.get("districts_by_players"), bad)
    seat_district, neutral = read_seats(board.get("two_player"), districts, bad)
    graphs = board.get("street_graphs")
    if not isinstance(graphs, dict) or not graphs:
        bad("board.street_graphs", "must be an object of named street-graph variants")
    variants = list(graphs)
    if rules["STREET_GRAPH"] not in variants:
        bad("rules.STREET_GRAPH", f"names no street graph (known: {', '.join(variants)})")
    shape = (len(variants), 6, MAX_MARKETS, MAX_MARKETS)
    adjacency = np.zeros(shape, dtype=np.bool_)
    for v, variant in enumerate(variants):
        layouts = read_layouts(variant, graphs[variant], roles, bad)
        for players in PLAYER_COUNTS:
            adjacency[v, players] = layouts[int(districts[players])]
    distance = np.full(shape, UNREACHABLE, dtype=np.int8)
    neighbours = np.full(shape[:3] + (MAX_STREETS_AT_MARKET,), -1, dtype=np.int8)
    n_neighbours = np.zeros(shape[:3], dtype=np.int8)
    for v in range(len(variants)):
        for players in PLAYER_COUNTS:
            m = int(districts[players]) * MARKETS_PER_DISTRICT
            distance[v, players, :m, :m] = street_distances(adjacency[v, players, :m, :m])
            fill_neighbours(adjacency[v, players], neighbours[v, players], n_neighbours[v, players])
    central = np.arange(MAX_DISTRICTS, dtype=np.int8) * MARKETS_PER_DISTRICT + central_role
    others = [r for r in range(MARKETS_PER_DISTRICT) if r != central_role]
    message_markets = np.array([[d * MARKETS_PER_DISTRICT + r for r in others]
                                for d in range(MAX_DISTRICTS)], dtype=np.int8)
    return {"variants": variants, "roles": roles, "central_role": central_role, "districts": districts,
            "seat_district": seat_district, "neutral_district": neutral, "adjacency": adjacency,
            "distance": distance, "neighbours": neighbours, "n_neighbours": n_neighbours,
            "central_market": central, "message_markets": message_markets}


def read_district_markets(board, bad):
    roles = board.get("markets_per_district")
    if not isinstance(roles, list) or not all(isinstance(r, str) and r for r in roles):
        bad("board.markets_per_district", "must be a list of market names")
    if len(set(roles)) != len(roles):
        bad("board.markets_per_district", "market names are not unique")
    if len(roles) != MARKETS_PER_DISTRICT:
        bad("board.markets_per_district", f"a district has {MARKETS_PER_DISTRICT} markets, found {len(roles)}")
    central = board.get("central_market")
    if central not in roles:
        bad("board.central_market", "must be one of board.markets_per_district")
    return list(roles), roles.index(central)


def read_districts_by_players(given, bad):
    if not isinstance(given, dict):
        bad("board.districts_by_players", "must map each player count 2..5 to its districts")
    districts = np.zeros(6, dtype=np.int8)
    for players in PLAYER_COUNTS:
        value = given.get(str(players))
        expected = 4 if players == 2 else players          # ND-1.4, ND-2.2
        if value != expected:
            bad(f"board.districts_by_players.{players}", f"must be {expected} (ND-1.4)")
        districts[players] = value
    return districts


def read_seats(two_player, districts, bad):
    """Seat i owns district i for 3-5 players; 2 players sit in two opposite districts (ND-2.2)."""
    if not isinstance(two_player, dict):
        bad("board.two_player", "must be an object")
    seats = two_player.get("player_districts")
    neutral_given = two_player.get("neutral_districts")
    if two_player.get("districts") != 4:
        bad("board.two_player.districts", "the 2-player game uses the 4-district board (ND-2.2)")
    if not isinstance(seats, list) or len(seats) != 2 or not all(is_whole(d) and 0 <= d < 4 for d in seats) \
            or (seats[1] - seats[0]) % 4 != 2:
        bad("board.two_player.player_districts", "must be two opposite districts of 0..3 (ND-2.2)")
    if not isinstance(neutral_given, list) or sorted(neutral_given) != sorted(set(range(4)) - set(seats)):
        bad("board.two_player.neutral_districts", "must be the two districts without a player")
    seat_district = np.full((6, MAX_DISTRICTS), -1, dtype=np.int8)
    neutral = np.zeros((6, MAX_DISTRICTS), dtype=np.bool_)
    for players in PLAYER_COUNTS:
        owned = seats if players == 2 else list(range(players))
        seat_district[players, :players] = owned
        for d in range(int(districts[players])):
            neutral[players, d] = d not in owned
    return seat_district, neutral


def read_layouts(variant, layouts, roles, bad):
    """One variant's streets for the 3-, 4- and 5-district boards -> adjacency per district count."""
    if not isinstance(layouts, dict):
        bad(f"street graph {variant}", "must map district counts 3, 4, 5 to layouts")
    result = {}
    for d in LAYOUTS:
        item = f"street graph {variant}, {d} districts"
        layout = layouts.get(str(d))
        if not isinstance(layout, dict):
            bad(item, "layout is missing")
        if layout.get("districts") != d:
            bad(item, f'"districts" must be {d}')
        if layout.get("provenance") not in PROVENANCES:
            bad(item, f"provenance must be one of {', '.join(PROVENANCES)}")
        adjacency = read_streets(layout.get("streets"), d, roles, lambda msg, i=item: bad(i, msg))
        check_every_market_reachable(adjacency, d, roles, lambda msg, i=item: bad(i, msg))
        result[d] = adjacency
    return result


def read_streets(streets, districts, roles, bad):
    if not isinstance(streets, list) or not streets:
        bad("streets must be a non-empty list of [market, market] pairs")
    adjacency = np.zeros((MAX_MARKETS, MAX_MARKETS), dtype=np.bool_)
    for street in streets:
        if not isinstance(street, list) or len(street) != 2:
            bad(f"street {street!r} is not a [market, market] pair")
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
    district, _, role = str(name).partition(".")
    if not district.isdigit() or role not in roles:
        bad(f"market {name!r} is not '<district>.<market>' with a market of board.markets_per_district")
    if int(district) >= districts:
        bad(f"market {name} lies in district {district}, but the board has districts 0..{districts - 1}")
    return int(district) * MARKETS_PER_DISTRICT + roles.index(role)


def check_every_market_reachable(adjacency, districts, roles, bad):
    n = districts * MARKETS_PER_DISTRICT
    reached = street_distances(adjacency[:n, :n])[0]
    for market in range(n):
        if reached[market] == UNREACHABLE:
            district, role = divmod(market, MARKETS_PER_DISTRICT)
            bad(f"market {district}.{roles[role]} cannot be reached from 0.{roles[0]} (every market must be reachable)")


def street_distances(adjacency) -> np.ndarray:
    """All-pairs step counts by breadth-first search; UNREACHABLE where no route exists."""
    n = adjacency.shape[0]
    distance = np.full((n, n), UNREACHABLE, dtype=np.int8)
    for start in range(n):
        distance[start, start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in np.flatnonzero(adjacency[here]):
                if distance[start, there] == UNREACHABLE:
                    distance[start, there] = distance[start, here] + 1
                    queue.append(there)
    return distance


def fill_neighbours(adjacency, neighbours, n_neighbours):
    for market in range(MAX_MARKETS):
        around = np.flatnonzero(adjacency[market])
        neighbours[market, :len(around)] = around
        n_neighbours[market] = len(around)


# ---------------------------------------------------------------- person cards

def read_persons(persons, bad):
    if not isinstance(persons, list) or len(persons) != N_PERSONS:
        bad("persons", f"must list the {N_PERSONS} person cards (ND-1.1)")
    parsed = [read_person(p, i, bad) for i, p in enumerate(persons)]
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


def read_person(person, index, bad):
    if not isinstance(person, dict):
        bad(f"person #{index}", "is not an object")
    pid = str(person.get("id", f"#{index}"))
    item = f"person {pid}"
    effect = person.get("effect")
    if effect not in EFFECTS:
        bad(item, f"unknown effect id {effect!r} (known: {', '.join(EFFECTS)})")
    colour = person.get("colour")
    if colour not in ("brown", "grey"):
        bad(item, 'colour must be "brown" or "grey"')
    if (colour == "brown") != (effect in BROWN_EFFECTS):
        bad(item, f"{effect} is a {'brown' if effect in BROWN_EFFECTS else 'grey'} person (ND-15)")
    letter = person.get("letter")
    if colour == "brown" and letter is not None:
        bad(item, "brown cards carry no letter")
    if colour == "grey" and letter not in LETTERS:
        bad(item, "grey cards need letter A, B or C")
    rats = person.get("rats")
    if not is_whole(rats) or not 0 <= rats <= MAX_RATS:
        bad(item, f"rats must be a whole number 0..{MAX_RATS}")
    name = person.get("name_en") or person.get("name_hu") or effect
    return {"id": pid, "effect": effect, "colour": colour, "letter": letter, "rats": rats,
            "name": str(name), "provenance": person.get("provenance", {})}


def read_constant_rats(value, bad):
    if not is_whole(value) or not 0 <= value <= MAX_RATS:
        bad("constant_rats", f"must be a whole number 0..{MAX_RATS}")
    return value


# ---------------------------------------------------------------- messages and Notre Dame

def read_messages(messages, bad):
    if not isinstance(messages, dict) or not isinstance(messages.get("kinds"), list):
        bad("messages", 'needs a "kinds" list')
    kinds = messages["kinds"]
    if len(kinds) != MESSAGE_KINDS:
        bad("messages.kinds", f"the game has {MESSAGE_KINDS} message kinds, found {len(kinds)} (ND-1.3)")
    table = {key: np.zeros(MESSAGE_KINDS, dtype=np.int8) for key in ("vp", "gold", "cubes", "rat_back")}
    ids = []
    for k, kind in enumerate(kinds):
        if not isinstance(kind, dict):
            bad(f"message kind #{k}", "is not an object")
        ids.append(str(kind.get("id", f"#{k}")))
        for key, column in table.items():
            value = kind.get(key)
            if not is_whole(value) or not 0 <= value <= 9:
                bad(f"message kind {ids[-1]}", f"{key} must be a whole number 0..9")
            column[k] = value
    if len(set(ids)) != len(ids):
        bad("messages.kinds", "message ids are not unique")
    tiles = messages.get("tiles_per_colour")
    if not isinstance(tiles, list) or len(tiles) != 4 or any(t not in ids for t in tiles):
        bad("messages.tiles_per_colour", "must name the message kinds of a colour's 4 tiles (ND-0.2)")
    colour_tiles = np.array([ids.index(t) for t in tiles], dtype=np.int8)
    return {"ids": ids, "colour_tiles": colour_tiles, **table}


def read_notre_dame(cathedral, bad):
    if not isinstance(cathedral, dict):
        bad("notre_dame", "must be an object")
    given = cathedral.get("payout_by_players")
    if not isinstance(given, dict):
        bad("notre_dame.payout_by_players", "must map each player count 2..5 to a payout")
    payout = np.zeros(6, dtype=np.int16)
    for players in PLAYER_COUNTS:
        value = given.get(str(players))
        if not is_whole(value) or value < 1:
            bad("notre_dame.payout_by_players", f"no payout (a whole number >= 1) for {players} players")
        payout[players] = value
    donation = cathedral.get("donation_vp")
    donation_vp = np.zeros(4, dtype=np.int16)
    if not isinstance(donation, dict):
        bad("notre_dame.donation_vp", "must map the donations 1, 2, 3 gold to VP")
    for gold in DONATIONS:
        value = donation.get(str(gold))
        if not is_whole(value) or value < 0:
            bad("notre_dame.donation_vp", f"no VP (a whole number >= 0) for a donation of {gold} gold")
        donation_vp[gold] = value
    return {"payout": payout, "donation_vp": donation_vp}


# ---------------------------------------------------------------- provenance

def summarise_provenance(doc, persons, bad) -> dict[str, str]:
    """component -> provenance, e.g. 'reconstructed' or 'reconstructed 8, sourced 1'."""
    summary = {}
    for key in ("name_hu", "colour", "effect", "letter", "rats"):
        tally = {}
        for person in persons:
            value = person["provenance"].get(key)
            if value is not None:
                check_provenance(value, f"person {person['id']}: provenance of {key}", bad)
                tally[value] = tally.get(value, 0) + 1
        if tally:
            summary[f"persons.{key}"] = describe_tally(tally)
    graphs = doc["board"]["street_graphs"]
    for variant, layouts in graphs.items():
        summary[f"board.street_graphs.{variant}"] = describe_tally(
            count_values(layout["provenance"] for layout in layouts.values()))
    for section in ("board", "messages", "notre_dame"):
        for key, value in doc[section].get("provenance", {}).items():
            check_provenance(value, f"{section}: provenance of {key}", bad)
            summary[f"{section}.{key}"] = value
    two_player = doc["board"]["two_player"].get("provenance")
    if two_player is not None:
        check_provenance(two_player, "board.two_player: provenance", bad)
        summary["board.two_player"] = two_player
    return summary


def check_provenance(value, where, bad):
    if value not in PROVENANCES:
        item, _, what = where.partition(": ")
        bad(item, f"{what} must be one of {', '.join(PROVENANCES)}")


def count_values(values) -> dict[str, int]:
    tally = {}
    for value in values:
        tally[value] = tally.get(value, 0) + 1
    return tally
