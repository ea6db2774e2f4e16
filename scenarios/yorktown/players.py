"""Players for 1942 USS Yorktown: a random legal player and a cooperative heuristic.

A player is any object with ``choose(state) -> Action`` returning one of
``state.legal_actions()``; every seat of a game gets its own copy, and the heuristic
seats play the same team plan (a pure function of the position), so they cooperate
without talking.

* :class:`RandomPlayer` picks an action kind uniformly among the legal kinds, then an
  action of that kind uniformly; seeded.
* :class:`HeuristicPlayer` plays the way the rules recommend:

  - **break the located chain**: when the Japanese planes chain an orange island to a
    red one (or one more plane would), hunters attack the planes on the islands of a
    board-graph ``vertex_cut`` of that chain (any island whose clearing alone breaks
    it first), moving there and attacking at once (Lightning Attack) when they can;
  - **search together**: planes without a bomb fly to *different* orange islands and
    search there in the same turn (each gets a die per other searcher), until the
    Shōhō is located (search 3) — and on towards 5 and 7 for the bonus dice;
  - **strike together**: two planes take off with bombs, gather on one orange island
    and attack the Shōhō in the same turn (a die each for the other), after the
    searches of that turn;
  - **land before fuel runs out**: a plane turns home when its fuel would no longer
    cover the way back plus an automatic landing (5 fuel), and lands;
  - rolls aim at what pays best by the exact chain of :mod:`.dice` (pair or triple
    when searching; which targets and which Shōhō set when attacking).
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from .actions import PLANES, Action, Card, Colour, Kind, Load, Maneuver, MoveKind, Phase, Target
from .board import ISLANDS
from .crews import attack_dice, landing_dice, search_dice
from .dice import roll_summary

__all__ = ["RandomPlayer", "HeuristicPlayer", "PLAYERS"]

PLAYERS = ("heuristic", "random")
HOME_FUEL = 6
"""Fuel a plane keeps to fly back (1) and land without a roll (5)."""
ORDER = {Card.SEARCH: 0, Card.ATTACK: 1, Card.MOVE: 2, Card.LAND_TAKE_OFF: 3}


class RandomPlayer:
    """Uniform random legal play (two-level: kind, then action); seeded."""

    name = "random"

    def __init__(self, seed: int = 0, seat: int = 0):
        self.rng = np.random.default_rng([int(seed), 7919, int(seat)])

    def choose(self, state) -> Action:
        by_kind: dict = defaultdict(list)
        for a in state.legal_actions():
            by_kind[a.kind].append(a)
        kinds = list(by_kind)
        options = by_kind[kinds[int(self.rng.integers(len(kinds)))]] if len(kinds) > 1 else by_kind[kinds[0]]
        return options[int(self.rng.integers(len(options)))] if len(options) > 1 else options[0]


class HeuristicPlayer:
    """The cooperative heuristic (see the module doc); deterministic."""

    name = "heuristic"

    def __init__(self, seed: int = 0, seat: int = 0):
        self.seed, self.seat = seed, seat

    def choose(self, s) -> Action:
        legal = s.legal_actions()
        ph = s.phase
        if ph == Phase.SET_UP:
            action = self._set_up(s, legal)
        elif ph == Phase.CHOOSE:
            p = s.chooser()
            action = Action(Kind.CHOOSE, plane=p, card=self._plan(s)[p])
        elif ph == Phase.NEXT:
            action = min(legal, key=lambda a: (ORDER[s.choice[a.plane]], self._strike_rank(s, a.plane), a.plane))
        elif ph == Phase.PLANE:
            action = self._carry_out(s, s.acting, legal)
        else:
            action = self._after_move(s, s.acting, legal)
        return action if s.is_legal(action) else legal[-1]

    # -- where things are ------------------------------------------------------
    @staticmethod
    def _island(s, p):
        return s.setup.board.island_of[s.loc[p]] if s.loc[p] is not None else None

    def _strike_rank(self, s, p) -> int:
        """Among attackers, those aiming at the Shōhō go last (after the searches and
        the other attacks)."""
        return 1 if s.load[p] == Load.BOMB else 0

    @staticmethod
    def _threat_islands(s) -> tuple[int, ...]:
        """Occupied islands worth clearing: when located, those whose clearing alone
        breaks every chain, else a vertex cut; when one more plane would locate the
        Yorktown, the vertex cut of that chain; else ()."""
        board, mask = s.setup.board, s.mask
        key = ("threat", mask)
        hit = board._cache.get(key)
        if hit is not None:
            return hit
        if board.located(mask):
            single = tuple(k for k in board.occupied(mask) if not board.located(mask & ~(1 << k)))
            hit = single or board.cut(mask)
        else:
            near = [k for k in range(ISLANDS) if not mask >> k & 1 and board.located(mask | 1 << k)]
            cut: set[int] = set()
            for k in near:
                cut.update(j for j in board.cut(mask | 1 << k) if mask >> j & 1)
            hit = tuple(sorted(cut))
        board._cache[key] = hit
        return hit

    # -- set-up ------------------------------------------------------------------
    def _set_up(self, s, legal):
        board = s.setup.board

        def reach(node):
            return min(board.distance(node, board.island_node[k]) or 99 for k in board.orange)
        return min(legal, key=lambda a: (sum(reach(n) for n in a.nodes), a.nodes))

    # -- the team plan -----------------------------------------------------------
    def _targets(self, s):
        """Where each plane wants to be: a node, and its role."""
        board, r = s.setup.board, s.setup.rules
        threat = self._threat_islands(s)
        located = s.located()
        alive = s.alive()
        bombers = [p for p in alive if s.load[p] == Load.BOMB]
        strike = self._strike_island(s)
        hunters_needed = len(threat) if threat else 0
        free = [p for p in alive if p not in bombers]
        roles: dict[int, tuple[str, int | None]] = {}
        # hunters: the free planes nearest to the threat islands
        taken: set[int] = set()
        for k in threat:
            node = board.island_node[k]
            cands = [p for p in free if p not in taken and s.loc[p] not in (board.runway,)]
            if not cands:
                break
            p = min(cands, key=lambda q: (board.distance(s.loc[q], node) or 99, q))
            if located or (board.distance(s.loc[p], node) or 99) <= 2:
                roles[p] = ("hunt", node)
                taken.add(p)
            if len(taken) >= max(1, hunters_needed):
                break
        # searchers: different orange islands, nearest first
        used: set[int] = set()
        for p in free:
            if p in roles:
                continue
            options = [k for k in board.orange if k not in used] or list(board.orange)
            k = min(options, key=lambda j: (board.distance(s.loc[p], board.island_node[j]) or 99, j))
            used.add(k)
            roles[p] = ("search", board.island_node[k])
        for p in bombers:
            roles[p] = ("strike", board.island_node[strike])
        return roles

    @staticmethod
    def _strike_island(s) -> int:
        board = s.setup.board
        return min(board.orange, key=lambda k: (board.distance(board.approach, board.island_node[k]) or 99,
                                                -len(board.steps[board.island_node[k]]), k))

    def _wants_bomb(self, s) -> bool:
        bombers = sum(1 for p in s.alive() if s.load[p] == Load.BOMB)
        return bombers < 2 and s.bombs_left() > 0

    def _plan(self, s) -> dict[int, Card]:
        """Each plane's card this turn (a pure function of the position)."""
        board, r = s.setup.board, s.setup.rules
        roles = self._targets(s)
        plan: dict[int, Card] = {}
        runway = 0
        bombers = sum(1 for p in s.alive() if s.load[p] == Load.BOMB)
        for p in s.alive():
            at, fuel = s.loc[p], s.fuel[p]
            role, goal = roles.get(p, ("search", None))
            k = board.island_of[at]
            if at == board.runway:
                if runway < board.runway_places:
                    plan[p] = Card.LAND_TAKE_OFF
                    runway += 1
                else:
                    plan[p] = Card.SEARCH
                continue
            if at == board.approach:
                wants_bomb = s.load[p] is None and bombers < 2 and s.bombs_left() > 0
                if (wants_bomb or fuel < HOME_FUEL) and runway < board.runway_places:
                    plan[p] = Card.LAND_TAKE_OFF
                    runway += 1
                    bombers += 1 if wants_bomb else 0
                else:
                    plan[p] = Card.MOVE
                continue
            home = fuel <= HOME_FUEL + (0 if board.can_return(at, s.mask) else 1)
            if home:
                plan[p] = Card.MOVE
                continue
            here_jp = s.japanese[k]
            orange = board.colours[k] == Colour.ORANGE
            if role == "strike":
                if orange and s.search >= r.located:
                    plan[p] = Card.ATTACK
                elif orange:
                    plan[p] = Card.SEARCH
                else:
                    plan[p] = Card.MOVE
                continue
            if here_jp and (k in self._threat_islands(s) or (role == "hunt" and at == goal)):
                plan[p] = Card.ATTACK
                continue
            if role == "hunt":
                plan[p] = Card.MOVE if at != goal else Card.SEARCH if orange else Card.MOVE
                continue
            if orange and s.search < len(board.search_nodes) - 1:
                plan[p] = Card.SEARCH
                continue
            if here_jp and fuel > HOME_FUEL + 2:
                plan[p] = Card.ATTACK
                continue
            plan[p] = Card.MOVE
        return plan

    # -- carrying out ----------------------------------------------------------
    def _carry_out(self, s, p, legal) -> Action:
        kinds = {a.kind for a in legal}
        if Kind.SEARCH in kinds:
            return self._search(s, p, legal)
        if Kind.ATTACK in kinds:
            return self._attack(s, p, [a for a in legal if a.kind == Kind.ATTACK])
        if Kind.MOVE in kinds:
            return self._move(s, p, [a for a in legal if a.kind == Kind.MOVE])
        if Kind.TAKE_OFF in kinds:
            return self._take_off(s, p, [a for a in legal if a.kind == Kind.TAKE_OFF])
        if Kind.LAND in kinds:
            lands = [a for a in legal if a.kind == Kind.LAND]
            return lands[-1]
        return next((a for a in legal if a.kind == Kind.FORFEIT), legal[-1])

    def _search(self, s, p, legal) -> Action:
        r = s.setup.rules
        best, key = None, None
        for a in legal:
            if a.kind != Kind.SEARCH:
                continue
            n = search_dice(s, p)
            fuel = None if a.maneuver == Maneuver.EFFICIENT else s.fuel[p] - r.action_die
            met, crash, dist = roll_summary(n, a.aim, r.roll, fuel)
            gain = sum(prob * r.levels(size) for size, prob in enumerate(dist))
            if a.maneuver == Maneuver.HAWK_EYE:
                gain += 1
            value = gain - 3 * crash - (0.05 if a.aim[0] > 2 else 0)
            if key is None or value > key:
                best, key = a, value
        return best

    def _attack_value(self, s, p, a, full=True) -> float:
        r = s.setup.rules
        n = attack_dice(s, p, a.targets, full)
        fuel = None if a.maneuver == Maneuver.EFFICIENT else s.fuel[p] - (r.action_die if full else 0)
        aim = tuple(sorted(a.aim, reverse=True))
        met, crash, dist = roll_summary(n, aim, r.roll, fuel)
        value = 0.0
        threat = self._threat_islands(s)
        k = self._island(s, p)
        if Target.SHOHO in a.targets:
            left = r.shoho_hits_to_sink - s.shoho
            for size, prob in enumerate(dist):
                dmg = left if size >= r.perfect else min(left, r.hits(size))
                value += prob * (10.0 if dmg >= left else 3.0 * dmg)
            others = [t for t in a.targets if t != Target.SHOHO]
            value += met * len(others)
        else:
            weight = 3.0 if k in threat else 1.0
            value = met * weight * len(a.targets)
        return value - 3 * crash

    def _attack(self, s, p, legal) -> Action:
        return max(legal, key=lambda a: (self._attack_value(s, p, a), -len(a.aim), -sum(a.aim)))

    def _move(self, s, p, legal) -> Action:
        board = s.setup.board
        roles = self._targets(s)
        role, goal = roles.get(p, ("search", None))
        at, fuel = s.loc[p], s.fuel[p]
        home = fuel <= HOME_FUEL + (0 if board.can_return(at, s.mask) else 1)
        for a in legal:
            if a.via == MoveKind.RETURN and (home or goal is None):
                return a
        if home:
            goal = board.approach
        if goal is None:
            return legal[0]

        def key(a):
            d = board.distance(a.to, goal)
            d = 99 if d is None else d
            cost = 3 if a.via == MoveKind.DOUBLE else 1
            urgent = role == "hunt" and s.located()
            return (d, cost if not urgent else 0, a.maneuver is not None, a.to)
        choice = min(legal, key=key)
        if board.distance(choice.to, goal) is not None and board.distance(at, goal) is not None and \
                board.distance(choice.to, goal) >= board.distance(at, goal) and at == goal:
            return legal[0]
        return choice

    def _take_off(self, s, p, legal) -> Action:
        board = s.setup.board
        roles = self._targets(s)
        want = Load.BOMB if self._wants_bomb(s) else None
        goal = board.island_node[self._strike_island(s)] if want else roles.get(p, ("search", None))[1]
        options = [a for a in legal if a.load == want] or [a for a in legal if a.load is None]

        def key(a):
            d = board.distance(a.to, goal) if goal is not None else 0
            return (99 if d is None else d, a.to != board.approach, a.to)
        return min(options, key=key)

    def _after_move(self, s, p, legal) -> Action:
        r = s.setup.rules
        for a in legal:
            if a.kind == Kind.EMERGENCY_LANDING:
                return a
        attacks = [a for a in legal if a.kind == Kind.LIGHTNING]
        if attacks and s.fuel[p] > 2:
            best = max(attacks, key=lambda a: (self._attack_value(s, p, a, a.maneuver == Maneuver.AGGRESSIVE),
                                               -len(a.aim)))
            if self._attack_value(s, p, best, best.maneuver == Maneuver.AGGRESSIVE) > 0.15:
                return best
        return next(a for a in legal if a.kind == Kind.CARRY_ON)
