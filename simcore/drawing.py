"""What the pictures of the games (each game's draw.py) share: the seat colours, a meeple and a
player's panel frame with its header. matplotlib is imported inside the functions that draw, as
the callers import it inside their picture()."""
import numpy as np

SEAT_COLOURS = ("#d7191c", "#1f5fd0", "#12a03c", "#ffd21f", "#1b1b1b")   # simcore/seats.py's SEAT_NAMES order
TEXT_COLOURS = ("#c01010", "#1f5fd0", "#0e8a32", "#a07c00", "#1b1b1b")   # seat names as readable text

# A meeple round (0, 0), in units of its size, y up: its body's corners and its head (x, y, radius).
MEEPLE = np.array([(-0.22, 0.30), (-0.72, 0.12), (-0.80, -0.06), (-0.34, -0.10), (-0.62, -0.92), (-0.16, -0.92),
                   (0.0, -0.56), (0.16, -0.92), (0.62, -0.92), (0.34, -0.10), (0.80, -0.06), (0.72, 0.12),
                   (0.22, 0.30)])
MEEPLE_HEAD = (0.0, 0.55, 0.30)
# How a figure is turned (a 2 x 2 matrix applied to its shape): as it stands, lying on its side
# (y becomes -x, as a farmer), or the right way up in axes whose y axis points down.
UPRIGHT = np.eye(2)
LYING = np.array([[0.0, 1.0], [-1.0, 0.0]])
Y_DOWN = np.array([[1.0, 0.0], [0.0, -1.0]])


def edge_colour(colour):
    """The outline of a piece in a seat's colour: dark, white round the black seat's."""
    return "#ffffff" if colour == SEAT_COLOURS[4] else "#111111"


def figure_patches(centre, size, colour, strokes, body=MEEPLE, head=MEEPLE_HEAD, turn=UPRIGHT, inset=0.002):
    """A figure's patches, by default a meeple: body and head scaled by size, turned by turn and
    placed at centre, outlined once per stroke (line width, edge colour, zorder), then filled
    again without an edge just above the last stroke, which hides the body's outline inside the
    head (the neck line); that head is inset smaller, so the outline keeps its inner edge."""
    from matplotlib.patches import Circle, Polygon
    hx, hy, hr = head
    xy = np.asarray(centre) + body @ turn.T * size
    head_xy = np.asarray(centre) + turn @ (hx, hy) * size
    out = []
    for lw, ec, z in strokes:
        out.append(Polygon(xy, closed=True, fc=colour, ec=ec, lw=lw, zorder=z, joinstyle="round"))
        out.append(Circle(head_xy, hr * size, fc=colour, ec=ec, lw=lw, zorder=z))
    top = strokes[-1][2] + 0.1
    out.append(Polygon(xy, closed=True, fc=colour, ec="none", zorder=top))
    out.append(Circle(head_xy, hr * size - inset, fc=colour, ec="none", zorder=top))
    return out


def seat_panel(ax, s, top, block, title, vp):
    """Seat s's block in a 10-unit-wide panel column: a frame in the seat's colour, a colour
    swatch, the title (name and policy) and the VP at the right."""
    from matplotlib.patches import FancyBboxPatch, Rectangle
    colour = SEAT_COLOURS[s]
    ax.add_patch(FancyBboxPatch((0.05, top - block + 0.1), 9.9, block - 0.15,
                                boxstyle="round,pad=0,rounding_size=0.12", fc="#fafafa", ec=colour, lw=2.0))
    ax.add_patch(Rectangle((0.25, top - 0.58), 0.36, 0.36, fc=colour, ec=edge_colour(colour), lw=1.0))
    ax.text(0.78, top - 0.4, title, ha="left", va="center", fontsize=12, weight="bold", color=TEXT_COLOURS[s])
    ax.text(9.75, top - 0.4, f"{vp} VP", ha="right", va="center", fontsize=14, weight="bold")
