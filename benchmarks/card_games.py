"""Throughput of a card game's whole games (one process, one core), shared by
bench_canuck.py, bench_yorktown.py and bench_white_christmas.py.

Each series is played in a fresh process after a warm-up, timed by CPU time
(``time.process_time``: other work on the machine counts less), without logs (as sweeps
play them), and printed beside the reference recorded in ``docs/performance.md``.

``--against PYTHON``: the same series are also played, interleaved with this process's,
by another interpreter (e.g. the venv of a checkout of an older commit), and the ratio is
printed — a comparison measured in one run, on the same machine load. ``--repeats R``:
every series R times, the best (least disturbed) kept. Numbers, not pass/fail.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Mapping

from furball.scenarios.engine import Game, play_game, series_seeds

WARM_UP = 300


def series(game: Game, player: str, options: Mapping, seed: int, games: int) -> tuple[float, int]:
    """CPU seconds and decisions of ``games`` games of the series started at ``seed``."""
    steps = 0
    cpu = time.process_time()
    for s in series_seeds(seed, games):
        steps += play_game(game, s, player, options, keep_log=False).final.step - 1
    return time.process_time() - cpu, steps


def main(script: str, game: Game, runs: Mapping[str, tuple[str, dict]], reference: Mapping[str, float],
         default_games: int, reference_commit: str = "723ea71", warm_up: int = WARM_UP) -> None:
    """The benchmark of ``game``: ``runs`` label -> (bot, options); ``reference``
    label -> games per CPU second at ``reference_commit``; ``warm_up`` games (at most the
    series' own count) played before the clock starts."""
    ap = argparse.ArgumentParser(description=f"Throughput of {game.title} whole games")
    ap.add_argument("games", nargs="?", type=int, default=default_games)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--against", metavar="PYTHON", help="another interpreter to measure in the same run")
    ap.add_argument("--one", metavar="LABEL", help=argparse.SUPPRESS)  # a single series, as JSON
    args = ap.parse_args()
    if args.one:
        player, options = runs[args.one]
        series(game, player, options, 1, min(warm_up, args.games))
        cpu, steps = series(game, player, options, 2, args.games)
        print(json.dumps({"cpu": cpu, "steps": steps}))
        return

    def one(python: str, label: str) -> dict:
        out = subprocess.run([python, script, str(args.games), "--one", label], check=True, capture_output=True,
                             text=True).stdout
        return json.loads(out)

    with open("/proc/loadavg") as f:
        print(f"machine load {f.read().split()[0]} (2 cores)")
    for label in runs:
        ours, theirs = [], []
        for _ in range(args.repeats):
            ours.append(one(sys.executable, label))
            if args.against:
                theirs.append(one(args.against, label))
        best = min(ours, key=lambda r: r["cpu"])
        rate = args.games / best["cpu"]
        line = (f"{label:>20}: {args.games} games in {best['cpu']:.2f} s CPU = {rate:.0f} games/s, "
                f"{best['steps'] / best['cpu'] / 1e3:.1f} k decisions/s")
        if label in reference:
            line += f" (reference {reference[label]:.0f} games/s at {reference_commit}: x{rate / reference[label]:.2f})"
        if theirs:
            other = min(theirs, key=lambda r: r["cpu"])
            other_rate = args.games / other["cpu"]
            line += f"; --against: {other_rate:.0f} games/s in the same run, ratio x{rate / other_rate:.2f}"
        if args.repeats > 1:
            line += f" (best of {args.repeats})"
        print(line, flush=True)
