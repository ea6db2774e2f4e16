"""Every furball engine as an OpenSpiel game, written once over the engine protocol::

    from furball.scenarios.rl.openspiel import register
    import pyspiel
    register()                                       # furball_canuck, furball_dogfight, ...
    game = pyspiel.load_game("furball_canuck(setup=free)")
    state = game.new_initial_state()                 # the next game of the series (rng_seed)
    state = game.new_initial_state(7)                # the game of `furball play canuck --seed 7`
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.engine.events                              # the engine's log of the last transition

**The game** (:class:`FurballGame`): one class for every engine, configured by the
engine's :class:`~.spec.EngineSpec`. Its type: sequential; chance *sampled stochastic*
(the engines draw inside ``apply`` from ``step_rng(seed, step)``: the seed is the hidden
chance, and ``resample_from_infostate`` re-deals what a seat cannot see, seed included,
so search never sees the future); information perfect or imperfect as the game is;
utility from the spec (Yorktown: identical, the dogfight between two seats: zero-sum,
solitaire and free-for-all: general-sum); rewards at the end only (``returns()`` is 0
for every seat until the game is over, then the engine's returns). Its info: one
distinct action per entry of the game's canonical action list (:mod:`.spec`; two legal
engine actions share an id where the game's codec says nothing a seat sees tells them
apart — White Christmas: copies of a card in hand), no chance
outcomes, the seats of the engine, the spec's utility bounds and longest game.

Parameters: the spec's own (e.g. ``players``, ``difficulty``, ``expansions``), and two of
every game — ``seed`` (-1: each new game takes the next seed of the series; a seed >= 0:
every new game is that seed's game) and ``rng_seed`` (the series: game ``k`` of a game
object is game ``k`` of ``furball play GAME --games N --seed rng_seed``, counted from
the first state used). ``game.new_initial_state(seed)`` starts one seed's game.

**A state** (:class:`FurballState`) holds the engine's immutable state and, per seat,
what that seat has seen of each action since the state's game began
(:attr:`~.spec.EngineSpec.seen`). ``information_state_string(p)``: those lines, then
the seat's ``observation_string``; ``observation_string(p)``: the engine's;
``observation_tensor(p)``: the spec's encoder. A state is cloned, serialised and
deserialised whole (the engine state is immutable and shared by clones).
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from functools import cached_property
from typing import Any

import numpy as np

from furball.errors import InputError
from furball.extras import require

from ..engine.runner import series_seeds
from .spec import SPECS, EngineSpec, Information, Utility, short_names

pyspiel = require("rl", "the OpenSpiel games", "pyspiel")

__all__ = ["FurballGame", "FurballState", "register", "load_game", "game_type", "COMMON_PARAMETERS"]

COMMON_PARAMETERS = {"seed": -1, "rng_seed": 0}
"""Parameters of every furball game (module docstring)."""

_UTILITY = {Utility.ZERO_SUM: pyspiel.GameType.Utility.ZERO_SUM,
            Utility.CONSTANT_SUM: pyspiel.GameType.Utility.CONSTANT_SUM,
            Utility.GENERAL_SUM: pyspiel.GameType.Utility.GENERAL_SUM,
            Utility.IDENTICAL: pyspiel.GameType.Utility.IDENTICAL}
_INFORMATION = {Information.PERFECT: pyspiel.GameType.Information.PERFECT_INFORMATION,
                Information.IMPERFECT: pyspiel.GameType.Information.IMPERFECT_INFORMATION}


def game_type(spec: EngineSpec, utility: Utility = Utility.GENERAL_SUM) -> Any:
    """The ``pyspiel.GameType`` of a game (``utility`` depends on its parameters), from
    the facts its engine's :class:`~furball.scenarios.engine.Game` declares."""
    game = spec.game()
    return pyspiel.GameType(
        short_name=spec.short_name, long_name=spec.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=_INFORMATION[game.information], utility=_UTILITY[utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players, min_num_players=game.min_players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={**spec.parameters, **COMMON_PARAMETERS})


class _Box:
    """An immutable value shared by clones: ``copy.deepcopy`` (OpenSpiel's clone) gives
    the box itself."""

    __slots__ = ("value", "__dict__")

    def __init__(self, value: Any):
        self.value = value

    def __deepcopy__(self, memo) -> _Box:
        return self

    def __reduce__(self):
        return _Box, (self.value,)


class _Engine(_Box):
    """An engine state, and its legal action ids once asked for."""

    codec: Any = None

    @cached_property
    def ids(self) -> list[int]:
        s = self.value
        return sorted({self.codec.encode(s, a) for a in s.legal_actions()})

    def __reduce__(self):
        return _engine_box, (self.codec, self.value)


def _engine_box(codec, value) -> _Engine:
    box = _Engine(value)
    box.codec = codec
    return box


class FurballGame(pyspiel.Game):
    """One furball engine as an OpenSpiel game (module docstring). ``short_name``: the
    spec's; ``params``: OpenSpiel parameters (the rest take their defaults). Raises
    :class:`InputError` for an unknown parameter or a bad value."""

    def __init__(self, short_name: str, params: Mapping[str, Any] | None = None, *, around: Any = None):
        spec = SPECS[short_name]
        given = dict(params or {})
        common = {k: given.pop(k, v) for k, v in COMMON_PARAMETERS.items()}
        for key, value in common.items():
            if isinstance(value, bool) or not isinstance(value, int) or value < -1:
                raise InputError(f"{short_name}: parameter {key}: expected an integer >= -1, got {value!r:.40}")
        own = spec.params(given)
        self.spec = spec
        self.around = around
        self.options = spec.options(own) if around is None else None
        probe = spec.game().new_game(0, **self.options) if around is None else around
        seats = len(probe.returns())
        facts = spec.game().game_info(probe)
        kind, low, high = facts.utility, facts.min_utility, facts.max_utility
        self.codec = spec.codec(own, probe)
        self.encoder = spec.encoder(own, probe)
        self.low, self.high = float(low), float(high)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size, max_chance_outcomes=0, num_players=seats,
            min_utility=self.low, max_utility=self.high,
            utility_sum=0.0 if kind == Utility.ZERO_SUM else None,
            max_game_length=int(facts.max_length))
        super().__init__(game_type(spec, kind), info, {**own, **common})
        self._fixed_seed = common["seed"]
        self._series = common["rng_seed"]
        self._started = 0

    # -- seeds -------------------------------------------------------------------------
    def next_seed(self) -> int:
        """The seed of the next new game: the ``seed`` parameter, or the next of the
        series started at ``rng_seed``."""
        if self._fixed_seed >= 0:
            return self._fixed_seed
        seed = series_seeds(self._series, 1, self._started)[0]
        self._started += 1
        return seed

    def first_state(self, seed: int | None) -> Any:
        """The engine's first state of a new game (of ``seed``, else :meth:`next_seed`);
        a game made :meth:`around_state` starts from its state."""
        if self.around is not None:
            return self.around
        return self.spec.game().new_game(self.next_seed() if seed is None else seed, **self.options)

    @classmethod
    def around_state(cls, short_name: str, engine_state: Any) -> FurballGame:
        """A game whose every new state is ``engine_state`` (what the search bots search
        from: the engine's options are already in the state; parameters are the
        defaults)."""
        return cls(short_name, around=engine_state)

    # -- states ------------------------------------------------------------------------
    def new_initial_state(self, seed: int | str | None = None) -> FurballState:
        """A new game: of ``seed`` (an integer, or its digits), else of :meth:`next_seed`
        (drawn when the state is first used)."""
        if isinstance(seed, str):
            if not seed.strip().isdigit():
                raise InputError(f"{self.spec.short_name}: seed: expected a whole number, got {seed[:40]!r}")
            seed = int(seed)
        return FurballState(self, seed)

    def state_from(self, engine_state: Any) -> FurballState:
        """An OpenSpiel state around an engine state of this game (nothing seen yet)."""
        state = FurballState(self)
        state._box = _engine_box(self.codec, engine_state)
        return state

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The seat's information state (``perfect_recall``: strings only) or its
        observation (string and tensor)."""
        if params:
            raise ValueError(f"{self.spec.short_name}: observers take no parameters, got {params}")
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(f"{self.spec.short_name}: only a seat's own observation or information state")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _InfoStateObserver() if recall else _Observer(self.encoder)

    def __reduce_ex__(self, protocol):
        """Pickled as its name and parameters (OpenSpiel's own pickling of a sampled-
        stochastic game asks for an RNG state a Python game cannot give)."""
        if self.around is not None:
            raise TypeError("a game made around a state (inside a search) is not pickled")
        return _unpickle_game, (self.spec.short_name, dict(self.get_parameters()))

    def engine_game(self):
        """The engine's :class:`~furball.scenarios.engine.Game` descriptor."""
        return self.spec.game()


class FurballState(pyspiel.State):
    """A position of a furball game in OpenSpiel (module docstring). ``engine``: the
    engine's immutable state (its ``events`` are the log of the last transition)."""

    def __init__(self, game: FurballGame, seed: int | None = None):
        super().__init__(game)
        self._wanted = seed
        self._box = None
        self._seen = None

    # -- the engine state ----------------------------------------------------------------
    @property
    def engine(self) -> Any:
        """The engine state (made on first use: a new game of the chosen seed)."""
        box = self._box
        if box is None:
            game = self.get_game()
            box = self._box = _engine_box(game.codec, game.first_state(self._wanted))
        return box.value

    def _engine_box(self) -> _Engine:
        if self._box is None:
            self.engine  # noqa: B018 - made on first use
        return self._box

    def __reduce_ex__(self, protocol):
        """Pickled as its game and ``serialize()`` (see :meth:`FurballGame.__reduce_ex__`)."""
        return _unpickle_state, (self.get_game(), self.serialize())

    def seen(self, player: int) -> tuple[str, ...]:
        """What ``player`` has seen of each action since this game began (one line each)."""
        if self._seen is None:
            return ()
        return self._seen.value[player]

    # -- OpenSpiel's state API -------------------------------------------------------------
    def current_player(self) -> int:
        seat = self.engine.current_player()
        return pyspiel.PlayerId.TERMINAL if seat is None else int(seat)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._engine_box().ids) if player == self.engine.current_player() else []

    def _apply_action(self, action: int) -> None:
        game = self.get_game()
        state = self.engine
        chosen = game.codec.decode(state, action)
        seats = game.num_players()
        lines = tuple(game.spec.seen(state, chosen, p) for p in range(seats))
        after = state.apply(chosen)
        before = self._seen.value if self._seen is not None else ((),) * seats
        self._seen = _Box(tuple(old if line is None else old + (line,) for old, line in zip(before, lines)))
        self._box = _engine_box(game.codec, after)

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.engine
        return state.describe(self.get_game().codec.decode(state, action))

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def returns(self) -> list[float]:
        """The engine's returns once the game is over; 0 for every seat before."""
        state = self.engine
        if not state.is_terminal():
            return [0.0] * self.get_game().num_players()
        return [float(r) for r in state.returns()]

    def __str__(self) -> str:
        return self.get_game().spec.full_text(self.engine)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> FurballState:
        """A state ``player_id`` cannot tell from this one, everything hidden from it
        re-dealt (the spec's ``resample``, seeded by one draw of ``probability_sampler``);
        every seat's past is what ``player_id`` saw of it."""
        draw = float(probability_sampler())
        return self.resample(player_id, np.random.default_rng(int(draw * 2**53)))

    def resample(self, player: int, rng: np.random.Generator) -> FurballState:
        """:meth:`resample_from_infostate` with a numpy generator."""
        game = self.get_game()
        resample = game.spec.resample
        world = self.engine if resample is None else resample(self.engine, player, rng)
        out = FurballState(game)
        out._box = _engine_box(game.codec, world)
        if self._seen is not None:
            mine = self._seen.value[player]
            out._seen = _Box(tuple(mine for _ in range(game.num_players())))
        return out


def _unpickle_game(short_name: str, params: dict) -> FurballGame:
    register((short_name,))
    return pyspiel.load_game(short_name, params)


def _unpickle_state(game: FurballGame, text: str) -> FurballState:
    return game.deserialize_state(text)


class _Observer:
    """A seat's observation: the engine's ``observation_string`` and the spec's array."""

    def __init__(self, encoder):
        self.encoder = encoder
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = encoder.views(self.tensor)

    def set_from(self, state: FurballState, player: int) -> None:
        self.encoder.write(state.engine, player, self.tensor)

    def string_from(self, state: FurballState, player: int) -> str:
        return state.engine.observation_string(player)


class _InfoStateObserver:
    """A seat's information state: what it saw of every action, then its observation."""

    tensor = None
    dict: dict = {}

    def set_from(self, state: FurballState, player: int) -> None:
        raise ValueError("furball games give the information state as a string only")

    def string_from(self, state: FurballState, player: int) -> str:
        return "\n".join((*state.seen(player), state.engine.observation_string(player)))


def register(names: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """Register the games named (default: every one) with OpenSpiel, once per process;
    returns their short names."""
    names = short_names() if names is None else tuple(names)
    known = set(pyspiel.registered_names())
    for name in names:
        if name not in known:
            pyspiel.register_game(game_type(SPECS[name]), game_class(name))
    return names


@functools.lru_cache(maxsize=16)
def game_class(short_name: str) -> type[FurballGame]:
    """The :class:`FurballGame` subclass OpenSpiel builds a game of ``short_name`` with
    (``cls(params)``). A class, not a function: OpenSpiel keeps the creator until the
    process ends, and a class outlives Python's shutdown where a plain function object
    would be freed without the interpreter (an abort at exit)."""

    def __init__(self, params=None):
        FurballGame.__init__(self, short_name, params)

    name = "".join(part.title() for part in short_name.split("_")) + "Game"
    return type(name, (FurballGame,), {"__init__": __init__, "__module__": __name__})


def load_game(name: str, **params: Any) -> FurballGame:
    """``pyspiel.load_game`` of a furball game (registered first): ``name`` is the short
    name (``furball_canuck``) or the engine's (``canuck``). Raises :class:`InputError`."""
    from .spec import spec as find

    found = find(name)
    found.params({k: v for k, v in params.items() if k not in COMMON_PARAMETERS})  # InputError, not SpielError
    register((found.short_name,))
    return pyspiel.load_game(found.short_name, params)

