"""Pictures of one Carcassonne game (GameSpec.draw): a real PNG of sensible size with the map's
colours in it, for the base game and The Ark of the Covenant."""
import numpy as np
import pytest
from picture_tool import assert_picture

from simcore import registry
from simcore.boardgames.carcassonne.draw import SEAT_COLOURS


@pytest.mark.parametrize("game, players", [("carcassonne", 4), ("carcassonne-ark", 5)])
def test_draw_writes_a_picture_of_the_final_map(game, players, tmp_path):
    spec = registry.get(game)
    path = tmp_path / f"{game}.png"
    policies = np.array([1, 0, 1, 0, 1][:players], dtype=np.int8)     # greedy and random seats
    spec.draw(spec.load_data(None), players, policies, 7, 3, str(path))

    # every seat's colour is drawn (its score line at least)
    assert_picture(path, SEAT_COLOURS[:players], min_pixels=21)


def test_draw_stops_the_game_after_a_turn(tmp_path):
    """halt_at=20: the map after 20 tiles placed, and True; this game has 71 turns: halt_at=71 stops
    it after the last tile, before the final scoring (True), halt_at=72 draws the final map (False)."""
    spec = registry.get("carcassonne")
    data = spec.load_data(None)
    policies = np.array([1, 0], dtype=np.int8)
    path = tmp_path / "turn020.png"
    assert spec.draw(data, 2, policies, 7, 3, str(path), halt_at=20) is True
    assert_picture(path, SEAT_COLOURS[:2], min_pixels=21)
    assert spec.draw(data, 2, policies, 7, 3, str(tmp_path / "last.png"), halt_at=71) is True
    assert spec.draw(data, 2, policies, 7, 3, str(tmp_path / "late.png"), halt_at=72) is False
    assert spec.draw(data, 2, policies, 7, 3, str(tmp_path / "final.png")) is False
    assert spec.picture_step == "turn"


def test_draw_every_n_turns_through_the_library(tmp_path):
    """simcore.draw(every=N) returns the pictures in progress, then the final one; N < 1 is a
    user mistake."""
    import simcore

    final = tmp_path / "c.png"
    assert simcore.draw("carcassonne", final, players=2, seed=7, index=3, every=30) == \
        [str(tmp_path / "c-turn030.png"), str(tmp_path / "c-turn060.png"), str(final)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c-turn030.png", "c-turn060.png", "c.png"]
    with pytest.raises(simcore.UserError, match="at least 1, got 0"):
        simcore.draw("carcassonne", final, every=0)
