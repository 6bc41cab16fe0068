"""Search players in Carcassonne and the Ark (simcore/search.py): the determinization of a seat's
information set (CA-13.3: only the order of the draw pile is hidden), exact replays (a searched
game is a function of seed and index), searched games are legal games (the move log replayed
through the rules: CA-4.2 placements, CA-13 actions and Ark outcomes, CA-7.2 entries; INV-13),
and greedy's plan recomputed for a placement it did not choose is the plan it would have made.
Strength figures are not tested here (they take minutes)."""
import re

import numpy as np
import pytest

import simcore
from simcore import players as lineups
from simcore import registry, runner, search
from simcore.kernel import kernel
from simcore.rng import seed_stream
from simcore.boardgames.carcassonne import playout, policies, rules, scoring
from simcore.boardgames.carcassonne import spec as carcassonne
from simcore.boardgames.carcassonne.components import BOX_TILES, CITY, MAX_SEG
from simcore.boardgames.carcassonne.describe import read_log, score_events
from simcore.boardgames.carcassonne.state import ARK, EV_ACTION, EV_PLACE, MAX_PLAYERS, STATE, new_state

GAMES = ("carcassonne", "carcassonne-ark")
# what a sample may write: the pile, the streams, its scratch and the sorted pile it keeps for the
# search's later runs
HIDDEN = {"deck", "s_gen", "gen_chance", "pile_count", "pile_fixed", "sorted_pile", "sorted_pile_of", "sorted_pile_top"}


def data_of(game):
    return registry.get(game).load_data(None)


def drawn(game, players, turns, seed=11, index=0):
    """A game stopped after `turns` turns (st.halt_at), with the next tile drawn: the state of a
    placement decision. Returns the record and its tables."""
    data = data_of(game)
    seats = np.array([1, 0, 1, 0, 1][:players], np.int8)
    st = carcassonne.play_logged(data, players, seats, seed, index, halt_at=turns)
    assert st.halted
    tt = data.tables.view(np.recarray)[0]
    assert rules.draw_placeable(st, tt) >= 0
    return st, tt


def working_copy(st, stream=5):
    """A fresh record holding st, with the search's own stream and the chance stream seeded (a
    sample's tiles are drawn from it, rules.draw_unseen)."""
    w = new_state().view(np.recarray)
    w[0] = st
    seed_stream(w[0].s_gen, 77, stream, 7)
    seed_stream(w[0].gen_chance, 78, stream, 7)
    return w[0]


@kernel
def sample_order(st, tt, p):
    """determinize for seat p, then the pile's whole order as a run would draw it, a tile at a time
    (rules.draw_unseen); top as it was."""
    policies.determinize(st, tt, p)
    top = st.top
    while st.top < st.n_deck:
        rules.draw_unseen(st)
        st.top += 1
    st.top = top


def spread(counts, expected):
    """The largest deviation of counts from their expectation, in standard deviations (binomial)."""
    n = expected.sum(axis=0, keepdims=True)
    p = expected / n
    return (np.abs(counts - expected) / np.sqrt(expected * (1 - p))).max()


# ---------------------------------------------------------------- determinization (CA-13.3)

@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players, turns", [(2, 3), (2, 40), (4, 25)])
def test_a_sample_only_reorders_the_tiles_still_in_the_pile(game, players, turns):
    """The board, figures, scores, the tiles drawn (this turn's included) and discarded stay; the
    pile keeps its tiles (its multiset is public: the set minus the tiles seen)."""
    st, tt = drawn(game, players, turns)
    top, n = int(st.top), int(st.n_deck)
    assert 0 < top < n
    pile = sorted(st.deck[top:n].tolist())
    for p in range(players):
        w = working_copy(st, stream=p)
        orders = set()
        for _ in range(100):
            sample_order(w, tt, p)
            for name in STATE.names:
                if name not in HIDDEN:
                    assert np.array_equal(st[name], w[name]), name
            assert w.deck[:top].tolist() == st.deck[:top].tolist()
            assert w.deck[n:].tolist() == st.deck[n:].tolist()
            assert sorted(w.deck[top:n].tolist()) == pile
            orders.add(tuple(w.deck[top:n].tolist()))
        assert len(orders) > 90                        # the order is really redrawn


@pytest.mark.parametrize("game", GAMES)
def test_every_tile_in_the_pile_lands_at_every_position_as_often(game):
    """Each remaining tile type appears at each draw position with frequency count / pile size."""
    st, tt = drawn(game, 2, 30)
    top, n = int(st.top), int(st.n_deck)
    types, copies = np.unique(st.deck[top:n], return_counts=True)
    assert copies.max() > 1                            # several copies of a type: weights differ
    samples = 3000
    counts = np.zeros((len(types), n - top), np.int64)
    w = working_copy(st)
    for _ in range(samples):
        sample_order(w, tt, 0)
        counts[np.searchsorted(types, w.deck[top:n]), np.arange(n - top)] += 1
    expected = np.outer(copies, np.ones(n - top)) * samples / (n - top)
    assert spread(counts, expected) < 5


@pytest.mark.parametrize("game", GAMES)
def test_the_sample_does_not_read_the_true_order_of_the_pile(game):
    """The same stream gives the same sample whatever the true order (same tiles) and whichever
    seat asks: every seat knows the same (CA-13.3)."""
    st, tt = drawn(game, 3, 20)
    top, n = int(st.top), int(st.n_deck)
    one = working_copy(st)
    other = working_copy(st)
    other.deck[top:n] = other.deck[top:n][::-1].copy()
    assert other.deck[top:n].tolist() != one.deck[top:n].tolist()
    sample_order(one, tt, 0)
    sample_order(other, tt, 2)
    assert one.deck.tolist() == other.deck.tolist()


# ---------------------------------------------------------------- exact replays

NAMES = ["mcts:iters=30", "greedy"]


def rows(game, workers=1, chunk_size=None, names=NAMES, seed=3, games=3, players=2):
    plan = runner.plan(game, players=players, games=games, seed=seed, policies=names, workers=workers,
                       chunk_size=chunk_size)
    return runner.run(plan, keep_rows=True).frame


@pytest.mark.parametrize("game", GAMES)
def test_a_search_sorts_its_root_pile_once_and_copies_it_at_its_later_runs(game):
    """Every run of a search reaches its root with the same pile: determinize sorts it at the
    first and keeps it (sorted_pile, under the search's serial and the pile's top); a later run
    copies the kept pile (here marked: reversed), and another search sorts again."""
    st, tt = drawn(game, 2, 20)
    top, n = int(st.top), int(st.n_deck)
    w = working_copy(st)
    w.s_serial = 3
    policies.determinize(w, tt, 0)
    first = w.deck[top:n].tolist()
    assert first == sorted(st.deck[top:n].tolist()) and w.sorted_pile_of == 3 and w.sorted_pile_top == top
    w.deck[top:n] = st.deck[top:n]                          # the next run's restore: the true order
    w.sorted_pile[top:n] = w.sorted_pile[top:n][::-1].copy()
    policies.determinize(w, tt, 0)
    assert w.deck[top:n].tolist() == first[::-1] != first
    w.s_serial = 4
    w.deck[top:n] = st.deck[top:n]
    policies.determinize(w, tt, 0)
    assert w.deck[top:n].tolist() == first and w.sorted_pile_of == 4


@pytest.mark.parametrize("game", GAMES)
def test_a_searched_game_is_a_function_of_seed_and_index(game):
    first = rows(game)
    assert first.equals(rows(game))
    assert first.equals(rows(game, workers=2, chunk_size=1))
    assert first.equals(rows(game, chunk_size=2))


def final_scores(lines, players):
    """The VP per seat from a replay's "final scores:" lines ("  Red (seat 0): 31  (...)")."""
    at = lines.index("final scores:")
    return [int(re.match(r"\s+\S+ \(seat \d\): (-?\d+)", line).group(1)) for line in lines[at + 1:at + 1 + players]]


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_of_a_searched_game_is_the_batch_game(game):
    names = ["greedy", "flatmc:playouts=2"]
    frame = rows(game, names=names, seed=5, games=2)
    for index in range(2):
        lines = simcore.replay(game, players=2, seed=5, index=index, policies=names)
        assert "=flatmc:playouts=2" in lines[1]
        row = frame[frame.game_index == index].sort_values("seat")
        assert final_scores(lines, 2) == row.score.tolist()


# ---------------------------------------------------------------- searched games are legal games

def searched_game(game, names, seed, index):
    data = data_of(game)
    lineup = lineups.lineup(registry.get(game), names)
    st = carcassonne.play_logged(data, len(names), lineup.ids(names), seed, index, search=lineup.table)
    return st, data.tables.view(np.recarray)[0]


def move_log_problems(st, tt, players, seed, index):
    """Replays the logged moves of st through the rules on a fresh record: every draw, placement
    (CA-4.2, CA-13.6), action (CA-13: PASS, a vacant segment, the prophet, an Ark outcome) and Ark
    entry (CA-7.2) must be legal where it was made, and the replay must end with st's points."""
    problems = []
    w = new_state().view(np.recarray)[0]
    policy_row = np.zeros(MAX_PLAYERS, np.int8)
    rules.reset(w, tt, players, policy_row, np.int64(seed), np.int64(index))
    for i, move in enumerate(read_log(st).turns):
        t = rules.draw_placeable(w, tt)
        seat = int(w.seat)
        if t != move.tile or seat != move.seat:
            problems.append(f"move {i}: drew {t} for seat {seat}, logged {move.tile} for {move.seat}")
            break
        n = rules.list_placements(w, tt, t)
        cell, rot = move.cell, move.rot
        if (cell, rot) not in set(zip(w.opt_cell[:n].tolist(), w.opt_rot[:n].tolist())):
            problems.append(f"move {i}: placement {cell}/{rot} not legal")
        rules.place_tile(w, tt, t, rot, cell)
        n = rules.list_actions(w, tt, seat)
        action = move.action
        if action >= ARK * 16:
            path = move.ark_path
            outcomes = rules.list_ark_outcomes(w, tt) if ARK * 16 in w.actions[:n] else 0
            k = action - ARK * 16
            if k >= outcomes or w.ark_path[k, :w.ark_len[k]].tolist() != path:
                problems.append(f"move {i}: Ark outcome {k} not legal")
                break
            scoring.move_ark(w, tt, seat, w.ark_path[k], w.ark_len[k])
        else:
            if action not in w.actions[:n]:
                problems.append(f"move {i}: action {action} not legal")
            rules.apply_action(w, tt, seat, action)
        scoring.score_turn(w, tt)
        n = rules.list_ark_entries(w, tt)
        entry = move.entry
        if (entry >= 0) != (n > 0) or (n > 0 and entry not in w.tmp[:n]):
            problems.append(f"move {i}: Ark entry {entry} not among {w.tmp[:n].tolist()}")
        if n > 0:
            w.ark_cell = entry
        if w.vp[:players].tolist() != move.vp:
            problems.append(f"move {i}: scores {w.vp[:players].tolist()}, logged {move.vp}")
        w.round_no += 1
        w.seat = (seat + 1) % players
    scoring.final_scoring(w, tt, 0.0)
    if w.top != w.n_deck or w.round_no + w.discarded != BOX_TILES - 1:
        problems.append(f"the game ended early: turn {w.round_no}, {w.discarded} discarded")
    if w.pts.tolist() != st.pts.tolist():
        problems.append(f"final points {w.pts[:players].tolist()}, played {st.pts[:players].tolist()}")
    return problems


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("names", [
    ["mcts:iters=20", "greedy"],
    ["flatmc:playouts=1", "random", "mcts:iters=10,rollout=greedy"]])
def test_searched_games_are_legal_games(game, names):
    """Every move of the real game a search plays is legal where it was made (the move log,
    replayed through the rules); the score is the sum of the categories and of the score events
    (INV-13); greedy rollouts meet actions after placements they did not choose."""
    players = len(names)
    for index in range(2):
        st, tt = searched_game(game, names, seed=9, index=index)
        assert st.s_searches > 0 and st.s_mode == 0 and not st.halted
        assert not move_log_problems(st, tt, players, 9, index)
        assert st.vp[:players].tolist() == st.pts[:players].sum(axis=1).tolist()
        for s in range(players):
            assert sum(score.points for score in score_events(st) if score.seat == s) == int(st.vp[s])


def entry_of(st, code, turn):
    """The index in st.ev of the turn's move-log entry of kind code (state.EV_*)."""
    return next(i for i in range(int(st.n_events)) if st.ev[i, 0] == code and st.ev[i, 1] == turn)


def test_the_move_log_check_catches_an_illegal_move():
    st, tt = searched_game("carcassonne-ark", ["mcts:iters=5", "greedy"], seed=9, index=0)
    assert not move_log_problems(st, tt, 2, 9, 0)
    moved = st.copy()
    moved.ev[entry_of(st, EV_PLACE, 5), 4] = 0        # the tile's cell: the grid's corner, far from every tile
    assert any("move 5: placement" in p for p in move_log_problems(moved, tt, 2, 9, 0))
    followed = st.copy()
    followed.ev[entry_of(st, EV_ACTION, 7), 3] = 16 + 11    # a follower on segment 11: no tile has that many
    assert any("move 7: action" in p for p in move_log_problems(followed, tt, 2, 9, 0))


def test_a_searched_game_logs_each_discarded_tile_once():
    """A probe that stops at a decision is replayed from the start of its turn, tiles drawn that
    fit nowhere (CA-4.4) included: the move log keeps each of them once (game 7 discards one in
    the searching seat's eleventh turn, before its decision)."""
    st, _ = searched_game("carcassonne", ["mcts:iters=2", "greedy"], seed=9, index=7)
    log = read_log(st)
    assert int(st.discarded) == 1
    assert sum(len(turn.discards) for turn in log.turns) + len(log.discards) == 1


def test_a_searched_ark_game_decides_where_the_ark_enters():
    """The entry tile (CA-7.2) is a decision of its own, searched like the others (the tiles of a
    completed city: two or more options), and the searched game still replays legally."""
    names = ["mcts:iters=10", "mcts:iters=10"]
    entries = 0
    for index in range(4):
        st, tt = searched_game("carcassonne-ark", names, seed=2, index=index)
        assert not move_log_problems(st, tt, 2, 2, index)
        entries += sum(turn.entry >= 0 for turn in read_log(st).turns)
    assert entries >= 3


# ---------------------------------------------------------------- cut-off runs (mcts depth)

def first_iteration(game, depth, seed=3, index=1, roots=3):
    """Game `index` played as play_searched plays it with seat 0 on mcts:iters=1,depth=`depth`
    against greedy, up to seat 0's `roots`-th searched decision, then that decision's first
    iteration with its move log kept. Returns the record after the iteration's run."""
    data = data_of(game)
    name = f"mcts:iters=1,depth={depth}"
    lineup = lineups.lineup(registry.get(game), [name, "greedy"])
    tables = data.tables.copy()
    tables[0]["search"] = lineup.table
    tt = tables.view(np.recarray)[0]
    st = new_state().view(np.recarray)[0]
    row = np.zeros(MAX_PLAYERS, np.int8)
    row[:2] = lineup.ids([name, "greedy"])
    seed, index = np.int64(seed), np.int64(index)
    search.begin_game(st, 2, row, seed, index)
    for root in range(roots):
        search.begin_probe(st)
        playout.run_game(st, tt, 2, row, seed, index)
        assert search.probe_stopped(st)
        search.begin_search(st, tt)
        search.begin_iteration(st, 0)
        st.logging = root == roots - 1
        playout.run_game(st, tt, 2, row, seed, index)
        if root < roots - 1:
            search.end_iteration(st, 2)
            search.best_root_move(st)
    return st


@pytest.mark.parametrize("game", GAMES)
def test_a_cut_off_run_is_the_full_run_stopped_after_the_turn_of_its_last_decision(game):
    """depth=K: the run stops at the end of the turn in which the K-th decision below the root
    falls, with tiles left in the pile, having played exactly the full run's moves up to there
    (the same streams), so play_searched can score the position with the game's end scoring."""
    full = first_iteration(game, 0)
    assert not full.halted and full.top == full.n_deck
    for depth in (1, 4, 9):
        cut = first_iteration(game, depth)
        assert cut.halted and cut.top < cut.n_deck
        root = int(cut.s_n_hist)
        assert cut.s_dec > root + depth              # the K-th decision below the root was played
        assert cut.s_dec <= root + depth + 4         # ... in the last turn (a turn has up to 4)
        turns, played = read_log(cut).turns, read_log(full).turns
        assert 0 < len(turns) < len(played)
        for turn, full_turn in zip(turns, played):
            for field in ("tile", "cell", "rot", "action", "entry", "vp"):
                assert getattr(turn, field) == getattr(full_turn, field)


@kernel
def random_turns(st, tt, turns):
    """turns more turns of the game in st as plain play plays them, without the end scoring."""
    for _ in range(turns):
        t = rules.draw_placeable(st, tt)
        seat = st.seat
        placement = policies.choose_placement(st, tt, t, seat)
        rules.place_tile(st, tt, t, placement % 4, placement // 4)
        playout.resolve_turn(st, tt, seat, policies.choose_action(st, tt, seat), -1)
        st.seat = seat + 1 if seat + 1 < st.players else 0


def segment_records(st, placed):
    """The segment records of the first `placed` tiles, each tile's own (state.type_segs)."""
    return [st.seg[i * MAX_SEG:i * MAX_SEG + int(st.type_segs[st.p_type[i]])].tobytes() for i in range(placed)]


@pytest.mark.parametrize("game", GAMES)
def test_a_restore_puts_back_every_segment_record_a_run_changed(game):
    """A run's turns join features, place figures and score, and its cut-off's end scoring marks
    the open features done: every placed tile whose records that changed is marked (seg_dirty),
    and restore_turn, which puts back only the marked tiles, gives every placed tile's records of
    the snapshot again, with nothing left marked."""
    data = data_of(game)
    st = carcassonne.play_logged(data, 2, np.array([0, 0], np.int8), 11, 0, halt_at=30)
    tt = data.tables.view(np.recarray)[0]
    playout.keep_turn(st)
    placed = int(st.n_placed)
    kept = segment_records(st, placed)
    random_turns(st, tt, 4)
    scoring.final_scoring(st, tt, playout.CITY_OUTLOOK)
    now = segment_records(st, placed)
    changed = {i for i in range(placed) if now[i] != kept[i]}
    marked = {i for i in range(placed) if int(st.seg_dirty[i // 64]) >> (i % 64) & 1}
    assert len(changed) >= 5 and changed <= marked
    playout.restore_turn(st)
    assert st.n_placed == placed and segment_records(st, placed) == kept
    assert not st.seg_dirty.any()


# ---------------------------------------------------------------- greedy's plan

@pytest.mark.parametrize("game", GAMES)
def test_greedy_plans_the_same_action_for_a_placement_it_did_not_choose(game):
    """policies.greedy_plan (a placement chosen by the tree or replayed) gives the action greedy's
    own placement search would have planned with that placement."""
    for turns in (2, 15, 35, 50):
        st, tt = drawn(game, 3, turns, seed=4)
        t = int(st.deck[st.top - 1])
        seat = int(st.seat)
        w = working_copy(st)
        placement = policies.greedy_placement(w, tt, t, seat)
        planned = int(w.plan)
        w.plan = -7
        policies.greedy_plan(w, tt, t, seat, placement)
        assert int(w.plan) == planned


def test_a_run_that_left_its_tree_plans_no_greedy_action_unless_it_rolls_out_with_greedy():
    """A search run past its tree's new leaf rolls out with its rollout policy: with random no
    greedy reads a plan, so none is made (playout.rolls_out_without_greedy); inside the tree, in
    a probe or with greedy rollouts one is."""
    st, tt = drawn("carcassonne-ark", 2, 15)
    st.s_mode, st.t_cur, st.policy[0] = search.SEARCH, -1, search.RANDOM_ID
    assert playout.rolls_out_without_greedy(st, tt, 0)
    st.policy[0] = search.GREEDY_ID
    assert not playout.rolls_out_without_greedy(st, tt, 0)
    st.policy[0], st.t_cur = search.RANDOM_ID, 3
    assert not playout.rolls_out_without_greedy(st, tt, 0)
    st.t_cur, st.s_mode = -1, search.PROBE
    assert not playout.rolls_out_without_greedy(st, tt, 0)


# ---------------------------------------------------------------- the cut-off's score

def test_the_cut_off_scores_the_end_the_open_city_s_outlook_and_two_points_a_follower_in_supply():
    """score_cut_off: the end scoring of the position; for an open city with figures, its
    majority's CITY_OUTLOOK (0.7) times greedy's chance of completing it times its tiles and
    pennants, rounded; and SUPPLY_VALUE = 2 points for each follower still in supply while 8 or
    more turns are left, turns_left/8 of that after."""
    st, tt = drawn("carcassonne", 2, 1)              # seat 0 has a follower in a city of 2 tiles, 1 side open
    early = working_copy(st)
    assert policies.turns_left_of(early) == 35 and early.supply[:2].tolist() == [6, 7]
    playout.score_cut_off(early, tt)
    # the city: 2 at the end, and round(0.7 * 0.85 * 2) = 1 for its outlook (0.85: one side open)
    assert early.vp[:2].tolist() == [2 + 1 + 6 * 2, 7 * 2]
    late = working_copy(st)
    late.top = late.n_deck - 6                        # 6 tiles left: this turn and 3 more each
    late.supply[1] = 3
    assert policies.turns_left_of(late) == 4
    playout.score_cut_off(late, tt)
    # the chance falls to 0.85 * 4/6 with 4 turns left: round(0.7 * 0.567 * 2) = 1 still
    assert late.vp[:2].tolist() == [2 + 1 + 6 * 1, 3 * 1]


def outlook_points(st, tt):
    """What score_cut_off gives each of 2 seats beyond the end scoring and its followers in
    supply (2 points each, 8 or more turns left): the open cities' outlook."""
    cut, end = working_copy(st), working_copy(st)
    playout.score_cut_off(cut, tt)
    scoring.final_scoring(end, tt, 0.0)
    return [int(cut.vp[s]) - int(end.vp[s]) - 2 * int(st.supply[s]) for s in range(2)]


def add_figure(st, seat, node):
    """A follower of seat from its supply onto segment node (its feature's root's counts too)."""
    slot = next(j for j in range(8) if st.fig_node[seat, j] < 0)
    st.fig_node[seat, slot] = node
    root = rules.find(st, node)
    st.seg[root].figs[seat] += 1
    st.seg[root].n_figs += 1
    st.supply[seat] -= 1


def test_a_cut_off_credits_each_open_city_its_outlook_once_to_its_majority():
    """CITY_OUTLOOK (0.7) x the completion chance x (tiles + pennants), rounded, to each seat
    with the most figures in the city, once a city however many figures lead to it."""
    st, tt = drawn("carcassonne", 2, 16)
    assert policies.turns_left_of(st) == 28 and st.supply[:2].tolist() == [1, 3]
    small, corner, big = (rules.find(st, int(st.fig_node[0, slot])) for slot in (0, 3, 5))
    for root, sides, tiles, pennants in ((small, 2, 4, 0), (corner, 4, 2, 2), (big, 2, 5, 1)):
        assert st.seg[root].kind == CITY and st.seg[root].open == sides
        assert rules.tile_count(st, root) == tiles and st.seg[root].scrolls == pennants
        assert st.seg[root].figs[:2].tolist() == [1, 0]
    # the chance: 0.65 with two sides open, 0.25 with four; round(0.7 * 0.65 * 4) = 2,
    # round(0.7 * 0.25 * 4) = 1 and round(0.7 * 0.65 * 6) = 3
    assert outlook_points(st, tt) == [2 + 1 + 3, 0]
    tied = working_copy(st)
    add_figure(tied, 1, big)                           # the big city shared: both seats get its 3
    assert outlook_points(tied, tt) == [6, 3]
    outnumbered = working_copy(st)
    add_figure(outnumbered, 1, small)
    add_figure(outnumbered, 1, small)                  # the small city is seat 1's now
    assert outlook_points(outnumbered, tt) == [4, 2]
