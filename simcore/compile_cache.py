"""Where numba keeps the compiled kernels: one folder per game and version of its kernels' code.

numba's own cache (cache=True) checks only the source file of the function it compiled, not
the modules that function calls: after an edit of rules.py, a cached play_batch_kernel would
go on running the old rules. So simcore's kernels are cached under a key of the code they can
depend on (GameCacheLocator): a function of a game's package under a hash of that game's kernel
modules and the shared ones (simcore/kernel.py, rng.py, search.py, turns.py, driver.py), each with every
module it imports (state.py, components.py, ...), and a function of a shared module under a hash
of every game's. An edit of one game recompiles that game only; an edit of a plain-Python file
that no kernel imports (describe.py, draw.py, the runner, the CLI) recompiles nothing; an
unchanged install never recompiles. The functions called from Python (the batch kernels) all
live in the game packages, so a shared function's key covering every game costs only compile
time of the edited game, whose kernels compile again anyway.
Set NUMBA_CACHE_DIR to choose the folder yourself (then clear it after changing the code).
Processes that compile at once (the test suite's workers, a cluster's) save into the cache one
at a time per function (save_entry): numba's own save can file one overload's code under
another's signature when two processes save at once. And every compiled function gets a random id
(FreshIds): with numba's counter, two functions of one factory compiled in two processes could get
one name, and a kernel linking both from the cache would run one body for both.

It also turns LLVM's loop and SLP vectorisers off, unless the environment says otherwise
(NUMBA_LOOP_VECTORIZE=0, NUMBA_SLP_VECTORIZE=0): the games' loops run over a few players,
buildings or tile sides, where vectorised code only adds length. Against numba's defaults Notre
Dame's first compile is shorter and smaller (benchmarks/startup.py) and the games play as fast
(simcore bench). LLVM level 2 (NUMBA_OPT=2) would compile faster still, but the Ark's greedy
games ran 5-10% slower."""
import ast
import functools
import hashlib
import itertools
import os
import secrets
from pathlib import Path

import filelock
import numba
from numba.core import bytecode, caching
from numba.core.caching import UserProvidedCacheLocator

ROOT = Path(__file__).parent                     # the simcore package
GAMES = ROOT / "boardgames"
NUMBA_DECORATORS = ("kernel", "njit", "jit", "overload", "register_jitable")
LLVM_SETTINGS = {"NUMBA_LOOP_VECTORIZE": "0", "NUMBA_SLP_VECTORIZE": "0"}
# numba's own locators, tried after ours for functions outside simcore (the tests' toy game)
NUMBA_LOCATORS = "UserProvidedCacheLocator,InTreeCacheLocator,UserWideCacheLocator,IPythonCacheLocator,ZipCacheLocator"


def source_hash() -> str:
    """A hash of every simcore source file: which version of simcore a process runs (cluster.py
    compares its workers' with it)."""
    return hash_files(sorted(ROOT.rglob("*.py")))


def hash_files(paths) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def parsed(path: Path) -> ast.Module:
    """A module's syntax tree, read once per process (every game's key reads the shared modules)."""
    return ast.parse(path.read_text())


@functools.lru_cache(maxsize=None)
def compiles_code(path: Path) -> bool:
    """Does the module define compiled functions (a @kernel, @njit or @overload decorator)?"""
    for node in ast.walk(parsed(path)):
        for decorator in getattr(node, "decorator_list", ()):
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name in NUMBA_DECORATORS:
                return True
    return False


def imported_files(path: Path) -> list[Path]:
    """The simcore modules a module imports at its top level (imports inside functions run only
    when called: the registry's loaders, plain-Python helpers)."""
    names = []
    for node in parsed(path).body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]   # from simcore import rng
    files = []
    for name in names:
        parts = name.split(".")
        if parts[0] != "simcore":
            continue
        # a module's own file; a package's __init__ is not followed (simcore's is the Python API,
        # which imports the runner and everything else; the games' are empty)
        candidate = ROOT.joinpath(*parts[1:]).with_suffix(".py")
        if len(parts) > 1 and candidate.is_file():
            files.append(candidate)
    return files


def closure(starts) -> set[Path]:
    """The modules starts and everything they import from simcore, transitively."""
    seen = set()
    todo = list(starts)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo += imported_files(path)
    return seen


def kernel_modules(folder: Path) -> list[Path]:
    return [p for p in sorted(folder.glob("*.py")) if compiles_code(p)]


def kernel_files(owner: str) -> set[Path]:
    """The source files the kernels of `owner` can depend on: those of a game package's name, or
    of "shared", the modules at simcore's top level (every game's: see the module's docstring)."""
    starts = kernel_modules(ROOT)
    games = sorted(p for p in GAMES.iterdir() if (p / "__init__.py").is_file())
    for game in games:
        if owner in ("shared", game.name):
            starts += kernel_modules(game)
    return closure(starts)


@functools.lru_cache(maxsize=None)
def kernel_key(owner: str) -> str:
    return f"{owner}-{hash_files(sorted(kernel_files(owner)))}"


def owner_of(py_file: str) -> str | None:
    """The game package a source file belongs to, "shared" for simcore's top level, None outside."""
    try:
        rel = Path(py_file).resolve().relative_to(ROOT.resolve())
    except ValueError:
        return None
    if rel.parts[0] == "boardgames" and len(rel.parts) > 2:
        return rel.parts[1]
    return "shared"


class GameCacheLocator(UserProvidedCacheLocator):
    """numba's cache locator for simcore's functions: the folder of numba.config.CACHE_DIR
    (llvm settings included) / the kernel key of the function's game / numba's usual subfolder."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = os.path.join(numba.config.CACHE_DIR, kernel_key(owner_of(py_file)),
                                        self.get_suitable_cache_subpath(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if owner_of(py_file) is None:
            return None                              # not simcore's: numba's own locators decide
        return super().from_function(py_func, py_file)


def save_entry(cache_file, key, data):
    """numba's IndexDataCacheFile.save, safe when processes compile at once (the test suite's
    workers and the command lines they start, a cluster's workers): numba reads a function's index,
    takes the first free data file number, writes the index, then the data. Two processes saving
    two overloads of one function at once (a shared search function typed for two games, a game's
    loop for plain and searched play) can take the same number, and the index may then name the
    other overload's code for a signature: a later process loads it and plays wrong games
    (numba/numba#10128 is this race's kin). Here one process at a time saves into a function's
    index (a lock file beside it), and the data file is written before the index names it."""
    with filelock.FileLock(cache_file._index_path + ".lock"):
        overloads = cache_file._load_index()
        name = overloads.get(key)
        if name is None:
            taken = set(overloads.values())
            name = next(n for n in map(cache_file._data_name, itertools.count(1)) if n not in taken)
        cache_file._save_data(name, data)
        overloads[key] = name
        cache_file._save_index(overloads)


class FreshIds:
    """numba's function ids (FunctionIdentity._unique_ids), each a fresh random 64-bit number.
    numba names a compiled function by its qualified name, argument types and an id from a counter
    of its process, and links the functions a kernel calls as one-definition symbols: of two with
    one name, the linker keeps one body. Functions made by one factory share a qualified name
    (Notre Dame's greedy_choice_at(dp), one per decision point), and two processes count their ids
    alike, so two of them compiled in two processes and cached could both be named
    `greedy_choice$59`; a third process loading both into one kernel then runs one body for both
    (numba/numba#10486). In the test suite (two workers compiling at once, from a cold cache) this
    played other games than the seed's. A random id per function (not a counter from a random
    start: forked processes would count on alike) makes such a pair of names as likely as two equal
    random 64-bit numbers."""

    def __iter__(self):
        return self

    def __next__(self):
        return secrets.randbits(64)


def configure() -> None:
    caching.IndexDataCacheFile.save = save_entry
    bytecode.FunctionIdentity._unique_ids = FreshIds()
    for name, value in LLVM_SETTINGS.items():
        os.environ.setdefault(name, value)          # in the environment, so worker processes share them
    if not os.environ.get("NUMBA_CACHE_DIR"):
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "simcore" / "numba"
        # kernels compiled with other LLVM settings (the test suite's NUMBA_OPT=1) get a folder of their own
        settings = "-".join(os.environ.get(name, "default") for name in ("NUMBA_OPT", *LLVM_SETTINGS))
        # "fresh-": compiled with FreshIds and saved with save_entry; older folders may hold
        # functions whose names collide, or an overload under another's key
        os.environ["NUMBA_CACHE_DIR"] = str(base / f"fresh-llvm{settings}")
        os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = f"{__name__}.GameCacheLocator,{NUMBA_LOCATORS}"
    numba.core.config.reload_config()               # numba reads its settings from the environment
