"""Force the batch kernels (geometry.kernels) onto their compiled loops in tests: small
questions are otherwise answered by the scalar predicates themselves, which would make
a comparison with the scalar path trivially true."""
import contextlib

from furball.geometry import kernels as gk

MODES = ("pairs", "grid")
"""The compiled loops: one pair at a time (``pairs``), or the parallel binned grids."""


@contextlib.contextmanager
def compiled_path(mode: str):
    """Within the block, every question runs on the compiled loops of ``mode``."""
    before = gk.SCALAR_PAIRS, gk.GRID_PAIRS
    gk.SCALAR_PAIRS, gk.GRID_PAIRS = -1, (0 if mode == "grid" else 10**12)
    try:
        yield
    finally:
        gk.SCALAR_PAIRS, gk.GRID_PAIRS = before
