"""The numpy structured dtypes of Notre Dame: one game's state and the component tables.

One record holds everything a game mutates, so kernels take one argument (the record) and
numba's reference counting stays out of the hot loops. A second record holds the tables of
one data set for one player count (docs/notre_dame.md §21), built once per batch.
"""
import numpy as np

from simcore.search import search_table_fields, with_search_fields
from simcore.turns import LOG_FIELDS, turn_fields
from simcore.boardgames.notre_dame.components import (
    MAX_MARKETS, N_PERSONS, RULE_CHOICES, RULE_DEFAULTS, RULE_INDEX)

MAX_PLAYERS = 5
N_BUILDINGS = 7
N_KINDS = 9                      # action-card kinds: the 7 buildings, NOTRE_DAME, CONFIDANT (ND-1.2)
N_COLOURS = 5                    # message colours = districts (ND-1.3, ND-2.2)
MAX_OPTIONS = 256                # DP-14 has at most 7 * 6 * 6 = 252 options (ND-16)
MAX_EVENTS = 1024
ROUNDS = 9

# buildings and card kinds (ND-0.4, ND-1.2)
CLOISTER_SCHOOL, BANK, RESIDENCE, CARRIAGE_HOUSE, GUEST_HOUSE, PARK, HOSPITAL, NOTRE_DAME, CONFIDANT = range(9)
NOWHERE = -1                     # the confidant still in front of its player (ND-2.4a)

# person effects (components.EFFECTS order, ND-15)
HOUSEKEEPER, MONK, MONEYLENDER, MINSTREL, JESTER, DOCTOR, CITY_GUARD, NIGHT_WATCHMAN, BISHOP, \
    GUILD_MASTER, BEGGAR_KING, LAWYER, LADY, MAYOR, CARPENTER = range(15)

# how far a seat is in the draft (st.draft_at; ND-5): nothing yet, drew 3 (choosing), kept 1 and
# passed 2, shown the 2 from the right (choosing), kept 1 of them and handed on 1, took the last
DRAFT_NONE, DRAFT_DREW, DRAFT_PASSED, DRAFT_SHOWN, DRAFT_HANDED, DRAFT_TOOK = range(6)

# small choices: Guest house parts, Housekeeper (DP-9, DP-12)
GOLD, CUBE, RAT = 0, 1, 2
FORFEIT = -1                     # DP-4: play the card without effect
PERSONAL = 7                     # DP-4: the cube comes from the personal supply
PASS = -1                        # DP-11: bribe nobody
JESTER_CONFIDANT, JESTER_FROM_ND = 7, 8   # DP-15 pieces besides a cube of building 0..6

# decision points (ND-16)
DP_DRAFT_KEEP1, DP_DRAFT_KEEP2, DP_PLAY_CARD, DP_CUBE_SOURCE, DP_CONFIDANT_TARGET, DP_DONATION, \
    DP_CARRIAGE_DEST, DP_TAKE_MESSAGE, DP_GUEST_CHOICE, DP_BANK_VICTIM, DP_BRIBE, \
    DP_HOUSEKEEPER_CHOICE, DP_BISHOP_TARGET, DP_MINSTREL_MOVE, DP_JESTER_MOVE, DP_OUTBREAK_LOSS = range(1, 17)

# score categories (index into pts); every VP gain or loss is booked to exactly one
CATEGORIES = ("residence", "messages", "donations", "payout", "persons", "park_bonus", "plague")
CAT_RESIDENCE, CAT_MESSAGES, CAT_DONATIONS, CAT_PAYOUT, CAT_PERSONS, CAT_PARK_BONUS, CAT_PLAGUE = range(7)
N_CATEGORIES = len(CATEGORIES)

# per-seat counters (results columns) and game counters
SEAT_COLUMNS = ("plague_outbreaks", "bribes", "messages_taken", "cards_forfeited", "gold_end")
SC_OUTBREAKS, SC_BRIBES, SC_MESSAGES, SC_FORFEITS, SC_GOLD_END = range(5)
GAME_COLUMNS = ("gold_stolen", "messages_left")

# rule switch indexes into tt.rules (components.RULE_DEFAULTS order)
R_START_GOLD = RULE_INDEX["F_START_GOLD"]
R_PLAGUE_MODE = RULE_INDEX["F_PLAGUE_MODE"]
R_OUTBREAK_AT = RULE_INDEX["F_OUTBREAK_AT"]
R_OUTBREAK_RESET_TO = RULE_INDEX["F_OUTBREAK_RESET_TO"]
R_VP_FLOOR0 = RULE_INDEX["F_VP_FLOOR0"]
R_CONFIDANT_MAY_STAY = RULE_INDEX["F_CONFIDANT_MAY_STAY"]
R_CARRIAGE_MAY_STAY = RULE_INDEX["F_CARRIAGE_MAY_STAY"]
R_BANK_STEAL = RULE_INDEX["F_BANK_STEAL"]
R_BANK_TIE = RULE_INDEX["F_BANK_TIE"]
R_GOLD_STEAL_ALL_SOURCES = RULE_INDEX["F_GOLD_STEAL_ALL_SOURCES"]
R_VOLUNTARY_FORFEIT = RULE_INDEX["F_VOLUNTARY_FORFEIT"]
R_GUARD_COUNTS_ND = RULE_INDEX["F_GUARD_COUNTS_ND"]
R_ND_SPLIT = RULE_INDEX["F_ND_SPLIT"]
R_ALLOW_USELESS_BRIBE = RULE_INDEX["F_ALLOW_USELESS_BRIBE"]
N_RULES = len(RULE_DEFAULTS)

PLAGUE_NET, PLAGUE_SEQUENTIAL, PLAGUE_NET_NO_BACK = (RULE_CHOICES["F_PLAGUE_MODE"].index(m)
                                                     for m in ("NET", "SEQUENTIAL", "NET_NO_BACK"))
STEAL_PER_COIN, STEAL_ONE_VICTIM, STEAL_NONE = (RULE_CHOICES["F_BANK_STEAL"].index(m)
                                                for m in ("PER_COIN", "ONE_VICTIM", "NONE"))
TIE_CLOCKWISE, TIE_CHOOSER = (RULE_CHOICES["F_BANK_TIE"].index(m) for m in ("CLOCKWISE", "CHOOSER"))
SPLIT_PER_CUBE, SPLIT_PER_PLAYER = (RULE_CHOICES["F_ND_SPLIT"].index(m) for m in ("PER_CUBE", "PER_PLAYER"))

# log events (describe.py turns them into words): code, round, seat, a, b, c, vp of the seat after
EV_ROUND, EV_PLAY, EV_RELOCATE, EV_FORFEIT, EV_ACTION, EV_CARRIAGE, EV_MESSAGE, EV_GUEST, EV_DONATE, \
    EV_CONFIDANT, EV_STEAL, EV_BRIBE, EV_PERSON, EV_MOVE, EV_PLAGUE, EV_OUTBREAK, EV_PAYOUT, EV_STAGE, \
    EV_HAND, EV_STANDING = range(20)

TABLES = np.dtype([
    ("rules", np.int32, (N_RULES,)),
    ("players", np.int32),
    ("districts", np.int32),
    ("n_markets", np.int32),
    ("distance", np.int8, (MAX_MARKETS, MAX_MARKETS)),   # street steps on this board (ND-7.4)
    ("seat_district", np.int8, (MAX_PLAYERS,)),
    ("district_messages", np.int8, (N_COLOURS,)),        # 1: the district's colour has its 4 tiles (ND-2.2)
    ("central_market", np.int8, (N_COLOURS,)),
    ("message_markets", np.int8, (N_COLOURS, 4)),
    ("person_effect", np.int8, (N_PERSONS,)),
    ("person_grey", np.int8, (N_PERSONS,)),
    ("person_letter", np.int8, (N_PERSONS,)),
    ("person_rats", np.int8, (N_PERSONS,)),
    ("message_vp", np.int8, (4,)),
    ("message_gold", np.int8, (4,)),
    ("message_cubes", np.int8, (4,)),
    ("message_rat_back", np.int8, (4,)),
    ("colour_tiles", np.int8, (4,)),
    ("payout", np.int32),                                # Notre Dame payout P (ND-1.4)
    ("donation_vp", np.int32, (4,)),
] + search_table_fields())

PLAY_STATE = np.dtype([
    ("gen_chance", np.uint64, (4,)),
    ("gen_decide", np.uint64, (4,)),
    ("players", np.int32),
    ("s0", np.int32),                                    # start player of round 1 (ND-2.6)
    ("round_no", np.int32),                              # 1..9 (not "round": np.record has a round())
    ("start", np.int32),                                 # start player of this round (ND-3.3)
    ("policy", np.int8, (MAX_PLAYERS,)),
    # a player's pieces (ND-0.3); cubes on buildings are real cubes, the confidant is apart
    ("cubes", np.int8, (MAX_PLAYERS, N_BUILDINGS)),
    ("conf", np.int8, (MAX_PLAYERS,)),                   # building of the confidant, NOWHERE
    ("personal", np.int8, (MAX_PLAYERS,)),
    ("gsupply", np.int8, (MAX_PLAYERS,)),
    ("nd", np.int8, (MAX_PLAYERS,)),
    ("gold", np.int32, (MAX_PLAYERS,)),
    ("G", np.int32),                                     # gold in the general supply
    ("vp", np.int32, (MAX_PLAYERS,)),
    ("rat", np.int32, (MAX_PLAYERS,)),
    ("carriage", np.int8, (MAX_PLAYERS,)),               # market of each carriage
    ("held", np.int8, (MAX_PLAYERS, N_COLOURS)),         # messages taken, per colour
    ("msg_at", np.int8, (MAX_MARKETS,)),                 # tile on a market: colour * 4 + kind, -1 none
    ("on_board", np.int8, (N_COLOURS,)),                 # tiles of each colour still on the board
    ("n_colours", np.int32),
    # cards: deck = this stage's permutation of the 9 kinds (ND-5.6); hand = kinds held
    ("deck", np.int8, (MAX_PLAYERS, N_KINDS)),
    ("hand", np.int8, (MAX_PLAYERS, 3)),
    ("hand_n", np.int8, (MAX_PLAYERS,)),
    ("passing", np.int8, (MAX_PLAYERS, 2)),              # draft: cards handed on to the left
    ("kept", np.int8, (MAX_PLAYERS, 3)),                 # draft: cards kept so far, and the one handed on
    ("offered", np.int8, (3,)),                          # draft: the cards one player chooses from
    ("drawn", np.int32, (MAX_PLAYERS,)),                 # kinds drawn this stage, one bit each (checks)
    # what each seat has seen of the cards (ND-17), for the search players' determinize; written
    # by the playout, never read by it
    ("deck_pos", np.int8, (MAX_PLAYERS,)),               # the next position of each deck to be drawn
    ("draft_at", np.int8, (MAX_PLAYERS,)),               # how far each seat is in this round's draft (DRAFT_*)
    ("hand_from", np.int8, (MAX_PLAYERS, 3)),            # the deck each hand card came from (its colour)
    ("seen", np.int16, (MAX_PLAYERS, MAX_PLAYERS)),      # seen[p, d]: kinds of deck d seat p has seen this stage
    ("brown_shown", np.int8),                            # brown persons shown this stage
    # persons (ND-2.5, ND-4)
    ("brown", np.int8, (6,)),
    ("grey", np.int8, (9,)),
    ("face", np.int8, (3,)),
    ("bribed", np.int8, (MAX_PLAYERS,)),                 # person bribed this round, -1 none
    # results
    ("pts", np.int32, (MAX_PLAYERS, N_CATEGORIES)),
    ("seat_count", np.int32, (MAX_PLAYERS, len(SEAT_COLUMNS))),
    ("game_count", np.int32, (len(GAME_COLUMNS),)),
] + turn_fields(MAX_OPTIONS, MAX_EVENTS))
STATE = with_search_fields(PLAY_STATE, MAX_PLAYERS, LOG_FIELDS)  # a game with a search seat (simcore/search.py)


def new_state(n=1, search=True):
    """n zeroed state records, with attribute access also without the JIT; search=False: without
    the search's fields, for plain play (its kernels then compile none of the search's code)."""
    return np.zeros(n, dtype=STATE if search else PLAY_STATE).view(np.recarray)


def new_tables(data, players, variant=None):
    """The tables record of a data set (components.NotreDameData) for one player count."""
    tt = np.zeros(1, dtype=TABLES).view(np.recarray)
    t = tt[0]
    t.rules[:] = data.rule_values
    t.players = players
    t.districts = int(data.districts[players])
    t.n_markets = t.districts * 5
    v = data.street_graph if variant is None else variant
    t.distance[:, :] = data.distance[v, players]
    t.seat_district[:] = data.seat_district[players]
    t.district_messages[:] = data.district_messages[players]
    t.central_market[:] = data.central_market
    t.message_markets[:, :] = data.message_markets
    t.person_effect[:] = data.person_effect
    t.person_grey[:] = data.person_grey
    t.person_letter[:] = data.person_letter
    t.person_rats[:] = data.person_rats
    t.message_vp[:] = data.message_vp
    t.message_gold[:] = data.message_gold
    t.message_cubes[:] = data.message_cubes
    t.message_rat_back[:] = data.message_rat_back
    t.colour_tiles[:] = data.colour_tiles
    t.payout = int(data.nd_payout[players])
    t.donation_vp[:] = data.donation_vp
    return tt
