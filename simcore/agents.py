"""Python agents at the table: `--policy py:MODULE:FACTORY` (docs/step.md).

FACTORY(game_id, players, seat, seed) returns the agent of one seat in one game: a callable that
gets the seat's view (step.SeatView: its legal actions, observation, the actions' names) at each
of the seat's decisions and returns one of the legal actions. The seed is agent_seed(run seed,
game index, seat), so a run is reproducible. A game with an agent is played through the step API
(simcore/step.py), the other seats by their policies as simulate plays them; since an agent is
Python, such games run in worker processes (the GIL), chunk by chunk, and a game's result does
not depend on the chunk or the worker.
"""
from __future__ import annotations

import functools
import importlib
import multiprocessing
import re
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from simcore.contract import BatchResult, UserError

DEFINITION = re.compile(r"py:([A-Za-z_][\w.]*):([A-Za-z_]\w*)")


def parse(definition: str) -> dict:
    """{"module", "factory"} of `py:MODULE:FACTORY`; a UserError when it is not of that form."""
    match = DEFINITION.fullmatch(definition)
    if not match:
        raise UserError(f"Python agent '{definition}': write py:MODULE:FACTORY (an importable module and a "
                        f"function in it)")
    return {"module": match[1], "factory": match[2]}


@functools.lru_cache(maxsize=None)
def factory(definition: str):
    """The FACTORY of `py:MODULE:FACTORY`, imported; a UserError naming what is missing."""
    part = parse(definition)
    try:
        module = importlib.import_module(part["module"])
    except ImportError as e:
        raise UserError(f"Python agent {definition}: cannot import {part['module']} ({e}); is its folder on "
                        f"PYTHONPATH?") from None
    make = getattr(module, part["factory"], None)
    if not callable(make):
        raise UserError(f"Python agent {definition}: {part['module']} has no function {part['factory']}")
    return make


def agent_seed(seed: int, index: int, seat: int) -> int:
    """The seed an agent gets for seat `seat` of game `index` of a run under `seed`."""
    return int(np.random.SeedSequence([seed, index, seat]).generate_state(1, np.uint64)[0] >> np.uint64(1))


def definition_of(name: str) -> str | None:
    """`py:MODULE:FACTORY` of a (canonical) seat policy name, or None for a built-in policy."""
    definition = name.partition("=")[2] if "=" in name.partition(":")[0] else name
    return definition if definition.startswith("py:") else None


def has_agents(policies) -> bool:
    return any(definition_of(name) for name in policies)


def play_game(p, index: int, seat_names, label: str | None = None, logging: bool = False):
    """Game `index` of the plan p with these seat policy names (a rotation of p.policies): every
    agent asked at its seat's decisions, the other seats' policies taking theirs. Returns the
    finished step.Game."""
    from simcore.step import Game
    game = Game(p, index, seat_names=seat_names, logging=logging)
    agents = {}
    for seat, name in enumerate(seat_names):
        definition = definition_of(name)
        if definition:
            agents[seat] = (name, factory(definition)(p.spec.id, p.players, seat, agent_seed(p.seed, index, seat)))
    decision = 0
    while not game.is_terminal():
        seat = game.current_player()
        if seat in agents:
            name, agent = agents[seat]
            game.apply_action(ask(agent, name, game, seat, index, decision))
        else:
            game.apply_action(game.policy_action())
        decision += 1
    return game


def ask(agent, name: str, game, seat: int, index: int, decision: int) -> int:
    """The agent's action at this decision; a UserError naming the agent, the game and the
    decision when it raises or returns an action that is not legal."""
    where = f"Python agent {name} (seat {seat}) in game {index}, decision {decision} ({game.decision_point()})"
    try:
        action = agent(game.view(seat))
    except Exception as e:  # noqa: BLE001 (any failure of user code is reported as the user's)
        raise UserError(f"{where} raised {type(e).__name__}: {e}") from None
    legal = game.legal_actions()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) or int(action) not in legal:
        raise UserError(f"{where} returned {action!r}, not one of its {len(legal)} legal actions")
    return int(action)


def play_batch(p, seats: np.ndarray, first: int) -> BatchResult:
    """The games first.. of p with seat policy ids seats (int8[count, players]) in this process."""
    names = p.lineup.keys
    rows = [play_game(p, first + k, [names[i] for i in seats[k]]).outcome() for k in range(len(seats))]
    return BatchResult(*(np.stack(column) for column in zip(*rows)))


# ---------------------------------------------------------------- worker processes

@functools.lru_cache(maxsize=8)
def _plan(game, players, data, seed, policies, rotate):
    from simcore import runner
    return runner.plan(game, players=players, games=1, seed=seed, policies=policies, rotate_seats=rotate,
                       workers=1, data=data, chunk_size=1)


def play_chunk_in_process(game, players, data, seed, policies, rotate, seats, first) -> BatchResult:
    """A worker process's task: play_batch of the plan these arguments give."""
    return play_batch(_plan(game, players, data, seed, tuple(policies), rotate), seats, first)


@functools.lru_cache(maxsize=None)
def process_pool(workers: int) -> ProcessPoolExecutor:
    """The worker processes of this Python process's runs with agents, kept for its later runs of
    as many workers (a new process loads Python and the kernels again: seconds). "spawn": a forked
    copy of a process with threads may hang."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
