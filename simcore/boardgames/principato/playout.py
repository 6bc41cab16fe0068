"""One whole Principato game (PR-3 … PR-15), and the batch kernel.

Wherever a player decides (section 18, DEC-n), rules.py writes the options into st.opts and
`decide` returns the chosen option's value: a scripted value first (tests drive games this way),
else the seat's policy. A decision with one legal option is not asked. Action A is a chain of
decisions: the card (DEC-2), its option with the payment (DEC-3/4, one decision, deduplicated
as PR-9.3 says), the count (DEC-5), the overflow (DEC-6), the token (DEC-8), the exchange (DEC-7).

A game with a search seat (flatmc, mcts) is played by replaying run_game (simcore/search.py):
every decision goes through `decide`, and no policy chooses anywhere else. Chance is drawn only
at setup (PR-3.11); policies.determinize redraws what a searching seat cannot see (HI-5).
"""


from simcore.kernel import kernel
from simcore import driver
from simcore.turns import halt_here, log_event
from simcore.boardgames.principato.components import K_BUY, K_GAIN, K_PRODUCE, K_RECRUIT
from simcore.boardgames.principato.policies import choose, determinize, score_position
from simcore.boardgames.principato.rules import (
    card_options, code_option, count_options, culture_options, deck_empty, draw, empty_condottieri, empty_militia, exchange,
    favour_options, food_cap, kind_options, load, loaded_units, money_cap, next_token, option_moves,
    overflow_options, pay, place_overflow, production, receive, recruit, recruit_options, reset, shift_display,
    slot_options, start_year, stored_cubes, swap, swap_options, take_tiles, take_token)
from simcore.boardgames.principato.scoring import award_military_vp, cleanup, score_goals, scoring_order, tiebreak
from simcore.boardgames.principato.state import (
    PLAY_STATE, STATE,
    ACT_A, ACT_B, ACT_C, CHOOSE, D_CARD, D_CULTURE, D_DISCARD, D_EXCHANGE, D_EXCHANGE_B, D_FAVOUR, D_KIND,
    D_LOAD, D_OPTION, D_OVERFLOW, D_RECRUIT, DISCARD_CON, DISCARD_MIL, END_TURN, EV_ACTIVATE, EV_BOX,
    EV_DISCARD, EV_DRAW, EV_END_TURN, EV_EXCHANGE, EV_FAVOUR, EV_GAIN, EV_LOAD, EV_OVERFLOW, EV_PAY,
    EV_RECRUIT, EV_SCORING, EV_STRENGTH, EV_SWAP, EV_TURN, EV_YEAR, EV_CULTURE, GC_BOXED,
    GC_CATAPULTS_LEFT, GC_FAVOUR_LEFT, GC_SCORINGS, GC_START, GC_TURNS, H_BANK, H_CATAPULT, H_CON_FAV,
    H_CON_MONEY, H_CONDOTTIERE, H_FARM, H_FAVOUR, H_FOOD, H_MIL_FAV, H_MIL_FOOD, H_MILITIA, H_MONEY,
    H_MONUMENT, LOAD_FAV_CON, LOAD_FAV_MIL, LOAD_FOOD_MIL, LOAD_MONEY_CON, LOSE, N_GOODS, R_CULTURE_TAKE,
    R_FREE_LOADING, R_NEW_YEAR_STARTER, S_CATAPULT, S_FAVOUR, S_FOOD, S_MONEY, S_UNITS, SC_DISCARDED,
    SC_EXCHANGES, SC_FAVOUR, SC_GOAL_G1, SC_GOAL_G2, SC_LOST, SC_POSITION, SC_STORED_END, START_PLAYER,
    TO_MILITIA, YEARS, S_FIELD_FARM, S_PALAZZO_BANK, S_MONUMENT, S_PAINTING)


@kernel(inline=True)
def plan_overruled(st):
    """A script, a replay or the search tree chose, not greedy: its plan (DEC-1) is not this action's."""
    st.plan_ok = 0


decide = driver.decider(choose, determinize, plan_overruled)   # decide(st, tt, p, dp, ctx): simcore/driver.py


# ---------------------------------------------------------------- gaining cubes (PR-10.3, PR-10.4)

@kernel
def gain_cubes(st, tt, p, cube, amount):
    """Receive `amount` food (H_FOOD) or money (H_MONEY): store what fits, then DEC-6 puts any of
    the overflow onto empty units; the rest is lost."""
    if amount <= 0:
        return
    before = st.hold[p, cube]
    overflow = receive(st, tt, p, cube, amount)
    x = 0
    if overflow > 0:
        overflow_options(st, tt, p, cube, overflow)
        x = decide(st, tt, p, D_OVERFLOW, cube)
        place_overflow(st, p, cube, overflow, x)
    log_event(st, EV_GAIN, p, cube, st.hold[p, cube] - before, x)
    if overflow > x:
        log_event(st, EV_OVERFLOW, p, cube, overflow - x, 0)


@kernel(inline=True)
def take_favour(st, tt, p):
    """Action C (PR-8): a favour cube into the church, or with a full church onto an empty unit
    (DEC-10) or lost; nothing from an empty supply."""
    st.seat_count[p, SC_FAVOUR] += 1
    where = LOSE
    if st.supply[S_FAVOUR] == 0:
        log_event(st, EV_FAVOUR, p, -1, 0, 0)
        return
    if st.hold[p, H_FAVOUR] < tt.church_favour:
        st.hold[p, H_FAVOUR] += 1
        st.supply[S_FAVOUR] -= 1
        log_event(st, EV_FAVOUR, p, 0, st.hold[p, H_FAVOUR], 0)
        return
    favour_options(st, tt, p)
    where = decide(st, tt, p, D_FAVOUR, 0)
    if where == LOSE:
        st.seat_count[p, SC_LOST] += 1
    else:
        st.hold[p, H_MIL_FAV if where == TO_MILITIA else H_CON_FAV] += 1
        st.supply[S_FAVOUR] -= 1
    log_event(st, EV_FAVOUR, p, 1 + where, st.hold[p, H_FAVOUR], 0)


# ---------------------------------------------------------------- action A (PR-6, PR-17)

@kernel(inline=True)
def take_culture(st, tt, p, t):
    """One token of stack t: the top one, or DEC-8 under culture_take = choose (PR-10.2)."""
    if tt.rules[R_CULTURE_TAKE] == CHOOSE:
        culture_options(st, tt, t)
        k = decide(st, tt, p, D_CULTURE, t)
    else:
        k = next_token(st, tt, t)
    value = take_token(st, tt, p, t, k)
    log_event(st, EV_CULTURE, p, t, value, st.culture_vp[p, t])


@kernel(inline=True)
def carry_out(st, tt, p, card):
    """The card's effect once (PR-6.1): choose the option and payment, pay, receive."""
    e = tt.card_effect[card]
    kind = tt.effect_kind[e]
    st.n_opts = option_moves(st, tt, p, card, st.opts)
    code = decide(st, tt, p, D_OPTION, e)
    o = code_option(code)
    if kind == K_RECRUIT:
        recruit_options(st, p)
        k = decide(st, tt, p, D_RECRUIT, e)
        recruit(st, tt, p, e, k)
        log_event(st, EV_RECRUIT, p, tt.effect_unit[e], k, 0)
    elif kind == K_PRODUCE:
        gain_cubes(st, tt, p, tt.effect_cube[e], production(st, tt, p, e))
    else:
        if kind == K_BUY:
            pay(st, p, code)
            log_event(st, EV_PAY, p, code, o, 0)
            take_tiles(st, tt, p, e, o)
            for t in range(3):
                for _ in range(tt.effect_gain[e, o, H_MONUMENT + t]):
                    take_culture(st, tt, p, t)
        gain_cubes(st, tt, p, H_FOOD, tt.effect_gain[e, o, H_FOOD])
        gain_cubes(st, tt, p, H_MONEY, tt.effect_gain[e, o, H_MONEY])


@kernel(inline=True)
def activate(st, tt, p):
    """Action A: a hand card's effect, then the compulsory exchange if the card has the symbol
    (PR-6.3, DEC-7): any display card to the hand, the used card into its slot."""
    card_options(st, tt, p)
    h = decide(st, tt, p, D_CARD, 0)
    card = st.hand[p, h]
    log_event(st, EV_ACTIVATE, p, card, h, 0)
    carry_out(st, tt, p, card)
    if tt.card_exchange[card]:
        slot_options(st, tt)
        s = decide(st, tt, p, D_EXCHANGE, card)
        log_event(st, EV_EXCHANGE, p, card, s, st.display[s])
        exchange(st, p, h, s)


@kernel(inline=True)
def exchange_cards(st, tt, p):
    """Action B (PR-7, DEC-9)."""
    swap_options(st, tt)
    code = decide(st, tt, p, D_EXCHANGE_B, 0)
    log_event(st, EV_SWAP, p, code, st.hand[p, 0], st.hand[p, 1])
    swap(st, tt, p, code)
    st.seat_count[p, SC_EXCHANGES] += 1


# ---------------------------------------------------------------- loading and discards (DEC-11, DEC-12)

@kernel
def load_step(st, tt, p):
    """DEC-11 as four counts in turn: food onto militia, favour onto militia, money onto
    condottieri, favour onto condottieri (PR-14.3, PR-2.4)."""
    em, ec = empty_militia(st, p), empty_condottieri(st, p)
    food, money, fav = st.hold[p, H_FOOD], st.hold[p, H_MONEY], st.hold[p, H_FAVOUR]
    count_options(st, min(food, em))
    a = decide(st, tt, p, D_LOAD, LOAD_FOOD_MIL)
    count_options(st, min(fav, em - a))
    b = decide(st, tt, p, D_LOAD, LOAD_FAV_MIL)
    count_options(st, min(money, ec))
    c = decide(st, tt, p, D_LOAD, LOAD_MONEY_CON)
    count_options(st, min(fav - b, ec - c))
    d = decide(st, tt, p, D_LOAD, LOAD_FAV_CON)
    load(st, p, a, b, c, d)
    if a + b + c + d > 0:
        log_event(st, EV_LOAD, p, a + b, c + d, b + d)


@kernel(inline=True)
def discard_step(st, tt, p):
    """DEC-12: any number of (empty) militia and condottieri back to the pool (PR-14.8)."""
    count_options(st, st.hold[p, H_MILITIA])
    x = decide(st, tt, p, D_DISCARD, DISCARD_MIL)
    count_options(st, st.hold[p, H_CONDOTTIERE])
    y = decide(st, tt, p, D_DISCARD, DISCARD_CON)
    st.hold[p, H_MILITIA] -= x
    st.hold[p, H_CONDOTTIERE] -= y
    st.supply[S_UNITS] += x + y
    st.seat_count[p, SC_DISCARDED] += x + y
    if x + y > 0:
        log_event(st, EV_DISCARD, p, x, y, 0)


@kernel
def military_scoring(st, tt, final):
    """PR-14: order, load step, strength and VP, cleanup, discards (none after the last)."""
    st.scorings += 1
    scoring_order(st)
    log_event(st, EV_SCORING, -1, st.scorings, st.order[0], 0)
    for i in range(st.players):
        load_step(st, tt, st.order[i])
    award_military_vp(st, tt)
    for i in range(st.players):
        p = st.order[i]
        log_event(st, EV_STRENGTH, p, st.strength[p], st.award[p], st.military_vp[p])
    cleanup(st)
    check(st, tt)
    if not final:
        for i in range(st.players):
            discard_step(st, tt, st.order[i])


# ---------------------------------------------------------------- turns, refills, years (PR-5, PR-11, PR-12)

@kernel(inline=True)
def take_turn(st, tt, p):
    """Two actions from A, B, C, or END_TURN (PR-5)."""
    log_event(st, EV_TURN, p, st.turn, 0, 0)
    for step in range(1, 3):
        st.action_step = step
        if tt.rules[R_FREE_LOADING]:
            load_step(st, tt, p)                            # DEC-13 (AMB-6), fidelity tests only
        check(st, tt)
        kind_options(st, tt, p)
        kind = decide(st, tt, p, D_KIND, step)
        if kind == END_TURN:
            log_event(st, EV_END_TURN, p, step, 0, 0)
            break
        if kind == ACT_A:
            activate(st, tt, p)
        elif kind == ACT_B:
            exchange_cards(st, tt, p)
        else:
            take_favour(st, tt, p)
    st.action_step = 0


@kernel
def refill(st, tt):
    """PR-11.1 step 3, PR-13: draw into the last slot; a scoring card scores at once and is boxed,
    then the refill goes on. False when the deck runs out (the year ends, PR-12.1)."""
    while not deck_empty(st):
        c = draw(st)
        if tt.card_scoring[c]:
            military_scoring(st, tt, False)
            continue
        st.display[tt.display_size - 1] = c
        log_event(st, EV_DRAW, -1, c, 0, 0)
        return True
    return False


@kernel(inline=True)
def end_of_turn(st, tt):
    """PR-11: slot 0 to the box, the display shifts left and is refilled."""
    gone = shift_display(st, tt)
    log_event(st, EV_BOX, -1, gone, 0, 0)
    return refill(st, tt)


@kernel(inline=True)
def begin_year(st, tt, year):
    """The year's deck and its first refill (PR-12.4; a scoring card scores, EX-17). The first
    turn of a year goes to the player after the last (or the start player, AMB-17)."""
    log_event(st, EV_YEAR, st.current, year, 0, 0)
    if year > 1:
        start_year(st, tt, year)
        refill(st, tt)


@kernel(inline=True)
def play_turns(st, tt):
    """Turns until a refill fails (PR-11, PR-12.1): True then, False when st.halt_at stopped the
    game. A search resumes at the start of a turn (driver.checkpoint)."""
    while True:
        driver.checkpoint(st)
        take_turn(st, tt, st.current)
        st.turn += 1
        if halt_here(st, st.turn):
            return False
        st.current = (st.current + 1) % st.players
        if not end_of_turn(st, tt):
            return True


@kernel(inline=True)
def end_year(st, tt, year):
    """The end-of-year scoring (PR-12); the next year's first turn (AMB-17)."""
    military_scoring(st, tt, year == YEARS)
    if tt.rules[R_NEW_YEAR_STARTER] == START_PLAYER:
        st.current = st.sp


@kernel
def finish_year(st, tt, year):
    """The year's turns from the current one on, then its scoring; False when st.halt_at
    stopped the game first."""
    if not play_turns(st, tt):
        return False
    end_year(st, tt, year)
    return True


@kernel
def play_year(st, tt, year):
    """One year (PR-11, PR-12); False when st.halt_at stopped the game."""
    begin_year(st, tt, year)
    return finish_year(st, tt, year)


@kernel
def run_game(st, tt, players, policies, seed, index):
    """Play game `index` of `seed` to the end (PR-3 … PR-15), or on from the turn a search
    restored (driver.resumed), or to st.halt_at turns."""
    if driver.resumed(st):
        if not finish_year(st, tt, st.round_no):
            return
        year = st.round_no + 1
    else:
        reset(st, tt, players, policies, seed, index)
        year = 1
    while year <= YEARS:
        if not play_year(st, tt, year):
            return
        year += 1
    score_goals(st, tt)
    check(st, tt)
    finish_counts(st, tt)


@kernel(inline=True)
def finish_counts(st, tt):
    """The per-seat and game counters of the results."""
    n = st.players
    for p in range(n):
        st.seat_count[p, SC_POSITION] = (p - st.sp) % n
        st.seat_count[p, SC_GOAL_G1] = st.goals[p, 0]
        st.seat_count[p, SC_GOAL_G2] = st.goals[p, 1]
        st.seat_count[p, SC_STORED_END] = stored_cubes(st, p)
    st.game_count[GC_START] = st.sp
    st.game_count[GC_TURNS] = st.turn
    st.game_count[GC_SCORINGS] = st.scorings
    st.game_count[GC_CATAPULTS_LEFT] = st.supply[S_CATAPULT]
    st.game_count[GC_FAVOUR_LEFT] = st.supply[S_FAVOUR]
    st.game_count[GC_BOXED] = st.boxed


# ---------------------------------------------------------------- invariants (INV-1 … INV-8)

VIOLATIONS = {       # check()'s codes: what broke (simcore check names them)
    1: "a hand without two cards or a display of the wrong size during an action (INV-1, INV-2)",
    2: "an action card lost or doubled (INV-3)",
    3: "cubes not conserved or negative (INV-4)",
    4: "tiles or tokens not conserved (INV-5)",
    5: "storage over its limits (INV-6)",
    6: "a unit with a bad load (INV-7)",
    7: "VP differ from the sum of the score categories",
}


@kernel
def check(st, tt):
    """With st.checking on, record the first broken invariant and its year: 1 a hand without two
    cards or a display of the wrong size during an action (INV-1, INV-2), 2 an action card lost or
    doubled (INV-3), 3 cubes not conserved or negative (INV-4), 4 tiles or tokens not conserved
    (INV-5), 5 storage over its limits (INV-6), 6 a unit with a bad load (INV-7), 7 VP not the sum
    of the categories."""
    if not st.checking or st.violation:
        return
    n = st.players
    d = tt.display_size
    code = 0
    shown = 0
    for s in range(d):
        if st.display[s] >= 0:
            shown += 1
    if st.action_step > 0 and shown != d:
        code = 1
    for p in range(n):
        if st.hand[p, 0] < 0 or st.hand[p, 1] < 0:
            code = 1
    if not cards_distinct(st, tt):
        code = 2
    in_decks = st.deck_n - st.deck_pos
    total = 0
    for y in range(YEARS):
        total += tt.deck_size[y]
        if y >= st.round_no:
            in_decks += tt.deck_size[y]
    drawn_scorings = 0
    for y in range(st.round_no):
        for i in range(tt.deck_size[y]):
            c = tt.deck_cards[y, i]
            if tt.card_scoring[c]:
                drawn_scorings += 1
    for i in range(st.deck_pos, st.deck_n):
        if tt.card_scoring[st.deck[i]]:
            drawn_scorings -= 1
    if shown + in_decks + st.boxed + drawn_scorings != total:
        code = 2
    for cube in range(3):
        pool = S_FOOD + cube
        held = 0
        for p in range(n):
            if cube == 0:
                held += st.hold[p, H_FOOD] + st.hold[p, H_MIL_FOOD]
            elif cube == 1:
                held += st.hold[p, H_MONEY] + st.hold[p, H_CON_MONEY]
            else:
                held += st.hold[p, H_FAVOUR] + st.hold[p, H_MIL_FAV] + st.hold[p, H_CON_FAV]
        if st.supply[pool] < 0 or held + st.supply[pool] != tt.supply[pool]:
            code = 3
    for pool in range(S_FIELD_FARM, S_PAINTING + 1):
        held = 0
        for p in range(n):
            if pool == S_FIELD_FARM:
                held += st.hold[p, 0] + st.hold[p, 1]
            elif pool == S_PALAZZO_BANK:
                held += st.hold[p, 2] + st.hold[p, H_BANK]
            elif pool == S_CATAPULT:
                held += st.hold[p, H_CATAPULT]
            elif pool == S_UNITS:
                held += st.hold[p, H_MILITIA] + st.hold[p, H_CONDOTTIERE]
            else:
                held += st.hold[p, H_MONUMENT + pool - S_MONUMENT]
        if st.supply[pool] < 0 or held + st.supply[pool] != tt.supply[pool]:
            code = 4
    for p in range(n):
        if (st.hold[p, H_FOOD] > food_cap(st, tt, p) or st.hold[p, H_MONEY] > money_cap(st, tt, p)
                or st.hold[p, H_FAVOUR] > tt.church_favour):
            code = 5
        for i in range(st.hold.shape[1]):
            if st.hold[p, i] < 0:
                code = 5
        if empty_militia(st, p) < 0 or empty_condottieri(st, p) < 0:
            code = 6
        if st.vp[p] != st.pts[p].sum():
            code = 7
    if code:
        st.violation = code
        st.violation_round = st.round_no


@kernel(inline=True)
def cards_distinct(st, tt):
    """No card is in two places at once among the hands and the display (INV-3)."""
    seen = st.moves                                         # scratch: no decision is open
    for c in range(tt.n_cards):
        seen[c] = 0
    for p in range(st.players):
        for h in range(2):
            if st.hand[p, h] >= 0:
                seen[st.hand[p, h]] += 1
    for s in range(tt.display_size):
        if st.display[s] >= 0:
            seen[st.display[s]] += 1
    for c in range(tt.n_cards):
        if seen[c] > 1:
            return False
    return True


# ---------------------------------------------------------------- the shared driver (simcore/driver.py)

driver.implement((PLAY_STATE, STATE), run_game=run_game, score_cut_off=score_position, tiebreak=tiebreak)


@kernel
def play_game(st, tt, players, policies, seed, index):
    """One whole game, with a search seat by the search's replays (driver.play_game)."""
    driver.play_game(st, tt, players, policies, seed, index)


@kernel
def play_batch_kernel(ws, tables, players, seat_policies, seed, first_index, out_pts, out_seat, out_game,
                      out_tiebreak, checking, out_check):
    """A batch without a search seat into the result arrays (driver.play_batch)."""
    driver.play_batch(ws, tables, players, seat_policies, seed, first_index, out_pts, out_seat, out_game,
                      out_tiebreak, checking, out_check)


@kernel
def step_kernel(ws, tables, players, policies, seed, index, command, out):
    """The step API's call into the game in ws[0] (driver.step; arrays, not records: numba
    types a record argument anew at every call, 50 us, an array of records from a cache)."""
    return driver.step(ws[0], tables[0], players, policies, seed, index, command, out)


@kernel
def search_batch_kernel(ws, tables, players, seat_policies, seed, first_index, out_pts, out_seat, out_game,
                        out_tiebreak, checking, out_check):
    """A batch with a search seat into the result arrays (driver.play_search_batch)."""
    driver.play_search_batch(ws, tables, players, seat_policies, seed, first_index, out_pts, out_seat, out_game,
                             out_tiebreak, checking, out_check)
