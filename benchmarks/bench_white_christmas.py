"""Throughput of 1975 White Christmas whole games.

Run: .venv/bin/python benchmarks/bench_white_christmas.py [GAMES]
Prints games per second (CPU time of this process, and wall time) and decisions per
second for 4-player heuristic games (the issue's goal: 100 games/s on one core), then
for 2 players, solo against Captain Chambers, and 4 random players; without logs.
A first untimed game builds the table graphs (memoised per set-up and round shape).
Numbers, not pass/fail: compare before and after a change.
"""
import sys
import time

from scenarios.engine import play_game
from scenarios.white_christmas.game import WHITE_CHRISTMAS

RUNS = (("heuristic", {"players": 4}), ("heuristic", {"players": 2}), ("heuristic", {"solo": True}),
        ("random", {"players": 4}))


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for player, opts in RUNS:
        for seed in range(3):   # warm up: the table graphs of every carrier size and round shape
            play_game(WHITE_CHRISTMAS, seed, player, opts, keep_log=False)
        cpu, wall, steps = time.process_time(), time.perf_counter(), 0
        for seed in range(games):
            steps += play_game(WHITE_CHRISTMAS, seed, player, opts, keep_log=False).final.step - 2
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        label = "solo" if opts.get("solo") else f"{opts['players']} players"
        print(f"{player:>9}, {label:>9}: {games} games in {cpu:.2f} s CPU = {games / cpu:.0f} games/s "
              f"({games / wall:.0f} games/s wall), {steps / cpu / 1e3:.1f} k decisions/s")


if __name__ == "__main__":
    main()
