"""The picture of one Notre Dame game (GameSpec.draw): a real PNG of a sensible size with the
board in colour, for the 4-district board at 2 players (two neutral districts) and at 4."""
import numpy as np
import pytest
from picture_tool import assert_picture

from simcore import registry

SPEC = registry.get("notre-dame")
SEAT_RGB = ((0xd7, 0x19, 0x1c), (0x1f, 0x5f, 0xd0), (0x12, 0xa0, 0x3c), (0xff, 0xd2, 0x1f), (0x1b, 0x1b, 0x1b))


@pytest.mark.parametrize("players", [2, 4])
def test_picture_is_a_png_of_the_final_board(tmp_path, players):
    path = tmp_path / f"nd{players}.png"
    policies = np.array([SPEC.policies["greedy"]] * players, dtype=np.int8)
    SPEC.draw(SPEC.load_data(None), players, policies, 7, 3, str(path))
    assert_picture(path, ["#%02x%02x%02x" % rgb for rgb in SEAT_RGB[:players]])


def test_picture_after_a_round(tmp_path):
    """halt_at=4: the board after round 4 of 9, and True; halt_at=10, past the last round, the final
    board and False."""
    path = tmp_path / "round004.png"
    policies = np.array([SPEC.policies["greedy"]] * 3, dtype=np.int8)
    data = SPEC.load_data(None)
    assert SPEC.draw(data, 3, policies, 7, 3, str(path), halt_at=4) is True
    assert_picture(path, ["#%02x%02x%02x" % rgb for rgb in SEAT_RGB[:3]])
    assert SPEC.draw(data, 3, policies, 7, 3, str(tmp_path / "late.png"), halt_at=10) is False
    assert SPEC.picture_step == "round"
