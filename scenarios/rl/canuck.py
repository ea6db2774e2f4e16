"""Operation Canuck for the adapters: ``furball_canuck`` (solitaire, CN.*).

* **Parameters**: ``map`` (a map file; ``""``: the shipped reconstruction), ``setup``
  (``default`` or ``free``, CN.S3).
* **Actions**: the canonical list of a map of ``A`` areas (:func:`canonical_actions`),
  built from the engine's own action table: Ambush (``A``), Sabotage (``A``), Train,
  Move, Build Base, Supply Drop, Pause (``A``), participants (9 x 5: Groups 0-8 by
  Leaders 0-4), add card (52), resolve, cancel, place Group (``A``), move counter
  (``A (A-1)`` x Group, Leader), place Base (``A``), lose (Group, Leader, Base), done —
  ``2A^2 + 3A + 112`` ids (422 on the shipped map of 10 areas).
* **Chance**: the draw deck's order and the dice the engine rolls inside ``apply`` are
  the hidden chance (OpenSpiel's sampled-stochastic mode). The Partisan sees every
  card outside the draw deck (the Reserve, both discard piles, the Axis deck, which is
  dealt face up at set-up and kept as a set, the removed cards), so the deck's contents
  are known and only its order is not: :func:`resample` shuffles the deck and draws a
  new seed for the dice.
* **Returns**: the VP total (CN.E4), 0 to :data:`MAX_VP` (the engine never subtracts
  VP; the bound is far above any game seen); OpenSpiel's returns are 0 until the end.
* **Observation** (:func:`encoder`, ``float32``, every entry from 0 to the ``high``
  listed): per area — ``garrison`` (die value, 0 none; 6), ``groups`` (8), ``leaders``
  (4), ``bases`` (1), ``boxes`` (GAR, BASE, BASE* printed; 1), ``alba`` (1 for Alba);
  per card (52, index = the engine's card number: suit x 13 + rank - 1) — ``reserve``,
  ``partisan_discard``, ``axis_deck``, ``axis_discard``, ``removed``, ``in_play``
  (taken by the option being resolved); counts — ``deck`` (cards in the draw deck, 52),
  ``unused_groups`` (8), ``unused_bases`` (4), ``lost_leaders`` (4), ``vp``
  (:data:`MAX_VP`), ``red_faces`` (6), ``alba_liberated_once`` (1), ``draws_due`` (52),
  ``options`` (options resolved, :data:`MAX_LENGTH`); the decision in progress —
  ``pending_kind`` (one-hot of :class:`~furball.scenarios.canuck.PendingKind`, all 0
  at the main menu), ``pending_op`` (one-hot: Ambush, Sabotage, Train, Move, Build
  Base, Supply Drop), ``pending_area`` and ``pending_garrison`` (one-hot areas),
  ``pending_groups`` (8), ``pending_leaders`` (4), ``pending_left`` (8),
  ``pending_cards`` and ``pending_drawn`` (52 cards), ``arrived_groups`` (8) and
  ``arrived_leaders`` (4) per area, ``pending_lost`` (Groups, Leaders, Bases lost; 8).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..canuck.actions import (
    BASES,
    DIE_FACES,
    GROUPS,
    LEADERS,
    RED_FACES_TO_END,
    ActionKind,
    PendingKind,
    Piece,
    action_table,
)
from ..canuck.cards import DECK_SIZE
from ..canuck.game import MAX_LENGTH, MAX_VP
from ..engine.protocol import Game
from .spec import Encoder, EngineSpec, TableCodec, engine_options, fresh_seed, one_hot
from .spec import Piece as ObsPiece

__all__ = ["SPEC", "canonical_actions", "resample", "encoder", "MAX_VP", "MAX_LENGTH"]

_OPS = (ActionKind.AMBUSH, ActionKind.SABOTAGE, ActionKind.TRAIN, ActionKind.MOVE, ActionKind.BUILD_BASE,
        ActionKind.SUPPLY_DROP)
_PENDING = tuple(PendingKind)


def _game() -> Game:
    from ..canuck.game import CANUCK

    return CANUCK


@lru_cache(maxsize=8)
def canonical_actions(areas: int) -> tuple:
    """Every action of a map of ``areas`` areas, in the order of the module docstring
    (the id of an action is its position)."""
    T = action_table(areas)
    K = ActionKind
    out = [*T.by_area[K.AMBUSH], *T.by_area[K.SABOTAGE], *T.non_kinetic, *T.by_area[K.PAUSE]]
    out += [T.participants[g, l_] for g in range(GROUPS + 1) for l_ in range(LEADERS + 1)]
    out += [*T.add_card, T.resolve, T.cancel, *T.by_area[K.PLACE_GROUP]]
    out += [T.move[a, b, piece] for a in range(areas) for b in range(areas) if a != b
            for piece in (Piece.GROUP, Piece.LEADER)]
    out += [*T.by_area[K.PLACE_BASE], *(T.lose[p] for p in Piece), T.done]
    return tuple(out)


@lru_cache(maxsize=8)
def _codec(areas: int) -> TableCodec:
    return TableCodec(canonical_actions(areas))


def resample(state: Any, seat: int, rng: np.random.Generator) -> Any:
    """A state the Partisan cannot tell from ``state``: the draw deck shuffled and a new
    seed for the dice (module docstring)."""
    deck = tuple(int(c) for c in rng.permutation(np.array(sorted(state.deck), dtype=np.int64)))
    return state.replace(deck=deck, seed=fresh_seed(rng))


def encoder(params, probe) -> Encoder:
    """The observation array of a map like ``probe``'s (module docstring)."""
    A = len(probe.board.areas)
    P = ObsPiece
    pieces = [P("garrison", (A,), DIE_FACES, "garrison die value per area (0: none)"),
              P("groups", (A,), GROUPS, "Groups per area"), P("leaders", (A,), LEADERS, "Leaders per area"),
              P("bases", (A,), 1, "Base per area"),
              P("boxes", (A, 3), 1, "GAR, BASE, BASE* box printed in the area"),
              P("alba", (A,), 1, "1 for Alba")]
    pieces += [P(name, (DECK_SIZE,), 1, f"card in {name.replace('_', ' ')}") for name in
               ("reserve", "partisan_discard", "axis_deck", "axis_discard", "removed", "in_play")]
    pieces += [P("deck", (1,), DECK_SIZE, "cards in the draw deck"),
               P("unused_groups", (1,), GROUPS, "Groups off the map"),
               P("unused_bases", (1,), BASES, "Bases off the map"), P("lost_leaders", (1,), LEADERS, "Leaders lost"),
               P("vp", (1,), MAX_VP, "VP recorded"),
               P("red_faces", (1,), RED_FACES_TO_END, "red face cards drawn (CN.E1)"),
               P("alba_liberated_once", (1,), 1, "Alba liberated once"),
               P("draws_due", (1,), DECK_SIZE, "deck draws owed"), P("options", (1,), MAX_LENGTH, "options resolved"),
               P("pending_kind", (len(_PENDING),), 1, "decision in progress (all 0: the main menu)"),
               P("pending_op", (len(_OPS),), 1, "operation being declared"),
               P("pending_area", (A,), 1, "area of the decision"), P("pending_garrison", (A,), 1,
                                                                       "sweeping garrison's area"),
               P("pending_groups", (1,), GROUPS, "Groups taking part"), P("pending_leaders", (1,), LEADERS,
                                                                      "Leaders taking part"),
               P("pending_left", (1,), GROUPS, "counters still to place or lose"),
               P("pending_cards", (DECK_SIZE,), 1, "Reserve cards chosen"),
               P("pending_drawn", (DECK_SIZE,), 1, "cards drawn"),
               P("arrived_groups", (A,), GROUPS, "Groups moved into the area"),
               P("arrived_leaders", (A,), LEADERS, "Leaders moved into the area"),
               P("pending_lost", (3,), GROUPS, "Groups, Leaders, Bases lost so far")]
    boxes = np.zeros((A, 3), np.float32)
    for i in probe.board.gar:
        boxes[i, 0] = 1
    for i in probe.board.base:
        boxes[i, 1] = 1
    for i in probe.board.base_star:
        boxes[i, 2] = 1

    def fill(s, seat, v):
        v["garrison"][:] = s.garrison
        v["groups"][:] = s.groups
        v["leaders"][:] = s.leaders
        v["bases"][:] = s.bases
        v["boxes"][:] = boxes
        v["alba"][s.board.alba] = 1
        for name, cards in (("reserve", s.reserve), ("partisan_discard", s.partisan_discard),
                            ("axis_deck", s.axis_deck), ("axis_discard", s.axis_discard), ("removed", s.removed),
                            ("in_play", s.cards_in_play)):
            v[name][list(cards)] = 1
        v["deck"][0] = len(s.deck)
        v["unused_groups"][0], v["unused_bases"][0], v["lost_leaders"][0] = (s.unused_groups, s.unused_bases,
                                                                             s.lost_leaders)
        v["vp"][0], v["red_faces"][0] = min(s.vp, MAX_VP), s.red_faces
        v["alba_liberated_once"][0], v["draws_due"][0] = s.alba_liberated_once, s.draws_due
        v["options"][0] = min(s.options, MAX_LENGTH)
        p = s.pending
        if p is None:
            return
        one_hot(v["pending_kind"], _PENDING.index(p.kind))
        one_hot(v["pending_op"], _OPS.index(p.op) if p.op in _OPS else None)
        one_hot(v["pending_area"], p.area)
        one_hot(v["pending_garrison"], p.garrison)
        v["pending_groups"][0], v["pending_leaders"][0], v["pending_left"][0] = p.groups, p.leaders, p.left
        v["pending_cards"][list(p.cards)] = 1
        v["pending_drawn"][list(p.drawn)] = 1
        if p.arrived_groups:
            v["arrived_groups"][:] = p.arrived_groups
        if p.arrived_leaders:
            v["arrived_leaders"][:] = p.arrived_leaders
        v["pending_lost"][:] = p.lost

    return Encoder(pieces, fill)


SPEC = EngineSpec(
    short_name="furball_canuck", long_name="Operation Canuck (furball)", game=_game,
    parameters={"map": "", "setup": "default"},
    options=lambda params: engine_options(_game(), params, ("map", "setup")),
    codec=lambda params, probe: _codec(len(probe.board.areas)),
    encoder=encoder, resample=resample, rollout="heuristic", return_scale=10.0,
    notes="solitaire; the draw deck's order and the dice are hidden chance (sampled); resample shuffles the deck",
)
"""The Operation Canuck spec (module docstring)."""
