"""Every value of the shipped Principato data file is played or refused (issue 16): a value the
loader accepted and stored while the kernels ignored it would be a silent lie to a user who
sweeps it (`simcore sweep principato --param PATH=V1,V2`).

Each leaf of data/principato.json is descriptive (a pattern of DESCRIPTIVE, with the reason) or
played (a pattern of PLAYED); a leaf that is neither, or both, fails, so a field added later must
be classified here. Every played leaf is changed, one at a time, to a few variants in turn: the
leaf passes when every variant is refused (UserError: a value the rules fix, or one no single
change makes legal) or when a variant that loads gives other results (points, seat and game
counters, tie-breaks) in the same seeded games than the shipped file does. The games run from
cheap to thorough and stop at the first difference. A leaf that matters only in situations the
shipped games never reach is tested on a companion change (RARE) made to both sides.
"""
import copy
import json
from functools import cache

import jsonschema
import numpy as np
import pytest

from simcore import registry
from simcore.boardgames.principato import components
from simcore.datafile import shipped_path, validate
from simcore.contract import UserError

SPEC = registry.get("principato")
RANDOM, GREEDY = SPEC.policies["random"], SPEC.policies["greedy"]

DESCRIPTIVE = {
    "format": "the format tag: the schema admits one value",
    "data_set_id": "names the data set in results and replays",
    "name": "text for people",
    "source": "text for people",
    "reconstructed": "a flag for people; provenance says what is reconstructed",
    "notes.*": "text for people",
    "provenance.**": "where each value comes from, for `simcore games`",
    "*.source": "a section's provenance (start_cards, year_decks, culture_tokens)",
    "goal_cards.*.*.provenance.*": "a goal card's own provenance",
}
PLAYED = (
    "display_size.*", "supply.*", "storage.*", "storage.*.*", "start_holdings.*", "military_vp_by_rank.*.*",
    "strength.*", "effects.*.kind", "effects.*.cube", "effects.*.per", "effects.*.tile",
    "effects.*.options.*.*", "effects.*.options.*.*.*", "start_cards.S1.*", "start_cards.S2.*.*",
    "year_decks.*.*.*", "scoring_cards.*", "culture_tokens.take", "culture_tokens.*.*",
    "goal_cards.*.*.id", "goal_cards.*.*.kind", "goal_cards.*.*.tiles.*", "goal_cards.*.*.vp_each",
    "goal_cards.*.*.threshold", "goal_cards.*.*.divisor", "goal_cards.*.*.rounding", "goal_cards.*.*.table.*",
    "options.*",
)

# other values for the words and markers of the file, by key (for a list's items: by the list)
CHOICES = {
    "kind": ["gain", "buy", "sets", "per_tile"], "cube": ["food", "money"], "id": ["CHAPEL", "ARMORY"],
    "militia_accepts": ["money"], "condottiere_accepts": ["food"], "per": ["farm", "field"],
    "tile": ["condottiere", "militia"], "effect": ["MONUMENT", "BOOK"], "take": ["lowest_first", "highest_first"],
    "rounding": ["ceil", "floor"], "new_year_starter": ["start_player", "next_player"],
    "tiles": ["militia", "condottiere"], "marker": [0, 3, 4],
}

def culture_purchases_take(n) -> dict:
    """Every culture purchase takes n tokens."""
    return {("effects", kind.upper(), "options", o, "gain", kind): n
            for kind, options in (("book", 1), ("painting", 1), ("monument", 2)) for o in range(options)}


# (leaves, why the shipped file's games cannot show them, the change made to both sides)
RARE = [
    (("culture_tokens.*.*",),
     "the lower tokens of a stack are seldom taken (the decks hold 3 to 7 culture cards of each kind): "
     "a culture purchase takes 5 tokens",
     culture_purchases_take(5)),
    (("goal_cards.G2.*.table.2",),
     "2 pairs or sets are seldom reached: a culture purchase takes 2 tokens",
     culture_purchases_take(2)),
    (("goal_cards.G2.*.table.3", "options.pair_cap"),
     "3 pairs or sets are seldom or never reached (3 Villa pairs in no game of thousands): a culture "
     "purchase takes 3 tokens",
     culture_purchases_take(3)),
    (("options.tile_option_needs_full_pool",),
     "AMB-10 differs only when a pool holds 1 tile and a 2-tile option is bought: pools of 9",
     {("supply", "field_farm"): 9, ("supply", "palazzo_bank"): 9}),
    (("options.new_year_starter",),
     "with the shipped decks every year lasts a multiple of P turns, so both readings start a year with "
     "the start player (AMB-17, DATA-4): deck 1 one card shorter",
     {("year_decks", "1", 0, "copies"): 1}),
]

# the games, cheap first: (players, policy of each seat, games)
GAMES = [
    (2, (RANDOM, RANDOM), 40), (4, (RANDOM,) * 4, 40), (3, (GREEDY, RANDOM, RANDOM), 20),
    (4, (GREEDY,) * 4, 20), (2, (GREEDY, GREEDY), 200), (3, (RANDOM,) * 3, 400), (4, (RANDOM,) * 4, 400),
]
SEED = 16


def shipped():
    with open(components.default_path(), encoding="utf-8") as fh:
        return json.load(fh)


def leaves(node, path=()):
    """(path, value) of every leaf: a value that is not an object or a list."""
    if isinstance(node, dict):
        return [leaf for key, value in node.items() for leaf in leaves(value, path + (key,))]
    if isinstance(node, list):
        return [leaf for i, value in enumerate(node) for leaf in leaves(value, path + (i,))]
    return [(path, node)]


def dotted(path) -> str:
    return ".".join(map(str, path))


def matches(pattern, path) -> bool:
    """A dotted pattern: * is one key or index, ** any rest."""
    parts = pattern.split(".")
    for i, part in enumerate(parts):
        if part == "**":
            return True
        if i >= len(path) or part not in ("*", str(path[i])):
            return False
    return len(parts) == len(path)


def classes(path) -> list[str]:
    return ([f"descriptive {p}" for p in DESCRIPTIVE if matches(p, path)]
            + [f"played {p}" for p in PLAYED if matches(p, path)])


def is_played(path) -> bool:
    return any(matches(p, path) for p in PLAYED)


def with_values(doc, changes: dict):
    doc = copy.deepcopy(doc)
    for path, value in changes.items():
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return doc


def candidates(path, value) -> list:
    """Variants of a leaf, the likeliest to load first."""
    key = path[-1] if isinstance(path[-1], str) else path[-2]
    if isinstance(value, bool):
        return [not value]
    if key in CHOICES:
        return [choice for choice in CHOICES[key] if choice != value]
    return list(dict.fromkeys(v for v in (value + 1, value - 1, value // 2, value // 4) if v != value))


# ---------------------------------------------------------------- loading a variant

@cache
def schema():
    with open(shipped_path(components.PACKAGE, components.SCHEMA), encoding="utf-8") as fh:
        return json.load(fh)


@cache
def unit_validator(kind: str):
    """The validator of one part of the file: an effect, a goal card, a year-deck entry or a section."""
    defs = schema()["$defs"]
    part = {"effect": defs["effect"], "goal": defs["goal"], "year_deck": defs["year_deck"]["items"]}.get(kind)
    return jsonschema.Draft202012Validator({"$defs": defs, **(part or schema()["properties"][kind])})


def unit(doc, path):
    """The smallest part of the file with its own schema that holds path, and that part's kind: a
    variant is valid iff this part is, as the rest is its base's, which loaded (validating only
    the part keeps the hundreds of loads of this test quick)."""
    if path[0] == "year_decks" and len(path) > 3:
        return doc["year_decks"][path[1]][path[2]], "year_deck"
    if path[0] == "effects" and len(path) > 2:
        return doc["effects"][path[1]], "effect"
    if path[0] == "goal_cards" and len(path) > 3:
        return doc["goal_cards"][path[1]][path[2]], "goal"
    return doc[path[0]], path[0]


def load_variant(base, path, value):
    """base with the leaf at path changed, through the loader's two steps (the schema, then the
    game's constraints); a UserError if refused."""
    doc = with_values(base, {path: value})
    part, kind = unit(doc, path)
    validate(part, unit_validator(kind), "variant", components.WHAT)
    return components.from_valid_document(doc, "variant")


# ---------------------------------------------------------------- playing

def results(data, players, seats, games):
    batch = SPEC.play_batch(data, players, np.tile(np.array(seats, np.int8), (games, 1)), SEED, 0)
    return batch.pts, batch.seat, batch.game, batch.tiebreak


class Base:
    """A document and its games' results, each game set played once."""
    def __init__(self, doc):
        self.doc, self.data, self.cache = doc, components.from_document(doc, "base"), {}

    def of(self, i):
        if i not in self.cache:
            self.cache[i] = results(self.data, *GAMES[i])
        return self.cache[i]

    def plays_otherwise(self, data) -> bool:
        """The same seeded games give other results somewhere in GAMES."""
        return any(any(not np.array_equal(a, b) for a, b in zip(results(data, *game), self.of(i)))
                   for i, game in enumerate(GAMES))


def honoured_or_refused(base, path, value) -> bool:
    refused = True
    for new in candidates(path, value):
        try:
            data = load_variant(base.doc, path, new)
        except UserError:
            continue
        refused = False
        if base.plays_otherwise(data):
            return True
    return refused


@pytest.fixture(scope="module")
def doc():
    return shipped()


def test_every_leaf_is_classified_once(doc):
    found = {dotted(path): classes(path) for path, _ in leaves(doc)}
    assert {path: kinds for path, kinds in found.items() if len(kinds) != 1} == {}
    assert sum(is_played(path) for path, _ in leaves(doc)) > 500          # the decks, effects, goals ...


def test_every_pattern_matches_a_leaf(doc):
    paths = [path for path, _ in leaves(doc)]
    patterns = [*DESCRIPTIVE, *PLAYED, *(p for patterns, _, _ in RARE for p in patterns)]
    assert [p for p in patterns if not any(matches(p, path) for path in paths)] == []


def test_a_variant_is_checked_as_the_loader_checks_it(doc):
    """unit() validates a part of the file: it refuses what the whole file's schema refuses."""
    for path, value in ((("year_decks", "2", 4, "marker"), 1), (("effects", "BANK", "options", 1, "pay", "food"), 9),
                        (("goal_cards", "G2", 1, "table", 0), -1), (("supply", "food"), 100),
                        (("options", "pair_cap"), 0)):
        with pytest.raises(UserError) as whole:
            components.from_document(with_values(doc, {path: value}), "variant")
        with pytest.raises(UserError) as part:
            load_variant(doc, path, value)
        assert str(part.value).split(": ")[-1] == str(whole.value).split(": ")[-1]


def test_every_played_value_changes_the_games_or_is_refused(doc):
    shipped_base = Base(doc)
    bases = [(patterns, Base(with_values(doc, changes))) for patterns, _, changes in RARE]
    ignored = []
    for path, value in leaves(doc):
        if not is_played(path):
            continue
        base = next((b for patterns, b in bases if any(matches(p, path) for p in patterns)), shipped_base)
        if not honoured_or_refused(base, path, value):
            ignored.append(dotted(path))
    assert ignored == []
