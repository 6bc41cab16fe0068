"""The picture of one Strasbourg game (GameSpec.draw): a real PNG of a sensible size with the
city, council and players in colour, at 3 and at 5 players."""
import pytest
from picture_tool import assert_draws_final_and_halted

from simcore import registry

SPEC = registry.get("strasbourg")


@pytest.mark.parametrize("players", [3, 5])
def test_picture_of_the_final_city_and_after_a_round(tmp_path, players):
    """halt_at=2: the city after round 2, and True; halt_at=6, past the last round,
    the final city and False."""
    assert_draws_final_and_halted(SPEC, tmp_path, players, 2, 6)
    assert SPEC.picture_step == "round"
