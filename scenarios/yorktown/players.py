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
    back plus a point for the landing roll, and lands (dropping its bomb first when a
    landing roll is due: a die more);
  - **rolls** (YT.D2): after each throw it weighs every result still within reach (a
    pair or three equal when searching or landing; each set of targets, and each
    Shōhō set, when attacking) by the exact chain of :mod:`.dice` — its chance in the
    throws left, the risk of a crash — and throws again, keeping the dice that serve
    the best of them, while the expected gain is worth a throw's seconds and the fuel
    its 1s may cost; else it stops; it assigns an attack's results to the outcome
    worth most; it chooses an attack's scope by the same expected values;
  - **the expansions**: Hawk eye on its first search, Decisive on a Shōhō attack,
    Efficient when the fuel for the 1s runs short, Ground ace when a landing roll is
    due, Aggressive when a Lightning Attack is worth it, Invisible when it shortens a
    way; a spare external tank when it takes off without a bomb; a striker on its way
    turns a face-down weather tile while the search is still two levels short.
"""
from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import numpy as np

from .actions import FACES, Action, Card, Colour, Expansion, Kind, Load, Maneuver, MoveKind, Phase, Scope, Target
from .board import CACHE_SIZE, ISLANDS
from .crews import attack_dice, need, scope_targets
from .dice import RollPolicy, chances_from, keep_faces, keep_sizes, roll_summary, satisfies, sets_of
from .rolls import ATTACKS, LANDINGS, Purpose

__all__ = ["RandomPlayer", "HeuristicPlayer", "PLAYERS"]

PLAYERS = ("heuristic", "random")
ORDER = {Card.SEARCH: 0, Card.ATTACK: 1, Card.MOVE: 2, Card.LAND_TAKE_OFF: 3}
"""The order the heuristic calls the planes in: searches first, then attacks (those on
the Shōhō last), moves, and the runway."""
STRIKE_LEVEL, PATIENT_FUEL, PATIENT_TURNS = 5, 5, 3
"""Strikers wait for search 5 (a die more against the Shōhō) while the Yorktown is
unhurt, their fuel above 5 and the clock leaves time for 3 more turns; else they strike
at 3."""
THROWS_PER_TURN = 5
"""Throws in a turn, for the heuristic's estimate of a turn's time (about what it throws)."""


def turn_seconds(s) -> int:
    """The heuristic's estimate of a turn's seconds on the clock: the Japanese phase, the
    talk, seat 0's discs, an action per plane and a few throws (the time model's figures)."""
    t, setup = s.setup.time, s.setup
    planes = len(s.alive())
    return (t.japanese_phase + t.talk(setup.players) + t.choice * setup.seat_of.count(0) + t.action * planes
            + t.throw * THROWS_PER_TURN)
HUNT_REACH, HUNT_DAMAGE = 3, 2
"""A free plane goes up to 3 white-line steps to clear an island of the located chain
once the Yorktown has taken 2 hits (one more sinks it), or 1 hit when the search no
longer needs that plane (the Shōhō is located)."""
HOME_MARGIN = 1
"""Fuel kept beyond the way home: a point for the landing roll (skill + 1 dice)."""
POLICY = RollPolicy(max_throws=8, fuel_reserve=1)
"""The heuristic's limits in a roll: at most 8 throws, and no throw once the fuel left
for the 1s is down to 1 (a 1 is never paid with the last point)."""
SINK, HIT, THREAT_PLANE, PLANE, CAP_ZEKE, CRASH = 10.0, 3.0, 3.0, 1.0, 1.5, 3.0
"""What results are worth to the heuristic: sinking the Shōhō, a hit on it, a plane on
an island of the located chain, another plane, a CAP Zeke (a die more against the
Shōhō); a crash costs 3."""
LEVEL, SKILL_POINT = 1.0, 0.2
"""A search level, and the skill point of a successful search."""
SAFE, UNHURT = 6.0, 3.0
"""A safe landing, and a crash with the pilot unhurt (a crash with the pilot hurt: 0)."""
THROW_COST, FUEL_COST = 0.03, 0.2
"""The cost of one more throw (its seconds on the clock) and of a fuel point paid for a 1."""


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


@lru_cache(maxsize=CACHE_SIZE)
def attack_goals(choices: tuple[tuple[tuple[int, float], ...], ...]) -> tuple[tuple[tuple[int, ...], float], ...]:
    """The goals of an attack's roll as ``(aim, value)``: ``choices`` gives, per target,
    the sets that serve it with their values (a plane one, the Shōhō one per size); every
    combination of targets is an aim (set sizes, largest first) worth the best sum of
    values that makes it. A pure function, cached."""
    best: dict[tuple[int, ...], float] = {}

    def rec(i: int, sizes: tuple[int, ...], value: float) -> None:
        if i == len(choices):
            if sizes:
                aim = tuple(sorted(sizes, reverse=True))
                best[aim] = max(best.get(aim, 0.0), value)
            return
        rec(i + 1, sizes, value)
        for n, worth in choices[i]:
            rec(i + 1, sizes + (n,), value + worth)

    rec(0, (), 0.0)
    return tuple(best.items())


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
            # a plane without a card (a position a search made) goes last
            action = min(legal, key=lambda a: (ORDER.get(s.choice[a.plane], len(ORDER)), s.load[a.plane] == Load.BOMB,
                                               a.plane))
        elif ph == Phase.PLANE:
            action = self._carry_out(s, s.acting, legal)
        elif ph == Phase.ROLL:
            action = self._throw_or_stop(s, legal)
        elif ph == Phase.ASSIGN:
            action = max(legal, key=lambda a: self._outcome_value(s, a.plane, a.targets, a.aim))
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

    @staticmethod
    def _weather_search(s, p: int, goal: int) -> bool:
        """Weather (expansion): a striker on its way, standing on a face-down tile, turns
        it (good visibility is a search level) while the Shōhō is not located yet: the
        strikers wait for the search anyway, the searchers must not lose a turn."""
        board = s.setup.board
        k = board.island_of[s.loc[p]]
        return (Expansion.WEATHER in s.setup.expansions and s.weather[k] is not None and not s.revealed[k]
                and s.search + 2 <= s.setup.rules.located and (board.distance(s.loc[p], goal) or 99) <= 1)

    def _wants_tank(self, s) -> bool:
        """External tank (expansion): a plane taking off without a bomb takes one when a
        token is spare (the bombs the strikers still need stay in the reserve)."""
        bombers = sum(1 for p in s.alive() if s.load[p] == Load.BOMB)
        return Expansion.TANK in s.setup.expansions and s.bombs_left() > 2 - bombers

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
                patient = s.yorktown == 0 and fuel > PATIENT_FUEL and \
                    s.setup.limit - s.clock > PATIENT_TURNS * turn_seconds(s)
                plan[p] = Card.SEARCH if patient and s.search < STRIKE_LEVEL else Card.ATTACK
                continue
            if fuel <= self._home_need(s, p):
                plan[p] = Card.MOVE
                continue
            if role == "strike":
                plan[p] = (Card.ATTACK if s.search >= r.located else Card.SEARCH) if orange else \
                    Card.SEARCH if self._weather_search(s, p, goal) else Card.MOVE
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
            return self._land(s, p, legal)
        return next((a for a in legal if a.kind == Kind.FORFEIT), legal[-1])

    # -- rolls ---------------------------------------------------------------------
    def _target_value(self, s, p, t: Target, size: int) -> float:
        if t == Target.SHOHO:
            r = s.setup.rules
            left = r.shoho_hits_to_sink - s.shoho
            damage = left if size >= r.perfect else min(left, r.hits(size))
            return SINK if damage >= left else HIT * damage
        if t == Target.CAP:
            return CAP_ZEKE
        return THREAT_PLANE if s.setup.board.island_of[s.loc[p]] in self._threat_islands(s) else PLANE

    def _outcome_value(self, s, p, targets, sizes) -> float:
        return sum(self._target_value(s, p, t, n) for t, n in zip(targets, sizes))

    def _goals(self, s, p, purpose: Purpose, targets=()) -> tuple[tuple[tuple[int, ...], float], ...]:
        """The results worth throwing for, as ``(aim, value)``: set sizes (largest first)
        and what meeting them is worth (the best value of each aim)."""
        r = s.setup.rules
        if purpose == Purpose.SEARCH:
            return tuple(((n,), r.levels(n) * LEVEL + SKILL_POINT) for n in (2, 3))
        if purpose == Purpose.WEATHER:
            return (((r.weather_flip,), 1.0),)
        if purpose in LANDINGS:
            return (((r.landing_safe,), SAFE), ((r.landing_unhurt,), UNHURT))
        return attack_goals(tuple(tuple((n, self._target_value(s, p, t, n)) for n in
                                        (range(2, r.perfect + 1) if t == Target.SHOHO else (need(s, t),)))
                                  for t in targets))

    def _result_value(self, s, roll) -> float:
        """What the roll's result is worth if it stops now."""
        r = s.setup.rules
        if roll.purpose in ATTACKS:
            return max((self._outcome_value(s, roll.plane, t, n) for t, n in s.assignments), default=0.0)
        best = roll.best
        if roll.purpose == Purpose.SEARCH:
            return r.levels(best) * LEVEL + (SKILL_POINT if r.levels(best) else 0.0)
        if roll.purpose == Purpose.WEATHER:
            return 1.0 if best >= r.weather_flip else 0.0
        return SAFE if best >= r.landing_safe else UNHURT if best >= r.landing_unhurt else 0.0

    def _throw_or_stop(self, s, legal) -> Action:
        """Throw again, keeping the dice that serve the most rewarding goal within reach
        (the exact chain of :mod:`.dice` gives the chance of meeting it in the throws
        left, and of a crash), while the expected gain is worth a throw's time and the
        fuel its 1s may cost; else stop."""
        roll = s.roll
        p = roll.plane
        stop = legal[0]
        active = len(roll.faces)
        throws_left = POLICY.max_throws - roll.throws
        fuel = s.fuel[p] if roll.fuel_costs else None
        if len(legal) == 1 or throws_left <= 0 or (fuel is not None and fuel <= POLICY.fuel_reserve):
            return stop
        now = self._result_value(s, roll)
        counts = roll.counts
        sizes = sets_of(counts)
        best_gain, best_aim = 0.0, None
        for aim, value in self._goals(s, p, roll.purpose, roll.targets):
            if value <= now + 1e-9 or sum(aim) > active or satisfies(sizes, aim):
                continue
            kept = tuple(sorted((k for k in keep_sizes(sizes, aim, active) if k), reverse=True))
            met, crash = chances_from(kept, active, aim, POLICY, fuel, throws_left)
            thrown = active - sum(kept)
            gain = met * (value - now) - crash * CRASH - THROW_COST - (thrown / 6 * FUEL_COST if fuel is not None
                                                                         else 0.0)
            if gain > best_gain:
                best_gain, best_aim = gain, aim
        if best_aim is None:
            return stop
        per_face = keep_faces(counts, best_aim, active)
        keep = [f for f in FACES if per_face[f]]
        if sum(counts[f] for f in keep) >= active:  # a face's dice go together: throw the smallest kept face
            keep.remove(min(keep, key=lambda f: (counts[f], f)))
        wanted = tuple(keep)
        return next((a for a in legal if a.kind == Kind.THROW and a.keep == wanted), stop)

    # -- choosing an action ----------------------------------------------------------
    def _search(self, s, p, legal) -> Action:
        """Search; play Hawk eye at once (a level more), Efficient when the fuel left for
        the 1s is down to 2."""
        options = [a for a in legal if a.kind == Kind.SEARCH]
        plain = next(a for a in options if a.maneuver is None)
        for a in options:
            if a.maneuver == Maneuver.HAWK_EYE:
                return a
            if a.maneuver == Maneuver.EFFICIENT and s.fuel[p] - s.setup.rules.action_die <= 2:
                return a
        return plain

    def _attack_value(self, s, p, a, full=True) -> float:
        """Expected worth of an attack: the best goal of its scope times its chance (the
        exact chain), less the crash risk; Decisive counts a little on the Shōhō,
        Efficient when fuel is short, any other tile is kept for later."""
        r = s.setup.rules
        n = attack_dice(s, p, a.scope, full)
        fuel = None if a.maneuver == Maneuver.EFFICIENT else s.fuel[p] - (r.action_die if full else 0)
        value = 0.0
        for aim, worth in self._goals(s, p, Purpose.ATTACK, scope_targets(s, p, a.scope)):
            met, crash, _ = roll_summary(n, aim, POLICY, fuel)
            value = max(value, met * worth - crash * CRASH)
        if a.maneuver == Maneuver.DECISIVE:
            value += 0.5 if a.scope == Scope.SHOHO else -0.2
        elif a.maneuver == Maneuver.EFFICIENT:
            value += 0.0 if s.fuel[p] <= 3 else -0.2
        return value

    def _attack(self, s, p, legal) -> Action:
        return max(legal, key=lambda a: (self._attack_value(s, p, a), a.maneuver is None))

    def _land(self, s, p, legal) -> Action:
        """Land: with Ground ace when a roll is due; else drop the bomb first (one die
        more; a landing returns it to the reserve anyway)."""
        lands = [a for a in legal if a.kind == Kind.LAND]
        rolls = s.fuel[p] < s.setup.rules.landing_auto_fuel
        ace = next((a for a in lands if a.maneuver == Maneuver.GROUND_ACE), None)
        if rolls and ace is not None:
            return ace
        if rolls and any(a.kind == Kind.JETTISON for a in legal):
            return next(a for a in legal if a.kind == Kind.JETTISON)
        return next(a for a in lands if a.maneuver is None)

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
        want = Load.BOMB if self._wants_bomb(s) else Load.TANK if self._wants_tank(s) else None
        goal = board.island_node[self._strike_island(s)] if want else self._targets(s).get(p, ("search", None))[1]
        options = [a for a in legal if a.load == want] or [a for a in legal if a.load is None]

        def key(a):
            d = board.distance(a.to, goal) if goal is not None else 0
            return (99 if d is None else d, a.to != board.approach, a.to)
        return min(options, key=key)

    def _after_move(self, s, p, legal) -> Action:
        kinds = {a.kind for a in legal}
        if Kind.EMERGENCY_LANDING in kinds:
            ace = next((a for a in legal if a.kind == Kind.EMERGENCY_LANDING and a.maneuver), None)
            if ace is not None:
                return ace
            if Kind.JETTISON in kinds:
                return next(a for a in legal if a.kind == Kind.JETTISON)
            return next(a for a in legal if a.kind == Kind.EMERGENCY_LANDING)
        attacks = [a for a in legal if a.kind == Kind.LIGHTNING]
        if attacks and s.fuel[p] > 2:
            def value(a):
                return self._attack_value(s, p, a, a.maneuver == Maneuver.AGGRESSIVE)
            best = max(attacks, key=lambda a: (value(a), a.maneuver is None))
            if value(best) > 0.15:
                return best
        return next(a for a in legal if a.kind == Kind.CARRY_ON)
