"""Regenerate the dogfight golden logs (run only when a log change is intended).

    .venv/bin/python tests/golden/regenerate_dogfight.py

Writes, next to this script, ``dogfight_<scenario>_<seats>_seed<N>.log``: the full log
of one game of random bots, as ``furball play dogfight SCENARIO --seats SEATS --seed N
--player random`` prints it. ``tests/test_dogfight_golden.py`` checks the engine against
them byte for byte. (Random bots: the logs depend on the engine, the rules' data and the
seed only, not on the plan analysis's numerics.)
"""
import pathlib

from furball.scenarios.dogfight.game import DOGFIGHT
from furball.scenarios.engine import play_game

HERE = pathlib.Path(__file__).parent
GAMES = (("duel", "sides", 1), ("duel", "sides", 5), ("furball", "planes", 2), ("bomber", "sides", 3))


def log_text(scenario: str, seats: str, seed: int) -> str:
    record = play_game(DOGFIGHT, seed, "random", {"scenario": DOGFIGHT.option("scenario").parse(scenario),
                                                  "seats": seats})
    return "\n".join(record.log_lines()) + "\n"


def main() -> None:
    for scenario, seats, seed in GAMES:
        (HERE / f"dogfight_{scenario}_{seats}_seed{seed}.log").write_text(log_text(scenario, seats, seed),
                                                                           encoding="utf-8")


if __name__ == "__main__":
    main()
