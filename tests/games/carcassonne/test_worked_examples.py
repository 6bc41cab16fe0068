"""The worked examples of the rules, as tests: carcassonne_ark.md CA-15 (EX-01 ... EX-23, with
their b/variant lines and flag variants) and carcassonne_base.md CB-5 (CB-5.1 ... CB-5.7).

Each setup reads like the spec's setup lines: p.place(x, y, FIXTURE, rot, figures...).
Seats RED=0, BLUE=1, GREEN=2, YELLOW=3, BLACK=4; 5 players unless stated.
"""
from .builder import AVAILABLE, BLACK, BLUE, BOXED, GREEN, ON_BOARD, RED, YELLOW, Position

ALL_ZERO = {}


# ---------------------------------------------------------------- EX-01, EX-02: tiles

def test_ex01_placement_legality_deduplicated():
    """EX-01, CA-4.2, CA-13.1, CA-13.6: legal (x, y, rot) in canonical order, symmetric rotations merged."""
    p = Position()
    p.place(0, 0, "CITY_CAP_ROAD_STRAIGHT", 0)
    assert p.placements("ROAD_CURVE") == [(-1, 0, 2), (-1, 0, 3), (0, -1, 0), (0, -1, 3), (1, 0, 0), (1, 0, 1)]
    assert p.placements("CITY_CAP") == [(0, -1, 1), (0, -1, 2), (0, -1, 3), (0, 1, 2)]
    assert (0, -1, 0) not in p.placements("CITY_CAP")    # city would face the start tile's field
    assert p.placements("ROAD_STRAIGHT") == [(-1, 0, 0), (0, -1, 0), (1, 0, 0)]
    assert p.placements("CITY_TUBE") == [(0, -1, 0), (0, 1, 1)]
    assert p.placements("CROSSROADS") == [(-1, 0, 0), (1, 0, 0)]
    assert p.placements("TEMPLE") == [(0, -1, 0)]
    assert p.placements("CITY_FULL") == [(0, 1, 0)]


def test_ex01_placement_legality_raw():
    """EX-01 raw lists, DEDUPE_SYMMETRIC_PLACEMENTS=False (CA-11, CA-13.1)."""
    p = Position(DEDUPE_SYMMETRIC_PLACEMENTS=False)
    p.place(0, 0, "CITY_CAP_ROAD_STRAIGHT", 0)
    assert p.placements("ROAD_CURVE") == [(-1, 0, 2), (-1, 0, 3), (0, -1, 0), (0, -1, 3), (1, 0, 0), (1, 0, 1)]
    assert p.placements("CITY_CAP") == [(0, -1, 1), (0, -1, 2), (0, -1, 3), (0, 1, 2)]
    assert p.placements("ROAD_STRAIGHT") == [(-1, 0, 0), (-1, 0, 2), (0, -1, 0), (0, -1, 2), (1, 0, 0), (1, 0, 2)]
    assert p.placements("CITY_TUBE") == [(0, -1, 0), (0, -1, 2), (0, 1, 1), (0, 1, 3)]
    assert p.placements("CROSSROADS") == [(-1, 0, r) for r in range(4)] + [(1, 0, r) for r in range(4)]
    assert p.placements("TEMPLE") == [(0, -1, r) for r in range(4)]
    assert p.placements("CITY_FULL") == [(0, 1, r) for r in range(4)]


def test_ex02_unplaceable_tiles_are_discarded():
    """EX-02, CA-4.4, AMB-11: unplaceable tiles go to the box and the same player draws again."""
    p = Position()
    p.place(0, 0, "CITY_FULL", 0)
    p.set_pile(["TEMPLE", "ROAD_STRAIGHT", "CITY_CAP", "MEADOW"])
    assert p.draw() == "CITY_CAP"
    assert p.st["discarded"] == 2
    assert p.placements("CITY_CAP") == [(-1, 0, 1), (0, -1, 0), (0, 1, 2), (1, 0, 3)]
    p.turn(RED, "CITY_CAP", 0, 1, 2)
    assert p.pile() == ["MEADOW"]
    assert p.st["discarded"] == 2
    assert p.st["n_placed"] == 2


def test_ex02b_discard_empties_the_pile():
    """EX-02b, CA-10.1b: the last tile is discarded, the game ends at once, all scores 0."""
    p = Position()
    p.place(0, 0, "CITY_FULL", 0)
    p.set_pile(["TEMPLE"])
    assert p.draw() is None
    assert p.st["discarded"] == 1
    assert p.pile() == []
    assert p.st["n_placed"] == 1
    assert p.final() == []
    assert p.points() == ALL_ZERO


# ---------------------------------------------------------------- EX-03 ... EX-07: roads and cities

def test_ex03_green_scores_4_for_the_completed_road():
    """EX-03, CA-8.3, CA-9.3, CA-9.5."""
    p = Position()
    p.place(0, 0, "CROSSROADS", 0)
    p.place(1, 0, "ROAD_STRAIGHT", 0, "GREEN@road")
    p.place(2, 0, "ROAD_STRAIGHT", 0)
    assert p.supply(GREEN) == 6
    p.turn(RED, "CITY_CAP_ROAD_END", 3, 0, 1, "PASS")
    assert p.last_events == [("GREEN", 4, "ROAD")]
    assert p.points() == {"GREEN": 4}
    assert p.supply(GREEN) == 7
    assert p.entries == [] and p.ark() is None          # no city completed: the Ark stays OFF


def test_ex04_three_tiles_three_oases_blue_scores_6():
    """EX-04, CA-9.3, AMB-19: the oasis on road_n belongs to another road."""
    p = Position()
    p.place(0, 0, "CROSSROADS road_e.oases=1 road_n.oases=1", 0)
    p.place(1, 0, "ROAD_STRAIGHT road.oases=1", 0, "BLUE@road")
    p.turn(RED, "CITY_CAP_ROAD_END road.oases=1", 2, 0, 1, "PASS")
    assert p.last_events == [("BLUE", 6, "ROAD")]
    assert p.points() == {"BLUE": 6}


def test_ex05_black_scores_8_and_the_ark_enters():
    """EX-05, CA-9.4, CA-7.2, AMB-10: city 6 + scroll 2; entry options are the city's tiles."""
    p = Position()
    p.place(0, 0, "CITY_CAP", 2)
    p.place(0, -1, "CITY_TUBE city.scrolls=1", 1, "BLACK@city")
    assert p.supply(BLACK) == 6
    entry = p.turn(RED, "CITY_CAP", 0, -2, 0, "FOLLOWER@field")
    assert p.last_events == [("BLACK", 8, "CITY")]
    assert p.points() == {"BLACK": 8}
    assert p.supply(BLACK) == 7
    assert p.supply(RED) == 6                           # the field follower stays
    assert p.entries == [(0, -2), (0, -1), (0, 0)]
    assert entry == (0, -2) and p.ark() == (0, -2)


def test_ex05_entry_scope_placed_tile():
    """EX-05 with ARK_ENTRY_SCOPE=PLACED_TILE (CA-11, AMB-10): only the placed tile."""
    p = Position(ARK_ENTRY_SCOPE="PLACED_TILE")
    p.place(0, 0, "CITY_CAP", 2)
    p.place(0, -1, "CITY_TUBE city.scrolls=1", 1, "BLACK@city")
    p.turn(RED, "CITY_CAP", 0, -2, 0, "FOLLOWER@field")
    assert p.entries == [(0, -2)]
    assert p.ark() == (0, -2)
    assert p.points() == {"BLACK": 8}
    assert p.supply(RED) == 6


def ex06_setup(**flags):
    p = Position(**flags)
    p.place(0, 0, "ROAD_CURVE", 0)
    p.place(0, 1, "CITY_TUBE", 0)
    p.place(-1, 1, "CITY_TUBE", 0)
    return p


EX06_CITY = [(-2, 1), (-1, 1), (0, 1), (1, -1), (1, 0), (1, 1)]


def test_ex06_merged_city_tie_blue_and_yellow_14():
    """EX-06, CA-0.11, CA-5.3, CA-5.5, CA-9.4, CA-9.5."""
    p = ex06_setup()
    p.place(-2, 1, "CITY_CAP", 1, "BLUE@city")
    p.place(1, 0, "CITY_TUBE city.scrolls=1", 1)
    p.place(1, -1, "CITY_CAP", 0, "YELLOW@city")
    p.lay(RED, "CITY_CORNER", 1, 1, 3)
    assert p.options(RED) == ["PASS", "FOLLOWER@field"]
    p.act(RED, "PASS")
    assert sorted(p.last_events) == [("BLUE", 14, "CITY"), ("YELLOW", 14, "CITY")]
    assert p.points() == {"BLUE": 14, "YELLOW": 14}
    assert p.supply(BLUE) == 7 and p.supply(YELLOW) == 7
    assert p.entries == EX06_CITY


def test_ex07_complete_and_occupy_a_road_in_the_same_turn():
    """EX-07, CA-5.6: complete by placement, place follower, score, return."""
    p = Position()
    p.place(0, 0, "CROSSROADS", 0)
    p.place(1, 0, "ROAD_STRAIGHT road.oases=1", 0)
    assert p.supply(BLUE) == 7
    p.lay(BLUE, "CITY_CAP_ROAD_END", 2, 0, 1)
    assert "FOLLOWER@road" in p.options(BLUE)
    p.act(BLUE, "FOLLOWER@road")
    assert p.after_a["supply"][BLUE] == 6
    assert p.last_events == [("BLUE", 4, "ROAD")]
    assert p.points() == {"BLUE": 4}
    assert p.supply(BLUE) == 7


# ---------------------------------------------------------------- EX-08: the Ark

def ex08_setup(**flags):
    p = Position(**flags)
    p.place(0, 0, "CROSSROADS", 0)
    p.place(1, 0, "ROAD_STRAIGHT", 0, "GREEN@field_n")
    p.place(2, 0, "ROAD_STRAIGHT", 0, "BLUE@road")
    p.place(3, 0, "ROAD_STRAIGHT", 0)
    p.place(4, 0, "ROAD_STRAIGHT", 0, "RED@field_s")
    p.set_ark(1, 0)
    p.lay(RED, "ROAD_STRAIGHT", 0, -1, 1)
    return p


def test_ex08_ark_outcomes():
    """EX-08, CA-7.5, CA-13.6, AMB-08: 10 paths, 10 outcomes, DFS N, E, S, W, shorter first; a path
    may pass back over the start (1,0) once, but never end there or enter a tile twice."""
    p = ex08_setup()
    assert p.options(RED)[-1] == "ARK"
    paths = p.ark_outcomes()
    assert paths == [
        [(2, 0)], [(2, 0), (3, 0)], [(2, 0), (3, 0), (4, 0)],
        [(2, 0), (1, 0), (0, 0)], [(2, 0), (1, 0), (0, 0), (0, -1)],
        [(0, 0)], [(0, 0), (1, 0), (2, 0)], [(0, 0), (1, 0), (2, 0), (3, 0)],
        [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)], [(0, 0), (0, -1)],
    ]
    for illegal in ([(2, 0), (1, 0)], [(3, 0)], [(0, 0), (1, 0)], [(2, 0), (1, 0), (2, 0)]):
        assert illegal not in paths


def test_ex08_ark_outcomes_start_counts_as_entered():
    """EX-08 with ARK_MAY_REENTER_START=False (AMB-08, the specification's reading): 5 paths, 5
    outcomes; none comes back over the start (1,0)."""
    p = ex08_setup(ARK_MAY_REENTER_START=False)
    paths = p.ark_outcomes()
    assert paths == [[(2, 0)], [(2, 0), (3, 0)], [(2, 0), (3, 0), (4, 0)], [(0, 0)], [(0, 0), (0, -1)]]
    for illegal in ([(2, 0), (1, 0)], [(3, 0)], [(0, 0), (1, 0), (2, 0)]):
        assert illegal not in paths


def test_ex08_ark_passes_a_blue_and_a_red_follower():
    """EX-08, CA-7.6, CA-7.7, AMB-07: 1 point per figure on the entered tiles, start tile excluded."""
    p = ex08_setup()
    p.act(RED, [(2, 0), (3, 0), (4, 0)])
    assert sorted(p.last_events) == [("BLUE", 1, "ARK"), ("RED", 1, "ARK")]
    assert p.points() == {"RED": 1, "BLUE": 1}              # GREEN is on the start tile: 0
    assert p.ark() == (4, 0)


def test_ex08_passing_back_over_the_start_pays_nothing_there():
    """EX-08, CA-7.6, AMB-08: from (1,0) west and back east over the start to (4,0): BLUE and RED 1
    each as before, GREEN's follower on the start tile still nothing."""
    p = ex08_setup()
    p.act(RED, [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)])
    assert sorted(p.last_events) == [("BLUE", 1, "ARK"), ("RED", 1, "ARK")]
    assert p.points() == {"RED": 1, "BLUE": 1}
    assert p.ark() == (4, 0)


# ---------------------------------------------------------------- EX-09: temples

def ex09_setup():
    p = Position()
    p.place(1, 1, "MEADOW")
    p.place(1, 0, "CITY_CAP", 1, "GREEN@city")
    p.place(0, 1, "CITY_CAP", 0, "GREEN@city")
    p.place(0, 0, "TEMPLE_ROAD", 0, "RED@road")
    p.place(-1, 0, "CITY_CAP", 3, "RED@city")
    p.lay(YELLOW, "CROSSROADS", 0, -1, 0)
    return p


def test_ex09_temple_majority_after_road_removal():
    """EX-09, CA-9.5, CA-9.6, AMB-02: the road scores and its follower leaves before the temple."""
    p = ex09_setup()
    assert p.options(YELLOW) == ["PASS", "FOLLOWER@road_e", "FOLLOWER@road_s", "FOLLOWER@road_w",
                                 "FOLLOWER@field_ne", "FOLLOWER@field_se", "FOLLOWER@field_sw",
                                 "FOLLOWER@field_nw"]
    assert p.supply(RED) == 5 and p.supply(GREEN) == 5
    p.act(YELLOW, "PASS")
    assert p.last_events == [("RED", 2, "ROAD"), ("GREEN", 7, "TEMPLE7")]
    assert p.points() == {"RED": 2, "GREEN": 7}
    assert p.supply(RED) == 6
    assert p.supply(GREEN) == 5                             # temple figures stay


def test_ex09b_final_scoring_after_the_temple():
    """EX-09b, CA-10.2, CA-10.3: the completed temple is not re-scored."""
    p = ex09_setup()
    p.act(YELLOW, "PASS")
    events = p.final()
    assert sorted(events) == [("GREEN", 1, "CITY_END"), ("GREEN", 1, "CITY_END"), ("RED", 1, "CITY_END")]
    assert p.points() == {"RED": 3, "GREEN": 9}


# ---------------------------------------------------------------- EX-10: fields

def test_ex10_tile_merging_two_occupied_fields():
    """EX-10, CA-5.3, CA-5.5, CA-12.2: placement is legal; the merged field is occupied."""
    p = Position()
    p.place(1, -1, "CITY_TUBE", 0)
    p.place(0, -1, "CITY_TUBE", 0)
    p.place(2, -1, "CITY_TUBE", 0)
    p.place(0, 0, "ROAD_STRAIGHT", 0, "GREEN@field_n")
    p.place(2, 0, "ROAD_STRAIGHT", 0, "RED@field_n")
    p.lay(BLUE, "ROAD_STRAIGHT", 1, 0, 0)
    assert p.options(BLUE) == ["PASS", "FOLLOWER@road", "FOLLOWER@field_s"]
    p.act(BLUE, "PASS")
    assert p.st["n_completed"] == 0
    assert p.last_events == []


# ---------------------------------------------------------------- EX-11 ... EX-13: prophets

def test_ex11_prophet_doubles_a_completed_city():
    """EX-11, CA-6.5, CA-6.6: BLUE's prophet ties YELLOW, BLUE 28 and YELLOW 14."""
    p = ex06_setup()
    p.place(-2, 1, "CITY_CAP", 1, "BLUE PROPHET@city")
    p.place(1, 0, "CITY_TUBE city.scrolls=1", 1)
    p.place(1, -1, "CITY_CAP", 0, "YELLOW@city")
    assert p.prophet(BLUE) == ON_BOARD
    p.turn(RED, "CITY_CORNER", 1, 1, 3, "PASS")
    assert sorted(p.last_events) == [("BLUE", 28, "CITY_PROPHET"), ("YELLOW", 14, "CITY")]
    assert p.points() == {"BLUE": 28, "YELLOW": 14}
    assert p.prophet(BLUE) == BOXED
    assert p.supply(BLUE) == 7 and p.supply(YELLOW) == 7


def test_ex12_prophet_and_follower_against_two_followers():
    """EX-12, CA-6.5, AMB-15: BLUE counts 2 (prophet + follower), ties RED 2; BLUE doubled."""
    p = Position()
    p.place(1, 1, "MEADOW")
    p.place(0, 1, "CITY_CAP", 2, "BLUE PROPHET@city")
    p.place(1, 0, "CITY_CAP", 3, "BLUE@city")
    p.place(-1, 1, "MEADOW")
    p.place(-1, 0, "CITY_CAP", 1, "RED@city")
    p.place(1, -1, "MEADOW")
    p.place(0, -1, "CITY_CAP city.scrolls=1", 0, "RED@city")
    assert p.supply(RED) == 5 and p.supply(BLUE) == 6
    p.turn(YELLOW, "CITY_FULL", 0, 0, 0, "PASS")
    assert sorted(p.last_events) == [("BLUE", 24, "CITY_PROPHET"), ("RED", 12, "CITY")]
    assert p.points() == {"RED": 12, "BLUE": 24}
    assert p.supply(RED) == 7 and p.supply(BLUE) == 7
    assert p.prophet(BLUE) == BOXED
    assert p.entries == [(-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)]


def ex13_setup(**flags):
    p = Position(**flags)
    p.place(0, 0, "CITY_CAP", 2)
    p.place(0, -1, "CITY_TUBE city.scrolls=1", 1, "BLUE PROPHET@city")
    return p


def test_ex13_prophet_in_an_unfinished_city():
    """EX-13, CA-6.8, AMB-05: 2 tiles + 1 scroll, not doubled."""
    p = ex13_setup()
    assert p.final() == [("BLUE", 3, "CITY_END")]
    assert p.points() == {"BLUE": 3}


def test_ex13_prophet_doubles_incomplete():
    """EX-13 with PROPHET_DOUBLES_INCOMPLETE=True (CA-11): BLUE 6."""
    p = ex13_setup(PROPHET_DOUBLES_INCOMPLETE=True)
    p.final()
    assert p.points() == {"BLUE": 6}


# ---------------------------------------------------------------- EX-14 ... EX-16: final scoring

def ex14_setup(extra_red=False):
    p = Position()
    p.place(1, -1, "CITY_TUBE", 0)
    p.place(0, -1, "CITY_TUBE", 0)
    p.place(2, -1, "CITY_TUBE", 0)
    p.place(3, -1, "CITY_TUBE", 0)
    p.place(0, 0, "ROAD_STRAIGHT", 0, "RED@field_n")
    if extra_red:
        p.figure(0, 0, "RED@field_n")                  # "if RED had two followers" (AMB-23)
    p.place(3, 0, "ROAD_STRAIGHT", 0, "BLUE@field_n")
    p.place(1, 0, "ROAD_STRAIGHT field_n.sheep=2 field_s.sheep=1", 0, "YELLOW@road")
    p.lay(GREEN, "ROAD_STRAIGHT field_n.sheep=1 field_n.wolves=1", 2, 0, 0)
    return p


def test_ex14_field_with_sheep_and_a_wolf_tied_followers():
    """EX-14, CA-10.2 steps 2-3, CA-0.11: road 4 to YELLOW; north field 2*(3-1)=4 to RED and BLUE."""
    p = ex14_setup()
    assert p.options(GREEN) == ["PASS", "FOLLOWER@field_s"]
    p.act(GREEN, "PASS")
    events = p.final()
    assert events[0] == ("YELLOW", 4, "ROAD_END")
    assert sorted(events[1:]) == [("BLUE", 4, "FIELD"), ("RED", 4, "FIELD")]
    assert p.points() == {"RED": 4, "BLUE": 4, "YELLOW": 4}


def test_ex14_variant_red_two_followers():
    """EX-14 variant: RED 2 followers in the north field, so only RED scores the 4."""
    p = ex14_setup(extra_red=True)
    p.act(GREEN, "PASS")
    p.final()
    assert p.points() == {"RED": 4, "YELLOW": 4}


def ex15_setup(**flags):
    p = Position(**flags)
    p.place(0, 0, "CITY_CAP", 0)
    p.place(0, -1, "ROAD_STRAIGHT field_s.sheep=1 field_s.wolves=2", 0, "RED@field_s")
    return p


def test_ex15_wolves_outnumber_sheep():
    """EX-15, AMB-04: 2*max(0, 1-2) = 0."""
    p = ex15_setup()
    assert p.final() == []
    assert p.points() == ALL_ZERO


def test_ex15_field_score_may_be_negative():
    """EX-15 with FIELD_SCORE_MAY_BE_NEGATIVE=True (CA-11): RED -2."""
    p = ex15_setup(FIELD_SCORE_MAY_BE_NEGATIVE=True)
    assert p.final() == [("RED", -2, "FIELD")]
    assert p.points() == {"RED": -2}


def test_ex16_complete_final_scoring_with_an_unfinished_temple():
    """EX-16, CA-10.2 steps 1-3 in order, AMB-03: BLUE 3+2+2, RED 1."""
    p = Position()
    p.place(1, -1, "MEADOW")
    p.place(1, 0, "CITY_CAP field.sheep=1", 1, "RED@city")
    p.place(0, 0, "TEMPLE_ROAD", 0, "BLUE@field")
    p.place(0, -1, "ROAD_STRAIGHT", 1, "BLUE@road")
    assert p.points() == ALL_ZERO                       # step 4's phase S scored nothing
    events = p.final()
    assert events[0] == ("BLUE", 3, "TEMPLE3")
    assert sorted(events[1:3]) == [("BLUE", 2, "ROAD_END"), ("RED", 1, "CITY_END")]
    assert events[3:] == [("BLUE", 2, "FIELD")]
    assert p.points() == {"BLUE": 7, "RED": 1}


# ---------------------------------------------------------------- EX-17, EX-18: distinct tiles

def test_ex17_road_loop_through_a_crossroads_counts_distinct_tiles():
    """EX-17, CA-8.7, AMB-19: 5 segments on 4 tiles, GREEN 4."""
    p = Position()
    p.place(0, 0, "CROSSROADS", 0)
    p.place(0, 1, "ROAD_CURVE", 3)
    p.place(1, 1, "ROAD_CURVE", 0, "GREEN@road")
    p.turn(RED, "ROAD_CURVE", 1, 0, 1, "PASS")
    assert p.last_events == [("GREEN", 4, "ROAD")]
    assert p.points() == {"GREEN": 4}


def test_ex18_city_using_two_segments_of_one_tile():
    """EX-18, CA-8.7: one city, 5 segments on 4 tiles, 1 scroll: 2*4+2 = 10."""
    p = Position()
    p.place(0, 0, "CITY_TWO_CAPS_CORNER", 0)
    p.place(0, 1, "CITY_CORNER city.scrolls=1", 2, "BLUE@city")
    p.place(1, 1, "CITY_CORNER", 3)
    assert p.node(0, 0, "city_n") != p.node(0, 0, "city_e")
    p.turn(RED, "CITY_CORNER", 1, 0, 0, "PASS")
    assert p.last_events == [("BLUE", 10, "CITY")]
    assert p.points() == {"BLUE": 10}
    assert p.entries == [(0, 0), (0, 1), (1, 0), (1, 1)]


# ---------------------------------------------------------------- EX-19, EX-20: Ark timing and paths

def test_ex19_ark_points_come_before_completion_scoring():
    """EX-19, CA-7.6, AMB-20: Ark point in phase A, then the road in phase S."""
    p = Position()
    p.place(0, 0, "CROSSROADS", 0)
    p.place(1, 0, "ROAD_STRAIGHT", 0, "BLUE@road")
    p.set_ark(0, 0)
    p.lay(RED, "CITY_CAP_ROAD_END", 2, 0, 1)
    assert p.ark_outcomes() == [[(1, 0)], [(1, 0), (2, 0)]]
    p.act(RED, [(1, 0), (2, 0)])
    assert p.after_a["vp"][BLUE] == 1
    assert p.last_events == [("BLUE", 1, "ARK"), ("BLUE", 3, "ROAD")]
    assert p.points() == {"BLUE": 4}
    assert p.supply(BLUE) == 7
    assert p.ark() == (2, 0)


def square_of_meadows(**flags):
    p = Position(**flags)
    for x, y in ((0, 0), (1, 0), (0, 1), (1, 1)):
        p.place(x, y, "MEADOW")
    p.set_ark(0, 0)
    return p


def test_ex20_ark_path_enumeration_start_counts_as_entered():
    """EX-20 with ARK_MAY_REENTER_START=False (AMB-08), CA-7.5, CA-12.10, CA-13.6: 6 paths = 6 outcomes."""
    p = square_of_meadows(ARK_MAY_REENTER_START=False)
    assert p.ark_outcomes() == [[(0, 1)], [(0, 1), (1, 1)], [(0, 1), (1, 1), (1, 0)],
                                [(1, 0)], [(1, 0), (1, 1)], [(1, 0), (1, 1), (0, 1)]]


def test_ex20_ark_path_enumeration():
    """EX-20, CA-7.5, CA-12.10, CA-13.6, AMB-08: passing back over the start allowed, 10 paths and
    9 outcomes; [(0,1),(0,0),(1,0),(1,1)] and [(1,0),(0,0),(0,1),(1,1)] share one, and the first in
    DFS order is kept (CA-13.6)."""
    p = square_of_meadows()
    paths = p.ark_outcomes()
    assert len(paths) == 9
    assert paths == [[(0, 1)], [(0, 1), (1, 1)], [(0, 1), (1, 1), (1, 0)],
                     [(0, 1), (0, 0), (1, 0)], [(0, 1), (0, 0), (1, 0), (1, 1)],
                     [(1, 0)], [(1, 0), (1, 1)], [(1, 0), (1, 1), (0, 1)],
                     [(1, 0), (0, 0), (0, 1)]]
    assert [(1, 0), (0, 0), (0, 1), (1, 1)] not in paths


def test_ex20_line_variant():
    """EX-20 line variant: tiles (0,0), (1,0), (2,0), Ark at (0,0): 2 paths, with or without passing
    back over the start (AMB-08), which would have to end there."""
    for flags in ({}, {"ARK_MAY_REENTER_START": False}):
        p = Position(**flags)
        for x in range(3):
            p.place(x, 0, "MEADOW")
        p.set_ark(0, 0)
        assert p.ark_outcomes() == [[(1, 0)], [(1, 0), (2, 0)]]


# ---------------------------------------------------------------- EX-21 ... EX-23

def test_ex21_one_tile_completes_two_temples():
    """EX-21, CA-9.6, CA-9.7, CA-9.8: both temples score; RED's one follower counts for both."""
    p = Position()
    p.place(-1, 0, "TEMPLE")
    p.place(-2, 0, "MEADOW")
    p.place(-1, 1, "MEADOW", 0, "BLUE@field")
    for x, y in ((-1, -1), (-1, 2), (0, 2), (1, 2), (1, 1)):
        p.place(x, y, "MEADOW")
    p.place(1, 0, "TEMPLE")
    p.place(2, 0, "MEADOW")
    p.place(1, -1, "MEADOW")
    p.turn(RED, "CITY_TUBE", 0, 0, 1, "FOLLOWER@city")
    # temples in the order placed tile, N, E, S, W: (1,0) first, then (-1,0)
    assert p.last_events == [("RED", 7, "TEMPLE7"), ("RED", 7, "TEMPLE7"), ("BLUE", 7, "TEMPLE7")]
    assert p.points() == {"RED": 14, "BLUE": 7}
    assert p.supply(RED) == 6 and p.supply(BLUE) == 6  # all figures stay


def test_ex22_road_between_two_temples():
    """EX-22, AMB-22, CA-8.5: the road is complete, neither temple is."""
    p = Position()
    p.place(1, 0, "MEADOW")
    p.place(0, 0, "TEMPLE_ROAD", 0, "RED@road")
    p.turn(GREEN, "TEMPLE_ROAD", 0, -1, 2, "PASS")
    assert p.last_events == [("RED", 2, "ROAD")]
    assert p.points() == {"RED": 2}
    assert p.supply(RED) == 7
    assert list(p.st["cloister_done"][:3]) == [0, 0, 0]


def test_ex23_prophet_on_a_city_completed_by_the_same_tile():
    """EX-23, CA-5.6, CA-6.1, CA-6.6, CA-13.6: BLUE 8, prophet boxed at once and never offered again."""
    p = Position()
    p.place(0, 0, "CITY_CAP_ROAD_STRAIGHT", 0)
    p.lay(BLUE, "CITY_CAP", 0, 1, 2)
    assert p.options(BLUE) == ["PASS", "FOLLOWER@city", "FOLLOWER@field", "PROPHET@city"]
    p.act(BLUE, "PROPHET@city")
    assert p.after_a["prophet_state"][BLUE] == ON_BOARD
    assert p.last_events == [("BLUE", 8, "CITY_PROPHET")]
    assert p.points() == {"BLUE": 8}
    assert p.prophet(BLUE) == BOXED
    assert p.supply(BLUE) == 7
    assert p.entries == [(0, 0), (0, 1)]
    # a later BLUE turn with an open city: no PROPHET option; other prophets still available
    p.lay(BLUE, "CITY_CAP_ROAD_STRAIGHT", 1, 0, 0)
    assert p.options(BLUE) == ["PASS", "FOLLOWER@city", "FOLLOWER@road", "FOLLOWER@field_n",
                               "FOLLOWER@field_s", "ARK"]
    assert "PROPHET@city" in p.options(RED)
    assert p.prophet(RED) == AVAILABLE


# ---------------------------------------------------------------- CB-5: the base game (2 players)

def test_cb51_road_over_three_tiles():
    """CB-5.1, CB-3.1: Red 3."""
    p = Position("base", players=2)
    p.place(0, 0, "CROSSROADS", 0)
    p.place(1, 0, "ROAD_STRAIGHT", 0, "RED@road")
    p.turn(BLUE, "CITY_CAP_ROAD_END", 2, 0, 1, "PASS")
    assert p.last_events == [("RED", 3, "ROAD")]
    assert p.points() == {"RED": 3}
    assert p.supply(RED) == 7


def test_cb52_two_tile_city():
    """CB-5.2, CB-3.2: 4 points without pennant, 6 with one."""
    for cap, points in (("CITY_CAP", 4), ("CITY_CAP city.pennants=1", 6)):
        p = Position("base", players=2)
        p.place(0, 0, cap, 0, "RED@city")
        p.turn(BLUE, "CITY_CAP", 0, 1, 2, "PASS")
        assert p.last_events == [("RED", points, "CITY")]
        assert p.points() == {"RED": points}


def test_cb53_two_cities_joined_and_completed():
    """CB-5.3, CB-3.2, CB-3.4: 5 tiles + 1 pennant = 12 each."""
    p = Position("base", players=2)
    p.place(-1, 0, "CITY_TUBE", 0)
    p.place(-2, 0, "CITY_CAP", 1, "RED@city")
    for x in (-1, 0, 1):
        p.place(x, 1, "MEADOW")
    p.place(1, 0, "CITY_TUBE city.pennants=1", 0)
    p.place(2, 0, "CITY_CAP", 3, "BLUE@city")
    p.turn(RED, "CITY_TUBE", 0, 0, 0, "PASS")
    assert sorted(p.last_events) == [("BLUE", 12, "CITY"), ("RED", 12, "CITY")]
    assert p.points() == {"RED": 12, "BLUE": 12}


def test_cb54_majority_two_against_one():
    """CB-5.4, CB-3.4: 4-tile city, Red 2 Blue 1: Red 8, Blue 0; all three followers return."""
    p = Position("base", players=2)
    p.place(-1, 0, "CITY_CAP", 1, "RED@city")
    p.place(-1, 1, "MEADOW")
    p.place(0, 1, "CITY_CAP", 2, "RED@city")
    p.place(1, 1, "MEADOW")
    p.place(1, 0, "CITY_CAP", 3, "BLUE@city")
    p.turn(BLUE, "CITY_THREE", 0, 0, 0, "PASS")
    assert p.last_events == [("RED", 8, "CITY")]
    assert p.points() == {"RED": 8}
    assert p.supply(RED) == 7 and p.supply(BLUE) == 7


def test_cb55_monastery_with_five_neighbours_at_game_end():
    """CB-5.5, CB-4.1: 1 + 5 = 6."""
    p = Position("base", players=2)
    p.place(1, 0, "MEADOW")
    p.place(0, 0, "MONASTERY", 0, "RED@monastery")
    for x, y in ((1, 1), (0, 1), (-1, 1), (-1, 0)):
        p.place(x, y, "MEADOW")
    assert p.final() == [("RED", 6, "MONASTERY_END")]
    assert p.points() == {"RED": 6}


def test_cb56_field_with_two_completed_cities_and_one_incomplete():
    """CB-5.6, CB-4.2: 2 completed cities * 3 = 6 to each of the tied Red 2 and Blue 2."""
    p = Position("base", players=2)
    p.place(0, 0, "CITY_CAP", 0, "RED@field")
    p.place(0, 1, "CITY_CAP", 2)                          # completes city A
    p.place(1, 0, "CITY_CAP", 0)
    p.place(1, 1, "CITY_CAP", 2)                          # completes city B
    p.place(2, 0, "CITY_CAP", 0)                          # city C stays open
    # the other three farmers of the merged south field (AMB-23: the builder puts them)
    p.figure(1, 0, "BLUE@field")
    p.figure(2, 0, "RED@field")
    p.figure(2, 0, "BLUE@field")
    assert p.points() == ALL_ZERO
    assert sorted(p.final()) == [("BLUE", 6, "FIELD"), ("RED", 6, "FIELD")]
    assert p.points() == {"RED": 6, "BLUE": 6}


def test_cb57_one_tile_completes_a_road_and_a_monastery():
    """CB-5.7, CB-2.4, CB-3.1, CB-3.3: both score in the same turn, road follower and monk return."""
    p = Position("base", players=2)
    p.place(-1, 0, "MEADOW")
    p.place(0, 0, "MONASTERY_ROAD", 0, "RED@monastery")
    for x, y in ((-1, 1), (0, 1), (1, 1), (1, 0), (-1, -1)):
        p.place(x, y, "MEADOW")
    p.place(0, -1, "ROAD_CURVE", 2, "BLUE@road")
    assert p.supply(RED) == 6 and p.supply(BLUE) == 6
    p.turn(RED, "CITY_CAP_ROAD_END", 1, -1, 1, "PASS")
    assert p.last_events == [("BLUE", 3, "ROAD"), ("RED", 9, "MONASTERY9")]
    assert p.points() == {"RED": 9, "BLUE": 3}
    assert p.supply(RED) == 7 and p.supply(BLUE) == 7
