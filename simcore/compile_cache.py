"""Where numba keeps the compiled kernels: one folder per version of simcore's source.

numba's own cache (cache=True) checks only the source file of the function it compiled, not
the modules that function calls: after an edit of rules.py, a cached play_batch_kernel would
go on running the old rules. Keying the cache folder by a hash of every simcore source file
makes any change start from a fresh folder, while an unchanged install never recompiles.
Set NUMBA_CACHE_DIR to choose the folder yourself (then clear it after changing the code).

It also turns LLVM's loop and SLP vectorisers off, unless the environment says otherwise
(NUMBA_LOOP_VECTORIZE=0, NUMBA_SLP_VECTORIZE=0): the games' loops run over a few players,
buildings or tile sides, where vectorised code only adds length. Against numba's defaults Notre
Dame's first compile is shorter and smaller (benchmarks/startup.py) and the games play as fast
(simcore bench). LLVM level 2 (NUMBA_OPT=2) would compile faster still, but the Ark's greedy
games ran 5-10% slower."""
import hashlib
import os
from pathlib import Path

import numba


def source_hash() -> str:
    digest = hashlib.sha256()
    root = Path(__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


LLVM_SETTINGS = {"NUMBA_LOOP_VECTORIZE": "0", "NUMBA_SLP_VECTORIZE": "0"}


def configure() -> None:
    for name, value in LLVM_SETTINGS.items():
        os.environ.setdefault(name, value)          # in the environment, so worker processes share them
    numba.core.config.reload_config()               # numba reads its settings from the environment
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "simcore" / "numba"
    # kernels compiled with other LLVM settings (the test suite's NUMBA_OPT=1) get a folder of their own
    settings = "-".join(os.environ.get(name, "default") for name in ("NUMBA_OPT", *LLVM_SETTINGS))
    numba.config.CACHE_DIR = str(base / f"{source_hash()}-llvm{settings}")
