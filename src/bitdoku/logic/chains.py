"""Chains of bivalue cells (cells with two candidates).

- **Remote Pairs**: a chain of cells that all hold the same pair {x, y}, each seeing the next. Along the chain
  the values alternate, so two cells an odd number of links apart (3 or more) hold x and y between them: both
  digits leave the cells that see both ends (https://www.sudokuwiki.org/Remote_Pairs).
- **XY-Chain**: bivalue cells, each seeing the next and sharing a digit with it; if the first cell is not z,
  the chain forces the last one to be z. So z leaves the cells that see both ends
  (https://www.sudokuwiki.org/XY_Chains). Found breadth first, shortest first, up to ``MAX_CHAIN_CELLS`` cells.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from bitdoku.errors import cell_name
from bitdoku.logic.candidates import CandidateGrid, digits_of
from bitdoku.logic.step import Step, digit_list, make_step, removals

REMOTE_PAIRS = "Remote Pairs"
XY_CHAIN = "XY-Chain"

#: The longest XY-Chain searched, in cells.
MAX_CHAIN_CELLS = 12


def find_remote_pairs(cg: CandidateGrid) -> Iterator[Step]:
    """Remote pairs: for each pair of digits, chains of cells holding exactly that pair."""
    masks, layout, n = cg.masks, cg.layout, cg.n
    by_pair: dict[int, list[int]] = {}
    for cell, mask in enumerate(masks):
        if mask.bit_count() == 2:
            by_pair.setdefault(mask, []).append(cell)
    for pair, cells in sorted(by_pair.items()):
        if len(cells) < 4:
            continue
        members = set(cells)
        for start in cells:
            parent: dict[int, int | None] = {start: None}
            depth = {start: 0}
            queue = deque([start])
            while queue:
                cell = queue.popleft()
                for other in sorted(layout.peers[cell] & members):
                    if other in parent:
                        continue
                    parent[other], depth[other] = cell, depth[cell] + 1
                    queue.append(other)
                    if depth[other] % 2 == 1 and depth[other] >= 3:
                        seers = layout.common_peers((start, other))
                        gone = [(c, d) for c in sorted(seers) for d in digits_of(masks[c] & pair)]
                        if gone:
                            chain = _trace(parent, other)
                            text = (
                                f"{' - '.join(cell_name(c, n) for c in chain)} all hold {digit_list(digits_of(pair))}"
                                f" and alternate, so {cell_name(start, n)} and {cell_name(other, n)} hold both: "
                                f"remove {removals(gone, n)} (remote pairs)"
                            )
                            yield make_step(REMOTE_PAIRS, cg, text, eliminations=gone, cells=chain)


def _trace(parent: dict, end: int) -> list[int]:
    """The cells from the search's start to ``end``."""
    cells = []
    while end is not None:
        cells.append(end)
        end = parent[end]
    return cells[::-1]


def find_xy_chains(cg: CandidateGrid) -> Iterator[Step]:
    """XY-Chains from each bivalue cell and each of its digits, shortest first."""
    masks, layout, n = cg.masks, cg.layout, cg.n
    bivalue = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    bivalue_set = set(bivalue)
    for start in bivalue:
        for z in digits_of(masks[start]):
            zbit = 1 << (z - 1)
            # A state (cell, digit) means "the cell holds digit"; the start holds its other digit when it is not z.
            first = (start, (masks[start] & ~zbit).bit_length())
            parent: dict[tuple[int, int], tuple[int, int] | None] = {first: None}
            queue = deque([(first, 1)])
            while queue:
                (cell, value), length = queue.popleft()
                if length >= MAX_CHAIN_CELLS:
                    continue
                vbit = 1 << (value - 1)
                for other in sorted(layout.peers[cell] & bivalue_set):
                    if not masks[other] & vbit or other == start:
                        continue
                    state = (other, (masks[other] & ~vbit).bit_length())
                    if state in parent:
                        continue
                    parent[state] = (cell, value)
                    queue.append((state, length + 1))
                    if state[1] == z and length + 1 >= 3:
                        seers = layout.common_peers((start, other))
                        gone = [(c, z) for c in sorted(seers) if masks[c] & zbit]
                        if gone:
                            chain = [c for c, _ in _trace(parent, state)]
                            shown = " - ".join(f"{cell_name(c, n)} {digit_list(digits_of(masks[c]))}" for c in chain)
                            text = (
                                f"{shown}: if {cell_name(start, n)} is not {z}, the chain makes "
                                f"{cell_name(other, n)} {z}; remove {removals(gone, n)} (XY-chain)"
                            )
                            yield make_step(XY_CHAIN, cg, text, eliminations=gone, cells=chain)
