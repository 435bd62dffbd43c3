"""Forcing chains: the last resort, so that a puzzle with one solution is always explained without a guess.

A forcing chain *assumes* one fact ("r4c7 is 5", or "r4c7 is not 5") and follows what it forces, cell by cell;
the families below differ in what they conclude from that and in which implications they may follow. They are
modelled on Sudoku Explainer's (SE) chaining, whose ratings are the common scale (``difficulty`` = SE base +
``length_bonus(complexity - 2)``, complexity = the number of distinct assumptions and facts in the chains' net,
counted as SE counts them):

- **Nishio** (``find_nishio``, SE 7.5): one digit alone; its places are followed (a digit placed leaves its
  units, a unit left with one place gets it) until a unit has two of it or none: the assumption is false.
- **Cell / unit forcing chains** (``find_cell_forcing_chains``, ``find_unit_forcing_chains``, SE 8.0):
  static chains (bivalue cells and bilocal units of the grid as it is) from every candidate of a cell, or from
  every place of a digit in a unit; a fact that all of them force is true.
- **Dynamic forcing chains** (``find_dynamic_forcing_chains``, SE 8.5): the grid changes as the assumption
  removes candidates, so a cell or unit narrowed by earlier links forces its last candidate. Conclusions: an
  assumption that leads to a contradiction is false (contradiction), a fact forced both by a candidate and by its
  absence is true (double forcing), plus cell and unit forcing as above.
- **Dynamic forcing chains (+)** (``find_dynamic_plus_forcing_chains``, SE 9.0): also locked candidates, hidden
  and naked pairs and X-Wings of the changed grid as links.
- **Nested forcing chains** (``find_nested_forcing_chains``, SE 9.5, 10.5, 11.0): inside a chain, a candidate
  whose own assumption leads to a contradiction (by static, dynamic, then dynamic (+) chains) is removed.

Each finder makes every assumption once in a compiled kernel (``logic.kernels.forcing``), collects every conclusion
with its complexity, and yields them easiest first (SE's order: difficulty, then complexity, then double/cell/
unit before contradiction), each deduction once, building the sentence only for the steps asked for. A
conclusion that a cell holds a digit is a placement; that it does not, an elimination.

Effort is bounded: a run derives each candidate state once (at most 2L nodes for L open candidates); a search
makes at most ``MAX_RUNS`` runs (2L in practice) whose parent links share at most ``MAX_POOL`` entries; nesting is
one level deep, and a nested run tests each open candidate by one inner run per fixpoint. Since that is L times
the work, a nested search (only contradictions are looked for) compares all assumptions at the first level
(static inner chains) but stops at the first one that contradicts itself at the higher levels ("on" assumptions
first, ``NESTED_EXTRA_RUNS`` more runs), so their ratings can be above SE's for the same position.

Cost per search on stalled top1465 positions (9x9, L ~ 200, one core): Nishio ~1 ms, cell/unit ~1 ms, dynamic
~3 ms, dynamic (+) ~9 ms; a nested search 0.1-2 s.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

import numpy as np

from bitdoku.errors import cell_name
from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.changes import Changes, digits_in
from bitdoku.logic.difficulty import length_bonus
from bitdoku.logic.kernels import forcing as fast
from bitdoku.logic.step import Step, digit_list, make_step
from bitdoku.shape import Shape

NISHIO = "Nishio Forcing Chain"
CELL_FORCING = "Cell Forcing Chain"
UNIT_FORCING = "Unit Forcing Chain"
DYNAMIC = "Dynamic Forcing Chain"
DYNAMIC_PLUS = "Dynamic Forcing Chain (+)"
NESTED = "Nested Forcing Chain"

#: Runs (assumptions propagated) per search at most; a 9x9 grid has at most 2 * 729.
MAX_RUNS = 20_000
#: Hints collected per search at most (the rest are dropped, never wrong).
MAX_HINTS = 1 << 16
#: Parent links kept for all the runs of a search at most (a run that does not fit is dropped): 256 MB.
MAX_POOL = 1 << 26

#: Static runs (cell and unit forcing chains) walk fixed links (``fast._drain_static``); False runs them through
#: ``fast._drain``, which changes the working grid as dynamic runs do: the reference.
STATIC_LINKS = True

#: SE's order among hints of equal difficulty and complexity.
_SORT_KEY = {fast.DOUBLE: 1, fast.CELL: 2, fast.UNIT: 3, fast.CONTRA_ON: 7, fast.CONTRA_OFF: 7}
#: ``_SORT_KEY`` as a table indexed by the hint kind (a dynamic search has ~150 hints to rank).
_SORT_TABLE = np.array([_SORT_KEY[kind] for kind in range(max(_SORT_KEY) + 1)])


class Mode(NamedTuple):
    """One chaining family: its name, SE base difficulty, the kernel's switches and the conclusions drawn."""

    technique: str
    base: float
    xonly: int = 0
    dynamic: int = 0
    level: int = 0
    inner_dynamic: int = 0
    inner_level: int = 0
    want_off: int = 0
    contradiction: int = 0
    double: int = 0
    cell: int = 0
    unit: int = 0
    min_cell: int = 2
    label: str = ""
    after_first: int = -1


MODE_NISHIO = Mode(NISHIO, 7.5, xonly=1, dynamic=1, want_off=1, contradiction=1, label="Nishio forcing chain")
MODE_CELL = Mode(CELL_FORCING, 8.0, cell=1, label="cell forcing chain")
MODE_UNIT = Mode(UNIT_FORCING, 8.0, unit=1, label="unit forcing chain")
MODE_MULTIPLE = Mode(CELL_FORCING, 8.0, cell=1, unit=1, label="forcing chain")
MODE_DYNAMIC = Mode(
    DYNAMIC, 8.5, dynamic=1, want_off=1, contradiction=1, double=1, cell=1, unit=1, label="dynamic forcing chain"
)
MODE_DYNAMIC_PLUS = MODE_DYNAMIC._replace(technique=DYNAMIC_PLUS, base=9.0, level=1, label="dynamic forcing chain (+)")
#: Runs a nested search at the levels above 9.5 makes after the first assumption that leads to a contradiction
#: (the easiest of those found wins); the 9.5 level, whose inner chains are static and cheap, compares them all.
NESTED_EXTRA_RUNS = 0
#: The nested levels tried in turn (SE's 9.5 = static chains nested, 10.5 = dynamic, 11.0 = dynamic (+)).
_NESTED = MODE_DYNAMIC._replace(double=0, cell=0, unit=0, after_first=NESTED_EXTRA_RUNS)
NESTED_LEVELS = (
    _NESTED._replace(
        technique=NESTED, base=9.5, level=2, after_first=-1, label="nested forcing chain (+ forcing chains)"
    ),
    _NESTED._replace(
        technique=NESTED, base=10.5, level=2, inner_dynamic=1, label="nested forcing chain (+ dynamic chains)"
    ),
    _NESTED._replace(
        technique=NESTED,
        base=11.0,
        level=2,
        inner_dynamic=1,
        inner_level=1,
        label="nested forcing chain (+ dynamic chains (+))",
    ),
)


@dataclass(frozen=True)
class _Arrays:
    """A candidate grid as the kernel reads it: masks, unit tables and the live candidates (id l = index)."""

    n: int
    units: np.ndarray
    cell_units: np.ndarray
    orig: np.ndarray
    cnt0: np.ndarray
    cid: np.ndarray
    ccell: np.ndarray
    cdig: np.ndarray
    links: np.ndarray

    @property
    def size(self) -> int:
        return len(self.ccell)


@lru_cache(maxsize=4)
def _arrays(cg: CandidateGrid) -> _Arrays:
    """The kernel's arrays of a position (cached: the ladder asks several finders about the same position), built
    in one compiled call (``fast.grid_arrays``)."""
    units, cell_units = _unit_arrays(cg.shape)
    orig = np.array(cg.masks, dtype=np.uint64)
    cid, cnt0, ccell, cdig, links = fast.grid_arrays(cg.n, units, cell_units, orig)
    return _Arrays(cg.n, units, cell_units, orig, cnt0, cid, ccell, cdig, links)


@cache
def _unit_arrays(shape: Shape) -> tuple[np.ndarray, np.ndarray]:
    """A shape's units and each cell's units as the kernel reads them (int32, contiguous)."""
    tables = shape.tables
    return (np.ascontiguousarray(tables.units, dtype=np.int32), np.ascontiguousarray(tables.cell_units,
                                                                                     dtype=np.int32))


def _arrays_numpy(cg: CandidateGrid) -> _Arrays:
    """``_arrays`` in numpy, the reference of ``fast.grid_arrays`` (tested against it)."""
    tables = cg.shape.tables
    n = cg.n
    orig = np.array(cg.masks, dtype=np.uint64)
    bits = ((orig[:, None] >> np.arange(n, dtype=np.uint64)) & np.uint64(1)).astype(np.int32)
    flat = bits.ravel()
    live = np.flatnonzero(flat)
    cid = np.full(flat.shape[0], -1, dtype=np.int32)
    cid[live] = np.arange(len(live), dtype=np.int32)
    units = np.ascontiguousarray(tables.units, dtype=np.int32)
    cnt0 = np.ascontiguousarray(bits[units].sum(axis=1), dtype=np.int32)
    cell_units = np.ascontiguousarray(tables.cell_units, dtype=np.int32)
    ccell, cdig = (live // n).astype(np.int32), (live % n).astype(np.int32)
    links = fast.peer_links(n, units, cell_units, orig, cid, ccell, cdig, len(live))
    return _Arrays(n, units, cell_units, orig, cnt0, cid, ccell, cdig, links)


@cache
def _bonus_table(size: int) -> np.ndarray:
    return np.array([length_bonus(c - 2) for c in range(size)])


class _Hint(NamedTuple):
    kind: int
    a: int
    b: int
    target: int
    complexity: int
    difficulty: float


def _pool_limit(size: int) -> int:
    """The parent links a search of a grid with ``size`` live candidates keeps for all its runs, at most."""
    return min(8 * size * (2 * size + 1), MAX_POOL)


def _search(cg: CandidateGrid, mode: Mode, pool_limit: int | None = None) -> tuple[_Arrays, _Ranked | list[_Hint]]:
    """All conclusions of one family, easiest first (SE's order). ``pool_limit``: the runs' shared pool of
    parent links (default: ``_pool_limit`` of the grid's live candidates)."""
    arr = _arrays(cg)
    size = arr.size
    if size == 0:
        return arr, []
    if pool_limit is None:
        pool_limit = _pool_limit(size)
    hints, pool, dset, pst, pln, wt = _scratch(size, pool_limit)
    count = fast.search(
        arr.n, arr.units, arr.cell_units, arr.orig, arr.cnt0, arr.cid, arr.ccell, arr.cdig, arr.links, size,
        mode.xonly, mode.dynamic, mode.level, mode.inner_dynamic, mode.inner_level, mode.want_off,
        mode.contradiction, mode.double, mode.cell, mode.unit, mode.min_cell, hints, MAX_RUNS, mode.after_first,
        pool[:pool_limit], dset, pst, pln, wt, STATIC_LINKS,
    )  # fmt: skip
    if count == 0:
        return arr, []
    found = hints[:count].copy()  # the scratch is the next search's
    complexity = found[:, 4]
    table = _bonus_table(int(complexity.max()) + 1)
    difficulty = np.round(mode.base + table[complexity], 1)
    sort_key = _SORT_TABLE[found[:, 0]]
    ranked = np.lexsort((np.arange(count), sort_key, complexity, difficulty))
    return arr, _Ranked(found, difficulty, ranked)


#: Per thread: the search kernel's scratch of the largest search so far (hints, pool, derived sets, parents).
_SCRATCH = threading.local()
#: Scratch kept between searches at most (bytes, per thread: the web server rates in threads): enough for 9x9
#: positions with up to ~330 candidates (top1465's forcing rungs see 160-250, ~5-7 MB); a bigger search (a
#: nearly empty 9x9 grid, bigger grids) allocates its own, as before.
SCRATCH_KEPT = 16 << 20


def _scratch(size: int, pool_limit: int) -> tuple[np.ndarray, ...]:
    """The search kernel's scratch for a grid of ``size`` live candidates: every run's derivations (about a
    megabyte on a 9x9 grid), kept per thread and reused while it is big enough. Fresh memory cost a page fault
    every 4 kB touched at every search: about a fifth of a dynamic forcing-chain search on top1465. The kernel
    does not read what a search before it left there."""
    runs, nodes = 2 * size, 2 * size + 1
    found: tuple[np.ndarray, ...] | None = getattr(_SCRATCH, "arrays", None)
    if found is not None and found[3].shape[0] >= runs and found[3].shape[1] >= nodes and len(found[1]) >= pool_limit:
        return found
    old_runs, old_nodes, old_pool = (0, 0, 0) if found is None else (*found[3].shape, len(found[1]))
    runs, nodes, pool = max(runs, old_runs), max(nodes, old_nodes), max(pool_limit, old_pool)
    found = (
        np.empty((MAX_HINTS, 5), np.int32), np.empty(pool, np.int32), np.empty((runs, (nodes + 63) // 64), np.uint64),
        np.empty((runs, nodes), np.int32), np.empty((runs, nodes), np.int32), np.empty((runs, nodes), np.int32),
    )  # fmt: skip
    if sum(array.nbytes for array in found) <= SCRATCH_KEPT:
        _SCRATCH.arrays = found
    return found


class _Ranked(NamedTuple):
    """The hints of a search and their order; ``_Hint`` tuples are made only for those asked for."""

    found: np.ndarray
    difficulty: np.ndarray
    order: np.ndarray

    # Iterates the hints, not the fields (nothing unpacks a _Ranked): a deliberate override of tuple's __iter__.
    def __iter__(self) -> Iterator[_Hint]:  # type: ignore[override]
        for i in self.order:
            row = self.found[i]
            yield _Hint(int(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4]), float(self.difficulty[i]))

    def __len__(self) -> int:
        return len(self.order)


class _Trace(NamedTuple):
    """One run's derivations, for the sentence: parents, causes and complexities per node."""

    pstart: np.ndarray
    plen: np.ndarray
    pool: np.ndarray
    cause: np.ndarray
    meta: np.ndarray
    anc: np.ndarray


def _trace(arr: _Arrays, mode: Mode, src: int) -> _Trace:
    size = arr.size
    nodes = 2 * size + 1
    pool_size = nodes * (2 * arr.n + 2) + (4 * size * size if mode.level >= 2 else 0)
    out = _Trace(
        np.zeros(nodes, np.int32), np.zeros(nodes, np.int32), np.empty(pool_size, np.int32),
        np.zeros(nodes, np.int32), np.zeros(fast.META_SIZE, np.int64), np.zeros(nodes, np.int32),
    )  # fmt: skip
    fast.trace(
        src, arr.n, arr.units, arr.cell_units, arr.orig, arr.cnt0, arr.cid, arr.ccell, arr.cdig, arr.links, size,
        mode.xonly, mode.dynamic, mode.level, mode.inner_dynamic, mode.inner_level,
        out.pstart, out.plen, out.pool, out.cause, np.zeros(nodes, np.int32), np.empty(nodes, np.int32),
        out.meta, np.zeros(nodes, np.int8), out.anc,
    )  # fmt: skip
    return out


def _node_text(arr: _Arrays, node: int) -> str:
    lo = node >> 1
    sign = "=" if node & 1 else "≠"
    return f"{cell_name(int(arr.ccell[lo]), arr.n)}{sign}{int(arr.cdig[lo]) + 1}"


def _path(trace: _Trace, node: int) -> list[int]:
    """The main line from the assumption to ``node``: each node's first parent, back to the start."""
    line = [node]
    while trace.plen[node] > 0 and len(line) <= 2 * len(trace.plen):
        node = int(trace.pool[trace.pstart[node]])
        line.append(node)
    return line[::-1]


def _chain_text(arr: _Arrays, trace: _Trace, node: int, shown: int | None = None) -> str:
    """``r4c7=5 → r4c2≠5 → … → r2c3≠7`` (the first links and the end of the main line)."""
    line = _path(trace, node)
    names = [_node_text(arr, x) for x in line[:-1]]
    names.append(_node_text(arr, node if shown is None else shown))
    if len(names) > 4:
        names = [*names[:3], "…", names[-1]]
    return " → ".join(names)


def _nested_used(trace: _Trace, node: int) -> bool:
    """Whether a nested contradiction lies among the ancestors of ``node``."""
    seen, todo = {node}, [node]
    while todo:
        x = todo.pop()
        if trace.cause[x] == fast.CAUSE_NESTED:
            return True
        for p in trace.pool[trace.pstart[x] : trace.pstart[x] + trace.plen[x]]:
            if int(p) not in seen:
                seen.add(int(p))
                todo.append(int(p))
    return False


def _result(arr: _Arrays, node: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Placements and eliminations that a forced node makes."""
    pair = (int(arr.ccell[node >> 1]), int(arr.cdig[node >> 1]) + 1)
    return ([pair], []) if node & 1 else ([], [pair])


def _step(cg: CandidateGrid, arr: _Arrays, mode: Mode, hint: _Hint) -> Step:
    """Trace the runs of one hint and say it in one sentence."""
    n, size = arr.n, arr.size
    virtual = 2 * size
    units: list[int] = []
    if hint.kind in (fast.CONTRA_ON, fast.CONTRA_OFF):
        src = 2 * hint.a + (1 if hint.kind == fast.CONTRA_ON else 0)
        trace = _trace(arr, mode, src)
        existing, other = hint.target, int(trace.meta[fast.M_VIRTUAL])
        lo = existing >> 1
        where, digit = cell_name(int(arr.ccell[lo]), n), int(arr.cdig[lo]) + 1
        lines = [_chain_text(arr, trace, existing), _chain_text(arr, trace, virtual, shown=other)]
        placements, eliminations = _result(arr, src ^ 1)
        outcome = _node_text(arr, src ^ 1)
        text = (
            f"{outcome}: assuming {_node_text(arr, src)}, {where} would be both {digit} and not {digit} "
            f"({'; '.join(lines)})"
        )
        sources, traces, targets = [src], [trace, trace], [existing, virtual]
    else:
        if hint.kind == fast.DOUBLE:
            sources = [2 * hint.a + 1, 2 * hint.a]
            intro = f"whether {_node_text(arr, sources[0])} or not"
        elif hint.kind == fast.CELL:
            cell = hint.a
            digits = cg.candidates(cell)
            sources = [2 * int(arr.cid[cell * n + d - 1]) + 1 for d in digits]
            intro = f"whichever of {digit_list(digits)} {cell_name(cell, n)} holds"
        else:
            unit, digit = hint.a, hint.b + 1
            places = cg.cells_with(unit, digit)
            sources = [2 * int(arr.cid[c * n + digit - 1]) + 1 for c in places]
            intro = f"wherever {digit} goes in {cg.layout.unit_name(unit)}"
            units = [unit]
        traces = [_trace(arr, mode, s) for s in sources]
        targets = [hint.target] * len(traces)
        lines = [_chain_text(arr, t, hint.target) for t in traces]
        placements, eliminations = _result(arr, hint.target)
        outcome = _node_text(arr, hint.target)
        text = f"{outcome}: {intro}, {outcome} follows ({'; '.join(lines)})"
    cells = {int(arr.ccell[s >> 1]) for s in sources}
    for trace, target in zip(traces, targets, strict=True):
        cells.update(int(arr.ccell[x >> 1]) for x in _path(trace, target) if x != virtual)
    text += f", {hint.complexity} nodes ({mode.label})"
    return make_step(
        mode.technique, cg, text, placements=placements, eliminations=eliminations, cells=cells, units=units,
        difficulty=hint.difficulty,
    )  # fmt: skip


def _find(cg: CandidateGrid, mode: Mode, part: CandidateGrid | None = None,
          pool_limit: int | None = None) -> Iterator[Step]:
    """Yield one family's steps, easiest first, each deduction once; the search runs on ``part`` (some of the
    grid's candidates) when given."""
    arr, hints = _search(cg if part is None else part, mode, pool_limit)
    done: set[tuple[int, int, int]] = set()
    for hint in hints:
        if hint.kind == fast.CONTRA_ON:
            key = (0, hint.a, 0)
        elif hint.kind == fast.CONTRA_OFF:
            key = (1, hint.a, 0)
        else:
            key = (1 if hint.target & 1 else 0, hint.target >> 1, 0)
        if key in done:
            continue
        done.add(key)
        yield _step(cg, arr, mode, hint)


def find_nishio(cg: CandidateGrid, changes: Changes | None = None) -> Iterator[Step]:
    """Nishio forcing chains (SE 7.5): one digit's places followed from an assumption to a contradiction.

    With ``changes`` (since a state where it found nothing, ``bitdoku.logic.changes``), only the digits that
    changed are searched: a Nishio run follows one digit, so the others' runs are those of that state, which found
    nothing. That holds while no run is dropped for want of pool (runs share it in order): the search is cut to
    those digits only when the pool could hold every run of the whole grid, else the whole grid is searched."""
    if changes is None:
        return _find(cg, MODE_NISHIO)
    keep = digits_in(changes, -1)
    if not keep:
        return iter(())
    limit = _pool_limit(_arrays(cg).size)
    if _nishio_pool_bound(cg) > limit:
        return _find(cg, MODE_NISHIO)
    part = CandidateGrid(cg.values, tuple(mask & keep for mask in cg.masks), cg.shape)
    return _find(cg, MODE_NISHIO, part, limit)


def _nishio_pool_bound(cg: CandidateGrid) -> int:
    """An upper bound of the parent links all the Nishio runs of a grid keep: a digit with p places makes 2p runs
    of at most 2p + 1 nodes (the contradiction's second half included), each with at most n parents (one, or the
    last place's unit with the places it lost)."""
    places = [0] * cg.n
    for mask in cg.masks:
        while mask:
            low = mask & -mask
            places[low.bit_length() - 1] += 1
            mask ^= low
    return sum(2 * p * (2 * p + 1) * cg.n for p in places)


def find_cell_forcing_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Cell forcing chains (SE 8.0): static chains from every candidate of a cell agree on a fact."""
    return _find(cg, MODE_CELL)


def find_unit_forcing_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Unit (region) forcing chains (SE 8.0): static chains from every place of a digit in a unit agree."""
    return _find(cg, MODE_UNIT)


def find_multiple_forcing_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Cell and unit forcing chains together, easiest first (SE's "multiple forcing chains" rung)."""
    return _find(cg, MODE_MULTIPLE)


def find_dynamic_forcing_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Dynamic forcing chains (SE 8.5): contradiction, double, cell and unit forcing on a changing grid."""
    return _find(cg, MODE_DYNAMIC)


def find_dynamic_plus_forcing_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Dynamic forcing chains (+) (SE 9.0): also locked candidates, pairs and X-Wings as links."""
    return _find(cg, MODE_DYNAMIC_PLUS)


def find_nested_forcing_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Nested forcing chains (SE 9.5 / 10.5 / 11.0): the first level of ``NESTED_LEVELS`` that finds a step."""
    for mode in NESTED_LEVELS:
        found = False
        for step in _find(cg, mode):
            found = True
            yield step
        if found:
            return


#: The finders in the order they are tried after the rest of the ladder.
FINDERS = (
    (NISHIO, find_nishio),
    (CELL_FORCING, find_multiple_forcing_chains),
    (DYNAMIC, find_dynamic_forcing_chains),
    (DYNAMIC_PLUS, find_dynamic_plus_forcing_chains),
    (NESTED, find_nested_forcing_chains),
)
