"""Golden playthroughs: a few seeded games per game as text move logs (docs/architecture.md, Correctness).

Each file in tests/games/<game>/golden/ is a game's replay (spec.replay). For Carcassonne: every
move, what scored and why, final scoring, the final map, with the running score after every turn
added from the move log (each seat's VP after the turn). For Notre Dame: every round's persons, hands, cards,
choices, bribes, plague and payouts, with each seat's standing after every round. For Strasbourg:
every round's plans and bundles, each sub-phase's bids, winners and actions, constructions and
the council, then the final score by category. For Principato: the setup (start player, goal
cards), every turn's actions with payments, gains and exchanges, the display's shifts and draws,
each military scoring's loads, strengths and awards, then the final score by category.
tests/games/<game>/test_golden.py regenerates the text and diffs it against the file.

After an intended rule, data or policy change, rewrite the files and review the diff:

    python tools/regen_golden.py            # rewrite every golden file
    python tools/regen_golden.py --check    # only report which files would change (exit 1 if any)
    python tools/regen_golden.py carcassonne-ark   # only that game's files

The script compiles the engine afresh in a temporary numba cache (about half a minute): numba's
on-disk cache (cache=True) does not notice changes in other modules, so the shared cache can run
an older version of rules.py or scoring.py than the source, and golden files must never be
written from that. --use-cache skips this when you know the cache is fresh.
"""
from __future__ import annotations

import argparse
import difflib
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_DIR = ROOT / "tests" / "games" / "carcassonne" / "golden"
# game id -> its package, where its golden files live
PACKAGES = {"carcassonne": "carcassonne", "carcassonne-ark": "carcassonne", "notre-dame": "notre_dame",
            "strasbourg": "strasbourg", "principato": "principato"}
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    policies: tuple[str, ...]   # one per seat
    seed: int
    index: int

    @property
    def directory(self) -> Path:
        return ROOT / "tests" / "games" / PACKAGES[self.game] / "golden"

    @property
    def filename(self) -> str:
        kind = "mixed" if len(set(self.policies)) > 1 else self.policies[0]
        return f"{self.game}_{self.players}p_{kind}_seed{self.seed}_game{self.index}.txt"


CASES = (
    Case("carcassonne", 2, ("random", "random"), 2024, 0),
    Case("carcassonne", 4, ("random", "greedy", "random", "greedy"), 2024, 7),
    Case("carcassonne-ark", 2, ("random", "random"), 2024, 0),
    Case("carcassonne-ark", 4, ("greedy", "random", "greedy", "random"), 2024, 7),
    Case("notre-dame", 2, ("random", "random"), 2024, 0),
    Case("notre-dame", 4, ("greedy", "random", "greedy", "random"), 2024, 7),
    Case("strasbourg", 3, ("random", "random", "random"), 2024, 0),
    Case("strasbourg", 4, ("greedy", "random", "greedy", "random"), 2024, 7),
    Case("principato", 2, ("random", "random"), 2024, 0),
    Case("principato", 4, ("greedy", "random", "greedy", "random"), 2024, 7),
)

HEADER = "# golden playthrough, checked by tests/games/{}/test_golden.py; regenerate: python tools/regen_golden.py"


def score_line(turn, players: int) -> str:
    """The score after a turn of the move log (describe.Turn)."""
    from simcore.boardgames.carcassonne.describe import SEAT_NAMES
    return "  score: " + ", ".join(f"{SEAT_NAMES[s]} {turn.vp[s]}" for s in range(players))


def render(case: Case) -> str:
    """The golden text of one case: the replay (Carcassonne: with the score after every turn)."""
    # imported here, so that main() can choose the numba cache before numba is loaded
    from simcore import registry

    spec = registry.get(case.game)
    data = spec.load_data(None)
    seats = np.array([spec.policies[name] for name in case.policies], dtype=np.int8)
    lines = spec.replay(data, case.players, seats, case.seed, case.index)
    if not case.game.startswith("carcassonne"):
        return "\n".join([HEADER.format(PACKAGES[case.game])] + lines) + "\n"
    return render_carcassonne(case, data, seats, lines)


def render_carcassonne(case: Case, data, seats, lines) -> str:
    from simcore.boardgames.carcassonne import spec as carcassonne
    from simcore.boardgames.carcassonne.describe import read_log

    turns = read_log(carcassonne.play_logged(data, case.players, seats, case.seed, case.index)).turns
    out = [HEADER.format("carcassonne")]
    pending = None                  # the move whose score line is due
    for line in lines:
        ends_turn = line.startswith("turn ") or line.startswith("  tile(s) ") or line == "final scoring:"
        if pending is not None and ends_turn:
            out.append(score_line(turns[pending], case.players))
            pending = None
        out.append(line)
        if line.startswith("turn "):
            pending = int(line.split(":", 1)[0].split()[1]) - 1
    scored = sum(1 for line in out if line.startswith("  score: "))
    if pending is not None or scored != len(turns):
        raise RuntimeError(f"{case.filename}: could not place a score line after each of the "
                           f"{len(turns)} moves (replay format changed?)")
    return "\n".join(out) + "\n"


def difference(case: Case) -> str | None:
    """None if the case's golden file matches a fresh rendering, else what differs (for tests)."""
    path = case.directory / case.filename
    if not path.exists():
        return f"{path} is missing: run python tools/regen_golden.py"
    expected = path.read_text(encoding="utf-8")
    actual = render(case)
    if actual == expected:
        return None
    diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                     f"golden/{case.filename}", "regenerated", lineterm="", n=2))
    shown = "\n".join(diff[:150]) + ("\n... (diff cut)" if len(diff) > 150 else "")
    return (f"{case.filename} changed ({case.game}, {case.players} players, seed {case.seed}, "
            f"game {case.index}). If the change is intended, run `python tools/regen_golden.py` "
            f"and review the diff. If nothing was meant to change, first rule out a stale numba "
            f"cache (delete ~/.cache/simcore/numba and run again).\n{shown}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"only these games' files (default: every game; {', '.join(PACKAGES)})")
    parser.add_argument("--check", action="store_true", help="report stale files, write nothing")
    parser.add_argument("--use-cache", action="store_true", help="use the shared numba cache (faster; "
                        "only when it is known to match the source)")
    args = parser.parse_args(argv)
    unknown = [game for game in args.games if game not in PACKAGES]
    if unknown:
        parser.error(f"no game {unknown[0]!r} (games: {', '.join(PACKAGES)})")
    fresh_cache = None
    if not args.use_cache:
        if "numba" in sys.modules:
            parser.error("numba is already loaded: cannot switch to a fresh cache (use --use-cache)")
        fresh_cache = tempfile.mkdtemp(prefix="regen_golden_numba_")
        os.environ["NUMBA_CACHE_DIR"] = fresh_cache
    try:
        return write_or_check(args.check, args.games or list(PACKAGES))
    finally:
        if fresh_cache:
            shutil.rmtree(fresh_cache, ignore_errors=True)


def write_or_check(check: bool, games: list[str]) -> int:
    stale = 0
    for case in (case for case in CASES if case.game in games):
        case.directory.mkdir(parents=True, exist_ok=True)
        path = case.directory / case.filename
        text = render(case)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            print(f"unchanged  {path.relative_to(ROOT)}")
            continue
        stale += 1
        if check:
            print(f"stale      {path.relative_to(ROOT)}")
        else:
            path.write_text(text, encoding="utf-8")
            print(f"{'written' if old is None else 'rewritten':10} {path.relative_to(ROOT)}")
    known = {case.filename for case in CASES}
    for path in sorted(p for package in set(PACKAGES.values())
                       for p in (ROOT / "tests" / "games" / package / "golden").glob("*.txt")):
        if path.name not in known:
            print(f"not a case {path.relative_to(ROOT)} (delete it if it is obsolete)")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
