"""1975 White Christmas as a :class:`scenarios.engine.Game`: whole games, series, summaries.

Options: ``players`` (2-4) or ``solo`` (one seat against Captain Chambers, WC.H1-H9),
``data`` (card sets from a directory of data files, :func:`.components.load_components`)
and the rule options ``overflow`` and ``payment`` (where staircase People with no room,
WC.G2, and People paid from a carrier, WC.F5, go: back to the ``supply``, the default, or
``discard``-ed out of the game; :class:`~.values.Pile`).
A game is reproducible from its seed: the same seed gives the same log, byte for byte.
"""
from __future__ import annotations

from collections.abc import Iterable

from furball.errors import InputError
from furball.i18n import N_

from ..engine import Game, GameInfo, Information, Option, Summary, Utility, summarise
from ..engine.search import with_search_bots
from .components import Components, load_components
from .players import HeuristicPlayer, RandomPlayer
from .setup import new_game
from .values import CHAMBERS, Pile

__all__ = ["WHITE_CHRISTMAS", "summary", "labels", "MAX_VP", "MAX_LENGTH"]

MAX_VP = 200
"""The returns' upper bound (VP). No rule caps VP; the best of a thousand random and
heuristic games scored 61."""
MAX_LENGTH = 3_000
"""The most decisions a game may take: 4 rounds of a few turns each; the longest of a
thousand random and heuristic games (2-4 players and solo) took 303."""
INFO = GameInfo(Utility.GENERAL_SUM, 0.0, float(MAX_VP), MAX_LENGTH)
"""The facts of every White Christmas game: each seat's VP."""


def labels(players: int, solo: bool) -> tuple[str, ...]:
    """The sides' labels of a game with these options (the winner's possible values)."""
    return ("P1", CHAMBERS) if solo else tuple(f"P{i + 1}" for i in range(players))


def _combinations(given, spell=lambda name: f"option {name}") -> None:
    """A solo game is one player against Captain Chambers (WC.H1): ``players`` is not
    given with ``solo`` true. ``spell``: an option's name as the user wrote it."""
    if given.get("solo") and "players" in given:
        raise InputError(f"{spell('solo')} with {spell('players')}: a solo game is one player against Captain "
                         f"Chambers (WC.H1); give one or the other")


def _new_game(seed: int, players: int = 2, solo: bool = False, data: Components | None = None,
              overflow: str = Pile.SUPPLY, payment: str = Pile.SUPPLY):
    return new_game(seed, players=players, solo=solo, components=data, overflow=overflow, payment=payment)


WHITE_CHRISTMAS = Game(
    name="white-christmas", title="1975 White Christmas",
    new_game=_new_game,
    players=with_search_bots("white-christmas", {"heuristic": lambda seed, seat: HeuristicPlayer(seed, seat),
                                                 "random": lambda seed, seat: RandomPlayer(seed, seat)}),
    min_players=1, max_players=4,
    options=(Option(N_("players"), int, 2, N_("number of players (2-4)"), choices=(2, 3, 4)),
             Option(N_("solo"), bool, False, N_("one player against Captain Chambers (WC.H1-WC.H9)")),
             Option("data", load_components, None, "a directory of data files replacing the shipped ones"),
             Option("overflow", str, Pile.SUPPLY.value,
                    "staircase People with no room on the rooftop (WC.G2): back to the supply, or discarded "
                    "out of the game", choices=tuple(p.value for p in Pile)),
             Option("payment", str, Pile.SUPPLY.value,
                    "People paid from a carrier for a special order or carrier card (WC.F5): back to the supply, "
                    "or discarded out of the game", choices=tuple(p.value for p in Pile))),
    seats=lambda opts: 1 if opts.get("solo") else opts.get("players", 2),
    combinations=_combinations,
    notes=N_("2-4 players or solo against Captain Chambers; rules WC.*"),
    information=Information.IMPERFECT, info=lambda first: INFO,
)
"""The game descriptor: seats = ``players`` (or 1 with ``solo``)."""


def summary(rows: Iterable[dict], label: str) -> Summary:
    """Winner shares by seat (95 % Wilson intervals), VP of each side, the winning margin,
    People rescued and staircase spaces left empty for lack of People (95 % t intervals)."""
    rows = list(rows)
    if not rows:
        return summarise(rows, label)
    first = rows[0]
    sides = labels(first["players"], first["solo"])
    columns = ["winner"] + [f"vp_{s}" for s in sides] + ["margin", "rescued", "empty_stairs"]
    return summarise(rows, label, columns=columns, categories={"winner": sides})
