"""What the pictures of the games (each game's draw.py) share: the seat colours and a player's
panel frame with its header. matplotlib is imported by the callers, inside their picture()."""

SEAT_COLOURS = ("#d7191c", "#1f5fd0", "#12a03c", "#ffd21f", "#1b1b1b")   # Red, Blue, Green, Yellow, Black
TEXT_COLOURS = ("#c01010", "#1f5fd0", "#0e8a32", "#a07c00", "#1b1b1b")   # seat names as readable text


def seat_panel(ax, s, top, block, title, vp):
    """Seat s's block in a 10-unit-wide panel column: a frame in the seat's colour, a colour
    swatch, the title (name and policy) and the VP at the right."""
    from matplotlib.patches import FancyBboxPatch, Rectangle
    colour = SEAT_COLOURS[s]
    ax.add_patch(FancyBboxPatch((0.05, top - block + 0.1), 9.9, block - 0.15,
                                boxstyle="round,pad=0,rounding_size=0.12", fc="#fafafa", ec=colour, lw=2.0))
    ax.add_patch(Rectangle((0.25, top - 0.58), 0.36, 0.36, fc=colour, ec="#ffffff" if s == 4 else "#111111",
                           lw=1.0))
    ax.text(0.78, top - 0.4, title, ha="left", va="center", fontsize=12, weight="bold", color=TEXT_COLOURS[s])
    ax.text(9.75, top - 0.4, f"{vp} VP", ha="right", va="center", fontsize=14, weight="bold")
