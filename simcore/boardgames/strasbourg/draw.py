"""A picture of one Strasbourg game's final state, or of the game after some round (GameSpec.draw),
plain Python and matplotlib.

The city: the 6 x 9 grid (row 0 at the top, as in the replay's (row,col)), each guild space in its
guild's colour with its printed price in the corner, the building sites grey with the building
placed there (its name and prestige value), the family members on the spaces in their seat's
colour, the chapel spots on the grid vertices (empty: a white spot; built: a chapel) and the city
wall with its corner towers round the wall cells. Below it the council (NOBILITY, CHURCH, the
guild seats, MERCHANTS) with the family member on each seat, and the five round cards with their
guilds and building. Beside it every player's VP by score category, coins, goods, privileges,
family members in the city and tasks. A title gives the game, seed, index and final scores (after
a round: the scores so far, before the final scoring of tasks, city, chapels, buildings and
privileges; the tasks are marked as the state drawn would score them).
"""
from __future__ import annotations

from simcore.players import Lineup
from simcore.drawing import SEAT_COLOURS, Y_DOWN, edge_colour, figure_patches, seat_panel
from simcore.seats import SEAT_NAMES
from simcore.boardgames.strasbourg.scoring import FAILED_TASK
from simcore.boardgames.strasbourg.state import (
    CATEGORIES, N_GUILDS, ROUNDS, SC_CITY, SC_PRIVILEGES_SPENT, SC_TASKS_KEPT, SC_TASKS_MET)

# guild colours by id (the data names green shoemakers and red butchers); others by guild order
GUILD_COLOURS = {"SMITHS": "#9fb3c8", "VINTNERS": "#c3a6d8", "SHOEMAKERS": "#a9d39a", "BUTCHERS": "#eda6a0",
                 "BAKERS": "#f2cf8c"}
SPARE_GUILD_COLOURS = ("#9fb3c8", "#c3a6d8", "#a9d39a", "#eda6a0", "#f2cf8c")
SITE_GREY = "#a3a3a3"
WALL_FILL = "#9b8c7a"
WALL_EDGE = "#4a3f33"
WALL_W = 0.24                           # the wall band's width, in cells
DPI = 120


def guild_colour(data, g):
    return GUILD_COLOURS.get(data.guild_ids[g], SPARE_GUILD_COLOURS[g % len(SPARE_GUILD_COLOURS)])


def family_member(ax, x, y, size, seat, z=10):
    """A family member (a meeple) standing at (x, y) in an axes whose y axis points down."""
    colour = SEAT_COLOURS[seat]
    strokes = ((1.3, edge_colour(colour), z),)
    for patch in figure_patches((x, y), size, colour, strokes, turn=Y_DOWN, inset=0.004):
        ax.add_patch(patch)


def chapel(ax, x, y, size=0.21, z=12):
    """A built chapel centred on a grid vertex: a small church with a cross (y axis down)."""
    from matplotlib.patches import Polygon, Rectangle
    s = size
    y += 0.375 * s                                  # centre the church, cross included, on the vertex
    ax.add_patch(Polygon([(x - s, y + s), (x - s, y - 0.2 * s), (x, y - s), (x + s, y - 0.2 * s), (x + s, y + s)],
                         closed=True, fc="#fbf7ea", ec="#3a2f55", lw=1.4, zorder=z))
    ax.add_patch(Rectangle((x - 0.07 * s * 2.2, y - 1.75 * s), 0.14 * s * 2.2, 0.85 * s, fc="#3a2f55",
                           ec="none", zorder=z + 0.1))
    ax.add_patch(Rectangle((x - 0.35 * s, y - 1.5 * s), 0.7 * s, 0.13 * s * 2, fc="#3a2f55", ec="none",
                           zorder=z + 0.1))
    ax.add_patch(Rectangle((x - 0.22 * s, y + 0.25 * s), 0.44 * s, 0.75 * s, fc="#6a5a8a", ec="none",
                           zorder=z + 0.1))


def building(ax, x, y, name, value):
    """The building placed on the site whose top-left corner is (x, y): a house with its name."""
    from matplotlib.patches import Polygon, Rectangle
    ax.add_patch(Polygon([(x + 0.14, y + 0.5), (x + 0.5, y + 0.2), (x + 0.86, y + 0.5)], closed=True,
                         fc="#8a3b2a", ec="#3a1a10", lw=1.0, zorder=4))
    ax.add_patch(Rectangle((x + 0.2, y + 0.5), 0.6, 0.3, fc="#f2e6cc", ec="#3a1a10", lw=1.0, zorder=4))
    ax.add_patch(Rectangle((x + 0.44, y + 0.62), 0.12, 0.18, fc="#5a3a20", ec="none", zorder=4.1))
    ax.text(x + 0.5, y + 0.1, name, ha="center", va="center", fontsize=7.2, weight="bold", color="#111111",
            zorder=5)
    ax.text(x + 0.5, y + 0.91, f"{value} VP each", ha="center", va="center", fontsize=6.3, color="#111111",
            zorder=5)


def draw_city(ax, data, st):
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Circle, Rectangle

    rows, cols = int(data.rows), int(data.cols)
    n = rows * cols
    for c in range(n):
        r, k = int(data.cell_row[c]), int(data.cell_col[c])
        if data.is_site[c]:
            ax.add_patch(Rectangle((k, r), 1, 1, fc=SITE_GREY, ec="none", zorder=1))
            b = int(st["site_building"][c])
            if b >= 0:
                building(ax, k, r, data.building_names[b], int(data.building_value[b]))
            else:
                ax.text(k + 0.5, r + 0.5, "building\nsite", ha="center", va="center", fontsize=6.5,
                        color="#f4f4f4", zorder=2)
            continue
        g = int(data.cell_guild[c])
        ax.add_patch(Rectangle((k, r), 1, 1, fc=guild_colour(data, g), ec="none", zorder=1))
        ax.text(k + 0.07, r + 0.07, str(int(data.cell_price[c])), ha="left", va="top", fontsize=7,
                color="#333333", zorder=2)
        owner = int(st["cell_owner"][c])
        if owner >= 0:
            family_member(ax, k + 0.5, r + 0.56, 0.27, owner)
    # thin cell lines, thick lines between different guilds (and round the sites)
    thin, thick = [], []
    kind = [-1 if data.is_site[c] else int(data.cell_guild[c]) for c in range(n)]     # -1: a site
    for r in range(rows):
        for k in range(cols):
            c = r * cols + k
            if k + 1 < cols:
                seg = [(k + 1, r), (k + 1, r + 1)]
                (thick if kind[c] != kind[c + 1] or kind[c] < 0 else thin).append(seg)
            if r + 1 < rows:
                seg = [(k, r + 1), (k + 1, r + 1)]
                (thick if kind[c] != kind[c + cols] or kind[c] < 0 else thin).append(seg)
    ax.add_collection(LineCollection(thin, colors="#ffffff", linewidths=0.8, alpha=0.8, zorder=3))
    ax.add_collection(LineCollection(thick, colors="#3a3a3a", linewidths=1.8, zorder=3))
    ax.add_patch(Rectangle((0, 0), cols, rows, fc="none", ec="#3a3a3a", lw=1.8, zorder=3))

    # the city wall along the outer sides of the wall cells, towers at the corner cells
    for c in range(n):
        if not data.on_wall[c]:
            continue
        r, k = int(data.cell_row[c]), int(data.cell_col[c])
        if r == 0:
            ax.add_patch(Rectangle((k, -WALL_W), 1, WALL_W, fc=WALL_FILL, ec="none", zorder=2))
        if r == rows - 1:
            ax.add_patch(Rectangle((k, rows), 1, WALL_W, fc=WALL_FILL, ec="none", zorder=2))
        if k == 0:
            ax.add_patch(Rectangle((-WALL_W, r), WALL_W, 1, fc=WALL_FILL, ec="none", zorder=2))
        if k == cols - 1:
            ax.add_patch(Rectangle((cols, r), WALL_W, 1, fc=WALL_FILL, ec="none", zorder=2))
    # crenels: small dark notches along the outside of the band
    notch = []
    for k in range(cols):
        for x in (k + 0.25, k + 0.75):
            notch.append([(x, -WALL_W), (x, -WALL_W + 0.08)])
            notch.append([(x, rows + WALL_W), (x, rows + WALL_W - 0.08)])
    for r in range(rows):
        for y in (r + 0.25, r + 0.75):
            notch.append([(-WALL_W, y), (-WALL_W + 0.08, y)])
            notch.append([(cols + WALL_W, y), (cols + WALL_W - 0.08, y)])
    ax.add_collection(LineCollection(notch, colors=WALL_EDGE, linewidths=2.0, zorder=2.5))
    ax.add_patch(Rectangle((-WALL_W, -WALL_W), cols + 2 * WALL_W, rows + 2 * WALL_W, fc="none", ec=WALL_EDGE,
                           lw=1.2, zorder=2.6))
    for c in range(n):
        if data.is_corner[c]:
            r, k = int(data.cell_row[c]), int(data.cell_col[c])
            tx = -WALL_W if k == 0 else (cols + WALL_W if k == cols - 1 else k + 0.5)
            ty = -WALL_W if r == 0 else (rows + WALL_W if r == rows - 1 else r + 0.5)
            ax.add_patch(Circle((tx, ty), 0.27, fc=WALL_FILL, ec=WALL_EDGE, lw=1.6, zorder=4))
            ax.add_patch(Circle((tx, ty), 0.14, fc="#7a6b5a", ec=WALL_EDGE, lw=0.8, zorder=4.1))

    # chapel spots on vertices
    for spot in range(data.chapel_vertex.shape[0]):
        vr, vc = (int(v) for v in data.chapel_vertex[spot])
        if st["chapel"][spot]:
            chapel(ax, vc, vr)
        else:
            ax.add_patch(Circle((vc, vr), 0.12, fc="#ffffff", ec="#666666", lw=1.0, zorder=12))

    # coordinates as in the replay text
    for k in range(cols):
        ax.text(k + 0.5, -WALL_W - 0.38, str(k), ha="center", va="center", fontsize=8, color="#666666")
    for r in range(rows):
        ax.text(-WALL_W - 0.4, r + 0.5, str(r), ha="center", va="center", fontsize=8, color="#666666")


def draw_council(ax, data, st, top):
    """The 8 council seats in a row starting at y = top, each with its holder."""
    from matplotlib.patches import FancyBboxPatch
    names = ["Nobility", "Church"] + [data.guild_names[g] for g in range(N_GUILDS)] + ["Merchants"]
    ax.text(-0.1, top - 0.05, "Council", ha="left", va="bottom", fontsize=11, weight="bold")
    w, gap = 1.04, 0.1
    x0 = 4.5 - (8 * w + 7 * gap) / 2
    for seat in range(len(names)):
        x = x0 + seat * (w + gap)
        g = int(data.seat_guild[seat])
        fill = guild_colour(data, g) if g >= 0 else ("#e8d9a8" if seat == data.nobility_seat else
                                                    "#d9d2e9" if seat == data.church_seat else "#cfe3e8")
        ax.add_patch(FancyBboxPatch((x, top + 0.2), w, 1.05, boxstyle="round,pad=0,rounding_size=0.08",
                                    fc=fill, ec="#444444", lw=1.2, zorder=2))
        ax.text(x + w / 2, top + 0.35, names[seat], ha="center", va="center", fontsize=7.5, weight="bold",
                zorder=3)
        owner = int(st["seat_owner"][seat])
        if owner >= 0:
            family_member(ax, x + w / 2, top + 0.88, 0.25, owner)
        else:
            ax.text(x + w / 2, top + 0.85, "empty", ha="center", va="center", fontsize=7, style="italic",
                    color="#666666", zorder=3)


def draw_rounds(ax, data, st, top):
    """The five round cards: the guilds of sub-phases B, D, F and the round's building (of a game
    in progress, the rounds played are ticked)."""
    from matplotlib.patches import FancyBboxPatch
    ax.text(-0.1, top - 0.05, "Round cards", ha="left", va="bottom", fontsize=11, weight="bold")
    w, gap = 1.72, 0.1
    x0 = 4.5 - (ROUNDS * w + (ROUNDS - 1) * gap) / 2
    for r in range(ROUNDS):
        x = x0 + r * (w + gap)
        ax.add_patch(FancyBboxPatch((x, top + 0.3), w, 1.25, boxstyle="round,pad=0,rounding_size=0.08",
                                    fc="#f7f4ec", ec="#666666", lw=1.0, zorder=1))
        played = " \u2713" if st["halted"] and r < int(st["round_no"]) else ""     # a game in progress
        ax.text(x + 0.08, top + 0.45, f"round {r + 1}{played}", ha="left", va="center", fontsize=7.5,
                weight="bold")
        card = int(st["round_card"][r])
        for i, label in enumerate("BDF"):
            g = int(data.card_guilds[card, i])
            y = top + 0.72 + i * 0.23
            ax.add_patch(FancyBboxPatch((x + 0.08, y - 0.09), 0.18, 0.18, boxstyle="square,pad=0",
                                        fc=guild_colour(data, g), ec="#444444", lw=0.6))
            ax.text(x + 0.33, y, f"{label}: {data.guild_names[g]}", ha="left", va="center", fontsize=6.8)
        b = int(st["round_building"][r])
        ax.text(x + w - 0.08, top + 0.45, f"I: {data.building_names[b]}", ha="right", va="center",
                fontsize=6.8, color="#6a2a1a")


def draw_panel(ax, data, st, players, seat_policies, policy_names, height, tasks):
    """Each player's block: VP by category, coins, privileges, goods, family members, tasks."""
    from matplotlib.patches import Rectangle
    block = height / 5
    ax.set_xlim(0, 10)
    ax.set_ylim(-height, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    for s in range(players):
        top = -s * block
        seat_panel(ax, s, top, block, f"{SEAT_NAMES[s]}  ({policy_names[int(seat_policies[s])]})", int(st["vp"][s]))
        pts = [int(x) for x in st["pts"][s]]
        ax.text(0.25, top - 0.8, "  \u00b7  ".join(f"{c.replace('_', ' ')} {v}" for c, v in zip(CATEGORIES, pts)),
                ha="left", va="center", fontsize=8.3, color="#333333")
        council = sum(1 for seat in range(st["seat_owner"].shape[0]) if int(st["seat_owner"][seat]) == s)
        # SC_CITY is counted by the final scoring: a game in progress counts its spaces
        city = int((st["cell_owner"] == s).sum()) if st["halted"] else int(st["seat_count"][s, SC_CITY])
        ax.text(0.25, top - 1.15,
                f"coins {int(st['coins'][s])}   \u00b7   privileges {int(st['privileges'][s])} "
                f"(spent {int(st['seat_count'][s, SC_PRIVILEGES_SPENT])})   \u00b7   family members: "
                f"{city} in the city, {council} on the council",
                ha="left", va="center", fontsize=9)
        y = top - 1.5
        ax.text(0.25, y, "goods", ha="left", va="center", fontsize=9)
        x = 1.2
        any_goods = False
        for g in range(N_GUILDS):
            k = int(st["goods"][s, g])
            if not k:
                continue
            any_goods = True
            ax.add_patch(Rectangle((x, y - 0.15), 0.3, 0.3, fc=guild_colour(data, g), ec="#333333", lw=0.8))
            label = ax.text(x + 0.38, y, f"{data.guild_names[g]} \u00d7{k}", ha="left", va="center", fontsize=8.5)
            x = text_right(ax, label) + 0.3
        if not any_goods:
            ax.text(x, y, "none", ha="left", va="center", fontsize=9, style="italic", color="#666666")
        if st["halted"]:            # tasks score at the end (SB-12.2): what this state would score
            kept, met = len(tasks[s]), sum(ok for _, ok in tasks[s])
            plus = sum(int(data.task_prestige[card]) for card, ok in tasks[s] if ok)
            line = (f"tasks: {kept} kept; on this state {met} fulfilled (+{plus}), {kept - met} failed "
                    f"({FAILED_TASK * (kept - met)}), scored at the end")
        else:
            kept = int(st["seat_count"][s, SC_TASKS_KEPT])
            met = int(st["seat_count"][s, SC_TASKS_MET])
            line = f"tasks: {kept} kept, {met} fulfilled (+{pts[5]}), {kept - met} failed ({pts[6]})"
        ax.text(0.25, top - 1.85, line, ha="left", va="center", fontsize=9)
        for i, (card, ok) in enumerate(tasks[s]):
            col, row = divmod(i, 3)
            mark, value = ("\u2713", f"+{int(data.task_prestige[card])}") if ok else ("\u2717", "-3")
            ax.text(0.3 + col * 4.85, top - 2.12 - row * 0.24, f"{mark} {task_label(data, card)} ({value})",
                    ha="left", va="center", fontsize=7.3, color="#17772f" if ok else "#b01818")


def text_right(ax, text):
    """Where a text ends on the x axis of its axes (data units), as drawn."""
    renderer = ax.figure.canvas.get_renderer()
    return text.get_window_extent(renderer).transformed(ax.transData.inverted()).x1


def task_label(data, card):
    """A task card's name without its type id, short enough for half a player's block."""
    name = data.task_names[card].split(": ", 1)[-1]
    return name if len(name) <= 48 else name[:47] + "\u2026"


def kept_tasks(data, st, players):
    """Per seat: (task card, fulfilled on the state drawn: the final one, or a game in progress) for
    each kept card (SB-12.1e)."""
    from simcore.boardgames.strasbourg.scoring import task_met
    from simcore.boardgames.strasbourg.state import new_tables
    tt = new_tables(data, players)[0]
    return [[(int(c), bool(task_met(st, tt, s, int(c)))) for c in st["tasks"][s] if c >= 0]
            for s in range(players)]


def picture(data, players, seat_policies, seed, index, path, halt_at=0, lineup=None):
    """GameSpec.draw: the final state of game `index` of `seed` as a PNG at path, or the state after
    round halt_at; True if the game was stopped there, False if it ended first."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from simcore.boardgames.strasbourg.policies import POLICIES
    from simcore.boardgames.strasbourg.spec import play_logged

    lineup = lineup or Lineup.own(POLICIES)
    st = play_logged(data, players, seat_policies, seed, index, halt_at=halt_at, search=lineup.table)
    policy_names = lineup.names
    fig_w, fig_h = 17.0, 11.5
    fig = plt.figure(figsize=(fig_w, fig_h), dpi=DPI, facecolor="white")
    rows, cols = int(data.rows), int(data.cols)
    # left: the city, the council and the round cards in one axes (y down, a cell = 1 unit)
    x_lo, x_hi = -0.9, cols + 0.5
    y_lo, y_hi = -0.9, rows + 4.4
    box_h = 0.915
    box_w = box_h * fig_h / fig_w * (x_hi - x_lo) / (y_hi - y_lo)
    ax = fig.add_axes([0.005, 0.005, box_w, box_h])
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(y_hi, y_lo)
    ax.set_aspect("equal")
    ax.axis("off")
    draw_city(ax, data, st)
    draw_council(ax, data, st, rows + 0.75)
    draw_rounds(ax, data, st, rows + 2.6)
    left = box_w + 0.015
    panel_box = (left, 0.02, 0.99 - left, 0.885)
    panel = fig.add_axes(panel_box)
    draw_panel(panel, data, st, players, seat_policies, policy_names,
               height=10 * (panel_box[3] * fig_h) / (panel_box[2] * fig_w), tasks=kept_tasks(data, st, players))
    scores = ", ".join(f"{SEAT_NAMES[s]} {int(st['vp'][s])}" for s in range(players))
    fig.text(0.5, 0.99, f"Strasbourg  \u2014  {players} players, seed {seed}, game {index}, data {data.data_set_id}",
             ha="center", va="top", fontsize=15, weight="bold")
    when = (f"scores after round {int(st['round_no'])} of {ROUNDS} (before the final scoring)" if st["halted"]
            else "final scores")
    fig.text(0.5, 0.958, f"{when}: {scores}   \u00b7   start player "
             f"{SEAT_NAMES[int(st['sp'])]}", ha="center", va="top", fontsize=11.5)
    fig.text(0.5, 0.93, "city: the number in a space's corner is its price; grey cells are building sites, a building "
             "scores its VP for each family member orthogonally next to it; white dots are empty chapel spots, a "
             "chapel scores 1 VP for each family member on the 4 cells around it", ha="center", va="top",
             fontsize=8.5, color="#555555")
    fig.savefig(path, dpi=DPI, facecolor="white")
    plt.close(fig)
    return bool(st["halted"])
