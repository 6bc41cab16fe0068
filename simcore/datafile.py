"""Reading component data files (JSON) the same way for every game: one-line UserErrors for a
file that is missing or not JSON, a JSON Schema check of its shape before the game's own
constraints run, one way to write a provenance tally, and one way to read and encode a file's
rule switches."""
import json
from functools import cache
from importlib import resources

import jsonschema
import numpy as np

from simcore.contract import UserError

PROVENANCES = ("rulebook", "sourced", "reconstructed")


def shipped_path(package: str, name: str) -> str:
    """The data file `name` shipped in the game package's data/ folder."""
    return str(resources.files(package) / "data" / name)


def read_json(path: str, what: str):
    """The parsed document at path; `what` names the file in errors ("tile file", ...)."""
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        raise UserError(f"cannot read {what} {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"{what} {path} is not valid JSON: {json_error(exc)}") from None


def json_error(exc: json.JSONDecodeError) -> str:
    """'Expecting value at line 3, column 9'; json's own messages may end in "at" already
    ("Unterminated string starting at"), which must not read "starting at at line"."""
    where = f"line {exc.lineno}, column {exc.colno}"
    return f"{exc.msg} {where}" if exc.msg.endswith(" at") else f"{exc.msg} at {where}"


@cache
def schema_validator(package: str, name: str) -> jsonschema.protocols.Validator:
    """The validator of the JSON Schema `name` shipped in the game package's data/ folder."""
    with open(shipped_path(package, name), encoding="utf-8") as fh:
        schema = json.load(fh)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def validate(doc, validator: jsonschema.protocols.Validator, path: str, what: str) -> None:
    """Checks a parsed data file against its JSON Schema (the jsonschema library): a missing key,
    a value of the wrong type, a number out of range or a list of the wrong length anywhere is
    one UserError naming the file, the item's path (keys and list indexes joined by dots) and
    what was expected. A valid document's whole floats (2.0) become ints."""
    error = jsonschema.exceptions.best_match(validator.iter_errors(doc))
    if error is not None:
        item = ".".join(str(part) for part in error.absolute_path) or "the top level"
        raise UserError(f"{what} {path}: {item}: {schema_message(error)}")
    whole_numbers_as_int(doc)


def whole_numbers_as_int(doc) -> None:
    """JSON Schema counts 2.0 as an integer; the loaders index tables with such values, so a
    whole float becomes an int (in place) once the document is valid."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in list(items):
        if isinstance(value, float) and value.is_integer():
            doc[key] = int(value)
        else:
            whole_numbers_as_int(value)


def schema_message(error: jsonschema.ValidationError) -> str:
    """jsonschema's message in one line; a list of the wrong length is quoted short, with its
    length and the one expected (jsonschema quotes the whole list)."""
    value = error.instance
    if error.validator in ("minItems", "maxItems") and isinstance(value, list) and len(repr(value)) > 60:
        bound = "at least" if error.validator == "minItems" else "at most"
        return (f"{repr(value)[:57]}... is too {'short' if bound == 'at least' else 'long'} "
                f"({len(value)} items, expected {bound} {error.validator_value})")
    message = " ".join(error.message.split())
    return message if len(message) <= 160 else message[:157] + "..."


def describe_tally(tally: dict[str, int]) -> str:
    """{'sourced': 40, 'reconstructed': 32} -> 'reconstructed 32, sourced 40'; one kind -> its name."""
    if len(tally) == 1:
        return next(iter(tally))
    return ", ".join(f"{value} {n}" for value, n in sorted(tally.items()))


def is_whole(value) -> bool:
    """An int that is not a bool (JSON true is not a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_whole_in(value, low, high) -> bool:
    return is_whole(value) and low <= value <= high


def read_rule_switches(given, defaults: dict, bad, choices: dict | None = None, ranges: dict | None = None,
                       section: str = "rules") -> dict:
    """A data file's "rules" object over the game's defaults, every value checked: a name of
    `choices`, a whole number in `ranges` (or null where the default is null, "no limit"), true or
    false where the default is a bool, else a string. bad(item, message) raises the UserError;
    `section` is the object's name in the file, the prefix of the error items."""
    choices, ranges = choices or {}, ranges or {}
    if not isinstance(given, dict):
        bad(section, "must be an object of rule switches")
    rules = dict(defaults)
    for name, value in given.items():
        item = f"{section}.{name}"
        if name not in defaults:
            bad(item, f"unknown rule switch (known: {', '.join(defaults)})")
        default = defaults[name]
        if name in choices:
            if value not in choices[name]:
                bad(item, f"must be one of {', '.join(choices[name])}")
        elif name in ranges:
            low, high = ranges[name]
            if not (value is None and default is None) and not is_whole_in(value, low, high):
                bad(item, ("must be null (no limit) or a whole number" if default is None
                           else "must be a whole number") + f" {low}..{high}")
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                bad(item, "must be true or false")
        elif not isinstance(value, str):
            bad(item, "must be a string")
        rules[name] = value
    return rules


def rule_values(rules: dict, defaults: dict, choices: dict | None = None, none=-1, convert=None):
    """The switches as the kernels read them: int32 in the order of `defaults`, a choice as its
    index, null as `none`, and convert[name](value) where a game maps a value itself."""
    choices, convert = choices or {}, convert or {}
    values = np.zeros(len(defaults), dtype=np.int32)
    for i, name in enumerate(defaults):
        value = rules[name]
        if name in convert:
            value = convert[name](value)
        elif name in choices:
            value = choices[name].index(value)
        elif value is None:
            value = none
        values[i] = int(value)
    return values
