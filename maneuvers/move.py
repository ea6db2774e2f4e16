"""One plane flown through a sequence of maneuver cards (DF.M1-DF.M4), with the
intermediate poses of each card: what ``furball move`` computes and draws."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from furball.geometry.base import Base
from furball.geometry.pose import Pose

from .card import ManeuverCard
from .deck import Deck
from .path import PathSamples, arrow_points, path_poses
from .placement import place

__all__ = ["MoveResult", "move", "pose_json"]


def pose_json(pose: Pose) -> dict:
    """A pose as JSON data: ``{"x": mm, "y": mm, "heading": deg}``."""
    return {"x": pose.x_mm, "y": pose.y_mm, "heading": pose.heading_deg}


@dataclass(frozen=True)
class MoveResult:
    """A plane moved through cards: ``poses[i]`` is the pose after ``cards[i]``;
    ``paths[i]`` and ``arrows[i]`` the intermediate poses and the laid arrow of card i."""

    deck: Deck
    base: Base
    start: Pose
    cards: tuple[ManeuverCard, ...]
    poses: tuple[Pose, ...]
    paths: tuple[PathSamples, ...]
    arrows: tuple[np.ndarray, ...]

    @property
    def final(self) -> Pose:
        return self.poses[-1] if self.poses else self.start

    def to_json(self) -> dict:
        """The ``furball move --json`` document: mm and degrees, one pose per card."""
        return {
            "deck": self.deck.name,
            "base": {"name": self.base.name, "length_mm": self.base.length_mm, "width_mm": self.base.width_mm},
            "start": pose_json(self.start),
            "poses": [dict(pose_json(p), card=c.id) for p, c in zip(self.poses, self.cards)],
            "final": pose_json(self.final),
        }


def move(deck: Deck, base: Base, start: Pose, card_ids: Sequence[str], sample: bool = True) -> MoveResult:
    """Move ``base`` from ``start`` through the cards ``card_ids`` of ``deck``.

    ``sample``: also sample each card's path and arrow (for drawing); without it
    ``paths`` and ``arrows`` are empty. Raises :class:`~geometry.errors.InputError` for
    an unknown card id. Source: DF.M2, DF.M3 (placement), DF.M4 (cards as data).
    """
    cards = tuple(deck.card(cid) for cid in card_ids)
    poses, paths, arrows = [], [], []
    pose = start
    for card in cards:
        if sample:
            paths.append(path_poses(pose, card, base))
            arrows.append(arrow_points(pose, card, base))
        pose = place(pose, card, base)
        poses.append(pose)
    return MoveResult(deck, base, start, cards, tuple(poses), tuple(paths), tuple(arrows))
