"""Regenerate the Operation Canuck golden files (run only when a log change is intended).

    .venv/bin/python tests/golden/regenerate.py

Writes, next to this script: ``canuck_<player>_seed<N>.log`` (the full log of one game,
as ``furball play canuck --seed N --player P`` prints it) and ``canuck_<player>_rows.csv``
(the result rows of a series of games played without a log). ``tests/test_canuck_golden.py``
checks the engine against them byte for byte.
"""
import csv
import io
import pathlib

from furball.scenarios.canuck import CANUCK
from furball.scenarios.engine import play_game, play_many

HERE = pathlib.Path(__file__).parent
PLAYERS = ("heuristic", "random")
SEEDS = (0, 3, 7, 42, 2024)
SERIES_SEED, SERIES_GAMES = 11, 200


def log_text(player: str, seed: int) -> str:
    return "\n".join(play_game(CANUCK, seed, player).log_lines()) + "\n"


def rows_text(player: str) -> str:
    rows = play_many(CANUCK, SERIES_GAMES, SERIES_SEED, player)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def main() -> None:
    for player in PLAYERS:
        for seed in SEEDS:
            (HERE / f"canuck_{player}_seed{seed}.log").write_text(log_text(player, seed), encoding="utf-8")
        (HERE / f"canuck_{player}_rows.csv").write_text(rows_text(player), encoding="utf-8")


if __name__ == "__main__":
    main()
