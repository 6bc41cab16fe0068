"""A picture of one Principato game's final state, or of the game after some turn (GameSpec.draw),
plain Python and matplotlib.

One panel per player in the seat's colour shows the principality's five areas (rules PR-2.1):
the environs (fields, farms with their stored food), the city wall (catapults, militia and
condottieri with any loaded cube), the city centre (palazzi, banks with their stored money), the
palace (culture tokens) and the church (favour); beside them the VP by category, the two goal
cards with what they scored, and the hand. Above the panels: the display row (slot 0 left) and
what is left in the supply. Everything is drawn on one axes measured in inches. A game stopped
after a turn shows its VP so far: the goal cards score only at the end.
"""
from __future__ import annotations

from simcore.boardgames.principato.components import (
    CULTURE, GK_ABOVE, GK_PER_MILITARY_VP, GK_PER_TILE, GOODS, K_BUY, K_GAIN, K_PRODUCE, K_RECRUIT, TILES, UNITS)
from simcore.players import Lineup
from simcore.seats import SEAT_NAMES
from simcore.boardgames.principato.state import (
    CATEGORIES, GC_SCORINGS, GC_TURNS, H_BANK, H_BOOK, H_CATAPULT, H_CON_FAV, H_CON_MONEY, H_CONDOTTIERE, H_FARM,
    H_FAVOUR, H_FIELD, H_FOOD, H_MIL_FAV, H_MIL_FOOD, H_MILITIA, H_MONEY, H_MONUMENT, H_PAINTING, H_PALAZZO,
    S_BOOK, S_CATAPULT, S_FAVOUR, S_FIELD_FARM, S_FOOD, S_MONEY, S_MONUMENT, S_PAINTING, S_PALAZZO_BANK, S_UNITS,
    SC_STORED_END, SC_WON, YEARS)

SEAT_COLOURS = ("#d7191c", "#1f5fd0", "#12a03c", "#f2c300")
SEAT_TEXT = ("#ffffff", "#ffffff", "#ffffff", "#1b1b1b")     # header text on the seat colour
SEAT_TINT = ("#fbe3e3", "#e2eafb", "#e0f4e5", "#fdf5d2")     # panel background
FOOD, MONEY, FAVOUR = "#e8892a", "#f5d73c", "#8e44ad"
CUBE_EDGE = "#3a2a10"
AREA_FILL = {"environs": "#dcedc1", "wall": "#d9d9d9", "centre": "#f1e4cc", "palace": "#f7efc6", "church": "#e7dcf0"}
KIND_FILL = {K_BUY: "#dbe8f7", K_PRODUCE: "#dff2d8", K_RECRUIT: "#f6dada", K_GAIN: "#fbf1c9"}
KIND_NAME = {K_BUY: "buy", K_PRODUCE: "produce", K_RECRUIT: "recruit", K_GAIN: "gain"}
CATEGORY_COLOURS = {"military": "#7f8c8d", "monuments": "#95a5a6", "books": "#a0522d", "paintings": "#c0392b"}
GOAL_COLOUR = "#6c5ce7"
PLURAL = {"palazzo": "palazzi", "condottiere": "condottieri", "militia": "militia", "catapult": "catapults",
          "field": "fields", "farm": "farms", "bank": "banks", "monument": "monuments", "book": "books",
          "painting": "paintings"}

PANEL_W, PANEL_H = 7.8, 4.8
ICON = 0.25            # icon size, inches
STEP = 0.29            # icon pitch


# ------------------------------------------------------------------ words

def option_words(data, e, o):
    pay = [f"{int(n)} {what}" for n, what in zip(data.effect_pay[e, o], ("food", "money"), strict=True) if n]
    gain = [f"{int(n)} {PLURAL[GOODS[g]] if n > 1 and GOODS[g] in PLURAL else GOODS[g]}"
            for g, n in enumerate(data.effect_gain[e, o]) if n]
    return (" + ".join(pay) + " \u2192 " if pay else "") + " + ".join(gain)


def card_lines(data, card):
    """(title, kind, lines) of a card for its picture."""
    if data.card_scoring[card]:
        return "SCORING", -1, ["military scoring", "(drawn: scores at once)"]
    e = int(data.card_effect[card])
    kind = int(data.effect_kind[e])
    if kind == K_PRODUCE:
        lines = [f"1 {GOODS[int(data.effect_cube[e])]} per {GOODS[int(data.effect_per[e])]}"]
    elif kind == K_RECRUIT:
        lines = [f"take any number of {PLURAL[UNITS[int(data.effect_unit[e])]]} (free)"]
    else:                                   # one option is chosen
        lines = [("or " if o else "") + option_words(data, e, o) for o in range(int(data.effect_n_options[e]))]
    return data.effect_ids[e], kind, lines


def card_tag(data, card):
    start = int(data.card_start[card])
    return f"S{start}" if start else f"Y{int(data.card_year[card])}"


def goal_words(data, g):
    tiles = [TILES[i] for i in range(len(TILES)) if int(data.goal_tiles[g]) >> i & 1]
    kind = int(data.goal_kind[g])
    if kind == GK_PER_TILE:
        return f"{int(data.goal_vp_each[g])} VP per {' or '.join(tiles)}"
    if kind == GK_ABOVE:
        counted = " + ".join(PLURAL[t] for t in tiles)
        return f"{int(data.goal_vp_each[g])} VP per {counted} above {int(data.goal_threshold[g])}"
    if kind == GK_PER_MILITARY_VP:
        return f"1 VP per {int(data.goal_divisor[g])} military VP"
    table = "/".join(str(int(v)) for v in data.goal_table[g])
    return f"sets of {' + '.join(tiles)}: {table} VP"


# ------------------------------------------------------------------ icons (x, y = lower-left corner, inches)

def cube(ax, x, y, colour, size=0.1, z=6):
    from matplotlib.patches import Rectangle
    ax.add_patch(Rectangle((x, y), size, size, fc=colour, ec=CUBE_EDGE, lw=0.7, zorder=z))


def icon(ax, what, x, y, s=ICON, colour=None, cubes=(), slots=0):
    """One tile or token picture; cubes: colours of the cubes on it, drawn in `slots` places."""
    from matplotlib.patches import Circle, FancyBboxPatch, Polygon, Rectangle, Wedge

    P = []
    if what == "field":
        P.append(Rectangle((x, y), s, s, fc="#e3d36b", ec="#7c6d1a", lw=0.7))
        for k in range(1, 4):
            P.append(Polygon([(x + 0.05 * s, y + k * s / 4), (x + 0.95 * s, y + k * s / 4)], closed=False,
                             fc="none", ec="#9b8a22", lw=0.9))
    elif what == "farm":
        P.append(Rectangle((x, y), s, s, fc="#a9d18e", ec="#4d7a2e", lw=0.7))
        P.append(Rectangle((x + 0.22 * s, y + 0.08 * s), 0.56 * s, 0.45 * s, fc="#b03a2e", ec="#5a1d17", lw=0.6))
        P.append(Polygon([(x + 0.15 * s, y + 0.53 * s), (x + 0.5 * s, y + 0.85 * s), (x + 0.85 * s, y + 0.53 * s)],
                         fc="#7b2a22", ec="#5a1d17", lw=0.6))
    elif what == "palazzo":
        P.append(Rectangle((x, y), s, s, fc="#efe6d6", ec="#8a7a60", lw=0.7))
        P.append(Rectangle((x + 0.15 * s, y + 0.08 * s), 0.7 * s, 0.55 * s, fc="#d8c3a0", ec="#6b5a3e", lw=0.6))
        P.append(Polygon([(x + 0.1 * s, y + 0.63 * s), (x + 0.5 * s, y + 0.9 * s), (x + 0.9 * s, y + 0.63 * s)],
                         fc="#b5533c", ec="#6b5a3e", lw=0.6))
        P.append(Rectangle((x + 0.43 * s, y + 0.08 * s), 0.14 * s, 0.25 * s, fc="#6b5a3e", ec="none"))
    elif what == "bank":
        P.append(Rectangle((x, y), s, s, fc="#efe6d6", ec="#8a7a60", lw=0.7))
        P.append(Polygon([(x + 0.08 * s, y + 0.68 * s), (x + 0.5 * s, y + 0.92 * s), (x + 0.92 * s, y + 0.68 * s)],
                         fc="#c9a227", ec="#6b5a1e", lw=0.6))
        P.append(Rectangle((x + 0.1 * s, y + 0.08 * s), 0.8 * s, 0.08 * s, fc="#c9a227", ec="#6b5a1e", lw=0.5))
        for k in range(3):
            P.append(Rectangle((x + (0.18 + 0.25 * k) * s, y + 0.16 * s), 0.13 * s, 0.5 * s, fc="#f7efd0",
                               ec="#6b5a1e", lw=0.5))
    elif what == "catapult":
        P.append(Rectangle((x, y), s, s, fc="#e8e2d8", ec="#6b5a3e", lw=0.7))
        P.append(Rectangle((x + 0.1 * s, y + 0.22 * s), 0.8 * s, 0.12 * s, fc="#8b5a2b", ec="#4a2f14", lw=0.5))
        P.append(Polygon([(x + 0.3 * s, y + 0.32 * s), (x + 0.85 * s, y + 0.85 * s)], closed=False, fc="none",
                         ec="#4a2f14", lw=1.6))
        P.append(Circle((x + 0.85 * s, y + 0.85 * s), 0.08 * s, fc="#555555", ec="#222222", lw=0.5))
        for cx in (0.25, 0.75):
            P.append(Circle((x + cx * s, y + 0.2 * s), 0.11 * s, fc="#6b4423", ec="#2b1a0c", lw=0.5))
    elif what == "militia":
        P.append(Rectangle((x, y), s, s, fc="#e8e2d8", ec="#6b5a3e", lw=0.7))
        P.append(Polygon([(x + 0.2 * s, y + 0.85 * s), (x + 0.8 * s, y + 0.85 * s), (x + 0.8 * s, y + 0.45 * s),
                          (x + 0.5 * s, y + 0.08 * s), (x + 0.2 * s, y + 0.45 * s)], fc=colour or "#888888",
                         ec="#222222", lw=0.7))
        P.append(Polygon([(x + 0.5 * s, y + 0.8 * s), (x + 0.5 * s, y + 0.18 * s)], closed=False, fc="none",
                         ec="#ffffff", lw=0.9))
    elif what == "condottiere":
        P.append(Rectangle((x, y), s, s, fc="#e8e2d8", ec="#6b5a3e", lw=0.7))
        P.append(Wedge((x + 0.5 * s, y + 0.32 * s), 0.36 * s, 0, 180, fc=colour or "#888888", ec="#222222", lw=0.7))
        P.append(Rectangle((x + 0.1 * s, y + 0.2 * s), 0.8 * s, 0.12 * s, fc="#777777", ec="#222222", lw=0.6))
        P.append(Polygon([(x + 0.5 * s, y + 0.68 * s), (x + 0.62 * s, y + 0.93 * s), (x + 0.38 * s, y + 0.93 * s)],
                         fc="#d4ac0d", ec="#7d6608", lw=0.5))
    elif what in CULTURE:
        P.append(Circle((x + s / 2, y + s / 2), s / 2, fc="#fbf5e6", ec="#8a6d1a", lw=0.8))
        if what == "monument":
            P.append(Polygon([(x + 0.38 * s, y + 0.15 * s), (x + 0.62 * s, y + 0.15 * s), (x + 0.56 * s, y + 0.72 * s),
                              (x + 0.5 * s, y + 0.86 * s), (x + 0.44 * s, y + 0.72 * s)], fc="#95a5a6",
                             ec="#4d5656", lw=0.6))
        elif what == "book":
            P.append(Rectangle((x + 0.27 * s, y + 0.2 * s), 0.46 * s, 0.6 * s, fc="#a0522d", ec="#4a2511", lw=0.6))
            P.append(Rectangle((x + 0.27 * s, y + 0.2 * s), 0.08 * s, 0.6 * s, fc="#6e3519", ec="none"))
        else:
            P.append(Rectangle((x + 0.2 * s, y + 0.25 * s), 0.6 * s, 0.5 * s, fc="#5dade2", ec="#b7950b", lw=1.2))
            P.append(Polygon([(x + 0.22 * s, y + 0.27 * s), (x + 0.45 * s, y + 0.55 * s), (x + 0.78 * s, y + 0.27 * s)],
                             fc="#27ae60", ec="none"))
    elif what == "church":
        P.append(FancyBboxPatch((x, y), s, s, boxstyle="round,pad=0,rounding_size=0.03", fc="#ffffff",
                                ec="#5b2c6f", lw=0.8, ls=(0, (2, 1))))
    for p in P:
        p.set_zorder(5)
        ax.add_patch(p)
    positions = [(x + s - 0.11, y + s - 0.11), (x + 0.01, y + s - 0.11)] if slots == 2 else \
        [(x + s / 2 - 0.05, y + s / 2 - 0.05)]
    for colour_, (cx, cy) in zip(cubes, positions, strict=False):
        cube(ax, cx, cy, colour_)


def icon_row(ax, what, count, x, y, width, colour=None, cube_colour=None, cubes=0, per=0, favour=0):
    """count icons left to right from (x, y), wrapping into +n when they do not fit; per = cubes per
    icon (farms and banks 2, units 1); cubes of cube_colour, then favour, are spread over the icons."""
    fit = max(1, int((width + STEP - ICON) // STEP))
    shown = count if count <= fit else fit - 1
    load = [cube_colour] * cubes + [FAVOUR] * favour
    for i in range(shown):
        on = load[i * per:(i + 1) * per] if per else []
        icon(ax, what, x + i * STEP, y, colour=colour, cubes=on, slots=per)
    if count > shown:
        ax.text(x + shown * STEP + 0.02, y + ICON / 2, f"+{count - shown}", ha="left", va="center", fontsize=8,
                weight="bold", zorder=6)
    if count == 0:
        ax.text(x, y + ICON / 2, "none", ha="left", va="center", fontsize=7.5, color="#777777", style="italic")


def area(ax, key, title, x, y, w, h):
    from matplotlib.patches import FancyBboxPatch
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0,rounding_size=0.06", fc=AREA_FILL[key],
                                ec="#777777", lw=0.8, zorder=2))
    ax.text(x + 0.08, y + h - 0.05, title, ha="left", va="top", fontsize=8, weight="bold", color="#333333", zorder=6)


def draw_card(ax, data, card, x, y, w, h, slot=None, fontsize=7.0):
    """An action card (or the scoring card) as a rounded box: name, effect, exchange symbol, deck."""
    from matplotlib.patches import FancyBboxPatch

    if card < 0:
        ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0,rounding_size=0.06", fc="none",
                                    ec="#999999", lw=0.8, ls="--", zorder=3))
        ax.text(x + w / 2, y + h / 2, "empty", ha="center", va="center", fontsize=fontsize, color="#999999")
    else:
        title, kind, lines = card_lines(data, card)
        fill = KIND_FILL.get(kind, "#d5d8dc")
        ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0,rounding_size=0.06", fc=fill,
                                    ec="#444444", lw=0.9, zorder=3))
        ax.text(x + 0.07, y + h - 0.06, title, ha="left", va="top", fontsize=fontsize + 0.8, weight="bold",
                zorder=4)
        ax.text(x + w - 0.06, y + h - 0.07, card_tag(data, card), ha="right", va="top", fontsize=fontsize - 0.8,
                color="#555555", zorder=4)
        kind_name = KIND_NAME.get(kind, "")
        ax.text(x + 0.07, y + h - 0.25, f"{kind_name}  #{card}" if kind_name else f"#{card}", ha="left", va="top",
                fontsize=fontsize - 1, color="#555555", style="italic", zorder=4)
        chars = max(8, int((w - 0.14) / (0.0083 * fontsize)))
        parts = [(k > 0, part) for line in lines for k, part in enumerate(wrap(line, chars - 2).split("\n"))]
        step = fontsize * 1.3 / 72
        for i, (continued, part) in enumerate(parts):     # a wrapped line's rest is indented
            ax.text(x + 0.07 + 0.1 * continued, y + h - 0.42 - i * step, part, ha="left", va="top",
                    fontsize=fontsize, zorder=4)
        if data.card_exchange[card]:
            ax.text(x + w - 0.07, y + 0.05, "\u21c4", ha="right", va="bottom", fontsize=fontsize + 4,
                    color="#8e44ad", weight="bold", zorder=4)
    if slot is not None:
        ax.text(x + w / 2, y - 0.04, f"slot {slot}", ha="center", va="top", fontsize=7, color="#555555")


# ------------------------------------------------------------------ the panel of one player

def draw_panel(ax, data, st, tt, p, x0, y0, policy, rank, total, stored, halted):
    from matplotlib.patches import FancyBboxPatch, Rectangle

    hold = st.hold[p]
    colour = SEAT_COLOURS[p]
    ax.add_patch(FancyBboxPatch((x0, y0), PANEL_W, PANEL_H, boxstyle="round,pad=0,rounding_size=0.1",
                                fc=SEAT_TINT[p], ec=colour, lw=2.5, zorder=1))
    head = 0.42
    ax.add_patch(Rectangle((x0 + 0.05, y0 + PANEL_H - head), PANEL_W - 0.1, head - 0.05, fc=colour, ec="none",
                           zorder=2))
    start = "   \u2605 start player" if int(st.sp) == p else ""
    ax.text(x0 + 0.15, y0 + PANEL_H - head / 2 - 0.02, f"{SEAT_NAMES[p]} ({policy}){start}", ha="left",
            va="center", fontsize=12, weight="bold", color=SEAT_TEXT[p], zorder=3)
    ax.text(x0 + PANEL_W - 0.15, y0 + PANEL_H - head / 2 - 0.02,
            f"{total} VP  \u00b7  {ordinal(rank)}  \u00b7  stored cubes {stored}", ha="right", va="center",
            fontsize=12, weight="bold", color=SEAT_TEXT[p], zorder=3)

    # the principality: left 4.75 inches
    lx, lw = x0 + 0.12, 4.7
    top = y0 + PANEL_H - head - 0.08
    row_h = 0.31

    def rows(names_counts, ax_, x, y, w, extra=None):
        for i, (label, what, count, kw) in enumerate(names_counts):
            ry = y - 0.22 - (i + 1) * row_h
            ax_.text(x + 0.1, ry + ICON / 2, label, ha="left", va="center", fontsize=7.5, zorder=6)
            icon_row(ax_, what, count, x + 1.2, ry + 0.01, w - 1.3, **kw)

    food, money, favour = int(hold[H_FOOD]), int(hold[H_MONEY]), int(hold[H_FAVOUR])
    farms, banks = int(hold[H_FARM]), int(hold[H_BANK])
    h_env = 0.26 + 2 * row_h + 0.02
    area(ax, "environs", f"Environs  (food {food}/{farms * int(data.food_per_farm)})", lx, top - h_env, lw, h_env)
    rows([(f"fields {int(hold[H_FIELD])}", "field", int(hold[H_FIELD]), {}),
          (f"farms {farms}", "farm", farms, dict(cube_colour=FOOD, cubes=food, per=int(data.food_per_farm)))],
         ax, lx, top, lw)
    top -= h_env + 0.07
    h_wall = 0.26 + 3 * row_h + 0.02
    mil, con = int(hold[H_MILITIA]), int(hold[H_CONDOTTIERE])
    loaded = int(hold[H_MIL_FOOD] + hold[H_MIL_FAV] + hold[H_CON_MONEY] + hold[H_CON_FAV])
    strength = (int(hold[H_CATAPULT]) * int(tt.strength_catapult) + loaded * int(tt.strength_loaded)
                + (mil + con - loaded) * int(tt.strength_empty))
    won = int(st.seat_count[p, SC_WON])
    area(ax, "wall", f"City wall  (strength {strength} as it stands" + (f", {loaded} units loaded" if loaded else "")
         + f";  top of {won} military scoring{'' if won == 1 else 's'})", lx, top - h_wall, lw, h_wall)
    rows([(f"catapults {int(hold[H_CATAPULT])}", "catapult", int(hold[H_CATAPULT]), {}),
          (f"militia {mil}", "militia", mil, dict(colour=colour, cube_colour=FOOD, cubes=int(hold[H_MIL_FOOD]),
                                                   favour=int(hold[H_MIL_FAV]), per=1)),
          (f"condottieri {con}", "condottiere", con, dict(colour=colour, cube_colour=MONEY,
                                                          cubes=int(hold[H_CON_MONEY]),
                                                          favour=int(hold[H_CON_FAV]), per=1))],
         ax, lx, top, lw)
    top -= h_wall + 0.07
    h_centre = 0.26 + 2 * row_h + 0.02
    cw = 2.95
    area(ax, "centre", f"City centre  (money {money}/{banks * int(data.money_per_bank)})", lx, top - h_centre, cw,
         h_centre)
    rows([(f"palazzi {int(hold[H_PALAZZO])}", "palazzo", int(hold[H_PALAZZO]), {}),
          (f"banks {banks}", "bank", banks, dict(cube_colour=MONEY, cubes=money, per=int(data.money_per_bank)))],
         ax, lx, top, cw)
    chx, chw = lx + cw + 0.07, lw - cw - 0.07
    church = int(data.church_favour)
    area(ax, "church", f"Church  (favour {favour}/{church})", chx, top - h_centre, chw, h_centre)
    for k in range(church):
        icon(ax, "church", chx + 0.15 + k * 0.36, top - h_centre + 0.18, s=0.3,
             cubes=[FAVOUR] if k < favour else [])
    top -= h_centre + 0.07
    h_palace = top - (y0 + 0.1)
    area(ax, "palace", "Palace  (culture tokens)", lx, top - h_palace, lw, h_palace)
    tokens = (int(hold[H_MONUMENT]), int(hold[H_BOOK]), int(hold[H_PAINTING]))
    cw3 = lw / 3
    for k, name in enumerate(CULTURE):
        n, vp = tokens[k], int(st.culture_vp[p, k])
        tx = lx + k * cw3
        ax.text(tx + 0.1, top - 0.24, f"{PLURAL[name]} {n}  ({vp} VP)", ha="left", va="top", fontsize=7.5, zorder=6)
        per_row = max(1, int((cw3 - 0.15) // STEP))
        shown = min(n, 2 * per_row)
        for i in range(shown):
            r_, c_ = divmod(i, per_row)
            icon(ax, name, tx + 0.1 + c_ * STEP, top - 0.72 - r_ * STEP)
        if n > shown:
            ax.text(tx + cw3 - 0.1, top - 0.72 - STEP, f"+{n - shown}", ha="right", va="bottom", fontsize=8,
                    weight="bold")
        if n == 0:
            ax.text(tx + 0.1, top - 0.6, "none", ha="left", va="center", fontsize=7.5, color="#777777",
                    style="italic")

    # the right column: VP by category, goal cards, hand
    rx, rw = x0 + 4.97, PANEL_W - 4.97 - 0.12
    top = y0 + PANEL_H - head - 0.1
    pts = [int(v) for v in st.pts[p]]
    goal_ids = [int(st.goals[p, k]) for k in range(2)]
    goal_cats = [int(tt.goal_category[g]) for g in goal_ids]
    items = [(CATEGORIES[c], pts[c], CATEGORY_COLOURS[CATEGORIES[c]]) for c in range(4)]
    items += [(f"goal {data.goal_ids[g]}", pts[c], GOAL_COLOUR) for g, c in zip(goal_ids, goal_cats, strict=True)]
    ax.text(rx, top, "VP by category", ha="left", va="top", fontsize=8, weight="bold")
    scale = (rw - 1.9) / max(30, max(v for _, v, _ in items))
    for i, (label, v, c) in enumerate(items):
        by = top - 0.3 - i * 0.2
        ax.text(rx + 1.5, by, label.replace("_", " ").lower() if label.startswith("goal") else label, ha="right",
                va="center", fontsize=7.5)
        ax.add_patch(Rectangle((rx + 1.55, by - 0.07), max(0.01, v * scale), 0.14, fc=c, ec="none", zorder=3))
        ax.text(rx + 1.6 + v * scale, by, str(v), ha="left", va="center", fontsize=7.5, weight="bold")
    top -= 0.3 + 6 * 0.2 + 0.05
    ax.text(rx, top, "goal cards", ha="left", va="top", fontsize=8, weight="bold")
    gw, gh = (rw - 0.08) / 2, 0.78
    for k, (g, c) in enumerate(zip(goal_ids, goal_cats, strict=True)):
        gx, gy = rx + k * (gw + 0.08), top - 0.2 - gh
        ax.add_patch(FancyBboxPatch((gx, gy), gw, gh, boxstyle="round,pad=0,rounding_size=0.06", fc="#ece8fb",
                                    ec=GOAL_COLOUR, lw=1.0, zorder=3))
        ax.text(gx + 0.07, gy + gh - 0.06, f"G{k + 1}  {data.goal_ids[g]}", ha="left", va="top", fontsize=7.5,
                weight="bold", zorder=4)
        ax.text(gx + 0.07, gy + gh - 0.26, wrap(goal_words(data, g), 21), ha="left", va="top", fontsize=6.5,
                zorder=4, linespacing=1.1)
        ax.text(gx + gw - 0.07, gy + 0.06, "scores at the end" if halted else f"+{pts[c]} VP", ha="right",
                va="bottom", fontsize=7 if halted else 8.5, weight="bold", color=GOAL_COLOUR, zorder=4)
    top -= 0.2 + gh + 0.08
    ax.text(rx, top, "hand", ha="left", va="top", fontsize=8, weight="bold")
    hh = top - 0.2 - (y0 + 0.1)
    for k in range(2):
        draw_card(ax, data, int(st.hand[p, k]), rx + k * (gw + 0.08), top - 0.2 - hh, gw, hh, fontsize=6.3)


def ordinal(n):
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def wrap(text, width):
    import textwrap
    return "\n".join(textwrap.wrap(text, width))


# ------------------------------------------------------------------ the picture

def picture(data, players, seat_policies, seed, index, path, halt_at=0, lineup=None):
    """GameSpec.draw: the final state of game `index` of `seed` as a PNG at path, or the state after
    halt_at turns; True if the game was stopped there, False if it ended first."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyBboxPatch

    from simcore.boardgames.principato.policies import POLICIES
    from simcore.boardgames.principato.spec import play_logged
    from simcore.boardgames.principato.state import new_tables

    lineup = lineup or Lineup.own(POLICIES)
    st = play_logged(data, players, seat_policies, seed, index, halt_at=halt_at, search=lineup.table)
    halted = bool(st.halted)
    tt = new_tables(data, players)[0]
    names = lineup.names
    totals = [int(st.pts[p].sum()) for p in range(players)]
    # SC_STORED_END and the game counters are filled at the end: a game in progress counts its own
    # stored cubes (rules.stored_cubes), turns and scorings
    stored = [int(st.hold[p, H_FOOD] + st.hold[p, H_MONEY] + st.hold[p, H_FAVOUR]) if halted
              else int(st.seat_count[p, SC_STORED_END]) for p in range(players)]
    ranks = [1 + sum((totals[q], stored[q]) > (totals[p], stored[p]) for q in range(players)) for p in range(players)]

    n_rows = (players + 1) // 2
    fig_w = 2 * PANEL_W + 0.45
    title_h, display_h, legend_h = 0.75, 1.75, 0.45
    fig_h = title_h + display_h + n_rows * (PANEL_H + 0.15) + legend_h
    fig = plt.figure(figsize=(fig_w, fig_h), dpi=100, facecolor="white")
    ax = fig.add_axes([0, 0, 1, 1])
    ax.set_xlim(0, fig_w)
    ax.set_ylim(0, fig_h)
    ax.axis("off")

    ax.text(fig_w / 2, fig_h - 0.12, f"Principato  \u2014  seed {seed}, game {index}, {players} players", ha="center",
            va="top", fontsize=15, weight="bold")
    standings = "   ".join(f"{ordinal(ranks[p])} {SEAT_NAMES[p]} {totals[p]}"
                           for p in sorted(range(players), key=lambda q: ranks[q]))
    if halted:
        when = (f"after turn {int(st.turn)} of the game (year {int(st.round_no)} of {YEARS}), {int(st.scorings)} "
                f"military scoring{'' if st.scorings == 1 else 's'} so far  \u00b7  data {data.data_set_id}  \u00b7  "
                f"VP so far, goals not scored yet (tie-break: stored cubes):  {standings}")
    else:
        when = (f"final state after {int(st.game_count[GC_TURNS])} turns and {int(st.game_count[GC_SCORINGS])} "
                f"military scorings  \u00b7  data {data.data_set_id}  \u00b7  final VP (tie-break: stored cubes):  "
                f"{standings}")
    ax.text(fig_w / 2, fig_h - 0.45, when, ha="center", va="top", fontsize=9.5, color="#333333")

    # the display row and the supply
    dy = fig_h - title_h - display_h
    size = int(tt.display_size)
    cw, ch = 1.42, 1.25
    ax.text(0.25, dy + display_h - 0.02, "Display (slot 0 is the next to leave)", ha="left", va="top", fontsize=9,
            weight="bold")
    for s in range(size):
        draw_card(ax, data, int(st.display[s]), 0.25 + s * (cw + 0.1), dy + 0.25, cw, ch, slot=s)
    sx = 0.25 + 7 * (cw + 0.1) + 0.2
    sw = fig_w - sx - 0.25
    ax.add_patch(FancyBboxPatch((sx, dy + 0.12), sw, display_h - 0.2, boxstyle="round,pad=0,rounding_size=0.08",
                                fc="#f4f4f4", ec="#888888", lw=0.8))
    ax.text(sx + 0.1, dy + display_h - 0.14, "Supply (left in the pool)", ha="left", va="top", fontsize=9,
            weight="bold")
    sup = st.supply
    cells = [("field", f"field/farm tiles {int(sup[S_FIELD_FARM])}"),
             ("palazzo", f"palazzo/bank tiles {int(sup[S_PALAZZO_BANK])}"),
             ("catapult", f"catapults {int(sup[S_CATAPULT])}"),
             ("militia", f"militia/condottieri {int(sup[S_UNITS])}"),
             ("monument", f"monuments {int(sup[S_MONUMENT])}"),
             ("book", f"books {int(sup[S_BOOK])}"),
             ("painting", f"paintings {int(sup[S_PAINTING])}"),
             (FOOD, f"food {int(sup[S_FOOD])}"), (MONEY, f"money {int(sup[S_MONEY])}"),
             (FAVOUR, f"favour {int(sup[S_FAVOUR])}")]
    col_w = sw / 2
    for i, (what, text) in enumerate(cells):
        c, r = divmod(i, 5)
        cx, cy = sx + 0.12 + c * col_w, dy + display_h - 0.5 - r * 0.26
        if what.startswith("#"):
            cube(ax, cx + 0.05, cy + 0.02, what, size=0.14)
        else:
            icon(ax, what, cx, cy - 0.02, s=0.21)
        ax.text(cx + 0.3, cy + 0.09, text, ha="left", va="center", fontsize=8)

    # the players
    for p in range(players):
        r, c = divmod(p, 2)
        x0 = 0.15 + c * (PANEL_W + 0.15)
        y0 = fig_h - title_h - display_h - (r + 1) * (PANEL_H + 0.15) + 0.05
        draw_panel(ax, data, st, tt, p, x0, y0, names[int(seat_policies[p])], ranks[p], totals[p], stored[p],
                   halted)

    # the legend of the cubes and card kinds
    lx = 0.3
    for colour, label in ((FOOD, "food"), (MONEY, "money"), (FAVOUR, "favour")):
        cube(ax, lx, 0.17, colour, size=0.14)
        ax.text(lx + 0.2, 0.24, f"{label} cube", ha="left", va="center", fontsize=8)
        lx += 1.2
    for kind, fill in KIND_FILL.items():
        ax.add_patch(FancyBboxPatch((lx, 0.15), 0.3, 0.18, boxstyle="round,pad=0,rounding_size=0.03", fc=fill,
                                    ec="#444444", lw=0.8))
        ax.text(lx + 0.38, 0.24, f"{KIND_NAME[kind]} card", ha="left", va="center", fontsize=8)
        lx += 1.35
    ax.text(lx, 0.24, "\u21c4 exchange symbol    S1/S2 start card, Y1-Y3 year deck    #n card number in the replay",
            ha="left", va="center", fontsize=8)
    fig.savefig(path, dpi=120, facecolor="white")
    plt.close(fig)
    return halted
