"""1942 USS Yorktown for the adapters: ``furball_yorktown`` (cooperative, YT.*).

* **Parameters**: ``players`` (1-4), ``difficulty`` (``easy``, ``normal``, ``hard``),
  ``novices``, ``expansions`` (``""`` or ``none``: none; names joined by ``+``, e.g.
  ``expert+tank+weather``, since a comma ends a parameter in OpenSpiel's game strings), and
  data files ``map``, ``deck``, ``time`` (``""``: the shipped reconstructions).
* **Actions** (:func:`canonical_actions`, for a map of ``N`` graph nodes and ``R`` red
  islands): the set-up pairs of red islands (``R (R-1) / 2``), then per plane (4) —
  choose a card (4), act next (1), search (plain, Hawk eye, Efficient), take off (load
  none, bomb, tank x ``N`` destinations), land (plain, Ground ace), attack (3 scopes x
  plain, Decisive, Efficient), Lightning Attack (3 scopes x plain, Decisive, Efficient,
  Aggressive), move (``N`` destinations x adjacent, double, return x plain, Invisible),
  Emergency Landing (plain, Ground ace), carry on, jettison, forfeit, stop, throw again
  keeping a set of faces (the 32 subsets of 2-6) — and last, per plane,
  :data:`MAX_ASSIGN` ids for assigning an attack's results: id ``k`` is the ``k``-th
  outcome of the state's assignment menu (the engine lists the outcomes no other beats,
  in a fixed order; at most 4 were seen in thousands of games).
* **Chance and hidden information**: the seed (dice, Japanese draws) is hidden chance
  (OpenSpiel's sampled-stochastic mode). :func:`resample` re-deals, for one seat: the
  Japanese deck's order (its cards are those not discarded), the face-down weather
  tiles (from the tiles not yet turned face up), the expert tiles of planes other seats
  fly (from the tiles the seat does not hold; which tiles were already played is not
  kept in the state, so they may be dealt again), and a new seed.
* **Returns**: 1 for every seat after a victory, 0 after a defeat (identical utility).
* **Observation** (:func:`encoder`; entries from 0 to the ``high`` listed): per island
  (10) — ``colour`` (one-hot orange, red, green), ``japanese`` (Jakes, Kates, Zekes on it;
  4), ``touching`` (it touches the approach zone), ``weather`` (one-hot of the tile when
  face up, then 1 for a face-down tile); per plane (4) — ``where`` (one-hot of the graph
  node; all 0 once out), ``fuel`` (the maximum), ``skill`` (the maximum points),
  ``cockpit_b``, ``load`` (bomb, tank), ``tile`` (one-hot of its unused expert tile when
  the seat flies it; the last entry 1 for a hidden tile of another seat), ``card``
  (one-hot of this turn's card), ``done``, ``acting``, ``mine`` (the seat flies it);
  ``clock`` (seconds; the timer), ``turn`` (:data:`MAX_TURNS`), ``phase`` (one-hot),
  ``search`` (7), ``yorktown`` and ``shoho`` damage (3), ``cap`` (the CAP boxes),
  ``supply`` (tokens in each pool's reserve; 20), ``runway_used``, ``located``; the roll
  under way — ``roll_purpose`` (one-hot), ``roll_plane`` (one-hot), ``roll_dice`` (20),
  ``roll_faces`` (dice showing each face 2-6; 20), ``roll_ones`` (20), ``roll_throws``
  (:data:`MAX_THROWS`).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from furball.errors import IllegalAction

from ..engine.protocol import Game
from ..yorktown.actions import (
    FACES,
    PLANES,
    Card,
    Colour,
    Kind,
    Load,
    Maneuver,
    MoveKind,
    Phase,
    PlaneType,
    Scope,
    Weather,
    action,
)
from ..yorktown.game import MAX_LENGTH
from ..yorktown.rolls import Purpose
from .spec import Encoder, EngineSpec, engine_options, fresh_seed, one_hot
from .spec import Piece as ObsPiece

__all__ = ["SPEC", "YorktownCodec", "canonical_actions", "resample", "encoder", "MAX_ASSIGN", "MAX_LENGTH"]

MAX_ASSIGN = 32
"""Ids per plane for the outcomes of an attack's assignment menu."""
MAX_TURNS, MAX_THROWS = 40, 64
"""Observation bounds (clipped above)."""
_KEEPS = tuple(k for n in range(len(FACES) + 1) for k in combinations(FACES, n))
_PHASES, _PURPOSES, _CARDS = tuple(Phase), tuple(Purpose), tuple(Card)
_TYPES, _WEATHER, _MANEUVERS = tuple(PlaneType), tuple(Weather), tuple(Maneuver)


def _game() -> Game:
    from ..yorktown.game import YORKTOWN

    return YORKTOWN


@lru_cache(maxsize=8)
def canonical_actions(board) -> tuple:
    """Every action but the assignments, for ``board`` (module docstring)."""
    nodes = range(len(board.labels))
    out = [action(Kind.SET_UP, nodes=(board.island_node[a], board.island_node[b]))
           for a, b in combinations(board.red, 2)]
    M = Maneuver
    for p in range(PLANES):
        out += [action(Kind.CHOOSE, plane=p, card=c) for c in Card]
        out.append(action(Kind.NEXT, plane=p))
        out += [action(Kind.SEARCH, plane=p, maneuver=m) for m in (None, M.HAWK_EYE, M.EFFICIENT)]
        out += [action(Kind.TAKE_OFF, plane=p, to=n, load=ld) for ld in (None, Load.BOMB, Load.TANK) for n in nodes]
        out += [action(Kind.LAND, plane=p, maneuver=m) for m in (None, M.GROUND_ACE)]
        out += [action(Kind.ATTACK, plane=p, scope=c, maneuver=m) for c in Scope for m in (None, M.DECISIVE, M.EFFICIENT)]
        out += [action(Kind.LIGHTNING, plane=p, scope=c, maneuver=m) for c in Scope
                for m in (None, M.DECISIVE, M.EFFICIENT, M.AGGRESSIVE)]
        out += [action(Kind.MOVE, plane=p, to=n, via=v, maneuver=m) for n in nodes for v in MoveKind
                for m in (None, M.INVISIBLE)]
        out += [action(Kind.EMERGENCY_LANDING, plane=p, maneuver=m) for m in (None, M.GROUND_ACE)]
        out += [action(k, plane=p) for k in (Kind.CARRY_ON, Kind.JETTISON, Kind.FORFEIT, Kind.STOP)]
        out += [action(Kind.THROW, plane=p, keep=k) for k in _KEEPS]
    return tuple(out)


class YorktownCodec:
    """Yorktown actions as integers (module docstring)."""

    def __init__(self, board):
        self.actions = canonical_actions(board)
        self.index = {a: i for i, a in enumerate(self.actions)}
        self.assign_base = len(self.actions)
        self.size = self.assign_base + PLANES * MAX_ASSIGN

    def encode(self, state: Any, a) -> int:
        if a.kind == Kind.ASSIGN:
            menu = state.legal_actions()
            k = menu.index(a)
            if k >= MAX_ASSIGN:  # pragma: no cover - a menu longer than any seen
                raise RuntimeError(f"yorktown: an assignment menu of {len(menu)} outcomes (ids for {MAX_ASSIGN})")
            return self.assign_base + a.plane * MAX_ASSIGN + k
        try:
            return self.index[a]
        except KeyError:
            raise IllegalAction(f"action {a!r:.80}: not in this game's action list") from None

    def decode(self, state: Any, action_id: int):
        action_id = int(action_id)
        if 0 <= action_id < self.assign_base:
            return self.actions[action_id]
        if not self.assign_base <= action_id < self.size:
            raise IllegalAction(f"action id {action_id}: expected 0 to {self.size - 1}")
        plane, k = divmod(action_id - self.assign_base, MAX_ASSIGN)
        menu = state.legal_actions()
        if state.phase != Phase.ASSIGN or k >= len(menu) or menu[k].plane != plane:
            raise IllegalAction(f"action id {action_id}: no assignment {k} of Dauntless {plane + 1} now")
        return menu[k]


def resample(state: Any, seat: int, rng: np.random.Generator) -> Any:
    """A state seat ``seat`` cannot tell from ``state``, everything hidden from it
    re-dealt (module docstring)."""
    changes: dict[str, Any] = {"deck": tuple(int(c) for c in rng.permutation(np.array(sorted(state.deck), np.int64))),
                               "seed": fresh_seed(rng)}
    down = [k for k, w in enumerate(state.weather) if w is not None and not state.revealed[k]]
    if down:
        pool = [w for w, n in state.setup.rules.weather_tiles for _ in range(n)]
        for k, w in enumerate(state.weather):
            if w is not None and state.revealed[k]:
                pool.remove(w)
        pool.sort()
        weather = list(state.weather)
        for k, i in zip(down, rng.choice(len(pool), size=len(down), replace=False)):
            weather[k] = pool[int(i)]
        changes["weather"] = tuple(weather)
    seat_of = state.setup.seat_of
    theirs = [p for p in range(PLANES) if seat_of[p] != seat and state.tile[p] is not None]
    if theirs:
        pool = [m for m in Maneuver if m not in {state.tile[p] for p in range(PLANES) if seat_of[p] == seat}]
        tile = list(state.tile)
        for p, i in zip(theirs, rng.choice(len(pool), size=len(theirs), replace=False)):
            tile[p] = pool[int(i)]
        changes["tile"] = tuple(tile)
    return state.replace(**changes)


def encoder(params, probe) -> Encoder:
    """The observation array of a game like ``probe`` (module docstring)."""
    board, rules, deck = probe.setup.board, probe.setup.rules, probe.setup.deck
    islands, nodes = len(board.names), len(board.labels)
    O = ObsPiece
    pieces = [O("colour", (islands, 3), 1, "orange, red, green"), O("japanese", (islands, 3), 4, "Jakes, Kates, Zekes"),
              O("touching", (islands,), 1, "touches the approach zone"),
              O("weather", (islands, len(_WEATHER) + 1), 1, "weather tile face up (one-hot), then face down"),
              O("where", (PLANES, nodes), 1, "the plane's graph node"), O("fuel", (PLANES,), rules.fuel_max, "fuel"),
              O("skill", (PLANES,), rules.max_points, "skill points"), O("cockpit_b", (PLANES,), 1, "cockpit side B"),
              O("load", (PLANES, 2), 1, "bomb, tank"),
              O("tile", (PLANES, len(_MANEUVERS) + 1), 1, "own unused expert tile (one-hot), then a hidden one"),
              O("card", (PLANES, len(_CARDS)), 1, "this turn's action card"), O("done", (PLANES,), 1, "acted"),
              O("acting", (PLANES,), 1, "acting now"), O("mine", (PLANES,), 1, "flown by the seat"),
              O("clock", (1,), probe.setup.limit, "seconds on the clock"), O("turn", (1,), MAX_TURNS, "turn"),
              O("phase", (len(_PHASES),), 1, "whose decision"), O("search", (1,), 7, "search track"),
              O("yorktown", (1,), 3, "Yorktown damage"), O("shoho", (1,), 3, "Shōhō damage"),
              O("cap", (1,), board.cap_boxes, "Zekes on CAP"), O("supply", (len(deck.pools),), 20, "tokens in reserve"),
              O("runway_used", (1,), board.runway_places, "runway places used"), O("located", (1,), 1, "located"),
              O("roll_purpose", (len(_PURPOSES),), 1, "the roll's purpose"), O("roll_plane", (PLANES,), 1, "roller"),
              O("roll_dice", (1,), 20, "dice"), O("roll_faces", (len(FACES),), 20, "dice showing 2-6"),
              O("roll_ones", (1,), 20, "dice locked on 1"), O("roll_throws", (1,), MAX_THROWS, "throws")]
    colours = (Colour.ORANGE, Colour.RED, Colour.GREEN)

    def fill(s, seat, v):
        for k in range(islands):
            one_hot(v["colour"][k], colours.index(board.colours[k]))
            for t in s.japanese[k]:
                v["japanese"][k, _TYPES.index(t)] += 1
            v["touching"][k] = k in board.touching
            if s.weather[k] is not None:
                one_hot(v["weather"][k], _WEATHER.index(s.weather[k]) if s.revealed[k] else len(_WEATHER))
        seat_of = s.setup.seat_of
        for p in range(PLANES):
            mine = seat_of[p] == seat
            v["mine"][p] = mine
            if s.loc[p] is None:
                continue
            v["where"][p, s.loc[p]] = 1
            v["fuel"][p], v["skill"][p], v["cockpit_b"][p] = s.fuel[p], s.skill[p], s.side_b[p]
            if s.load[p] is not None:
                v["load"][p, 0 if s.load[p] == Load.BOMB else 1] = 1
            if s.tile[p] is not None:
                one_hot(v["tile"][p], _MANEUVERS.index(s.tile[p]) if mine else len(_MANEUVERS))
            if s.choice[p] is not None:
                v["card"][p, _CARDS.index(s.choice[p])] = 1
            v["done"][p], v["acting"][p] = s.done[p], s.acting == p
        v["clock"][0], v["turn"][0] = s.clock, s.turn
        one_hot(v["phase"], _PHASES.index(s.phase))
        v["search"][0], v["yorktown"][0], v["shoho"][0], v["cap"][0] = s.search, s.yorktown, s.shoho, s.cap
        v["supply"][:] = s.supply
        v["runway_used"][0], v["located"][0] = s.runway_used, s.located()
        r = s.roll
        if r is not None:
            one_hot(v["roll_purpose"], _PURPOSES.index(r.purpose))
            one_hot(v["roll_plane"], r.plane)
            v["roll_dice"][0], v["roll_ones"][0], v["roll_throws"][0] = r.dice, r.ones, r.throws
            for f in r.faces:
                v["roll_faces"][FACES.index(f)] += 1

    return Encoder(pieces, fill)


_NAMES = ("players", "difficulty", "novices", "map", "deck", "expansions", "time")

SPEC = EngineSpec(
    short_name="furball_yorktown", long_name="1942 USS Yorktown (furball)", game=_game,
    parameters={"players": 1, "difficulty": "normal", "novices": 0, "expansions": "", "map": "", "deck": "",
                "time": ""},
    options=lambda params: engine_options(_game(), {**params, "expansions": params["expansions"].replace("+", ",")},
                                          _NAMES),
    codec=lambda params, probe: YorktownCodec(probe.setup.board),
    encoder=encoder, resample=resample, rollout="heuristic",
    notes="cooperative; the seed (dice, Japanese draws) is hidden chance (sampled); resample re-deals the Japanese "
          "deck's order, face-down weather tiles and other seats' expert tiles",
)
"""The Yorktown spec (module docstring)."""
