"""`furball play dogfight SCENARIO`: the options of the dogfight game (the rest is :mod:`.play`).

    furball play dogfight scenarios/examples/duel.toml --seed 7           # one game, its log
    furball play dogfight duel --games 200 --player planner,random        # who wins, 95% intervals
    furball play dogfight duel --seed 7 --plot last.png                   # the last turn as a picture
    furball play dogfight furball --seats planes --player planner         # one seat per plane
    furball play dogfight duel --seed 7 --turn-limit 3 --save t3.toml     # stop after turn 3, save it
    furball play dogfight t3.toml --seed 7 --turn-limit 15                # ... and play on identically
"""
from __future__ import annotations

from furball.errors import InputError
from furball.i18n import N_, msg
from furball.scenarios.cli.output import int_or_text
from furball.scenarios.dogfight.game import DOGFIGHT, summary
from furball.scenarios.dogfight.policy import ReorderPolicy
from furball.scenarios.dogfight.state import Seats

__all__ = ["GAME", "HIDDEN_INFORMATION", "PICTURE", "add_arguments", "options", "summarise", "save"]

GAME = DOGFIGHT
HIDDEN_INFORMATION = True
PICTURE = "dogfight"


def add_arguments(p) -> None:
    p.add_argument("scenario", nargs="?", default="duel",
                   help=N_("scenario or saved-state file (TOML), or a shipped example's name (default duel)"))
    p.add_argument("--seats", choices=[s.value for s in Seats], default=Seats.SIDES.value,
                   help=N_("one seat per side (default) or one per plane that plans"))
    p.add_argument("--policy", choices=[r.value for r in ReorderPolicy], default=None,
                   help=N_("how a chaser reorders after a reveal (DF.T2; default: the scenario's)"))
    p.add_argument("--turn-limit", type=int_or_text, default=None, metavar="N",
                   help=N_("the last turn played (DF.V2; default: the scenario's [victory], else 15)"))
    p.add_argument("--altitude", type=int_or_text, default=None, metavar="N",
                   help=N_("every plane's starting altitude, 1-3 (DF.H2)"))
    p.add_argument("--decks", default=None, metavar="A:M",
                   help=N_("the maneuver deck of each seat's planes (one name, or one per seat joined by ':')"))
    p.add_argument("--swap-start", action="store_true",
                   help=N_("the first planes of seats 1 and 2 swap places and altitudes (who starts tailing)"))
    p.add_argument("--save", metavar="STATE.toml", default=None,
                   help=N_("write the position at the end of the game (one game only) as a scenario; play it on "
                        "with the same --seed and a later --turn-limit"))


def options(args) -> dict:
    """Game options from the parsed arguments, checked (the scenario is loaded now).
    Raises :class:`InputError` naming the option."""
    if args.interactive:
        raise InputError(msg("--interactive: a dogfight plan is three cards among thousands of legal plans; plan by hand "
                             "with `furball turn` (docs/scenario.md) or in the browser table (furball serve)"))
    if args.save is not None and args.games is not None:
        raise InputError(msg("--save: saves the position of one game; drop --games"))
    for name in ("turn_limit", "altitude"):
        value = getattr(args, name)
        if value is not None and (not isinstance(value, int) or value < 1):
            raise InputError(msg("--{option} {value}: expected a whole number >= 1", option=name.replace("_", "-"),
                                 value=str(value)[:40]))
    opts = {"scenario": GAME.option("scenario").parse(args.scenario), "seats": args.seats, "policy": args.policy,
            "turn_limit": args.turn_limit, "altitude": args.altitude, "decks": args.decks,
            "swap_start": bool(args.swap_start)}
    GAME.new_game(0, **opts)  # every option checked before any game is played
    return opts


def summarise(rows, label: str):
    return summary(rows, label)


def save(record, path, outputs) -> None:
    """Stage the final position of ``record``'s game as a scenario file at ``path``."""
    from furball.scenarios.dogfight.scenario import scenario_toml

    state = record.final
    if state.seed > 2**63 - 1:
        raise InputError(msg("--save: seed {seed} does not fit a TOML integer; play with --seed below 2**63", seed=state.seed))
    outputs.stage(path, scenario_toml(state.scenario(), path.parent).encode("utf-8"),
                  msg("position after turn {turn}", turn=state.table.turn - 1))
