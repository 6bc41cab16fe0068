"""Fixtures shared by the tests of the generic layer; the toy game itself is in dice_game.py."""
import pytest

from simcore import registry
from dice_game import DICE


@pytest.fixture
def register(monkeypatch):
    """register(*specs): makes exactly these games the registry for one test."""
    def _register(*specs):
        monkeypatch.setattr(registry, "_REGISTRY", {spec.id: spec for spec in specs})
        return specs[0]
    return _register


@pytest.fixture
def dice(register):
    return register(DICE)
