"""simcore's games as PettingZoo AEC environments:

    from simcore.interop.pettingzoo import env
    e = env("carcassonne", players=2, seed=0)
    e.reset()
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        e.step(None if termination or truncation else e.action_space(agent).sample(mask))

Agents are "player_0" .. "player_{P-1}", seat s being "player_s". The agent to act is the seat
the game asks (a seat may act several times running, e.g. Carcassonne's placement then its
follower). Each agent observes
{"observation": float32[tensor size], "action_mask": int8[N]}: the seat's observation tensor of
the step API (what the seat may know, the game's view.py) and which of the game's N actions are
legal for it now (all zeros for an agent not to act). The action space is Discrete(N), the
game's fixed action space; an illegal action raises ValueError naming the legal ones.

Rewards are 0 until the game is over; the last step gives every agent its win share (1/k for
each of the k seats that rank first, as simulate's `win_share` column: a game's tie-break
decides among equal scores first), terminates every agent, and puts each seat's final score
and win share in its info ({"score", "win_share"}). No truncation: every game ends.

Games: reset(seed=S) starts game 0 of seed S; every reset without a seed starts the next game
of the current seed (game 1, 2, ...); the first reset without any seed plays game 0 of the
seed given to env(). Game i of seed S is the game `simcore simulate` plays as game i of seed S.
"""
from __future__ import annotations

import importlib

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from simcore import runner, step
from simcore.interop.outcome import win_shares

RENDER_MODES = ("human", "ansi")


def env(game: str, players: int | None = None, seed: int = 0, render_mode: str | None = None) -> AECEnv:
    """The AEC environment of `game` for `players` seats (default the game's usual count),
    games of `seed`; wrapped in PettingZoo's OrderEnforcingWrapper (reset before step)."""
    return wrappers.OrderEnforcingWrapper(SimcoreEnv(game, players=players, seed=seed, render_mode=render_mode))


class SimcoreEnv(AECEnv):
    """One simcore game and player count as an AEC environment (see the module's docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "simcore", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, seed: int = 0, render_mode: str | None = None):
        super().__init__()
        plan = runner.plan(game, players=players, games=1, seed=seed, workers=1)   # UserError on bad input
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        view = importlib.import_module(plan.spec.package + ".view")
        self.game_id, self.players, self.seed = plan.spec.id, plan.players, plan.seed
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name="simcore_" + self.game_id.replace("-", "_") + "_v0")
        self.num_actions = view.num_distinct_actions(plan.data, self.players)
        size = view.tensor_size(plan.data, self.players)
        self.possible_agents = [f"player_{s}" for s in range(self.players)]
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.num_actions,), dtype=np.int8),
        }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents}
        self.next_index = 0             # the game index the next reset without a seed plays
        self.game: step.Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: game 0 of `seed` if given, else the next game of the current seed."""
        if seed is not None:
            self.seed, self.next_index = seed, 0
        self.game = step.open_game(self.game_id, players=self.players, seed=self.seed, index=self.next_index)
        self.next_index += 1
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player()]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if self.game.current_player() == seat:
            mask[self.game.legal_actions()] = 1
        return {"observation": self.game.observation_tensor(seat), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.apply_action(int(action))          # ValueError if illegal
        self._cumulative_rewards[agent] = 0.0
        if self.game.is_terminal():
            shares = win_shares(self.game)
            scores = self.game.returns()
            self.rewards = {a: shares[s] for s, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: {"score": scores[s], "win_share": shares[s]} for s, a in enumerate(self.possible_agents)}
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.game.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game, whose turn it is and the VP so far: returned ("ansi") or printed ("human")."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: env(..., render_mode='ansi' or 'human')")
            return None
        if self.game is None:
            text = f"simcore {self.game_id}, {self.players} players: not started (reset first)"
        else:
            vp = ", ".join(f"{a} {v:g}" for a, v in zip(self.possible_agents, self.game.returns()))
            text = f"{self.game!r}\nVP: {vp}"
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release: a game is a record in memory."""
