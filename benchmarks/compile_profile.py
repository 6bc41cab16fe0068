"""Where a game's first compile goes: its first batch on an empty numba cache, with numba's compile
events recorded, then the functions by exclusive seconds (their own compile, optimisation and
code generation, not their callees') and how many times each was compiled. A function compiled
many times is one whose callers pass constants or integer widths that its decorator does not
merge (see simcore/kernel.py). Seconds depend on the machine's load: compare runs made side by side.

    python benchmarks/compile_profile.py GAME [-p PLAYERS] [--top N]
"""
import argparse
import collections
import os
import tempfile
import time

os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="simcore-cold-")   # before numba is imported

import numpy as np  # noqa: E402
from numba.core import event  # noqa: E402

from simcore import registry  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("-p", "--players", type=int)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    spec = registry.get(args.game)
    data = spec.load_data(None)
    players = args.players or spec.default_players
    with event.install_recorder("numba:compile") as recorder:
        start = time.perf_counter()
        spec.play_batch(data, players, np.zeros((4, players), np.int8), 1, 0)
        seconds = time.perf_counter() - start
    stack, own, total, count = [], collections.Counter(), collections.Counter(), collections.Counter()
    for stamp, ev in recorder.buffer:          # nested start/end events: a callee compiles inside its caller
        fn = ev.data["dispatcher"].py_func
        name = f"{fn.__module__.split('.')[-1]}.{fn.__name__}"
        if ev.is_start:
            stack.append([name, stamp, 0.0])
            continue
        name, began, inner = stack.pop()
        took = stamp - began
        own[name] += took - inner
        total[name] += took
        count[name] += 1
        if stack:
            stack[-1][2] += took
    print(f"{args.game}, {players} players: first batch {seconds:.1f} s, {sum(count.values())} compilations "
          f"of {len(count)} functions")
    for name, s in own.most_common(args.top):
        print(f"{s:8.2f} s own {total[name]:8.2f} s with callees  x{count[name]:3d}  {name}")


if __name__ == "__main__":
    main()
