"""Per-step random draws, exactly numpy's, at half the cost of building numpy's generator.

An engine makes the random draws of step ``n`` of a game from
``numpy.random.default_rng([seed, n])`` (see ``docs/engines.md``). Building that
generator costs about 11 µs — more than the rest of a typical step — and a game builds
one for every step that draws. :func:`step_rng` returns a :class:`StepRng` whose
``integers(n)`` gives, draw for draw, what ``default_rng([seed, step]).integers(n)``
gives: the same ``SeedSequence`` hashing (with the part that depends on the seed alone
computed once per seed), the same PCG64 (XSL-RR 128/64) generator, the same buffered
32-bit outputs and the same Lemire rejection for bounded integers. ``tests/test_steprng.py``
checks it against numpy itself, so a numpy that changed its streams would be caught.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["StepRng", "step_rng"]

M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1
M128 = (1 << 128) - 1
PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645  # PCG's default 128-bit multiplier
INIT_A, MULT_A, INIT_B, MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED  # numpy's SeedSequence
MIX_L, MIX_R = 0xCA01F9DD, 0x4973F715
POOL = 4  # SeedSequence's pool size in 32-bit words
ORDER = tuple((s, d) for s in range(POOL) for d in range(POOL) if s != d)


def _constants(init: int, mult: int, n: int) -> tuple[int, ...]:
    out = [init]
    for _ in range(n):
        out.append(out[-1] * mult & M32)
    return tuple(out)


HA = _constants(INIT_A, MULT_A, POOL + len(ORDER) + 1)  # the hash constants of the mixing, in order
HB = _constants(INIT_B, MULT_B, 8)  # ... and of the 8 output words


def _words(n: int) -> list[int]:
    """An integer as little-endian 32-bit words (numpy's ``_int_to_uint32_array``)."""
    out = []
    while True:
        out.append(n & M32)
        n >>= 32
        if not n:
            return out


def _hashmix(value: int, j: int) -> int:
    v = (value ^ HA[j]) * HA[j + 1] & M32
    return v ^ (v >> 16)


def _mix(x: int, y: int) -> int:
    r = (MIX_L * x - MIX_R * y) & M32
    return r ^ (r >> 16)


@lru_cache(maxsize=16)
def _prepared(seed: int):
    """The mixing of ``SeedSequence([seed, step])`` that does not depend on ``step``:
    the pool words known from the seed alone, where the step's word enters, and the
    rest as a program ``(destination, source or None, hash index or known hash)``.
    ``None`` when the seed has too many words for the pool (numpy then hashes)."""
    seed_words = _words(seed)
    slot = len(seed_words)  # the step's word (one word: steps < 2**32)
    if slot >= POOL:
        return None
    pool = [_hashmix(seed_words[i] if i < slot else 0, i) if i != slot else 0 for i in range(POOL)]
    tainted = [i == slot for i in range(POOL)]
    program = []
    for j, (s, d) in enumerate(ORDER, start=POOL):
        if not tainted[s] and not tainted[d]:
            pool[d] = _mix(pool[d], _hashmix(pool[s], j))
        elif not tainted[s]:
            program.append((d, None, _hashmix(pool[s], j)))
            tainted[d] = True
        else:
            program.append((d, s, j))
            tainted[d] = True
    return tuple(pool), slot, tuple(program)


def _pcg_start(seed: int, step: int) -> tuple[int, int]:
    """PCG64's (state, increment) as ``PCG64(SeedSequence([seed, step]))`` sets them."""
    prepared = _prepared(seed) if step <= M32 else None
    if prepared is None:  # a seed of 96 bits or more, or a huge step: numpy's own hashing
        a, b, c, d, e, f, g, h = (int(w) for w in np.random.SeedSequence([seed, step]).generate_state(8))
    else:
        clean, slot, program = prepared
        pool = list(clean)
        pool[slot] = _hashmix(step, slot)
        for dst, src, j in program:
            if src is None:
                y = j
            else:
                y = (pool[src] ^ HA[j]) * HA[j + 1] & M32
                y ^= y >> 16
            r = (MIX_L * pool[dst] - MIX_R * y) & M32
            pool[dst] = r ^ (r >> 16)
        out = []
        for k, v in enumerate(pool + pool):  # SeedSequence.generate_state(8): the pool, cycled
            v = (v ^ HB[k]) * HB[k + 1] & M32
            out.append(v ^ (v >> 16))
        a, b, c, d, e, f, g, h = out
    # pcg64_set_seed: initstate = words 0-3, initseq = words 4-7 (high 64 bits first)
    inc = (((e | f << 32) << 64 | g | h << 32) << 1 | 1) & M128
    state = ((inc + ((a | b << 32) << 64 | c | d << 32)) * PCG_MULT + inc) & M128
    return state, inc


class StepRng:
    """The draws of ``numpy.random.default_rng([seed, step])``, for ``integers(n)``."""

    __slots__ = ("_state", "_inc", "_buffered")

    def __init__(self, seed: int, step: int):
        if seed < 0 or step < 0:
            raise ValueError("seed and step must be >= 0")
        self._state, self._inc = _pcg_start(int(seed), int(step))
        self._buffered = None

    def _next32(self) -> int:
        """PCG64's next 32 bits: the low half of a 64-bit output, then its high half."""
        held = self._buffered
        if held is not None:
            self._buffered = None
            return held
        self._state = st = (self._state * PCG_MULT + self._inc) & M128
        x = ((st >> 64) ^ st) & M64
        rot = st >> 122
        x = ((x >> rot) | (x << (64 - rot))) & M64
        self._buffered = x >> 32
        return x & M32

    def integers(self, n: int) -> int:
        """A uniform integer in ``range(n)``, ``1 <= n <= 2**32``: the same value as
        ``int(default_rng([seed, step]).integers(n))`` at this point of the stream.
        Raises ``ValueError`` outside that range."""
        if not 1 <= n <= 1 << 32:
            raise ValueError(f"integers: expected 1 <= n <= 2**32, got {n}")
        if n == 1:
            return 0  # numpy draws nothing for a range of one value
        if n == 1 << 32:
            return self._next32()
        m = self._next32() * n  # Lemire's method on 32 bits, as numpy does
        low = m & M32
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = self._next32() * n
                low = m & M32
        return m >> 32


def step_rng(seed: int, step: int) -> StepRng:
    """The generator of ``step`` in the game started from ``seed`` (see the module doc)."""
    return StepRng(seed, step)
