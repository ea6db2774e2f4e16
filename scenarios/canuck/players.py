"""Players for Operation Canuck: a random legal player and a heuristic player.

A player is any object with ``choose(state) -> Action`` returning one of
``state.legal_actions()``.

* :class:`RandomPlayer` picks an action kind uniformly among the legal kinds, then an
  action of that kind uniformly (so the many ``pause``/``move_counter`` variants do not
  swamp the menu); it never cancels a declaration. Its randomness comes from its own
  seed.
* :class:`HeuristicPlayer` scores each option by a rough expected value in VP (success
  probability of the card totals against the known Axis cards, gain, counters at risk,
  cards spent) and plays the best; it moves Leader-led stacks of 1 Leader + 2 Groups
  onto the weakest garrisons (Alba first late in the game), sabotages weak garrisons
  with many cards, ambushes when its expected score beats the Axis draw, defends
  Bases in Sweeps, keeps Train / Build Base / Supply Drop for when they pay, and when it
  must lose counters gives up Groups before Leaders and Leaders before the Base, keeping
  its last Group when the Reserve is empty (so as not to end the game in deadlock).
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .actions import KINETIC, Action, PendingKind, Piece, action_table
from .actions import ActionKind as K
from .cards import DIAMONDS, HEARTS, card_value, rank
from .state import State

__all__ = ["RandomPlayer", "HeuristicPlayer", "make_player", "PLAYERS"]

PLAYERS = ("heuristic", "random")


class RandomPlayer:
    """Uniform random legal play (two-level: kind, then action); seeded."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng([int(seed), 7919])

    def choose(self, state: State) -> Action:
        cancel = K.CANCEL
        by_kind: dict[str, list[Action]] = {}
        for a in state.legal_actions():
            kind = a.kind
            if kind is not cancel:
                group = by_kind.get(kind)
                if group is None:
                    by_kind[kind] = [a]
                else:
                    group.append(a)
        kinds = list(by_kind)
        options = by_kind[kinds[int(self.rng.integers(len(kinds)))] if len(kinds) > 1 else kinds[0]]
        return options[int(self.rng.integers(len(options)))] if len(options) > 1 else options[0]


# -- probability of beating the Axis -------------------------------------------------
def p_axis_at_most(s: State, n: int, value: int) -> float:
    """P(sum of ``n`` random Axis cards <= ``value``): exact for one card, a normal
    approximation (finite-population variance) for more."""
    return _at_most(s.axis_deck, s.axis_discard, n, value)


class AxisOdds:
    """:func:`p_axis_at_most` for one Axis deck and discard pile, remembering every
    answer (the heuristic asks the same questions many times per decision)."""

    __slots__ = ("deck", "discard", "_known")

    def __init__(self, deck: tuple[int, ...], discard: tuple[int, ...]):
        self.deck, self.discard, self._known = deck, discard, {}

    def at_most(self, n: int, value: int) -> float:
        key = (n, value)
        p = self._known.get(key)
        if p is None:
            p = self._known[key] = _at_most(self.deck, self.discard, n, value)
        return p


def _at_most(deck: tuple[int, ...], discard: tuple[int, ...], n: int, value: int) -> float:
    # the Axis cards a draw of n comes from (CN.P2): the deck, or deck and discard pile
    # when the deck runs out during the draw
    stats = _pool_stats((deck or discard) if len(deck) >= n or not discard else deck + discard)
    if stats is None:
        return 1.0
    size, at_most, spread = stats
    n = min(n, size)
    if n == 1:
        return 0.0 if value < 1 else (1.0 if value >= 13 else at_most[value] / size)
    return 0.5 * (1 + math.erf((value + 0.5 - spread[n][0]) / spread[n][1]))


class _Spread(dict):
    """n -> (mean, sd * sqrt(2)) of the sum of n cards drawn from a pool, made on first use."""

    def __init__(self, ranks: list[int]):
        super().__init__()
        size = len(ranks)
        self.size, self.mu = size, sum(ranks) / size
        self.var = sum((r - self.mu) ** 2 for r in ranks) / size

    def __missing__(self, n: int) -> tuple[float, float]:
        fpc = (self.size - n) / (self.size - 1) if self.size > 1 else 0.0
        sd = math.sqrt(max(n * self.var * fpc, 1e-9))
        self[n] = value = (n * self.mu, sd * math.sqrt(2))
        return value


@lru_cache(maxsize=4096)
def _pool_stats(cards: tuple[int, ...]):
    """What :func:`p_axis_at_most` needs of a pool of Axis cards, once per pool: its
    size, how many ranks are <= v (v = 0..13), and the normal approximation of a draw of
    n >= 2 cards (:class:`_Spread`). ``None`` for an empty pool."""
    ranks = [rank(c) for c in cards]
    if not ranks:
        return None
    at_most = [0] * 14
    for r in ranks:
        at_most[r] += 1
    for v in range(1, 14):
        at_most[v] += at_most[v - 1]
    return len(ranks), at_most, _Spread(ranks)


GROUP_VALUE, LEADER_VALUE, CARD_COST = 0.6, 1.6, 0.3


@lru_cache(maxsize=4096)
def _kinetic_terms(ambush: bool, g: int, l_: int, strength: int, alba_gain: float, most: int):
    """For k = 0..most cards played in an Ambush (``ambush``) or a Sabotage by ``g``
    Groups and ``l_`` Leaders against a garrison of ``strength``: (Axis cards drawn,
    gain if it succeeds, loss if it fails, cost of the cards) — CN.P6, CN.P7."""
    terms = []
    for k in range(most + 1):
        n = max(1, k) if ambush else strength
        at_risk = min(n, g + l_)
        lost_groups = min(at_risk, g)
        loss = lost_groups * GROUP_VALUE + (at_risk - lost_groups) * LEADER_VALUE
        if ambush:
            removes = n >= strength
            gain = 1.0 if removes else 0.3 * n
            if removes and alba_gain:
                gain += alba_gain
        else:
            gain = float(max(1, k))
        terms.append((n, gain, loss, k * CARD_COST))
    return tuple(terms)


class HeuristicPlayer:
    """Expected-value heuristic (see the module docstring); deterministic."""

    name = "heuristic"

    MEMO_SIZE = 50_000
    """Entries kept in the player's memo of plans before it is emptied."""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._board = None
        self._memo: dict = {}
        self._odds: AxisOdds | None = None

    # -- entry point ---------------------------------------------------------
    def choose(self, s: State) -> Action:
        if s.board is not self._board or len(self._memo) > self.MEMO_SIZE:
            self._board, self._memo = s.board, {}
        self._t = action_table(len(s.groups))
        odds = self._odds
        if odds is None or odds.deck is not s.axis_deck or odds.discard is not s.axis_discard:
            self._odds = AxisOdds(s.axis_deck, s.axis_discard)
        p = s.pending
        if p is None:
            action = self._main(s)
        elif p.kind == PendingKind.PARTICIPANTS:
            g, l_ = self._participants(s, p.area)
            action = self._t.participants.get((g, l_)) or Action(K.PARTICIPANTS, groups=g, leaders=l_)
        elif p.kind == PendingKind.CARDS:
            action = self._cards(s, p)
        elif p.kind == PendingKind.SWEEP:
            action = self._sweep(s, p)
        elif p.kind == PendingKind.TRAIN:
            action = self._train(s)
        elif p.kind == PendingKind.MOVE:
            action = self._move(s, p)
        elif p.kind == PendingKind.LOSSES:
            action = self._loss(s, s.legal_actions())
        else:
            action = self._base(s, s.legal_actions())
        return action  # always legal (tests/test_canuck_machine.py); apply() checks it once

    # -- main menu -----------------------------------------------------------
    def _participants(self, s: State, area: int) -> tuple[int, int]:
        l_ = s.leaders[area]
        g = s.groups[area] if l_ else min(1, s.groups[area])
        return g, l_

    def _kinetic_plan(self, s: State, op: str, area: int, g: int, l_: int):
        """Best (EV, cards) for ``op`` in ``area`` with these participants (CN.P5–P7)."""
        key = ("kinetic", op, area, g, l_, s.garrison[area], s.red_faces >= 4, s.alba_liberated_once, s.reserve,
               s.axis_deck, s.axis_discard)
        memo = self._memo
        if key not in memo:
            memo[key] = self._kinetic_plan_now(s, op, area, g, l_)
        return memo[key]

    def _kinetic_plan_now(self, s: State, op: str, area: int, g: int, l_: int):
        ranked, prefix = self._ranked(s, HEARTS if op == K.AMBUSH else DIAMONDS, True)
        ambush = op == K.AMBUSH
        alba = ambush and area == s.board.alba
        alba_gain = (4.0 if not s.alba_liberated_once else (6.0 if s.red_faces >= 4 else 1.0)) if alba else 0.0
        best_ev, best_k = -1e9, 0
        at_most = self._odds.at_most
        base = g + l_ - 1
        for k, (n, gain, loss, cost) in enumerate(
                _kinetic_terms(ambush, g, l_, s.garrison[area], alba_gain, min(g + l_, len(ranked)))):
            p = at_most(n, base + prefix[k])
            ev = p * gain - (1 - p) * loss - cost
            if ev > best_ev:
                best_ev, best_k = ev, k
        return best_ev, tuple(ranked[:best_k])

    def _ranked(self, s: State, doubled: int, strongest_first: bool):
        """The Reserve sorted by value (``doubled`` suit counting double) and the sums of
        its first k cards, k = 0..len (memoised)."""
        key = ("ranked", doubled, strongest_first, s.reserve)
        memo = self._memo
        if key not in memo:
            if strongest_first:
                ranked = sorted(s.reserve, key=lambda c: (-card_value(c, doubled), c))
            else:
                ranked = sorted(s.reserve, key=lambda c: (card_value(c, doubled), c))
            prefix = [0]
            for c in ranked:
                prefix.append(prefix[-1] + card_value(c, doubled))
            memo[key] = ranked, prefix
        return memo[key]

    def _main(self, s: State) -> Action:
        candidates: list[tuple[float, int, Action]] = []
        for a in s.board.gar:
            if s.garrison[a] > 0 and s.groups[a] + s.leaders[a] > 0:
                g, l_ = self._participants(s, a)
                for op in KINETIC:
                    ev, _ = self._kinetic_plan(s, op, a, g, l_)
                    candidates.append((ev, len(candidates), self._t.by_area[op][a]))
        if s.reserve:
            for op, value in self._non_kinetic_values(s).items():
                ev, _ = self._non_kinetic_plan(s, op, value)
                candidates.append((ev, len(candidates), self._t.plain[op]))
        pause_area = self._pause_area(s)
        if pause_area is not None:
            candidates.append((self._pause_value(s), len(candidates), self._t.by_area[K.PAUSE][pause_area]))
        candidates.sort(key=lambda t: (-t[0], t[1]))
        return candidates[0][2]

    def _pause_value(self, s: State) -> float:
        return 0.2 - GROUP_VALUE + (1.0 if not s.reserve else 0.0)

    def _pause_area(self, s: State) -> int | None:
        best, key = None, None
        for a, g in enumerate(s.groups):
            if g:
                excess = g - 2 * s.leaders[a]
                k = (excess, a in s.board.base and s.bases[a] == 0, g, -a)
                if key is None or k > key:
                    best, key = a, k
        return best

    def _targets(self, s: State) -> list[int]:
        """GAR areas to hold with stacks, best first: Alba late or when weak, then the
        weakest garrisons (never the strongest unless all are equal)."""
        gar = list(s.board.gar)
        strongest = max(s.garrison[a] for a in gar)
        alba = s.board.alba
        key = lambda a: (0 if a == alba and (s.red_faces >= 3 or s.garrison[a] <= 2) else 1,
                         s.garrison[a] if s.garrison[a] else 0.5, a)
        ranked = sorted(gar, key=key)
        return [a for a in ranked if s.garrison[a] < strongest or a == alba] or ranked

    def _layout(self, s: State) -> tuple[list[int], list[int]]:
        """Desired (leaders, groups) per area: each Leader leads 2 Groups onto a target
        (memoised: the lists must not be changed)."""
        key = ("layout", s.garrison, s.leaders, s.groups, s.red_faces >= 3)
        memo = self._memo
        if key not in memo:
            memo[key] = self._layout_now(s)
        return memo[key]

    def _layout_now(self, s: State) -> tuple[list[int], list[int]]:
        n = len(s.areas)
        leaders_total, groups_total = sum(s.leaders), sum(s.groups)
        want_l, want_g = [0] * n, [0] * n
        targets = self._targets(s)[:max(1, min(leaders_total, 2))]
        for t in targets:
            if leaders_total and groups_total >= 1:
                want_l[t] += 1
                leaders_total -= 1
                take = min(2, groups_total)
                want_g[t] += take
                groups_total -= take
        if not sum(want_l) and groups_total:  # no Leader left: single Groups raid
            want_g[targets[0]] += 1
            groups_total -= 1
        # what is not assigned stays where it is, as far as possible
        rest_l = [max(0, s.leaders[a] - want_l[a]) for a in range(n)]
        rest_g = [max(0, s.groups[a] - want_g[a]) for a in range(n)]
        for rest, want, total in ((rest_l, want_l, leaders_total), (rest_g, want_g, groups_total)):
            for a in sorted(range(n), key=rest.__getitem__, reverse=True):  # stable, as -rest[a]
                keep = min(rest[a], total)
                want[a] += keep
                total -= keep
        return want_l, want_g

    def _needs_move(self, s: State) -> float:
        want_l, want_g = self._layout(s)
        off = sum(max(0, w - h) for w, h in zip(want_l, s.leaders)) * 1.5 + \
            sum(max(0, w - h) for w, h in zip(want_g, s.groups)) * 0.5
        return off

    def _non_kinetic_values(self, s: State) -> dict[str, float]:
        """What each non-kinetic option is worth now (memoised: the dict must not be changed)."""
        key = ("values", s.garrison, s.leaders, s.groups, s.red_faces >= 3, s.unused_groups, s.bases,
               s.unused_bases, s.partisan_discard, len(s.reserve) <= 2)
        memo = self._memo
        if key not in memo:
            memo[key] = self._non_kinetic_values_now(s)
        return memo[key]

    def _non_kinetic_values_now(self, s: State) -> dict[str, float]:
        values = {K.MOVE: min(3.5, self._needs_move(s))}
        if s.unused_groups and sum(s.leaders):
            values[K.TRAIN] = GROUP_VALUE * min(3, s.unused_groups) + (0.5 if sum(s.groups) < 3 else 0.0)
        free = [a for a in s.board.base if not s.bases[a]]
        if s.unused_bases and free:
            values[K.BUILD_BASE] = 3.0 if sum(s.bases) <= 2 else 0.6
        if s.partisan_discard:
            got = sorted((rank(c) for c in s.partisan_discard), reverse=True)[:2]
            values[K.SUPPLY_DROP] = (0.2 + 0.05 * sum(got)) * min(2, len(got)) * (1.5 if len(s.reserve) <= 2 else 0.7)
        return values

    def _non_kinetic_plan(self, s: State, op: str, value: float):
        """Fewest cards giving the best EV for a non-kinetic op (CN.P9, CN.P10)."""
        key = ("non-kinetic", op, value, s.reserve, s.axis_deck, s.axis_discard)
        memo = self._memo
        if key not in memo:
            memo[key] = self._non_kinetic_plan_now(s, op, value)
        return memo[key]

    def _non_kinetic_plan_now(self, s: State, op: str, value: float):
        options = self._non_kinetic_options(s, HEARTS if op in (K.TRAIN, K.MOVE) else DIAMONDS)
        cost = CARD_COST * (0.5 if op == K.SUPPLY_DROP else 1.0)
        best = (-1e9, ())
        for cards, p in options:
            ev = p * value - len(cards) * cost
            if ev > best[0] + 1e-9:
                best = (ev, cards)
        return best

    def _non_kinetic_options(self, s: State, doubled: int):
        """The card sets a non-kinetic op may try — single cards (smallest first), then
        growing sets of the strongest — each with its chance of beating one Axis card
        (memoised)."""
        key = ("nk-options", doubled, s.reserve, s.axis_deck, s.axis_discard)
        memo = self._memo
        if key not in memo:
            ranked, prefix = self._ranked(s, doubled, False)
            at_most = self._odds.at_most
            options = [((c,), at_most(1, prefix[i + 1] - prefix[i] - 1)) for i, c in enumerate(ranked)]
            strong = ranked[::-1]
            total = prefix[-1]
            for k in range(2, len(strong) + 1):  # the k strongest: all but the len - k weakest
                options.append((tuple(strong[:k]), at_most(1, total - prefix[len(strong) - k] - 1)))
            memo[key] = options
        return memo[key]

    # -- declarations --------------------------------------------------------
    def _cards(self, s: State, p) -> Action:
        if p.op in KINETIC:
            _, cards = self._kinetic_plan(s, p.op, p.area, p.groups, p.leaders)
        else:
            _, cards = self._non_kinetic_plan(s, p.op, self._non_kinetic_values(s).get(p.op, 1.0))
        for c in cards:
            if c not in p.cards:
                return self._t.add_card[c]
        return self._t.resolve

    def _sweep(self, s: State, p) -> Action:
        """CN.F2d: spend cards only when the counters (above all a Base) are worth it."""
        target, strength = p.area, s.garrison[p.garrison]
        n = s.counters(target)
        last_base = s.bases[target] and sum(s.bases) == 1
        at_risk = min(strength, n)
        g = min(at_risk, s.groups[target])
        l_ = min(at_risk - g, s.leaders[target])
        b = at_risk - g - l_
        loss = g * GROUP_VALUE + l_ * LEADER_VALUE + b * (40.0 if last_base else 3.0)
        win = 1.0 if n >= strength else 0.2 * n
        ranked = sorted(s.reserve, key=lambda c: (-rank(c), c))
        best = (-1e9, 0)
        for k in range(len(ranked) + 1):
            score = n + sum(rank(c) for c in ranked[:k])
            q = self._odds.at_most(strength, score)
            ev = q * win - (1 - q) * loss - k * CARD_COST
            if ev > best[0] + 1e-9:
                best = (ev, k)
        want = ranked[:best[1]]
        for c in want:
            if c not in p.cards:
                return self._t.add_card[c]
        return self._t.resolve

    def _train(self, s: State) -> Action:
        based = [a for a, b in enumerate(s.bases) if b]
        best = max(based, key=lambda a: (s.leaders[a] * 2 - s.groups[a], -a))
        return self._t.by_area[K.PLACE_GROUP][best]

    def _move(self, s: State, p) -> Action:
        want_l, want_g = self._layout(s)
        for piece, have, want, arrived in ((Piece.LEADER, s.leaders, want_l, p.arrived_leaders),
                                           (Piece.GROUP, s.groups, want_g, p.arrived_groups)):
            short = [a for a in range(len(have)) if have[a] < want[a]]
            spare = [a for a in range(len(have)) if have[a] > want[a] and have[a] - arrived[a] > 0]
            if short and spare:
                return self._t.move[spare[0], short[0], piece]
        return self._t.done

    def _loss(self, s: State, legal) -> Action:
        """Which counter to give up (engine convention, :mod:`.losses`): a Group before a
        Leader (Groups come back through Train, Leaders never do) before the Base —
        unless it is the last Group on the map and the Reserve is empty, when losing it
        could end the game in deadlock (CN.E2): then a Leader, or a Base that is not the
        last, goes first."""
        pieces = [a.piece for a in legal]
        last_group = sum(s.groups) == 1 and not s.reserve
        spare_base = sum(s.bases) > 1
        if last_group:
            order = (Piece.LEADER,) + ((Piece.BASE,) if spare_base else ()) + (Piece.GROUP, Piece.BASE)
        else:
            order = (Piece.GROUP, Piece.LEADER, Piece.BASE)
        return self._t.lose[next(p for p in order if p in pieces)]

    def _base(self, s: State, legal) -> Action:
        def danger(a: int) -> int:
            return sum(s.garrison[b] for b in s.board.near[a])
        return min(legal, key=lambda act: (danger(act.area), act.area))


def make_player(name: str, seed: int = 0):
    """``"heuristic"`` or ``"random"`` → a player. Raises ``InputError`` otherwise."""
    from furball.errors import InputError
    if name == "heuristic":
        return HeuristicPlayer(seed)
    if name == "random":
        return RandomPlayer(seed)
    raise InputError(f"--player {name!r}: expected one of {', '.join(PLAYERS)}")
