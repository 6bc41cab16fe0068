"""Policy names with parameters: `random`, `greedy`, `flatmc[:playouts=N,rollout=random|greedy]`,
`mcts[:iters=N,c=C,rollout=random|greedy,depth=K]`.

Inside the kernels a seat's policy is an int8 id: 0 random and 1 greedy (every game's own
POLICIES), and 2, 3, ... the distinct search policies of one run, whose parameters travel in a
table (tt.search in the kernels, one row per id - 2; simcore/search.py reads it). A name is
written back in one canonical form — defaults left out, keys in a fixed order — so `mcts` and
`mcts:iters=200` are the same policy in the results and in every report.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore import search
from simcore.contract import UserError
from simcore.registry import did_you_mean

ROLLOUTS = ("random", "greedy")


@dataclass(frozen=True)
class Param:
    key: str
    kind: type            # int, float or str
    default: object
    low: float | None = None
    high: float | None = None
    help: str = ""

    def parse(self, policy: str, text: str):
        if self.kind is str:
            if text not in ROLLOUTS:
                raise UserError(f"policy {policy}: {self.key} must be one of {', '.join(ROLLOUTS)}, not '{text}'")
            return text
        try:
            value = self.kind(text)
        except ValueError:
            raise UserError(f"policy {policy}: {self.key} must be {'an integer' if self.kind is int else 'a number'}, "
                            f"not '{text}'") from None
        if not self.low <= value <= self.high:
            raise UserError(f"policy {policy}: {self.key} must be between {self.low:g} and {self.high:g}, not {text}")
        return value


SEARCH = {
    "flatmc": (search.FLATMC, (
        Param("playouts", int, 20, 1, 1000, "playouts to the end for each legal option"),
        Param("rollout", str, "random", help="the policy of every seat in the playouts"))),
    "mcts": (search.MCTS, (
        Param("iters", int, 200, 1, search.MAX_NODES - 1, "iterations (sampled games) per decision"),
        Param("c", float, 0.7, 0.0, 100.0, "UCT exploration constant (rewards lie in [0, 1])"),
        Param("rollout", str, "random", help="the policy of every seat below the tree"),
        Param("depth", int, 0, 0, search.MAX_HIST, "decisions below the root after which a run stops at the end of "
              "that turn (round) and the game's end scoring scores it (0: play to the end)"))),
}


def defaults(spec) -> dict:
    """Every search parameter's default in this game: the general ones, then the game's own
    (GameSpec.search_defaults, e.g. Strasbourg's {"mcts": {"rollout": "greedy"}})."""
    return {base: {p.key: spec.search_defaults.get(base, {}).get(p.key, p.default) for p in params}
            for base, (_, params) in SEARCH.items()}


def help_lines(spec) -> list[str]:
    """What `simcore games` lists about the search policies of a game."""
    lines = []
    for base, (_, params) in SEARCH.items():
        keys = ",".join(f"{p.key}={defaults(spec)[base][p.key]}" for p in params)
        lines.append(f"{base}[:{keys}]: " + "; ".join(f"{p.key}: {p.help}" for p in params))
    return lines


def parse(spec, name: str) -> tuple[str, dict]:
    """(base, params) of a policy name in the game of spec (a GameSpec); a UserError naming what
    is wrong."""
    known = spec.policies
    base, _, rest = name.partition(":")
    if base in known and base not in SEARCH:
        if rest:
            raise UserError(f"policy {base} takes no parameters, got '{name}'")
        return base, {}
    if base not in SEARCH or not spec.searchable:
        known_names = [*known, *SEARCH] if spec.searchable else list(known)
        raise UserError(f"unknown policy '{name}'{did_you_mean(base, known_names)} (known: {', '.join(known_names)})")
    params_of = {p.key: p for p in SEARCH[base][1]}
    params = {}
    for item in filter(None, rest.split(",")) if rest else ():
        key, eq, text = item.partition("=")
        if not eq or key not in params_of:
            raise UserError(f"policy {base}: unknown parameter '{item}'{did_you_mean(key, params_of)} "
                            f"(known: {', '.join(params_of)})")
        if key in params:
            raise UserError(f"policy {base}: {key} given twice")
        params[key] = params_of[key].parse(base, text.strip())
    if rest == "" and name.endswith(":"):
        raise UserError(f"policy {name}: parameters missing after ':'")
    return base, params


def canonical(spec, name: str) -> str:
    """The one spelling of a policy: the game's defaults left out, keys in the documented order."""
    base, params = parse(spec, name)
    if base not in SEARCH:
        return base
    default = defaults(spec)[base]
    shown = [f"{p.key}={params[p.key]:g}" if p.kind is float else f"{p.key}={params[p.key]}"
             for p in SEARCH[base][1] if p.key in params and params[p.key] != default[p.key]]
    return base + (":" + ",".join(shown) if shown else "")


def row(spec, name: str) -> np.ndarray:
    """A search policy's parameters as its row of the kernels' table."""
    base, params = parse(spec, name)
    kind = SEARCH[base][0]
    value = {**defaults(spec)[base], **params}
    out = np.zeros(search.N_PARAMS)
    out[search.P_KIND] = kind
    out[search.P_BUDGET] = value["playouts" if kind == search.FLATMC else "iters"]
    out[search.P_C] = value.get("c", 0.0)
    out[search.P_ROLLOUT] = ROLLOUTS.index(value["rollout"])
    out[search.P_DEPTH] = value.get("depth", 0)
    return out


@dataclass(frozen=True)
class Lineup:
    """The policies of one run: canonical names by kernel id, and the search table."""
    names: tuple[str, ...]            # index = id
    table: np.ndarray                 # float64[MAX_SPECS, N_PARAMS]

    def ids(self, seat_names) -> np.ndarray:
        return np.array([self.names.index(n) for n in seat_names], dtype=np.int8)

    @classmethod
    def own(cls, known: dict[str, int]) -> "Lineup":
        """A game's own policies (random, greedy) and no search."""
        return cls(names_by_id(known), np.zeros((search.MAX_SPECS, search.N_PARAMS)))


def names_by_id(known: dict[str, int]) -> tuple[str, ...]:
    """A game's own policy names (its POLICIES, name -> id) indexed by the id the kernels use."""
    names = [None] * (max(known.values()) + 1)
    for name, pid in known.items():
        names[pid] = name
    return tuple(names)


def lineup(spec, seat_names) -> Lineup:
    """Ids and table for these canonical seat policy names (search policies numbered from 2 in
    order of first appearance)."""
    own = Lineup.own(spec.policies)
    names, table = list(own.names), own.table
    for name in seat_names:
        if name not in names:
            if len(names) - search.FIRST_SEARCH_ID >= search.MAX_SPECS:
                raise UserError(f"at most {search.MAX_SPECS} different search policies in one run")
            table[len(names) - search.FIRST_SEARCH_ID] = row(spec, name)
            names.append(name)
    return Lineup(tuple(names), table)
