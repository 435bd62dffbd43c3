r"""Tried in round 16 (NOTES-kernels.md) and not kept: a branching rule of its own for the proof phase of a count.

Once a count-to-2 search has found its first solution, the rest of the search is exhaustive: which cell (or which
digit-in-unit) it splits changes the size of the proof that no second solution exists, never a status, a count or
the first solution. This script writes copies of ``src/bitdoku/kernels/sudoku9.py`` whose ``_choose_cell`` takes a
``proof`` flag (``stats[STAT_SOLUTIONS] > 0``, read by ``_search_loaded``) and, in the proof phase, either

* scores the bivalue cells differently (``score`` variants: an expression of ``p1, p2`` (peers holding each digit),
  ``b1, b2`` (those of them with two candidates) and ``s1 = p1 + 2 * b1``, ``s2``; the first phase keeps ``s1 + s2``),
* or may split a digit's two places in a row, column or box instead of a cell (``unit`` variants): a place scores
  as a digit of ``_best_in_band`` (``p + UW * b``) plus ``UK`` for each candidate of its cell above two, a unit the
  sum of its two places; the unit is taken when it beats the best cell's score plus ``MARGIN``. ``screen`` 2 keeps
  only units whose two cells have three candidates or more, 34 also needs one with four or more. A unit branch is a
  frame whose digit mask holds ``d`` and ``d + 16`` and whose band and position hold the first place in bits 0-7 and
  the second in bits 8-15; the search loop decodes them.

It counts the trees (limit 1, limit 2 and their difference, the proof), checks statuses, solution counts and first
solutions against the kernel itself, and leaves the timing to ``sudoku9_ab.py``. From the repository root::

    PYTHONPATH=src python research/sudoku9_proof.py write /tmp/proof        # base.py and one file a variant
    PYTHONPATH=src python research/sudoku9_proof.py count prod u_all_k1 f_rc f_s34 --sets top1465 hardest
    PYTHONPATH=src python research/sudoku9_proof.py same f_rc f_s34        # statuses, counts, first solutions
    PYTHONPATH=src python benchmarks/sudoku9_ab.py time p16b=/tmp/proof/base.py p16rc=/tmp/proof/f_rc.py \
        p16never=/tmp/proof/f_never.py p16b2=/tmp/proof/base.py --copies 2 --rounds 7 --every 2 --sets hardest
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # the maintained scripts it uses
from sudoku9_ab import BUDGETS, DATA, DRIVER, EDGE, SETS, load, run

KERNEL = Path(__file__).resolve().parents[1] / "src" / "bitdoku" / "kernels" / "sudoku9.py"

#: proof-phase score expressions for bivalue cells (the first phase keeps ``s1 + s2``)
SCORES = {
    "ctl": "s1 + s2", "w10": "p1 + p2", "w11": "p1 + p2 + b1 + b2", "w13": "p1 + p2 + 3 * (b1 + b2)",
    "w14": "p1 + p2 + 4 * (b1 + b2)", "w16": "p1 + p2 + 6 * (b1 + b2)", "w01": "b1 + b2",
    "w23": "2 * (p1 + p2) + 3 * (b1 + b2)", "min": "64 * min(s1, s2) + s1 + s2", "max": "64 * max(s1, s2) + s1 + s2",
    "prod": "s1 * s2", "neg": "-(s1 + s2)", "lowest": "0",
}
#: name -> (UW, UK, MARGIN, rows, columns, boxes, screen[, extra]); extra: "never" (scored, never taken),
#: "stub" (no unit search at all), "depthD" (only in states k <= D), "cellT" (only when the best cell scores < T)
UNITS = {
    "u_all": (2, 0, 0, 1, 1, 1, 0), "u_all_k1": (2, 1, 0, 1, 1, 1, 0), "u_all_k2": (2, 2, 0, 1, 1, 1, 0),
    "u_all_k3": (2, 3, 0, 1, 1, 1, 0), "u_k1_w1": (1, 1, 0, 1, 1, 1, 0), "u_k1_w3": (3, 1, 0, 1, 1, 1, 0),
    "u_k1_m2": (2, 1, 2, 1, 1, 1, 0), "u_k1_mn2": (2, 1, -2, 1, 1, 1, 0), "u_k1_mn3": (2, 1, -3, 1, 1, 1, 0),
    "u_k1_mn4": (2, 1, -4, 1, 1, 1, 0), "u_k1_mn6": (2, 1, -6, 1, 1, 1, 0),
    "u_r": (2, 1, -3, 1, 0, 0, 0), "u_c": (2, 1, -3, 0, 1, 0, 0), "u_b": (2, 1, -3, 0, 0, 1, 0),
    "f_rc": (2, 1, -3, 1, 1, 0, 0), "f_s2": (2, 1, -3, 1, 1, 0, 2), "f_s34": (2, 1, -3, 1, 1, 0, 34),
    "f_s2_depth3": (2, 1, -3, 1, 1, 0, 2, "depth3"), "f_s2_cell14": (2, 1, -3, 1, 1, 0, 2, "cell14"),
    "f_s2_cell16": (2, 1, -3, 1, 1, 0, 2, "cell16"),
    "f_never": (2, 1, -3, 1, 1, 0, 2, "never"), "f_stub": (2, 1, -3, 1, 1, 0, 2, "stub"),
}

SCORE = ("        score = popcount(first) + popcount(second) + 2 * (popcount(first & bivalue) + "
         "popcount(second & bivalue))\n")
CHOOSE = "        band, pos, mask = _choose_cell(states, top)\n"
CHOOSE_PROOF = "        band, pos, mask = _choose_cell(states, top, stats[STAT_SOLUTIONS] > 0)\n"
ANCHOR = "\n\n@njit(cache=True, nogil=True)\ndef _choose_cell(states, k):"
SPECIAL = "    if best_count != 1 and (t0 | t1 | t2) != 0 and popcount(t0) + popcount(t1) + popcount(t2) == 1:\n"

UNIT_SEARCH = '''

@njit(cache=True, nogil=True, inline="always")
def _place_score(states, k, digit, band, pos, t0, t1, t2):
    """A digit's score at a cell as ``_best_in_band`` scores it (weight UW), plus UK a candidate above two."""
    same = PEERS_SAME[pos]
    column = COLUMN[pos]
    if band == 0:
        bivalue = (t0 & same) | (((t1 & column) | ((t2 & column) << 1)) << 30)
    elif band == 1:
        bivalue = (t1 & same) | (((t0 & column) | ((t2 & column) << 1)) << 30)
    else:
        bivalue = (t2 & same) | (((t0 & column) | ((t1 & column) << 1)) << 30)
    peers = _peer_digits(states, k, digit, band, same, column)
    base = S_COUNT + 4 * band
    count = ((np.int64(states[k, base]) >> pos) & 1) + 2 * ((np.int64(states[k, base + 1]) >> pos) & 1) + 4 * (
        (np.int64(states[k, base + 2]) >> pos) & 1) + 8 * ((np.int64(states[k, base + 3]) >> pos) & 1)
    return popcount(peers) + UW * popcount(peers & bivalue) + UK * (count - 2)


@njit(cache=True, nogil=True, inline="always")
def _consider(states, k, digit, b1, p1, b2, p2, t0, t1, t2, best):
    """``best`` (score, digit, bands, positions) updated with the unit whose two places are given."""
    score = _place_score(states, k, digit, b1, p1, t0, t1, t2) + _place_score(states, k, digit, b2, p2, t0, t1, t2)
    if score > best[0]:
        return (score, digit, b1 | (b2 << 8), p1 | (p2 << 8))
    return best


@njit(cache=True, nogil=True, inline="always")
def _many(states, k, band, four):
    """The empty cells of a band with three candidates or more (four or more with ``four``)."""
    base = S_COUNT + 4 * band
    high = np.int64(states[k, base + 2]) | np.int64(states[k, base + 3])
    if not four:
        high |= np.int64(states[k, base]) & np.int64(states[k, base + 1])
    return np.int64(states[k, S_UNSOLVED + band]) & high


@njit(cache=True, nogil=True)
def _best_unit(states, k, t0, t1, t2):
    """The best (digit, unit) with exactly two places: (score, digit, bands, positions); digit -1 for none."""
    best = (np.int64(-1000000), np.int64(-1), np.int64(0), np.int64(0))
    many0, many1, many2 = _many(states, k, 0, False), _many(states, k, 1, False), _many(states, k, 2, False)
    four0, four1, four2 = _many(states, k, 0, True), _many(states, k, 1, True), _many(states, k, 2, True)
    for digit in range(9):
        base = 3 * digit
        for band in range(3):
            w = np.int64(states[k, base + band])
            many = many0 if band == 0 else (many1 if band == 1 else many2)
            four = four0 if band == 0 else (four1 if band == 1 else four2)
            x1 = w & ((w | GUARDS) - ROW_LOW)  # each row without its lowest place
            x2 = x1 & ((x1 | GUARDS) - ROW_LOW)
            rows = GUARDS & (x1 + ROW_BITS * ROW_LOW) & ~(x2 + ROW_BITS * ROW_LOW)  # the guard of a two-place row
            if SCREEN >= 2:
                rows &= ~((w & ~many) + ROW_BITS * ROW_LOW)
            if SCREEN == 34:
                rows &= (w & four) + ROW_BITS * ROW_LOW
            while MODE_ROWS and rows != 0:
                guard = lowest_bit_index(rows)
                rows &= rows - 1
                cells = w & (np.int64(ROW_BITS) << (guard - 9))
                p1 = lowest_bit_index(cells)
                p2 = lowest_bit_index(cells & (cells - 1))
                best = _consider(states, k, np.int64(digit), np.int64(band), p1, np.int64(band), p2, t0, t1, t2, best)
            for j in range(MODE_BOXES * 3):
                box = w & BOX_BLOCK[j]
                in_row = popcount(box & ROW_BITS) == 2 or popcount(box & (ROW_BITS << 10)) == 2 or popcount(
                    box & (ROW_BITS << 20)) == 2
                if popcount(box) == 2 and not in_row:
                    p1 = lowest_bit_index(box)
                    p2 = lowest_bit_index(box & (box - 1))
                    best = _consider(states, k, np.int64(digit), np.int64(band), p1, np.int64(band), p2, t0, t1, t2,
                                     best)
        w0 = np.int64(states[k, base])
        w1 = np.int64(states[k, base + 1])
        w2 = np.int64(states[k, base + 2])
        o0 = (w0 ^ (w0 >> 10) ^ (w0 >> 20)) & ROW_BITS
        o1 = (w1 ^ (w1 >> 10) ^ (w1 >> 20)) & ROW_BITS
        o2 = (w2 ^ (w2 >> 10) ^ (w2 >> 20)) & ROW_BITS
        m0 = ((w0 & (w0 >> 10)) | (w0 & (w0 >> 20)) | ((w0 >> 10) & (w0 >> 20))) & ROW_BITS
        m1 = ((w1 & (w1 >> 10)) | (w1 & (w1 >> 20)) | ((w1 >> 10) & (w1 >> 20))) & ROW_BITS
        m2 = ((w2 & (w2 >> 10)) | (w2 & (w2 >> 20)) | ((w2 >> 10) & (w2 >> 20))) & ROW_BITS
        # a column's count is (o0 + o1 + o2) + 2 * (m0 + m1 + m2): two is two odd bands and no pair, or one pair
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
        while MODE_COLUMNS and columns != 0:
            c = lowest_bit_index(columns)
            columns &= columns - 1
            line = ROW_LOW << c
            n = 0
            b1 = np.int64(0)
            p1 = np.int64(0)
            b2 = np.int64(0)
            p2 = np.int64(0)
            for band in range(3):
                cells = np.int64(states[k, base + band]) & line
                while cells != 0:
                    pos = lowest_bit_index(cells)
                    cells &= cells - 1
                    if n == 0:
                        b1, p1 = np.int64(band), pos
                    else:
                        b2, p2 = np.int64(band), pos
                    n += 1
            best = _consider(states, k, np.int64(digit), b1, p1, b2, p2, t0, t1, t2, best)
    return best
'''

PROOF_CHOICE = '''    if proof and best_count != 1 and GATE:
        cell_score = np.int64(-1)
        if (t0 | t1 | t2) != 0:
            best = (np.int64(-1), best_band, best_pos)
            for band in range(3):
                best = _best_in_band(states, k, band, t0, t1, t2, best)
            cell_score = best[0]
            best_band, best_pos = best[1], best[2]
        unit = (np.int64(-1000000), np.int64(-1), np.int64(0), np.int64(0))
        if SEARCH:
            unit = _best_unit(states, k, t0, t1, t2)
        if unit[1] >= 0 and unit[0] > cell_score + MARGIN and TAKE:
            return unit[2], unit[3], (np.int64(1) << unit[1]) | (np.int64(1) << (unit[1] + 16))
        mask = _digits_meeting(_band_words(states, k, best_band), np.int64(1) << best_pos)
        return best_band, best_pos, mask
'''

LOOP = '''            band = frames[frame, 0]
            filled = -1
            if _place(states, target, digit, band, frames[frame, 1]):
'''
LOOP_UNIT = '''            band = frames[frame, 0]
            cell = frames[frame, 1]
            if digit >= 16:  # the second place of a unit branch
                digit -= 16
                band >>= 8
                cell >>= 8
            else:
                band &= 255
                cell &= 255
            filled = -1
            if _place(states, target, digit, band, cell):
'''

#: The second form (``g_*``): the proof phase's own chooser ``_choose_split`` (``_choose_cell`` untouched, picked by
#: ``_search_loaded`` on ``stats[STAT_SOLUTIONS]``), the unit search with no loop a digit unless the digit has a
#: unit left after the screen, and a unit split pushed as two frames (the second place below, the first above it,
#: each with one digit), so that the search loop decodes nothing. name -> (UW, UK, MARGIN, screen[, extra]);
#: extra as in ``UNITS``, and "scan" (the words scanned, no unit scored), "mutant" (a unit split's second place
#: wrong: ``same`` must find it)
SPLITS = {"g_rc": (2, 1, -3, 0), "g_s2": (2, 1, -3, 2), "g_s34": (2, 1, -3, 34), "g_never": (2, 1, -3, 34, "never"),
          "g_stub": (2, 1, -3, 34, "stub"), "g_scan": (2, 1, -3, 34, "scan"), "g_mutant": (2, 1, -3, 34, "mutant")}

SPLIT_SEARCH = """

@njit(cache=True, nogil=True, inline="always")
def _two_places(w, many, four):
    \"\"\"The guard bits of the rows of a band word with exactly two places (after the screen).\"\"\"
    x1 = w & ((w | GUARDS) - ROW_LOW)  # each row without its lowest place
    x2 = x1 & ((x1 | GUARDS) - ROW_LOW)
    rows = GUARDS & (x1 + ROW_BITS * ROW_LOW) & ~(x2 + ROW_BITS * ROW_LOW)
    if SCREEN >= 2:
        rows &= ~((w & ~many) + ROW_BITS * ROW_LOW)
    if SCREEN == 34:
        rows &= (w & four) + ROW_BITS * ROW_LOW
    return rows


@njit(cache=True, nogil=True, inline="always")
def _row_units(states, k, digit, band, w, rows, t0, t1, t2, best):
    \"\"\"``best`` updated with the two-place rows of one band word.\"\"\"
    while rows != 0:
        guard = lowest_bit_index(rows)
        rows &= rows - 1
        cells = w & (np.int64(ROW_BITS) << (guard - 9))
        p1 = lowest_bit_index(cells)
        p2 = lowest_bit_index(cells & (cells - 1))
        best = _consider(states, k, digit, band, p1, band, p2, t0, t1, t2, best)
    return best


@njit(cache=True, nogil=True)
def _best_split_unit(states, k, t0, t1, t2):
    \"\"\"``_best_unit`` for rows and columns, branch-light: (score, digit, bands, positions); digit -1 for none.\"\"\"
    best = (np.int64(-1000000), np.int64(-1), np.int64(0), np.int64(0))
    many0, many1, many2 = _many(states, k, 0, False), _many(states, k, 1, False), _many(states, k, 2, False)
    four0, four1, four2 = _many(states, k, 0, True), _many(states, k, 1, True), _many(states, k, 2, True)
    for digit in range(9):
        base = 3 * digit
        w0 = np.int64(states[k, base])
        w1 = np.int64(states[k, base + 1])
        w2 = np.int64(states[k, base + 2])
        rows0 = _two_places(w0, many0, four0)
        rows1 = _two_places(w1, many1, four1)
        rows2 = _two_places(w2, many2, four2)
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
        if rows0 | rows1 | rows2 | columns == 0:
            continue
        d = np.int64(digit)
        best = _row_units(states, k, d, np.int64(0), w0, rows0, t0, t1, t2, best)
        best = _row_units(states, k, d, np.int64(1), w1, rows1, t0, t1, t2, best)
        best = _row_units(states, k, d, np.int64(2), w2, rows2, t0, t1, t2, best)
        while columns != 0:
            c = lowest_bit_index(columns)
            columns &= columns - 1
            # the column's places: bit 10 * row + band
            v = ((w0 >> c) & ROW_LOW) | (((w1 >> c) & ROW_LOW) << 1) | (((w2 >> c) & ROW_LOW) << 2)
            i1 = lowest_bit_index(v)
            i2 = lowest_bit_index(v & (v - 1))
            best = _consider(states, k, d, i1 % 10, 10 * (i1 // 10) + c, i2 % 10, 10 * (i2 // 10) + c, t0, t1, t2,
                             best)
    return best
"""

SPLIT_CHOICE = """    if best_count != 1 and GATE:
        cell_score = np.int64(-1)
        if (t0 | t1 | t2) != 0:
            best = (np.int64(-1), best_band, best_pos)
            for band in range(3):
                best = _best_in_band(states, k, band, t0, t1, t2, best)
            cell_score = best[0]
            best_band, best_pos = best[1], best[2]
        unit = (np.int64(-1000000), np.int64(-1), np.int64(0), np.int64(0))
        if SEARCH:
            unit = _best_split_unit(states, k, t0, t1, t2)
        if unit[1] >= 0 and unit[0] > cell_score + MARGIN and TAKE:
            return unit[2], unit[3], (np.int64(1) << unit[1]) | UNIT_SPLIT
        mask = _digits_meeting(_band_words(states, k, best_band), np.int64(1) << best_pos)
        return best_band, best_pos, mask
"""

PUSH = """            frames[top, 0] = band
            frames[top, 1] = pos
            frames[top, 2] = mask
            top += 1
"""
PUSH_SPLIT = """            if mask & UNIT_SPLIT == 0:
                frames[top, 0] = band
                frames[top, 1] = pos
                frames[top, 2] = mask
                top += 1
            else:  # a unit split: the second place in this state's frame, the first in a copy above it
                mask &= ~UNIT_SPLIT
                frames[top, 0] = band >> 8
                frames[top, 1] = pos >> 8
                frames[top, 2] = mask
                for word in range(STATE_WORDS):
                    states[top + 1, word] = states[top, word]
                top += 1
                frames[top, 0] = band & 255
                frames[top, 1] = pos & 255
                frames[top, 2] = mask
                top += 1
"""


def split_variant(kernel: str, uw: int, uk: int, margin: int, screen: int, extra: str = "") -> str:
    """The kernel with ``_choose_split`` for the proof phase (the ``g_*`` form, see ``SPLITS``)."""
    search = UNIT_SEARCH.split("\n\n@njit(cache=True, nogil=True)\ndef _best_unit(")[0] + SPLIT_SEARCH
    for name, value in (("UW *", f"{uw} *"), ("UK *", f"{uk} *"), ("SCREEN", str(screen))):
        search = search.replace(name, value)
    choice = SPLIT_CHOICE.replace("GATE", "True").replace("MARGIN", str(margin))
    choice = choice.replace("SEARCH", "False" if extra == "stub" else "True")
    choice = choice.replace("TAKE", "np.int64(states[k, 0]) == 0xFFFFFFFF" if extra == "never" else "True")
    if extra == "scan":  # every digit skipped after its scan: no unit is ever scored or taken
        search = search.replace("        if rows0 | rows1 | rows2 | columns == 0:\n",
                                "        if rows0 | rows1 | rows2 | columns != 0x7FFFFFFFFFFFFFF:\n")
    if extra == "mutant":
        search = search.replace("return (score, digit, b1 | (b2 << 8), p1 | (p2 << 8))",
                                "return (score, digit, b1 | (b2 << 8), p1 | (p1 << 8))")
    start = kernel.index(ANCHOR)
    end = kernel.index("\n\n@njit", start + len(ANCHOR))
    split = kernel[start:end].replace("def _choose_cell(states, k):", "def _choose_split(states, k):")
    split = split.replace(SPECIAL, choice + SPECIAL)
    assert choice in split
    text = kernel[:end] + "\nUNIT_SPLIT = 1 << 20\n" + search + split + kernel[end:]
    assert PUSH in text
    text = text.replace(PUSH, PUSH_SPLIT)
    return text.replace(CHOOSE, "        if stats[STAT_SOLUTIONS] == 0:\n    " + CHOOSE + "        else:\n"
                        "            band, pos, mask = _choose_split(states, top)\n")


def _proof_flag(text: str) -> str:
    """The kernel with ``_choose_cell`` taking the proof flag from ``_search_loaded``."""
    assert CHOOSE in text and ANCHOR in text, "the kernel changed: the insertion points are gone"
    return text.replace("def _choose_cell(states, k):", "def _choose_cell(states, k, proof):").replace(
        CHOOSE, CHOOSE_PROOF)


def score_variant(kernel: str, expr: str) -> str:
    """The kernel with ``expr`` as the bivalue cells' score in the proof phase."""
    assert SCORE in kernel
    new = ("        p1 = popcount(first)\n        p2 = popcount(second)\n        b1 = popcount(first & bivalue)\n"
           "        b2 = popcount(second & bivalue)\n        s1 = p1 + 2 * b1\n        s2 = p2 + 2 * b2\n"
           f"        score = ({expr}) if proof else s1 + s2\n")
    text = _proof_flag(kernel.replace(SCORE, new))
    text = text.replace("def _best_in_band(states, k, band, t0, t1, t2, best):",
                        "def _best_in_band(states, k, band, t0, t1, t2, best, proof):")
    text = text.replace("best = _best_in_band(states, k, band, t0, t1, t2, best)",
                        "best = _best_in_band(states, k, band, t0, t1, t2, best, proof)")
    return text.replace("best = (np.int64(-1), best_band, best_pos)",
                        "best = (np.int64(-1000000), best_band, best_pos)")


def unit_variant(kernel: str, uw: int, uk: int, margin: int, rows: int, columns: int, boxes: int, screen: int,
                 extra: str = "") -> str:
    """The kernel with the unit branch of the proof phase (see the module docstring)."""
    search = UNIT_SEARCH
    for name, value in (("UW *", f"{uw} *"), ("UK *", f"{uk} *"), ("MODE_ROWS", str(rows)),
                        ("MODE_COLUMNS", str(columns)), ("MODE_BOXES", str(boxes)), ("SCREEN", str(screen))):
        search = search.replace(name, str(value))
    gate = f"k <= {extra[5:]}" if extra.startswith("depth") else "True"
    choice = PROOF_CHOICE.replace("GATE", gate).replace("MARGIN", str(margin))
    choice = choice.replace("SEARCH", "False" if extra == "stub" else "True")
    choice = choice.replace("TAKE", "np.int64(states[k, 0]) == 0xFFFFFFFF" if extra == "never" else "True")
    if extra.startswith("cell"):
        choice = choice.replace("        if True:\n            unit = _best_unit",
                                f"        if cell_score < {extra[4:]}:\n            unit = _best_unit")
    text = _proof_flag(kernel.replace(ANCHOR, search + ANCHOR))
    assert SPECIAL in text and LOOP in text
    return text.replace(SPECIAL, choice + SPECIAL).replace(LOOP, LOOP_UNIT)


def variant(kernel: str, name: str) -> str:
    """The text of a named variant."""
    if name in SPLITS:
        return split_variant(kernel, *SPLITS[name])
    return score_variant(kernel, SCORES[name]) if name in SCORES else unit_variant(kernel, *UNITS[name])


def modules(names: list[str]):
    """Import the kernel and each named variant with ``sudoku9_ab``'s driver (a scratch folder of their own)."""
    scratch = Path("/tmp") / "sudoku9_proof_modules"
    scratch.mkdir(exist_ok=True)
    sys.path.insert(0, str(scratch))
    kernel = KERNEL.read_text()
    out = []
    for name in ["base", *names]:
        text = (kernel if name == "base" else variant(kernel, name)) + DRIVER
        path = scratch / f"p16_{name}.py"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        out.append((name, importlib.import_module(f"p16_{name}")))
    return out


def count(names: list[str], sets: list[str], load_modules=None) -> None:
    """Print nodes and guesses a puzzle at limits 1 and 2, and the proof's nodes (17-clue: first 10,000).
    ``load_modules``: the importer of the variants (``modules`` by default; ``sudoku9_proof17.py`` passes its own)."""
    for name, module in (load_modules or modules)(names):
        for label in sets:
            puzzles = load(SETS[label], DATA)[:10_000]
            first, unique = run(module, puzzles, 1)[1], run(module, puzzles, 2)[1]
            print(f"{name:12s} {label:8s} nodes {first[:, 1].mean():8.3f} / {unique[:, 1].mean():8.3f}  guesses "
                  f"{first[:, 2].mean():8.3f} / {unique[:, 2].mean():8.3f}  proof nodes "
                  f"{unique[:, 1].mean() - first[:, 1].mean():8.3f}", flush=True)


def same(names: list[str], load_modules=None) -> int:
    """Count the cases where a variant's statuses, solution counts or first solutions differ from the kernel's.

    The three sets at limits 1 and 2; the edge files and the empty grid under rule flags 0..7 at the (limit,
    budget) pairs of ``sudoku9_ab.BUDGETS``, compared where neither search ran out of budget (the trees differ after
    a first solution, so may the budget's end). ``load_modules`` as in ``count``.
    """
    mods = (load_modules or modules)(names)
    cases = [(label, load(file, DATA), limit, 7, 10**9) for label, file in SETS.items() for limit in (1, 2)]
    for file in EDGE:
        puzzles = np.concatenate([load(file, DATA), np.zeros((1, 81), np.uint8)])
        cases += [(file, puzzles, limit, flags, budget) for flags in range(8) for limit, budget in BUDGETS]
    bad = 0
    for label, puzzles, limit, flags, budget in cases:
        status, stats, solutions = run(mods[0][1], puzzles, limit, flags, budget)
        for name, module in mods[1:]:
            other, other_stats, other_solutions = run(module, puzzles, limit, flags, budget)
            done = (status != 2) & (other != 2)  # BUDGET_EXHAUSTED
            found = done & (stats[:, 0] > 0)
            wrong = int((done & (status != other)).sum() + (done & (stats[:, 0] != other_stats[:, 0])).sum()
                        + (found & (solutions[:, 0] != other_solutions[:, 0]).any(axis=1)).sum())
            if wrong:
                print(f"mismatch: {name} {label} limit={limit} flags={flags} budget={budget}: {wrong}")
            bad += wrong
    print(f"checked {len(cases)} cases x {len(mods) - 1} variants: {bad} mismatches")
    return bad


def main() -> None:
    """Parse the command line and write, count or check."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["write", "count", "same"])
    parser.add_argument("args", nargs="*", help="write: a folder; count, same: variant names (default: all)")
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=["top1465", "hardest"])
    args = parser.parse_args()
    names = [*SCORES, *UNITS, *SPLITS]
    if args.mode == "write":
        folder = Path(args.args[0])
        folder.mkdir(parents=True, exist_ok=True)
        kernel = KERNEL.read_text()
        (folder / "base.py").write_text(kernel)
        for name in names:
            (folder / f"{name}.py").write_text(variant(kernel, name))
        print(f"wrote base.py and {len(names)} variants to {folder}")
    elif args.mode == "count":
        count(args.args or names, args.sets)
    else:
        sys.exit(1 if same(args.args or names) else 0)


if __name__ == "__main__":
    main()
