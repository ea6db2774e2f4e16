"""Helpers for the Yorktown tests: positions built from a started game, scripted dice."""
import pytest

from furball.errors import InputError
from furball.scenarios.yorktown import default_map, new_game
from furball.scenarios.yorktown.actions import PLANES, Card, Kind, Phase, PlaneType
from furball.scenarios.yorktown.players import RandomPlayer
from furball.scenarios.yorktown.work import Work

MAP = default_map()
APPROACH, RUNWAY = MAP.approach, MAP.runway


def node(number: int) -> int:
    """The graph node of island ``number``."""
    return MAP.island_node[number - 1]


def started(seed: int = 1, **opts):
    """A game after the set-up choice (the first pair of red islands), in turn 1."""
    s = new_game(seed, **opts)
    return s.apply(s.legal_actions()[0])


def japanese(**islands) -> tuple:
    """``japanese(i9=("Kate", "Jake"))`` -> the per-island tuple of plane types."""
    out = [()] * 10
    for key, types in islands.items():
        out[int(key[1:]) - 1] = tuple(sorted(PlaneType(t) for t in types))
    return tuple(out)


def supply_for(s, jp, cap=0) -> tuple:
    """The reserve that conserves the tokens with ``jp`` on the islands and ``cap`` Zekes."""
    deck = s.setup.deck
    used = {pool: 0 for pool, _ in deck.pools}
    for planes in jp:
        for t in planes:
            used[deck.planes[t].pool] += 1
    used[deck.planes[PlaneType.ZEKE].pool] += cap
    return tuple(n - used[pool] for pool, n in deck.pools)


def position(s, jp=None, cap=None, **changes):
    """``s`` with fields changed (the Japanese planes keep the tokens conserved)."""
    if jp is not None or cap is not None:
        jp = s.japanese if jp is None else jp
        cap = s.cap if cap is None else cap
        changes.update(japanese=jp, cap=cap, supply=supply_for(s, jp, cap))
    return s.replace(**changes)


def acting(s, plane: int, card: Card, others=Card.SEARCH, **changes):
    """A position where ``plane`` carries out ``card`` and the other planes (who chose
    ``others``) have not acted yet."""
    choice = tuple(card if p == plane else others for p in range(PLANES))
    return position(s, phase=Phase.PLANE, acting=plane, choice=choice, done=(False,) * PLANES, **changes)


def script(monkeypatch, faces):
    """Every die drawn from now on comes from ``faces`` (in order)."""
    it = iter(faces)
    monkeypatch.setattr(Work, "draw", lambda self, n: [next(it) for _ in range(n)])


def of_kind(s, kind: Kind, **fields):
    """The legal actions of ``kind`` whose fields match."""
    return [a for a in s.legal_actions() if a.kind == kind and all(getattr(a, k) == v for k, v in fields.items())]


def decide(s, *steps):
    """Apply roll decisions in turn: ``"stop"``, or a tuple of the faces to keep before
    throwing the other dice again."""
    for step in steps:
        s = s.apply(of_kind(s, Kind.STOP)[0] if step == "stop" else of_kind(s, Kind.THROW, keep=tuple(step))[0])
    return s


def work(s) -> Work:
    return Work(s)


def play_out(s, check=None, limit: int = 5000):
    """Play ``s`` to its end with the random player; ``check(state, clock before)`` after
    every step. Returns the final state."""
    bot = RandomPlayer(s.seed)
    for _ in range(limit):
        if s.over:
            return s
        before = s.clock
        s = s.apply(bot.choose(s))
        if check is not None:
            check(s, before)
    raise AssertionError(f"no end after {limit} actions")


def assert_located_error(path, text: str, load, words) -> None:
    """Writing ``text`` to ``path`` and loading it with ``load`` fails with one line that
    names the file and every one of ``words``."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load(path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message
    for w in words:
        assert w in message, (w, message)
