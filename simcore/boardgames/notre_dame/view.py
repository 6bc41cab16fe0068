"""Notre Dame as one seat sees it, and its moves in words: the step API's part of the game
(simcore/step.py).

What a seat sees (ND-17). Public (ND-17.1, ND-17.3): the board — every seat's cubes on its 7
buildings, confidant, personal and general supplies, cubes on Notre Dame, carriage, the message
tiles lying face up on the markets and those each seat took —, gold, VP and their score
categories, rats, the round and its start player, the three face-up persons, the persons shown
so far, who bribed whom this round, how far each seat is in the draft, how many cards each holds
after it and which deck (colour) each of them came from, and the counters of public events
(outbreaks, bribes, messages, forfeited cards). Private to the seat (ND-17.2): the cards it drew,
was passed and holds, the two it passed and the one it handed on, and the kinds of every deck it
has seen this stage (st.seen, all it drew, was shown, and every card played).

Hidden, as `determinize` in policies.py redraws it for a search player (ND-17.4): the other
seats' cards (st.hand, st.kept, st.passing of the others, and st.offered unless the seat is
choosing from it), the order of every deck and which kinds have been drawn from it (st.deck,
st.drawn), what the others have seen (st.seen of the others), the order of the persons not yet
shown (st.brown past st.brown_shown, st.grey past the round), the random streams. An open
decision's options are the deciding seat's own (in the draft and a card turn they are its cards),
so only that seat's observation lists them.

The action space: one id range shared by every decision point (ids are reused across points),
its size the largest decision's, the Minstrel's 7 x 6 x 6 = 252 moves (ND-15.3). Within a point
an id is the option itself where the option is a small number (a card kind, a building, a
market, a seat), shifted by one where the option can be FORFEIT or PASS (-1), and packed densely
for the Guest house's pairs, the Minstrel's and the Jester's moves. Plain Python reading the
record; the kernels never call it.
"""
import numpy as np

from simcore.seats import SEAT_NAMES
from simcore.boardgames.notre_dame.components import MARKETS_PER_DISTRICT, N_PERSONS
from simcore.boardgames.notre_dame.describe import KINDS, SMALL, guest_choice, message_names, piece_name
from simcore.boardgames.notre_dame.state import (
    CATEGORIES, CONFIDANT, DP_BANK_VICTIM, DP_BISHOP_TARGET, DP_BRIBE, DP_CARRIAGE_DEST, DP_CONFIDANT_TARGET,
    DP_CUBE_SOURCE, DP_DONATION, DP_DRAFT_KEEP1, DP_DRAFT_KEEP2, DP_GUEST_CHOICE, DP_HOUSEKEEPER_CHOICE,
    DP_JESTER_MOVE, DP_MINSTREL_MOVE, DP_OUTBREAK_LOSS, DP_PLAY_CARD, DP_TAKE_MESSAGE, DRAFT_DREW,
    DRAFT_HANDED, DRAFT_NONE, DRAFT_PASSED, DRAFT_SHOWN, DRAFT_TOOK, FORFEIT, N_BUILDINGS, N_CATEGORIES,
    N_KINDS, NOTRE_DAME, NOWHERE, PASS, PERSONAL, ROUNDS, SEAT_COLUMNS)

# ---------------------------------------------------------------- decision points (ND-16)

DECISIONS = {
    DP_DRAFT_KEEP1: "draft_keep1",              # DP-1: keep 1 of the 3 drawn cards
    DP_DRAFT_KEEP2: "draft_keep2",              # DP-2: keep 1 of the 2 received
    DP_PLAY_CARD: "play_card",                  # DP-3
    DP_CUBE_SOURCE: "cube_source",              # DP-4: context = the card's building (7: Notre Dame)
    DP_CONFIDANT_TARGET: "confidant_target",    # DP-5
    DP_DONATION: "donation",                    # DP-6
    DP_CARRIAGE_DEST: "carriage_dest",          # DP-7: context = k, the steps allowed
    DP_TAKE_MESSAGE: "take_message",            # DP-8: context = the market
    DP_GUEST_CHOICE: "guest_choice",            # DP-9: context = k (one part up to 3, two from 4)
    DP_BANK_VICTIM: "bank_victim",              # DP-10
    DP_BRIBE: "bribe",                          # DP-11
    DP_HOUSEKEEPER_CHOICE: "housekeeper_choice",  # DP-12
    DP_BISHOP_TARGET: "bishop_target",          # DP-13
    DP_MINSTREL_MOVE: "minstrel_move",          # DP-14
    DP_JESTER_MOVE: "jester_move",              # DP-15
    DP_OUTBREAK_LOSS: "outbreak_loss",          # DP-16
}

SHIFTED = (DP_CUBE_SOURCE, DP_CONFIDANT_TARGET, DP_BRIBE)   # FORFEIT / PASS (-1) is id 0
GUEST_SINGLE_MAX = 3                    # up to this count the Guest house gives one part (ND-7.5)
GUEST_PAIRS = (0, 1, 2, 4, 5, 8)        # the two parts a * 3 + b, a <= b (rules.guest_options)
MINSTREL_PIECES = ((1, 0), (2, 0), (3, 0), (0, 1), (1, 1), (2, 1))   # (cubes, confidant), 1-3 pieces
JESTER_PIECES = N_BUILDINGS + 2         # a cube of a building, the confidant, a cube on Notre Dame
PERSON_NONE = N_PERSONS                 # "bribed nobody" in the tensor's one-hot
DRAFT_STEPS = ("none", "drew", "passed", "shown", "handed", "took")     # st.draft_at (DRAFT_*)
PHASES = ("draft", "cards", "bribes", "plague", "end of round", "game over")
COUNTERS = SEAT_COLUMNS[:4]             # public events; gold_end is only the final gold


def decision_sizes(data, players):
    """How many ids each decision point uses: its options' largest id + 1."""
    return {
        DP_DRAFT_KEEP1: N_KINDS, DP_DRAFT_KEEP2: N_KINDS, DP_PLAY_CARD: N_KINDS,
        DP_CUBE_SOURCE: PERSONAL + 2,                   # FORFEIT, the 7 buildings, PERSONAL
        DP_CONFIDANT_TARGET: N_BUILDINGS + 1,           # FORFEIT, the 7 buildings
        DP_DONATION: 4,                                 # 0..3 gold (ND-8.1)
        DP_CARRIAGE_DEST: markets(data, players),
        DP_TAKE_MESSAGE: 2,
        DP_GUEST_CHOICE: GUEST_SINGLE_MAX + len(GUEST_PAIRS),
        DP_BANK_VICTIM: players,
        DP_BRIBE: N_PERSONS + 1,                        # PASS, the 15 persons
        DP_HOUSEKEEPER_CHOICE: len(SMALL),
        DP_BISHOP_TARGET: N_BUILDINGS,
        DP_MINSTREL_MOVE: N_BUILDINGS * (N_BUILDINGS - 1) * len(MINSTREL_PIECES),
        DP_JESTER_MOVE: JESTER_PIECES * N_BUILDINGS,
        DP_OUTBREAK_LOSS: N_BUILDINGS,
    }


def markets(data, players):
    """The markets on the board of this player count (ND-1.4, ND-2.2)."""
    return int(data.districts[players]) * MARKETS_PER_DISTRICT


def num_distinct_actions(data, players):
    """The size of the action space: the largest decision's (the Minstrel's 252)."""
    return max(decision_sizes(data, players).values())


# ---------------------------------------------------------------- option values as action ids

def action_id(data, players, decision, value):
    """The option `value` of `decision` as an id in [0, num_distinct_actions): see the module's
    docstring. A value no option of that decision can have is a ValueError."""
    dp, v = int(decision.point), int(value)
    if dp in SHIFTED:
        a = v + 1
    elif dp == DP_GUEST_CHOICE:
        a = guest_id(int(decision.context), v)
    elif dp == DP_MINSTREL_MOVE:
        a = minstrel_id(v)
    elif dp == DP_JESTER_MOVE:
        piece, dst = divmod(v, 8)                       # rules.jester_moves: piece * 8 + dst
        a = piece * N_BUILDINGS + dst if dst < N_BUILDINGS and 0 <= piece < JESTER_PIECES else -1
    else:
        a = v
    if not 0 <= a < decision_sizes(data, players)[dp]:
        raise ValueError(f"{DECISIONS[dp]}: no option has the value {v}")
    return a


def guest_id(k, v):
    """One part (k <= 3): the part itself, 0..2; two parts: 3 + the pair's place in GUEST_PAIRS,
    so each id means one choice whatever k is."""
    if k <= GUEST_SINGLE_MAX:
        return v if 0 <= v < len(SMALL) else -1
    return GUEST_SINGLE_MAX + GUEST_PAIRS.index(v) if v in GUEST_PAIRS else -1


def minstrel_move(v):
    """rules.minstrel_moves' encoding src * 64 + dst * 8 + x * 2 + y as (src, dst, x, y)."""
    return v // 64, (v // 8) % 8, (v // 2) % 4, v % 2


def minstrel_id(v):
    """(source, destination other than the source, pieces) packed densely: 7 x 6 x 6."""
    src, dst, x, y = minstrel_move(v)
    if not (0 <= v < 64 * N_BUILDINGS and dst < N_BUILDINGS and dst != src and (x, y) in MINSTREL_PIECES):
        return -1
    other = dst - 1 if dst > src else dst
    return (src * (N_BUILDINGS - 1) + other) * len(MINSTREL_PIECES) + MINSTREL_PIECES.index((x, y))


# ---------------------------------------------------------------- moves in words

def action_to_string(data, players, st, decision, value):
    """The option `value` of `decision` in words, the replay's (describe.py) for the seat deciding."""
    dp, v, ctx = int(decision.point), int(value), int(decision.context)
    p = int(decision.seat)
    if dp in (DP_DRAFT_KEEP1, DP_DRAFT_KEEP2):
        return f"keep {KINDS[v]}"
    if dp == DP_PLAY_CARD:
        return f"play {KINDS[v]}"
    if dp == DP_CUBE_SOURCE:
        return cube_source_words(ctx, v)
    if dp == DP_CONFIDANT_TARGET:
        if v == FORFEIT:
            return f"the {KINDS[CONFIDANT]} card has no effect"
        here = int(st["conf"][p])
        start = "in front of them" if here == NOWHERE else f"the {KINDS[here]}"
        return f"confidant from {start} to the {KINDS[v]}"
    if dp == DP_DONATION:
        return f"donate {v} gold to Notre Dame" if v else "donate nothing"
    if dp == DP_CARRIAGE_DEST:
        here = data.market_name(int(st["carriage"][p]))
        tile = int(st["msg_at"][v])
        there = f" ({message_words(data, players, tile)} there)" if tile >= 0 else ""
        return f"carriage {here} -> {data.market_name(v)}{there}"
    if dp == DP_TAKE_MESSAGE:
        what = message_words(data, players, int(st["msg_at"][ctx]))
        return f"{'take' if v else 'leave'} {what} at {data.market_name(ctx)}"
    if dp == DP_GUEST_CHOICE:
        return f"guest house: {guest_choice(ctx, v)}"
    if dp == DP_BANK_VICTIM:
        return f"take the missing gold from {SEAT_NAMES[v]}"
    if dp == DP_BRIBE:
        return "pass" if v == PASS else f"bribe the {data.person_names[v]}"
    if dp == DP_HOUSEKEEPER_CHOICE:
        return f"choose {SMALL[v]}"
    if dp == DP_BISHOP_TARGET:
        return f"a cube from the general supply onto the {KINDS[v]}"
    if dp == DP_MINSTREL_MOVE:
        src, dst, x, y = minstrel_move(v)
        pieces = " and ".join(([f"{x} cube" + ("" if x == 1 else "s")] if x else []) + (["the confidant"] if y else []))
        return f"move {pieces} from the {KINDS[src]} to the {KINDS[dst]}"
    if dp == DP_JESTER_MOVE:
        return f"move {piece_name(v // 8)} to the {KINDS[v % 8]}"
    if dp == DP_OUTBREAK_LOSS:
        return f"lose a cube from the {KINDS[v]}"
    raise ValueError(f"unknown decision point {dp}")


def cube_source_words(target, v):
    """DP-4: where the cube for `target` (a building, or Notre Dame for a donation) comes from."""
    onto = "Notre Dame" if target == NOTRE_DAME else f"the {KINDS[target]}"
    if v == FORFEIT:
        return f"no cube placed: the {KINDS[target]} card has no effect"
    if v == PERSONAL:
        return f"a cube from the personal supply onto {onto}"
    return f"move a cube from the {KINDS[v]} onto {onto}"


def message_words(data, players, tile):
    """A message tile (colour * 4 + kind) as the replay names it: "Blue's message M3"."""
    colour, kind = divmod(tile, 4)
    return f"{message_names(data, players)[colour]} message {data.message_ids[kind]}"


# ---------------------------------------------------------------- what a seat knows

def observation(data, players, st, seat, decision):
    """All that `seat` may know now (ND-17) as plain JSON values; see the module's docstring."""
    n, seat = players, int(seat)
    round_no = int(st["round_no"])
    return {
        "seat": seat,
        "players": n,
        "round": round_no,
        "stage": (max(round_no, 1) - 1) // 3 + 1,
        "start_player": int(st["start"]),
        "phase": phase(st, n, decision),
        "cards_played": cards_played(st, n),
        "decision": decision_seen(data, n, seat, decision),
        "scores": [int(st["vp"][q]) for q in range(n)],
        "seats": [seat_seen(st, q, n, int(data.districts[n])) for q in range(n)],
        "general_gold": int(st["G"]),
        "message_tiles": [{"market": m, "colour": int(t) // 4, "kind": int(t) % 4}
                          for m, t in enumerate(st["msg_at"][:markets(data, n)]) if t >= 0],
        "messages_on_board": [int(x) for x in st["on_board"][:int(data.districts[n])]],
        "persons": persons_seen(data, st),
        "cards": cards_seen(st, seat, n),
    }


def phase(st, n, decision):
    """Where the round is (ND-3.2): the draft while a seat is in it; after it the card turns, until
    the bribes begin (DP-11, or a choice of a seat that has bribed: st.bribed is set only then)
    and the plague (DP-16 is its only decision); between rounds once no seat is in a draft."""
    at = [int(x) for x in st["draft_at"][:n]]
    if any(DRAFT_NONE < a < DRAFT_TOOK for a in at):
        return "draft"
    if all(a == DRAFT_TOOK for a in at):
        if decision is None:
            return "bribes"
        if int(decision.point) == DP_OUTBREAK_LOSS:
            return "plague"
        if int(decision.point) == DP_BRIBE or int(st["bribed"][int(decision.seat)]) >= 0:
            return "bribes"                 # a bribed person's choices, and what they lead to
        return "cards"
    return "game over" if int(st["round_no"]) == ROUNDS and decision is None else "end of round"


def cards_played(st, n):
    """Cards played this round (ND-6.1: 2n in all); the card being resolved counts."""
    if any(int(a) != DRAFT_TOOK for a in st["draft_at"][:n]):
        return 0
    return 3 * n - int(np.sum(st["hand_n"][:n]))


def decision_seen(data, n, seat, decision):
    """Who decides what; the options only for the deciding seat (its cards in DP-1..DP-3)."""
    if decision is None:
        return None
    out = {"seat": int(decision.seat), "point": DECISIONS[int(decision.point)], "context": int(decision.context)}
    if int(decision.seat) == seat:
        out["options"] = [int(v) for v in decision.options]
        out["actions"] = [action_id(data, n, decision, v) for v in decision.options]
    return out


def seat_seen(st, q, n, colours):
    """Seat q's public position (ND-17.1, ND-17.3)."""
    at = int(st["draft_at"][q])
    held = int(st["hand_n"][q]) if at == DRAFT_TOOK else 0
    return {
        "vp": int(st["vp"][q]),
        "points": {c: int(st["pts"][q][i]) for i, c in enumerate(CATEGORIES)},
        "gold": int(st["gold"][q]),
        "rat": int(st["rat"][q]),
        "personal": int(st["personal"][q]),
        "general_supply": int(st["gsupply"][q]),
        "notre_dame": int(st["nd"][q]),
        "buildings": [int(x) for x in st["cubes"][q]],
        "confidant": int(st["conf"][q]),
        "carriage": int(st["carriage"][q]),
        "messages_held": [int(x) for x in st["held"][q][:colours]],
        "bribed": int(st["bribed"][q]),
        "draft_step": DRAFT_STEPS[at],
        "hand_size": held,
        "hand_decks": sorted(int(d) for d in st["hand_from"][q][:held]),
        "counters": {c: int(st["seat_count"][q][i]) for i, c in enumerate(COUNTERS)},
    }


def persons_seen(data, st):
    """The face-up persons and their rats (ND-4, ND-10.1), the brown ones shown this stage and the
    grey ones shown so far; the order of those still to come is hidden (ND-2.5)."""
    face = [int(x) for x in st["face"]]
    return {
        "face_up": face,
        "rats": sum(int(data.person_rats[i]) for i in face) if int(st["round_no"]) >= 1 else 0,
        "brown_shown": sorted(int(x) for x in st["brown"][:int(st["brown_shown"])]),
        "grey_shown": [int(x) for x in st["grey"][:int(st["round_no"])]],
    }


def cards_seen(st, p, n):
    """p's own cards by how far it is in the draft (ND-5, ND-17.2): the cards it chooses from
    (st.offered, only while p chooses), the ones it kept, the 2 it passed, the one it handed on,
    its hand as (kind, deck) after the draft; and the kinds of each deck it has seen this stage."""
    at = int(st["draft_at"][p])
    choosing = {DRAFT_DREW: 3, DRAFT_SHOWN: 2}.get(at, 0)
    kept = {DRAFT_PASSED: 1, DRAFT_SHOWN: 1, DRAFT_HANDED: 2}.get(at, 0)
    took = at == DRAFT_TOOK
    return {
        "hand": sorted([int(st["hand"][p][i]), int(st["hand_from"][p][i])] for i in range(int(st["hand_n"][p])))
        if took else [],
        "choosing_from": sorted(int(x) for x in st["offered"][:choosing]),
        "kept": sorted(int(x) for x in st["kept"][p][:kept]),
        "passed": sorted(int(x) for x in st["passing"][p]) if at >= DRAFT_PASSED else [],
        "handed_on": int(st["kept"][p][2]) if at >= DRAFT_HANDED else None,
        "seen": [[k for k in range(N_KINDS) if (int(st["seen"][p][d]) >> k) & 1] for d in range(n)],
    }


# ---------------------------------------------------------------- the same as numbers

def tensor_blocks(data, players):
    """The tensor's layout: (name, length) in order; per_seat repeats for seats 0..players-1."""
    n, m, colours = players, markets(data, players), int(data.districts[players])
    per_seat = (N_BUILDINGS + (N_BUILDINGS + 1) + 6 + N_CATEGORIES + m + colours + (N_PERSONS + 1)
                + len(DRAFT_STEPS) + 1 + n + len(COUNTERS))
    return [
        ("seat", n), ("round", ROUNDS), ("phase", len(PHASES)), ("start_player", n), ("cards_played", 1),
        ("decider", n), ("point", len(DECISIONS)), ("context", 1), ("legal", num_distinct_actions(data, n)),
        ("seats", n * per_seat), ("general_gold", 1),
        ("message_tiles", m * (4 + colours)), ("messages_on_board", colours),
        ("face_up", N_PERSONS), ("rats", 1), ("brown_shown", N_PERSONS), ("grey_shown", N_PERSONS),
        ("hand", n * N_KINDS), ("choosing_from", N_KINDS), ("kept", N_KINDS), ("passed", N_KINDS),
        ("handed_on", N_KINDS), ("seen", n * N_KINDS),
    ]


def tensor_size(data, players):
    return sum(size for _, size in tensor_blocks(data, players))


def tensor_offset(data, players, name):
    """Where block `name` of tensor_blocks starts in the tensor."""
    at = 0
    for block, size in tensor_blocks(data, players):
        if block == name:
            return at
        at += size
    raise KeyError(name)


def one_hot(size, i):
    out = np.zeros(size, np.float32)
    if 0 <= i < size:
        out[i] = 1
    return out


def counts(size, values):
    out = np.zeros(size, np.float32)
    for v in values:
        out[v] += 1
    return out


def observation_tensor(data, players, st, seat, decision):
    """observation() as float32 counts and one-hots in tensor_blocks' layout (unnormalised)."""
    obs = observation(data, players, st, seat, decision)
    n, m, colours = players, markets(data, players), int(data.districts[players])
    d = obs["decision"]
    legal = counts(num_distinct_actions(data, n), d["actions"] if d and "actions" in d else [])
    cards = obs["cards"]
    hand = np.zeros((n, N_KINDS), np.float32)
    for kind, deck in cards["hand"]:
        hand[deck, kind] += 1
    parts = {
        "seat": one_hot(n, seat), "round": one_hot(ROUNDS, obs["round"] - 1),
        "phase": one_hot(len(PHASES), PHASES.index(obs["phase"])), "start_player": one_hot(n, obs["start_player"]),
        "cards_played": [obs["cards_played"]],
        "decider": one_hot(n, d["seat"] if d else -1),
        "point": one_hot(len(DECISIONS), int(decision.point) - 1 if d else -1),
        "context": [d["context"] if d else 0], "legal": legal,
        "seats": np.concatenate([seat_tensor(s, n, m, colours) for s in obs["seats"]]),
        "general_gold": [obs["general_gold"]],
        "message_tiles": message_tensor(obs["message_tiles"], m, colours),
        "messages_on_board": obs["messages_on_board"],
        "face_up": counts(N_PERSONS, obs["persons"]["face_up"]), "rats": [obs["persons"]["rats"]],
        "brown_shown": counts(N_PERSONS, obs["persons"]["brown_shown"]),
        "grey_shown": counts(N_PERSONS, obs["persons"]["grey_shown"]),
        "hand": hand.ravel(), "choosing_from": counts(N_KINDS, cards["choosing_from"]),
        "kept": counts(N_KINDS, cards["kept"]), "passed": counts(N_KINDS, cards["passed"]),
        "handed_on": one_hot(N_KINDS, -1 if cards["handed_on"] is None else cards["handed_on"]),
        "seen": np.concatenate([counts(N_KINDS, kinds) for kinds in cards["seen"]]),
    }
    out = []
    for name, size in tensor_blocks(data, n):
        block = np.asarray(parts[name], np.float32)
        assert block.shape == (size,), (name, block.shape, size)
        out.append(block)
    return np.concatenate(out)


def seat_tensor(s, n, m, colours):
    return np.concatenate([
        s["buildings"], one_hot(N_BUILDINGS + 1, s["confidant"] if s["confidant"] != NOWHERE else N_BUILDINGS),
        [s["personal"], s["general_supply"], s["notre_dame"], s["gold"], s["vp"], s["rat"]],
        list(s["points"].values()), one_hot(m, s["carriage"]), s["messages_held"],
        one_hot(N_PERSONS + 1, s["bribed"] if s["bribed"] >= 0 else PERSON_NONE),
        one_hot(len(DRAFT_STEPS), DRAFT_STEPS.index(s["draft_step"])), [s["hand_size"]],
        counts(n, s["hand_decks"]), list(s["counters"].values()),
    ]).astype(np.float32)


def message_tensor(tiles, m, colours):
    out = np.zeros((m, 4 + colours), np.float32)
    for t in tiles:
        out[t["market"], t["kind"]] = 1
        out[t["market"], 4 + t["colour"]] = 1
    return out.ravel()
