"""The Principato data file loads into kernel tables and bad files give one-line errors
(docs/principato.md PR-1, PR-2, PR-3, PR-16, PR-17, section 20 AMB-n, section 21 DATA-1..DATA-7)."""
import copy
import json
from pathlib import Path

import numpy as np
import pytest

from simcore.boardgames.principato import components as c
from simcore.boardgames.principato.state import MAX_OPTIONS
from simcore.datafile import shipped_path
from simcore.contract import UserError

# The JSON block of the specification's DATA-7, copied as it is (the specification is not part of a
# checkout, so a test that read it there could only be skipped).
SPEC_DATA7 = Path(__file__).with_name("spec_data7.json")


def shipped():
    with open(c.default_path(), encoding="utf-8") as fh:
        return json.load(fh)


def load_doc(doc):
    return c.from_document(doc, "pr.json")


@pytest.fixture(scope="module")
def data():
    return c.load(None)


def effect(data, effect_id):
    return data.effect_ids.index(effect_id)


def card_effects(data, ids):
    return [data.effect_ids[data.card_effect[i]] for i in ids]


# ---------------------------------------------------------------- the shipped file

def test_the_shipped_file_loads_with_the_recommended_readings(data):     # DATA-7, section 20
    assert data.rules == c.RULE_DEFAULTS
    assert c.RULE_DEFAULTS["catapult_big_option_gain"] == 1          # AMB-1: the rulebook's "take 1 catapult"
    assert data.data_set_id == "principato-reconstructed-1" and data.reconstructed
    assert data.warnings == []
    assert data.rule_values.dtype == np.int32 and data.rule_values.shape == (len(c.RULE_DEFAULTS),)
    assert list(c.RULE_INDEX.values()) == list(range(len(c.RULE_DEFAULTS)))


def test_default_rule_values(data):                                       # AMB-1, 2, 3, 4, 5, 6, 9, 10, 19, 17
    values = dict(zip(c.RULE_DEFAULTS, data.rule_values.tolist()))
    assert values == {"catapult_big_option_gain": 1, "villa_table": 0, "stronghold_rounding": 0, "pair_cap": 3,
                      "overflow_to_units": 1, "free_loading": 0, "culture_take": 0,
                      "tile_option_needs_full_pool": 1, "tiebreak_counts_loaded": 0, "new_year_starter": 0}


def test_changed_options_go_into_the_rule_array():                        # AMB-1, AMB-3, AMB-6, AMB-9, AMB-17
    doc = shipped()                   # culture_tokens.take stays "highest_first": options wins (AMB-9)
    doc["options"].update(catapult_big_option_gain=2, stronghold_rounding="ceil", free_loading=True,
                          culture_take="choose", new_year_starter="start_player", pair_cap=2)
    data = load_doc(doc)

    def at(name):
        return data.rule_values[c.RULE_INDEX[name]]

    assert at("catapult_big_option_gain") == 2
    assert at("stronghold_rounding") == 2                         # floor, round, ceil
    assert at("free_loading") == 1
    assert at("culture_take") == 2                                # highest_first, lowest_first, choose
    assert at("new_year_starter") == 1
    assert at("pair_cap") == 2
    assert at("villa_table") == 0                                 # its values live in goal_table


def test_display_supply_storage_and_start(data):                          # PR-0.1, PR-1.2, PR-1.4, PR-2.2, PR-3.7
    assert data.display_size.tolist() == [0, 0, 5, 6, 7]
    assert dict(zip(c.SUPPLY, data.supply.tolist())) == {
        "field_farm": 42, "palazzo_bank": 42, "catapult": 19, "militia_condottiere": 37, "monument": 15,
        "book": 15, "painting": 15, "food": 39, "money": 39, "favour": 12}
    assert (data.food_per_farm, data.money_per_bank, data.church_favour) == (2, 2, 3)     # AMB-8
    assert data.start_holdings.tolist() == [1, 1, 1, 1, 1, 1, 1]


def test_rank_vp_and_strength(data):                                      # PR-14.4, PR-14.5
    assert data.rank_vp.shape == (5, 4) and data.rank_vp.dtype == np.int16
    assert data.rank_vp[2].tolist() == [5, 0, 0, 0]
    assert data.rank_vp[3].tolist() == [6, 3, 0, 0]
    assert data.rank_vp[4].tolist() == [7, 4, 2, 0]
    assert (data.strength_catapult, data.strength_loaded, data.strength_empty) == (1, 1, -1)


# ---------------------------------------------------------------- effects (PR-17)

def test_the_16_effects_in_file_order(data):                              # PR-17, PR-17.0
    assert data.effect_ids == ["BANK", "CATAPULT_Y12", "FIELD", "TAXES", "PAINTING", "CATAPULT_Y3", "FARM",
                               "PALAZZO", "HARVEST", "CONDOTTIERI", "MILITIA", "MONUMENT", "MARKET2", "MONEY3",
                               "FOOD3", "BOOK"]
    kinds = {eid: c.KINDS[k] for eid, k in zip(data.effect_ids, data.effect_kind)}
    assert [e for e, k in kinds.items() if k == "produce"] == ["TAXES", "HARVEST"]
    assert [e for e, k in kinds.items() if k == "recruit"] == ["CONDOTTIERI", "MILITIA"]
    assert [e for e, k in kinds.items() if k == "gain"] == ["MARKET2", "MONEY3", "FOOD3"]
    assert data.effect_pay.shape == (16, 3, 2) and data.effect_gain.shape == (16, 3, 10)


# (effect, [(pay food, pay money, good, amount) per option]) for every buy effect, PR-17
BUYS = [
    ("BANK", [(1, 0, c.G_BANK, 1), (3, 0, c.G_BANK, 2)]),
    ("CATAPULT_Y12", [(1, 1, c.G_CATAPULT, 1), (3, 2, c.G_CATAPULT, 1)]),        # AMB-1: the rulebook's 1
    ("FIELD", [(0, 1, c.G_FIELD, 1), (0, 3, c.G_FIELD, 2)]),                     # PR-17.2: fields cost money
    ("PAINTING", [(0, 5, c.G_PAINTING, 1)]),
    ("CATAPULT_Y3", [(1, 0, c.G_CATAPULT, 1), (2, 1, c.G_CATAPULT, 1)]),         # AMB-1
    ("FARM", [(0, 1, c.G_FARM, 1), (0, 3, c.G_FARM, 2)]),
    ("PALAZZO", [(1, 0, c.G_PALAZZO, 1), (3, 0, c.G_PALAZZO, 2)]),               # palazzi cost food
    ("MONUMENT", [(1, 2, c.G_MONUMENT, 1), (2, 1, c.G_MONUMENT, 1)]),
    ("BOOK", [(4, 0, c.G_BOOK, 1)]),
]


@pytest.mark.parametrize("effect_id, options", BUYS)
def test_buy_effect_tables(data, effect_id, options):                     # PR-17
    e = effect(data, effect_id)
    assert data.effect_kind[e] == c.K_BUY
    assert data.effect_n_options[e] == len(options)
    for o, (food, money, good, amount) in enumerate(options):
        assert data.effect_pay[e, o].tolist() == [food, money]
        expected = [0] * len(c.GOODS)
        expected[good] = amount
        assert data.effect_gain[e, o].tolist() == expected
    assert not data.effect_pay[e, len(options):].any() and not data.effect_gain[e, len(options):].any()
    assert (data.effect_per[e], data.effect_cube[e], data.effect_unit[e]) == (-1, -1, -1)


def test_gain_effect_tables(data):                                        # PR-17, PR-17.1: no card gives favour
    market = effect(data, "MARKET2")
    assert data.effect_kind[market] == c.K_GAIN and data.effect_n_options[market] == 3
    assert data.effect_gain[market][:, [c.G_FOOD, c.G_MONEY]].tolist() == [[0, 2], [1, 1], [2, 0]]
    assert not data.effect_pay[market].any()
    for effect_id, food, money in (("MONEY3", 0, 3), ("FOOD3", 3, 0)):
        e = effect(data, effect_id)
        assert data.effect_n_options[e] == 1
        assert data.effect_gain[e, 0, [c.G_FOOD, c.G_MONEY]].tolist() == [food, money]
        assert data.effect_gain[e, 0, :c.G_FOOD].sum() == 0


def test_produce_and_recruit_effect_tables(data):                         # PR-10.6, PR-17, PR-17.4
    taxes, harvest = effect(data, "TAXES"), effect(data, "HARVEST")
    assert data.effect_kind[taxes] == c.K_PRODUCE and data.effect_n_options[taxes] == 1
    assert (data.effect_cube[taxes], data.effect_per[taxes]) == (c.G_MONEY, c.G_PALAZZO)
    assert (data.effect_cube[harvest], data.effect_per[harvest]) == (c.G_FOOD, c.G_FIELD)
    militia, condottieri = effect(data, "MILITIA"), effect(data, "CONDOTTIERI")
    assert data.effect_kind[militia] == c.K_RECRUIT and data.effect_n_options[militia] == 1
    assert (data.effect_unit[militia], data.effect_unit[condottieri]) == (0, 1)
    for e in (taxes, harvest, militia, condottieri):
        assert not data.effect_pay[e].any() and not data.effect_gain[e].any()


def test_the_shipped_catapult_cards_give_one_catapult_for_either_option(data):    # AMB-1 (a), the rulebook
    doc = shipped()
    assert "catapult_big_option_gain" not in doc["options"]          # the effect entries say it, and play
    assert doc["provenance"]["options"]["catapult_big_option_gain"] == "rulebook"
    for effect_id in ("CATAPULT_Y12", "CATAPULT_Y3"):
        assert [o["gain"] for o in doc["effects"][effect_id]["options"]] == [{"catapult": 1}, {"catapult": 1}]
        assert "provenance" not in doc["effects"][effect_id]            # the section's "rulebook" applies
        assert data.effect_gain[effect(data, effect_id), :2, c.G_CATAPULT].tolist() == [1, 1]
    assert data.rules["catapult_big_option_gain"] == 1


def test_catapult_big_option_gain_2_gives_two_catapults_for_the_expensive_option():   # AMB-1 (b), the switch
    doc = shipped()
    doc["options"]["catapult_big_option_gain"] = 2
    data = load_doc(doc)
    for effect_id in ("CATAPULT_Y12", "CATAPULT_Y3"):
        e = effect(data, effect_id)
        assert data.effect_gain[e, :2, c.G_CATAPULT].tolist() == [1, 2]
        assert data.effect_gain[e, :2].sum() == 3                                  # catapults only
    assert data.effect_pay[effect(data, "CATAPULT_Y12"), 1].tolist() == [3, 2]
    assert data.effect_pay[effect(data, "CATAPULT_Y3"), 1].tolist() == [2, 1]
    assert data.effect_gain[effect(data, "BANK"), 1, c.G_BANK] == 2                # other buys untouched
    assert data.effect_gain[effect(data, "MONUMENT"), 1, c.G_MONUMENT] == 1
    assert data.rule_values[c.RULE_INDEX["catapult_big_option_gain"]] == 2


def test_options_win_over_the_effect_entry_with_a_warning():              # DATA-7 "options wins", AMB-1
    doc = shipped()
    doc["options"]["catapult_big_option_gain"] = 1
    doc["effects"]["CATAPULT_Y12"]["options"][1]["gain"]["catapult"] = 2
    doc["effects"]["CATAPULT_Y3"]["options"][1]["gain"]["catapult"] = 3
    data = load_doc(doc)
    assert data.effect_gain[effect(data, "CATAPULT_Y12"), 1, c.G_CATAPULT] == 1
    assert data.effect_gain[effect(data, "CATAPULT_Y3"), 1, c.G_CATAPULT] == 1
    assert data.warnings == [
        "options.catapult_big_option_gain = 1 overrides effect CATAPULT_Y12 option 2 catapult = 2 "
        "(DATA-7: options wins)",
        "options.catapult_big_option_gain = 1 overrides effect CATAPULT_Y3 option 2 catapult = 3 "
        "(DATA-7: options wins)"]
    doc["options"]["catapult_big_option_gain"] = 3                         # and the other way round
    doc["effects"]["CATAPULT_Y12"]["options"][1]["gain"]["catapult"] = 3
    data = load_doc(doc)
    assert data.effect_gain[effect(data, "CATAPULT_Y12"), 1, c.G_CATAPULT] == 3
    assert data.effect_gain[effect(data, "CATAPULT_Y3"), 1, c.G_CATAPULT] == 3
    assert data.effect_gain[effect(data, "CATAPULT_Y3"), 0, c.G_CATAPULT] == 1    # the cheap option keeps 1
    assert data.warnings == []                                             # the entries agree with the switch


def test_the_villa_stronghold_and_culture_switches_warn_where_they_override_an_entry():  # DATA-7, AMB-2, 3, 9
    doc = shipped()
    doc["options"].update(villa_table=[0, 2, 5, 8], stronghold_rounding="ceil", culture_take="choose")
    data = load_doc(doc)
    assert data.warnings == [
        "options.culture_take = choose overrides culture_tokens.take = highest_first (DATA-7: options wins)",
        "options.stronghold_rounding = ceil overrides goal STRONGHOLD.rounding = floor (DATA-7: options wins)",
        "options.villa_table = [0, 2, 5, 8] overrides goal VILLA.table = [0, 2, 5, 9] (DATA-7: options wins)"]
    assert data.goal_rounding[data.goal_ids.index("STRONGHOLD")] == c.ROUNDINGS.index("ceil")
    assert data.rules["culture_take"] == "choose"


def test_without_the_option_the_entries_stand():                        # DATA-7, AMB-1, AMB-2, AMB-3
    doc = shipped()                                                        # options leaves the three out
    goal(doc, "STRONGHOLD")["rounding"] = "round"
    doc["effects"]["CATAPULT_Y12"]["options"][1]["gain"]["catapult"] = 2
    doc["effects"]["CATAPULT_Y3"]["options"][1]["gain"]["catapult"] = 2
    villa = next(g for g in doc["goal_cards"]["G2"] if g["id"] == "VILLA")
    villa["table"] = [0, 2, 5, 8]
    data = load_doc(doc)
    for effect_id in ("CATAPULT_Y12", "CATAPULT_Y3"):
        assert data.effect_gain[effect(data, effect_id), :2, c.G_CATAPULT].tolist() == [1, 2]
    assert data.rules["catapult_big_option_gain"] == 2
    assert data.rule_values[c.RULE_INDEX["catapult_big_option_gain"]] == 2
    assert data.goal_table[data.goal_ids.index("VILLA")].tolist() == [0, 2, 5, 8]
    assert data.rules["villa_table"] == [0, 2, 5, 8]
    assert data.goal_rounding[data.goal_ids.index("STRONGHOLD")] == c.ROUNDINGS.index("round")
    assert data.rules["stronghold_rounding"] == "round"
    assert data.rule_values[c.RULE_INDEX["stronghold_rounding"]] == c.ROUNDINGS.index("round")
    assert data.warnings == []


def test_a_per_military_vp_card_without_rounding_plays_the_switch():    # AMB-3, PR-16.1
    doc = shipped()
    del goal(doc, "STRONGHOLD")["rounding"]
    assert load_doc(doc).goal_rounding[3] == c.ROUNDINGS.index("floor")        # the default
    doc["options"]["stronghold_rounding"] = "ceil"
    data = load_doc(doc)
    assert data.goal_rounding[3] == c.ROUNDINGS.index("ceil") and data.warnings == []


# ---------------------------------------------------------------- size limits (PR-1.2, PR-9.1)

def test_pool_and_cost_limits():
    assert (c.MAX_POOL, c.MAX_PAY) == (99, 8)
    assert c.MAX_POOL + 1 <= MAX_OPTIONS                               # a count: 0..pool
    assert c.MAX_EFFECT_OPTIONS * (c.MAX_PAY + 1) ** 2 <= MAX_OPTIONS  # every (option, food, money) move


def test_the_schema_limits_are_the_tables_limits():
    with open(shipped_path(c.PACKAGE, c.SCHEMA), encoding="utf-8") as fh:
        schema = json.load(fh)
    defs = schema["$defs"]
    assert defs["amount"]["maximum"] == c.MAX_AMOUNT and defs["pool"]["maximum"] == c.MAX_POOL
    assert defs["tokens"]["maximum"] == defs["stack"]["maxItems"] == c.MAX_TOKENS
    assert defs["pay"]["maximum"] == c.MAX_PAY
    assert defs["display"]["maximum"] == c.MAX_DISPLAY
    assert defs["copies"]["maximum"] == defs["copies0"]["maximum"] == c.MAX_CARDS
    assert schema["properties"]["effects"]["maxProperties"] == c.MAX_EFFECTS
    buy, gain = (defs["effect"]["allOf"][i]["then"]["properties"]["options"] for i in (0, 1))
    assert buy["maxItems"] == gain["maxItems"] == c.MAX_EFFECT_OPTIONS


def test_pools_and_cube_supplies_up_to_99_load():                        # PR-1.2, PR-1.4
    doc = shipped()
    doc["supply"].update(field_farm=99, palazzo_bank=99, catapult=99, militia_condottiere=99, food=99, money=99,
                         favour=99)
    data = load_doc(doc)
    assert dict(zip(c.SUPPLY, data.supply.tolist())) == {
        "field_farm": 99, "palazzo_bank": 99, "catapult": 99, "militia_condottiere": 99, "monument": 15,
        "book": 15, "painting": 15, "food": 99, "money": 99, "favour": 99}


def test_a_cost_of_8_food_and_8_money_loads():                           # PR-9.1, MAX_PAY
    doc = shipped()
    doc["effects"]["BOOK"]["options"][0]["pay"] = {"food": 8}
    doc["effects"]["PAINTING"]["options"][0]["pay"] = {"money": 8}
    doc["effects"]["MONUMENT"]["options"][0]["pay"] = {"food": 8, "money": 8}
    data = load_doc(doc)
    assert data.effect_pay[effect(data, "BOOK"), 0].tolist() == [8, 0]
    assert data.effect_pay[effect(data, "PAINTING"), 0].tolist() == [0, 8]
    assert data.effect_pay[effect(data, "MONUMENT"), 0].tolist() == [8, 8]


# ---------------------------------------------------------------- cards (DATA-3, DATA-4)

DECK_1 = (["HARVEST"] * 2 + ["TAXES"] * 2 + ["FOOD3", "MONEY3"] + ["MARKET2"] * 2 + ["FIELD"] * 2 + ["PALAZZO"] * 2
          + ["FARM", "BANK", "CATAPULT_Y12", "MILITIA", "CONDOTTIERI", "MONUMENT"]                      # 8-25
          + ["HARVEST", "TAXES", "MARKET2", "FARM", "BANK", "CATAPULT_Y12", "MILITIA", "CONDOTTIERI"]     # (3) 26-33
          + ["HARVEST", "TAXES", "FOOD3", "MONEY3", "FIELD", "PALAZZO", "FARM", "BANK"])                 # (4) 34-41
DECK_2 = (["HARVEST", "TAXES", "FOOD3", "MONEY3", "FIELD", "PALAZZO", "FARM", "BANK", "CATAPULT_Y12", "MILITIA",
           "CONDOTTIERI", "MONUMENT", "BOOK", "PAINTING"]                                               # 42-55
          + ["HARVEST", "TAXES", "MARKET2", "FARM", "BANK", "CATAPULT_Y12", "MONUMENT"]                  # (3) 56-62
          + ["HARVEST", "TAXES", "MARKET2", "FIELD", "PALAZZO", "BOOK", "PAINTING"])                     # (4) 63-69
DECK_3 = (["HARVEST", "TAXES", "FOOD3", "MONEY3", "MARKET2", "CATAPULT_Y3", "MILITIA", "CONDOTTIERI"]
          + ["MONUMENT"] * 2 + ["BOOK"] * 2 + ["PAINTING"] * 2                                           # 70-83
          + ["HARVEST", "TAXES", "FOOD3", "MONEY3", "CATAPULT_Y3", "FARM", "BANK"]                       # (3) 84-90
          + ["HARVEST", "TAXES", "MARKET2", "CATAPULT_Y3", "MONUMENT", "BOOK", "PAINTING"])              # (4) 91-97


def test_card_counts(data):                                               # PR-1.1, DATA-3
    assert (data.n_cards, data.n_action_cards) == (100, 98)
    for name in ("card_effect", "card_exchange", "card_year", "card_marker", "card_start", "card_scoring"):
        table = getattr(data, name)
        assert table.shape == (100,) and table.dtype == np.int8, name


def test_start_cards_are_ids_0_to_7(data):                                # DATA-3, PR-3.3
    assert card_effects(data, range(8)) == ["MARKET2"] * 4 + ["FIELD", "PALAZZO", "FARM", "BANK"]
    assert data.card_start[:8].tolist() == [1] * 4 + [2] * 4
    assert data.card_exchange[:8].tolist() == [1] * 4 + [0] * 4
    assert not data.card_year[:8].any() and not data.card_marker[:8].any()
    assert not data.card_start[8:].any()


@pytest.mark.parametrize("year, first, effects, markers", [
    (1, 8, DECK_1, [0] * 18 + [3] * 8 + [4] * 8),
    (2, 42, DECK_2, [0] * 14 + [3] * 7 + [4] * 7),
    (3, 70, DECK_3, [0] * 14 + [3] * 7 + [4] * 7),
])
def test_year_deck_card_ids(data, year, first, effects, markers):       # DATA-4 "Card-id ranges"
    ids = range(first, first + len(effects))
    assert card_effects(data, ids) == effects
    assert data.card_marker[ids.start:ids.stop].tolist() == markers
    assert (data.card_year[ids.start:ids.stop] == year).all()
    assert not data.card_scoring[ids.start:ids.stop].any()


def test_scoring_cards_are_ids_98_and_99(data):                           # PR-1.1, PR-3.4, DATA-3
    assert data.card_scoring.tolist() == [0] * 98 + [1, 1]
    assert data.card_year[98:].tolist() == [2, 3]
    assert data.card_effect[98:].tolist() == [-1, -1]
    assert not data.card_exchange[98:].any() and not data.card_marker[98:].any()


def test_every_production_and_gain_card_has_the_exchange_symbol(data):   # DATA-4 reasoning 5, AMB-23
    producers = {"HARVEST", "TAXES", "FOOD3", "MONEY3", "MARKET2"}
    for card in range(98):
        assert data.card_exchange[card] == (data.effect_ids[data.card_effect[card]] in producers), card


@pytest.mark.parametrize("players, sizes", [(2, [18, 14, 14]), (3, [26, 21, 21]), (4, [34, 28, 28])])
def test_deck_sizes_after_the_player_count_removal(data, players, sizes):  # PR-3.2, DATA-4
    used = ((data.card_marker == 0) | (data.card_marker <= players)) & (data.card_scoring == 0)
    assert [int((used & (data.card_year == y)).sum()) for y in (1, 2, 3)] == sizes
    d = data.display_size[players]
    assert sizes[0] - d + 1 + sizes[1] + sizes[2] == 21 * players                 # PR-4.5: 7 turns a year each


def test_card_names(data):
    assert data.card_name(0) == "MARKET2 (S1)#0"
    assert data.card_name(5) == "PALAZZO (S2)#5"
    assert data.card_name(8) == "HARVEST#8"
    assert data.card_name(97) == "PAINTING#97"
    assert data.card_name(98) == "SCORING#98"


def test_a_custom_card_total_is_a_warning_not_an_error():               # PR-1.1, DATA-7 validation
    doc = shipped()
    doc["year_decks"]["3"][-1]["copies"] = 2
    data = load_doc(doc)
    assert data.warnings == ["98 action cards expected, file has 99 (PR-1.1)"]
    assert data.n_cards == 101 and data.card_scoring[99:].tolist() == [1, 1]


# ---------------------------------------------------------------- culture tokens and goals

def test_culture_stacks(data):                                            # DATA-5, PR-3.6, AMB-9
    assert data.culture_n.tolist() == [15, 15, 15]
    assert data.culture_values.shape == (3, c.MAX_TOKENS)
    for k, (high, mid, low) in enumerate([(4, 3, 2), (5, 4, 3), (6, 5, 4)]):      # monument, book, painting
        assert data.culture_values[k, :15].tolist() == [high] * 5 + [mid] * 5 + [low] * 5
        assert not data.culture_values[k, 15:].any()
    assert data.culture_values.sum() == 180


def test_culture_take_given_only_with_the_tokens_sets_the_rule():        # AMB-9
    doc = shipped()
    assert "culture_take" not in doc["options"]                            # the shipped file's take plays
    doc["culture_tokens"]["take"] = "lowest_first"
    data = load_doc(doc)
    assert data.rules["culture_take"] == "lowest_first"
    assert data.rule_values[c.RULE_INDEX["culture_take"]] == 1


@pytest.mark.parametrize("take, option", [("lowest_first", "highest_first"), ("highest_first", "choose"),
                                          ("choose", "lowest_first")])
def test_options_culture_take_wins_over_the_tokens_take(take, option):  # AMB-9, DATA-7 "options wins"
    doc = shipped()
    doc["culture_tokens"]["take"] = take
    doc["options"]["culture_take"] = option
    data = load_doc(doc)                                                   # no error on disagreement
    assert data.rules["culture_take"] == option
    assert data.rule_values[c.RULE_INDEX["culture_take"]] == c.RULE_CHOICES["culture_take"].index(option)


def test_culture_take_given_nowhere_is_the_default():                    # AMB-9 (a)
    doc = shipped()
    del doc["culture_tokens"]["take"]
    assert load_doc(doc).rules["culture_take"] == "highest_first"


def test_goal_cards(data):                                                # PR-16.1, DATA-6
    assert data.goal_ids == ["ARMORY", "FERTILE_SOIL", "MUNICIPAL_LAW", "STRONGHOLD",
                             "CHAPEL", "CITY_HALL", "VILLA", "PALACE"]
    assert data.goal_deck.tolist() == [0] * 4 + [1] * 4
    assert [c.GOAL_KINDS[k] for k in data.goal_kind] == ["per_tile", "above", "above", "per_military_vp"] + ["sets"] * 4
    bit = {t: 1 << i for i, t in enumerate(c.TILES)}
    assert data.goal_tiles.tolist() == [
        bit["catapult"], bit["field"] | bit["farm"], bit["palazzo"] | bit["bank"], 0,
        bit["monument"] | bit["painting"], bit["monument"] | bit["book"], bit["book"] | bit["painting"],
        bit["monument"] | bit["book"] | bit["painting"]]
    assert data.goal_threshold.tolist() == [0, 6, 6, 0, 0, 0, 0, 0]
    assert data.goal_vp_each.tolist() == [1, 1, 1, 0, 0, 0, 0, 0]
    assert data.goal_divisor.tolist() == [0, 0, 0, 4, 0, 0, 0, 0]
    assert data.goal_table[4:].tolist() == [[0, 2, 5, 8], [0, 2, 5, 8], [0, 2, 5, 9], [0, 5, 10, 15]]
    assert not data.goal_table[:4].any()


def test_goal_categories_are_the_eight_goal_cards_of_data_6(data):    # DATA-6
    assert c.GOAL_CATEGORIES == ("armory", "fertile_soil", "municipal_law", "stronghold", "chapel", "city_hall",
                                 "villa", "palace")
    assert [g.lower() for g in data.goal_ids] == list(c.GOAL_CATEGORIES)


def test_goal_cards_may_be_dealt_into_other_decks():                     # DATA-6 ids, PR-3.5 decks
    doc = shipped()
    g1, g2 = doc["goal_cards"]["G1"], doc["goal_cards"]["G2"]
    g1[0], g2[0] = g2[0], g1[0]                                            # CHAPEL into G1, ARMORY into G2
    data = load_doc(doc)
    assert data.goal_ids[0] == "CHAPEL" and data.goal_ids[4] == "ARMORY"
    assert data.goal_deck.tolist() == [0] * 4 + [1] * 4


def test_villa_table_comes_from_the_options():                           # AMB-2
    doc = shipped()
    doc["options"]["villa_table"] = [0, 2, 5, 8]
    data = load_doc(doc)
    assert data.goal_table[data.goal_ids.index("VILLA")].tolist() == [0, 2, 5, 8]
    assert data.rules["villa_table"] == [0, 2, 5, 8]
    assert data.goal_table[data.goal_ids.index("PALACE")].tolist() == [0, 5, 10, 15]


# ---------------------------------------------------------------- provenance

def test_provenance_marks_the_reconstructed_parts(data):                 # DATA-2, DATA-3, DATA-4, DATA-5
    prov = c.provenance(data)
    for component, value in prov.items():
        if component.split(".")[0] in ("start_cards", "year_decks", "culture_tokens"):
            assert value == "reconstructed", component
    assert {"year_decks.copies", "year_decks.exchange", "year_decks.marker", "start_cards.effect",
            "culture_tokens.values"} <= set(prov)
    assert prov["effects.gain"] == "rulebook"                                  # the catapults' 1 too, AMB-1
    assert prov["effects.pay"] == "rulebook"
    assert prov["options.catapult_big_option_gain"] == "rulebook"
    assert prov["options.villa_table"] == "rulebook"                           # as printed, AMB-2
    assert prov["storage.church_favour"] == "sourced"                          # AMB-8, LQNMG
    assert prov["supply.tiles"] == "rulebook" and prov["display_size.sizes"] == "rulebook"
    assert "AMB-1..AMB-26" in prov["rules"]


def test_every_section_of_the_shipped_file_has_a_provenance():
    doc = shipped()
    assert set(doc["provenance"]) == set(c.SECTIONS)
    assert all(doc["provenance"][section] for section in c.SECTIONS)
    assert doc["provenance"]["options"].keys() == c.RULE_DEFAULTS.keys()


def test_the_shipped_file_is_the_specification_data_file():              # DATA-7
    spec = json.loads(SPEC_DATA7.read_text(encoding="utf-8"))
    doc = shipped()
    for eid in doc["effects"]:
        doc["effects"][eid].pop("provenance", None)
    for card in doc["goal_cards"]["G1"] + doc["goal_cards"]["G2"]:
        card.pop("provenance", None)
    # the deliberate differences: the rulebook's 1 catapult over the specification's 2 (AMB-1) ...
    assert spec["options"]["catapult_big_option_gain"] == 2
    for effect_id in ("CATAPULT_Y12", "CATAPULT_Y3"):
        assert spec["effects"][effect_id]["options"][1]["gain"] == {"catapult": 2}
        assert doc["effects"][effect_id]["options"][1]["gain"] == {"catapult": 1}
        doc["effects"][effect_id]["options"][1]["gain"] = {"catapult": 2}
    # ... and options leaves out the four switches an entry states, so that the entry plays
    restated = {"catapult_big_option_gain": 2, "villa_table": goal(doc, "VILLA")["table"],
                "stronghold_rounding": goal(doc, "STRONGHOLD")["rounding"],
                "culture_take": doc["culture_tokens"]["take"]}
    assert not set(restated) & set(doc["options"])
    doc["options"].update(restated)
    doc["options"] = {name: doc["options"][name] for name in spec["options"]}
    for key in spec:
        if key != "provenance":
            assert doc[key] == spec[key], key
    verbatim = load_doc(spec)                      # its one-line provenance text names no values
    assert verbatim.provenance == {}
    assert verbatim.rules == {**c.RULE_DEFAULTS, "catapult_big_option_gain": 2}
    assert verbatim.rule_values[c.RULE_INDEX["catapult_big_option_gain"]] == 2
    for effect_id in ("CATAPULT_Y12", "CATAPULT_Y3"):
        assert verbatim.effect_gain[effect(verbatim, effect_id), :2, c.G_CATAPULT].tolist() == [1, 2]
    assert (verbatim.card_effect == c.load().card_effect).all()


# ---------------------------------------------------------------- one breakage per validation

def deck(doc, year, i):
    return doc["year_decks"][year][i]


def effect_entry(doc, effect_id):
    return doc["effects"][effect_id]


def goal(doc, goal_id):
    return next(g for d in ("G1", "G2") for g in doc["goal_cards"][d] if g["id"] == goal_id)


BREAKAGES = [
    (lambda d: d.update(format="principato-data/2"), r"format: 'principato-data/1' was expected$"),
    (lambda d: d.pop("goal_cards"), r"the top level: 'goal_cards' is a required property$"),
    (lambda d: d.update(supply=[42]), r"supply: \[42\] is not of type 'object'$"),
    (lambda d: d["supply"].update(food=-1), r"supply\.food: -1 is less than the minimum of 0$"),
    (lambda d: d["supply"].update(food=100), r"supply\.food: 100 is greater than the maximum of 99$"),
    (lambda d: d["supply"].update(catapult=100), r"supply\.catapult: 100 is greater than the maximum of 99$"),
    (lambda d: d["supply"].update(field_farm=999), r"supply\.field_farm: 999 is greater than the maximum of 99$"),
    (lambda d: d["supply"].update(food=39.5), r"supply\.food: 39\.5 is not of type 'integer'$"),
    (lambda d: d["supply"].update(book=31), r"supply\.book: 31 is greater than the maximum of 30$"),
    (lambda d: d["storage"].update(food_per_farm=True), r"storage\.food_per_farm: True is not of type 'integer'$"),
    (lambda d: d["storage"].update(per_unit=2),
     r"storage\.per_unit: is fixed by the rules at 1: a unit holds one cube \(PR-2\.2\)$"),
    (lambda d: d["storage"].update(militia_accepts=["money"]),
     r"storage\.militia_accepts: is fixed by the rules at food and favour \(PR-2\.2\)$"),
    (lambda d: d["start_holdings"].update(food=3), r"start_holdings\.food: 3 do not fit in the starting storage of 2"),
    (lambda d: d["start_holdings"].pop("favour"), r"start_holdings: 'favour' is a required property$"),
    (lambda d: d["supply"].update(favour=3), r"start_holdings: 4 players take 4 of supply\.favour, which holds 3"),
    (lambda d: d["display_size"].update({"3": 0}), r"display_size\.3: 0 is less than the minimum of 1$"),
    (lambda d: d["display_size"].pop("4"), r"display_size: '4' is a required property$"),
    (lambda d: d["military_vp_by_rank"].update({"3": [6, 3]}),
     r"military_vp_by_rank\.3: \[6, 3\] is too short$"),
    (lambda d: d["military_vp_by_rank"].update({"4": [7, 4, 2, -1]}),
     r"military_vp_by_rank\.4\.3: -1 is less than the minimum of 0$"),
    (lambda d: d["strength"].pop("empty_unit"), r"strength: 'empty_unit' is a required property$"),
    (lambda d: effect_entry(d, "BANK").update(kind="trade"),
     r"effects\.BANK\.kind: 'trade' is not one of \['buy', 'produce', 'recruit', 'gain'\]$"),
    (lambda d: effect_entry(d, "BANK")["options"][0]["pay"].update(favour=1),
     r"effects\.BANK\.options\.0\.pay: Additional properties are not allowed \('favour' was unexpected\)$"),
    (lambda d: effect_entry(d, "BANK")["options"][1].update(gain={"money": 2}),
     r"effects\.BANK\.options\.1\.gain: Additional properties are not allowed \('money' was unexpected\)$"),
    (lambda d: effect_entry(d, "MARKET2")["options"].append({"bank": 1}),
     r"effects\.MARKET2\.options: \[\{'money': 2\}, .*\.\.\. is too long \(4 items, expected at most 3\)$"),
    (lambda d: effect_entry(d, "MARKET2")["options"][2].update(food=0),
     r"effect MARKET2 option 3: gives nothing"),
    (lambda d: effect_entry(d, "FOOD3")["options"][0].update(favour=1),
     r"effects\.FOOD3\.options\.0: Additional properties are not allowed \('favour' was unexpected\)$"),
    (lambda d: effect_entry(d, "BOOK")["options"][0]["pay"].update(food=9),
     r"effects\.BOOK\.options\.0\.pay\.food: 9 is greater than the maximum of 8$"),
    (lambda d: effect_entry(d, "PAINTING")["options"][0]["pay"].update(money=9),
     r"effects\.PAINTING\.options\.0\.pay\.money: 9 is greater than the maximum of 8$"),
    (lambda d: effect_entry(d, "CATAPULT_Y12")["options"][1]["pay"].update(food=8, money=20),
     r"effects\.CATAPULT_Y12\.options\.1\.pay\.money: 20 is greater than the maximum of 8$"),
    (lambda d: effect_entry(d, "BOOK")["options"][0]["pay"].update(food=2.5),
     r"effects\.BOOK\.options\.0\.pay\.food: 2\.5 is not of type 'integer'$"),
    (lambda d: effect_entry(d, "TAXES").update(cube="favour"),
     r"effects\.TAXES\.cube: 'favour' is not one of \['food', 'money'\]$"),
    (lambda d: effect_entry(d, "HARVEST").update(per="militia"),
     r"effects\.HARVEST\.per: 'militia' is not one of \['field', "),
    (lambda d: effect_entry(d, "MILITIA").update(tile="catapult"),
     r"effects\.MILITIA\.tile: 'catapult' is not one of \['militia', 'condottiere'\]$"),
    (lambda d: deck(d, "2", 3).update(effect="MONEY4"), r"year_decks\.2\[3\]: effect 'MONEY4' is not defined"),
    (lambda d: d["start_cards"]["S1"].update(effect="TRADE"), r"start_cards\.S1: effect 'TRADE' is not defined"),
    (lambda d: deck(d, "1", 0).update(exchange="yes"), r"year_decks\.1\.0\.exchange: 'yes' is not of type 'boolean'$"),
    (lambda d: deck(d, "1", 0).update(marker=2), r"year_decks\.1\.0\.marker: 2 is not one of \[0, 3, 4\]$"),
    (lambda d: deck(d, "3", 8).update(copies=0), r"year_decks\.3\.8\.copies: 0 is less than the minimum of 1$"),
    (lambda d: deck(d, "3", 8).update(copies=40), r"cards: 138 card instances, at most 128 are supported"),
    (lambda d: d["start_cards"]["S1"].update(copies=3),
     r"start_cards\.S1\.copies: is fixed by the rules at 4, one for every player \(PR-3\.3\), found 3$"),
    (lambda d: d["start_cards"]["S2"].pop(),
     r"start_cards\.S2: needs at least 4 cards, a different one for every player \(PR-3\.3\), found 3"),
    (lambda d: d["start_cards"]["S2"][3].update(effect="FIELD"),
     r"start_cards\.S2\[3\]: is the same card as an earlier S2 entry"),
    (lambda d: d["start_cards"]["S2"][0].update(marker=3),
     r"start_cards\.S2\.0: Additional properties are not allowed \('marker' was unexpected\)$"),
    (lambda d: d["year_decks"].update({"4": []}),
     r"year_decks: Additional properties are not allowed \('4' was unexpected\)$"),
    (lambda d: d["year_decks"]["1"].__setitem__(slice(0, 13), []),
     (r"year_decks\.1: with 2 players the deck has 0 action cards after the removal of PR-3\.2, it needs the "
      r"display of 5 \(PR-3\.8\)")),
    (lambda d: d["year_decks"]["1"][0].update(copies=1) or d["year_decks"]["1"].__setitem__(slice(1, 13), []),
     r"year_decks\.1: with 2 players the deck has 1 action cards"),
    (lambda d: d["year_decks"]["3"].__setitem__(slice(0, 18), []),
     (r"year_decks\.3: with 2 players the deck has 0 action cards after the removal of PR-3\.2, it needs one to "
      r"refill the display \(PR-12\.4\)")),
    (lambda d: d["year_decks"].update({"1": [{"effect": "HARVEST", "exchange": True, "marker": 0, "copies": 6}]}),
     (r"year_decks\.1: with 4 players the deck has 6 action cards after the removal of PR-3\.2, it needs the "
      r"display of 7 \(PR-3\.8\)")),
    (lambda d: d["scoring_cards"].update({"1": 1}),
     r"scoring_cards: Additional properties are not allowed \('1' was unexpected\)$"),
    (lambda d: d["scoring_cards"].update({"3": -1}), r"scoring_cards\.3: -1 is less than the minimum of 0$"),
    (lambda d: d["culture_tokens"]["book"].pop(),
     r"culture_tokens\.book: must list 15 token values, the supply's book pool \(PR-1\.2, DATA-5\), found 14"),
    (lambda d: d["supply"].update(painting=16), r"culture_tokens\.painting: must list 16 token values"),
    (lambda d: d["culture_tokens"]["monument"].reverse(),
     r"culture_tokens\.monument: must be sorted highest value first \(PR-3\.6\)"),
    (lambda d: d["culture_tokens"]["monument"].__setitem__(0, -4),
     r"culture_tokens\.monument\.0: -4 is less than the minimum of 0$"),
    (lambda d: d["culture_tokens"].update(take="random"),
     r"culture_tokens\.take: 'random' is not one of \['highest_first', 'lowest_first', 'choose'\]$"),
    (lambda d: goal(d, "ARMORY").update(kind="per_card"),
     r"goal_cards\.G1\.0\.kind: 'per_card' is not one of \['per_tile', 'above', 'per_military_vp', 'sets'\]$"),
    (lambda d: goal(d, "CHAPEL").update(tiles=["monument", "dragon"]),
     r"goal_cards\.G2\.0\.tiles\.1: 'dragon' is not one of \['field', "),
    (lambda d: goal(d, "PALACE").update(table=[0, 10, 5, 15]),
     r"goal PALACE\.table: must not decrease: more pairs or sets never score less \(PR-16\.1\)"),
    (lambda d: goal(d, "CITY_HALL").update(table=[0, 2, 5]), r"goal_cards\.G2\.1\.table: \[0, 2, 5\] is too short$"),
    (lambda d: goal(d, "STRONGHOLD").update(divisor=0),
     r"goal_cards\.G1\.3\.divisor: 0 is less than the minimum of 1$"),
    (lambda d: goal(d, "STRONGHOLD").update(rounding="up"),
     r"goal_cards\.G1\.3\.rounding: 'up' is not one of \['floor', 'round', 'ceil'\]$"),
    (lambda d: goal(d, "FERTILE_SOIL").pop("threshold"), r"goal_cards\.G1\.1: 'threshold' is a required property$"),
    (lambda d: goal(d, "VILLA").update(id="CHAPEL"), r"goal CHAPEL: is listed twice"),
    (lambda d: goal(d, "ARMORY").update(id="ARSENAL"),
     (r"goal_cards\.G1\[0\]: unknown goal card 'ARSENAL': the results have a column for each of ARMORY, "
      r"FERTILE_SOIL, MUNICIPAL_LAW, STRONGHOLD, CHAPEL, CITY_HALL, VILLA, PALACE \(DATA-6\); change their "
      r"formulas, not their ids$")),
    (lambda d: goal(d, "PALACE").update(id="CASTLE"), r"goal_cards\.G2\[3\]: unknown goal card 'CASTLE'"),
    (lambda d: d["goal_cards"]["G2"].append({"id": "MARKETPLACE", "kind": "sets", "tiles": ["book"],
                                             "table": [0, 1, 2, 3]}),
     r"goal_cards\.G2\[4\]: unknown goal card 'MARKETPLACE': .*\(DATA-6\)"),
    (lambda d: d["goal_cards"]["G2"].pop(),
     r"goal_cards\.G2: needs at least 4 goal cards, one for every player \(PR-3\.5\), found 3"),
    (lambda d: d["options"].update(villa=[0, 2, 5, 8]),
     r"options: Additional properties are not allowed \('villa' was unexpected\)$"),
    (lambda d: d["options"].update(pair_cap=4), r"options\.pair_cap: 4 is greater than the maximum of 3$"),
    (lambda d: d["options"].update(catapult_big_option_gain=0),
     r"options\.catapult_big_option_gain: 0 is less than the minimum of 1$"),
    (lambda d: d["options"].update(villa_table=[0, 2, 5]),
     r"options\.villa_table: \[0, 2, 5\] is too short$"),
    (lambda d: d["options"].update(villa_table=[0, 5, 2, 9]), r"options\.villa_table: must not decrease"),
    (lambda d: d["options"].update(stronghold_rounding="up"),
     r"options\.stronghold_rounding: 'up' is not one of \['floor', 'round', 'ceil'\]$"),
    (lambda d: d["options"].update(free_loading="no"), r"options\.free_loading: 'no' is not of type 'boolean'$"),
    (lambda d: d["provenance"]["year_decks"].update(copies="guessed"),
     r"provenance\.year_decks\.copies: 'guessed' is not one of \['rulebook', 'sourced', 'reconstructed'\]$"),
    (lambda d: d["provenance"].update(board={}), r"provenance: 'board' is not one of \['display_size', 'supply', "),
    (lambda d: effect_entry(d, "CATAPULT_Y3").update(provenance={"gain": "printed"}),
     r"effects\.CATAPULT_Y3\.provenance\.gain: 'printed' is not one of \['rulebook', 'sourced', 'reconstructed'\]$"),
    # the schema refuses what the loader would otherwise ignore or crash on
    (lambda d: d["storage"]["condottiere_accepts"].__setitem__(0, []),        # once a traceback
     r"storage\.condottiere_accepts\.0: \[\] is not one of \['food', 'money', 'favour'\]$"),
    (lambda d: d["storage"].update(militia_accepts="food"),
     r"storage\.militia_accepts: 'food' is not of type 'array'$"),
    (lambda d: d.update(option={}),
     r"the top level: Additional properties are not allowed \('option' was unexpected\)$"),
    (lambda d: deck(d, "2", 0).update(copy=2),
     r"year_decks\.2\.0: Additional properties are not allowed \('copy' was unexpected\)$"),
    (lambda d: effect_entry(d, "TAXES").update(options=[{"money": 1}]),
     r"effects\.TAXES: Additional properties are not allowed \('options' was unexpected\)$"),
    (lambda d: goal(d, "VILLA").update(vp_each=2),
     r"goal_cards\.G2\.2: Additional properties are not allowed \('vp_each' was unexpected\)$"),
    (lambda d: goal(d, "MUNICIPAL_LAW").update(threshold=100),
     r"goal_cards\.G1\.2\.threshold: 100 is greater than the maximum of 99$"),
    (lambda d: d["culture_tokens"].update(book=[5] * 31), r"culture_tokens\.book: \[5, 5, .*\.\.\. is too long \(31 items, expected at most 30\)$"),
    (lambda d: d["start_cards"]["S1"].update(copies=5),
     r"start_cards\.S1\.copies: is fixed by the rules at 4, one for every player \(PR-3\.3\), found 5$"),
    (lambda d: d["start_cards"]["S2"][1].update(copies=2),
     r"start_cards\.S2\[1\]: an S2 entry is one card: the players' S2 cards all differ \(PR-3\.3\)$"),
    (lambda d: d["storage"].update(per_unit=1.5), r"storage\.per_unit: 1\.5 is not of type 'integer'$"),
    (lambda d: d["effects"].update(MONEY9={"kind": "gain", "options": [{"money": 9}]}),
     r"effects\.MONEY9: is on no card: no start card or year-deck entry names it$"),
]


@pytest.mark.parametrize("breakage, message", BREAKAGES, ids=[m[:40] for _, m in BREAKAGES])
def test_invalid_data_gives_a_one_line_error_naming_file_item_and_constraint(breakage, message):
    doc = copy.deepcopy(shipped())
    breakage(doc)
    with pytest.raises(UserError, match=r"^Principato data file pr\.json: " + message) as info:
        load_doc(doc)
    assert "\n" not in str(info.value)


def test_a_document_that_is_not_an_object():
    message = r"^Principato data file pr\.json: the top level: \[\] is not of type 'object'$"
    with pytest.raises(UserError, match=message):
        load_doc([])


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(UserError, match="cannot read Principato data file"):
        c.load(str(tmp_path / "none.json"))
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(UserError, match=r"broken\.json is not valid JSON"):
        c.load(str(broken))
