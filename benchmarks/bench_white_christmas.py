"""Throughput of 1975 White Christmas whole games (benchmarks/card_games.py says how):
4-player heuristic games, then 2 players, solo against Captain Chambers, and 4 random
players. The warm-up is short (20 games): the table graphs of every carrier size and
round shape, and the caches of public answers, fill in a long run's first seconds.

Run: .venv/bin/python benchmarks/bench_white_christmas.py [GAMES] [--repeats R] [--against PYTHON]
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from card_games import main  # noqa: E402

from furball.scenarios.white_christmas.game import WHITE_CHRISTMAS  # noqa: E402

RUNS = {"heuristic, 4 players": ("heuristic", {"players": 4}), "heuristic, 2 players": ("heuristic", {"players": 2}),
        "heuristic, solo": ("heuristic", {"solo": True}), "random, 4 players": ("random", {"players": 4})}
REFERENCE = {"heuristic, 4 players": 103, "heuristic, 2 players": 175, "heuristic, solo": 242,
             "random, 4 players": 178}
"""Games per CPU second at commit 723ea71, before the frozen-state core (docs/performance.md)."""

if __name__ == "__main__":
    main(__file__, WHITE_CHRISTMAS, RUNS, REFERENCE, default_games=200, warm_up=20)
