"""The closed vocabularies of 1942 USS Yorktown and the crews' actions.

Every vocabulary is a ``StrEnum`` whose value is the word used in logs and JSON.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from furball.i18n import N_

from ..engine.protocol import IllegalAction

PLANES = 4
"""SBD Dauntless planes (YT.K2)."""
FACES = (2, 3, 4, 5, 6)
"""The faces that make equal results (YT.D2: never the 1s)."""


def plane_name(p: int) -> str:
    """``"Dauntless 1"`` … ``"Dauntless 4"`` for planes 0–3."""
    return f"Dauntless {p + 1}"

__all__ = ["PLANES", "plane_name", "Colour", "PlaneType", "Event", "Card", "Kind", "MoveKind", "Load", "Maneuver", "Target", "Weather",
           "Phase", "Scope", "EndReason", "Difficulty", "Expansion", "Action", "action", "IllegalAction",
           "END_TEXT", "FACES"]


class Colour(StrEnum):
    """Island colours (YT.K1)."""

    ORANGE = "orange"
    RED = "red"
    GREEN = "green"


class PlaneType(StrEnum):
    """Japanese plane types (YT.K3)."""

    JAKE = "Jake"
    KATE = "Kate"
    ZEKE = "Zeke"


class Event(StrEnum):
    """The event at the foot of a Japanese card (YT.R2)."""

    NONE = ""
    CAP = "cap"
    SHOHO_MOVES = "shoho moves"


EVENT_WORDS = (N_("cap"), N_("shoho moves"))
"""The events' words as a card's text writes them, for the catalog."""


class Card(StrEnum):
    """The four action cards a crew puts its disc on (YT.R5)."""

    SEARCH = "search"
    LAND_TAKE_OFF = "land/take off"
    ATTACK = "attack"
    MOVE = "move"


class Kind(StrEnum):
    """What an :class:`Action` does."""

    SET_UP = "set_up"                      # YT.S2: the two red islands
    CHOOSE = "choose"                      # YT.R5: a plane's action card
    NEXT = "next"                          # YT.R5: which plane acts next
    SEARCH = "search"                      # YT.A1 (or a weather search)
    TAKE_OFF = "take_off"                  # YT.A3
    LAND = "land"                          # YT.A5
    ATTACK = "attack"                      # YT.A7
    MOVE = "move"                          # YT.A8
    LIGHTNING = "lightning_attack"         # YT.A9
    EMERGENCY_LANDING = "emergency_landing"  # YT.A9
    CARRY_ON = "carry_on"                  # YT.A9: no special action after moving
    JETTISON = "jettison"                  # YT.A4
    FORFEIT = "forfeit"                    # YT.A2, YT.A10: the chosen action cannot be done
    THROW = "throw"                        # YT.D2: keep some faces, throw the other dice again
    STOP = "stop"                          # YT.D2: the roll ends; its result is judged
    ASSIGN = "assign"                      # YT.A7: the results go to these targets


class MoveKind(StrEnum):
    """The three moves (YT.A8)."""

    ADJACENT = "adjacent"
    DOUBLE = "double"
    RETURN = "return"


class Load(StrEnum):
    """What a plane carries (YT.A3, YT.A4; the tank is an expansion)."""

    BOMB = "bomb"
    TANK = "tank"


class Maneuver(StrEnum):
    """Expert maneuver tiles (expansion)."""

    GROUND_ACE = "ground ace"
    EFFICIENT = "efficient"
    DECISIVE = "decisive"
    HAWK_EYE = "hawk eye"
    AGGRESSIVE = "aggressive"
    INVISIBLE = "invisible"


class Target(StrEnum):
    """What an attack may aim at (YT.A7)."""

    JAKE = "Jake"
    KATE = "Kate"
    ZEKE = "Zeke"
    CAP = "CAP Zeke"
    SHOHO = "Shōhō"


class Weather(StrEnum):
    """Weather tiles (expansion)."""

    GOOD_VISIBILITY = "good visibility"
    UPDRAFT = "updraft"
    STORM = "storm"
    NOTHING = "nothing"


WEATHER_WORDS = (N_("good visibility"), N_("updraft"), N_("storm"), N_("nothing"))
"""The weather tiles' words as the log writes them, for the catalog."""


class Phase(StrEnum):
    """Whose decision the state waits for."""

    SET_UP = "set_up"
    CHOOSE = "choose"
    NEXT = "next"
    PLANE = "plane"
    AFTER_MOVE = "after_move"
    ROLL = "roll"          # a continuous roll is under way: throw again or stop (YT.D2)
    ASSIGN = "assign"      # the roll is over: which targets its results go to (YT.A7)
    OVER = "over"


class Scope(StrEnum):
    """What an attack is declared against (YT.A7), which sets its dice: the Japanese
    planes on the plane's island; also the CAP Zekes (the search bonus applies); also
    the Shōhō (the bomb is dropped, so no bomb penalty; a die fewer per CAP Zeke). The
    results may then go to any target in the scope (YT.A7 "asignar los resultados como
    quieras")."""

    PLANES = "planes"
    CAP = "CAP"
    SHOHO = "Shōhō"


class EndReason(StrEnum):
    """How a game ended (YT.E1, YT.E2)."""

    SHOHO_SUNK = "shoho_sunk"
    TIME = "time"
    YORKTOWN_SUNK = "yorktown_sunk"
    NO_PLANES = "no_planes"


END_TEXT = {EndReason.SHOHO_SUNK: N_("VICTORY: the Shōhō is sunk (YT.E1)"),
            EndReason.TIME: N_("DEFEAT: time ran out (YT.E2)"),
            EndReason.YORKTOWN_SUNK: N_("DEFEAT: the USS Yorktown took its third hit (YT.E2)"),
            EndReason.NO_PLANES: N_("DEFEAT: no Allied plane is left (YT.E2)")}


class Difficulty(StrEnum):
    """Timer length (YT.S4): easy 35, normal 30, hard 25 minutes (data: ``time.toml``)."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


class Expansion(StrEnum):
    """Optional mini-expansions."""

    EXPERT = "expert"
    TANK = "tank"
    WEATHER = "weather"


@dataclass(frozen=True)
class Action:
    """One decision.

    ``kind`` (:class:`Kind`); ``plane`` (0-based) for every kind but ``set_up``;
    ``card`` for ``choose``; ``to`` (a node index of the map) for ``move`` and
    ``take_off``; ``via`` (:class:`MoveKind`) for ``move``; ``load`` for ``take_off``;
    ``scope`` (:class:`Scope`) for ``attack`` and ``lightning_attack``; ``keep`` (the
    faces whose dice stay on the table, the others are thrown again) for ``throw``;
    ``targets`` and ``aim`` (the set size each target gets, aligned) for ``assign``;
    ``maneuver`` when an expert tile is played with the action; ``nodes`` (two red
    islands' node indices) for ``set_up``.
    """

    kind: Kind
    plane: int | None = None
    card: Card | None = None
    to: int | None = None
    via: MoveKind | None = None
    load: Load | None = None
    targets: tuple[Target, ...] = ()
    aim: tuple[int, ...] = ()
    maneuver: Maneuver | None = None
    nodes: tuple[int, ...] = ()
    scope: Scope | None = None
    keep: tuple[int, ...] = ()


ACTIONS = 8192
"""Actions kept by :func:`action`: a game's menus hold a few hundred distinct actions
(4 planes x moves to ~30 nodes, take-offs, attacks, maneuvers, the 31 ways to keep
faces of a throw, assignments)."""


@lru_cache(maxsize=ACTIONS)
def action(kind: Kind, plane: int | None = None, card: Card | None = None, to: int | None = None,
           via: MoveKind | None = None, load: Load | None = None, targets: tuple[Target, ...] = (),
           aim: tuple[int, ...] = (), maneuver: Maneuver | None = None, nodes: tuple[int, ...] = (),
           scope: Scope | None = None, keep: tuple[int, ...] = ()) -> Action:
    """The :class:`Action` with these fields, made once: menus are rebuilt for every
    position from the same few hundred actions, and a frozen dataclass costs more to
    build (one ``object.__setattr__`` per field) than to look up. Equal to
    ``Action(...)`` with the same fields."""
    return Action(kind, plane, card, to, via, load, targets, aim, maneuver, nodes, scope, keep)
