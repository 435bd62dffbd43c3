r"""Tried in round 17b (NOTES-kernels.md) and not kept: a search loop of its own for the proof phase of a count,
and rules that run only in it.

The script replaces the search loop of the 9x9 kernel (``src/bitdoku/kernels/sudoku9.py``) by two (``PROOF_LOOP``,
the ``loop`` variant): ``_search_loaded`` up to the first solution, ``_prove`` after it, so that a search for one
solution pays nothing for what the proof does. Everything after a first solution is searched exhaustively, so the
proof loop may branch or propagate as it likes without changing a status, a count or the first solution. The other
variants are copies whose proof loop

* propagates with tdoku's triad rule too (``tri*``: round 14's ``both_vec`` counters, or round 15's ``both_v256``,
  taken from ``sudoku9_triads.py``; ``_propagate_proof`` runs the rule at each fixpoint of the other rules),
* or branches on a digit's two places in a row or column when they score better than the best cell (``split*``:
  round 16's ``g_*`` unit search, taken from ``sudoku9_proof.py``, with a screen of its own in ``_choose_proof``),
* or both (``both*``),

with gates and cost-only twins (``VARIANTS``: ``*_kD`` only in states k <= D; ``fast_*`` the same units visited
branch-free; ``*_pk`` only the best unit by a cheaper proxy scored in full; ``*_dnd``, ``*_dvd`` only one digit's
units; ``*_never``, ``split_loops``, ``split_stub``, ``fast_scan`` never taken, for their cost).

It counts their trees (proof nodes: limit-2 nodes minus limit-1 nodes), checks statuses, solution counts and first
solutions against the kernel (``same``: ``sudoku9_proof.same``'s cases), and leaves the timing to ``sudoku9_ab.py``.
From the repository root::

    PYTHONPATH=src python research/sudoku9_proof17.py write /tmp/proof17
    PYTHONPATH=src python research/sudoku9_proof17.py count tri_vec split_s34 --sets top1465 hardest
    PYTHONPATH=src python research/sudoku9_proof17.py same tri_vec split_s34 split_mutant   # the mutant must fail
    PYTHONPATH=src python benchmarks/sudoku9_ab.py time p17b=/tmp/proof17/base.py p17tri=/tmp/proof17/tri_vec.py \
        p17b2=/tmp/proof17/base.py --copies 2 --rounds 9 --every 1
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # sudoku9_proof, sudoku9_triads: beside this one
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # the maintained scripts it uses
import sudoku9_proof as p16
import sudoku9_triads as t14
from sudoku9_ab import DRIVER, SETS

KERNEL = Path(__file__).resolve().parents[1] / "src" / "bitdoku" / "kernels" / "sudoku9.py"
PROVE_CHOOSE = "        band, pos, mask = _choose_cell(states, top)\n        if pos < 0:\n            if _record("
PROVE_PUSH = "            top = _push(frames, top, band, pos, mask, stats)\n"
PROVE_DESCEND = ("        top, filled, status = _descend(_propagate, states, frames, top, max_nodes, flags, seed, "
                 "stats, stop)\n")
ANCHOR = "\n\n@borrowing\ndef _search_loaded("

#: The proof loop of this round (not kept in the kernel: it costs 1-1.5% on 17-clue and top1465 unique by itself,
#: and no rule it enables won): it replaces the kernel's ``_search_loaded``. Both loops share ``_descend`` (back up
#: and try the next digit), ``_push`` and ``_record``; ``_prove`` is entered once, at the first solution of a search
#: with ``limit`` >= 2. The ``loop`` variant is this alone; every other variant is built on it.
PROOF_LOOP = '''@njit(cache=True, nogil=True, inline="always")
def _record(states, k, solutions, stats):
    """Count the solution in state k (and keep it while ``solutions`` has room); the solutions found so far."""
    found = stats[STAT_SOLUTIONS]
    if found < solutions.shape[0]:
        _write_solution(states, k, solutions[found])
    stats[STAT_SOLUTIONS] = found + 1
    return found + 1


@njit(cache=True, nogil=True, inline="always")
def _push(frames, top, band, pos, mask, stats):
    """Open a frame for the branching cell (band, position) and its digits; the new top."""
    if mask & (mask - 1) != 0:
        stats[STAT_GUESSES] += 1
    frames[top, 0] = band
    frames[top, 1] = pos
    frames[top, 2] = mask
    top += 1
    stats[STAT_MAX_DEPTH] = max(stats[STAT_MAX_DEPTH], top)
    return top


@njit(cache=True, nogil=True, inline="always")
def _descend(propagate, states, frames, top, max_nodes, flags, seed, stats, stop):
    """Both search loops' step after a choice: back up to the deepest frame with a digit left and try its digits
    until one propagates without a contradiction. (top, cells filled, status); top -1 when the search ends, with
    ``COMPLETE``, ``BUDGET_EXHAUSTED`` or ``STOPPED``."""
    while top > 0:
        frame = top - 1
        rest = frames[frame, 2]
        if rest == 0:
            top -= 1
            continue
        if stats[STAT_NODES] >= max_nodes:
            return np.int64(-1), np.int64(0), np.int64(BUDGET_EXHAUSTED)
        if stop[0] != 0:
            return np.int64(-1), np.int64(0), np.int64(STOPPED)
        stats[STAT_NODES] += 1
        if flags & RANDOM_ORDER:
            digit = hashed_bit(seed + stats[STAT_NODES], rest)
            rest &= ~(np.int64(1) << digit)
        else:
            digit = lowest_bit_index(rest)
            rest &= rest - 1
        frames[frame, 2] = rest
        if rest != 0:
            for word in range(STATE_WORDS):  # a loop, not a slice copy: see _search_loaded's docstring
                states[frame + 1, word] = states[frame, word]
            target = frame + 1
        else:
            top -= 1  # the frame is used up: its state becomes the child
            target = frame
        filled = np.int64(-1)
        if _place(states, target, digit, frames[frame, 0], frames[frame, 1]):
            filled = propagate(states, target, flags)
        if filled >= 0:
            return top, filled, np.int64(COMPLETE)
        stats[STAT_BACKTRACKS] += 1
    return np.int64(-1), np.int64(0), np.int64(COMPLETE)


@borrowing
def _search_loaded(limit, max_nodes, flags, solutions, stats, states, frames, seed, stop):
    """The search of ``search9_in`` from the givens already loaded in state 0 (stats zeroed by the caller).

    With ``RANDOM_ORDER`` in ``flags``, digits are tried in an order drawn from ``seed`` (``random_solution9``).
    ``stop`` (int64[1]) is read where the node budget is checked: once ``stop[0]`` is not 0 (a time limit ran out
    on another thread) the search returns ``STOPPED`` with its counters so far. This loop runs up to the first
    solution; a count past it goes on in ``_prove``, a loop of its own, so that a search for one solution pays
    nothing for what the proof does differently.

    Written for a short first compile (the first ``bitdoku solve`` waits for it): the helpers are called with
    typed variables, never a literal ``0`` or ``False`` (Numba would compile a second copy of each helper, and of
    everything it calls, for the literal type), and states are copied word by word (a slice copy brings in
    Numba's shape-mismatch error, which compiles a dozen string functions).
    """
    stats[STAT_NODES] = 1
    top = np.int64(0)
    filled = _propagate(states, top, flags)
    if filled < 0:
        return COMPLETE
    placements = filled
    while True:
        band, pos, mask = _choose_cell(states, top)
        if pos < 0:
            if _record(states, top, solutions, stats) >= limit:
                status = np.int64(LIMIT_REACHED)
            else:
                status, more = _prove(limit, max_nodes, flags, solutions, stats, states, frames, top, seed, stop)
                placements += more
            break
        top = _push(frames, top, band, pos, mask, stats)
        top, filled, status = _descend(_propagate, states, frames, top, max_nodes, flags, seed, stats, stop)
        if top < 0:
            break
        placements += filled + 1
    stats[STAT_PLACEMENTS] = placements
    return status


@borrowing
def _prove(limit, max_nodes, flags, solutions, stats, states, frames, top, seed, stop):
    """``_search_loaded`` after its first solution (state ``top``, frames below it): the rest of a count, as
    (status, cells placed). Everything after a first solution is searched exhaustively, so the order of the
    branches here changes no status, count or first solution, only the size of the proof that no other exists."""
    placements = np.int64(0)
    while True:
        top, filled, status = _descend(_propagate, states, frames, top, max_nodes, flags, seed, stats, stop)
        if top < 0:
            return status, placements
        placements += filled + 1
        band, pos, mask = _choose_cell(states, top)
        if pos < 0:
            if _record(states, top, solutions, stats) >= limit:
                return np.int64(LIMIT_REACHED), placements
        else:
            top = _push(frames, top, band, pos, mask, stats)
'''

#: name -> (triad rule: "" / "vec" / "v256", unit split screen: None / 0 / 2 / 34, extra)
VARIANTS = {
    "loop": ("", None, ""),  # the proof loop alone: the same tree as the kernel's (sudoku9_ab.py check: identical)
    "loop_call": ("", None, "call"),  # the proof loop's step through one not inlined copy of _descend
    "tri_vec": ("vec", None, ""), "tri_v256": ("v256", None, ""),
    "tri_gate": ("vec", None, "gate"), "tri_gate3": ("vec", None, "gate3"), "tri_k2": ("vec", None, "k2"),
    "tri_k4": ("vec", None, "k4"), "tri_gate_k2": ("vec", None, "gate_k2"), "tri_gate_k4": ("vec", None, "gate_k4"),
    "tri_gate_v256": ("v256", None, "gate"),
    "tri_gate_stacks": ("v256s", None, "gate"), "tri_gate_bands": ("v256b", None, "gate"),
    "split_rc": ("", 0, ""), "split_s2": ("", 2, ""), "split_s34": ("", 34, ""),
    "fast_s34": ("", 34, "fast"), "fast_s2": ("", 2, "fast"), "fast_rc": ("", 0, "fast"),
    "fast_never": ("", 34, "fast never"), "fast_scan": ("", 34, "fast scan never"),
    "fast_rc_never": ("", 0, "fast never"),
    "split_s2_k0": ("", 2, "k0"), "split_s2_k1": ("", 2, "k1"), "split_s2_k2": ("", 2, "k2"),
    "split_rc_k0": ("", 0, "k0"), "split_rc_k1": ("", 0, "k1"), "split_rc_k2": ("", 0, "k2"),
    "both_rc_k1": ("vec", 0, "k1"), "both_rc_k2": ("vec", 0, "k2"),
    "split_never": ("", 34, "never"), "split_loops": ("", 34, "loops"), "split_stub": ("", 34, "stub"),
    "split_mutant": ("", 34, "mutant"),
    "split_rc_dnd": ("", 0, "digit:nd"), "split_rc_dvd": ("", 0, "digit:16 * vd + nd"),
    "split_s34_dnd": ("", 34, "digit:nd"), "split_s2_dnd": ("", 2, "digit:nd"),
    "split_rc_dneg": ("", 0, "digit:-nd"),
    "split_s34_pk": ("", 34, "proxy"), "split_s2_pk": ("", 2, "proxy"), "split_rc_pk": ("", 0, "proxy"),
    "both_s34": ("vec", 34, ""), "both_s2": ("vec", 2, ""),
}

PROPAGATE_PROOF = '''

@borrowing
def _propagate_proof(states, k, flags):
    """``_propagate`` and then the triad rule, to their joint fixpoint: the proof loop's propagation."""
    filled = np.int64(0)
    while True:
        count = _propagate(states, k, flags)
        if count < 0:
            return np.int64(-1)
        filled += count
        unsolved = np.int64(states[k, S_UNSOLVED]) | np.int64(states[k, S_UNSOLVED + 1]) | np.int64(
            states[k, S_UNSOLVED + 2])
        if unsolved == 0:
            return filled
        count = _triad_rule(states, k)
        if count < 0:
            return np.int64(-1)
        if count == 0:
            return filled
'''

DESCEND_CALL = """

@borrowing
def _descend_call(propagate, states, frames, top, max_nodes, flags, seed, stats, stop):
    \"\"\"``_descend`` as a function of its own (a call a node, one compiled copy for the proof loop).\"\"\"
    return _descend(propagate, states, frames, top, max_nodes, flags, seed, stats, stop)
"""

GATE = """        while pos >= 0 and mask & (mask - 1) != 0:
            count = _triad_rule(states, top)
            if count == 0:
                break
            if count > 0:
                count = _propagate(states, top, flags)
            if count < 0:
                mask = np.int64(0)  # a dead end: nothing pushed, the loop backs up
                break
            placements += count
            band, pos, mask = _choose_cell(states, top)
"""

CHOOSE_PROOF = '''

@njit(cache=True, nogil=True, inline="always")
def _bivalue_cells(states, k, band):
    """The empty cells of a band with two candidates."""
    base = S_COUNT + 4 * band
    c0, c1 = np.int64(states[k, base]), np.int64(states[k, base + 1])
    high = np.int64(states[k, base + 2]) | np.int64(states[k, base + 3])
    return np.int64(states[k, S_UNSOLVED + band]) & c1 & ~(c0 | high)


@njit(cache=True, nogil=True, inline="always")
def _cell_score(states, k, band, pos, mask, t0, t1, t2):
    """``_best_in_band``'s score of one two-candidate cell (``mask``: its digits)."""
    same = PEERS_SAME[pos]
    column = COLUMN[pos]
    if band == 0:
        bivalue = (t0 & same) | (((t1 & column) | ((t2 & column) << 1)) << 30)
    elif band == 1:
        bivalue = (t1 & same) | (((t0 & column) | ((t2 & column) << 1)) << 30)
    else:
        bivalue = (t2 & same) | (((t0 & column) | ((t1 & column) << 1)) << 30)
    first = _peer_digits(states, k, lowest_bit_index(mask), band, same, column)
    second = _peer_digits(states, k, lowest_bit_index(mask & (mask - 1)), band, same, column)
    return popcount(first) + popcount(second) + 2 * (popcount(first & bivalue) + popcount(second & bivalue))


@njit(cache=True, nogil=True)
def _choose_proof(states, k):
    """The proof loop's branch: ``_choose_cell``'s cell, or a digit's two places in a row or column when they score
    better (``_best_split_unit``), as (bands, positions, digit | UNIT_SPLIT) with the places in bits 0-7 and 8-15."""
    band, pos, mask = _choose_cell(states, k)
    if pos < 0 or mask & (mask - 1) == 0:
        return band, pos, mask
    t0, t1, t2 = _bivalue_cells(states, k, np.int64(0)), _bivalue_cells(states, k, np.int64(1)), _bivalue_cells(
        states, k, np.int64(2))
    cell_score = np.int64(-1)
    if popcount(mask) == 2:
        cell_score = _cell_score(states, k, band, pos, mask, t0, t1, t2)
    unit = _best_split_unit(states, k, t0, t1, t2)
    if unit[1] >= 0 and unit[0] > cell_score + MARGIN and TAKE:
        return unit[2], unit[3], (np.int64(1) << unit[1]) | UNIT_SPLIT
    return band, pos, mask


@njit(cache=True, nogil=True, inline="always")
def _push_proof(states, frames, top, band, pos, mask, stats):
    """``_push``, or for a unit split two one-digit frames: the second place in this state's frame, the first in a
    copy of the state above it (each branch then fills its frame's state in place)."""
    if mask & UNIT_SPLIT == 0:
        return _push(frames, top, band, pos, mask, stats)
    stats[STAT_GUESSES] += 1
    mask &= ~UNIT_SPLIT
    frames[top, 0] = band >> 8
    frames[top, 1] = pos >> 8
    frames[top, 2] = mask
    for word in range(STATE_WORDS):
        states[top + 1, word] = states[top, word]
    frames[top + 1, 0] = band & 255
    frames[top + 1, 1] = pos & 255
    frames[top + 1, 2] = mask
    top += 2
    stats[STAT_MAX_DEPTH] = max(stats[STAT_MAX_DEPTH], top)
    return top
'''

#: ``proxy``: units compared by a cheaper score (peers holding the digit and candidates above two, no bivalue
#: term), and only the best of them scored in full against the cell
PROXY = """

@njit(cache=True, nogil=True, inline="always")
def _place_proxy(states, k, digit, band, pos):
    \"\"\"A place's peers holding the digit plus its candidates above two: the score without the bivalue term.\"\"\"
    peers = _peer_digits(states, k, digit, band, PEERS_SAME[pos], COLUMN[pos])
    base = S_COUNT + 4 * band
    count = ((np.int64(states[k, base]) >> pos) & 1) + 2 * ((np.int64(states[k, base + 1]) >> pos) & 1) + 4 * (
        (np.int64(states[k, base + 2]) >> pos) & 1) + 8 * ((np.int64(states[k, base + 3]) >> pos) & 1)
    return popcount(peers) + count - 2


@njit(cache=True, nogil=True, inline="always")
def _consider_proxy(states, k, digit, b1, p1, b2, p2, t0, t1, t2, best):
    \"\"\"``_consider`` by ``_place_proxy``.\"\"\"
    score = _place_proxy(states, k, digit, b1, p1) + _place_proxy(states, k, digit, b2, p2)
    if score > best[0]:
        return (score, digit, b1 | (b2 << 8), p1 | (p2 << 8))
    return best
"""
ROW_UNITS_PROXY = """

@njit(cache=True, nogil=True, inline="always")
def _row_units_proxy(states, k, digit, band, w, rows, t0, t1, t2, best):
    \"\"\"``_row_units`` by ``_consider_proxy``.\"\"\"
    while rows != 0:
        guard = lowest_bit_index(rows)
        rows &= rows - 1
        cells = w & (np.int64(ROW_BITS) << (guard - 9))
        p1 = lowest_bit_index(cells)
        p2 = lowest_bit_index(cells & (cells - 1))
        best = _consider_proxy(states, k, digit, band, p1, band, p2, t0, t1, t2, best)
    return best
"""
DIGIT_FIRST = """        nd = popcount(w0) + popcount(w1) + popcount(w2)
        vd = popcount(w0 & t0) + popcount(w1 & t1) + popcount(w2 & t2)
        proxy = PROXY
        if proxy <= best_proxy:
            continue
        best_proxy = proxy
        best = (np.int64(-1000000), np.int64(-1), np.int64(0), np.int64(0))
"""
#: ``fast``: the same units and scores as ``_best_split_unit``, visited in the same order, without its 36 small
#: loops a choice (their exits and the band branches of the scores mispredict: `split_loops` below): the units of
#: three digits a word (rows at bits 0-8, columns at 9-17 of each 18), the words by index, the best by selects.
FAST = """

@njit(cache=True, nogil=True, inline="always")
def _split_place_score(states, k, digit, band, pos, t):
    \"\"\"``_place_score`` (weights 2 and 1) without branches: the other two bands' words by index.\"\"\"
    same = PEERS_SAME[pos]
    column = COLUMN[pos]
    low = np.int64(band == 0)
    high = 2 - np.int64(band == 2)
    wb = np.int64(states[k, 3 * digit + band])
    wl = np.int64(states[k, 3 * digit + low])
    wh = np.int64(states[k, 3 * digit + high])
    peers = popcount(wb & same) + popcount(wl & column) + popcount(wh & column)
    bivalue = popcount(wb & t[band] & same) + popcount(wl & t[low] & column) + popcount(wh & t[high] & column)
    base = S_COUNT + 4 * band
    count = ((np.int64(states[k, base]) >> pos) & 1) + 2 * ((np.int64(states[k, base + 1]) >> pos) & 1) + 4 * (
        (np.int64(states[k, base + 2]) >> pos) & 1) + 8 * ((np.int64(states[k, base + 3]) >> pos) & 1)
    return peers + 2 * bivalue + count - 2


@njit(cache=True, nogil=True, inline="always")
def _digit_units(states, k, digit, many0, many1, many2, four0, four1, four2):
    \"\"\"A digit's rows (bits 3 * band + row) and columns (bits 9 + column) with exactly two places, screened.\"\"\"
    base = 3 * digit
    w0 = np.int64(states[k, base])
    w1 = np.int64(states[k, base + 1])
    w2 = np.int64(states[k, base + 2])
    rows0 = _two_places(w0, many0, four0)
    rows1 = _two_places(w1, many1, four1)
    rows2 = _two_places(w2, many2, four2)
    rows = ((rows0 >> 9) & 1) | ((rows0 >> 18) & 2) | ((rows0 >> 27) & 4)
    rows |= (((rows1 >> 9) & 1) | ((rows1 >> 18) & 2) | ((rows1 >> 27) & 4)) << 3
    rows |= (((rows2 >> 9) & 1) | ((rows2 >> 18) & 2) | ((rows2 >> 27) & 4)) << 6
    o0 = (w0 ^ (w0 >> 10) ^ (w0 >> 20)) & ROW_BITS
    o1 = (w1 ^ (w1 >> 10) ^ (w1 >> 20)) & ROW_BITS
    o2 = (w2 ^ (w2 >> 10) ^ (w2 >> 20)) & ROW_BITS
    m0 = ((w0 & (w0 >> 10)) | (w0 & (w0 >> 20)) | ((w0 >> 10) & (w0 >> 20))) & ROW_BITS
    m1 = ((w1 & (w1 >> 10)) | (w1 & (w1 >> 20)) | ((w1 >> 10) & (w1 >> 20))) & ROW_BITS
    m2 = ((w2 & (w2 >> 10)) | (w2 & (w2 >> 20)) | ((w2 >> 10) & (w2 >> 20))) & ROW_BITS
    odd_all = o0 & o1 & o2
    odd_two = ((o0 & o1) | (o0 & o2) | (o1 & o2)) & ~odd_all
    pair_one = (m0 ^ m1 ^ m2) & ~(m0 & m1 & m2)
    columns = (odd_two & ~(m0 | m1 | m2)) | (pair_one & ~(o0 | o1 | o2))
    if SCREEN >= 2:
        a = (w0 & ~many0) | (w1 & ~many1) | (w2 & ~many2)
        columns &= ~(a | (a >> 10) | (a >> 20))
    if SCREEN == 34:
        a = (w0 & four0) | (w1 & four1) | (w2 & four2)
        columns &= a | (a >> 10) | (a >> 20)
    return rows | (columns << 9)


@njit(cache=True, nogil=True)
def _best_split_fast(states, k, t):
    \"\"\"``_best_split_unit`` with one loop a word of units: (score, digit, bands, positions); digit -1 for none.\"\"\"
    many0, many1, many2 = _many(states, k, 0, False), _many(states, k, 1, False), _many(states, k, 2, False)
    four0, four1, four2 = _many(states, k, 0, True), _many(states, k, 1, True), _many(states, k, 2, True)
    best_score = np.int64(-1000000)
    best_digit = np.int64(-1)
    best_bands = np.int64(0)
    best_places = np.int64(0)
    for word in range(3):
        units = np.int64(0)
        for i in range(3):
            units |= _digit_units(states, k, 3 * word + i, many0, many1, many2, four0, four1, four2) << (18 * i)
        while units != 0:
            bit = lowest_bit_index(units)
            units &= units - 1
            digit = 3 * word + bit // 18
            unit = bit % 18
            # a row: its two places in one band word
            band = unit // 3
            cells = np.int64(states[k, 3 * digit + band]) & (np.int64(ROW_BITS) << (10 * (unit % 3)))
            # a column: its places as bits 10 * row + band
            column = unit - 9
            v = ((np.int64(states[k, 3 * digit]) >> column) & ROW_LOW) | (
                ((np.int64(states[k, 3 * digit + 1]) >> column) & ROW_LOW) << 1) | (
                ((np.int64(states[k, 3 * digit + 2]) >> column) & ROW_LOW) << 2)
            is_row = unit < 9
            first = lowest_bit_index(cells) if is_row else lowest_bit_index(v)
            second = lowest_bit_index(cells & (cells - 1)) if is_row else lowest_bit_index(v & (v - 1))
            b1 = band if is_row else first % 10
            b2 = band if is_row else second % 10
            p1 = first if is_row else 10 * (first // 10) + column
            p2 = second if is_row else 10 * (second // 10) + column
            score = _split_place_score(states, k, digit, b1, p1, t) + _split_place_score(states, k, digit, b2, p2, t)
            better = score > best_score
            best_score = score if better else best_score
            best_digit = digit if better else best_digit
            best_bands = (b1 | (b2 << 8)) if better else best_bands
            best_places = (p1 | (p2 << 8)) if better else best_places
    return best_score, best_digit, best_bands, best_places
"""
EXACT_BEST = """    if best[1] < 0:
        return best
    bands, places = best[2], best[3]
    return _consider(states, k, best[1], bands & 255, places & 255, bands >> 8, places >> 8, t0, t1, t2,
                     (np.int64(-1000000), np.int64(-1), np.int64(0), np.int64(0)))
"""


def split_search(screen: int, extra: str) -> str:
    """Round 16's unit search (``_place_score``, ``_consider``, ``_many``, ``_best_split_unit``) for one screen."""
    search = p16.UNIT_SEARCH.split("\n\n@njit(cache=True, nogil=True)\ndef _best_unit(")[0] + p16.SPLIT_SEARCH
    for name, value in (("UW *", "2 *"), ("UK *", "1 *"), ("SCREEN", str(screen))):
        search = search.replace(name, value)
    if extra == "mutant":  # a unit split's second place written as its first: `same` must see it
        old = "return (score, digit, b1 | (b2 << 8), p1 | (p2 << 8))"
        assert old in search
        search = search.replace(old, "return (score, digit, b1 | (b2 << 8), p1 | (p1 << 8))")
    if "fast" in extra:  # the units gathered into three words and scored branch-free (FAST)
        search = search + FAST.replace("SCREEN", str(screen))
        if "scan" in extra:  # the units found, none visited: the scan's own cost
            search = search.replace("        while units != 0:\n", "        best_score += popcount(units)\n"
                                    "        while units == -1:\n")
    if extra == "loops":  # the units visited, no place scored (a cheap stand-in score), never taken
        old = ("    score = _place_score(states, k, digit, b1, p1, t0, t1, t2) + _place_score(states, k, digit, b2, "
               "p2, t0, t1, t2)\n")
        assert old in search
        search = search.replace(old, "    score = p1 + p2 + b1\n")
    if extra.startswith("digit:"):  # only the units of the digit that scores best by a per-digit proxy
        old = "        if rows0 | rows1 | rows2 | columns == 0:\n            continue\n"
        assert old in search
        search = search.replace(old, old + DIGIT_FIRST.replace("PROXY", extra[6:]))
        search = search.replace("    for digit in range(9):\n        base = 3 * digit\n        w0 =",
                                "    best_proxy = np.int64(-1000000)\n    for digit in range(9):\n"
                                "        base = 3 * digit\n        w0 =")
    if extra == "proxy":
        search = search.replace("best = _consider(", "best = _consider_proxy(")
        search = search.replace("best = _row_units(", "best = _row_units_proxy(")
        search = search.replace("    return best\n\n\n@njit(cache=True, nogil=True)\ndef _best_split_unit(",
                                "    return best\n" + ROW_UNITS_PROXY
                                + "\n\n@njit(cache=True, nogil=True)\ndef _best_split_unit(")
        last = search.rindex("    return best\n")
        search = search[:last] + EXACT_BEST + search[last + len("    return best\n"):] + PROXY
    return search


def with_proof_loop(kernel: str) -> str:
    """The kernel with ``PROOF_LOOP`` in place of its one search loop (``_search_loaded``)."""
    if "\ndef _prove(" in kernel:
        return kernel
    start = kernel.index("@borrowing\ndef _search_loaded(")
    end = kernel.index("    return status\n", start) + len("    return status\n")
    return kernel[:start] + PROOF_LOOP + kernel[end:]


def variant(kernel: str, triads: str, screen: int | None, extra: str) -> str:
    """The kernel's text with the proof loop and the named rules in it."""
    kernel = with_proof_loop(kernel)
    for anchor in (PROVE_CHOOSE, PROVE_PUSH, PROVE_DESCEND, ANCHOR):
        assert anchor in kernel, "the kernel changed: the insertion points are gone"
    start = kernel.index("\n\n@borrowing\ndef _prove(")
    head, prove = kernel[:start], kernel[start:]
    extra_code = ""
    if extra == "call":
        extra_code += DESCEND_CALL
        prove = prove.replace("_descend(_propagate,", "_descend_call(_propagate,")
    if triads:
        rule = t14.RULE
        counts = "\n\n@njit(cache=True, nogil=True, inline=\"always\")\ndef _triad_counts("
        if triads.startswith("v256"):
            rule = rule.replace(counts, t14.VECTOR256 + counts, 1).replace(t14.LOOP, t14.VECTOR256_LOOP, 1)
        else:
            rule = rule.replace(counts, t14.VECTOR + counts, 1).replace(t14.LOOP, t14.VECTOR_LOOP, 1)
        mode = {"v256s": 11, "v256b": 7}.get(triads, 15)
        rule = re.sub(r"^TRIAD_MODE = -?\d+", f"TRIAD_MODE = {mode}", rule, flags=re.M)
        extra_code += "\n\n" + rule.rstrip() + PROPAGATE_PROOF
        if extra.startswith("gate"):  # the rule only where the proof loop would branch
            gate = GATE.replace("mask & (mask - 1) != 0", "popcount(mask) >= 3" if extra == "gate3" else
                                "mask & (mask - 1) != 0")
            if extra.startswith("gate_k"):
                gate = gate.replace("while pos >= 0", f"while top <= {extra[6:]} and pos >= 0")
            at = "        if pos < 0:\n"
            prove = prove.replace(PROVE_CHOOSE, PROVE_CHOOSE.replace(at, gate + at))
            prove = prove.replace("        else:\n            top = _push(",
                                  "        elif mask != 0:\n            top = _push(")
        else:
            if extra.startswith("k") and screen is None:
                extra_code = extra_code.replace("        count = _triad_rule(states, k)\n",
                                                f"        if k > {extra[1:]}:\n            return filled\n"
                                                "        count = _triad_rule(states, k)\n")
            prove = prove.replace("_descend(_propagate,", "_descend(_propagate_proof,")
    if screen is not None:
        choose = CHOOSE_PROOF.replace("MARGIN", "-3")
        never = extra in ("never", "loops", "stub", "fast never", "fast scan never")
        if extra.startswith("k") and screen is not None:  # the unit search only in states k <= K
            old = "    if pos < 0 or mask & (mask - 1) == 0:\n"
            choose = choose.replace(old, old.replace("pos < 0", f"k > {extra[1:]} or pos < 0"))
        if "fast" in extra:
            choose = choose.replace("unit = _best_split_unit(states, k, t0, t1, t2)",
                                    "unit = _best_split_fast(states, k, (t0, t1, t2))")
        choose = choose.replace("TAKE", "np.int64(states[k, 0]) == 0xFFFFFFFF" if never else "True")
        if extra == "stub":  # the proof chooser without the unit search: its own overhead
            choose = choose.replace("    unit = _best_split_unit(states, k, t0, t1, t2)\n",
                                    "    unit = (np.int64(-1000000), np.int64(-1), np.int64(0), np.int64(0))\n")
        extra_code += "\n\nUNIT_SPLIT = 1 << 20\n" + split_search(screen, extra) + choose
        prove = prove.replace("band, pos, mask = _choose_cell(states, top)",
                              "band, pos, mask = _choose_proof(states, top)")
        prove = prove.replace("top = _push(frames, top, band, pos, mask, stats)",
                              "top = _push_proof(states, frames, top, band, pos, mask, stats)")
    anchor = head.index(ANCHOR)
    return head[:anchor] + extra_code + head[anchor:] + prove


def modules(names: list[str]):
    """Import the kernel and each named variant with ``sudoku9_ab``'s driver (a scratch folder of their own)."""
    scratch = Path("/tmp") / "sudoku9_proof17_modules"
    scratch.mkdir(exist_ok=True)
    sys.path.insert(0, str(scratch))
    kernel = KERNEL.read_text()
    out = []
    for name in ["base", *names]:
        text = (kernel if name == "base" else variant(kernel, *VARIANTS[name])) + DRIVER
        path = scratch / f"p17_{name}.py"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        out.append((name, importlib.import_module(f"p17_{name}")))
    return out


def count(names: list[str], sets: list[str]) -> None:
    """``sudoku9_proof.count`` on this round's variants."""
    p16.count(names, sets, modules)


def same(names: list[str]) -> int:
    """``sudoku9_proof.same`` on this round's variants: statuses, solution counts and first solutions."""
    return p16.same(names, modules)


def main() -> None:
    """Parse the command line and write, count or check."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["write", "count", "same"])
    parser.add_argument("args", nargs="*", help="write: a folder; count, same: variant names (default: all)")
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=["top1465", "hardest"])
    args = parser.parse_args()
    if args.mode == "write":
        folder = Path(args.args[0])
        folder.mkdir(parents=True, exist_ok=True)
        kernel = KERNEL.read_text()
        (folder / "base.py").write_text(kernel)
        for name, spec in VARIANTS.items():
            (folder / f"{name}.py").write_text(variant(kernel, *spec))
        print(f"wrote base.py and {len(VARIANTS)} variants to {folder}")
    elif args.mode == "count":
        count(args.args or list(VARIANTS), args.sets)
    else:
        sys.exit(1 if same(args.args or list(VARIANTS)) else 0)


if __name__ == "__main__":
    main()
