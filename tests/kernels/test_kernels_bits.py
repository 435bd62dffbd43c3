"""The bit tricks against Python's own integers."""

import numpy as np
import pytest
from numba import njit

from bitdoku.kernels.bits import (
    digit_bit,
    full_mask,
    highest_bit_index,
    lowest_bit,
    lowest_bit_index,
    popcount,
    small_quotient,
)


@njit(cache=True)
def _all(mask):
    return popcount(mask), lowest_bit_index(mask), lowest_bit(mask)


@pytest.mark.parametrize("value", [1, 2, 3, 0x1FF, 1 << 40, (1 << 63) | 5, (1 << 64) - 1, 0xF0F0_0000_0000_0000])
def test_popcount_and_lowest_bit_match_python(value):
    count, index, low = _all(np.uint64(value))
    assert count == bin(value).count("1")
    assert index == (value & -value).bit_length() - 1
    assert low == value & -value


def test_lowest_bit_index_of_zero_is_the_type_width():
    assert _all(np.uint64(0))[1] == 64
    assert _all(np.uint32(0))[1] == 32


@pytest.mark.parametrize("n", [1, 4, 9, 16, 25, 63, 64])
def test_full_mask_has_n_bits_even_at_64(n):
    assert int(njit(lambda k: full_mask(k))(n)) == (1 << n) - 1


def test_digit_bit_reaches_digit_64():
    assert int(njit(lambda d: digit_bit(d))(64)) == 1 << 63
    assert int(njit(lambda d: digit_bit(d))(1)) == 1


@pytest.mark.parametrize("value", [0, 1, 2, 3, 0x1FF, 1 << 40, (1 << 62) | 5, (1 << 63) - 1])
def test_highest_bit_index_matches_python(value):
    assert int(njit(lambda mask: highest_bit_index(mask))(np.int64(value))) == value.bit_length() - 1


@njit(cache=True)
def _quotients(limit):
    """small_quotient(x, d) for every x < limit and d in 1..64, compiled (as the kernels use it)."""
    out = np.empty((65, limit), np.int64)
    for d in range(1, 65):
        for x in range(limit):
            out[d, x] = small_quotient(x, d)
    return out


def test_small_quotient_is_floor_division_for_every_row_column_and_side():
    got = _quotients(64)
    for d in range(1, 65):
        assert list(got[d]) == [x // d for x in range(64)], d


def test_small_quotient_fails_past_its_range():
    """The bound is real (so the test above could fail): with d = 7 the trick is first wrong at x = 685."""
    got = _quotients(700)
    assert got[7, 684] == 684 // 7
    assert got[7, 685] != 685 // 7
