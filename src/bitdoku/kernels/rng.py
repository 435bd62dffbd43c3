"""A tiny seeded random generator for kernels: SplitMix64 over a ``uint64[1]`` state array that the caller owns.

Kernels never keep hidden random state: they take a state array, advance it, and leave it advanced, so what a
kernel draws depends only on the seed its caller gave (and the same seed gives the same puzzle on any number of
threads). SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014) passes
BigCrush and costs two multiplications a number. ``new_state`` turns any seed into a state.
"""

import numpy as np
from numba import njit

from bitdoku.kernels.bits import lowest_bit_index, popcount

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def new_state(seed: int) -> np.ndarray:
    """A state array for the kernels here, from any non-negative integer seed (only its low 64 bits count)."""
    return np.array([seed & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64)


@njit(cache=True, nogil=True, inline="always")
def mix(x):
    """SplitMix64's output function: 64 well-mixed bits from any 64-bit value (a counter-based generator when
    ``x`` counts up by the golden gamma)."""
    z = np.uint64(x)
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True, inline="always")
def next_u64(rng):
    """The next 64 random bits; advances ``rng[0]``."""
    state = rng[0] + _GOLDEN
    rng[0] = state
    return mix(state)


@njit(cache=True, nogil=True, inline="always")
def below(rng, n):
    """A random integer in 0..n-1 (n >= 1), as an int64. The modulo bias is under n / 2**53: nothing here."""
    return np.int64((next_u64(rng) >> np.uint64(11)) % np.uint64(n))


@njit(cache=True, nogil=True)
def random_bit(rng, mask):
    """The index of one set bit of a non-empty mask, each equally likely."""
    skip = below(rng, popcount(mask))
    for _ in range(skip):
        mask &= mask - type(mask)(1)
    return lowest_bit_index(mask)


@njit(cache=True, nogil=True)
def hashed_bit(key, mask):
    """The index of one set bit of a non-empty mask, chosen by hashing ``key``: random choices without a state
    array, for a search that numbers its nodes (key = seed + node number)."""
    skip = np.int64((mix(np.uint64(key) * _GOLDEN) >> np.uint64(11)) % np.uint64(popcount(mask)))
    for _ in range(skip):
        mask &= mask - type(mask)(1)
    return lowest_bit_index(mask)


@njit(cache=True, nogil=True)
def shuffle(rng, items):
    """Shuffle a 1-D array in place (Fisher-Yates)."""
    for i in range(items.shape[0] - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
