"""One turn of the dogfight, adjudicated card by card.

Order of play (DF.M1, DF.T2), for each of the three maneuvers:

1. autonomous planes draw their card (DF.A1);
2. before the first and the second maneuver only, every active tail: the target shows
   its card and the chaser may reorder its remaining cards (DF.T2). Reveals run in the
   tail graph's order, targets first, so a card shown is the card flown: in a chain
   (C tails A, A tails B) B shows, A may reorder, then A shows its (possibly reordered)
   card to C. In a cycle of tails each member shows its planned card, which is then
   fixed; it may reorder only the cards after it;
3. every plane in the air moves at once (DF.M1-DF.M4); climb/descent cards change
   altitude and counters (DF.H3-DF.H6);
4. planes whose stand is off the table leave the game (DF.E1);
5. overlapping bases are listed (DF.O1); pairs at the same altitude take the collision
   test (DF.C1-DF.C5), a landed plane included (DF.H3);
6. firing positions are listed (DF.O2, DF.O3); autonomous planes fire every gun that
   has a target (DF.A2);
7. planned bombs are dropped (DF.B2);
8. each tail is checked again with the full tailing test; a lost tail stays lost (DF.T4).

Tails are chosen once, at the start of the turn (DF.T1, DF.T3). Every random draw
comes from one numpy Generator seeded with ``[seed, turn]``, consumed in a fixed order
(autonomous draws, collision draws, autonomous fire ties), each step in plane-name
order: the result does not depend on the order the planes are listed in.
"""
from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from furball.errors import InputError
from furball.geometry.pose import Pose
from furball.maneuvers.altitude import after_card, after_drop
from furball.maneuvers.collision import CollisionTest, collision_test, may_collide
from furball.maneuvers.firing import Board, Shot, autonomous_fire, shots
from furball.maneuvers.path import PathSamples, arrow_points, path_poses
from furball.maneuvers.placement import place
from furball.maneuvers.plan import CARDS_PER_TURN, check_plan
from furball.maneuvers.plane import PlaneState, PlaneStatus
from furball.maneuvers.tailing import TailCheck, choose_tails, tail_checks

from .policy import POLICY_FUNCTIONS, ReorderPolicy, Situation
from .table import Orders, Table, needs_plan, normalise_orders, ordered

__all__ = ["Move", "Reveal", "Maneuver", "TurnResult", "adjudicate", "REVEALED_CARDS"]

REVEALED_CARDS = 2
"""DF.T2: only the first and the second card are ever shown to a chaser."""


@dataclass(frozen=True)
class Move:
    """One plane's maneuver: ``card`` id flown from ``start`` to ``end``, altitude and
    counters after it, rule ``events``; ``path`` (sampled poses) and ``arrow`` (the laid
    card's arrow, ``(K, 2)`` mm) when the turn was adjudicated with ``samples=True``."""

    plane: str
    card: str
    card_name: str
    start: Pose
    end: Pose
    altitude: int
    climb_counters: int
    events: tuple[str, ...]
    path: PathSamples | None = None
    arrow: np.ndarray | None = None


@dataclass(frozen=True)
class Reveal:
    """DF.T2: ``target`` showed ``shown`` to ``chaser``, whose cards still to order went
    from ``before`` to ``after``; ``fixed``: the chaser's own next card was fixed (it had
    shown it, in a cycle of tails), so only the cards after it could move."""

    chaser: str
    target: str
    shown: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    fixed: bool = False


@dataclass(frozen=True)
class Maneuver:
    """Everything that happened in maneuver ``index`` (1..3); ``planes``: everyone after it."""

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
    planes: tuple[PlaneState, ...]


@dataclass(frozen=True)
class TurnResult:
    """The whole turn: the table before, the orders, the seed and policy used, the tails
    chosen at the start (and the tail wishes that could not be met, with their reasons),
    the three maneuvers, and the table after (``turn`` + 1)."""

    before: Table
    orders: Mapping[str, Orders]
    seed: int
    policy: ReorderPolicy
    tails: tuple[TailCheck, ...]
    unmet_wishes: tuple[TailCheck, ...]
    maneuvers: tuple[Maneuver, ...]
    after: Table

    @property
    def shots(self) -> tuple[Shot, ...]:
        """Every firing position of the turn, maneuver by maneuver."""
        return tuple(s for m in self.maneuvers for s in m.shots)

    @property
    def collisions(self) -> tuple[CollisionTest, ...]:
        return tuple(c for m in self.maneuvers for c in m.collisions)

    @property
    def events(self) -> tuple[str, ...]:
        """The rule events of the turn as lines: ``"maneuver K: PLANE: what happened"``."""
        out = []
        for m in self.maneuvers:
            out += [f"maneuver {m.index}: {mv.plane}: {e}" for mv in m.moves for e in mv.events]
            out += [f"maneuver {m.index}: {name}: {e}" for name, events in m.drops for e in events]
        return tuple(out)


def _reveal_order(active: Mapping[str, TailCheck]) -> tuple[list[str], set[str]]:
    """Chasers in an order where each target decides its own next card before showing
    it (targets first), and the set of chasers in a cycle of tails."""
    target = {c: check.target for c, check in active.items()}
    in_cycle: set[str] = set()
    for start in target:
        seen, node = [], start
        while node in target and node not in seen:
            seen.append(node)
            node = target[node]
        if node in seen:
            in_cycle.update(seen[seen.index(node):])
    order, done = [], set()
    while len(order) < len(target):
        for c in sorted(target):
            t = target[c]
            if c not in done and (t not in target or t in done or c in in_cycle):
                order.append(c)
                done.add(c)
    return order, in_cycle


def adjudicate(table: Table, orders: Mapping[str, Orders | Sequence[str]] | None = None,
               seed: int | None = None, policy: ReorderPolicy | str = ReorderPolicy.KEEP,
               samples: bool = True) -> TurnResult:
    """Adjudicate one turn of ``table`` (rules DF.M1-DF.M5, DF.T1-DF.T7, DF.O1-DF.O3,
    DF.C1-DF.C5, DF.E1, DF.B1-DF.B2, DF.A1-DF.A2, DF.H1-DF.H6; order of play in the
    module docstring).

    ``orders``: plane name -> :class:`Orders`, or a sequence of three card ids (the
    plan); every plane flying, not a balloon and not autonomous needs one. ``seed``:
    integer >= 0 for every random draw (default: a fresh one, reported in the result).
    ``policy``: how a chaser reorders after a reveal (:class:`ReorderPolicy`).
    ``samples``: also sample each card's path and arrow (for drawing; costs time).

    Returns a :class:`TurnResult`; ``result.after`` is the next :class:`Table`. Raises
    :class:`~geometry.errors.InputError` (one line naming plane, field, card and rule:
    a :class:`~maneuvers.plan.PlanError` for an illegal plan) for bad orders, a bad seed
    or an unknown policy; nothing is computed then.
    """
    try:
        policy = ReorderPolicy(policy)
    except ValueError:
        raise InputError(f"reorder policy {policy!r:.40}: expected one of "
                         f"{', '.join(p.value for p in ReorderPolicy)}") from None
    if seed is None:
        seed = secrets.randbelow(2**31)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed: expected a whole number >= 0, got {seed!r:.40}")
    seed = int(seed)
    rules = table.rules
    orders = normalise_orders(table, orders)
    plans: dict[str, list[str]] = {}
    for p in table.planes:
        if needs_plan(p):
            check_plan(p, orders[p.name].plan, orders[p.name].drops, rules)
            plans[p.name] = list(orders[p.name].plan)
        elif p.flying and p.autonomous:
            plans[p.name] = []
    rng = np.random.default_rng([seed, table.turn])
    reorder = POLICY_FUNCTIONS[policy]

    planes = {p.name: p for p in table.planes}
    at_start = dict(planes)
    wishes = {n: o.tail for n, o in orders.items() if o.tail is not None}
    start_tails = choose_tails(list(planes.values()), rules, wishes)
    unmet = tuple(tail_checks([(c, t) for c, t in sorted(wishes.items()) if c not in start_tails],
                              list(planes.values()), rules))
    active = dict(start_tails)
    maneuvers = []
    for k in range(CARDS_PER_TURN):
        # 1. autonomous draws (DF.A1): an independent uniform draw from the 8 cards
        for p in ordered(planes.values()):
            if p.flying and p.autonomous:
                pool = p.deck.autonomous
                plans[p.name].append(pool[int(rng.integers(len(pool)))])
        # 2. reveals and reorders (DF.T2), targets first
        reveals = []
        if k < REVEALED_CARDS:
            chasers, in_cycle = _reveal_order(active)
            for chaser_name in chasers:
                target_name = active[chaser_name].target
                if len(plans.get(target_name, ())) <= k:
                    continue
                shown = plans[target_name][k]
                fixed = chaser_name in in_cycle
                free = k + 1 if fixed else k
                before = tuple(plans[chaser_name][free:])
                after = tuple(reorder(Situation(
                    chaser=planes[chaser_name], target=planes[target_name], shown=shown,
                    flown=tuple(plans[chaser_name][:free]), remaining=before,
                    chaser_at_turn_start=at_start[chaser_name], drops=orders[chaser_name].drops,
                    planes=tuple(ordered(planes.values())), rules=rules, next_fixed=fixed)))
                if sorted(after) != sorted(before):  # pragma: no cover - a policy bug
                    raise RuntimeError(f"policy {policy} returned {after}, not a reordering of {before}")
                plans[chaser_name][free:] = list(after)
                reveals.append(Reveal(chaser_name, target_name, shown, before, after, fixed))
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
                              tuple(events), path_poses(p.pose, card, p.base) if samples else None,
                              arrow_points(p.pose, card, p.base) if samples else None))
        # 4. leaving the table (DF.E1)
        left = []
        for name, p in planes.items():
            if p.on_table and not table.stand_on_table(p):  # a landing move may end off it too
                planes[name] = p.but(status=PlaneStatus.OUT)
                left.append(name)
        # 5. overlaps (DF.O1) and collisions (DF.C1-DF.C5)
        board = Board(list(planes.values()), batch=True)
        live = board.planes
        overlaps, collisions = [], []
        for i, a in enumerate(live):
            for j in range(i + 1, len(live)):
                if board.overlap[i, j]:
                    overlaps.append((a.name, live[j].name))
        for a_name, b_name in sorted(tuple(sorted(pair)) for pair in overlaps):
            if may_collide(planes[a_name], planes[b_name]):
                collisions.append(collision_test(planes[a_name], planes[b_name], rng))
        for test in collisions:
            for name, letter in test.damage.items():
                planes[name] = planes[name].but(damage=planes[name].damage + (letter,))
        # 6. firing (DF.O2, DF.O3, DF.A2)
        everyone = list(planes.values())
        board = Board(everyone, batch=True) if collisions else board  # damage changes no geometry
        available = shots(everyone, rules, board)
        auto_fire = []
        for p in ordered(everyone):
            if p.flying and p.autonomous:
                auto_fire.extend(autonomous_fire(p, everyone, rules, rng, board,
                                                 targets=[s.target for s in available if s.shooter == p.name]))
        # 7. bombs (DF.B1, DF.B2)
        drops = []
        for name, o in orders.items():
            if o.drops and o.drops[k] and planes[name].flying:
                planes[name], events = after_drop(planes[name], o.drops[k])
                drops.append((name, tuple(events)))
        # 8. tails checked again (DF.T2, DF.T4)
        checks = tail_checks([(c, check.target) for c, check in active.items()], list(planes.values()), rules)
        for again in checks:
            if not again.ok:
                del active[again.chaser]
        maneuvers.append(Maneuver(k + 1, tuple(reveals), tuple(moves), tuple(left), tuple(overlaps),
                                  tuple(collisions), tuple(available), tuple(auto_fire), tuple(drops),
                                  tuple(checks), tuple(planes.values())))

    after = table.but(turn=table.turn + 1, planes=tuple(planes.values()))
    return TurnResult(table, orders, seed, policy, tuple(start_tails.values()), unmet, tuple(maneuvers), after)
