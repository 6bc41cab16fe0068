"""A picture of one Carcassonne game's final map, or of the map after some turn (GameSpec.draw),
plain Python and matplotlib.

Every placed tile is a square at its board position (x east, y north, the start tile at (0,0)):
fields are the green ground, cities brown areas with a wall line, roads light lines, monasteries
and temples a building in the middle. Pennants (base) or scrolls (Ark), oases, sheep and wolves
sit on their segments. The figures still on the board are drawn in their seat's colour: a
standing follower on a road, city or monastery, a lying farmer on a field, the prophet as a robed
figure; the Ark is a golden chest with a gold frame round its tile. A title gives the game, seed,
index and every seat's final score by category (of a game stopped after a turn: its score so far,
before the final scoring).

Geometry follows components.py: a placed tile's 12 ports run clockwise from the north-west
corner (3 per side), and tables.port_seg[type, rotation] already holds the turned tile, so each
segment's sides are read straight from the ports of the placed rotation.
"""
from __future__ import annotations

from itertools import pairwise

import numpy as np

from simcore.drawing import LYING, MEEPLE, MEEPLE_HEAD, SEAT_COLOURS, UPRIGHT, edge_colour, figure_patches
from simcore.seats import SEAT_NAMES
from simcore.boardgames.carcassonne import components as cp
from simcore.boardgames.carcassonne.policies import POLICIES
from simcore.players import Lineup
from simcore.boardgames.carcassonne.state import MAX_SEG, PROPHET_SLOT, xy_of

FIELD_GREEN = "#a9cd7d"
CITY_BROWN = "#d0a060"
WALL = "#6e4a24"
ROAD_FILL = "#f6f2e4"
ROAD_EDGE = "#6f6252"
TILE_LINE = "#6f8f52"
GOLD = "#e0b419"

RASTER = 40                           # pixels per tile side for finding open spots on a tile
ROAD_HALF = 0.055                     # half a road's width, in tiles
BUILDING_HALF = 0.19                  # half a monastery's or temple's width
JUNCTION_HALF = 0.085

# port p -> its point on the tile's edge (N side west to east, E north to south, ...)
_PORT_XY = []
for _p in range(12):
    _s, _k = divmod(_p, 3)
    _u = (0.2, 0.5, 0.8)[_k]
    _PORT_XY.append({0: (_u, 1.0), 1: (1.0, 1 - _u), 2: (1 - _u, 0.0), 3: (0.0, _u)}[_s])
_MID = [(0.5, 1.0), (1.0, 0.5), (0.5, 0.0), (0.0, 0.5)]     # side midpoints N, E, S, W


def turn(points, k):
    """Points of the tile turned k quarter-turns clockwise about its centre (N -> E -> S -> W)."""
    pts = np.asarray(points, dtype=float)
    for _ in range(k % 4):
        pts = np.column_stack([pts[:, 1], 1.0 - pts[:, 0]])
    return pts


def bezier(p0, p1, p2, n=24):
    t = np.linspace(0.0, 1.0, n)[:, None]
    p0, p1, p2 = (np.asarray(p, dtype=float) for p in (p0, p1, p2))
    return (1 - t) ** 2 * p0 + 2 * (1 - t) * t * p1 + t ** 2 * p2


def city_shape(sides):
    """(area polygon, wall lines) of a city segment touching these sides (a set of 0..3)."""
    sides = sorted(sides)
    n = len(sides)
    if n == 4:
        return np.array([(0, 0), (0, 1), (1, 1), (1, 0)], float), []
    if n == 1:
        wall = bezier((1, 1), (0.5, 0.42), (0, 1))
        return turn(np.vstack([[(0, 1)], wall]), sides[0]), [turn(wall, sides[0])]
    if n == 2 and (sides[1] - sides[0]) % 2 == 0:                 # opposite sides: a band
        east = bezier((1, 1), (0.62, 0.5), (1, 0))
        west = bezier((0, 0), (0.38, 0.5), (0, 1))
        k = sides[0]                                            # 0 for N+S, 1 for E+W
        return turn(np.vstack([east, west]), k), [turn(east, k), turn(west, k)]
    if n == 2:                                                  # adjacent sides: a corner
        first = sides[0] if (sides[0] + 1) % 4 == sides[1] else sides[1]   # N of N+E, W of W+N
        wall = bezier((1, 0), (0.42, 0.42), (0, 1))
        return turn(np.vstack([[(0, 1), (1, 1)], wall]), first), [turn(wall, first)]
    missing = ({0, 1, 2, 3} - set(sides)).pop()                 # three sides: all but one edge
    wall = bezier((1, 0), (0.5, 0.62), (0, 0))
    k = (missing - 2) % 4
    return turn(np.vstack([[(0, 0), (0, 1), (1, 1), (1, 0)], wall]), k), [turn(wall, k)]


def road_lines(sides, end_half):
    """Polylines of a road segment touching these sides; a dead end stops end_half from the centre."""
    sides = sorted(sides)
    if len(sides) == 2 and (sides[1] - sides[0]) % 2 == 0:
        return [np.array([_MID[sides[0]], _MID[sides[1]]], float)]
    if len(sides) == 2:
        return [bezier(_MID[sides[0]], (0.5, 0.5), _MID[sides[1]])]
    lines = []
    for s in sides:
        x, y = _MID[s]
        end = (0.5 + (x - 0.5) * 2 * end_half, 0.5 + (y - 0.5) * 2 * end_half)
        lines.append(np.array([(x, y), end], float))
    return lines


def point_along(line, frac):
    """The point at fraction frac of a polyline's length, and the unit normal there."""
    seg = np.diff(line, axis=0)
    lengths = np.hypot(seg[:, 0], seg[:, 1])
    target = frac * lengths.sum()
    i = int(np.searchsorted(np.cumsum(lengths), target))
    i = min(i, len(seg) - 1)
    before = lengths[:i].sum()
    f = (target - before) / lengths[i] if lengths[i] else 0.0
    p = line[i] + f * seg[i]
    d = seg[i] / (lengths[i] or 1.0)
    return p, np.array([-d[1], d[0]])


class TileLook:
    """What one tile type looks like at one rotation, in tile coordinates [0,1]^2."""

    def __init__(self, tt, t, r):
        self.cities = []        # (segment, polygon, walls)
        self.roads = []         # (segment, [polylines])
        self.fields = []        # segments
        self.building = "temple" if tt["temple"][t] else ("monastery" if tt["cloister_seg"][t] >= 0 else "")
        n_seg = int(tt["n_seg"][t])
        ports = tt["port_seg"][t, r]
        sides_of = {g: {s for s in range(4) if ports[3 * s + 1] == g} for g in range(n_seg)}
        road_ends = sum(len(sides_of[g]) for g in range(n_seg)
                        if tt["seg_kind"][t, g] == cp.ROAD and len(sides_of[g]) == 1)
        self.junction = road_ends >= 3 and not self.building
        end_half = BUILDING_HALF if self.building else (JUNCTION_HALF if self.junction else 0.0)
        for g in range(n_seg):
            kind = int(tt["seg_kind"][t, g])
            if kind == cp.CITY:
                poly, walls = city_shape(sides_of[g])
                self.cities.append((g, poly, walls))
            elif kind == cp.ROAD:
                self.roads.append((g, road_lines(sides_of[g], end_half)))
            elif kind == cp.FIELD:
                self.fields.append(g)
        self.anchor, self.spare = self._anchors(tt, t, ports, n_seg)

    def _anchors(self, tt, t, ports, n_seg):
        """Per segment: where its figure stands, and a second spot for pennants, sheep, oases."""
        from matplotlib.path import Path
        from scipy import ndimage

        n = RASTER
        c = (np.arange(n) + 0.5) / n
        xs, ys = np.meshgrid(c, c, indexing="xy")           # [row = y, col = x]
        pts = np.column_stack([xs.ravel(), ys.ravel()])
        label = np.full(n * n, -1, dtype=int)
        for g, poly, _ in self.cities:
            label[Path(poly).contains_points(pts) & (label == -1)] = g
        for g, lines in self.roads:
            for line in lines:
                dense = np.vstack([np.linspace(a, b, 12) for a, b in pairwise(line)])
                d = np.min(np.hypot(pts[:, None, 0] - dense[None, :, 0], pts[:, None, 1] - dense[None, :, 1]),
                           axis=1)
                label[(d < ROAD_HALF + 0.02) & (label == -1)] = g
        half = BUILDING_HALF if self.building else (JUNCTION_HALF if self.junction else 0.0)
        if half:
            centre = (np.abs(pts[:, 0] - 0.5) < half + 0.02) & (np.abs(pts[:, 1] - 0.5) < half + 0.02)
            label[centre] = -2
        label = label.reshape(n, n)
        comps, n_comps = ndimage.label(label == -1)
        votes = np.zeros((n_comps + 1, MAX_SEG), dtype=int)
        for p in range(12):
            g = int(ports[p])
            if g < 0 or tt["seg_kind"][t, g] != cp.FIELD:
                continue
            x, y = _PORT_XY[p]
            col = min(int(x * n), n - 1)
            row = min(int(y * n), n - 1)
            votes[comps[row, col], g] += 1
        for k in range(1, n_comps + 1):
            if votes[k].any():
                label[comps == k] = int(np.argmax(votes[k]))
        anchor, spare = {}, {}
        for g in range(n_seg):
            kind = int(tt["seg_kind"][t, g])
            if kind == cp.CLOISTER:
                anchor[g] = spare[g] = np.array([0.5, 0.4])       # in front of the building
                continue
            if kind == cp.ROAD:
                lines = dict(self.roads)[g]
                p, normal = point_along(lines[0], 0.5)
                anchor[g] = p
                spare[g] = p + normal * 0.15 if np.linalg.norm(p + normal * 0.15 - 0.5) < 0.45 \
                    else p - normal * 0.15
                continue
            mask = np.pad(label == g, 1)
            if not mask.any():
                anchor[g] = spare[g] = np.array([0.5, 0.5])
                continue
            dist = ndimage.distance_transform_edt(mask)[1:-1, 1:-1]
            row, col = np.unravel_index(np.argmax(dist), dist.shape)
            anchor[g] = np.array([c[col], c[row]])
            good = dist >= 0.6 * dist.max()
            rows, cols = np.nonzero(good)
            far = np.hypot(c[cols] - anchor[g][0], c[rows] - anchor[g][1])
            j = int(np.argmax(far))
            spare[g] = np.array([c[cols[j]], c[rows[j]]])
        return anchor, spare


class Looks(dict):
    """TileLook per (type, rotation) of one tile set, made when first needed."""

    def __init__(self, tt):
        super().__init__()
        self.tt = tt

    def __missing__(self, key):
        self[key] = TileLook(self.tt, *key)
        return self[key]


# ------------------------------------------------------------------ figures and markers

PROPHET = np.array([(-0.55, -0.95), (-0.22, 0.32), (0.22, 0.32), (0.55, -0.95)])   # in MEEPLE's units
PROPHET_HEAD = (0.0, 0.58, 0.28)


def follower_patches(centre, size, colour, lying=False, prophet=False):
    """A follower (standing, or lying for a farmer) or the prophet, as patches around centre, with
    a white halo under the outline so it stands out on any tile."""
    edge = GOLD if prophet else edge_colour(colour)
    strokes = ((5.0, "#ffffff", 20), (2.2 if prophet else 1.4, edge, 21))
    shape = (PROPHET, PROPHET_HEAD) if prophet else (MEEPLE, MEEPLE_HEAD)
    return figure_patches(centre, size, colour, strokes, *shape, turn=LYING if lying else UPRIGHT)


def building_patches(x, y, kind):
    from matplotlib.patches import Polygon, Rectangle

    h = BUILDING_HALF
    cx, cy = x + 0.5, y + 0.5
    if kind == "monastery":
        return [Rectangle((cx - h * 0.8, cy - h), 1.6 * h, 1.1 * h, fc="#b9876a", ec="#3c2a1c", lw=0.8, zorder=6),
                Polygon([(cx - h, cy + 0.1 * h), (cx, cy + h), (cx + h, cy + 0.1 * h)], fc="#c0392b",
                        ec="#3c2a1c", lw=0.8, zorder=6),
                Rectangle((cx - 0.12 * h, cy - h), 0.24 * h, 0.5 * h, fc="#3c2a1c", ec="none", zorder=7)]
    out = [Rectangle((cx - h, cy - h), 2 * h, 0.22 * h, fc="#f4ecd6", ec="#5c4a1c", lw=0.8, zorder=6),
           Polygon([(cx - h, cy + 0.35 * h), (cx, cy + h), (cx + h, cy + 0.35 * h)], fc="#f4ecd6",
                   ec="#5c4a1c", lw=0.8, zorder=6)]
    for i in range(4):
        px = cx - 0.8 * h + i * 0.5 * h
        out.append(Rectangle((px, cy - 0.78 * h), 0.26 * h, 1.13 * h, fc="#fbf6e8", ec="#5c4a1c", lw=0.6, zorder=6))
    return out


def pennant_patches(p, ark):
    from matplotlib.patches import FancyBboxPatch, Polygon

    x, y = p
    if ark:        # a scroll
        return [FancyBboxPatch((x - 0.07, y - 0.045), 0.14, 0.09, boxstyle="round,pad=0.0,rounding_size=0.03",
                               fc="#f7e7b4", ec="#7a5a1a", lw=0.8, zorder=8)]
    return [Polygon([(x - 0.065, y + 0.06), (x + 0.065, y + 0.06), (x + 0.065, y - 0.01), (x, y - 0.075),
                     (x - 0.065, y - 0.01)], fc="#1f4fa8", ec="#ffffff", lw=1.0, zorder=8)]


def animal_patches(p, sheep, wolves):
    """Sheep (white) and wolves (grey triangles) in a small block of two columns around p."""
    from matplotlib.patches import Circle, Polygon

    out = []
    total = sheep + wolves
    n_rows = (total + 1) // 2
    ox = np.floor(p[0])
    oy = np.floor(p[1])
    cx = min(max(p[0] - ox, 0.17), 0.83) + ox           # the block stays on its tile
    cy = min(max(p[1] - oy, 0.1 + 0.05 * n_rows), 0.9 - 0.05 * n_rows) + oy
    for i in range(total):
        row, col = divmod(i, 2)
        in_row = min(2, total - 2 * row)
        x = cx + (col - (in_row - 1) / 2) * 0.11
        y = cy + ((n_rows - 1) / 2 - row) * 0.1
        if i < sheep:
            out.append(Circle((x, y), 0.052, fc="#ffffff", ec="#444444", lw=0.8, zorder=8))
        else:
            out.append(Polygon([(x - 0.05, y - 0.04), (x + 0.05, y - 0.04), (x, y + 0.06)], fc="#555555",
                               ec="#111111", lw=0.8, zorder=8))
    return out


def oasis_patches(p):
    from matplotlib.patches import Ellipse
    return [Ellipse(p, 0.13, 0.08, fc="#3fb6d9", ec="#145f7a", lw=0.8, zorder=8)]


def ark_patches(x, y):
    from matplotlib.patches import Rectangle

    cx, cy = x + 0.22, y + 0.80
    return [Rectangle((x + 0.03, y + 0.03), 0.94, 0.94, fc="none", ec=GOLD, lw=3.0, zorder=15),
            Rectangle((cx - 0.17, cy - 0.01), 0.34, 0.025, fc="#6b4a12", ec="none", zorder=24),
            Rectangle((cx - 0.12, cy - 0.08), 0.24, 0.15, fc=GOLD, ec="#5a3e00", lw=1.0, zorder=25),
            Rectangle((cx - 0.13, cy + 0.07), 0.26, 0.03, fc="#f3d95a", ec="#5a3e00", lw=0.8, zorder=25)]


# ------------------------------------------------------------------ the picture

def draw_tiles(ax, tt, looks, tiles, pt, ark):
    """Tiles (x, y, type, rotation) with their features; pt = points per tile on the page."""
    from matplotlib.collections import LineCollection, PatchCollection
    from matplotlib.patches import Polygon, Rectangle

    ax.add_collection(PatchCollection([Rectangle((x, y), 1, 1) for x, y, _, _ in tiles], fc=FIELD_GREEN,
                                      ec="none", zorder=1))
    city_polys, walls, road_lines_all, extras, junctions = [], [], [], [], []
    for x, y, t, r in tiles:
        lk = looks[t, r]
        off = np.array([x, y], float)
        for g, poly, wl in lk.cities:
            city_polys.append(Polygon(poly + off, closed=True))
            walls.extend(w + off for w in wl)
            if tt["seg_scrolls"][t, g]:
                for k in range(int(tt["seg_scrolls"][t, g])):
                    extras.extend(pennant_patches(lk.spare[g] + off + [0.0, -0.1 * k], ark))
        for g, lines in lk.roads:
            road_lines_all.extend(line + off for line in lines)
            if tt["seg_oases"][t, g]:
                extras.extend(oasis_patches(lk.spare[g] + off))
        for g in lk.fields:
            sheep, wolves = int(tt["seg_sheep"][t, g]), int(tt["seg_wolves"][t, g])
            if sheep or wolves:
                extras.extend(animal_patches(lk.spare[g] + off, sheep, wolves))
        if lk.building:
            extras.extend(building_patches(x, y, lk.building))
        if lk.junction:
            junctions.append(Rectangle((x + 0.5 - JUNCTION_HALF, y + 0.5 - JUNCTION_HALF), 2 * JUNCTION_HALF,
                                       2 * JUNCTION_HALF))
    ax.add_collection(PatchCollection(city_polys, fc=CITY_BROWN, ec="none", zorder=2))
    ax.add_collection(LineCollection(walls, colors=WALL, linewidths=max(0.8, 0.035 * pt), capstyle="round",
                                     zorder=3))
    road_w = 2 * ROAD_HALF * pt
    ax.add_collection(LineCollection(road_lines_all, colors=ROAD_EDGE, linewidths=road_w + 1.6,
                                     capstyle="butt", joinstyle="round", zorder=4))
    ax.add_collection(LineCollection(road_lines_all, colors=ROAD_FILL, linewidths=road_w, capstyle="butt",
                                     joinstyle="round", zorder=5))
    ax.add_collection(PatchCollection(junctions, fc="#8a6d55", ec="#3c2a1c", lw=0.8, zorder=6))
    grid = [np.array([(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1), (x, y)], float) for x, y, _, _ in tiles]
    ax.add_collection(LineCollection(grid, colors=TILE_LINE, linewidths=0.6, alpha=0.8, zorder=9))
    for patch in extras:
        ax.add_patch(patch)



def picture(data, players, seat_policies, seed, index, path, categories, name, halt_at=0, lineup=None):
    """GameSpec.draw: the final map of game `index` of `seed` as a PNG at path, or the map after
    halt_at turns (tiles placed); True if the game was stopped there, False if it ended first."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from simcore.boardgames.carcassonne.spec import play_logged

    lineup = lineup or Lineup.own(POLICIES)
    st = play_logged(data, players, seat_policies, seed, index, halt_at=halt_at, search=lineup.table)
    tt = data.tables[0]
    looks = Looks(tt)
    ark = data.rules["ruleset"] == "ark"
    n_placed = int(st["n_placed"])
    cells = [xy_of(int(st["p_cell"][p])) for p in range(n_placed)]
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, x1, y0, y1 = min(xs), max(xs) + 1, min(ys), max(ys) + 1
    cols, rows = x1 - x0, y1 - y0

    tile_in = min(0.9, 34.0 / max(cols, rows))           # at most ~3400 px of map a side
    map_w, map_h = cols * tile_in, rows * tile_in
    header_in = 0.85 + 0.25 * players
    fig_w = max(map_w + 1.0, 11.5)
    legend_rows = _legend_rows(fig_w, ark)
    footer_in = 0.5 * len(legend_rows) + 0.1
    fig_h = map_h + header_in + footer_in + 0.6
    fig = plt.figure(figsize=(fig_w, fig_h), dpi=100, facecolor="white")
    ax = fig.add_axes([(fig_w - map_w) / 2 / fig_w, (footer_in + 0.35) / fig_h, map_w / fig_w, map_h / fig_h])
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    pt = tile_in * 72                                     # points per tile

    ax.add_patch(Rectangle((x0, y0), cols, rows, fc="#f2f2ee", ec="none", zorder=0))
    draw_tiles(ax, tt, looks, [(x, y, int(st["p_type"][p]), int(st["p_rot"][p])) for p, (x, y) in enumerate(cells)],
               pt, ark)
    # turn numbers: the start tile is 0, then the order the tiles were placed in
    for p, (x, y) in enumerate(cells):
        ax.text(x + 0.96, y + 0.04, str(p), ha="right", va="bottom", fontsize=max(4.5, min(7.0, 0.11 * pt)),
                color="#1d3a10", alpha=0.75, zorder=10)

    # figures still on the board
    fig_size = 0.155
    per_tile: dict[int, int] = {}
    for seat in range(players):
        colour = SEAT_COLOURS[seat]
        for slot in range(st["fig_node"].shape[1]):
            node = int(st["fig_node"][seat, slot])
            if node < 0:
                continue
            pidx, g = divmod(node, MAX_SEG)
            x, y = cells[pidx]
            lk = looks[int(st["p_type"][pidx]), int(st["p_rot"][pidx])]
            kind = int(tt["seg_kind"][int(st["p_type"][pidx]), g])
            k = per_tile.get(node, 0)
            per_tile[node] = k + 1
            centre = lk.anchor[g] + np.array([x, y]) + np.array([0.12 * k, -0.06 * k])
            for patch in follower_patches(centre, fig_size, colour, lying=kind == cp.FIELD,
                                        prophet=slot == PROPHET_SLOT):
                ax.add_patch(patch)
    if ark and int(st["ark_cell"]) >= 0:
        ax_, ay_ = xy_of(int(st["ark_cell"]))
        for patch in ark_patches(ax_, ay_):
            ax.add_patch(patch)

    # coordinates as in the replay text
    ax.set_xticks(np.arange(x0, x1) + 0.5, [str(v) for v in range(x0, x1)])
    ax.set_yticks(np.arange(y0, y1) + 0.5, [str(v) for v in range(y0, y1)])
    ax.tick_params(labelsize=7, length=0, pad=2, labeltop=True, labelright=True, colors="#555555")
    for spine in ax.spines.values():
        spine.set_visible(False)

    _header(fig, fig_h, st, data, players, seat_policies, lineup.names, seed, index, categories, name, ark)
    _legend(fig, legend_rows, footer_in, ark)
    fig.savefig(path, dpi=100, facecolor="white")
    plt.close(fig)
    return bool(st["halted"])


def _header(fig, fig_h, st, data, players, seat_policies, names, seed, index, categories, name, ark):
    """Title, subtitle and one line per seat (best first): score, points by category, figures left;
    names: the policy names by kernel id."""
    inch = fig.dpi_scale_trans
    fig_w = fig.get_figwidth()
    top = fig_h - 0.15
    fig.text(fig_w / 2, top, f"{name}  \u2014  seed {seed}, game {index}", transform=inch, ha="center", va="top",
             fontsize=14, weight="bold")
    turns, discarded = int(st["round_no"]), int(st["discarded"])
    if st["halted"]:
        when = (f"after turn {turns} of the game (scores so far)  \u00b7  "
                f"{discarded} tile{'' if discarded == 1 else 's'} discarded  \u00b7  figures on the map")
    else:
        when = (f"{turns} turns  \u00b7  {discarded} tile{'' if discarded == 1 else 's'} discarded  \u00b7  "
                f"final state: figures still on the map")
    fig.text(fig_w / 2, top - 0.3, f"{players} players  \u00b7  tile set {data.tile_set_id}  \u00b7  {when}, "
             f"tiles numbered in the order placed", transform=inch, ha="center", va="top", fontsize=9.5,
             color="#333333")
    order = sorted(range(players), key=lambda s: -int(st["vp"][s]))
    block_w = 10.4 if ark else 9.0
    x = max(0.2, (fig_w - block_w) / 2)
    for i, seat in enumerate(order):
        y = top - 0.62 - 0.25 * i
        colour = SEAT_COLOURS[seat]
        for patch in follower_patches((x + 0.1, y - 0.08), 0.085, colour):
            patch.set_transform(inch)
            fig.patches.append(patch)
        fig.text(x + 0.28, y, f"{SEAT_NAMES[seat]} ({names[int(seat_policies[seat])]})", transform=inch,
                 ha="left", va="top", fontsize=10.5, weight="bold", color=colour if seat != 3 else "#b08a00")
        fig.text(x + 2.55, y, f"{int(st['vp'][seat])}", transform=inch, ha="right", va="top", fontsize=10.5,
                 weight="bold")
        parts = ", ".join(f"{c} {int(st['pts'][seat, k])}" for k, c in enumerate(categories))
        left = int(st["supply"][seat])
        extra = f"{left} follower{'' if left == 1 else 's'} in supply"
        if ark:
            extra += ", prophet " + ("in supply", "on the map", "boxed (scored)")[int(st["prophet_state"][seat])]
        fig.text(x + 2.65, y, f"points  ({parts})   {extra}", transform=inch, ha="left", va="top", fontsize=10)


LEGEND_SIZE = 0.36          # inches, one sample square


def _legend_items(ark):
    items = [("city", "city"), ("road", "road"), ("scroll" if ark else "pennant", "pennant"),
             ("temple" if ark else "monastery", "building"), ("road junction", "junction"), ("follower", "meeple"),
             ("farmer (on a field)", "farmer")]
    if ark:
        items += [("prophet", "prophet"), ("oasis", "oasis"), ("sheep", "sheep"), ("wolf", "wolf"),
                  ("the Ark", "ark")]
    return items


def _legend_rows(fig_w, ark):
    """The legend samples as rows of (label, what, x in inches) that fit the figure's width."""
    rows, row, used = [], [], 0.0
    for label, what in _legend_items(ark):
        width = LEGEND_SIZE + 0.08 + 0.066 * len(label) + 0.25
        if row and used + width > fig_w - 0.4:
            rows.append((row, used))
            row, used = [], 0.0
        row.append((label, what, used))
        used += width
    rows.append((row, used))
    return [[(label, what, x + (fig_w - used) / 2) for label, what, x in row] for row, used in rows]


def _legend(fig, rows, footer_in, ark):
    """Symbol samples along the bottom, in inches."""
    from matplotlib.patches import Polygon, Rectangle
    from matplotlib.transforms import Affine2D

    fig_w = fig.get_figwidth()
    lax = fig.add_axes([0, 0.05 / fig.get_figheight(), 1, footer_in / fig.get_figheight()])
    lax.set_xlim(0, fig_w)
    lax.set_ylim(0, footer_in)
    lax.axis("off")
    size = LEGEND_SIZE
    samples = [(label, what, x, footer_in - 0.5 * (r + 1) + (0.5 - size) / 2)
               for r, row in enumerate(rows) for label, what, x in row]
    for label, what, x, y in samples:
        lax.add_patch(Rectangle((x, y), size, size, fc=FIELD_GREEN, ec=TILE_LINE, lw=0.6))
        if what == "city":
            poly, walls = city_shape({0})
            lax.add_patch(Polygon(poly * size + (x, y), fc=CITY_BROWN, ec="none"))
            lax.plot(*(walls[0] * size + (x, y)).T, color=WALL, lw=1.2)
        elif what == "road":
            for colour, lw in ((ROAD_EDGE, 5), (ROAD_FILL, 3.4)):
                lax.plot([x, x + size], [y + size / 2, y + size / 2], color=colour, lw=lw, solid_capstyle="butt")
        else:
            zoom = 1.8 if what in ("pennant", "oasis", "sheep", "wolf", "junction") else 1.0
            for patch in _sample(what, ark):     # drawn in tile units, scaled onto the sample square
                move = Affine2D().translate(-0.5, -0.5).scale(zoom).translate(0.5, 0.5).scale(size).translate(x, y)
                patch.set_transform(move + lax.transData)
                lax.add_patch(patch)
        lax.text(x + size + 0.08, y + size / 2, label, va="center", ha="left", fontsize=8.5)


def _sample(what, ark):
    """The patches of one legend sample on a unit tile."""
    from matplotlib.patches import Rectangle

    if what == "pennant":
        return pennant_patches((0.5, 0.5), ark)
    if what == "building":
        return building_patches(0, 0, "temple" if ark else "monastery")
    if what == "junction":
        return [Rectangle((0.5 - JUNCTION_HALF, 0.5 - JUNCTION_HALF), 2 * JUNCTION_HALF, 2 * JUNCTION_HALF,
                          fc="#8a6d55", ec="#3c2a1c", lw=0.8)]
    if what in ("meeple", "farmer", "prophet"):
        return follower_patches((0.5, 0.5), 0.3, SEAT_COLOURS[0], lying=what == "farmer", prophet=what == "prophet")
    if what == "oasis":
        return oasis_patches((0.5, 0.5))
    if what in ("sheep", "wolf"):
        return animal_patches((0.5, 0.5), int(what == "sheep"), int(what == "wolf"))
    return ark_patches(0, 0)
