"""Throughput of 1942 USS Yorktown whole games (one process, one core).

Run: .venv/bin/python benchmarks/bench_yorktown.py [GAMES] [--repeats R] [--against PYTHON]

Prints games per second and decisions (apply calls) per second for the heuristic and
the random player, without logs (as sweeps play them), each series in a fresh process after a warm-up, timed by CPU time
(``time.process_time``, so other work on the machine counts less), beside the reference
recorded in ``docs/performance.md``. The board-graph queries are cached by Japanese
occupancy and the roll chains by their dice: a warm-up series fills those caches first,
as any long Monte Carlo run does in its first seconds.

``--against PYTHON``: the same series are also played, interleaved with this
process's, by another interpreter (e.g. the venv of a checkout of an older commit:
``--against /tmp/ref/.venv/bin/python``), and the ratio of the two is printed — a
comparison measured in one run, on the same machine load. With ``--repeats R`` every
series is played R times and the best (least disturbed) is kept.
Numbers, not pass/fail: compare before and after a change.
"""
import argparse
import json
import subprocess
import sys
import time

from furball.scenarios.engine import play_game, series_seeds
from furball.scenarios.yorktown import YORKTOWN

PLAYERS = ("heuristic", "random")
REFERENCE = {"heuristic": 288, "random": 336}
"""Games per CPU second at commit 723ea71, before the frozen-state core (docs/performance.md)."""
WARM_UP = 300


def series(player: str, seed: int, games: int) -> tuple[float, int]:
    """CPU seconds and decisions of ``games`` games of the series started at ``seed``."""
    steps = 0
    cpu = time.process_time()
    for s in series_seeds(seed, games):
        record = play_game(YORKTOWN, s, player, keep_log=False)
        steps += record.final.step - 1
    return time.process_time() - cpu, steps


def measure(player: str, games: int, warm: bool) -> dict:
    """One timed series (after the warm-up when ``warm``)."""
    if warm:
        series(player, 1, WARM_UP)
    cpu, steps = series(player, 2, games)
    return {"cpu": cpu, "steps": steps}


def one(python: str, player: str, games: int) -> dict:
    """A warmed-up series in a fresh process of ``python`` (so that every series, ours or
    the other interpreter's, starts from the same empty caches)."""
    out = subprocess.run([python, __file__, str(games), "--one", player], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="?", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--against", metavar="PYTHON", help="another interpreter to measure in the same run")
    ap.add_argument("--one", metavar="PLAYER", help=argparse.SUPPRESS)  # a single series, as JSON (for --against)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.games, warm=True)))
        return
    for player in PLAYERS:
        ours, theirs = [], []
        for _ in range(args.repeats):
            ours.append(one(sys.executable, player, args.games))
            if args.against:
                theirs.append(one(args.against, player, args.games))
        best = min(ours, key=lambda r: r["cpu"])
        rate = args.games / best["cpu"]
        line = (f"{player:>9}: {args.games} games in {best['cpu']:.2f} s CPU = {rate:.0f} games/s, "
                f"{best['steps'] / best['cpu'] / 1e3:.1f} k decisions/s (reference {REFERENCE[player]} games/s "
                f"at 723ea71: x{rate / REFERENCE[player]:.2f})")
        if theirs:
            other = min(theirs, key=lambda r: r["cpu"])
            other_rate = args.games / other["cpu"]
            line += f"; --against: {other_rate:.0f} games/s in the same run, ratio x{rate / other_rate:.2f}"
        if args.repeats > 1:
            line += f" (best of {args.repeats})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
