"""The numpy structured dtypes of Strasbourg: one game's state and the component tables.

One record holds everything a game mutates, so kernels take one argument (the record) and
numba's reference counting stays out of the hot loops. A second record holds the tables of one
data set (SB-2, SB-19), built once per batch.

Cells are numbered row * COLS + col on the 6 x 9 city (SB-2.2, SB-2.5). Council seats: NOBILITY,
CHURCH, one per guild, MERCHANTS (SB-2.1).
"""
import numpy as np

from simcore.search import search_table_fields, with_search_fields
from simcore.turns import LOG_FIELDS, turn_fields
from simcore.boardgames.strasbourg.components import (
    CARD_VALUES, COLS, MAX_CADJ, MAX_CHAPEL_SPOTS, MAX_DECK, MAX_TASK_PARAMS, N_BUILDINGS, N_CELLS, N_GUILDS,
    N_TASK_CARDS, NO_FM_LIMIT, ROUNDS, ROWS, RULE_DEFAULTS, RULE_INDEX)

MAX_PLAYERS = 5
TASKS_DEALT = 5                  # task cards dealt to each player, of which they keep 1 to 5 (SB-3.6)
KEY_BASE = MAX_DECK + 1          # a bundle's multiset key counts each value in this base (at most 24 cards)
DECK_SLOTS = 32                  # the deck as a ring: returned cards go under it (SB-9.2)
MAX_OPTIONS = 64
MAX_QUEUE = 64
MAX_EVENTS = 2048

# council seats (SB-2.1)
NOBILITY, CHURCH = 0, 1
MERCHANTS = 2 + N_GUILDS
N_SEATS = MERCHANTS + 1

# sub-phases (SB-6.1) and their types
SUBPHASES = "ABCDEFGHI"
NC, GUILD, MERCH, MERCH_G, CHAPEL, BUILD = range(6)
SUBPHASE_TYPE = np.array([NC, GUILD, MERCH, GUILD, MERCH, GUILD, MERCH_G, CHAPEL, BUILD], dtype=np.int8)
GUILD_SLOT = np.array([-1, 0, -1, 1, -1, 2, -1, -1, -1], dtype=np.int8)   # B, D, F -> card column

# decision options (SB-15)
STOP, DRAW = 0, 1                # D-2
PASS, PRIVILEGE = -1, -2         # D-4 (else a bundle index)
NO_BUY = -1                      # D-6 (else a cell)
GOODS = -1                       # D-7 (else a cell)

# decision points, numbered as SB-15's D-1 .. D-11; D-3, the split into bundles, is no listed
# decision: the policies build a split themselves (docs/strasbourg.md, D-3)
D_TASKS, D_DRAW = 1, 2
D_BID, D_RETURN, D_MASTER_BUY, D_APPRENTICE, D_SELL, D_CHAPEL, D_BUILD, \
    D_MASTER_PART = range(4, 12)      # D-11: under MASTER_PARTS_OPTIONAL, take the seat / the goods (AMB-05)
NO_RETURN = 0                    # D-5 under ALLOW_DOMINATED_RETURN

# rule switch indexes into tt.rules (components.RULE_DEFAULTS order)
R_MASTER_PARTS_OPTIONAL = RULE_INDEX["MASTER_PARTS_OPTIONAL"]
R_ALLOW_DOMINATED_RETURN = RULE_INDEX["ALLOW_DOMINATED_RETURN"]
R_ALLOW_DOMINATED_PRIVILEGE = RULE_INDEX["ALLOW_DOMINATED_PRIVILEGE"]
R_FM_LIMIT = RULE_INDEX["FM_LIMIT"]
N_RULES = len(RULE_DEFAULTS)

# task types (SB-13); a task card is (type, parameter, printed value)
TK_BUILDING, TK_THREE_AT_BUILDING, TK_FOUR_BUILDINGS, TK_CHAPELS, TK_WALL, TK_CORNERS, TK_GUILD, \
    TK_LINE, TK_DIAGONAL, TK_SQUARE, TK_EVERY_GUILD, TK_NOBLE_OR_CHURCH, TK_COUNCIL, TK_MOST_CITY, \
    TK_MOST_COINS, TK_GOODS_VARIETY, TK_START_PLAYER = range(1, 18)

# score categories
CATEGORIES = ("council", "city", "chapels", "buildings", "privileges", "tasks_fulfilled", "tasks_failed")
CAT_COUNCIL, CAT_CITY, CAT_CHAPELS, CAT_BUILDINGS, CAT_PRIVILEGES, CAT_TASKS_PLUS, CAT_TASKS_MINUS = range(7)
N_CATEGORIES = len(CATEGORIES)

SEAT_COLUMNS = ("city_members", "tasks_kept", "tasks_met", "cards_returned", "privileges_spent", "coins_end")
SC_CITY, SC_TASKS_KEPT, SC_TASKS_MET, SC_RETURNED, SC_PRIVILEGES_SPENT, SC_COINS_END = range(6)
GAME_COLUMNS = ("start_player", "final_start_player")
GC_START, GC_FINAL_START = range(2)

# log events (describe.py turns them into words): code, round, seat, a, b, c, vp of the seat after
EV_ROUND, EV_TASKS, EV_PLAN, EV_BUNDLE, EV_SUBPHASE, EV_BID, EV_PRIVILEGE, EV_WINNER, EV_SEAT, EV_GOODS, \
    EV_BUY, EV_SELL, EV_RETURN, EV_CHAPEL, EV_BUILD, EV_COUNCIL = range(16)

TABLES = np.dtype([
    ("rules", np.int32, (N_RULES,)),
    ("players", np.int32),
    ("cell_guild", np.int8, (N_CELLS,)),           # -1 for a building site
    ("price", np.int16, (N_CELLS,)),
    ("is_site", np.int8, (N_CELLS,)),
    ("orth", np.int8, (N_CELLS, 4)),               # -1 padded
    ("wall", np.int8, (N_CELLS,)),
    ("corner", np.int8, (N_CELLS,)),
    ("n_spots", np.int32),
    ("spot_cells", np.int8, (MAX_CHAPEL_SPOTS, MAX_CADJ)),  # CADJ per chapel spot, -1 padded
    ("card_guilds", np.int8, (ROUNDS, 3)),         # each round card's guilds at B, D, F
    ("building_value", np.int16, (N_BUILDINGS,)),
    ("goods_value", np.int16, (N_GUILDS,)),        # coins per goods tile of a guild (SB-19.2)
    ("task_type", np.int8, (N_TASK_CARDS,)),       # TK number 1..17
    ("task_param", np.int16, (N_TASK_CARDS, MAX_TASK_PARAMS)),   # components.TASK_TYPES order
    ("task_prestige", np.int16, (N_TASK_CARDS,)),  # VP when fulfilled (SB-1.6)
    ("start_coins", np.int32),                     # each player's coins at the start (SB-3.3)
    ("n_cards", np.int32),                         # one player's influence cards (SB-1.5)
    ("deck_cards", np.int8, (MAX_DECK,)),          # their values, ascending
    ("cards_of_value", np.int32, (CARD_VALUES + 1,)),   # how many show each value 1..6
] + search_table_fields())

PLAY_STATE = np.dtype([
    ("gen_chance", np.uint64, (4,)),
    ("gen_decide", np.uint64, (4,)),
    ("players", np.int32),
    ("round_no", np.int32),                        # 1..5 (not "round": np.record has a round())
    ("subphase", np.int32),
    ("sp", np.int32),                              # start player (SB-7.7)
    ("policy", np.int8, (MAX_PLAYERS,)),
    # influence cards: deck as a ring, top at deck_top (SB-5, SB-9.2)
    ("deck", np.int8, (MAX_PLAYERS, DECK_SLOTS)),
    ("deck_top", np.int32, (MAX_PLAYERS,)),
    ("deck_n", np.int32, (MAX_PLAYERS,)),
    ("boxed", np.int32, (MAX_PLAYERS,)),           # cards out of the game (checks)
    # this round's drawn cards and the bundles they form (SB-5.4)
    ("hand", np.int8, (MAX_PLAYERS, MAX_DECK)),
    ("hand_bundle", np.int8, (MAX_PLAYERS, MAX_DECK)),
    ("hand_n", np.int32, (MAX_PLAYERS,)),
    ("n_bundles", np.int32, (MAX_PLAYERS,)),
    ("bundle_sum", np.int32, (MAX_PLAYERS, MAX_DECK)),
    ("bundle_size", np.int32, (MAX_PLAYERS, MAX_DECK)),
    ("bundle_key", np.int32, (MAX_PLAYERS, MAX_DECK)),  # the multiset: count of each value, base KEY_BASE
    ("bundle_open", np.int8, (MAX_PLAYERS, MAX_DECK)),  # 1 while unrevealed
    # what every player knows of a player's cards (SB-16.3; the search players' determinize):
    ("deck_known", np.int8, (MAX_PLAYERS, DECK_SLOTS)),  # 1: a returned card, its value public (SB-9.2)
    ("drawn_known", np.int32, (MAX_PLAYERS, CARD_VALUES + 1)),   # such cards drawn this round, by value
    ("shown", np.int32, (MAX_PLAYERS, CARD_VALUES + 1)),         # revealed cards not returned, by value
    # resources
    ("coins", np.int32, (MAX_PLAYERS,)),
    ("goods", np.int32, (MAX_PLAYERS, N_GUILDS)),
    ("privileges", np.int32, (MAX_PLAYERS,)),
    ("vp", np.int32, (MAX_PLAYERS,)),
    ("tasks", np.int8, (MAX_PLAYERS, TASKS_DEALT)),    # kept task cards, -1
    ("dealt", np.int8, (MAX_PLAYERS, TASKS_DEALT)),
    # board
    ("seat_owner", np.int8, (N_SEATS,)),
    ("cell_owner", np.int8, (N_CELLS,)),           # family member on a guild space, -1
    ("site_building", np.int8, (N_CELLS,)),        # building on a site, -1
    ("chapel", np.int8, (MAX_CHAPEL_SPOTS,)),
    ("round_card", np.int8, (ROUNDS,)),            # the round card of each round (SB-3.1)
    ("round_building", np.int8, (ROUNDS,)),        # BLD[r] (SB-3.2)
    # the current bidding sub-phase (SB-7)
    ("queue", np.int8, (MAX_QUEUE,)),
    ("bid", np.int32, (MAX_PLAYERS,)),             # -1: no bid
    ("bid_bundle", np.int32, (MAX_PLAYERS,)),
    ("ranked", np.int32, (MAX_PLAYERS,)),          # the revealers, best bid first (SB-7.6)
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


def new_tables(data, players):
    """The tables record of a data set (components.StrasbourgData) for one player count."""
    tt = np.zeros(1, dtype=TABLES).view(np.recarray)
    t = tt[0]
    t.rules[:] = data.rule_values
    t.players = players
    t.cell_guild[:] = data.cell_guild
    t.price[:] = np.maximum(data.cell_price, 0)
    t.is_site[:] = data.is_site
    t.orth[:, :] = data.orth
    t.wall[:] = data.on_wall
    t.corner[:] = data.is_corner
    spots = data.chapel_cadj.shape[0]
    t.n_spots = spots
    t.spot_cells[:, :] = -1
    t.spot_cells[:spots, :data.chapel_cadj.shape[1]] = data.chapel_cadj
    t.card_guilds[:, :] = data.card_guilds
    t.building_value[:] = data.building_value
    t.goods_value[:] = data.goods_value[:, 0]
    t.task_type[:] = data.task_type
    t.task_param[:, :] = data.task_param
    t.task_prestige[:] = data.task_prestige
    t.start_coins = data.start_coins
    t.n_cards = len(data.influence_cards)
    t.deck_cards[:t.n_cards] = data.influence_cards
    t.cards_of_value[:] = np.bincount(data.influence_cards, minlength=CARD_VALUES + 1)
    return tt

