"""greedy's weights in Notre Dame (`greedy:NAME=X`, policies.WEIGHTS; docs/notre_dame.md, The greedy
player's weights): each decides a built position one way at its default and the other way when
moved, a seat's own weights decide its choices, and the defaults play greedy's games."""
import numpy as np
import pytest

from simcore import players
from simcore.boardgames.notre_dame import components, policies, rules, spec as notre_dame
from simcore.boardgames.notre_dame.state import (
    CITY_GUARD, CUBE, DP_BRIBE, DP_DONATION, DP_HOUSEKEEPER_CHOICE, DP_OUTBREAK_LOSS,
    HOUSEKEEPER, JESTER, LAWYER, MINSTREL, MONEYLENDER, MONK, PASS, RAT, SC_OUTBREAKS)
from .builder import BUILDING_IDS, position, seat

SPEC = notre_dame.NOTRE_DAME
DATA = components.load(None)


def play_as(st, tt, *names):
    """Seat 0, 1, ... plays policy names[0], names[1], ... (greedy or a variant), set up as a run
    sets it up: the run's policy table in tt.search and each seat's policy id in st.policy."""
    keys = [players.canonical(SPEC, name) for name in names]
    lineup = players.lineup(SPEC, keys)
    tt.search[:] = lineup.table
    st.policy[:len(keys)] = lineup.ids(keys)


def choice(st, tt, p, dp):
    """The option (not its index) seat p's policy takes among st.opts at decision point dp."""
    return int(st.opts[policies.choose(st, tt, p, dp, 0)])


def person(tt, effect):
    """The index of the person card with this effect."""
    return int(np.flatnonzero(tt.person_effect == effect)[0])


def round_four(face=(HOUSEKEEPER, MONK, CITY_GUARD)):
    """A 2-player game in round 4 (5.5 rounds left) with these persons face up (5 rats)."""
    st, tt = position(players=2, round=4)
    for i, effect in enumerate(face):
        st.face[i] = person(tt, effect)
    return st, tt


# ---------------------------------------------------------------- each weight decides a position

@pytest.mark.parametrize("weight, value, pair, default_loses, moved_loses", [
    # one more piece in round 4: CS 2.98 (cubes), BK 2.02 (gold), RS 2.48, CH 0.83, GH 0.83,
    # PK 13.75 (the second piece earns the bonus), HO 5.79 (the rats outrun it)
    ("cloister_school", 0, ("CS", "RS"), "RS", "CS"),
    ("bank", 10, ("BK", "RS"), "BK", "RS"),
    ("residence", 0, ("RS", "CH"), "CH", "RS"),
    ("carriage_house", 10, ("CH", "RS"), "CH", "RS"),
    ("guest_house", 10, ("GH", "RS"), "GH", "RS"),
    ("park", 0, ("PK", "RS"), "RS", "PK"),
    ("hospital", 0, ("HO", "RS"), "RS", "HO"),
])
def test_a_building_factor_decides_which_cube_an_outbreak_takes(weight, value, pair, default_loses, moved_loses):
    """DP-16: two buildings tie for the most cubes (2, the others 1); greedy loses the cube whose
    piece is worth least in the rounds left, and a building's factor scales that worth."""
    for name, loses in (("greedy", default_loses), (f"greedy:{weight}={value}", moved_loses)):
        st, tt = round_four()
        seat(st, 0, bld={b: 2 if b in pair else 1 for b in BUILDING_IDS}, per=1)
        play_as(st, tt, name)
        rules.outbreak_candidates(st, 0)
        assert sorted(int(b) for b in st.opts[:st.n_opts]) == sorted(BUILDING_IDS[b] for b in pair)
        assert choice(st, tt, 0, DP_OUTBREAK_LOSS) == BUILDING_IDS[loses], name


def housekeeper_choice(*names):
    """DP-12 for seat 0 on rat 5 with this round's 5 rats to come (an outbreak unless it steps
    back): what the Housekeeper gives it, the seats playing names."""
    st, tt = round_four()
    seat(st, 0, bld={"RS": 2}, per=1, gold=2, rat=5)
    play_as(st, tt, *names)
    rules.small_choice_options(st)
    return choice(st, tt, 0, DP_HOUSEKEEPER_CHOICE)


def test_the_cost_of_an_outbreak_decides_whether_the_housekeeper_moves_the_rat_back():
    """Stepping back avoids the outbreak: worth the outbreak (4) against a cube (1.55), gold (1.05);
    at no cost the cube is worth most."""
    assert housekeeper_choice("greedy") == RAT
    assert housekeeper_choice("greedy:outbreak=0") == CUBE


def test_a_seat_decides_by_its_own_weights_not_another_seats():
    assert housekeeper_choice("greedy", "greedy:outbreak=0") == RAT
    assert housekeeper_choice("greedy:outbreak=0", "greedy") == CUBE


def donation(name):
    """DP-6 with 3 gold and a cube in the personal supply: the gold greedy donates."""
    st, tt = round_four()
    seat(st, 0, bld={"RS": 2}, per=1, gold=3)
    play_as(st, tt, name)
    rules.donation_options(st, 0)
    return choice(st, tt, 0, DP_DONATION)


def test_the_donation_factor_decides_whether_greedy_donates():
    """3 gold earn 6 VP and a share of the payout (4.3 net of the gold and the cube); with nothing
    earned every donation is a loss."""
    assert donation("greedy") == 3
    assert donation("greedy:donation=0") == 0


@pytest.mark.parametrize("face, name, bribed", [
    ((MONK, MONEYLENDER, CITY_GUARD), "greedy", MONK),                # the Monk gives 4.1, its gold costs 1.25
    ((MONK, MONEYLENDER, CITY_GUARD), "greedy:persons=0", None),
    ((MINSTREL, JESTER, LAWYER), "greedy", None),                    # a Minstrel's move is worth 0.5
    ((MINSTREL, JESTER, LAWYER), "greedy:persons=10", MINSTREL),
])
def test_the_persons_factor_decides_whether_greedy_bribes(face, name, bribed):
    """DP-11: greedy bribes the person worth most when it is worth more than its gold."""
    st, tt = round_four(face)
    seat(st, 0, bld={"RS": 2, "CS": 1}, per=1, gold=2)
    play_as(st, tt, name)
    rules.bribe_options(st, tt, 0)
    assert choice(st, tt, 0, DP_BRIBE) == (PASS if bribed is None else person(tt, bribed))


# ---------------------------------------------------------------- the defaults are greedy

def test_every_weight_at_its_default_is_greedy():
    given = ",".join(f"{p.key}={p.default:g}" for p in policies.WEIGHTS)
    assert players.canonical(SPEC, f"greedy:{given}") == "greedy"
    assert players.canonical(SPEC, "greedy:outbreak=4,park=1.0,residence=2") == "greedy:residence=2"


def batch(seat_names, count=300, n=4):
    """count games of n seats, every seat playing each of seat_names in turn: the results arrays."""
    keys = [players.canonical(SPEC, name) for name in seat_names]
    lineup = players.lineup(SPEC, keys)
    seats = np.tile(lineup.ids([keys[s % len(keys)] for s in range(n)]), (count, 1))
    result = notre_dame.play_batch(DATA, n, seats, 5, 0, search=lineup.table)
    return result.pts, result.game, result.seat


def test_a_labelled_greedy_at_the_defaults_plays_greedys_games():
    for ours, theirs in zip(batch(["g=greedy", "random"]), batch(["greedy", "random"])):
        np.testing.assert_array_equal(ours, theirs)


def test_a_variants_weights_reach_the_played_games():
    """Without a cost for outbreaks greedy lets the rats run: more outbreaks than greedy's."""
    reckless = batch(["greedy:outbreak=0"])[2][:, :, SC_OUTBREAKS].mean()
    careful = batch(["greedy"])[2][:, :, SC_OUTBREAKS].mean()
    assert reckless > careful + 1.0


def test_a_search_rolling_out_with_a_labelled_greedy_at_its_defaults_plays_greedy_rollouts_games():
    import simcore
    labelled = simcore.simulate("notre-dame", players=2, games=6, seed=4, workers=1,
                                policies=["mcts:iters=8,rollout=g", "g=greedy"])
    plain = simcore.simulate("notre-dame", players=2, games=6, seed=4, workers=1,
                             policies=["mcts:iters=8,rollout=greedy", "greedy"])
    assert labelled["score"].tolist() == plain["score"].tolist()
    assert labelled["policy"].tolist()[:2] == ["mcts:iters=8,rollout=g", "g"]
    weighted = simcore.simulate("notre-dame", players=2, games=6, seed=4, workers=1,
                                policies=["mcts:iters=8,rollout=g", "g=greedy:outbreak=0,residence=5"])
    assert weighted["score"].tolist() != plain["score"].tolist()
