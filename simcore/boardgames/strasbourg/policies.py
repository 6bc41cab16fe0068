"""Strasbourg players (policies). Each reads only what its own seat may know (SB-16).

random — every decision uniform over its legal options as SB-15 lists them (playout.decide asks
  only when there are two or more), with two documented exceptions where the option set is too
  large to list:
  - how many cards to draw (D-2): after each card, STOP or DRAW with equal chance while DRAW is
    legal, so the number drawn is geometric, capped by the deck reserve (SB-5.3);
  - the bundles (D-3): the drawn cards in random order, each joining one of the bundles so far
    or starting a new one, all equally likely. Every partition can come out; they are not
    equally likely.
  A merchant's sale (D-8) is uniform over its options: each guild's count sold is uniform over
  0..held, independently, which is uniform over the product.

greedy — a one-step heuristic (below), with weights (`greedy:council=2,coin=0.2`; WEIGHTS).

Search players (mcts, flatmc: simcore/search.py, ids 2..) choose at every decision that
playout.decide asks. The bundles (D-3) are not asked there: `plan_bundles` forms them, and a
search seat forms them as greedy does (the larger half of its cards as one strong bundle, the
rest as single cards). `determinize` redraws what a seat cannot see (SB-16.3) for its search.
"""
import numpy as np

from simcore.contract import Param
from simcore.kernel import kernel
from simcore.search import greedy_weight, is_greedy, is_random, weight_defaults
from simcore.rng import below, shuffle
from simcore.boardgames.strasbourg.rules import keep_tasks, revealed_this_round
from simcore.boardgames.strasbourg.state import (
    CARD_VALUES, D_APPRENTICE, D_BID, D_CHAPEL, D_DRAW, D_MASTER_BUY, D_MASTER_PART, D_RETURN, D_SELL, D_TASKS,
    DECK_SLOTS, GUILD, GUILD_SLOT, KEY_BASE, MAX_DECK, MERCH_G, MERCHANTS, N_CELLS, N_GUILDS, N_TASK_CARDS, NC,
    NOBILITY, PASS, ROUNDS, SUBPHASE_TYPE, TASKS_DEALT, TK_BUILDING, TK_CORNERS, TK_COUNCIL, TK_GOODS_VARIETY,
    TK_GUILD, TK_LINE, TK_MOST_CITY, TK_MOST_COINS, TK_NOBLE_OR_CHURCH, TK_START_PLAYER, TK_WALL)

RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}


@kernel(inline=True)
def choose(st, tt, p, dp, ctx):
    """The index of the option seat p takes among st.opts[:st.n_opts]."""
    if is_greedy(tt, st.policy[p]):
        return greedy_choice(st, tt, p, dp, ctx)
    return below(st.gen_decide, st.n_opts)


@kernel
def plan_bundles(st, tt, p):
    """D-3: split p's drawn cards into bundles, writing st.hand_bundle (ids 0..k-1). Greedy and
    the search seats (ids 2..) bundle as greedy does: no search is made for it, and in a
    search's replay the same bundles must come out again (only random draws, from gen_decide,
    which the search keeps the same in every replay)."""
    if not is_random(tt, st.policy[p]):
        greedy_bundles(st, p)
        return
    n = st.hand_n[p]
    order = st.opts                                  # scratch: no decision is open while planning
    for i in range(n):
        order[i] = i
    shuffle(st.gen_decide, order, 0, n)
    k = 0
    for j in range(n):
        b = below(st.gen_decide, k + 1)
        st.hand_bundle[p, order[j]] = b
        if b == k:
            k += 1


# ---------------------------------------------------------------- greedy

# greedy's weights (`greedy:NAME=X`), in the order its kernels read them (W_*): factors on what a
# council seat, a city space and a task card's prestige are worth to it, and the VP it counts for
# a coin and for a point of influence bid (a player's 84 points over 5 rounds, roughly). Each
# multiplies one term of a valuation, so the defaults play exactly the greedy the golden files show.
WEIGHTS = (
    Param("council", float, 1.0, 0.0, 10.0, "factor on a council seat's worth: its VP at the round ends left"),
    Param("city", float, 1.0, 0.0, 10.0, "factor on a family member's worth on a city space: its VP, the "
          "buildings and chapels it borders, the kept tasks it helps"),
    Param("tasks", float, 1.0, 0.0, 10.0, "factor on a task card's prestige: which tasks to keep (a failed one "
          "still costs 3 VP), and a city space that helps a kept one"),
    Param("coin", float, 0.4, 0.0, 5.0, "VP a coin is worth: a space's price, goods to take or sell"),
    Param("influence", float, 0.3, 0.0, 5.0, "VP a point of influence is worth: greedy bids only when the "
          "sub-phase is worth its bundle's sum at that rate"),
)
W_COUNCIL, W_CITY, W_TASKS, W_COIN, W_INFLUENCE = range(len(WEIGHTS))
DEFAULT_WEIGHTS = weight_defaults(WEIGHTS)
TASK_HELP = 1.5                  # what a city space that helps a kept task adds, at tasks=1


@kernel(inline=True)
def weight(st, tt, p, w):
    """Weight w (W_*) of the greedy seat p plays (the game's own greedy: the defaults)."""
    return greedy_weight(tt, st.policy[p], w, DEFAULT_WEIGHTS)


@kernel(inline=True)
def weights(st, tt, p):
    """All of seat p's weights, read once for a decision (its valuations run over many spaces):
    a tuple indexed by W_*."""
    return (weight(st, tt, p, W_COUNCIL), weight(st, tt, p, W_CITY), weight(st, tt, p, W_TASKS),
            weight(st, tt, p, W_COIN), weight(st, tt, p, W_INFLUENCE))


@kernel
def task_chance(tt, kind, players):
    """How often a task of this kind can be reached without much steering (a rough prior)."""
    if kind == TK_NOBLE_OR_CHURCH or kind == TK_GOODS_VARIETY:
        return 0.8
    if kind == TK_COUNCIL:
        return 0.3 if players == 3 else (0.5 if players == 4 else 0.7)
    if kind == TK_GUILD or kind == TK_MOST_CITY:
        return 0.5
    if kind == TK_START_PLAYER or kind == TK_LINE or kind == TK_MOST_COINS:
        return 0.4
    if kind == TK_BUILDING or kind == TK_CORNERS or kind == TK_WALL:
        return 0.3
    return 0.15


@kernel
def task_worth(st, tt, card, tasks):
    """A task card's expected VP to its keeper: its prestige (times the tasks weight) if met, -3 if not."""
    chance = task_chance(tt, tt.task_type[card], st.players)
    return chance * tasks * tt.task_prestige[card] - (1.0 - chance) * 3.0


@kernel
def greedy_tasks(st, tt, p):
    """Keep the one task most worth keeping, and any other worth keeping on its own."""
    tasks = weight(st, tt, p, W_TASKS)
    best = 0
    mask = 0
    for i in range(TASKS_DEALT):
        worth = task_worth(st, tt, st.dealt[p, i], tasks)
        if worth > task_worth(st, tt, st.dealt[p, best], tasks):
            best = i
        if worth > 1.0:
            mask |= 1 << i
    return mask | (1 << best)


@kernel
def draw_target(st, p):
    """Spread the deck over the rounds left: this round's share of what may be drawn."""
    rounds_left = ROUNDS - st.round_no + 1
    return max(1, (st.deck_n[p] + st.hand_n[p]) // rounds_left)


@kernel
def greedy_bundles(st, p):
    """The larger half of the cards as one strong bundle, the rest as single cards."""
    n = st.hand_n[p]
    order = st.opts
    for i in range(n):
        order[i] = i
    for i in range(1, n):                              # by value, high first
        j = i
        while j > 0 and st.hand[p, order[j - 1]] < st.hand[p, order[j]]:
            tmp = order[j]
            order[j] = order[j - 1]
            order[j - 1] = tmp
            j -= 1
    strong = (n + 1) // 2
    for i in range(n):
        st.hand_bundle[p, order[i]] = 0 if i < strong else i - strong + 1


@kernel
def cell_value(st, tt, p, c, w):
    """A family member on city space c: its own VP, the buildings and chapels it borders or may
    border, and the tasks it helps (w: p's weights)."""
    value = 1.0
    for j in range(4):
        n = tt.orth[c, j]
        if n >= 0 and tt.is_site[n]:
            b = st.site_building[n]
            value += tt.building_value[b] if b >= 0 else 1.0
    for k in range(tt.n_spots):
        for j in range(tt.spot_cells.shape[1]):
            if tt.spot_cells[k, j] == c:
                value += 1.0 if st.chapel[k] else 0.3
    for i in range(TASKS_DEALT):
        card = st.tasks[p, i]
        if card >= 0:
            kind = tt.task_type[card]
            if (kind == TK_GUILD and tt.cell_guild[c] == tt.task_param[card, 0]) or (kind == TK_WALL and tt.wall[c]) \
                    or (kind == TK_CORNERS and tt.corner[c]) or kind == TK_MOST_CITY:
                value += TASK_HELP * w[W_TASKS]
    return value


@kernel
def space_worth(st, tt, p, c, w):
    """What buying city space c is worth to p (w: its weights): the family member there, less its price."""
    return w[W_CITY] * cell_value(st, tt, p, c, w) - w[W_COIN] * tt.price[c]


@kernel
def keeps_goods(st, tt, p):
    """Does p hold a task that wants goods of 3 guilds (TK-16)?"""
    for i in range(TASKS_DEALT):
        if st.tasks[p, i] >= 0 and tt.task_type[st.tasks[p, i]] == TK_GOODS_VARIETY:
            return True
    return False


@kernel
def subphase_value(st, tt, p, subphase, w):
    """What winning this sub-phase is worth to p now, roughly (w: its weights)."""
    kind = SUBPHASE_TYPE[subphase]
    seat_vp = w[W_COUNCIL] * (ROUNDS - st.round_no + 1)      # 1 VP at each round end left (SB-11.2)
    if kind == NC:
        return 1.0 + seat_vp + (0.0 if st.seat_owner[NOBILITY] == p else 2.0)
    if kind == GUILD:
        g = tt.card_guilds[st.round_card[st.round_no - 1], GUILD_SLOT[subphase]]
        best = 0.0
        for c in range(N_CELLS):
            if tt.cell_guild[c] == g and st.cell_owner[c] < 0 and tt.price[c] <= st.coins[p]:
                best = max(best, space_worth(st, tt, p, c, w))
        seat = 0.0 if st.seat_owner[2 + g] == p else 0.6 * seat_vp
        return seat + 1.0 + best
    goods = 0.0
    for g in range(N_GUILDS):
        goods += st.goods[p, g] * tt.goods_value[g] * w[W_COIN]
    return goods + (0.6 * seat_vp if kind == MERCH_G and st.seat_owner[MERCHANTS] != p else 0.0)


@kernel
def greedy_bid(st, tt, p):
    """Reveal the smallest bundle that beats every bid so far if the sub-phase is worth its
    cards; otherwise pass (never wait with a privilege: each is 1 VP at the end)."""
    top = 0
    for q in range(st.players):
        top = max(top, st.bid[q])
    w = weights(st, tt, p)
    worth = subphase_value(st, tt, p, st.subphase, w)
    best = -1
    best_sum = 1 << 30
    for i in range(st.n_opts):
        b = st.opts[i]
        if b >= 0:
            s = st.bundle_sum[p, b]
            if s > top and s < best_sum:
                best = i
                best_sum = s
    if best >= 0 and best_sum * w[W_INFLUENCE] <= worth:
        return best
    for i in range(st.n_opts):
        if st.opts[i] == PASS:
            return i
    return 0


@kernel(inline=True)
def greedy_choice(st, tt, p, dp, ctx):
    if dp == D_TASKS:
        mask = greedy_tasks(st, tt, p)
        return mask - 1                                # options are the masks 1..31 in order
    if dp == D_DRAW:
        return 1 if st.n_opts == 2 and st.hand_n[p] < draw_target(st, p) else 0
    if dp == D_BID:
        return greedy_bid(st, tt, p)
    if dp == D_MASTER_PART:
        return st.n_opts - 1                           # take the seat / the goods
    w = weights(st, tt, p)
    best = 0
    best_value = -1e18
    for i in range(st.n_opts):
        v = st.opts[i]
        if dp == D_RETURN:
            value = v * 1.0                            # keep the strongest card
        elif dp == D_MASTER_BUY or dp == D_APPRENTICE:
            value = 0.0 if v < 0 else space_worth(st, tt, p, v, w)
            if v < 0 and dp == D_APPRENTICE:
                value = tt.goods_value[ctx] * w[W_COIN]
        elif dp == D_SELL:
            keep = 1 if keeps_goods(st, tt, p) else 0
            value = v * 1.0 if v <= st.goods[p, ctx] - keep else -1.0
        elif dp == D_CHAPEL:
            value = spot_value(st, tt, p, v)
        else:
            value = site_value(st, tt, p, v)
        if value > best_value:
            best_value = value
            best = i
    return best


@kernel
def spot_value(st, tt, p, k):
    value = 0.0
    for j in range(tt.spot_cells.shape[1]):
        c = tt.spot_cells[k, j]
        if c >= 0 and st.cell_owner[c] >= 0:
            value += 1.0 if st.cell_owner[c] == p else -0.5
    return value


@kernel
def site_value(st, tt, p, site):
    b = st.round_building[st.round_no - 1]
    value = 0.0
    for j in range(4):
        c = tt.orth[site, j]
        if c >= 0 and st.cell_owner[c] >= 0:
            value += tt.building_value[b] * (1.0 if st.cell_owner[c] == p else -0.5)
    return value


# ---------------------------------------------------------------- what a seat cannot see (search players)

@kernel(inline=True)
def determinize(st, tt, p):
    """Redraw what seat p cannot see, from what it can (SB-16.3, SB-16.4; simcore/search.py):
    - the order of p's own deck but for the returned cards at its bottom (SB-16.3.1);
    - each other player's unseen cards: its deck but for the returned cards, its unrevealed
      bundles (their number and sizes stay, SB-5.4) and what it boxed face down, drawn from the
      cards of its colour that nobody has seen (SB-16.3.4); the returned cards it drew again this
      round (public, SB-9.2) and has not revealed stay in its unrevealed bundles;
    - the task cards dealt to the others (from the 20 p was not dealt) and which of them each
      kept: a uniform non-empty subset, for how many were kept is secret too (SB-3.6).
    Public, so kept: the board, round cards and buildings (SB-3.1, SB-3.2), coins, goods and
    privileges (SB-16.2), deck sizes, revealed bundles and the bids made (st.bid, st.bid_bundle),
    returned cards (st.deck_known, st.drawn_known, st.shown follow them in rules.py)."""
    redeal_tasks(st, p)
    for q in range(st.players):
        if q == p:
            shuffle_own_deck(st, p)
        else:
            redraw_cards(st, tt, q)


@kernel(inline=True)
def redeal_tasks(st, p):
    """The others' 5 task cards each from the 20 p was not dealt (the rest stay undealt), and
    for those who have chosen (D-1) a new non-empty subset kept."""
    unseen = np.empty(N_TASK_CARDS, np.int8)
    n = 0
    for card in range(N_TASK_CARDS):
        mine = False
        for i in range(TASKS_DEALT):
            if st.dealt[p, i] == card:
                mine = True
        if not mine:
            unseen[n] = card
            n += 1
    shuffle(st.s_gen, unseen, 0, n)
    k = 0
    for q in range(st.players):
        if q == p:
            continue
        for i in range(TASKS_DEALT):
            st.dealt[q, i] = unseen[k]
            k += 1
        if st.tasks[q, 0] >= 0:                            # q has chosen (D-1): what, nobody knows
            for i in range(TASKS_DEALT):
                st.tasks[q, i] = -1
            keep_tasks(st, q, 1 + below(st.s_gen, 31))


@kernel(inline=True)
def shuffle_own_deck(st, p):
    """The cards of p's deck whose place nobody knows, in a new order."""
    slots = np.empty(DECK_SLOTS, np.int32)
    cards = np.empty(DECK_SLOTS, np.int8)
    n = 0
    for k in range(st.deck_n[p]):
        slot = (st.deck_top[p] + k) % DECK_SLOTS
        if not st.deck_known[p, slot]:
            slots[n] = slot
            cards[n] = st.deck[p, slot]
            n += 1
    shuffle(st.s_gen, cards, 0, n)
    for j in range(n):
        st.deck[p, slots[j]] = cards[j]


@kernel(inline=True)
def redraw_cards(st, tt, q):
    """q's cards where p cannot see them (determinize): its deck's unknown places, its unrevealed
    bundles and its face-down box get a random arrangement of the cards of q nobody has seen.
    A returned card is drawn again only after every card above it, so once it is, all of q's
    cards nobody has seen are in this round's bundles or in the box: which returned cards went
    face down into the box with an unused bundle need not be remembered."""
    unseen = np.zeros(CARD_VALUES + 1, np.int32)
    for v in range(1, CARD_VALUES + 1):
        unseen[v] = tt.cards_of_value[v] - st.shown[q, v]
    for k in range(st.deck_n[q]):
        slot = (st.deck_top[q] + k) % DECK_SLOTS
        if st.deck_known[q, slot]:
            unseen[st.deck[q, slot]] -= 1
    in_bundles = 0
    for b in range(st.n_bundles[q]):
        if st.bundle_open[q, b]:
            in_bundles += st.bundle_size[q, b]
    hand = np.empty(MAX_DECK, np.int8)                     # the cards for the unrevealed bundles
    n_hand = 0
    for v in range(1, CARD_VALUES + 1):
        for _ in range(max(0, st.drawn_known[q, v] - revealed_this_round(st, q, v))):
            hand[n_hand] = v
            n_hand += 1
            unseen[v] -= 1
    cards = np.empty(MAX_DECK, np.int8)
    n = 0
    for v in range(1, CARD_VALUES + 1):
        for _ in range(unseen[v]):
            cards[n] = v
            n += 1
    shuffle(st.s_gen, cards, 0, n)                         # the rest of n lies face down in the box
    j = 0
    for k in range(st.deck_n[q]):
        slot = (st.deck_top[q] + k) % DECK_SLOTS
        if not st.deck_known[q, slot]:
            st.deck[q, slot] = cards[j]
            j += 1
    while n_hand < in_bundles:
        hand[n_hand] = cards[j]
        n_hand += 1
        j += 1
    shuffle(st.s_gen, hand, 0, n_hand)
    j = 0
    for b in range(st.n_bundles[q]):
        if st.bundle_open[q, b]:
            st.bundle_sum[q, b] = 0
            st.bundle_key[q, b] = 0
    for i in range(st.hand_n[q]):
        b = st.hand_bundle[q, i]
        if st.bundle_open[q, b]:
            v = hand[j]
            j += 1
            st.hand[q, i] = v
            st.bundle_sum[q, b] += v
            st.bundle_key[q, b] += KEY_BASE ** (v - 1)
