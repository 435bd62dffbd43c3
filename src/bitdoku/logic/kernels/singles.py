"""Compiled singles for the rater: load candidates from cells and apply hidden and naked singles to a fixpoint.

The kernel takes singles in exactly the order of ``explain``'s ladder (hidden singles in boxes, rows, columns,
then naked singles; units and cells in index order, digits increasing; start again from the top after each
placement), so the counts it returns are the ones ``explain`` would show. It is the fast twin of
``bitdoku.logic.singles``; the tests check that they agree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitdoku.kernels.jit import borrowing

#: Return codes of ``run_singles``.
STALLED = 0
SOLVED = 1
CONTRADICTION = 2

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(cache=True, nogil=True)
def _full(n):
    """Every digit's bit; n may be 64, where ``1 << n`` would overflow."""
    if n == 64:
        return ~_ZERO
    return (_ONE << np.uint64(n)) - _ONE


@njit(cache=True, nogil=True)
def load_candidates(values, units, cell_units, n, masks):
    """Fill ``masks`` (uint64[N*N], mutated) with the candidates that ``values`` (uint8[N*N]) leave.

    ``units`` is int32[3N, N] and ``cell_units`` int32[N*N, 3]. Returns False when a digit repeats in a unit.
    Cost: O(N*N).
    """
    used = np.zeros(3 * n, dtype=np.uint64)
    for u in range(3 * n):
        seen = _ZERO
        for i in range(n):
            v = values[units[u, i]]
            if v:
                bit = _ONE << np.uint64(v - 1)
                if seen & bit:
                    return False
                seen |= bit
        used[u] = seen
    full = _full(n)
    for cell in range(n * n):
        if values[cell]:
            masks[cell] = _ZERO
        else:
            masks[cell] = full & ~(used[cell_units[cell, 0]] | used[cell_units[cell, 1]] | used[cell_units[cell, 2]])
    return True


@borrowing
def _place(values, masks, peers, cell, digit):
    values[cell] = digit
    masks[cell] = _ZERO
    keep = ~(_ONE << np.uint64(digit - 1))
    for j in range(peers.shape[1]):
        masks[peers[cell, j]] &= keep


@njit(cache=True, nogil=True)
def _digit_of(bit):
    """The digit (1-based) of a one-bit mask."""
    digit = 1
    while bit > _ONE:
        bit >>= _ONE
        digit += 1
    return digit


@borrowing
def _hidden_single(values, masks, units, first, n, found):
    """Scan units first..first+n-1 for the first hidden single; write (cell, digit) into ``found``.
    Returns 1 when found, 0 when none, -1 on a contradiction (a digit with no place in a unit)."""
    full = _full(n)
    for u in range(first, first + n):
        once = _ZERO
        twice = _ZERO
        placed = _ZERO
        for i in range(n):
            cell = units[u, i]
            m = masks[cell]
            twice |= once & m
            once |= m
            if values[cell]:
                placed |= _ONE << np.uint64(values[cell] - 1)
        if (once | placed) != full:
            return -1
        only = once & ~twice
        if only:
            bit = only & (~only + _ONE)
            for i in range(n):
                cell = units[u, i]
                if masks[cell] & bit:
                    found[0] = cell
                    found[1] = _digit_of(bit)
                    return 1
    return 0


@njit(cache=True, nogil=True)
def run_singles(values, masks, units, peers, n, counts):
    """Apply singles until none is left. Mutates ``values`` (uint8[N*N]) and ``masks`` (uint64[N*N], 0 for filled
    cells); adds to ``counts`` (int64[2]: hidden singles, naked singles). ``peers`` is int32[N*N, P].

    Returns SOLVED, STALLED (open cells left, no single) or CONTRADICTION. Cost: O(placements * N*N).
    """
    found = np.zeros(2, dtype=np.int64)
    while True:
        status = 0
        for first in (2 * n, 0, n):  # boxes, rows, columns: the ladder's order
            status = _hidden_single(values, masks, units, first, n, found)
            if status != 0:
                break
        if status < 0:
            return CONTRADICTION
        if status > 0:
            _place(values, masks, peers, found[0], found[1])
            counts[0] += 1
            continue
        naked = -1
        solved = True
        for cell in range(n * n):
            if values[cell] == 0:
                solved = False
                m = masks[cell]
                if m == _ZERO:
                    return CONTRADICTION
                if m & (m - _ONE) == _ZERO:
                    naked = cell
                    break
        if solved:
            return SOLVED
        if naked < 0:
            return STALLED
        _place(values, masks, peers, naked, _digit_of(masks[naked]))
        counts[1] += 1
