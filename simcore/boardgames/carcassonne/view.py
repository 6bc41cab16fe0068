"""Carcassonne as one seat sees it, and its moves in words: the step API's part of the game
(simcore/step.py). One module serves both rule sets, the base game and The Ark of the Covenant
(data.rules["ruleset"] is "base" or "ark").

What a seat sees. Everything in Carcassonne is public except the order of the draw pile
(CA-13.3): the board (every tile laid, where, turned how; CA-0.1 numbers them in the order laid),
the figures on it, the Ark, the supplies, the prophets, the scores, the tiles discarded (each is
shown when drawn, CA-4.4) and the tile just drawn, which its player shows before placing it
(CA-4.1). The tiles still in the pile are known as a multiset, the set less those placed,
discarded and drawn; their order is what policies.determinize redraws, and the only thing this
view leaves out. So every seat sees the same, apart from being told which seat it is.

The drawn tile is not a field of the record: draw_placeable leaves it as deck[top - 1] (it
moves `top` past it), and it is still in hand exactly while one more tile has been drawn than
placed or discarded: top - discarded == n_placed (the start tile is not in the pile).

The action space. Ids are pure functions of the option value and the decision point, and may
repeat across points:
  placement   value cell * 4 + rotation -> reach index of the cell * 4 + rotation. A tile can
              only be laid next to one already laid, so the k-th tile after the start lies within
              k orthogonal steps of (0, 0): the reach is every cell within set_size - 1 steps of
              (0, 0) (and off the grid's border ring, rules.on_border), numbered in the board's
              (x, y) order. 72 tiles: 10,225 cells, 40,900 ids.
  action      value kind * 16 + segment (PASS, FOLLOWER, PROPHET; CA-13), or ARK * 16 = 48 for
              "move the Ark": the id is the value (< 49).
  ark move    value ARK * 16 + k, k the outcome's index in rules.list_ark_outcomes: the id is the
              value. k < 580, the distinct outcomes (entered tiles, end tile) of paths of 1-5
              steps on a board with every cell filled (600 paths, some alike once the path may
              pass back over its start, AMB-08); 436 under ARK_MAY_REENTER_START = false, where
              every path is its own outcome. Fewer tiles only remove paths.
  ark entry   value cell -> its reach index (CA-7.2: a tile of a completed city, so in reach).
num_distinct_actions is the largest of these, the placements' for every shipped set and
player count.

The tensor. Not a picture of the board: the 147 x 147 grid (state.GRID) would be 21,609 cells,
and a window around the tiles is either large (a game's tiles spread over up to 23 columns or
rows in 800 random and greedy games, 72 in a line at worst) or loses the tiles outside it. The
tensor instead lists the tiles in the order laid, one slot per tile of the set: whether it is
laid, its (x, y), its type and rotation (one-hot), the figure on it (a figure only ever goes on
the tile just laid, CA-5.2, one action a turn, CA-3.1: at most one per tile) and whether the Ark
stands there. That is the whole board with no loss: 72 slots of 45 (base game, 2 players) to 79
(the Ark, 5 players) numbers. Then the seats' scores, points by category, supplies and prophets,
the drawn tile, the pile's and the discards' counts by type, whose decision it is and which.
Counts, points and (x, y) are plain numbers, not normalised. tensor_parts gives the layout:
3,334 to 3,574 numbers in the base game, 5,662 to 5,914 in the Ark.
"""
import functools

import numpy as np

from simcore.seats import SEAT_NAMES
from simcore.boardgames.carcassonne import describe
from simcore.boardgames.carcassonne.components import MAX_SEG
from simcore.boardgames.carcassonne.playout import ACTION, ARK_MOVE, ENTRY, PLACEMENT
from simcore.boardgames.carcassonne.state import (
    ARK, ARK_CATEGORIES, BASE_CATEGORIES, GRID, N_CELLS, ORIGIN, PROPHET_SLOT, SLOTS, xy_of)

DECISIONS = {PLACEMENT: "placement", ACTION: "action", ARK_MOVE: "ark move", ENTRY: "ark entry"}

# distinct Ark outcomes from one cell with every cell around it filled (module docstring)
ARK_OUTCOMES_REENTER = 580
ARK_OUTCOMES_SIMPLE = 436
PROPHET_STATES = ("available", "on board", "boxed")     # state.PROPHET_AVAILABLE, ..._ON_BOARD, ..._BOXED


# ---------------------------------------------------------------- the component data

def is_ark(data):
    return data.rules["ruleset"] == "ark"


def categories(data):
    return ARK_CATEGORIES if is_ark(data) else BASE_CATEGORIES


def set_size(data):
    """The tiles of the set, the start tile included (72 in the box, CA-1.1)."""
    return int(data.tables[0]["count"].sum())


def ark_outcome_bound(data):
    """More Ark outcomes than any board offers (module docstring)."""
    return ARK_OUTCOMES_REENTER if data.rules["ARK_MAY_REENTER_START"] else ARK_OUTCOMES_SIMPLE


@functools.lru_cache(maxsize=None)
def reach_cells(tiles):
    """The cells a set of `tiles` tiles can ever cover, ascending (the board's (x, y) order):
    within tiles - 1 orthogonal steps of the start tile, off the border ring."""
    cells = np.arange(N_CELLS)
    gx, gy = cells // GRID, cells % GRID
    inside = (gx > 0) & (gy > 0) & (gx < GRID - 1) & (gy < GRID - 1)
    near = np.abs(gx - ORIGIN) + np.abs(gy - ORIGIN) <= tiles - 1
    return cells[inside & near]


def reach_index(data, cell):
    cells = reach_cells(set_size(data))
    i = int(np.searchsorted(cells, cell))
    if i == len(cells) or cells[i] != cell:
        raise ValueError(f"cell {describe.where(cell)} is out of reach of a set of {set_size(data)} tiles")
    return i


# ---------------------------------------------------------------- the action space

def num_distinct_actions(data, players):
    """Placements dominate; the phase-A actions and the Ark's outcomes share ids below them."""
    return max(4 * len(reach_cells(set_size(data))), ARK * 16 + ark_outcome_bound(data))


def action_id(data, players, decision, value):
    value = int(value)
    if decision.point == PLACEMENT:
        return reach_index(data, value // 4) * 4 + value % 4
    if decision.point == ENTRY:
        return reach_index(data, value)
    if not 0 <= value < num_distinct_actions(data, players):
        raise ValueError(f"option {value} of the {DECISIONS[decision.point]} is not an action")
    return value                # ACTION: kind * 16 + segment or ARK * 16; ARK_MOVE: ARK * 16 + k


# ---------------------------------------------------------------- the record, read

def drawn_tile(st):
    """The tile type drawn and not yet placed (module docstring), or -1."""
    if int(st["top"]) - int(st["discarded"]) == int(st["n_placed"]) and int(st["top"]) > 0:
        return int(st["deck"][int(st["top"]) - 1])
    return -1


def type_counts(data, types):
    return np.bincount(np.asarray(types, dtype=np.int64), minlength=len(data.ids))[:len(data.ids)]


def pile_counts(data, st):
    """The tiles still to draw, by type: public as a multiset, their order hidden (CA-13.3)."""
    return type_counts(data, st["deck"][int(st["top"]):int(st["n_deck"])])


def discard_counts(data, st):
    """The tiles drawn that fit nowhere (CA-4.4), by type: drawn less laid less the one in hand."""
    drawn = type_counts(data, st["deck"][:int(st["top"])])
    laid = type_counts(data, st["p_type"][1:int(st["n_placed"])])
    held = drawn_tile(st)
    in_hand = type_counts(data, [held] if held >= 0 else [])
    return drawn - laid - in_hand


def figures(st, players):
    """Every figure on the board as (tile index, seat, prophet, segment), in the order the tiles were laid."""
    out = []
    for seat in range(players):
        for slot in range(SLOTS):
            node = int(st["fig_node"][seat, slot])
            if node >= 0:
                out.append((node // MAX_SEG, seat, slot == PROPHET_SLOT, node % MAX_SEG))
    return sorted(out)


def last_tile(st):
    """The tile laid this turn: its (type, cell, rotation)."""
    p = int(st["n_placed"]) - 1
    return int(st["p_type"][p]), int(st["p_cell"][p]), int(st["p_rot"][p])


# ---------------------------------------------------------------- moves in words

def action_to_string(data, players, st, decision, value):
    """The move as simcore replay words it (describe.replay_lines)."""
    value = int(value)
    seat = SEAT_NAMES[decision.seat]
    if decision.point == PLACEMENT:
        cell, rot = divmod(value, 4)
        return (f"{seat} draws {data.ids[drawn_tile(st)]}, places it at {describe.where(cell)} "
                f"turned {90 * rot}°")
    if decision.point == ENTRY:
        return f"the Ark enters the board at {describe.where(value)}"
    if decision.point == ACTION and value == ARK * 16:
        return f"{seat} moves the Ark"            # where to is the next decision (ark move)
    tile, cell, rot = last_tile(st)
    turn = describe.Turn(int(st["round_no"]), decision.seat, tile, cell, rot, discards=[], action=value)
    if decision.point == ARK_MOVE:
        k = value - ARK * 16
        turn.ark_path = [int(c) for c in st["ark_path"][k, :int(st["ark_len"][k])]]
    return describe.action_line(data, turn, int(st["ark_cell"])).strip()


# ---------------------------------------------------------------- the observation

def observation(data, players, st, seat, decision):
    tt = data.tables[0]
    ark = is_ark(data)
    tiles = []
    for p in range(int(st["n_placed"])):
        x, y = xy_of(int(st["p_cell"][p]))
        tiles.append({"tile": data.ids[int(st["p_type"][p])], "x": int(x), "y": int(y),
                      "rotation": int(st["p_rot"][p])})
    on_board = []
    for p, owner, prophet, g in figures(st, players):
        x, y = xy_of(int(st["p_cell"][p]))
        on_board.append({"seat": owner, "kind": "prophet" if prophet else "follower", "x": int(x), "y": int(y),
                         "segment": g, "on": describe.segment_label(tt, int(st["p_type"][p]), int(st["p_rot"][p]), g)})
    held = drawn_tile(st)
    obs = {
        "game": "carcassonne-ark" if ark else "carcassonne",
        "players": int(players),
        "seat": int(seat),
        "turns_played": int(st["round_no"]),        # the start tile is no turn; replay calls turn 0 "turn 1"
        "to_move": None if decision is None else int(decision.seat),
        "decision": None if decision is None else {
            "seat": int(decision.seat), "point": DECISIONS[decision.point], "context": int(decision.context)},
        "over": decision is None,
        "scores": [int(v) for v in st["vp"][:players]],
        "points": {c: [int(st["pts"][s, k]) for s in range(players)] for k, c in enumerate(categories(data))},
        "supply": [int(v) for v in st["supply"][:players]],
        "tiles": tiles,
        "figures": on_board,
        "drawn": data.ids[held] if held >= 0 else None,
        "pile_size": int(st["n_deck"]) - int(st["top"]),
        "pile": {data.ids[t]: int(n) for t, n in enumerate(pile_counts(data, st)) if n},
        "discarded": {data.ids[t]: int(n) for t, n in enumerate(discard_counts(data, st)) if n},
    }
    if ark:
        obs["prophets"] = [PROPHET_STATES[int(v)] for v in st["prophet_state"][:players]]
        cell = int(st["ark_cell"])
        obs["ark"] = None if cell < 0 else dict(zip(("x", "y"), map(int, xy_of(cell))))
    return obs


# ---------------------------------------------------------------- the tensor

def tile_slot_size(data, players):
    """One laid tile: laid, x, y, type, rotation, its figure's owner (prophet) and segment, the Ark."""
    ark = int(is_ark(data))
    return 3 + len(data.ids) + 4 + players + ark + MAX_SEG + ark


def tensor_parts(data, players):
    """The tensor's layout: (name, length) in order."""
    n_types = len(data.ids)
    parts = [("observer", players), ("to_move", players), ("decision", len(DECISIONS)), ("over", 1),
             ("turns_played", 1), ("scores", players), ("points", players * len(categories(data))),
             ("supply", players)]
    if is_ark(data):
        parts += [("prophets", players * len(PROPHET_STATES)), ("ark_on_board", 1)]
    parts += [("drawn", n_types), ("pile", n_types), ("discarded", n_types),
              ("tiles", set_size(data) * tile_slot_size(data, players))]
    return parts


def tensor_size(data, players):
    return sum(n for _, n in tensor_parts(data, players))


def one_hot(n, i):
    v = np.zeros(n, dtype=np.float32)
    if i >= 0:
        v[i] = 1
    return v


def tile_slots(data, players, st):
    ark = is_ark(data)
    n_types = len(data.ids)
    slots = np.zeros((set_size(data), tile_slot_size(data, players)), dtype=np.float32)
    owner_at = 3 + n_types + 4
    segment_at = owner_at + players + ark
    for p in range(int(st["n_placed"])):
        x, y = xy_of(int(st["p_cell"][p]))
        slots[p, :3] = 1, x, y
        slots[p, 3 + int(st["p_type"][p])] = 1
        slots[p, 3 + n_types + int(st["p_rot"][p])] = 1
        if ark and int(st["p_cell"][p]) == int(st["ark_cell"]):
            slots[p, -1] = 1
    for p, owner, prophet, g in figures(st, players):
        slots[p, owner_at + owner] += 1
        if prophet:
            slots[p, owner_at + players] = 1
        slots[p, segment_at + g] += 1
    return slots.ravel()


def observation_tensor(data, players, st, seat, decision):
    parts = [one_hot(players, seat),
             one_hot(players, -1 if decision is None else decision.seat),
             one_hot(len(DECISIONS), -1 if decision is None else decision.point),     # points are 0..3
             [decision is None],
             [int(st["round_no"])],
             st["vp"][:players],
             st["pts"][:players, :len(categories(data))].ravel(),
             st["supply"][:players]]
    if is_ark(data):
        parts += [np.concatenate([one_hot(len(PROPHET_STATES), int(v)) for v in st["prophet_state"][:players]]),
                  [int(st["ark_cell"]) >= 0]]
    parts += [one_hot(len(data.ids), drawn_tile(st)), pile_counts(data, st), discard_counts(data, st),
              tile_slots(data, players, st)]
    tensor = np.concatenate([np.asarray(p, dtype=np.float32) for p in parts])
    assert len(tensor) == tensor_size(data, players)
    return tensor
