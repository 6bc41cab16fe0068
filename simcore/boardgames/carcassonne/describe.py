"""Moves and states as text, for replay and debugging (plain Python, never in a kernel), and the
move log read turn by turn (read_log), for the replay, the golden files and the tests."""
from dataclasses import dataclass, field
from typing import NamedTuple

from simcore.seats import SEAT_NAMES
from simcore.boardgames.carcassonne import components as cp
from simcore.boardgames.carcassonne.state import (
    ARK, EV_ACTION, EV_ARK_ENTERS, EV_ARK_STEP, EV_DISCARD, EV_PLACE, EV_SCORE, FOLLOWER, MAX_SEG, PASS,
    PROPHET, WHY_ARK, WHY_CITY, WHY_CITY_END, WHY_CITY_PROPHET, WHY_FIELD, WHY_MONASTERY9, WHY_MONASTERY_END,
    WHY_ROAD, WHY_ROAD_END, WHY_TEMPLE3, WHY_TEMPLE7, xy_of,
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


class Score(NamedTuple):
    """A score event of the move log (state.EV_SCORE)."""
    seat: int
    points: int
    why: int            # WHY_*
    ref: int            # the feature's root node, the temple's or monastery's tile index, or the Ark's end cell


@dataclass
class Turn:
    """One turn of the move log (state.py, EV_*): the seat's tile and action, what scored, the Ark."""
    number: int             # 0 for the first turn after the start tile (st.round_no)
    seat: int
    tile: int
    cell: int
    rot: int
    discards: list          # tiles drawn before the turn's tile that fit nowhere (CA-4.4)
    action: int = PASS * 16
    ark_path: list = field(default_factory=list)    # the tiles the Ark entered, in order, if it moved
    scores: list = field(default_factory=list)      # Score events of the turn's phases A and S
    entry: int = -1                                 # where the Ark entered the board after it, or -1
    vp: list = field(default_factory=list)          # each seat's VP after the turn (in a log from the start)

    @property
    def moves_ark(self):
        return self.action >= ARK * 16


@dataclass
class GameLog:
    """The move log turn by turn (read_log)."""
    turns: list
    discards: list          # tiles drawn after the last turn that fit nowhere, to the pile's end (CA-10.1b)
    final: list             # Score events of the final scoring


def read_log(st):
    """The move log of the state record st as a GameLog. A turn's entries begin with its tile
    (EV_PLACE) and have its number as their round; the discards before the next tile and the
    final scoring come after, with the next number. A log may begin in the middle of a game (a
    search's run that logs from the turn it resumes at)."""
    log = GameLog(turns=[], discards=[], final=[])
    vp = [0] * int(st["players"])
    turn = None             # the turn the entries belong to; None for discards and final scoring
    for code, round_no, seat, a, b, c, seat_vp in st["ev"][:int(st["n_events"])].tolist():
        vp[seat] = seat_vp
        if code == EV_PLACE:
            turn = Turn(round_no, seat, tile=a, cell=b, rot=c, discards=log.discards)
            log.turns.append(turn)
            log.discards = []
        elif turn is not None and round_no != turn.number:
            turn = None
        if code == EV_DISCARD:
            log.discards.append(a)
        elif code == EV_ACTION:
            turn.action = a
        elif code == EV_ARK_STEP:
            turn.ark_path.append(a)
        elif code == EV_SCORE:
            (log.final if turn is None else turn.scores).append(Score(seat, a, b, c))
        elif code == EV_ARK_ENTERS:
            turn.entry = a
        if turn is not None:
            turn.vp = list(vp)
    return log


def score_events(st, start=0):
    """The Score events of the move log from its entry start on."""
    return [Score(seat, a, b, c) for code, _, seat, a, b, c, _ in st["ev"][start:int(st["n_events"])].tolist()
            if code == EV_SCORE]


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
        seg = st["seg"][ref]
        tiles = bin(int(seg["tiles_lo"])).count("1") + bin(int(seg["tiles_hi"])).count("1")
        parts = [plural(tiles, "tile")]
        if reason in (WHY_ROAD, WHY_ROAD_END) and seg["oases"]:
            parts.append(plural(int(seg["oases"]), "oasis").replace("oasiss", "oases"))
        if reason in cities and seg["scrolls"]:
            parts.append(plural(int(seg["scrolls"]), "scroll" if ark else "pennant"))
        if reason == WHY_CITY_END and points == 2 * (tiles + int(seg["scrolls"])):
            parts.append("doubled by the prophet (PROPHET_DOUBLES_INCOMPLETE)")
        if reason == WHY_FIELD and (seg["sheep"] or seg["wolves"]):
            parts.append(f"{seg['sheep']} sheep, {plural(int(seg['wolves']), 'wolf').replace('wolfs', 'wolves')}")
        return ", ".join(parts)
    if reason in (WHY_TEMPLE7, WHY_TEMPLE3, WHY_MONASTERY9, WHY_MONASTERY_END):
        return "at " + where(st["p_cell"][ref])
    return ""


def score_line(st, score, ark):
    """A score event in words, with what the scored feature was made of."""
    text = REASONS[score.why].format(n=score.points)
    detail = feature_words(st, score.ref, score.why, score.points, ark)
    return f"    +{score.points} {SEAT_NAMES[score.seat]}: {text}" + (f" ({detail})" if detail else "")


def discard_lines(ts, discards):
    """The tiles drawn in a row that fit nowhere (CA-4.4), on one line."""
    return [f"  tile(s) {', '.join(ts.ids[t] for t in discards)} fit nowhere: discarded"] if discards else []


def ark_cells_before(turns):
    """The Ark's cell before each turn, -1 while off the board (CA-2.4), then one past the last
    turn: where it stands at the end. It enters after a turn's scoring (CA-7.2) and moves only by
    the Ark action, to its path's last tile (CA-7.3, CA-7.7); the log records both."""
    cells = [-1]
    for turn in turns:
        cell = cells[-1]
        if turn.moves_ark:
            cell = turn.ark_path[-1]
        if turn.entry >= 0:
            cell = turn.entry
        cells.append(cell)
    return cells


def ark_move_words(turn, ark_from):
    """An Ark move as a player follows it: from the tile the Ark stood on through every tile it
    enters, the last one where it stays (CA-7.5, CA-7.7). The log holds only the tiles entered."""
    steps = turn.ark_path
    return f"{plural(len(steps), 'step')}: " + " -> ".join(where(c) for c in [ark_from] + steps)


def action_line(ts, turn, ark_from):
    """A turn's figure action; ark_from: the Ark's cell before the turn (-1 while off the board)."""
    tt = ts.tables[0]
    seat = SEAT_NAMES[turn.seat]
    if turn.moves_ark:
        return f"  {seat} moves the Ark {ark_move_words(turn, ark_from)}"
    kind, g = divmod(turn.action, 16)
    if kind == FOLLOWER:
        return f"  {seat} puts a follower on the {segment_label(tt, turn.tile, turn.rot, g)}"
    if kind == PROPHET:
        return f"  {seat} puts the prophet on the {segment_label(tt, turn.tile, turn.rot, g)}"
    return f"  {seat} places no figure"


def replay_lines(ts, st, categories, header):
    """The whole game in words: every move, what scored and why, final scoring, the map."""
    lines = list(header)
    log = read_log(st)
    ark = ts.rules["ruleset"] == "ark"
    for turn, ark_from in zip(log.turns, ark_cells_before(log.turns)):
        lines.extend(discard_lines(ts, turn.discards))
        lines.append(f"turn {turn.number + 1}: {SEAT_NAMES[turn.seat]} draws {ts.ids[turn.tile]}, "
                     f"places it at {where(turn.cell)} turned {90 * turn.rot}°")
        lines.append(action_line(ts, turn, ark_from))
        lines.extend(score_line(st, score, ark) for score in turn.scores)
        if turn.entry >= 0:
            lines.append(f"  the Ark enters the board at {where(turn.entry)}")
    lines.extend(discard_lines(ts, log.discards))
    lines.append("final scoring:")
    lines.extend(score_line(st, score, ark) for score in log.final)
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
