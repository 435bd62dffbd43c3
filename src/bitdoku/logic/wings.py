"""Wings: a pivot cell and two pincers that leave one digit in at least one pincer.

- **XY-Wing**: a pivot {x, y} sees pincers {x, z} and {y, z}. Whatever the pivot holds, one pincer is z, so z
  leaves every cell that sees both pincers (https://www.sudokuwiki.org/Y_Wing_Strategy).
- **XYZ-Wing**: a pivot {x, y, z} sees pincers {x, z} and {y, z}; z leaves the cells that see all three
  (https://www.sudokuwiki.org/XYZ_Wing).
- **W-Wing**: two cells {x, y} that don't see each other, joined by a strong link on x (a unit where x has
  exactly two places, one seeing each cell). One of the two cells is y, so y leaves the cells that see both
  (https://hodoku.sourceforge.net/en/tech_wings.php).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import numpy as np

from bitdoku.errors import cell_name
from bitdoku.logic.als import bits_of
from bitdoku.logic.candidates import CandidateGrid, digits_of, layout_of, suits_compiled_finders
from bitdoku.logic.changes import Changes
from bitdoku.logic.kernels.wings import wings as _search_wings
from bitdoku.logic.step import Step, digit_list, make_step, removals
from bitdoku.shape import Shape

XY_WING = "XY-Wing"
XYZ_WING = "XYZ-Wing"
W_WING = "W-Wing"


def find_xy_wings(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
    """XY-Wings, pivots in row-major order. With ``changes`` (``bitdoku.logic.changes``), only the wings with a
    cell (pivot or pincer) that changed: the three cells are the pattern, the eliminations lie outside it."""
    if COMPILED and suits_compiled_finders(cg):
        return _compiled_wings(cg, changes, xyz=False)
    return _xy_wings_python(cg, changes)


def _xy_wings_python(cg: CandidateGrid, changes: Changes | None) -> Iterator[Step]:
    """``find_xy_wings`` in Python, on any geometry (the compiled search's reference)."""
    masks, layout = cg.masks, cg.layout
    peer_bits, sorted_peers = layout.peer_bits, layout.sorted_peers
    touched = -1 if changes is None else changes.cells
    for pivot, pm in enumerate(masks):
        if pm.bit_count() != 2:
            continue
        pivot_changed = touched >> pivot & 1
        if not pivot_changed and not peer_bits[pivot] & touched:
            continue
        wings = [c for c in sorted_peers[pivot] if masks[c].bit_count() == 2 and (masks[c] & pm).bit_count() == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                if masks[a] ^ masks[b] != pm:
                    continue
                if not (pivot_changed or touched >> a & 1 or touched >> b & 1):
                    continue
                z = masks[a] & masks[b]
                yield from _wing_step(cg, XY_WING, pivot, a, b, z, peer_bits[a] & peer_bits[b])


def find_xyz_wings(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
    """XYZ-Wings, pivots in row-major order; with ``changes``, only the wings with a cell that changed."""
    if COMPILED and suits_compiled_finders(cg):
        return _compiled_wings(cg, changes, xyz=True)
    return _xyz_wings_python(cg, changes)


def _xyz_wings_python(cg: CandidateGrid, changes: Changes | None) -> Iterator[Step]:
    """``find_xyz_wings`` in Python, on any geometry (the compiled search's reference)."""
    masks, layout = cg.masks, cg.layout
    peer_bits, sorted_peers = layout.peer_bits, layout.sorted_peers
    touched = -1 if changes is None else changes.cells
    for pivot, pm in enumerate(masks):
        if pm.bit_count() != 3:
            continue
        pivot_changed = touched >> pivot & 1
        if not pivot_changed and not peer_bits[pivot] & touched:
            continue
        wings = [c for c in sorted_peers[pivot] if masks[c].bit_count() == 2 and masks[c] & ~pm == 0]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                z = masks[a] & masks[b]
                if masks[a] == masks[b] or z.bit_count() != 1:
                    continue
                if not (pivot_changed or touched >> a & 1 or touched >> b & 1):
                    continue
                yield from _wing_step(cg, XYZ_WING, pivot, a, b, z, peer_bits[pivot] & peer_bits[a] & peer_bits[b])


#: Whether classic grids (up to 32 digits: the "sees" table is N^4 bytes) use the compiled search
#: (``logic.kernels.wings``); the Python one is its reference.
COMPILED = True


def _compiled_wings(cg: CandidateGrid, changes: Changes | None, xyz: bool) -> Iterator[Step]:
    """The compiled search's wings, made steps as the Python finders make them."""
    peers, sees = _wing_tables(cg.shape)
    nn = len(cg.masks)
    if changes is None:
        touched = np.ones(nn, dtype=np.bool_)
    else:
        raw = np.frombuffer(changes.cells.to_bytes((nn + 7) // 8, "little"), dtype=np.uint8)
        touched = np.unpackbits(raw, bitorder="little")[:nn].astype(np.bool_)
    found = np.empty((256, 3), dtype=np.int64)
    rows = _search_wings(cg.mask_array(), peers, sees, xyz, touched, found)
    if rows < 0:  # more wings than rows: the Python search
        yield from (_xyz_wings_python if xyz else _xy_wings_python)(cg, changes)
        return
    masks, peer_bits = cg.masks, cg.layout.peer_bits
    for pivot, a, b in found[:rows].tolist():
        z = masks[a] & masks[b]
        seers = peer_bits[a] & peer_bits[b]
        if xyz:
            seers &= peer_bits[pivot]
        yield from _wing_step(cg, XYZ_WING if xyz else XY_WING, pivot, a, b, z, seers)


@cache
def _wing_tables(shape: Shape) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's peers in increasing order (-1 pads) and who sees whom, for the compiled search."""
    layout = layout_of(shape)
    nn = shape.n_cells
    width = max(len(p) for p in layout.sorted_peers)
    peers = np.full((nn, width), -1, dtype=np.int32)
    sees = np.zeros((nn, nn), dtype=np.bool_)
    for cell, order in enumerate(layout.sorted_peers):
        peers[cell, : len(order)] = order
        sees[cell, list(order)] = True
    return peers, sees


def _wing_step(cg: CandidateGrid, technique: str, pivot: int, a: int, b: int, z: int, seers: int) -> Iterator[Step]:
    """The step removing digit z (a bit) from the cells that see the pincers (``seers``, a bitset), if any has
    it."""
    digit = z.bit_length()
    masks, n = cg.masks, cg.n
    gone = [(c, digit) for c in bits_of(seers & cg.digit_cells()[digit - 1])]
    if gone:
        text = (
            f"pivot {cell_name(pivot, n)} {digit_list(digits_of(masks[pivot]))} with pincers "
            f"{cell_name(a, n)} {digit_list(digits_of(masks[a]))} and {cell_name(b, n)} "
            f"{digit_list(digits_of(masks[b]))}: one of them is {digit}, so remove {removals(gone, n)} ({technique})"
        )
        yield make_step(technique, cg, text, eliminations=gone, cells=[pivot, a, b])


def find_w_wings(cg: CandidateGrid) -> Iterator[Step]:
    """W-Wings: equal bivalue cells joined by a strong link on one of their digits."""
    masks, layout, n = cg.masks, cg.layout, cg.n
    pairs = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    for i, a in enumerate(pairs):
        for b in pairs[i + 1 :]:
            if masks[a] != masks[b] or layout.sees(a, b):
                continue
            for link_digit in digits_of(masks[a]):
                other = (masks[a] & ~(1 << (link_digit - 1))).bit_length()
                seers = layout.common_peers((a, b))
                gone = [(c, other) for c in sorted(seers) if masks[c] >> (other - 1) & 1]
                if not gone:
                    continue
                for unit in range(len(layout.units)):
                    ends = cg.cells_with(unit, link_digit)
                    if len(ends) != 2 or a in ends or b in ends:
                        continue
                    p, q = ends
                    if not (layout.sees(p, a) and layout.sees(q, b)):
                        p, q = q, p
                        if not (layout.sees(p, a) and layout.sees(q, b)):
                            continue
                    text = (
                        f"{cell_name(a, n)} and {cell_name(b, n)} are both {digit_list(digits_of(masks[a]))}, and "
                        f"{link_digit} in {cg.layout.unit_name(unit)} is in {cell_name(p, n)} or {cell_name(q, n)}, "
                        f"which see them: one of them is {other}, so remove {removals(gone, n)} (W-Wing)"
                    )
                    yield make_step(W_WING, cg, text, eliminations=gone, cells=[a, b, p, q], units=[unit])
                    break
