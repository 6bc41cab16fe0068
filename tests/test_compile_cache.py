"""The compile cache's keys (simcore/compile_cache.py): a game's kernels are keyed by the code
they can depend on, so an edit elsewhere does not recompile them."""
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
