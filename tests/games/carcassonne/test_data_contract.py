"""Every value of a shipped tile file is honoured or refused (issue 16): a value the loader stored
and the kernels ignored would be a silent lie to a user who sweeps it (simcore sweep --param).

Every leaf of data/base.json and data/ark_reconstructed.json is classified by its path pattern
(keys, * for any list index or key): descriptive (names, text, provenance), or played. For every
played leaf the test changes that one value to a legal variant and asserts that the file is
refused (UserError) or that the same seeded random games give different points or counters
(random seats suffice: every value greedy reads is also scored). A leaf whose pattern is in
neither table fails the test, so a field added later must be classified here.

Batched for speed (a whole-file load is 20-50 ms of schema validation, and the files have ~1,900
played leaves): a variant is first loaded as a file of only the tiles it changed (check_set=False:
the same loader without the whole-set checks). If that is refused, so is the whole file, which
holds those tiles. If it loads, the whole file's tables are the shipped tables with those tile
types' rows replaced (each row of the tables belongs to one tile type; the start tile is the one
scalar); the first variant of each pattern also loads the whole file and must give exactly those
tables. A count or start-tile variant moves a copy or the start flag between two tiles, so the
set keeps its 72 tiles and one start tile.
"""
import copy
import dataclasses
import functools
import json
import re

import numpy as np
import pytest

from simcore import registry
from simcore.boardgames.carcassonne import components
from simcore.contract import UserError

GAMES = ("carcassonne", "base"), ("carcassonne-ark", "ark")
PLAYERS = 4
SEED = 16
FIRST_GAMES, MORE_GAMES = 20, 600        # random games; a rarely-met value gets the second, longer look

# path pattern -> why it changes no game
DESCRIPTIVE = {
    "tile_set_id": "the tile set's id: the data column of every results file",
    "name": "the tile set's title, shown by simcore games",
    "source": "where the tiles come from, shown by simcore games",
    "reconstructed": "marks a reconstructed set in replays and simcore games",
    "tiles.*.id": "names the tile type in replays and error messages; nothing else refers to it",
    "tiles.*.note": "free text for the reader",
    "tiles.*.provenance.*": "where each value comes from: simcore games and results' provenance",
}


def next_in(choices):
    return lambda value: choices[(choices.index(value) + 1) % len(choices)]


def bump(value):
    """A legal count of sheep, scrolls, ...: one more (one less at the schema's maximum 9)."""
    return value + 1 if value < 9 else value - 1


SIDE = next_in(list(components.SIDES))
HALF_EDGE = next_in(list(components.HALF_EDGE_PORT))
# path pattern -> the variant of the leaf's value (see variant() for the tile-set-wide ones)
PLAYED = {
    "tiles.*.count": "move a copy",
    "tiles.*.is_start": "move the start",
    "tiles.*.edges.*": next_in(list(components.EDGE_LETTERS)),
    "tiles.*.temple": lambda value: not value,
    "tiles.*.monastery": lambda value: not value,
    "tiles.*.city_segments": lambda value: [{"edges": ["N"], "scrolls": 0}],      # an empty list gets one
    "tiles.*.road_segments": lambda value: [{"edges": ["N"], "oases": 0}],
    "tiles.*.field_segments": lambda value: [{"half_edges": ["NL"], "sheep": 0, "wolves": 0}],
    "tiles.*.city_segments.*.edges.*": SIDE,
    "tiles.*.road_segments.*.edges.*": SIDE,
    "tiles.*.field_segments.*.half_edges.*": HALF_EDGE,
    "tiles.*.city_segments.*.scrolls": bump,
    "tiles.*.road_segments.*.oases": bump,
    "tiles.*.field_segments.*.sheep": bump,
    "tiles.*.field_segments.*.wolves": bump,
    "tiles.*.field_segments.*.adjacent_city_segments": lambda value: [0],        # an empty list: city 0
    "tiles.*.field_segments.*.adjacent_city_segments.*": "drop the city",
}


# what the variants of each pattern do: a tile's shape (an edge letter, a segment's side or
# half-edge, a segment in an empty list) no longer covers every port once (CA-12.3); what the
# rule set does not score is fixed (temples, sheep and wolves in the base game, monasteries in
# the Ark); a city added to a field's list is refused on a tile without one
BOTH = {"tiles.*.count": {"honoured"}, "tiles.*.is_start": {"honoured"}, "tiles.*.edges.*": {"refused"},
        "tiles.*.city_segments": {"refused"}, "tiles.*.road_segments": {"refused"},
        "tiles.*.field_segments": {"refused"}, "tiles.*.city_segments.*.edges.*": {"refused"},
        "tiles.*.road_segments.*.edges.*": {"refused"}, "tiles.*.field_segments.*.half_edges.*": {"refused"},
        "tiles.*.city_segments.*.scrolls": {"honoured"}, "tiles.*.road_segments.*.oases": {"honoured"}}
OUTCOMES = {
    "base": BOTH | {"tiles.*.temple": {"refused"}, "tiles.*.monastery": {"honoured"},
                    "tiles.*.field_segments.*.sheep": {"refused"}, "tiles.*.field_segments.*.wolves": {"refused"},
                    "tiles.*.field_segments.*.adjacent_city_segments": {"refused", "honoured"},
                    "tiles.*.field_segments.*.adjacent_city_segments.*": {"honoured"}},
    "ark": BOTH | {"tiles.*.temple": {"honoured"}, "tiles.*.monastery": {"refused"},
                   "tiles.*.field_segments.*.sheep": {"honoured"}, "tiles.*.field_segments.*.wolves": {"honoured"}},
}


def shipped(ruleset):
    with open(components.default_path(ruleset), encoding="utf-8") as fh:
        return json.load(fh)


def leaves(doc, path=()):
    """Every leaf of the document: a number, string, bool or an empty list or object."""
    if not isinstance(doc, (dict, list)) or not doc:
        return [path]
    found = []
    for key, value in doc.items() if isinstance(doc, dict) else enumerate(doc):
        found.extend(leaves(value, path + (key,)))
    return found


def pattern(path):
    """The pattern of DESCRIPTIVE or PLAYED that the leaf at path matches (* stands for any list
    index or key), or its path with indexes as * if none does."""
    for known in (*DESCRIPTIVE, *PLAYED):
        parts = known.split(".")
        if len(parts) == len(path) and all(p == "*" or p == str(key) for p, key in zip(parts, path)):
            return known
    return ".".join("*" if isinstance(key, int) else key for key in path)


def value_at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def variant(doc, path):
    """(doc with the leaf at path changed, the indexes of the tiles it changed); the changed
    tiles are copies, the rest is shared with doc."""
    tiles = list(doc["tiles"])
    t = path[1]
    how = PLAYED[pattern(path)]
    if how == "move a copy":         # a set holds 72 tiles: one copy moves here from another type
        donor = next(i for i, tile in enumerate(tiles) if i != t and tile["count"] >= 2)
        types = (t, donor)
    elif how == "move the start":    # a set has one start tile: it moves to this type (or the next)
        old = next(i for i, tile in enumerate(tiles) if tile["is_start"])
        types = (old, t if old != t else (t + 1) % len(tiles))
    else:
        types = (t,)
    for i in types:
        tiles[i] = copy.deepcopy(tiles[i])
    if how == "move a copy":
        tiles[t]["count"] += 1
        tiles[donor]["count"] -= 1
    elif how == "move the start":
        tiles[types[0]]["is_start"], tiles[types[1]]["is_start"] = False, True
    else:
        parent = value_at(tiles, path[1:-1])
        if how == "drop the city":
            del parent[path[-1]]
        else:
            parent[path[-1]] = how(parent[path[-1]])
    return doc | {"tiles": tiles}, types


def results(spec, data, count):
    """Points per seat and category and the game counters of `count` seeded random games."""
    batch = spec.play_batch(data, PLAYERS, np.zeros((count, PLAYERS), np.int8), SEED, 0)
    return batch.pts.tobytes() + batch.game.tobytes()


def differ(spec, shipped_results, changed_data):
    """Do the changed data's games differ from the shipped file's (shipped_results[count])?"""
    return any(results(spec, changed_data, count) != shipped_results[count] for count in (FIRST_GAMES, MORE_GAMES))


def shipped_results(spec, data):
    return {count: results(spec, data, count) for count in (FIRST_GAMES, MORE_GAMES)}


@functools.cache
def shipped_play(game, ruleset):
    """The shipped file's data and the results of its seeded games."""
    data = components.from_document(shipped(ruleset), ruleset)
    return data, shipped_results(registry.get(game), data)


def spliced(tables, types, tiles, alone):
    """The whole variant file's tables: the shipped tables with the rows of the changed tile types
    (and the start tile, if it is one of them) from `alone`, the tables of a file of only those
    tiles (`tiles`); then what the set's types have in common (their fit classes), made again."""
    tables = tables.copy()
    for k, t in enumerate(types):
        for name in components.TABLES.names:
            if tables[0][name].shape[:1] == (components.MAX_TYPES,) and name != "fit_class":
                tables[0][name][t] = alone.tables[0][name][k]
        if tiles[k]["is_start"]:
            tables[0]["start_type"] = t
    components.fit_classes(tables[0], tables[0]["n_types"])
    return tables


@pytest.mark.parametrize("game, ruleset", GAMES)
def test_every_leaf_of_the_shipped_file_is_classified(game, ruleset):
    unknown = sorted({pattern(p) for p in leaves(shipped(ruleset))} - set(DESCRIPTIVE) - set(PLAYED))
    assert not unknown, f"classify these leaves of {components.default_path(ruleset)} as played or descriptive: " \
                        f"{unknown}"
    assert not set(DESCRIPTIVE) & set(PLAYED)


@pytest.mark.parametrize("game, ruleset", GAMES)
def test_every_played_leaf_is_honoured_or_refused(game, ruleset):
    spec = registry.get(game)
    doc = shipped(ruleset)
    data, before = shipped_play(game, ruleset)
    top = {key: value for key, value in doc.items() if key != "tiles"}
    ignored, seen, checked_whole = [], {}, set()
    for path in leaves(doc):
        if pattern(path) in DESCRIPTIVE:
            continue
        changed, types = variant(doc, path)
        tiles = [changed["tiles"][t] for t in types]
        try:
            alone = components.from_document(top | {"tiles": tiles}, ruleset, "<changed tiles>", check_set=False)
            tables = spliced(data.tables, types, tiles, alone)
            if pattern(path) not in checked_whole:     # the whole file loads, to the same tables
                assert components.from_document(changed, ruleset).tables.tobytes() == tables.tobytes(), path
                checked_whole.add(pattern(path))
            outcome = "honoured" if differ(spec, before, dataclasses.replace(data, tables=tables)) else "ignored"
        except UserError:
            outcome = "refused"
        seen.setdefault(pattern(path), set()).add(outcome)
        if outcome == "ignored":
            ignored.append(".".join(map(str, path)))
    assert not ignored, f"{game}: these values load but change none of the seeded games: {ignored}"
    assert seen == OUTCOMES[ruleset]


def rule_variant(name):
    default = components.RULE_DEFAULTS[name]
    if name == "ARK_ENTRY_SCOPE":
        return "PLACED_TILE"
    return (not default) if isinstance(default, bool) else default + 1


@pytest.mark.parametrize("game, ruleset", GAMES)
@pytest.mark.parametrize("name", list(components.RULE_DEFAULTS))
def test_every_rule_switch_is_honoured_or_refused(game, ruleset, name):
    """The "rules" object is not in the shipped files, but a sweep sets its switches (CA-11): each
    away from its default plays other games, or, for the Ark's switches in the base game, is refused."""
    changed = shipped(ruleset) | {"rules": {name: rule_variant(name)}}
    if ruleset == "base" and name in components.ARK_ONLY_RULES:
        with pytest.raises(UserError, match=re.escape(f"rules.{name}: a rule of The Ark of the Covenant")):
            components.from_document(changed, ruleset)
    else:
        _, before = shipped_play(game, ruleset)
        assert differ(registry.get(game), before, components.from_document(changed, ruleset))
