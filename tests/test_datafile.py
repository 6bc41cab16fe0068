"""simcore/datafile.py: reading a component data file a user wrote."""
import pytest

from simcore.datafile import read_json
from simcore.contract import UserError


@pytest.mark.parametrize("text, message", [
    ('{"tiles": "open', 'Unterminated string starting at line 1, column 11'),
    ('{"tiles":\n  [1, 2,\n  ]}', 'Expecting value at line 3, column 3'),
])
def test_a_broken_json_file_is_one_line_naming_where(tmp_path, text, message):
    path = tmp_path / "broken.json"
    path.write_text(text)
    with pytest.raises(UserError) as refused:
        read_json(str(path), "tile file")
    assert str(refused.value) == f"tile file {path} is not valid JSON: {message}"
