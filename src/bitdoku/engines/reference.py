"""The reference engine: the seed solvers' brute force, in readable pure Python. It is the oracle.

Every fast engine is cross-checked against it, so it follows the seed algorithm exactly and stays simple:

* rows, columns and boxes each keep the set of digits they hold as an N-bit integer; the *occupied* set of a
  cell is ``rows[i] | cols[j] | boxes[b]`` and its candidates are the zero bits;
* empty cells are visited in reading order and digits tried in increasing order; an explicit stack of the
  digits placed (no recursion) drives the backtracking, and a digit is removed from its three sets when popped;
* ``code`` is the bit of the digit being tried. "No candidate at or above ``code``" is ``occupied + code >
  full``: adding ``code`` carries through the run of occupied bits above it and out of the N-bit word only
  when all of them are set. Otherwise the next candidate is ``(((code + occupied) ^ occupied) + code) >> 1``:
  the XOR keeps the carried run (from ``code`` up to the first free bit), adding ``code`` collapses the run to
  the bit above that free bit, and the shift brings it back onto the free bit.

A variant (``bitdoku.geometry``) only changes the data: a cell has the units its geometry gives it (a diagonal or
a window as well), and two more sources of occupied digits are OR-ed in from the cells themselves: the digits of
its relation peers (a knight's or king's move away) and, in a nonconsecutive grid, the digits next to those of
its orthogonal neighbours. In a Killer the cage mates are relation peers, and a digit that would take its cage past
its sum (or, in the cage's last empty cell, miss it) is occupied too. A setters' constraint (a thermometer, a
dot, a renban line: ``constraints.variant``) makes a digit occupied when placing it would break the constraint as
``broken`` says in plain Python, given the digits placed so far; givens that already break one leave no solution.

It is never the fast path: a hard 9x9 puzzle takes it about a second.
"""

from __future__ import annotations

from functools import lru_cache

from bitdoku.constraints.cages import Cage
from bitdoku.constraints.variant import Constraint, broken, constraint_name
from bitdoku.engines.result import SearchResult, SearchStats, Status, conflict_result, status_of
from bitdoku.geometry import GEOMETRIES_KEPT, Geometry, consecutive_mask
from bitdoku.grid import Grid


def search(puzzle: Grid, *, limit: int, max_nodes: int, keep: int) -> SearchResult:
    """Find up to ``limit`` solutions of a puzzle, keeping the first ``keep`` of them."""
    invalid = conflict_result(puzzle)
    if invalid is not None:
        return invalid
    n = puzzle.n
    full = (1 << n) - 1
    cells = list(puzzle.cells)
    units, related, adjacent = _cell_tables(puzzle.geometry)
    occupied_sets = [0] * puzzle.geometry.n_units  # rows, columns, boxes, then extra units
    for cell, digit in enumerate(cells):
        if digit:
            for unit in units[cell]:
                occupied_sets[unit] |= 1 << (digit - 1)
    empties = [cell for cell, digit in enumerate(cells) if digit == 0]
    touching = _constraints_of(puzzle.geometry.constraints, len(cells))
    given = {cell: digit for cell, digit in enumerate(cells) if digit}
    for constraint in puzzle.geometry.constraints:
        if broken(constraint, given, n):
            return SearchResult(Status.NO_SOLUTION, 0, reason=f"the givens break the {constraint_name(constraint, n)}")
    owner = [-1] * len(cells)
    for index, cage in enumerate(puzzle.cages):
        if cage.total is not None:
            for cell in cage.cells:
                owner[cell] = index

    stack: list[int] = []  # the code placed in empties[0], empties[1], ...
    code, count, nodes, backtracks = 1, 0, 0, 0
    solutions: list[Grid] = []
    while True:
        if len(stack) == len(empties):
            count += 1
            if len(solutions) < keep:
                solutions.append(puzzle.with_cells(bytes(cells)))
            if count >= limit or not stack:
                break
            code = _pop(stack, empties, cells, units, occupied_sets) << 1
            continue
        cell = empties[len(stack)]
        occupied = 0
        for unit in units[cell]:
            occupied |= occupied_sets[unit]
        if related[cell] or adjacent[cell]:
            occupied |= _occupied_by_relations(cell, cells, related, adjacent, n)
        if owner[cell] >= 0:
            occupied |= _occupied_by_sum(puzzle.cages[owner[cell]], cells, n)
        if touching[cell]:
            occupied |= _occupied_by_constraints(cell, cells, touching[cell], n)
        if occupied + code > full:
            if not stack:
                break
            code = _pop(stack, empties, cells, units, occupied_sets) << 1
            backtracks += 1
            continue
        if nodes >= max_nodes:
            stats = SearchStats(nodes=nodes, backtracks=backtracks)
            return SearchResult(Status.LIMIT, count, tuple(solutions), stats, f"node budget of {max_nodes:,} spent")
        code = (((code + occupied) ^ occupied) + code) >> 1
        _place(code, empties[len(stack)], cells, units, occupied_sets)
        stack.append(code)
        nodes += 1
        code = 1
    status = status_of(count, limit)
    return SearchResult(status, count, tuple(solutions), SearchStats(nodes=nodes, backtracks=backtracks))


@lru_cache(maxsize=GEOMETRIES_KEPT)
def _cell_tables(geometry: Geometry) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """For each cell: its units, its peers outside those units (relations) and its orthogonal neighbours when
    they may not hold consecutive digits."""
    tables = geometry.tables
    units, adjacent = [], []
    for cell in range(geometry.shape.n_cells):
        units.append(tables.cell_units[tables.cell_unit_start[cell] : tables.cell_unit_start[cell + 1]].tolist())
        adjacent.append(tables.adjacent[tables.adjacent_start[cell] : tables.adjacent_start[cell + 1]].tolist())
    return units, [list(peers) for peers in geometry.relations], adjacent


def _occupied_by_relations(cell: int, cells: list[int], related: list[list[int]], adjacent: list[list[int]],
                           n: int) -> int:
    """The digits a cell may not take because of relation peers and, for nonconsecutive, its neighbours."""
    occupied = 0
    for peer in related[cell]:
        if cells[peer]:
            occupied |= 1 << (cells[peer] - 1)
    for neighbour in adjacent[cell]:
        digit = cells[neighbour]
        if digit:
            occupied |= consecutive_mask(digit, n)
    return occupied


def _occupied_by_sum(cage: Cage, cells: list[int], n: int) -> int:
    """The digits that would break a cage's sum in one of its empty cells: those above what is left of the total,
    and in its last empty cell all but the one that makes it."""
    total = cage.total or 0
    left = total - sum(cells[cell] for cell in cage.cells)
    empty = sum(1 for cell in cage.cells if cells[cell] == 0)
    allowed = [digit for digit in range(1, n + 1) if digit <= left and (empty > 1 or digit == left)]
    return ((1 << n) - 1) & ~sum(1 << (digit - 1) for digit in allowed)


def _constraints_of(constraints: tuple[Constraint, ...], n_cells: int) -> list[list[Constraint]]:
    """For each cell, the constraints that name it (a minimum's or maximum's neighbours too)."""
    touching: list[list[Constraint]] = [[] for _ in range(n_cells)]
    side = round(n_cells ** 0.5)
    for constraint in constraints:
        named = {*constraint.cells, *constraint.others}
        if constraint.kind in ("minimum", "maximum"):
            row, col = divmod(constraint.cells[0], side)
            named |= {r * side + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
                      if 0 <= r < side and 0 <= c < side}
        for cell in named:
            touching[cell].append(constraint)
    return touching


def _occupied_by_constraints(cell: int, cells: list[int], constraints: list[Constraint], n: int) -> int:
    """The digits that would break one of the constraints on ``cell``, given the digits placed elsewhere."""
    placed = {other: digit for other, digit in enumerate(cells) if digit}
    occupied = 0
    for digit in range(1, n + 1):
        placed[cell] = digit
        if any(broken(constraint, placed, n) for constraint in constraints):
            occupied |= 1 << (digit - 1)
    return occupied


def _place(code: int, cell: int, cells: list[int], units: list[list[int]], occupied_sets: list[int]) -> None:
    """Write the digit of ``code`` in a cell and mark it in the cell's row, column and box."""
    cells[cell] = code.bit_length()
    for unit in units[cell]:
        occupied_sets[unit] |= code


def _pop(
    stack: list[int], empties: list[int], cells: list[int], units: list[list[int]], occupied_sets: list[int]
) -> int:
    """Undo the last placement; return its code so the search resumes above it."""
    code = stack.pop()
    cell = empties[len(stack)]
    cells[cell] = 0
    for unit in units[cell]:
        occupied_sets[unit] &= ~code
    return code
