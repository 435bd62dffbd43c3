"""The 9x9 band kernel's vector helper (``kernels/sudoku9.py``): ``_digits_meeting`` against a plain gather.

The search as a whole is checked against the reference engine elsewhere (``test_kernels_search.py``); this pins the
one piece written as LLVM vector code, whose lanes a slip could drop or shift without changing most trees.
"""

import numpy as np
from numba import njit

from bitdoku.kernels import sudoku9


@njit
def _meeting(states, band, cells):
    """``_digits_meeting`` on state 0's words of ``band``, callable from Python."""
    return sudoku9._digits_meeting(sudoku9._band_words(states, np.int64(0), band), cells)


def _gathered(states: np.ndarray, band: int, cells: int) -> int:
    """The digits whose word of ``band`` meets ``cells``, one digit at a time."""
    return sum(1 << digit for digit in range(9) if int(states[0, 3 * digit + band]) & cells)


def test_digits_meeting_matches_a_plain_gather_for_cells_and_masks():
    rng = np.random.default_rng(13)
    seen = set()
    for trial in range(3000):
        states = np.zeros((1, sudoku9.STATE_WORDS), np.uint32)
        sparse = rng.random((27, 30)) < 0.15
        states[0, :27] = (sparse * (1 << np.arange(30))).sum(axis=1) & sudoku9.BAND_FULL
        band = trial % 3
        if trial % 2:
            cells = 1 << int(rng.choice([p for p in range(30) if p % 10 != 9]))
        else:
            cells = int(rng.integers(0, 1 << 30)) & sudoku9.BAND_FULL
        expected = _gathered(states, band, cells)
        assert _meeting(states, np.int64(band), np.int64(cells)) == expected
        seen.add(expected)
    assert 0 in seen and 0x1FF in seen and len(seen) > 100  # every lane, digit 9's included, was exercised
