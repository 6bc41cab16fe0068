"""Strasbourg as one seat sees it, and its moves in words: the step API's part of the game
(simcore/step.py).

What a seat sees (SB-16, the same line policies.determinize draws for the search players):

- public (SB-16.1, SB-16.2): the round and phase, the start player, the round cards and their
  buildings in play order (SB-3.1, SB-3.2), the council, the city, the built chapels and
  buildings, every player's VP by category, coins, goods and privileges (the screens hide
  nothing the history does not tell, SB-16.2), deck size, cards out of the game, how many cards
  they drew this round and the count and sizes of their bundles; every revealed bundle and bid;
  the returned cards at the bottom of each deck, in the order returned (SB-9.2, SB-16.3.1), and
  those drawn again this round; from the 4 x (1-6) deck and all that was shown, the multiset of
  each player's cards nobody else has seen (SB-16.3.4);
- the seat's own (SB-16.4): its drawn cards and the contents of its bundles, the multiset of its
  deck (but not its order: SB-16.3.1 hides it from the owner too), the 5 task cards it was dealt
  and those it kept (SB-16.3.3).

Hidden, so never read for another seat: their cards in unrevealed bundles (SB-16.3.2), every
deck's order but for the returned cards (SB-16.3.1), the task cards dealt to the others, which
and how many they kept (SB-16.3.3: not even at the end, where only the scores show), the undealt
task cards, and the random streams. Who passed or waited with a privilege in the sub-phase under
way is public but only the move log keeps it: it is shown when the record keeps its log
(st.logging), as None otherwise.

Actions: one fixed space for all decisions, ids reused across decision points (action_id).
"""
import numpy as np

from simcore.boardgames.strasbourg.components import CARDS_PER_GUILD, N_BUILDINGS, N_SITES, ROUNDS
from simcore.boardgames.strasbourg.describe import bundle_cards, cell
from simcore.boardgames.strasbourg.state import (
    CARD_VALUES, CATEGORIES, D_APPRENTICE, D_BID, D_BUILD, D_CHAPEL, D_DRAW, D_MASTER_BUY, D_MASTER_PART,
    D_RETURN, D_SELL, D_TASKS, DECK_SLOTS, DRAW, EV_BID, EV_PRIVILEGE, EV_SUBPHASE, MAX_DECK,
    N_CELLS, N_SEATS, N_TASK_CARDS, PASS, PRIVILEGE, SUBPHASES, TASKS_DEALT)

DECISIONS = {
    D_TASKS: "tasks",              # D-1: which dealt task cards to keep
    D_DRAW: "draw",                # D-2: draw another influence card or stop
    D_BID: "bid",                  # D-4: reveal a bundle, pass, or wait with a privilege
    D_RETURN: "return",            # D-5: the card a revealer not entitled puts under the deck
    D_MASTER_BUY: "purchase",      # D-6: the Master's or Journeyman's purchase, or none
    D_APPRENTICE: "apprentice",    # D-7: the Apprentice's goods tile or purchase
    D_SELL: "sale",                # D-8: how many goods of one guild to sell
    D_CHAPEL: "chapel",            # D-9: the chapel spot
    D_BUILD: "building",           # D-10: the building site
    D_MASTER_PART: "master_part",  # D-11: take the seat / the goods tile (MASTER_PARTS_OPTIONAL)
}

# Action ids. Cells keep their number (row * 9 + col) and "no purchase" / "the goods tile" is
# the one id after them; a bid's bundle keeps its index, pass and privilege follow the 24 a hand
# may hold; a task choice's bit mask 1..31 is mask - 1; every other value is its own id.
PASS_ID, PRIVILEGE_ID = MAX_DECK, MAX_DECK + 1
NOT_A_CELL_ID = N_CELLS
BIDDING_POINTS = (D_BID, D_RETURN, D_MASTER_BUY, D_APPRENTICE, D_SELL, D_MASTER_PART)   # sub-phases A-G
PHASES = ("setup", "planning") + tuple(SUBPHASES) + ("round end", "game over")


def action_ranges(data):
    """How many ids each decision point uses: its ids are 0 .. range - 1."""
    return {
        D_TASKS: 2 ** TASKS_DEALT - 1,
        D_DRAW: 2,
        D_BID: MAX_DECK + 2,
        D_RETURN: CARD_VALUES + 1,               # 0 is "none" (ALLOW_DOMINATED_RETURN)
        D_MASTER_BUY: N_CELLS + 1,
        D_APPRENTICE: N_CELLS + 1,
        D_SELL: CARDS_PER_GUILD + 1,             # a guild's goods come one per sub-phase of that guild
        D_CHAPEL: data.chapel_cadj.shape[0],
        D_BUILD: N_CELLS,
        D_MASTER_PART: 2,
    }


def num_distinct_actions(data, players):
    """The action space: the widest decision's ids, 55 (54 cells and "none") unless the data has more chapel spots."""
    return max(action_ranges(data).values())


def action_id(data, players, decision, value):
    value = int(value)
    point = decision.point
    if point == D_TASKS:
        return value - 1
    if point == D_BID:
        return {PASS: PASS_ID, PRIVILEGE: PRIVILEGE_ID}.get(value, value)
    if point in (D_MASTER_BUY, D_APPRENTICE) and value < 0:   # NO_BUY, GOODS
        return NOT_A_CELL_ID
    return value


# ---------------------------------------------------------------- moves in words (describe.py's)

def action_to_string(data, players, st, decision, value):
    value, p, ctx = int(value), decision.seat, decision.context
    point = decision.point
    if point == D_TASKS:
        kept = [data.task_names[int(st.dealt[p, i])] for i in range(TASKS_DEALT) if value >> i & 1]
        return f"keeps {len(kept)} task card(s): " + "; ".join(kept)
    if point == D_DRAW:
        return "draws another card" if value == DRAW else "stops drawing"
    if point == D_BID:
        if value == PASS:
            return "passes"
        if value == PRIVILEGE:
            return "spends a privilege to wait"
        return f"reveals bundle {value + 1}: {bundle_cards(int(st.bundle_key[p, value]))} = {int(st.bundle_sum[p, value])}"
    if point == D_RETURN:
        return f"puts a {value} under the deck" if value > 0 else "returns no card"
    if point in (D_MASTER_BUY, D_APPRENTICE):
        if value >= 0:
            return f"buys {cell(value)} for {int(data.cell_price[value])}"
        return "buys nothing" if point == D_MASTER_BUY else f"takes {data.guild_names[ctx]} goods"
    if point == D_SELL:
        guild = data.guild_names[ctx]
        return f"sells {value} {guild} goods for {value * int(data.goods_value[ctx, 0])}" if value else \
            f"sells no {guild} goods"
    if point == D_CHAPEL:
        return f"builds a chapel on spot {value}"
    if point == D_BUILD:
        return f"builds the {data.building_names[int(st.round_building[st.round_no - 1])]} on {cell(value)}"
    if point == D_MASTER_PART:
        return master_part_words(data, players, st, p, ctx, value)
    raise ValueError(f"unknown decision point {point}")


def master_part_words(data, players, st, p, g, value):
    """D-11: a Journeyman is asked only for the goods tile; a Master for the seat, then the
    goods tile, with the same record and context both times, so its words name both."""
    verb = "takes" if value else "declines"
    ranks = ranking(st)
    role = ranks.index(p) * (1 if players >= 4 else 2) if p in ranks else 0
    if role == 1:
        return f"{verb} the {data.guild_names[g]} goods tile"
    return f"{verb} the Master's part offered: the {data.guild_names[g]} seat, then its goods tile"


# ---------------------------------------------------------------- what the seat sees

def observation(data, players, st, seat, decision):
    phase = phase_of(st, decision)
    return {
        "players": players,
        "seat": seat,
        "round": int(st.round_no),
        "phase": phase,
        "start_player": int(st.sp),
        "decision": None if decision is None else {
            "seat": int(decision.seat), "point": DECISIONS[decision.point], "context": int(decision.context)},
        "round_cards": [{"round": r + 1, "card": data.round_card_ids[int(st.round_card[r])],
                         "guilds": [data.guild_names[int(g)] for g in data.card_guilds[int(st.round_card[r])]],
                         "building": data.building_names[int(st.round_building[r])]} for r in range(ROUNDS)],
        "council": {data.council_seats[s]: owner(st.seat_owner[s]) for s in range(N_SEATS)},
        "city": [owner(st.cell_owner[c]) for c in range(N_CELLS)],
        "buildings": {cell(int(c)): data.building_names[int(st.site_building[c])]
                      for c in data.sites if st.site_building[c] >= 0},
        "chapels": [k for k in range(data.chapel_cadj.shape[0]) if st.chapel[k]],
        "table": [player_view(data, st, q, q == seat) for q in range(players)],
        "bidding": bidding_view(st, players, decision),
        "own": own_view(data, st, seat),
    }


def owner(value):
    return int(value) if value >= 0 else None


def phase_of(st, decision):
    """setup (D-1), planning (D-2), a sub-phase A-I, or between rounds / over when no one decides
    (st.subphase is stale while planning, so the decision point tells the phase)."""
    if decision is None:
        return "round end" if st.halted else "game over"
    if decision.point == D_TASKS:
        return "setup"
    if decision.point == D_DRAW:
        return "planning"
    return SUBPHASES[int(st.subphase)]


def player_view(data, st, q, own):
    """Seat q as everyone sees it; with own, also the contents of q's unrevealed bundles."""
    return {
        "vp": int(st.vp[q]),
        "points": {name: int(st.pts[q, i]) for i, name in enumerate(CATEGORIES)},
        "coins": int(st.coins[q]),
        "goods": [int(x) for x in st.goods[q]],
        "privileges": int(st.privileges[q]),
        "city_members": int((st.cell_owner == q).sum()),
        "council_seats": int((st.seat_owner == q).sum()),
        "deck_size": int(st.deck_n[q]),
        "deck_bottom": deck_bottom(st, q),
        "cards_out": int(st.boxed[q]),
        "cards_drawn": int(st.hand_n[q]),
        "drawn_again": value_counts(st.drawn_known[q, 1:]),
        "cards_shown": value_counts(st.shown[q, 1:]),
        "cards_unseen": unseen_cards(data, st, q),
        "bundles": [bundle_view(st, q, b, own) for b in range(int(st.n_bundles[q]))],
    }


def value_counts(counts):
    """A count per card value 1..6, as a list."""
    return [int(x) for x in counts]


def deck_bottom(st, q):
    """The returned cards under q's deck, top-most first: the only deck places anyone knows
    (SB-16.3.1). They always lie below every unknown card (returns go under the deck, draws come
    off the top)."""
    slots = [(int(st.deck_top[q]) + k) % DECK_SLOTS for k in range(int(st.deck_n[q]))]
    return [int(st.deck[q, s]) for s in slots if st.deck_known[q, s]]


def unseen_cards(data, st, q):
    """q's cards nobody else has seen, by value: in its deck's unknown places, its unrevealed
    bundles or face down out of the game (SB-16.3.4; policies.redraw_cards' count)."""
    unseen = np.bincount(data.influence_cards, minlength=CARD_VALUES + 1)[1:] - st.shown[q, 1:]
    for v in deck_bottom(st, q):
        unseen[v - 1] -= 1
    in_hand = st.drawn_known[q, 1:] - revealed_this_round(st, q)
    return value_counts(unseen - np.maximum(in_hand, 0))


def revealed_this_round(st, q):
    counts = np.zeros(CARD_VALUES, np.int64)
    for i in range(int(st.hand_n[q])):
        if not st.bundle_open[q, st.hand_bundle[q, i]]:
            counts[st.hand[q, i] - 1] += 1
    return counts


def bundle_view(st, q, b, own):
    """A bundle's size, and its cards once revealed (or to its owner)."""
    revealed = not st.bundle_open[q, b]
    view = {"size": int(st.bundle_size[q, b]), "revealed": revealed}
    if revealed or own:
        view["cards"] = bundle_cards(int(st.bundle_key[q, b]))
    return view


def bidding_view(st, players, decision):
    """The sub-phase under way (A-G): each seat's bid so far, the moves in order (from the move
    log, None without it) and, once the bids are in, the ranking (SB-7.6)."""
    if decision is None or decision.point not in BIDDING_POINTS:
        return None
    return {
        "bids": [int(st.bid[q]) if st.bid[q] >= 0 else None for q in range(players)],
        "moves": subphase_moves(st),
        "ranking": ranking(st) if decision.point != D_BID else None,
    }


def subphase_moves(st):
    """reveal / pass / privilege by seat, in the order made since the sub-phase began."""
    if not st.logging:
        return None
    moves = []
    for e in st.ev[:int(st.n_events)]:
        code, seat, a = int(e[0]), int(e[2]), int(e[3])
        if code == EV_SUBPHASE:
            moves = []
        elif code == EV_BID:
            moves.append({"seat": seat, "move": "reveal" if a >= 0 else "pass"})
        elif code == EV_PRIVILEGE:
            moves.append({"seat": seat, "move": "privilege"})
    return moves


def ranking(st):
    """The revealers of the sub-phase best first (st.ranked: valid once the bids are in)."""
    revealers = int((st.bid[:int(st.players)] >= 0).sum())
    return [int(p) for p in st.ranked[:revealers]]


def own_view(data, st, seat):
    """What only `seat` knows: its drawn cards, its deck's cards (not their order) and its tasks."""
    deck = np.zeros(CARD_VALUES, np.int64)
    for k in range(int(st.deck_n[seat])):
        slot = (int(st.deck_top[seat]) + k) % DECK_SLOTS
        deck[st.deck[seat, slot] - 1] += 1
    hand = np.zeros(CARD_VALUES, np.int64)
    for i in range(int(st.hand_n[seat])):
        hand[st.hand[seat, i] - 1] += 1
    return {
        "hand": value_counts(hand),
        "deck": value_counts(deck),
        "tasks_dealt": [int(c) for c in st.dealt[seat] if c >= 0],
        "tasks_kept": [int(c) for c in st.tasks[seat] if c >= 0],
    }


# ---------------------------------------------------------------- the same as numbers

def tensor_size(data, players):
    return sum(size for _, size in tensor_layout(data, players))


def tensor_layout(data, players):
    """The tensor's blocks in order: (name, size)."""
    spots, cards = data.chapel_cadj.shape[0], len(data.influence_cards)
    per_player = (13                             # vp, coins, 5 goods, privileges, city, seats, deck, out, drawn
                  + len(CATEGORIES)              # points by category
                  + 3 * CARD_VALUES              # drawn again, shown, unseen: counts by value
                  + cards * CARD_VALUES          # the deck's known bottom, one-hot from the bottom up
                  + cards * (3 + CARD_VALUES)    # each bundle: exists, revealed, size, its cards if seen
                  + 5)                           # bid made, its sum, passes, privileges this sub-phase, rank
    return [
        ("phase", len(PHASES)), ("round", ROUNDS + 1), ("seat", players), ("start_player", players),
        ("decision_seat", players), ("decision_point", len(DECISIONS)), ("context", 1),
        ("round_cards", ROUNDS * (ROUNDS + N_BUILDINGS)),
        ("council", N_SEATS * players), ("city", N_CELLS * players),
        ("buildings", N_SITES * N_BUILDINGS), ("chapels", spots),
        ("table", players * per_player), ("moves_known", 1),
        ("own", 2 * CARD_VALUES + 2 * N_TASK_CARDS),
    ]


def observation_tensor(data, players, st, seat, decision):
    """observation() as float32: one-hots for who and which, counts as they are."""
    obs = observation(data, players, st, seat, decision)
    t = Tensor(tensor_size(data, players))
    t.one_hot(len(PHASES), PHASES.index(obs["phase"]))
    t.one_hot(ROUNDS + 1, obs["round"])
    t.one_hot(players, seat)
    t.one_hot(players, obs["start_player"])
    points = list(DECISIONS)
    t.one_hot(players, None if decision is None else decision.seat)
    t.one_hot(len(points), None if decision is None else points.index(decision.point))
    t.put([0 if decision is None else decision.context])
    for r in range(ROUNDS):
        t.one_hot(ROUNDS, int(st.round_card[r]))
        t.one_hot(N_BUILDINGS, int(st.round_building[r]))
    for s in range(N_SEATS):
        t.one_hot(players, owner(st.seat_owner[s]))
    for c in range(N_CELLS):
        t.one_hot(players, obs["city"][c])
    for c in data.sites:
        t.one_hot(N_BUILDINGS, owner(st.site_building[c]))
    chapels = np.zeros(data.chapel_cadj.shape[0])
    chapels[obs["chapels"]] = 1
    t.put(chapels)
    bidding = obs["bidding"] or {}
    moves = bidding.get("moves") or []
    ranks = bidding.get("ranking") or []
    for q, view in enumerate(obs["table"]):
        bid = (bidding.get("bids") or [None] * players)[q]
        t.put([view["vp"], view["coins"], *view["goods"], view["privileges"], view["city_members"],
               view["council_seats"], view["deck_size"], view["cards_out"], view["cards_drawn"]])
        t.put(list(view["points"].values()))
        t.put(view["drawn_again"] + view["cards_shown"] + view["cards_unseen"])
        bottom = np.zeros((len(data.influence_cards), CARD_VALUES))   # j-th card from the bottom
        for j, v in enumerate(reversed(view["deck_bottom"])):
            bottom[j, v - 1] = 1
        t.put(bottom.ravel())
        bundles = np.zeros((len(data.influence_cards), 3 + CARD_VALUES))
        for b, bundle in enumerate(view["bundles"]):
            bundles[b, :3] = (1, bundle["revealed"], bundle["size"])
            for v in bundle.get("cards", ()):
                bundles[b, 2 + v] += 1
        t.put(bundles.ravel())
        t.put([bid is not None, bid or 0, moves.count({"seat": q, "move": "pass"}),
               moves.count({"seat": q, "move": "privilege"}), ranks.index(q) + 1 if q in ranks else 0])
    t.put([bidding.get("moves") is not None])
    own = obs["own"]
    dealt, kept = np.zeros(N_TASK_CARDS), np.zeros(N_TASK_CARDS)
    dealt[own["tasks_dealt"]] = 1
    kept[own["tasks_kept"]] = 1
    t.put(own["hand"] + own["deck"])
    t.put(dealt)
    t.put(kept)
    return t.done()


class Tensor:
    """A float32 vector written block by block, in tensor_layout's order."""

    def __init__(self, size):
        self.v = np.zeros(size, np.float32)
        self.at = 0

    def put(self, values):
        values = np.asarray(values, np.float32).ravel()
        self.v[self.at:self.at + len(values)] = values
        self.at += len(values)

    def one_hot(self, n, index):
        """n places, a 1 at index (none when index is None)."""
        if index is not None:
            self.v[self.at + index] = 1
        self.at += n

    def done(self):
        assert self.at == len(self.v), (self.at, len(self.v))
        return self.v
