"""Compiled vs plain Python (docs/architecture.md, Correctness): a few games of a game played with
NUMBA_DISABLE_JIT=1 in a subprocess must give exactly what the compiled kernels give."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simcore import registry

ROOT = Path(__file__).resolve().parents[1]
FIELDS = ("pts", "game", "seat", "tiebreak")
SCRIPT = """
import json, warnings
import numpy as np
from simcore import registry
warnings.simplefilter("ignore", RuntimeWarning)     # uint64 arithmetic of the RNG wraps on purpose
spec = registry.get(%(game)r)
out = {}
for players, policies in %(policies)r.items():
    result = spec.play_batch(spec.load_data(None), players, np.array(policies, np.int8), %(seed)d, 0)
    out[players] = {field: getattr(result, field).tolist() for field in %(fields)r
                    if getattr(result, field) is not None}
print(json.dumps(out))
"""


def assert_compiled_matches_pure_python(game, policies_by_players, seed):
    """policies_by_players: {players: [[policy id per seat] per game]}; games 0.. of `seed`."""
    script = SCRIPT % {"game": game, "policies": policies_by_players, "seed": seed, "fields": FIELDS}
    env = dict(os.environ, NUMBA_DISABLE_JIT="1",
               PYTHONPATH=os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    if proc.returncode != 0:
        pytest.fail("the pure-Python run (NUMBA_DISABLE_JIT=1) failed:\n"
                    + "\n".join(proc.stderr.strip().splitlines()[-12:]), pytrace=False)
    pure = json.loads(proc.stdout.strip().splitlines()[-1])
    spec = registry.get(game)
    stale = ("; if the engine changed recently, suspect a stale numba cache first (delete the cache "
             "folder of simcore/compile_cache.py and run again)")
    for players, policies in policies_by_players.items():
        result = spec.play_batch(spec.load_data(None), players, np.array(policies, np.int8), seed, 0)
        for field in FIELDS:
            if getattr(result, field) is None:      # a game without seat counters or tie-break
                assert field not in pure[str(players)]
                continue
            assert pure[str(players)][field] == getattr(result, field).tolist(), \
                f"{game}, {players} players: {field} differ, compiled vs pure Python{stale}"
