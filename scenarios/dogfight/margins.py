"""The margins of every ruling of a turn, and their flip chances (issue 27, docs/margins.md).

A function of an adjudicated turn, so the turn itself costs nothing more (the game engine
and rooms never ask for it)::

    result = adjudicate(table, orders, seed=1)
    report = turn_margins(result, PlacementError(1.0, 1.0))
    for step in report.steps: ...       # each step's rulings, close calls marked

The positions of each step are the turn's own: the start table (tails chosen, DF.T1,
DF.T3); for each maneuver, the planes where their cards put them (table edge, DF.E1;
overlaps, DF.O1; firing positions, DF.O2, DF.O3, DF.D3) and after it (tails checked
again, DF.T4). The rulings are the referee's (:mod:`maneuvers.margins`).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from furball.errors import InputError
from furball.i18n import DEFAULT_LANG, N_, Lang, plural_translator, translator
from furball.maneuvers.batch import Planes
from furball.maneuvers.margins import (
    Outcome,
    PlacementError,
    Ruling,
    firing_rulings,
    flip_chances,
    overlap_rulings,
    table_rulings,
    tail_rulings,
)
from furball.maneuvers.plane import PlaneState, PlaneStatus

from .damage import LossReason
from .turn import TurnResult

__all__ = ["MarginStep", "TurnMargins", "turn_margins", "margins_json", "margin_lines", "parse_close_call",
           "CLOSE_CALL"]

CLOSE_CALL = 0.05
"""A ruling whose flip chance exceeds this share is a close call (5 %)."""


@dataclass(frozen=True)
class MarginStep:
    """The rulings of one step: ``maneuver`` (0: the start of the turn), ``step`` (its
    name: "tails", "table edge", "overlaps", "firing", "tails again")."""

    maneuver: int
    step: str
    rulings: tuple[Ruling, ...]


@dataclass(frozen=True)
class TurnMargins:
    """Every ruling of a turn with its margins and flip chance (``steps`` in the turn's
    order), the ``error`` model, the ``close_call`` threshold and the ``seed`` of the
    samples; ``errors``: the bases with their own error (plane name -> error: a table
    measured from a photo, docs/capture.md), the others have ``error``."""

    error: PlacementError
    close_call: float
    seed: int
    steps: tuple[MarginStep, ...]
    errors: Mapping[str, PlacementError] = field(default_factory=dict)

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        return tuple(r for s in self.steps for r in s.rulings)

    @property
    def close_calls(self) -> tuple[Ruling, ...]:
        return tuple(r for r in self.rulings if r.close(self.close_call))


def parse_close_call(text: str) -> float:
    """``"5%"`` or ``"0.05"`` -> 0.05. Raises InputError."""
    t = str(text).strip()
    try:
        value = float(t[:-1]) / 100 if t.endswith("%") else float(t)
    except ValueError:
        value = -1.0
    if not 0 < value < 1:
        raise InputError(f"--close-call {text[:40]!r}: expected a share between 0 and 100 %, e.g. 5%")
    return value


def _during(before: dict[str, PlaneState], m) -> list[PlaneState]:
    """The planes as they stood after maneuver ``m``'s moves and before its fire: where
    the cards put them (``m.planes``: poses and altitudes), those that left the table
    out (DF.E1), those lost later in the maneuver still in the air (or as they were)."""
    after = {p.name: p for p in m.planes}
    lost = {x.plane for x in m.lost if x.reason != LossReason.LEFT_TABLE}
    moved = {mv.plane: mv for mv in m.moves}
    out = []
    for name, p in before.items():
        now = after.get(name, p)
        if name in lost and p.on_table:
            status = PlaneStatus.FLYING if name in moved and moved[name].altitude > 0 else p.status
            now = now.replace(status=status)
        out.append(now)
    return out


def _firing_board(planes: list[PlaneState], m) -> list[PlaneState]:
    """The planes the firing step saw: without those an explosion destroyed in a collision."""
    collided = {n for c in m.collisions if c.collided for n in (c.a, c.b)}
    exploded = {x.plane for x in m.lost if x.reason == LossReason.EXPLOSION} & collided
    return [p.replace(status=PlaneStatus.DESTROYED) if p.name in exploded and p.on_table else p for p in planes]


def turn_margins(result: TurnResult, error: PlacementError | None = None, close_call: float = CLOSE_CALL,
                 seed: int = 0, flips: bool = True,
                 errors: Mapping[str, PlacementError] | None = None) -> TurnMargins:
    """Every ruling of ``result`` with its margins and (``flips``) its flip chance under
    ``error`` (default :class:`PlacementError`: 1 mm, 1 degree), estimated from a
    generator seeded with ``seed``; close calls: flip chance above ``close_call``.
    ``errors``: plane name -> that base's own error (a measured scenario's
    ``placement_errors``), the others ``error``."""
    error = error or PlacementError()
    t = result.before
    rules, w, h = t.rules, t.width_mm, t.height_mm

    def chances(rulings, planes):
        return tuple(flip_chances(rulings, planes, rules, w, h, error, seed, errors=errors) if flips else rulings)

    steps = []
    start = list(t.planes)
    checks = list(result.tails) + list(result.unmet_wishes)
    steps.append(MarginStep(0, "tails", chances(tail_rulings(checks, start, rules), start)))
    before = {p.name: p for p in start}
    for m in result.maneuvers:
        during = _during(before, m)
        movers = [p for p in during if before[p.name].on_table]
        steps.append(MarginStep(m.index, "table edge", chances(table_rulings(movers, w, h), during)))
        board = Planes.on_table_of(during)
        steps.append(MarginStep(m.index, "overlaps", chances(overlap_rulings(during, board), during)))
        shooting = _firing_board(during, m)
        steps.append(MarginStep(m.index, "firing", chances(firing_rulings(shooting, rules), shooting)))
        if m.tail_checks:
            after = list(m.planes)
            steps.append(MarginStep(m.index, "tails again",
                                    chances(tail_rulings(m.tail_checks, after, rules), after)))
        before = {p.name: p for p in m.planes}
    return TurnMargins(error, close_call, seed, tuple(steps), dict(errors or {}))


def margins_json(tm: TurnMargins) -> dict:
    """The margins as JSON-ready data (docs/turn-report.schema.json, ``margins``)."""
    out: dict = {"placement_error": {"xy_mm": tm.error.xy_mm, "heading_deg": tm.error.heading_deg}}
    out.update({"close_call": tm.close_call, "seed": tm.seed,
                "steps": [{"maneuver": s.maneuver, "step": s.step,
                           "rulings": [r.as_json(tm.error, tm.close_call) for r in s.rulings]} for s in tm.steps]})
    if tm.errors:  # a measured table: each base's own error, from the photo
        out["placement_errors"] = {n: {"xy_mm": e.xy_mm, "heading_deg": e.heading_deg}
                                   for n, e in sorted(tm.errors.items())}
    return out


STEP_WORDS = (N_("tails"), N_("table edge"), N_("overlaps"), N_("firing"), N_("tails again"))
"""The steps' names (:attr:`MarginStep.step`), for the catalog: a report reads them through it."""
MARGIN_WORDS = (N_("reach"), N_("front edge"), N_("rear edge"), N_("clear ruler"), N_("apart"), N_("overlap"),
                N_("arc"), N_("range"), N_("band"), N_("line of fire"), N_("deg"))
"""The margins' kinds and the degree unit (:class:`~furball.maneuvers.margins.MarginKind`,
``Unit``) as a report writes them, for the catalog."""


OUTCOME_TEXT = {Outcome.TAIL: N_("{a} tails {b}"), Outcome.NO_TAIL: N_("{a} cannot tail {b}"),
                Outcome.OVERLAP: N_("{a} and {b} overlap"), Outcome.APART: N_("{a} and {b} apart"),
                Outcome.SHORT: N_("{a} has {b} at short range"), Outcome.LONG: N_("{a} has {b} at long range"),
                Outcome.NO_SHOT: N_("{a} has no shot at {b}"), Outcome.ON_TABLE: N_("{a} stays on the table"),
                Outcome.OFF_TABLE: N_("{a} leaves the table")}
"""What each ruling's outcome says, ``{a}`` and ``{b}`` its planes (read through the catalog)."""


def _words(r: Ruling, lang: Lang = DEFAULT_LANG) -> str:
    """What ruling ``r`` decided, in ``lang``."""
    b = r.planes[1] if len(r.planes) > 1 else ""
    return translator(lang)(OUTCOME_TEXT[Outcome(r.outcome)]).format(a=r.planes[0], b=b)


def _margin(d, lang: Lang) -> str:
    """A margin as ``kind +1.23 unit`` (``reach +28.83 mm``), in ``lang``."""
    _ = translator(lang)
    return f"{_(str(d.kind))} {d.value:+.2f} {_(str(d.unit))}"


def margin_lines(tm: TurnMargins, lang: Lang = DEFAULT_LANG) -> list[str]:
    """Each ruling with its deciding margin and, for close calls, its flip chance, in
    ``lang`` (English: the text ``furball turn --margins`` has always printed)."""
    _, ngettext = translator(lang), plural_translator(lang)
    e = tm.error
    share = f"{tm.close_call:.0%}"
    out = ["", _("Margins (docs/margins.md): placement error {xy:g} mm, {heading:g} deg per base; close call: flip "
                 "chance above {share}").format(xy=e.xy_mm, heading=e.heading_deg, share=share)]
    if tm.errors:
        each = ", ".join(_("{plane} {xy} mm, {heading} deg").format(plane=n, xy=f"{x.xy_mm:.2g}",
                                                                    heading=f"{x.heading_deg:.2g}")
                         for n, x in sorted(tm.errors.items()))
        out[-1] = _("Margins (docs/margins.md): placement error measured from the photo (standard deviations): "
                    "{each}; close call: flip chance above {share}").format(each=each, share=share)
    for s in tm.steps:
        if not s.rulings:
            continue
        when = _("start of turn") if s.maneuver == 0 else _("maneuver {index}").format(index=s.maneuver)
        out.append(f"  {when}, {_(s.step)}:")
        for r in s.rulings:
            d = r.deciding(e)
            if d is None:
                why = _("decided by {rules}").format(rules=", ".join(r.fixed))
            else:
                why = _margin(d, lang) + (f" ({d.about})" if d.about else "") + f" [{d.rule}]"
            flag = ""
            if r.close(tm.close_call):
                f = r.flip
                flag = "  " + _("CLOSE CALL: flips {chance} ({low}-{high}, {samples} samples)").format(
                    chance=f"{f.chance:.1%}", low=f"{f.low:.1%}", high=f"{f.high:.1%}", samples=f.samples)
            out.append(f"    {_words(r, lang)}: {why}{flag}")
    n = len(tm.close_calls)
    out.append("  " + ngettext("{count} close call of {rulings} rulings", "{count} close calls of {rulings} rulings",
                               n).format(count=n, rulings=len(tm.rulings)))
    return out
