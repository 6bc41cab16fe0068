"""Principato component data file -> validated numpy tables for the kernels.

The file (data/principato.json) is the specification's default data file (rules/principato.md
DATA-7): display sizes, the supply, storage, starting holdings, rank VP, strength, the 16 card
effects, the start cards, the three year decks, the military scoring cards, the culture-token
stacks, the goal cards and, under "options", the rule switches of the specification's ambiguities
(AMB-n, section 20) with their recommended defaults.

Provenance layout. A top-level "provenance" object holds one object per section, mapping what the
section holds to rulebook, sourced or reconstructed:

    "provenance": {"supply": {"tiles": "rulebook", ...}, "year_decks": {"copies": "reconstructed", ...}, ...}

It sits beside the sections rather than inside them so that sections keyed by player count
("display_size": {"2": 5, ...}), by effect id ("effects") or by rule switch ("options") keep exactly
the specification's keys. In the item sections (effects, start_cards, year_decks, goal_cards) a
section's values apply to every item (an effect, a card entry, a goal card), and an item may refine
them with a "provenance" object of its own, e.g. {"gain": "reconstructed"} on an effect.
provenance(data) tallies them per component ("effects.gain" -> "rulebook").
A file may leave provenance out, or give the one-line text the specification's DATA-7 block has
there; it then reports no provenance.

Card instances are numbered as DATA-3 says: the S1 copies, the S2 cards in file order, the year
decks 1, 2, 3 each expanded in file order with copies consecutive, then the scoring cards by year.
Where "options" and an effect or goal entry disagree (the catapults' expensive option, the Villa
table), options wins (DATA-7); so it does over culture_tokens.take, which sets culture_take only
where options leaves it out. The shipped file gives the catapults' expensive option 1 catapult, as
the rulebook prints it (the specification's AMB-1 default of 2 is the switch's alternative). The culture stacks are listed highest value first (PR-3.6,
sorted by printed VP); options.culture_take says which end a buyer takes from (AMB-9).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.datafile import (
    PROVENANCES, describe_tally, is_whole, is_whole_in, read_json, read_rule_switches, rule_values, shipped_path)
from simcore.registry import UserError

MIN_PLAYERS, MAX_PLAYERS = 2, 4
GOODS = ("field", "farm", "palazzo", "bank", "catapult", "monument", "book", "painting", "food", "money")  # what a card option can give
G_FIELD, G_FARM, G_PALAZZO, G_BANK, G_CATAPULT, G_MONUMENT, G_BOOK, G_PAINTING, G_FOOD, G_MONEY = range(10)
CULTURE = ("monument", "book", "painting")          # culture token stacks, in this order
KINDS = ("buy", "produce", "recruit", "gain")       # effect kinds of the data file
K_BUY, K_PRODUCE, K_RECRUIT, K_GAIN = range(4)
UNITS = ("militia", "condottiere")                  # recruit "tile"
SUPPLY = ("field_farm", "palazzo_bank", "catapult", "militia_condottiere", "monument", "book", "painting", "food", "money", "favour")
START = ("field", "farm", "palazzo", "bank", "food", "money", "favour")     # start_holdings order
TILES = ("field", "farm", "palazzo", "bank", "catapult", "militia", "condottiere", "monument", "book", "painting")  # goal_tiles bit i = TILES[i]
GOAL_KINDS = ("per_tile", "above", "per_military_vp", "sets")
GK_PER_TILE, GK_ABOVE, GK_PER_MILITARY_VP, GK_SETS = range(4)
ROUNDINGS = ("floor", "round", "ceil")
MAX_EFFECT_OPTIONS = 3
MAX_EFFECTS = 24
MAX_CARDS = 128          # card instances incl. start and scoring cards
MAX_TOKENS = 30          # culture tokens per stack
MAX_GOALS = 16
RULE_DEFAULTS = {   # the data file's "options" (AMB keys) and their recommended defaults
    "catapult_big_option_gain": 1,      # AMB-1: the rulebook prints 1 (the spec's 2 is the alternative)
    "villa_table": [0, 2, 5, 9],        # AMB-2 (alternative [0,2,5,8]); applied to the VILLA goal's table
    "stronghold_rounding": "floor",     # AMB-3
    "pair_cap": 3,                      # AMB-4, 1..3
    "overflow_to_units": True,          # AMB-5/AMB-7
    "free_loading": False,              # AMB-6
    "culture_take": "highest_first",    # AMB-9: highest_first | lowest_first | choose
    "tile_option_needs_full_pool": True,  # AMB-10
    "tiebreak_counts_loaded": False,    # AMB-19
    "new_year_starter": "next_player",  # AMB-17: next_player | start_player
}
RULE_CHOICES = {"stronghold_rounding": ROUNDINGS, "culture_take": ("highest_first", "lowest_first", "choose"), "new_year_starter": ("next_player", "start_player")}
RULE_INDEX = {name: i for i, name in enumerate(RULE_DEFAULTS)}

RULE_RANGES = {"catapult_big_option_gain": (1, 9), "pair_cap": (1, 3)}
SECTIONS = ("display_size", "supply", "storage", "start_holdings", "military_vp_by_rank", "strength", "effects",
            "start_cards", "year_decks", "scoring_cards", "culture_tokens", "goal_cards", "options")
PLAYER_COUNTS = tuple(str(p) for p in range(MIN_PLAYERS, MAX_PLAYERS + 1))
YEARS = ("1", "2", "3")
MARKERS = (0, 3, 4)                     # none, "3", "4" (PR-3.2)
GOAL_DECKS = ("G1", "G2")
GOAL_CATEGORIES = ("armory", "fertile_soil", "municipal_law", "stronghold", "chapel", "city_hall", "villa",
                   "palace")             # DATA-6: the goal cards, each a score category of the results
ACTION_CARDS = 98                       # PR-1.1
MAX_AMOUNT = 99                         # costs, gains, VP values, storage per tile
MAX_POOL = 99                           # tile pools and cube supplies: a recruit count or a load
                                        # part has at most MAX_POOL + 1 options (state.MAX_OPTIONS)
MAX_PAY = 8                             # food or money in one cost: at most 3 x 9 x 9 payment moves
MAX_DISPLAY = 10                        # display slots; state.py sizes its display the same
CUBES = ("food", "money")               # what a cost names and a gain card gives (PR-17.1: never favour)
BUYABLE = GOODS[:G_FOOD]                # what a buy option gives and a produce effect counts
UNIT_LOADS = {"militia_accepts": ["food", "favour"], "condottiere_accepts": ["money", "favour"]}   # PR-2.2


@dataclass
class PrincipatoData:
    """A validated Principato data set: numpy tables for the kernels plus names for people."""
    data_set_id: str
    name: str
    source: str
    reconstructed: bool
    path: str
    provenance: dict[str, str]
    warnings: list[str]              # e.g. "98 action cards expected, file has 97" for custom data (PR-1.1)
    rules: dict                      # RULE_DEFAULTS overridden by the file's "options"
    rule_values: np.ndarray          # int32[len(RULE_DEFAULTS)], RULE_INDEX order; choices as indexes; villa_table 0
    display_size: np.ndarray         # int8[MAX_PLAYERS + 1], indexed by P (0 for P < 2)
    supply: np.ndarray               # int16[len(SUPPLY)]
    food_per_farm: int
    money_per_bank: int
    church_favour: int
    start_holdings: np.ndarray       # int16[len(START)]
    rank_vp: np.ndarray              # int16[MAX_PLAYERS + 1, MAX_PLAYERS]: rank_vp[P, r], zero padded
    strength_catapult: int
    strength_loaded: int
    strength_empty: int
    effect_ids: list[str]            # file order
    effect_kind: np.ndarray          # int8[E]: K_*
    effect_n_options: np.ndarray     # int8[E]: buy/gain: number of options; produce and recruit: 1
    effect_pay: np.ndarray           # int16[E, MAX_EFFECT_OPTIONS, 2]: (food, money) cost of each option
    effect_gain: np.ndarray          # int16[E, MAX_EFFECT_OPTIONS, len(GOODS)]: what each option gives
    effect_per: np.ndarray           # int8[E]: produce: GOODS index of the counted tile, else -1
    effect_cube: np.ndarray          # int8[E]: produce: G_FOOD or G_MONEY, else -1
    effect_unit: np.ndarray          # int8[E]: recruit: 0 militia, 1 condottiere, else -1
    n_cards: int                     # card instances
    n_action_cards: int
    card_effect: np.ndarray          # int8[n_cards]: effect index; -1 for a scoring card
    card_exchange: np.ndarray        # int8[n_cards]: 1 = exchange symbol
    card_year: np.ndarray            # int8[n_cards]: 0 start card, else 1..3 (scoring cards: their deck's year)
    card_marker: np.ndarray          # int8[n_cards]: 0, 3 or 4
    card_start: np.ndarray           # int8[n_cards]: 1 S1, 2 S2, 0 otherwise
    card_scoring: np.ndarray         # int8[n_cards]: 1 for a military scoring card
    culture_values: np.ndarray       # int16[3, MAX_TOKENS]: each stack's printed VP, top first, zero padded
    culture_n: np.ndarray            # int16[3]: tokens per stack (= the supply pool)
    goal_ids: list[str]
    goal_deck: np.ndarray            # int8[G]: 0 = G1, 1 = G2
    goal_kind: np.ndarray            # int8[G]: GK_*
    goal_tiles: np.ndarray           # int16[G]: bit mask over TILES
    goal_threshold: np.ndarray       # int16[G]  ("above")
    goal_vp_each: np.ndarray         # int16[G]  ("per_tile", "above")
    goal_divisor: np.ndarray         # int16[G]  ("per_military_vp")
    goal_table: np.ndarray           # int16[G, 4]  ("sets"; VILLA's replaced by options.villa_table)

    def card_name(self, card: int) -> str:
        """'HARVEST#8', 'MARKET2 (S1)#0', 'SCORING#98': short, for replays."""
        if self.card_scoring[card]:
            return f"SCORING#{card}"
        start = f" (S{self.card_start[card]})" if self.card_start[card] else ""
        return f"{self.effect_ids[self.card_effect[card]]}{start}#{card}"


def default_path() -> str:
    return shipped_path("simcore.boardgames.principato", "principato.json")


def load(path: str | None = None) -> PrincipatoData:
    """Read, validate and convert a Principato data file (None: the shipped one)."""
    path = path or default_path()
    return from_document(read_json(path, "Principato data file"), path)


def from_document(doc, path: str = "<data>") -> PrincipatoData:
    """Validate a parsed data document and build its tables."""
    def bad(item, msg):
        raise UserError(f"Principato data file {path}: {item}: {msg}")

    if not isinstance(doc, dict):
        bad("document", "must be a JSON object")
    if doc.get("format") != "principato-data/1":
        bad("format", f"must be \"principato-data/1\", found {doc.get('format')!r}")
    for section in SECTIONS:
        if not isinstance(doc.get(section), dict):
            bad(section, "section is missing or not an object")
    rules = read_options(doc["options"], doc["culture_tokens"].get("take"), bad)
    display_size = read_display_size(doc["display_size"], bad)
    supply = read_supply(doc["supply"], bad)
    storage = read_storage(doc["storage"], bad)
    start_holdings = read_start_holdings(doc["start_holdings"], supply, storage, bad)
    rank_vp = read_rank_vp(doc["military_vp_by_rank"], bad)
    strength = read_strength(doc["strength"], bad)
    given = set(doc["options"])                          # the switches the file sets itself
    effects = read_effects(doc["effects"], rules, given, bad)
    cards = read_cards(doc, effects["effect_ids"], display_size, bad)
    culture = read_culture_tokens(doc["culture_tokens"], supply, bad)
    goals = read_goal_cards(doc["goal_cards"], rules, given, bad)
    return PrincipatoData(
        data_set_id=str(doc.get("data_set_id", "unnamed")),
        name=str(doc.get("name", doc.get("data_set_id", "unnamed"))),
        source=str(doc.get("source", "")),
        reconstructed=bool(doc.get("reconstructed", False)),
        path=path,
        provenance=summarise_provenance(doc, bad),       # last: it walks the items validated above
        warnings=action_card_warnings(cards["n_action_cards"]),
        rules=rules,
        rule_values=rule_values(rules, RULE_DEFAULTS, RULE_CHOICES, convert={"villa_table": lambda table: 0}),
        display_size=display_size,
        supply=supply,
        **storage,
        start_holdings=start_holdings,
        rank_vp=rank_vp,
        **strength,
        **effects,
        **cards,
        **culture,
        **goals,
    )


def provenance(data: PrincipatoData) -> dict[str, str]:
    """component -> provenance, for `simcore games`."""
    prov = dict(data.provenance)
    prov["rules"] = ("rulebook; its gaps read as the specification recommends "
                     "(AMB-1..AMB-26, rule switches under options)")
    return prov


def is_name(value) -> bool:
    return isinstance(value, str) and value != ""


def require_whole(section, key, low, high, rule, bad) -> int:
    """section[key], a whole number low..high; rule names the rule the range comes from."""
    value = section.get(key)
    if not is_whole_in(value, low, high):
        bad(key, f"must be a whole number {low}..{high} ({rule}), found {value!r}")
    return value


def in_section(name, bad):
    """bad() for the items of one section: 'supply.food: ...'."""
    return lambda key, msg: bad(f"{name}.{key}", msg)


# ---------------------------------------------------------------- rule switches

def read_options(options, culture_take, bad) -> dict:
    """The rule switches (AMB-n) over RULE_DEFAULTS. villa_table is a list, so it is read here;
    culture_tokens.take sets culture_take where options leaves it out; options wins where it is
    set, as it does over the catapult cards and the Villa card (DATA-7)."""
    switches = {name: value for name, value in options.items() if name != "villa_table"}
    rules = read_rule_switches(switches, RULE_DEFAULTS, bad, RULE_CHOICES, RULE_RANGES, section="options")
    if "villa_table" in options:
        rules["villa_table"] = read_table(options["villa_table"], "options.villa_table", bad)
    if culture_take is not None:
        if culture_take not in RULE_CHOICES["culture_take"]:
            bad("culture_tokens.take", f"must be one of {', '.join(RULE_CHOICES['culture_take'])} (AMB-9)")
        if "culture_take" not in options:
            rules["culture_take"] = culture_take
    return {name: rules[name] for name in RULE_DEFAULTS}


def read_table(table, item, bad) -> list[int]:
    """A goal table: VP for 0, 1, 2 and 3 pairs or sets (PR-16.1)."""
    if not (isinstance(table, list) and len(table) == 4 and all(is_whole_in(v, 0, MAX_AMOUNT) for v in table)):
        bad(item, f"must list 4 whole numbers 0..{MAX_AMOUNT}, the VP for 0..3 pairs or sets (PR-16.1)")
    if table != sorted(table):
        bad(item, "must not decrease: more pairs or sets never score less (PR-16.1)")
    return list(table)


# ---------------------------------------------------------------- numbers

def read_display_size(section, bad) -> np.ndarray:
    """D for each player count (PR-0.1), indexed by P."""
    sizes = np.zeros(MAX_PLAYERS + 1, dtype=np.int8)
    for p in PLAYER_COUNTS:
        sizes[int(p)] = require_whole(section, p, 1, MAX_DISPLAY, "PR-0.1", in_section("display_size", bad))
    return sizes


def read_supply(section, bad) -> np.ndarray:
    """The pools and cube supplies (PR-1.2, PR-1.4)."""
    check = in_section("supply", bad)
    return np.array([require_whole(section, key, 0, MAX_TOKENS if key in CULTURE else MAX_POOL, "PR-1.2, PR-1.4",
                                   check) for key in SUPPLY], dtype=np.int16)


def read_storage(section, bad) -> dict:
    """Farm, bank and church capacities (PR-2.2); what a unit holds is fixed by the rules."""
    check = in_section("storage", bad)
    for key, accepts in UNIT_LOADS.items():
        if key in section and sorted(section[key]) != sorted(accepts):
            check(key, f"must be {' and '.join(accepts)}, the only loads the rules know (PR-2.2)")
    if "per_unit" in section and section["per_unit"] != 1:
        check("per_unit", "must be 1: a unit holds one cube (PR-2.2)")
    return {"food_per_farm": require_whole(section, "food_per_farm", 0, MAX_AMOUNT, "PR-2.2", check),
            "money_per_bank": require_whole(section, "money_per_bank", 0, MAX_AMOUNT, "PR-2.2", check),
            "church_favour": require_whole(section, "church_favour", 0, MAX_AMOUNT, "PR-2.2, AMB-8", check)}


def read_start_holdings(section, supply, storage, bad) -> np.ndarray:
    """What each player takes at setup (PR-3.7): it must fit the supply with 4 players and the storage."""
    check = in_section("start_holdings", bad)
    held = {key: require_whole(section, key, 0, MAX_AMOUNT, "PR-3.7", check) for key in START}
    pool = dict(zip(SUPPLY, supply.tolist()))
    for key, need in (("field_farm", held["field"] + held["farm"]), ("palazzo_bank", held["palazzo"] + held["bank"]),
                      ("food", held["food"]), ("money", held["money"]), ("favour", held["favour"])):
        if MAX_PLAYERS * need > pool[key]:
            bad("start_holdings", f"{MAX_PLAYERS} players take {MAX_PLAYERS * need} of supply.{key}, "
                                  f"which holds {pool[key]} (PR-3.7)")
    for cube, capacity in (("food", held["farm"] * storage["food_per_farm"]),
                           ("money", held["bank"] * storage["money_per_bank"]),
                           ("favour", storage["church_favour"])):
        if held[cube] > capacity:
            check(cube, f"{held[cube]} do not fit in the starting storage of {capacity} (PR-2.2, PR-3.7)")
    return np.array([held[key] for key in START], dtype=np.int16)


def read_rank_vp(section, bad) -> np.ndarray:
    """rank_vp[P, r]: the VP of rank r in a scoring with P players (PR-14.5)."""
    table = np.zeros((MAX_PLAYERS + 1, MAX_PLAYERS), dtype=np.int16)
    for p in PLAYER_COUNTS:
        values = section.get(p)
        if not (isinstance(values, list) and len(values) == int(p)
                and all(is_whole_in(v, 0, MAX_AMOUNT) for v in values)):
            bad(f"military_vp_by_rank.{p}", f"must list {p} whole numbers 0..{MAX_AMOUNT}, one per rank (PR-14.5)")
        table[int(p), :int(p)] = values
    return table


def read_strength(section, bad) -> dict:
    """A catapult, a loaded and an empty unit's contribution to strength (PR-14.4)."""
    check = in_section("strength", bad)
    return {"strength_catapult": require_whole(section, "catapult", -9, 9, "PR-14.4", check),
            "strength_loaded": require_whole(section, "loaded_unit", -9, 9, "PR-14.4", check),
            "strength_empty": require_whole(section, "empty_unit", -9, 9, "PR-14.4", check)}


# ---------------------------------------------------------------- effects

def read_effects(section, rules, given, bad) -> dict:
    """The effect tables (PR-17), one row per effect in file order."""
    if not 1 <= len(section) <= MAX_EFFECTS:
        bad("effects", f"must define 1..{MAX_EFFECTS} effects, found {len(section)}")
    n = len(section)
    tables = {
        "effect_ids": list(section),
        "effect_kind": np.zeros(n, dtype=np.int8),
        "effect_n_options": np.ones(n, dtype=np.int8),
        "effect_pay": np.zeros((n, MAX_EFFECT_OPTIONS, len(CUBES)), dtype=np.int16),
        "effect_gain": np.zeros((n, MAX_EFFECT_OPTIONS, len(GOODS)), dtype=np.int16),
        "effect_per": np.full(n, -1, dtype=np.int8),
        "effect_cube": np.full(n, -1, dtype=np.int8),
        "effect_unit": np.full(n, -1, dtype=np.int8),
    }
    for e, (effect_id, effect) in enumerate(section.items()):
        item = f"effect {effect_id}"
        if not is_name(effect_id) or not isinstance(effect, dict):
            bad(item, "must be an object with a kind")
        kind = effect.get("kind")
        if kind not in KINDS:
            bad(item, f"unknown kind {kind!r} (known: {', '.join(KINDS)}) (PR-17)")
        tables["effect_kind"][e] = KINDS.index(kind)
        if kind == "produce":
            read_produce(effect, e, item, tables, bad)
        elif kind == "recruit":
            if effect.get("tile") not in UNITS:
                bad(item, f"a recruit effect's tile must be {' or '.join(UNITS)} (PR-17.4)")
            tables["effect_unit"][e] = UNITS.index(effect["tile"])
        else:
            read_options_of(effect, kind, e, item, tables, bad)
    settle_catapult_big_option_gain(tables, rules, "catapult_big_option_gain" in given)
    return tables


def read_produce(effect, e, item, tables, bad):
    """Gain one cube per tile of a kind, counted at activation (PR-10.6)."""
    if effect.get("cube") not in CUBES:
        bad(item, f"a produce effect's cube must be {' or '.join(CUBES)} (PR-17.1)")
    if effect.get("per") not in BUYABLE:
        bad(item, f"a produce effect's per must be a tile or token: {', '.join(BUYABLE)}")
    tables["effect_cube"][e] = GOODS.index(effect["cube"])
    tables["effect_per"][e] = GOODS.index(effect["per"])


def read_options_of(effect, kind, e, item, tables, bad):
    """A buy effect's options {pay, gain} or a gain effect's options {cube: n}; choose one (PR-17)."""
    options = effect.get("options")
    if not isinstance(options, list) or not 1 <= len(options) <= MAX_EFFECT_OPTIONS:
        bad(item, f"options must list 1..{MAX_EFFECT_OPTIONS} options (PR-17)")
    tables["effect_n_options"][e] = len(options)
    for o, option in enumerate(options):
        where = f"{item} option {o + 1}"
        if not isinstance(option, dict):
            bad(where, "must be an object")
        if kind == "buy":
            pay = read_amounts(option.get("pay"), CUBES, f"{where} pay", "food and money (PR-9.1)", bad)
            if any(amount > MAX_PAY for amount in pay.values()):
                bad(f"{where} pay", f"at most {MAX_PAY} food and {MAX_PAY} money in one cost are supported")
            gain = read_amounts(option.get("gain"), BUYABLE, f"{where} gain", "tiles and tokens", bad)
            tables["effect_pay"][e, o] = [pay.get(cube, 0) for cube in CUBES]
        else:
            gain = read_amounts(option, CUBES, where, "food and money (PR-17.1)", bad)
        if sum(gain.values()) < 1:
            bad(where, "gives nothing")
        for good, amount in gain.items():
            tables["effect_gain"][e, o, GOODS.index(good)] = amount


def read_amounts(given, known, item, what, bad) -> dict[str, int]:
    if not isinstance(given, dict):
        bad(item, "must be an object of amounts")
    for name, amount in given.items():
        if name not in known:
            bad(item, f"may name only {what}, found {name!r}")
        if not is_whole_in(amount, 0, MAX_AMOUNT):
            bad(item, f"{name} must be a whole number 0..{MAX_AMOUNT}")
    return given


def settle_catapult_big_option_gain(tables, rules, set_in_file):
    """AMB-1: where the file sets options.catapult_big_option_gain, it overrides the expensive
    options (option 2 and later) of every effect whose options give only catapults; where it does
    not, the effect entries stand and the rule reports what they give."""
    for e in range(len(tables["effect_ids"])):
        n = tables["effect_n_options"][e]
        gains = tables["effect_gain"][e, :n]
        if tables["effect_kind"][e] == K_BUY and n > 1 and gains[:, G_CATAPULT].all() \
                and gains.sum() == gains[:, G_CATAPULT].sum():
            if set_in_file:
                gains[1:, G_CATAPULT] = rules["catapult_big_option_gain"]
            else:
                rules["catapult_big_option_gain"] = int(gains[1, G_CATAPULT])


# ---------------------------------------------------------------- cards

def read_cards(doc, effect_ids, display_size, bad) -> dict:
    """Card instances in DATA-3 order: S1 copies, S2 cards, year decks 1..3 (copies consecutive),
    scoring cards by year. Each card: (effect, exchange, year, marker, start, scoring)."""
    cards = read_start_cards(doc["start_cards"], effect_ids, bad)
    cards += read_year_decks(doc["year_decks"], effect_ids, bad)
    n_action_cards = len(cards)
    cards += read_scoring_cards(doc["scoring_cards"], bad)
    if len(cards) > MAX_CARDS:
        bad("cards", f"{len(cards)} card instances, at most {MAX_CARDS} are supported")
    columns = np.array(cards, dtype=np.int8).reshape(len(cards), 6).T
    names = ("card_effect", "card_exchange", "card_year", "card_marker", "card_start", "card_scoring")
    tables = dict(zip(names, (np.ascontiguousarray(column) for column in columns)))
    check_decks_per_player_count(tables, display_size, bad)
    return {"n_cards": len(cards), "n_action_cards": n_action_cards, **tables}


def read_card_entry(entry, item, effect_ids, bad, year_deck: bool):
    """(effect index, exchange, marker, copies) of one card entry."""
    if not isinstance(entry, dict):
        bad(item, "must be an object with an effect")
    if entry.get("effect") not in effect_ids:
        bad(item, f"effect {entry.get('effect')!r} is not defined in effects")
    if not isinstance(entry.get("exchange"), bool):
        bad(item, "exchange must be true or false (PR-17.3)")
    marker = entry.get("marker", 0) if year_deck else 0
    if not year_deck and "marker" in entry:
        bad(item, "start cards carry no player-count marker (PR-3.2)")
    if not is_whole(marker) or marker not in MARKERS:
        bad(item, "marker must be 0 (none), 3 or 4 (PR-3.2)")
    copies = entry.get("copies", 1)
    if not is_whole_in(copies, 1, MAX_CARDS):
        bad(item, f"copies must be a whole number 1..{MAX_CARDS}")
    return effect_ids.index(entry["effect"]), int(entry["exchange"]), marker, copies


def read_start_cards(section, effect_ids, bad) -> list[tuple]:
    """S1: one for every player, all identical; S2: one each, all different (PR-3.3)."""
    effect, exchange, _, copies = read_card_entry(section.get("S1"), "start_cards.S1", effect_ids, bad, False)
    if copies < MAX_PLAYERS:
        bad("start_cards.S1", f"needs at least {MAX_PLAYERS} copies, one for every player (PR-3.3), found {copies}")
    cards = [(effect, exchange, 0, 0, 1, 0)] * copies
    s2 = section.get("S2")
    if not isinstance(s2, list) or len(s2) < MAX_PLAYERS:
        found = len(s2) if isinstance(s2, list) else "no list"
        bad("start_cards.S2", f"needs at least {MAX_PLAYERS} cards, a different one for every player (PR-3.3), "
                              f"found {found}")
    seen = set()
    for i, entry in enumerate(s2):
        item = f"start_cards.S2[{i}]"
        effect, exchange, _, copies = read_card_entry(entry, item, effect_ids, bad, False)
        if copies != 1:
            bad(item, "an S2 entry is one card: the players' S2 cards all differ (PR-3.3)")
        if (effect, exchange) in seen:
            bad(item, "is the same card as an earlier S2 entry; the players' S2 cards all differ (PR-3.3)")
        seen.add((effect, exchange))
        cards.append((effect, exchange, 0, 0, 2, 0))
    return cards


def read_year_decks(section, effect_ids, bad) -> list[tuple]:
    """Decks 1, 2 and 3 of action cards, each entry `copies` cards (PR-3.4, DATA-4)."""
    for key in section:
        if key not in YEARS and key != "source":
            bad(f"year_decks.{key}", "unknown deck (the years are 1, 2 and 3)")
    cards = []
    for year in YEARS:
        entries = section.get(year)
        if not isinstance(entries, list):
            bad(f"year_decks.{year}", "must be a list of card entries")
        for i, entry in enumerate(entries):
            effect, exchange, marker, copies = read_card_entry(entry, f"year_decks.{year}[{i}]", effect_ids, bad, True)
            cards += [(effect, exchange, int(year), marker, 0, 0)] * copies
    return cards


def read_scoring_cards(section, bad) -> list[tuple]:
    """Military scoring cards shuffled into decks 2 and 3 (PR-1.1, PR-3.4)."""
    cards = []
    for key, count in section.items():
        if key not in YEARS[1:]:
            bad(f"scoring_cards.{key}", "scoring cards go into deck 2 or 3; deck 1 holds none (PR-3.4)")
        if not is_whole_in(count, 0, MAX_CARDS):
            bad(f"scoring_cards.{key}", f"must be a whole number 0..{MAX_CARDS}")
    for year in YEARS[1:]:
        cards += [(-1, 0, int(year), 0, 0, 1)] * section.get(year, 0)
    return cards


def check_decks_per_player_count(tables, display_size, bad):
    """For every P, after the removal of PR-3.2: deck 1 fills the display (PR-3.8) and decks 2 and 3
    hold an action card each to refill it (PR-12.4)."""
    action = tables["card_scoring"] == 0
    for p in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        used = action & ((tables["card_marker"] == 0) | (tables["card_marker"] <= p))
        for year in (1, 2, 3):
            n = int((used & (tables["card_year"] == year)).sum())
            need = int(display_size[p]) if year == 1 else 1
            if n < need:
                why = f"the display of {need} (PR-3.8)" if year == 1 else "one to refill the display (PR-12.4)"
                bad(f"year_decks.{year}", f"with {p} players the deck has {n} action cards after the removal of "
                                          f"PR-3.2, it needs {why}")


def action_card_warnings(n_action_cards) -> list[str]:
    if n_action_cards == ACTION_CARDS:
        return []
    return [f"{ACTION_CARDS} action cards expected, file has {n_action_cards} (PR-1.1)"]


# ---------------------------------------------------------------- culture tokens and goal cards

def read_culture_tokens(section, supply, bad) -> dict:
    """Each stack's printed VP, highest first, as many tokens as the supply's pool (PR-3.6, DATA-5)."""
    values = np.zeros((len(CULTURE), MAX_TOKENS), dtype=np.int16)
    counts = np.array([supply[SUPPLY.index(kind)] for kind in CULTURE], dtype=np.int16)
    for k, kind in enumerate(CULTURE):
        item = f"culture_tokens.{kind}"
        stack = section.get(kind)
        if not isinstance(stack, list) or len(stack) != counts[k]:
            found = len(stack) if isinstance(stack, list) else "no list"
            bad(item, f"must list {counts[k]} token values, the supply's {kind} pool (PR-1.2, DATA-5), found {found}")
        if not all(is_whole_in(v, 0, MAX_AMOUNT) for v in stack):
            bad(item, f"values must be whole numbers 0..{MAX_AMOUNT}")
        if stack != sorted(stack, reverse=True):
            bad(item, "must be sorted highest value first (PR-3.6)")
        values[k, :len(stack)] = stack
    return {"culture_values": values, "culture_n": counts}


def read_goal_cards(section, rules, given, bad) -> dict:
    """Decks G1 and G2, each dealing one card to every player (PR-3.5, PR-16)."""
    for key in section:
        if key not in GOAL_DECKS and key != "source":
            bad(f"goal_cards.{key}", "unknown goal deck (the decks are G1 and G2)")
    goals = []
    for d, deck in enumerate(GOAL_DECKS):
        cards = section.get(deck)
        if not isinstance(cards, list) or len(cards) < MAX_PLAYERS:
            found = len(cards) if isinstance(cards, list) else "no list"
            bad(f"goal_cards.{deck}", f"needs at least {MAX_PLAYERS} goal cards, one for every player (PR-3.5), "
                                      f"found {found}")
        goals += [(d, card, f"goal_cards.{deck}[{i}]") for i, card in enumerate(cards)]
    if len(goals) > MAX_GOALS:
        bad("goal_cards", f"{len(goals)} goal cards, at most {MAX_GOALS} are supported")
    n = len(goals)
    tables = {"goal_ids": [], "goal_deck": np.zeros(n, dtype=np.int8), "goal_kind": np.zeros(n, dtype=np.int8),
              "goal_tiles": np.zeros(n, dtype=np.int16), "goal_threshold": np.zeros(n, dtype=np.int16),
              "goal_vp_each": np.zeros(n, dtype=np.int16), "goal_divisor": np.zeros(n, dtype=np.int16),
              "goal_table": np.zeros((n, 4), dtype=np.int16)}
    for g, (deck, card, where) in enumerate(goals):
        if not isinstance(card, dict) or not is_name(card.get("id")):
            bad(where, "needs an id")
        if card["id"] not in [g.upper() for g in GOAL_CATEGORIES]:
            bad(where, f"unknown goal card {card['id']!r}: the results have a column for each of "
                       f"{', '.join(g.upper() for g in GOAL_CATEGORIES)} (DATA-6); change their formulas, not their ids")
        if card["id"] in tables["goal_ids"]:
            bad(f"goal {card['id']}", "is listed twice")
        tables["goal_ids"].append(card["id"])
        tables["goal_deck"][g] = deck
        read_goal(card, g, tables, rules, given, bad)
    return tables


def read_goal(card, g, tables, rules, given, bad):
    item = f"goal {card['id']}"
    kind = card.get("kind")
    if kind not in GOAL_KINDS:
        bad(item, f"unknown kind {kind!r} (known: {', '.join(GOAL_KINDS)}) (PR-16.1)")
    tables["goal_kind"][g] = GOAL_KINDS.index(kind)
    check = in_section(item, bad)
    if kind == "per_military_vp":
        tables["goal_divisor"][g] = require_whole(card, "divisor", 1, MAX_AMOUNT, "PR-16.1", check)
        if "rounding" in card and card["rounding"] not in ROUNDINGS:
            check("rounding", f"must be one of {', '.join(ROUNDINGS)} (AMB-3)")
        return
    tables["goal_tiles"][g] = read_goal_tiles(card.get("tiles"), f"{item}.tiles", bad)
    if kind == "sets":
        table = read_table(card.get("table"), f"{item}.table", bad)
        if card["id"] == "VILLA":                        # AMB-2: options.villa_table wins where the file sets it
            if "villa_table" in given:
                table = rules["villa_table"]
            rules["villa_table"] = table
        tables["goal_table"][g] = table
        return
    tables["goal_vp_each"][g] = require_whole(card, "vp_each", 0, MAX_AMOUNT, "PR-16.1", check)
    if kind == "above":
        tables["goal_threshold"][g] = require_whole(card, "threshold", 0, MAX_POOL, "PR-16.1", check)


def read_goal_tiles(tiles, item, bad) -> int:
    """The counted tiles or tokens as a bit mask over TILES."""
    if not isinstance(tiles, list) or not tiles or not all(t in TILES for t in tiles):
        bad(item, f"must list tiles or tokens out of {', '.join(TILES)}")
    if len(set(tiles)) != len(tiles):
        bad(item, "names a tile twice")
    return sum(1 << TILES.index(t) for t in tiles)


# ---------------------------------------------------------------- provenance

def provenance_items(doc, section) -> list[tuple[str, dict]]:
    """The items of a section whose values each carry the section's provenance, with their names."""
    if section == "effects":
        return [(f"effect {eid}", effect) for eid, effect in doc["effects"].items()]
    if section == "start_cards":
        s2 = doc["start_cards"]["S2"]
        return [("start_cards.S1", doc["start_cards"]["S1"])] + [(f"start_cards.S2[{i}]", e) for i, e in enumerate(s2)]
    if section == "year_decks":
        return [(f"year_decks.{y}[{i}]", e) for y in YEARS for i, e in enumerate(doc["year_decks"][y])]
    if section == "goal_cards":
        return [(f"goal {card['id']}", card) for deck in GOAL_DECKS for card in doc["goal_cards"][deck]]
    return []


def summarise_provenance(doc, bad) -> dict[str, str]:
    """component -> provenance, e.g. year_decks.copies -> reconstructed, effects.gain -> reconstructed 2, rulebook 14."""
    given = doc.get("provenance", {})
    if isinstance(given, str):
        given = {}                      # DATA-7's one-line summary names no values
    check_provenance(given, "provenance", bad)
    for section in given:
        if section not in SECTIONS:
            bad(f"provenance.{section}", f"unknown section (known: {', '.join(SECTIONS)})")
        check_provenance(given[section], f"provenance.{section}", bad)
    tallies: dict[str, dict[str, int]] = {}

    def count(component, value):
        tally = tallies.setdefault(component, {})
        tally[value] = tally.get(value, 0) + 1

    for section in SECTIONS:
        items = provenance_items(doc, section)
        for key, value in given.get(section, {}).items():
            if not items:
                count(f"{section}.{key}", value)
        for name, entry in items:
            own = entry.get("provenance", {})
            check_provenance(own, f"{name}.provenance", bad)
            for key, value in {**given.get(section, {}), **own}.items():
                count(f"{section}.{key}", value)
    return {component: describe_tally(tally) for component, tally in tallies.items()}


def check_provenance(given, item, bad):
    """An object of value -> provenance (or, at the top, of section -> such objects)."""
    if not isinstance(given, dict):
        bad(item, "must be an object of value -> rulebook, sourced or reconstructed")
    if item == "provenance":
        return
    for key, value in given.items():
        if value not in PROVENANCES:
            bad(f"{item}.{key}", f"must be one of {', '.join(PROVENANCES)}, found {value!r}")
