"""`furball warm`: compile every numba kernel once, into the user's cache directory, so
that no later command waits for a compiler (docs/analyze.md)."""
from __future__ import annotations

import time

from furball.i18n import N_, translator


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list)."""
    p = subparsers.add_parser(
        "warm", help=line,
        description=N_("Compile the batch kernels of the geometry and the plan analysis (numba) into the user's "
                    "cache directory, once: the first plan analysis, big turn or web table then starts at once. "
                    "Run it after installing or upgrading furball; running it again only loads the cache."))
    p.set_defaults(func=run)


def run(args) -> int:
    t0, c0 = time.perf_counter(), time.process_time()
    from furball.geometry import kernels
    from furball.scenarios.dogfight import analysis

    names = kernels.warm() + analysis.warm()
    _ = translator(args.lang)
    print(_("furball warm: {count} kernels ready in {folder} ({cpu} s CPU, {wall} s)").format(
        count=len(names), folder=kernels.cache_dir(), cpu=format(time.process_time() - c0, ".1f"),
        wall=format(time.perf_counter() - t0, ".1f")))
    return 0


__all__ = ["register", "run"]
