"""The same games, whatever the kernels' speed work: the results rows of a 10,000-game run of each
rule set (and one run of greedy play) hash to digests taken from the engine before its speed work
(issue 18). Any change to what is played or recorded changes a digest; a rule change made on
purpose regenerates them with `python tests/games/carcassonne/test_results_digest.py`."""
import hashlib
import sys

import pytest

from simcore import runner

# (game, players, games, seat policies, seed) -> sha256 of the rows as CSV
RUNS = {
    ("carcassonne", 4, 10_000, ("random",) * 4, 2026):
        "5f8b616ef9639ba1f0289e6382551f3811a0a08b845a19da6297e932cef39a3b",
    ("carcassonne", 2, 10_000, ("random",) * 2, 2027):
        "74869932a7049f7fc23beacb1c0c7829ce89a2a4d49d2aaa321f68ce959e05e8",
    ("carcassonne-ark", 4, 10_000, ("random",) * 4, 2026):
        "772fcfd07e58c52a888bf4caa6d9dd7fd320a8b23c10a2525e7489dc7535fa69",
    ("carcassonne-ark", 2, 10_000, ("random",) * 2, 2027):
        "0a053dc703bd016a2f5a89aca14a57b26b7fc610638403a8b6b95ec1ccfa9000",
    ("carcassonne", 3, 2_000, ("greedy", "random", "greedy"), 2028):
        "bcc780c1843174742061dd07d87ff101a373e50b210ecda50c0966db20dbfbab",
    ("carcassonne-ark", 3, 2_000, ("greedy", "random", "greedy"), 2028):
        "ad6aa7884a0ef3d4e0d7ff75bfe36fb46adeb17287fae0beede48f548a83baf9",
}


def rows_digest(game, players, games, policies, seed):
    """sha256 of every results row of the run (what `simcore simulate` writes), as CSV."""
    p = runner.plan(game, players=players, games=games, seed=seed, policies=list(policies), workers=2)
    frame = runner.run(p, keep_rows=True).frame
    assert len(frame) == games * players
    return hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest()


@pytest.mark.parametrize("run", list(RUNS), ids=lambda run: f"{run[0]}-{run[1]}p-{run[3][0]}")
def test_a_run_hashes_to_its_pinned_digest(run):
    assert rows_digest(*run) == RUNS[run]


if __name__ == "__main__":
    for run in RUNS:
        print(f"    {run!r}:\n        {rows_digest(*run)!r},")
    sys.exit(0)
