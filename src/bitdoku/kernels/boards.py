"""The search for every shape but the classic 9x9: digit x row bitboards, each rule a pass of word operations.

Representation: for each digit d and row i, one uint64 word holds the columns of row i where d may still go (a
filled cell keeps its own digit's bit); one more word a row holds the row's open columns; then two words say
which digits changed since hidden singles and locked candidates last looked at them, two which rows changed since
naked singles and since the pairs last looked at them, and one a digit the rows of that digit that changed since
hidden singles last looked at it (the rules skip what did not change). A state is N*N + 5N + 4 words (6.0 KB for
25x25), copied to the next depth on a branch, as the 9x9 band kernel does.

Why rows: every rule then costs O(N^2) word operations a pass, where the cell-by-cell kernel (``dfs``,
``propagate``) costs O(N^3) reads; a 25x25 node went from about 30-40 to a few microseconds (benchmarks/
NOTES-kernels.md, round 5).

* Naked singles and empty cells: a bit-sliced count over the N digit words of a row (``once``, ``twice``).
* Hidden singles: a row with one bit; a column with one row, from ``once``/``twice`` over the rows; a box with one
  cell, from the same count over the rows of a band, masked to a stack.
* Locked candidates: a box whose digit sits in one row (or one column) clears it from the rest of that line;
  a row (or column) whose digit sits in one box clears it from the rest of the box.
* Pairs (``PAIRS``, on in the restarted first-solution search): two cells of a unit with the same two
  candidates, and two digits with the same two places in a row or column.
* dom/wdeg branching (``WEIGHTED``, on in the restarted first-solution search from N = 25): each unit weighs one
  more for each dead end that leaves it with an empty cell or a digit without a place, and the runs branch on the
  cell with the fewest candidates per weight of its units (``_choose_weighted``, ``_blame``).

The rules and the choice of the branching cell (the first open cell, row by row, with the fewest candidates;
the first with two once naked singles are filled) are those of the cell-by-cell kernel, so both visit the same
nodes: the tests compare their counts and node numbers (with hidden singles on: without them a contradiction
can go unseen and locked candidates then depend on their order). A first solution is searched with restarts
(``first_solution``), which defeats the heavy tail of 25x25 grids near 45 % fill.
"""

import numpy as np
from numba import njit

from bitdoku.kernels.bits import full_mask, lowest_bit_index, popcount, small_quotient
from bitdoku.kernels.jit import borrowing, inlined
from bitdoku.kernels.restarts import luby
from bitdoku.kernels.rng import below, random_bit
from bitdoku.kernels.status import (
    ALL_RULES,
    BUDGET_EXHAUSTED,
    COMPLETE,
    CONTRADICTION,
    HIDDEN_SINGLES,
    INVALID,
    LIMIT_REACHED,
    LOCKED_CANDIDATES,
    NAKED_SINGLES,
    NO_WEIGHTS,
    PAIRS,
    RANDOM_ORDER,
    STAT_BACKTRACKS,
    STAT_GUESSES,
    STAT_MAX_DEPTH,
    STAT_NODES,
    STAT_PLACEMENTS,
    STAT_RESTARTS,
    STAT_SOLUTIONS,
    STOPPED,
    WEIGHTED,
)

ONE = np.uint64(1)
ZERO = np.uint64(0)
#: Dead ends of the first run of a restarted first-solution search, the unit of its Luby schedule
#: (benchmarks/NOTES-kernels.md, round 5).
RESTART_UNIT = 256
#: Restarted searches propagate naked and hidden pairs from this N up: on 25x25 grids they cut the nodes 2.5-4x
#: for ~1.8x the cost a node; on the 16x16 set they save 5 % of the nodes and cost 1.12-1.26x the time (A/B, three
#: interleaved rounds, benchmarks/RESULTS.md).
PAIRS_FROM_N = 25
#: Restarted searches branch by dom/wdeg (``WEIGHTED``) from this N up: on the 25x25 set it halves the nodes and
#: keeps the 19 hardest instances but one under 15,000 nodes on four seeds (before: up to 74,000); the hardest,
#: line 462, stays heavy under most seeds. On 16x16 it saves 4 % of the nodes: not worth a change there
#: (benchmarks/results/tail25.md).
WEIGHTS_FROM_N = 25
#: Depths of the state stack allocated at first; it doubles when a search goes deeper.
FIRST_DEPTH = 32


@inlined
def _bit(col):
    return ONE << np.uint64(col)


@inlined
def _stack_mask(c, stack):
    """The columns of one stack of boxes (c columns wide)."""
    return ((ONE << np.uint64(c)) - ONE) << np.uint64(stack * c)


@inlined
def _dirty(n):
    """The index of the first of the two changed-digits words (hidden singles, then locked candidates)."""
    return n * n + n


@inlined
def _rows(n):
    """The index of the first of the two changed-rows words (naked singles, then the pairs): a row's bit is set
    whenever one of its words may have changed (``_mark_rows``). Setting it too often only costs a scan;
    missing a change would lose a deduction."""
    return n * n + n + 2


@inlined
def state_words(n):
    """The words of one state: N*N digit words, N open-cells words, two changed-digits and two changed-rows
    words, N changed-rows words, one a digit (``_digit_rows``), and 3N words of where each digit is filled in
    (``_placed``)."""
    return n * n + 5 * n + 4


@inlined
def _placed(n):
    """The index of digit 0's three filled-in words (its filled rows, columns and boxes, a bit each, boxes
    numbered band by band); digit d's are 3d words further. Set by ``_place`` only: hidden singles and locked
    candidates skip the units where the digit is filled in, and reading them here is one word where finding
    them from the rows (a digit bit on a cell not open) read all N open-cells words a pass
    (benchmarks/results/node25.md, second round)."""
    return n * n + 2 * n + 4


@inlined
def _digit_rows(n):
    """The index of digit 0's changed-rows word for hidden singles; digit d's is d words further."""
    return n * n + n + 4


@inlined
def _struck(st, k, n, digit, rows):
    """Note that the words of ``digit`` in ``rows`` (a mask) changed: for naked singles and the pairs (by row)
    and for hidden singles (by digit and row)."""
    _mark_rows(st, k, n, rows)
    st[k, _digit_rows(n) + digit] |= rows


@inlined
def _mark_all(st, k, n):
    """Mark every digit and every row of state k changed, for every rule: their next passes look at everything
    (the root; and the tests, which check that a fixpoint reached through the marks is one a full pass keeps)."""
    full = full_mask(n)
    for word in range(_dirty(n), _placed(n)):
        st[k, word] = full


@inlined
def _mark_rows(st, k, n, rows):
    """Note that the words of ``rows`` (a mask) may have changed, for naked singles and for the pairs."""
    st[k, _rows(n)] |= rows
    st[k, _rows(n) + 1] |= rows


@inlined
def _place(st, k, n, r, c, digit, row, col):
    """Fill (row, col) with 0-based ``digit`` in state k; False if the digit may not go there."""
    bit = _bit(col)
    base = digit * n
    if st[k, base + row] & bit == ZERO:
        return False
    clear = ~bit
    touched = ONE << np.uint64(digit)
    for other in range(n):
        word = st[k, other * n + row]
        touched |= ((word >> np.uint64(col)) & ONE) << np.uint64(other)
        st[k, other * n + row] = word & clear
    others = touched  # the digits that had the cell: their row changed (a few, where the loop above has N)
    while others != ZERO:
        st[k, _digit_rows(n) + lowest_bit_index(others)] |= _bit(row)
        others &= others - ONE
    rows = ZERO  # the rows of the column that held the digit there
    for i in range(n):
        word = st[k, base + i]
        rows |= ((word >> np.uint64(col)) & ONE) << np.uint64(i)
        st[k, base + i] = word & clear
    band = small_quotient(row, r) * r
    stack = small_quotient(col, c)
    box_columns = ~_stack_mask(c, stack)
    for i in range(band, band + r):
        st[k, base + i] &= box_columns
    st[k, base + row] = bit
    st[k, n * n + row] &= clear
    placed = _placed(n) + 3 * digit
    st[k, placed] |= _bit(row)
    st[k, placed + 1] |= bit
    st[k, placed + 2] |= _bit(band + stack)
    dirty = _dirty(n)
    st[k, dirty] |= touched
    st[k, dirty + 1] |= touched
    _struck(st, k, n, digit, rows | (((ONE << np.uint64(r)) - ONE) << np.uint64(band)) | _bit(row))
    return True


@inlined
def _next_marked(marks, row):
    """The first row after ``row`` (-1: from the first) whose bit is set in ``marks``, or -1 if none.

    Why: the rules that look only at marked rows walk from one to the next, where a loop over all N rows
    tested each one; the marks are read again after each row, so a row marked meanwhile further down is still
    visited, in the same order as that loop."""
    later = marks if row < 0 else marks & ((~ZERO << np.uint64(row)) << ONE)
    return -1 if later == ZERO else lowest_bit_index(later)


@inlined
def _changed(st, k, n, digit):
    """Note that a digit's words changed (for the next hidden singles and locked candidates passes)."""
    mark = ONE << np.uint64(digit)
    st[k, _dirty(n)] |= mark
    st[k, _dirty(n) + 1] |= mark


@inlined
def _naked(st, k, n, r, c, fill):
    """Fill the open cells with one candidate (when ``fill``); -1 if an open cell has none, else the count.

    Only the rows changed since the last pass are counted (``_rows``): a row that did not change holds no
    single and no empty cell, or the last pass would have filled it or failed. Read live, so a row changed by a
    single of this pass further down is counted in this pass, as a full scan would; the order of the singles,
    and so the state a contradiction leaves for dom/wdeg's blame, is the full scan's.
    """
    filled = 0
    row = np.int64(-1)
    while True:
        row = _next_marked(st[k, _rows(n)], row)
        if row < 0:
            break
        if fill:
            st[k, _rows(n)] &= ~_bit(row)
        open_cells = st[k, n * n + row]
        if open_cells == ZERO:
            continue
        once = ZERO
        twice = ZERO
        for digit in range(n):
            word = st[k, digit * n + row]
            twice |= once & word
            once |= word
        if open_cells & ~once != ZERO:
            return -1
        if not fill:
            continue
        singles = open_cells & ~twice
        while singles != ZERO:
            col = lowest_bit_index(singles)
            singles &= singles - ONE
            bit = _bit(col)
            digit = np.int64(-1)
            for d in range(n):
                if st[k, d * n + row] & bit != ZERO:
                    digit = d
                    break
            if digit < 0 or not _place(st, k, n, r, c, digit, row, col):
                return -1  # an earlier single of this pass took its one digit
            filled += 1
    return filled


@inlined
def _place_if_open(st, k, n, r, c, digit, row, col):
    """Place a hidden single unless its cell is already filled (with this digit): 1 placed, 0 not, -1 failed."""
    if st[k, n * n + row] & _bit(col) == ZERO:
        return 0
    return 1 if _place(st, k, n, r, c, digit, row, col) else -1


@inlined
def _hidden(st, k, n, r, c):
    """Fill each changed digit's only place in a row, column or box; -1 if a digit has no place in a unit."""
    filled = 0
    digits = st[k, _dirty(n)]
    st[k, _dirty(n)] = ZERO
    while digits != ZERO:
        digit = lowest_bit_index(digits)
        digits &= digits - ONE
        count = _hidden_digit(st, k, n, r, c, digit)
        if count < 0:
            return -1
        filled += count
    return filled


@inlined
def _hidden_digit(st, k, n, r, c, digit):
    """Hidden singles of one digit in every row, column and box.

    A unit where the digit is already filled in shows it as a single too (a filled cell keeps its digit's bit);
    such units are skipped, not sent to ``_place_if_open`` to find the cell taken: at 45 % fill half the units
    of a digit are of that kind, and looking up each one's row cost more than the rest of the rule
    (benchmarks/results/node25.md). So are the rows, and the bands' boxes, whose words did not change since the
    last pass over this digit (``_digit_rows``): the last pass found nothing there, or filled it. Only the
    columns are counted in full (each spans every row).
    """
    filled = 0
    base = digit * n
    filled_in = _placed(n) + 3 * digit
    rows = _digit_rows(n) + digit
    fresh = st[k, rows]
    st[k, rows] = ZERO
    if fresh == ZERO:
        return 0
    row = np.int64(-1)
    while True:  # the rows changed since the last pass: elsewhere no single, or it was filled then
        row = _next_marked(fresh | st[k, rows], row)
        if row < 0:
            break
        word = st[k, base + row]
        if word == ZERO:
            return -1
        if word & (word - ONE) == ZERO and st[k, filled_in] & _bit(row) == ZERO:
            placed = _place_if_open(st, k, n, r, c, digit, row, lowest_bit_index(word))
            if placed < 0:
                return -1
            filled += placed
    once = ZERO
    twice = ZERO
    for row in range(n):
        word = st[k, base + row]
        twice |= once & word
        once |= word
    if once != full_mask(n):
        return -1
    singles = once & ~twice & ~st[k, filled_in + 1]  # not the columns where the digit is filled in
    while singles != ZERO:
        col = lowest_bit_index(singles)
        singles &= singles - ONE
        for row in range(n):
            if st[k, base + row] & _bit(col) != ZERO:
                placed = _place_if_open(st, k, n, r, c, digit, row, col)
                if placed < 0:
                    return -1
                filled += placed
                break
    for band in range(0, n, r):
        if (fresh | st[k, rows]) & (((ONE << np.uint64(r)) - ONE) << np.uint64(band)) == ZERO:
            continue  # the band's boxes are unchanged since the last pass
        once = ZERO
        twice = ZERO
        for row in range(band, band + r):
            word = st[k, base + row]
            twice |= once & word
            once |= word
        taken = st[k, filled_in + 2] >> np.uint64(band)  # the band's boxes where the digit is filled in
        for stack in range(r):
            mask = _stack_mask(c, stack)
            alone = once & mask
            if alone == ZERO:
                return -1
            if twice & mask == ZERO and alone & (alone - ONE) == ZERO and (taken >> np.uint64(stack)) & ONE == ZERO:
                for row in range(band, band + r):
                    if st[k, base + row] & alone != ZERO:
                        placed = _place_if_open(st, k, n, r, c, digit, row, lowest_bit_index(alone))
                        if placed < 0:
                            return -1
                        filled += placed
                        break
    return filled


@inlined
def _locked(st, k, n, r, c, bands):
    """Pointing and claiming for every changed digit; -1 on a contradiction, else the words changed.

    ``bands``: uint64[number of bands], scratch.
    """
    changed = 0
    digits = st[k, _dirty(n) + 1]
    st[k, _dirty(n) + 1] = ZERO
    while digits != ZERO:
        digit = lowest_bit_index(digits)
        digits &= digits - ONE
        count = _locked_digit(st, k, n, r, c, digit, bands)
        if count < 0:
            return -1
        if count > 0:
            _changed(st, k, n, digit)
            changed += count
    return changed


@inlined
def _locked_digit(st, k, n, r, c, digit, bands):
    """Pointing and claiming for one digit: O(N * r) word operations.

    The boxes, rows and columns where the digit is filled in are skipped: a placement has already cleared the
    rest of its box, row and column, so pointing and claiming cannot strike anything there (at 45 % fill that
    is half the units; benchmarks/results/node25.md).
    """
    base = digit * n
    changed = 0
    placed = _placed(n) + 3 * digit
    filled_rows = st[k, placed]
    taken = st[k, placed + 1]  # the columns where the digit is filled in
    # From the rows of each band: a box whose digit sits in one row (pointing along the row), and a row whose
    # digit sits in one box (claiming).
    for band in range(0, n, r):
        boxes = st[k, placed + 2] >> np.uint64(band)  # the band's boxes where the digit is filled in
        for stack in range(r):
            mask = _stack_mask(c, stack)
            if (boxes >> np.uint64(stack)) & ONE != ZERO:
                continue
            rows_with = 0
            last_row = np.int64(-1)
            for row in range(band, band + r):
                if st[k, base + row] & mask != ZERO:
                    rows_with += 1
                    last_row = row
            if rows_with == 1 and st[k, base + last_row] & ~mask != ZERO:
                st[k, base + last_row] &= mask
                _struck(st, k, n, digit, _bit(last_row))
                changed += 1
        for row in range(band, band + r):
            word = st[k, base + row]
            if word == ZERO or filled_rows & _bit(row) != ZERO:
                continue  # no place at all (hidden singles say so: locked candidates only remove), or filled
            mask = _stack_mask(c, small_quotient(lowest_bit_index(word), c))
            if word & ~mask == ZERO:
                for other in range(band, band + r):
                    if other != row and st[k, base + other] & mask != ZERO:
                        st[k, base + other] &= ~mask
                        _struck(st, k, n, digit, _bit(other))
                        changed += 1
    # From the columns of each band: a box whose digit sits in one column (pointing along the column, out of the
    # other bands), and a column whose digit sits in one band (claiming: the rest of that box loses it).
    once = ZERO
    twice = ZERO
    pointed = ZERO  # columns some box points along
    pointed_twice = ZERO  # columns boxes of two bands point along: no band may keep them
    for b in range(bands.shape[0]):
        present = ZERO
        for row in range(b * r, b * r + r):
            present |= st[k, base + row]
        twice |= once & present
        once |= present
        single = ZERO
        for stack in range(r):
            columns = present & _stack_mask(c, stack)
            if columns != ZERO and columns & (columns - ONE) == ZERO:
                single |= columns
        single &= ~taken
        bands[b] = single
        pointed_twice |= pointed & single
        pointed |= single
    confined = once & ~twice & ~taken
    if pointed == ZERO and confined == ZERO:
        return changed
    for b in range(bands.shape[0]):
        drop = (pointed & ~bands[b]) | pointed_twice
        if confined != ZERO:
            present = ZERO
            for row in range(b * r, b * r + r):
                present |= st[k, base + row]
            claimed = present & confined
            for stack in range(r if claimed != ZERO else 0):
                mask = _stack_mask(c, stack)
                here = claimed & mask
                if here != ZERO:  # the box's digit is in that column; two such columns: in neither
                    drop |= mask & ~here if here & (here - ONE) == ZERO else mask
        for row in range(b * r, b * r + r):
            word = st[k, base + row]
            if word & drop != ZERO:
                st[k, base + row] = word & ~drop
                _struck(st, k, n, digit, _bit(row))
                changed += 1
    return changed


@borrowing
def _propagate(st, k, n, r, c, flags, bands, work):
    """Run the rules in ``flags`` on state k to a fixpoint; cells filled, or -1 on a contradiction.

    ``bands`` and ``work`` are scratch (``_scratch``). Pairs run last: they cost the most for what they find.
    """
    naked = flags & NAKED_SINGLES != 0
    filled = 0
    while True:
        count = _naked(st, k, n, r, c, naked)
        if count < 0:
            return -1
        filled += count
        if count > 0:
            continue
        if flags & HIDDEN_SINGLES:
            count = _hidden(st, k, n, r, c)
            if count < 0:
                return -1
            filled += count
            if count > 0:
                continue
        if flags & LOCKED_CANDIDATES:
            count = _locked(st, k, n, r, c, bands)
            if count < 0:
                return -1
            if count > 0:
                continue
        if flags & PAIRS and _pairs(st, k, n, r, c, work) > 0:
            continue
        return filled


@inlined
def _count_planes(st, k, n, row, planes):
    """A bit-sliced count of each cell's candidates in ``row``: ``planes[b]`` holds bit b of the counts."""
    planes[:] = ZERO
    for digit in range(n):
        carry = st[k, digit * n + row]
        b = 0
        while carry != ZERO:
            plane = planes[b]
            planes[b] = plane ^ carry
            carry &= plane
            b += 1


@inlined
def _count_bits(n):
    """The planes of ``_count_planes`` that a count of up to ``n`` candidates needs."""
    bits = 1
    while (1 << bits) <= n:
        bits += 1
    return bits


@inlined
def _with_count(planes, count, bits):
    """The cells whose count is exactly ``count`` (``bits`` planes)."""
    cells = ~ZERO
    for b in range(bits):
        cells &= planes[b] if (count >> b) & 1 else ~planes[b]
    return cells


@inlined
def _choose_cell(st, k, n, good_enough, planes, randomised, rng):
    """(row, col) of the first open cell with the fewest candidates, or (-1, -1) when the grid is full.

    Stops at the first cell with ``good_enough`` candidates or fewer, as the cell-by-cell kernel does. With
    ``randomised``, a random cell among those with the fewest candidates (and no early stop).
    """
    bits = _count_bits(n)
    best_row = np.int64(-1)
    best_col = np.int64(-1)
    best = n + 1
    ties = 0
    for row in range(n):
        open_cells = st[k, n * n + row]
        if open_cells == ZERO:
            continue
        _count_planes(st, k, n, row, planes)
        if not randomised:
            enough = ZERO
            for count in range(1, good_enough + 1):
                enough |= _with_count(planes, count, bits)
            if enough & open_cells != ZERO:  # the first such cell in reading order, as the cell-by-cell kernel
                return row, lowest_bit_index(enough & open_cells)
        top = best if randomised else best - 1
        for count in range(1 if randomised else good_enough + 1, top + 1):
            cells = _with_count(planes, count, bits) & open_cells
            if cells == ZERO:
                continue
            if not randomised:
                best, best_row, best_col = count, row, lowest_bit_index(cells)
                break
            if count < best:
                best, ties = count, 0
            found = popcount(cells)
            ties += found
            if below(rng, ties) < found:  # reservoir sampling over the ties seen so far
                best_row, best_col = row, random_bit(rng, cells)
            break
    return best_row, best_col


@inlined
def _load(cells, st, n, r, c):
    """Set state 0 from the givens; -1 when fine, else INVALID or CONTRADICTION."""
    full = full_mask(n)
    st[0, :] = full
    invalid = False
    root = np.int64(0)  # typed, not a literal 0: see _search
    _mark_all(st, root, n)
    for word in range(_placed(n), state_words(n)):
        st[0, word] = ZERO
    for cell in range(n * n):
        value = np.int64(cells[cell])
        if value == 0:
            continue
        if value > n or not _place(st, root, n, r, c, value - 1, cell // n, cell % n):
            invalid = True
    if invalid:
        return INVALID
    if _naked(st, root, n, r, c, np.bool_(False)) < 0:
        return CONTRADICTION
    return -1


@inlined
def _write_solution(st, k, n, out):
    for digit in range(n):
        for row in range(n):
            word = st[k, digit * n + row]
            while word != ZERO:
                col = lowest_bit_index(word)
                word &= word - ONE
                out[row * n + col] = digit + 1


def first_solution(cells, n, r, max_nodes, flags, solutions, stats, rng, unit, stop):
    """A first solution (``search_boards`` with limit 1) by depth-first runs restarted on a Luby schedule.

    Why: near 45 % fill a 25x25 search is heavy-tailed: one wrong early choice costs a million nodes while
    another order of the same tree finds a solution in a few hundred. Every run picks random cells among the
    ties and tries first the digit with the fewest places left in the cell's row; run i is cut after
    ``luby(i) * unit`` dead ends (``unit``: ``RESTART_UNIT`` by default; Luby, Sinclair and
    Zuckerman 1993: within a log factor of the best fixed cut-off, with nothing to tune per instance). Each run
    is a complete search, so a run that ends says the truth: a solution, or none exists; only a run cut by its
    allowance restarts. The budget ``max_nodes`` counts the nodes of all runs. ``rng`` drives the runs, so a
    seed gives one answer. ``stats`` sums the runs' counters (``STAT_RESTARTS``: runs after the first).
    ``stop`` (int64[1]) lets another thread end the search: once ``stop[0]`` is not 0 the search returns
    ``STOPPED`` at its next node (a portfolio of searches with different seeds stops the others once one has the
    answer; a time limit stops the search when it runs out).
    With the three rules of ``ALL_RULES`` on and N >= ``PAIRS_FROM_N``, the runs also propagate ``PAIRS``: on
    25x25 grids near 45 % fill they cut the nodes about 2.5-4 times for about twice the cost a node (the hardest
    instance gains little). Measured in benchmarks/NOTES-kernels.md, rounds 5 and 7. From N = ``WEIGHTS_FROM_N``
    (or with ``WEIGHTED``; never with ``NO_WEIGHTS``) the runs branch by dom/wdeg, on unit weights that the runs
    share: the conflicts of the runs cut short steer the next ones (benchmarks/results/tail25.md).

    A Python function over ``search`` (``unit`` > 0), the kernel's one compiled entry point.
    """
    return search(cells, n, r, np.int64(1), max_nodes, flags, solutions, stats, rng, np.zeros(0, np.uint8),
                  np.int64(-1), stop, np.int64(unit))


def search_boards(cells, n, r, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell, stop):
    """Search a puzzle of any shape (boxes of ``r`` rows, N = ``n`` up to 64) for up to ``limit`` solutions.

    The contract of ``dfs.search_in`` without its workspace: ``cells`` uint8[N*N] (not mutated); ``solutions``
    uint8[K, N*N] and ``stats`` int64[N_STATS] out; ``rng`` a ``rng.py`` state used with ``RANDOM_ORDER``;
    ``guide`` a solution to steer by (its digit tried first at each branch; empty for none) and
    ``changed_cell`` a cell where ``guide``'s digit is struck out first (-1 for none); ``stop`` an int64[1] flag
    read at every node (``STOPPED`` once another thread sets it). Returns ``COMPLETE``, ``LIMIT_REACHED``,
    ``BUDGET_EXHAUSTED``, ``STOPPED``, ``INVALID`` or ``CONTRADICTION``. Memory: ``state_words(n)`` * 8 bytes a
    depth, the stack doubling as needed.

    A Python function over ``search`` (``unit`` 0: one complete search), the kernel's one compiled entry point.
    """
    return search(cells, n, r, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell, stop,
                  np.int64(0))


@njit(cache=True, nogil=True)
def search(cells, n, r, limit, max_nodes, flags, solutions, stats, rng, guide, changed_cell, stop, unit):
    """``search_boards`` (``unit`` 0: one complete search) and ``first_solution`` (``unit`` > 0: restarted runs,
    ``limit`` 1, no guide) in one compiled entry point: each entry point is compiled with the whole kernel inside
    it, so two cost every first use of the kernel (and every compiled caller of both, the batch loop and the
    generator's) a second compile of it (benchmarks/NOTES-compile.md)."""
    restarted = unit > 0
    if restarted:
        if flags & ALL_RULES == ALL_RULES and n >= PAIRS_FROM_N:
            flags |= PAIRS
        if n >= WEIGHTS_FROM_N and flags & NO_WEIGHTS == 0:
            flags |= WEIGHTED
        flags |= RANDOM_ORDER
    run_stats = np.zeros(stats.shape[0], np.int64)
    weights = np.ones(3 * n if restarted and flags & WEIGHTED and flags & NO_WEIGHTS == 0 else 0, np.int64)
    stats[:] = 0
    run = np.int64(1)
    while True:
        if restarted:  # no run regrows the stack an earlier run needed
            depth = max(FIRST_DEPTH, stats[STAT_MAX_DEPTH] + 2)
            max_backtracks = luby(run) * unit
        else:
            depth = np.int64(FIRST_DEPTH)
            max_backtracks = max_nodes
        status = _search(cells, n, r, limit, max_nodes - stats[STAT_NODES], max_backtracks, flags, solutions,
                         run_stats, rng, guide, changed_cell, depth, weights, stop)
        for slot in (STAT_NODES, STAT_GUESSES, STAT_BACKTRACKS, STAT_PLACEMENTS):
            stats[slot] += run_stats[slot]
        stats[STAT_MAX_DEPTH] = max(stats[STAT_MAX_DEPTH], run_stats[STAT_MAX_DEPTH])
        stats[STAT_SOLUTIONS] = run_stats[STAT_SOLUTIONS]
        stats[STAT_RESTARTS] = run - 1
        if not restarted or status != BUDGET_EXHAUSTED or stats[STAT_NODES] >= max_nodes:
            return status
        if stop[0] != 0:
            return STOPPED
        run += 1


@njit(cache=True, nogil=True, inline="always")
def _search(cells, n, r, limit, max_nodes, max_backtracks, flags, solutions, stats, rng, guide, changed_cell,
            depth, weights, stop):
    """``search_boards``, also cut (``BUDGET_EXHAUSTED``) after ``max_backtracks`` dead ends, with a stack of
    ``depth`` states to start with. ``weights`` (int64[3N], or empty for none): the units' conflict weights of
    dom/wdeg branching (``_choose_weighted``), raised at each dead end (``_blame``). ``stop`` as in
    ``first_solution``.

    Helpers get typed variables, never a literal ``0`` (``root``): Numba would compile a second copy of each
    helper, and of all it calls, for the literal type, which doubles the first compile."""
    stats[:] = 0
    c = n // r
    words = state_words(n)
    bands = np.empty(c, np.uint64)
    st = np.empty((depth, words), np.uint64)
    frames = np.empty((depth, 2), np.int64)
    rests = np.empty(depth, np.uint64)
    status = _load(cells, st, n, r, c)
    if status >= 0:
        return status
    root = np.int64(0)
    weighted = weights.shape[0] == 3 * n
    guided = guide.shape[0] == n * n
    if changed_cell >= 0 and guided and cells[changed_cell] == 0:
        st[0, (np.int64(guide[changed_cell]) - 1) * n + changed_cell // n] &= ~_bit(changed_cell % n)
    stats[STAT_NODES] = 1
    work = _scratch(n)
    filled = _propagate(st, root, n, r, c, flags, bands, work)
    if filled < 0:
        return COMPLETE
    placements = filled
    planes = np.empty(8, np.uint64)
    good_enough = 2 if flags & NAKED_SINGLES else 1
    randomised = flags & RANDOM_ORDER != 0
    top = np.int64(0)
    status = COMPLETE
    while True:
        if weighted:
            row, col = _choose_weighted(st, top, n, r, c, planes, weights, rng)
        else:
            row, col = _choose_cell(st, top, n, good_enough, planes, randomised, rng)
        if row < 0:
            found = stats[STAT_SOLUTIONS]
            if found < solutions.shape[0]:
                _write_solution(st, top, n, solutions[found])
            stats[STAT_SOLUTIONS] = found + 1
            if found + 1 >= limit:
                status = LIMIT_REACHED
                break
        else:
            if top + 1 >= st.shape[0]:
                st, frames, rests = _deeper(st, frames, rests)
            rest = ZERO
            for digit in range(n):
                rest |= ((st[top, digit * n + row] >> np.uint64(col)) & ONE) << np.uint64(digit)
            if rest & (rest - ONE) != ZERO:
                stats[STAT_GUESSES] += 1
            frames[top, 0] = row
            frames[top, 1] = col
            rests[top] = rest
            top += 1
            stats[STAT_MAX_DEPTH] = max(stats[STAT_MAX_DEPTH], top)
        advanced = False
        while top > 0:
            frame = top - 1
            rest = rests[frame]
            if rest == ZERO:
                top -= 1
                continue
            if stats[STAT_NODES] >= max_nodes or stats[STAT_BACKTRACKS] >= max_backtracks:
                status = BUDGET_EXHAUSTED
                break
            if stop[0] != 0:
                status = STOPPED
                break
            stats[STAT_NODES] += 1
            row, col = frames[frame, 0], frames[frame, 1]
            digit = _next_digit(st, frame, n, row, col, rest, guided, guide, randomised, rng)
            rest &= ~(ONE << np.uint64(digit))
            rests[frame] = rest
            if rest != ZERO:
                for word in range(st.shape[1]):  # a loop, not a slice copy: see _copy_rows
                    st[frame + 1, word] = st[frame, word]
                target = frame + 1
            else:
                top -= 1  # the frame is used up: its state becomes the child
                target = frame
            filled = -1
            if _place(st, target, n, r, c, digit, row, col):
                filled = _propagate(st, target, n, r, c, flags, bands, work)
            if filled >= 0:
                placements += filled + 1
                advanced = True
                break
            if weighted:
                _blame(st, target, n, r, c, weights)
            stats[STAT_BACKTRACKS] += 1
        if not advanced:
            break
    stats[STAT_PLACEMENTS] = placements
    return status


@inlined
def _next_digit(st, k, n, row, col, rest, guided, guide, randomised, rng):
    """The 0-based digit to try next in (row, col): the guide's, else (``randomised``) one with the fewest places
    left in the row (random among ties), else the smallest."""
    if guided:
        wanted = np.int64(guide[row * n + col]) - 1
        if wanted >= 0 and rest & (ONE << np.uint64(wanted)) != ZERO:
            return wanted
    if not randomised:
        return lowest_bit_index(rest)
    best = n + 1
    ties = 0
    choice = np.int64(-1)
    todo = rest
    while todo != ZERO:
        digit = lowest_bit_index(todo)
        todo &= todo - ONE
        places = popcount(st[k, digit * n + row])
        if places < best:
            best, ties = places, 0
        if places == best:
            ties += 1
            if below(rng, ties) == 0:
                choice = digit
    return choice


@njit(cache=True, nogil=True, inline="always")
def _deeper(st, frames, rests):
    """The stack with twice the depths, the states and frames so far copied over."""
    depth = st.shape[0]
    bigger = np.empty((2 * depth, st.shape[1]), np.uint64)
    _copy_rows(st, bigger)
    more_frames = np.empty((2 * depth, 2), np.int64)
    _copy_rows(frames, more_frames)
    more_rests = np.empty(2 * depth, np.uint64)
    for i in range(depth):
        more_rests[i] = rests[i]
    return bigger, more_frames, more_rests


@inlined
def _copy_rows(source, target):
    """Copy the rows of ``source`` into the first rows of ``target``, element by element: a slice copy would bring
    in Numba's shape-mismatch error, a dozen string functions that lengthen the first compile by seconds."""
    for i in range(source.shape[0]):
        for j in range(source.shape[1]):
            target[i, j] = source[i, j]


@njit(cache=True, nogil=True)
def is_box_geometry(units, n, r):
    """Whether a units table is the plain one of N x N grids with boxes of ``r`` rows (rows, columns, boxes row
    by row, each box's cells row by row), which this kernel assumes; O(N^2)."""
    if units.shape[0] != 3 * n or units.shape[1] != n or n % r != 0:
        return False
    c = n // r
    for i in range(n):
        for j in range(n):
            if units[i, j] != i * n + j or units[n + i, j] != j * n + i:
                return False
            box_row = (i // r) * r + j // c
            box_col = (i % r) * c + j % c
            if units[2 * n + i, j] != box_row * n + box_col:
                return False
    return True


@njit(cache=True, nogil=True, inline="always")
def _scratch(n):
    """Scratch for ``_pairs``: uint64[N*N, 3] (a two-candidate cell's row, column and digits; then each digit's
    columns with two places, in column 0)."""
    return np.empty((n * n, 3), np.uint64)


@inlined
def _pairs(st, k, n, r, c, work):
    """Naked pairs, then hidden pairs; the words changed.

    Naked pairs and hidden pairs in rows look only at what changed since the last pass (the second changed-rows
    word): a pair whose two cells did not change, or a row that did not, was found by that pass and its
    candidates struck then (they never come back), so looking again strikes nothing. The same pairs strike the
    same candidates as a full pass, in the same order.
    """
    fresh = st[k, _rows(n) + 1]
    st[k, _rows(n) + 1] = ZERO
    return (_naked_pairs(st, k, n, r, c, work, fresh) + _hidden_pairs_rows(st, k, n, fresh)
            + _hidden_pairs_columns(st, k, n, work))


@inlined
def _clear_digit(st, k, n, digit, row, mask):
    """Strike ``digit`` from the columns ``mask`` of ``row``; 1 if that changed its word (then marked dirty)."""
    word = st[k, digit * n + row]
    if word & mask == ZERO:
        return 0
    st[k, digit * n + row] = word & ~mask
    _changed(st, k, n, digit)
    _struck(st, k, n, digit, _bit(row))
    return 1


@inlined
def _clear_others(st, k, n, d1, d2, row, mask):
    """Strike every digit but d1 and d2 from the columns ``mask`` of ``row``; words changed."""
    changed = 0
    for digit in range(n):
        if digit != d1 and digit != d2:
            changed += _clear_digit(st, k, n, digit, row, mask)
    return changed


@inlined
def _bivalue_cells(st, k, n, work):
    """List the open cells with two candidates in ``work`` (row, column, digit mask); how many."""
    count = 0
    for row in range(n):
        open_cells = st[k, n * n + row]
        once = ZERO
        twice = ZERO
        thrice = ZERO
        for digit in range(n):
            word = st[k, digit * n + row]
            thrice |= twice & word
            twice |= once & word
            once |= word
        two = twice & ~thrice & open_cells
        while two != ZERO:
            col = lowest_bit_index(two)
            two &= two - ONE
            digits = ZERO
            for digit in range(n):
                digits |= ((st[k, digit * n + row] >> np.uint64(col)) & ONE) << np.uint64(digit)
            work[count, 0] = row
            work[count, 1] = col
            work[count, 2] = digits
            count += 1
    return count


@inlined
def _naked_pairs(st, k, n, r, c, work, fresh):
    """Two cells of a row, column or box with the same two candidates: no other cell of that unit keeps them.

    Sound on a stale list too: candidates only shrink, so both cells still hold nothing but those two digits.
    """
    count = _bivalue_cells(st, k, n, work)
    changed = 0
    for a in range(count):
        pair = work[a, 2]
        for b in range(a + 1, count):
            if work[b, 2] != pair or ((fresh >> work[a, 0]) | (fresh >> work[b, 0])) & ONE == ZERO:
                continue  # not a pair, or neither cell changed since the last pass: its strikes are done
            r1, c1, r2, c2 = np.int64(work[a, 0]), np.int64(work[a, 1]), np.int64(work[b, 0]), np.int64(work[b, 1])
            same_box = (small_quotient(r1, r) == small_quotient(r2, r)
                        and small_quotient(c1, c) == small_quotient(c2, c))
            if r1 != r2 and c1 != c2 and not same_box:
                continue
            # the rows the shared units cross: all for a column, the band for a box, else the one row
            band = small_quotient(r1, r) * r
            first, last = (0, n) if c1 == c2 else (band, band + r) if same_box else (r1, r1 + 1)
            digits = pair
            while digits != ZERO:
                digit = lowest_bit_index(digits)
                digits &= digits - ONE
                for row in range(first, last):
                    mask = _pair_unit_columns(row, r1, c1, r2, c2, r, c, same_box)
                    if mask != ZERO:
                        changed += _clear_digit(st, k, n, digit, row, mask)
    return changed


@inlined
def _pair_unit_columns(row, r1, c1, r2, c2, r, c, same_box):
    """The columns of ``row`` in a unit the cells (r1, c1) and (r2, c2) share, but for those two cells."""
    mask = ZERO
    if r1 == r2 and row == r1:
        mask = ~ZERO
    if c1 == c2 and row != r1 and row != r2:
        mask |= _bit(c1)
    if same_box and small_quotient(row, r) == small_quotient(r1, r):
        mask |= _stack_mask(c, small_quotient(c1, c))
    if row == r1:
        mask &= ~_bit(c1)
    if row == r2:
        mask &= ~_bit(c2)
    return mask


@inlined
def _hidden_pairs_rows(st, k, n, fresh):
    """Two digits with the same two places in a row: those two cells keep only them. Only the rows in
    ``fresh`` or changed since (``_pairs``)."""
    changed = 0
    for row in range(n):
        if (fresh | st[k, _rows(n) + 1]) & _bit(row) == ZERO:
            continue
        open_cells = st[k, n * n + row]
        for d1 in range(n):
            word = st[k, d1 * n + row]
            if word & ~open_cells != ZERO or popcount(word) != 2:
                continue
            for d2 in range(d1 + 1, n):
                if st[k, d2 * n + row] == word:
                    changed += _clear_others(st, k, n, d1, d2, row, word)
                    break
    return changed


@inlined
def _hidden_pairs_columns(st, k, n, work):
    """Two digits with the same two places in a column: those two cells keep only them.

    A bit-sliced count over the rows finds each digit's columns with exactly two places; a pair of digits
    sharing such a column is then checked row by row.
    """
    for digit in range(n):
        once = ZERO
        twice = ZERO
        thrice = ZERO
        for row in range(n):
            word = st[k, digit * n + row]
            thrice |= twice & word
            twice |= once & word
            once |= word
        work[digit, 0] = twice & ~thrice
    changed = 0
    for d1 in range(n):
        for d2 in range(d1 + 1, n if work[d1, 0] != ZERO else 0):
            both = work[d1, 0] & work[d2, 0]
            while both != ZERO:
                col = lowest_bit_index(both)
                both &= both - ONE
                r1, r2 = _same_two_rows(st, k, n, d1, d2, _bit(col))
                if r2 >= 0 and st[k, n * n + r1] & st[k, n * n + r2] & _bit(col) != ZERO:
                    changed += _clear_others(st, k, n, d1, d2, r1, _bit(col))
                    changed += _clear_others(st, k, n, d1, d2, r2, _bit(col))
    return changed


@inlined
def _same_two_rows(st, k, n, d1, d2, bit):
    """The two rows where both digits may go in the column ``bit``, if those are the same two; else (-1, -1)."""
    r1 = -1
    r2 = -1
    for row in range(n):
        here = st[k, d1 * n + row] & bit
        if here != st[k, d2 * n + row] & bit:
            return -1, -1
        if here != ZERO:
            if r1 < 0:
                r1 = row
            elif r2 < 0:
                r2 = row
            else:
                return -1, -1
    return r1, r2


@inlined
def _unit_weight(weights, n, r, c, row, col):
    """The summed conflict weights of the row, column and box of (row, col)."""
    return weights[row] + weights[n + col] + weights[2 * n + _box_index(r, c, row, col)]


@inlined
def _box_index(r, c, row, col):
    """The box of (row, col), boxes of ``r`` rows and ``c`` columns numbered in reading order."""
    return small_quotient(row, r) * r + small_quotient(col, c)


@inlined
def _largest(values, start, stop):
    """The largest of ``values[start:stop]`` (not empty), without ``np.max``, which needs the runtime."""
    largest = values[start]
    for i in range(start + 1, stop):
        largest = max(largest, values[i])
    return largest


@inlined
def _choose_weighted(st, k, n, r, c, planes, weights, rng):
    """(row, col) of an open cell with the fewest candidates per unit weight (dom/wdeg, Boussemart, Hemery,
    Lecoutre and Sais 2004), random among ties; (-1, -1) when the grid is full.

    Why: the weights remember which units failed in earlier runs, so a restarted search branches first where the
    earlier runs met their conflicts, where MRV alone draws again among hundreds of equal two-candidate cells.
    """
    bits = _count_bits(n)
    # no cell weighs more:
    heaviest = _largest(weights, np.int64(0), n) + _largest(weights, n, 2 * n) + _largest(weights, 2 * n, 3 * n)
    best_row = -1
    best_col = -1
    best_count = np.int64(n + 1)
    best_weight = np.int64(1)
    ties = 0
    for row in range(n):
        open_cells = st[k, n * n + row]
        if open_cells == ZERO:
            continue
        _count_planes(st, k, n, row, planes)
        for count in range(1, n + 1):
            if best_count * heaviest < count * best_weight:
                break  # no cell with this many candidates can beat the best
            cells = _with_count(planes, count, bits) & open_cells
            while cells != ZERO:
                col = lowest_bit_index(cells)
                cells &= cells - ONE
                weight = _unit_weight(weights, n, r, c, row, col)
                # count / weight against best_count / best_weight, in integers
                if count * best_weight < best_count * weight:
                    best_row, best_col, best_count, best_weight, ties = row, col, count, weight, 1
                elif count * best_weight == best_count * weight:
                    ties += 1
                    if below(rng, ties) == 0:
                        best_row, best_col = row, col
    return best_row, best_col


@inlined
def _blame(st, k, n, r, c, weights):
    """Raise the weight of each unit that state k (a failed propagation) shows empty: a unit holding an open cell
    without candidates, a unit where some digit has no place left."""
    for row in range(n):
        once = ZERO
        for digit in range(n):
            once |= st[k, digit * n + row]
        empty = st[k, n * n + row] & ~once
        while empty != ZERO:
            col = lowest_bit_index(empty)
            empty &= empty - ONE
            weights[row] += 1
            weights[n + col] += 1
            weights[2 * n + _box_index(r, c, row, col)] += 1
    full = full_mask(n)
    for digit in range(n):
        base = digit * n
        columns = ZERO
        for band in range(0, n, r):
            present = ZERO
            for row in range(band, band + r):
                word = st[k, base + row]
                if word == ZERO:
                    weights[row] += 1
                present |= word
            for stack in range(r):
                if present & _stack_mask(c, stack) == ZERO:
                    weights[2 * n + band + stack] += 1
            columns |= present
        missing = full & ~columns
        while missing != ZERO:
            weights[n + lowest_bit_index(missing)] += 1
            missing &= missing - ONE


