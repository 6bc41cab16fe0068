"""Principato rules as small steps (docs/principato.md): setup, holdings and storage, the legal
options of every decision point (section 18, DEC-n) and the effects that need no decision.

Nothing here asks a player anything: playout.py walks through a game, fills the options of each
decision with the functions below (into st.opts, returning how many), asks the seat's policy and
applies the answer.
"""
import numpy as np

from simcore.kernel import kernel
from simcore.rng import CHANCE, DECISION, below, seed_stream, shuffle
from simcore.boardgames.principato.components import K_BUY, K_GAIN, K_PRODUCE, K_RECRUIT
from simcore.boardgames.principato.state import (
    ACT_A, ACT_B, ACT_C, CHOOSE, END_TURN, H_BANK, H_CATAPULT, H_CON_FAV, H_CON_MONEY, H_CONDOTTIERE, H_FARM,
    H_FAVOUR, H_FIELD, H_FOOD, H_MIL_FAV, H_MIL_FOOD, H_MILITIA, H_MONEY, H_MONUMENT, H_PALAZZO, LOSE,
    LOWEST_FIRST, MAX_PLAYERS, N_GOODS, N_HOLD, PAY_SHIFT, R_CULTURE_TAKE, R_FULL_POOL, R_OVERFLOW_TO_UNITS,
    S_BOOK, S_CATAPULT, S_FAVOUR, S_FIELD_FARM, S_FOOD, S_MONEY, S_MONUMENT, S_PAINTING, S_PALAZZO_BANK,
    S_UNITS, SC_LOST, SC_RECRUITED, TO_CONDOTTIERE, TO_MILITIA, YEARS)

# the supply pool each GOODS entry comes from (PR-1.2: a two-sided tile draws on one pool)
POOL_OF = np.array([S_FIELD_FARM, S_FIELD_FARM, S_PALAZZO_BANK, S_PALAZZO_BANK, S_CATAPULT, S_MONUMENT, S_BOOK,
                    S_PAINTING, S_FOOD, S_MONEY], dtype=np.int64)
N_TILE_GOODS = 8                 # GOODS[:8] are tiles and tokens, GOODS[8:] food and money
PAY_MASK = (1 << PAY_SHIFT) - 1


# ---------------------------------------------------------------- setup (PR-3)

@kernel
def reset(st, tt, players, policies, seed, index):
    """A new game (PR-3): start player, goal deal, start cards, shuffled year decks, supply,
    starting holdings and the first display, consuming chance in the order of PR-3.11."""
    seed_stream(st.gen_chance, seed, index, CHANCE)
    seed_stream(st.gen_decide, seed, index, DECISION)
    st.players = players
    st.round_no = 1
    st.turn = 0
    st.action_step = 0
    st.scorings = 0
    st.boxed = 0
    for i in range(st.supply.shape[0]):
        st.supply[i] = tt.supply[i]
    for t in range(st.taken.shape[0]):
        st.taken[t] = 0
        for k in range(st.token_left.shape[1]):
            st.token_left[t, k] = 1
    for p in range(MAX_PLAYERS):
        st.policy[p] = policies[p] if p < players else 0
        st.military_vp[p] = 0
        st.vp[p] = 0
        st.loaded_final[p] = 0
        for i in range(N_HOLD):
            st.hold[p, i] = 0
        for t in range(st.culture_vp.shape[1]):
            st.culture_vp[p, t] = 0
        for c in range(st.pts.shape[1]):
            st.pts[p, c] = 0
        for c in range(st.seat_count.shape[1]):
            st.seat_count[p, c] = 0
    for c in range(st.game_count.shape[0]):
        st.game_count[c] = 0
    st.plan_card, st.plan_code, st.plan_slot = 0, 0, 0      # greedy's plans never outlive a game
    st.plan_ok = 0
    for i in range(4):
        st.plan_load[i] = 0
    st.sp = below(st.gen_chance, players)                   # PR-3.9
    st.current = st.sp
    deal_goals(st, tt, players)
    deal_start_cards(st, tt, players)
    for y in range(YEARS):                                  # PR-3.4
        for i in range(tt.deck_size[y]):
            st.decks[y, i] = tt.deck_cards[y, i]
        shuffle(st.gen_chance, st.decks[y], 0, tt.deck_size[y])
    for p in range(players):                                # PR-3.7
        take_start_holdings(st, tt, p)
    start_year(st, tt, 1)
    for s in range(st.display.shape[0]):                    # PR-3.8
        st.display[s] = -1
    for s in range(tt.display_size):
        st.display[s] = draw(st)
    st.n_events = 0
    st.violation = 0
    st.violation_round = 0
    st.script_miss = 0


@kernel
def deal_goals(st, tt, players):
    """One goal card from each goal deck per player, seat 0 first, G1 then G2 (PR-3.5)."""
    for deck in range(2):
        pile = st.opts                                      # scratch: no decision is open in setup
        n = 0
        for g in range(tt.n_goals):
            if tt.goal_deck[g] == deck:
                pile[n] = g
                n += 1
        for p in range(players):
            k = below(st.gen_chance, n)
            st.goals[p, deck] = pile[k]
            pile[k] = pile[n - 1]
            n -= 1


@kernel
def deal_start_cards(st, tt, players):
    """Every player an S1 card and a different S2 card, dealt at random in seat order (PR-3.3)."""
    pile = st.opts
    n = tt.n_s2
    for i in range(n):
        pile[i] = tt.s2_cards[i]
    for p in range(players):
        k = below(st.gen_chance, n)
        st.hand[p, 0] = tt.s1_cards[p]
        st.hand[p, 1] = pile[k]
        pile[k] = pile[n - 1]
        n -= 1


@kernel
def take_start_holdings(st, tt, p):
    """1 field, farm, palazzo and bank; 1 food, money and favour, taken from the supply (PR-3.7)."""
    h = tt.start_holdings
    st.hold[p, H_FIELD] = h[0]
    st.hold[p, H_FARM] = h[1]
    st.hold[p, H_PALAZZO] = h[2]
    st.hold[p, H_BANK] = h[3]
    st.hold[p, H_FOOD] = h[4]
    st.hold[p, H_MONEY] = h[5]
    st.hold[p, H_FAVOUR] = h[6]
    st.supply[S_FIELD_FARM] -= h[0] + h[1]
    st.supply[S_PALAZZO_BANK] -= h[2] + h[3]
    st.supply[S_FOOD] -= h[4]
    st.supply[S_MONEY] -= h[5]
    st.supply[S_FAVOUR] -= h[6]


# ---------------------------------------------------------------- the decks and the display

@kernel
def start_year(st, tt, year):
    """The year's deck becomes the draw deck (PR-12.4)."""
    st.round_no = year
    n = tt.deck_size[year - 1]
    for i in range(n):
        st.deck[i] = st.decks[year - 1, i]
    st.deck_pos = 0
    st.deck_n = n


@kernel
def draw(st):
    """The top card of the draw deck (the caller checks st.deck_pos < st.deck_n)."""
    c = st.deck[st.deck_pos]
    st.deck_pos += 1
    return c


@kernel
def deck_empty(st):
    return st.deck_pos >= st.deck_n


@kernel
def shift_display(st, tt):
    """End of turn (PR-11.1 steps 1-2): slot 0 goes to the box, the rest move one slot left.
    The card boxed."""
    d = tt.display_size
    gone = st.display[0]
    for s in range(d - 1):
        st.display[s] = st.display[s + 1]
    st.display[d - 1] = -1
    st.boxed += 1
    return gone


# ---------------------------------------------------------------- holdings and storage (PR-2)

@kernel
def food_cap(st, tt, p):
    return st.hold[p, H_FARM] * tt.food_per_farm


@kernel
def money_cap(st, tt, p):
    return st.hold[p, H_BANK] * tt.money_per_bank


@kernel
def empty_militia(st, p):
    return st.hold[p, H_MILITIA] - st.hold[p, H_MIL_FOOD] - st.hold[p, H_MIL_FAV]


@kernel
def empty_condottieri(st, p):
    return st.hold[p, H_CONDOTTIERE] - st.hold[p, H_CON_MONEY] - st.hold[p, H_CON_FAV]


@kernel
def units(st, p):
    return st.hold[p, H_MILITIA] + st.hold[p, H_CONDOTTIERE]


@kernel
def loaded_units(st, p):
    return st.hold[p, H_MIL_FOOD] + st.hold[p, H_MIL_FAV] + st.hold[p, H_CON_MONEY] + st.hold[p, H_CON_FAV]


@kernel
def military_tiles(st, p):
    """Catapults, militia and condottieri: the scoring order counts these (PR-14.1, AMB-14)."""
    return st.hold[p, H_CATAPULT] + units(st, p)


@kernel
def stored_cubes(st, p):
    return st.hold[p, H_FOOD] + st.hold[p, H_MONEY] + st.hold[p, H_FAVOUR]


@kernel
def receive(st, tt, p, cube, amount):
    """PR-10.3 for food (H_FOOD) or money (H_MONEY): take min(amount, supply), store what fits.
    Returns the overflow, still in the supply; overflow_options and place_overflow settle it."""
    pool = S_FOOD if cube == H_FOOD else S_MONEY
    cap = food_cap(st, tt, p) if cube == H_FOOD else money_cap(st, tt, p)
    r = min(amount, st.supply[pool])
    stored = min(r, max(cap - st.hold[p, cube], 0))
    st.hold[p, cube] += stored
    st.supply[pool] -= stored
    return r - stored


@kernel
def overflow_options(st, tt, p, cube, overflow):
    """DEC-6: how many of the overflow cubes go onto empty compatible units, 0..min(o, empty)
    (PR-10.4); none without rules.overflow_to_units."""
    room = empty_militia(st, p) if cube == H_FOOD else empty_condottieri(st, p)
    return count_options(st, min(overflow, room) if tt.rules[R_OVERFLOW_TO_UNITS] else 0)


@kernel
def place_overflow(st, p, cube, overflow, x):
    """x overflow cubes onto units, the rest lost (they never leave the supply, PR-10.4)."""
    if cube == H_FOOD:
        st.hold[p, H_MIL_FOOD] += x
        st.supply[S_FOOD] -= x
    else:
        st.hold[p, H_CON_MONEY] += x
        st.supply[S_MONEY] -= x
    st.seat_count[p, SC_LOST] += overflow - x


@kernel
def load(st, p, food_mil, fav_mil, money_con, fav_con):
    """Stored cubes onto empty units (PR-2.4); they stay until the next cleanup (PR-2.5)."""
    st.hold[p, H_FOOD] -= food_mil
    st.hold[p, H_MIL_FOOD] += food_mil
    st.hold[p, H_FAVOUR] -= fav_mil + fav_con
    st.hold[p, H_MIL_FAV] += fav_mil
    st.hold[p, H_MONEY] -= money_con
    st.hold[p, H_CON_MONEY] += money_con
    st.hold[p, H_CON_FAV] += fav_con


# ---------------------------------------------------------------- action A: activate (PR-6, PR-9, PR-17)

@kernel
def count_options(st, top):
    """The options 0..top: a count to take, load or discard."""
    top = max(top, 0)
    for x in range(top + 1):
        st.opts[x] = x
    st.n_opts = top + 1
    return st.n_opts


@kernel
def pay_code(o, f, m, v):
    """One DEC-3/4 move: option o paid with the triple (f, m, v). (int(): costs are int16 in the
    tables, and a shifted int16 would wrap without the JIT.)"""
    return int(o) | (int(f) << PAY_SHIFT) | (int(m) << (2 * PAY_SHIFT)) | (int(v) << (3 * PAY_SHIFT))


@kernel
def code_option(code):
    return code & PAY_MASK


@kernel
def code_food(code):
    return (code >> PAY_SHIFT) & PAY_MASK


@kernel
def code_money(code):
    return (code >> (2 * PAY_SHIFT)) & PAY_MASK


@kernel
def code_favour(code):
    return (code >> (3 * PAY_SHIFT)) & PAY_MASK


@kernel
def tiles_available(st, tt, e, o):
    """PR-6.2, PR-10.1, PR-10.2: the pools hold all the tiles and tokens option o gives. Under
    tile_option_needs_full_pool = false (AMB-10 (b)) a tile pool need only hold one: the buyer
    gets what is left, but never pays for nothing (PR-2.7). POOL_OF lists a pool's goods next to
    each other (field and farm, palazzo and bank), so one pass over the goods sums each pool's
    need (look-ahead calls this for every option of every card it weighs)."""
    g = 0
    while g < N_TILE_GOODS:
        pool = POOL_OF[g]
        need = 0
        while g < N_TILE_GOODS and POOL_OF[g] == pool:
            need += tt.effect_gain[e, o, g]
            g += 1
        if need == 0:
            continue
        if pool >= S_MONUMENT:
            if st.supply[pool] < need:
                return False
        elif st.supply[pool] < (need if tt.rules[R_FULL_POOL] else 1):
            return False
    return True


@kernel
def same_gain(tt, e, o1, o2):
    for g in range(N_GOODS):
        if tt.effect_gain[e, o1, g] != tt.effect_gain[e, o2, g]:
            return False
    return True


@kernel
def admits(tt, e, o, f, m, v):
    """Payment triple (f, m, v) pays option o's cost exactly (PR-9.3)."""
    food, money = tt.effect_pay[e, o, 0], tt.effect_pay[e, o, 1]
    return f <= food and m <= money and food - f + money - m == v


@kernel
def twin_options(st, tt, e, o):
    """The earlier options of buy effect e with option o's gain whose tiles are available, as bits
    (1 << o2): a payment one of them admits is listed with it, not again with o (PR-9.3)."""
    twins = 0
    for o2 in range(o):
        if same_gain(tt, e, o, o2) and tiles_available(st, tt, e, o2):
            twins |= 1 << o2
    return twins


@kernel
def admitted(tt, e, twins, f, m, v):
    """One of the options `twins` (twin_options) admits the payment (f, m, v)."""
    o2 = 0
    while twins >> o2:
        if twins & (1 << o2) and admits(tt, e, o2, f, m, v):
            return True
        o2 += 1
    return False


@kernel
def payment_options(st, tt, p, e, out):
    """The (option, payment triple) moves of buy effect e, into out (DEC-3, DEC-4):
    every triple of every affordable option whose tiles are available, one move per distinct
    (triple, gain) (PR-9.3, EX-10). Returns their count. The money paid runs only over the
    triples the favour can complete. (policies.best_buy walks the same moves in this order.)"""
    n = 0
    food, money, fav = st.hold[p, H_FOOD], st.hold[p, H_MONEY], st.hold[p, H_FAVOUR]
    for o in range(tt.effect_n_options[e]):
        if not tiles_available(st, tt, e, o):
            continue
        twins = twin_options(st, tt, e, o)
        need_f, need_m = tt.effect_pay[e, o, 0], tt.effect_pay[e, o, 1]
        for f in range(min(need_f, food), -1, -1):
            for m in range(min(need_m, money), max(need_f - f + need_m - fav, 0) - 1, -1):   # v <= fav
                v = need_f - f + need_m - m
                if twins == 0 or not admitted(tt, e, twins, f, m, v):
                    out[n] = pay_code(o, f, m, v)
                    n += 1
    return n


@kernel
def option_moves(st, tt, p, card, out):
    """DEC-3 (with DEC-4 for buy effects): the legal option moves of card for p, into out (st.opts
    for the decision, st.moves to look ahead); their count. Recruit effects have one move here
    (their count is DEC-5)."""
    e = tt.card_effect[card]
    kind = tt.effect_kind[e]
    if kind == K_BUY:
        return payment_options(st, tt, p, e, out)
    if kind == K_GAIN:
        for o in range(tt.effect_n_options[e]):
            out[o] = o
        return tt.effect_n_options[e]
    out[0] = 0                                              # produce, recruit: always legal (AMB-12)
    return 1


@kernel
def can_activate(st, tt, p, card):
    """PR-6.2: the card has at least one legal option. For a buy effect: an option whose tiles are
    available and whose cost the stored cubes pay, favour making up what food and money lack
    (PR-9.2): exactly when payment_options lists a move (the first option to admit a payment
    lists it), found without listing them (every player asks this at every action)."""
    e = tt.card_effect[card]
    if tt.effect_kind[e] != K_BUY:
        return True
    food, money, fav = st.hold[p, H_FOOD], st.hold[p, H_MONEY], st.hold[p, H_FAVOUR]
    for o in range(tt.effect_n_options[e]):
        need_f, need_m = tt.effect_pay[e, o, 0], tt.effect_pay[e, o, 1]
        if need_f - min(need_f, food) + need_m - min(need_m, money) <= fav and tiles_available(st, tt, e, o):
            return True
    return False


@kernel
def kind_options(st, tt, p):
    """DEC-1: A if a hand card can be activated, B and C always, END_TURN (PR-5, PR-8.4)."""
    n = 0
    if can_activate(st, tt, p, st.hand[p, 0]) or can_activate(st, tt, p, st.hand[p, 1]):
        st.opts[n] = ACT_A
        n += 1
    st.opts[n] = ACT_B
    st.opts[n + 1] = ACT_C
    st.opts[n + 2] = END_TURN
    st.n_opts = n + 3
    return st.n_opts


@kernel
def card_options(st, tt, p):
    """DEC-2: the hand cards with a legal option (0, 1)."""
    first = can_activate(st, tt, p, st.hand[p, 0])
    second = can_activate(st, tt, p, st.hand[p, 1])
    n = 0
    if first:
        st.opts[n] = 0
        n += 1
    if second:
        st.opts[n] = 1
        n += 1
    st.n_opts = n
    return n


@kernel
def pay(st, p, code):
    """Stored cubes back to the supply (PR-9.1)."""
    f, m, v = code_food(code), code_money(code), code_favour(code)
    st.hold[p, H_FOOD] -= f
    st.hold[p, H_MONEY] -= m
    st.hold[p, H_FAVOUR] -= v
    st.supply[S_FOOD] += f
    st.supply[S_MONEY] += m
    st.supply[S_FAVOUR] += v


@kernel
def take_tiles(st, tt, p, e, o):
    """The tiles of option o from their pools (PR-10.1), at most what is left (AMB-10 (b))."""
    for g in range(H_MONUMENT):                             # field .. catapult
        n = min(tt.effect_gain[e, o, g], st.supply[POOL_OF[g]])
        st.hold[p, g] += n
        st.supply[POOL_OF[g]] -= n


@kernel
def culture_index(st, tt, t):
    """The stack position of the token a buyer takes under highest_first / lowest_first (PR-10.2)."""
    if tt.rules[R_CULTURE_TAKE] == LOWEST_FIRST:
        return tt.supply[S_MONUMENT + t] - 1 - st.taken[t]
    return st.taken[t]


@kernel
def culture_options(st, tt, t):
    """DEC-8 under culture_take = choose: a stack position per value still present."""
    n = 0
    for k in range(tt.supply[S_MONUMENT + t]):
        if st.token_left[t, k]:
            dup = False
            for i in range(n):
                if tt.culture_values[t, st.opts[i]] == tt.culture_values[t, k]:
                    dup = True
            if not dup:
                st.opts[n] = k
                n += 1
    st.n_opts = n
    return n


@kernel
def take_token(st, tt, p, t, k):
    """The token at stack position k: its printed VP to p (PR-10.2)."""
    value = tt.culture_values[t, k]
    st.token_left[t, k] = 0
    st.taken[t] += 1
    st.supply[S_MONUMENT + t] -= 1
    st.hold[p, H_MONUMENT + t] += 1
    st.culture_vp[p, t] += value
    st.vp[p] += value
    st.pts[p, 1 + t] += value
    return value


@kernel
def next_token(st, tt, t):
    """The stack position taken under highest_first / lowest_first; under choose, the first left."""
    if tt.rules[R_CULTURE_TAKE] == CHOOSE:
        for k in range(tt.supply[S_MONUMENT + t]):
            if st.token_left[t, k]:
                return k
        return -1
    return culture_index(st, tt, t)


@kernel
def production(st, tt, p, e):
    """HARVEST / TAXES: one cube per counted tile, counted at activation (PR-10.6)."""
    return st.hold[p, tt.effect_per[e]]


@kernel
def favour_options(st, tt, p):
    """DEC-10: the favour of action C with a full church: onto an empty militia or condottiere,
    or lost (PR-8.2, AMB-7)."""
    n = 0
    if tt.rules[R_OVERFLOW_TO_UNITS]:
        if empty_militia(st, p) > 0:
            st.opts[n] = TO_MILITIA
            n += 1
        if empty_condottieri(st, p) > 0:
            st.opts[n] = TO_CONDOTTIERE
            n += 1
    st.opts[n] = LOSE
    st.n_opts = n + 1
    return st.n_opts


@kernel
def recruit_options(st, p):
    """DEC-5: take k units, 0 <= k <= the units in the pool (PR-17, AMB-12)."""
    return count_options(st, st.supply[S_UNITS])


@kernel
def recruit(st, tt, p, e, k):
    unit = H_MILITIA if tt.effect_unit[e] == 0 else H_CONDOTTIERE
    st.hold[p, unit] += k
    st.supply[S_UNITS] -= k
    st.seat_count[p, SC_RECRUITED] += k


# ---------------------------------------------------------------- exchanges (PR-6.3, PR-7)

@kernel
def slot_options(st, tt):
    """DEC-7: any display slot."""
    for s in range(tt.display_size):
        st.opts[s] = s
    st.n_opts = tt.display_size
    return st.n_opts


@kernel
def exchange(st, p, h, s):
    """Hand card h and display slot s change places (PR-6.3, PR-7.2)."""
    c = st.hand[p, h]
    st.hand[p, h] = st.display[s]
    st.display[s] = c


@kernel
def swap_options(st, tt):
    """DEC-9: one card (h, s) as h*D + s, or two cards (s0, s1), s0 != s1, as 2D + s0*D + s1:
    D(D+1) patterns (PR-7, AMB-13)."""
    d = tt.display_size
    n = 0
    for h in range(2):
        for s in range(d):
            st.opts[n] = h * d + s
            n += 1
    for s0 in range(d):
        for s1 in range(d):
            if s0 != s1:
                st.opts[n] = 2 * d + s0 * d + s1
                n += 1
    st.n_opts = n
    return n


@kernel
def swap(st, tt, p, code):
    """Action B: hand card 0 goes to s0 and hand card 1 to s1, simultaneously (PR-7.3)."""
    d = tt.display_size
    if code < 2 * d:
        exchange(st, p, code // d, code % d)
        return
    s0 = (code - 2 * d) // d
    s1 = (code - 2 * d) % d
    c0, c1 = st.display[s0], st.display[s1]
    st.display[s0] = st.hand[p, 0]
    st.display[s1] = st.hand[p, 1]
    st.hand[p, 0] = c0
    st.hand[p, 1] = c1
