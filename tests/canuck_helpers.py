"""Building Operation Canuck positions for the rule tests (not a test module)."""
from dataclasses import replace

from furball.scenarios.canuck.board import default_map
from furball.scenarios.canuck.cards import parse_card
from furball.scenarios.canuck.state import Action, new_game

MAP = default_map()
N = len(MAP.areas)


def area(name: str) -> int:
    return MAP.area(name)


def cards(*texts: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in texts)


def per_area(values: dict | None, default: int = 0) -> tuple[int, ...]:
    out = [default] * N
    for name, v in (values or {}).items():
        out[area(name)] = v
    return tuple(out)


def position(deck=("2♥", "3♥", "4♥", "5♥"), reserve=(), axis=(), axis_discard=(), discard=(),
             garrison=None, groups=None, leaders=None, bases=None, **fields):
    """A position on the shipped map: garrisons 3 everywhere unless given, one Base in
    Castino unless ``bases`` is given, no Groups or Leaders unless given."""
    base = new_game(0)
    g = [0] * N
    for a in MAP.gar:
        g[a] = 3
    for name, v in (garrison or {}).items():
        g[area(name)] = v
    return replace(
        base, deck=cards(*deck), reserve=tuple(sorted(cards(*reserve))), axis_deck=tuple(sorted(cards(*axis))),
        axis_discard=tuple(sorted(cards(*axis_discard))), partisan_discard=tuple(sorted(cards(*discard))),
        removed=(), garrison=tuple(g), groups=per_area(groups), leaders=per_area(leaders),
        bases=per_area(bases if bases is not None else {"Castino": 1}), **fields)


def act(kind: str, area_name: str | None = None, **kw) -> Action:
    if area_name is not None:
        kw["area"] = area(area_name)
    if "to" in kw and isinstance(kw["to"], str):
        kw["to"] = area(kw["to"])
    if "card" in kw and isinstance(kw["card"], str):
        kw["card"] = parse_card(kw["card"])
    return Action.of(kind, **kw)


def play(state, *actions):
    """Apply actions in turn; return the final state and all event lines."""
    events = []
    for a in actions:
        state = state.apply(a)
        events.extend(state.events)
    return state, events


def add(*texts):
    return [act("add_card", card=t) for t in texts]
