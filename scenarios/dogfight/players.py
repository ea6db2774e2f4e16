"""Bots for the dogfight game (:mod:`.state`): each chooses a plan from its seat's
:class:`~.state.Observation` only.

* ``random``: a legal plan, uniformly at random.
* ``planner``: the plan analysis (:mod:`.analysis`) in its cheaper setting: every legal
  plan of its plane against a random sample of :data:`ENEMY_SAMPLE` legal plans of each
  enemy within reach (equally likely); it flies the plan with the best score (short
  range 2, long range 1, both ways; collisions; leaving the table -10), ties broken by
  closing on the nearest enemy, then deck order. With no enemy within reach it flies
  the plan that ends closest to the nearest enemy without leaving the table.
* ``planner-full``: the same against every legal enemy plan (about ten times slower;
  what the sample costs in strength is measured in docs/dogfight.md).
* ``planner-mix``: the equilibrium of the plan-pair game (:mod:`.equilibrium`) on its
  :data:`MIX_PLANS` best plans (by the ``planner``'s score) against the sampled enemy
  plans of the nearest enemy that plans, and a plan drawn from its mixed strategy: an
  opponent who knows the bot cannot exploit a fixed choice.

Every bot draws from its own generator, ``default_rng([seed, seat, k])``. A bot in a
chaser's seat orders its cards after a reveal (DF.T2, ``reorder="chaser"``) as the
game's reorder policy does (:meth:`~.state.ChaserChoice.by_policy`), drawing nothing.
"""
from __future__ import annotations

import numpy as np

from furball.maneuvers.plan import legal_plans
from furball.maneuvers.plane import PlaneState

from .analysis import METRICS, ScoreWeights, default_enemies, duel_task, evaluate_chunk, plan_tree
from .state import Observation, PlanAction, ReorderAction
from .table import Table, needs_plan

__all__ = ["RandomPlayer", "PlannerPlayer", "ENEMY_SAMPLE", "MIX_PLANS", "PLAYERS"]

ENEMY_SAMPLE = 64
"""Enemy plans the ``planner`` samples per enemy (the cheaper setting)."""
MIX_PLANS = 48
"""Own plans the ``planner-mix`` keeps for its equilibrium."""
CLOSING_WEIGHT = 1e-4
"""Score per mm closer to the nearest enemy (breaks ties among equally scored plans)."""
_SCORE, _LEAVES = METRICS.index("score"), METRICS.index("leaves")


class RandomPlayer:
    """A legal plan, uniformly at random."""

    name = "random"

    def __init__(self, seed: int, seat: int = 0):
        self.rng = np.random.default_rng([int(seed), int(seat), 1])

    def choose(self, observation: Observation) -> PlanAction | ReorderAction:
        if observation.reorder is not None:
            return observation.reorder.by_policy()
        legal = observation.legal
        return legal[int(self.rng.integers(len(legal)))]


class PlannerPlayer:
    """The plan analysis as a bot (module docstring). ``sample``: enemy plans per enemy
    (``None``: all); ``mix``: draw from the equilibrium's mixed strategy."""

    def __init__(self, seed: int, seat: int = 0, sample: int | None = ENEMY_SAMPLE, mix: bool = False,
                 score: ScoreWeights | None = None):
        self.rng = np.random.default_rng([int(seed), int(seat), 2])
        self.sample, self.mix = sample, mix
        self.score = score or ScoreWeights()
        self.name = "planner-mix" if mix else ("planner" if sample else "planner-full")

    def _enemy_plans(self, enemy: PlaneState, table: Table):
        """The enemy plans analysed (``None``: what :func:`plan_tree` flies for a plane
        that does not plan)."""
        if not needs_plan(enemy):
            return None
        plans = legal_plans(enemy, table.rules)
        if self.sample is None or len(plans) <= self.sample:
            return list(plans)
        picked = np.sort(self.rng.choice(len(plans), self.sample, replace=False))
        return [plans[i] for i in picked]

    def scores(self, observation: Observation) -> tuple[list[tuple[str, ...]], np.ndarray, dict]:
        """Every legal plan of the plane to plan and its score (higher is better), and
        the enemy plans analysed (name -> plans)."""
        table = observation.table
        me = table.plane(observation.to_plan)
        mine = [a.cards for a in observation.legal]
        tree = plan_tree(me, table, plans=mine)
        enemies = [table.plane(n) for n in default_enemies(table, me.name)]
        total = np.zeros(len(mine))
        sampled = {}
        for e in enemies:
            plans = self._enemy_plans(e, table)
            sampled[e.name] = plans
            theirs = plan_tree(e, table, plans=plans)
            others = [p for p in table.planes if p.name not in (me.name, e.name)]
            grouped = evaluate_chunk(duel_task(tree, theirs, table, others, self.score), np.arange(len(mine)),
                                     their_score=False).grouped
            total += grouped.sum(axis=1)[:, _SCORE]
        total -= self.score.leave * tree.leaves
        targets = [p for p in table.planes if p.side != me.side and p.flying]
        if targets:
            ends = tree.poses[-1][tree.node[-1]][:, :2]
            gaps = np.min([np.hypot(*(ends - t.pose.as_array()[:2]).T) for t in targets], axis=0)
            total -= CLOSING_WEIGHT * gaps
        return mine, total, sampled

    def choose(self, observation: Observation) -> PlanAction | ReorderAction:
        if observation.reorder is not None:
            return observation.reorder.by_policy()
        mine, total, sampled = self.scores(observation)
        best = int(np.argmax(np.round(total, 9)))  # the first of the best, in deck order
        if self.mix:
            enemy = self._mix_enemy(observation, sampled)
            if enemy is not None:
                return self._from_mix(observation, mine, total, enemy, sampled[enemy])
        return PlanAction(observation.to_plan, mine[best])

    def _mix_enemy(self, observation: Observation, sampled: dict) -> str | None:
        """The nearest analysed enemy that plans its cards."""
        table = observation.table
        me = table.plane(observation.to_plan)
        planners = [table.plane(n) for n, plans in sampled.items() if plans is not None]
        if not planners:
            return None
        return min(planners, key=lambda p: (float(np.hypot(*(p.stand - me.stand))), p.name)).name

    def _from_mix(self, observation: Observation, mine, total, enemy: str, enemy_plans) -> PlanAction:
        from .equilibrium import payoff_table, solve_zero_sum

        keep = sorted(np.argsort(-np.round(total, 9), kind="stable")[:MIX_PLANS])
        plans = [mine[i] for i in keep]
        _, _, payoff = payoff_table(observation.table, observation.to_plan, enemy, plans, enemy_plans,
                                    score=self.score)
        x, _, _ = solve_zero_sum(payoff)
        pick = int(self.rng.choice(len(plans), p=x / x.sum()))
        return PlanAction(observation.to_plan, plans[pick])


PLAYERS = {
    "planner": lambda seed, seat: PlannerPlayer(seed, seat),
    "random": lambda seed, seat: RandomPlayer(seed, seat),
    "planner-full": lambda seed, seat: PlannerPlayer(seed, seat, sample=None),
    "planner-mix": lambda seed, seat: PlannerPlayer(seed, seat, mix=True),
}
"""The bots by name (the first is the default)."""
