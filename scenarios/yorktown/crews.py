"""The crews' decisions: legal actions, their text, and how they resolve
(YT.S2, YT.R5–R6, YT.A1–A10, YT.D1–D3, YT.X1, YT.E1–E2; expansions).

Menus (see :mod:`.state` for the phases):

* ``set_up``: a pair of red islands for Dauntless 3 and 4 (YT.S2);
* ``choose``: the action card of the next plane (YT.R5) — any of the four: a card the
  plane cannot carry out costs an airborne plane 1 fuel (YT.A10);
* ``next``: which plane acts now (seat 0 calls the order);
* ``plane``: Search (YT.A1, or a weather search), Attack with a declared scope — the
  planes on the island, also the CAP, also the Shōhō — (YT.A7), Move (a) / (b) / (c)
  with a destination (YT.A8), Take off with a load and a destination (YT.A3), Land
  (YT.A5); ``forfeit`` when the card cannot be carried out (YT.A2, YT.A10); expert
  maneuvers as variants of these;
* ``after_move``: Lightning Attack, Emergency Landing, or carry on (YT.A9);
* ``roll``: throw again keeping some faces, or stop (YT.D2, :mod:`.rolls`);
* ``assign``: which targets an attack's results go to (YT.A7).

``jettison`` (YT.A4) comes first in the ``plane`` menu, and in the ``after_move`` menu
when a roll may follow, whenever the plane carries a bomb or a tank: at any moment of
its turn but during a roll.
"""
from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from furball.i18n import ENGLISH, N_, Phrase, msg, render_entry

from ..engine.frozen import Draft
from ..engine.protocol import Reason, action_text, refuse
from .actions import (
    PLANES,
    Action,
    Card,
    Colour,
    EndReason,
    Expansion,
    Kind,
    Load,
    Maneuver,
    MoveKind,
    Phase,
    PlaneType,
    Scope,
    Target,
    Weather,
    action,
    plane_name,
)
from .japanese import japanese_phase, set_up_planes
from .rolls import (
    ATTACKS,
    LANDINGS,
    TARGET_ORDER,
    Purpose,
    Roll,
    assign_menu,
    assignment_faces,
    faces_text,
    outcomes,
    roll_menu,
    throw,
)
from .work import Work

if TYPE_CHECKING:
    from .state import State

__all__ = ["legal_actions", "explain", "apply", "describe", "search_dice", "attack_dice", "landing_dice", "attack_menu",
           "scope_targets", "need", "roll_outcomes", "settled"]

CARRY_ON_KINDS = (Kind.LIGHTNING, Kind.EMERGENCY_LANDING, Kind.CARRY_ON)
QUICK_KINDS = (Kind.CHOOSE, Kind.NEXT)
ISLAND_TARGETS = {PlaneType.JAKE: Target.JAKE, PlaneType.KATE: Target.KATE, PlaneType.ZEKE: Target.ZEKE}
CHOOSE_MENU = tuple(tuple(action(Kind.CHOOSE, plane=p, card=c) for c in Card) for p in range(PLANES))
NEXT_ACTION = tuple(action(Kind.NEXT, plane=p) for p in range(PLANES))


# -- dice counts (shared by the menus' texts and the resolution) -----------------------
def _weather_at(s, node: int | None, tile: Weather) -> bool:
    """Whether a revealed weather ``tile`` lies on the island at ``node`` (expansion)."""
    if Expansion.WEATHER not in s.setup.expansions:
        return False
    k = s.setup.board.island_of[node] if node is not None else None
    return k is not None and s.revealed[k] and s.weather[k] == tile


def _storm(s, p: int) -> int:
    return 1 if _weather_at(s, s.loc[p], Weather.STORM) else 0


def _bomb(s, p: int) -> int:
    return s.setup.rules.bomb_penalty if s.load[p] is not None else 0


def skill_dice(s, p: int) -> int:
    """Dice of the plane's skill card (YT.X1)."""
    return s.setup.rules.dice_for(s.skill[p])


def search_dice(s, p: int) -> int:
    """YT.A1: skill dice + 1 (the mandatory fuel die) + 1 per other plane searching from
    a different orange island, − 1 with a bomb/tank (YT.A4), − 1 in a storm."""
    board, r = s.setup.board, s.setup.rules
    here = s.loc[p]
    others = sum(1 for q in range(PLANES) if q != p and s.loc[q] is not None and s.choice[q] == Card.SEARCH
                 and s.loc[q] != here and board.island_of[s.loc[q]] is not None
                 and board.colours[board.island_of[s.loc[q]]] == Colour.ORANGE)
    return max(0, skill_dice(s, p) + 1 + r.other_plane_dice * others - _bomb(s, p) - _storm(s, p))


def weather_dice(s, p: int) -> int:
    """Weather search (expansion): skill dice + the fuel die only."""
    return max(0, skill_dice(s, p) + 1 - _bomb(s, p))


def attack_dice(s, p: int, scope: Scope, full: bool = True) -> int:
    """YT.A7 (``full``): skill dice + 1 (mandatory fuel die) + 1 per other plane at the
    same location also attacking + the search bonus when the CAP or the Shōhō is in the
    ``scope``, − 1 per CAP Zeke when the Shōhō is; − 1 with a bomb/tank unless the bomb
    is dropped on the Shōhō (YT.A4); − 1 in a storm. YT.A9 Lightning Attack (not
    ``full``): skill dice only (the bomb's and the storm's penalties still apply)."""
    r = s.setup.rules
    n = skill_dice(s, p)
    if full:
        here = s.loc[p]
        n += 1 + r.same_location_dice * sum(1 for q in range(PLANES) if q != p and s.loc[q] == here
                                            and s.choice[q] == Card.ATTACK)
        if scope in (Scope.CAP, Scope.SHOHO):
            n += r.search_bonus[s.search]
    if scope == Scope.SHOHO:
        n -= r.cap_penalty * s.cap
    else:
        n -= _bomb(s, p)
    return max(0, n - _storm(s, p))


def landing_dice(s, p: int, emergency: bool = False) -> int:
    """YT.A5: skill dice + 1 die per fuel point (Emergency Landing, YT.A9: skill dice
    only), − 1 with a bomb/tank."""
    extra = 0 if emergency else s.fuel[p]
    return max(0, skill_dice(s, p) + extra - _bomb(s, p))


def need(s, t: Target) -> int:
    """Equal results that shoot target ``t`` down (deck data; a CAP Zeke is a Zeke)."""
    planes = s.setup.deck.planes
    return planes[PlaneType.ZEKE if t == Target.CAP else PlaneType(t.value)].shoot_down


def scope_targets(s, p: int, scope: Scope) -> tuple[Target, ...]:
    """What the results of an attack with ``scope`` may go to (YT.A7): the Japanese
    planes on the plane's island; with the CAP, its Zekes too; with the Shōhō, the Shōhō
    as well."""
    k = s.setup.board.island_of[s.loc[p]]
    out = [ISLAND_TARGETS[t] for t in s.japanese[k]] if k is not None else []
    if scope in (Scope.CAP, Scope.SHOHO):
        out += [Target.CAP] * s.cap
    if scope == Scope.SHOHO:
        out.append(Target.SHOHO)
    return tuple(sorted(out, key=TARGET_ORDER.__getitem__))


def _shoho_damage(s):
    r = s.setup.rules
    left = r.shoho_hits_to_sink - s.shoho
    return lambda size: left if size >= r.perfect else min(left, r.hits(size))


def roll_outcomes(s, roll: Roll):
    """The assignments worth choosing for an attack's results (:func:`.rolls.outcomes`)."""
    r = s.setup.rules
    damage = _shoho_damage(s)
    kinds = sorted(set(roll.targets) - {Target.SHOHO}, key=TARGET_ORDER.__getitem__)
    return outcomes(roll.counts, roll.targets, tuple((t, need(s, t)) for t in kinds), r.perfect,
                    tuple(damage(n) for n in range(r.perfect + 1)))


def settled(s, roll: Roll) -> bool:
    """Whether the roll's result cannot get better: three equal (or more) for a search,
    a landing or the weather tile's pair; for an attack, every target served (the
    Shōhō sunk)."""
    r = s.setup.rules
    if roll.purpose == Purpose.SEARCH:
        return r.levels(roll.best) >= r.levels(99)
    if roll.purpose == Purpose.WEATHER:
        return roll.best >= r.weather_flip
    if roll.purpose in LANDINGS:
        return roll.best >= r.landing_safe
    found = s.assignments if s.roll is roll else roll_outcomes(s, roll)
    if not found:
        return False
    targets, sizes = found[0]
    damage = _shoho_damage(s)
    whole = [t for t in roll.targets if t != Target.SHOHO]
    served = [t for t in targets if t != Target.SHOHO]
    sunk = Target.SHOHO not in roll.targets or any(t == Target.SHOHO and damage(n) >= r.shoho_hits_to_sink - s.shoho
                                                   for t, n in zip(targets, sizes))
    return len(served) == len(whole) and sunk


# -- menus -------------------------------------------------------------------------------
def legal_actions(s: State) -> tuple[Action, ...]:
    """Every legal action of ``s`` in a fixed order (see the module doc)."""
    if s.over is not None:
        return ()
    ph = s.phase
    if ph == Phase.CHOOSE:
        return CHOOSE_MENU[s.chooser()]
    if ph == Phase.NEXT:
        return tuple(NEXT_ACTION[p] for p in range(PLANES) if s.loc[p] is not None and not s.done[p])
    if ph == Phase.PLANE:
        return _plane_menu(s, s.acting)
    if ph == Phase.AFTER_MOVE:
        return _after_move_menu(s, s.acting)
    if ph == Phase.ROLL:
        return roll_menu(s.roll, settled(s, s.roll))
    if ph == Phase.ASSIGN:
        return assign_menu(s.roll, s.assignments)
    board = s.setup.board
    return tuple(action(Kind.SET_UP, nodes=(board.island_node[a], board.island_node[b]))
                 for a, b in combinations(board.red, 2))


def _has(s, p: int, m: Maneuver) -> bool:
    return s.tile[p] == m


def _with_tiles(s, p: int, base: list[Action], tiles: tuple[Maneuver, ...]) -> list[Action]:
    for m in tiles:
        if _has(s, p, m):
            return base + [action(a.kind, a.plane, a.card, a.to, a.via, a.load, a.targets, a.aim, m, a.nodes,
                                  a.scope, a.keep) for a in base]
    return base


def _plane_menu(s, p: int) -> tuple[Action, ...]:
    card = s.choice[p]
    out: list[Action] = []
    if card == Card.SEARCH:
        out = _search_menu(s, p)
    elif card == Card.ATTACK:
        out = attack_menu(s, p, Kind.ATTACK)
    elif card == Card.MOVE:
        out = _move_menu(s, p)
    else:
        out = _runway_menu(s, p)
    if not out:
        out = [action(Kind.FORFEIT, plane=p)]
    if s.load[p] is not None:
        out.insert(0, action(Kind.JETTISON, plane=p))
    return tuple(out)


def _search_menu(s, p: int) -> list[Action]:
    board = s.setup.board
    k = board.island_of[s.loc[p]]
    if k is None:
        return []
    if board.colours[k] == Colour.ORANGE:
        return _with_tiles(s, p, [action(Kind.SEARCH, plane=p)], (Maneuver.HAWK_EYE, Maneuver.EFFICIENT))
    if s.weather[k] is not None and not s.revealed[k]:
        return _with_tiles(s, p, [action(Kind.SEARCH, plane=p)], (Maneuver.EFFICIENT,))
    return []


def _scopes(s, p: int, k: int, full: bool) -> list[Scope]:
    """The scopes an attack from island ``k`` may declare (YT.A7): the planes there; with
    every Attack rule (``full``), on an orange island once the Shōhō is located, its CAP
    (when Zekes fly it) and the Shōhō itself (with a bomb)."""
    board, r = s.setup.board, s.setup.rules
    out = [Scope.PLANES] if s.japanese[k] else []
    if full and board.colours[k] == Colour.ORANGE and s.search >= r.located:
        if s.cap:
            out.append(Scope.CAP)
        if s.load[p] == Load.BOMB:
            out.append(Scope.SHOHO)
    return out


def attack_menu(s, p: int, kind: Kind) -> list[Action]:
    """Attacks (``attack`` or ``lightning_attack``) from the plane's island, one per
    scope (YT.A7, YT.A9): a Lightning Attack only where Japanese planes are, against them
    (with the Aggressive maneuver, as a full Attack)."""
    board = s.setup.board
    k = board.island_of[s.loc[p]] if s.loc[p] is not None else None
    if k is None:
        return []
    if kind == Kind.ATTACK:
        return _with_tiles(s, p, [action(kind, plane=p, scope=c) for c in _scopes(s, p, k, True)],
                           (Maneuver.DECISIVE, Maneuver.EFFICIENT))
    if not s.japanese[k]:
        return []
    base = [action(kind, plane=p, scope=Scope.PLANES)]
    if _has(s, p, Maneuver.AGGRESSIVE):
        return base + [action(kind, plane=p, scope=c, maneuver=Maneuver.AGGRESSIVE) for c in _scopes(s, p, k, True)]
    return _with_tiles(s, p, base, (Maneuver.DECISIVE, Maneuver.EFFICIENT))


def _move_menu(s, p: int) -> list[Action]:
    board, r = s.setup.board, s.setup.rules
    at, fuel = s.loc[p], s.fuel[p]
    if at == board.runway:
        return []
    mask = s.mask
    out = []
    if fuel >= r.move_adjacent:
        out += [action(Kind.MOVE, plane=p, to=n, via=MoveKind.ADJACENT) for n in board.steps[at] if n != board.approach]
    if fuel >= r.move_double:
        normal = board.doubles(at, mask)
        out += [action(Kind.MOVE, plane=p, to=n, via=MoveKind.DOUBLE) for n in normal if n != board.approach]
        if _has(s, p, Maneuver.INVISIBLE):
            out += [action(Kind.MOVE, plane=p, to=n, via=MoveKind.DOUBLE, maneuver=Maneuver.INVISIBLE)
                    for n in board.doubles(at, mask, invisible=True) if n not in normal and n != board.approach]
    if fuel >= r.move_return and at != board.approach:
        if board.can_return(at, mask):
            out.append(action(Kind.MOVE, plane=p, to=board.approach, via=MoveKind.RETURN))
        elif _has(s, p, Maneuver.INVISIBLE) and board.can_return(at, mask, invisible=True):
            out.append(action(Kind.MOVE, plane=p, to=board.approach, via=MoveKind.RETURN, maneuver=Maneuver.INVISIBLE))
    return out


def _runway_menu(s, p: int) -> list[Action]:
    board, r = s.setup.board, s.setup.rules
    at = s.loc[p]
    if s.runway_used >= board.runway_places:
        return []
    if at == board.runway:
        loads: list[Load | None] = [None]
        if s.bombs_left() > 0:
            loads.append(Load.BOMB)
            if Expansion.TANK in s.setup.expansions:
                loads.append(Load.TANK)
        dests = [(board.approach, r.take_off_approach)] + [(board.island_node[k], r.take_off_red) for k in board.red]
        return [action(Kind.TAKE_OFF, plane=p, to=n, load=ld) for ld in loads for n, cost in dests if s.fuel[p] >= cost]
    if at == board.approach:
        out = [action(Kind.LAND, plane=p)]
        if _has(s, p, Maneuver.GROUND_ACE) and s.fuel[p] < r.landing_auto_fuel:
            out.append(action(Kind.LAND, plane=p, maneuver=Maneuver.GROUND_ACE))
        return out
    return []


def _after_move_menu(s, p: int) -> tuple[Action, ...]:
    board = s.setup.board
    out = attack_menu(s, p, Kind.LIGHTNING)
    if s.loc[p] == board.approach and s.fuel[p] == 0 and s.runway_used < board.runway_places:
        out.append(action(Kind.EMERGENCY_LANDING, plane=p))
        if _has(s, p, Maneuver.GROUND_ACE):
            out.append(action(Kind.EMERGENCY_LANDING, plane=p, maneuver=Maneuver.GROUND_ACE))
    if out and s.load[p] is not None:
        out.insert(0, action(Kind.JETTISON, plane=p))  # YT.A4: before the roll that may follow
    out.append(action(Kind.CARRY_ON, plane=p))
    return tuple(out)


# -- texts ---------------------------------------------------------------------------
def _target_text(s, t: Target, size: int, _=ENGLISH) -> str:
    r = s.setup.rules
    if t == Target.SHOHO:
        hits = _shoho_damage(s)(size)
        if size >= r.perfect:
            damage = _("a PERFECT HIT")
        elif r.hits(size) > 1:
            damage = _("{n} hits").format(n=r.hits(size))
        else:
            damage = _("{n} hit").format(n=r.hits(size))
        sunk = _(" (sunk)") if hits >= r.shoho_hits_to_sink - s.shoho else ""
        return _("the Shōhō: {damage}{sunk}").format(damage=damage, sunk=sunk)
    return _("shoot down a {plane}").format(plane=t)


def _names(targets: tuple[Target, ...], _=ENGLISH) -> str:
    return ", ".join(str(t) for t in targets) or _("none")


def _scope_text(_, s, p: int, a: Action, full: bool) -> str:
    targets = scope_targets(s, p, a.scope)
    planes = tuple(t for t in targets if t not in (Target.CAP, Target.SHOHO))
    if a.scope == Scope.SHOHO:
        return _("the Shōhō (the bomb is dropped; results may also go to: {planes})").format(
            planes=_names(targets[:-1], _))
    if a.scope == Scope.CAP:
        if s.cap > 1:
            return _("the CAP ({n} Zekes; results may also go to: {planes})").format(n=s.cap, planes=_names(planes, _))
        return _("the CAP ({n} Zeke; results may also go to: {planes})").format(n=s.cap, planes=_names(planes, _))
    return _("the planes here ({planes})").format(planes=_names(planes, _))


def _judgement(_, s, roll: Roll) -> str:
    """What the roll's result is worth if it stops now, read with ``_``."""
    r = s.setup.rules
    best = roll.best
    if roll.purpose == Purpose.SEARCH:
        levels = r.levels(best)
        if roll.maneuver == Maneuver.HAWK_EYE:
            if levels:
                return _("+{n} search level(s), hawk eye").format(n=levels + 1)
            return _("+1 search level (hawk eye)")
        if levels:
            return _("+{n} search level(s)").format(n=levels)
        return _("nothing found")
    if roll.purpose == Purpose.WEATHER:
        if best >= r.weather_flip:
            return _("the tile turns")
        return _("the tile stays face down")
    if roll.purpose in LANDINGS:
        if best >= r.landing_safe:
            return _("a safe landing")
        if best >= r.landing_unhurt:
            return _("a crash, pilot unhurt")
        return _("a crash, pilot HURT")
    found = s.assignments
    if not found:
        return _("no target hit")
    if len(found) > 1:
        return _("results to assign ({n} ways)").format(n=len(found))
    return _(" and ").join(_target_text(s, t, n, _) for t, n in zip(*found[0]))


def _assignment(_, s, a: Action) -> str:
    """The results of a roll given to targets (YT.A7), read with ``_``."""
    faces = assignment_faces(s.roll.counts, a.targets, a.aim) or (0,) * len(a.targets)
    return _(" and ").join(f"{_target_text(s, t, n, _)} ({faces_text([f] * n)})" for t, n, f in zip(a.targets, a.aim, faces))


def _tile(_, maneuver) -> str:
    """`` [expert maneuver: hawk eye]`` (an expert tile played with the action), read with ``_``."""
    return _(" [expert maneuver: {maneuver}]").format(maneuver=_(maneuver)) if maneuver else ""


CARD_WORDS = (N_("Search"), N_("Land/take off"), N_("Attack"), N_("Move"), N_("search"), N_("land/take off"),
              N_("attack"), N_("move"), N_("ground ace"), N_("efficient"), N_("decisive"), N_("hawk eye"),
              N_("aggressive"), N_("invisible"), N_("bomb"), N_("tank"), N_("the approach zone"), N_("the runway"))
"""Words the actions' text takes as they are (the action cards, capitalised where a plane
chooses one; the expert tiles; the loads; the shipped maps' approach zone and runway,
:attr:`~.board.Board.labels`), for the catalog."""


def describe(s: State, a: Action) -> str:
    """Human-readable text of action ``a`` in ``s`` (any action, legal or not; English:
    :func:`describe_entry` rendered)."""
    try:
        return render_entry(*describe_entry(s, a))
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        return action_text(a)


def describe_entry(s, a: Action) -> tuple[str, tuple]:
    """Action ``a`` in ``s`` as a log entry ``(template, args)``: the English text with
    ``{}`` fields and their values, for a reader's language (docs/i18n.md). Raises what
    a malformed action raises (:func:`describe` falls back to the action's fields)."""
    board, r = s.setup.board, s.setup.rules
    k = a.kind
    tile = Phrase(_tile, a.maneuver) if a.maneuver else ""
    if k == Kind.SET_UP:
        return N_("set up Dauntless 3 and 4 on {} and {}"), (board.labels[a.nodes[0]], board.labels[a.nodes[1]])
    name = plane_name(a.plane)
    if k == Kind.CHOOSE:
        hint = ""
        if not _possible(s, a.plane, a.card):
            hint = N_(" (not possible there: loses 1 fuel)") if s.loc[a.plane] != board.runway else N_(" (not possible there)")
        return (N_("{} ({}, fuel {}) chooses {}{}"),
                (name, board.labels[s.loc[a.plane]], s.fuel[a.plane], a.card.capitalize(), hint))
    if k == Kind.NEXT:
        return N_("{} acts now ({})"), (name, str(s.choice[a.plane]))
    if k == Kind.SEARCH:
        if board.colours[board.island_of[s.loc[a.plane]]] != Colour.ORANGE:
            return N_("weather search: roll {} dice (a pair turns the tile){}"), (weather_dice(s, a.plane), tile)
        return (N_("search: roll {} dice (1 fuel; a pair: +{} level, three equal: +{}){}"),
                (search_dice(s, a.plane), r.levels(2), r.levels(3), tile))
    if k in (Kind.ATTACK, Kind.LIGHTNING):
        full = k == Kind.ATTACK or a.maneuver == Maneuver.AGGRESSIVE
        args = (Phrase(_scope_text, s, a.plane, a, full), attack_dice(s, a.plane, a.scope, full), tile)
        if k == Kind.ATTACK:
            return N_("attack {}: roll {} dice{}"), args
        return N_("Lightning Attack on {}: roll {} dice{}"), args
    if k == Kind.MOVE:
        if a.via == MoveKind.ADJACENT:
            return N_("move to {} ({} fuel){}"), (board.labels[a.to], r.move_adjacent, tile)
        if a.via == MoveKind.DOUBLE:
            return N_("double move to {} ({} fuel){}"), (board.labels[a.to], r.move_double, tile)
        return N_("return to {} ({} fuel){}"), (board.labels[a.to], r.move_return, tile)
    if k == Kind.TAKE_OFF:
        cost = r.take_off_approach if a.to == board.approach else r.take_off_red
        if a.load:
            return N_("take off with a {} to {} ({} fuel)"), (str(a.load), board.labels[a.to], cost)
        return N_("take off without a bomb to {} ({} fuel)"), (board.labels[a.to], cost)
    if k == Kind.LAND:
        if a.maneuver or s.fuel[a.plane] >= r.landing_auto_fuel:
            return N_("land (no roll){}"), (tile,)
        return (N_("land: roll {} dice (skill + fuel {}): {} equal land safely, {} a crash with the pilot unhurt"),
                (landing_dice(s, a.plane), s.fuel[a.plane], r.landing_safe, r.landing_unhurt))
    if k == Kind.EMERGENCY_LANDING:
        if a.maneuver:
            return N_("emergency landing{}"), (tile,)
        return (N_("emergency landing: roll {} dice (skill only): {} equal land safely, {} a crash with the pilot unhurt"),
                (landing_dice(s, a.plane, True), r.landing_safe, r.landing_unhurt))
    if k == Kind.CARRY_ON:
        return N_("no special action after moving"), ()
    if k == Kind.JETTISON:
        return N_("jettison the {}"), (str(s.load[a.plane]),)
    if k == Kind.FORFEIT:
        return N_("{} is not possible here: lose the turn"), (str(s.choice[a.plane]),)
    roll = s.roll
    if k == Kind.THROW:
        kept = [f for f in roll.faces if f in a.keep]
        n = len(roll.faces) - len(kept)
        if kept:
            if n == 1:
                return N_("keep {}, throw the other die again"), (faces_text(kept),)
            return N_("keep {}, throw the other {} dice again"), (faces_text(kept), n)
        if n == 1:
            return N_("throw the die again"), ()
        return N_("throw all {} dice again"), (n,)
    if k == Kind.STOP:
        return N_("stop with {}: {}"), (faces_text(roll.faces), Phrase(_judgement, s, roll))
    if k == Kind.ASSIGN:
        return "{}", (Phrase(_assignment, s, a),)
    return "{}", (str(k),)


def _possible(s, p: int, card: Card) -> bool:
    """Whether plane ``p`` could carry out ``card`` from where it is now (a hint for the
    card menu; YT.A10)."""
    if card == Card.SEARCH:
        return bool(_search_menu(s, p))
    if card == Card.ATTACK:
        return bool(attack_menu(s, p, Kind.ATTACK))
    if card == Card.MOVE:
        return bool(_move_menu(s, p))
    return bool(_runway_menu(s, p))


class _Said:
    """A lazily formatted action text for the log (English; :meth:`in_language` for a
    reader's language)."""

    __slots__ = ("s", "a")

    def __init__(self, s, a):
        self.s, self.a = s, a

    def __format__(self, spec):
        return describe(self.s, self.a)

    def in_language(self, lang) -> str:
        try:
            return render_entry(*describe_entry(self.s, self.a), lang)
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            return action_text(self.a)


# -- refusing ------------------------------------------------------------------------
_ASKED = {Phase.SET_UP: ("YT.S2", "the set-up's two red islands are chosen first"),
          Phase.CHOOSE: ("YT.R5", "each plane's action card is chosen first"),
          Phase.NEXT: ("YT.R5", "the plane that acts next is chosen first"),
          Phase.PLANE: ("YT.R5", "the acting plane performs the action card chosen for it"),
          Phase.AFTER_MOVE: ("YT.A9", "after its move the plane attacks at once, lands or carries on"),
          Phase.ROLL: ("YT.D2", "the roll under way is thrown again or stopped first"),
          Phase.ASSIGN: ("YT.A7", "the roll's results are assigned to targets first")}
"""Per phase: the rule of the decision the game waits for, and that decision in words."""
_RULE_OF = {Kind.SET_UP: "YT.S2", Kind.CHOOSE: "YT.R5", Kind.NEXT: "YT.R5", Kind.SEARCH: "YT.A1",
            Kind.TAKE_OFF: "YT.A3", Kind.LAND: "YT.A5", Kind.ATTACK: "YT.A7", Kind.MOVE: "YT.A8",
            Kind.LIGHTNING: "YT.A9", Kind.EMERGENCY_LANDING: "YT.A9", Kind.CARRY_ON: "YT.A9", Kind.JETTISON: "YT.A4",
            Kind.FORFEIT: "YT.A10", Kind.THROW: "YT.D2", Kind.STOP: "YT.D2", Kind.ASSIGN: "YT.A7"}
"""The rule of each kind of action."""


def explain(s: State, a) -> Reason | None:
    """``None`` when ``a`` is legal in ``s``, else why not: the rule of the decision the
    game waits for (or of the action's kind, when that kind is open now with other
    values) and one line. It names only the phase and the counts of the acting seat's
    own legal actions (no expert tile of another seat, nothing of the Japanese deck)."""
    if s.over is not None:
        return Reason("YT.E1" if s.over == EndReason.SHOHO_SUNK else "YT.E2", f"the game is over ({s.over})")
    if isinstance(a, Action) and s.is_legal(a):
        return None
    legal = s.legal_actions()
    rule, asked = _ASKED[s.phase]
    if not isinstance(a, Action) or a.kind not in {x.kind for x in legal}:
        return Reason(rule, f"not now: {asked} ({len(legal)} legal actions)")
    same = sum(1 for x in legal if x.kind == a.kind)
    return Reason(_RULE_OF[a.kind], f"not one of the {same} {a.kind.value} action(s) open now "
                                    f"({len(legal)} legal actions)")


# -- applying ------------------------------------------------------------------------
def apply(s: State, a: Action) -> State:
    """The state after action ``a``, then after every decision left with one answer.
    Raises :class:`IllegalAction` naming the rule (the state is unchanged)."""
    reason = explain(s, a)
    if reason is not None:
        raise refuse(action_text(a), reason)
    state = _resolve(s, a)
    entries = None
    while state.over is None:
        legal = state.legal_actions()
        if len(legal) != 1:
            break
        if entries is None:
            entries = list(state.log_entries)
        if state.logging:
            entries.append(("  (only choice) {}", (_Said(state, legal[0]),)))
        state = _resolve(state, legal[0])
        entries.extend(state.log_entries)
    return state if not entries else state.replace(log_entries=tuple(entries))


def _resolve(s: State, a: Action) -> State:
    """The state after the legal action ``a`` (no single-answer decisions taken)."""
    return _quick(s, a) if a.kind in QUICK_KINDS else _step(s, a)


def _quick(s: State, a: Action) -> State:
    """``choose`` and ``next`` on the core's plain working copy (:class:`Draft`: no lists,
    no dice, no log; they change a few fields and draw nothing), whose
    :meth:`~Draft.freeze` builds the next state as every transition's: for ``choose``
    the card, the clock (YT.S4) and, once every plane has chosen, the ``next`` phase
    (YT.R5); for ``next`` the acting plane (unless its external tank is used first,
    :func:`_start_plane`)."""
    p = a.plane
    if a.kind == Kind.NEXT:
        if s.load[p] == Load.TANK and s.fuel[p] <= s.setup.rules.tank_at_most:
            return _step(s, a)
        return Draft(s).freeze(acting=p, phase=Phase.PLANE)
    choice = s.choice[:p] + (a.card,) + s.choice[p + 1:]
    seconds = s.setup.time.choosing(s.setup.seat_of[p], s.setup.novice(p))
    if s.clock + seconds >= s.setup.limit:
        return _step(s, a)
    ready = all(choice[q] is not None for q in range(PLANES) if s.loc[q] is not None)
    return Draft(s).freeze(choice=choice, clock=s.clock + seconds, phase=Phase.NEXT if ready else Phase.CHOOSE)


def _step(s: State, a: Action) -> State:
    w = Work(s)
    k = a.kind
    p = a.plane
    if k == Kind.SET_UP:
        _set_up(w, a)
    elif k == Kind.CHOOSE:
        w.choice[p] = a.card
        if w.spend(w.time.choosing(w.setup.seat_of[p], w.setup.novice(p))) and \
                all(w.choice[q] is not None for q in w.alive()):
            w.phase = Phase.NEXT
    elif k == Kind.NEXT:
        _start_plane(w, p)
    elif k == Kind.JETTISON:
        w.log("  {} jettisons its {} (YT.A4)", plane_name(p), w.load[p])
        w.load[p] = None
    elif k == Kind.THROW:
        _throw(w, a.keep)
    elif k == Kind.STOP:
        _judge(w)
    elif k == Kind.ASSIGN:
        _assign(w, a.targets, a.aim)
    elif k in CARRY_ON_KINDS:
        rolling = False
        if k == Kind.LIGHTNING:
            rolling = _attack(w, p, a, lightning=True)
        elif k == Kind.EMERGENCY_LANDING:
            rolling = _land(w, p, a, emergency=True)
        if not rolling:
            _finish(w, p)
    elif w.decision_time(w.time.action, p):
        after = RESOLVE[k](w, p, a)
        if after == Phase.AFTER_MOVE and w.over is None and w.loc[p] not in (None, w.board.runway):
            w.phase = Phase.AFTER_MOVE
        elif after != Phase.ROLL:
            _finish(w, p)
    return w.freeze()


def _set_up(w: Work, a: Action) -> None:
    """YT.S2, YT.S3: Dauntless 3 and 4 on the chosen red islands; the Japanese set-up
    draws; then the first turn begins."""
    for p, node in zip((2, 3), a.nodes):
        w.loc[p] = node
    w.log("  Dauntless 3 and 4 start on {} and {} with fuel {} (YT.S2)", w.where(a.nodes[0]), w.where(a.nodes[1]),
          w.rules.fuel_on_red)
    set_up_planes(w)
    _start_turn(w)


def _start_turn(w: Work) -> None:
    """A new turn: the Japanese phase (YT.R1–R4), then the crews talk and choose (YT.R5)."""
    w.turn += 1
    w.runway_used = 0
    w.choice = [None] * PLANES
    w.done = [False] * PLANES
    w.acting = None
    japanese_phase(w)
    if w.over is None and w.spend(w.time.talk(w.setup.players)):
        w.phase = Phase.CHOOSE


def _start_plane(w: Work, p: int) -> None:
    """A plane's turn begins; with the tank expansion an external tank is used at once
    when fuel is at most 7 (engine decision: it only helps)."""
    w.acting = p
    w.phase = Phase.PLANE
    r = w.rules
    if w.load[p] == Load.TANK and w.fuel[p] <= r.tank_at_most:
        w.fuel[p] = min(r.fuel_max, w.fuel[p] + r.tank_fuel)
        w.load[p] = None
        w.tanks_used += 1
        w.log("  {} uses its external tank: fuel {}", plane_name(p), w.fuel[p])


def _finish(w: Work, p: int) -> None:
    """The plane has acted; when every plane has, the turn ends (YT.R6)."""
    if w.over is not None:
        return
    w.done[p] = True
    w.acting = None
    if all(w.done[q] for q in w.alive()):
        w.log("end of turn {}: the action discs come back (YT.R6)", w.turn)
        _start_turn(w)
    else:
        w.phase = Phase.NEXT


def _use_tile(w: Work, p: int, a: Action) -> None:
    if a.maneuver is not None:
        w.tile[p] = None
        w.tiles_played += 1
        w.log("  {} plays its expert maneuver: {}", plane_name(p), a.maneuver)


# -- rolls (YT.D1-D3) ---------------------------------------------------------------------
def _start_roll(w: Work, p: int, purpose: Purpose, dice: int, maneuver: Maneuver | None,
                targets: tuple[Target, ...] = ()) -> bool:
    """Begin a continuous roll of ``dice`` dice and make its first throw (YT.D1).
    Returns whether the roll goes on (``False``: the plane crashed, or the time ran out)."""
    w.roll = Roll(p, purpose, dice, targets, maneuver)
    w.phase = Phase.ROLL
    w.log("  {} rolls {} dice for its {}{}", plane_name(p), dice, purpose,
          msg(" (results for: {planes})", planes=_names(targets)) if targets else "")
    return _throw(w, ())


def _throw(w: Work, keep: tuple[int, ...]) -> bool:
    """One throw (:func:`.rolls.throw`); a crash ends the plane's action."""
    p = w.roll.plane
    how = throw(w, keep)
    if how == "crashed":
        _finish(w, p)
    return how == "thrown"


def _judge(w: Work) -> None:
    """``stop``: the roll's result counts (YT.A1, YT.A5, YT.A7, YT.A9, weather)."""
    roll = w.roll
    p = roll.plane
    w.log("  {} stops the roll after {} throw(s): {} ({} one(s) locked)", plane_name(p), roll.throws,
          faces_text(roll.faces), roll.ones)
    if roll.purpose in ATTACKS:
        found = roll_outcomes(w, roll)
        if len(found) > 1:
            w.phase = Phase.ASSIGN
            return
        if found:
            _assign(w, *found[0])
            return
        w.log("  no target hit")
    elif roll.purpose == Purpose.SEARCH:
        _searched(w, p, roll)
    elif roll.purpose == Purpose.WEATHER:
        k = w.board.island_of[w.loc[p]]
        if roll.best >= w.rules.weather_flip:
            _reveal(w, p, k)
        else:
            w.log("  the weather tile stays face down")
    else:
        _landing_result(w, p, roll.best)
    w.roll = None
    _finish(w, p)


def _assign(w: Work, targets: tuple[Target, ...], sizes: tuple[int, ...]) -> None:
    """YT.A7: the results go to ``targets`` (sets of ``sizes``): planes and CAP Zekes
    shot down, then the Shōhō hit."""
    roll = w.roll
    p = roll.plane
    planes = w.setup.deck.planes
    k = w.board.island_of[w.loc[p]]
    faces = assignment_faces(roll.counts, targets, sizes)
    w.roll = None
    for target, size, face in zip(targets, sizes, faces):
        if target == Target.CAP:
            w.cap -= 1
            w.supply[w.pool_index(PlaneType.ZEKE)] += 1
            w.shot_down += 1
            w.log("  a CAP Zeke is shot down ({})", faces_text([face] * size))
            w.gain_skill(p, planes[PlaneType.ZEKE].skill)
        elif target != Target.SHOHO:
            t = PlaneType(target.value)
            w.remove_japanese(k, t)
            w.log("  the {} on {} is shot down ({})", t, w.where(w.loc[p]), faces_text([face] * size))
            w.gain_skill(p, planes[t].skill)
    for target, size in zip(targets, sizes):
        if target == Target.SHOHO:
            _hit_shoho(w, p, size)
    _finish(w, p)


# -- the actions ------------------------------------------------------------------------
def _search(w: Work, p: int, a: Action) -> Phase | None:
    """YT.A1 (or a weather search, expansion): the fuel die, then the roll."""
    board = w.board
    k = board.island_of[w.loc[p]]
    weather = board.colours[k] != Colour.ORANGE
    n = weather_dice(w, p) if weather else search_dice(w, p)
    _use_tile(w, p, a)
    if not w.pay(p, w.rules.action_die):
        return None
    w.weather_searches += weather
    return Phase.ROLL if _start_roll(w, p, Purpose.WEATHER if weather else Purpose.SEARCH, n, a.maneuver) \
        else None


def _searched(w: Work, p: int, roll: Roll) -> None:
    """YT.A1: a pair raises the search marker 1, three equal 2, and a success gives a
    skill point; Hawk eye: one level more, or a level and a skill point after a failure."""
    board, r = w.board, w.rules
    levels = r.levels(roll.best)
    success = levels > 0
    if roll.maneuver == Maneuver.HAWK_EYE:
        levels = levels + 1 if success else 1
    if levels:
        before = w.search
        w.search = min(len(board.search_nodes) - 1, w.search + levels)
        w.log("  search marker {} -> {}{}", before, w.search, N_(" (the Shōhō is located)") if before < r.located <= w.search
              else "")
    else:
        w.log("  nothing found")
    if success:
        w.gain_skill(p, r.search_skill)
    elif roll.maneuver == Maneuver.HAWK_EYE:
        w.gain_skill(p, 1)


def _reveal(w: Work, p: int, k: int) -> None:
    """Weather expansion: the tile on island ``k`` is turned face up."""
    tile = w.weather[k]
    w.revealed[k] = True
    w.log("  the weather tile on {} is turned: {}", w.board.labels[w.board.island_node[k]], tile)
    if tile == Weather.GOOD_VISIBILITY:
        w.weather[k] = None
        w.search = min(len(w.board.search_nodes) - 1, w.search + 1)
        w.log("  good visibility: search marker up to {}", w.search)
        w.gain_skill(p, 1)
    elif tile == Weather.NOTHING:
        w.weather[k] = None
        w.log("  nothing: the tile is discarded")


def _attack(w: Work, p: int, a: Action, lightning: bool = False) -> bool:
    """YT.A7 Attack, or YT.A9 Lightning Attack (``lightning``; a full attack with the
    Aggressive maneuver): the fuel die, the bomb dropped on the Shōhō, then the roll.
    Returns whether the roll goes on."""
    r = w.rules
    full = not lightning or a.maneuver == Maneuver.AGGRESSIVE
    n = attack_dice(w, p, a.scope, full)
    targets = scope_targets(w, p, a.scope)
    _use_tile(w, p, a)
    if full and not w.pay(p, r.action_die):
        return False
    if a.scope == Scope.SHOHO:
        w.load[p] = None
        w.log("  {} dives on the Shōhō: the bomb is dropped (no bomb penalty, YT.A7)", plane_name(p))
    return _start_roll(w, p, Purpose.LIGHTNING if lightning else Purpose.ATTACK, n, a.maneuver, targets)


def _attack_action(w: Work, p: int, a: Action) -> Phase | None:
    return Phase.ROLL if _attack(w, p, a) else None


def _hit_shoho(w: Work, p: int, size: int) -> None:
    """YT.A7, YT.E1: a pair 1 hit, a triple 2, a perfect set sinks the Shōhō."""
    r = w.rules
    if size >= r.perfect:
        w.shoho = r.shoho_hits_to_sink
        w.log("  a PERFECT HIT on the Shōhō ({} equal)", size)
    else:
        hits = r.hits(size)
        w.shoho = min(r.shoho_hits_to_sink, w.shoho + hits)
        w.log("  {} hit(s) on the Shōhō ({} equal): Shōhō damage {}/{}", hits, size, w.shoho, r.shoho_hits_to_sink)
        w.gain_skill(p, hits * r.shoho_skill_per_hit)
    if w.shoho >= r.shoho_hits_to_sink:
        w.end(EndReason.SHOHO_SUNK, N_("  the IJN Shōhō is sunk (YT.E1)"))


def _move(w: Work, p: int, a: Action) -> Phase | None:
    """YT.A8 (a) adjacent, (b) double, (c) return; the weather's updraft adds fuel."""
    r = w.rules
    cost = {MoveKind.ADJACENT: r.move_adjacent, MoveKind.DOUBLE: r.move_double, MoveKind.RETURN: r.move_return}[a.via]
    _use_tile(w, p, a)
    if not w.pay(p, cost):
        return None
    w.log("  {} flies to {} (fuel {})", plane_name(p), w.where(a.to), w.fuel[p])
    w.loc[p] = a.to
    if _weather_at(w, a.to, Weather.UPDRAFT):
        w.fuel[p] = min(r.fuel_max, w.fuel[p] + 1)
        w.log("  an updraft: fuel +1 ({})", w.fuel[p])
    return Phase.AFTER_MOVE


def _take_off(w: Work, p: int, a: Action) -> Phase | None:
    """YT.A3: optionally load a bomb (or a tank), pay 1 fuel for the approach zone or 3
    for a red island; a movement (YT.A9 may follow)."""
    r = w.rules
    w.runway_used += 1
    w.load[p] = a.load
    cost = r.take_off_approach if a.to == w.board.approach else r.take_off_red
    if not w.pay(p, cost):
        return None
    w.loc[p] = a.to
    w.log("  {} takes off{} to {} (fuel {})", plane_name(p), msg(" with a {load}", load=a.load) if a.load else "", w.where(a.to),
          w.fuel[p])
    return Phase.AFTER_MOVE


def _land(w: Work, p: int, a: Action, emergency: bool = False) -> bool:
    """YT.A5 (and YT.A9's Emergency Landing): automatic from 5 fuel (or with Ground ace),
    else a landing roll whose 1s lock without costing fuel. Returns whether a roll goes on."""
    r = w.rules
    w.runway_used += 1
    _use_tile(w, p, a)
    if a.maneuver == Maneuver.GROUND_ACE or (not emergency and w.fuel[p] >= r.landing_auto_fuel):
        _landed(w, p)
        return False
    return _start_roll(w, p, Purpose.EMERGENCY if emergency else Purpose.LANDING, landing_dice(w, p, emergency),
                       a.maneuver)


def _land_action(w: Work, p: int, a: Action) -> Phase | None:
    return Phase.ROLL if _land(w, p, a) else None


def _landing_result(w: Work, p: int, best: int) -> None:
    """YT.A5: three equal land safely; a pair is a crash with the pilot unhurt; no equal
    results a crash with the pilot hurt."""
    r = w.rules
    if best >= r.landing_safe:
        _landed(w, p)
    elif best >= r.landing_unhurt:
        w.log("  {} crashes on landing; the pilot is unhurt (YT.A5)", plane_name(p))
        w.crash(p, hurt=False)
    else:
        w.log("  {} crashes on landing; the pilot is hurt (YT.A5)", plane_name(p))
        w.crash(p, hurt=True)


def _landed(w: Work, p: int) -> None:
    w.loc[p] = w.board.runway
    w.fuel[p] = w.rules.fuel_max
    back = f"; its {w.load[p]} goes back to the reserve" if w.load[p] else ""
    w.load[p] = None
    w.log("  {} lands safely: on the runway, fuel {}{} (YT.A5)", plane_name(p), w.fuel[p], back)


def _forfeit(w: Work, p: int, a: Action) -> Phase | None:
    """YT.A2, YT.A10: a plane that cannot carry out its card loses its turn; in the air
    it also loses 1 fuel (a plane that must land and finds the runway full too)."""
    at = w.loc[p]
    if at == w.board.runway:
        w.log("  {} cannot {} and stays on the runway", plane_name(p), w.choice[p])
        return None
    w.log("  {} cannot {} from {}: it loses its turn and {} fuel (YT.A10)", plane_name(p), w.choice[p], w.where(at),
          w.rules.cannot_perform)
    w.pay(p, w.rules.cannot_perform)
    return None


RESOLVE = {Kind.SEARCH: _search, Kind.ATTACK: _attack_action, Kind.MOVE: _move, Kind.TAKE_OFF: _take_off,
           Kind.LAND: _land_action, Kind.FORFEIT: _forfeit}
