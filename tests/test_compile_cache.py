"""The compile cache (simcore/compile_cache.py): a game's kernels are keyed by the code they can
depend on, so an edit elsewhere does not recompile them; processes compiling at once keep each
overload's code."""
import multiprocessing
import os
import subprocess
import sys

from numba.core import caching

from simcore import compile_cache
from simcore.compile_cache import GAMES, ROOT, kernel_files, owner_of


def names(files):
    return {str(p.relative_to(ROOT)) for p in files}


def test_a_game_is_keyed_by_its_kernel_modules_what_they_import_and_the_shared_kernels():
    files = names(kernel_files("strasbourg"))
    assert {"boardgames/strasbourg/rules.py", "boardgames/strasbourg/state.py",
            "boardgames/strasbourg/components.py", "kernel.py", "rng.py", "search.py", "turns.py", "driver.py"} <= files
    # plain Python no kernel imports: the move log in words, the pictures, the spec, the runner
    assert not files & {"boardgames/strasbourg/describe.py", "boardgames/strasbourg/draw.py",
                        "boardgames/strasbourg/spec.py", "runner.py", "results.py", "compile_cache.py",
                        "__init__.py"}
    assert not any(f.startswith("boardgames/notre_dame/") for f in files)


def test_the_shared_kernels_are_keyed_by_every_game():
    files = names(kernel_files("shared"))
    for game in ("carcassonne", "notre_dame", "strasbourg", "principato"):
        assert f"boardgames/{game}/rules.py" in files


def test_each_source_file_belongs_to_its_game_or_to_the_shared_code():
    assert owner_of(str(GAMES / "principato" / "rules.py")) == "principato"
    assert owner_of(str(ROOT / "search.py")) == "shared"
    assert owner_of("/elsewhere/dice_game.py") is None


def test_the_keys_of_two_games_differ():
    assert compile_cache.kernel_key("strasbourg") != compile_cache.kernel_key("notre_dame")
    assert compile_cache.kernel_key("strasbourg").startswith("strasbourg-")


def save_overloads(folder, writer, count):
    """count cache entries of one function, keyed (writer, i), saved as numba saves an overload."""
    entries = caching.IndexDataCacheFile(cache_path=folder, filename_base="f-1", source_stamp=(1.0, 2))
    for i in range(count):
        entries.save((writer, i), ("code of", writer, i))


def test_processes_saving_one_functions_overloads_at_once_keep_each_overloads_code(tmp_path):
    """Four processes save 40 overloads each of one function into one cache folder at once (as the
    suite's workers compile a shared search function for two games): every overload is in the
    index, and the index names its own code, never another's (compile_cache.save_entry)."""
    with multiprocessing.get_context("fork").Pool(4) as pool:
        pool.starmap(save_overloads, [(str(tmp_path), w, 40) for w in range(4)])
    entries = caching.IndexDataCacheFile(cache_path=str(tmp_path), filename_base="f-1", source_stamp=(1.0, 2))
    assert {(w, i): entries.load((w, i)) for w in range(4) for i in range(40)} == {
        (w, i): ("code of", w, i) for w in range(4) for i in range(40)}


FACTORY = '''
import simcore                     # its compile cache settings
from numba import njit


def adder(k):
    @njit(cache=True)
    def add(x):
        return x + k
    return add


add1, add2 = adder(1), adder(2)


@njit(cache=True)
def both(x):
    return add1(x) * 1000 + add2(x)
'''


def test_two_functions_of_one_factory_cached_by_two_processes_keep_their_bodies(tmp_path):
    """Two processes each compile and cache one of two functions of one factory (one qualified
    name and argument types, different cells: Notre Dame's greedy_choice_at); a third compiles a
    function calling both, loading them from the cache: each keeps its own body (compile_cache.
    FreshIds; with numba's counter both were named alike and the linker kept one body for both)."""
    (tmp_path / "factory.py").write_text(FACTORY)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT.parent)])}

    def run(code):
        p = subprocess.run([sys.executable, "-c", "import factory; " + code], env=env, capture_output=True,
                           text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        return p.stdout.strip()

    assert run("print(factory.add1(0))") == "1"
    assert run("print(factory.add2(0))") == "2"
    assert run("print(factory.both(0))") == "1002"
