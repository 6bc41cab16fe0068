"""A Strasbourg game's move log as text, for replay and debugging (plain Python, never in a kernel)."""
from simcore.seats import SEAT_NAMES
from simcore.boardgames.strasbourg.state import (
    CARD_VALUES, CATEGORIES, COLS, EV_BID, EV_BUILD, EV_BUNDLE, EV_BUY, EV_CHAPEL, EV_COUNCIL, EV_GOODS, EV_PLAN,
    EV_PRIVILEGE, EV_RETURN, EV_ROUND, EV_SEAT, EV_SELL, EV_SUBPHASE, EV_TASKS, EV_WINNER, KEY_BASE, SUBPHASES)

ROLES = ("Master", "Journeyman", "Apprentice")


def cell(c):
    return f"({c // COLS},{c % COLS})"


def bundle_cards(key):
    """The cards of a bundle from its multiset key (count of each value 1..6, base KEY_BASE), high first."""
    cards = []
    for v in range(CARD_VALUES, 0, -1):
        cards += [v] * (key // KEY_BASE ** (v - 1) % KEY_BASE)
    return cards


class Names:
    def __init__(self, data):
        self.guilds = list(data.guild_names)
        self.buildings = list(data.building_names)
        self.seats = ["Nobility", "Church"] + self.guilds + ["Merchants"]


def event_line(names, e):
    code, rnd, seat, a, b, c, vp = (int(x) for x in e)
    who = SEAT_NAMES[seat] if seat >= 0 else ""
    if code == EV_TASKS:
        return f"{who} keeps {bin(a).count('1')} task card(s)"
    if code == EV_PLAN:
        return f"  {who} draws {a} card(s), {b} bundle(s); deck {c}"
    if code == EV_BUNDLE:
        return f"    bundle {a + 1}: {bundle_cards(b)} = {c}"
    if code == EV_SUBPHASE:
        return f"  {SUBPHASES[a]}: start player {who}"
    if code == EV_BID:
        return f"    {who} reveals {b}" if a >= 0 else f"    {who} passes"
    if code == EV_PRIVILEGE:
        return f"    {who} spends a privilege to wait"
    if code == EV_WINNER:
        return f"    {who} bids highest ({a}) and is start player"
    if code == EV_SEAT:
        return f"    {who} takes the {names.seats[a]} seat  [VP {vp}]"
    if code == EV_GOODS:
        return f"    {who} ({ROLES[b]}) takes {names.guilds[a]} goods"
    if code == EV_BUY:
        return f"    {who} ({ROLES[c]}) buys {cell(a)} for {b}"
    if code == EV_SELL:
        return f"    {who} sells {b} {names.guilds[a]} goods for {c}"
    if code == EV_RETURN:
        return f"    {who} puts a {a} under the deck"
    if code == EV_CHAPEL:
        return f"  H: {who} builds a chapel on spot {a}"
    if code == EV_BUILD:
        return f"  I: {who} builds the {names.buildings[b]} on {cell(a)}"
    if code == EV_COUNCIL:
        return f"  {who}: VP {vp}, privileges {a}, coins {b}"
    raise ValueError(f"unknown event code {code}")


def round_line(names, data, e):
    _, rnd, sp, card, building, _, _ = (int(x) for x in e)
    guilds = ", ".join(names.guilds[int(g)] for g in data.card_guilds[card])
    return f"round {rnd}, start player {SEAT_NAMES[sp]}; guilds B/D/F: {guilds}; building {names.buildings[building]}"


def replay_lines(data, st, header):
    names = Names(data)
    lines = list(header)
    for e in st["ev"][:int(st["n_events"])]:
        lines.append(round_line(names, data, e) if int(e[0]) == EV_ROUND else event_line(names, e))
    lines.append("final score (" + ", ".join(CATEGORIES) + "; tie-break family members in the city)")
    for s in range(int(st["players"])):
        pts = [int(x) for x in st["pts"][s]]
        lines.append(f"  {SEAT_NAMES[s]}: {sum(pts)} VP = {' + '.join(map(str, pts))}")
    return lines
