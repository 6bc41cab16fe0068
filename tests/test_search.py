"""The search tree and the policy-name parser (simcore/search.py, simcore/players.py), on the toy
game of search_toy.py whose best move is known."""
from types import SimpleNamespace

import numpy as np
import pytest

from simcore import players, search
from simcore.contract import Param, UserError
from search_toy import ANSWER, FIRST, SAFE, TRAP, new_state, new_tables, play_game

KNOWN = {"random": 0, "greedy": 1}
GAME = SimpleNamespace(policies=KNOWN, searchable=True, search_defaults={}, greedy_weights=())


def table(*names):
    return players.lineup(GAME, names).table


def first_move(policy, seed=1, index=0):
    """The toy game with seat 0 searching (id 2 = the table's first row), seat 1 random."""
    st = new_state()
    play_game(st[0], new_tables(table(policy))[0], np.array([2, 0], np.int8), np.int64(seed), np.int64(index))
    return st[0]


def test_mcts_models_the_answer_and_avoids_the_trap():
    for index in range(5):
        st = first_move("mcts:iters=300", index=index)
        assert st.first_move == SAFE
        assert list(st.vp) == [5, 2]          # and then a follow-up that scores


def test_flatmc_with_random_playouts_walks_into_the_trap():
    # each option's random playouts: TRAP wins 90%, SAFE 60% — flat Monte Carlo cannot see that
    # seat 1 would answer 9; that is why mcts builds a tree
    st = first_move("flatmc:playouts=200")
    assert st.first_move == TRAP


def test_flatmc_gives_every_root_option_its_playouts():
    st = first_move("flatmc:playouts=7")
    # the last search (seat 0's follow-up or its first move): every root child has 7 visits
    children = []
    c = st.t_child[0]
    while c >= 0:
        children.append(c)
        c = st.t_next[c]
    assert sorted(st.t_visits[c] for c in children) == [7.0] * len(children)
    assert st.t_visits[0] == 7.0 * len(children)


def root_children(st):
    """The root's children of the last search, oldest first."""
    children = []
    c = st.t_child[0]
    while c >= 0:
        children.append(c)
        c = st.t_next[c]
    return children[::-1]


def test_the_first_child_is_greedys_choice():
    st = first_move("mcts:iters=1")
    assert st.first_move == TRAP and st.s_searches == 1   # greedy's first option; then seat 1 answers
    [child] = root_children(st)
    assert st.t_move[child] == TRAP


def test_the_second_iteration_expands_another_option():
    st = first_move("mcts:iters=2,reuse=0")            # the last search, a fresh tree
    assert st.first_move in (TRAP, SAFE) and st.s_searches == 2
    assert st.t_n == 3 and st.t_visits[0] == 2.0          # the root and exactly 2 children
    first, second = root_children(st)
    assert st.t_move[first] == 0 and st.t_move[second] != 0


def test_progressive_widening_grows_the_children_with_the_square_root_of_the_visits():
    # seat 0's follow-up has 10 options; a node of v visits grows a child while it has fewer
    # than 1 + sqrt(v): at v = 0, 1, 2, 5, 10, 17, 26, 37 — 8 children after 50 iterations
    st = first_move("mcts:iters=50,reuse=0")
    assert st.first_move == SAFE
    assert len(root_children(st)) == 8


def test_the_roots_option_map_is_made_once_a_search_and_follows_the_children_it_grows():
    """root_children keeps option i's child + 1 across a search's runs (the root's options are the
    same in each), and add_leaf notes each new root child there: after the last search, a fresh
    tree of seat 0's follow-up (10 options, 8 children after 50 iterations), the kept map is the
    tree's."""
    st = first_move("mcts:iters=50,reuse=0")
    assert st.s_root_marked == st.s_serial and st.s_n_root == 10
    assert st.s_root_children == 8
    mapped = {int(st.s_root_opts[i]): int(st.s_root_child[i]) - 1 for i in range(10) if st.s_root_child[i]}
    assert mapped == {int(st.t_move[c]): c for c in root_children(st)}


def test_settle_ends_a_search_once_no_other_option_can_catch_up():
    """settle=1: the first search (TRAP or SAFE) is checked every 8 runs and ends after 184 of its
    300, when SAFE leads TRAP by 156 - 28 = 128 visits with 116 runs left (after 176 it led by
    less than the 124 left): the move the whole budget takes, SAFE. The second search, below
    SAFE (reuse), tops SAFE's subtree up to the budget as before."""
    whole = first_move("mcts:iters=300")
    settled = first_move("mcts:iters=300,settle=1")
    assert whole.first_move == settled.first_move == SAFE
    assert whole.t_visits[0] == 300.0 and settled.t_visits[0] == 184.0
    trap = [c for c in root_children(settled) if settled.t_move[c] == TRAP]
    assert [settled.t_visits[c] for c in trap] == [28.0]
    assert settled.t_visits[settled.t_root] == 300.0 and list(settled.vp) == [5, 2]


def test_settled_asks_whether_the_runner_up_can_catch_up_in_the_runs_left():
    st = new_state()[0]
    st.s_kind, st.s_settle, st.t_n, st.t_root = search.MCTS, 1, 1, 0
    search.new_node(st, 0, -1, 0, FIRST, 0)
    for move, visits in ((TRAP, 10.0), (SAFE, 50.0), (3, 12.0)):
        st.t_visits[search.add_child(st, 0, 0, FIRST, move)] = visits
    assert search.settled(st, 37) and not search.settled(st, 38)    # 50 - 12 = 38
    st.s_settle = 0.5                   # a lead of more than half the runs left
    assert search.settled(st, 75) and not search.settled(st, 76)
    st.s_settle = 0
    assert not search.settled(st, 1)


def test_reuse_searches_on_below_the_move_played_with_the_iterations_it_lacks():
    """After SAFE, seat 0 decides its follow-up next: with reuse the second search's root is the
    SAFE node of the first tree (so its children are follow-ups already tried), and it runs only
    the iterations that node lacks of the budget, ending at exactly 50 visits."""
    kept = first_move("mcts:iters=50")                      # reuse=1 is the default
    fresh = first_move("mcts:iters=50,reuse=0")
    assert kept.first_move == fresh.first_move == SAFE and kept.s_searches == fresh.s_searches == 2
    assert fresh.t_root == 0 and fresh.t_visits[0] == 50.0
    assert kept.t_root != 0 and kept.t_move[kept.t_root] == SAFE and kept.t_dp[kept.t_root] == FIRST
    # the second search backed up from the SAFE node: the first root keeps its 50 visits
    assert kept.t_visits[kept.t_root] == 50.0 and kept.t_visits[0] == 50.0
    assert kept.vp[0] == 5                                  # a winning follow-up (0-5)


def child_count(st, node):
    n, c = 0, st.t_child[node]
    while c >= 0:
        n, c = n + 1, st.t_next[c]
    return n


def test_a_node_below_the_root_grows_its_first_child_once_it_has_expand_visits():
    """With expand=E a node below the root rolls runs out from itself until it has E visits. At
    expand=20 the 50 iterations give TRAP 45 visits (children from its 21st on) and SAFE 5 (none);
    at expand=100 the tree is the root and its two children, and, like flatmc's random playouts,
    the search walks into the trap."""
    st = first_move("mcts:iters=50,reuse=0,expand=20")
    visits = {int(st.t_move[c]): (st.t_visits[c], child_count(st, c)) for c in root_children(st)}
    assert visits == {TRAP: (45.0, 8), SAFE: (5.0, 0)}
    never = first_move("mcts:iters=50,reuse=0,expand=100")
    assert never.t_n == 3 and never.first_move == TRAP
    assert [child_count(never, c) for c in root_children(never)] == [0, 0]


def test_topup_searches_a_kept_subtree_only_up_to_its_share_of_the_budget():
    """The same first search as above (50 iterations, SAFE played, its node kept with the 29
    visits it got there); the second search then runs until that node holds topup x 50 visits,
    and at least one iteration."""
    runs = {topup: first_move(f"mcts:iters=50,topup={topup}") for topup in (0, 0.8, 1)}
    for st in runs.values():
        assert st.t_move[st.t_root] == SAFE and st.t_visits[0] == 50.0      # the first search's root
    assert [runs[topup].t_visits[runs[topup].t_root] for topup in (0, 0.8, 1)] == [30.0, 40.0, 50.0]


def test_a_childs_option_is_found_by_its_value_in_any_order_of_the_options():
    st = new_state()[0]
    for opts in ([3, 8, 12, 40], [12, 3, 40, 8]):
        st.n_opts = len(opts)
        st.opts[:4] = opts
        st.t_n = 1
        search.new_node(st, 0, -1, 0, 5, 0)
        st.t_cur = 0
        forty = search.add_child(st, 0, 1, 5, 40)
        eight = search.add_child(st, 0, 1, 5, 8)
        search.add_child(st, 0, 1, 5, 99)           # an option of another sample
        search.add_child(st, 0, 0, 5, 3)            # another seat's: not this decision's child
        assert search.mark_children(st, 1, 5) == 2
        assert [st.t_opt_child[opts.index(m)] for m in (40, 8, 3, 12)] == [forty + 1, eight + 1, 0, 0]
        assert not st.t_hash.any()                  # the hash is left empty for the next node


def tree_with_children(moves, opts):
    """A root at t_cur with children of seat 1 at decision point 5 for `moves`, and `opts` as the
    decision's options; returns the children's node indices."""
    st = new_state()[0]
    st.n_opts = len(opts)
    st.opts[:len(opts)] = opts
    st.t_n = 1
    search.new_node(st, 0, -1, 0, 5, 0)
    st.t_cur = 0
    return st, [search.add_child(st, 0, 1, 5, m) for m in moves]


def test_options_that_are_consecutive_values_find_their_children_by_subtraction():
    """The Ark's moves are numbered 100, 101, ...: a child's option is its move less the first; a
    child of a move beyond the last option (another sample's board) is not this decision's."""
    st, (a, b, beyond) = tree_with_children([103, 100, 107], list(range(100, 105)))
    assert search.options_are_a_range(st)
    assert search.mark_children(st, 1, 5) == 2
    assert st.t_opt_child[:5].tolist() == [b + 1, 0, 0, a + 1, 0]
    st, _ = tree_with_children([103], [100, 101, 103])
    assert not search.options_are_a_range(st)


def test_an_option_listed_twice_gets_its_child_at_its_first_index():
    st, (child,) = tree_with_children([8], [3, 8, 12, 8])
    assert search.mark_children(st, 1, 5) == 1
    assert st.t_opt_child[:4].tolist() == [0, child + 1, 0, 0]
    assert not st.t_hash.any()


def test_backup_adds_every_seats_reward_along_the_path():
    st = first_move("mcts:iters=50,reuse=0")
    root_total = st.t_reward[0].copy()
    c = st.t_child[0]
    children_total = np.zeros(2)
    visits = 0.0
    while c >= 0:
        children_total += st.t_reward[c]
        visits += st.t_visits[c]
        c = st.t_next[c]
    assert visits == st.t_visits[0] == 50.0
    assert np.allclose(children_total, root_total)


def test_rewards_blend_the_win_and_the_margin():
    st = new_state()[0]
    st.s_kind = search.MCTS
    st.s_score[0], st.s_score[1] = 10.0, 10.0
    search.rewards(st, 2)
    assert np.allclose(st.s_reward[:2], [0.5 * 0.5 + 0.25, 0.5 * 0.5 + 0.25])
    st.s_score[0], st.s_score[1] = 20.0, 10.0
    search.rewards(st, 2)
    assert st.s_reward[0] == pytest.approx(0.5 + 0.5 * (0.5 + 0.5 * np.tanh(1.0)))
    assert st.s_reward[1] == pytest.approx(0.5 * (0.5 + 0.5 * np.tanh(-1.0)))
    st.s_kind = search.FLATMC
    search.rewards(st, 2)
    assert list(st.s_reward[:2]) == [10.0, -10.0]


def test_a_cut_off_runs_reward_is_its_margin_against_the_searchs_mean_margin():
    st = new_state()[0]
    st.s_kind, st.s_depth = search.MCTS, 8
    st.s_iter = 0                                         # the first run is the mean: 0.5 each
    st.s_score[0], st.s_score[1] = 40.0, 10.0
    search.rewards(st, 2)
    assert list(st.s_reward[:2]) == [0.5, 0.5]
    st.s_iter = 1                                         # margins +40/-40 against means +30/-30
    st.s_score[0], st.s_score[1] = 50.0, 10.0
    search.rewards(st, 2)
    assert st.s_reward[0] == pytest.approx(0.5 + 0.5 * np.tanh(1.0))
    assert st.s_reward[1] == pytest.approx(0.5 + 0.5 * np.tanh(-1.0))
    st.s_iter = 2                                         # means +35/-35: a lead of 20 is worse
    st.s_score[0], st.s_score[1] = 30.0, 10.0
    search.rewards(st, 2)
    assert st.s_reward[0] == pytest.approx(0.5 + 0.5 * np.tanh(-1.5))
    assert list(st.s_margin_sum[:2]) == [90.0, -90.0]


def test_ucb_prefers_the_less_tried_of_two_equal_children():
    st = new_state()[0]
    st.s_c = 0.7
    st.t_n = 1
    search.new_node(st, 0, -1, 0, FIRST, 0)
    a = search.add_child(st, 0, 0, FIRST, TRAP)
    b = search.add_child(st, 0, 0, FIRST, SAFE)
    st.t_visits[a], st.t_reward[a, 0], st.t_avail[a] = 10.0, 6.0, 20.0
    st.t_visits[b], st.t_reward[b, 0], st.t_avail[b] = 2.0, 1.2, 20.0
    st.opts[0], st.opts[1], st.n_opts = TRAP, SAFE, 2
    st.t_cur, st.t_n_path = 0, 1
    assert search.tree_step(st, 0, FIRST) == 1            # SAFE: same mean 0.6, fewer visits
    assert st.t_cur == b and list(st.t_path[:2]) == [0, b]
    assert st.t_avail[a] == 21.0 and st.t_avail[b] == 21.0
    # another seat's or another decision's children are not this decision's: greedy chooses
    # the first child of seat 1's, and the run leaves the tree
    st.t_cur, st.t_n_path = 0, 1
    st.s_mode, st.s_rollout = search.SEARCH, 0
    assert search.tree_step(st, 1, ANSWER) == search.OWN_POLICY
    assert st.policy[1] == search.GREEDY_ID
    assert search.chosen(st, 1) == 1
    assert st.t_n == 4 and st.t_cur == -1 and st.t_move[3] == SAFE and st.t_seat[3] == 1
    assert st.policy[1] == 0                              # back to the rollout policy
    # the node has a child already: an untried option is expanded at random, greedy not
    # asked again (4 visits: room for 3 children), and the run leaves the tree
    st.opts[2], st.n_opts = 3, 3
    st.t_cur, st.t_n_path, st.t_visits[0] = 0, 1, 4.0
    i = search.tree_step(st, 1, ANSWER)
    assert i in (0, 2) and st.policy[1] == 0
    assert st.t_n == 5 and st.t_move[4] == st.opts[i] and st.t_seat[4] == 1 and st.t_cur == -1


def test_a_cut_off_stops_the_run_once_a_decision_lies_depth_below_the_root():
    st = new_state()[0]
    st.s_n_hist, st.s_depth = 3, 2               # the root is decision 3
    for k in (3, 4):
        search.cut_off(st, k)
        assert st.halt_at == 0
    search.cut_off(st, 5)
    assert st.halt_at == 1                       # the game returns at the end of this turn
    st.halt_at, st.s_depth = 0, 0                # depth 0: to the end
    search.cut_off(st, 50)
    assert st.halt_at == 0


def test_the_search_is_a_function_of_seed_and_index():
    one = [first_move("mcts:iters=40", seed=5, index=i).vp.tolist() for i in range(6)]
    two = [first_move("mcts:iters=40", seed=5, index=i).vp.tolist() for i in range(6)]
    assert one == two


# ---------------------------------------------------------------- policy names

@pytest.mark.parametrize("name, canonical", [
    ("mcts", "mcts"), ("mcts:iters=200", "mcts"), ("mcts:rollout=greedy,iters=400", "mcts:iters=400,rollout=greedy"),
    ("mcts:c=1.50", "mcts:c=1.5"), ("mcts:depth=8,iters=400", "mcts:iters=400,depth=8"), ("mcts:depth=0", "mcts"), ("flatmc:playouts=20", "flatmc"), ("flatmc:playouts=5", "flatmc:playouts=5"),
    ("greedy", "greedy")])
def test_policy_names_have_one_spelling(name, canonical):
    assert players.canonical(GAME, name) == canonical


def test_search_policies_get_ids_from_2_and_their_table_rows():
    lineup = players.lineup(GAME, ["mcts:iters=400", "greedy", "flatmc", "mcts:iters=400"])
    assert lineup.names == ("random", "greedy", "mcts:iters=400", "flatmc")
    assert lineup.ids(["mcts:iters=400", "greedy", "flatmc", "random"]).tolist() == [2, 1, 3, 0]
    assert lineup.table[2, :search.P_WEIGHTS].tolist() == [search.MCTS, 400, 0.7, 0, 0]
    assert lineup.table[3, :search.P_WEIGHTS].tolist() == [search.FLATMC, 20, 0.0, 0, 0]


def test_labels_name_policies_and_variants_of_random_and_greedy_get_ids_of_their_own():
    lineup = players.lineup(GAME, ["deep=mcts:iters=400", "greedy", "g2=greedy", "r=random", "mcts"])
    assert lineup.names == ("random", "greedy", "deep", "mcts") + ("",) * 6 + ("g2", "r")
    assert lineup.ids(["deep=mcts:iters=400", "g2=greedy", "r=random"]).tolist() == [2, 10, 11]
    assert lineup.table[10, search.P_KIND] == search.GREEDY_ID
    assert lineup.table[11, search.P_KIND] == search.RANDOM_ID
    assert players.canonical(GAME, "deep=mcts:iters=400,c=0.7") == "deep=mcts:iters=400"
    assert players.shown_name("deep=mcts:iters=400") == "deep"


@pytest.mark.parametrize("names, message", [
    (["a=greedy", "a=random"], "policies a=greedy and a=random have the same name a: label them apart"),
    (["mcts=greedy"], "policy label 'mcts' is a policy's own name: choose another"),
    (["=greedy"], "policy label '' in '=greedy'"),
    (["a b=greedy"], "policy label 'a b' in 'a b=greedy'")])
def test_bad_labels_are_one_line_errors(names, message):
    with pytest.raises(UserError) as caught:
        players.lineup(GAME, [players.canonical(GAME, n) for n in names])
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("name, message", [
    ("mcts:iters=abc", "iters must be an integer, not 'abc'"),
    ("mcts:iters=0", "iters must be between 1 and 4096, not 0"),
    ("mcts:foo=1", "unknown parameter 'foo=1' (known: iters, c, rollout, depth, reuse, topup, expand, settle)"),
    ("mcts:expand=0", "expand must be between 1 and 100, not 0"),
    ("mcts:depth=-1", "depth must be between 0 and 8192, not -1"),
    ("mcts:topup=1.5", "topup must be between 0 and 1, not 1.5"),
    ("flatmc:depth=4", "unknown parameter 'depth=4' (known: playouts, rollout)"),
    ("mcts:iters=5,iters=6", "iters given twice"),
    ("mcts:c=x", "c must be a number, not 'x'"),
    ("flatmc:rollout=sm@rt", "rollout must be one of random, greedy, not 'sm@rt'"),
    ("greedy:x=1", "policy greedy takes no parameters"),
    ("mcts:", "parameters missing after ':'"),
    ("alpha", "unknown policy 'alpha' (known: random, greedy, flatmc, mcts)")])
def test_bad_policy_names_are_one_line_errors(name, message):
    with pytest.raises(UserError, match=None) as caught:
        players.canonical(GAME, name)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_game_without_search_knows_only_its_own_policies():
    with pytest.raises(UserError) as caught:
        players.canonical(SimpleNamespace(policies=KNOWN, searchable=False, search_defaults={}, greedy_weights=()), "mcts")
    assert str(caught.value) == "unknown policy 'mcts' (known: random, greedy)"


def test_a_games_own_defaults_are_left_out_of_the_name_and_fill_the_table():
    game = SimpleNamespace(policies=KNOWN, searchable=True, search_defaults={"mcts": {"rollout": "greedy"}},
                           greedy_weights=())
    assert players.canonical(game, "mcts:rollout=greedy") == "mcts"
    assert players.canonical(game, "mcts:rollout=random") == "mcts:rollout=random"
    assert players.lineup(game, ["mcts"]).table[2, :search.P_WEIGHTS].tolist() == [search.MCTS, 200, 0.7, 1, 0]
    assert players.lineup(game, ["mcts:depth=6"]).table[2, :search.P_WEIGHTS].tolist() == [search.MCTS, 200, 0.7, 1, 6]
    assert players.help_lines(game)[1].startswith("mcts[:iters=200,c=0.7,rollout=greedy,depth=0,reuse=1,topup=1.0,expand=1,settle=0.0]: ")
    assert players.canonical(game, "flatmc:rollout=greedy") == "flatmc:rollout=greedy"


WEIGHTED = SimpleNamespace(policies=KNOWN, searchable=True, search_defaults={},
                           greedy_weights=(Param("cities", float, 1.0, 0.0, 10.0, "the value of cities"),
                                           Param("roads", float, 0.5, 0.0, 10.0, "the value of roads")))


def test_greedys_weights_are_parsed_written_canonically_and_fill_a_variants_row():
    assert players.canonical(WEIGHTED, "greedy:roads=0.5,cities=1") == "greedy"
    assert players.canonical(WEIGHTED, "greedy:roads=2,cities=1.50") == "greedy:cities=1.5,roads=2"
    lineup = players.lineup(WEIGHTED, ["greedy:roads=2", "g=greedy"])
    assert lineup.ids(["greedy:roads=2", "g=greedy", "greedy"]).tolist() == [10, 11, 1]
    weights = slice(search.P_WEIGHTS, search.P_WEIGHTS + 2)
    assert lineup.table[10, weights].tolist() == [1.0, 2.0] and lineup.table[11, weights].tolist() == [1.0, 0.5]
    assert lineup.table[10, search.P_KIND] == search.GREEDY_ID
    with pytest.raises(UserError, match="roads must be between 0 and 10, not 11"):
        players.canonical(WEIGHTED, "greedy:roads=11")


def test_every_policy_with_parameters_lists_them_with_default_type_range_and_help():
    listed = players.parameters(WEIGHTED)
    assert list(listed) == ["greedy", "flatmc", "mcts"]
    assert listed["greedy"]["roads"] == {"default": 0.5, "type": "float", "range": [0.0, 10.0],
                                         "help": "the value of roads"}
    assert listed["mcts"]["rollout"] == {"default": "random", "type": "str", "range": None,
                                         "help": "the policy of every seat below the tree: random, greedy, or the "
                                                 "label of a random or greedy policy of the run (a weighted greedy)",
                                         "choices": ["random", "greedy"]}
    assert players.parameter_lines(WEIGHTED)[:3] == ["greedy[:cities=1,roads=0.5]",
                                                     "  cities (float in [0, 10]): the value of cities",
                                                     "  roads (float in [0, 10]): the value of roads"]


def test_a_search_rolls_out_with_a_labelled_greedy_of_the_run():
    lineup = players.lineup(WEIGHTED, ["mcts:rollout=farmer", "farmer=greedy:roads=2"])
    assert lineup.names[:3] == ("random", "greedy", "mcts:rollout=farmer") and lineup.names[10] == "farmer"
    assert lineup.table[2, search.P_ROLLOUT] == 10
    assert lineup.table[10, search.P_WEIGHTS + 1] == 2.0
    with pytest.raises(UserError, match="no policy of this run is labelled nobody"):
        players.lineup(WEIGHTED, ["flatmc:rollout=nobody"])
    with pytest.raises(UserError, match="the rollout deep must be a random or greedy policy"):
        players.lineup(WEIGHTED, ["mcts:rollout=deep", "deep=mcts:iters=5"])
