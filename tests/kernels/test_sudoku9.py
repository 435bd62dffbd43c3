"""The 9x9 band kernel (``kernels/sudoku9.py``): its vector helpers against plain Python (``_digits_meeting``
against a gather, ``_pair_score`` against a count over the peers of a cell, ``_bit_gather`` in both its forms
against a bit-by-bit packing), and its counts past a first solution.

The search as a whole is checked against the reference engine elsewhere (``test_kernels_search.py``); this pins the
pieces written as LLVM vector code, whose lanes a slip could drop or shift without changing most trees, and the
part of a count that runs after its first solution (where a proof-phase search loop or rule would go), on grids
with many solutions rather than the unique puzzles the benchmarks count.
"""

import numpy as np
from numba import njit

from bitdoku.kernels import status, sudoku9
from bitdoku.kernels.bits import HAS_PEXT
from bitdoku.kernels.dfs import search_generic
from bitdoku.shape import Shape


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


def _count9(puzzle: np.ndarray, limit: int) -> tuple[int, np.ndarray]:
    """The band kernel's count of ``puzzle`` up to ``limit`` and the solutions it kept (all of them, up to it)."""
    solutions = np.zeros((limit, 81), np.uint8)
    stats = np.zeros(status.N_STATS, np.int64)
    sudoku9.search9(puzzle, limit, 10**7, status.ALL_RULES, solutions, stats)
    return int(stats[status.STAT_SOLUTIONS]), solutions


def _generic_count(puzzle: np.ndarray, limit: int) -> int:
    """The same count by the generic kernel, which shares no code with the band kernel's search."""
    tables = Shape(3, 3).tables
    stats = np.zeros(status.N_STATS, np.int64)
    search_generic(puzzle, 9, tables.units, tables.cell_units, tables.peers, limit, 10**7, status.ALL_RULES,
                   np.zeros((0, 81), np.uint8), stats, np.zeros(1, np.int64))
    return int(stats[status.STAT_SOLUTIONS])


def _is_solution9(solution: np.ndarray, puzzle: np.ndarray) -> bool:
    """Every row, column and box holds 1..9 and every given is kept."""
    units = sudoku9.STANDARD_UNITS
    return all(sorted(solution[unit].tolist()) == list(range(1, 10)) for unit in units) and bool(
        np.all(solution[puzzle != 0] == puzzle[puzzle != 0]))


def test_a_count_finds_every_solution_after_the_first_once():
    """Everything a count finds after its first solution comes from the search's proof phase (round 17b of
    NOTES-kernels.md ran it in a loop of its own): grids with a few to a few dozen solutions, counted in full, must
    give the generic kernel's count, distinct valid solutions, and the first solution of a search for one."""
    rng = np.random.default_rng(17)
    pattern = np.array([(3 * (r % 3) + r // 3 + c) % 9 for r in range(9) for c in range(9)])
    counts = set()
    for _ in range(60):
        grid = rng.permutation(9)[pattern].astype(np.uint8) + 1
        puzzle = grid.copy()
        puzzle[rng.choice(81, size=int(rng.integers(48, 58)), replace=False)] = 0
        expected = _generic_count(puzzle, 200)
        found, solutions = _count9(puzzle, 200)
        assert found == expected
        kept = solutions[:found]
        assert len({bytes(s) for s in kept}) == found
        assert all(_is_solution9(s, puzzle) for s in kept)
        assert np.array_equal(kept[0], _count9(puzzle, 1)[1][0])
        counts.add(found)
    assert len([c for c in counts if 2 <= c < 200]) >= 5  # the proof phase found many second, third, ... solutions


@njit
def _pair_score(states, k, first, second, band, pos, t0, t1, t2):
    """``_pair_score`` with the kernel's peer table, callable from Python."""
    return sudoku9._pair_score(states, k, first, second, sudoku9.PEER_LANES, band, pos, t0, t1, t2)


def _counted(words: np.ndarray, digits: tuple[int, int], band: int, pos: int, twos: list[int]) -> int:
    """The score cell by cell: each peer (same row, column or box, not the cell) holding a digit counts 1, 3 when it
    is one of the two-candidate cells ``twos`` (one band mask each)."""
    row, column = divmod(pos, 10)
    total = 0
    for other_band in range(3):
        for other_row in range(3):
            for other_column in range(9):
                bit = 10 * other_row + other_column
                same_band = other_band == band
                seen = (same_band and other_row == row) or other_column == column or (
                    same_band and other_column // 3 == column // 3)
                if not seen or (same_band and bit == pos):
                    continue
                weight = 3 if twos[other_band] >> bit & 1 else 1
                total += sum(weight for digit in digits if int(words[3 * digit + other_band]) >> bit & 1)
    return total


def test_pair_score_matches_a_count_over_the_peers():
    rng = np.random.default_rng(17)
    seen = set()
    for trial in range(3000):
        states = rng.integers(0, 1 << 32, size=(3, sudoku9.STATE_WORDS), dtype=np.uint64).astype(np.uint32)
        k = trial % 3
        band = int(rng.integers(0, 3))
        pos = int(rng.choice([p for p in range(30) if p % 10 != 9]))
        first, second = sorted(int(d) for d in rng.choice(9, size=2, replace=False))
        twos = [int(rng.integers(0, 1 << 30)) & sudoku9.BAND_FULL for _ in range(3)]
        expected = _counted(states[k], (first, second), band, pos, twos)
        got = _pair_score(states, np.int64(k), np.int64(first), np.int64(second), np.int64(band), np.int64(pos),
                          *(np.int64(t) for t in twos))
        assert got == expected, (trial, k, band, pos, first, second)
        seen.add((band, second == 8))
    assert len(seen) == 6  # every band, with and without digit 9 (whose 4-word load reaches S_UNSOLVED)


@njit
def _hidden_cells(states, k, first, second):
    """``_hidden_cells``, callable from Python."""
    return sudoku9._hidden_cells(states, k, first, second)


def _hidden_by_units(words: np.ndarray, unsolved: list[int]) -> tuple[bool, list[int]]:
    """The hidden-singles scan cell by cell over a digit's three band words: whether some row, column or box has no
    place, and per band the empty cells that are the only place of their row, column or box."""
    places = {(3 * band + row, column) for band in range(3) for row in range(3) for column in range(9)
              if int(words[band]) >> (10 * row + column) & 1}
    units = [[(r, c) for c in range(9)] for r in range(9)] + [[(r, c) for r in range(9)] for c in range(9)] + [
        [(3 * (b // 3) + r, 3 * (b % 3) + c) for r in range(3) for c in range(3)] for b in range(9)]
    missing = False
    alone = [0, 0, 0]
    for unit in units:
        held = [cell for cell in unit if cell in places]
        missing |= not held
        if len(held) == 1:
            row, column = held[0]
            alone[row // 3] |= 1 << (10 * (row % 3) + column)
    return missing, [alone[band] & unsolved[band] for band in range(3)]


def test_hidden_cells_matches_a_scan_over_the_units():
    rng = np.random.default_rng(18)
    seen = set()
    for trial in range(3000):
        states = rng.integers(0, 1 << 32, size=(2, sudoku9.STATE_WORDS), dtype=np.uint64).astype(np.uint32)
        k = trial % 2
        digits = [int(d) for d in rng.choice(9, size=2, replace=trial % 5 == 0)]  # the same digit twice too
        for digit in digits:
            density = rng.uniform(0.1, 0.6)
            for band in range(3):
                sparse = rng.random(30) < density
                states[k, 3 * digit + band] = int((sparse * (1 << np.arange(30))).sum()) & sudoku9.BAND_FULL
        for band in range(3):
            states[k, sudoku9.S_UNSOLVED + band] &= sudoku9.BAND_FULL
        got = _hidden_cells(states, np.int64(k), np.int64(digits[0]), np.int64(digits[1]))
        for half, digit in enumerate(digits):
            missing, alone = _hidden_by_units(states[k, 3 * digit:3 * digit + 3],
                                              [int(states[k, sudoku9.S_UNSOLVED + b]) for b in range(3)])
            scan = got[4 * half:4 * half + 4]
            assert (scan[0] != 0) == missing, (trial, half, digit)
            if not missing:
                assert list(scan[1:]) == alone, (trial, half, digit)
                seen.add((half, digit == 8, tuple(a != 0 for a in alone)))
    assert len(seen) >= 24  # both halves, digit 9 (whose load reaches S_UNSOLVED), singles in each band


def _gather_all(mask: int, pext: bool | None):
    """A compiled loop over ``_bit_gather(mask, pext)``, callable from Python."""
    gather = sudoku9._bit_gather(mask, pext)

    @njit
    def run(values, out):
        for i in range(values.shape[0]):
            out[i] = gather(values[i])

    return run


def _packed(value: int, mask: int) -> int:
    """The bits of ``value`` under ``mask``, packed to the low end one bit at a time (what ``pext`` does)."""
    out, position = 0, 0
    for bit in range(64):
        if mask >> bit & 1:
            out |= (value >> bit & 1) << position
            position += 1
    return out


def test_bit_gather_packs_the_masked_bits_in_order_in_both_forms():
    rng = np.random.default_rng(19)
    values = rng.integers(-(1 << 63), (1 << 63) - 1, size=2000, dtype=np.int64)
    values[:3] = (0, -1, sudoku9.BAND_FULL)
    masks = [sudoku9.BOX_COLUMNS * sudoku9.ROW_LOW, 7 * (1 | 1 << 9 | 1 << 18), 0b1101_0000_1110_0101 << 40]
    forms = [None, False] + ([True] if HAS_PEXT else [])  # None: the form this CPU runs
    for mask in masks:
        expected = [_packed(int(v) & ((1 << 64) - 1), mask) for v in values]
        for form in forms:
            out = np.zeros(values.shape[0], np.int64)
            _gather_all(mask, form)(values, out)
            assert out.tolist() == expected, (hex(mask), form)


@njit
def _row_triads(words, out):
    """``_row_triads`` over an array of band words, callable from Python."""
    for i in range(words.shape[0]):
        out[i] = sudoku9._row_triads(words[i])


def test_row_triads_match_a_test_triad_by_triad():
    rng = np.random.default_rng(23)
    words = rng.integers(0, 1 << 30, size=3000, dtype=np.int64) & sudoku9.BAND_FULL
    words[:2] = (0, sudoku9.BAND_FULL)
    out = np.zeros(words.shape[0], np.int64)
    _row_triads(words, out)
    for word, got in zip(words.tolist(), out.tolist(), strict=True):
        expected = sum(1 << (3 * row + box) for row in range(3) for box in range(3)
                       if word >> (10 * row + 3 * box) & 7)
        assert got == expected, hex(word)
