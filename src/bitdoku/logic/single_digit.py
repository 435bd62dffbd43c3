"""Patterns of one digit built from strong links (a unit where the digit has exactly two places).

- **Skyscraper**: two strong links in parallel lines (two rows, or two columns) with one end of each in the
  same crossing line. One of the two other ends holds the digit, so it leaves the cells that see both
  (https://hodoku.sourceforge.net/en/tech_sdp.php).
- **2-String Kite**: a strong link in a row and one in a column with an end of each in the same box (not the
  same cell). One of the two far ends holds the digit; it leaves the cells that see both.
- **Simple Colouring**: strong links chained into a network, coloured alternately; one colour is the truth.
  Two cells of one colour that see each other make that colour false (colour wrap); a cell that sees both
  colours loses the digit (colour trap) (https://www.sudokuwiki.org/Simple_Colouring).
- **Empty Rectangle**: in a box, the digit fits only in one row and one column of the box (and in both, not
  in one line only): the box's digit lies in that row or that column. With a strong link in a crossing line that
  has an end in the row (say), the link's other end forces the digit out of the cell in its line and the
  box's column: were the digit there, the box would lose it twice over
  (https://hodoku.sourceforge.net/en/tech_sdp.php).
- **Turbot Fish** (a strong link, a weak link, a strong link) is the X-Chain of 3 links: Skyscraper and
  2-String Kite name two of its shapes, ``find_x_chains`` finds every one (its shortest chains come first).
- **X-Chain**: strong and weak links alternate from one cell to another, starting and ending with a strong
  link; one end holds the digit, so the cells that see both ends lose it (https://www.sudokuwiki.org/X_Chains).
  Chains are found breadth first, so the shortest is shown, up to ``MAX_CHAIN_LINKS`` links.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from functools import cache

import numpy as np

from bitdoku.errors import cell_name
from bitdoku.logic.candidates import CandidateGrid, layout_of, suits_compiled_finders
from bitdoku.logic.changes import Changes, digit_changed
from bitdoku.logic.fish import bits, box_lines, digit_lines
from bitdoku.logic.kernels.empty_rectangle import empty_rectangles
from bitdoku.logic.kernels.two_links import kites, skyscrapers
from bitdoku.logic.kernels.xchain import x_chains
from bitdoku.logic.step import Step, make_step, names, removals
from bitdoku.shape import Shape

SKYSCRAPER = "Skyscraper"
KITE = "2-String Kite"
COLOURING = "Simple Colouring"
EMPTY_RECTANGLE = "Empty Rectangle"
X_CHAIN = "X-Chain"

#: The longest X-Chain searched, in links (strong and weak together; always odd).
MAX_CHAIN_LINKS = 13


#: The last state asked about and its strong links by (digit, first unit, last unit), replaced whole so that
#: threads never pair one state with another's links: Skyscraper and 2-String Kite ask for the same ones.
_last_links: tuple[CandidateGrid | None, dict[tuple[int, int, int], list[tuple[int, int, int]]]] = (None, {})


def _line_links(cg: CandidateGrid, digit: int, units: range) -> list[tuple[int, int, int]]:
    """``strong_links`` of the last state, kept per (digit, units) (the caller must not change the list)."""
    global _last_links
    state, known = _last_links
    if state is not cg:
        known = {}
        _last_links = (cg, known)
    key = (digit, units.start, units.stop)
    links = known.get(key)
    if links is None:
        links = known[key] = strong_links(cg, digit, units)
    return links


def strong_links(cg: CandidateGrid, digit: int, units: range) -> list[tuple[int, int, int]]:
    """(cell, cell, unit) for each unit of ``units`` where ``digit`` has exactly two places (in the unit's order).
    Reads the state's digit bitsets (``CandidateGrid.digit_cells``): the ladder asks for every digit's links of
    each state, and a unit's places are one AND away."""
    layout = cg.layout
    spots, unit_bits = cg.digit_cells()[digit - 1], layout.unit_bits
    links = []
    for unit in units:
        places = spots & unit_bits[unit]
        rest = places & (places - 1)
        if rest and not rest & (rest - 1):  # two places
            a, b = (places & -places).bit_length() - 1, rest.bit_length() - 1
            if not layout.units_sorted and layout.units[unit].index(a) > layout.units[unit].index(b):
                a, b = b, a
            links.append((a, b, unit))
    return links


def _eliminate_seen_by(cg: CandidateGrid, digit: int, a: int, b: int, pattern: set[int]) -> list[tuple[int, int]]:
    """The candidates of ``digit`` in cells that see both a and b, outside the pattern."""
    peer_bits = cg.layout.peer_bits
    seen = peer_bits[a] & peer_bits[b] & cg.digit_cells()[digit - 1]
    for c in pattern:
        seen &= ~(1 << c)
    gone = []
    while seen:  # increasing cells
        low = seen & -seen
        gone.append((low.bit_length() - 1, digit))
        seen ^= low
    return gone


def find_skyscrapers(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
    """Skyscrapers on rows, then on columns, digits increasing. With ``changes`` (``bitdoku.logic.changes``),
    only the digits that changed: a digit's steps depend only on its own candidates."""
    if COMPILED and suits_compiled_finders(cg):
        return _compiled_two_links(cg, changes, kite=False)
    return _skyscrapers_python(cg, changes)


def _skyscrapers_python(cg: CandidateGrid, changes: Changes | None) -> Iterator[Step]:
    """``find_skyscrapers`` in Python, on any geometry (the compiled search's reference)."""
    n, layout = cg.n, cg.layout
    for digit in range(1, n + 1):
        if not digit_changed(changes, digit):
            continue
        for kind, cross in ((0, layout.col), (1, layout.row)):
            links = _line_links(cg, digit, range(kind * n, (kind + 1) * n))
            for i, (a1, a2, u1) in enumerate(links):
                for b1, b2, u2 in links[i + 1 :]:
                    for base_a, roof_a in ((a1, a2), (a2, a1)):
                        for base_b, roof_b in ((b1, b2), (b2, b1)):
                            if cross[base_a] != cross[base_b] or cross[roof_a] == cross[roof_b]:
                                continue
                            pattern = {a1, a2, b1, b2}
                            gone = _eliminate_seen_by(cg, digit, roof_a, roof_b, pattern)
                            if gone:
                                yield _skyscraper_step(cg, digit, kind, u1, u2, pattern, (base_a, roof_a, base_b,
                                                                                          roof_b), gone)


def _skyscraper_step(cg: CandidateGrid, digit: int, kind: int, u1: int, u2: int, pattern: set[int],
                     ends: tuple[int, int, int, int], gone: list[tuple[int, int]]) -> Step:
    n = cg.n
    base_a, roof_a, base_b, roof_b = ends
    text = (
        f"{digit} has two places in {cg.layout.unit_name(u1)} and in "
        f"{cg.layout.unit_name(u2)}, and {names([base_a, base_b], n)} share a "
        f"{('column', 'row')[kind]}: {cell_name(roof_a, n)} or {cell_name(roof_b, n)} is "
        f"{digit}, so remove {removals(gone, n)} (skyscraper)"
    )
    return make_step(SKYSCRAPER, cg, text, eliminations=gone, cells=pattern, units=[u1, u2])


def _compiled_two_links(cg: CandidateGrid, changes: Changes | None, kite: bool) -> Iterator[Step]:
    """The compiled search's skyscrapers (or kites), made steps as the Python finders make them
    (``logic.kernels.two_links``)."""
    n = cg.n
    digits = _changed_digits(changes, n)
    found = np.empty((1024, 7), dtype=np.int64)
    _units, _order, sees = _chain_tables(cg.shape)
    if kite:
        rows = kites(cg.mask_array(), n, _boxes(cg.shape), sees, digits, found)
    else:
        rows = skyscrapers(cg.mask_array(), n, sees, digits, found)
    if rows < 0:  # more than the rows hold: the Python search
        yield from (_kites_python if kite else _skyscrapers_python)(cg, changes)
        return
    for d, u1, u2, e0, e1, e2, e3 in found[:rows].tolist():
        digit = d + 1
        first, second = sorted((e0, e1)), sorted((e2, e3))
        pattern = {first[0], first[1], second[0], second[1]}
        gone = _eliminate_seen_by(cg, digit, e1, e3, pattern)
        if kite:
            yield _kite_step(cg, digit, u1, u2, pattern, (e0, e1, e2, e3), gone)
        else:
            yield _skyscraper_step(cg, digit, u1 // n, u1, u2, pattern, (e0, e1, e2, e3), gone)


def _changed_digits(changes: Changes | None, n: int) -> int:
    """The digits to search as a bitmask (bit d-1 for digit d): those that changed, or all."""
    if changes is None:
        return (1 << n) - 1
    return sum(1 << d for d, lost in enumerate(changes.by_digit) if lost)


@cache
def _boxes(shape: Shape) -> np.ndarray:
    """The box of each cell (int32[N*N])."""
    return np.array(layout_of(shape).box, dtype=np.int32)


def find_two_string_kites(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
    """2-String Kites: a row link and a column link meeting in a box; with ``changes``, only the digits that
    changed."""
    if COMPILED and suits_compiled_finders(cg):
        return _compiled_two_links(cg, changes, kite=True)
    return _kites_python(cg, changes)


def _kites_python(cg: CandidateGrid, changes: Changes | None) -> Iterator[Step]:
    """``find_two_string_kites`` in Python, on any geometry (the compiled search's reference)."""
    n, layout = cg.n, cg.layout
    for digit in range(1, n + 1):
        if not digit_changed(changes, digit):
            continue
        rows = _line_links(cg, digit, range(n))
        cols = _line_links(cg, digit, range(n, 2 * n))
        for r1, r2, row_unit in rows:
            for c1, c2, col_unit in cols:
                pattern = {r1, r2, c1, c2}
                if len(pattern) < 4:
                    continue
                for near_r, far_r in ((r1, r2), (r2, r1)):
                    for near_c, far_c in ((c1, c2), (c2, c1)):
                        if layout.box[near_r] != layout.box[near_c]:
                            continue
                        gone = _eliminate_seen_by(cg, digit, far_r, far_c, pattern)
                        if gone:
                            yield _kite_step(cg, digit, row_unit, col_unit, pattern, (near_r, far_r, near_c, far_c),
                                             gone)


def _kite_step(cg: CandidateGrid, digit: int, row_unit: int, col_unit: int, pattern: set[int],
               ends: tuple[int, int, int, int], gone: list[tuple[int, int]]) -> Step:
    n, layout = cg.n, cg.layout
    near_r, far_r, _near_c, far_c = ends
    text = (
        f"{digit} has two places in {cg.layout.unit_name(row_unit)} and in "
        f"{cg.layout.unit_name(col_unit)}, joined in box {layout.box[near_r] + 1}: "
        f"{cell_name(far_r, n)} or {cell_name(far_c, n)} is {digit}, so remove "
        f"{removals(gone, n)} (2-string kite)"
    )
    return make_step(KITE, cg, text, eliminations=gone, cells=pattern, units=[row_unit, col_unit])


def find_empty_rectangles(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
    """Empty Rectangles, digits increasing, boxes in order; for each box's row and column, links in the
    columns first, then in the rows. Reads the per-digit line bitmasks of ``fish.digit_lines``. With ``changes``,
    only the digits that changed."""
    n = cg.n
    bands, stacks = box_lines(cg.shape, 0)
    if COMPILED and suits_compiled_finders(cg):
        yield from _compiled_empty_rectangles(cg, changes, bands, stacks)
        return
    tables = digit_lines(cg)
    for digit in range(1, n + 1):
        if not digit_changed(changes, digit):
            continue
        rows, cols = tables[digit - 1]
        for band, _ in bands:
            for stack, _ in stacks:
                for row, col in _rectangle_lines(rows, band, stack):
                    yield from _empty_rectangle_steps(cg, digit, rows, cols, band, stack, row, col)


def _compiled_empty_rectangles(cg: CandidateGrid, changes: Changes | None,
                               bands: tuple[tuple[int, tuple[int, ...]], ...],
                               stacks: tuple[tuple[int, tuple[int, ...]], ...]) -> Iterator[Step]:
    """The compiled search's empty rectangles (``logic.kernels.empty_rectangle``), made steps as the Python finder
    makes them."""
    n = cg.n
    digits = _changed_digits(changes, n)
    found = np.empty((512, 9), dtype=np.int64)
    band_masks = np.array([mask for mask, _ in bands], dtype=np.uint64)
    stack_masks = np.array([mask for mask, _ in stacks], dtype=np.uint64)
    rows = empty_rectangles(cg.mask_array(), n, band_masks, stack_masks, digits, found)
    if rows < 0:  # more than the rows hold: the Python search
        tables = digit_lines(cg)
        for digit in range(1, n + 1):
            if digits >> (digit - 1) & 1:
                rows_d, cols_d = tables[digit - 1]
                for band, _ in bands:
                    for stack, _ in stacks:
                        for row, col in _rectangle_lines(rows_d, band, stack):
                            yield from _empty_rectangle_steps(cg, digit, rows_d, cols_d, band, stack, row, col)
        return
    for d, band, stack, row, col, near, far, target, unit in found[:rows].tolist():
        yield _empty_rectangle_step(cg, d + 1, band, stack, row, col, (near, far), target, unit)


def _rectangle_lines(rows: tuple[int, ...], band: int, stack: int) -> Iterator[tuple[int, int]]:
    """The (row, column) pairs of a box (``band`` rows by ``stack`` columns) whose cross holds every candidate
    of the box, with candidates off the crossing cell in both the row and the column."""
    in_box = [(r, rows[r] & stack) for r in bits(band) if rows[r] & stack]
    if len(in_box) < 2:
        return  # no candidate, or all in one row
    for row, row_part in in_box:
        others = 0
        for r, part in in_box:
            if r != row:
                others |= part
        if others.bit_count() == 1 and row_part & ~others:
            yield row, others.bit_length() - 1


def _empty_rectangle_steps(
    cg: CandidateGrid,
    digit: int,
    rows: tuple[int, ...],
    cols: tuple[int, ...],
    band: int,
    stack: int,
    row: int,
    col: int,
) -> Iterator[Step]:
    """The eliminations of one empty rectangle (box of ``band`` and ``stack``, crossing at ``row``, ``col``)
    with each strong link that meets its row or its column from outside the box."""
    n = cg.n
    for link_col in bits(~stack & rows[row] & ((1 << n) - 1)):
        ends = cols[link_col]
        other = ends & ~(1 << row)
        if ends.bit_count() == 2 and not other & band and rows[other.bit_length() - 1] >> col & 1:
            far = other.bit_length() - 1
            yield _empty_rectangle_step(
                cg, digit, band, stack, row, col, (row * n + link_col, far * n + link_col), far * n + col, n + link_col
            )
    for link_row in bits(~band & cols[col] & ((1 << n) - 1)):
        ends = rows[link_row]
        other = ends & ~(1 << col)
        if ends.bit_count() == 2 and not other & stack and cols[other.bit_length() - 1] >> row & 1:
            far = other.bit_length() - 1
            yield _empty_rectangle_step(
                cg, digit, band, stack, row, col, (link_row * n + col, link_row * n + far), row * n + far, link_row
            )


def _empty_rectangle_step(
    cg: CandidateGrid,
    digit: int,
    band: int,
    stack: int,
    row: int,
    col: int,
    link: tuple[int, int],
    target: int,
    link_unit: int,
) -> Step:
    """The step: ``link`` is the strong link (its end on the rectangle's line first), ``target`` the cell that
    loses the digit."""
    n = cg.n
    box_cells = [r * n + c for r in bits(band) for c in bits(stack) if cg.masks[r * n + c] >> (digit - 1) & 1]
    box = cg.layout.box[box_cells[0]]
    near, far = link
    gone = [(target, digit)]
    text = (
        f"in box {box + 1}, {digit} fits only in row {row + 1} and column {col + 1}, and "
        f"{cg.layout.unit_name(link_unit)} holds it only in {cell_name(near, n)} and {cell_name(far, n)}: were "
        f"{cell_name(target, n)} {digit}, {cell_name(near, n)} would be, and box {box + 1} would have no place left "
        f"for it, so remove {removals(gone, n)} (empty rectangle)"
    )
    return make_step(
        EMPTY_RECTANGLE,
        cg,
        text,
        eliminations=gone,
        cells=[*box_cells, near, far],
        units=[2 * n + box, row, n + col, link_unit],
    )


def find_simple_colouring(cg: CandidateGrid) -> Iterator[Step]:
    """Colour wraps and colour traps in each network of strong links of a digit."""
    n = cg.n
    for digit in range(1, n + 1):
        graph: dict[int, list[int]] = {}
        for a, b, _unit in strong_links(cg, digit, range(len(cg.layout.units))):
            graph.setdefault(a, []).append(b)
            graph.setdefault(b, []).append(a)
        seen: set[int] = set()
        for start in sorted(graph):
            if start in seen:
                continue
            colour = _two_colour(graph, start)
            seen.update(colour)
            if len(colour) >= 3:
                yield from _colour_steps(cg, digit, colour)


def _two_colour(graph: dict[int, list[int]], start: int) -> dict[int, int]:
    """Colour 0/1 alternately along the links of the network that holds ``start``."""
    colour = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for other in graph[cell]:
            if other not in colour:
                colour[other] = 1 - colour[cell]
                queue.append(other)
    return colour


def _colour_steps(cg: CandidateGrid, digit: int, colour: dict[int, int]) -> Iterator[Step]:
    n, layout, masks = cg.n, cg.layout, cg.masks
    groups = [sorted(c for c, k in colour.items() if k == side) for side in (0, 1)]
    cells = sorted(colour)
    for group in groups:
        clash = next(((a, b) for i, a in enumerate(group) for b in group[i + 1 :] if layout.sees(a, b)), None)
        if clash:
            gone = [(c, digit) for c in group]
            text = (
                f"colouring the strong links of {digit}: {names(group, n)} share a colour, and "
                f"{cell_name(clash[0], n)} sees {cell_name(clash[1], n)}, so that colour is false: remove "
                f"{removals(gone, n)} (simple colouring, colour wrap)"
            )
            yield make_step(COLOURING, cg, text, eliminations=gone, cells=cells)
            return
    bit = 1 << (digit - 1)
    gone = []
    for cell, mask in enumerate(masks):
        if mask & bit and cell not in colour:
            near = {colour[p] for p in layout.peers[cell] if p in colour}
            if len(near) == 2:
                gone.append((cell, digit))
    if gone:
        text = (
            f"colouring the strong links of {digit} as {names(groups[0], n)} against {names(groups[1], n)}: "
            f"one colour is true, so remove {removals(gone, n)}, which see both colours (simple colouring, trap)"
        )
        yield make_step(COLOURING, cg, text, eliminations=gone, cells=cells)


#: Whether classic grids (up to 32 digits) use the compiled searches (X-Chains: ``logic.kernels.xchain``, Empty
#: Rectangles: ``logic.kernels.empty_rectangle``, Skyscrapers and Kites: ``logic.kernels.two_links``); the Python
#: ones are their reference.
COMPILED = True


def find_x_chains(cg: CandidateGrid, changes: Changes | None = None,
                  max_links: int = MAX_CHAIN_LINKS) -> Iterator[Step]:
    """X-Chains of at least 3 links, shortest first from each start cell, digits increasing; with ``changes``,
    only the digits that changed (a digit's chains depend only on its own candidates). ``max_links``: the
    longest chain searched; a start's step is its shortest chain that removes something, so a smaller bound
    gives the same steps less those longer than the bound (SE's strong-link rules need at most 7 links).
    On classic grids the search is compiled (``logic.kernels.xchain``, the same chains in the same order)."""
    if COMPILED and suits_compiled_finders(cg):
        return _x_chains_compiled(cg, changes, max_links)
    return _x_chains_python(cg, changes, max_links)


def _x_chains_compiled(cg: CandidateGrid, changes: Changes | None, max_links: int) -> Iterator[Step]:
    """The compiled search's chains, each made a step as the Python finder makes it."""
    units, peer_order, sees = _chain_tables(cg.shape)
    masks = cg.mask_array()
    nn = len(masks)
    chains = np.empty((nn, max_links + 2), np.int64)
    lengths = np.empty(nn, np.int64)
    for digit in range(1, cg.n + 1):
        if not digit_changed(changes, digit):
            continue
        found = x_chains(masks, digit - 1, units, peer_order, sees, max_links, chains, lengths)
        for row in range(found):
            chain = chains[row, : lengths[row]].tolist()
            gone = _eliminate_seen_by(cg, digit, chain[0], chain[-1], set(chain))
            yield _x_chain_step(cg, digit, chain, gone)


@cache
def _chain_tables(shape: Shape) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The compiled search's tables of a classic shape: its units, each cell's peers in the order the Python
    finder visits them (the iteration order of the layout's peer sets; -1 pads), and who sees whom."""
    layout = layout_of(shape)
    nn = shape.n_cells
    units = np.array(layout.units, dtype=np.int32)
    width = max(len(peers) for peers in layout.peers)
    peer_order = np.full((nn, width), -1, dtype=np.int32)
    sees = np.zeros((nn, nn), dtype=np.bool_)
    for cell, peers in enumerate(layout.peers):
        order = list(peers)
        peer_order[cell, : len(order)] = order
        sees[cell, order] = True
    return units, peer_order, sees


def _x_chain_step(cg: CandidateGrid, digit: int, chain: list[int], gone: list[tuple[int, int]]) -> Step:
    """The step of an X-Chain that removes ``gone``."""
    n = cg.n
    shown = "".join(
        cell_name(c, n) if i == 0 else ("=" if i % 2 else "-") + cell_name(c, n) for i, c in enumerate(chain)
    )
    text = (
        f"{digit}: {shown} ('=' a strong link, '-' a weak one), so {cell_name(chain[0], n)} or "
        f"{cell_name(chain[-1], n)} is {digit}: remove {removals(gone, n)} (X-chain)"
    )
    return make_step(X_CHAIN, cg, text, eliminations=gone, cells=chain)


def _x_chains_python(cg: CandidateGrid, changes: Changes | None = None,
                     max_links: int = MAX_CHAIN_LINKS) -> Iterator[Step]:
    """``find_x_chains`` in Python, on any geometry (the compiled search's reference)."""
    n = cg.n
    for digit in range(1, n + 1):
        if not digit_changed(changes, digit):
            continue
        strong: dict[int, list[int]] = {}
        for a, b, _unit in strong_links(cg, digit, range(len(cg.layout.units))):
            strong.setdefault(a, []).append(b)
            strong.setdefault(b, []).append(a)
        weak: dict[int, list[int]] = {}  # the digit's weak links, shared by the starts
        for start in sorted(strong):
            for chain in _alternating_paths(cg, digit, start, strong, max_links, weak):
                pattern = set(chain)
                gone = _eliminate_seen_by(cg, digit, chain[0], chain[-1], pattern)
                if gone:
                    yield _x_chain_step(cg, digit, chain, gone)
                    break


def _alternating_paths(cg: CandidateGrid, digit: int, start: int, strong: dict[int, list[int]],
                       max_links: int = MAX_CHAIN_LINKS, weak: dict[int, list[int]] | None = None,
                       ) -> Iterator[list[int]]:
    """Breadth first over "start is not the digit" implications: a strong link makes the next cell true, a
    weak link (any peer with the digit) makes it false. Yields the chain to each cell reached as true, with
    3 to ``max_links`` links, shortest first. ``weak``: the digit's weak links by cell, filled as they are
    needed (the searches of one digit may share it)."""
    bit = 1 << (digit - 1)
    masks, peers = cg.masks, cg.layout.peers
    if weak is None:
        weak = {}
    parent: dict[tuple[int, bool], tuple[int, bool] | None] = {(start, False): None}
    queue = deque([((start, False), 0)])
    while queue:
        (cell, is_true), links = queue.popleft()
        if links >= max_links:
            continue
        following: Sequence[int] | None
        if not is_true:
            following = strong.get(cell, ())
        else:
            following = weak.get(cell)
            if following is None:
                following = weak[cell] = [p for p in peers[cell] if masks[p] & bit]
        for other in following:
            state = (other, not is_true)
            if state in parent or other == start:
                continue
            parent[state] = (cell, is_true)
            queue.append((state, links + 1))
            if state[1] and links + 1 >= 3:
                yield _path(parent, state)


def _path(parent: dict[tuple[int, bool], tuple[int, bool] | None], state: tuple[int, bool] | None) -> list[int]:
    """The cells from the start to ``state`` along the breadth-first parents."""
    cells = []
    while state is not None:
        cells.append(state[0])
        state = parent[state]
    return cells[::-1]
