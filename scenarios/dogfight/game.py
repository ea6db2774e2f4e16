"""The dogfight as a :class:`scenarios.engine.Game`: whole games, series, sweeps.

Options (``furball play dogfight SCENARIO``, ``furball sweep dogfight --set/--grid``):
``scenario`` (a file or a shipped name; default ``duel``), ``seats`` (``sides`` or
``planes``), ``policy`` (the chasers' reorder policy, DF.T2; default the scenario's),
``turn_limit`` (DF.V2; default the scenario's), ``altitude`` (every plane's starting
altitude), ``decks`` (each seat's maneuver deck, ``A:M``), ``swap_start`` (the first
planes of seats 1 and 2 swap places: who starts tailing), ``reorder`` (who orders a
chaser's cards after a reveal: the ``policy``, default, or the ``chaser``'s seat, DF.T2;
rooms default to the chaser). Bots: :mod:`.players`.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from furball.i18n import N_

from ..engine import Game, GameInfo, GameState, Information, Option, Summary, Utility, summarise
from ..engine.search import with_search_bots
from .policy import ReorderPolicy
from .scenario import Scenario, load_scenario
from .state import DRAW, Reorder, Seats, _seats, new_game
from .table import needs_plan

__all__ = ["DOGFIGHT", "summary", "seat_count"]


def scenario_file(text: str) -> Scenario:
    return load_scenario(text)


def whole_number(text: str) -> int | None:
    return None if text.strip().lower() in ("", "none", "scenario") else int(text)


def text_or_none(text: str) -> str | None:
    return None if text.strip().lower() in ("", "none", "scenario") else text.strip()


def seat_count(options: Mapping[str, Any]) -> int:
    """Seats of a game with these options: the scenario's sides (or planes that plan)."""
    scenario = options.get("scenario")
    if scenario is None:
        scenario = load_scenario("duel")
    elif isinstance(scenario, str):
        scenario = load_scenario(scenario)
    return len(_seats(scenario.table, Seats(options.get("seats", Seats.SIDES)))[0])


def _players():
    from .players import PLAYERS

    return PLAYERS


class _LazyPlayers(Mapping):
    """The bots, imported when first asked for (the analysis's kernels are heavy)."""

    NAMES = ("planner", "random", "planner-full", "planner-mix")

    def __getitem__(self, name):
        return _players()[name]

    def __iter__(self):
        return iter(self.NAMES)

    def __len__(self):
        return len(self.NAMES)

    def __contains__(self, name):
        return name in self.NAMES


def game_info(first: GameState) -> GameInfo:
    """The facts of the game starting at ``first``: every seat's return is -1 (lost), 0
    or 1 (won), zero-sum when two seats fly for two sides; the longest game is
    every turn left, each with one decision per plane that plans."""
    sides = len(set(first.seat_sides))
    utility = Utility.ZERO_SUM if len(first.seat_sides) == 2 and sides == 2 else Utility.GENERAL_SUM
    planners = sum(needs_plan(p) for p in first.table.planes)
    return GameInfo(utility, -1.0, 1.0, max(1, (first.victory.turn_limit - first.table.turn + 1) * planners))


DOGFIGHT = Game(
    name="dogfight", title="Dogfight",
    new_game=new_game,
    players=with_search_bots("dogfight", _LazyPlayers()),
    min_players=2, max_players=1000,
    options=(
        Option(N_("scenario"), scenario_file, None, N_("a scenario file or a shipped example (default duel)")),
        Option(N_("seats"), str, Seats.SIDES.value, N_("one seat per side, or per plane that plans"),
               tuple(s.value for s in Seats)),
        Option(N_("policy"), text_or_none, None, N_("the chasers' reorder policy after a reveal (DF.T2; default: the "
               "scenario's)"), (None, *(p.value for p in ReorderPolicy))),
        Option(N_("turn_limit"), whole_number, None, N_("the last turn played (DF.V2; default: the scenario's)")),
        Option(N_("altitude"), whole_number, None, N_("every plane's starting altitude, 1-3 (DF.H2; default: the "
               "scenario's)")),
        Option(N_("decks"), text_or_none, None, N_("maneuver deck of each seat's planes, e.g. A:M (default: the "
               "scenario's)")),
        Option(N_("swap_start"), bool, False, N_("the first planes of seats 1 and 2 swap places and altitudes (who "
               "starts tailing)")),
        Option(N_("reorder"), str, Reorder.POLICY.value, N_("who orders a chaser's cards after the target shows its next "
               "card: the reorder policy, or the chaser's seat as a decision of its own (DF.T2)"),
               tuple(r.value for r in Reorder)),
    ),
    seats=seat_count,
    notes=N_("seats are sides (or planes); rules DF.*"),
    outcome="winner",
    information=Information.IMPERFECT, info=game_info,
)
"""The game descriptor (module docstring)."""


def summary(rows: Iterable[dict], label: str) -> Summary:
    """Who wins (shares by seat, and draws, with 95 % Wilson intervals), how games end,
    their length and each seat's points and planes lost (95 % t intervals)."""
    rows = list(rows)
    if not rows:
        return summarise(rows, label)
    seats = sorted({k[len("points_"):] for r in rows for k in r if k.startswith("points_")},
                   key=lambda s: int(s[1:]))
    columns = ["winner", "winning_side", "end", "turns", *(f"points_{s}" for s in seats),
               *(f"lost_{s}" for s in seats)]
    return summarise(rows, label, columns=columns,
                     categories={"winner": (*seats, DRAW), "end": ("last side flying", "turn limit")})
