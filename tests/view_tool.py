"""Checking a game's view (simcore/boardgames/*/view.py): an (observation, tensor) pair the same
for two states, or different in both."""
import numpy as np


def assert_same(a, b):
    """a and b, each (observation dict, observation tensor), are equal."""
    assert a[0] == b[0]
    assert np.array_equal(a[1], b[1])


def assert_differ(a, b):
    """a and b differ in the observation and in the tensor."""
    assert a[0] != b[0]
    assert not np.array_equal(a[1], b[1])
