"""The picture of one Strasbourg game (GameSpec.draw): a real PNG of a sensible size with the
city, council and players in colour, at 3 and at 5 players."""
import numpy as np
import pytest
from picture_tool import assert_picture

from simcore import registry

SPEC = registry.get("strasbourg")
SEAT_RGB = ((0xd7, 0x19, 0x1c), (0x1f, 0x5f, 0xd0), (0x12, 0xa0, 0x3c), (0xff, 0xd2, 0x1f), (0x1b, 0x1b, 0x1b))


@pytest.mark.parametrize("players", [3, 5])
def test_picture_is_a_png_of_the_final_city(tmp_path, players):
    path = tmp_path / f"sb{players}.png"
    policies = np.array([SPEC.policies["greedy"]] * players, dtype=np.int8)
    SPEC.draw(SPEC.load_data(None), players, policies, 7, 3, str(path))
    assert_picture(path, ["#%02x%02x%02x" % rgb for rgb in SEAT_RGB[:players]])


def test_picture_after_a_round(tmp_path):
    """halt_at=2: the city after round 2 of 5, and True; halt_at=6, past the last round, the final
    city and False."""
    path = tmp_path / "round002.png"
    policies = np.array([SPEC.policies["greedy"]] * 4, dtype=np.int8)
    data = SPEC.load_data(None)
    assert SPEC.draw(data, 4, policies, 7, 3, str(path), halt_at=2) is True
    assert_picture(path, ["#%02x%02x%02x" % rgb for rgb in SEAT_RGB[:4]])
    assert SPEC.draw(data, 4, policies, 7, 3, str(tmp_path / "late.png"), halt_at=6) is False
    assert SPEC.picture_step == "round"
