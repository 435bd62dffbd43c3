"""Compiled twins of ``logic.se_chains``'s searches (grids up to 9x9): for every SE mode and source, the complexity
of its forcing chains (``se_scan``, bitsets) and the rounds where one of SE's cycles removes something
(``se_cycle_rounds``, SE's own potential-by-potential search).

Nodes are candidates, id ``d*N*N + cell`` (0-based digit), as in ``logic.links``; a set of nodes is a row of
uint64 words. Each search runs in SE's rounds exactly as ``se_chains._Search.advance`` does (round t finds the
hints of complexity 2t + 2), so the two agree hint for hint; the tests check it. Cycle rounds past 63 (a
complexity above 128) are not reported.

``se_live_search`` does both in one call, as the solver runs them: the bitset scan on the live candidates only
(bit i stands for the i-th live candidate, so a set is 3-4 words on a stalled 9x9 state), then SE's cycle search
only from the sources and up to the rounds where the scan's layers allow a cycle; ``se_scan`` and
``se_cycle_rounds`` stay as its reference. ``se_forcing_path`` traces one forcing chain's path.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitdoku.kernels.jit import borrowing

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

#: Largest grid side the kernel takes (its node sets are N**3 bits).
MAX_N = 9


@njit(cache=True, nogil=True)
def _ctz(x):
    """Index of the lowest set bit of a non-zero uint64."""
    n = 0
    if (x & np.uint64(0xFFFFFFFF)) == _ZERO:
        n += 32
        x >>= np.uint64(32)
    if (x & np.uint64(0xFFFF)) == _ZERO:
        n += 16
        x >>= np.uint64(16)
    if (x & np.uint64(0xFF)) == _ZERO:
        n += 8
        x >>= np.uint64(8)
    if (x & np.uint64(0xF)) == _ZERO:
        n += 4
        x >>= np.uint64(4)
    if (x & np.uint64(0x3)) == _ZERO:
        n += 2
        x >>= np.uint64(2)
    if (x & _ONE) == _ZERO:
        n += 1
    return n


@borrowing
def _spread(front, table, out, words):
    """out = the union of table rows over the nodes of front."""
    for k in range(words):
        out[k] = _ZERO
    for w in range(words):
        x = front[w]
        while x:
            low = x & (~x + _ONE)
            i = w * 64 + _ctz(low)
            for k in range(words):
                out[k] |= table[i, k]
            x ^= low


@borrowing
def _has(bits, i):
    return (bits[i >> 6] >> np.uint64(i & 63)) & _ONE


@borrowing
def _set(bits, i):
    bits[i >> 6] |= _ONE << np.uint64(i & 63)


@borrowing
def _copy_into(row, bits, words):
    """``row[:] = bits`` as a loop: an array copy by slice brings in Numba's shape-mismatch error, whose strings
    take a second more to compile on a cold cache (docs/reliability/first-run.md)."""
    for k in range(words):
        row[k] = bits[k]


@njit(cache=True, nogil=True)
def se_scan(masks, n, units, peers, cycles, forcing, on_found, off_found, cycle_rounds):
    """Fill, for each mode m (0 X, 1 Y, 2 XY) and candidate id s: ``on_found[m, s]`` the complexity of the forcing
    chain "s on" -> "s off" (0: none), ``off_found[m, s]`` that of "s off" -> "s on", ``cycle_rounds[m, s]`` a bit
    t for each round t >= 1 where a cycle through s can close (complexity 2t + 2). Sources as SE takes them: cells
    with two candidates or more (Y mode: exactly two). This is ``_live_scan`` with every candidate its own bit (12
    words a set on 9x9): the reference of the live search, whose sets hold the live candidates only."""
    every = np.arange(n * n * n).astype(np.int32)
    _live_scan(masks, n, units, peers, every, every, every.shape[0], cycles, forcing, on_found, off_found,
               cycle_rounds)


@borrowing
def _on_run(s, weak, strong, linked, cycles, forcing, words, seen_on, seen_off, front, raw, new_on, new_off,
            on_found, cycle_rounds):
    for k in range(words):
        seen_on[k] = _ZERO
        seen_off[k] = _ZERO
        front[k] = _ZERO
    _set(seen_on, s)
    _set(front, s)
    t = 0
    done = False
    while True:
        _spread(front, weak, raw, words)
        if cycles and t >= 1 and t < 64:
            for k in range(words):
                if raw[k] & strong[s, k]:
                    cycle_rounds[s] |= np.int64(1) << np.int64(t)
                    break
        any_off = False
        for k in range(words):
            new_off[k] = raw[k] & ~seen_off[k]
            if new_off[k]:
                any_off = True
        if not any_off:
            return
        if forcing and not done and _has(new_off, s):
            on_found[s] = 2 * t + 2
            done = True
        for k in range(words):
            raw[k] = new_off[k] & linked[k]
        _spread(raw, strong, new_on, words)
        any_on = False
        for k in range(words):
            new_on[k] &= ~seen_on[k]
            if new_on[k]:
                any_on = True
        if not any_on or (done and not cycles):
            return
        for k in range(words):
            seen_on[k] |= new_on[k]
            seen_off[k] |= new_off[k]
            front[k] = new_on[k]
        t += 1


@borrowing
def _off_run(s, weak, strong, linked, words, seen_on, seen_off, front, new_on, new_off, off_found):
    for k in range(words):
        seen_on[k] = _ZERO
        seen_off[k] = _ZERO
        front[k] = _ZERO
    _set(seen_off, s)
    _set(front, s)
    t = 0
    while True:
        for k in range(words):
            front[k] &= linked[k]
        _spread(front, strong, new_on, words)
        any_on = False
        for k in range(words):
            new_on[k] &= ~seen_on[k]
            if new_on[k]:
                any_on = True
        if not any_on:
            return
        if _has(new_on, s):
            off_found[s] = 2 * t + 2
            return
        _spread(new_on, weak, new_off, words)
        any_off = False
        for k in range(words):
            new_off[k] &= ~seen_off[k]
            if new_off[k]:
                any_off = True
        if not any_off:
            return
        for k in range(words):
            seen_on[k] |= new_on[k]
            seen_off[k] |= new_off[k]
            front[k] = new_off[k]
        t += 1


def scan(masks: tuple[int, ...], shape, cycles: bool, forcing: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run ``se_scan`` on a state's masks; returns (on_found, off_found, cycle_rounds), each [3, N**3]."""
    n = shape.n
    tables = shape.tables
    size = n * n * n
    on_found = np.zeros((3, size), dtype=np.int32)
    off_found = np.zeros((3, size), dtype=np.int32)
    cycle_rounds = np.zeros((3, size), dtype=np.int64)
    se_scan(np.asarray(masks, dtype=np.uint64), n, tables.units, tables.peers, cycles, forcing, on_found, off_found,
            cycle_rounds)
    return on_found, off_found, cycle_rounds


@njit(cache=True, nogil=True)
def _se_lists(masks, n, units, peer_order):
    """SE's ordered consequences of every candidate in the XY mode: "on" -> the cell's other digits (Y), then the
    digit in the block, row, column cells (``peer_order``, X); "off" -> a bivalue cell's other digit (Y), then the
    bilocal partners in the block, row, column (X, each once). Returns (on_list, on_len, off_list, off_len)."""
    nn = n * n
    size = n * nn
    width = n + peer_order.shape[1]
    on_list = np.zeros((size, width), dtype=np.int32)
    on_len = np.zeros(size, dtype=np.int32)
    off_list = np.zeros((size, 4), dtype=np.int32)
    off_len = np.zeros(size, dtype=np.int32)
    for cell in range(nn):
        mask = masks[cell]
        count = 0
        for d in range(n):
            if (mask >> np.uint64(d)) & _ONE:
                count += 1
        for d in range(n):
            if not (mask >> np.uint64(d)) & _ONE:
                continue
            node = d * nn + cell
            k = 0
            for d2 in range(n):
                if d2 != d and (mask >> np.uint64(d2)) & _ONE:
                    on_list[node, k] = d2 * nn + cell
                    k += 1
            for j in range(peer_order.shape[1]):
                o = peer_order[cell, j]
                if (masks[o] >> np.uint64(d)) & _ONE:
                    on_list[node, k] = d * nn + o
                    k += 1
            on_len[node] = k
            k = 0
            if count == 2:
                for d2 in range(n):
                    if d2 != d and (mask >> np.uint64(d2)) & _ONE:
                        off_list[node, k] = d2 * nn + cell
                        k += 1
            for u in range(3):
                unit = units[u]
                other = -1
                places = 0
                for i in range(n):
                    c = unit[cell, i]
                    if (masks[c] >> np.uint64(d)) & _ONE:
                        places += 1
                        if c != cell:
                            other = c
                if places == 2:
                    target = d * nn + other
                    seen = False
                    for j in range(k):
                        if off_list[node, j] == target:
                            seen = True
                    if not seen:
                        off_list[node, k] = target
                        k += 1
            off_len[node] = k
    return on_list, on_len, off_list, off_len


@borrowing
def _worth(closing_parent, s, pot_node, pot_parent, masks, n, peers, in_cycle, forward, backward, stamp):
    """Whether SE's cycle closing at s through ``closing_parent`` removes anything: a candidate outside the
    cycle's cells that sees an "on" and an "off" of its digit (the potentials alternate from "on" at s).
    ``forward``/``backward`` (int64[N**3]) mark the candidates seen by an "on"/"off" with this call's ``stamp[0]``
    (bumped here), so they need no clearing."""
    nn = n * n
    j = closing_parent
    in_cycle[s % nn] = True
    while pot_parent[j] >= 0:
        in_cycle[pot_node[j] % nn] = True
        j = pot_parent[j]
    stamp[0] += 1
    mark = stamp[0]
    found = False
    # The closing potential (s on), then its ancestors up to the root (left out): off, on, off, ...
    node = s
    j = closing_parent
    on = True
    while True:
        cell, d = node % nn, node // nn
        for t in range(peers.shape[1]):
            o = peers[cell, t]
            if not in_cycle[o] and (masks[o] >> np.uint64(d)) & _ONE:
                i = d * nn + o
                if on:
                    forward[i] = mark
                    found = found or backward[i] == mark
                else:
                    backward[i] = mark
                    found = found or forward[i] == mark
        if pot_parent[j] < 0:
            break
        node = pot_node[j]
        j = pot_parent[j]
        on = not on
    j = closing_parent
    in_cycle[s % nn] = False
    while pot_parent[j] >= 0:
        in_cycle[pot_node[j] % nn] = False
        j = pot_parent[j]
    return found


@njit(cache=True, nogil=True)
def se_cycle_rounds(masks, n, box_row_col, peers, peer_order, worthy):
    """SE's cycle search itself (``Chaining.doCycles``), potential by potential in SE's order, for each mode m and
    every source s, to the last round: ``worthy[m, s]`` gets bit t when a cycle of complexity 2t + 2 closing at s
    removes a candidate. The reference of ``se_live_search``, which replays only from the sources and up to the
    rounds that its bitset layers allow."""
    nn = n * n
    size = n * nn
    on_list, on_len, off_list, on_from, off_range = _all_mode_lists(masks, n, box_row_col, peer_order)
    (pot_node, pot_on, pot_parent, pending_on, next_on, pending_off, seen_on, in_cycle, forward, backward,
     stamp) = _replay_space(n, peer_order.shape[1])
    source = 0
    for m in range(3):
        for cell in range(nn):
            mask = masks[cell]
            count = 0
            for d in range(n):
                if (mask >> np.uint64(d)) & _ONE:
                    count += 1
            if count < 2 or (m == 1 and count > 2):
                continue
            for d in range(n):
                if (mask >> np.uint64(d)) & _ONE:
                    source += 1
                    _replay(d * nn + cell, m, size, masks, n, peers, on_list, on_len, off_list, on_from, off_range,
                            pot_node, pot_on, pot_parent, pending_on, next_on, pending_off, seen_on, source,
                            in_cycle, forward, backward, stamp, worthy)


@njit(cache=True, nogil=True)
def _replay_space(n, order_width):
    """The arrays ``_replay`` works in, for one call's sources: potentials (node, on/off, parent), the pending
    layers, the per-source "seen" stamps and ``_worth``'s marks."""
    nn = n * n
    size = n * nn
    cap = size * (n + order_width + 1) + 1
    return (np.zeros(cap, dtype=np.int32), np.zeros(cap, dtype=np.bool_), np.zeros(cap, dtype=np.int32),
            np.zeros(size + 1, dtype=np.int32), np.zeros(size + 1, dtype=np.int32), np.zeros(cap, dtype=np.int32),
            np.zeros(size, dtype=np.int64), np.zeros(nn, dtype=np.bool_), np.zeros(size, dtype=np.int64),
            np.zeros(size, dtype=np.int64), np.zeros(1, dtype=np.int64))


def cycle_rounds(masks: tuple[int, ...], shape, peer_order: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """Run ``se_cycle_rounds``: [3, N**3] int64, bit t for the rounds with a cycle that removes something."""
    n = shape.n
    tables = _unit_tables(shape, peer_order)
    worthy = np.zeros((3, n * n * n), dtype=np.int64)
    se_cycle_rounds(np.asarray(masks, dtype=np.uint64), n, tables[0], shape.tables.peers, tables[1], worthy)
    return worthy


_UNIT_TABLES: dict = {}


def _unit_tables(shape, peer_order):
    """For each cell its block, row and column cells (int32[3, N*N, N]), and its peers in SE's order."""
    found = _UNIT_TABLES.get(shape)
    if found is None:
        n = shape.n
        t = shape.tables
        box_row_col = np.zeros((3, n * n, n), dtype=np.int32)
        for cell in range(n * n):
            row, col, box = (int(u) for u in t.cell_units[cell])
            for k, unit in enumerate((box, row, col)):
                box_row_col[k, cell] = t.units[unit]
        found = _UNIT_TABLES[shape] = (box_row_col, np.asarray(peer_order, dtype=np.int32))
    return found


# -- the live search: both scans in one kernel, on the live candidates only ---------------------------------------


@njit(cache=True, nogil=True)
def _live_nodes(masks, n):
    """The live candidates: ``ids`` (their node ids, increasing), ``index`` (node id -> position, -1 if gone) and
    their number."""
    nn = n * n
    size = n * nn
    ids = np.zeros(size, dtype=np.int32)
    index = np.full(size, -1, dtype=np.int32)
    live = 0
    for d in range(n):
        for cell in range(nn):
            if (masks[cell] >> np.uint64(d)) & _ONE:
                index[d * nn + cell] = live
                ids[live] = d * nn + cell
                live += 1
    return ids, index, live


@njit(cache=True, nogil=True)
def _live_tables(masks, n, units, peers, index, live):
    """``_tables`` on the live candidates: bit ``index[node]`` stands for ``node``, so a set is ceil(live / 64)
    words (3-4 on a stalled 9x9 state) instead of ceil(N**3 / 64) (12)."""
    nn = n * n
    words = max((live + 63) // 64, 1)
    weak = np.zeros((3, live, words), dtype=np.uint64)
    strong = np.zeros((3, live, words), dtype=np.uint64)
    for cell in range(nn):
        mask = masks[cell]
        if mask == _ZERO:
            continue
        count = 0
        for d in range(n):
            if (mask >> np.uint64(d)) & _ONE:
                count += 1
        for d in range(n):
            if not (mask >> np.uint64(d)) & _ONE:
                continue
            node = index[d * nn + cell]
            for j in range(peers.shape[1]):
                p = peers[cell, j]
                if (masks[p] >> np.uint64(d)) & _ONE:
                    for m in range(3):
                        _set(weak[m, node], index[d * nn + p])
            for d2 in range(n):
                if d2 != d and (mask >> np.uint64(d2)) & _ONE:
                    other = index[d2 * nn + cell]
                    _set(weak[1, node], other)
                    _set(weak[2, node], other)
                    if count == 2:
                        _set(strong[1, node], other)
                        _set(strong[2, node], other)
    for u in range(units.shape[0]):
        for d in range(n):
            a = -1
            b = -1
            count = 0
            for i in range(n):
                c = units[u, i]
                if (masks[c] >> np.uint64(d)) & _ONE:
                    count += 1
                    if a < 0:
                        a = c
                    else:
                        b = c
            if count == 2:
                ia = index[d * nn + a]
                ib = index[d * nn + b]
                for m in (0, 2):
                    _set(strong[m, ia], ib)
                    _set(strong[m, ib], ia)
    return weak, strong, words


@njit(cache=True, nogil=True)
def _live_scan(masks, n, units, peers, ids, index, live, cycles, forcing, on_found, off_found, possible):
    """``se_scan`` on the live candidates: ``on_found``/``off_found`` as there (node ids), ``possible[m, i]`` (live
    position i) the rounds where the bitset layers allow a cycle through the candidate (SE's "on" layers are
    these, so a cycle SE closes at round t has its bit here)."""
    nn = n * n
    weak, strong, words = _live_tables(masks, n, units, peers, index, live)
    seen_on = np.zeros(words, dtype=np.uint64)
    seen_off = np.zeros(words, dtype=np.uint64)
    front = np.zeros(words, dtype=np.uint64)
    raw = np.zeros(words, dtype=np.uint64)
    new_on = np.zeros(words, dtype=np.uint64)
    new_off = np.zeros(words, dtype=np.uint64)
    linked = np.zeros(words, dtype=np.uint64)
    on_live = np.zeros(live, dtype=np.int32)
    off_live = np.zeros(live, dtype=np.int32)
    for m in range(3):
        use_forcing = forcing and m != 1
        if not (cycles or use_forcing):
            continue
        for k in range(words):
            linked[k] = _ZERO
        for i in range(live):
            on_live[i] = 0
            off_live[i] = 0
            for k in range(words):
                if strong[m, i, k]:
                    _set(linked, i)
                    break
        for cell in range(nn):
            mask = masks[cell]
            count = 0
            for d in range(n):
                if (mask >> np.uint64(d)) & _ONE:
                    count += 1
            if count < 2 or (m == 1 and count > 2):
                continue
            for d in range(n):
                if not (mask >> np.uint64(d)) & _ONE:
                    continue
                s = index[d * nn + cell]
                _on_run(s, weak[m], strong[m], linked, cycles, use_forcing, words, seen_on, seen_off, front, raw,
                        new_on, new_off, on_live, possible[m])
                if use_forcing:
                    _off_run(s, weak[m], strong[m], linked, words, seen_on, seen_off, front, new_on, new_off,
                             off_live)
        for i in range(live):
            on_found[m, ids[i]] = on_live[i]
            off_found[m, ids[i]] = off_live[i]


@borrowing
def _replay(s, m, last, masks, n, peers, on_list, on_len, off_list, on_from, off_range, pot_node, pot_on,
            pot_parent, pending_on, next_on, pending_off, seen_on, source, in_cycle, forward, backward, stamp,
            worthy):
    """SE's cycle search from "s on" in mode m (``se_cycle_rounds``' loop, on the lists of all three modes: the
    mode's part of each list is ``on_list[node, on_from[m, node]:on_len[node]]`` and ``off_list[node,
    off_range[m, 0, node]:off_range[m, 1, node]]``), stopped after round ``last``, the last one where the bitset
    layers allow a cycle."""
    seen_on[s] = source
    pot_node[0] = s
    pot_on[0] = True
    pot_parent[0] = -1
    used = 1
    pending_on[0] = 0
    n_on = 1
    t = 0
    while n_on > 0 and t <= last:
        n_off = 0
        for a in range(n_on):
            p = pending_on[a]
            node = pot_node[p]
            for b in range(on_from[m, node], on_len[node]):
                q = on_list[node, b]
                j = pot_parent[p]
                ancestor = False
                while j >= 0:
                    if pot_node[j] == q and not pot_on[j]:
                        ancestor = True
                        break
                    j = pot_parent[j]
                if ancestor:
                    continue
                pot_node[used] = q
                pot_on[used] = False
                pot_parent[used] = p
                pending_off[n_off] = used
                used += 1
                n_off += 1
        count_next = 0
        for a in range(n_off):
            qi = pending_off[a]
            q = pot_node[qi]
            for b in range(off_range[m, 0, q], off_range[m, 1, q]):
                r = off_list[q, b]
                if (t >= 1 and r == s and t < 64 and not (worthy[m, s] >> np.int64(t)) & 1
                        and _worth(qi, s, pot_node, pot_parent, masks, n, peers, in_cycle, forward, backward,
                                   stamp)):
                    worthy[m, s] |= np.int64(1) << np.int64(t)
                if seen_on[r] != source:
                    seen_on[r] = source
                    pot_node[used] = r
                    pot_on[used] = True
                    pot_parent[used] = qi
                    next_on[count_next] = used
                    used += 1
                    count_next += 1
        for a in range(count_next):
            pending_on[a] = next_on[a]
        n_on = count_next
        t += 1


@njit(cache=True, nogil=True)
def _all_mode_lists(masks, n, box_row_col, peer_order):
    """``_se_lists`` of the XY mode, with where each node's X and Y parts are: X's "on" list leaves out the cell's
    other digits (``on_from[0]``), Y's "off" list is only the bivalue partner and X's only the bilocal ones
    (``off_range[m]``: start, end)."""
    nn = n * n
    size = n * nn
    on_list, on_len, off_list, off_len = _se_lists(masks, n, box_row_col, peer_order)
    on_from = np.zeros((3, size), dtype=np.int32)
    off_range = np.zeros((3, 2, size), dtype=np.int32)
    for cell in range(nn):
        mask = masks[cell]
        count = 0
        for d in range(n):
            if (mask >> np.uint64(d)) & _ONE:
                count += 1
        bivalue = 1 if count == 2 else 0
        for d in range(n):
            if not (mask >> np.uint64(d)) & _ONE:
                continue
            node = d * nn + cell
            on_from[0, node] = count - 1
            off_range[0, 0, node] = bivalue
            off_range[0, 1, node] = off_len[node]
            off_range[1, 1, node] = bivalue
            off_range[2, 1, node] = off_len[node]
    return on_list, on_len, off_list, on_from, off_range


@njit(cache=True, nogil=True)
def se_live_search(masks, n, units, peers, box_row_col, peer_order, cycles, forcing, on_found, off_found, worthy):
    """``se_scan`` (forcing chains) and ``se_cycle_rounds`` (``worthy``) in one call, as they would fill them:
    the bitset scan runs on the live candidates only, and SE's potential-by-potential cycle search only from the
    sources and up to the rounds where the scan's layers allow a cycle (about a fifth of the sources on stalled
    top1465 states)."""
    ids, index, live = _live_nodes(masks, n)
    possible = np.zeros((3, max(live, 1)), dtype=np.int64)
    _live_scan(masks, n, units, peers, ids, index, live, cycles, forcing, on_found, off_found, possible)
    if not cycles:
        return
    any_possible = False
    for m in range(3):
        for i in range(live):
            if possible[m, i]:
                any_possible = True
    if not any_possible:
        return
    on_list, on_len, off_list, on_from, off_range = _all_mode_lists(masks, n, box_row_col, peer_order)
    (pot_node, pot_on, pot_parent, pending_on, next_on, pending_off, seen_on, in_cycle, forward, backward,
     stamp) = _replay_space(n, peer_order.shape[1])
    source = 0
    for m in range(3):
        for i in range(live):
            rounds = possible[m, i]
            if not rounds:
                continue
            last = 0
            while rounds >> np.int64(last + 1):
                last += 1
            source += 1
            _replay(ids[i], m, last, masks, n, peers, on_list, on_len, off_list, on_from,
                    off_range, pot_node, pot_on, pot_parent, pending_on, next_on, pending_off, seen_on, source,
                    in_cycle, forward, backward, stamp, worthy)


def live_search(masks: tuple[int, ...], shape, peer_order: tuple[tuple[int, ...], ...], cycles: bool,
                forcing: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run ``se_live_search``: (on_found, off_found, worthy), each [3, N**3], what ``scan(masks, shape, False,
    forcing)`` and (when ``cycles``) ``cycle_rounds`` give."""
    n = shape.n
    size = n * n * n
    box_row_col, order = _unit_tables(shape, peer_order)
    on_found = np.zeros((3, size), dtype=np.int32)
    off_found = np.zeros((3, size), dtype=np.int32)
    worthy = np.zeros((3, size), dtype=np.int64)
    se_live_search(np.asarray(masks, dtype=np.uint64), n, shape.tables.units, shape.tables.peers, box_row_col, order,
                   cycles, forcing, on_found, off_found, worthy)
    return on_found, off_found, worthy


@njit(cache=True, nogil=True)
def se_forcing_path(masks, n, units, peers, m, source, from_on, path):
    """The path of the forcing chain from "source on" to "source off" (``from_on``) or from "off" to "on" in mode
    m, as ``se_chains._trace`` reads it from ``_forcing_layers``: the single-source layers of ``_on_run`` /
    ``_off_run`` kept, then from the end back, in each layer the lowest node linked to the one after it (weakly
    from an "on" layer, strongly from an "off" one). Writes the node ids into ``path``; returns their number (0:
    no chain)."""
    ids, index, live = _live_nodes(masks, n)
    weak, strong, words = _live_tables(masks, n, units, peers, index, live)
    wk = weak[m]
    st = strong[m]
    s = index[source]
    linked = np.zeros(words, dtype=np.uint64)
    for i in range(live):
        for k in range(words):
            if st[i, k]:
                _set(linked, i)
                break
    layers = np.zeros((2 * live + 2, words), dtype=np.uint64)
    seen_on = np.zeros(words, dtype=np.uint64)
    seen_off = np.zeros(words, dtype=np.uint64)
    front = np.zeros(words, dtype=np.uint64)
    raw = np.zeros(words, dtype=np.uint64)
    new_on = np.zeros(words, dtype=np.uint64)
    new_off = np.zeros(words, dtype=np.uint64)
    _set(layers[0], s)
    _set(front, s)
    if from_on:
        _set(seen_on, s)
    else:
        _set(seen_off, s)
    count = 1
    found = False
    while not found and count + 1 < layers.shape[0]:
        if from_on:  # front: the "on" layer; next the "off" layer, then the "on" one
            _spread(front, wk, new_off, words)
            for k in range(words):
                new_off[k] &= ~seen_off[k]
            if _has(new_off, s):
                _copy_into(layers[count], new_off, words)
                count += 1
                found = True
                break
            for k in range(words):
                raw[k] = new_off[k] & linked[k]
            _spread(raw, st, new_on, words)
            first, second = new_off, new_on
        else:
            for k in range(words):
                raw[k] = front[k] & linked[k]
            _spread(raw, st, new_on, words)
            for k in range(words):
                new_on[k] &= ~seen_on[k]
            if _has(new_on, s):
                _copy_into(layers[count], new_on, words)
                count += 1
                found = True
                break
            _spread(new_on, wk, new_off, words)
            first, second = new_on, new_off
        any_new = False
        for k in range(words):
            second[k] &= ~(seen_on[k] if from_on else seen_off[k])
            if second[k]:
                any_new = True
        if not any_new:
            return 0
        for k in range(words):
            seen_on[k] |= new_on[k]
            seen_off[k] |= new_off[k]
            front[k] = second[k]
        _copy_into(layers[count], first, words)
        _copy_into(layers[count + 1], second, words)
        count += 2
    if not found:
        return 0
    cur = s
    path[count - 1] = ids[s]
    for i in range(count - 2, -1, -1):
        on = from_on ^ ((i & 1) == 1)
        table = wk if on else st
        pick = -1
        for k in range(words):
            x = layers[i, k] & table[cur, k]
            if x:
                pick = k * 64 + _ctz(x)
                break
        cur = pick
        path[i] = ids[cur]
    return count


def forcing_path(masks: tuple[int, ...], shape, mode: int, source: int, from_on: bool) -> list[int]:
    """Run ``se_forcing_path``: the node ids of the chain, start to end."""
    n = shape.n
    path = np.zeros(2 * n * n * n + 2, dtype=np.int32)
    count = se_forcing_path(np.asarray(masks, dtype=np.uint64), n, shape.tables.units, shape.tables.peers, mode,
                            source, from_on, path)
    return path[:count].tolist()
