"""A Principato game's move log as text, for replay and debugging (plain Python, never in a kernel)."""
from simcore.seats import SEAT_NAMES
from simcore.boardgames.principato.components import CULTURE, GOODS
from simcore.boardgames.principato.rules import code_favour, code_food, code_money
from simcore.boardgames.principato.state import (
    CATEGORIES, EV_ACTIVATE, EV_BOX, EV_CULTURE, EV_DISCARD, EV_DRAW, EV_END_TURN, EV_EXCHANGE, EV_FAVOUR,
    EV_GAIN, EV_LOAD, EV_OVERFLOW, EV_PAY, EV_RECRUIT, EV_SCORING, EV_STRENGTH, EV_SWAP, EV_TURN, EV_YEAR)

FAVOUR_PLACES = ("church full, nothing left in the supply", "into the church", "onto a militia (church full)",
                 "onto a condottiere (church full)", "lost (church full)")
# The printed card names are unknown (DATA-2), so a card is named by its effect in words; these ids
# do not read as words by themselves ("MARKET2"), or two effects would share a word ("Catapult").
EFFECT_NAMES = {"MARKET2": "Market", "MONEY3": "3 Money", "FOOD3": "3 Food",
                "CATAPULT_Y12": "Catapult (years 1-2)", "CATAPULT_Y3": "Catapult (year 3)"}
SCORING_CARD = "Military scoring card"


def in_words(card_id):
    """An effect or goal card's id as a player reads it: 'HARVEST' -> 'Harvest', 'CITY_HALL' -> 'City Hall'."""
    return EFFECT_NAMES.get(card_id) or card_id.replace("_", " ").title()


def card_names(data) -> list[str]:
    """Every card's name as a player reads it, by card index (data.card_name keeps the ids).
    Copies of a card share its name: a player cannot tell them apart and nothing turns on which
    one it is. Only where the data holds one effect both with and without the exchange symbol do
    the two cards play differently (PR-6.3, PR-17.3), and then the name says which it is."""
    action = data.card_scoring == 0
    both_ways = {e for e in set(data.card_effect[action].tolist())
                 if len(set(data.card_exchange[action & (data.card_effect == e)].tolist())) == 2}
    names = []
    for card in range(data.n_cards):
        if data.card_scoring[card]:
            names.append(SCORING_CARD)
            continue
        effect = int(data.card_effect[card])
        name = in_words(data.effect_ids[effect])
        if effect in both_ways:
            name += " (exchange)" if data.card_exchange[card] else " (no exchange)"
        names.append(name)
    return names


def swap_words(names, code, hand0, hand1, display_size):
    """Action B's pattern (DEC-9) in words."""
    d = display_size
    if code < 2 * d:
        h, s = divmod(code, d)
        return f"swaps {names[(hand0, hand1)[h]]} with display slot {s}"
    s0, s1 = divmod(code - 2 * d, d)
    return f"swaps {names[hand0]} into slot {s0} and {names[hand1]} into slot {s1}"


def event_line(names, e, display_size):
    """One logged event in words; e = (code, year, seat, a, b, c, VP of the seat after); names =
    card_names(data)."""
    code, year, seat, a, b, c, vp = (int(x) for x in e)
    who = SEAT_NAMES[seat] if seat >= 0 else ""
    if code == EV_YEAR:
        return f"Year {a} (first turn: {who})"
    if code == EV_TURN:
        return f"  turn {a + 1}: {who}"
    if code == EV_ACTIVATE:
        return f"    {who} activates {names[a]}"
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
        return f"      exchanges it for {names[c]} from slot {b}"
    if code == EV_SWAP:
        return f"    {who} {swap_words(names, a, b, c, display_size)}"
    if code == EV_FAVOUR:
        return f"    {who} takes a favour: {FAVOUR_PLACES[a + 1]}"
    if code == EV_END_TURN:
        return f"    {who} ends the turn" + (" without acting" if a == 1 else "")
    if code == EV_BOX:
        return f"    {names[a]} leaves the display"
    if code == EV_DRAW:
        return f"    {names[a]} is drawn"
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
    goals = [f"{SEAT_NAMES[p]}: " + ", ".join(in_words(data.goal_ids[int(g)]) for g in st["goals"][p])
             for p in range(players)]
    lines.append(f"start player {SEAT_NAMES[int(st['sp'])]}; goal cards " + "; ".join(goals))
    names = card_names(data)
    for e in st["ev"][:int(st["n_events"])]:
        lines.append(event_line(names, e, int(tt["display_size"])))
    lines.append("final score (" + ", ".join(CATEGORIES) + "; tie-break stored cubes)")
    for s in range(players):
        pts = [int(x) for x in st["pts"][s]]
        lines.append(f"  {SEAT_NAMES[s]}: {sum(pts)} VP = {' + '.join(map(str, pts))}")
    return lines
