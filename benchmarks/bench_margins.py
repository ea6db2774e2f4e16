"""CPU seconds for the margins and flip chances of every ruling of a turn (issue 27).

Run: .venv/bin/python benchmarks/bench_margins.py [SIZES...]
The synthetic furball of ``bench_turn.py`` (planes 150 mm apart, random headings,
altitudes and legal plans), adjudicated once; then ``turn_margins`` measures every ruling
(tails, table edges, overlaps and near misses, firing positions and near misses) and
estimates each flip chance under the default placement error (normal 1 mm, 1 deg per
base) to a 95 % interval within +-1 % (1000 samples at least, up to ~10 000 for the
closest calls). Prints the machine load, the best of three in CPU time
(``process_time``), the rulings, samples drawn and close calls, and, as the reference
measured in the same run, the turn itself. Target: a 32-plane turn under 0.5 s.
"""
import os
import sys

from bench_turn import cpu, furball

from furball.geometry import kernels
from furball.scenarios.dogfight import adjudicate
from furball.scenarios.dogfight.margins import turn_margins


def main():
    sizes = [int(s) for s in sys.argv[1:]] or [8, 32]
    kernels.warm()
    turn_margins(adjudicate(*furball(4), seed=1, samples=False))  # load every kernel used
    print(f"machine load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; CPU seconds (process_time), best of 3")
    for n in sizes:
        table, orders = furball(n)
        turn, result = cpu(adjudicate, table, orders, seed=1, samples=False)
        bare, _ = cpu(turn_margins, result, flips=False)
        spent, tm = cpu(turn_margins, result)
        rulings = tm.rulings
        samples = sum(r.flip.samples for r in rulings if r.flip)
        print(f"{n:4d} planes: margins and flip chances {spent:6.3f} s ({len(rulings)} rulings, {samples} samples, "
              f"{samples / spent / 1e6:.2f} M re-decisions per s, {len(tm.close_calls)} close calls); margins "
              f"alone {bare:6.3f} s; the turn itself {turn:6.3f} s")
    print("target: every ruling of a 32-plane turn with its flip chance under 0.5 s")


if __name__ == "__main__":
    main()
