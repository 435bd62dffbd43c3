"""Compiled search of SukakuExplainer's ALS wings (the engine of ``logic.als_wings``): the same sets, pivots and
eliminations, in the same order, as the Python finder, which stays as its readable twin and the reference.

Cell bitsets are arrays of ``W`` uint64 words (cell c is bit c % 64 of word c // 64), so any grid size fits.
Inputs: the masks, the layout's units (int32[U, N]) and their cells as bitsets (uint64[U, W]), each cell's peers
as bitsets (uint64[N*N, W]), the set size and the ``touched`` cells (uint64[W]: all ones for a whole search).
A wing found is written as a row of ``head`` (pivot, first and second restricted digit (0: none), the largest
candidate count of a set cell, where its eliminations start in ``gone`` and how many), its set's cells in
``cells`` (in the unit's order) and its eliminations in ``gone`` ((cell, digit) rows, sorted).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitdoku.kernels.jit import borrowing

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(cache=True, nogil=True)
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True)
def wings(masks, n, units, ubits, peers, size, touched, head, cells, gone):
    """Every wing of sets of ``size`` cells whose set or pivot meets ``touched``, in the Python finder's order
    (units in layout order, sets in increasing positions, each set once, at the first unit that holds it; then
    pivots by digits and cell). Returns the number of wings, or -1 when an output array is too small."""
    nn = n * n
    words = ubits.shape[1]
    nunits = units.shape[0]
    # each digit's cells, the bivalue cells (pivots), the reach of the touched pivots
    spots = np.zeros((n, words), np.uint64)
    for c in range(nn):
        m = masks[c]
        for d in range(n):
            if (m >> np.uint64(d)) & _ONE:
                spots[d, c >> 6] |= _ONE << np.uint64(c & 63)
    biv = np.empty(nn, np.int64)
    nbiv = 0
    reach = touched.copy()
    for c in range(nn):
        if _popcount(masks[c]) == 2:
            biv[nbiv] = c
            nbiv += 1
            if (touched[c >> 6] >> np.uint64(c & 63)) & _ONE:
                for w in range(words):
                    reach[w] |= peers[c, w]
    if nbiv == 0:
        return 0
    passed = np.zeros(nunits, np.bool_)
    cand = np.empty(n, np.int64)
    ptr = np.empty(size + 1, np.int64)
    base = np.zeros(size + 1, np.uint64)
    chosen = np.empty(size, np.int64)
    setbits = np.empty(words, np.uint64)
    victims = np.zeros((n, words), np.uint64)
    digits = np.empty(n, np.int64)
    count = 0
    top = 0
    for u in range(nunits):
        hit = False
        for w in range(words):
            if ubits[u, w] & reach[w]:
                hit = True
        if not hit:
            continue
        passed[u] = True
        ncand = 0
        for i in range(n):
            k = _popcount(masks[units[u, i]])
            if 2 <= k <= size + 1:
                cand[ncand] = i
                ncand += 1
        if ncand < size:
            continue
        level = 0
        ptr[0] = 0
        base[0] = _ZERO
        while level >= 0:
            j = ptr[level]
            if j > ncand - (size - level):
                level -= 1
                continue
            ptr[level] = j + 1
            merged = base[level] | masks[units[u, cand[j]]]
            if _popcount(merged) > size + 1:
                continue
            chosen[level] = j
            if level + 1 < size:
                level += 1
                base[level] = merged
                ptr[level] = j + 1
                continue
            if _popcount(merged) != size + 1:
                continue
            # one almost locked set: its cells, once (the first unit that holds it and was looked at)
            for w in range(words):
                setbits[w] = _ZERO
            largest = 0
            for i in range(size):
                c = units[u, cand[chosen[i]]]
                setbits[c >> 6] |= _ONE << np.uint64(c & 63)
                largest = max(largest, _popcount(masks[c]))
            before = False
            for u2 in range(u):
                if passed[u2]:
                    inside = True
                    for w in range(words):
                        if setbits[w] & ~ubits[u2, w]:
                            inside = False
                    if inside:
                        before = True
                        break
            if before:
                continue
            fresh_set = False
            for w in range(words):
                if setbits[w] & touched[w]:
                    fresh_set = True
            nd = 0
            for d in range(n):
                if (merged >> np.uint64(d)) & _ONE:
                    digits[nd] = d
                    nd += 1
            for a in range(nd):
                for b in range(a + 1, nd):
                    x = digits[a]
                    z = digits[b]
                    pair = (_ONE << np.uint64(x)) | (_ONE << np.uint64(z))
                    for q in range(nbiv):
                        pivot = biv[q]
                        if masks[pivot] != pair:
                            continue
                        pw = pivot >> 6
                        pbit = _ONE << np.uint64(pivot & 63)
                        if not fresh_set and not (touched[pw] & pbit):
                            continue
                        if setbits[pw] & pbit:
                            continue
                        sees = False
                        for w in range(words):
                            if peers[pivot, w] & setbits[w]:
                                sees = True
                        if not sees:
                            continue
                        # restricted commons: every place of the digit in the set sees the pivot
                        r0 = -1
                        r1 = -1
                        for dd in (x, z):
                            free = True
                            for w in range(words):
                                if spots[dd, w] & setbits[w] & ~peers[pivot, w]:
                                    free = False
                            if free:
                                if r0 < 0:
                                    r0 = dd
                                else:
                                    r1 = dd
                        if r0 < 0:
                            continue
                        for d in range(n):
                            for w in range(words):
                                victims[d, w] = _ZERO
                        for linked in (r0, r1):
                            if linked < 0:
                                continue
                            other = z if linked == x else x
                            _seen_by_all(other, pivot, True, setbits, spots, peers, victims, words, nn)
                        if r1 >= 0:
                            for e in range(nd):
                                dd = digits[e]
                                if dd != x and dd != z:
                                    _seen_by_all(dd, pivot, False, setbits, spots, peers, victims, words, nn)
                        first = top
                        for c in range(nn):
                            cw = c >> 6
                            cb = _ONE << np.uint64(c & 63)
                            for d in range(n):
                                if victims[d, cw] & cb:
                                    if top >= gone.shape[0]:
                                        return -1
                                    gone[top, 0] = c
                                    gone[top, 1] = d + 1
                                    top += 1
                        if top == first:
                            continue
                        if count >= head.shape[0]:
                            return -1
                        head[count, 0] = pivot
                        head[count, 1] = r0 + 1
                        head[count, 2] = r1 + 1
                        head[count, 3] = largest
                        head[count, 4] = first
                        head[count, 5] = top - first
                        for i in range(size):
                            cells[count, i] = units[u, cand[chosen[i]]]
                        count += 1
    return count


@borrowing
def _seen_by_all(d, pivot, with_pivot, setbits, spots, peers, victims, words, nn):
    """Add to ``victims[d]`` the candidates of digit d outside the pattern (the set and the pivot) that see every
    place of d in the set (and the pivot, ``with_pivot``)."""
    pw = pivot >> 6
    pbit = _ONE << np.uint64(pivot & 63)
    for w in range(words):
        seen = spots[d, w] & ~setbits[w]
        if w == pw:
            seen &= ~pbit
        for c in range(nn):
            cw = c >> 6
            cb = _ONE << np.uint64(c & 63)
            if (spots[d, cw] & setbits[cw] & cb) or (with_pivot and c == pivot):
                seen &= peers[c, w]
        victims[d, w] |= seen
