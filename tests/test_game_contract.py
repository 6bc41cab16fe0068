"""Every registered game keeps the contract of simcore/contract.py (docs/architecture.md, The game contract):
game i's result depends only on (seed, i, its own seat policies, the data), whatever the chunks
it is played in, and the arrays have the game's declared shapes."""
import ast
import importlib
from pathlib import Path

import numpy as np
import pytest

from simcore import contract, driver, registry, search

ROOT = Path(contract.__file__).parent

GAMES = sorted(registry.games())


def policies_for(count, players, salt):
    """Seat policies per game (0 random, 1 greedy), different from game to game."""
    return np.random.default_rng(salt).integers(0, 2, size=(count, players)).astype(np.int8)


def batch(game, players, policies, seed, first):
    spec = registry.get(game)
    return spec.play_batch(spec.load_data(None), players, policies, seed, first)


def arrays(result, rows=slice(None)):
    """Every array of a BatchResult (seat counters and tie-break where the game has them)."""
    return {name: getattr(result, name)[rows].tolist() for name in ("pts", "game", "seat", "tiebreak")
            if getattr(result, name) is not None}


def concatenated(parts):
    return {name: sum((arrays(p)[name] for p in parts), []) for name in arrays(parts[0])}


@pytest.mark.parametrize("game", GAMES)
def test_results_have_the_declared_shapes_and_do_not_depend_on_chunking(game):
    spec = registry.get(game)
    for players in (spec.min_players, spec.max_players):
        seed = 90_210 + players
        policies = policies_for(60, players, seed)
        whole = batch(game, players, policies, seed, 0)
        assert whole.pts.shape == (60, players, len(spec.categories))
        assert whole.game.shape == (60, len(spec.game_columns))
        if spec.seat_columns:
            assert whole.seat.shape == (60, players, len(spec.seat_columns))
        halves = [batch(game, players, policies[:25], seed, 0), batch(game, players, policies[25:], seed, 25)]
        assert concatenated(halves) == arrays(whole)
        for i in (0, 17, 59):
            assert arrays(batch(game, players, policies[i:i + 1], seed, i)) == arrays(whole, slice(i, i + 1))
        # the seed matters, and so does the game index
        assert not np.array_equal(batch(game, players, policies, seed + 1, 0).pts, whole.pts)
        assert not np.array_equal(batch(game, players, policies, seed, 1).pts, whole.pts)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_uses_only_its_own_seat_policies(game):
    """Game i uses seat_policies[i] only: changing the policies of other games changes nothing."""
    seed, players = 4_711, 4
    policies = policies_for(20, players, seed)
    flipped = policies.copy()
    flipped[1::2] = 1 - flipped[1::2]
    a = batch(game, players, policies, seed, 0)
    b = batch(game, players, flipped, seed, 0)
    assert arrays(a, slice(0, None, 2)) == arrays(b, slice(0, None, 2))
    assert not np.array_equal(a.pts[1::2], b.pts[1::2])


# ---------------------------------------------------------------- the contract of simcore/contract.py

SPECS = [registry.get(game) for game in GAMES]


@pytest.mark.parametrize("game", GAMES)
def test_a_spec_holds_what_the_contract_says(game):
    spec = registry.get(game)
    assert spec.min_players <= spec.default_players <= spec.max_players
    assert spec.policies["random"] == 0 and spec.policies["greedy"] == 1
    assert spec.categories and all(isinstance(c, str) for c in spec.categories)
    for function in (spec.load_data, spec.play_batch, spec.replay, spec.provenance, spec.data_id, spec.draw,
                     spec.check_batch):
        assert callable(function)
    assert spec.picture_step in ("turn", "round") and spec.check_step in ("turn", "round", "year")
    assert spec.violations and all(isinstance(code, int) and code > 0 for code in spec.violations)
    # the step protocol (simcore/step.py): the game's records with the search's fields, its tables,
    # the kernel, and the view module's names of every decision point
    stepper = spec.stepper
    assert isinstance(stepper, contract.Stepper)
    record = stepper.new_state()
    assert record.shape == (1,) and "s_view" in record.dtype.names
    view = importlib.import_module(spec.package + ".view")
    data = spec.load_data(None)
    for players in range(spec.min_players, spec.max_players + 1):
        assert view.num_distinct_actions(data, players) > 1 and view.tensor_size(data, players) > 1
        assert stepper.tables(data, players, None).shape == (1,)
    assert len(set(view.DECISIONS.values())) == len(view.DECISIONS)


@pytest.mark.parametrize("package", sorted({spec.package for spec in SPECS}))
def test_every_game_package_has_the_same_modules_and_its_record_the_fields_the_shared_code_reads(package):
    modules = {name: importlib.import_module(f"{package}.{name}") for name in contract.PACKAGE_MODULES}
    state, playout = modules["state"], modules["playout"]
    assert isinstance(state, contract.StateModule)
    assert isinstance(playout, contract.PlayoutModule)
    assert isinstance(modules["view"], contract.ViewModule)
    fields = set(state.STATE.names)
    missing = (set(contract.DRIVER_FIELDS) | {name for name, *_ in search.search_fields(state.MAX_PLAYERS)}) - fields
    assert not missing, f"{package}.state.STATE lacks {sorted(missing)}"
    record = state.new_state(2)
    assert record.dtype == state.STATE and record.shape == (2,)
    # the shared driver's hooks, for each record the game plays in (Carcassonne: one record,
    # whose searched games go through driver.play_game)
    for dtype in {getattr(state, "PLAY_STATE", state.STATE), state.STATE}:
        assert driver.implemented(dtype) == set(driver.HOOKS)


@pytest.mark.parametrize("game", GAMES)
def test_a_random_game_runs_at_every_player_count(game):
    spec = registry.get(game)
    data = spec.load_data(None)
    for players in range(spec.min_players, spec.max_players + 1):
        result = spec.play_batch(data, players, np.zeros((2, players), np.int8), 5, 0)
        assert result.pts.shape == (2, players, len(spec.categories))
        assert (result.pts != 0).any(axis=(1, 2)).all()       # every game scored points


def test_no_game_and_no_contract_module_imports_the_registry():
    """The registry imports the games (lazily); a game importing it back made an import cycle."""
    for path in [ROOT / "contract.py", *sorted((ROOT / "boardgames").rglob("*.py"))]:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                assert "simcore.registry" not in names, f"{path.relative_to(ROOT)} imports the registry"
            elif isinstance(node, ast.Import):
                assert all(a.name != "simcore.registry" for a in node.names), path
