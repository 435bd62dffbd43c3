"""Aligned exclusion: base cells whose joint values would empty a cell that sees them all.

- **Aligned Pair Exclusion** (SE 6.2): two base cells and the bivalue cells that see both (their common
  *excluders*). A pair of values for the base cells is impossible when both cells see each other and the values
  are equal, or when it covers an excluder's two candidates (that cell would be left empty). A candidate of a
  base cell that appears in no possible pair is removed.
- **Aligned Triplet Exclusion** (SE 7.5): the same with three base cells and excluders of two or three
  candidates; the third base cell is an excluder of one of the first two, as in Sudoku Explainer.

As in Sudoku Explainer, base cells have at least two candidates and no peer with a single candidate (an
unplaced naked single), and need not share a unit; at least two common excluders are needed; base sets are taken
in SE's order (by the later cell, then the earlier, then the third). The search runs in a compiled kernel:
in Python the triplets cost ~140 ms a stalled top1465 state. A value of a base cell is kept as soon as one
possible combination uses it (a witness), which is much cheaper than listing every combination.
See https://www.sudokuwiki.org/Aligned_Pair_Exclusion.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numba import njit
from numpy.typing import NDArray

from bitdoku.kernels.jit import borrowing
from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.changes import Changes
from bitdoku.logic.step import Step, make_step, names, removals

APE = "Aligned Pair Exclusion"
ATE = "Aligned Triplet Exclusion"

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


def find_aligned_pair_exclusions(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
    """Aligned Pair Exclusions, in SE's order; with ``changes`` (``bitdoku.logic.changes``), only those whose base
    cells or cells that see them all changed."""
    return _exclusions(cg, 2, changes)


def find_aligned_triplet_exclusions(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
    """Aligned Triplet Exclusions, in SE's order; with ``changes``, only those touched by them (as the pairs)."""
    return _exclusions(cg, 3, changes)


def _exclusions(cg: CandidateGrid, degree: int, changes: Changes | None = None) -> Iterator[Step]:
    """Each exclusion the kernel finds, lazily (the k-th call skips the k-1 found before).

    With ``changes``: an exclusion is a function of its base cells' candidates and of the excluders, the cells of
    2..degree candidates that see every base cell; if none of those cells (nor any other cell that sees every base
    cell, which could have left the excluders) changed, it was there with the same eliminations in the state where
    the finder last found nothing, so it is skipped: the same steps, in the same order."""
    tables = cg.shape.tables
    masks = np.array(cg.masks, dtype=np.uint64)
    touched = np.ones(len(masks), dtype=np.bool_)
    if changes is not None:
        touched[:] = False
        bits = changes.cells
        while bits:
            low = bits & -bits
            touched[low.bit_length() - 1] = True
            bits ^= low
    cells = np.zeros(3, dtype=np.int64)
    gone = np.zeros(3, dtype=np.uint64)
    common = np.zeros(tables.peers.shape[1], dtype=np.int64)
    skip = 0
    while True:
        count = _search(masks, tables.peers, tables.cell_units, degree, skip, cells, gone, common, touched)
        if count == 0:
            return
        yield _step(cg, degree, cells[:degree].tolist(), gone[:degree].tolist(), common[:count].tolist())
        skip += 1


def _step(cg: CandidateGrid, degree: int, cells: list[int], gone_masks: list[int], excluders: list[int]) -> Step:
    n = cg.n
    gone = [(cell, d) for cell, mask in zip(cells, gone_masks, strict=True) for d in range(1, n + 1)
            if mask >> (d - 1) & 1]
    kind = "pair" if degree == 2 else "triplet"
    text = (
        f"{names(cells, n)} cannot take values that would leave no candidate in one of {names(excluders, n)}, "
        f"which see them all, so remove {removals(gone, n)} (aligned {kind} exclusion)"
    )
    return make_step(ATE if degree == 3 else APE, cg, text, eliminations=gone, cells=(*cells, *excluders))


@njit(cache=True, nogil=True)
def _popcount(x: np.uint64) -> int:
    count = 0
    while x:
        x &= x - _ONE
        count += 1
    return count


@borrowing
def _sees(cell_units: NDArray[np.int32], a: int, b: int) -> bool:
    return a != b and (cell_units[a, 0] == cell_units[b, 0] or cell_units[a, 1] == cell_units[b, 1]
                       or cell_units[a, 2] == cell_units[b, 2])


@borrowing
def _is_base_cell(c: int, count: NDArray[np.int64], peers: NDArray[np.int32], degree: int) -> bool:
    """Whether cell c may be a base cell of an aligned exclusion of ``degree`` cells: it has two candidates or
    more, no peer is down to one candidate, and some peer has 2..degree candidates (an excluder). Shared by
    ``_search`` and its reference ``_search_scan``."""
    if count[c] < 2:
        return False
    has = False
    for j in range(peers.shape[1]):
        k = count[peers[c, j]]
        if k == 1:
            return False
        if 2 <= k <= degree:
            has = True
    return has


@njit(cache=True, nogil=True)
def _search(
    masks: NDArray[np.uint64], peers: NDArray[np.int32], cell_units: NDArray[np.int32], degree: int, skip: int,
    out_cells: NDArray[np.int64], out_gone: NDArray[np.uint64], out_common: NDArray[np.int64],
    touched: NDArray[np.bool_],
) -> int:
    """Find the (skip+1)-th aligned exclusion of ``degree`` (2 or 3) base cells that removes something, among
    those where a base cell or a cell that sees every base cell is ``touched`` (bool[cells]).

    Writes the base cells and the candidates they lose (masks) into ``out_cells``/``out_gone``, the common
    excluders into ``out_common``; returns their number, or 0 when there is none. The cells that see a base set
    are read as bitsets (each cell's peers, 64 cells a word, in increasing order as the peer table lists them),
    so the excluders, the tails and the touched cells of a set cost a few words, not a scan of the peers;
    ``_search_scan`` is the same search over the peer table, kept as its reference."""
    ncell = masks.shape[0]
    npeer = peers.shape[1]
    words = (ncell + 63) // 64
    count = np.zeros(ncell, dtype=np.int64)
    for c in range(ncell):
        count[c] = _popcount(masks[c])
    pbits = np.zeros((ncell, words), dtype=np.uint64)
    for c in range(ncell):
        for j in range(npeer):
            p = peers[c, j]
            pbits[c, p >> 6] |= _ONE << np.uint64(p & 63)
    small = np.zeros(words, dtype=np.uint64)  # cells of 2..degree candidates: the possible excluders
    hot = np.zeros(words, dtype=np.uint64)  # touched cells
    tails = np.zeros(words, dtype=np.uint64)  # base cells of at most 3 candidates
    base = np.empty(ncell, dtype=np.int64)
    nbase = 0
    for c in range(ncell):
        word, bit = c >> 6, _ONE << np.uint64(c & 63)
        if 2 <= count[c] <= degree:
            small[word] |= bit
        if touched[c]:
            hot[word] |= bit
        if _is_base_cell(c, count, peers, degree):
            base[nbase] = c
            nbase += 1
            if count[c] <= 3:
                tails[word] |= bit
    common_bits = np.empty(words, dtype=np.uint64)
    near_bits = np.empty(words, dtype=np.uint64)
    common = np.empty(npeer, dtype=np.int64)
    common3 = np.empty(npeer, dtype=np.int64)
    covers = np.empty(npeer, dtype=np.uint64)
    cells = np.empty(3, dtype=np.int64)
    gone = np.empty(3, dtype=np.uint64)
    found = 0
    for jb in range(1, nbase):
        b = base[jb]
        for ia in range(jb):
            a = base[ia]
            ncommon = 0
            any_near = False
            for w in range(words):
                both = pbits[a, w] & pbits[b, w]
                common_bits[w] = both & small[w]
                near_bits[w] = both & hot[w]
                if near_bits[w]:
                    any_near = True
                x = common_bits[w]
                while x:
                    low = x & (~x + _ONE)
                    x ^= low
                    common[ncommon] = w * 64 + _popcount(low - _ONE)
                    ncommon += 1
            if ncommon < 2:
                continue
            cells[0] = a
            cells[1] = b
            core = touched[a] or touched[b]
            if degree == 2:
                if not core and not any_near:
                    continue
                for k in range(ncommon):
                    covers[k] = masks[common[k]]
                if _pair_gone(masks, cell_units, cells, covers, ncommon, gone):
                    if found == skip:
                        return _write(  # type: ignore[no-any-return]  # see _write
                            cells, gone, common, ncommon, 2, out_cells, out_gone, out_common
                        )
                    found += 1
                continue
            for side in range(2):  # tails: excluders of a, then those of b not seen by a
                owner = a if side == 0 else b
                for w in range(words):
                    x = pbits[owner, w] & tails[w]
                    if side == 1:
                        x &= ~pbits[a, w]
                    if w == a >> 6:
                        x &= ~(_ONE << np.uint64(a & 63))
                    if w == b >> 6:
                        x &= ~(_ONE << np.uint64(b & 63))
                    while x:
                        low = x & (~x + _ONE)
                        x ^= low
                        c = w * 64 + _popcount(low - _ONE)
                        hit = core or touched[c]
                        if not hit:
                            for v in range(words):
                                if near_bits[v] & pbits[c, v]:
                                    hit = True
                                    break
                        if not hit:
                            continue
                        n3 = 0
                        for v in range(words):
                            y = common_bits[v] & pbits[c, v]
                            while y:
                                lowy = y & (~y + _ONE)
                                y ^= lowy
                                e = v * 64 + _popcount(lowy - _ONE)
                                common3[n3] = e
                                covers[n3] = masks[e]
                                n3 += 1
                        if n3 < 2:
                            continue
                        cells[2] = c
                        if _triple_gone(masks, cell_units, cells, covers, n3, gone):
                            if found == skip:
                                return _write(  # type: ignore[no-any-return]  # see _write
                                    cells, gone, common3, n3, 3, out_cells, out_gone, out_common
                                )
                            found += 1
    return 0


@njit(cache=True, nogil=True)
def _search_scan(
    masks: NDArray[np.uint64], peers: NDArray[np.int32], cell_units: NDArray[np.int32], degree: int, skip: int,
    out_cells: NDArray[np.int64], out_gone: NDArray[np.uint64], out_common: NDArray[np.int64],
    touched: NDArray[np.bool_],
) -> int:
    """Find the (skip+1)-th aligned exclusion of ``degree`` (2 or 3) base cells that removes something, among
    those where a base cell or a cell that sees every base cell is ``touched`` (bool[cells]).

    Writes the base cells and the candidates they lose (masks) into ``out_cells``/``out_gone``, the common
    excluders into ``out_common``; returns their number, or 0 when there is none. Cost: O(base cells^2 * peers)
    for the pairs, times the tail cells for triplets; each set is checked by witnesses, not by every
    combination. The reference of ``_search`` (which reads the same cells as bitsets).
    """
    ncell = masks.shape[0]
    npeer = peers.shape[1]
    count = np.zeros(ncell, dtype=np.int64)
    for c in range(ncell):
        count[c] = _popcount(masks[c])
    is_base = np.zeros(ncell, dtype=np.bool_)
    base = np.empty(ncell, dtype=np.int64)
    nbase = 0
    for c in range(ncell):
        if _is_base_cell(c, count, peers, degree):
            base[nbase] = c
            nbase += 1
            is_base[c] = True
    common = np.empty(npeer, dtype=np.int64)
    common3 = np.empty(npeer, dtype=np.int64)
    near = np.empty(npeer, dtype=np.int64)  # the touched cells that see both a and b
    covers = np.empty(npeer, dtype=np.uint64)
    cells = np.empty(3, dtype=np.int64)
    gone = np.empty(3, dtype=np.uint64)
    found = 0
    for jb in range(1, nbase):
        b = base[jb]
        for ia in range(jb):
            a = base[ia]
            ncommon = 0
            nnear = 0
            for j in range(npeer):
                p = peers[a, j]
                if not _sees(cell_units, p, b):
                    continue
                if 2 <= count[p] <= degree:
                    common[ncommon] = p
                    ncommon += 1
                if touched[p]:
                    near[nnear] = p
                    nnear += 1
            if ncommon < 2:
                continue
            cells[0] = a
            cells[1] = b
            core = touched[a] or touched[b]
            if degree == 2:
                if not core and nnear == 0:
                    continue
                for k in range(ncommon):
                    covers[k] = masks[common[k]]
                if _pair_gone(masks, cell_units, cells, covers, ncommon, gone):
                    if found == skip:
                        return _write(  # type: ignore[no-any-return]  # see _write
                            cells, gone, common, ncommon, 2, out_cells, out_gone, out_common
                        )
                    found += 1
                continue
            for side in range(2):  # tails: excluders of a, then those of b not seen by a
                owner = a if side == 0 else b
                for j in range(npeer):
                    c = peers[owner, j]
                    if not is_base[c] or count[c] > 3:
                        continue
                    if c == a:
                        continue
                    if c == b:
                        continue
                    if side == 1 and _sees(cell_units, a, c):
                        continue
                    hit = core or touched[c]
                    for k in range(nnear):
                        if hit:
                            break
                        hit = _sees(cell_units, near[k], c)
                    if not hit:
                        continue
                    n3 = 0
                    for k in range(ncommon):
                        if _sees(cell_units, common[k], c):
                            common3[n3] = common[k]
                            covers[n3] = masks[common[k]]
                            n3 += 1
                    if n3 < 2:
                        continue
                    cells[2] = c
                    if _triple_gone(masks, cell_units, cells, covers, n3, gone):
                        if found == skip:
                            return _write(  # type: ignore[no-any-return]  # see _write
                                cells, gone, common3, n3, 3, out_cells, out_gone, out_common
                            )
                        found += 1
    return 0


# ``@borrowing`` (``bitdoku.kernels.jit``) is typed ``-> Any``, so mypy sees this helper's count as Any: the kernels
# that return it carry ``# type: ignore[no-any-return]``.
@borrowing
def _write(
    cells: NDArray[np.int64], gone: NDArray[np.uint64], common: NDArray[np.int64], ncommon: int, degree: int,
    out_cells: NDArray[np.int64], out_gone: NDArray[np.uint64], out_common: NDArray[np.int64],
) -> int:
    for i in range(degree):
        out_cells[i] = cells[i]
        out_gone[i] = gone[i]
    for k in range(ncommon):
        out_common[k] = common[k]
    return ncommon


@borrowing
def _pair_gone(
    masks: NDArray[np.uint64], cell_units: NDArray[np.int32], cells: NDArray[np.int64], covers: NDArray[np.uint64],
    ncovers: int, gone: NDArray[np.uint64],
) -> bool:
    """For two base cells: the values with no possible partner (an equal value in a cell it sees, or one
    that completes an excluder's pair, is impossible). True when something goes."""
    any_gone = False
    for x in range(2):
        me = cells[x]
        other = cells[1 - x]
        seeing = _sees(cell_units, me, other)
        lost = _ZERO
        values = masks[me]
        while values:
            bit = values & (~values + _ONE)
            values ^= bit
            forbidden = bit if seeing else _ZERO
            for k in range(ncovers):
                if covers[k] & bit:
                    forbidden |= covers[k] & ~bit
            if masks[other] & ~forbidden == _ZERO:
                lost |= bit
        gone[x] = lost
        if lost:
            any_gone = True
    return any_gone


@borrowing
def _triple_gone(
    masks: NDArray[np.uint64], cell_units: NDArray[np.int32], cells: NDArray[np.int64], covers: NDArray[np.uint64],
    ncovers: int, gone: NDArray[np.uint64],
) -> bool:
    """For three base cells: the values of each with no possible completion by the other two (equal values
    in cells that see each other, or values that hold every candidate of an excluder, are impossible)."""
    any_gone = False
    for x in range(3):
        me = cells[x]
        y = cells[(x + 1) % 3]
        z = cells[(x + 2) % 3]
        sees_xy = _sees(cell_units, me, y)
        sees_xz = _sees(cell_units, me, z)
        sees_yz = _sees(cell_units, y, z)
        lost = _ZERO
        values = masks[me]
        while values:
            bv = values & (~values + _ONE)
            values ^= bv
            possible = False
            others = masks[y]
            while others and not possible:
                bu = others & (~others + _ONE)
                others ^= bu
                if sees_xy and bu == bv:
                    continue
                forbidden = _ZERO
                if sees_xz:
                    forbidden |= bv
                if sees_yz:
                    forbidden |= bu
                blocked = False
                for k in range(ncovers):
                    rest = covers[k] & ~(bv | bu)
                    if rest == _ZERO:
                        blocked = True
                        break
                    if rest & (rest - _ONE) == _ZERO:
                        forbidden |= rest
                if not blocked and masks[z] & ~forbidden != _ZERO:
                    possible = True
            if not possible:
                lost |= bv
        gone[x] = lost
        if lost:
            any_gone = True
    return any_gone
