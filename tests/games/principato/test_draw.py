"""Pictures of one Principato game (GameSpec.draw): a real PNG of sensible size with every
player's panel in its seat colour, at 2 and 4 players."""
import numpy as np
import pytest
from picture_tool import assert_picture

from simcore import registry
from simcore.boardgames.principato.draw import SEAT_COLOURS


@pytest.mark.parametrize("players", [2, 4])
def test_draw_writes_a_picture_of_the_final_state(players, tmp_path):
    spec = registry.get("principato")
    path = tmp_path / f"principato{players}.png"
    policies = np.array([1, 0, 1, 0][:players], dtype=np.int8)     # greedy and random seats
    spec.draw(spec.load_data(None), players, policies, 5, 2, str(path))

    # one panel per player, headed in the seat's colour
    assert_picture(path, SEAT_COLOURS[:players], min_pixels=2001)


def test_draw_stops_the_game_after_a_turn(tmp_path):
    """halt_at=15: the principalities after 15 turns, and True; this game has 63 turns: halt_at=64
    draws the final state and returns False."""
    spec = registry.get("principato")
    data = spec.load_data(None)
    policies = np.array([1, 0, 1], dtype=np.int8)
    path = tmp_path / "turn015.png"
    assert spec.draw(data, 3, policies, 5, 2, str(path), halt_at=15) is True
    assert_picture(path, SEAT_COLOURS[:3], min_pixels=2001)
    assert spec.draw(data, 3, policies, 5, 2, str(tmp_path / "late.png"), halt_at=64) is False
    assert spec.picture_step == "turn"
