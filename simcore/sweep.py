"""Parameter sweeps: the same games played under a grid of component-data and rule variants.

A sweep parameter is `PATH=V1,V2,...`:

* PATH addresses one value of the game's data file (the shipped one, or --data FILE) by
  dot-separated keys. An object is entered by key (a key holding dots, like
  `payout_by_players.2`, is matched whole). A list of objects is entered by an item's `id`,
  `name`, `kind` or `effect` (the one item having that value; `tiles.D`, `persons.HOUSEKEEPER`,
  `goal_cards.G2.VILLA`) or by its index from 0 (`year_decks.1.3`). A key that matches nothing
  exactly may match one key or item case-insensitively (`buildings.tiles.inn`), and an object may
  be stepped through to the one item of its lists that has that id (`buildings.inn.value` is
  `buildings.tiles.INN.value`). The last key must already be in the file: a sweep never invents a
  field. Rule switches are the file's `rules` object (Principato: `options`); a switch the file
  leaves out (Carcassonne's shipped files have no `rules`) is addressed at its default.
* V1,V2,... are JSON values split on the commas outside brackets, braces and quotes:
  `3,4,5`, `2.5`, `true,false`, `null,3`, `[0,2,5,8],[0,2,5,9]`, `"x"`. A bare word that is not
  JSON (letters, digits, `_`, `-`, `/`, starting with a letter or `_`) is the string it spells:
  `options.stronghold_rounding=floor,ceil`. A value must have the JSON type of the value it
  replaces (a number for a number, ...), null excepted either way.

The grid is the product of every parameter's values, the first parameter varying slowest.
The baseline is the variant that takes, of every parameter, the value the data file swept holds
(the shipped value, or --data FILE's; a switch the file leaves out holds its default) where that
value is among those given, else the first value given; the outputs name it and say why
(baseline_reasons). Every variant plays the same plan — games 0..N-1 under one seed, the same
policies and seat rotation — so game i of every variant uses the same random streams (common
random numbers) and the differences to the baseline are paired by game index: their intervals
are far narrower than those of two independent runs.

The output folder gets, per variant, its data file (`NN-<values>.json`, the file the variant's
games used, loaded and validated by the game's own loader) and its results (`NN-<values>.parquet`),
plus `summary.csv`, `summary.md` and `sweep.json` (the sweep and every summary row). A variant's
`data` column reads `<data id> + <path>=<value>, ...`, so rows of several variants stay apart.
A folder that already holds a sweep's results is never overwritten silently: that is a UserError
unless force (the old sweep's files are removed once the new variants are planned) or resume
(each variant keeps the games its results file holds and plays the rest). The summary reads the
variants' files chunk by chunk, in step, so its memory does not grow with the games.
"""
from __future__ import annotations

import copy
import functools
import itertools
import json
import os
import re
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simcore import results, runner, stats
from simcore.datafile import read_json
from simcore.contract import GameSpec, UserError

ITEM_KEYS = ("id", "name", "kind", "effect")     # what names an item of a list of objects
BARE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_\-/]*")
SLUG_UNSAFE = re.compile(r"[^A-Za-z0-9._=+\-]+")
MAX_SLUG = 100
TEXT_COLUMNS = ("var", "seat", "policy", "category")
LISTED = 30              # at most this many keys or items named in an error
SUMMARY_FILES = ("summary.csv", "summary.md", "sweep.json")
VARIANT_RESULTS = re.compile(r"\d+-.+\.parquet")     # a variant's results file (or folder): NN-<values>.parquet


# ---- parameters -------------------------------------------------------------------------

@dataclass(frozen=True)
class Param:
    text: str                    # as given: PATH=V1,V2,...
    path: str                    # PATH as given
    keys: tuple                  # the resolved path: object keys (str) and list indexes (int)
    canonical: str               # the resolved path in words (a list item by its id where it has one)
    values: tuple                # the JSON values
    held: Any                    # the value the data file swept holds there (a left-out switch: its default)

    def baseline_index(self) -> int:
        """The value of the baseline: the one the file holds if it is given, else the first."""
        return next((i for i, value in enumerate(self.values) if same_value(value, self.held)), 0)


@dataclass(frozen=True)
class Variant:
    index: int
    values: tuple                # one per parameter
    label: str                   # "options.pair_cap=3, options.villa_table=[0,2,5,8]"
    stem: str                    # file name stem: "01-options.pair_cap=3"


def split_param(text: str) -> tuple[str, list[str]]:
    """'PATH=V1,V2' -> ('PATH', ['V1', 'V2']): the value texts, split on the commas outside
    brackets, braces and double-quoted strings."""
    path, eq, values = text.partition("=")
    path = path.strip()
    if not eq or not path:
        raise UserError(f"sweep parameter '{text}' must be PATH=V1,V2,...")
    if not values.strip():
        raise UserError(f"sweep parameter '{text}': no values after '='")
    pieces, depth, quoted, escaped, start = [], 0, False, False, 0
    for i, ch in enumerate(values):
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            pieces.append(values[start:i])
            start = i + 1
    pieces.append(values[start:])
    pieces = [p.strip() for p in pieces]
    if any(not p for p in pieces):
        raise UserError(f"sweep parameter '{text}': an empty value (values are separated by single commas)")
    return path, pieces


def parse_value(text: str, where: str):
    """A value's JSON, or the bare word itself as a string; else a UserError naming `where`."""
    def no_constant(name):
        raise ValueError(f"{name} is not a number")
    try:
        return json.loads(text, parse_constant=no_constant)
    except ValueError:
        if BARE_WORD.fullmatch(text):
            return text
        raise UserError(f"sweep parameter {where}: value {text} is not JSON "
                        "(numbers, true, false, null, \"text\", [lists], {objects}; or a bare word)") from None


def compact(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def same_value(a, b) -> bool:
    """Equal JSON values (4 and 4.0 are the same number; true is not 1)."""
    return json_type(a) == json_type(b) and a == b


def json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


# ---- paths ------------------------------------------------------------------------------

@dataclass(frozen=True)
class RuleSection:
    """Where a game's data file keeps its rule switches, and the loader's defaults for them."""
    name: str
    defaults: dict


def rule_section(spec: GameSpec, shipped_doc: Any) -> RuleSection:
    """The rule switches' object: the top-level object of the shipped file whose keys are all
    switches of the game's loader (Principato's "options"), else "rules"; the defaults are the
    loader module's RULE_DEFAULTS."""
    load = spec.load_data
    while isinstance(load, functools.partial):
        load = load.func
    defaults = dict(getattr(sys.modules.get(getattr(load, "__module__", ""), None), "RULE_DEFAULTS", {}) or {})
    if isinstance(shipped_doc, dict) and defaults:
        for key, value in shipped_doc.items():
            if isinstance(value, dict) and value and set(value) <= set(defaults):
                return RuleSection(key, defaults)
    return RuleSection("rules", defaults)


def resolve(doc: Any, path: str, rules: RuleSection | None = None) -> tuple[tuple, str, Any]:
    """(keys, canonical path, current value) of PATH in doc; a UserError naming the path, the
    level where it fails and what that level holds."""
    segments = path.split(".")
    if any(s == "" for s in segments):
        raise UserError(f"sweep path '{path}': empty key (keys are separated by single dots)")
    keys, words, node, i = [], [], doc, 0

    def here() -> str:
        return ".".join(words) if words else "the file's top level"

    def fail(message: str):
        raise UserError(f"sweep path '{path}': {message}")

    while i < len(segments):
        segment = segments[i]
        if isinstance(node, dict):
            # a key with dots in it (notre_dame.provenance's "payout_by_players.2") is matched whole
            match = next((j for j in range(len(segments), i, -1) if ".".join(segments[i:j]) in node), None)
            if match is not None:
                key = ".".join(segments[i:match])
                keys.append(key)
                words.append(key)
                node, i = node[key], match
                continue
            folded = [k for k in node if isinstance(k, str) and k.lower() == segment.lower()]
            if len(folded) == 1:
                keys.append(folded[0])
                words.append(folded[0])
                node, i = node[folded[0]], i + 1
                continue
            if rules is not None and len(keys) == 0 and segment == rules.name:
                keys.append(segment)          # the file leaves its rule switches out: their defaults
                words.append(segment)
                node, i = {}, i + 1
                continue
            if rules is not None and keys == [rules.name] and segment in rules.defaults:
                keys.append(segment)          # a switch the file leaves out: its default
                words.append(segment)
                node, i = copy.deepcopy(rules.defaults[segment]), i + 1
                continue
            through = [(key, found) for key, value in node.items() if isinstance(value, list)
                       for found in [_find_item(value, segment, by_index=False)] if found is not None]
            if len(through) == 1:             # step through the object's one list that has the item
                key, (index, word) = through[0]
                keys += [key, index]
                words += [key, word]
                node, i = node[key][index], i + 1
                continue
            known = list(node)
            if rules is not None and keys == [rules.name]:
                known += [k for k in rules.defaults if k not in node]
            fail(f"no key '{segment}' in {here()} (keys: {_listed(known)})")
        elif isinstance(node, list):
            found = _find_item(node, segment)
            if found is None:
                ambiguous = _matching(node, segment)
                if len(ambiguous) > 1:
                    fail(f"{len(ambiguous)} items of {here()} are named '{segment}': "
                         f"give an index 0..{len(node) - 1}")
                names = _item_names(node)
                fail(f"no item '{segment}' in {here()} (items: "
                     + (f"{_listed(names)} or " if names else "") + f"an index 0..{len(node) - 1})")
            index, word = found
            keys.append(index)
            words.append(word)
            node, i = node[index], i + 1
        else:
            fail(f"{here()} is {json_type(node)} ({compact(node)}), not an object or a list")
    return tuple(keys), ".".join(words), node


def _matching(items: list, segment: str, fold: bool = False) -> list[int]:
    def same(value) -> bool:
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            return False
        return str(value).lower() == segment.lower() if fold else str(value) == segment
    return [i for i, item in enumerate(items)
            if isinstance(item, dict) and any(same(item.get(k)) for k in ITEM_KEYS)]


def _find_item(items: list, segment: str, by_index: bool = True) -> tuple[int, str] | None:
    """(index, canonical word) of the item `segment` names: its id/name/kind/effect, exactly and
    then case-insensitively, or (by_index) its index; None if it names none or several."""
    exact = _matching(items, segment)
    if len(exact) == 1:
        return exact[0], _item_word(items, exact[0])
    if exact:
        return None
    if by_index and segment.isdigit() and int(segment) < len(items) and not (len(segment) > 1 and segment[0] == "0"):
        return int(segment), _item_word(items, int(segment))
    folded = _matching(items, segment, fold=True)
    if len(folded) == 1:
        return folded[0], _item_word(items, folded[0])
    return None


def _item_word(items: list, index: int) -> str:
    """An item's name in a canonical path: the first of its id/name/kind/effect that names it
    alone in the list, else its index."""
    item = items[index]
    if isinstance(item, dict):
        for key in ITEM_KEYS:
            value = item.get(key)
            if isinstance(value, str) and "." not in value and not value.isdigit() \
                    and sum(isinstance(o, dict) and o.get(key) == value for o in items) == 1 \
                    and _matching(items, value) == [index]:
                return value
    return str(index)


def _item_names(items: list) -> list[str]:
    """Every item's name, or none when some item has no name of its own (then only indexes do)."""
    names = [_item_word(items, index) for index in range(len(items))]
    return [] if any(name == str(index) for index, name in enumerate(names)) else names


def _listed(names: list) -> str:
    names = [str(n) for n in names]
    more = len(names) - LISTED
    return ", ".join(names[:LISTED]) + (f", ... ({more} more)" if more > 0 else "") if names else "none"


def assign(doc: Any, keys: tuple, value: Any, rules: RuleSection | None = None) -> None:
    """Sets doc at keys to value (in place); a rule section or switch the file leaves out is
    created from the loader's defaults on the way."""
    node = doc
    for depth, key in enumerate(keys[:-1]):
        if isinstance(node, dict) and key not in node:
            if rules is not None and depth == 0 and key == rules.name:
                node[key] = {}
            elif rules is not None and depth == 1 and keys[0] == rules.name:
                node[key] = copy.deepcopy(rules.defaults[key])
        node = node[key]
    node[keys[-1]] = value


def parse_params(texts: Iterable[str], doc: Any, rules: RuleSection | None = None) -> list[Param]:
    """Every --param, resolved in doc and with its values parsed and type-checked."""
    texts = list(texts)
    if not texts:
        raise UserError("no sweep parameter: give at least one --param PATH=V1,V2,...")
    params = []
    for text in texts:
        path, pieces = split_param(text)
        keys, canonical, current = resolve(doc, path, rules)
        values = []
        for piece in pieces:
            value = parse_value(piece, f"{canonical}={piece}")
            if value is not None and current is not None and json_type(value) != json_type(current):
                raise UserError(f"sweep parameter {canonical}={piece}: {canonical} holds {json_type(current)} "
                                f"({_short(current)}), not {json_type(value)}")
            if any(compact(value) == compact(v) for v in values):
                raise UserError(f"sweep parameter {canonical}: value {piece} is given twice")
            values.append(value)
        for other in params:
            shorter = min(len(other.keys), len(keys))
            if other.keys[:shorter] == keys[:shorter]:
                raise UserError(f"sweep parameters {other.canonical} and {canonical} address the same value"
                                if other.keys == keys else
                                f"sweep parameters {other.canonical} and {canonical} overlap (one holds the other)")
        params.append(Param(text, path, keys, canonical, tuple(values), copy.deepcopy(current)))
    return params


def _short(value) -> str:
    text = compact(value)
    return text if len(text) <= 40 else text[:37] + "..."


def grid(params: list[Param]) -> list[Variant]:
    """The product of the parameters' values, the first varying slowest (baseline() says which
    variant the others are compared with)."""
    combos = list(itertools.product(*(p.values for p in params)))
    width = max(2, len(str(len(combos) - 1)))
    variants = []
    for index, values in enumerate(combos):
        label = ", ".join(f"{p.canonical}={compact(v)}" for p, v in zip(params, values))
        slug = "_".join(f"{p.canonical}={_slug_value(v)}" for p, v in zip(params, values))
        slug = SLUG_UNSAFE.sub("-", slug)[:MAX_SLUG].strip("-")
        variants.append(Variant(index, tuple(values), label, f"{index:0{width}d}-{slug}"))
    return variants


def baseline(params: list[Param]) -> int:
    """The index in grid(params) of the baseline: every parameter at its baseline value."""
    index = 0
    for p in params:
        index = index * len(p.values) + p.baseline_index()
    return index


def baseline_reasons(params: list[Param], held_by: str = "the shipped value") -> list[str]:
    """Why each parameter's baseline value is the one it is, one phrase per parameter:
    'tiles.D.count=4: the shipped value', or 'rules.START_PLAYER=1: the first value given, the
    shipped value 0 is not among them'. held_by names where the held value comes from."""
    reasons = []
    for p in params:
        value = compact(p.values[p.baseline_index()])
        if any(same_value(v, p.held) for v in p.values):
            reasons.append(f"{p.canonical}={value}: {held_by}")
        else:
            reasons.append(f"{p.canonical}={value}: the first value given, {held_by} {_short(p.held)} "
                           "is not among them")
    return reasons


def _slug_value(value) -> str:
    return SLUG_UNSAFE.sub("-", compact(value)).strip("-") or "-"


# ---- planning ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SweepPlan:
    plan: runner.Plan            # the plan of the data file swept (checks the arguments once)
    settings: dict               # runner.plan's arguments but data: the same for every variant
    params: list[Param]
    variants: list[Variant]
    base_doc: Any
    base_path: str
    rules: RuleSection
    out: str
    held_by: str = "the shipped value"    # where the values the baseline looks for come from

    @property
    def baseline(self) -> Variant:
        return self.variants[baseline(self.params)]

    def baseline_note(self) -> str:
        """'baseline: variant 1, tiles.D.count=4: the shipped value' (reasons joined by '; ')."""
        return f"baseline: variant {self.baseline.index}, " + "; ".join(baseline_reasons(self.params, self.held_by))

    def data_path(self, v: Variant) -> str:
        return os.path.join(self.out, v.stem + ".json")

    def results_path(self, v: Variant) -> str:
        return os.path.join(self.out, v.stem + ".parquet")


def plan(game: str, params: Iterable[str], players: int | None = None, games: int = runner.DEFAULT_GAMES,
         seed: int = 0, policies: Iterable[str] | None = None, rotate_seats: bool = False,
         workers: int | None = None, data: str | None = None, out: str | None = None) -> SweepPlan:
    """Checks the arguments (runner.plan's checks), resolves every parameter in the data file and
    builds the grid. Nothing is written yet; a value the game's loader rejects is found by prepare()."""
    params = list(params)
    policies = None if policies is None else list(policies)
    settings = {"game": game, "players": players, "games": games, "seed": seed, "policies": policies,
                "rotate_seats": rotate_seats, "workers": workers}
    base = runner.plan(**settings, data=data)
    base_path = getattr(base.data, "path", None)
    if not isinstance(base_path, str) or not os.path.isfile(base_path):
        raise UserError(f"{base.spec.id} has no component data file to sweep")
    base_doc = read_json(base_path, "data file")
    # where the rule switches live is read from the shipped file: a user's file may leave them out
    shipped_path = getattr(base.spec.load_data(None), "path", None) if data else None
    shipped_doc = read_json(shipped_path, "data file") if shipped_path else base_doc
    rules = rule_section(base.spec, shipped_doc)
    swept = parse_params(params, base_doc, rules)
    held_by = f"the value in {os.path.basename(base_path)}" if data else "the shipped value"
    return SweepPlan(base, settings, swept, grid(swept), base_doc, base_path, rules, out or f"sweep-{base.spec.id}",
                     held_by)


def variant_doc(sp: SweepPlan, v: Variant) -> Any:
    """The baseline document with the variant's values, its data id naming the variant."""
    doc = copy.deepcopy(sp.base_doc)
    for p, value in zip(sp.params, v.values):
        assign(doc, p.keys, copy.deepcopy(value), sp.rules)
    base_id = sp.plan.spec.data_id(sp.plan.data)
    id_key = next((k for k, value in sp.base_doc.items() if k.endswith("_id") and value == base_id), None) \
        if isinstance(sp.base_doc, dict) else None
    if id_key is not None and all(p.keys[0] != id_key for p in sp.params):
        doc[id_key] = f"{base_id} + {v.label}"
    return doc


def held_results(out: str) -> list[str]:
    """The names of a sweep's results in the folder out: variants' results files (NN-*.parquet)
    and the summary files."""
    if not os.path.isdir(out):
        return []
    return sorted(name for name in os.listdir(out) if name in SUMMARY_FILES or VARIANT_RESULTS.fullmatch(name))


def check_folder(sp: SweepPlan, force: bool = False, resume: bool = False) -> None:
    """A sweep never replaces results silently: a UserError if the output folder already holds a
    sweep's results, unless force (replace them) or resume (continue them: then every results
    file there must be one of this sweep's variants)."""
    if force and resume:
        raise UserError("give --resume (continue the sweep) or --force (replace it), not both")
    held = held_results(sp.out)
    if not held or force:
        return
    variants = [name for name in held if name not in SUMMARY_FILES]
    if resume:
        ours = {os.path.basename(sp.results_path(v)) for v in sp.variants}
        others = [name for name in variants if name not in ours]
        if others:
            raise UserError(f"cannot resume the sweep in {sp.out}: it holds results of other variants "
                            f"({_listed(others)}): give --force to replace them")
        return
    games = [results.games_in(os.path.join(sp.out, name)) for name in variants]
    what = [f"{len(variants)} variant results file{'s' if len(variants) != 1 else ''}"
            + (f" ({sum(games):,} games)" if None not in games else "")] if variants else []
    what += [name for name in held if name in SUMMARY_FILES]
    raise UserError(f"output folder {sp.out} already holds a sweep ({', '.join(what)}): give --resume to "
                    "continue it or --force to replace it")


def _remove_held(sp: SweepPlan, keep: set[str]) -> None:
    """--force: removes the sweep the folder held (its results, their data files and the
    summaries), so no result of it stays beside the new ones; keep: paths not to touch."""
    for name in held_results(sp.out):
        path = os.path.join(sp.out, name)
        targets = [path] if name in SUMMARY_FILES else [path, os.path.splitext(path)[0] + ".json"]
        for target in targets:
            if os.path.abspath(target) in keep or not os.path.exists(target):
                continue
            try:
                results.remove(target)
            except OSError as e:
                raise UserError(f"output folder {sp.out}: cannot replace {os.path.basename(target)} "
                                f"({e.strerror or e})") from e


def prepare(sp: SweepPlan, force: bool = False, resume: bool = False) -> list[runner.Plan]:
    """Checks the output folder (check_folder), creates it, writes every variant's data file and
    plans the variant on it (runner.plan with the sweep's own arguments, so the game's loader
    validates the file): one plan per variant, alike but for the data. A value the loader rejects
    is a UserError naming the variant; then the data files written here are removed again.
    force: once every variant is planned, the sweep the folder held is removed."""
    check_folder(sp, force, resume)
    created = _make_folder(sp.out)
    written, plans = [], []
    try:
        for v in sp.variants:
            results.check_output(sp.results_path(v))
        for v in sp.variants:
            path = sp.data_path(v)
            try:
                with open(path, "w", encoding="utf-8") as fh:
                    json.dump(variant_doc(sp, v), fh, indent=2, ensure_ascii=False)
                    fh.write("\n")
            except OSError as e:
                raise UserError(f"output folder {sp.out}: cannot write {path} ({e.strerror or e})") from e
            written.append(path)
            try:
                plans.append(runner.plan(**sp.settings, data=path))
            except UserError as e:
                raise UserError(f"variant {v.index} ({v.label}): {e}") from e
    except UserError:
        for path in written:
            os.remove(path)
        if created and not os.listdir(sp.out):
            os.rmdir(sp.out)
        raise
    if force:
        _remove_held(sp, {os.path.abspath(path) for path in written + [sp.base_path]})
    return plans


def _make_folder(out: str) -> bool:
    if os.path.isdir(out):
        if not os.access(out, os.W_OK):
            raise UserError(f"output folder {out}: cannot write there")
        return False
    if os.path.exists(out):
        raise UserError(f"output folder {out} is a file, not a folder")
    try:
        os.makedirs(out)
    except OSError as e:
        raise UserError(f"output folder {out}: cannot create it ({e.strerror or e})") from e
    return True


# ---- running ----------------------------------------------------------------------------

class Interrupted(runner.Interrupted):
    """Ctrl-C or SIGTERM (signum) during variant `variant`: its file holds games 0..games-1,
    earlier variants are whole."""

    def __init__(self, out: str | None, games: int, variant: Variant, signum: int = signal.SIGINT):
        super().__init__(out, games, signum)
        self.variant = variant


@dataclass(frozen=True)
class Outcome:
    sweep: SweepPlan
    table: pd.DataFrame                  # summary(): one row per variant x seat (x policy)
    games_per_second: list               # per variant

    def as_json(self) -> dict:
        return to_json(self.sweep, self.table, self.games_per_second)


def run(sp: SweepPlan, progress: Callable[[str], None] | None = None, force: bool = False,
        resume: bool = False) -> Outcome:
    """Plays every variant (games 0..N-1 under the same seed and policies, with the variant's
    data), writes its results, then the summary files; progress(line) after each variant.
    An output folder that holds a sweep's results is a UserError (check_folder) unless force
    (they are replaced) or resume: a variant whose results file holds games 0..k-1 of its plan
    keeps them and plays only the rest (runner.run's resume), a complete one plays nothing."""
    speeds = []
    for v, p in zip(sp.variants, prepare(sp, force, resume)):
        path = sp.results_path(v)
        try:
            outcome = runner.run(p, out=path, resume=resume)
        except runner.Interrupted as stop:
            raise Interrupted(stop.out, stop.games, v, stop.signal) from stop
        speeds.append(outcome.games_per_second)
        if progress:
            speed = stats.speed_text(outcome.games_per_second)
            kept = f" ({outcome.start:,} kept from the file)" if outcome.start else ""
            progress(f"[{v.index + 1}/{len(sp.variants)}] variant {v.index}, {v.label}: {outcome.games:,} games{kept}, "
                     f"{speed} -> {path}")
    table = summary(sp)
    write_summaries(sp, table, speeds)
    return Outcome(sp, table, speeds)


# ---- summarising ------------------------------------------------------------------------

def summary(sp: SweepPlan) -> pd.DataFrame:
    return summarise([sp.results_path(v) for v in sp.variants], sp.params, sp.variants, sp.baseline.index)


def summarise(paths: list[str], params: list[Param] | None = None,
              variants: list[Variant] | None = None, baseline: int = 0) -> pd.DataFrame:
    """The sweep's table from its results files (read chunk by chunk, all files in step): per
    variant and (seat, policy) — and per policy over all seats (seat "all") when there are
    several — games, win rate (Wilson interval), win share and mean score (t intervals), mean
    points per category, and the paired differences to the baseline, paths[baseline]
    (Student-t intervals of the per-game differences, paired by game index and seat)."""
    sums: list[dict] = [{} for _ in paths]      # per file: (seat, policy) -> the column sums
    categories: list[str] = []
    for chunks in _in_step(paths):
        base = chunks[baseline]
        categories = [c for c in base.columns if c.startswith("pts_")]
        measured = ["win_share", "score"] + categories
        codes, names = pd.factorize(base["policy"])
        seats = base["seat"].to_numpy(np.int64)
        cells = seats * len(names) + codes              # (seat, policy) of every row
        keys = [(seat, str(name)) for seat in range(int(seats.max()) + 1) for name in names]
        for k, frame in enumerate(chunks):
            if k != baseline and not all(np.array_equal(frame[c].to_numpy(), base[c].to_numpy())
                                         for c in ("game_index", "seat", "policy")):
                raise UserError(f"results file {paths[k]} does not hold the games of {paths[baseline]} in the same order")
            values = {"n": np.ones(len(frame)), "win": frame["win"].to_numpy(np.float64)}
            for c in measured:
                x = frame[c].to_numpy(np.float64)
                d = x - base[c].to_numpy(np.float64)
                values.update({c: x, c + "_sq": x * x, "d_" + c: d, "d_" + c + "_sq": d * d})
            totals = np.stack([np.bincount(cells, weights=v, minlength=len(keys)) for v in values.values()], axis=1)
            for key, total in zip(keys, totals):
                if total[0]:                              # a (seat, policy) that played in this chunk
                    sums[k][key] = sums[k][key] + total if key in sums[k] else total
    if not sums[0]:
        raise UserError("no games to summarise")
    sums = [pd.DataFrame([s[key] for key in sorted(s)], index=pd.MultiIndex.from_tuples(sorted(s)),
                         columns=list(values)) for s in sums]
    several = len({policy for s in sums for policy in s.index.get_level_values(1)}) > 1
    rows = []
    for k, s in enumerate(sums):
        groups = [(str(seat), policy, row) for (seat, policy), row in s.iterrows()]
        if several:
            groups += [("all", policy, row) for policy, row in s.groupby(level=1).sum().iterrows()]
        for seat, policy, row in groups:
            rows.append(_row(k, seat, policy, row, categories, params, variants, paths[k], k == baseline))
    return pd.DataFrame(rows)


_SUMMARISED = ("game_index", "seat", "policy", "win", "win_share", "score")


def _in_step(paths: list[str]) -> Iterator[list[pd.DataFrame]]:
    """The files' rows side by side, chunk by chunk: lists of one frame per file, all of the same
    length, however each file is chunked (a resumed variant's parts need not match the others').
    Only the columns summarise needs are kept, so many variants' chunks held at once stay small;
    a file that ends before the others is a UserError."""
    def chunks(path):
        for frame in results.read_chunks(path):
            if not frame.empty:
                yield frame[[c for c in frame.columns if c in _SUMMARISED or c.startswith("pts_")]]

    readers = [chunks(path) for path in paths]
    held = [next(reader, None) for reader in readers]
    while any(frame is not None for frame in held):
        if any(frame is None for frame in held):
            ended = [k for k, frame in enumerate(held) if frame is None]
            # the file that ended early, or one that goes on when the first file ended
            short = ended[0] if ended[0] != 0 else next(k for k, frame in enumerate(held) if frame is not None)
            raise UserError(f"results file {paths[short]} does not hold the games of {paths[0]} in the same order")
        rows = min(len(frame) for frame in held)
        yield [frame.iloc[:rows] for frame in held]
        held = [frame.iloc[rows:] if len(frame) > rows else next(reader, None) for frame, reader in zip(held, readers)]


def _row(k, seat, policy, row, categories, params, variants, path, is_baseline) -> dict:
    n = row["n"]
    out: dict[str, Any] = {"variant": k, "baseline": is_baseline}
    if variants is not None:
        out["label"] = variants[k].label
        for p, value in zip(params, variants[k].values):
            out[p.canonical] = compact(value)
    out.update({"seat": seat, "policy": policy, "games": int(n)})
    win_lo, win_hi = stats.wilson_interval(row["win"], n)
    out.update({"win_rate": row["win"] / n, "win_lo": float(win_lo), "win_hi": float(win_hi)})
    for c, name in [("win_share", "win_share"), ("score", "mean_score")]:
        lo, hi = stats.mean_interval(row[c], row[c + "_sq"], n)
        out.update({name: row[c] / n, f"{name}_lo": float(lo), f"{name}_hi": float(hi)})
    for c in categories:
        out[c] = row[c] / n
    for c, name in [("win_share", "d_win_share"), ("score", "d_score")] + [(c, "d_" + c) for c in categories]:
        lo, hi = stats.mean_interval(row["d_" + c], row["d_" + c + "_sq"], n)
        out.update({name: row["d_" + c] / n, f"{name}_lo": float(lo), f"{name}_hi": float(hi)})
    out["results"] = os.path.basename(path)
    return out


def to_json(sp: SweepPlan, table: pd.DataFrame, speeds: list | None = None) -> dict:
    p = sp.plan
    return {
        "game": p.spec.id, "players": p.players, "games": p.games, "seed": p.seed,
        "policies": list(p.policies), "rotate_seats": p.rotate_seats, "data": sp.base_path, "out": sp.out,
        "params": [{"path": q.path, "canonical": q.canonical, "values": list(q.values), "held": q.held,
                    "baseline_value": q.values[q.baseline_index()], "baseline_reason": reason}
                   for q, reason in zip(sp.params, baseline_reasons(sp.params, sp.held_by))],
        "baseline": {"variant": sp.baseline.index, "label": sp.baseline.label, "note": sp.baseline_note()},
        "variants": [{"variant": v.index, "label": v.label, "baseline": v.index == sp.baseline.index,
                      "values": {q.canonical: value for q, value in zip(sp.params, v.values)},
                      "data": os.path.basename(sp.data_path(v)), "results": os.path.basename(sp.results_path(v)),
                      "games_per_second": stats.json_number(speeds[v.index]) if speeds else None}
                     for v in sp.variants],
        "rows": [{k: stats.json_number(x) if isinstance(x, float) else x for k, x in r.items()}
                 for r in table.to_dict("records")],
    }


# ---- the summary as text ----------------------------------------------------------------

def fmt_pm(mean, lo, hi, scale: float = 1.0, digits: int = 2, sign: bool = False) -> str:
    """'41.23 ± 0.52': a t interval is symmetric, so its half width says it all."""
    if mean is None or not np.isfinite(mean):
        return "n/a"
    number = f"{scale * mean:{'+' if sign else ''}.{digits}f}"
    if lo is None or not np.isfinite(lo):
        return number
    return f"{number} ± {scale * (hi - lo) / 2:.{digits}f}"


def baseline_of(table: pd.DataFrame) -> int:
    """The baseline variant of a summary table (its `baseline` column; variant 0 in a table without one)."""
    if "baseline" not in table.columns:
        return 0
    return int(table.loc[table["baseline"].astype(bool), "variant"].iloc[0])


def outcome_rows(table: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """The outcome table as text: variant, seat, (policy), win share and mean score with their
    intervals, and their paired differences to the baseline."""
    several = table["policy"].nunique() > 1 or (table["seat"] == "all").any()
    header = ["var", "seat"] + (["policy"] if several else []) + \
             ["win share %", "Δ share pp", "mean score", "Δ score"]
    rows = []
    first = baseline_of(table)
    for _, r in table.iterrows():
        base = r["variant"] == first
        rows.append([str(r["variant"]), r["seat"]] + ([r["policy"]] if several else []) + [
            fmt_pm(r["win_share"], r["win_share_lo"], r["win_share_hi"], 100, 1),
            "baseline" if base else fmt_pm(r["d_win_share"], r["d_win_share_lo"], r["d_win_share_hi"], 100, 1, True),
            fmt_pm(r["mean_score"], r["mean_score_lo"], r["mean_score_hi"]),
            "baseline" if base else fmt_pm(r["d_score"], r["d_score_lo"], r["d_score_hi"], sign=True),
        ])
    return header, rows


def points_rows(table: pd.DataFrame, deltas_only: bool = False) -> tuple[list[str], list[list[str]]]:
    """Mean points per category: one row per (seat, (policy,) category), one column per variant,
    the baseline's first; every other variant shows its mean and paired difference to the baseline
    ("5.41 (+0.05 ± 0.12)"), or only the difference when deltas_only (narrow enough for a terminal)."""
    categories = [c for c in table.columns if c.startswith("pts_")]
    several = table["policy"].nunique() > 1 or (table["seat"] == "all").any()
    first = baseline_of(table)
    variants = [first] + [k for k in sorted(table["variant"].unique()) if k != first]
    header = ["seat"] + (["policy"] if several else []) + ["category", f"v{variants[0]}"] + \
             [f"Δ v{k}" if deltas_only else f"v{k}" for k in variants[1:]]
    by_group = {k: g.set_index(["seat", "policy"]) for k, g in table.groupby("variant")}
    rows = []
    for (seat, policy) in by_group[variants[0]].index:
        for c in categories:
            cells = [f"{by_group[variants[0]].loc[(seat, policy)][c]:.2f}"]
            for k in variants[1:]:
                r = by_group[k].loc[(seat, policy)]
                delta = fmt_pm(r["d_" + c], r["d_" + c + "_lo"], r["d_" + c + "_hi"], sign=True)
                cells.append(delta if deltas_only else f"{r[c]:.2f} ({delta})")
            rows.append([seat] + ([policy] if several else []) + [c.removeprefix("pts_")] + cells)
    return header, rows


def markdown(sp: SweepPlan, table: pd.DataFrame) -> str:
    p = sp.plan
    swept = "; ".join(q.canonical + "=" + ",".join(map(compact, q.values)) for q in sp.params)
    lines = [f"# Sweep: {p.spec.id}, {p.players} players, {p.games:,} games, seed {p.seed}", "",
             (f"Policies: {', '.join(p.policies)}{' (seats rotate)' if p.rotate_seats else ''}. "
             f"Data: {sp.base_path}. Parameters: {swept}."),
             "", (f"Every variant plays the same games (common random numbers); Δ is the difference to the "
             f"baseline, variant {sp.baseline.index}, paired by game index, ± the half width of its 95% interval."),
             "", sp.baseline_note().replace("baseline", "Baseline", 1) + ".", ""]
    lines += [f"- variant {v.index}: {v.label}{' (baseline)' if v.index == sp.baseline.index else ''} "
              f"(`{v.stem}.parquet`, data `{v.stem}.json`)" for v in sp.variants]
    for title, (header, rows) in [("Win share and score", outcome_rows(table)),
                                  ("Mean points per category", points_rows(table))]:
        lines += ["", f"## {title}", "", "| " + " | ".join(header) + " |",
                  "|" + "|".join("---" if h in TEXT_COLUMNS else "---:" for h in header) + "|"]
        lines += ["| " + " | ".join(str(x).replace("|", "\\|") for x in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def write_summaries(sp: SweepPlan, table: pd.DataFrame, speeds: list | None = None) -> None:
    try:
        table.to_csv(os.path.join(sp.out, "summary.csv"), index=False)
        with open(os.path.join(sp.out, "summary.md"), "w", encoding="utf-8") as fh:
            fh.write(markdown(sp, table))
        with open(os.path.join(sp.out, "sweep.json"), "w", encoding="utf-8") as fh:
            json.dump(to_json(sp, table, speeds), fh, indent=1, ensure_ascii=False)
            fh.write("\n")
    except OSError as e:
        raise UserError(f"output folder {sp.out}: cannot write the summary ({e.strerror or e})") from e
