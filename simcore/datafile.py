"""Reading component data files (JSON) the same way for every game: one-line UserErrors for a
file that is missing or not JSON, and one way to write a provenance tally."""
import json
from importlib import resources

from simcore.registry import UserError

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
        raise UserError(f"{what} {path} is not valid JSON: {exc.msg} at line {exc.lineno}") from None


def describe_tally(tally: dict[str, int]) -> str:
    """{'sourced': 40, 'reconstructed': 32} -> 'reconstructed 32, sourced 40'; one kind -> its name."""
    if len(tally) == 1:
        return next(iter(tally))
    return ", ".join(f"{value} {n}" for value, n in sorted(tally.items()))
