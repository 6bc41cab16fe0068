"""Strasbourg rules as small steps (SB-3 .. SB-15): setup, the deck, bundles, the legal
options of every decision point (SB-15) and the effects that need no decision.

Nothing here asks a player anything: playout.py walks through a game, fills the options of each
decision with the functions below (into st.opts, returning how many), asks the seat's policy and
applies the answer.
"""
import numpy as np

from simcore.kernel import kernel
from simcore.rng import CHANCE, DECISION, seed_stream, shuffle, below
from simcore.boardgames.strasbourg.state import (
    CARD_VALUES, CHURCH, DECK_SLOTS, DRAW, KEY_BASE, MAX_PLAYERS, N_CELLS, N_GUILDS,
    N_SEATS, N_TASK_CARDS, NO_RETURN, NOBILITY, PASS, PRIVILEGE, R_ALLOW_DOMINATED_PRIVILEGE,
    R_ALLOW_DOMINATED_RETURN, R_FM_LIMIT, NO_FM_LIMIT, ROUNDS, STOP, TASKS_DEALT)


# ---------------------------------------------------------------- setup (SB-3)

@kernel
def reset(st, tt, players, policies, seed, index):
    """A new game: streams from (seed, index), round cards, buildings, start player, decks,
    council, task deal (SB-3). Kept tasks are chosen by playout (D-1)."""
    seed_stream(st.gen_chance, seed, index, CHANCE)
    seed_stream(st.gen_decide, seed, index, DECISION)
    st.players = players
    st.round_no = 0
    st.subphase = 0
    for r in range(ROUNDS):
        st.round_card[r] = r
        st.round_building[r] = r
    shuffle(st.gen_chance, st.round_card, 0, ROUNDS)
    shuffle(st.gen_chance, st.round_building, 0, ROUNDS)
    for c in range(N_CELLS):
        st.cell_owner[c] = -1
        st.site_building[c] = -1
    for k in range(st.chapel.shape[0]):
        st.chapel[k] = 0
    for s in range(N_SEATS):
        st.seat_owner[s] = -1
    for p in range(MAX_PLAYERS):
        st.policy[p] = policies[p] if p < players else 0
        st.coins[p] = tt.start_coins if p < players else 0          # SB-3.3
        st.privileges[p] = 0
        st.vp[p] = 0
        st.hand_n[p] = 0
        st.n_bundles[p] = 0
        st.boxed[p] = 0
        for g in range(N_GUILDS):
            st.goods[p, g] = 0
        for i in range(TASKS_DEALT):
            st.tasks[p, i] = -1
            st.dealt[p, i] = -1
        for c in range(st.pts.shape[1]):
            st.pts[p, c] = 0
        for c in range(st.seat_count.shape[1]):
            st.seat_count[p, c] = 0
        for v in range(CARD_VALUES + 1):
            st.drawn_known[p, v] = 0
            st.shown[p, v] = 0
        for i in range(DECK_SLOTS):
            st.deck_known[p, i] = 0
        if p < players:
            new_deck(st, tt, p)
    st.sp = below(st.gen_chance, players)                   # SB-3.5
    st.seat_owner[NOBILITY] = st.sp
    st.seat_owner[CHURCH] = (st.sp + 1) % players           # the SP's left neighbour (AMB-18)
    deal_tasks(st, players)
    st.n_events = 0
    st.violation = 0
    st.violation_round = 0
    st.script_miss = 0


@kernel
def new_deck(st, tt, p):
    """The data set's influence cards (24: 1..6, four each, SB-1.5) in random order (SB-3.3)."""
    for i in range(tt.n_cards):
        st.deck[p, i] = tt.deck_cards[i]
    shuffle(st.gen_chance, st.deck[p], 0, tt.n_cards)
    st.deck_top[p] = 0
    st.deck_n[p] = tt.n_cards


@kernel
def deal_tasks(st, players):
    """5 task cards to each player from the 25 shuffled (SB-3.6)."""
    order = np.empty(N_TASK_CARDS, np.int8)
    for i in range(N_TASK_CARDS):
        order[i] = i
    shuffle(st.gen_chance, order, 0, N_TASK_CARDS)
    for p in range(players):
        for i in range(TASKS_DEALT):
            st.dealt[p, i] = order[p * TASKS_DEALT + i]


@kernel
def keep_tasks(st, p, mask):
    """Keep the dealt cards whose bit is set in mask (D-1: any non-empty subset, 1..31)."""
    k = 0
    for i in range(TASKS_DEALT):
        if mask >> i & 1:
            st.tasks[p, k] = st.dealt[p, i]
            k += 1


# ---------------------------------------------------------------- the deck and planning (SB-5)

@kernel
def draw_card(st, p):
    """The top card of p's deck into the hand (a returned card drawn again: everyone knows its
    value is in the hand)."""
    card = st.deck[p, st.deck_top[p]]
    if st.deck_known[p, st.deck_top[p]]:
        st.deck_known[p, st.deck_top[p]] = 0
        st.drawn_known[p, card] += 1
    st.deck_top[p] = (st.deck_top[p] + 1) % DECK_SLOTS
    st.deck_n[p] -= 1
    st.hand[p, st.hand_n[p]] = card
    st.hand_bundle[p, st.hand_n[p]] = 0
    st.hand_n[p] += 1
    return card


@kernel
def card_under_deck(st, p, card):
    """A returned card goes face down under the deck (SB-9.2); its value and place are public."""
    st.deck[p, (st.deck_top[p] + st.deck_n[p]) % DECK_SLOTS] = card
    st.deck_known[p, (st.deck_top[p] + st.deck_n[p]) % DECK_SLOTS] = 1
    st.deck_n[p] += 1


@kernel
def may_draw(st, p):
    """DRAW is legal while more cards stay than one per later round (SB-5.3, AMB-01)."""
    return st.deck_n[p] > ROUNDS - st.round_no


@kernel
def draw_options(st, p):
    """D-2: STOP, or DRAW when legal."""
    st.opts[0] = STOP
    n = 1
    if may_draw(st, p):
        st.opts[1] = DRAW
        n = 2
    st.n_opts = n
    return n


@kernel
def form_bundles(st, p):
    """The bundles of p's hand from st.hand_bundle (bundle ids 0..k-1, every id used): sums,
    sizes and multiset keys (SB-5.4, SB-5.5)."""
    k = 0
    for i in range(st.hand_n[p]):
        k = max(k, st.hand_bundle[p, i] + 1)
    st.n_bundles[p] = k
    for b in range(k):
        st.bundle_sum[p, b] = 0
        st.bundle_size[p, b] = 0
        st.bundle_key[p, b] = 0
        st.bundle_open[p, b] = 1
    for i in range(st.hand_n[p]):
        b = st.hand_bundle[p, i]
        v = st.hand[p, i]
        st.bundle_sum[p, b] += v
        st.bundle_size[p, b] += 1
        st.bundle_key[p, b] += KEY_BASE ** (v - 1)


# ---------------------------------------------------------------- bidding (SB-7)

@kernel
def bid_options(st, tt, p, queue_left):
    """D-4: REVEAL each distinct unrevealed bundle, PASS, PRIVILEGE while p has one and waiting
    can change something (SB-7.2-7.4, AMB-08). queue_left: players still behind p in the queue."""
    n = 0
    for b in range(st.n_bundles[p]):
        if st.bundle_open[p, b]:
            seen = False
            for j in range(n):
                if st.bundle_key[p, st.opts[j]] == st.bundle_key[p, b]:
                    seen = True
            if not seen:
                st.opts[n] = b
                n += 1
    has_bundle = n > 0
    st.opts[n] = PASS
    n += 1
    useful = queue_left > 0 and has_bundle
    if st.privileges[p] >= 1 and (useful or tt.rules[R_ALLOW_DOMINATED_PRIVILEGE]):
        st.opts[n] = PRIVILEGE
        n += 1
    st.n_opts = n
    return n


@kernel
def reveal(st, p, b):
    """REVEAL(b): p's bid is the bundle's sum; its cards are public from now on (SB-7.2, SB-7.5)."""
    st.bid[p] = st.bundle_sum[p, b]
    st.bid_bundle[p] = b
    st.bundle_open[p, b] = 0
    for i in range(st.hand_n[p]):
        if st.hand_bundle[p, i] == b:
            st.shown[p, st.hand[p, i]] += 1


@kernel
def rank_bids(st, sp0, ranked):
    """The revealers, best first: higher bid, then earlier in seat order from sp0 (SB-7.6,
    AMB-03/04). Returns how many; ranked[:count] holds their seats."""
    n = st.players
    k = 0
    for i in range(n):
        p = (sp0 + i) % n
        if st.bid[p] >= 0:
            j = k
            while j > 0 and st.bid[ranked[j - 1]] < st.bid[p]:   # stable: earlier seats stay first
                ranked[j] = ranked[j - 1]
                j -= 1
            ranked[j] = p
            k += 1
    return k


@kernel
def entitled_ranks(kind, players):
    """R_max (SB-7.8)."""
    if kind == 0:                # NC
        return 2
    if kind == 1:                # GUILD
        return 2 if players == 3 else 3
    return 1


@kernel
def return_options(st, tt, p, b):
    """D-5: one option per distinct card value in p's revealed bundle b (SB-9.2); NO_RETURN too
    under ALLOW_DOMINATED_RETURN (AMB-07)."""
    n = 0
    if tt.rules[R_ALLOW_DOMINATED_RETURN]:
        st.opts[0] = NO_RETURN
        n = 1
    for v in range(1, CARD_VALUES + 1):
        for i in range(st.hand_n[p]):
            if st.hand_bundle[p, i] == b and st.hand[p, i] == v:
                st.opts[n] = v
                n += 1
                break
    st.n_opts = n
    return n


@kernel
def box_bundle(st, p, b, returned):
    """A bundle leaves the game, but for the card value `returned` (0: none), which goes under
    the deck (SB-9.1, SB-9.2)."""
    st.bundle_open[p, b] = 0
    st.boxed[p] += st.bundle_size[p, b]
    if returned > 0:
        st.boxed[p] -= 1
        st.shown[p, returned] -= 1
        card_under_deck(st, p, returned)


@kernel
def discard_unused(st, p):
    """At the round's end every unrevealed bundle leaves face down (AMB-15)."""
    for v in range(1, CARD_VALUES + 1):
        st.drawn_known[p, v] = 0
    for b in range(st.n_bundles[p]):
        if st.bundle_open[p, b]:
            box_bundle(st, p, b, 0)
    st.n_bundles[p] = 0
    st.hand_n[p] = 0


@kernel
def revealed_this_round(st, p, v):
    """p's cards of value v in bundles revealed this round."""
    n = 0
    for i in range(st.hand_n[p]):
        if st.hand[p, i] == v and not st.bundle_open[p, st.hand_bundle[p, i]]:
            n += 1
    return n


# ---------------------------------------------------------------- actions (SB-8, SB-10, SB-11)

@kernel
def family_member_free(st, tt, p):
    """Has p a family member in the supply? Always, unless FM_LIMIT caps them (AMB-16)."""
    limit = tt.rules[R_FM_LIMIT]
    return limit == NO_FM_LIMIT or city_members(st, p) + council_seats(st, p) < limit


@kernel
def take_seat(st, tt, p, seat):
    """p's family member onto a council seat; another player's goes home (SB-11.1)."""
    if st.seat_owner[seat] != p and family_member_free(st, tt, p):
        st.seat_owner[seat] = p


@kernel
def buy_options(st, tt, p, g, first):
    """D-6/D-7: `first` (NO_BUY or GOODS), then every empty space of guild g that p can pay (SB-8.4)."""
    st.opts[0] = first
    n = 1
    if not family_member_free(st, tt, p):
        st.n_opts = n
        return n
    for c in range(N_CELLS):
        if tt.cell_guild[c] == g and st.cell_owner[c] < 0 and tt.price[c] <= st.coins[p]:
            st.opts[n] = c
            n += 1
    st.n_opts = n
    return n


@kernel
def buy(st, tt, p, c):
    st.coins[p] -= tt.price[c]
    st.cell_owner[c] = p


@kernel
def sale_options(st, p, g):
    """D-8, one guild at a time: sell 0..goods of guild g (the product over guilds is D-8)."""
    for k in range(st.goods[p, g] + 1):
        st.opts[k] = k
    st.n_opts = st.goods[p, g] + 1
    return st.n_opts


@kernel
def chapel_options(st, tt):
    """D-9: every empty chapel spot (SB-10.1)."""
    n = 0
    for k in range(tt.n_spots):
        if not st.chapel[k]:
            st.opts[n] = k
            n += 1
    st.n_opts = n
    return n


@kernel
def site_options(st, tt):
    """D-10: every empty building site (SB-10.2)."""
    n = 0
    for c in range(N_CELLS):
        if tt.is_site[c] and st.site_building[c] < 0:
            st.opts[n] = c
            n += 1
    st.n_opts = n
    return n


@kernel
def council_seats(st, p):
    n = 0
    for s in range(N_SEATS):
        if st.seat_owner[s] == p:
            n += 1
    return n


@kernel
def city_members(st, p):
    n = 0
    for c in range(N_CELLS):
        if st.cell_owner[c] == p:
            n += 1
    return n
