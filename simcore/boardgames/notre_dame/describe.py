"""A Notre Dame game's move log as text, for replay and debugging (plain Python, never in a kernel)."""
from simcore.seats import SEAT_NAMES
from simcore.boardgames.notre_dame.state import (
    CATEGORIES, EV_ACTION, EV_BRIBE, EV_CARRIAGE, EV_CONFIDANT, EV_DONATE, EV_FORFEIT, EV_GUEST, EV_HAND,
    EV_MESSAGE, EV_MOVE, EV_OUTBREAK, EV_PAYOUT, EV_PERSON, EV_PLAGUE, EV_PLAY, EV_RELOCATE, EV_ROUND,
    EV_STAGE, EV_STANDING, EV_STEAL, JESTER_CONFIDANT, N_BUILDINGS, NOWHERE)

KINDS = ("Cloister school", "Bank", "Residence", "Carriage house", "Guest house", "Park", "Hospital",
         "Notre Dame", "Confidant")
SMALL = ("gold", "cube", "rat back")
COLOURS = ("red", "blue", "green", "yellow", "black")


def message_colours(data, players):
    """The seat colour (an index of SEAT_NAMES) of each message colour (= district): the owner's
    colour, and for the neutral districts of the 2-player game the colours nobody plays (ND-2.2:
    "the 4 message tiles of an unused colour"), so no message shares a colour with a seat it is
    not the message of. The text and the pictures both name messages this way."""
    owner = {int(data.seat_district[players, s]): s for s in range(players)}
    spare = [c for c in range(len(SEAT_NAMES)) if c >= players]
    return [owner[d] if d in owner else spare.pop(0) if spare else d for d in range(len(SEAT_NAMES))]


def message_names(data, players):
    """Each district's messages in words: "Blue's" for a seat's district, "the neutral green" for
    a district nobody plays."""
    owner = {int(data.seat_district[players, s]): s for s in range(players)}
    colours = message_colours(data, players)
    return [f"{SEAT_NAMES[owner[d]]}'s" if d in owner else f"the neutral {COLOURS[colours[d]]}"
            for d in range(len(SEAT_NAMES))]


def rat_count(n):
    return f"{n} rat" + ("" if n == 1 else "s")


def piece_name(piece):
    if piece < N_BUILDINGS:
        return f"a cube from the {KINDS[piece]}"
    return "the confidant" if piece == JESTER_CONFIDANT else "a cube from Notre Dame"


def guest_choice(k, v):
    if k <= 3:
        return SMALL[v]
    return f"{SMALL[v // 3]} + {SMALL[v % 3]}"


def event_line(data, e, messages):
    """One logged event in words; e = (code, round, seat, a, b, c, vp of the seat after);
    messages = message_names(data, players)."""
    code, _, seat, a, b, c, vp = (int(x) for x in e)
    who = SEAT_NAMES[seat] if seat >= 0 else ""
    score = f"  [VP {vp}]"
    if code == EV_HAND:
        return f"  {who} holds {', '.join(KINDS[k] for k in (a, b, c))}"
    if code == EV_PLAY:
        return f"  {who} plays {KINDS[a]}"
    if code == EV_RELOCATE:
        return f"    no cube in the personal supply: moves one from the {KINDS[a]}"
    if code == EV_FORFEIT:
        return f"    no cube placed: the {KINDS[a]} card has no effect"
    if code == EV_ACTION:
        return f"    {KINDS[a]} acts with {b}" + (score if c else "")
    if code == EV_CARRIAGE:
        return f"    carriage {data.market_name(a)} -> {data.market_name(b)} (up to {c} steps)"
    if code == EV_MESSAGE:
        return f"    takes {messages[b]} message {data.message_ids[c]} at {data.market_name(a)}{score}"
    if code == EV_GUEST:
        return f"    guest house: {guest_choice(a, b)}"
    if code == EV_DONATE:
        return f"    donates {a} gold to Notre Dame{score}" if a else "    donates nothing"
    if code == EV_CONFIDANT:
        start = "in front of them" if a == NOWHERE else f"the {KINDS[a]}"
        return f"    confidant from {start} to the {KINDS[b]}"
    if code == EV_STEAL:
        return f"    takes {b} gold from {SEAT_NAMES[a]} (the supply is empty)"
    if code == EV_BRIBE:
        return f"  {who} bribes the {data.person_names[a]}"
    if code == EV_PERSON:
        return f"    +{c} VP" + (f", chooses {SMALL[b]}" if b >= 0 else "") + score
    if code == EV_MOVE:
        if c < 0:
            return f"    moves {piece_name(a)} to the {KINDS[b]}"
        pieces = f"{c // 2} cube(s)" + (" and the confidant" if c % 2 else "")
        return f"    moves {pieces} from the {KINDS[a]} to the {KINDS[b]}"
    if code == EV_PLAGUE:
        return f"  {who} rats {a} -> {b}" + (" OUTBREAK" if c else "")
    if code == EV_OUTBREAK:
        lost = f"loses a cube from the {KINDS[a]}" if a >= 0 else "has no cube on a building to lose"
        return f"    outbreak: -2 VP, {lost}{score}"
    if code == EV_PAYOUT:
        return f"  {who}: {a} of {c} cubes on Notre Dame -> {b} VP"
    if code == EV_STAGE:
        return f"end of stage {a}"
    if code == EV_STANDING:
        return f"  {who}: VP {vp}, gold {a}, rats {b}, personal supply {c}"
    raise ValueError(f"unknown event code {code}")


def round_line(data, e):
    _, rnd, start, a, b, c, _ = (int(x) for x in e)
    persons = ", ".join(f"{data.person_names[i]} ({rat_count(int(data.person_rats[i]))})" for i in (a, b, c))
    total = sum(int(data.person_rats[i]) for i in (a, b, c))
    return f"round {rnd}, start player {SEAT_NAMES[start]}; persons: {persons}; R = {total}"


def replay_lines(data, st, header):
    """The header, every event of the logged game, then each seat's points by category."""
    lines = list(header)
    messages = message_names(data, int(st["players"]))
    for e in st["ev"][:int(st["n_events"])]:
        lines.append(round_line(data, e) if int(e[0]) == EV_ROUND else event_line(data, e, messages))
    lines.append("final score (" + ", ".join(CATEGORIES) + "; tie-break gold, personal supply)")
    for s in range(int(st["players"])):
        pts = [int(x) for x in st["pts"][s]]
        lines.append(f"  {SEAT_NAMES[s]}: {sum(pts)} VP = {' + '.join(map(str, pts))}; "
                     f"gold {int(st['gold'][s])}, personal {int(st['personal'][s])}")
    return lines
