"""Throughput of 1975 White Christmas whole games (one process, one core).

Run: .venv/bin/python benchmarks/bench_white_christmas.py [GAMES] [--repeats R] [--against PYTHON]

Prints games per second (CPU time of the process, ``time.process_time``, so other work
on the machine counts less) and decisions per second for 4-player heuristic games, then
for 2 players, solo against Captain Chambers, and 4 random players; without logs (as
sweeps play them), beside the reference recorded in ``docs/performance.md``. Each series
is played in a fresh process after a warm-up of a few games (the table graphs of every
carrier size and round shape, and the caches of public answers, fill in a long Monte
Carlo run's first seconds).

``--against PYTHON``: the same series are also played, interleaved with this process's,
by another interpreter (e.g. the venv of a checkout of an older commit:
``--against /tmp/ref/.venv/bin/python``), and the ratio of the two is printed: a
comparison measured in one run, on the same machine load. With ``--repeats R`` every
series is played R times and the best (least disturbed) is kept.
Numbers, not pass/fail: compare before and after a change.
"""
import argparse
import json
import subprocess
import sys
import time

from furball.scenarios.engine import play_game
from furball.scenarios.white_christmas.game import WHITE_CHRISTMAS

RUNS = {"heuristic, 4 players": ("heuristic", {"players": 4}), "heuristic, 2 players": ("heuristic", {"players": 2}),
        "heuristic, solo": ("heuristic", {"solo": True}), "random, 4 players": ("random", {"players": 4})}
REFERENCE = {"heuristic, 4 players": 103, "heuristic, 2 players": 175, "heuristic, solo": 242,
             "random, 4 players": 178}
"""Games per CPU second at commit 723ea71, before the frozen-state core (docs/performance.md)."""
WARM_UP = 20


def series(player: str, opts: dict, seeds: range) -> tuple[float, int]:
    """CPU seconds and decisions of the games of ``seeds``."""
    cpu, steps = time.process_time(), 0
    for seed in seeds:
        steps += play_game(WHITE_CHRISTMAS, seed, player, opts, keep_log=False).final.step - 2
    return time.process_time() - cpu, steps


def measure(run: str, games: int) -> dict:
    """One timed series of ``run`` (seeds 0..games-1) after the warm-up."""
    player, opts = RUNS[run]
    series(player, opts, range(10**6, 10**6 + WARM_UP))
    cpu, steps = series(player, opts, range(games))
    return {"cpu": cpu, "steps": steps}


def one(python: str, run: str, games: int) -> dict:
    """A warmed-up series in a fresh process of ``python`` (so that every series, ours or
    the other interpreter's, starts from the same empty caches)."""
    out = subprocess.run([python, __file__, str(games), "--one", run], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="?", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--against", metavar="PYTHON", help="another interpreter to measure in the same run")
    ap.add_argument("--one", metavar="RUN", help=argparse.SUPPRESS)  # a single series, as JSON (for --against)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.games)))
        return
    for run in RUNS:
        ours, theirs = [], []
        for _ in range(args.repeats):
            ours.append(one(sys.executable, run, args.games))
            if args.against:
                theirs.append(one(args.against, run, args.games))
        best = min(ours, key=lambda r: r["cpu"])
        rate = args.games / best["cpu"]
        line = (f"{run:>20}: {args.games} games in {best['cpu']:.2f} s CPU = {rate:.0f} games/s, "
                f"{best['steps'] / best['cpu'] / 1e3:.1f} k decisions/s (reference {REFERENCE[run]} games/s "
                f"at 723ea71: x{rate / REFERENCE[run]:.2f})")
        if theirs:
            other = min(theirs, key=lambda r: r["cpu"])
            other_rate = args.games / other["cpu"]
            line += f"; --against: {other_rate:.0f} games/s in the same run, ratio x{rate / other_rate:.2f}"
        if args.repeats > 1:
            line += f" (best of {args.repeats})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
