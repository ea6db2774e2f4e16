"""The free set-up of Operation Canuck (CN.S3 optional): where the Partisan places.

CN.S3 lets the Partisan place the 4 Leaders, 8 Groups and 4 Bases freely in the 6 BASE
areas (at most 1 Base per area) instead of 1 Leader, 2 Groups and 1 Base in each of the
4 BASE* areas. The source gives no advice, so the free set-up furball plays is an
engine decision (``docs/canuck.md``): the garrisons are rolled first (CN.S2), and the
same four stacks as the default (1 Leader, 2 Groups, 1 Base) go to the four BASE areas
nearest the weakest garrisons, where the heuristic player's Leader-led stacks strike
first. Each BASE area scores the sum, over its neighbouring garrisons, of
``7 - strength`` (a strength-1 garrison counts 6, a 6 counts 1), plus 3 when Alba is a
neighbour (Alba scores most, CN.E3/E4); the four best areas are taken, ties in map
order. It ignores the danger of Axis Sweeps, which strike Bases next to the strongest
garrison (CN.F2c) — a sweep measures what that costs (``furball sweep canuck --grid
setup=default,free``).
"""
from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from .actions import BASES, DEFAULT_STACK, DIE_FACES
from .board import CanuckMap

__all__ = ["SetUp", "free_placement", "STACK", "ALBA_BONUS"]

STACK = DEFAULT_STACK
"""(Leaders, Groups, Bases) of each stack of the free set-up, as the default's (CN.S3)."""
ALBA_BONUS = 3
"""Added to the score of a BASE area next to Alba."""


class SetUp(StrEnum):
    """How the Partisan sets up (CN.S3): the default stacks in the BASE* areas, or the
    free set-up of :func:`free_placement`."""

    DEFAULT = "default"
    FREE = "free"


def free_placement(board: CanuckMap, garrison: Sequence[int]) -> dict[str, tuple[int, int, int]]:
    """Area name -> (leaders, groups, bases) of the free set-up (see the module doc),
    given the rolled garrison strengths per area (0 = no die)."""
    def score(area: int) -> int:
        near = board.near[area]
        weakness = sum(DIE_FACES + 1 - garrison[g] for g in near if g in board.gar and garrison[g])
        return weakness + (ALBA_BONUS if board.alba in near else 0)

    chosen = sorted(board.base, key=lambda a: (-score(a), a))[:BASES]
    return {board.areas[a]: STACK for a in sorted(chosen)}
