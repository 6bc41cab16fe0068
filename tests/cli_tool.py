"""Running the command line the way a user does, for the CLI tests of every game."""
import glob
import json
import os
import re
import subprocess
import sys
import tomllib
import traceback
from pathlib import Path

from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parents[1]
SIMCORE = [sys.executable, "-c", "from cli.main import main; main()"]


def simcore(*args):
    """`simcore ARGS...` from the project folder, run in this process by click as the command line
    runs it (a subprocess per call would load Python and the compiled kernels again: ~2 s each):
    a CompletedProcess with the exit status, stdout and stderr. An exception that escapes the
    command is written to stderr as its traceback, as Python would."""
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(main, [str(a) for a in args], prog_name="simcore")
    finally:
        os.chdir(here)
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "Traceback (most recent call last):\n" + "".join(traceback.format_exception(result.exception))
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, stderr)


def simcore_process(*args):
    """`simcore ARGS...` in a subprocess of its own, for what only a real process shows."""
    return subprocess.run([*SIMCORE, *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=300)


def json_output(p):
    """The JSON object a command printed, after checking it succeeded."""
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def assert_one_error_line(p, needle):
    """A user mistake: status 2 and one line `error: ...` containing needle, no traceback."""
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and p.stderr.startswith("error: ")
    assert needle in p.stderr


def spoiled(path, spoil):
    """The data document at path with spoil(doc) applied, as JSON text."""
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    spoil(doc)
    return json.dumps(doc)


def assert_shipped_scenarios_run(game, player_counts, tmp_path):
    """Every scenarios/GAME-*.toml asks for 20,000 games and runs as it is written; the test runs
    a copy cut to its first 2,000 games (the suite's time), in which greedy beats random."""
    paths = sorted(glob.glob(str(ROOT / "scenarios" / f"{game}-*.toml")))
    assert [Path(p).name for p in paths] == [f"{game}-{n}p.toml" for n in player_counts]
    for path in paths:
        text = Path(path).read_text(encoding="utf-8")
        assert tomllib.loads(text)["games"] == 20000
        short = tmp_path / Path(path).name
        short.write_text(re.sub(r"(?m)^games\s*=\s*20000\s*$", "games = 2000", text), encoding="utf-8")
        p = simcore("run", short, "--quiet", "--json")
        assert p.returncode == 0, (path, p.stderr)
        summary = json.loads(p.stdout)
        assert summary["game"] == game and summary["games"] == 2000
        rate = {x["policy"]: x["win_rate"] for x in summary["policies"]}
        assert rate["greedy"] > rate["random"], path


def assert_ranked_by_score_then(df, tiebreak):
    """In a results frame: a higher score ranks higher; of equal scores, more `tiebreak` (a seat
    column: the game's first tie-break) ranks higher, and there is such a tie; equal in both, equal
    ranks (a game whose tie-break has a second step says so itself)."""
    pairs = df.merge(df, on="game_index")
    assert (pairs[pairs.score_x > pairs.score_y].eval("rank_x < rank_y")).all()
    same_score = pairs[pairs.score_x == pairs.score_y]
    tied = same_score[same_score[f"{tiebreak}_x"] > same_score[f"{tiebreak}_y"]]
    assert len(tied) > 0 and (tied.rank_x < tied.rank_y).all()
    return same_score[same_score[f"{tiebreak}_x"] == same_score[f"{tiebreak}_y"]]


def assert_check_clean(game, players, games=300):
    """`simcore check` (issue 16) plays `games` games of the shipped data with the invariant
    checker on after every step, a greedy seat rotating among random ones: none may break one."""
    done = simcore("check", game, "-p", players, "-n", games, "--seed", 16, "--policy", "greedy",
                   *(["--policy", "random"] * (players - 1)), "--rotate-seats", "--json", "--quiet")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"game": game, "players": players, "games": games, "violations": 0,
                                       "first_violation": None}
