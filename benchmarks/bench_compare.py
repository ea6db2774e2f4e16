"""Same-run comparison of two trees: the turn, the margins, the scalar rules API, the zones
and the plan analysis (issue 37.1: no slow-down of the turn, the analysis or the margins
beyond noise).

Run: .venv/bin/python benchmarks/bench_compare.py OTHER_TREE [ROUNDS]
OTHER_TREE: a checkout to compare with (e.g. ``git worktree add /tmp/base main`` with its
own ``.venv``, ``pip install -e`` there). Each round measures both trees in turn, each in a
fresh interpreter of its own tree (``OTHER_TREE/.venv/bin/python`` and this one), so the
machine's other load falls on both alike; every figure is the best (least) CPU seconds
(``process_time``) over its repeats and over the rounds (default 3). The tables are
``bench_turn.py``'s synthetic furballs; the analysis is the shipped duel (deck A against
deck A) on one numba thread. Prints one line per measure: this tree, the other, and the
ratio this/other.
"""
import json
import os
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent.parent


def child() -> dict:
    """The measures of the tree this interpreter runs (CPU seconds, best of the repeats)."""
    sys.path[:0] = [str(pathlib.Path.cwd() / "benchmarks"), str(pathlib.Path.cwd() / "tests")]
    import numba
    from bench_turn import furball
    from planes import RULES

    from furball.geometry import kernels
    from furball.maneuvers.firing import shot_at
    from furball.maneuvers.tailing import tail_check
    from furball.maneuvers.zones import zones
    from furball.scenarios.dogfight import adjudicate, analyze, load_scenario
    from furball.scenarios.dogfight.margins import turn_margins

    def best(fn, repeats, *args):
        spent = []
        for _ in range(repeats):
            t0 = time.process_time()
            fn(*args)
            spent.append(time.process_time() - t0)
        return min(spent)

    def turn(table, orders):
        adjudicate(table, orders, seed=1, samples=False)

    kernels.warm()
    turn_margins(adjudicate(*furball(4), seed=1, samples=False))  # every kernel loaded
    out = {}
    for n, repeats in ((8, 15), (32, 7), (128, 5), (512, 3)):
        table, orders = furball(n)
        out[f"turn, {n} planes"] = best(turn, repeats, table, orders)
    for n, repeats in ((8, 5), (32, 3)):
        result = adjudicate(*furball(n), seed=1, samples=False)
        out[f"margins of a turn, {n} planes"] = best(turn_margins, repeats, result)
    planes = list(furball(24)[0].planes)
    out["tail_check + shot_at, every pair of 24 planes"] = best(
        lambda: [(tail_check(a, b, planes, RULES), shot_at(a, b, planes, RULES)) for a in planes for b in planes
                 if a is not b], 3)
    out["zones of one plane, 24 planes"] = best(lambda: zones(planes[0], planes, RULES), 5)
    duel = load_scenario("duel")
    numba.set_num_threads(1)
    analyze(duel.table, "Camel", vs=["Albatros"], heat_rows=0)
    out["analysis, deck A vs deck A, one thread"] = best(
        lambda: analyze(duel.table, "Camel", vs=["Albatros"], heat_rows=0), 3)
    return out


def main():
    other = pathlib.Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    trees = {"this": (HERE, sys.executable), "other": (other, str(other / ".venv" / "bin" / "python"))}
    found: dict = {"this": [], "other": []}
    for _ in range(rounds):
        for name, (tree, python) in trees.items():
            run = subprocess.run([python, str(pathlib.Path(__file__).resolve()), "--child"], cwd=tree,
                                 capture_output=True, text=True, check=True)
            found[name].append(json.loads(run.stdout.strip().splitlines()[-1]))
    print(f"machine load {os.getloadavg()[0]:.2f}; CPU ms (process_time), best over {rounds} rounds; "
          f"this = {HERE}, other = {other}")
    print(f"{'measure':50s} {'this':>9s} {'other':>9s} {'this/other':>10s}")
    for key in found["this"][0]:
        a, b = (min(r[key] for r in found[name]) for name in ("this", "other"))
        print(f"{key:50s} {a * 1e3:9.1f} {b * 1e3:9.1f} {a / b:10.2f}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        print(json.dumps(child()))
    else:
        main()
