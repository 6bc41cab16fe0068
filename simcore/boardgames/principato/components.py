"""Principato component data file -> validated numpy tables for the kernels.

The file (data/principato.json) is the specification's default data file (DATA-7): display
sizes, the supply, storage, starting holdings, rank VP, strength, the 16 card effects, the start
cards, the three year decks, the military scoring cards, the culture-token stacks, the goal cards
and, under "options", the rule switches of the specification's ambiguities (AMB-n, section 20) at
their recommended defaults (those the entries do not restate, below).

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

A file is checked in two steps: its shape against the JSON Schema data/principato.schema.json
(every key, type, range and list length; one line naming the item), then the game's own
constraints here. Every value is played or refused: what a unit holds and the S1 copies are fixed
by the rules, and a value other than theirs is refused, as is an effect no card has. Four rule
switches restate an entry of the file: the catapult cards' expensive option (AMB-1), the Villa
table (AMB-2), the Stronghold rounding (AMB-3) and culture_tokens.take (AMB-9). Where "options"
leaves the switch out, the entry plays and the switch reports its value; where options sets it,
options wins (DATA-7) and a disagreeing entry gets a warning. The shipped file therefore leaves
those four switches out of options, so that each of its values plays. It gives the catapults'
expensive option 1 catapult, as the rulebook prints it (the specification's AMB-1 default of 2 is
the switch's alternative). The culture stacks are listed highest value first (PR-3.6, sorted by
printed VP); the take rule says which end a buyer takes from (AMB-9).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.datafile import describe_tally, read_json, rule_values, schema_validator, shipped_path, validate
from simcore.contract import UserError

PACKAGE = "simcore.boardgames.principato"
SCHEMA = "principato.schema.json"        # data/: the shape of a data file
WHAT = "Principato data file"            # what errors call it
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
SECTIONS = ("display_size", "supply", "storage", "start_holdings", "military_vp_by_rank", "strength", "effects",
            "start_cards", "year_decks", "scoring_cards", "culture_tokens", "goal_cards", "options")
PLAYER_COUNTS = tuple(str(p) for p in range(MIN_PLAYERS, MAX_PLAYERS + 1))
YEARS = ("1", "2", "3")
GOAL_DECKS = ("G1", "G2")
GOAL_CATEGORIES = ("armory", "fertile_soil", "municipal_law", "stronghold", "chapel", "city_hall", "villa",
                   "palace")             # DATA-6: the goal cards, each a score category of the results
ACTION_CARDS = 98                       # PR-1.1
# The schema's maxima (test_components checks they agree): what the int16 tables hold and the
# decisions list (state.MAX_OPTIONS = 256)
MAX_AMOUNT = 99                         # costs, gains, VP values, storage per tile
MAX_POOL = 99                           # tile pools and cube supplies: a recruit count or a load
                                        # part has at most MAX_POOL + 1 options
MAX_PAY = 8                             # food or money in one cost: at most 3 x 9 x 9 payment moves
MAX_DISPLAY = 10                        # display slots; state.py sizes its display the same
CUBES = ("food", "money")               # what a cost names and a gain card gives (PR-17.1: never favour)
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
    rules: dict                      # RULE_DEFAULTS overridden by the file's "options" and the entries they restate
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
    goal_rounding: np.ndarray        # int8[G]: ROUNDINGS index ("per_military_vp"; AMB-3's switch on STRONGHOLD)
    goal_table: np.ndarray           # int16[G, 4]  ("sets"; VILLA's replaced by options.villa_table)

    def card_name(self, card: int) -> str:
        """'HARVEST#8', 'MARKET2 (S1)#0', 'SCORING#98': short, for replays."""
        if self.card_scoring[card]:
            return f"SCORING#{card}"
        start = f" (S{self.card_start[card]})" if self.card_start[card] else ""
        return f"{self.effect_ids[self.card_effect[card]]}{start}#{card}"


def default_path() -> str:
    return shipped_path(PACKAGE, "principato.json")


def load(path: str | None = None) -> PrincipatoData:
    """Read, validate and convert a Principato data file (None: the shipped one)."""
    path = path or default_path()
    return from_document(read_json(path, WHAT), path)


def from_document(doc, path: str = "<data>") -> PrincipatoData:
    """Validate a parsed data document and build its tables: first its shape against the JSON
    Schema (data/principato.schema.json: keys, types, ranges, list lengths), then the game's own
    constraints."""
    validate(doc, schema_validator(PACKAGE, SCHEMA), path, WHAT)
    return from_valid_document(doc, path)


def from_valid_document(doc, path: str) -> PrincipatoData:
    """The tables of a document the schema accepts, after the game's own constraints."""
    def bad(item, msg):
        raise UserError(f"{WHAT} {path}: {item}: {msg}")

    warnings: list[str] = []
    given = set(doc["options"])                          # the switches the file sets itself
    rules = read_options(doc["options"], doc["culture_tokens"], warnings, bad)
    display_size = read_display_size(doc["display_size"])
    supply = np.array([doc["supply"][key] for key in SUPPLY], dtype=np.int16)
    storage = read_storage(doc["storage"], bad)
    start_holdings = read_start_holdings(doc["start_holdings"], supply, storage, bad)
    effects = read_effects(doc["effects"], rules, given, warnings, bad)
    cards = read_cards(doc, effects["effect_ids"], display_size, bad)
    warnings[:0] = action_card_warnings(cards["n_action_cards"])
    culture = read_culture_tokens(doc["culture_tokens"], supply, bad)
    goals = read_goal_cards(doc["goal_cards"], rules, given, warnings, bad)
    strength = doc["strength"]
    return PrincipatoData(
        data_set_id=doc.get("data_set_id", "unnamed"),
        name=doc.get("name", doc.get("data_set_id", "unnamed")),
        source=doc.get("source", ""),
        reconstructed=doc.get("reconstructed", False),
        path=path,
        provenance=summarise_provenance(doc),
        warnings=warnings,
        rules=rules,
        rule_values=rule_values(rules, RULE_DEFAULTS, RULE_CHOICES, convert={"villa_table": lambda table: 0}),
        display_size=display_size,
        supply=supply,
        **storage,
        start_holdings=start_holdings,
        rank_vp=read_rank_vp(doc["military_vp_by_rank"]),
        strength_catapult=strength["catapult"],
        strength_loaded=strength["loaded_unit"],
        strength_empty=strength["empty_unit"],
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


def overridden(warnings, switch, value, entry, entry_value):
    """DATA-7: where options and a card or goal entry disagree, options wins; say so, since the
    entry's value is not played."""
    if entry_value != value:
        warnings.append(f"options.{switch} = {value} overrides {entry} = {entry_value} (DATA-7: options wins)")


# ---------------------------------------------------------------- rule switches

def read_options(options, culture_tokens, warnings, bad) -> dict:
    """The rule switches (AMB-n) over RULE_DEFAULTS. culture_tokens.take sets culture_take where
    options leaves it out; options wins where it is set, as it does over the catapult cards, the
    Villa card and the Stronghold card (read with the effects and goals)."""
    rules = {**RULE_DEFAULTS, **options}
    if "villa_table" in options:
        check_table(options["villa_table"], "options.villa_table", bad)
    take = culture_tokens.get("take")
    if take is not None:
        if "culture_take" in options:
            overridden(warnings, "culture_take", options["culture_take"], "culture_tokens.take", take)
        else:
            rules["culture_take"] = take
    return rules


def check_table(table, item, bad):
    """A goal table (VP for 0, 1, 2 and 3 pairs or sets, PR-16.1) never decreases."""
    if table != sorted(table):
        bad(item, "must not decrease: more pairs or sets never score less (PR-16.1)")


# ---------------------------------------------------------------- numbers

def read_display_size(section) -> np.ndarray:
    """D for each player count (PR-0.1), indexed by P."""
    sizes = np.zeros(MAX_PLAYERS + 1, dtype=np.int8)
    for p in PLAYER_COUNTS:
        sizes[int(p)] = section[p]
    return sizes


def read_storage(section, bad) -> dict:
    """Farm, bank and church capacities (PR-2.2); what a unit holds is fixed by the rules (the
    state counts units by the one cube they hold)."""
    for key, accepts in UNIT_LOADS.items():
        if key in section and sorted(section[key]) != sorted(accepts):
            bad(f"storage.{key}", f"is fixed by the rules at {' and '.join(accepts)} (PR-2.2)")
    if section.get("per_unit", 1) != 1:
        bad("storage.per_unit", "is fixed by the rules at 1: a unit holds one cube (PR-2.2)")
    return {key: section[key] for key in ("food_per_farm", "money_per_bank", "church_favour")}


def read_start_holdings(section, supply, storage, bad) -> np.ndarray:
    """What each player takes at setup (PR-3.7): it must fit the supply with 4 players and the storage."""
    held = {key: section[key] for key in START}
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
            bad(f"start_holdings.{cube}", f"{held[cube]} do not fit in the starting storage of {capacity} "
                                          f"(PR-2.2, PR-3.7)")
    return np.array([held[key] for key in START], dtype=np.int16)


def read_rank_vp(section) -> np.ndarray:
    """rank_vp[P, r]: the VP of rank r in a scoring with P players (PR-14.5)."""
    table = np.zeros((MAX_PLAYERS + 1, MAX_PLAYERS), dtype=np.int16)
    for p in PLAYER_COUNTS:
        table[int(p), :int(p)] = section[p]
    return table


# ---------------------------------------------------------------- effects

def read_effects(section, rules, given, warnings, bad) -> dict:
    """The effect tables (PR-17), one row per effect in file order."""
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
        kind = effect["kind"]
        tables["effect_kind"][e] = KINDS.index(kind)
        if kind == "produce":                            # one cube per tile, counted at activation (PR-10.6)
            tables["effect_cube"][e] = GOODS.index(effect["cube"])
            tables["effect_per"][e] = GOODS.index(effect["per"])
        elif kind == "recruit":
            tables["effect_unit"][e] = UNITS.index(effect["tile"])
        else:
            read_options_of(effect, kind, e, f"effect {effect_id}", tables, bad)
    settle_catapult_big_option_gain(tables, rules, "catapult_big_option_gain" in given, warnings)
    return tables


def read_options_of(effect, kind, e, item, tables, bad):
    """A buy effect's options {pay, gain} or a gain effect's options {cube: n}; choose one (PR-17)."""
    options = effect["options"]
    tables["effect_n_options"][e] = len(options)
    for o, option in enumerate(options):
        gain = option["gain"] if kind == "buy" else option
        if kind == "buy":
            tables["effect_pay"][e, o] = [option["pay"].get(cube, 0) for cube in CUBES]
        if sum(gain.values()) < 1:
            bad(f"{item} option {o + 1}", "gives nothing")
        for good, amount in gain.items():
            tables["effect_gain"][e, o, GOODS.index(good)] = amount


def settle_catapult_big_option_gain(tables, rules, set_in_file, warnings):
    """AMB-1: where the file sets options.catapult_big_option_gain, it overrides the expensive
    options (option 2 and later) of every effect whose options give only catapults; where it does
    not, the effect entries stand and the rule reports what they give."""
    for e, effect_id in enumerate(tables["effect_ids"]):
        n = tables["effect_n_options"][e]
        gains = tables["effect_gain"][e, :n]
        if tables["effect_kind"][e] == K_BUY and n > 1 and gains[:, G_CATAPULT].all() \
                and gains.sum() == gains[:, G_CATAPULT].sum():
            if set_in_file:
                for o in range(1, n):
                    overridden(warnings, "catapult_big_option_gain", rules["catapult_big_option_gain"],
                               f"effect {effect_id} option {o + 1} catapult", int(gains[o, G_CATAPULT]))
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
    for year in YEARS[1:]:                               # military scoring cards: decks 2 and 3 (PR-3.4)
        cards += [(-1, 0, int(year), 0, 0, 1)] * doc["scoring_cards"].get(year, 0)
    if len(cards) > MAX_CARDS:
        bad("cards", f"{len(cards)} card instances, at most {MAX_CARDS} are supported")
    columns = np.array(cards, dtype=np.int8).reshape(len(cards), 6).T
    names = ("card_effect", "card_exchange", "card_year", "card_marker", "card_start", "card_scoring")
    tables = dict(zip(names, (np.ascontiguousarray(column) for column in columns)))
    check_every_effect_is_on_a_card(tables, effect_ids, bad)
    check_decks_per_player_count(tables, display_size, bad)
    return {"n_cards": len(cards), "n_action_cards": n_action_cards, **tables}


def card_effect(entry, item, effect_ids, bad) -> int:
    """The index of a card entry's effect, which the effects section must define."""
    if entry["effect"] not in effect_ids:
        bad(item, f"effect {entry['effect']!r} is not defined in effects")
    return effect_ids.index(entry["effect"])


def read_start_cards(section, effect_ids, bad) -> list[tuple]:
    """S1: one for every player, all identical; S2: one each, all different (PR-3.3)."""
    s1 = section["S1"]
    effect = card_effect(s1, "start_cards.S1", effect_ids, bad)
    if s1.get("copies", 1) != MAX_PLAYERS:               # cards_in_play deals one to each player, never more
        bad("start_cards.S1.copies", f"is fixed by the rules at {MAX_PLAYERS}, one for every player (PR-3.3), "
                                     f"found {s1.get('copies', 1)}")
    cards = [(effect, int(s1["exchange"]), 0, 0, 1, 0)] * MAX_PLAYERS
    if len(section["S2"]) < MAX_PLAYERS:
        bad("start_cards.S2", f"needs at least {MAX_PLAYERS} cards, a different one for every player (PR-3.3), "
                              f"found {len(section['S2'])}")
    seen = set()
    for i, entry in enumerate(section["S2"]):
        item = f"start_cards.S2[{i}]"
        effect = card_effect(entry, item, effect_ids, bad)
        if entry.get("copies", 1) != 1:
            bad(item, "an S2 entry is one card: the players' S2 cards all differ (PR-3.3)")
        if (effect, entry["exchange"]) in seen:
            bad(item, "is the same card as an earlier S2 entry; the players' S2 cards all differ (PR-3.3)")
        seen.add((effect, entry["exchange"]))
        cards.append((effect, int(entry["exchange"]), 0, 0, 2, 0))
    return cards


def read_year_decks(section, effect_ids, bad) -> list[tuple]:
    """Decks 1, 2 and 3 of action cards, each entry `copies` cards (PR-3.4, DATA-4)."""
    cards = []
    for year in YEARS:
        for i, entry in enumerate(section[year]):
            effect = card_effect(entry, f"year_decks.{year}[{i}]", effect_ids, bad)
            cards += [(effect, int(entry["exchange"]), int(year), entry.get("marker", 0), 0, 0)] \
                * entry.get("copies", 1)
    return cards


def check_every_effect_is_on_a_card(tables, effect_ids, bad):
    """An effect no card has would never play: its values would be read and ignored."""
    on_cards = set(tables["card_effect"][tables["card_scoring"] == 0].tolist())
    for e, effect_id in enumerate(effect_ids):
        if e not in on_cards:
            bad(f"effects.{effect_id}", "is on no card: no start card or year-deck entry names it")


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
        stack = section[kind]
        if len(stack) != counts[k]:
            bad(item, f"must list {counts[k]} token values, the supply's {kind} pool (PR-1.2, DATA-5), "
                      f"found {len(stack)}")
        if stack != sorted(stack, reverse=True):
            bad(item, "must be sorted highest value first (PR-3.6)")
        values[k, :len(stack)] = stack
    return {"culture_values": values, "culture_n": counts}


def read_goal_cards(section, rules, given, warnings, bad) -> dict:
    """Decks G1 and G2, each dealing one card to every player (PR-3.5, PR-16)."""
    for deck in GOAL_DECKS:
        if len(section[deck]) < MAX_PLAYERS:
            bad(f"goal_cards.{deck}", f"needs at least {MAX_PLAYERS} goal cards, one for every player (PR-3.5), "
                                      f"found {len(section[deck])}")
    goals = [(d, card, f"goal_cards.{deck}[{i}]") for d, deck in enumerate(GOAL_DECKS)
             for i, card in enumerate(section[deck])]
    if len(goals) > MAX_GOALS:
        bad("goal_cards", f"{len(goals)} goal cards, at most {MAX_GOALS} are supported")
    n = len(goals)
    tables = {"goal_ids": [], "goal_deck": np.zeros(n, dtype=np.int8), "goal_kind": np.zeros(n, dtype=np.int8),
              "goal_tiles": np.zeros(n, dtype=np.int16), "goal_threshold": np.zeros(n, dtype=np.int16),
              "goal_vp_each": np.zeros(n, dtype=np.int16), "goal_divisor": np.zeros(n, dtype=np.int16),
              "goal_rounding": np.zeros(n, dtype=np.int8), "goal_table": np.zeros((n, 4), dtype=np.int16)}
    for g, (deck, card, where) in enumerate(goals):
        if card["id"] not in [g.upper() for g in GOAL_CATEGORIES]:
            bad(where, f"unknown goal card {card['id']!r}: the results have a column for each of "
                       f"{', '.join(g.upper() for g in GOAL_CATEGORIES)} (DATA-6); change their formulas, not their ids")
        if card["id"] in tables["goal_ids"]:
            bad(f"goal {card['id']}", "is listed twice")
        tables["goal_ids"].append(card["id"])
        tables["goal_deck"][g] = deck
        read_goal(card, g, tables, rules, given, warnings, bad)
    return tables


def read_goal(card, g, tables, rules, given, warnings, bad):
    """One goal card's formula (PR-16.1). options.villa_table and options.stronghold_rounding,
    where the file sets them, win over the VILLA and STRONGHOLD cards (AMB-2, AMB-3, DATA-7)."""
    kind = card["kind"]
    tables["goal_kind"][g] = GOAL_KINDS.index(kind)
    if kind == "per_military_vp":
        tables["goal_divisor"][g] = card["divisor"]
        rounding = settle(card, "rounding", "STRONGHOLD", "stronghold_rounding", rules, given, warnings)
        tables["goal_rounding"][g] = ROUNDINGS.index(rounding)
        return
    tables["goal_tiles"][g] = sum(1 << TILES.index(t) for t in card["tiles"])
    if kind == "sets":
        check_table(card["table"], f"goal {card['id']}.table", bad)
        tables["goal_table"][g] = settle(card, "table", "VILLA", "villa_table", rules, given, warnings)
        return
    tables["goal_vp_each"][g] = card["vp_each"]
    if kind == "above":
        tables["goal_threshold"][g] = card["threshold"]


def settle(card, key, goal_id, switch, rules, given, warnings):
    """card[key], or the switch where the card is goal_id and the file sets the switch (then a
    card that says otherwise is overridden); the card goal_id reports its value as the rule where
    the file does not set it. A card without the key plays the file's switch or its default."""
    value = card.get(key, rules[switch] if switch in given else RULE_DEFAULTS[switch])
    if card["id"] != goal_id:
        return value
    if switch in given:
        if key in card:
            overridden(warnings, switch, rules[switch], f"goal {goal_id}.{key}", card[key])
        return rules[switch]
    rules[switch] = value
    return value


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


def summarise_provenance(doc) -> dict[str, str]:
    """component -> provenance, e.g. year_decks.copies -> reconstructed, effects.gain -> reconstructed 2, rulebook 14."""
    given = doc.get("provenance", {})
    if isinstance(given, str):
        given = {}                      # DATA-7's one-line summary names no values
    tallies: dict[str, dict[str, int]] = {}

    def count(component, value):
        tally = tallies.setdefault(component, {})
        tally[value] = tally.get(value, 0) + 1

    for section in SECTIONS:
        items = provenance_items(doc, section)
        for key, value in given.get(section, {}).items():
            if not items:
                count(f"{section}.{key}", value)
        for _, entry in items:
            for key, value in {**given.get(section, {}), **entry.get("provenance", {})}.items():
                count(f"{section}.{key}", value)
    return {component: describe_tally(tally) for component, tally in tallies.items()}
