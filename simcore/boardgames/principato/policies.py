"""Principato players (policies). Each reads only what its own seat may know (HI-1 … HI-5): its
own goal cards, never the others', and no deck order.

random — every decision uniform over its legal options as section 18 lists them (playout.decide
  asks only when there are two or more). Action A is a chain, so each link is uniform in turn: the
  kind (A, B, C, END_TURN), the card, the card's (option, payment) moves deduplicated as PR-9.3
  says, the recruit count 0..pool, the overflow count, the exchange slot. Multi-part choices are
  drawn part by part, each part uniform over what is still legal: the load step (DEC-11) as food
  onto militia, favour onto militia, money onto condottieri, favour onto condottieri; the discard
  step (DEC-12) as militia, then condottieri.

greedy — one step ahead on a value in VP-equivalents of its own principality: culture VP and
  military VP, its own goal cards scored on the holdings, cubes while there are turns left to
  spend them, production capped by storage, catapults and loadable units by the scorings left.
  Its weights (WEIGHTS: `greedy:culture=2,exchange=1`) scale those parts and set what an exchange
  costs; at their defaults it is the game's own greedy.
  It picks the action (and card, option, payment, exchange slot) with the best value; recruits as
  many units as it has cubes to load; at a scoring it loads as many units as pay in rank VP
  against what the others can still reach (HI-3: all of that is public); it discards units it
  cannot load.
  Greedy plans its whole action at DEC-1 (st.plan_*) and follows the plan at the decisions of that
  action. When DEC-1 was not its own (a scripted, replayed or searched one: playout.decide clears
  st.plan_ok) it chooses each of them afresh with the same values. The load plan is made at every
  load question.

determinize — what a search seat cannot see (HI-5), redrawn from what it can.
"""
import numpy as np

from simcore.contract import Param
from simcore.kernel import kernel
from simcore.search import greedy_weight, is_greedy, weight_defaults
from simcore.rng import below, shuffle
from simcore.boardgames.principato.components import K_BUY, K_GAIN, K_PRODUCE, K_RECRUIT
from simcore.boardgames.principato.rules import (
    admitted, culture_index, empty_condottieri, empty_militia, pay_code, production, tiles_available, twin_options)
from simcore.boardgames.principato.scoring import goal_value, strength
from simcore.boardgames.principato.state import (
    ACT_A, ACT_B, ACT_C, D_CARD, D_CULTURE, D_DISCARD, D_EXCHANGE, D_EXCHANGE_B, D_FAVOUR, D_KIND, D_LOAD,
    D_OPTION, D_OVERFLOW, D_RECRUIT, DISCARD_MIL, END_TURN, H_BANK, H_CATAPULT, H_CON_FAV, H_CON_MONEY,
    H_CONDOTTIERE, H_FARM, H_FAVOUR, H_FIELD, H_FOOD, H_MIL_FAV, H_MIL_FOOD, H_MILITIA, H_MONEY, H_MONUMENT,
    H_PALAZZO, LOAD_FAV_CON, LOAD_FAV_MIL, LOAD_FOOD_MIL, LOAD_MONEY_CON, LOSE, N_HOLD, S_FAVOUR, S_FOOD, S_MONEY, S_MONUMENT,
    S_UNITS, TO_CONDOTTIERE, TO_MILITIA, YEARS)

RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}

CUBE = 0.6                       # a stored cube, while there are turns left to spend it
FAVOUR_PREMIUM = 1.15            # a favour pays for either cube
PRODUCTION = 0.12                # a producing tile, per own turn left (storage-capped)
STORAGE = 0.15                   # a farm or bank, beyond what it lets produce
SWAP_COST = 0.6                  # an action spent on exchanging cards (the default of the weight exchange)
MARGIN = 0.3                     # strength beyond what changes the rank at the next scoring

# greedy's weights (`greedy:NAME=X`), in the order its kernels read them (W_*): factors on the
# value of culture, military strength, goal cards, production, storage and stored cubes, and the
# cost it counts for an exchange. The defaults are the values above (factors of 1, SWAP_COST).
WEIGHTS = (
    Param("culture", float, 1.0, 0.0, 10.0, "factor on the VP of the culture tokens an action takes"),
    Param("military", float, 1.0, 0.0, 10.0, "factor on what strength wins at the scorings to come (rank VP, "
          "catapults; how much it loads)"),
    Param("goals", float, 1.0, 0.0, 10.0, "factor on its two goal cards scored on its principality"),
    Param("production", float, 1.0, 0.0, 10.0, "factor on fields and palazzi: the cubes they will produce "
          "(up to what farms and banks store)"),
    Param("storage", float, 1.0, 0.0, 10.0, "factor on a farm or bank beyond what it lets produce"),
    Param("cubes", float, 1.0, 0.0, 10.0, "factor on stored food, money and favour (also what loading at a "
          "scoring spends)"),
    Param("exchange", float, SWAP_COST, 0.0, 10.0, "what an exchange of cards (action B) costs it, in VP"),
)
W_CULTURE, W_MILITARY, W_GOALS, W_PRODUCTION, W_STORAGE, W_CUBES, W_EXCHANGE = range(len(WEIGHTS))
DEFAULT_WEIGHTS = weight_defaults(WEIGHTS)


@kernel(inline=True)
def weight(st, tt, p, w):
    """Weight w (W_*) of the greedy seat p plays (the game's own greedy: the defaults). A search's
    cut-off (score_position) sees every seat at its rollout policy, so at the defaults."""
    return greedy_weight(tt, st.policy[p], w, DEFAULT_WEIGHTS)


@kernel(inline=True)
def choose(st, tt, p, dp, ctx):
    """The index of the option seat p takes among st.opts[:st.n_opts]."""
    if is_greedy(tt, st.policy[p]):
        return greedy_choice(st, tt, p, dp, ctx)
    return below(st.gen_decide, st.n_opts)


# ---------------------------------------------------------------- greedy's value of a principality

@kernel
def turns_left(st, tt):
    """The seat's own turns still to come in the game, this one included (public: deck sizes)."""
    total = 0
    for y in range(YEARS):
        total += tt.deck_size[y]
    total -= tt.display_size - 1 + 2                        # the display's cards; the two scoring cards
    return max(1, (total - st.turn + st.players - 1) // st.players)


@kernel
def cube_value(st, tt):
    """A stored cube buys about a VP while there are turns to spend it; at the end it only breaks ties."""
    return min(CUBE, 0.15 * turns_left(st, tt)) + 0.01


@kernel
def strength_value(st, tt):
    """What one point of strength is worth at the next scoring, in VP: the first rank's lead."""
    return (tt.rank_vp[0] - tt.rank_vp[1]) / 3.0


@kernel
def valuation(st, tt, p):
    """What worth reads besides the holdings, the same at every look-ahead of one decision (the turn,
    the scorings, p's VP and weights do not change while p looks ahead), computed once: (the VP now,
    a stored cube, a produced cube, a farm or bank, the military factor, a catapult's strength at
    the scorings after the next, the goals factor, the scorings left, the goal cards on p's
    holdings now, the culture factor). Each factor is the product worth used to form in the same
    order, so every value is the same float to the last bit and greedy's choices stay the same."""
    left = turns_left(st, tt)
    scorings_left = YEARS + 2 - st.scorings
    cube = cube_value(st, tt)
    now = 0.0
    for t in range(3):
        now += st.culture_vp[p, t]
    now += st.military_vp[p]
    return (now,
            weight(st, tt, p, W_CUBES) * cube,
            weight(st, tt, p, W_PRODUCTION) * PRODUCTION * cube * left,
            weight(st, tt, p, W_STORAGE) * STORAGE * cube,
            weight(st, tt, p, W_MILITARY),
            strength_value(st, tt) * (scorings_left - 1) * tt.strength_catapult,
            weight(st, tt, p, W_GOALS),
            scorings_left,
            goals_worth(st, tt, p, st.hold[p]),
            weight(st, tt, p, W_CULTURE))


@kernel
def worth(st, tt, p, h, val, goals):
    """Greedy's value of p holding h (a N_HOLD row) with its culture and military VP now, each
    part at p's weight (the VP already won are the same in every outcome it compares); val:
    valuation(st, tt, p); goals: goals_worth of h (val[8] when h has p's tiles)."""
    return worth_of(st, tt, p, val, goals, h[H_FOOD], h[H_MONEY], h[H_FAVOUR], h[H_FIELD], h[H_FARM],
                    h[H_PALAZZO], h[H_BANK], h[H_CATAPULT], h[H_MILITIA], h[H_MIL_FOOD], h[H_MIL_FAV],
                    h[H_CONDOTTIERE], h[H_CON_MONEY], h[H_CON_FAV])


@kernel(inline=True)
def worth_of(st, tt, p, val, goals, food, money, fav, field, farm, palazzo, bank, catapult, militia, mil_food,
             mil_fav, condottiere, con_money, con_fav):
    """worth of the holdings given one by one: a look-ahead keeps the holdings after a move in
    local variables (registers) instead of writing a copy of the whole row to memory."""
    now, cubes, produce, storage, military, later, goal_factor, scorings_left, _, _ = val
    value = now
    value += cubes * (food + money + FAVOUR_PREMIUM * fav)
    food_cap = farm * tt.food_per_farm
    money_cap = bank * tt.money_per_bank
    value += produce * (min(field, food_cap) + min(palazzo, money_cap))
    value += storage * (farm + bank)
    if scorings_left > 0:                                   # none left: strength is worth nothing
        mine = strength_of(tt, food, money, fav, catapult, militia, mil_food, mil_fav, condottiere, con_money,
                           con_fav)
        value += military * military_worth(st, tt, p, mine, later * catapult)
    return value + goal_factor * goals


@kernel(inline=True)
def loads_of(food, money, fav, militia, mil_food, mil_fav, condottiere, con_money, con_fav):
    """The loads that fill every empty unit the holdings have cubes for, food and money before
    favour: (food onto militia, favour onto militia, money onto condottieri, favour onto condottieri)."""
    em = militia - mil_food - mil_fav
    ec = condottiere - con_money - con_fav
    a = min(em, food)
    c = min(ec, money)
    b = min(em - a, fav)
    d = min(ec - c, fav - b)
    return a, b, c, d


@kernel
def most_loads(h):
    """loads_of holdings h (a N_HOLD row)."""
    return loads_of(h[H_FOOD], h[H_MONEY], h[H_FAVOUR], h[H_MILITIA], h[H_MIL_FOOD], h[H_MIL_FAV],
                    h[H_CONDOTTIERE], h[H_CON_MONEY], h[H_CON_FAV])


@kernel(inline=True)
def strength_of(tt, food, money, fav, catapult, militia, mil_food, mil_fav, condottiere, con_money, con_fav):
    """The strength the holdings can show at a scoring, loading every empty unit they have cubes for."""
    units = militia + condottiere
    a, b, c, d = loads_of(food, money, fav, militia, mil_food, mil_fav, condottiere, con_money, con_fav)
    ready = mil_food + mil_fav + con_money + con_fav + a + b + c + d
    return tt.strength_catapult * catapult + tt.strength_loaded * ready + tt.strength_empty * (units - ready)


@kernel
def potential_strength(tt, h):
    """strength_of holdings h (a N_HOLD row)."""
    return strength_of(tt, h[H_FOOD], h[H_MONEY], h[H_FAVOUR], h[H_CATAPULT], h[H_MILITIA], h[H_MIL_FOOD],
                       h[H_MIL_FAV], h[H_CONDOTTIERE], h[H_CON_MONEY], h[H_CON_FAV])


@kernel(inline=True)
def military_worth(st, tt, p, mine, later):
    """The rank VP of strength `mine` at the next scoring against what the others can reach now
    (noted by note_rivals), a little for strength beyond that, and `later`: the catapults'
    strength at the scorings after (valuation's factor times the catapults)."""
    above, tied = 0, 1
    for q in range(st.players):
        if q != p:
            theirs = st.rival[q]
            if theirs > mine:
                above += 1
            elif theirs == mine:
                tied += 1
    total = 0
    for r in range(above, above + tied):
        total += tt.rank_vp[r]
    return (total + tied - 1) // tied + MARGIN * mine + later


@kernel
def note_rivals(st, tt, p):
    """The strength each other player can reach now, for military_worth (once per decision: the
    others' holdings do not change while p looks ahead)."""
    for q in range(st.players):
        st.rival[q] = reachable_strength(st, tt, q) if q != p else 0


@kernel
def goals_worth(st, tt, p, h):
    """p's own two goal cards scored on holdings h."""
    return goal_value(tt, st.goals[p, 0], h, st.military_vp[p]) + goal_value(tt, st.goals[p, 1], h, st.military_vp[p])


@kernel(inline=True)
def stored_after(amount, supply, cube, cap, units, loaded, fill):
    """Greedy gaining `amount` food or money: at most the supply, stored up to cap, the overflow
    onto the empty compatible units (units, of which `loaded` carry a cube; greedy places all it
    can, fill of them carrying this cube). The cube and fill after."""
    amount = min(amount, supply)
    stored = min(amount, max(cap - cube, 0))
    return cube + stored, fill + min(amount - stored, units - loaded)


@kernel(inline=True)
def value_after(st, tt, p, val, goals, gained, pay_f, pay_m, pay_v, e, o, more_militia, more_condottieri,
                add_food, add_money):
    """The value of p's holdings after a move (greedy's one-step look-ahead): pay (pay_f, pay_m,
    pay_v) cubes, gain the tiles of effect e's option o (none if o < 0) and the units, then
    add_food and add_money cubes; goals: goals_worth after the move, gained: the culture VP it
    takes. The same sums as carrying the move out on a copy of the holdings and taking worth."""
    h = st.hold[p]
    food = h[H_FOOD] - pay_f
    money = h[H_MONEY] - pay_m
    fav = h[H_FAVOUR] - pay_v
    field, farm, palazzo, bank, catapult = h[H_FIELD], h[H_FARM], h[H_PALAZZO], h[H_BANK], h[H_CATAPULT]
    if o >= 0:
        field += tt.effect_gain[e, o, H_FIELD]
        farm += tt.effect_gain[e, o, H_FARM]
        palazzo += tt.effect_gain[e, o, H_PALAZZO]
        bank += tt.effect_gain[e, o, H_BANK]
        catapult += tt.effect_gain[e, o, H_CATAPULT]
    militia = h[H_MILITIA] + more_militia
    condottiere = h[H_CONDOTTIERE] + more_condottieri
    mil_food, mil_fav, con_money, con_fav = h[H_MIL_FOOD], h[H_MIL_FAV], h[H_CON_MONEY], h[H_CON_FAV]
    food, mil_food = stored_after(add_food, st.supply[S_FOOD], food, farm * tt.food_per_farm, militia,
                                  mil_food + mil_fav, mil_food)
    money, con_money = stored_after(add_money, st.supply[S_MONEY], money, bank * tt.money_per_bank, condottiere,
                                    con_money + con_fav, con_money)
    return worth_of(st, tt, p, val, goals, food, money, fav, field, farm, palazzo, bank, catapult, militia,
                    mil_food, mil_fav, condottiere, con_money, con_fav) + val[9] * gained


@kernel
def option_tiles(st, tt, p, e, o):
    """What buy option o of effect e gives besides cubes, the same for each of its payments:
    (goals_worth after it, the culture VP it takes). A culture token counts only while its
    stack has one."""
    h = st.scratch
    for i in range(N_HOLD):
        h[i] = st.hold[p, i]
    gained = 0.0
    for g in range(H_MONUMENT):
        h[g] += tt.effect_gain[e, o, g]
    for t in range(3):
        n = tt.effect_gain[e, o, H_MONUMENT + t]
        if n > 0 and st.supply[S_MONUMENT + t] > 0:
            h[H_MONUMENT + t] += n
            gained += n * tt.culture_values[t, culture_index(st, tt, t)]
    return goals_worth(st, tt, p, h), gained


@kernel
def recruit_goals(st, tt, p, unit, k):
    """goals_worth of p with k more units of type unit (H_MILITIA, H_CONDOTTIERE)."""
    h = st.scratch
    for i in range(N_HOLD):
        h[i] = st.hold[p, i]
    h[unit] += k
    return goals_worth(st, tt, p, h)


@kernel
def recruit_target(st, tt, p, e):
    """How many units greedy takes: as many as its stored cubes could load, minus its empty ones."""
    if tt.effect_unit[e] == 0:
        room = st.hold[p, H_FOOD] + st.hold[p, H_FAVOUR] - empty_militia(st, p)
    else:
        room = st.hold[p, H_MONEY] + st.hold[p, H_FAVOUR] - empty_condottieri(st, p)
    return max(0, min(room, st.supply[S_UNITS]))


@kernel
def best_move(st, tt, p, card, val):
    """The best option move of card for p and its value: (value, code); code -1 if it has none.
    It depends on the card's effect only (and on the state, the same during one decision).
    The moves are option_moves', weighed in their order (the first best is taken)."""
    e = tt.card_effect[card]
    kind = tt.effect_kind[e]
    if kind == K_RECRUIT:
        k = recruit_target(st, tt, p, e)
        militia = tt.effect_unit[e] == 0
        unit = H_MILITIA if militia else H_CONDOTTIERE
        goals = recruit_goals(st, tt, p, unit, k)
        return value_after(st, tt, p, val, goals, 0.0, 0, 0, 0, e, -1, k if militia else 0,
                           0 if militia else k, 0, 0), k
    if kind == K_PRODUCE:
        amount = production(st, tt, p, e)
        food = tt.effect_cube[e] == H_FOOD
        return value_after(st, tt, p, val, val[8], 0.0, 0, 0, 0, e, -1, 0, 0, amount if food else 0,
                           0 if food else amount), 0
    if kind == K_BUY:
        return best_buy(st, tt, p, e, val)
    best, best_code = -1e9, -1
    for o in range(tt.effect_n_options[e]):                 # K_GAIN: every option, cubes only (option_moves)
        v = value_after(st, tt, p, val, val[8], 0.0, 0, 0, 0, e, -1, 0, 0, tt.effect_gain[e, o, H_FOOD],
                        tt.effect_gain[e, o, H_MONEY])
        if v > best:
            best, best_code = v, o
    return best, best_code


@kernel
def best_buy(st, tt, p, e, val):
    """best_move of buy effect e: its moves are rules.payment_options', walked here in the same
    order without listing them (the first best is taken), and what an option gives besides cubes
    (option_tiles) is found once for all its payments."""
    food, money, fav = st.hold[p, H_FOOD], st.hold[p, H_MONEY], st.hold[p, H_FAVOUR]
    best, best_code = -1e9, -1
    for o in range(tt.effect_n_options[e]):
        if not tiles_available(st, tt, e, o):
            continue
        twins = twin_options(st, tt, e, o)
        need_f, need_m = tt.effect_pay[e, o, 0], tt.effect_pay[e, o, 1]
        add_food, add_money = tt.effect_gain[e, o, H_FOOD], tt.effect_gain[e, o, H_MONEY]
        goals, gained, known = 0, 0.0, False
        for f in range(min(need_f, food), -1, -1):
            for m in range(min(need_m, money), max(need_f - f + need_m - fav, 0) - 1, -1):   # v <= fav
                v = need_f - f + need_m - m
                if twins != 0 and admitted(tt, e, twins, f, m, v):
                    continue
                if not known:
                    goals, gained = option_tiles(st, tt, p, e, o)
                    known = True
                value = value_after(st, tt, p, val, goals, gained, f, m, v, e, o, 0, 0, add_food, add_money)
                if value > best:
                    best, best_code = value, pay_code(o, f, m, v)
    return best, best_code


@kernel(inline=True)
def gain_of(v, code, base):
    """What holding a card is worth, from its best move (v, code): what it would add now, at least
    0 (0 without a move)."""
    if code < 0:
        return 0.0
    return max(0.0, v - base)


@kernel
def slot_worths(st, tt, p, base, val, e0, v0, code0, e1, v1, code1):
    """What each display card would add now (gain_of its best move) into st.slot_worth; the best of
    them (at least 0). best_move depends on the effect only, and copies of an effect are common
    (the display and the hand hold 7 to 9 cards of 16 effects), so each effect is looked ahead
    on once: a card of effect e0 or e1 (the hand cards', best moves (v0, code0) and (v1, code1);
    -1: none given) or of an earlier slot's effect takes that value."""
    best = 0.0
    for s in range(tt.display_size):
        card = st.display[s]
        w = 0.0
        if card >= 0:
            e = tt.card_effect[card]
            if e == e0:
                w = gain_of(v0, code0, base)
            elif e == e1:
                w = gain_of(v1, code1, base)
            else:
                seen = -1
                for s2 in range(s):
                    if st.display[s2] >= 0 and tt.card_effect[st.display[s2]] == e:
                        seen = s2
                        break
                if seen >= 0:
                    w = st.slot_worth[seen]
                else:
                    v, code = best_move(st, tt, p, card, val)
                    w = gain_of(v, code, base)
        st.slot_worth[s] = w
        best = max(best, w)
    return best


@kernel
def hand_moves(st, tt, p, val):
    """best_move of both hand cards (a hand always holds two cards, INV-2), once if they share
    an effect: (e0, v0, code0, e1, v1, code1)."""
    c0, c1 = st.hand[p, 0], st.hand[p, 1]
    e0, e1 = tt.card_effect[c0], tt.card_effect[c1]
    v0, code0 = best_move(st, tt, p, c0, val)
    if e1 == e0:
        v1, code1 = v0, code0
    else:
        v1, code1 = best_move(st, tt, p, c1, val)
    return e0, v0, code0, e1, v1, code1


@kernel
def current_worth(st, tt, p, val):
    """worth of p's holdings now."""
    return worth(st, tt, p, st.hold[p], val, val[8])


@kernel
def score_position(st, tt):
    """driver.score_cut_off: each principality at greedy's value (its VP, its goal cards on its
    holdings, cubes, production and strength still to pay), to the nearest VP. The end scoring
    alone (the goal cards) sees none of what a principality will still earn."""
    for p in range(st.players):
        note_rivals(st, tt, p)
        st.vp[p] = np.int32(round(current_worth(st, tt, p, valuation(st, tt, p))))


@kernel
def best_display_slot(st, tt):
    """The first display slot of the highest st.slot_worth (slot_worths filled it): (worth, slot)."""
    best, slot = -1.0, 0
    for s in range(tt.display_size):
        if st.slot_worth[s] > best:
            best, slot = st.slot_worth[s], s
    return best, slot


@kernel
def plan_action(st, tt, p):
    """DEC-1 for greedy: compare the best activation, the best swap, a favour and ending the turn;
    remember the card, move and swap chosen in st.plan_*."""
    val = valuation(st, tt, p)
    base = current_worth(st, tt, p, val)
    d = tt.display_size
    e0, v0, code0, e1, v1, code1 = hand_moves(st, tt, p, val)
    best_slot = slot_worths(st, tt, p, base, val, e0, v0, code0, e1, v1, code1)   # what each display card would add now
    best_kind, best = END_TURN, 0.0
    swap_cost = weight(st, tt, p, W_EXCHANGE)
    mine0, mine1 = 0.0, 0.0                                 # gain_of each hand card, for the swaps
    for h in range(2):
        card = st.hand[p, h]
        v, code = v0, code0
        if h == 1:
            v, code = v1, code1
        if code < 0:
            continue
        if h == 0:
            mine0 = max(0.0, v - base)
        else:
            mine1 = max(0.0, v - base)
        gain = v - base
        if tt.card_exchange[card]:
            gain += 0.5 * best_slot
        if gain > best + 1e-9:
            best_kind, best = ACT_A, gain
            st.plan_card, st.plan_code = h, code
    for h in range(2):
        mine = mine0 if h == 0 else mine1
        for s in range(d):
            gain = st.slot_worth[s] - mine - swap_cost
            if gain > best + 1e-9:
                best_kind, best = ACT_B, gain
                st.plan_slot = h * d + s
    st.plan_ok = 1
    if st.supply[S_FAVOUR] > 0:
        if st.hold[p, H_FAVOUR] < tt.church_favour:              # a stored cube, as worth values it
            gain = weight(st, tt, p, W_CUBES) * FAVOUR_PREMIUM * cube_value(st, tt)
        elif empty_militia(st, p) + empty_condottieri(st, p) > 0:
            gain = weight(st, tt, p, W_MILITARY) * strength_value(st, tt)
        else:
            gain = 0.0
        if gain > best + 1e-9:
            best_kind, best = ACT_C, gain
    return best_kind


@kernel
def index_of(st, value):
    for i in range(st.n_opts):
        if st.opts[i] == value:
            return i
    return 0


# ---------------------------------------------------------------- greedy at a scoring

@kernel
def reachable_strength(st, tt, q):
    """The most strength q can show at this scoring, loading all it can (public holdings)."""
    return potential_strength(tt, st.hold[q])


@kernel
def plan_loads(st, tt, p):
    """How many units p loads: the count whose rank VP minus the cubes spent is best, against
    the strength each other player shows (if it loaded already) or can reach. Food and money
    go first, favour last. Into st.plan_load."""
    if st.action_step > 0:                                  # free_loading outside a scoring: loading early
        for i in range(4):                                  # only gives up options (AMB-6)
            st.plan_load[i] = 0
        return
    others = st.award                                       # scratch until the awards
    loaded_already = True
    for i in range(st.players):
        q = st.order[i]
        if q == p:
            loaded_already = False
            continue
        others[q] = strength(st, tt, q) if loaded_already else reachable_strength(st, tt, q)
    a, b, c, d = most_loads(st.hold[p])
    most = a + b + c + d
    base = strength(st, tt, p)
    cube = weight(st, tt, p, W_CUBES) * cube_value(st, tt)
    rank = weight(st, tt, p, W_MILITARY)                  # a factor on the rank VP, as in military_worth
    best, best_n = -1e9, 0
    for n in range(most + 1):
        s = base + 2 * n * tt.strength_loaded
        above, tied = 0, 1
        for q in range(st.players):
            if q != p:
                if others[q] > s:
                    above += 1
                elif others[q] == s:
                    tied += 1
        total = 0
        for r in range(above, above + tied):
            total += tt.rank_vp[r]
        v = rank * ((total + tied - 1) // tied) - cube * n
        if v > best + 1e-9:
            best, best_n = v, n
    n = best_n
    st.plan_load[0] = min(a, n)
    n -= st.plan_load[0]
    st.plan_load[2] = min(c, n)
    n -= st.plan_load[2]
    st.plan_load[1] = min(b, n)
    n -= st.plan_load[1]
    st.plan_load[3] = min(d, n)


@kernel
def keep_units(st, p, unit):
    """Units greedy keeps after a scoring: as many as its stored cubes can load next time."""
    if unit == H_MILITIA:
        return st.hold[p, H_FOOD] + st.hold[p, H_FAVOUR]
    return st.hold[p, H_MONEY] + st.hold[p, H_FAVOUR]


@kernel(inline=True)
def greedy_choice(st, tt, p, dp, ctx):
    if dp == D_KIND:
        note_rivals(st, tt, p)
        return index_of(st, plan_action(st, tt, p))
    if not st.plan_ok and (dp == D_CARD or dp == D_OPTION or dp == D_RECRUIT or dp == D_EXCHANGE_B):
        return unplanned_choice(st, tt, p, dp, ctx)
    if dp == D_CARD:
        return index_of(st, st.plan_card)
    if dp == D_OPTION:
        return index_of(st, st.plan_code)
    if dp == D_RECRUIT:
        return index_of(st, st.plan_code)
    if dp == D_EXCHANGE:
        note_rivals(st, tt, p)
        val = valuation(st, tt, p)
        slot_worths(st, tt, p, current_worth(st, tt, p, val), val, -1, 0.0, -1, -1, 0.0, -1)
        best, slot = best_display_slot(st, tt)
        return index_of(st, slot)
    if dp == D_EXCHANGE_B:
        return index_of(st, st.plan_slot)
    if dp == D_OVERFLOW:
        return st.n_opts - 1                                # all it can onto units
    if dp == D_FAVOUR:
        return 0                                            # a unit if there is one, else lose
    if dp == D_CULTURE:
        best, k = -1, 0
        for i in range(st.n_opts):
            v = tt.culture_values[ctx, st.opts[i]]
            if v > best:
                best, k = v, i
        return k
    if dp == D_LOAD:
        plan_loads(st, tt, p)           # at every part: a part with one option is not asked (loads land after all four)
        return index_of(st, st.plan_load[ctx])
    if dp == D_DISCARD:
        unit = H_MILITIA if ctx == DISCARD_MIL else H_CONDOTTIERE
        return index_of(st, max(0, st.hold[p, unit] - keep_units(st, p, unit)))
    return 0


# ---------------------------------------------------------------- greedy without its DEC-1 plan

@kernel
def unplanned_choice(st, tt, p, dp, ctx):
    """DEC-2, DEC-3/4, DEC-5, DEC-9 when greedy did not choose this action at DEC-1 (st.plan_ok
    is 0): the choice plan_action would have planned for the action taken, made now."""
    note_rivals(st, tt, p)
    val = valuation(st, tt, p)
    base = current_worth(st, tt, p, val)
    if dp == D_CARD:
        return index_of(st, best_card(st, tt, p, base, val))
    if dp == D_RECRUIT:
        return index_of(st, recruit_target(st, tt, p, ctx))
    if dp == D_OPTION:                                      # ctx: the effect; a hand card has it
        card = st.hand[p, 0] if tt.card_effect[st.hand[p, 0]] == ctx else st.hand[p, 1]
        v, code = best_move(st, tt, p, card, val)
        return index_of(st, code)
    return index_of(st, best_swap(st, tt, p, base, val))


@kernel
def best_card(st, tt, p, base, val):
    """The hand card whose best move gains most (an exchange symbol adds half the best display
    card, as in plan_action); -1 if neither can be activated."""
    e0, v0, code0, e1, v1, code1 = hand_moves(st, tt, p, val)
    best_slot = slot_worths(st, tt, p, base, val, e0, v0, code0, e1, v1, code1)   # at least 0
    best, h_best = -1e300, -1
    for h in range(2):
        card = st.hand[p, h]
        v, code = v0, code0
        if h == 1:
            v, code = v1, code1
        if code < 0:
            continue
        gain = v - base
        if tt.card_exchange[card]:
            gain += 0.5 * best_slot
        if gain > best + 1e-9:
            best, h_best = gain, h
    return h_best


@kernel
def best_swap(st, tt, p, base, val):
    """Action B's one-card exchange h * D + s that gains most (as in plan_action)."""
    d = tt.display_size
    e0, v0, code0, e1, v1, code1 = hand_moves(st, tt, p, val)
    slot_worths(st, tt, p, base, val, e0, v0, code0, e1, v1, code1)
    swap_cost = weight(st, tt, p, W_EXCHANGE)
    best, code = -1e300, 0
    for h in range(2):
        mine = gain_of(v0, code0, base) if h == 0 else gain_of(v1, code1, base)
        for s in range(d):
            gain = st.slot_worth[s] - mine - swap_cost
            if gain > best + 1e-9:
                best, code = gain, h * d + s
    return code


# ---------------------------------------------------------------- what a seat cannot see (search players)

@kernel(inline=True)
def determinize(st, tt, p):
    """Redraw what seat p cannot see, from what it can (HI-5, simcore/search.py): the order of the
    cards still to come in this year's deck and of every later year's deck, each deck on its own
    (a scoring card stays in its deck, HI-2: the composition of each deck is public), and the
    other players' goal cards, dealt again from each goal deck without p's own card of it (HI-1:
    with P < 4 the undealt ones are unseen too). Nothing else is hidden (HI-3)."""
    shuffle(st.s_gen, st.deck, st.deck_pos, st.deck_n)
    for y in range(st.round_no, YEARS):                     # decks of the years to come (0-based)
        shuffle(st.s_gen, st.decks[y], 0, tt.deck_size[y])
    pile = st.moves                                         # scratch: the root's options are in st.opts
    for deck in range(2):
        n = 0
        for g in range(tt.n_goals):
            if tt.goal_deck[g] == deck and g != st.goals[p, deck]:
                pile[n] = g
                n += 1
        for q in range(st.players):
            if q != p:
                k = below(st.s_gen, n)
                st.goals[q, deck] = pile[k]
                pile[k] = pile[n - 1]
                n -= 1
