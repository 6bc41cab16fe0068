"""Checking a game's picture (GameSpec.draw) in the tests of every game: a real PNG of a sensible
size, in colour, with every seat's colour somewhere in it."""
import struct

import numpy as np

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(path):
    """(width, height) from the IHDR chunk, which must come first, after checking the signature."""
    head = path.read_bytes()[:24]
    assert head[:8] == PNG_MAGIC, "not a PNG"
    assert head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def colours(path):
    """Every pixel's colour as one integer 0xRRGGBB, read back with matplotlib."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    rgb = (mpimg.imread(str(path))[:, :, :3] * 255).round().astype(np.int32).reshape(-1, 3)
    return rgb[:, 0] << 16 | rgb[:, 1] << 8 | rgb[:, 2]


def assert_picture(path, seat_colours, min_pixels=1):
    """A PNG 400..5000 px each way, over 10 KB, of more than 50 colours, in which every seat's
    colour ('#rrggbb') covers at least min_pixels pixels."""
    width, height = png_size(path)
    assert 400 <= width <= 5000 and 400 <= height <= 5000
    assert path.stat().st_size > 10_000
    pixels = colours(path)
    assert len(np.unique(pixels)) > 50
    for seat, colour in enumerate(seat_colours):
        assert (pixels == int(colour[1:], 16)).sum() >= min_pixels, f"seat {seat}: no {colour} in the picture"


def assert_draws_final_and_halted(spec, tmp_path, players, halt_inside, halt_past):
    """spec.draw of game 3 of seed 7 (greedy seats): the final picture; the picture after
    halt_inside units of spec.picture_step, which returns True; past the game's end (halt_past),
    the final one and False. Every picture shows every seat's colour (simcore.drawing)."""
    from simcore.drawing import SEAT_COLOURS
    data = spec.load_data(None)
    policies = np.array([spec.policies["greedy"]] * players, dtype=np.int8)
    final, inside = tmp_path / "final.png", tmp_path / "inside.png"
    assert spec.draw(data, players, policies, 7, 3, str(final)) is False
    assert spec.draw(data, players, policies, 7, 3, str(inside), halt_at=halt_inside) is True
    assert spec.draw(data, players, policies, 7, 3, str(tmp_path / "late.png"), halt_at=halt_past) is False
    for path in (final, inside):
        assert_picture(path, list(SEAT_COLOURS[:players]))
