"""Where numba keeps the compiled kernels: one folder per version of simcore's source.

numba's own cache (cache=True) checks only the source file of the function it compiled, not
the modules that function calls: after an edit of rules.py, a cached play_batch_kernel would
go on running the old rules. Keying the cache folder by a hash of every simcore source file
makes any change start from a fresh folder, while an unchanged install never recompiles.
Set NUMBA_CACHE_DIR to choose the folder yourself (then clear it after changing the code)."""
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


def configure() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "simcore" / "numba"
    # kernels compiled at another LLVM level (NUMBA_OPT, the test suite's 1) get a folder of their own
    level = os.environ.get("NUMBA_OPT")
    numba.config.CACHE_DIR = str(base / (source_hash() + (f"-opt{level}" if level else "")))
