"""Throughput of card placement and path sampling.

Run: .venv/bin/python benchmarks/bench_placement.py
Prints poses placed per second for batch placement (every card from every pose) and
path samples per second. Numbers, not pass/fail: compare before and after a change.
"""
import time

import numpy as np

from furball.geometry.pose import Pose
from furball.maneuvers import card_motions, path_poses, place, place_batch, shipped_bases, shipped_decks


def best_of(fn, repeat=5):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    deck, base = shipped_decks()["A"], shipped_bases()["small"]
    rng = np.random.default_rng(0)
    starts = np.column_stack([rng.uniform(0, 900, 20000), rng.uniform(0, 900, 20000), rng.uniform(0, 360, 20000)])
    motions = card_motions(deck.cards, base)
    t = best_of(lambda: place_batch(starts[:, None, :], motions[None, :, :]))
    n = starts.shape[0] * motions.shape[0]
    print(f"batch placement: {n} placements in {t * 1e3:.1f} ms = {n / t / 1e6:.2f} M/s")
    t = best_of(lambda: [place(Pose(1, 2, 3), c, base) for c in deck.cards])
    print(f"single placement: {len(deck) / t / 1e3:.1f} k/s")
    t = best_of(lambda: [path_poses(Pose(), c, base) for c in deck.cards], repeat=3)
    print(f"path sampling: {len(deck) / t:.0f} cards/s (2 mm steps)")


if __name__ == "__main__":
    main()
