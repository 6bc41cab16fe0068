"""A picture of one Notre Dame game's final state, or of the game after some round (GameSpec.draw),
plain Python and matplotlib.

The board: the Notre Dame tile in the middle (triangle, square or pentagon) with the cubes on it,
and one district per side, numbered clockwise from the top (the 2-player game uses the 4-district
board, the players in districts 0 and 2, the other two neutral). A district shows its 7 buildings
with their owner's cubes (small squares) and confidant (a round pawn marked C), its 5 markets
(the central market C, the inner corners I nearest Notre Dame, the outer corners O) joined by the
streets of the data's street graph, the message tiles still lying on its markets (M1..M4 in the
district's message colour) and the carriages standing on them. Beside the board, every player's
VP with its score categories, gold, cubes in supply, plague track with the rat marker, messages
taken and where the confidant and carriage stand. A title gives the game, seed, index and scores
(final, or so far after the round the picture shows).
"""
from __future__ import annotations

import math

import numpy as np

from simcore.players import Lineup
from simcore.drawing import SEAT_COLOURS, TEXT_COLOURS, edge_colour, seat_panel
from simcore.seats import SEAT_NAMES
from simcore.boardgames.notre_dame.describe import message_colours
from simcore.boardgames.notre_dame.state import CATEGORIES, N_BUILDINGS, NOWHERE, ROUNDS, SC_OUTBREAKS

BUILDING_NAMES = ("Cloister school", "Bank", "Residence", "Carriage house", "Guest house", "Park", "Hospital")
BOX_NAMES = ("Cloister\nschool", "Bank", "Residence", "Carriage\nhouse", "Guest\nhouse", "Park", "Hospital")
NEUTRAL_FILL = "#e4e4e4"
STREET = "#b9a98a"
ND_FILL = "#efe4c4"
ND_EDGE = "#6b5a2e"

R_IN, R_OUT = 2.75, 9.2                  # a district's wedge between these radii
R_ND = 2.45                              # Notre Dame tile, corner radius
# markets in district coordinates (radius, f): f runs -1 (counter-clockwise edge) .. 1 (clockwise edge)
MARKET_AT = {"C": (6.25, 0.0), "I_ccw": (3.5, -0.70), "I_cw": (3.5, 0.70),
             "O_ccw": (8.5, -0.76), "O_cw": (8.5, 0.76)}
# buildings: a row of 4 nearer Notre Dame, a row of 3 further out
BUILDING_AT = ((5.1, -0.66), (5.1, -0.22), (5.1, 0.22), (5.1, 0.66), (7.45, -0.5), (7.45, 0.0), (7.45, 0.5))
BOX_W, BOX_H = 1.08, 0.98
CUBE = 0.19
PIECE_STEP = 0.235
PER_ROW = 4
MARKET_R = 0.34
DPI = 120


def plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def text_on(colour):
    """Black or white, whichever reads better on a fill of this colour."""
    from matplotlib.colors import to_rgb
    r, g, b = to_rgb(colour)
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "#ffffff"


def district_angle(d, districts):
    """Centre direction of district d in degrees: district 0 at the top, then clockwise."""
    return 90.0 - d * 360.0 / districts


def place(d, districts, radius, f):
    """A point of district d given as (radius, f), f from -1 (ccw edge) to 1 (cw edge)."""
    half = 180.0 / districts
    a = math.radians(district_angle(d, districts) - f * half)
    return np.array([radius * math.cos(a), radius * math.sin(a)])


def cube_patch(x, y, colour, size=CUBE, z=8):
    from matplotlib.patches import Rectangle
    edge = edge_colour(colour)
    return Rectangle((x - size / 2, y - size / 2), size, size, fc=colour, ec=edge, lw=0.9, zorder=z)


def confidant_patches(x, y, colour, r=0.15, z=9):
    from matplotlib.patches import Circle
    edge = edge_colour(colour)
    return [Circle((x, y), r, fc=colour, ec=edge, lw=1.2, zorder=z),
            Circle((x, y), r * 0.45, fc="#ffffff", ec="none", zorder=z + 0.1)]


def carriage_patches(x, y, colour, z=12):
    from matplotlib.patches import Circle, FancyBboxPatch
    edge = edge_colour(colour)
    w, h = 0.5, 0.26
    return [FancyBboxPatch((x - w / 2, y - h / 2 + 0.04), w, h, boxstyle="round,pad=0,rounding_size=0.06",
                           fc=colour, ec=edge, lw=1.1, zorder=z),
            Circle((x - 0.14, y - h / 2 + 0.02), 0.075, fc="#3a2a1a", ec=edge, lw=0.8, zorder=z + 0.1),
            Circle((x + 0.14, y - h / 2 + 0.02), 0.075, fc="#3a2a1a", ec=edge, lw=0.8, zorder=z + 0.1)]


def draw_pieces(ax, x, y, cubes, confidant, colour):
    """A building's cubes and confidant in rows of PER_ROW below its name (9+ cubes: one cube and xN)."""
    if cubes > 2 * PER_ROW - int(confidant):
        y0 = y - 0.25
        ax.add_patch(cube_patch(x - 0.32, y0, colour))
        ax.text(x - 0.19, y0, f"\u00d7{cubes}", ha="left", va="center", fontsize=7.5, weight="bold", zorder=9)
        if confidant:
            for p in confidant_patches(x + 0.34, y0, colour):
                ax.add_patch(p)
        return
    pieces = ["cube"] * cubes + (["conf"] if confidant else [])
    rows = [pieces[i:i + PER_ROW] for i in range(0, len(pieces), PER_ROW)]
    ys = [y - 0.24] if len(rows) == 1 else [y - 0.13, y - 0.36]
    for row, y0 in zip(rows, ys):
        for k, piece in enumerate(row):
            x0 = x + (k - (len(row) - 1) / 2) * PIECE_STEP
            if piece == "cube":
                ax.add_patch(cube_patch(x0, y0, colour))
            else:
                for p in confidant_patches(x0, y0, colour, r=0.11):
                    ax.add_patch(p)


def draw_board(ax, data, st, players):
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Circle, FancyBboxPatch, Polygon, Rectangle, Wedge

    districts = int(data.districts[players])
    owner = {int(data.seat_district[players, s]): s for s in range(players)}
    msg_colour = message_colours(data, players)
    roles = data.market_roles
    n_markets = districts * len(roles)
    market_xy = {}
    for m in range(n_markets):
        d, role = divmod(m, len(roles))
        market_xy[m] = place(d, districts, *MARKET_AT.get(roles[role], (5.95, 0.0)))
    half = 180.0 / districts

    # districts
    for d in range(districts):
        a = district_angle(d, districts)
        seat = owner.get(d)
        fill = SEAT_COLOURS[seat] if seat is not None else NEUTRAL_FILL
        ax.add_patch(Wedge((0, 0), R_OUT, a - half + 1.2, a + half - 1.2, width=R_OUT - R_IN,
                           fc=fill, alpha=0.16 if seat is not None else 0.9, ec="none", zorder=0))
        ax.add_patch(Wedge((0, 0), R_OUT, a - half + 1.2, a + half - 1.2, width=R_OUT - R_IN, fc="none",
                           ec=fill if seat is not None else "#9a9a9a", lw=2.2, zorder=0.5))
        lx, ly = place(d, districts, R_OUT - 0.4, 0.0)
        rotation = (a - 90.0 + 180.0) % 360.0 - 180.0          # along the outer edge, never upside down
        if rotation < -90.0 or rotation > 90.0:
            rotation = (rotation + 360.0) % 360.0 - 180.0
        if seat is not None:
            label = f"district {d}: {SEAT_NAMES[seat]}"
            colour = TEXT_COLOURS[seat]
        else:
            label = f"district {d}: neutral ({SEAT_NAMES[msg_colour[d]].lower()} messages)"
            colour = "#555555"
        ax.text(lx, ly, label, ha="center", va="center", fontsize=9.5, weight="bold", color=colour, zorder=20,
                rotation=rotation, rotation_mode="anchor",
                bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="none", alpha=0.85))

    # streets
    adjacency = data.adjacency[data.street_graph, players]
    lines = [(market_xy[a], market_xy[b]) for a in range(n_markets) for b in range(a + 1, n_markets)
             if adjacency[a, b]]
    ax.add_collection(LineCollection(lines, colors=STREET, linewidths=4.0, capstyle="round", zorder=1))
    ax.add_collection(LineCollection(lines, colors="#efe6d0", linewidths=1.6, capstyle="round", zorder=1.1))

    # buildings with cubes and confidants
    for d in range(districts):
        seat = owner.get(d)
        for b in range(N_BUILDINGS):
            x, y = place(d, districts, *BUILDING_AT[b])
            faded = seat is None
            ax.add_patch(FancyBboxPatch((x - BOX_W / 2, y - BOX_H / 2), BOX_W, BOX_H,
                                        boxstyle="round,pad=0,rounding_size=0.08",
                                        fc="#f7f3ea" if not faded else "#f0f0f0",
                                        ec="#5c4a2c" if not faded else "#b0b0b0", lw=1.1, zorder=3))
            ax.text(x, y + BOX_H / 2 - 0.05, BOX_NAMES[b], ha="center", va="top", fontsize=6.8,
                    linespacing=0.95, color="#3a2a10" if not faded else "#9a9a9a", zorder=4)
            if seat is not None:
                draw_pieces(ax, x, y, int(st["cubes"][seat, b]), int(st["conf"][seat]) == b, SEAT_COLOURS[seat])

    # markets, message tiles, carriages
    at_market = {}
    for s in range(players):
        at_market.setdefault(int(st["carriage"][s]), []).append(s)
    for m in range(n_markets):
        x, y = market_xy[m]
        ax.add_patch(Circle((x, y), MARKET_R, fc="#fffdf5", ec="#7a6a4a", lw=1.2, zorder=5))
        tile = int(st["msg_at"][m])
        if tile >= 0:
            colour = SEAT_COLOURS[msg_colour[tile // 4]]
            kind = data.message_ids[tile % 4]                 # tile = colour * 4 + message kind
            ax.add_patch(Rectangle((x - 0.27, y - 0.27), 0.54, 0.54, fc=colour,
                                   ec="#ffffff" if colour == SEAT_COLOURS[4] else "#222222", lw=1.2, zorder=6))
            ax.text(x, y, kind, ha="center", va="center", fontsize=7.5, weight="bold", color=text_on(colour),
                    zorder=7)
        elif m % len(roles) == data.central_role:
            ax.text(x, y, "C", ha="center", va="center", fontsize=8, color="#7a6a4a", zorder=6)
        cars = at_market.get(m, [])
        for k, s in enumerate(cars):
            # carriages stand just outside the market, fanned out towards the district's middle
            ang = math.atan2(y, x) + math.pi / 2 + (k - (len(cars) - 1) / 2) * 0.9
            cx, cy = x + 0.62 * math.cos(ang), y + 0.62 * math.sin(ang)
            for p in carriage_patches(cx, cy, SEAT_COLOURS[s]):
                ax.add_patch(p)

    # Notre Dame
    corners = [(R_ND * math.cos(math.radians(district_angle(d, districts) - half)),
                R_ND * math.sin(math.radians(district_angle(d, districts) - half))) for d in range(districts)]
    ax.add_patch(Polygon(corners, closed=True, fc=ND_FILL, ec=ND_EDGE, lw=2.0, zorder=2))
    payout = int(data.nd_payout[players])
    total = sum(int(st["nd"][s]) for s in range(players))
    lift = 0.45 if districts == 3 else 0.0                 # the triangle is wide at the top
    ax.text(0, 0.62 + lift, "Notre Dame", ha="center", va="center", fontsize=10.5, weight="bold",
            color="#4a3a10", zorder=4)
    ax.text(0, 0.25 + lift, f"payout {payout} VP", ha="center", va="center", fontsize=7.5, color="#4a3a10",
            zorder=4)
    if total == 0:
        round_no = int(st["round_no"])
        if st["halted"] and round_no % 3:                  # a stage still going: its payout is to come
            why = f"no cubes now; the next\npayout is after round {round_no + 3 - round_no % 3}"
        else:
            why = "no cubes: all went back\nafter the last payout"
        ax.text(0, -0.2 + lift, why, ha="center", va="center", fontsize=6.5, style="italic", color="#6b5a2e",
                zorder=4)
    else:
        holders = [s for s in range(players) if st["nd"][s] > 0]
        for i, s in enumerate(holders):
            y0 = -0.18 + lift - i * 0.3
            n = int(st["nd"][s])
            shown = min(n, 6)
            for k in range(shown):
                ax.add_patch(cube_patch((k - (shown - 1) / 2) * 0.26 - 0.2, y0, SEAT_COLOURS[s], size=0.21))
            ax.text(-0.2 + (shown - 1) * 0.13 + 0.22, y0, f"{n}", ha="left", va="center", fontsize=8, weight="bold",
                    color=TEXT_COLOURS[s], zorder=9)

    lim = R_OUT + 0.15
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal")
    ax.axis("off")


def draw_panel(ax, data, st, players, seat_policies, policy_names, height):
    """Each player's block: VP and categories, gold, cubes, plague track, messages, confidant, carriage.

    The axes are 10 units wide and `height` units tall at equal aspect."""
    from matplotlib.patches import Circle, Rectangle

    msg_colour = message_colours(data, players)
    n_colours = int(data.districts[players])
    block = height / 5
    ax.set_xlim(0, 10)
    ax.set_ylim(-height, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    for s in range(players):
        top = -s * block
        seat_panel(ax, s, top, block, f"{SEAT_NAMES[s]}  ({policy_names[int(seat_policies[s])]})", int(st["vp"][s]))
        pts = [int(x) for x in st["pts"][s]]
        ax.text(0.25, top - 0.88, "  \u00b7  ".join(f"{c.replace('_', ' ')} {v}" for c, v in zip(CATEGORIES, pts)),
                ha="left", va="center", fontsize=8.3, color="#333333")
        ax.text(0.25, top - 1.28,
                f"gold {int(st['gold'][s])}   \u00b7   cubes: personal supply {int(st['personal'][s])}, "
                f"general supply {int(st['gsupply'][s])}, Notre Dame {int(st['nd'][s])}",
                ha="left", va="center", fontsize=9)
        # plague track 0..9 with the rat marker
        y = top - 1.72
        ax.text(0.25, y, "rats", ha="left", va="center", fontsize=9)
        rat = int(st["rat"][s])
        for v in range(10):
            x0 = 1.05 + v * 0.42
            ax.add_patch(Rectangle((x0, y - 0.18), 0.38, 0.36, fc="#f4d6d0" if v >= 7 else "#ffffff",
                                   ec="#888888", lw=0.8))
            ax.text(x0 + 0.19, y, str(v), ha="center", va="center", fontsize=6.5, color="#777777")
        ax.add_patch(Circle((1.05 + rat * 0.42 + 0.19, y), 0.15, fc="#111111", ec="#ffffff", lw=1.0, zorder=5))
        outbreaks = int(st["seat_count"][s, SC_OUTBREAKS])
        ax.text(5.35, y, f"rat marker on {rat}  \u00b7  {plural(outbreaks, 'outbreak')}",
                ha="left", va="center", fontsize=9)
        # messages taken
        y = top - 2.16
        ax.text(0.25, y, "messages", ha="left", va="center", fontsize=9)
        x0 = 1.65
        for c in range(n_colours):
            for _ in range(int(st["held"][s, c])):
                mc = SEAT_COLOURS[msg_colour[c]]
                ax.add_patch(Rectangle((x0, y - 0.15), 0.3, 0.3, fc=mc,
                                       ec="#ffffff" if mc == SEAT_COLOURS[4] else "#222222", lw=0.9))
                x0 += 0.37
        if x0 == 1.65:
            ax.text(x0, y, "none", ha="left", va="center", fontsize=9, style="italic", color="#666666")
        conf = int(st["conf"][s])
        where = "in front of the player" if conf == NOWHERE else f"on the {BUILDING_NAMES[conf]}"
        ax.text(0.25, top - 2.56, f"confidant {where}   \u00b7   carriage at market "
                f"{data.market_name(int(st['carriage'][s]))}", ha="left", va="center", fontsize=9, color="#333333")


def picture(data, players, seat_policies, seed, index, path, halt_at=0, lineup=None):
    """GameSpec.draw: the final state of game `index` of `seed` as a PNG at path, or the state after
    round halt_at; True if the game was stopped there, False if it ended first."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from simcore.boardgames.notre_dame.policies import POLICIES
    from simcore.boardgames.notre_dame.spec import play_logged

    lineup = lineup or Lineup.own(POLICIES)
    st = play_logged(data, players, seat_policies, seed, index, halt_at=halt_at, search=lineup.table)
    round_no = int(st["round_no"])
    policy_names = lineup.names
    fig = plt.figure(figsize=(17.0, 11.0), dpi=DPI, facecolor="white")
    board = fig.add_axes([0.005, 0.05, 0.60, 0.86])
    draw_board(board, data, st, players)
    box = (0.615, 0.035, 0.375, 0.87)
    panel = fig.add_axes(box)
    draw_panel(panel, data, st, players, seat_policies, policy_names,
               height=10 * (box[3] * fig.get_figheight()) / (box[2] * fig.get_figwidth()))
    scores = ", ".join(f"{SEAT_NAMES[s]} {int(st['vp'][s])}" for s in range(players))
    fig.text(0.5, 0.985, f"Notre Dame  \u2014  {players} players, seed {seed}, game {index}, data {data.data_set_id}",
             ha="center", va="top", fontsize=15, weight="bold")
    when = f"scores after round {round_no} of {ROUNDS}" if st["halted"] else "final scores"
    fig.text(0.5, 0.952, f"{when}: {scores}   \u00b7   gold left in the supply {int(st['G'])}"
             f"   \u00b7   street graph {data.street_graphs[data.street_graph]}",
             ha="center", va="top", fontsize=11.5)
    persons = ", ".join(f"{data.person_names[int(i)]} ({plural(int(data.person_rats[int(i)]), 'rat')})"
                        for i in st["face"])
    fig.text(0.5, 0.925, f"persons of round {round_no}: {persons}", ha="center", va="top", fontsize=10,
             color="#444444")
    _legend(fig)
    fig.savefig(path, dpi=DPI, facecolor="white")
    plt.close(fig)
    return bool(st["halted"])


def _legend(fig):
    """One line of symbol samples under the board."""
    from matplotlib.patches import Rectangle
    lax = fig.add_axes([0.01, 0.008, 0.6, 0.035])
    lax.set_xlim(0, 30)
    lax.set_ylim(-0.5, 0.5)
    lax.axis("off")
    renderer = fig.canvas.get_renderer()

    def label(x, text):
        t = lax.text(x, 0, text, va="center", ha="left", fontsize=8.5)
        return t.get_window_extent(renderer).transformed(lax.transData.inverted()).x1 + 0.9

    # square samples: the axes are 0.6 * 17 in wide for 30 units and 0.035 * 11 in tall for 1 unit
    sx = 1.0 / (0.6 * 17 / 30) * (0.035 * 11)
    x = 0.3
    lax.add_patch(Rectangle((x - 0.15 * sx, -0.15), 0.3 * sx, 0.3, fc=SEAT_COLOURS[0], ec="#111111", lw=0.9))
    x = label(x + 0.3, "cube")
    lax.plot([x], [0], marker="o", ms=9, mfc=SEAT_COLOURS[0], mec="#111111", mew=1.1)
    lax.plot([x], [0], marker="o", ms=3.5, mfc="#ffffff", mec="none")
    x = label(x + 0.3, "confidant")
    lax.add_patch(Rectangle((x - 0.2 * sx, -0.08), 0.4 * sx, 0.24, fc=SEAT_COLOURS[0], ec="#111111", lw=0.9))
    lax.plot([x - 0.1 * sx, x + 0.1 * sx], [-0.14, -0.14], ls="none", marker="o", ms=3.5, mfc="#3a2a1a",
             mec="#111111")
    x = label(x + 0.35, "carriage")
    lax.plot([x], [0], marker="o", ms=11, mfc="#fffdf5", mec="#7a6a4a", mew=1.2)
    x = label(x + 0.35, "market (d.C central; d.I_ / d.O_ inner / outer corners, ccw / cw side)")
    lax.add_patch(Rectangle((x - 0.2 * sx, -0.2), 0.4 * sx, 0.4, fc=SEAT_COLOURS[0], ec="#222222", lw=1.0))
    lax.text(x, 0, "M2", ha="center", va="center", fontsize=5.5, color="white", weight="bold")
    label(x + 0.35, "message tile still on the board")
