"""Principato as one seat sees it, and its moves in words: the step API's part of the game
(simcore/step.py).

What a seat sees (docs/principato.md, Hidden information). The rulebook hides only the goal cards
and the order of the face-down decks (HI-4), so the observation holds everything else, for every
seat alike (HI-3): the year, the turn and its action step, whose turn it is and who decides what,
the start player, every principality (tiles, culture tokens, stored and loaded cubes), every hand
(hands are face up, PR-0.8), the display, the supply, the culture stacks, the box, the VP so far
and, during a military scoring, its order (PR-14.1) and, once awarded, the strengths and awards.
Of the decks it holds what each still contains, card by card name, the scoring cards included
(HI-2: the composition is public, the order is not). The seat's own two goal cards are in it;
the others' are not until the game is over, when they are shown (HI-1); undealt goal cards never
are. This is exactly what `policies.determinize` leaves alone: it redraws the deck orders and the
other seats' goal cards and nothing else (HI-5).

Cards are named as a player reads them (describe.card_names): copies of a card share a name and
nothing turns on which copy is which, so the observation never shows a card's instance id, which
would tell copies apart that the players cannot. Nothing of the random streams, the policies or
greedy's plans is shown.

The action space. Every decision point numbers its options from 0, and the game's space is the
largest of these, so an id means something only together with its decision point (which the
observation names):
- an action kind (DEC-1): its value, A 0, B 1, C 2, END_TURN 3;
- a hand card (DEC-2): its position 0 or 1;
- a count (DEC-5 recruit, DEC-6 overflow, DEC-11 load, DEC-12 discard): the count, 0 .. the unit
  pool (no count can exceed it);
- a display slot (DEC-7): the slot; a token (DEC-8): its stack position;
- action B (DEC-9), D(D+1) patterns: one card (h, s) as h*D + s; two cards (s0 gets hand card 0,
  s1 hand card 1, s0 != s1) as 2D + s0*(D-1) + the place of s1 among the slots other than s0
  (rules.swap_options's code 2D + s0*D + s1 has gaps where s0 = s1);
- a favour's place (DEC-10): TO_MILITIA 0, TO_CONDOTTIERE 1, LOSE 2;
- a card's option with its payment (DEC-3, DEC-4; rules.pay_code's code of the option o and the
  triple (f, m, v)): numbered within the card's effect (the decision's context), option by option,
  each option's payments by f = 0 .. its food cost, then m = 0 .. its money cost (the favour v is
  the rest of the cost, PR-9.2); a gain option is one id.
With the shipped data the space has 38, 42 and 56 ids for 2, 3 and 4 players: the counts 0 .. 37
(37 units in the pool), action B's 42 and 56 patterns for displays of 6 and 7.
"""
from dataclasses import dataclass

import numpy as np

from simcore.boardgames.principato.components import CULTURE, GOODS, K_BUY, K_GAIN, K_PRODUCE, SUPPLY
from simcore.boardgames.principato.describe import FAVOUR_PLACES, card_names, in_words, swap_words
from simcore.boardgames.principato.state import (
    CATEGORIES, D_CARD, D_CULTURE, D_DISCARD, D_EXCHANGE, D_EXCHANGE_B, D_FAVOUR, D_KIND, D_LOAD, D_OPTION,
    D_OVERFLOW, D_RECRUIT, H_FOOD, N_HOLD, PAY_SHIFT, S_UNITS, YEARS, cards_in_play)

DECISIONS = {
    D_KIND: "action",          # DEC-1: A, B, C or END_TURN
    D_CARD: "card",            # DEC-2: which hand card to activate
    D_OPTION: "option",        # DEC-3/DEC-4: the card's option with its payment
    D_RECRUIT: "recruit",      # DEC-5: how many units
    D_OVERFLOW: "overflow",    # DEC-6: how many overflow cubes onto units
    D_EXCHANGE: "exchange",    # DEC-7: the display slot an exchange card is swapped with
    D_CULTURE: "culture",      # DEC-8: which token of a stack (culture_take = choose)
    D_EXCHANGE_B: "swap",      # DEC-9: action B's cards and slots
    D_FAVOUR: "favour",        # DEC-10: where the favour of action C goes with a full church
    D_LOAD: "load",            # DEC-11 (and DEC-13): cubes onto units
    D_DISCARD: "discard",      # DEC-12: units back to the pool
}
POINTS = tuple(DECISIONS)                     # the decision points in a fixed order (the tensor's)

KINDS = ("activates a card (A)", "exchanges cards (B)", "takes a favour (C)", "ends the turn")
# the holdings as the observation names them (state.H_* order)
HOLDINGS = ("field", "farm", "palazzo", "bank", "catapult", "monument", "book", "painting", "food", "money",
            "favour", "militia", "militia_food", "militia_favour", "condottiere", "condottiere_money",
            "condottiere_favour")
PLURAL = {"field": "fields", "farm": "farms", "palazzo": "palazzi", "bank": "banks", "catapult": "catapults",
          "monument": "monuments", "book": "books", "painting": "paintings", "food": "food", "money": "money"}
LOADS = ("food onto militia", "favour onto militia", "money onto condottieri", "favour onto condottieri")
DISCARDS = ("militia", "condottieri")
UNIT_WORDS = ("militia", "condottieri")       # describe's plural for a count of units
PAY_MASK = (1 << PAY_SHIFT) - 1


# ---------------------------------------------------------------- what the data fixes

@dataclass(frozen=True)
class Layout:
    """What the data and the player count fix: the card names, the decks' sizes, the action space
    per decision point and the tensor's sections."""
    players: int
    display: int                  # D, the display's slots
    names: list                   # describe.card_names: a card index -> its name
    kinds: list                   # the distinct names, in card order (the tensor's card one-hots)
    kind_of: list                 # a card index -> its place in kinds
    deck_sizes: tuple             # each year's deck, scoring cards included
    scorings: int                 # the scorings of a game: 3 + the scoring cards in play (PR-4.3)
    option_base: list             # per effect, per option: its first id among the effect's (DEC-3/4)
    sizes: dict                   # decision point -> how many ids its options use
    sections: tuple               # (name, length) of each part of the tensor, in order


_LAYOUTS = {}


def layout(data, players) -> Layout:
    """The Layout of a data set and player count (built once; the data object is kept with it so
    that its id is not reused)."""
    key = (id(data), players)
    if key not in _LAYOUTS:
        _LAYOUTS[key] = (data, make_layout(data, players))
    return _LAYOUTS[key][1]


def make_layout(data, players) -> Layout:
    names = card_names(data)
    kinds = list(dict.fromkeys(names))
    _, _, decks = cards_in_play(data, players)
    scorings = YEARS + sum(int(data.card_scoring[c]) for deck in decks for c in deck)
    display = int(data.display_size[players])
    option_base, widest = payment_ids(data)
    counts = int(data.supply[S_UNITS]) + 1     # a recruit, overflow, load or discard: 0 .. the unit pool
    sizes = {D_KIND: len(KINDS), D_CARD: 2, D_OPTION: widest, D_RECRUIT: counts, D_OVERFLOW: counts,
             D_EXCHANGE: display, D_CULTURE: int(max(data.culture_n)), D_EXCHANGE_B: display * (display + 1),
             D_FAVOUR: len(FAVOUR_PLACES) - 2, D_LOAD: counts, D_DISCARD: counts}
    n_effects = len(data.effect_ids)
    stack = int(max(data.culture_n))
    per_seat = N_HOLD + 1 + len(CATEGORIES) + 2 * len(kinds) + len(data.goal_ids)
    contexts = max(n_effects, len(kinds), len(LOADS), 2)
    sections = (
        ("seat", players), ("start_player", players), ("current", players),
        ("year", YEARS), ("action_step", 3), ("progress", 4),
        ("seats", players * per_seat),
        ("display", display * (len(kinds) + 1)),
        ("decks", YEARS * len(kinds)),
        ("supply", len(SUPPLY)),
        ("culture_stacks", len(CULTURE) * stack),
        ("scoring", 1 + players * players + 2 * players),
        ("decision", len(POINTS) + players + contexts),
    )
    return Layout(players=players, display=display, names=names, kinds=kinds,
                  kind_of=[kinds.index(n) for n in names], deck_sizes=tuple(len(deck) for deck in decks),
                  scorings=scorings, option_base=option_base, sizes=sizes, sections=sections)


def payment_ids(data):
    """DEC-3/4: per effect, the first id of each option's payments, and the most ids an effect
    needs. A buy option costing (F food, M money) is paid by one triple per (f, m), f <= F, m <= M
    (the favour v is the rest, PR-9.2), so it takes (F + 1)(M + 1) ids; a gain option one id; a
    produce or recruit effect has the one option 0."""
    bases, widest = [], 1
    for e in range(len(data.effect_ids)):
        base, n = [], 0
        for o in range(int(data.effect_n_options[e])):
            base.append(n)
            if data.effect_kind[e] == K_BUY:
                n += (int(data.effect_pay[e, o, 0]) + 1) * (int(data.effect_pay[e, o, 1]) + 1)
            else:
                n += 1
        bases.append(base)
        widest = max(widest, n)
    return bases, widest


def num_distinct_actions(data, players) -> int:
    """N: the ids of the decision point that needs most (with the shipped data: 38, 42, 56 for 2,
    3, 4 players)."""
    return max(layout(data, players).sizes.values())


# ---------------------------------------------------------------- actions

def decode_payment(code):
    """A DEC-3/4 code (rules.pay_code) as (option, food, money, favour)."""
    return tuple((code >> (PAY_SHIFT * i)) & PAY_MASK for i in range(4))


def action_id(data, players, decision, value) -> int:
    """The option `value` of this decision as an id in [0, N): the value itself, except a card's
    option with its payment (DEC-3/4), numbered within its effect (the decision's context)."""
    lay = layout(data, players)
    point, value = decision.point, int(value)
    if point == D_OPTION:
        e = decision.context
        o, f, m, _ = decode_payment(value)
        if data.effect_kind[e] != K_BUY:
            a = lay.option_base[e][o] if o < len(lay.option_base[e]) else -1
        else:
            a = lay.option_base[e][o] + f * (int(data.effect_pay[e, o, 1]) + 1) + m
    elif point == D_EXCHANGE_B:
        a = swap_id(lay.display, value)
    else:
        a = value
    if not 0 <= a < lay.sizes[point]:
        raise ValueError(f"option {value} of decision {DECISIONS[point]} is outside its {lay.sizes[point]} ids")
    return a


def swap_id(d, code):
    """Action B's pattern (rules.swap_options) without the gaps of its code: one card h*D + s as
    it is, two cards (s0, s1), s0 != s1, coded 2D + s0*D + s1, as 2D + s0*(D-1) + s1's place among
    the slots other than s0."""
    if code < 2 * d:
        return code
    s0, s1 = divmod(code - 2 * d, d)
    if s0 == s1:
        return -1
    return 2 * d + s0 * (d - 1) + (s1 if s1 < s0 else s1 - 1)


def gain_words(data, e, o):
    """What option o of effect e gives: '2 banks', '1 food and 1 money'."""
    gain = data.effect_gain[e, o]
    parts = [f"{int(gain[g])} {PLURAL[GOODS[g]] if gain[g] > 1 else GOODS[g]}" for g in range(len(GOODS)) if gain[g]]
    return " and ".join(parts) or "nothing"


def option_words(data, e, code):
    """DEC-3/4 in words, with describe's wording of a payment (EV_PAY)."""
    name = in_words(data.effect_ids[e])
    o, f, m, v = decode_payment(code)
    kind = data.effect_kind[e]
    if kind == K_BUY:
        return f"{name} option {o + 1} ({gain_words(data, e, o)}): pays {f} food, {m} money, {v} favour"
    if kind == K_GAIN:
        return f"{name} option {o + 1}: {gain_words(data, e, o)}"
    if kind == K_PRODUCE:
        return f"{name}: produces"
    return f"{name}: recruits"


def action_to_string(data, players, st, decision, value) -> str:
    """The option in words, as a replay words the move (describe.py), without the seat's name."""
    lay = layout(data, players)
    point, ctx, value, p = decision.point, decision.context, int(value), decision.seat
    names = lay.names
    if point == D_KIND:
        return KINDS[value]
    if point == D_CARD:
        return f"activates {names[int(st['hand'][p][value])]}"
    if point == D_OPTION:
        return option_words(data, ctx, value)
    if point == D_RECRUIT:
        return f"recruits {value} {UNIT_WORDS[int(data.effect_unit[ctx])]}"
    if point == D_OVERFLOW:
        cube, units = ("food", "militia") if ctx == H_FOOD else ("money", "condottieri")
        return f"puts {value} overflow {cube} onto {units}, the rest is lost"
    if point == D_EXCHANGE:
        return f"exchanges {names[ctx]} for {names[int(st['display'][value])]} from slot {value}"
    if point == D_CULTURE:
        return f"takes a {CULTURE[ctx]} worth {int(data.culture_values[ctx, value])} VP"
    if point == D_EXCHANGE_B:
        hand = st["hand"][p]
        return swap_words(names, value, int(hand[0]), int(hand[1]), lay.display)
    if point == D_FAVOUR:
        return f"takes a favour: {FAVOUR_PLACES[value + 2]}"
    if point == D_LOAD:
        cube, units = LOADS[ctx].split(" onto ")
        return f"loads {value} {cube} onto {units}"
    if point == D_DISCARD:
        return f"discards {value} {DISCARDS[ctx]}"
    raise ValueError(f"unknown decision point {point}")


# ---------------------------------------------------------------- what a seat sees

def game_over(lay, st, decision):
    """No decision is open and every scoring has begun: the last one asks nothing after its load
    step, so the game has ended and the goal cards are shown (HI-1)."""
    return decision is None and int(st["scorings"]) >= lay.scorings and int(st["round_no"]) == YEARS


def goals_seen(st, seat, q, over):
    """The goal cards of seat q that `seat` knows: its own, and everyone's once the game is over
    (HI-1); None for another seat's during the game."""
    if q == seat or over:
        return [int(g) for g in st["goals"][q]]
    return None


def goal_names(data, goals):
    return None if goals is None else [in_words(data.goal_ids[g]) for g in goals]


def deck_left(lay, st):
    """Per year, the cards its deck still holds, by index (HI-2): none of a year gone by, the
    undrawn part of this year's deck, the whole deck of a year to come. Their order is hidden, so
    callers only count them."""
    year = int(st["round_no"])
    left = []
    for y in range(YEARS):
        if y + 1 < year:
            left.append([])
        elif y + 1 == year:
            left.append([int(c) for c in st["deck"][int(st["deck_pos"]):int(st["deck_n"])]])
        else:
            left.append([int(c) for c in st["decks"][y][:lay.deck_sizes[y]]])
    return left


def in_scoring(st, decision):
    """A military scoring's load or discard step is under way (DEC-13's loads come in a turn)."""
    return decision is not None and decision.point in (D_LOAD, D_DISCARD) and int(st["action_step"]) == 0


def awarded(decision):
    """The scoring's strengths and awards are settled: its discard step (PR-14.4 to PR-14.8)."""
    return decision is not None and decision.point == D_DISCARD


def context_words(data, lay, decision):
    point, ctx = decision.point, decision.context
    if point == D_KIND:
        return f"action {ctx} of the turn"
    if point in (D_OPTION, D_RECRUIT):
        return in_words(data.effect_ids[ctx])
    if point == D_OVERFLOW:
        return "food" if ctx == H_FOOD else "money"
    if point == D_EXCHANGE:
        return lay.names[ctx]
    if point == D_CULTURE:
        return CULTURE[ctx]
    if point == D_LOAD:
        return LOADS[ctx]
    if point == D_DISCARD:
        return DISCARDS[ctx]
    return ""


def observation(data, players, st, seat, decision) -> dict:
    """All that `seat` may know now, in plain JSON types (see the module's docstring)."""
    lay = layout(data, players)
    over = game_over(lay, st, decision)
    names = lay.names
    hold = st["hold"]
    obs = {
        "seat": seat,
        "players": players,
        "year": int(st["round_no"]),
        "turn": int(st["turn"]),
        "action_step": int(st["action_step"]),
        "current": int(st["current"]),
        "start_player": int(st["sp"]),
        "scorings": int(st["scorings"]),
        "scorings_in_game": lay.scorings,
        "game_over": over,
        "decision": None,
        "scores": [int(v) for v in st["vp"][:players]],
        "points": [{c: int(st["pts"][q][i]) for i, c in enumerate(CATEGORIES)} for q in range(players)],
        "principalities": [{h: int(hold[q][i]) for i, h in enumerate(HOLDINGS)} for q in range(players)],
        "hands": [[names[int(c)] for c in st["hand"][q]] for q in range(players)],
        "goals": [goal_names(data, goals_seen(st, seat, q, over)) for q in range(players)],
        "display": [names[int(c)] if c >= 0 else None for c in st["display"][:lay.display]],
        "decks": [count_names(names, cards) for cards in deck_left(lay, st)],
        "boxed": int(st["boxed"]),
        "supply": {s: int(st["supply"][i]) for i, s in enumerate(SUPPLY)},
        "culture_stacks": {t: [int(data.culture_values[i, k]) for k in range(int(data.culture_n[i]))
                               if st["token_left"][i][k]] for i, t in enumerate(CULTURE)},
        "scoring": None,
    }
    if decision is not None:
        obs["decision"] = {"seat": int(decision.seat), "point": DECISIONS[decision.point],
                           "context": int(decision.context), "about": context_words(data, lay, decision)}
    if in_scoring(st, decision):
        obs["scoring"] = {"order": [int(q) for q in st["order"][:players]]}
        if awarded(decision):
            obs["scoring"]["strength"] = [int(v) for v in st["strength"][:players]]
            obs["scoring"]["award"] = [int(v) for v in st["award"][:players]]
    return obs


def count_names(names, cards):
    """{card name: copies}, in the order the names first appear among the cards' indexes."""
    counts = {}
    for c in sorted(cards):
        counts[names[c]] = counts.get(names[c], 0) + 1
    return counts


# ---------------------------------------------------------------- the same as numbers

def tensor_size(data, players) -> int:
    return sum(n for _, n in layout(data, players).sections)


def one_hot(n, i):
    v = np.zeros(n, dtype=np.float32)
    if i is not None and 0 <= i < n:
        v[i] = 1
    return v


def context_index(lay, decision):
    """The decision's context as a small index: the action step (1, 2 -> 0, 1), the effect, the
    cube (food 0, money 1), the exchanged card's name, the stack, the load or discard part."""
    point, ctx = decision.point, decision.context
    if point == D_KIND:
        return ctx - 1
    if point == D_OVERFLOW:
        return 0 if ctx == H_FOOD else 1
    if point == D_EXCHANGE:
        return lay.kind_of[ctx]
    if point in (D_OPTION, D_RECRUIT, D_CULTURE, D_LOAD, D_DISCARD):
        return ctx
    return None


def observation_tensor(data, players, st, seat, decision) -> np.ndarray:
    """observation() as float32 counts and one-hots. Seats are listed from `seat` on, clockwise
    (row r is seat (seat + r) mod P), so a network sees itself first; `seat` gives its number."""
    lay = layout(data, players)
    over = game_over(lay, st, decision)
    k = len(lay.kinds)
    rel = [(seat + r) % players for r in range(players)]          # row -> seat
    row_of = {q: r for r, q in enumerate(rel)}
    n_goals = len(data.goal_ids)
    parts = {
        "seat": one_hot(players, seat),
        "start_player": one_hot(players, row_of[int(st["sp"])]),
        "current": one_hot(players, row_of[int(st["current"])]),
        "year": one_hot(YEARS, int(st["round_no"]) - 1),
        "action_step": one_hot(3, int(st["action_step"])),
        "progress": np.array([st["turn"], st["scorings"], st["boxed"], over], dtype=np.float32),
    }
    seats = []
    for q in rel:
        hand = np.concatenate([one_hot(k, lay.kind_of[int(c)]) for c in st["hand"][q]])
        goals = np.zeros(n_goals, dtype=np.float32)
        for g in goals_seen(st, seat, q, over) or ():
            goals[g] = 1
        seats += [st["hold"][q].astype(np.float32), np.array([st["vp"][q]], dtype=np.float32),
                  st["pts"][q].astype(np.float32), hand, goals]
    parts["seats"] = np.concatenate(seats)
    parts["display"] = np.concatenate([one_hot(k + 1, lay.kind_of[int(c)] if c >= 0 else k)
                                       for c in st["display"][:lay.display]])
    decks = np.zeros((YEARS, k), dtype=np.float32)
    for y, cards in enumerate(deck_left(lay, st)):
        for c in cards:
            decks[y, lay.kind_of[c]] += 1
    parts["decks"] = decks.ravel()
    parts["supply"] = st["supply"].astype(np.float32)
    stack = int(max(data.culture_n))
    tokens = np.zeros((len(CULTURE), stack), dtype=np.float32)
    for t in range(len(CULTURE)):
        n = int(data.culture_n[t])
        tokens[t, :n] = st["token_left"][t][:n]
    parts["culture_stacks"] = tokens.ravel()
    scoring = np.zeros(1 + players * players + 2 * players, dtype=np.float32)
    if in_scoring(st, decision):
        scoring[0] = 1
        place = np.zeros((players, players), dtype=np.float32)          # place i -> row of its seat
        for i, q in enumerate(st["order"][:players]):
            place[i, row_of[int(q)]] = 1
        scoring[1:1 + players * players] = place.ravel()
        if awarded(decision):
            scoring[1 + players * players:] = np.concatenate(
                [[st["strength"][q] for q in rel], [st["award"][q] for q in rel]])
    parts["scoring"] = scoring
    contexts = lay.sections[-1][1] - len(POINTS) - players
    if decision is None:
        parts["decision"] = np.zeros(lay.sections[-1][1], dtype=np.float32)
    else:
        parts["decision"] = np.concatenate([one_hot(len(POINTS), POINTS.index(decision.point)),
                                            one_hot(players, row_of[int(decision.seat)]),
                                            one_hot(contexts, context_index(lay, decision))])
    out = []
    for name, n in lay.sections:
        assert parts[name].shape == (n,), (name, parts[name].shape, n)
        out.append(parts[name])
    return np.concatenate(out).astype(np.float32)
