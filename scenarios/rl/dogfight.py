"""The dogfight game for the adapters: ``furball_dogfight`` (DF.*, docs/dogfight_game.md).

* **Parameters**: ``scenario`` (a shipped name or a file; default ``duel``), ``seats``
  (``sides`` or ``planes``), ``policy`` (``""``: the scenario's; ``keep``, ``best``),
  ``turn_limit`` and ``altitude`` (-1: the scenario's), ``decks`` (``""``: the
  scenario's; ``A`` or ``A:M``), ``swap_start``.
* **Actions**: a plan is three cards of the plane to plan; its id is ``(i n + j) n + k``
  where ``i, j, k`` are the positions of its cards in :func:`card_list` (every card id of
  every maneuver deck on the table, in table order, each once; ``n`` of them): 3,375 ids
  in the duel (deck A, 15 cards). The plane is the state's (the engine plans its planes
  in a fixed order), so an id means "these three cards for the plane to plan now".
* **Turn order**: the engine's planning is a simultaneous node (DF.M1: every seat plans
  at once, a locked plan may change until the last lock). The adapters present it
  sequentially, through the engine's ``current_player()`` and ``legal_actions()`` (the
  first seat with a plane still to lock, then the next): since a plan is hidden until
  the turn flies, the order of the locks changes nothing, and the OpenSpiel game stays a
  sequential one (its search bots and tests walk the same tree as before); a change of a
  locked plan is a room's matter, not a move of these games.
* **Chance and hidden information**: the seed decides every draw of the turns (manoeuvre
  draws, damage piles) and is hidden chance (OpenSpiel's sampled-stochastic mode).
  :func:`resample` re-deals, for one seat's side: the plans other sides locked this
  turn (a legal plan of each plane, uniformly), which cards other sides' planes hold
  (each card replaced by a card of the same deck with the same visible special, or
  none — what the seat saw when it was struck), their specials only the owner sees
  (dropped: the seat assumes none), the damage piles' order and contents (as many cards
  as each pile holds, from the cards the seat cannot place elsewhere), and a new seed.
  The damage points a plane has taken are kept: every side reads them in the DF.V2
  points (exactly, when a side has one plane; a side of several planes shows their sum,
  and the resample keeps each plane's share).
* **Returns**: 1 for the winning side's seats, -1 for the others, 0 in a draw: zero-sum
  with two seats, general-sum with more.
* **Observation** (:func:`encoder`; ``P`` planes in table order, ``n`` cards of
  :func:`card_list`, ``L`` damage decks; entries from 0 to the ``high`` listed): per
  plane — ``own`` (its side is the seat's; 1), ``position`` (x / table width, y / table
  height; 1), ``heading`` ((cos + 1) / 2, (sin + 1) / 2; 1), ``altitude`` (the ceiling),
  ``climb_counters`` (10), ``status`` (one-hot flying, landed, out, destroyed),
  ``damage_cards`` (cards taken; 40), ``damage_share`` (damage taken / damage points,
  own side only; 1), ``effects`` (one-hot of the specials in effect the seat sees),
  ``locked`` (its plan is locked this turn), ``to_plan`` (the plane the seat plans now);
  ``own_plans`` (``(P, 3, n)``: the cards of the plans the seat's side locked this turn);
  ``turn`` (the turn about to be played; the turn limit + 1), ``scores`` (DF.V2 points
  of each seat's side; :data:`MAX_POINTS`), ``piles`` (cards left in each damage pile;
  the deck's size).
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from furball.errors import IllegalAction
from furball.maneuvers.damage import Special
from furball.maneuvers.plan import legal_plans
from furball.maneuvers.plane import PlaneStatus

from ..dogfight.report import VISIBLE_SPECIALS, plane_line
from ..dogfight.state import PlanAction
from ..engine.protocol import Game
from .spec import Encoder, EngineSpec, engine_options, fresh_seed, one_hot
from .spec import Piece as ObsPiece

__all__ = ["SPEC", "PlanCodec", "card_list", "resample", "encoder", "seen", "MAX_POINTS"]

MAX_POINTS = 10_000
"""The observation's bound on a side's DF.V2 points (clipped above it)."""
_STATUS = tuple(PlaneStatus)
_SPECIALS = tuple(Special)


def _game() -> Game:
    from ..dogfight.game import DOGFIGHT

    return DOGFIGHT


def card_list(table) -> tuple[str, ...]:
    """Every maneuver card id of the planes on ``table``, in table order, each once."""
    out: dict[str, None] = {}
    for p in table.planes:
        if p.deck is not None:
            out.update(dict.fromkeys(p.deck.ids))
    return tuple(out)


class PlanCodec:
    """Plans as integers (module docstring)."""

    def __init__(self, cards: tuple[str, ...]):
        self.cards = cards
        self.n = len(cards)
        self.size = self.n ** 3
        self._index = {c: i for i, c in enumerate(cards)}

    def encode(self, state: Any, action: PlanAction) -> int:
        try:
            i, j, k = (self._index[c] for c in action.cards)
        except (KeyError, ValueError):
            raise IllegalAction(f"plan {str(action)[:60]!r}: expected three cards of this game's decks") from None
        return (i * self.n + j) * self.n + k

    def decode(self, state: Any, action_id: int) -> PlanAction:
        action_id = int(action_id)
        if not 0 <= action_id < self.size:
            raise IllegalAction(f"action id {action_id}: expected 0 to {self.size - 1}")
        legal = state.legal_actions()
        if not legal:
            raise IllegalAction("the game is over: no more plans")
        n = self.n
        cards = (self.cards[action_id // (n * n)], self.cards[action_id // n % n], self.cards[action_id % n])
        return PlanAction(legal[0].plane, cards)


@lru_cache(maxsize=64)
def _cards_by_signature(deck) -> dict:
    """A damage deck's card numbers grouped by what another side sees of a card: its
    special if every side sees it (:data:`VISIBLE_SPECIALS`), else ``None``."""
    groups: dict = {}
    for number, card in enumerate(deck.cards, start=1):
        key = card.special if card.special in VISIBLE_SPECIALS else None
        groups.setdefault(key, []).append(number)
    return {k: tuple(v) for k, v in groups.items()}


def _pick(rng: np.random.Generator, items):
    return items[int(rng.integers(len(items)))]


def resample(state: Any, seat: int, rng: np.random.Generator) -> Any:
    """A state seat ``seat`` cannot tell from ``state``, everything hidden from its side
    re-dealt (module docstring)."""
    side = state.seat_sides[seat]
    table = state.table
    decks = {d.letter: d for d in table.damage_decks}
    held: dict[str, set[int]] = {letter: set() for letter in decks}  # cards the seat can place
    for p in table.planes:
        if p.side == side:
            for cid in p.damage:
                letter, sep, number = cid.partition("#")
                if sep:
                    held[letter].add(int(number))
    planes = []
    for p in table.planes:
        if p.side == side:
            planes.append(p)
            continue
        damage = []
        for cid in p.damage:
            letter, sep, number = cid.partition("#")
            if not sep:  # a card whose value was never recorded: nothing to re-deal
                damage.append(cid)
                continue
            deck = decks[letter]
            card = deck.card(int(number))
            key = card.special if card.special in VISIBLE_SPECIALS else None
            new = _pick(rng, _cards_by_signature(deck)[key])
            held[letter].add(new)
            damage.append(deck.card(new).id)
        effects = tuple(e for e in p.effects if e.special in VISIBLE_SPECIALS)
        planes.append(p.replace(damage=tuple(damage), effects=effects))
    piles = []
    for letter, pile in table.piles:
        free = [n for n in range(1, len(decks[letter]) + 1) if n not in held[letter]]
        pool = free if len(free) >= len(pile) else list(range(1, len(decks[letter]) + 1))
        chosen = rng.choice(len(pool), size=len(pile), replace=False) if pile else []
        piles.append((letter, tuple(pool[int(i)] for i in chosen)))
    world = table.replace(planes=tuple(planes), piles=tuple(piles))
    locked = []
    for name, cards in state.locked:
        plane = world.plane(name)
        locked.append((name, cards) if plane.side == side else (name, _pick(rng, legal_plans(plane, world.rules))))
    return state.replace(table=world, locked=tuple(locked), seed=fresh_seed(rng))


def seen(state: Any, action: PlanAction, seat: int) -> str:
    """What seat ``seat`` sees of ``action``: the plan if its side made it, else only that
    the plane locked one (the engine's log says the same)."""
    actor = state.current_player()
    if state.seat_sides[actor] == state.seat_sides[seat]:
        return f"P{actor + 1}: {state.describe(action)}"
    return f"P{actor + 1}: {action.plane} locks its plan"


def full_text(state: Any) -> str:
    """The whole state as text: the engine's fields, every plane as its own side sees it,
    the piles, and the plans locked this turn."""
    lines = [repr(state), f"turn {state.table.turn}"]
    lines += [plane_line(p, False) for p in state.table.planes]
    lines += [f"pile {letter}: {' '.join(map(str, pile))}" for letter, pile in state.table.piles]
    lines += [f"locked {name}: {' '.join(cards)}" for name, cards in state.locked]
    return "\n".join(lines)


def encoder(params, probe) -> Encoder:
    """The observation array of a game like ``probe`` (module docstring)."""
    table = probe.table
    names = tuple(p.name for p in table.planes)
    P, cards = len(names), card_list(table)
    n = max(1, len(cards))
    index = {c: i for i, c in enumerate(cards)}
    seats = len(probe.seat_sides)
    letters = tuple(d.letter for d in table.damage_decks)
    sizes = {d.letter: len(d) for d in table.damage_decks}
    top = table.rules.max_altitude
    last_turn = probe.victory.turn_limit + 1
    O = ObsPiece
    pieces = [O("own", (P,), 1, "the plane's side is the seat's"), O("position", (P, 2), 1, "x / width, y / height"),
              O("heading", (P, 2), 1, "(cos + 1) / 2, (sin + 1) / 2 of the heading"),
              O("altitude", (P,), top, "altitude"), O("climb_counters", (P,), 10, "climb counters"),
              O("status", (P, len(_STATUS)), 1, "flying, landed, out, destroyed"),
              O("damage_cards", (P,), 40, "damage cards taken"),
              O("damage_share", (P,), 1, "damage taken / damage points (own side only)"),
              O("effects", (P, len(_SPECIALS)), 1, "specials in effect the seat sees"),
              O("locked", (P,), 1, "plan locked this turn"), O("to_plan", (P,), 1, "the plane the seat plans now"),
              O("own_plans", (P, 3, n), 1, "cards of the plans the seat's side locked this turn"),
              O("turn", (1,), last_turn, "the turn about to be played"),
              O("scores", (seats,), MAX_POINTS, "DF.V2 points of each seat's side")]
    pieces += [O("piles", (len(letters),), max(sizes.values()), "cards left in each damage pile")] if letters else []

    def fill(s, seat, v):
        side = s.seat_sides[seat]
        t = s.table
        locked = dict(s.locked)
        deciding = s.current_player() == seat
        to_plan = s.legal_actions()[0].plane if deciding and s.legal_actions() else None
        for i, name in enumerate(names):
            p = t.plane(name)
            mine = p.side == side
            v["own"][i] = mine
            if p.on_table:
                x, y, heading = p.pose.x_mm, p.pose.y_mm, p.pose.heading_deg
                v["position"][i] = (x / t.width_mm, y / t.height_mm)
                v["heading"][i] = ((math.cos(math.radians(heading)) + 1) / 2,
                                   (math.sin(math.radians(heading)) + 1) / 2)
            v["altitude"][i], v["climb_counters"][i] = p.altitude, p.climb_counters
            one_hot(v["status"][i], _STATUS.index(p.status))
            v["damage_cards"][i] = len(p.damage)
            if mine and p.damage_points:
                v["damage_share"][i] = p.damage_taken / p.damage_points
            for e in p.effects:
                if mine or e.special in VISIBLE_SPECIALS:
                    v["effects"][i, _SPECIALS.index(e.special)] = 1
            v["locked"][i] = name in locked
            v["to_plan"][i] = name == to_plan
            if mine and name in locked:
                for k, c in enumerate(locked[name]):
                    v["own_plans"][i, k, index[c]] = 1
        v["turn"][0] = t.turn
        scores = s.scores
        v["scores"][:] = [scores[sd] for sd in s.seat_sides]
        if letters:
            piles = dict(t.piles)
            v["piles"][:] = [len(piles.get(letter, ())) for letter in letters]

    return Encoder(pieces, fill)


_NAMES = ("scenario", "seats", "policy", "turn_limit", "altitude", "decks", "swap_start")

SPEC = EngineSpec(
    short_name="furball_dogfight", long_name="Dogfight (furball)", game=_game,
    parameters={"scenario": "duel", "seats": "sides", "policy": "", "turn_limit": -1, "altitude": -1, "decks": "",
                "swap_start": False},
    options=lambda params: engine_options(_game(), params, _NAMES),
    codec=lambda params, probe: PlanCodec(card_list(probe.table)),
    encoder=encoder, resample=resample, seen=seen, full_text=full_text, rollout="random",
    notes="secret simultaneous plans; the seed (manoeuvre draws, damage piles) is hidden chance (sampled)",
)
"""The dogfight spec (module docstring)."""
