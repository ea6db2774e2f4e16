"""Throughput of Operation Canuck whole games.

Run: .venv/bin/python benchmarks/bench_canuck.py [GAMES]
Prints games per second and actions (apply calls) per second for the heuristic and
the random player, without logs (as sweeps play them), on one core. Time is this
process's CPU time, so other work on the machine disturbs the numbers less. Numbers,
not pass/fail: compare before and after a change.
"""
import sys
import time

from furball.scenarios.canuck.game import play_game


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    for player in ("heuristic", "random"):
        t0 = time.process_time()
        steps = 0
        for seed in range(games):
            record = play_game(seed, player, keep_log=False)
            steps += record.final.step - 1
        t = time.process_time() - t0
        print(f"{player:>9}: {games} games in {t:.2f} s = {games / t:.0f} games/s, "
              f"{steps / t / 1e3:.1f} k actions/s")


if __name__ == "__main__":
    main()
