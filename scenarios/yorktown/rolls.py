"""The continuous roll as the rules play it (YT.D1–D3): throw, keep, throw again while
the player wishes and can, then judge the result (YT.A1, YT.A5, YT.A7, YT.A9).

A roll in progress is a :class:`Roll` value in the state (``state.roll``), visible to
every seat: the dice it started with, the faces showing on its active dice, the dice
locked on a 1, the throws so far and the latest throw. Its decisions are explicit
actions (``describe()`` words each one):

* ``throw`` with ``keep`` — the faces whose dice stay on the table; every other active
  die is thrown again. Dice set aside may be picked up again by a later throw (YT.D2).
  The first throw, of every die, happens when the action starts. A die showing 1 is
  locked for the rest of the roll and costs 1 fuel (none when landing, YT.A5, nor with
  the Efficient maneuver); a 1 with no fuel left crashes the plane (YT.A6) and the roll
  is lost. Every throw costs the clock's ``throw`` seconds (YT.S4).
* ``stop`` — the roll ends and its result is judged: a search's best set (YT.A1), a
  landing's (YT.A5), a weather tile's; an attack's results go to any targets of its
  declared :class:`~.actions.Scope` (YT.A7): several kills in one roll, lesser results
  counted (a pair is one hit on the Shōhō).
* ``assign`` — after an attack's ``stop``, when its results can be split in more than
  one best way: which targets get which sets.

Engine conventions (``docs/yorktown.md``): the dice of one face are kept or thrown
together; a roll with no die left to throw, or whose result cannot get better (three
equal for a search or a landing, every target served), offers only ``stop``; an
assignment menu lists the outcomes no other outcome beats.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from furball.i18n import N_, Message, msg

from .actions import FACES, Kind, Maneuver, Target, action, plane_name

if TYPE_CHECKING:
    from .work import Work

__all__ = ["Purpose", "Roll", "counts_of", "outcomes", "throw", "roll_menu", "assign_menu", "faces_text",
           "assignment_faces", "LANDINGS", "ATTACKS", "TARGET_ORDER"]

TARGET_ORDER = {t: i for i, t in enumerate(Target)}


class Purpose(StrEnum):
    """What a roll is for."""

    SEARCH = "search"                  # YT.A1
    WEATHER = "weather search"         # expansion
    ATTACK = "attack"                  # YT.A7
    LIGHTNING = "Lightning Attack"     # YT.A9
    LANDING = "landing"                # YT.A5
    EMERGENCY = "emergency landing"    # YT.A9


PURPOSE_WORDS = (N_("search"), N_("weather search"), N_("attack"), N_("Lightning Attack"), N_("landing"),
                 N_("emergency landing"))
"""The purposes' words as the log writes them (``rolls 3 dice for its search``), for the catalog."""
LANDINGS = (Purpose.LANDING, Purpose.EMERGENCY)
ATTACKS = (Purpose.ATTACK, Purpose.LIGHTNING)


@dataclass(frozen=True)
class Roll:
    """A continuous roll in progress (see the module doc).

    ``plane`` rolls ``dice`` dice for ``purpose``; ``targets``: what an attack's
    results may go to (its scope at the start, one entry per plane or CAP Zeke);
    ``maneuver``: the expert tile played with the action; ``faces``: the faces 2–6
    showing on the active dice, sorted; ``ones``: dice locked on a 1; ``throws``;
    ``last``: the latest throw's faces in throw order (1s included); ``rerolled``:
    the Decisive maneuver has thrown its 1 again."""

    plane: int
    purpose: Purpose
    dice: int
    targets: tuple[Target, ...] = ()
    maneuver: Maneuver | None = None
    faces: tuple[int, ...] = ()
    ones: int = 0
    throws: int = 0
    last: tuple[int, ...] = ()
    rerolled: bool = False

    @property
    def fuel_costs(self) -> bool:
        """Whether a 1 costs fuel (YT.D2): not when landing (YT.A5), nor with Efficient."""
        return self.purpose not in LANDINGS and self.maneuver != Maneuver.EFFICIENT

    @property
    def counts(self) -> tuple[int, ...]:
        """Dice showing per face (index = face, 0 and 1 unused)."""
        return counts_of(self.faces)

    @property
    def best(self) -> int:
        """The most equal results showing (0 with no die)."""
        c = self.counts
        return max(c[f] for f in FACES)


def counts_of(faces: Iterable[int]) -> tuple[int, ...]:
    """Per-face counts (index = face 0–6) of ``faces``."""
    out = [0] * 7
    for f in faces:
        out[f] += 1
    return tuple(out)


def faces_text(faces: Iterable[int]) -> str:
    """``3 3 5`` (``-`` for none)."""
    text = " ".join(map(str, faces))
    return text or "-"


# -- the mechanics (YT.D2) --------------------------------------------------------------
def throw(w: Work, keep: tuple[int, ...]) -> str:
    """One throw of the roll ``w.roll``: the dice showing a face of ``keep`` stay, every
    other active die is thrown (all of them at the first throw). Returns ``"thrown"``,
    ``"crashed"`` (a 1 with no fuel left: the plane crashed, YT.A6, the roll is over) or
    ``"time"`` (the clock ran out before the throw: the game is lost, YT.E2)."""
    roll = w.roll
    p = roll.plane
    kept = [f for f in roll.faces if f in keep] if roll.throws else []
    n = (len(roll.faces) - len(kept)) if roll.throws else roll.dice
    if not w.on_throw():
        return "time"
    faces = w.draw(n)
    rerolled = roll.rerolled
    again = None
    if roll.maneuver == Maneuver.DECISIVE and not rerolled and 1 in faces:
        again = w.draw(1)[0]
        faces[faces.index(1)] = again
        rerolled = True
    ones = faces.count(1)
    showing = tuple(sorted(kept + [f for f in faces if f != 1]))
    w.roll = replace(roll, faces=showing, ones=roll.ones + ones, throws=roll.throws + 1, last=tuple(faces),
                     rerolled=rerolled)
    if w.logging:
        if kept:
            what = msg("keeps {faces}, throws {n}", faces=faces_text(kept), n=n)
        elif n == 1:
            what = msg("throws {n} die", n=n)
        else:
            what = msg("throws {n} dice", n=n)
        note = msg(" (Decisive: the first 1 thrown again: {again})", again=again) if again is not None else ""
        locked: str | Message = ""
        if ones and roll.fuel_costs:
            locked = msg("; {ones} one(s) locked", ones=ones)
        elif ones:
            locked = msg("; {ones} one(s) locked (no fuel: a landing)", ones=ones)
        w.log("  throw {}: {}: {}{} -> showing {}{}", roll.throws + 1, what, faces_text(faces), note,
              faces_text(showing), locked)
    if ones and roll.fuel_costs:
        if w.fuel[p] < ones:
            w.fuel[p] = 0
            w.log("  a 1 needs fuel and {} has none left: it crashes (YT.A6); the roll is lost", plane_name(p))
            w.roll = None
            w.crash(p, hurt=True)
            return "crashed"
        w.fuel[p] -= ones
        w.log("  {} pays {} fuel for the 1s (fuel {})", plane_name(p), ones, w.fuel[p])
    return "thrown"


# -- judging an attack (YT.A7) ------------------------------------------------------------
Outcome = tuple[tuple[Target, ...], tuple[int, ...]]
"""Targets served and the set size each gets (aligned; the Shōhō's size gives its hits)."""
OUTCOMES = 16384
"""Answers kept by :func:`outcomes` (keys: the faces showing and the targets; a long
series meets a few thousand)."""


@lru_cache(maxsize=OUTCOMES)
def outcomes(counts: tuple[int, ...], targets: tuple[Target, ...], needs: tuple[tuple[Target, int], ...],
             perfect: int, damage_by_size: tuple[int, ...]) -> tuple[Outcome, ...]:
    """The ways worth choosing to assign a roll's results (per-face ``counts``) to
    ``targets`` (YT.A7): each plane or CAP Zeke takes a set of equal results of one face
    as large as ``needs`` says for its kind, the Shōhō one set of 2 or more (up to
    ``perfect``), whose damage is ``damage_by_size[size]``; a face may serve several
    sets (four equal are two pairs). Only outcomes no other beats are returned (every
    kill of it and at least its damage), best first; ``()`` when no target can be
    served. A pure function of public values, cached."""
    need = dict(needs).__getitem__

    def shoho_damage(size: int) -> int:
        return damage_by_size[min(size, len(damage_by_size) - 1)]

    order = sorted(targets, key=TARGET_ORDER.__getitem__)
    left = [counts[f] for f in FACES]
    found: set[Outcome] = set()
    chosen: list[tuple[Target, int]] = []

    def rec(i: int) -> None:
        if i == len(order):
            if chosen:
                found.add((tuple(t for t, _ in chosen), tuple(n for _, n in chosen)))
            return
        rec(i + 1)
        t = order[i]
        sizes = range(2, perfect + 1) if t == Target.SHOHO else (need(t),)
        for size in sizes:
            tried = set()
            for j in range(len(left)):
                if left[j] >= size and left[j] not in tried:  # faces with as many dice left are alike
                    tried.add(left[j])
                    left[j] -= size
                    chosen.append((t, size))
                    rec(i + 1)
                    chosen.pop()
                    left[j] += size

    rec(0)

    def kills(o: Outcome) -> list[Target]:
        return [t for t in o[0] if t != Target.SHOHO]

    def damage(o: Outcome) -> int:
        return sum(shoho_damage(n) for t, n in zip(*o) if t == Target.SHOHO)

    def beats(a: Outcome, b: Outcome) -> bool:
        rest = kills(a)
        for t in kills(b):
            if t not in rest:
                return False
            rest.remove(t)
        return damage(a) >= damage(b) and (rest or damage(a) > damage(b))

    best: dict[tuple, Outcome] = {}
    for o in sorted(found, key=lambda o: o[1]):  # of outcomes alike in kills and damage, the smallest sets
        if not any(beats(x, o) for x in found):
            best.setdefault((tuple(kills(o)), damage(o)), o)
    return tuple(sorted(best.values(), key=lambda o: (-damage(o), -len(kills(o)), [TARGET_ORDER[t] for t in o[0]],
                                                       o[1])))


def assignment_faces(counts: tuple[int, ...], targets: tuple[Target, ...], sizes: tuple[int, ...]) \
        -> tuple[int, ...] | None:
    """A face for each set of an assignment (aligned with ``targets``), or ``None`` when
    the results cannot serve it."""
    left = list(counts)
    out: list[int] = []

    def rec(i: int) -> bool:
        if i == len(targets):
            return True
        for f in FACES:
            if left[f] >= sizes[i]:
                left[f] -= sizes[i]
                out.append(f)
                if rec(i + 1):
                    return True
                out.pop()
                left[f] += sizes[i]
        return False

    return tuple(out) if rec(0) else None


# -- the menus --------------------------------------------------------------------------
def roll_menu(roll: Roll, settled: bool) -> tuple:
    """The decisions of a roll in progress: ``stop`` first, then ``throw`` with every
    choice of faces to keep that throws at least one die (keeping more faces first);
    only ``stop`` when no die is left to throw or the result is ``settled`` (cannot get
    better)."""
    p = roll.plane
    stop = action(Kind.STOP, plane=p)
    distinct = tuple(sorted(set(roll.faces)))
    if settled or not distinct:
        return (stop,)
    keeps = [k for n in range(len(distinct) - 1, -1, -1) for k in combinations(distinct, n)]
    return (stop,) + tuple(action(Kind.THROW, plane=p, keep=k) for k in keeps)


def assign_menu(roll: Roll, found: tuple[Outcome, ...]) -> tuple:
    """One ``assign`` per outcome worth choosing (:func:`outcomes`)."""
    return tuple(action(Kind.ASSIGN, plane=roll.plane, targets=t, aim=n) for t, n in found)
