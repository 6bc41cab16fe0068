"""Stepping a game from Python, one decision at a time: the step API (docs/step.md).

    g = simcore.open_game("notre-dame", players=4, seed=1, index=0)
    while not g.is_terminal():
        g.apply_action(g.policy_action())
    g.returns()

A stepped game is the game's own compiled loop, run from the last turn (round) boundary it passed
to its next decision of two or more options, where it stops and keeps its state (driver.step,
search.open_decision); applying an action appends it to the game's history and runs on again,
replaying only the turn in progress. So taking the seat's policy's choice at every decision
plays exactly the game `simulate` plays for the same seed, index and policies, search players
included. What a seat sees and how moves are named is the game's view module (view.py).

Chance is inside the game (tiles, cards and dice come from the game's own stream), so
current_player() is never a chance node: a decision or the end.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import os

import numpy as np

from simcore import results, runner
from simcore.contract import BatchResult, Decision, UserError
from simcore.driver import ADVANCE, BEGIN, SEARCH_HERE, TIEBREAKS
from simcore.search import MAX_HIST, NO_OWN, view_of


def open_game(game: str, players: int | None = None, seed: int = 0, index: int = 0, data: str | None = None,
              policies=None) -> "Game":
    """Game `index` of `seed` of `game` for `players` seats, at its first decision. data: a
    component data file (None: the game's own); policies: one policy name for every seat or one
    per seat, as --policy takes them (default random): what policy_action() plays."""
    if isinstance(policies, str):
        policies = [policies]
    for name, value in (("seed", seed), ("game index", index)):
        if not isinstance(value, (int, np.integer)) or not 0 <= value <= runner.MAX_SEED:
            raise UserError(f"{name} must be an integer between 0 and {runner.MAX_SEED}, not {value!r}")
    stamp = os.stat(data).st_mtime_ns if data is not None and os.path.isfile(data) else None
    plan = dataclasses.replace(_plan(game, players, None if policies is None else tuple(policies), data, stamp),
                               seed=int(seed))
    if plan.spec.stepper is None:
        raise UserError(f"{plan.spec.id} cannot be stepped")
    return Game(plan, int(index))


_LINEUPS = {}


def _lineup(plan):
    """The kernels' ids and policy table of a plan's policies, built once per game and policies."""
    key = (plan.spec.id, plan.policies)
    if key not in _LINEUPS:
        _LINEUPS[key] = plan.lineup
    return _LINEUPS[key]


@functools.lru_cache(maxsize=64)
def _plan(game, players, policies, data, data_stamp):
    """The checked game, players, policies and loaded data of open_game, kept: an agent's harness
    opens thousands of games of one set-up (data_stamp: the data file's time, so an edited file
    loads again)."""
    return runner.plan(game, players=players, games=1, policies=policies, data=data, workers=1)


class Game:
    """One game in play (open_game). Actions are integers in a fixed space of the game and player
    count (num_distinct_actions), each decision's options named by the game's view module."""

    def __init__(self, plan, index: int, seat_names=None, logging: bool = True):
        """Game index of the runner's plan, its seats playing seat_names (default plan.policies);
        logging: keep the game's move log, as play_logged does (replay reads it, and a view may:
        Strasbourg's who-passed-this-sub-phase is only in the log)."""
        self.plan = plan
        self.spec, self.data, self.players, self.seed, self.index = plan.spec, plan.data, plan.players, plan.seed, index
        self.view_module = importlib.import_module(self.spec.package + ".view")
        self.lineup = _lineup(plan)
        stepper = self.spec.stepper
        self._kernel = stepper.kernel
        self._state = stepper.new_state()
        self._tables = stepper.tables(self.data, self.players, self.lineup.table)
        self._seats = self.lineup.ids(seat_names or plan.policies)
        self._row = np.zeros(self._state[0].policy.shape[0], dtype=np.int8)
        self._row[:self.players] = self._seats
        self._out = np.zeros(self._row.shape[0], dtype=np.int32)
        self._logging = int(logging)
        self._run(BEGIN)
        self._advance()

    # ---------------------------------------------------------------- the kernel

    def _run(self, command: int) -> int:
        return int(self._kernel(self._state[0], self._tables[0], self.players, self._row, np.int64(self.seed),
                                np.int64(self.index), command, self._out))

    def _advance(self) -> None:
        """On to the next decision (or the end): the decision, its state and the policy's choice."""
        self._state["logging"] = self._logging       # (a search's runs turn it off)
        stopped = self._run(ADVANCE)
        st = self._state[0]
        self._view = view_of(st)
        if stopped:
            view = self._view
            options = tuple(view["opts"][:view["n_opts"]].tolist())
            self._decision = Decision(seat=int(st["s_root_seat"]), point=int(st["s_root_dp"]),
                                      context=int(st["s_open_ctx"]), options=options)
            own = int(st["s_step_own"])
            self._own = None if own == NO_OWN else own
            ids = [self.view_module.action_id(self.data, self.players, self._decision, v) for v in options]
            self._by_action = dict(zip(ids, options))
            self._legal = sorted(self._by_action)
        else:
            self._decision = None
            self._own = None
            self._by_action = {}
            self._legal = []

    # ---------------------------------------------------------------- the game as OpenSpiel asks it

    def current_player(self) -> int:
        """The seat to decide, -1 once the game is over."""
        return -1 if self._decision is None else self._decision.seat

    def is_terminal(self) -> bool:
        return self._decision is None

    def legal_actions(self) -> list[int]:
        """The open decision's options as actions, ascending; [] once the game is over."""
        return list(self._legal)

    def num_distinct_actions(self) -> int:
        return self.view_module.num_distinct_actions(self.data, self.players)

    def decision(self) -> Decision | None:
        """The open decision: seat, point, context and option values (None once over)."""
        return self._decision

    def decision_point(self) -> str:
        """The open decision's name in the game's words ("placement", "draft", ...); "" once over."""
        return "" if self._decision is None else self.view_module.DECISIONS[self._decision.point]

    def action_to_string(self, action: int) -> str:
        """A legal action of the open decision in words, as replay writes the move."""
        return self.view_module.action_to_string(self.data, self.players, self._view, self._decision,
                                                 self._value(action))

    def observation(self, seat: int) -> dict:
        """All that seat may know now (public information and its own hidden), JSON-serialisable."""
        return self.view_module.observation(self.data, self.players, self._view, self._seat(seat), self._decision)

    def observation_string(self, seat: int) -> str:
        return json.dumps(self.observation(seat), sort_keys=True)

    def observation_tensor(self, seat: int) -> np.ndarray:
        """observation(seat) as np.float32[observation_tensor_size()]."""
        return self.view_module.observation_tensor(self.data, self.players, self._view, self._seat(seat),
                                                   self._decision)

    def observation_tensor_size(self) -> int:
        return self.view_module.tensor_size(self.data, self.players)

    def apply_action(self, action: int) -> None:
        """Take a legal action of the open decision; an illegal one raises ValueError naming the legal ones."""
        value = self._value(action)
        n = int(self._state["s_n_hist"][0])
        if n >= MAX_HIST:
            raise ValueError(f"a game takes at most {MAX_HIST} decisions")
        self._state["s_hist"][0, n] = value
        self._state["s_n_hist"][0] = n + 1
        self._advance()

    def policy_action(self) -> int:
        """What the open decision's seat's policy takes here (a search player searches; asked again,
        the same action)."""
        if self._decision is None:
            raise ValueError("the game is over: no decision to take")
        if self._own is None:
            self._own = self._run(SEARCH_HERE)
        return self.view_module.action_id(self.data, self.players, self._decision, self._own)

    def returns(self) -> list[float]:
        """Each seat's final score (VP) once the game is over; the scores so far before."""
        return [float(x) for x in self._view.vp[:self.players]]

    def result(self) -> list[dict]:
        """Once over, the results rows of this game, one per seat, with the columns simulate writes."""
        batch = BatchResult(*(column[None] for column in self.outcome()))
        frame = results.chunk_frame(self.spec, self.spec.data_id(self.data), self.players, self.seed, self.index,
                                    self._seats[None], batch, self.lineup.names)
        return frame.to_dict("records")

    def outcome(self) -> tuple:
        """Once over, what a batch kernel writes of the game: points per seat and category, game
        counters, seat counters, tie-breaks (BatchResult's fields for one game)."""
        if self._decision is not None:
            raise ValueError("the game is not over")
        self._run(TIEBREAKS)
        st = self._view
        n = self.players
        return (np.array(st["pts"][:n, :len(self.spec.categories)], dtype=np.int32),
                np.array(st["game_count"][:len(self.spec.game_columns)], dtype=np.int32),
                np.array(st["seat_count"][:n, :len(self.spec.seat_columns)], dtype=np.int32),
                self._out[:n].copy())

    def final_state(self):
        """The game's state record at its end (its play fields; the move log kept if logging)."""
        if self._decision is not None:
            raise ValueError("the game is not over")
        return self._view

    def clone(self) -> "Game":
        """An independent copy: what is done to one does not change the other."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._state = self._state.copy()
        other._out = self._out.copy()
        other._view = self._view.copy()
        return other

    def view(self, seat: int) -> "SeatView":
        """What the agent in `seat` gets: its observation, the legal actions, their names."""
        return SeatView(self, self._seat(seat))

    # ---------------------------------------------------------------- helpers

    def _value(self, action) -> int:
        if self._decision is None:
            raise ValueError("the game is over: no action is legal")
        try:
            return self._by_action[int(action)]
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"action {action!r} is not legal at this {self.decision_point()} decision of seat "
                             f"{self._decision.seat}; legal: {self._legal}") from None

    def _seat(self, seat) -> int:
        if not 0 <= int(seat) < self.players:
            raise ValueError(f"seat must be between 0 and {self.players - 1}, not {seat}")
        return int(seat)

    def __repr__(self):
        where = "over" if self._decision is None else f"seat {self._decision.seat} at {self.decision_point()}"
        return f"<simcore game {self.spec.id}, {self.players} players, seed {self.seed}, game {self.index}: {where}>"


class SeatView:
    """One seat's view of a game: what a Python agent gets (docs/step.md). It reads the game as
    the seat may know it and changes nothing."""

    def __init__(self, game: Game, seat: int):
        self._game = game
        self.seat = seat
        self.game_id = game.spec.id
        self.players = game.players

    def legal_actions(self) -> list[int]:
        return self._game.legal_actions() if self._game.current_player() == self.seat else []

    def observation(self) -> dict:
        return self._game.observation(self.seat)

    def observation_tensor(self) -> np.ndarray:
        return self._game.observation_tensor(self.seat)

    def action_to_string(self, action: int) -> str:
        return self._game.action_to_string(action)

    def decision_point(self) -> str:
        return self._game.decision_point()

    def num_distinct_actions(self) -> int:
        return self._game.num_distinct_actions()
