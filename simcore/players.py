"""Policy names with parameters and labels: `random`, `greedy[:WEIGHT=X,...]` (the game's own
weights, GameSpec.greedy_weights), `flatmc[:playouts=N,rollout=random|greedy]`,
`mcts[:iters=N,c=C,rollout=random|greedy,depth=K]`, and any of them named by a label:
`farmer=greedy:fields=3,cities=0`, which the results and reports show as `farmer`; and a Python
agent, `py:MODULE:FACTORY` (simcore/agents.py), which the step API plays.

Inside the kernels a seat's policy is an int8 id with a row of parameters in the run's policy
table (tt.search; simcore/search.py says the layout): 0 random and 1 greedy at the game's own
settings (every game's POLICIES), then the run's search policies from search.FIRST_SEARCH_ID, then
its variants of random and greedy (a label, greedy's weights) from search.FIRST_VARIANT_ID. A
name is written back in one canonical form — defaults left out, keys in a fixed order — so
`mcts` and `mcts:iters=200` are the same policy in the results and in every report.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from simcore import agents, search
from simcore.contract import Param, UserError
from simcore.registry import did_you_mean

ROLLOUTS = ("random", "greedy")
AGENT = "py"                      # py:MODULE:FACTORY, a Python agent (simcore/agents.py)
LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")

SEARCH = {
    "flatmc": (search.FLATMC, (
        Param("playouts", int, 20, 1, 1000, "playouts to the end for each legal option"),
        Param("rollout", str, "random", help="the policy of every seat in the playouts: random, greedy, or the label "
              "of a random or greedy policy of the run (a weighted greedy)", choices=ROLLOUTS))),
    "mcts": (search.MCTS, (
        Param("iters", int, 200, 1, search.MAX_NODES - 1, "iterations (sampled games) per decision"),
        Param("c", float, 0.7, 0.0, 100.0, "UCT exploration constant (rewards lie in [0, 1])"),
        Param("rollout", str, "random", help="the policy of every seat below the tree: random, greedy, or the label "
              "of a random or greedy policy of the run (a weighted greedy)", choices=ROLLOUTS),
        Param("depth", int, 0, 0, search.MAX_HIST, "decisions below the root after which a run stops at the end of "
              "that turn (round) and the game's end scoring scores it (0: play to the end)"),
        Param("reuse", int, 1, 0, 1, "1: when the seat decides again right after its searched move, search on in "
              "the subtree below that move and run only the iterations its visits lack of topup x iters"),
        Param("topup", float, 1.0, 0.0, 1.0, "with reuse: the subtree kept is searched on until its visits reach "
              "topup x iters (at least one more iteration); 1: the whole budget"),
        Param("expand", int, 1, 1, 100, "the visits a node below the root has before it grows its first child "
              "(greedy's choice); until then a run that reaches it rolls out from it (1: on its first return)"),
        Param("settle", float, 0.0, 0.0, 1.0, "1: a decision's search ends as soon as no other option can catch up "
              "with the most visited one in the iterations left (the same choice as after the whole budget, in fewer "
              "iterations; fewer visits below the move played for the decision after it); S < 1: as soon as the "
              "most visited one leads the next by more than S x the iterations left (0: never)"))),
}


def params_of(spec, base: str) -> tuple[Param, ...]:
    """The parameters policy `base` takes in the game of spec."""
    if base in SEARCH:
        return SEARCH[base][1]
    return spec.greedy_weights if base == "greedy" else ()


def defaults(spec) -> dict:
    """Every parameter's default in this game, by policy: greedy's weights, then the search's,
    general or the game's own (GameSpec.search_defaults, e.g. Strasbourg's {"mcts": {"rollout": "greedy"}})."""
    out = {"greedy": {p.key: p.default for p in spec.greedy_weights}} if spec.greedy_weights else {}
    out.update({base: {p.key: spec.search_defaults.get(base, {}).get(p.key, p.default) for p in params}
                for base, (_, params) in SEARCH.items()})
    return out


def parameters(spec) -> dict:
    """{policy: {parameter: its default, type, range (or choices) and help}} of every policy of
    the game that takes parameters (`simcore games --json`)."""
    default = defaults(spec)
    bases = (["greedy"] if spec.greedy_weights else []) + (list(SEARCH) if spec.searchable else [])
    return {base: {p.key: p.described(default[base][p.key]) for p in params_of(spec, base)} for base in bases}


def help_lines(spec) -> list[str]:
    """One line per search policy of the game: its name with the game's defaults, then each
    parameter's help (`simcore games --json`, "search_policies")."""
    default = defaults(spec)
    lines = []
    for base, (_, params) in SEARCH.items():
        shown = ",".join(f"{p.key}={default[base][p.key]}" for p in params)
        lines.append(f"{base}[:{shown}]: " + "; ".join(f"{p.key}: {p.help}" for p in params))
    return lines


def parameter_lines(spec) -> list[str]:
    """What `simcore games` lists of the policies that take parameters: per policy a line with
    its defaults, then a line per parameter with its type, range and help."""
    lines = []
    for base, params in parameters(spec).items():
        shown = ",".join(f"{key}={_shown(p['default'])}" for key, p in params.items())
        lines.append(f"{base}[:{shown}]")
        for key, p in params.items():
            span = ("one of " + ", ".join(p["choices"]) if p["range"] is None
                    else f"{p['type']} in [{p['range'][0]:g}, {p['range'][1]:g}]")
            lines.append(f"  {key} ({span}): {p['help']}")
    return lines


def _shown(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def split_label(name: str) -> tuple[str | None, str]:
    """(label, definition) of `label=definition`, or (None, name) for a name without a label. A
    label is what comes before an `=` that stands before any `:`."""
    head, eq, rest = name.partition("=")
    if not eq or ":" in head:
        return None, name
    if not LABEL.fullmatch(head):
        raise UserError(f"policy label '{head}' in '{name}': use letters, digits and _ . + - (starting with a "
                        f"letter or digit)")
    return head, rest


def parse(spec, name: str) -> tuple[str, dict]:
    """(base, params) of a policy name in the game of spec (a GameSpec), its label set aside; a
    UserError naming what is wrong. A Python agent (`py:MODULE:FACTORY`, simcore/agents.py) is
    ("py", {"module": MODULE, "factory": FACTORY})."""
    label, name = split_label(name)
    known = [*spec.policies, *SEARCH] if spec.searchable else list(spec.policies)
    if label is not None and label in known + [AGENT]:
        raise UserError(f"policy label '{label}' is a policy's own name: choose another")
    if name.startswith(AGENT + ":"):
        if spec.stepper is None:
            raise UserError(f"{spec.id} cannot be played by Python agents ({name})")
        agents.factory(name)                  # imports it now: a mistake is a one-line error before any game
        return AGENT, agents.parse(name)
    base, colon, rest = name.partition(":")
    if base not in known:
        raise UserError(f"unknown policy '{name}'{did_you_mean(base, known)} (known: {', '.join(known)})")
    params_given = params_of(spec, base)
    if colon and not params_given:
        raise UserError(f"policy {base} takes no parameters, got '{name}'")
    if colon and not rest:
        raise UserError(f"policy {name}: parameters missing after ':'")
    params_by_key = {p.key: p for p in params_given}
    params = {}
    for item in filter(None, rest.split(",")):
        key, eq, text = item.partition("=")
        if not eq or key not in params_by_key:
            raise UserError(f"policy {base}: unknown parameter '{item}'{did_you_mean(key, params_by_key)} "
                            f"(known: {', '.join(params_by_key)})")
        if key in params:
            raise UserError(f"policy {base}: {key} given twice")
        if key == "rollout" and text not in ROLLOUTS and LABEL.fullmatch(text):
            params[key] = text               # a label of the run's policies: lineup finds it
            continue
        params[key] = params_by_key[key].parse(base, text.strip())
    return base, params


def canonical(spec, name: str) -> str:
    """The one spelling of a policy: the game's defaults left out, keys in the documented order,
    a label kept in front (`farmer=greedy:cities=0`)."""
    label, definition = split_label(name)
    base, params = parse(spec, name)
    if base == AGENT:
        return name
    default = defaults(spec).get(base, {})
    shown = [f"{p.key}={_shown(params[p.key])}" for p in params_of(spec, base)
             if p.key in params and params[p.key] != default[p.key]]
    definition = base + (":" + ",".join(shown) if shown else "")
    return definition if label is None else f"{label}={definition}"


def shown_name(name: str) -> str:
    """What results and reports call a (canonical) policy: its label, else its name."""
    label, definition = split_label(name)
    return definition if label is None else label


def row(spec, name: str) -> np.ndarray:
    """A policy's row of the policy table (search.P_*): a search's kind, budget, exploration,
    rollout and depth; a variant's own policy id and greedy's weights."""
    base, params = parse(spec, name)
    out = np.zeros(search.N_PARAMS)
    if base == AGENT:
        out[search.P_KIND] = search.RANDOM_ID  # what the kernel's seat plays where the agent's action is not asked
        return out
    value = {**defaults(spec).get(base, {}), **params}
    if base not in SEARCH:
        out[search.P_KIND] = spec.policies[base]
        for i, p in enumerate(params_of(spec, base)):
            out[search.P_WEIGHTS + i] = value[p.key]
        return out
    kind = SEARCH[base][0]
    out[search.P_KIND] = kind
    out[search.P_BUDGET] = value["playouts" if kind == search.FLATMC else "iters"]
    out[search.P_C] = value.get("c", 0.0)
    # a labelled rollout policy's id is the run's (lineup sets it)
    out[search.P_ROLLOUT] = ROLLOUTS.index(value["rollout"]) if value["rollout"] in ROLLOUTS else -1
    out[search.P_DEPTH] = value.get("depth", 0)
    out[search.P_REUSE] = value.get("reuse", 0)
    out[search.P_TOPUP] = value.get("topup", 1.0)
    out[search.P_EXPAND] = value.get("expand", 1)
    out[search.P_SETTLE] = value.get("settle", 0)
    return out


@dataclass(frozen=True)
class Lineup:
    """The policies of one run: their canonical names and shown names by kernel id ("" for an
    unused id), and the policy table."""
    keys: tuple[str, ...]             # index = id
    names: tuple[str, ...]            # index = id: what the results call each
    table: np.ndarray                 # float64[MAX_IDS, N_PARAMS]

    def ids(self, seat_names) -> np.ndarray:
        return np.array([self.keys.index(n) for n in seat_names], dtype=np.int8)

    @classmethod
    def own(cls, known: dict[str, int]) -> "Lineup":
        """A game's own policies (random, greedy) and no other."""
        names = names_by_id(known)
        return cls(names, names, np.zeros((search.MAX_IDS, search.N_PARAMS)))


def names_by_id(known: dict[str, int]) -> tuple[str, ...]:
    """A game's own policy names (its POLICIES, name -> id) indexed by the id the kernels use."""
    names = [None] * (max(known.values()) + 1)
    for name, pid in known.items():
        names[pid] = name
    return tuple(names)


def lineup(spec, seat_names) -> Lineup:
    """Ids and table for these canonical seat policy names: the game's own by their ids, search
    policies numbered from search.FIRST_SEARCH_ID and variants from search.FIRST_VARIANT_ID in
    order of first appearance. Two different policies may not share a shown name."""
    own = Lineup.own(spec.policies)
    table = own.table
    by_id = dict(enumerate(own.keys))
    searches = variants = 0
    for name in seat_names:
        if name in by_id.values():
            continue
        if parse(spec, name)[0] in SEARCH:
            if searches == search.MAX_SPECS:
                raise UserError(f"at most {search.MAX_SPECS} different search policies in one run")
            pid, searches = search.FIRST_SEARCH_ID + searches, searches + 1
        else:
            if variants == search.MAX_VARIANTS:
                raise UserError(f"at most {search.MAX_VARIANTS} different labelled or weighted random and greedy "
                                f"policies in one run")
            pid, variants = search.FIRST_VARIANT_ID + variants, variants + 1
        table[pid] = row(spec, name)
        by_id[pid] = name
    for pid, name in by_id.items():
        if search.FIRST_SEARCH_ID <= pid < search.FIRST_VARIANT_ID and table[pid, search.P_ROLLOUT] < 0:
            table[pid, search.P_ROLLOUT] = rollout_id(spec, name, by_id)
    shown = {}
    for name in by_id.values():
        other = shown.setdefault(shown_name(name), name)
        if other != name:
            raise UserError(f"policies {other} and {name} have the same name {shown_name(name)}: label them apart")
    last = max(by_id)
    return Lineup(tuple(by_id.get(pid, "") for pid in range(last + 1)),
                  tuple(shown_name(by_id[pid]) if pid in by_id else "" for pid in range(last + 1)), table)


def rollout_id(spec, name: str, by_id: dict[int, str]) -> int:
    """The id of the run's policy that search policy `name` names as its rollout by its label: a
    random or greedy one (a search's rollouts cannot search)."""
    label = parse(spec, name)[1]["rollout"]
    for pid, other in by_id.items():
        if split_label(other)[0] == label:
            if search.FIRST_SEARCH_ID <= pid < search.FIRST_VARIANT_ID or parse(spec, other)[0] == AGENT:
                raise UserError(f"policy {name}: the rollout {label} must be a random or greedy policy, not "
                                f"{'a Python agent' if parse(spec, other)[0] == AGENT else 'a search'}")
            return pid
    raise UserError(f"policy {name}: no policy of this run is labelled {label} (give it as --policy {label}=greedy:...)")
