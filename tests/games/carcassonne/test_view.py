"""Carcassonne as one seat sees it (simcore/boardgames/carcassonne/view.py): the step API's
decision names, action ids, moves in words, observation and tensor, in both rule sets.

The decisions are rebuilt from a game stopped at a turn boundary (spec.play_logged's halt_at) by
the engine's own steps, as playout.run_game takes them: draw_placeable then list_placements
(placement), place_tile then list_actions (action), list_ark_outcomes (ark move), the action's
phases A and S then list_ark_entries (ark entry). The games are the golden playthroughs
(tests/games/carcassonne/golden), whose replay text the moves' words must match."""
import json

import numpy as np
import pytest

from simcore import registry
from simcore.boardgames.carcassonne import rules, scoring, view
from simcore.boardgames.carcassonne import spec as carcassonne
from simcore.boardgames.carcassonne.playout import ACTION, ARK_MOVE, ENTRY, PLACEMENT
from simcore.boardgames.carcassonne.state import ARK, FOLLOWER, PASS, PROPHET, cell_of, new_state

from simcore.contract import Decision
from view_tool import assert_differ, assert_same


GAMES = ("carcassonne", "carcassonne-ark")
_DATA = {}


def data_of(game):
    if game not in _DATA:
        _DATA[game] = registry.get(game).load_data(None)
    return _DATA[game]


def halted(game, turns, players=2, seed=2024, index=0):
    """The golden game (random players) after `turns` turns, at the start of the next one."""
    st = carcassonne.play_logged(data_of(game), players, np.zeros(players, dtype=np.int8), seed, index,
                                 halt_at=turns)
    assert st.halted
    return st


def asked(st, point, options):
    """The record as the step API hands it over: its options in st.opts."""
    st.opts[:len(options)] = options
    st.n_opts = len(options)
    return Decision(int(st.seat), point, 0, tuple(int(v) for v in options))


def placement(game, st):
    """The turn's tile drawn (a copy of st): the placement decision."""
    st = st.copy()
    tt = data_of(game).tables[0]
    t = rules.draw_placeable(st, tt)
    n = rules.list_placements(st, tt, t)
    return st, asked(st, PLACEMENT, st.opt_cell[:n].astype(np.int64) * 4 + st.opt_rot[:n])


def action(game, st, x, y, rot):
    """The drawn tile placed at (x, y) turned rot: the action decision."""
    st, _ = placement(game, st)
    tt = data_of(game).tables[0]
    rules.place_tile(st, tt, int(st.deck[st.top - 1]), rot, cell_of(x, y))
    n = rules.list_actions(st, tt, st.seat)
    return st, asked(st, ACTION, st.actions[:n])


def ark_move(game, st, x, y, rot):
    """ARK chosen: the Ark's move decision."""
    st, decision = action(game, st, x, y, rot)
    assert ARK * 16 in decision.options
    m = rules.list_ark_outcomes(st, data_of(game).tables[0])
    return st, asked(st, ARK_MOVE, ARK * 16 + np.arange(m))


def entry(game, st, x, y, rot, act=PASS * 16):
    """The action taken and the turn scored: the Ark's entry decision."""
    st, _ = action(game, st, x, y, rot)
    tt = data_of(game).tables[0]
    rules.apply_action(st, tt, st.seat, act)
    scoring.score_turn(st, tt)
    n = rules.list_ark_entries(st, tt)
    return st, asked(st, ENTRY, st.tmp[:n])


def words(game, st, decision):
    data = data_of(game)
    return [view.action_to_string(data, st.players, st, decision, v) for v in decision.options]


# ---------------------------------------------------------------- decisions and the action space

def test_every_decision_point_has_a_name():
    assert view.DECISIONS == {PLACEMENT: "placement", ACTION: "action", ARK_MOVE: "ark move", ENTRY: "ark entry"}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_action_space_is_the_placements_of_the_reach(game, players):
    # 72 tiles: the 71 after the start reach 71 steps from (0,0): 2*71*71 + 2*71 + 1 cells, 4 rotations
    assert view.num_distinct_actions(data_of(game), players) == 4 * 10225 == 40900


def test_a_variant_set_reaches_as_far_as_its_tiles_and_never_the_border():
    assert len(view.reach_cells(3)) == 13                  # (0,0) and the 12 cells 1 or 2 steps away
    assert len(view.reach_cells(200)) == 145 * 145         # the whole grid inside the border ring


@pytest.mark.parametrize("reenter, bound", [(1, view.ARK_OUTCOMES_REENTER), (0, view.ARK_OUTCOMES_SIMPLE)])
def test_the_ark_move_bound_is_the_engines_count_on_a_full_board(reenter, bound):
    """CA-7.5: on a board with every cell filled the Ark has the most outcomes; fewer tiles only
    remove paths. The engine's own enumeration must find exactly the bound."""
    st = new_state()[0]
    tt = data_of("carcassonne-ark").tables.copy()[0]
    tt["rules"][rules.R_ARK_REENTER] = reenter
    for dx in range(-6, 7):
        for dy in range(-6, 7):
            st["cell_pidx"][cell_of(dx, dy)] = 0
    st["ark_cell"] = cell_of(0, 0)
    assert rules.list_ark_outcomes(st, tt) == bound
    assert ARK * 16 + bound <= view.num_distinct_actions(data_of("carcassonne-ark"), 2)


def assert_ids_fit(game, decision):
    data = data_of(game)
    ids = [view.action_id(data, 2, decision, v) for v in decision.options]
    assert len(set(ids)) == len(ids)
    assert all(0 <= i < view.num_distinct_actions(data, 2) for i in ids)
    assert ids == [view.action_id(data, 5, decision, v) for v in decision.options]     # stable
    return ids


def test_action_ids_are_distinct_in_range_and_stable():
    game = "carcassonne-ark"
    st = halted(game, 9)
    _, place = placement(game, st)
    assert len(place.options) > 1
    ids = assert_ids_fit(game, place)
    # the reach numbers cells in (x, y) order, as the options come (CA-13.6)
    assert ids == sorted(ids)
    _, act = action(game, st, 1, -1, 3)
    assert assert_ids_fit(game, act) == list(act.options)
    _, move = ark_move(game, st, 1, -1, 3)
    assert len(move.options) > 20
    assert assert_ids_fit(game, move) == [ARK * 16 + k for k in range(len(move.options))]
    _, enter = entry(game, halted(game, 8), -2, 1, 3)
    assert len(enter.options) == 2
    assert_ids_fit(game, enter)


def test_an_id_is_the_cell_in_the_reach_and_the_rotation():
    data = data_of("carcassonne")
    centre = (len(view.reach_cells(72)) - 1) // 2                  # (0,0), the middle of the reach
    decision = Decision(0, PLACEMENT, 0, ())
    assert view.action_id(data, 2, decision, cell_of(0, 0) * 4 + 3) == centre * 4 + 3
    assert view.action_id(data, 2, decision, cell_of(0, 1) * 4) == (centre + 1) * 4     # next y, same x
    assert view.action_id(data, 2, decision, cell_of(-71, 0) * 4) == 0                   # the westmost cell
    assert view.action_id(data, 2, Decision(0, ENTRY, 0, ()), cell_of(0, 0)) == centre
    with pytest.raises(ValueError):
        view.action_id(data, 2, decision, cell_of(40, 32) * 4)                        # 72 steps away


# ---------------------------------------------------------------- moves in words (the golden replays)

def test_a_placement_in_words():
    game = "carcassonne-ark"
    st, decision = placement(game, halted(game, 1))
    said = dict(zip(decision.options, words(game, st, decision)))
    assert said[cell_of(-1, 0) * 4] == "Blue draws ARK-FRFR-a, places it at (-1,0) turned 0°"


def test_actions_in_words():
    game = "carcassonne-ark"
    st, decision = action(game, halted(game, 1), -1, 0, 0)
    said = dict(zip(decision.options, words(game, st, decision)))
    assert said[PASS * 16] == "Blue places no figure"
    road = [v for v, text in said.items() if text == "Blue puts a follower on the road E+W"]
    assert len(road) == 1 and road[0] // 16 == FOLLOWER
    st, decision = action(game, halted(game, 2), -1, -1, 1)
    assert "Red puts the prophet on the city E" in words(game, st, decision)
    assert [v // 16 for v in decision.options].count(PROPHET) == 1


def test_the_ark_in_words():
    game = "carcassonne-ark"
    st, decision = action(game, halted(game, 9), 1, -1, 3)
    assert view.action_to_string(data_of(game), 2, st, decision, ARK * 16) == "Blue moves the Ark"
    st, decision = ark_move(game, halted(game, 9), 1, -1, 3)
    assert "Blue moves the Ark 4 steps: (-3,1) -> (-3,0) -> (-2,0) -> (-1,0) -> (-1,-1)" in words(game, st, decision)
    assert "Blue moves the Ark 1 step: (-3,1) -> (-3,0)" in words(game, st, decision)
    st, decision = entry(game, halted(game, 8), -2, 1, 3)
    assert words(game, st, decision) == ["the Ark enters the board at (-3,1)", "the Ark enters the board at (-2,1)"]


def test_a_monastery_in_words():
    game = "carcassonne"
    st, decision = action(game, halted(game, 7), -2, 0, 0)
    assert "Blue puts a follower on the monastery" in words(game, st, decision)


# ---------------------------------------------------------------- what a seat sees

def test_the_observation_of_a_placement():
    game = "carcassonne-ark"
    st, decision = placement(game, halted(game, 9))
    obs = view.observation(data_of(game), 2, st, 0, decision)
    json.dumps(obs)
    assert obs["seat"] == 0 and obs["to_move"] == 1 and obs["turns_played"] == 9 and not obs["over"]
    assert obs["decision"] == {"seat": 1, "point": "placement", "context": 0}
    assert obs["drawn"] == "ARK-28"                     # golden turn 10: Blue draws ARK-28
    assert obs["scores"] == [4, 0] and obs["points"]["cities"] == [4, 0]
    assert len(obs["tiles"]) == 10 and obs["tiles"][0] == {"tile": "ARK-27", "x": 0, "y": 0, "rotation": 0}
    assert obs["ark"] == {"x": -3, "y": 1}
    assert obs["prophets"] == ["on board", "on board"]
    # 72 tiles: 10 laid, 1 in hand, 61 in the pile
    assert obs["pile_size"] == 61 == sum(obs["pile"].values())
    assert obs["discarded"] == {}
    assert obs["figures"][-1] == {"seat": 1, "kind": "prophet", "x": -2, "y": -2, "segment": 0, "on": "city E+S+W"}
    assert [f["seat"] for f in obs["figures"]] == [1, 0, 0, 1, 1]    # by the tile they stand on


def test_after_the_placement_the_tile_is_on_the_board_not_in_hand():
    game = "carcassonne-ark"
    st, decision = action(game, halted(game, 9), 1, -1, 3)
    obs = view.observation(data_of(game), 2, st, 1, decision)
    assert obs["drawn"] is None
    assert obs["tiles"][-1] == {"tile": "ARK-28", "x": 1, "y": -1, "rotation": 3}
    assert obs["decision"]["point"] == "action"


def test_the_final_observation():
    for game in GAMES:
        data = data_of(game)
        st = carcassonne.play_logged(data, 3, np.zeros(3, dtype=np.int8), 7, 1)
        obs = view.observation(data, 3, st, 2, None)
        json.dumps(obs)
        assert obs["over"] and obs["decision"] is None and obs["to_move"] is None
        assert obs["pile"] == {} and obs["drawn"] is None
        assert len(obs["tiles"]) + sum(obs["discarded"].values()) == 72         # CA-10.1
        assert obs["scores"] == [sum(obs["points"][c][s] for c in obs["points"]) for s in range(3)]
        assert len(view.observation_tensor(data, 3, st, 2, None)) == view.tensor_size(data, 3)


def test_a_discarded_tile_is_seen():
    """CA-4.4: a tile that fits nowhere is shown and boxed; the same player draws again."""
    game = "carcassonne"
    before = halted(game, 2, index=5)                 # game 5 of seed 2024: turn 3 first draws B, which fits nowhere
    assert view.observation(data_of(game), 2, before, 0, None)["discarded"] == {}
    st, decision = placement(game, before)
    assert st.discarded == 1
    obs = view.observation(data_of(game), 2, st, 0, decision)
    assert obs["discarded"] == {"B": 1}
    assert obs["drawn"] == data_of(game).ids[int(st.deck[st.top - 1])] != "B"
    assert obs["pile_size"] == 72 - 3 - 1 - 1 == sum(obs["pile"].values())


def seen(game, st, seat, decision):
    data = data_of(game)
    return view.observation(data, 2, st, seat, decision), view.observation_tensor(data, 2, st, seat, decision)



@pytest.mark.parametrize("game", GAMES)
def test_the_pile_order_is_hidden_and_all_else_seen(game):
    """CA-13.3: only the order of the draw pile is hidden (what determinize redraws)."""
    st, decision = placement(game, halted(game, 20))
    before = seen(game, st, 0, decision)
    shuffled = st.copy()
    rest = shuffled.deck[shuffled.top:shuffled.n_deck]
    assert len(set(rest.tolist())) > 1
    shuffled.deck[shuffled.top:shuffled.n_deck] = np.random.default_rng(1).permutation(rest)
    assert not np.array_equal(shuffled.deck, st.deck)
    assert_same(seen(game, shuffled, 0, decision), before)
    # nor the random streams, which hold the rest of the game's chance and the players' choices
    reseeded = shuffled.copy()
    reseeded.gen_chance[:] = 12345
    reseeded.gen_decide[:] = 678
    assert_same(seen(game, reseeded, 0, decision), before)
    # the tile in hand is seen
    other = st.copy()
    i = next(i for i in range(st.top, st.n_deck) if st.deck[i] != st.deck[st.top - 1])
    other.deck[st.top - 1], other.deck[i] = st.deck[i], st.deck[st.top - 1]
    assert_differ(seen(game, other, 0, decision), before)
    # a score, a supply, a figure and a tile of the board are seen
    for change in ("vp", "supply", "figure", "tile"):
        other = st.copy()
        if change == "vp":
            other.vp[1] += 3
            other.pts[1, 0] += 3
        elif change == "supply":
            other.supply[0] -= 1
        elif change == "figure":
            other.fig_node[1, 6] = 5 * 12          # a figure on tile 5's first segment
        else:
            other.p_rot[3] = (other.p_rot[3] + 1) % 4
        assert_differ(seen(game, other, 0, decision), before)
    # every seat sees the same but for being told who it is
    assert {k: v for k, v in seen(game, st, 1, decision)[0].items() if k != "seat"} == \
           {k: v for k, v in before[0].items() if k != "seat"}


def test_the_ark_is_seen():
    game = "carcassonne-ark"
    st, decision = placement(game, halted(game, 12))
    before = seen(game, st, 0, decision)
    moved = st.copy()
    moved.ark_cell = moved.p_cell[0]
    assert moved.ark_cell != st.ark_cell
    assert_differ(seen(game, moved, 0, decision), before)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_tensor_has_its_size_for_every_player_count(game, players):
    data = data_of(game)
    st = carcassonne.play_logged(data, players, np.zeros(players, dtype=np.int8), 3, 0, halt_at=15)
    decision = Decision(int(st.seat), PLACEMENT, 0, ())
    tensor = view.observation_tensor(data, players, st, players - 1, decision)
    assert tensor.dtype == np.float32 and tensor.shape == (view.tensor_size(data, players),)
    per_tile = 3 + len(data.ids) + 4 + players + MAX_SEG_PLUS_ARK[game]
    assert view.tensor_size(data, players) == dict(view.tensor_parts(data, players))["tiles"] + \
        sum(n for name, n in view.tensor_parts(data, players) if name != "tiles")
    assert dict(view.tensor_parts(data, players))["tiles"] == 72 * per_tile
    json.dumps(view.observation(data, players, st, 0, decision))


MAX_SEG_PLUS_ARK = {"carcassonne": 12, "carcassonne-ark": 12 + 2}     # segments; prophet and Ark flags


def test_the_tensor_lists_the_tiles_as_laid():
    game = "carcassonne"
    data = data_of(game)
    st, decision = action(game, halted(game, 7), -2, 0, 0)
    monastery = int(data.tables[0]["cloister_seg"][data.ids.index("A")])
    rules.apply_action(st, data.tables[0], 1, FOLLOWER * 16 + monastery)     # golden turn 8
    tensor = view.observation_tensor(data, 2, st, 0, decision)
    slot = view.tile_slot_size(data, 2)
    tiles = tensor[-72 * slot:].reshape(72, slot)
    a = tiles[8]                                    # tile 8: the monastery A laid in turn 8
    assert a[:3].tolist() == [1, -2, 0]
    assert a[3 + data.ids.index("A")] == 1 and a[3:3 + len(data.ids)].sum() == 1
    assert a[3 + len(data.ids):3 + len(data.ids) + 4].tolist() == [1, 0, 0, 0]
    figure = a[3 + len(data.ids) + 4:]
    assert figure[:2].tolist() == [0, 1]                        # Blue's
    assert figure[2:].tolist() == [1 if g == monastery else 0 for g in range(12)]
    assert tiles[9:].sum() == 0                     # no tile laid there yet
