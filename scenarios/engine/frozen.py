"""One way to build a game state, shared by every engine.

* **A state is a frozen dataclass** deriving from :class:`FrozenState`, declared with
  ``@dataclass(frozen=True, init=False)``. Its fields are the whole position: ``seed``
  and ``step`` (transitions so far) first, the game's own fields next, and, keyword-only
  at the end, the last transition's ``log_entries`` and whether transitions keep them
  (``logging``). It is built from keyword arguments, every field named (the ones with a
  default may be left out); a missing or unknown name raises ``TypeError``.
* **The next state** is :meth:`FrozenState.replace` (``changes`` over the fields of
  :func:`dataclasses.fields`, every other field carried over), so a field added later
  can never be forgotten.
* **Derived answers** (legal actions, a score, a seat's observation) are
  :func:`functools.cached_property` members: computed on first use and kept by that
  state alone (the next state starts without them; :func:`derived_names` lists them).
  Module-level caches are bounded (``functools.lru_cache(maxsize=...)`` or
  :mod:`cachetools`) and keyed only by public values, so nothing private rides from one
  seat's answers into another's.
* **While one action resolves**, a :class:`Draft` is the working copy: it holds the
  state's fields as plain attributes, turns the tuple fields its class lists in
  :attr:`Draft.LISTS` into lists the first time they are read, makes the step's random
  draws and keeps the log; :meth:`Draft.freeze` builds the next state from what it holds,
  one step later. Each engine's working copy is a :class:`Draft` subclass that adds the
  primitive moves of its rules (its own attributes in ``__slots__`` or :attr:`Draft.PRIVATE`).
* **Randomness**: the draws of the transition out of a state of step ``n`` of the game
  started from ``seed`` come from :func:`step_rng` ``(seed, n)`` — numpy's PCG64 seeded
  by ``SeedSequence([seed, n])`` — and set-up uses step 0. (The dogfight numbers its
  draws by turn instead: ``step_rng(seed, turn)``; see :mod:`scenarios.dogfight.state`.) A position can be replayed
  from any state, and the same seed and actions give the same log, byte for byte.
* **The log** (``log_entries``) is a tuple of ``(template, args)`` pairs, formatted only
  when :attr:`FrozenState.events` is read (a game played without a log formats nothing).

* **The small values a state is made of** (a board, a side's public and private
  values, an observation) may be built the same way: a frozen dataclass deriving from
  :class:`FrozenValue` (declared ``@dataclass(frozen=True, init=False)``), built by
  keyword and changed by :meth:`FrozenValue.replace`. :class:`FrozenState` is a
  :class:`FrozenValue` with the fields every state has.

Why the constructor is not the one :func:`dataclasses.dataclass` generates: a frozen
dataclass's generated ``__init__`` sets each field through ``object.__setattr__``, one
call per field (about 3.5 µs for a 25-field state, more than the rest of a typical
transition). :class:`FrozenValue` derives from :class:`types.SimpleNamespace`, whose
constructor sets keyword arguments in one step: the public constructor checks the names
against the fields first (2 µs), and :meth:`~FrozenValue.replace` and
:meth:`Draft.freeze`, whose values are the fields by construction, call it directly
(0.4 µs). Equality, hashing, ``repr`` and immutability are the dataclass's.
"""
from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, ClassVar, NamedTuple, Self

import numpy as np

from furball.i18n import Lang, render_entry

__all__ = ["FrozenValue", "FrozenState", "Draft", "step_rng", "LogEntry", "field_names", "derived_names", "fields_of"]

LogEntry = tuple[str, tuple]
"""One log line: ``template.format(*args)`` (``template`` itself when ``args`` is empty)."""


def step_rng(seed: int, step: int, stream: int | None = None) -> np.random.Generator:
    """The random generator of the transition out of a state of step ``step`` in the
    game started from ``seed`` (step 0: the set-up): ``numpy.random.default_rng([seed,
    step])``, i.e. PCG64 seeded by ``SeedSequence([seed, step])``. ``stream``: a second
    generator of the same step, independent of the first (``SeedSequence([seed, step,
    stream])``), for draws an engine keeps apart (the dogfight's damage piles). Raises
    ``ValueError`` for a negative seed, step or stream."""
    key = [int(seed), int(step)] if stream is None else [int(seed), int(step), int(stream)]
    if min(key) < 0:
        raise ValueError(f"step_rng: expected seed, step and stream >= 0, got {', '.join(map(str, key))}")
    # default_rng's own stream, built directly: the same generator in about 2/3 of the time
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(key)))


class _Spec(NamedTuple):
    names: frozenset[str]
    required: frozenset[str]
    defaults: dict[str, Any]
    derived: tuple[str, ...]


def _read_spec(cls: type) -> _Spec:
    """The fields of state class ``cls`` and its derived answers."""
    fields = dataclasses.fields(cls)
    defaults = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    defaults.update({f.name: f.default_factory() for f in fields if f.default_factory is not dataclasses.MISSING})
    names = frozenset(f.name for f in fields)
    return _Spec(names, names - defaults.keys(), defaults, derived_names(cls))


_spec: Callable[[type], _Spec] = lru_cache(maxsize=64)(_read_spec)
""":func:`_read_spec`, one cache entry per class."""


def field_names(cls: type) -> frozenset[str]:
    """The field names of state class ``cls``."""
    return _spec(cls).names


def _derived_names(cls: type) -> tuple[str, ...]:
    return tuple(name for klass in cls.__mro__ for name, member in vars(klass).items()
                 if isinstance(member, cached_property))


derived_names: Callable[[type], tuple[str, ...]] = lru_cache(maxsize=64)(_derived_names)
"""The :func:`~functools.cached_property` members of a class: the derived answers a
state may hold besides its fields (never carried to the next state)."""


_set_fields = types.SimpleNamespace.__init__
"""Sets keyword arguments as attributes, in C (see the module docstring)."""
_new = types.SimpleNamespace.__new__


def _built(cls: type, values: dict[str, Any]) -> Any:
    """A value of ``cls`` whose fields are exactly ``values`` (checked by the caller): the
    one way every value and state is made once its fields are known."""
    new: Any = _new(cls)
    _set_fields(new, **values)
    return new


def fields_of(value: FrozenValue) -> dict[str, Any]:
    """The fields of ``value`` as a new dict, name -> value (its attributes without the
    derived answers: cheaper than reading the fields one by one)."""
    values = vars(value).copy()
    spec = _spec(type(value))
    if len(values) != len(spec.names):  # some derived answers are there
        for name in spec.derived:
            values.pop(name, None)
    return values


@dataclass(frozen=True, init=False)
class FrozenValue(types.SimpleNamespace):
    """The base of the immutable values engines build by keyword (see the module
    docstring): a frozen dataclass deriving from it, declared ``@dataclass(frozen=True,
    init=False)``, is built from its fields by name and changed by :meth:`replace`."""

    def __init__(self, **values: Any):
        """A value from its fields, by name. Raises ``TypeError`` for a missing field
        (one without a default) or an unknown name."""
        spec = _spec(type(self))
        if values.keys() != spec.names:
            unknown = sorted(values.keys() - spec.names)
            missing = sorted(spec.required - values.keys())
            if unknown or missing:
                raise TypeError(f"{type(self).__name__}: unknown fields {unknown}, missing fields {missing}")
            values = {**spec.defaults, **values}
        _set_fields(self, **values)

    def __reduce__(self):
        """Pickled as its fields (the derived answers are not kept)."""
        return _rebuild, (type(self), fields_of(self))

    @classmethod
    def from_fields(cls, values: dict[str, Any]) -> Self:
        """A value whose fields are the items of ``values``, a dict holding every field
        (a draft's working copy of a value, made with :func:`fields_of`: only the count of
        names is checked, as at :meth:`Draft.freeze`). Raises ``TypeError`` when it holds
        more or fewer names than the fields. ``values`` is not kept."""
        if len(values) != len(_spec(cls).names):
            raise TypeError(f"{cls.__name__}: expected the fields {sorted(_spec(cls).names)}, got {sorted(values)}")
        return _built(cls, values)

    def replace(self, **changes: Any) -> Self:
        """A new value: this one with ``changes`` (field name -> value), every other field
        carried over. Raises ``TypeError`` for a name that is not a field."""
        cls = type(self)
        values = fields_of(self)
        values.update(changes)
        names = _spec(cls).names
        if len(values) != len(names):  # a name that is not a field was added
            raise TypeError(f"{cls.__name__}: unknown fields {sorted(changes.keys() - names)}")
        return _built(cls, values)


@dataclass(frozen=True, init=False)
class FrozenState(FrozenValue):
    """The base of every engine's ``State`` (see the module docstring).

    ``seed``: the game's seed; ``step``: transitions so far (set-up is step 0, the first
    state step 1); ``log_entries``: the last transition's log lines as ``(template,
    args)``; ``logging``: whether transitions keep log lines (:meth:`without_log`)."""

    seed: int
    step: int
    log_entries: tuple[LogEntry, ...] = field(default=(), repr=False, compare=False, kw_only=True)
    logging: bool = field(default=True, repr=False, compare=False, kw_only=True)

    @cached_property
    def events(self) -> tuple[str, ...]:
        """The log lines of the transition that made this state, as text."""
        return tuple(template.format(*args) if args else template for template, args in self.log_entries)

    def events_in(self, lang: Lang | str) -> tuple[str, ...]:
        """:attr:`events` in ``lang`` (each template read through the catalog,
        :func:`furball.i18n.render_entry`); English gives :attr:`events`."""
        return tuple(render_entry(template, args, lang) for template, args in self.log_entries)

    def without_log(self) -> Self:
        """The same position whose transitions keep no log (``events`` empty, no line
        formatted): for Monte Carlo series, where only the result counts. Every draw,
        decision and result stays the same as with the log."""
        return self.replace(log_entries=(), logging=False)


def _rebuild(cls: type, values: dict[str, Any]) -> FrozenValue:
    return cls(**values)


class _ListField:
    """A :attr:`Draft.LISTS` field of a draft, not read yet: the first read makes a list
    copy of the state's tuple and keeps it on the draft (a non-data descriptor, so from
    then on the draft's own attribute is read, at the speed of any attribute)."""

    def __init__(self, name: str):
        self.name = name

    def __get__(self, draft: Draft | None, owner: type | None = None) -> Any:
        if draft is None:
            return self
        value = list(getattr(draft.state, self.name))
        setattr(draft, self.name, value)
        return value


class Draft(types.SimpleNamespace):
    """A mutable working copy of a :class:`FrozenState` while one action resolves.

    Holds the state's fields as attributes, except the tuple fields named in
    :attr:`LISTS`, which become lists (of the same items) the first time they are read;
    assign a field to change it. :meth:`freeze` returns the next state. ``rng`` is the
    generator of this transition (:func:`step_rng` of the state's seed and step), made
    on first use; :meth:`log` adds a log line (kept only when the state keeps a log).
    Subclasses add the primitive moves of their game's rules; any attribute of their own
    is named in :attr:`PRIVATE` or declared in ``__slots__`` (every other attribute is a
    field of the next state).
    """

    __slots__ = ("_state", "_rng", "_entries")
    """The draft's own attributes (slots: not among the fields kept as attributes)."""
    _state: FrozenState
    _rng: np.random.Generator | None
    _entries: list[LogEntry]
    LISTS: ClassVar[tuple[str, ...]] = ()
    """Tuple fields that are lists while the draft lives (turned back into tuples)."""
    PRIVATE: ClassVar[tuple[str, ...]] = ()
    """Attributes of a subclass that are not fields and not slots (left out at freeze)."""

    def __init__(self, state: FrozenState):
        self._state, self._rng, self._entries = state, None, []
        values = fields_of(state)
        for name in self.LISTS:
            del values[name]
        del values["log_entries"]
        _set_fields(self, **values)

    def __init_subclass__(cls, **kwargs: Any):
        """The fields of :attr:`LISTS` become lists when first read (:class:`_ListField`)."""
        super().__init_subclass__(**kwargs)
        for name in cls.LISTS:
            if not isinstance(getattr(cls, name, None), _ListField):
                setattr(cls, name, _ListField(name))

    @property
    def state(self) -> FrozenState:
        """The state this draft was copied from (unchanged)."""
        return self._state

    # -- randomness and log ------------------------------------------------------------
    @property
    def rng(self) -> np.random.Generator:
        """This transition's generator: :func:`step_rng` ``(seed, step)``, made on first use."""
        if self._rng is None:
            self._rng = step_rng(self._state.seed, self._state.step)
        return self._rng

    def pick(self, n: int) -> int:
        """A uniform random index in ``range(n)`` (``0`` without a draw when ``n == 1``)."""
        return 0 if n == 1 else int(self.rng.integers(n))

    def log(self, template: str, *args: Any) -> None:
        """Add the log line ``template.format(*args)`` (formatted only when read; nothing
        is kept when the state keeps no log)."""
        if self.logging:
            self._entries.append((template, args))

    # -- the next state ------------------------------------------------------------------
    def freeze(self, **more: Any) -> FrozenState:
        """The next state: every field as this draft holds it (lists as tuples; a list
        that ends as it began gives back the very tuple it was copied from, so caches keyed
        by it stay valid), ``more``, this transition's log and ``step + 1``. Raises ``TypeError`` if the draft holds
        an attribute that is neither a field nor one of :attr:`PRIVATE`."""
        state = self._state
        values = vars(self).copy()
        for name in self.PRIVATE:
            values.pop(name, None)
        for name in self.LISTS:
            before = getattr(state, name)
            value = values.get(name)
            if value is not None:
                value = tuple(value)
            values[name] = before if value is None or value == before else value  # unchanged: the same tuple
        values["step"] = state.step + 1
        values["log_entries"] = tuple(self._entries)
        values.update(more)
        cls = type(state)
        if len(values) != len(_spec(cls).names):  # every field is there, so this is an extra attribute
            raise TypeError(f"{type(self).__name__}: attributes that are not fields of {cls.__name__}: "
                            f"{sorted(values.keys() - _spec(cls).names)}")
        return _built(cls, values)
