"""One whole Strasbourg game (SB-3 … SB-12), and the batch kernel.

Wherever a player decides (SB-15), rules.py writes the options into st.opts and `decide`
returns the chosen option's value: a scripted value first (tests drive games this way), else the
seat's policy. A decision with one legal option is not asked.

With a search seat (mcts, flatmc) a game is played by replaying it (play_searched,
simcore/search.py): `decide` then takes the decisions so far from the search's history, and at a
search's root redraws what the searching seat cannot see (policies.determinize).
"""


from simcore.kernel import kernel
from simcore import driver
from simcore.turns import halt_here, log_event
from simcore.boardgames.strasbourg.policies import choose, determinize, plan_bundles
from simcore.boardgames.strasbourg.rules import (
    box_bundle, bid_options, buy, buy_options, chapel_options, discard_unused, draw_card, draw_options,
    entitled_ranks, form_bundles, keep_tasks, rank_bids, reset, return_options, reveal, sale_options, site_options,
    take_seat)
from simcore.boardgames.strasbourg.scoring import council_phase, final_scoring, tiebreak
from simcore.boardgames.strasbourg.state import (
    PLAY_STATE, STATE,
    CHURCH, D_APPRENTICE, D_BID, D_BUILD, D_CHAPEL, D_DRAW, D_MASTER_BUY, D_RETURN, D_SELL,
    D_MASTER_PART, D_TASKS, DRAW, R_MASTER_PARTS_OPTIONAL, EV_BID, EV_BUILD, EV_BUNDLE, EV_BUY, EV_CHAPEL, EV_COUNCIL, EV_GOODS, EV_PLAN,
    EV_PRIVILEGE, EV_RETURN, EV_ROUND, EV_SEAT, EV_SELL, EV_SUBPHASE, EV_TASKS, EV_WINNER, GC_FINAL_START, GC_START, GOODS, GUILD, GUILD_SLOT, MAX_QUEUE, MERCH_G,
    MERCHANTS, N_GUILDS, NC, NO_BUY, NOBILITY, PASS, PRIVILEGE, ROUNDS, SC_COINS_END,
    SC_PRIVILEGES_SPENT, SC_RETURNED, SUBPHASE_TYPE)


decide = driver.decider(choose, determinize)   # decide(st, tt, p, dp, ctx): simcore/driver.py


# ---------------------------------------------------------------- setup and planning (SB-3.6, SB-5)

@kernel(inline=True)
def choose_tasks(st, tt):
    """D-1: each player keeps a non-empty subset of the 5 dealt task cards (a bit mask 1..31)."""
    for p in range(st.players):
        for m in range(31):
            st.opts[m] = m + 1
        st.n_opts = 31
        mask = decide(st, tt, p, D_TASKS, 0)
        keep_tasks(st, p, mask)
        log_event(st, EV_TASKS, p, mask, 0, 0)


@kernel(inline=True)
def plan(st, tt, p):
    """Draw the first card, then more until STOP (D-2); split them into bundles (D-3)."""
    st.hand_n[p] = 0
    draw_card(st, p)
    while draw_options(st, p) == 2 and decide(st, tt, p, D_DRAW, st.hand_n[p]) == DRAW:
        draw_card(st, p)
    plan_bundles(st, tt, p)
    form_bundles(st, p)
    log_event(st, EV_PLAN, p, st.hand_n[p], st.n_bundles[p], st.deck_n[p])
    for b in range(st.n_bundles[p]):
        log_event(st, EV_BUNDLE, p, b, st.bundle_key[p, b], st.bundle_sum[p, b])


# ---------------------------------------------------------------- a bidding sub-phase (SB-7 … SB-9)

@kernel(inline=True)
def collect_bids(st, tt, sp0):
    """The decision queue from sp0: reveal a bundle, pass, or spend a privilege to wait at the
    back (SB-7.1-7.5)."""
    n = st.players
    queue = st.queue
    head = 0
    tail = 0
    for i in range(n):
        queue[tail % MAX_QUEUE] = (sp0 + i) % n
        tail += 1
        st.bid[(sp0 + i) % n] = -1
        st.bid_bundle[(sp0 + i) % n] = -1
    while head < tail:
        p = queue[head % MAX_QUEUE]
        head += 1
        bid_options(st, tt, p, tail - head)
        choice = decide(st, tt, p, D_BID, st.subphase)
        if choice == PRIVILEGE:
            log_event(st, EV_PRIVILEGE, p, 0, 0, 0)
            st.privileges[p] -= 1
            st.seat_count[p, SC_PRIVILEGES_SPENT] += 1
            queue[tail % MAX_QUEUE] = p
            tail += 1
        elif choice != PASS:
            reveal(st, p, choice)
            log_event(st, EV_BID, p, choice, st.bid[p], 0)
        else:
            log_event(st, EV_BID, p, -1, 0, 0)


@kernel
def master_part(st, tt, p, g):
    """The Master's seat and the goods tile are automatic, or each a choice under
    MASTER_PARTS_OPTIONAL (AMB-05)."""
    if not tt.rules[R_MASTER_PARTS_OPTIONAL]:
        return True
    st.opts[0] = 0
    st.opts[1] = 1
    st.n_opts = 2
    return decide(st, tt, p, D_MASTER_PART, g) == 1


@kernel(inline=True)
def guild_action(st, tt, p, g, role):
    """Master (0), Journeyman (1) or Apprentice (2) of guild g (SB-8.2, AMB-05, AMB-06)."""
    if role == 0 and master_part(st, tt, p, g):
        take_seat(st, tt, p, 2 + g)
        log_event(st, EV_SEAT, p, 2 + g, 0, 0)
    if role <= 1:
        if master_part(st, tt, p, g):
            st.goods[p, g] += 1
            log_event(st, EV_GOODS, p, g, role, 0)
        buy_options(st, tt, p, g, NO_BUY)
        c = decide(st, tt, p, D_MASTER_BUY, g)
        if c != NO_BUY:
            buy(st, tt, p, c)
            log_event(st, EV_BUY, p, c, tt.price[c], role)
        return
    buy_options(st, tt, p, g, GOODS)
    c = decide(st, tt, p, D_APPRENTICE, g)
    if c == GOODS:
        st.goods[p, g] += 1
        log_event(st, EV_GOODS, p, g, role, 0)
    else:
        buy(st, tt, p, c)
        log_event(st, EV_BUY, p, c, tt.price[c], role)


@kernel(inline=True)
def merchant_action(st, tt, p, with_seat):
    """Sell any goods for their values; in G also take the MERCHANTS seat (SB-8.3, AMB-22)."""
    for g in range(N_GUILDS):
        if st.goods[p, g] > 0:
            sale_options(st, p, g)
            k = decide(st, tt, p, D_SELL, g)
            st.goods[p, g] -= k
            st.coins[p] += k * tt.goods_value[g]
            if k > 0:
                log_event(st, EV_SELL, p, g, k, k * tt.goods_value[g])
    if with_seat:
        take_seat(st, tt, p, MERCHANTS)
        log_event(st, EV_SEAT, p, MERCHANTS, 0, 0)


@kernel(inline=True)
def bidding_subphase(st, tt):
    """Sub-phases A-G: bids, ranks, the new start player, actions in rank order, then the
    revealed cards leave the game but for one card a non-entitled revealer returns (SB-7 … SB-9)."""
    n = st.players
    sp0 = st.sp
    kind = SUBPHASE_TYPE[st.subphase]
    log_event(st, EV_SUBPHASE, sp0, st.subphase, 0, 0)
    collect_bids(st, tt, sp0)
    ranked = st.ranked
    k = rank_bids(st, sp0, ranked)
    if k > 0:
        st.sp = ranked[0]                                   # SB-7.7
        log_event(st, EV_WINNER, st.sp, st.bid[st.sp], k, 0)
    entitled = min(k, entitled_ranks(0 if kind == NC else (1 if kind == GUILD else 2), n))
    for i in range(entitled):
        p = ranked[i]
        if kind == NC:
            take_seat(st, tt, p, NOBILITY if i == 0 else CHURCH)
            log_event(st, EV_SEAT, p, NOBILITY if i == 0 else CHURCH, 0, 0)
        elif kind == GUILD:
            g = tt.card_guilds[st.round_card[st.round_no - 1], GUILD_SLOT[st.subphase]]
            role = i if n >= 4 else 2 * i                   # 3 players: no Journeyman
            guild_action(st, tt, p, g, role)
        else:
            merchant_action(st, tt, p, kind == MERCH_G)
    for i in range(k):
        p = ranked[i]
        b = st.bid_bundle[p]
        back = 0
        if i >= entitled:
            return_options(st, tt, p, b)
            back = decide(st, tt, p, D_RETURN, b)
            st.seat_count[p, SC_RETURNED] += 1
            log_event(st, EV_RETURN, p, back, 0, 0)
        box_bundle(st, p, b, back)


# ---------------------------------------------------------------- invariants (issue 4 Tests)

VIOLATIONS = {       # check()'s codes: what broke (simcore check names them)
    1: "a player's influence cards are not each in the deck, an open bundle or the box",
    2: "a player's coins are below 0",
    3: "a council seat or city space has a bad owner (or nobility or church is empty)",
    4: "VP differ from the sum of the score categories",
    5: "goods or privileges below 0",
}


@kernel
def check(st, tt):
    """With st.checking on, record the first broken invariant and its round: 1 a player's cards
    not in exactly one of deck / hand / box, 2 coins below 0, 3 a council seat or city space with a
    bad owner (or NOBILITY / CHURCH empty), 4 VP != the sum of the categories, 5 goods or
    privileges below 0."""
    if not st.checking or st.violation:
        return
    code = 0
    for p in range(st.players):
        in_hand = 0
        for b in range(st.n_bundles[p]):
            if st.bundle_open[p, b]:
                in_hand += st.bundle_size[p, b]
        if st.deck_n[p] + in_hand + st.boxed[p] != tt.n_cards or st.deck_n[p] < 0:
            code = 1
        if st.coins[p] < 0:
            code = 2
        if st.vp[p] != st.pts[p].sum():
            code = 4
        if st.privileges[p] < 0:
            code = 5
        for g in range(N_GUILDS):
            if st.goods[p, g] < 0:
                code = 5
    for s in range(st.seat_owner.shape[0]):
        if st.seat_owner[s] < -1 or st.seat_owner[s] >= st.players:
            code = 3
    if st.seat_owner[NOBILITY] < 0 or st.seat_owner[CHURCH] < 0:      # occupied from setup on (SB-10.1)
        code = 3
    for c in range(st.cell_owner.shape[0]):
        if st.cell_owner[c] >= st.players or (st.cell_owner[c] >= 0 and tt.cell_guild[c] < 0):
            code = 3
    if code:
        st.violation = code
        st.violation_round = st.round_no


# ---------------------------------------------------------------- construction, round, game

@kernel(inline=True)
def build_chapel(st, tt):
    """H: the CHURCH holder puts a chapel on an empty spot (SB-10.1)."""
    p = st.seat_owner[CHURCH]
    if chapel_options(st, tt) > 0:
        k = decide(st, tt, p, D_CHAPEL, 0)
        st.chapel[k] = 1
        log_event(st, EV_CHAPEL, p, k, 0, 0)


@kernel(inline=True)
def build_building(st, tt):
    """I: the NOBILITY holder builds this round's building on an empty site (SB-10.2)."""
    p = st.seat_owner[NOBILITY]
    if site_options(st, tt) > 0:
        c = decide(st, tt, p, D_BUILD, 0)
        st.site_building[c] = st.round_building[st.round_no - 1]
        log_event(st, EV_BUILD, p, c, st.site_building[c], 0)


@kernel(inline=True)
def play_round(st, tt):
    n = st.players
    log_event(st, EV_ROUND, st.sp, st.round_card[st.round_no - 1], st.round_building[st.round_no - 1], 0)
    for i in range(n):                                      # SB-5.1: in seat order from the SP
        plan(st, tt, (st.sp + i) % n)
    for s in range(7):
        st.subphase = s
        bidding_subphase(st, tt)
        check(st, tt)
    st.subphase = 7
    build_chapel(st, tt)
    st.subphase = 8
    build_building(st, tt)
    for p in range(n):
        discard_unused(st, p)
    council_phase(st)
    for p in range(n):
        log_event(st, EV_COUNCIL, p, st.privileges[p], st.coins[p], 0)
    check(st, tt)


@kernel
def run_game(st, tt, players, policies, seed, index):
    """Play game `index` of `seed` to the end (SB-3 … SB-12), or on from the round a search
    restored (driver.resumed); with st.halt_at, stop after that many rounds."""
    if not driver.resumed(st):
        reset(st, tt, players, policies, seed, index)
        st.game_count[GC_START] = st.sp
        choose_tasks(st, tt)
        st.round_no = 1
    while True:
        driver.checkpoint(st)
        play_round(st, tt)
        if halt_here(st, st.round_no):
            return
        if st.round_no == ROUNDS:
            break
        st.round_no += 1
    final_scoring(st, tt)
    check(st, tt)
    st.game_count[GC_FINAL_START] = st.sp
    for p in range(players):
        st.seat_count[p, SC_COINS_END] = st.coins[p]



# ---------------------------------------------------------------- the shared driver (simcore/driver.py)

driver.implement((PLAY_STATE, STATE), run_game=run_game, score_cut_off=final_scoring, tiebreak=tiebreak)


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
