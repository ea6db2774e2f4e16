"""One turn of the dogfight, adjudicated card by card.

Order of play (DF.M1, DF.T2), for each of the three maneuvers:

1. autonomous planes draw their card (DF.A1);
2. every active tail: the target shows its card, the chaser may reorder its remaining
   cards (policy ``keep`` or ``best``; DF.T2);
3. every plane in the air moves at once (DF.M1-DF.M4); climb/descent cards change
   altitude and counters (DF.H3-DF.H6);
4. planes whose stand is off the table leave the game (DF.E1);
5. overlapping bases are listed (DF.O1); pairs at the same altitude take the collision
   test (DF.C1-DF.C5);
6. firing positions are listed (DF.O2, DF.O3); autonomous planes pick targets (DF.A2);
7. planned bombs are dropped (DF.B2);
8. each tail is checked again with the full tailing test; a lost tail stays lost (DF.T4).

Tails are chosen once, at the start of the turn (DF.T1, DF.T3). Every random draw
comes from one numpy Generator seeded with the turn's seed, in a fixed order, so a seed
reproduces the turn exactly.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, replace

import numpy as np

from geometry.pose import Pose
from geometry.errors import InputError
from geometry.tolerance import TOLERANCE_MM
from maneuvers.altitude import after_card, after_drop
from maneuvers.collision import CollisionTest, collision_test, may_collide
from maneuvers.firing import Shot, autonomous_choice, shots
from maneuvers.path import PathSamples, arrow_points, path_poses
from maneuvers.placement import place
from maneuvers.plan import CARDS_PER_TURN, check_plan
from maneuvers.plane import OUT, Plane
from maneuvers.tailing import TailCheck, choose_tails, tail_check

from .policy import POLICY_FUNCTIONS, Situation
from .scenario import POLICIES, Orders, Scenario

__all__ = ["Move", "Reveal", "Maneuver", "TurnResult", "run_turn"]


@dataclass(frozen=True)
class Move:
    """One plane's maneuver: ``card`` id flown from ``start`` to ``end``, with sampled
    ``path`` and laid ``arrow``; altitude after it; rule ``events``."""

    plane: str
    card: str
    card_name: str
    start: Pose
    end: Pose
    altitude: int
    climb_counters: int
    events: tuple[str, ...]
    path: PathSamples
    arrow: np.ndarray


@dataclass(frozen=True)
class Reveal:
    """DF.T2: ``target`` showed ``shown`` to ``chaser``, whose remaining cards went from
    ``before`` to ``after``."""

    chaser: str
    target: str
    shown: str
    before: tuple[str, ...]
    after: tuple[str, ...]


@dataclass(frozen=True)
class Maneuver:
    """Everything that happened in maneuver ``index`` (1..3)."""

    index: int
    reveals: tuple[Reveal, ...]
    moves: tuple[Move, ...]
    left_table: tuple[str, ...]
    overlaps: tuple[tuple[str, str], ...]
    collisions: tuple[CollisionTest, ...]
    shots: tuple[Shot, ...]
    autonomous_fire: tuple[Shot, ...]
    drops: tuple[tuple[str, tuple[str, ...]], ...]
    tail_checks: tuple[TailCheck, ...]
    planes: tuple[Plane, ...]


@dataclass(frozen=True)
class TurnResult:
    """The whole turn: the scenario before, the tails chosen at the start, the three
    maneuvers, the seed and policy used, and the scenario after (a saved state)."""

    before: Scenario
    seed: int
    policy: str
    tails: tuple[TailCheck, ...]
    maneuvers: tuple[Maneuver, ...]
    after: Scenario


def _stand_on_table(p: Plane, width: float, height: float) -> bool:
    """DF.E1: the stand (the base centre where the peg goes) is on the play area; a
    stand exactly on the edge, within the tolerance, is still on it."""
    x, y = p.stand
    return -TOLERANCE_MM <= x <= width + TOLERANCE_MM and -TOLERANCE_MM <= y <= height + TOLERANCE_MM


def run_turn(scenario: Scenario, policy: str | None = None, seed: int | None = None) -> TurnResult:
    """Adjudicate one turn. ``policy``: ``keep`` | ``best`` (default: the scenario's);
    ``seed``: for every random draw (default: the scenario's, else a fresh one, reported).

    Raises :class:`InputError` for a missing or illegal plan (naming plane, card, rule).
    """
    policy = policy or scenario.policy
    if policy not in POLICIES:
        raise InputError(f"reorder policy '{policy}': expected one of {', '.join(POLICIES)}")
    reorder = POLICY_FUNCTIONS[policy]
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else secrets.randbelow(2**31)
    rng = np.random.default_rng(seed)
    rules = scenario.rules
    where = f"{scenario.source}: " if scenario.source else ""

    planes = {p.name: p for p in scenario.planes}
    orders = {p.name: o for p, o in zip(scenario.planes, scenario.orders)}
    at_start = dict(planes)
    plans: dict[str, list[str]] = {}
    for name, p in planes.items():
        if not p.flying or p.is_balloon or p.autonomous:
            continue
        o = orders[name]
        if o.plan is None:
            raise InputError(f"{where}plane '{name}': field 'plan': expected {CARDS_PER_TURN} card ids "
                             f"for turn {scenario.turn} (DF.M1)")
        check_plan(p, o.plan, o.drops, rules.max_altitude, where)
        plans[name] = list(o.plan)
    for name, p in planes.items():
        if p.flying and p.autonomous:
            plans[name] = []

    wishes = {n: o.tail for n, o in orders.items() if o.tail is not None}
    start_tails = choose_tails(list(planes.values()), rules, wishes)
    active = dict(start_tails)
    maneuvers = []
    for k in range(CARDS_PER_TURN):
        # 1. autonomous draws (DF.A1): an independent uniform draw from the 8 cards
        for name, p in planes.items():
            if p.flying and p.autonomous:
                pool = p.deck.autonomous
                plans[name].append(pool[int(rng.integers(len(pool)))])
        # 2. reveals and reorders (DF.T2)
        reveals = []
        for chaser_name, check in active.items():
            target_name = check.target
            if target_name not in plans or len(plans[target_name]) <= k:
                continue
            shown = plans[target_name][k]
            before = tuple(plans[chaser_name][k:])
            after = reorder(Situation(
                chaser=planes[chaser_name], target=planes[target_name], shown=shown,
                flown=tuple(plans[chaser_name][:k]), remaining=before,
                chaser_at_turn_start=at_start[chaser_name], drops=orders[chaser_name].drops,
                planes=tuple(planes.values()), rules=rules))
            if sorted(after) != sorted(before):  # pragma: no cover - a policy bug
                raise RuntimeError(f"policy {policy} returned {after}, not a reordering of {before}")
            plans[chaser_name][k:] = list(after)
            reveals.append(Reveal(chaser_name, target_name, shown, before, tuple(after)))
        # 3. everyone in the air moves at once
        moves = []
        for name, p in list(planes.items()):
            if not p.flying or p.is_balloon or name not in plans:
                continue
            card = p.deck.card(plans[name][k])
            end = place(p.pose, card, p.base)
            moved, events = after_card(p.but(pose=end, last_card=card.id), card, rules.max_altitude)
            planes[name] = moved
            moves.append(Move(name, card.id, card.name, p.pose, end, moved.altitude, moved.climb_counters,
                              tuple(events), path_poses(p.pose, card, p.base), arrow_points(p.pose, card, p.base)))
        # 4. leaving the table (DF.E1)
        left = []
        for name, p in planes.items():
            if p.flying and not _stand_on_table(p, scenario.table_width_mm, scenario.table_height_mm):
                planes[name] = p.but(status=OUT)
                left.append(name)
        # 5. overlaps (DF.O1) and collisions (DF.C1-DF.C5)
        live = [p for p in planes.values() if p.flying]
        overlaps, collisions = [], []
        for i, a in enumerate(live):
            for b in live[i + 1:]:
                if a.base.overlaps(a.pose, b.base, b.pose):
                    overlaps.append((a.name, b.name))
                    if may_collide(a, b):
                        collisions.append(collision_test(a, b, rng))
        for test in collisions:
            for name, letter in test.damage.items():
                planes[name] = planes[name].but(damage=planes[name].damage + (letter,))
        # 6. firing (DF.O2, DF.O3, DF.A2)
        everyone = list(planes.values())
        available = shots(everyone, rules)
        auto_fire = []
        for p in everyone:
            if p.flying and p.autonomous:
                choice = autonomous_choice(p, available, everyone, rng)
                if choice is not None:
                    auto_fire.append(choice)
        # 7. bombs (DF.B1, DF.B2)
        drops = []
        for name, o in orders.items():
            if o.drops and o.drops[k] and planes[name].flying:
                planes[name], events = after_drop(planes[name], o.drops[k])
                drops.append((name, tuple(events)))
        # 8. tails checked again (DF.T2, DF.T4)
        checks = []
        for chaser_name, check in list(active.items()):
            again = tail_check(planes[chaser_name], planes[check.target], list(planes.values()), rules)
            checks.append(again)
            if not again.ok:
                del active[chaser_name]
        maneuvers.append(Maneuver(k + 1, tuple(reveals), tuple(moves), tuple(left), tuple(overlaps),
                                  tuple(collisions), tuple(available), tuple(auto_fire), tuple(drops),
                                  tuple(checks), tuple(planes.values())))

    after = replace(scenario, turn=scenario.turn + 1, planes=tuple(planes.values()),
                    orders=tuple(Orders() for _ in planes), seed=None)
    return TurnResult(scenario, seed, policy, tuple(start_tails.values()), tuple(maneuvers), after)
