"""The strong/weak link graph over candidates, as bitsets, for the chain techniques.

A *node* is a statement "digit d is in one of these cells": a single candidate, or a *group* (a digit's
candidates in one box-line intersection, two cells or more, acting as one node). Two links join nodes:

- **weak** (``a - b``): a and b cannot both be true. Two candidates of one digit in cells that see each other,
  two digits of one cell, and a group with a node of its digit whose cells all see the group's cells.
- **strong** (``a = b``): a and b cannot both be false. A cell with two candidates (bivalue), a digit with two
  places in a unit (bilocal); with groups, a unit whose places of the digit fall into exactly two nodes.

Chains alternate them: from "a is false", a strong link makes the next node true; from "b is true", a weak link
makes the next node false. Everything is a Python int bitset over *node ids*, so a whole frontier of a
breadth-first search moves with a few big-int operations. A candidate (cell, d) has the id ``(d-1)*N*N + cell``
(digit-major, so "the same digit in these cells" is a cell bitset shifted by ``(d-1)*N*N``); groups follow from
``N**3``. ``kills[i]`` is the set of *candidates* (ids below ``N**3``) that node i being true removes: a chain
whose two ends cannot both be false removes ``kills[a] & kills[b]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from bitdoku.errors import cell_name
from bitdoku.logic.budget import check_time
from bitdoku.logic.candidates import CandidateGrid, Layout, layout_of
from bitdoku.shape import Shape


@dataclass(frozen=True)
class CellTables:
    """Per shape: each cell's peers as a cell bitset, and its candidate ids across all digits."""

    peers: tuple[int, ...]
    digits: tuple[int, ...]


@cache
def cell_tables(shape: Shape) -> CellTables:
    layout = layout_of(shape)
    nn, n = shape.n * shape.n, shape.n
    peers = tuple(sum(1 << p for p in layout.peers[c]) for c in range(nn))
    digits = tuple(sum(1 << (k * nn + c) for k in range(n)) for c in range(nn))
    return CellTables(peers, digits)


@dataclass
class LinkGraph:
    """The link graph of one candidate state (see the module docstring for the bitset layout).

    ``weak_x`` holds the weak links between cells (same digit), ``weak_cell`` those inside a cell (two digits),
    ``strong_x`` the bilocal links (same digit in a unit, groups included when built with groups), ``strong_y``
    the bivalue links; ``kills`` the candidates each node's truth removes. Each list is indexed by node id
    (None-free ints; 0 when the node has no such link).
    """

    cg: CandidateGrid
    n: int
    nn: int
    present: int
    weak_x: list[int]
    weak_cell: list[int]
    strong_x: list[int]
    strong_y: list[int]
    kills: list[int]
    groups: list[tuple[int, int]]  # (digit, cell bitset) of group id N**3 + index

    def digit(self, node: int) -> int:
        if node < self.n * self.nn:
            return node // self.nn + 1
        return self.groups[node - self.n * self.nn][0]

    def cells(self, node: int) -> list[int]:
        """The cells of a node, increasing."""
        if node < self.n * self.nn:
            return [node % self.nn]
        return list(iter_bits(self.groups[node - self.n * self.nn][1]))

    def is_group(self, node: int) -> bool:
        return node >= self.n * self.nn

    def name(self, node: int) -> str:
        """``5r1c2`` for a candidate, ``5r1c23`` for a group (Eureka style, digit first)."""
        return f"{self.digit(node)}{cells_text(self.cells(node), self.n)}"


def cells_text(cells: list[int], n: int) -> str:
    """``r1c2``; a group in one row ``r1c23``, in one column ``r12c3``."""
    if len(cells) == 1:
        return cell_name(cells[0], n)
    rows = sorted({c // n + 1 for c in cells})
    cols = sorted({c % n + 1 for c in cells})
    sep = "" if n <= 9 else ","
    return f"r{sep.join(map(str, rows))}c{sep.join(map(str, cols))}"


def iter_bits(x: int) -> Iterator[int]:
    """The set bits of x, lowest first."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def candidate_id(cell: int, digit: int, nn: int) -> int:
    return (digit - 1) * nn + cell


@lru_cache(maxsize=4)
def link_graph(cg: CandidateGrid, grouped: bool = False) -> LinkGraph:
    """The link graph of a state (cached for the last few states, since several finders read the same one)."""
    n = cg.n
    nn = n * n
    tables = cell_tables(cg.shape)
    layout = cg.layout
    masks = cg.masks
    size = n * nn
    plane = [0] * n  # per digit: the cells holding it, as a cell bitset
    for cell, mask in enumerate(masks):
        while mask:
            low = mask & -mask
            plane[low.bit_length() - 1] |= 1 << cell
            mask ^= low
    present = 0
    for k in range(n):
        present |= plane[k] << (k * nn)
    groups = _groups(cg, plane, layout) if grouped else []
    total = size + len(groups)
    weak_x = [0] * total
    weak_cell = [0] * total
    strong_x = [0] * total
    strong_y = [0] * total
    for cell, mask in enumerate(masks):
        if not mask:
            continue
        peers = tables.peers[cell]
        in_cell = tables.digits[cell] & present
        bivalue = mask.bit_count() == 2
        m = mask
        while m:
            low = m & -m
            k = low.bit_length() - 1
            node = k * nn + cell
            weak_x[node] = (peers & plane[k]) << (k * nn)
            weak_cell[node] = in_cell ^ (1 << node)
            if bivalue:
                strong_y[node] = weak_cell[node]
            m ^= low
    for unit in range(3 * n):
        unit_bits = _unit_bits(layout, unit)
        for k in range(n):
            places = unit_bits & plane[k]
            if places.bit_count() == 2:
                a = places & -places
                b = places ^ a
                ia, ib = k * nn + a.bit_length() - 1, k * nn + b.bit_length() - 1
                strong_x[ia] |= 1 << ib
                strong_x[ib] |= 1 << ia
    if groups:
        _link_groups(cg, groups, plane, layout, size, weak_x, strong_x)
    kills = [(weak_x[i] | weak_cell[i]) & present for i in range(total)]
    return LinkGraph(cg, n, nn, present, weak_x, weak_cell, strong_x, strong_y, kills, groups)


@cache
def _unit_bits_table(shape: Shape) -> tuple[int, ...]:
    layout = layout_of(shape)
    return tuple(sum(1 << c for c in unit) for unit in layout.units)


def _unit_bits(layout: Layout, unit: int) -> int:
    return _unit_bits_table(layout.shape)[unit]


@cache
def _segments(shape: Shape) -> tuple[tuple[int, int, int], ...]:
    """Every box-line intersection as (box unit, line unit, cell bitset)."""
    layout = layout_of(shape)
    n = shape.n
    found = []
    for box in range(2 * n, 3 * n):
        for line, cells in layout.segments[box]:
            found.append((box, line, sum(1 << c for c in cells)))
    return tuple(found)


def _groups(cg: CandidateGrid, plane: list[int], layout: Layout) -> list[tuple[int, int]]:
    """Groups: a digit's candidates in one box-line intersection, when there are two or more."""
    groups = []
    for k in range(cg.n):
        for _box, _line, seg in _segments(cg.shape):
            cells = seg & plane[k]
            if cells.bit_count() >= 2:
                groups.append((k + 1, cells))
    return groups


def _link_groups(
    cg: CandidateGrid, groups: list[tuple[int, int]], plane: list[int], layout: Layout, size: int,
    weak_x: list[int], strong_x: list[int],
) -> None:
    """Weak links of groups (with every same-digit node whose cells all see the group's) and the strong links
    of units whose places of a digit fall into exactly two nodes (a group or a single cell each)."""
    n, nn = cg.n, cg.n * cg.n
    tables = cell_tables(cg.shape)
    node_of: dict[tuple[int, int], int] = {}
    for g, (digit, cells) in enumerate(groups):
        node_of[(digit, cells)] = size + g
    # Weak links: a group sees the cells that see all its cells.
    for g, (digit, cells) in enumerate(groups):
        check_time()  # groups x groups: 4 s on a near-empty 25x25 grid
        k = digit - 1
        seen = -1
        for c in iter_bits(cells):
            seen &= tables.peers[c]
        seen &= plane[k] & ~cells
        node = size + g
        weak_x[node] |= seen << (k * nn)
        for c in iter_bits(seen):
            weak_x[k * nn + c] |= 1 << node
        for h, (digit2, cells2) in enumerate(groups):
            if h != g and digit2 == digit and not cells2 & cells and cells2 & seen == cells2:
                weak_x[node] |= 1 << (size + h)

    def node_at(k: int, cells: int) -> int | None:
        if cells.bit_count() == 1:
            return k * nn + cells.bit_length() - 1
        return node_of.get((k + 1, cells))

    def link(k: int, p: int, q: int) -> None:
        a, b = node_at(k, p), node_at(k, q)
        if a is not None and b is not None and (a >= size or b >= size):
            strong_x[a] |= 1 << b
            strong_x[b] |= 1 << a

    for unit in range(3 * n):
        parts = [sum(1 << c for c in cells) for _other, cells in layout.segments[unit]]
        unit_bits = _unit_bits(layout, unit)
        for k in range(n):
            places = unit_bits & plane[k]
            if places.bit_count() < 3:
                continue
            if unit < 2 * n:  # a line: its places in exactly two boxes
                hit = [places & part for part in parts if places & part]
                if len(hit) == 2:
                    link(k, hit[0], hit[1])
            else:  # a box: a line's part against the rest, when the rest lies in one line
                for part in parts:
                    p = places & part
                    q = places & ~part
                    if p and q and any(q & other == q for other in parts):
                        link(k, p, q)


def spread(frontier: int, table: list[int]) -> int:
    """The union of ``table[i]`` over the nodes i of a frontier: one step of a breadth-first search."""
    acc = 0
    while frontier:
        low = frontier & -frontier
        acc |= table[low.bit_length() - 1]
        frontier ^= low
    return acc


def lockstep(
    weak: list[int], strong: list[int], starts: list[tuple[int, bool]], max_links: int
) -> Iterator[tuple[int, int, list[int]]]:
    """Breadth-first searches from every start at once, one link at a time, so that all chains of k links come
    before any of k+1 (the shortest chain anywhere is found first).

    A start is (node, is_true): from a false node a strong link makes the next one true, from a true node a weak
    link makes the next false. Yields (links, start index, layers) after each step that reached new nodes;
    ``layers[i]`` is the bitset first reached after i links (its truth alternates from the start's), the last
    being the new one. A search stops at ``max_links`` links or when it reaches nothing new.
    """
    states = []
    for node, is_true in starts:
        bit = 1 << node
        seen = [0, 0]  # seen[truth]
        seen[is_true] = bit
        states.append((seen, [bit], is_true))
    live = list(range(len(starts)))
    linked = sum(1 << i for i, bits in enumerate(strong) if bits)  # a false node elsewhere is a dead end
    for links in range(1, max_links + 1):
        still = []
        for index in live:
            check_time()  # a rung of chains can take seconds on a near-empty big grid
            seen, layers, first_truth = states[index]
            truth = first_truth ^ (links & 1)  # the truth of the nodes this step reaches
            new = (spread(layers[-1] & linked, strong) if truth else spread(layers[-1], weak)) & ~seen[truth]
            if not new:
                continue
            seen[truth] |= new
            layers.append(new)
            still.append(index)
            yield links, index, layers
        live = still
        if not live:
            return


def trace(layers: list[int], end: int, weak: list[int], strong: list[int], first_truth: bool) -> list[int]:
    """A path of nodes from the start to ``end`` (in the last layer) through the layers (links are symmetric,
    so a predecessor of a node is found among its own links)."""
    path = [end]
    cur = end
    for i in range(len(layers) - 2, -1, -1):
        truth = first_truth ^ (i & 1)  # truth of layer i; the link from it is strong when it is false
        table = weak if truth else strong
        options = layers[i] & table[cur]
        cur = (options & -options).bit_length() - 1
        path.append(cur)
    return path[::-1]
