"""Throughput of Operation Canuck whole games (benchmarks/card_games.py says how).

Run: .venv/bin/python benchmarks/bench_canuck.py [GAMES] [--repeats R] [--against PYTHON]
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from card_games import main  # noqa: E402

from furball.scenarios.canuck import CANUCK  # noqa: E402

RUNS = {"heuristic": ("heuristic", {}), "random": ("random", {})}
REFERENCE = {"heuristic": 263, "random": 678}
"""Games per CPU second at commit 723ea71, before the frozen-state core (docs/performance.md)."""

if __name__ == "__main__":
    main(__file__, CANUCK, RUNS, REFERENCE, default_games=300)
