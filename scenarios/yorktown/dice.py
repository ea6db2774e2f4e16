"""The continuous roll (YT.D1–D3) under a standard policy, and its exact Markov chain:
the mathematics players use to judge a roll (the engine's rolls are thrown decision by
decision, :mod:`.rolls`).

A roll aims at an **aim**: a tuple of set sizes, largest first, e.g. ``(3,)`` (three
equal results), ``(2, 2)`` (two pairs), ``(3, 2)``. A face count of ``k`` equal dice
can serve several sets (four equal results are two pairs, YT.R1). 1s never count as
equal results (YT.D2).

The standard policy played out by itself (:func:`continuous_roll`, the model the chain
computes): all active dice are thrown once; then, throw after throw, the
:class:`RollPolicy` sets aside the dice that best serve the aim and re-throws the rest (set-aside dice may be picked up again, YT.D2). A die showing 1 is
locked out for the rest of the roll and costs 1 fuel (none when landing, YT.A5);
needing fuel with none left crashes the plane (YT.A6). There is no limit on the number
of dice (YT.D3). The policy stops when the aim is met, when it can no longer be met
(fewer active dice than the aim needs), after ``max_throws`` throws, or when the fuel
left would fall to ``fuel_reserve``. Every throw costs simulated time (the caller's
``on_throw``).

The chain (:class:`RollChain`): the same policy is symmetric in the faces 2–6, so the
state after a throw is (sizes of the sets kept, active dice). :func:`throw_outcomes`
gives the exact distribution of one throw, so probabilities such as "at least a triple
within ``k`` throws with ``n`` dice" are exact (:func:`p_success`), not sampled.

Faces are ints 1–6; per-face counts are lists/tuples of length 7 (index 0 unused).
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

__all__ = ["Aim", "RollPolicy", "RollResult", "RollEnd", "continuous_roll", "satisfies", "keep_sizes",
           "keep_faces", "sets_of", "throw_outcomes", "RollChain", "p_success", "roll_summary", "chances_from",
           "count_pattern"]

Aim = tuple[int, ...]
"""Set sizes wanted, largest first: ``(2,)`` a pair, ``(3,)`` a triple, ``(2, 2)`` two pairs."""

FACES = range(2, 7)
"""The faces that can make equal results (YT.D2: never the 1s)."""
PATTERNS = 8192
"""Entries kept by the caches of dice patterns (:func:`satisfies`, :func:`keep_sizes`):
their keys are small partitions (face counts) with an aim; a long series of games with
every expansion uses about 600, so the bound is never reached in play and only stops
an unusual caller (very many dice) from growing them without end."""
THROWS = 2048
"""Entries kept by :func:`throw_outcomes` (a distribution each, up to a few thousand
outcomes for a dozen dice): a long series uses about 140."""


class RollEnd(StrEnum):
    """How a continuous roll ended."""

    MET = "met"            # the aim was met
    STOPPED = "stopped"    # the policy stopped (impossible, fuel reserve, throw limit)
    CRASHED = "crashed"    # a 1 needed fuel and none was left (YT.A6)
    TIME = "time"          # the caller's clock ran out during the roll (YT.E2)


@lru_cache(maxsize=PATTERNS)
def satisfies(sizes: tuple[int, ...], aim: Aim) -> bool:
    """Whether face counts ``sizes`` (any order) can serve every set of ``aim``: each set
    takes that many dice of one face, and a face may serve several sets (YT.D1)."""
    if not aim:
        return True
    first, rest = aim[0], aim[1:]
    tried = set()
    for i, t in enumerate(sizes):
        if t >= first and t not in tried:
            tried.add(t)
            left = tuple(sorted(sizes[:i] + (t - first,) + sizes[i + 1:], reverse=True))
            if satisfies(left, rest):
                return True
    return False


@lru_cache(maxsize=PATTERNS)
def keep_sizes(sizes: tuple[int, ...], aim: Aim, active: int) -> tuple[int, ...]:
    """The standard policy's choice: from face counts ``sizes`` (largest first), how many
    dice of each face to set aside (same order). For each set of the aim, largest
    first, take the smallest face count that completes it, else the largest count.
    At least one active die is always left to throw."""
    remaining = list(sizes)
    kept = [0] * len(sizes)
    for want in aim:
        fits = [i for i, r in enumerate(remaining) if r >= want]
        if fits:
            i = min(fits, key=lambda k: (remaining[k], k))
        elif remaining and max(remaining) > 0:
            i = max(range(len(remaining)), key=lambda k: (remaining[k], -k))
        else:
            continue
        take = min(want, remaining[i])
        kept[i] += take
        remaining[i] -= take
    if sum(kept) >= active and active > 0:  # leave one die to throw
        j = max(i for i, k in enumerate(kept) if k > 0 and kept[i] == min(x for x in kept if x > 0))
        kept[j] -= 1
    return tuple(kept)


def keep_faces(counts: Sequence[int], aim: Aim, active: int) -> list[int]:
    """:func:`keep_sizes` on per-face counts (index = face): dice set aside per face.
    Faces are ordered by count, then by face value (higher first)."""
    order = sorted(FACES, key=lambda f: (-counts[f], -f))
    kept = keep_sizes(tuple(counts[f] for f in order), aim, active)
    out = [0] * 7
    for f, k in zip(order, kept):
        out[f] = k
    return out


def sets_of(counts: Sequence[int]) -> tuple[int, ...]:
    """Counts of faces 2–6 that show at least one die, largest first."""
    return tuple(sorted((counts[f] for f in FACES if counts[f]), reverse=True))


def count_pattern(counts: Sequence[int], equal: int, faces: Sequence[int]) -> int:
    """How many disjoint sets of ``equal`` dice of one of ``faces`` the counts hold
    (YT.R1: four equal results are two pairs)."""
    return sum(counts[f] // equal for f in faces)


@dataclass(frozen=True)
class RollPolicy:
    """When to stop re-throwing (data: ``rules.toml`` ``[roll]``): after ``max_throws``
    throws, or when the fuel left is at most ``fuel_reserve`` (so a 1 is not paid with
    the last fuel point). The first throw always happens."""

    max_throws: int = 8
    fuel_reserve: int = 1


@dataclass(frozen=True)
class RollResult:
    """A finished roll: ``end``, ``throws``, the per-face ``counts`` of the dice showing
    at the end (1s excluded), ``ones`` locked, ``fuel_spent`` on them, and the
    ``history`` of throws (the faces each throw showed)."""

    end: RollEnd
    throws: int
    counts: tuple[int, ...]
    ones: int
    fuel_spent: int
    history: tuple[tuple[int, ...], ...]

    @property
    def sets(self) -> tuple[int, ...]:
        """Counts of the faces 2-6 showing at the end, largest first."""
        return sets_of(self.counts)

    @property
    def best(self) -> int:
        """The largest number of equal results showing (0 when none)."""
        s = self.sets
        return s[0] if s else 0


def continuous_roll(dice: int, aim: Aim, policy: RollPolicy, draw: Callable[[int], list[int]],
                    fuel: int | None, on_throw: Callable[[], bool] | None = None,
                    reroll_first_one: bool = False) -> RollResult:
    """Run one continuous roll (YT.D1–D3) of ``dice`` dice towards ``aim``.

    ``draw(r)`` returns ``r`` faces 1–6; ``fuel``: fuel points available for the 1s
    (``None``: 1s lock but cost nothing — landing, YT.A5, or the Efficient maneuver);
    ``on_throw()`` is called before every throw and returns ``False`` when the clock ran
    out (the roll ends with :attr:`RollEnd.TIME`); ``reroll_first_one``: the Decisive
    maneuver (the first 1 of the roll is thrown again instead of locking).
    """
    need = sum(aim)
    counts = [0] * 7
    kept = [0] * 7
    active, ones, spent, throws = dice, 0, 0, 0
    history = []
    while True:
        if active < need or throws >= policy.max_throws:
            return RollResult(RollEnd.STOPPED, throws, tuple(counts), ones, spent, tuple(history))
        if throws and fuel is not None and fuel - spent <= policy.fuel_reserve:
            return RollResult(RollEnd.STOPPED, throws, tuple(counts), ones, spent, tuple(history))
        if on_throw is not None and not on_throw():
            return RollResult(RollEnd.TIME, throws, tuple(counts), ones, spent, tuple(history))
        r = active - sum(kept)
        faces = draw(r)
        if reroll_first_one and 1 in faces:
            reroll_first_one = False
            faces[faces.index(1)] = draw(1)[0]
        throws += 1
        history.append(tuple(faces))
        counts = list(kept)
        for f in faces:
            if f == 1:
                ones += 1
                active -= 1
                if fuel is not None:
                    if spent >= fuel:
                        return RollResult(RollEnd.CRASHED, throws, tuple(counts), ones, spent, tuple(history))
                    spent += 1
            else:
                counts[f] += 1
        if satisfies(sets_of(counts), aim):
            return RollResult(RollEnd.MET, throws, tuple(counts), ones, spent, tuple(history))
        kept = keep_faces(counts, aim, active)


# -- the exact chain -----------------------------------------------------------------
@lru_cache(maxsize=THROWS)
def throw_outcomes(kept: tuple[int, ...], r: int, cap: int) -> tuple[tuple[int, tuple[int, ...], float], ...]:
    """The exact distribution of one throw of ``r`` dice when the dice set aside show
    ``kept`` (counts of distinct faces 2–6): ``(ones, face counts after the throw
    (largest first, each capped at ``cap``), probability)`` triples."""
    base = tuple(kept) + (0,) * (5 - len(kept))
    fact = math.factorial
    layer: dict = {(c, c, ()): 1.0 / fact(c) for c in range(r + 1)}  # (used, ones, totals) -> weight
    for k, b in enumerate(base):
        last = k == len(base) - 1
        nxt: dict = defaultdict(float)
        for (used, ones, tot), w in layer.items():
            for c in ([r - used] if last else range(r - used + 1)):
                t = min(b + c, cap)
                key = (used + c, ones, tuple(sorted(tot + (t,), reverse=True)))
                nxt[key] += w / fact(c)
        layer = nxt
    scale = fact(r) / 6 ** r
    out: dict = defaultdict(float)
    for (_used, ones, tot), w in layer.items():
        out[(ones, tuple(t for t in tot if t))] += w * scale
    return tuple((o, t, p) for (o, t), p in sorted(out.items()))


class RollChain:
    """The Markov chain of :func:`continuous_roll` under the standard policy.

    States: ``("rolling", kept sizes, active dice, dice)`` and the absorbing
    ``(RollEnd.MET,)``, ``(RollEnd.CRASHED,)``, ``(RollEnd.STOPPED, sizes)``. ``fuel``
    as in :func:`continuous_roll` (``None``: 1s cost nothing). Exact for the success,
    crash and stop probabilities; a roll the policy stopped is described by the face
    counts showing (capped at the aim's total) — exact; a roll cut by the throw limit
    by the sets it had kept (its best set is exact unless the policy had just freed a
    die of it to keep one die rolling).
    """

    def __init__(self, aim: Aim, policy: RollPolicy, fuel: int | None):
        self.aim, self.policy, self.fuel = tuple(aim), policy, fuel
        self.need = sum(aim)
        self._step: dict = {}

    def start(self, dice: int):
        """The state before the first throw of ``dice`` dice (stopped at once if too few)."""
        return (RollEnd.STOPPED, ()) if dice < self.need else ("rolling", (), dice, dice)

    def step(self, state) -> tuple:
        """``(next state, probability)`` pairs of one throw from a rolling state."""
        cached = self._step.get(state)
        if cached is not None:
            return cached
        _, kept, active, dice = state
        locked = dice - active
        fuel_left = None if self.fuel is None else self.fuel - locked
        out: dict = defaultdict(float)
        for ones, sizes, p in throw_outcomes(kept, active - sum(kept), self.need):
            if fuel_left is not None and ones > fuel_left:
                out[(RollEnd.CRASHED,)] += p
                continue
            if satisfies(sizes, self.aim):
                out[(RollEnd.MET,)] += p
                continue
            left = active - ones
            if left < self.need or (fuel_left is not None and fuel_left - ones <= self.policy.fuel_reserve):
                out[(RollEnd.STOPPED, sizes)] += p
            else:
                kept2 = tuple(k for k in sorted(keep_sizes(sizes, self.aim, left), reverse=True) if k)
                out[("rolling", kept2, left, dice)] += p
        result = tuple(out.items())
        self._step[state] = result
        return result

    def distribution(self, dice: int, throws: int | None = None) -> dict:
        """The state distribution after at most ``throws`` throws (default the policy's
        ``max_throws``); rolling states left at the end are reported as stopped."""
        return self.distribution_from(self.start(dice), self.policy.max_throws if throws is None else throws)

    def distribution_from(self, state, limit: int) -> dict:
        """The state distribution after at most ``limit`` more throws from ``state``."""
        dist = {state: 1.0}
        for _ in range(limit):
            nxt: dict = defaultdict(float)
            moved = False
            for state, p in dist.items():
                if state[0] == "rolling":
                    moved = True
                    for s2, q in self.step(state):
                        nxt[s2] += p * q
                else:
                    nxt[state] += p
            dist = nxt
            if not moved:
                break
        final: dict = defaultdict(float)
        for state, p in dist.items():
            final[(RollEnd.STOPPED, state[1]) if state[0] == "rolling" else state] += p
        return dict(final)


@lru_cache(maxsize=4096)
def _chain(aim: Aim, policy: RollPolicy, fuel: int | None) -> RollChain:
    return RollChain(aim, policy, fuel)


@lru_cache(maxsize=65536)
def roll_summary(dice: int, aim: Aim, policy: RollPolicy, fuel: int | None,
                 throws: int | None = None) -> tuple[float, float, tuple[float, ...]]:
    """``(P(aim met), P(crash), P(best set is k) for k = 0..sum(aim))`` of a roll of
    ``dice`` dice (exact, from :class:`RollChain`; cached). A met aim counts as best
    set ``aim[0]`` or more."""
    dist = _chain(tuple(aim), policy, fuel).distribution(max(0, dice), throws)
    best = [0.0] * (sum(aim) + 1)
    met = crash = 0.0
    for state, p in dist.items():
        if state[0] == RollEnd.MET:
            met += p
            best[aim[0]] += p
        elif state[0] == RollEnd.CRASHED:
            crash += p
        else:
            kept = state[1]
            best[kept[0] if kept else 0] += p
    return met, crash, tuple(best)


@lru_cache(maxsize=65536)
def chances_from(kept: tuple[int, ...], active: int, aim: Aim, policy: RollPolicy, fuel: int | None,
                 throws: int) -> tuple[float, float]:
    """``(P(aim met), P(crash))`` of going on with a roll under the standard policy:
    ``active`` dice in play of which sets of sizes ``kept`` (largest first) stay on the
    table for the next throw, ``fuel`` for its 1s (``None``: free), at most ``throws``
    more throws (exact, from :class:`RollChain`; cached). Used by players to judge
    whether one more throw is worth its time and its risk."""
    chain = _chain(tuple(aim), policy, fuel)
    if active < chain.need or throws <= 0:
        return 0.0, 0.0
    dist = chain.distribution_from(("rolling", tuple(kept), active, active), throws)
    return dist.get((RollEnd.MET,), 0.0), dist.get((RollEnd.CRASHED,), 0.0)


def p_success(dice: int, aim: Aim, throws: int, fuel: int | None = None, policy: RollPolicy | None = None) -> float:
    """P(the aim is met within ``throws`` throws of a continuous roll of ``dice`` dice)
    under the standard policy (exact; YT.D1–D3). E.g. ``p_success(3, (2,), 1)`` is the
    chance of a pair of 2–6 in one throw of three dice."""
    policy = policy or RollPolicy(max_throws=throws, fuel_reserve=-1)
    return roll_summary(dice, tuple(aim), policy, fuel, throws)[0]
