"""Plan analysis: every legal plan of one plane against every plan of each enemy.

``analyze(table, plane, vs=...)`` enumerates the plane's legal plans (three cards,
:func:`maneuvers.plan.check_plan`: sequencing DF.M5, bombs DF.B1/DF.B2, the ceiling
DF.H3) and each enemy's, flies them on the plan tree (the pose after maneuver k depends
only on the first k cards, so each pose is computed once), and for every pair of plans
and every maneuver asks what the turn would decide (:mod:`scenarios.dogfight.turn`):
who has a firing position on whom and at which range (DF.O2, DF.O3), whether the bases
overlap (DF.O1) and the exact chance k/4 that they collide (DF.C1-DF.C5), who leaves
the table (DF.E1). Per plan of the plane it then averages over the enemy's plans
(uniformly, or with given weights) and ranks the plans by a score (:class:`ScoreWeights`).

Engine decisions (docs/analyze.md):

* an enemy that plans flies each of its legal plans; an autonomous enemy each of its
  8 x 8 x 8 draws, equally likely (DF.A1); a balloon or a landed plane stays put;
* planes not analysed stay where they stand for the whole turn: they block rulers and
  lines of fire (DF.T1d, firing) but neither move, fire, nor collide;
* bombs: each plane drops what its orders say (none if none), which decides which plans
  are legal (DF.B1, DF.B2);
* tailing (DF.T2): plans are analysed as flown, unless ``reveal``: a chaser that tails
  its target at the start of the turn (DF.T1, DF.T3) sees the target's first card and
  flies the legal order of its own three cards with the best score against the
  target's plans that start with that card (the second reveal is not modelled).

The heavy part is :func:`evaluate_chunk`, a pure function of a :class:`DuelTask` and a
block of the plane's plans: it may run anywhere (pickle the task), chunk by chunk, and
uses every core of the machine it runs on (the compiled loops of
:mod:`._analysis_compiled`). :func:`pair_scores` gives the whole pair score matrix of
the plane against one enemy (for equilibria).
"""
from __future__ import annotations

import functools
import itertools
import math
import time
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field, fields, replace

import numpy as np

from furball.errors import InputError
from furball.geometry import kernels as gk
from furball.geometry.datafile import Table as FileTable
from furball.geometry.datafile import load_toml
from furball.geometry.pose import compose_batch
from furball.i18n import MessageText, msg
from furball.maneuvers.altitude import after_card, after_drop
from furball.maneuvers.batch import stand_points
from furball.maneuvers.kernels import (
    Shooters,
    Targets,
    collision_ends,
    fire_grid,
    stands_on_table,
)
from furball.maneuvers.placement import card_motion
from furball.maneuvers.plan import CARDS_PER_TURN, legal_plans
from furball.maneuvers.plane import PlaneState, PlaneStatus, Rules
from furball.maneuvers.tailing import choose_tails

from .table import Orders, Table, needs_plan

__all__ = ["ScoreWeights", "PlanTree", "plan_tree", "DuelTask", "duel_task", "ChunkResult", "evaluate_chunk",
           "PlanReport", "EnemyReport", "analyze", "METRICS", "best_plan", "legal_plans", "default_enemies",
           "load_enemy_weights", "PairScores", "pair_scores", "cached_plan_tree", "cached_side", "FLYING", "LANDED", "OUT"]

FLYING, LANDED, OUT = 0, 1, 2
"""Node status codes (a plane in the air, landed on its base, out of the game); the
compiled loops name the same codes (tests check)."""

METRICS = ("given_short", "given_long", "taken_short", "taken_long", "collisions", "p_collision", "overlaps",
           "they_leave", "leaves", "score")
"""Per pair of plans: maneuvers with a short / long firing position on the enemy, the
enemy's on the plane, expected collisions (sum of k/4 over the maneuvers), the chance of
at least one collision, maneuvers with the bases overlapping, whether the enemy leaves
the table, whether the plane does, and the score without the leaving penalty
(:class:`ScoreWeights`). The columns of every metric array, in this order; the compiled
loops name the same columns (tests check)."""
_M = {name: i for i, name in enumerate(METRICS)}
CHUNK_PAIRS = 4_000_000
"""Plan pairs per chunk (memory: about 30 bytes per pair while a chunk runs). Its largest
array, a float64 per pair, stays within ``geometry.kernels.LARGEST_REUSED_MIB``, so in a
process that keeps its freed memory (``kernels.keep_freed_memory``) each chunk reuses
the memory of the one before (tests check)."""


@dataclass(frozen=True)
class ScoreWeights:
    """The score of a plan against one enemy plan (higher is better):

    ``short`` x (maneuvers with a short-range firing position on the enemy)
    + ``long`` x (long-range ones) - the same for the enemy's on this plane
    - ``collision`` x (expected collisions) - ``leave`` x (1 if the plane leaves the table).

    Defaults: a short-range shot counts double (it draws two damage cards in the
    published game; engine decision), a collision costs one damage card (DF.C4),
    leaving the table ends the plane's game (DF.E1). Against several enemies the
    scores (without the leaving penalty) add up; the penalty counts once.
    """

    short: float = 2.0
    long: float = 1.0
    collision: float = 1.0
    leave: float = 10.0


# -- the plan tree ---------------------------------------------------------------------
@dataclass(frozen=True)
class PlanTree:
    """One plane's plans on a tree.

    ``plans``: P card-id triples (``()`` for a plane that does not maneuver);
    ``weights`` ``(P,)`` summing to 1; ``node`` ``(3, P)``: the node of plan p after
    maneuver k; per level k (tuples of three arrays): ``poses`` ``(n_k, 3)``,
    ``altitude`` and ``status`` (:data:`FLYING`, :data:`LANDED`, :data:`OUT`) ``(n_k,)``;
    ``first`` ``(P,)``: index in ``first_cards`` of each plan's first card; ``drawn``:
    the plans are autonomous draws (DF.A1)."""

    plane: PlaneState
    plans: tuple[tuple[str, ...], ...]
    weights: np.ndarray
    node: np.ndarray
    poses: tuple[np.ndarray, ...]
    altitude: tuple[np.ndarray, ...]
    status: tuple[np.ndarray, ...]
    first: np.ndarray
    first_cards: tuple[str, ...]
    drawn: bool = False

    @property
    def leaves(self) -> np.ndarray:
        """``(P,)`` bool: the plan takes the plane off the table (DF.E1)."""
        return self.status[-1][self.node[-1]] == OUT


def _card_columns(plans: Sequence[tuple[str, ...]], ids: Sequence[str]) -> np.ndarray:
    """``(P, 3)`` int: each plan's cards as indices in ``ids`` (-1 throughout for a plan
    that flies no card). Raises ``KeyError`` for a card not in ``ids``."""
    column = {c: i for i, c in enumerate(ids)}
    sizes = np.fromiter(map(len, plans), np.int64, len(plans))
    if len(plans) and np.all(sizes == CARDS_PER_TURN):  # every plan three cards: one lookup per card, no list
        flat = itertools.chain.from_iterable(plans)
        return np.fromiter(map(column.__getitem__, flat), np.int64, CARDS_PER_TURN * len(plans)).reshape(
            len(plans), CARDS_PER_TURN)
    return np.array([[column[c] for c in p] if p else [-1] * CARDS_PER_TURN for p in plans],
                    dtype=np.int64).reshape(len(plans), CARDS_PER_TURN)


def _first_seen(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Number the distinct values of ``key`` ``(P,)`` in the order they first appear:
    ``(number of each element (P,), the first element of each number)``. Sorted keys
    (plans in deck order) take one pass."""
    if np.all(key[1:] >= key[:-1]):
        new = np.ones(len(key), dtype=bool)
        new[1:] = key[1:] != key[:-1]
        return np.cumsum(new) - 1, np.nonzero(new)[0]
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[inverse.reshape(-1)], first[order]


_STATUS_CODE = {PlaneStatus.FLYING: FLYING, PlaneStatus.LANDED: LANDED, PlaneStatus.OUT: OUT}


def plan_tree(plane: PlaneState, table: Table, drops=None, plans=None, weights=None) -> PlanTree:
    """The plan tree of ``plane`` on ``table``: its legal plans (or ``plans``), each
    pose computed once per prefix. ``weights``: per plan (default equal).
    Autonomous planes fly their draws (DF.A1), balloons and landed planes stay.

    Nodes of level k are the distinct k+1-card prefixes in the order they first appear
    in ``plans``; the altitude and status rules (:func:`~maneuvers.altitude.after_card`,
    :func:`~maneuvers.altitude.after_drop`, DF.E1) run once per distinct (plane state,
    card) of a level, the poses as arrays."""
    rules = table.rules
    drawn = False
    if plans is None:
        if needs_plan(plane):
            plans = legal_plans(plane, rules, drops)
        elif plane.flying and plane.autonomous:
            draws = itertools.product(plane.deck.autonomous, repeat=CARDS_PER_TURN)
            counts: dict = {}
            for d in draws:
                counts[d] = counts.get(d, 0) + 1
            plans, weights, drawn = list(counts), [float(c) for c in counts.values()], True
        else:
            plans = [()]
    plans = list(map(tuple, plans))
    w = np.ones(len(plans)) if weights is None else np.asarray(weights, float)
    if not plans or w.shape != (len(plans),) or not np.all(np.isfinite(w) & (w >= 0)) or not w.any():
        raise InputError(f"plane '{plane.name}': no plan to analyse (no legal plan, or every weight is 0)")
    w = w / w.max()  # first to at most 1: a sum of huge weights (1e308 + 1e308) would overflow
    w = w / w.sum()
    ids = plane.deck.ids if plane.deck is not None else ()
    motions = np.zeros((len(ids) + 1, 3))  # row -1: no card
    if ids:
        motions[:-1] = [card_motion(c, plane.base).as_array() for c in plane.deck.cards]
    cards = _card_columns(plans, ids)
    # plane states met in the tree, by what the rules change: altitude, counters, bombs, status
    states: list[PlaneState] = [plane]
    state_id: dict = {}

    def known(p: PlaneState) -> int:
        key = (p.altitude, p.climb_counters, p.bombs, p.status)
        if key not in state_id:
            state_id[key] = len(states)
            states.append(p)
        return state_id[key]

    root = known(plane)
    node = np.zeros((CARDS_PER_TURN, len(plans)), dtype=np.int64)
    poses, alts, stats = [], [], []
    parent_pose = plane.pose.as_array()[None, :]
    parent_state = np.array([root])
    parent_of = np.zeros(len(plans), dtype=np.int64)  # each plan's node one level up (the root: 0)
    stand = np.array([plane.base.stand_x_mm, plane.base.stand_y_mm])
    key = np.zeros(len(plans), dtype=np.int64)
    for k in range(CARDS_PER_TURN):
        key = key * (len(ids) + 1) + cards[:, k] + 1  # the prefix, as a number
        node[k], at = _first_seen(key)
        card = cards[at, k]
        parent = np.where(card >= 0, parent_of[at], 0)  # a plan that stays put hangs from the root
        before = np.where(card >= 0, parent_state[parent], root) if k else np.full(len(at), root)
        pose = (parent_pose[parent] if k else np.repeat(parent_pose, len(at), axis=0)).copy()
        if k and (card < 0).any():
            pose[card < 0] = plane.pose.as_array()
        flying = np.array([s.flying for s in states])
        moving = np.nonzero((card >= 0) & flying[before])[0]
        if len(moving):
            pose[moving] = compose_batch(pose[moving], motions[card[moving]])
        off = ~stands_on_table(stand_points(pose, stand), table.width_mm, table.height_mm)
        after = before.copy()
        if len(moving):
            pairs, where = np.unique(before[moving] * len(ids) + card[moving], return_inverse=True)
            ends = np.empty(len(pairs), dtype=np.int64)
            for n, (b, c) in enumerate(zip(*np.divmod(pairs, len(ids)))):
                moved, _ = after_card(states[b], plane.deck.cards[c], rules.max_altitude)
                if drops and drops[k] and moved.flying:
                    moved, _ = after_drop(moved, drops[k])
                ends[n] = known(moved)
            after[moving] = ends[where.reshape(-1)]
        for a in np.unique(after[off]):
            if states[a].on_table:
                after[off & (after == a)] = known(states[a].replace(status=PlaneStatus.OUT))
        poses.append(pose)
        alts.append(np.array([s.altitude for s in states], dtype=np.int64)[after])
        stats.append(np.array([_STATUS_CODE[s.status] for s in states], dtype=np.int8)[after])
        parent_pose, parent_state, parent_of = pose, after, node[k]
    first_cards = tuple(ids[c] if c >= 0 else "" for c in cards[np.unique(node[0], return_index=True)[1], 0])
    return PlanTree(plane, tuple(plans), w, node, tuple(poses), tuple(alts), tuple(stats), node[0].copy(),
                    first_cards, drawn)


# -- one pair of planes: the task and its chunks -----------------------------------------
@dataclass(frozen=True)
class Side:
    """What the pair evaluation needs of one plane: its tree's level-3 nodes and the
    geometry of its base (plain arrays and numbers: picklable). ``node``, ``first``,
    ``weights``, ``leaves`` per plan; ``poses3``, ``altitude3``, ``status3`` per plan
    after maneuver 3, with the same poses prepared to fire (``shooters3``), to be fired
    at (``targets3``) and placed by each collision card (``ends3``); the plans by first
    card (``by_first``: plan indices, group g is ``by_first[first_starts[g]:first_starts[g
    + 1]]``, plans in order within a group); when ``by_first`` is the identity, the runs of
    plans sharing a level-2 node (``node2_runs``, ``group_runs``: the fields ``runs`` and
    ``group_runs`` of ``_analysis_compiled.Groups``; empty otherwise)."""

    node: np.ndarray
    poses3: np.ndarray
    altitude3: np.ndarray
    status3: np.ndarray
    weights: np.ndarray
    first: np.ndarray
    n_first: int
    leaves: np.ndarray
    base: object
    arcs: tuple
    fires: bool
    balloon: bool
    collision_motions: np.ndarray
    shooters3: Shooters
    targets3: Targets
    ends3: Targets
    by_first: np.ndarray
    first_starts: np.ndarray
    node2_runs: np.ndarray
    group_runs: np.ndarray


@dataclass(frozen=True)
class DuelTask:
    """Everything :func:`evaluate_chunk` needs for the plane (``me``) against one enemy
    (``them``): both sides, the outcome grids of maneuvers 1 and 2 (node x node: firing
    codes both ways, collision chance, overlap), the same two maneuvers summed per pair
    of level-2 nodes (``early``, the fields of ``_analysis_compiled.Early``), the third
    bases that block, the rules' numbers and the score weights. Pure data: picklable, so
    chunks can run on other workers."""

    me: Side
    them: Side
    grids: tuple
    early: tuple
    blockers: tuple
    rules: Rules
    score: ScoreWeights


def _side(tree: PlanTree, rules: Rules) -> Side:
    p = tree.plane
    motions = np.zeros((1, 3))
    if p.deck is not None and p.deck.collision is not None:
        motions = np.array([card_motion(p.deck.card(c), p.base).as_array() for c in p.deck.collision])
    poses3 = tree.poses[-1][tree.node[-1]]
    status3 = tree.status[-1][tree.node[-1]]
    arcs = tuple(p.firing_arcs(rules))
    by_first = np.argsort(tree.first, kind="stable").astype(np.int64)
    first_starts = np.searchsorted(tree.first[by_first], np.arange(len(tree.first_cards) + 1)).astype(np.int64)
    node2_runs, group_runs = _runs(tree.node[1], by_first, first_starts)
    return Side(tree.node, poses3, tree.altitude[-1][tree.node[-1]], status3, tree.weights, tree.first,
                len(tree.first_cards), tree.leaves, p.base, arcs, not p.is_balloon, p.is_balloon, motions,
                Shooters.of(poses3, p.base, arcs), Targets.of(poses3, p.base.length_mm, p.base.width_mm),
                collision_ends(poses3, motions, p.base.length_mm, p.base.width_mm, status3 == LANDED), by_first,
                first_starts, node2_runs, group_runs)


def cached_side(cache: MutableMapping | None, tree: PlanTree, rules: Rules) -> Side:
    """The :class:`Side` of ``tree`` (its plans' poses after maneuver 3, placed to fire,
    to be fired at and by each collision card), kept in ``cache`` when one is given:
    keyed by the tree itself, which the entry holds (so its identity cannot pass to
    another tree while the entry lives) — a tree the same cache keeps by public values
    (:func:`cached_plan_tree`). While one plane is dragged, the other keeps its side."""
    if cache is None:
        return _side(tree, rules)
    key = ("side", id(tree), rules)
    kept = cache.get(key)
    if kept is not None and kept[0] is tree:
        return kept[1]
    side = _side(tree, rules)
    cache[key] = (tree, side)
    return side


def _runs(node2: np.ndarray, by_first: np.ndarray, first_starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The runs of plans sharing a level-2 node and a first card, when the plans are
    listed by first card (``by_first`` the identity): ``(runs, group_runs)`` as
    ``_analysis_compiled.Groups``; two empty arrays otherwise."""
    if not np.array_equal(by_first, np.arange(len(by_first))):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    cuts = np.union1d(np.flatnonzero(np.diff(node2)) + 1, first_starts)
    runs = np.union1d(cuts, [0, len(node2)]).astype(np.int64)
    return runs, np.searchsorted(runs, first_starts).astype(np.int64)


@dataclass(frozen=True)
class _Poses:
    """One side's poses at one moment, prepared: to fire, to be fired at, and placed by
    each collision card; their altitude and status codes."""

    shooters: Shooters
    targets: Targets
    ends: Targets
    altitude: np.ndarray
    status: np.ndarray

    @classmethod
    def of(cls, side: Side, poses, altitude, status) -> _Poses:
        base = side.base
        return cls(Shooters.of(poses, base, side.arcs), Targets.of(poses, base.length_mm, base.width_mm),
                   collision_ends(poses, side.collision_motions, base.length_mm, base.width_mm, status == LANDED),
                   np.asarray(altitude, np.int64), np.asarray(status, np.int8))


def _outcomes(me: Side, them: Side, rules: Rules, blockers, a: _Poses, b: _Poses) -> tuple:
    """The outcome grids of the plane's poses ``a`` against the enemy's ``b`` at one
    moment (the fields of ``_analysis_compiled.Moment``): firing codes both ways (int8;
    DF.O2, DF.O3, the ranges), the collision chance (float32; DF.C1-DF.C5: exactly k/4,
    k/2 with a landed plane, 1 with a balloon), overlap (int8; DF.O1)."""
    codes = _jit()
    overlap = gk.overlap_grid(a.targets, b.targets).view(np.int8)
    shape = overlap.shape
    fire_ab = fire_grid(a.shooters, b.targets, rules, blockers) if me.fires else np.zeros(shape, np.int8)
    fire_ba = (fire_grid(b.shooters, a.targets, rules, blockers, transposed=True) if them.fires
               else np.zeros(shape, np.int8))
    moment = codes.Moment(fire_ab, fire_ba, np.empty(shape, np.float32), overlap)  # zeroed by apply_rules
    counts = np.empty(shape[0], np.int64)
    codes.apply_rules(moment, a.altitude, a.status, b.altitude, b.status, rules.fire_altitude_difference, counts)
    starts = np.concatenate([[0], np.cumsum(counts)])
    i, j = np.empty(starts[-1], np.int64), np.empty(starts[-1], np.int64)
    codes.collision_pairs(overlap, a.altitude, a.status, b.altitude, b.status, starts, i, j)
    if me.balloon or them.balloon:
        moment.p_collision[i, j] = 1.0  # DF.C5
    elif len(i):  # DF.C3: exactly k/4; a landed plane lays no card (its two "ends" are where it is: k/2)
        hits = gk.overlap_counts(a.ends, b.ends, i, j)
        codes.collision_chance(moment.p_collision, starts, i, j, hits,
                               a.ends.poses.shape[1] * b.ends.poses.shape[1])
    return tuple(moment)


def _early(me: PlanTree, them: PlanTree, grids) -> tuple:
    """Maneuvers 1 and 2 summed per pair of level-2 nodes (``_analysis_compiled.Early``),
    in the order the per-pair sums take: firing positions, expected collisions, the
    chance of none, overlaps (one compiled pass over every core: ``early_sums``)."""
    codes = _jit()
    up_me, up_them = np.empty(len(me.poses[1]), np.int64), np.empty(len(them.poses[1]), np.int64)
    up_me[me.node[1]], up_them[them.node[1]] = me.node[0], them.node[0]
    shape = (len(up_me), len(up_them))
    early = codes.Early(*(np.empty(shape, np.int8) for _ in range(4)), np.empty(shape), np.empty(shape),
                        np.empty(shape, np.int8))  # every cell written by early_sums
    codes.early_sums(up_me, up_them, codes.Moment(*grids[0]), codes.Moment(*grids[1]), early)
    return tuple(early)


def duel_task(me: PlanTree, them: PlanTree, table: Table, others: Sequence[PlaneState] = (),
              score: ScoreWeights = ScoreWeights(), cache: MutableMapping | None = None) -> DuelTask:
    """The :class:`DuelTask` of ``me`` against ``them``; ``others``: third planes that
    stay put and block (those on the table); ``cache``: where each side's placed poses
    are kept between calls (:func:`cached_side`)."""
    rules = table.rules
    others = [p for p in others if p.on_table]
    blockers = (np.array([p.pose.as_array() for p in others]).reshape(-1, 3),
                np.array([p.base.length_mm for p in others]), np.array([p.base.width_mm for p in others]))
    a, b = cached_side(cache, me, rules), cached_side(cache, them, rules)
    grids = tuple(_outcomes(a, b, rules, blockers, _Poses.of(a, me.poses[k], me.altitude[k], me.status[k]),
                            _Poses.of(b, them.poses[k], them.altitude[k], them.status[k]))
                  for k in range(CARDS_PER_TURN - 1))
    return DuelTask(a, b, grids, _early(me, them, grids), blockers, rules, score)


@dataclass(frozen=True)
class ChunkResult:
    """What :func:`evaluate_chunk` returns for plans ``rows`` of the plane:
    ``grouped`` ``(R, F, M)``: weighted sums of each of :data:`METRICS` over the enemy's
    plans, grouped by the enemy's first card (F groups; sum over F for the total);
    ``their_score`` ``(Fm, Q)``: the enemy's score (its own view) summed over these rows,
    grouped by the plane's first card (for the enemy's ranking and reveal; ``None`` when
    not asked); ``scores`` ``(R, Q)`` the plane's pair scores when asked (float32; with
    ``keep_scores="exact"`` ``(2, R, Q)`` float64: the plane's and the enemy's, as
    ``_analysis_compiled.combine``); ``detail`` ``(R, Q, 3, 3)``: per maneuver (my
    firing code, theirs, collision chance) when asked."""

    rows: np.ndarray
    grouped: np.ndarray
    their_score: np.ndarray | None
    scores: np.ndarray | None = None
    detail: np.ndarray | None = None


def evaluate_chunk(task: DuelTask, rows, their_remap=None, keep_scores: bool | str = False,
                   detail: bool = False, their_score: bool = True) -> ChunkResult:
    """Every plan pair (plane's plans ``rows`` x all the enemy's plans): per maneuver the
    firing positions both ways (short/long), the collision chance, then the sums of
    :data:`METRICS`. Pure: depends only on its arguments (ship it to any worker).

    ``their_remap`` ``(Fm, Q)`` int: the enemy flies plan ``their_remap[f, j]`` instead
    of ``j`` when the plane's first card is group ``f`` (a reveal to the enemy, DF.T2);
    ``their_score``: sum the enemy's own scores too (:class:`ChunkResult`)."""
    rows = np.asarray(rows, dtype=np.int64)
    me, them, sw, codes = task.me, task.them, task.score, _jit()
    q, n = len(them.weights), len(rows)
    at = _as_slice(rows)  # the plans of a chunk are a run: views of the plane's arrays, not copies
    remap = (np.ascontiguousarray(their_remap[me.first[at]], dtype=np.int64) if their_remap is not None
             else np.zeros((0, 0), np.int64))
    last = codes.Moment(*_outcomes(me, them, task.rules, task.blockers,
                                   _Poses(me.shooters3.take(at), me.targets3.take(at), me.ends3.take(at),
                                          np.asarray(me.altitude3[at], np.int64), me.status3[at]),
                                   _Poses(them.shooters3, them.targets3, them.ends3,
                                          np.asarray(them.altitude3, np.int64), them.status3)))
    grouped = np.empty((n, them.n_first, len(METRICS)))  # every cell written by combine
    scores = np.empty((2, n, q) if keep_scores else (2, 0, 0))  # every cell written by combine
    theirs = scores[1] if keep_scores or not their_score else np.empty((n, q))
    mine = me.first[at]
    codes.combine(codes.Rows(me.node[1][at], mine, me.weights[at], me.leaves[at].astype(np.float64)),
                  codes.Rows(them.node[1], them.first, them.weights, them.leaves.astype(np.float64)),
                  codes.Groups(them.by_first, them.first_starts, them.node2_runs, them.group_runs), codes.Early(*task.early), last,
                  codes.Weights(float(sw.short), float(sw.long), float(sw.collision), float(sw.leave)), remap,
                  grouped, scores[0], theirs)
    their = None
    if their_score:
        their = np.zeros((me.n_first, q))
        codes.their_sums(mine, me.weights[at], theirs, their)
    kept = None if not keep_scores else scores if keep_scores == "exact" else scores[0].astype(np.float32)
    return ChunkResult(rows, grouped, their, kept, _detail(task, rows, remap, last) if detail else None)


def _as_slice(rows: np.ndarray):
    """``rows`` (plan indices) as a ``slice`` when they are a run ``i, i + 1, ...``
    (every chunk of :func:`_chunks`), else themselves."""
    if len(rows) and rows[-1] - rows[0] == len(rows) - 1 and (len(rows) == 1 or np.all(np.diff(rows) == 1)):
        return slice(int(rows[0]), int(rows[-1]) + 1)
    return rows


def _detail(task: DuelTask, rows, remap, last) -> np.ndarray:
    """Per pair and maneuver: (my firing code, theirs, collision chance), ``(R, Q, 3, 3)``."""
    me, them = task.me, task.them
    cols = remap if remap.shape[0] else np.broadcast_to(np.arange(len(them.weights)), (len(rows), len(them.weights)))
    out = np.zeros((len(rows), len(them.weights), CARDS_PER_TURN, 3))
    for k, (ab, ba, p, _ov) in enumerate(task.grids):
        u, v = me.node[k][rows][:, None], them.node[k][cols]
        out[:, :, k] = np.stack([ab[u, v], ba[u, v], p[u, v]], axis=-1)
    r = np.arange(len(rows))[:, None]
    out[:, :, 2] = np.stack([last.fire_ab[r, cols], last.fire_ba[r, cols], last.p_collision[r, cols]], axis=-1)
    return out


def _jit():
    """The compiled loops (:mod:`._analysis_compiled`), loaded on first use."""
    return gk.load_compiled(f"{__package__}._analysis_compiled")


def warm() -> list[str]:
    """Compile (or load from the cache) the analysis's loops with the argument types it
    uses, on a tiny duel of the shipped example (one plan each); returns their names.
    ``furball warm`` calls it, after :func:`geometry.kernels.warm`."""
    from .scenario import load_scenario

    table = load_scenario("duel").table
    a, b = table.planes[:2]
    trees = [plan_tree(p, table, plans=[legal_plans(p, table.rules)[0]]) for p in (a, b)]
    task = duel_task(*trees, table)
    evaluate_chunk(task, np.arange(1), their_remap=np.zeros((1, 1), np.int64), keep_scores=True)
    none = np.zeros(0, np.int64)
    _jit().collision_chance(np.zeros((1, 1), np.float32), np.zeros(2, np.int64), none, none, none, 4)
    _jit().group_totals(np.zeros((1, 1, len(METRICS))), np.empty((1, len(METRICS))))
    return ["apply_rules", "collision_pairs", "combine", "their_sums", "collision_chance", "early_sums", "group_totals"]


def _chunks(n_rows: int, n_cols: int) -> list[np.ndarray]:
    size = max(1, CHUNK_PAIRS // max(n_cols, 1))
    return [np.arange(i, min(i + size, n_rows)) for i in range(0, n_rows, size)]


@dataclass(frozen=True)
class PairScores:
    """Every plan of the plane against every plan of one enemy, as arrays
    (:func:`pair_scores`): ``plans`` ``(P, 3)`` and ``enemy_plans`` ``(Q, 3)`` card ids
    (``(1, 0)`` for a plane that stays put), ``enemy_weights`` ``(Q,)`` (summing to 1),
    ``mine`` ``(P, Q)``: the plane's score of each pair (:class:`ScoreWeights`, its
    leaving penalty included), ``theirs`` ``(P, Q)``: the enemy's score of the same pair
    from its side (the same formula, its own leaving penalty)."""

    plans: np.ndarray
    enemy_plans: np.ndarray
    enemy_weights: np.ndarray
    mine: np.ndarray
    theirs: np.ndarray


MAX_PAIR_SCORES = 20_000_000
"""The most plan pairs :func:`pair_scores` returns (two float64 matrices: 320 MB)."""


def pair_scores(table: Table, plane: str, enemy: str, orders: Mapping | None = None,
                score: ScoreWeights = ScoreWeights()) -> PairScores:
    """The pair score matrices of ``plane`` against ``enemy`` on ``table`` (plans as
    :func:`analyze` flies them: legal plans, or an autonomous enemy's draws; drops from
    ``orders``; third planes stay put and block), for game-theoretic use (equilibria).
    Raises :class:`InputError` as :func:`analyze` does, and for more than
    :data:`MAX_PAIR_SCORES` pairs (naming both counts)."""
    orders = dict(orders or {})
    me, enemies = _players(table, plane, [enemy])
    my_tree, trees = _trees(table, me, enemies, orders, None)
    tree = trees[0]
    if len(my_tree.plans) * len(tree.plans) > MAX_PAIR_SCORES:
        raise InputError(f"plane '{plane}' against '{enemy}': {len(my_tree.plans):,} x {len(tree.plans):,} plan "
                         f"pairs; expected at most {MAX_PAIR_SCORES:,}")
    task = duel_task(my_tree, tree, table, _others(table, plane, [enemy]), score)
    both = evaluate_chunk(task, np.arange(len(my_tree.plans)), keep_scores="exact", their_score=False).scores
    mine = both[0] - score.leave * my_tree.leaves.astype(float)[:, None]
    return PairScores(np.array(my_tree.plans, dtype=str).reshape(len(my_tree.plans), -1),
                      np.array(tree.plans, dtype=str).reshape(len(tree.plans), -1), tree.weights, mine, both[1])


# -- the report --------------------------------------------------------------------------
@dataclass(frozen=True)
class EnemyReport:
    """The analysis against one enemy: its plans and their weights, whether it or the
    plane tails the other at the start (DF.T1), whether reveals were applied, and
    ``heat`` ``(K, Q)``: the pair scores of the plane's top K plans (rows, best first)
    against the enemy's plans (columns in ``heat_columns`` order: the enemy's plans from
    the most dangerous to the plane, by mean score over those rows)."""

    name: str
    plans: tuple[tuple[str, ...], ...]
    weights: np.ndarray
    drawn: bool
    tails: MessageText | None
    reveal: MessageText | None
    metrics: np.ndarray
    heat: np.ndarray
    heat_rows: np.ndarray
    heat_columns: np.ndarray


@dataclass(frozen=True)
class PlanReport:
    """The plan analysis of ``plane`` (``analyze``): its legal ``plans``, per plan the
    :data:`METRICS` summed over the enemies (``metrics`` ``(P, M)``; expectations over
    their plans), ``leaves`` ``(P,)``, ``score`` ``(P,)`` (:class:`ScoreWeights`),
    ``ranking`` (plan indices, best first), one :class:`EnemyReport` per enemy, and
    what it cost: ``pairs`` evaluated, ``seconds``."""

    table: Table
    plane: str
    plans: tuple[tuple[str, ...], ...]
    metrics: np.ndarray
    leaves: np.ndarray
    score: np.ndarray
    ranking: np.ndarray
    enemies: tuple[EnemyReport, ...]
    weights: ScoreWeights
    reveal: bool
    pairs: int
    seconds: float
    trees: Mapping = field(default_factory=dict, compare=False, repr=False)

    def metric(self, name: str) -> np.ndarray:
        """One of :data:`METRICS` per plan, ``(P,)``."""
        return self.metrics[:, _M[name]]

    def best(self) -> tuple[str, ...]:
        """The best-ranked plan."""
        return self.plans[int(self.ranking[0])]

    def rows(self, top: int | None = 10) -> list[dict]:
        """The ``top`` plans (all with ``None``), best first, as JSON-ready rows."""
        out = []
        for rank, i in enumerate(self.ranking[:top] if top else self.ranking, start=1):
            m = self.metrics[i]
            out.append({"rank": rank, "plan": list(self.plans[i]), "score": round(float(self.score[i]), 6),
                        "shots_given": {"short": float(m[_M["given_short"]]), "long": float(m[_M["given_long"]])},
                        "shots_taken": {"short": float(m[_M["taken_short"]]), "long": float(m[_M["taken_long"]])},
                        "p_collision": float(m[_M["p_collision"]]), "collisions": float(m[_M["collisions"]]),
                        "p_leave": float(self.leaves[i]), "enemy_leaves": float(m[_M["they_leave"]])})
        return out

    def as_json(self, top: int | None = 10) -> dict:
        """The report as JSON-ready data (``docs/analyze.md``)."""
        w = self.weights
        return {"scenario": self.table.name, "turn": self.table.turn, "plane": self.plane,
                "plans": len(self.plans), "pairs": self.pairs, "seconds": round(self.seconds, 3),
                "reveal": self.reveal, "flown_as_planned": not self.reveal,
                "score": {"short": w.short, "long": w.long, "collision": w.collision, "leave": w.leave},
                "enemies": [{"name": e.name, "plans": len(e.plans), "autonomous_draws": e.drawn, "tails": e.tails,
                             "reveal": e.reveal} for e in self.enemies],
                "top": self.rows(top)}


def _tails(table: Table, plane: str, orders) -> dict[tuple[str, str], bool]:
    wishes = {n: o.tail for n, o in (orders or {}).items() if getattr(o, "tail", None) is not None}
    return {(c, check.target): True for c, check in choose_tails(list(table.planes), table.rules, wishes).items()}


def _within_reach(a: PlaneState, b: PlaneState, rules: Rules) -> bool:
    """Could ``a`` and ``b`` meet this turn: stands within the ruler plus three of the
    longest moves of each (plus their bases' half diagonals)?"""
    def longest(p):
        if p.deck is None or not p.flying:
            return 0.0
        return max(float(np.hypot(*card_motion(c, p.base).as_array()[:2])) for c in p.deck.cards)
    reach = rules.ruler_length_mm + CARDS_PER_TURN * (longest(a) + longest(b)) + sum(
        math.hypot(p.base.length_mm, p.base.width_mm) / 2 for p in (a, b))
    return float(np.hypot(*(a.stand - b.stand))) <= reach


def default_enemies(table: Table, plane: str) -> list[str]:
    """Every enemy on the table (another side, not out) that could meet ``plane`` this
    turn (:func:`_within_reach`), in table order."""
    me = table.plane(plane)
    return [p.name for p in table.planes if p.side != me.side and p.on_table and _within_reach(me, p, table.rules)]


def _reveal_rows(grouped: np.ndarray, plans, leave: float) -> np.ndarray:
    """The plane as chaser (DF.T2): for each plan and each enemy first card, the legal
    order of the same cards with the best score; returns ``(P, F)`` plan indices."""
    return _best_orders(grouped[:, :, _M["score"]] - leave * grouped[:, :, _M["leaves"]], plans)


def _reveal_columns(their_score: np.ndarray, plans) -> np.ndarray:
    """The enemy as chaser: for each of the plane's first cards and each enemy plan, the
    legal order of the same cards with the best enemy score; ``(Fm, Q)``."""
    return np.ascontiguousarray(_best_orders(their_score.T, plans).T)


def _best_orders(score: np.ndarray, plans) -> np.ndarray:
    """``score`` ``(P, F)``: plan p's score in column f. Plans of the same cards in
    another order (DF.T2) form a class; returns ``(P, F)``: plan p itself where its score
    is the best of its class in that column, else the first plan of its class (plan
    order) with that best score — the first NaN where the class has one (as
    ``np.argmax``). Whole arrays: classes sorted once, their maxima by ``reduceat``."""
    n = len(plans)
    cards = _card_columns(plans, list(dict.fromkeys(itertools.chain.from_iterable(plans))))
    _, cls = np.unique(np.sort(cards, axis=1), axis=0, return_inverse=True)
    order = np.argsort(cls.reshape(-1), kind="stable")  # class by class, each in plan order
    sorted_score, cls = score[order], cls.reshape(-1)[order]
    starts = np.flatnonzero(np.concatenate([[True], cls[1:] != cls[:-1]]))
    of = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, n)))  # each sorted plan's class
    top = np.maximum.reduceat(sorted_score, starts, axis=0)[of]  # NaN where the class has one, as max()
    with np.errstate(invalid="ignore"):
        keep = sorted_score >= top  # its own order when it is among the best
    first_best = keep | (np.isnan(sorted_score) & np.isnan(top))
    at = np.minimum.reduceat(np.where(first_best, np.arange(n)[:, None], n), starts, axis=0)
    choice = np.empty(score.shape, dtype=np.int64)
    choice[order] = np.where(keep, order[:, None], order[at][of])
    return choice


def analyze(table: Table, plane: str, vs: Sequence[str] | None = None, orders: Mapping | None = None,
            enemy_weights: Mapping[str, Mapping[tuple, float]] | None = None, score: ScoreWeights = ScoreWeights(),
            reveal: bool = False, progress: Callable | None = None, heat_rows: int = 40,
            map_chunks: Callable | None = None, tree_cache: MutableMapping | None = None) -> PlanReport:
    """Analyse every legal plan of ``plane`` against every plan of each enemy in ``vs``
    (default :func:`default_enemies`) on ``table`` (module docstring; docs/analyze.md).

    ``orders``: the scenario's orders (drops and tail wishes are read from them);
    ``enemy_weights``: enemy name -> {plan (card-id tuple): weight}, plans not listed
    weigh 0 (default: every plan equally likely); ``score``: :class:`ScoreWeights`;
    ``reveal``: apply the chaser's best reorder after the first reveal (DF.T2);
    ``progress``: a tqdm-like factory ``progress(total=..)`` with ``update()`` and
    ``close()``; ``heat_rows``: how many top plans get a row of pair scores;
    ``map_chunks``: how the chunks of plan pairs are computed — ``map_chunks(fn, task,
    chunks)`` must return ``[fn(task, c) for c in chunks]`` in order (default: here, one
    after another; :func:`scenarios.engine.cluster.map_in_order` spreads them over a
    Dask cluster). The result does not depend on it. ``tree_cache``: a bounded mapping
    (a ``cachetools.LRUCache``) that keeps plan trees, legal plans and the trees' placed
    poses between calls (:func:`cached_plan_tree`, :func:`cached_side`), e.g. while a
    plane is dragged; the result does not depend on it either.
    Returns a :class:`PlanReport`. Raises :class:`InputError` for an unknown plane, a
    plane that does not plan, an enemy that is not one, or weights naming illegal plans.
    """
    start = time.perf_counter()
    orders = dict(orders or {})
    me, enemies = _players(table, plane, vs)  # 1. the plane and its enemies
    _check_size(me, enemies)
    my_tree, trees = _trees(table, me, enemies, orders, enemy_weights, tree_cache)  # 2. their plan trees
    duels = _duels(table, plane, my_tree, enemies, trees, orders, score, reveal, progress, map_chunks,  # 3., 4.
                   tree_cache)
    total, leaves, final, ranking = _totals(my_tree, duels, score)  # 5. per plan, over the enemies; the ranking
    reports = tuple(_enemy_report(d, plane, ranking[:heat_rows]) for d in duels)  # 6. the heat maps
    return PlanReport(table, plane, my_tree.plans, total, leaves, final, ranking, reports, score, reveal,
                      sum(len(my_tree.plans) * len(t.plans) for t in trees), time.perf_counter() - start,
                      {plane: my_tree, **{e.name: t for e, t in zip(enemies, trees)}})


def _players(table: Table, plane: str, vs: Sequence[str] | None) -> tuple[PlaneState, list[PlaneState]]:
    """Step 1: the plane, which must plan its cards, and its enemies (``vs``, default
    every enemy within reach), each another side's and on the table."""
    me = table.plane(plane)
    if not needs_plan(me):
        raise InputError(f"plane '{plane}': expected a plane that plans its cards (flying, not a balloon, not "
                         f"autonomous), got one that does not")
    enemies = []
    for n in default_enemies(table, plane) if vs is None else list(dict.fromkeys(vs)):
        e = table.plane(n)
        if e.side == me.side or not e.on_table:
            raise InputError(f"--vs {n!r:.60}: expected an enemy of '{plane}' on the table (another side, not out)")
        enemies.append(e)
    return me, enemies


MAX_PLANS = 1_000_000
"""The most plans one plane may have in an analysis (a deck of 100 cards has up to
1,000,000 three-card plans)."""
MAX_PAIRS = 4_000_000_000
"""The most plan pairs one analysis evaluates (about a minute on two cores)."""


def plan_bound(plane: PlaneState) -> int:
    """At most how many plans ``plane`` has this turn, without listing them: its deck's
    cards (or autonomous draws) to the power of the cards per turn, 1 for a plane that
    stays put."""
    if needs_plan(plane):
        return len(plane.deck.cards) ** CARDS_PER_TURN
    if plane.flying and plane.autonomous:
        return len(plane.deck.autonomous) ** CARDS_PER_TURN
    return 1


def _check_size(me: PlaneState, enemies: Sequence[PlaneState]) -> None:
    """Refuse at once, before any plan is listed, a question too big to answer: a plane
    with more than :data:`MAX_PLANS` possible plans, or more than :data:`MAX_PAIRS` plan
    pairs in all. Raises :class:`InputError` naming the size and the limit."""
    bounds = {p.name: plan_bound(p) for p in (me, *enemies)}
    for name, n in bounds.items():
        if n > MAX_PLANS:
            raise InputError(f"plane '{name}': up to {n:,} plans ({round(n ** (1 / CARDS_PER_TURN))} cards, "
                             f"{CARDS_PER_TURN} per turn); the analysis takes at most {MAX_PLANS:,} plans a plane")
    pairs = bounds[me.name] * sum(bounds[e.name] for e in enemies)
    if pairs > MAX_PAIRS:
        raise InputError(f"plane '{me.name}': up to {pairs:,} plan pairs against {len(enemies)} enemies; the "
                         f"analysis takes at most {MAX_PAIRS:,} (name fewer enemies with --vs)")


def _drops(orders: Mapping, p: PlaneState):
    return getattr(orders.get(p.name), "drops", None)


def _legality_key(plane: PlaneState) -> tuple:
    """What a plane's legal plans may depend on: every field of its state but its name,
    side and pose (:func:`~maneuvers.plan.check_plan` reads none of these)."""
    return tuple(getattr(plane, f.name) for f in fields(plane) if f.name not in ("name", "side", "pose"))


def cached_plan_tree(cache: MutableMapping | None, plane: PlaneState, table: Table, drops=None) -> PlanTree:
    """``plan_tree(plane, table, drops)``, kept in ``cache`` when one is given: the tree
    keyed by everything :func:`plan_tree` reads (the plane as it stands, the table's
    size and rules, the drops), the legal plans by the same without the plane's name,
    side and pose (a plane dragged across the table keeps its plans, planes alike share
    them). Public values only: the plane's state on
    the table and the drops of the orders given, never a plan of the orders."""
    if cache is None:
        return plan_tree(plane, table, drops)
    drops_key = None if drops is None else tuple(drops)
    key = ("tree", plane, table.width_mm, table.height_mm, table.rules, drops_key)
    tree = cache.get(key)
    if tree is None:
        plans = None
        if needs_plan(plane):
            still = ("plans", _legality_key(plane), table.rules, drops_key)
            plans = cache.get(still)
            if plans is None:
                plans = cache[still] = legal_plans(plane, table.rules, drops)
        tree = cache[key] = plan_tree(plane, table, drops, plans)
    return tree


def _trees(table: Table, me: PlaneState, enemies: Sequence[PlaneState], orders: Mapping,
           enemy_weights: Mapping | None, cache: MutableMapping | None = None) -> tuple[PlanTree, list[PlanTree]]:
    """Step 2: the plan trees — the plane's legal plans, each enemy's legal plans (or
    draws), weighted by ``enemy_weights`` where given (naming only legal plans); through
    ``cache`` (:func:`cached_plan_tree`) where given."""
    cache = {} if cache is None else cache  # within one call at least: planes alike share their legal plans
    my_tree = cached_plan_tree(cache, me, table, _drops(orders, me))
    trees = []
    for e in enemies:
        if not (enemy_weights and e.name in enemy_weights):
            trees.append(cached_plan_tree(cache, e, table, _drops(orders, e)))
            continue
        plans = legal_plans(e, table.rules, _drops(orders, e)) if needs_plan(e) else []
        given = {tuple(k): float(v) for k, v in enemy_weights[e.name].items()}
        legal = set(plans)
        unknown = [k for k in given if k not in legal]
        if unknown:
            raise InputError(f"enemy weights: plane '{e.name}': plan {list(unknown[0])} is not a legal plan "
                             f"of it (DF.M1, DF.M5, DF.B1, DF.H3)")
        weights = [given.get(p, 0.0) for p in plans]
        trees.append(plan_tree(e, table, _drops(orders, e), plans, weights))
    return my_tree, trees


def _others(table: Table, plane: str, enemies: Sequence[str]) -> list[PlaneState]:
    """The planes not analysed: they stay put and block."""
    analysed = {plane, *enemies}
    return [p for p in table.planes if p.name not in analysed]


@dataclass(frozen=True)
class _Duel:
    """The plane against one enemy, its plan pairs summed: ``per_plan`` ``(P, M)``, the
    :data:`METRICS` of each of the plane's plans (expectations over the enemy's plans);
    who tails whom at the start; the reveal applied, if any."""

    enemy: PlaneState
    tree: PlanTree
    task: DuelTask
    i_tail: bool
    they_tail: bool
    note: MessageText | None
    per_plan: np.ndarray


def _duels(table: Table, plane: str, my_tree: PlanTree, enemies, trees, orders, score: ScoreWeights, reveal: bool,
           progress, map_chunks, cache: MutableMapping | None = None) -> list[_Duel]:
    """Steps 3 and 4, enemy by enemy: every plan pair, chunk by chunk (one progress bar
    for all), then the chaser's reorder when asked (DF.T2); the sides through ``cache``
    where given (:func:`cached_side`)."""
    tails = _tails(table, plane, orders)
    others = _others(table, plane, [e.name for e in enemies])
    chunks = [_chunks(len(my_tree.plans), len(t.plans)) for t in trees]
    bar = progress(total=sum(len(c) for c in chunks)) if progress else None
    duels = []
    for e, tree, rows in zip(enemies, trees, chunks):
        task = duel_task(my_tree, tree, table, others, score, cache)
        i_tail, they_tail = tails.get((plane, e.name), False), tails.get((e.name, plane), False)
        mine_reordered = reveal and i_tail and not tree.drawn and tree.plans != ((),)
        theirs_reordered = reveal and not mine_reordered and they_tail and needs_plan(e)
        results = _play_out(task, rows, map_chunks, bar, their_score=theirs_reordered)
        blocks = [r.grouped for r in results]
        note = None
        if mine_reordered:
            grouped = np.concatenate(blocks)
            choice = _reveal_rows(grouped, my_tree.plans, score.leave)
            blocks = [grouped[choice, np.arange(grouped.shape[1])[None, :]]]
            note = MessageText(msg("{chaser} tails {target}: sees its first card and flies its best order (DF.T2)",
                                   chaser=plane, target=e.name))
        elif theirs_reordered:
            remap = _reveal_columns(sum(r.their_score for r in results), tree.plans)
            remapped = functools.partial(evaluate_chunk, their_remap=remap, their_score=False)
            blocks = [r.grouped for r in (map_chunks or _here)(remapped, task, rows)]
            note = MessageText(msg("{chaser} tails {target}: sees its first card and flies its best order (DF.T2)",
                                   chaser=e.name, target=plane))
        duels.append(_Duel(e, tree, task, i_tail, they_tail, note, _over_groups(blocks)))
    if bar:
        bar.close()
    return duels


def _over_groups(blocks: Sequence[np.ndarray]) -> np.ndarray:
    """``(P, M)``: the ``grouped`` blocks ``(R, F, M)`` of the chunks, in order, summed
    over the enemy's first-card groups (``grouped.sum(axis=1)`` to the bit, on every core:
    ``group_totals``), without gathering the blocks into one array first."""
    codes = _jit()
    totals = np.empty((sum(len(b) for b in blocks), len(METRICS)))
    at = 0
    for b in blocks:
        codes.group_totals(np.ascontiguousarray(b), totals[at:at + len(b)])
        at += len(b)
    return totals


def _play_out(task: DuelTask, chunks, map_chunks, bar, their_score: bool) -> list[ChunkResult]:
    """Step 3 for one enemy: :func:`evaluate_chunk` of every chunk, here or through
    ``map_chunks``, in order; the enemy's own scores summed only when ``their_score``
    (a reveal to the enemy needs them)."""
    chunk = functools.partial(evaluate_chunk, their_score=their_score)
    if map_chunks is not None:
        results = map_chunks(chunk, task, chunks)
        if bar:
            bar.update(len(results))
        return results
    results = []
    for rows in chunks:
        results.append(chunk(task, rows))
        if bar:
            bar.update()
    return results


def _totals(my_tree: PlanTree, duels: Sequence[_Duel], score: ScoreWeights):
    """Step 5: per plan, the metrics added over the enemies (P(collision) combined as
    independent, leaving counted once), the score with the leaving penalty, and the
    ranking (best first, ties in deck order). Returns ``(total, leaves, score, ranking)``."""
    total = np.zeros((len(my_tree.plans), len(METRICS)))
    for d in duels:
        total += d.per_plan
    p_none = np.ones(len(my_tree.plans))
    for d in duels:
        p_none *= 1.0 - d.per_plan[:, _M["p_collision"]]
    total[:, _M["p_collision"]] = 1.0 - p_none
    leaves = my_tree.leaves.astype(float)
    if duels:  # a reveal may change the plan flown, and so whether it leaves
        leaves = np.max([d.per_plan[:, _M["leaves"]] for d in duels], axis=0)
    total[:, _M["leaves"]] = leaves
    final = total[:, _M["score"]] - score.leave * leaves
    ranking = np.argsort(-_round_9(final), kind="stable").astype(np.int64)  # ties in deck order
    return total, leaves, final, ranking


def _round_9(values: np.ndarray) -> np.ndarray:
    """Python's ``round(x, 9)`` of every value (correctly rounded: the nearest 9-decimal
    number, ties to even, as the nearest double), as whole arrays: ``rint(x * 1e9) /
    1e9`` is that same double unless ``x * 1e9`` lands within rounding of a half
    (where the product's rounding may cross it), is huge, or is not finite; those few
    values are Python's own ``round``."""
    with np.errstate(invalid="ignore", over="ignore"):
        scaled = values * 1e9
        rounded = np.rint(scaled) / 1e9  # an exact integer over an exact 1e9: the division is correctly rounded
        near_half = np.abs(scaled - np.floor(scaled) - 0.5) <= 4 * np.spacing(np.abs(scaled))
        unsure = near_half | ~(np.abs(scaled) < 2.0 ** 52)
    for k in np.flatnonzero(unsure):
        rounded[k] = round(float(values[k]), 9)
    return rounded


def _enemy_report(d: _Duel, plane: str, top: np.ndarray) -> EnemyReport:
    """Step 6 for one enemy: the pair scores of the plane's ``top`` plans against every
    enemy plan, columns from the most dangerous to the plane."""
    if len(top):
        scores = evaluate_chunk(d.task, top, keep_scores=True, their_score=False).scores
    else:  # no heat map asked (heat_rows=0): no pair to score again (a whole pass of set-up for no row)
        scores = np.zeros((0, len(d.tree.plans)), dtype=np.float32)
    order = np.argsort(scores.mean(axis=0), kind="stable") if len(top) else np.arange(len(d.tree.plans))
    e = d.enemy
    tail_text = None
    if d.i_tail:
        tail_text = MessageText(msg("{chaser} tails {target}", chaser=plane, target=e.name))
    elif d.they_tail:
        tail_text = MessageText(msg("{chaser} tails {target}", chaser=e.name, target=plane))
    return EnemyReport(e.name, d.tree.plans, d.tree.weights, d.tree.drawn, tail_text, d.note, d.per_plan,
                       scores[:, order], top, order)


def _here(fn: Callable, task, chunks) -> list:
    """The chunks computed in this process, in order."""
    return [fn(task, c) for c in chunks]


def best_plan(table: Table, plane: str, orders: Mapping | None = None, score: ScoreWeights = ScoreWeights()) -> Orders:
    """The orders an analysing opponent gives ``plane`` (``furball turn --auto``): the
    best-ranked plan of :func:`analyze` against the enemies within reach, keeping the
    drops and tail wish of its ``orders``. A plane with no enemy in reach flies the
    first legal plan (deck order) that keeps it on the table."""
    old = (orders or {}).get(plane) or Orders()
    report = analyze(table, plane, orders=orders, score=score, heat_rows=0)
    return replace(old, plan=report.best())


WEIGHT_FIELDS = ("plane", "cards", "weight")
MAX_WEIGHTS = 100_000
"""The most plans an enemy-weights file may list."""


def load_enemy_weights(path: str, table: Table) -> dict[str, dict[tuple[str, ...], float]]:
    """Read an enemy-weights file (docs/analyze.md): ``[[plan]]`` tables with ``plane``
    (an enemy's name), ``cards`` (its three card ids: a legal plan, listed once) and
    ``weight`` (a finite number >= 0, at least one positive per plane). Plans of a plane
    not listed weigh 0; planes not named keep equal weights. Raises :class:`InputError`
    with one line naming the file, entry and field."""
    top = FileTable(load_toml(path), str(path)).only(("plan", "notes"))
    entries = top.list("plan")
    if len(entries) > MAX_WEIGHTS:
        raise top.error("plan", f"at most {MAX_WEIGHTS} plans", f"{len(entries)} plans")
    out: dict[str, dict[tuple[str, ...], float]] = {}
    where: dict[tuple[str, tuple[str, ...]], FileTable] = {}
    for i, raw in enumerate(entries):
        t = FileTable(raw, f"{path}: plan #{i + 1}").only(WEIGHT_FIELDS)
        name = t.string("plane")
        if name not in table.names:
            raise t.error("plane", f"a plane of the scenario ({', '.join(table.names)})", name)
        cards = t.strings("cards")
        if len(cards) != CARDS_PER_TURN:
            raise t.error("cards", f"{CARDS_PER_TURN} card ids (DF.M1)", list(cards))
        plans = out.setdefault(name, {})
        if tuple(cards) in plans:
            raise t.error("cards", f"a plan not listed before for plane '{name}'", list(cards))
        plans[tuple(cards)] = t.number("weight", minimum=0.0)
        where[name, tuple(cards)] = t
    for name, plans in out.items():
        enemy = table.plane(name)
        legal = set(legal_plans(enemy, table.rules)) if needs_plan(enemy) else set()
        for cards in plans:
            if cards not in legal:
                raise where[name, cards].error("cards", f"a legal plan of '{name}' (DF.M1, DF.M5, DF.B1, DF.H3)",
                                               list(cards))
        if not any(plans.values()):
            raise top.error("plan", f"a positive weight for at least one plan of '{name}'", "every weight 0")
    return out
