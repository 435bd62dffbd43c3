"""Basic fish: X-Wing (2 lines), Swordfish (3) and Jellyfish (4), on rows and on columns.

For one digit, k *base* lines (rows, say) in which the digit fits only within the same k *cover* lines
(columns). Each base row takes the digit once, in k different columns, so the k columns get their digit from
the base rows and it leaves every other cell of the cover columns. See https://www.sudokuwiki.org/X_Wing_Strategy
and https://www.sudokuwiki.org/Sword_Fish_Strategy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.step import Step, make_step, removals
from bitdoku.logic.subsets import _union_groups

FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def basic_fish(k: int) -> Callable[[CandidateGrid], Iterator[Step]]:
    """The finder of basic fish of size k, rows as base lines first, then columns."""
    technique = FISH_NAMES[k]

    def find(cg: CandidateGrid) -> Iterator[Step]:
        n = cg.n
        for digit in range(1, n + 1):
            for base_kind in (0, 1):
                yield from _fish(cg, digit, k, base_kind, technique)

    find.__name__ = f"find_{technique.lower().replace('-', '_')}"
    find.__doc__ = f"{technique}: {k} lines where a digit fits only within {k} crossing lines."
    return find


def _fish(cg: CandidateGrid, digit: int, k: int, base_kind: int, technique: str) -> Iterator[Step]:
    """Fish with base lines of one kind (0 rows, 1 columns); cover lines are the other kind."""
    n, layout = cg.n, cg.layout
    cover_index = layout.col if base_kind == 0 else layout.row
    items = []
    for line in range(base_kind * n, (base_kind + 1) * n):
        cells = cg.cells_with(line, digit)
        if 2 <= len(cells) <= k:
            items.append((line, sum(1 << cover_index[c] for c in cells)))
    if len(items) < k:
        return
    cover_base = (1 - base_kind) * n
    for bases, union in _union_groups(items, k):
        covers = [cover_base + i for i in range(n) if union >> i & 1]
        base_set = set(bases)
        gone = [
            (c, digit)
            for cover in covers
            for c in cg.cells_with(cover, digit)
            if layout.cell_units[c][base_kind] not in base_set
        ]
        if gone:
            kinds = ("rows", "columns")
            base_names = " and ".join(str(b - base_kind * n + 1) for b in bases)
            cover_names = " and ".join(str(c - cover_base + 1) for c in covers)
            text = (
                f"in {kinds[base_kind]} {base_names}, {digit} fits only in {kinds[1 - base_kind]} {cover_names}, "
                f"so remove {removals(gone, n)} ({technique})"
            )
            pattern = [c for b in bases for c in cg.cells_with(b, digit)]
            yield make_step(technique, cg, text, eliminations=gone, cells=pattern, units=[*bases, *covers])


find_x_wing = basic_fish(2)
find_swordfish = basic_fish(3)
find_jellyfish = basic_fish(4)
