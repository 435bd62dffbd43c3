"""Restart schedules for randomised first-solution searches.

A search that restarts after a budget of dead ends, with fresh random choices each run, cuts the heavy tail of
hard grids; the Luby sequence (Luby, Sinclair and Zuckerman, "Optimal speedup of Las Vegas algorithms", 1993) is
the budget schedule within a log factor of the best fixed one without knowing the runtime distribution. It lives in
its own module so that a kernel can use it without importing (and compiling into its first run) another kernel:
the generic board kernel and the 9x9 generator's fill both take it from here.
"""

from numba import njit


@njit(cache=True, nogil=True)
def luby(i):
    """The i-th term (i >= 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ..."""
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
