"""Random damage to a shipped component data file, for the property test of every game
(tests/games/*/test_data_fuzz.py): a file mutated at a random place either loads and plays
games without breaking an invariant (the engine's own checker, GameSpec.check_batch), or is
refused with a UserError. Nothing else may happen: no other exception, no hang.

A mutation picks one place of the document (any key or list item, at any depth) and one of:
delete it, give it a value of the wrong type, a huge or a negative number, or cut a list short.
"""
import copy
import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from simcore import registry, runner
from simcore.contract import UserError

WRONG_TYPES = (0, 1, -1, 2.5, 3.0, "x", "", [], {}, None, True, [0], {"x": 0})
NUMBERS = (10**9, 2**31, 2**63, -1, -7, -(10**9), 10**6, 255, 256, 32768, 65536)
KINDS = ("delete", "wrong_type", "number", "cut")


def places(doc, path=()):
    """Every place of the document: the paths (keys and list indexes) of all its values."""
    found = []
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in items:
        found.append(path + (key,))
        found.extend(places(value, path + (key,)))
    return found


def mutated(doc, path, kind, choice):
    """A copy of doc with the value at path deleted, replaced or cut (choice picks which)."""
    doc = copy.deepcopy(doc)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    value = parent[key]
    if kind == "delete":
        del parent[key]
    elif kind == "wrong_type":
        parent[key] = WRONG_TYPES[choice % len(WRONG_TYPES)]
    elif kind == "number":
        parent[key] = NUMBERS[choice % len(NUMBERS)]
    elif isinstance(value, list) and value:             # cut: keep the first items only
        parent[key] = value[:choice % len(value)]
    else:
        parent[key] = []
    return doc


def mutations(doc):
    """A hypothesis strategy of (path, kind, choice) for doc."""
    every = places(doc)
    return hs.tuples(hs.sampled_from(every), hs.sampled_from(KINDS), hs.integers(0, 10**6))


def check_survives(game: str, shipped_path: str, tmp_path_factory, examples: int, games: int = 3):
    """The property: for `examples` random mutations of the shipped file, loading refuses it with
    a UserError, or `games` checked games (a random and a greedy seat) break no invariant."""
    spec = registry.get(game)
    with open(shipped_path, encoding="utf-8") as fh:
        doc = json.load(fh)
    folder = tmp_path_factory.mktemp(f"fuzz-{game}")

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(mutations(doc))
    def survives(mutation):
        path, kind, choice = mutation
        file = folder / "mutated.json"
        file.write_text(json.dumps(mutated(doc, path, kind, choice)), encoding="utf-8")
        try:
            data = runner.load_data(spec, str(file))
        except UserError:
            return
        players = spec.default_players
        seats = np.zeros((games, players), np.int8)
        seats[:, 0] = 1                                  # greedy in seat 0, random elsewhere
        found = spec.check_batch(data, players, seats, 7, 0, None)
        where = ".".join(map(str, path))
        assert not found.violation.any(), (
            f"{game}: {kind} at {where} (choice {choice}) loaded but broke invariant "
            f"{int(found.violation.max())}: {spec.violations.get(int(found.violation.max()))}")

    survives()
