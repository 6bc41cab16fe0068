"""Checking logged games against batches in the determinism tests of every game."""
import numpy as np


def mixed_policies(count, players, salt):
    """Seat policies per game (0 random, 1 greedy), different from game to game."""
    return np.random.default_rng(salt).integers(0, 2, size=(count, players)).astype(np.int8)


def final_scores(lines, players):
    """(points per category, VP) per seat from a replay's last lines ("  Red: 31 VP = 20 + 8 + ...")."""
    seats = []
    for line in lines[-players:]:
        vp, pts = line.split(":", 1)[1].split(" VP = ")
        seats.append(([int(x) for x in pts.split(" + ")], int(vp)))
    return seats
