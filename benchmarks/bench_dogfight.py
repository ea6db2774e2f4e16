"""Whole dogfight games: a planner-vs-random duel sweep, and what the planner's cheaper
setting costs in time and strength.

Run: .venv/bin/python benchmarks/bench_dogfight.py [GAMES] [--strength N]

1. ``GAMES`` (default 200) planner-vs-random games of the shipped duel, played as
   ``furball sweep dogfight --player planner/random --workers 1`` plays them (in this
   process), and, as the reference measured in the same run, the same number of
   random-vs-random games: CPU seconds (process_time) and wall seconds of each, the
   planner's share of wins with its 95 % interval, and whether the sweep finished
   within 10 minutes (the issue's target for this 2-core machine).
2. ``--strength N``: the ``planner`` (64 sampled enemy plans) against
   ``planner-full`` (every enemy plan) and against ``planner-mix``, N games with each
   in each seat: win shares (95 % Wilson intervals) and CPU seconds per decision.

Numbers, not pass/fail; a loaded machine shows in the wall times (its load is printed).
"""
import sys
import time

from furball.scenarios.dogfight.game import DOGFIGHT
from furball.scenarios.engine import proportion_interval
from furball.scenarios.engine.sweep import run_sweep


def sweep(games: int, players: str, seed: int = 1):
    cpu, wall = time.process_time(), time.perf_counter()
    result = run_sweep(DOGFIGHT, games, seed, players, workers=1)
    return result, time.process_time() - cpu, time.perf_counter() - wall


def share(rows, seat: str):
    wins = sum(r["winner"] == seat for r in rows)
    value, low, high = proportion_interval(wins, len(rows))
    return f"{value:.1%} (95% CI {low:.1%} to {high:.1%})"


def decisions(rows) -> int:
    return sum(r["turns"] for r in rows)


def main():
    args = sys.argv[1:]
    strength = None
    if "--strength" in args:
        i = args.index("--strength")
        strength = int(args[i + 1])
        del args[i:i + 2]
    games = int(args[0]) if args else 200
    print(f"machine load {open('/proc/loadavg').read().split()[0]} (2 cores)")
    sweep(2, "planner/random")  # import and compile (or load) the kernels first
    reference, ref_cpu, ref_wall = sweep(games, "random/random")
    result, cpu, wall = sweep(games, "planner/random")
    rows = result.rows
    print(f"{games} random-vs-random duels (reference): {ref_cpu:7.1f} s CPU, {ref_wall:7.1f} s wall, "
          f"{decisions(reference.rows) * 2} decisions")
    print(f"{games} planner-vs-random duels:            {cpu:7.1f} s CPU, {wall:7.1f} s wall, "
          f"{decisions(rows)} turns, {cpu / games * 1000:.0f} ms CPU per game "
          f"(reference {ref_cpu / games * 1000:.0f})")
    print(f"  planner (P1) wins {share(rows, 'P1')}; random (P2) wins {share(rows, 'P2')}")
    print(f"  within 10 minutes: {'yes' if wall < 600 else 'NO'} ({wall / 60:.1f} min wall, "
          f"{cpu / ref_cpu:.1f} x the reference's CPU)")
    if strength:
        for other in ("planner-full", "planner-mix"):
            first, cpu1, _ = sweep(strength, f"planner/{other}", seed=2)
            second, cpu2, _ = sweep(strength, f"{other}/planner", seed=3)
            wins = sum(r["winner"] == "P1" for r in first.rows) + sum(r["winner"] == "P2" for r in second.rows)
            losses = sum(r["winner"] == "P2" for r in first.rows) + sum(r["winner"] == "P1" for r in second.rows)
            value, low, high = proportion_interval(wins, 2 * strength)
            steps = decisions(first.rows) + decisions(second.rows)
            print(f"planner vs {other}, {2 * strength} games (each in each seat): planner wins {value:.1%} "
                  f"(95% CI {low:.1%} to {high:.1%}), loses {losses / (2 * strength):.1%}; "
                  f"{(cpu1 + cpu2) / max(2 * steps, 1) * 1000:.0f} ms CPU per decision on average")


if __name__ == "__main__":
    main()
