"""Notre Dame players (policies). Each reads only what its own seat may know (ND-17): the public
board, gold, rats, persons, its own hand; never another player's hand or a deck order.

random — every decision uniform over its legal options as docs/notre_dame.md §16 lists them
  (playout.decide asks only when there are two or more). Multi-step choices are drawn as the
  decision points define them: a carriage move is a destination market, uniform over the markets
  within reach (not over walks), then take/leave uniform when the tile there may be taken; a
  Minstrel move is uniform over all (from, to, cubes, confidant) moves; a Jester move uniform
  over all (piece, destination) pairs, then the destination's own decisions; a Guest house with
  4+ is uniform over the 6 pairs.

greedy — a one-step heuristic: every option is valued in VP-equivalents, what it gives now plus
  what the extra cube on a building is worth in the rounds left, and the best is taken (the first
  on a tie). Gold and cubes are worth about a VP early and less later; moving the rat marker back
  is worth much when this round's rats (public: the three face-up persons) would cause an
  outbreak. It plays the card of highest value, keeps the best card in the draft, relocates or
  forfeits by the same values, donates when the points beat the gold, bribes when a person is
  worth more than its gold, and drives to the best message it may take. Its weights (WEIGHTS,
  `greedy:residence=2`) scale a building's piece, an outbreak, a donation, a person.
"""
import numpy as np

from simcore.contract import Param
from simcore.kernel import kernel
from simcore.search import greedy_weight, is_greedy, plays_default_weights, weight_defaults
from simcore.rng import below, shuffle
from simcore.boardgames.notre_dame.rules import (
    building_cubes, count, face_rats, kind_bit, message_takeable, park_bonus, person_vp)
from simcore.boardgames.notre_dame.scoring import cubes_on_notre_dame
from simcore.boardgames.notre_dame.state import (
    BANK, BISHOP, CARRIAGE_HOUSE, CLOISTER_SCHOOL, CUBE, DOCTOR, DP_BANK_VICTIM, DP_BISHOP_TARGET,
    DP_BRIBE, DP_CARRIAGE_DEST, DP_CONFIDANT_TARGET, DP_CUBE_SOURCE, DP_DONATION, DP_DRAFT_KEEP1,
    DP_DRAFT_KEEP2, DP_GUEST_CHOICE, DP_HOUSEKEEPER_CHOICE, DP_JESTER_MOVE, DP_MINSTREL_MOVE,
    DP_OUTBREAK_LOSS, DP_PLAY_CARD, DP_TAKE_MESSAGE,
    DRAFT_DREW, DRAFT_HANDED, DRAFT_PASSED, DRAFT_SHOWN, DRAFT_TOOK,
    FORFEIT, GOLD, GUEST_HOUSE, HOSPITAL, HOUSEKEEPER, JESTER, JESTER_CONFIDANT, MAX_PLAYERS, MINSTREL,
    MONEYLENDER, MONK, N_BUILDINGS, N_KINDS, NOTRE_DAME, PARK, PASS, PERSONAL,
    RESIDENCE, ROUNDS, R_CARRIAGE_MAY_STAY, R_OUTBREAK_AT)

RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}

VP_EVENTS_PER_ROUND = 2.5       # how often a Park bonus is paid, roughly

# greedy's weights (`greedy:NAME=X`), in the order its kernels read them (W_*): a factor per
# building on what one more piece there is worth in the rounds left (in building order, so that
# building b's factor is weight b), the cost of an outbreak, and factors on what a donation earns
# and what a bribed person gives. The defaults are the heuristic's own values.
WEIGHTS = (
    Param("cloister_school", float, 1.0, 0.0, 10.0, "factor on one more piece on the Cloister school "
          "(the cubes it brings each time it acts again)"),
    Param("bank", float, 1.0, 0.0, 10.0, "factor on one more piece on the Bank (the gold it brings each "
          "time it acts again)"),
    Param("residence", float, 1.0, 0.0, 10.0, "factor on one more piece on the Residence (the VP it brings "
          "each time it acts again)"),
    Param("carriage_house", float, 1.0, 0.0, 10.0, "factor on one more piece on the Carriage house (a longer "
          "drive to the messages)"),
    Param("guest_house", float, 1.0, 0.0, 10.0, "factor on one more piece on the Guest house (its gold, cube "
          "or rat back; two of them from the fourth piece)"),
    Param("park", float, 1.0, 0.0, 10.0, "factor on one more piece on the Park (the bonus VP on every VP "
          "gain, one more for each second piece)"),
    Param("hospital", float, 1.0, 0.0, 10.0, "factor on one more piece on the Hospital (one rat less in every "
          "plague left)"),
    Param("outbreak", float, 4.0, 0.0, 20.0, "what an outbreak costs in VP-equivalents (2 VP and a cube off a "
          "building): how hard greedy keeps its rat marker back"),
    Param("donation", float, 1.0, 0.0, 10.0, "factor on what a donation to Notre Dame earns (its VP and a "
          "share of the stage's payout)"),
    Param("persons", float, 1.0, 0.0, 10.0, "factor on what a bribed person gives (a bribe is taken when it "
          "is worth more than its gold)"),
)
(W_CLOISTER_SCHOOL, W_BANK, W_RESIDENCE, W_CARRIAGE_HOUSE, W_GUEST_HOUSE, W_PARK, W_HOSPITAL,
 W_OUTBREAK, W_DONATION, W_PERSONS) = range(len(WEIGHTS))
assert (W_CLOISTER_SCHOOL, W_BANK, W_RESIDENCE, W_CARRIAGE_HOUSE, W_GUEST_HOUSE, W_PARK, W_HOSPITAL) == \
    (CLOISTER_SCHOOL, BANK, RESIDENCE, CARRIAGE_HOUSE, GUEST_HOUSE, PARK, HOSPITAL)
DEFAULT_WEIGHTS = weight_defaults(WEIGHTS)
assert (DEFAULT_WEIGHTS[:N_BUILDINGS] == 1.0).all()      # later_value's own greedy reads no factor


@kernel(inline=True)
def choose(st, tt, p, dp, ctx):
    """The index of the option seat p takes among st.opts[:st.n_opts]."""
    if is_greedy(tt, st.policy[p]):
        return greedy_choice(st, tt, p, dp, ctx)
    return below(st.gen_decide, st.n_opts)


@kernel(inline=True)
def weight(st, tt, p, w):
    """Weight w (W_*) of the greedy seat p plays (the game's own greedy: the defaults)."""
    return greedy_weight(tt, st.policy[p], w, DEFAULT_WEIGHTS)


# ---------------------------------------------------------------- values in VP-equivalents

@kernel
def rounds_left(st):
    """Rounds after this one, plus a half for what is left of this one."""
    return ROUNDS - st.round_no + 0.5


@kernel
def gold_value(st):
    return 0.5 + 0.1 * rounds_left(st)


@kernel
def cube_value(st, p):
    """A cube in the personal supply; more while the supply is nearly empty (cards without a cube
    are lost)."""
    if st.gsupply[p] + st.personal[p] == 0:
        return 0.0
    return 0.2 + 0.1 * rounds_left(st) + (0.8 if st.personal[p] <= 1 else 0.0)


@kernel
def mean_round_rats(tt):
    """The rats an average round shows: 3 times the mean of the cards (the composition is public)."""
    total = 0
    for i in range(tt.person_rats.shape[0]):
        total += tt.person_rats[i]
    return 3.0 * total / tt.person_rats.shape[0]


@kernel
def plague_cost(st, tt, p, rat, hospital, rats_now):
    """VP-equivalents the plague is expected to cost p from here on, with the marker on `rat` and
    `hospital` on the Hospital: this round's public rats, then average rounds; past 9 an outbreak
    (counted fractionally, so that every step back is worth something) and the marker stays on 9."""
    at = tt.rules[R_OUTBREAK_AT]
    r = float(rat)
    outbreaks = 0.0
    later = mean_round_rats(tt)
    for i in range(ROUNDS - st.round_no + 1):
        r += (rats_now if i == 0 else later) - hospital
        if r > at - 1:
            outbreaks += min(1.0, r - (at - 1))
            r = at - 1.0
        r = max(0.0, r)
    return weight(st, tt, p, W_OUTBREAK) * outbreaks


@kernel
def rat_point(st, tt, p):
    """A rat less in the long run: at the top of the track every round with rats to spare is an
    outbreak, so an average round's rats are worth one outbreak."""
    return weight(st, tt, p, W_OUTBREAK) / max(1.0, mean_round_rats(tt))


@kernel
def rat_step_value(st, tt, p):
    """Moving the rat marker back one space now: the outbreak it avoids, at least a rat's worth."""
    if st.rat[p] == 0:
        return 0.0
    h = count(st, p, HOSPITAL)
    rats = face_rats(st, tt)
    avoided = plague_cost(st, tt, p, st.rat[p], h, rats) - plague_cost(st, tt, p, st.rat[p] - 1, h, rats)
    return max(avoided, rat_point(st, tt, p))


@kernel
def hospital_value(st, tt, p, h):
    """One more on the Hospital (now at h): one rat less in every plague left, while the rats
    outrun the Hospital."""
    rats = face_rats(st, tt)
    avoided = plague_cost(st, tt, p, st.rat[p], h, rats) - plague_cost(st, tt, p, st.rat[p], h + 1, rats)
    pressure = min(1.0, max(0.0, mean_round_rats(tt) - h) / 2.0)
    return max(avoided, pressure * rat_point(st, tt, p) * rounds_left(st))


@kernel
def small_value(st, tt, p, what):
    if what == GOLD:
        return gold_value(st) if st.G > 0 else 0.0
    if what == CUBE:
        return cube_value(st, p) if st.gsupply[p] > 0 else 0.0
    return rat_step_value(st, tt, p)


@kernel
def vp_value(st, p, v):
    """v VP as a gain event: the Park bonus comes with it."""
    return v + park_bonus(st, p) if v >= 1 else 0.0


@kernel
def later_value(st, tt, p, b, c):
    """What one more piece on building b (now at count c) is worth in the rounds left: its value at
    factor 1 by greedy's factor for b (weight b)."""
    value = piece_value(st, tt, p, b, c)
    # at the defaults every building's factor is 1: greedy values a piece a few thousand times a
    # game, more often than anything else it weighs, and reading the factor cost it about 7%
    return value if plays_default_weights(st.policy[p]) else value * weight(st, tt, p, b)


@kernel(inline=True)
def piece_value(st, tt, p, b, c):
    """One more piece on building b (now at count c) in the rounds left, in VP-equivalents: the
    times the building will act again at what an action gives, the Park by its bonus on the VP
    gains to come, the Hospital by the plague it avoids."""
    left = rounds_left(st)
    if b == RESIDENCE:
        return 0.45 * left
    if b == CLOISTER_SCHOOL:
        return 0.35 * left * cube_value(st, p)
    if b == BANK:
        return 0.35 * left * gold_value(st)
    if b == CARRIAGE_HOUSE:
        return 0.15 * left
    if b == GUEST_HOUSE:
        return 0.15 * left + (0.3 * left if c + 1 == 4 else 0.0)
    if b == PARK:
        return ((c + 1) // 2 - c // 2) * VP_EVENTS_PER_ROUND * left
    return hospital_value(st, tt, p, c)


@kernel
def message_value(st, tt, p, m):
    tile = st.msg_at[m]
    if tile < 0 or not message_takeable(st, p, m):
        return 0.0
    kind = tile % 4
    return (vp_value(st, p, tt.message_vp[kind]) + tt.message_gold[kind] * gold_value(st)
            + tt.message_cubes[kind] * cube_value(st, p) + tt.message_rat_back[kind] * rat_step_value(st, tt, p))


@kernel
def best_message_within(st, tt, p, k):
    best = 0.0
    here = st.carriage[p]
    stay = tt.rules[R_CARRIAGE_MAY_STAY] != 0
    for m in range(tt.n_markets):
        d = tt.distance[here, m]
        if 0 <= d <= k and (stay or m != here):
            best = max(best, message_value(st, tt, p, m))
    return best


@kernel
def action_value(st, tt, p, b, k):
    """What building b's action with count k gives now (ND-7)."""
    if b == CLOISTER_SCHOOL:
        return min(k, np.int32(st.gsupply[p])) * cube_value(st, p)
    if b == BANK:
        return k * gold_value(st)
    if b == RESIDENCE:
        return vp_value(st, p, k)
    if b == CARRIAGE_HOUSE:
        return best_message_within(st, tt, p, k)
    if b == GUEST_HOUSE:
        g = small_value(st, tt, p, GOLD)
        c = small_value(st, tt, p, CUBE)
        r = rat_step_value(st, tt, p)
        best = max(g, max(c, r))
        if k <= 3:
            return best
        return best + max(g, max(c, 0.5 * r))
    return rat_step_value(st, tt, p)                 # PARK, HOSPITAL


@kernel
def loss_value(st, tt, p, b):
    """What taking one real cube off building b costs."""
    return later_value(st, tt, p, b, count(st, p, b) - 1)


@kernel
def cheapest_source(st, tt, p, target):
    """The building whose cube is cheapest to move elsewhere; -1 if none."""
    best = -1
    cost = 1e9
    for b in range(N_BUILDINGS):
        if b != target and st.cubes[p, b] >= 1:
            c = loss_value(st, tt, p, b)
            if c < cost:
                cost = c
                best = b
    return best


@kernel
def cube_cost(st, tt, p, target):
    """The cost of the cube a card puts on target; a large number if there is none."""
    if st.personal[p] >= 1:
        return cube_value(st, p)
    src = cheapest_source(st, tt, p, target)
    if src < 0:
        return 1e9
    return loss_value(st, tt, p, src)


@kernel
def donation_value(st, tt, p, d):
    if d == 0:
        return 0.0
    payout = tt.payout / (cubes_on_notre_dame(st) + 2.0)     # a share of this stage's payout
    earned = (vp_value(st, p, tt.donation_vp[d]) + payout) * weight(st, tt, p, W_DONATION)
    return earned - d * gold_value(st) - cube_cost(st, tt, p, NOTRE_DAME)


@kernel
def best_donation(st, tt, p):
    best = 0.0
    for d in range(1, min(3, st.gold[p]) + 1):
        best = max(best, donation_value(st, tt, p, d))
    return best


@kernel
def confidant_value(st, tt, p, b):
    k = count(st, p, b) + (0 if st.conf[p] == b else 1)
    gain = action_value(st, tt, p, b, k)
    if st.conf[p] != b:
        gain += later_value(st, tt, p, b, k - 1)
        if st.conf[p] >= 0:
            gain -= loss_value(st, tt, p, st.conf[p])
    return gain


@kernel
def building_card_value(st, tt, p, b):
    c = count(st, p, b)
    gain = action_value(st, tt, p, b, c + 1) + later_value(st, tt, p, b, c) - cube_cost(st, tt, p, b)
    return max(gain, 0.0) if st.personal[p] == 0 else gain


@kernel
def card_value(st, tt, p, kind):
    if kind < N_BUILDINGS:
        return building_card_value(st, tt, p, kind)
    if kind == NOTRE_DAME:
        return best_donation(st, tt, p)
    best = -1e9
    for b in range(N_BUILDINGS):
        best = max(best, confidant_value(st, tt, p, b))
    return best


@kernel
def doctor_value(st, tt, p):
    """What no rats for p this round saves."""
    h = count(st, p, HOSPITAL)
    return plague_cost(st, tt, p, st.rat[p], h, face_rats(st, tt)) - plague_cost(st, tt, p, st.rat[p], h, 0)


@kernel
def minstrel_value(st, tt, p, mv):
    src = mv // 64
    dst = (mv // 8) % 8
    pieces = (mv // 2) % 4 + mv % 2
    gain = 0.0
    for i in range(pieces):
        gain += later_value(st, tt, p, dst, count(st, p, dst) + i)
        gain -= later_value(st, tt, p, src, count(st, p, src) - 1 - i)
    return gain


@kernel
def jester_value(st, tt, p, mv):
    piece = mv // 8
    dst = mv % 8
    c = count(st, p, dst)
    gain = action_value(st, tt, p, dst, c + 1) + later_value(st, tt, p, dst, c)
    if piece < N_BUILDINGS:
        gain -= loss_value(st, tt, p, piece)
    elif piece == JESTER_CONFIDANT:
        gain -= loss_value(st, tt, p, st.conf[p])
    else:
        gain -= 1.0                                    # a Notre Dame cube's share of the payout
    return gain


@kernel
def person_value(st, tt, p, person):
    effect = tt.person_effect[person]
    if effect == HOUSEKEEPER:
        return vp_value(st, p, 3) + max(small_value(st, tt, p, GOLD),
                                        max(small_value(st, tt, p, CUBE), rat_step_value(st, tt, p)))
    if effect == MONK:
        return vp_value(st, p, 1) + min(2, np.int32(st.gsupply[p])) * cube_value(st, p)
    if effect == MONEYLENDER:
        return vp_value(st, p, 1) + min(2, st.G) * gold_value(st)
    if effect == DOCTOR:
        return doctor_value(st, tt, p)
    if effect == MINSTREL or effect == JESTER:
        return 0.5 if building_cubes(st, p) > 0 else 0.0
    if effect == BISHOP:
        if st.gsupply[p] == 0:
            return 0.0
        best = 0.0
        for b in range(N_BUILDINGS):
            if count(st, p, b) == 0:
                best = max(best, action_value(st, tt, p, b, 1) + later_value(st, tt, p, b, 0))
        return best
    return vp_value(st, p, person_vp(st, tt, p, effect))


def greedy_choice_at(dp):
    """greedy's choice at decision point dp (or at any of the card decisions, which share one
    valuation), compiled for that point alone: dp is a constant of the closure, so numba keeps only
    its branch of option_value, and each point's loop is a small function of its own. One function
    of dp for all points compiled every valuation into every caller (per constant, 14 copies)."""

    @kernel(inline=True)
    def option_value(st, tt, p, ctx, v):
        """The greedy value of option v at decision point dp."""
        if dp == DP_DRAFT_KEEP1 or dp == DP_DRAFT_KEEP2 or dp == DP_PLAY_CARD:
            return card_value(st, tt, p, v)
        if dp == DP_CUBE_SOURCE:
            if v == FORFEIT:
                return 0.0
            gain = 0.0
            if ctx < N_BUILDINGS:
                c = count(st, p, ctx)
                gain = action_value(st, tt, p, ctx, c + 1) + later_value(st, tt, p, ctx, c)
            if v == PERSONAL:
                return gain - cube_value(st, p)
            return gain - loss_value(st, tt, p, v)
        if dp == DP_CONFIDANT_TARGET:
            return 0.0 if v == FORFEIT else confidant_value(st, tt, p, v)
        if dp == DP_DONATION:
            return donation_value(st, tt, p, v)
        if dp == DP_CARRIAGE_DEST:
            return message_value(st, tt, p, v)
        if dp == DP_TAKE_MESSAGE:
            return v * 1.0
        if dp == DP_GUEST_CHOICE:
            if ctx <= 3:
                return small_value(st, tt, p, v)
            a = v // 3
            b = v % 3
            second = small_value(st, tt, p, b)
            if a == b and a == 2:
                second *= 0.5
            return small_value(st, tt, p, a) + second
        if dp == DP_BANK_VICTIM:
            return st.gold[v] * 1.0
        if dp == DP_BRIBE:
            if v == PASS:
                return 0.0
            return person_value(st, tt, p, v) * weight(st, tt, p, W_PERSONS) - gold_value(st) - 0.2
        if dp == DP_HOUSEKEEPER_CHOICE:
            return small_value(st, tt, p, v)
        if dp == DP_BISHOP_TARGET:
            return action_value(st, tt, p, v, 1) + later_value(st, tt, p, v, 0)
        if dp == DP_MINSTREL_MOVE:
            return minstrel_value(st, tt, p, v)
        if dp == DP_JESTER_MOVE:
            return jester_value(st, tt, p, v)
        return -loss_value(st, tt, p, v)                  # DP_OUTBREAK_LOSS

    @kernel
    def greedy_choice(st, tt, p, ctx):
        """The first option of highest value."""
        best = 0
        best_value = -1e18
        for i in range(st.n_opts):
            value = option_value(st, tt, p, ctx, st.opts[i])
            if value > best_value:
                best_value = value
                best = i
        return best

    return greedy_choice


greedy_card = greedy_choice_at(DP_PLAY_CARD)          # also the draft's two decisions
greedy_cube_source = greedy_choice_at(DP_CUBE_SOURCE)
greedy_confidant = greedy_choice_at(DP_CONFIDANT_TARGET)
greedy_donation = greedy_choice_at(DP_DONATION)
greedy_carriage = greedy_choice_at(DP_CARRIAGE_DEST)
greedy_message = greedy_choice_at(DP_TAKE_MESSAGE)
greedy_guest = greedy_choice_at(DP_GUEST_CHOICE)
greedy_bank_victim = greedy_choice_at(DP_BANK_VICTIM)
greedy_bribe = greedy_choice_at(DP_BRIBE)
greedy_housekeeper = greedy_choice_at(DP_HOUSEKEEPER_CHOICE)
greedy_bishop = greedy_choice_at(DP_BISHOP_TARGET)
greedy_minstrel = greedy_choice_at(DP_MINSTREL_MOVE)
greedy_jester = greedy_choice_at(DP_JESTER_MOVE)
greedy_outbreak_loss = greedy_choice_at(DP_OUTBREAK_LOSS)


@kernel(inline=True)
def greedy_choice(st, tt, p, dp, ctx):
    """The index of the option greedy takes at decision point dp."""
    if dp == DP_DRAFT_KEEP1 or dp == DP_DRAFT_KEEP2 or dp == DP_PLAY_CARD:
        return greedy_card(st, tt, p, ctx)
    if dp == DP_CUBE_SOURCE:
        return greedy_cube_source(st, tt, p, ctx)
    if dp == DP_CONFIDANT_TARGET:
        return greedy_confidant(st, tt, p, ctx)
    if dp == DP_DONATION:
        return greedy_donation(st, tt, p, ctx)
    if dp == DP_CARRIAGE_DEST:
        return greedy_carriage(st, tt, p, ctx)
    if dp == DP_TAKE_MESSAGE:
        return greedy_message(st, tt, p, ctx)
    if dp == DP_GUEST_CHOICE:
        return greedy_guest(st, tt, p, ctx)
    if dp == DP_BANK_VICTIM:
        return greedy_bank_victim(st, tt, p, ctx)
    if dp == DP_BRIBE:
        return greedy_bribe(st, tt, p, ctx)
    if dp == DP_HOUSEKEEPER_CHOICE:
        return greedy_housekeeper(st, tt, p, ctx)
    if dp == DP_BISHOP_TARGET:
        return greedy_bishop(st, tt, p, ctx)
    if dp == DP_MINSTREL_MOVE:
        return greedy_minstrel(st, tt, p, ctx)
    if dp == DP_JESTER_MOVE:
        return greedy_jester(st, tt, p, ctx)
    return greedy_outbreak_loss(st, tt, p, ctx)


# ---------------------------------------------------------------- what a seat cannot see (search players)
# Seat p's information set at one of its decisions (ND-17.4) is what is public (ND-17.1: the board,
# every card played and the deck, i.e. colour, it came from, the persons shown, the decks'
# composition) and what p has seen of the cards (ND-17.2), kept by the playout in st.seen[p, d]:
# the kinds of deck d that p has seen this stage (all it drew, the 2 it was passed and the 1 it
# was given in the draft, every card played). Where the cards of this round lie, and which deck
# each came from, is public (the draft's structure: st.draft_at, st.hand_from); which kinds lie
# where, p knows only for the cards it has seen. So every card p has not seen is one of the
# kinds of its deck that p has not seen, and so is every card still in that deck: determinize
# deals those kinds out at random again, deck by deck (each deck holds each kind once a stage,
# ND-5.6). The one place where p knows the cards but not where they are: the 2 it passed in
# step 1, one kept by the left neighbour and one handed on (2 players: the one returned tells).

KEPT, PASSING, HAND = 0, 1, 2          # the draft arrays a card can lie in (st.kept, st.passing, st.hand)
MAX_SLOTS = 8 * MAX_PLAYERS


@kernel
def card_slot(array, q, i):
    """One place a card can lie: index i of seat q's row of KEPT, PASSING or HAND."""
    return (array * MAX_PLAYERS + q) * 4 + i


@kernel(inline=True)
def slot_card(st, slot):
    array = slot // (4 * MAX_PLAYERS)
    q = (slot // 4) % MAX_PLAYERS
    i = slot % 4
    if array == KEPT:
        return st.kept[q, i]
    if array == PASSING:
        return st.passing[q, i]
    return st.hand[q, i]


@kernel(inline=True)
def set_slot_card(st, slot, kind):
    array = slot // (4 * MAX_PLAYERS)
    q = (slot // 4) % MAX_PLAYERS
    i = slot % 4
    if array == KEPT:
        st.kept[q, i] = kind
    elif array == PASSING:
        st.passing[q, i] = kind
    else:
        st.hand[q, i] = kind


@kernel(inline=True)
def others_cards(st, p, slots, origin):
    """The cards of this round that seats other than p hold or pass between them, as slots the
    game will still read, with the deck each came from (public); returns how many. A decision of
    p is never inside step 3 (it has no choices), and only p can be choosing in the draft."""
    n = st.players
    k = 0
    for q in range(n):
        if q == p:
            continue
        at = st.draft_at[q]
        left = st.draft_at[(q + 1) % n]
        right = (q - 1 + n) % n
        if at >= DRAFT_PASSED and at <= DRAFT_HANDED:        # kept in step 1, not yet in the hand
            slots[k] = card_slot(KEPT, q, 0)
            origin[k] = q
            k += 1
        if at >= DRAFT_PASSED and left <= DRAFT_SHOWN:       # passed, not yet chosen from
            for i in range(2):
                slots[k] = card_slot(PASSING, q, i)
                origin[k] = q
                k += 1
        if at == DRAFT_HANDED:                               # kept in step 2
            slots[k] = card_slot(KEPT, q, 1)
            origin[k] = right
            k += 1
        if at >= DRAFT_HANDED and left < DRAFT_TOOK:         # handed on, not yet taken
            slots[k] = card_slot(KEPT, q, 2)
            origin[k] = right
            k += 1
        if at == DRAFT_TOOK:
            for i in range(st.hand_n[q]):
                slots[k] = card_slot(HAND, q, i)
                origin[k] = st.hand_from[q, i]
                k += 1
    return k


@kernel(inline=True)
def forget_old_copies(st, p, slots, cards, k):
    """-1 wherever the draft arrays of the others hold a card the game will not read again (they
    are overwritten before they are read: old copies, last round's unplayed cards), and in
    st.offered unless p is choosing from it: no true hidden card survives there."""
    for q in range(st.players):
        if q != p:
            for i in range(3):
                st.kept[q, i] = -1
                st.hand[q, i] = -1
            for i in range(2):
                st.passing[q, i] = -1
    for s in range(k):
        set_slot_card(st, slots[s], cards[s])
    if st.draft_at[p] != DRAFT_DREW and st.draft_at[p] != DRAFT_SHOWN:
        for i in range(3):
            st.offered[i] = -1


@kernel(inline=True)
def redraw_unseen(st, p, d, slots, origin, cards, k, pool):
    """Deal the kinds of deck d that p has not seen to the places of deck d's cards p has not
    seen: the others' cards of deck d p has not seen, the cards still in deck d, and the drawn
    positions of deck d p has not seen (under the deck by now, or those same cards). True, with
    st.checking on, st.violation 10 if the places and the kinds do not match."""
    seen = np.int32(st.seen[p, d])
    m = 0
    for kind in range(N_KINDS):
        if (seen >> kind) & 1 == 0:
            pool[m] = kind
            m += 1
    shuffle(st.s_gen, pool, 0, m)
    h = 0
    for s in range(k):
        if origin[s] == d and (seen >> cards[s]) & 1 == 0:
            cards[s] = pool[h]
            h += 1
    top = st.deck_pos[d]
    f = N_KINDS - top
    for x in range(f):
        st.deck[d, top + x] = pool[h + x]
    u = 0
    for pos in range(top):
        if (seen >> st.deck[d, pos]) & 1 == 0:
            st.deck[d, pos] = pool[u] if u < h else pool[u + f]
            u += 1
    if st.checking and (u + f != m or h > u) and not st.violation:
        st.violation = 10
        st.violation_round = st.round_no


@kernel(inline=True)
def shuffle_passed_pair(st, p, origin, cards, k, order):
    """The cards of p's own deck that others hold: p passed them, so it knows them, but not who
    kept which (the left neighbour's secret choice) unless one has been played."""
    g = 0
    for s in range(k):
        if origin[s] == p:
            order[g] = s
            g += 1
    for i in range(g - 1, 0, -1):
        j = below(st.s_gen, i + 1)
        a = order[i]
        b = order[j]
        tmp = cards[a]
        cards[a] = cards[b]
        cards[b] = tmp


@kernel(inline=True)
def redraw_persons(st):
    """The persons not yet shown: brown of this stage, grey within their letter (ND-2.5, ND-4)."""
    shuffle(st.s_gen, st.brown, st.brown_shown, 6)
    stage_end = 3 * ((st.round_no + 2) // 3)
    shuffle(st.s_gen, st.grey, st.round_no, stage_end)
    for g in range(stage_end, 9, 3):
        shuffle(st.s_gen, st.grey, g, g + 3)


@kernel(inline=True)
def determinize(st, tt, p):
    """Redraw what seat p cannot see, at one of its decisions, from what it can (simcore/search.py,
    ND-17.4): the others' cards p has not seen, the order of every deck's cards not yet drawn,
    who kept which of the cards p passed, and the order of the persons not yet shown. With st.s_gen
    only; p's own cards, the public state and the draft's structure stay as they are. The playout
    keeps no hidden card in a local variable above a decision (the draft's cards are st fields)."""
    slots = np.empty(MAX_SLOTS, np.int32)
    origin = np.empty(MAX_SLOTS, np.int32)
    cards = np.empty(MAX_SLOTS, np.int32)
    work = np.empty(MAX_SLOTS, np.int32)
    k = others_cards(st, p, slots, origin)
    for s in range(k):
        cards[s] = slot_card(st, slots[s])
    for d in range(st.players):
        redraw_unseen(st, p, d, slots, origin, cards, k, work)
    shuffle_passed_pair(st, p, origin, cards, k, work)
    forget_old_copies(st, p, slots, cards, k)
    for d in range(st.players):
        st.drawn[d] = 0
        for pos in range(st.deck_pos[d]):
            st.drawn[d] |= kind_bit(st.deck[d, pos])
    redraw_persons(st)
