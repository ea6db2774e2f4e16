"""What the OpenSpiel and PettingZoo adapters need to know of one engine, as data.

The adapters (:mod:`.openspiel`, :mod:`.pettingzoo`) and the search bots (:mod:`.bots`)
are written once over the engine protocol (:mod:`furball.scenarios.engine`); an
:class:`EngineSpec` adds what the protocol does not say:

* **parameters**: the OpenSpiel game parameters (name -> default; ``int``, ``float``,
  ``bool`` or ``str``) and how they become the engine's options (:attr:`options`);
* **actions** (:class:`ActionCodec`): an engine action as an integer and back. Every
  game numbers its actions in a *canonical list* fixed by the game's options (the
  position of an action in that list is its id), so an id means the same action in
  every state of a game: what OpenSpiel's ``num_distinct_actions``, action masks and
  learning code expect;
* **observations** (:class:`Encoder`): a seat's observation as a flat ``float32`` array
  made of named pieces (shape and meaning of each in the game's module);
* **hidden information**: :attr:`resample` re-deals everything a seat cannot see
  (unseen deck orders, other seats' hands and secret values, the seed that decides
  future draws) consistently with what it has seen, and :attr:`seen` says what a seat
  sees of an action taken by another one. Both are functions of the engine state that
  read nothing hidden from the seat (the tests check it over whole games: a state and
  any of its resamples give the same resamples, observation and information strings);
* the game's facts (seats, information, utility and the longest game) are the engine's
  own, declared on its :class:`~furball.scenarios.engine.Game` (``information``,
  ``game_info(first)``), as OpenSpiel's ``GameType`` and ``GameInfo`` declare them.

Which module holds each game's spec: the registry of games
(:mod:`furball.scenarios.engine.registry`, its ``rl`` module).

Nothing here imports OpenSpiel or PettingZoo: the encoders and resamplers work with the
core install.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from furball.errors import IllegalAction, InputError

from ..engine import registry
from ..engine.protocol import Game, Information, Utility

__all__ = ["EngineSpec", "ActionCodec", "TableCodec", "Encoder", "Piece", "Utility", "Information", "SPECS",
           "spec", "short_names", "fresh_seed", "public_action", "engine_options", "one_hot", "UNSET"]

MAX_SEED = 2**63
"""Seeds drawn for resampled worlds are below this (they fit a TOML integer)."""


class ActionCodec(Protocol):
    """Engine actions as integers ``0 .. size-1`` (the canonical list of a game)."""

    size: int

    def encode(self, state: Any, action: Hashable) -> int:
        """The id of ``action`` (a legal action of ``state``)."""

    def decode(self, state: Any, action_id: int) -> Hashable:
        """The engine action of ``action_id`` in ``state``. Raises :class:`IllegalAction`
        for an id outside the list."""


@dataclass(frozen=True)
class TableCodec:
    """A codec over an explicit canonical list of hashable engine actions: the id of an
    action is its position in ``actions`` (and ``key(action)`` finds it when the engine's
    actions are not the list's values themselves)."""

    actions: tuple[Hashable, ...]
    key: Callable[[Hashable], Hashable] | None = None
    index: Mapping[Hashable, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        keys = self.actions if self.key is None else tuple(map(self.key, self.actions))
        index = {k: i for i, k in enumerate(keys)}
        if len(index) != len(keys):
            raise ValueError("TableCodec: the canonical list names an action twice")
        object.__setattr__(self, "index", index)

    @property
    def size(self) -> int:
        return len(self.actions)

    def encode(self, state: Any, action: Hashable) -> int:
        try:
            return self.index[action if self.key is None else self.key(action)]
        except KeyError:
            raise IllegalAction(f"action {str(action)[:60]!r} is not in this game's action list") from None

    def decode(self, state: Any, action_id: int) -> Hashable:
        if not 0 <= int(action_id) < len(self.actions):
            raise IllegalAction(f"action id {action_id}: expected 0 to {len(self.actions) - 1}")
        return self.actions[int(action_id)]


@dataclass(frozen=True)
class Piece:
    """One named part of an observation array: ``shape``, the largest value of its entries
    (``high``; the smallest is 0) and what they mean."""

    name: str
    shape: tuple[int, ...]
    high: float
    meaning: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))


class Encoder:
    """A seat's observation as one flat ``float32`` array, the concatenation of
    ``pieces`` in order. ``fill(state, seat, views)`` writes the pieces into ``views``
    (name -> array of the piece's shape, zeroed); :meth:`encode` returns the array.
    Every entry lies in ``[0, piece.high]``."""

    def __init__(self, pieces: Sequence[Piece], fill: Callable[[Any, int, dict[str, np.ndarray]], None]):
        self.pieces = tuple(pieces)
        self.size = sum(p.size for p in self.pieces)
        self._fill = fill
        self.high = np.concatenate([np.full(p.size, p.high, np.float32) for p in self.pieces])

    def views(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """Named views of ``flat`` (a 1-D array of :attr:`size` entries)."""
        out, at = {}, 0
        for p in self.pieces:
            out[p.name] = flat[at:at + p.size].reshape(p.shape)
            at += p.size
        return out

    def write(self, state: Any, seat: int, flat: np.ndarray) -> None:
        """Write ``seat``'s observation of ``state`` into ``flat`` (zeroed first)."""
        flat.fill(0)
        self._fill(state, seat, self.views(flat))
        np.clip(flat, 0.0, self.high, out=flat)

    def encode(self, state: Any, seat: int) -> np.ndarray:
        """``seat``'s observation of ``state``: shape ``(size,)``, ``float32``."""
        flat = np.zeros(self.size, np.float32)
        self.write(state, seat, flat)
        return flat

    def describe(self) -> list[tuple[str, tuple[int, ...], float, str]]:
        """``(name, shape, high, meaning)`` of every piece, in order."""
        return [(p.name, p.shape, p.high, p.meaning) for p in self.pieces]


def one_hot(view: np.ndarray, index: int | None) -> None:
    """Set ``view[index] = 1`` (nothing for ``None``)."""
    if index is not None:
        view[index] = 1.0


def fresh_seed(rng: np.random.Generator) -> int:
    """A new game seed for a resampled world (below :data:`MAX_SEED`)."""
    return int(rng.integers(MAX_SEED))


UNSET = ("", -1)
"""Parameter values that mean "the engine's default" (OpenSpiel parameters cannot be
``None``): the empty text and -1."""


def engine_options(game: Game, params: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The engine options of the OpenSpiel ``params`` named ``names`` (each the name of an
    option of ``game``): text is parsed by the option (a file name is loaded), other
    values are checked; a value in :data:`UNSET` is left out (the engine's default).
    Raises :class:`InputError` naming the option."""
    out = {}
    for name in names:
        value = params[name]
        if not isinstance(value, bool) and value in UNSET:
            continue
        option = game.option(name)
        out[name] = option.parse(value) if isinstance(value, str) else option.check(value)
    return out


def public_action(state: Any, action: Hashable, seat: int) -> str:
    """What ``seat`` sees of ``action`` taken in ``state``: the whole action, as the log
    writes it (the default: every action is public)."""
    return f"P{state.current_player() + 1}: {state.describe(action)}"


@dataclass(frozen=True)
class EngineSpec:
    """One engine, as the adapters see it (module docstring).

    ``short_name`` (OpenSpiel's, e.g. ``furball_canuck``), ``long_name``; ``game``: the
    engine's :class:`~furball.scenarios.engine.Game` (a function, so the engine is
    imported on first use); ``parameters``: OpenSpiel parameter name -> default;
    ``options(params)``: the engine options of a full parameter dict (raises
    :class:`InputError`); ``codec(params, probe)`` and ``encoder(params, probe)``: per game (``probe``
    is a new game of those options, seed 0); ``resample(state, seat, rng)``: a state
    the seat cannot tell from ``state``, everything hidden from it re-dealt (``None``
    for a game without hidden information or chance); ``seen(state, action, seat)``:
    what ``seat`` sees of ``action`` taken in ``state`` (``None``: nothing, no line); ``full_text(state)``: the whole
    state as text (OpenSpiel's ``ToString``; default ``repr``); ``rollout``: the bot the
    search bots play out positions with by default; ``return_scale``: how much the returns
    of good and bad play typically differ (the search bots' UCT constant scales with it);
    ``notes``: how chance is modelled."""

    short_name: str
    long_name: str
    game: Callable[[], Game]
    parameters: Mapping[str, Any]
    options: Callable[[Mapping[str, Any]], dict[str, Any]]
    codec: Callable[[Mapping[str, Any], Any], ActionCodec]
    encoder: Callable[[Mapping[str, Any], Any], Encoder]
    resample: Callable[[Any, int, np.random.Generator], Any] | None
    seen: Callable[[Any, Hashable, int], str | None] = public_action
    full_text: Callable[[Any], str] = repr
    rollout: str = "random"
    return_scale: float = 1.0
    notes: str = ""

    def params(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The full parameter dict: defaults with ``given`` over them. Raises
        :class:`InputError` for an unknown name or a value of the wrong type."""
        out = dict(self.parameters)
        for name, value in (given or {}).items():
            if name not in out:
                raise InputError(f"{self.short_name}: unknown parameter {name!r} (parameters: "
                                 f"{', '.join(self.parameters)})")
            want = type(out[name])
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if type(value) is not want:
                raise InputError(f"{self.short_name}: parameter {name}: expected {want.__name__}, "
                                 f"got {str(value)[:40]!r}")
            out[name] = value
        return out

    def new_game(self, params: Mapping[str, Any], seed: int) -> Any:
        """The engine's first state of a game with these parameters and ``seed``."""
        return self.game().new_game(seed, **self.options(params))


def short_names() -> tuple[str, ...]:
    """The short names of every game, in the registry's order."""
    return tuple(g.short_name for g in registry.GAMES)


def spec(short_name: str) -> EngineSpec:
    """The :class:`EngineSpec` of a game (``furball_canuck`` ...; the engine name alone,
    ``canuck``, ``white-christmas`` or ``white_christmas``, works too). Raises
    :class:`InputError` listing the games."""
    name = short_name if short_name.startswith("furball_") else "furball_" + short_name.replace("-", "_")
    try:
        return registry.entry(name).rl_module().SPEC
    except InputError:
        raise InputError(f"game {short_name[:40]!r}: expected one of {', '.join(short_names())}") from None


class _Specs(Mapping):
    """Every game's spec by short name, each imported when first asked for."""

    def __getitem__(self, name: str) -> EngineSpec:
        if name not in short_names():
            raise KeyError(name)
        return spec(name)

    def __iter__(self):
        return iter(short_names())

    def __len__(self) -> int:
        return len(registry.GAMES)


SPECS: Mapping[str, EngineSpec] = _Specs()
"""Every game's :class:`EngineSpec` by OpenSpiel short name."""
