"""The listed menu of a card engine's state: one home for ``legal_actions()``,
``legal_set`` and ``is_legal(action)``.

A state lists its legal actions once, in a :func:`functools.cached_property` named
``legal`` (a tuple in a fixed order; ``()`` when nobody decides), the one place its
rules of what is legal live. Deriving from :class:`ListedMenu` gives it the engine
protocol's ``legal_actions()`` (that tuple) and ``is_legal(action)`` (membership in it),
so no check decides legality a second way. Operation Canuck, 1942 USS Yorktown and 1975
White Christmas states derive from it.
"""
from __future__ import annotations

from collections.abc import Hashable
from functools import cached_property
from itertools import repeat
from operator import is_
from typing import Generic, TypeVar

__all__ = ["ListedMenu"]

ActionT = TypeVar("ActionT", bound=Hashable)


class ListedMenu(Generic[ActionT]):
    """A mixin for a frozen state whose subclass defines ``legal`` (a
    :func:`~functools.cached_property`: every legal action, a tuple in a fixed order)."""

    @property
    def legal(self) -> tuple[ActionT, ...]:
        """Every legal action in a fixed order: each state class defines it (computed on
        first use)."""
        raise NotImplementedError

    @cached_property
    def legal_set(self) -> frozenset[ActionT]:
        """:attr:`legal` as a set (computed on first use)."""
        return frozenset(self.legal)

    def legal_actions(self) -> tuple[ActionT, ...]:
        """Every legal action in a fixed order; ``()`` when nobody decides (the game is
        over)."""
        return self.legal

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` is one of :meth:`legal_actions`: the menu's own object found
        by identity (engines build their menus of shared action values, so a bot's choice
        usually is one; the scan runs in C, ``map(is_, ...)``, without one call of the
        action's ``__eq__``), else any equal action, through :attr:`legal_set`. ``False``
        for an unhashable ``action``."""
        if any(map(is_, self.legal, repeat(action))):
            return True
        try:
            return action in self.legal_set
        except TypeError:
            return False
