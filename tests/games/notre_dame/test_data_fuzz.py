"""A damaged Notre Dame data file is refused with a UserError or plays without breaking an
invariant (tests/data_fuzz.py): a key deleted, a wrong type, a huge or negative number, a list cut."""
from simcore.boardgames.notre_dame import components
from tests.data_fuzz import check_survives


def test_a_damaged_data_file_is_refused_or_plays_cleanly(tmp_path_factory):
    check_survives("notre-dame", components.default_path(), tmp_path_factory, examples=100)
