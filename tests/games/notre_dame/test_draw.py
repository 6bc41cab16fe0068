"""The picture of one Notre Dame game (GameSpec.draw): a real PNG of a sensible size with the
board in colour, for the 4-district board at 2 players (two neutral districts) and at 4."""
import pytest
from picture_tool import assert_draws_final_and_halted

from simcore import registry

SPEC = registry.get("notre-dame")


@pytest.mark.parametrize("players", [2, 4])
def test_picture_of_the_final_board_and_after_a_round(tmp_path, players):
    """halt_at=4: the board after round 4, and True; halt_at=10, past the last round,
    the final board and False."""
    assert_draws_final_and_halted(SPEC, tmp_path, players, 4, 10)
    assert SPEC.picture_step == "round"
