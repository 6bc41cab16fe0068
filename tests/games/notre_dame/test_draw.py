"""The picture of one Notre Dame game (GameSpec.draw): a real PNG of a sensible size with the
board in colour, for the 4-district board at 2 players (two neutral districts) and at 4."""
import struct

import numpy as np
import pytest

from simcore import registry

SPEC = registry.get("notre-dame")
SEAT_RGB = ((0xd7, 0x19, 0x1c), (0x1f, 0x5f, 0xd0), (0x12, 0xa0, 0x3c), (0xff, 0xd2, 0x1f), (0x1b, 0x1b, 0x1b))


def png_size(path):
    """(width, height) from a PNG's IHDR chunk, after checking the signature."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


@pytest.mark.parametrize("players", [2, 4])
def test_picture_is_a_png_of_the_final_board(tmp_path, players):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg

    path = tmp_path / f"nd{players}.png"
    policies = np.array([SPEC.policies["greedy"]] * players, dtype=np.int8)
    SPEC.draw(SPEC.load_data(None), players, policies, 7, 3, str(path))
    width, height = png_size(path)
    assert 400 <= width <= 5000 and 400 <= height <= 5000
    assert path.stat().st_size > 10_000
    rgb = (mpimg.imread(str(path))[:, :, :3] * 255).round().astype(np.uint32)
    colours = np.unique((rgb[:, :, 0] << 16) | (rgb[:, :, 1] << 8) | rgb[:, :, 2])
    assert len(colours) > 50
    for seat in range(players):                     # every seat's pieces and panel show its colour
        r, g, b = SEAT_RGB[seat]
        assert (r << 16 | g << 8 | b) in colours, f"seat {seat}'s colour is nowhere in the picture"
