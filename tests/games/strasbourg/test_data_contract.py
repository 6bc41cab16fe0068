"""Every value of the Strasbourg data file is played or refused (issue 16): a value the loader
accepted but the kernels ignored would be a silent lie to whoever sweeps it.

The test walks every leaf of the shipped file and classifies it by the path patterns below.
The descriptive leaves (names, ids other entries refer to, text, provenance) changed all at once
(an id renamed wherever it is used) leave the kernels' tables as they were; a played leaf changed
alone to a legal variant is refused, or the same seeded games come out differently (points, seat
and game counters)."""
import copy
import json

import numpy as np
import pytest

from simcore.boardgames.strasbourg import components, scoring, spec
from simcore.boardgames.strasbourg.state import COLS, new_tables
from simcore.datafile import PROVENANCES
from simcore.contract import UserError
from tests.games.strasbourg.builder import position

GAMES = 1000                     # random games per player count (a TK-01 card's building shows in ~1 in 500)
GREEDY_GAMES = 100               # greedy games (the policy reads values random play ignores)
SEED = 16

# Descriptive leaves, and why each is.
DESCRIPTIVE = {
    "data_set_id": "names the data set in results and replays",
    "name": "the data set's title, for people",
    "source": "where the values come from, for people",
    "reconstructed": "marks placeholder data, for people",
    "notes.*": "text for people",
    "*.provenance.*": "where a value comes from, for people",
    "*.*.*.provenance.*": "where an item's value comes from, for people",
    "rules.CHAPEL_ADJACENCY": "chooses what the loader checks of the chapel spots' cadj; the kernels play the "
                              "cadj lists",
    "rules.CITY_WALL": "chooses what the loader checks of board.wall and board.corners; the kernels play the lists",
    "guilds.kinds.*.id": "names the guild for the cells, seats, round cards, goods and tasks; the guild's "
                         "index is its position",
    "guilds.kinds.*.name_en": "a name, for people (task names, replays, pictures)",
    "guilds.kinds.*.name_hu": "a name, for people",
    "guilds.kinds.*.goods_en": "a name, for people",
    "guilds.kinds.*.goods_hu": "a name, for people",
    "guilds.kinds.*.colour": "a colour, for people (pictures colour guilds by id)",
    "round_cards.cards.*.id": "names the card, for people",
    "buildings.tiles.*.id": "names the building for the TK-01 cards; its index is its position",
    "buildings.tiles.*.name_en": "a name, for people",
    "buildings.tiles.*.name_hu": "a name, for people",
    "tasks.cards.*.id": "names the card, for people",
}


# ---------------------------------------------------------------- variants of played leaves

def one_more(doc, path, value):
    return 1 if value is None else value + 1            # a building site's price is null


def one_less(doc, path, value):
    return value - 1


def another_coordinate(doc, path, value):
    """A row or column one step away, inside the grid (the schema refuses one outside)."""
    high = components.ROWS - 1 if path[-1] in (0, "r") else components.COLS - 1
    return value + 1 if value < high else value - 1


def other_choice(choices):
    return lambda doc, path, value: next(c for c in choices if c != value)


def negated(doc, path, value):
    return not value


def neighbour_guild(doc, path, value):
    """The guild of an edge-neighbour in another district (the districts may stay connected), else
    the next guild."""
    cells = {(cell["r"], cell["c"]): cell for cell in doc["board"]["cells"]}
    cell = doc["board"]["cells"][path[2]]
    for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        other = cells.get((cell["r"] + dr, cell["c"] + dc))
        if other and other["guild"] not in (None, value):
            return other["guild"]
    ids = [kind["id"] for kind in doc["guilds"]["kinds"]]
    return ids[(ids.index(value) + 1) % len(ids)]


def swapped_with_next(doc, path, value):
    """The card's guild of the next sub-phase, which gets this one (the swap keeps every guild on
    3 cards, SB-19.4)."""
    guilds = doc_at(doc, path[:-1])
    other = (path[-1] + 1) % len(guilds)
    new, guilds[other] = guilds[other], value
    return new


def easiest_or_harder(doc, path, value):
    """A task's easiest threshold, the type's minimum (players meet it often), or one higher at
    the minimum; the depicted building or guild: the next one."""
    limits = components.TASK_TYPES[doc_at(doc, path[:-2])["type"]][path[-1]]
    if limits is None:
        section, items = ("guilds", "kinds") if path[-1] == "guild" else ("buildings", "tiles")
        ids = [item["id"] for item in doc[section][items]]
        return ids[(ids.index(value) + 1) % len(ids)]
    return limits[0] if value > limits[0] else value + 1


def most_prestige(doc, path, value):
    """The most a card may be worth: greedy then keeps the card (policies.task_worth) also where
    random play never fulfils it."""
    highest = SCHEMA["properties"]["tasks"]["properties"]["cards"]["items"]["properties"]["prestige"]["maximum"]
    return highest if value != highest else value - 1


def next_task_type(doc, path, value):
    types = components.TASK_TYPE_IDS
    return types[(types.index(value) + 1) % len(types)]


def a_family_member_limit(doc, path, value):
    return 4                                          # fewer than random players place in 5 rounds


def another_seat(doc, path, value):
    return "MERCHANTS" if value != "MERCHANTS" else "NOBILITY"


# played leaf pattern -> its variant (the docstrings and names say which value is tried)
PLAYED = {
    "rules.MASTER_PARTS_OPTIONAL": negated,
    "rules.ALLOW_DOMINATED_RETURN": negated,
    "rules.ALLOW_DOMINATED_PRIVILEGE": negated,
    "rules.PLANNING_MODE": other_choice(components.RULE_CHOICES["PLANNING_MODE"]),
    "rules.FM_LIMIT": a_family_member_limit,
    "rules.SCREEN_HIDES_RESOURCES": negated,
    "board.rows": one_more,
    "board.cols": one_less,
    "board.cells.*.r": another_coordinate,
    "board.cells.*.c": another_coordinate,
    "board.cells.*.kind": other_choice(("guild", "site")),
    "board.cells.*.guild": neighbour_guild,
    "board.cells.*.price": one_more,
    "board.chapel_spots.*.vr": one_more,
    "board.chapel_spots.*.vc": one_more,
    "board.chapel_spots.*.cadj.*.*": another_coordinate,
    "board.wall.*.*": another_coordinate,
    "board.corners.*.*": another_coordinate,
    "council.seats.*": another_seat,
    "round_cards.cards.*.guilds.*": swapped_with_next,
    "buildings.tiles.*.value": one_more,
    "goods.tiles.*.*": one_more,
    "tasks.cards.*.type": next_task_type,
    "tasks.cards.*.params.*": easiest_or_harder,
    "tasks.cards.*.prestige": most_prestige,
    "influence.cards_per_value.*": one_less,
    "player_start.coins": one_more,
}


# ---------------------------------------------------------------- the file's leaves

def leaves(doc, path=()):
    """The paths of every value of the document that is not an object or a list."""
    if isinstance(doc, dict):
        return [leaf for key, value in doc.items() for leaf in leaves(value, path + (key,))]
    if isinstance(doc, list):
        return [leaf for i, value in enumerate(doc) for leaf in leaves(value, path + (i,))]
    return [path]


def matches(pattern, path) -> bool:
    """A pattern's parts are keys, list indexes or * for any one part."""
    parts = pattern.split(".")
    return len(parts) == len(path) and all(p == "*" or p == str(key) for p, key in zip(parts, path))


def classify(path):
    """(kind, pattern) of the one pattern that matches the path; kind 'descriptive' or 'played'."""
    found = [("descriptive", p) for p in DESCRIPTIVE if matches(p, path)]
    found += [("played", p) for p in PLAYED if matches(p, path)]
    assert len(found) == 1, f"{'.'.join(map(str, path))} matches {found or 'no pattern'}"
    return found[0]


def doc_at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def shipped():
    with open(components.default_path(), encoding="utf-8") as fh:
        return json.load(fh)


SHIPPED = shipped()
SHIPPED_TEXT = json.dumps(SHIPPED)
SCHEMA = components.schema_validator(components.PACKAGE, components.SCHEMA).schema
LEAVES = leaves(SHIPPED)


def variant(path):
    """The shipped document with the leaf at path changed (a played leaf to its PLAYED variant,
    which may move another value with it)."""
    doc = json.loads(SHIPPED_TEXT)
    kind, pattern = classify(path)
    value = doc_at(doc, path)
    new = PLAYED[pattern](doc, path, value) if kind == "played" else descriptive_variant(value)
    assert new != value, path
    doc_at(doc, path[:-1])[path[-1]] = new
    return doc


def descriptive_variant(value):
    if isinstance(value, bool):
        return not value
    if value is None:
        return "grey"
    if value in ("VERTEX", "OUTER_RING"):                 # the rule switches of the loader's checks
        return "LISTED"
    if value in PROVENANCES:
        return next(other for other in PROVENANCES if other != value)
    return value + " (variant)"


class CheckedOnce:
    """components.validate, each object and list of a file checked once per content. Where an
    object's schema only asks for its keys and checks each value on its own (the top level, the
    sections, the board), or a list's only asks for its length and checks each item on its own,
    one whose keys or length are right and whose values pass, passes. A variant differs from the
    shipped file in one value, so only the items around it are checked again; where anything
    fails, the loader's own check runs, for its refusal."""

    ANNOTATIONS = {"description", "$comment", "$schema", "$id", "title", "$defs"}
    OBJECT = {"type", "required", "additionalProperties", "properties"} | ANNOTATIONS
    LIST = {"type", "minItems", "maxItems", "contains", "minContains", "maxContains", "items"} | ANNOTATIONS

    def __init__(self, check):
        self.check, self.passed = check, set()

    def __call__(self, doc, validator, path, what):
        if not self.passes(validator, validator.schema, doc):
            self.check(doc, validator, path, what)

    def passes(self, validator, schema, value) -> bool:
        key = (id(schema), json.dumps(value, sort_keys=True))
        if key in self.passed:
            return True
        if isinstance(value, dict) and set(schema) <= self.OBJECT and schema.get("additionalProperties") is False:
            ok = (set(schema.get("required", ())) <= set(value) <= set(schema["properties"])
                  and all(self.passes(validator, schema["properties"][name], item) for name, item in value.items()))
        elif isinstance(value, list) and set(schema) <= self.LIST and schema.get("contains", True) is True \
                and isinstance(schema.get("items"), dict):
            n = len(value)                               # contains: true counts every item
            low = max(schema.get("minItems", 0), schema.get("minContains", 1) if "contains" in schema else 0)
            ok = (low <= n <= min(schema.get("maxItems", n), schema.get("maxContains", n))
                  and all(self.passes(validator, schema["items"], item) for item in value))
        else:
            ok = validator.evolve(schema=schema).is_valid(value)
        if ok:
            self.passed.add(key)
        return ok


@pytest.fixture(scope="module")
def sections_checked_once():
    """Hundreds of variants load in seconds: the schema check of a whole file takes tens of ms."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(components, "validate", CheckedOnce(components.validate))
        yield


def loaded(doc):
    """The data set of doc, or None when the loader refuses it (with a one-line UserError)."""
    try:
        return components.from_document(doc, "variant.json")
    except UserError as exc:
        assert "\n" not in str(exc)
        return None


# ---------------------------------------------------------------- the tests

def test_every_leaf_of_the_shipped_file_is_classified_by_one_pattern():
    kinds = [classify(path) for path in LEAVES]
    used = {pattern for _, pattern in kinds}
    assert used == set(DESCRIPTIVE) | set(PLAYED), "patterns that match no leaf: " + \
        ", ".join(sorted(set(DESCRIPTIVE) | set(PLAYED) - used))
    assert sum(kind == "played" for kind, _ in kinds) > 400        # the board alone has 54 cells x 5 values


def tables_bytes(data, players=4):
    """The kernels' tables as bytes, but for the rule slots the kernels never read (CHECK_SWITCHES)."""
    tt = new_tables(data, players)
    for name in components.CHECK_SWITCHES:
        tt[0].rules[components.RULE_INDEX[name]] = 0
    return tt.tobytes()


def with_ids_renamed(doc):
    """doc with every guild and building id renamed wherever the file uses it (a value or a key)."""
    text = json.dumps(doc)
    for section, items in (("guilds", "kinds"), ("buildings", "tiles")):
        for item in doc[section][items]:
            text = text.replace(json.dumps(item["id"]), json.dumps(item["id"] + "-2"))
    return json.loads(text)


def test_the_descriptive_values_changed_all_at_once_leave_the_kernel_tables_as_they_were():
    doc = with_ids_renamed(SHIPPED)
    for path in LEAVES:
        kind, pattern = classify(path)
        if kind == "descriptive" and pattern not in ("guilds.kinds.*.id", "buildings.tiles.*.id"):
            doc_at(doc, path[:-1])[path[-1]] = descriptive_variant(doc_at(doc, path))
    descriptive = [path for path in LEAVES if classify(path)[0] == "descriptive"]
    assert all(doc_at(doc, path) != doc_at(SHIPPED, path) for path in descriptive)
    assert tables_bytes(components.from_document(doc, "variant.json")) == tables_bytes(components.load(None))


def results(data, players, policy, games, first=0):
    """Points, seat and game counters of games first.. (all seats one policy)."""
    seats = np.full((games, players), policy, np.int8)
    batch = spec.play_batch(data, players, seats, SEED, first)
    return [batch.pts, batch.seat, batch.game]


def plays_differently(data, base_results) -> bool:
    """Do the plans' games come out differently from the shipped file's? A tenth of each plan's
    games first: most variants show there."""
    for (players, policy, games), base in base_results.items():
        for first, count in ((0, games // 10), (games // 10, games - games // 10)):
            found = results(data, players, policy, count, first)
            if any((a != b[first:first + count]).any() for a, b in zip(found, base)):
                return True
    return False


PLANS = [(players, 0, GAMES) for players in (3, 4, 5)] + [(players, 1, GREEDY_GAMES) for players in (3, 5)]


@pytest.fixture(scope="module")
def base_results():
    data = components.load(None)
    return {plan: results(data, *plan) for plan in PLANS}


# Task types that neither random nor greedy play fulfils (they place 1.6 and 4.8 family members in
# the city on average): a final state where the card's holder meets the lower of the shipped and
# the variant threshold is scored instead, so the threshold and the prestige both count.

def square_in_the_city(st, tt, threshold):
    """TK-10: a threshold x threshold block of seat 0's family members from (0, 2) (all guild
    spaces for 2 x 2 on board P0)."""
    for r in range(threshold):
        for c in range(2, 2 + threshold):
            st.cell_owner[r * COLS + c] = 0


def members_in_every_guild(st, tt, threshold):
    """TK-11: threshold of seat 0's family members on each guild's first spaces."""
    for g in range(components.N_GUILDS):
        for c in np.flatnonzero(tt.cell_guild == g)[:threshold]:
            st.cell_owner[c] = 0


TASK_POSITIONS = {"TK-10": square_in_the_city, "TK-11": members_in_every_guild}


def task_points(data, card, threshold):
    """Seat 0's final points, holding only this task card in the card's position (3 players)."""
    st, tt = position(players=3, data=data)
    st.tasks[:, :] = -1
    st.tasks[0, 0] = card
    TASK_POSITIONS[SHIPPED["tasks"]["cards"][card]["type"]](st, tt, threshold)
    scoring.final_scoring(st, tt)
    return st.pts[0].tolist()


def scores_differently(path, data, base) -> bool:
    if path[0] != "tasks" or SHIPPED["tasks"]["cards"][path[2]]["type"] not in TASK_POSITIONS:
        return False
    card = path[2]
    threshold = min(base.task_param[card, 0], data.task_param[card, 0])
    return task_points(base, card, threshold) != task_points(data, card, threshold)


def test_a_changed_played_value_is_refused_or_changes_the_games(base_results, sections_checked_once):
    base = components.load(None)
    ignored = []
    for path in LEAVES:
        if classify(path)[0] != "played":
            continue
        data = loaded(variant(path))
        if data is not None and not plays_differently(data, base_results) and not scores_differently(path, data, base):
            ignored.append(".".join(map(str, path)))
    assert ignored == []


def test_the_task_positions_score_the_shipped_cards():                  # TK-10, TK-11 (SB-19.5 values)
    base = components.load(None)
    types = [card["type"] for card in SHIPPED["tasks"]["cards"]]
    square, every_guild = types.index("TK-10"), types.index("TK-11")
    assert task_points(base, square, 2)[5:] == [5, 0] and task_points(base, square, 1)[5:] == [0, -3]
    assert task_points(base, every_guild, 2)[5:] == [8, 0] and task_points(base, every_guild, 1)[5:] == [0, -3]


def test_the_honoured_player_values_reach_the_tables():             # SB-1.5, SB-3.3 as variants
    doc = copy.deepcopy(SHIPPED)
    doc["influence"]["cards_per_value"] = {"2": 3, "6": 5}
    doc["player_start"]["coins"] = 12
    t = new_tables(components.from_document(doc, "variant.json"), 4)[0]
    assert t.start_coins == 12
    assert t.n_cards == 8 and t.deck_cards[:8].tolist() == [2, 2, 2, 6, 6, 6, 6, 6]
    assert t.cards_of_value.tolist() == [0, 0, 3, 0, 0, 0, 5]


def test_a_game_deals_the_files_start_coins_and_deck_and_keeps_its_invariants():   # SB-3.3, SB-5
    doc = copy.deepcopy(SHIPPED)
    doc["player_start"]["coins"] = 50
    doc["influence"]["cards_per_value"] = {"1": 2, "6": 8}
    data = components.from_document(doc, "variant.json")
    st, tt = position(players=4, data=data)
    assert st.coins[:4].tolist() == [50] * 4
    assert st.deck_n[:4].tolist() == [10] * 4
    assert all(sorted(st.deck[p, :10].tolist()) == [1, 1] + [6] * 8 for p in range(4))
    found = spec.STRASBOURG.check_batch(data, 4, np.zeros((50, 4), np.int8), SEED, 0, None)
    assert found.violation.tolist() == [0] * 50
