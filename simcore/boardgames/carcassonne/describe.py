"""Moves and states as text, for replay and debugging (plain Python, never in a kernel)."""
from simcore.seats import SEAT_NAMES
from simcore.boardgames.carcassonne import components as cp
from simcore.boardgames.carcassonne.state import (
    ARK, FOLLOWER, PROPHET, MAX_SEG, WHY_ARK, WHY_CITY, WHY_CITY_END, WHY_CITY_PROPHET, WHY_FIELD,
    WHY_MONASTERY9, WHY_MONASTERY_END, WHY_ROAD, WHY_ROAD_END, WHY_TEMPLE3, WHY_TEMPLE7, xy_of,
)

REASONS = {
    WHY_ARK: "the Ark passes {n} of their figure(s)",
    WHY_ROAD: "completed road",
    WHY_CITY: "completed city",
    WHY_CITY_PROPHET: "completed city, doubled by the prophet",
    WHY_TEMPLE7: "completed temple (majority of the cross)",
    WHY_TEMPLE3: "unfinished temple (majority of the cross)",
    WHY_ROAD_END: "unfinished road",
    WHY_CITY_END: "unfinished city",
    WHY_FIELD: "field",
    WHY_MONASTERY9: "completed monastery",
    WHY_MONASTERY_END: "unfinished monastery",
}


def where(cell):
    x, y = xy_of(int(cell))
    return f"({x},{y})"


def segment_label(tt, t, r, g):
    """A segment in words, by the sides it touches after rotation: 'city N+E', 'field S'."""
    kind = int(tt["seg_kind"][t, g])
    if kind == cp.CLOISTER:
        return "monastery"
    sides = [cp.SIDES[s] for s in range(4) if any(tt["port_seg"][t, r, 3 * s + i] == g for i in range(3))]
    return f"{['road', 'city', 'field'][kind]} {'+'.join(sides) or '-'}"


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def feature_words(st, ref, reason, points, ark):
    """What a scored feature was made of, from its root's aggregates."""
    cities = (WHY_CITY, WHY_CITY_END, WHY_CITY_PROPHET)
    if reason == WHY_FIELD and not ark:
        return plural(points // 3, "completed city") + " touching it"
    if reason in (WHY_ROAD, WHY_ROAD_END, WHY_FIELD) or reason in cities:
        tiles = bin(int(st["tiles_lo"][ref])).count("1") + bin(int(st["tiles_hi"][ref])).count("1")
        parts = [plural(tiles, "tile")]
        if reason in (WHY_ROAD, WHY_ROAD_END) and st["oases"][ref]:
            parts.append(plural(int(st["oases"][ref]), "oasis").replace("oasiss", "oases"))
        if reason in cities and st["scrolls"][ref]:
            parts.append(plural(int(st["scrolls"][ref]), "scroll" if ark else "pennant"))
        if reason == WHY_CITY_END and points == 2 * (tiles + int(st["scrolls"][ref])):
            parts.append("doubled by the prophet (PROPHET_DOUBLES_INCOMPLETE)")
        if reason == WHY_FIELD and (st["sheep"][ref] or st["wolves"][ref]):
            parts.append(f"{st['sheep'][ref]} sheep, {plural(int(st['wolves'][ref]), 'wolf').replace('wolfs', 'wolves')}")
        return ", ".join(parts)
    if reason in (WHY_TEMPLE7, WHY_TEMPLE3, WHY_MONASTERY9, WHY_MONASTERY_END):
        return "at " + where(st["p_cell"][ref])
    return ""


def event_line(st, i, ark):
    seat = int(st["ev_seat"][i])
    reason = int(st["ev_reason"][i])
    points = int(st["ev_points"][i])
    text = REASONS[reason].format(n=points)
    detail = feature_words(st, int(st["ev_ref"][i]), reason, points, ark)
    return f"    +{points} {SEAT_NAMES[seat]}: {text}" + (f" ({detail})" if detail else "")


def is_ark_move(st, i):
    return int(st["mv_action"][i]) >= ARK * 16


def ark_cells_before(st):
    """The Ark's cell before each move, -1 while off the board (CA-2.4), then one past the last
    move: where it stands at the end. It enters after a move's scoring (CA-7.2) and moves only by
    the Ark action, to its path's last tile (CA-7.3, CA-7.7); the log records both."""
    cells = [-1]
    for i in range(int(st["n_moves"])):
        cell = cells[-1]
        if is_ark_move(st, i):
            cell = int(st["mv_path"][i, st["mv_path_len"][i] - 1])
        if st["mv_entry"][i] >= 0:
            cell = int(st["mv_entry"][i])
        cells.append(cell)
    return cells


def ark_move_words(st, i, ark_from):
    """An Ark move as a player follows it: from the tile the Ark stood on through every tile it
    enters, the last one where it stays (CA-7.5, CA-7.7). The log holds only the tiles entered."""
    steps = [int(c) for c in st["mv_path"][i, :st["mv_path_len"][i]]]
    return f"{plural(len(steps), 'step')}: " + " -> ".join(where(c) for c in [ark_from] + steps)


def action_line(ts, st, i, ark_from):
    """Move i's figure action; ark_from: the Ark's cell before the move (-1 while off the board)."""
    tt = ts.tables[0]
    seat = SEAT_NAMES[int(st["mv_seat"][i])]
    action = int(st["mv_action"][i])
    t, r = int(st["mv_type"][i]), int(st["mv_rot"][i])
    if is_ark_move(st, i):
        return f"  {seat} moves the Ark {ark_move_words(st, i, ark_from)}"
    kind, g = divmod(action, 16)
    if kind == FOLLOWER:
        return f"  {seat} puts a follower on the {segment_label(tt, t, r, g)}"
    if kind == PROPHET:
        return f"  {seat} puts the prophet on the {segment_label(tt, t, r, g)}"
    return f"  {seat} places no figure"


def replay_lines(ts, st, categories, header):
    """The whole game in words: every move, what scored and why, final scoring, the map."""
    lines = list(header)
    n_moves = int(st["n_moves"])
    ev = 0
    n_events = int(st["n_events"])
    ark_from = ark_cells_before(st)
    for i in range(n_moves + 1):
        discards = [ts.ids[int(t)] for t in st["mv_discards"][i, :st["mv_n_discards"][i]]] \
            if i < len(st["mv_n_discards"]) else []
        if discards:
            lines.append(f"  tile(s) {', '.join(discards)} fit nowhere: discarded")
        if i == n_moves:
            break
        t = int(st["mv_type"][i])
        lines.append(f"turn {i + 1}: {SEAT_NAMES[int(st['mv_seat'][i])]} draws {ts.ids[t]}, "
                     f"places it at {where(st['mv_cell'][i])} turned {90 * int(st['mv_rot'][i])}°")
        lines.append(action_line(ts, st, i, ark_from[i]))
        while ev < n_events and st["ev_turn"][ev] == i:
            lines.append(event_line(st, ev, ts.rules["ruleset"] == "ark"))
            ev += 1
        if st["mv_entry"][i] >= 0:
            lines.append(f"  the Ark enters the board at {where(st['mv_entry'][i])}")
    lines.append("final scoring:")
    while ev < n_events:
        lines.append(event_line(st, ev, ts.rules["ruleset"] == "ark"))
        ev += 1
    players = int(st["players"])
    lines.append("final scores:")
    for s in range(players):
        parts = ", ".join(f"{c} {int(st['pts'][s, k])}" for k, c in enumerate(categories))
        lines.append(f"  {SEAT_NAMES[s]} (seat {s}): {int(st['vp'][s])}  ({parts})")
    lines.append("final map (N up; # city, -| road, + road junction or bend, . field, T temple, "
                 "M monastery, digit = a figure of that seat, A = the Ark):")
    lines.extend(map_lines(ts, st))
    return lines


def tile_picture(tt, st, pidx):
    """A placed tile as 3x3 characters."""
    t, r = int(st["p_type"][pidx]), int(st["p_rot"][pidx])
    edge = [int(tt["edge"][t, r, s]) for s in range(4)]
    mark = {cp.C: "#", cp.F: "."}
    n = mark.get(edge[0], "|")
    e = mark.get(edge[1], "-")
    s = mark.get(edge[2], "|")
    w = mark.get(edge[3], "-")
    centre = "."
    if tt["temple"][t]:
        centre = "T"
    elif tt["cloister_seg"][t] >= 0:
        centre = "M"
    elif edge[0] == edge[2] == cp.R and edge.count(cp.R) == 2:
        centre = "|"                            # a straight road
    elif edge[1] == edge[3] == cp.R and edge.count(cp.R) == 2:
        centre = "-"
    elif edge.count(cp.R) >= 2:
        centre = "+"                            # a bend or a junction
    elif sum(1 for x in edge if x == cp.C) >= 2 and any(
            tt["seg_kind"][t, g] == cp.CITY and tt["seg_open"][t, g] >= 2 for g in range(tt["n_seg"][t])):
        centre = "#"
    for seat in range(int(st["players"])):
        for node in st["fig_node"][seat]:
            if node >= 0 and node // MAX_SEG == pidx:
                centre = str(seat)
    if st["ark_cell"] == st["p_cell"][pidx]:
        centre = "A"
    corner = lambda a, b: "#" if a == b == cp.C else " "
    return [corner(edge[3], edge[0]) + n + corner(edge[0], edge[1]),
            w + centre + e,
            corner(edge[2], edge[3]) + s + corner(edge[1], edge[2])]


def map_lines(ts, st):
    tt = ts.tables[0]
    cells = {xy_of(int(st["p_cell"][p])): p for p in range(int(st["n_placed"]))}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    lines = []
    for y in range(max(ys), min(ys) - 1, -1):
        rows = ["", "", ""]
        for x in range(min(xs), max(xs) + 1):
            pic = tile_picture(tt, st, cells[(x, y)]) if (x, y) in cells else ["   "] * 3
            for k in range(3):
                rows[k] += pic[k]
        lines.extend(row.rstrip() for row in rows)
    return lines
