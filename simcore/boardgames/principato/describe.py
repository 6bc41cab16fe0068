"""A Principato game's move log as text, for replay and debugging (plain Python, never in a kernel)."""
from simcore.boardgames.principato.components import CULTURE, GOODS
from simcore.boardgames.principato.rules import code_favour, code_food, code_money
from simcore.boardgames.principato.state import (
    CATEGORIES, EV_ACTIVATE, EV_BOX, EV_CULTURE, EV_DISCARD, EV_DRAW, EV_END_TURN, EV_EXCHANGE, EV_FAVOUR,
    EV_GAIN, EV_LOAD, EV_OVERFLOW, EV_PAY, EV_RECRUIT, EV_SCORING, EV_STRENGTH, EV_SWAP, EV_TURN, EV_YEAR)

SEAT_NAMES = ("Red", "Blue", "Green", "Yellow")
FAVOUR_PLACES = ("church full, nothing left in the supply", "into the church", "onto a militia (church full)",
                 "onto a condottiere (church full)", "lost (church full)")


def swap_words(data, code, hand0, hand1, display_size):
    """Action B's pattern (DEC-9) in words."""
    d = display_size
    if code < 2 * d:
        h, s = divmod(code, d)
        return f"swaps {data.card_name((hand0, hand1)[h])} with display slot {s}"
    s0, s1 = divmod(code - 2 * d, d)
    return f"swaps {data.card_name(hand0)} into slot {s0} and {data.card_name(hand1)} into slot {s1}"


def event_line(data, e, display_size):
    """One logged event in words; e = (code, year, seat, a, b, c, VP of the seat after)."""
    code, year, seat, a, b, c, vp = (int(x) for x in e)
    who = SEAT_NAMES[seat] if seat >= 0 else ""
    if code == EV_YEAR:
        return f"Year {a} (first turn: {who})"
    if code == EV_TURN:
        return f"  turn {a + 1}: {who}"
    if code == EV_ACTIVATE:
        return f"    {who} activates {data.card_name(a)}"
    if code == EV_PAY:
        return f"      pays {code_food(a)} food, {code_money(a)} money, {code_favour(a)} favour (option {b + 1})"
    if code == EV_GAIN:
        onto = f", {c} onto units" if c else ""
        return f"      stores {b} {GOODS[a]}{onto}"
    if code == EV_OVERFLOW:
        return f"      {b} {GOODS[a]} lost (storage full)"
    if code == EV_CULTURE:
        return f"      takes a {CULTURE[a]} worth {b} VP  [VP {vp}]"
    if code == EV_RECRUIT:
        return f"      recruits {b} {('militia', 'condottieri')[a]}"
    if code == EV_EXCHANGE:
        return f"      exchanges it for {data.card_name(c)} from slot {b}"
    if code == EV_SWAP:
        return f"    {who} {swap_words(data, a, b, c, display_size)}"
    if code == EV_FAVOUR:
        return f"    {who} takes a favour: {FAVOUR_PLACES[a + 1]}"
    if code == EV_END_TURN:
        return f"    {who} ends the turn" + (" without acting" if a == 1 else "")
    if code == EV_BOX:
        return f"    {data.card_name(a)} leaves the display"
    if code == EV_DRAW:
        return f"    {data.card_name(a)} is drawn"
    if code == EV_SCORING:
        return f"  Military scoring {a} (year {year})"
    if code == EV_LOAD:
        return f"    {who} loads {a} militia and {b} condottieri ({c} with favour)"
    if code == EV_STRENGTH:
        return f"    {who}: strength {a}, +{b} VP, military VP {c}  [VP {vp}]"
    if code == EV_DISCARD:
        return f"    {who} discards {a} militia and {b} condottieri"
    return f"    event {code} {seat} {a} {b} {c}"


def replay_lines(data, st, tt, header):
    lines = list(header)
    players = int(st["players"])
    goals = [f"{SEAT_NAMES[p]}: {data.goal_ids[int(st['goals'][p][0])]}, {data.goal_ids[int(st['goals'][p][1])]}"
             for p in range(players)]
    lines.append(f"start player {SEAT_NAMES[int(st['sp'])]}; goal cards " + "; ".join(goals))
    for e in st["ev"][:int(st["n_events"])]:
        lines.append(event_line(data, e, int(tt["display_size"])))
    lines.append("final score (" + ", ".join(CATEGORIES) + "; tie-break stored cubes)")
    for s in range(players):
        pts = [int(x) for x in st["pts"][s]]
        lines.append(f"  {SEAT_NAMES[s]}: {sum(pts)} VP = {' + '.join(map(str, pts))}")
    return lines
