"""An independent, obviously correct counter (Norvig-style sets, no bit tricks) for cross-checking engines."""

from __future__ import annotations

from bitdoku import Grid


def count_solutions(grid: Grid, limit: int) -> int:
    """Count solutions up to ``limit`` by trying every digit in the first empty cell; 0 for an invalid grid."""
    if not grid.is_valid():
        return 0
    n, units = grid.n, grid.shape.tables.units
    cells = list(grid.cells)
    unit_sets = [{cells[c] for c in unit if cells[c]} for unit in units.tolist()]
    cell_units = grid.shape.tables.cell_units.tolist()

    def count(position: int, found: int) -> int:
        while position < len(cells) and cells[position]:
            position += 1
        if position == len(cells):
            return found + 1
        for digit in range(1, n + 1):
            if all(digit not in unit_sets[u] for u in cell_units[position]):
                for u in cell_units[position]:
                    unit_sets[u].add(digit)
                cells[position] = digit
                found = count(position + 1, found)
                cells[position] = 0
                for u in cell_units[position]:
                    unit_sets[u].discard(digit)
                if found >= limit:
                    return found
        return found

    return count(0, 0)
