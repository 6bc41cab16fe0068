"""A damaged tile file is refused with a UserError or plays without breaking an invariant
(tests/data_fuzz.py): a key deleted, a wrong type, a huge or negative number, a list cut."""
import pytest

from simcore.boardgames.carcassonne import components
from tests.data_fuzz import check_survives


@pytest.mark.parametrize("game, ruleset", [("carcassonne", "base"), ("carcassonne-ark", "ark")])
def test_a_damaged_tile_file_is_refused_or_plays_cleanly(game, ruleset, tmp_path_factory):
    check_survives(game, components.default_path(ruleset), tmp_path_factory, examples=100)
