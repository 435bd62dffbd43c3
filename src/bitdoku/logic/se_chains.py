"""Sudoku Explainer's static chains: bidirectional cycles and forcing chains, found and rated as SE does.

SE (Nicolas Juillerat's Sudoku Explainer, the rater of the puzzle forums) reads chains as implications between
*potentials*: a candidate (cell, digit) assumed "on" (true) or "off" (false). Without its dynamic mode it uses
two rules:

- on -> off: the digit leaves every other cell of the candidate's block, row and column (and, when Y-links are
  allowed, the cell's other digits go off);
- off -> on: only a strong link: with Y-links, a bivalue cell's other digit; with X-links, the other place of
  the digit in a block, row or column where it has exactly two.

It searches three modes: X (X-links only: one digit), Y (Y-links for off -> on, cells for on -> off) and XY
(both). From each candidate it runs a breadth-first search, in layers:

- a **bidirectional cycle** is a path from "on" back to the same "on" (at least 4 links). Then the path and its
  reverse (every potential flipped) both hold or fail together and one of them is true; a candidate of digit v,
  outside the cycle's cells, that sees an "on" v of the cycle and an "off" v is removed. Names and bases: X-cycle
  6.5 ("Generalized X-Wing" for 4 cells), Y-cycle 6.5 (bivalue start cells only), XY "Bidirectional Cycle" 7.0;
- a **forcing chain** (X and XY modes) is a path from a candidate's "on" to its own "off" (remove it) or from its
  "off" to its own "on" (place it): "Forcing X-Chain" 6.6 ("Turbot Fish" at 6 potentials), XY "Forcing Chain"
  7.0.

**Complexity** is the number of distinct potentials of the chain (SE's ``getAncestorCount``): for a forcing
chain every node of the path including the start and the target (the same candidate, on and off, counts twice);
for a cycle every node once (the start closes it and is not counted again), so an X-Wing cycle has 4. The step's
difficulty is ``base + length_bonus(complexity - 2)``. SE collects every hint of the three modes, sorts them by
difficulty, then complexity, then mode (X, Y, XY), then the order found (cells row by row, digits increasing,
cycles before forcing chains) and applies the first. ``find_se_chains`` yields in that order, lazily (the XY
search only runs once no X or Y hint under 7.0 is left); ``find_se_cycles`` and ``find_se_forcing_chains`` yield
the two kinds apart, in the same order.

Speed: up to 9x9 two compiled kernels (``logic.kernels.se_chains``) do the work: a bitset scan gives every forcing
chain's complexity (SE's "on" frontiers are those of a plain breadth-first search, so its layers are exact), and
SE's own cycle search, replayed potential by potential in SE's order, gives the rounds where a cycle removes
something.
Python then rebuilds only the steps it yields (a forcing chain's path comes from a compiled search of its source
alone, so no link graph is built for it; SE's cycles of the winning round are replayed on the link graph). Both
scans run as one call, ``se_live_search``, on the live candidates only (``LIVE_SEARCH``). On
bigger grids the same bitset searches run in Python, all sources in lockstep by complexity, so a mode is searched
only as deep as the easiest hint needs. Stalled top1465 states: about 0.23 ms a call (warm).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from bitdoku.errors import cell_name
from bitdoku.logic.budget import check_time
from bitdoku.logic.candidates import CandidateGrid, layout_of
from bitdoku.logic.difficulty import length_bonus
from bitdoku.logic.kernels import se_chains as se_kernel
from bitdoku.logic.links import LinkGraph, cell_tables, iter_bits, link_graph, spread
from bitdoku.logic.step import Step, make_step, removals
from bitdoku.shape import Shape

X_CYCLE = "Bidirectional X-Cycle"
Y_CYCLE = "Bidirectional Y-Cycle"
XY_CYCLE = "Bidirectional Cycle"
FORCING_X_CHAIN = "Forcing X-Chain"
FORCING_CHAIN = "Forcing Chain"

#: SE's modes: (name, X-links, Y-links, sort key, cycle name, cycle base, forcing name or None, forcing base).
_MODES = (
    ("X", True, False, 2, X_CYCLE, 6.5, FORCING_X_CHAIN, 6.6),
    ("Y", False, True, 3, Y_CYCLE, 6.5, None, 0.0),
    ("XY", True, True, 4, XY_CYCLE, 7.0, FORCING_CHAIN, 7.0),
)

_CYCLE, _FORCING = 0, 1

#: Up to 9x9, one compiled call (``se_kernel.se_live_search``) finds the forcing chains and the cycle rounds; False
#: runs the two kernels it replaces (``se_scan``, ``se_cycle_rounds``), kept as its reference.
LIVE_SEARCH = True


def _se_float(base: float, complexity: int) -> float:
    """The difficulty exactly as SE's doubles hold it (0.1 added step by step), which decides its ties: e.g. a
    forcing X-chain at 6.6 + 0.1 sorts before an X-cycle at 6.5 + 0.2."""
    added, ceiling, length, odd = 0.0, 4, complexity - 2, False
    while length > ceiling:
        added += 0.1
        ceiling = ceiling * 3 // 2 if not odd else ceiling * 4 // 3
        odd = not odd
    return base + added


def se_difficulty(base: float, complexity: int) -> float:
    """SE's rating of a chain step: its base plus the length bonus of its complexity.

    >>> se_difficulty(6.6, 6), se_difficulty(7.0, 10)
    (6.6, 7.2)
    """
    return round(base + length_bonus(complexity - 2), 1)


@dataclass
class _Mode:
    """One SE mode on one state: its link tables and the order SE takes potentials in."""

    name: str
    x: bool
    y: bool
    sort_key: int
    cycle_name: str
    cycle_base: float
    forcing_name: str | None
    forcing_base: float
    weak: list[int]
    strong: list[int]
    linked: int = -1  # the nodes with a strong link (an "off" elsewhere is a dead end), set by the Python search


class _Modes:
    """The three SE modes of one link graph (X, Y, XY), each built when first asked for: a step needs one, and
    the Y and XY modes' weak links (a 729-entry list on 9x9) are built once for both."""

    def __init__(self, g: LinkGraph) -> None:
        self.g = g
        self._modes: list[_Mode | None] = [None] * len(_MODES)
        self._orders: list[_Orders | None] = [None] * len(_MODES)
        self._weak_xy: list[int] | None = None

    def __len__(self) -> int:
        return len(_MODES)

    def __getitem__(self, index: int) -> _Mode:
        mode = self._modes[index]
        if mode is None:
            g = self.g
            name, x, y, key, cname, cbase, fname, fbase = _MODES[index]
            if y and self._weak_xy is None:
                self._weak_xy = [a | b for a, b in zip(g.weak_x, g.weak_cell, strict=True)]
            # Never None: with y, _weak_xy is built just above (mypy does not narrow it through `y and ...`).
            weak: list[int] = self._weak_xy if y else g.weak_x  # type: ignore[assignment]
            if x and y:
                strong = [a | b for a, b in zip(g.strong_x, g.strong_y, strict=True)]
            else:
                strong = g.strong_x if x else g.strong_y
            mode = self._modes[index] = _Mode(name, x, y, key, cname, cbase, fname, fbase, weak, strong)
        return mode

    def orders(self, index: int) -> _Orders:
        """SE's order of consequences in mode ``index``."""
        found = self._orders[index]
        if found is None:
            found = self._orders[index] = _Orders(self.g, self[index])
        return found


def _sources(g: LinkGraph, mode: _Mode) -> list[int]:
    """The candidates SE starts from, cells row by row, digits increasing (Y mode: bivalue cells only)."""
    masks = g.cg.masks
    found = []
    for cell, mask in enumerate(masks):
        if mask.bit_count() < 2 or (not mode.x and mask.bit_count() > 2):
            continue
        for k in range(g.n):
            if mask >> k & 1:
                found.append(k * g.nn + cell)
    return found


class _Search:
    """SE's searches of one mode from every source at once, one round at a time: round t finds the forcing chains
    and the possible cycles of complexity 2t + 2 (SE's layers: "on" and "off" steps in turn), so hints come out
    in increasing complexity and a mode is searched only as deep as the easiest hint needs."""

    # Runs are lists of mixed items, updated in place (layout in __init__): list[Any] is the type that says so.
    on_runs: list[list[Any]]
    off_runs: list[list[Any]]

    def __init__(self, index: int, mode: _Mode, sources: list[int], cycles: bool, forcing: bool) -> None:
        self.index, self.mode = index, mode
        self.cycles = cycles
        self.forcing = forcing and mode.forcing_name is not None
        self.base = min([mode.cycle_base] * cycles + [mode.forcing_base] * self.forcing or [99.0])
        self.round = 0
        if mode.linked < 0:
            mode.linked = sum(1 << i for i, bits in enumerate(mode.strong) if bits)
        # on-runs: [source, seen_on, seen_off, front, layers, forcing found]; off-runs: [source, seen_on,
        # seen_off, front, layers]
        self.on_runs = [[s, 1 << s, 0, 1 << s, [1 << s], False] for s in sources] if cycles or self.forcing else []
        self.off_runs = [[s, 0, 1 << s, 1 << s, [1 << s]] for s in sources] if self.forcing else []

    def live(self) -> bool:
        return bool(self.on_runs or self.off_runs)

    def bound(self) -> tuple[float, int, int]:
        """No hint of a later round sorts before this key."""
        complexity = 2 * self.round + 2
        return _se_float(self.base, complexity), complexity, self.index

    def advance(self, found: Callable[[int, int, int, list[int]], None]) -> None:
        """One round; ``found(kind, source, sub, layers)`` receives each forcing chain (sub 0: from "on", 1: from
        "off") and each possible cycle (layers empty)."""
        weak, strong, linked = self.mode.weak, self.mode.strong, self.mode.linked
        t = self.round
        kept = []
        for run in self.on_runs:
            s, seen_on, seen_off, front, layers, done = run
            raw = 0
            while front:
                low = front & -front
                raw |= weak[low.bit_length() - 1]
                front ^= low
            if self.cycles and t >= 1 and raw & strong[s]:
                found(_CYCLE, s, -1, [])
            new_off = raw & ~seen_off
            if self.forcing and not done and new_off >> s & 1:
                found(_FORCING, s, 0, [*layers, new_off])
                run[5] = done = True
            new_on = spread(new_off & linked, strong) & ~seen_on
            if not new_on or (done and not self.cycles):
                continue
            layers.append(new_off)
            layers.append(new_on)
            run[1], run[2], run[3] = seen_on | new_on, seen_off | new_off, new_on
            kept.append(run)
        self.on_runs = kept
        kept = []
        for run in self.off_runs:
            s, seen_on, seen_off, front, layers = run
            new_on = spread(front & linked, strong) & ~seen_on
            if new_on >> s & 1:
                found(_FORCING, s, 1, [*layers, new_on])
                continue
            new_off = spread(new_on, weak) & ~seen_off
            if not new_off:
                continue
            layers.append(new_on)
            layers.append(new_off)
            run[1], run[2], run[3] = seen_on | new_on, seen_off | new_off, new_off
            kept.append(run)
        self.off_runs = kept
        self.round += 1


def _trace(layers: list[int], end: int, mode: _Mode, first_on: bool) -> list[int]:
    """A path through the layers to ``end`` (predecessors are found among a node's own links: they are
    symmetric)."""
    path = [end]
    cur = end
    for i in range(len(layers) - 2, -1, -1):
        on = first_on ^ (i & 1)
        options = layers[i] & (mode.weak if on else mode.strong)[cur]
        cur = (options & -options).bit_length() - 1
        path.append(cur)
    return path[::-1]


class _Orders:
    """SE's order of consequences of one potential, built on demand: "on" -> the cell's other digits (Y), then the
    digit's other places in the block, the row, the column; "off" -> the bivalue partner (Y), then the bilocal
    partners in the block, the row, the column. Repeats are dropped, keeping the first."""

    def __init__(self, g: LinkGraph, mode: _Mode) -> None:
        self.g, self.mode = g, mode
        self.on: dict[int, list[int]] = {}
        self.off: dict[int, list[int]] = {}
        layout = g.cg.layout
        n = g.n
        self.unit_ids = [(2 * n + layout.box[c], layout.row[c], n + layout.col[c]) for c in range(g.nn)]
        self.peer_order = _peer_order(g.cg.shape)

    def after_on(self, node: int) -> list[int]:
        found = self.on.get(node)
        if found is None:
            g, nn = self.g, self.g.nn
            cell, k = node % nn, node // nn
            masks = g.cg.masks
            bit = 1 << k
            found = [k * nn + o for o in self.peer_order[cell] if masks[o] & bit]
            if self.mode.y:
                found = [k2 * nn + cell for k2 in range(g.n) if k2 != k and masks[cell] >> k2 & 1] + found
            self.on[node] = found
        return found

    def after_off(self, node: int) -> list[int]:
        found = self.off.get(node)
        if found is None:
            found = []
            g, nn = self.g, self.g.nn
            cell, k = node % nn, node // nn
            mask = g.cg.masks[cell]
            if self.mode.y and mask.bit_count() == 2:
                found.append(((mask & ~(1 << k)).bit_length() - 1) * nn + cell)
            if self.mode.x:
                for unit in self.unit_ids[cell]:
                    places = g.cg.cells_with(unit, k + 1)
                    if len(places) == 2:
                        found.append(k * nn + (places[0] if places[1] == cell else places[1]))
            found = list(dict.fromkeys(found))
            self.off[node] = found
        return found


@cache
def _peer_order(shape: Shape) -> tuple[tuple[int, ...], ...]:
    """Each cell's peers in SE's order: its block, then its row, then its column (each cell once)."""
    layout = layout_of(shape)
    n = shape.n
    order = []
    for c in range(n * n):
        units = (layout.units[2 * n + layout.box[c]], layout.units[layout.row[c]], layout.units[n + layout.col[c]])
        order.append(tuple(dict.fromkeys(o for unit in units for o in unit if o != c)))
    return tuple(order)


# A potential of SE's search: (node, is_on, parent potential or None).
_Potential = tuple[int, bool, "_Potential | None"]
# A queued hint's sort key: (difficulty, complexity, mode, cell, digit index, kind, sub, or the order a replay found).
_Key = tuple[float, int, int, int, int, int, int]
# A queued hint: (kind, mode, source, sub, layers, complexity); layers: bitsets (list[int]), or the closing
# potential of a replayed cycle (list[_Potential]), told apart by kind and sub.
_Queued = tuple[int, int, int, int, list[Any], int]


def _is_ancestor(child: _Potential, node: int, on: bool) -> bool:
    p = child[2]
    while p is not None:
        if p[0] == node and p[1] == on:
            return True
        p = p[2]
    return False


class _Replay:
    """SE's own cycle search from "s on", potential by potential in SE's order, kept between depths: ``closing(j)``
    gives the closing potentials at on-depth j (each the end of one cycle of complexity 2j + 2, through its
    parents), in the order SE finds them. Only run for sources whose bitset layers allow a cycle there."""

    def __init__(self, orders: _Orders, s: int) -> None:
        self.orders, self.s = orders, s
        self.seen_on = {s}
        self.expanded: set[int] = set()
        self.pending_on: list[_Potential] = [(s, True, None)]
        self.depth = 0  # the on-depth of pending_on

    def closing(self, depth: int) -> list[_Potential]:
        orders, s = self.orders, self.s
        weak, partners = orders.mode.weak, orders.mode.strong[s]
        while self.depth < depth:  # grow the tree of "on" potentials (SE's first parents) one depth
            next_on: list[_Potential] = []
            seen_on, expanded, offs = self.seen_on, self.expanded, orders.off
            for p in self.pending_on:
                for q in orders.after_on(p[0]):
                    # An off already expanded (an ancestor among them) only leads to "on"s already seen.
                    if q in expanded:
                        continue
                    expanded.add(q)
                    off = (q, False, p)
                    after = offs.get(q)
                    for r in orders.after_off(q) if after is None else after:
                        if r not in seen_on:
                            seen_on.add(r)
                            next_on.append((r, True, off))
            self.pending_on = next_on
            self.depth += 1
        found: list[_Potential] = []
        for p in self.pending_on:  # only offs strongly linked to s can close a cycle
            closers = weak[p[0]] & partners
            if not closers:
                continue
            after = orders.after_on(p[0])
            for q in sorted(iter_bits(closers), key=after.index):
                if not _is_ancestor(p, q, False):  # q is a strong partner: it makes s on
                    found.append((s, True, (q, False, p)))
        return found


def _cycle_path(end: _Potential) -> list[_Potential]:
    """The potentials of a cycle, from the first after the start to the closing one (the start itself left out,
    as SE does)."""
    path = []
    p = end
    while p[2] is not None:
        path.append(p)
        p = p[2]
    return path[::-1]


def _cycle_removals(g: LinkGraph, path: list[_Potential]) -> int:
    """SE's cycle eliminations as candidate ids: a candidate outside the cycle's cells that sees an "on" and an
    "off" potential of its digit."""
    tables = cell_tables(g.cg.shape)
    nn = g.nn
    forward = backward = 0
    cells = 0
    for node, on, _parent in path:
        cell, k = node % nn, node // nn
        cells |= 1 << cell
        seen = tables.peers[cell] << (k * nn)
        if on:
            forward |= seen
        else:
            backward |= seen
    outside = 0
    for cell in iter_bits(cells):
        outside |= tables.digits[cell]
    return forward & backward & g.present & ~outside


def _potential_text(g: LinkGraph, node: int, on: bool) -> str:
    return _node_text(g.n, node, on)


def _node_text(n: int, node: int, on: bool) -> str:
    nn = n * n
    return f"{cell_name(node % nn, n)}{'=' if on else '<>'}{node // nn + 1}"


def _pairs(g: LinkGraph, kills: int) -> list[tuple[int, int]]:
    return [(i % g.nn, i // g.nn + 1) for i in iter_bits(kills)]


def _cycle_step(g: LinkGraph, mode: _Mode, s: int, end: _Potential, complexity: int) -> Step | None:
    path = _cycle_path(end)
    kills = _cycle_removals(g, path)
    if not kills:
        return None
    gone = _pairs(g, kills)
    shown = " -> ".join(_potential_text(g, node, on) for node, on, _ in [(s, True, None), *path])
    cells = {node % g.nn for node, _on, _ in path}
    name = mode.cycle_name
    name_text = "generalized X-wing" if mode.name == "X" and len(cells) == 4 else name.lower()
    text = (
        f"{shown}: the loop holds one way round or the other, so what sees an 'on' and an 'off' of one digit "
        f"goes: remove {removals(gone, g.n)} ({name_text}, SE complexity {complexity})"
    )
    return make_step(
        name, g.cg, text, eliminations=gone, cells=cells, difficulty=se_difficulty(mode.cycle_base, complexity)
    )


def _forcing_step(cg: CandidateGrid, index: int, s: int, complexity: int, path: list[int], from_on: bool) -> Step:
    """The step of a forcing chain of mode ``index`` along ``path`` (node ids, from the start to the end)."""
    mode_name, _x, _y, _key, _cycle_name, _cycle_base, forcing_name, forcing_base = _MODES[index]
    n = cg.n
    nn = n * n
    shown = " -> ".join(_node_text(n, node, from_on ^ (i & 1 == 1)) for i, node in enumerate(path))
    cell, digit = s % nn, s // nn + 1
    name = cell_name(cell, n)
    # forcing_name is None only for mode Y, which has no forcing chains (``_Search``, the kernels): not here.
    kind = "turbot fish" if mode_name == "X" and complexity == 6 else forcing_name.lower()  # type: ignore[union-attr]
    difficulty = se_difficulty(forcing_base, complexity)
    cells = {node % nn for node in path}
    if from_on:
        text = f"{shown}: {name} = {digit} would remove itself, so remove {digit} from {name} ({kind})"
        return make_step(forcing_name, cg, text,  # type: ignore[arg-type]
                         eliminations=[(cell, digit)], cells=cells, difficulty=difficulty)
    text = f"{shown}: {name} without {digit} would force it, so {name} = {digit} ({kind})"
    return make_step(forcing_name, cg, text,  # type: ignore[arg-type]
                     placements=[(cell, digit)], cells=cells, difficulty=difficulty)


def _se_steps(cg: CandidateGrid, cycles: bool, forcing: bool) -> Iterator[Step]:
    """Every SE cycle and forcing chain, in SE's order (see the module docstring), lazily: a hint is yielded once
    no search can still find one that sorts before it. Up to 9x9 the compiled scans queue every hint at once and
    the link graph is built only once there is one to show."""
    nn = cg.n * cg.n
    searches: list[_Search] = []
    replays: dict[tuple[int, int], _Replay] = {}
    heap: list[tuple[tuple[float, int, int, int, int, int, int, int], _Queued]] = []  # (key + counter, hint)
    counter = 0

    def push(key: _Key, item: _Queued) -> None:
        nonlocal counter
        counter += 1
        heapq.heappush(heap, ((*key, counter), item))

    if cg.n <= se_kernel.MAX_N:  # the compiled scans find every hint's key at once: no search stays live
        _scan(cg, cycles, forcing, push)
        if not heap:
            return
    built: list[_Modes] = []

    def graph() -> _Modes:
        """The link graph's modes, built once a step needs them (up to 9x9: a cycle; a forcing chain's path comes
        from the compiled search)."""
        if not built:
            built.append(_Modes(link_graph(cg, False)))
        return built[0]

    if cg.n > se_kernel.MAX_N:
        modes = graph()
        searches = [_Search(i, modes[i], _sources(modes.g, modes[i]), cycles, forcing) for i in range(len(modes))]
    for search in searches:
        mode, index = search.mode, search.index

        def found(kind: int, s: int, sub: int, layers: list[int], mode: _Mode = mode, index: int = index,
                  search: _Search = search) -> None:
            complexity = 2 * search.round + 2
            base = mode.cycle_base if kind == _CYCLE else mode.forcing_base
            key = (_se_float(base, complexity), complexity, index, s % nn, s // nn, kind, sub)
            push(key, (kind, index, s, sub, layers, complexity))

        search.found = found  # type: ignore[attr-defined]

    while True:
        check_time()  # on a near-empty big grid these searches run for seconds
        live = [search for search in searches if search.live()]
        nearest = min(live, key=_Search.bound, default=None)
        if nearest is not None and (not heap or heap[0][0][:3] >= nearest.bound()):
            nearest.advance(nearest.found)  # type: ignore[attr-defined]
            continue
        if not heap:
            return
        key, (kind, index, s, sub, layers, complexity) = heapq.heappop(heap)
        if kind == _FORCING:
            yield _forcing_step(cg, index, s, complexity, _forcing_path(cg, graph, index, s, layers, sub == 0),
                                sub == 0)
            continue
        modes = graph()
        mode = modes[index]
        if sub == -1:  # a possible cycle: replay SE's search at that depth and queue the real ones
            replay = replays.get((index, s))
            if replay is None:
                replay = replays[(index, s)] = _Replay(modes.orders(index), s)
            for number, end in enumerate(replay.closing(complexity // 2 - 1)):
                push((*key[:6], number), (kind, index, s, number, [end], complexity))
        else:
            step = _cycle_step(modes.g, mode, s, layers[0], complexity)
            if step is not None:
                yield step


def _scan(cg: CandidateGrid, cycles: bool, forcing: bool, push: Callable[[_Key, _Queued], None]) -> None:
    """Queue every forcing chain the compiled scan finds and every round of SE's own cycle search (compiled too)
    whose cycles remove something, with SE's sort keys."""
    if LIVE_SEARCH:
        on_found, off_found, cycle_rounds = se_kernel.live_search(cg.masks, cg.shape, _peer_order(cg.shape), cycles,
                                                                 forcing)
    else:  # the reference: the bitset scan on every node id, SE's cycle search from every source
        on_found, off_found, _rounds = se_kernel.scan(cg.masks, cg.shape, False, forcing)
        cycle_rounds = se_kernel.cycle_rounds(cg.masks, cg.shape, _peer_order(cg.shape)) if cycles else _rounds
    hit = (on_found != 0) | (off_found != 0) | (cycle_rounds != 0)
    nn = cg.n * cg.n
    for index, s in zip(*(axis.tolist() for axis in hit.nonzero()), strict=True):
        _name, _x, _y, _key, _cycle_name, cycle_base, _forcing_name, forcing_base = _MODES[index]
        cell, k = s % nn, s // nn
        rounds = int(cycle_rounds[index, s])
        while rounds:
            low = rounds & -rounds
            complexity = 2 * low.bit_length()  # round t closes cycles of complexity 2t + 2
            key = (_se_float(cycle_base, complexity), complexity, index, cell, k, _CYCLE, -1)
            push(key, (_CYCLE, index, s, -1, [], complexity))
            rounds ^= low
        for sub, table in ((0, on_found), (1, off_found)):
            complexity = int(table[index, s])
            if complexity:
                key = (_se_float(forcing_base, complexity), complexity, index, cell, k, _FORCING, sub)
                push(key, (_FORCING, index, s, sub, [], complexity))


def _forcing_path(cg: CandidateGrid, graph: Callable[[], _Modes], index: int, s: int, layers: list[int],
                  from_on: bool) -> list[int]:
    """A forcing chain's path (node ids): traced through its search's layers (the Python searches keep them),
    else up to 9x9 by the compiled search (``LIVE_SEARCH``), else through the layers of a search of that source
    alone (the reference)."""
    if layers:
        return _trace(layers, s, graph()[index], from_on)
    if LIVE_SEARCH:
        return se_kernel.forcing_path(cg.masks, cg.shape, index, s, from_on)
    mode = graph()[index]
    return _trace(_forcing_layers(index, mode, s, from_on), s, mode, from_on)


def _forcing_layers(index: int, mode: _Mode, s: int, from_on: bool) -> list[int]:
    """The layers of one forcing chain's search (the compiled scan keeps only its length)."""
    search = _Search(index, mode, [s], cycles=False, forcing=True)
    if from_on:
        search.off_runs = []
    else:
        search.on_runs = []
    got: list[list[int]] = []
    while not got and search.live():
        search.advance(lambda _kind, _s, _sub, layers: got.append(layers))
    return got[0]


def find_se_chains(cg: CandidateGrid) -> Iterator[Step]:
    """SE's cycles and forcing chains together, in SE's order: the first is the step SE would apply."""
    return _se_steps(cg, cycles=True, forcing=True)


def find_se_cycles(cg: CandidateGrid) -> Iterator[Step]:
    """SE's bidirectional X-, Y- and XY-cycles, easiest first."""
    return _se_steps(cg, cycles=True, forcing=False)


def find_se_forcing_chains(cg: CandidateGrid) -> Iterator[Step]:
    """SE's forcing X-chains and forcing (XY) chains, easiest first."""
    return _se_steps(cg, cycles=False, forcing=True)
