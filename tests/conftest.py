"""Fixtures shared by the tests of the generic layer; the toy game itself is in dice_game.py."""
import os

# The suite compiles every kernel once — most of its time on a fresh machine — and measures no
# speed: LLVM's level 1 compiles much faster than numba's default 3. Set before numba is imported;
# such kernels are cached in a folder of their own (simcore/compile_cache.py), never used by a run.
os.environ.setdefault("NUMBA_OPT", "1")

import pytest  # noqa: E402

from simcore import registry
from dice_game import DICE


@pytest.hookimpl(tryfirst=True)          # before xdist reads the groups
def pytest_collection_modifyitems(items):
    """With pytest-xdist (pyproject.toml), the tests of one game run in one process, which
    compiles that game's kernels once; so do the cluster tests (their Dask workers and ports)."""
    for item in items:
        parts = item.path.parts
        if "games" in parts[:-1]:
            item.add_marker(pytest.mark.xdist_group(parts[parts.index("games") + 1]))
        elif item.path.name == "test_cluster.py":
            item.add_marker(pytest.mark.xdist_group("cluster"))


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
