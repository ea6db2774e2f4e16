"""One turn of the dogfight, adjudicated card by card.

Order of play (DF.M1, DF.T2), for each of the three maneuvers; each step is one
function of this module, and :func:`adjudicate` calls them in this order:

1. :func:`draw_autonomous_cards`: autonomous planes draw their card (DF.A1);
2. :func:`reveal_and_reorder`: before the first and the second maneuver only, every
   active tail: the target shows its card and the chaser may reorder its remaining
   cards (DF.T2). Reveals run in the tail graph's order, targets first, so a card shown
   is the card flown: in a chain (C tails A, A tails B) B shows, A may reorder, then A
   shows its (possibly reordered) card to C. In a cycle of tails each member shows its
   planned card, which is then fixed; it may reorder only the cards after it. The
   reorder is the ``chooser``'s when :func:`adjudicate` is given one (the chaser's own
   choice, :mod:`.state`), else the reorder ``policy``'s;
3. :func:`move_planes`: every plane in the air moves at once (DF.M1-DF.M4);
   climb/descent cards change altitude and counters (DF.H3-DF.H6);
4. :func:`leave_table`: planes whose stand is off the table leave the game (DF.E1);
5. :func:`overlaps_and_collisions`: overlapping bases are listed (DF.O1); pairs at the
   same altitude take the collision test (DF.C1-DF.C5), a landed plane included (DF.H3);
   each colliding plane draws its damage card, "A" or "C" with a balloon, whose only
   special that applies is an explosion (DF.C4, DF.C5, DF.D5);
6. :func:`firing`: firing positions are listed (DF.O2, DF.O3); every gun that has a
   target fires at one (DF.D3): autonomous planes every gun, always (DF.A2), and so
   does every other plane, at the closest target of each gun (jammed guns do not,
   DF.D6);
7. :func:`damage_from_shots`: each gun that fires draws its cards (two at short range,
   one at long range, DF.D3); the shots are simultaneous (DF.D4); an explosion destroys
   at once (DF.D5);
8. :func:`drop_bombs`: planned bombs are dropped (DF.B2);
9. :func:`end_of_maneuver`: specials burn and count down (DF.D6); planes whose damage
   reached their damage points are destroyed (DF.D5);
10. :func:`recheck_tails`: each tail is checked again with the full tailing test; a
    lost tail stays lost (DF.T4).

Tails are chosen once, at the start of the turn (DF.T1, DF.T3: :func:`_start_turn`,
which also checks the orders). Randomness follows the engines' step scheme
(:func:`~furball.scenarios.engine.frozen.step_rng`) with the turn as the step: every
random draw of the maneuvers comes from ``step_rng(seed, turn)`` (numpy's
``default_rng([seed, turn])``), consumed in a fixed order (autonomous draws, collision
draws, autonomous fire ties), each step in plane-name order: the result does not depend
on the order the planes are listed in. Damage has its own stream of the same step,
``step_rng(seed, turn, 1)`` (pile shuffles and the other planes' target ties,
:mod:`.damage`), so the maneuvers draw the same with or without damage.
"""
from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from furball.errors import InputError
from furball.geometry.pose import Pose
from furball.maneuvers.altitude import after_card, after_drop
from furball.maneuvers.batch import Planes
from furball.maneuvers.collision import CollisionTest, collision_tests, may_collide
from furball.maneuvers.firing import FiringRange, Shot, autonomous_fire, firing_positions
from furball.maneuvers.kernels import stands_on_table
from furball.maneuvers.path import PathSamples, arrow_points, path_poses
from furball.maneuvers.placement import card_motion, place_batch
from furball.maneuvers.plan import CARDS_PER_TURN, check_plan
from furball.maneuvers.plane import PlaneState, PlaneStatus
from furball.maneuvers.tailing import TailCheck, choose_tails, tail_checks

from ..engine.frozen import step_rng
from .damage import DamageCause, DamageDraw, Loss, LossReason, Piles, take_card
from .damage import end_of_maneuver as end_of_maneuver_of
from .policy import POLICY_FUNCTIONS, ReorderPolicy, Situation
from .table import Orders, Table, needs_plan, normalise_orders, ordered

__all__ = ["Move", "Reveal", "Maneuver", "TurnResult", "adjudicate", "REVEALED_CARDS", "Chooser"]

Chooser = Callable[[Situation], Sequence[str]]
"""Who reorders a chaser's remaining cards after a reveal (DF.T2): the order, from what
the chaser knows then (:class:`~.policy.Situation`)."""

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


@dataclass(frozen=True, kw_only=True)
class Maneuver:
    """Everything that happened in maneuver ``index`` (1..3); ``planes``: everyone after
    it. ``fire``: the shots fired (one per gun that fires, DF.D3, autonomous ones
    included), ``damage``: every damage card drawn and every fire burning (DF.D1-DF.D7,
    DF.C4, DF.C5), ``lost``: the planes destroyed (DF.D5)."""

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
    fire: tuple[Shot, ...] = ()
    damage: tuple[DamageDraw, ...] = ()
    lost: tuple[Loss, ...] = ()


@dataclass(frozen=True, kw_only=True)
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
    def damage(self) -> tuple[DamageDraw, ...]:
        """Every damage card drawn (and fire burning) in the turn, maneuver by maneuver."""
        return tuple(d for m in self.maneuvers for d in m.damage)

    @property
    def lost(self) -> tuple[Loss, ...]:
        """Every plane lost in the turn: destroyed (DF.D5) or off the table (DF.E1)."""
        return tuple(x for m in self.maneuvers for x in
                     (*(Loss(n, LossReason.LEFT_TABLE) for n in m.left_table), *m.lost))

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
               samples: bool = True, chooser: Chooser | None = None) -> TurnResult:
    """Adjudicate one turn of ``table`` (rules DF.M1-DF.M5, DF.T1-DF.T7, DF.O1-DF.O3,
    DF.C1-DF.C5, DF.E1, DF.B1-DF.B2, DF.A1-DF.A2, DF.H1-DF.H6; order of play in the
    module docstring, one function per step).

    ``orders``: plane name -> :class:`Orders`, or a sequence of three card ids (the
    plan); every plane flying, not a balloon and not autonomous needs one. ``seed``:
    integer >= 0 for every random draw (default: a fresh one, reported in the result).
    ``policy``: how a chaser reorders after a reveal (:class:`ReorderPolicy`).
    ``samples``: also sample each card's path and arrow (for drawing; costs time).
    ``chooser``: who reorders after a reveal instead of the policy (DF.T2): a callable
    ``(Situation) -> order``, e.g. the chasers' recorded choices, which may raise to
    stop the turn at a choice not made yet (:class:`~.state.State` does; the exception
    goes through unchanged and nothing is kept).

    Returns a :class:`TurnResult`; ``result.after`` is the next :class:`Table`. Raises
    :class:`~furball.errors.InputError` (one line naming plane, field, card and rule:
    a :class:`~furball.maneuvers.plan.PlanError` for an illegal plan) for bad orders, a
    bad seed or an unknown policy; nothing is computed then.
    """
    work = _start_turn(table, orders, seed, policy, samples)
    work.chooser = chooser
    maneuvers = []
    for k in range(CARDS_PER_TURN):
        draw_autonomous_cards(work, k)                                  # 1.
        reveals = reveal_and_reorder(work, k)                           # 2.
        moves = move_planes(work, k)                                    # 3.
        left = leave_table(work)                                        # 4.
        board, overlaps, collisions = overlaps_and_collisions(work)     # 5.
        available, auto_fire, fire = firing(work, board, collisions)    # 6.
        damage_from_shots(work, fire)                                   # 7.
        drops = drop_bombs(work, k)                                     # 8.
        end_of_maneuver(work)                                           # 9.
        checks = recheck_tails(work)                                    # 10.
        maneuvers.append(Maneuver(index=k + 1, reveals=reveals, moves=moves, left_table=left, overlaps=overlaps,
                                  collisions=collisions, shots=available, autonomous_fire=auto_fire, drops=drops,
                                  tail_checks=checks, planes=tuple(work.planes.values()), fire=fire,
                                  damage=tuple(work.damage), lost=tuple(work.lost)))
        work.damage.clear()
        work.lost.clear()
    after = table.replace(turn=table.turn + 1, planes=tuple(work.planes.values()), piles=work.piles.frozen())
    return TurnResult(before=table, orders=work.orders, seed=work.seed, policy=work.policy, tails=work.start_tails,
                      unmet_wishes=work.unmet, maneuvers=tuple(maneuvers), after=after)


@dataclass
class _Turn:
    """The turn being adjudicated (mutable, private to :func:`adjudicate`): the table,
    the checked orders, each plane's cards for this turn (``plans``, reordered by reveals
    and grown by autonomous draws), the planes as they are now (name -> state, in table
    order), the planes at the start of the turn, the tails still active, the random
    generator and the reorder policy; the damage piles (:class:`~.damage.Piles`), and the
    damage drawn and planes lost in the maneuver being resolved."""

    table: Table
    orders: dict[str, Orders]
    seed: int
    policy: ReorderPolicy
    samples: bool
    plans: dict[str, list[str]]
    rng: np.random.Generator
    planes: dict[str, PlaneState]
    at_start: dict[str, PlaneState]
    start_tails: tuple[TailCheck, ...]
    unmet: tuple[TailCheck, ...]
    active: dict[str, TailCheck]
    piles: Piles
    damage: list[DamageDraw] = field(default_factory=list)
    lost: list[Loss] = field(default_factory=list)
    board: Planes | None = None
    chooser: Chooser | None = None


def _start_turn(table: Table, orders, seed, policy, samples: bool) -> _Turn:
    """Check the policy, seed and orders (every plan legal, DF.M1-DF.M5, DF.B1, DF.H3),
    then choose the tails of the turn (DF.T1, DF.T3; wishes that cannot be met are
    kept with their reasons)."""
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
    planes = {p.name: p for p in table.planes}
    wishes = {n: o.tail for n, o in orders.items() if o.tail is not None}
    start_tails = choose_tails(list(planes.values()), rules, wishes)
    unmet = tuple(tail_checks([(c, t) for c, t in sorted(wishes.items()) if c not in start_tails],
                              list(planes.values()), rules))
    return _Turn(table, orders, seed, policy, samples, plans, step_rng(seed, table.turn), planes,
                 dict(planes), tuple(start_tails.values()), unmet, dict(start_tails), Piles(table, seed))


def draw_autonomous_cards(work: _Turn, k: int) -> None:
    """Step 1 (DF.A1): each autonomous plane in the air draws its card for maneuver
    ``k`` (0-based): an independent uniform draw from its deck's 8 cards, in plane-name
    order."""
    for p in ordered(work.planes.values()):
        if p.flying and p.autonomous:
            pool = p.deck.autonomous
            work.plans[p.name].append(pool[int(work.rng.integers(len(pool)))])


def reveal_and_reorder(work: _Turn, k: int) -> tuple[Reveal, ...]:
    """Step 2 (DF.T2): before the first and the second maneuver only, each active tail's
    target shows its next card and the chaser may reorder its remaining cards (the
    chooser decides, else the policy), targets first (:func:`_reveal_order`)."""
    if k >= REVEALED_CARDS:
        return ()
    reorder = work.chooser or POLICY_FUNCTIONS[work.policy]
    planes, plans, active = work.planes, work.plans, work.active
    reveals = []
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
            chaser_at_turn_start=work.at_start[chaser_name], drops=work.orders[chaser_name].drops,
            planes=tuple(ordered(planes.values())), rules=work.table.rules, next_fixed=fixed)))
        if sorted(after) != sorted(before):  # pragma: no cover - a policy bug
            raise RuntimeError(f"the chooser returned {after}, not a reordering of {before}")
        plans[chaser_name][free:] = list(after)
        reveals.append(Reveal(chaser_name, target_name, shown, before, after, fixed))
    return tuple(reveals)


def move_planes(work: _Turn, k: int) -> tuple[Move, ...]:
    """Step 3 (DF.M1-DF.M4, DF.H3-DF.H6): every plane in the air flies its card ``k``
    at once (placed as one batch: :func:`~maneuvers.placement.place_batch`, the same
    poses as :func:`~maneuvers.placement.place` one by one); climb and descent cards
    change altitude and counters."""
    max_altitude = work.table.rules.max_altitude
    movers = [p for name, p in work.planes.items() if p.flying and not p.is_balloon and name in work.plans]
    cards = [p.deck.card(work.plans[p.name][k]) for p in movers]
    if not movers:
        return ()
    ends = place_batch(np.array([p.pose.as_array() for p in movers]),
                       np.array([card_motion(card, p.base).as_array() for p, card in zip(movers, cards)]))
    moves = []
    for p, card, end in zip(movers, cards, ends.reshape(-1, 3)):
        end = Pose.from_array(end)
        moved, events = after_card(p.replace(pose=end, last_card=card.id), card, max_altitude)
        work.planes[p.name] = moved
        moves.append(Move(p.name, card.id, card.name, p.pose, end, moved.altitude, moved.climb_counters,
                          tuple(events), path_poses(p.pose, card, p.base) if work.samples else None,
                          arrow_points(p.pose, card, p.base) if work.samples else None))
    return tuple(moves)


def leave_table(work: _Turn) -> tuple[str, ...]:
    """Step 4 (DF.E1): planes on the table whose stand is off it leave the game (a
    landing move may end off it too); every stand judged at once
    (:func:`~maneuvers.kernels.stands_on_table`, the rule of ``Table.stand_on_table``).
    The batch of the planes still on the table (:class:`~maneuvers.batch.Planes`, built
    once for the maneuver's geometry) is kept for steps 5 and 6."""
    here = [(name, p) for name, p in work.planes.items() if p.on_table]
    board = Planes.of([p for _, p in here])
    on = stands_on_table(board.stands, work.table.width_mm, work.table.height_mm)
    left = []
    for (name, p), stays in zip(here, on):
        if not stays:
            work.planes[name] = p.replace(status=PlaneStatus.OUT)
            left.append(name)
    work.board = board.take(np.flatnonzero(on)) if left else board
    return tuple(left)


def overlaps_and_collisions(work: _Turn) -> tuple[Planes, tuple[tuple[str, str], ...], tuple[CollisionTest, ...]]:
    """Step 5 (DF.O1, DF.C1-DF.C5): the overlapping pairs of bases on the table (by the
    batch kernels), and the collision test of each pair that may collide (in name
    order); each colliding plane draws its damage card ("A", or "C" with a balloon),
    whose special applies only if it is an explosion, which destroys the plane at once
    (DF.C4, DF.D5). Returns the board (the bases' arrays) too, for step 6."""
    planes = work.planes
    board = work.board if work.board is not None else Planes.on_table_of(planes.values())
    live = board.states
    overlaps = [(live[i].name, live[j].name) for i, j in zip(*np.nonzero(np.triu(board.overlap, 1)))]
    pairs = [(planes[a], planes[b]) for a, b in sorted(tuple(sorted(pair)) for pair in overlaps)
             if may_collide(planes[a], planes[b], overlapping=True)]
    collisions = collision_tests(pairs, work.rng)
    for test in collisions:
        for name, letter in test.damage.items():
            other = test.b if name == test.a else test.a
            _take(work, name, letter, DamageCause.COLLISION, other)
    return board, tuple(overlaps), tuple(collisions)


def _take(work: _Turn, name: str, letter: str, cause: DamageCause, by: str | None) -> bool:
    """``name`` draws one card of deck ``letter``; returns whether it exploded."""
    deck, card, reshuffled = work.piles.draw(letter)
    work.planes[name], draw, exploded = take_card(work.planes[name], deck, card, cause, by, reshuffled)
    work.damage.append(draw)
    if exploded:
        work.lost.append(Loss(name, LossReason.EXPLOSION))
    return exploded


def firing(work: _Turn, board: Planes, collisions) -> tuple[tuple[Shot, ...], tuple[Shot, ...], tuple[Shot, ...]]:
    """Step 6 (DF.O2, DF.O3, DF.A2, DF.D3): every firing position on the table; the shots
    of each autonomous plane's guns (in name order, ties drawn from the turn's
    generator); and the shots fired: one per gun (an arc with a gun letter, DF.D2) of
    every plane whose guns are not jammed (DF.D6) — an autonomous plane's as above, any
    other's at its closest target in that arc (ties: the more damage cards, then at
    random from the damage generator)."""
    everyone = list(work.planes.values())
    if collisions:  # an explosion may have removed a plane (damage alone changes no geometry)
        board = Planes.on_table_of(everyone)
    rules = work.table.rules
    positions = firing_positions(board, rules)
    available = positions.best
    targets: dict[str, list[str]] = {}
    for s in available:
        targets.setdefault(s.shooter, []).append(s.target)
    auto_fire, fire = [], []
    for p in ordered(everyone):
        if not (p.flying and not p.is_balloon and p.name in targets) or p.guns_silent:
            continue
        rng = work.rng if p.autonomous else work.piles.rng
        chosen = autonomous_fire(p, everyone, rules, rng, board, targets=targets[p.name], positions=positions)
        if p.autonomous:
            auto_fire.extend(chosen)
        fire.extend(s for s in chosen if p.gun_letter(s.arc, rules) is not None)
    return tuple(available), tuple(auto_fire), tuple(fire)


def damage_from_shots(work: _Turn, fire: Sequence[Shot]) -> None:
    """Step 7 (DF.D3-DF.D5): each shot fired draws cards of its gun's deck, two at short
    range and one at long range (``rules.short_range_cards``, ``long_range_cards``),
    shooter by shooter in name order. The shots are simultaneous (DF.D4): a shooter
    destroyed by this maneuver's shots still fires. An explosion destroys the target at
    once: no more cards are drawn against it."""
    rules = work.table.rules
    for shot in fire:
        shooter = work.planes[shot.shooter]
        letter = shooter.gun_letter(shot.arc, rules)
        cards = rules.short_range_cards if shot.range == FiringRange.SHORT else rules.long_range_cards
        for _ in range(cards):
            if work.planes[shot.target].status == PlaneStatus.DESTROYED:
                break
            _take(work, shot.target, letter, DamageCause.SHOT, shot.shooter)


def drop_bombs(work: _Turn, k: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Step 8 (DF.B1, DF.B2): the bombs planned for maneuver ``k`` are dropped."""
    drops = []
    for name, o in work.orders.items():
        if o.drops and o.drops[k] and work.planes[name].flying:
            work.planes[name], events = after_drop(work.planes[name], o.drops[k])
            drops.append((name, tuple(events)))
    return tuple(drops)


def end_of_maneuver(work: _Turn) -> None:
    """Step 9 (DF.D5, DF.D6): for every plane on the table, in name order, the specials
    received before this maneuver burn and count down, and a plane whose damage reached
    its damage points is destroyed."""
    for p in ordered(work.planes.values()):
        if not p.on_table:  # a plane lost in this maneuver keeps its specials as they were received
            if any(e.fresh for e in p.effects):
                work.planes[p.name] = p.replace(effects=tuple(dataclasses.replace(e, fresh=False) for e in p.effects))
            continue
        work.planes[p.name], burn, loss = end_of_maneuver_of(p)
        if burn is not None:
            work.damage.append(burn)
        if loss is not None:
            work.lost.append(loss)


def recheck_tails(work: _Turn) -> tuple[TailCheck, ...]:
    """Step 10 (DF.T2, DF.T4): every active tail is checked again with the full test; a
    lost tail stays lost."""
    checks = tail_checks([(c, check.target) for c, check in work.active.items()], list(work.planes.values()),
                         work.table.rules)
    for again in checks:
        if not again.ok:
            del work.active[again.chaser]
    return tuple(checks)
