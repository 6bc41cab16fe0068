"""Pictures of one Carcassonne game (GameSpec.draw): a real PNG of sensible size with the map's
colours in it, for the base game and The Ark of the Covenant."""
import numpy as np
import pytest
from picture_tool import assert_picture

from simcore import registry
from simcore.games.carcassonne.draw import SEAT_COLOURS


@pytest.mark.parametrize("game, players", [("carcassonne", 4), ("carcassonne-ark", 5)])
def test_draw_writes_a_picture_of_the_final_map(game, players, tmp_path):
    spec = registry.get(game)
    path = tmp_path / f"{game}.png"
    policies = np.array([1, 0, 1, 0, 1][:players], dtype=np.int8)     # greedy and random seats
    spec.draw(spec.load_data(None), players, policies, 7, 3, str(path))

    # every seat's colour is drawn (its score line at least)
    assert_picture(path, SEAT_COLOURS[:players], min_pixels=21)
