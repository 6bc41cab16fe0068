"""Every value of the Notre Dame data file is played or descriptive, none silently ignored
(issue 16 "results that survive anything", requirement 7).

The test walks every leaf of data/notre_dame.json; each must match exactly one pattern of PLAYED
or DESCRIPTIVE, so a field added later fails here until it is classified. A played value changed
to a legal variant must give what its entry expects: "plays", the same seeded games (random seats,
and some with a greedy seat) give other results than the shipped file; "refused", a UserError
(the rules fix the value, or it must agree with the others). A descriptive value changed, all of
them at once, must change no game.
"""
import copy
import json
from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest

from simcore import registry
from simcore.boardgames.notre_dame import components
from simcore.datafile import PROVENANCES
from simcore.contract import UserError

SPEC = registry.get("notre-dame")
SEED = 16
RANDOM_GAMES, GREEDY_GAMES = 200, 40      # per check; greedy sits in seat 0 of the last ones
STREET_GAMES = 60                         # a street is checked on its own layout only


def shipped():
    with open(components.default_path(), encoding="utf-8") as fh:
        return json.load(fh)


SHIPPED = shipped()


def leaves(doc, path=()):
    """The path of every value of the document that is no object or list (keys, list indexes)."""
    if isinstance(doc, dict) and doc:
        return [leaf for key, value in doc.items() for leaf in leaves(value, path + (key,))]
    if isinstance(doc, list) and doc:
        return [leaf for i, value in enumerate(doc) for leaf in leaves(value, path + (i,))]
    return [path]


def matches(pattern: str, path: tuple) -> bool:
    """'persons.*.rats' matches ('persons', 3, 'rats'); '*' is one key or index of any name."""
    parts = pattern.split(".")
    return len(parts) == len(path) and all(p in ("*", str(k)) for p, k in zip(parts, path))


def value_at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def with_value(doc, path, value):
    doc = copy.deepcopy(doc)
    value_at(doc, path[:-1])[path[-1]] = value
    return doc


# ---------------------------------------------------------------- how a value is checked

@dataclass(frozen=True)
class Setting:
    """The games that show a value: the player count, and rule switches set in the shipped file
    and in the variant alike (where a value only matters under another switch)."""
    players: int = 4
    rules: tuple = ()
    street: bool = False


EVERY_GAME = Setting()
SHORT_OF_GOLD = Setting(players=5, rules=(("F_START_GOLD", 5),))    # 25 coins dealt: the supply is empty


def own_layout(path):
    """A street graph's layout: its own player count (4 districts: 4 players), its variant chosen."""
    return Setting(players=int(path[3]), rules=(("STREET_GRAPH", path[2]),), street=True)


def own_player_count(path):
    return Setting(players=int(path[-1]))


def flip(value, path, doc):
    return not value


def to(new):
    return lambda value, path, doc: new


def nudge(top):
    """One more, or one less at the schema's maximum."""
    return lambda value, path, doc: value + 1 if value < top else value - 1


def next_of(choices):
    return lambda value, path, doc: choices[(list(choices).index(value) + 1) % len(choices)]


def next_district(value, path, doc):
    return (value + 1) % 4


def next_kind(value, path, doc):
    ids = [kind["id"] for kind in doc["messages"]["kinds"]]
    return ids[(ids.index(value) + 1) % len(ids)]


def next_letter(value, path, doc):
    return "A" if value is None else next_of(components.LETTERS)(value, path, doc)


def other_market(value, path, doc):
    """Re-route one end of a street: the first market of the layout that the street's other end
    is not joined to yet (so the graph changes, and stays connected: no street is a bridge)."""
    layout = value_at(doc, path[:4])
    streets, i, end = layout["streets"], path[5], path[6]
    other = streets[i][1 - end]
    joined = {frozenset(street) for street in streets}
    markets = [f"{d}.{role}" for d in range(layout["districts"]) for role in doc["board"]["markets_per_district"]]
    return next(m for m in markets if m not in (value, other) and frozenset((m, other)) not in joined)


# pattern -> (variant of the shipped value, the games that show it, what must happen)
PLAYED = {
    "rules.F_START_GOLD": (nudge(5), EVERY_GAME, "plays"),
    "rules.F_PLAGUE_MODE": (to("SEQUENTIAL"), EVERY_GAME, "plays"),
    "rules.F_OUTBREAK_AT": (to(9), EVERY_GAME, "plays"),
    "rules.F_OUTBREAK_RESET_TO": (to(8), EVERY_GAME, "plays"),
    "rules.F_VP_FLOOR0": (flip, EVERY_GAME, "plays"),
    "rules.F_CONFIDANT_MAY_STAY": (flip, EVERY_GAME, "plays"),
    "rules.F_CARRIAGE_MAY_STAY": (flip, EVERY_GAME, "plays"),
    "rules.F_BANK_STEAL": (to("PER_COIN"), SHORT_OF_GOLD, "plays"),
    "rules.F_BANK_TIE": (to("CHOOSER"), SHORT_OF_GOLD, "plays"),
    "rules.F_GOLD_STEAL_ALL_SOURCES": (flip, SHORT_OF_GOLD, "plays"),
    "rules.F_VOLUNTARY_FORFEIT": (flip, EVERY_GAME, "plays"),
    "rules.F_GUARD_COUNTS_ND": (flip, EVERY_GAME, "plays"),
    "rules.F_ND_SPLIT": (to("PER_PLAYER"), EVERY_GAME, "plays"),
    "rules.F_ALLOW_USELESS_BRIBE": (flip, EVERY_GAME, "plays"),
    "rules.F_VP_PUBLIC": (flip, EVERY_GAME, "refused"),            # perfect memory: VP are public
    "rules.CONSTANT_RATS": (flip, EVERY_GAME, "plays"),
    "rules.STREET_GRAPH": (to("inner_outer"), EVERY_GAME, "plays"),
    "board.central_market": (to("I_ccw"), EVERY_GAME, "plays"),
    "board.districts_by_players.*": (nudge(5), EVERY_GAME, "refused"),      # ND-1.4
    "board.two_player.districts": (to(5), Setting(players=2), "refused"),     # ND-2.2
    "board.two_player.player_districts.*": (next_district, Setting(players=2), "refused"),   # opposite
    "board.two_player.neutral_districts.*": (next_district, Setting(players=2), "refused"),  # the other two
    "board.two_player.neutral_districts_get_messages": (flip, Setting(players=2), "plays"),
    "board.street_graphs.*.*.districts": (nudge(5), EVERY_GAME, "refused"),   # the layout's key
    "board.street_graphs.*.*.streets.*.*": (other_market, own_layout, "plays"),
    "persons.*.effect": (next_of(components.EFFECTS), EVERY_GAME, "refused"),  # each effect on one card
    "persons.*.colour": (next_of(("brown", "grey")), EVERY_GAME, "refused"),    # the effect's colour
    "persons.*.letter": (next_letter, EVERY_GAME, "refused"),                   # 3 grey cards per letter
    "persons.*.rats": (nudge(3), EVERY_GAME, "plays"),
    "constant_rats": (nudge(3), Setting(rules=(("CONSTANT_RATS", True),)), "plays"),
    "messages.kinds.*.vp": (nudge(9), EVERY_GAME, "plays"),
    "messages.kinds.*.gold": (nudge(9), EVERY_GAME, "plays"),
    "messages.kinds.*.cubes": (nudge(9), EVERY_GAME, "plays"),
    "messages.kinds.*.rat_back": (nudge(9), EVERY_GAME, "plays"),
    "messages.tiles_per_colour.*": (next_kind, EVERY_GAME, "plays"),
    "notre_dame.payout_by_players.*": (nudge(999), own_player_count, "plays"),
    "notre_dame.donation_vp.*": (nudge(999), EVERY_GAME, "plays"),
}

PROVENANCE = "where a value comes from (rulebook, sourced, reconstructed), shown by `simcore games`"
TEXT = "words for people"
DESCRIPTIVE = {
    "data_set_id": "names the data set in results, replays and pictures",
    "name": TEXT,
    "source": TEXT,
    "reconstructed": "tells people that values are reconstructed",
    "notes.*": TEXT,
    "board.markets_per_district.*": "names the streets and central_market use (a district's 5 "
                                    "markets are fixed by the schema); renamed everywhere, the same game",
    "board.market_names.*": TEXT,
    "board.provenance.*": PROVENANCE,
    "board.two_player.provenance": PROVENANCE,
    "board.street_graphs.*.*.provenance": PROVENANCE,
    "persons.*.id": "names the card in errors and sweep paths",
    "persons.*.name_hu": TEXT,
    "persons.*.name_en": "names the card in replays and pictures",
    "persons.*.provenance.*": PROVENANCE,
    "rats_per_stage.*": "the stage totals the persons' rats are checked against: a departure warns, "
                        "the cards' own rats play; the provenance and source are words for people",
    "messages.kinds.*.id": "names a kind for tiles_per_colour, the replays and the pictures; renamed everywhere, "
                           "the same game",
    "messages.provenance.*": PROVENANCE,
    "messages.note": TEXT,
    "notre_dame.provenance.*": PROVENANCE,
    "notre_dame.note": TEXT,
}


# ---------------------------------------------------------------- playing

def load(doc, street=False):
    """The loader; a street's variant skips the schema pass, which takes most of a load and
    cannot refuse a market name put in for another (it types street ends as strings)."""
    return components.build(doc, "variant") if street else components.from_document(doc, "variant")


def outcome(data, setting: Setting):
    """Points, counters and tie-breaks of the setting's seeded games."""
    players = setting.players
    count = STREET_GAMES if setting.street else RANDOM_GAMES + GREEDY_GAMES
    seats = np.zeros((count, players), np.int8)
    if not setting.street:
        seats[RANDOM_GAMES:, 0] = 1
    result = SPEC.play_batch(data, players, seats, SEED, 0)
    return np.concatenate([result.pts.ravel(), result.seat.ravel(), result.game.ravel(), result.tiebreak.ravel()])


def under(doc, setting: Setting):
    doc = copy.deepcopy(doc)
    doc.setdefault("rules", {}).update(dict(setting.rules))
    return doc


@cache
def baseline(setting: Setting):
    return outcome(load(under(SHIPPED, setting)), setting)


def entry_of(path, table):
    found = [pattern for pattern in table if matches(pattern, path)]
    return found[0] if len(found) == 1 else None


# ---------------------------------------------------------------- the tests

def test_every_leaf_of_the_file_is_classified_once():
    paths = leaves(SHIPPED)
    twice = [p for p in paths if sum(matches(pattern, p) for pattern in (*PLAYED, *DESCRIPTIVE)) > 1]
    unclassified = [".".join(map(str, p)) for p in paths
                    if not any(matches(pattern, p) for pattern in (*PLAYED, *DESCRIPTIVE))]
    assert unclassified == [], f"classify these values as played or descriptive: {unclassified}"
    assert twice == []
    unused = [pattern for pattern in (*PLAYED, *DESCRIPTIVE) if not any(matches(pattern, p) for p in paths)]
    assert unused == [], f"patterns that match no value of the file: {unused}"
    street_ends = [p for p in paths if entry_of(p, PLAYED) == "board.street_graphs.*.*.streets.*.*"]
    graphs = SHIPPED["board"]["street_graphs"].values()
    assert len(street_ends) == 2 * sum(len(layout["streets"]) for layouts in graphs for layout in layouts.values())


@pytest.mark.parametrize("pattern", list(PLAYED))
def test_a_played_value_changes_the_games_or_is_refused(pattern):
    variant, setting, expected = PLAYED[pattern]
    paths = [p for p in leaves(SHIPPED) if entry_of(p, PLAYED) == pattern]
    wrong = []
    for path in paths:
        shown = setting(path) if callable(setting) else setting
        doc = with_value(SHIPPED, path, variant(value_at(SHIPPED, path), path, SHIPPED))
        try:
            data = load(under(doc, shown), shown.street)
        except UserError:
            got = "refused"
        else:
            got = "same games" if np.array_equal(outcome(data, shown), baseline(shown)) else "plays"
        if got != expected:
            wrong.append(f"{'.'.join(map(str, path))} = {value_at(doc, path)!r}: {got}, expected {expected}")
    assert wrong == []


def described_otherwise(doc):
    """The document with every descriptive value changed: text and ids renamed (message kinds and
    markets everywhere they are used), provenances cycled, the reconstructed flag flipped, the
    stated stage totals one more."""
    doc = copy.deepcopy(doc)
    for path in leaves(doc):
        if entry_of(path, DESCRIPTIVE) is None or path[:2] == ("board", "markets_per_district") \
                or path[-1] == "id" and path[0] == "messages":
            continue
        value = value_at(doc, path)
        if isinstance(value, bool):
            new = not value
        elif isinstance(value, int):
            new = value + 1
        elif value in PROVENANCES:
            new = PROVENANCES[(PROVENANCES.index(value) + 1) % len(PROVENANCES)]
        else:
            new = f"{value} (changed)"
        value_at(doc, path[:-1])[path[-1]] = new
    kinds = {kind["id"]: f"K{i}" for i, kind in enumerate(doc["messages"]["kinds"])}
    for kind in doc["messages"]["kinds"]:
        kind["id"] = kinds[kind["id"]]
    doc["messages"]["tiles_per_colour"] = [kinds[t] for t in doc["messages"]["tiles_per_colour"]]
    board = doc["board"]
    roles = {role: f"m{i}" for i, role in enumerate(board["markets_per_district"])}
    board["markets_per_district"] = [roles[r] for r in board["markets_per_district"]]
    board["central_market"] = roles[board["central_market"]]
    board["market_names"] = {roles[r]: text for r, text in board["market_names"].items()}
    for layouts in board["street_graphs"].values():
        for layout in layouts.values():
            layout["streets"] = [[f"{m.split('.')[0]}.{roles[m.split('.')[1]]}" for m in street]
                                 for street in layout["streets"]]
    return doc


def test_descriptive_values_change_no_game():
    doc = described_otherwise(SHIPPED)
    still_there = set(leaves(doc))
    kept = [p for p in leaves(SHIPPED) if entry_of(p, DESCRIPTIVE) and p in still_there
            and value_at(doc, p) == value_at(SHIPPED, p)]
    assert kept == []                                             # every one changed (or its key renamed)
    data = load(doc)
    assert data.person_names != components.load(None).person_names
    assert [w.split(" says ")[1] for w in data.warnings] == ["13/14/13 (reconstructed)"]
    for players in (2, 3, 4, 5):
        setting = Setting(players=players)
        assert np.array_equal(outcome(data, setting), baseline(setting)), f"{players} players"
