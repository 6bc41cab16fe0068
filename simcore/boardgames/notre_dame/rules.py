"""Notre Dame rules as small steps (docs/notre_dame.md): setup, counts, the legal options of
every decision point (ND-16) and the effects that need no decision.

Nothing here asks a player anything: playout.py walks through a game, fills the options of each
decision with the functions below, asks the seat's policy and applies the answer.
Options are written to st.opts; each generator returns how many there are.
"""
import numpy as np

from simcore.kernel import kernel
from simcore.rng import CHANCE, DECISION, seed_stream, shuffle
from simcore.boardgames.notre_dame.state import (
    BEGGAR_KING, BISHOP, CARPENTER, CITY_GUARD, CUBE, DRAFT_NONE, FORFEIT, GOLD, GUILD_MASTER, HOSPITAL, JESTER,
    JESTER_CONFIDANT, LADY, LAWYER, MAX_PLAYERS, MAYOR, MINSTREL, N_BUILDINGS, N_COLOURS, N_KINDS,
    NIGHT_WATCHMAN, NOWHERE, PARK, PASS, PERSONAL, PLAGUE_NET, PLAGUE_NET_NO_BACK, RAT, R_ALLOW_USELESS_BRIBE,
    R_CARRIAGE_MAY_STAY, R_CONFIDANT_MAY_STAY, R_GUARD_COUNTS_ND, R_OUTBREAK_AT, R_OUTBREAK_RESET_TO,
    R_PLAGUE_MODE, R_START_GOLD, R_VOLUNTARY_FORFEIT)

TOTAL_GOLD = 25                 # ND-0.6
CUBES_PER_COLOUR = 14           # ND-0.2
START_PERSONAL = 4              # ND-2.4(d)
RAT_MAX = 9                     # ND-0.6


# ---------------------------------------------------------------- counting (ND-0.5, ND-11)

@kernel
def count(st, p, b):
    """Cubes on building b plus 1 if the confidant stands there: every rule counts this (ND-0.5)."""
    return np.int32(st.cubes[p, b]) + (1 if st.conf[p] == b else 0)


@kernel
def park_bonus(st, p):
    """+1 VP per 2 on the Park with every VP gain (ND-11.1)."""
    return count(st, p, PARK) // 2


@kernel
def building_cubes(st, p):
    """Real cubes on p's 7 buildings."""
    total = 0
    for b in range(N_BUILDINGS):
        total += st.cubes[p, b]
    return total


@kernel
def buildings_with_count_at_least(st, p, k):
    n = 0
    for b in range(N_BUILDINGS):
        if count(st, p, b) >= k:
            n += 1
    return n


@kernel
def fullest_count(st, p):
    best = 0
    for b in range(N_BUILDINGS):
        best = max(best, count(st, p, b))
    return best


@kernel
def messages_held(st, p):
    total = 0
    for c in range(N_COLOURS):
        total += st.held[p, c]
    return total


# ---------------------------------------------------------------- setup (ND-2)

@kernel
def reset(st, tt, players, policies, seed, index):
    """A new game: streams from (seed, index), pieces, messages, decks and persons (ND-2)."""
    seed_stream(st.gen_chance, seed, index, CHANCE)
    seed_stream(st.gen_decide, seed, index, DECISION)
    st.players = players
    st.s0 = 0                  # seat 0 starts round 1 (ND-2.6): seats are places in the turn order
    st.round_no = 0
    st.start = 0
    start_gold = tt.rules[R_START_GOLD]
    st.G = TOTAL_GOLD
    for p in range(MAX_PLAYERS):
        st.policy[p] = policies[p] if p < players else 0
        st.conf[p] = NOWHERE
        st.nd[p] = 0
        st.vp[p] = 0
        st.rat[p] = 0
        st.bribed[p] = -1
        st.hand_n[p] = 0
        st.drawn[p] = 0
        st.draft_at[p] = DRAFT_NONE
        st.deck_pos[p] = 0
        for d in range(MAX_PLAYERS):
            st.seen[p, d] = 0
        for b in range(N_BUILDINGS):
            st.cubes[p, b] = 0
        for c in range(N_COLOURS):
            st.held[p, c] = 0
        for c in range(st.pts.shape[1]):
            st.pts[p, c] = 0
        for c in range(st.seat_count.shape[1]):
            st.seat_count[p, c] = 0
        st.personal[p] = START_PERSONAL if p < players else 0
        st.gsupply[p] = CUBES_PER_COLOUR - START_PERSONAL if p < players else 0
        st.gold[p] = start_gold if p < players else 0
        st.G -= st.gold[p]
        st.carriage[p] = tt.central_market[tt.seat_district[p]] if p < players else -1
    for c in range(st.game_count.shape[0]):
        st.game_count[c] = 0
    st.n_events = 0
    st.violation = 0
    st.violation_round = 0
    st.script_miss = 0
    place_messages(st, tt)
    for p in range(players):
        shuffle_deck(st, p)
    # grey deck: each letter group shuffled, A on top of B on top of C (ND-2.5, A-24)
    k = 0
    for letter in range(3):
        first = k
        for i in range(tt.person_letter.shape[0]):
            if tt.person_grey[i] and tt.person_letter[i] == letter:
                st.grey[k] = i
                k += 1
        shuffle(st.gen_chance, st.grey, first, k)
    shuffle_brown(st, tt)


@kernel
def place_messages(st, tt):
    """Each district's colour: its 4 tiles shuffled onto its 4 message markets (ND-2.4c, ND-2.2);
    in a 2-player game the neutral districts' only if the data file says so (A-23)."""
    for m in range(st.msg_at.shape[0]):
        st.msg_at[m] = -1
    for c in range(N_COLOURS):
        st.on_board[c] = 0
    st.n_colours = tt.districts
    tiles = np.empty(4, np.int8)
    for d in range(tt.districts):
        if not tt.district_messages[d]:
            continue
        for j in range(4):
            tiles[j] = tt.colour_tiles[j]
        shuffle(st.gen_chance, tiles, 0, 4)
        for j in range(4):
            st.msg_at[tt.message_markets[d, j]] = d * 4 + tiles[j]
        st.on_board[d] = 4


@kernel
def shuffle_deck(st, p):
    """A player's 9 action cards in a new random order for the stage (ND-5.6, ND-13.3); nobody has
    seen any of them yet."""
    for k in range(N_KINDS):
        st.deck[p, k] = k
    shuffle(st.gen_chance, st.deck[p], 0, N_KINDS)
    st.deck_pos[p] = 0
    for s in range(st.seen.shape[0]):
        st.seen[s, p] = 0


@kernel
def shuffle_brown(st, tt):
    k = 0
    for i in range(tt.person_grey.shape[0]):
        if not tt.person_grey[i]:
            st.brown[k] = i
            k += 1
    shuffle(st.gen_chance, st.brown, 0, 6)
    st.brown_shown = 0


@kernel
def kind_bit(kind):
    """A card kind's bit in a set of kinds (st.seen); int16 also as plain Python."""
    return np.int16(1) << np.int16(kind)


@kernel
def reveal_persons(st):
    """Round r of its stage shows brown cards 2j, 2j+1 and grey card r (ND-4)."""
    j = (st.round_no - 1) % 3
    st.face[0] = st.brown[2 * j]
    st.face[1] = st.brown[2 * j + 1]
    st.face[2] = st.grey[st.round_no - 1]
    st.brown_shown = 2 * j + 2


@kernel
def face_rats(st, tt):
    """R: the rats of the three face-up persons (ND-10.1)."""
    return np.int32(tt.person_rats[st.face[0]]) + tt.person_rats[st.face[1]] + tt.person_rats[st.face[2]]


# ---------------------------------------------------------------- plain gains (ND-0.6)

@kernel
def gain_gold_from_supply(st, p, x):
    """min(x, G) gold; returns the shortfall."""
    a = min(x, st.G)
    st.G -= a
    st.gold[p] += a
    return x - a


@kernel
def pay_gold(st, p, x):
    st.gold[p] -= x
    st.G += x


@kernel
def gain_cubes(st, p, x):
    """min(x, own cubes in the general supply) into the personal supply (ND-7.1, A-13)."""
    a = min(x, np.int32(st.gsupply[p]))
    st.gsupply[p] -= a
    st.personal[p] += a
    return a


@kernel
def rat_back(st, p, x):
    """The rat marker back x spaces, never below 0 (ND-0.6)."""
    st.rat[p] = max(0, st.rat[p] - x)


@kernel
def richest_opponents(st, p):
    """The opponents with the most gold (> 0), nearest clockwise first, into st.opts (ND-7.2)."""
    n = st.players
    best = 0
    for i in range(1, n):
        q = (p + i) % n
        best = max(best, st.gold[q])
    k = 0
    if best > 0:
        for i in range(1, n):
            q = (p + i) % n
            if st.gold[q] == best:
                st.opts[k] = q
                k += 1
    st.n_opts = k
    return k


# ---------------------------------------------------------------- messages (ND-7.4)

@kernel
def colour_allowed(st, p, c):
    """May p take a tile of colour c? Only if c is on the board and p holds no more of c than of
    any other colour still on the board (ND-7.4.1, A-10)."""
    if st.on_board[c] == 0:
        return False
    for d in range(st.n_colours):
        if d != c and st.on_board[d] > 0 and st.held[p, c] > st.held[p, d]:
            return False
    return True


@kernel
def message_takeable(st, p, m):
    tile = st.msg_at[m]
    return tile >= 0 and colour_allowed(st, p, tile // 4)


@kernel
def carriage_destinations(st, tt, p, k):
    """DP-7: the markets at most k street steps from p's carriage (ND-7.4, A-9)."""
    here = st.carriage[p]
    stay = tt.rules[R_CARRIAGE_MAY_STAY] != 0
    n = 0
    for m in range(tt.n_markets):
        d = tt.distance[here, m]
        if 0 <= d <= k and (stay or m != here):
            st.opts[n] = m
            n += 1
    st.n_opts = n
    return n


# ---------------------------------------------------------------- option generators (ND-16)

@kernel
def may_forfeit(tt):
    """F_VOLUNTARY_FORFEIT: a card may always be played without effect (A-14)."""
    return tt.rules[R_VOLUNTARY_FORFEIT] != 0


@kernel
def hand_options(st, p):
    """DP-1..DP-3: the distinct kinds in p's hand (cards of one kind are equivalent)."""
    n = 0
    for i in range(st.hand_n[p]):
        kind = st.hand[p, i]
        seen = False
        for j in range(n):
            if st.opts[j] == kind:
                seen = True
        if not seen:
            st.opts[n] = kind
            n += 1
    st.n_opts = n
    return n


@kernel
def cube_sources(st, tt, p, target, may_forfeit):
    """DP-4: where the cube for `target` comes from (ND-6.3, ND-6.5, A-14): the personal supply
    while it has one (placing is then mandatory), else one of p's other buildings holding a real
    cube; FORFEIT too when may_forfeit."""
    n = 0
    if may_forfeit:
        st.opts[0] = FORFEIT
        n = 1
    if st.personal[p] >= 1:
        st.opts[n] = PERSONAL
        n += 1
    else:
        for b in range(N_BUILDINGS):
            if b != target and st.cubes[p, b] >= 1:
                st.opts[n] = b
                n += 1
    st.n_opts = n
    return n


@kernel
def cube_available(st, p):
    """A cube for Notre Dame or a building: personal supply, or any building to relocate from."""
    return st.personal[p] >= 1 or building_cubes(st, p) >= 1


@kernel
def confidant_targets(st, tt, p):
    """DP-5: any of the 7 buildings; its current one only if F_CONFIDANT_MAY_STAY (A-8);
    FORFEIT too under F_VOLUNTARY_FORFEIT (A-14)."""
    stay = tt.rules[R_CONFIDANT_MAY_STAY] != 0
    n = 0
    if may_forfeit(tt):
        st.opts[0] = FORFEIT
        n = 1
    for b in range(N_BUILDINGS):
        if stay or st.conf[p] != b:
            st.opts[n] = b
            n += 1
    st.n_opts = n
    return n


@kernel
def donation_options(st, p):
    """DP-6: donate d <= min(3, gold) gold; d >= 1 needs a cube (ND-8.1, A-22)."""
    top = min(3, st.gold[p]) if cube_available(st, p) else 0
    for d in range(top + 1):
        st.opts[d] = d
    st.n_opts = top + 1
    return top + 1


@kernel
def guest_options(st, k):
    """DP-9: one of GOLD, CUBE, RAT for k <= 3; two (a multiset, a * 3 + b, a <= b) for k >= 4."""
    n = 0
    if k <= 3:
        for a in range(3):
            st.opts[n] = a
            n += 1
    else:
        for a in range(3):
            for b in range(a, 3):
                st.opts[n] = a * 3 + b
                n += 1
    st.n_opts = n
    return n


@kernel
def small_choice_options(st):
    """DP-12: GOLD, CUBE or RAT."""
    st.opts[0] = GOLD
    st.opts[1] = CUBE
    st.opts[2] = RAT
    st.n_opts = 3
    return 3


@kernel
def take_options(st):
    """DP-8: leave (0) or take (1) the tile."""
    st.opts[0] = 0
    st.opts[1] = 1
    st.n_opts = 2
    return 2


@kernel
def empty_buildings(st, p):
    """DP-13: buildings with count 0 (the confidant makes a building non-empty, A-16)."""
    n = 0
    for b in range(N_BUILDINGS):
        if count(st, p, b) == 0:
            st.opts[n] = b
            n += 1
    st.n_opts = n
    return n


@kernel
def minstrel_moves(st, p):
    """DP-14: (src, dst, x cubes, y confidant) with 1 <= x + y <= 3, src != dst, buildings only
    (ND-15.3, A-20). Encoded src * 64 + dst * 8 + x * 2 + y."""
    n = 0
    for src in range(N_BUILDINGS):
        cubes = np.int32(st.cubes[p, src])
        has_conf = 1 if st.conf[p] == src else 0
        if cubes + has_conf == 0:
            continue
        for dst in range(N_BUILDINGS):
            if dst == src:
                continue
            for y in range(has_conf + 1):
                for x in range(min(cubes, 3 - y) + 1):
                    if x + y >= 1:
                        st.opts[n] = src * 64 + dst * 8 + x * 2 + y
                        n += 1
    st.n_opts = n
    return n


@kernel
def jester_moves(st, p):
    """DP-15: (piece, dst): a cube of building 0..6, the confidant (7) or a Notre Dame cube (8),
    to another of the 7 buildings (ND-15.4, A-20). Encoded piece * 8 + dst."""
    n = 0
    for piece in range(N_BUILDINGS + 2):
        if piece < N_BUILDINGS:
            if st.cubes[p, piece] == 0:
                continue
            src = piece
        elif piece == JESTER_CONFIDANT:
            if st.conf[p] == NOWHERE:
                continue
            src = st.conf[p]
        else:
            if st.nd[p] == 0:
                continue
            src = -1
        for dst in range(N_BUILDINGS):
            if dst != src:
                st.opts[n] = piece * 8 + dst
                n += 1
    st.n_opts = n
    return n


@kernel
def outbreak_candidates(st, p):
    """DP-16: buildings of the highest count that hold a real cube (ND-10.3, A-6)."""
    top = fullest_count(st, p)
    n = 0
    for b in range(N_BUILDINGS):
        if count(st, p, b) == top and st.cubes[p, b] >= 1:
            st.opts[n] = b
            n += 1
    st.n_opts = n
    return n


@kernel
def person_vp(st, tt, p, effect):
    """VP a grey person gives p now, before the Park bonus (ND-15.2); 0 for the others."""
    if effect == CITY_GUARD:
        total = building_cubes(st, p) + (1 if st.conf[p] != NOWHERE else 0)
        if tt.rules[R_GUARD_COUNTS_ND]:
            total += st.nd[p]                # Notre Dame cubes are on the board
        return total
    if effect == NIGHT_WATCHMAN:
        return N_BUILDINGS - buildings_with_count_at_least(st, p, 1)
    if effect == GUILD_MASTER:
        return 2 * buildings_with_count_at_least(st, p, 2)
    if effect == BEGGAR_KING:
        return RAT_MAX - st.rat[p]
    if effect == LAWYER:
        return 3 * (messages_held(st, p) // 2)
    if effect == LADY:
        return fullest_count(st, p)
    if effect == MAYOR:
        return 3 * buildings_with_count_at_least(st, p, 3)
    if effect == CARPENTER:
        return buildings_with_count_at_least(st, p, 1)
    return 0


@kernel
def bribe_useless(st, tt, p, effect):
    """Would bribing this person change nothing for p? (ND-9.5; such bribes are pruned only when
    F_ALLOW_USELESS_BRIBE is false.) The Doctor always counts as useful."""
    if effect == MINSTREL:
        return building_cubes(st, p) == 0 and st.conf[p] == NOWHERE
    if effect == JESTER:
        return building_cubes(st, p) == 0 and st.conf[p] == NOWHERE and st.nd[p] == 0
    if effect == BISHOP:
        return st.gsupply[p] == 0 or buildings_with_count_at_least(st, p, 1) == N_BUILDINGS
    if effect >= CITY_GUARD:
        return person_vp(st, tt, p, effect) == 0
    return False


@kernel
def bribe_options(st, tt, p):
    """DP-11: PASS, or one of the 3 face-up persons if p has gold (ND-9.1)."""
    st.opts[0] = PASS
    n = 1
    if st.gold[p] >= 1:
        prune = tt.rules[R_ALLOW_USELESS_BRIBE] == 0
        for i in range(3):
            person = st.face[i]
            if prune and bribe_useless(st, tt, p, tt.person_effect[person]):
                continue
            st.opts[n] = person
            n += 1
    st.n_opts = n
    return n


# ---------------------------------------------------------------- the plague (ND-10)

@kernel
def plague_move(st, tt, p, rats):
    """p's new rat position after the plague and whether an outbreak happens (ND-10.2, A-3, A-4).

    rats: R_p, the rats that reach p this round (0 with the Doctor)."""
    h = count(st, p, HOSPITAL)
    at = tt.rules[R_OUTBREAK_AT]
    reset_to = tt.rules[R_OUTBREAK_RESET_TO]
    mode = tt.rules[R_PLAGUE_MODE]
    if mode == PLAGUE_NET:
        x = st.rat[p] + rats - h
    elif mode == PLAGUE_NET_NO_BACK:
        x = st.rat[p] + max(0, rats - h)
    else:                                    # SEQUENTIAL: the rats arrive, then the hospital helps
        x = st.rat[p] + rats
        if x >= at:
            return max(0, reset_to - h), True
        return max(0, x - h), False
    if x >= at:
        return reset_to, True
    return max(0, x), False

