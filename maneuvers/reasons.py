"""Why a rule says no: reasons that carry their rule ID as data.

A :class:`Reason` is what a failed check returns (a tailing test, a plan's legality):
``rule`` is the spec's rule ID (``"DF.T1b"``: rule T1, condition (b)), ``text`` says
what failed in words. Code tests ``reason.rule``; people read ``str(reason)``, which
ends with the rule ID in brackets.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Reason"]


@dataclass(frozen=True)
class Reason:
    """One failed condition: ``rule`` (e.g. ``"DF.T6"``) and ``text`` (without the ID)."""

    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})"

    def as_json(self) -> dict:
        return {"rule": self.rule, "text": self.text}
