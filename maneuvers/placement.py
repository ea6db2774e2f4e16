"""Placing maneuver cards: DF.M1-DF.M3 as SE(2) products.

With the base's centre pose ``P``, its front-mark frame ``F = Tx(front_mark_mm)``,
rear-mark frame ``R = Tx(rear_mark_mm)`` and the card ``C = (dx, dy, dθ)`` (arrow tip
in the arrow-start frame, final turn included):

    P' = P · F · C · R⁻¹          (DF.M2: front mark on the arrow start;
                                   DF.M3: rear mark on the tip, facing the tip)

With the default marks (``±length/2``) this is ``P · Tx(L/2) · C · Tx(L/2)``. Cards
anchored at the stand (``anchor = "stand"``) use the stand frame ``S`` at both ends:
``P' = P · S · C · S⁻¹``. A sequence of cards is the product of their motions.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np

from furball.geometry.base import Base
from furball.geometry.pose import Pose, compose_batch

from .card import Anchor, ManeuverCard

__all__ = ["card_motion", "card_motions", "place", "place_batch", "place_sequence"]


@lru_cache(maxsize=4096)
def card_motion(card: ManeuverCard, base: Base) -> Pose:
    """The rigid motion of the base centre, in the base's own frame: ``F · C · R⁻¹``
    (values, so it is computed once per card and base).

    Source: DF.M2, DF.M3 (``anchor = "marks"``); DF.M4 (``anchor = "stand"``).
    """
    if card.anchor == Anchor.STAND:
        return base.stand @ card.transform @ base.stand.inverse()
    return base.front_mark @ card.transform @ base.rear_mark.inverse()


def card_motions(cards: Sequence[ManeuverCard], base: Base) -> np.ndarray:
    """The motions of several cards for one base, shape ``(M, 3)`` (mm, mm, deg)."""
    return np.array([card_motion(c, base).as_array() for c in cards]).reshape(-1, 3)


def place(pose: Pose, card: ManeuverCard, base: Base) -> Pose:
    """Where ``card`` puts a ``base`` whose centre is at ``pose`` (DF.M2, DF.M3)."""
    return pose @ card_motion(card, base)


def place_batch(poses, motions) -> np.ndarray:
    """Apply card motions to many poses at once, without Python loops.

    ``poses``: ``(N, 3)``; ``motions``: ``(3,)`` (one card for all), ``(N, 3)`` (one
    card per pose) or, to try every card from every pose, pass ``poses[:, None, :]``
    and ``motions[None, :, :]`` to get ``(N, M, 3)``. Columns: x_mm, y_mm, heading_deg.
    Build ``motions`` with :func:`card_motions`.
    """
    return compose_batch(poses, motions)


def place_sequence(pose: Pose, cards: Iterable[ManeuverCard], base: Base) -> list[Pose]:
    """Poses after each card of a sequence (one pose per card), starting from ``pose``."""
    out = []
    for card in cards:
        pose = place(pose, card, base)
        out.append(pose)
    return out
