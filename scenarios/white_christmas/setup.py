"""Setting up a game of 1975 White Christmas (the rules' set-up steps 1-14, WC.G1, WC.G6,
WC.H1), reproducible from one seed."""
from __future__ import annotations

import numpy as np

from furball.errors import InputError
from furball.i18n import msg

from ..engine.frozen import step_rng
from .actions import ROUNDS, Phase, Stairs
from .components import MODELS, PEOPLE, Components, EffectCard, Wild, shipped_components
from .flow import advance, start_round
from .state import State
from .table import build_layout
from .values import CHAMBERS, Board, Pile, Setup, SidePrivate, SidePublic
from .work import Phrase, Text, Work, joined

__all__ = ["new_game", "ROW_SIZE"]

ROW_SIZE = {2: 4, 3: 5, 4: 6}
"""WC.F1: special orders in the row for 2, 3, 4 players (solo: as 2)."""
UPGRADES = 5


def _check(seed, players, solo) -> None:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(msg("seed: expected an integer >= 0, got {value}", value=repr(seed)))
    if not isinstance(solo, bool):
        raise InputError(msg("solo: expected true or false, got {value}", value=repr(solo)))
    if not solo and (isinstance(players, bool) or players not in (2, 3, 4)):
        raise InputError(msg("players: expected 2, 3 or 4, got {value}", value=repr(players)))


def _starting_people(rng, roofs: int) -> list[list]:
    """WC.G6: one token of each type, 4 in all, on the rooftops: one each on 4 rooftops;
    with 5 a random 4 of them; with 3 a random one holds 2. Which type goes where is
    random (engine decision)."""
    types = [PEOPLE[i] for i in rng.permutation(len(PEOPLE))]
    places = list(range(roofs))
    if roofs > len(PEOPLE):
        places = sorted(int(k) for k in rng.choice(roofs, len(PEOPLE), replace=False))
    elif roofs < len(PEOPLE):
        places = places + [int(k) for k in rng.choice(roofs, len(PEOPLE) - roofs, replace=False)]
    people = [[] for _ in range(roofs)]
    for k, p in zip(places, types):
        people[k].append(p)
    return people


def _pairs(_, separator: str, names, words, translate_names: bool = False) -> str:
    """``name words`` pairs joined by ``separator``, read with ``_``: ``words`` a text or
    a tuple of texts (``-`` for none), each read through the catalog; ``names`` too when
    ``translate_names`` (a colour), else kept (a side's label, a rooftop's name). The
    set-up's lines: ``P1 green, P2 blue``; ``US Embassy soldier, vietnamese; ...``."""
    def read(value):
        return _(value) if isinstance(value, str) else ", ".join(map(_, value)) or "-"

    return separator.join(f"{_(name) if translate_names else name} {read(value)}" for name, value in zip(names, words))


def new_game(seed: int, players: int = 2, solo: bool = False, components: Components | None = None,
             overflow: Pile | str = Pile.SUPPLY, payment: Pile | str = Pile.SUPPLY) -> State:
    """A new game after set-up, reproducible from ``seed``: ``players`` 2-4, or ``solo``
    (one seat against Captain Chambers, the 2-player set-up, WC.H1). ``components``:
    the card sets (default: the shipped data files); ``overflow`` and ``payment``: where
    staircase People with no room (WC.G2) and People paid from a carrier (WC.F5) go
    (:class:`~.values.Pile`). Raises :class:`InputError` for a bad seed, player count or
    option.

    Set-up step 3: the influence markers are stacked at random, in the solo game too.
    Engine decisions (``docs/white_christmas.md``): seats are numbered in the random stack
    order of the influence markers (P1 on top, so P1 holds turn-order card 1 first);
    colours are dealt at random; unused Action Wildcards join the action deck.
    """
    _check(seed, players, solo)
    for name, value in (("overflow", overflow), ("payment", payment)):
        if value not in tuple(Pile):
            raise InputError(msg("{option}: expected one of {choices}, got {value}", option=name,
                                 choices=", ".join(Pile), value=repr(str(value)[:40])))
    overflow, payment = Pile(overflow), Pile(payment)
    seed = int(seed)
    comp = components or shipped_components()
    rng = step_rng(seed, 0)
    n = 2 if solo else players
    labels = ("P1", CHAMBERS) if solo else tuple(f"P{i + 1}" for i in range(n))
    chambers = 1 if solo else None
    colours = tuple(comp.colours[int(i)] for i in rng.permutation(len(comp.colours))[:n])
    arrived = [n - i for i in range(n)]       # step 3d: P1 on top, the seats numbered in stack order
    if solo and rng.integers(2):              # the two markers stacked at random: Chambers on top
        arrived = [1, 2]
    positions = tuple(int(k) for k in rng.integers(0, EffectCard.POSITIONS, size=len(comp.influence.cards)))  # step 2
    rooftops = comp.row_rooftops(2 if solo else players)                                    # step 10, WC.G1
    table = build_layout(rooftops, tuple(labels), (comp.spaces,) * n)
    setup = Setup(comp, solo, labels, chambers, colours, rooftops, comp.influence.track(positions), positions,
                  ROW_SIZE[2 if solo else players], overflow, payment)
    # steps 6-8: a face-up Action Wild per player, the rest shuffled into the deck, 4 in the row
    action_wilds, rescue_wilds = comp.wilds(Wild.ACTION), comp.wilds(Wild.RESCUE)
    faceup = list(action_wilds[:n - (1 if solo else 0)])
    removed = tuple(action_wilds[1:]) + rescue_wilds if solo else ()                     # WC.H1
    dealt = set(faceup) | set(removed)
    rest = [c for c in range(len(comp.cards)) if c not in dealt]
    deck = tuple(rest[i] for i in rng.permutation(len(rest)))
    row, deck = deck[:4], deck[4:]
    if solo:
        faceup.append(None)
    roofs = _starting_people(rng, len(rooftops))                                            # step 11, WC.G6
    supply = list(comp.people)
    for people in roofs:
        for p in people:
            supply[PEOPLE.index(p)] -= 1
    stairs_deck = tuple(int(i) for i in rng.permutation(len(comp.staircases)))             # step 12
    orders = tuple(int(i) for i in rng.permutation(len(comp.orders)))                       # step 13
    sightings = tuple(int(i) for i in rng.choice(len(comp.sightings), ROUNDS - 1, replace=False))  # step 14
    sides, private = [], []
    for i in range(n):
        night = i == chambers                                                             # WC.H1
        sides.append(SidePublic(
            at=(table.carriers[i],) * len(MODELS), aboard=((),) * len(MODELS), night=(night,) * len(MODELS),
            carrier=(), spaces=comp.spaces, vp=0, influence=0, arrived=arrived[i], upgrades=(False,) * UPGRADES,
            faceup=faceup[i], extras=(), hand=0, radar=0, orders=0, bid=None, rescued=0))
        private.append(SidePrivate(hand=(), radar=(), orders=(), inspected=(), bid=()))
    board = Board(round=0, phase=Phase.DRAW, order=tuple(range(n)), turn=0, resolved=False,
                  roofs=tuple(tuple(r) for r in roofs), stairs=((),) * len(rooftops), stairs_state=Stairs.NONE,
                  stairs_cards=(), row=row, discard=(), removed=removed, deck=len(deck),
                  orders_row=(), orders_left=len(orders), sighting=None, supply=tuple(supply),
                  discarded=(0,) * len(PEOPLE), empty_stairs=0, radar_left=len(comp.radar), pending=(), stamp=n,
                  winner=None,
                  over=False)
    state = State(setup=setup, table=table, seed=seed, step=1, board=board, sides=tuple(sides),
                  private=tuple(private), deck=deck, stairs_deck=stairs_deck, stairs_used=(), stairs_down=(),
                  radar_supply=comp.radar, sightings=sightings, orders_deck=orders)
    w = Work(state)
    provenance = sorted({p for _, p in comp.provenance})
    discarded = {(True, False): msg("; staircase People with no room discarded out of the game"),
                 (False, True): msg("; People paid discarded out of the game"),
                 (True, True): msg("; staircase People with no room and People paid discarded out of the game")}
    w.log("set-up ({}, data: {}{})", msg("solo against Captain Chambers") if solo else msg("{n} players", n=n),
          ", ".join(provenance), discarded.get((overflow == Pile.DISCARD, payment == Pile.DISCARD), ""))
    stacked = sorted(range(n), key=lambda i: -arrived[i])
    w.log("  influence markers stacked at random, top first: {}",
          Phrase(_pairs, ", ", tuple(labels[i] for i in stacked), tuple(colours[i].name for i in stacked)))
    w.log("  rooftops, left to right: {}", ", ".join(r.name for r in rooftops))
    w.log("  people on the rooftops: {}", Phrase(_pairs, "; ", tuple(r.name for r in rooftops), tuple(roofs)))
    w.log("  influence effect cards: {}", Phrase(_pairs, "; ", tuple(c.colour for c in comp.influence.cards),
                                                  tuple(EffectCard.name(k) for k in positions), True))
    w.log("  action row: {}", Text(joined, tuple(comp.cards[c].name for c in row)))
    if solo:
        w.log("  solo: Chambers' helicopters on their night side; 2 Rescue and 3 Action Wildcards removed (WC.H1)")
    start_round(w, 1)
    advance(w)
    return w.freeze()
