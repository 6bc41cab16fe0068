"""Golden playthroughs of every game (docs/architecture.md, Correctness; OpenSpiel's playthroughs): a few
seeded games per game, written as text move logs by tools/regen_golden.py, are regenerated and
diffed against the files in tests/games/<game>/golden/. After an intended rule, data or policy
change run `python tools/regen_golden.py` and review the diff. The per-game test_golden.py files
check what a game's log must contain."""
import pytest

from simcore import registry
from golden_tool import regen


@pytest.mark.parametrize("game", sorted(registry.games()))
def test_every_game_has_two_player_counts_one_all_random_and_one_mixed(game):
    cases = [case for case in regen.CASES if case.game == game]
    assert len({case.players for case in cases}) == 2
    assert any(set(case.policies) == {"random"} for case in cases)
    assert any(set(case.policies) == {"random", "greedy"} for case in cases)


@pytest.mark.parametrize("case", regen.CASES, ids=lambda case: case.filename)
def test_playthrough_matches_its_golden_file(case):
    problem = regen.difference(case)
    if problem:
        pytest.fail(problem, pytrace=False)
