"""Random jigsaw region maps, for generating jigsaw puzzles when the user brings no map of their own.

A map starts as the boxes and is reshaped by random swaps: two orthogonal neighbours in different regions trade
regions, and the swap stays only if both regions are still connected (one piece each, as printed jigsaws are).
Every region keeps N cells throughout, so the map is always well formed; whether it admits a complete grid is
checked at the end with the compiled variant search (a few maps do not; the next draw is taken).
"""

from __future__ import annotations

import numpy as np

from bitdoku.engines.bitmask import search
from bitdoku.errors import SearchLimitError
from bitdoku.generate.seeds import Seed, root_sequence
from bitdoku.geometry import _ALPHABET, Geometry
from bitdoku.grid import Grid
from bitdoku.shape import Shape

#: Successful swaps per cell: enough that the boxes are no longer recognisable.
SWAPS_PER_CELL = 3
#: Nodes the solvability check of one map may spend; a map it cannot settle is dropped like an unsolvable one.
CHECK_NODES = 20_000


def random_jigsaw(shape: Shape | str = "3x3", *, seed: Seed = None, attempts: int = 100) -> Geometry:
    """A random jigsaw geometry: N connected regions of N cells, with at least one complete grid.

    Parameters
    ----------
    shape : Shape or str
        The grid's size (only N matters; ``"3x3"`` for 9x9).
    seed : int, numpy Generator or None
        The same seed gives the same map.
    attempts : int
        Maps to draw before giving up.

    Raises
    ------
    SearchLimitError
        When no map of ``attempts`` draws admits a grid (not seen for 9x9: almost every connected map does).

    Example
    -------
    >>> geometry = random_jigsaw("2x2", seed=1)
    >>> geometry.name, len(geometry.region_map())
    ('jigsaw', 16)
    """
    shape = Shape.parse(shape)
    rng = np.random.default_rng(root_sequence(seed))
    for _ in range(attempts):
        regions = _reshaped_boxes(shape, rng)
        geometry = Geometry.jigsaw("".join(_ALPHABET[r] for r in regions), shape)
        # on variant81, whatever the engine's fastest kernel: its budget decides which maps are drawn (jigsaw9 settles
        # other maps within it: 8 of the first 150 seeds would draw other maps)
        result = search(Grid.empty(shape).with_geometry(geometry), limit=1, max_nodes=CHECK_NODES, keep=0,
                        band_kernels=False)
        if result.count == 1:
            return geometry
    raise SearchLimitError(CHECK_NODES * attempts, 0)


def _reshaped_boxes(shape: Shape, rng: np.random.Generator) -> list[int]:
    """The box of each cell, reshaped by random trades (see the module): a cell ``a`` of region R1 next to region
    R2 joins R2, and a cell ``c`` of R2 next to R1 joins R1 in exchange; kept when both stay connected."""
    n = shape.n
    regions = [shape.box_of(*divmod(cell, n)) for cell in range(n * n)]
    wanted = SWAPS_PER_CELL * n * n
    done = 0
    for _ in range(50 * wanted):
        if done == wanted:
            break
        a = int(rng.integers(n * n))
        neighbours = [b for b in _neighbours(a, n) if regions[b] != regions[a]]
        if not neighbours:
            continue
        mine, theirs = regions[a], regions[neighbours[int(rng.integers(len(neighbours)))]]
        offers = [c for c in range(n * n) if regions[c] == theirs and c not in neighbours
                  and any(regions[d] == mine and d != a for d in _neighbours(c, n))]
        if not offers:
            continue
        c = offers[int(rng.integers(len(offers)))]
        regions[a], regions[c] = theirs, mine
        if _connected(regions, mine, n) and _connected(regions, theirs, n):
            done += 1
        else:
            regions[a], regions[c] = mine, theirs
    return regions


def _neighbours(cell: int, n: int) -> list[int]:
    row, col = divmod(cell, n)
    return [(row + dr) * n + col + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= row + dr < n and 0 <= col + dc < n]


def _connected(regions: list[int], region: int, n: int) -> bool:
    """Whether the cells of one region form one orthogonally connected piece."""
    cells = [cell for cell, r in enumerate(regions) if r == region]
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        for other in _neighbours(todo.pop(), n):
            if other not in seen and regions[other] == region:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(cells)
