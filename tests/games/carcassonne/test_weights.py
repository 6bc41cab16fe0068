"""greedy's weights (`greedy:cities=2`, policies.WEIGHTS; docs/carcassonne.md, Players): each one
decides a move on a hand-built position — greedy takes one option at the default and another with
the weight moved — the defaults spelled out are plain greedy, and a variant at the defaults plays
greedy's games.

The expected moves follow from greedy's values (policies.py, its heading comment); the positions
leave a long pile (30 tiles, 2 players: 16 turns left), so no value fades with the end in sight.
"""
import numpy as np
import pytest

from simcore import players, registry
from simcore.contract import UserError
from simcore.boardgames.carcassonne import policies
from simcore.boardgames.carcassonne.state import ARK, FOLLOWER, PASS, PROPHET

from .builder import RED, Position, segment_names, xy

GAMES = ("carcassonne", "carcassonne-ark")


def position(ruleset, *tiles):
    """2 players, the start tile CITY_CAP_ROAD_STRAIGHT (city N, road E-W) at (0,0), then the
    setup tiles (x, y, fixture, rot, figures...), and a pile of 30 meadows."""
    p = Position(ruleset, players=2)
    p.place(0, 0, "CITY_CAP_ROAD_STRAIGHT", 0)
    for x, y, fixture, rot, *figures in tiles:
        p.place(x, y, fixture, rot, *figures)
    p.set_pile(["MEADOW"] * 30)
    return p


def greedy_move(p, seat, fixture, policy="greedy", other="greedy"):
    """((x, y, rot), action) greedy chooses for seat with tile `fixture` when seat plays policy
    and the other seat plays other, both set up as a run sets them: ids and the policy table."""
    spec = registry.get("carcassonne" if p.ruleset == "base" else "carcassonne-ark")
    t = p.type_of(fixture)                         # may reload the tables: before the table goes in
    names = [players.canonical(spec, policy), players.canonical(spec, other)]
    lineup = players.lineup(spec, names)
    p.tt["search"][:] = lineup.table
    p.st["policy"][seat] = lineup.ids(names[:1])[0]
    p.st["policy"][1 - seat] = lineup.ids(names[1:])[0]
    p.st["seat"] = seat
    placement = int(policies.greedy_placement(p.st, p.tt, t, seat))
    kind, g = divmod(int(p.st["plan"]), 16)
    action = {PASS: "PASS", ARK: "ARK"}.get(kind) or \
        {FOLLOWER: "FOLLOWER@", PROPHET: "PROPHET@"}[kind] + segment_names(fixture)[g]
    return xy(placement // 4) + (placement % 4,), action


# ---------------------------------------------------------------- each weight decides a move

@pytest.mark.parametrize("ruleset", ["base", "ark"])
def test_roads_a_dearer_road_is_worth_a_follower(ruleset):
    """A straight road west of the start joins its road: 2 tiles, worth 2, what a follower costs,
    so greedy passes; at roads=3 the road is worth 6 and takes the follower."""
    p = position(ruleset)
    assert greedy_move(p, RED, "ROAD_STRAIGHT") == ((-1, 0, 0), "PASS")
    assert greedy_move(p, RED, "ROAD_STRAIGHT", "greedy:roads=3") == ((-1, 0, 0), "FOLLOWER@road")


@pytest.mark.parametrize("ruleset, figure", [("base", "FOLLOWER@city"), ("ark", "PROPHET@city")])
def test_cities_without_their_worth_no_city_is_claimed(ruleset, figure):
    """A city corner on the start's city: 2 tiles, one open side (a 0.85 chance to close), worth
    2 * 1.85 = 3.7 to a follower (in the Ark 7.1 to the prophet, for 5): greedy claims it; at
    cities=0 no placement is worth a figure and it passes with the first placement."""
    p = position(ruleset)
    assert greedy_move(p, RED, "CITY_CORNER") == ((0, 1, 2), figure)
    assert greedy_move(p, RED, "CITY_CORNER", "greedy:cities=0") == ((0, -1, 2), "PASS")


def test_fields_dear_farmers_go_to_the_field_instead_of_the_city():
    """Base game: the tile closes the start's city at (0,1) (2 tiles, 4 points, the follower comes
    straight back), which greedy takes; at fields=10 its 2-tile field west of the start is worth
    10 * 0.9 * 2 = 18 against a follower's 2 and greedy puts a farmer there."""
    p = position("base")
    assert greedy_move(p, RED, "CITY_CAP_ROAD_STRAIGHT") == ((0, 1, 2), "FOLLOWER@city")
    assert greedy_move(p, RED, "CITY_CAP_ROAD_STRAIGHT", "greedy:fields=10") == ((-1, 0, 0), "FOLLOWER@field_n")


def test_fields_without_their_worth_the_sheep_are_left():
    """The Ark: 2 sheep in the field north of the road, worth 2 * 2 = 4 to a follower that costs 2,
    so greedy takes the field; at fields=0 it passes."""
    p = position("ark")
    tile = "ROAD_STRAIGHT field_n.sheep=2"
    assert greedy_move(p, RED, tile) == ((-1, 0, 0), "FOLLOWER@field_n")
    assert greedy_move(p, RED, tile, "greedy:fields=0") == ((-1, 0, 0), "PASS")


@pytest.mark.parametrize("ruleset", ["base", "ark"])
def test_followers_a_cheaper_follower_goes_on_the_road(ruleset):
    """The road of the roads test, worth 2: at followers=1 a follower costs 1 and greedy places it."""
    p = position(ruleset)
    assert greedy_move(p, RED, "ROAD_STRAIGHT") == ((-1, 0, 0), "PASS")
    assert greedy_move(p, RED, "ROAD_STRAIGHT", "greedy:followers=1") == ((-1, 0, 0), "FOLLOWER@road")


def test_followers_a_dearer_follower_is_kept_from_an_open_city():
    """Base game: the city corner's follower (worth 3.7) costs 2, and at followers=5 costs more
    than it is worth: greedy passes."""
    p = position("base")
    assert greedy_move(p, RED, "CITY_CORNER") == ((0, 1, 2), "FOLLOWER@city")
    assert greedy_move(p, RED, "CITY_CORNER", "greedy:followers=5") == ((0, -1, 2), "PASS")


def test_monasteries_without_their_worth_the_monastery_is_left():
    """Base game: a monastery south of the start, one tile around it: 1 + 1 + half the 7 missing
    = 5.5 for a follower that costs 2; at monasteries=0 greedy passes."""
    p = position("base")
    assert greedy_move(p, RED, "MONASTERY") == ((0, -1, 0), "FOLLOWER@monastery")
    assert greedy_move(p, RED, "MONASTERY", "greedy:monasteries=0") == ((0, -1, 0), "PASS")


def temple_missing_its_south():
    """The Ark: a temple south of the start with RED's follower on it, meadows east and west of
    it: a tile at (0,-2) completes the temple, 7 points to RED."""
    return position("ark", (0, -1, "TEMPLE", 0, "RED@field"), (-1, -1, "MEADOW", 0), (1, -1, "MEADOW", 0))


def test_temples_without_their_worth_the_temple_is_not_completed():
    """RED completes its temple for 7; at temples=0 every placement of the meadow is worth 0 and
    greedy takes the first."""
    p = temple_missing_its_south()
    assert greedy_move(p, RED, "MEADOW") == ((0, -2, 0), "PASS")
    assert greedy_move(p, RED, "MEADOW", "greedy:temples=0") == ((-2, -1, 0), "PASS")


def test_the_weights_are_the_deciding_seats():
    """BLUE's weights change nothing of RED's move: RED still completes its temple."""
    p = temple_missing_its_south()
    assert greedy_move(p, RED, "MEADOW", "greedy", other="greedy:temples=0") == ((0, -2, 0), "PASS")


def test_prophet_a_dearer_prophet_is_kept():
    """The Ark: a city tube on the start's city (2 tiles, one open side): 3.7 to a follower for 2,
    7.1 to the prophet for 2.5 followers (5), so greedy places the prophet; at prophet=10 it costs
    20 and greedy places a follower."""
    p = position("ark")
    assert greedy_move(p, RED, "CITY_TUBE") == ((0, 1, 1), "PROPHET@city")
    assert greedy_move(p, RED, "CITY_TUBE", "greedy:prophet=10") == ((0, 1, 1), "FOLLOWER@city")


def test_ark_without_its_worth_the_ark_stays():
    """The Ark on the start tile, RED's follower on the road west of it: moving the Ark there is
    worth 1, and nothing else the meadow allows is worth anything; at ark=0 greedy passes."""
    p = position("ark", (-1, 0, "ROAD_STRAIGHT", 0, "RED@road"), (1, 0, "ROAD_STRAIGHT", 0))
    p.set_ark(0, 0)
    assert greedy_move(p, RED, "MEADOW") == ((-1, -1, 0), "ARK")
    assert greedy_move(p, RED, "MEADOW", "greedy:ark=0") == ((-1, -1, 0), "PASS")


# ---------------------------------------------------------------- names and games

def test_each_game_lists_the_weights_that_change_its_play():
    """The base game has monasteries where the Ark has temples, and neither prophet nor Ark."""
    assert [w.key for w in registry.get("carcassonne").greedy_weights] == [
        "roads", "cities", "fields", "followers", "monasteries"]
    assert [w.key for w in registry.get("carcassonne-ark").greedy_weights] == [
        "roads", "cities", "fields", "followers", "temples", "prophet", "ark"]
    with pytest.raises(UserError, match="unknown parameter 'ark=2'"):
        players.canonical(registry.get("carcassonne"), "greedy:ark=2")


@pytest.mark.parametrize("game, name", [
    ("carcassonne", "greedy:roads=1,cities=1,fields=1,followers=2,monasteries=1"),
    ("carcassonne-ark", "greedy:roads=1,cities=1,fields=1,followers=2,temples=1,prophet=2.5,ark=1"),
])
def test_every_weight_at_its_default_is_greedy(game, name):
    assert players.canonical(registry.get(game), name) == "greedy"


def batch_points(game, names, count=300, seed=17):
    """Points of `count` 3-player games with seats playing names (canonical), through the spec."""
    spec = registry.get(game)
    lineup = players.lineup(spec, names)
    seats = np.tile(lineup.ids(names), (count, 1))
    return spec.play_batch(spec.load_data(None), len(names), seats, seed, 0, search=lineup.table).pts


@pytest.mark.parametrize("game", GAMES)
def test_a_variant_at_the_defaults_plays_greedys_games(game):
    """A labelled greedy reads every weight from the policy table, the defaults there: the same
    games as greedy; a weight moved (cities=2) plays other games."""
    greedy = batch_points(game, ["greedy", "random", "greedy"])
    assert np.array_equal(batch_points(game, ["g=greedy", "random", "g=greedy"]), greedy)
    assert not np.array_equal(batch_points(game, ["greedy:cities=2", "random", "greedy:cities=2"]), greedy)
