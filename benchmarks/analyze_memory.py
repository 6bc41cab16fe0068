"""Peak memory and wall time of `simcore analyze` (and of a sweep's summary) on a large results
file, as JSON lines: each measured command runs in a subprocess of its own, and its peak RSS is
the kernel's ru_maxrss of that one process (os.wait4), not of the generator before it.

    python benchmarks/analyze_memory.py -n 1000000              # generates the file, then deletes it
    python benchmarks/analyze_memory.py --file big.parquet      # a file you already have (kept)

Without --file, `simcore simulate GAME -p P -n N --seed 1 -o TMP/big.parquet --quiet` writes the
file first (Strasbourg with 4 random players is the cheapest large file: ~150,000 games/s on 2
cores); --sweep also measures `simcore.sweep.summarise([FILE, FILE])`, the summary of a sweep of
two variants of that size (the file read twice in step, as a sweep's variants are).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from simcore import results

SIMCORE = [sys.executable, "-c", "from cli.main import main; main()"]


def measured(command: list[str]) -> dict:
    """Runs command; its wall time and peak resident memory (MB), and its exit status."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    error = process.stderr.read().decode(errors="replace").strip()
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}): {error}")
    return {"seconds": round(seconds, 1), "peak_rss_mb": round(usage.ru_maxrss / 1024)}   # ru_maxrss: KiB on Linux


def size_mb(path: str) -> float:
    if os.path.isfile(path):
        return os.path.getsize(path) / 2**20
    return sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(path) for name in names) / 2**20


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", help="An existing results file to analyze (default: generate one).")
    parser.add_argument("-n", "--games", type=int, default=1_000_000, help="Games to generate (default 1,000,000).")
    parser.add_argument("--game", default="strasbourg")
    parser.add_argument("-p", "--players", type=int, default=4)
    parser.add_argument("--sweep", action="store_true", help="Also measure a two-variant sweep summary of the file.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="analyze-memory-") as work:
        path = args.file
        if path is None:
            path = os.path.join(work, "big.parquet")
            generated = measured(SIMCORE + ["simulate", args.game, "-p", str(args.players), "-n", str(args.games),
                                            "--seed", "1", "-o", path, "--quiet"])
            print(json.dumps({"command": "simulate", "games": args.games, **generated}), flush=True)
        base = {"file": path if args.file else f"{args.game} {args.players}p, seed 1", "games": results.games_in(path),
                "size_mb": round(size_mb(path))}
        report = measured(SIMCORE + ["analyze", path, "--out", os.path.join(work, "report"), "--force"])
        print(json.dumps({"command": "analyze", **base, **report}), flush=True)
        if args.sweep:
            summary = measured([sys.executable, "-c", "import sys; from simcore import sweep; "
                                "sweep.summarise([sys.argv[1], sys.argv[1]])", path])
            print(json.dumps({"command": "sweep summary (2 variants)", **base, **summary}), flush=True)


if __name__ == "__main__":
    main()
