"""Compiled search of X-Chains (the engine of ``single_digit.find_x_chains`` on classic grids): for one digit, the
same breadth-first search from each start, in the same order, as the Python finder, which stays as its readable
twin and the reference (``single_digit.COMPILED = False``).

Inputs: the masks (uint64[N*N]), the digit (0-based), the layout's units (int32[U, N], each in its own order),
each cell's peers in the order the Python finder visits them (``peer_order``: int32[N*N, P], the iteration order
of the layout's peer sets) and a "sees" matrix (bool[N*N, N*N]), the longest chain in links. Output: for each start
cell in increasing order whose search finds a chain that removes something, its first such chain (the start
first) as a row of ``chains`` and its length in ``lengths``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_UNSEEN = -2


@njit(cache=True, nogil=True)
def x_chains(masks, digit, units, peer_order, sees, max_links, chains, lengths):
    """The first chain that removes something from each start, starts increasing; returns how many."""
    nn = masks.shape[0]
    bit = np.uint64(1) << np.uint64(digit)
    has = np.zeros(nn, np.bool_)
    for c in range(nn):
        has[c] = (masks[c] & bit) != 0
    # the strong links, in unit order: each end lists the other
    nunits, width = units.shape
    strong = np.empty((nn, nunits), np.int64)
    count = np.zeros(nn, np.int64)
    for u in range(nunits):
        a = -1
        b = -1
        places = 0
        for i in range(width):
            c = units[u, i]
            if has[c]:
                places += 1
                if places == 1:
                    a = c
                elif places == 2:
                    b = c
        if places == 2:
            strong[a, count[a]] = b
            count[a] += 1
            strong[b, count[b]] = a
            count[b] += 1
    parent = np.empty(2 * nn, np.int64)
    queue = np.empty(2 * nn, np.int64)
    links_of = np.empty(2 * nn, np.int64)
    path = np.empty(max_links + 2, np.int64)
    in_chain = np.zeros(nn, np.bool_)
    found = 0
    for start in range(nn):
        if count[start] == 0:
            continue
        parent[:] = _UNSEEN
        parent[2 * start] = -1
        queue[0] = 2 * start
        links_of[0] = 0
        head = 0
        tail = 1
        done = False
        while head < tail and not done:
            state = queue[head]
            links = links_of[head]
            head += 1
            if links >= max_links:
                continue
            cell = state >> 1
            true = state & 1
            following = count[cell] if true == 0 else peer_order.shape[1]
            for j in range(following):
                other = strong[cell, j] if true == 0 else peer_order[cell, j]
                if other < 0:
                    break
                if true == 1 and not has[other]:
                    continue
                nxt = 2 * other + 1 - true
                if parent[nxt] != _UNSEEN or other == start:
                    continue
                parent[nxt] = state
                queue[tail] = nxt
                links_of[tail] = links + 1
                tail += 1
                if true == 0 and links + 1 >= 3 and _removes(nxt, parent, has, sees, peer_order, start, other, path,
                                                             in_chain, chains, lengths, found):
                    found += 1
                    done = True
                    break
    return found


@njit(cache=True, nogil=True)
def _removes(state, parent, has, sees, peer_order, start, end, path, in_chain, chains, lengths, found):
    """Whether the chain to ``state`` removes the digit from a cell seeing both ends (not on the chain); if so,
    writes it as row ``found`` of ``chains``."""
    size = 0
    s = state
    while s >= 0:
        path[size] = s >> 1
        size += 1
        s = parent[s]
    for i in range(size):
        in_chain[path[i]] = True
    removes = False
    for j in range(peer_order.shape[1]):
        c = peer_order[start, j]
        if c < 0:
            break
        if has[c] and sees[end, c] and not in_chain[c]:
            removes = True
            break
    for i in range(size):
        in_chain[path[i]] = False
    if removes:
        for i in range(size):
            chains[found, i] = path[size - 1 - i]
        lengths[found] = size
    return removes
