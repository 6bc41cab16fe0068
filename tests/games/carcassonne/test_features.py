"""Hand-built positions beyond the spec's worked examples: feature shapes, completion order,
field splitting, temples and monasteries, farmers, and the rule switches of CA-11.

Every expected number is computed by hand from carcassonne_ark.md (CA-) or
carcassonne_base.md (CB-) and cited next to the test.
"""
import numpy as np

from simcore.boardgames.carcassonne import components, rules, scoring, state

from .builder import BLUE, FIXTURE_PROVENANCE, GREEN, RED, YELLOW, Position


# ---------------------------------------------------------------- roads

def four_curve_loop(**figures):
    """A road loop of 4 curves around the point between (0,0), (1,0), (1,1) and (0,1); the last
    curve (0,1) r3 is left for the test."""
    p = Position()
    p.place(0, 0, "ROAD_CURVE field_in.sheep=2", 2, *figures.get("start", ()))  # road N-E
    p.place(1, 0, "ROAD_CURVE", 1)                                             # road W-N
    p.place(1, 1, "ROAD_CURVE field_out.sheep=1", 0, *figures.get("ne", ()))    # road S-W
    return p


def test_road_loop_of_four_curves():
    """CA-8.3 (a loop has no ends), CA-12.7 (open -= 2 also when the loop closes): 4 tiles, RED 4."""
    p = four_curve_loop(start=["RED@road"])
    p.turn(BLUE, "ROAD_CURVE", 0, 1, 3, "PASS")
    assert p.last_events == [("RED", 4, "ROAD")]
    assert p.points() == {"RED": 4}
    assert p.supply(RED) == 7


def test_road_loop_closed_and_occupied_by_the_same_tile():
    """CA-5.6: the closing player puts a follower on the loop it completes: BLUE 4, back at once."""
    p = four_curve_loop()
    p.lay(BLUE, "ROAD_CURVE", 0, 1, 3)
    assert p.options(BLUE) == ["PASS", "FOLLOWER@road", "FOLLOWER@field_in", "FOLLOWER@field_out"]
    p.act(BLUE, "FOLLOWER@road")
    assert p.after_a["supply"][BLUE] == 6
    assert p.last_events == [("BLUE", 4, "ROAD")]
    assert p.supply(BLUE) == 7


def test_road_loop_splits_inner_and_outer_fields():
    """CA-12.2, CA-10.2 step 3: the loop encloses the 4 inner fields (2 sheep) and separates them
    from the outer field (1 sheep): RED 2*2=4 inside, GREEN 2*1=2 outside."""
    p = four_curve_loop(start=["RED@field_in"], ne=["GREEN@field_out"])
    p.lay(BLUE, "ROAD_CURVE", 0, 1, 3)
    assert p.options(BLUE) == ["PASS", "FOLLOWER@road"]      # both fields are taken
    p.act(BLUE, "PASS")
    assert p.last_events == []                               # nobody on the road
    assert sorted(p.final()) == [("GREEN", 2, "FIELD"), ("RED", 4, "FIELD")]
    assert p.points() == {"RED": 4, "GREEN": 2}


def test_road_between_two_junctions():
    """CA-8.3: a road ending at a crossroads on both sides is complete: 3 tiles, RED 3. The new
    crossroads' other three roads stay open, and the old one's road_n holds BLUE unscored."""
    p = Position()
    p.place(0, 0, "CROSSROADS", 0, "BLUE@road_n")
    p.place(1, 0, "ROAD_STRAIGHT road.oases=2", 0, "RED@road")
    p.turn(GREEN, "CROSSROADS", 2, 0, 0, "FOLLOWER@road_e")
    assert p.st["n_completed"] == 1
    assert p.last_events == [("RED", 5, "ROAD")]             # 3 tiles + 2 oases
    assert p.supply(RED) == 7 and p.supply(BLUE) == 6 and p.supply(GREEN) == 6
    # game end: BLUE's road_n (1 tile) and GREEN's road_e (1 tile) are unfinished
    assert sorted(p.final()) == [("BLUE", 1, "ROAD_END"), ("GREEN", 1, "ROAD_END")]
    assert p.points() == {"RED": 5, "BLUE": 1, "GREEN": 1}


def test_road_from_junction_to_city_and_to_temple():
    """CA-8.3, AMB-22: crossroads -> straight -> road end at a city, and crossroads -> temple road.
    The placed crossroads completes both (2 roads, RED 3 and BLUE 2)."""
    p = Position()
    p.place(1, 0, "ROAD_STRAIGHT", 0, "RED@road")
    p.place(2, 0, "CITY_CAP_ROAD_END", 1)                    # road W, city E
    p.place(1, 1, "MEADOW")
    p.place(0, 1, "TEMPLE_ROAD", 0, "BLUE@road")             # road S ends at the temple
    p.lay(GREEN, "CROSSROADS", 0, 0, 0)
    assert p.options(GREEN) == ["PASS", "FOLLOWER@road_s", "FOLLOWER@road_w", "FOLLOWER@field_ne",
                                "FOLLOWER@field_se", "FOLLOWER@field_sw", "FOLLOWER@field_nw"]
    p.act(GREEN, "PASS")
    assert p.last_events == [("BLUE", 2, "ROAD"), ("RED", 3, "ROAD")]     # road_n, then road_e
    assert p.supply(RED) == 7 and p.supply(BLUE) == 7
    assert p.st["cloister_done"][p.pidx(0, 1)] == 0                        # 2 of 4 neighbours


# ---------------------------------------------------------------- cities

def test_merged_city_two_against_one_completed():
    """CA-0.11, CA-5.5, CA-9.4, CA-9.5: 4 caps merged by CITY_FULL, RED 2 vs BLUE 1.
    5 tiles + 2 scrolls: RED 14, BLUE nothing; all 3 followers return."""
    p = Position()
    p.place(1, 1, "MEADOW")
    p.place(0, 1, "CITY_CAP", 2, "RED@city")
    p.place(1, 0, "CITY_CAP", 3, "RED@city")
    p.place(-1, 1, "MEADOW")
    p.place(-1, 0, "CITY_CAP", 1, "BLUE@city")
    p.place(1, -1, "MEADOW")
    p.place(0, -1, "CITY_CAP city.scrolls=2", 0)
    p.lay(GREEN, "CITY_FULL", 0, 0, 0)
    assert p.options(GREEN) == ["PASS"]
    p.act(GREEN, "PASS")
    assert p.last_events == [("RED", 14, "CITY")]
    assert p.points() == {"RED": 14}
    assert p.supply(RED) == 7 and p.supply(BLUE) == 7


def test_merged_city_left_open_scores_at_the_end():
    """CA-5.5, CA-10.2 step 2: two occupied caps merged into an open 3-tile city: 3 each at the end."""
    p = Position()
    p.place(0, 0, "MEADOW")
    p.place(0, 1, "CITY_CAP", 1, "RED@city")                 # city E
    p.place(1, 0, "MEADOW")
    p.place(2, 0, "MEADOW")
    p.place(2, 1, "CITY_CAP", 3, "BLUE@city")                # city W
    p.lay(GREEN, "CITY_THREE", 1, 1, 0)                       # city W+N+E, open to the north
    assert p.options(GREEN) == ["PASS", "FOLLOWER@field"]
    p.act(GREEN, "PASS")
    assert p.last_events == []
    assert sorted(p.final()) == [("BLUE", 3, "CITY_END"), ("RED", 3, "CITY_END")]


def test_one_tile_completes_two_cities():
    """CA-9.8, AMB-10 (2): two caps of one tile close two 2-tile cities; the Ark may enter any
    tile of either. RED 2*2+2*1 = 6 (1 scroll) and BLUE 4, city_n before city_e."""
    p = Position()
    p.place(1, 1, "MEADOW")
    p.place(0, 1, "CITY_CAP city.scrolls=1", 2, "RED@city")  # city S
    p.place(1, 0, "CITY_CAP", 3, "BLUE@city")                # city W
    p.turn(GREEN, "CITY_TWO_CAPS_CORNER", 0, 0, 0, "PASS")
    assert p.last_events == [("RED", 6, "CITY"), ("BLUE", 4, "CITY")]   # by segment: city_n, city_e
    assert p.entries == [(0, 0), (0, 1), (1, 0)]
    assert p.supply(RED) == 7 and p.supply(BLUE) == 7


def test_follower_on_a_city_the_same_tile_completes():
    """CA-5.6, CA-7.2: RED closes a 2-tile city with its own follower: 4, back in the same turn;
    the Ark enters although RED placed a follower this turn."""
    p = Position()
    p.place(0, 0, "CITY_CAP", 0)
    p.lay(RED, "CITY_CAP", 0, 1, 2)
    assert p.options(RED) == ["PASS", "FOLLOWER@city", "FOLLOWER@field", "PROPHET@city"]
    entry = p.act(RED, "FOLLOWER@city", entry=(0, 0))
    assert p.after_a["supply"][RED] == 6
    assert p.last_events == [("RED", 4, "CITY")]
    assert p.supply(RED) == 7
    assert entry == (0, 0) and p.ark() == (0, 0)


def test_tile_completing_an_occupied_feature_offers_no_figure_on_it():
    """CA-5.3: the city the tile completes already holds BLUE, so no follower and no prophet on it."""
    p = Position()
    p.place(0, 0, "CITY_CAP", 0, "BLUE@city")
    p.lay(RED, "CITY_CAP", 0, 1, 2)
    assert p.options(RED) == ["PASS", "FOLLOWER@field"]


# ---------------------------------------------------------------- several completions, in order

def test_one_tile_completes_road_city_and_temple_in_order():
    """CA-9.5, CA-9.6, CA-9.8: roads, then cities, then temples. RED's road follower at (1,-1) is in
    the temple's cross but leaves with its road first, so the temple is GREEN 1 vs YELLOW 1."""
    p = Position()
    p.place(0, 1, "CITY_CAP", 2, "BLUE@city")                # city S
    p.place(1, 1, "MEADOW")
    p.place(1, 0, "TEMPLE")
    p.place(2, 0, "MEADOW", 0, "GREEN@field")
    p.place(1, -1, "CITY_CAP_ROAD_END", 1, "RED@road")       # city E, road W
    p.place(0, -1, "ROAD_CURVE", 2)                          # road N-E
    p.lay(YELLOW, "CITY_CAP_ROAD_END", 0, 0, 0)               # city N, road S
    assert p.options(YELLOW) == ["PASS", "FOLLOWER@field_w"]
    p.act(YELLOW, "FOLLOWER@field_w")
    assert p.last_events == [("RED", 3, "ROAD"), ("BLUE", 4, "CITY"),
                             ("GREEN", 7, "TEMPLE7"), ("YELLOW", 7, "TEMPLE7")]
    assert p.points() == {"RED": 3, "BLUE": 4, "GREEN": 7, "YELLOW": 7}
    assert p.supply(RED) == 7 and p.supply(BLUE) == 7 and p.supply(GREEN) == 6 and p.supply(YELLOW) == 6
    assert p.entries == [(0, 0), (0, 1)]


# ---------------------------------------------------------------- temples

def temple_with_diagonals(close_west):
    """TEMPLE at (0,0); RED's field follower on (1,0); BLUE on two diagonal caps (1,1), (1,-1)."""
    p = Position()
    p.place(0, 0, "TEMPLE")
    p.place(1, 0, "MEADOW", 0, "RED@field")
    p.place(1, 1, "CITY_CAP", 0, "BLUE@city")                # diagonal NE, city N
    p.place(0, 1, "MEADOW")
    if close_west:
        p.place(-1, 0, "MEADOW")
    p.place(1, -1, "CITY_CAP", 2, "BLUE@city")               # diagonal SE, city S
    return p


def test_temple_closed_by_its_fourth_orthogonal_neighbour():
    """CA-8.5, AMB-01: the 4th orthogonal neighbour completes the temple; the diagonals (-1,1) and
    (-1,-1) are empty, and BLUE's 2 diagonal figures do not count: RED 7."""
    p = temple_with_diagonals(close_west=True)
    p.turn(GREEN, "MEADOW", 0, -1, 0, "PASS")
    assert p.last_events == [("RED", 7, "TEMPLE7")]
    assert p.points() == {"RED": 7}
    assert p.st["cloister_done"][p.pidx(0, 0)] == 1
    # not scored again at the end; BLUE's two 1-tile cities give 1 each
    assert sorted(p.final()) == [("BLUE", 1, "CITY_END"), ("BLUE", 1, "CITY_END")]
    assert p.points() == {"RED": 7, "BLUE": 2}


def test_temple_with_diagonals_but_a_missing_orthogonal_neighbour():
    """CA-8.5, CA-10.2 step 1, AMB-03: 3 orthogonal + 2 diagonal neighbours is not complete; at the
    end the cross of 4 existing tiles gives RED 3; BLUE's diagonal figures still do not count."""
    p = temple_with_diagonals(close_west=False)
    p.turn(GREEN, "MEADOW", 0, -1, 0, "PASS")
    assert p.last_events == []
    events = p.final()
    assert events[0] == ("RED", 3, "TEMPLE3")
    assert sorted(events[1:]) == [("BLUE", 1, "CITY_END"), ("BLUE", 1, "CITY_END")]
    assert p.points() == {"RED": 3, "BLUE": 2}


def test_temple_tile_placed_as_the_last_tile_of_its_cross():
    """AMB-21, AMB-22, CA-9.5, CA-9.6: a temple tile dropped into a hole with 4 neighbours completes
    at once, and so does its road (temple to city, 2 tiles). A field follower placed on it counts
    for the temple (GREEN 7, it stays); a road follower scores the road (GREEN 2) and leaves
    before the temple is scored, which then has no figure."""
    def hole():
        p = Position()
        p.place(0, -1, "CITY_CAP_ROAD_END", 2)               # road N, city S
        for x, y in ((1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)):
            p.place(x, y, "MEADOW")
        return p

    p = hole()
    p.turn(GREEN, "TEMPLE_ROAD", 0, 0, 0, "FOLLOWER@field")
    assert p.last_events == [("GREEN", 7, "TEMPLE7")]
    assert p.supply(GREEN) == 6

    p = hole()
    p.turn(GREEN, "TEMPLE_ROAD", 0, 0, 0, "FOLLOWER@road")
    assert p.last_events == [("GREEN", 2, "ROAD")]
    assert p.supply(GREEN) == 7
    assert p.st["cloister_done"][p.pidx(0, 0)] == 1


def test_incomplete_temple_counts_prophets_flag():
    """CA-10.2 step 1, AMB-02, INCOMPLETE_TEMPLE_COUNTS_PROPHETS: BLUE's prophet on (1,0) ties RED's
    follower on the temple tile (both 3); with the flag False only RED scores 3."""
    for flag, temple_events in ((True, [("RED", 3, "TEMPLE3"), ("BLUE", 3, "TEMPLE3")]),
                                (False, [("RED", 3, "TEMPLE3")])):
        p = Position(INCOMPLETE_TEMPLE_COUNTS_PROPHETS=flag)
        p.place(0, 0, "TEMPLE_ROAD", 0, "RED@road")
        p.place(1, 0, "CITY_CAP", 1, "BLUE PROPHET@city")
        events = p.final()
        assert events[:len(temple_events)] == temple_events
        assert sorted(events[len(temple_events):]) == [("BLUE", 1, "CITY_END"), ("RED", 1, "ROAD_END")]


def test_a_temples_cross_counts_every_figure_of_a_tile_that_holds_two_then_the_one_left():
    """CA-10.2 step 1 on a builder's position (AMB-23): RED's follower on the temple's road, and
    (1,0) holding two of BLUE's, on its city and its field. At the end BLUE's two outnumber RED's
    one: BLUE alone scores the temple's 3. When (1,1) has closed BLUE's city first (4 points, that
    follower returns), the field follower is the one left on (1,0): a tie, 3 each."""
    def position():
        p = Position(players=2)
        p.place(0, 0, "TEMPLE_ROAD", 0, "RED@road")
        p.place(1, 0, "CITY_CAP", 0, "BLUE@city")
        p.figure(1, 0, "BLUE@field")
        return p

    p = position()
    assert p.final()[0] == ("BLUE", 3, "TEMPLE3")
    p = position()
    p.turn(BLUE, "CITY_CAP", 1, 1, 2, "PASS")
    assert p.last_events == [("BLUE", 4, "CITY")]
    assert p.supply(BLUE) == 6
    assert sorted(p.final()[:2]) == [("BLUE", 3, "TEMPLE3"), ("RED", 3, "TEMPLE3")]


# ---------------------------------------------------------------- fields (Ark: sheep and wolves)

def test_fields_split_by_a_road_and_a_city():
    """CA-12.2, CA-10.2 step 3: a road separates its banks and a city separates the fields on its
    two sides. North of the tube: GREEN 2 sheep -> 4. Between tube and road: RED 3 sheep - 1 wolf
    -> 4. South of the road: BLUE 1 sheep -> 2."""
    p = Position()
    p.place(0, 0, "ROAD_STRAIGHT field_n.sheep=2 field_s.sheep=1", 0, "RED@field_n")
    p.place(0, -1, "MEADOW", 0, "BLUE@field")
    p.place(0, 1, "CITY_TUBE field_s.sheep=1 field_s.wolves=1 field_n.sheep=2", 0, "GREEN@field_n")
    p.place(1, 0, "ROAD_STRAIGHT", 0)
    assert sorted(p.final()) == [("BLUE", 2, "FIELD"), ("GREEN", 4, "FIELD"), ("RED", 4, "FIELD")]


def test_field_follower_returns_never_and_road_follower_does():
    """CA-5.4, CA-9.5: completing a road returns only the road's follower, never a field's."""
    p = Position()
    p.place(0, 0, "CROSSROADS", 0)
    p.place(1, 0, "ROAD_STRAIGHT", 0, "RED@field_n")
    p.turn(BLUE, "CITY_CAP_ROAD_END", 2, 0, 1, "FOLLOWER@road")
    assert p.last_events == [("BLUE", 3, "ROAD")]
    assert p.supply(RED) == 6 and p.supply(BLUE) == 7


# ---------------------------------------------------------------- the Ark's switches

def test_ark_counts_every_figure_on_entered_tiles_by_default():
    """CA-7.6, AMB-06, AMB-07: follower, field follower and prophet each give 1; the mover scores its own."""
    p = ark_switch_position()
    p.act(RED, [(1, 0), (2, 0)])
    assert sorted(p.last_events) == [("BLUE", 1, "ARK"), ("GREEN", 1, "ARK"), ("RED", 1, "ARK")]
    assert p.ark() == (2, 0)


def test_ark_counts_prophets_false():
    """ARK_COUNTS_PROPHETS=False (CA-11, AMB-06): GREEN's prophet gives nothing."""
    p = ark_switch_position(ARK_COUNTS_PROPHETS=False)
    p.act(RED, [(1, 0), (2, 0)])
    assert sorted(p.last_events) == [("BLUE", 1, "ARK"), ("RED", 1, "ARK")]


def test_ark_counts_field_followers_false():
    """ARK_COUNTS_FIELD_FOLLOWERS=False (CA-11, AMB-07): BLUE's field follower gives nothing."""
    p = ark_switch_position(ARK_COUNTS_FIELD_FOLLOWERS=False)
    p.act(RED, [(1, 0), (2, 0)])
    assert sorted(p.last_events) == [("GREEN", 1, "ARK"), ("RED", 1, "ARK")]


def ark_switch_position(**flags):
    """Ark at (0,0). (1,0): RED on the road and BLUE on its north field (AMB-23). (2,0): GREEN's
    prophet on a 1-tile city. RED's turn: a crossroads below (0,0), then the Ark to (1,0), (2,0)."""
    p = Position(**flags)
    p.place(0, 0, "CROSSROADS", 0)
    p.place(1, 0, "ROAD_STRAIGHT", 0, "RED@road")
    p.figure(1, 0, "BLUE@field_n")
    p.place(2, 0, "CITY_CAP_ROAD_STRAIGHT", 0, "GREEN PROPHET@city")
    p.set_ark(0, 0)
    p.lay(RED, "CROSSROADS", 0, -1, 0)
    return p


# ---------------------------------------------------------------- empty supply (AMB-13, AMB-14)

def test_empty_supply_only_places_the_tile():
    """CA-5.1, CA-6.2, CA-7.4, AMB-13, AMB-14: with no follower in supply RED may only pass, though
    the prophet is available and the Ark on the board; with EMPTY_SUPPLY_TILE_ONLY=False (the
    specification's reading) only FOLLOWER goes and PROPHET and ARK remain."""
    for flags, expected in (({}, ["PASS"]),
                            ({"EMPTY_SUPPLY_TILE_ONLY": False}, ["PASS", "PROPHET@city", "ARK"])):
        p = Position(**flags)
        p.place(0, 0, "CITY_CAP", 0)
        p.st["supply"][RED] = 0
        p.set_ark(0, 0)
        p.lay(RED, "CITY_CAP", 1, 0, 1)                       # city E, open
        assert p.options(RED) == expected
        assert "FOLLOWER@field" in p.options(BLUE)             # BLUE still has followers


def test_empty_supply_still_chooses_the_arks_entry():
    """CA-7.2, AMB-13: the Ark's entry is no action, so RED, with no follower in supply, passes and
    still puts the Ark on a tile of the city it completed (EX-05's city: BLACK 8)."""
    p = Position()
    p.place(0, 0, "CITY_CAP", 2)
    p.place(0, -1, "CITY_TUBE city.scrolls=1", 1, "BLACK@city")
    p.st["supply"][RED] = 0
    p.lay(RED, "CITY_CAP", 0, -2, 0)
    assert p.options(RED) == ["PASS"]
    entry = p.act(RED, "PASS", entry=(0, 0))
    assert p.last_events == [("BLACK", 8, "CITY")]
    assert p.entries == [(0, -2), (0, -1), (0, 0)]
    assert entry == (0, 0) and p.ark() == (0, 0)


# ---------------------------------------------------------------- base game: monasteries, farmers

def monastery_ring(last):
    """Base game: RED's monk at (0,0); 7 of its 8 neighbours, `last` left out."""
    p = Position("base", players=2)
    p.place(0, 1, "MEADOW")
    p.place(0, 0, "MONASTERY", 0, "RED@monastery")
    for x, y in ((-1, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0)):
        if (x, y) != last:
            p.place(x, y, "MEADOW")
    return p


def test_base_monastery_completes_with_its_eighth_neighbour():
    """CB-3.3: the 8th neighbour (a diagonal) completes the monastery: RED 9, the monk returns."""
    p = monastery_ring(last=(1, -1))
    assert p.points() == {}
    p.turn(BLUE, "MEADOW", 1, -1, 0, "PASS")
    assert p.last_events == [("RED", 9, "MONASTERY9")]
    assert p.supply(RED) == 7
    assert p.final() == []                                      # not scored again


def test_base_monastery_with_seven_neighbours_at_the_end():
    """CB-4.1: 1 + 7 = 8."""
    p = monastery_ring(last=(1, -1))
    assert p.final() == [("RED", 8, "MONASTERY_END")]


def test_base_monastery_placed_into_a_full_ring_with_its_monk():
    """CB-2.4, CB-3.3: a monastery tile that lands in a full ring completes at once; the monk put on
    it this turn scores 9 and returns."""
    p = Position("base", players=2)
    p.place(0, 1, "MEADOW")
    for x, y in ((-1, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0)):
        p.place(x, y, "MEADOW")
    p.lay(BLUE, "MONASTERY", 0, 0, 0)
    assert p.options(BLUE) == ["PASS", "FOLLOWER@field", "FOLLOWER@monastery"]
    p.act(BLUE, "FOLLOWER@monastery")
    assert p.last_events == [("BLUE", 9, "MONASTERY9")]
    assert p.supply(BLUE) == 7


def test_base_farmers_count_a_city_once_per_field():
    """CB-4.2: a completed 3-tile city touches 3 fields. RED's field touches it through two tiles
    (tube and west cap) and still counts it once: RED 3, BLUE 3 (tube's south field), GREEN 3."""
    p = Position("base", players=3)
    p.place(0, 0, "CITY_TUBE", 0, "RED@field_n")
    p.place(0, 1, "MEADOW")
    p.place(-1, 1, "MEADOW")
    p.place(-1, 0, "CITY_CAP", 1)                              # city E; its field joins RED's
    p.place(0, -1, "MEADOW", 0, "BLUE@field")
    p.turn(GREEN, "CITY_CAP", 1, 0, 3, "FOLLOWER@field")     # city W: the city is complete
    assert p.last_events == []                               # nobody in the city
    assert sorted(p.final()) == [("BLUE", 3, "FIELD"), ("GREEN", 3, "FIELD"), ("RED", 3, "FIELD")]


def test_base_farmers_ignore_incomplete_cities():
    """CB-4.1, CB-4.2: a field touching only an unfinished city scores nothing, also when that city
    holds a follower and was itself scored at the end (1 point to BLUE)."""
    p = Position("base", players=2)
    p.place(0, 0, "CITY_CAP", 0, "RED@field")
    p.figure(0, 0, "BLUE@city")
    assert p.final() == [("BLUE", 1, "CITY_END")]
    assert p.points() == {"BLUE": 1}


def test_base_farmers_completed_and_occupied_unfinished_city():
    """CB-5.6 with BLUE's follower in the unfinished city C: C gives BLUE 1 (CB-4.1) and still
    nothing to the farmers (CB-4.2): RED 6, BLUE 6 + 1."""
    p = Position("base", players=2)
    p.place(0, 0, "CITY_CAP", 0, "RED@field")
    p.place(0, 1, "CITY_CAP", 2)                          # completes city A
    p.place(1, 0, "CITY_CAP", 0)
    p.place(1, 1, "CITY_CAP", 2)                          # completes city B
    p.place(2, 0, "CITY_CAP", 0, "BLUE@city")             # city C stays open
    p.figure(1, 0, "BLUE@field")
    p.figure(2, 0, "RED@field")
    p.figure(2, 0, "BLUE@field")
    events = p.final()
    assert events[0] == ("BLUE", 1, "CITY_END")
    assert sorted(events[1:]) == [("BLUE", 6, "FIELD"), ("RED", 6, "FIELD")]
    assert p.points() == {"RED": 6, "BLUE": 7}


def test_base_farmers_with_more_completed_cities_than_tiles():
    """CB-4.2 on a tile set of 72 tiles with three separate city caps (N, E, W) around one field that
    touches all three. Two rows of 36 (the upper row turned half round) close 106 cities; 35 farmers
    on every other tile of a row (and the other columns of the other row) touch 104 distinct
    completed cities, more than a set has tiles: 9 points a farmer, 6 for the one at (0,0), whose
    west cap stays open. Final scoring writes nothing but the scores (the list of those cities once
    ran past its 72 places into the move log's switches)."""
    three_caps = {"id": "THREE_CAPS", "count": 72, "is_start": True, "edges": {"N": "C", "E": "C", "S": "F", "W": "C"},
                  "temple": False, "monastery": False,
                  "city_segments": [{"edges": [side], "scrolls": 0} for side in "NEW"], "road_segments": [],
                  "field_segments": [{"half_edges": ["SL", "SR"], "sheep": 0, "wolves": 0,
                                      "adjacent_city_segments": [0, 1, 2]}],
                  "provenance": FIXTURE_PROVENANCE}
    doc = {"tile_set_id": "three-caps", "name": "three caps", "source": "test", "reconstructed": False,
           "tiles": [three_caps]}
    tt = components.from_document(doc, "base").tables.view(np.recarray)[0]   # records also without the JIT
    st = state.new_state().view(np.recarray)[0]
    rules.clear(st, 5, np.zeros(5, dtype=np.int8))
    for x in range(36):
        for y, rot in ((0, 0), (1, 2)):                              # the upper row: caps S, W, E, field N
            rules.place_tile(st, tt, 0, rot, state.cell_of(x, y))
            scoring.score_turn(st, tt)                               # marks the cities it closes complete
    farmers = [(x, y) for y in (0, 1) for x in range(36) if x % 2 == y][:35]
    for k, (x, y) in enumerate(farmers):
        rules.place_figure(st, k % 5, st["cell_pidx"][state.cell_of(x, y)] * state.MAX_SEG + 3, False)
    after_placing = st.copy()
    scoring.final_scoring(st, tt, 0.0)
    assert st["vp"][:5].tolist() == [6 + 6 * 9, 63, 63, 63, 63]
    assert st["pts"][:5, state.CAT_FIELD].tolist() == [60, 63, 63, 63, 63]
    for name in state.STATE.names:
        if name not in ("vp", "pts", "done", "fid", "field_roots", "field_cities", "field_last_city", "tmp"):
            assert np.array_equal(st[name], after_placing[name]), name
