"""The numpy structured dtypes of Principato: one game's state and the component tables.

One record holds everything a game mutates, so kernels take one argument (the record) and
numba's reference counting stays out of the hot loops. A second record holds the tables of one
data set for one player count (docs/principato.md DATA-1..DATA-7), built once per batch.

A player's holdings are counts (PR-2.2: how cubes spread over farms or banks does not matter;
units of one type are interchangeable, DEC-11): the tiles, the stored cubes, and per unit type
how many hold which cube.
"""
import numpy as np

from simcore.search import search_table_fields, with_search_fields
from simcore.turns import LOG_FIELDS, turn_fields
from simcore.boardgames.principato.components import (
    CULTURE, GOAL_CATEGORIES, GOODS, MAX_CARDS, MAX_DISPLAY, MAX_EFFECT_OPTIONS, MAX_EFFECTS, MAX_GOALS, MAX_PLAYERS, MAX_TOKENS, RULE_DEFAULTS,
    RULE_INDEX, SUPPLY)

MAX_OPTIONS = 256
MAX_EVENTS = 4096
YEARS = 3
N_GOODS = len(GOODS)
N_SUPPLY = len(SUPPLY)

# tile and cube counts of a player: st.hold[p, H_*] (GOODS order first, so a card's gain adds directly)
H_FIELD, H_FARM, H_PALAZZO, H_BANK, H_CATAPULT, H_MONUMENT, H_BOOK, H_PAINTING, H_FOOD, H_MONEY, H_FAVOUR, \
    H_MILITIA, H_MIL_FOOD, H_MIL_FAV, H_CONDOTTIERE, H_CON_MONEY, H_CON_FAV = range(17)
N_HOLD = 17

# the supply: st.supply[S_*] (components.SUPPLY order)
S_FIELD_FARM, S_PALAZZO_BANK, S_CATAPULT, S_UNITS, S_MONUMENT, S_BOOK, S_PAINTING, S_FOOD, S_MONEY, S_FAVOUR = \
    range(N_SUPPLY)

# rule switches (tt.rules, components.RULE_DEFAULTS order)
R_OVERFLOW_TO_UNITS = RULE_INDEX["overflow_to_units"]
R_FREE_LOADING = RULE_INDEX["free_loading"]
R_CULTURE_TAKE = RULE_INDEX["culture_take"]
R_FULL_POOL = RULE_INDEX["tile_option_needs_full_pool"]
R_TIEBREAK_LOADED = RULE_INDEX["tiebreak_counts_loaded"]
R_NEW_YEAR_STARTER = RULE_INDEX["new_year_starter"]
R_PAIR_CAP = RULE_INDEX["pair_cap"]
N_RULES = len(RULE_DEFAULTS)
HIGHEST_FIRST, LOWEST_FIRST, CHOOSE = range(3)           # culture_take
NEXT_PLAYER, START_PLAYER = range(2)                     # new_year_starter
FLOOR, ROUND, CEIL = range(3)                            # tt.goal_rounding (components.ROUNDINGS)

# phases (the suggested phase machine of section 18) and the decision points (DEC-n)
D_KIND, D_CARD, D_OPTION, D_RECRUIT, D_OVERFLOW, D_EXCHANGE, D_CULTURE, D_EXCHANGE_B, D_FAVOUR, D_LOAD, \
    D_DISCARD = (1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12)
# DEC-1 action kinds
ACT_A, ACT_B, ACT_C, END_TURN = range(4)
# DEC-10 favour placement
TO_MILITIA, TO_CONDOTTIERE, LOSE = range(3)
# DEC-11 / DEC-12 parts (ctx of the decision): food→militia, favour→militia, money→condottiere,
# favour→condottiere; militia, condottieri discarded
LOAD_FOOD_MIL, LOAD_FAV_MIL, LOAD_MONEY_CON, LOAD_FAV_CON = range(4)
DISCARD_MIL, DISCARD_CON = range(2)

# a DEC-3/4 option code: the card option o and the payment triple (f, m, v) (PR-9.3)
PAY_SHIFT = 6                    # bits per field


# score categories: military VP, the culture tokens, then each goal card of DATA-6
CATEGORIES = ("military", "monuments", "books", "paintings") + GOAL_CATEGORIES
CAT_MILITARY, CAT_MONUMENTS, CAT_BOOKS, CAT_PAINTINGS = range(4)
CAT_GOALS = 4
N_CATEGORIES = len(CATEGORIES)

SEAT_COLUMNS = ("turn_position", "goal_g1", "goal_g2", "scorings_won", "strength_total", "units_recruited",
                "units_discarded", "cubes_lost", "favour_taken", "exchanges", "stored_cubes_end")
SC_POSITION, SC_GOAL_G1, SC_GOAL_G2, SC_WON, SC_STRENGTH, SC_RECRUITED, SC_DISCARDED, SC_LOST, SC_FAVOUR, \
    SC_EXCHANGES, SC_STORED_END = range(len(SEAT_COLUMNS))
GAME_COLUMNS = ("start_player", "turns", "scorings", "catapults_left", "favour_left", "cards_boxed")
GC_START, GC_TURNS, GC_SCORINGS, GC_CATAPULTS_LEFT, GC_FAVOUR_LEFT, GC_BOXED = range(len(GAME_COLUMNS))

# log events (describe.py turns them into words): code, year, seat, a, b, c, VP of the seat after
EV_YEAR, EV_TURN, EV_ACTIVATE, EV_PAY, EV_GAIN, EV_RECRUIT, EV_OVERFLOW, EV_EXCHANGE, EV_SWAP, EV_FAVOUR, \
    EV_END_TURN, EV_BOX, EV_DRAW, EV_SCORING, EV_LOAD, EV_STRENGTH, EV_DISCARD, EV_GOAL, EV_CULTURE = range(19)

TABLES = np.dtype([
    ("rules", np.int32, (N_RULES,)),
    ("players", np.int32),
    ("display_size", np.int32),
    ("supply", np.int16, (N_SUPPLY,)),
    ("food_per_farm", np.int32),
    ("money_per_bank", np.int32),
    ("church_favour", np.int32),
    ("start_holdings", np.int16, (7,)),
    ("rank_vp", np.int16, (MAX_PLAYERS,)),
    ("strength_catapult", np.int32),
    ("strength_loaded", np.int32),
    ("strength_empty", np.int32),
    ("effect_kind", np.int8, (MAX_EFFECTS,)),
    ("effect_n_options", np.int8, (MAX_EFFECTS,)),
    ("effect_pay", np.int16, (MAX_EFFECTS, MAX_EFFECT_OPTIONS, 2)),
    ("effect_gain", np.int16, (MAX_EFFECTS, MAX_EFFECT_OPTIONS, N_GOODS)),
    ("effect_per", np.int8, (MAX_EFFECTS,)),
    ("effect_cube", np.int8, (MAX_EFFECTS,)),
    ("effect_unit", np.int8, (MAX_EFFECTS,)),
    ("n_cards", np.int32),
    ("card_effect", np.int8, (MAX_CARDS,)),
    ("card_exchange", np.int8, (MAX_CARDS,)),
    # the cards in play for this player count (PR-3.2, PR-3.3, PR-3.4)
    ("s1_cards", np.int16, (MAX_PLAYERS,)),
    ("n_s2", np.int32),
    ("s2_cards", np.int16, (MAX_CARDS,)),
    ("deck_cards", np.int16, (YEARS, MAX_CARDS)),  # a year's deck before its shuffle (scoring cards included)
    ("deck_size", np.int32, (YEARS,)),
    ("card_scoring", np.int8, (MAX_CARDS,)),
    ("culture_values", np.int16, (len(CULTURE), MAX_TOKENS)),
    ("n_goals", np.int32),
    ("goal_deck", np.int8, (MAX_GOALS,)),
    ("goal_kind", np.int8, (MAX_GOALS,)),
    ("goal_tiles", np.int16, (MAX_GOALS,)),
    ("goal_threshold", np.int16, (MAX_GOALS,)),
    ("goal_vp_each", np.int16, (MAX_GOALS,)),
    ("goal_divisor", np.int16, (MAX_GOALS,)),
    ("goal_rounding", np.int8, (MAX_GOALS,)),     # FLOOR, ROUND, CEIL ("per_military_vp")
    ("goal_table", np.int16, (MAX_GOALS, 4)),
    ("goal_category", np.int8, (MAX_GOALS,)),     # CAT_GOALS + its place in GOAL_CATEGORIES
] + search_table_fields())

PLAY_STATE = np.dtype([
    ("gen_chance", np.uint64, (4,)),
    ("gen_decide", np.uint64, (4,)),
    ("players", np.int32),
    ("round_no", np.int32),                        # the year, 1..3 (turns.log_event reads round_no)
    ("sp", np.int32),                              # start player (PR-3.9)
    ("current", np.int32),                         # the seat whose turn it is
    ("action_step", np.int32),                     # 1 or 2 during a turn, 0 otherwise
    ("turn", np.int32),                            # turns taken so far
    ("policy", np.int8, (MAX_PLAYERS,)),
    # cards
    ("deck", np.int16, (MAX_CARDS,)),              # the current year's deck, top at deck_pos
    ("deck_pos", np.int32),
    ("deck_n", np.int32),
    ("decks", np.int16, (YEARS, MAX_CARDS)),       # each year's shuffled deck (PR-3.4)
    ("display", np.int16, (MAX_DISPLAY,)),         # card ids, -1 for an empty slot
    ("hand", np.int16, (MAX_PLAYERS, 2)),
    ("boxed", np.int32),                           # action cards gone to the box during play
    ("goals", np.int8, (MAX_PLAYERS, 2)),          # G1 and G2 goal card indexes (PR-3.5)
    # the principalities and the supply
    ("hold", np.int32, (MAX_PLAYERS, N_HOLD)),
    ("culture_vp", np.int32, (MAX_PLAYERS, len(CULTURE))),
    ("taken", np.int32, (len(CULTURE),)),          # tokens taken from each stack
    ("token_left", np.int8, (len(CULTURE), MAX_TOKENS)),   # culture_take = choose: 1 while in the stack
    ("supply", np.int32, (N_SUPPLY,)),
    ("military_vp", np.int32, (MAX_PLAYERS,)),
    ("vp", np.int32, (MAX_PLAYERS,)),              # the score so far (military + culture; goals at the end)
    # the scoring in progress (PR-14)
    ("scorings", np.int32),
    ("order", np.int32, (MAX_PLAYERS,)),
    ("strength", np.int32, (MAX_PLAYERS,)),
    ("award", np.int32, (MAX_PLAYERS,)),
    ("loaded_final", np.int32, (MAX_PLAYERS,)),    # cubes loaded in the last scoring (AMB-19 switch)
    # greedy's plan for the action step it chose (policies.py)
    ("plan_card", np.int32),
    ("plan_code", np.int32),
    ("plan_slot", np.int32),
    ("plan_load", np.int32, (4,)),                 # DEC-11 parts
    ("plan_ok", np.int32),                         # 1 while plan_* describe the action under way: its
                                                   # DEC-1 was greedy's own (playout.decide clears it)
    ("scratch", np.int32, (N_HOLD,)),              # a principality greedy looks ahead on
    ("moves", np.int32, (MAX_OPTIONS,)),
    ("slot_worth", np.float64, (MAX_DISPLAY,)),    # greedy: what each display card would add
    ("rival", np.int32, (MAX_PLAYERS,)),           # greedy: the strength each other player can reach           # option moves listed while a decision is open
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


def cards_in_play(data, players):
    """The S1 cards, the S2 cards and each year's deck (scoring cards included) for this player
    count: a card with marker m is used iff m == 0 or m <= players (PR-3.2)."""
    used = [c for c in range(data.n_cards) if data.card_marker[c] == 0 or data.card_marker[c] <= players]
    s1 = [c for c in used if data.card_start[c] == 1][:players]
    s2 = [c for c in used if data.card_start[c] == 2]
    decks = [[c for c in used if data.card_start[c] == 0 and data.card_year[c] == y] for y in (1, 2, 3)]
    return s1, s2, decks


def new_tables(data, players):
    """The tables record of a data set (components.PrincipatoData) for one player count."""
    tt = np.zeros(1, dtype=TABLES).view(np.recarray)
    t = tt[0]
    t.rules[:] = data.rule_values
    t.players = players
    t.display_size = data.display_size[players]
    t.supply[:] = data.supply
    t.food_per_farm, t.money_per_bank, t.church_favour = data.food_per_farm, data.money_per_bank, data.church_favour
    t.start_holdings[:] = data.start_holdings
    t.rank_vp[:] = data.rank_vp[players]
    t.strength_catapult, t.strength_loaded, t.strength_empty = (
        data.strength_catapult, data.strength_loaded, data.strength_empty)
    n_effects = len(data.effect_ids)
    t.effect_kind[:n_effects] = data.effect_kind
    t.effect_n_options[:n_effects] = data.effect_n_options
    t.effect_pay[:n_effects] = data.effect_pay
    t.effect_gain[:n_effects] = data.effect_gain
    t.effect_per[:n_effects] = data.effect_per
    t.effect_cube[:n_effects] = data.effect_cube
    t.effect_unit[:n_effects] = data.effect_unit
    t.n_cards = data.n_cards
    t.card_effect[:data.n_cards] = data.card_effect
    t.card_exchange[:data.n_cards] = data.card_exchange
    t.card_scoring[:data.n_cards] = data.card_scoring
    s1, s2, decks = cards_in_play(data, players)
    t.s1_cards[:len(s1)] = s1
    t.n_s2 = len(s2)
    t.s2_cards[:len(s2)] = s2
    for y, deck in enumerate(decks):
        t.deck_size[y] = len(deck)
        t.deck_cards[y, :len(deck)] = deck
    t.culture_values[:, :] = data.culture_values
    n_goals = len(data.goal_ids)
    t.n_goals = n_goals
    t.goal_deck[:n_goals] = data.goal_deck
    t.goal_kind[:n_goals] = data.goal_kind
    t.goal_tiles[:n_goals] = data.goal_tiles
    t.goal_threshold[:n_goals] = data.goal_threshold
    t.goal_vp_each[:n_goals] = data.goal_vp_each
    t.goal_divisor[:n_goals] = data.goal_divisor
    t.goal_rounding[:n_goals] = data.goal_rounding
    t.goal_table[:n_goals] = data.goal_table
    t.goal_category[:n_goals] = [CAT_GOALS + GOAL_CATEGORIES.index(g.lower()) for g in data.goal_ids]
    return tt
