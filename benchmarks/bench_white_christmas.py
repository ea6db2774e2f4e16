"""Throughput of 1975 White Christmas whole games.

Run: .venv/bin/python benchmarks/bench_white_christmas.py [GAMES] [REPEATS]
Prints games per second (CPU time of this process, and wall time) and decisions per
second for 4-player heuristic games (the issue's goal: 100 games/s on one core), then
for 2 players, solo against Captain Chambers, and 4 random players; without logs.
A first untimed game builds the table graphs (memoised per set-up and round shape).
With REPEATS > 1 each series is played that many times and the line gives the best
series and the median one: on a shared machine the best is the least disturbed.
Numbers, not pass/fail: compare before and after a change.
"""
import statistics
import sys
import time

from furball.scenarios.engine import play_game
from furball.scenarios.white_christmas.game import WHITE_CHRISTMAS

RUNS = (("heuristic", {"players": 4}), ("heuristic", {"players": 2}), ("heuristic", {"solo": True}),
        ("random", {"players": 4}))


def series(games: int, player: str, opts: dict) -> tuple[float, float, int]:
    """CPU seconds, wall seconds and decisions of ``games`` games (seeds 0..games-1)."""
    cpu, wall, steps = time.process_time(), time.perf_counter(), 0
    for seed in range(games):
        steps += play_game(WHITE_CHRISTMAS, seed, player, opts, keep_log=False).final.step - 2
    return time.process_time() - cpu, time.perf_counter() - wall, steps


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    for player, opts in RUNS:
        for seed in range(3):   # warm up: the table graphs of every carrier size and round shape
            play_game(WHITE_CHRISTMAS, seed, player, opts, keep_log=False)
        runs = sorted(series(games, player, opts) for _ in range(repeats))
        cpu, wall, steps = runs[0]
        label = "solo" if opts.get("solo") else f"{opts['players']} players"
        line = (f"{player:>9}, {label:>9}: {games} games in {cpu:.2f} s CPU = {games / cpu:.0f} games/s "
                f"({games / wall:.0f} games/s wall), {steps / cpu / 1e3:.1f} k decisions/s")
        if repeats > 1:
            line += f"; best of {repeats}, median {games / statistics.median(r[0] for r in runs):.0f} games/s"
        print(line)


if __name__ == "__main__":
    main()
