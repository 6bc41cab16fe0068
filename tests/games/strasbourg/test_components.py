"""The Strasbourg data file loads into kernel tables and bad files give one-line errors
(SB-1, SB-2, SB-13, SB-17, SB-19; the shipped file is placeholder board P0)."""
import copy
import json

import numpy as np
import pytest

from simcore.boardgames.strasbourg import components
from simcore.contract import UserError

SMITHS, VINTNERS, SHOEMAKERS, BUTCHERS, BAKERS = range(5)


def shipped():
    with open(components.default_path(), encoding="utf-8") as fh:
        return json.load(fh)


def load_doc(doc):
    return components.from_document(doc, "sb.json")


def cell_entry(doc, r, c):
    return next(cell for cell in doc["board"]["cells"] if (cell["r"], cell["c"]) == (r, c))


def task(doc, task_id):
    return next(card for card in doc["tasks"]["cards"] if card["id"] == task_id)


@pytest.fixture(scope="module")
def data():
    return components.load(None)


def test_the_shipped_file_loads_with_the_spec_defaults(data):           # SB-17
    assert data.rules == components.RULE_DEFAULTS
    assert data.rules["CHAPEL_ADJACENCY"] == "VERTEX"                   # AMB-02 (a)
    assert data.rules["CITY_WALL"] == "OUTER_RING"                      # AMB-14
    assert data.rules["FM_LIMIT"] is None                               # AMB-16: unlimited
    assert data.rule_values.dtype == np.int32
    assert data.rule_values[components.RULE_INDEX["FM_LIMIT"]] == components.NO_FM_LIMIT
    assert data.rule_values[components.RULE_INDEX["PLANNING_MODE"]] == 0     # SEQUENTIAL
    assert data.reconstructed


def test_every_ambiguity_the_spec_offers_as_a_switch_is_one():          # SB-17, SB-16.2
    assert set(components.RULE_DEFAULTS) == {
        "CHAPEL_ADJACENCY", "MASTER_PARTS_OPTIONAL", "ALLOW_DOMINATED_RETURN", "ALLOW_DOMINATED_PRIVILEGE",
        "PLANNING_MODE", "CITY_WALL", "FM_LIMIT", "SCREEN_HIDES_RESOURCES"}
    assert list(components.RULE_INDEX.values()) == list(range(len(components.RULE_DEFAULTS)))


def test_the_city_is_placeholder_board_p0(data):                        # SB-2.2, SB-19.8
    assert (data.rows, data.cols) == (6, 9)
    assert data.cell_guild.shape == (54,) and data.cell_guild.dtype == np.int8
    assert data.is_site.sum() == 7
    assert [data.cell_name(s) for s in data.sites] == ["(1,1)", "(1,4)", "(1,7)", "(3,2)", "(3,5)", "(4,7)", "(5,1)"]
    assert (data.cell_guild >= 0).sum() == 47                           # every other cell a guild space
    assert list(data.guild_spaces) == [8, 9, 8, 10, 12]                 # m 8, v 9, s 8, u 10, b 12
    assert (data.cell_guild[data.is_site] == -1).all() and (data.cell_price[data.is_site] == -1).all()
    assert (data.cell_price[~data.is_site] >= 0).all()
    assert data.cell_guild[data.cell(0, 0)] == SMITHS and data.cell_price[data.cell(0, 0)] == 6
    assert data.cell_guild[data.cell(5, 8)] == BAKERS and data.cell_price[data.cell(5, 8)] == 1


def test_prices_fall_with_the_guild_ranking_on_average(data):           # SB-19.1, research S3
    means = [data.cell_price[data.cell_guild == g].mean() for g in range(5)]
    assert means == sorted(means, reverse=True)


def test_vintner_district_has_3_and_4_spaces_after_a_4_is_bought(data):  # TC-R04
    prices = sorted(data.cell_price[data.cell_guild == VINTNERS].tolist())
    prices.remove(4)                                                    # Thomas paid 4
    assert 3 in prices and 4 in prices


def test_orthogonal_and_diagonal_neighbours(data):                      # SB-2.4
    corner, inner = data.cell(0, 0), data.cell(2, 3)
    assert data.n_orth[corner] == 2 and data.n_diag[corner] == 1
    assert sorted(data.orth[corner, :2]) == [data.cell(0, 1), data.cell(1, 0)]
    assert list(data.orth[corner, 2:]) == [-1, -1] and list(data.diag[corner, 1:]) == [-1, -1, -1]
    assert data.n_orth[inner] == 4 and data.n_diag[inner] == 4
    assert sorted(data.diag[inner]) == sorted(data.cell(r, c) for r in (1, 3) for c in (2, 4))
    assert data.n_orth.sum() == 2 * (5 * 9 + 6 * 8)                     # each shared edge counted twice


def test_chapel_spots_are_vertices_with_the_4_cells_around_them(data):  # SB-2.3, AMB-02
    assert [tuple(v) for v in data.chapel_vertex] == [(1, 2), (1, 6), (2, 4), (3, 1), (3, 7), (4, 4), (5, 3), (5, 6)]
    assert (data.chapel_n_cadj == 4).all()
    assert sorted(data.chapel_cadj[0]) == [-1] * 4 + sorted(data.cell(r, c) for r in (0, 1) for c in (1, 2))


def test_wall_is_the_outer_ring_and_corners_the_grid_corners(data):     # AMB-14
    assert data.on_wall.sum() == 26
    assert [data.cell_name(s) for s in np.flatnonzero(data.is_corner)] == ["(0,0)", "(0,8)", "(5,0)", "(5,8)"]
    assert not data.on_wall[data.cell(1, 1)] and data.on_wall[data.cell(5, 1)]


def test_council_seats(data):                                            # SB-2.1
    assert data.council_seats == ["NOBILITY", "CHURCH", "SMITHS", "VINTNERS", "SHOEMAKERS", "BUTCHERS", "BAKERS",
                                  "MERCHANTS"]
    assert (data.nobility_seat, data.church_seat, data.merchants_seat) == (0, 1, 7)
    assert list(data.guild_seat) == [2, 3, 4, 5, 6]
    assert list(data.seat_guild) == [-1, -1, 0, 1, 2, 3, 4, -1]


def test_round_cards_name_each_guild_three_times(data):                 # SB-19.4
    assert data.card_guilds.shape == (5, 3) and data.card_guilds.dtype == np.int8
    assert data.card_guilds[0].tolist() == [SMITHS, VINTNERS, SHOEMAKERS]     # card k: k, k+1, k+2
    assert np.bincount(data.card_guilds.ravel(), minlength=5).tolist() == [3] * 5
    assert VINTNERS in data.card_guilds[:, 0]                     # the rulebook's B is VINTNERS


def test_buildings(data):                                                # SB-19.3, TC-R08, TC-R11, AMB-25
    assert data.building_ids == ["INN", "WELL", "E3", "E4", "E5"]
    assert data.building_value.tolist() == [4, 3, 1, 2, 5]
    assert data.building_names[:2] == ["Inn", "Well"]


def test_goods_values(data):                                             # SB-1.7, SB-19.2, TC-R06
    assert data.goods_value.shape == (5, 6) and data.goods_value.dtype == np.int16
    assert data.goods_value[:, 0].tolist() == [5, 4, 3, 2, 1]
    assert (data.goods_value == data.goods_value[:, :1]).all()
    assert data.goods_value[[SMITHS, VINTNERS, SHOEMAKERS], 0].sum() == 12


def test_task_cards(data):                                               # SB-13, SB-19.5
    types = [f"TK-{t:02d}" for t in data.task_type]                   # code = the TK number
    assert len(types) == 25
    assert types.count("TK-01") == 5 and types.count("TK-07") == 5
    assert sorted(set(types)) == list(components.TASK_TYPE_IDS)        # all 17 types
    tk01 = [i for i, t in enumerate(types) if t == "TK-01"]
    assert sorted(data.task_param[tk01, 0]) == [0, 1, 2, 3, 4]          # one per building
    assert (data.task_param[tk01, 1] == 2).all() and (data.task_param[tk01, 2] == -1).all()
    tk07 = [i for i, t in enumerate(types) if t == "TK-07"]
    assert sorted(data.task_param[tk07, 0]) == [0, 1, 2, 3, 4]          # one per guild
    tk13 = types.index("TK-13")
    assert data.task_param[tk13].tolist() == [4, 3, 2]                  # T(3), T(4), T(5)
    assert data.task_param[types.index("TK-12")].tolist() == [-1, -1, -1]
    assert data.task_prestige.min() >= 2 and data.task_prestige.max() <= 8      # reported range
    assert data.task_prestige[types.index("TK-11")] == 8
    assert data.task_names[tk07[0]] == "TK-07: 3+ family members in the Smiths"


def test_influence_cards_and_start_coins(data):                         # SB-1.5, SB-3.3
    assert data.influence_cards.tolist() == sorted(list(range(1, 7)) * 4)
    assert data.influence_cards.sum() == 84
    assert data.start_coins == 5


def test_provenance_marks_the_reconstructed_parts(data):                # DESIGN "Component data"
    prov = data.provenance
    for part in ("board.layout", "board.prices", "board.chapel_spots", "board.wall", "board.corners",
                 "round_cards.guilds", "goods.values", "tasks.prestige", "tasks.composition"):
        assert prov[part] == "reconstructed", part
    assert prov["board.size"] == "sourced"
    assert prov["board.site_count"] == "rulebook"
    assert prov["buildings.value"] == "reconstructed 3, rulebook 2"     # inn and well from the example
    assert prov["tasks.condition"] == "rulebook"
    assert prov["influence.cards_per_value"] == "rulebook"
    assert "rules" in components.provenance(data)


def test_every_section_and_item_of_the_shipped_file_has_a_provenance():
    doc = shipped()
    for section in components.SECTIONS:
        assert doc[section].get("provenance"), section
    for section, items in components.ITEM_LISTS.items():
        assert all(entry.get("provenance") for entry in doc[section][items]), section
    assert len(doc["notes"]) >= 8


def test_chapel_adjacency_listed_accepts_other_readings():              # AMB-02 (c) through data alone
    doc = shipped()
    doc["rules"]["CHAPEL_ADJACENCY"] = "LISTED"
    doc["board"]["chapel_spots"][0]["cadj"] = [[r, c] for r in (0, 1, 2) for c in (0, 1, 2) if (r, c) != (1, 1)]
    data = load_doc(doc)
    assert data.chapel_n_cadj[0] == 8
    assert data.rule_values[components.RULE_INDEX["CHAPEL_ADJACENCY"]] == 1


def test_city_wall_listed_accepts_another_wall():                       # AMB-14
    doc = shipped()
    doc["rules"]["CITY_WALL"] = "LISTED"
    doc["board"]["wall"] = [[0, c] for c in range(9)] + [[5, c] for c in range(9)]
    data = load_doc(doc)
    assert data.on_wall.sum() == 18


def test_rule_switch_values_go_into_the_rule_array():
    doc = shipped()
    doc["rules"].update(FM_LIMIT=15, CITY_WALL="LISTED", MASTER_PARTS_OPTIONAL=True)
    values = load_doc(doc).rule_values
    assert values[components.RULE_INDEX["FM_LIMIT"]] == 15
    assert values[components.RULE_INDEX["CITY_WALL"]] == 1
    assert values[components.RULE_INDEX["MASTER_PARTS_OPTIONAL"]] == 1


def test_a_rule_switch_left_out_takes_its_default():
    doc = shipped()
    del doc["rules"]["FM_LIMIT"], doc["rules"]["ALLOW_DOMINATED_RETURN"]
    assert load_doc(doc).rules == components.RULE_DEFAULTS


def test_the_schema_offers_the_rule_switches_and_choices_of_the_loader():
    schema = components.schema_validator(components.PACKAGE, components.SCHEMA).schema
    switches = schema["properties"]["rules"]["properties"]
    assert list(switches) == list(components.RULE_DEFAULTS)
    assert {name: tuple(switches[name]["enum"]) for name in components.RULE_CHOICES} == components.RULE_CHOICES


def test_a_whole_number_written_with_a_decimal_point_loads_as_an_int():
    doc = shipped()
    cell_entry(doc, 0, 4)["price"] = 7.0                               # JSON Schema: an integer
    doc["influence"]["cards_per_value"]["6"] = 2.0
    data = load_doc(doc)
    assert data.cell_price[data.cell(0, 4)] == 7
    assert data.influence_cards.tolist() == sorted(list(range(1, 6)) * 4 + [6, 6])


def test_another_deck_and_start_coins_load():                            # SB-1.5, SB-3.3 as variants
    doc = shipped()
    doc["influence"]["cards_per_value"] = {"2": 3, "6": 5}
    doc["player_start"]["coins"] = 12
    data = load_doc(doc)
    assert data.influence_cards.tolist() == [2, 2, 2, 6, 6, 6, 6, 6]
    assert data.start_coins == 12


# ---------------------------------------------------------------- one breakage per validation

def cells_53(doc):
    doc["board"]["cells"].pop()


def grid_9_by_9(doc):
    doc["board"]["rows"] = 9


def grid_6_by_6(doc):
    doc["board"]["cols"] = 6


def cell_twice(doc):
    doc["board"]["cells"][1].update(r=0, c=0)


def six_sites(doc):
    cell_entry(doc, 1, 1).update(kind="guild", guild="SMITHS", price=5)


def bakers_split(doc):
    cell_entry(doc, 5, 0)["guild"] = "BAKERS"


def negative_price(doc):
    cell_entry(doc, 0, 4)["price"] = -1


def fractional_price(doc):
    cell_entry(doc, 0, 4)["price"] = 2.5


def site_with_guild(doc):
    cell_entry(doc, 1, 1)["guild"] = "SMITHS"


def space_without_price(doc):
    cell_entry(doc, 0, 4)["price"] = None


def unknown_cell_guild(doc):
    cell_entry(doc, 0, 0)["guild"] = "TANNERS"


def four_chapel_spots(doc):
    del doc["board"]["chapel_spots"][4:]


def chapel_off_the_grid(doc):
    doc["board"]["chapel_spots"][0]["vr"] = 7


def chapel_cadj_off_the_grid(doc):
    doc["board"]["chapel_spots"][0]["cadj"][0] = [6, 0]


def chapel_cadj_not_around_vertex(doc):
    doc["board"]["chapel_spots"][0]["cadj"] = [[0, 1], [0, 2], [1, 1]]


def wall_not_the_ring(doc):
    doc["board"]["wall"].pop()


def three_corners(doc):
    doc["board"]["corners"].pop()


def corner_not_a_grid_corner(doc):
    doc["board"]["corners"][0] = [0, 1]


def council_out_of_order(doc):
    seats = doc["council"]["seats"]
    seats[2], seats[3] = seats[3], seats[2]


def guilds_4(doc):
    doc["guilds"]["kinds"].pop()


def council_without_merchants(doc):
    doc["council"]["seats"].remove("MERCHANTS")


def round_cards_4(doc):
    doc["round_cards"]["cards"].pop()


def round_card_unknown_guild(doc):
    doc["round_cards"]["cards"][1]["guilds"][2] = "TANNERS"


def round_card_two_guilds(doc):
    doc["round_cards"]["cards"][1]["guilds"].pop()


def round_card_same_guild_twice(doc):
    doc["round_cards"]["cards"][1]["guilds"] = ["VINTNERS", "VINTNERS", "BUTCHERS"]


def shoemakers_on_2_cards(doc):
    doc["round_cards"]["cards"][0]["guilds"][2] = "BUTCHERS"


def buildings_6(doc):
    doc["buildings"]["tiles"].append(dict(doc["buildings"]["tiles"][0], id="E6"))


def negative_building(doc):
    doc["buildings"]["tiles"][1]["value"] = -3


def goods_5_smiths(doc):
    doc["goods"]["tiles"]["SMITHS"].pop()


def goods_unknown_guild(doc):
    doc["goods"]["tiles"]["TANNERS"] = [1] * 6


def tasks_24(doc):
    doc["tasks"]["cards"].pop()


def unknown_task_type(doc):
    task(doc, "TK-17")["type"] = "TK-18"


def task_param_out_of_range(doc):
    task(doc, "TK-01/INN")["params"]["min_family_members"] = 5


def task_param_missing(doc):
    del task(doc, "TK-13")["params"]["min_seats_5p"]


def task_param_unknown(doc):
    task(doc, "TK-12")["params"]["min_seats"] = 1


def task_unknown_building(doc):
    task(doc, "TK-01/WELL")["params"]["building"] = "CASTLE"


def task_negative_prestige(doc):
    task(doc, "TK-11")["prestige"] = -1


def influence_3_cards(doc):
    doc["influence"]["cards_per_value"] = {"6": 3}


def unknown_rule(doc):
    doc["rules"]["CHAPELS_ON_CELLS"] = True


def bad_rule_choice(doc):
    doc["rules"]["PLANNING_MODE"] = "RANDOM"


def bad_fm_limit(doc):
    doc["rules"]["FM_LIMIT"] = 0


def bad_rule_flag(doc):
    doc["rules"]["MASTER_PARTS_OPTIONAL"] = "yes"


def bad_provenance(doc):
    doc["buildings"]["tiles"][2]["provenance"]["value"] = "guessed"


def missing_section(doc):
    del doc["goods"]


def misspelt_key(doc):
    doc["guilds"]["kinds"][0]["colour_en"] = "grey"


def planning_simultaneous(doc):
    doc["rules"]["PLANNING_MODE"] = "SIMULTANEOUS"


def screen_hides_resources(doc):
    doc["rules"]["SCREEN_HIDES_RESOURCES"] = True


def card_value_7(doc):
    doc["influence"]["cards_per_value"]["7"] = 1


def goods_of_a_guild_missing(doc):
    del doc["goods"]["tiles"]["BAKERS"]


def goods_of_two_values(doc):
    doc["goods"]["tiles"]["VINTNERS"][5] = 3


def start_coins_100(doc):
    doc["player_start"]["coins"] = 100


@pytest.mark.parametrize("breakage, message", [
    (cells_53, r"board\.cells: Too few items match the given schema \(expected at least 54 but only 53 matched\)"),
    (grid_9_by_9, r"board\.rows: is fixed at 6, found 9: the city is 6 rows x 9 columns \(SB-2\.2\); a board with 9 "
                  r"rows is the same city transposed, list it so"),
    (grid_6_by_6, r"board\.cols: is fixed at 9, found 6: the city is 6 rows x 9 columns"),
    (cell_twice, r"board cell \(0,0\): is listed twice"),
    (six_sites, r"board\.cells: 6 building sites, the city has exactly 7 \(SB-2\.2\)"),
    (bakers_split, r"board\.cells: the BAKERS spaces form 2 separate districts; a guild's spaces must be one "
                   r"orthogonally connected district"),
    (negative_price, r"board\.cells\.4\.price: -1 is less than the minimum of 0"),
    (fractional_price, r"board\.cells\.4\.price: 2\.5 is not of type 'integer', 'null'"),
    (site_with_guild, r"board cell \(1,1\): a building site has no guild and no price"),
    (space_without_price, r"board cell \(0,4\): a guild space has a printed price"),
    (unknown_cell_guild, r"board cell \(0,0\): unknown guild 'TANNERS'"),
    (four_chapel_spots, r"board\.chapel_spots: Too few items match the given schema \(expected at least 5 but only 4 "
                        r"matched\)"),
    (chapel_off_the_grid, r"board\.chapel_spots\.0\.vr: 7 is greater than the maximum of 6"),
    (chapel_cadj_off_the_grid, r"board\.chapel_spots\.0\.cadj\.0\.0: 6 is greater than the maximum of 5"),
    (chapel_cadj_not_around_vertex, r"chapel spot \(1,2\): cadj must be the cells around its vertex "
                                    r"\(rules\.CHAPEL_ADJACENCY = VERTEX, AMB-02\)"),
    (wall_not_the_ring, r"board\.wall: must be the outer ring of the grid, 26 cells \(rules\.CITY_WALL = OUTER_RING"),
    (three_corners, r"board\.corners: \[\[0, 0\], \[0, 8\], \[5, 0\]\] is too short"),
    (corner_not_a_grid_corner, r"board\.corners: must be the 4 corners of the grid \(rules\.CITY_WALL = OUTER_RING"),
    (guilds_4, r"guilds\.kinds: Too few items match the given schema \(expected at least 5 but only 4 matched\)"),
    (council_without_merchants, r"council\.seats: \['NOBILITY', 'CHURCH', 'SMITHS', .*\.\.\. is too short \(7 items, expected at least 8\)"),
    (council_out_of_order, r"council\.seats: must be NOBILITY, CHURCH, one seat per guild in guild order"),
    (round_cards_4, r"round_cards\.cards: Too few items match the given schema \(expected at least 5 but only 4 "
                    r"matched\)"),
    (round_card_unknown_guild, r"round card R2: unknown guild 'TANNERS'"),
    (round_card_two_guilds, r"round_cards\.cards\.1\.guilds: \['VINTNERS', 'SHOEMAKERS'\] is too short"),
    (round_card_same_guild_twice, r"round card R2: names a guild twice"),
    (shoemakers_on_2_cards, r"round_cards\.cards: SHOEMAKERS is named on 2 cards; each guild is auctioned on "
                            r"exactly 3 \(SB-19\.4\)"),
    (buildings_6, r"buildings\.tiles: Too many items match the given schema \(expected at most 5\)"),
    (negative_building, r"buildings\.tiles\.1\.value: -3 is less than the minimum of 0"),
    (goods_5_smiths, r"goods\.tiles\.SMITHS: \[5, 5, 5, 5, 5\] is too short"),
    (goods_unknown_guild, r"goods\.tiles\.TANNERS: unknown guild"),
    (goods_of_a_guild_missing, r"goods\.tiles\.BAKERS: the guild's 6 goods tiles are missing \(SB-1\.7\)"),
    (goods_of_two_values, r"goods\.tiles\.VINTNERS: all tiles of a guild must have the same value \(SB-19\.2\)"),
    (tasks_24, r"tasks\.cards: Too few items match the given schema \(expected at least 25 but only 24 matched\)"),
    (unknown_task_type, r"tasks\.cards\.24\.type: 'TK-18' is not one of \['TK-01', 'TK-02', "),
    (task_param_out_of_range, r"task TK-01/INN: min_family_members must be a whole number 1\.\.4"),
    (task_param_missing, r"task TK-13: parameter min_seats_5p is missing"),
    (task_param_unknown, r"task TK-12: unknown parameter 'min_seats' for TK-12 \(known: none\)"),
    (task_unknown_building, r"task TK-01/WELL: building 'CASTLE' is not a building of this file"),
    (task_negative_prestige, r"tasks\.cards\.18\.prestige: -1 is less than the minimum of 0"),      # TK-11
    (influence_3_cards, r"influence\.cards_per_value: a player's deck must hold 5\.\.24 cards .* found 3"),
    (card_value_7, r"influence\.cards_per_value: '7' does not match '\^\[1-6\]\$'"),
    (start_coins_100, r"player_start\.coins: 100 is greater than the maximum of 99"),
    (unknown_rule, r"rules: Additional properties are not allowed \('CHAPELS_ON_CELLS' was unexpected\)"),
    (bad_rule_choice, r"rules\.PLANNING_MODE: 'RANDOM' is not one of \['SEQUENTIAL', 'SIMULTANEOUS'\]"),
    (planning_simultaneous, r'rules\.PLANNING_MODE: is fixed at "SEQUENTIAL", found "SIMULTANEOUS": players plan '
                            r"in seat order from the start player, .* \(AMB-10\); SIMULTANEOUS is not implemented"),
    (screen_hides_resources, r"rules\.SCREEN_HIDES_RESOURCES: is fixed at false, found true: coins, goods and "
                             r"privileges follow from public history \(SB-16\.2\); hiding them is not implemented"),
    (bad_fm_limit, r"rules\.FM_LIMIT: 0 is less than the minimum of 1"),
    (bad_rule_flag, r"rules\.MASTER_PARTS_OPTIONAL: 'yes' is not of type 'boolean'"),
    (bad_provenance, r"buildings\.tiles\.2\.provenance\.value: 'guessed' is not one of \['rulebook', 'sourced', "
                     r"'reconstructed'\]"),
    (missing_section, r"the top level: 'goods' is a required property"),
    (misspelt_key, r"guilds\.kinds\.0: Additional properties are not allowed \('colour_en' was unexpected\)"),
])
def test_invalid_data_gives_a_one_line_error_naming_file_item_and_constraint(breakage, message):
    doc = copy.deepcopy(shipped())
    breakage(doc)
    with pytest.raises(UserError, match=r"^Strasbourg data file sb\.json: " + message) as info:
        load_doc(doc)
    assert "\n" not in str(info.value)


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(UserError, match="cannot read Strasbourg data file"):
        components.load(str(tmp_path / "none.json"))
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(UserError, match=r"broken\.json is not valid JSON"):
        components.load(str(broken))
