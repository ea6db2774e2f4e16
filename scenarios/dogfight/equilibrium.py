"""Plans against a thinking opponent: the plan-pair table as a zero-sum matrix game,
solved by linear programming (issue #21 item 5; docs/analyze.md, "Equilibrium").

``furball analyze`` averages over the enemy's plans as if they were equally likely.
Here the enemy chooses too. For the plane P against one enemy E, every pair of plans
(p, q) is flown as :mod:`.analysis` flies it (the same pair outcomes: firing positions
at short and long range both ways, collision chances, leaving the table; flown as
planned, no reveal), and scored from both sides with the analysis's
:class:`~.analysis.ScoreWeights`. The game is made zero-sum as **half of P's score
minus E's score**::

    payoff(p, q) = (P's score - E's score) / 2
                 = short x (P's short-range positions - E's) + long x (P's long-range - E's)
                   - leave / 2 x (P leaves - E leaves)

(collisions hurt both alike, so they cancel). Plans whose rows (or columns) are equal
are solved once (the first in deck order stands for them), which is exact. The LP is
``max v`` subject to ``A^T x >= v``, ``sum x = 1``, ``x >= 0``, solved with
``scipy.optimize.linprog(method="highs")``; the enemy's mix is the dual of the same
problem (HiGHS's marginals), and a test checks both by best responses. Only
:mod:`.analysis`'s public functions are used (:func:`~.analysis.plan_tree`,
:func:`~.analysis.duel_task`, :func:`~.analysis.evaluate_chunk`).
"""
from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from furball.errors import InputError
from furball.i18n import DEFAULT_LANG, Lang, translator

from .analysis import ScoreWeights, default_enemies, duel_task, evaluate_chunk, legal_plans, plan_tree
from .table import Orders, Table, needs_plan

__all__ = ["Equilibrium", "payoff_table", "solve_zero_sum", "equilibrium", "equilibrium_text", "MAX_CELLS"]

DEFAULT_SCORE = ScoreWeights()
"""The analysis's default score weights."""
MAX_CELLS = 40_000_000
"""The largest plan-pair table solved (rows x columns; the duel's 2615 x 2615 is 6.8
million, about 2 s to build and 3-5 s to solve on a 2-core machine); more is refused at
once."""


def payoff_table(table: Table, plane: str, enemy: str, plans: Sequence[tuple[str, ...]] | None = None,
                 enemy_plans: Sequence[tuple[str, ...]] | None = None, orders: Mapping[str, Orders] | None = None,
                 score: ScoreWeights = DEFAULT_SCORE) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]],
                                                                np.ndarray]:
    """``(plans, enemy_plans, A)``: the zero-sum payoff to ``plane`` of every pair
    (module docstring), ``A`` ``(P, Q)``. ``plans`` / ``enemy_plans``: the plans to
    consider (default: every legal plan of each, with its ``orders``' drops). Planes
    other than the two stay put and block. Raises :class:`InputError` for a plane that
    does not plan or an enemy that is not one."""
    me, them = table.plane(plane), table.plane(enemy)
    for p in (me, them):
        if not needs_plan(p):
            raise InputError(f"plane '{p.name}': expected a plane that plans its cards (flying, not a balloon, "
                             f"not autonomous) for a plan-pair game")
    if me.side == them.side:
        raise InputError(f"--vs {enemy!r:.60}: expected an enemy of '{plane}' (another side)")
    orders = orders or {}
    drops = lambda p: getattr(orders.get(p.name), "drops", None)  # noqa: E731
    plans = list(plans) if plans is not None else legal_plans(me, table.rules, drops(me))
    enemy_plans = list(enemy_plans) if enemy_plans is not None else legal_plans(them, table.rules, drops(them))
    mine, theirs = plan_tree(me, table, drops(me), plans), plan_tree(them, table, drops(them), enemy_plans)
    if len(plans) * len(enemy_plans) > MAX_CELLS:
        raise InputError(f"{len(plans)} x {len(enemy_plans)} plan pairs: more than {MAX_CELLS:,} (restrict the "
                         f"plans)")
    others = [p for p in table.planes if p.name not in (plane, enemy)]
    a = evaluate_chunk(duel_task(mine, theirs, table, others, score), np.arange(len(plans)), keep_scores=True,
                       their_score=False)
    b = evaluate_chunk(duel_task(theirs, mine, table, others, score), np.arange(len(enemy_plans)), keep_scores=True,
                       their_score=False)
    # a: mine - theirs - c*ec; b: theirs - mine - c*ec: (a - b^T) / 2 = mine - theirs
    payoff = (a.scores.astype(np.float64) - b.scores.astype(np.float64).T) / 2.0
    payoff -= score.leave / 2.0 * (mine.leaves[:, None].astype(np.float64) - theirs.leaves[None, :].astype(np.float64))
    return plans, enemy_plans, payoff


def solve_zero_sum(payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """``(x, y, value)`` of the zero-sum game with row payoffs ``payoff`` ``(P, Q)``:
    the row player's maximin mix ``x``, the column player's minimax mix ``y`` and the
    value, by linear programming (``scipy.optimize.linprog``, HiGHS). Equal rows and
    columns are merged first (their weight goes to the first)."""
    return _solve(payoff)[:3]


def _solve(payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, tuple[int, int]]:
    """:func:`solve_zero_sum` and the size of the table solved after merging."""
    from scipy.optimize import linprog

    a = np.asarray(payoff, dtype=np.float64)
    _, row_first, row_of = np.unique(a, axis=0, return_index=True, return_inverse=True)
    rows = np.sort(row_first)
    _, col_first, _ = np.unique(a[rows], axis=1, return_index=True, return_inverse=True)
    cols = np.sort(col_first)
    m = a[np.ix_(rows, cols)]
    p, q = m.shape
    shift = float(m.min()) - 1.0  # a positive game (value > 0) keeps the LP well scaled
    c = np.zeros(p + 1)
    c[-1] = -1.0
    res = linprog(c, A_ub=np.hstack([-(m - shift).T, np.ones((q, 1))]), b_ub=np.zeros(q),
                  A_eq=np.hstack([np.ones((1, p)), np.zeros((1, 1))]), b_eq=[1.0],
                  bounds=[(0, None)] * p + [(None, None)], method="highs")
    if res.status != 0:  # pragma: no cover - a finite matrix game always has a solution
        raise RuntimeError(f"linprog: {res.message}")
    x_small = np.clip(res.x[:p], 0.0, None)
    y_small = np.clip(-np.asarray(res.ineqlin.marginals), 0.0, None)
    x = np.zeros(a.shape[0])
    x[rows] = x_small / x_small.sum()
    y = np.zeros(a.shape[1])
    y[cols] = y_small / y_small.sum()
    value = float(-res.fun) + shift
    return x, y, value, (p, q)


@dataclass(frozen=True)
class Equilibrium:
    """The plan-pair game of ``plane`` against ``enemy``: both sides' ``plans``, their
    mixed strategies ``mix`` / ``enemy_mix`` (weights per plan, summing to 1), the
    game's ``value`` (the payoff ``plane`` can guarantee on average), the table's
    ``shape`` and the rows x columns left to solve once equal ones are merged
    (``solved``), and the CPU seconds spent
    building the table and solving it."""

    table: Table = field(repr=False)
    plane: str
    enemy: str
    plans: tuple[tuple[str, ...], ...]
    enemy_plans: tuple[tuple[str, ...], ...]
    mix: np.ndarray
    enemy_mix: np.ndarray
    value: float
    shape: tuple[int, int]
    solved: tuple[int, int]
    table_seconds: float
    solve_seconds: float
    score: ScoreWeights = ScoreWeights()

    def support(self, enemy: bool = False, tolerance: float = 1e-9) -> list[tuple[tuple[str, ...], float]]:
        """The plans with positive weight, heaviest first (ties in deck order)."""
        plans, mix = (self.enemy_plans, self.enemy_mix) if enemy else (self.plans, self.mix)
        order = sorted((i for i in range(len(plans)) if mix[i] > tolerance), key=lambda i: (-round(mix[i], 12), i))
        return [(plans[i], float(mix[i])) for i in order]

    def as_json(self) -> dict:
        return {"scenario": self.table.name, "turn": self.table.turn, "plane": self.plane, "enemy": self.enemy,
                "value": self.value, "shape": list(self.shape), "solved": list(self.solved),
                "seconds": {"table": round(self.table_seconds, 3), "solve": round(self.solve_seconds, 3)},
                "payoff": "(plane's score - enemy's score) / 2",
                "mix": [{"plan": list(p), "weight": w} for p, w in self.support()],
                "enemy_mix": [{"plan": list(p), "weight": w} for p, w in self.support(enemy=True)]}


def equilibrium(table: Table, plane: str, vs: str | None = None, orders: Mapping[str, Orders] | None = None,
                score: ScoreWeights = DEFAULT_SCORE, plans=None, enemy_plans=None) -> Equilibrium:
    """Solve the plan-pair game of ``plane`` against the enemy ``vs`` (default: the
    nearest enemy that plans, among those within reach; module docstring). Raises
    :class:`InputError` when there is no such enemy."""
    if vs is None:
        me = table.plane(plane)
        candidates = [table.plane(n) for n in default_enemies(table, plane)]
        candidates = [p for p in candidates if needs_plan(p)]
        if not candidates:
            raise InputError(f"plane '{plane}': no enemy that plans its cards within reach: nothing to play against")
        vs = min(candidates, key=lambda p: (float(np.hypot(*(p.stand - me.stand))), p.name)).name
    start = time.process_time()
    mine, theirs, payoff = payoff_table(table, plane, vs, plans, enemy_plans, orders, score)
    built = time.process_time()
    x, y, value, solved = _solve(payoff)
    return Equilibrium(table, plane, vs, tuple(mine), tuple(theirs), x, y, value, payoff.shape, solved,
                       built - start, time.process_time() - built, score)


def equilibrium_text(e: Equilibrium, top: int = 10, lang: Lang | str = DEFAULT_LANG) -> str:
    """The equilibrium as text in ``lang``: the value, both mixes (plans with positive weight)."""
    _ = translator(lang)

    def block(title, rows):
        out = [title]
        for plan, weight in rows[:top]:
            out.append(f"  {weight:7.4f}  {' '.join(plan)}")
        if len(rows) > top:
            out.append("  " + _("... {count} more plans with positive weight (--top)").format(count=len(rows) - top))
        return out

    out = [_('furball analyze --equilibrium: "{table}", turn {turn}: {plane} against {enemy}').format(
               table=e.table.name, turn=e.table.turn, plane=e.plane, enemy=e.enemy),
           _("{rows} x {columns} plan pairs ({solved_rows} x {solved_columns} once equal plans merge), table "
             "{table_seconds} s, linear program {solve_seconds} s (HiGHS)").format(
               rows=e.shape[0], columns=e.shape[1], solved_rows=e.solved[0], solved_columns=e.solved[1],
               table_seconds=format(e.table_seconds, ".2f"), solve_seconds=format(e.solve_seconds, ".2f")),
           _("payoff = ({plane}'s score - {enemy}'s score) / 2, score as furball analyze's, plans flown as "
             "planned").format(plane=e.plane, enemy=e.enemy),
           _("value of the game for {plane}: {value}").format(plane=e.plane, value=format(e.value, "+.4f")), ""]
    out += block(_("{plane}'s mixed strategy ({count} plans with positive weight):").format(
        plane=e.plane, count=len(e.support())), e.support())
    out += [""]
    out += block(_("{plane}'s mixed strategy ({count} plans with positive weight):").format(
        plane=e.enemy, count=len(e.support(True))), e.support(True))
    return "\n".join(out)
