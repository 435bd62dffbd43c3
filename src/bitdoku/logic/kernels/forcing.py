"""Compiled propagation of forcing-chain assumptions (the engine of ``logic.forcing``).

A *node* is one live candidate in one state: ``2*l`` says "candidate l is off" (not the cell's digit), ``2*l + 1``
"candidate l is on" (l indexes the live candidates of the grid, ``cand_id[cell*n + digit-1]``). A *run* starts
from one node (the assumption) and derives every node that follows, breadth first with "on" nodes first, as
Sudoku Explainer (SE) does. Each derived node keeps its *parents* (the nodes it follows from), so that the
explanation can be traced back and the chain's complexity counted as SE counts it: the number of distinct nodes
among the ancestors of the conclusion (the node included).

Rules, by mode (``xonly``, ``dynamic``, ``level``):

- on -> off: the other candidates of the cell (not with ``xonly``, the Nishio mode) and the digit in the other
  cells of the cell's box, row and column;
- off -> on: the cell's last candidate (not with ``xonly``) and the digit's last place in a box, row or column;
- ``dynamic``: each processed "off" leaves the working grid, so the last-candidate / last-place rules see the
  grid as the assumption changes it (the removed candidates are "hidden parents" of what they force); static runs
  (``dynamic=0``) see only the original grid (bivalue cells, bilocal units);
- ``level >= 1`` (SE's "dynamic plus"): when nothing is pending, locked candidates, hidden pairs, naked pairs and
  X-Wings of the working grid add "off" nodes (parents: the removed candidates the pattern relies on);
- ``level >= 2`` (nested): when those find nothing either, every candidate still open is tested by an inner run
  (static, dynamic or dynamic plus, ``inner``); a candidate whose assumption leads the inner run to a
  contradiction is off, with the outer removals the inner chain used as parents and the inner chain's complexity
  as its weight.

A run stops at the first node derived both on and off (a contradiction). Effort is bounded by construction: a
run derives each of the 2L nodes at most once, and a nested sweep makes at most L inner runs per fixpoint.

Engine scratch (one set per run, reused): ``cur`` (working masks), ``cnt`` (places of each digit in each unit),
``der`` (derived flags), ``pstart``/``plen``/``pool`` (parents), ``order`` (derivation order), ``qon``/``qoff``
(queues), ``cause`` (how a node was derived), ``weight`` (nested complexity), ``meta`` (counters, see ``M_*``).
Node ``2L`` is the *virtual* node: the second half of a contradiction, kept with its parents.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitdoku.kernels.jit import borrowing

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

# meta slots
M_NORD, M_PTOP, M_QON_H, M_QON_T, M_QOFF_H, M_QOFF_T, M_CONFLICT, M_STATUS, M_VIRTUAL, M_WEIGHTED = range(10)
META_SIZE = 10

# run status
RUNNING = 0
CONFLICT = 1
OVERFLOW = 3

# causes
CAUSE_CELL = -1
CAUSE_SOURCE = -2
CAUSE_LINK = -3
CAUSE_ADVANCED = -4
CAUSE_NESTED = -5

# hint kinds
CONTRA_ON = 0
CONTRA_OFF = 1
DOUBLE = 2
CELL = 3
UNIT = 4

_UNIT_ORDER = (2, 0, 1)  # box, row, column: SE's order of regions


@njit(cache=True, nogil=True, inline="always")
def popcount(x):
    """Set bits of a uint64."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True, inline="always")
def _push(pool, meta, value):
    """Append a parent to the pool; on overflow mark the run (its derivations so far stay sound)."""
    top = meta[M_PTOP]
    if top >= pool.shape[0]:
        meta[M_STATUS] = OVERFLOW
        return
    pool[top] = value
    meta[M_PTOP] = top + 1


@njit(cache=True, nogil=True, inline="always")
def _add(node, start, cause_code, w, der, pstart, plen, cause, weight, order, qon, qoff, meta, virtual):
    """Derive ``node`` with the parents pool[start:ptop]. Returns 0 (known already), 1 (added), 2 (stop: a
    contradiction, kept as the virtual node, or an overflow)."""
    if meta[M_STATUS] == OVERFLOW:
        return 2
    if der[node]:
        meta[M_PTOP] = start
        return 0
    count = meta[M_PTOP] - start
    if der[node ^ 1]:
        pstart[virtual] = start
        plen[virtual] = count
        cause[virtual] = cause_code
        weight[virtual] = w
        meta[M_CONFLICT] = node ^ 1
        meta[M_VIRTUAL] = node
        meta[M_STATUS] = CONFLICT
        return 2
    der[node] = 1
    pstart[node] = start
    plen[node] = count
    cause[node] = cause_code
    weight[node] = w
    if w > 0:
        meta[M_WEIGHTED] = 1
    order[meta[M_NORD]] = node
    meta[M_NORD] += 1
    if node & 1:
        qon[meta[M_QON_T]] = node
        meta[M_QON_T] += 1
    else:
        qoff[meta[M_QOFF_T]] = node
        meta[M_QOFF_T] += 1
    return 1


@njit(cache=True, nogil=True, inline="always")
def _start(src, n, orig, cnt0, cur, cnt, der, pstart, plen, cause, weight, order, qon, qoff, meta, virtual):
    """Reset an engine to the grid ``orig`` and derive the assumption ``src``."""
    for c in range(n * n):
        cur[c] = orig[c]
    for u in range(3 * n):
        for d in range(n):
            cnt[u, d] = cnt0[u, d]
    for k in range(meta[M_NORD]):  # only what the last run derived (der starts all zero)
        der[order[k]] = 0
    for i in range(META_SIZE):
        meta[i] = 0
    meta[M_CONFLICT] = -1
    _add(src, 0, CAUSE_SOURCE, 0, der, pstart, plen, cause, weight, order, qon, qoff, meta, virtual)


@njit(cache=True, nogil=True)
def peer_links(n, units, cell_units, orig, cid, ccell, cdig, L):
    """The "off" targets of each candidate's "on" node in the grid ``orig``, in the order SE processes them: the
    cell's other candidates (ascending), then the digit's other places in the cell's box, row and column (unit
    order; a cell in two of those units is listed twice, as a scan of the units meets it twice).

    One int32 array: ``links[lo]`` .. ``links[lo + 1]`` bound candidate lo's targets (candidate ids) and
    ``links[L + 1 + lo]`` is where its unit part starts (the Nishio mode skips the cell part). Built once a grid,
    it saves every "on" node of every run a scan of its three units."""
    total = 0
    for lo in range(L):
        c = ccell[lo]
        bit = _ONE << np.uint64(cdig[lo])
        total += popcount(orig[c]) - 1
        for k in _UNIT_ORDER:
            u = cell_units[c, k]
            for i in range(n):
                c2 = units[u, i]
                if c2 != c and (orig[c2] & bit):
                    total += 1
    head = 2 * L + 1
    links = np.empty(head + total, np.int32)
    pos = head
    for lo in range(L):
        c = ccell[lo]
        d = cdig[lo]
        bit = _ONE << np.uint64(d)
        links[lo] = pos
        m = orig[c] & ~bit
        for e in range(n):
            if (m >> np.uint64(e)) & _ONE:
                links[pos] = cid[c * n + e]
                pos += 1
        links[L + 1 + lo] = pos
        for k in _UNIT_ORDER:
            u = cell_units[c, k]
            for i in range(n):
                c2 = units[u, i]
                if c2 != c and (orig[c2] & bit):
                    links[pos] = cid[c2 * n + d]
                    pos += 1
    links[L] = pos
    return links


@njit(cache=True, nogil=True)
def grid_arrays(n, units, cell_units, orig):
    """The kernel's view of a grid (``forcing._arrays``): the live candidates' ids ``cid`` (cell*n + digit -> id,
    -1 if gone; ids increase with cell*n + digit), their cells and digits, each unit's places of each digit
    ``cnt0`` and ``peer_links``."""
    ncells = n * n
    cid = np.full(ncells * n, -1, np.int32)
    live = 0
    for c in range(ncells):
        for d in range(n):
            if (orig[c] >> np.uint64(d)) & _ONE:
                cid[c * n + d] = live
                live += 1
    ccell = np.empty(live, np.int32)
    cdig = np.empty(live, np.int32)
    for c in range(ncells):
        for d in range(n):
            lo = cid[c * n + d]
            if lo >= 0:
                ccell[lo] = c
                cdig[lo] = d
    cnt0 = np.zeros((units.shape[0], n), np.int32)
    for u in range(units.shape[0]):
        for i in range(units.shape[1]):
            m = orig[units[u, i]]
            for d in range(n):
                if (m >> np.uint64(d)) & _ONE:
                    cnt0[u, d] += 1
    links = peer_links(n, units, cell_units, orig, cid, ccell, cdig, live)
    return cid, cnt0, ccell, cdig, links


@borrowing
def _drain(n, units, cell_units, orig, cid, ccell, cdig, links, xonly, dynamic,
           cur, cnt, der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual):
    """Process pending nodes, "on" first, until none is left; True on a contradiction or an overflow.

    An "on" node: its cell's other candidates and its digit's other places in its units go off (the targets of
    ``peer_links`` still in the working grid, in that order). An "off" node: a cell left with one candidate, then
    a unit (box, row, column) left with one place for the digit, gets it "on" (the candidates removed before are
    hidden parents); then, if dynamic, the candidate leaves the grid.

    The pool and the derivations go through ``_push`` and ``_add``, inlined: compiled with Numba's runtime they took
    an atomic reference count of each array they were given at every derivation (about 70 % of a search), so they
    were written out here; in a function compiled without the runtime (``@borrowing``) they take none.
    """
    L = virtual >> 1
    while True:
        if meta[M_QON_H] < meta[M_QON_T]:
            node = qon[meta[M_QON_H]]
            meta[M_QON_H] += 1
            lo = node >> 1
            first = links[L + 1 + lo] if xonly else links[lo]
            for j in range(first, links[lo + 1]):
                t = links[j]
                if der[2 * t] or not (cur[ccell[t]] & (_ONE << np.uint64(cdig[t]))):
                    continue  # known already (``_add`` would drop it), or gone from the working grid
                start = meta[M_PTOP]
                _push(pool, meta, node)
                if _add(2 * t, start, CAUSE_LINK, 0, der, pstart, plen, cause, weight, order, qon, qoff, meta,
                        virtual) == 2:
                    return True
        elif meta[M_QOFF_H] < meta[M_QOFF_T]:
            node = qoff[meta[M_QOFF_H]]
            meta[M_QOFF_H] += 1
            lo = node >> 1
            c = ccell[lo]
            d = cdig[lo]
            bit = _ONE << np.uint64(d)
            for rule in range(4):  # the cell, then its box, row and column
                start = meta[M_PTOP]
                if rule == 0:
                    m = cur[c]
                    if xonly or popcount(m) != 2:
                        continue
                    other = m & ~bit
                    e = 0
                    while (other >> np.uint64(e)) & _ONE == _ZERO:
                        e += 1
                    target = 2 * cid[c * n + e] + 1
                    code = CAUSE_CELL
                    _push(pool, meta, node)
                    _push_removed_cell(c, n, orig, cur, cid, pool, meta)
                else:
                    u = cell_units[c, _UNIT_ORDER[rule - 1]]
                    if cnt[u, d] != 2:
                        continue
                    other_cell = -1
                    for i in range(n):
                        c2 = units[u, i]
                        if c2 != c and (cur[c2] & bit):
                            other_cell = c2
                            break
                    if other_cell < 0:
                        continue
                    target = 2 * cid[other_cell * n + d] + 1
                    code = u
                    _push(pool, meta, node)
                    _push_removed(u, d, n, units, orig, cur, cid, pool, meta)
                if _add(target, start, code, 0, der, pstart, plen, cause, weight, order, qon, qoff, meta,
                        virtual) == 2:
                    return True
            if dynamic:
                cur[c] &= ~bit
                for k in range(3):
                    cnt[cell_units[c, k], d] -= 1
        else:
            return False


@njit(cache=True, nogil=True)
def static_off_links(n, units, cell_units, orig, cid, ccell, cdig, L, xonly):
    """What each candidate's "off" node forces in a static run (the grid never changes, so ``_drain``'s rules
    always give the same): the cell's other candidate when the cell has two (not with ``xonly``), then the
    digit's other place in each of the box, row and column where it has two, as (target node, cause) pairs in
    that order (a place twice when it is the other one in two units, as the rules meet it twice).
    ``out[lo]`` .. ``out[lo + 1]`` bound candidate lo's pairs, stored from ``out[L + 1]`` on, two ints each."""
    out = np.empty(L + 1 + 8 * L, np.int32)  # at most four pairs a candidate
    pos = L + 1
    for lo in range(L):
        out[lo] = pos
        c = ccell[lo]
        d = cdig[lo]
        bit = _ONE << np.uint64(d)
        m = orig[c]
        if not xonly and popcount(m) == 2:
            other = m & ~bit
            e = 0
            while (other >> np.uint64(e)) & _ONE == _ZERO:
                e += 1
            out[pos] = 2 * cid[c * n + e] + 1
            out[pos + 1] = CAUSE_CELL
            pos += 2
        for k in _UNIT_ORDER:
            u = cell_units[c, k]
            places = 0
            other_cell = -1
            for i in range(n):
                c2 = units[u, i]
                if orig[c2] & bit:
                    places += 1
                    if c2 != c and other_cell < 0:
                        other_cell = c2
            if places == 2 and other_cell >= 0:
                out[pos] = 2 * cid[other_cell * n + d] + 1
                out[pos + 1] = u
                pos += 2
    out[L] = pos
    return out


@borrowing
def _drain_static(links, off_links, xonly, der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual):
    """``_drain`` for a static run (``dynamic=0``, level 0): the working grid is the grid, so every "on" target
    of ``peer_links`` is live and an "off" node forces its ``static_off_links`` (the removed candidates that
    ``_drain`` adds as hidden parents are none). The same derivations, parents and order as ``_drain``."""
    L = virtual >> 1
    while True:
        if meta[M_QON_H] < meta[M_QON_T]:
            node = qon[meta[M_QON_H]]
            meta[M_QON_H] += 1
            lo = node >> 1
            first = links[L + 1 + lo] if xonly else links[lo]
            for j in range(first, links[lo + 1]):
                t = links[j]
                if der[2 * t]:
                    continue  # known already (``_add`` would drop it)
                start = meta[M_PTOP]
                _push(pool, meta, node)
                if _add(2 * t, start, CAUSE_LINK, 0, der, pstart, plen, cause, weight, order, qon, qoff, meta,
                        virtual) == 2:
                    return True
        elif meta[M_QOFF_H] < meta[M_QOFF_T]:
            node = qoff[meta[M_QOFF_H]]
            meta[M_QOFF_H] += 1
            lo = node >> 1
            for j in range(off_links[lo], off_links[lo + 1], 2):
                start = meta[M_PTOP]
                _push(pool, meta, node)
                if _add(off_links[j], start, off_links[j + 1], 0, der, pstart, plen, cause, weight, order, qon,
                        qoff, meta, virtual) == 2:
                    return True
        else:
            return False


@njit(cache=True, nogil=True, inline="always")
def _push_removed(u, d, n, units, orig, cur, cid, pool, meta):
    """Parents: the places of digit d in unit u that the run removed."""
    bit = _ONE << np.uint64(d)
    for i in range(n):
        c = units[u, i]
        if (orig[c] & bit) and not (cur[c] & bit):
            _push(pool, meta, 2 * cid[c * n + d])


@njit(cache=True, nogil=True, inline="always")
def _push_removed_cell(c, n, orig, cur, cid, pool, meta):
    """Parents: the candidates of cell c that the run removed."""
    gone = orig[c] & ~cur[c]
    for f in range(n):
        if (gone >> np.uint64(f)) & _ONE:
            _push(pool, meta, 2 * cid[c * n + f])


@borrowing
def _derive_removed(node, by_cells, a, da, b, db, n, units, orig, cur, cid,
                    der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual):
    """Derive ``node`` ("off") from a pattern of the working grid; its parents are the removals it relies on: the
    places of digit ``da`` in unit ``a`` and of ``db`` in unit ``b`` that the run removed, or (``by_cells``) the
    candidates the run removed from cells ``a`` and ``b``. Returns ``_add``'s code, or 3 when the run removed none
    of them: the pattern holds without the assumption, so none of its nodes counts."""
    if der[node]:
        return 0
    start = meta[M_PTOP]
    if by_cells:
        _push_removed_cell(a, n, orig, cur, cid, pool, meta)
        _push_removed_cell(b, n, orig, cur, cid, pool, meta)
    else:
        _push_removed(a, da, n, units, orig, cur, cid, pool, meta)
        _push_removed(b, db, n, units, orig, cur, cid, pool, meta)
    if meta[M_PTOP] == start:
        return 3
    return _add(node, start, CAUSE_ADVANCED, 0, der, pstart, plen, cause, weight, order, qon, qoff, meta, virtual)


@borrowing
def _locked(n, units, cell_units, orig, cnt0, cid, cur, cnt,
            der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual):
    """Locked candidates: a line (row/column) or box whose places for d all lie in one crossing unit; the digit
    leaves the crossing unit's other cells. Returns the nodes added, or -1 on a contradiction."""
    added = 0
    for u in range(3 * n):
        for d in range(n):
            if cnt[u, d] < 2 or cnt[u, d] == cnt0[u, d]:
                continue
            bit = _ONE << np.uint64(d)
            for kind in range(3):
                if (u >= 2 * n) == (kind == 2):
                    continue  # a box crosses lines, a line crosses boxes
                target = -1
                ok = True
                for i in range(n):
                    c = units[u, i]
                    if cur[c] & bit:
                        t = cell_units[c, kind]
                        if target < 0:
                            target = t
                        elif t != target:
                            ok = False
                            break
                if not ok or target < 0:
                    continue
                start_parents = meta[M_PTOP]
                _push_removed(u, d, n, units, orig, cur, cid, pool, meta)
                parents_end = meta[M_PTOP]
                if parents_end == start_parents:
                    continue
                before = added
                for i in range(n):
                    c2 = units[target, i]
                    if (cur[c2] & bit) and cell_units[c2, u // n] != u:
                        node = 2 * cid[c2 * n + d]
                        if der[node]:
                            continue
                        start = meta[M_PTOP]
                        for j in range(start_parents, parents_end):
                            _push(pool, meta, pool[j])
                        r = _add(node, start, CAUSE_ADVANCED, 0,
                                 der, pstart, plen, cause, weight, order, qon, qoff, meta, virtual)
                        if r == 2:
                            return -1
                        added += r
                if added == before:
                    meta[M_PTOP] = start_parents
    return added


@borrowing
def _hidden_pairs(n, units, cell_units, orig, cnt0, cid, cur, cnt,
                  der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual):
    """Hidden pairs: two digits with the same two places in a unit; the cells' other candidates go. Returns the
    nodes added, or -1 on a contradiction."""
    added = 0
    for u in range(3 * n):
        for d1 in range(n):
            if cnt[u, d1] != 2:
                continue
            b1 = _ONE << np.uint64(d1)
            for d2 in range(d1 + 1, n):
                if cnt[u, d2] != 2 or (cnt0[u, d1] == 2 and cnt0[u, d2] == 2):
                    continue
                b2 = _ONE << np.uint64(d2)
                same = True
                for i in range(n):
                    c = units[u, i]
                    if ((cur[c] & b1) != _ZERO) != ((cur[c] & b2) != _ZERO):
                        same = False
                        break
                if not same:
                    continue
                for i in range(n):
                    c = units[u, i]
                    if not (cur[c] & b1):
                        continue
                    rest = cur[c] & ~(b1 | b2)
                    for e in range(n):
                        if (rest >> np.uint64(e)) & _ONE:
                            r = _derive_removed(2 * cid[c * n + e], False, u, d1, u, d2, n, units, orig, cur, cid,
                                                der, pstart, plen, pool, cause, weight, order, qon, qoff, meta,
                                                virtual)
                            if r == 3:
                                break
                            if r == 2:
                                return -1
                            added += r
    return added


@borrowing
def _naked_pairs(n, units, cell_units, orig, cnt0, cid, cur, cnt,
                 der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual):
    """Naked pairs: two cells of a unit with the same two candidates; the digits leave the unit's other cells.
    Returns the nodes added, or -1 on a contradiction."""
    added = 0
    for u in range(3 * n):
        for i in range(n):
            ca = units[u, i]
            m = cur[ca]
            if popcount(m) != 2:
                continue
            for j in range(i + 1, n):
                cb = units[u, j]
                if cur[cb] != m or (orig[ca] == m and orig[cb] == m):
                    continue
                for k in range(n):
                    c = units[u, k]
                    if c == ca or c == cb or not (cur[c] & m):  # noqa: SIM109 (Numba)
                        continue
                    hit = cur[c] & m
                    for e in range(n):
                        if (hit >> np.uint64(e)) & _ONE:
                            r = _derive_removed(2 * cid[c * n + e], True, ca, 0, cb, 0, n, units, orig, cur, cid,
                                                der, pstart, plen, pool, cause, weight, order, qon, qoff, meta,
                                                virtual)
                            if r == 3:
                                break
                            if r == 2:
                                return -1
                            added += r
    return added


@borrowing
def _x_wings(n, units, cell_units, orig, cnt0, cid, cur, cnt,
             der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual):
    """X-Wings: two rows (columns) whose places for d are the same two columns (rows); d leaves those columns'
    (rows') other cells. Returns the nodes added, or -1 on a contradiction."""
    added = 0
    for base in range(0, 2 * n, n):
        cover_kind = 1 if base == 0 else 0
        for d in range(n):
            bit = _ONE << np.uint64(d)
            for r1 in range(base, base + n):
                if cnt[r1, d] != 2:
                    continue
                for r2 in range(r1 + 1, base + n):
                    if cnt[r2, d] != 2 or (cnt0[r1, d] == 2 and cnt0[r2, d] == 2):
                        continue
                    same = True
                    for i in range(n):
                        if ((cur[units[r1, i]] & bit) != _ZERO) != ((cur[units[r2, i]] & bit) != _ZERO):
                            same = False
                            break
                    if not same:
                        continue
                    for i in range(n):
                        c = units[r1, i]
                        if not (cur[c] & bit):
                            continue
                        cover = cell_units[c, cover_kind]
                        for j in range(n):
                            c2 = units[cover, j]
                            if not (cur[c2] & bit):
                                continue
                            line = cell_units[c2, 0 if base == 0 else 1]
                            if line == r1 or line == r2:  # noqa: SIM109 (Numba)
                                continue
                            r = _derive_removed(2 * cid[c2 * n + d], False, r1, d, r2, d, n, units, orig, cur, cid,
                                                der, pstart, plen, pool, cause, weight, order, qon, qoff, meta,
                                                virtual)
                            if r == 3:
                                break
                            if r == 2:
                                return -1
                            added += r
    return added


@borrowing
def _advanced(n, units, cell_units, orig, cnt0, cid, cur, cnt,
              der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual):
    """SE's "dynamic plus" rules on the working grid, first rule that finds something: locked candidates, hidden
    pairs, naked pairs, X-Wings. Only patterns that rely on a removal of the run count (others hold without the
    assumption, so only units where the run removed the digit are looked at). Returns the number of nodes
    added, or -1 on a contradiction."""
    added = _locked(n, units, cell_units, orig, cnt0, cid, cur, cnt,
                    der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual)
    if added:
        return added
    added = _hidden_pairs(n, units, cell_units, orig, cnt0, cid, cur, cnt,
                          der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual)
    if added:
        return added
    added = _naked_pairs(n, units, cell_units, orig, cnt0, cid, cur, cnt,
                         der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual)
    if added:
        return added
    return _x_wings(n, units, cell_units, orig, cnt0, cid, cur, cnt,
                    der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual)


@borrowing
def _ancestor_count(target, pstart, plen, pool, weight, stamp, stack, mark):
    """Distinct ancestors of ``target`` (itself included), plus their nested weights: SE's complexity of one
    chain. ``stamp`` holds ``mark`` for the nodes seen."""
    top = 0
    stack[0] = target
    stamp[target] = mark
    total = 0
    while top >= 0:
        node = stack[top]
        top -= 1
        total += 1 + weight[node]
        for j in range(pstart[node], pstart[node] + plen[node]):
            p = pool[j]
            if stamp[p] != mark:
                stamp[p] = mark
                top += 1
                stack[top] = p
    return total


@borrowing
def _nested(n, units, cell_units, orig, cid, ccell, cdig, links, L, cur, cnt,
            der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual,
            inner_dynamic, inner_level,
            icur, icnt, ider, ipstart, iplen, ipool, icause, iweight, iorder, iqon, iqoff, imeta,
            stamp, stack, seen):
    """Nested step: each open candidate of the working grid whose assumption makes an inner run contradict
    itself goes off. Parents: the outer removals the inner chain's singles relied on (SE's rule parents).
    Returns the number added, or -1 on a contradiction."""
    added = 0
    for lo in range(L):
        c = ccell[lo]
        d = cdig[lo]
        bit = _ONE << np.uint64(d)
        if not (cur[c] & bit) or popcount(cur[c]) < 2 or der[2 * lo] or der[2 * lo + 1]:
            continue
        _run_inner(2 * lo + 1, n, units, cell_units, cur, cnt, cid, ccell, cdig, links, inner_dynamic, inner_level,
                   icur, icnt, ider, ipstart, iplen, ipool, icause, iweight, iorder, iqon, iqoff, imeta, virtual)
        if imeta[M_STATUS] != CONFLICT:
            continue
        # the inner chain's complexity
        stamp[0] += 1
        w = _ancestor_count(imeta[M_CONFLICT], ipstart, iplen, ipool, iweight, seen, stack, stamp[0])
        stamp[0] += 1
        w += _ancestor_count(virtual, ipstart, iplen, ipool, iweight, seen, stack, stamp[0])
        # rule parents: walk the inner ancestors of both halves
        stamp[0] += 1
        mark = stamp[0]
        start = meta[M_PTOP]
        top = -1
        for first in (imeta[M_CONFLICT], virtual):
            if seen[first] != mark:
                seen[first] = mark
                top += 1
                stack[top] = first
        while top >= 0:
            node = stack[top]
            top -= 1
            code = icause[node]
            if node & 1 or node == virtual:
                vnode = imeta[M_VIRTUAL] if node == virtual else node
                if vnode & 1:
                    vc = ccell[vnode >> 1]
                    vd = cdig[vnode >> 1]
                    if code == CAUSE_CELL:
                        _push_removed_cell(vc, n, orig, cur, cid, pool, meta)
                    elif code >= 0:
                        _push_removed(code, vd, n, units, orig, cur, cid, pool, meta)
            for j in range(ipstart[node], ipstart[node] + iplen[node]):
                p = ipool[j]
                if seen[p] != mark:
                    seen[p] = mark
                    top += 1
                    stack[top] = p
        # keep each parent once
        stamp[0] += 1
        mark = stamp[0]
        write = start
        for j in range(start, meta[M_PTOP]):
            p = pool[j]
            if seen[p] != mark:
                seen[p] = mark
                pool[write] = p
                write += 1
        meta[M_PTOP] = write
        r = _add(2 * lo, start, CAUSE_NESTED, w, der, pstart, plen, cause, weight, order, qon, qoff, meta, virtual)
        if r == 2:
            return -1
        added += r
    return added


@borrowing
def _run_inner(src, n, units, cell_units, orig, cnt0, cid, ccell, cdig, links, dynamic, level,
               cur, cnt, der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual):
    """A run without nesting (level 0 or 1), for the nested step."""
    _start(src, n, orig, cnt0, cur, cnt, der, pstart, plen, cause, weight, order, qon, qoff, meta, virtual)
    while True:
        if _drain(n, units, cell_units, orig, cid, ccell, cdig, links, np.int64(0), dynamic,
                  cur, cnt, der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual):
            return
        if level < 1 or not dynamic:
            return
        if _advanced(n, units, cell_units, orig, cnt0, cid, cur, cnt,
                     der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual) == 0:
            return
        if meta[M_STATUS] != RUNNING:
            return


@borrowing
def run(src, n, units, cell_units, orig, cnt0, cid, ccell, cdig, links, L, xonly, dynamic, level, inner_dynamic,
        inner_level, cur, cnt, der, pstart, plen, pool, cause, weight, order, qon, qoff, meta,
        icur, icnt, ider, ipstart, iplen, ipool, icause, iweight, iorder, iqon, iqoff, imeta, stamp, stack, seen):
    """One run from node ``src``; the engine arrays hold its derivations, ``meta`` its status."""
    virtual = 2 * L
    _start(src, n, orig, cnt0, cur, cnt, der, pstart, plen, cause, weight, order, qon, qoff, meta, virtual)
    while True:
        if _drain(n, units, cell_units, orig, cid, ccell, cdig, links, xonly, dynamic,
                  cur, cnt, der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual):
            return
        if level < 1 or not dynamic:
            return
        got = _advanced(n, units, cell_units, orig, cnt0, cid, cur, cnt,
                        der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual)
        if got < 0 or meta[M_STATUS] != RUNNING:
            return
        if got == 0 and level >= 2:
            got = _nested(n, units, cell_units, orig, cid, ccell, cdig, links, L, cur, cnt,
                          der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual,
                          inner_dynamic, inner_level,
                          icur, icnt, ider, ipstart, iplen, ipool, icause, iweight, iorder, iqon, iqoff, imeta,
                          stamp, stack, seen)
            if got < 0 or meta[M_STATUS] != RUNNING:
                return
        if got == 0:
            return


@borrowing
def _count_all(L, der, pstart, plen, pool, weight, order, meta, bits, out):
    """SE complexity of every derived node of a run (and of the virtual node): the distinct ancestors, as
    bitsets built in derivation order, plus nested weights when the run has any. ``out`` (int32[2L+1]) gets 0
    for nodes not derived."""
    nodes = 2 * L + 1
    words = bits.shape[1]
    for i in range(nodes):
        out[i] = 0
    total = meta[M_NORD] + (1 if meta[M_STATUS] == CONFLICT else 0)
    for k in range(total):
        node = order[k] if k < meta[M_NORD] else 2 * L
        for w in range(words):
            bits[node, w] = _ZERO
        bits[node, node >> 6] |= _ONE << np.uint64(node & 63)
        for j in range(pstart[node], pstart[node] + plen[node]):
            p = pool[j]
            for w in range(words):
                bits[node, w] |= bits[p, w]
        count = 0
        for w in range(words):
            count += popcount(bits[node, w])
        if meta[M_WEIGHTED]:
            for w in range(words):
                b = bits[node, w]
                while b:
                    low = b & (~b + _ONE)
                    idx = w * 64 + popcount(low - _ONE)
                    count += weight[idx]
                    b ^= low
        out[node] = count


@borrowing
def _store(r, L, der, pstart, plen, pool, weight, order, meta, dset, pst_all, pln_all, wt_all, pool_all, top):
    """Keep run r's derivations (derived set as bits, parents, weights) for the hints; False when the shared pool
    is full (the run is then dropped, which loses hints, never soundness)."""
    words = dset.shape[1]
    for w in range(words):
        dset[r, w] = _ZERO
    size = meta[M_PTOP]
    base = top[0]
    if base + size > pool_all.shape[0]:
        return False
    for j in range(size):
        pool_all[base + j] = pool[j]
    top[0] = base + size
    total = meta[M_NORD] + (1 if meta[M_STATUS] == CONFLICT else 0)
    for k in range(total):
        node = order[k] if k < meta[M_NORD] else 2 * L
        dset[r, node >> 6] |= _ONE << np.uint64(node & 63)
        pst_all[r, node] = base + pstart[node]
        pln_all[r, node] = plen[node]
        wt_all[r, node] = weight[node]
    return True


@borrowing
def _complexity(r, target, pst_all, pln_all, wt_all, pool_all, seen, stack, stamp):
    """SE's complexity of one chain of run r: the distinct ancestors of ``target`` (itself included) plus their
    nested weights."""
    stamp[0] += 1
    mark = stamp[0]
    top = 0
    stack[0] = target
    seen[target] = mark
    total = 0
    while top >= 0:
        node = stack[top]
        top -= 1
        total += 1 + wt_all[r, node]
        start = pst_all[r, node]
        for j in range(start, start + pln_all[r, node]):
            p = pool_all[j]
            if seen[p] != mark:
                seen[p] = mark
                top += 1
                stack[top] = p
    return total


@borrowing
def _emit(hints, count, kind, a, b, target, cx):
    if count < hints.shape[0]:
        hints[count, 0] = kind
        hints[count, 1] = a
        hints[count, 2] = b
        hints[count, 3] = target
        hints[count, 4] = cx
        count += 1
    return count


@njit(cache=True, nogil=True)
def _run_arrays(n, nodes, pool_size):
    """One engine's arrays for runs over ``nodes`` nodes (``run``'s outer or inner set): the candidates and unit
    counts it changes, each node's derivation, parents (start and length in ``pool``), cause, weight and order,
    the on/off queues and ``meta``."""
    return (np.empty(n * n, np.uint64), np.empty((3 * n, n), np.int32), np.zeros(nodes, np.int8),
            np.zeros(nodes, np.int32), np.zeros(nodes, np.int32), np.empty(pool_size, np.int32),
            np.zeros(nodes, np.int32), np.zeros(nodes, np.int32), np.empty(nodes, np.int32),
            np.empty(nodes, np.int32), np.empty(nodes, np.int32), np.zeros(META_SIZE, np.int64))


@njit(cache=True, nogil=True)
def search(n, units, cell_units, orig, cnt0, cid, ccell, cdig, links, L, xonly, dynamic, level, inner_dynamic,
           inner_level, want_off, do_contra, do_double, do_cell, do_unit, min_cell, hints, max_runs, after_first,
           pool_all, dset, pst_all, pln_all, wt_all, static_links):
    """Run every live candidate on (and off when ``want_off``), then collect the hints: contradictions, double
    forcing (the same node from a candidate on and off, cells of 3+ candidates), cell forcing (from every
    candidate of a cell with ``min_cell``+ candidates), unit forcing (from every place of a digit in a unit).

    ``hints`` (int32[H, 5]: kind, a, b, target node, complexity) is filled up to its size; returns the number
    of hints. Effort: at most ``max_runs`` runs, whose parents share the pool ``pool_all`` (int32[P]: a run that
    does not fit is dropped); with ``after_first`` >= 0, only that many runs are made after the first one that
    leads to a contradiction ("on" runs first), to bound the nested searches.
    Complexities are counted only for the conclusions found, by a walk over the run's parents.
    ``static_links``: static runs (level 0, not dynamic) through ``_drain_static``, else ``_drain`` (the reference).

    Scratch given by the caller (so that its memory is reused from search to search): every run's derived set
    ``dset`` (uint64[>= 2L, >= words]) and parents ``pst_all``, ``pln_all``, ``wt_all`` (int32[>= 2L, >= 2L+1]);
    their contents on entry do not matter."""
    nodes = 2 * L + 1
    words = (nodes + 63) // 64
    ncells = n * n
    virtual = 2 * L
    pool_size = nodes * (2 * n + 2) + 4 * L * L * (1 if level >= 2 else 0)
    cur, cnt, der, pstart, plen, pool, cause, weight, order, qon, qoff, meta = _run_arrays(n, nodes, pool_size)
    inner_nodes = nodes if level >= 2 else 1
    (icur, icnt, ider, ipstart, iplen, ipool, icause, iweight, iorder, iqon, iqoff,
     imeta) = _run_arrays(n, inner_nodes, inner_nodes * (2 * n + 2))
    stamp = np.zeros(1, np.int64)
    stack = np.empty(nodes + 1, np.int32)
    seen = np.zeros(nodes, np.int64)
    # every run's derivations, by source node (2*lo + state)
    for r in range(2 * L):  # runs never made (or dropped) derive nothing
        for w in range(dset.shape[1]):
            dset[r, w] = _ZERO
    top = np.zeros(1, np.int64)
    conf = np.full(2 * L, -1, np.int32)
    static = static_links and level == 0 and not dynamic
    off_links = static_off_links(n, units, cell_units, orig, cid, ccell, cdig, L if static else 0, xonly)
    runs = 0
    limit = max_runs
    for state in (1, 0):
        if state == 0 and not want_off:
            continue
        for lo in range(L):
            r = 2 * lo + state
            if runs >= limit:
                continue
            runs += 1
            if static:  # a static run: a walk of fixed links
                _start(r, n, orig, cnt0, cur, cnt, der, pstart, plen, cause, weight, order, qon, qoff, meta, virtual)
                _drain_static(links, off_links, xonly, der, pstart, plen, pool, cause, weight, order, qon, qoff,
                              meta, virtual)
            elif level == 0:  # run's first drain is all of it: spared the call (a reference count an array)
                _start(r, n, orig, cnt0, cur, cnt, der, pstart, plen, cause, weight, order, qon, qoff, meta, virtual)
                _drain(n, units, cell_units, orig, cid, ccell, cdig, links, xonly, dynamic,
                       cur, cnt, der, pstart, plen, pool, cause, weight, order, qon, qoff, meta, virtual)
            else:
                run(r, n, units, cell_units, orig, cnt0, cid, ccell, cdig, links, L, xonly, dynamic, level,
                    inner_dynamic, inner_level, cur, cnt, der, pstart, plen, pool, cause, weight, order, qon, qoff,
                    meta, icur, icnt, ider, ipstart, iplen, ipool, icause, iweight, iorder, iqon, iqoff, imeta,
                    stamp, stack, seen)
            if not _store(r, L, der, pstart, plen, pool, weight, order, meta, dset, pst_all, pln_all, wt_all,
                          pool_all, top):
                continue
            if meta[M_STATUS] == CONFLICT:
                conf[r] = meta[M_CONFLICT]
                if after_first >= 0 and runs + after_first < limit:
                    limit = runs + after_first
    count = np.int64(0)  # typed: a literal 0 compiles _intersect and _emit_set a second time
    if do_contra:
        for state in (1, 0):
            for lo in range(L):
                r = 2 * lo + state
                if conf[r] >= 0:
                    cx = _complexity(r, conf[r], pst_all, pln_all, wt_all, pool_all, seen, stack, stamp)
                    cx += _complexity(r, virtual, pst_all, pln_all, wt_all, pool_all, seen, stack, stamp)
                    count = _emit(hints, count, CONTRA_ON if state == 1 else CONTRA_OFF, lo, np.int64(0), conf[r], cx)
    both = np.empty(words, np.uint64)
    if do_double and want_off:
        for lo in range(L):
            if popcount(orig[ccell[lo]]) < 3:
                continue
            for w in range(words):
                both[w] = dset[2 * lo + 1, w] & dset[2 * lo, w]
            count = _emit_set(both, words, L, (2 * lo + 1, 2 * lo), np.int64(2), pst_all, pln_all, wt_all, pool_all,
                              seen, stack, stamp, hints, count, np.int64(DOUBLE), lo, np.int64(0))
    members = np.empty(n, np.int32)
    if do_cell:
        for c in range(ncells):
            m = orig[c]
            if popcount(m) < min_cell:
                continue
            size = np.int64(0)
            for d in range(n):
                if (m >> np.uint64(d)) & _ONE:
                    members[size] = 2 * cid[c * n + d] + 1
                    size += 1
            count = _intersect(members, size, dset, both, words, L, pst_all, pln_all, wt_all, pool_all,
                               seen, stack, stamp, hints, count, np.int64(CELL), c, np.int64(0))
    if do_unit:
        for u in range(3 * n):
            for d in range(n):
                if cnt0[u, d] < 2:
                    continue
                bit = _ONE << np.uint64(d)
                size = np.int64(0)
                for i in range(n):
                    c = units[u, i]
                    if orig[c] & bit:
                        members[size] = 2 * cid[c * n + d] + 1
                        size += 1
                count = _intersect(members, size, dset, both, words, L, pst_all, pln_all, wt_all, pool_all,
                                   seen, stack, stamp, hints, count, np.int64(UNIT), u, d)
    return count


@borrowing
def _emit_set(bits, words, L, runs, size, pst_all, pln_all, wt_all, pool_all, seen, stack, stamp, hints, count,
              kind, a, b):
    """A hint for each node of ``bits`` (not the virtual one), its complexity summed over the runs given."""
    for w in range(words):
        x = bits[w]
        while x:
            low = x & (~x + _ONE)
            node = w * 64 + popcount(low - _ONE)
            x ^= low
            if node >= 2 * L:
                continue
            cx = 0
            for i in range(size):
                cx += _complexity(runs[i], node, pst_all, pln_all, wt_all, pool_all, seen, stack, stamp)
            count = _emit(hints, count, kind, a, b, node, cx)
    return count


@borrowing
def _intersect(members, size, dset, both, words, L, pst_all, pln_all, wt_all, pool_all, seen, stack, stamp,
               hints, count, kind, a, b):
    """Hints for the nodes that every member's "on" run derives (their complexities summed)."""
    any_bit = _ZERO
    for w in range(words):
        x = ~_ZERO
        for i in range(size):
            x &= dset[members[i], w]
        both[w] = x
        any_bit |= x
    if any_bit == _ZERO:
        return count
    return _emit_set(both, words, L, members, size, pst_all, pln_all, wt_all, pool_all, seen, stack, stamp, hints,
                     count, kind, a, b)


@njit(cache=True, nogil=True)
def trace(src, n, units, cell_units, orig, cnt0, cid, ccell, cdig, links, L, xonly, dynamic, level, inner_dynamic,
          inner_level, pstart, plen, pool, cause, weight, order, meta, der, anc):
    """One run whose parents are kept for the explanation (the engine arrays given are filled); ``anc`` gets
    the complexities as in ``search``."""
    nodes = 2 * L + 1
    words = (nodes + 63) // 64
    ncells = n * n
    cur = np.empty(ncells, np.uint64)
    cnt = np.empty((3 * n, n), np.int32)
    qon = np.empty(nodes, np.int32)
    qoff = np.empty(nodes, np.int32)
    (icur, icnt, ider, ipstart, iplen, ipool, icause, iweight, iorder, iqon, iqoff,
     imeta) = _run_arrays(n, nodes, nodes * (2 * n + 2))
    stamp = np.zeros(1, np.int64)
    stack = np.empty(nodes + 1, np.int32)
    seen = np.zeros(nodes, np.int64)
    bits = np.empty((nodes, words), np.uint64)
    run(src, n, units, cell_units, orig, cnt0, cid, ccell, cdig, links, L, xonly, dynamic, level, inner_dynamic,
        inner_level, cur, cnt, der, pstart, plen, pool, cause, weight, order, qon, qoff, meta,
        icur, icnt, ider, ipstart, iplen, ipool, icause, iweight, iorder, iqon, iqoff, imeta, stamp, stack, seen)
    _count_all(L, der, pstart, plen, pool, weight, order, meta, bits, anc)
