"""Soak the engines: `simcore check`'s invariant checker over many games of every game.

For each game: RANDOM games of random play split over every player count, GREEDY games with a
greedy seat among random ones (rotated), and SWITCH games at the usual player count under each
non-default value of every rule switch (a flipped true/false, each other choice, the ends of a
numeric range). Prints one JSON line per run and a table; exits 1 if any invariant broke.

    python benchmarks/soak.py [GAME ...] [--random N] [--greedy N] [--switch N] [--seed S] [--workers W] [-p N ...]
"""
import argparse
import copy
import json
import os
import sys
import tempfile
import time
from dataclasses import replace
from importlib import import_module

from simcore import registry, runner, stats
from simcore.contract import UserError

COMPONENTS = {"carcassonne": "carcassonne", "carcassonne-ark": "carcassonne", "notre-dame": "notre_dame",
              "strasbourg": "strasbourg", "principato": "principato"}


def shipped_document(game: str) -> tuple[dict, str]:
    """The game's shipped data file, parsed, and the name of its rule-switch section."""
    components = import_module(f"simcore.boardgames.{COMPONENTS[game]}.components")
    path = components.default_path("ark" if game == "carcassonne-ark" else "base") \
        if COMPONENTS[game] == "carcassonne" else components.default_path()
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    return doc, ("options" if game == "principato" else "rules")


def switch_variants(game: str) -> list[dict]:
    """{switch: value} for every non-default value of every rule switch the game's file accepts."""
    components = import_module(f"simcore.boardgames.{COMPONENTS[game]}.components")
    choices = getattr(components, "RULE_CHOICES", {})
    ranges = getattr(components, "RULE_RANGES", {})
    fixed = getattr(components, "ARK_ONLY_RULES", ()) if game == "carcassonne" else ()
    variants = []
    for name, default in components.RULE_DEFAULTS.items():
        if name in fixed:
            continue
        if name in choices:
            variants += [{name: c} for c in choices[name] if c != default]
        elif isinstance(default, bool):
            variants.append({name: not default})
        elif name in ranges:
            variants += [{name: v} for v in sorted(set(ranges[name])) if v != default]
    return variants


def data_file(game: str, switches: dict, folder: str) -> str:
    doc, section = shipped_document(game)
    doc = copy.deepcopy(doc)
    doc.setdefault(section, {}).update(switches)
    path = os.path.join(folder, f"{game}-{'-'.join(f'{k}={v}' for k, v in switches.items())}.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)
    return path


def soak(game, players, games, seed, policies, workers, data=None, label="random"):
    try:
        plan = runner.plan(game, players=players, games=games, seed=seed, policies=policies,
                           rotate_seats=len(set(policies)) > 1, workers=workers, data=data)
    except UserError as refused:      # a switch value the game fixes by the rules: nothing to soak
        record = {"game": game, "players": players, "run": label, "games": 0, "violations": 0, "seconds": 0,
                  "refused": str(refused)}
        print(json.dumps(record), flush=True)
        return record
    start = time.perf_counter()
    outcome = runner.check(plan)
    record = {"game": game, "players": players, "run": label, "games": outcome.games,
              "violations": outcome.violations, "seconds": round(time.perf_counter() - start, 1),
              "games_per_second": round(outcome.games / max(outcome.seconds, 1e-9))}
    if outcome.first:
        record["first_violation"] = {"game_index": outcome.first.game_index, "step": outcome.first.step,
                                     "code": outcome.first.code, "what": outcome.first.what,
                                     "replay": runner.replay_command(plan, outcome.first.game_index)}
    print(json.dumps(record), flush=True)
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=list(COMPONENTS))
    parser.add_argument("--random", type=int, default=10_000_000, help="random games per game (all counts)")
    parser.add_argument("--greedy", type=int, default=1_000_000, help="games with a greedy seat per game")
    parser.add_argument("--switch", type=int, default=100_000, help="games per rule-switch value")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("-p", "--players", type=int, action="append",
                        help="only these player counts (repeatable; default every count of the game)")
    args = parser.parse_args()
    records = []
    with tempfile.TemporaryDirectory() as folder:
        for game in args.games:
            spec = registry.get(game)
            counts = range(spec.min_players, spec.max_players + 1)
            for players in [n for n in counts if not args.players or n in args.players]:
                if args.random:
                    records.append(soak(game, players, args.random // len(counts), args.seed, ["random"],
                                        args.workers))
                if args.greedy:
                    records.append(soak(game, players, args.greedy // len(counts), args.seed,
                                        ["greedy"] + ["random"] * (players - 1), args.workers, label="greedy+random"))
            for switches in switch_variants(game) if args.switch else []:
                players = spec.default_players
                label = ",".join(f"{k}={json.dumps(v)}" for k, v in switches.items())
                records.append(soak(game, players, args.switch, args.seed, ["greedy"] + ["random"] * (players - 1),
                                    args.workers, data_file(game, switches, folder), label))
    print(f"\n{'game':<16} {'run':<14} {'games':>12} {'violations':>10} {'games/s':>9}", file=sys.stderr)
    for game in args.games:
        for label in ("random", "greedy+random", "rule switches"):
            rows = [r for r in records if r["game"] == game and
                    (r["run"] == label or (label == "rule switches" and r["run"] not in ("random", "greedy+random")))]
            if rows:
                games = sum(r["games"] for r in rows)
                speed = games / max(sum(r["seconds"] for r in rows), 1e-9)
                violations = sum(r["violations"] for r in rows)
                print(f"{game:<16} {label:<14} {games:>12,} {violations:>10,} {stats.speed_text(speed, unit=''):>9}",
                      file=sys.stderr)
    sys.exit(1 if any(r["violations"] for r in records) else 0)


if __name__ == "__main__":
    main()
