"""Replays name Principato's cards as a player reads them (PR-17, DATA-2: the printed names are
unknown, so by their effects in words), never by the internal ids (`CATAPULT_Y12#22`). Plain
Python: no kernel is compiled."""
import json
import re
from pathlib import Path

import pytest

from simcore.boardgames.principato import components, describe
from simcore.boardgames.principato.state import EV_ACTIVATE, EV_BOX, EV_DRAW, EV_EXCHANGE, EV_SWAP

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


@pytest.fixture(scope="module")
def data():
    return components.load(None)


@pytest.fixture(scope="module")
def names(data):
    return describe.card_names(data)


def shipped():
    with open(components.default_path(), encoding="utf-8") as fh:
        return json.load(fh)


def test_the_shipped_cards_read_as_their_effects(data, names):           # DATA-3, DATA-4 card order
    assert names[0] == names[3] == "Market"                                  # the four S1 copies
    assert names[4:8] == ["Field", "Palazzo", "Farm", "Bank"]                # S2
    assert [names[card] for card in (8, 12, 13, 22, 75)] == [
        "Harvest", "3 Food", "3 Money", "Catapult (years 1-2)", "Catapult (year 3)"]
    assert names[98:] == ["Military scoring card"] * 2
    assert data.card_name(22) == "CATAPULT_Y12#22"                           # the ids stay for tools
    assert len(names) == data.n_cards
    assert not any("#" in name or "_" in name or name.isupper() for name in names)


def test_goal_cards_read_as_words(data):                                   # DATA-6
    assert [describe.in_words(goal) for goal in data.goal_ids] == [
        "Armory", "Fertile Soil", "Municipal Law", "Stronghold", "Chapel", "City Hall", "Villa", "Palace"]


def test_an_effect_of_a_data_file_of_ones_own_reads_as_its_id_in_words():
    assert describe.in_words("GRAIN_TRADE") == "Grain Trade"


@pytest.mark.parametrize("event, line", [
    ((EV_ACTIVATE, 1, 0, 22, 0, 0, 0), "    Red activates Catapult (years 1-2)"),
    ((EV_EXCHANGE, 1, 1, 0, 2, 13, 0), "      exchanges it for 3 Money from slot 2"),
    ((EV_SWAP, 1, 1, 2 * 5 + 0 * 5 + 4, 1, 4, 0), "    Blue swaps Market into slot 0 and Field into slot 4"),
    ((EV_SWAP, 1, 0, 1 * 5 + 3, 8, 75, 0), "    Red swaps Catapult (year 3) with display slot 3"),
    ((EV_BOX, 1, -1, 1, 0, 0, 0), "    Market leaves the display"),
    ((EV_DRAW, 1, -1, 10, 0, 0, 0), "    Taxes is drawn"),
])
def test_replay_lines_name_the_cards(names, event, line):                  # DEC-9 for the swaps
    assert describe.event_line(names, event, 5) == line


def test_one_effect_with_and_without_the_exchange_symbol_says_which_card_it_is():  # PR-6.3, PR-17.3
    doc = shipped()
    deck = doc["year_decks"]["1"]
    field = next(i for i, entry in enumerate(deck) if entry["effect"] == "FIELD")
    deck[field]["exchange"] = True                                           # its 2 copies; other Fields keep none
    data = components.from_document(doc, "pr.json")
    names = describe.card_names(data)
    fields = [card for card in range(data.n_action_cards) if data.effect_ids[data.card_effect[card]] == "FIELD"]
    assert {names[card] for card in fields} == {"Field (exchange)", "Field (no exchange)"}
    assert all(names[card] == ("Field (exchange)" if data.card_exchange[card] else "Field (no exchange)")
               for card in fields)
    assert names[4] == "Field (no exchange)" and names[5] == "Palazzo"       # S2; others stay plain


@pytest.mark.parametrize("path", sorted(GOLDEN_DIR.glob("*.txt")), ids=lambda path: path.name)
def test_no_golden_playthrough_shows_an_internal_id(path):
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"#[0-9]|\b[A-Z0-9]+_[A-Z0-9_]+\b|\bMARKET2\b", text)
