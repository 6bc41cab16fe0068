"""Random-simulation invariants of the Carcassonne engine (CA-17, and CB-3/CB-4 for the base game).

The fast part plays >= 1,000 seeded games per player count and rule set (plus 300 per player
count with every rule switch flipped) with the engine's invariant checker on after every step
(simcore/boardgames/carcassonne/check.py: a compiled turn loop that mirrors playout.run_game
and checks the invariants after every placement, action, phase S, turn and the game). The first
violation of a game comes back as (error code, turn, detail); the test asserts there is none
and otherwise names the invariant, the seed and the game.

The loop is checked against the engine itself: every checked game must give exactly the points
and counters of spec.play_batch, so it cannot silently drift away from play_game.

The slow part (plain Python, 20 games) compares the placement enumerator with a brute-force
legality check over the bounding box x 4 rotations (INV-12), the discard decision with the same
brute force, and the Ark's outcome list with a brute-force path enumeration (CA-7.5, CA-12.10).
"""
import dataclasses
import json

import numpy as np
import pytest

from simcore import registry
from simcore.boardgames.carcassonne import components as cp
from simcore.boardgames.carcassonne.check import (
    DETAILS, E_FEATURES, E_FOLLOWERS, E_FRONTIER, E_OPEN, E_SCORE_SUM, E_TILES, N_SLOTS, N_WORK, VIOLATIONS, check_state, checked_batch,
)
from simcore.boardgames.carcassonne.components import BOX_TILES, CITY, ROAD
from simcore.boardgames.carcassonne.policies import best_ark_value, best_tallied_outcome, choose_action, choose_placement
from simcore.boardgames.carcassonne.playout import resolve_turn
from simcore.boardgames.carcassonne.rules import (
    BALL_CENTRE, ball_occupied, count_ark_outcomes, draw_placeable, list_ark_outcomes, list_placements, place_tile, reset,
    walk_ark_outcomes)
from simcore.boardgames.carcassonne.state import (
    CAT_ROAD, GRID, MAX_PLAYERS, N_CELLS, N_NODES, cell_of, new_state, xy_of,
)
from simcore.players import lineup
from simcore.contract import UserError

GAMES = 1000                  # per player count and rule set (CA-17: "many seeded random games")
NONDEFAULT_GAMES = 300        # per player count, with every rule switch flipped


# ------------------------------------------------------------------ fixtures and helpers

RULESETS = {"carcassonne": "base", "carcassonne-ark": "ark"}

# every rule switch away from its default (CA-11); the base game refuses the Ark's switches
NONDEFAULT_RULES = {
    "START_TILE_ROTATION": 1,
    "START_PLAYER": 1,
    "PROPHET_DOUBLES_INCOMPLETE": True,
    "ARK_COUNTS_PROPHETS": False,
    "ARK_COUNTS_FIELD_FOLLOWERS": False,
    "ARK_MAY_REENTER_START": False,
    "ARK_ENTRY_SCOPE": "PLACED_TILE",
    "INCOMPLETE_TEMPLE_COUNTS_PROPHETS": False,
    "FIELD_SCORE_MAY_BE_NEGATIVE": True,
    "DEDUPE_SYMMETRIC_PLACEMENTS": False,
    "EMPTY_SUPPLY_TILE_ONLY": False,
}


def nondefault_rules(ruleset):
    """NONDEFAULT_RULES, in the base game without the Ark's switches."""
    return {name: value for name, value in NONDEFAULT_RULES.items()
            if ruleset == "ark" or name not in cp.ARK_ONLY_RULES}


def default_document(ruleset):
    with open(cp.default_path(ruleset), encoding="utf-8") as fh:
        return json.load(fh)


def with_rules(ruleset, rules):
    """The default tile set of `ruleset` with rule switches set in the document (CA-11)."""
    return cp.from_document(default_document(ruleset) | {"rules": rules}, ruleset)


def seat_policy_matrix(count, players, salt):
    """Rows of seat policies (0 random, 1 greedy): all random, all greedy and mixes, in turn."""
    gen = np.random.default_rng(salt)
    rows = gen.integers(0, 2, size=(count, players)).astype(np.int8)
    rows[0::3] = 0
    rows[1::3] = 1
    return rows


def run_and_check(game_id, data, players, count, seed):
    spec = registry.get(game_id)
    policies = seat_policy_matrix(count, players, seed)
    pts, game, found = checked_batch(data, players, policies, seed, 0)
    broken = np.flatnonzero(found[:, 0])
    if broken.size:
        index = int(broken[0])
        code, turn, detail = (int(v) for v in found[index])
        pytest.fail(
            f"{game_id}, {players} players, rules {data.rules}, seed {seed}, game {index}, seat policies "
            f"{policies[index].tolist()} (0 random, 1 greedy), in turn {turn}: error {code}: "
            f"{VIOLATIONS.get(code)}; detail ({DETAILS.get(code)}) {detail}")
    # the checked loop must be the engine's own game: same points and counters as play_batch
    batch = spec.play_batch(data, players, policies, seed, 0)
    n_cat = batch.pts.shape[2]
    differ = np.flatnonzero((pts[:, :, :n_cat] != batch.pts).any(axis=(1, 2)) | (game != batch.game).any(axis=1))
    assert differ.size == 0, (
        f"{game_id}, {players} players, seed {seed}: the checked loop and spec.play_batch disagree on "
        f"{differ.size} of {count} games (first: game {int(differ[0])}). Either checked_game no longer "
        f"mirrors playout.run_game, or a numba on-disk cache is stale: cache=True does not notice "
        f"changes in other modules, so delete the NUMBA_CACHE_DIR folder you chose and run again.")
    assert (game[:, 0] + game[:, 1] == BOX_TILES - 1).all()
    return pts, game


# ------------------------------------------------------------------ the tests

@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("game_id", ["carcassonne", "carcassonne-ark"])
def test_invariants_hold_after_every_turn_of_many_random_games(game_id, players):
    data = registry.get(game_id).load_data(None)
    seed = 1_700 + 10 * players + (1 if game_id == "carcassonne-ark" else 0)
    pts, _ = run_and_check(game_id, data, players, GAMES, seed)
    assert (pts >= 0).all()         # CA-1.6: never negative under default flags


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("game_id", ["carcassonne", "carcassonne-ark"])
def test_invariants_hold_with_every_rule_switch_flipped(game_id, players):
    ruleset = RULESETS[game_id]
    data = with_rules(ruleset, nondefault_rules(ruleset))
    assert data.rules["START_TILE_ROTATION"] == 1 and not data.rules["DEDUPE_SYMMETRIC_PLACEMENTS"]
    assert data.rules["ARK_ENTRY_SCOPE"] == ("PLACED_TILE" if ruleset == "ark" else "CITY_TILES")
    seed = 2_900 + 10 * players + (1 if game_id == "carcassonne-ark" else 0)
    run_and_check(game_id, data, players, NONDEFAULT_GAMES, seed)


def test_the_checker_catches_a_broken_state():
    """The checks are not vacuous: a follower smuggled off the board breaks INV-01, a point out of
    nowhere breaks INV-11, an open side too many breaks INV-05, a frontier cell missing from the
    bitmap or an occupied cell in it breaks the frontier's books, two features the ports keep apart merged in the union-find break CA-8.1."""
    data = registry.get("carcassonne-ark").load_data(None)
    tt = data.tables[0]
    ws = new_state()
    st = ws[0]
    work = np.zeros((N_WORK, N_SLOTS), np.int64)
    figcnt = np.zeros((N_NODES, MAX_PLAYERS), np.int64)
    mark = np.zeros(N_CELLS, np.int64)
    ctr = np.zeros(2, np.int64)      # mark's last stamp; the tiles check_features has joined
    reset(st, tt, 2, np.zeros(MAX_PLAYERS, np.int8), np.int64(1), np.int64(0))
    assert check_state(st, tt, work, figcnt, mark, ctr, True, False, False) == (0, 0)
    st["supply"][0] -= 1
    assert check_state(st, tt, work, figcnt, mark, ctr, True, False, False) == (E_FOLLOWERS, 0)
    st["supply"][0] += 1
    st["pts"][1, CAT_ROAD] += 3
    assert check_state(st, tt, work, figcnt, mark, ctr, True, False, False) == (E_SCORE_SUM, 1)
    st["pts"][1, CAT_ROAD] -= 3
    # an open side too many on the start tile's first road or city (INV-05, CA-8.2/CA-8.3)
    road = next(g for g in range(tt["n_seg"][st["p_type"][0]]) if tt["seg_kind"][st["p_type"][0], g] in (ROAD, CITY))
    st["seg"]["open"][road] += 1
    assert check_state(st, tt, work, figcnt, mark, ctr, True, False, False) == (E_OPEN, road)
    st["seg"]["open"][road] -= 1
    # the frontier bitmap: a frontier cell's bit cleared, then the start tile's own cell's bit set
    start, beside = st["p_cell"][0], st["p_cell"][0] + 1
    assert beside + GRID > start and st["cell_pidx"][beside] == -1
    st["front_bits"][beside >> 6] ^= np.uint64(1) << np.uint64(beside & 63)
    assert check_state(st, tt, work, figcnt, mark, ctr, True, False, False) == (E_FRONTIER, beside)
    st["front_bits"][beside >> 6] ^= np.uint64(1) << np.uint64(beside & 63)
    st["front_bits"][start >> 6] |= np.uint64(1) << np.uint64(start & 63)
    assert check_state(st, tt, work, figcnt, mark, ctr, True, False, False) == (E_FRONTIER, start)
    st["front_bits"][start >> 6] ^= np.uint64(1) << np.uint64(start & 63)
    assert check_state(st, tt, work, figcnt, mark, ctr, True, False, False) == (0, 0)
    st["seg"]["parent"][1] = 0            # the start tile's second segment joined to its first: CA-8.1
    assert check_state(st, tt, work, figcnt, mark, ctr, True, False, False) == (E_FEATURES, 1)


def test_check_batch_reports_each_game_s_first_broken_invariant():
    """GameSpec.check_batch (simcore check): a start tile whose count leaves out its own copy,
    slipped past the loader into the tables, breaks INV-03 before the first turn of every game
    (the pile holds the set less the start tile's 4 copies, not less 1), and the next game is
    checked afresh."""
    spec = registry.get("carcassonne")
    data = spec.load_data(None)
    seats = np.array([[0, 1], [1, 0], [0, 0]], np.int8)
    assert spec.check_batch(data, 2, seats, 5, 0).violation.tolist() == [0, 0, 0]
    short = dataclasses.replace(data, tables=data.tables.copy())
    short.tables[0]["count"][short.tables[0]["start_type"]] = 0
    found = spec.check_batch(short, 2, seats, 5, 0)
    assert found.violation.tolist() == [E_TILES] * 3 and found.step.tolist() == [0, 0, 0]
    assert spec.violations[E_TILES].startswith("tiles placed + discarded + left in the pile are not the set's")
    assert sorted(spec.violations) == list(range(1, 28))


def test_check_batch_refuses_search_seats():
    spec = registry.get("carcassonne-ark")
    search = lineup(spec, ["random", "mcts"]).table
    with pytest.raises(UserError, match="^simcore check plays random and greedy seats in Carcassonne, not mcts$"):
        spec.check_batch(spec.load_data(None), 2, np.array([[0, 2]], np.int8), 1, 0, search)


# ------------------------------------------------------------------ slow reference checks (INV-12)

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))        # N, E, S, W (CA-0.3)


def board_of(st):
    return {xy_of(int(st["p_cell"][p])): (int(st["p_type"][p]), int(st["p_rot"][p]))
            for p in range(int(st["n_placed"]))}


def brute_force_placements(board, edge, t):
    """Every legal (x, y, rot) for tile type t by CA-4.2, over the bounding box + 1 x 4 rotations."""
    xs = [x for x, _ in board]
    ys = [y for _, y in board]
    legal = set()
    for x in range(min(xs) - 1, max(xs) + 2):
        for y in range(min(ys) - 1, max(ys) + 2):
            if (x, y) in board:
                continue
            facing = [(s, board[(x + dx, y + dy)]) for s, (dx, dy) in enumerate(STEPS)
                      if (x + dx, y + dy) in board]
            if not facing:
                continue
            for r in range(4):
                if all(edge[t, r, s] == edge[tq, rq, (s + 2) % 4] for s, (tq, rq) in facing):
                    legal.add((x, y, r))
    return legal


def enumerated(st, tt, t):
    n = list_placements(st, tt, t)
    return [(*xy_of(int(st["opt_cell"][i])), int(st["opt_rot"][i])) for i in range(n)]


def brute_force_ark_outcomes(board, start, reenter):
    """CA-7.5 paths by plain DFS; outcome = (entered tiles minus the start, end tile) (CA-12.10)."""
    outcomes = set()

    def walk(path):
        here = path[-1] if path else start
        for dx, dy in STEPS:
            c = (here[0] + dx, here[1] + dy)
            if c not in board or c in path or (c == start and not reenter):
                continue
            step = path + [c]
            if c != start:
                outcomes.add((frozenset(step) - {start}, c))
            if len(step) < 5:
                walk(step)
    walk([])
    return outcomes


def signatures(doc, ruleset):
    """Tile type -> rotation -> what the placed tile looks like (CA-12.4), from the tile file."""
    parsed = [cp.parse_tile(t, ruleset, pytest.fail) for t in doc["tiles"]]
    return [[cp.rotation_signature(tile, r) for r in range(4)] for tile in parsed]


@pytest.mark.parametrize("game_id, nondefault, games", [
    ("carcassonne", False, [(2, 0), (3, 1), (4, 2), (5, 3), (2, 4), (4, 5), (3, 6), (5, 7)]),
    ("carcassonne-ark", False, [(2, 0), (3, 1), (4, 2), (5, 3), (2, 4), (4, 5), (3, 6), (5, 7)]),
    ("carcassonne-ark", True, [(2, 8), (4, 9), (3, 10)]),
    ("carcassonne", True, [(3, 8)]),
])
def test_enumerators_agree_with_brute_force(game_id, nondefault, games):
    """INV-12: with DEDUPE off the enumerator lists exactly the brute-force legal placements; with
    DEDUPE on it lists one placement per legal cell and symmetry class; a tile is discarded iff
    brute force finds no placement. CA-7.5/CA-12.10: the Ark's outcomes are exactly the
    brute-force outcomes, each once, each with a legal first path."""
    ruleset = RULESETS[game_id]
    doc = default_document(ruleset)
    rules = nondefault_rules(ruleset) if nondefault else {}
    data = cp.from_document(doc | {"rules": rules}, ruleset)
    full = cp.from_document(doc | {"rules": rules | {"DEDUPE_SYMMETRIC_PLACEMENTS": False}}, ruleset)
    tt, tt_full = data.tables[0], full.tables[0]
    edge = np.asarray(tt["edge"])
    sig = signatures(doc, ruleset)
    reenter = bool(data.rules["ARK_MAY_REENTER_START"])
    # the rotated edge tables agree with the file (CA-12.1: side s shows the printed side s - r)
    for t, tile in enumerate(doc["tiles"]):
        for r in range(4):
            assert [int(edge[t, r, s]) for s in range(4)] == \
                [cp.EDGE_LETTERS[tile["edges"]["NESW"[(s - r) % 4]]] for s in range(4)]
    seed = 4_242
    placements_checked = ark_turns = 0
    for players, index in games:
        where = f"{game_id} {players} players, rules {rules}, seed {seed}, game {index}"
        policies = np.zeros(MAX_PLAYERS, np.int8)
        policies[:players] = [(index + s) % 2 for s in range(players)]     # random and greedy seats
        ws = new_state()
        st = ws[0]
        reset(st, tt, players, policies, np.int64(seed), np.int64(index))
        while st["top"] < st["n_deck"]:
            board = board_of(st)
            top = int(st["top"])
            t = draw_placeable(st, tt)
            drawn_to = int(st["top"]) - (1 if t >= 0 else 0)
            for j in range(top, drawn_to):                      # CA-4.4, INV-12 last sentence
                assert not brute_force_placements(board, edge, int(st["deck"][j])), \
                    f"{where}: discarded tile type {int(st['deck'][j])}, which fits"
            if t < 0:
                break
            turn = int(st["round_no"])
            legal = brute_force_placements(board, edge, t)
            assert legal, f"{where} turn {turn}: drew tile type {t}, which fits nowhere"
            listed = enumerated(st, tt_full, t)
            assert len(listed) == len(set(listed)) and set(listed) == legal, \
                f"{where} turn {turn}: enumerated placements != brute force"
            assert listed == sorted(listed)                   # CA-13.6 canonical (x, y, rot) order
            deduped = enumerated(st, tt, t)
            assert set(deduped) <= legal and deduped == sorted(deduped)
            if data.rules["DEDUPE_SYMMETRIC_PLACEMENTS"]:
                for x, y, r in legal:                          # CA-13.1: every class is represented
                    assert any((x2, y2) == (x, y) and sig[t][r2] == sig[t][r] for x2, y2, r2 in deduped), \
                        f"{where} turn {turn}: legal ({x},{y}) rot {r} has no deduplicated representative"
                for i, (x, y, r) in enumerate(deduped):        # ... and only once
                    assert all(sig[t][r2] != sig[t][r] for x2, y2, r2 in deduped[:i] if (x2, y2) == (x, y)), \
                        f"{where} turn {turn}: ({x},{y}) rot {r} duplicates an equivalent rotation"
            else:
                assert deduped == listed
            placements_checked += len(legal)
            seat = int(st["seat"])
            placement = choose_placement(st, tt, t, seat)
            cell, rot = placement // 4, placement % 4
            assert (*xy_of(cell), rot) in legal
            place_tile(st, tt, t, rot, cell)
            if st["ark_cell"] >= 0:
                after = board_of(st)
                n = list_ark_outcomes(st, tt)
                start = xy_of(int(st["ark_cell"]))
                got = []
                for k in range(n):
                    path = [xy_of(int(c)) for c in st["ark_path"][k, :st["ark_len"][k]]]
                    assert 1 <= len(path) <= 5 and path[-1] != start and len(set(path)) == len(path)
                    for a, b in zip([start] + path, path):
                        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 and b in after
                    assert reenter or start not in path
                    got.append((frozenset(path) - {start}, path[-1]))
                assert len(got) == len(set(got)), f"{where} turn {turn}: an Ark outcome is listed twice"
                assert set(got) == brute_force_ark_outcomes(after, start, reenter), \
                    f"{where} turn {turn}: Ark outcomes != brute force"
                ark_turns += 1
            action = choose_action(st, tt, seat)
            resolve_turn(st, tt, seat, action, -1)
            st["round_no"] += 1
            st["seat"] = (seat + 1) % players
    assert placements_checked > 1000
    if ruleset == "ark":
        assert ark_turns > 100


# ------------------------------------------------------------------ sets of other sizes

def resized(doc, tiles):
    """The set with copies added to or taken from its types in turn, the start tile's aside, until
    it holds `tiles` tiles."""
    others = [t for t in doc["tiles"] if not t["is_start"]]
    k = 0
    while sum(t["count"] for t in doc["tiles"]) != tiles:
        tile = others[k % len(others)]
        k += 1
        if tiles > BOX_TILES:
            tile["count"] += 1
        elif tile["count"] > 0:
            tile["count"] -= 1
    return doc


@pytest.mark.parametrize("game_id, tiles", [("carcassonne", 60), ("carcassonne-ark", 100), ("carcassonne", 128)])
def test_a_set_of_other_than_72_tiles_plays_every_tile_with_the_invariants_held(game_id, tiles):
    """A designer's variant (simcore sweep ... --param tiles.D.count=2,4,6): the pile holds the
    set's tiles less the start tile, every game places or discards all of them (INV-03, CA-10.1
    on the set's own count) and the checker finds nothing broken in any turn."""
    ruleset = RULESETS[game_id]
    data = cp.from_document(resized(default_document(ruleset), tiles), ruleset)
    assert data.warnings == [f"the tile counts add up to {tiles} tiles, the box has 72 (CA-1.1): playing a variant"]
    _, game, found = checked_batch(data, 3, seat_policy_matrix(60, 3, 5), 11, 0)
    assert not found[:, 0].any()
    assert (game[:, 0] + game[:, 1] == tiles - 1).all()


def test_the_border_ring_never_joins_the_frontier():
    """The table's one edge (state.GRID): a tile next to the border ring (x = 72, which only a set
    of more than 72 tiles in a line reaches) makes its three other empty neighbours frontier
    cells but not the border cell beyond it, and the checker agrees."""
    data = cp.from_document(resized(default_document("base"), 128), "base")
    tt = data.tables[0]
    st = new_state()[0]
    reset(st, tt, 2, np.zeros(MAX_PLAYERS, np.int8), np.int64(1), np.int64(0))
    assert st["n_frontier"] == 4
    st["top"], st["round_no"] = 1, 1                  # the tile came off the pile in turn 1
    edge = cell_of(72, 0)
    place_tile(st, tt, st["deck"][0], 0, edge)
    assert [st["req"][cell_of(x, y)] != 255 for x, y in ((73, 0), (71, 0), (72, 1), (72, -1))] == \
        [False, True, True, True]
    assert st["n_frontier"] == 7
    border = cell_of(73, 0)
    assert st["front_bits"][border >> 6] >> np.uint64(border & 63) & np.uint64(1) == 0
    work = np.zeros((N_WORK, N_SLOTS), np.int64)
    figcnt = np.zeros((N_NODES, MAX_PLAYERS), np.int64)
    mark = np.zeros(N_CELLS, np.int64)
    ctr = np.zeros(2, np.int64)
    assert check_state(st, tt, work, figcnt, mark, ctr, False, False, False) == (0, 0)


@pytest.mark.parametrize("reenter", [0, 1])
def test_a_random_ark_move_counts_and_walks_to_the_outcomes_the_list_holds(reenter):
    """policies.random_ark_move never lists the Ark's outcomes: count_ark_outcomes counts them
    and walk_ark_outcomes goes to the k-th. On 60 random boards around the Ark (each cell of the
    radius-5 ball filled with probability 0.6), the count is list_ark_outcomes' and the k-th walk
    writes list_ark_outcomes' k-th path, for every k (CA-7.5, CA-12.10)."""
    tt = registry.get("carcassonne-ark").load_data(None).tables.copy()[0]
    tt["rules"][cp.RULE_INDEX["ARK_MAY_REENTER_START"]] = reenter
    gen = np.random.default_rng(7 + reenter)
    outcomes = 0
    for _ in range(60):
        st = new_state()[0]
        centre = cell_of(0, 0)
        st["ark_cell"] = centre
        st["cell_pidx"][centre] = 0            # the Ark stands on a tile
        for dx in range(-5, 6):
            for dy in range(-5, 6):
                if 0 < abs(dx) + abs(dy) <= 5 and gen.random() < 0.6:
                    st["cell_pidx"][cell_of(dx, dy)] = 0
        for c in np.flatnonzero(st["cell_pidx"] >= 0):     # and their bits, as place_tile sets them
            st["occupied"][c >> 6] |= np.uint64(1) << np.uint64(c & 63)
        n = list_ark_outcomes(st, tt)
        listed = [(int(st["ark_len"][k]), st["ark_path"][k].tolist()) for k in range(n)]
        occ = ball_occupied(st, centre)
        assert count_ark_outcomes(st, tt, occ) == n
        st["ark_path"][:] = 0
        st["ark_len"][:] = 0
        for k in range(n):
            walk_ark_outcomes(st, tt, k, occ)
            assert (int(st["ark_len"][k]), st["ark_path"][k].tolist()) == listed[k], (k, n)
        outcomes += n
    assert outcomes == (3360, 4287)[reenter]     # the boards of this seed: paths of every length


@pytest.mark.parametrize("reenter", [0, 1])
def test_greedys_best_ark_value_without_the_list_is_the_lists_best(reenter):
    """greedy's outlook values the best Ark move without listing the outcomes
    (policies.best_ark_value): on 60 random boards around the Ark with random figures in reach
    (tally_ark_reach's own and rival counts per cell, none on the Ark's own tile), its value is
    the best over list_ark_outcomes' outcomes, best_tallied_outcome's (CA-7.5, CA-12.10)."""
    tt = registry.get("carcassonne-ark").load_data(None).tables.copy()[0]
    tt["rules"][cp.RULE_INDEX["ARK_MAY_REENTER_START"]] = reenter
    gen = np.random.default_rng(11 + reenter)
    values = []
    for _ in range(60):
        st = new_state()[0]
        st["players"] = int(gen.integers(2, 6))
        centre = cell_of(0, 0)
        st["ark_cell"] = centre
        st["cell_pidx"][centre] = 0
        for dx in range(-5, 6):
            for dy in range(-5, 6):
                if 0 < abs(dx) + abs(dy) <= 5 and gen.random() < 0.6:
                    st["cell_pidx"][cell_of(dx, dy)] = 0
        st["ark_own"][:] = gen.integers(0, 3, size=st["ark_own"].shape)
        st["ark_rivals"][:] = gen.integers(0, 4, size=st["ark_rivals"].shape)
        st["ark_own"][BALL_CENTRE] = st["ark_rivals"][BALL_CENTRE] = 0
        value = best_ark_value(st, tt)
        assert value == best_tallied_outcome(st, tt, 0)[0]
        values.append(value)
    moves = [v for v in values if v > -1e9]                     # -1e9: the Ark has no tile next to it
    assert (len(moves), round(sum(moves), 6)) == ((57, 227.083333), (60, 264.333333))[reenter]     # the boards of this seed
