"""Building White Christmas positions for the rule tests (not collected by pytest)."""
from dataclasses import replace
from functools import reduce

from furball.scenarios.white_christmas import new_game
from furball.scenarios.white_christmas.actions import Stairs
from furball.scenarios.white_christmas.components import MODELS, PEOPLE, ROW, Icon, Model, Person, shipped_components
from furball.scenarios.white_christmas.game import WHITE_CHRISTMAS
from furball.scenarios.white_christmas.work import Work

COMP = shipped_components()
V, S, B, P = Person.VIETNAMESE, Person.SOLDIER, Person.BUSINESSWOMAN, Person.POLITICIAN
CH53, CH46 = Model.CH53, Model.CH46


def card_id(rescue=None, lower=None, wild=None) -> int:
    """The first action card with this face."""
    for i, c in enumerate(COMP.cards):
        if c.rescue == rescue and c.lower == lower and c.wild == wild:
            return i
    raise LookupError((rescue, lower, wild))


def board(s, **changes):
    return replace(s, board=replace(s.board, **changes))


def side(s, i, **changes):
    sides = list(s.sides)
    sides[i] = replace(sides[i], **changes)
    return replace(s, sides=tuple(sides))


def private(s, i, **changes):
    mine = list(s.private)
    mine[i] = replace(mine[i], **changes)
    return replace(s, private=tuple(mine))


def slot(s, k, model):
    """The landing slot node of rooftop ``k`` for ``model``."""
    return s.table.slots[k][MODELS.index(model)]


def carrier(s, i):
    return s.table.carriers[i]


def fly(s, i, model, node, aboard=()):
    """Put helicopter ``model`` of side ``i`` at ``node`` with ``aboard``."""
    me = s.sides[i]
    k = MODELS.index(model)
    at = me.at[:k] + (node,) + me.at[k + 1:]
    load = me.aboard[:k] + (tuple(aboard),) + me.aboard[k + 1:]
    return side(s, i, at=at, aboard=load)


def roofs(s, people):
    """Set the People on the rooftops (taken from / given back to the supply)."""
    supply = list(s.board.supply)
    for old in s.board.roofs:
        for p in old:
            supply[PEOPLE.index(p)] += 1
    for new in people:
        for p in new:
            supply[PEOPLE.index(p)] -= 1
    return board(s, roofs=tuple(tuple(r) for r in people), supply=tuple(supply))


def revealed_stairs(s, people):
    """Staircases out and revealed with ``people`` per rooftop (from the supply)."""
    supply = list(s.board.supply)
    for new in people:
        for p in new:
            supply[PEOPLE.index(p)] -= 1
    s = replace(s, table=s.table.with_stairs(True), stairs_down=tuple(range(len(people))))
    return board(s, stairs=tuple(tuple(x) for x in people), stairs_state=Stairs.REVEALED, supply=tuple(supply),
                 stairs_cards=tuple(range(len(people))))


def stairs_at(s, k, people):
    """Revealed staircase ``k`` now holds ``people`` (its old People back to the supply)."""
    supply = list(s.board.supply)
    for p in s.board.stairs[k]:
        supply[PEOPLE.index(p)] += 1
    for p in people:
        supply[PEOPLE.index(p)] -= 1
    stairs = list(s.board.stairs)
    stairs[k] = tuple(people)
    return board(s, stairs=tuple(stairs), supply=tuple(supply))


def on_carrier(s, i, people):
    """People unloaded on side ``i``'s carrier (from the supply)."""
    supply = list(s.board.supply)
    for p in people:
        supply[PEOPLE.index(p)] -= 1
    s = board(s, supply=tuple(supply))
    return side(s, i, carrier=tuple(sorted(people, key=PEOPLE.index)))


def hand(s, i, cards):
    """Give side ``i`` these cards (ids), taken from wherever they are."""
    cards = tuple(cards)
    deck = tuple(c for c in s.deck if c not in cards)
    row = tuple(None if c in cards else c for c in s.board.row)
    s = replace(s, deck=deck)
    s = board(s, row=row, deck=len(deck), discard=tuple(c for c in s.board.discard if c not in cards))
    for j, mine in enumerate(s.private):
        if j != i and set(mine.hand) & set(cards):
            s = private(s, j, hand=tuple(c for c in mine.hand if c not in cards))
            s = side(s, j, hand=len(s.private[j].hand))
    s = private(s, i, hand=tuple(sorted(cards)))
    return side(s, i, hand=len(cards))


def radar(s, i, values):
    """Side ``i`` holds these radar token values (taken from the supply)."""
    supply = list(s.radar_supply)
    for v in values:
        supply.remove(v)
    s = replace(s, radar_supply=tuple(supply))
    s = board(s, radar_left=len(supply))
    s = private(s, i, radar=tuple(sorted(values)))
    return side(s, i, radar=len(values))


def work(s):
    return Work(s)


def play(s, *actions):
    """The state after applying ``actions`` one after the other."""
    return reduce(lambda state, action: state.apply(action), actions, s)


def fresh(seed=0, players=2, solo=False, overflow="supply"):
    return new_game(seed, players=players, solo=solo, overflow=overflow)


__all__ = ["COMP", "V", "S", "B", "P", "CH53", "CH46", "card_id", "board", "side", "private", "slot", "carrier",
           "fly", "roofs", "revealed_stairs", "stairs_at", "on_carrier", "hand", "radar", "work", "play", "fresh", "ROW", "Icon"]


def until(s, done, limit=2000):
    """Play heuristic moves from ``s`` until ``done(state)`` holds."""
    from furball.scenarios.white_christmas.players import HeuristicPlayer
    bot = HeuristicPlayer(0)
    for _ in range(limit):
        if done(s):
            return s
        s = s.apply(bot.choose(s.observation(s.current_player())))
    raise AssertionError("condition never reached")


def ask(s, pending):
    """``s`` with ``pending`` (a :class:`Pending`) as the open question."""
    return board(s, pending=(pending,))


def heuristic_game(seed: int, players: int) -> list:
    """Every state of a whole game of heuristic bots (seat i's bot seeded ``seed + i``),
    from the first to the terminal one."""
    s = WHITE_CHRISTMAS.new_game(seed, players=players)
    bots = [WHITE_CHRISTMAS.player("heuristic", seed + i, i) for i in range(players)]
    states = [s]
    while not s.is_terminal():
        seat = s.current_player()
        s = s.apply(bots[seat].choose(s.observation(seat)))
        states.append(s)
    return states
