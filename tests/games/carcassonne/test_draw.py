"""Pictures of one Carcassonne game (GameSpec.draw): a real PNG of sensible size with the map's
colours in it, for the base game and The Ark of the Covenant."""
import struct

import numpy as np
import pytest

from simcore import registry
from simcore.games.carcassonne.draw import SEAT_COLOURS

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(path):
    """(width, height) from the IHDR chunk, which must come first."""
    head = path.read_bytes()[:24]
    assert head[:8] == PNG_MAGIC
    assert head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def colours(path):
    """Every pixel's colour as one integer 0xRRGGBB, read back with matplotlib."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    rgb = (mpimg.imread(str(path))[:, :, :3] * 255).round().astype(np.int32).reshape(-1, 3)
    return rgb[:, 0] << 16 | rgb[:, 1] << 8 | rgb[:, 2]


@pytest.mark.parametrize("game, players", [("carcassonne", 4), ("carcassonne-ark", 5)])
def test_draw_writes_a_picture_of_the_final_map(game, players, tmp_path):
    spec = registry.get(game)
    path = tmp_path / f"{game}.png"
    policies = np.array([1, 0, 1, 0, 1][:players], dtype=np.int8)     # greedy and random seats
    spec.draw(spec.load_data(None), players, policies, 7, 3, str(path))

    width, height = png_size(path)
    assert 400 <= width <= 5000 and 400 <= height <= 5000
    assert path.stat().st_size > 10_000
    pixels = colours(path)
    assert len(np.unique(pixels)) > 50
    for seat in range(players):        # every seat's colour is drawn (its score line at least)
        assert (pixels == int(SEAT_COLOURS[seat][1:], 16)).sum() > 20, f"seat {seat}: no {SEAT_COLOURS[seat]}"
