"""Why a rule says no: reasons that carry their rule ID as data.

A :class:`Reason` is what a failed check returns (a tailing test, a plan's legality):
``rule`` is the spec's rule ID (``"DF.T1b"``: rule T1, condition (b)), ``text`` says
what failed in words. Code tests ``reason.rule``; people read ``str(reason)``, which
ends with the rule ID in brackets.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from furball.i18n import DEFAULT_LANG, Lang, Message, render

__all__ = ["Reason"]


@dataclass(frozen=True)
class Reason:
    """One failed condition: ``rule`` (e.g. ``"DF.T6"``) and ``text`` (without the ID, in
    English); ``message``: the same as a :class:`furball.i18n.Message` where the check
    gives one (:meth:`of`), so a reader reads it in their language (:meth:`words`)."""

    rule: str
    text: str
    message: Message | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, rule: str, message: Message) -> Reason:
        """A reason whose text is ``message`` (its English is :attr:`text`)."""
        return cls(rule, str(message), message)

    def words(self, lang: Lang | str = DEFAULT_LANG) -> str:
        """The text in ``lang`` (English :attr:`text` where there is no message)."""
        return self.text if self.message is None else render(self.message, lang)

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})"

    def as_json(self) -> dict:
        return {"rule": self.rule, "text": self.text}
