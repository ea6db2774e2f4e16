"""Players for 1942 USS Yorktown: a random legal player and a cooperative heuristic.

A player is any object with ``choose(state) -> Action`` returning one of
``state.legal_actions()``; every seat of a game gets its own copy, and the heuristic
seats play the same team plan (a pure function of the position), so they cooperate
without talking.

* :class:`RandomPlayer` picks an action kind uniformly among the legal kinds, then an
  action of that kind uniformly; seeded.
* :class:`HeuristicPlayer` plays the way the rules recommend:

  - **break the located chain**: when the Japanese planes chain an orange island to a
    red one and the Yorktown is in danger (2 hits taken, or 1 once the Shōhō is
    located), the nearest free planes hunt the planes on the islands of a board-graph
    ``vertex_cut`` of that chain (any island whose clearing alone breaks it first),
    moving there and attacking at once (Lightning Attack); a plane on such an island
    attacks it whenever it has nothing better to do. (Measured: hunting earlier, or
    before the chain is complete, takes searchers away and loses more games than the
    Yorktown's hits do with the shipped data.)
  - **search together**: planes without a bomb fly to *different* orange islands and
    search there in the same turn (each gets a die per other searcher), until the
    Shōhō is located (search 3) — and on towards 5 and 7 for the bonus dice;
  - **strike together**: two planes take off with bombs, gather on one orange island
    and attack the Shōhō in the same turn (a die each for the other), after the
    searches of that turn — from search 3, or 5 while the Yorktown is unhurt and
    there is fuel and time to wait for the bonus die;
  - **land before fuel runs out**: a plane turns home when its fuel only covers the way
    back plus a point for the landing roll, and lands;
  - rolls aim at what pays best by the exact chain of :mod:`.dice` (pair or triple
    when searching; which targets and which Shōhō set when attacking).
"""
from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import numpy as np

from .actions import Action, Card, Colour, Kind, Load, Maneuver, MoveKind, Phase, Target
from .board import CACHE_SIZE, ISLANDS
from .crews import attack_dice, search_dice
from .dice import roll_summary

__all__ = ["RandomPlayer", "HeuristicPlayer", "PLAYERS"]

PLAYERS = ("heuristic", "random")
ORDER = {Card.SEARCH: 0, Card.ATTACK: 1, Card.MOVE: 2, Card.LAND_TAKE_OFF: 3}
"""The order the heuristic calls the planes in: searches first, then attacks (those on
the Shōhō last), moves, and the runway."""
STRIKE_LEVEL, PATIENT_FUEL, PATIENT_TURNS = 5, 5, 8
"""Strikers wait for search 5 (a die more against the Shōhō) while the Yorktown is
unhurt, their fuel above 5 and the turn before the 8th; else they strike at 3."""
HUNT_REACH, HUNT_DAMAGE = 3, 2
"""A free plane goes up to 3 white-line steps to clear an island of the located chain
once the Yorktown has taken 2 hits (one more sinks it), or 1 hit when the search no
longer needs that plane (the Shōhō is located)."""
HOME_MARGIN = 1
"""Fuel kept beyond the way home: a point for the landing roll (skill + 1 dice)."""


@lru_cache(maxsize=CACHE_SIZE)
def threat_islands(board, mask: int) -> tuple[int, ...]:
    """Occupied islands worth clearing (``mask``: the occupancy): when located, those
    whose clearing alone breaks every chain, else a vertex cut; when one more plane would
    locate the Yorktown, the occupied islands of the vertex cuts of those chains. A pure
    function of the map and the occupancy, cached like the map's own queries."""
    if board.located(mask):
        single = [k for k in board.occupied(mask) if not board.located(mask & ~(1 << k))]
        return tuple(single or board.cut(mask))
    found: set[int] = set()
    for k in range(ISLANDS):
        if not mask >> k & 1 and board.located(mask | 1 << k):
            found.update(j for j in board.cut(mask | 1 << k) if mask >> j & 1)
    return tuple(sorted(found))


class RandomPlayer:
    """Uniform random legal play (two-level: kind, then action); seeded."""

    name = "random"

    def __init__(self, seed: int = 0, seat: int = 0):
        self.rng = np.random.default_rng([int(seed), 7919, int(seat)])

    def choose(self, state) -> Action:
        """A random legal action: a kind first, then an action of that kind."""
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
        self._memo: dict = {}

    def _position(self, s) -> tuple:
        """What the team plan depends on (not the choices being made, nor the clock)."""
        return (s.loc, s.fuel, s.load, s.japanese, s.search, s.cap, s.shoho, s.done, s.yorktown)

    def _remember(self, what: str, s, compute):
        key = (what, self._position(s))
        hit = self._memo.get(key)
        if hit is None:
            if len(self._memo) > 256:
                self._memo.clear()
            hit = self._memo[key] = compute(s)
        return hit

    def choose(self, s) -> Action:
        """The team plan's action for the deciding seat (a legal action)."""
        legal = s.legal_actions()
        ph = s.phase
        if ph == Phase.SET_UP:
            action = self._set_up(s, legal)
        elif ph == Phase.CHOOSE:
            card = self._remember("plan", s, self._plan)[s.chooser()]
            action = next(a for a in legal if a.card == card)
        elif ph == Phase.NEXT:
            action = min(legal, key=lambda a: (ORDER[s.choice[a.plane]], s.load[a.plane] == Load.BOMB, a.plane))
        elif ph == Phase.PLANE:
            action = self._carry_out(s, s.acting, legal)
        else:
            action = self._after_move(s, s.acting, legal)
        return action if s.is_legal(action) else legal[-1]

    # -- the position ------------------------------------------------------------
    @staticmethod
    def _threat_islands(s) -> tuple[int, ...]:
        """Occupied islands worth clearing (:func:`threat_islands`), easiest first: fewest
        equal results to shoot their planes down."""
        planes = s.setup.deck.planes
        return tuple(sorted(threat_islands(s.setup.board, s.mask),
                            key=lambda k: (sum(planes[t].shoot_down for t in s.japanese[k]), k)))

    def _home_need(self, s, p) -> int:
        """Fuel to keep: the way home (1 when the return is clear, else the steps to the
        approach zone) plus 2, so that the landing roll has skill + 2 dice (YT.A5)."""
        board = s.setup.board
        at = s.loc[p]
        way = 1 if board.can_return(at, s.mask) else (board.distance(at, board.approach) or 4)
        return way + HOME_MARGIN

    @staticmethod
    def _strike_island(s) -> int:
        """The orange island the bombers gather on: nearest to the approach zone."""
        board = s.setup.board
        return min(board.orange, key=lambda k: (board.distance(board.approach, board.island_node[k]) or 99,
                                                -len(board.steps[board.island_node[k]]), k))

    def _wants_bomb(self, s) -> bool:
        return sum(1 for p in s.alive() if s.load[p] == Load.BOMB) < 2 and s.bombs_left() > 0

    # -- set-up ------------------------------------------------------------------
    def _set_up(self, s, legal):
        board = s.setup.board

        def reach(node):
            return min(board.distance(node, board.island_node[k]) or 99 for k in board.orange)
        return min(legal, key=lambda a: (sum(reach(n) for n in a.nodes), a.nodes))

    # -- the team plan -----------------------------------------------------------
    def _targets(self, s):
        """Each plane's role and goal node (remembered per position)."""
        return self._remember("roles", s, self._roles)

    def _roles(self, s):
        board, r = s.setup.board, s.setup.rules
        alive = s.alive()
        roles: dict[int, tuple[str, int]] = {}
        strike = board.island_node[self._strike_island(s)]
        for p in alive:
            if s.load[p] == Load.BOMB:
                roles[p] = ("strike", strike)
        free = [p for p in alive if p not in roles and s.loc[p] not in (board.runway, board.approach)]
        threat = self._threat_islands(s) if s.located() else ()
        searching = s.search < r.located  # the search still needs the free planes
        danger = s.yorktown >= HUNT_DAMAGE  # one more hit may sink the Yorktown
        if threat and (danger or not searching and s.yorktown >= HUNT_DAMAGE - 1):
            for k in threat:
                node = board.island_node[k]
                cands = [p for p in free if p not in roles]
                if not cands or searching and not danger and len(cands) <= 1:
                    break
                p = min(cands, key=lambda q: (board.distance(s.loc[q], node) or 99, q))
                if (board.distance(s.loc[p], node) or 0) <= HUNT_REACH:
                    roles[p] = ("hunt", node)
        used: set[int] = set()
        for p in sorted(alive, key=lambda q: board.island_of[s.loc[q]] not in board.orange
                        if board.island_of[s.loc[q]] is not None else True):
            if p in roles:
                continue
            k = board.island_of[s.loc[p]]
            if k is not None and k in board.orange and k not in used:
                used.add(k)
                roles[p] = ("search", s.loc[p])
                continue
            options = [k for k in board.orange if k not in used and board.island_node[k] != strike] or \
                [k for k in board.orange if k not in used] or list(board.orange)
            k = min(options, key=lambda j: (board.distance(s.loc[p], board.island_node[j]) or 99, j))
            used.add(k)
            roles[p] = ("search", board.island_node[k])
        return roles

    def _plan(self, s) -> dict[int, Card]:
        """Each plane's card this turn (a pure function of the position)."""
        board, r = s.setup.board, s.setup.rules
        roles = self._targets(s)
        plan: dict[int, Card] = {}
        runway = 0
        bombers = sum(1 for p in s.alive() if s.load[p] == Load.BOMB)
        order = sorted(s.alive(), key=lambda p: (s.loc[p] != board.approach, s.fuel[p], p))
        for p in order:
            at, fuel = s.loc[p], s.fuel[p]
            role, goal = roles[p]
            if at == board.runway:
                plan[p] = Card.LAND_TAKE_OFF if runway < board.runway_places else Card.SEARCH
                runway += 1
                continue
            if at == board.approach:
                wants_bomb = s.load[p] is None and bombers < 2 and s.bombs_left() > 0
                if wants_bomb or fuel < r.landing_auto_fuel + 2:
                    plan[p] = Card.LAND_TAKE_OFF
                    runway += 1
                    bombers += 1 if wants_bomb else 0
                else:
                    plan[p] = Card.MOVE
                continue
            k = board.island_of[at]
            here = s.japanese[k]
            orange = board.colours[k] == Colour.ORANGE
            if role == "strike" and orange and s.search >= r.located and fuel >= r.action_die + 1:
                patient = s.yorktown == 0 and fuel > PATIENT_FUEL and s.turn < PATIENT_TURNS
                plan[p] = Card.SEARCH if patient and s.search < STRIKE_LEVEL else Card.ATTACK
                continue
            if fuel <= self._home_need(s, p):
                plan[p] = Card.MOVE
                continue
            if role == "strike":
                plan[p] = (Card.ATTACK if s.search >= r.located else Card.SEARCH) if orange else Card.MOVE
            elif role == "hunt":
                plan[p] = Card.ATTACK if here and (at == goal or k in self._threat_islands(s)) else Card.MOVE
            elif orange and s.search < len(board.search_nodes) - 1:
                plan[p] = Card.SEARCH
            elif here and k in self._threat_islands(s):
                plan[p] = Card.ATTACK
            else:
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
            return [a for a in legal if a.kind == Kind.LAND][-1]
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
        """Expected worth of an attack (exact roll chain): sinking the Shōhō 10, a hit
        3, a plane on a threat island 3, another plane 1; a crash costs 3."""
        r = s.setup.rules
        n = attack_dice(s, p, a.targets, full)
        fuel = None if a.maneuver == Maneuver.EFFICIENT else s.fuel[p] - (r.action_die if full else 0)
        aim = tuple(sorted(a.aim, reverse=True))
        met, crash, dist = roll_summary(n, aim, r.roll, fuel)
        k = s.setup.board.island_of[s.loc[p]]
        if Target.SHOHO in a.targets:
            left = r.shoho_hits_to_sink - s.shoho
            value = 0.0
            for size, prob in enumerate(dist):
                dmg = left if size >= r.perfect else min(left, r.hits(size))
                value += prob * (10.0 if dmg >= left else 3.0 * dmg)
            value += met * (len(a.targets) - 1)
        else:
            value = met * (3.0 if k in self._threat_islands(s) else 1.0) * len(a.targets)
        return value - 3 * crash

    def _attack(self, s, p, legal) -> Action:
        return max(legal, key=lambda a: (self._attack_value(s, p, a), -len(a.aim), -sum(a.aim)))

    def _move(self, s, p, legal) -> Action:
        board = s.setup.board
        role, goal = self._targets(s).get(p, ("search", None))
        _at, fuel = s.loc[p], s.fuel[p]
        home = fuel <= self._home_need(s, p)
        if home:
            back = [a for a in legal if a.via == MoveKind.RETURN]
            if back:
                return back[0]
            goal = board.approach
        if goal is None:
            return legal[0]
        urgent = (role == "hunt" and s.located()) or (role == "strike" and s.search >= s.setup.rules.located)
        spare = fuel - self._home_need(s, p) - 3

        def key(a):
            d = board.distance(a.to, goal)
            d = 99 if d is None else d
            double = a.via == MoveKind.DOUBLE
            if double and not (urgent or role == "search") or double and spare < 1:
                d += 10
            return (d, double, a.maneuver is not None, a.to)
        return min(legal, key=key)

    def _take_off(self, s, p, legal) -> Action:
        board = s.setup.board
        want = Load.BOMB if self._wants_bomb(s) else None
        goal = board.island_node[self._strike_island(s)] if want else self._targets(s).get(p, ("search", None))[1]
        options = [a for a in legal if a.load == want] or [a for a in legal if a.load is None]

        def key(a):
            d = board.distance(a.to, goal) if goal is not None else 0
            return (99 if d is None else d, a.to != board.approach, a.to)
        return min(options, key=key)

    def _after_move(self, s, p, legal) -> Action:
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
