"""Throughput of 1942 USS Yorktown whole games (one process, one core).

Run: .venv/bin/python benchmarks/bench_yorktown.py [GAMES]
Prints games per second and decisions (apply calls) per second for the heuristic and
the random player, without logs, timed by CPU time (``time.process_time``, so other
work on the machine does not count) and by the wall clock. The board-graph queries are
cached by Japanese occupancy and the roll chains by their dice: a first warm-up series
fills those caches, as any long Monte Carlo run does in its first seconds (its cost is
printed too). Numbers, not pass/fail: compare before and after a change. Goal: at least
100 heuristic games per second.
"""
import sys
import time

from furball.scenarios.engine import play_game, series_seeds
from furball.scenarios.yorktown import YORKTOWN


def series(player: str, seed: int, games: int) -> tuple[float, float, int]:
    steps = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for s in series_seeds(seed, games):
        record = play_game(YORKTOWN, s, player, keep_log=False)
        steps += record.final.step - 1
    return time.process_time() - cpu, time.perf_counter() - wall, steps


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for player in ("heuristic", "random"):
        warm_cpu, _, _ = series(player, 1, 300)
        cpu, wall, steps = series(player, 2, games)
        print(f"{player:>9}: {games} games in {cpu:.2f} s CPU = {games / cpu:.0f} games/s "
              f"({games / wall:.0f} by the wall clock), {steps / cpu / 1e3:.1f} k decisions/s; "
              f"warm-up of 300 games {warm_cpu:.2f} s CPU")


if __name__ == "__main__":
    main()
