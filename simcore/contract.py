"""The game contract: what a game gives simcore and what simcore guarantees on top of it.

Everything outside a game package (the runner, the results, the statistics, the report, the sweep,
the CLI) knows a game only through its GameSpec and the arrays it returns; the compiled shared code
(simcore/search.py, simcore/turns.py) knows it only through its state record's fields. This module
says both, the way OpenSpiel's spiel.h does for its games: the data classes, the signature and the
promise of every function a spec holds (as typing.Protocols), the modules every game package has
and the record fields the shared code reads. tests/test_game_contract.py checks every registered
game against it. It imports no game and no other simcore module, so games and the registry
import it without a cycle.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np


class UserError(Exception):
    """A mistake in what the user asked for (bad game, player count, data file, ...).

    The CLI prints its message as one line and exits with status 2."""


@dataclass(frozen=True)
class BatchResult:
    """What a game's batch kernel returns for `count` consecutive games.

    pts:  int32[count, players, len(categories)], points per seat and score category
    game: int32[count, len(game_columns)], game-level counters (turns, discards, ...)
    seat: int32[count, players, len(seat_columns)], per-seat counters (outbreaks, ...), or None
    tiebreak: int32[count, players], ranks seats of equal score (higher first), or None (ties share)
    """
    pts: np.ndarray
    game: np.ndarray
    seat: np.ndarray | None = None
    tiebreak: np.ndarray | None = None


@dataclass(frozen=True)
class CheckResult:
    """What a game's invariant checker found in `count` consecutive games (GameSpec.check_batch).

    violation: int32[count], 0 for a clean game, else the code of its first broken invariant
               (GameSpec.violations names each code)
    step: int32[count], where it broke: the turn, round or year (GameSpec.check_step) it was found in
    """
    violation: np.ndarray
    step: np.ndarray


@dataclass(frozen=True)
class Param:
    """A policy parameter as users give it (`greedy:cities=2`, `mcts:iters=400`): its key, type
    (int, float, or str for one of choices), default, range and a line of help."""
    key: str
    kind: type
    default: Any
    low: float | None = None
    high: float | None = None
    help: str = ""
    choices: tuple[str, ...] = ()

    def parse(self, policy: str, text: str):
        """The value of `text` for this parameter of policy, or a UserError saying what is wrong."""
        if self.kind is str:
            if text not in self.choices:
                raise UserError(f"policy {policy}: {self.key} must be one of {', '.join(self.choices)}, not '{text}'")
            return text
        try:
            value = self.kind(text)
        except ValueError:
            raise UserError(f"policy {policy}: {self.key} must be {'an integer' if self.kind is int else 'a number'}, "
                            f"not '{text}'") from None
        if not self.low <= value <= self.high:
            raise UserError(f"policy {policy}: {self.key} must be between {self.low:g} and {self.high:g}, not {text}")
        return value

    def described(self, default=None) -> dict:
        """What `simcore games --json` says of it (default: the game's own, where it differs)."""
        out = {"default": self.default if default is None else default, "type": self.kind.__name__,
               "range": None if self.kind is str else [self.low, self.high], "help": self.help}
        if self.kind is str:
            out["choices"] = list(self.choices)
        return out


@dataclass(frozen=True)
class Decision:
    """An open decision of a stepped game (simcore/step.py): who decides, where, among what."""
    seat: int          # the seat to decide
    point: int         # the decision point (the game's DP_*, as the search's tree keys it)
    context: int       # decide()'s ctx at this decision (0 where the game passes none)
    options: tuple     # the legal option values, st.opts[:st.n_opts] at the decision, in order


@dataclass(frozen=True)
class Stepper:
    """A game's part of the step API (simcore/step.py): its state records with the search's
    fields, its tables, and the kernel that runs driver.step for them. The game's view module
    (PACKAGE_MODULES' "view": ViewModule) names and shows what the kernel stops at."""
    new_state: Any     # () -> a record array of one state, the search's fields included
    tables: Any        # (data, players, policy_table) -> a record array of one tables record
    kernel: Any        # (ws, tables, players, policies, seed, index, command, out) -> int (driver.step)


# ---------------------------------------------------------------- what a spec's functions do

class LoadData(Protocol):
    def __call__(self, path: str | None) -> Any:
        """The validated component data of the file at path (the game's shipped file when None).
        A bad file raises UserError naming the file, the item and the broken constraint."""


class PlayBatch(Protocol):
    def __call__(self, data: Any, players: int, seat_policies: np.ndarray, seed: int, first_index: int,
                 search: np.ndarray | None = None) -> BatchResult:
        """Games first_index .. first_index + count - 1; seat_policies is int8[count, players], row k
        for game first_index + k. Game first_index + k depends only on (seed, first_index + k,
        seat_policies[k], data, search): never on the batch, the chunk, the thread or the other
        games. Ids 0 and 1 are the game's own policies (random, greedy), 2..9 the run's search
        policies, 10..17 its variants of random and greedy (a label, greedy's weights: the row's
        P_KIND names the own policy); every id's parameters are its row of search, the run's
        policy table (players.Lineup.table; simcore/search.py lays it out)."""


class Replay(Protocol):
    def __call__(self, data: Any, players: int, seat_policies: np.ndarray, seed: int, index: int,
                 lineup: Any = None, state: Any = None) -> list:
        """The move log of game `index` in words, then its final score breakdown: the same game as
        play_batch plays (seat_policies: int8[players]; lineup: players.Lineup); state: the game's
        final state with its move log, played already (a game with Python agents: simcore/agents.py)."""


class Draw(Protocol):
    def __call__(self, data: Any, players: int, seat_policies: np.ndarray, seed: int, index: int, path: str,
                 halt_at: int = 0, lineup: Any = None) -> bool:
        """A PNG of game `index` at path: its final state, or the game stopped after halt_at units
        of GameSpec.picture_step. True if it stopped there, False if it ended first."""


class CheckBatch(Protocol):
    def __call__(self, data: Any, players: int, seat_policies: np.ndarray, seed: int, first_index: int,
                 search: np.ndarray | None = None) -> CheckResult:
        """The games of play_batch, played with the engine's invariant checker on after every step."""


@dataclass(frozen=True)
class GameSpec:
    """One game as simcore knows it (docs/architecture.md, The game contract)."""
    id: str                             # what users type: carcassonne, notre-dame, ...
    name: str
    min_players: int
    max_players: int
    default_players: int
    policies: dict[str, int]            # the game's own players: name -> integer id inside kernels
    categories: tuple[str, ...]         # score categories; results columns pts_<category>; a score is their sum
    game_columns: tuple[str, ...]       # game-level integer columns of the results
    load_data: LoadData
    play_batch: PlayBatch
    replay: Replay
    provenance: Any                     # provenance(data) -> {component: "rulebook" | "sourced" | "reconstructed" | a tally}
    data_id: Any                        # data_id(data) -> the component data's short id, a results column
    notes: tuple[str, ...] = field(default=())
    # greedy's weights, each the factor (or amount) of one thing its heuristic values
    # (`greedy:cities=2`; the game's policies.WEIGHTS, in the order its kernels read them)
    greedy_weights: tuple[Param, ...] = ()
    searchable: bool = False            # the search policies (flatmc, mcts; simcore/players.py) play it
    # the game's own defaults of the search policies' parameters: {"mcts": {"rollout": "greedy"}}
    search_defaults: dict = field(default_factory=dict)
    seat_columns: tuple[str, ...] = ()  # per-seat integer columns of the results
    draw: Draw | None = None            # None for a game without pictures
    picture_step: str = "turn"          # the unit of draw's halt_at: "turn" or "round"
    check_batch: CheckBatch | None = None
    violations: dict = field(default_factory=dict)   # {code: what broke} for check_batch's codes
    check_step: str = "round"           # the unit of CheckResult.step: "turn", "round" or "year"
    # seconds the first run takes to compile the game's kernels on a 2-core machine
    # (benchmarks/startup.py); the progress bar says so while they compile
    compile_seconds: int = 60
    # the game's package (simcore.boardgames.<game>), with the modules of PACKAGE_MODULES;
    # "" for a game outside simcore's layout (the tests' toy game)
    package: str = ""
    # the game's part of the step API (simcore/step.py); None for a game that cannot be stepped
    stepper: Stepper | None = None


# ---------------------------------------------------------------- what a game package holds

# Every game package (simcore/boardgames/<game>/) has these modules (docs/architecture.md, Layout).
PACKAGE_MODULES = ("components", "state", "rules", "scoring", "policies", "playout", "describe", "draw", "view", "spec")


@runtime_checkable
class StateModule(Protocol):
    """state.py: the game's records."""
    MAX_PLAYERS: int                    # seats of the record's per-seat arrays
    STATE: np.dtype                     # one game in play, the search's fields included

    def new_state(self, n: int = 1) -> np.ndarray:
        """n state records of STATE, ready for the game's reset."""


@runtime_checkable
class PlayoutModule(Protocol):
    """playout.py: one whole game and the batch kernels (compiled)."""

    def play_game(self, st, tt, players, policies, seed, index) -> None:
        """Play game `index` of `seed` in the record st from its start to its end, final scoring
        included; with a search seat (a policy id >= search.FIRST_SEARCH_ID) by the search's
        replays. The result lies in st's points."""

    def play_batch_kernel(self, ws, tables, players, seat_policies, seed, first_index, out_pts, out_seat,
                          out_game, out_tiebreak, checking, out_check) -> None:
        """Games first_index .. of a batch with no search seat (driver.play_batch), written into
        the output arrays, row k for game first_index + k: BatchResult's pts, seat, game and
        tiebreak, and out_check[k] = (first broken invariant, its round) when checking is 1.
        Compiles none of the search's code."""

    def search_batch_kernel(self, ws, tables, players, seat_policies, seed, first_index, out_pts, out_seat,
                            out_game, out_tiebreak, checking, out_check) -> None:
        """play_batch_kernel for a batch with a search seat (driver.play_search_batch)."""

    def step_kernel(self, ws, tables, players, policies, seed, index, command, out) -> int:
        """One command of the step API on the game in ws[0] (driver.step): begin it, run it to its
        next decision of two or more options or its end, a search seat's choice there, or the
        tie-breaks after the end."""


@runtime_checkable
class ViewModule(Protocol):
    """view.py: the game as one seat sees it, and its moves in words (simcore/step.py). st is a
    record of the game's play fields at the decision (search.view_of); decision a Decision, or
    None once the game is over."""
    DECISIONS: dict                     # decision point -> its name in the game's words

    def num_distinct_actions(self, data, players) -> int:
        """The size of the game's action space for this data and player count."""

    def action_id(self, data, players, decision, value) -> int:
        """Option value `value` of the decision as an action in [0, num_distinct_actions): distinct
        for distinct options of one decision, a function of the decision's point and context only."""

    def action_to_string(self, data, players, st, decision, value) -> str:
        """The move in words, as the game's replay words it."""

    def observation(self, data, players, st, seat, decision) -> dict:
        """JSON-serialisable: all the rules let seat know here (public and its own hidden), no more."""

    def tensor_size(self, data, players) -> int:
        """The length of observation_tensor for this data and player count."""

    def observation_tensor(self, data, players, st, seat, decision):
        """observation as np.float32[tensor_size], the same hiding."""


# The state record's fields the compiled shared code reads by name, besides the search's own
# (search.search_fields): the seat count, each seat's policy id, the two random streams, the
# open decision's options (the search lists them there), stopping after a turn or round
# (pictures of a game in progress, the search's depth cut-off), and what the driver records of
# a game: its VP, points by category, per-seat and game counters and the invariant checker's
# first violation (simcore/driver.py, turns.record_game).
DRIVER_FIELDS = ("players", "policy", "gen_chance", "gen_decide", "opts", "n_opts", "logging", "halt_at", "halted",
                 "vp", "pts", "seat_count", "game_count", "checking", "violation", "violation_round")
