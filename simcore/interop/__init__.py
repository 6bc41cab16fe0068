"""simcore's games in other frameworks' harnesses: OpenSpiel (simcore.interop.openspiel) and
PettingZoo (simcore.interop.pettingzoo). Each module imports its framework, which simcore itself
never does: install the extra (pip install "simcore[openspiel]" or "simcore[pettingzoo]") and
import the module you need. Both play games through the step API (simcore.open_game)."""
