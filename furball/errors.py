"""The errors furball raises for a user's mistakes, in a module that imports nothing.

Every layer raises :class:`InputError` for bad input — a one-line message naming the
file, the field and what was expected; the CLI prints that line and exits with status 2
and a web server answers 400. A game engine raises :class:`IllegalAction` (an
:class:`InputError`) for an action that is not legal in a state, which is then left
unchanged. :class:`MissingExtra` names the optional install (``furball[web]`` ...) a
command needs. Anything else escaping is a bug in furball, not a user mistake.
"""
from __future__ import annotations

__all__ = ["InputError", "IllegalAction", "MissingExtra"]


class InputError(ValueError):
    """Bad user input: a one-line message naming file, field and what was expected.
    ``message``: the text, or a :class:`furball.i18n.Message` (an id and its values) that
    each reader's language renders (``str(error)`` is its English); kept as
    :attr:`message`."""

    def __init__(self, message):
        super().__init__(" ".join(str(message).split()))
        self.message = message if hasattr(message, "id") else str(self)


class IllegalAction(InputError):
    """An action that is not legal in this state; the state is left unchanged. ``rule``:
    the rule that refuses it (a spec ID such as ``CN.P4``), when the engine says."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.rule = rule


class MissingExtra(InputError):
    """A feature needs an optional dependency that is not installed: the message names
    the extra to install, e.g. ``pip install 'furball[web]'``."""

    def __init__(self, extra: str, feature: str, missing: str):
        self.extra = extra
        super().__init__(f"{feature} needs the optional package {missing!r}: "
                         f"pip install 'furball[{extra}]'")
