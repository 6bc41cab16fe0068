"""The Notre Dame data file loads into kernel tables and bad files give one-line errors
(docs/notre_dame.md ND-1, ND-2.2, ND-15, §21; issue 3 "Component data")."""
import copy
import json

import numpy as np
import pytest

from simcore.boardgames.notre_dame import components
from simcore.datafile import shipped_path
from simcore.contract import UserError


def shipped():
    with open(components.default_path(), encoding="utf-8") as fh:
        return json.load(fh)


def load_doc(doc):
    return components.from_document(doc, "nd.json")


def person(doc, effect):
    return next(p for p in doc["persons"] if p["effect"] == effect)


def test_the_shipped_file_loads_with_the_spec_defaults():
    data = components.load(None)
    assert data.rules == components.RULE_DEFAULTS                     # §19 defaults
    assert data.street_graphs == ["core", "inner_outer"]
    assert data.street_graph == 0
    assert data.reconstructed


def test_markets_per_layout():                                          # ND-1.4, §21.6
    data = components.load(None)
    for players, districts in ((2, 4), (3, 3), (4, 4), (5, 5)):
        assert data.districts[players] == districts
        assert data.distances(players).shape == (5 * districts, 5 * districts)
        assert (data.distances(players) >= 0).all()                   # every market reachable
    assert data.market_name(int(data.central_market[2])) == "2.C"
    assert [data.market_name(int(m)) for m in data.message_markets[1]] == ["1.I_ccw", "1.I_cw", "1.O_ccw", "1.O_cw"]


def test_known_distances_of_the_placeholder_graph():                   # research §1.3 table
    data = components.load(None)
    core, inner_outer = 0, 1
    c0, c1, c2 = (int(data.central_market[d]) for d in range(3))
    d4 = data.distances(4, core)
    assert d4[c0, c1] == 3 and d4[c0, c2] == 6
    assert data.distances(4, inner_outer)[c0, c2] == 5
    assert data.distances(5, core)[c0, c2] == 6
    assert data.distances(3, core)[c0, c1] == 3
    assert data.distances(2, core)[c0, c2] == 6                       # 2p: the 4-district board
    assert data.n_neighbours[core, 4, c0] == 4


def test_two_players_sit_in_opposite_districts_with_two_neutral():     # ND-2.2
    data = components.load(None)
    assert list(data.seat_district[2, :2]) == [0, 2]
    assert list(np.flatnonzero(data.neutral_district[2])) == [1, 3]
    assert not data.neutral_district[4].any()


def stage_totals(data):
    return dict(zip(components.LETTERS, data.stage_rats()))


def test_the_shipped_rats_meet_the_published_stage_totals():           # ND-4.2, ND-10.1; issue 17 part 4
    """12, 13 and 12 rats in stages A, B and C (a player's published count, 37 a game): the six
    brown cards plus the stage's three grey ones. The totals are sourced, each card's rats are
    reconstructed: 0-3, the brown cards as before (9), the grey ones spread 0..3 in every stage."""
    data = components.load(None)
    assert stage_totals(data) == data.rats_per_stage == {"A": 12, "B": 13, "C": 12}
    assert sum(data.stage_rats()) == 37
    assert data.provenance["rats_per_stage"] == "sourced"
    assert data.provenance["persons.rats"] == "reconstructed"
    assert data.warnings == []
    rats = dict(zip(data.person_ids, data.person_rats.tolist()))
    assert [rats[f"B{i}"] for i in range(1, 7)] == [3, 2, 2, 1, 1, 0]
    assert [rats[f"G{i}"] for i in range(1, 10)] == [0, 1, 2, 1, 3, 0, 0, 2, 1]
    assert all(min(rats[f"G{i}"] for i in letter) == 0 for letter in ((1, 2, 3), (4, 5, 6), (7, 8, 9)))


def test_the_earlier_reconstruction_ships_as_its_own_file():          # 13/16/16, notre-dame-v1
    data = components.load(shipped_path(components.PACKAGE, "notre_dame_rats45.json"))
    assert data.data_set_id == "notre-dame-v1"
    assert stage_totals(data) == data.rats_per_stage == {"A": 13, "B": 16, "C": 16}
    assert data.provenance["rats_per_stage"] == "reconstructed"
    assert data.warnings == []
    assert round(float(data.person_rats.mean()), 2) == 1.8


def test_cards_that_miss_a_stage_total_warn_and_play_their_own_rats():
    doc = shipped()
    person(doc, "LAWYER")["rats"] = 2
    data = load_doc(doc)
    assert data.warnings == ["the persons' rats put 12/15/12 rats in stage(s) A/B/C (the six brown cards and the "
                             "stage's three grey ones), rats_per_stage says 12/13/12 (sourced)"]
    assert data.stage_rats() == [12, 15, 12]
    del doc["rats_per_stage"]["A"], doc["rats_per_stage"]["C"], doc["rats_per_stage"]["provenance"]
    assert load_doc(doc).warnings == ["the persons' rats put 15 rats in stage(s) B (the six brown cards and the "
                                      "stage's three grey ones), rats_per_stage says 13"]
    del doc["rats_per_stage"]                                          # no totals stated: nothing to check
    assert load_doc(doc).warnings == []


def test_constant_rats_switch_gives_the_placeholder_2_everywhere():    # §21.4
    doc = shipped()
    doc["rules"]["CONSTANT_RATS"] = True
    data = load_doc(doc)
    assert (data.person_rats == 2).all()
    assert not (data.person_rats_printed == 2).all()
    assert data.stage_rats() == [18, 18, 18]
    assert data.warnings == []                                         # the totals are the printed cards'


def test_persons_letters_and_effects():                                # ND-2.5, ND-15
    data = components.load(None)
    assert (~data.person_grey).sum() == 6
    assert [int((data.person_letter == k).sum()) for k in range(3)] == [3, 3, 3]
    assert sorted(components.EFFECTS[e] for e in data.person_effect) == sorted(components.EFFECTS)
    watchman = components.EFFECTS.index("NIGHT_WATCHMAN")
    assert data.person_letter[list(data.person_effect).index(watchman)] == 0      # A


def test_messages_payouts_and_donations():                             # ND-1.3, ND-1.4, ND-8.1
    data = components.load(None)
    assert list(data.message_vp) == [1, 2, 3, 4]
    assert list(data.message_gold) == [1, 0, 0, 0]
    assert list(data.message_cubes) == [0, 1, 0, 0]
    assert list(data.message_rat_back) == [0, 0, 1, 0]
    assert sorted(data.colour_tiles.tolist()) == [0, 1, 2, 3]
    assert list(data.nd_payout[2:]) == [6, 8, 10, 12]
    assert list(data.donation_vp) == [0, 1, 3, 6]


def test_street_graph_switch_selects_the_variant():
    doc = shipped()
    doc["rules"]["STREET_GRAPH"] = "inner_outer"
    data = load_doc(doc)
    assert data.street_graph == 1
    assert data.distances(4)[0, int(data.central_market[2])] == 5


def break_reachability(doc):
    layout = doc["board"]["street_graphs"]["core"]["4"]
    layout["streets"] = [s for s in layout["streets"] if "2.C" not in s]


def drop_market(doc):
    doc["board"]["markets_per_district"].pop()


def rats_4(doc):
    person(doc, "MONK")["rats"] = 4


def fourteen_persons(doc):
    doc["persons"].pop()


def letters_4_2_3(doc):
    person(doc, "GUILD_MASTER")["letter"] = "A"


def unknown_effect(doc):
    person(doc, "MONK")["effect"] = "ABBOT"


def no_payout_for_5(doc):
    del doc["notre_dame"]["payout_by_players"]["5"]


def unknown_rule(doc):
    doc["rules"]["F_NO_SUCH_FLAG"] = True


def unknown_street_graph(doc):
    doc["rules"]["STREET_GRAPH"] = "real"


def market_off_the_board(doc):
    doc["board"]["street_graphs"]["core"]["3"]["streets"].append(["2.C", "3.C"])


def bad_rule_choice(doc):
    doc["rules"]["F_PLAGUE_MODE"] = "FAST"


def bad_provenance(doc):
    person(doc, "MONK")["provenance"]["rats"] = "guessed"


def two_player_not_opposite(doc):
    doc["board"]["two_player"]["player_districts"] = [0, 1]


def misspelt_key(doc):
    person(doc, "MONK")["rat"] = 1


def payout_as_text(doc):
    doc["notre_dame"]["payout_by_players"]["2"] = "6"


def huge_donation(doc):
    doc["notre_dame"]["donation_vp"]["3"] = 10**6


def secret_vp(doc):
    doc["rules"]["F_VP_PUBLIC"] = False


def three_players_on_four_districts(doc):
    doc["board"]["districts_by_players"]["3"] = 4


def unknown_message_kind(doc):
    doc["messages"]["tiles_per_colour"][0] = "M5"


@pytest.mark.parametrize("breakage, message", [
    # the schema (data/notre_dame.schema.json): shape, types, ranges, lengths
    (drop_market, r"board\.markets_per_district: \['C', 'I_ccw', 'I_cw', 'O_ccw'\] is too short"),
    (rats_4, r"persons\.1\.rats: 4 is greater than the maximum of 3"),
    (fourteen_persons, r"persons: Too few items match the given schema \(expected at least 15 but only 14 matched\)"),
    (unknown_effect, r"persons\.1\.effect: 'ABBOT' is not one of \['HOUSEKEEPER', 'MONK', "),
    (no_payout_for_5, r"notre_dame\.payout_by_players: '5' is a required property"),
    (unknown_rule, r"rules: Additional properties are not allowed \('F_NO_SUCH_FLAG' was unexpected\)"),
    (bad_rule_choice, r"rules\.F_PLAGUE_MODE: 'FAST' is not one of \['NET', 'SEQUENTIAL', 'NET_NO_BACK'\]"),
    (bad_provenance, r"persons\.1\.provenance\.rats: 'guessed' is not one of \['rulebook', 'sourced', 'reconstructed'\]"),
    (misspelt_key, r"persons\.1: Additional properties are not allowed \('rat' was unexpected\)"),
    (payout_as_text, r"notre_dame\.payout_by_players\.2: '6' is not of type 'integer'"),
    (huge_donation, r"notre_dame\.donation_vp\.3: 1000000 is greater than the maximum of 999"),
    # the loader's own constraints
    (break_reachability, r"street graph core, 4 districts: market 2\.C cannot be reached from 0\.C"),
    (letters_4_2_3, r"persons: 4 grey cards carry letter A, each letter needs 3 \(3/3/3\)"),
    (unknown_street_graph, r"rules\.STREET_GRAPH: names no street graph \(known: core, inner_outer\)"),
    (market_off_the_board, r"street graph core, 3 districts: market 3\.C lies in district 3, but the board has districts 0\.\.2"),
    (two_player_not_opposite, r"board\.two_player\.player_districts: must be two opposite districts"),
    (unknown_message_kind, r"messages\.tiles_per_colour\.0: names no message kind \(known: M1, M2, M3, M4\)"),
    # values the rules fix
    (secret_vp, r"rules\.F_VP_PUBLIC: is fixed at true: the simulator's players remember every public event"),
    (three_players_on_four_districts, r"board\.districts_by_players\.3: is fixed by the rules at 3 \(ND-1\.4\)"),
])
def test_invalid_data_gives_a_one_line_error_naming_file_item_and_constraint(breakage, message):
    doc = copy.deepcopy(shipped())
    breakage(doc)
    with pytest.raises(UserError, match=r"^Notre Dame data file nd\.json: " + message) as info:
        load_doc(doc)
    assert "\n" not in str(info.value)


def test_a_document_that_is_not_an_object_is_refused_by_the_schema():
    with pytest.raises(UserError, match=r"^Notre Dame data file nd\.json: the top level: \[\] is not of type 'object'$"):
        load_doc([])


def test_the_schema_agrees_with_the_kernels_tables():
    """The schema's bounds are the sizes and codes the loader and the kernels use."""
    with open(shipped_path(components.PACKAGE, components.SCHEMA), encoding="utf-8") as fh:
        schema = json.load(fh)
    defs = schema["$defs"]
    rules = defs["rules"]["properties"]
    assert list(rules) == list(components.RULE_DEFAULTS)
    assert {name: tuple(rules[name]["enum"]) for name in components.RULE_CHOICES} == components.RULE_CHOICES
    assert tuple(defs["person"]["properties"]["effect"]["enum"]) == components.EFFECTS
    assert defs["person"]["properties"]["letter"]["enum"] == [None, *components.LETTERS]
    assert defs["rats"]["maximum"] == components.MAX_RATS
    persons = schema["properties"]["persons"]
    assert persons["minContains"] == persons["maxContains"] == components.N_PERSONS
    kinds = defs["messages"]["properties"]["kinds"]
    assert kinds["minContains"] == kinds["maxContains"] == components.MESSAGE_KINDS
    markets = defs["board"]["properties"]["markets_per_district"]
    assert markets["minItems"] == markets["maxItems"] == components.MARKETS_PER_DISTRICT
    assert list(defs["person"]["properties"]["provenance"]["properties"]) == list(components.PERSON_PROVENANCE_KEYS)


def test_neutral_districts_get_messages_by_default_and_not_when_the_file_says_so():   # ND-2.2, A-23
    doc = shipped()
    assert components.load(None).district_messages[2, :4].tolist() == [True] * 4
    doc["board"]["two_player"]["neutral_districts_get_messages"] = False
    data = load_doc(doc)
    assert data.district_messages[2, :4].tolist() == [True, False, True, False]
    assert data.district_messages[4, :4].tolist() == [True] * 4         # only the 2-player board has neutrals


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(UserError, match="cannot read Notre Dame data file"):
        components.load(str(tmp_path / "none.json"))
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(UserError, match=r"broken\.json is not valid JSON"):
        components.load(str(broken))
