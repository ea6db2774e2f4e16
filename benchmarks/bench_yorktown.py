"""Throughput of 1942 USS Yorktown whole games (benchmarks/card_games.py says how).

Run: .venv/bin/python benchmarks/bench_yorktown.py [GAMES] [--repeats R] [--against PYTHON]
The board-graph queries are cached by Japanese occupancy and the roll chains by their
dice: the warm-up series fills those caches first, as any long Monte Carlo run does.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from card_games import main  # noqa: E402

from furball.scenarios.yorktown import YORKTOWN  # noqa: E402

RUNS = {"heuristic": ("heuristic", {}), "random": ("random", {})}
REFERENCE = {"heuristic": 288, "random": 336}
"""Games per CPU second at commit 723ea71, before the frozen-state core (docs/performance.md)."""

if __name__ == "__main__":
    main(__file__, YORKTOWN, RUNS, REFERENCE, default_games=1000)
