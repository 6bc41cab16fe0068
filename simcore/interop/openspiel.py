"""simcore's games as OpenSpiel games: importing this module registers every game with pyspiel
as simcore_<id> (simcore_carcassonne, simcore_carcassonne_ark, simcore_notre_dame,
simcore_strasbourg, simcore_principato), so that

    import pyspiel
    import simcore.interop.openspiel            # registers the games
    game = pyspiel.load_game("simcore_strasbourg", {"players": 3, "seed": 7})

gives a game OpenSpiel's algorithms play (MCTSBot, random_sim_test, ...). Parameters: `players`
(default the game's usual count) and `seed` (default 0; OpenSpiel's parameters are 32-bit, so
at most 2**31 - 1).

What OpenSpiel sees:
- SEQUENTIAL, IMPERFECT_INFORMATION, SAMPLED_STOCHASTIC: chance (tiles, cards, dice) is inside
  the simcore game, drawn from the game's own random stream, so there are no chance nodes and
  current_player() is always a seat or TERMINAL. Each state the game object creates is a new
  game: the game object counts the states it hands out and the k-th (k = 0, 1, ...) plays
  simcore game index k of the seed, the game `simcore simulate` plays as game k. A state takes
  its number when it is first used (asked whose turn it is, its actions, ...), not when it is
  created: OpenSpiel's own clone() and its tensor-shape probe create initial states they never
  play (PyState::Clone, PyGame::ObservationTensorShape), which must not use up game numbers.
  Observing a state not yet played shows the start of the game it would take now.
  A clone keeps its original's game, so a search from a state plays on the same hidden future
  (the pile's order, the decks): the tree of a determinized game.
- Actions: the game's fixed action space (Game.num_distinct_actions, the game's view.py).
- Observations: observation_string(p) and observation_tensor(p) are simcore's
  Game.observation_string / observation_tensor: what seat p may know, as the game's view
  defines it. There is no information state (perfect recall).
- Rewards: TERMINAL, CONSTANT_SUM 1. returns() are 0 for every seat until the game is over,
  then each seat's win share: 1/k for each of the k seats that rank first, 0 for the others,
  exactly simulate's `win_share` column (a game's tie-break, where it has one, decides among
  equal scores first; seats still equal share the win). min_utility 0, max_utility 1.
- max_game_length is simcore's bound on the decisions of one game (search.MAX_HIST).
- Action strings: the replay's words for the move, with " [action N]" added where two legal
  actions read the same (two copies of a card): OpenSpiel wants one string per action.
- Serialization: state.serialize() and game.deserialize_state(text) work (a state is kept as
  its game, seed, game index and actions, and rebuilt by replaying them).
  pyspiel.serialize_game_and_state and pickling a state do not: for a SAMPLED_STOCHASTIC game
  OpenSpiel also saves the game's random generator (Game::GetRNGState), which pyspiel gives a
  Python game no way to provide. So run pyspiel.random_sim_test with serialize=False.
"""
from __future__ import annotations

import importlib
from collections import Counter

import numpy as np
import pyspiel

from simcore import registry, runner, step
from simcore.interop.outcome import win_shares
from simcore.search import MAX_HIST

PREFIX = "simcore_"


def short_name(game_id: str) -> str:
    """OpenSpiel's name of a simcore game: simcore_ and the id with "-" as "_"."""
    return PREFIX + game_id.replace("-", "_")


def game_type(spec) -> pyspiel.GameType:
    """The pyspiel.GameType of a simcore GameSpec."""
    return pyspiel.GameType(
        short_name=short_name(spec.id),
        long_name=f"simcore {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.default_players, "seed": 0})


def register() -> list[str]:
    """Registers every steppable simcore game with pyspiel (again: nothing, pyspiel refuses a
    name twice); returns their OpenSpiel names."""
    known = set(pyspiel.registered_names())
    names = []
    for game_id, spec in registry.games().items():
        if spec.stepper is None:
            continue
        gtype = game_type(spec)
        if gtype.short_name not in known:
            pyspiel.register_game(gtype, game_class(game_id, gtype))
        names.append(gtype.short_name)
    return names


def game_class(game_id: str, gtype: pyspiel.GameType) -> type:
    """SimcoreGame for one game, as the class pyspiel creates it by (cls(params)). A class, as
    OpenSpiel's own Python games register, not a closure: pyspiel keeps the creator until the
    process's very end, and a closure freed then, after Python has shut down, aborts it."""
    name = "Simcore" + "".join(part.title() for part in gtype.short_name[len(PREFIX):].split("_")) + "Game"
    return type(name, (SimcoreGame,), {"GAME_ID": game_id, "GAME_TYPE": gtype, "__module__": __name__})


class SimcoreGame(pyspiel.Game):
    """One simcore game and player count under one seed; its states are games 0, 1, 2, ... of
    that seed (see the module's docstring). Each game has its subclass (game_class)."""

    GAME_ID: str
    GAME_TYPE: pyspiel.GameType

    def __init__(self, params=None):
        params = dict(params or {})
        game_id = self.GAME_ID
        spec = registry.get(game_id)
        players = int(params.get("players", spec.default_players))
        seed = int(params.get("seed", 0))
        plan = runner.plan(game_id, players=players, games=1, seed=seed, workers=1)   # UserError on bad input
        view = importlib.import_module(spec.package + ".view")
        actions = view.num_distinct_actions(plan.data, players)
        info = pyspiel.GameInfo(num_distinct_actions=actions, max_chance_outcomes=0, num_players=players,
                                min_utility=0.0, max_utility=1.0, utility_sum=1.0, max_game_length=MAX_HIST)
        super().__init__(self.GAME_TYPE, info, {"players": players, "seed": seed})
        self.game_id, self.players, self.seed = game_id, players, seed
        self.tensor_size = view.tensor_size(plan.data, players)
        self.games_started = 0           # the game index the next state to be played takes
        self._peeked = None              # simcore game `games_started`, opened to observe an unplayed state

    def new_initial_state(self) -> "SimcoreState":
        return SimcoreState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "SimcoreObserver":
        return SimcoreObserver(self.tensor_size, iig_obs_type, params)

    # ---- game numbers

    def open(self, index: int) -> step.Game:
        return step.open_game(self.game_id, players=self.players, seed=self.seed, index=index)

    def start_next(self) -> step.Game:
        """The next game of the seed, for a state played for the first time."""
        game = self.peek()
        self._peeked = None
        self.games_started += 1
        return game

    def peek(self) -> step.Game:
        """The game the next state to be played will play, at its start (kept, not numbered)."""
        if self._peeked is None:
            self._peeked = self.open(self.games_started)
        return self._peeked


class _Play:
    """A state's simcore game, started when the state is first used (SimcoreGame.start_next);
    what OpenSpiel deep-copies (clone) and pickles (serialization) of a state."""

    def __init__(self, owner: SimcoreGame | None, game: step.Game | None = None, actions=()):
        self.owner = owner
        self._game = game
        self.actions = list(actions)      # the actions applied, for serialization
        self._returns = None
        self._words = None                # the open decision's actions in words (action_words)

    @property
    def started(self) -> bool:
        return self._game is not None

    @property
    def game(self) -> step.Game:
        if self._game is None:
            self._game = self.owner.start_next()
        return self._game

    def seen(self) -> step.Game:
        """The game to observe: an unplayed state's next game at its start, without numbering it
        (OpenSpiel probes its tensor's shape on fresh states it then drops)."""
        return self._game if self._game is not None else self.owner.peek()

    def apply(self, action: int) -> None:
        self.game.apply_action(action)
        self.actions.append(int(action))
        self._words = None

    def action_words(self) -> dict[int, str]:
        """The open decision's legal actions in words (the replay's), each told apart from the
        others where two read the same, "... [action 5]": OpenSpiel wants one string per action,
        and the views name two copies of a card, or two ways to the same end, alike."""
        if self._words is None:
            game = self.game
            words = {a: game.action_to_string(a) for a in game.legal_actions()}
            counts = Counter(words.values())
            self._words = {a: w if counts[w] == 1 else f"{w} [action {a}]" for a, w in words.items()}
        return self._words

    def returns(self) -> list[float]:
        game = self.game
        if not game.is_terminal():
            return [0.0] * game.players
        if self._returns is None:
            self._returns = win_shares(game)
        return list(self._returns)

    def __deepcopy__(self, memo) -> "_Play":
        return _Play(self.owner, self.game.clone(), self.actions)

    def __reduce__(self):
        game = self.game
        return _restore, (game.spec.id, game.players, game.seed, game.index, tuple(self.actions))


def _restore(game_id, players, seed, index, actions) -> _Play:
    """A pickled _Play: its game replayed from its start."""
    game = step.open_game(game_id, players=players, seed=seed, index=index)
    for action in actions:
        game.apply_action(action)
    return _Play(None, game, actions)


class SimcoreState(pyspiel.State):
    """A state of a SimcoreGame: one simcore game in play (step.Game) behind OpenSpiel's API."""

    def __init__(self, game: SimcoreGame):
        super().__init__(game)
        self._play = _Play(game)

    @property
    def simcore_game(self) -> step.Game:
        """The simcore game behind this state (step.Game): its decision, result(), replay, ..."""
        return self._play.game

    def current_player(self) -> int:
        player = self._play.game.current_player()
        return pyspiel.PlayerId.TERMINAL if player < 0 else player

    def _legal_actions(self, player) -> list[int]:
        return self._play.game.legal_actions()

    def _apply_action(self, action) -> None:
        self._play.apply(action)

    def _action_to_string(self, player, action) -> str:
        return self._play.action_words().get(action, f"action {action}")

    def is_terminal(self) -> bool:
        return self._play.game.is_terminal()

    def returns(self) -> list[float]:
        return self._play.returns()

    def __str__(self) -> str:
        """The game, its number and the actions taken: they fix the state."""
        game = self._play.game
        return f"{game!r}\nactions: {' '.join(map(str, self._play.actions))}"


class SimcoreObserver:
    """OpenSpiel's PyObserver of a simcore game: a seat's observation (Game.observation_tensor
    and observation_string). Only the default observation type: no perfect recall."""

    def __init__(self, size: int, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"simcore's observations take no parameters, not {params}")
        if iig_obs_type is not None and (iig_obs_type.perfect_recall or not iig_obs_type.public_info
                                         or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("simcore's games observe what one seat may know now (public information and the seat's "
                             "own): no perfect recall, no other observation type")
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SimcoreState, player: int) -> None:
        self.tensor[:] = state._play.seen().observation_tensor(player)

    def string_from(self, state: SimcoreState, player: int) -> str:
        return state._play.seen().observation_string(player)


register()
