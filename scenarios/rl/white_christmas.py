"""1975 White Christmas for the adapters: ``furball_white_christmas`` (WC.*).

* **Parameters**: ``players`` (2-4), ``solo`` (one seat against Captain Chambers,
  WC.H1), ``overflow`` and ``payment`` (``supply`` or ``discard``, the engine's rule
  options), ``data`` (a directory of data files; ``""``: the shipped ones).
* **Actions** (:class:`WhiteChristmasCodec`; ``C`` kinds of action card — copies of a
  card are one kind, :func:`card_kinds`: 18 kinds of the 38 shipped cards —, ``R`` rooftops, ``N``
  table nodes — rooftops, landing slots, staircases, carriers —, ``O`` special orders,
  ``V`` distinct radar values): take from a row slot (4) or the deck top inspecting a
  rooftop's staircase (``R``); play a card for a use (``C`` x 6 icons); play the face-up
  card for a use (6); discard a card (``C``); use a kept sighting action (4); keep; bid a
  token of a value (``V``); seal; fly a helicopter (2 x ``N``); rescue (2 x ``N`` x 4
  People types); put a card face up (``C``); unload (2 x 4); a passenger boards (4);
  pass — then, for the two decisions whose payment varies, :data:`MAX_PAY` ids per
  special order (``O``) and per carrier upgrade (5): id ``k`` is the ``k``-th legal way
  to pay for that order or upgrade in the state's menu (the engine lists them in a fixed
  order; at most 10 were seen in a thousand games). An id naming a card means the
  first card of that kind in hand: two copies in hand are one legal id, since nothing
  a player sees tells them apart (an information state then fixes the legal ids, as
  OpenSpiel's information-set search needs).
* **Chance and hidden information**: the seed (the radar tokens drawn, the engine's
  shuffles) is hidden chance (OpenSpiel's sampled-stochastic mode). :func:`resample`
  re-deals, for one seat: the action deck's order together with the other sides' hands
  (Captain Chambers' face-down deck too), keeping each hand's size; the radar values
  of the supply, the other sides' tokens and their sealed bids, keeping each count; this
  round's face-down staircases the seat did not inspect, with the staircase deck (and
  another side's inspected card follows its rooftop's new staircase); the order of the
  special-order deck; the sighting cards still to come (from those not on the table:
  the engine keeps no record of past rounds' sightings, so one may be dealt again); and
  a new seed. Staircases already revealed, completed special orders and the discard
  piles are public and kept. One thing a player with a perfect memory knows is not
  used: which row cards another side took into its hand (the state keeps no record of
  it), so a resample deals the other hands from every card the seat has not seen placed.
* **Returns**: each seat's VP (general-sum; 0 to :data:`MAX_VP`). In the solo game the
  one seat's VP (Captain Chambers is no seat).
* **Observation** (:func:`encoder`; ``S`` sides; entries from 0 to the ``high``
  listed): ``seat`` (one-hot of the seat), ``round`` (4), ``phase`` (one-hot),
  ``turn`` (turns taken this phase; 40), ``order`` (``(S, S)``: one-hot of each turn
  position's side); per rooftop — ``roofs`` and ``stairs`` (People of each type on it
  and on its revealed staircase; 8), ``stairs_state`` (one-hot none, face down,
  revealed); ``row`` (``(4, C)``: the kind of card in each slot), ``discard``, ``removed``
  (cards of each kind; 4),
  ``deck`` (cards in the action deck; ``C``), ``orders_row`` (``O``), ``orders_left``
  (``O``), ``sighting`` (one-hot of the sighting card, then 1 for the Cessna),
  ``supply`` and ``discarded`` (People of each type; 30), ``radar_left`` (tokens in the
  supply), ``pending`` (the open question: ``ask`` one-hot, its side one-hot, ``helis``
  (2), ``person`` (one-hot of a type), ``picks`` (2), ``must``); per side —
  ``vp`` (:data:`MAX_VP`), ``influence`` (the track's spaces), ``arrived`` (the arrival
  stamp; 40), ``hand``, ``radar``, ``orders``, ``bid`` counts (the bid's tokens, -0 until
  sealed), ``upgrades`` (5), ``carrier`` (People of each type; 10), ``faceup`` (one-hot
  kind of card), ``extras`` (kept sighting actions; 4), per helicopter ``at`` (one-hot node),
  ``aboard`` (People of each type; 10), ``night``; the seat's own — ``own_hand``
  (cards of each kind; 5), ``own_radar`` and ``own_bid`` (tokens of each value; 3), ``own_orders``
  (``O``), ``own_inspected`` (``(R, stairs cards)``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from furball.errors import IllegalAction

from ..engine.protocol import Game
from ..white_christmas import actions as A
from ..white_christmas.actions import ActionKind, Ask, Phase, Stairs
from ..white_christmas.components import MODELS, PEOPLE, ROW, Extra, Icon
from ..white_christmas.game import MAX_LENGTH, MAX_VP
from .spec import Encoder, EngineSpec, engine_options, fresh_seed, one_hot
from .spec import Piece as ObsPiece

__all__ = ["SPEC", "WhiteChristmasCodec", "canonical_actions", "resample", "encoder", "seen", "MAX_PAY", "MAX_VP",
           "MAX_LENGTH"]

MAX_PAY = 32
"""Ids per special order and per carrier upgrade for the ways to pay for it."""
_ICONS, _EXTRAS, _ASKS, _PHASES, _STAIRS = tuple(Icon), tuple(Extra), tuple(Ask), tuple(Phase), tuple(Stairs)
_PAID = (ActionKind.ORDER, ActionKind.UPGRADE)
UPGRADES = 5


def _game() -> Game:
    from ..white_christmas.game import WHITE_CHRISTMAS

    return WHITE_CHRISTMAS


def nodes(table) -> tuple[str, ...]:
    """Every node a helicopter may fly to or rescue from, in a fixed order: rooftops,
    landing slots, staircases, carriers."""
    stairs = table.with_stairs(True).stairs
    return (*table.roofs, *(s for pair in table.slots for s in pair), *stairs, *table.carriers)


def card_kinds(comp) -> tuple[int, ...]:
    """For every action card id, the first id of a card with the same face (the deck
    holds several copies of most cards: copies are one kind of card to the codec and the
    observation, as they are to a player)."""
    first: dict = {}
    return tuple(first.setdefault(card, i) for i, card in enumerate(comp.cards))


_CARD_KINDS = {ActionKind.PLAY: lambda a, c: A.play(c, a.use), ActionKind.DISCARD: lambda a, c: A.discard(c),
               ActionKind.REPLACE: lambda a, c: A.replace(c)}


def canonical_actions(probe) -> tuple[A.Action, ...]:
    """Every action but the payments of orders and upgrades (module docstring); an action
    naming a card names the first card of its kind (:func:`card_kinds`)."""
    comp, table = probe.setup.comp, probe.table
    cards, where = sorted(set(card_kinds(comp))), nodes(table)
    out = [A.take(slot) for slot in ROW] + [A.take(Icon.INSPECT, k) for k in range(len(table.roofs))]
    out += [A.play(c, use) for c in cards for use in _ICONS] + [A.faceup(use) for use in _ICONS]
    out += [A.discard(c) for c in cards] + [A.extra(e) for e in _EXTRAS] + [A.KEEP]
    out += [A.bid(v) for v in sorted(set(comp.radar))] + [A.SEAL]
    out += [A.move(h, n) for h in MODELS for n in where]
    out += [A.rescue(h, n, p) for h in MODELS for n in where for p in PEOPLE]
    out += [A.replace(c) for c in cards] + [A.unload(h, p) for h in MODELS for p in PEOPLE]
    out += [A.board(p) for p in PEOPLE] + [A.PASS]
    return tuple(out)


class WhiteChristmasCodec:
    """White Christmas actions as integers (module docstring)."""

    def __init__(self, probe):
        self.actions = canonical_actions(probe)
        self.index = {a: i for i, a in enumerate(self.actions)}
        if len(self.index) != len(self.actions):  # pragma: no cover - a data file naming a node twice
            raise ValueError("white christmas: the canonical action list names an action twice")
        self.kinds = card_kinds(probe.setup.comp)
        self.orders = len(probe.setup.comp.orders)
        self.order_base = len(self.actions)
        self.upgrade_base = self.order_base + self.orders * MAX_PAY
        self.size = self.upgrade_base + UPGRADES * MAX_PAY

    def key(self, a):
        """``a`` with its card replaced by the first card of its kind."""
        if a.kind in _CARD_KINDS:
            return _CARD_KINDS[a.kind](a, self.kinds[a.card])
        return a

    def _menu(self, state, kind: ActionKind, key: int) -> list:
        field = "order" if kind == ActionKind.ORDER else "upgrade"
        return [a for a in state.legal_actions() if a.kind == kind and getattr(a, field) == key]

    def encode(self, state: Any, a) -> int:
        if a.kind in _PAID:
            key = a.order if a.kind == ActionKind.ORDER else a.upgrade
            menu = self._menu(state, a.kind, key)
            if a not in menu:
                raise IllegalAction(f"action {a!r:.80}: not a legal payment now")
            k = menu.index(a)
            if k >= MAX_PAY:  # pragma: no cover - a menu longer than any seen
                raise RuntimeError(f"white christmas: {len(menu)} ways to pay (ids for {MAX_PAY})")
            base = self.order_base + key * MAX_PAY if a.kind == ActionKind.ORDER else \
                self.upgrade_base + (key - 1) * MAX_PAY
            return base + k
        try:
            return self.index[self.key(a)]
        except KeyError:
            raise IllegalAction(f"action {a!r:.80}: not in this game's action list") from None

    def decode(self, state: Any, action_id: int):
        action_id = int(action_id)
        if 0 <= action_id < self.order_base:
            a = self.actions[action_id]
            if a.kind not in _CARD_KINDS:
                return a
            for legal in state.legal_actions():
                if legal.kind == a.kind and self.key(legal) == a:
                    return legal
            raise IllegalAction(f"action id {action_id}: no such card in hand now")
        if not self.order_base <= action_id < self.size:
            raise IllegalAction(f"action id {action_id}: expected 0 to {self.size - 1}")
        if action_id < self.upgrade_base:
            kind, (key, k) = ActionKind.ORDER, divmod(action_id - self.order_base, MAX_PAY)
        else:
            kind, (key, k) = ActionKind.UPGRADE, divmod(action_id - self.upgrade_base, MAX_PAY)
            key += 1
        menu = self._menu(state, kind, key)
        if k >= len(menu):
            raise IllegalAction(f"action id {action_id}: no payment {k} of {kind} {key} now")
        return menu[k]


def _deal(rng: np.random.Generator, pool: list, sizes: list[int]) -> list[tuple]:
    """``pool`` (sorted first, so the deal reads only its contents) shuffled and cut into
    parts of ``sizes``; what is left is the last part."""
    order = rng.permutation(np.array(sorted(pool), dtype=np.int64))
    parts, at = [], 0
    for n in sizes:
        parts.append(tuple(int(x) for x in order[at:at + n]))
        at += n
    parts.append(tuple(int(x) for x in order[at:]))
    return parts


def resample(state: Any, seat: int, rng: np.random.Generator) -> Any:
    """A state seat ``seat`` cannot tell from ``state``, everything hidden from it
    re-dealt (module docstring)."""
    others = [s for s in range(len(state.sides)) if s != seat]
    private = list(state.private)
    # the action deck and the other hands
    pool = list(state.deck) + [c for s in others for c in private[s].hand]
    *hands, deck = _deal(rng, pool, [len(private[s].hand) for s in others])
    for s, hand in zip(others, hands):
        private[s] = private[s].replace(hand=hand if s == state.setup.chambers else tuple(sorted(hand)))
    # radar values: the supply's, the other sides' tokens and sealed bids
    pool = list(state.radar_supply) + [v for s in others for v in private[s].radar + private[s].bid]
    sizes = [n for s in others for n in (len(private[s].radar), len(private[s].bid))]
    *parts, supply = _deal(rng, pool, sizes)
    for i, s in enumerate(others):
        private[s] = private[s].replace(radar=tuple(sorted(parts[2 * i])), bid=tuple(sorted(parts[2 * i + 1])))
    changes: dict[str, Any] = {"deck": deck, "radar_supply": tuple(sorted(supply))}
    # this round's face-down staircases the seat did not inspect, with the staircase deck
    if state.board.stairs_state == Stairs.FACE_DOWN and state.stairs_down:
        mine = {k for k, _ in private[seat].inspected}
        hidden = [k for k in range(len(state.stairs_down)) if k not in mine]
        *dealt, stairs_deck = _deal(rng, list(state.stairs_deck) + [state.stairs_down[k] for k in hidden],
                                    [1] * len(hidden))
        down = list(state.stairs_down)
        for k, (card,) in zip(hidden, dealt):
            down[k] = card
        changes["stairs_down"], changes["stairs_deck"] = tuple(down), stairs_deck
        for s in others:
            if private[s].inspected:
                private[s] = private[s].replace(inspected=tuple((k, down[k]) for k, _ in private[s].inspected))
    else:
        changes["stairs_deck"] = _deal(rng, list(state.stairs_deck), [])[0]
    changes["orders_deck"] = _deal(rng, list(state.orders_deck), [])[0]
    if state.sightings:
        unseen = [i for i in range(len(state.setup.comp.sightings)) if i != state.board.sighting]
        changes["sightings"] = tuple(int(i) for i in rng.choice(np.array(unseen), len(state.sightings), replace=False))
    return state.replace(private=tuple(private), seed=fresh_seed(rng), **changes)


def seen(state: Any, action, seat: int) -> str | None:
    """What ``seat`` sees of ``action`` taken in ``state``: the whole action for the seat
    taking it; for the others the engine's public text, or nothing (``None``) for a token
    put into another side's sealed bid — WC.F4: the others learn the bid's size when it is
    sealed (the observation's count), never a token at a time, and nothing of its values."""
    actor = state.current_player()
    if actor == seat:
        return f"P{actor + 1}: {state.describe(action)}"
    text = state.public_describe(action)
    if text is None:
        if action.kind != ActionKind.SEAL:
            return None
        text = "seals the bid"
    return f"P{actor + 1}: {text}"


def encoder(params, probe) -> Encoder:
    """The observation array of a game like ``probe`` (module docstring)."""
    setup, table, comp = probe.setup, probe.table, probe.setup.comp
    S, R, C, O = setup.sides, len(table.roofs), len(comp.cards), len(comp.orders)
    where = nodes(table)
    kinds = card_kinds(comp)
    kind_index = {k: i for i, k in enumerate(sorted(set(kinds)))}
    C = len(kind_index)
    kind = [kind_index[k] for k in kinds]
    node_index = {n: i for i, n in enumerate(where)}
    values = tuple(sorted(set(comp.radar)))
    K, H, T = len(PEOPLE), len(MODELS), len(comp.radar)
    P = ObsPiece
    pieces = [P("seat", (S,), 1, "the seat"), P("round", (1,), 4, "round"), P("phase", (len(_PHASES),), 1, "phase"),
              P("turn", (1,), 40, "turns this phase"), P("order", (S, S), 1, "side at each turn position"),
              P("roofs", (R, K), 8, "People on each rooftop"), P("stairs", (R, K), 8, "People on its staircase"),
              P("stairs_state", (len(_STAIRS),), 1, "staircases none, face down, revealed"),
              P("row", (len(ROW), C), 1, "card in each row slot"), P("discard", (C,), 4, "discarded cards"),
              P("removed", (C,), 4, "cards out of the game"), P("deck", (1,), C, "cards in the action deck"),
              P("orders_row", (O,), 1, "special orders in the row"), P("orders_left", (1,), O, "special-order deck"),
              P("sighting", (len(comp.sightings) + 1,), 1, "sighting card, then the Cessna"),
              P("supply", (K,), 30, "People in the supply"), P("discarded", (K,), 30, "People discarded"),
              P("radar_left", (1,), T, "radar tokens in the supply"),
              P("ask", (len(_ASKS),), 1, "open question"), P("ask_side", (S,), 1, "side asked"),
              P("ask_helis", (H,), 1, "helicopters that may fly"), P("ask_person", (K,), 1, "type asked for"),
              P("ask_picks", (1,), 2, "People still to take"), P("ask_must", (1,), 1, "no pass offered"),
              P("vp", (S,), MAX_VP, "VP"), P("influence", (S,), comp.influence.spaces, "influence"),
              P("arrived", (S,), 40, "arrival stamp"), P("hand", (S,), 10, "cards in hand"),
              P("radar", (S,), T, "radar tokens held"), P("orders", (S,), O, "special orders completed"),
              P("bid", (S,), T, "tokens in the sealed bid"), P("upgrades", (S, UPGRADES), 1, "carrier upgrades"),
              P("carrier", (S, K), 10, "People on the carrier"), P("faceup", (S, C), 1, "face-up card"),
              P("extras", (S, len(_EXTRAS)), 4, "kept sighting actions"),
              P("at", (S, H, len(where)), 1, "helicopter's node"), P("aboard", (S, H, K), 10, "People aboard"),
              P("night", (S, H), 1, "night side"), P("own_hand", (C,), 5, "own hand"),
              P("own_radar", (len(values),), 3, "own radar tokens of each value"),
              P("own_bid", (len(values),), 3, "own bid's tokens of each value"),
              P("own_orders", (O,), 1, "own completed special orders"),
              P("own_inspected", (R, len(comp.staircases)), 1, "staircase inspected on each rooftop")]

    def fill(s, seat, v):
        o = s.observation(seat)
        b = o.board
        one_hot(v["seat"], seat)
        v["round"][0], v["turn"][0] = b.round, b.turn
        one_hot(v["phase"], _PHASES.index(b.phase))
        for pos, side in enumerate(b.order):
            v["order"][pos, side] = 1
        for k in range(R):
            for p in b.roofs[k]:
                v["roofs"][k, PEOPLE.index(p)] += 1
            for p in b.stairs[k] if k < len(b.stairs) else ():
                v["stairs"][k, PEOPLE.index(p)] += 1
        one_hot(v["stairs_state"], _STAIRS.index(b.stairs_state))
        for i, c in enumerate(b.row):
            one_hot(v["row"][i], None if c is None else kind[c])
        for name, cards in (("discard", b.discard), ("removed", b.removed), ("own_hand", o.own.hand)):
            for c in cards:
                v[name][kind[c]] += 1
        v["deck"][0], v["orders_left"][0], v["radar_left"][0] = b.deck, b.orders_left, b.radar_left
        v["orders_row"][list(b.orders_row)] = 1
        one_hot(v["sighting"], len(comp.sightings) if b.sighting is None else b.sighting)
        v["supply"][:], v["discarded"][:] = b.supply, b.discarded
        if b.pending:
            q = b.pending[0]
            one_hot(v["ask"], _ASKS.index(q.ask))
            one_hot(v["ask_side"], q.side)
            for h in q.helis:
                v["ask_helis"][MODELS.index(h)] = 1
            one_hot(v["ask_person"], None if q.person is None else PEOPLE.index(q.person))
            v["ask_picks"][0], v["ask_must"][0] = q.picks, q.must
        for i, side in enumerate(o.sides):
            v["vp"][i], v["influence"][i], v["arrived"][i] = side.vp, side.influence, side.arrived
            v["hand"][i], v["radar"][i], v["orders"][i] = side.hand, side.radar, side.orders
            v["bid"][i] = side.bid or 0
            v["upgrades"][i] = side.upgrades
            for p in side.carrier:
                v["carrier"][i, PEOPLE.index(p)] += 1
            one_hot(v["faceup"][i], None if side.faceup is None else kind[side.faceup])
            for e in side.extras:
                v["extras"][i, _EXTRAS.index(e)] += 1
            for h in range(H):
                one_hot(v["at"][i, h], node_index.get(side.at[h]))
                for p in side.aboard[h]:
                    v["aboard"][i, h, PEOPLE.index(p)] += 1
                v["night"][i, h] = side.night[h]
        own = o.own
        for t in own.radar:
            v["own_radar"][values.index(t)] += 1
        for t in own.bid:
            v["own_bid"][values.index(t)] += 1
        v["own_orders"][list(own.orders)] = 1
        for k, card in own.inspected:
            v["own_inspected"][k, card] = 1

    return Encoder(pieces, fill)


_NAMES = ("players", "solo", "overflow", "payment", "data")


def _options(params) -> dict[str, Any]:
    out = engine_options(_game(), params, _NAMES)
    if out.get("solo"):
        out.pop("players", None)
    return out


SPEC = EngineSpec(
    short_name="furball_white_christmas", long_name="1975 White Christmas (furball)", game=_game,
    parameters={"players": 2, "solo": False, "overflow": "supply", "payment": "supply", "data": ""},
    options=_options,
    codec=lambda params, probe: WhiteChristmasCodec(probe),
    encoder=encoder, resample=resample, seen=seen, rollout="heuristic", return_scale=10.0,
    notes="2-4 players or solo; the seed (radar draws, shuffles) is hidden chance (sampled); resample re-deals the "
          "action deck with the other hands, radar values, unseen staircases, special-order and sighting decks",
)
"""The White Christmas spec (module docstring)."""
