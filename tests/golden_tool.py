"""tools/regen_golden.py as a module, for the golden-playthrough tests of every game."""
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_generator():
    if "regen_golden" in sys.modules:
        return sys.modules["regen_golden"]
    spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "tools" / "regen_golden.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module        # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


regen = load_generator()
